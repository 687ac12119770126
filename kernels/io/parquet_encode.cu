/*
 * Parquet pages encoded on the GPU (lib/io/parquet_write.c lays the file out and writes the
 * Thrift headers and footer):
 *
 *   plan   a block per (column, page) counts the page's nulls and finds its min and max rows
 *          (the host writer's order: NaN skipped, strings bytewise, ties to the first row);
 *          a thread per (column, chunk) combines its pages. The host gets only these counts.
 *   write  per column, a thread per row counts its PLAIN bytes (strings) or 1 (a valid row
 *          of a nullable column), the shared int64 exclusive sum places the values, and a
 *          thread per row writes its value at its page's body; a block per page writes the
 *          definition levels (one RLE run or one bit-packed run, see
 *          gcol_detail_pq_levels_header); the uploaded page headers and the chunks' min/max
 *          values are scattered last. The output (headers and bodies in file order) comes to
 *          the host in one copy (with a codec it stays on the device and comes back in
 *          pieces through pinned staging: encode_pages, encode_stage, encode_fetch), the
 *          statistics in another.
 *   dict   per column that may be dictionary-encoded, the shared hash table
 *          (detail/hash_table.cuh) as a set, one table per chunk, keyed by the value's bits
 *          (floats by their bytes, not the row operators' -0.0 == 0.0); each value's slot
 *          keeps its first row (atomicMin), a flag at each first row and the shared exclusive
 *          sum number the dictionary in first-row order. encode_dict returns the counts; the
 *          write pass builds the same dictionary again (deterministic: first rows) rather than
 *          keep every column's for the whole write, writes the dictionary pages' PLAIN values
 *          from the first rows, and packs each page's indices a block per page, a byte per
 *          thread (gcol_detail_pq_bitpack_byte).
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "detail/hash_table.cuh"
#include "detail/scan.h"
#include "gcol/bits.h"
#include "internal/parquet.h"

struct gcol_detail_pq_encoder {
  gcol_stream stream;
  int32_t num_columns;
  int32_t num_pages;
  int32_t num_chunks;
  int64_t num_rows;
  int64_t group_rows;        /* rows of every chunk but maybe the last */
  gcol_detail_pq_wcol *cols; /* host copy */
  gcol_buffer *d_cols;       /* gcol_detail_pq_wcol[num_columns] */
  gcol_buffer *d_pages;      /* gcol_detail_pq_wpage[num_pages] */
  gcol_buffer *d_stats;      /* gcol_detail_pq_wstats[num_columns * num_chunks] */
  gcol_buffer *d_chunk_pages;
  gcol_buffer *d_out; /* the pages of gcol_detail_parquet_encode_pages */
  uint8_t *stage;     /* pinned (or, where refused, pageable) staging of encode_stage */
  bool stage_pinned;
  cudaEvent_t fetched; /* blocking-sync event of encode_fetch */
};

