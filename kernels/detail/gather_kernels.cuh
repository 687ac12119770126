/*
 * Kernels of the gather engine (included by gather.cu only).
 *
 * Masked kernels walk the rows a warp at a time: lane l of a warp handles row base + l with
 * base a multiple of 32 (block sizes and the grid stride are multiples of 32), so the
 * warp's validity bits form exactly output word base / 32, written by lane 0 from a ballot.
 * The loop condition `i - lane < n` is the same for the whole warp, so every lane reaches
 * every ballot.
 */
#ifndef GCOL_KERNELS_DETAIL_GATHER_KERNELS_CUH
#define GCOL_KERNELS_DETAIL_GATHER_KERNELS_CUH

#include "common.cuh"
#include "detail/gather.h"
#include "gcol/device/block.cuh"

/* Nulls of one ballot word covering rows [base, min(base + 32, n)). */
static __device__ __forceinline__ unsigned long long gcol_detail_word_nulls(uint32_t word,
                                                                            int64_t base,
                                                                            int64_t n) {
  int64_t const rows = n - base < 32 ? n - base : 32;
  return (unsigned long long)(rows - __popc(word));
}

/* dst[i] = src[idx[i]], negative indices moved up by wrap_rows (0: no wrap). */
template <typename T, typename I>
static __device__ __forceinline__ void gcol_detail_gather_plain_loop(const T *__restrict__ src,
                                                                     const I *__restrict__ idx,
                                                                     int64_t n, int64_t wrap_rows,
                                                                     T *__restrict__ dst) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t row = (int64_t)idx[i];
    if (row < 0) row += wrap_rows;
    dst[i] = src[row];
  }
}

/* dst[i] = src[map(i)] for a map without nulls or nullify (no output mask). The index type is
 * resolved once per thread, outside the loop, so each case runs the one-line gather. */
template <typename T>
static __global__ void gcol_detail_gather_fixed_kernel(const T *__restrict__ src,
                                                       gcol_indexalator idx, int64_t n,
                                                       int64_t wrap_rows, T *__restrict__ dst) {
  if (idx.is_signed) {
    switch (idx.width) {
      case 1:
        gcol_detail_gather_plain_loop(src, (const int8_t *)idx.data, n, wrap_rows, dst);
        return;
      case 2:
        gcol_detail_gather_plain_loop(src, (const int16_t *)idx.data, n, wrap_rows, dst);
        return;
      case 4:
        gcol_detail_gather_plain_loop(src, (const int32_t *)idx.data, n, wrap_rows, dst);
        return;
      default:
        gcol_detail_gather_plain_loop(src, (const int64_t *)idx.data, n, wrap_rows, dst);
        return;
    }
  }
  switch (idx.width) {
    case 1:
      gcol_detail_gather_plain_loop(src, (const uint8_t *)idx.data, n, wrap_rows, dst);
      return;
    case 2:
      gcol_detail_gather_plain_loop(src, (const uint16_t *)idx.data, n, wrap_rows, dst);
      return;
    case 4:
      gcol_detail_gather_plain_loop(src, (const uint32_t *)idx.data, n, wrap_rows, dst);
      return;
    default:
      gcol_detail_gather_plain_loop(src, (const uint64_t *)idx.data, n, wrap_rows, dst);
      return;
  }
}

/* dst[i] = src[map(i)] and its validity, one ballot word per warp. Null rows get zeros. */
template <typename T>
static __global__ void gcol_detail_gather_fixed_masked_smem_kernel(
    const T *__restrict__ src, const uint32_t *__restrict__ src_mask, int64_t src_mask_offset,
    gcol_detail_gather_map map, T *__restrict__ dst, uint32_t *__restrict__ dst_mask,
    unsigned long long *null_count) {
  int const lane = (int)(threadIdx.x & 31);
  unsigned long long nulls = 0;
  for (int64_t i = gcol_detail_thread_index(); i - lane < map.size;
       i += gcol_detail_grid_stride()) {
    bool valid = false;
    if (i < map.size) {
      int64_t const row = gcol_detail_gather_map_resolve(map, i);
      valid = row >= 0 && gcol_bit_is_set_or_null_mask(src_mask, src_mask_offset + row);
      dst[i] = row >= 0 ? src[row] : T();
    }
    uint32_t const word = __ballot_sync(0xffffffffu, valid);
    if (lane == 0) {
      dst_mask[(i - lane) >> 5] = word;
      nulls += gcol_detail_word_nulls(word, i - lane, map.size);
    }
  }
  gcol_block_add_count(null_count, nulls);
}

/* Only the validity of gathered rows (STRING, LIST, STRUCT). */
static __global__ void gcol_detail_gather_mask_smem_kernel(const uint32_t *__restrict__ src_mask,
                                                           int64_t src_mask_offset,
                                                           gcol_detail_gather_map map,
                                                           uint32_t *__restrict__ dst_mask,
                                                           unsigned long long *null_count) {
  int const lane = (int)(threadIdx.x & 31);
  unsigned long long nulls = 0;
  for (int64_t i = gcol_detail_thread_index(); i - lane < map.size;
       i += gcol_detail_grid_stride()) {
    bool valid = false;
    if (i < map.size) {
      int64_t const row = gcol_detail_gather_map_resolve(map, i);
      valid = row >= 0 && gcol_bit_is_set_or_null_mask(src_mask, src_mask_offset + row);
    }
    uint32_t const word = __ballot_sync(0xffffffffu, valid);
    if (lane == 0) {
      dst_mask[(i - lane) >> 5] = word;
      nulls += gcol_detail_word_nulls(word, i - lane, map.size);
    }
  }
  gcol_block_add_count(null_count, nulls);
}

