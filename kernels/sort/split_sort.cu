/*
 * The split sort of one 64-bit key without nulls (split_sort.h has the plan and the packing):
 *   1. min/max of the normalized words (one read of the key; the host reads them back);
 *   2. NARROW (range <= 32 bits): pack (w - min, row) as two u32 and radix sort the range's
 *      bits: the sorted rows are the order;
 *   3. HI_LO: pack (hi, lo << idx_bits | row), radix sort by the 32-bit hi (4 passes of
 *      12-byte pairs where CUB's SortPairs over the 64-bit key makes 8), then the fix-up:
 *      one thread per sorted position writes its row, a short run's first thread sorts the
 *      run's packed values in local memory and writes its rows, and each long run (more than
 *      GCOL_DETAIL_SPLIT_SHORT_RUN rows) is recorded (start, length) by its last thread;
 *   4. if there are long runs (the host reads their count back): their rows gathered with
 *      key (run number, lo), one more stable radix sort (u32 or u64 key, u32 row), and the
 *      sorted rows scattered back over their runs.
 * The result equals the general path's stable order. Synchronizes twice (steps 1 and 4).
 */
#include "common.cuh"
#include "detail/scan.h"
#include "gcol/device/block.cuh"
#include "sort/sort_internal.h"
#include "sort/split_sort.h"

/* Fewest rows that take the split sort (below, CUB's one call over the key costs less than
 * the extra passes, launches and two synchronizations). */
#define GCOL_DETAIL_SPLIT_MIN_ROWS ((int64_t)1 << 20)

/* Blocks of the min/max pass (a grid-stride loop: enough loads in flight for any GPU). */
#define GCOL_DETAIL_SPLIT_MINMAX_BLOCKS 2048

static int64_t split_min_rows = GCOL_DETAIL_SPLIT_MIN_ROWS;

extern "C" int64_t gcol_detail_set_split_sort_min_rows(int64_t rows) {
  int64_t const previous = split_min_rows;
  split_min_rows = rows;
  return previous;
}

extern "C" bool gcol_detail_split_sort_applies(const gcol_detail_key_column *key, int64_t n) {
  return n >= 1 && n >= split_min_rows && n <= INT32_MAX && key->null_mask == NULL &&
         key->width == 8 &&
         (key->kind == GCOL_DETAIL_KEY_SINT || key->kind == GCOL_DETAIL_KEY_UINT ||
          key->kind == GCOL_DETAIL_KEY_FLOAT);
}

/* The key as the kernels read it: raw 64-bit words, normalized by one kind and one XOR. */
typedef struct split_key {
  const uint64_t *data;
  int32_t base_kind;
  uint64_t flip;
} split_key;

static __device__ __forceinline__ uint64_t split_word(split_key k, int64_t row) {
  return gcol_detail_key_word_fixed(k.data[row], k.base_kind, 8, k.flip);
}

/* ---- kernels ---- */

/* minmax[0] = min, minmax[1] = max of the words (minmax starts at {~0, 0}). */
static __global__ void split_minmax_smem_kernel(split_key k, int64_t n,
                                                unsigned long long *minmax) {
  uint64_t lo = ~(uint64_t)0, hi = 0;
  GCOL_DETAIL_GRID_LOOP(i, n) {
    uint64_t const w = split_word(k, i);
    lo = w < lo ? w : lo;
    hi = w > hi ? w : hi;
  }
  lo = gcol_block_reduce_min_u64(lo);
  hi = gcol_block_reduce_max_u64(hi);
  if (threadIdx.x == 0) {
    atomicMin(&minmax[0], (unsigned long long)lo);
    atomicMax(&minmax[1], (unsigned long long)hi);
  }
}

static __global__ void split_narrow_pack_kernel(split_key k, gcol_detail_split_plan p,
                                                uint32_t *keys, uint32_t *rows, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    keys[i] = gcol_detail_split_narrow_key(p, split_word(k, i));
    rows[i] = (uint32_t)i;
  }
}

