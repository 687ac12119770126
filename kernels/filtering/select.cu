/*
 * Stream compaction: apply_boolean_mask, drop_nulls, drop_nans.
 *
 * General path (any columns, nulls): count the kept rows per tile of 2048, scan the tile
 * counts, then each tile writes its kept row indices at its offset (count-then-scatter; the
 * flags are read twice, the data once), and every column is gathered through that row map.
 * Fast path: one fixed-width column without nulls and a mask without nulls: kept rows per
 * tile (flags only), a scan, one synchronization for the total (it sizes the output
 * exactly), then one coalesced pass that reads the flags and the kept values and writes them
 * in order at their tile's offset (no look-back: the offsets are known).
 */
#include <algorithm>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "filtering/row_map.cuh"
#include "gcol/filtering.h"

namespace {

constexpr int kTileThreads = 256;
constexpr int kTileItems = 8;
constexpr int64_t kTileRows = (int64_t)kTileThreads * kTileItems;
constexpr unsigned int kCountBlocks = 2048;

__device__ __forceinline__ bool keep_row(const uint8_t *flags, const uint32_t *mask,
                                         int64_t mask_offset, int64_t i) {
  return flags[i] != 0 && gcol_bit_is_set_or_null_mask(mask, mask_offset + i);
}

__device__ __forceinline__ int count_tile_items(const uint8_t *flags, const uint32_t *mask,
                                                int64_t mask_offset, int64_t n, int64_t first) {
  int c = 0;
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    int64_t const i = first + k;
    c += (i < n && keep_row(flags, mask, mask_offset, i)) ? 1 : 0;
  }
  return c;
}

__global__ void tile_count_smem_kernel(const uint8_t *flags, const uint32_t *mask,
                                       int64_t mask_offset, int64_t n, int64_t *tile_counts) {
  typedef cub::BlockReduce<int, kTileThreads> reduce_t;
  __shared__ typename reduce_t::TempStorage temp;
  int64_t const first = (int64_t)blockIdx.x * kTileRows + (int64_t)threadIdx.x * kTileItems;
  int const total = reduce_t(temp).Sum(count_tile_items(flags, mask, mask_offset, n, first));
  if (threadIdx.x == 0) tile_counts[blockIdx.x] = total;
}

__global__ void tile_scatter_smem_kernel(const uint8_t *flags, const uint32_t *mask,
                                         int64_t mask_offset, int64_t n,
                                         const int64_t *tile_offsets, int64_t *map) {
  typedef cub::BlockScan<int, kTileThreads> scan_t;
  __shared__ typename scan_t::TempStorage temp;
  int64_t const first = (int64_t)blockIdx.x * kTileRows + (int64_t)threadIdx.x * kTileItems;
  int position = 0;
  scan_t(temp).ExclusiveSum(count_tile_items(flags, mask, mask_offset, n, first), position);
  int64_t out = tile_offsets[blockIdx.x] + position;
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    int64_t const i = first + k;
    if (i < n && keep_row(flags, mask, mask_offset, i)) map[out++] = i;
  }
}

