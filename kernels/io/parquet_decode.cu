/*
 * Parquet pages decoded on the GPU (the plan comes from lib/io/parquet_read.c):
 *
 *   1. page passes, one thread per page (or dictionary page), each running the host-tested
 *      decoders of lib/internal/parquet.h: dictionary entries; definition levels into a
 *      valid byte and a value slot per row; then the values' own stream (dictionary indices,
 *      RLE booleans, byte-array positions) into per-row arrays. Levels are a pass apart from
 *      values. A page error is recorded in one word (the first wins) and reported by the host
 *      after one synchronization, naming the row group and page.
 *   2. row passes, one thread per row: fixed-width values written at the output width, or
 *      string lengths -> offsets (exclusive sum) -> chars; the null mask packed from the
 *      valid bytes.
 *
 * Serial decoding within a page is the simple first step: it is in bounds by construction
 * (the decoders never leave their page's byte range) and parallel across pages; a
 * block-per-page decoder of the RLE runs is the next step for speed.
 */
#include <cuda_runtime.h>

#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "gcol/bitmask.h"
#include "gcol/indexalator.h"
#include "internal/parquet.h"

namespace {

/* error word: code << 32 | is_dict << 31 | index */
__device__ void record_error(unsigned long long *error, int code, bool is_dict, int64_t index) {
  unsigned long long const word = ((unsigned long long)code << 32) |
                                  (is_dict ? (1ull << 31) : 0ull) |
                                  ((unsigned long long)index & 0x7fffffffull);
  atomicCAS(error, 0ull, word);
}

__global__ void dict_kernel(const uint8_t *bytes, const gcol_detail_pq_dict *dicts,
                            int32_t num_dicts, int32_t physical_type, int32_t type_length,
                            int64_t *dpos, int32_t *dlen, unsigned long long *error) {
  GCOL_DETAIL_GRID_LOOP(d, num_dicts) {
    gcol_detail_pq_dict const dict = dicts[d];
    int const code = gcol_detail_pq_decode_dict(bytes, dict, physical_type, type_length,
                                                dpos + dict.first_entry, dlen + dict.first_entry);
    if (code != GCOL_DETAIL_PQ_E_OK) record_error(error, code, true, d);
  }
}

__global__ void levels_kernel(const uint8_t *bytes, const gcol_detail_pq_page *pages,
                              int32_t num_pages, int32_t max_def, uint8_t *valid, int32_t *slot,
                              int64_t *num_valid, unsigned long long *error) {
  GCOL_DETAIL_GRID_LOOP(p, num_pages) {
    gcol_detail_pq_page const pg = pages[p];
    int64_t nvalid = 0;
    int const code = gcol_detail_pq_decode_levels(bytes, pg, max_def, valid + pg.first_row,
                                                  slot + pg.first_row, &nvalid);
    num_valid[p] = code == GCOL_DETAIL_PQ_E_OK ? nvalid : 0;
    if (code != GCOL_DETAIL_PQ_E_OK) record_error(error, code, false, p);
  }
}

__global__ void values_kernel(const uint8_t *bytes, const gcol_detail_pq_page *pages,
                              int32_t num_pages, const gcol_detail_pq_dict *dicts,
                              int32_t physical_type, int32_t type_length, const int64_t *num_valid,
                              int32_t *index, int64_t *pos, int32_t *len,
                              unsigned long long *error) {
  GCOL_DETAIL_GRID_LOOP(p, num_pages) {
    gcol_detail_pq_page const pg = pages[p];
    int64_t const dict_size = pg.dict >= 0 ? dicts[pg.dict].num_values : 0;
    int const code = gcol_detail_pq_decode_values(
        bytes, pg, physical_type, type_length, num_valid[p], dict_size, index + pg.first_row,
        pos == NULL ? NULL : pos + pg.first_row, len == NULL ? NULL : len + pg.first_row);
    if (code != GCOL_DETAIL_PQ_E_OK) record_error(error, code, false, p);
  }
}

/* The page holding `row`: the last page whose first row is <= row. */
__device__ int32_t page_of(const gcol_detail_pq_page *pages, int32_t num_pages, int64_t row) {
  int32_t lo = 0, hi = num_pages - 1;
  while (lo < hi) {
    int32_t const mid = lo + (hi - lo + 1) / 2;
    if (pages[mid].first_row <= row) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

__global__ void fixed_kernel(const uint8_t *bytes, const gcol_detail_pq_page *pages,
                             int32_t num_pages, const gcol_detail_pq_dict *dicts,
                             int32_t physical_type, int32_t type_length, const uint8_t *valid,
                             const int32_t *slot, const int32_t *index, const int64_t *delta,
                             const int64_t *num_valid, int64_t n, int out_width, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(row, n) {
    uint64_t v = 0, hi = 0;
    if (valid[row]) {
      int32_t const p = page_of(pages, num_pages, row);
      gcol_detail_pq_page const pg = pages[p];
      int64_t const k = slot[row];
      if (physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY) { /* decimals: PLAIN or dict */
        bool const plain = pg.encoding == GCOL_DETAIL_PQ_VALUES_PLAIN;
        gcol_detail_pq_flba_value(bytes, plain ? pg.values_begin : dicts[pg.dict].begin,
                                  plain ? k : index[pg.first_row + k], type_length, &v, &hi);
      } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_PLAIN) {
        v = gcol_detail_pq_plain_value(bytes, pg.values_begin, k, physical_type);
      } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_RLE_BOOL) {
        v = (uint64_t)index[pg.first_row + k];
      } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_SPLIT) {
        v = gcol_detail_pq_split_value(bytes, pg.values_begin, k, num_valid[p], physical_type);
      } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_DELTA) {
        v = (uint64_t)delta[pg.first_row + k]; /* the output width keeps the low bytes */
      } else {
        v = gcol_detail_pq_plain_value(bytes, dicts[pg.dict].begin, index[pg.first_row + k],
                                       physical_type);
      }
    }
    uint8_t *dst = out + row * out_width;
    for (int b = 0; b < out_width; ++b) dst[b] = (uint8_t)((b < 8 ? v : hi) >> (8 * (b % 8)));
  }
}

