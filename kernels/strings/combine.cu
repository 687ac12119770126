/*
 * Joining strings (strings/combine.h). Rows of several columns and the lists of a LIST
 * column share one count pass and one write pass, a thread per output row over the
 * per-row functions of combine_ops.h (the operation a uniform switch):
 *   1. count: each row's bytes (0 when null) and validity byte, a flag where a row passes
 *      `limit`, the nulls counted; gcol_detail_strings_offsets_limited: the shared int64
 *      scan, one synchronization reads the total, the flag and the nulls, the offsets (INT32
 *      or INT64 by the total);
 *   2. each valid row writes its bytes at its offset, and the validity bytes become the
 *      mask.
 * gcol_strings_join (a whole column into one string) has its own two kernels, a thread per
 * input row: each included row counts its separator and bytes, the scan places them, and
 * the first included row drops its separator.
 * Scalar separators and replacements are copied to the device as rows of one small strings
 * view; a scalar separator is a one-row separators view read by every row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "gcol/strings/combine.h"
#include "strings/combine_ops.h"
#include "strings/strings_common.h"

typedef enum combine_op { COMBINE_COLUMNS = 0, COMBINE_LISTS } combine_op;

typedef struct combine_args {
  int op;
  const gcol_strings_view *columns; /* COLUMNS: device array */
  int32_t num_columns;
  gcol_offsetalator lists; /* LISTS: list offsets at row 0, its mask, the values */
  const uint32_t *list_mask;
  int64_t list_mask_offset;
  gcol_strings_view values;
  gcol_strings_view seps; /* 1 row: every row's separator; else row i's (null: null row) */
  gcol_string_ref sep;    /* a scalar separator's device bytes (join) */
  gcol_detail_narep narep;
} combine_args;

static __device__ bool combine_row(const combine_args *a, int64_t i, gcol_detail_sink *k) {
  int64_t const si = a->seps.size == 1 ? 0 : i;
  if (!gcol_strings_view_is_valid(a->seps, si)) return false;
  gcol_string_ref const sep = gcol_strings_view_get(a->seps, si);
  if (a->op == COMBINE_COLUMNS) {
    return gcol_detail_concat_row(a->columns, a->num_columns, i, sep, a->narep, k);
  }
  if (!gcol_bit_is_set_or_null_mask(a->list_mask, a->list_mask_offset + i)) return false;
  return gcol_detail_join_range(a->values, gcol_offsetalator_get(a->lists, i),
                                gcol_offsetalator_get(a->lists, i + 1), sep, a->narep, k);
}

/* sizes[i] = bytes of row i, valid[i] its validity; sizes[n + 1] = 1 where a row passes
 * limit; sizes[n + 2] counts the null rows (the caller zeroes both). */
static __global__ void gcol_detail_combine_sizes_kernel(combine_args a, int64_t n, int64_t limit,
                                                        int64_t *sizes, uint8_t *valid) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    gcol_detail_sink k = gcol_detail_sink_make(NULL);
    bool const ok = combine_row(&a, i, &k);
    int64_t size = ok ? k.size : 0;
    if (size > limit) {
      sizes[n + 1] = 1;
      size = 0;
    }
    sizes[i] = size;
    valid[i] = ok ? 1 : 0;
    if (!ok) atomicAdd((unsigned long long *)(sizes + n + 2), 1ull);
  }
}

static __global__ void gcol_detail_combine_write_kernel(combine_args a, int64_t n,
                                                        const int64_t *offsets,
                                                        const uint8_t *valid, char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    if (valid[i] == 0) continue;
    gcol_detail_sink k = gcol_detail_sink_make(chars + offsets[i]);
    combine_row(&a, i, &k);
  }
}

/* Pass 1, the scan and the offsets (from mr) into *sizes (n + 3 int64) and *valid (n bytes),
 * both temporaries; reads back the total and the nulls (synchronizes). */
