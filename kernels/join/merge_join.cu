/*
 * Sort-merge join (include/gcol/join.h, gcol_sort_merge_join): both sides are already sorted
 * on the keys, so the right rows equal to a left row are one run [lower, upper), found by
 * the lower and upper bounds of search.h (the sort comparator's equality is the join's:
 * -0.0 == +0.0, NaNs alike, nulls alike). No hash table is built.
 *
 * 1. lower/upper bound of every left row in the right keys (positions INT32 or INT64).
 * 2. counts_kernel: each left row's output rows by kind (a run, at least one for left and
 *    full joins, 0 or 1 for semi and anti); with nulls unequal a left row with a null key
 *    matches nothing. Their exclusive sum places each left row's rows (one synchronization).
 * 3. pairs_kernel: a thread per output row finds its left row in the offsets (binary search:
 *    long runs of one key spread over many threads, no skew) and writes (left, lower + k).
 * 4. Full join: a right row is matched when its own run in the left keys is non-empty (the
 *    bounds the other way round) and its key is not null under nulls unequal; the unmatched
 *    ones are appended, ascending.
 */
#include "common.cuh"
#include "detail/scan.h"
#include "gcol/bitmask.h"
#include "gcol/indexalator.h"
#include "gcol/join.h"
#include "gcol/search.h"
#include "gcol/sorting.h"

namespace {

struct merge_state {
  gcol_table_view left, right;
  const gcol_order *order;
  const gcol_null_order *null_order;
  gcol_join_kind kind;
  bool nulls_equal;
  cudaStream_t stream;
};

/* Output rows of left row i. `valid` (NULL: all) clears rows with a null key. */
__device__ __forceinline__ int64_t left_rows_out(int64_t run, bool valid, int kind) {
  int64_t const matches = valid ? run : 0;
  switch (kind) {
    case GCOL_JOIN_INNER:
      return matches;
    case GCOL_JOIN_LEFT:
    case GCOL_JOIN_FULL:
      return matches > 0 ? matches : 1;
    case GCOL_JOIN_LEFT_SEMI:
      return matches > 0 ? 1 : 0;
    default:
      return matches == 0 ? 1 : 0; /* anti */
  }
}

__global__ void counts_kernel(gcol_indexalator lower, gcol_indexalator upper, const uint32_t *valid,
                              int64_t n, int kind, int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const run = gcol_indexalator_get(upper, i) - gcol_indexalator_get(lower, i);
    sizes[i] = left_rows_out(run, valid == NULL || gcol_bit_is_set(valid, i), kind);
  }
}

/* Output row k belongs to left row i with offsets[i] <= k < offsets[i + 1]. */
__global__ void pairs_kernel(const int64_t *offsets, int64_t n, gcol_indexalator lower,
                             gcol_indexalator upper, const uint32_t *valid, int64_t total,
                             gcol_index_writer left_map, gcol_index_writer right_map,
                             bool has_right) {
  GCOL_DETAIL_GRID_LOOP(k, total) {
    int64_t lo = 0, hi = n; /* the last i with offsets[i] <= k */
    while (hi - lo > 1) {
      int64_t const mid = lo + (hi - lo) / 2;
      if (offsets[mid] <= k) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    gcol_index_writer_set(left_map, k, lo);
    if (has_right) {
      int64_t const first = gcol_indexalator_get(lower, lo);
      bool const matched =
          gcol_indexalator_get(upper, lo) > first && (valid == NULL || gcol_bit_is_set(valid, lo));
      gcol_index_writer_set(right_map, k, matched ? first + (k - offsets[lo]) : -1);
    }
  }
}

/* 1 for a right row that no left row matched. */
__global__ void unmatched_kernel(gcol_indexalator lower, gcol_indexalator upper,
                                 const uint32_t *valid, int64_t n, int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    bool const run = gcol_indexalator_get(upper, j) > gcol_indexalator_get(lower, j);
    sizes[j] = run && (valid == NULL || gcol_bit_is_set(valid, j)) ? 0 : 1;
  }
}

__global__ void append_unmatched_kernel(const int64_t *offsets, int64_t n, int64_t base,
                                        gcol_index_writer left_map, gcol_index_writer right_map) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    int64_t const at = offsets[j];
    if (offsets[j + 1] > at) {
      gcol_index_writer_set(left_map, base + at, -1);
      gcol_index_writer_set(right_map, base + at, j);
    }
  }
}

unsigned int grid_for(int64_t n) { return gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE); }

