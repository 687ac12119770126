/* The conversions interop cannot avoid: gcol's BOOL8 bytes to Arrow's bit-packed booleans and
 * back, Arrow's utf8 views to a STRING column, and the gather of a strided DLPack tensor into
 * a contiguous column. */
#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
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

/* ---- utf8 views to STRING: lengths, their exclusive sum, then the bytes ---- */

/* sizes[i] = row i's length (0 for a null row); sizes[n + 1] = 1 for a malformed view of a
 * valid row. */
static __global__ void view_sizes_kernel(const uint8_t *views, const uint32_t *mask,
                                         int64_t mask_offset, int64_t n, int32_t num_buffers,
                                         int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int32_t length = 0, buffer = 0, offset = 0;
    bool const valid = gcol_bit_is_set_or_null_mask(mask, mask_offset + i);
    if (valid && !gcol_detail_arrow_view_decode(views + 16 * i, num_buffers, &length, &buffer,
                                                &offset)) {
      sizes[n + 1] = 1;
      length = 0;
    }
    sizes[i] = valid ? length : 0;
  }
}

/* Row i's bytes to chars[offsets[i], offsets[i + 1]), a thread per row. */
static __global__ void view_copy_kernel(const uint8_t *views, const char *const *buffers,
                                        int32_t num_buffers, const int64_t *offsets, int64_t n,
                                        char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const length = offsets[i + 1] - offsets[i];
    if (length == 0) continue;
    int32_t len = 0, buffer = 0, offset = 0;
    gcol_detail_arrow_view_decode(views + 16 * i, num_buffers, &len, &buffer, &offset);
    const char *src = length <= GCOL_DETAIL_ARROW_VIEW_INLINE ? (const char *)views + 16 * i + 4
                                                              : buffers[buffer] + offset;
    for (int64_t k = 0; k < length; ++k) chars[offsets[i] + k] = src[k];
  }
}

extern "C" gcol_status gcol_detail_interop_string_views(const uint8_t *views, const uint32_t *mask,
                                                        int64_t mask_offset, int64_t n,
                                                        const char *const *buffers,
                                                        int32_t num_buffers, gcol_stream stream,
                                                        gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_buffer *work = NULL, *pointers = NULL, *chars = NULL;
  gcol_column *offsets = NULL;
  int64_t tail[2] = {0, 0}; /* the total, the flag of a malformed view */
  *out = NULL;
  /* sizes then offsets (n + 1 int64), and the flag after them */
  int64_t *sizes = NULL;
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 2, stream, &work));
  sizes = (int64_t *)work->data;
  if (n > 0) {
    view_sizes_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                        s>>>(views, mask, mask_offset, n, num_buffers, sizes);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan(sizes, sizes, n, tail, 2, stream));
  GCOL_DETAIL_CHECK(tail[1] == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "a utf8 view of a valid row has a negative length or offset, or a data "
                    "buffer outside the array's %d",
                    (int)num_buffers);
  GCOL_DETAIL_TRY(gcol_detail_offsets_column(sizes, n + 1, gcol_detail_offsets_type(tail[0]),
                                             stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)tail[0], stream, mr, &chars));
  if (tail[0] > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create_copy(buffers, (size_t)(num_buffers > 0 ? num_buffers : 1) *
                                                         sizeof *buffers,
                                            stream, NULL, &pointers));
    view_copy_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                       0, s>>>(views, (const char *const *)pointers->data, num_buffers, sizes, n,
                               (char *)chars->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, NULL, 0, out));
  offsets = NULL;
  chars = NULL;
  /* the copies from host memory into `pointers` and the kernels read `work`: done before the
   * frees below return them (stream-ordered) */
done:
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  gcol_buffer_free(pointers);
  gcol_buffer_free(work);
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