static gcol_status combine_offsets(const combine_args *args, int64_t n, gcol_stream stream,
                                   gcol_mr *mr, gcol_buffer **sizes, gcol_buffer **valid,
                                   gcol_column **offsets, int64_t *total, int64_t *nulls) {
  gcol_status status = GCOL_OK;
  int64_t tail[3] = {0, 0, 0}; /* the total, the flag, the nulls */
  int64_t *sz = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 3, stream, sizes));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n, stream, NULL, valid));
  sz = (int64_t *)(*sizes)->data;
  gcol_detail_combine_sizes_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                     GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(
      *args, n, INT64_MAX / (n + 1), sz, (uint8_t *)(*valid)->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_strings_offsets_limited(sz, n, tail, 3, stream, mr, offsets));
  *total = tail[0];
  *nulls = tail[2];
done:
  return status;
}

/* An empty STRING column. */
static gcol_status empty_strings(gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_column_view const v =
      gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 0, NULL, NULL, 0);
  return gcol_column_empty_like(v, stream, mr, out);
}

/* The whole operation once the arguments are checked: *out has n rows. */
static gcol_status combine_strings(const combine_args *args, int64_t n, gcol_stream stream,
                                   gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *sizes = NULL, *valid = NULL, *chars = NULL, *mask = NULL;
  gcol_column *offsets = NULL;
  int64_t total = 0, nulls = 0;
  if (n == 0) {
    GCOL_DETAIL_TRY(empty_strings(stream, mr, out));
    goto done;
  }
  GCOL_DETAIL_TRY(combine_offsets(args, n, stream, mr, &sizes, &valid, &offsets, &total, &nulls));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  gcol_detail_combine_write_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                     GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      *args, n, (const int64_t *)sizes->data, (const uint8_t *)valid->data, (char *)chars->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_detail_strings_flags_mask((const uint8_t *)valid->data, n, nulls, stream, mr, &mask));
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, mask, nulls, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_buffer_free(sizes);
  gcol_buffer_free(valid);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  return status;
}

/* ---------------------------------------------------------------- arguments */

/* The bytes of an optional null replacement (NULL: none). */
static gcol_status narep_read(const gcol_scalar *narep, const char **data, int64_t *size) {
  *data = "";
  *size = 0;
  if (narep == NULL) return GCOL_OK;
  return gcol_detail_strings_scalar(narep, "null_replacement", data, size);
}

/* The separator (when `sep` is not NULL) and the replacement as rows 0 and 1 of a device
 * strings view: args->seps is row 0 alone, args->narep row 1 (valid when given). */
static gcol_status scalars_to_device(const char *sep, int64_t sep_size, const char *narep,
                                     int64_t narep_size, bool has_narep, gcol_stream stream,
                                     gcol_buffer **buf, combine_args *args) {
  gcol_status status = GCOL_OK;
  gcol_strings_view pair;
  const char *const rows[2] = {narep, sep};
  int64_t const sizes[2] = {narep_size, sep_size};
  GCOL_DETAIL_TRY(
      gcol_detail_strings_list_to_device(rows, sizes, sep != NULL ? 2 : 1, stream, buf, &pair));
  args->narep.text = gcol_string_ref_make(pair.chars, narep_size);
  args->narep.valid = has_narep;
  if (sep != NULL) {
    args->sep = gcol_string_ref_make(pair.chars + narep_size, sep_size);
    args->seps = pair;
    args->seps.offsets.data = (const int64_t *)pair.offsets.data + 1;
    args->seps.size = 1;
  }
done:
  return status;
}

/* Fails unless every column of `columns` is STRING with columns.num_rows rows (at least one
 * column). */
static gcol_status check_columns(gcol_table_view columns) {
  gcol_status status = GCOL_OK;
  char what[32];
  GCOL_DETAIL_CHECK(columns.num_columns > 0 && columns.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "columns has no column");
  for (int32_t c = 0; c < columns.num_columns; ++c) {
    snprintf(what, sizeof what, "columns[%d]", (int)c);
    GCOL_DETAIL_TRY(gcol_detail_strings_check(columns.columns[c], what));
    GCOL_DETAIL_CHECK(columns.columns[c].size == columns.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                      "%s has %lld rows, columns.num_rows %lld", what,
                      (long long)columns.columns[c].size, (long long)columns.num_rows);
  }
done:
  return status;
}

