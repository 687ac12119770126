/* kernels/detail/scan.h: the exclusive sum of int64 counts and the sizes -> offsets pass. */
#include <cub/device/device_scan.cuh>

#include "common.cuh"
#include "detail/gather.h"
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

extern "C" gcol_status gcol_detail_sizes_create(int64_t n, int32_t words, gcol_stream stream,
                                                gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  *out = NULL;
  GCOL_DETAIL_CHECK(n >= 0 && words >= 1 && words <= GCOL_DETAIL_SIZES_WORDS_MAX,
                    GCOL_ERROR_INTERNAL, "sizes of %lld rows with %d words", (long long)n,
                    (int)words);
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n + words) * sizeof(int64_t), stream, NULL, out));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync((int64_t *)(*out)->data + n, 0,
                                       (size_t)words * sizeof(int64_t), (cudaStream_t)stream));
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*out);
    *out = NULL;
  }
  return status;
}

extern "C" gcol_status gcol_detail_sizes_scan(const int64_t *sizes, int64_t *offsets, int64_t n,
                                              int64_t *tail, int32_t words, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_CHECK(n >= 0 && words >= 1 && words <= GCOL_DETAIL_SIZES_WORDS_MAX,
                    GCOL_ERROR_INTERNAL, "a scan of %lld sizes reading %d words", (long long)n,
                    (int)words);
  /* n + 1 entries: the scan writes the total at n whatever sizes[n] holds */
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(sizes, offsets, n + 1, stream));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(tail, offsets + n, (size_t)words * sizeof(int64_t),
                                       cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  GCOL_DETAIL_CHECK(tail[0] >= 0, GCOL_ERROR_OVERFLOW,
                    "the sizes of %lld rows add up past INT64_MAX bytes", (long long)n);
done:
  return status;
}

extern "C" gcol_status gcol_detail_offsets_from_sizes(int64_t *sizes, int64_t n, int64_t *tail,
                                                      int32_t words, gcol_stream stream,
                                                      gcol_mr *mr, gcol_column **offsets) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan(sizes, sizes, n, tail, words, stream));
  GCOL_DETAIL_TRY(gcol_detail_offsets_column(sizes, n + 1, gcol_detail_offsets_type(tail[0]),
                                             stream, mr, offsets));
done:
  return status;
}
