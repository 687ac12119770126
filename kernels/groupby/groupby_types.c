/* Groupby's host-only parts: names, result types, argument checks, freeing results (tested
 * without a GPU by tests/groupby/test_groupby_host.c). */
#include <math.h>
#include <stdlib.h>

#include "groupby/groupby_internal.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static const char *const extra_names[GCOL_GROUPBY_NUM_KINDS - GCOL_REDUCE_NUM_OPS] = {
    "median", "quantile", "nunique", "nth_element", "collect_list", "m2"};

const char *gcol_groupby_agg_name(gcol_groupby_agg_kind kind) {
  if ((int)kind < 0 || kind >= GCOL_GROUPBY_NUM_KINDS) return "invalid";
  if ((int)kind < GCOL_REDUCE_NUM_OPS) return gcol_reduce_op_name((gcol_reduce_op)kind);
  return extra_names[kind - GCOL_REDUCE_NUM_OPS];
}

/* Types the gather engine moves (NTH_ELEMENT, COLLECT_LIST). */
static bool is_gatherable(gcol_type_id id) { return id != GCOL_EMPTY && id != GCOL_DICTIONARY32; }

/* Fixed-width types with an order-preserving 64-bit key (NUNIQUE). */
static bool has_order_key(gcol_type_id id) {
  return gcol_type_is_fixed_width(id) && id != GCOL_DECIMAL128;
}

static gcol_status groupby_output_type(gcol_data_type values, const gcol_groupby_agg *agg,
                                       gcol_data_type *out) {
  gcol_status status = GCOL_OK;
  gcol_type_id const id = values.id;
  const char *name = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CHECK_NOT_NULL(agg);
  GCOL_DETAIL_CHECK((int)agg->kind >= 0 && agg->kind < GCOL_GROUPBY_NUM_KINDS,
                    GCOL_ERROR_INVALID_ARGUMENT, "agg->kind is out of range (%d)", (int)agg->kind);
  GCOL_DETAIL_CHECK(gcol_type_id_is_valid(id), GCOL_ERROR_INVALID_ARGUMENT,
                    "values type id is out of range (%d)", (int)id);
  name = gcol_groupby_agg_name(agg->kind);
  switch (agg->kind) {
    case GCOL_GROUPBY_MEDIAN:
    case GCOL_GROUPBY_QUANTILE:
      GCOL_DETAIL_CHECK(agg->kind == GCOL_GROUPBY_MEDIAN || (agg->q >= 0.0 && agg->q <= 1.0),
                        GCOL_ERROR_INVALID_ARGUMENT, "quantile q = %g is not in [0, 1]", agg->q);
      GCOL_DETAIL_TRY(gcol_quantile_output_type(values, agg->interp, out));
      break;
    case GCOL_GROUPBY_NUNIQUE:
      GCOL_DETAIL_CHECK(has_order_key(id), GCOL_ERROR_UNSUPPORTED,
                        "groupby %s of %s is not supported", name, gcol_type_name(id));
      *out = gcol_data_type_make(GCOL_INT64);
      break;
    case GCOL_GROUPBY_NTH_ELEMENT:
    case GCOL_GROUPBY_COLLECT_LIST:
      GCOL_DETAIL_CHECK(is_gatherable(id), GCOL_ERROR_TYPE_MISMATCH,
                        "groupby %s does not apply to %s", name, gcol_type_name(id));
      *out = agg->kind == GCOL_GROUPBY_NTH_ELEMENT ? values : gcol_data_type_make(GCOL_LIST);
      break;
    case GCOL_GROUPBY_M2: {
      gcol_data_type ignored;
      GCOL_DETAIL_TRY(gcol_reduce_output_type(values, GCOL_REDUCE_VARIANCE, &ignored));
      *out = gcol_data_type_make(GCOL_FLOAT64);
      break;
    }
    default: {
      gcol_reduce_op const op = (gcol_reduce_op)agg->kind;
      GCOL_DETAIL_CHECK(agg->ddof >= 0 || (op != GCOL_REDUCE_VARIANCE && op != GCOL_REDUCE_STD),
                        GCOL_ERROR_INVALID_ARGUMENT, "groupby %s: ddof is negative (%d)", name,
                        (int)agg->ddof);
      GCOL_DETAIL_TRY(gcol_reduce_output_type(values, op, out));
      GCOL_DETAIL_CHECK(gcol_type_is_fixed_width(id) || op == GCOL_REDUCE_COUNT_VALID ||
                            op == GCOL_REDUCE_COUNT_ALL,
                        GCOL_ERROR_UNSUPPORTED, "groupby %s of %s is not supported", name,
                        gcol_type_name(id));
      break;
    }
  }
done:
  return status;
}

