/**
 * @file search.h
 * @ingroup gcol_sorting
 * @brief Searching sorted tables: lower and upper bounds of needle rows in a sorted
 *        haystack, membership of values in a column, and the merge of pre-sorted tables.
 *
 * Rows compare as in sorting.h (per-column ::gcol_order and ::gcol_null_order, -0.0 == +0.0,
 * NaN after +Inf and equal to NaN, strings byte-wise, nulls equal to each other). The
 * haystack must be sorted in the order given; an unsorted haystack gives unspecified (but
 * in-bounds) positions.
 *
 * @code
 * gcol_column *pos = NULL;
 * gcol_lower_bound(sorted_table, needle_table, NULL, NULL, &pos, stream, NULL);
 * // pos[i]: the first haystack row that does not sort before needle row i
 * @endcode
 */
#ifndef GCOL_SEARCH_H
#define GCOL_SEARCH_H

/** @addtogroup gcol_sorting
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/sorting.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief For every row of @p needles, the first row of @p haystack that does not sort
 *        before it (the insertion point that keeps equal haystack rows after the needle).
 * @param[in] haystack Sorted key columns (at most ::GCOL_MAX_COMPARE_COLUMNS).
 * @param[in] needles As many columns as @p haystack, of the same types (decimal scales
 *                    equal).
 * @param[in] order One per column, or NULL for all ascending: the haystack's order.
 * @param[in] null_order One per column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out `needles.num_rows` positions in `[0, haystack.num_rows]`: INT32 when
 *                 `haystack.num_rows <= INT32_MAX`, else INT64; no null mask.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_SIZE_MISMATCH (column
 *         counts differ), ::GCOL_ERROR_TYPE_MISMATCH (column types differ),
 *         ::GCOL_ERROR_UNSUPPORTED (nested types, too many columns),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Stream-ordered; no synchronization.
 */
gcol_status gcol_lower_bound(gcol_table_view haystack, gcol_table_view needles,
                             const gcol_order *order, const gcol_null_order *null_order,
                             gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief For every row of @p needles, the first row of @p haystack that sorts after it
 *        (the insertion point that keeps equal haystack rows before the needle).
 * @param[in] haystack Sorted key columns, as gcol_lower_bound().
 * @param[in] needles Rows to look for, as gcol_lower_bound().
 * @param[in] order One per column, or NULL for all ascending.
 * @param[in] null_order One per column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out Positions, as gcol_lower_bound().
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_lower_bound().
 */
gcol_status gcol_upper_bound(gcol_table_view haystack, gcol_table_view needles,
                             const gcol_order *order, const gcol_null_order *null_order,
                             gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Whether each value of @p needles occurs in @p haystack (which need not be sorted).
 * @param[in] haystack Any sortable column; its null rows never match.
 * @param[in] needles A column of the same type.
 * @param[out] out BOOL8 of `needles.size` rows: 1 if found, 0 if not; null where the needle
 *                 is null.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH,
 *         ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Sorts a permutation of @p haystack (see gcol_stable_sorted_order() for its
 *       synchronization) and binary-searches it.
 */
gcol_status gcol_contains(gcol_column_view haystack, gcol_column_view needles, gcol_column **out,
                          gcol_stream stream, gcol_mr *mr);

/**
 * @brief Merges tables that are each sorted by the same key columns into one sorted table.
 *
 * Ties keep the order of the inputs: rows of `tables[a]` come before equal rows of
 * `tables[b]` when a < b, and rows of one table keep their order (a stable merge).
 * @param[in] tables Host array of @p num_tables tables with the same column types.
 * @param[in] num_tables Number of tables (1 to ::GCOL_MAX_MERGE_TABLES).
 * @param[in] key_columns Host array of @p num_keys column indices, most significant first.
 * @param[in] num_keys Number of key columns (1 to ::GCOL_MAX_COMPARE_COLUMNS).
 * @param[in] order One per key, or NULL for all ascending.
 * @param[in] null_order One per key, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out A new table of the total row count with every column (fixed-width or
 *                 STRING) of the inputs.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL arrays, bad counts or indices),
 *         ::GCOL_ERROR_TYPE_MISMATCH (column types differ between tables),
 *         ::GCOL_ERROR_SIZE_MISMATCH (column counts differ), ::GCOL_ERROR_UNSUPPORTED,
 *         ::GCOL_ERROR_OVERFLOW (total rows exceed INT64), ::GCOL_ERROR_OUT_OF_MEMORY,
 *         CUDA status.
 * @note Synchronizes @p stream to size STRING outputs and to count unknown null counts.
 */
gcol_status gcol_merge(const gcol_table_view *tables, int32_t num_tables,
                       const int32_t *key_columns, int32_t num_keys, const gcol_order *order,
                       const gcol_null_order *null_order, gcol_table **out, gcol_stream stream,
                       gcol_mr *mr);

/** @brief Most tables gcol_merge() takes in one call. */
#define GCOL_MAX_MERGE_TABLES 32

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_SEARCH_H */