/* The columns' views as a device array (a temporary). */
static gcol_status columns_to_device(gcol_table_view columns, gcol_stream stream, gcol_buffer **buf,
                                     combine_args *args) {
  gcol_status status = GCOL_OK;
  int32_t const k = columns.num_columns;
  gcol_strings_view *views = (gcol_strings_view *)calloc((size_t)k, sizeof *views);
  GCOL_DETAIL_CHECK(views != NULL, GCOL_ERROR_OUT_OF_MEMORY, "%d column views", (int)k);
  for (int32_t c = 0; c < k; ++c)
    GCOL_DETAIL_TRY(gcol_strings_view_make(columns.columns[c], &views[c]));
  GCOL_DETAIL_TRY(
      gcol_detail_strings_to_device(views, (int64_t)k * (int64_t)sizeof *views, stream, buf));
  args->columns = (const gcol_strings_view *)(*buf)->data;
  args->num_columns = k;
done:
  free(views);
  return status;
}

/* Fails unless `sep` is a STRING column of `rows` rows. */
static gcol_status check_separators(gcol_column_view seps, int64_t rows) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(seps, "separators"));
  GCOL_DETAIL_CHECK(seps.size == rows, GCOL_ERROR_SIZE_MISMATCH,
                    "separators has %lld rows, the input %lld", (long long)seps.size,
                    (long long)rows);
done:
  return status;
}

/* Fails unless `lists` is a LIST column whose values are STRING. */
static gcol_status check_lists(gcol_column_view lists) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_column_view_validate(lists, "lists"));
  GCOL_DETAIL_CHECK(lists.type.id == GCOL_LIST, GCOL_ERROR_TYPE_MISMATCH, "lists is %s, not LIST",
                    gcol_type_name(lists.type.id));
  GCOL_DETAIL_CHECK(lists.num_children > GCOL_LIST_VALUES_CHILD && lists.children != NULL,
                    GCOL_ERROR_INVALID_ARGUMENT, "lists has no values child");
  GCOL_DETAIL_TRY(
      gcol_detail_strings_check(lists.children[GCOL_LIST_VALUES_CHILD], "lists values"));
done:
  return status;
}

/* The list offsets, mask and values of `lists` into args. */
static gcol_status lists_args(gcol_column_view lists, combine_args *args) {
  gcol_status status = GCOL_OK;
  args->op = COMBINE_LISTS;
  args->list_mask = lists.null_mask;
  args->list_mask_offset = lists.offset;
  GCOL_DETAIL_TRY(gcol_strings_view_make(lists.children[GCOL_LIST_VALUES_CHILD], &args->values));
  if (lists.size > 0) GCOL_DETAIL_TRY(gcol_offsetalator_make(lists, &args->lists));
done:
  return status;
}

/* ---------------------------------------------------------------- concatenate */

static combine_args combine_args_make(combine_op op) {
  combine_args a;
  memset(&a, 0, sizeof a);
  a.op = (int)op;
  return a;
}