/* Byte range of row's string (0 length for nulls). */
__device__ void string_of(const gcol_detail_pq_page *pages, int32_t num_pages,
                          const gcol_detail_pq_dict *dicts, const uint8_t *valid,
                          const int32_t *slot, const int32_t *index, const int64_t *pos,
                          const int32_t *len, const int64_t *dpos, const int32_t *dlen, int64_t row,
                          int64_t *begin, int64_t *size) {
  *begin = 0;
  *size = 0;
  if (!valid[row]) return;
  gcol_detail_pq_page const pg = pages[page_of(pages, num_pages, row)];
  int64_t const k = pg.first_row + slot[row];
  if (pg.encoding != GCOL_DETAIL_PQ_VALUES_DICT) { /* PLAIN, DELTA_LENGTH_BYTE_ARRAY */
    *begin = pos[k];
    *size = len[k];
  } else {
    int64_t const e = dicts[pg.dict].first_entry + index[k];
    *begin = dpos[e];
    *size = dlen[e];
  }
}

__global__ void string_sizes_kernel(const gcol_detail_pq_page *pages, int32_t num_pages,
                                    const gcol_detail_pq_dict *dicts, const uint8_t *valid,
                                    const int32_t *slot, const int32_t *index, const int64_t *pos,
                                    const int32_t *len, const int64_t *dpos, const int32_t *dlen,
                                    int64_t n, int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(row, n) {
    int64_t begin, size;
    string_of(pages, num_pages, dicts, valid, slot, index, pos, len, dpos, dlen, row, &begin,
              &size);
    sizes[row] = size;
  }
}

