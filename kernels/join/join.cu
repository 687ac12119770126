/*
 * Equality joins (include/gcol/join.h) on the shared hash table (kernels/detail/hash_table.cuh).
 *
 * Build: every build row with a usable key claims, with insert_unique, the slot of its key's
 * group; rows per slot are counted, an exclusive sum of the counts gives each group a run
 * of `rows` (a CSR layout), and a second pass drops each build row's index into its group's
 * run. A key with 10K duplicates is one slot and one run of 10K rows: a probe finds the slot
 * once and reads the run, so the cost per output row is the same for unique keys and for
 * heavily repeated ones (no chain of duplicates to walk, no cliff).
 *
 * Probe: pass 1 finds each probe row's slot and its output count for the join kind (64-bit);
 * an exclusive sum gives each probe row its output range, so the exact size is known before
 * anything is allocated; pass 2 writes the pairs of the requested output range (a batch).
 * A full join marks the matched slots in pass 1 and appends the unmatched build rows.
 */
#include "detail/gather.h"
#include "detail/hash_table.cuh"
#include "detail/scan.h"
#include "gcol/join.h"

struct gcol_join_hash {
  gcol_buffer *slots; /* the hash table's slots */
  gcol_detail_hash_table table;
  gcol_buffer *keys; /* gcol_detail_row_column[num_keys] of the build keys */
  int32_t num_keys;
  gcol_data_type *types; /* host copy of the build key types (probe keys must match) */
  gcol_buffer *offsets;  /* int64[capacity + 1]: run of slot s = rows[offsets[s], offsets[s+1]) */
  gcol_buffer *rows;     /* int64 build rows grouped by slot */
  gcol_buffer *row_slot; /* int64[build rows]: a build row's slot, -1 when its key is unusable */
  int64_t build_rows;
  bool nulls_equal;
};

namespace {

/* Slot of build row i (claimed if new), counted; -1 for a key with a null when nulls are
 * unequal. Sets *overflow when the probe sequence runs out. */
__global__ void build_insert_kernel(gcol_detail_hash_table t, const gcol_detail_row_column *keys,
                                    int32_t num_keys, bool nulls_equal, int64_t n,
                                    int64_t *row_slot, unsigned long long *counts, int *overflow) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t slot = -1;
    if (nulls_equal || !gcol_detail_row_has_null(keys, num_keys, i)) {
      gcol_detail_row_matcher m = {keys, keys, num_keys, nulls_equal, i};
      bool inserted = false;
      slot =
          gcol_detail_hash_insert_unique(t, gcol_detail_row_hash(keys, num_keys, i), &m, &inserted);
      if (slot < 0) {
        *overflow = 1;
      } else {
        atomicAdd(&counts[slot], 1ull);
      }
    }
    row_slot[i] = slot;
  }
}

/* rows[cursor[slot]++] = i for every build row with a slot. */
__global__ void build_fill_kernel(const int64_t *row_slot, int64_t n, unsigned long long *cursor,
                                  int64_t *rows) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const slot = row_slot[i];
    if (slot >= 0) rows[atomicAdd(&cursor[slot], 1ull)] = i;
  }
}

/* Output rows of one probe row with `matches` matches. */
__device__ __forceinline__ int64_t output_count(gcol_join_kind kind, int64_t matches) {
  switch (kind) {
    case GCOL_JOIN_INNER:
      return matches;
    case GCOL_JOIN_LEFT_SEMI:
      return matches > 0 ? 1 : 0;
    case GCOL_JOIN_LEFT_ANTI:
      return matches > 0 ? 0 : 1;
    default:
      return matches > 0 ? matches : 1; /* left, full */
  }
}

/* Pass 1: where each probe row's matches start in rows[] (-1: no match) and its output
 * count; marks matched slots. */
