/*
 * Stream compaction: apply_boolean_mask, drop_nulls, drop_nans.
 *
 * Tables of fixed-width columns (nulls or not, in the columns and in the flags) take the
 * tiled select of tile_select.cu: kept rows per tile of 2048, a scan, then one coalesced
 * pass per column that writes the kept values and validity bits at their tile's offset.
 * Other tables (strings, lists, structs): count the kept rows per tile, scan the tile
 * counts, then each tile writes its kept row indices at its offset (count-then-scatter; the
 * flags are read twice, the data once), and every column is gathered through that row map.
 */
#include <algorithm>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "filtering/row_map.cuh"
#include "filtering/tile_select.cuh"
#include "gcol/device/block.cuh"
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
  uint64_t c = 0;
  const uint4 *body = (const uint4 *)(flags + head);
  GCOL_DETAIL_GRID_LOOP(v, num_vectors) {
    uint4 const x = body[v];
    c += nonzero_bytes(x.x) + nonzero_bytes(x.y) + nonzero_bytes(x.z) + nonzero_bytes(x.w);
  }
  if (gcol_detail_thread_index() == 0) {
    for (int64_t i = 0; i < head; ++i) c += flags[i] != 0;
    for (int64_t i = head + num_vectors * 16; i < n; ++i) c += flags[i] != 0;
  }
  gcol_block_add_count(count, (uint64_t)c);
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
  if (input.num_rows > 0 && gcol_detail_tile_select_applies(input)) {
    status = gcol_detail_tile_select(input, flags, flag_mask, flag_mask_offset, stream, mr, out);
    goto done;
  }
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
  /* A null flag keeps nothing; a mask without nulls need not be read. */
  status = gcol_detail_select_rows(
      input, (const uint8_t *)boolean_mask.data + boolean_mask.offset,
      gcol_column_view_may_have_nulls(boolean_mask) ? boolean_mask.null_mask : NULL,
      boolean_mask.offset, stream, mr, out);
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
