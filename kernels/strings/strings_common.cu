/* Shared pieces of the strings operations (strings_common.h). */
#include "common.cuh"
#include "gcol/bitmask.h"
#include "gcol/indexalator.h"
#include "detail/validity.h"
#include "strings/strings_common.h"

extern "C" gcol_status gcol_detail_strings_check(gcol_column_view view, const char *what) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_column_view_validate(view, what));
  GCOL_DETAIL_CHECK(view.type.id == GCOL_STRING, GCOL_ERROR_TYPE_MISMATCH,
                    "%s is %s, not STRING", what, gcol_type_name(view.type.id));
done:
  return status;
}

extern "C" gcol_status gcol_detail_strings_scalar(const gcol_scalar *scalar, const char *what,
                                                  const char **data, int64_t *size) {
  gcol_status status = GCOL_OK;
  bool valid = false;
  GCOL_DETAIL_CHECK(scalar != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
  GCOL_DETAIL_CHECK(scalar->type.id == GCOL_STRING, GCOL_ERROR_TYPE_MISMATCH,
                    "%s is %s, not STRING", what, gcol_type_name(scalar->type.id));
  GCOL_DETAIL_TRY(gcol_scalar_read_string(scalar, data, size, &valid));
  GCOL_DETAIL_CHECK(valid, GCOL_ERROR_INVALID_ARGUMENT, "%s is a null scalar", what);
done:
  return status;
}

extern "C" gcol_status gcol_detail_strings_output_mask(gcol_column_view input,
                                                       const gcol_column_view *other,
                                                       gcol_stream stream, gcol_mr *mr,
                                                       gcol_buffer **mask, int64_t *null_count) {
  gcol_status status = GCOL_OK;
  *mask = NULL;
  *null_count = 0;
  if (other == NULL) {
    GCOL_DETAIL_TRY(gcol_detail_copy_validity(input, stream, mr, mask, null_count));
  } else if (input.size > 0) {
    const uint32_t *masks[2] = {input.null_mask, other->null_mask};
    int64_t const offsets[2] = {input.offset, other->offset};
    GCOL_DETAIL_TRY(gcol_bitmask_and(masks, offsets, 2, input.size, stream, mr, mask, null_count));
  }
done:
  return status;
}

extern "C" gcol_status gcol_detail_strings_fixed_output(gcol_column_view input,
                                                        const gcol_column_view *targets,
                                                        gcol_type_id type, gcol_stream stream,
                                                        gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  GCOL_DETAIL_TRY(
      gcol_detail_strings_output_mask(input, targets, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(type), input.size, GCOL_MASK_UNALLOCATED,
                                     stream, mr, &col));
  if (mask != NULL) {
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
    mask = NULL;
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(col);
  return status;
}

static __global__ void gcol_detail_long_rows_kernel(gcol_strings_view s, unsigned int *flag) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    if (gcol_strings_view_size_bytes(s, i) > (int64_t)INT32_MAX) *flag = 1u;
  }
}

extern "C" gcol_status gcol_detail_strings_flag_create(gcol_stream stream, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *flag = NULL;
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(unsigned int), stream, NULL, &flag));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemsetAsync(flag->data, 0, sizeof(unsigned int), (cudaStream_t)stream));
  *out = flag;
  flag = NULL;
done:
  gcol_buffer_free(flag);
  return status;
}

extern "C" gcol_status gcol_detail_strings_flag_read(const gcol_buffer *flag, gcol_stream stream,
                                                     bool *set) {
  gcol_status status = GCOL_OK;
  unsigned int host = 0;
  cudaStream_t const st = (cudaStream_t)stream;
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&host, flag->data, sizeof host, cudaMemcpyDeviceToHost, st));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(st));
  *set = host != 0u;
done:
  return status;
}

extern "C" gcol_status gcol_detail_strings_check_int32_rows(gcol_column_view view,
                                                            gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *flag = NULL;
  gcol_strings_view s;
  bool too_long = false;
  if (view.size == 0 || view.children[GCOL_OFFSETS_CHILD].type.id != GCOL_INT64) goto done;
  GCOL_DETAIL_TRY(gcol_strings_view_make(view, &s));
  GCOL_DETAIL_TRY(gcol_detail_strings_flag_create(stream, &flag));
  gcol_detail_long_rows_kernel<<<gcol_detail_grid_size(view.size, GCOL_DETAIL_BLOCK_SIZE),
                                 GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      s, (unsigned int *)flag->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_strings_flag_read(flag, stream, &too_long));
  GCOL_DETAIL_CHECK(!too_long, GCOL_ERROR_OVERFLOW,
                    "input has a row longer than INT32_MAX bytes: its INT32 result would wrap");
done:
  gcol_buffer_free(flag);
  return status;
}

extern "C" gcol_status gcol_detail_strings_to_device(const void *data, int64_t size,
                                                     gcol_stream stream, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *buf = NULL;
  GCOL_DETAIL_TRY(gcol_buffer_create(size > 0 ? (size_t)size : 1u, stream, NULL, &buf));
  if (size > 0) {
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(buf->data, data, (size_t)size, cudaMemcpyHostToDevice,
                                         (cudaStream_t)stream));
  }
  *out = buf;
  buf = NULL;
done:
  gcol_buffer_free(buf);
  return status;
}
