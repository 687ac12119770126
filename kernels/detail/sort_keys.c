/* Host-side checking and flattening of key columns (see sort_keys.h). */
#include "detail/sort_keys.h"

#include <stdio.h>

#include "internal/error.h"

static gcol_status key_kind_of(gcol_data_type type, const char *what, int32_t *kind) {
  gcol_type_id const id = type.id;
  GCOL_DETAIL_REQUIRE(gcol_type_id_is_valid(id), GCOL_ERROR_INVALID_ARGUMENT,
                      "%s has an invalid type id (%d)", what, (int)id);
  GCOL_DETAIL_REQUIRE(gcol_type_is_orderable(id), GCOL_ERROR_UNSUPPORTED,
                      "%s has type %s, which cannot be sorted or compared", what,
                      gcol_type_name(id));
  if (id == GCOL_STRING) {
    *kind = GCOL_DETAIL_KEY_STRING;
  } else if (id == GCOL_DECIMAL128) {
    *kind = GCOL_DETAIL_KEY_INT128;
  } else if (id == GCOL_BOOL8) {
    *kind = GCOL_DETAIL_KEY_BOOL;
  } else if (gcol_type_is_floating(id)) {
    *kind = GCOL_DETAIL_KEY_FLOAT;
  } else if (gcol_type_is_unsigned_integral(id)) {
    *kind = GCOL_DETAIL_KEY_UINT;
  } else {
    *kind = GCOL_DETAIL_KEY_SINT; /* signed ints, timestamps, durations, DECIMAL32/64 */
  }
  return GCOL_OK;
}

static gcol_status check_view_shape(gcol_column_view view, const char *what) {
  GCOL_DETAIL_REQUIRE(view.size >= 0 && view.offset >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s has a negative size (%lld) or offset (%lld)", what, (long long)view.size,
                      (long long)view.offset);
  if (view.type.id == GCOL_STRING) {
    GCOL_DETAIL_REQUIRE(
        view.size == 0 || (view.num_children > GCOL_OFFSETS_CHILD && view.children != NULL &&
                           view.children[GCOL_OFFSETS_CHILD].data != NULL),
        GCOL_ERROR_INVALID_ARGUMENT, "%s is a STRING column of %lld rows without an offsets child",
        what, (long long)view.size);
  } else if (gcol_type_is_fixed_width(view.type.id)) {
    GCOL_DETAIL_REQUIRE(view.size == 0 || view.data != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                        "%s has %lld rows but no data", what, (long long)view.size);
  }
  return GCOL_OK;
}

gcol_status gcol_detail_key_column_make(gcol_column_view view, gcol_order order,
                                        gcol_null_order null_order, const char *what,
                                        gcol_detail_key_column *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(order == GCOL_ORDER_ASCENDING || order == GCOL_ORDER_DESCENDING,
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: order %d is not a gcol_order", what,
                      (int)order);
  GCOL_DETAIL_REQUIRE(null_order == GCOL_NULLS_AFTER || null_order == GCOL_NULLS_BEFORE,
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: null order %d is not a gcol_null_order",
                      what, (int)null_order);
  int32_t kind = 0;
  gcol_status status = key_kind_of(view.type, what, &kind);
  if (status != GCOL_OK) return status;
  status = check_view_shape(view, what);
  if (status != GCOL_OK) return status;
  memset(out, 0, sizeof *out);
  out->kind = kind;
  out->width = (int32_t)gcol_type_size(view.type.id);
  out->descending = order == GCOL_ORDER_DESCENDING;
  out->nulls_before = null_order == GCOL_NULLS_BEFORE;
  out->null_mask = view.null_count == 0 ? NULL : view.null_mask;
  out->mask_offset = view.offset;
  out->offsets.width = 4;
  if (kind == GCOL_DETAIL_KEY_STRING) {
    out->data = view.data;
    if (view.size > 0) {
      status = gcol_offsetalator_make(view, &out->offsets);
      if (status != GCOL_OK) return status;
    }
  } else {
    out->data =
        view.data == NULL ? NULL : (const char *)view.data + view.offset * (int64_t)out->width;
  }
  return GCOL_OK;
}

gcol_status gcol_detail_table_view_check(gcol_table_view table, const char *what) {
  GCOL_DETAIL_REQUIRE(table.num_columns >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s has a negative column count (%d)", what, (int)table.num_columns);
  GCOL_DETAIL_REQUIRE(table.num_columns == 0 || table.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s.columns is NULL", what);
  GCOL_DETAIL_REQUIRE(table.num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s has a negative row count (%lld)", what, (long long)table.num_rows);
  for (int32_t c = 0; c < table.num_columns; ++c) {
    GCOL_DETAIL_REQUIRE(table.columns[c].size == table.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                        "%s column %d has %lld rows, the table %lld", what, (int)c,
                        (long long)table.columns[c].size, (long long)table.num_rows);
  }
  return GCOL_OK;
}

gcol_status gcol_detail_key_table_make(gcol_table_view keys, const gcol_order *order,
                                       const gcol_null_order *null_order, const char *what,
                                       gcol_detail_key_table *out) {
  gcol_status status = gcol_detail_table_view_check(keys, what);
  if (status != GCOL_OK) return status;
  GCOL_DETAIL_REQUIRE(keys.num_columns > 0, GCOL_ERROR_INVALID_ARGUMENT, "%s has no key columns",
                      what);
  GCOL_DETAIL_REQUIRE(out == NULL || keys.num_columns <= GCOL_MAX_COMPARE_COLUMNS,
                      GCOL_ERROR_UNSUPPORTED, "%s has %d key columns; at most %d are supported",
                      what, (int)keys.num_columns, GCOL_MAX_COMPARE_COLUMNS);
  if (out != NULL) out->num_columns = keys.num_columns;
  for (int32_t c = 0; c < keys.num_columns; ++c) {
    char name[96];
    gcol_detail_key_column column;
    snprintf(name, sizeof name, "%s column %d", what, (int)c);
    status = gcol_detail_key_column_make(
        keys.columns[c], order != NULL ? order[c] : GCOL_ORDER_ASCENDING,
        null_order != NULL ? null_order[c] : GCOL_NULLS_AFTER, name, &column);
    if (status != GCOL_OK) return status;
    if (out != NULL) out->columns[c] = column;
  }
  return GCOL_OK;
}
