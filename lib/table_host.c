/* Whole tables to and from host memory (include/gcol/table.h): the column host copies of
 * lib/column_host.c, column by column. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/table.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static bool host_copyable(gcol_type_id id) {
  return gcol_type_is_fixed_width(id) || id == GCOL_STRING;
}

static void host_column_clear(gcol_host_column *c) {
  free(c->data);
  free(c->offsets);
  free(c->valid);
  memset(c, 0, sizeof *c);
}

void gcol_host_table_free(gcol_host_table *table) {
  if (table == NULL) return;
  for (int32_t i = 0; i < table->num_columns && table->columns != NULL; ++i) {
    host_column_clear(&table->columns[i]);
  }
  free(table->columns);
  free(table);
}

/* One STRING column: the arrays of gcol_column_strings_copy_to_host, taken over. */
static gcol_status strings_to_host(gcol_column_view v, gcol_stream stream, gcol_host_column *c) {
  gcol_host_strings *s = NULL;
  gcol_status const status = gcol_column_strings_copy_to_host(v, stream, &s);
  if (status != GCOL_OK) return status;
  c->data = s->chars;
  c->offsets = s->offsets;
  if (v.null_mask != NULL) {
    c->valid = s->valid;
  } else {
    free(s->valid);
  }
  free(s);
  return GCOL_OK;
}

static gcol_status fixed_to_host(gcol_column_view v, gcol_stream stream, gcol_host_column *c) {
  size_t const rows = v.size > 0 ? (size_t)v.size : 1;
  c->data = malloc(rows * gcol_type_size(v.type.id));
  if (v.null_mask != NULL) c->valid = (uint8_t *)malloc(rows);
  GCOL_DETAIL_REQUIRE(c->data != NULL && (v.null_mask == NULL || c->valid != NULL),
                      GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %lld rows",
                      (long long)v.size);
  return gcol_column_copy_to_host(v, c->data, c->valid, stream);
}

/* One checked column's rows into c (its type and size set, its buffers allocated). */
static gcol_status column_to_host(gcol_column_view v, gcol_stream stream, gcol_host_column *c) {
  c->type = v.type;
  c->size = v.size;
  return v.type.id == GCOL_STRING ? strings_to_host(v, stream, c) : fixed_to_host(v, stream, c);
}

