/*
 * rank and is_sorted. rank sorts the column stably, marks where each run of equal values
 * starts, numbers the runs with a scan (dense ranks), records each run's first and last
 * position, and scatters the rank of each sorted position back to its row.
 */
#include "common.cuh"
#include "gcol/sorting.h"
#include "sort/sort_internal.h"

static __device__ __forceinline__ int64_t perm_at(const void *perm, int32_t bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const uint32_t *)perm)[i] : (int64_t)((const uint64_t *)perm)[i];
}

/* heads[i] = 1 where sorted position i starts a run of equal values. */
static __global__ void run_heads_kernel(gcol_detail_key_column column, const void *perm,
                                        int32_t bytes, int64_t *heads, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool head = i == 0;
    if (!head) {
      head = gcol_detail_compare_key_rows(&column, perm_at(perm, bytes, i - 1), &column,
                                          perm_at(perm, bytes, i)) != 0;
    }
    heads[i] = head ? 1 : 0;
  }
}

/* first[d - 1] / last[d - 1]: the first and last sorted position of run d. */
static __global__ void run_bounds_kernel(const int64_t *dense, int64_t *first, int64_t *last,
                                         int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const d = dense[i];
    if (i == 0 || dense[i - 1] != d) first[d - 1] = i;
    if (i == n - 1 || dense[i + 1] != d) last[d - 1] = i;
  }
}

typedef struct rank_args {
  int32_t method;
  bool percentage;
  bool as_double;
  int64_t ranked; /* sorted positions [0, ranked) are ranked (KEEP: the valid rows) */
  int32_t index_bytes;
} rank_args;

static __global__ void rank_scatter_kernel(rank_args args, const void *perm, const int64_t *dense,
                                           const int64_t *first, const int64_t *last, void *out,
                                           int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const row = perm_at(perm, args.index_bytes, i);
    double rank = 0.0;
    int64_t const d = dense[i];
    switch (args.method) {
      case GCOL_RANK_FIRST:
        rank = (double)(i + 1);
        break;
      case GCOL_RANK_AVERAGE:
        rank = 0.5 * (double)(first[d - 1] + last[d - 1]) + 1.0;
        break;
      case GCOL_RANK_MIN:
        rank = (double)(first[d - 1] + 1);
        break;
      case GCOL_RANK_MAX:
        rank = (double)(last[d - 1] + 1);
        break;
      default:
        rank = (double)d;
        break;
    }
    if (i >= args.ranked) rank = 0.0; /* a null row under KEEP: masked out */
    if (args.percentage && args.ranked > 0) {
      double const total =
          args.method == GCOL_RANK_DENSE ? (double)dense[args.ranked - 1] : (double)args.ranked;
      rank /= total;
    }
    if (args.as_double) {
      ((double *)out)[row] = rank;
    } else if (args.index_bytes == 4 && args.method != GCOL_RANK_AVERAGE) {
      ((int32_t *)out)[row] = (int32_t)rank;
    } else {
      ((int64_t *)out)[row] = (int64_t)rank;
    }
  }
}

/* Dense run numbers of the sorted positions and each run's first and last position. */
static gcol_status rank_runs(gcol_detail_key_column key, const void *perm, int32_t bytes, int64_t n,
                             gcol_stream stream, gcol_buffer **dense, gcol_buffer **first,
                             gcol_buffer **last) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  size_t const bytes64 = sizeof(int64_t) * (size_t)n;
  GCOL_DETAIL_TRY(gcol_buffer_create(bytes64, stream, NULL, dense));
  GCOL_DETAIL_TRY(gcol_buffer_create(bytes64, stream, NULL, first));
  GCOL_DETAIL_TRY(gcol_buffer_create(bytes64, stream, NULL, last));
  run_heads_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(key, perm, bytes,
                                                           (int64_t *)(*dense)->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_inclusive_sum_i64((const int64_t *)(*dense)->data,
                                                (int64_t *)(*dense)->data, n, stream));
  run_bounds_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      (const int64_t *)(*dense)->data, (int64_t *)(*first)->data, (int64_t *)(*last)->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

