/*
 * CSV writer, device part (lib/io/csv_write.c prepares the columns): a thread per row counts
 * its bytes (numbers formatted in place with gcol_cast's functions, kernels/detail/
 * string_convert.h), the shared int64 exclusive sum places the rows, the same thread writes
 * its row into its block's shared tile, copied out coalesced, and the text goes to the host
 * after the header through pinned staging buffers.
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.cuh"
#include "detail/scan.h"
#include "detail/string_convert.h"
#include "gcol/bits.h"
#include "internal/csv.h"

namespace {

/* Fixed texts of a row: null, true, false values and the terminator. */
typedef struct texts {
  const char *text[4];
  int64_t size[4];
} texts;

/* Row r's number in column w as gcol_cast to STRING writes it, into buf
 * (GCOL_DETAIL_FLOAT_TEXT_MAX bytes); returns its length. */
__device__ int number_text(const gcol_detail_csv_wcol &w, int64_t r, char *buf) {
  if (w.kind == 4) {
    double const x = w.width == 4 ? (double)((const float *)w.data)[r] : ((const double *)w.data)[r];
    return gcol_detail_format_double(x, w.width == 4 ? 9 : 17, buf);
  }
  uint64_t bits;
  switch (w.width) {
    case 1: bits = w.is_unsigned ? (uint64_t)((const uint8_t *)w.data)[r]
                                 : (uint64_t)(int64_t)((const int8_t *)w.data)[r]; break;
    case 2: bits = w.is_unsigned ? (uint64_t)((const uint16_t *)w.data)[r]
                                 : (uint64_t)(int64_t)((const int16_t *)w.data)[r]; break;
    case 4: bits = w.is_unsigned ? (uint64_t)((const uint32_t *)w.data)[r]
                                 : (uint64_t)(int64_t)((const int32_t *)w.data)[r]; break;
    default: bits = ((const uint64_t *)w.data)[r]; break;
  }
  gcol_detail_format_int(bits, w.is_unsigned, buf);
  return gcol_detail_format_int_size(bits, w.is_unsigned);
}

__device__ int64_t put_raw(const char *s, int64_t len, char *out) {
  if (out != NULL) {
    for (int64_t i = 0; i < len; ++i) out[i] = s[i];
  }
  return len;
}

/* Row r's text (out NULL: only its size). */
__device__ int64_t put_row(const gcol_detail_csv_wcol *cols, int32_t columns, int64_t r,
                           gcol_detail_csv_dialect d, texts t, char *out) {
  int64_t n = 0;
  for (int32_t c = 0; c < columns; ++c) {
    gcol_detail_csv_wcol const w = cols[c];
    char *at = out != NULL ? out + n : NULL;
    if (c > 0) {
      if (at != NULL) *at++ = (char)d.delimiter;
      ++n;
    }
    bool const valid = w.kind == 0 ? gcol_strings_view_is_valid(w.s, r)
                                   : gcol_bit_is_set_or_null_mask(w.mask, w.mask_offset + r);
    if (!valid) {
      n += put_raw(t.text[0], t.size[0], at);
    } else if (w.kind == 0) {
      gcol_string_ref const v = gcol_strings_view_get(w.s, r);
      n += gcol_detail_csv_put_field(d, v.data, v.size, at);
    } else if (w.kind >= 3) {
      char buf[GCOL_DETAIL_FLOAT_TEXT_MAX];
      int const len = number_text(w, r, buf);
      n += gcol_detail_csv_put_field(d, buf, len, at); /* quoted if the delimiter is '.', say */
    } else if (w.kind == 1) {
      int const k = ((const uint8_t *)w.data)[r] != 0 ? 1 : 2;
      n += gcol_detail_csv_put_field(d, t.text[k], t.size[k], at);
    } else {
      int64_t const ticks =
          w.unit == 0 ? ((const int32_t *)w.data)[r] : ((const int64_t *)w.data)[r];
      n += gcol_detail_csv_format_timestamp(ticks, w.unit, at);
    }
  }
  return n + put_raw(t.text[3], t.size[3], out != NULL ? out + n : NULL);
}

