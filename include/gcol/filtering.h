/**
 * @file filtering.h
 * @ingroup gcol_filtering
 * @brief Filtering: keep rows by a boolean mask, drop rows with nulls or NaNs in key
 *        columns, remove duplicate rows (hash-based distinct, consecutive unique) and count
 *        distinct rows.
 *
 * Every function here keeps whole rows of a table: the selected row map is computed once,
 * then each column (fixed-width, STRING, LIST, STRUCT, nested at any depth) is copied
 * through it. Outputs start at offset 0; STRING and LIST outputs use INT32 offsets up to
 * gcol_large_offsets_threshold() elements and INT64 above.
 *
 * @code
 * // keep the rows where `flags` (BOOL8) is true; a null flag drops the row
 * gcol_table *kept = NULL;
 * gcol_status st = gcol_apply_boolean_mask(table_view, flags_view, &kept, stream, NULL);
 *
 * // one row per distinct (a, b), the first of each in input order
 * int32_t keys[2] = {0, 1};
 * gcol_table *unique_rows = NULL;
 * st = gcol_distinct(table_view, keys, 2, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &unique_rows,
 *                    stream, NULL);
 * @endcode
 */
#ifndef GCOL_FILTERING_H
#define GCOL_FILTERING_H

/** @addtogroup gcol_filtering
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief Which row of a group of equal rows distinct() and unique() keep. */
typedef enum gcol_duplicate_keep {
  GCOL_KEEP_ANY = 0,   /**< Any one row of each group (the cheapest). */
  GCOL_KEEP_FIRST = 1, /**< The row with the smallest index. */
  GCOL_KEEP_LAST = 2,  /**< The row with the largest index. */
  GCOL_KEEP_NONE = 3   /**< Only rows that have no duplicate at all. */
} gcol_duplicate_keep;

/** @brief Whether two null key values are equal. */
typedef enum gcol_null_equality {
  GCOL_NULLS_EQUAL = 0,  /**< Nulls equal each other (and nothing else). */
  GCOL_NULLS_UNEQUAL = 1 /**< A row with a null key equals no other row. */
} gcol_null_equality;

/**
 * @brief Keeps the rows of @p input whose @p boolean_mask value is true (non-zero); rows
 *        where the mask is false or null are dropped. Rows keep their input order.
 * @param[in] input Any columns (fixed-width, STRING, LIST, STRUCT; sliced or not).
 * @param[in] boolean_mask A BOOL8 column of `input.num_rows` rows.
 * @param[out] out The kept rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed views);
 *         ::GCOL_ERROR_TYPE_MISMATCH (mask not BOOL8); ::GCOL_ERROR_SIZE_MISMATCH (mask and
 *         table sizes differ); ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32 columns);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream to learn the output size. The caller owns *out.
 * @note Memory: the output is allocated at its exact size (never for the worst case of
 *       every row kept). The price is one extra read of the flags (1 byte per row) before
 *       the synchronization. A single fixed-width column without nulls under a mask without
 *       nulls takes a two-pass path: tile counts (flags only) and their scan, then one pass
 *       that reads the flags and the kept values and writes them in order; its temporary
 *       memory is 8 bytes per 2048 rows. Other inputs build a row map (8 bytes per kept
 *       row, temporary) and gather every column through it.
 */
gcol_status gcol_apply_boolean_mask(gcol_table_view input, gcol_column_view boolean_mask,
                                    gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief gcol_apply_boolean_mask() of one column: the rows of @p input whose
 *        @p boolean_mask value is true, in input order, without building a table view or
 *        unwrapping a table.
 * @param[in] input Any column but DICTIONARY32 (sliced or not).
 * @param[in] boolean_mask A BOOL8 column of `input.size` rows; false and null rows drop.
 * @param[out] out The kept rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_apply_boolean_mask(): ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL
 *         @p out, malformed views); ::GCOL_ERROR_TYPE_MISMATCH (mask not BOOL8);
 *         ::GCOL_ERROR_SIZE_MISMATCH (mask and column sizes differ);
 *         ::GCOL_ERROR_UNSUPPORTED; ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream to learn the output size. The caller owns *out
 *       (gcol_column_free()).
 */
gcol_status gcol_column_apply_boolean_mask(gcol_column_view input, gcol_column_view boolean_mask,
                                           gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Keeps the rows of @p input that have at least @p keep_threshold valid (non-null)
 *        values among the key columns.
 * @param[in] input Any columns.
 * @param[in] keys Host array of @p num_keys column indices into @p input (may repeat).
 * @param[in] num_keys Number of key columns (>= 1).
 * @param[in] keep_threshold Valid keys a row needs, 0..num_keys (num_keys: drop a row with
 *                           any null key; 1: drop a row only if every key is null).
 * @param[out] out The kept rows in input order; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, num_keys < 1, a key index
 *         out of range, keep_threshold outside 0..num_keys); ::GCOL_ERROR_UNSUPPORTED;
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream. The caller owns *out.
 */
gcol_status gcol_drop_nulls(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                            int64_t keep_threshold, gcol_table **out, gcol_stream stream,
                            gcol_mr *mr);