namespace {

typedef gcol_detail_pq_wcol wcol;

#define PLAN_THREADS 256

/* A block per (column, page): nulls, value bytes, min and max rows. */
__global__ void plan_pages_smem_kernel(const wcol *cols, const gcol_detail_pq_wpage *pages,
                                       int32_t num_pages, int64_t total,
                                       gcol_detail_pq_wpage_info *info, int64_t *page_min,
                                       int64_t *page_max) {
  __shared__ int64_t s_nulls[PLAN_THREADS], s_min[PLAN_THREADS], s_max[PLAN_THREADS],
      s_bytes[PLAN_THREADS];
  for (int64_t b = blockIdx.x; b < total; b += gridDim.x) {
    wcol const c = cols[b / num_pages];
    gcol_detail_pq_wpage const pg = pages[b % num_pages];
    int64_t nulls = 0, mn = -1, mx = -1, bytes = 0;
    for (int64_t r = pg.begin + threadIdx.x; r < pg.end; r += blockDim.x) {
      if (!gcol_detail_pq_w_valid(&c, r)) {
        ++nulls;
        continue;
      }
      if (c.kind == GCOL_DETAIL_PQ_W_STRING) bytes += gcol_detail_pq_w_count(&c, r);
      if (gcol_detail_pq_w_is_nan(&c, r)) continue;
      mn = gcol_detail_pq_w_pick(&c, mn, r, -1);
      mx = gcol_detail_pq_w_pick(&c, mx, r, 1);
    }
    s_nulls[threadIdx.x] = nulls;
    s_min[threadIdx.x] = mn;
    s_max[threadIdx.x] = mx;
    s_bytes[threadIdx.x] = bytes;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if ((int)threadIdx.x < half) {
        int const o = threadIdx.x + half;
        s_nulls[threadIdx.x] += s_nulls[o];
        s_bytes[threadIdx.x] += s_bytes[o];
        s_min[threadIdx.x] = gcol_detail_pq_w_pick(&c, s_min[threadIdx.x], s_min[o], -1);
        s_max[threadIdx.x] = gcol_detail_pq_w_pick(&c, s_max[threadIdx.x], s_max[o], 1);
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      int64_t const valid = pg.end - pg.begin - s_nulls[0];
      gcol_detail_pq_wpage_info i;
      i.nulls = s_nulls[0];
      i.value_bytes = gcol_detail_pq_w_value_bytes(&c, valid, s_bytes[0]);
      info[b] = i;
      page_min[b] = s_min[0];
      page_max[b] = s_max[0];
    }
    __syncthreads(); /* the shared arrays are reused by the next page */
  }
}

/* A thread per (column, chunk): its pages combined. */
__global__ void plan_chunks_kernel(const wcol *cols, const int32_t *chunk_pages, int32_t num_pages,
                                   int32_t num_chunks, int64_t total,
                                   const gcol_detail_pq_wpage_info *info, const int64_t *page_min,
                                   const int64_t *page_max, gcol_detail_pq_wstats *stats) {
  GCOL_DETAIL_GRID_LOOP(i, total) {
    int64_t const k = i / num_chunks, g = i % num_chunks;
    wcol const c = cols[k];
    gcol_detail_pq_wstats s;
    s.nulls = 0;
    s.min_row = s.max_row = -1;
    for (int32_t p = chunk_pages[g]; p < chunk_pages[g + 1]; ++p) {
      int64_t const at = k * num_pages + p;
      s.nulls += info[at].nulls;
      s.min_row = gcol_detail_pq_w_pick(&c, s.min_row, page_min[at], -1);
      s.max_row = gcol_detail_pq_w_pick(&c, s.max_row, page_max[at], 1);
    }
    s.min_size = gcol_detail_pq_w_stat_size(&c, s.min_row);
    s.max_size = gcol_detail_pq_w_stat_size(&c, s.max_row);
    stats[i] = s;
  }
}

/* Whether a column's values are placed by the scan (else row - page begin is the slot). */
bool needs_scan(const wcol &c) { return c.optional || c.kind == GCOL_DETAIL_PQ_W_STRING; }

/* The scan's input: PLAIN bytes of a valid string row, or 1 for a valid row. */
__global__ void count_kernel(wcol c, int64_t rows, int64_t *pos) {
  GCOL_DETAIL_GRID_LOOP(r, rows + 1) {
    int64_t n = 0;
    if (r < rows && gcol_detail_pq_w_valid(&c, r)) {
      n = gcol_detail_pq_w_count(&c, r);
    }
    pos[r] = n;
  }
}

__device__ int32_t page_of(const gcol_detail_pq_wpage *pages, int32_t num_pages, int64_t r) {
  int32_t lo = 0, hi = num_pages - 1;
  while (lo < hi) {
    int32_t const mid = lo + (hi - lo + 1) / 2;
    if (pages[mid].begin <= r) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/* A thread per row of one column: its value at its page's values (rows of dictionary-encoded
 * chunks, dict[chunk].bit_width > 0, are left to the dictionary kernels; dict NULL: none). */
__global__ void values_kernel(wcol c, int64_t rows, const gcol_detail_pq_wpage *pages,
                              int32_t num_pages, const gcol_detail_pq_wplace *place,
                              const gcol_detail_pq_wdict_place *dict, int64_t group_rows,
                              const int64_t *pos, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(r, rows) {
    if (!gcol_detail_pq_w_valid(&c, r)) continue;
    if (dict != NULL && dict[r / group_rows].bit_width > 0) continue;
    int32_t const p = page_of(pages, num_pages, r);
    int64_t const begin = pages[p].begin, end = pages[p].end;
    int64_t const slot = pos != NULL ? pos[r] - pos[begin] : r - begin;
    uint8_t *const dst = out + place[p].body_at + place[p].levels_size;
    gcol_detail_pq_w_put_value(&c, r, end, slot, dst);
  }
}

/* A block per page of one nullable column: its definition levels. */
__global__ void levels_kernel(wcol c, const gcol_detail_pq_wpage *pages, int32_t num_pages,
                              const gcol_detail_pq_wplace *place,
                              const gcol_detail_pq_wpage_info *info, uint8_t *out) {
  for (int64_t p = blockIdx.x; p < num_pages; p += gridDim.x) {
    int64_t const begin = pages[p].begin, rows = pages[p].end - begin;
    int64_t const nulls = info[p].nulls;
    uint8_t *const dst = out + place[p].body_at;
    uint8_t head[16];
    int const hs = gcol_detail_pq_levels_header(rows, nulls, head);
    for (int i = threadIdx.x; i < hs; i += blockDim.x) dst[i] = head[i];
    if (nulls == 0 || nulls == rows) continue;
    for (int64_t j = threadIdx.x; j < (rows + 7) / 8; j += blockDim.x) {
      dst[hs + j] = gcol_detail_pq_w_levels_byte(&c, begin, rows, j);
    }
  }
}

/* A thread per page of every column: its uploaded header. */
__global__ void headers_kernel(const gcol_detail_pq_wplace *place, int64_t total,
                               const uint8_t *headers, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, total) {
    gcol_detail_pq_wplace const w = place[i];
    for (int64_t b = 0; b < w.header_size; ++b) out[w.header_at + b] = headers[w.header_src + b];
  }
}

/* A thread per (column, chunk): its min then max value's bytes. */
__global__ void stats_kernel(const wcol *cols, int32_t num_chunks, int64_t total,
                             const gcol_detail_pq_wstats *stats, const int64_t *stat_at,
                             uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, total) {
    wcol const c = cols[i / num_chunks];
    gcol_detail_pq_wstats const s = stats[i];
    if (s.min_row >= 0) gcol_detail_pq_w_put_stat(&c, s.min_row, out + stat_at[i]);
    if (s.max_row >= 0) gcol_detail_pq_w_put_stat(&c, s.max_row, out + stat_at[i] + s.min_size);
  }
}

/* ---- dictionaries ---- */

/* The hash table's key of a column: values by their bytes (floats too: a dictionary keeps
 * -0.0 and NaN payloads as they are, where the row operators' float rule would merge them). */
__device__ gcol_detail_row_column dict_key(const wcol &c) {
  gcol_detail_row_column k;
  k.kind = c.kind == GCOL_DETAIL_PQ_W_STRING ? GCOL_DETAIL_ROW_STRING : GCOL_DETAIL_ROW_BYTES;
  k.width = c.width;
  k.data = c.data;
  k.null_mask = c.mask;
  k.mask_offset = c.mask_offset;
  k.strings = c.strings;
  return k;
}

/* A thread per row: the slot of its value in its chunk's table (tables of `capacity` slots
 * back to back), -1 for a null; *overflow set where a probe ran out of slots. */
__global__ void dict_insert_kernel(wcol c, int64_t rows, int64_t group_rows, long long *slots,
                                   int64_t capacity, int64_t *slot_of, int *overflow) {
  gcol_detail_row_column const key = dict_key(c);
  GCOL_DETAIL_GRID_LOOP(r, rows) {
    slot_of[r] = -1;
    if (!gcol_detail_pq_w_valid(&c, r)) continue;
    int64_t const g = r / group_rows;
    gcol_detail_hash_table const t = {slots + g * capacity, capacity};
    gcol_detail_row_matcher const m = {&key, &key, 1, false, r};
    bool inserted = false;
    int64_t const slot =
        gcol_detail_hash_insert_unique(t, gcol_detail_row_hash(&key, 1, r), &m, &inserted);
    if (slot < 0) {
      *overflow = 1;
      continue;
    }
    slot_of[r] = g * capacity + slot;
  }
}

/* A thread per row: its value's slot ends up holding the value's first row, so the
 * dictionary's order (first rows ascending) does not depend on which insert won. */
__global__ void dict_first_row_kernel(int64_t rows, const int64_t *slot_of, long long *slots) {
  GCOL_DETAIL_GRID_LOOP(r, rows) {
    if (slot_of[r] >= 0) atomicMin(&slots[slot_of[r]], (long long)r);
  }
}

/* The scans' inputs: order[r] 1 at a value's first row; bytes[r] (STRING, else NULL) its
 * PLAIN bytes there. */
__global__ void dict_flag_kernel(wcol c, int64_t rows, const int64_t *slot_of,
                                 const long long *slots, int64_t *order, int64_t *bytes) {
  GCOL_DETAIL_GRID_LOOP(r, rows + 1) {
    bool const first = r < rows && slot_of[r] >= 0 && slots[slot_of[r]] == r;
    order[r] = first ? 1 : 0;
    if (bytes != NULL) bytes[r] = first ? gcol_detail_pq_w_count(&c, r) : 0;
  }
}

/* A thread per chunk: its dictionary's entries and PLAIN bytes from the scans. */
__global__ void dict_count_kernel(wcol c, int64_t rows, int64_t group_rows, int32_t num_chunks,
                                  const int64_t *order, const int64_t *bytes,
                                  gcol_detail_pq_wdict *out) {
  GCOL_DETAIL_GRID_LOOP(g, num_chunks) {
    int64_t const begin = g * group_rows;
    int64_t const end = begin + group_rows < rows ? begin + group_rows : rows;
    gcol_detail_pq_wdict d;
    d.distinct = order[end] - order[begin];
    d.bytes = bytes != NULL ? bytes[end] - bytes[begin] : d.distinct * c.out_width;
    out[g] = d;
  }
}

/* A thread per row: the first row of each value of a dictionary-encoded chunk writes the
 * value, PLAIN, at its entry of the chunk's dictionary page. */
__global__ void dict_values_kernel(wcol c, int64_t rows, int64_t group_rows,
                                   const gcol_detail_pq_wdict_place *dict, const int64_t *slot_of,
                                   const long long *slots, const int64_t *order,
                                   const int64_t *bytes, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(r, rows) {
    if (slot_of[r] < 0 || slots[slot_of[r]] != r) continue;
    int64_t const g = r / group_rows, begin = g * group_rows;
    if (dict[g].bit_width == 0) continue;
    int64_t const slot = bytes != NULL ? bytes[r] - bytes[begin] : order[r] - order[begin];
    gcol_detail_pq_w_put_value(&c, r, rows, slot, out + dict[g].body_at);
  }
}

/* The valid-row scan's input (ordinal[r]: the row's place among the non-null rows). */
__global__ void dict_valid_kernel(int64_t rows, const int64_t *slot_of, int64_t *ordinal) {
  GCOL_DETAIL_GRID_LOOP(r, rows + 1) { ordinal[r] = r < rows && slot_of[r] >= 0 ? 1 : 0; }
}

/* A thread per non-null row: its dictionary index, packed among the non-null rows. */
__global__ void dict_index_kernel(int64_t rows, int64_t group_rows, const int64_t *slot_of,
                                  const long long *slots, const int64_t *order,
                                  const int64_t *ordinal, uint32_t *index) {
  GCOL_DETAIL_GRID_LOOP(r, rows) {
    if (slot_of[r] < 0) continue;
    int64_t const begin = r / group_rows * group_rows;
    index[ordinal[r]] = (uint32_t)(order[slots[slot_of[r]]] - order[begin]);
  }
}

/* A block per page of a dictionary-encoded chunk: after its levels, the bit width byte, the
 * run header and a byte per thread of its non-null rows' packed indices. */
__global__ void dict_indices_kernel(const gcol_detail_pq_wpage *pages, int32_t num_pages,
                                    int64_t group_rows, const gcol_detail_pq_wdict_place *dict,
                                    const gcol_detail_pq_wplace *place, const int64_t *ordinal,
                                    const uint32_t *index, uint8_t *out) {
  for (int64_t p = blockIdx.x; p < num_pages; p += gridDim.x) {
    int const bits = dict[pages[p].begin / group_rows].bit_width;
    if (bits == 0) continue;
    int64_t const first = ordinal[pages[p].begin], n = ordinal[pages[p].end] - first;
    uint8_t *const dst = out + place[p].body_at + place[p].levels_size;
    uint8_t head[16];
    int const hs = gcol_detail_pq_dict_indices_header(n, bits, head);
    for (int i = threadIdx.x; i < hs; i += blockDim.x) dst[i] = head[i];
    for (int64_t j = threadIdx.x; j < (n + 7) / 8 * bits; j += blockDim.x) {
      dst[hs + j] = gcol_detail_pq_bitpack_byte(index + first, n, bits, j);
    }
  }
}

/* A thread per chunk of every column: its dictionary page's uploaded header. */
__global__ void dict_headers_kernel(const gcol_detail_pq_wdict_place *dict, int64_t total,
                                    const uint8_t *headers, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, total) {
    gcol_detail_pq_wdict_place const d = dict[i];
    for (int64_t b = 0; b < d.header_size; ++b) out[d.header_at + b] = headers[d.header_src + b];
  }
}

