/*
 * get_element: one row of a fixed-width or STRING column copied into a host scalar. A few
 * small device-to-host copies and one synchronization; no kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "copying/copying_internal.h"
#include "gcol/copying.h"

/* Copies `bytes` from device `src` to host `dst` and waits. */
static gcol_status read_device(void *dst, const void *src, size_t bytes, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
done:
  return status;
}

/* Validity of row `row` (offset applied) of a view. */
static gcol_status row_is_valid(gcol_column_view column, int64_t row, gcol_stream stream,
                                bool *valid) {
  uint32_t word = 0;
  *valid = true;
  if (!gcol_column_view_may_have_nulls(column)) return GCOL_OK;
  gcol_status const st =
      read_device(&word, column.null_mask + gcol_bit_word_index(row), sizeof word, stream);
  if (st == GCOL_OK) *valid = ((word >> gcol_bit_in_word(row)) & 1u) != 0;
  return st;
}

static gcol_status get_string(gcol_column_view column, int64_t index, gcol_stream stream,
                              gcol_scalar **out) {
  gcol_status status = GCOL_OK;
  gcol_offsetalator offsets;
  unsigned char raw[16] = {0};
  char *bytes = NULL;
  int64_t begin = 0, end = 0;
  GCOL_DETAIL_TRY(gcol_offsetalator_make(column, &offsets));
  GCOL_DETAIL_TRY(read_device(raw, (const char *)offsets.data + index * offsets.width,
                              2 * (size_t)offsets.width, stream));
  {
    gcol_offsetalator host = offsets;
    host.data = raw;
    begin = gcol_offsetalator_get(host, 0);
    end = gcol_offsetalator_get(host, 1);
  }
  GCOL_DETAIL_CHECK(end >= begin, GCOL_ERROR_INVALID_ARGUMENT,
                    "column row %lld has descending offsets (%lld > %lld)", (long long)index,
                    (long long)begin, (long long)end);
  bytes = (char *)malloc(end > begin ? (size_t)(end - begin) : 1);
  GCOL_DETAIL_CHECK(bytes != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %lld bytes",
                    (long long)(end - begin));
  if (end > begin) {
    GCOL_DETAIL_TRY(
        read_device(bytes, (const char *)column.data + begin, (size_t)(end - begin), stream));
  }
  GCOL_DETAIL_TRY(gcol_scalar_create_string(bytes, end - begin, out));
done:
  free(bytes);
  return status;
}

extern "C" gcol_status gcol_get_element(gcol_column_view column, int64_t index, gcol_scalar **out,
                                        gcol_stream stream) {
  gcol_status status = GCOL_OK;
  bool valid = true;
  GCOL_DETAIL_NVTX_PUSH("gcol_get_element");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_copying_check_view(column, "column"));
  GCOL_DETAIL_CHECK(gcol_type_is_fixed_width(column.type.id) || column.type.id == GCOL_STRING,
                    GCOL_ERROR_UNSUPPORTED,
                    "get_element returns scalars of fixed-width and STRING columns, not %s",
                    gcol_type_name(column.type.id));
  GCOL_DETAIL_CHECK(index >= 0 && index < column.size, GCOL_ERROR_INVALID_ARGUMENT,
                    "index %lld is not within [0, %lld)", (long long)index, (long long)column.size);
  GCOL_DETAIL_TRY(row_is_valid(column, column.offset + index, stream, &valid));
  if (!valid) {
    GCOL_DETAIL_TRY(gcol_scalar_create_null(column.type, out));
  } else if (column.type.id == GCOL_STRING) {
    GCOL_DETAIL_TRY(get_string(column, index, stream, out));
  } else {
    size_t const width = gcol_type_size(column.type.id);
    unsigned char value[16] = {0};
    GCOL_DETAIL_TRY(read_device(
        value, (const char *)column.data + (size_t)(column.offset + index) * width, width, stream));
    GCOL_DETAIL_TRY(gcol_scalar_create_from_storage(column.type, value, out));
  }
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
