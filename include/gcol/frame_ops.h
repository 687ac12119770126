/**
 * @file frame_ops.h
 * @ingroup gcol_frame
 * @brief Table operations over named tables (::gcol_frame): joins and groupby
 *        (gcol_join_tables(), gcol_groupby_aggregate()), and sort, filter, distinct,
 *        gather, slice and concatenate (sorting.h, filtering.h, copying.h), with columns
 *        chosen by name and the names carried into the result.
 *
 * The row operations (gcol_frame_sort() ... gcol_frame_concatenate()) are thin wrappers:
 * they look the named columns up, run the table operation on the frame's view, and return
 * a new frame with every column of the input under the same names and levels, in the same
 * order. They add no kernel, no device allocation and no synchronization of their own:
 * statuses, synchronization and memory are the wrapped operation's, plus
 * ::GCOL_ERROR_INVALID_ARGUMENT for a name the frame does not have (the message shows it)
 * and ::GCOL_ERROR_OUT_OF_MEMORY for the host bookkeeping. Nothing is left behind on
 * failure: `*out` is NULL and the input frames are unchanged.
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
#include "gcol/copying.h"
#include "gcol/filtering.h"
#include "gcol/frame.h"
#include "gcol/groupby.h"
#include "gcol/join.h"
#include "gcol/sorting.h"
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

/**
 * @brief The frame's rows sorted by named key columns (pandas' `sort_values(by=...)`), every
 *        column reordered: gcol_stable_sort_by_key() of the frame by its key columns. Tied
 *        rows keep their input order.
 * @code
 * const char *region[] = {"region"}, *amount[] = {"amount"};
 * gcol_name by[2] = {gcol_name_make(region, 1), gcol_name_make(amount, 1)};
 * gcol_order order[2] = {GCOL_ORDER_ASCENDING, GCOL_ORDER_DESCENDING};
 * gcol_frame *sorted = NULL;
 * gcol_status st = gcol_frame_sort(orders, by, 2, order, NULL, &sorted, stream, NULL);
 * @endcode
 * @param[in] frame The frame.
 * @param[in] by @p num_by names of key columns, most significant first (a name may repeat;
 *               a repeated key changes nothing).
 * @param[in] num_by Number of key columns (>= 1).
 * @param[in] order One per key, or NULL for all ascending.
 * @param[in] null_order One per key, or NULL for all ::GCOL_NULLS_AFTER (where nulls land,
 *                       whatever the order: see ::gcol_null_order).
 * @param[out] out The sorted frame, same names; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_stable_sort_by_key(); ::GCOL_ERROR_INVALID_ARGUMENT also for NULL
 *         pointers, @p num_by < 1, or a name the frame does not have.
 * @note Synchronizes as gcol_sort().
 */
gcol_status gcol_frame_sort(const gcol_frame *frame, const gcol_name *by, int32_t num_by,
                            const gcol_order *order, const gcol_null_order *null_order,
                            gcol_frame **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief The frame's rows where @p boolean_mask is true, in input order (pandas'
 *        `df[mask]`): gcol_apply_boolean_mask() of the frame. False and null mask rows drop.
 * @param[in] frame The frame.
 * @param[in] boolean_mask A BOOL8 column of the frame's number of rows.
 * @param[out] out The kept rows, same names; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_apply_boolean_mask(): ::GCOL_ERROR_TYPE_MISMATCH (mask not BOOL8),
 *         ::GCOL_ERROR_SIZE_MISMATCH (mask rows differ), ...; ::GCOL_ERROR_INVALID_ARGUMENT
 *         also for NULL pointers.
 * @note Synchronizes @p stream to learn the output size.
 */
gcol_status gcol_frame_apply_boolean_mask(const gcol_frame *frame, gcol_column_view boolean_mask,
                                          gcol_frame **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief The frame's rows where its BOOL8 column named @p mask is true (pandas'
 *        `df[df["flag"]]`): gcol_frame_apply_boolean_mask() by one of the frame's own
 *        columns. The mask column stays in the result, as in pandas (true in every kept
 *        row); drop it with gcol_frame_drop() if it is not wanted.
 * @param[in] frame The frame.
 * @param[in] mask The name of a BOOL8 column of the frame.
 * @param[out] out The kept rows, same names; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_frame_apply_boolean_mask(); ::GCOL_ERROR_INVALID_ARGUMENT for NULL
 *         pointers or a name the frame does not have; ::GCOL_ERROR_TYPE_MISMATCH when the
 *         named column is not BOOL8 (the message names it and its type).
 * @note Synchronizes @p stream to learn the output size.
 */
gcol_status gcol_frame_filter(const gcol_frame *frame, gcol_name mask, gcol_frame **out,
                              gcol_stream stream, gcol_mr *mr);

