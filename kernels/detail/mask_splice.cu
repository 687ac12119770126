/* Null masks spliced from pieces at any bit offsets (mask_splice.h). */
#include "common.cuh"
#include "detail/mask_splice.h"
#include "gcol/bitmask.h"
#include "gcol/device/block.cuh"

static __global__ void concat_mask_smem_kernel(const gcol_detail_mask_segment *__restrict__ segs,
                                               int64_t num_segments, int64_t num_bits,
                                               uint32_t *__restrict__ dst,
                                               unsigned long long *null_count) {
  unsigned long long nulls = 0;
  GCOL_DETAIL_GRID_LOOP(w, gcol_bit_num_words(num_bits)) {
    int64_t const first = gcol_detail_mask_segments_find(segs, num_segments, w * 32);
    uint32_t const word = gcol_detail_mask_segments_word(segs, num_segments, first, w, num_bits);
    dst[w] = word;
    int64_t const rows = num_bits - w * 32 < 32 ? num_bits - w * 32 : 32;
    nulls += (unsigned long long)(rows - __popc(word));
  }
  /* a thread's atomic each took ~4.7 ms per 2^27-row concatenation on an H200 (session 20) */
  gcol_block_add_count(null_count, nulls);
}

/* mask_splice.h */
static gcol_status concat_masks(const gcol_column_view *columns, int32_t num_columns,
                                int64_t total_rows, bool counts_exact, gcol_stream stream,
                                gcol_mr *mr, gcol_buffer **out_mask, int64_t *out_null_count) {
  gcol_status status = GCOL_OK;
  gcol_detail_mask_segment *segs = NULL;
  gcol_buffer *device_segs = NULL, *mask = NULL, *counter = NULL;
  int64_t nulls = 0, num_segs = 0, row = 0;
  unsigned long long counted = 0;
  *out_mask = NULL;
  *out_null_count = 0;
  for (int32_t j = 0; j < num_columns; ++j) {
    int64_t n = 0;
    GCOL_DETAIL_TRY(gcol_column_view_null_count(columns[j], stream, &n));
    nulls += n;
  }
  if (nulls == 0) goto done;
  segs = (gcol_detail_mask_segment *)calloc((size_t)num_columns, sizeof *segs);
  GCOL_DETAIL_CHECK(segs != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d segments",
                    (int)num_columns);
  for (int32_t j = 0; j < num_columns; ++j) {
    if (columns[j].size == 0) continue;
    segs[num_segs].dst_begin = row;
    segs[num_segs].length = columns[j].size;
    segs[num_segs].mask = gcol_column_view_may_have_nulls(columns[j]) ? columns[j].null_mask : NULL;
    segs[num_segs].src_begin = columns[j].offset;
    row += columns[j].size;
    ++num_segs;
  }
  GCOL_DETAIL_TRY(
      gcol_buffer_create_copy(segs, (size_t)num_segs * sizeof *segs, stream, NULL, &device_segs));
  GCOL_DETAIL_TRY(gcol_bitmask_create(total_rows, GCOL_MASK_UNINITIALIZED, stream, mr, &mask));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof counted, stream, NULL, &counter));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counter->data, 0, sizeof counted, (cudaStream_t)stream));
  concat_mask_smem_kernel<<<gcol_detail_grid_size(gcol_bit_num_words(total_rows),
                                                  GCOL_DETAIL_BLOCK_SIZE),
                            GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      (const gcol_detail_mask_segment *)device_segs->data, num_segs, total_rows,
      (uint32_t *)mask->data, (unsigned long long *)counter->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  if (counts_exact) {
    counted = (unsigned long long)nulls;
  } else { /* counted from the mask written, right even if an input's count was stale */
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&counted, counter->data, sizeof counted,
                                         cudaMemcpyDeviceToHost, (cudaStream_t)stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  }
  *out_mask = mask;
  *out_null_count = (int64_t)counted;
  mask = NULL;
done:
  free(segs);
  gcol_buffer_free(device_segs);
  gcol_buffer_free(mask);
  gcol_buffer_free(counter);
  return status;
}

gcol_status gcol_detail_concat_masks(const gcol_column_view *columns, int32_t num_columns,
                                     int64_t total_rows, gcol_stream stream, gcol_mr *mr,
                                     gcol_buffer **out_mask, int64_t *out_null_count) {
  return concat_masks(columns, num_columns, total_rows, false, stream, mr, out_mask,
                      out_null_count);
}

gcol_status gcol_detail_concat_masks_exact(const gcol_column_view *columns, int32_t num_columns,
                                           int64_t total_rows, gcol_stream stream, gcol_mr *mr,
                                           gcol_buffer **out_mask, int64_t *out_null_count) {
  return concat_masks(columns, num_columns, total_rows, true, stream, mr, out_mask, out_null_count);
}
