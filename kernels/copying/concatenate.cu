/*
 * Concatenation of columns and tables of every type, and deep-copying split / slice.
 *
 * - Data of fixed-width columns and chars of strings are contiguous per input: one
 *   cudaMemcpyAsync per input, no kernel.
 * - Null masks: one kernel (detail/mask_splice.cu) writes each output word from the inputs'
 *   masks at any bit offsets (a sorted segment list, binary-searched per word); none when no
 *   input has nulls.
 * - STRING / LIST offsets: the inputs' first and last offsets are read back in one copy
 *   (one synchronization for all inputs), the total decides INT32 or INT64 offsets, and one
 *   kernel rebases every input's offsets; list values and struct fields are concatenated
 *   recursively from slices of the children.
 * - Columns gcol made and owns whole (gcol_detail_concatenate_owned: a batched Parquet read's
 *   pieces): their offsets run from 0 to their chars' or values' size and their null counts
 *   are exact, so nothing is read back and nothing synchronizes; the outputs' allocations can
 *   then run ahead of the GPU work that is still filling the pieces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "copying/copying_internal.h"
#include "gcol/copying.h"
#include "gcol/table.h"
#include "internal/column.h"

/* ---------------------------------------------------------------- offsets */

/* One non-empty STRING or LIST input: its offsets, rows, and where its chars go. */
typedef struct concat_offsets_segment {
  gcol_offsetalator offsets;
  int64_t row_start; /* first output row */
  int64_t size;      /* rows */
  int64_t begin;     /* its first offset (chars/values before it are not its own) */
  int64_t base;      /* where its chars/values start in the output */
} concat_offsets_segment;

static __global__ void concat_bounds_kernel(const concat_offsets_segment *segs, int64_t n,
                                            int64_t *bounds) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    bounds[2 * j] = gcol_offsetalator_get(segs[j].offsets, 0);
    bounds[2 * j + 1] = gcol_offsetalator_get(segs[j].offsets, segs[j].size);
  }
}

