/*
 * gcol_scan on the GPU against the host reference: every op x inclusive/exclusive x both null
 * policies x every accepted type (others rejected), sizes of TESTING.md, every validity
 * pattern, slices at unaligned offsets, ~1e6 rows, integer wrap-around, float specials, the
 * exclusive identities, and a failure at every allocation. Integers exact; float sums
 * within 1e-10 * the running sum|x| (+ 1.2e-7 relative for FLOAT32), products within
 * 1e-13 * n relative while no partial product can leave the double range.
 */
#include <math.h>

#include "reduction_reference.h"

static const gcol_type_id scan_types[] = {
    GCOL_INT8,   GCOL_INT16,  GCOL_INT32,   GCOL_INT64,   GCOL_UINT8,   GCOL_UINT16,
    GCOL_UINT32, GCOL_UINT64, GCOL_FLOAT32, GCOL_FLOAT64, GCOL_BOOL8,   GCOL_TIMESTAMP_DAYS,
    GCOL_TIMESTAMP_MICROSECONDS, GCOL_DURATION_DAYS, GCOL_DURATION_NANOSECONDS, GCOL_DECIMAL32,
    GCOL_DECIMAL64, GCOL_DECIMAL128};
#define NUM_SCAN_TYPES (sizeof scan_types / sizeof scan_types[0])

static gcol_data_type make_type(gcol_type_id id) {
  return gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, -1) : gcol_data_type_make(id);
}

static void check_scan(const ref_column *host, gcol_column_view view, gcol_scan_op op,
                       gcol_scan_type type, gcol_scan_nulls nulls, const char *where) {
  char context[256];
  snprintf(context, sizeof context, "%s: %s %s scan (nulls %s) of %s, %lld rows (offset %lld)",
           where, type == GCOL_SCAN_INCLUSIVE ? "inclusive" : "exclusive", gcol_scan_op_name(op),
           nulls == GCOL_SCAN_NULLS_INCLUDE ? "include" : "exclude", gcol_type_name(host->type.id),
           (long long)view.size, (long long)view.offset);
  gcol_data_type out_type;
  gcol_status const rule = gcol_scan_output_type(host->type, op, &out_type);
  gcol_column *out = NULL;
  gcol_status const st = gcol_scan(view, op, type, nulls, &out, NULL, NULL);
  if (rule != GCOL_OK) {
    if (st != rule) fail_msg("%s: %s, expected %s", context, gcol_status_string(st), gcol_status_string(rule));
    assert_null(out);
    return;
  }
  if (st != GCOL_OK) fail_msg("%s: %s (%s)", context, gcol_status_string(st), gcol_last_error());
  assert_true(gcol_data_type_equal(out->type, out_type));
  assert_int_equal(out->size, view.size);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
  int64_t const n = view.size;
  size_t const w = gcol_type_size(out_type.id);
  unsigned char *values = (unsigned char *)malloc((size_t)(n + 1) * w);
  uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
  ref_result *expected = (ref_result *)malloc((size_t)(n + 1) * sizeof *expected);
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), values, valid, NULL));
  ref_scan(host, op, type, nulls, expected);
  for (int64_t i = 0; i < n; ++i) {
    ref_check_result(expected[i], valid[i] != 0, ref_bits_at(values, i, w), out_type, context, i);
  }
  free(values);
  free(valid);
  free(expected);
  gcol_column_free(out);
}

static void check_all_scans(const ref_column *host, gcol_column_view view, const char *where) {
  for (int op = 0; op < GCOL_SCAN_NUM_OPS; ++op) {
    for (int type = 0; type < 2; ++type) {
      for (int nulls = 0; nulls < 2; ++nulls) {
        check_scan(host, view, (gcol_scan_op)op, (gcol_scan_type)type, (gcol_scan_nulls)nulls, where);
      }
    }
  }
}

static void check_random(gcol_test_rng *rng, gcol_type_id id, int64_t size, int64_t offset,
                         gcol_test_validity pattern, const char *where) {
  ref_column host = ref_column_random(rng, make_type(id), size + offset, pattern);
  gcol_column *col = ref_column_to_device(&host);
  gcol_column_view view;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), offset, offset + size, &view));
  ref_column const window = ref_column_window(&host, offset, size);
  char context[128];
  snprintf(context, sizeof context, "%s, %s", where, gcol_test_validity_name(pattern));
  check_all_scans(&window, view, context);
  gcol_column_free(col);
  ref_column_free(&host);
}

