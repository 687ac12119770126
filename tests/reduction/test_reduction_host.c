/*
 * Host tests of reductions, quantiles and scans (no GPU): output-type rules for every op and
 * type id against a table written here from the documented rules, argument validation that
 * fails before any device work, and the host+device helpers of
 * kernels/reduction/reduce_detail.h (keys, decoding, moments, quantile selection, finishing)
 * compiled by gcc.
 */
#include <float.h>
#include <math.h>

#include "detail/aggregate.h"
#include "test_util.h"

/* ------------------------------------------------------------------ type rules */

static bool is_int_or_float(gcol_type_id id) {
  return gcol_type_is_integral(id) || gcol_type_is_floating(id);
}

/* The documented table of reduction.h, spelled out per op. Returns the expected status. */
static gcol_status expected_reduce_type(gcol_data_type in, gcol_reduce_op op, gcol_data_type *out) {
  gcol_type_id const id = in.id;
  bool const dec = id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64;
  if (op == GCOL_REDUCE_COUNT_VALID || op == GCOL_REDUCE_COUNT_ALL) {
    *out = gcol_data_type_make(GCOL_INT64);
    return GCOL_OK;
  }
  if (id == GCOL_DECIMAL128) return GCOL_ERROR_UNSUPPORTED;
  switch (op) {
    case GCOL_REDUCE_SUM:
      if (gcol_type_is_signed_integral(id)) *out = gcol_data_type_make(GCOL_INT64);
      else if (gcol_type_is_unsigned_integral(id)) *out = gcol_data_type_make(GCOL_UINT64);
      else if (gcol_type_is_floating(id) || gcol_type_is_duration(id)) *out = in;
      else if (dec) *out = gcol_data_type_decimal(GCOL_DECIMAL64, in.scale);
      else return GCOL_ERROR_TYPE_MISMATCH;
      return GCOL_OK;
    case GCOL_REDUCE_PRODUCT:
    case GCOL_REDUCE_SUM_OF_SQUARES:
      if (dec) return GCOL_ERROR_UNSUPPORTED;
      if (gcol_type_is_signed_integral(id)) *out = gcol_data_type_make(GCOL_INT64);
      else if (gcol_type_is_unsigned_integral(id)) *out = gcol_data_type_make(GCOL_UINT64);
      else if (gcol_type_is_floating(id)) *out = in;
      else return GCOL_ERROR_TYPE_MISMATCH;
      return GCOL_OK;
    case GCOL_REDUCE_MIN:
    case GCOL_REDUCE_MAX:
    case GCOL_REDUCE_ARGMIN:
    case GCOL_REDUCE_ARGMAX:
      if (!gcol_type_is_fixed_width(id) && id != GCOL_STRING) return GCOL_ERROR_TYPE_MISMATCH;
      *out = (op == GCOL_REDUCE_MIN || op == GCOL_REDUCE_MAX) ? in : gcol_data_type_make(GCOL_INT64);
      return GCOL_OK;
    case GCOL_REDUCE_ANY:
    case GCOL_REDUCE_ALL:
      if (!is_int_or_float(id) && id != GCOL_BOOL8) return GCOL_ERROR_TYPE_MISMATCH;
      *out = gcol_data_type_make(GCOL_BOOL8);
      return GCOL_OK;
    default: /* MEAN, VARIANCE, STD */
      if (dec) return GCOL_ERROR_UNSUPPORTED;
      if (!is_int_or_float(id)) return GCOL_ERROR_TYPE_MISMATCH;
      *out = gcol_data_type_make(GCOL_FLOAT64);
      return GCOL_OK;
  }
}

static gcol_data_type type_with_scale(gcol_type_id id) {
  return gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, -3) : gcol_data_type_make(id);
}

static void test_reduce_output_types(void **state) {
  (void)state;
  for (int t = 0; t < GCOL_NUM_TYPE_IDS; ++t) {
    gcol_data_type const in = type_with_scale((gcol_type_id)t);
    for (int op = 0; op < GCOL_REDUCE_NUM_OPS; ++op) {
      gcol_data_type want = gcol_data_type_make(GCOL_EMPTY), got = gcol_data_type_make(GCOL_EMPTY);
      gcol_status const expected = expected_reduce_type(in, (gcol_reduce_op)op, &want);
      gcol_status const st = gcol_reduce_output_type(in, (gcol_reduce_op)op, &got);
      if (st != expected) {
        fail_msg("%s of %s: %s, expected %s", gcol_reduce_op_name((gcol_reduce_op)op),
                 gcol_type_name(in.id), gcol_status_string(st), gcol_status_string(expected));
      }
      if (st == GCOL_OK && !gcol_data_type_equal(got, want)) {
        fail_msg("%s of %s gives %s(scale %d), expected %s(scale %d)",
                 gcol_reduce_op_name((gcol_reduce_op)op), gcol_type_name(in.id),
                 gcol_type_name(got.id), (int)got.scale, gcol_type_name(want.id), (int)want.scale);
      }
      if (st != GCOL_OK) {
        /* the message names the op and the type */
        assert_non_null(strstr(gcol_last_error(), gcol_type_name(in.id)));
        assert_non_null(strstr(gcol_last_error(), gcol_reduce_op_name((gcol_reduce_op)op)));
      }
    }
  }
}

