/*
 * gcol_reduce on the GPU against the host reference: every op x every fixed-width type (the
 * ops a type does not accept are checked to be rejected), every size of TESTING.md, every
 * validity pattern, slices at unaligned offsets, ~1e6 rows, float specials, integer
 * extremes, strings, ddof, and a failure at every allocation.
 *
 * Float tolerances (reduction_reference.c): sums and sums of squares within
 * 1e-10 * sum|x| of a long double sum (+ 1.2e-7 relative for FLOAT32 outputs, rounded once
 * from double); products within 1e-13 * n relative; mean within 1e-12 * mean|x|; variance
 * and std within 1e-9 relative. Integers, decimals, min/max/arg*, any/all and counts exact.
 */
#include <float.h>
#include <math.h>

#include "reduction_reference.h"

static const gcol_type_id fixed_types[] = {
    GCOL_INT8,           GCOL_INT16,          GCOL_INT32,
    GCOL_INT64,          GCOL_UINT8,          GCOL_UINT16,
    GCOL_UINT32,         GCOL_UINT64,         GCOL_FLOAT32,
    GCOL_FLOAT64,        GCOL_BOOL8,          GCOL_TIMESTAMP_DAYS,
    GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_MILLISECONDS, GCOL_TIMESTAMP_MICROSECONDS,
    GCOL_TIMESTAMP_NANOSECONDS, GCOL_DURATION_DAYS, GCOL_DURATION_SECONDS,
    GCOL_DURATION_MILLISECONDS, GCOL_DURATION_MICROSECONDS, GCOL_DURATION_NANOSECONDS,
    GCOL_DECIMAL32,      GCOL_DECIMAL64,      GCOL_DECIMAL128};
#define NUM_FIXED_TYPES (sizeof fixed_types / sizeof fixed_types[0])

static gcol_data_type make_type(gcol_type_id id) {
  return gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, -2) : gcol_data_type_make(id);
}

/* Reduces `view` (whose rows are `host`) with op and checks the result; ops the type does not
 * accept must be rejected with the status of gcol_reduce_output_type. */
static void check_op(const ref_column *host, gcol_column_view view, gcol_reduce_op op,
                     int32_t ddof, const char *where) {
  char context[256];
  snprintf(context, sizeof context, "%s: %s of %s, %lld rows (offset %lld)", where,
           gcol_reduce_op_name(op), gcol_type_name(host->type.id), (long long)view.size,
           (long long)view.offset);
  gcol_data_type out_type;
  gcol_status const rule = gcol_reduce_output_type(host->type, op, &out_type);
  gcol_reduce_options const options = {ddof};
  gcol_scalar *s = NULL;
  gcol_status const st = gcol_reduce(view, op, &options, &s, NULL);
  if (rule != GCOL_OK) {
    if (st != rule) fail_msg("%s: %s, expected %s", context, gcol_status_string(st), gcol_status_string(rule));
    assert_null(s);
    return;
  }
  if (st != GCOL_OK) fail_msg("%s: %s (%s)", context, gcol_status_string(st), gcol_last_error());
  assert_non_null(s);
  if (!gcol_data_type_equal(s->type, out_type)) fail_msg("%s: result type %s", context, gcol_type_name(s->type.id));
  uint64_t bits = 0;
  if (s->is_valid) memcpy(&bits, gcol_scalar_get_storage(s), gcol_type_size(out_type.id));
  ref_check_result(ref_reduce(host, op, ddof), s->is_valid, bits, out_type, context, -1);
  gcol_scalar_free(s);
}

static void check_all_ops(const ref_column *host, gcol_column_view view, const char *where) {
  for (int op = 0; op < GCOL_REDUCE_NUM_OPS; ++op) check_op(host, view, (gcol_reduce_op)op, 1, where);
}

/* Builds a device column of `size + offset` random rows and checks all ops on the slice
 * [offset, offset + size). */
