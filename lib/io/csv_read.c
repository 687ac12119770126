/* CSV reader, host part (include/gcol/io/csv.h): options, the skipped rows and the header (found
 * on the host with the same automaton the kernels run, since they sit at the start), the column
 * count, names and types; kernels/io/csv_read.cu does the rest on the GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/io/staging.h"
#include "internal/csv.h"
#include "internal/error.h"
#include "internal/nvtx.h"
#include "internal/parquet.h" /* the path read with pread on several threads */

static const char *const default_nulls[] = {""};
static const char *const default_trues[] = {"true", "True", "TRUE"};
static const char *const default_falses[] = {"false", "False", "FALSE"};

void gcol_csv_read_options_init(gcol_csv_read_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->delimiter = ',';
  options->quote = '"';
  options->has_header = true;
  options->max_rows = -1;
}

void gcol_csv_names_free(gcol_csv_names *names) {
  if (names == NULL) return;
  for (int32_t i = 0; i < names->num_names; ++i) free(names->names[i]);
  free(names->names);
  free(names);
}

gcol_detail_csv_dialect gcol_detail_csv_dialect_make(char delimiter, char quote, char escape,
                                                     char comment) {
  gcol_detail_csv_dialect d;
  d.delimiter = (uint8_t)delimiter;
  d.quote = quote != 0 ? (uint8_t)quote : -1;
  d.escape = escape != 0 ? (uint8_t)escape : -1;
  d.comment = comment != 0 ? (uint8_t)comment : -1;
  return d;
}

/* Fails unless the special bytes are distinct and none is a newline. */
static gcol_status check_bytes(const char *what, char delimiter, char quote, char escape,
                               char comment) {
  const char bytes[4] = {delimiter, quote, escape, comment};
  const char *names[4] = {"delimiter", "quote", "escape", "comment"};
  for (int i = 0; i < 4; ++i) {
    if (i > 0 && bytes[i] == 0) continue;
    GCOL_DETAIL_REQUIRE(bytes[i] != '\n' && bytes[i] != '\r', GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: the %s is a newline", what, names[i]);
    for (int j = 0; j < i; ++j) {
      GCOL_DETAIL_REQUIRE(bytes[i] != bytes[j], GCOL_ERROR_INVALID_ARGUMENT,
                          "%s: the %s and the %s are the same byte (0x%02x)", what, names[j],
                          names[i], (unsigned)(uint8_t)bytes[i]);
    }
  }
  return GCOL_OK;
}

/* Fails unless `list` has `count` non-NULL entries (count >= 0; NULL list with count 0 ok). */
static gcol_status check_list(const char *const *list, int32_t count, const char *what) {
  GCOL_DETAIL_REQUIRE(count >= 0, GCOL_ERROR_INVALID_ARGUMENT, "options->num_%s is negative (%d)",
                      what, count);
  GCOL_DETAIL_REQUIRE(count == 0 || list != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "options->%s is NULL but num_%s is %d", what, what, count);
  for (int32_t i = 0; i < count; ++i) {
    GCOL_DETAIL_REQUIRE(list[i] != NULL, GCOL_ERROR_INVALID_ARGUMENT, "options->%s[%d] is NULL",
                        what, i);
  }
  return GCOL_OK;
}

static bool readable_type(gcol_type_id id) {
  return id == GCOL_EMPTY || id == GCOL_STRING || id == GCOL_BOOL8 ||
         (id >= GCOL_INT8 && id <= GCOL_FLOAT64) ||
         (id >= GCOL_TIMESTAMP_DAYS && id <= GCOL_TIMESTAMP_NANOSECONDS);
}

gcol_status gcol_detail_csv_check_read_options(const gcol_csv_read_options *o) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_REQUIRE(o != NULL, GCOL_ERROR_INVALID_ARGUMENT, "options is NULL");
  status = check_bytes("options", o->delimiter, o->quote, o->escape, o->comment);
  if (status != GCOL_OK) return status;
  if ((status = check_list(o->column_names, o->num_column_names, "column_names")) != GCOL_OK ||
      (status = check_list(o->null_values, o->null_values ? o->num_null_values : 0,
                           "null_values")) != GCOL_OK ||
      (status = check_list(o->true_values, o->true_values ? o->num_true_values : 0,
                           "true_values")) != GCOL_OK ||
      (status = check_list(o->false_values, o->false_values ? o->num_false_values : 0,
                           "false_values")) != GCOL_OK) {
    return status;
  }
  GCOL_DETAIL_REQUIRE(o->num_column_types >= 0 && (o->num_column_types == 0 || o->column_types),
                      GCOL_ERROR_INVALID_ARGUMENT, "options->column_types: NULL or a negative count");
  for (int32_t i = 0; i < o->num_column_types; ++i) {
    gcol_type_id const id = o->column_types[i].id;
    GCOL_DETAIL_REQUIRE(id >= 0 && id < GCOL_NUM_TYPE_IDS, GCOL_ERROR_INVALID_ARGUMENT,
                        "options->column_types[%d]: type id %d out of range", i, (int)id);
    GCOL_DETAIL_REQUIRE(readable_type(id), GCOL_ERROR_UNSUPPORTED,
                        "options->column_types[%d]: the CSV reader does not produce %s", i,
                        gcol_type_name(id));
  }
  GCOL_DETAIL_REQUIRE(o->skip_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "options->skip_rows is negative (%lld)", (long long)o->skip_rows);
  GCOL_DETAIL_REQUIRE(o->max_rows >= -1, GCOL_ERROR_INVALID_ARGUMENT,
                      "options->max_rows is below -1 (%lld)", (long long)o->max_rows);
  GCOL_DETAIL_REQUIRE(o->byte_range_offset >= 0 && o->byte_range_size >= 0,
                      GCOL_ERROR_INVALID_ARGUMENT, "options->byte_range: negative offset or size");
  return GCOL_OK;
}

