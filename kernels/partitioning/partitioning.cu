/*
 * Partitioning (include/gcol/partitioning.h): hash, map and round-robin partitions. Rows
 * land in input order within each partition (stable).
 *
 * Up to TILE_PARTITIONS partitions (the tiled path, where the figures are taken):
 * 1. tile_count_smem_kernel: one block a tile of TILE rows computes each row's partition
 *    (the row hash of the keys modulo P, the map's value, or (i + start) % P: a "pid
 *    source") and counts them in shared memory into a P x tiles matrix, partition-major.
 * 2. An exclusive scan of the matrix (one CUB instantiation) gives, for each (p, t), the
 *    output position of the first row of tile t in partition p; entry (p, 0) is partition
 *    p's offset.
 * 3. tile_scatter_smem_kernel: the block computes the partitions again and orders its tile
 *    by partition in shared memory, stably and without a sort (each warp ranks its rows per
 *    partition with __match_any_sync; a scan over partitions and warps gives each row its
 *    index in the ordered tile), then writes the rows in that order, so that consecutive
 *    threads write consecutive positions of a partition's run: for a table of fixed-width
 *    columns the values themselves (validity through atomicOr into a zeroed mask), else an
 *    int64 row map that the one gather engine (kernels/detail/gather.h) moves every column
 *    through. A hash is computed once: the count stores the 16-bit ids for the scatter.
 *
 * Above TILE_PARTITIONS (the per-warp counters would not fit in shared memory), the
 * partition ids are written to a buffer and one warp a tile of WARP_TILE rows counts and
 * scatters the row map with __match_any_sync (warp_count_kernel, warp_scatter_kernel),
 * counters in the matrix itself; then the gather engine.
 */
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "detail/gather.h"
#include "detail/row_hash.cuh"
#include "gcol/indexalator.h"
#include "gcol/partitioning.h"

