/**
 * @file strings/convert.h
 * @ingroup gcol_strings
 * @brief Conversions between STRING columns and other types: booleans by a given word,
 *        hexadecimal integers, URL percent-encoding, decimals (which gcol_cast() also
 *        reaches: a cast between STRING and a decimal type calls these).
 *
 * Nulls: a null input row gives a null output row; "" is a valid row and stays distinct
 * from null (it is false, not hex, and encodes to ""). Functions that parse may make more
 * nulls, as each one says. STRING outputs start at offset 0, with INT32 offsets up to
 * gcol_large_offsets_threshold() bytes and INT64 above, their chars sized exactly (a pass
 * that counts each row's bytes, a scan, then a pass that writes them).
 *
 * Synchronization: a function with a STRING output synchronizes @p stream once to learn its
 * size; one whose output may get new nulls synchronizes to count them; a view's unknown null
 * count is counted. Work layout: a thread per row.
 *
 * @code
 * gcol_column *ints = NULL, *text = NULL;
 * gcol_strings_hex_to_integers(hex, gcol_data_type_make(GCOL_INT32), &ints, stream, NULL);
 * gcol_strings_url_encode(paths, &text, stream, NULL);   // "a b/c" -> "a%20b%2Fc"
 * @endcode
 */
#ifndef GCOL_STRINGS_CONVERT_H
#define GCOL_STRINGS_CONVERT_H

/** @addtogroup gcol_strings
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief BOOL8 of whether each row equals @p true_string byte for byte (libcudf's
 *        `to_booleans`): every other row, "" included unless @p true_string is "", is false.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] true_string A valid STRING scalar.
 * @param[out] out A BOOL8 column (0 or 1), null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out or scalar, a null scalar,
 *         malformed view); ::GCOL_ERROR_TYPE_MISMATCH (input or scalar not STRING);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the scalar to the device (a temporary). The caller owns *out.
 */
