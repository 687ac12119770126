/*
 * Gather through a row map (see row_map.cuh). A map of one source goes to the one gather
 * engine of every layout (kernels/detail/gather.h). What stays here is
 * the two-source case (replace_nulls, fill: rows of A or of B) for fixed-width and STRING:
 * fixed-width by storage width (five instantiations), STRING by size-then-fill with 64-bit
 * sizes. Output null masks are written one word per warp from ballots. Next step: the
 * engine takes two sources itself and this file goes.
 */
#include <string.h>

#include "detail/gather.h"
#include "detail/scan.h"
#include "filtering/row_map.cuh"
#include "gcol/device/block.cuh"
#include "gcol/indexalator.h"

namespace {

/* The 16-byte storage of DECIMAL128. */
struct alignas(16) word128 {
  uint64_t lo, hi;
};

/* A source of rows: one column's flat parts. */
struct row_source {
  const void *data;          /* fixed-width: row 0 (offset applied); STRING: chars */
  const uint32_t *null_mask; /* or NULL */
  int64_t mask_offset;       /* bit of row 0 */
  gcol_offsetalator offsets; /* STRING: positioned at row 0 */
};

__device__ __forceinline__ bool source_valid(row_source s, int64_t row) {
  return gcol_bit_is_set_or_null_mask(s.null_mask, s.mask_offset + row);
}

/* Resolves map entry m to (source, row); false for a null entry. */
__device__ __forceinline__ bool resolve(int64_t m, const row_source &a, const row_source &b,
                                        row_source *src, int64_t *row) {
  if (m >= 0) {
    *src = a;
    *row = m;
    return true;
  }
  if (gcol_detail_map_is_b(m)) {
    *src = b;
    *row = gcol_detail_map_b_row(m);
    return true;
  }
  return false;
}

/*
 * Output validity: each warp owns 32 consecutive output rows (an aligned mask word), so the
 * loop runs over n rounded up to 32 and every lane takes part in the ballot.
 */
__global__ void gather_validity_smem_kernel(row_source a, row_source b, const int64_t *map,
                                            int64_t n, uint32_t *out_mask,
                                            unsigned long long *null_count) {
  int64_t const padded = (n + 31) & ~(int64_t)31;
  unsigned int nulls = 0;
  GCOL_DETAIL_GRID_LOOP(i, padded) {
    bool valid = false;
    if (i < n) {
      row_source src;
      int64_t row;
      valid = resolve(map[i], a, b, &src, &row) && source_valid(src, row);
      nulls += valid ? 0u : 1u;
    }
    uint32_t const word = __ballot_sync(0xFFFFFFFFu, valid);
    if ((threadIdx.x & 31) == 0) out_mask[i >> 5] = word;
  }
  gcol_block_add_count(null_count, nulls);
}

template <typename T>
__global__ void gather_fixed_kernel(const T *a, const T *b, const int64_t *map, int64_t n, T *out) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const m = map[i];
    if (m >= 0) {
      out[i] = a[m];
    } else if (gcol_detail_map_is_b(m)) {
      out[i] = b[gcol_detail_map_b_row(m)];
    } else {
      out[i] = T();  /* a null row: its value is defined too */
    }
  }
}

/* Per-row element counts (chars or list values) of the output; null rows count 0. */
__global__ void gather_sizes_kernel(row_source a, row_source b, const int64_t *map, int64_t n,
                                    int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    row_source src;
    int64_t row;
    int64_t size = 0;
    if (resolve(map[i], a, b, &src, &row) && source_valid(src, row)) {
      size = gcol_offsetalator_get(src.offsets, row + 1) - gcol_offsetalator_get(src.offsets, row);
    }
    sizes[i] = size;
  }
  if (gcol_detail_thread_index() == 0) sizes[n] = 0;
}

/* Copies each valid output row's chars; one thread a row (rows are short on average). */
__global__ void gather_chars_kernel(row_source a, row_source b, const int64_t *map, int64_t n,
                                    const int64_t *out_offsets, char *out_chars) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const begin = out_offsets[i];
    int64_t const len = out_offsets[i + 1] - begin;
    if (len == 0) continue;
    row_source src;
    int64_t row;
    resolve(map[i], a, b, &src, &row);
    const char *in = (const char *)src.data + gcol_offsetalator_get(src.offsets, row);
    for (int64_t k = 0; k < len; ++k) out_chars[begin + k] = in[k];
  }
}