/* A list packed as offsets + chars (malloc'ed; *chars and *offsets are freed by the caller). */
static gcol_status pack_list(const char *const *list, int32_t count, char **chars,
                             int64_t **offsets) {
  int64_t total = 0;
  for (int32_t i = 0; i < count; ++i) total += (int64_t)strlen(list[i]);
  *offsets = (int64_t *)malloc((size_t)(count + 1) * sizeof **offsets);
  *chars = (char *)malloc((size_t)total + 1);
  GCOL_DETAIL_REQUIRE(*offsets != NULL && *chars != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "out of memory (%lld bytes of lists)", (long long)total);
  (*offsets)[0] = 0;
  for (int32_t i = 0; i < count; ++i) {
    size_t const n = strlen(list[i]);
    memcpy(*chars + (*offsets)[i], list[i], n);
    (*offsets)[i + 1] = (*offsets)[i] + (int64_t)n;
  }
  return GCOL_OK;
}

/* The position after the row that begins at `row` (its newline, where state START resumes). */
static int64_t row_end(gcol_detail_csv_dialect d, const uint8_t *bytes, int64_t row, int64_t end,
                       int64_t *fields, bool *in_quotes) {
  int64_t content_end = end;
  *fields = gcol_detail_csv_parse_row(d, bytes, row, end, NULL, 0, 0, &content_end, in_quotes);
  return content_end;
}

