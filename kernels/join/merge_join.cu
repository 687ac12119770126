/*
 * Sort-merge join (include/gcol/join.h, gcol_sort_merge_join): both sides are already sorted
 * on the keys, so the right rows equal to a left row are one run [lo, hi) of the right keys
 * (the sort comparator's equality is the join's: -0.0 == +0.0, NaNs alike, nulls alike). No
 * hash table is built.
 *
 * 1. runs_smem_kernel: a block takes a tile of consecutive left rows; since they are sorted,
 *    their runs lie between the lower bound of the tile's first row and the upper bound of
 *    its last (two searches of the whole right side a tile), and each row's bounds are
 *    searched in that window only (a few steps, cached). It writes each left row's output
 *    rows by kind (a run, at least one for left and full joins, 0 or 1 for semi and anti;
 *    with nulls unequal a left row with a null key matches nothing) and its run's start (-1:
 *    no match). Their exclusive sum places each left row's rows (one synchronization).
 * 2. pairs_smem_kernel: a block takes a chunk of output rows, finds the left rows at its two
 *    ends (two searches of the offsets), and each thread finds its output row's left row in
 *    between (no skew: a run of 10K matches is spread over the chunk's threads).
 * 3. Full join: the same runs kernel with the sides swapped counts the right rows without a
 *    match; they are appended, ascending.
 */
#include "common.cuh"
#include "detail/scan.h"
#include "gcol/bitmask.h"
#include "gcol/indexalator.h"
#include "gcol/join.h"
#include "gcol/sorting.h"
#include "detail/sort_keys.h"

