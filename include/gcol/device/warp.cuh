/**
 * @file warp.cuh
 * @ingroup gcol_device
 * @brief Warp-wide reductions and scans for every fixed-width storage type (device only,
 *        needs nvcc). All 32 lanes of the warp must call, converged.
 *
 * @code
 * // one block of 32 * w threads: per-lane prefix sums and per-warp totals
 * __global__ void k(const int32_t *in, int32_t *prefix, int32_t *totals) {
 *   int32_t v = in[threadIdx.x];
 *   int32_t total = gcol_warp_reduce_sum_i32(v);                // in every lane
 *   prefix[threadIdx.x] = gcol_warp_exclusive_sum_i32(v, NULL); // sum of lower lanes
 *   if (gcol_lane_id() == 0) totals[gcol_warp_id()] = total;
 * }
 * @endcode
 *
 * For every suffix `SFX` of ::GCOL_STORAGE_TYPE_LIST with element type `T` (operator
 * semantics in gcol/device/ops.cuh; b8 values combine as uint8_t):
 * @code
 * T    gcol_warp_reduce_sum_SFX(T v);     // every lane gets the warp's result
 * T    gcol_warp_reduce_min_SFX(T v);
 * T    gcol_warp_reduce_max_SFX(T v);
 * bool gcol_warp_reduce_any_SFX(T v);     // some lane has v != 0
 * bool gcol_warp_reduce_all_SFX(T v);     // every lane has v != 0
 * T    gcol_warp_inclusive_sum_SFX(T v);  // lanes 0..lane
 * T    gcol_warp_inclusive_min_SFX(T v);
 * T    gcol_warp_inclusive_max_SFX(T v);
 * T    gcol_warp_exclusive_sum_SFX(T v, T *total); // lanes 0..lane-1 (0 in lane 0); *total
 *                                                  // (if not NULL) gets the warp's sum
 * @endcode
 */
#ifndef GCOL_DEVICE_WARP_CUH
#define GCOL_DEVICE_WARP_CUH

/** @addtogroup gcol_device
 *  @{ */

#include "gcol/device/ops.cuh"

/** @cond GCOL_DETAIL */
template <int Op, typename T>
GCOL_DEVICE_INLINE T gcol_detail_warp_reduce(T v) {
  for (int m = GCOL_WARP_SIZE / 2; m > 0; m >>= 1) {
    v = gcol_detail_apply<Op>(v, gcol_detail_shfl_xor(v, m));
  }
  return v;
}

template <int Op, typename T>
GCOL_DEVICE_INLINE T gcol_detail_warp_inclusive_scan(T v) {
  unsigned int const lane = gcol_lane_id();
  for (unsigned int d = 1; d < GCOL_WARP_SIZE; d <<= 1) {
    T const lower = gcol_detail_shfl_up(v, d);
    if (lane >= d) v = gcol_detail_apply<Op>(lower, v);
  }
  return v;
}

template <typename T>
GCOL_DEVICE_INLINE T gcol_detail_warp_exclusive_sum(T v, T *total) {
  T const inclusive = gcol_detail_warp_inclusive_scan<GCOL_DETAIL_OP_SUM>(v);
  T const shifted = gcol_detail_shfl_up(inclusive, 1);
  if (total != NULL) *total = gcol_detail_shfl(inclusive, GCOL_WARP_SIZE - 1);
  return gcol_lane_id() == 0 ? (T)0 : shifted;
}

#define GCOL_DETAIL_WARP_DEFINE(SFX, T)                                                 \
  GCOL_DEVICE_INLINE T gcol_warp_reduce_sum_##SFX(T v) {                                \
    return gcol_detail_warp_reduce<GCOL_DETAIL_OP_SUM>(v);                              \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_warp_reduce_min_##SFX(T v) {                                \
    return gcol_detail_warp_reduce<GCOL_DETAIL_OP_MIN>(v);                              \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_warp_reduce_max_##SFX(T v) {                                \
    return gcol_detail_warp_reduce<GCOL_DETAIL_OP_MAX>(v);                              \
  }                                                                                     \
  GCOL_DEVICE_INLINE bool gcol_warp_reduce_any_##SFX(T v) {                             \
    return __any_sync(GCOL_DETAIL_FULL_WARP, v != (T)0) != 0;                           \
  }                                                                                     \
  GCOL_DEVICE_INLINE bool gcol_warp_reduce_all_##SFX(T v) {                             \
    return __all_sync(GCOL_DETAIL_FULL_WARP, v != (T)0) != 0;                           \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_warp_inclusive_sum_##SFX(T v) {                             \
    return gcol_detail_warp_inclusive_scan<GCOL_DETAIL_OP_SUM>(v);                      \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_warp_inclusive_min_##SFX(T v) {                             \
    return gcol_detail_warp_inclusive_scan<GCOL_DETAIL_OP_MIN>(v);                      \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_warp_inclusive_max_##SFX(T v) {                             \
    return gcol_detail_warp_inclusive_scan<GCOL_DETAIL_OP_MAX>(v);                      \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_warp_exclusive_sum_##SFX(T v, T *total) {                   \
    return gcol_detail_warp_exclusive_sum(v, total);                                    \
  }

GCOL_STORAGE_TYPE_LIST(GCOL_DETAIL_WARP_DEFINE)
/** @endcond */

/** @} */

#endif /* GCOL_DEVICE_WARP_CUH */
