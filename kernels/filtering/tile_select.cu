/*
 * The tiled select: gcol_apply_boolean_mask over a table of fixed-width columns, with or
 * without nulls in the columns and in the boolean mask, and no row map.
 *
 * Pass 1 counts the kept rows of each tile of 2048 (reading the flags only); an exclusive scan
 * gives every tile its output offset, and one synchronization reads the total, which sizes the
 * outputs exactly. Pass 2, one launch per column, reads the flags again and the kept values, and
 * writes them in order at the tile's offset (the offsets are known: no look-back, no row map). A
 * column that may have nulls gets its kept validity bits the same way: compacted in the tile,
 * written at the tile's bit offset into a zeroed mask (tile_mask.h: words shared with the
 * neighbouring tiles are ORed in), and counted on the way, one atomic per block; those counts are
 * read after the last column (a second synchronization, only when some column has a mask). A row
 * whose flag is null counts as not kept: such flags are first copied with the null rows zeroed (one
 * light pass, only when the flags have nulls).
 */
#include <cub/device/device_scan.cuh>

#include "filtering/tile_mask.h"
#include "filtering/tile_select.cuh"
#include "gcol/bitmask.h"
#include "gcol/bits.h"
#include "gcol/device/warp.cuh"
#include "internal/column.h"

namespace {

constexpr int kTileThreads = 256;
constexpr int kTileItems = 8;
constexpr int kTileRows = kTileThreads * kTileItems;
constexpr int kTileWarps = kTileThreads / 32;
static_assert(kTileItems * kTileWarps == 64, "the tile scan gives each lane of a warp 2 groups");

/* The keep flags: one byte per row, non-zero keeps the row (null flags already zeroed). */
struct tile_flags {
  const uint8_t *bytes; /* row 0 */
  int64_t n;            /* rows */
};

/* One column of pass 2. */
struct tile_column {
  const void *in;                 /* row 0 of the view */
  const uint32_t *in_mask;        /* NULL when the column has no nulls to carry */
  int64_t in_mask_offset;         /* bit of row 0 in in_mask */
  void *out;                      /* values of the output */
  uint32_t *out_mask;             /* zeroed output mask (used when in_mask is not NULL) */
  unsigned long long *valid_rows; /* += the valid kept rows (when in_mask is not NULL) */
};

/* Thread t of a tile handles rows tile_first + k * kTileThreads + t (k < kTileItems), so
 * every load of a stripe k is coalesced and a warp's stripe is 32 consecutive rows. */
__device__ __forceinline__ int64_t stripe_row(int64_t tile_first, int k) {
  return tile_first + (int64_t)k * kTileThreads + threadIdx.x;
}

/* Pass 1: kept rows per tile, two tiles per block (16 independent byte loads per thread keep
 * enough bytes in flight for a flags-only pass); block 0 also zeroes the slot after the last
 * tile, so that an exclusive scan over num_tiles + 1 slots ends with the total. */
__global__ void flag_tile_count_smem_kernel(tile_flags f, int64_t num_tiles, int64_t *tile_counts) {
  __shared__ int warp_totals[2][kTileWarps];
  int64_t const first = (int64_t)blockIdx.x * 2 * kTileRows;
  uint8_t b[2 * kTileItems];
#pragma unroll
  for (int k = 0; k < 2 * kTileItems; ++k) {
    int64_t const i = stripe_row(first, k);
    b[k] = i < f.n ? f.bytes[i] : (uint8_t)0;
  }
  int c[2] = {0, 0};
#pragma unroll
  for (int k = 0; k < 2 * kTileItems; ++k) {
    c[k / kTileItems] += b[k] != 0 ? 1 : 0;
  }
  int const t0 = gcol_warp_reduce_sum_i32(c[0]);
  int const t1 = gcol_warp_reduce_sum_i32(c[1]);
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

/* Keep decisions of this thread's kTileItems rows, and the ballot of each stripe. */
__device__ __forceinline__ void stripe_ballots(const tile_flags &f, int64_t tile_first,
                                               bool keep[kTileItems], unsigned ballot[kTileItems]) {
  uint8_t b[kTileItems];
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    int64_t const i = stripe_row(tile_first, k);
    b[k] = i < f.n ? f.bytes[i] : (uint8_t)0;
  }
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    keep[k] = b[k] != 0;
    ballot[k] = __ballot_sync(0xFFFFFFFFu, keep[k]);
  }
}

/* Tile position of each kept row: the kept rows before it in the tile. The 64 (stripe,
 * warp) groups, in row order, are scanned by warp 0, two per lane; a row's rank in its
 * group comes from the group's ballot. */