#define LAUNCH(kernel, count)                                                                 \
  kernel<<<gcol_detail_grid_size((count), GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0, \
           (cudaStream_t)stream>>>

/* Blocks of a block-per-item launch over `n` items (n > 0). */
unsigned int blocks_for(int64_t n) {
  return (unsigned int)(n < GCOL_DETAIL_MAX_GRID_BLOCKS ? n : GCOL_DETAIL_MAX_GRID_BLOCKS);
}

}  // namespace

extern "C" void gcol_detail_parquet_encoder_free(gcol_detail_pq_encoder *enc) {
  if (enc == NULL) return;
  gcol_buffer_free(enc->d_cols);
  gcol_buffer_free(enc->d_pages);
  gcol_buffer_free(enc->d_stats);
  gcol_buffer_free(enc->d_chunk_pages);
  gcol_buffer_free(enc->d_out);
  if (enc->stage != NULL) {
    cudaStreamSynchronize((cudaStream_t)enc->stream); /* no copy still writing into it */
    if (enc->stage_pinned) {
      cudaFreeHost(enc->stage);
    } else {
      free(enc->stage);
    }
  }
  if (enc->fetched != NULL) cudaEventDestroy(enc->fetched);
  free(enc->cols);
  free(enc);
}

extern "C" gcol_status gcol_detail_parquet_encode_plan(
    const gcol_detail_pq_wcol *cols, int32_t num_columns, const gcol_detail_pq_wpage *pages,
    int32_t num_pages, const int32_t *chunk_pages, int32_t num_chunks,
    gcol_detail_pq_wpage_info *info, gcol_detail_pq_wstats *stats, gcol_stream stream,
    gcol_detail_pq_encoder **out) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_detail_pq_encoder *enc = NULL;
  gcol_buffer *d_info = NULL, *d_minmax = NULL;
  int64_t const cells = (int64_t)num_columns * num_pages;
  int64_t const chunk_cells = (int64_t)num_columns * num_chunks;
  *out = NULL;
  GCOL_DETAIL_CHECK(num_columns > 0 && num_pages > 0 && num_chunks > 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "nothing to encode");
  enc = (gcol_detail_pq_encoder *)calloc(1, sizeof *enc);
  GCOL_DETAIL_CHECK(enc != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  enc->stream = stream;
  enc->num_columns = num_columns;
  enc->num_pages = num_pages;
  enc->num_chunks = num_chunks;
  enc->num_rows = pages[num_pages - 1].end;
  enc->group_rows = pages[chunk_pages[1] - 1].end;
  enc->cols = (gcol_detail_pq_wcol *)malloc((size_t)num_columns * sizeof *cols);
  GCOL_DETAIL_CHECK(enc->cols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  memcpy(enc->cols, cols, (size_t)num_columns * sizeof *cols);
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(cols, (size_t)num_columns * sizeof *cols, stream, NULL,
                                          &enc->d_cols));
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(pages, (size_t)num_pages * sizeof *pages, stream, NULL,
                                          &enc->d_pages));
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(chunk_pages, (size_t)(num_chunks + 1) * sizeof(int32_t),
                                          stream, NULL, &enc->d_chunk_pages));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)chunk_cells * sizeof *stats, stream, NULL, &enc->d_stats));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)cells * sizeof *info, stream, NULL, &d_info));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)cells * 2 * sizeof(int64_t), stream, NULL, &d_minmax));
  {
    const wcol *dc = (const wcol *)enc->d_cols->data;
    gcol_detail_pq_wpage_info *di = (gcol_detail_pq_wpage_info *)d_info->data;
    int64_t *const mn = (int64_t *)d_minmax->data;
    plan_pages_smem_kernel<<<blocks_for(cells), PLAN_THREADS, 0, s>>>(
        dc, (const gcol_detail_pq_wpage *)enc->d_pages->data, num_pages, cells, di, mn, mn + cells);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    LAUNCH(plan_chunks_kernel, chunk_cells)
    (dc, (const int32_t *)enc->d_chunk_pages->data, num_pages, num_chunks, chunk_cells, di, mn,
     mn + cells, (gcol_detail_pq_wstats *)enc->d_stats->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(info, d_info->data, (size_t)cells * sizeof *info, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(
      stats, enc->d_stats->data, (size_t)chunk_cells * sizeof *stats, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  *out = enc;
  enc = NULL;
done:
  gcol_buffer_free(d_info);
  gcol_buffer_free(d_minmax);
  gcol_detail_parquet_encoder_free(enc);
  return status;
}

/* One column's dictionaries on the device (every chunk's). */
typedef struct dict_build {
  gcol_buffer *slots;   /* a table per chunk; a value's slot holds its first row */
  gcol_buffer *slot_of; /* int64[rows]: a row's slot, -1 for a null */
  gcol_buffer *order;   /* int64[rows + 1], scanned: entries before each first row's */
  gcol_buffer *bytes;   /* STRING: int64[rows + 1], scanned: their PLAIN bytes; else NULL */
} dict_build;

static void dict_build_free(dict_build *b) {
  gcol_buffer_free(b->slots);
  gcol_buffer_free(b->slot_of);
  gcol_buffer_free(b->order);
  gcol_buffer_free(b->bytes);
  memset(b, 0, sizeof *b);
}

/* Column k's dictionaries, chunk by chunk (queued; *overflow set on the device where a probe
 * ran out of slots, which tables of twice their rows never do). */
static gcol_status dict_build_make(gcol_detail_pq_encoder *enc, int32_t k, int *overflow,
                                   dict_build *b) {
  gcol_status status = GCOL_OK;
  gcol_stream const stream = enc->stream;
  wcol const c = enc->cols[k];
  int64_t const rows = enc->num_rows;
  int64_t const capacity = gcol_probe_capacity_for(enc->group_rows);
  size_t table_bytes = 0;
  memset(b, 0, sizeof *b);
  GCOL_DETAIL_CHECK(capacity > 0 && capacity <= ((int64_t)1 << 58) / enc->num_chunks,
                    GCOL_ERROR_OVERFLOW, "dictionary tables for %d chunks of %lld rows",
                    enc->num_chunks, (long long)enc->group_rows);
  table_bytes = (size_t)(capacity * enc->num_chunks) * sizeof(long long);
  GCOL_DETAIL_TRY(gcol_buffer_create(table_bytes, stream, NULL, &b->slots));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(b->slots->data, 0xFF, table_bytes, (cudaStream_t)stream));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)rows * sizeof(int64_t), stream, NULL, &b->slot_of));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(rows + 1) * sizeof(int64_t), stream, NULL, &b->order));
  if (c.kind == GCOL_DETAIL_PQ_W_STRING) {
    GCOL_DETAIL_TRY(
        gcol_buffer_create((size_t)(rows + 1) * sizeof(int64_t), stream, NULL, &b->bytes));
  }
  {
    long long *const slots = (long long *)b->slots->data;
    int64_t *const slot_of = (int64_t *)b->slot_of->data;
    int64_t *const order = (int64_t *)b->order->data;
    int64_t *const bytes = b->bytes != NULL ? (int64_t *)b->bytes->data : NULL;
    LAUNCH(dict_insert_kernel, rows)(c, rows, enc->group_rows, slots, capacity, slot_of, overflow);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    LAUNCH(dict_first_row_kernel, rows)(rows, slot_of, slots);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    LAUNCH(dict_flag_kernel, rows + 1)(c, rows, slot_of, slots, order, bytes);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(order, order, rows + 1, stream));
    if (bytes != NULL)
      GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(bytes, bytes, rows + 1, stream));
  }
