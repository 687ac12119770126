/*
 * CSV reader, device part (the plan comes from lib/io/csv_read.c):
 *
 *   1. chunk pass, a thread per chunk: the chunk's transition function over the 8 automaton
 *      states (lib/internal/csv.h); the host composes the small tables in order, which gives
 *      each chunk's true start state and first row (one synchronization: the host needs the row
 *      count to size everything after);
 *   2. row-start pass, a thread per chunk, from its true state;
 *   3. field pass, a thread per row: field begins ([column][row]) and the row's end; the first
 *      ragged or unterminated row is kept in one word (atomicMin) and reported by the host;
 *   4. per column: value sizes (0 for nulls) -> the shared int64 exclusive sum -> offsets ->
 *      values copied without their quotes -> a STRING column, converted to its type (gcol_cast
 *      for numbers, the kernels below for booleans and timestamps), or inferred.
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "common.cuh"
#include "detail/element_io.cuh"
#include "detail/gather.h"
#include "detail/parse_store.cuh"
#include "detail/scan.h"
#include "detail/string_convert.h"
#include "gcol/bitmask.h"
#include "gcol/cast.h"
#include "gcol/string_view.h"
#include "internal/csv.h"

namespace {

#define LAUNCH(kernel, count)                                                                 \
  kernel<<<gcol_detail_grid_size((count), GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0, \
           (cudaStream_t)stream>>>

/*
 * The row pass, a block of CHUNK_THREADS threads per chunk: thread t takes its piece of the
 * chunk (CHUNK_THREADS equal pieces, the last ones possibly empty) and computes the piece's
 * transition function; the block composes them (gcol_detail_csv_chunk_then, associative) in
 * shared memory. A thread per whole chunk walked 16 KiB serially: 13.3 ms of a 23 ms read of
 * 250 MB on an H100, at 2% of DRAM bandwidth.
 */
constexpr int CHUNK_THREADS = 256;
static_assert(CHUNK_THREADS == 256, "a thread per byte value in chunk_smem_kernel's tables; "
                                    "lib/io/csv_read.c bounds a chunk by 256 pieces");

/* Thread threadIdx.x's piece [*begin, *end) of chunk k of `chunk` bytes of bytes[0, n). */
__device__ void chunk_piece(int64_t k, int64_t chunk, int64_t n, int64_t *begin, int64_t *end) {
  int64_t const first = k * chunk;
  int64_t const last = first + chunk < n ? first + chunk : n;
  int64_t const piece = (last - first + CHUNK_THREADS - 1) / CHUNK_THREADS;
  int64_t const b = first + piece * (int64_t)threadIdx.x;
  *begin = b < last ? b : last;
  *end = b + piece < last ? b + piece : last;
}

__global__ void __launch_bounds__(CHUNK_THREADS)
    chunk_smem_kernel(gcol_detail_csv_dialect d, const uint8_t *bytes, int64_t n, int64_t chunk,
                      int64_t num_chunks, gcol_detail_csv_chunk *out,
                      gcol_detail_csv_piece *pieces) {
  __shared__ gcol_detail_csv_chunk fn[CHUNK_THREADS];
  __shared__ uint32_t next[256]; /* each byte's transitions (a thread a byte) */
  __shared__ bool begins[256];
  int const t = (int)threadIdx.x;
  next[t] = gcol_detail_csv_byte_transitions(d, t, &begins[t]);
  __syncthreads();
  for (int64_t k = blockIdx.x; k < num_chunks; k += gridDim.x) {
    int64_t begin, end;
    chunk_piece(k, chunk, n, &begin, &end);
    gcol_detail_csv_chunk mine;
    gcol_detail_csv_scan_chunk_table(next, begins, bytes, begin, end, &mine);
    pieces[k * CHUNK_THREADS + t] = gcol_detail_csv_piece_pack(&mine);
    __syncthreads(); /* the previous chunk's result was read */
    fn[t] = mine;
    __syncthreads();
    for (int stride = 1; stride < CHUNK_THREADS; stride *= 2) { /* in order: a tree */
      if (t % (2 * stride) == 0) gcol_detail_csv_chunk_then(&fn[t], &fn[t + stride], &fn[t]);
      __syncthreads();
    }
    if (t == 0) out[k] = fn[0];
  }
}