__device__ __forceinline__ void tile_positions(const unsigned ballot[kTileItems],
                                               int *group_offsets, int pos[kTileItems]) {
  int const lane = (int)(threadIdx.x & 31), warp = (int)(threadIdx.x >> 5);
  if (lane == 0) {
#pragma unroll
    for (int k = 0; k < kTileItems; ++k) group_offsets[k * kTileWarps + warp] = __popc(ballot[k]);
  }
  __syncthreads();
  if (warp == 0) {
    int const a = group_offsets[2 * lane], b = group_offsets[2 * lane + 1];
    int inclusive = a + b; /* unrolled here: gcol_warp_inclusive_sum_i32 costs 8 registers */
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      int const up = __shfl_up_sync(0xFFFFFFFFu, inclusive, d);
      if (lane >= d) inclusive += up;
    }
    group_offsets[2 * lane] = inclusive - a - b;
    group_offsets[2 * lane + 1] = inclusive - b;
  }
  __syncthreads();
  unsigned const lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    pos[k] = group_offsets[k * kTileWarps + warp] + __popc(ballot[k] & lanes_below);
  }
}

/* Validity of this thread's kept rows, bit k for stripe k (read along with the values, so
 * that the loads are in flight together). */
__device__ __forceinline__ unsigned kept_valid_bits(const tile_column &c, int64_t tile_first,
                                                    const bool keep[kTileItems]) {
  unsigned bits = 0;
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    if (keep[k] && gcol_bit_is_set(c.in_mask, c.in_mask_offset + stripe_row(tile_first, k))) {
      bits |= 1u << k;
    }
  }
  return bits;
}

/* The tile's kept validity bits, staged as bytes at their tile positions (staged[0, count)),
 * to output bits [base, base + count) (see tile_mask.h): each warp packs 32 positions a
 * ballot into one word. Adds the tile's valid kept rows to c.valid_rows. */
__device__ __forceinline__ void write_tile_validity(const tile_column &c, int64_t base, int count,
                                                    const uint8_t *staged, int *warp_valid) {
  if (count == 0) return; /* the same for the whole block */
  __syncthreads();
  int const lane = (int)(threadIdx.x & 31), warp = (int)(threadIdx.x >> 5);
  int const words = gcol_detail_tile_mask_words(base, count);
  uint32_t *const out = c.out_mask + (base >> 5);
  int valid = 0;
  for (int j = warp; j < words; j += kTileWarps) { /* the same trip count for a whole warp */
    int const p = gcol_detail_tile_mask_position(base, j, lane);
    uint32_t const word = __ballot_sync(0xFFFFFFFFu, p >= 0 && p < count && staged[p] != 0);
    valid += __popc(word);
    if (lane == 0) {
      if (gcol_detail_tile_mask_word_whole(base, count, j)) {
        out[j] = word;
      } else if (word != 0) {
        atomicOr(&out[j], word);
      }
    }
  }
  if (lane == 0) warp_valid[warp] = valid;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < kTileWarps; ++w) total += warp_valid[w];
    if (total != 0) atomicAdd(c.valid_rows, (unsigned long long)total);
  }
}

/* Pass 2, one column: each kept row goes to tile_offsets[tile] + its tile position. A row's
 * value and validity are read only when it is kept. kMasked (c.in_mask is not NULL) is a
 * template parameter so that columns without nulls run a kernel with no validity code (and
 * the registers of the no-null path of before: 40 for 8 bytes, 32 below). */
template <typename T, bool kMasked>
__global__ void flag_tile_select_smem_kernel(tile_flags f, const int64_t *tile_offsets,
                                             tile_column c) {
  __shared__ int group_offsets[kTileItems * kTileWarps];
  __shared__ uint8_t staged_valid[kTileRows];
  __shared__ int warp_valid[kTileWarps];
  bool keep[kTileItems];
  unsigned ballot[kTileItems];
  int pos[kTileItems];
  T v[kTileItems];
  const T *in = (const T *)c.in;
  int64_t const tile_first = (int64_t)blockIdx.x * kTileRows;
  stripe_ballots(f, tile_first, keep, ballot);
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) v[k] = keep[k] ? in[stripe_row(tile_first, k)] : T{};
  unsigned const valid_bits = kMasked ? kept_valid_bits(c, tile_first, keep) : 0u;
  tile_positions(ballot, group_offsets, pos);
  int64_t const base = tile_offsets[blockIdx.x];
