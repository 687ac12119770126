/*
 * Internal gather of fixed-width and STRING columns from several sources with a source id
 * per row (merge). One-source gathers (sort_by_key, top_k) use the one gather engine of
 * every layout (kernels/detail/gather.h); the engine does not take several sources yet.
 */
#include <string.h>

#include "common.cuh"
#include "detail/gather.h"
#include "gcol/bitmask.h"
#include "gcol/search.h"
#include "gcol/string_view.h"
#include "sort/sort_internal.h"

/* The sources of one gather (bounded: merge takes at most GCOL_MAX_MERGE_TABLES tables). */
typedef struct gather_sources {
  int32_t count;
  int32_t width;     /* bytes per fixed-width value */
  int32_t row_bytes; /* 4 or 8: the row map's element width */
  struct {
    const char *data;          /* element 0 (offset applied); STRING: chars */
    const uint32_t *null_mask; /* NULL: all valid */
    int64_t mask_offset;
    gcol_offsetalator offsets; /* STRING */
  } source[GCOL_MAX_MERGE_TABLES];
} gather_sources;

static __device__ __forceinline__ int64_t map_row(const void *rows, int32_t bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const uint32_t *)rows)[i] : (int64_t)((const uint64_t *)rows)[i];
}

static __device__ __forceinline__ int32_t map_source(const uint8_t *ids, int64_t i) {
  return ids == NULL ? 0 : (int32_t)ids[i];
}

template <int W>
struct gcol_detail_bytes {
  unsigned char b[W];
};

template <int W>
static __global__ void gather_fixed_kernel(gather_sources src, const uint8_t *ids, const void *rows,
                                           char *out, int64_t n) {
  typedef gcol_detail_bytes<W> value_t;
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int32_t const s = map_source(ids, i);
    int64_t const r = map_row(rows, src.row_bytes, i);
    ((value_t *)out)[i] = ((const value_t *)src.source[s].data)[r];
  }
}

/* One thread per output mask word: 32 gathered validity bits, no atomics. */
static __global__ void gather_mask_kernel(gather_sources src, const uint8_t *ids, const void *rows,
                                          uint32_t *out, int64_t n) {
  int64_t const words = gcol_bit_num_words(n);
  GCOL_DETAIL_GRID_LOOP(w, words) {
    uint32_t word = 0;
    for (int b = 0; b < 32; ++b) {
      int64_t const i = w * 32 + b;
      if (i >= n) break;
      int32_t const s = map_source(ids, i);
      int64_t const r = map_row(rows, src.row_bytes, i);
      if (gcol_bit_is_set_or_null_mask(src.source[s].null_mask, src.source[s].mask_offset + r)) {
        word |= 1u << b;
      }
    }
    out[w] = word;
  }
}

/* sizes[i + 1] = bytes of gathered string i; sizes[0] = 0 (an inclusive scan then gives
 * the offsets). */
static __global__ void gather_string_sizes_kernel(gather_sources src, const uint8_t *ids,
                                                  const void *rows, int64_t *sizes, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n + 1) {
    if (i == 0) {
      sizes[0] = 0;
    } else {
      int32_t const s = map_source(ids, i - 1);
      int64_t const r = map_row(rows, src.row_bytes, i - 1);
      sizes[i] = gcol_offsetalator_get(src.source[s].offsets, r + 1) -
                 gcol_offsetalator_get(src.source[s].offsets, r);
    }
  }
}

static __global__ void write_offsets_kernel(const int64_t *offsets, gcol_offsets_writer out,
                                            int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n + 1) { gcol_offsets_writer_set(out, i, offsets[i]); }
}

