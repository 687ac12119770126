/*
 * The one gather engine (detail/gather.h): every type, recursively.
 *
 * - Fixed-width: one kernel per storage width (1, 2, 4, 8, 16 bytes), the map read through
 *   the indexalator (any integer type, one instantiation). When the output may hold nulls,
 *   each warp gathers 32 consecutive rows and writes their validity as one ballot word, so
 *   the mask is written whole words at a time, without atomics.
 * - STRING / LIST: size-then-fill in 64 bits: sizes, the shared scan (detail/scan.h), the
 *   total read back to size the chars (values) and pick INT32 or INT64 offsets, then one
 *   kernel writes the offsets and copies the chars in aligned words, a thread per short
 *   string and a warp per long one (lists: a child gather map, and the values gathered
 *   recursively). A null row is empty.
 * - STRUCT: every field gathered with the same map, plus the struct's own mask.
 */
#include "common.cuh"
#include "detail/gather.h"
#include "detail/gather_kernels.cuh"
#include "detail/scan.h"
#include "gcol/table.h"
#include "internal/column.h"

/* ---------------------------------------------------------------- view checks */

extern "C" bool gcol_detail_types_match(gcol_column_view a, gcol_column_view b) {
  if (!gcol_data_type_equal(a.type, b.type)) return false;
  if (a.type.id == GCOL_LIST) {
    if (a.num_children <= GCOL_LIST_VALUES_CHILD || b.num_children <= GCOL_LIST_VALUES_CHILD) {
      return a.num_children == b.num_children;
    }
    return gcol_detail_types_match(a.children[GCOL_LIST_VALUES_CHILD],
                                   b.children[GCOL_LIST_VALUES_CHILD]);
  }
  if (a.type.id == GCOL_STRUCT) {
    if (a.num_children != b.num_children) return false;
    for (int32_t f = 0; f < a.num_children; ++f) {
      if (!gcol_detail_types_match(a.children[f], b.children[f])) return false;
    }
  }
  return true;
}

/* Rejects the types the engines do not take, at any depth. */
static gcol_status check_supported_type(gcol_column_view view, const char *what) {
  gcol_type_id const id = view.type.id;
  if (id == GCOL_EMPTY || id == GCOL_DICTIONARY32 || !gcol_type_id_is_valid(id)) {
    return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__,
                             "%s: copying operations do not support %s columns", what,
                             gcol_type_name(id));
  }
  if (id == GCOL_LIST && view.num_children > GCOL_LIST_VALUES_CHILD) {
    return check_supported_type(view.children[GCOL_LIST_VALUES_CHILD], what);
  }
  if (id == GCOL_STRUCT) {
    for (int32_t f = 0; f < view.num_children; ++f) {
      gcol_status const st = check_supported_type(view.children[f], what);
      if (st != GCOL_OK) return st;
    }
  }
  return GCOL_OK;
}

extern "C" gcol_status gcol_detail_copying_check_view(gcol_column_view view, const char *what) {
  gcol_status const st = gcol_column_view_validate(view, what);
  if (st != GCOL_OK) return st;
  return check_supported_type(view, what);
}

