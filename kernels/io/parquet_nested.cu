/*
 * Nested Parquet columns on the GPU (lib/internal/parquet_nested.h): a leaf's repetition and
 * definition levels, written out by the page decode (a byte per entry), turned into the slots
 * of each list and struct above it. A node's slots are the entries that open one, so the slot
 * of an entry is an exclusive sum of flags read straight from the levels (one CUB scan over a
 * transform iterator); a list's offsets are its child's sum read at its own slots, and a leaf
 * keeps its slots by a map of their entries. The level rules (a chunk starts a row, an entry
 * continues only a list that exists) and each chunk's rows are one pass, a block per tile of
 * a chunk, keeping the first bad entry.
 */
#include <cuda_runtime.h>

#include <limits.h>
#include <stdlib.h>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common.cuh"
#include "gcol/column.h"
#include "gcol/device/block.cuh"
#include "internal/parquet_nested.h"

namespace {

constexpr int kBlock = GCOL_DETAIL_BLOCK_SIZE;
constexpr int kCheckTile = 4096; /* entries per block of the check */

/* Whether entry e opens a slot of a node held at (parent_rep, slot_def). */
__device__ __forceinline__ bool opens(const uint8_t *rep, const uint8_t *def, int64_t e,
                                      int32_t parent_rep, int32_t slot_def) {
  int32_t const r = rep != NULL ? rep[e] : 0;
  return r <= parent_rep && def[e] >= slot_def;
}

/* The flag of entry e read by the scan (0 past the last entry: scan[n] is the total). */
struct opens_op {
  const uint8_t *rep;
  const uint8_t *def;
  int64_t n;
  int32_t parent_rep;
  int32_t slot_def;
  __device__ int64_t operator()(int64_t e) const {
    return e < n && opens(rep, def, e, parent_rep, slot_def) ? 1 : 0;
  }
};

/* The slot of entry e: scan[e], or e itself where every entry opens one (scan NULL). */
__device__ __forceinline__ int64_t slot_of(const int64_t *scan, int64_t e) {
  return scan != NULL ? scan[e] : e;
}

__global__ void fill_kernel(const uint8_t *rep, const uint8_t *def, int64_t n, int32_t parent_rep,
                            int32_t slot_def, const int64_t *scan, int32_t valid_def,
                            uint8_t *valid, int64_t *map) {
  int64_t const step = gcol_detail_grid_stride();
  for (int64_t e = gcol_detail_thread_index(); e < n; e += step) {
    if (!opens(rep, def, e, parent_rep, slot_def)) continue;
    int64_t const s = slot_of(scan, e);
    if (valid != NULL) valid[s] = def[e] >= valid_def;
    if (map != NULL) map[s] = e;
  }
}

/* offsets[slot of e] = child[e] at each slot entry, and offsets[slot of n] = child[n]. */
template <typename Offset>
__global__ void offsets_kernel(const uint8_t *rep, const uint8_t *def, int64_t n,
                               int32_t parent_rep, int32_t slot_def, const int64_t *scan,
                               const int64_t *child, Offset *offsets) {
  int64_t const step = gcol_detail_grid_stride();
  for (int64_t e = gcol_detail_thread_index(); e <= n; e += step) {
    if (e == n || opens(rep, def, e, parent_rep, slot_def)) {
      offsets[slot_of(scan, e)] = (Offset)child[e];
    }
  }
}

/* The definition level each repetition level's list needs (a kernel argument). */
struct def_for_rep_table {
  int32_t at[GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH + 2];
};

/* A block per (tile of a chunk, chunk): the chunk's rows (entries of repetition level 0) added
 * to rows[chunk], and its first bad entry (gcol_detail_pqn_check_levels' rules) kept in
 * *first_bad. */
__global__ void check_smem_kernel(const uint8_t *rep, const uint8_t *def,
                                  const int64_t *chunk_first, int32_t num_chunks,
                                  def_for_rep_table t, int32_t max_rep, unsigned long long *rows,
                                  unsigned long long *first_bad) {
  for (int64_t c = blockIdx.y; c < num_chunks; c += gridDim.y) {
    int64_t const first = chunk_first[c], end = chunk_first[c + 1];
    for (int64_t t0 = first + (int64_t)blockIdx.x * kCheckTile; t0 < end;
         t0 += (int64_t)gridDim.x * kCheckTile) {
      int32_t count = 0;
      int64_t const stop = t0 + kCheckTile < end ? t0 + kCheckTile : end;
      for (int64_t e = t0 + threadIdx.x; e < stop; e += kBlock) {
        int32_t const r = rep[e];
        count += r == 0;
        if (r == 0) continue;
        if (e == first || r > max_rep || def[e] < t.at[r] || def[e - 1] < t.at[r]) {
          atomicMin(first_bad, (unsigned long long)e);
        }
      }
      gcol_block_add_count(&rows[c], (uint64_t)count);
    }
  }
}

}  // namespace