/* One warp per string: lanes copy its bytes with a stride of 32. */
static __global__ void gather_chars_kernel(gather_sources src, const uint8_t *ids, const void *rows,
                                           const int64_t *offsets, char *chars, int64_t n) {
  int64_t const warp = gcol_detail_thread_index() / 32;
  int64_t const warps = gcol_detail_grid_stride() / 32;
  int const lane = (int)(threadIdx.x % 32);
  for (int64_t i = warp; i < n; i += warps) {
    int32_t const s = map_source(ids, i);
    int64_t const r = map_row(rows, src.row_bytes, i);
    int64_t const begin = gcol_offsetalator_get(src.source[s].offsets, r);
    int64_t const size = offsets[i + 1] - offsets[i];
    for (int64_t b = lane; b < size; b += 32) chars[offsets[i] + b] = src.source[s].data[begin + b];
  }
}

static gcol_status make_sources(const gcol_column_view *views, int32_t count, int32_t row_bytes,
                                gather_sources *src) {
  gcol_status status = GCOL_OK;
  memset(src, 0, sizeof *src);
  src->count = count;
  src->row_bytes = row_bytes;
  src->width = (int32_t)gcol_type_size(views[0].type.id);
  for (int32_t s = 0; s < count; ++s) {
    gcol_column_view const v = views[s];
    GCOL_DETAIL_CHECK(gcol_data_type_equal(v.type, views[0].type), GCOL_ERROR_TYPE_MISMATCH,
                      "gather source %d has type %s, source 0 %s", (int)s,
                      gcol_type_name(v.type.id), gcol_type_name(views[0].type.id));
    src->source[s].null_mask = v.null_count == 0 ? NULL : v.null_mask;
    src->source[s].mask_offset = v.offset;
    src->source[s].offsets.width = 4;
    if (v.type.id == GCOL_STRING) {
      src->source[s].data = (const char *)v.data;
      if (v.size > 0) GCOL_DETAIL_TRY(gcol_offsetalator_make(v, &src->source[s].offsets));
    } else {
      src->source[s].data =
          v.data == NULL ? NULL : (const char *)v.data + v.offset * (int64_t)src->width;
    }
  }
done:
  return status;
}

static gcol_status launch_fixed(const gather_sources *src, const uint8_t *ids, const void *rows,
                                void *out, int64_t n, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  cudaStream_t const s = (cudaStream_t)stream;
  char *const o = (char *)out;
  switch (src->width) {
    case 1:
      gather_fixed_kernel<1><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(*src, ids, rows, o, n);
      break;
    case 2:
      gather_fixed_kernel<2><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(*src, ids, rows, o, n);
      break;
    case 4:
      gather_fixed_kernel<4><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(*src, ids, rows, o, n);
      break;
    case 8:
      gather_fixed_kernel<8><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(*src, ids, rows, o, n);
      break;
    default:
      gather_fixed_kernel<16><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(*src, ids, rows, o, n);
      break;
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* The gathered strings: sizes, scanned offsets, then the chars. Synchronizes for the size. */
static gcol_status gather_strings(const gather_sources *src, const uint8_t *ids, const void *rows,
                                  int64_t n, gcol_buffer *mask, int64_t null_count,
                                  gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *scan = NULL, *chars = NULL;
  gcol_column *offsets = NULL;
  int64_t total = 0;
  int64_t *off = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  unsigned int const grid = gcol_detail_grid_size(n + 1, GCOL_DETAIL_BLOCK_SIZE);
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int64_t) * (size_t)(n + 1), stream, NULL, &scan));
  off = (int64_t *)scan->data;
  gather_string_sizes_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(*src, ids, rows, off, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_inclusive_sum_i64(off, off, n + 1, stream));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&total, off + n, sizeof total, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  {
    gcol_type_id const otype =
        gcol_offsets_type_for_threshold(total, gcol_large_offsets_threshold());
    gcol_offsets_writer w;
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(otype), n + 1, GCOL_MASK_UNALLOCATED,
                                       stream, mr, &offsets));
    w.data = offsets->data->data;
    w.width = (int32_t)gcol_type_size(otype);
    write_offsets_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(off, w, n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  if (total > 0) {
    gather_chars_kernel<<<gcol_detail_grid_size(n * 32, GCOL_DETAIL_BLOCK_SIZE),
                          GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(*src, ids, rows, off, (char *)chars->data,
                                                          n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, mask, null_count, out));
  offsets = NULL;
  chars = NULL;
done:
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  gcol_buffer_free(scan);
  return status;
}