extern "C" gcol_status gcol_detail_copying_check_table(gcol_table_view view, const char *what) {
  GCOL_DETAIL_REQUIRE(view.num_columns >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s has a negative number of columns (%d)", what, (int)view.num_columns);
  GCOL_DETAIL_REQUIRE(view.num_columns == 0 || view.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s.columns is NULL with %d columns", what, (int)view.num_columns);
  GCOL_DETAIL_REQUIRE(view.num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s.num_rows is negative (%lld)", what, (long long)view.num_rows);
  for (int32_t c = 0; c < view.num_columns; ++c) {
    gcol_status const st = gcol_detail_copying_check_view(view.columns[c], what);
    if (st != GCOL_OK) return st;
    GCOL_DETAIL_REQUIRE(view.columns[c].size == view.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                        "%s column %d has %lld rows, the table %lld", what, (int)c,
                        (long long)view.columns[c].size, (long long)view.num_rows);
  }
  return GCOL_OK;
}

/* ---------------------------------------------------------------- maps */

extern "C" gcol_status gcol_detail_gather_map_make(gcol_column_view indices, int64_t source_rows,
                                                   bool wrap_negative, bool nullify,
                                                   gcol_detail_gather_map *out) {
  gcol_status const st = gcol_indexalator_make(indices, &out->indices);
  if (st != GCOL_OK) return st;
  out->null_mask = gcol_column_view_may_have_nulls(indices) ? indices.null_mask : NULL;
  out->mask_offset = indices.offset;
  out->size = indices.size;
  out->source_rows = source_rows;
  out->wrap_negative = wrap_negative;
  out->nullify = nullify;
  return GCOL_OK;
}

/* Counts the non-null entries out of range and finds the first one. */
static __global__ void map_check_kernel(gcol_detail_gather_map map, unsigned long long *bad,
                                        unsigned long long *first_bad) {
  unsigned long long count = 0, first = ~0ull;
  GCOL_DETAIL_GRID_LOOP(i, map.size) {
    if (!gcol_detail_gather_map_entry_in_range(map, i)) {
      ++count;
      if ((unsigned long long)i < first) first = (unsigned long long)i;
    }
  }
  if (count != 0) {
    atomicAdd(bad, count);
    atomicMin(first_bad, first);
  }
}

extern "C" gcol_status gcol_detail_gather_map_check(gcol_detail_gather_map map, const char *what,
                                                    gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *counters = NULL;
  unsigned long long host[2] = {0, 0};
  int64_t value = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  if (map.size == 0) goto done;
  GCOL_DETAIL_TRY(gcol_buffer_create(2 * sizeof(unsigned long long), stream, NULL, &counters));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counters->data, 0, sizeof(unsigned long long), s));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync((unsigned long long *)counters->data + 1, 0xff,
                                       sizeof(unsigned long long), s));
  map_check_kernel<<<gcol_detail_grid_size(map.size, GCOL_DETAIL_BLOCK_SIZE),
                     GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(map, (unsigned long long *)counters->data,
                                                     (unsigned long long *)counters->data + 1);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(host, counters->data, sizeof host, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  if (host[0] == 0) goto done;
  {
    /* Read the first bad index itself for the message. */
    unsigned char bytes[8] = {0};
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(
        bytes, (const char *)map.indices.data + (int64_t)host[1] * map.indices.width,
        (size_t)map.indices.width, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    gcol_indexalator it = map.indices;
    it.data = bytes;
    value = gcol_indexalator_get(it, 0);
  }
  GCOL_DETAIL_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                   "%s holds %llu indices out of range [%lld, %lld); the first at position "
                   "%llu is %lld",
                   what, host[0], map.wrap_negative ? -(long long)map.source_rows : 0LL,
                   (long long)map.source_rows, host[1], (long long)value);
done:
  gcol_buffer_free(counters);
  return status;
}

/* ---------------------------------------------------------------- null masks */

/* Whether the gathered column needs a mask. */
static bool gather_needs_mask(gcol_column_view source, gcol_detail_gather_map map) {
  return gcol_column_view_may_have_nulls(source) || map.nullify || map.null_mask != NULL;
}

/* The source mask when it may matter, else NULL (a known-zero null count skips reading). */
static const uint32_t *source_mask(gcol_column_view source) {
  return gcol_column_view_may_have_nulls(source) ? source.null_mask : NULL;
}

/* Copies the device null counter to the host (synchronizes). */
static gcol_status read_counter(const gcol_buffer *counter, gcol_stream stream, int64_t *out) {
  gcol_status status = GCOL_OK;
  unsigned long long host = 0;
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&host, counter->data, sizeof host, cudaMemcpyDeviceToHost,
                                       (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  *out = (int64_t)host;
done:
  return status;
}

static gcol_status make_counter(gcol_stream stream, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(unsigned long long), stream, NULL, out));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemsetAsync((*out)->data, 0, sizeof(unsigned long long), (cudaStream_t)stream));
done:
  return status;
}

/* The gathered mask of a non-fixed-width column, or NULL when it needs none. */
static gcol_status gather_mask(gcol_column_view source, gcol_detail_gather_map map,
                               gcol_stream stream, gcol_mr *mr, gcol_buffer **out_mask,
                               int64_t *out_null_count) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL, *counter = NULL;
  *out_mask = NULL;
  *out_null_count = 0;
  if (!gather_needs_mask(source, map)) goto done;
  GCOL_DETAIL_TRY(gcol_bitmask_create(map.size, GCOL_MASK_UNINITIALIZED, stream, mr, &mask));
  GCOL_DETAIL_TRY(make_counter(stream, &counter));
  gcol_detail_gather_mask_smem_kernel<<<gcol_detail_grid_size(map.size, GCOL_DETAIL_BLOCK_SIZE),
                                        GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      source_mask(source), source.offset, map, (uint32_t *)mask->data,
      (unsigned long long *)counter->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(read_counter(counter, stream, out_null_count));
  *out_mask = mask;
  mask = NULL;
