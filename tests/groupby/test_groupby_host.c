/*
 * Host tests of groupby (no GPU): result types of every aggregation kind over every type id
 * against the documented table, parameter checks (ddof, q, interp), and argument checks of
 * gcol_groupby_aggregate() and gcol_groupby_merge_m2() that fail before any device work.
 */
#include <math.h>

#include "test_util.h"

static gcol_data_type type_of(gcol_type_id id) {
  return gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, -2) : gcol_data_type_make(id);
}

/* The documented table of groupby.h. */
static gcol_status expected_type(gcol_data_type in, gcol_groupby_agg_kind kind,
                                 gcol_data_type *out) {
  gcol_type_id const id = in.id;
  if ((int)kind < GCOL_REDUCE_NUM_OPS) {
    gcol_status const st = gcol_reduce_output_type(in, (gcol_reduce_op)kind, out);
    if (st != GCOL_OK) return st;
    if (!gcol_type_is_fixed_width(id) && kind != GCOL_GROUPBY_COUNT_VALID &&
        kind != GCOL_GROUPBY_COUNT_ALL) {
      return GCOL_ERROR_UNSUPPORTED;
    }
    return GCOL_OK;
  }
  switch (kind) {
    case GCOL_GROUPBY_MEDIAN:
    case GCOL_GROUPBY_QUANTILE:
      return gcol_quantile_output_type(in, GCOL_INTERPOLATION_LINEAR, out);
    case GCOL_GROUPBY_NUNIQUE:
      if (!gcol_type_is_fixed_width(id) || id == GCOL_DECIMAL128) return GCOL_ERROR_UNSUPPORTED;
      *out = gcol_data_type_make(GCOL_INT64);
      return GCOL_OK;
    case GCOL_GROUPBY_NTH_ELEMENT:
    case GCOL_GROUPBY_COLLECT_LIST:
      if (id == GCOL_EMPTY || id == GCOL_DICTIONARY32) return GCOL_ERROR_TYPE_MISMATCH;
      *out = kind == GCOL_GROUPBY_NTH_ELEMENT ? in : gcol_data_type_make(GCOL_LIST);
      return GCOL_OK;
    default: /* M2 */
      if (!gcol_type_is_integral(id) && !gcol_type_is_floating(id)) {
        return id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64 || id == GCOL_DECIMAL128
                   ? GCOL_ERROR_UNSUPPORTED
                   : GCOL_ERROR_TYPE_MISMATCH;
      }
      *out = gcol_data_type_make(GCOL_FLOAT64);
      return GCOL_OK;
  }
}

static void output_types_follow_the_table(void **state) {
  (void)state;
  for (int t = 0; t < GCOL_NUM_TYPE_IDS; ++t) {
    gcol_data_type const in = type_of((gcol_type_id)t);
    for (int k = 0; k < GCOL_GROUPBY_NUM_KINDS; ++k) {
      gcol_groupby_agg const agg = gcol_groupby_agg_make((gcol_groupby_agg_kind)k);
      gcol_data_type want = gcol_data_type_make(GCOL_EMPTY), got = gcol_data_type_make(GCOL_EMPTY);
      gcol_status const expected = expected_type(in, (gcol_groupby_agg_kind)k, &want);
      gcol_status const st = gcol_groupby_output_type(in, &agg, &got);
      if (st != expected) {
        fail_msg("%s of %s: %s, expected %s (%s)", gcol_groupby_agg_name((gcol_groupby_agg_kind)k),
                 gcol_type_name(in.id), gcol_status_string(st), gcol_status_string(expected),
                 gcol_last_error());
      }
      if (st == GCOL_OK) {
        assert_int_equal(got.id, want.id);
        assert_int_equal(got.scale, want.scale);
      } else {
        assert_true(gcol_last_error()[0] != '\0');
      }
    }
  }
  /* spot checks of the table itself */
  gcol_data_type out;
  gcol_groupby_agg agg = gcol_groupby_agg_make(GCOL_GROUPBY_SUM);
  GCOL_TEST_OK(gcol_groupby_output_type(gcol_data_type_make(GCOL_INT8), &agg, &out));
  assert_int_equal(out.id, GCOL_INT64);
  GCOL_TEST_STATUS(gcol_groupby_output_type(gcol_data_type_make(GCOL_STRING), &agg, &out),
                   GCOL_ERROR_TYPE_MISMATCH);
  agg.kind = GCOL_GROUPBY_MEAN;
  GCOL_TEST_OK(gcol_groupby_output_type(gcol_data_type_make(GCOL_INT32), &agg, &out));
  assert_int_equal(out.id, GCOL_FLOAT64);
  agg.kind = GCOL_GROUPBY_COUNT_VALID;
  GCOL_TEST_OK(gcol_groupby_output_type(gcol_data_type_make(GCOL_STRING), &agg, &out));
  assert_int_equal(out.id, GCOL_INT64);
  assert_string_equal(gcol_groupby_agg_name(GCOL_GROUPBY_MEDIAN), "median");
  assert_string_equal(gcol_groupby_agg_name(GCOL_GROUPBY_SUM), "sum");
  assert_string_equal(gcol_groupby_agg_name((gcol_groupby_agg_kind)99), "invalid");
}

