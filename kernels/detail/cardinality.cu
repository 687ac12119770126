/*
 * Device side of the cardinality estimates (cardinality.h): one pass of HyperLogLog over the
 * keys. Each block keeps its own registers in shared memory, raised by a shared atomicMax a
 * row (spread over 4096 words; never a plain read racing with them, so racecheck has nothing
 * to report) unless the thread just sent the same register and rank (all-equal keys would
 * otherwise make every lane of a warp hit one word), then merges them into the global
 * registers with one atomicMax a register; the host computes the estimate from the 16 KiB.
 */
#include <math.h>

#include "detail/cardinality.h"
#include "detail/row_operators.cuh"

namespace {

/* Threads a block. The grid is what fits on the GPU at once (one wave: each block's
 * registers merge once, and a second wave would only add merges and a tail). */
#define HLL_BLOCK 512
/* Rows a thread loads before it adds their ranks (independent loads in flight). */
#define HLL_UNROLL 4

__device__ __forceinline__ uint64_t estimate_hash(const gcol_detail_row_column *keys,
                                                  int32_t num_keys, bool packed, int64_t row) {
  /* mix64 is a bijection: the register and rank bits of a row hash get mixed too */
  if (packed) return gcol_hash_mix64(gcol_detail_row_bits(&keys[0], row));
  return gcol_hash_mix64(gcol_detail_row_hash(keys, num_keys, row));
}

__global__ void hll_smem_kernel(const gcol_detail_row_column *keys, int32_t num_keys, bool packed,
                                int64_t n, unsigned int *registers) {
  __shared__ unsigned int local[GCOL_DETAIL_HLL_REGISTERS];
  for (int j = threadIdx.x; j < GCOL_DETAIL_HLL_REGISTERS; j += blockDim.x) local[j] = 0;
  __syncthreads();
  int64_t const stride = gcol_detail_grid_stride();
  uint32_t sent = 0; /* the thread's last (register, rank): repeated keys skip the atomic */
  for (int64_t i = gcol_detail_thread_index(); i < n; i += HLL_UNROLL * stride) {
    uint64_t h[HLL_UNROLL];
#pragma unroll
    for (int k = 0; k < HLL_UNROLL; ++k) {
      int64_t const row = i + k * stride;
      h[k] = row < n ? estimate_hash(keys, num_keys, packed, row) : 0;
    }
#pragma unroll
    for (int k = 0; k < HLL_UNROLL; ++k) {
      if (i + k * stride >= n) break;
      uint32_t const r = gcol_detail_hll_register(h[k]), rank = gcol_detail_hll_rank(h[k]);
      uint32_t const pair = (r << 8) | rank; /* never 0: rank >= 1 */
      if (pair == sent) continue;
      atomicMax(&local[r], rank);
      sent = pair;
    }
  }
  __syncthreads();
  for (int j = threadIdx.x; j < GCOL_DETAIL_HLL_REGISTERS; j += blockDim.x) {
    if (local[j] != 0) atomicMax(&registers[j], local[j]);
  }
}

gcol_status launch_blocks(int64_t n, unsigned int *blocks) {
  gcol_status status = GCOL_OK;
  int device = 0, sms = 0, per_sm = 0;
  unsigned int const need = gcol_detail_grid_size(n, HLL_BLOCK);
  unsigned int wave = 0;
  GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&device));
  GCOL_DETAIL_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GCOL_DETAIL_CUDA_TRY(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hll_smem_kernel, HLL_BLOCK, 0));
  wave = (unsigned int)(sms * (per_sm > 0 ? per_sm : 1));
  *blocks = need < wave ? need : wave;
done:
  return status;
}

}  // namespace

extern "C" gcol_status gcol_detail_estimate_distinct(const gcol_detail_row_column *keys,
                                                     int32_t num_keys, bool packed, int64_t n,
                                                     gcol_stream stream, int64_t *out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *registers = NULL;
  uint32_t host[GCOL_DETAIL_HLL_REGISTERS];
  size_t const bytes = sizeof host;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const forced = gcol_detail_estimate_override();
  unsigned int blocks = 1;
  double estimate = 0.0;
  *out = 0;
  if (forced >= 0 || n <= 0) {
    *out = forced >= 0 ? forced : 0;
    return GCOL_OK;
  }
  GCOL_DETAIL_TRY(launch_blocks(n, &blocks));
  GCOL_DETAIL_TRY(gcol_buffer_create(bytes, stream, NULL, &registers));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(registers->data, 0, bytes, s));
  hll_smem_kernel<<<blocks, HLL_BLOCK, 0, s>>>(keys, num_keys, packed, n,
                                               (unsigned int *)registers->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host, registers->data, bytes, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  estimate = round(gcol_detail_hll_estimate(host));
  *out = estimate < 1.0 ? 1 : estimate >= (double)n ? n : (int64_t)estimate;
done:
  gcol_buffer_free(registers);
  return status;
}
