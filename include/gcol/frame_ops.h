/**
 * @file frame_ops.h
 * @ingroup gcol_frame
 * @brief Joins and groupby over named tables (::gcol_frame): the same operations as
 *        gcol_join_tables() and gcol_groupby_aggregate(), with columns chosen by name and
 *        the names carried into the result.
 *
 * Naming rules (pandas' `merge` and `groupby(..., as_index=False)` for one level of names):
 * - A join keeps each side's names. A name that both sides' output columns have gets the
 *   left suffix on the left column and the right suffix on the right one (appended to the
 *   name's last level; defaults `"_x"`, `"_y"`). Right key columns are left out by default
 *   (their values equal the left keys' on every matched row), so joining on a column both
 *   sides call `id` gives one `id`.
 * - A groupby result has the key columns under their names, then one column per aggregation
 *   named as its value column with `"_<aggregation>"` appended to the last level
 *   (`amount_sum`, `amount_median`), or with the last level replaced by the aggregation's
 *   own name where one is given. The result has the frame's number of levels, so it joins
 *   with frames like its input.
 * - A result name that collides after these rules fails with ::GCOL_ERROR_INVALID_ARGUMENT
 *   naming it (give the aggregation a name, or other suffixes).
 *
 * @code
 * const char *id[] = {"id"}, *amount[] = {"amount"};
 * gcol_frame_agg agg = {gcol_name_make(amount, 1), gcol_groupby_agg_make(GCOL_GROUPBY_SUM), NULL};
 * gcol_name key = gcol_name_make(id, 1);
 * gcol_frame *sums = NULL;  // columns "id", "amount_sum"
 * gcol_status st = gcol_frame_groupby(orders, &key, 1, &agg, 1, NULL, &sums, stream, NULL);
 * gcol_frame *joined = NULL; // customers' columns, then "amount_sum"
 * st = gcol_frame_join(customers, &key, sums, &key, 1, GCOL_JOIN_LEFT, NULL, &joined, stream,
 *                      NULL);
 * @endcode
 */
#ifndef GCOL_FRAME_OPS_H
#define GCOL_FRAME_OPS_H

/** @addtogroup gcol_frame
 *  @{ */

#include "gcol/config.h"
#include "gcol/frame.h"
#include "gcol/groupby.h"
#include "gcol/join.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief Options of gcol_frame_join(); set them with gcol_frame_join_options_init(). */
typedef struct gcol_frame_join_options {
  gcol_null_equality nulls; /**< Whether null keys match (default ::GCOL_NULLS_EQUAL). */
  bool keep_right_keys;     /**< Keep the right key columns too (default false). */
  const char *left_suffix;  /**< Appended to a colliding left name's last level ("_x"). */
  const char *right_suffix; /**< Appended to a colliding right name's last level ("_y"). */
} gcol_frame_join_options;

/** @brief Sets the defaults: nulls equal, right keys left out, suffixes "_x" and "_y". */
void gcol_frame_join_options_init(gcol_frame_join_options *options);

/**
 * @brief Joins two frames on named key columns; the result is named by the rules of
 *        frame_ops.h.
 * @param[in] left Left frame.
 * @param[in] left_on @p num_keys names of left key columns.
 * @param[in] right Right frame (the same number of name levels as @p left).
 * @param[in] right_on @p num_keys names of right key columns, paired with @p left_on.
 * @param[in] num_keys Number of key columns (>= 1).
 * @param[in] kind The join; semi and anti joins give the left columns only.
 * @param[in] options NULL for the defaults of gcol_frame_join_options_init().
 * @param[out] out The joined frame; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_join_tables(); ::GCOL_ERROR_INVALID_ARGUMENT also for NULL pointers, a
 *         key name a frame does not have, frames with different numbers of name levels,
 *         NULL suffixes, equal suffixes, or a result name given twice.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_frame_join(const gcol_frame *left, const gcol_name *left_on,
                            const gcol_frame *right, const gcol_name *right_on, int32_t num_keys,
                            gcol_join_kind kind, const gcol_frame_join_options *options,
                            gcol_frame **out, gcol_stream stream, gcol_mr *mr);

/** @brief One aggregation of a frame's column, for gcol_frame_groupby(). */
typedef struct gcol_frame_agg {
  gcol_name column;     /**< The value column's name. */
  gcol_groupby_agg agg; /**< The aggregation. */
  const char *name;     /**< The result's last level; NULL: the value column's last level
                             and `"_"` and gcol_groupby_agg_name() of the kind. */
} gcol_frame_agg;

/**
 * @brief Groups a frame's rows by named key columns and aggregates named value columns; the
 *        result is named by the rules of frame_ops.h (keys first, then one column per
 *        aggregation in the order given).
 * @param[in] frame The frame.
 * @param[in] keys @p num_keys names of key columns (>= 1).
 * @param[in] num_keys Number of key columns.
 * @param[in] aggs @p num_aggs aggregations (a value column may appear in several; those of
 *            one column share its passes).
 * @param[in] num_aggs Number of aggregations (>= 0; 0 gives the distinct keys).
 * @param[in] options As gcol_groupby_aggregate() (NULL for its defaults).
 * @param[out] out The result frame; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the result's memory, or NULL for the default.
 * @return As gcol_groupby_aggregate(); ::GCOL_ERROR_INVALID_ARGUMENT also for NULL
 *         pointers, a name the frame does not have, or a result name given twice.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_frame_groupby(const gcol_frame *frame, const gcol_name *keys, int32_t num_keys,
                               const gcol_frame_agg *aggs, int32_t num_aggs,
                               const gcol_groupby_options *options, gcol_frame **out,
                               gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_FRAME_OPS_H */
