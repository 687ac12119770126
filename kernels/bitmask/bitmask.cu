/* Null-mask kernels: create, count set bits at any offset, copy at an offset, AND/OR of
 * masks at their own offsets, set a range. Every output word is computed by one thread
 * from funnel-shifted source words, so no atomics are needed. */
#include "common.cuh"
#include "gcol/bitmask.h"
#include "gcol/device/block.cuh"

size_t gcol_bitmask_allocation_size(int64_t num_bits) {
  if (num_bits <= 0) return 0;
  size_t const bytes = (size_t)gcol_bit_num_words(num_bits) * sizeof(uint32_t);
  return (bytes + GCOL_BITMASK_PADDING - 1) / GCOL_BITMASK_PADDING * GCOL_BITMASK_PADDING;
}

/* ---- set a range ---- */

static __global__ void set_range_kernel(uint32_t *mask, int64_t begin, int64_t end, bool valid) {
  int64_t const first_word = gcol_bit_word_index(begin);
  int64_t const num_words = gcol_bit_word_index(end - 1) - first_word + 1;
  GCOL_DETAIL_GRID_LOOP(w, num_words) {
    int64_t const word = first_word + w;
    int64_t const lo = word * 32 > begin ? word * 32 : begin;
    int64_t const hi = word * 32 + 32 < end ? word * 32 + 32 : end;
    uint32_t const bits = gcol_bits_low_mask((int)(hi - lo)) << (lo - word * 32);
    mask[word] = valid ? (mask[word] | bits) : (mask[word] & ~bits);
  }
}

static gcol_status launch_set_range(uint32_t *mask, int64_t begin, int64_t end, bool valid,
                                    gcol_stream stream) {
  gcol_status status = GCOL_OK;
  if (end > begin) {
    int64_t const words = gcol_bit_word_index(end - 1) - gcol_bit_word_index(begin) + 1;
    set_range_kernel<<<gcol_detail_grid_size(words, GCOL_DETAIL_BLOCK_SIZE),
                       GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(mask, begin, end, valid);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

extern "C" gcol_status gcol_bitmask_set_range(uint32_t *mask, int64_t begin, int64_t end,
                                              bool valid, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_bitmask_set_range");
  GCOL_DETAIL_CHECK(begin >= 0 && end >= begin, GCOL_ERROR_INVALID_ARGUMENT,
                    "bad range [%lld, %lld)", (long long)begin, (long long)end);
  GCOL_DETAIL_CHECK(mask != NULL || end == begin, GCOL_ERROR_INVALID_ARGUMENT, "mask is NULL");
  GCOL_DETAIL_TRY(launch_set_range(mask, begin, end, valid, stream));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_bitmask_create(int64_t num_bits, gcol_mask_state state,
                                           gcol_stream stream, gcol_mr *mr, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_bitmask_create");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(num_bits >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_bits is negative (%lld)",
                    (long long)num_bits);
  GCOL_DETAIL_CHECK(state >= GCOL_MASK_UNALLOCATED && state <= GCOL_MASK_ALL_NULL,
                    GCOL_ERROR_INVALID_ARGUMENT, "invalid mask state %d", (int)state);
  if (state != GCOL_MASK_UNALLOCATED) {
    size_t const bytes = gcol_bitmask_allocation_size(num_bits);
    GCOL_DETAIL_TRY(gcol_buffer_create(bytes, stream, mr, &mask));
    if (bytes > 0) {
      /* Zero everything (nulls and padding), then set the valid rows. */
      GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(mask->data, 0, bytes, (cudaStream_t)stream));
      if (state == GCOL_MASK_ALL_VALID) {
        GCOL_DETAIL_TRY(launch_set_range((uint32_t *)mask->data, 0, num_bits, true, stream));
      }
    }
  }
  *out = mask;
  mask = NULL;
done:
  gcol_buffer_free(mask);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- count ---- */

static __global__ void count_set_bits_smem_kernel(const uint32_t *mask, int64_t begin, int64_t end,
                                                  unsigned long long *count) {
  int64_t const num_words = (end - begin + 31) / 32;
  unsigned long long local = 0;
  GCOL_DETAIL_GRID_LOOP(w, num_words) {
    local += (unsigned long long)gcol_popcount32(gcol_bits_extract_word(mask, begin + w * 32, end));
  }
  gcol_block_add_count(count, local);
}

extern "C" gcol_status gcol_bitmask_count_set_bits(const uint32_t *mask, int64_t begin,
                                                   int64_t end, gcol_stream stream, int64_t *out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *count = NULL;
  unsigned long long host_count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_bitmask_count_set_bits");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CHECK(begin >= 0 && end >= begin, GCOL_ERROR_INVALID_ARGUMENT,
                    "bad range [%lld, %lld)", (long long)begin, (long long)end);
  if (mask == NULL || end == begin) {
    *out = end - begin;
    goto done;
  }
  {
    int64_t const words = (end - begin + 31) / 32;
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof host_count, stream, NULL, &count));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(count->data, 0, sizeof host_count, (cudaStream_t)stream));
    count_set_bits_smem_kernel<<<gcol_detail_grid_size(words, GCOL_DETAIL_BLOCK_SIZE),
                                 GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        mask, begin, end, (unsigned long long *)count->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&host_count, count->data, sizeof host_count,
                                         cudaMemcpyDeviceToHost, (cudaStream_t)stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
    *out = (int64_t)host_count;
  }