done:
  if (status != GCOL_OK) dict_build_free(b);
  return status;
}

extern "C" gcol_status gcol_detail_parquet_encode_dict(gcol_detail_pq_encoder *enc,
                                                       const bool *want,
                                                       gcol_detail_pq_wdict *dicts) {
  gcol_status status = GCOL_OK;
  gcol_stream const stream = enc->stream;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_buffer *d_dicts = NULL, *d_overflow = NULL;
  dict_build b;
  int overflow = 0;
  int64_t const cells = (int64_t)enc->num_columns * enc->num_chunks;
  memset(&b, 0, sizeof b);
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)cells * sizeof *dicts, stream, NULL, &d_dicts));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_dicts->data, 0, (size_t)cells * sizeof *dicts, s));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int), stream, NULL, &d_overflow));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_overflow->data, 0, sizeof(int), s));
  for (int32_t k = 0; k < enc->num_columns; ++k) {
    if (!want[k]) continue;
    GCOL_DETAIL_TRY(dict_build_make(enc, k, (int *)d_overflow->data, &b));
    LAUNCH(dict_count_kernel, enc->num_chunks)
    (enc->cols[k], enc->num_rows, enc->group_rows, enc->num_chunks, (const int64_t *)b.order->data,
     b.bytes != NULL ? (const int64_t *)b.bytes->data : NULL,
     (gcol_detail_pq_wdict *)d_dicts->data + (int64_t)k * enc->num_chunks);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    dict_build_free(&b); /* stream-ordered: the next column's tables reuse its memory */
  }
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(dicts, d_dicts->data, (size_t)cells * sizeof *dicts,
                                       cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(&overflow, d_overflow->data, sizeof overflow, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  GCOL_DETAIL_CHECK(overflow == 0, GCOL_ERROR_OVERFLOW, "a dictionary's hash table overflowed");
done:
  dict_build_free(&b);
  gcol_buffer_free(d_dicts);
  gcol_buffer_free(d_overflow);
  return status;
}

/* Column k's dictionary pages and the indices of its dictionary-encoded pages (dict: its
 * chunks' places on the device; place: its pages'). The dictionaries are built again, the
 * same as encode_dict's: entries in first-row order. */
static gcol_status write_dictionaries(gcol_detail_pq_encoder *enc, int32_t k,
                                      const gcol_detail_pq_wdict_place *dict,
                                      const gcol_detail_pq_wplace *place, uint8_t *out) {
  gcol_status status = GCOL_OK;
  gcol_stream const stream = enc->stream;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const rows = enc->num_rows, group_rows = enc->group_rows;
  gcol_buffer *d_ordinal = NULL, *d_index = NULL, *d_overflow = NULL;
  dict_build b;
  memset(&b, 0, sizeof b);
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int), stream, NULL, &d_overflow)); /* unread */
  GCOL_DETAIL_TRY(dict_build_make(enc, k, (int *)d_overflow->data, &b));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(rows + 1) * sizeof(int64_t), stream, NULL, &d_ordinal));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)rows * sizeof(uint32_t), stream, NULL, &d_index));
  {
    const long long *slots = (const long long *)b.slots->data;
    const int64_t *slot_of = (const int64_t *)b.slot_of->data;
    const int64_t *order = (const int64_t *)b.order->data;
    int64_t *const ordinal = (int64_t *)d_ordinal->data;
    uint32_t *const index = (uint32_t *)d_index->data;
    LAUNCH(dict_values_kernel, rows)
    (enc->cols[k], rows, group_rows, dict, slot_of, slots, order,
     b.bytes != NULL ? (const int64_t *)b.bytes->data : NULL, out);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    LAUNCH(dict_valid_kernel, rows + 1)(rows, slot_of, ordinal);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(ordinal, ordinal, rows + 1, stream));
    LAUNCH(dict_index_kernel, rows)(rows, group_rows, slot_of, slots, order, ordinal, index);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    dict_indices_kernel<<<blocks_for(enc->num_pages), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const gcol_detail_pq_wpage *)enc->d_pages->data, enc->num_pages, group_rows, dict, place,
        ordinal, index, out);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  dict_build_free(&b);
  gcol_buffer_free(d_ordinal);
  gcol_buffer_free(d_index);
  gcol_buffer_free(d_overflow);
  return status;
}

