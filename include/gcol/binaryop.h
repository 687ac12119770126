/**
 * @file binaryop.h
 * @ingroup gcol_compute
 * @brief Element-wise binary operations: column ∘ column, column ∘ scalar, scalar ∘ column.
 *
 * The caller chooses the output type (as libcudf's `binary_operation(lhs, rhs, op, type)`);
 * gcol_binary_op_check_types() says whether a (lhs, rhs, op, output) combination is accepted
 * and why not. The rules:
 *
 * - **Numeric** (integers, floats, BOOL8) ∘ numeric:
 *   - compute type: FLOAT64 when either input is floating or the op is TRUE_DIV; else
 *     UINT64 when both inputs are unsigned (or BOOL8), else INT64 (UINT64 values above
 *     INT64_MAX then wrap). Comparisons, NULL_MIN and NULL_MAX of one signed and one unsigned
 *     input compare exactly (128-bit). Integer pairs compared with a float go through double.
 *   - arithmetic (ADD .. POW): integer compute wraps on overflow (two's complement) and is
 *     then converted to the output type (wrapping to narrower integers, rounding to floats);
 *     float compute needs a floating output. DIV truncates toward zero, MOD has the sign of
 *     the dividend, FLOOR_DIV rounds toward -inf, PYMOD has the sign of the divisor. An
 *     integer DIV, MOD, PYMOD or FLOOR_DIV by zero gives a null row; `MIN / -1` wraps to
 *     MIN, `MIN % -1` is 0. Integer POW is exact by squaring (wraps); a negative exponent
 *     gives 0 unless the base is 1 or -1. Floats follow IEEE (fmod for MOD, floor(a / b) for
 *     FLOOR_DIV, pow for POW: within 2 ulp of the correctly rounded result). Float PYMOD is
 *     Python's (and numpy's) float `%`: `r = fmod(a, b)`, plus b when r is non-zero and its
 *     sign differs from b's, and a zero result takes b's sign (4.0 PYMOD -2.0 is -0.0);
 *     `r + b` rounds, so -1e-20 PYMOD 1.0 is 1.0 as in Python (libcudf's
 *     `fmod(fmod(a, b) + b, b)` gives 0.0 there); by zero, or of an infinity, it is NaN.
 *     Float POW keeps C's special cases for every NaN, signaling ones included:
 *     pow(x, ±0) = 1 and pow(1, y) = 1 (glibc instead gives NaN there for a signaling NaN).
 *   - TRUE_DIV: computed in double, output FLOAT32 or FLOAT64.
 *   - BITWISE_*, SHIFT_*: integer or BOOL8 inputs, integer or BOOL8 output. Shifts are done
 *     in 64 bits and then truncated to the output: a count outside [0, 63] gives 0 (and
 *     SHIFT_RIGHT of a negative value -1). SHIFT_RIGHT_UNSIGNED zero-extends the left input
 *     from its own width first (as libcudf's cast to the unsigned type).
 *   - LOGICAL_*, NULL_LOGICAL_* and comparisons: output BOOL8; a value is true when non-zero
 *     (NaN is true). Comparisons follow IEEE (NaN compares unequal to everything), and so
 *     does NULL_EQUALS between two valid values: NaN NULL_EQUALS NaN is false, -0.0
 *     NULL_EQUALS +0.0 is true, as libcudf (joins, groupby and distinct instead take every
 *     NaN as equal).
 *   - NULL_MIN / NULL_MAX: a null operand yields the other. Floats follow IEEE 754-2019
 *     minimumNumber / maximumNumber: a NaN operand, quiet or signaling,
 *     loses to a number (min(NaN, 3) = 3), two NaNs give NaN, and -0 orders below +0
 *     (min(-0, +0) = -0, max(-0, +0) = +0), so the result never depends on the order of
 *     the operands. Integer operands compared with a float go through double first.
 *   - A BOOL8 output is accepted wherever an integer output is (arithmetic and NULL_MIN /
 *     NULL_MAX of integer or BOOL8 inputs, bitwise ops), as in libcudf; it stores 1 for a
 *     non-zero result, 0 otherwise (NULL_MIN of two BOOL8 columns is their null-aware AND).
 * - **Decimal** ∘ decimal (any widths; computed exactly in 128 bits, wrapping at the output
 *   width): ADD, SUB (output scale = min of the scales, the other operand rescaled),
 *   MUL (output scale = sum of the scales), DIV (output scale = lhs scale - rhs scale,
 *   unscaled quotient truncated toward zero; by zero gives null), comparisons and
 *   NULL_EQUALS (after rescaling to the smaller scale), NULL_MIN/NULL_MAX (output scale =
 *   min of the scales). The output must be a decimal of exactly that scale.
 * - **Timestamps and durations** (both operands converted to the finer unit first; the
 *   conversion wraps on overflow): TIMESTAMP - TIMESTAMP = DURATION, TIMESTAMP ± DURATION =
 *   TIMESTAMP, DURATION + TIMESTAMP = TIMESTAMP, DURATION ± DURATION = DURATION, each output
 *   in the finer of the two units; the sum or difference of the 64-bit tick counts wraps
 *   modulo 2^64 as integer arithmetic does (no null, no error: INT64_MAX seconds + 1 second
 *   is INT64_MIN seconds; libcudf does not check either); comparisons, NULL_EQUALS,
 *   NULL_MIN/NULL_MAX between two timestamps or two durations (NULL_MIN/MAX output of the
 *   finer unit).
 * - **Strings**: comparisons and NULL_EQUALS of two strings (byte order), output BOOL8.
 *
 * Nulls: the output null mask is the AND of the inputs' masks (a null scalar makes every row
 * null), plus the rows an integer or decimal division by zero made null. The null-aware ops
 * differ: NULL_EQUALS (null == null is true, never null), NULL_LOGICAL_AND/OR (Kleene logic:
 * false AND null = false, true OR null = true, else null), NULL_MIN/NULL_MAX.
 *
 * @code
 * gcol_column *sum = NULL;
 * gcol_binary_operation(a, b, GCOL_BINARY_ADD, gcol_data_type_make(GCOL_INT64), &sum,
 *                       stream, NULL);
 * gcol_column_free(sum);
 * @endcode
 */
