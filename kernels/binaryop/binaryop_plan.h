/*
 * The type rules of binary operations (binaryop.h), in plain C so that the host suite tests
 * them: from (lhs type, rhs type, op, output type) to the compute type the kernel uses, the
 * multipliers that bring both operands to a common unit or decimal scale, and the null
 * behaviour. One kernel instantiation per compute type serves every type pair.
 */
#ifndef GCOL_KERNELS_BINARYOP_PLAN_H
#define GCOL_KERNELS_BINARYOP_PLAN_H

#include "gcol/binaryop.h"
#include "detail/element_kind.h"
#include "gcol/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the kernel computes in. */
typedef enum gcol_detail_compute {
  GCOL_DETAIL_COMPUTE_I64 = 0, /* signed 64-bit, wrapping */
  GCOL_DETAIL_COMPUTE_U64,     /* unsigned 64-bit, wrapping */
  GCOL_DETAIL_COMPUTE_F64,     /* double */
  GCOL_DETAIL_COMPUTE_I128,    /* signed 128-bit: decimals, mixed-sign comparisons */
  GCOL_DETAIL_COMPUTE_STRING   /* byte-wise string comparison */
} gcol_detail_compute;

typedef struct gcol_detail_binary_plan {
  gcol_detail_compute compute;
  gcol_detail_multiplier lhs_multiplier; /* 1 when no conversion is needed */
  gcol_detail_multiplier rhs_multiplier;
  bool lhs_zero_extend; /* load lhs as unsigned of its own width (SHIFT_RIGHT_UNSIGNED) */
  bool can_make_nulls;  /* integer/decimal division: by zero gives null */
  bool null_aware;      /* the op reads its operands' validity */
} gcol_detail_binary_plan;

/* Fills *plan (when not NULL) or returns the status of gcol_binary_op_check_types(), with
 * the message naming both types, the op and the output. */
gcol_status gcol_detail_binary_plan_make(gcol_data_type lhs, gcol_data_type rhs,
                                         gcol_binary_op op, gcol_data_type output,
                                         gcol_detail_binary_plan *plan);

/* True for ops that read operand validity (NULL_EQUALS, Kleene AND/OR, NULL_MIN/MAX). */
bool gcol_detail_binary_op_is_null_aware(gcol_binary_op op);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_BINARYOP_PLAN_H */
