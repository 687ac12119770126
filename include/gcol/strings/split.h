/**
 * @file strings/split.h
 * @ingroup gcol_strings
 * @brief Splitting each row of a STRING column into pieces: into a table of columns
 *        (libcudf's split / rsplit) or into a LIST of STRING column (libcudf's
 *        split_record / rsplit_record).
 *
 * Semantics are Python's `str.split(sep, maxsplit)` and `str.rsplit(sep, maxsplit)`:
 * - With a delimiter (a STRING scalar, not ""), each row is cut at its non-overlapping
 *   occurrences, found left to right (split) or right to left (rsplit), at most
 *   @p max_splits of them: a row gives (occurrences cut) + 1 pieces, "" included
 *   (`"a,,b".split(",")` is `["a", "", "b"]`, `"".split(",")` is `[""]`). An occurrence
 *   counts where it begins at a character boundary, as in strings/find.h.
 * - Without one (NULL, or a "" scalar, as libcudf), runs of whitespace separate the
 *   pieces and whitespace at either end gives none (`" a  b ".split()` is `["a", "b"]`;
 *   a row of only whitespace, or "", gives no piece). Once @p max_splits pieces are cut,
 *   the rest of the row is the last piece, without its leading whitespace (split) or
 *   trailing whitespace (rsplit) but otherwise as it was (`"a b  c ".split(None, 1)` is
 *   `["a", "b  c "]`). Whitespace is Python's str.isspace(), as gcol_strings_strip().
 * - @p max_splits is Python's maxsplit: -1 for all, 0 for none (a row is one piece;
 *   without a delimiter, the row without its leading or trailing whitespace). libcudf
 *   reads 0 as "all": gcol follows Python.
 *
 * Characters are UTF-8 code points decoded as gcol/utf8.h decodes them (an invalid byte is
 * one character, never whitespace).
 *
 * Nulls: a null row gives no piece (a null list row; nulls in every column of the table);
 * "" is a valid row. Outputs start at offset 0 with INT32 offsets up to
 * gcol_large_offsets_threshold() bytes (list values) and INT64 above, sized exactly.
 *
 * Work layout: a thread per string.
 *
 * @code
 * gcol_scalar *comma = NULL;
 * gcol_scalar_create_cstring(",", &comma);
 * gcol_table *parts = NULL;      // "a,b,c" -> "a" | "b" | "c"
 * gcol_column *lists = NULL;     // "a,b,c" -> ["a", "b,c"]
 * gcol_strings_split(text, comma, -1, &parts, stream, NULL);
 * gcol_strings_split_record(text, comma, 1, &lists, stream, NULL);
 * @endcode
 */
#ifndef GCOL_STRINGS_SPLIT_H
#define GCOL_STRINGS_SPLIT_H

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
 * @brief Splits each row at @p delimiter (or at whitespace), left to right, into a table:
 *        column j holds each row's piece j.
 *
 * The table has as many columns as the most pieces of any row, and at least one: a row
 * with fewer pieces (a null row: none) is null in the columns past its last piece. Where no
 * row has a piece (no rows, every row null, or only whitespace without a delimiter) the
 * table is one column of nulls.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] delimiter NULL or a "" scalar: runs of whitespace; else a valid STRING scalar.
 * @param[in] max_splits Splits per row at most (Python's maxsplit), or -1 for all.
 * @param[out] out The table of STRING columns of `input.size` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a null scalar,
 *         max_splits < -1, malformed view); ::GCOL_ERROR_TYPE_MISMATCH (input or delimiter
 *         not STRING); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the delimiter to the device (a temporary); synchronizes @p stream to learn
 *       the pieces and their bytes, and once more per output column (a gather of the
 *       pieces). The caller owns *out.
 */
gcol_status gcol_strings_split(gcol_column_view input, const gcol_scalar *delimiter,
                               int64_t max_splits, gcol_table **out, gcol_stream stream,
                               gcol_mr *mr);

/**
 * @brief As gcol_strings_split(), splitting from the right (Python's `str.rsplit`): with
 *        @p max_splits, the pieces cut are the last ones. Column j still holds each row's
 *        piece j counted from the left; rows with fewer pieces are null on the right.
 * @param[in] input A STRING column.
 * @param[in] delimiter As gcol_strings_split().
 * @param[in] max_splits As gcol_strings_split().
 * @param[out] out The table; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_split().
 * @note As gcol_strings_split().
 */
gcol_status gcol_strings_rsplit(gcol_column_view input, const gcol_scalar *delimiter,
                                int64_t max_splits, gcol_table **out, gcol_stream stream,
                                gcol_mr *mr);

/**
 * @brief Splits each row at @p delimiter (or at whitespace), left to right, into a list:
 *        row i of the output is the list of row i's pieces.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] delimiter NULL or a "" scalar: runs of whitespace; else a valid STRING scalar.
 * @param[in] max_splits Splits per row at most (Python's maxsplit), or -1 for all.
 * @param[out] out A LIST column of `input.size` rows whose values are a STRING column
 *                 without nulls; a row is null where the input row is null (and then an
 *                 empty list), and an empty list where a row has no piece. NULL on
 *                 failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_split().
 * @note Copies the delimiter to the device (a temporary); synchronizes @p stream twice (the
 *       number of pieces, their bytes). The caller owns *out.
 */
gcol_status gcol_strings_split_record(gcol_column_view input, const gcol_scalar *delimiter,
                                      int64_t max_splits, gcol_column **out, gcol_stream stream,
                                      gcol_mr *mr);

/**
 * @brief As gcol_strings_split_record(), splitting from the right (Python's
 *        `str.rsplit`); each list holds its pieces left to right.
 * @param[in] input A STRING column.
 * @param[in] delimiter As gcol_strings_split_record().
 * @param[in] max_splits As gcol_strings_split_record().
 * @param[out] out The LIST column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_split().
 * @note As gcol_strings_split_record().
 */
gcol_status gcol_strings_rsplit_record(gcol_column_view input, const gcol_scalar *delimiter,
                                       int64_t max_splits, gcol_column **out, gcol_stream stream,
                                       gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_SPLIT_H */