static __global__ void concat_offsets_kernel(const concat_offsets_segment *__restrict__ segs,
                                             int64_t num_segs, int64_t total_rows, int64_t total,
                                             gcol_offsets_writer dst) {
  GCOL_DETAIL_GRID_LOOP(r, total_rows + 1) {
    if (r == total_rows) {
      gcol_offsets_writer_set(dst, r, total);
    } else {
      int64_t lo = 0, hi = num_segs - 1;
      while (lo < hi) { /* the last segment starting at or before r */
        int64_t const mid = lo + (hi - lo + 1) / 2;
        if (segs[mid].row_start <= r) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      concat_offsets_segment const s = segs[lo];
      gcol_offsets_writer_set(dst, r,
                              gcol_offsetalator_get(s.offsets, r - s.row_start) - s.begin + s.base);
    }
  }
}

/* Offsets of a concatenated STRING or LIST column. On return, begins[j] / ends[j] hold input
 * j's chars (values) range (0, 0 for empty inputs) and *out_total the sum. Synchronizes,
 * unless known_ends gives each input's last offset (its first is then 0). */
static gcol_status concat_offsets(const gcol_column_view *columns, int32_t num_columns,
                                  int64_t total_rows, const int64_t *known_ends, gcol_stream stream,
                                  gcol_mr *mr, int64_t *begins, int64_t *ends,
                                  gcol_column **out_offsets, int64_t *out_total) {
  gcol_status status = GCOL_OK;
  concat_offsets_segment *segs = NULL;
  int64_t *bounds = NULL;
  gcol_buffer *device_segs = NULL, *device_bounds = NULL;
  gcol_column *offsets = NULL;
  int64_t num_segs = 0, row = 0, total = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  segs = (concat_offsets_segment *)calloc((size_t)num_columns, sizeof *segs);
  bounds = (int64_t *)calloc((size_t)num_columns * 2, sizeof *bounds);
  GCOL_DETAIL_CHECK(segs != NULL && bounds != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d inputs", (int)num_columns);
  for (int32_t j = 0; j < num_columns; ++j) {
    begins[j] = ends[j] = 0;
    if (columns[j].size == 0) continue;
    GCOL_DETAIL_TRY(gcol_offsetalator_make(columns[j], &segs[num_segs].offsets));
    segs[num_segs].row_start = row;
    segs[num_segs].size = columns[j].size;
    row += columns[j].size;
    ++num_segs;
  }
  GCOL_DETAIL_TRY(
      gcol_buffer_create_copy(segs, (size_t)num_segs * sizeof *segs, stream, NULL, &device_segs));
  if (known_ends != NULL) {
    for (int32_t j = 0, k = 0; j < num_columns; ++j) {
      if (columns[j].size == 0) continue;
      bounds[2 * k] = 0;
      bounds[2 * k + 1] = known_ends[j];
      ++k;
    }
  } else {
    GCOL_DETAIL_TRY(
        gcol_buffer_create((size_t)num_segs * 2 * sizeof(int64_t), stream, NULL, &device_bounds));
    concat_bounds_kernel<<<gcol_detail_grid_size(num_segs, GCOL_DETAIL_BLOCK_SIZE),
                           GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const concat_offsets_segment *)device_segs->data, num_segs,
        (int64_t *)device_bounds->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(bounds, device_bounds->data,
                                         (size_t)num_segs * 2 * sizeof(int64_t),
                                         cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  }
  for (int32_t j = 0, k = 0; j < num_columns; ++j) {
    if (columns[j].size == 0) continue;
    segs[k].begin = bounds[2 * k];
    segs[k].base = total;
    begins[j] = bounds[2 * k];
    ends[j] = bounds[2 * k + 1];
    GCOL_DETAIL_CHECK(ends[j] >= begins[j], GCOL_ERROR_INVALID_ARGUMENT,
                      "columns[%d] has descending offsets (%lld > %lld)", (int)j,
                      (long long)begins[j], (long long)ends[j]);
    GCOL_DETAIL_CHECK(total <= INT64_MAX - (ends[j] - begins[j]), GCOL_ERROR_OVERFLOW,
                      "the concatenated chars exceed INT64_MAX bytes");
    total += ends[j] - begins[j];
    ++k;
  }
  /* A pageable source: the copy returns once segs is staged, so segs may be freed after. */
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(device_segs->data, segs, (size_t)num_segs * sizeof *segs,
                                       cudaMemcpyHostToDevice, s));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(gcol_detail_offsets_type(total)),
                                     total_rows + 1, GCOL_MASK_UNALLOCATED, stream, mr, &offsets));
  {
    gcol_offsets_writer writer;
    writer.data = offsets->data->data;
    writer.width = (int32_t)gcol_type_size(offsets->type.id);
    concat_offsets_kernel<<<gcol_detail_grid_size(total_rows + 1, GCOL_DETAIL_BLOCK_SIZE),
                            GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const concat_offsets_segment *)device_segs->data, num_segs, total_rows, total, writer);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out_offsets = offsets;
  *out_total = total;
  offsets = NULL;
done:
  free(segs);
  free(bounds);
  gcol_buffer_free(device_segs);
  gcol_buffer_free(device_bounds);
  gcol_column_free(offsets);
  return status;
}

/* ---------------------------------------------------------------- per type */

