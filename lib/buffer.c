/* Owning untyped buffers. */
#include <cuda_runtime_api.h>
#include <stdlib.h>

#include "gcol/buffer.h"
#include "internal/error.h"

gcol_status gcol_buffer_create(size_t size, gcol_stream stream, gcol_mr *mr, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *buffer = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  buffer = (gcol_buffer *)calloc(1, sizeof *buffer);
  GCOL_DETAIL_CHECK(buffer != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a buffer struct");
  buffer->mr = mr != NULL ? mr : gcol_mr_get_default();
  buffer->stream = stream;
  buffer->size = size;
  GCOL_DETAIL_TRY(gcol_mr_allocate(buffer->mr, &buffer->data, size, stream));
  *out = buffer;
  buffer = NULL;
done:
  free(buffer);
  return status;
}

gcol_status gcol_buffer_create_copy(const void *src, size_t size, gcol_stream stream,
                                    gcol_mr *mr, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *buffer = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(src != NULL || size == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "src is NULL but size is %zu", size);
  GCOL_DETAIL_TRY(gcol_buffer_create(size, stream, mr, &buffer));
  if (size > 0) {
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(buffer->data, src, size, cudaMemcpyDefault,
                                         (cudaStream_t)stream));
  }
  *out = buffer;
  buffer = NULL;
done:
  gcol_buffer_free(buffer);
  return status;
}

void gcol_buffer_free(gcol_buffer *buffer) {
  if (buffer == NULL) return;
  gcol_mr_deallocate(buffer->mr, buffer->data, buffer->size, buffer->stream);
  free(buffer);
}

void *gcol_buffer_release(gcol_buffer *buffer) {
  if (buffer == NULL) return NULL;
  void *data = buffer->data;
  free(buffer);
  return data;
}