/* Number of non-zero bytes of a 32-bit word, without branches. */
__device__ __forceinline__ int nonzero_bytes(uint32_t w) {
  uint32_t const zero_high = ~(((w & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | w | 0x7F7F7F7Fu);
  return 4 - __popc(zero_high);
}

/* Counts non-zero bytes: unaligned head and tail by one thread, the body in 16-byte loads. */
__global__ void count_flags_smem_kernel(const uint8_t *flags, int64_t n, int64_t head,
                                        int64_t num_vectors, unsigned long long *count) {
  typedef cub::BlockReduce<int64_t, GCOL_DETAIL_BLOCK_SIZE> reduce_t;
  __shared__ typename reduce_t::TempStorage temp;
  int64_t c = 0;
  const uint4 *body = (const uint4 *)(flags + head);
  GCOL_DETAIL_GRID_LOOP(v, num_vectors) {
    uint4 const x = body[v];
    c += nonzero_bytes(x.x) + nonzero_bytes(x.y) + nonzero_bytes(x.z) + nonzero_bytes(x.w);
  }
  if (gcol_detail_thread_index() == 0) {
    for (int64_t i = 0; i < head; ++i) c += flags[i] != 0;
    for (int64_t i = head + num_vectors * 16; i < n; ++i) c += flags[i] != 0;
  }
  int64_t const total = reduce_t(temp).Sum(c);
  if (threadIdx.x == 0 && total != 0) atomicAdd(count, (unsigned long long)total);
}

__global__ void drop_nulls_flags_kernel(const gcol_detail_row_column *keys, int32_t num_keys,
                                        int64_t threshold, int64_t n, uint8_t *flags) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t valid = 0;
    for (int32_t k = 0; k < num_keys; ++k) valid += gcol_detail_row_valid(&keys[k], i) ? 1 : 0;
    flags[i] = valid >= threshold ? 1 : 0;
  }
}

__device__ __forceinline__ bool key_is_nan(const gcol_detail_row_column *k, int64_t i) {
  if (!gcol_detail_row_valid(k, i)) return false;
  if (k->kind == GCOL_DETAIL_ROW_F32) {
    float const v = ((const float *)k->data)[i];
    return v != v;
  }
  double const v = ((const double *)k->data)[i];
  return v != v;
}

__global__ void drop_nans_flags_kernel(const gcol_detail_row_column *keys, int32_t num_keys,
                                       int64_t threshold, int64_t n, uint8_t *flags) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t not_nan = 0;
    for (int32_t k = 0; k < num_keys; ++k) not_nan += key_is_nan(&keys[k], i) ? 0 : 1;
    flags[i] = not_nan >= threshold ? 1 : 0;
  }
}

/* Empty outputs: every column of @p input with 0 rows. */
gcol_status empty_table_like(gcol_table_view input, gcol_stream stream, gcol_mr *mr,
                             gcol_table **out) {
  return gcol_detail_gather_table(input, NULL, 0, false, stream, mr, out);
}

bool fast_select_applies(gcol_table_view input, gcol_column_view mask) {
  if (input.num_columns != 1) return false;
  gcol_column_view const c = input.columns[0];
  size_t const w = gcol_type_size(c.type.id);
  return (w == 1 || w == 2 || w == 4 || w == 8) && (c.null_mask == NULL || c.null_count == 0) &&
         (mask.null_mask == NULL || mask.null_count == 0);
}

/*
 * Fast path: one fixed-width column without nulls, a mask without nulls. Two passes over
 * tiles of kTileRows rows; thread t of a tile handles rows tile + k * kTileThreads + t
 * (k < kTileItems), so every load is coalesced. A warp's ballot over one stripe gives each
 * kept row its rank in the warp; the ranks of the 64 (stripe, warp) groups of a tile are
 * scanned in row order, so the output keeps the input order.
 */
constexpr int kTileWarps = kTileThreads / 32;
static_assert(kTileItems * kTileWarps == 64, "the tile scan gives each lane of a warp 2 groups");

/* Ballots of the flags of this thread's kTileItems rows; each thread gets its warp's. */
__device__ __forceinline__ void stripe_ballots(const uint8_t *flags, int64_t n, int64_t tile_first,
                                               bool keep[kTileItems], unsigned ballot[kTileItems]) {
  uint8_t f[kTileItems];
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    int64_t const i = tile_first + (int64_t)k * kTileThreads + threadIdx.x;
    f[k] = i < n ? flags[i] : (uint8_t)0;
  }
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    keep[k] = f[k] != 0;
    ballot[k] = __ballot_sync(0xFFFFFFFFu, keep[k]);
  }
}

/* Sum over the 32 lanes of a full warp (shuffles: any architecture). */
__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xFFFFFFFFu, v, d);
  return v;
}

