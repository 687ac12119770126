/**
 * @file scan.h
 * @ingroup gcol_reduction
 * @brief Scans (prefix reductions): inclusive and exclusive running sum, product, min and
 *        max of a column, with a null policy.
 *
 * Null policies:
 * - ::GCOL_SCAN_NULLS_EXCLUDE: null rows are skipped (they count as the identity) and stay
 *   null in the output; the output mask is the input's.
 * - ::GCOL_SCAN_NULLS_INCLUDE: a null poisons its row and every row after it (libcudf's
 *   INCLUDE), for inclusive and exclusive scans alike.
 *
 * Output types: the input type (integer sums and products wrap at the type's width, as
 * computing in that type would). Accepted inputs:
 * | op | types |
 * | --- | --- |
 * | SUM | ints, floats, durations, DECIMAL32/64 (same scale) |
 * | PRODUCT | ints, floats (decimals: ::GCOL_ERROR_UNSUPPORTED) |
 * | MIN, MAX | ints, floats, BOOL8, timestamps, durations, DECIMAL32/64 |
 *
 * DECIMAL128 and STRING are ::GCOL_ERROR_UNSUPPORTED; other types ::GCOL_ERROR_TYPE_MISMATCH.
 *
 * Floats: FLOAT32 sums and products run in double, each output rounded to float. MIN and
 * MAX use the total order NaN > +Inf, +0.0 > -0.0 (as reductions). An exclusive scan starts
 * with the identity: +0.0 (SUM), 1 (PRODUCT), the type's largest value (MIN: for floats
 * that is NaN, the largest in this order) or its smallest (MAX: -Inf for floats).
 *
 * Signed zeros: every running sum starts from the identity +0.0, inclusive scans too
 * (out[i] = +0.0 + x[0] + ... + x[i]), so a float sum is never -0.0: a leading -0.0 row gives
 * +0.0, as in gcol_reduce() and as the exclusive scan's next row does (inclusive row i
 * always equals exclusive row i + 1). Products start from 1.0 and keep the IEEE sign;
 * MIN and MAX return elements, so -0.0 when it wins.
 *
 * @code
 * gcol_column *running = NULL;
 * gcol_scan(amounts, GCOL_SCAN_SUM, GCOL_SCAN_INCLUSIVE, GCOL_SCAN_NULLS_EXCLUDE, &running,
 *           stream, NULL);
 * @endcode
 */
#ifndef GCOL_SCAN_H
#define GCOL_SCAN_H

/** @addtogroup gcol_reduction
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief A scan operator. */
typedef enum gcol_scan_op {
  GCOL_SCAN_SUM = 0,     /**< Running sum. */
  GCOL_SCAN_PRODUCT = 1, /**< Running product. */
  GCOL_SCAN_MIN = 2,     /**< Running minimum. */
  GCOL_SCAN_MAX = 3,     /**< Running maximum. */
  GCOL_SCAN_NUM_OPS = 4  /**< Number of operators; not an operator. */
} gcol_scan_op;

/** @brief Whether row i's output includes row i. */
typedef enum gcol_scan_type {
  GCOL_SCAN_INCLUSIVE = 0, /**< out[i] = identity op x[0] op ... op x[i]. */
  GCOL_SCAN_EXCLUSIVE = 1  /**< out[i] = identity op x[0] op ... op x[i-1]. */
} gcol_scan_type;

/** @brief How nulls of the input affect a scan (see scan.h). */
typedef enum gcol_scan_nulls {
  GCOL_SCAN_NULLS_EXCLUDE = 0, /**< Skip nulls; they stay null. */
  GCOL_SCAN_NULLS_INCLUDE = 1  /**< The first null makes it and every later row null. */
} gcol_scan_nulls;

/** @brief The name of a scan operator (`"sum"`), `"invalid"` if out of range. */
const char *gcol_scan_op_name(gcol_scan_op op);

/**
 * @brief The output type of scan @p op over @p input (the input type when accepted).
 *        Needs no GPU.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, op out of range),
 *         ::GCOL_ERROR_TYPE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED (messages name op and type).
 */
gcol_status gcol_scan_output_type(gcol_data_type input, gcol_scan_op op, gcol_data_type *out);

/**
 * @brief Scans @p input.
 * @param[in] input Fixed-width view (any offset).
 * @param[in] op The operator.
 * @param[in] type Inclusive or exclusive.
 * @param[in] nulls The null policy.
 * @param[out] out A column of `input.size` rows of the input type, from @p mr; NULL on
 *                 failure. It has a null mask when @p input has one.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, bad enum values, malformed
 *         view), ::GCOL_ERROR_TYPE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Without a null mask the scan is asynchronous. With one, it synchronizes @p stream
 *       once: to find the first null (INCLUDE) or to count the nulls of a slice whose count
 *       is unknown (EXCLUDE), since a column's null count is always known.
 */
gcol_status gcol_scan(gcol_column_view input, gcol_scan_op op, gcol_scan_type type,
                      gcol_scan_nulls nulls, gcol_column **out, gcol_stream stream,
                      gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_SCAN_H */
