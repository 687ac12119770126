/*
 * Internal interface of the copying area (include/gcol/copying.h) over the one gather
 * engine (detail/gather.h): scatter targets, concatenated masks, the concatenation engine
 * (copy_range and shift with a value fill are concatenations of slices) and scalar columns
 * (fills, scalar sides).
 */
#ifndef GCOL_KERNELS_COPYING_INTERNAL_H
#define GCOL_KERNELS_COPYING_INTERNAL_H

#include "detail/gather.h"
#include "detail/mask_splice.h"
#include "gcol/scalar.h"

GCOL_EXTERN_C_BEGIN

/* The destination row of a scatter index (negative wraps), or -1 when out of range. */
GCOL_HD_INLINE int64_t gcol_detail_scatter_target_row(int64_t index, int64_t target_rows) {
  if (index < 0) index += target_rows;
  return (index >= 0 && index < target_rows) ? index : -1;
}

/* Concatenates views of one type (checked by the caller). */
gcol_status gcol_detail_concatenate(const gcol_column_view *columns, int32_t num_columns,
                                    gcol_stream stream, gcol_mr *mr, gcol_column **out);

/* A column of `rows` copies of a fixed-width or STRING scalar (a null scalar gives null
 * rows). */
gcol_status gcol_detail_scalar_column(const gcol_scalar *scalar, int64_t rows, gcol_stream stream,
                                      gcol_mr *mr, gcol_column **out);

/* Checks that a scalar can fill a column like `like`: not NULL, same type. */
gcol_status gcol_detail_check_scalar_like(const gcol_scalar *scalar, gcol_column_view like,
                                          const char *what);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_COPYING_INTERNAL_H */
