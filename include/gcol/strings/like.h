/**
 * @file strings/like.h
 * @ingroup gcol_strings
 * @brief SQL LIKE over a STRING column: `%` matches any run of characters (also none), `_`
 *        exactly one character, an escape character makes the next `%`, `_` or escape
 *        character literal; every other character matches itself (case-sensitive, byte for
 *        byte).
 *
 * Characters are decoded as gcol/utf8.h decodes them (an invalid byte is one character).
 * The pattern is compiled on the host; a malformed one (an escape character at its end or
 * before any other character) is refused before any device work. Matching is greedy with
 * backtracking to the last `%` only: no recursion, at worst rows x pattern steps per row.
 *
 * @code
 * gcol_scalar *pattern = NULL;
 * gcol_scalar_create_cstring("100!%%", &pattern);   // starts with "100%"
 * gcol_column *hits = NULL;
 * gcol_strings_like(text, pattern, "!", &hits, stream, NULL);   // BOOL8
 * @endcode
 */
#ifndef GCOL_STRINGS_LIKE_H
#define GCOL_STRINGS_LIKE_H

/** @addtogroup gcol_strings
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief Whether each row matches a LIKE pattern.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] pattern A valid STRING scalar (may hold any bytes).
 * @param[in] escape_character NULL or "" for none, else a NUL-terminated string holding
 *                             exactly one UTF-8 character.
 * @param[out] out BOOL8, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p pattern or @p out, a null
 *         pattern, a malformed pattern or escape character: the message names the byte,
 *         malformed view); ::GCOL_ERROR_TYPE_MISMATCH (input or pattern not STRING);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the compiled pattern to the device (a temporary; 4 bytes per pattern byte);
 *       no other synchronization than the null count of an unknown slice (see
 *       strings/attributes.h).
 *       The caller owns *out.
 */
gcol_status gcol_strings_like(gcol_column_view input, const gcol_scalar *pattern,
                              const char *escape_character, gcol_column **out,
                              gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_LIKE_H */
