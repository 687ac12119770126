/*
 * Radix sort of (int64 key, u32 value) pairs with the keys as they are stored, as
 * radix_i32.cu does for int32: sorted_order over one plain int64 key (and every type stored
 * as one) moves the bytes of cub::DeviceRadixSort::SortPairs plus its iota values, with no
 * normalizing pass. See radix_impl.cuh; own file so that the 2-core CI compiles it beside
 * the others.
 */
#include "sort/radix_impl.cuh"

extern "C" gcol_status gcol_detail_radix_sort_pairs_i64(gcol_detail_radix_buffers *buffers,
                                                        int64_t n, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(
      buffers->key_bytes == 8 && buffers->value_bytes == 4 && !buffers->overwrite && n <= INT32_MAX,
      GCOL_ERROR_INTERNAL, "int64 radix sort of %lld rows, %d/%d-byte pairs", (long long)n,
      (int)buffers->key_bytes, (int)buffers->value_bytes);
  if (n == 0) goto done;
  status = gcol_detail_radix_sort_typed<int64_t, uint32_t, int>(buffers, (int)n, 64, stream);
done:
  return status;
}
