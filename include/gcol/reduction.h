/**
 * @file reduction.h
 * @ingroup gcol_reduction
 * @brief Reductions of a column to one value (sum, product, min, max, any, all, mean,
 *        variance, std, sum of squares, counts, argmin, argmax), quantiles, and segmented
 *        reductions (one value per segment of rows given by offsets).
 *
 * Null policy: null rows are skipped. A reduction whose input has no valid row gives a null
 * scalar (a null row for a segment), except the counts, which give 0.
 *
 * Output types (gcol_reduce_output_type() computes them without a GPU):
 * | op | accepted input | output |
 * | --- | --- | --- |
 * | SUM | signed ints | INT64 (wraps on overflow) |
 * | SUM | unsigned ints | UINT64 (wraps) |
 * | SUM | FLOAT32, FLOAT64 | same type (accumulated in double) |
 * | SUM | durations | same type (wraps at its storage width) |
 * | SUM | DECIMAL32, DECIMAL64 | DECIMAL64, same scale (wraps) |
 * | PRODUCT | ints / floats | as SUM (decimals: ::GCOL_ERROR_UNSUPPORTED, see below) |
 * | SUM_OF_SQUARES | ints / floats | as SUM |
 * | MIN, MAX | every fixed-width type but DECIMAL128, and STRING | the input type |
 * | ANY, ALL | ints, floats, BOOL8 (non-zero is true; NaN is true) | BOOL8 |
 * | MEAN, VARIANCE, STD | ints, floats | FLOAT64 |
 * | COUNT_VALID, COUNT_ALL | every type | INT64 (never null) |
 * | ARGMIN, ARGMAX | as MIN, MAX | INT64 row index (first occurrence) |
 *
 * - Floats: MIN, MAX, ARGMIN, ARGMAX, quantiles (gcol_quantiles()) and the MIN/MAX scans of
 *   scan.h use one strict total order, -Inf < ... < -0.0 < +0.0 < ... < +Inf < NaN (every
 *   NaN alike): MAX is NaN if any valid value is NaN, MIN is NaN only if every valid value
 *   is, and -0.0 and +0.0 are distinct values (the MIN of [+0.0, -0.0] is -0.0, the ARGMIN
 *   its row). Sorting and searching (sorting.h, search.h) differ on zeros only: there
 *   -0.0 and +0.0 tie, as they are equal in joins, groupby and distinct. SUM, PRODUCT and
 *   the moments follow IEEE arithmetic (a NaN propagates). FLOAT32 sums and products are
 *   accumulated in double and rounded once.
 * - Signed zeros: sums (SUM, SUM_OF_SQUARES and the sum inside MEAN) start from the
 *   identity +0.0, so a float sum is never -0.0: the sum of -0.0 values alone is +0.0 (as
 *   cub::DeviceReduce::Sum and libcudf; numpy would keep -0.0). PRODUCT starts from 1.0 and
 *   keeps the IEEE sign (the product of [-0.0] is -0.0). MIN and MAX return the element
 *   itself, so -0.0 when it wins (-0.0 orders before +0.0).
 * - Integers read as double (MEAN, VARIANCE, STD) round beyond 2^53.
 * - VARIANCE and STD divide by `n - ddof` (n: valid rows); the result is null when
 *   `n - ddof <= 0`. Computed in one pass with Chan's pairwise formula. They are NaN when
 *   the sum of the values is not finite (a value is NaN or infinite, or the sum overflows).
 * - DECIMAL PRODUCT is not supported: the result scale would be `scale * n` and depend on
 *   the data. DECIMAL128 is supported by COUNT_VALID and COUNT_ALL only; every other op
 *   gives ::GCOL_ERROR_UNSUPPORTED.
 * - NUNIQUE, the number of distinct values, is gcol_reduce_nunique() (not an operator of
 *   gcol_reduce()): a count, never null, so an `int64_t` on the host, as
 *   gcol_distinct_count() of filtering.h, which counts distinct rows of several columns
 *   with the same equality (docs/design.md, "host values").
 *
 * @code
 * gcol_scalar *total = NULL;
 * gcol_status st = gcol_reduce(prices, GCOL_REDUCE_SUM, NULL, &total, stream);
 * if (st == GCOL_OK && total->is_valid) printf("%lld\n", (long long)total->value.i64);
 * gcol_scalar_free(total);
 * @endcode
 */
#ifndef GCOL_REDUCTION_H
#define GCOL_REDUCTION_H

