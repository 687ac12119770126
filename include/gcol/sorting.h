/**
 * @file sorting.h
 * @ingroup gcol_sorting
 * @brief Sorting: orders of rows of tables by multi-column keys, sorted copies, sort by key,
 *        segmented sorts, ranks, top-k and the sortedness check.
 *
 * Keys are compared column by column, most significant first. Each key column has its own
 * ::gcol_order and ::gcol_null_order. Value order per type:
 * - integers, timestamps, durations, decimals (unscaled value; all rows of a column share
 *   one scale): numeric order; BOOL8: false < true (any non-zero byte is true);
 * - FLOAT32/FLOAT64: numeric order with -0.0 == +0.0 (the two are tied, so a stable sort
 *   keeps their input order), every NaN equal to every other NaN and greater than +Inf
 *   (ascending: ... < +Inf < NaN; descending: NaN first). The sort keys normalize -0.0 to
 *   +0.0 and every NaN to one NaN before ordering; this is the equality of joins, groupby
 *   and distinct. Reductions, quantiles and scans (reduction.h, scan.h) instead order
 *   -0.0 before +0.0: MIN of [+0.0, -0.0] is -0.0, while sorting the two keeps them in
 *   input order. Both agree on everything else (NaN after +Inf, NaNs alike);
 * - STRING: byte-wise (UTF-8 code point) order, a proper prefix first (`"" < "\0" < "a"`);
 * - nulls are placed by ::gcol_null_order in the output: ::GCOL_NULLS_BEFORE puts them
 *   first and ::GCOL_NULLS_AFTER last, whatever the column's ::gcol_order (SQL's
 *   NULLS FIRST / NULLS LAST); nulls are equal to each other.
 *
 * LIST, STRUCT, DICTIONARY32 and EMPTY keys are not sortable (::GCOL_ERROR_UNSUPPORTED).
 * Every sort here is implemented as a stable LSD radix sort over order-preserving
 * normalized keys, so the unstable variants return the stable order too (they may not in
 * a later version: use the stable ones when the order of ties matters).
 *
 * @code
 * gcol_column_view cols[2] = {gcol_column_get_view(city), gcol_column_get_view(price)};
 * gcol_table_view keys;
 * gcol_table_view_make(cols, 2, &keys);
 * gcol_order order[2] = {GCOL_ORDER_ASCENDING, GCOL_ORDER_DESCENDING};
 * gcol_null_order nulls[2] = {GCOL_NULLS_AFTER, GCOL_NULLS_BEFORE};
 * gcol_column *perm = NULL;
 * gcol_stable_sorted_order(keys, order, nulls, &perm, stream, NULL);
 * @endcode
 */
#ifndef GCOL_SORTING_H
#define GCOL_SORTING_H

/** @addtogroup gcol_sorting
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief Most key columns that the row-comparing operations take (gcol_is_sorted(), the
 *         searches of search.h); sorts themselves take any number. */
#define GCOL_MAX_COMPARE_COLUMNS 32

/** @brief Sort direction of one key column. */
typedef enum gcol_order {
  GCOL_ORDER_ASCENDING = 0, /**< Smallest first. */
  GCOL_ORDER_DESCENDING = 1 /**< Largest first. */
} gcol_order;

/**
 * @brief Where nulls of one key column go in the output, whatever its ::gcol_order (SQL's
 *        NULLS LAST / NULLS FIRST).
 *
 * ::GCOL_NULLS_BEFORE: nulls are the first rows of the sorted output (of each run of equal
 * higher-order keys), ascending or descending; ::GCOL_NULLS_AFTER: the last. The direction
 * orders the values only; it never moves the nulls. The same holds in search.h, whose
 * haystack is sorted this way, and in gcol_is_sorted().
 *
 * Porting from libcudf: its `cudf::null_order` has the same names (and the same values,
 * AFTER 0 and BEFORE 1) but another meaning: it says how a null *compares* with a value
 * (BEFORE: a null is smaller than every value, AFTER: larger), and a DESCENDING column
 * reverses that comparison like every other, so libcudf's BEFORE puts nulls last in a
 * descending sort. Where nulls land in the output:
 * | order | null order | libcudf | gcol |
 * | --- | --- | --- | --- |
 * | ASCENDING | BEFORE | first | first |
 * | ASCENDING | AFTER | last | last |
 * | DESCENDING | BEFORE | last | first |
 * | DESCENDING | AFTER | first | last |
 *
 * So under ASCENDING the two agree, and under DESCENDING libcudf's BEFORE is gcol's
 * ::GCOL_NULLS_AFTER and libcudf's AFTER is gcol's ::GCOL_NULLS_BEFORE: translate per
 * column, never by casting one enum to the other. Defaults differ too: an empty
 * `null_precedence` in libcudf means BEFORE for every column (nulls first ascending, last
 * descending); a NULL @c null_order array here means ::GCOL_NULLS_AFTER (nulls last in
 * both directions).
 */