namespace {

/* The tiled path: a block of TILE_THREADS threads, TILE_ITEMS rows each. */
constexpr int TILE_THREADS = 256;
constexpr int TILE_ITEMS = 16;
constexpr int64_t TILE = (int64_t)TILE_THREADS * TILE_ITEMS;
/* Most partitions of the tiled path: a tile's first-row table (16-bit) in shared memory. */
constexpr int32_t TILE_PARTITIONS = 1024;
static_assert(TILE <= 65536 && TILE_PARTITIONS < 65535, "16-bit ranks and partition ids");
static_assert(TILE_PARTITIONS % TILE_THREADS == 0 && TILE % (TILE_THREADS / 32 * 32) == 0,
              "whole partitions per thread and rows per warp");
/* Dynamic shared memory of tile_scatter_smem_kernel at most: per partition a 64-bit base and a
 * 16-bit count per warp, and the staged rows of the direct path. */
constexpr size_t SCATTER_SMEM_MAX =
    TILE_PARTITIONS * (sizeof(int64_t) + (TILE_THREADS / 32) * sizeof(uint16_t)) + TILE * 8;
/* Rows a warp handles in warp_count_kernel and warp_scatter_kernel. */
constexpr int64_t WARP_TILE = 8192;

/* Pid sources: the partition of row i (0 <= i < n) of the input. */
struct hash_pids {
  const gcol_detail_hash_column *cols;
  int32_t num_cols;
  int32_t fn; /* gcol_hash_function */
  uint64_t seed;
  uint32_t num_partitions;
  static constexpr bool store = true; /* the tiled path hashes once (stored_pids) */
  __device__ uint32_t operator()(int64_t i) const {
    if (fn == GCOL_HASH_XXHASH64) {
      return (uint32_t)(gcol_detail_row_hash_xxhash64(cols, num_cols, i, seed) %
                        (uint64_t)num_partitions);
    }
    return gcol_detail_row_hash_murmur3(cols, num_cols, i, (uint32_t)seed,
                                        fn == GCOL_HASH_MURMUR3_32_SPARK) %
           num_partitions;
  }
};

/* hash_pids of one 4- or 8-byte non-float key under MURMUR3_32 (the same ids: the row hash's
 * fast case of one column), its descriptor in registers: the generic one reads the column's
 * descriptor from global memory before the key, two dependent loads a row. */
template <typename Word>
struct one_key_pids {
  const Word *data; /* row 0 (offset applied) */
  const uint32_t *null_mask;
  int64_t mask_offset;
  uint32_t seed;
  uint32_t num_partitions;
  static constexpr bool store = true;
  __device__ uint32_t operator()(int64_t i) const {
    if (!gcol_bit_is_set_or_null_mask(null_mask, mask_offset + i)) return seed % num_partitions;
    uint32_t const h = sizeof(Word) == 8 ? gcol_detail_murmur3_u64(data[i], seed)
                                         : gcol_detail_murmur3_u32((uint32_t)data[i], seed);
    return h % num_partitions;
  }
};

struct buffer_pids { /* ids checked beforehand (map_pid_kernel) */
  const int32_t *pid;
  static constexpr bool store = false;
  __device__ uint32_t operator()(int64_t i) const { return (uint32_t)pid[i]; }
};

struct stored_pids { /* written by tile_count_smem_kernel: P <= TILE_PARTITIONS */
  const uint16_t *pid;
  __device__ uint32_t operator()(int64_t i) const { return pid[i]; }
};

struct round_robin_pids {
  int64_t start;
  int64_t num_partitions;
  static constexpr bool store = false;
  __device__ uint32_t operator()(int64_t i) const { return (uint32_t)((i + start) % num_partitions); }
};

template <class Pids>
__global__ void pid_kernel(Pids pids, int64_t n, int32_t *pid) {
  GCOL_DETAIL_GRID_LOOP(i, n) { pid[i] = (int32_t)pids(i); }
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

/* The warp path: tile histograms into matrix (P x tiles, partition-major, zeroed). */
__global__ void warp_count_kernel(const int32_t *pid, int64_t n, int64_t tiles, int64_t *matrix) {
  int const lane = (int)threadIdx.x;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    int64_t const first = t * WARP_TILE;
    int64_t const end = first + WARP_TILE < n ? first + WARP_TILE : n;
    for (int64_t base = first; base < end; base += 32) {
      int64_t const i = base + lane;
      int32_t const p = i < end ? pid[i] : -1;
      unsigned const peers = __match_any_sync(0xFFFFFFFFu, p);
      if (p >= 0 && lane == __ffs(peers) - 1) matrix[p * tiles + t] += __popc(peers);
      __syncwarp();
    }
  }
}

/* Stable scatter of row indices: map[position] = row (matrix scanned; consumed). */
__global__ void warp_scatter_kernel(const int32_t *pid, int64_t n, int64_t tiles, int64_t *matrix,
                                    int64_t *map) {
  int const lane = (int)threadIdx.x;
  unsigned const lower = (1u << lane) - 1u;
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    int64_t const first = t * WARP_TILE;
    int64_t const end = first + WARP_TILE < n ? first + WARP_TILE : n;
    for (int64_t base = first; base < end; base += 32) {
      int64_t const i = base + lane;
      int32_t const p = i < end ? pid[i] : -1;
      unsigned const peers = __match_any_sync(0xFFFFFFFFu, p);
      int const leader = __ffs(peers) - 1;
      int64_t position = 0;
      if (p >= 0 && lane == leader) position = matrix[p * tiles + t];
      position = __shfl_sync(0xFFFFFFFFu, position, leader);
      if (p >= 0) {
        map[position + __popc(peers & lower)] = i;
        if (lane == leader) matrix[p * tiles + t] = position + __popc(peers);
      }
      __syncwarp();
    }
  }
}

/* ---- the tiled path ---- */

/* Tile t's partition counts into column t of matrix (P x tiles, partition-major); the ids
 * into `stored` too unless it is NULL (a hash is computed once, not again in the scatter). */