gcol_status gcol_strings_to_booleans(gcol_column_view input, const gcol_scalar *true_string,
                                     gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief @p true_string where a BOOL8 row is non-zero, @p false_string where it is zero
 *        (libcudf's `from_booleans`).
 * @param[in] input A BOOL8 column (any offset).
 * @param[in] true_string A valid STRING scalar.
 * @param[in] false_string A valid STRING scalar.
 * @param[out] out A STRING column, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, a null scalar, malformed
 *         view); ::GCOL_ERROR_TYPE_MISMATCH (input not BOOL8, a scalar not STRING);
 *         ::GCOL_ERROR_OVERFLOW (an output too large to address);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the scalars to the device (a temporary); synchronizes @p stream once to learn
 *       the output size. The caller owns *out.
 */
gcol_status gcol_strings_from_booleans(gcol_column_view input, const gcol_scalar *true_string,
                                       const gcol_scalar *false_string, gcol_column **out,
                                       gcol_stream stream, gcol_mr *mr);

/**
 * @brief Parses each row as hexadecimal digits (`[0x|0X]hexdigits`, upper or lower case, at
 *        least one digit, nothing else: no sign, no spaces) into the bits of an integer of
 *        @p type: `int(s, 16)` taken as the type's two's complement bits, so "FF" is -1 as
 *        INT8 and 255 as UINT8.
 *
 * Differs from libcudf's `hex_to_integers`, which wraps and leaves invalid rows undefined:
 * here a row that is not hex (see gcol_strings_is_hex()), or whose value needs more bits than
 * the type has ("100" as INT8; leading zeros are free), is null.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] type An integer type (INT8..UINT64; not BOOL8).
 * @param[out] out The integers; null where @p input is null or the row does not parse;
 *                 NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (input not STRING, @p type not an integer type);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream to count the output's nulls. The caller owns *out.
 */
gcol_status gcol_strings_hex_to_integers(gcol_column_view input, gcol_data_type type,
                                         gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief BOOL8 of whether each row is `[0x|0X]hexdigits` (at least one digit, any number of
 *        them, any case), libcudf's `is_hex`: the rows gcol_strings_hex_to_integers() parses,
 *        before the width check.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[out] out A BOOL8 column, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA
 *         status.
 * @note The caller owns *out.
 */
gcol_status gcol_strings_is_hex(gcol_column_view input, gcol_column **out, gcol_stream stream,
                                gcol_mr *mr);

/**
 * @brief Each integer as upper-case hex without a prefix, two digits a byte with its leading
 *        zero bytes dropped (libcudf's `integers_to_hex`): 0 is "00", 255 "FF", 256 "0100";
 *        a negative value is its two's complement bytes at the type's width (-1 as INT16 is
 *        "FFFF").
 * @param[in] input An integer column (INT8..UINT64; not BOOL8), any offset.
 * @param[out] out A STRING column, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not an integer type); ::GCOL_ERROR_OUT_OF_MEMORY; a
 *         CUDA status.
 * @note Synchronizes @p stream once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_integers_to_hex(gcol_column_view input, gcol_column **out,
                                         gcol_stream stream, gcol_mr *mr);

/**
 * @brief Percent-encodes each row byte by byte: the unreserved characters `A-Z a-z 0-9 - _
 *        . ~` stay, every other byte becomes `%XX` (upper-case hex). Python's
 *        `urllib.parse.quote_from_bytes(b, safe='')`, libcudf's `url_encode`.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[out] out The encoded STRING column (pure ASCII); NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OVERFLOW (an output too large
 *         to address); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_url_encode(gcol_column_view input, gcol_column **out, gcol_stream stream,
                                    gcol_mr *mr);

/**
 * @brief Decodes each `%XX` (two hex digits, either case) into its byte, left to right; a '%'
 *        without two hex digits after it, and every other byte ('+' included), is copied.
 *        Python's `urllib.parse.unquote_to_bytes`, libcudf's `url_decode`; the bytes need not
 *        be valid UTF-8.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[out] out The decoded STRING column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_url_encode(), without ::GCOL_ERROR_OVERFLOW.
 * @note Synchronizes @p stream once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_url_decode(gcol_column_view input, gcol_column **out, gcol_stream stream,
                                    gcol_mr *mr);

/**
 * @brief Each decimal as exact text, its scale applied (Python's
 *        `format(Decimal(unscaled).scaleb(scale), 'f')`): a '-' for negatives; with a scale
 *        s >= 0 the digits then s zeros (12 at scale 2 is "1200"; 0 is "0"); with s < 0 the
 *        integer part ("0" when |x| < 1), '.', and exactly -s fraction digits (12345 at scale
 *        -2 is "123.45", 5 at scale -3 "0.005", 0 at scale -2 "0.00").
 * @param[in] input A DECIMAL32, DECIMAL64 or DECIMAL128 column (any offset).
 * @param[out] out A STRING column, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not a decimal type); ::GCOL_ERROR_OVERFLOW (an output
 *         too large to address: a scale of billions); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA
 *         status.
 * @note Synchronizes @p stream once to learn the output size. The caller owns *out.
 */
gcol_status gcol_strings_from_decimals(gcol_column_view input, gcol_column **out,
                                       gcol_stream stream, gcol_mr *mr);

/**
 * @brief Parses each row as a decimal number, `[+-](digits[.[digits]] | .digits)` with an
 *        optional exponent `(e|E)[+-]digits` (ASCII digits only; no spaces, no "nan"/"inf",
 *        no '_'), into the unscaled values of @p type at its scale: the number divided by
 *        10^scale, **truncated toward zero** (digits below the scale are dropped, as libcudf's
 *        `to_fixed_point` does and as gcol_cast() narrows a decimal's scale): "123.456" at
 *        scale -2 is 12345, "-0.019" at scale -2 is -1, "1.5e1" at scale 0 is 15.
 *
 * A row that does not parse, or whose result is outside the type's range (two's
 * complement: DECIMAL32 holds -2^31 .. 2^31 - 1 unscaled), is null.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] type DECIMAL32, DECIMAL64 or DECIMAL128 with the output's scale.
 * @param[out] out The decimals; null where @p input is null or the row does not parse or
 *                 fit; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (input not STRING, @p type not a decimal type);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream to count the output's nulls. The caller owns *out.
 */
gcol_status gcol_strings_to_decimals(gcol_column_view input, gcol_data_type type, gcol_column **out,
                                     gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_CONVERT_H */
