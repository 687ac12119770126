/* kernels/detail/scan.h: the exclusive sum of int64 counts. */
#include <cub/device/device_scan.cuh>

#include "common.cuh"
#include "detail/scan.h"

extern "C" gcol_status gcol_detail_exclusive_sum_i64(const int64_t *in, int64_t *out, int64_t n,
                                                     gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t bytes = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  if (n <= 0) return GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, bytes, in, out, n, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp->data, bytes, in, out, n, s));
done:
  gcol_buffer_free(temp);
  return status;
}