template <class Pids>
__global__ void __launch_bounds__(TILE_THREADS)
    tile_count_smem_kernel(Pids pids, int64_t n, int64_t tiles, uint32_t num_partitions,
                           int64_t *matrix, uint16_t *stored) {
  extern __shared__ uint32_t tile_counts[]; /* num_partitions entries */
  int64_t const t = blockIdx.x;
  int64_t const first = t * TILE;
  for (uint32_t p = threadIdx.x; p < num_partitions; p += TILE_THREADS) tile_counts[p] = 0;
  __syncthreads();
  /* every id of the thread first, then the counts: the loads of the ids' inputs are all in
   * flight together (one at a time, the kernel ran at 44% of DRAM bandwidth on an H100) */
  uint32_t ids[TILE_ITEMS];
#pragma unroll
  for (int k = 0; k < TILE_ITEMS; ++k) {
    int64_t const i = first + (int64_t)k * TILE_THREADS + threadIdx.x;
    ids[k] = i < n ? pids(i) : 0u;
  }
#pragma unroll
  for (int k = 0; k < TILE_ITEMS; ++k) {
    int64_t const i = first + (int64_t)k * TILE_THREADS + threadIdx.x;
    if (i >= n) break;
    atomicAdd(&tile_counts[ids[k]], 1u);
    if (stored != NULL) stored[i] = (uint16_t)ids[k];
  }
  __syncthreads();
  for (uint32_t p = threadIdx.x; p < num_partitions; p += TILE_THREADS) {
    matrix[(int64_t)p * tiles + t] = tile_counts[p];
  }
}

/* A fixed-width column the tiled scatter writes directly. */
struct fixed_column {
  const char *in;         /* row 0 of the input (offset applied) */
  const uint32_t *in_mask; /* or NULL */
  int64_t in_mask_offset;
  char *out;
  uint32_t *out_mask; /* zeroed; NULL when in_mask is */
  int32_t width;
};

/* Element `from` of src to element `to` of dst, both of `width` bytes (1, 2, 4, 8, 16). */
__device__ __forceinline__ void copy_element(int width, const char *src, int64_t from, char *dst,
                                             int64_t to) {
  switch (width) {
    case 1: dst[to] = src[from]; break;
    case 2: ((uint16_t *)dst)[to] = ((const uint16_t *)src)[from]; break;
    case 4: ((uint32_t *)dst)[to] = ((const uint32_t *)src)[from]; break;
    case 8: ((uint64_t *)dst)[to] = ((const uint64_t *)src)[from]; break;
    default: ((ulonglong2 *)dst)[to] = ((const ulonglong2 *)src)[from]; break; /* 16 */
  }
}

/* Rows [first, first + rows) of a column of at most 8 bytes a value into `stage`, the
 * TILE_ITEMS loads of a thread issued together (a load at a time left the scatter at 46% of
 * DRAM bandwidth on an H100). */
template <typename Word>
__device__ __forceinline__ void stage_words(const Word *in, int rows, Word *stage) {
  Word v[TILE_ITEMS];
#pragma unroll
  for (int k = 0; k < TILE_ITEMS; ++k) {
    int const r = k * TILE_THREADS + (int)threadIdx.x;
    if (r < rows) v[k] = in[r];
  }
#pragma unroll
  for (int k = 0; k < TILE_ITEMS; ++k) {
    int const r = k * TILE_THREADS + (int)threadIdx.x;
    if (r < rows) stage[r] = v[k];
  }
}

__device__ __forceinline__ void stage_tile(const fixed_column &col, int64_t first, int rows,
                                           char *stage) {
  switch (col.width) {
    case 1: stage_words((const uint8_t *)col.in + first, rows, (uint8_t *)stage); break;
    case 2: stage_words((const uint16_t *)col.in + first, rows, (uint16_t *)stage); break;
    case 4: stage_words((const uint32_t *)col.in + first, rows, (uint32_t *)stage); break;
    default: stage_words((const uint64_t *)col.in + first, rows, (uint64_t *)stage); break;
  }
}

__device__ __forceinline__ void copy_validity(const fixed_column &c, int64_t row, int64_t pos) {
  if (c.in_mask != NULL && gcol_bit_is_set(c.in_mask, c.in_mask_offset + row)) {
    atomicOr(&c.out_mask[pos >> 5], 1u << (pos & 31));
  }
}

