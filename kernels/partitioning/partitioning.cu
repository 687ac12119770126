/*
 * Partitioning (include/gcol/partitioning.h): hash, map and round-robin partitions.
 *
 * 1. A partition id per row (int32): the row hash of the key columns modulo the partition
 *    count (kernels/detail/row_hash.cuh), the partition map's value (checked on the device:
 *    a flag records a null or out-of-range entry), or (i + start) % P.
 * 2. The rows are cut into tiles of TILE rows, one warp a tile. count_smem_kernel builds each
 *    tile's histogram (counters in shared memory when P is small, else in the global column
 *    of the tile) into a P x tiles matrix, partition-major: entry (p, t) = rows of tile t in
 *    partition p.
 * 3. An exclusive scan of the matrix (one CUB instantiation) gives, for each (p, t), the
 *    output position of the first row of tile t in partition p; entry (p, 0) is partition
 *    p's offset.
 * 4. scatter_smem_kernel walks each tile again in row order, 32 rows a step; lanes with the same
 *    partition find each other with __match_any_sync, take their rank among the lower lanes,
 *    and the group's leader advances the partition's running position. Rows land in input
 *    order within each partition (stable), as an int64 row map.
 * 5. The one gather engine (kernels/detail/gather.h) moves every column through the map.
 */
#include <cub/device/device_scan.cuh>

#include "detail/gather.h"
#include "detail/row_hash.cuh"
#include "gcol/indexalator.h"
#include "gcol/partitioning.h"

namespace {

/* Rows a warp handles in count_smem_kernel and scatter_smem_kernel. */
constexpr int64_t TILE = 8192;
/* Most partitions whose per-tile counters live in shared memory (8 bytes each). */
constexpr int32_t SMEM_PARTITIONS = 2048;

__global__ void hash_pid_kernel(const gcol_detail_hash_column *cols, int32_t num_cols, int64_t n,
                                int32_t fn, uint64_t seed, uint32_t num_partitions, int32_t *pid) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    if (fn == GCOL_HASH_XXHASH64) {
      pid[i] = (int32_t)(gcol_detail_row_hash_xxhash64(cols, num_cols, i, seed) %
                         (uint64_t)num_partitions);
    } else {
      pid[i] = (int32_t)(gcol_detail_row_hash_murmur3(cols, num_cols, i, (uint32_t)seed,
                                                      fn == GCOL_HASH_MURMUR3_32_SPARK) %
                         num_partitions);
    }
  }
}

__global__ void map_pid_kernel(gcol_indexalator map, const uint32_t *mask, int64_t mask_offset,
                               int64_t n, int64_t num_partitions, int32_t *pid, int *bad) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool ok = gcol_bit_is_set_or_null_mask(mask, mask_offset + i);
    int64_t v = 0;
    if (ok) {
      v = gcol_indexalator_get(map, i);
      /* UINT64 values above INT64_MAX read as negative: out of range too. */
      if (map.width == 8 && !map.is_signed &&
          ((const uint64_t *)map.data)[i] > (uint64_t)INT64_MAX) {
        v = -1;
      }
      ok = v >= 0 && v < num_partitions;
    }
    if (!ok) {
      *bad = 1;
      v = 0;
    }
    pid[i] = (int32_t)v;
  }
}

__global__ void round_robin_pid_kernel(int64_t n, int64_t start, int64_t num_partitions,
                                       int32_t *pid) {
  GCOL_DETAIL_GRID_LOOP(i, n) { pid[i] = (int32_t)((i + start) % num_partitions); }
}

/* Tile histograms into matrix (P x tiles, partition-major, zeroed beforehand when !SMEM). */
template <bool SMEM>
__global__ void count_smem_kernel(const int32_t *pid, int64_t n, int64_t tiles,
                                  int32_t num_partitions, int64_t *matrix) {
  extern __shared__ int64_t shared_counts[];
  int const lane = (int)threadIdx.x;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    int64_t *counts = SMEM ? shared_counts : matrix + t;
    int64_t const stride = SMEM ? 1 : tiles;
    if (SMEM) {
      for (int32_t p = lane; p < num_partitions; p += 32) shared_counts[p] = 0;
      __syncwarp();
    }
    int64_t const first = t * TILE;
    int64_t const end = first + TILE < n ? first + TILE : n;
    for (int64_t base = first; base < end; base += 32) {
      int64_t const i = base + lane;
      int32_t const p = i < end ? pid[i] : -1;
      unsigned const peers = __match_any_sync(0xFFFFFFFFu, p);
      if (p >= 0 && lane == __ffs(peers) - 1) counts[p * stride] += __popc(peers);
      __syncwarp();
    }
    if (SMEM) {
      for (int32_t p = lane; p < num_partitions; p += 32) matrix[p * tiles + t] = shared_counts[p];
      __syncwarp();
    }
  }
}

