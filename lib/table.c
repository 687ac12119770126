/* Tables: views over columns of equal size, and owning tables. */
#include <stdlib.h>
#include <string.h>

#include "gcol/table.h"
#include "internal/column.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static gcol_status table_view_make(const gcol_column_view *columns, int32_t num_columns,
                                   gcol_table_view *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(num_columns >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_columns is negative (%d)",
                      (int)num_columns);
  GCOL_DETAIL_REQUIRE(columns != NULL || num_columns == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "columns is NULL");
  for (int32_t i = 1; i < num_columns; ++i) {
    GCOL_DETAIL_REQUIRE(columns[i].size == columns[0].size, GCOL_ERROR_SIZE_MISMATCH,
                        "column %d has %lld rows, column 0 has %lld", (int)i,
                        (long long)columns[i].size, (long long)columns[0].size);
  }
  out->columns = columns;
  out->num_columns = num_columns;
  out->num_rows = num_columns > 0 ? columns[0].size : 0;
  return GCOL_OK;
}

gcol_status gcol_table_view_make(const gcol_column_view *columns, int32_t num_columns,
                                 gcol_table_view *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_view_make");
  gcol_status const status = table_view_make(columns, num_columns, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status table_view_select(gcol_table_view view, const int32_t *indices,
                                     int32_t num_indices, gcol_column_view *storage,
                                     gcol_table_view *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(num_indices >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_indices is negative");
  GCOL_DETAIL_REQUIRE(num_indices == 0 || (indices != NULL && storage != NULL),
                      GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                      indices == NULL ? "indices" : "storage");
  for (int32_t i = 0; i < num_indices; ++i) {
    GCOL_DETAIL_REQUIRE(indices[i] >= 0 && indices[i] < view.num_columns,
                        GCOL_ERROR_INVALID_ARGUMENT, "indices[%d] = %d out of range [0, %d)",
                        (int)i, (int)indices[i], (int)view.num_columns);
    storage[i] = view.columns[indices[i]];
  }
  out->columns = storage;
  out->num_columns = num_indices;
  out->num_rows = num_indices > 0 ? view.num_rows : 0;
  return GCOL_OK;
}

gcol_status gcol_table_view_select(gcol_table_view view, const int32_t *indices,
                                   int32_t num_indices, gcol_column_view *storage,
                                   gcol_table_view *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_view_select");
  gcol_status const status = table_view_select(view, indices, num_indices, storage, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status table_view_slice(gcol_table_view view, int64_t begin, int64_t end,
                                    gcol_column_view *storage, gcol_table_view *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(storage != NULL || view.num_columns == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "storage is NULL");
  GCOL_DETAIL_REQUIRE(begin >= 0 && begin <= end && end <= view.num_rows,
                      GCOL_ERROR_INVALID_ARGUMENT, "slice [%lld, %lld) out of range for %lld rows",
                      (long long)begin, (long long)end, (long long)view.num_rows);
  for (int32_t i = 0; i < view.num_columns; ++i) {
    gcol_status const st = gcol_column_view_slice(view.columns[i], begin, end, &storage[i]);
    if (st != GCOL_OK) return st;
  }
  out->columns = storage;
  out->num_columns = view.num_columns;
  out->num_rows = end - begin;
  return GCOL_OK;
}

gcol_status gcol_table_view_slice(gcol_table_view view, int64_t begin, int64_t end,
                                  gcol_column_view *storage, gcol_table_view *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_view_slice");
  gcol_status const status = table_view_slice(view, begin, end, storage, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status table_make(gcol_column **columns, int32_t num_columns, gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_table *table = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(num_columns >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_columns is negative");
  GCOL_DETAIL_CHECK(columns != NULL || num_columns == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "columns is NULL");
  for (int32_t i = 0; i < num_columns; ++i) {
    GCOL_DETAIL_CHECK(columns[i] != NULL, GCOL_ERROR_INVALID_ARGUMENT, "columns[%d] is NULL",
                      (int)i);
    GCOL_DETAIL_CHECK(columns[i]->size == columns[0]->size, GCOL_ERROR_SIZE_MISMATCH,
                      "column %d has %lld rows, column 0 has %lld", (int)i,
                      (long long)columns[i]->size, (long long)columns[0]->size);
  }
  table = (gcol_table *)calloc(1, sizeof *table);
  GCOL_DETAIL_CHECK(table != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  if (num_columns > 0) {
    table->columns = (gcol_column **)malloc(sizeof *table->columns * (size_t)num_columns);
    table->views = (gcol_column_view *)calloc((size_t)num_columns, sizeof *table->views);
    GCOL_DETAIL_CHECK(table->columns != NULL && table->views != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "host allocation failed");
    memcpy(table->columns, columns, sizeof *columns * (size_t)num_columns);
  }
  table->num_columns = num_columns;
  table->num_rows = num_columns > 0 ? columns[0]->size : 0;
  *out = table;
  table = NULL;
done:
  if (table != NULL) {
    free(table->columns);
    free(table->views);
    free(table);
  }
  return status;
}

gcol_status gcol_table_make(gcol_column **columns, int32_t num_columns, gcol_table **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_make");
  gcol_status const status = table_make(columns, num_columns, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_table_view gcol_table_get_view(const gcol_table *table) {
  gcol_table_view v;
  memset(&v, 0, sizeof v);
  if (table == NULL) return v;
  for (int32_t i = 0; i < table->num_columns; ++i) {
    gcol_column_view const fresh = gcol_column_get_view(table->columns[i]);
    gcol_detail_view_store(table, &table->views[i], &fresh);
  }
  v.columns = table->views;
  v.num_columns = table->num_columns;
  v.num_rows = table->num_rows;
  return v;
}

gcol_status gcol_table_acquire_view(const gcol_table *table, gcol_stream stream,
                                    gcol_table_view *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  memset(out, 0, sizeof *out);
  GCOL_DETAIL_REQUIRE(table != NULL, GCOL_ERROR_INVALID_ARGUMENT, "table is NULL");
  for (int32_t i = 0; i < table->num_columns; ++i) {
    gcol_column_view fresh;
    gcol_status const status = gcol_column_acquire_view(table->columns[i], stream, &fresh);
    if (status != GCOL_OK) return status;
    gcol_detail_view_store(table, &table->views[i], &fresh);
  }
  out->columns = table->views;
  out->num_columns = table->num_columns;
  out->num_rows = table->num_rows;
  return GCOL_OK;
}

static gcol_status table_copy(gcol_table_view view, gcol_stream stream, gcol_mr *mr,
                              gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_column **columns = NULL;
  int32_t made = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(view.num_columns >= 0 && (view.columns != NULL || view.num_columns == 0),
                    GCOL_ERROR_INVALID_ARGUMENT, "bad table view");
  columns =
      (gcol_column **)calloc(view.num_columns > 0 ? (size_t)view.num_columns : 1, sizeof *columns);
  GCOL_DETAIL_CHECK(columns != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  for (; made < view.num_columns; ++made) {
    GCOL_DETAIL_TRY(gcol_column_copy(view.columns[made], stream, mr, &columns[made]));
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, view.num_columns, out));
  made = 0; /* owned by the table */
done:
  for (int32_t i = 0; i < made; ++i) gcol_column_free(columns[i]);
  free(columns);
  return status;
}

gcol_status gcol_table_copy(gcol_table_view view, gcol_stream stream, gcol_mr *mr,
                            gcol_table **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_copy");
  gcol_status const status = table_copy(view, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status table_copy_shallow(const gcol_table *table, gcol_stream stream,
                                      gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_column **columns = NULL;
  int32_t made = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(table);
  columns = (gcol_column **)calloc(table->num_columns > 0 ? (size_t)table->num_columns : 1,
                                   sizeof *columns);
  GCOL_DETAIL_CHECK(columns != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  for (; made < table->num_columns; ++made) {
    GCOL_DETAIL_TRY(gcol_column_copy_shallow(table->columns[made], stream, &columns[made]));
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, table->num_columns, out));
  made = 0; /* owned by the table */
done:
  for (int32_t i = 0; i < made; ++i) gcol_column_free(columns[i]);
  free(columns);
  return status;
}

gcol_status gcol_table_copy_shallow(const gcol_table *table, gcol_stream stream, gcol_table **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_copy_shallow");
  gcol_status const status = table_copy_shallow(table, stream, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status table_release(gcol_table *table, gcol_column ***out_columns,
                                 int32_t *out_num_columns) {
  GCOL_DETAIL_REQUIRE(table != NULL && out_columns != NULL && out_num_columns != NULL,
                      GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                      table == NULL         ? "table"
                      : out_columns == NULL ? "out_columns"
                                            : "out_num_columns");
  *out_columns = table->columns;
  *out_num_columns = table->num_columns;
  free(table->views);
  free(table);
  return GCOL_OK;
}

gcol_status gcol_table_release(gcol_table *table, gcol_column ***out_columns,
                               int32_t *out_num_columns) {
  GCOL_DETAIL_NVTX_PUSH("gcol_table_release");
  gcol_status const status = table_release(table, out_columns, out_num_columns);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_detail_table_take_column(gcol_table *table, gcol_column **out) {
  *out = NULL;
  if (table == NULL) return;
  if (table->num_columns == 1) {
    *out = table->columns[0];
    table->columns[0] = NULL;
    table->num_columns = 0;
  }
  gcol_table_free(table);
}

void gcol_table_free(gcol_table *table) {
  if (table == NULL) return;
  for (int32_t i = 0; i < table->num_columns; ++i) gcol_column_free(table->columns[i]);
  free(table->columns);
  free(table->views);
  free(table);
}
