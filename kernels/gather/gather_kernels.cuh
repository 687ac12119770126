/*
 * Kernels of the gather engine (included by gather.cu only).
 *
 * Masked kernels walk the rows a warp at a time: lane l of a warp handles row base + l with
 * base a multiple of 32 (block sizes and the grid stride are multiples of 32), so the
 * warp's validity bits form exactly output word base / 32, written by lane 0 from a ballot.
 * The loop condition `i - lane < n` is the same for the whole warp, so every lane reaches
 * every ballot.
 */
#ifndef GCOL_KERNELS_GATHER_KERNELS_CUH
#define GCOL_KERNELS_GATHER_KERNELS_CUH

#include "common.cuh"
#include "gather/copying_internal.h"

/* Adds a warp's null count to the global counter, one atomic per warp. */
static __device__ __forceinline__ void gcol_detail_add_nulls(unsigned long long *counter,
                                                             unsigned long long nulls) {
  if ((threadIdx.x & 31) == 0 && nulls != 0) atomicAdd(counter, nulls);
}

/* Nulls of one ballot word covering rows [base, min(base + 32, n)). */
static __device__ __forceinline__ unsigned long long gcol_detail_word_nulls(uint32_t word,
                                                                            int64_t base,
                                                                            int64_t n) {
  int64_t const rows = n - base < 32 ? n - base : 32;
  return (unsigned long long)(rows - __popc(word));
}

/* dst[i] = src[map(i)]: no output mask (the map resolves no null row). */
template <typename T>
static __global__ void gcol_detail_gather_fixed_kernel(const T *__restrict__ src,
                                                       gcol_detail_gather_map map,
                                                       T *__restrict__ dst) {
  GCOL_DETAIL_GRID_LOOP(i, map.size) { dst[i] = src[gcol_detail_gather_map_resolve(map, i)]; }
}

/* dst[i] = src[map(i)] and its validity, one ballot word per warp. Null rows get zeros. */
template <typename T>
static __global__ void gcol_detail_gather_fixed_masked_kernel(
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
  gcol_detail_add_nulls(null_count, nulls);
}

/* Only the validity of gathered rows (STRING, LIST, STRUCT). */
static __global__ void gcol_detail_gather_mask_kernel(const uint32_t *__restrict__ src_mask,
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
  gcol_detail_add_nulls(null_count, nulls);
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

/* sizes[i] = bytes (elements) of gathered row i, 0 for null rows; sizes[n] = 0. */
static __global__ void gcol_detail_gather_sizes_kernel(gcol_offsetalator src_offsets,
                                                       const uint32_t *src_mask,
                                                       int64_t src_mask_offset,
                                                       gcol_detail_gather_map map, int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(i, map.size + 1) {
    int64_t size = 0;
    if (i < map.size) {
      int64_t const row = gcol_detail_valid_source_row(src_mask, src_mask_offset, map, i);
      if (row >= 0) {
        size =
            gcol_offsetalator_get(src_offsets, row + 1) - gcol_offsetalator_get(src_offsets, row);
      }
    }
    sizes[i] = size;
  }
}

/* Copies the chars of gathered strings: each warp takes 32 consecutive rows and copies them
 * one after the other, the 32 lanes covering consecutive bytes of one string. */
static __global__ void gcol_detail_gather_chars_kernel(
    const char *__restrict__ src_chars, gcol_offsetalator src_offsets, const uint32_t *src_mask,
    int64_t src_mask_offset, gcol_detail_gather_map map, const int64_t *__restrict__ dst_offsets,
    char *__restrict__ dst_chars) {
  int const lane = (int)(threadIdx.x & 31);
  for (int64_t i = gcol_detail_thread_index(); i - lane < map.size;
       i += gcol_detail_grid_stride()) {
    int64_t src_begin = 0, length = 0, dst_begin = 0;
    if (i < map.size) {
      int64_t const row = gcol_detail_valid_source_row(src_mask, src_mask_offset, map, i);
      dst_begin = dst_offsets[i];
      if (row >= 0) {
        src_begin = gcol_offsetalator_get(src_offsets, row);
        length = gcol_offsetalator_get(src_offsets, row + 1) - src_begin;
      }
    }
    for (int j = 0; j < 32; ++j) {
      int64_t const sb = __shfl_sync(0xffffffffu, src_begin, j);
      int64_t const len = __shfl_sync(0xffffffffu, length, j);
      int64_t const db = __shfl_sync(0xffffffffu, dst_begin, j);
      for (int64_t k = lane; k < len; k += 32) dst_chars[db + k] = src_chars[sb + k];
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

#endif /* GCOL_KERNELS_GATHER_KERNELS_CUH */
