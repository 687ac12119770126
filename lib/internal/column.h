/*
 * Internal column helpers shared by lib/ and kernels/.
 */
#ifndef GCOL_INTERNAL_COLUMN_H
#define GCOL_INTERNAL_COLUMN_H

#include "gcol/column.h"
#include "gcol/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The mutable view of the top level of a column that the calling function has just created
 * (gcol_column_create and the like) and not yet shared: its buffers are unique, so this is
 * gcol_column_get_mutable_view without the copy-on-write check, usable in an expression and
 * unable to fail. Anything else, a column that came from the caller above all, goes through
 * gcol_column_get_mutable_view (docs/design.md, "Copy on write"). */
gcol_mutable_column_view gcol_detail_new_column_mutable_view(gcol_column *column);

/* Exposes every spillable buffer of a column to the spill manager (brought back on
 * `stream`; they never spill again), without the copy-on-write side of
 * gcol_column_expose: for code that hands the column's pointers to a reader gcol cannot
 * follow (an owned Arrow export). */
gcol_status gcol_detail_column_spill_expose(const gcol_column *column, gcol_stream stream);

/* The only column of a one-column @p table that an operation has just returned: the column
 * moves to *out and the table struct is freed (the single-column forms of the table
 * operations, gcol_column_gather and the like). Cannot fail; *out is NULL for NULL. */
void gcol_detail_table_take_column(gcol_table *table, gcol_column **out);

/* Stores `fresh` into `slot`, view storage that `owner` (a column or table) keeps, only when
 * it differs, under a lock chosen by the owner: get_view on one const object from several
 * threads then never writes a slot another thread reads (lib/column.c). */
void gcol_detail_view_store(const void *owner, gcol_column_view *slot,
                            const gcol_column_view *fresh);

/* Concatenates columns gcol made and owns whole, of one type: each STRING's or LIST's offsets
 * run from 0 to its chars' or values' size (children included), and null counts are exact. As
 * gcol_concatenate gives, but nothing is read back from the device, so nothing synchronizes:
 * the outputs' allocations may run ahead of the GPU work still filling the inputs (a batched
 * Parquet read's pieces; kernels/copying/concatenate.cu). */
gcol_status gcol_detail_concatenate_owned(gcol_column *const *columns, int32_t num_columns,
                                          gcol_stream stream, gcol_mr *mr, gcol_column **out);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_COLUMN_H */