/* Row starts of each chunk from its true start state: each thread's start state and first
 * row come from an exclusive scan of the pieces' functions that chunk_smem_kernel kept
 * (Hillis-Steele, in shared memory; computing them again took 2.4 of this kernel's 3.4 ms on
 * an H100), then the thread walks its piece from that state. */
__global__ void __launch_bounds__(CHUNK_THREADS)
    row_start_smem_kernel(gcol_detail_csv_dialect d, const uint8_t *bytes, int64_t n, int64_t chunk,
                          int64_t num_chunks, const gcol_detail_csv_piece *pieces,
                          const uint8_t *start_state, const int64_t *first_row, int64_t *starts) {
  __shared__ gcol_detail_csv_chunk fn[CHUNK_THREADS];
  int const t = (int)threadIdx.x;
  for (int64_t k = blockIdx.x; k < num_chunks; k += gridDim.x) {
    int64_t begin, end;
    chunk_piece(k, chunk, n, &begin, &end);
    gcol_detail_csv_chunk mine;
    gcol_detail_csv_piece_unpack(pieces[k * CHUNK_THREADS + t], &mine);
    __syncthreads(); /* the previous chunk's scan was read */
    fn[t] = mine;
    __syncthreads();
    for (int stride = 1; stride < CHUNK_THREADS; stride *= 2) { /* inclusive scan */
      gcol_detail_csv_chunk r = fn[t];
      if (t >= stride) gcol_detail_csv_chunk_then(&fn[t - stride], &r, &r);
      __syncthreads();
      fn[t] = r;
      __syncthreads();
    }
    gcol_detail_csv_chunk before;
    if (t == 0) {
      gcol_detail_csv_chunk_identity(&before);
    } else {
      before = fn[t - 1];
    }
    int const state = start_state[k];
    gcol_detail_csv_chunk_row_starts(d, bytes, begin, end, before.end_state[state],
                                     starts + first_row[k] + before.rows[state]);
  }
}

/* error word: row * 2 + (1: unterminated quote, 0: another number of fields) */
__global__ void field_kernel(gcol_detail_csv_dialect d, const uint8_t *bytes, int64_t n,
                             const int64_t *starts, int64_t rows, int32_t columns,
                             int64_t *field_begin, int64_t *row_end, unsigned long long *error) {
  GCOL_DETAIL_GRID_LOOP(r, rows) {
    int64_t content_end = n;
    bool in_quotes = false;
    int64_t const fields = gcol_detail_csv_parse_row(d, bytes, starts[r], n, field_begin + r, rows,
                                                     columns, &content_end, &in_quotes);
    row_end[r] = content_end;
    if (in_quotes || fields != columns) {
      atomicMin(error, (unsigned long long)r * 2 + (in_quotes ? 1 : 0));
    }
  }
}

/* Field [begin, end) of column c, row r. */
__device__ void field_of(const int64_t *field_begin, const int64_t *row_end, int64_t rows,
                         int32_t columns, int32_t c, int64_t r, int64_t *begin, int64_t *end) {
  *begin = field_begin[(int64_t)c * rows + r];
  *end = c + 1 < columns ? field_begin[(int64_t)(c + 1) * rows + r] - 1 : row_end[r];
}

__global__ void value_size_kernel(gcol_detail_csv_dialect d, const uint8_t *bytes,
                                  const int64_t *field_begin, const int64_t *row_end, int64_t rows,
                                  int32_t columns, int32_t c, gcol_detail_csv_list nulls,
                                  int64_t *sizes, uint8_t *valid) {
  GCOL_DETAIL_GRID_LOOP(r, rows + 1) {
    if (r == rows) {
      sizes[r] = 0;
      continue;
    }
    int64_t b, e;
    field_of(field_begin, row_end, rows, columns, c, r, &b, &e);
    bool const v = !gcol_detail_csv_field_in(d, bytes, b, e, nulls);
    valid[r] = v;
    sizes[r] = v ? gcol_detail_csv_field_size(d, bytes, b, e) : 0;
  }
}

