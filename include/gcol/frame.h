/**
 * @file frame.h
 * @ingroup gcol_frame
 * @brief Named tables (`gcol_frame`): a ::gcol_table whose columns have names, with
 *        multi-level names like cuDF's ColumnAccessor.
 *
 * A name is a tuple of strings (::gcol_name); every name of one frame has the same number
 * of levels, fixed when the frame is made. One level gives plain column names. Names are
 * unique within a frame. Columns are selected by full name, by a list of names, or by a
 * prefix of the levels (every column whose first `depth` levels match; as a new frame,
 * gcol_frame_select_prefix() drops the prefix levels from the names, as cuDF does).
 *
 * @code
 * // a table of 3 columns named ("a", "x"), ("a", "y"), ("b", "x")
 * const char *n0[] = {"a", "x"}, *n1[] = {"a", "y"}, *n2[] = {"b", "x"};
 * gcol_name names[3] = {gcol_name_make(n0, 2), gcol_name_make(n1, 2), gcol_name_make(n2, 2)};
 * gcol_frame *frame = NULL;
 * gcol_status st = gcol_frame_make(table, names, 3, 2, &frame); // takes the table
 * const char *a[] = {"a"};
 * int32_t idx[3], count = 0;
 * st = gcol_frame_prefix_indices(frame, gcol_name_make(a, 1), idx, 3, &count); // 0, 1
 * gcol_frame_free(frame);  // frees the table too
 * @endcode
 *
 * The frame is opaque: its name index must stay consistent with its columns, so columns
 * and names change only through the calls below. Every call here is host-only bookkeeping:
 * no kernel, no synchronization, no device allocation (gcol_frame_drop() and
 * gcol_frame_free() free columns in stream order), except that gcol_frame_copy_shallow(),
 * gcol_frame_select() and gcol_frame_select_prefix() copy exposed buffers (see
 * gcol/buffer.h; shared ones are not).
 */
#ifndef GCOL_FRAME_H
#define GCOL_FRAME_H

/** @addtogroup gcol_frame
 *  @{ */

#include "gcol/config.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief A column name: a tuple of @p num_levels strings. Non-owning: the strings are
 *        the caller's, and calls that keep a name copy it.
 */
typedef struct gcol_name {
  int32_t num_levels;        /**< Number of strings (levels). */
  const char *const *levels; /**< Host array of @p num_levels NUL-terminated strings. */
} gcol_name;

/** @brief A name over @p num_levels strings (not copied). */
static inline gcol_name gcol_name_make(const char *const *levels, int32_t num_levels) {
  gcol_name n;
  n.num_levels = num_levels;
  n.levels = levels;
  return n;
}

/** @brief A table with named columns (opaque; see the file's description). */
typedef struct gcol_frame gcol_frame;

/**
 * @brief Makes a frame from @p table and one name per column, taking ownership of the
 *        table on success only (on failure the caller still owns it).
 * @param[in] table The columns (its `num_columns` must equal @p num_names).
 * @param[in] names @p num_names names, each of @p num_levels levels (copied).
 * @param[in] num_names Number of names.
 * @param[in] num_levels Levels of every name of the frame (>= 1).
 * @param[out] out The frame; NULL on failure.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT for NULL pointers, @p num_levels < 1, a
 *         name with another number of levels (the message names the column and both
 *         counts), a NULL level string, two columns with the same name (the message names
 *         both columns and the name); ::GCOL_ERROR_SIZE_MISMATCH when @p num_names is not
 *         the table's number of columns; ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_frame_make(gcol_table *table, const gcol_name *names, int32_t num_names,
                            int32_t num_levels, gcol_frame **out);

/** @brief Frees a frame, its names and its table. NULL is a no-op. */
void gcol_frame_free(gcol_frame *frame);

/**
 * @brief Takes the table out of @p frame and frees the frame and its names.
 * @param[in] frame The frame (freed by the call).
 * @param[out] out_table The table, now the caller's.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT for a NULL pointer (nothing freed).
 */
gcol_status gcol_frame_release(gcol_frame *frame, gcol_table **out_table);

/** @brief Number of columns (0 for a NULL frame). */
int32_t gcol_frame_num_columns(const gcol_frame *frame);

