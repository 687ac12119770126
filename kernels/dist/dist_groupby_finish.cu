/* The last step of a distributed VARIANCE or STD: M2 / (n - ddof), null where that divisor is
 * <= 0 or M2 is null (the rule of gcol_groupby_aggregate()). */
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

}  // namespace

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