done:
  gcol_buffer_free(mask);
  gcol_buffer_free(counter);
  return status;
}

/* ---------------------------------------------------------------- fixed width */

template <typename T>
static gcol_status launch_gather_fixed(gcol_column_view source, gcol_detail_gather_map map,
                                       void *dst, uint32_t *dst_mask, unsigned long long *nulls,
                                       gcol_stream stream) {
  gcol_status status = GCOL_OK;
  const T *src = (const T *)source.data + source.offset;
  unsigned int const grid = gcol_detail_grid_size(map.size, GCOL_DETAIL_BLOCK_SIZE);
  if (dst_mask != NULL) {
    gcol_detail_gather_fixed_masked_smem_kernel<T>
        <<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
            src, source_mask(source), source.offset, map, (T *)dst, dst_mask, nulls);
  } else {
    /* No map nulls, no nullify: the plain gather, the only work of the call. */
    gcol_detail_gather_fixed_kernel<T><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        src, map.indices, map.size, map.wrap_negative ? map.source_rows : 0, (T *)dst);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* Dispatches on the storage width: five instantiations serve every fixed-width type. */
static gcol_status gather_fixed_by_width(gcol_column_view source, gcol_detail_gather_map map,
                                         void *dst, uint32_t *dst_mask, unsigned long long *nulls,
                                         gcol_stream stream) {
  switch (gcol_type_size(source.type.id)) {
    case 1:
      return launch_gather_fixed<uint8_t>(source, map, dst, dst_mask, nulls, stream);
    case 2:
      return launch_gather_fixed<uint16_t>(source, map, dst, dst_mask, nulls, stream);
    case 4:
      return launch_gather_fixed<uint32_t>(source, map, dst, dst_mask, nulls, stream);
    case 8:
      return launch_gather_fixed<uint64_t>(source, map, dst, dst_mask, nulls, stream);
    case 16:
      return launch_gather_fixed<ulonglong2>(source, map, dst, dst_mask, nulls, stream);
    default:
      return gcol_detail_error(GCOL_ERROR_INTERNAL, __func__, "no storage of width %zu",
                               gcol_type_size(source.type.id));
  }
}

static gcol_status gather_fixed(gcol_column_view source, gcol_detail_gather_map map,
                                gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *counter = NULL;
  int64_t null_count = 0;
  bool const masked = gather_needs_mask(source, map);
  GCOL_DETAIL_TRY(gcol_column_create(source.type, map.size,
                                     masked ? GCOL_MASK_UNINITIALIZED : GCOL_MASK_UNALLOCATED,
                                     stream, mr, &col));
  if (masked) GCOL_DETAIL_TRY(make_counter(stream, &counter));
  {
    gcol_mutable_column_view const dst = gcol_detail_new_column_mutable_view(col);
    GCOL_DETAIL_TRY(gather_fixed_by_width(source, map, dst.data, dst.null_mask,
                                          masked ? (unsigned long long *)counter->data : NULL,
                                          stream));
  }
  if (masked) {
    GCOL_DETAIL_TRY(read_counter(counter, stream, &null_count));
    GCOL_DETAIL_TRY(gcol_column_set_null_count(col, null_count));
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  gcol_buffer_free(counter);
  return status;
}

/* ---------------------------------------------------------------- offsets (strings, lists) */

/* Writes int64 offsets as an INT32 or INT64 column of count entries, from mr. */
extern "C" gcol_status gcol_detail_offsets_column(const int64_t *offsets64, int64_t count,
                                                  gcol_type_id type, gcol_stream stream,
                                                  gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(type), count, GCOL_MASK_UNALLOCATED,
                                     stream, mr, &col));
  if (type == GCOL_INT64) {
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(col->data->data, offsets64, (size_t)count * 8,
                                         cudaMemcpyDeviceToDevice, (cudaStream_t)stream));
  } else {
    gcol_detail_narrow_offsets_kernel<<<gcol_detail_grid_size(count, GCOL_DETAIL_BLOCK_SIZE),
                                        GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        offsets64, (int32_t *)col->data->data, count);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}