static gcol_status table_copy_to_host(gcol_table_view view, gcol_stream stream,
                                      gcol_host_table **out) {
  gcol_status status = GCOL_OK;
  gcol_host_table *t = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(view.num_columns >= 0 && (view.columns != NULL || view.num_columns == 0),
                    GCOL_ERROR_INVALID_ARGUMENT, "the table view has %d columns%s",
                    (int)view.num_columns, view.columns == NULL ? " and no column array" : "");
  for (int32_t i = 0; i < view.num_columns; ++i) {
    char name[48];
    gcol_data_type_format(view.columns[i].type, name, sizeof name);
    GCOL_DETAIL_CHECK(host_copyable(view.columns[i].type.id), GCOL_ERROR_UNSUPPORTED,
                      "column %d is %s (fixed-width and STRING columns are copied)", (int)i,
                      name);
  }
  t = (gcol_host_table *)calloc(1, sizeof *t);
  GCOL_DETAIL_CHECK(t != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  t->columns = (gcol_host_column *)calloc((size_t)(view.num_columns > 0 ? view.num_columns : 1),
                                          sizeof *t->columns);
  GCOL_DETAIL_CHECK(t->columns != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  t->num_columns = view.num_columns;
  t->num_rows = view.num_rows;
  for (int32_t i = 0; i < view.num_columns; ++i) {
    GCOL_DETAIL_TRY(column_to_host(view.columns[i], stream, &t->columns[i]));
  }
  *out = t;
  t = NULL;
done:
  gcol_host_table_free(t);
  return status;
}

gcol_status gcol_table_copy_to_host(gcol_table_view view, gcol_stream stream,
                                    gcol_host_table **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_copy_to_host");
  gcol_status const status = table_copy_to_host(view, stream, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_host_column_free(gcol_host_column *column) {
  if (column == NULL) return;
  host_column_clear(column);
  free(column);
}

static gcol_status column_copy_to_host_column(gcol_column_view view, gcol_stream stream,
                                              gcol_host_column **out) {
  gcol_status status = GCOL_OK;
  gcol_host_column *c = NULL;
  char name[48];
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(view, "view"));
  gcol_data_type_format(view.type, name, sizeof name);
  GCOL_DETAIL_CHECK(host_copyable(view.type.id), GCOL_ERROR_UNSUPPORTED,
                    "view is %s (fixed-width and STRING columns are copied)", name);
  c = (gcol_host_column *)calloc(1, sizeof *c);
  GCOL_DETAIL_CHECK(c != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  GCOL_DETAIL_TRY(column_to_host(view, stream, c));
  *out = c;
  c = NULL;
done:
  gcol_host_column_free(c);
  return status;
}

gcol_status gcol_column_copy_to_host_column(gcol_column_view view, gcol_stream stream,
                                            gcol_host_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_copy_to_host_column");
  gcol_status const status = column_copy_to_host_column(view, stream, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* One host column to the device; @p what names it in messages ("column 2", "host"). */
static gcol_status column_from_host(const gcol_host_column *c, const char *what, gcol_stream stream,
                                    gcol_mr *mr, gcol_column **out) {
  char name[48];
  gcol_data_type_format(c->type, name, sizeof name);
  GCOL_DETAIL_REQUIRE(host_copyable(c->type.id), GCOL_ERROR_UNSUPPORTED,
                      "%s is %s (fixed-width and STRING columns are copied)", what, name);
  if (c->type.id != GCOL_STRING) {
    return gcol_column_create_from_host(c->type, c->size, c->data, c->valid, stream, mr, out);
  }
  GCOL_DETAIL_REQUIRE(c->offsets != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s is STRING without offsets", what);
  return gcol_column_create_strings_from_host_offsets(c->size, (const char *)c->data, c->offsets,
                                                      c->valid, stream, mr, out);
}

static gcol_status column_create_from_host_column(const gcol_host_column *host, gcol_stream stream,
                                                  gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(host);
  status = column_from_host(host, "host", stream, mr, out);
done:
  return status;
}

gcol_status gcol_column_create_from_host_column(const gcol_host_column *host, gcol_stream stream,
                                                gcol_mr *mr, gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_create_from_host_column");
  gcol_status const status = column_create_from_host_column(host, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status table_create_from_host(const gcol_host_table *host, gcol_stream stream,
                                          gcol_mr *mr, gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_column **cols = NULL;
  int32_t made = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(host);
  GCOL_DETAIL_CHECK(host->num_columns >= 0 && (host->columns != NULL || host->num_columns == 0),
                    GCOL_ERROR_INVALID_ARGUMENT, "the host table has %d columns%s",
                    (int)host->num_columns, host->columns == NULL ? " and no column array" : "");
  for (int32_t i = 0; i < host->num_columns; ++i) {
    GCOL_DETAIL_CHECK(host->columns[i].size == host->num_rows, GCOL_ERROR_INVALID_ARGUMENT,
                      "column %d has %lld rows, the table %lld", (int)i,
                      (long long)host->columns[i].size, (long long)host->num_rows);
  }
  cols = (gcol_column **)calloc((size_t)(host->num_columns > 0 ? host->num_columns : 1),
                                sizeof *cols);
  GCOL_DETAIL_CHECK(cols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  for (; made < host->num_columns; ++made) {
    char what[24];
    snprintf(what, sizeof what, "column %d", (int)made);
    GCOL_DETAIL_TRY(column_from_host(&host->columns[made], what, stream, mr, &cols[made]));
  }
  GCOL_DETAIL_TRY(gcol_table_make(cols, host->num_columns, out));
  made = 0; /* the table owns them */
done:
  for (int32_t i = 0; i < made; ++i) gcol_column_free(cols[i]);
  free(cols);
  return status;
}

gcol_status gcol_table_create_from_host(const gcol_host_table *host, gcol_stream stream,
                                        gcol_mr *mr, gcol_table **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_create_from_host");
  gcol_status const status = table_create_from_host(host, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