namespace {

constexpr int RUN_THREADS = 256, RUN_ITEMS = 8;
constexpr int64_t RUN_TILE = (int64_t)RUN_THREADS * RUN_ITEMS;
constexpr int PAIR_THREADS = 256;
constexpr int64_t PAIR_CHUNK = (int64_t)PAIR_THREADS * 8;

/* First position in [lo, hi) of the sorted `hay` whose row compares >= (upper: >) row
 * `needle` of `ndl`. */
__device__ int64_t bound_in(const gcol_detail_key_table *hay, int64_t lo, int64_t hi,
                            const gcol_detail_key_table *ndl, int64_t needle, bool upper) {
  while (lo < hi) {
    int64_t const mid = lo + (hi - lo) / 2;
    int const cmp = gcol_detail_compare_table_rows(hay, mid, ndl, needle);
    if (cmp < 0 || (upper && cmp == 0)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Output rows of a needle whose run has `run` rows (0 when its key is null and unequal). */
__device__ __forceinline__ int64_t rows_out(int64_t run, int kind) {
  switch (kind) {
    case GCOL_JOIN_INNER:
      return run;
    case GCOL_JOIN_LEFT:
    case GCOL_JOIN_FULL:
      return run > 0 ? run : 1;
    case GCOL_JOIN_LEFT_SEMI:
      return run > 0 ? 1 : 0;
    default:
      return run == 0 ? 1 : 0; /* anti */
  }
}

/* As bound_in, galloping from lo (1, 2, 4, ... rows ahead, then a binary search): a sorted
 * needle's bound lies a few rows past the previous needle's, so this costs a few compares. */
__device__ int64_t gallop_in(const gcol_detail_key_table *hay, int64_t lo, int64_t hi,
                             const gcol_detail_key_table *ndl, int64_t needle, bool upper) {
  for (int64_t step = 1; lo < hi; step *= 2) {
    int64_t const probe = lo + step - 1 < hi ? lo + step - 1 : hi - 1;
    int const cmp = gcol_detail_compare_table_rows(hay, probe, ndl, needle);
    if (!(cmp < 0 || (upper && cmp == 0))) return bound_in(hay, lo, probe, ndl, needle, upper);
    lo = probe + 1;
  }
  return hi;
}

/* sizes[i] = needle i's output rows by kind; start[i] = its run's first hay row, or -1
 * (start may be NULL). `valid` (NULL: all) clears needles with a null key. A thread takes
 * RUN_ITEMS consecutive needles: a binary search in the tile's window for the first, then
 * galloping from each bound to the next. */
__global__ void runs_smem_kernel(gcol_detail_key_table hay, int64_t hay_rows,
                                 gcol_detail_key_table ndl, int64_t n, const uint32_t *valid,
                                 int kind, int64_t *sizes, int64_t *start) {
  __shared__ int64_t window[2];
  for (int64_t tile = blockIdx.x; tile * RUN_TILE < n; tile += gridDim.x) {
    int64_t const first = tile * RUN_TILE;
    int64_t const last = first + RUN_TILE < n ? first + RUN_TILE - 1 : n - 1;
    __syncthreads(); /* the previous tile is done with the window */
    if (threadIdx.x == 0) window[0] = bound_in(&hay, 0, hay_rows, &ndl, first, false);
    if (threadIdx.x == 32) window[1] = bound_in(&hay, 0, hay_rows, &ndl, last, true);
    __syncthreads();
    int64_t const w1 = window[1];
    int64_t lo = window[0];
    for (int t = 0; t < RUN_ITEMS; ++t) {
      int64_t const i = first + (int64_t)threadIdx.x * RUN_ITEMS + t;
      if (i > last) break;
      lo =
          t == 0 ? bound_in(&hay, lo, w1, &ndl, i, false) : gallop_in(&hay, lo, w1, &ndl, i, false);
      int64_t const hi = gallop_in(&hay, lo, w1, &ndl, i, true);
      int64_t const run = valid == NULL || gcol_bit_is_set(valid, i) ? hi - lo : 0;
      sizes[i] = rows_out(run, kind);
      if (start != NULL) start[i] = run > 0 ? lo : -1;
    }
  }
}

/* The last i in [lo, hi] with offsets[i] <= k (offsets[lo] <= k). */
__device__ __forceinline__ int64_t row_of(const int64_t *offsets, int64_t lo, int64_t hi,
                                          int64_t k) {
  ++hi;
  while (hi - lo > 1) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= k) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Output row k: its left row i (offsets[i] <= k < offsets[i + 1]) and (i, start[i] + k -
 * offsets[i]), or (i, -1) without a match. */
__global__ void pairs_smem_kernel(const int64_t *offsets, int64_t n, const int64_t *start,
                                  int64_t total, gcol_index_writer left_map,
                                  gcol_index_writer right_map, bool has_right) {
  __shared__ int64_t rows[2];
  for (int64_t c0 = blockIdx.x * PAIR_CHUNK; c0 < total; c0 += gridDim.x * PAIR_CHUNK) {
    int64_t const c1 = c0 + PAIR_CHUNK < total ? c0 + PAIR_CHUNK : total;
    __syncthreads(); /* the previous chunk is done with the rows */
    if (threadIdx.x == 0) rows[0] = row_of(offsets, 0, n - 1, c0);
    if (threadIdx.x == 32) rows[1] = row_of(offsets, 0, n - 1, c1 - 1);
    __syncthreads();
    for (int64_t k = c0 + threadIdx.x; k < c1; k += PAIR_THREADS) {
      int64_t const i = row_of(offsets, rows[0], rows[1], k);
      gcol_index_writer_set(left_map, k, i);
      if (has_right) {
        int64_t const first = start[i];
        gcol_index_writer_set(right_map, k, first >= 0 ? first + (k - offsets[i]) : -1);
      }
    }
  }
}

/* (-1, j) for each right row j without a match, at base + its rank among them. */
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

struct merge_state {
  gcol_detail_key_table left, right; /* the key rows, as the sort compares them */
  gcol_table_view left_view, right_view;
  gcol_join_kind kind;
  bool nulls_equal;
  cudaStream_t stream;
};

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

/* Output rows per needle row by kind (and run starts) into a sizes buffer, summed in place:
 * *offsets holds n + 1 offsets, *total their sum. */
gcol_status runs(const merge_state *m, const gcol_detail_key_table *hay, int64_t hay_rows,
                 const gcol_detail_key_table *ndl, gcol_table_view needles, int kind,
                 int64_t *start, gcol_buffer **offsets, int64_t *total) {
  gcol_status status = GCOL_OK;
  gcol_buffer *valid = NULL;
  int64_t const n = needles.num_rows;
  *offsets = NULL;
  if (!m->nulls_equal) GCOL_DETAIL_TRY(valid_rows(needles, m->stream, &valid));
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 1, (gcol_stream)m->stream, offsets));
  if (n > 0) {
    int64_t const tiles = (n + RUN_TILE - 1) / RUN_TILE;
    unsigned int const grid = (unsigned int)(tiles < 65536 ? tiles : 65536);
    runs_smem_kernel<<<grid, RUN_THREADS, 0, m->stream>>>(
        *hay, hay_rows, *ndl, n, valid != NULL ? gcol_bitmask_data(valid) : NULL, kind,
        (int64_t *)(*offsets)->data, start);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan((const int64_t *)(*offsets)->data,
                                         (int64_t *)(*offsets)->data, n, total, 1,
                                         (gcol_stream)m->stream));
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*offsets);
    *offsets = NULL;
  }
  gcol_buffer_free(valid);
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

gcol_status check_sorted(const merge_state *m, gcol_table_view keys, const gcol_order *order,
                         const gcol_null_order *null_order, const char *side) {
  gcol_status status = GCOL_OK;
  bool sorted = false;
  GCOL_DETAIL_TRY(gcol_is_sorted(keys, order, null_order, &sorted, (gcol_stream)m->stream));
  GCOL_DETAIL_CHECK(sorted, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s_keys are not sorted in the order given (gcol_sort them first)", side);
done:
  return status;
}

/* Both sides as key tables, after checking that their columns match. */
gcol_status key_tables(gcol_table_view left, gcol_table_view right, const gcol_order *order,
                       const gcol_null_order *null_order, merge_state *m) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_detail_table_view_check(left, "left_keys"));
  GCOL_DETAIL_TRY(gcol_detail_table_view_check(right, "right_keys"));
  for (int32_t c = 0; c < left.num_columns; ++c) {
    GCOL_DETAIL_CHECK(
        gcol_data_type_equal(left.columns[c].type, right.columns[c].type), GCOL_ERROR_TYPE_MISMATCH,
        "key column %d is %s (scale %d) on the left, %s (scale %d) on the right", (int)c,
        gcol_type_name(left.columns[c].type.id), (int)left.columns[c].type.scale,
        gcol_type_name(right.columns[c].type.id), (int)right.columns[c].type.scale);
  }
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(left, order, null_order, "left_keys", &m->left));
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(right, order, null_order, "right_keys", &m->right));
done:
  return status;
}