static void test_scan_every_type_and_size(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(6301);
  for (size_t t = 0; t < NUM_SCAN_TYPES; ++t) {
    if (!gcol_test_in_part(state, (size_t)t)) continue;
    for (size_t k = 0; k < gcol_test_num_sizes; ++k) {
      check_random(&rng, scan_types[t], gcol_test_sizes[k], 0, GCOL_TEST_RANDOM_NULLS, "sizes");
    }
    check_random(&rng, scan_types[t], 4097, 0, GCOL_TEST_NO_MASK, "no mask");
  }
}

static void test_scan_validity_and_slices(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6302);
  for (size_t t = 0; t < NUM_SCAN_TYPES; ++t) {
    for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
      /* under the tools every other (type, validity) at 300 rows (past a block): each type
       * keeps three patterns (with and without nulls), each pattern half the types */
      if (!gcol_test_keep_combination(t + (size_t)p)) continue;
      check_random(&rng, scan_types[t], 300, 0, (gcol_test_validity)p, "validity");
    }
  }
  for (size_t k = 0; k < gcol_test_num_offsets; ++k) {
    check_random(&rng, GCOL_INT32, 1000, gcol_test_offsets[k], GCOL_TEST_RANDOM_NULLS, "slice");
    check_random(&rng, GCOL_FLOAT32, 257, gcol_test_offsets[k], GCOL_TEST_LAST_NULL, "slice");
    check_random(&rng, GCOL_INT64, 100, gcol_test_offsets[k], GCOL_TEST_NO_MASK, "slice");
  }
}

static void test_scan_large(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6303);
  check_random(&rng, GCOL_INT64, gcol_test_cap(1000003), 0, GCOL_TEST_NO_MASK, "large");
  check_random(&rng, GCOL_INT64, gcol_test_cap(1000003), 33, GCOL_TEST_RANDOM_NULLS, "large");
  check_random(&rng, GCOL_FLOAT64, gcol_test_cap(1000003), 0, GCOL_TEST_NO_MASK, "large");
  check_random(&rng, GCOL_INT16, gcol_test_cap(1000003), 5, GCOL_TEST_RANDOM_NULLS, "large");
}

static void test_scan_spelled_out(void **state) {
  (void)state;
  /* int8 sums wrap at 8 bits; the null policies on one column */
  int8_t const v[6] = {100, 50, -3, 7, 120, 1};
  uint8_t const valid[6] = {1, 1, 0, 1, 1, 1};
  ref_column host = {gcol_data_type_make(GCOL_INT8), 6, (unsigned char *)v, (uint8_t *)valid};
  gcol_column *col = ref_column_to_device(&host);
  gcol_column *out = NULL;
  int8_t got[6];
  uint8_t got_valid[6];
  GCOL_TEST_OK(gcol_scan(gcol_column_get_view(col), GCOL_SCAN_SUM, GCOL_SCAN_INCLUSIVE,
                         GCOL_SCAN_NULLS_EXCLUDE, &out, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), got, got_valid, NULL));
  int8_t const sums[6] = {100, (int8_t)150, 0, (int8_t)157, (int8_t)277, (int8_t)278};
  uint8_t const exclude_valid[6] = {1, 1, 0, 1, 1, 1};
  for (int i = 0; i < 6; ++i) {
    assert_int_equal(got_valid[i], exclude_valid[i]);
    if (exclude_valid[i]) assert_int_equal(got[i], sums[i]);
  }
  assert_int_equal(out->null_count, 1);
  gcol_column_free(out);
  GCOL_TEST_OK(gcol_scan(gcol_column_get_view(col), GCOL_SCAN_MAX, GCOL_SCAN_EXCLUSIVE,
                         GCOL_SCAN_NULLS_INCLUDE, &out, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), got, got_valid, NULL));
  assert_int_equal(got[0], INT8_MIN); /* the identity of max */
  assert_int_equal(got[1], 100);
  assert_true(got_valid[0] && got_valid[1] && !got_valid[2] && !got_valid[5]);
  assert_int_equal(out->null_count, 4);
  gcol_column_free(out);
  GCOL_TEST_OK(gcol_scan(gcol_column_get_view(col), GCOL_SCAN_MIN, GCOL_SCAN_EXCLUSIVE,
                         GCOL_SCAN_NULLS_EXCLUDE, &out, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), got, got_valid, NULL));
  assert_int_equal(got[0], INT8_MAX); /* the identity of min */
  assert_int_equal(got[3], 50);
  gcol_column_free(out);
  gcol_column_free(col);
}