gcol_status make_source(gcol_column_view v, row_source *out) {
  gcol_status status = GCOL_OK;
  size_t const width = gcol_type_size(v.type.id);
  out->null_mask = v.null_mask;
  out->mask_offset = v.offset;
  out->offsets.data = NULL;
  out->offsets.width = 4;
  if (width != 0) {
    out->data = v.data == NULL ? NULL : (const char *)v.data + v.offset * (int64_t)width;
  } else {
    out->data = v.data;
    if (v.type.id == GCOL_STRING && v.size > 0) {
      status = gcol_offsetalator_make(v, &out->offsets);
    }
  }
  return status;
}

bool may_have_nulls(gcol_column_view v) { return v.null_mask != NULL && v.null_count != 0; }

/* Output mask and null count for a gather (NULL mask when no row can be null). */
gcol_status gather_mask(row_source a, row_source b, bool needed, const int64_t *map, int64_t n,
                        gcol_stream stream, gcol_mr *mr, gcol_buffer **out_mask,
                        int64_t *out_null_count) {
  gcol_status status = GCOL_OK;
  gcol_buffer *counter = NULL;
  unsigned long long host_count = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  *out_mask = NULL;
  *out_null_count = 0;
  if (!needed) goto done;
  GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_UNINITIALIZED, stream, mr, out_mask));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(unsigned long long), stream, NULL, &counter));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counter->data, 0, sizeof(unsigned long long), s));
  gather_validity_smem_kernel<<<gcol_detail_grid_size((n + 31) & ~(int64_t)31,
                                                      GCOL_DETAIL_BLOCK_SIZE),
                                GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      a, b, map, n, (uint32_t *)(*out_mask)->data, (unsigned long long *)counter->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(&host_count, counter->data, sizeof host_count, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  *out_null_count = (int64_t)host_count;
done:
  gcol_buffer_free(counter);
  if (status != GCOL_OK) {
    gcol_buffer_free(*out_mask);
    *out_mask = NULL;
  }
  return status;
}

template <typename T>
void launch_fixed(row_source a, row_source b, const int64_t *map, int64_t n, void *out,
                  cudaStream_t s) {
  gather_fixed_kernel<T>
      <<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
          (const T *)a.data, (const T *)b.data, map, n, (T *)out);
}

gcol_status gather_fixed(gcol_column_view view, row_source a, row_source b, const int64_t *map,
                         int64_t n, gcol_buffer *mask, int64_t null_count, gcol_stream stream,
                         gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_column_create(view.type, n, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  switch (gcol_type_size(view.type.id)) {
    case 1:
      launch_fixed<uint8_t>(a, b, map, n, col->data->data, s);
      break;
    case 2:
      launch_fixed<uint16_t>(a, b, map, n, col->data->data, s);
      break;
    case 4:
      launch_fixed<uint32_t>(a, b, map, n, col->data->data, s);
      break;
    case 8:
      launch_fixed<uint64_t>(a, b, map, n, col->data->data, s);
      break;
    default:
      launch_fixed<word128>(a, b, map, n, col->data->data, s);
      break;
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
  mask = NULL;
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(col);
  return status;
}

/*
 * Size-then-fill offsets for STRING and LIST outputs: per-row sizes, then the shared
 * sizes -> offsets pass (gcol_detail_offsets_from_sizes: the int64 scan, the total read
 * back, the offsets column in INT32 or INT64).
 */
gcol_status gather_offsets(row_source a, row_source b, const int64_t *map, int64_t n,
                           gcol_stream stream, gcol_mr *mr, gcol_buffer **out_offsets64,
                           gcol_column **out_offsets, int64_t *out_total) {
  gcol_status status = GCOL_OK;
  gcol_buffer *sizes = NULL;
  gcol_column *offsets = NULL;
  int64_t total = 0;
  unsigned int const grid = gcol_detail_grid_size(n + 1, GCOL_DETAIL_BLOCK_SIZE);
  int64_t *d_sizes = NULL;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n + 1) * sizeof(int64_t), stream, NULL, &sizes));
  d_sizes = (int64_t *)sizes->data;
  gather_sizes_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(a, b, map, n,
                                                                                 d_sizes);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_offsets_from_sizes(d_sizes, n, &total, 1, stream, mr, &offsets));
  *out_offsets64 = sizes;
  sizes = NULL;
  *out_offsets = offsets;
  offsets = NULL;
  *out_total = total;