static void bad_parameters(void **state) {
  (void)state;
  gcol_data_type out;
  gcol_data_type const f64 = gcol_data_type_make(GCOL_FLOAT64);
  gcol_groupby_agg agg = gcol_groupby_agg_make(GCOL_GROUPBY_VARIANCE);
  agg.ddof = -1;
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, &agg, &out), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "ddof"));
  agg.kind = GCOL_GROUPBY_STD;
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, &agg, &out), GCOL_ERROR_INVALID_ARGUMENT);
  agg = gcol_groupby_agg_make(GCOL_GROUPBY_QUANTILE);
  agg.q = 1.5;
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, &agg, &out), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "q"));
  agg.q = -0.1;
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, &agg, &out), GCOL_ERROR_INVALID_ARGUMENT);
  agg.q = NAN;
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, &agg, &out), GCOL_ERROR_INVALID_ARGUMENT);
  agg.q = 1.0;
  GCOL_TEST_OK(gcol_groupby_output_type(f64, &agg, &out));
  agg.interp = (gcol_interpolation)9;
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, &agg, &out), GCOL_ERROR_INVALID_ARGUMENT);
  agg = gcol_groupby_agg_make((gcol_groupby_agg_kind)GCOL_GROUPBY_NUM_KINDS);
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, &agg, &out), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, NULL, &out), GCOL_ERROR_INVALID_ARGUMENT);
  agg = gcol_groupby_agg_make(GCOL_GROUPBY_SUM);
  GCOL_TEST_STATUS(gcol_groupby_output_type(f64, &agg, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  agg.kind = GCOL_GROUPBY_MIN;
  GCOL_TEST_STATUS(gcol_groupby_output_type(gcol_data_type_make(GCOL_STRING), &agg, &out),
                   GCOL_ERROR_UNSUPPORTED);
}

/* Views over host pointers that are never dereferenced: every check below fails first. */
static void bad_arguments_fail_before_device_work(void **state) {
  (void)state;
  static int64_t fake[8];
  gcol_column_view const k =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT64), 8, fake, NULL, 0);
  gcol_column_view const v7 =
      gcol_column_view_make(gcol_data_type_make(GCOL_FLOAT64), 7, fake, NULL, 0);
  gcol_column_view const s8 =
      gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 8, fake, NULL, 0);
  gcol_column_view const list =
      gcol_column_view_make(gcol_data_type_make(GCOL_LIST), 8, NULL, NULL, 0);
  gcol_table_view keys, no_keys;
  GCOL_TEST_OK(gcol_table_view_make(&k, 1, &keys));
  memset(&no_keys, 0, sizeof no_keys);
  gcol_groupby_agg const sum = gcol_groupby_agg_make(GCOL_GROUPBY_SUM);
  gcol_groupby_result *res = (gcol_groupby_result *)&res; /* must become NULL */
  gcol_groupby_request req = {v7, &sum, 1};

  GCOL_TEST_STATUS(gcol_groupby_aggregate(keys, &req, 1, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_groupby_aggregate(keys, &req, 1, NULL, &res, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_null(res);
  assert_non_null(strstr(gcol_last_error(), "requests[0].values"));
  GCOL_TEST_STATUS(gcol_groupby_aggregate(no_keys, NULL, 0, NULL, &res, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_groupby_aggregate(keys, NULL, 1, NULL, &res, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_groupby_aggregate(keys, &req, -1, NULL, &res, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  req.values = s8; /* sum of strings */
  GCOL_TEST_STATUS(gcol_groupby_aggregate(keys, &req, 1, NULL, &res, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  req.values = k;
  req.aggs = NULL;
  GCOL_TEST_STATUS(gcol_groupby_aggregate(keys, &req, 1, NULL, &res, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_groupby_agg var = gcol_groupby_agg_make(GCOL_GROUPBY_VARIANCE);
  var.ddof = -2;
  req.aggs = &var;
  GCOL_TEST_STATUS(gcol_groupby_aggregate(keys, &req, 1, NULL, &res, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "ddof"));
  /* a LIST key column, a key column of another length */
  gcol_column_view two[2] = {k, list};
  gcol_table_view bad_keys = {2, 8, two};
  req.aggs = &sum;
  GCOL_TEST_STATUS(gcol_groupby_aggregate(bad_keys, &req, 1, NULL, &res, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  two[1] = v7;
  GCOL_TEST_STATUS(gcol_groupby_aggregate(bad_keys, &req, 1, NULL, &res, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  /* merge_m2: column types, then sizes */
  gcol_column_view const cnt =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT64), 8, fake, NULL, 0);
  gcol_column_view const mean =
      gcol_column_view_make(gcol_data_type_make(GCOL_FLOAT64), 8, fake, NULL, 0);
  GCOL_TEST_STATUS(gcol_groupby_merge_m2(keys, mean, mean, mean, NULL, &res, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_groupby_merge_m2(keys, cnt, cnt, mean, NULL, &res, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_groupby_merge_m2(keys, cnt, mean, v7, NULL, &res, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_groupby_merge_m2(keys, cnt, mean, mean, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(res);
  gcol_groupby_result_free(NULL);
}

static void agg_make_defaults(void **state) {
  (void)state;
  gcol_groupby_agg const a = gcol_groupby_agg_make(GCOL_GROUPBY_STD);
  assert_int_equal(a.kind, GCOL_GROUPBY_STD);
  assert_int_equal(a.ddof, 1);
  assert_true(a.q == 0.5);
  assert_int_equal(a.interp, GCOL_INTERPOLATION_LINEAR);
  assert_int_equal(a.n, 0);
  assert_false(a.include_nulls);
  assert_int_equal((int)GCOL_GROUPBY_ARGMAX, (int)GCOL_REDUCE_ARGMAX);
  assert_int_equal((int)GCOL_GROUPBY_MEDIAN, (int)GCOL_REDUCE_NUM_OPS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(output_types_follow_the_table),
      cmocka_unit_test(bad_parameters),
      cmocka_unit_test(bad_arguments_fail_before_device_work),
      cmocka_unit_test(agg_make_defaults),
  };
  return GCOL_TEST_RUN("groupby_host", tests);
}