/* Pass 1: kept rows per tile, two tiles per block (16 independent byte loads per thread keep
 * enough bytes in flight for a flags-only pass); block 0 also zeroes the slot after the last
 * tile, so that an exclusive scan over num_tiles + 1 slots ends with the total. */
__global__ void flag_tile_count_smem_kernel(const uint8_t *flags, int64_t n, int64_t num_tiles,
                                            int64_t *tile_counts) {
  __shared__ int warp_totals[2][kTileWarps];
  int64_t const first = (int64_t)blockIdx.x * 2 * kTileRows + threadIdx.x;
  uint8_t f[2 * kTileItems];
#pragma unroll
  for (int k = 0; k < 2 * kTileItems; ++k) {
    int64_t const i = first + (int64_t)k * kTileThreads;
    f[k] = i < n ? flags[i] : (uint8_t)0;
  }
  int c[2] = {0, 0};
#pragma unroll
  for (int k = 0; k < 2 * kTileItems; ++k) c[k / kTileItems] += f[k] != 0 ? 1 : 0;
  int const t0 = warp_sum(c[0]);
  int const t1 = warp_sum(c[1]);
  if ((threadIdx.x & 31) == 0) {
    warp_totals[0][threadIdx.x >> 5] = t0;
    warp_totals[1][threadIdx.x >> 5] = t1;
  }
  __syncthreads();
  if (threadIdx.x < 2) {
    int64_t const tile = 2 * (int64_t)blockIdx.x + threadIdx.x;
    int total = 0;
    for (int w = 0; w < kTileWarps; ++w) total += warp_totals[threadIdx.x][w];
    if (tile < num_tiles) tile_counts[tile] = total;
    if (blockIdx.x == 0 && threadIdx.x == 0) tile_counts[num_tiles] = 0;
  }
}

/* Pass 2: each kept row goes to tile_offsets[tile] + (kept rows before it in the tile). A
 * row's value is read only when it is kept. */
template <typename T>
__global__ void flag_tile_select_smem_kernel(const T *in, const uint8_t *flags, int64_t n,
                                             const int64_t *tile_offsets, T *out) {
  __shared__ int group_offsets[kTileItems * kTileWarps];
  bool keep[kTileItems];
  unsigned ballot[kTileItems];
  T v[kTileItems];
  int const lane = (int)(threadIdx.x & 31), warp = (int)(threadIdx.x >> 5);
  int64_t const tile_first = (int64_t)blockIdx.x * kTileRows;
  stripe_ballots(flags, n, tile_first, keep, ballot);
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    v[k] = keep[k] ? in[tile_first + (int64_t)k * kTileThreads + threadIdx.x] : (T)0;
  }
  if (lane == 0) {
#pragma unroll
    for (int k = 0; k < kTileItems; ++k) group_offsets[k * kTileWarps + warp] = __popc(ballot[k]);
  }
  __syncthreads();
  if (warp == 0) { /* exclusive scan of the 64 group counts, 2 per lane, in row order */
    int const a = group_offsets[2 * lane], b = group_offsets[2 * lane + 1];
    int inclusive = a + b;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      int const up = __shfl_up_sync(0xFFFFFFFFu, inclusive, d);
      if (lane >= d) inclusive += up;
    }
    group_offsets[2 * lane] = inclusive - a - b;
    group_offsets[2 * lane + 1] = inclusive - b;
  }
  __syncthreads();
  int64_t const base = tile_offsets[blockIdx.x];
  unsigned const lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    if (keep[k]) {
      out[base + group_offsets[k * kTileWarps + warp] + __popc(ballot[k] & lanes_below)] = v[k];
    }
  }
}

template <typename T>
void launch_tile_select(const void *in, const uint8_t *flags, int64_t n, int64_t num_tiles,
                        const int64_t *tile_offsets, void *out, cudaStream_t s) {
  flag_tile_select_smem_kernel<T><<<(unsigned int)num_tiles, kTileThreads, 0, s>>>(
      (const T *)in, flags, n, tile_offsets, (T *)out);
}

