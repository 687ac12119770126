/*
 * Shared by every kernels/<area> CUDA source: launch geometry for int64 row counts,
 * grid-stride loops, and the internal error, log and NVTX macros.
 *
 * Temporaries come from the default resource through gcol_buffer_create(size, stream,
 * NULL, &buf) and are freed with gcol_buffer_free(buf) at the function's single exit.
 */
#ifndef GCOL_KERNELS_COMMON_CUH
#define GCOL_KERNELS_COMMON_CUH

#include <cuda_runtime.h>

#include "gcol/buffer.h"
#include "gcol/column.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/types.h"
#include "internal/error.h"
#include "internal/log.h"
#include "internal/nvtx.h"

/* Threads per block of the simple element-wise kernels. */
#define GCOL_DETAIL_BLOCK_SIZE 256

/* Most blocks a grid-stride launch uses: enough to fill any current GPU many times. */
#define GCOL_DETAIL_MAX_GRID_BLOCKS (1 << 20)

/* Blocks for a grid-stride loop over n items with `block` threads (n > 0). */
static inline unsigned int gcol_detail_grid_size(int64_t n, int block) {
  int64_t blocks = (n + block - 1) / block;
  if (blocks > GCOL_DETAIL_MAX_GRID_BLOCKS) blocks = GCOL_DETAIL_MAX_GRID_BLOCKS;
  return (unsigned int)(blocks < 1 ? 1 : blocks);
}

/* CUB's temporary storage, at least one byte: CUB takes a NULL temporary pointer as a size
 * query and then does nothing, so a 0-byte (NULL) buffer would silently skip the work. */
static inline gcol_status gcol_detail_cub_temp_create(size_t bytes, gcol_stream stream,
                                                      gcol_buffer **out) {
  return gcol_buffer_create(bytes > 0 ? bytes : 1, stream, NULL, out);
}

/* The global thread index and the grid-stride step, in 64 bits. */
static __device__ __forceinline__ int64_t gcol_detail_thread_index(void) {
  return (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

static __device__ __forceinline__ int64_t gcol_detail_grid_stride(void) {
  return (int64_t)gridDim.x * blockDim.x;
}

/* for (int64_t i = first; i < n; i += stride) over the whole grid. */
#define GCOL_DETAIL_GRID_LOOP(i, n)                                              \
  for (int64_t i = gcol_detail_thread_index(); i < (int64_t)(n); i += gcol_detail_grid_stride())

#endif /* GCOL_KERNELS_COMMON_CUH */
