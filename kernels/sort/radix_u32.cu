/* Radix sort of (u32 key, index) pairs: see radix_impl.cuh. */
#include "sort/radix_impl.cuh"

extern "C" gcol_status gcol_detail_radix_sort_pairs_u32(gcol_detail_radix_buffers *buffers,
                                                        int64_t n, int end_bit,
                                                        gcol_stream stream) {
  return gcol_detail_radix_sort_for_key<uint32_t>(buffers, n, end_bit, stream);
}
