/**
 * @file block.cuh
 * @ingroup gcol_device
 * @brief Block-wide reductions and scans for every fixed-width storage type (device only,
 *        needs nvcc), built on warp.cuh with 32 elements of static shared memory per
 *        function and type.
 *
 * Requirements: every thread of the block calls (they contain __syncthreads()), and the
 * block's thread count is a multiple of 32 (at most 1024). Consecutive calls need no
 * barrier between them: each function synchronizes before it reuses its shared memory.
 *
 * @code
 * __global__ void compact(const int32_t *in, int64_t n, int32_t *out, unsigned long long *count) {
 *   int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
 *   int32_t keep = (i < n && in[i] > 0) ? 1 : 0;
 *   int32_t total;
 *   int32_t pos = gcol_block_exclusive_sum_i32(keep, &total);   // every thread calls
 *   __shared__ unsigned long long base;
 *   if (threadIdx.x == 0) base = atomicAdd(count, (unsigned long long)total);
 *   __syncthreads();
 *   if (keep) out[base + pos] = in[i];
 * }
 * @endcode
 *
 * For every suffix `SFX` of ::GCOL_STORAGE_TYPE_LIST with element type `T` (operator
 * semantics in gcol/device/ops.cuh):
 * @code
 * T    gcol_block_reduce_sum_SFX(T v);     // every thread gets the block's result
 * T    gcol_block_reduce_min_SFX(T v);
 * T    gcol_block_reduce_max_SFX(T v);
 * bool gcol_block_reduce_any_SFX(T v);     // some thread has v != 0
 * bool gcol_block_reduce_all_SFX(T v);     // every thread has v != 0
 * T    gcol_block_inclusive_sum_SFX(T v);  // threads 0..tid (linear thread index)
 * T    gcol_block_inclusive_min_SFX(T v);
 * T    gcol_block_inclusive_max_SFX(T v);
 * T    gcol_block_exclusive_sum_SFX(T v, T *total); // threads 0..tid-1; *total (if not
 *                                                   // NULL) gets the block's sum
 * @endcode
 * Reductions combine the warps' results in warp order, so float results are the same in
 * every thread and every run.
 *
 * A count kept in global memory for the whole grid (nulls written, rows kept) takes one
 * atomic per block, not one per thread or warp: those queue on the one address.
 * @code
 * void gcol_block_add_count(unsigned long long *counter, uint64_t v);
 *      // adds the block's sum of v to *counter (nothing when the sum is 0)
 * @endcode
 */
#ifndef GCOL_DEVICE_BLOCK_CUH
#define GCOL_DEVICE_BLOCK_CUH

/** @addtogroup gcol_device
 *  @{ */

#include "gcol/device/warp.cuh"

/** @cond GCOL_DETAIL */
GCOL_DEVICE_INLINE unsigned int gcol_detail_block_num_warps(void) {
  return (blockDim.x * blockDim.y * blockDim.z) / GCOL_WARP_SIZE;
}

/* Combines warp_values[0..count) in order (count >= 1). */
template <int Op, typename T>
GCOL_DEVICE_INLINE T gcol_detail_fold(const T *warp_values, unsigned int count) {
  T r = warp_values[0];
  for (unsigned int w = 1; w < count; ++w) r = gcol_detail_apply<Op>(r, warp_values[w]);
  return r;
}

template <int Op, typename T>
GCOL_DEVICE_INLINE T gcol_detail_block_reduce(T v) {
  __shared__ T warp_results[GCOL_WARP_SIZE];
  v = gcol_detail_warp_reduce<Op>(v);
  __syncthreads(); /* a previous call may still be reading warp_results */
  if (gcol_lane_id() == 0) warp_results[gcol_warp_id()] = v;
  __syncthreads();
  return gcol_detail_fold<Op>(warp_results, gcol_detail_block_num_warps());
}

