/*
 * distinct, unique (consecutive) and distinct_count over multi-column keys.
 *
 * distinct: the shared device hash table (kernels/detail/hash_table.cuh, used as a set)
 * keeps one representative row per group of equal keys (row operators of
 * kernels/detail/row_operators.cuh). Each row records its group's slot; a per-slot word
 * then resolves `keep` (atomicMin of the row for FIRST, atomicMax for LAST, a count for
 * NONE), and a flag per row says whether it is the one kept. The flags are compacted in
 * row order, so the output keeps the input's order for every `keep`.
 */
#include "detail/hash_table.cuh"
#include "filtering/row_map.cuh"
#include "gcol/filtering.h"
#include "gcol/hash.h"
#include "gcol/probe.h"

namespace {

/* Per-slot words of the keep policies: min row (FIRST), max row (LAST), count (NONE). */
__global__ void insert_kernel(gcol_detail_hash_table t, long long *keep_word,
                              const gcol_detail_row_column *keys, int32_t num_keys,
                              bool nulls_equal, int32_t keep, int64_t n, int64_t *row_slot,
                              int *overflow) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t slot = -1;
    /* With unequal nulls a row holding a null equals nothing: it stays out of the table. */
    if (nulls_equal || !gcol_detail_row_has_null(keys, num_keys, i)) {
      gcol_detail_row_matcher const m = {keys, keys, num_keys, nulls_equal, i};
      bool inserted = false;
      slot = gcol_detail_hash_insert_unique(t, gcol_detail_row_hash(keys, num_keys, i), &m,
                                            &inserted);
      if (slot < 0) {
        *overflow = 1;
      } else if (keep == GCOL_KEEP_FIRST) {
        atomicMin(&keep_word[slot], (long long)i);
      } else if (keep == GCOL_KEEP_LAST) {
        atomicMax(&keep_word[slot], (long long)i);
      } else if (keep == GCOL_KEEP_NONE) {
        atomicAdd((unsigned long long *)&keep_word[slot], 1ull);
      }
    }
    row_slot[i] = slot;
  }
}

/* Packed keys (one fixed-width key of <= 8 bytes, no nulls): the table holds the keys. ANY
 * keeps the row that claimed the slot (no atomic); the EMPTY-pattern group (slot capacity)
 * and FIRST take the smallest row, LAST the largest, NONE counts. */
__global__ void packed_insert_kernel(gcol_detail_hash_table t, long long *keep_word,
                                     const gcol_detail_row_column *keys, int32_t keep, int64_t n,
                                     int *overflow) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool inserted = false;
    int64_t const slot = gcol_detail_packed_insert(t, gcol_detail_row_bits(&keys[0], i), &inserted);
    if (slot < 0) {
      *overflow = 1;
    } else if (keep == GCOL_KEEP_ANY && slot != t.capacity) {
      if (inserted) keep_word[slot] = (long long)i;
    } else if (keep == GCOL_KEEP_ANY || keep == GCOL_KEEP_FIRST) {
      atomicMin(&keep_word[slot], (long long)i);
    } else if (keep == GCOL_KEEP_LAST) {
      atomicMax(&keep_word[slot], (long long)i);
    } else {
      atomicAdd((unsigned long long *)&keep_word[slot], 1ull);
    }
  }
}

__global__ void packed_flags_kernel(gcol_detail_hash_table t, const long long *keep_word,
                                    const gcol_detail_row_column *keys, int32_t keep, int64_t n,
                                    uint8_t *flags) {
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

__global__ void distinct_flags_kernel(gcol_detail_hash_table t, const long long *keep_word,
                                      const int64_t *row_slot, int32_t keep, int64_t n,
                                      uint8_t *flags) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const slot = row_slot[i];
    bool kept = true; /* rows outside the table are unique */
    if (slot >= 0) {
      switch (keep) {
        case GCOL_KEEP_ANY:
          kept = t.slots[slot] == i;
          break;
        case GCOL_KEEP_NONE:
          kept = keep_word[slot] == 1;
          break;
        default:
          kept = keep_word[slot] == i;
          break;
      }
    }
    flags[i] = kept ? 1 : 0;
  }
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

/* Per-row keep flags of distinct (a temporary of n bytes). */
gcol_status distinct_flags(const gcol_detail_row_column *keys, int32_t num_keys, int64_t n,
                           gcol_duplicate_keep keep, gcol_null_equality nulls, bool packed,
                           gcol_stream stream, gcol_buffer **out_flags) {
  gcol_status status = GCOL_OK;
  gcol_buffer *slots = NULL, *words = NULL, *row_slot = NULL, *overflow = NULL;
  int host_overflow = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_detail_hash_table t;
  long long *keep_word = NULL;
  *out_flags = NULL;
  GCOL_DETAIL_TRY(gcol_detail_hash_table_create(n, stream, &slots, &t));
  /* One word past the table: the packed path's group of the EMPTY pattern. */
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(t.capacity + 1) * 8u, stream, NULL, &words));
  if (!packed) GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * 8u, stream, NULL, &row_slot));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int), stream, NULL, &overflow));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n, stream, NULL, out_flags));
  keep_word = (long long *)words->data;
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(overflow->data, 0, sizeof(int), s));
  fill_kernel<<<gcol_detail_grid_size(t.capacity + 1, GCOL_DETAIL_BLOCK_SIZE),
                GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      keep_word, t.capacity + 1,
      keep == GCOL_KEEP_FIRST || (packed && keep == GCOL_KEEP_ANY) ? (long long)INT64_MAX
      : keep == GCOL_KEEP_LAST                                      ? -1LL
                                                                    : 0LL);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  if (packed) {
    packed_insert_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                           0, s>>>(t, keep_word, keys, (int32_t)keep, n, (int *)overflow->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    packed_flags_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                          0, s>>>(t, keep_word, keys, (int32_t)keep, n,
                                  (uint8_t *)(*out_flags)->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    goto check;
  }
  insert_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      t, keep_word, keys, num_keys, nulls == GCOL_NULLS_EQUAL, (int32_t)keep, n,
      (int64_t *)row_slot->data, (int *)overflow->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  distinct_flags_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                          0, s>>>(t, keep_word, (const int64_t *)row_slot->data, (int32_t)keep, n,
                                  (uint8_t *)(*out_flags)->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
check:
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&host_overflow, overflow->data, sizeof host_overflow,
                                       cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  GCOL_DETAIL_CHECK(host_overflow == 0, GCOL_ERROR_OVERFLOW,
                    "hash table of %lld slots overflowed for %lld rows", (long long)t.capacity,
                    (long long)n);
done:
  gcol_buffer_free(slots);
  gcol_buffer_free(words);
  gcol_buffer_free(row_slot);
  gcol_buffer_free(overflow);
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