__global__ void probe_count_kernel(gcol_detail_hash_table t, const gcol_detail_row_column *build,
                                   const gcol_detail_row_column *probe, int32_t num_keys,
                                   bool nulls_equal, gcol_join_kind kind, int64_t n,
                                   const int64_t *offsets, int64_t *run_start, int64_t *counts,
                                   uint8_t *matched) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t slot = -1;
    if (nulls_equal || !gcol_detail_row_has_null(probe, num_keys, i)) {
      gcol_detail_row_matcher m = {build, probe, num_keys, nulls_equal, i};
      slot = gcol_detail_hash_find(t, gcol_detail_row_hash(probe, num_keys, i), &m);
    }
    int64_t const matches = slot >= 0 ? offsets[slot + 1] - offsets[slot] : 0;
    if (matched != NULL && matches > 0) matched[slot] = 1;
    run_start[i] = matches > 0 ? offsets[slot] : -1; /* pass 2 reads rows[] from there */
    counts[i] = output_count(kind, matches);
  }
}

/* Pass 2: the pairs of output rows [first, last) from probe rows (out_offsets: their
 * exclusive sum). */
template <typename T>
__global__ void probe_write_kernel(int64_t n, const int64_t *out_offsets, const int64_t *run_start,
                                   const int64_t *rows, int64_t first, int64_t last, T *left,
                                   T *right) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const begin = out_offsets[i], end = out_offsets[i + 1];
    if (end <= first || begin >= last) continue;
    int64_t const run = run_start[i];
    int64_t const lo = begin > first ? begin : first;
    int64_t const hi = end < last ? end : last;
    for (int64_t k = lo; k < hi; ++k) {
      left[k - first] = (T)i;
      if (right != NULL) right[k - first] = run >= 0 ? (T)rows[run + (k - begin)] : (T)-1;
    }
  }
}

/* Full join: flags[j] = 1 for build rows no probe row matched (their key unusable or their
 * slot unmarked). */
__global__ void unmatched_kernel(const int64_t *row_slot, const uint8_t *matched, int64_t n,
                                 int64_t *flags) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    int64_t const slot = row_slot[j];
    flags[j] = slot < 0 || matched[slot] == 0 ? 1 : 0;
  }
}

/* Full join: unmatched build row j (position pos[j] among them) is output row base + pos[j]. */
template <typename T>
__global__ void unmatched_write_kernel(const int64_t *row_slot, const uint8_t *matched,
                                       const int64_t *pos, int64_t n, int64_t base, int64_t first,
                                       int64_t last, T *left, T *right) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    int64_t const slot = row_slot[j];
    if (!(slot < 0 || matched[slot] == 0)) continue;
    int64_t const k = base + pos[j];
    if (k < first || k >= last) continue;
    left[k - first] = (T)-1;
    right[k - first] = (T)j;
  }
}

template <typename T>
__global__ void cross_kernel(int64_t first, int64_t count, int64_t right_rows, T *left, T *right) {
  GCOL_DETAIL_GRID_LOOP(k, count) {
    left[k] = (T)((first + k) / right_rows);
    right[k] = (T)((first + k) % right_rows);
  }
}

unsigned int grid_for(int64_t n) { return gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE); }

/* Flat descriptors of every column of a key table (all of them are keys). */
gcol_status key_columns(gcol_table_view keys, gcol_stream stream, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;
  *out = NULL;
  GCOL_DETAIL_CHECK(keys.num_columns >= 1 && keys.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "the key table has no column");
  indices = (int32_t *)calloc((size_t)keys.num_columns, sizeof *indices);
  GCOL_DETAIL_CHECK(indices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                    (int)keys.num_columns);
  for (int32_t k = 0; k < keys.num_columns; ++k) indices[k] = k;
  GCOL_DETAIL_TRY(
      gcol_detail_row_columns_make(keys, indices, keys.num_columns, true, false, stream, out));
done:
  free(indices);
  return status;
}

bool kind_valid(gcol_join_kind kind) {
  return kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL ||
         kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI;
}

bool has_right(gcol_join_kind kind) {
  return kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL;
}