__global__ void row_size_kernel(const gcol_detail_csv_wcol *cols, int32_t columns, int64_t rows,
                                gcol_detail_csv_dialect d, texts t, int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(r, rows + 1) {
    sizes[r] = r < rows ? put_row(cols, columns, r, d, t, NULL) : 0;
  }
}

/* Shared bytes of a block's rows: 256 rows of up to 128 bytes on average. */
#define TILE_BYTES 32768

/* A block's rows are contiguous in the text: they are written to shared memory, then copied
 * out with consecutive threads on consecutive bytes (a thread writing its own row straight to
 * global memory touches 32 sectors per warp store). Rows too long for the tile go straight. */
__global__ void row_write_smem_kernel(const gcol_detail_csv_wcol *cols, int32_t columns,
                                      int64_t rows, gcol_detail_csv_dialect d, texts t,
                                      const int64_t *offsets, char *chars) {
  __shared__ char tile[TILE_BYTES];
  int64_t const stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t r0 = (int64_t)blockIdx.x * blockDim.x; r0 < rows; r0 += stride) {
    int64_t const r1 = r0 + blockDim.x < rows ? r0 + blockDim.x : rows;
    int64_t const begin = offsets[r0], bytes = offsets[r1] - begin;
    int64_t const r = r0 + threadIdx.x;
    bool const staged = bytes <= TILE_BYTES; /* the same for the whole block */
    if (r < r1) {
      put_row(cols, columns, r, d, t, staged ? tile + (offsets[r] - begin) : chars + offsets[r]);
    }
    if (staged) {
      __syncthreads();
      for (int64_t k = threadIdx.x; k < bytes; k += blockDim.x) chars[begin + k] = tile[k];
      __syncthreads(); /* the next rows reuse the tile */
    }
  }
}

/* Host memory for the text, freed with free() (gcol_csv_buffer_free): large texts start on a
 * 2 MiB boundary and ask for huge pages, so that the first touch of every page (the copy out,
 * the real cost of a fresh pageable buffer) faults 512 times less often. */
char *host_text(int64_t size) {
  size_t const huge = (size_t)2 << 20;
  if (size < (int64_t)(8 * huge)) return (char *)malloc((size_t)(size > 0 ? size : 1));
  size_t const rounded = ((size_t)size + huge - 1) / huge * huge;
  char *p = (char *)aligned_alloc(huge, rounded);
#ifdef MADV_HUGEPAGE
  if (p != NULL) (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice only: may be refused */
#endif
  return p;
}

/* Bytes of each of the two pinned staging buffers of copy_out(). */
#define STAGE_BYTES ((int64_t)4 << 20)

/* dst[0, n) = the device bytes src[0, n), synchronously. Above a few stages the copy goes
 * through two pinned buffers in turn, so that the DMA of one chunk (at full link speed) runs
 * while the host copies the chunk before into dst: the time is about the host copy alone. */
gcol_status copy_out(const char *src, int64_t n, char *dst, cudaStream_t s) {
  gcol_status status = GCOL_OK;
  char *stage = NULL;
  cudaEvent_t ready[2] = {NULL, NULL};
  int64_t const chunks = (n + STAGE_BYTES - 1) / STAGE_BYTES;
  if (chunks >= 4 && cudaMallocHost((void **)&stage, (size_t)(2 * STAGE_BYTES)) != cudaSuccess) {
    stage = NULL;
    (void)cudaGetLastError(); /* no pinned memory: the plain copy */
  }
  if (stage == NULL) {
    if (n > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(dst, src, (size_t)n, cudaMemcpyDeviceToHost, s));
    }
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    goto done;
  }
  for (int k = 0; k < 2; ++k) {
    GCOL_DETAIL_CUDA_TRY(cudaEventCreateWithFlags(&ready[k], cudaEventDisableTiming));
  }
  for (int64_t c = 0; c <= chunks; ++c) {
    if (c < chunks) { /* its buffer's last chunk (c - 2) was copied out in step c - 1 */
      int64_t const at = c * STAGE_BYTES, size = n - at < STAGE_BYTES ? n - at : STAGE_BYTES;
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(stage + (c % 2) * STAGE_BYTES, src + at, (size_t)size,
                                           cudaMemcpyDeviceToHost, s));
      GCOL_DETAIL_CUDA_TRY(cudaEventRecord(ready[c % 2], s));
    }
    if (c > 0) {
      int64_t const at = (c - 1) * STAGE_BYTES, size = n - at < STAGE_BYTES ? n - at : STAGE_BYTES;
      GCOL_DETAIL_CUDA_TRY(cudaEventSynchronize(ready[(c - 1) % 2]));
      memcpy(dst + at, stage + ((c - 1) % 2) * STAGE_BYTES, (size_t)size);
    }
  }