extern "C" gcol_status gcol_strings_concatenate(gcol_table_view columns,
                                                const gcol_scalar *separator,
                                                const gcol_scalar *null_replacement,
                                                gcol_column **out, gcol_stream stream,
                                                gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *views = NULL, *scalars = NULL;
  const char *sep = NULL, *narep = NULL;
  int64_t sep_size = 0, narep_size = 0;
  combine_args args = combine_args_make(COMBINE_COLUMNS);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_concatenate");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_columns(columns));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(separator, "separator", &sep, &sep_size));
  GCOL_DETAIL_TRY(narep_read(null_replacement, &narep, &narep_size));
  if (columns.num_rows > 0) {
    GCOL_DETAIL_TRY(columns_to_device(columns, stream, &views, &args));
    GCOL_DETAIL_TRY(scalars_to_device(sep, sep_size, narep, narep_size, null_replacement != NULL,
                                      stream, &scalars, &args));
  }
  GCOL_DETAIL_TRY(combine_strings(&args, columns.num_rows, stream, mr, out));
done:
  gcol_buffer_free(views);
  gcol_buffer_free(scalars);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_concatenate_column(gcol_table_view columns,
                                                       gcol_column_view separators,
                                                       const gcol_scalar *null_replacement,
                                                       gcol_column **out, gcol_stream stream,
                                                       gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *views = NULL, *scalars = NULL;
  const char *narep = NULL;
  int64_t narep_size = 0;
  combine_args args = combine_args_make(COMBINE_COLUMNS);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_concatenate_column");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_columns(columns));
  GCOL_DETAIL_TRY(check_separators(separators, columns.num_rows));
  GCOL_DETAIL_TRY(narep_read(null_replacement, &narep, &narep_size));
  if (columns.num_rows > 0) {
    GCOL_DETAIL_TRY(columns_to_device(columns, stream, &views, &args));
    GCOL_DETAIL_TRY(scalars_to_device(NULL, 0, narep, narep_size, null_replacement != NULL, stream,
                                      &scalars, &args));
    GCOL_DETAIL_TRY(gcol_strings_view_make(separators, &args.seps));
  }
  GCOL_DETAIL_TRY(combine_strings(&args, columns.num_rows, stream, mr, out));
done:
  gcol_buffer_free(views);
  gcol_buffer_free(scalars);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- join lists */

extern "C" gcol_status gcol_strings_join_lists(gcol_column_view lists, const gcol_scalar *separator,
                                               const gcol_scalar *null_replacement,
                                               gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *scalars = NULL;
  const char *sep = NULL, *narep = NULL;
  int64_t sep_size = 0, narep_size = 0;
  combine_args args = combine_args_make(COMBINE_LISTS);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_join_lists");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_lists(lists));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(separator, "separator", &sep, &sep_size));
  GCOL_DETAIL_TRY(narep_read(null_replacement, &narep, &narep_size));
  GCOL_DETAIL_TRY(lists_args(lists, &args));
  if (lists.size > 0) {
    GCOL_DETAIL_TRY(scalars_to_device(sep, sep_size, narep, narep_size, null_replacement != NULL,
                                      stream, &scalars, &args));
  }
  GCOL_DETAIL_TRY(combine_strings(&args, lists.size, stream, mr, out));
done:
  gcol_buffer_free(scalars);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_join_lists_column(gcol_column_view lists,
                                                      gcol_column_view separators,
                                                      const gcol_scalar *null_replacement,
                                                      gcol_column **out, gcol_stream stream,
                                                      gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *scalars = NULL;
  const char *narep = NULL;
  int64_t narep_size = 0;
  combine_args args = combine_args_make(COMBINE_LISTS);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_join_lists_column");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_lists(lists));
  GCOL_DETAIL_TRY(check_separators(separators, lists.size));
  GCOL_DETAIL_TRY(narep_read(null_replacement, &narep, &narep_size));
  GCOL_DETAIL_TRY(lists_args(lists, &args));
  if (lists.size > 0) {
    GCOL_DETAIL_TRY(scalars_to_device(NULL, 0, narep, narep_size, null_replacement != NULL, stream,
                                      &scalars, &args));
    GCOL_DETAIL_TRY(gcol_strings_view_make(separators, &args.seps));
  }
  GCOL_DETAIL_TRY(combine_strings(&args, lists.size, stream, mr, out));
done:
  gcol_buffer_free(scalars);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- join a column */

/* sizes[i] = separator + bytes of row i when it is included (valid, or replaced); 0 else. */
static __global__ void gcol_detail_join_sizes_kernel(gcol_strings_view s, int64_t sep_size,
                                                     gcol_detail_narep narep, int64_t limit,
                                                     int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    int64_t size = 0;
    if (gcol_strings_view_is_valid(s, i)) {
      size = sep_size + gcol_strings_view_size_bytes(s, i);
    } else if (narep.valid) {
      size = sep_size + narep.text.size;
    }
    if (size > limit) {
      sizes[s.size + 1] = 1;
      size = 0;
    }
    sizes[i] = size;
  }
}

/* Each included row at its scanned place less the dropped leading separator: its
 * separator, then its bytes; the first included row (place 0) writes no separator. */
static __global__ void gcol_detail_join_write_kernel(gcol_strings_view s, gcol_string_ref sep,
                                                     gcol_detail_narep narep, const int64_t *places,
                                                     char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    bool const first = places[i] == 0;
    gcol_detail_sink k = gcol_detail_sink_make(chars + (first ? 0 : places[i] - sep.size));
    gcol_detail_join_put(s, i, first ? 0 : 1, sep, narep, &k);
  }
}

/* offsets[0] = 0, offsets[1] = bytes: the one row's offsets as int64. */
static __global__ void gcol_detail_join_offsets_kernel(int64_t *offsets, int64_t bytes) {
  offsets[0] = 0;
  offsets[1] = bytes;
}

/* The one row's chars and offsets of a non-empty input; *bytes its size. */
static gcol_status join_rows(gcol_strings_view s, const combine_args *args, int64_t sep_size,
                             bool any_included, gcol_stream stream, gcol_mr *mr,
                             gcol_buffer **chars, gcol_column **offsets) {
  gcol_status status = GCOL_OK;
  gcol_buffer *places = NULL;
  int64_t const n = s.size;
  int64_t tail[2] = {0, 0};
  int64_t bytes = 0;
  int64_t *p = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 2, stream, &places));
  p = (int64_t *)places->data;
  gcol_detail_join_sizes_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, sep_size, args->narep,
                                                                         INT64_MAX / (n + 1), p);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan(p, p, n, tail, 2, stream));
  GCOL_DETAIL_CHECK(tail[1] == 0, GCOL_ERROR_OVERFLOW,
                    "the joined row would pass INT64_MAX bytes: too large to address");
  bytes = any_included ? tail[0] - sep_size : 0;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)bytes, stream, mr, chars));
  gcol_detail_join_write_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, args->sep, args->narep,
                                                                         p, (char *)(*chars)->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  gcol_detail_join_offsets_kernel<<<1, 1, 0, st>>>(p + n, bytes); /* after the writes read p */
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_detail_offsets_column(p + n, 2, gcol_detail_offsets_type(bytes), stream, mr, offsets));
done:
  gcol_buffer_free(places);
  return status;
}

