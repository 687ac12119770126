/**
 * @file strings/find.h
 * @ingroup gcol_strings
 * @brief Literal search in STRING columns: find / rfind (character positions within
 *        [start, stop)), contains, starts_with, ends_with and count of occurrences, each
 *        with one target for every row (a STRING scalar) or one target per row (a STRING
 *        column of the same size).
 *
 * Semantics are Python's str methods: an empty target is found at every character
 * boundary (`find` gives start, `count` gives characters + 1, `contains`, `starts_with` and
 * `ends_with` give true); `count` counts non-overlapping occurrences from the left.
 * Matching compares bytes. Character positions count characters as gcol/utf8.h decodes
 * them (each invalid byte is one character), and find/rfind report only matches that begin
 * at a character boundary: for a target that is valid UTF-8 every match does, so all the
 * operations agree; a target that begins with a continuation byte may be "contained" yet
 * not "found". No byte outside a row or the target is ever read.
 *
 * Nulls: an output row is null where the input row is null, and, with a target column,
 * where the row's target is null. A scalar target must be valid. Synchronization: see
 * strings/attributes.h, and each function's note.
 *
 * Work layout: one thread per string; `contains`, `find` and `rfind` (scalar or per-row
 * targets) give each string a warp when the rows average 64 bytes or more, which they learn
 * by reading the rows' byte range (one synchronization).
 *
 * @code
 * gcol_scalar *needle = NULL;
 * gcol_scalar_create_cstring("gpu", &needle);
 * gcol_column *hits = NULL, *where = NULL;
 * gcol_strings_contains(text, needle, &hits, stream, NULL);          // BOOL8
 * gcol_strings_find(text, needle, 0, -1, &where, stream, NULL);      // INT32, -1 if absent
 * @endcode
 */
#ifndef GCOL_STRINGS_FIND_H
#define GCOL_STRINGS_FIND_H

/** @addtogroup gcol_strings
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief Character position of the first occurrence of @p target in each row that lies
 *        within characters [@p start, @p stop), or -1: Python's `str.find(target, start,
 *        stop)`.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] target A valid STRING scalar.
 * @param[in] start First character position searched (>= 0); beyond a row's length gives -1.
 * @param[in] stop One past the last character position a match may cover, or -1 for the
 *                 end of every row (otherwise >= 0; below @p start gives -1).
 * @param[out] out INT32 positions, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p target or @p out, a null target,
 *         start < 0, stop < -1, malformed view); ::GCOL_ERROR_TYPE_MISMATCH (not STRING);
 *         ::GCOL_ERROR_OVERFLOW (a row longer than INT32_MAX bytes);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the target to the device (a temporary); synchronizes @p stream to read the
 *       rows' byte range (thread or warp per string) and, with INT64 offsets, to check the
 *       row lengths. The caller owns *out.
 */
gcol_status gcol_strings_find(gcol_column_view input, const gcol_scalar *target, int64_t start,
                              int64_t stop, gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief As gcol_strings_find(), the last occurrence: Python's `str.rfind`. */
gcol_status gcol_strings_rfind(gcol_column_view input, const gcol_scalar *target, int64_t start,
                               int64_t stop, gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_strings_find(), with row i's target taken from row i of @p targets.
 * @param[in] input A STRING column.
 * @param[in] targets A STRING column of `input.size` rows; a null target gives a null row.
 * @param[in] start As gcol_strings_find().
 * @param[in] stop As gcol_strings_find().
 * @param[out] out INT32 positions; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_find(), plus ::GCOL_ERROR_SIZE_MISMATCH (sizes differ).
 * @note As gcol_strings_find(), without the target copy; the output's mask (input AND
 *       targets) has its null count counted, which synchronizes @p stream.
 */
gcol_status gcol_strings_find_column(gcol_column_view input, gcol_column_view targets,
                                     int64_t start, int64_t stop, gcol_column **out,
                                     gcol_stream stream, gcol_mr *mr);

/** @brief As gcol_strings_find_column(), the last occurrence. */
gcol_status gcol_strings_rfind_column(gcol_column_view input, gcol_column_view targets,
                                      int64_t start, int64_t stop, gcol_column **out,
                                      gcol_stream stream, gcol_mr *mr);

/**
 * @brief Whether @p target occurs in each row.
 * @param[in] input A STRING column.
 * @param[in] target A valid STRING scalar.
 * @param[out] out BOOL8, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, a null target, malformed
 *         view); ::GCOL_ERROR_TYPE_MISMATCH; ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream once to read the rows' byte range (it picks a thread or a
 *       warp per string). The caller owns *out.
 */
gcol_status gcol_strings_contains(gcol_column_view input, const gcol_scalar *target,
                                  gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief Whether each row begins with @p target; as gcol_strings_contains(), without its byte-range read. */
gcol_status gcol_strings_starts_with(gcol_column_view input, const gcol_scalar *target,
                                     gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief Whether each row ends with @p target; as gcol_strings_starts_with(). */
gcol_status gcol_strings_ends_with(gcol_column_view input, const gcol_scalar *target,
                                   gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Non-overlapping occurrences of @p target in each row (INT32; "" occurs characters
 *        + 1 times); otherwise as gcol_strings_find().
 */
gcol_status gcol_strings_count_matches(gcol_column_view input, const gcol_scalar *target,
                                       gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief As gcol_strings_contains(), row i's target is row i of @p targets (synchronizes as it does). */
gcol_status gcol_strings_contains_column(gcol_column_view input, gcol_column_view targets,
                                         gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief As gcol_strings_starts_with(), row i's target is row i of @p targets. */
gcol_status gcol_strings_starts_with_column(gcol_column_view input, gcol_column_view targets,
                                            gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief As gcol_strings_ends_with(), row i's target is row i of @p targets. */
gcol_status gcol_strings_ends_with_column(gcol_column_view input, gcol_column_view targets,
                                          gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief As gcol_strings_count_matches(), row i's target is row i of @p targets. */
gcol_status gcol_strings_count_matches_column(gcol_column_view input, gcol_column_view targets,
                                              gcol_column **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_FIND_H */