extern "C" gcol_status gcol_detail_pqn_scan_slots(const uint8_t *rep, const uint8_t *def, int64_t n,
                                                  int32_t parent_rep, int32_t slot_def,
                                                  int64_t *scan, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_buffer *temp = NULL;
  size_t bytes = 0;
  /* the flags read straight from the levels: 2 bytes in and 8 out per entry */
  opens_op const op = {rep, def, n, parent_rep, slot_def};
  auto flags = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), op);
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, bytes, flags, scan, n + 1, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp->data, bytes, flags, scan, n + 1, s));
done:
  gcol_buffer_free(temp);
  return status;
}

extern "C" gcol_status gcol_detail_pqn_fill_slots(const uint8_t *rep, const uint8_t *def, int64_t n,
                                                  int32_t parent_rep, int32_t slot_def,
                                                  const int64_t *scan, int32_t valid_def,
                                                  uint8_t *valid, int64_t *map,
                                                  gcol_stream stream) {
  gcol_status status = GCOL_OK;
  if (n <= 0) return GCOL_OK;
  fill_kernel<<<gcol_detail_grid_size(n, kBlock), kBlock, 0, (cudaStream_t)stream>>>(
      rep, def, n, parent_rep, slot_def, scan, valid_def, valid, map);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

extern "C" gcol_status gcol_detail_pqn_list_offsets(const uint8_t *rep, const uint8_t *def,
                                                    int64_t n, int32_t parent_rep, int32_t slot_def,
                                                    const int64_t *scan, int64_t size,
                                                    const int64_t *child, int64_t children,
                                                    gcol_stream stream, gcol_mr *mr,
                                                    gcol_column **out) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  bool const wide = children > INT32_MAX;
  unsigned const grid = gcol_detail_grid_size(n + 1, kBlock);
  gcol_column *col = NULL;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(wide ? GCOL_INT64 : GCOL_INT32), size + 1,
                                     GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (wide) {
    offsets_kernel<int64_t><<<grid, kBlock, 0, s>>>(rep, def, n, parent_rep, slot_def, scan, child,
                                                    (int64_t *)col->data->data);
  } else {
    offsets_kernel<int32_t><<<grid, kBlock, 0, s>>>(rep, def, n, parent_rep, slot_def, scan, child,
                                                    (int32_t *)col->data->data);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}

extern "C" gcol_status gcol_detail_pqn_check_levels_device(const uint8_t *rep, const uint8_t *def,
                                                           const int64_t *chunk_first,
                                                           int32_t num_chunks,
                                                           const int32_t *def_for_rep,
                                                           int32_t max_rep, int64_t *first_bad,
                                                           int64_t *rows, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_buffer *small = NULL;
  unsigned long long *host = NULL;
  def_for_rep_table t;
  int64_t const words = 2 * (int64_t)num_chunks + 2; /* chunk_first uploaded, rows, bad entry */
  int64_t most = 0;                                  /* entries of the largest chunk */
  GCOL_DETAIL_CHECK(rep != NULL && max_rep >= 1 && max_rep <= GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH,
                    GCOL_ERROR_INTERNAL, "levels checked with max repetition level %d",
                    (int)max_rep);
  for (int32_t k = 0; k <= max_rep; ++k) t.at[k] = def_for_rep[k];
  for (int32_t c = 0; c < num_chunks; ++c) {
    if (chunk_first[c + 1] - chunk_first[c] > most) most = chunk_first[c + 1] - chunk_first[c];
  }
  host = (unsigned long long *)malloc((size_t)(num_chunks + 1) * sizeof *host);
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)words * 8, stream, NULL, &small));
  {
    int64_t *const chunks = (int64_t *)small->data;
    unsigned long long *const counts = (unsigned long long *)(chunks + num_chunks + 1);
    unsigned long long *const bad = counts + num_chunks;
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(chunks, chunk_first, (size_t)(num_chunks + 1) * 8,
                                         cudaMemcpyHostToDevice, s));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counts, 0, (size_t)num_chunks * 8, s));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(bad, 0xff, sizeof *bad, s));
    if (most > 0) {
      int64_t tiles = (most + kCheckTile - 1) / kCheckTile;
      dim3 const grid((unsigned)(tiles < 1024 ? tiles : 1024),
                      (unsigned)(num_chunks < 65535 ? num_chunks : 65535));
      check_smem_kernel<<<grid, kBlock, 0, s>>>(rep, def, chunks, num_chunks, t, max_rep, counts,
                                                bad);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(host, counts, (size_t)(num_chunks + 1) * 8, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  }
  for (int32_t i = 0; i < num_chunks; ++i) rows[i] = (int64_t)host[i];
  *first_bad = host[num_chunks] == ULLONG_MAX ? -1 : (int64_t)host[num_chunks];
done:
  gcol_buffer_free(small);
  free(host);
  return status;
}