/** @addtogroup gcol_reduction
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief A reduction operator. */
typedef enum gcol_reduce_op {
  GCOL_REDUCE_SUM = 0,            /**< Sum of the valid values. */
  GCOL_REDUCE_PRODUCT = 1,        /**< Product of the valid values. */
  GCOL_REDUCE_MIN = 2,            /**< Smallest valid value. */
  GCOL_REDUCE_MAX = 3,            /**< Largest valid value. */
  GCOL_REDUCE_ANY = 4,            /**< True if any valid value is non-zero. */
  GCOL_REDUCE_ALL = 5,            /**< True if every valid value is non-zero. */
  GCOL_REDUCE_MEAN = 6,           /**< Arithmetic mean. */
  GCOL_REDUCE_VARIANCE = 7,       /**< Variance with `ddof` (see ::gcol_reduce_options). */
  GCOL_REDUCE_STD = 8,            /**< Standard deviation with `ddof`. */
  GCOL_REDUCE_SUM_OF_SQUARES = 9, /**< Sum of the squares of the valid values. */
  GCOL_REDUCE_COUNT_VALID = 10,   /**< Number of valid rows. */
  GCOL_REDUCE_COUNT_ALL = 11,     /**< Number of rows, nulls included. */
  GCOL_REDUCE_ARGMIN = 12,        /**< Row of the smallest valid value (first one). */
  GCOL_REDUCE_ARGMAX = 13,        /**< Row of the largest valid value (first one). */
  GCOL_REDUCE_NUM_OPS = 14        /**< Number of operators; not an operator. */
} gcol_reduce_op;

/**
 * @brief NUNIQUE: the number of distinct values of @p input, with the equality of
 *        gcol_distinct_count() (floats: -0.0 equals 0.0 and every NaN equals every NaN;
 *        strings byte-wise).
 * @param[in] input A fixed-width or STRING column (sliced views are fine).
 * @param[in] include_nulls true: nulls count as one more distinct value (if any); false:
 *                          they are not counted.
 * @param[out] out The count (host; 0 for an empty column, and on failure).
 * @param[in] stream Stream of the work.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (LIST, STRUCT, DICTIONARY32, EMPTY);
 *         ::GCOL_ERROR_OVERFLOW, ::GCOL_ERROR_OUT_OF_MEMORY (hash table), a CUDA status.
 * @note Synchronizes @p stream. Temporaries come from the default resource.
 */
gcol_status gcol_reduce_nunique(gcol_column_view input, bool include_nulls, int64_t *out,
                                gcol_stream stream);

/** @brief Options of a reduction; NULL options mean the defaults (`ddof` 1). */
typedef struct gcol_reduce_options {
  int32_t ddof; /**< Delta degrees of freedom of VARIANCE and STD (>= 0; 1: sample). */
} gcol_reduce_options;

/** @brief The name of a reduction operator (`"sum"`), `"invalid"` if out of range. */
const char *gcol_reduce_op_name(gcol_reduce_op op);

/**
 * @brief The type of the result of @p op over a column of type @p input (see the table in
 *        reduction.h). Needs no GPU.
 * @param[in] input The input's data type.
 * @param[in] op The operator.
 * @param[out] out The result type.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, @p op or the type id out of
 *         range); ::GCOL_ERROR_TYPE_MISMATCH (the op does not apply to the type, e.g. SUM of
 *         a timestamp); ::GCOL_ERROR_UNSUPPORTED (DECIMAL128, decimal PRODUCT, decimal
 *         MEAN/VARIANCE/STD). The message names the op and the type.
 */
gcol_status gcol_reduce_output_type(gcol_data_type input, gcol_reduce_op op,
                                    gcol_data_type *out);

/**
 * @brief Reduces the valid rows of @p input to one value.
 * @param[in] input Any view (sliced views are fine); its type must be accepted by @p op.
 * @param[in] op The operator.
 * @param[in] options NULL for the defaults.
 * @param[out] out The result, a host scalar of type gcol_reduce_output_type(); null if no row
 *                 is valid (counts: never null). NULL on failure.
 * @param[in] stream Stream of the work.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, bad @p options, malformed
 *         view), ::GCOL_ERROR_TYPE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED (see
 *         gcol_reduce_output_type()), ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream once to copy the result to the host (inherent to returning a
 *       host value); a sliced view whose null count is unknown costs one more count.
 *       Temporaries come from the default resource; the scalar is host memory owned by the
 *       caller (gcol_scalar_free()).
 */
