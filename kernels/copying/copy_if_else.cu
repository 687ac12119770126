/*
 * copy_if_else for every type: the two sides are placed side by side (a temporary
 * concatenation; a scalar side becomes a one-row column) and gathered by a map built from
 * the BOOL8 mask, so strings, lists and structs take the same path as fixed-width columns.
 */
#include "common.cuh"
#include "copying/copying_internal.h"
#include "gcol/copying.h"

/* One side of the selection: a column, or a scalar when `scalar` is not NULL. */
typedef struct copy_side {
  gcol_column_view column;
  const gcol_scalar *scalar;
} copy_side;

/* map[i] = row of lhs (at 0) when mask[i] is valid and true, else row of rhs (at lhs_rows);
 * a scalar side always reads its single row. */
static __global__ void selection_map_kernel(const uint8_t *__restrict__ mask_values,
                                            const uint32_t *__restrict__ mask_nulls,
                                            int64_t mask_offset, int64_t n, bool lhs_scalar,
                                            bool rhs_scalar, int64_t lhs_rows,
                                            int64_t *__restrict__ map) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool const take_lhs = gcol_bit_is_set_or_null_mask(mask_nulls, mask_offset + i) &&
                          mask_values[mask_offset + i] != 0;
    map[i] = take_lhs ? (lhs_scalar ? 0 : i) : lhs_rows + (rhs_scalar ? 0 : i);
  }
}

/* Checks one side against the mask's size (columns) or the other side's type (scalars). */
static gcol_status check_side(copy_side side, copy_side other, int64_t rows, const char *what) {
  if (side.scalar != NULL) return gcol_detail_check_scalar_like(side.scalar, other.column, what);
  gcol_status const st = gcol_detail_copying_check_view(side.column, what);
  if (st != GCOL_OK) return st;
  GCOL_DETAIL_REQUIRE(side.column.size == rows, GCOL_ERROR_SIZE_MISMATCH,
                      "%s has %lld rows, mask %lld", what, (long long)side.column.size,
                      (long long)rows);
  if (other.scalar == NULL) {
    GCOL_DETAIL_REQUIRE(gcol_detail_types_match(side.column, other.column),
                        GCOL_ERROR_TYPE_MISMATCH, "lhs (%s) and rhs (%s) types differ",
                        gcol_type_name(side.column.type.id), gcol_type_name(other.column.type.id));
  }
  return GCOL_OK;
}

/* The side as a column view; scalars become a one-row temporary column in *owned. */
static gcol_status side_view(copy_side side, gcol_stream stream, gcol_column **owned,
                             gcol_column_view *out) {
  if (side.scalar == NULL) {
    *out = side.column;
    return GCOL_OK;
  }
  gcol_status const st = gcol_detail_scalar_column(side.scalar, 1, stream, NULL, owned);
  if (st == GCOL_OK) *out = gcol_column_get_view(*owned);
  return st;
}

static gcol_status copy_if_else_impl(copy_side lhs, copy_side rhs, gcol_column_view mask,
                                     gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *lhs_owned = NULL, *rhs_owned = NULL, *both = NULL, *map_col = NULL;
  gcol_column_view sides[2];
  gcol_detail_gather_map map;
  int64_t const n = mask.size;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(mask, "mask"));
  GCOL_DETAIL_CHECK(mask.type.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "mask must be BOOL8, not %s", gcol_type_name(mask.type.id));
  GCOL_DETAIL_TRY(check_side(lhs, rhs, n, "lhs"));
  GCOL_DETAIL_TRY(check_side(rhs, lhs, n, "rhs"));
  if (n == 0) {
    GCOL_DETAIL_TRY(
        gcol_column_empty_like(lhs.scalar == NULL ? lhs.column : rhs.column, stream, mr, out));
    goto done;
  }
  GCOL_DETAIL_TRY(side_view(lhs, stream, &lhs_owned, &sides[0]));
  GCOL_DETAIL_TRY(side_view(rhs, stream, &rhs_owned, &sides[1]));
  GCOL_DETAIL_TRY(gcol_detail_concatenate(sides, 2, stream, NULL, &both));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT64), n, GCOL_MASK_UNALLOCATED,
                                     stream, NULL, &map_col));
  selection_map_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                         0, (cudaStream_t)stream>>>(
      (const uint8_t *)mask.data, gcol_column_view_may_have_nulls(mask) ? mask.null_mask : NULL,
      mask.offset, n, lhs.scalar != NULL, rhs.scalar != NULL, sides[0].size,
      (int64_t *)map_col->data->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_detail_gather_map_make(gcol_column_get_view(map_col), both->size, false, false, &map));
  GCOL_DETAIL_TRY(
      gcol_detail_copying_gather_column(gcol_column_get_view(both), map, stream, mr, out));
done:
  gcol_column_free(lhs_owned);
  gcol_column_free(rhs_owned);
  gcol_column_free(both);
  gcol_column_free(map_col);
  return status;
}

static copy_side column_side(gcol_column_view column) {
  copy_side side;
  side.column = column;
  side.scalar = NULL;
  return side;
}

static copy_side scalar_side(const gcol_scalar *scalar, gcol_column_view like) {
  copy_side side;
  side.column = like; /* only its type is consulted, for error messages */
  side.scalar = scalar;
  return side;
}

extern "C" gcol_status gcol_copy_if_else(gcol_column_view lhs, gcol_column_view rhs,
                                         gcol_column_view mask, gcol_column **out,
                                         gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_copy_if_else");
  gcol_status const status =
      copy_if_else_impl(column_side(lhs), column_side(rhs), mask, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_copy_if_else_column_scalar(gcol_column_view lhs, const gcol_scalar *rhs,
                                                       gcol_column_view mask, gcol_column **out,
                                                       gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_copy_if_else_column_scalar");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(rhs);
  status = copy_if_else_impl(column_side(lhs), scalar_side(rhs, lhs), mask, out, stream, mr);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_copy_if_else_scalar_column(const gcol_scalar *lhs, gcol_column_view rhs,
                                                       gcol_column_view mask, gcol_column **out,
                                                       gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_copy_if_else_scalar_column");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(lhs);
  status = copy_if_else_impl(scalar_side(lhs, rhs), column_side(rhs), mask, out, stream, mr);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