/* The bit of each row of `keys` that has no null key (NULL when no key has nulls). */
gcol_status valid_rows(gcol_table_view keys, cudaStream_t stream, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  const uint32_t **masks = NULL;
  int64_t *offsets = NULL;
  int32_t const nk = keys.num_columns;
  *out = NULL;
  masks = (const uint32_t **)calloc((size_t)nk, sizeof *masks);
  offsets = (int64_t *)calloc((size_t)nk, sizeof *offsets);
  GCOL_DETAIL_CHECK(masks != NULL && offsets != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d key masks", (int)nk);
  for (int32_t k = 0; k < nk; ++k) {
    gcol_column_view const c = keys.columns[k];
    masks[k] = c.null_count != 0 ? c.null_mask : NULL;
    offsets[k] = c.offset;
  }
  GCOL_DETAIL_TRY(
      gcol_bitmask_and(masks, offsets, nk, keys.num_rows, (gcol_stream)stream, NULL, out, NULL));
done:
  free(masks);
  free(offsets);
  return status;
}

/* Bounds of the rows of `needles` in the sorted `haystack`. */
gcol_status bounds(const merge_state *m, gcol_table_view haystack, gcol_table_view needles,
                   gcol_column **lower, gcol_column **upper, gcol_indexalator *lo,
                   gcol_indexalator *hi) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_lower_bound(haystack, needles, m->order, m->null_order, lower,
                                   (gcol_stream)m->stream, NULL));
  GCOL_DETAIL_TRY(gcol_upper_bound(haystack, needles, m->order, m->null_order, upper,
                                   (gcol_stream)m->stream, NULL));
  GCOL_DETAIL_TRY(gcol_indexalator_make(gcol_column_get_view(*lower), lo));
  GCOL_DETAIL_TRY(gcol_indexalator_make(gcol_column_get_view(*upper), hi));
done:
  return status;
}

/* A map of `rows` entries of the output index type, as a writer. */
gcol_status make_map(gcol_type_id type, int64_t rows, const merge_state *m, gcol_mr *mr,
                     gcol_column **out, gcol_index_writer *w) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(type), rows, GCOL_MASK_UNALLOCATED,
                                     (gcol_stream)m->stream, mr, out));
  w->data = (*out)->data->data; /* a fresh column: its own buffer */
  w->width = (int32_t)gcol_type_size(type);
done:
  return status;
}

/* The unmatched right rows of a full join: their count and their exclusive offsets. */
gcol_status right_unmatched(const merge_state *m, gcol_buffer **offsets, int64_t *count) {
  gcol_status status = GCOL_OK;
  gcol_column *lower = NULL, *upper = NULL;
  gcol_buffer *valid = NULL;
  gcol_indexalator lo, hi;
  int64_t const n = m->right.num_rows;
  *offsets = NULL;
  *count = 0;
  GCOL_DETAIL_TRY(bounds(m, m->left, m->right, &lower, &upper, &lo, &hi));
  if (!m->nulls_equal) GCOL_DETAIL_TRY(valid_rows(m->right, m->stream, &valid));
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 1, (gcol_stream)m->stream, offsets));
  if (n > 0) {
    unmatched_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, m->stream>>>(
        lo, hi, valid != NULL ? gcol_bitmask_data(valid) : NULL, n, (int64_t *)(*offsets)->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan((const int64_t *)(*offsets)->data,
                                         (int64_t *)(*offsets)->data, n, count, 1,
                                         (gcol_stream)m->stream));
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*offsets);
    *offsets = NULL;
  }
  gcol_column_free(lower);
  gcol_column_free(upper);
  gcol_buffer_free(valid);
  return status;
}

