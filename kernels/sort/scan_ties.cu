/* The int64 inclusive scan and the comparison sort of string-prefix ties (one CUB
 * instantiation each). */
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "common.cuh"
#include "sort/sort_internal.h"

extern "C" gcol_status gcol_detail_inclusive_sum_i64(const int64_t *in, int64_t *out, int64_t n,
                                                     gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t temp_bytes = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  if (n == 0) goto done;
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::InclusiveSum(NULL, temp_bytes, in, out, n, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::InclusiveSum(temp->data, temp_bytes, in, out, n, s));
done:
  gcol_buffer_free(temp);
  return status;
}

/* Orders ties by prefix, then nulls first, then the whole string (in the column's
 * direction). Nulls only tie with rows whose prefix word is 0. */
struct gcol_detail_tie_less {
  gcol_detail_key_column column;
  __device__ bool operator()(const gcol_detail_string_tie &a,
                             const gcol_detail_string_tie &b) const {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    bool const va = gcol_detail_key_is_valid(&column, (int64_t)a.row);
    bool const vb = gcol_detail_key_is_valid(&column, (int64_t)b.row);
    if (!va || !vb) return !va && vb;
    return gcol_detail_compare_key_values(&column, (int64_t)a.row, &column, (int64_t)b.row) < 0;
  }
};

extern "C" gcol_status gcol_detail_sort_string_ties(gcol_detail_string_tie *ties, int64_t n,
                                                    gcol_detail_key_column column,
                                                    gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t temp_bytes = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_detail_tie_less less;
  less.column = column;
  if (n < 2) goto done;
  GCOL_DETAIL_CUDA_TRY(cub::DeviceMergeSort::StableSortKeys(NULL, temp_bytes, ties, n, less, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(
      cub::DeviceMergeSort::StableSortKeys(temp->data, temp_bytes, ties, n, less, s));
done:
  gcol_buffer_free(temp);
  return status;
}