static __global__ void split_hi_lo_pack_kernel(split_key k, gcol_detail_split_plan p, uint32_t *hi,
                                               uint64_t *values, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    uint64_t const w = split_word(k, i);
    hi[i] = gcol_detail_split_hi(p, w);
    values[i] = gcol_detail_split_value(p, w, i);
  }
}

/* counts[0]: long runs recorded, counts[1]: their rows (both start at 0). */
static __global__ void split_fixup_kernel(const uint32_t *hi, const uint64_t *values,
                                          gcol_detail_split_plan p, int32_t *out, int64_t n,
                                          int64_t *run_starts, int64_t *run_lengths,
                                          unsigned long long *counts) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t start = 0, length = 0;
    int32_t const role = gcol_detail_split_role_of(hi, n, i, &start, &length);
    if (role == GCOL_DETAIL_SPLIT_SINGLE || role == GCOL_DETAIL_SPLIT_LONG ||
        role == GCOL_DETAIL_SPLIT_LONG_TAIL) {
      out[i] = (int32_t)gcol_detail_split_row(p, values[i]);
    }
    if (role == GCOL_DETAIL_SPLIT_LONG_TAIL) {
      unsigned long long const r = atomicAdd(&counts[0], 1ull);
      run_starts[r] = start;
      run_lengths[r] = length;
      atomicAdd(&counts[1], (unsigned long long)length);
    } else if (role == GCOL_DETAIL_SPLIT_SHORT_HEAD) {
      uint64_t v[GCOL_DETAIL_SPLIT_SHORT_RUN];
      int32_t const len = (int32_t)length;
      for (int32_t j = 0; j < len; ++j) v[j] = values[start + j];
      gcol_detail_split_sort_short(v, len);
      for (int32_t j = 0; j < len; ++j) out[start + j] = (int32_t)gcol_detail_split_row(p, v[j]);
    }
  }
}

/* Row j of the gathered long runs: key (run, lo), value the row. */
template <typename K>
static __global__ void split_long_gather_kernel(const uint64_t *values, gcol_detail_split_plan p,
                                                const int64_t *run_starts, const int64_t *offsets,
                                                int64_t runs, K *keys, uint32_t *rows, int64_t m) {
  GCOL_DETAIL_GRID_LOOP(j, m) {
    int64_t const r = gcol_detail_split_run_of(offsets, runs, j);
    uint64_t const v = values[run_starts[r] + (j - offsets[r])];
    keys[j] = (K)gcol_detail_split_run_key(p, r, v);
    rows[j] = (uint32_t)gcol_detail_split_row(p, v);
  }
}

/* The sorted rows of the long runs back over their runs (run r keeps its slots). */
static __global__ void split_long_scatter_kernel(const uint32_t *rows, const int64_t *run_starts,
                                                 const int64_t *offsets, int64_t runs, int32_t *out,
                                                 int64_t m) {
  GCOL_DETAIL_GRID_LOOP(j, m) {
    int64_t const r = gcol_detail_split_run_of(offsets, runs, j);
    out[run_starts[r] + (j - offsets[r])] = (int32_t)rows[j];
  }
}

/* ---- host ---- */

static unsigned int grid_for(int64_t n) { return gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE); }

/* Double buffers of a radix sort: keys and values in slot 0, slot 1 the spare. */
static gcol_detail_radix_buffers double_buffers(gcol_buffer *const keys[2], int32_t key_bytes,
                                                gcol_buffer *const values[2],
                                                int32_t value_bytes) {
  gcol_detail_radix_buffers b;
  memset(&b, 0, sizeof b);
  b.keys[0] = keys[0]->data;
  b.keys[1] = keys[1]->data;
  b.values[0] = values[0]->data;
  b.values[1] = values[1]->data;
  b.key_bytes = key_bytes;
  b.value_bytes = value_bytes;
  b.values_current = 0;
  b.overwrite = true;
  return b;
}

