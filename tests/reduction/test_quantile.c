/*
 * gcol_quantiles / gcol_quantile on the GPU against a host sort (merge sort by the reference
 * order: NaN last, -0.0 before +0.0): every interpolation x every accepted type, several q
 * (0, 1, halves that hit the round-half-even rule, random), sizes of TESTING.md, validity
 * patterns, slices, float specials, and a failure at every allocation. LOWER, HIGHER and
 * NEAREST are exact; LINEAR and MIDPOINT within 1e-15 * (|a| + |b|) of the same double
 * formula.
 */
#include <math.h>

#include "reduction_reference.h"

static const gcol_type_id q_types[] = {
    GCOL_INT8,   GCOL_INT16,  GCOL_INT32,   GCOL_INT64,   GCOL_UINT8,
    GCOL_UINT16, GCOL_UINT32, GCOL_UINT64,  GCOL_FLOAT32, GCOL_FLOAT64,
    GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_DAYS, GCOL_DURATION_MILLISECONDS, GCOL_DECIMAL32,
    GCOL_DECIMAL64, GCOL_BOOL8, GCOL_DECIMAL128};
#define NUM_Q_TYPES (sizeof q_types / sizeof q_types[0])

static gcol_data_type make_type(gcol_type_id id) {
  return gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, -4) : gcol_data_type_make(id);
}

#define NUM_Q 9
static const double qs[NUM_Q] = {0.0, 1.0, 0.5, 0.25, 0.75, 0.1, 0.999, 1.0 / 3.0, 0.123456789};

static void check_quantiles(const ref_column *host, gcol_column_view view, gcol_interpolation interp,
                            const char *where) {
  char context[256];
  snprintf(context, sizeof context, "%s: quantiles (interp %d) of %s, %lld rows", where, (int)interp,
           gcol_type_name(host->type.id), (long long)view.size);
  gcol_data_type out_type;
  gcol_status const rule = gcol_quantile_output_type(host->type, interp, &out_type);
  gcol_column *out = NULL;
  gcol_status const st = gcol_quantiles(view, qs, NUM_Q, interp, &out, NULL, NULL);
  if (rule != GCOL_OK) {
    if (st != rule) fail_msg("%s: %s, expected %s", context, gcol_status_string(st), gcol_status_string(rule));
    assert_null(out);
    return;
  }
  if (st != GCOL_OK) fail_msg("%s: %s (%s)", context, gcol_status_string(st), gcol_last_error());
  assert_true(gcol_data_type_equal(out->type, out_type));
  assert_int_equal(out->size, NUM_Q);
  size_t const w = gcol_type_size(out_type.id);
  unsigned char values[NUM_Q * 8];
  uint8_t valid[NUM_Q];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), values, valid, NULL));
  for (int j = 0; j < NUM_Q; ++j) {
    ref_check_result(ref_quantile(host, qs[j], interp), valid[j] != 0, ref_bits_at(values, j, w),
                     out_type, context, j); /* row j is qs[j] */
  }
  gcol_column_free(out);
  /* the scalar form agrees with row 2 (q = 0.5) */
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_quantile(view, qs[2], interp, &s, NULL));
  assert_true(gcol_data_type_equal(s->type, out_type));
  uint64_t bits = 0;
  if (s->is_valid) memcpy(&bits, gcol_scalar_get_storage(s), w);
  ref_check_result(ref_quantile(host, qs[2], interp), s->is_valid, bits, out_type, context, -1);
  gcol_scalar_free(s);
}

static void check_random(gcol_test_rng *rng, gcol_type_id id, int64_t size, int64_t offset,
                         gcol_test_validity pattern, const char *where) {
  ref_column host = ref_column_random(rng, make_type(id), size + offset, pattern);
  gcol_column *col = ref_column_to_device(&host);
  gcol_column_view view;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), offset, offset + size, &view));
  ref_column const window = ref_column_window(&host, offset, size);
  for (int interp = 0; interp <= GCOL_INTERPOLATION_NEAREST; ++interp) {
    check_quantiles(&window, view, (gcol_interpolation)interp, where);
  }
  gcol_column_free(col);
  ref_column_free(&host);
}

static void test_quantile_every_type_and_size(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6201);
  for (size_t t = 0; t < NUM_Q_TYPES; ++t) {
    for (size_t k = 0; k < gcol_test_num_sizes; ++k) {
      check_random(&rng, q_types[t], gcol_test_sizes[k], 0, GCOL_TEST_RANDOM_NULLS, "sizes");
    }
    check_random(&rng, q_types[t], 1000, 0, GCOL_TEST_NO_MASK, "no mask");
  }
}

