/**
 * @file copying.h
 * @ingroup gcol_copying
 * @brief Copying operations over columns and tables of every type (fixed-width including
 *        DECIMAL128, STRING, LIST and STRUCT, recursively): gather, scatter, reverse,
 *        get_element, concatenate, deep-copying split and slice, copy_if_else, copy_range
 *        and shift.
 *
 * Every operation returns new owning columns or tables allocated from @p mr (NULL: the
 * default resource); temporaries come from the default resource. STRING and LIST outputs
 * get INT32 offsets while their chars (values) stay at or below
 * gcol_large_offsets_threshold(), INT64 offsets above it; sizes are computed in 64 bits
 * first and never wrap.
 *
 * @code
 * // rows 3, 0 and the last one of a table, out-of-range indices giving null rows
 * int32_t idx[3] = {3, 0, -1};
 * gcol_column *map = NULL;
 * gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 3, idx, NULL, stream, NULL,
 *                              &map);
 * gcol_table *picked = NULL;
 * gcol_gather(gcol_table_get_view(table), gcol_column_get_view(map),
 *             GCOL_OUT_OF_BOUNDS_NULLIFY, GCOL_NEGATIVE_INDEX_WRAP, &picked, stream, NULL);
 * @endcode
 *
 * Synchronization: an operation synchronizes @p stream only where it must bring a value to
 * the host: the null count of an output that may hold nulls, the size of a STRING or LIST
 * output (size-then-fill), the result of ::GCOL_OUT_OF_BOUNDS_CHECK, and a null count of an
 * input that is ::GCOL_UNKNOWN_NULL_COUNT. Each function's `@note` says which apply.
 */
#ifndef GCOL_COPYING_H
#define GCOL_COPYING_H

/** @addtogroup gcol_copying
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief What gather and scatter do with an index outside the source (target) rows. */
typedef enum gcol_out_of_bounds_policy {
  /** The caller promises every index is in range; an index out of range reads (gather) or
   *  is undefined behaviour. Fastest: no extra pass, no synchronization. Scatter ignores
   *  out-of-range indices under this policy (it never writes out of bounds). */
  GCOL_OUT_OF_BOUNDS_DONT_CHECK = 0,
  /** Gather: a row whose index is out of range becomes a null row. Scatter: the index is
   *  ignored. */
  GCOL_OUT_OF_BOUNDS_NULLIFY = 1,
  /** Validation: one pass on the device checks every non-null index first, and the call
   *  fails with ::GCOL_ERROR_INVALID_ARGUMENT (message: how many, the first bad position's
   *  value, the valid range) when any is out of range. Synchronizes the stream. */
  GCOL_OUT_OF_BOUNDS_CHECK = 2
} gcol_out_of_bounds_policy;

/** @brief Whether negative indices count from the end (`-1` is the last row). */
typedef enum gcol_negative_index_policy {
  GCOL_NEGATIVE_INDEX_NOT_ALLOWED = 0, /**< A negative index is out of range. */
  GCOL_NEGATIVE_INDEX_WRAP = 1         /**< `i < 0` reads row `num_rows + i`. */
} gcol_negative_index_policy;

/**
 * @brief Gathers rows of @p source: row i of the output is row `gather_map[i]` of @p source.
 *
 * A null entry of @p gather_map gives a null output row under every policy; a null row of
 * a STRING or LIST output is empty (no chars or values), whatever lay under the source's
 * null. Under
 * ::GCOL_NEGATIVE_INDEX_WRAP an index `i` in `[-num_rows, 0)` reads row `num_rows + i`
 * (UINT64 indices above INT64_MAX count as negative). Output null masks are built a whole
 * 32-bit word at a time (no atomics).
 * @param[in] source The table to gather from (any types; DICTIONARY32 unsupported).
 * @param[in] gather_map Row indices, any integer type (INT8..UINT64), any size.
 * @param[in] policy Out-of-range handling, see ::gcol_out_of_bounds_policy.
 * @param[in] negative Whether negative indices wrap.
 * @param[out] out A table of `gather_map.size` rows with the columns of @p source; NULL on
 *                 failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, bad option, malformed view,
 *         an out-of-range index under ::GCOL_OUT_OF_BOUNDS_CHECK),
 *         ::GCOL_ERROR_TYPE_MISMATCH (non-integer map), ::GCOL_ERROR_UNSUPPORTED
 *         (DICTIONARY32 or EMPTY column), ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream to count the output's nulls when it may hold nulls, to size
 *       STRING and LIST outputs, and under ::GCOL_OUT_OF_BOUNDS_CHECK. The caller owns
 *       *out (gcol_table_free()).
 */