done:
  for (int k = 0; k < 2; ++k) {
    if (ready[k] != NULL) cudaEventDestroy(ready[k]);
  }
  if (stage != NULL) {
    /* after an error a copy may still be writing into it */
    if (status != GCOL_OK) cudaStreamSynchronize(s);
    cudaFreeHost(stage);
  }
  return status;
}

#define LAUNCH(kernel, count)                                                                 \
  kernel<<<gcol_detail_grid_size((count), GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0, \
           (cudaStream_t)stream>>>

}  // namespace

extern "C" gcol_status gcol_detail_csv_write_rows(
    const gcol_detail_csv_wcol *columns, int32_t num_columns, int64_t num_rows,
    gcol_detail_csv_dialect dialect, const char *null_value, const char *true_value,
    const char *false_value, const char *terminator, const char *header, int64_t header_size,
    gcol_stream stream, char **out, int64_t *out_size) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_buffer *d_cols = NULL, *d_texts = NULL, *d_sizes = NULL, *d_chars = NULL;
  char *text = NULL;
  int64_t total = 0;
  const char *host_texts[4] = {null_value, true_value, false_value, terminator};
  texts t;
  size_t all = 0;
  *out = NULL;
  *out_size = 0;
  for (int k = 0; k < 4; ++k) all += strlen(host_texts[k]);
  GCOL_DETAIL_TRY(gcol_buffer_create(all > 0 ? all : 1, stream, NULL, &d_texts));
  all = 0;
  for (int k = 0; k < 4; ++k) {
    size_t const n = strlen(host_texts[k]);
    t.text[k] = (const char *)d_texts->data + all;
    t.size[k] = (int64_t)n;
    if (n > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync((char *)d_texts->data + all, host_texts[k], n,
                                           cudaMemcpyHostToDevice, s));
    }
    all += n;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(
      columns, (size_t)(num_columns > 0 ? num_columns : 0) * sizeof *columns, stream, NULL,
      &d_cols));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(num_rows + 1) * sizeof(int64_t), stream, NULL,
                                     &d_sizes));
  {
    const gcol_detail_csv_wcol *cols = (const gcol_detail_csv_wcol *)d_cols->data;
    int64_t *sizes = (int64_t *)d_sizes->data;
    LAUNCH(row_size_kernel, num_rows + 1)(cols, num_columns, num_rows, dialect, t, sizes);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_sizes_scan(sizes, sizes, num_rows, &total, 1, stream));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(total > 0 ? total : 1), stream, NULL, &d_chars));
    if (num_rows > 0) {
      LAUNCH(row_write_smem_kernel, num_rows)
      (cols, num_columns, num_rows, dialect, t, sizes, (char *)d_chars->data);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
  }
  text = host_text(header_size + total);
  GCOL_DETAIL_CHECK(text != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory (%lld bytes of text)",
                    (long long)(header_size + total));
  if (header_size > 0) memcpy(text, header, (size_t)header_size);
  GCOL_DETAIL_TRY(copy_out((const char *)d_chars->data, total, text + header_size, s));
  *out = text;
  *out_size = header_size + total;
  text = NULL;
done:
  free(text);
  gcol_buffer_free(d_cols);
  gcol_buffer_free(d_texts);
  gcol_buffer_free(d_sizes);
  gcol_buffer_free(d_chars);
  return status;
}