void launch_tile_select_width(size_t width, const void *in, const uint8_t *flags, int64_t n,
                              int64_t num_tiles, const int64_t *tile_offsets, void *out,
                              cudaStream_t s) {
  switch (width) {
    case 1:
      launch_tile_select<uint8_t>(in, flags, n, num_tiles, tile_offsets, out, s);
      break;
    case 2:
      launch_tile_select<uint16_t>(in, flags, n, num_tiles, tile_offsets, out, s);
      break;
    case 4:
      launch_tile_select<uint32_t>(in, flags, n, num_tiles, tile_offsets, out, s);
      break;
    default:
      launch_tile_select<uint64_t>(in, flags, n, num_tiles, tile_offsets, out, s);
      break;
  }
}

/* Tile offsets of the kept rows (num_tiles + 1 slots) and their total (synchronizes). */
gcol_status flag_tile_offsets(const uint8_t *flags, int64_t n, int64_t num_tiles,
                              gcol_stream stream, gcol_buffer **out_tiles, int64_t *out_count) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t temp_bytes = 0;
  int64_t *tiles = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(num_tiles + 1) * sizeof(int64_t), stream, NULL, out_tiles));
  tiles = (int64_t *)(*out_tiles)->data;
  flag_tile_count_smem_kernel<<<(unsigned int)((num_tiles + 1) / 2), kTileThreads, 0, s>>>(
      flags, n, num_tiles, tiles);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(
      cub::DeviceScan::ExclusiveSum(NULL, temp_bytes, tiles, tiles, num_tiles + 1, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(
      cub::DeviceScan::ExclusiveSum(temp->data, temp_bytes, tiles, tiles, num_tiles + 1, s));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(out_count, tiles + num_tiles, sizeof(int64_t), cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
done:
  gcol_buffer_free(temp);
  if (status != GCOL_OK) {
    gcol_buffer_free(*out_tiles);
    *out_tiles = NULL;
  }
  return status;
}

/* One fixed-width column without nulls: tile counts, scan, one synchronization for the
 * total, an output of exactly that many rows, then one selecting pass. */
gcol_status fast_select(gcol_column_view col, const uint8_t *flags, gcol_stream stream, gcol_mr *mr,
                        gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_column *result = NULL;
  gcol_buffer *tiles = NULL;
  int64_t count = 0;
  int64_t const n = col.size;
  int64_t const num_tiles = (n + kTileRows - 1) / kTileRows;
  size_t const width = gcol_type_size(col.type.id);
  const void *in = (const char *)col.data + col.offset * (int64_t)width;
  GCOL_DETAIL_TRY(flag_tile_offsets(flags, n, num_tiles, stream, &tiles, &count));
  GCOL_DETAIL_TRY(gcol_column_create(col.type, count, GCOL_MASK_UNALLOCATED, stream, mr, &result));
  if (count > 0) {
    launch_tile_select_width(width, in, flags, n, num_tiles, (const int64_t *)tiles->data,
                             result->data->data, (cudaStream_t)stream);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_table_make(&result, 1, out));
  result = NULL;
done:
  gcol_buffer_free(tiles);
  gcol_column_free(result);
  return status;
}

gcol_status check_keys_args(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                            int64_t keep_threshold, gcol_table **out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(keys);
  GCOL_DETAIL_CHECK(num_keys >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_keys is %d, needs >= 1",
                    (int)num_keys);
  GCOL_DETAIL_CHECK(keep_threshold >= 0 && keep_threshold <= num_keys, GCOL_ERROR_INVALID_ARGUMENT,
                    "keep_threshold is %lld, must be within 0..num_keys (%d)",
                    (long long)keep_threshold, (int)num_keys);
  GCOL_DETAIL_TRY(gcol_detail_validate_table(input, "input"));
done:
  return status;
}

/* drop_nulls and drop_nans: flags from the key columns, then compaction. */
gcol_status drop_by_keys(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                         int64_t keep_threshold, bool nans, gcol_table **out, gcol_stream stream,
                         gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *key_cols = NULL, *flags = NULL;
  int64_t const n = input.num_rows;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(check_keys_args(input, keys, num_keys, keep_threshold, out));
  GCOL_DETAIL_TRY(
      gcol_detail_row_columns_make(input, keys, num_keys, false, nans, stream, &key_cols));
  if (n == 0) {
    status = empty_table_like(input, stream, mr, out);
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n, stream, NULL, &flags));
  if (nans) {
    drop_nans_flags_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                             GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const gcol_detail_row_column *)key_cols->data, num_keys, keep_threshold, n,
        (uint8_t *)flags->data);
  } else {
    drop_nulls_flags_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                              GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const gcol_detail_row_column *)key_cols->data, num_keys, keep_threshold, n,
        (uint8_t *)flags->data);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_detail_select_rows(input, (const uint8_t *)flags->data, NULL, 0, stream, mr, out));
