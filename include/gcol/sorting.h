/**
 * @file sorting.h
 * @brief Sorting: orders of rows of tables by multi-column keys.
 */
#ifndef GCOL_SORTING_H
#define GCOL_SORTING_H

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief Sort direction of one key column. */
typedef enum gcol_order {
  GCOL_ORDER_ASCENDING = 0, /**< Smallest first. */
  GCOL_ORDER_DESCENDING = 1 /**< Largest first. */
} gcol_order;

/** @brief Where nulls of one key column go. */
typedef enum gcol_null_order {
  GCOL_NULLS_AFTER = 0, /**< Nulls after all values (in the sorted direction). */
  GCOL_NULLS_BEFORE = 1 /**< Nulls before all values. */
} gcol_null_order;

/**
 * @brief The permutation that sorts the rows of @p keys (not stable).
 * @param[in] keys Key columns, most significant first.
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out Row indices, INT32 when the row count fits, else INT64.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_sorted_order(gcol_table_view keys, const gcol_order *order,
                              const gcol_null_order *null_order, gcol_column **out,
                              gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

#endif /* GCOL_SORTING_H */
