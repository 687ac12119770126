/* CSV writer, host part (include/gcol/io/csv.h): options, each column as the row kernel reads it
 * (strings through a view, numbers, booleans and timestamps in place), the header; the rows are
 * formatted on the GPU by kernels/io/csv_write.cu. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/csv.h"
#include "internal/error.h"
#include "internal/nvtx.h"

void gcol_csv_write_options_init(gcol_csv_write_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->delimiter = ',';
  options->quote = '"';
  options->header = true;
  options->null_value = "";
  options->true_value = "true";
  options->false_value = "false";
  options->line_terminator = "\n";
}

void gcol_csv_buffer_free(void *data) { free(data); }

gcol_status gcol_detail_csv_check_write_options(const gcol_csv_write_options *o) {
  GCOL_DETAIL_REQUIRE(o != NULL, GCOL_ERROR_INVALID_ARGUMENT, "options is NULL");
  GCOL_DETAIL_REQUIRE(o->delimiter != '\n' && o->delimiter != '\r' && o->quote != '\n' &&
                          o->quote != '\r' && o->delimiter != o->quote,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "options: the delimiter and the quote must differ and not be newlines");
  GCOL_DETAIL_REQUIRE(o->null_value != NULL && o->true_value != NULL && o->false_value != NULL,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "options: null_value, true_value and false_value must not be NULL");
  GCOL_DETAIL_REQUIRE(o->line_terminator != NULL && (strcmp(o->line_terminator, "\n") == 0 ||
                                                     strcmp(o->line_terminator, "\r\n") == 0),
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "options->line_terminator must be \"\\n\" or \"\\r\\n\"");
  return GCOL_OK;
}

/* The header row (malloc'ed), or an empty one when not wanted. */
static gcol_status make_header(const gcol_csv_write_options *o, gcol_detail_csv_dialect d,
                               int32_t columns, char **out, int64_t *size) {
  int64_t total = 0;
  char name[32];
  *out = NULL;
  *size = 0;
  if (!o->header || columns == 0) return GCOL_OK;
  for (int pass = 0; pass < 2; ++pass) {
    int64_t n = 0;
    for (int32_t c = 0; c < columns; ++c) {
      const char *s = name;
      if (o->column_names != NULL && o->column_names[c] != NULL) {
        s = o->column_names[c];
      } else {
        snprintf(name, sizeof name, "c%d", c);
      }
      if (c > 0) {
        if (*out != NULL) (*out)[n] = o->delimiter;
        ++n;
      }
      n += gcol_detail_csv_put_field(d, s, (int64_t)strlen(s), *out != NULL ? *out + n : NULL);
    }
    size_t const t = strlen(o->line_terminator);
    if (*out != NULL) memcpy(*out + n, o->line_terminator, t);
    n += (int64_t)t;
    if (pass == 0) {
      total = n;
      *out = (char *)malloc((size_t)total);
      GCOL_DETAIL_REQUIRE(*out != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    }
  }
  *size = total;
  return GCOL_OK;
}

/* Column c as the row kernel reads it: strings through a view, the rest in place (numbers
 * are formatted by the row kernel with gcol_cast's functions: no STRING column in between). */
static gcol_status writer_column(gcol_column_view v, int32_t c, gcol_detail_csv_wcol *w) {
  gcol_type_id const id = v.type.id;
  memset(w, 0, sizeof *w);
  if (id == GCOL_STRING) {
    w->kind = 0;
    return gcol_strings_view_make(v, &w->s);
  }
  bool const integral = gcol_type_is_integral(id), floating = gcol_type_is_floating(id);
  GCOL_DETAIL_REQUIRE(integral || floating || id == GCOL_BOOL8 || gcol_type_is_timestamp(id),
                      GCOL_ERROR_UNSUPPORTED, "column %d: the CSV writer does not write %s", c,
                      gcol_type_name(id));
  w->kind = integral ? 3 : floating ? 4 : id == GCOL_BOOL8 ? 1 : 2;
  w->unit = gcol_type_is_timestamp(id) ? (int)(id - GCOL_TIMESTAMP_DAYS) : 0;
  w->width = (int)gcol_type_size(id);
  w->is_unsigned = gcol_type_is_unsigned_integral(id);
  w->data = (const uint8_t *)v.data + v.offset * (int64_t)gcol_type_size(id);
  w->mask = v.null_mask;
  w->mask_offset = v.offset;
  return GCOL_OK;
}

gcol_status gcol_csv_write_buffer(gcol_table_view table, const gcol_csv_write_options *options,
                                  void **data, int64_t *size, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_csv_write_options defaults;
  gcol_detail_csv_wcol *cols = NULL;
  char *header = NULL, *text = NULL;
  int64_t header_size = 0, text_size = 0;
  int32_t const C = table.num_columns;
  GCOL_DETAIL_NVTX_PUSH("gcol_csv_write_buffer");
  GCOL_DETAIL_CHECK_NOT_NULL(data);
  *data = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(size);
  *size = 0;
  GCOL_DETAIL_CHECK(C >= 0 && (C == 0 || table.columns != NULL), GCOL_ERROR_INVALID_ARGUMENT,
                    "table: NULL columns or a negative count");
  if (options == NULL) {
    gcol_csv_write_options_init(&defaults);
    options = &defaults;
  }
  GCOL_DETAIL_TRY(gcol_detail_csv_check_write_options(options));
  int64_t const rows = C > 0 ? table.columns[0].size : 0;
  cols = (gcol_detail_csv_wcol *)calloc((size_t)(C > 0 ? C : 1), sizeof *cols);
  GCOL_DETAIL_CHECK(cols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t c = 0; c < C; ++c) {
    GCOL_DETAIL_CHECK(table.columns[c].size == rows, GCOL_ERROR_SIZE_MISMATCH,
                      "table: column %d has %lld rows, column 0 %lld", c,
                      (long long)table.columns[c].size, (long long)rows);
    GCOL_DETAIL_TRY(writer_column(table.columns[c], c, &cols[c]));
  }
  gcol_detail_csv_dialect const d =
      gcol_detail_csv_dialect_make(options->delimiter, options->quote, 0, 0);
  GCOL_DETAIL_TRY(make_header(options, d, C, &header, &header_size));
  GCOL_DETAIL_TRY(gcol_detail_csv_write_rows(
      cols, C, C > 0 ? rows : 0, d, options->null_value, options->true_value,
      options->false_value, options->line_terminator, header, header_size, stream, &text,
      &text_size));
  *data = text;
  *size = text_size;
done:
  free(cols);
  free(header);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status csv_write_file(gcol_table_view table, const gcol_csv_write_options *options,
                                  const char *path, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  void *text = NULL;
  int64_t size = 0;
  FILE *f = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(path);
  GCOL_DETAIL_TRY(gcol_csv_write_buffer(table, options, &text, &size, stream));
  f = fopen(path, "wb");
  GCOL_DETAIL_CHECK(f != NULL, GCOL_ERROR_INVALID_ARGUMENT, "cannot create '%s'", path);
  GCOL_DETAIL_CHECK(fwrite(text, 1, (size_t)size, f) == (size_t)size, GCOL_ERROR_INVALID_ARGUMENT,
                    "cannot write '%s'", path);
done:
  if (f != NULL && fclose(f) != 0 && status == GCOL_OK) {
    status = gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "cannot write '%s'", path);
  }
  free(text);
  return status;
}

gcol_status gcol_csv_write_file(gcol_table_view table, const gcol_csv_write_options *options,
                                const char *path, gcol_stream stream) {
  GCOL_DETAIL_NVTX_PUSH("gcol_csv_write_file");
  gcol_status const status = csv_write_file(table, options, path, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