extern "C" gcol_status gcol_strings_join(gcol_column_view input, const gcol_scalar *separator,
                                         const gcol_scalar *null_replacement, gcol_column **out,
                                         gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *scalars = NULL, *chars = NULL, *mask = NULL;
  gcol_column *offsets = NULL;
  const char *sep = NULL, *narep = NULL;
  int64_t sep_size = 0, narep_size = 0, nulls = 0;
  gcol_strings_view s;
  combine_args args = combine_args_make(COMBINE_COLUMNS);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_join");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(separator, "separator", &sep, &sep_size));
  GCOL_DETAIL_TRY(narep_read(null_replacement, &narep, &narep_size));
  GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
  GCOL_DETAIL_TRY(gcol_column_view_null_count(input, stream, &nulls));
  GCOL_DETAIL_TRY(scalars_to_device(sep, sep_size, narep, narep_size, null_replacement != NULL,
                                    stream, &scalars, &args));
  /* an included row (valid, or replaced) is the first to drop its separator */
  GCOL_DETAIL_TRY(join_rows(s, &args, sep_size,
                            input.size > 0 && (null_replacement != NULL || nulls < input.size),
                            stream, mr, &chars, &offsets));
  if (input.size > 0 && nulls == input.size && null_replacement == NULL) {
    GCOL_DETAIL_TRY(gcol_bitmask_create(1, GCOL_MASK_ALL_NULL, stream, mr, &mask));
  }
  GCOL_DETAIL_TRY(gcol_column_make_strings(1, offsets, chars, mask, mask != NULL ? 1 : 0, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_buffer_free(scalars);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