gcol_status gcol_groupby_output_type(gcol_data_type values, const gcol_groupby_agg *agg,
                                     gcol_data_type *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_groupby_output_type");
  gcol_status const status = groupby_output_type(values, agg, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static bool is_key_type(gcol_type_id id) {
  return (gcol_type_is_fixed_width(id) || id == GCOL_STRING);
}

gcol_status gcol_detail_groupby_check_args(gcol_table_view keys,
                                           const gcol_groupby_request *requests,
                                           int32_t num_requests) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(keys.num_columns >= 1 && keys.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "keys has no columns (num_columns %d)", (int)keys.num_columns);
  GCOL_DETAIL_CHECK(keys.num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT, "keys has %lld rows",
                    (long long)keys.num_rows);
  GCOL_DETAIL_CHECK(num_requests >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_requests is negative (%d)",
                    (int)num_requests);
  GCOL_DETAIL_CHECK(requests != NULL || num_requests == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "requests is NULL with num_requests %d", (int)num_requests);
  for (int32_t c = 0; c < keys.num_columns; ++c) {
    gcol_column_view const k = keys.columns[c];
    GCOL_DETAIL_CHECK(gcol_type_id_is_valid(k.type.id) && is_key_type(k.type.id),
                      GCOL_ERROR_TYPE_MISMATCH,
                      "key column %d is %s: keys must be fixed-width or STRING", (int)c,
                      gcol_type_id_is_valid(k.type.id) ? gcol_type_name(k.type.id) : "invalid");
    GCOL_DETAIL_TRY(gcol_column_view_validate(k, "keys"));
    GCOL_DETAIL_CHECK(k.size == keys.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                      "key column %d has %lld rows, keys.num_rows is %lld", (int)c,
                      (long long)k.size, (long long)keys.num_rows);
  }
  for (int32_t r = 0; r < num_requests; ++r) {
    gcol_groupby_request const *req = &requests[r];
    GCOL_DETAIL_CHECK(req->num_aggs >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "requests[%d].num_aggs is negative (%d)", (int)r, (int)req->num_aggs);
    GCOL_DETAIL_CHECK(req->aggs != NULL || req->num_aggs == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "requests[%d].aggs is NULL with num_aggs %d", (int)r, (int)req->num_aggs);
    GCOL_DETAIL_CHECK(gcol_type_id_is_valid(req->values.type.id), GCOL_ERROR_INVALID_ARGUMENT,
                      "requests[%d].values type id is out of range (%d)", (int)r,
                      (int)req->values.type.id);
    for (int32_t a = 0; a < req->num_aggs; ++a) {
      gcol_data_type ignored;
      GCOL_DETAIL_TRY(gcol_groupby_output_type(req->values.type, &req->aggs[a], &ignored));
    }
    GCOL_DETAIL_TRY(gcol_column_view_validate(req->values, "requests[].values"));
    GCOL_DETAIL_CHECK(req->values.size == keys.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                      "requests[%d].values has %lld rows, keys %lld", (int)r,
                      (long long)req->values.size, (long long)keys.num_rows);
  }
done:
  return status;
}

gcol_status gcol_detail_groupby_result_alloc(int32_t num_columns, gcol_groupby_result **out) {
  gcol_status status = GCOL_OK;
  gcol_groupby_result *r = (gcol_groupby_result *)calloc(1, sizeof *r);
  *out = NULL;
  GCOL_DETAIL_CHECK(r != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for a result");
  if (num_columns > 0) {
    r->columns = (gcol_column **)calloc((size_t)num_columns, sizeof *r->columns);
    GCOL_DETAIL_CHECK(r->columns != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "no host memory for %d result columns", (int)num_columns);
  }
  r->num_columns = num_columns;
  *out = r;
  r = NULL;
done:
  free(r);
  return status;
}

void gcol_groupby_result_free(gcol_groupby_result *result) {
  if (result == NULL) return;
  gcol_table_free(result->keys);
  for (int32_t c = 0; c < result->num_columns; ++c) {
    if (result->columns != NULL) gcol_column_free(result->columns[c]);
  }
  free(result->columns);
  free(result);
}
