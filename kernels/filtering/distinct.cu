/*
 * distinct, unique (consecutive) and distinct_count over multi-column keys.
 *
 * distinct: the shared device hash table (kernels/detail/hash_table.cuh, used as a set)
 * keeps one representative row per group of equal keys (row operators of
 * kernels/detail/row_operators.cuh). keep ANY keeps the row whose insert claimed its
 * group's slot, decided in the insert pass. Other keeps resolve through a per-slot word
 * (atomicMin of the row for FIRST, atomicMax for LAST, a count for NONE) and a second pass.
 * Either way a flag per row says whether it is kept, and the flags are compacted in row
 * order, so the output keeps the input's order for every `keep`.
 *
 * The table is sized for an estimate of the distinct keys (detail/cardinality.h), not for
 * every row, so that it stays in L2 when the keys repeat; the estimate only sizes, and a
 * table it made too small overflows its bounded probes and is rebuilt for every row.
 */
#include "detail/cardinality.h"
#include "detail/hash_table.cuh"
#include "filtering/row_map.cuh"
#include "gcol/filtering.h"
#include "gcol/hash.h"
#include "gcol/probe.h"

namespace {

/* Rows up to which distinct sizes its table for every row without estimating: 2^16 slots
 * (512 KiB) stay in L2 anyway, and the estimate's pass and synchronization would cost more. */
#define DISTINCT_ESTIMATE_MIN_ROWS ((int64_t)1 << 15)

/* Probes per insert into a table sized by the estimate: far more than the longest run of a
 * table at load <= 1/2, so only a table that the estimate made too small gives up (then the
 * flags are computed again with a table for every row). */
#define DISTINCT_SIZED_MAX_PROBES 512

/* Device words of one try: the overflow flag, and the claim of the packed key whose bits
 * equal EMPTY (its group lives outside the table; keep ANY keeps the row that claims it). */
typedef struct distinct_state {
  int overflow;
  int unused;
  unsigned long long empty_claim;
} distinct_state;

/* Once a try has overflowed its flags are discarded: the remaining rows stop at once. */
__device__ __forceinline__ bool try_failed(const distinct_state *st) {
  return *(volatile const int *)&st->overflow != 0;
}

/* The per-slot word of FIRST (min row), LAST (max row) or NONE (count, saturating at 2: the
 * flags only ask whether it is 1). Reads first, so repeated keys mostly skip the atomic. */
__device__ __forceinline__ void note_row(long long *word, int32_t keep, int64_t i) {
  long long const cur = *(volatile long long *)word;
  if (keep == GCOL_KEEP_FIRST) {
    if ((long long)i < cur) atomicMin(word, (long long)i);
  } else if (keep == GCOL_KEEP_LAST) {
    if ((long long)i > cur) atomicMax(word, (long long)i);
  } else if (cur < 2) {
    atomicAdd((unsigned long long *)word, 1ull);
  }
}

/* Rows with nulls under unequal nulls stay out of the table (unique). keep ANY: the row that
 * claimed its group's slot is kept, decided here (flags); other keeps record the row's slot
 * and note the row in the slot's word, and row_flags_kernel decides. */
__global__ void row_insert_kernel(gcol_detail_hash_table t, long long *keep_word,
                                  const gcol_detail_row_column *keys, int32_t num_keys,
                                  bool nulls_equal, int32_t keep, int64_t n, int64_t max_probes,
                                  int64_t *row_slot, uint8_t *flags, distinct_state *st) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    if (try_failed(st)) return;
    int64_t slot = -1;
    bool inserted = false;
    if (nulls_equal || !gcol_detail_row_has_null(keys, num_keys, i)) {
      gcol_detail_row_matcher const m = {keys, keys, num_keys, nulls_equal, i};
      slot = gcol_detail_hash_insert_unique_bounded(t, gcol_detail_row_hash(keys, num_keys, i), &m,
                                                    max_probes, &inserted);
      if (slot < 0) {
        st->overflow = 1;
        return;
      }
      if (keep != GCOL_KEEP_ANY) note_row(&keep_word[slot], keep, i);
    }
    if (keep == GCOL_KEEP_ANY) {
      flags[i] = slot < 0 || inserted ? 1 : 0;
    } else {
      row_slot[i] = slot;
    }
  }
}

