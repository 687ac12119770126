/*
 * Nested Parquet columns on the GPU (lib/internal/parquet_nested.h): a leaf's repetition and
 * definition levels, written out by the page decode (a byte per entry), turned into the slots
 * of each list and struct above it. A node's slots are the entries that open one, so the slot
 * of an entry is an exclusive sum of flags (the shared int64 scan: no CUB instantiation of its
 * own); a list's offsets are its child's sum read at its own slots, and a leaf keeps its slots
 * by a map of their entries. The level rules (a chunk starts a row, an entry continues only a
 * list that exists) are checked by one pass that keeps the first bad entry.
 */
#include <cuda_runtime.h>

#include <limits.h>
#include <stdlib.h>

#include "common.cuh"
#include "detail/scan.h"
#include "gcol/column.h"
#include "internal/parquet_nested.h"

namespace {

constexpr int kBlock = GCOL_DETAIL_BLOCK_SIZE;

/* Whether entry e opens a slot of a node held at (parent_rep, slot_def). */
__device__ __forceinline__ bool opens(const uint8_t *rep, const uint8_t *def, int64_t e,
                                      int32_t parent_rep, int32_t slot_def) {
  int32_t const r = rep != NULL ? rep[e] : 0;
  return r <= parent_rep && def[e] >= slot_def;
}

__global__ void flags_kernel(const uint8_t *rep, const uint8_t *def, int64_t n, int32_t parent_rep,
                             int32_t slot_def, int64_t *flags) {
  int64_t const step = gcol_detail_grid_stride();
  for (int64_t e = gcol_detail_thread_index(); e <= n; e += step) {
    flags[e] = e < n && opens(rep, def, e, parent_rep, slot_def);
  }
}

__global__ void fill_kernel(const uint8_t *rep, const uint8_t *def, int64_t n, int32_t parent_rep,
                            int32_t slot_def, const int64_t *scan, int32_t valid_def,
                            uint8_t *valid, int64_t *map) {
  int64_t const step = gcol_detail_grid_stride();
  for (int64_t e = gcol_detail_thread_index(); e < n; e += step) {
    if (!opens(rep, def, e, parent_rep, slot_def)) continue;
    int64_t const s = scan[e];
    if (valid != NULL) valid[s] = def[e] >= valid_def;
    if (map != NULL) map[s] = e;
  }
}

/* offsets[scan[e]] = child[e] at each slot entry, and offsets[scan[n]] = child[n]. */
template <typename Offset>
__global__ void offsets_kernel(const uint8_t *rep, const uint8_t *def, int64_t n,
                               int32_t parent_rep, int32_t slot_def, const int64_t *scan,
                               const int64_t *child, Offset *offsets) {
  int64_t const step = gcol_detail_grid_stride();
  for (int64_t e = gcol_detail_thread_index(); e <= n; e += step) {
    if (e == n || opens(rep, def, e, parent_rep, slot_def)) offsets[scan[e]] = (Offset)child[e];
  }
}

/* The definition level each repetition level's list needs (a kernel argument). */
struct def_for_rep_table {
  int32_t at[GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH + 2];
};

/* The first bad entry (gcol_detail_pqn_check_levels' rules) into *first_bad, and
 * rows_at[i] = row_scan[chunk_first[i]] for the chunks' row counts. */
__global__ void check_kernel(const uint8_t *rep, const uint8_t *def, int64_t n,
                             const int64_t *chunk_first, int32_t num_chunks, def_for_rep_table t,
                             int32_t max_rep, const int64_t *row_scan, int64_t *rows_at,
                             unsigned long long *first_bad) {
  int64_t const step = gcol_detail_grid_stride();
  int64_t const me = gcol_detail_thread_index();
  if (me <= num_chunks) {
    int64_t const e = chunk_first[me];
    rows_at[me] = row_scan[e];
    /* a chunk's first entry starts a row */
    if (me < num_chunks && e < chunk_first[me + 1] && rep != NULL && rep[e] != 0) {
      atomicMin(first_bad, (unsigned long long)e);
    }
  }
  if (rep == NULL) return;
  for (int64_t e = me; e < n; e += step) {
    int32_t const r = rep[e];
    if (r == 0) continue;
    if (e == 0 || r > max_rep || def[e] < t.at[r] || def[e - 1] < t.at[r]) {
      atomicMin(first_bad, (unsigned long long)e);
    }
  }
}

}  // namespace