/* The source's offsets; an empty source may have no offsets at all, and then no row of it
 * is ever read (every index is out of range). */
static gcol_status source_offsets(gcol_column_view source, gcol_offsetalator *out) {
  if (source.size == 0 &&
      (source.num_children == 0 || source.children[GCOL_OFFSETS_CHILD].data == NULL)) {
    out->data = NULL;
    out->width = 4;
    return GCOL_OK;
  }
  return gcol_offsetalator_make(source, out);
}

/* Offsets of a gathered STRING or LIST column in int64 (a temporary of map.size + 1
 * entries: sizes, scanned in place), the source start of every row when out_starts is not
 * NULL (strings), and the total. Synchronizes to read the total. */
static gcol_status gather_offsets64(gcol_column_view source, gcol_detail_gather_map map,
                                    gcol_stream stream, gcol_buffer **out_offsets64,
                                    gcol_buffer **out_starts, int64_t *out_total) {
  gcol_status status = GCOL_OK;
  gcol_buffer *offsets64 = NULL, *starts = NULL;
  gcol_offsetalator src_offsets;
  int64_t const count = map.size + 1;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(source_offsets(source, &src_offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)count * 8, stream, NULL, &offsets64));
  if (out_starts != NULL) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)map.size * 8, stream, NULL, &starts));
  }
  gcol_detail_gather_sizes_kernel<<<gcol_detail_grid_size(count, GCOL_DETAIL_BLOCK_SIZE),
                                    GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      src_offsets, source_mask(source), source.offset, map, (int64_t *)offsets64->data,
      starts != NULL ? (int64_t *)starts->data : NULL);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan((const int64_t *)offsets64->data,
                                         (int64_t *)offsets64->data, map.size, out_total, 1,
                                         stream));
  *out_offsets64 = offsets64;
  offsets64 = NULL;
  if (out_starts != NULL) {
    *out_starts = starts;
    starts = NULL;
  }
done:
  gcol_buffer_free(offsets64);
  gcol_buffer_free(starts);
  return status;
}

/* Passes: sizes (and source starts), an in-place scan, the total read back, then one kernel
 * that writes the output offsets in their final type and copies the chars. */
