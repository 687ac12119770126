/*
 * Radix sort of (u32 key, u64 value) pairs counted with int (n <= INT32_MAX): the hi sort of
 * the split sort (split_sort.cu), whose values pack a key's low bits above its row index.
 * With int counts CUB takes the same 32-bit offsets as its SortPairs over 2^27 rows (the
 * u64-value instantiation of radix_u32.cu counts with int64 for any row count). See
 * radix_impl.cuh; own file so that the 2-core CI compiles it beside the others.
 */
#include "sort/radix_impl.cuh"

extern "C" gcol_status gcol_detail_radix_sort_pairs_u32_u64(gcol_detail_radix_buffers *buffers,
                                                            int64_t n, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(buffers->key_bytes == 4 && buffers->value_bytes == 8 && n <= INT32_MAX,
                    GCOL_ERROR_INTERNAL, "u32/u64 radix sort of %lld rows, %d/%d-byte pairs",
                    (long long)n, (int)buffers->key_bytes, (int)buffers->value_bytes);
  if (n == 0) goto done;
  status = gcol_detail_radix_sort_typed<uint32_t, uint64_t, int>(buffers, (int)n, 32, stream);
done:
  return status;
}