/** @brief Number of rows of every column (0 for a NULL frame or one without columns). */
int64_t gcol_frame_num_rows(const gcol_frame *frame);

/** @brief Levels of every name of the frame (0 for a NULL frame). */
int32_t gcol_frame_num_levels(const gcol_frame *frame);

/**
 * @brief The view of the frame's table, columns in frame order (valid until the frame's
 *        columns change or the frame is freed). A zeroed view for a NULL frame.
 */
gcol_table_view gcol_frame_get_view(const gcol_frame *frame);

/**
 * @brief The owning column at @p index (still the frame's), or NULL when @p frame is NULL
 *        or @p index is out of range.
 */
const gcol_column *gcol_frame_get_column(const gcol_frame *frame, int32_t index);

/**
 * @brief The name of column @p index.
 * @param[in] frame The frame.
 * @param[in] index Column index, in `[0, num_columns)`.
 * @param[out] out The name; its strings belong to the frame and stay valid until the column
 *             is renamed or dropped or the frame is freed.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointer, index out of range).
 */
gcol_status gcol_frame_get_name(const gcol_frame *frame, int32_t index, gcol_name *out);

/**
 * @brief Looks up a full name: @p out is its column's index, or -1 when no column has it
 *        (a query, not an error).
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT for NULL pointers, a NULL level
 *         string, or a name whose number of levels is not the frame's.
 */
gcol_status gcol_frame_find(const gcol_frame *frame, gcol_name name, int32_t *out);

/**
 * @brief The indices of @p num_names full names, in the order given (a name may repeat).
 * @param[in] frame The frame.
 * @param[in] names @p num_names names of the frame's number of levels.
 * @param[in] num_names Number of names (>= 0).
 * @param[out] out @p num_names indices.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT for NULL pointers, a level count that is
 *         not the frame's, or a name no column has (the message shows it); @p out is then
 *         unspecified.
 */
gcol_status gcol_frame_indices(const gcol_frame *frame, const gcol_name *names,
                               int32_t num_names, int32_t *out);

/**
 * @brief The indices of the columns whose first `prefix.num_levels` levels equal @p prefix,
 *        in frame order.
 * @param[in] frame The frame.
 * @param[in] prefix 1 to `num_levels` levels (all levels: the one column of that name).
 * @param[out] out Room for @p capacity indices.
 * @param[in] capacity Entries of @p out; gcol_frame_num_columns() always suffices.
 * @param[out] out_count Number of columns that match (>= 1 on success).
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT for NULL pointers, a prefix of 0 levels
 *         or of more levels than the frame's, no column matching, or more matches than
 *         @p capacity (the message gives the count).
 */
gcol_status gcol_frame_prefix_indices(const gcol_frame *frame, gcol_name prefix, int32_t *out,
                                      int32_t capacity, int32_t *out_count);

/**
 * @brief A table view of the columns named by @p names, in that order, over @p storage.
 * @param[in] frame The frame.
 * @param[in] names @p num_names full names.
 * @param[in] num_names Number of names.
 * @param[out] storage Host array of @p num_names views that @p out refers to.
 * @param[out] out The view (valid while @p storage and the frame's columns are).
 * @return As gcol_frame_indices().
 */
gcol_status gcol_frame_select_view(const gcol_frame *frame, const gcol_name *names,
                                   int32_t num_names, gcol_column_view *storage,
                                   gcol_table_view *out);

/**
 * @brief A new frame with the same names over shallow copies of the frame's columns
 *        (gcol_table_copy_shallow(): buffers shared, not copied, except exposed ones).
 *        Writing either frame's columns later (through gcol_column_get_mutable_view()) copies
 *        the buffers written, so neither frame sees the other's writes.
 * @param[in] frame The frame (unchanged).
 * @param[in] stream Stream of the copies of exposed buffers.
 * @param[out] out The new frame; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_frame_copy_shallow(const gcol_frame *frame, gcol_stream stream, gcol_frame **out);

/**
 * @brief A new frame of the columns named by @p names, in that order, under the same names:
 *        shallow copies of the frame's columns (buffers shared, as gcol_frame_copy_shallow()).
 * @param[in] frame The frame (unchanged).
 * @param[in] names @p num_names full names, each naming a column once.
 * @param[in] num_names Number of names (0 gives a frame without columns).
 * @param[in] stream Stream of the copies of exposed buffers.
 * @param[out] out The new frame; NULL on failure.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT for NULL pointers, a level count that is
 *         not the frame's, a name no column has or a name given twice (the message shows
 *         it); ::GCOL_ERROR_OUT_OF_MEMORY; CUDA status.
 */
