/**
 * @file strings/edit.h
 * @ingroup gcol_strings
 * @brief Edits of STRING columns that give a new STRING column: replace (one target, or
 *        several at once), slice by characters, strip, pad and zfill, repeat, reverse.
 *
 * Semantics are Python's str methods (`str.replace`, `s[start:stop:step]`, `str.strip`,
 * `str.rjust` / `ljust` / `center`, `str.zfill`, `s * n`, `s[::-1]`). Characters are UTF-8
 * code points decoded as gcol/utf8.h decodes them: a byte that does not start a valid
 * sequence is one character of its own, copied unchanged. Literal targets match where
 * they begin at a character boundary (for a target that is valid UTF-8, every byte-wise
 * match does), as in strings/find.h.
 *
 * Nulls: an output row is null where the input row is null (and, for
 * gcol_strings_repeat_column(), where the row's count is null); "" is a valid row and stays
 * distinct from null. Null rows are empty in the output. The output starts at offset 0,
 * with INT32 offsets up to gcol_large_offsets_threshold() bytes and INT64 above; its chars
 * are sized exactly (a pass that counts each row's bytes, a scan, then a pass that writes
 * them).
 *
 * Synchronization: every operation synchronizes @p stream once to learn the output's size
 * (and, where a view's null count is unknown, to count it). Work layout: a thread per
 * string.
 *
 * @code
 * gcol_scalar *target = NULL, *repl = NULL;
 * gcol_scalar_create_cstring("colour", &target);
 * gcol_scalar_create_cstring("color", &repl);
 * gcol_column *fixed = NULL, *head = NULL, *padded = NULL;
 * gcol_strings_replace(text, target, repl, -1, &fixed, stream, NULL);
 * gcol_strings_slice(text, 0, 3, 1, &head, stream, NULL);                  // s[0:3]
 * gcol_strings_pad(text, 8, GCOL_SIDE_LEFT, '*', &padded, stream, NULL);   // s.rjust(8, '*')
 * @endcode
 */
#ifndef GCOL_STRINGS_EDIT_H
#define GCOL_STRINGS_EDIT_H

/** @addtogroup gcol_strings
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief Python's `None` for a start, stop or step of gcol_strings_slice(): the default. */
#define GCOL_SLICE_NONE INT64_MIN

/** @brief The side(s) of a row that gcol_strings_strip() strips or gcol_strings_pad() pads. */
typedef enum gcol_strings_side {
  GCOL_SIDE_LEFT = 0,  /**< The start: str.lstrip(); padding before the text, str.rjust(). */
  GCOL_SIDE_RIGHT = 1, /**< The end: str.rstrip(); padding after the text, str.ljust(). */
  GCOL_SIDE_BOTH = 2   /**< Both ends: str.strip(); padding around the text, str.center(). */
} gcol_strings_side;

/**
 * @brief Replaces occurrences of @p target by @p replacement, left to right and
 *        non-overlapping, at most @p max_count times per row: Python's
 *        `str.replace(target, replacement, max_count)`.
 *
 * An empty target matches at every character boundary, the end included
 * (`"ab".replace("", "-")` is `"-a-b-"`).
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] target A valid STRING scalar.
 * @param[in] replacement A valid STRING scalar (may be "": the matches are removed).
 * @param[in] max_count Replacements per row at most, or -1 for all (0 copies the rows).
 * @param[out] out The edited STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, a null scalar,
 *         max_count < -1, malformed view); ::GCOL_ERROR_TYPE_MISMATCH (input or a scalar not
 *         STRING); ::GCOL_ERROR_OVERFLOW (an output too large to address);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the two scalars to the device (a temporary); synchronizes @p stream once to
 *       learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_replace(gcol_column_view input, const gcol_scalar *target,
                                 const gcol_scalar *replacement, int64_t max_count,
                                 gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Replaces several targets at once: at each character boundary, left to right, the
 *        first row of @p targets that begins there is replaced by the same row of
 *        @p replacements and the scan resumes after it (non-overlapping); where none
 *        matches, the byte is copied.
 *
 * An empty target matches at every character boundary (as in gcol_strings_replace(); a
 * target after it in the list never matches). One target gives gcol_strings_replace()
 * with max_count -1.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] targets A STRING column without nulls (0 rows: the rows are copied).
 * @param[in] replacements A STRING column without nulls, of `targets.size` rows or of 1 row
 *                         (the replacement of every target).
 * @param[out] out The edited STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a null in @p targets or
 *         @p replacements, malformed view); ::GCOL_ERROR_TYPE_MISMATCH (a view not STRING);
 *         ::GCOL_ERROR_SIZE_MISMATCH (replacements has neither targets.size rows nor 1);
 *         ::GCOL_ERROR_OVERFLOW; ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream to count the nulls of @p targets and @p replacements when
 *       their null counts are unknown, and once to learn the output size. Rows are matched
 *       against each target in turn: meant for a few targets. The caller owns *out.
 */
gcol_status gcol_strings_replace_multiple(gcol_column_view input, gcol_column_view targets,
                                          gcol_column_view replacements, gcol_column **out,
                                          gcol_stream stream, gcol_mr *mr);