gcol_status merge_join(const merge_state *m, gcol_column **left_map, gcol_column **right_map,
                       gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *lm = NULL, *rm = NULL;
  gcol_buffer *start = NULL, *offsets = NULL, *tail = NULL;
  gcol_index_writer lw = {NULL, 4}, rw = {NULL, 4};
  int64_t const n = m->left_view.num_rows, nr = m->right_view.num_rows;
  int64_t total = 0, extra = 0;
  bool const has_right =
      m->kind == GCOL_JOIN_INNER || m->kind == GCOL_JOIN_LEFT || m->kind == GCOL_JOIN_FULL;
  gcol_type_id const type = gcol_index_type_for(n > nr ? n : nr);
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, (gcol_stream)m->stream, NULL, &start));
  GCOL_DETAIL_TRY(runs(m, &m->right, nr, &m->left, m->left_view, (int)m->kind,
                       (int64_t *)start->data, &offsets, &total));
  if (m->kind == GCOL_JOIN_FULL) {
    /* the right rows no left row matches: an anti join the other way round */
    GCOL_DETAIL_TRY(runs(m, &m->left, n, &m->right, m->right_view, (int)GCOL_JOIN_LEFT_ANTI, NULL,
                         &tail, &extra));
  }
  GCOL_DETAIL_CHECK(total <= INT64_MAX - extra, GCOL_ERROR_OVERFLOW,
                    "the join has more than 2^63 output rows");
  GCOL_DETAIL_TRY(make_map(type, total + extra, m, mr, &lm, &lw));
  if (has_right) GCOL_DETAIL_TRY(make_map(type, total + extra, m, mr, &rm, &rw));
  if (total > 0) {
    int64_t const chunks = (total + PAIR_CHUNK - 1) / PAIR_CHUNK;
    unsigned int const grid = (unsigned int)(chunks < 65536 ? chunks : 65536);
    pairs_smem_kernel<<<grid, PAIR_THREADS, 0, m->stream>>>(
        (const int64_t *)offsets->data, n, (const int64_t *)start->data, total, lw, rw, has_right);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (extra > 0) {
    append_unmatched_kernel<<<grid_for(nr), GCOL_DETAIL_BLOCK_SIZE, 0, m->stream>>>(
        (const int64_t *)tail->data, nr, total, lw, rw);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *left_map = lm;
  lm = NULL;
  if (right_map != NULL) {
    *right_map = rm;
    rm = NULL;
  }
done:
  gcol_column_free(lm);
  gcol_column_free(rm);
  gcol_buffer_free(start);
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
  m.left_view = left_keys;
  m.right_view = right_keys;
  m.kind = kind;
  m.nulls_equal = nulls == GCOL_NULLS_EQUAL;
  m.stream = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(key_tables(left_keys, right_keys, order, null_order, &m));
  GCOL_DETAIL_TRY(check_sorted(&m, left_keys, order, null_order, "left"));
  GCOL_DETAIL_TRY(check_sorted(&m, right_keys, order, null_order, "right"));
  GCOL_DETAIL_TRY(merge_join(&m, left_map, right_map, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