/**
 * @brief The frame without duplicate rows by the named @p subset of columns (pandas'
 *        `drop_duplicates(subset=..., keep=...)`): gcol_distinct() of the frame. One row of
 *        each group of rows with equal subset values is kept, chosen by @p keep; kept rows
 *        stay in input order. Equality as gcol_distinct() (-0.0 equals 0.0, NaNs equal,
 *        nulls per @p nulls).
 * @param[in] frame The frame.
 * @param[in] subset @p num_subset names of key columns (a name may repeat); NULL with
 *                   @p num_subset 0: every column is a key (pandas' `subset=None`).
 * @param[in] num_subset Number of key columns (>= 0; 0: all).
 * @param[in] keep Which row of each group to keep (::GCOL_KEEP_FIRST is pandas' default,
 *                 ::GCOL_KEEP_NONE its `keep=False`).
 * @param[in] nulls Whether null keys equal each other (pandas: ::GCOL_NULLS_EQUAL).
 * @param[out] out The kept rows, same names; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_distinct(); ::GCOL_ERROR_INVALID_ARGUMENT also for NULL pointers, a
 *         negative @p num_subset, a name the frame does not have, or no key at all (a frame
 *         without columns).
 * @note Synchronizes @p stream.
 */
gcol_status gcol_frame_distinct(const gcol_frame *frame, const gcol_name *subset,
                                int32_t num_subset, gcol_duplicate_keep keep,
                                gcol_null_equality nulls, gcol_frame **out, gcol_stream stream,
                                gcol_mr *mr);

/**
 * @brief The frame's rows picked by a row map (pandas' `df.take(...)`): row i of the result
 *        is row `gather_map[i]` of the frame, gcol_gather() of the frame with its rules
 *        (null map entries give null rows; @p policy and @p negative as there).
 * @param[in] frame The frame.
 * @param[in] gather_map Row indices, any integer type, any size.
 * @param[in] policy Out-of-range handling, see ::gcol_out_of_bounds_policy.
 * @param[in] negative Whether negative indices count from the end.
 * @param[out] out A frame of `gather_map.size` rows, same names; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_gather(); ::GCOL_ERROR_INVALID_ARGUMENT also for NULL pointers.
 * @note Synchronizes as gcol_gather().
 */
gcol_status gcol_frame_gather(const gcol_frame *frame, gcol_column_view gather_map,
                              gcol_out_of_bounds_policy policy, gcol_negative_index_policy negative,
                              gcol_frame **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief A copy of the frame's rows `[begin, end)` (pandas' `df.iloc[begin:end]`, without
 *        its clamping): gcol_table_copy() of the sliced view. A frame's columns own their
 *        memory from row 0, so the rows are copied; for a zero-copy view of them use
 *        gcol_table_view_slice() on gcol_frame_get_view().
 * @param[in] frame The frame.
 * @param[in] begin First row, `0 <= begin <= end`.
 * @param[in] end One past the last row, `end <= gcol_frame_num_rows(frame)`.
 * @param[out] out A frame of `end - begin` rows, same names; NULL on failure.
 * @param[in] stream Stream of the copies.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT for NULL pointers or bounds outside
 *         `0 <= begin <= end <= rows` (the message gives them); otherwise as
 *         gcol_table_copy().
 * @note Synchronizes as gcol_table_copy().
 */
gcol_status gcol_frame_slice(const gcol_frame *frame, int64_t begin, int64_t end, gcol_frame **out,
                             gcol_stream stream, gcol_mr *mr);

/**
 * @brief A copy of the frame's first @p n rows, as pandas' `df.head(n)`: all rows when @p n
 *        is at least the number of rows; a negative @p n gives all rows but the last `-n`
 *        (none when `-n` is at least the number of rows). gcol_frame_slice() of those rows.
 * @param[in] frame The frame.
 * @param[in] n Number of rows (any value, as above).
 * @param[out] out The first rows, same names; NULL on failure.
 * @param[in] stream Stream of the copies.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_frame_slice() (no bounds error).
 * @note Synchronizes as gcol_table_copy().
 */
gcol_status gcol_frame_head(const gcol_frame *frame, int64_t n, gcol_frame **out,
                            gcol_stream stream, gcol_mr *mr);

/**
 * @brief The rows of @p num_frames frames one after another (pandas' `concat` of frames with
 *        the same columns): gcol_concatenate_tables() of the frames.
 *
 * The frames must have the same names: the same number of levels and the same set of full
 * names. Columns are matched by name, so the frames may order them differently; the result
 * has the first frame's order. Columns of one name must have the same type.
 * @param[in] frames Host array of @p num_frames frames (a frame may appear more than once).
 * @param[in] num_frames Number of frames (>= 1).
 * @param[out] out A frame of the total rows, the first frame's names; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_concatenate_tables(); ::GCOL_ERROR_INVALID_ARGUMENT also for NULL
 *         pointers, @p num_frames < 1, and names that do not match (another number of
 *         levels or of columns, or a name the first frame has and another lacks: the message
 *         names the frame and the name); ::GCOL_ERROR_TYPE_MISMATCH for columns of one name
 *         with other types (the message names the column and both types).
 * @note Synchronizes as gcol_concatenate().
 */
gcol_status gcol_frame_concatenate(const gcol_frame *const *frames, int32_t num_frames,
                                   gcol_frame **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_FRAME_OPS_H */