/*
 * Tile t's rows in partition order, stable, without a sort. Warp w owns rows
 * [w * WARP_ROWS, (w + 1) * WARP_ROWS) of the tile, 32 at a time in row order:
 * 1. each row's rank among the earlier rows of its warp with the same partition
 *    (__match_any_sync; warp_counts[w][p] is warp w's running count of p, its leader alone
 *    writes it);
 * 2. warp_counts[w][p] becomes the sorted-tile index of warp w's first row of p: the tile's
 *    exclusive scan over partitions plus the counts of warps before w; base[p] = matrix(p, t)
 *    minus the tile's first index of p;
 * 3. order[index] = (row in tile, partition) for each row;
 * 4. thread j of the block takes sorted indices j, j + TILE_THREADS, ...: a warp writes
 *    consecutive positions base[p] + index of a partition's run, coalesced.
 * Shared memory: order (static) and, dynamic, base (int64) per partition, a staging buffer
 * of a tile of one column (8 bytes a row) when there are columns to write, and warp_counts
 * (16-bit) per warp and partition; up to TILE_PARTITIONS partitions.
 */
template <class Pids>
__global__ void __launch_bounds__(TILE_THREADS)
    tile_scatter_smem_kernel(Pids pids, int64_t n, int64_t tiles, uint32_t num_partitions,
                             const int64_t *matrix, const fixed_column *cols, int32_t num_cols,
                             int64_t *map) {
  using block_scan = cub::BlockScan<uint32_t, TILE_THREADS>;
  constexpr int WARPS = TILE_THREADS / 32;
  constexpr int WARP_ROWS = (int)(TILE / WARPS);
  constexpr int PER_THREAD = TILE_PARTITIONS / TILE_THREADS;
  __shared__ typename block_scan::TempStorage scan_storage;
  __shared__ uint32_t order[TILE];
  extern __shared__ int64_t dynamic[];
  int64_t *const base = dynamic;                           /* [P] */
  char *const stage = (char *)(base + num_partitions);     /* [TILE * 8] when num_cols > 0 */
  uint16_t *const warp_counts =
      (uint16_t *)(stage + (num_cols > 0 ? TILE * 8 : 0)); /* [WARPS][P] */
  int64_t const t = blockIdx.x;
  int64_t const first = t * TILE;
  int const rows = (int)(n - first < TILE ? n - first : TILE);
  int const warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
  unsigned const lower = (1u << lane) - 1u;
  for (uint32_t e = threadIdx.x; e < WARPS * num_partitions; e += TILE_THREADS) warp_counts[e] = 0;
  __syncthreads();
  /* 1. ranks within the warp, kept as (partition << 16 | rank), or ~0u past the tile */
  uint32_t packed[WARP_ROWS / 32];
  uint16_t *const mine = warp_counts + (size_t)warp * num_partitions;
#pragma unroll
  for (int k = 0; k < WARP_ROWS / 32; ++k) { /* the ids' loads all in flight first */
    int const r = warp * WARP_ROWS + k * 32 + lane;
    packed[k] = r < rows ? pids(first + r) : 0xFFFFu;
  }
#pragma unroll
  for (int k = 0; k < WARP_ROWS / 32; ++k) {
    int const r = warp * WARP_ROWS + k * 32 + lane;
    uint32_t const p = packed[k];
    unsigned const peers = __match_any_sync(0xFFFFFFFFu, p);
    uint32_t rank = 0;
    if (r < rows) rank = mine[p] + __popc(peers & lower);
    __syncwarp();
    if (r < rows && lane == __ffs(peers) - 1) mine[p] = (uint16_t)(mine[p] + __popc(peers));
    __syncwarp();
    packed[k] = r < rows ? (p << 16 | rank) : ~0u;
  }
  __syncthreads();
  /* 2. the tile's first index of each partition, then each warp's */
  uint32_t totals[PER_THREAD];
  for (int q = 0; q < PER_THREAD; ++q) {
    uint32_t const p = threadIdx.x * PER_THREAD + q;
    uint32_t sum = 0;
    if (p < num_partitions) {
      for (int w = 0; w < WARPS; ++w) sum += warp_counts[(size_t)w * num_partitions + p];
    }
    totals[q] = sum;
  }
  block_scan(scan_storage).ExclusiveSum(totals, totals);
  for (int q = 0; q < PER_THREAD; ++q) {
    uint32_t const p = threadIdx.x * PER_THREAD + q;
    if (p >= num_partitions) continue;
    uint32_t index = totals[q];
    base[p] = matrix[(int64_t)p * tiles + t] - index;
    for (int w = 0; w < WARPS; ++w) {
      uint16_t const c = warp_counts[(size_t)w * num_partitions + p];
      warp_counts[(size_t)w * num_partitions + p] = (uint16_t)index;
      index += c;
    }
  }
  __syncthreads();
  /* 3. the tile in partition order */
  for (int k = 0; k < WARP_ROWS / 32; ++k) {
    if (packed[k] == ~0u) continue;
    uint32_t const p = packed[k] >> 16;
    uint32_t const r = (uint32_t)(warp * WARP_ROWS + k * 32 + lane);
    order[mine[p] + (packed[k] & 0xFFFFu)] = r << 16 | p;
  }
  __syncthreads();
  /* 4. the writes: the map, or each column through the staging buffer (its tile read
   * coalesced; read from global memory in the sorted order, a warp's 32 rows would touch 32
   * sectors), 16-byte columns straight from global memory */
  for (int j = (int)threadIdx.x; j < rows && map != NULL; j += TILE_THREADS) {
    uint32_t const v = order[j];
    map[base[v & 0xFFFFu] + j] = first + (v >> 16);
  }
  for (int32_t c = 0; c < num_cols; ++c) {
    fixed_column const col = cols[c];
    bool const staged = col.width <= 8;
    if (staged) {
      __syncthreads(); /* the previous column's reads of the buffer are done */
      stage_tile(col, first, rows, stage);
      __syncthreads();
    }
    for (int j = (int)threadIdx.x; j < rows; j += TILE_THREADS) {
      uint32_t const v = order[j];
      int64_t const pos = base[v & 0xFFFFu] + j;
      int const r = (int)(v >> 16);
      if (staged) {
        copy_element(col.width, stage, r, col.out, pos);
      } else {
        copy_element(col.width, col.in, first + r, col.out, pos);
      }
      copy_validity(col, first + r, pos);
    }
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
 * Scans the P x tiles count matrix in place (entry (p, t) becomes the output position of
 * tile t's first row in partition p) and copies entry (p, 0) of each p to offsets[p].
 */
gcol_status scan_matrix(int64_t *m, int64_t tiles, int32_t num_partitions, int64_t *offsets,
                        gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const entries = tiles * (int64_t)num_partitions;
  size_t temp_bytes = 0;
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, temp_bytes, m, m, entries, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp->data, temp_bytes, m, m, entries, s));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpy2DAsync(offsets, sizeof(int64_t), m,
                                         (size_t)tiles * sizeof(int64_t), sizeof(int64_t),
                                         (size_t)num_partitions, cudaMemcpyDeviceToHost, s));
done:
  gcol_buffer_free(temp);
  return status;
}

