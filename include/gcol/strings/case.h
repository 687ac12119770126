/**
 * @file strings/case.h
 * @ingroup gcol_strings
 * @brief Case conversion of STRING columns: upper, lower, swapcase, capitalize, title, for
 *        every code point that has a simple case mapping in Unicode.
 *
 * Mappings are Unicode's simple ones (one code point to one code point, from
 * UnicodeData.txt, as generated into kernels/strings/unicode_data.h by
 * scripts/gen-unicode-table): `ß` stays `ß` under upper (the full mapping "SS" is not
 * applied), `İ` lowers to `i`, `ǆ` titles to `ǅ`; no context-sensitive rule (no final sigma,
 * no locale). A mapping may change a character's byte length (`ı` U+0131, 2 bytes, uppers
 * to `I`, 1 byte; `Ⱥ` U+023A lowers to U+2C65, 3 bytes), so the output is sized first.
 * Bytes of invalid UTF-8 are copied unchanged (and are not cased).
 *
 * Output rows are null where input rows are null. A null row is empty in the output, except
 * when every byte of the input's rows is ASCII: then every row keeps its length and the
 * bytes under a null row are converted like any other (defined, not meaningful). The
 * output starts at offset 0, with INT32 offsets up to gcol_large_offsets_threshold() bytes
 * and INT64 above.
 *
 * @code
 * gcol_column *upper = NULL;
 * gcol_strings_convert_case(names, GCOL_CASE_UPPER, &upper, stream, NULL);
 * @endcode
 */
#ifndef GCOL_STRINGS_CASE_H
#define GCOL_STRINGS_CASE_H

/** @addtogroup gcol_strings
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief Case conversions of gcol_strings_convert_case() (Python's str methods, simple mappings). */
typedef enum gcol_case_op {
  GCOL_CASE_UPPER = 0,      /**< Every character to uppercase: str.upper(). */
  GCOL_CASE_LOWER = 1,      /**< Every character to lowercase: str.lower(). */
  GCOL_CASE_SWAPCASE = 2,   /**< Uppercase to lowercase and lowercase to uppercase (titlecase kept): str.swapcase(). */
  GCOL_CASE_CAPITALIZE = 3, /**< First character to titlecase, the rest to lowercase: str.capitalize(). */
  GCOL_CASE_TITLE = 4       /**< A character after a cased one to lowercase, any other to titlecase: str.title(). */
} gcol_case_op;

/**
 * @brief Converts the case of every row.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] op The conversion.
 * @param[out] out The converted STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view, unknown
 *         @p op); ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA
 *         status.
 * @note Synchronizes @p stream: once to learn whether the rows are all ASCII (then the
 *       output has the input's offsets and every byte is converted in one pass), otherwise
 *       once more to learn the output size (sizes, a scan, then the bytes). The caller owns
 *       *out.
 */
gcol_status gcol_strings_convert_case(gcol_column_view input, gcol_case_op op, gcol_column **out,
                                      gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_CASE_H */
