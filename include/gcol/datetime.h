/**
 * @file datetime.h
 * @ingroup gcol_datetime
 * @brief Calendar fields of timestamps: year, month, day, hour, minute, second,
 *        millisecond, weekday and day of year, from timestamps of any unit.
 *
 * Timestamps count ticks since 1970-01-01T00:00:00 in the proleptic Gregorian calendar, UTC.
 * Times before 1970 are negative and are split with floor division, so
 * -1 s is 1969-12-31T23:59:59. The calendar is computed in 64-bit integers and is exact
 * over every unit's whole range, which reaches these years (astronomical numbering):
 * | type | storage | first day | last day |
 * | --- | --- | --- | --- |
 * | TIMESTAMP_DAYS | int32 | -5877641-06-23 | 5881580-07-11 |
 * | TIMESTAMP_SECONDS | int64 | -292277022657-01-27 | 292277026596-12-04 |
 * | TIMESTAMP_MILLISECONDS | int64 | -292275055-05-16 | 292278994-08-17 |
 * | TIMESTAMP_MICROSECONDS | int64 | -290308-12-21 | 294247-01-10 |
 * | TIMESTAMP_NANOSECONDS | int64 | 1677-09-21 | 2262-04-11 |
 *
 * Outputs are INT16 (as libcudf), which every field but YEAR always fits. A YEAR outside
 * [-32768, 32767] wraps modulo 2^16 (year 40000 gives -25536): every unit but
 * TIMESTAMP_NANOSECONDS can reach such years. The other fields stay right for any year.
 *
 * @code
 * gcol_column *years = NULL;
 * gcol_datetime_extract(ts, GCOL_DATETIME_YEAR, &years, stream, NULL);
 * @endcode
 */
#ifndef GCOL_DATETIME_H
#define GCOL_DATETIME_H

/** @addtogroup gcol_datetime
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief A calendar field. */
typedef enum gcol_datetime_component {
  GCOL_DATETIME_YEAR = 0,        /**< Year (astronomical numbering: 1 BC is 0). */
  GCOL_DATETIME_MONTH = 1,       /**< Month, 1..12. */
  GCOL_DATETIME_DAY = 2,         /**< Day of the month, 1..31. */
  GCOL_DATETIME_HOUR = 3,        /**< Hour, 0..23. */
  GCOL_DATETIME_MINUTE = 4,      /**< Minute, 0..59. */
  GCOL_DATETIME_SECOND = 5,      /**< Second, 0..59. */
  GCOL_DATETIME_MILLISECOND = 6, /**< Millisecond within the second, 0..999. */
  GCOL_DATETIME_WEEKDAY = 7,     /**< ISO weekday: Monday 1 .. Sunday 7. */
  GCOL_DATETIME_DAY_OF_YEAR = 8, /**< Day of the year, 1..366. */
  GCOL_NUM_DATETIME_COMPONENTS = 9 /**< Number of fields; not a field. */
} gcol_datetime_component;

/**
 * @brief Extracts @p component from every row of a timestamp column.
 * @param[in] input A TIMESTAMP_* column (any offset).
 * @param[in] component The field.
 * @param[out] out INT16 column with the input's validity; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, bad component, malformed
 *         view), ::GCOL_ERROR_TYPE_MISMATCH (not a timestamp), ::GCOL_ERROR_OUT_OF_MEMORY,
 *         CUDA status.
 * @note Stream-ordered; synchronizes only to count the nulls of a slice.
 */
gcol_status gcol_datetime_extract(gcol_column_view input, gcol_datetime_component component,
                                  gcol_column **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_DATETIME_H */