__global__ void value_copy_kernel(gcol_detail_csv_dialect d, const uint8_t *bytes,
                                  const int64_t *field_begin, const int64_t *row_end, int64_t rows,
                                  int32_t columns, int32_t c, const uint8_t *valid,
                                  const int64_t *offsets, uint8_t *chars) {
  GCOL_DETAIL_GRID_LOOP(r, rows) {
    if (!valid[r]) continue;
    int64_t b, e;
    field_of(field_begin, row_end, rows, columns, c, r, &b, &e);
    gcol_detail_csv_field_copy(d, bytes, b, e, chars + offsets[r]);
  }
}

/* Longest value a number field may have after its quotes and escapes are taken out (a plain
 * field is parsed where it lies, whatever its length). */
constexpr int NUMBER_TEXT_MAX = 128;

/* A column of integers or floats straight from its fields: the value of each field (a null
 * value, or text that does not parse, gives null) parsed as gcol_cast() parses strings, with
 * no STRING column in between (sizes, scan, copy, then the cast took about 1.1 ms a column of
 * 2^22 rows on an H100). *too_long is set when a field's value needs unquoting into more than
 * NUMBER_TEXT_MAX bytes: the caller then reads the column through strings. */
__global__ void number_kernel(gcol_detail_csv_dialect d, const uint8_t *bytes,
                              const int64_t *field_begin, const int64_t *row_end, int64_t rows,
                              int32_t columns, int32_t c, gcol_detail_csv_list nulls,
                              gcol_detail_result out, int bits, bool is_unsigned, uint32_t *mask,
                              int *too_long) {
  GCOL_DETAIL_WARP_LOOP(word, r, rows) {
    bool valid = false;
    if (r < rows) {
      int64_t b, e;
      field_of(field_begin, row_end, rows, columns, c, r, &b, &e);
      char buf[NUMBER_TEXT_MAX];
      const char *text = (const char *)bytes + b;
      int64_t len = e - b;
      bool present = !gcol_detail_csv_field_in(d, bytes, b, e, nulls);
      if (present) {
        int64_t const size = gcol_detail_csv_field_size(d, bytes, b, e);
        if (size != len && size > NUMBER_TEXT_MAX) { /* quotes or escapes: needs unquoting */
          atomicOr(too_long, 1);
          present = false;
        } else if (size != len) {
          gcol_detail_csv_field_copy(d, bytes, b, e, (uint8_t *)buf);
          text = buf;
          len = size;
        }
      }
      valid = gcol_detail_parse_store(out, r, text, len, bits, is_unsigned, present);
    }
    gcol_detail_warp_mask_update(mask, GCOL_DETAIL_MASK_WRITE, word, valid);
  }
}

__global__ void pack_mask_kernel(const uint8_t *valid, int64_t n, uint32_t *mask) {
  GCOL_DETAIL_GRID_LOOP(w, gcol_bit_num_words(n)) {
    uint32_t word = 0;
    for (int b = 0; b < 32; ++b) {
      int64_t const row = w * 32 + b;
      if (row < n && valid[row]) word |= 1u << b;
    }
    mask[w] = word;
  }
}

__global__ void bool_kernel(gcol_strings_view s, gcol_detail_csv_list trues,
                            gcol_detail_csv_list falses, uint8_t *out, uint8_t *valid) {
  GCOL_DETAIL_GRID_LOOP(r, s.size) {
    int32_t k;
    gcol_string_ref const v = gcol_strings_view_get(s, r);
    bool const present = gcol_strings_view_is_valid(s, r);
    bool const t = present && gcol_detail_csv_bytes_in(v.data, v.size, trues, &k);
    bool const f = present && !t && gcol_detail_csv_bytes_in(v.data, v.size, falses, &k);
    out[r] = t ? 1 : 0;
    valid[r] = t || f;
  }
}