done:
  gcol_buffer_free(sizes);
  gcol_column_free(offsets);
  return status;
}

gcol_status gather_strings(row_source a, row_source b, const int64_t *map, int64_t n,
                           gcol_buffer *mask, int64_t null_count, gcol_stream stream, gcol_mr *mr,
                           gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *offsets64 = NULL, *chars = NULL;
  gcol_column *offsets = NULL;
  int64_t total = 0;
  GCOL_DETAIL_TRY(gather_offsets(a, b, map, n, stream, mr, &offsets64, &offsets, &total));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  if (total > 0) {
    gather_chars_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                          0, (cudaStream_t)stream>>>(a, b, map, n, (const int64_t *)offsets64->data,
                                                     (char *)chars->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, mask, null_count, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_buffer_free(offsets64);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  return status;
}

}  // namespace

/* The copying engine's map over a row map of int64 entries (no source B entries). */
static gcol_detail_gather_map engine_map(const int64_t *map, int64_t size, int64_t source_rows,
                                         bool map_may_null) {
  gcol_detail_gather_map m;
  memset(&m, 0, sizeof m);
  m.indices.data = map;
  m.indices.width = 8;
  m.indices.is_signed = true;
  m.size = size;
  m.source_rows = source_rows;
  m.nullify = map_may_null; /* GCOL_DETAIL_MAP_NULL (-1) entries become null rows */
  return m;
}

extern "C" gcol_status gcol_detail_gather_column(gcol_column_view view, const gcol_column_view *b,
                                                 const int64_t *map, int64_t size,
                                                 bool map_may_null, gcol_stream stream, gcol_mr *mr,
                                                 gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  row_source a, bs;
  gcol_type_id const id = view.type.id;
  *out = NULL;
  GCOL_DETAIL_CHECK(id != GCOL_DICTIONARY32 && id != GCOL_EMPTY, GCOL_ERROR_UNSUPPORTED,
                    "cannot gather a %s column", gcol_type_name(id));
  if (b == NULL) { /* one source: the one gather engine of every layout */
    status = gcol_detail_copying_gather_column(
        view, engine_map(map, size, view.size, map_may_null), stream, mr, out);
    goto done;
  }
  GCOL_DETAIL_CHECK(gcol_type_is_fixed_width(id) || id == GCOL_STRING, GCOL_ERROR_UNSUPPORTED,
                    "two-source gather of a %s column", gcol_type_name(id));
  if (size == 0) {
    status = gcol_column_empty_like(view, stream, mr, out);
    goto done;
  }
  GCOL_DETAIL_TRY(make_source(view, &a));
  GCOL_DETAIL_TRY(make_source(*b, &bs));
  GCOL_DETAIL_TRY(gather_mask(a, bs, map_may_null || may_have_nulls(view) || may_have_nulls(*b),
                              map, size, stream, mr, &mask, &null_count));
  if (gcol_type_is_fixed_width(id)) {
    status = gather_fixed(view, a, bs, map, size, mask, null_count, stream, mr, out);
  } else {
    status = gather_strings(a, bs, map, size, mask, null_count, stream, mr, out);
  }
  mask = NULL; /* the helpers own it now, also on failure */
done:
  gcol_buffer_free(mask);
  return status;
}

extern "C" gcol_status gcol_detail_gather_table(gcol_table_view input, const int64_t *map,
                                                int64_t size, bool map_may_null, gcol_stream stream,
                                                gcol_mr *mr, gcol_table **out) {
  *out = NULL;
  for (int32_t c = 0; c < input.num_columns; ++c) {
    gcol_type_id const id = input.columns[c].type.id;
    if (id == GCOL_DICTIONARY32 || id == GCOL_EMPTY) {
      return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__, "cannot gather a %s column",
                               gcol_type_name(id));
    }
  }
  return gcol_detail_copying_gather_table(
      input, engine_map(map, size, input.num_rows, map_may_null), stream, mr, out);
}