static void check_random(gcol_test_rng *rng, gcol_type_id id, int64_t size, int64_t offset,
                         gcol_test_validity pattern, const char *where) {
  ref_column host = ref_column_random(rng, make_type(id), size + offset, pattern);
  gcol_column *col = ref_column_to_device(&host);
  gcol_column_view view = gcol_column_get_view(col);
  if (offset > 0) GCOL_TEST_OK(gcol_column_view_slice(view, offset, offset + size, &view));
  ref_column const window = ref_column_window(&host, offset, size);
  char context[128];
  snprintf(context, sizeof context, "%s, %s", where, gcol_test_validity_name(pattern));
  check_all_ops(&window, view, context);
  gcol_column_free(col);
  ref_column_free(&host);
}

static void test_reduce_every_type_and_size(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6001);
  for (size_t t = 0; t < NUM_FIXED_TYPES; ++t) {
    for (size_t k = 0; k < gcol_test_num_sizes; ++k) {
      check_random(&rng, fixed_types[t], gcol_test_sizes[k], 0, GCOL_TEST_RANDOM_NULLS, "sizes");
      check_random(&rng, fixed_types[t], gcol_test_sizes[k], 0, GCOL_TEST_NO_MASK, "sizes");
    }
  }
}

static void test_reduce_validity_patterns(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6002);
  int64_t const sizes[] = {1, 257, 4097};
  for (size_t t = 0; t < NUM_FIXED_TYPES; ++t) {
    for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
      for (size_t k = 0; k < 3; ++k) {
        check_random(&rng, fixed_types[t], sizes[k], 0, (gcol_test_validity)p, "validity");
      }
    }
  }
}

static void test_reduce_slices(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6003);
  for (size_t t = 0; t < NUM_FIXED_TYPES; ++t) {
    for (size_t k = 0; k < gcol_test_num_offsets; ++k) {
      /* under the tools every other (type, offset): each type keeps offsets inside a byte and
       * past a mask word (0, 3, 7, 33, 65 or 1, 5, 31, 63), at 300 rows (past a block) */
      if (!gcol_test_keep_combination(t + k)) continue;
      check_random(&rng, fixed_types[t], 300, gcol_test_offsets[k], GCOL_TEST_RANDOM_NULLS, "slice");
      check_random(&rng, fixed_types[t], 31, gcol_test_offsets[k], GCOL_TEST_ALL_VALID, "slice");
    }
  }
  /* a slice of a slice, and a zero-length slice at the end */
  ref_column host = ref_column_random(&rng, make_type(GCOL_INT32), 500, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = ref_column_to_device(&host);
  gcol_column_view outer, inner, tail;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 33, 470, &outer));
  GCOL_TEST_OK(gcol_column_view_slice(outer, 7, 400, &inner));
  ref_column const window = ref_column_window(&host, 40, 393);
  check_all_ops(&window, inner, "slice of a slice");
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 500, 500, &tail));
  ref_column const empty = ref_column_window(&host, 500, 0);
  check_all_ops(&empty, tail, "empty slice at the end");
  gcol_column_free(col);
  ref_column_free(&host);
}

static void test_reduce_large(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6004);
  static const gcol_type_id ids[] = {GCOL_INT64, GCOL_FLOAT64, GCOL_FLOAT32, GCOL_INT8,
                                     GCOL_UINT32, GCOL_DECIMAL64, GCOL_UINT64};
  for (size_t t = 0; t < sizeof ids / sizeof ids[0]; ++t) {
    check_random(&rng, ids[t], gcol_test_cap(1000003), 0, GCOL_TEST_NO_MASK, "large");
    check_random(&rng, ids[t], gcol_test_cap(1000003), 65, GCOL_TEST_RANDOM_NULLS, "large");
  }
}

/* A FLOAT64 or FLOAT32 column of given values (valid: NULL or bytes). */
static void check_floats(gcol_type_id id, const double *values, const uint8_t *valid, int64_t n,
                         const char *where) {
  ref_column host;
  host.type = gcol_data_type_make(id);
  host.size = n;
  host.valid = (uint8_t *)valid;
  host.data = (unsigned char *)malloc((size_t)n * 8 + 1);
  for (int64_t i = 0; i < n; ++i) {
    if (id == GCOL_FLOAT32) {
      float const f = (float)values[i];
      memcpy(host.data + i * 4, &f, 4);
    } else {
      memcpy(host.data + i * 8, &values[i], 8);
    }
  }
  gcol_column *col = ref_column_to_device(&host);
  check_all_ops(&host, gcol_column_get_view(col), where);
  gcol_column_free(col);
  free(host.data);
}

