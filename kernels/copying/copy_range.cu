/*
 * copy_range and shift for every type, built from zero-copy slices:
 * - copy_range is the concatenation target[0, b) + source[sb, se) + target[b + len, n);
 * - shift with a value is the concatenation of a fill column and a slice of the input;
 * - shift with a null fill is a gather by i - offset whose out-of-range rows become null,
 *   which needs no scalar of the column's type (so LIST and STRUCT columns shift too).
 */
#include "common.cuh"
#include "copying/copying_internal.h"
#include "gcol/copying.h"

extern "C" gcol_status gcol_copy_range(gcol_column_view source, int64_t source_begin,
                                       int64_t source_end, gcol_column_view target,
                                       int64_t target_begin, gcol_column **out, gcol_stream stream,
                                       gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view pieces[3];
  int64_t length = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_copy_range");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_copying_check_view(source, "source"));
  GCOL_DETAIL_TRY(gcol_detail_copying_check_view(target, "target"));
  GCOL_DETAIL_CHECK(gcol_detail_types_match(source, target), GCOL_ERROR_TYPE_MISMATCH,
                    "source (%s) and target (%s) types differ", gcol_type_name(source.type.id),
                    gcol_type_name(target.type.id));
  GCOL_DETAIL_CHECK(0 <= source_begin && source_begin <= source_end && source_end <= source.size,
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "source range [%lld, %lld) is not within [0, %lld]", (long long)source_begin,
                    (long long)source_end, (long long)source.size);
  length = source_end - source_begin;
  GCOL_DETAIL_CHECK(0 <= target_begin && target_begin <= target.size - length,
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "target_begin %lld + %lld rows does not fit in target of %lld rows",
                    (long long)target_begin, (long long)length, (long long)target.size);
  GCOL_DETAIL_TRY(gcol_column_view_slice(target, 0, target_begin, &pieces[0]));
  GCOL_DETAIL_TRY(gcol_column_view_slice(source, source_begin, source_end, &pieces[1]));
  GCOL_DETAIL_TRY(gcol_column_view_slice(target, target_begin + length, target.size, &pieces[2]));
  GCOL_DETAIL_TRY(gcol_detail_concatenate(pieces, 3, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* map[i] = i - offset (rows outside the input resolve to null). */
static __global__ void shift_map_kernel(int64_t *__restrict__ map, int64_t n, int64_t offset) {
  GCOL_DETAIL_GRID_LOOP(i, n) { map[i] = i - offset; }
}

static gcol_status shift_with_nulls(gcol_column_view input, int64_t offset, gcol_column **out,
                                    gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *map_col = NULL;
  gcol_detail_gather_map map;
  int64_t const n = input.size;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT64), n, GCOL_MASK_UNALLOCATED,
                                     stream, NULL, &map_col));
  shift_map_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                     (cudaStream_t)stream>>>((int64_t *)map_col->data->data, n, offset);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_gather_map_make(gcol_column_get_view(map_col), n, false, true, &map));
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_column(input, map, stream, mr, out));
done:
  gcol_column_free(map_col);
  return status;
}

static gcol_status shift_with_value(gcol_column_view input, int64_t offset, const gcol_scalar *fill,
                                    gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *fill_col = NULL;
  gcol_column_view pieces[2];
  int64_t const n = input.size;
  int64_t const fill_rows = offset < 0 ? -offset : offset;
  GCOL_DETAIL_TRY(gcol_detail_scalar_column(fill, fill_rows, stream, NULL, &fill_col));
  if (offset >= 0) {
    pieces[0] = gcol_column_get_view(fill_col);
    GCOL_DETAIL_TRY(gcol_column_view_slice(input, 0, n - fill_rows, &pieces[1]));
  } else {
    GCOL_DETAIL_TRY(gcol_column_view_slice(input, fill_rows, n, &pieces[0]));
    pieces[1] = gcol_column_get_view(fill_col);
  }
  GCOL_DETAIL_TRY(gcol_detail_concatenate(pieces, 2, stream, mr, out));
done:
  gcol_column_free(fill_col);
  return status;
}

extern "C" gcol_status gcol_shift(gcol_column_view input, int64_t offset, const gcol_scalar *fill,
                                  gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_shift");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_copying_check_view(input, "input"));
  if (fill != NULL) GCOL_DETAIL_TRY(gcol_detail_check_scalar_like(fill, input, "fill"));
  if (input.size == 0) {
    GCOL_DETAIL_TRY(gcol_column_empty_like(input, stream, mr, out));
    goto done;
  }
  /* |offset| >= size shifts every row out: clamp, which also keeps i - offset from
   * overflowing. */
  if (offset > input.size) offset = input.size;
  if (offset < -input.size) offset = -input.size;
  if (fill == NULL || !fill->is_valid) {
    GCOL_DETAIL_TRY(shift_with_nulls(input, offset, out, stream, mr));
  } else {
    GCOL_DETAIL_TRY(shift_with_value(input, offset, fill, out, stream, mr));
  }
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
