/**
 * @file groupby.h
 * @ingroup gcol_groupby
 * @brief Groupby: rows grouped by equal multi-column keys, several aggregations of several
 *        value columns per group in one call.
 *
 * Keys: every fixed-width type (ints, floats, BOOL8, timestamps, durations, decimals
 * including DECIMAL128) and STRING, any number of key columns. Equality is the row
 * engine's: -0.0 equals 0.0, every NaN equals every NaN, strings compare by bytes. A row
 * with a null in any key column either joins the group of rows with nulls in the same key
 * columns and equal other keys (the default) or is dropped
 * (gcol_groupby_options::drop_null_keys).
 *
 * Output order: with gcol_groupby_options::sort_keys, groups are in ascending key order
 * (lexicographic over the key columns; floats in the total order -Inf < ... < -0.0 == 0.0 <
 * ... < +Inf < NaN; strings by bytes; a null key sorts after every value). Without it the
 * order is unspecified and may change between runs (hash order); integer keys of a small
 * range happen to come out sorted, but do not rely on it.
 *
 * Aggregations, result types and null rules:
 * | kind | accepted values | result |
 * | --- | --- | --- |
 * | SUM ... ARGMAX (the ::gcol_reduce_op values) | as gcol_reduce_output_type(), STRING values only
 * for the counts | as the reduction: SUM of ints INT64/UINT64, of floats the float type,
 * MEAN/VARIANCE/STD FLOAT64, counts INT64, ARGMIN/ARGMAX INT64 row of the values view | | MEDIAN,
 * QUANTILE | as gcol_quantile_output_type() | FLOAT64 (LINEAR, MIDPOINT) or the value type | |
 * NUNIQUE | fixed-width (not DECIMAL128) | INT64, never null | | NTH_ELEMENT | fixed-width (not
 * DECIMAL128) | the value type | | COLLECT_LIST | fixed-width (not DECIMAL128) | LIST of the value
 * type, never null | | M2 | ints, floats | FLOAT64: sum of squared deviations from the group mean |
 *
 * Null values are skipped. A group with no valid value gives a null result, except the
 * counts, NUNIQUE and COLLECT_LIST (0, 0 and an empty list). VARIANCE and STD divide M2 by
 * `n - ddof` (n: valid values) and are null when that is <= 0.
 *
 * Variance method: M2 (and so VARIANCE and STD) is computed in two passes: the group's sum
 * and count first, then the sum of `(x - mean)^2` over the rows. That is as accurate as
 * Welford's method and needs no cancellation-prone sum of squares. Float sums accumulated
 * with atomics depend on the order of additions in their last bits (not bit-reproducible).
 *
 * @code
 * gcol_groupby_agg aggs[2] = {gcol_groupby_agg_make(GCOL_GROUPBY_SUM),
 *                             gcol_groupby_agg_make(GCOL_GROUPBY_MEAN)};
 * gcol_groupby_request req = {prices, aggs, 2};
 * gcol_groupby_result *res = NULL;
 * gcol_status st = gcol_groupby_aggregate(keys, &req, 1, NULL, &res, stream, NULL);
 * // res->keys: one row per group; res->columns[0]: sums, res->columns[1]: means
 * gcol_groupby_result_free(res);
 * @endcode
 */
#ifndef GCOL_GROUPBY_H
#define GCOL_GROUPBY_H

/** @addtogroup gcol_groupby
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/reduction.h"
#include "gcol/status.h"
#include "gcol/table.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief An aggregation of a groupby. The first fourteen are the reduction operators
 *         (same values as ::gcol_reduce_op, same meaning per group). */