gcol_status create_matrix(int64_t tiles, int32_t num_partitions, int64_t n, gcol_stream stream,
                          gcol_buffer **matrix) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(tiles <= INT64_MAX / 8 / num_partitions, GCOL_ERROR_OVERFLOW,
                    "%d partitions of %lld rows need too large a histogram", (int)num_partitions,
                    (long long)n);
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(tiles * num_partitions) * sizeof(int64_t), stream, NULL, matrix));
done:
  return status;
}

/* The gather engine moves every column of input through the row map (n int64 entries). */
gcol_status gather_by_map(gcol_table_view input, const int64_t *map, gcol_stream stream,
                          gcol_mr *mr, gcol_table **out) {
  gcol_detail_gather_map gmap;
  memset(&gmap, 0, sizeof gmap);
  gmap.indices.data = map;
  gmap.indices.width = 8;
  gmap.indices.is_signed = true;
  gmap.size = input.num_rows;
  gmap.source_rows = input.num_rows;
  return gcol_detail_copying_gather_table(input, gmap, stream, mr, out);
}

/*
 * The warp path over the partition ids `pid` (device, n entries; NULL when n == 0): fills
 * the host offsets and gathers the output table.
 */
gcol_status partition_by_warps(gcol_table_view input, const int32_t *pid, int32_t num_partitions,
                               gcol_table **out, int64_t *offsets, gcol_stream stream,
                               gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *matrix = NULL, *map = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = input.num_rows;
  int64_t const tiles = (n + WARP_TILE - 1) / WARP_TILE;
  unsigned int const grid = (unsigned int)(tiles < (1 << 20) ? (tiles < 1 ? 1 : tiles) : (1 << 20));
  if (n > 0) {
    GCOL_DETAIL_TRY(create_matrix(tiles, num_partitions, n, stream, &matrix));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int64_t), stream, NULL, &map));
    int64_t *const m = (int64_t *)matrix->data;
    GCOL_DETAIL_CUDA_TRY(
        cudaMemsetAsync(m, 0, (size_t)(tiles * num_partitions) * sizeof(int64_t), s));
    warp_count_kernel<<<grid, 32, 0, s>>>(pid, n, tiles, m);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(scan_matrix(m, tiles, num_partitions, offsets, stream));
    warp_scatter_kernel<<<grid, 32, 0, s>>>(pid, n, tiles, m, (int64_t *)map->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  } else {
    for (int32_t p = 0; p < num_partitions; ++p) offsets[p] = 0;
  }
  offsets[num_partitions] = n;
  GCOL_DETAIL_TRY(
      gather_by_map(input, map == NULL ? NULL : (const int64_t *)map->data, stream, mr, out));