gcol_status gcol_gather(gcol_table_view source, gcol_column_view gather_map,
                        gcol_out_of_bounds_policy policy, gcol_negative_index_policy negative,
                        gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Scatters the rows of @p source into a copy of @p target: output row
 *        `scatter_map[i]` is row i of @p source; other rows are @p target's.
 *
 * Negative indices always wrap (`-1` is the last target row). Null entries of
 * @p scatter_map, and indices out of range under ::GCOL_OUT_OF_BOUNDS_DONT_CHECK or
 * ::GCOL_OUT_OF_BOUNDS_NULLIFY, are ignored. When an index repeats, one of its source rows
 * wins (which one is unspecified), the same one for every column.
 * @param[in] source Rows to write; same number of columns and the same column types
 *                   (children included) as @p target.
 * @param[in] scatter_map One integer index (any integer type) per source row.
 * @param[in] target The table written into (not modified).
 * @param[in] policy ::GCOL_OUT_OF_BOUNDS_CHECK fails on any index out of range.
 * @param[out] out The new table of `target.num_rows` rows; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH (column types
 *         differ, non-integer map), ::GCOL_ERROR_SIZE_MISMATCH (map size != source rows,
 *         column counts differ), ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA
 *         status.
 * @note Works for every type by gathering from target and source side by side (an internal
 *       concatenation), so it moves both tables once more than a fixed-width in-place
 *       scatter would. Synchronizes as gcol_gather().
 */
gcol_status gcol_scatter(gcol_table_view source, gcol_column_view scatter_map,
                         gcol_table_view target, gcol_out_of_bounds_policy policy, gcol_table **out,
                         gcol_stream stream, gcol_mr *mr);

/**
 * @brief Writes one scalar per column of @p target into every row listed in @p indices.
 * @param[in] scalars Host array of `target.num_columns` scalars (fixed-width or STRING; may
 *                    be null scalars) whose types equal the target columns' types.
 * @param[in] num_scalars Must equal `target.num_columns`.
 * @param[in] indices Target rows (any integer type; negative wrap; nulls ignored).
 * @param[in] target The table written into (not modified).
 * @param[in] policy As in gcol_scatter().
 * @param[out] out The new table; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_scatter(); ::GCOL_ERROR_TYPE_MISMATCH when a scalar's type differs from
 *         its column's, ::GCOL_ERROR_SIZE_MISMATCH when @p num_scalars differs.
 * @note Synchronizes as gcol_gather().
 */
gcol_status gcol_scatter_scalars(const gcol_scalar *const *scalars, int32_t num_scalars,
                                 gcol_column_view indices, gcol_table_view target,
                                 gcol_out_of_bounds_policy policy, gcol_table **out,
                                 gcol_stream stream, gcol_mr *mr);

/**
 * @brief The rows of @p source in reverse order.
 * @param[in] source Any table.
 * @param[out] out The new table; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_UNSUPPORTED,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes as gcol_gather().
 */
gcol_status gcol_reverse(gcol_table_view source, gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief gcol_gather() of one column: row i of the output is row `gather_map[i]` of
 *        @p source, without building a table view or unwrapping a table.
 *
 * The same rules as gcol_gather() (null map entries, policies, negative indices).
 * @code
 * gcol_column *picked = NULL;
 * gcol_column_gather(gcol_column_get_view(prices), gcol_column_get_view(rows),
 *                    GCOL_OUT_OF_BOUNDS_CHECK, GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &picked,
 *                    stream, NULL);
 * @endcode
 * @param[in] source The column to gather from (any type but DICTIONARY32; sliced or not).
 * @param[in] gather_map Row indices, any integer type, any size.
 * @param[in] policy Out-of-range handling, see ::gcol_out_of_bounds_policy.
 * @param[in] negative Whether negative indices wrap.
 * @param[out] out A column of `gather_map.size` rows of @p source's type; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_gather(): ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, bad
 *         option, malformed view, an out-of-range index under ::GCOL_OUT_OF_BOUNDS_CHECK),
 *         ::GCOL_ERROR_TYPE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY,
 *         CUDA status.
 * @note Synchronizes as gcol_gather(). The caller owns *out (gcol_column_free()).
 */
gcol_status gcol_column_gather(gcol_column_view source, gcol_column_view gather_map,
                               gcol_out_of_bounds_policy policy,
                               gcol_negative_index_policy negative, gcol_column **out,
                               gcol_stream stream, gcol_mr *mr);

/**
 * @brief gcol_reverse() of one column: its rows in reverse order.
 * @param[in] source Any column but DICTIONARY32 (sliced or not).
 * @param[out] out The new column; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_reverse(): ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out,
 *         malformed view), ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes as gcol_gather(). The caller owns *out (gcol_column_free()).
 */
gcol_status gcol_column_reverse(gcol_column_view source, gcol_column **out, gcol_stream stream,
                                gcol_mr *mr);

/**
 * @brief Row @p index of a fixed-width or STRING column as a host scalar.
 * @param[in] column The column (offset honoured).
 * @param[in] index `0 <= index < column.size`.
 * @param[out] out A new scalar of the column's type (a null scalar for a null row).
 * @param[in] stream Stream of the copies.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, @p index out of range),
 *         ::GCOL_ERROR_UNSUPPORTED (LIST, STRUCT, DICTIONARY32), ::GCOL_ERROR_OUT_OF_MEMORY,
 *         CUDA status.
 * @note Synchronizes @p stream. The caller owns *out (gcol_scalar_free()).
 */
gcol_status gcol_get_element(gcol_column_view column, int64_t index, gcol_scalar **out,
                             gcol_stream stream);

/**
 * @brief Concatenates @p num_columns columns of one type (children included) into one.
 *
 * Without nulls a fixed-width concatenation is one device copy per input, no kernel.
 * Null masks are combined at any bit offsets. STRING and LIST outputs switch to INT64
 * offsets when their total chars (values) exceed gcol_large_offsets_threshold().
 * @param[in] columns Host array of views (slices welcome).
 * @param[in] num_columns Number of views (>= 1).
 * @param[out] out The new column; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL arrays, no column, malformed view),
 *         ::GCOL_ERROR_TYPE_MISMATCH (types differ; the message names the column),
 *         ::GCOL_ERROR_OVERFLOW (total rows beyond INT64_MAX), ::GCOL_ERROR_UNSUPPORTED,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream to read the chars (values) extent of STRING and LIST inputs
 *       and to count nulls of inputs whose count is unknown.
 */
gcol_status gcol_concatenate(const gcol_column_view *columns, int32_t num_columns,
                             gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Concatenates the rows of @p num_tables tables with the same column types.
 * @param[in] tables Host array of table views.
 * @param[in] num_tables Number of tables (>= 1).
 * @param[out] out The new table; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_concatenate(); ::GCOL_ERROR_SIZE_MISMATCH when column counts differ.
 * @note Synchronizes as gcol_concatenate().
 */
gcol_status gcol_concatenate_tables(const gcol_table_view *tables, int32_t num_tables,
                                    gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Deep copies of row ranges of @p source: piece k holds rows
 *        `[bounds[2k], bounds[2k+1])`.
 * @param[in] source Any table.
 * @param[in] bounds Host array of `2 * num_slices` row indices, each pair ordered, within
 *                   `[0, source.num_rows]`.
 * @param[in] num_slices Number of pieces (>= 0).
 * @param[out] out Host array of @p num_slices table pointers, all set (to NULL on failure).
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the outputs, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (bad bounds, NULL arrays),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes as gcol_table_copy(). The caller owns each table.
 */
gcol_status gcol_slice_copy(gcol_table_view source, const int64_t *bounds, int32_t num_slices,
                            gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Deep copies of the `num_splits + 1` pieces of @p source cut at ascending row
 *        indices @p splits (piece 0 is `[0, splits[0])`, the last `[splits[n-1], rows)`).
 * @param[in] source Any table.
 * @param[in] splits Host array of @p num_splits ascending indices within
 *                   `[0, source.num_rows]` (may be NULL when @p num_splits is 0).
 * @param[in] num_splits Number of cut points (>= 0).
 * @param[out] out Host array of `num_splits + 1` table pointers (all NULL on failure).
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the outputs, or NULL for the default.
 * @return As gcol_slice_copy().
 * @note Synchronizes as gcol_table_copy(). The caller owns each table.
 */
gcol_status gcol_split_copy(gcol_table_view source, const int64_t *splits, int32_t num_splits,
                            gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Row i is `lhs[i]` where `mask[i]` is true, else `rhs[i]`; a null mask entry counts
 *        as false.
 * @param[in] lhs, rhs Columns of the same type (children included) and size.
 * @param[in] mask A BOOL8 column of the same size.
 * @param[out] out The new column; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH (types differ,
 *         mask not BOOL8), ::GCOL_ERROR_SIZE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes as gcol_gather() (it gathers from both sides placed side by side).
 */
gcol_status gcol_copy_if_else(gcol_column_view lhs, gcol_column_view rhs, gcol_column_view mask,
                              gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_copy_if_else() with a scalar (fixed-width or STRING, may be null) as the
 *        value where the mask is false.
 * @param[in] lhs Column.
 * @param[in] rhs Scalar of lhs's type.
 * @param[in] mask BOOL8 column of lhs's size.
 * @param[out] out The new column; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_copy_if_else().
 * @note Synchronizes as gcol_gather().
 */
gcol_status gcol_copy_if_else_column_scalar(gcol_column_view lhs, const gcol_scalar *rhs,
                                            gcol_column_view mask, gcol_column **out,
                                            gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_copy_if_else() with a scalar as the value where the mask is true.
 * @param[in] lhs Scalar of rhs's type.
 * @param[in] rhs Column.
 * @param[in] mask BOOL8 column of rhs's size.
 * @param[out] out The new column; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_copy_if_else().
 * @note Synchronizes as gcol_gather().
 */
gcol_status gcol_copy_if_else_scalar_column(const gcol_scalar *lhs, gcol_column_view rhs,
                                            gcol_column_view mask, gcol_column **out,
                                            gcol_stream stream, gcol_mr *mr);

/**
 * @brief A copy of @p target with rows `[target_begin, target_begin + (source_end -
 *        source_begin))` replaced by rows `[source_begin, source_end)` of @p source.
 * @param[in] source Column of target's type (children included).
 * @param[in] source_begin, source_end `0 <= source_begin <= source_end <= source.size`.
 * @param[in] target Column copied.
 * @param[in] target_begin First target row replaced; the range must fit in the target.
 * @param[out] out The new column; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (bad range), ::GCOL_ERROR_TYPE_MISMATCH,
 *         ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes as gcol_concatenate() (it concatenates three slices).
 */
gcol_status gcol_copy_range(gcol_column_view source, int64_t source_begin, int64_t source_end,
                            gcol_column_view target, int64_t target_begin, gcol_column **out,
                            gcol_stream stream, gcol_mr *mr);

/**
 * @brief Shifts rows by @p offset: row i of the output is `input[i - offset]` where that
 *        exists, else @p fill (positive offsets move rows down).
 * @param[in] input Any column.
 * @param[in] offset Rows to shift by (any sign; |offset| >= size gives all fill).
 * @param[in] fill A scalar of input's type, or NULL or a null scalar for null rows (the
 *                 only fill that LIST and STRUCT columns accept).
 * @param[out] out The new column; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH (fill type
 *         differs), ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes as gcol_concatenate() / gcol_gather().
 */
gcol_status gcol_shift(gcol_column_view input, int64_t offset, const gcol_scalar *fill,
                       gcol_column **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_COPYING_H */
