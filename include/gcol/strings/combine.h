/**
 * @file strings/combine.h
 * @ingroup gcol_strings
 * @brief Joining strings: several STRING columns row by row with a separator (libcudf's
 *        concatenate), every row of a column into one string (libcudf's join_strings), and
 *        the strings of each list of a LIST of STRING column (libcudf's
 *        join_list_elements).
 *
 * Each result is Python's `sep.join(items)`: the items in order with the separator between
 * two neighbours (none before the first or after the last; no item gives "").
 *
 * Nulls (each rule documented at its function; "" is a valid string, distinct from null):
 * - a null item is replaced by the null replacement when one is given; without one, a null
 *   item makes its output row null (rows of several columns, lists), except in
 *   gcol_strings_join(), which skips it (pandas' `Series.str.cat()`);
 * - a null separator row, or a null list row, gives a null output row.
 * Null output rows are empty. Outputs start at offset 0, with INT32 offsets up to
 * gcol_large_offsets_threshold() bytes and INT64 above, and are sized exactly (a pass that
 * counts each row's bytes, a scan, a pass that writes them).
 *
 * Synchronization: every operation synchronizes @p stream once to learn the output's size
 * and null count (and, where a view's null count is unknown, to count it). Work layout: a
 * thread per output row (per input row for gcol_strings_join()).
 *
 * @code
 * gcol_scalar *dash = NULL;
 * gcol_scalar_create_cstring("-", &dash);
 * gcol_column_view parts[3] = {year, month, day};
 * gcol_table_view t;
 * gcol_table_view_make(parts, 3, &t);
 * gcol_column *dates = NULL, *all = NULL;
 * gcol_strings_concatenate(t, dash, NULL, &dates, stream, NULL);   // "2024-05-01"
 * gcol_strings_join(dates, dash, NULL, &all, stream, NULL);        // one row
 * @endcode
 */
#ifndef GCOL_STRINGS_COMBINE_H
#define GCOL_STRINGS_COMBINE_H

/** @addtogroup gcol_strings
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief Row i of the output joins row i of every column of @p columns, in order, with
 *        @p separator between them.
 *
 * A null in a column makes the output row null, unless @p null_replacement is given: then
 * it stands for the null (separators around it as around any item). This is libcudf's
 * concatenate with a scalar separator.
 * @param[in] columns At least one STRING column, all of `columns.num_rows` rows (each
 *                    sliced or not; INT32 or INT64 offsets).
 * @param[in] separator A valid STRING scalar (may be "").
 * @param[in] null_replacement NULL, or a valid STRING scalar (may be "").
 * @param[out] out The joined STRING column of `columns.num_rows` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, no column, a null scalar,
 *         malformed view); ::GCOL_ERROR_TYPE_MISMATCH (a column or scalar not STRING);
 *         ::GCOL_ERROR_SIZE_MISMATCH (a column of another size); ::GCOL_ERROR_OVERFLOW (an
 *         output too large to address); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the column views and the scalars to the device (temporaries); synchronizes
 *       @p stream once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_concatenate(gcol_table_view columns, const gcol_scalar *separator,
                                     const gcol_scalar *null_replacement, gcol_column **out,
                                     gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_strings_concatenate(), with row i's separator taken from row i of
 *        @p separators; a null separator gives a null output row.
 *
 * libcudf's concatenate with a separators column skips null items instead; gcol keeps one
 * rule for both forms (pass a "" @p null_replacement to drop a null's text, its separator
 * stays).
 * @param[in] columns At least one STRING column, all of `columns.num_rows` rows.
 * @param[in] separators A STRING column of `columns.num_rows` rows (sliced or not).
 * @param[in] null_replacement NULL, or a valid STRING scalar.
 * @param[out] out The joined STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_concatenate().
 * @note As gcol_strings_concatenate().
 */
gcol_status gcol_strings_concatenate_column(gcol_table_view columns, gcol_column_view separators,
                                            const gcol_scalar *null_replacement, gcol_column **out,
                                            gcol_stream stream, gcol_mr *mr);

/**
 * @brief Joins every row of @p input, in order, into one string with @p separator between
 *        two of them: Python's `separator.join(rows)`.
 *
 * Null rows are skipped (pandas' `Series.str.cat()`), or replaced by @p null_replacement
 * when it is given. The output is one row: "" for an input of 0 rows, null when every row
 * of a non-empty input is null and no replacement is given (as libcudf's join_strings).
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] separator A valid STRING scalar (may be "").
 * @param[in] null_replacement NULL, or a valid STRING scalar.
 * @param[out] out A STRING column of one row; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a null scalar, malformed
 *         view); ::GCOL_ERROR_TYPE_MISMATCH (input or a scalar not STRING);
 *         ::GCOL_ERROR_OVERFLOW; ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the scalars to the device (a temporary); synchronizes @p stream to count the
 *       input's nulls when unknown and once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_join(gcol_column_view input, const gcol_scalar *separator,
                              const gcol_scalar *null_replacement, gcol_column **out,
                              gcol_stream stream, gcol_mr *mr);

/**
 * @brief Row i of the output joins the strings of list row i of @p lists with
 *        @p separator between them (libcudf's join_list_elements).
 *
 * A null list row gives a null output row; an empty list gives "". A null string in a list
 * makes the output row null, unless @p null_replacement is given: then it stands for it.
 * @param[in] lists A LIST column whose values are STRING (either sliced or not; INT32 or
 *                  INT64 offsets at both levels).
 * @param[in] separator A valid STRING scalar (may be "").
 * @param[in] null_replacement NULL, or a valid STRING scalar.
 * @param[out] out A STRING column of `lists.size` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a null scalar, malformed
 *         view); ::GCOL_ERROR_TYPE_MISMATCH (lists not LIST of STRING, a scalar not
 *         STRING); ::GCOL_ERROR_OVERFLOW; ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the scalars to the device (a temporary); synchronizes @p stream once to learn
 *       the output size. The caller owns *out.
 */
gcol_status gcol_strings_join_lists(gcol_column_view lists, const gcol_scalar *separator,
                                    const gcol_scalar *null_replacement, gcol_column **out,
                                    gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_strings_join_lists(), with list row i joined by row i of @p separators; a
 *        null separator gives a null output row.
 * @param[in] lists A LIST column whose values are STRING.
 * @param[in] separators A STRING column of `lists.size` rows (sliced or not).
 * @param[in] null_replacement NULL, or a valid STRING scalar.
 * @param[out] out A STRING column of `lists.size` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_join_lists(), plus ::GCOL_ERROR_TYPE_MISMATCH (separators not
 *         STRING) and ::GCOL_ERROR_SIZE_MISMATCH (sizes differ).
 * @note As gcol_strings_join_lists().
 */
gcol_status gcol_strings_join_lists_column(gcol_column_view lists, gcol_column_view separators,
                                           const gcol_scalar *null_replacement, gcol_column **out,
                                           gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_COMBINE_H */