typedef enum gcol_null_order {
  GCOL_NULLS_AFTER = 0, /**< Nulls after all values, ascending or descending. */
  GCOL_NULLS_BEFORE = 1 /**< Nulls before all values, ascending or descending. */
} gcol_null_order;

/**
 * @brief The permutation that sorts the rows of @p keys (stability not promised).
 * @param[in] keys Key columns, most significant first, as gcol_stable_sorted_order().
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out Row indices, INT32 when the row count fits, else INT64; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_stable_sorted_order().
 * @note This version returns the stable order, the same result as
 *       gcol_stable_sorted_order() (tied rows in input order). Do not rely on it: a later
 *       version may order ties differently; use gcol_stable_sorted_order() when it matters.
 * @note As gcol_stable_sorted_order().
 */
gcol_status gcol_sorted_order(gcol_table_view keys, const gcol_order *order,
                              const gcol_null_order *null_order, gcol_column **out,
                              gcol_stream stream, gcol_mr *mr);

/**
 * @brief The permutation that sorts the rows of @p keys, keeping tied rows in input order.
 * @param[in] keys Key columns, most significant first (fixed-width or STRING; any sizes,
 *                 offsets and null masks).
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out Row indices (INT32 when `keys.num_rows <= INT32_MAX`, else INT64), no
 *                 null mask; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, no key columns, bad enum
 *         values, malformed views), ::GCOL_ERROR_SIZE_MISMATCH (columns of different sizes),
 *         ::GCOL_ERROR_UNSUPPORTED (LIST, STRUCT, DICTIONARY32 keys),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Stream-ordered. STRING keys synchronize @p stream once per string column (to size
 *       the refinement of rows whose first 8 bytes tie). One 64-bit key without nulls of
 *       2^20 rows or more synchronizes it twice (the key's range, then the count of long
 *       runs of equal high words, which size the passes that follow).
 */
gcol_status gcol_stable_sorted_order(gcol_table_view keys, const gcol_order *order,
                                     const gcol_null_order *null_order, gcol_column **out,
                                     gcol_stream stream, gcol_mr *mr);

/**
 * @brief A sorted copy of the rows of @p keys (stability not promised; see
 *        gcol_stable_sort()).
 * @param[in] keys Key columns, as gcol_stable_sorted_order().
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out A new table with the columns of @p keys, rows reordered.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_stable_sorted_order().
 * @note Synchronizes @p stream to size STRING outputs and to count nulls of views whose
 *       null count is ::GCOL_UNKNOWN_NULL_COUNT.
 * @note This version returns the stable result, the same as gcol_stable_sort() (tied rows
 *       in input order). Do not rely on it: a later version may order ties differently.
 */
gcol_status gcol_sort(gcol_table_view keys, const gcol_order *order,
                      const gcol_null_order *null_order, gcol_table **out, gcol_stream stream,
                      gcol_mr *mr);

/**
 * @brief A sorted copy of the rows of @p keys, ties in input order.
 * @param[in] keys Key columns, as gcol_stable_sorted_order().
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out A new table with the columns of @p keys, rows reordered.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_sort().
 * @note As gcol_sort().
 */
gcol_status gcol_stable_sort(gcol_table_view keys, const gcol_order *order,
                             const gcol_null_order *null_order, gcol_table **out,
                             gcol_stream stream, gcol_mr *mr);