extern "C" gcol_status gcol_rank(gcol_column_view column, gcol_rank_method method, gcol_order order,
                                 gcol_rank_nulls nulls, bool percentage, gcol_column **out,
                                 gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *perm = NULL, *result = NULL;
  gcol_buffer *dense = NULL, *first = NULL, *last = NULL, *mask = NULL;
  gcol_detail_key_column key;
  gcol_table_view keys;
  rank_args args;
  int64_t null_count = 0;
  int64_t const n = column.size;
  gcol_null_order const null_order =
      nulls == GCOL_RANK_NULLS_TOP ? GCOL_NULLS_BEFORE : GCOL_NULLS_AFTER;
  bool const as_double = method == GCOL_RANK_AVERAGE || percentage;
  gcol_type_id const out_type = as_double ? GCOL_FLOAT64 : gcol_index_type_for(n);
  GCOL_DETAIL_NVTX_PUSH("gcol_rank");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK((int)method >= GCOL_RANK_FIRST && method <= GCOL_RANK_DENSE,
                    GCOL_ERROR_INVALID_ARGUMENT, "method %d is not a gcol_rank_method",
                    (int)method);
  GCOL_DETAIL_CHECK((int)nulls >= GCOL_RANK_NULLS_KEEP && nulls <= GCOL_RANK_NULLS_BOTTOM,
                    GCOL_ERROR_INVALID_ARGUMENT, "nulls %d is not a gcol_rank_nulls", (int)nulls);
  GCOL_DETAIL_TRY(gcol_detail_key_column_make(column, order, null_order, "column", &key));
  if (n == 0) {
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(out_type), 0, GCOL_MASK_UNALLOCATED,
                                       stream, mr, out));
    goto done;
  }
  if (nulls == GCOL_RANK_NULLS_KEEP && key.null_mask != NULL) {
    GCOL_DETAIL_TRY(gcol_column_view_null_count(column, stream, &null_count));
  }
  keys.num_columns = 1;
  keys.num_rows = n;
  keys.columns = &column;
  GCOL_DETAIL_TRY(
      gcol_detail_sorted_order(keys, &order, &null_order, NULL, "gcol_rank", &perm, stream, NULL));
  {
    gcol_column_view const pv = gcol_column_get_view(perm);
    int32_t const bytes = (int32_t)gcol_type_size(pv.type.id);
    GCOL_DETAIL_TRY(rank_runs(key, pv.data, bytes, n, stream, &dense, &first, &last));
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(out_type), n, GCOL_MASK_UNALLOCATED,
                                       stream, mr, &result));
    args.method = (int32_t)method;
    args.percentage = percentage;
    args.as_double = as_double;
    args.ranked = n - null_count;
    args.index_bytes = bytes;
    rank_scatter_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                          0, (cudaStream_t)stream>>>(
        args, pv.data, (const int64_t *)dense->data, (const int64_t *)first->data,
        (const int64_t *)last->data, result->data->data, n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (null_count > 0) {
    GCOL_DETAIL_TRY(
        gcol_bitmask_copy(column.null_mask, column.offset, column.offset + n, stream, mr, &mask));
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(result, mask, null_count));
    mask = NULL;
  }
  *out = result;
  result = NULL;
done:
  gcol_buffer_free(mask);
  gcol_buffer_free(dense);
  gcol_buffer_free(first);
  gcol_buffer_free(last);
  gcol_column_free(result);
  gcol_column_free(perm);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Sets *violations when some row sorts after its successor. */
static __global__ void is_sorted_kernel(gcol_detail_key_table keys, int32_t *violations,
                                        int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n - 1) {
    if (gcol_detail_compare_table_rows(&keys, i, &keys, i + 1) > 0) *violations = 1;
  }
}

extern "C" gcol_status gcol_is_sorted(gcol_table_view keys, const gcol_order *order,
                                      const gcol_null_order *null_order, bool *out,
                                      gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *flag = NULL;
  int32_t violations = 0;
  gcol_detail_key_table table;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_NVTX_PUSH("gcol_is_sorted");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = false;
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(keys, order, null_order, "keys", &table));
  if (keys.num_rows > 1) {
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int32_t), stream, NULL, &flag));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(flag->data, 0, sizeof(int32_t), s));
    is_sorted_kernel<<<gcol_detail_grid_size(keys.num_rows - 1, GCOL_DETAIL_BLOCK_SIZE),
                       GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(table, (int32_t *)flag->data, keys.num_rows);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(&violations, flag->data, sizeof violations, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  }
  *out = violations == 0;
done:
  gcol_buffer_free(flag);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