/* After an overflow the inserts stopped early (row_slot is partly unwritten): nothing to do. */
__global__ void row_flags_kernel(const long long *keep_word, const int64_t *row_slot, int32_t keep,
                                 int64_t n, uint8_t *flags, const distinct_state *st) {
  if (try_failed(st)) return;
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const slot = row_slot[i];
    bool kept = true; /* rows outside the table are unique */
    if (slot >= 0) kept = keep == GCOL_KEEP_NONE ? keep_word[slot] == 1 : keep_word[slot] == i;
    flags[i] = kept ? 1 : 0;
  }
}

/* Claims the EMPTY-pattern group for the calling row (read first: one atomic, however many
 * rows hold that key). */
__device__ __forceinline__ bool claim_empty_group(distinct_state *st) {
  if (*(volatile unsigned long long *)&st->empty_claim != 0) return false;
  return atomicCAS(&st->empty_claim, 0ull, 1ull) == 0ull;
}

/* Packed keys (one fixed-width key of <= 8 bytes, no nulls): the table holds the keys. keep
 * ANY: the row whose CAS claimed the key's slot (or the EMPTY-pattern group) is kept, decided
 * here: no second pass, no per-slot words. Other keeps note the row in the slot's word (the
 * EMPTY-pattern group's is word `capacity`) and packed_flags_kernel decides. */
__global__ void packed_insert_kernel(gcol_detail_hash_table t, long long *keep_word,
                                     const gcol_detail_row_column *keys, int32_t keep, int64_t n,
                                     int64_t max_probes, uint8_t *flags, distinct_state *st) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    if (try_failed(st)) return;
    uint64_t const key = gcol_detail_row_bits(&keys[0], i);
    bool inserted = false;
    int64_t const slot = gcol_detail_packed_insert_bounded(t, key, max_probes, &inserted);
    if (slot < 0) {
      st->overflow = 1;
      return;
    }
    if (keep != GCOL_KEEP_ANY) {
      note_row(&keep_word[slot], keep, i);
    } else {
      flags[i] = (slot == t.capacity ? claim_empty_group(st) : inserted) ? 1 : 0;
    }
  }
}

__global__ void packed_flags_kernel(gcol_detail_hash_table t, const long long *keep_word,
                                    const gcol_detail_row_column *keys, int32_t keep, int64_t n,
                                    uint8_t *flags, const distinct_state *st) {
  if (try_failed(st)) return; /* the table is incomplete: its flags would be discarded */
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const slot = gcol_detail_packed_find(t, gcol_detail_row_bits(&keys[0], i));
    bool kept = false;
    if (slot >= 0) kept = keep == GCOL_KEEP_NONE ? keep_word[slot] == 1 : keep_word[slot] == i;
    flags[i] = kept ? 1 : 0;
  }
}

__global__ void fill_kernel(long long *p, int64_t n, long long value) {
  GCOL_DETAIL_GRID_LOOP(i, n) { p[i] = value; }
}

__global__ void unique_flags_kernel(const gcol_detail_row_column *keys, int32_t num_keys,
                                    bool nulls_equal, int32_t keep, int64_t n, uint8_t *flags) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool const starts =
        i == 0 || !gcol_detail_rows_equal(keys, i - 1, keys, i, num_keys, nulls_equal);
    bool const ends =
        i == n - 1 || !gcol_detail_rows_equal(keys, i, keys, i + 1, num_keys, nulls_equal);
    bool kept = starts;
    if (keep == GCOL_KEEP_LAST) kept = ends;
    if (keep == GCOL_KEEP_NONE) kept = starts && ends;
    flags[i] = kept ? 1 : 0;
  }
}