/**
 * @brief A sorted copy of one column, without building a table view or unwrapping a
 *        table: gcol_stable_sort() of a table of @p input alone (tied values are equal,
 *        so stability shows only between -0.0 and +0.0, which keep their input order).
 * @code
 * gcol_column *sorted = NULL;
 * gcol_column_sort(gcol_column_get_view(prices), GCOL_ORDER_DESCENDING, GCOL_NULLS_AFTER,
 *                  &sorted, stream, NULL);
 * @endcode
 * @param[in] input A fixed-width or STRING column (sliced or not).
 * @param[in] order Ascending or descending.
 * @param[in] null_order Where nulls go in the output.
 * @param[out] out The sorted column; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_stable_sorted_order(): ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL
 *         @p out, bad enum values, malformed view), ::GCOL_ERROR_UNSUPPORTED (LIST,
 *         STRUCT, DICTIONARY32), ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes as gcol_sort(). The caller owns *out (gcol_column_free()).
 */
gcol_status gcol_column_sort(gcol_column_view input, gcol_order order, gcol_null_order null_order,
                             gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief The rows of @p values reordered by sorting @p keys (stability not promised).
 * @param[in] values Payload columns of any layout gcol_gather() takes (fixed-width, STRING,
 *                   LIST, STRUCT, nested), `values.num_rows == keys.num_rows`.
 * @param[in] keys Key columns, as gcol_stable_sorted_order().
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out A new table with the columns of @p values, rows reordered.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_stable_sorted_order(), plus ::GCOL_ERROR_SIZE_MISMATCH (row counts differ)
 *         and ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32 payload columns).
 * @note As gcol_sort(): synchronizations as listed there, and this version returns the
 *       stable result, the same as gcol_stable_sort_by_key() (tied rows in input order).
 *       Do not rely on it: a later version may order ties differently.
 */
gcol_status gcol_sort_by_key(gcol_table_view values, gcol_table_view keys, const gcol_order *order,
                             const gcol_null_order *null_order, gcol_table **out,
                             gcol_stream stream, gcol_mr *mr);

/**
 * @brief The rows of @p values reordered by sorting @p keys, ties in input order.
 * @param[in] values Payload columns, as gcol_sort_by_key().
 * @param[in] keys Key columns, as gcol_stable_sorted_order().
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out A new table with the columns of @p values, rows reordered.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_sort_by_key().
 * @note As gcol_sort().
 */