/* Probe keys: the build's key count and types. */
gcol_status check_probe(const gcol_join_hash *h, gcol_table_view probe, gcol_join_kind kind) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(h);
  GCOL_DETAIL_CHECK(kind_valid(kind), GCOL_ERROR_INVALID_ARGUMENT, "kind is %d, not a join kind",
                    (int)kind);
  GCOL_DETAIL_CHECK(probe.num_columns == h->num_keys, GCOL_ERROR_INVALID_ARGUMENT,
                    "the probe has %d key columns, the build %d", (int)probe.num_columns,
                    (int)h->num_keys);
  for (int32_t k = 0; k < h->num_keys; ++k) {
    gcol_data_type const a = probe.columns[k].type, b = h->types[k];
    GCOL_DETAIL_CHECK(a.id == b.id && a.scale == b.scale, GCOL_ERROR_TYPE_MISMATCH,
                      "key column %d is %s (scale %d) in the probe, %s (scale %d) in the build",
                      (int)k, gcol_type_name(a.id), (int)a.scale, gcol_type_name(b.id),
                      (int)b.scale);
  }
done:
  return status;
}

/* The state of one probe: pass 1 and the sums. */
typedef struct probe_state {
  gcol_buffer *keys, *run_start, *out_offsets, *matched, *unmatched_pos;
  int64_t probe_total; /* output rows from probe rows */
  int64_t unmatched;   /* full join: unmatched build rows appended */
} probe_state;

void probe_state_free(probe_state *p) {
  gcol_buffer_free(p->keys);
  gcol_buffer_free(p->run_start);
  gcol_buffer_free(p->out_offsets);
  gcol_buffer_free(p->matched);
  gcol_buffer_free(p->unmatched_pos);
  memset(p, 0, sizeof *p);
}

/* Reads element `index` of a device int64 array (synchronizes). */
gcol_status read_i64(const gcol_buffer *b, int64_t index, int64_t *out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(out, (const int64_t *)b->data + index, sizeof *out,
                                       cudaMemcpyDeviceToHost, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
done:
  return status;
}

/* Pass 1, the sums, and the full join's unmatched build rows (synchronizes). */
gcol_status probe_run(const gcol_join_hash *h, gcol_table_view probe_keys, gcol_join_kind kind,
                      probe_state *p, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = probe_keys.num_rows, nb = h->build_rows;
  bool const full = kind == GCOL_JOIN_FULL;
  memset(p, 0, sizeof *p);
  GCOL_DETAIL_TRY(key_columns(probe_keys, stream, &p->keys));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, stream, NULL, &p->run_start));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n + 1) * 8u, stream, NULL, &p->out_offsets));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(p->out_offsets->data, 0, (size_t)(n + 1) * 8u, s));
  if (full) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)h->table.capacity, stream, NULL, &p->matched));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(p->matched->data, 0, (size_t)h->table.capacity, s));
  }
  if (n > 0) {
    probe_count_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        h->table, (const gcol_detail_row_column *)h->keys->data,
        (const gcol_detail_row_column *)p->keys->data, h->num_keys, h->nulls_equal, kind, n,
        (const int64_t *)h->offsets->data, (int64_t *)p->run_start->data,
        (int64_t *)p->out_offsets->data, full ? (uint8_t *)p->matched->data : NULL);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)p->out_offsets->data,
                                                  (int64_t *)p->out_offsets->data, n + 1, stream));
  }
  GCOL_DETAIL_TRY(read_i64(p->out_offsets, n, &p->probe_total, stream));
  if (full && nb > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(nb + 1) * 8u, stream, NULL, &p->unmatched_pos));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(p->unmatched_pos->data, 0, (size_t)(nb + 1) * 8u, s));
    unmatched_kernel<<<grid_for(nb), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const int64_t *)h->row_slot->data, (const uint8_t *)p->matched->data, nb,
        (int64_t *)p->unmatched_pos->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)p->unmatched_pos->data,
                                                  (int64_t *)p->unmatched_pos->data, nb + 1,
                                                  stream));
    GCOL_DETAIL_TRY(read_i64(p->unmatched_pos, nb, &p->unmatched, stream));
  }
  GCOL_DETAIL_CHECK(p->probe_total <= INT64_MAX - p->unmatched, GCOL_ERROR_OVERFLOW,
                    "the join's output does not fit in int64 rows");