/* TIMESTAMP_DAYS is 4 bytes, the other units 8 */
__global__ void timestamp_kernel(gcol_strings_view s, int unit, void *out, uint8_t *valid) {
  GCOL_DETAIL_GRID_LOOP(r, s.size) {
    gcol_string_ref const v = gcol_strings_view_get(s, r);
    int64_t t = 0;
    bool const ok = gcol_strings_view_is_valid(s, r) &&
                    gcol_detail_csv_parse_timestamp(v.data, v.size, unit, &t);
    if (unit == 0) {
      ((int32_t *)out)[r] = ok ? (int32_t)t : 0;
    } else {
      ((int64_t *)out)[r] = ok ? t : 0;
    }
    valid[r] = ok;
  }
}

/* Blocks of the row pass: a chunk each, up to 2^20 (then each takes several). */
unsigned int chunk_grid(int64_t num_chunks) {
  return (unsigned int)(num_chunks < ((int64_t)1 << 20) ? num_chunks : ((int64_t)1 << 20));
}

/* A temporary of `count` entries of `elem` bytes (at least one byte). */
gcol_status temp(int64_t count, size_t elem, gcol_stream stream, gcol_buffer **out) {
  return gcol_buffer_create((size_t)(count > 0 ? count : 1) * elem, stream, NULL, out);
}

/* Packs valid[0, n) into a mask for `col` (none when every row is valid). Synchronizes. */
gcol_status set_mask(const uint8_t *valid, int64_t n, gcol_column *col, gcol_stream stream,
                     gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  int64_t nulls = 0;
  if (n == 0) return GCOL_OK;
  GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_ALL_NULL, stream, mr, &mask));
  LAUNCH(pack_mask_kernel, gcol_bit_num_words(n))(valid, n, (uint32_t *)mask->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_bitmask_count_unset_bits((const uint32_t *)mask->data, 0, n, stream, &nulls));
  if (nulls > 0) {
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, nulls));
    mask = NULL;
  }
done:
  gcol_buffer_free(mask);
  return status;
}

/* The lists (null, true, false values) in one device buffer. */
gcol_status lists_to_device(const gcol_detail_csv_plan *p, gcol_stream stream, gcol_buffer **buf,
                            gcol_detail_csv_list *lists) {
  gcol_status status = GCOL_OK;
  size_t total = 0, at[3];
  for (int k = 0; k < 3; ++k) {
    at[k] = total;
    total += (size_t)(p->list_count[k] + 1) * sizeof(int64_t) +
             (size_t)(p->list_offsets[k][p->list_count[k]] + 7) / 8 * 8;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create(total, stream, NULL, buf));
  for (int k = 0; k < 3; ++k) {
    uint8_t *base = (uint8_t *)(*buf)->data + at[k];
    size_t const offsets_bytes = (size_t)(p->list_count[k] + 1) * sizeof(int64_t);
    int64_t const chars = p->list_offsets[k][p->list_count[k]];
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(base, p->list_offsets[k], offsets_bytes,
                                         cudaMemcpyHostToDevice, (cudaStream_t)stream));
    if (chars > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(base + offsets_bytes, p->list_chars[k], (size_t)chars,
                                           cudaMemcpyHostToDevice, (cudaStream_t)stream));
    }
    lists[k].offsets = (const int64_t *)base;
    lists[k].chars = (const char *)(base + offsets_bytes);
    lists[k].count = p->list_count[k];
  }
  /* the host lists may be freed once the copies are done */
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
done:
  return status;
}

/* The rows found on the device. */
typedef struct rows_found {
  gcol_buffer *bytes;  /* input [data_begin, bytes_end) */
  int64_t num_bytes;
  gcol_buffer *starts; /* row starts, relative to bytes */
  int64_t rows;
} rows_found;