gcol_status check_sorted(const merge_state *m, gcol_table_view keys, const char *side) {
  gcol_status status = GCOL_OK;
  bool sorted = false;
  GCOL_DETAIL_TRY(gcol_is_sorted(keys, m->order, m->null_order, &sorted, (gcol_stream)m->stream));
  GCOL_DETAIL_CHECK(sorted, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s_keys are not sorted in the order given (gcol_sort them first)", side);
done:
  return status;
}

gcol_status merge_join(const merge_state *m, gcol_column **left_map, gcol_column **right_map,
                       gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *lower = NULL, *upper = NULL, *lm = NULL, *rm = NULL;
  gcol_buffer *valid = NULL, *offsets = NULL, *tail = NULL;
  gcol_indexalator lo, hi;
  gcol_index_writer lw = {NULL, 4}, rw = {NULL, 4};
  const uint32_t *vbits = NULL; /* left rows without a null key (nulls unequal) */
  int64_t const n = m->left.num_rows;
  int64_t total = 0, extra = 0;
  bool const has_right =
      m->kind == GCOL_JOIN_INNER || m->kind == GCOL_JOIN_LEFT || m->kind == GCOL_JOIN_FULL;
  int64_t const larger = n > m->right.num_rows ? n : m->right.num_rows;
  gcol_type_id const type = gcol_index_type_for(larger);
  GCOL_DETAIL_TRY(check_sorted(m, m->left, "left"));
  GCOL_DETAIL_TRY(check_sorted(m, m->right, "right"));
  GCOL_DETAIL_TRY(bounds(m, m->right, m->left, &lower, &upper, &lo, &hi));
  if (!m->nulls_equal) GCOL_DETAIL_TRY(valid_rows(m->left, m->stream, &valid));
  if (valid != NULL) vbits = gcol_bitmask_data(valid);
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 1, (gcol_stream)m->stream, &offsets));
  if (n > 0) {
    counts_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, m->stream>>>(
        lo, hi, vbits, n, (int)m->kind, (int64_t *)offsets->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan((const int64_t *)offsets->data, (int64_t *)offsets->data,
                                         n, &total, 1, (gcol_stream)m->stream));
  if (m->kind == GCOL_JOIN_FULL) GCOL_DETAIL_TRY(right_unmatched(m, &tail, &extra));
  GCOL_DETAIL_CHECK(total <= INT64_MAX - extra, GCOL_ERROR_OVERFLOW,
                    "the join has more than 2^63 output rows");
  GCOL_DETAIL_TRY(make_map(type, total + extra, m, mr, &lm, &lw));
  if (has_right) GCOL_DETAIL_TRY(make_map(type, total + extra, m, mr, &rm, &rw));
  if (total > 0) {
    pairs_kernel<<<grid_for(total), GCOL_DETAIL_BLOCK_SIZE, 0, m->stream>>>(
        (const int64_t *)offsets->data, n, lo, hi, vbits, total, lw, rw, has_right);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (extra > 0) {
    append_unmatched_kernel<<<grid_for(m->right.num_rows), GCOL_DETAIL_BLOCK_SIZE, 0, m->stream>>>(
        (const int64_t *)tail->data, m->right.num_rows, total, lw, rw);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *left_map = lm;
  lm = NULL;
  if (right_map != NULL) {
    *right_map = rm;
    rm = NULL;
  }
done:
  gcol_column_free(lower);
  gcol_column_free(upper);
  gcol_column_free(lm);
  gcol_column_free(rm);
  gcol_buffer_free(valid);
  gcol_buffer_free(offsets);
  gcol_buffer_free(tail);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_sort_merge_join(gcol_table_view left_keys, gcol_table_view right_keys,
                                            const gcol_order *order,
                                            const gcol_null_order *null_order, gcol_join_kind kind,
                                            gcol_null_equality nulls, gcol_column **left_map,
                                            gcol_column **right_map, gcol_stream stream,
                                            gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  merge_state m;
  GCOL_DETAIL_NVTX_PUSH("gcol_sort_merge_join");
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  if (right_map != NULL) *right_map = NULL;
  GCOL_DETAIL_CHECK(kind >= GCOL_JOIN_INNER && kind <= GCOL_JOIN_LEFT_ANTI,
                    GCOL_ERROR_INVALID_ARGUMENT, "join kind %d is not a gcol_join_kind", (int)kind);
  GCOL_DETAIL_CHECK(nulls == GCOL_NULLS_EQUAL || nulls == GCOL_NULLS_UNEQUAL,
                    GCOL_ERROR_INVALID_ARGUMENT, "null equality %d is not a gcol_null_equality",
                    (int)nulls);
  GCOL_DETAIL_CHECK(right_map != NULL || kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI,
                    GCOL_ERROR_INVALID_ARGUMENT, "right_map is NULL for a join kind %d", (int)kind);
  GCOL_DETAIL_CHECK(left_keys.num_columns > 0 && left_keys.num_columns == right_keys.num_columns,
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "left_keys has %d key columns, right_keys %d (at least one, as many)",
                    (int)left_keys.num_columns, (int)right_keys.num_columns);
  m.left = left_keys;
  m.right = right_keys;
  m.order = order;
  m.null_order = null_order;
  m.kind = kind;
  m.nulls_equal = nulls == GCOL_NULLS_EQUAL;
  m.stream = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(merge_join(&m, left_map, right_map, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