gcol_status gcol_stable_sort_by_key(gcol_table_view values, gcol_table_view keys,
                                    const gcol_order *order, const gcol_null_order *null_order,
                                    gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief The permutation that sorts @p keys within each segment, ties in input order.
 *
 * Segment j holds rows `[segment_offsets[j], segment_offsets[j+1])`; rows never move between
 * segments. Rows before the first offset form one segment of their own, and so do rows at
 * or after the last offset.
 * @param[in] keys Key columns, as gcol_stable_sorted_order().
 * @param[in] segment_offsets Any integer column without nulls, non-decreasing values in
 *                            `[0, keys.num_rows]` (not checked on the device: unsorted
 *                            offsets give an unspecified, but in-bounds, permutation).
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out Row indices (INT32 or INT64 as gcol_stable_sorted_order()).
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_stable_sorted_order(), plus ::GCOL_ERROR_TYPE_MISMATCH (offsets not
 *         integer) and ::GCOL_ERROR_INVALID_ARGUMENT (offsets with nulls).
 */
gcol_status gcol_segmented_sorted_order(gcol_table_view keys, gcol_column_view segment_offsets,
                                        const gcol_order *order, const gcol_null_order *null_order,
                                        gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief The rows of @p values reordered by sorting @p keys within each segment (stable);
 *        segments as gcol_segmented_sorted_order().
 * @param[in] values Payload columns, as gcol_sort_by_key().
 * @param[in] keys Key columns, as gcol_stable_sorted_order().
 * @param[in] segment_offsets Segment starts, as gcol_segmented_sorted_order().
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out A new table with the columns of @p values, rows reordered.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_segmented_sorted_order() and gcol_sort_by_key().
 * @note As gcol_sort().
 */
gcol_status gcol_segmented_sort_by_key(gcol_table_view values, gcol_table_view keys,
                                       gcol_column_view segment_offsets, const gcol_order *order,
                                       const gcol_null_order *null_order, gcol_table **out,
                                       gcol_stream stream, gcol_mr *mr);

/** @brief How gcol_rank() numbers tied rows. */
typedef enum gcol_rank_method {
  GCOL_RANK_FIRST = 0,   /**< 1, 2, 3 in input order among ties (stable order). */
  GCOL_RANK_AVERAGE = 1, /**< The mean of the ranks of the tie group (FLOAT64 output). */
  GCOL_RANK_MIN = 2,     /**< The lowest rank of the tie group. */
  GCOL_RANK_MAX = 3,     /**< The highest rank of the tie group. */
  GCOL_RANK_DENSE = 4    /**< Like MIN, but groups numbered 1, 2, 3 without gaps. */
} gcol_rank_method;

/** @brief Where gcol_rank() puts null rows. */
typedef enum gcol_rank_nulls {
  GCOL_RANK_NULLS_KEEP = 0,  /**< Null rows get a null rank and are not counted. */
  GCOL_RANK_NULLS_TOP = 1,   /**< Nulls ranked first (all tied with each other), ascending
                                  or descending (pandas' `na_option='top'`). */
  GCOL_RANK_NULLS_BOTTOM = 2 /**< Nulls ranked last (all tied with each other), ascending or
                                  descending (pandas' `na_option='bottom'`). */
} gcol_rank_nulls;

/**
 * @brief The 1-based rank of every row of @p column in the order @p order (pandas' rank).
 * @param[in] column A sortable column (fixed-width or STRING).
 * @param[in] method How ties are numbered.
 * @param[in] order Ascending ranks the smallest value 1.
 * @param[in] nulls Null handling.
 * @param[in] percentage If true, ranks are divided by the number of ranked rows (for
 *                       ::GCOL_RANK_DENSE: by the number of distinct ranked values), giving
 *                       values in (0, 1].
 * @param[out] out FLOAT64 for ::GCOL_RANK_AVERAGE or @p percentage, otherwise INT32 (INT64
 *                 when the row count exceeds INT32_MAX). With ::GCOL_RANK_NULLS_KEEP, null
 *                 where @p column is null.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_UNSUPPORTED,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream when the null count of @p column is unknown, and as
 *       gcol_stable_sorted_order() for STRING.
 */
gcol_status gcol_rank(gcol_column_view column, gcol_rank_method method, gcol_order order,
                      gcol_rank_nulls nulls, bool percentage, gcol_column **out, gcol_stream stream,
                      gcol_mr *mr);

/**
 * @brief Whether the rows of @p keys are in the order given (ties allowed).
 * @param[in] keys At most ::GCOL_MAX_COMPARE_COLUMNS key columns.
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[out] out True if every row compares <= its successor; true for 0 or 1 rows.
 * @param[in] stream Stream of all work.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_SIZE_MISMATCH,
 *         ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream to return the answer.
 */
gcol_status gcol_is_sorted(gcol_table_view keys, const gcol_order *order,
                           const gcol_null_order *null_order, bool *out, gcol_stream stream);

/**
 * @brief The @p k first values of @p column in order @p order (the largest k for
 *        ::GCOL_ORDER_DESCENDING), nulls last; ties keep input order.
 * @param[in] column A sortable column (fixed-width or STRING).
 * @param[in] k Rows wanted (>= 0); more than the column has gives all rows.
 * @param[in] order Ascending takes the smallest values, descending the largest.
 * @param[out] out A new column of `min(k, column.size)` rows.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_stable_sorted_order().
 */
gcol_status gcol_top_k(gcol_column_view column, int64_t k, gcol_order order, gcol_column **out,
                       gcol_stream stream, gcol_mr *mr);

/**
 * @brief The row indices of the @p k first values of @p column in order @p order, nulls
 *        last; as gcol_top_k() but returns the indices.
 * @param[in] column A sortable column (fixed-width or STRING).
 * @param[in] k Rows wanted (>= 0); more than the column has gives all rows.
 * @param[in] order Ascending takes the smallest values, descending the largest.
 * @param[out] out `min(k, column.size)` row indices (INT32, or INT64 above INT32_MAX rows).
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_stable_sorted_order().
 */
gcol_status gcol_top_k_order(gcol_column_view column, int64_t k, gcol_order order,
                             gcol_column **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_SORTING_H */