/* Stable scatter of row indices: map[position] = row (matrix scanned; consumed). */
template <bool SMEM>
__global__ void scatter_smem_kernel(const int32_t *pid, int64_t n, int64_t tiles,
                                    int32_t num_partitions, int64_t *matrix, int64_t *map) {
  extern __shared__ int64_t shared_next[];
  int const lane = (int)threadIdx.x;
  unsigned const lower = (1u << lane) - 1u;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    int64_t *next = SMEM ? shared_next : matrix + t;
    int64_t const stride = SMEM ? 1 : tiles;
    if (SMEM) {
      for (int32_t p = lane; p < num_partitions; p += 32) shared_next[p] = matrix[p * tiles + t];
      __syncwarp();
    }
    int64_t const first = t * TILE;
    int64_t const end = first + TILE < n ? first + TILE : n;
    for (int64_t base = first; base < end; base += 32) {
      int64_t const i = base + lane;
      int32_t const p = i < end ? pid[i] : -1;
      unsigned const peers = __match_any_sync(0xFFFFFFFFu, p);
      int const leader = __ffs(peers) - 1;
      int64_t position = 0;
      if (p >= 0 && lane == leader) position = next[p * stride];
      position = __shfl_sync(0xFFFFFFFFu, position, leader);
      if (p >= 0) {
        map[position + __popc(peers & lower)] = i;
        if (lane == leader) next[p * stride] = position + __popc(peers);
      }
      __syncwarp();
    }
    __syncwarp();
  }
}

gcol_status check_table(gcol_table_view input) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(input.num_columns >= 1 && input.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "input has no columns");
  GCOL_DETAIL_CHECK(input.num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT, "input has %lld rows",
                    (long long)input.num_rows);
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(input, "input"));
done:
  return status;
}

/*
 * Steps 2 to 5 over the partition ids `pid` (device, n entries; NULL when n == 0): fills
 * the host offsets and gathers the output table.
 */
gcol_status partition_by_ids(gcol_table_view input, const int32_t *pid, int32_t num_partitions,
                             gcol_table **out, int64_t *offsets, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *matrix = NULL, *map = NULL, *temp = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = input.num_rows;
  int64_t const tiles = (n + TILE - 1) / TILE;
  bool const smem = num_partitions <= SMEM_PARTITIONS;
  size_t const smem_bytes = smem ? (size_t)num_partitions * sizeof(int64_t) : 0;
  unsigned int const grid = (unsigned int)(tiles < (1 << 20) ? (tiles < 1 ? 1 : tiles) : (1 << 20));
  gcol_detail_gather_map gmap;
  memset(&gmap, 0, sizeof gmap);
  if (n > 0) {
    int64_t const entries = tiles * (int64_t)num_partitions;
    size_t temp_bytes = 0;
    GCOL_DETAIL_CHECK(tiles <= INT64_MAX / 8 / num_partitions, GCOL_ERROR_OVERFLOW,
                      "%d partitions of %lld rows need too large a histogram", (int)num_partitions,
                      (long long)n);
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)entries * sizeof(int64_t), stream, NULL, &matrix));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int64_t), stream, NULL, &map));
    int64_t *const m = (int64_t *)matrix->data;
    if (smem) {
      count_smem_kernel<true><<<grid, 32, smem_bytes, s>>>(pid, n, tiles, num_partitions, m);
    } else {
      GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(m, 0, (size_t)entries * sizeof(int64_t), s));
      count_smem_kernel<false><<<grid, 32, 0, s>>>(pid, n, tiles, num_partitions, m);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, temp_bytes, m, m, entries, s));
    GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
    GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp->data, temp_bytes, m, m, entries, s));
    /* Entry (p, 0) of the scanned matrix is partition p's first output row. */
    GCOL_DETAIL_CUDA_TRY(cudaMemcpy2DAsync(offsets, sizeof(int64_t), m,
                                           (size_t)tiles * sizeof(int64_t), sizeof(int64_t),
                                           (size_t)num_partitions, cudaMemcpyDeviceToHost, s));
    if (smem) {
      scatter_smem_kernel<true>
          <<<grid, 32, smem_bytes, s>>>(pid, n, tiles, num_partitions, m, (int64_t *)map->data);
    } else {
      scatter_smem_kernel<false>
          <<<grid, 32, 0, s>>>(pid, n, tiles, num_partitions, m, (int64_t *)map->data);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    gmap.indices.data = map->data;
  } else {
    for (int32_t p = 0; p < num_partitions; ++p) offsets[p] = 0;
  }
  offsets[num_partitions] = n;
  gmap.indices.width = 8;
  gmap.indices.is_signed = true;
  gmap.size = n;
  gmap.source_rows = n;
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_table(input, gmap, stream, mr, out));
done:
  gcol_buffer_free(matrix);
  gcol_buffer_free(map);
  gcol_buffer_free(temp);
  return status;
}

gcol_status check_outputs(gcol_table **out, int64_t *offsets, int32_t num_partitions) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(offsets);
  GCOL_DETAIL_CHECK(num_partitions >= 1, GCOL_ERROR_INVALID_ARGUMENT,
                    "num_partitions is %d, needs >= 1", (int)num_partitions);
done:
  return status;
}

}  // namespace