static gcol_status concat_fixed(const gcol_column_view *columns, int32_t num_columns,
                                int64_t total_rows, gcol_stream stream, gcol_mr *mr,
                                gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  size_t const width = gcol_type_size(columns[0].type.id);
  char *dst = NULL;
  GCOL_DETAIL_TRY(
      gcol_column_create(columns[0].type, total_rows, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  dst = (char *)col->data->data;
  for (int32_t j = 0; j < num_columns; ++j) {
    size_t const bytes = (size_t)columns[j].size * width;
    if (bytes == 0) continue;
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(dst, (const char *)columns[j].data + (size_t)columns[j].offset * width,
                        bytes, cudaMemcpyDeviceToDevice, (cudaStream_t)stream));
    dst += bytes;
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}

/* The last offsets of owned pieces (owned NULL: unknown, read back). */
static int64_t *owned_ends(gcol_column *const *owned, int32_t num_columns, int64_t *ends) {
  if (owned == NULL) return NULL;
  for (int32_t j = 0; j < num_columns; ++j) {
    const gcol_column *c = owned[j];
    if (c->type.id == GCOL_STRING) {
      ends[j] = c->data != NULL ? (int64_t)c->data->size : 0;
    } else { /* LIST */
      ends[j] = c->size > 0 ? c->children[GCOL_LIST_VALUES_CHILD]->size : 0;
    }
  }
  return ends;
}

static gcol_status concat_strings(const gcol_column_view *columns, gcol_column *const *owned,
                                  int32_t num_columns, int64_t total_rows, gcol_stream stream,
                                  gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  int64_t *begins = (int64_t *)calloc((size_t)num_columns * 3, sizeof(int64_t));
  int64_t *ends = begins + num_columns;
  gcol_column *offsets = NULL;
  gcol_buffer *chars = NULL;
  int64_t total = 0, base = 0;
  GCOL_DETAIL_CHECK(begins != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d inputs",
                    (int)num_columns);
  GCOL_DETAIL_TRY(concat_offsets(columns, num_columns, total_rows,
                                 owned_ends(owned, num_columns, ends + num_columns), stream, mr,
                                 begins, ends, &offsets, &total));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  for (int32_t j = 0; j < num_columns; ++j) {
    int64_t const bytes = ends[j] - begins[j];
    if (bytes == 0) continue;
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync((char *)chars->data + base,
                                         (const char *)columns[j].data + begins[j], (size_t)bytes,
                                         cudaMemcpyDeviceToDevice, (cudaStream_t)stream));
    base += bytes;
  }
  GCOL_DETAIL_TRY(gcol_column_make_strings(total_rows, offsets, chars, NULL, 0, out));
  offsets = NULL;
  chars = NULL;
done:
  free(begins);
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  return status;
}

/* Child `child` of every non-empty owned piece, concatenated. */
static gcol_status concat_owned_children(gcol_column *const *owned, int32_t num_columns,
                                         int32_t child, gcol_stream stream, gcol_mr *mr,
                                         gcol_column **out) {
  gcol_status status = GCOL_OK;
  int32_t n = 0;
  gcol_column **children = (gcol_column **)calloc((size_t)num_columns, sizeof *children);
  GCOL_DETAIL_CHECK(children != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d inputs",
                    (int)num_columns);
  for (int32_t j = 0; j < num_columns; ++j) {
    if (owned[j]->size > 0) children[n++] = owned[j]->children[child];
  }
  GCOL_DETAIL_TRY(gcol_detail_concatenate_owned(children, n, stream, mr, out));
done:
  free(children);
  return status;
}

static gcol_status concat_lists(const gcol_column_view *columns, gcol_column *const *owned,
                                int32_t num_columns, int64_t total_rows, gcol_stream stream,
                                gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  int64_t *begins = (int64_t *)calloc((size_t)num_columns * 3, sizeof(int64_t));
  int64_t *ends = begins + num_columns;
  gcol_column_view *values = (gcol_column_view *)calloc((size_t)num_columns, sizeof *values);
  gcol_column *offsets = NULL, *values_col = NULL;
  int64_t total = 0;
  int32_t num_values = 0;
  GCOL_DETAIL_CHECK(begins != NULL && values != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d inputs", (int)num_columns);
  GCOL_DETAIL_TRY(concat_offsets(columns, num_columns, total_rows,
                                 owned_ends(owned, num_columns, ends + num_columns), stream, mr,
                                 begins, ends, &offsets, &total));
  if (owned != NULL) { /* whole children */
    GCOL_DETAIL_TRY(
        concat_owned_children(owned, num_columns, GCOL_LIST_VALUES_CHILD, stream, mr, &values_col));
  } else {
    for (int32_t j = 0; j < num_columns; ++j) {
      if (columns[j].size == 0) continue; /* empty inputs may lack children */
      GCOL_DETAIL_TRY(gcol_column_view_slice(columns[j].children[GCOL_LIST_VALUES_CHILD], begins[j],
                                             ends[j], &values[num_values++]));
    }
    GCOL_DETAIL_TRY(gcol_detail_concatenate(values, num_values, stream, mr, &values_col));
  }
  GCOL_DETAIL_TRY(gcol_column_make_list(total_rows, offsets, values_col, NULL, 0, out));
  offsets = NULL;
  values_col = NULL;
done:
  free(begins);
  free(values);
  gcol_column_free(offsets);
  gcol_column_free(values_col);
  return status;
}

static gcol_status concat_struct(const gcol_column_view *columns, gcol_column *const *owned,
                                 int32_t num_columns, int64_t total_rows, gcol_stream stream,
                                 gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  int32_t const num_fields = columns[0].num_children;
  gcol_column **fields =
      (gcol_column **)calloc(num_fields > 0 ? (size_t)num_fields : 1, sizeof *fields);
  gcol_column_view *pieces = (gcol_column_view *)calloc((size_t)num_columns, sizeof *pieces);
  GCOL_DETAIL_CHECK(fields != NULL && pieces != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d fields", (int)num_fields);
  for (int32_t f = 0; f < num_fields && owned != NULL; ++f) { /* whole children */
    GCOL_DETAIL_TRY(concat_owned_children(owned, num_columns, f, stream, mr, &fields[f]));
  }
  for (int32_t f = 0; f < num_fields && owned == NULL; ++f) {
    int32_t num_pieces = 0;
    for (int32_t j = 0; j < num_columns; ++j) {
      if (columns[j].size == 0) continue; /* empty inputs may lack children */
      /* Field rows line up with the struct's offset. */
      GCOL_DETAIL_TRY(gcol_column_view_slice(columns[j].children[f], columns[j].offset,
                                             columns[j].offset + columns[j].size,
                                             &pieces[num_pieces++]));
    }
    GCOL_DETAIL_TRY(gcol_detail_concatenate(pieces, num_pieces, stream, mr, &fields[f]));
  }
  GCOL_DETAIL_TRY(gcol_column_make_struct(total_rows, fields, num_fields, NULL, 0, out));
  for (int32_t f = 0; f < num_fields; ++f) fields[f] = NULL;
done:
  if (fields != NULL) {
    for (int32_t f = 0; f < num_fields; ++f) gcol_column_free(fields[f]);
    free(fields);
  }
  free(pieces);
  return status;
}

/* The concatenation of views, or of the owned pieces they are the views of (owned non-NULL:
 * gcol_detail_concatenate_owned). */
static gcol_status concatenate_columns(const gcol_column_view *columns, gcol_column *const *owned,
                                       int32_t num_columns, gcol_stream stream, gcol_mr *mr,
                                       gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t total_rows = 0, null_count = 0;
  gcol_type_id const id = columns[0].type.id;
  *out = NULL;
  for (int32_t j = 0; j < num_columns; ++j) {
    GCOL_DETAIL_CHECK(total_rows <= INT64_MAX - columns[j].size, GCOL_ERROR_OVERFLOW,
                      "the concatenated rows exceed INT64_MAX");
    total_rows += columns[j].size;
  }
  if (total_rows == 0) {
    GCOL_DETAIL_TRY(gcol_column_empty_like(columns[0], stream, mr, out));
    goto done;
  }
  if (gcol_type_is_fixed_width(id)) {
    GCOL_DETAIL_TRY(concat_fixed(columns, num_columns, total_rows, stream, mr, &col));
  } else if (id == GCOL_STRING) {
    GCOL_DETAIL_TRY(concat_strings(columns, owned, num_columns, total_rows, stream, mr, &col));
  } else if (id == GCOL_LIST) {
    GCOL_DETAIL_TRY(concat_lists(columns, owned, num_columns, total_rows, stream, mr, &col));
  } else if (id == GCOL_STRUCT) {
    GCOL_DETAIL_TRY(concat_struct(columns, owned, num_columns, total_rows, stream, mr, &col));
  } else {
    GCOL_DETAIL_FAIL(GCOL_ERROR_UNSUPPORTED, "cannot concatenate %s columns", gcol_type_name(id));
  }
  GCOL_DETAIL_TRY(owned != NULL ? gcol_detail_concat_masks_exact(columns, num_columns, total_rows,
                                                                 stream, mr, &mask, &null_count)
                                : gcol_detail_concat_masks(columns, num_columns, total_rows, stream,
                                                           mr, &mask, &null_count));
  if (mask != NULL) {
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
    mask = NULL;
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  gcol_buffer_free(mask);
  return status;
}

extern "C" gcol_status gcol_detail_concatenate(const gcol_column_view *columns, int32_t num_columns,
                                               gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  return concatenate_columns(columns, NULL, num_columns, stream, mr, out);
}

extern "C" gcol_status gcol_detail_concatenate_owned(gcol_column *const *columns,
                                                     int32_t num_columns, gcol_stream stream,
                                                     gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column_view *views = NULL;
  *out = NULL;
  GCOL_DETAIL_CHECK(num_columns >= 1, GCOL_ERROR_INVALID_ARGUMENT,
                    "num_columns must be at least 1 (%d)", (int)num_columns);
  views = (gcol_column_view *)calloc((size_t)num_columns, sizeof *views);
  GCOL_DETAIL_CHECK(views != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d inputs",
                    (int)num_columns);
  for (int32_t j = 0; j < num_columns; ++j) views[j] = gcol_column_get_view(columns[j]);
  GCOL_DETAIL_TRY(concatenate_columns(views, columns, num_columns, stream, mr, out));
done:
  free(views);
  return status;
}

/* ---------------------------------------------------------------- public */

/* Checks a list of views for concatenation: present, well formed, one type. */
static gcol_status check_concat_inputs(const gcol_column_view *columns, int32_t num_columns) {
  GCOL_DETAIL_REQUIRE(columns != NULL, GCOL_ERROR_INVALID_ARGUMENT, "columns is NULL");
  GCOL_DETAIL_REQUIRE(num_columns >= 1, GCOL_ERROR_INVALID_ARGUMENT,
                      "num_columns must be at least 1 (%d)", (int)num_columns);
  for (int32_t j = 0; j < num_columns; ++j) {
    char what[32];
    snprintf(what, sizeof what, "columns[%d]", (int)j);
    gcol_status const st = gcol_detail_copying_check_view(columns[j], what);
    if (st != GCOL_OK) return st;
    GCOL_DETAIL_REQUIRE(gcol_detail_types_match(columns[j], columns[0]), GCOL_ERROR_TYPE_MISMATCH,
                        "columns[%d] has type %s (or different children), columns[0] %s", (int)j,
                        gcol_type_name(columns[j].type.id), gcol_type_name(columns[0].type.id));
  }
  return GCOL_OK;
}

extern "C" gcol_status gcol_concatenate(const gcol_column_view *columns, int32_t num_columns,
                                        gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_concatenate");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_concat_inputs(columns, num_columns));
  GCOL_DETAIL_TRY(gcol_detail_concatenate(columns, num_columns, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_concatenate_tables(const gcol_table_view *tables, int32_t num_tables,
                                               gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view *views = NULL;
  gcol_column **columns = NULL;
  int32_t num_columns = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_concatenate_tables");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(tables);
  GCOL_DETAIL_CHECK(num_tables >= 1, GCOL_ERROR_INVALID_ARGUMENT,
                    "num_tables must be at least 1 (%d)", (int)num_tables);
  num_columns = tables[0].num_columns;
  for (int32_t t = 0; t < num_tables; ++t) {
    GCOL_DETAIL_TRY(gcol_detail_copying_check_table(tables[t], "tables"));
    GCOL_DETAIL_CHECK(tables[t].num_columns == num_columns, GCOL_ERROR_SIZE_MISMATCH,
                      "tables[%d] has %d columns, tables[0] %d", (int)t, (int)tables[t].num_columns,
                      (int)num_columns);
  }
  views = (gcol_column_view *)calloc((size_t)num_tables, sizeof *views);
  columns = (gcol_column **)calloc(num_columns > 0 ? (size_t)num_columns : 1, sizeof *columns);
  GCOL_DETAIL_CHECK(views != NULL && columns != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d tables", (int)num_tables);
  for (int32_t c = 0; c < num_columns; ++c) {
    for (int32_t t = 0; t < num_tables; ++t) views[t] = tables[t].columns[c];
    GCOL_DETAIL_TRY(check_concat_inputs(views, num_tables));
    GCOL_DETAIL_TRY(gcol_detail_concatenate(views, num_tables, stream, mr, &columns[c]));
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, num_columns, out));
  for (int32_t c = 0; c < num_columns; ++c) columns[c] = NULL;
done:
  if (columns != NULL) {
    for (int32_t c = 0; c < num_columns; ++c) gcol_column_free(columns[c]);
    free(columns);
  }
  free(views);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Deep copies of `num` row ranges [bounds[2k], bounds[2k+1]); out[k] all NULL on failure. */
static gcol_status copy_ranges(gcol_table_view source, const int64_t *bounds, int32_t num,
                               gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view *storage = (gcol_column_view *)calloc(
      source.num_columns > 0 ? (size_t)source.num_columns : 1, sizeof *storage);
  GCOL_DETAIL_CHECK(storage != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d columns",
                    (int)source.num_columns);
  for (int32_t k = 0; k < num; ++k) {
    gcol_table_view piece;
    GCOL_DETAIL_TRY(
        gcol_table_view_slice(source, bounds[2 * k], bounds[2 * k + 1], storage, &piece));
    GCOL_DETAIL_TRY(gcol_table_copy(piece, stream, mr, &out[k]));
  }
done:
  if (status != GCOL_OK) {
    for (int32_t k = 0; k < num; ++k) {
      gcol_table_free(out[k]);
      out[k] = NULL;
    }
  }
  free(storage);
  return status;
}

extern "C" gcol_status gcol_slice_copy(gcol_table_view source, const int64_t *bounds,
                                       int32_t num_slices, gcol_table **out, gcol_stream stream,
                                       gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_slice_copy");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CHECK(num_slices >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_slices is negative (%d)",
                    (int)num_slices);
  for (int32_t k = 0; k < num_slices; ++k) out[k] = NULL;
  GCOL_DETAIL_CHECK(num_slices == 0 || bounds != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "bounds is NULL");
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(source, "source"));
  for (int32_t k = 0; k < num_slices; ++k) {
    GCOL_DETAIL_CHECK(0 <= bounds[2 * k] && bounds[2 * k] <= bounds[2 * k + 1] &&
                          bounds[2 * k + 1] <= source.num_rows,
                      GCOL_ERROR_INVALID_ARGUMENT, "slice %d [%lld, %lld) is not within [0, %lld]",
                      (int)k, (long long)bounds[2 * k], (long long)bounds[2 * k + 1],
                      (long long)source.num_rows);
  }
  GCOL_DETAIL_TRY(copy_ranges(source, bounds, num_slices, out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_split_copy(gcol_table_view source, const int64_t *splits,
                                       int32_t num_splits, gcol_table **out, gcol_stream stream,
                                       gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int64_t *bounds = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_split_copy");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CHECK(num_splits >= 0 && num_splits < INT32_MAX, GCOL_ERROR_INVALID_ARGUMENT,
                    "num_splits is out of range (%d)", (int)num_splits);
  for (int32_t k = 0; k <= num_splits; ++k) out[k] = NULL;
  GCOL_DETAIL_CHECK(num_splits == 0 || splits != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "splits is NULL");
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(source, "source"));
  bounds = (int64_t *)malloc(sizeof(int64_t) * 2 * ((size_t)num_splits + 1));
  GCOL_DETAIL_CHECK(bounds != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d splits",
                    (int)num_splits);
  for (int32_t k = 0; k <= num_splits; ++k) {
    bounds[2 * k] = k == 0 ? 0 : splits[k - 1];
    bounds[2 * k + 1] = k == num_splits ? source.num_rows : splits[k];
    GCOL_DETAIL_CHECK(0 <= bounds[2 * k] && bounds[2 * k] <= bounds[2 * k + 1] &&
                          bounds[2 * k + 1] <= source.num_rows,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "splits must ascend within [0, %lld]; piece %d is [%lld, %lld)",
                      (long long)source.num_rows, (int)k, (long long)bounds[2 * k],
                      (long long)bounds[2 * k + 1]);
  }
  GCOL_DETAIL_TRY(copy_ranges(source, bounds, num_splits + 1, out, stream, mr));
done:
  free(bounds);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