static void test_reduce_float_specials(void **state) {
  (void)state;
  static const gcol_type_id ids[] = {GCOL_FLOAT64, GCOL_FLOAT32};
  /* order ops (min, max, argmin, argmax, any, all) see every special; sums and moments see
   * none of the overflow-prone values */
  double const everything[] = {1.5,     -0.0,     NAN,     0.0,      -INFINITY, INFINITY, -NAN,
                               DBL_MAX, -DBL_MAX, 4.9e-324, -1.0,   DBL_MIN,   -0.0,     7.0};
  double const zeros[] = {0.0, -0.0, 0.0, -0.0};
  double const negative_zeros[] = {-0.0, -0.0, -0.0};
  double const pos_zero_first[] = {0.0, -0.0};
  double const all_nan[] = {NAN, -NAN, NAN};
  double const inf_and_one[] = {INFINITY, 1.0, 2.0};
  double const inf_both[] = {INFINITY, -INFINITY, 3.0};
  double const subnormals[] = {4.9e-324, 1e-310, -2e-315, 0.0};
  uint8_t const nan_is_null[] = {1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1};
  for (size_t t = 0; t < 2; ++t) {
    char where[64];
    snprintf(where, sizeof where, "specials %s", gcol_type_name(ids[t]));
    check_floats(ids[t], zeros, NULL, 4, where);
    check_floats(ids[t], negative_zeros, NULL, 3, where);
    check_floats(ids[t], pos_zero_first, NULL, 2, where);
    check_floats(ids[t], all_nan, NULL, 3, where);
    check_floats(ids[t], inf_and_one, NULL, 3, where);
    check_floats(ids[t], inf_both, NULL, 3, where);
    check_floats(ids[t], subnormals, NULL, 4, where);
    /* the full set only for ops whose result does not depend on summation order */
    ref_column host;
    host.type = gcol_data_type_make(ids[t]);
    host.size = 14;
    host.data = (unsigned char *)malloc(14 * 8);
    for (int pass = 0; pass < 2; ++pass) {
      host.valid = pass == 0 ? NULL : (uint8_t *)nan_is_null;
      for (int i = 0; i < 14; ++i) {
        if (ids[t] == GCOL_FLOAT32) {
          float const f = (float)everything[i];
          memcpy(host.data + i * 4, &f, 4);
        } else {
          memcpy(host.data + i * 8, &everything[i], 8);
        }
      }
      gcol_column *col = ref_column_to_device(&host);
      static const gcol_reduce_op order_ops[] = {GCOL_REDUCE_MIN, GCOL_REDUCE_MAX, GCOL_REDUCE_ARGMIN,
                                                 GCOL_REDUCE_ARGMAX, GCOL_REDUCE_ANY, GCOL_REDUCE_ALL,
                                                 GCOL_REDUCE_COUNT_VALID};
      for (size_t k = 0; k < sizeof order_ops / sizeof order_ops[0]; ++k) {
        check_op(&host, gcol_column_get_view(col), order_ops[k], 1, where);
      }
      gcol_column_free(col);
    }
    free(host.data);
  }
  /* spelled-out expectations of the order: max NaN, min -Inf, argmin of zeros the -0.0 */
  double const v[] = {0.0, -0.0, NAN, -INFINITY};
  ref_column host = {gcol_data_type_make(GCOL_FLOAT64), 4, (unsigned char *)v, NULL};
  gcol_column *col = ref_column_to_device(&host);
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_reduce(gcol_column_get_view(col), GCOL_REDUCE_MAX, NULL, &s, NULL));
  assert_true(isnan(s->value.f64));
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_reduce(gcol_column_get_view(col), GCOL_REDUCE_MIN, NULL, &s, NULL));
  assert_true(isinf(s->value.f64) && s->value.f64 < 0);
  gcol_scalar_free(s);
  gcol_column_free(col);
  /* the signed-zero rule spelled out: a sum or mean of -0.0 alone is +0.0, a product and
   * the min keep -0.0 */
  double const lone[] = {-0.0};
  ref_column zero_host = {gcol_data_type_make(GCOL_FLOAT64), 1, (unsigned char *)lone, NULL};
  col = ref_column_to_device(&zero_host);
  static const gcol_reduce_op zero_ops[] = {GCOL_REDUCE_SUM, GCOL_REDUCE_MEAN, GCOL_REDUCE_PRODUCT,
                                            GCOL_REDUCE_MIN};
  for (int k = 0; k < 4; ++k) {
    GCOL_TEST_OK(gcol_reduce(gcol_column_get_view(col), zero_ops[k], NULL, &s, NULL));
    bool const negative = zero_ops[k] == GCOL_REDUCE_PRODUCT || zero_ops[k] == GCOL_REDUCE_MIN;
    if (!(s->is_valid && s->value.f64 == 0 && (signbit(s->value.f64) != 0) == negative)) {
      fail_msg("%s of [-0.0]: got %g, expected %s0", gcol_reduce_op_name(zero_ops[k]), s->value.f64,
               negative ? "-" : "+");
    }
    gcol_scalar_free(s);
  }
  gcol_column_free(col);
}

