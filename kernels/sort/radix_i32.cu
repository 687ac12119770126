/*
 * Radix sort of (int32 key, u32 value) pairs with the keys as they are stored: CUB flips
 * the sign bit in registers while it loads each digit, so sort_by_key over a plain int32
 * key moves exactly the bytes of cub::DeviceRadixSort::SortPairs (no normalizing pass).
 * See radix_impl.cuh; own file so that the 2-core CI compiles it beside the others.
 */
#include "sort/radix_impl.cuh"

extern "C" gcol_status gcol_detail_radix_sort_pairs_i32(gcol_detail_radix_buffers *buffers,
                                                        int64_t n, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(
      buffers->key_bytes == 4 && buffers->value_bytes == 4 && !buffers->overwrite && n <= INT32_MAX,
      GCOL_ERROR_INTERNAL, "int32 radix sort of %lld rows, %d/%d-byte pairs", (long long)n,
      (int)buffers->key_bytes, (int)buffers->value_bytes);
  if (n == 0) goto done;
  status = gcol_detail_radix_sort_typed<int32_t, uint32_t, int>(buffers, (int)n, 32, stream);
done:
  return status;
}