done:
  gcol_buffer_free(matrix);
  gcol_buffer_free(map);
  return status;
}

bool is_flat_fixed_width(gcol_table_view input) {
  for (int32_t c = 0; c < input.num_columns; ++c) {
    if (!gcol_type_is_fixed_width(input.columns[c].type.id)) return false;
  }
  return true;
}

/*
 * The output columns of a fixed-width table (masks zeroed where the input has one) and
 * their descriptors for tile_scatter_smem_kernel, in a device buffer.
 */
gcol_status fixed_outputs_create(gcol_table_view input, gcol_stream stream, gcol_mr *mr,
                                 gcol_column **cols, gcol_buffer **descriptors) {
  gcol_status status = GCOL_OK;
  int32_t const num = input.num_columns;
  fixed_column *host = (fixed_column *)calloc((size_t)num, sizeof(fixed_column));
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d descriptors",
                    (int)num);
  for (int32_t c = 0; c < num; ++c) {
    gcol_column_view const v = input.columns[c];
    size_t const width = gcol_type_size(v.type.id);
    GCOL_DETAIL_TRY(gcol_column_create(v.type, input.num_rows,
                                       v.null_mask != NULL ? GCOL_MASK_ALL_NULL : GCOL_MASK_UNALLOCATED,
                                       stream, mr, &cols[c]));
    host[c].in = (const char *)v.data + (size_t)v.offset * width;
    host[c].in_mask = v.null_mask;
    host[c].in_mask_offset = v.offset;
    host[c].out = (char *)cols[c]->data->data;
    host[c].out_mask = v.null_mask != NULL ? (uint32_t *)cols[c]->null_mask->data : NULL;
    host[c].width = (int32_t)width;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)num * sizeof(fixed_column), stream, NULL, descriptors));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync((*descriptors)->data, host, (size_t)num * sizeof(fixed_column),
                                       cudaMemcpyHostToDevice, (cudaStream_t)stream));
  /* the host array is freed below: the copy must have read it */
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
done:
  free(host);
  return status;
}

/* Each output column's null count is its input's: partitioning moves every row. */
gcol_status fixed_outputs_finish(gcol_table_view input, gcol_column **cols, gcol_stream stream,
                                 gcol_table **out) {
  gcol_status status = GCOL_OK;
  for (int32_t c = 0; c < input.num_columns; ++c) {
    int64_t nulls = 0;
    if (input.columns[c].null_mask == NULL) continue;
    GCOL_DETAIL_TRY(gcol_column_view_null_count(input.columns[c], stream, &nulls));
    GCOL_DETAIL_TRY(gcol_column_set_null_count(cols[c], nulls));
  }
  GCOL_DETAIL_TRY(gcol_table_make(cols, input.num_columns, out));
done:
  return status;
}