/* Products of many floats near 1 stay in range in every order, so they are checked at
 * ~1e5 rows (random [-1000, 1000] data overflow and are checked for validity only). */
static void test_reduce_float_product_near_one(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6008);
  int64_t const n = gcol_test_cap(100003);
  double *values = (double *)malloc((size_t)n * sizeof *values);
  uint8_t *valid = (uint8_t *)malloc((size_t)n);
  for (int64_t i = 0; i < n; ++i) {
    values[i] = 0.99 + 0.02 * gcol_test_rng_double(&rng);
    valid[i] = gcol_test_rng_range(&rng, 0, 9) != 0;
  }
  check_floats(GCOL_FLOAT64, values, valid, n, "product near 1");
  check_floats(GCOL_FLOAT32, values, NULL, n, "product near 1");
  free(values);
  free(valid);
}

static void test_reduce_integer_extremes(void **state) {
  (void)state;
  int64_t const wrap[] = {INT64_MAX, 1, INT64_MIN, -1, INT64_MIN};
  ref_column host = {gcol_data_type_make(GCOL_INT64), 5, (unsigned char *)wrap, NULL};
  gcol_column *col = ref_column_to_device(&host);
  check_all_ops(&host, gcol_column_get_view(col), "int64 extremes");
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_reduce(gcol_column_get_view(col), GCOL_REDUCE_SUM, NULL, &s, NULL));
  assert_true(s->value.i64 == (int64_t)((uint64_t)INT64_MAX + 1 + (uint64_t)INT64_MIN * 2 - 1));
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_reduce(gcol_column_get_view(col), GCOL_REDUCE_ARGMIN, NULL, &s, NULL));
  assert_int_equal(s->value.i64, 2); /* the first of two INT64_MIN */
  gcol_scalar_free(s);
  gcol_column_free(col);

  uint64_t const big[] = {UINT64_MAX, UINT64_MAX, 2};
  ref_column uhost = {gcol_data_type_make(GCOL_UINT64), 3, (unsigned char *)big, NULL};
  col = ref_column_to_device(&uhost);
  check_all_ops(&uhost, gcol_column_get_view(col), "uint64 extremes");
  gcol_column_free(col);

  int8_t const small[] = {-128, 127, 0, -1};
  ref_column shost = {gcol_data_type_make(GCOL_INT8), 4, (unsigned char *)small, NULL};
  col = ref_column_to_device(&shost);
  check_all_ops(&shost, gcol_column_get_view(col), "int8 extremes");
  GCOL_TEST_OK(gcol_reduce(gcol_column_get_view(col), GCOL_REDUCE_SUM, NULL, &s, NULL));
  assert_true(s->type.id == GCOL_INT64 && s->value.i64 == -2); /* widened: no int8 wrap */
  gcol_scalar_free(s);
  gcol_column_free(col);
}