gcol_status gcol_frame_select(const gcol_frame *frame, const gcol_name *names, int32_t num_names,
                              gcol_stream stream, gcol_frame **out);

/**
 * @brief A new frame of the columns under a level prefix, as cuDF's ColumnAccessor selects by
 *        a tuple key (pandas' `df[prefix]` on MultiIndex columns): shallow copies of the
 *        columns (buffers shared, as gcol_frame_copy_shallow()), in frame order.
 *
 * With `k = prefix.num_levels` and `L` the frame's levels:
 * - `k < L`: every column whose first `k` levels are @p prefix, named by its remaining
 *   `L - k` levels (the prefix levels are dropped; `L - k == 1` gives plain one-level
 *   names). Even a single column under the prefix is named by its remaining levels. The
 *   remaining names are unique, since the full names were.
 * - `k == L` (a full name, a single leaf): the one column of that name, keeping its full
 *   name and the frame's `L` levels (cuDF returns a leaf under its own key).
 *
 * Frames of `("a", "x")`, `("b", "x")`, `("a", "y")`: prefix `("a")` gives `("x")`, `("y")`
 * (one level); prefix `("a", "y")` gives `("a", "y")` (two levels). Of a three-level frame,
 * prefix `("a")` gives two-level names.
 * @param[in] frame The frame (unchanged).
 * @param[in] prefix 1 to `num_levels` levels.
 * @param[in] stream Stream of the copies of exposed buffers.
 * @param[out] out The new frame; NULL on failure.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT for NULL pointers, a prefix of 0 levels or
 *         of more levels than the frame's, a NULL level string, or no column under the prefix
 *         (the message shows it); ::GCOL_ERROR_OUT_OF_MEMORY; CUDA status.
 * @note gcol_frame_prefix_indices() gives the same columns' indices without a new frame.
 */
gcol_status gcol_frame_select_prefix(const gcol_frame *frame, gcol_name prefix, gcol_stream stream,
                                     gcol_frame **out);

/**
 * @brief Renames the column named @p old_name to @p new_name.
 * @return ::GCOL_OK (renaming a column to its own name included);
 *         ::GCOL_ERROR_INVALID_ARGUMENT for NULL pointers, level counts that are not the
 *         frame's, an unknown @p old_name, or a @p new_name another column has; on failure
 *         the frame is unchanged. ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_frame_rename(gcol_frame *frame, gcol_name old_name, gcol_name new_name);

/**
 * @brief Inserts @p column at position @p index under @p name, taking ownership of it on
 *        success only.
 * @param[in,out] frame The frame.
 * @param[in] index Position in `[0, num_columns]` (num_columns appends).
 * @param[in] name The new column's name (the frame's number of levels, not yet used).
 * @param[in] column The column; its rows must be the frame's (any number when the frame has
 *            no column).
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, index out of range, level
 *         mismatch, a name already used); ::GCOL_ERROR_SIZE_MISMATCH (rows differ);
 *         ::GCOL_ERROR_OUT_OF_MEMORY. On failure the frame is unchanged.
 */
gcol_status gcol_frame_insert(gcol_frame *frame, int32_t index, gcol_name name,
                              gcol_column *column);

/**
 * @brief Removes the column named @p name and hands it to the caller.
 * @param[in,out] frame The frame.
 * @param[in] name A full name of the frame.
 * @param[out] out The column, now the caller's (free it with gcol_column_free()).
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, level mismatch,
 *         unknown name; the frame is then unchanged).
 */
gcol_status gcol_frame_pop(gcol_frame *frame, gcol_name name, gcol_column **out);

/**
 * @brief Removes and frees the columns named by @p names (a name may repeat).
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, level mismatch, a name
 *         no column has): then nothing is dropped. ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_frame_drop(gcol_frame *frame, const gcol_name *names, int32_t num_names);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_FRAME_H */