#pragma unroll
  for (int k = 0; k < kTileItems; ++k) {
    if (!keep[k]) continue;
    ((T *)c.out)[base + pos[k]] = v[k];
    if (kMasked) staged_valid[pos[k]] = (uint8_t)((valid_bits >> k) & 1u);
  }
  if (kMasked) {
    int const count = (int)(tile_offsets[blockIdx.x + 1] - base);
    write_tile_validity(c, base, count, staged_valid, warp_valid);
  }
}

template <typename T>
void launch_select(const tile_flags &f, int64_t num_tiles, const int64_t *tile_offsets,
                   const tile_column &c, cudaStream_t s) {
  if (c.in_mask != NULL) {
    flag_tile_select_smem_kernel<T, true>
        <<<(unsigned int)num_tiles, kTileThreads, 0, s>>>(f, tile_offsets, c);
    return;
  }
  flag_tile_select_smem_kernel<T, false>
      <<<(unsigned int)num_tiles, kTileThreads, 0, s>>>(f, tile_offsets, c);
}

/* One instantiation per storage width, not per type. */
void launch_select_width(size_t width, const tile_flags &f, int64_t num_tiles,
                         const int64_t *tile_offsets, const tile_column &c, cudaStream_t s) {
  switch (width) {
    case 1:
      launch_select<uint8_t>(f, num_tiles, tile_offsets, c, s);
      break;
    case 2:
      launch_select<uint16_t>(f, num_tiles, tile_offsets, c, s);
      break;
    case 4:
      launch_select<uint32_t>(f, num_tiles, tile_offsets, c, s);
      break;
    case 8:
      launch_select<uint64_t>(f, num_tiles, tile_offsets, c, s);
      break;
    default:
      launch_select<ulonglong2>(f, num_tiles, tile_offsets, c, s);
      break;
  }
}

/* Tile offsets of the kept rows (num_tiles + 1 slots) and their total (synchronizes). */
gcol_status flag_tile_offsets(const tile_flags &f, int64_t num_tiles, gcol_stream stream,
                              gcol_buffer **out_tiles, int64_t *out_count) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t temp_bytes = 0;
  int64_t *tiles = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(num_tiles + 1) * sizeof(int64_t), stream, NULL, out_tiles));
  tiles = (int64_t *)(*out_tiles)->data;
  flag_tile_count_smem_kernel<<<(unsigned int)((num_tiles + 1) / 2), kTileThreads, 0, s>>>(
      f, num_tiles, tiles);
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

/* Zeroes the flags of null rows into @p out: the tile kernels then read bytes only (a
 * validity test in them costs registers, and occupancy, on every call). */
__global__ void zero_null_flags_kernel(const uint8_t *flags, const uint32_t *mask,
                                       int64_t mask_offset, int64_t n, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    out[i] = flags[i] != 0 && gcol_bit_is_set(mask, mask_offset + i) ? 1 : 0;
  }
}

/* The flags the tile kernels read: @p flags itself when @p mask is NULL, else a copy in
 * @p scratch with the flags of null rows zeroed. */
gcol_status make_flags(const uint8_t *flags, const uint32_t *mask, int64_t mask_offset, int64_t n,
                       gcol_stream stream, gcol_buffer **scratch, tile_flags *out) {
  gcol_status status = GCOL_OK;
  out->bytes = flags;
  out->n = n;
  if (mask == NULL) goto done;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n, stream, NULL, scratch));
  zero_null_flags_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                           0, (cudaStream_t)stream>>>(flags, mask, mask_offset, n,
                                                      (uint8_t *)(*scratch)->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  out->bytes = (const uint8_t *)(*scratch)->data;
done:
  return status;
}

/* The output of @p col with @p count rows; when @p col may have nulls, with a mask of
 * zeros (GCOL_MASK_ALL_NULL: pass 2 ORs in the words that tiles share, and the padding
 * stays 0) whose null count pass 2's counter sets. */
gcol_status make_output(gcol_column_view col, int64_t count, gcol_stream stream, gcol_mr *mr,
                        gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  GCOL_DETAIL_TRY(gcol_column_create(col.type, count, GCOL_MASK_UNALLOCATED, stream, mr, out));
  if (gcol_column_view_may_have_nulls(col)) {
    GCOL_DETAIL_TRY(gcol_bitmask_create(count, GCOL_MASK_ALL_NULL, stream, mr, &mask));
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(*out, mask, count));
    mask = NULL;
  }
done:
  gcol_buffer_free(mask);
  return status;
}