static void test_reduce_decimal_keeps_scale(void **state) {
  (void)state;
  int32_t const cents[] = {150, -25, 1000, 7};
  ref_column host = {gcol_data_type_decimal(GCOL_DECIMAL32, -2), 4, (unsigned char *)cents, NULL};
  gcol_column *col = ref_column_to_device(&host);
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_reduce(gcol_column_get_view(col), GCOL_REDUCE_SUM, NULL, &s, NULL));
  assert_true(gcol_data_type_equal(s->type, gcol_data_type_decimal(GCOL_DECIMAL64, -2)));
  assert_int_equal(s->value.i64, 1132);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_reduce(gcol_column_get_view(col), GCOL_REDUCE_MAX, NULL, &s, NULL));
  assert_true(gcol_data_type_equal(s->type, gcol_data_type_decimal(GCOL_DECIMAL32, -2)));
  assert_int_equal(s->value.i32, 1000);
  gcol_scalar_free(s);
  GCOL_TEST_STATUS(gcol_reduce(gcol_column_get_view(col), GCOL_REDUCE_PRODUCT, NULL, &s, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(s);
  gcol_column_free(col);
}

static void test_reduce_ddof(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6005);
  for (int64_t n = 0; n < 8; ++n) {
    ref_column host = ref_column_random(&rng, make_type(GCOL_FLOAT64), n, GCOL_TEST_NO_MASK);
    gcol_column *col = ref_column_to_device(&host);
    for (int32_t ddof = 0; ddof < 6; ++ddof) {
      check_op(&host, gcol_column_get_view(col), GCOL_REDUCE_VARIANCE, ddof, "ddof");
      check_op(&host, gcol_column_get_view(col), GCOL_REDUCE_STD, ddof, "ddof");
    }
    gcol_column_free(col);
    ref_column_free(&host);
  }
}

/* ------------------------------------------------------------------ strings */

static int compare_bytes(const char *a, int64_t na, const char *b, int64_t nb) {
  int64_t const n = na < nb ? na : nb;
  for (int64_t i = 0; i < n; ++i) {
    if ((unsigned char)a[i] != (unsigned char)b[i]) return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
  }
  return na < nb ? -1 : (na > nb ? 1 : 0);
}

/* Checks min, max, argmin, argmax and the counts of strings rows [begin, end) of `col`. */
static void check_strings(gcol_column *col, const char *const *strs, const int64_t *lens,
                          int64_t begin, int64_t end, const char *where) {
  gcol_column_view view;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), begin, end, &view));
  int64_t lo = -1, hi = -1, valid = 0;
  for (int64_t i = begin; i < end; ++i) {
    if (strs[i] == NULL) continue;
    ++valid;
    if (lo < 0 || compare_bytes(strs[i], lens[i], strs[lo], lens[lo]) < 0) lo = i;
    if (hi < 0 || compare_bytes(strs[i], lens[i], strs[hi], lens[hi]) > 0) hi = i;
  }
  gcol_scalar *s = NULL;
  for (int op = GCOL_REDUCE_MIN; op <= GCOL_REDUCE_MAX; ++op) {
    GCOL_TEST_OK(gcol_reduce(view, (gcol_reduce_op)op, NULL, &s, NULL));
    assert_int_equal(s->type.id, GCOL_STRING);
    int64_t const want = op == GCOL_REDUCE_MIN ? lo : hi;
    if (want < 0) {
      assert_false(s->is_valid);
    } else {
      assert_true(s->is_valid);
      if (s->string_size != lens[want] || memcmp(s->string_data, strs[want], (size_t)lens[want]) != 0) {
        fail_msg("%s: %s gives %lld bytes, expected row %lld", where,
                 gcol_reduce_op_name((gcol_reduce_op)op), (long long)s->string_size, (long long)want);
      }
    }
    gcol_scalar_free(s);
  }
  for (int op = GCOL_REDUCE_ARGMIN; op <= GCOL_REDUCE_ARGMAX; ++op) {
    GCOL_TEST_OK(gcol_reduce(view, (gcol_reduce_op)op, NULL, &s, NULL));
    int64_t const want = op == GCOL_REDUCE_ARGMIN ? lo : hi;
    assert_int_equal(s->is_valid, want >= 0);
    if (want >= 0) assert_int_equal(s->value.i64, want - begin);
    gcol_scalar_free(s);
  }
  GCOL_TEST_OK(gcol_reduce(view, GCOL_REDUCE_COUNT_VALID, NULL, &s, NULL));
  assert_int_equal(s->value.i64, valid);
  gcol_scalar_free(s);
  GCOL_TEST_STATUS(gcol_reduce(view, GCOL_REDUCE_SUM, NULL, &s, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_non_null(strstr(gcol_last_error(), "string"));
}

static void test_reduce_strings_cases(void **state) {
  (void)state;
  const char *const strs[] = {"b", "", NULL, "a\0b", "ab", "\xF4\x8F\xBF\xBF", "a", "\0", "ab", NULL};
  int64_t const lens[] = {1, 0, 0, 3, 2, 4, 1, 1, 2, 0};
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(10, strs, lens, NULL, NULL, &col));
  check_strings(col, strs, lens, 0, 10, "cases");
  check_strings(col, strs, lens, 3, 9, "cases sliced");
  check_strings(col, strs, lens, 2, 3, "one null");
  check_strings(col, strs, lens, 4, 4, "empty");
  gcol_column_free(col);
}