gcol_status check_args(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                       gcol_duplicate_keep keep, gcol_null_equality nulls) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(keys);
  GCOL_DETAIL_CHECK(num_keys >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_keys is %d, needs >= 1",
                    (int)num_keys);
  GCOL_DETAIL_CHECK(keep >= GCOL_KEEP_ANY && keep <= GCOL_KEEP_NONE, GCOL_ERROR_INVALID_ARGUMENT,
                    "keep is %d, not a gcol_duplicate_keep", (int)keep);
  GCOL_DETAIL_CHECK(nulls == GCOL_NULLS_EQUAL || nulls == GCOL_NULLS_UNEQUAL,
                    GCOL_ERROR_INVALID_ARGUMENT, "nulls is %d, not a gcol_null_equality",
                    (int)nulls);
  GCOL_DETAIL_CHECK(input.num_columns >= 1 && input.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "input has no columns");
  GCOL_DETAIL_CHECK(input.num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT, "input has %lld rows",
                    (long long)input.num_rows);
  for (int32_t c = 0; c < input.num_columns; ++c) {
    GCOL_DETAIL_TRY(gcol_column_view_validate(input.columns[c], "input"));
    GCOL_DETAIL_CHECK(input.columns[c].size == input.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                      "input column %d has %lld rows, the table %lld", (int)c,
                      (long long)input.columns[c].size, (long long)input.num_rows);
  }
done:
  return status;
}

/* One fixed-width key column of at most 8 bytes without nulls: the table can hold the keys
 * themselves (packed keys, hash_table.cuh). Counts the nulls if unknown (synchronizes). */
gcol_status keys_packable(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                          gcol_stream stream, bool *out) {
  gcol_status status = GCOL_OK;
  int64_t nulls = 0;
  *out = false;
  if (num_keys != 1) return GCOL_OK;
  gcol_column_view const key = input.columns[keys[0]];
  size_t const width = gcol_type_size(key.type.id);
  if (!gcol_type_is_fixed_width(key.type.id) || width < 1 || width > 8) return GCOL_OK;
  GCOL_DETAIL_TRY(gcol_column_view_null_count(key, stream, &nulls));
  *out = nulls == 0;
done:
  return status;
}

/* What one try at the flags works on. */
typedef struct distinct_args {
  const gcol_detail_row_column *keys;
  int32_t num_keys;
  int64_t n;
  int32_t keep;
  bool nulls_equal;
  bool packed;
} distinct_args;

/* The initial per-slot word of a keep policy (note_row). */
long long keep_word_start(int32_t keep) {
  return keep == GCOL_KEEP_FIRST ? (long long)INT64_MAX : keep == GCOL_KEEP_LAST ? -1LL : 0LL;
}

/* Launches the kernels of one try over a table `t` (keep_word and row_slot as the keep and
 * path need them). */