/* The header row's values as names (malloc'ed array of malloc'ed strings). */
static gcol_status header_names(gcol_detail_csv_dialect d, const uint8_t *bytes, int64_t row,
                                int64_t end, int64_t fields, char ***out) {
  gcol_status status = GCOL_OK;
  int64_t *begins = (int64_t *)malloc((size_t)fields * sizeof *begins);
  char **names = (char **)calloc((size_t)fields, sizeof *names);
  int64_t content_end = end;
  bool in_quotes = false;
  GCOL_DETAIL_CHECK(begins != NULL && names != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  gcol_detail_csv_parse_row(d, bytes, row, end, begins, 1, fields, &content_end, &in_quotes);
  for (int64_t k = 0; k < fields; ++k) {
    int64_t const e = k + 1 < fields ? begins[k + 1] - 1 : content_end;
    int64_t const n = gcol_detail_csv_field_size(d, bytes, begins[k], e);
    names[k] = (char *)malloc((size_t)n + 1);
    GCOL_DETAIL_CHECK(names[k] != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    gcol_detail_csv_field_copy(d, bytes, begins[k], e, (uint8_t *)names[k]);
    names[k][n] = '\0';
  }
  *out = names;
  names = NULL;
done:
  if (names != NULL) {
    for (int64_t k = 0; k < fields; ++k) free(names[k]);
    free(names);
  }
  free(begins);
  return status;
}

/* Where the data rows begin, the column count and the header's names (if any). */
typedef struct layout {
  int64_t data_begin;
  int64_t range_end;
  int64_t num_columns; /* -1: unknown */
  char **header;       /* num_columns names, or NULL */
} layout;

static gcol_status find_layout(const gcol_csv_read_options *o, gcol_detail_csv_dialect d,
                               const uint8_t *bytes, int64_t size, layout *l) {
  int64_t const off = o->byte_range_offset;
  GCOL_DETAIL_REQUIRE(off <= size, GCOL_ERROR_INVALID_ARGUMENT,
                      "options->byte_range_offset (%lld) is past the input's %lld bytes",
                      (long long)off, (long long)size);
  l->range_end = o->byte_range_size == 0 || o->byte_range_size > size - off
                     ? size
                     : off + o->byte_range_size;
  l->num_columns = -1;
  l->header = NULL;
  if (off > 0) { /* the byte before the range is taken to lie outside quotes */
    int const prev = bytes[off - 1];
    int const state = gcol_detail_csv_is_newline(prev) ? GCOL_DETAIL_CSV_START
                      : prev == d.delimiter           ? GCOL_DETAIL_CSV_FSTART
                                                      : GCOL_DETAIL_CSV_FIELD;
    l->data_begin = gcol_detail_csv_next_row(d, bytes, off, size, state);
    if (l->data_begin > l->range_end) l->data_begin = l->range_end;
    return GCOL_OK;
  }
  int64_t pos = size >= 3 && bytes[0] == 0xef && bytes[1] == 0xbb && bytes[2] == 0xbf ? 3 : 0;
  int64_t fields = 0;
  bool in_quotes = false;
  int64_t const header_rows = o->skip_rows + (o->has_header ? 1 : 0);
  for (int64_t k = 0; k < header_rows; ++k) {
    int64_t const row = gcol_detail_csv_next_row(d, bytes, pos, size, GCOL_DETAIL_CSV_START);
    if (row == size) {
      pos = size;
      break;
    }
    pos = row_end(d, bytes, row, size, &fields, &in_quotes);
    GCOL_DETAIL_REQUIRE(!in_quotes, GCOL_ERROR_INVALID_ARGUMENT,
                        "unterminated quote in %s row %lld (byte offset %lld)",
                        k < o->skip_rows ? "skipped" : "header", (long long)k, (long long)row);
    if (k == header_rows - 1 && o->has_header) {
      gcol_status const st = header_names(d, bytes, row, size, fields, &l->header);
      if (st != GCOL_OK) return st;
      l->num_columns = fields;
    }
  }
  l->data_begin = pos < l->range_end ? pos : l->range_end;
  return GCOL_OK;
}

/* The column count when neither names nor a header give it: the first data row's fields. */
static int64_t first_row_fields(gcol_detail_csv_dialect d, const uint8_t *bytes, int64_t size,
                                const layout *l) {
  int64_t const row = gcol_detail_csv_next_row(d, bytes, l->data_begin, l->range_end,
                                               GCOL_DETAIL_CSV_START);
  if (row >= l->range_end) return 0;
  int64_t fields = 0;
  bool in_quotes = false;
  row_end(d, bytes, row, size, &fields, &in_quotes);
  return fields;
}

static gcol_status make_names(const gcol_csv_read_options *o, const layout *l, int64_t num_columns,
                              gcol_csv_names **out) {
  gcol_status status = GCOL_OK;
  gcol_csv_names *names = (gcol_csv_names *)calloc(1, sizeof *names);
  GCOL_DETAIL_CHECK(names != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  names->names = (char **)calloc((size_t)(num_columns > 0 ? num_columns : 1), sizeof(char *));
  GCOL_DETAIL_CHECK(names->names != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  names->num_names = (int32_t)num_columns;
  for (int64_t k = 0; k < num_columns; ++k) {
    char buf[32];
    const char *src = buf;
    if (o->column_names != NULL) {
      src = o->column_names[k];
    } else if (l->header != NULL) {
      src = l->header[k];
    } else {
      snprintf(buf, sizeof buf, "c%lld", (long long)k);
    }
    size_t const n = strlen(src);
    names->names[k] = (char *)malloc(n + 1);
    GCOL_DETAIL_CHECK(names->names[k] != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    memcpy(names->names[k], src, n + 1);
  }
  *out = names;
  names = NULL;
done:
  gcol_csv_names_free(names);
  return status;
}

/* The number of columns, checked against the names and types given. */
static gcol_status column_count(const gcol_csv_read_options *o, gcol_detail_csv_dialect d,
                                const uint8_t *bytes, int64_t size, const layout *l,
                                int64_t *out) {
  int64_t n = l->num_columns;
  if (o->column_names != NULL) {
    GCOL_DETAIL_REQUIRE(n < 0 || n == o->num_column_names, GCOL_ERROR_INVALID_ARGUMENT,
                        "options->num_column_names (%d) differs from the header's %lld fields",
                        o->num_column_names, (long long)n);
    n = o->num_column_names;
  }
  if (n < 0 && o->column_types != NULL) n = o->num_column_types;
  if (n < 0) n = first_row_fields(d, bytes, size, l);
  GCOL_DETAIL_REQUIRE(o->column_types == NULL || o->num_column_types == n,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "options->num_column_types (%d) differs from the %lld columns",
                      o->num_column_types, (long long)n);
  GCOL_DETAIL_REQUIRE(n <= INT32_MAX, GCOL_ERROR_INVALID_ARGUMENT, "%lld columns: too many",
                      (long long)n);
  *out = n;
  return GCOL_OK;
}

gcol_status gcol_detail_csv_read(const void *data, int64_t size,
                                 const gcol_csv_read_options *options, int64_t chunk,
                                 gcol_table **out, gcol_csv_names **names, gcol_stream stream,
                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_csv_read_options defaults;
  layout l = {0, 0, -1, NULL};
  gcol_data_type *types = NULL;
  char *list_chars[3] = {NULL, NULL, NULL};
  int64_t *list_offsets[3] = {NULL, NULL, NULL};
  int64_t num_columns = 0;
  gcol_table *table = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  if (names != NULL) *names = NULL;
  GCOL_DETAIL_CHECK(data != NULL || size == 0, GCOL_ERROR_INVALID_ARGUMENT, "data is NULL");
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  /* a chunk is 256 pieces of at most GCOL_DETAIL_CSV_PIECE_MAX bytes (kernels/io/csv_read.cu) */
  GCOL_DETAIL_CHECK(chunk > 0 && chunk <= 256 * GCOL_DETAIL_CSV_PIECE_MAX,
                    GCOL_ERROR_INVALID_ARGUMENT, "chunk is %lld bytes, not in [1, %d]",
                    (long long)chunk, 256 * GCOL_DETAIL_CSV_PIECE_MAX);
  if (options == NULL) {
    gcol_csv_read_options_init(&defaults);
    options = &defaults;
  }
  GCOL_DETAIL_TRY(gcol_detail_csv_check_read_options(options));
  gcol_detail_csv_dialect const d = gcol_detail_csv_dialect_make(
      options->delimiter, options->quote, options->escape, options->comment);
  const uint8_t *bytes = (const uint8_t *)data;
  GCOL_DETAIL_TRY(find_layout(options, d, bytes, size, &l));
  GCOL_DETAIL_TRY(column_count(options, d, bytes, size, &l, &num_columns));

  types = (gcol_data_type *)calloc((size_t)(num_columns > 0 ? num_columns : 1), sizeof *types);
  GCOL_DETAIL_CHECK(types != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int64_t k = 0; k < num_columns; ++k) {
    types[k] = options->column_types != NULL ? options->column_types[k]
                                             : gcol_data_type_make(GCOL_EMPTY);
  }
  const char *const *lists[3] = {options->null_values ? options->null_values : default_nulls,
                                 options->true_values ? options->true_values : default_trues,
                                 options->false_values ? options->false_values : default_falses};
  int32_t const counts[3] = {options->null_values ? options->num_null_values : 1,
                             options->true_values ? options->num_true_values : 3,
                             options->false_values ? options->num_false_values : 3};
  gcol_detail_csv_plan plan;
  memset(&plan, 0, sizeof plan);
  for (int k = 0; k < 3; ++k) {
    GCOL_DETAIL_TRY(pack_list(lists[k], counts[k], &list_chars[k], &list_offsets[k]));
    plan.list_chars[k] = list_chars[k];
    plan.list_offsets[k] = list_offsets[k];
    plan.list_count[k] = counts[k];
  }
  plan.bytes = bytes;
  plan.size = size;
  plan.data_begin = l.data_begin;
  plan.range_end = l.range_end;
  plan.max_rows = options->max_rows;
  plan.chunk = chunk;
  plan.dialect = d;
  plan.num_columns = (int32_t)num_columns;
  plan.types = types;
  GCOL_DETAIL_TRY(gcol_detail_csv_read_device(&plan, stream, mr, &table));
  if (names != NULL) GCOL_DETAIL_TRY(make_names(options, &l, num_columns, names));
  *out = table;
  table = NULL;
done:
  gcol_table_free(table);
  if (l.header != NULL) {
    for (int64_t k = 0; k < l.num_columns; ++k) free(l.header[k]);
    free(l.header);
  }
  for (int k = 0; k < 3; ++k) {
    free(list_chars[k]);
    free(list_offsets[k]);
  }
  free(types);
  return status;
}

gcol_status gcol_csv_read_buffer(const void *data, int64_t size,
                                 const gcol_csv_read_options *options, gcol_table **out,
                                 gcol_csv_names **names, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_csv_read_buffer");
  gcol_status const status =
      gcol_detail_csv_read(data, size, options, GCOL_DETAIL_CSV_CHUNK, out, names, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* The text of `file` in staging memory (include/gcol/io/staging.h), read on up to 16 threads:
 * the reader's copies from it go at the link's speed (pageable text: ~5 GB/s on an H200's
 * host, page-locking it per call ~0.6 ms per MiB); NULL without staging memory. */
static uint8_t *staged_text(const gcol_detail_pq_file *file, gcol_mr *mr, gcol_stream stream) {
  void *bytes = NULL;
  size_t const size = (size_t)file->source.size + 1;
  if (mr == NULL || mr->kind != GCOL_MEMORY_PINNED ||
      gcol_mr_allocate(mr, &bytes, size, stream) != GCOL_OK) {
    gcol_clear_last_error();
    return NULL;
  }
  if (!gcol_detail_pq_read_range(file, 0, file->source.size, (uint8_t *)bytes,
                                 gcol_detail_pq_window_readers(1))) {
    gcol_mr_deallocate(mr, bytes, size, stream);
    return NULL; /* read again below, where a failure is named */
  }
  return (uint8_t *)bytes;
}

gcol_status gcol_csv_read_file(const char *path, const gcol_csv_read_options *options,
                               gcol_table **out, gcol_csv_names **names, gcol_stream stream,
                               gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_pq_file file;
  uint8_t *bytes = NULL, *staged = NULL;
  int64_t size = 0;
  gcol_mr *const staging = gcol_io_get_staging_mr();
  memset(&file, 0, sizeof file);
  GCOL_DETAIL_NVTX_PUSH("gcol_csv_read_file");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  if (names != NULL) *names = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(path);
  GCOL_DETAIL_CHECK(gcol_detail_pq_file_open(path, &file) == GCOL_OK, GCOL_ERROR_INVALID_ARGUMENT,
                    "cannot open '%s'", path);
  size = file.source.size;
  staged = staged_text(&file, staging, stream);
  if (staged == NULL) {
    bytes = (uint8_t *)malloc((size_t)size + 1);
    GCOL_DETAIL_CHECK(bytes != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory (%lld bytes of '%s')",
                      (long long)size, path);
    GCOL_DETAIL_CHECK(size == 0 || file.source.read(file.source.user, 0, size, bytes) == 0,
                      GCOL_ERROR_INVALID_ARGUMENT, "cannot read '%s'", path);
  }
  GCOL_DETAIL_TRY(gcol_detail_csv_read(staged != NULL ? staged : bytes, size, options,
                                       GCOL_DETAIL_CSV_CHUNK, out, names, stream, mr));
done:
  gcol_detail_pq_file_close(&file);
  free(bytes);
  /* after the copies out of it (the reader synchronized before returning a table) */
  if (staged != NULL) gcol_mr_deallocate(staging, staged, (size_t)size + 1, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