/**
 * @brief Keeps the rows of @p input that have at least @p keep_threshold non-NaN values
 *        among the key columns. A null key value is not NaN (it counts toward the
 *        threshold); use gcol_drop_nulls() to drop nulls.
 * @param[in] input Any columns.
 * @param[in] keys Host array of @p num_keys indices of FLOAT32 or FLOAT64 columns.
 * @param[in] num_keys Number of key columns (>= 1).
 * @param[in] keep_threshold Non-NaN keys a row needs, 0..num_keys.
 * @param[out] out The kept rows in input order; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_drop_nulls(), plus ::GCOL_ERROR_TYPE_MISMATCH (a key that is not a float).
 * @note Synchronizes @p stream. The caller owns *out.
 */
gcol_status gcol_drop_nans(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                           int64_t keep_threshold, gcol_table **out, gcol_stream stream,
                           gcol_mr *mr);

/**
 * @brief Removes duplicate rows by the key columns with a hash table: one row (by @p keep)
 *        of each group of rows with equal keys.
 *
 * Equality: fixed-width keys by value, FLOAT32/FLOAT64 with -0.0 equal to 0.0 and every
 * NaN equal to every other NaN; STRING keys by bytes ("" and "\0" differ); null keys per
 * @p nulls. With ::GCOL_NULLS_UNEQUAL a row with any null key is unique, so it is always
 * kept (also with ::GCOL_KEEP_NONE).
 *
 * Output order: the kept rows in ascending input order, for every @p keep (so
 * ::GCOL_KEEP_FIRST gives the groups in order of first occurrence).
 * @param[in] input Any columns; only the key columns need to be hashable.
 * @param[in] keys Host array of @p num_keys indices of fixed-width or STRING columns.
 * @param[in] num_keys Number of key columns (>= 1).
 * @param[in] keep Which row of each group to keep.
 * @param[in] nulls Whether null keys equal each other.
 * @param[out] out The kept rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, bad key index, bad
 *         @p keep or @p nulls); ::GCOL_ERROR_TYPE_MISMATCH (a LIST, STRUCT or DICTIONARY32
 *         key); ::GCOL_ERROR_OVERFLOW (hash table overflow or a size past 2^62);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream. The caller owns *out. Temporary memory: about 16 bytes a
 *       slot of a table of at least twice the rows, plus 9 bytes a row.
 */
gcol_status gcol_distinct(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                          gcol_duplicate_keep keep, gcol_null_equality nulls, gcol_table **out,
                          gcol_stream stream, gcol_mr *mr);

/**
 * @brief gcol_distinct() of one column, its own key: one row of each group of equal
 *        values, kept rows in ascending input order, with gcol_distinct()'s equality
 *        (-0.0 equals 0.0, NaNs equal, strings by bytes, nulls per @p nulls).
 * @code
 * gcol_column *regions = NULL;   // each region once, in order of first occurrence
 * gcol_column_distinct(gcol_column_get_view(region), GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL,
 *                      &regions, stream, NULL);
 * @endcode
 * @param[in] input A fixed-width or STRING column (sliced or not).
 * @param[in] keep Which row of each group to keep.
 * @param[in] nulls Whether nulls equal each other (::GCOL_NULLS_UNEQUAL keeps every null).
 * @param[out] out The kept rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_distinct(): ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out,
 *         malformed view, bad @p keep or @p nulls); ::GCOL_ERROR_TYPE_MISMATCH (LIST,
 *         STRUCT or DICTIONARY32); ::GCOL_ERROR_OVERFLOW; ::GCOL_ERROR_OUT_OF_MEMORY; a
 *         CUDA status.
 * @note Synchronizes @p stream. The caller owns *out (gcol_column_free()).
 */
gcol_status gcol_column_distinct(gcol_column_view input, gcol_duplicate_keep keep,
                                 gcol_null_equality nulls, gcol_column **out, gcol_stream stream,
                                 gcol_mr *mr);

/**
 * @brief Removes consecutive duplicate rows: of each run of adjacent rows with equal keys,
 *        keeps one row by @p keep (::GCOL_KEEP_ANY keeps the first). Equality as
 *        gcol_distinct(). Rows keep their input order.
 * @param[in] input Any columns.
 * @param[in] keys Host array of @p num_keys indices of fixed-width or STRING columns.
 * @param[in] num_keys Number of key columns (>= 1).
 * @param[in] keep Which row of each run to keep.
 * @param[in] nulls Whether null keys equal each other.
 * @param[out] out The kept rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_distinct() (no overflow of a hash table).
 * @note Synchronizes @p stream. The caller owns *out.
 */
gcol_status gcol_unique(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                        gcol_duplicate_keep keep, gcol_null_equality nulls, gcol_table **out,
                        gcol_stream stream, gcol_mr *mr);

/**
 * @brief Counts the distinct rows of @p keys (every column is a key), with the equality of
 *        gcol_distinct(). With ::GCOL_NULLS_UNEQUAL each row holding a null counts once.
 * @param[in] keys Fixed-width or STRING columns.
 * @param[in] nulls Whether null keys equal each other.
 * @param[out] out The count (host).
 * @param[in] stream Stream of the work.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, no columns, bad @p nulls);
 *         ::GCOL_ERROR_TYPE_MISMATCH; ::GCOL_ERROR_OVERFLOW; ::GCOL_ERROR_OUT_OF_MEMORY;
 *         a CUDA status.
 * @note Synchronizes @p stream. Temporaries come from the default resource.
 */
gcol_status gcol_distinct_count(gcol_table_view keys, gcol_null_equality nulls, int64_t *out,
                                gcol_stream stream);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_FILTERING_H */