/* Column k's levels and values into `out` (dict: its chunks' dictionary places when any chunk
 * has one, else NULL); `pos` has room for rows + 1 counts. */
static gcol_status write_column(gcol_detail_pq_encoder *enc, int32_t k,
                                const gcol_detail_pq_wplace *d_place,
                                const gcol_detail_pq_wpage_info *d_info,
                                const gcol_detail_pq_wdict_place *dict, int64_t *pos,
                                uint8_t *out) {
  gcol_status status = GCOL_OK;
  gcol_stream const stream = enc->stream;
  cudaStream_t const s = (cudaStream_t)stream;
  wcol const c = enc->cols[k];
  int64_t const rows = enc->num_rows;
  const gcol_detail_pq_wpage *pages = (const gcol_detail_pq_wpage *)enc->d_pages->data;
  const gcol_detail_pq_wplace *place = d_place + (int64_t)k * enc->num_pages;
  bool const scan = needs_scan(c);
  if (scan) {
    LAUNCH(count_kernel, rows + 1)(c, rows, pos);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(pos, pos, rows + 1, stream));
  }
  if (c.optional) {
    levels_kernel<<<blocks_for(enc->num_pages), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        c, pages, enc->num_pages, place, d_info + (int64_t)k * enc->num_pages, out);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  LAUNCH(values_kernel, rows)
  (c, rows, pages, enc->num_pages, place, dict, enc->group_rows, scan ? pos : NULL, out);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  if (dict != NULL) GCOL_DETAIL_TRY(write_dictionaries(enc, k, dict, place, out));