/* The ids the tiled scatter reads: the count's stored ids where computing them again costs. */
template <class Pids, bool STORE = Pids::store>
struct scatter_ids {
  static Pids make(Pids pids, const gcol_buffer *) { return pids; }
};
template <class Pids>
struct scatter_ids<Pids, true> {
  static stored_pids make(Pids, const gcol_buffer *stored) {
    return stored_pids{(const uint16_t *)stored->data};
  }
};

template <class Pids>
using scatter_pids_of = decltype(scatter_ids<Pids>::make(Pids(), nullptr));

/* The tiled path (1 <= num_partitions <= TILE_PARTITIONS, n >= 1). */
template <class Pids>
gcol_status partition_by_tiles(gcol_table_view input, Pids pids, int32_t num_partitions,
                               gcol_table **out, int64_t *offsets, gcol_stream stream,
                               gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *matrix = NULL, *map = NULL, *descriptors = NULL, *stored = NULL;
  gcol_column **cols = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = input.num_rows;
  int64_t const tiles = (n + TILE - 1) / TILE;
  uint32_t const P = (uint32_t)num_partitions;
  bool const direct = is_flat_fixed_width(input);
  size_t const scatter_smem = P * (sizeof(int64_t) + (TILE_THREADS / 32) * sizeof(uint16_t)) +
                              (direct ? (size_t)TILE * 8 : 0);
  GCOL_DETAIL_CHECK(tiles <= INT32_MAX, GCOL_ERROR_OVERFLOW, "%lld rows are too many tiles",
                    (long long)n);
  GCOL_DETAIL_TRY(create_matrix(tiles, num_partitions, n, stream, &matrix));
  if (Pids::store) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(uint16_t), stream, NULL, &stored));
  }
  tile_count_smem_kernel<<<(unsigned int)tiles, TILE_THREADS, P * sizeof(uint32_t), s>>>(
      pids, n, tiles, P, (int64_t *)matrix->data,
      stored != NULL ? (uint16_t *)stored->data : NULL);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(scan_matrix((int64_t *)matrix->data, tiles, num_partitions, offsets, stream));
  if (direct) {
    cols = (gcol_column **)calloc((size_t)input.num_columns, sizeof(gcol_column *));
    GCOL_DETAIL_CHECK(cols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d columns",
                      (int)input.num_columns);
    GCOL_DETAIL_TRY(fixed_outputs_create(input, stream, mr, cols, &descriptors));
  } else {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int64_t), stream, NULL, &map));
  }
  /* Opt in always, to the most any call asks (the static shared memory counts against the
   * 48 KiB default too): one constant value is race-free between host threads, where a value
   * per call could be lowered by one thread between another's opt-in and its launch. */
  GCOL_DETAIL_CUDA_TRY(cudaFuncSetAttribute(tile_scatter_smem_kernel<scatter_pids_of<Pids>>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)SCATTER_SMEM_MAX));
  tile_scatter_smem_kernel<<<(unsigned int)tiles, TILE_THREADS, scatter_smem, s>>>(
      scatter_ids<Pids>::make(pids, stored), n, tiles, P, (const int64_t *)matrix->data,
      direct ? (const fixed_column *)descriptors->data : NULL, direct ? input.num_columns : 0,
      direct ? NULL : (int64_t *)map->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s)); /* the offsets reached the host */
  offsets[num_partitions] = n;
  if (direct) {
    GCOL_DETAIL_TRY(fixed_outputs_finish(input, cols, stream, out));
    free(cols); /* the table owns them */
    cols = NULL;
  } else {
    GCOL_DETAIL_TRY(gather_by_map(input, (const int64_t *)map->data, stream, mr, out));
  }
done:
  if (cols != NULL) {
    for (int32_t c = 0; c < input.num_columns; ++c) gcol_column_free(cols[c]);
    free(cols);
  }
  gcol_buffer_free(matrix);
  gcol_buffer_free(map);
  gcol_buffer_free(descriptors);
  gcol_buffer_free(stored);
  return status;
}

