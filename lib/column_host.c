/* Creating columns (uninitialized, from host arrays, like others) and copying them back
 * to the host. Host validity is one byte per row; masks are packed on the host. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/column.h"
#include "gcol/indexalator.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static gcol_status require_fixed_width(gcol_data_type type, const char *what) {
  GCOL_DETAIL_REQUIRE(gcol_type_id_is_valid(type.id), GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: invalid type id %d", what, (int)type.id);
  GCOL_DETAIL_REQUIRE(gcol_type_is_fixed_width(type.id), GCOL_ERROR_TYPE_MISMATCH,
                      "%s: expected a fixed-width type, not %s", what, gcol_type_name(type.id));
  return GCOL_OK;
}

gcol_status gcol_column_create(gcol_data_type type, int64_t size, gcol_mask_state mask_state,
                               gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *data = NULL;
  gcol_buffer *mask = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_create");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(require_fixed_width(type, "type"));
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  size_t const width = gcol_type_size(type.id);
  GCOL_DETAIL_CHECK((uint64_t)size <= SIZE_MAX / width, GCOL_ERROR_OVERFLOW,
                    "%lld rows of %zu bytes overflow", (long long)size, width);
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)size * width, stream, mr, &data));
  GCOL_DETAIL_TRY(gcol_bitmask_create(size, mask_state, stream, mr, &mask));
  if (mask_state == GCOL_MASK_ALL_NULL && size > 0) {
    /* Nothing will write under an all-null column's nulls: zero the values so that every
     * byte gcol hands out is defined (docs/design.md). */
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(data->data, 0, (size_t)size * width, (cudaStream_t)stream));
  }
  GCOL_DETAIL_TRY(gcol_column_make(type, size, data, mask,
                                   mask_state == GCOL_MASK_ALL_NULL ? size : 0, NULL, 0, out));
  data = NULL;
  mask = NULL;
done:
  gcol_buffer_free(data);
  gcol_buffer_free(mask);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Packs one byte per row into a host mask of allocation size; counts nulls. */
static gcol_status pack_validity(const uint8_t *valid, int64_t size, uint32_t **out_words,
                                 size_t *out_bytes, int64_t *out_nulls) {
  size_t const bytes = gcol_bitmask_allocation_size(size);
  uint32_t *words = (uint32_t *)calloc(bytes > 0 ? bytes : 1, 1);
  GCOL_DETAIL_REQUIRE(words != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation of %zu bytes failed",
                      bytes);
  int64_t nulls = 0;
  for (int64_t i = 0; i < size; ++i) {
    if (valid[i]) {
      gcol_bit_set(words, i);
    } else {
      ++nulls;
    }
  }
  *out_words = words;
  *out_bytes = bytes;
  *out_nulls = nulls;
  return GCOL_OK;
}

/* A device mask copied from host validity bytes (NULL valid: no mask). Synchronizes. */
static gcol_status mask_from_host(const uint8_t *valid, int64_t size, gcol_stream stream,
                                  gcol_mr *mr, gcol_buffer **out, int64_t *out_nulls) {
  gcol_status status = GCOL_OK;
  uint32_t *words = NULL;
  size_t bytes = 0;
  *out = NULL;
  *out_nulls = 0;
  if (valid == NULL) return GCOL_OK;
  GCOL_DETAIL_TRY(pack_validity(valid, size, &words, &bytes, out_nulls));
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(words, bytes, stream, mr, out));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*out);
    *out = NULL;
  }
  free(words);
  return status;
}

gcol_status gcol_column_create_from_host(gcol_data_type type, int64_t size, const void *data,
                                         const uint8_t *valid, gcol_stream stream, gcol_mr *mr,
                                         gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *values = NULL;
  gcol_buffer *mask = NULL;
  int64_t nulls = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_create_from_host");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(require_fixed_width(type, "type"));
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  GCOL_DETAIL_CHECK(data != NULL || size == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "data is NULL for %lld rows", (long long)size);
  size_t const width = gcol_type_size(type.id);
  GCOL_DETAIL_CHECK((uint64_t)size <= SIZE_MAX / width, GCOL_ERROR_OVERFLOW,
                    "%lld rows of %zu bytes overflow", (long long)size, width);
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(data, (size_t)size * width, stream, mr, &values));
  GCOL_DETAIL_TRY(mask_from_host(valid, size, stream, mr, &mask, &nulls));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  GCOL_DETAIL_TRY(gcol_column_make(type, size, values, mask, nulls, NULL, 0, out));
  values = NULL;
  mask = NULL;
done:
  gcol_buffer_free(values);
  gcol_buffer_free(mask);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Host validity bytes of rows [offset, offset + size) of a device mask. Synchronizes. */