extern "C" gcol_status gcol_detail_pqn_scan_slots(const uint8_t *rep, const uint8_t *def, int64_t n,
                                                  int32_t parent_rep, int32_t slot_def,
                                                  int64_t *scan, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  flags_kernel<<<gcol_detail_grid_size(n + 1, kBlock), kBlock, 0, s>>>(rep, def, n, parent_rep,
                                                                      slot_def, scan);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(scan, scan, n + 1, stream));
done:
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
                                                    int64_t n, int32_t parent_rep,
                                                    int32_t slot_def, const int64_t *scan,
                                                    int64_t size, const int64_t *child,
                                                    int64_t children, gcol_stream stream,
                                                    gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  bool const wide = children > INT32_MAX;
  unsigned const grid = gcol_detail_grid_size(n + 1, kBlock);
  gcol_column *col = NULL;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(wide ? GCOL_INT64 : GCOL_INT32), size + 1,
                                     GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (wide) {
    offsets_kernel<int64_t><<<grid, kBlock, 0, s>>>(rep, def, n, parent_rep, slot_def, scan,
                                                    child, (int64_t *)col->data->data);
  } else {
    offsets_kernel<int32_t><<<grid, kBlock, 0, s>>>(rep, def, n, parent_rep, slot_def, scan,
                                                    child, (int32_t *)col->data->data);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}

extern "C" gcol_status gcol_detail_pqn_check_levels_device(
    const uint8_t *rep, const uint8_t *def, const int64_t *chunk_first, int32_t num_chunks,
    const int32_t *def_for_rep, int32_t max_rep, int64_t *first_bad, int64_t *rows,
    gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = chunk_first[num_chunks];
  gcol_buffer *scan = NULL, *small = NULL;
  int64_t *host = NULL;
  def_for_rep_table t;
  int64_t const words = (int64_t)num_chunks + 2; /* rows_at[num_chunks + 1], then the bad entry */
  GCOL_DETAIL_CHECK(max_rep >= 0 && max_rep <= GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH,
                    GCOL_ERROR_INTERNAL, "max repetition level %d", (int)max_rep);
  for (int32_t k = 0; k <= max_rep; ++k) t.at[k] = def_for_rep[k];
  host = (int64_t *)malloc((size_t)words * sizeof *host);
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n + 1) * sizeof(int64_t), stream, NULL, &scan));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(2 * words) * sizeof(int64_t), stream, NULL, &small));
  {
    int64_t *const chunks = (int64_t *)small->data + words; /* chunk_first, uploaded */
    int64_t *const rows_at = (int64_t *)small->data;
    unsigned long long *const bad = (unsigned long long *)rows_at + num_chunks + 1;
    GCOL_DETAIL_TRY(gcol_detail_pqn_scan_slots(rep, def, n, 0, 0, (int64_t *)scan->data, stream));
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(chunks, chunk_first, (size_t)(num_chunks + 1) * 8,
                                         cudaMemcpyHostToDevice, s));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(bad, 0xff, sizeof *bad, s));
    int64_t const threads = n > num_chunks + 1 ? n : num_chunks + 1;
    check_kernel<<<gcol_detail_grid_size(threads, kBlock), kBlock, 0, s>>>(
        rep, def, n, chunks, num_chunks, t, max_rep, (const int64_t *)scan->data, rows_at, bad);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(host, rows_at, (size_t)words * 8, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  }
  for (int32_t i = 0; i < num_chunks; ++i) rows[i] = host[i + 1] - host[i];
  *first_bad = host[num_chunks + 1] == -1 ? -1 : host[num_chunks + 1];
done:
  gcol_buffer_free(scan);
  gcol_buffer_free(small);
  free(host);
  return status;
}