done:
  gcol_buffer_free(count);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status bitmask_count_unset_bits(const uint32_t *mask, int64_t begin, int64_t end,
                                            gcol_stream stream, int64_t *out) {
  gcol_status status = GCOL_OK;
  int64_t set = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_TRY(gcol_bitmask_count_set_bits(mask, begin, end, stream, &set));
  *out = (end - begin) - set;
done:
  return status;
}

extern "C" gcol_status gcol_bitmask_count_unset_bits(const uint32_t *mask, int64_t begin,
                                                     int64_t end, gcol_stream stream,
                                                     int64_t *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_bitmask_count_unset_bits");
  gcol_status const status = bitmask_count_unset_bits(mask, begin, end, stream, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- copy and combine ---- */

typedef struct mask_source {
  const uint32_t *mask;
  int64_t offset;
} mask_source;

/* out word w = op over sources of their 32 bits starting at offset + 32w; words past the
 * last row (padding) are written as zero. */
static __global__ void combine_kernel(const mask_source *sources, int32_t num_sources,
                                      int64_t num_bits, bool is_and, uint32_t *out,
                                      int64_t out_words) {
  int64_t const row_words = gcol_bit_num_words(num_bits);
  GCOL_DETAIL_GRID_LOOP(w, out_words) {
    uint32_t acc = 0;
    if (w < row_words) {
      acc = is_and ? 0xFFFFFFFFu : 0u;
      for (int32_t s = 0; s < num_sources; ++s) {
        int64_t const first = sources[s].offset + w * 32;
        uint32_t const bits =
            gcol_bits_extract_word(sources[s].mask, first, sources[s].offset + num_bits);
        acc = is_and ? (acc & bits) : (acc | bits);
      }
      int64_t const valid_bits = num_bits - w * 32;
      if (valid_bits < 32) acc &= gcol_bits_low_mask((int)valid_bits);
    }
    out[w] = acc;
  }
}

/* Combines non-NULL sources (host array) into a new mask. */
static gcol_status combine(const mask_source *host_sources, int32_t num_sources, int64_t num_bits,
                           bool is_and, gcol_stream stream, gcol_mr *mr, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  gcol_buffer *sources = NULL;
  size_t const bytes = gcol_bitmask_allocation_size(num_bits);
  GCOL_DETAIL_TRY(gcol_buffer_create(bytes, stream, mr, &mask));
  if (bytes > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create_copy(host_sources, sizeof(mask_source) * (size_t)num_sources,
                                            stream, NULL, &sources));
    int64_t const words = (int64_t)(bytes / sizeof(uint32_t));
    combine_kernel<<<gcol_detail_grid_size(words, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                     0, (cudaStream_t)stream>>>((const mask_source *)sources->data, num_sources,
                                                num_bits, is_and, (uint32_t *)mask->data, words);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = mask;
  mask = NULL;
done:
  gcol_buffer_free(sources);
  gcol_buffer_free(mask);
  return status;
}

extern "C" gcol_status gcol_bitmask_copy(const uint32_t *mask, int64_t begin, int64_t end,
                                         gcol_stream stream, gcol_mr *mr, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  mask_source source;
  GCOL_DETAIL_NVTX_PUSH("gcol_bitmask_copy");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(mask);
  GCOL_DETAIL_CHECK(begin >= 0 && end >= begin, GCOL_ERROR_INVALID_ARGUMENT,
                    "bad range [%lld, %lld)", (long long)begin, (long long)end);
  source.mask = mask;
  source.offset = begin;
  GCOL_DETAIL_TRY(combine(&source, 1, end - begin, true, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* AND or OR of masks: NULL masks are all-valid (skipped by AND, decisive for OR). */
static gcol_status bitmask_combine(const uint32_t *const *masks, const int64_t *offsets,
                                   int32_t num_masks, int64_t num_bits, bool is_and,
                                   gcol_stream stream, gcol_mr *mr, gcol_buffer **out,
                                   int64_t *out_null_count) {
  gcol_status status = GCOL_OK;
  mask_source *sources = NULL;
  int32_t used = 0;
  bool any_null_mask = false;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  if (out_null_count != NULL) *out_null_count = 0;
  GCOL_DETAIL_CHECK(num_masks >= 0 && num_bits >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "negative num_masks (%d) or num_bits (%lld)", (int)num_masks,
                    (long long)num_bits);
  GCOL_DETAIL_CHECK(num_masks == 0 || (masks != NULL && offsets != NULL),
                    GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", masks == NULL ? "masks" : "offsets");
  sources = (mask_source *)malloc(sizeof(mask_source) * (size_t)(num_masks > 0 ? num_masks : 1));
  GCOL_DETAIL_CHECK(sources != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  for (int32_t i = 0; i < num_masks; ++i) {
    GCOL_DETAIL_CHECK(offsets[i] >= 0, GCOL_ERROR_INVALID_ARGUMENT, "offsets[%d] is negative",
                      (int)i);
    if (masks[i] == NULL) {
      any_null_mask = true;
      continue;
    }
    sources[used].mask = masks[i];
    sources[used].offset = offsets[i];
    ++used;
  }
  if (used == 0 || (!is_and && any_null_mask)) goto done; /* every row valid: no mask */
  GCOL_DETAIL_TRY(combine(sources, used, num_bits, is_and, stream, mr, out));
  if (out_null_count != NULL) {
    GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits((const uint32_t *)(*out)->data, 0, num_bits,
                                                  stream, out_null_count));
  }
done:
  if (status != GCOL_OK && out != NULL) {
    gcol_buffer_free(*out);
    *out = NULL;
  }
  free(sources);
  return status;
}

extern "C" gcol_status gcol_bitmask_and(const uint32_t *const *masks, const int64_t *offsets,
                                        int32_t num_masks, int64_t num_bits, gcol_stream stream,
                                        gcol_mr *mr, gcol_buffer **out, int64_t *out_null_count) {
  GCOL_DETAIL_NVTX_PUSH("gcol_bitmask_and");
  gcol_status const status = bitmask_combine(masks, offsets, num_masks, num_bits, true, stream,
                                             mr, out, out_null_count);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_bitmask_or(const uint32_t *const *masks, const int64_t *offsets,
                                       int32_t num_masks, int64_t num_bits, gcol_stream stream,
                                       gcol_mr *mr, gcol_buffer **out, int64_t *out_null_count) {
  GCOL_DETAIL_NVTX_PUSH("gcol_bitmask_or");
  gcol_status const status = bitmask_combine(masks, offsets, num_masks, num_bits, false, stream,
                                             mr, out, out_null_count);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