/*
 * Partitions input by the ids of `pids`: the tiled path up to TILE_PARTITIONS, else the warp
 * path over an id buffer (`pid` when the caller has one, else written here).
 */
template <class Pids>
gcol_status partition_rows(gcol_table_view input, Pids pids, const int32_t *pid,
                           int32_t num_partitions, gcol_table **out, int64_t *offsets,
                           gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *ids = NULL;
  int64_t const n = input.num_rows;
  if (n > 0 && num_partitions <= TILE_PARTITIONS) {
    return partition_by_tiles(input, pids, num_partitions, out, offsets, stream, mr);
  }
  if (n > 0 && pid == NULL) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int32_t), stream, NULL, &ids));
    pid_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                 (cudaStream_t)stream>>>(pids, n, (int32_t *)ids->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    pid = (const int32_t *)ids->data;
  }
  GCOL_DETAIL_TRY(partition_by_warps(input, pid, num_partitions, out, offsets, stream, mr));
done:
  gcol_buffer_free(ids);
  return status;
}

/* The width of key column `index` (checked by gcol_detail_hash_columns_make) when one_key_pids
 * hashes it as the row hash does: 4 or 8 bytes, not a float (floats hash canonical bytes);
 * else 0. */
size_t one_key_width(gcol_table_view input, int32_t index) {
  gcol_type_id const id = input.columns[index].type.id;
  size_t const width = gcol_type_size(id);
  bool const fits = (width == 8 && id != GCOL_FLOAT64) || (width == 4 && id != GCOL_FLOAT32);
  return fits && id != GCOL_STRING ? width : 0;
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
  gcol_buffer *cols = NULL;
  int32_t num_cols = 0;
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
  if (num_keys == 1 && fn == GCOL_HASH_MURMUR3_32 && one_key_width(input, key_columns[0]) != 0) {
    gcol_column_view const key = input.columns[key_columns[0]];
    size_t const width = one_key_width(input, key_columns[0]);
    const char *const data = (const char *)key.data + (size_t)key.offset * width;
    if (width == 8) {
      one_key_pids<uint64_t> const pids = {(const uint64_t *)data, key.null_mask, key.offset,
                                           (uint32_t)seed, (uint32_t)num_partitions};
      GCOL_DETAIL_TRY(partition_rows(input, pids, NULL, num_partitions, out, partition_offsets,
                                     stream, mr));
    } else {
      one_key_pids<uint32_t> const pids = {(const uint32_t *)data, key.null_mask, key.offset,
                                           (uint32_t)seed, (uint32_t)num_partitions};
      GCOL_DETAIL_TRY(partition_rows(input, pids, NULL, num_partitions, out, partition_offsets,
                                     stream, mr));
    }
  } else {
    hash_pids const pids = {(const gcol_detail_hash_column *)cols->data, num_cols, (int32_t)fn,
                            seed, (uint32_t)num_partitions};
    GCOL_DETAIL_TRY(partition_rows(input, pids, NULL, num_partitions, out, partition_offsets,
                                   stream, mr));
  }
done:
  gcol_buffer_free(cols);
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
  {
    const int32_t *ids = pid == NULL ? NULL : (const int32_t *)pid->data;
    buffer_pids const pids = {ids};
    GCOL_DETAIL_TRY(
        partition_rows(input, pids, ids, num_partitions, out, partition_offsets, stream, mr));
  }
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
  GCOL_DETAIL_NVTX_PUSH("gcol_round_robin_partition");
  GCOL_DETAIL_TRY(check_outputs(out, partition_offsets, num_partitions));
  GCOL_DETAIL_CHECK(start_partition >= 0 && start_partition < num_partitions,
                    GCOL_ERROR_INVALID_ARGUMENT, "start_partition is %d, outside [0, %d)",
                    (int)start_partition, (int)num_partitions);
  GCOL_DETAIL_TRY(check_table(input));
  {
    round_robin_pids const pids = {(int64_t)start_partition, (int64_t)num_partitions};
    GCOL_DETAIL_TRY(partition_rows(input, pids, NULL, num_partitions, out, partition_offsets,
                                   stream, mr));
  }
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
