/*
 * Columns of n copies of a host scalar (fixed-width or STRING): the fill of shift, the scalar
 * sides of copy_if_else and the values of scatter_scalars.
 */
#include <string.h>

#include "common.cuh"
#include "copying/copying_internal.h"
#include "gcol/scalar.h"

template <typename T>
static __global__ void fill_kernel(T *__restrict__ dst, int64_t n, T value) {
  GCOL_DETAIL_GRID_LOOP(i, n) { dst[i] = value; }
}

template <typename T>
static gcol_status launch_fill(void *dst, int64_t n, const gcol_scalar *scalar,
                               gcol_stream stream) {
  gcol_status status = GCOL_OK;
  T value;
  memset(&value, 0, sizeof value);
  if (scalar->is_valid) memcpy(&value, gcol_scalar_get_storage(scalar), sizeof value);
  fill_kernel<T><<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                   (cudaStream_t)stream>>>((T *)dst, n, value);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* Five instantiations, one per storage width. Null scalars fill zeros under the nulls. */
static gcol_status fill_by_width(void *dst, int64_t n, const gcol_scalar *scalar,
                                 gcol_stream stream) {
  switch (gcol_type_size(scalar->type.id)) {
    case 1:
      return launch_fill<uint8_t>(dst, n, scalar, stream);
    case 2:
      return launch_fill<uint16_t>(dst, n, scalar, stream);
    case 4:
      return launch_fill<uint32_t>(dst, n, scalar, stream);
    case 8:
      return launch_fill<uint64_t>(dst, n, scalar, stream);
    case 16:
      return launch_fill<ulonglong2>(dst, n, scalar, stream);
    default:
      return gcol_detail_error(GCOL_ERROR_INTERNAL, __func__, "no storage of width %zu",
                               gcol_type_size(scalar->type.id));
  }
}

static gcol_status fixed_scalar_column(const gcol_scalar *scalar, int64_t rows, gcol_stream stream,
                                       gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  GCOL_DETAIL_TRY(gcol_column_create(scalar->type, rows,
                                     scalar->is_valid ? GCOL_MASK_UNALLOCATED : GCOL_MASK_ALL_NULL,
                                     stream, mr, &col));
  if (rows > 0) GCOL_DETAIL_TRY(fill_by_width(col->data->data, rows, scalar, stream));
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}

/* offsets[i] = i * length. */
static __global__ void repeat_offsets_kernel(gcol_offsets_writer dst, int64_t count,
                                             int64_t length) {
  GCOL_DETAIL_GRID_LOOP(i, count) { gcol_offsets_writer_set(dst, i, i * length); }
}

/* chars[j] = s[j % length]. */
static __global__ void repeat_chars_kernel(const char *__restrict__ s, int64_t length,
                                           char *__restrict__ dst, int64_t total) {
  GCOL_DETAIL_GRID_LOOP(j, total) { dst[j] = s[j % length]; }
}

static gcol_status string_scalar_column(const gcol_scalar *scalar, int64_t rows, gcol_stream stream,
                                        gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *offsets = NULL;
  gcol_buffer *chars = NULL, *mask = NULL, *source = NULL;
  int64_t const length = scalar->is_valid ? scalar->string_size : 0;
  int64_t total = 0;
  GCOL_DETAIL_CHECK(length == 0 || rows <= INT64_MAX / length, GCOL_ERROR_OVERFLOW,
                    "%lld copies of a %lld-byte string exceed INT64_MAX bytes", (long long)rows,
                    (long long)length);
  total = rows * length;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(gcol_detail_offsets_type(total)), rows + 1,
                                     GCOL_MASK_UNALLOCATED, stream, mr, &offsets));
  {
    gcol_offsets_writer writer;
    writer.data = offsets->data->data;
    writer.width = (int32_t)gcol_type_size(offsets->type.id);
    repeat_offsets_kernel<<<gcol_detail_grid_size(rows + 1, GCOL_DETAIL_BLOCK_SIZE),
                            GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(writer, rows + 1,
                                                                               length);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  if (total > 0) {
    GCOL_DETAIL_TRY(
        gcol_buffer_create_copy(scalar->string_data, (size_t)length, stream, NULL, &source));
    repeat_chars_kernel<<<gcol_detail_grid_size(total, GCOL_DETAIL_BLOCK_SIZE),
                          GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        (const char *)source->data, length, (char *)chars->data, total);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (!scalar->is_valid && rows > 0) {
    GCOL_DETAIL_TRY(gcol_bitmask_create(rows, GCOL_MASK_ALL_NULL, stream, mr, &mask));
  }
  GCOL_DETAIL_TRY(
      gcol_column_make_strings(rows, offsets, chars, mask, scalar->is_valid ? 0 : rows, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_buffer_free(source);
  return status;
}

extern "C" gcol_status gcol_detail_check_scalar_like(const gcol_scalar *scalar,
                                                     gcol_column_view like, const char *what) {
  GCOL_DETAIL_REQUIRE(scalar != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
  GCOL_DETAIL_REQUIRE(gcol_data_type_equal(scalar->type, like.type), GCOL_ERROR_TYPE_MISMATCH,
                      "%s has type %s (scale %d), the column %s (scale %d)", what,
                      gcol_type_name(scalar->type.id), (int)scalar->type.scale,
                      gcol_type_name(like.type.id), (int)like.type.scale);
  GCOL_DETAIL_REQUIRE(gcol_type_is_fixed_width(like.type.id) || like.type.id == GCOL_STRING,
                      GCOL_ERROR_TYPE_MISMATCH,
                      "%s: scalars exist only for fixed-width and STRING columns, not %s", what,
                      gcol_type_name(like.type.id));
  return GCOL_OK;
}

extern "C" gcol_status gcol_detail_scalar_column(const gcol_scalar *scalar, int64_t rows,
                                                 gcol_stream stream, gcol_mr *mr,
                                                 gcol_column **out) {
  *out = NULL;
  if (gcol_type_is_fixed_width(scalar->type.id)) {
    return fixed_scalar_column(scalar, rows, stream, mr, out);
  }
  if (scalar->type.id == GCOL_STRING) return string_scalar_column(scalar, rows, stream, mr, out);
  return gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, __func__, "no column of %s scalars",
                           gcol_type_name(scalar->type.id));
}
