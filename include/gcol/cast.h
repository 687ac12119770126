/**
 * @file cast.h
 * @ingroup gcol_compute
 * @brief Type conversion of a column: numeric, bool, decimal, timestamp/duration units,
 *        and strings <-> numbers.
 *
 * Rules (gcol_cast_check_types() says whether a pair is accepted):
 * - Integer -> integer (any width, signedness; BOOL8, timestamps and durations as their
 *   tick counts): two's complement truncation (wraps). Anything -> BOOL8: non-zero is true
 *   (NaN is true).
 * - Integer -> float: rounded once to nearest. FLOAT64 -> FLOAT32: rounded to nearest
 *   (overflow gives inf).
 * - Float -> integer: truncated toward zero; NaN, +-inf and values outside the target type
 *   give a null row.
 * - Decimal -> decimal, integer -> decimal, decimal -> integer: exact in 128 bits; to a
 *   smaller scale multiplies by a power of ten (wrapping at the output width), to a larger
 *   scale divides, truncating toward zero.
 * - Decimal -> float: `(double)unscaled` multiplied or divided by the correctly rounded
 *   10^|scale| (within 1 ulp; FLOAT32 then rounds again).
 * - Float -> decimal: `value / 10^scale` rounded half away from zero; NaN, infinities and
 *   results outside the output's width give a null row.
 * - Timestamp -> timestamp and duration -> duration of another unit: to a finer unit
 *   multiplies (wrapping); to a coarser unit timestamps round toward -inf (so
 *   1969-12-31T23:59:59.5 becomes 1969-12-31, as libcudf), durations toward zero (as
 *   std::chrono::duration_cast). The DAYS types hold int32 ticks: a day count outside
 *   int32 after the division (beyond about 5.88 million years, reachable from
 *   milliseconds and coarser int64 units) wraps modulo 2^32 like any integer narrowing, no
 *   row becomes null (INT64_MAX milliseconds, day 106751991167, gives day -622191233).
 * - STRING -> integers and floats: parsed, a row that does not parse (or overflows an
 *   integer type) is null. Integers: `[+-]digits`, nothing else (no spaces: " 5" is null,
 *   "+5" is 5). Floats: `[+-](digits[.[digits]]|.digits)[(e|E)[+-]digits]`, `nan`, `inf`,
 *   `infinity` (any case), as strtod, Python's float() and libcudf: "5." is 5.0 and ".5"
 *   is 0.5, while "." and "" are null; beyond the range gives +-inf ("1e309" is inf);
 *   correctly rounded (bit for bit as strtod for FLOAT64, strtof for FLOAT32: the text is
 *   rounded once to the target type), so float -> STRING -> float gives back the same bits.
 * - STRING <-> decimals: gcol_strings_to_decimals() and gcol_strings_from_decimals() of
 *   strings/convert.h. Parsing takes `[+-](digits[.digits]|.digits)[(e|E)[+-]digits]` and
 *   truncates toward zero at the output's scale ("1.239" at scale -2 is 1.23); a row that
 *   does not parse or does not fit the type is null. Formatting is exact with the scale
 *   applied: 12345 at scale -2 is "123.45", 5 at scale -3 "0.005", 12 at scale 2 "1200".
 * - Integers and floats -> STRING: integers exactly; floats as C's `"%.17g"` (FLOAT64) or
 *   `"%.9g"` (FLOAT32), byte for byte (always round-trips); NaN is "nan", infinities
 *   "inf"/"-inf". INT32 offsets below gcol_large_offsets_threshold() bytes, INT64 above.
 * - The same type: a copy. Nulls: the input's, plus the rows named above.
 *
 * @code
 * gcol_column *as_double = NULL;
 * gcol_cast(ints, gcol_data_type_make(GCOL_FLOAT64), &as_double, stream, NULL);
 * @endcode
 */
#ifndef GCOL_CAST_H
#define GCOL_CAST_H

/** @addtogroup gcol_compute
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief Checks whether a column of type @p from can be cast to @p to, without the GPU.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (a type id out of range),
 *         ::GCOL_ERROR_TYPE_MISMATCH (the pair has no conversion),
 *         ::GCOL_ERROR_UNSUPPORTED (nested types, a scale difference above 38). The message
 *         names both types.
 */
gcol_status gcol_cast_check_types(gcol_data_type from, gcol_data_type to);

/**
 * @brief Converts @p input to type @p to.
 * @param[in] input The column (any offset).
 * @param[in] to The output type (decimal scale included).
 * @param[out] out The result; NULL on failure. Output memory from @p mr.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH,
 *         ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream when the output's nulls must be counted (conversions that
 *       can make nulls, sliced inputs) and, for STRING outputs, to read the total size.
 */
gcol_status gcol_cast(gcol_column_view input, gcol_data_type to, gcol_column **out,
                      gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_CAST_H */
