/**
 * @file null_ops.h
 * @ingroup gcol_filtering
 * @brief Nulls: test rows for null, valid or NaN (BOOL8 results), replace nulls (from a
 *        column, a scalar, or the preceding or following valid row), and convert between
 *        BOOL8 columns and null masks.
 *
 * is_null, is_valid and is_nan live here (not in unaryop.h): they read validity rather than
 * compute on values.
 *
 * @code
 * gcol_column *filled = NULL;
 * gcol_scalar *zero = NULL;
 * gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 0, &zero);
 * gcol_status st = gcol_replace_nulls_scalar(col_view, zero, &filled, stream, NULL);
 *
 * gcol_buffer *mask = NULL;   // a BOOL8 column as a null mask (true = valid)
 * int64_t nulls = 0;
 * st = gcol_bools_to_mask(bools_view, &mask, &nulls, stream, NULL);
 * @endcode
 */
#ifndef GCOL_NULL_OPS_H
#define GCOL_NULL_OPS_H

/** @addtogroup gcol_filtering
 *  @{ */

#include "gcol/buffer.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief Where gcol_replace_nulls_policy() takes a null row's replacement from. */
typedef enum gcol_replace_policy {
  GCOL_REPLACE_PRECEDING = 0, /**< The nearest valid row before it (forward fill). */
  GCOL_REPLACE_FOLLOWING = 1  /**< The nearest valid row after it (backward fill). */
} gcol_replace_policy;

/**
 * @brief A BOOL8 column, without nulls, that is 1 where @p input is null and 0 elsewhere.
 * @param[in] input A column of any type (sliced or not).
 * @param[out] out The result, `input.size` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA status.
 * @note Stream-ordered, no synchronization. The caller owns *out.
 */
gcol_status gcol_is_null(gcol_column_view input, gcol_column **out, gcol_stream stream,
                         gcol_mr *mr);

/**
 * @brief A BOOL8 column, without nulls, that is 1 where @p input is valid and 0 elsewhere.
 * @param[in] input A column of any type.
 * @param[out] out The result; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_is_null().
 * @note Stream-ordered, no synchronization. The caller owns *out.
 */
gcol_status gcol_is_valid(gcol_column_view input, gcol_column **out, gcol_stream stream,
                          gcol_mr *mr);

/**
 * @brief A BOOL8 column, without nulls, that is 1 where the FLOAT32/FLOAT64 @p input is a
 *        valid NaN (any NaN payload) and 0 elsewhere (null rows give 0, as in libcudf).
 * @param[in] input A FLOAT32 or FLOAT64 column.
 * @param[out] out The result; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH (not a float
 *         type), ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA status.
 * @note Stream-ordered, no synchronization. The caller owns *out.
 */
gcol_status gcol_is_nan(gcol_column_view input, gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Replaces each null row of @p input by the same row of @p replacement (which may be
 *        null itself: the output row then stays null).
 *
 * LIST and STRUCT inputs (of any supported children, nested to any depth) go through
 * gcol_copy_if_else() with "input row is valid" as the mask; a null LIST row of the output
 * is empty.
 * @param[in] input A fixed-width, STRING, LIST or STRUCT column (sliced or not).
 * @param[in] replacement A column of the same data type (children included for LIST and
 *                        STRUCT) and size.
 * @param[out] out The result; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view),
 *         ::GCOL_ERROR_TYPE_MISMATCH (types or children types differ),
 *         ::GCOL_ERROR_SIZE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32, EMPTY),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA status.
 * @note Synchronizes @p stream when @p input has nulls (output null count; STRING and LIST
 *       sizes); a copy of @p input when it has none. The caller owns *out.
 */
gcol_status gcol_replace_nulls(gcol_column_view input, gcol_column_view replacement,
                               gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Replaces each null row of @p input by @p replacement. A null scalar leaves the
 *        nulls in place (the result is a copy of @p input).
 * @param[in] input A fixed-width or STRING column. LIST and STRUCT inputs are refused
 *                  (a scalar cannot be a list or struct): use gcol_replace_nulls() with a
 *                  column.
 * @param[in] replacement A scalar of the same data type.
 * @param[out] out The result; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out or @p replacement,
 *         malformed view), ::GCOL_ERROR_TYPE_MISMATCH (types differ),
 *         ::GCOL_ERROR_UNSUPPORTED (LIST, STRUCT, DICTIONARY32, EMPTY),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA status.
 * @note Synchronizes @p stream when @p input has nulls and the scalar is valid (output null
 *       count; STRING sizes). The caller owns *out.
 */
gcol_status gcol_replace_nulls_scalar(gcol_column_view input, const gcol_scalar *replacement,
                                      gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Replaces each null row of @p input by the nearest valid row before it
 *        (::GCOL_REPLACE_PRECEDING) or after it (::GCOL_REPLACE_FOLLOWING). Rows with no
 *        such valid row (leading or trailing nulls) stay null.
 *
 * One max-scan finds each row's source row; LIST and STRUCT inputs (of any supported
 * children, nested to any depth) are then gathered with gcol_gather() through an INT32 or
 * INT64 index column (an out-of-range index, nullified, where there is no source row).
 * @param[in] input A fixed-width, STRING, LIST or STRUCT column (sliced or not).
 * @param[in] policy Which neighbour to take.
 * @param[out] out The result; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (bad @p policy, NULL @p out, malformed
 *         view), ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32, EMPTY), ::GCOL_ERROR_OUT_OF_MEMORY,
 *         a CUDA status.
 * @note Synchronizes @p stream when @p input has nulls (output null count; STRING and LIST
 *       sizes); a copy of @p input when it has none. The caller owns *out.
 */
gcol_status gcol_replace_nulls_policy(gcol_column_view input, gcol_replace_policy policy,
                                      gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Turns a BOOL8 column into a null mask: bit i is set (valid) where row i is true;
 *        false and null rows give unset bits.
 * @param[in] input A BOOL8 column.
 * @param[out] out_mask The mask (bit 0 = row 0, padding zeroed); NULL for 0 rows or on
 *                      failure.
 * @param[out] out_null_count The number of unset bits (may be NULL: then no synchronization).
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the mask, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH (not BOOL8),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA status.
 * @note Synchronizes @p stream when @p out_null_count is not NULL. The caller owns
 *       *out_mask.
 */
gcol_status gcol_bools_to_mask(gcol_column_view input, gcol_buffer **out_mask,
                               int64_t *out_null_count, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Turns bits `[begin, end)` of a device null mask into a BOOL8 column (1 = set),
 *        without nulls: the inverse of gcol_bools_to_mask().
 *
 * The types match the other side: what gcol_bools_to_mask() or gcol_bitmask_create() return
 * goes in through gcol_bitmask_data() (no cast, in C++ too), and a view's mask as it is:
 * `gcol_mask_to_bools(v.null_mask, v.offset, v.offset + v.size, ...)` gives the validity of
 * any view. A NULL mask means every row valid, as everywhere in gcol (a view without a mask,
 * gcol_bools_to_mask() of 0 rows): every row is true (libcudf accepts NULL for an empty
 * range only).
 * @param[in] mask Device mask, or NULL (all bits set).
 * @param[in] begin First bit (>= 0, any alignment).
 * @param[in] end One past the last bit (>= begin).
 * @param[out] out The column of `end - begin` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, bad range),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA status.
 * @note Stream-ordered, no synchronization. The caller owns *out.
 */
gcol_status gcol_mask_to_bools(const uint32_t *mask, int64_t begin, int64_t end, gcol_column **out,
                               gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_NULL_OPS_H */