done:
  if (status != GCOL_OK) probe_state_free(p);
  return status;
}

/* Pass 2 into maps of type T for output rows [first, last). */
template <typename T>
void launch_writes(const gcol_join_hash *h, const probe_state *p, int64_t n, bool full,
                   int64_t first, int64_t last, T *left, T *right, cudaStream_t s) {
  if (n > 0 && first < p->probe_total) {
    probe_write_kernel<T><<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        n, (const int64_t *)p->out_offsets->data, (const int64_t *)p->run_start->data,
        (const int64_t *)h->rows->data, first, last, left, right);
  }
  if (full && p->unmatched > 0 && last > p->probe_total) {
    unmatched_write_kernel<T><<<grid_for(h->build_rows), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const int64_t *)h->row_slot->data, (const uint8_t *)p->matched->data,
        (const int64_t *)p->unmatched_pos->data, h->build_rows, p->probe_total, first, last, left,
        right);
  }
}

/* Fails with OVERFLOW when `rows` rows of `width` bytes do not fit in size_t. */
gcol_status check_output_bytes(int64_t rows, size_t width) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK((uint64_t)rows <= SIZE_MAX / width, GCOL_ERROR_OVERFLOW,
                    "an output of %lld rows does not fit in memory sizes", (long long)rows);
done:
  return status;
}

}  // namespace

extern "C" void gcol_join_hash_free(gcol_join_hash *hash) {
  if (hash == NULL) return;
  gcol_buffer_free(hash->slots);
  gcol_buffer_free(hash->keys);
  gcol_buffer_free(hash->offsets);
  gcol_buffer_free(hash->rows);
  gcol_buffer_free(hash->row_slot);
  free(hash->types);
  free(hash);
}

extern "C" int64_t gcol_join_hash_build_rows(const gcol_join_hash *hash) {
  return hash == NULL ? 0 : hash->build_rows;
}