gcol_status gcol_reduce(gcol_column_view input, gcol_reduce_op op,
                        const gcol_reduce_options *options, gcol_scalar **out,
                        gcol_stream stream);

/**
 * @brief Reduces each segment of rows of @p input: segment s is rows
 *        `[offsets[s], offsets[s+1])`.
 *
 * Accepts the ops and types of gcol_reduce() except ARGMIN, ARGMAX and STRING inputs
 * (::GCOL_ERROR_UNSUPPORTED). The output has `offsets.size - 1` rows (0 if @p offsets is
 * empty) of type gcol_reduce_output_type(); a segment that is empty or all null gives a
 * null row (counts give 0).
 * @param[in] input Fixed-width view (any offset).
 * @param[in] offsets INT32 or INT64 view without nulls (any offset); values must be
 *                    non-decreasing within `[0, input.size]`. They are not checked (that
 *                    would cost a pass and a synchronization): out-of-range values are
 *                    clamped, so they never read outside @p input.
 * @param[in] op The operator.
 * @param[in] options NULL for the defaults.
 * @param[out] out The per-segment results, from @p mr. NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, offsets with nulls, bad
 *         options), ::GCOL_ERROR_TYPE_MISMATCH (offsets not INT32/INT64, op not applicable
 *         to the type), ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream once to count the null segments (the column's null count is
 *       always known). One thread block reduces each segment.
 */
gcol_status gcol_segmented_reduce(gcol_column_view input, gcol_column_view offsets,
                                  gcol_reduce_op op, const gcol_reduce_options *options,
                                  gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief How a quantile between two sorted values is computed (i <= j their positions,
 *         `pos = q * (n - 1)`, i = floor(pos), j = ceil(pos)). */
typedef enum gcol_interpolation {
  GCOL_INTERPOLATION_LINEAR = 0,   /**< `v[i] + (v[j] - v[i]) * (pos - i)`; FLOAT64. */
  GCOL_INTERPOLATION_LOWER = 1,    /**< `v[i]`; the input type. */
  GCOL_INTERPOLATION_HIGHER = 2,   /**< `v[j]`; the input type. */
  GCOL_INTERPOLATION_MIDPOINT = 3, /**< `(v[i] + v[j]) / 2`; FLOAT64. */
  GCOL_INTERPOLATION_NEAREST = 4   /**< `v[round(pos)]`, halves to even (numpy); input type. */
} gcol_interpolation;

/**
 * @brief The result type of a quantile: FLOAT64 for LINEAR and MIDPOINT (inputs: ints and
 *        floats); the input type for LOWER, HIGHER and NEAREST (inputs: ints, floats,
 *        timestamps, durations, DECIMAL32/64).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, bad @p interp),
 *         ::GCOL_ERROR_TYPE_MISMATCH (other types), ::GCOL_ERROR_UNSUPPORTED (DECIMAL128;
 *         decimals, timestamps and durations with LINEAR or MIDPOINT).
 */
gcol_status gcol_quantile_output_type(gcol_data_type input, gcol_interpolation interp,
                                      gcol_data_type *out);

/**
 * @brief Quantiles @p q of the valid values of @p input.
 *
 * The valid values are sorted once (radix sort of order-preserving keys: NaN last, -0.0
 * before +0.0) and every q is read from the sorted values.
 * @param[in] input Fixed-width view (any offset).
 * @param[in] q Host array of @p num_q values in [0, 1].
 * @param[in] num_q Number of quantiles (>= 0).
 * @param[in] interp Interpolation.
 * @param[out] out A column of @p num_q rows of gcol_quantile_output_type(), all null if
 *                 @p input has no valid value; from @p mr. NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, q outside [0, 1] or NaN,
 *         negative @p num_q), ::GCOL_ERROR_TYPE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream only when the null count of @p input is unknown (to count
 *       it). Temporaries (the sorted keys) come from the default resource.
 */
gcol_status gcol_quantiles(gcol_column_view input, const double *q, int64_t num_q,
                           gcol_interpolation interp, gcol_column **out, gcol_stream stream,
                           gcol_mr *mr);

/**
 * @brief One quantile @p q of the valid values of @p input, as a host scalar (null if no
 *        value is valid). See gcol_quantiles().
 * @return As gcol_quantiles().
 * @note Synchronizes @p stream to return the value.
 */
gcol_status gcol_quantile(gcol_column_view input, double q, gcol_interpolation interp,
                          gcol_scalar **out, gcol_stream stream);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_REDUCTION_H */