extern "C" gcol_status gcol_hash_partition(gcol_table_view input, const int32_t *key_columns,
                                           int32_t num_keys, int32_t num_partitions,
                                           gcol_hash_function fn, uint64_t seed, gcol_table **out,
                                           int64_t *partition_offsets, gcol_stream stream,
                                           gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *cols = NULL, *pid = NULL;
  int32_t num_cols = 0;
  int64_t const n = input.num_rows;
  GCOL_DETAIL_NVTX_PUSH("gcol_hash_partition");
  GCOL_DETAIL_TRY(check_outputs(out, partition_offsets, num_partitions));
  GCOL_DETAIL_CHECK_NOT_NULL(key_columns);
  GCOL_DETAIL_CHECK(num_keys >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_keys is %d, needs >= 1",
                    (int)num_keys);
  GCOL_DETAIL_CHECK(
      fn == GCOL_HASH_MURMUR3_32 || fn == GCOL_HASH_MURMUR3_32_SPARK || fn == GCOL_HASH_XXHASH64,
      GCOL_ERROR_INVALID_ARGUMENT,
      "fn is %d: hash partitioning takes MURMUR3_32, MURMUR3_32_SPARK or XXHASH64", (int)fn);
  GCOL_DETAIL_TRY(check_table(input));
  GCOL_DETAIL_TRY(
      gcol_detail_hash_columns_make(input, key_columns, num_keys, stream, &cols, &num_cols));
  if (n > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int32_t), stream, NULL, &pid));
    hash_pid_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                      (cudaStream_t)stream>>>((const gcol_detail_hash_column *)cols->data, num_cols,
                                              n, (int32_t)fn, seed, (uint32_t)num_partitions,
                                              (int32_t *)pid->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(partition_by_ids(input, pid == NULL ? NULL : (const int32_t *)pid->data,
                                   num_partitions, out, partition_offsets, stream, mr));
done:
  gcol_buffer_free(cols);
  gcol_buffer_free(pid);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_partition(gcol_table_view input, gcol_column_view partition_map,
                                      int32_t num_partitions, gcol_table **out,
                                      int64_t *partition_offsets, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *pid = NULL, *bad = NULL;
  int host_bad = 0;
  int64_t const n = input.num_rows;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_indexalator it;
  GCOL_DETAIL_NVTX_PUSH("gcol_partition");
  GCOL_DETAIL_TRY(check_outputs(out, partition_offsets, num_partitions));
  GCOL_DETAIL_TRY(check_table(input));
  GCOL_DETAIL_TRY(gcol_column_view_validate(partition_map, "partition_map"));
  GCOL_DETAIL_CHECK(gcol_type_is_integral(partition_map.type.id), GCOL_ERROR_TYPE_MISMATCH,
                    "partition_map is %s, not an integer type",
                    gcol_type_name(partition_map.type.id));
  GCOL_DETAIL_CHECK(partition_map.size == n, GCOL_ERROR_SIZE_MISMATCH,
                    "partition_map has %lld rows, input %lld", (long long)partition_map.size,
                    (long long)n);
  if (n > 0) {
    GCOL_DETAIL_TRY(gcol_indexalator_make(partition_map, &it));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int32_t), stream, NULL, &pid));
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int), stream, NULL, &bad));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(bad->data, 0, sizeof(int), s));
    map_pid_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                     s>>>(it, partition_map.null_mask, partition_map.offset, n,
                          (int64_t)num_partitions, (int32_t *)pid->data, (int *)bad->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(&host_bad, bad->data, sizeof host_bad, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    GCOL_DETAIL_CHECK(host_bad == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "partition_map holds a null or a value outside [0, %d)", (int)num_partitions);
  }
  GCOL_DETAIL_TRY(partition_by_ids(input, pid == NULL ? NULL : (const int32_t *)pid->data,
                                   num_partitions, out, partition_offsets, stream, mr));
done:
  gcol_buffer_free(pid);
  gcol_buffer_free(bad);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_round_robin_partition(gcol_table_view input, int32_t num_partitions,
                                                  int32_t start_partition, gcol_table **out,
                                                  int64_t *partition_offsets, gcol_stream stream,
                                                  gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *pid = NULL;
  int64_t const n = input.num_rows;
  GCOL_DETAIL_NVTX_PUSH("gcol_round_robin_partition");
  GCOL_DETAIL_TRY(check_outputs(out, partition_offsets, num_partitions));
  GCOL_DETAIL_CHECK(start_partition >= 0 && start_partition < num_partitions,
                    GCOL_ERROR_INVALID_ARGUMENT, "start_partition is %d, outside [0, %d)",
                    (int)start_partition, (int)num_partitions);
  GCOL_DETAIL_TRY(check_table(input));
  if (n > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int32_t), stream, NULL, &pid));
    round_robin_pid_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                             GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        n, (int64_t)start_partition, (int64_t)num_partitions, (int32_t *)pid->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(partition_by_ids(input, pid == NULL ? NULL : (const int32_t *)pid->data,
                                   num_partitions, out, partition_offsets, stream, mr));
done:
  gcol_buffer_free(pid);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
