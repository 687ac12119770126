/**
 * @file strings/attributes.h
 * @ingroup gcol_strings
 * @brief Attributes of the strings of a STRING column: length in bytes and in characters,
 *        and character-class tests (is digit, alpha, alnum, space, upper, lower, decimal,
 *        numeric) per row.
 *
 * Characters are UTF-8 code points, decoded as gcol/utf8.h decodes them: a byte that does
 * not start a valid sequence (stray continuation byte, truncated or overlong sequence,
 * surrogate, value above U+10FFFF) is one character of its own, with no class. No byte
 * outside a row is ever read.
 *
 * Every output row is null where the input row is null; "" is a valid row (length 0, and
 * false for every class, as Python's `"".isdigit()`).
 *
 * Synchronization: the strings operations copy the input's null mask for their output, which
 * synchronizes only when the input is a slice whose null count is unknown (it is counted);
 * each function's note lists what else it waits for.
 *
 * @code
 * gcol_column *lengths = NULL, *digits = NULL;
 * gcol_strings_count_characters(names, &lengths, stream, NULL);    // INT32
 * gcol_strings_is_char_class(names, GCOL_CHAR_DIGIT, &digits, stream, NULL);  // BOOL8
 * @endcode
 */
#ifndef GCOL_STRINGS_ATTRIBUTES_H
#define GCOL_STRINGS_ATTRIBUTES_H

/** @addtogroup gcol_strings
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief Character classes of gcol_strings_is_char_class(), as Python's str methods define
 *        them (Unicode data of the version in kernels/strings/unicode_data.h).
 */
typedef enum gcol_char_class {
  GCOL_CHAR_DECIMAL = 0, /**< Every character is a decimal digit (category Nd): str.isdecimal(). */
  GCOL_CHAR_DIGIT = 1,   /**< Every character has a digit value (Nd, superscripts...): str.isdigit(). */
  GCOL_CHAR_NUMERIC = 2, /**< Every character has a numeric value (also fractions, CJK numerals): str.isnumeric(). */
  GCOL_CHAR_ALPHA = 3,   /**< Every character is a letter (categories L*): str.isalpha(). */
  GCOL_CHAR_ALNUM = 4,   /**< Every character is alpha, decimal, digit or numeric: str.isalnum(). */
  GCOL_CHAR_SPACE = 5,   /**< Every character is white space (incl. U+001C..U+001F): str.isspace(). */
  GCOL_CHAR_UPPER = 6,   /**< At least one uppercase and no lowercase or titlecase character: str.isupper(). */
  GCOL_CHAR_LOWER = 7    /**< At least one lowercase and no uppercase or titlecase character: str.islower(). */
} gcol_char_class;

/**
 * @brief Byte length of every row.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[out] out INT32 lengths, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OVERFLOW (a row longer than
 *         INT32_MAX bytes); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note With INT64 offsets, synchronizes @p stream to check for rows longer than INT32_MAX.
 *       The caller owns *out.
 */
gcol_status gcol_strings_count_bytes(gcol_column_view input, gcol_column **out,
                                     gcol_stream stream, gcol_mr *mr);

/**
 * @brief Length of every row in characters (each invalid byte counts as one).
 * @param[in] input A STRING column.
 * @param[out] out INT32 lengths, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_count_bytes().
 * @note As gcol_strings_count_bytes().
 */
gcol_status gcol_strings_count_characters(gcol_column_view input, gcol_column **out,
                                          gcol_stream stream, gcol_mr *mr);

/**
 * @brief Whether every row is of a character class (see ::gcol_char_class; "" is false).
 * @param[in] input A STRING column.
 * @param[in] char_class The class.
 * @param[out] out BOOL8 (1 true, 0 false), null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view, unknown
 *         class); ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA
 *         status.
 * @note No other synchronization. The caller owns *out.
 */
gcol_status gcol_strings_is_char_class(gcol_column_view input, gcol_char_class char_class,
                                       gcol_column **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_ATTRIBUTES_H */