/* Step 1: the words' min and max, read back (synchronizes). */
static gcol_status split_minmax(split_key k, int64_t n, uint64_t *min, uint64_t *max,
                                gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *minmax = NULL;
  unsigned long long host[2] = {0, 0};
  cudaStream_t const s = (cudaStream_t)stream;
  unsigned int grid = grid_for(n);
  if (grid > GCOL_DETAIL_SPLIT_MINMAX_BLOCKS) grid = GCOL_DETAIL_SPLIT_MINMAX_BLOCKS;
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof host, stream, NULL, &minmax));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(minmax->data, 0xFF, sizeof host[0], s));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemsetAsync((unsigned long long *)minmax->data + 1, 0, sizeof host[1], s));
  split_minmax_smem_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      k, n, (unsigned long long *)minmax->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host, minmax->data, sizeof host, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  *min = host[0];
  *max = host[1];
done:
  gcol_buffer_free(minmax);
  return status;
}

/* Step 2: one 32-bit key; the sorted row buffer becomes the output. */
static gcol_status split_narrow(split_key k, gcol_detail_split_plan p, int64_t n,
                                gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *keys[2] = {NULL, NULL}, *rows[2] = {NULL, NULL};
  gcol_detail_radix_buffers b;
  memset(&b, 0, sizeof b);
  for (int j = 0; j < 2; ++j) {
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(uint32_t) * (size_t)n, stream, NULL, &keys[j]));
    /* both from mr: the rows end in either, and it becomes the output without a copy */
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(uint32_t) * (size_t)n, stream, mr, &rows[j]));
  }
  split_narrow_pack_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      k, p, (uint32_t *)keys[0]->data, (uint32_t *)rows[0]->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  b = double_buffers(keys, 4, rows, 4);
  if (p.range_bits > 0) { /* all keys equal: the iota is the order */
    GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs(&b, n, p.range_bits, stream));
  }
  GCOL_DETAIL_TRY(gcol_column_make(gcol_data_type_make(GCOL_INT32), n, rows[b.values_current], NULL,
                                   0, NULL, 0, out));
  rows[b.values_current] = NULL; /* owned by *out now */
done:
  for (int j = 0; j < 2; ++j) {
    gcol_buffer_free(keys[j]);
    gcol_buffer_free(rows[j]);
  }
  return status;
}

/* Step 4: sorts the rows of the long runs by (run, lo), stably, into out. */
static gcol_status split_long_runs(const uint64_t *values, gcol_detail_split_plan p,
                                   int64_t *run_starts, int64_t *run_lengths, int64_t runs,
                                   int64_t m, int32_t *out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *offsets = NULL, *keys[2] = {NULL, NULL}, *rows[2] = {NULL, NULL};
  int32_t const key_bits = gcol_detail_split_run_key_bits(p, runs);
  int32_t const key_bytes = key_bits <= 32 ? 4 : 8;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_detail_radix_buffers b;
  memset(&b, 0, sizeof b);
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int64_t) * (size_t)runs, stream, NULL, &offsets));
  GCOL_DETAIL_TRY(
      gcol_detail_exclusive_sum_i64(run_lengths, (int64_t *)offsets->data, runs, stream));
  for (int j = 0; j < 2; ++j) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)key_bytes * (size_t)m, stream, NULL, &keys[j]));
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(uint32_t) * (size_t)m, stream, NULL, &rows[j]));
  }
  if (key_bytes == 4) {
    split_long_gather_kernel<uint32_t><<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        values, p, run_starts, (const int64_t *)offsets->data, runs, (uint32_t *)keys[0]->data,
        (uint32_t *)rows[0]->data, m);
  } else {
    split_long_gather_kernel<uint64_t><<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        values, p, run_starts, (const int64_t *)offsets->data, runs, (uint64_t *)keys[0]->data,
        (uint32_t *)rows[0]->data, m);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  b = double_buffers(keys, key_bytes, rows, 4);
  GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs(&b, m, key_bits, stream));
  split_long_scatter_kernel<<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      (const uint32_t *)rows[b.values_current]->data, run_starts, (const int64_t *)offsets->data,
      runs, out, m);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  for (int j = 0; j < 2; ++j) {
    gcol_buffer_free(keys[j]);
    gcol_buffer_free(rows[j]);
  }
  gcol_buffer_free(offsets);
  return status;
}