/* Chunk pass, composition, the tail of a byte range, row starts. */
gcol_status find_rows(const gcol_detail_csv_plan *p, gcol_stream stream, rows_found *f) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_buffer *d_chunks = NULL, *d_pieces = NULL, *d_state = NULL, *d_first = NULL;
  gcol_buffer *grown = NULL;
  gcol_detail_csv_chunk *h_chunks = NULL;
  uint8_t *h_state = NULL;
  int64_t *h_first = NULL;
  int64_t const n = p->range_end - p->data_begin;
  int64_t const nc = (n + p->chunk - 1) / p->chunk;
  int state = GCOL_DETAIL_CSV_START;
  int64_t tail_end = p->range_end;
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(p->bytes + p->data_begin, (size_t)n, stream, NULL,
                                          &f->bytes));
  f->num_bytes = n;
  GCOL_DETAIL_TRY(temp(nc, sizeof(gcol_detail_csv_chunk), stream, &d_chunks));
  GCOL_DETAIL_TRY(temp(nc * CHUNK_THREADS, sizeof(gcol_detail_csv_piece), stream, &d_pieces));
  h_chunks = (gcol_detail_csv_chunk *)malloc((size_t)(nc > 0 ? nc : 1) * sizeof *h_chunks);
  h_state = (uint8_t *)malloc((size_t)(nc > 0 ? nc : 1));
  h_first = (int64_t *)malloc((size_t)(nc > 0 ? nc : 1) * sizeof *h_first);
  GCOL_DETAIL_CHECK(h_chunks && h_state && h_first, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  if (nc > 0) {
    chunk_smem_kernel<<<chunk_grid(nc), CHUNK_THREADS, 0, s>>>(
        p->dialect, (const uint8_t *)f->bytes->data, n, p->chunk, nc,
        (gcol_detail_csv_chunk *)d_chunks->data, (gcol_detail_csv_piece *)d_pieces->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(h_chunks, d_chunks->data, (size_t)nc * sizeof *h_chunks,
                                         cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  }
  f->rows = gcol_detail_csv_compose(h_chunks, nc, &state, h_state, h_first);
  /* a row begun in the range ends past it: walk to its end on the host (one row) */
  for (; tail_end < p->size && state != GCOL_DETAIL_CSV_START &&
         state != GCOL_DETAIL_CSV_COMMENT;
       ++tail_end) {
    bool b;
    state = gcol_detail_csv_step(p->dialect, state, p->bytes[tail_end], &b);
  }
  if (tail_end > p->range_end) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(tail_end - p->data_begin), stream, NULL, &grown));
    if (n > 0) {
      GCOL_DETAIL_CUDA_TRY(
          cudaMemcpyAsync(grown->data, f->bytes->data, (size_t)n, cudaMemcpyDeviceToDevice, s));
    }
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync((uint8_t *)grown->data + n, p->bytes + p->range_end,
                                         (size_t)(tail_end - p->range_end),
                                         cudaMemcpyHostToDevice, s));
    gcol_buffer_free(f->bytes);
    f->bytes = grown;
    grown = NULL;
    f->num_bytes = tail_end - p->data_begin;
  }
  GCOL_DETAIL_TRY(temp(f->rows, sizeof(int64_t), stream, &f->starts));
  if (f->rows > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create_copy(h_state, (size_t)nc, stream, NULL, &d_state));
    GCOL_DETAIL_TRY(
        gcol_buffer_create_copy(h_first, (size_t)nc * sizeof *h_first, stream, NULL, &d_first));
    row_start_smem_kernel<<<chunk_grid(nc), CHUNK_THREADS, 0, s>>>(
        p->dialect, (const uint8_t *)f->bytes->data, n, p->chunk, nc,
        (const gcol_detail_csv_piece *)d_pieces->data, (const uint8_t *)d_state->data,
        (const int64_t *)d_first->data, (int64_t *)f->starts->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  /* the host arrays are read by the copies above */
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
done:
  free(h_chunks);
  free(h_state);
  free(h_first);
  gcol_buffer_free(d_chunks);
  gcol_buffer_free(d_pieces);
  gcol_buffer_free(d_state);
  gcol_buffer_free(d_first);
  gcol_buffer_free(grown);
  return status;
}