done:
  return status;
}

extern "C" gcol_status gcol_detail_parquet_encode_stats(gcol_detail_pq_encoder *enc,
                                                        const int64_t *stat_at, int64_t stats_size,
                                                        uint8_t *host_stats) {
  gcol_status status = GCOL_OK;
  gcol_stream const stream = enc->stream;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_buffer *d_stat_at = NULL, *d_stats_out = NULL;
  int64_t const chunk_cells = (int64_t)enc->num_columns * enc->num_chunks;
  if (stats_size <= 0) return GCOL_OK;
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(stat_at, (size_t)chunk_cells * sizeof(int64_t), stream,
                                          NULL, &d_stat_at));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)stats_size, stream, NULL, &d_stats_out));
  LAUNCH(stats_kernel, chunk_cells)
  ((const wcol *)enc->d_cols->data, enc->num_chunks, chunk_cells,
   (const gcol_detail_pq_wstats *)enc->d_stats->data, (const int64_t *)d_stat_at->data,
   (uint8_t *)d_stats_out->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host_stats, d_stats_out->data, (size_t)stats_size,
                                       cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
done:
  gcol_buffer_free(d_stat_at);
  gcol_buffer_free(d_stats_out);
  return status;
}

/* Whether column k has a dictionary-encoded chunk. */
static bool has_dictionary(const gcol_detail_pq_encoder *enc,
                           const gcol_detail_pq_wdict_place *dict_place, int32_t k) {
  for (int32_t g = 0; dict_place != NULL && g < enc->num_chunks; ++g) {
    if (dict_place[(int64_t)k * enc->num_chunks + g].bit_width > 0) return true;
  }
  return false;
}