/* Step 3 (and 4): the hi sort and the fix-up, into a new INT32 column. */
static gcol_status split_hi_lo(split_key k, gcol_detail_split_plan p, int64_t n, gcol_stream stream,
                               gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *hi[2] = {NULL, NULL}, *values[2] = {NULL, NULL};
  gcol_buffer *runs = NULL, *counts = NULL;
  gcol_column *result = NULL;
  unsigned long long host_counts[2] = {0, 0};
  int64_t const run_capacity = n / (GCOL_DETAIL_SPLIT_SHORT_RUN + 1) + 1;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_detail_radix_buffers b;
  memset(&b, 0, sizeof b);
  for (int j = 0; j < 2; ++j) {
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(uint32_t) * (size_t)n, stream, NULL, &hi[j]));
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(uint64_t) * (size_t)n, stream, NULL, &values[j]));
  }
  split_hi_lo_pack_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      k, p, (uint32_t *)hi[0]->data, (uint64_t *)values[0]->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  b = double_buffers(hi, 4, values, 8);
  GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs_u32_u64(&b, n, stream));
  /* the long runs' starts then lengths, and their two counts */
  GCOL_DETAIL_TRY(
      gcol_buffer_create(sizeof(int64_t) * 2 * (size_t)run_capacity, stream, NULL, &runs));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof host_counts, stream, NULL, &counts));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counts->data, 0, sizeof host_counts, s));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT32), n, GCOL_MASK_UNALLOCATED,
                                     stream, mr, &result));
  split_fixup_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      (const uint32_t *)hi[b.keys_current]->data, (const uint64_t *)values[b.values_current]->data,
      p, (int32_t *)result->data->data, n, (int64_t *)runs->data,
      (int64_t *)runs->data + run_capacity, (unsigned long long *)counts->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(host_counts, counts->data, sizeof host_counts, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  if (host_counts[0] > 0) {
    /* the hi keys and the unsorted values are done with: free them before the long runs */
    gcol_buffer_free(hi[0]);
    gcol_buffer_free(hi[1]);
    hi[0] = hi[1] = NULL;
    gcol_buffer_free(values[1 - b.values_current]);
    values[1 - b.values_current] = NULL;
    GCOL_DETAIL_TRY(split_long_runs((const uint64_t *)values[b.values_current]->data, p,
                                    (int64_t *)runs->data, (int64_t *)runs->data + run_capacity,
                                    (int64_t)host_counts[0], (int64_t)host_counts[1],
                                    (int32_t *)result->data->data, stream));
  }
  *out = result;
  result = NULL;
done:
  gcol_column_free(result);
  gcol_buffer_free(counts);
  gcol_buffer_free(runs);
  for (int j = 0; j < 2; ++j) {
    gcol_buffer_free(hi[j]);
    gcol_buffer_free(values[j]);
  }
  return status;
}

extern "C" gcol_status gcol_detail_split_sorted_order(gcol_detail_key_column key, int64_t n,
                                                      bool *applied, gcol_stream stream,
                                                      gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  uint64_t min = 0, max = 0;
  gcol_detail_split_plan p;
  split_key k;
  *applied = false;
  GCOL_DETAIL_CHECK(gcol_detail_split_sort_applies(&key, n), GCOL_ERROR_INTERNAL,
                    "split sort of %lld rows of key kind %d, width %d", (long long)n, (int)key.kind,
                    (int)key.width);
  k.data = (const uint64_t *)key.data;
  k.base_kind = gcol_detail_key_base_kind(key.kind);
  k.flip = gcol_detail_key_flip(key.kind, key.width, key.descending);
  GCOL_DETAIL_TRY(split_minmax(k, n, &min, &max, stream));
  p = gcol_detail_split_plan_make(min, max, n);
  if (p.kind == GCOL_DETAIL_SPLIT_NARROW) {
    GCOL_DETAIL_TRY(split_narrow(k, p, n, stream, mr, out));
  } else if (p.kind == GCOL_DETAIL_SPLIT_HI_LO) {
    GCOL_DETAIL_TRY(split_hi_lo(k, p, n, stream, mr, out));
  } else {
    goto done; /* the caller's general path */
  }
  *applied = true;
done:
  return status;
}