static void test_quantile_validity_and_slices(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6202);
  for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
    check_random(&rng, GCOL_INT64, 513, 0, (gcol_test_validity)p, "validity");
    check_random(&rng, GCOL_FLOAT32, 64, 0, (gcol_test_validity)p, "validity");
  }
  for (size_t k = 0; k < gcol_test_num_offsets; ++k) {
    check_random(&rng, GCOL_INT16, 200, gcol_test_offsets[k], GCOL_TEST_RANDOM_NULLS, "slice");
    check_random(&rng, GCOL_FLOAT64, 129, gcol_test_offsets[k], GCOL_TEST_FIRST_NULL, "slice");
  }
  check_random(&rng, GCOL_FLOAT64, gcol_test_cap(1000003), 3, GCOL_TEST_RANDOM_NULLS, "large");
}

static void test_quantile_float_specials(void **state) {
  (void)state;
  double const v[] = {NAN, 1.0, -0.0, INFINITY, 0.0, -INFINITY, 2.0, -NAN, 0.5};
  ref_column host = {gcol_data_type_make(GCOL_FLOAT64), 9, (unsigned char *)v, NULL};
  gcol_column *col = ref_column_to_device(&host);
  for (int interp = 0; interp <= GCOL_INTERPOLATION_NEAREST; ++interp) {
    check_quantiles(&host, gcol_column_get_view(col), (gcol_interpolation)interp, "specials");
  }
  /* spelled out: sorted -Inf, -0, 0, 0.5, 1, 2, Inf, NaN, NaN; q = 0 is -Inf, q = 1 NaN,
   * q = 0.25 (pos 2) is +0.0 and q = 0.125 (pos 1) is -0.0 */
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_quantile(gcol_column_get_view(col), 1.0, GCOL_INTERPOLATION_LOWER, &s, NULL));
  assert_true(isnan(s->value.f64));
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_quantile(gcol_column_get_view(col), 0.125, GCOL_INTERPOLATION_LOWER, &s, NULL));
  assert_true(s->value.f64 == 0 && signbit(s->value.f64));
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_quantile(gcol_column_get_view(col), 0.0, GCOL_INTERPOLATION_LINEAR, &s, NULL));
  assert_true(isinf(s->value.f64) && s->value.f64 < 0);
  gcol_scalar_free(s);
  gcol_column_free(col);
}

static void test_quantile_empty_and_no_q(void **state) {
  (void)state;
  int32_t const v[3] = {5, 1, 3};
  ref_column host = {gcol_data_type_make(GCOL_INT32), 3, (unsigned char *)v, NULL};
  gcol_column *col = ref_column_to_device(&host);
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_quantiles(gcol_column_get_view(col), NULL, 0, GCOL_INTERPOLATION_LINEAR, &out, NULL, NULL));
  assert_int_equal(out->size, 0);
  assert_int_equal(out->type.id, GCOL_FLOAT64);
  gcol_column_free(out);
  gcol_column_view empty;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 1, 1, &empty));
  GCOL_TEST_OK(gcol_quantiles(empty, qs, NUM_Q, GCOL_INTERPOLATION_HIGHER, &out, NULL, NULL));
  assert_int_equal(out->size, NUM_Q);
  assert_int_equal(out->null_count, NUM_Q);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
  gcol_column_free(out);
  gcol_column_free(col);
}

typedef struct fault_ctx {
  gcol_column_view view;
  gcol_interpolation interp;
} fault_ctx;

static gcol_status run_quantiles(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column *out = (gcol_column *)&out;
  gcol_status const st = gcol_quantiles(c->view, qs, NUM_Q, c->interp, &out, NULL, NULL);
  if (st != GCOL_OK) assert_null(out);
  else gcol_column_free(out);
  return st;
}

static gcol_status run_quantile_scalar(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_scalar *s = (gcol_scalar *)&s;
  gcol_status const st = gcol_quantile(c->view, 0.3, c->interp, &s, NULL);
  if (st != GCOL_OK) assert_null(s);
  else gcol_scalar_free(s);
  return st;
}

static void test_quantile_fail_every_allocation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6203);
  ref_column host = ref_column_random(&rng, make_type(GCOL_INT32), 3000, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = ref_column_to_device(&host);
  fault_ctx ctx;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 5, 2900, &ctx.view));
  ctx.interp = GCOL_INTERPOLATION_LINEAR;
  assert_true(ref_fail_nth_loop(run_quantiles, &ctx, "quantiles") >= 2);
  ctx.interp = GCOL_INTERPOLATION_NEAREST;
  assert_true(ref_fail_nth_loop(run_quantile_scalar, &ctx, "quantile") >= 2);
  gcol_column_free(col);
  ref_column_free(&host);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_quantile_every_type_and_size),
      GCOL_TEST_GPU(test_quantile_validity_and_slices),
      GCOL_TEST_GPU(test_quantile_float_specials),
      GCOL_TEST_GPU(test_quantile_empty_and_no_q),
      GCOL_TEST_GPU(test_quantile_fail_every_allocation),
  };
  return GCOL_TEST_RUN_GPU("reduction_quantile", tests);
}