extern "C" gcol_status gcol_detail_parquet_encode_pages(
    gcol_detail_pq_encoder *enc, const gcol_detail_pq_wplace *place,
    const gcol_detail_pq_wpage_info *info, const gcol_detail_pq_wdict_place *dict_place,
    const uint8_t *headers, int64_t header_bytes, int64_t out_size) {
  gcol_status status = GCOL_OK;
  gcol_stream const stream = enc->stream;
  gcol_buffer *d_place = NULL, *d_info = NULL, *d_headers = NULL, *d_pos = NULL, *d_dict = NULL;
  int64_t const cells = (int64_t)enc->num_columns * enc->num_pages;
  int64_t const chunk_cells = (int64_t)enc->num_columns * enc->num_chunks;
  bool any_scan = false;
  for (int32_t k = 0; k < enc->num_columns; ++k) any_scan = any_scan || needs_scan(enc->cols[k]);
  gcol_buffer_free(enc->d_out);
  enc->d_out = NULL;
  GCOL_DETAIL_TRY(
      gcol_buffer_create_copy(place, (size_t)cells * sizeof *place, stream, NULL, &d_place));
  GCOL_DETAIL_TRY(
      gcol_buffer_create_copy(info, (size_t)cells * sizeof *info, stream, NULL, &d_info));
  if (header_bytes > 0) {
    GCOL_DETAIL_TRY(
        gcol_buffer_create_copy(headers, (size_t)header_bytes, stream, NULL, &d_headers));
  }
  if (dict_place != NULL) {
    GCOL_DETAIL_TRY(gcol_buffer_create_copy(dict_place, (size_t)chunk_cells * sizeof *dict_place,
                                            stream, NULL, &d_dict));
  }
  if (any_scan) {
    GCOL_DETAIL_TRY(
        gcol_buffer_create((size_t)(enc->num_rows + 1) * sizeof(int64_t), stream, NULL, &d_pos));
  }
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(out_size > 0 ? out_size : 1), stream, NULL, &enc->d_out));
  for (int32_t k = 0; k < enc->num_columns; ++k) {
    const gcol_detail_pq_wdict_place *dict =
        has_dictionary(enc, dict_place, k)
            ? (const gcol_detail_pq_wdict_place *)d_dict->data + (int64_t)k * enc->num_chunks
            : NULL;
    GCOL_DETAIL_TRY(write_column(enc, k, (const gcol_detail_pq_wplace *)d_place->data,
                                 (const gcol_detail_pq_wpage_info *)d_info->data, dict,
                                 d_pos != NULL ? (int64_t *)d_pos->data : NULL,
                                 (uint8_t *)enc->d_out->data));
  }
  if (header_bytes > 0) {
    LAUNCH(headers_kernel, cells)
    ((const gcol_detail_pq_wplace *)d_place->data, cells, (const uint8_t *)d_headers->data,
     (uint8_t *)enc->d_out->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    if (d_dict != NULL) {
      LAUNCH(dict_headers_kernel, chunk_cells)
      ((const gcol_detail_pq_wdict_place *)d_dict->data, chunk_cells,
       (const uint8_t *)d_headers->data, (uint8_t *)enc->d_out->data);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
  }
done:
  /* stream-ordered frees: the kernels queued before them still read these */
  gcol_buffer_free(d_place);
  gcol_buffer_free(d_info);
  gcol_buffer_free(d_headers);
  gcol_buffer_free(d_pos);
  gcol_buffer_free(d_dict);
  return status;
}

extern "C" gcol_status gcol_detail_parquet_encode_stage(gcol_detail_pq_encoder *enc, int32_t slots,
                                                        int64_t slot_bytes, uint8_t **slot) {
  gcol_status status = GCOL_OK;
  size_t const bytes = (size_t)slots * (size_t)(slot_bytes > 0 ? slot_bytes : 1);
  GCOL_DETAIL_CHECK(enc->stage == NULL && slots > 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "staging asked twice");
  if (cudaHostAlloc((void **)&enc->stage, bytes, cudaHostAllocDefault) == cudaSuccess) {
    enc->stage_pinned = true;
  } else { /* no pinned memory that large: pageable staging, slower (the driver stages it) */
    (void)cudaGetLastError();
    enc->stage = (uint8_t *)malloc(bytes);
    GCOL_DETAIL_CHECK(enc->stage != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory (%zu bytes)",
                      bytes);
  }
  for (int32_t i = 0; i < slots; ++i) slot[i] = enc->stage + (size_t)i * (size_t)slot_bytes;
  if (enc->fetched == NULL) {
    GCOL_DETAIL_CUDA_TRY(
        cudaEventCreateWithFlags(&enc->fetched, cudaEventBlockingSync | cudaEventDisableTiming));
  }
done:
  return status;
}

extern "C" gcol_status gcol_detail_parquet_encode_fetch(gcol_detail_pq_encoder *enc, int64_t begin,
                                                        int64_t size, uint8_t *host) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)enc->stream;
  GCOL_DETAIL_CHECK(enc->d_out != NULL && enc->fetched != NULL && begin >= 0 && size >= 0 &&
                        begin + size <= (int64_t)enc->d_out->size,
                    GCOL_ERROR_INVALID_ARGUMENT, "bytes [%lld, +%lld) outside the pages",
                    (long long)begin, (long long)size);
  if (size > 0) {
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host, (const uint8_t *)enc->d_out->data + begin,
                                         (size_t)size, cudaMemcpyDeviceToHost, s));
  }
  GCOL_DETAIL_CUDA_TRY(cudaEventRecord(enc->fetched, s));
  GCOL_DETAIL_CUDA_TRY(cudaEventSynchronize(enc->fetched)); /* sleeps, leaving the core */
done:
  if (status != GCOL_OK) cudaStreamSynchronize(s);
  return status;
}

extern "C" gcol_status gcol_detail_parquet_encode_write(
    gcol_detail_pq_encoder *enc, const gcol_detail_pq_wplace *place,
    const gcol_detail_pq_wpage_info *info, const gcol_detail_pq_wdict_place *dict_place,
    const uint8_t *headers, int64_t header_bytes, int64_t out_size, uint8_t *host_out) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)enc->stream;
  GCOL_DETAIL_TRY(gcol_detail_parquet_encode_pages(enc, place, info, dict_place, headers,
                                                   header_bytes, out_size));
  if (out_size > 0) {
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(host_out, enc->d_out->data, (size_t)out_size, cudaMemcpyDeviceToHost, s));
  }
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
done:
  gcol_buffer_free(enc->d_out);
  enc->d_out = NULL;
  return status;
}