/* The source row of output row i when it is valid, else -1. */
static __device__ __forceinline__ int64_t gcol_detail_valid_source_row(const uint32_t *src_mask,
                                                                       int64_t src_mask_offset,
                                                                       gcol_detail_gather_map map,
                                                                       int64_t i) {
  int64_t const row = gcol_detail_gather_map_resolve(map, i);
  if (row < 0 || !gcol_bit_is_set_or_null_mask(src_mask, src_mask_offset + row)) return -1;
  return row;
}

/* sizes[i] = bytes (elements) of gathered row i, 0 for null rows; sizes[n] = 0. With
 * `starts`, also starts[i] = the row's first source offset (0 for null rows), so that the
 * chars pass reads neither the map nor the source offsets again. */
static __global__ void gcol_detail_gather_sizes_kernel(gcol_offsetalator src_offsets,
                                                       const uint32_t *src_mask,
                                                       int64_t src_mask_offset,
                                                       gcol_detail_gather_map map, int64_t *sizes,
                                                       int64_t *starts) {
  GCOL_DETAIL_GRID_LOOP(i, map.size + 1) {
    int64_t size = 0, start = 0;
    if (i < map.size) {
      int64_t const row = gcol_detail_valid_source_row(src_mask, src_mask_offset, map, i);
      if (row >= 0) {
        start = gcol_offsetalator_get(src_offsets, row);
        size = gcol_offsetalator_get(src_offsets, row + 1) - start;
      }
      if (starts != NULL) starts[i] = start;
    }
    sizes[i] = size;
  }
}

/* Rows up to this many bytes are copied by their own thread; longer ones by the whole warp. */
#define GCOL_DETAIL_THREAD_COPY_MAX_BYTES 64

/* Writes the output offsets (n + 1 entries, INT32 or INT64) and copies the chars of every
 * gathered row: row i gets bytes [offsets64[i], offsets64[i + 1]) from the source bytes at
 * starts[i]. A short row is copied by its own thread (many rows, many loads in flight); the
 * long rows of a warp are copied one after the other by all 32 lanes. */
static __global__ void gcol_detail_gather_chars_kernel(const char *src_chars,
                                                       const int64_t *__restrict__ starts,
                                                       const int64_t *__restrict__ offsets64,
                                                       int64_t n, gcol_offsets_writer dst_offsets,
                                                       char *dst_chars) {
  int const lane = (int)(threadIdx.x & 31);
  for (int64_t i = gcol_detail_thread_index(); i - lane < n + 1; i += gcol_detail_grid_stride()) {
    int64_t begin = 0, length = 0, dst_begin = 0;
    if (i <= n) {
      dst_begin = offsets64[i];
      gcol_offsets_writer_set(dst_offsets, i, dst_begin);
    }
    if (i < n) {
      begin = starts[i];
      length = offsets64[i + 1] - dst_begin;
    }
    bool const is_long = length > GCOL_DETAIL_THREAD_COPY_MAX_BYTES;
    if (!is_long && length > 0) {
      gcol_detail_copy_bytes(dst_chars + dst_begin, src_chars + begin, length, 0, 1);
    }
    for (uint32_t longs = __ballot_sync(0xffffffffu, is_long); longs != 0; longs &= longs - 1) {
      int const j = __ffs((int)longs) - 1;
      int64_t const b = __shfl_sync(0xffffffffu, begin, j);
      int64_t const len = __shfl_sync(0xffffffffu, length, j);
      int64_t const db = __shfl_sync(0xffffffffu, dst_begin, j);
      gcol_detail_copy_bytes(dst_chars + db, src_chars + b, len, lane, 32);
    }
  }
}

/* The gather map of a list column's values: output value dst_offsets[i] + k reads source
 * value src_offsets[row] + k. */
static __global__ void gcol_detail_list_child_map_kernel(gcol_offsetalator src_offsets,
                                                         const uint32_t *src_mask,
                                                         int64_t src_mask_offset,
                                                         gcol_detail_gather_map map,
                                                         const int64_t *__restrict__ dst_offsets,
                                                         int64_t *__restrict__ child_map) {
  GCOL_DETAIL_GRID_LOOP(i, map.size) {
    int64_t const row = gcol_detail_valid_source_row(src_mask, src_mask_offset, map, i);
    if (row >= 0) {
      int64_t const src_begin = gcol_offsetalator_get(src_offsets, row);
      int64_t const dst_begin = dst_offsets[i];
      int64_t const length = dst_offsets[i + 1] - dst_begin;
      for (int64_t k = 0; k < length; ++k) child_map[dst_begin + k] = src_begin + k;
    }
  }
}

/* int64 offsets narrowed to INT32 (the caller checked the total fits). */
static __global__ void gcol_detail_narrow_offsets_kernel(const int64_t *__restrict__ src,
                                                         int32_t *__restrict__ dst, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) { dst[i] = (int32_t)src[i]; }
}

/* map[i] = n - 1 - i. */
static __global__ void gcol_detail_reverse_map_kernel(gcol_index_writer map, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) { gcol_index_writer_set(map, i, n - 1 - i); }
}

#endif /* GCOL_KERNELS_DETAIL_GATHER_KERNELS_CUH */