static void test_reduce_output_type_bad_arguments(void **state) {
  (void)state;
  gcol_data_type out;
  GCOL_TEST_STATUS(gcol_reduce_output_type(gcol_data_type_make(GCOL_INT32), GCOL_REDUCE_SUM, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_reduce_output_type(gcol_data_type_make(GCOL_INT32), GCOL_REDUCE_NUM_OPS, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_reduce_output_type(gcol_data_type_make(GCOL_INT32), (gcol_reduce_op)-1, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_reduce_output_type(gcol_data_type_make(GCOL_NUM_TYPE_IDS), GCOL_REDUCE_SUM, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_string_equal(gcol_reduce_op_name(GCOL_REDUCE_SUM_OF_SQUARES), "sum_of_squares");
  assert_string_equal(gcol_reduce_op_name(GCOL_REDUCE_NUM_OPS), "invalid");
}

static void test_quantile_output_types(void **state) {
  (void)state;
  for (int t = 0; t < GCOL_NUM_TYPE_IDS; ++t) {
    gcol_type_id const id = (gcol_type_id)t;
    gcol_data_type const in = type_with_scale(id);
    bool const exact_kind = gcol_type_is_timestamp(id) || gcol_type_is_duration(id) ||
                            id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64;
    for (int interp = 0; interp <= GCOL_INTERPOLATION_NEAREST; ++interp) {
      bool const interpolates =
          interp == GCOL_INTERPOLATION_LINEAR || interp == GCOL_INTERPOLATION_MIDPOINT;
      gcol_status expected = GCOL_ERROR_TYPE_MISMATCH;
      if (id == GCOL_DECIMAL128 || (exact_kind && interpolates)) expected = GCOL_ERROR_UNSUPPORTED;
      else if (is_int_or_float(id) || exact_kind) expected = GCOL_OK;
      gcol_data_type got = gcol_data_type_make(GCOL_EMPTY);
      gcol_status const st = gcol_quantile_output_type(in, (gcol_interpolation)interp, &got);
      if (st != expected) {
        fail_msg("quantile %d of %s: %s, expected %s", interp, gcol_type_name(id),
                 gcol_status_string(st), gcol_status_string(expected));
      }
      if (st == GCOL_OK) {
        gcol_data_type const want = interpolates ? gcol_data_type_make(GCOL_FLOAT64) : in;
        assert_true(gcol_data_type_equal(got, want));
      } else {
        assert_non_null(strstr(gcol_last_error(), gcol_type_name(id)));
      }
    }
  }
  gcol_data_type out;
  GCOL_TEST_STATUS(gcol_quantile_output_type(gcol_data_type_make(GCOL_INT32), (gcol_interpolation)9, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_quantile_output_type(gcol_data_type_make(GCOL_INT32), GCOL_INTERPOLATION_LOWER, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

static void test_scan_output_types(void **state) {
  (void)state;
  for (int t = 0; t < GCOL_NUM_TYPE_IDS; ++t) {
    gcol_type_id const id = (gcol_type_id)t;
    gcol_data_type const in = type_with_scale(id);
    bool const dec = id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64;
    for (int op = 0; op < GCOL_SCAN_NUM_OPS; ++op) {
      gcol_status expected = GCOL_ERROR_TYPE_MISMATCH;
      if (id == GCOL_DECIMAL128 || id == GCOL_STRING) {
        expected = GCOL_ERROR_UNSUPPORTED;
      } else if (op == GCOL_SCAN_SUM) {
        if (is_int_or_float(id) || gcol_type_is_duration(id) || dec) expected = GCOL_OK;
      } else if (op == GCOL_SCAN_PRODUCT) {
        if (dec) expected = GCOL_ERROR_UNSUPPORTED;
        else if (is_int_or_float(id)) expected = GCOL_OK;
      } else if (is_int_or_float(id) || id == GCOL_BOOL8 || gcol_type_is_timestamp(id) ||
                 gcol_type_is_duration(id) || dec) {
        expected = GCOL_OK;
      }
      gcol_data_type got = gcol_data_type_make(GCOL_EMPTY);
      gcol_status const st = gcol_scan_output_type(in, (gcol_scan_op)op, &got);
      if (st != expected) {
        fail_msg("scan %s of %s: %s, expected %s", gcol_scan_op_name((gcol_scan_op)op),
                 gcol_type_name(id), gcol_status_string(st), gcol_status_string(expected));
      }
      if (st == GCOL_OK) assert_true(gcol_data_type_equal(got, in));
      else assert_non_null(strstr(gcol_last_error(), gcol_type_name(id)));
    }
  }
  gcol_data_type out;
  GCOL_TEST_STATUS(gcol_scan_output_type(gcol_data_type_make(GCOL_INT32), GCOL_SCAN_NUM_OPS, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_scan_output_type(gcol_data_type_make(GCOL_INT32), GCOL_SCAN_SUM, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_string_equal(gcol_scan_op_name(GCOL_SCAN_PRODUCT), "product");
}

/* ------------------------------------------------------------------ argument validation */

/* An empty view of a type: validation passes, so the type rules decide. */
static gcol_column_view empty_view(gcol_type_id id) {
  return gcol_column_view_make(type_with_scale(id), 0, NULL, NULL, 0);
}

static void test_reduce_rejects_before_device_work(void **state) {
  (void)state;
  gcol_scalar *s = (gcol_scalar *)&s; /* not NULL: must be reset */
  GCOL_TEST_STATUS(gcol_reduce(empty_view(GCOL_INT32), GCOL_REDUCE_SUM, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_reduce(empty_view(GCOL_TIMESTAMP_MILLISECONDS), GCOL_REDUCE_SUM, NULL, &s, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(s);
  assert_non_null(strstr(gcol_last_error(), "timestamp[ms]"));
  GCOL_TEST_STATUS(gcol_reduce(empty_view(GCOL_DECIMAL128), GCOL_REDUCE_MAX, NULL, &s, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_non_null(strstr(gcol_last_error(), "decimal128"));
  GCOL_TEST_STATUS(gcol_reduce(empty_view(GCOL_DECIMAL64), GCOL_REDUCE_PRODUCT, NULL, &s, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_reduce(empty_view(GCOL_STRING), GCOL_REDUCE_SUM, NULL, &s, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_reduce(empty_view(GCOL_INT32), GCOL_REDUCE_NUM_OPS, NULL, &s, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_reduce_options bad = {-1};
  GCOL_TEST_STATUS(gcol_reduce(empty_view(GCOL_FLOAT64), GCOL_REDUCE_VARIANCE, &bad, &s, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "ddof"));
  assert_null(s);
  /* a malformed view: rows without data */
  gcol_column_view broken = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 5, NULL, NULL, 0);
  GCOL_TEST_STATUS(gcol_reduce(broken, GCOL_REDUCE_SUM, NULL, &s, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(s);
}

static void test_segmented_rejects_before_device_work(void **state) {
  (void)state;
  gcol_column *c = (gcol_column *)&c;
  gcol_column_view const offsets = empty_view(GCOL_INT32);
  GCOL_TEST_STATUS(gcol_segmented_reduce(empty_view(GCOL_INT32), offsets, GCOL_REDUCE_SUM, NULL,
                                         NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_segmented_reduce(empty_view(GCOL_INT32), empty_view(GCOL_FLOAT32),
                                         GCOL_REDUCE_SUM, NULL, &c, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(c);
  assert_non_null(strstr(gcol_last_error(), "float32"));
  GCOL_TEST_STATUS(gcol_segmented_reduce(empty_view(GCOL_INT32), offsets, GCOL_REDUCE_ARGMIN, NULL,
                                         &c, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_segmented_reduce(empty_view(GCOL_STRING), offsets, GCOL_REDUCE_MIN, NULL,
                                         &c, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_non_null(strstr(gcol_last_error(), "string"));
  GCOL_TEST_STATUS(gcol_segmented_reduce(empty_view(GCOL_BOOL8), offsets, GCOL_REDUCE_MEAN, NULL,
                                         &c, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  gcol_reduce_options bad = {-2};
  GCOL_TEST_STATUS(gcol_segmented_reduce(empty_view(GCOL_INT32), offsets, GCOL_REDUCE_STD, &bad,
                                         &c, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(c);
}

static void test_quantile_rejects_before_device_work(void **state) {
  (void)state;
  gcol_column *c = (gcol_column *)&c;
  gcol_scalar *s = (gcol_scalar *)&s;
  double const bad_q[3] = {0.5, 1.5, 0.1};
  double const nan_q[1] = {NAN};
  double const ok_q[1] = {0.5};
  GCOL_TEST_STATUS(gcol_quantiles(empty_view(GCOL_INT32), bad_q, 3, GCOL_INTERPOLATION_LINEAR, &c,
                                  NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(c);
  assert_non_null(strstr(gcol_last_error(), "q[1]"));
  GCOL_TEST_STATUS(gcol_quantiles(empty_view(GCOL_INT32), nan_q, 1, GCOL_INTERPOLATION_LINEAR, &c,
                                  NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_quantiles(empty_view(GCOL_INT32), NULL, 2, GCOL_INTERPOLATION_LINEAR, &c,
                                  NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_quantiles(empty_view(GCOL_INT32), ok_q, -1, GCOL_INTERPOLATION_LINEAR, &c,
                                  NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_quantiles(empty_view(GCOL_INT32), ok_q, 1, GCOL_INTERPOLATION_LINEAR, NULL,
                                  NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_quantiles(empty_view(GCOL_STRING), ok_q, 1, GCOL_INTERPOLATION_LOWER, &c,
                                  NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_quantile(empty_view(GCOL_TIMESTAMP_DAYS), 0.5, GCOL_INTERPOLATION_LINEAR,
                                 &s, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(s);
  assert_null(c);
}

static void test_scan_rejects_before_device_work(void **state) {
  (void)state;
  gcol_column *c = (gcol_column *)&c;
  GCOL_TEST_STATUS(gcol_scan(empty_view(GCOL_INT32), GCOL_SCAN_SUM, GCOL_SCAN_INCLUSIVE,
                             GCOL_SCAN_NULLS_EXCLUDE, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_scan(empty_view(GCOL_INT32), GCOL_SCAN_SUM, (gcol_scan_type)7,
                             GCOL_SCAN_NULLS_EXCLUDE, &c, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(c);
  GCOL_TEST_STATUS(gcol_scan(empty_view(GCOL_INT32), GCOL_SCAN_SUM, GCOL_SCAN_INCLUSIVE,
                             (gcol_scan_nulls)7, &c, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_scan(empty_view(GCOL_TIMESTAMP_SECONDS), GCOL_SCAN_SUM, GCOL_SCAN_INCLUSIVE,
                             GCOL_SCAN_NULLS_EXCLUDE, &c, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_non_null(strstr(gcol_last_error(), "timestamp[s]"));
  GCOL_TEST_STATUS(gcol_scan(empty_view(GCOL_DECIMAL32), GCOL_SCAN_PRODUCT, GCOL_SCAN_INCLUSIVE,
                             GCOL_SCAN_NULLS_EXCLUDE, &c, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(c);
}

/* ------------------------------------------------------------------ keys and decoding */

/* The documented total order of doubles: NaN largest, -0.0 < +0.0. */
static int order_f64(double a, double b) {
  if (isnan(a) || isnan(b)) return (isnan(a) ? 1 : 0) - (isnan(b) ? 1 : 0);
  if (a == b) return (signbit(b) ? 1 : 0) - (signbit(a) ? 1 : 0);
  return a < b ? -1 : 1;
}

static double special_or_random(gcol_test_rng *rng) {
  static const double specials[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, -NAN,
                                    DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 4.9e-324, -4.9e-324,
                                    1e300, -1e-300};
  uint64_t const pick = gcol_test_rng_next(rng) % 24;
  if (pick < sizeof specials / sizeof specials[0]) return specials[pick];
  double x;
  uint64_t bits = gcol_test_rng_next(rng);
  memcpy(&x, &bits, sizeof x); /* any bit pattern, NaN payloads included */
  return x;
}

static void test_f64_keys_preserve_order(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(601);
  for (int k = 0; k < 200000; ++k) {
    double const a = special_or_random(&rng), b = special_or_random(&rng);
    uint64_t const ka = gcol_detail_key_from_f64(a), kb = gcol_detail_key_from_f64(b);
    int const want = order_f64(a, b);
    int const got = ka < kb ? -1 : (ka > kb ? 1 : 0);
    if (want != got) fail_msg("order of %a and %a: keys say %d, expected %d", a, b, got, want);
    double const back = gcol_detail_f64_from_key(ka);
    if (isnan(a)) {
      assert_true(isnan(back));
    } else {
      assert_memory_equal(&back, &a, sizeof a); /* exact, sign of zero included */
    }
  }
}

/* Keys of every kind and width: order matches the C value order, decode inverts. */
static void test_reader_keys_all_kinds(void **state) {
  (void)state;
  static const gcol_type_id ids[] = {GCOL_INT8, GCOL_INT16, GCOL_INT32, GCOL_INT64, GCOL_UINT8,
                                     GCOL_UINT16, GCOL_UINT32, GCOL_UINT64, GCOL_FLOAT32,
                                     GCOL_FLOAT64, GCOL_TIMESTAMP_DAYS, GCOL_DURATION_NANOSECONDS,
                                     GCOL_DECIMAL32, GCOL_DECIMAL64};
  gcol_test_rng rng = gcol_test_rng_make(602);
  for (size_t t = 0; t < sizeof ids / sizeof ids[0]; ++t) {
    gcol_type_id const id = ids[t];
    size_t const w = gcol_type_size(id);
    unsigned char buf[2 * 8];
    gcol_column_view view = gcol_column_view_make(gcol_data_type_make(id), 2, buf, NULL, 0);
    gcol_detail_reader const r = gcol_detail_reader_make(view);
    for (int k = 0; k < 20000; ++k) {
      gcol_test_rng_fill(&rng, buf, sizeof buf);
      if (k == 0) { /* extremes: all ones and the sign bit alone */
        memset(buf, 0xFF, w);
        memset(buf + w, 0, w);
        buf[2 * w - 1] = 0x80;
      }
      long double a, b;
      if (id == GCOL_FLOAT32) {
        float fa, fb;
        memcpy(&fa, buf, 4);
        memcpy(&fb, buf + 4, 4);
        if (isnan(fa) || isnan(fb)) continue;
        a = fa;
        b = fb;
      } else if (id == GCOL_FLOAT64) {
        double da, db;
        memcpy(&da, buf, 8);
        memcpy(&db, buf + 8, 8);
        if (isnan(da) || isnan(db)) continue;
        a = da;
        b = db;
      } else {
        uint64_t ua = 0, ub = 0;
        memcpy(&ua, buf, w);
        memcpy(&ub, buf + w, w);
        if (gcol_type_is_unsigned_integral(id)) {
          a = (long double)ua;
          b = (long double)ub;
        } else {
          int const shift = (int)(64 - 8 * w);
          a = (long double)((int64_t)(ua << shift) >> shift);
          b = (long double)((int64_t)(ub << shift) >> shift);
        }
      }
      uint64_t const ka = gcol_detail_reader_key(r, 0), kb = gcol_detail_reader_key(r, 1);
      int const want = a < b ? -1 : (a > b ? 1 : 0);
      int const got = ka < kb ? -1 : (ka > kb ? 1 : 0);
      if (want != got && !(a == 0 && b == 0)) { /* zeros: test_f64_keys_preserve_order */
        fail_msg("%s: order of %Lg and %Lg: keys %d, expected %d", gcol_type_name(id), a, b, got, want);
      }
      uint64_t const back = gcol_detail_storage_from_key(ka, r.kind, r.width);
      uint64_t original = 0;
      memcpy(&original, buf, w);
      assert_memory_equal(&back, &original, w);
    }
  }
}

static void test_key_of_extreme(void **state) {
  (void)state;
  assert_int_equal(gcol_detail_storage_from_key(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_SIGNED, 1, true),
                                                GCOL_DETAIL_KIND_SIGNED, 1) & 0xFF, 0x7F);
  assert_int_equal(gcol_detail_storage_from_key(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_SIGNED, 1, false),
                                                GCOL_DETAIL_KIND_SIGNED, 1) & 0xFF, 0x80);
  assert_true(gcol_detail_storage_from_key(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_SIGNED, 4, true),
                                           GCOL_DETAIL_KIND_SIGNED, 4) == (uint64_t)INT32_MAX);
  assert_true((uint32_t)gcol_detail_storage_from_key(
                  gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_SIGNED, 4, false),
                  GCOL_DETAIL_KIND_SIGNED, 4) == (uint32_t)INT32_MIN);
  assert_true(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_SIGNED, 8, false) == 0);
  assert_true(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_SIGNED, 8, true) == ~0ull);
  assert_true(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_UNSIGNED, 2, true) == 0xFFFF);
  assert_true(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_UNSIGNED, 8, true) == ~0ull);
  assert_true(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_BOOL, 1, true) == 1);
  assert_true(isinf(gcol_detail_f64_from_key(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_FLOAT, 8, false))));
  assert_true(isnan(gcol_detail_f64_from_key(gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_FLOAT, 4, true))));
  /* the smallest key of a type is below every key of its values: here INT16 -32768 */
  int16_t v = INT16_MIN;
  gcol_column_view view = gcol_column_view_make(gcol_data_type_make(GCOL_INT16), 1, &v, NULL, 0);
  assert_true(gcol_detail_reader_key(gcol_detail_reader_make(view), 0) ==
              gcol_detail_key_of_extreme(GCOL_DETAIL_KIND_SIGNED, 2, false));
}

static void test_reader_nulls_offset_and_bool(void **state) {
  (void)state;
  uint8_t bools[6] = {0, 1, 2, 255, 0, 7};
  uint32_t mask = 0x2Du; /* rows 0, 2, 3, 5 valid */
  gcol_column_view view = gcol_column_view_make(gcol_data_type_make(GCOL_BOOL8), 6, bools, &mask, 2);
  gcol_column_view slice;
  GCOL_TEST_OK(gcol_column_view_slice(view, 1, 6, &slice));
  gcol_detail_reader const r = gcol_detail_reader_make(slice);
  bool const valid[5] = {false, true, true, false, true};
  uint64_t const bits[5] = {1, 1, 1, 0, 1};
  for (int i = 0; i < 5; ++i) {
    assert_int_equal(gcol_detail_reader_valid(r, i), valid[i]);
    assert_int_equal(gcol_detail_reader_bits(r, i), bits[i]);
    assert_int_equal(gcol_detail_reader_nonzero(r, i), bits[i] != 0);
  }
  float f[3] = {-0.0f, NAN, 2.5f};
  gcol_detail_reader const rf =
      gcol_detail_reader_make(gcol_column_view_make(gcol_data_type_make(GCOL_FLOAT32), 3, f, NULL, 0));
  assert_false(gcol_detail_reader_nonzero(rf, 0)); /* -0.0 is zero */
  assert_true(gcol_detail_reader_nonzero(rf, 1));  /* NaN is not */
  assert_true(gcol_detail_reader_f64(rf, 2) == 2.5);
}

/* ------------------------------------------------------------------ moments and finishing */

static void test_moments_merge_matches_two_pass(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(603);
  for (int trial = 0; trial < 200; ++trial) {
    int const n = (int)gcol_test_rng_range(&rng, 1, 500);
    double xs[500];
    long double sum = 0;
    for (int i = 0; i < n; ++i) {
      xs[i] = 1e6 + gcol_test_rng_double(&rng); /* large mean, small spread: cancellation-prone */
      sum += xs[i];
    }
    /* merge in a random tree order, as a parallel reduction would */
    gcol_detail_moments parts[500];
    int count = n;
    for (int i = 0; i < n; ++i) parts[i] = gcol_detail_moments_make(1, xs[i], 0);
    while (count > 1) {
      int const i = (int)gcol_test_rng_range(&rng, 0, count - 2);
      parts[i] = gcol_detail_moments_merge(parts[i], parts[i + 1]);
      memmove(&parts[i + 1], &parts[i + 2], (size_t)(count - i - 2) * sizeof parts[0]);
      --count;
    }
    long double const mean = sum / n;
    long double m2 = 0;
    for (int i = 0; i < n; ++i) m2 += (xs[i] - mean) * (xs[i] - mean);
    assert_true(parts[0].n == n);
    assert_true(fabsl(parts[0].sum - sum) <= 1e-9L * fabsl(sum));
    if (fabsl(parts[0].m2 - m2) > 1e-6L * m2 + 1e-12L) {
      fail_msg("n %d: m2 %.17g, two-pass %.17Lg", n, parts[0].m2, m2);
    }
  }
  /* the identity leaves the other side unchanged */
  gcol_detail_moments const one = gcol_detail_moments_make(2, 3, 4);
  gcol_detail_moments const zero = gcol_detail_moments_make(0, 0, 0);
  assert_true(gcol_detail_moments_merge(zero, one).m2 == 4);
  assert_true(gcol_detail_moments_merge(one, zero).sum == 3);
}

static double f64_of(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static void test_finish_functions(void **state) {
  (void)state;
  uint64_t bits = 0;
  gcol_detail_reduce_plan p =
      gcol_detail_reduce_plan_make(GCOL_FLOAT64, GCOL_REDUCE_VARIANCE, GCOL_FLOAT64, 1);
  assert_int_equal(p.family, GCOL_DETAIL_FAMILY_MOMENTS);
  /* values 1, 2, 3, 4: mean 2.5, m2 5 */
  gcol_detail_moments m = gcol_detail_moments_make(4, 10, 5);
  assert_true(gcol_detail_finish_moments(p, m, &bits));
  assert_true(f64_of(bits) == 5.0 / 3.0);
  p.ddof = 4; /* n - ddof == 0: null */
  assert_false(gcol_detail_finish_moments(p, m, &bits));
  p.ddof = 0;
  p.op = GCOL_REDUCE_STD;
  assert_true(gcol_detail_finish_moments(p, m, &bits));
  assert_true(f64_of(bits) == sqrt(5.0 / 4.0));
  /* an infinite value: NaN variance whatever m2 the merge order left */
  assert_true(gcol_detail_finish_moments(p, gcol_detail_moments_make(3, INFINITY, INFINITY), &bits));
  assert_true(isnan(f64_of(bits)));
  p.op = GCOL_REDUCE_MEAN;
  assert_true(gcol_detail_finish_moments(p, m, &bits));
  assert_true(f64_of(bits) == 2.5);
  assert_false(gcol_detail_finish_moments(p, gcol_detail_moments_make(0, 0, 0), &bits));

  gcol_detail_reduce_plan const all = gcol_detail_reduce_plan_make(GCOL_INT32, GCOL_REDUCE_ALL, GCOL_BOOL8, 1);
  assert_true(gcol_detail_finish_u64(all, 0, 3, &bits)); /* no zero seen: all true */
  assert_int_equal(bits, 1);
  assert_true(gcol_detail_finish_u64(all, 1, 3, &bits));
  assert_int_equal(bits, 0);
  assert_false(gcol_detail_finish_u64(all, 0, 0, &bits)); /* no valid row: null */
  gcol_detail_reduce_plan const mn = gcol_detail_reduce_plan_make(GCOL_INT16, GCOL_REDUCE_MIN, GCOL_INT16, 1);
  int16_t v = -5;
  gcol_detail_reader const r =
      gcol_detail_reader_make(gcol_column_view_make(gcol_data_type_make(GCOL_INT16), 1, &v, NULL, 0));
  assert_true(gcol_detail_finish_u64(mn, gcol_detail_map_u64(r, mn.map_mode, 0), 1, &bits));
  assert_int_equal((int16_t)bits, -5);
  gcol_detail_reduce_plan const f32sum = gcol_detail_reduce_plan_make(GCOL_FLOAT32, GCOL_REDUCE_SUM, GCOL_FLOAT32, 1);
  assert_int_equal(f32sum.family, GCOL_DETAIL_FAMILY_F64_PLUS);
  assert_true(gcol_detail_finish_f64(f32sum, 0.1, 1, &bits));
  float f;
  uint32_t b32 = (uint32_t)bits;
  memcpy(&f, &b32, 4);
  assert_true(f == 0.1f);
}

/* The signed-zero rule of reduction.h: sums start from +0.0 (a lone -0.0, which a CUB
 * reduction or inclusive scan can hand over as is, finishes as +0.0), products keep the
 * IEEE sign, and the mean of -0.0 values is +0.0 although merging keeps a -0.0 sum. */
static void test_signed_zero_rule(void **state) {
  (void)state;
  uint64_t bits = 0;
  for (int w = 0; w < 2; ++w) {
    gcol_type_id const id = w == 0 ? GCOL_FLOAT64 : GCOL_FLOAT32;
    gcol_detail_reduce_plan const sum = gcol_detail_reduce_plan_make(id, GCOL_REDUCE_SUM, id, 1);
    assert_true(gcol_detail_finish_f64(sum, -0.0, 1, &bits));
    assert_int_equal(bits, 0);                                /* +0.0 in either width */
    assert_true(gcol_detail_finish_f64(sum, -2.5, 1, &bits)); /* other values untouched */
    assert_true(bits == gcol_detail_storage_from_f64(-2.5, sum.out_width));
    gcol_detail_reduce_plan const squares =
        gcol_detail_reduce_plan_make(id, GCOL_REDUCE_SUM_OF_SQUARES, id, 1);
    assert_true(gcol_detail_finish_f64(squares, -0.0, 1, &bits));
    assert_int_equal(bits, 0);
    gcol_detail_reduce_plan const product =
        gcol_detail_reduce_plan_make(id, GCOL_REDUCE_PRODUCT, id, 1);
    assert_true(gcol_detail_finish_f64(product, -0.0, 1, &bits));
    assert_true(bits == gcol_detail_storage_from_f64(-0.0, product.out_width)); /* sign kept */
    assert_true(bits != 0);
  }
  gcol_detail_reduce_plan p =
      gcol_detail_reduce_plan_make(GCOL_FLOAT64, GCOL_REDUCE_MEAN, GCOL_FLOAT64, 1);
  gcol_detail_moments const one = gcol_detail_moments_make(1, -0.0, 0);
  gcol_detail_moments const two = gcol_detail_moments_merge(gcol_detail_moments_make(0, 0, 0),
                                                            gcol_detail_moments_merge(one, one));
  assert_true(signbit(two.sum)); /* merging alone keeps the -0.0 */
  assert_true(gcol_detail_finish_moments(p, two, &bits));
  assert_int_equal(bits, 0);
  p.op = GCOL_REDUCE_VARIANCE;
  assert_true(gcol_detail_finish_moments(p, two, &bits));
  assert_int_equal(bits, 0);
  /* subnormal deviations square to 0 in double: the variance of ~1e-310 values is 0, the
   * double nearest to the exact ~2.5e-621 (the reference allows for it) */
  double const subnormals[] = {4.9e-324, 1e-310, -2e-315, 0.0};
  gcol_detail_moments m = gcol_detail_moments_make(0, 0, 0);
  for (int i = 0; i < 4; ++i) {
    m = gcol_detail_moments_merge(m, gcol_detail_moments_make(1, subnormals[i], 0));
  }
  assert_true(gcol_detail_finish_moments(p, m, &bits));
  assert_true(f64_of(bits) >= 0 && f64_of(bits) <= 16 * DBL_TRUE_MIN);
}

static void test_key_index_ties_pick_first(void **state) {
  (void)state;
  gcol_detail_key_index a = {5, 7}, b = {5, 3}, c = {6, 9}, null_row = {0, GCOL_DETAIL_NO_INDEX};
  assert_int_equal(gcol_detail_key_index_max(a, b).index, 3);
  assert_int_equal(gcol_detail_key_index_max(b, a).index, 3);
  assert_int_equal(gcol_detail_key_index_max(a, c).index, 9);
  gcol_detail_key_index zero = {0, 4};
  assert_int_equal(gcol_detail_key_index_max(null_row, zero).index, 4);
  assert_int_equal(gcol_detail_key_index_max(zero, null_row).index, 4);
}

/* ------------------------------------------------------------------ quantile selection */

static void test_round_half_even(void **state) {
  (void)state;
  assert_int_equal(gcol_detail_round_half_even(0.5), 0);
  assert_int_equal(gcol_detail_round_half_even(1.5), 2);
  assert_int_equal(gcol_detail_round_half_even(2.5), 2);
  assert_int_equal(gcol_detail_round_half_even(2.4999), 2);
  assert_int_equal(gcol_detail_round_half_even(2.5001), 3);
  assert_int_equal(gcol_detail_round_half_even(7.0), 7);
}

static void test_quantile_bits(void **state) {
  (void)state;
  /* sorted values 10, 20, 30, 40 (INT32 keys) */
  int32_t values[4] = {10, 20, 30, 40};
  gcol_detail_reader const r =
      gcol_detail_reader_make(gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 4, values, NULL, 0));
  uint64_t keys[4];
  for (int i = 0; i < 4; ++i) keys[i] = gcol_detail_reader_key(r, i);
  int const S = GCOL_DETAIL_KIND_SIGNED;
  /* q = 0.5: pos 1.5 */
  assert_int_equal((int32_t)gcol_detail_quantile_bits(keys, 4, 0.5, GCOL_INTERPOLATION_LOWER, S, 4), 20);
  assert_int_equal((int32_t)gcol_detail_quantile_bits(keys, 4, 0.5, GCOL_INTERPOLATION_HIGHER, S, 4), 30);
  assert_int_equal((int32_t)gcol_detail_quantile_bits(keys, 4, 0.5, GCOL_INTERPOLATION_NEAREST, S, 4), 30);
  assert_true(f64_of(gcol_detail_quantile_bits(keys, 4, 0.5, GCOL_INTERPOLATION_LINEAR, S, 4)) == 25.0);
  assert_true(f64_of(gcol_detail_quantile_bits(keys, 4, 0.5, GCOL_INTERPOLATION_MIDPOINT, S, 4)) == 25.0);
  /* q = 0.25: pos 0.75 */
  assert_true(f64_of(gcol_detail_quantile_bits(keys, 4, 0.25, GCOL_INTERPOLATION_LINEAR, S, 4)) == 17.5);
  assert_int_equal((int32_t)gcol_detail_quantile_bits(keys, 4, 0.25, GCOL_INTERPOLATION_NEAREST, S, 4), 20);
  /* three values: q = 0.25 is pos 0.5 (rounds to even 0), q = 0.75 pos 1.5 (to even 2) */
  assert_int_equal((int32_t)gcol_detail_quantile_bits(keys, 3, 0.25, GCOL_INTERPOLATION_NEAREST, S, 4), 10);
  assert_int_equal((int32_t)gcol_detail_quantile_bits(keys, 3, 0.75, GCOL_INTERPOLATION_NEAREST, S, 4), 30);
  /* ends and a single value */
  assert_int_equal((int32_t)gcol_detail_quantile_bits(keys, 4, 1.0, GCOL_INTERPOLATION_HIGHER, S, 4), 40);
  assert_int_equal((int32_t)gcol_detail_quantile_bits(keys, 4, 0.0, GCOL_INTERPOLATION_LOWER, S, 4), 10);
  assert_true(f64_of(gcol_detail_quantile_bits(keys, 1, 0.3, GCOL_INTERPOLATION_LINEAR, S, 4)) == 10.0);
  /* infinities: equal ends are returned as they are (not inf - inf = NaN) */
  uint64_t inf_keys[2] = {gcol_detail_key_from_f64(INFINITY), gcol_detail_key_from_f64(INFINITY)};
  assert_true(isinf(f64_of(gcol_detail_quantile_bits(inf_keys, 2, 0.5, GCOL_INTERPOLATION_LINEAR,
                                                    GCOL_DETAIL_KIND_FLOAT, 8))));
}

static void test_store_bits_widths(void **state) {
  (void)state;
  unsigned char buf[32];
  memset(buf, 0xAB, sizeof buf);
  gcol_detail_store_bits(buf, 1, 2, 0x1234567890ABCDEFull);
  assert_int_equal(buf[2], 0xEF);
  assert_int_equal(buf[3], 0xCD);
  assert_int_equal(buf[4], 0xAB); /* untouched beyond the element */
  gcol_detail_store_bits(buf, 1, 8, 0x0102030405060708ull);
  assert_int_equal(buf[8], 0x08);
  assert_int_equal(buf[15], 0x01);
  gcol_detail_store_bits(buf, 0, 1, 0x1FF);
  assert_int_equal(buf[0], 0xFF);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reduce_output_types),
      cmocka_unit_test(test_reduce_output_type_bad_arguments),
      cmocka_unit_test(test_quantile_output_types),
      cmocka_unit_test(test_scan_output_types),
      cmocka_unit_test(test_reduce_rejects_before_device_work),
      cmocka_unit_test(test_segmented_rejects_before_device_work),
      cmocka_unit_test(test_quantile_rejects_before_device_work),
      cmocka_unit_test(test_scan_rejects_before_device_work),
      cmocka_unit_test(test_f64_keys_preserve_order),
      cmocka_unit_test(test_reader_keys_all_kinds),
      cmocka_unit_test(test_key_of_extreme),
      cmocka_unit_test(test_reader_nulls_offset_and_bool),
      cmocka_unit_test(test_moments_merge_matches_two_pass),
      cmocka_unit_test(test_finish_functions),
      cmocka_unit_test(test_signed_zero_rule),
      cmocka_unit_test(test_key_index_ties_pick_first),
      cmocka_unit_test(test_round_half_even),
      cmocka_unit_test(test_quantile_bits),
      cmocka_unit_test(test_store_bits_widths),
  };
  return GCOL_TEST_RUN("reduction_host", tests);
}
