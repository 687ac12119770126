/**
 * @file unaryop.h
 * @ingroup gcol_compute
 * @brief Element-wise unary operations, and the validity tests is_null, is_valid, is_nan.
 *
 * Rules (gcol_unary_op_check_type() says whether a type is accepted):
 * - Math functions (SQRT .. ATANH, EXP, LOG, CBRT) and CEIL, FLOOR, RINT: FLOAT32 and
 *   FLOAT64, output of the input type. They are computed in double and rounded to the output
 *   (FLOAT32 results are then nearly always correctly rounded, within 1 ulp); FLOAT64
 *   results carry CUDA's documented errors: at most 3 ulp (ARCSINH, ARCCOSH), 2 ulp for the
 *   trigonometric and most hyperbolic functions, 1 ulp for EXP, LOG, CBRT, COSH (the tests
 *   allow 4 ulp against glibc). SQRT, CEIL, FLOOR, RINT, ABS, NEGATE are exact. RINT rounds
 *   half to even.
 * - ABS and NEGATE: signed integers (wrapping: `ABS(MIN) == MIN`, `NEGATE(MIN) == MIN`),
 *   floats, durations and decimals (scale kept); ABS also unsigned integers (identity).
 * - BIT_INVERT: integers (and BOOL8, giving !x), output of the input type.
 * - NOT: integers, floats and BOOL8; output BOOL8, true where the value is zero.
 * - Nulls: the output has the input's validity.
 *
 * @code
 * gcol_column *roots = NULL;
 * gcol_unary_operation(values, GCOL_UNARY_SQRT, &roots, stream, NULL);
 * @endcode
 */
#ifndef GCOL_UNARYOP_H
#define GCOL_UNARYOP_H

/** @addtogroup gcol_compute
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/null_ops.h" /* is_null, is_valid, is_nan live there */
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief Every unary operator: `X(NAME, "name")`; `GCOL_UNARY_##NAME` is the enumerator. */
#define GCOL_UNARY_OP_LIST(X) \
  X(SIN, "sin")               \
  X(COS, "cos")               \
  X(TAN, "tan")               \
  X(ARCSIN, "arcsin")         \
  X(ARCCOS, "arccos")         \
  X(ARCTAN, "arctan")         \
  X(SINH, "sinh")             \
  X(COSH, "cosh")             \
  X(TANH, "tanh")             \
  X(ARCSINH, "arcsinh")       \
  X(ARCCOSH, "arccosh")       \
  X(ARCTANH, "arctanh")       \
  X(EXP, "exp")               \
  X(LOG, "log")               \
  X(SQRT, "sqrt")             \
  X(CBRT, "cbrt")             \
  X(CEIL, "ceil")             \
  X(FLOOR, "floor")           \
  X(RINT, "rint")             \
  X(ABS, "abs")               \
  X(NEGATE, "negate")         \
  X(BIT_INVERT, "bit_invert") \
  X(NOT, "not")

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_UNARY_OP_ENUMERATOR(NAME, STRING) GCOL_UNARY_##NAME,
/** @endcond */

/** @brief A unary operator. */
typedef enum gcol_unary_op {
  GCOL_UNARY_OP_LIST(GCOL_DETAIL_UNARY_OP_ENUMERATOR)
  GCOL_NUM_UNARY_OPS /**< Number of operators; not an operator. */
} gcol_unary_op;

/** @brief The operator's name (`"sqrt"`); `"invalid"` for an out-of-range value. */
const char *gcol_unary_op_name(gcol_unary_op op);

/**
 * @brief Checks whether @p op accepts @p type, and gives the output type.
 * @param[in] type The input type.
 * @param[in] op The operator.
 * @param[out] output If not NULL, receives the output type on success.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (op or type out of range),
 *         ::GCOL_ERROR_TYPE_MISMATCH (the message names the type and the operator).
 */
gcol_status gcol_unary_op_check_type(gcol_data_type type, gcol_unary_op op,
                                     gcol_data_type *output);

/**
 * @brief `out[i] = op(input[i])`.
 * @param[in] input Fixed-width column (any offset).
 * @param[in] op The operator.
 * @param[out] out The result, with the input's validity; NULL on failure.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Stream-ordered; synchronizes @p stream only to count the nulls of an input whose
 *       null count is unknown (a slice).
 */
gcol_status gcol_unary_operation(gcol_column_view input, gcol_unary_op op, gcol_column **out,
                                 gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_UNARYOP_H */