static void test_reduce_strings_random(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6006);
  int64_t const n = 5000;
  char **strs = (char **)calloc((size_t)n, sizeof *strs);
  int64_t *lens = (int64_t *)calloc((size_t)n, sizeof *lens);
  for (int64_t i = 0; i < n; ++i) {
    if (gcol_test_rng_range(&rng, 0, 3) == 0) continue; /* null */
    lens[i] = gcol_test_rng_range(&rng, 0, 6);
    strs[i] = (char *)malloc((size_t)lens[i] + 1);
    for (int64_t k = 0; k < lens[i]; ++k) strs[i][k] = (char)gcol_test_rng_range(&rng, 'a', 'd');
  }
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(n, (const char *const *)strs, lens, NULL, NULL, &col));
  check_strings(col, (const char *const *)strs, lens, 0, n, "random");
  check_strings(col, (const char *const *)strs, lens, 33, n - 65, "random sliced");
  gcol_column_free(col);
  for (int64_t i = 0; i < n; ++i) free(strs[i]);
  free(strs);
  free(lens);
}

/* ------------------------------------------------------------------ faults */

typedef struct fault_ctx {
  gcol_column_view view;
  gcol_reduce_op op;
} fault_ctx;

static gcol_status run_reduce(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_scalar *s = (gcol_scalar *)&s;
  gcol_status const st = gcol_reduce(c->view, c->op, NULL, &s, NULL);
  if (st != GCOL_OK) assert_null(s);
  gcol_scalar_free(st == GCOL_OK ? s : NULL);
  return st;
}

static void test_reduce_fail_every_allocation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6007);
  ref_column host = ref_column_random(&rng, make_type(GCOL_INT32), 10000, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = ref_column_to_device(&host);
  fault_ctx ctx;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 9000, &ctx.view)); /* count unknown */
  static const gcol_reduce_op ops[] = {GCOL_REDUCE_SUM, GCOL_REDUCE_MEAN, GCOL_REDUCE_ARGMAX,
                                       GCOL_REDUCE_MIN, GCOL_REDUCE_COUNT_VALID};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
    ctx.op = ops[k];
    ref_fail_nth_loop(run_reduce, &ctx, gcol_reduce_op_name(ops[k]));
  }
  gcol_column_free(col);
  ref_column_free(&host);
  const char *const strs[] = {"x", NULL, "abc", "ab"};
  GCOL_TEST_OK(gcol_column_create_strings_from_host(4, strs, NULL, NULL, NULL, &col));
  ctx.view = gcol_column_get_view(col);
  ctx.op = GCOL_REDUCE_MAX;
  assert_true(ref_fail_nth_loop(run_reduce, &ctx, "strings max") >= 1);
  gcol_column_free(col);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_reduce_every_type_and_size),
      GCOL_TEST_GPU(test_reduce_validity_patterns),
      GCOL_TEST_GPU(test_reduce_slices),
      GCOL_TEST_GPU(test_reduce_large),
      GCOL_TEST_GPU(test_reduce_float_specials),
      GCOL_TEST_GPU(test_reduce_float_product_near_one),
      GCOL_TEST_GPU(test_reduce_integer_extremes),
      GCOL_TEST_GPU(test_reduce_decimal_keeps_scale),
      GCOL_TEST_GPU(test_reduce_ddof),
      GCOL_TEST_GPU(test_reduce_strings_cases),
      GCOL_TEST_GPU(test_reduce_strings_random),
      GCOL_TEST_GPU(test_reduce_fail_every_allocation),
  };
  return GCOL_TEST_RUN_GPU("reduction_reduce", tests);
}
