/**
 * @file filling.h
 * @ingroup gcol_filtering
 * @brief Filling: set a range of rows to a scalar (in place or into a copy), build a
 *        sequence `init + i * step`, and repeat rows (each by its own count, or all by one
 *        count).
 *
 * @code
 * gcol_scalar *init = NULL, *step = NULL;
 * gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), 100, &init);
 * gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), -3, &step);
 * gcol_column *seq = NULL;                 // 100, 97, 94, ...
 * gcol_status st = gcol_sequence(1000, init, step, &seq, stream, NULL);
 *
 * gcol_table *rep = NULL;                  // each row of t three times in a row
 * st = gcol_repeat_scalar(table_view, 3, &rep, stream, NULL);
 * @endcode
 */
#ifndef GCOL_FILLING_H
#define GCOL_FILLING_H

/** @addtogroup gcol_filtering
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief Sets rows `[begin, end)` of the column @p destination to @p value, in place, and
 *        keeps the column's null count right by itself.
 *
 * A valid value also marks the rows valid (if the column has a mask); a null value marks
 * them null, which needs a mask unless the range is empty (an empty range is a no-op): give
 * a column without one a mask first (gcol_bitmask_create() with ::GCOL_MASK_ALL_VALID, then
 * gcol_column_set_null_mask()), as libcudf's fill_in_place needs a nullable destination.
 * Buffers shared with shallow copies are copied first (copy on write, as
 * gcol_column_get_mutable_view()); the copies keep the old rows.
 * @param[in,out] destination A fixed-width column; its `null_count` is the number of nulls
 *                            after the fill when this returns ::GCOL_OK.
 * @param[in] begin First row (0 <= begin <= end).
 * @param[in] end One past the last row (<= destination->size).
 * @param[in] value A scalar of the destination's data type (valid or null).
 * @param[in] stream Stream of the work.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, bad range, a null value
 *         over a non-empty range without a destination mask); ::GCOL_ERROR_TYPE_MISMATCH
 *         (not fixed-width, or the value's type differs); ::GCOL_ERROR_OUT_OF_MEMORY (a
 *         shared buffer's copy); a CUDA status. Nothing is written when the checks fail.
 * @note Synchronizes @p stream when the column has a mask (to count the nulls it replaces);
 *       otherwise stream-ordered.
 */
gcol_status gcol_fill_in_place(gcol_column *destination, int64_t begin, int64_t end,
                               const gcol_scalar *value, gcol_stream stream);

/**
 * @brief gcol_fill_in_place() through a mutable view (for memory that is not a
 *        ::gcol_column, or a view taken for several writes): sets rows `[begin, end)` of
 *        @p destination to @p value.
 * @param[in,out] destination A fixed-width column's mutable view; its `null_count` is
 *                            updated when it was known (not ::GCOL_UNKNOWN_NULL_COUNT).
 *                            A column the view came from is not: call
 *                            gcol_column_set_null_count() with the view's new count, or use
 *                            gcol_fill_in_place(), which does.
 * @param[in] begin First row (0 <= begin <= end).
 * @param[in] end One past the last row (<= destination->size).
 * @param[in] value A scalar of the destination's data type (valid or null).
 * @param[in] stream Stream of the work.
 * @return As gcol_fill_in_place(), without the copy of shared buffers.
 * @note Synchronizes @p stream when the destination has a mask (to count the nulls it
 *       replaces); otherwise stream-ordered.
 */
gcol_status gcol_fill_in_place_view(gcol_mutable_column_view *destination, int64_t begin,
                                    int64_t end, const gcol_scalar *value, gcol_stream stream);

/**
 * @brief A copy of @p input whose rows `[begin, end)` are @p value (valid or null).
 * @param[in] input A fixed-width or STRING column (sliced or not).
 * @param[in] begin First row (0 <= begin <= end).
 * @param[in] end One past the last row (<= input.size).
 * @param[in] value A scalar of the input's data type.
 * @param[out] out The result; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, bad range);
 *         ::GCOL_ERROR_TYPE_MISMATCH (types differ); ::GCOL_ERROR_UNSUPPORTED (LIST, STRUCT,
 *         DICTIONARY32); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream (null counts, string sizes). The caller owns *out.
 */
gcol_status gcol_fill(gcol_column_view input, int64_t begin, int64_t end, const gcol_scalar *value,
                      gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief A column of @p size rows with row i = `init + i * step`, without nulls.
 *
 * Integers wrap around modulo 2^width (no undefined behaviour); floats compute
 * `init + (T)i * step` in the type with separate roundings (no fused multiply-add).
 * @param[in] size Rows (>= 0).
 * @param[in] init A valid scalar of an integer or float type.
 * @param[in] step A valid scalar of the same type.
 * @param[out] out The result; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, negative size, a null
 *         scalar); ::GCOL_ERROR_TYPE_MISMATCH (not an integer or float type, or the types
 *         differ); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Stream-ordered, no synchronization. The caller owns *out.
 */
gcol_status gcol_sequence(int64_t size, const gcol_scalar *init, const gcol_scalar *step,
                          gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Repeats row i of @p input `counts[i]` times (rows stay in order).
 * @param[in] input Any columns (fixed-width, STRING, LIST, STRUCT).
 * @param[in] counts An integer column of `input.num_rows` rows, without nulls, every value
 *                   >= 0.
 * @param[out] out The result, `sum(counts)` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, counts with nulls or a
 *         negative count); ::GCOL_ERROR_TYPE_MISMATCH (counts not an integer type);
 *         ::GCOL_ERROR_SIZE_MISMATCH; ::GCOL_ERROR_OVERFLOW (a count so large that the sum
 *         could pass INT64_MAX); ::GCOL_ERROR_UNSUPPORTED; ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA
 *         status.
 * @note Synchronizes @p stream. The caller owns *out.
 */
gcol_status gcol_repeat(gcol_table_view input, gcol_column_view counts, gcol_table **out,
                        gcol_stream stream, gcol_mr *mr);

/**
 * @brief Repeats every row of @p input @p count times (row 0 @p count times, then row 1...).
 * @param[in] input Any columns.
 * @param[in] count Repetitions (>= 0).
 * @param[out] out The result, `input.num_rows * count` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, negative @p count);
 *         ::GCOL_ERROR_OVERFLOW (the row count passes INT64_MAX); ::GCOL_ERROR_UNSUPPORTED;
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Synchronizes @p stream. The caller owns *out.
 */
gcol_status gcol_repeat_scalar(gcol_table_view input, int64_t count, gcol_table **out,
                               gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_FILLING_H */
