/*
 * The radix-sort instantiation shared by radix_u32.cu and radix_u64.cu: one
 * cub::DeviceRadixSort::SortPairs dispatch per (key word, value word, item count) type,
 * split over two files so that the 2-core CI builds them in parallel.
 */
#ifndef GCOL_KERNELS_SORT_RADIX_IMPL_CUH
#define GCOL_KERNELS_SORT_RADIX_IMPL_CUH

#include <cub/device/device_radix_sort.cuh>

#include "common.cuh"
#include "sort/sort_internal.h"

/* Runs one stable radix sort of (K, V) pairs with N-typed item counts. */
template <typename K, typename V, typename N>
static gcol_status gcol_detail_radix_sort_typed(gcol_detail_radix_buffers *b, N n, int end_bit,
                                                gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t temp_bytes = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  int const cur = b->values_current;
  cub::DoubleBuffer<K> keys((K *)b->keys[0], (K *)b->keys[1]);
  cub::DoubleBuffer<V> values((V *)b->values[cur], (V *)b->values[1 - cur]);
  if (b->overwrite) {
    GCOL_DETAIL_CUDA_TRY(
        cub::DeviceRadixSort::SortPairs(NULL, temp_bytes, keys, values, n, 0, end_bit, s));
    GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
    GCOL_DETAIL_CUDA_TRY(
        cub::DeviceRadixSort::SortPairs(temp->data, temp_bytes, keys, values, n, 0, end_bit, s));
    b->values_current = values.Current() == (V *)b->values[cur] ? cur : 1 - cur;
    b->keys_current = keys.Current() == (K *)b->keys[0] ? 0 : 1;
  } else {
    GCOL_DETAIL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(NULL, temp_bytes, (const K *)b->keys[0],
                                                         (K *)b->keys[1], (const V *)b->values[0],
                                                         (V *)b->values[1], n, 0, end_bit, s));
    GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
    GCOL_DETAIL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(
        temp->data, temp_bytes, (const K *)b->keys[0], (K *)b->keys[1], (const V *)b->values[0],
        (V *)b->values[1], n, 0, end_bit, s));
    b->values_current = 1;
    b->keys_current = 1;
  }
done:
  gcol_buffer_free(temp);
  return status;
}

/* Index-width dispatch for one key word type: u32 values count with int (n <= INT32_MAX),
 * u64 values with int64 counts. */
template <typename K>
static gcol_status gcol_detail_radix_sort_for_key(gcol_detail_radix_buffers *b, int64_t n,
                                                  int end_bit, gcol_stream stream) {
  if (b->value_bytes == 4) {
    return gcol_detail_radix_sort_typed<K, uint32_t, int>(b, (int)n, end_bit, stream);
  }
  return gcol_detail_radix_sort_typed<K, uint64_t, int64_t>(b, n, end_bit, stream);
}

#endif /* GCOL_KERNELS_SORT_RADIX_IMPL_CUH */