#ifndef GCOL_BINARYOP_H
#define GCOL_BINARYOP_H

/** @addtogroup gcol_compute
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief Every binary operator: `X(NAME, "name")`; `GCOL_BINARY_##NAME` is the enumerator. */
#define GCOL_BINARY_OP_LIST(X)                   \
  X(ADD, "add")                                  \
  X(SUB, "sub")                                  \
  X(MUL, "mul")                                  \
  X(DIV, "div")                                  \
  X(TRUE_DIV, "true_div")                        \
  X(FLOOR_DIV, "floor_div")                      \
  X(MOD, "mod")                                  \
  X(PYMOD, "pymod")                              \
  X(POW, "pow")                                  \
  X(BITWISE_AND, "bitwise_and")                  \
  X(BITWISE_OR, "bitwise_or")                    \
  X(BITWISE_XOR, "bitwise_xor")                  \
  X(SHIFT_LEFT, "shift_left")                    \
  X(SHIFT_RIGHT, "shift_right")                  \
  X(SHIFT_RIGHT_UNSIGNED, "shift_right_unsigned") \
  X(LOGICAL_AND, "logical_and")                  \
  X(LOGICAL_OR, "logical_or")                    \
  X(NULL_LOGICAL_AND, "null_logical_and")        \
  X(NULL_LOGICAL_OR, "null_logical_or")          \
  X(EQUAL, "equal")                              \
  X(NOT_EQUAL, "not_equal")                      \
  X(LESS, "less")                                \
  X(LESS_EQUAL, "less_equal")                    \
  X(GREATER, "greater")                          \
  X(GREATER_EQUAL, "greater_equal")              \
  X(NULL_EQUALS, "null_equals")                  \
  X(NULL_MIN, "null_min")                        \
  X(NULL_MAX, "null_max")

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_BINARY_OP_ENUMERATOR(NAME, STRING) GCOL_BINARY_##NAME,
/** @endcond */