/* Pass 2 of input column @p col into @p result; its valid kept rows go to @p valid_rows. */
void launch_column(gcol_column_view col, gcol_column *result, const tile_flags &f,
                   int64_t num_tiles, const int64_t *tile_offsets, unsigned long long *valid_rows,
                   cudaStream_t s) {
  size_t const width = gcol_type_size(col.type.id);
  gcol_mutable_column_view const dst = gcol_detail_new_column_mutable_view(result);
  tile_column c;
  c.in = (const char *)col.data + col.offset * (int64_t)width;
  c.in_mask = gcol_column_view_may_have_nulls(col) ? col.null_mask : NULL;
  c.in_mask_offset = col.offset;
  c.out = dst.data;
  c.out_mask = dst.null_mask;
  c.valid_rows = valid_rows;
  launch_select_width(width, f, num_tiles, tile_offsets, c, s);
}

/* Null counts of the masked outputs, from their valid kept rows (synchronizes). */
gcol_status set_null_counts(gcol_column **cols, int32_t num_columns, const gcol_buffer *valid_rows,
                            gcol_stream stream) {
  gcol_status status = GCOL_OK;
  unsigned long long *host =
      (unsigned long long *)calloc((size_t)num_columns, sizeof(unsigned long long));
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d counts",
                    (int)num_columns);
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host, valid_rows->data,
                                       (size_t)num_columns * sizeof(unsigned long long),
                                       cudaMemcpyDeviceToHost, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  for (int32_t c = 0; c < num_columns; ++c) {
    if (cols[c]->null_mask == NULL) continue;
    GCOL_DETAIL_TRY(gcol_column_set_null_count(cols[c], cols[c]->size - (int64_t)host[c]));
  }
done:
  free(host);
  return status;
}

/* True when some column of @p input may have nulls. */
bool any_masked(gcol_table_view input) {
  for (int32_t c = 0; c < input.num_columns; ++c) {
    if (gcol_column_view_may_have_nulls(input.columns[c])) return true;
  }
  return false;
}

}  // namespace

extern "C" bool gcol_detail_tile_select_applies(gcol_table_view input) {
  if (input.num_columns < 1) return false;
  for (int32_t c = 0; c < input.num_columns; ++c) {
    size_t const w = gcol_type_size(input.columns[c].type.id);
    if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16) return false;
  }
  return true;
}

extern "C" gcol_status gcol_detail_tile_select(gcol_table_view input, const uint8_t *flags,
                                               const uint32_t *flag_mask, int64_t flag_mask_offset,
                                               gcol_stream stream, gcol_mr *mr, gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *tiles = NULL, *valid_rows = NULL, *scratch = NULL;
  int64_t count = 0;
  int32_t const num_columns = input.num_columns;
  tile_flags f;
  int64_t const num_tiles = (input.num_rows + kTileRows - 1) / kTileRows;
  bool const masked = any_masked(input);
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_column **cols = (gcol_column **)calloc((size_t)num_columns, sizeof *cols);
  GCOL_DETAIL_CHECK(cols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d columns",
                    (int)num_columns);
  GCOL_DETAIL_TRY(
      make_flags(flags, flag_mask, flag_mask_offset, input.num_rows, stream, &scratch, &f));
  GCOL_DETAIL_TRY(flag_tile_offsets(f, num_tiles, stream, &tiles, &count));
  if (masked && count > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)num_columns * sizeof(unsigned long long), stream,
                                       NULL, &valid_rows));
    GCOL_DETAIL_CUDA_TRY(
        cudaMemsetAsync(valid_rows->data, 0, (size_t)num_columns * sizeof(unsigned long long), s));
  }
  for (int32_t c = 0; c < num_columns; ++c) {
    GCOL_DETAIL_TRY(make_output(input.columns[c], count, stream, mr, &cols[c]));
    if (count == 0) continue;
    launch_column(input.columns[c], cols[c], f, num_tiles, (const int64_t *)tiles->data,
                  valid_rows == NULL ? NULL : (unsigned long long *)valid_rows->data + c, s);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (valid_rows != NULL) GCOL_DETAIL_TRY(set_null_counts(cols, num_columns, valid_rows, stream));
  GCOL_DETAIL_TRY(gcol_table_make(cols, num_columns, out));
  for (int32_t c = 0; c < num_columns; ++c) cols[c] = NULL;
done:
  if (cols != NULL) {
    for (int32_t c = 0; c < num_columns; ++c) gcol_column_free(cols[c]);
    free(cols);
  }
  gcol_buffer_free(tiles);
  gcol_buffer_free(valid_rows);
  gcol_buffer_free(scratch);
  return status;
}
