/*
 * Launchers of the binary-operation kernels, shared by binaryop.cu (dispatch) and the
 * kernel sources (one per family, so that they compile in parallel).
 */
#ifndef GCOL_KERNELS_BINARYOP_KERNELS_H
#define GCOL_KERNELS_BINARYOP_KERNELS_H

#include "binaryop/binaryop_plan.h"
#include "detail/element_io.cuh"
#include "gcol/string_view.h"

/* One string operand: a column view or a device copy of a scalar's bytes. */
typedef struct gcol_detail_string_operand {
  gcol_strings_view view;
  gcol_string_ref scalar;
  bool is_scalar;
  bool scalar_valid;
} gcol_detail_string_operand;

/* Everything a generic element-wise binary launch needs. */
typedef struct gcol_detail_binary_launch {
  gcol_detail_operand lhs;
  gcol_detail_operand rhs;
  gcol_detail_result out;
  int32_t op;
  int64_t size;
  uint32_t *mask;  /* output mask (bit 0 = row 0) or NULL */
  int32_t mask_mode; /* gcol_detail_mask_mode */
  bool null_aware;
} gcol_detail_binary_launch;

/* Generic kernel in compute type `compute` (not STRING). Checks the launch. */
gcol_status gcol_detail_binary_launch_generic(const gcol_detail_binary_launch *l,
                                              gcol_detail_compute compute, gcol_stream stream);

/* True when the vectorized no-null kernel applies (same widths, 16-byte aligned, plain op). */
bool gcol_detail_binary_fast_applies(const gcol_detail_binary_launch *l,
                                     const gcol_detail_binary_plan *plan);

/* The vectorized kernel (call only when gcol_detail_binary_fast_applies()). */
gcol_status gcol_detail_binary_launch_fast(const gcol_detail_binary_launch *l,
                                           gcol_stream stream);

/* String comparison kernel writing BOOL8. */
gcol_status gcol_detail_binary_launch_strings(gcol_detail_string_operand lhs,
                                              gcol_detail_string_operand rhs, uint8_t *out,
                                              int32_t op, int64_t size, uint32_t *mask,
                                              int32_t mask_mode, gcol_stream stream);

#endif /* GCOL_KERNELS_BINARYOP_KERNELS_H */