gcol_status launch_try(const distinct_args *a, gcol_detail_hash_table t, long long *keep_word,
                       int64_t *row_slot, int64_t max_probes, distinct_state *st, uint8_t *flags,
                       cudaStream_t s) {
  gcol_status status = GCOL_OK;
  unsigned int const grid = gcol_detail_grid_size(a->n, GCOL_DETAIL_BLOCK_SIZE);
  if (a->packed) {
    packed_insert_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(t, keep_word, a->keys, a->keep,
                                                                 a->n, max_probes, flags, st);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    if (a->keep == GCOL_KEEP_ANY) goto done;
    packed_flags_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(t, keep_word, a->keys, a->keep,
                                                                a->n, flags, st);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    goto done;
  }
  row_insert_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(t, keep_word, a->keys, a->num_keys,
                                                            a->nulls_equal, a->keep, a->n,
                                                            max_probes, row_slot, flags, st);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  if (a->keep == GCOL_KEEP_ANY) goto done;
  row_flags_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(keep_word, row_slot, a->keep, a->n,
                                                           flags, st);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* One try at the flags with a table for `table_rows` keys and at most `max_probes` probes an
 * insert; *overflowed says the table was too small (the flags are then meaningless). keep
 * ANY needs no per-slot words; the row path's other keeps need each row's slot. */
gcol_status flags_try(const distinct_args *a, int64_t table_rows, int64_t max_probes,
                      gcol_stream stream, uint8_t *flags, bool *overflowed) {
  gcol_status status = GCOL_OK;
  gcol_buffer *slots = NULL, *words = NULL, *row_slot = NULL, *state = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int host_overflow = 0;
  gcol_detail_hash_table t;
  long long *keep_word = NULL;
  *overflowed = false;
  GCOL_DETAIL_TRY(gcol_detail_hash_table_create(table_rows, stream, &slots, &t));
  if (a->keep != GCOL_KEEP_ANY) {
    /* one word past the table: the packed path's group of the EMPTY pattern */
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(t.capacity + 1) * 8u, stream, NULL, &words));
    keep_word = (long long *)words->data;
    fill_kernel<<<gcol_detail_grid_size(t.capacity + 1, GCOL_DETAIL_BLOCK_SIZE),
                  GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(keep_word, t.capacity + 1,
                                                  keep_word_start(a->keep));
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    if (!a->packed) {
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)a->n * 8u, stream, NULL, &row_slot));
    }
  }
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(distinct_state), stream, NULL, &state));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(state->data, 0, sizeof(distinct_state), s));
  GCOL_DETAIL_TRY(launch_try(a, t, keep_word, row_slot ? (int64_t *)row_slot->data : NULL,
                             max_probes, (distinct_state *)state->data, flags, s));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&host_overflow, state->data, sizeof host_overflow,
                                       cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  *overflowed = host_overflow != 0;
done:
  gcol_buffer_free(slots);
  gcol_buffer_free(words);
  gcol_buffer_free(row_slot);
  gcol_buffer_free(state);
  return status;
}

/* The keys a table sized by an estimate is created for, or n where sizing for every row is
 * cheap (small inputs) or no smaller. */
gcol_status sized_table_rows(const distinct_args *a, gcol_stream stream, int64_t *rows) {
  gcol_status status = GCOL_OK;
  int64_t estimate = 0;
  *rows = a->n;
  if (a->n <= DISTINCT_ESTIMATE_MIN_ROWS && gcol_detail_estimate_override() < 0) return GCOL_OK;
  GCOL_DETAIL_TRY(
      gcol_detail_estimate_distinct(a->keys, a->num_keys, a->packed, a->n, stream, &estimate));
  if (gcol_probe_capacity_for(estimate) < gcol_probe_capacity_for(a->n)) *rows = estimate;
done:
  return status;
}

/*
 * Per-row keep flags of distinct (a temporary of n bytes). The table is sized for the
 * estimated distinct keys (capacity >= 2x the estimate, so at most about half full: with
 * 2^20 groups it is 16 MiB and stays in L2, where a table for 2^27 rows would be 2 GiB of
 * DRAM). An estimate too low overflows the bounded probes: the flags are then computed again
 * with a table for every row, so they are always exact.
 */
gcol_status distinct_flags(const gcol_detail_row_column *keys, int32_t num_keys, int64_t n,
                           gcol_duplicate_keep keep, gcol_null_equality nulls, bool packed,
                           gcol_stream stream, gcol_buffer **out_flags) {
  gcol_status status = GCOL_OK;
  distinct_args const a = {keys, num_keys, n, (int32_t)keep, nulls == GCOL_NULLS_EQUAL, packed};
  int64_t rows = n;
  bool overflowed = false;
  uint8_t *flags = NULL;
  *out_flags = NULL;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n, stream, NULL, out_flags));
  flags = (uint8_t *)(*out_flags)->data;
  GCOL_DETAIL_TRY(sized_table_rows(&a, stream, &rows));
  if (rows < n) {
    GCOL_DETAIL_TRY(flags_try(&a, rows, DISTINCT_SIZED_MAX_PROBES, stream, flags, &overflowed));
    if (!overflowed) goto done;
    gcol_detail_note_estimate_miss();
    GCOL_DETAIL_LOG(GCOL_LOG_DEBUG,
                    "distinct: a table for %lld estimated keys overflowed; retrying for %lld rows",
                    (long long)rows, (long long)n);
  }
  GCOL_DETAIL_TRY(flags_try(&a, n, (int64_t)1 << 62, stream, flags, &overflowed));
  GCOL_DETAIL_CHECK(!overflowed, GCOL_ERROR_OVERFLOW, "hash table for %lld rows overflowed",
                    (long long)n);
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*out_flags);
    *out_flags = NULL;
  }
  return status;
}

