/* Shared pieces of the strings operations (strings_common.h). */
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "detail/validity.h"
#include "gcol/bitmask.h"
#include "gcol/indexalator.h"
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

extern "C" gcol_status gcol_detail_strings_list_to_device(const char *const *strings,
                                                          const int64_t *sizes, int32_t count,
                                                          gcol_stream stream, gcol_buffer **buf,
                                                          gcol_strings_view *out) {
  gcol_status status = GCOL_OK;
  int64_t const head = (int64_t)(count + 1) * (int64_t)sizeof(int64_t);
  int64_t bytes = 0, at = 0;
  for (int32_t j = 0; j < count; ++j) bytes += sizes[j];
  char *host = (char *)malloc((size_t)(head + bytes));
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "%lld bytes of host memory",
                    (long long)(head + bytes));
  for (int32_t j = 0; j <= count; ++j) {
    memcpy(host + (int64_t)j * (int64_t)sizeof(int64_t), &at, sizeof at);
    if (j == count) break;
    if (sizes[j] > 0) memcpy(host + head + at, strings[j], (size_t)sizes[j]);
    at += sizes[j];
  }
  GCOL_DETAIL_TRY(gcol_detail_strings_to_device(host, head + bytes, stream, buf));
  memset(out, 0, sizeof *out);
  out->offsets.data = (*buf)->data;
  out->offsets.width = 8;
  out->chars = (const char *)(*buf)->data + head;
  out->size = count;
done:
  free(host);
  return status;
}

/* Word w of the mask: bit b is valid[32 w + b] (rows past n stay 0, the padding too). */
static __global__ void gcol_detail_flags_mask_kernel(const uint8_t *valid, int64_t n,
                                                     int64_t words, uint32_t *mask) {
  GCOL_DETAIL_GRID_LOOP(w, words) {
    uint32_t word = 0;
    for (int64_t b = 0; b < 32 && w * 32 + b < n; ++b) {
      if (valid[w * 32 + b] != 0) word |= 1u << b;
    }
    mask[w] = word;
  }
}

extern "C" gcol_status gcol_detail_strings_flags_mask(const uint8_t *valid, int64_t n,
                                                      int64_t null_count, gcol_stream stream,
                                                      gcol_mr *mr, gcol_buffer **mask) {
  gcol_status status = GCOL_OK;
  gcol_buffer *m = NULL;
  *mask = NULL;
  if (null_count == 0 || n == 0) goto done;
  GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_UNINITIALIZED, stream, mr, &m));
  {
    int64_t const words = (n + 31) / 32;
    gcol_detail_flags_mask_kernel<<<gcol_detail_grid_size(words, GCOL_DETAIL_BLOCK_SIZE),
                                    GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        valid, n, words, (uint32_t *)m->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *mask = m;
  m = NULL;
done:
  gcol_buffer_free(m);
  return status;
}

extern "C" gcol_status gcol_detail_strings_offsets_limited(int64_t *sizes, int64_t n, int64_t *tail,
                                                           int32_t words, gcol_stream stream,
                                                           gcol_mr *mr, gcol_column **offsets) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(words >= 2, GCOL_ERROR_INTERNAL, "no flag word among %d", (int)words);
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan(sizes, sizes, n, tail, words, stream));
  GCOL_DETAIL_CHECK(tail[1] == 0, GCOL_ERROR_OVERFLOW,
                    "a row of the output would pass %lld bytes (%lld rows): too large to address",
                    (long long)(INT64_MAX / (n + 1)), (long long)n);
  GCOL_DETAIL_TRY(gcol_detail_offsets_column(sizes, n + 1, gcol_detail_offsets_type(tail[0]),
                                             stream, mr, offsets));
done:
  return status;
}