template <int Op, typename T>
GCOL_DEVICE_INLINE T gcol_detail_block_inclusive_scan(T v) {
  __shared__ T warp_totals[GCOL_WARP_SIZE];
  T inclusive = gcol_detail_warp_inclusive_scan<Op>(v);
  __syncthreads();
  if (gcol_lane_id() == GCOL_WARP_SIZE - 1) warp_totals[gcol_warp_id()] = inclusive;
  __syncthreads();
  unsigned int const warp = gcol_warp_id();
  if (warp > 0) inclusive = gcol_detail_apply<Op>(gcol_detail_fold<Op>(warp_totals, warp), inclusive);
  return inclusive;
}

template <typename T>
GCOL_DEVICE_INLINE T gcol_detail_block_exclusive_sum(T v, T *total) {
  __shared__ T warp_totals[GCOL_WARP_SIZE];
  T warp_total;
  T exclusive = gcol_detail_warp_exclusive_sum(v, &warp_total);
  __syncthreads();
  if (gcol_lane_id() == 0) warp_totals[gcol_warp_id()] = warp_total;
  __syncthreads();
  unsigned int const warp = gcol_warp_id();
  if (warp > 0) {
    exclusive = gcol_detail_op_sum(gcol_detail_fold<GCOL_DETAIL_OP_SUM>(warp_totals, warp), exclusive);
  }
  if (total != NULL) {
    *total = gcol_detail_fold<GCOL_DETAIL_OP_SUM>(warp_totals, gcol_detail_block_num_warps());
  }
  return exclusive;
}

#define GCOL_DETAIL_BLOCK_DEFINE(SFX, T)                                                \
  GCOL_DEVICE_INLINE T gcol_block_reduce_sum_##SFX(T v) {                               \
    return gcol_detail_block_reduce<GCOL_DETAIL_OP_SUM>(v);                             \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_block_reduce_min_##SFX(T v) {                               \
    return gcol_detail_block_reduce<GCOL_DETAIL_OP_MIN>(v);                             \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_block_reduce_max_##SFX(T v) {                               \
    return gcol_detail_block_reduce<GCOL_DETAIL_OP_MAX>(v);                             \
  }                                                                                     \
  GCOL_DEVICE_INLINE bool gcol_block_reduce_any_##SFX(T v) {                            \
    return __syncthreads_or(v != (T)0) != 0;                                            \
  }                                                                                     \
  GCOL_DEVICE_INLINE bool gcol_block_reduce_all_##SFX(T v) {                            \
    return __syncthreads_and(v != (T)0) != 0;                                           \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_block_inclusive_sum_##SFX(T v) {                            \
    return gcol_detail_block_inclusive_scan<GCOL_DETAIL_OP_SUM>(v);                     \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_block_inclusive_min_##SFX(T v) {                            \
    return gcol_detail_block_inclusive_scan<GCOL_DETAIL_OP_MIN>(v);                     \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_block_inclusive_max_##SFX(T v) {                            \
    return gcol_detail_block_inclusive_scan<GCOL_DETAIL_OP_MAX>(v);                     \
  }                                                                                     \
  GCOL_DEVICE_INLINE T gcol_block_exclusive_sum_##SFX(T v, T *total) {                  \
    return gcol_detail_block_exclusive_sum(v, total);                                   \
  }

GCOL_STORAGE_TYPE_LIST(GCOL_DETAIL_BLOCK_DEFINE)
/** @endcond */

/** Adds the block's sum of @p v to @p *counter with one atomicAdd (none when it is 0). Every
 *  thread of the block calls. */
GCOL_DEVICE_INLINE void gcol_block_add_count(unsigned long long *counter, uint64_t v) {
  uint64_t const sum = gcol_block_reduce_sum_u64(v);
  if (gcol_detail_linear_thread() == 0 && sum != 0) {
    atomicAdd(counter, (unsigned long long)sum);
  }
}

/** @} */

#endif /* GCOL_DEVICE_BLOCK_CUH */