/** @brief A binary operator (see the file documentation for the rules of each). */
typedef enum gcol_binary_op {
  GCOL_BINARY_OP_LIST(GCOL_DETAIL_BINARY_OP_ENUMERATOR)
  GCOL_NUM_BINARY_OPS /**< Number of operators; not an operator. */
} gcol_binary_op;

/** @brief The operator's name (`"add"`); `"invalid"` for an out-of-range value. */
const char *gcol_binary_op_name(gcol_binary_op op);

/**
 * @brief Checks whether @p op accepts operands of types @p lhs and @p rhs with output type
 *        @p output, without touching the GPU.
 * @param[in] lhs Left operand type (a column's or a scalar's).
 * @param[in] rhs Right operand type.
 * @param[in] op The operator.
 * @param[in] output The requested output type.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (op or a type id out of range);
 *         ::GCOL_ERROR_TYPE_MISMATCH (the operator does not apply to these types, or the
 *         output type or scale is not the one the rules give); ::GCOL_ERROR_UNSUPPORTED (a
 *         type the operator may take one day, e.g. nested types). The message names both
 *         types and the operator.
 */
gcol_status gcol_binary_op_check_types(gcol_data_type lhs, gcol_data_type rhs,
                                       gcol_binary_op op, gcol_data_type output);

/**
 * @brief The natural output type of @p op on @p lhs and @p rhs: BOOL8 for comparisons and
 *        logical ops, FLOAT64 for TRUE_DIV, the scale rules for decimals, the finer unit for
 *        timestamps and durations, and the wider of two numeric inputs otherwise (FLOAT64 if
 *        either is FLOAT64, FLOAT32 if either is floating, else the wider integer, signed if
 *        either is signed).
 * @param[in] lhs The left operand's type.
 * @param[in] rhs The right operand's type.
 * @param[in] op The operator.
 * @param[out] out The type (set only on success).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out), or the status of
 *         gcol_binary_op_check_types() for the type it would give.
 */
gcol_status gcol_binary_op_output_type(gcol_data_type lhs, gcol_data_type rhs,
                                       gcol_binary_op op, gcol_data_type *out);

/**
 * @brief `out[i] = lhs[i] op rhs[i]`.
 * @param[in] lhs Left column (any offset).
 * @param[in] rhs Right column, same size as @p lhs.
 * @param[in] op The operator.
 * @param[in] output_type The output type (validated by gcol_binary_op_check_types()).
 * @param[out] out The result; NULL on failure. Output memory from @p mr.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view),
 *         ::GCOL_ERROR_TYPE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_SIZE_MISMATCH,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream to count the output's nulls when the output has a mask
 *       (inputs with masks, a division that can make nulls, or a null-aware op). Without
 *       masks it is fully asynchronous.
 */
gcol_status gcol_binary_operation(gcol_column_view lhs, gcol_column_view rhs, gcol_binary_op op,
                                  gcol_data_type output_type, gcol_column **out,
                                  gcol_stream stream, gcol_mr *mr);

/**
 * @brief `out[i] = lhs[i] op rhs` with a host scalar on the right (its value is passed to
 *        the kernel by value; a STRING scalar is copied to a device temporary).
 * @param[in] lhs Left column (any offset).
 * @param[in] rhs The scalar (not NULL); a null scalar makes every row null (except for the
 *                null-aware ops, which apply their rules).
 * @param[in] op The operator.
 * @param[in] output_type The output type (validated by gcol_binary_op_check_types()).
 * @param[out] out The result; NULL on failure. Output memory from @p mr.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_binary_operation().
 * @note As gcol_binary_operation().
 */
gcol_status gcol_binary_operation_column_scalar(gcol_column_view lhs, const gcol_scalar *rhs,
                                                gcol_binary_op op, gcol_data_type output_type,
                                                gcol_column **out, gcol_stream stream,
                                                gcol_mr *mr);

/**
 * @brief `out[i] = lhs op rhs[i]` with a host scalar on the left.
 * @return As gcol_binary_operation().
 * @note As gcol_binary_operation().
 */
gcol_status gcol_binary_operation_scalar_column(const gcol_scalar *lhs, gcol_column_view rhs,
                                                gcol_binary_op op, gcol_data_type output_type,
                                                gcol_column **out, gcol_stream stream,
                                                gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_BINARYOP_H */