typedef enum gcol_groupby_agg_kind {
  GCOL_GROUPBY_SUM = GCOL_REDUCE_SUM,                       /**< Sum of the valid values. */
  GCOL_GROUPBY_PRODUCT = GCOL_REDUCE_PRODUCT,               /**< Product of the valid values. */
  GCOL_GROUPBY_MIN = GCOL_REDUCE_MIN,                       /**< Smallest valid value. */
  GCOL_GROUPBY_MAX = GCOL_REDUCE_MAX,                       /**< Largest valid value. */
  GCOL_GROUPBY_ANY = GCOL_REDUCE_ANY,                       /**< Any valid value non-zero. */
  GCOL_GROUPBY_ALL = GCOL_REDUCE_ALL,                       /**< Every valid value non-zero. */
  GCOL_GROUPBY_MEAN = GCOL_REDUCE_MEAN,                     /**< Arithmetic mean. */
  GCOL_GROUPBY_VARIANCE = GCOL_REDUCE_VARIANCE,             /**< Variance with `ddof`. */
  GCOL_GROUPBY_STD = GCOL_REDUCE_STD,                       /**< Standard deviation, `ddof`. */
  GCOL_GROUPBY_SUM_OF_SQUARES = GCOL_REDUCE_SUM_OF_SQUARES, /**< Sum of squares. */
  GCOL_GROUPBY_COUNT_VALID = GCOL_REDUCE_COUNT_VALID,       /**< Valid values of the group. */
  GCOL_GROUPBY_COUNT_ALL = GCOL_REDUCE_COUNT_ALL,           /**< Rows of the group. */
  GCOL_GROUPBY_ARGMIN = GCOL_REDUCE_ARGMIN, /**< Row (in the values view) of the smallest
                                                 valid value, the first on ties. */
  GCOL_GROUPBY_ARGMAX = GCOL_REDUCE_ARGMAX, /**< Row of the largest valid value. */
  GCOL_GROUPBY_MEDIAN = 14,                 /**< Quantile 0.5 with `interp`. */
  GCOL_GROUPBY_QUANTILE = 15,               /**< Quantile `q` with `interp`. */
  GCOL_GROUPBY_NUNIQUE = 16,                /**< Distinct valid values (+1 if `include_nulls` and a
                                                 null is present). */
  GCOL_GROUPBY_NTH_ELEMENT = 17,  /**< The `n`-th row of the group in input order (negative:
                                       from the end); nulls skipped unless `include_nulls`;
                                       null when out of range. */
  GCOL_GROUPBY_COLLECT_LIST = 18, /**< The group's values in input order as a list (null
                                       values kept if `include_nulls`). */
  GCOL_GROUPBY_M2 = 19,           /**< Sum of squared deviations from the group mean. */
  GCOL_GROUPBY_NUM_KINDS = 20     /**< Number of kinds; not a kind. */
} gcol_groupby_agg_kind;

/** @brief One aggregation with its parameters. Make it with gcol_groupby_agg_make() for
 *         the defaults, then set the fields the kind reads. */
typedef struct gcol_groupby_agg {
  gcol_groupby_agg_kind kind; /**< What to compute. */
  int32_t ddof;               /**< VARIANCE, STD: delta degrees of freedom (>= 0; default 1). */
  double q;                   /**< QUANTILE: in [0, 1] (default 0.5). */
  gcol_interpolation interp;  /**< MEDIAN, QUANTILE (default LINEAR). */
  int64_t n;                  /**< NTH_ELEMENT: 0 the first, -1 the last (default 0). */
  bool include_nulls;         /**< NUNIQUE, NTH_ELEMENT, COLLECT_LIST (default false). */
} gcol_groupby_agg;

/** @brief An aggregation of @p kind with the default parameters (ddof 1, q 0.5, LINEAR,
 *         n 0, nulls excluded). */
GCOL_HD_INLINE gcol_groupby_agg gcol_groupby_agg_make(gcol_groupby_agg_kind kind) {
  gcol_groupby_agg a;
  a.kind = kind;
  a.ddof = 1;
  a.q = 0.5;
  a.interp = GCOL_INTERPOLATION_LINEAR;
  a.n = 0;
  a.include_nulls = false;
  return a;
}

/** @brief The aggregations of one value column. */
typedef struct gcol_groupby_request {
  gcol_column_view values;      /**< As many rows as the keys (sliced views are fine). */
  const gcol_groupby_agg *aggs; /**< Host array of @p num_aggs aggregations. */
  int32_t num_aggs;             /**< >= 0. */
} gcol_groupby_request;

/** @brief Options of a groupby; NULL options mean all fields false. */
typedef struct gcol_groupby_options {
  bool drop_null_keys; /**< true: rows with a null in any key column belong to no group;
                            false: null keys form groups (nulls equal each other). */
  bool sort_keys;      /**< true: groups in ascending key order, null keys last. */
} gcol_groupby_options;

/** @brief The result of a groupby; free it with gcol_groupby_result_free(). */
typedef struct gcol_groupby_result {
  gcol_table *keys;      /**< One row per group: the key columns of the group. */
  int32_t num_columns;   /**< Number of result columns (the sum of the requests' num_aggs). */
  gcol_column **columns; /**< One per (request, aggregation), in request order; each has
                              one row per group, aligned with @p keys. */
} gcol_groupby_result;

/** @brief Frees a result and everything it owns (NULL is ignored). */
void gcol_groupby_result_free(gcol_groupby_result *result);