done:
  gcol_buffer_free(key_cols);
  gcol_buffer_free(flags);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_detail_validate_table(gcol_table_view input, const char *what) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(input.num_columns >= 0 && (input.num_columns == 0 || input.columns != NULL),
                    GCOL_ERROR_INVALID_ARGUMENT, "%s has %d columns and columns %p", what,
                    (int)input.num_columns, (const void *)input.columns);
  GCOL_DETAIL_CHECK(input.num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT, "%s has %lld rows", what,
                    (long long)input.num_rows);
  for (int32_t c = 0; c < input.num_columns; ++c) {
    GCOL_DETAIL_TRY(gcol_column_view_validate(input.columns[c], what));
    GCOL_DETAIL_CHECK(input.columns[c].size == input.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                      "%s column %d has %lld rows, the table %lld", what, (int)c,
                      (long long)input.columns[c].size, (long long)input.num_rows);
    GCOL_DETAIL_CHECK(input.columns[c].type.id != GCOL_DICTIONARY32, GCOL_ERROR_UNSUPPORTED,
                      "%s column %d is DICTIONARY32", what, (int)c);
  }
done:
  return status;
}

extern "C" gcol_status gcol_detail_count_flags(const uint8_t *flags, int64_t size,
                                               gcol_stream stream, int64_t *out_count) {
  gcol_status status = GCOL_OK;
  gcol_buffer *counter = NULL;
  unsigned long long host_count = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const head_gap = (int64_t)((16u - ((uintptr_t)flags & 15u)) & 15u);
  int64_t const head = head_gap < size ? head_gap : size;
  int64_t const num_vectors = (size - head) / 16;
  unsigned int const count_blocks =
      std::min(gcol_detail_grid_size(num_vectors > 0 ? num_vectors : 1, GCOL_DETAIL_BLOCK_SIZE),
               kCountBlocks);
  *out_count = 0;
  if (size == 0) goto done;
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(unsigned long long), stream, NULL, &counter));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counter->data, 0, sizeof(unsigned long long), s));
  /* Grid-stride with at most kCountBlocks blocks: one atomic per block on one counter. */
  count_flags_smem_kernel<<<count_blocks, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      flags, size, head, num_vectors, (unsigned long long *)counter->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(&host_count, counter->data, sizeof host_count, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  *out_count = (int64_t)host_count;
done:
  gcol_buffer_free(counter);
  return status;
}