static gcol_status gather_strings(gcol_column_view source, gcol_detail_gather_map map,
                                  gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *offsets64 = NULL, *starts = NULL, *chars = NULL, *mask = NULL;
  gcol_column *offsets = NULL;
  int64_t total = 0, null_count = 0;
  gcol_offsets_writer writer;
  GCOL_DETAIL_TRY(gather_offsets64(source, map, stream, &offsets64, &starts, &total));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(gcol_detail_offsets_type(total)),
                                     map.size + 1, GCOL_MASK_UNALLOCATED, stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  writer.data = offsets->data->data;
  writer.width = (int32_t)gcol_type_size(offsets->type.id);
  gcol_detail_gather_chars_kernel<<<gcol_detail_grid_size(map.size + 1, GCOL_DETAIL_BLOCK_SIZE),
                                    GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      (const char *)source.data, (const int64_t *)starts->data, (const int64_t *)offsets64->data,
      map.size, writer, (char *)chars->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gather_mask(source, map, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_make_strings(map.size, offsets, chars, mask, null_count, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_buffer_free(offsets64);
  gcol_buffer_free(starts);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  return status;
}

static gcol_status gather_lists(gcol_column_view source, gcol_detail_gather_map map,
                                gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *offsets64 = NULL, *child_map = NULL, *mask = NULL;
  gcol_column *offsets = NULL, *values = NULL;
  int64_t total = 0, null_count = 0;
  gcol_offsetalator src_offsets;
  gcol_detail_gather_map values_map;
  gcol_column_view const src_values = source.children[GCOL_LIST_VALUES_CHILD];
  GCOL_DETAIL_TRY(source_offsets(source, &src_offsets));
  GCOL_DETAIL_TRY(gather_offsets64(source, map, stream, &offsets64, NULL, &total));
  GCOL_DETAIL_TRY(gcol_detail_offsets_column((const int64_t *)offsets64->data, map.size + 1,
                                             gcol_detail_offsets_type(total), stream, mr,
                                             &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total * 8, stream, NULL, &child_map));
  if (total > 0) {
    gcol_detail_list_child_map_kernel<<<gcol_detail_grid_size(map.size, GCOL_DETAIL_BLOCK_SIZE),
                                        GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        src_offsets, source_mask(source), source.offset, map, (const int64_t *)offsets64->data,
        (int64_t *)child_map->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  /* The child map holds valid positions only: no wrap, no nullify, no mask. */
  values_map.indices.data = child_map->data;
  values_map.indices.width = 8;
  values_map.indices.is_signed = true;
  values_map.null_mask = NULL;
  values_map.mask_offset = 0;
  values_map.size = total;
  values_map.source_rows = src_values.size;
  values_map.wrap_negative = false;
  values_map.nullify = false;
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_column(src_values, values_map, stream, mr, &values));
  GCOL_DETAIL_TRY(gather_mask(source, map, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_make_list(map.size, offsets, values, mask, null_count, out));
  offsets = NULL;
  values = NULL;
  mask = NULL;
done:
  gcol_buffer_free(offsets64);
  gcol_buffer_free(child_map);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  gcol_column_free(values);
  return status;
}

static gcol_status gather_struct(gcol_column_view source, gcol_detail_gather_map map,
                                 gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  int32_t const num_fields = source.num_children;
  gcol_column **fields = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  fields = (gcol_column **)calloc(num_fields > 0 ? (size_t)num_fields : 1, sizeof *fields);
  GCOL_DETAIL_CHECK(fields != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d fields",
                    (int)num_fields);
  for (int32_t f = 0; f < num_fields; ++f) {
    gcol_column_view field;
    /* Fields are indexed by the struct's offset + row: line them up with the struct. */
    GCOL_DETAIL_TRY(gcol_column_view_slice(source.children[f], source.offset,
                                           source.offset + source.size, &field));
    GCOL_DETAIL_TRY(gcol_detail_copying_gather_column(field, map, stream, mr, &fields[f]));
  }
  GCOL_DETAIL_TRY(gather_mask(source, map, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_make_struct(map.size, fields, num_fields, mask, null_count, out));
  for (int32_t f = 0; f < num_fields; ++f) fields[f] = NULL;
  mask = NULL;
done:
  if (fields != NULL) {
    for (int32_t f = 0; f < num_fields; ++f) gcol_column_free(fields[f]);
    free(fields);
  }
  gcol_buffer_free(mask);
  return status;
}

extern "C" gcol_status gcol_detail_copying_gather_column(gcol_column_view source,
                                                         gcol_detail_gather_map map,
                                                         gcol_stream stream, gcol_mr *mr,
                                                         gcol_column **out) {
  *out = NULL;
  if (map.size == 0) return gcol_column_empty_like(source, stream, mr, out);
  if (gcol_type_is_fixed_width(source.type.id)) return gather_fixed(source, map, stream, mr, out);
  switch (source.type.id) {
    case GCOL_STRING:
      return gather_strings(source, map, stream, mr, out);
    case GCOL_LIST:
      return gather_lists(source, map, stream, mr, out);
    case GCOL_STRUCT:
      return gather_struct(source, map, stream, mr, out);
    default:
      return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__, "cannot gather %s columns",
                               gcol_type_name(source.type.id));
  }
}

extern "C" gcol_status gcol_detail_copying_gather_table(gcol_table_view source,
                                                        gcol_detail_gather_map map,
                                                        gcol_stream stream, gcol_mr *mr,
                                                        gcol_table **out) {
  gcol_status status = GCOL_OK;
  int32_t const n = source.num_columns;
  gcol_column **columns = (gcol_column **)calloc(n > 0 ? (size_t)n : 1, sizeof *columns);
  GCOL_DETAIL_CHECK(columns != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d columns",
                    (int)n);
  for (int32_t c = 0; c < n; ++c) {
    GCOL_DETAIL_TRY(
        gcol_detail_copying_gather_column(source.columns[c], map, stream, mr, &columns[c]));
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, n, out));
  for (int32_t c = 0; c < n; ++c) columns[c] = NULL;
done:
  if (columns != NULL) {
    for (int32_t c = 0; c < n; ++c) gcol_column_free(columns[c]);
    free(columns);
  }
  return status;
}
