/**
 * @file ops.cuh
 * @ingroup gcol_device
 * @brief Device-side building blocks shared by warp.cuh, block.cuh and atomics.cuh: the
 *        binary operators (sum, min, max) per storage type and warp shuffles of every
 *        storage type. Needs nvcc.
 *
 * Semantics, the same in every collective and atomic:
 * - sum wraps modulo 2^bits for integers (signed too: computed in unsigned arithmetic, so
 *   overflow is defined); floats add in IEEE arithmetic (the order of a reduction is
 *   fixed per primitive, so results are deterministic, but may differ from a serial sum).
 * - min and max of floats follow fmin/fmax: a NaN operand is ignored unless both are NaN.
 */
#ifndef GCOL_DEVICE_OPS_CUH
#define GCOL_DEVICE_OPS_CUH

/** @addtogroup gcol_device
 *  @{ */

#include "gcol/config.h"
#include "gcol/types.h"

/** @brief Threads in a warp. */
#define GCOL_WARP_SIZE 32

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_FULL_WARP 0xFFFFFFFFu

/* Operator ids, template arguments of the collectives. */
#define GCOL_DETAIL_OP_SUM 0
#define GCOL_DETAIL_OP_MIN 1
#define GCOL_DETAIL_OP_MAX 2

/* Each distinct C type of the storage list (b8 shares uint8_t): X(T, SHUFFLE_T, UNSIGNED_T). */
#define GCOL_DETAIL_DEVICE_CTYPE_LIST(X)        \
  X(int8_t, int, uint8_t)                       \
  X(int16_t, int, uint16_t)                     \
  X(int32_t, int, uint32_t)                     \
  X(int64_t, long long, uint64_t)               \
  X(uint8_t, unsigned int, uint8_t)             \
  X(uint16_t, unsigned int, uint16_t)           \
  X(uint32_t, unsigned int, uint32_t)           \
  X(uint64_t, unsigned long long, uint64_t)

#define GCOL_DETAIL_INTEGER_OPS(T, S, U)                                               \
  GCOL_DEVICE_INLINE T gcol_detail_op_sum(T a, T b) { return (T)(U)((U)a + (U)b); }     \
  GCOL_DEVICE_INLINE T gcol_detail_op_min(T a, T b) { return b < a ? b : a; }           \
  GCOL_DEVICE_INLINE T gcol_detail_op_max(T a, T b) { return a < b ? b : a; }           \
  GCOL_DEVICE_INLINE T gcol_detail_shfl_xor(T v, int lane_mask) {                      \
    return (T)__shfl_xor_sync(GCOL_DETAIL_FULL_WARP, (S)v, lane_mask);                  \
  }                                                                                    \
  GCOL_DEVICE_INLINE T gcol_detail_shfl_up(T v, unsigned int delta) {                  \
    return (T)__shfl_up_sync(GCOL_DETAIL_FULL_WARP, (S)v, delta);                       \
  }                                                                                    \
  GCOL_DEVICE_INLINE T gcol_detail_shfl(T v, int src_lane) {                           \
    return (T)__shfl_sync(GCOL_DETAIL_FULL_WARP, (S)v, src_lane);                       \
  }

GCOL_DETAIL_DEVICE_CTYPE_LIST(GCOL_DETAIL_INTEGER_OPS)

#define GCOL_DETAIL_FLOAT_OPS(T, FMIN, FMAX)                                           \
  GCOL_DEVICE_INLINE T gcol_detail_op_sum(T a, T b) { return a + b; }                  \
  GCOL_DEVICE_INLINE T gcol_detail_op_min(T a, T b) { return FMIN(a, b); }             \
  GCOL_DEVICE_INLINE T gcol_detail_op_max(T a, T b) { return FMAX(a, b); }             \
  GCOL_DEVICE_INLINE T gcol_detail_shfl_xor(T v, int lane_mask) {                      \
    return __shfl_xor_sync(GCOL_DETAIL_FULL_WARP, v, lane_mask);                        \
  }                                                                                    \
  GCOL_DEVICE_INLINE T gcol_detail_shfl_up(T v, unsigned int delta) {                  \
    return __shfl_up_sync(GCOL_DETAIL_FULL_WARP, v, delta);                             \
  }                                                                                    \
  GCOL_DEVICE_INLINE T gcol_detail_shfl(T v, int src_lane) {                           \
    return __shfl_sync(GCOL_DETAIL_FULL_WARP, v, src_lane);                             \
  }

GCOL_DETAIL_FLOAT_OPS(float, fminf, fmaxf)
GCOL_DETAIL_FLOAT_OPS(double, fmin, fmax)

/* Applies operator Op (a GCOL_DETAIL_OP_* id). */
template <int Op, typename T>
GCOL_DEVICE_INLINE T gcol_detail_apply(T a, T b) {
  if (Op == GCOL_DETAIL_OP_SUM) return gcol_detail_op_sum(a, b);
  if (Op == GCOL_DETAIL_OP_MIN) return gcol_detail_op_min(a, b);
  return gcol_detail_op_max(a, b);
}

/* The calling thread's index in its block, linearized x-fastest (how warps are formed). */
GCOL_DEVICE_INLINE unsigned int gcol_detail_linear_thread(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
/** @endcond */

/** @brief The calling thread's lane in its warp (0..31). */
GCOL_DEVICE_INLINE unsigned int gcol_lane_id(void) {
  return gcol_detail_linear_thread() & (GCOL_WARP_SIZE - 1);
}

/** @brief The calling thread's warp in its block. */
GCOL_DEVICE_INLINE unsigned int gcol_warp_id(void) {
  return gcol_detail_linear_thread() / GCOL_WARP_SIZE;
}

/** @} */

#endif /* GCOL_DEVICE_OPS_CUH */