__global__ void string_chars_kernel(const uint8_t *bytes, const gcol_detail_pq_page *pages,
                                    int32_t num_pages, const gcol_detail_pq_dict *dicts,
                                    const uint8_t *valid, const int32_t *slot, const int32_t *index,
                                    const int64_t *pos, const int32_t *len, const int64_t *dpos,
                                    const int32_t *dlen, int64_t n, const int64_t *offsets,
                                    uint8_t *chars) {
  GCOL_DETAIL_GRID_LOOP(row, n) {
    int64_t begin, size;
    string_of(pages, num_pages, dicts, valid, slot, index, pos, len, dpos, dlen, row, &begin,
              &size);
    uint8_t *dst = chars + offsets[row];
    for (int64_t b = 0; b < size; ++b) dst[b] = bytes[begin + b];
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

#define LAUNCH(kernel, count)                                                                 \
  kernel<<<gcol_detail_grid_size((count), GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0, \
           (cudaStream_t)stream>>>

/* A temporary of `count` entries of `elem` bytes (at least one byte). */
gcol_status temp(int64_t count, size_t elem, gcol_stream stream, gcol_buffer **out) {
  return gcol_buffer_create((size_t)(count > 0 ? count : 1) * elem, stream, NULL, out);
}

}  // namespace

extern "C" gcol_status gcol_detail_parquet_decode_column(const gcol_detail_pq_column_plan *plan,
                                                         const char *file_name, gcol_stream stream,
                                                         gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *d_bytes = NULL, *d_pages = NULL, *d_dicts = NULL, *d_valid = NULL, *d_slot = NULL,
              *d_index = NULL, *d_pos = NULL, *d_len = NULL, *d_dpos = NULL, *d_dlen = NULL,
              *d_nvalid = NULL, *d_error = NULL, *d_sizes = NULL, *mask = NULL, *chars = NULL;
  gcol_column *col = NULL, *offsets = NULL;
  int64_t *h_nvalid = NULL;
  int64_t const n = plan->num_rows;
  int32_t const P = plan->num_pages;
  bool const is_string = plan->type.id == GCOL_STRING;
  cudaStream_t const s = (cudaStream_t)stream;
  unsigned long long h_error = 0;
  int64_t valid_rows = 0;
  *out = NULL;

  GCOL_DETAIL_TRY(
      gcol_buffer_create_copy(plan->bytes, (size_t)plan->num_bytes, stream, NULL, &d_bytes));
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(plan->pages, (size_t)P * sizeof(gcol_detail_pq_page),
                                          stream, NULL, &d_pages));
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(
      plan->dicts, (size_t)plan->num_dicts * sizeof(gcol_detail_pq_dict), stream, NULL, &d_dicts));
  GCOL_DETAIL_TRY(temp(n, 1, stream, &d_valid));
  GCOL_DETAIL_TRY(temp(n, sizeof(int32_t), stream, &d_slot));
  GCOL_DETAIL_TRY(temp(n, sizeof(int32_t), stream, &d_index));
  GCOL_DETAIL_TRY(temp(P, sizeof(int64_t), stream, &d_nvalid));
  GCOL_DETAIL_TRY(temp(1, sizeof(unsigned long long), stream, &d_error));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_error->data, 0, sizeof(unsigned long long), s));
  /* every row belongs to one page (the planner counts them), so the page passes write every
   * row's valid byte and slot; zeroing keeps initcheck quiet where a failed page stopped */
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_valid->data, 0, d_valid->size, s));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_slot->data, 0, d_slot->size, s));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_index->data, 0, d_index->size, s));
  if (is_string || plan->has_delta) {
    GCOL_DETAIL_TRY(temp(n, sizeof(int64_t), stream, &d_pos));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_pos->data, 0, d_pos->size, s));
  }
  if (is_string) {
    GCOL_DETAIL_TRY(temp(n, sizeof(int32_t), stream, &d_len));
    GCOL_DETAIL_TRY(temp(plan->num_dict_entries, sizeof(int64_t), stream, &d_dpos));
    GCOL_DETAIL_TRY(temp(plan->num_dict_entries, sizeof(int32_t), stream, &d_dlen));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_len->data, 0, d_len->size, s));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_dpos->data, 0, d_dpos->size, s));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_dlen->data, 0, d_dlen->size, s));
  }
  {
    const uint8_t *bytes = (const uint8_t *)d_bytes->data;
    const gcol_detail_pq_page *pages = (const gcol_detail_pq_page *)d_pages->data;
    const gcol_detail_pq_dict *dicts = (const gcol_detail_pq_dict *)d_dicts->data;
    int64_t *dpos = is_string ? (int64_t *)d_dpos->data : NULL;
    int32_t *dlen = is_string ? (int32_t *)d_dlen->data : NULL;
    int64_t *pos = d_pos != NULL ? (int64_t *)d_pos->data : NULL;
    int32_t *len = is_string ? (int32_t *)d_len->data : NULL;
    unsigned long long *err = (unsigned long long *)d_error->data;
    if (plan->num_dicts > 0) {
      LAUNCH(dict_kernel, plan->num_dicts)
      (bytes, dicts, plan->num_dicts, plan->physical_type, plan->type_length, dpos, dlen, err);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
    if (P > 0) {
      LAUNCH(levels_kernel, P)
      (bytes, pages, P, plan->max_def, (uint8_t *)d_valid->data, (int32_t *)d_slot->data,
       (int64_t *)d_nvalid->data, err);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      LAUNCH(values_kernel, P)
      (bytes, pages, P, dicts, plan->physical_type, plan->type_length,
       (const int64_t *)d_nvalid->data, (int32_t *)d_index->data, pos, len, err);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
    /* the page errors and valid counts, before any row pass trusts them */
    h_nvalid = (int64_t *)malloc((size_t)(P > 0 ? P : 1) * sizeof *h_nvalid);
    GCOL_DETAIL_CHECK(h_nvalid != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&h_error, err, sizeof h_error, cudaMemcpyDeviceToHost, s));
    if (P > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(h_nvalid, d_nvalid->data, (size_t)P * sizeof *h_nvalid,
                                           cudaMemcpyDeviceToHost, s));
    }
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    if (h_error != 0) {
      int const code = (int)(h_error >> 32);
      bool const is_dict = (h_error >> 31) & 1;
      int32_t const index = (int32_t)(h_error & 0x7fffffff);
      const gcol_detail_pq_where w = is_dict ? plan->dict_where[index] : plan->page_where[index];
      GCOL_DETAIL_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "%s: row group %d, column '%s', page %d: %s",
                       file_name, w.row_group, plan->name, w.page,
                       gcol_detail_parquet_page_error(code));
    }
    for (int32_t p = 0; p < P; ++p) valid_rows += h_nvalid[p];

    const uint8_t *valid = (const uint8_t *)d_valid->data;
    const int32_t *slot = (const int32_t *)d_slot->data;
    const int32_t *index = (const int32_t *)d_index->data;
    if (!is_string) {
      int const width = (int)gcol_type_size(plan->type.id);
      GCOL_DETAIL_TRY(gcol_column_create(plan->type, n, GCOL_MASK_UNALLOCATED, stream, mr, &col));
      if (n > 0) {
        LAUNCH(fixed_kernel, n)
        (bytes, pages, P, dicts, plan->physical_type, plan->type_length, valid, slot, index, pos,
         (const int64_t *)d_nvalid->data, n, width, (uint8_t *)col->data->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
    } else {
      GCOL_DETAIL_TRY(temp(n + 1, sizeof(int64_t), stream, &d_sizes));
      GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_sizes->data, 0, (size_t)(n + 1) * sizeof(int64_t), s));
      int64_t *sizes = (int64_t *)d_sizes->data;
      if (n > 0) {
        LAUNCH(string_sizes_kernel, n)
        (pages, P, dicts, valid, slot, index, pos, len, dpos, dlen, n, sizes);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
      GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(sizes, sizes, n + 1, stream));
      int64_t total = 0;
      GCOL_DETAIL_CUDA_TRY(
          cudaMemcpyAsync(&total, sizes + n, sizeof total, cudaMemcpyDeviceToHost, s));
      GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
      GCOL_DETAIL_TRY(gcol_detail_offsets_column(sizes, n + 1, gcol_detail_offsets_type(total),
                                                 stream, mr, &offsets));
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
      if (n > 0 && total > 0) {
        LAUNCH(string_chars_kernel, n)
        (bytes, pages, P, dicts, valid, slot, index, pos, len, dpos, dlen, n, sizes,
         (uint8_t *)chars->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
      GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, NULL, 0, &col));
      offsets = NULL;
      chars = NULL;
    }
    if (plan->max_def > 0) {
      GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_ALL_NULL, stream, mr, &mask));
      if (n > 0) {
        LAUNCH(pack_mask_kernel, gcol_bit_num_words(n))(valid, n, (uint32_t *)mask->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
      GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, n - valid_rows));
      mask = NULL;
    }
  }
  *out = col;
  col = NULL;
done:
  free(h_nvalid);
  gcol_column_free(col);
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_buffer_free(d_bytes);
  gcol_buffer_free(d_pages);
  gcol_buffer_free(d_dicts);
  gcol_buffer_free(d_valid);
  gcol_buffer_free(d_slot);
  gcol_buffer_free(d_index);
  gcol_buffer_free(d_pos);
  gcol_buffer_free(d_len);
  gcol_buffer_free(d_dpos);
  gcol_buffer_free(d_dlen);
  gcol_buffer_free(d_nvalid);
  gcol_buffer_free(d_error);
  gcol_buffer_free(d_sizes);
  return status;
}
