/* The last steps of a distributed VARIANCE or STD (M2 / (n - ddof), null where that divisor
 * is <= 0 or M2 is null) and of a MEAN merged as a sum and a count (null where the count is
 * 0), the rules of gcol_groupby_aggregate(). */
#include <cuda_runtime_api.h>

#include "common.cuh"
#include "detail/element_io.cuh"
#include "dist/dist_groupby_finish.h"
#include "gcol/bitmask.h"
#include "internal/error.h"

namespace {

__global__ void variance_kernel(const int64_t *count, const double *m2, const uint32_t *m2_mask,
                                int64_t m2_offset, int64_t n, int32_t ddof, bool take_sqrt,
                                double *out, uint32_t *out_mask) {
  GCOL_DETAIL_WARP_LOOP(word, i, n) {
    bool valid = false;
    double v = 0.0;
    if (i < n) {
      int64_t const d = count[i] - ddof;
      valid = d > 0 && gcol_bit_is_set_or_null_mask(m2_mask, m2_offset + i);
      if (valid) v = take_sqrt ? sqrt(m2[i] / (double)d) : m2[i] / (double)d;
      out[i] = v;
    }
    gcol_detail_warp_mask_update(out_mask, GCOL_DETAIL_MASK_WRITE, word, valid);
  }
}

/* The merged sum as a double: INT64 or UINT64 (integer sums), FLOAT64. */
__device__ double sum_as_double(const void *sum, gcol_type_id id, int64_t i) {
  if (id == GCOL_INT64) return (double)((const int64_t *)sum)[i];
  if (id == GCOL_UINT64) return (double)((const uint64_t *)sum)[i];
  return ((const double *)sum)[i];
}

__global__ void mean_kernel(const void *sum, gcol_type_id sum_type, const int64_t *count,
                            const uint32_t *count_mask, int64_t count_offset, int64_t n,
                            double *out, uint32_t *out_mask) {
  GCOL_DETAIL_WARP_LOOP(word, i, n) {
    bool valid = false;
    if (i < n) {
      valid = gcol_bit_is_set_or_null_mask(count_mask, count_offset + i) && count[i] > 0;
      out[i] = valid ? sum_as_double(sum, sum_type, i) / (double)count[i] : 0.0;
    }
    gcol_detail_warp_mask_update(out_mask, GCOL_DETAIL_MASK_WRITE, word, valid);
  }
}

}  // namespace

extern "C" gcol_status gcol_detail_dist_mean(gcol_column_view sum, gcol_column_view count,
                                             gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  int64_t nulls = 0;
  *out = NULL;
  GCOL_DETAIL_CHECK(
      (sum.type.id == GCOL_INT64 || sum.type.id == GCOL_UINT64 || sum.type.id == GCOL_FLOAT64) &&
          count.type.id == GCOL_INT64 && count.size == sum.size,
      GCOL_ERROR_INTERNAL, "sum %s and count %s", gcol_type_name(sum.type.id),
      gcol_type_name(count.type.id));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_FLOAT64), sum.size,
                                     GCOL_MASK_UNINITIALIZED, stream, mr, &col));
  if (sum.size > 0) {
    int const block = 256;
    size_t const width = gcol_type_size(sum.type.id);
    mean_kernel<<<gcol_detail_grid_size(sum.size, block), block, 0, (cudaStream_t)stream>>>(
        (const char *)sum.data + (size_t)sum.offset * width, sum.type.id,
        (const int64_t *)count.data + count.offset, count.null_mask, count.offset, sum.size,
        (double *)col->data->data, (uint32_t *)col->null_mask->data);
    GCOL_DETAIL_CUDA_TRY(cudaGetLastError());
    GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits((const uint32_t *)col->null_mask->data, 0,
                                                  sum.size, stream, &nulls));
  }
  GCOL_DETAIL_TRY(gcol_column_set_null_count(col, nulls));
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}

extern "C" gcol_status gcol_detail_dist_variance(gcol_column_view count, gcol_column_view m2,
                                                 int32_t ddof, bool take_sqrt, gcol_column **out,
                                                 gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  int64_t nulls = 0;
  *out = NULL;
  GCOL_DETAIL_CHECK(count.type.id == GCOL_INT64 && m2.type.id == GCOL_FLOAT64 &&
                        count.size == m2.size && count.null_mask == NULL,
                    GCOL_ERROR_INTERNAL, "count %s and M2 %s", gcol_type_name(count.type.id),
                    gcol_type_name(m2.type.id));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_FLOAT64), m2.size,
                                     GCOL_MASK_UNINITIALIZED, stream, mr, &col));
  if (m2.size > 0) {
    int const block = 256;
    variance_kernel<<<gcol_detail_grid_size(m2.size, block), block, 0, (cudaStream_t)stream>>>(
        (const int64_t *)count.data + count.offset, (const double *)m2.data + m2.offset,
        m2.null_mask, m2.offset, m2.size, ddof, take_sqrt, (double *)col->data->data,
        (uint32_t *)col->null_mask->data);
    GCOL_DETAIL_CUDA_TRY(cudaGetLastError());
    GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits((const uint32_t *)col->null_mask->data, 0,
                                                  m2.size, stream, &nulls));
  }
  GCOL_DETAIL_TRY(gcol_column_set_null_count(col, nulls));
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}