static gcol_status validity_to_host(const uint32_t *mask, int64_t offset, int64_t size,
                                    gcol_stream stream, uint8_t *valid) {
  gcol_status status = GCOL_OK;
  uint32_t *words = NULL;
  if (mask == NULL || size == 0) {
    if (size > 0) memset(valid, 1, (size_t)size);
    return GCOL_OK;
  }
  int64_t const first = gcol_bit_word_index(offset);
  int64_t const count = gcol_bit_word_index(offset + size - 1) - first + 1;
  words = (uint32_t *)malloc((size_t)count * sizeof(uint32_t));
  GCOL_DETAIL_CHECK(words != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(words, mask + first, (size_t)count * sizeof(uint32_t),
                                       cudaMemcpyDeviceToHost, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  for (int64_t i = 0; i < size; ++i) {
    valid[i] = gcol_bit_is_set(words, offset - first * 32 + i) ? 1 : 0;
  }
done:
  free(words);
  return status;
}

gcol_status gcol_column_copy_to_host(gcol_column_view view, void *data, uint8_t *valid,
                                     gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_copy_to_host");
  GCOL_DETAIL_TRY(gcol_column_view_validate(view, "view"));
  GCOL_DETAIL_TRY(require_fixed_width(view.type, "view"));
  GCOL_DETAIL_CHECK(data != NULL || view.size == 0, GCOL_ERROR_INVALID_ARGUMENT, "data is NULL");
  if (view.size > 0) {
    size_t const width = gcol_type_size(view.type.id);
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(data, (const char *)view.data + view.offset * (int64_t)width,
                                         (size_t)view.size * width, cudaMemcpyDefault,
                                         (cudaStream_t)stream));
  }
  if (valid != NULL) {
    GCOL_DETAIL_TRY(validity_to_host(view.null_mask, view.offset, view.size, stream, valid));
  }
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- strings ---- */

/* Host offsets (int32 or int64 by the threshold) and packed chars for host strings. */
static gcol_status pack_strings(int64_t size, const char *const *strings, const int64_t *lengths,
                                void **out_offsets, gcol_type_id *out_type, char **out_chars,
                                int64_t *out_total) {
  int64_t total = 0;
  for (int64_t i = 0; i < size; ++i) {
    if (strings[i] == NULL) continue;
    int64_t const len = lengths != NULL ? lengths[i] : (int64_t)strlen(strings[i]);
    GCOL_DETAIL_REQUIRE(len >= 0, GCOL_ERROR_INVALID_ARGUMENT, "lengths[%lld] is negative",
                        (long long)i);
    GCOL_DETAIL_REQUIRE(total <= INT64_MAX - len, GCOL_ERROR_OVERFLOW, "total bytes overflow");
    total += len;
  }
  gcol_type_id const type = gcol_offsets_type_for_threshold(total, gcol_large_offsets_threshold());
  size_t const width = gcol_type_size(type);
  void *offsets = malloc((size_t)(size + 1) * width);
  char *chars = (char *)malloc(total > 0 ? (size_t)total : 1);
  if (offsets == NULL || chars == NULL) {
    free(offsets);
    free(chars);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "host allocation failed");
  }
  gcol_offsets_writer w;
  w.data = offsets;
  w.width = (int32_t)width;
  int64_t pos = 0;
  for (int64_t i = 0; i < size; ++i) {
    gcol_offsets_writer_set(w, i, pos);
    if (strings[i] == NULL) continue;
    int64_t const len = lengths != NULL ? lengths[i] : (int64_t)strlen(strings[i]);
    memcpy(chars + pos, strings[i], (size_t)len);
    pos += len;
  }
  gcol_offsets_writer_set(w, size, pos);
  *out_offsets = offsets;
  *out_type = type;
  *out_chars = chars;
  *out_total = total;
  return GCOL_OK;
}

gcol_status gcol_column_create_strings_from_host(int64_t size, const char *const *strings,
                                                 const int64_t *lengths, gcol_stream stream,
                                                 gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  void *host_offsets = NULL;
  char *host_chars = NULL;
  uint8_t *valid = NULL;
  gcol_buffer *chars = NULL;
  gcol_buffer *mask = NULL;
  gcol_column *offsets = NULL;
  gcol_type_id offsets_type = GCOL_INT32;
  int64_t total = 0;
  int64_t nulls = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_create_strings_from_host");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  GCOL_DETAIL_CHECK(strings != NULL || size == 0, GCOL_ERROR_INVALID_ARGUMENT, "strings is NULL");
  GCOL_DETAIL_TRY(pack_strings(size, strings, lengths, &host_offsets, &offsets_type, &host_chars,
                               &total));
  valid = (uint8_t *)malloc(size > 0 ? (size_t)size : 1);
  GCOL_DETAIL_CHECK(valid != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  bool any_null = false;
  for (int64_t i = 0; i < size; ++i) {
    valid[i] = strings[i] != NULL;
    any_null = any_null || strings[i] == NULL;
  }
  GCOL_DETAIL_TRY(gcol_column_create_from_host(gcol_data_type_make(offsets_type), size + 1,
                                               host_offsets, NULL, stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(host_chars, (size_t)total, stream, mr, &chars));
  GCOL_DETAIL_TRY(mask_from_host(any_null ? valid : NULL, size, stream, mr, &mask, &nulls));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  GCOL_DETAIL_TRY(gcol_column_make_strings(size, offsets, chars, mask, nulls, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  free(host_offsets);
  free(host_chars);
  free(valid);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_create_strings_from_host_offsets(int64_t size, const char *chars,
                                                           const int64_t *offsets,
                                                           const uint8_t *valid, gcol_stream stream,
                                                           gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  const char **pointers = NULL;
  int64_t *lengths = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  GCOL_DETAIL_CHECK_NOT_NULL(offsets);
  GCOL_DETAIL_CHECK(offsets[0] >= 0, GCOL_ERROR_INVALID_ARGUMENT, "offsets[0] is negative");
  for (int64_t i = 0; i < size; ++i) {
    GCOL_DETAIL_CHECK(offsets[i + 1] >= offsets[i], GCOL_ERROR_INVALID_ARGUMENT,
                      "offsets decrease at row %lld (%lld then %lld)", (long long)i,
                      (long long)offsets[i], (long long)offsets[i + 1]);
  }
  GCOL_DETAIL_CHECK(chars != NULL || offsets[size] == offsets[0], GCOL_ERROR_INVALID_ARGUMENT,
                    "chars is NULL but the offsets span %lld bytes",
                    (long long)(offsets[size] - offsets[0]));
  /* The rows as pointers and lengths, NULL for null rows: the C-strings builder does the rest. */
  pointers = (const char **)malloc(sizeof *pointers * (size_t)(size > 0 ? size : 1));
  lengths = (int64_t *)malloc(sizeof *lengths * (size_t)(size > 0 ? size : 1));
  GCOL_DETAIL_CHECK(pointers != NULL && lengths != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "host allocation failed");
  for (int64_t i = 0; i < size; ++i) {
    bool const is_valid = valid == NULL || valid[i] != 0;
    pointers[i] = is_valid ? (chars != NULL ? chars + offsets[i] : "") : NULL;
    lengths[i] = offsets[i + 1] - offsets[i];
  }
  GCOL_DETAIL_TRY(gcol_column_create_strings_from_host(size, pointers, lengths, stream, mr, out));
done:
  free(pointers);
  free(lengths);
  return status;
}

gcol_status gcol_column_create_strings_from_host_offsets(int64_t size, const char *chars,
                                                         const int64_t *offsets,
                                                         const uint8_t *valid, gcol_stream stream,
                                                         gcol_mr *mr, gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_create_strings_from_host_offsets");
  gcol_status const status =
      column_create_strings_from_host_offsets(size, chars, offsets, valid, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_host_strings_free(gcol_host_strings *strings) {
  if (strings == NULL) return;
  free(strings->offsets);
  free(strings->chars);
  free(strings->valid);
  free(strings);
}

/* Host int64 copy of offsets[0..size] of a strings/list view (its offset applied). */
static gcol_status offsets_to_host(gcol_column_view view, gcol_stream stream, int64_t *out) {
  gcol_status status = GCOL_OK;
  gcol_offsetalator it;
  void *raw = NULL;
  GCOL_DETAIL_TRY(gcol_offsetalator_make(view, &it));
  raw = malloc((size_t)(view.size + 1) * (size_t)it.width);
  GCOL_DETAIL_CHECK(raw != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(raw, it.data, (size_t)(view.size + 1) * (size_t)it.width,
                                       cudaMemcpyDefault, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  it.data = raw;
  for (int64_t i = 0; i <= view.size; ++i) out[i] = gcol_offsetalator_get(it, i);
done:
  free(raw);
  return status;
}

static gcol_status strings_view_chars_range(gcol_column_view view, gcol_stream stream,
                                            int64_t *begin, int64_t *end) {
  gcol_status status = GCOL_OK;
  gcol_offsetalator it;
  int64_t first = 0, last = 0;
  GCOL_DETAIL_CHECK(begin != NULL && end != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s is NULL", begin == NULL ? "begin" : "end");
  *begin = *end = 0;
  if (view.size == 0) goto done;
  GCOL_DETAIL_TRY(gcol_offsetalator_make(view, &it));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&first, it.data, (size_t)it.width, cudaMemcpyDefault,
                                       (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&last, (const char *)it.data + view.size * it.width,
                                       (size_t)it.width, cudaMemcpyDefault, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  if (it.width == 4) { /* little-endian: the int32 sits in the low half; sign-extend */
    first = (int64_t)(int32_t)(uint32_t)first;
    last = (int64_t)(int32_t)(uint32_t)last;
  }
  *begin = first;
  *end = last;
done:
  return status;
}

gcol_status gcol_strings_view_chars_range(gcol_column_view view, gcol_stream stream, int64_t *begin,
                                          int64_t *end) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_view_chars_range");
  gcol_status const status = strings_view_chars_range(view, stream, begin, end);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_column_strings_copy_to_host(gcol_column_view view, gcol_stream stream,
                                             gcol_host_strings **out) {
  gcol_status status = GCOL_OK;
  gcol_host_strings *hs = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_strings_copy_to_host");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(view, "view"));
  GCOL_DETAIL_CHECK(view.type.id == GCOL_STRING, GCOL_ERROR_TYPE_MISMATCH,
                    "expected a STRING column, not %s", gcol_type_name(view.type.id));
  hs = (gcol_host_strings *)calloc(1, sizeof *hs);
  GCOL_DETAIL_CHECK(hs != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  hs->size = view.size;
  hs->offsets = (int64_t *)calloc((size_t)view.size + 1, sizeof(int64_t));
  hs->valid = (uint8_t *)malloc(view.size > 0 ? (size_t)view.size : 1);
  GCOL_DETAIL_CHECK(hs->offsets != NULL && hs->valid != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "host allocation failed");
  if (view.size > 0) GCOL_DETAIL_TRY(offsets_to_host(view, stream, hs->offsets));
  /* The offsets are on the host now: check them all (a decreasing pair would reach the
   * caller as a negative string length). */
  for (int64_t i = 0; i < view.size; ++i) {
    GCOL_DETAIL_CHECK(hs->offsets[i + 1] >= hs->offsets[i], GCOL_ERROR_INVALID_ARGUMENT,
                      "offsets decrease at row %lld (%lld, then %lld)", (long long)i,
                      (long long)hs->offsets[i], (long long)hs->offsets[i + 1]);
  }
  int64_t const first = hs->offsets[0];
  int64_t const bytes = hs->offsets[view.size] - first;
  hs->chars = (char *)malloc(bytes > 0 ? (size_t)bytes : 1);
  GCOL_DETAIL_CHECK(hs->chars != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  if (bytes > 0) {
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(hs->chars, (const char *)view.data + first, (size_t)bytes,
                                         cudaMemcpyDefault, (cudaStream_t)stream));
  }
  for (int64_t i = 0; i <= view.size; ++i) hs->offsets[i] -= first;
  GCOL_DETAIL_TRY(validity_to_host(view.null_mask, view.offset, view.size, stream, hs->valid));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  *out = hs;
  hs = NULL;
done:
  gcol_host_strings_free(hs);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- like ---- */

static gcol_status column_allocate_like(gcol_column_view view, int64_t size,
                                        gcol_mask_state mask_state, gcol_stream stream, gcol_mr *mr,
                                        gcol_column **out) {
  return gcol_column_create(view.type, size, mask_state, stream, mr, out);
}

gcol_status gcol_column_allocate_like(gcol_column_view view, int64_t size,
                                      gcol_mask_state mask_state, gcol_stream stream, gcol_mr *mr,
                                      gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_allocate_like");
  gcol_status const status = column_allocate_like(view, size, mask_state, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_empty_like(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                                     gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column **children = NULL;
  int32_t made = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(view, "view"));
  if (gcol_type_is_fixed_width(view.type.id) || view.type.id == GCOL_EMPTY) {
    GCOL_DETAIL_TRY(gcol_column_make(view.type, 0, NULL, NULL, 0, NULL, 0, out));
    goto done;
  }
  if (view.num_children > 0) {
    children = (gcol_column **)calloc((size_t)view.num_children, sizeof *children);
    GCOL_DETAIL_CHECK(children != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  }
  for (; made < view.num_children; ++made) {
    gcol_column_view child = view.children[made];
    bool const is_offsets = made == GCOL_OFFSETS_CHILD &&
                            (view.type.id == GCOL_STRING || view.type.id == GCOL_LIST);
    if (is_offsets) { /* an empty offsets child keeps 0 rows */
      child.type = gcol_data_type_make(GCOL_INT32);
      child.size = 0;
    }
    GCOL_DETAIL_TRY(gcol_column_empty_like(child, stream, mr, &children[made]));
  }
  GCOL_DETAIL_TRY(gcol_column_make(view.type, 0, NULL, NULL, 0, children, view.num_children, out));
  made = 0; /* the column owns them now */
done:
  for (int32_t i = 0; i < made; ++i) gcol_column_free(children[i]);
  free(children);
  return status;
}

gcol_status gcol_column_empty_like(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                                   gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_empty_like");
  gcol_status const status = column_empty_like(view, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