extern "C" gcol_status gcol_join_hash_create(gcol_table_view build_keys, gcol_null_equality nulls,
                                             gcol_join_hash **out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_join_hash *h = NULL;
  gcol_buffer *overflow = NULL, *cursor = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int host_overflow = 0;
  int64_t n = 0, capacity = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_join_hash_create");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(nulls == GCOL_NULLS_EQUAL || nulls == GCOL_NULLS_UNEQUAL,
                    GCOL_ERROR_INVALID_ARGUMENT, "nulls is %d, not a gcol_null_equality",
                    (int)nulls);
  GCOL_DETAIL_CHECK(build_keys.num_columns >= 1 && build_keys.columns != NULL,
                    GCOL_ERROR_INVALID_ARGUMENT, "the build has no key column");
  h = (gcol_join_hash *)calloc(1, sizeof *h);
  GCOL_DETAIL_CHECK(h != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for a join hash");
  h->types = (gcol_data_type *)calloc((size_t)build_keys.num_columns, sizeof *h->types);
  GCOL_DETAIL_CHECK(h->types != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                    (int)build_keys.num_columns);
  for (int32_t k = 0; k < build_keys.num_columns; ++k) h->types[k] = build_keys.columns[k].type;
  h->num_keys = build_keys.num_columns;
  h->nulls_equal = nulls == GCOL_NULLS_EQUAL;
  h->build_rows = n = build_keys.num_rows;
  GCOL_DETAIL_TRY(key_columns(build_keys, stream, &h->keys));
  GCOL_DETAIL_TRY(gcol_detail_hash_table_create(n, stream, &h->slots, &h->table));
  capacity = h->table.capacity;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(capacity + 1) * 8u, stream, NULL, &h->offsets));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(h->offsets->data, 0, (size_t)(capacity + 1) * 8u, s));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, stream, NULL, &h->row_slot));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int), stream, NULL, &overflow));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(overflow->data, 0, sizeof(int), s));
  if (n > 0) {
    build_insert_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        h->table, (const gcol_detail_row_column *)h->keys->data, h->num_keys, h->nulls_equal, n,
        (int64_t *)h->row_slot->data, (unsigned long long *)h->offsets->data,
        (int *)overflow->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)h->offsets->data,
                                                (int64_t *)h->offsets->data, capacity + 1, stream));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, stream, NULL, &h->rows));
  if (n > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)capacity * 8u, stream, NULL, &cursor));
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(cursor->data, h->offsets->data, (size_t)capacity * 8u,
                                         cudaMemcpyDeviceToDevice, s));
    build_fill_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const int64_t *)h->row_slot->data, n, (unsigned long long *)cursor->data,
        (int64_t *)h->rows->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(&host_overflow, overflow->data, sizeof(int), cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  GCOL_DETAIL_CHECK(host_overflow == 0, GCOL_ERROR_OVERFLOW,
                    "the join hash table of %lld rows overflowed its %lld slots", (long long)n,
                    (long long)capacity);
  *out = h;
  h = NULL;
done:
  gcol_join_hash_free(h);
  gcol_buffer_free(overflow);
  gcol_buffer_free(cursor);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_join_hash_probe_size(const gcol_join_hash *hash,
                                                 gcol_table_view probe_keys, gcol_join_kind kind,
                                                 int64_t *out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  probe_state p;
  memset(&p, 0, sizeof p);
  GCOL_DETAIL_NVTX_PUSH("gcol_join_hash_probe_size");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = 0;
  GCOL_DETAIL_TRY(check_probe(hash, probe_keys, kind));
  GCOL_DETAIL_TRY(probe_run(hash, probe_keys, kind, &p, stream));
  *out = p.probe_total + p.unmatched;
done:
  probe_state_free(&p);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_join_hash_probe(const gcol_join_hash *hash, gcol_table_view probe_keys,
                                            gcol_join_kind kind, int64_t first, int64_t max_rows,
                                            gcol_column **left_map, gcol_column **right_map,
                                            gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  probe_state p;
  gcol_column *left = NULL, *right = NULL;
  int64_t total = 0, count = 0;
  memset(&p, 0, sizeof p);
  GCOL_DETAIL_NVTX_PUSH("gcol_join_hash_probe");
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  if (right_map != NULL) *right_map = NULL;
  GCOL_DETAIL_TRY(check_probe(hash, probe_keys, kind));
  GCOL_DETAIL_CHECK(right_map != NULL || !has_right(kind), GCOL_ERROR_INVALID_ARGUMENT,
                    "right_map is NULL: inner, left and full joins return right rows");
  GCOL_DETAIL_TRY(probe_run(hash, probe_keys, kind, &p, stream));
  total = p.probe_total + p.unmatched;
  GCOL_DETAIL_CHECK(first >= 0 && first <= total, GCOL_ERROR_INVALID_ARGUMENT,
                    "first is %lld, outside the output's [0, %lld]", (long long)first,
                    (long long)total);
  count = max_rows < 0 || max_rows > total - first ? total - first : max_rows;
  {
    int64_t const larger =
        probe_keys.num_rows > hash->build_rows ? probe_keys.num_rows : hash->build_rows;
    gcol_data_type const type = gcol_data_type_make(gcol_index_type_for(larger));
    bool const wide = type.id == GCOL_INT64;
    bool const full = kind == GCOL_JOIN_FULL;
    cudaStream_t const s = (cudaStream_t)stream;
    GCOL_DETAIL_TRY(check_output_bytes(count, 8u));
    GCOL_DETAIL_TRY(gcol_column_create(type, count, GCOL_MASK_UNALLOCATED, stream, mr, &left));
    if (has_right(kind)) {
      GCOL_DETAIL_TRY(gcol_column_create(type, count, GCOL_MASK_UNALLOCATED, stream, mr, &right));
    }
    if (count > 0) {
      void *const l = left->data->data;
      void *const r = right != NULL ? right->data->data : NULL;
      if (wide) {
        launch_writes<int64_t>(hash, &p, probe_keys.num_rows, full, first, first + count,
                               (int64_t *)l, (int64_t *)r, s);
      } else {
        launch_writes<int32_t>(hash, &p, probe_keys.num_rows, full, first, first + count,
                               (int32_t *)l, (int32_t *)r, s);
      }
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
  }
  *left_map = left;
  left = NULL;
  if (right_map != NULL) {
    *right_map = right;
    right = NULL;
  }
done:
  gcol_column_free(left);
  gcol_column_free(right);
  probe_state_free(&p);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_join(gcol_table_view left_keys, gcol_table_view right_keys,
                                 gcol_join_kind kind, gcol_null_equality nulls,
                                 gcol_column **left_map, gcol_column **right_map,
                                 gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_join_hash *h = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_join");
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  if (right_map != NULL) *right_map = NULL;
  GCOL_DETAIL_CHECK(kind_valid(kind), GCOL_ERROR_INVALID_ARGUMENT, "kind is %d, not a join kind",
                    (int)kind);
  GCOL_DETAIL_CHECK(left_keys.num_columns == right_keys.num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                    "left has %d key columns, right %d", (int)left_keys.num_columns,
                    (int)right_keys.num_columns);
  GCOL_DETAIL_TRY(gcol_join_hash_create(right_keys, nulls, &h, stream));
  GCOL_DETAIL_TRY(gcol_join_hash_probe(h, left_keys, kind, 0, -1, left_map, right_map, stream, mr));
done:
  gcol_join_hash_free(h);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

namespace {

/* The columns `indices` of a table as a view (storage: num host views). */
gcol_status select_columns(gcol_table_view t, const int32_t *indices, int32_t num,
                           gcol_column_view *storage, const char *what, gcol_table_view *out) {
  gcol_status status = GCOL_OK;
  for (int32_t k = 0; k < num; ++k) {
    GCOL_DETAIL_CHECK(indices[k] >= 0 && indices[k] < t.num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s[%d] is %d, outside the %d columns", what, (int)k, (int)indices[k],
                      (int)t.num_columns);
    storage[k] = t.columns[indices[k]];
  }
  GCOL_DETAIL_TRY(gcol_table_view_make(storage, num, out));
done:
  return status;
}

/* Gathers the columns of `source` by `map` (-1: null row) into out[0..). */
gcol_status gather_side(gcol_table_view source, const gcol_column *map, gcol_column **out,
                        gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *t = NULL;
  gcol_detail_gather_map g;
  memset(&g, 0, sizeof g);
  GCOL_DETAIL_TRY(gcol_indexalator_make(gcol_column_get_view(map), &g.indices));
  g.size = map->size;
  g.source_rows = source.num_rows;
  g.nullify = true;
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_table(source, g, stream, mr, &t));
  for (int32_t k = 0; k < t->num_columns; ++k) {
    out[k] = t->columns[k];
    t->columns[k] = NULL;
  }
done:
  gcol_table_free(t);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_join_tables(gcol_table_view left, const int32_t *left_on,
                                        gcol_table_view right, const int32_t *right_on,
                                        int32_t num_keys, gcol_join_kind kind,
                                        gcol_null_equality nulls, bool drop_right_keys,
                                        gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view *views = NULL;
  gcol_column **columns = NULL;
  gcol_column *left_map = NULL, *right_map = NULL;
  gcol_table_view left_keys, right_keys, right_kept;
  int32_t num_out = 0, num_right = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_join_tables");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(left_on);
  GCOL_DETAIL_CHECK_NOT_NULL(right_on);
  GCOL_DETAIL_CHECK(num_keys >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_keys is %d, needs >= 1",
                    (int)num_keys);
  views = (gcol_column_view *)calloc((size_t)(2 * num_keys + right.num_columns), sizeof *views);
  columns =
      (gcol_column **)calloc((size_t)(left.num_columns + right.num_columns + 1), sizeof *columns);
  GCOL_DETAIL_CHECK(views != NULL && columns != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d columns", (int)(left.num_columns + right.num_columns));
  GCOL_DETAIL_TRY(select_columns(left, left_on, num_keys, views, "left_on", &left_keys));
  GCOL_DETAIL_TRY(
      select_columns(right, right_on, num_keys, views + num_keys, "right_on", &right_keys));
  GCOL_DETAIL_TRY(gcol_join(left_keys, right_keys, kind, nulls, &left_map,
                            has_right(kind) ? &right_map : NULL, stream, mr));
  GCOL_DETAIL_TRY(gather_side(left, left_map, columns, stream, mr));
  num_out = left.num_columns;
  if (has_right(kind)) {
    gcol_column_view *const kept = views + 2 * num_keys;
    for (int32_t c = 0; c < right.num_columns; ++c) {
      bool is_key = false;
      for (int32_t k = 0; k < num_keys; ++k) is_key = is_key || right_on[k] == c;
      if (!(drop_right_keys && is_key)) kept[num_right++] = right.columns[c];
    }
    if (num_right > 0) {
      GCOL_DETAIL_TRY(gcol_table_view_make(kept, num_right, &right_kept));
      right_kept.num_rows = right.num_rows;
      GCOL_DETAIL_TRY(gather_side(right_kept, right_map, columns + num_out, stream, mr));
      num_out += num_right;
    }
  }
  GCOL_DETAIL_TRY(gcol_table_create(columns, num_out, out));
  for (int32_t k = 0; k < num_out; ++k) columns[k] = NULL;
done:
  if (columns != NULL) {
    for (int32_t k = 0; k < left.num_columns + right.num_columns; ++k) gcol_column_free(columns[k]);
  }
  free(columns);
  free(views);
  gcol_column_free(left_map);
  gcol_column_free(right_map);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_cross_join(int64_t left_rows, int64_t right_rows,
                                       gcol_column **left_map, gcol_column **right_map,
                                       gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *left = NULL, *right = NULL;
  int64_t count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_cross_join");
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(right_map);
  *right_map = NULL;
  GCOL_DETAIL_CHECK(left_rows >= 0 && right_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "row counts are %lld and %lld, need >= 0", (long long)left_rows,
                    (long long)right_rows);
  GCOL_DETAIL_CHECK(right_rows == 0 || left_rows <= INT64_MAX / right_rows, GCOL_ERROR_OVERFLOW,
                    "a cross join of %lld x %lld rows does not fit in int64", (long long)left_rows,
                    (long long)right_rows);
  count = left_rows * right_rows;
  GCOL_DETAIL_TRY(check_output_bytes(count, 8u));
  {
    int64_t const larger = left_rows > right_rows ? left_rows : right_rows;
    gcol_data_type const type = gcol_data_type_make(gcol_index_type_for(larger));
    cudaStream_t const s = (cudaStream_t)stream;
    GCOL_DETAIL_TRY(gcol_column_create(type, count, GCOL_MASK_UNALLOCATED, stream, mr, &left));
    GCOL_DETAIL_TRY(gcol_column_create(type, count, GCOL_MASK_UNALLOCATED, stream, mr, &right));
    if (count > 0) {
      if (type.id == GCOL_INT64) {
        cross_kernel<int64_t><<<grid_for(count), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
            0, count, right_rows, (int64_t *)left->data->data, (int64_t *)right->data->data);
      } else {
        cross_kernel<int32_t><<<grid_for(count), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
            0, count, right_rows, (int32_t *)left->data->data, (int32_t *)right->data->data);
      }
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
  }
  *left_map = left;
  *right_map = right;
  left = right = NULL;
done:
  gcol_column_free(left);
  gcol_column_free(right);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