static void test_scan_float_specials(void **state) {
  (void)state;
  double const v[] = {1.0, -0.0, NAN, 0.0, -INFINITY, 2.0, INFINITY, -1.0};
  ref_column host = {gcol_data_type_make(GCOL_FLOAT64), 8, (unsigned char *)v, NULL};
  gcol_column *col = ref_column_to_device(&host);
  check_all_scans(&host, gcol_column_get_view(col), "specials");
  gcol_column_free(col);
  float const f[] = {-0.0f, 0.0f, 3.5f, -INFINITY};
  ref_column fhost = {gcol_data_type_make(GCOL_FLOAT32), 4, (unsigned char *)f, NULL};
  col = ref_column_to_device(&fhost);
  check_all_scans(&fhost, gcol_column_get_view(col), "specials f32");
  gcol_column_free(col);
  /* the signed-zero rule spelled out: running sums of -0.0 alone are +0.0 (inclusive and
   * exclusive alike), running products keep -0.0 */
  double const zeros[] = {-0.0, -0.0};
  ref_column zhost = {gcol_data_type_make(GCOL_FLOAT64), 2, (unsigned char *)zeros, NULL};
  col = ref_column_to_device(&zhost);
  check_all_scans(&zhost, gcol_column_get_view(col), "negative zeros");
  for (int k = 0; k < 3; ++k) {
    gcol_column *out = NULL;
    gcol_scan_op const op = k < 2 ? GCOL_SCAN_SUM : GCOL_SCAN_PRODUCT;
    gcol_scan_type const type = k == 1 ? GCOL_SCAN_EXCLUSIVE : GCOL_SCAN_INCLUSIVE;
    GCOL_TEST_OK(
        gcol_scan(gcol_column_get_view(col), op, type, GCOL_SCAN_NULLS_EXCLUDE, &out, NULL, NULL));
    double got[2];
    GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), got, NULL, NULL));
    gcol_column_free(out);
    for (int i = 0; i < 2; ++i) {
      bool const negative = op == GCOL_SCAN_PRODUCT && i == 0; /* -0.0 * -0.0 is +0.0 */
      if (!(got[i] == 0 && (signbit(got[i]) != 0) == negative)) {
        fail_msg("%s scan %d of [-0.0, -0.0], row %d: got %g, expected %s0", gcol_scan_op_name(op),
                 (int)type, i, got[i], negative ? "-" : "+");
      }
    }
  }
  gcol_column_free(col);
}

typedef struct fault_ctx {
  gcol_column_view view;
  gcol_scan_op op;
  gcol_scan_nulls nulls;
} fault_ctx;

static gcol_status run_scan(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column *out = (gcol_column *)&out;
  gcol_status const st = gcol_scan(c->view, c->op, GCOL_SCAN_INCLUSIVE, c->nulls, &out, NULL, NULL);
  if (st != GCOL_OK) assert_null(out);
  else gcol_column_free(out);
  return st;
}

static void test_scan_fail_every_allocation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6304);
  ref_column host = ref_column_random(&rng, make_type(GCOL_INT64), 5000, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = ref_column_to_device(&host);
  fault_ctx ctx;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 7, 4900, &ctx.view));
  for (int nulls = 0; nulls < 2; ++nulls) {
    ctx.nulls = (gcol_scan_nulls)nulls;
    ctx.op = GCOL_SCAN_SUM;
    assert_true(ref_fail_nth_loop(run_scan, &ctx, "scan sum") >= 3);
    ctx.op = GCOL_SCAN_MIN;
    assert_true(ref_fail_nth_loop(run_scan, &ctx, "scan min") >= 3);
  }
  ctx.view = gcol_column_get_view(col);
  ctx.view.null_mask = NULL; /* the raw no-null path */
  ctx.view.null_count = 0;
  ctx.op = GCOL_SCAN_SUM;
  assert_true(ref_fail_nth_loop(run_scan, &ctx, "scan sum without nulls") >= 2);
  gcol_column_free(col);
  ref_column_free(&host);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_scan_every_type_and_size, 0, 2),
      GCOL_TEST_GPU_PART(test_scan_every_type_and_size, 1, 2),
      GCOL_TEST_GPU(test_scan_validity_and_slices),
      GCOL_TEST_GPU(test_scan_large),
      GCOL_TEST_GPU(test_scan_spelled_out),
      GCOL_TEST_GPU(test_scan_float_specials),
      GCOL_TEST_GPU(test_scan_fail_every_allocation),
  };
  return GCOL_TEST_RUN_GPU("reduction_scan", tests);
}