/* The message of a bad row (error word `word`). */
gcol_status bad_row(const gcol_detail_csv_plan *p, const rows_found *f, unsigned long long word,
                    int32_t columns, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t const row = (int64_t)(word >> 1);
  int64_t start = 0;
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&start, (const int64_t *)f->starts->data + row,
                                       sizeof start, cudaMemcpyDeviceToHost,
                                       (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  {
    int64_t const at = p->data_begin + start;
    if (word & 1) {
      GCOL_DETAIL_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                       "row %lld (byte offset %lld): unterminated quote at the end of the input",
                       (long long)row, (long long)at);
    }
    int64_t content_end = 0;
    bool in_quotes = false;
    int64_t const fields = gcol_detail_csv_parse_row(p->dialect, p->bytes, at, p->size, NULL, 0, 0,
                                                     &content_end, &in_quotes);
    GCOL_DETAIL_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                     "row %lld (byte offset %lld) has %lld fields, expected %d", (long long)row,
                     (long long)at, (long long)fields, columns);
  }
done:
  return status;
}

/* Per row, every field's begin ([column][row]) and the row's end; fails on a bad row. */
gcol_status find_fields(const gcol_detail_csv_plan *p, const rows_found *f, int64_t rows,
                        gcol_stream stream, gcol_buffer **field_begin, gcol_buffer **row_end) {
  gcol_status status = GCOL_OK;
  gcol_buffer *d_error = NULL;
  unsigned long long h_error = ~0ull;
  int32_t const C = p->num_columns;
  GCOL_DETAIL_TRY(temp(rows * (C > 0 ? C : 1), sizeof(int64_t), stream, field_begin));
  GCOL_DETAIL_TRY(temp(rows, sizeof(int64_t), stream, row_end));
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(&h_error, sizeof h_error, stream, NULL, &d_error));
  if (rows > 0) {
    LAUNCH(field_kernel, rows)
    (p->dialect, (const uint8_t *)f->bytes->data, f->num_bytes, (const int64_t *)f->starts->data,
     rows, C, (int64_t *)(*field_begin)->data, (int64_t *)(*row_end)->data,
     (unsigned long long *)d_error->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&h_error, d_error->data, sizeof h_error,
                                       cudaMemcpyDeviceToHost, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  if (h_error != ~0ull) GCOL_DETAIL_TRY(bad_row(p, f, h_error, C, stream));
done:
  gcol_buffer_free(d_error);
  return status;
}

/* Column c's values as a STRING column (nulls where a value is a null value). */
gcol_status strings_column(const gcol_detail_csv_plan *p, const rows_found *f,
                           const int64_t *field_begin, const int64_t *row_end, int64_t rows,
                           int32_t c, gcol_detail_csv_list nulls, gcol_stream stream, gcol_mr *mr,
                           gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *sizes = NULL, *valid = NULL, *chars = NULL;
  gcol_column *offsets = NULL, *col = NULL;
  int64_t total = 0;
  const uint8_t *bytes = (const uint8_t *)f->bytes->data;
  int64_t *sz = NULL;
  GCOL_DETAIL_TRY(temp(rows + 1, sizeof(int64_t), stream, &sizes));
  GCOL_DETAIL_TRY(temp(rows, 1, stream, &valid));
  sz = (int64_t *)sizes->data;
  LAUNCH(value_size_kernel, rows + 1)
  (p->dialect, bytes, field_begin, row_end, rows, p->num_columns, c, nulls, sz,
   (uint8_t *)valid->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_offsets_from_sizes(sz, rows, &total, 1, stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  if (rows > 0 && total > 0) {
    LAUNCH(value_copy_kernel, rows)
    (p->dialect, bytes, field_begin, row_end, rows, p->num_columns, c,
     (const uint8_t *)valid->data, sz, (uint8_t *)chars->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_column_make_strings(rows, offsets, chars, NULL, 0, &col));
  offsets = NULL;
  chars = NULL;
  GCOL_DETAIL_TRY(set_mask((const uint8_t *)valid->data, rows, col, stream, mr));
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(sizes);
  gcol_buffer_free(valid);
  gcol_buffer_free(chars);
  gcol_column_free(offsets);
  gcol_column_free(col);
  return status;
}

/* Column c as `type` (integral or floating) parsed straight from its fields (number_kernel);
 * *out is NULL when a field's value is too long to unquote there (read it through strings). */
gcol_status number_column(const gcol_detail_csv_plan *p, const rows_found *f,
                          const int64_t *field_begin, const int64_t *row_end, int64_t rows,
                          int32_t c, gcol_detail_csv_list nulls, gcol_data_type type,
                          gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL, *flag = NULL;
  int too_long = 0;
  int64_t null_count = 0;
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_create(type, rows, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (rows > 0) {
    gcol_detail_result res;
    res.data = col->data->data;
    res.kind = gcol_detail_element_kind_of(type.id);
    res.width = (int32_t)gcol_type_size(type.id);
    GCOL_DETAIL_TRY(gcol_bitmask_create(rows, GCOL_MASK_UNINITIALIZED, stream, mr, &mask));
    GCOL_DETAIL_TRY(gcol_buffer_create_copy(&too_long, sizeof too_long, stream, NULL, &flag));
    LAUNCH(number_kernel, rows)
    (p->dialect, (const uint8_t *)f->bytes->data, field_begin, row_end, rows, p->num_columns, c,
     nulls, res, res.width * 8, gcol_type_is_unsigned_integral(type.id), (uint32_t *)mask->data,
     (int *)flag->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&too_long, flag->data, sizeof too_long,
                                         cudaMemcpyDeviceToHost, (cudaStream_t)stream));
    GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits((const uint32_t *)mask->data, 0, rows, stream,
                                                  &null_count)); /* synchronizes */
    if (too_long) goto done;
    if (null_count > 0) {
      GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
      mask = NULL;
    }
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_buffer_free(flag);
  gcol_column_free(col);
  return status;
}

/* BOOL8 or TIMESTAMP_* from a STRING column (a value that does not convert is null). */
gcol_status convert_special(gcol_column_view strings, gcol_data_type type,
                            const gcol_detail_csv_list *lists, gcol_stream stream, gcol_mr *mr,
                            gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *valid = NULL;
  gcol_strings_view s;
  int64_t const n = strings.size;
  GCOL_DETAIL_TRY(gcol_column_create(type, n, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (n > 0) {
    GCOL_DETAIL_TRY(gcol_strings_view_make(strings, &s));
    GCOL_DETAIL_TRY(temp(n, 1, stream, &valid));
    if (type.id == GCOL_BOOL8) {
      LAUNCH(bool_kernel, n)(s, lists[1], lists[2], (uint8_t *)col->data->data,
                             (uint8_t *)valid->data);
    } else {
      LAUNCH(timestamp_kernel, n)(s, (int)(type.id - GCOL_TIMESTAMP_DAYS),
                                  col->data->data, (uint8_t *)valid->data);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(set_mask((const uint8_t *)valid->data, n, col, stream, mr));
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(valid);
  gcol_column_free(col);
  return status;
}

gcol_status convert(gcol_column_view strings, gcol_data_type type,
                    const gcol_detail_csv_list *lists, gcol_stream stream, gcol_mr *mr,
                    gcol_column **out) {
  if (type.id == GCOL_BOOL8 ||
      (type.id >= GCOL_TIMESTAMP_DAYS && type.id <= GCOL_TIMESTAMP_NANOSECONDS)) {
    return convert_special(strings, type, lists, stream, mr, out);
  }
  return gcol_cast(strings, type, out, stream, mr);
}

/* The first of INT64, FLOAT64, BOOL8 that every non-null value converts to, else the strings
 * themselves (*out NULL: keep them). A column of nulls only stays STRING. */
gcol_status infer(gcol_column_view strings, const gcol_detail_csv_list *lists, gcol_stream stream,
                  gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  static const gcol_type_id order[3] = {GCOL_INT64, GCOL_FLOAT64, GCOL_BOOL8};
  *out = NULL;
  if (strings.null_count == strings.size) return GCOL_OK;
  for (int k = 0; k < 3; ++k) {
    gcol_column *col = NULL;
    GCOL_DETAIL_TRY(convert(strings, gcol_data_type_make(order[k]), lists, stream, mr, &col));
    if (col->null_count == strings.null_count) {
      *out = col;
      break;
    }
    gcol_column_free(col);
  }
done:
  return status;
}

}  // namespace

extern "C" gcol_status gcol_detail_csv_read_device(const gcol_detail_csv_plan *p,
                                                   gcol_stream stream, gcol_mr *mr,
                                                   gcol_table **out) {
  gcol_status status = GCOL_OK;
  rows_found f = {NULL, 0, NULL, 0};
  gcol_buffer *d_lists = NULL, *field_begin = NULL, *row_end = NULL;
  gcol_column **cols = NULL;
  gcol_column *strings = NULL;
  gcol_detail_csv_list lists[3];
  int32_t const C = p->num_columns;
  *out = NULL;
  cols = (gcol_column **)calloc((size_t)(C > 0 ? C : 1), sizeof *cols);
  GCOL_DETAIL_CHECK(cols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(lists_to_device(p, stream, &d_lists, lists));
  GCOL_DETAIL_TRY(find_rows(p, stream, &f));
  {
    int64_t const rows = p->max_rows >= 0 && p->max_rows < f.rows ? p->max_rows : f.rows;
    GCOL_DETAIL_CHECK(C > 0 || rows == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%lld rows but no column", (long long)rows);
    GCOL_DETAIL_TRY(find_fields(p, &f, rows, stream, &field_begin, &row_end));
    /* a quote still open at the end of the input leaves the last row in quotes: the field pass
     * reports it (unless max_rows left that row out) */
    for (int32_t c = 0; c < C; ++c) {
      gcol_type_id const id = p->types[c].id;
      if (gcol_type_is_integral(id) || gcol_type_is_floating(id)) {
        GCOL_DETAIL_TRY(number_column(p, &f, (const int64_t *)field_begin->data,
                                      (const int64_t *)row_end->data, rows, c, lists[0],
                                      p->types[c], stream, mr, &cols[c]));
        if (cols[c] != NULL) continue;
      }
      GCOL_DETAIL_TRY(strings_column(p, &f, (const int64_t *)field_begin->data,
                                     (const int64_t *)row_end->data, rows, c, lists[0], stream,
                                     mr, &strings));
      gcol_column_view const sv = gcol_column_get_view(strings);
      if (p->types[c].id == GCOL_EMPTY) {
        GCOL_DETAIL_TRY(infer(sv, lists, stream, mr, &cols[c]));
      } else if (p->types[c].id != GCOL_STRING) {
        GCOL_DETAIL_TRY(convert(sv, p->types[c], lists, stream, mr, &cols[c]));
      }
      if (cols[c] == NULL) {
        cols[c] = strings;
      } else {
        gcol_column_free(strings);
      }
      strings = NULL;
    }
  }
  GCOL_DETAIL_TRY(gcol_table_make(cols, C, out));
  for (int32_t c = 0; c < C; ++c) cols[c] = NULL;
done:
  if (cols != NULL) {
    for (int32_t c = 0; c < C; ++c) gcol_column_free(cols[c]);
    free(cols);
  }
  gcol_column_free(strings);
  gcol_buffer_free(d_lists);
  gcol_buffer_free(field_begin);
  gcol_buffer_free(row_end);
  gcol_buffer_free(f.bytes);
  gcol_buffer_free(f.starts);
  return status;
}