/**
 * @brief The characters `s[start:stop:step]` of each row, as Python slices a str: negative
 *        positions count from the end of the row, out-of-range ones are clamped, a
 *        negative step walks backwards.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] start First character, or ::GCOL_SLICE_NONE (0, or the last character when
 *                  @p step is negative).
 * @param[in] stop Character to stop before, or ::GCOL_SLICE_NONE (past the end, or before
 *                 the first character when @p step is negative).
 * @param[in] step Non-zero stride in characters, or ::GCOL_SLICE_NONE (1).
 * @param[out] out The sliced STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, step 0, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA
 *         status.
 * @note Synchronizes @p stream once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_slice(gcol_column_view input, int64_t start, int64_t stop, int64_t step,
                               gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_strings_slice(), with row i's start and stop taken from row i of
 *        @p starts and @p stops.
 * @param[in] input A STRING column.
 * @param[in] starts An integer column (any integer type) of `input.size` rows; a null
 *                   entry, like the value ::GCOL_SLICE_NONE, is Python's `None`.
 * @param[in] stops As @p starts.
 * @param[in] step As gcol_strings_slice(), for every row.
 * @param[out] out The sliced STRING column, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_slice(), plus ::GCOL_ERROR_TYPE_MISMATCH (starts or stops not an
 *         integer type) and ::GCOL_ERROR_SIZE_MISMATCH (their sizes differ from input's).
 * @note As gcol_strings_slice().
 */
gcol_status gcol_strings_slice_column(gcol_column_view input, gcol_column_view starts,
                                      gcol_column_view stops, int64_t step, gcol_column **out,
                                      gcol_stream stream, gcol_mr *mr);

/**
 * @brief Removes leading and/or trailing characters of a set: Python's `str.strip`,
 *        `str.lstrip`, `str.rstrip`.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] side ::GCOL_SIDE_LEFT, ::GCOL_SIDE_RIGHT or ::GCOL_SIDE_BOTH.
 * @param[in] characters NULL for whitespace (the characters for which Python's
 *                       str.isspace() is true: ASCII tab to carriage return, 0x1C-0x1F,
 *                       space, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
 *                       U+202F, U+205F, U+3000); else a valid STRING scalar whose
 *                       characters make the set ("" strips nothing).
 * @param[out] out The stripped STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, unknown @p side, a null
 *         scalar, malformed view); ::GCOL_ERROR_TYPE_MISMATCH (input or @p characters not
 *         STRING); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies @p characters to the device (a temporary); synchronizes @p stream once to
 *       learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_strip(gcol_column_view input, gcol_strings_side side,
                               const gcol_scalar *characters, gcol_column **out, gcol_stream stream,
                               gcol_mr *mr);

/**
 * @brief Pads each row shorter than @p width characters with @p fill_char up to @p width
 *        characters: before the text (::GCOL_SIDE_LEFT, `str.rjust`), after it
 *        (::GCOL_SIDE_RIGHT, `str.ljust`) or around it (::GCOL_SIDE_BOTH, `str.center`: the
 *        left gets `(width - length) / 2` characters, one more when both the padding and
 *        @p width are odd).
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] width Characters of a padded row; rows as long or longer (and every row when
 *                  @p width <= 0) are copied.
 * @param[in] side ::GCOL_SIDE_LEFT, ::GCOL_SIDE_RIGHT or ::GCOL_SIDE_BOTH.
 * @param[in] fill_char A Unicode code point (U+0000 to U+10FFFF, not a surrogate), written
 *                      in UTF-8.
 * @param[out] out The padded STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, unknown @p side, a
 *         surrogate or a value above U+10FFFF, malformed view); ::GCOL_ERROR_TYPE_MISMATCH
 *         (not STRING); ::GCOL_ERROR_OVERFLOW (an output too large to address);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_pad(gcol_column_view input, int64_t width, gcol_strings_side side,
                             uint32_t fill_char, gcol_column **out, gcol_stream stream,
                             gcol_mr *mr);

/**
 * @brief Pads each row shorter than @p width characters with '0' before the text, after a
 *        leading '+' or '-' (which stays first): Python's `str.zfill`.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] width Characters of a padded row (<= 0: every row is copied).
 * @param[out] out The padded STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_pad(), without its @p side and @p fill_char checks.
 * @note As gcol_strings_pad().
 */
gcol_status gcol_strings_zfill(gcol_column_view input, int64_t width, gcol_column **out,
                               gcol_stream stream, gcol_mr *mr);

/**
 * @brief Each row repeated @p count times, end to end: Python's `s * count` (a count <= 0
 *        gives "").
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] count Repetitions of every row.
 * @param[out] out The repeated STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OVERFLOW (an output too
 *         large to address); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_repeat(gcol_column_view input, int64_t count, gcol_column **out,
                                gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_strings_repeat(), row i repeated row i of @p counts times.
 * @param[in] input A STRING column.
 * @param[in] counts An integer column (any integer type; UINT64 values above INT64_MAX
 *                   count as negative) of `input.size` rows; a null count gives a null row.
 * @param[out] out The repeated STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_repeat(), plus ::GCOL_ERROR_TYPE_MISMATCH (counts not an integer
 *         type) and ::GCOL_ERROR_SIZE_MISMATCH (sizes differ).
 * @note As gcol_strings_repeat(); the output's mask (input AND counts) has its nulls
 *       counted, which synchronizes @p stream. The caller owns *out.
 */
gcol_status gcol_strings_repeat_column(gcol_column_view input, gcol_column_view counts,
                                       gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Each row's characters in reverse order: Python's `s[::-1]` (an invalid byte is one
 *        character, so a valid sequence is never split).
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[out] out The reversed STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA
 *         status.
 * @note Synchronizes @p stream once to learn the output size (the input's bytes of its
 *       valid rows). The caller owns *out.
 */
gcol_status gcol_strings_reverse(gcol_column_view input, gcol_column **out, gcol_stream stream,
                                 gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_EDIT_H */