gcol_status dedupe(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                   gcol_duplicate_keep keep, gcol_null_equality nulls, bool consecutive,
                   gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *key_cols = NULL, *flags = NULL;
  int64_t const n = input.num_rows;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_args(input, keys, num_keys, keep, nulls));
  GCOL_DETAIL_TRY(
      gcol_detail_row_columns_make(input, keys, num_keys, true, false, stream, &key_cols));
  if (n == 0) {
    status = gcol_detail_gather_table(input, NULL, 0, false, stream, mr, out);
    goto done;
  }
  if (consecutive) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n, stream, NULL, &flags));
    unique_flags_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                          0, (cudaStream_t)stream>>>((const gcol_detail_row_column *)key_cols->data,
                                                     num_keys, nulls == GCOL_NULLS_EQUAL,
                                                     (int32_t)keep, n, (uint8_t *)flags->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  } else {
    bool packed = false;
    GCOL_DETAIL_TRY(keys_packable(input, keys, num_keys, stream, &packed));
    GCOL_DETAIL_TRY(distinct_flags((const gcol_detail_row_column *)key_cols->data, num_keys, n,
                                   keep, nulls, packed, stream, &flags));
  }
  GCOL_DETAIL_TRY(
      gcol_detail_select_rows(input, (const uint8_t *)flags->data, NULL, 0, stream, mr, out));
done:
  gcol_buffer_free(key_cols);
  gcol_buffer_free(flags);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_distinct(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                                     gcol_duplicate_keep keep, gcol_null_equality nulls,
                                     gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_distinct");
  status = dedupe(input, keys, num_keys, keep, nulls, false, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_unique(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                                   gcol_duplicate_keep keep, gcol_null_equality nulls,
                                   gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_unique");
  status = dedupe(input, keys, num_keys, keep, nulls, true, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_distinct_count(gcol_table_view keys, gcol_null_equality nulls,
                                           int64_t *out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *key_cols = NULL, *flags = NULL;
  int32_t *indices = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_distinct_count");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = 0;
  GCOL_DETAIL_CHECK(keys.num_columns >= 1, GCOL_ERROR_INVALID_ARGUMENT,
                    "keys has %d columns, needs >= 1", (int)keys.num_columns);
  indices = (int32_t *)malloc((size_t)keys.num_columns * sizeof *indices);
  GCOL_DETAIL_CHECK(indices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                    (int)keys.num_columns);
  for (int32_t c = 0; c < keys.num_columns; ++c) indices[c] = c;
  GCOL_DETAIL_TRY(check_args(keys, indices, keys.num_columns, GCOL_KEEP_ANY, nulls));
  GCOL_DETAIL_TRY(gcol_detail_row_columns_make(keys, indices, keys.num_columns, true, false, stream,
                                               &key_cols));
  if (keys.num_rows == 0) goto done;
  {
    bool packed = false;
    GCOL_DETAIL_TRY(keys_packable(keys, indices, keys.num_columns, stream, &packed));
    GCOL_DETAIL_TRY(distinct_flags((const gcol_detail_row_column *)key_cols->data,
                                   keys.num_columns, keys.num_rows, GCOL_KEEP_ANY, nulls, packed,
                                   stream, &flags));
  }
  GCOL_DETAIL_TRY(
      gcol_detail_count_flags((const uint8_t *)flags->data, keys.num_rows, stream, out));
done:
  free(indices);
  gcol_buffer_free(key_cols);
  gcol_buffer_free(flags);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
