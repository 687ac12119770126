/* Radix sort of (u64 key, index) pairs, and the width dispatch: see radix_impl.cuh. */
#include "sort/radix_impl.cuh"

extern "C" gcol_status gcol_detail_radix_sort_pairs_u32(gcol_detail_radix_buffers *buffers,
                                                        int64_t n, int end_bit, gcol_stream stream);

extern "C" gcol_status gcol_detail_radix_sort_pairs(gcol_detail_radix_buffers *buffers, int64_t n,
                                                    int end_bit, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(buffers->value_bytes == 8 || n <= INT32_MAX, GCOL_ERROR_INTERNAL,
                    "32-bit values with %lld rows", (long long)n);
  if (n == 0) goto done;
  if (buffers->key_bytes == 4) {
    status = gcol_detail_radix_sort_pairs_u32(buffers, n, end_bit, stream);
  } else {
    status = gcol_detail_radix_sort_for_key<uint64_t>(buffers, n, end_bit, stream);
  }
done:
  return status;
}