/** @brief The name of an aggregation kind (`"sum"`, `"median"`), `"invalid"` if out of
 *         range. */
const char *gcol_groupby_agg_name(gcol_groupby_agg_kind kind);

/**
 * @brief The result type of @p agg over values of type @p values (see the table in
 *        groupby.h), and a check of the aggregation's parameters. Needs no GPU.
 * @param[in] values The value column's data type.
 * @param[in] agg The aggregation.
 * @param[out] out The result type (LIST for COLLECT_LIST; its element type is @p values).
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointer, kind or type id out of
 *         range, ddof < 0, q outside [0, 1] or NaN, interp out of range);
 *         ::GCOL_ERROR_TYPE_MISMATCH (the aggregation does not apply to the type, e.g. SUM
 *         of STRING); ::GCOL_ERROR_UNSUPPORTED (a combination not implemented, e.g. MIN of
 *         STRING values or anything but counts of DECIMAL128). The message names them.
 */
gcol_status gcol_groupby_output_type(gcol_data_type values, const gcol_groupby_agg *agg,
                                     gcol_data_type *out);

/**
 * @brief Groups the rows of @p keys and aggregates each request's values per group.
 *
 * How it runs (docs/design.md, "Groupby"): integer-like keys (ints, BOOL8, timestamps,
 * durations, DECIMAL32/64) whose combined value range is small index the groups directly;
 * other keys go through the shared hash table (packed keys for one fixed-width key of at
 * most 8 bytes without nulls). Aggregations accumulate with atomics, in shared memory per
 * thread block while the groups are few, else in global memory; MEDIAN, QUANTILE, NUNIQUE,
 * NTH_ELEMENT and COLLECT_LIST sort the rows by (group, value) once per value column.
 * @param[in] keys The key columns (at least one); every column has `keys.num_rows` rows.
 * @param[in] requests Host array of @p num_requests requests (NULL if 0).
 * @param[in] num_requests >= 0; with 0 the result has only the keys.
 * @param[in] options NULL for the defaults (null keys form groups, unspecified order).
 * @param[out] out The result, from @p mr; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the result's memory, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, no key column, malformed
 *         views, bad parameters as gcol_groupby_output_type()); ::GCOL_ERROR_SIZE_MISMATCH
 *         (a key or value column whose row count differs from `keys.num_rows`);
 *         ::GCOL_ERROR_TYPE_MISMATCH (LIST, STRUCT, DICTIONARY32 keys; an aggregation that
 *         does not apply to its values); ::GCOL_ERROR_UNSUPPORTED; ::GCOL_ERROR_OVERFLOW
 *         (hash table); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream (the number of groups sizes the outputs). Temporaries come
 *       from the default resource. Every check that needs no GPU is done before any device
 *       work.
 */
gcol_status gcol_groupby_aggregate(gcol_table_view keys, const gcol_groupby_request *requests,
                                   int32_t num_requests, const gcol_groupby_options *options,
                                   gcol_groupby_result **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Merges partial (count, mean, M2) results, e.g. of gcol_groupby_aggregate() over
 *        partitions of a table, into the (count, mean, M2) of the groups of the union.
 *
 * Row r of @p keys is a partial group with COUNT_VALID @p count[r], MEAN @p mean[r] and M2
 * @p m2[r]; rows with equal keys are merged with Chan's formula (exact in exact arithmetic):
 * `n = sum n_i`, `mean = sum n_i mean_i / n`, `M2 = sum (M2_i + n_i (mean_i - mean)^2)`.
 * A partial with count 0 (its mean and M2 null) contributes nothing. Then VARIANCE is
 * `M2 / (n - ddof)`.
 * @param[in] keys The partial groups' keys (at least one column).
 * @param[in] count INT64, no nulls, `keys.num_rows` rows.
 * @param[in] mean FLOAT64, null where count is 0.
 * @param[in] m2 FLOAT64, null where count is 0.
 * @param[in] options As gcol_groupby_aggregate().
 * @param[out] out A result with three columns: INT64 count, FLOAT64 mean and M2 (null for
 *                 groups whose count is 0).
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the result's memory, or NULL for the default.
 * @return As gcol_groupby_aggregate(); ::GCOL_ERROR_TYPE_MISMATCH for other column types.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_groupby_merge_m2(gcol_table_view keys, gcol_column_view count,
                                  gcol_column_view mean, gcol_column_view m2,
                                  const gcol_groupby_options *options, gcol_groupby_result **out,
                                  gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_GROUPBY_H */
