/* The conversions interop cannot avoid: gcol's BOOL8 bytes to Arrow's bit-packed booleans and
 * back, and the gather of a strided DLPack tensor into a contiguous column. */
#include "common.cuh"
#include "gcol/bitmask.h"
#include "internal/interop.h"

/* One thread per 32-bit word of the output: 32 bytes in, one word out; words past the last
 * row are zeroed (the mask padding). */
static __global__ void pack_bools_kernel(const uint8_t *bytes, int64_t n, uint32_t *bits,
                                         int64_t words) {
  GCOL_DETAIL_GRID_LOOP(w, words) {
    uint32_t word = 0;
    int64_t const first = w * 32;
    int const count = first >= n ? 0 : (n - first < 32 ? (int)(n - first) : 32);
    for (int j = 0; j < count; ++j) word |= (uint32_t)(bytes[first + j] != 0) << j;
    bits[w] = word;
  }
}

extern "C" gcol_status gcol_detail_interop_pack_bools(const uint8_t *bytes, int64_t n,
                                                      uint32_t *bits, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t const words = (int64_t)(gcol_bitmask_allocation_size(n) / sizeof(uint32_t));
  if (words == 0) return GCOL_OK;
  pack_bools_kernel<<<gcol_detail_grid_size(words, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                      0, (cudaStream_t)stream>>>(bytes, n, bits, words);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* Bits are read bytewise: an Arrow buffer promises no alignment beyond a byte. */
static __global__ void unpack_bools_kernel(const uint8_t *bits, int64_t bit_offset, int64_t n,
                                           uint8_t *bytes) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const bit = bit_offset + i;
    bytes[i] = (uint8_t)((bits[bit >> 3] >> (bit & 7)) & 1u);
  }
}

extern "C" gcol_status gcol_detail_interop_unpack_bools(const uint8_t *bits, int64_t bit_offset,
                                                        int64_t n, uint8_t *bytes,
                                                        gcol_stream stream) {
  gcol_status status = GCOL_OK;
  if (n == 0) return GCOL_OK;
  unpack_bools_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                        0, (cudaStream_t)stream>>>(bits, bit_offset, n, bytes);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

template <typename T>
static __global__ void strided_copy_kernel(const T *src, int64_t stride, int64_t n, T *dst) {
  GCOL_DETAIL_GRID_LOOP(i, n) { dst[i] = src[i * stride]; }
}

template <typename T>
static gcol_status launch_strided(const void *src, int64_t stride, int64_t n, void *dst,
                                  gcol_stream stream) {
  gcol_status status = GCOL_OK;
  strided_copy_kernel<T><<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                           0, (cudaStream_t)stream>>>((const T *)src, stride, n, (T *)dst);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

extern "C" gcol_status gcol_detail_interop_strided_copy(const void *src, int64_t stride, int64_t n,
                                                        int32_t width, void *dst,
                                                        gcol_stream stream) {
  if (n == 0) return GCOL_OK;
  switch (width) {
    case 1: return launch_strided<uint8_t>(src, stride, n, dst, stream);
    case 2: return launch_strided<uint16_t>(src, stride, n, dst, stream);
    case 4: return launch_strided<uint32_t>(src, stride, n, dst, stream);
    case 8: return launch_strided<uint64_t>(src, stride, n, dst, stream);
    default:
      return gcol_detail_error(GCOL_ERROR_INTERNAL, __func__, "strided copy of %d-byte elements",
                               (int)width);
  }
}