/* The gathered null mask (NULL when no source has one) and its null count. */
static gcol_status gather_mask(const gather_sources *src, const uint8_t *ids, const void *rows,
                               int64_t n, int64_t null_count_hint, gcol_stream stream, gcol_mr *mr,
                               gcol_buffer **mask, int64_t *null_count) {
  gcol_status status = GCOL_OK;
  bool any = false;
  for (int32_t s = 0; s < src->count; ++s) any = any || src->source[s].null_mask != NULL;
  *null_count = 0;
  if (!any || n == 0) goto done;
  GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_UNINITIALIZED, stream, mr, mask));
  gather_mask_kernel<<<gcol_detail_grid_size(gcol_bit_num_words(n), GCOL_DETAIL_BLOCK_SIZE),
                       GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      *src, ids, rows, (uint32_t *)(*mask)->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  if (null_count_hint >= 0) {
    *null_count = null_count_hint;
  } else {
    GCOL_DETAIL_TRY(
        gcol_bitmask_count_unset_bits((const uint32_t *)(*mask)->data, 0, n, stream, null_count));
  }
done:
  return status;
}

extern "C" gcol_status gcol_detail_sort_gather(const gcol_column_view *sources, int32_t num_sources,
                                               const uint8_t *source_ids, const void *rows,
                                               int32_t row_bytes, int64_t n,
                                               int64_t null_count_hint, gcol_stream stream,
                                               gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gather_sources src;
  gcol_buffer *mask = NULL;
  gcol_column *result = NULL;
  int64_t null_count = 0;
  gcol_data_type const type = sources[0].type;
  *out = NULL;
  GCOL_DETAIL_CHECK(num_sources >= 1 && num_sources <= GCOL_MAX_MERGE_TABLES, GCOL_ERROR_INTERNAL,
                    "gather of %d sources", (int)num_sources);
  GCOL_DETAIL_CHECK(gcol_type_is_fixed_width(type.id) || type.id == GCOL_STRING,
                    GCOL_ERROR_UNSUPPORTED, "cannot gather a column of type %s",
                    gcol_type_name(type.id));
  GCOL_DETAIL_TRY(make_sources(sources, num_sources, row_bytes, &src));
  GCOL_DETAIL_TRY(
      gather_mask(&src, source_ids, rows, n, null_count_hint, stream, mr, &mask, &null_count));
  if (type.id == GCOL_STRING) {
    GCOL_DETAIL_TRY(
        gather_strings(&src, source_ids, rows, n, mask, null_count, stream, mr, &result));
    mask = NULL; /* owned by result */
  } else {
    GCOL_DETAIL_TRY(gcol_column_create(type, n, GCOL_MASK_UNALLOCATED, stream, mr, &result));
    if (n > 0) GCOL_DETAIL_TRY(launch_fixed(&src, source_ids, rows, result->data->data, n, stream));
    if (mask != NULL) {
      GCOL_DETAIL_TRY(gcol_column_set_null_mask(result, mask, null_count));
      mask = NULL;
    }
  }
  *out = result;
  result = NULL;
done:
  gcol_column_free(result);
  gcol_buffer_free(mask);
  return status;
}

extern "C" gcol_status gcol_detail_sort_gather_table(gcol_table_view table, const void *rows,
                                                     int32_t row_bytes, int64_t n,
                                                     gcol_stream stream, gcol_mr *mr,
                                                     gcol_table **out) {
  gcol_detail_gather_map map;
  memset(&map, 0, sizeof map);
  map.indices.data = rows;
  map.indices.width = row_bytes;
  map.indices.is_signed = false;
  map.size = n;
  map.source_rows = table.num_rows;
  return gcol_detail_copying_gather_table(table, map, stream, mr, out);
}