extern "C" gcol_status gcol_detail_flags_to_map(const uint8_t *flags, const uint32_t *flag_mask,
                                                int64_t flag_mask_offset, int64_t size,
                                                gcol_stream stream, gcol_buffer **out_map,
                                                int64_t *out_count) {
  gcol_status status = GCOL_OK;
  gcol_buffer *tiles = NULL, *temp = NULL;
  size_t temp_bytes = 0;
  int64_t const num_tiles = (size + kTileRows - 1) / kTileRows;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t *d_tiles = NULL;
  *out_map = NULL;
  *out_count = 0;
  if (size == 0) goto done;
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(num_tiles + 1) * sizeof(int64_t), stream, NULL, &tiles));
  d_tiles = (int64_t *)tiles->data;
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_tiles + num_tiles, 0, sizeof(int64_t), s));
  tile_count_smem_kernel<<<(unsigned int)num_tiles, kTileThreads, 0, s>>>(
      flags, flag_mask, flag_mask_offset, size, d_tiles);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(
      cub::DeviceScan::ExclusiveSum(NULL, temp_bytes, d_tiles, d_tiles, num_tiles + 1, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(
      cub::DeviceScan::ExclusiveSum(temp->data, temp_bytes, d_tiles, d_tiles, num_tiles + 1, s));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(out_count, d_tiles + num_tiles, sizeof(int64_t), cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  if (*out_count == 0) goto done;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)*out_count * sizeof(int64_t), stream, NULL, out_map));
  tile_scatter_smem_kernel<<<(unsigned int)num_tiles, kTileThreads, 0, s>>>(
      flags, flag_mask, flag_mask_offset, size, d_tiles, (int64_t *)(*out_map)->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  gcol_buffer_free(tiles);
  gcol_buffer_free(temp);
  if (status != GCOL_OK) {
    gcol_buffer_free(*out_map);
    *out_map = NULL;
    *out_count = 0;
  }
  return status;
}

extern "C" gcol_status gcol_detail_select_rows(gcol_table_view input, const uint8_t *flags,
                                               const uint32_t *flag_mask, int64_t flag_mask_offset,
                                               gcol_stream stream, gcol_mr *mr, gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *map = NULL;
  int64_t count = 0;
  GCOL_DETAIL_TRY(gcol_detail_flags_to_map(flags, flag_mask, flag_mask_offset, input.num_rows,
                                           stream, &map, &count));
  GCOL_DETAIL_TRY(gcol_detail_gather_table(input, map == NULL ? NULL : (const int64_t *)map->data,
                                           count, false, stream, mr, out));
done:
  gcol_buffer_free(map);
  return status;
}

extern "C" gcol_status gcol_apply_boolean_mask(gcol_table_view input, gcol_column_view boolean_mask,
                                               gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  const uint8_t *flags = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_apply_boolean_mask");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_validate_table(input, "input"));
  GCOL_DETAIL_TRY(gcol_column_view_validate(boolean_mask, "boolean_mask"));
  GCOL_DETAIL_CHECK(boolean_mask.type.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "boolean_mask must be BOOL8, not %s", gcol_type_name(boolean_mask.type.id));
  GCOL_DETAIL_CHECK(boolean_mask.size == input.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                    "boolean_mask has %lld rows, input %lld", (long long)boolean_mask.size,
                    (long long)input.num_rows);
  if (input.num_rows == 0) {
    status = empty_table_like(input, stream, mr, out);
    goto done;
  }
  flags = (const uint8_t *)boolean_mask.data + boolean_mask.offset;
  if (fast_select_applies(input, boolean_mask)) {
    status = fast_select(input.columns[0], flags, stream, mr, out);
  } else {
    status = gcol_detail_select_rows(input, flags, boolean_mask.null_mask, boolean_mask.offset,
                                     stream, mr, out);
  }
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_drop_nulls(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                                       int64_t keep_threshold, gcol_table **out, gcol_stream stream,
                                       gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_drop_nulls");
  status = drop_by_keys(input, keys, num_keys, keep_threshold, false, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_drop_nans(gcol_table_view input, const int32_t *keys, int32_t num_keys,
                                      int64_t keep_threshold, gcol_table **out, gcol_stream stream,
                                      gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_drop_nans");
  status = drop_by_keys(input, keys, num_keys, keep_threshold, true, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
