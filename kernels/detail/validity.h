/*
 * The output validity of element-wise operations that keep their input's nulls: a copy of
 * the input's mask realigned to bit 0, with its null count. Shared by unary ops, casts and
 * datetime extraction.
 */
#ifndef GCOL_KERNELS_DETAIL_VALIDITY_H
#define GCOL_KERNELS_DETAIL_VALIDITY_H

#include "gcol/buffer.h"
#include "gcol/column.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *mask = NULL and *null_count = 0 when @p input has no mask; otherwise a copy of rows
 * [0, size) of its mask from @p mr. Synchronizes only when the null count is unknown. */
gcol_status gcol_detail_copy_validity(gcol_column_view input, gcol_stream stream, gcol_mr *mr,
                                      gcol_buffer **mask, int64_t *null_count);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_DETAIL_VALIDITY_H */
