/*
 * GPU tests of unary operations, casts and datetime extraction against plain-C references:
 * libm within the documented ulp bounds (exact for sqrt, ceil, floor, rint, abs, negate),
 * every accepted cast pair, strings <-> numbers (parse edge cases, printf-identical text,
 * the INT64-offsets path), and calendar fields of every timestamp unit.
 */
#include <float.h>
#include <math.h>

#include "ops_support.h"

#include "detail/string_convert.h"
#include "detail/civil.h"

/* ---- unary ---- */

static double ref_math(gcol_unary_op op, double x, bool *exact) {
  *exact = op >= GCOL_UNARY_SQRT && op != GCOL_UNARY_CBRT;
  switch (op) {
    case GCOL_UNARY_SIN: return sin(x);
    case GCOL_UNARY_COS: return cos(x);
    case GCOL_UNARY_TAN: return tan(x);
    case GCOL_UNARY_ARCSIN: return asin(x);
    case GCOL_UNARY_ARCCOS: return acos(x);
    case GCOL_UNARY_ARCTAN: return atan(x);
    case GCOL_UNARY_SINH: return sinh(x);
    case GCOL_UNARY_COSH: return cosh(x);
    case GCOL_UNARY_TANH: return tanh(x);
    case GCOL_UNARY_ARCSINH: return asinh(x);
    case GCOL_UNARY_ARCCOSH: return acosh(x);
    case GCOL_UNARY_ARCTANH: return atanh(x);
    case GCOL_UNARY_EXP: return exp(x);
    case GCOL_UNARY_LOG: return log(x);
    case GCOL_UNARY_SQRT: return sqrt(x);
    case GCOL_UNARY_CBRT: return cbrt(x);
    case GCOL_UNARY_CEIL: return ceil(x);
    case GCOL_UNARY_FLOOR: return floor(x);
    case GCOL_UNARY_RINT: return rint(x);
    case GCOL_UNARY_ABS: return fabs(x);
    case GCOL_UNARY_NEGATE: return -x;
    default: return x == 0.0; /* NOT */
  }
}

/* Integer reference on the value's bits, wrapped to the type. */
static uint64_t ref_int_unary(gcol_unary_op op, gcol_type_id id, uint64_t bits, int64_t value) {
  bool const is_signed = gcol_type_is_signed_integral(id) || gcol_type_is_duration(id);
  switch (op) {
    case GCOL_UNARY_ABS: return (is_signed && value < 0) ? (uint64_t)0 - (uint64_t)value : bits;
    case GCOL_UNARY_NEGATE: return (uint64_t)0 - (uint64_t)value;
    case GCOL_UNARY_BIT_INVERT: return id == GCOL_BOOL8 ? (uint64_t)(bits == 0) : ~bits;
    default: return bits == 0; /* NOT */
  }
}

static void unary_every_op_every_type(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(801);
  gcol_type_id const ids[] = {GCOL_INT8, GCOL_INT16, GCOL_INT32, GCOL_INT64, GCOL_UINT8, GCOL_UINT16,
                              GCOL_UINT32, GCOL_UINT64, GCOL_FLOAT32, GCOL_FLOAT64, GCOL_BOOL8,
                              GCOL_DURATION_SECONDS, GCOL_DURATION_DAYS};
  int64_t worst = 0;
  for (int op = 0; op < GCOL_NUM_UNARY_OPS; ++op) {
    for (size_t t = 0; t < sizeof ids / sizeof ids[0]; ++t) {
      gcol_data_type const type = gcol_data_type_make(ids[t]);
      gcol_data_type ot;
      if (gcol_unary_op_check_type(type, (gcol_unary_op)op, &ot) != GCOL_OK) continue;
      int64_t const n = 777;
      ops_host_col in = ops_host_random(&rng, type, n, (gcol_test_validity)((op + (int)t) % GCOL_TEST_NUM_VALIDITY));
      gcol_column_view v;
      gcol_column *c = ops_upload(&in, gcol_test_offsets[(size_t)op % gcol_test_num_offsets], &v);
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_unary_operation(v, (gcol_unary_op)op, &out, NULL, NULL));
      unsigned char *data = NULL;
      uint8_t *valid = NULL;
      ops_download(gcol_column_get_view(out), &data, &valid);
      size_t const w = gcol_type_size(ot.id);
      for (int64_t i = 0; i < n; ++i) {
        assert_int_equal(valid[i] != 0, ops_is_valid(&in, i));
        if (!valid[i]) continue;
        const unsigned char *got = data + (size_t)i * w;
        if (gcol_type_is_floating(ids[t])) {
          bool exact = true;
          double const want = ref_math((gcol_unary_op)op, ops_get_f64(&in, i), &exact);
          int64_t d;
          if (ot.id == GCOL_BOOL8) {
            d = got[0] != (want != 0.0);
          } else if (ot.id == GCOL_FLOAT32) {
            float g;
            memcpy(&g, got, 4);
            d = ops_ulp_f32(g, (float)want);
            if (!exact && d > 1) fail_msg("%s float32 %a: %lld ulp", gcol_unary_op_name((gcol_unary_op)op), ops_get_f64(&in, i), (long long)d);
            d = exact ? d : 0;
          } else {
            double g;
            memcpy(&g, got, 8);
            d = ops_ulp_f64(g, want);
            if (d > worst && !exact) worst = d;
            if (!exact && d > 4) fail_msg("%s float64 %a: %lld ulp", gcol_unary_op_name((gcol_unary_op)op), ops_get_f64(&in, i), (long long)d);
            d = exact ? d : 0;
          }
          if (d != 0) fail_msg("%s(%a) of %s not exact", gcol_unary_op_name((gcol_unary_op)op), ops_get_f64(&in, i), gcol_type_name(ids[t]));
        } else {
          uint64_t const want = ref_int_unary((gcol_unary_op)op, ids[t], ops_get_u64(&in, i), ops_get_i64(&in, i));
          if (memcmp(got, &want, w) != 0) fail_msg("%s of %s row %lld", gcol_unary_op_name((gcol_unary_op)op), gcol_type_name(ids[t]), (long long)i);
        }
      }
      free(data);
      free(valid);
      gcol_column_free(out);
      gcol_column_free(c);
      ops_host_free(&in);
    }
  }
  print_message("# worst float64 math error: %lld ulp\n", (long long)worst);
}

static void validity_tests(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(802);
  for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
    for (size_t s = 0; s < gcol_test_num_sizes; s += 3) {
      int64_t const n = gcol_test_sizes[s];
      ops_host_col in = ops_host_random(&rng, gcol_data_type_make(GCOL_FLOAT64), n, (gcol_test_validity)p);
      gcol_column_view v;
      gcol_column *c = ops_upload(&in, 31, &v);
      gcol_column *isn = NULL, *isv = NULL, *nan = NULL;
      GCOL_TEST_OK(gcol_is_null(v, &isn, NULL, NULL));
      GCOL_TEST_OK(gcol_is_valid(v, &isv, NULL, NULL));
      GCOL_TEST_OK(gcol_is_nan(v, &nan, NULL, NULL));
      uint8_t *a = (uint8_t *)malloc((size_t)n + 1), *b = (uint8_t *)malloc((size_t)n + 1),
              *x = (uint8_t *)malloc((size_t)n + 1), *ok = (uint8_t *)malloc((size_t)n + 1);
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(isn), a, ok, NULL));
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(isv), b, ok, NULL));
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(nan), x, ok, NULL));
      assert_null(isn->null_mask);
      assert_null(nan->null_mask);
      for (int64_t i = 0; i < n; ++i) {
        bool const valid = ops_is_valid(&in, i);
        assert_int_equal(a[i], !valid);
        assert_int_equal(b[i], valid);
        assert_int_equal(x[i], valid && isnan(ops_get_f64(&in, i)));
      }
      free(a); free(b); free(x); free(ok);
      gcol_column_free(isn);
      gcol_column_free(isv);
      gcol_column_free(nan);
      gcol_column_free(c);
      ops_host_free(&in);
    }
  }
}

/* ---- fixed-width casts ---- */

__extension__ typedef __int128 cast_i128;

static bool is_time(gcol_type_id id) { return gcol_type_is_timestamp(id) || gcol_type_is_duration(id); }

static int64_t time_ns(gcol_type_id id) {
  int const u = gcol_type_is_timestamp(id) ? id - GCOL_TIMESTAMP_DAYS : id - GCOL_DURATION_DAYS;
  static const int64_t ns[5] = {86400000000000LL, 1000000000LL, 1000000LL, 1000LL, 1LL};
  return ns[u];
}

static cast_i128 ipow10(int k) {
  cast_i128 p = 1;
  for (int j = 0; j < k; ++j) p *= 10;
  return p;
}

static cast_i128 exact_value(const ops_host_col *c, int64_t i) {
  if (c->type.id == GCOL_DECIMAL128) {
    cast_i128 v;
    memcpy(&v, c->data + (size_t)i * 16, 16);
    return v;
  }
  if (gcol_type_is_unsigned_integral(c->type.id) || c->type.id == GCOL_BOOL8) return (cast_i128)ops_get_u64(c, i);
  return ops_get_i64(c, i);
}

/* Reference conversion of row i; *valid false for a null the cast makes. */
static void ref_cast(const ops_host_col *in, int64_t i, gcol_data_type to, unsigned char *out, bool *valid) {
  gcol_type_id const f = in->type.id;
  size_t const w = gcol_type_size(to.id);
  *valid = true;
  memset(out, 0, 16);
  if (gcol_type_is_floating(f)) {
    double const d = ops_get_f64(in, i);
    if (to.id == GCOL_FLOAT32) { float x = (float)d; memcpy(out, &x, 4); return; }
    if (to.id == GCOL_FLOAT64) { memcpy(out, &d, 8); return; }
    if (to.id == GCOL_BOOL8) { out[0] = d != 0.0; return; }
    if (gcol_type_is_decimal(to.id)) {
      char text[16];
      snprintf(text, sizeof text, "1e%d", to.scale < 0 ? -to.scale : to.scale);
      double const p10 = strtod(text, NULL); /* correctly rounded 10^|scale| */
      double const x = round(to.scale > 0 ? d / p10 : d * p10);
      double const lim = ldexp(1.0, (int)w * 8 - 1);
      if (!(x >= -lim && x < lim)) { *valid = false; return; }
      cast_i128 v = (cast_i128)x;
      memcpy(out, &v, w);
      return;
    }
    double const t = trunc(d);
    bool const u = gcol_type_is_unsigned_integral(to.id);
    double const lo = u ? 0.0 : -ldexp(1.0, (int)w * 8 - 1), hi = ldexp(1.0, u ? (int)w * 8 : (int)w * 8 - 1);
    if (!(t >= lo && t < hi)) { *valid = false; return; }
    cast_i128 v = u ? (cast_i128)(uint64_t)t : (cast_i128)(int64_t)t;
    memcpy(out, &v, w);
    return;
  }
  cast_i128 v = exact_value(in, i);
  int32_t const fs = gcol_type_is_decimal(f) ? in->type.scale : 0;
  if (gcol_type_is_floating(to.id)) {
    if (gcol_type_is_decimal(f)) {
      char text[16];
      snprintf(text, sizeof text, "1e%d", fs < 0 ? -fs : fs);
      double const d = fs < 0 ? (double)v / strtod(text, NULL) : (double)v * strtod(text, NULL);
      if (to.id == GCOL_FLOAT32) { float x = (float)d; memcpy(out, &x, 4); } else { memcpy(out, &d, 8); }
      return;
    }
    if (to.id == GCOL_FLOAT32) {
      float x = v < 0 ? (float)(int64_t)v : (float)(uint64_t)v;
      memcpy(out, &x, 4);
    } else {
      double x = v < 0 ? (double)(int64_t)v : (double)(uint64_t)v;
      memcpy(out, &x, 8);
    }
    return;
  }
  if (gcol_type_is_decimal(f) || gcol_type_is_decimal(to.id)) {
    int32_t const ts = gcol_type_is_decimal(to.id) ? to.scale : 0;
    v = fs > ts ? v * ipow10(fs - ts) : v / ipow10(ts - fs);
  } else if (is_time(f) && is_time(to.id)) {
    int64_t const a = time_ns(f), b = time_ns(to.id);
    int64_t x = (int64_t)v;
    if (a > b) x = (int64_t)((uint64_t)x * (uint64_t)(a / b));
    if (a < b) {
      int64_t const q = b / a;
      int64_t r = x / q;
      if (gcol_type_is_timestamp(f) && x % q != 0 && x < 0) r -= 1;
      x = r;
    }
    v = x;
  }
  if (to.id == GCOL_BOOL8) { out[0] = v != 0; return; }
  memcpy(out, &v, w);
}

static void every_fixed_width_cast(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(803);
  gcol_data_type types[32];
  int nt = 0;
  for (int id = GCOL_INT8; id <= GCOL_DURATION_NANOSECONDS; ++id) types[nt++] = gcol_data_type_make((gcol_type_id)id);
  types[nt++] = gcol_data_type_decimal(GCOL_DECIMAL32, -2);
  types[nt++] = gcol_data_type_decimal(GCOL_DECIMAL64, -4);
  types[nt++] = gcol_data_type_decimal(GCOL_DECIMAL128, 1);
  types[nt++] = gcol_data_type_decimal(GCOL_DECIMAL64, 0);
  int tested = 0;
  for (int a = 0; a < nt; ++a) {
    for (int b = 0; b < nt; ++b) {
      if (gcol_cast_check_types(types[a], types[b]) != GCOL_OK) continue;
      int64_t const n = 513;
      ops_host_col in = ops_host_random(&rng, types[a], n, (gcol_test_validity)((a + b) % GCOL_TEST_NUM_VALIDITY));
      if (gcol_type_is_decimal(types[a].id) || gcol_type_is_decimal(types[b].id) || is_time(types[a].id)) {
        /* Values that convert without wrapping, so the reference is plain arithmetic. */
        for (int64_t i = 0; i < n; ++i) {
          cast_i128 v = gcol_test_rng_range(&rng, -1000000, 1000000);
          if (gcol_type_is_unsigned_integral(types[a].id) && v < 0) v = -v;
          if (types[a].id == GCOL_INT8) v = (int8_t)v;
          if (types[a].id == GCOL_UINT8) v = (uint8_t)v;
          if (types[a].id == GCOL_INT16) v = (int16_t)v;
          if (types[a].id == GCOL_UINT16) v = (uint16_t)v;
          if (gcol_type_is_floating(types[a].id)) {
            double d = (double)v / 64.0;
            if (types[a].id == GCOL_FLOAT32) { float f = (float)d; memcpy(in.data + i * 4, &f, 4); }
            else memcpy(in.data + i * 8, &d, 8);
          } else if (types[a].id != GCOL_BOOL8) {
            memcpy(in.data + (size_t)i * gcol_type_size(types[a].id), &v, gcol_type_size(types[a].id));
          }
        }
      }
      gcol_column_view v;
      gcol_column *c = ops_upload(&in, 5, &v);
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_cast(v, types[b], &out, NULL, NULL));
      assert_true(gcol_data_type_equal(out->type, types[b]));
      unsigned char *data = NULL;
      uint8_t *valid = NULL;
      ops_download(gcol_column_get_view(out), &data, &valid);
      size_t const w = gcol_type_size(types[b].id);
      for (int64_t i = 0; i < n; ++i) {
        unsigned char want[16];
        bool want_valid = true;
        ref_cast(&in, i, types[b], want, &want_valid);
        want_valid = want_valid && ops_is_valid(&in, i);
        if ((valid[i] != 0) != want_valid) {
          fail_msg("cast %s -> %s row %lld (%.17g): validity %d", gcol_type_name(types[a].id),
                   gcol_type_name(types[b].id), (long long)i, ops_get_f64(&in, i), valid[i]);
        }
        if (want_valid && memcmp(data + (size_t)i * w, want, w) != 0) {
          bool nan_pair = false;
          if (types[b].id == GCOL_FLOAT64 || types[b].id == GCOL_FLOAT32) {
            double g = 0, e = 0;
            if (types[b].id == GCOL_FLOAT64) { memcpy(&g, data + (size_t)i * 8, 8); memcpy(&e, want, 8); }
            else { float gf, ef; memcpy(&gf, data + (size_t)i * 4, 4); memcpy(&ef, want, 4); g = gf; e = ef; }
            nan_pair = isnan(g) && isnan(e);
          }
          if (!nan_pair) {
            fail_msg("cast %s -> %s row %lld (%.17g): value differs", gcol_type_name(types[a].id),
                     gcol_type_name(types[b].id), (long long)i, ops_get_f64(&in, i));
          }
        }
      }
      ++tested;
      free(data);
      free(valid);
      gcol_column_free(out);
      gcol_column_free(c);
      ops_host_free(&in);
    }
  }
  print_message("# %d cast pairs\n", tested);
}

/* ---- strings <-> numbers ---- */

static void strings_to_numbers(void **state) {
  (void)state;
  const char *texts[] = {"", "-", "+5", " 5", "5 ", "42", "-42", "9223372036854775807",
                         "9223372036854775808", "-9223372036854775808", "18446744073709551615",
                         "1e309", "-1e309", "nan", "NaN", "inf", "-Infinity", "0.1", ".5", "5.",
                         "1e-400", "4.9406564584124654e-324", "abc", "1.5e3", "255", "256", "-1",
                         "00012", NULL, "3.14159"};
  int64_t const n = (int64_t)(sizeof texts / sizeof texts[0]);
  gcol_column *sc = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(n, texts, NULL, NULL, NULL, &sc));
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(sc), 1, n, &v));
  gcol_type_id const targets[] = {GCOL_INT8, GCOL_UINT8, GCOL_INT64, GCOL_UINT64, GCOL_FLOAT32, GCOL_FLOAT64};
  for (size_t t = 0; t < sizeof targets / sizeof targets[0]; ++t) {
    gcol_data_type const to = gcol_data_type_make(targets[t]);
    gcol_column *out = NULL;
    GCOL_TEST_OK(gcol_cast(v, to, &out, NULL, NULL));
    unsigned char *data = NULL;
    uint8_t *valid = NULL;
    ops_download(gcol_column_get_view(out), &data, &valid);
    size_t const w = gcol_type_size(to.id);
    for (int64_t j = 0; j < n - 1; ++j) {
      const char *s = texts[j + 1];
      bool want_valid = false;
      unsigned char want[8] = {0};
      if (s != NULL && gcol_type_is_floating(to.id)) {
        /* correctly rounded, so equal to strtod/strtof (host-tested in float_text_host) */
        double d = 0;
        float f = 0;
        want_valid = to.id == GCOL_FLOAT32 ? gcol_detail_parse_float(s, (int64_t)strlen(s), &f)
                                           : gcol_detail_parse_double(s, (int64_t)strlen(s), &d);
        if (want_valid && to.id == GCOL_FLOAT32) memcpy(want, &f, 4);
        else if (want_valid) memcpy(want, &d, 8);
        if (want_valid && to.id == GCOL_FLOAT32 && !isnan(f)) assert_true(strtof(s, NULL) == f);
        if (want_valid && to.id == GCOL_FLOAT64 && !isnan(d)) assert_true(strtod(s, NULL) == d);
      } else if (s != NULL) {
        uint64_t bits = 0;
        want_valid = gcol_detail_parse_int(s, (int64_t)strlen(s), (int)w * 8,
                                           gcol_type_is_unsigned_integral(to.id), &bits);
        memcpy(want, &bits, w);
      }
      if ((valid[j] != 0) != want_valid) fail_msg("\"%s\" -> %s: validity %d", s ? s : "(null)", gcol_type_name(to.id), valid[j]);
      if (want_valid && memcmp(data + (size_t)j * w, want, w) != 0) {
        bool const both_nan = gcol_type_is_floating(to.id) && (strstr(s, "nan") || strstr(s, "NaN"));
        if (!both_nan) fail_msg("\"%s\" -> %s: value differs", s, gcol_type_name(to.id));
      }
    }
    /* Spot checks that do not rely on the parser itself. */
    if (to.id == GCOL_INT64) {
      int64_t x;
      memcpy(&x, data + 1 * 8, 8); /* "+5" */
      assert_int_equal(x, 5);
      assert_int_equal(valid[0], 0); /* "-" */
      assert_int_equal(valid[2], 0); /* " 5" */
    }
    if (to.id == GCOL_FLOAT64) {
      double x;
      memcpy(&x, data + 10 * 8, 8); /* "1e309" */
      assert_true(isinf(x) && x > 0);
    }
    free(data);
    free(valid);
    gcol_column_free(out);
  }
  gcol_column_free(sc);
}

static void numbers_to_strings(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(804);
  gcol_type_id const ids[] = {GCOL_INT8, GCOL_INT64, GCOL_UINT64, GCOL_UINT16, GCOL_FLOAT32, GCOL_FLOAT64};
  int64_t const saved = gcol_large_offsets_threshold();
  for (int force64 = 0; force64 < 2; ++force64) {
    gcol_set_large_offsets_threshold(force64 ? 10 : saved);
    for (size_t t = 0; t < sizeof ids / sizeof ids[0]; ++t) {
      int64_t const n = force64 ? 300 : 4097;
      ops_host_col in = ops_host_random(&rng, gcol_data_type_make(ids[t]), n, GCOL_TEST_RANDOM_NULLS);
      gcol_column_view v;
      gcol_column *c = ops_upload(&in, 63, &v);
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_cast(v, gcol_data_type_make(GCOL_STRING), &out, NULL, NULL));
      assert_int_equal(out->children[0]->type.id, force64 ? GCOL_INT64 : GCOL_INT32);
      gcol_host_strings *hs = NULL;
      GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
      for (int64_t i = 0; i < n; ++i) {
        assert_int_equal(hs->valid[i] != 0, ops_is_valid(&in, i));
        if (!hs->valid[i]) continue;
        char want[64];
        if (ids[t] == GCOL_FLOAT32 || ids[t] == GCOL_FLOAT64) {
          double const d = ops_get_f64(&in, i);
          snprintf(want, sizeof want, "%.*g", ids[t] == GCOL_FLOAT32 ? 9 : 17, d);
          if (isnan(d)) strcpy(want, "nan");
        } else if (gcol_type_is_unsigned_integral(ids[t])) {
          snprintf(want, sizeof want, "%llu", (unsigned long long)ops_get_u64(&in, i));
        } else {
          snprintf(want, sizeof want, "%lld", (long long)ops_get_i64(&in, i));
        }
        int64_t const len = hs->offsets[i + 1] - hs->offsets[i];
        if (len != (int64_t)strlen(want) || memcmp(hs->chars + hs->offsets[i], want, (size_t)len) != 0) {
          fail_msg("%s row %lld: \"%.*s\", expected \"%s\"", gcol_type_name(ids[t]), (long long)i,
                   (int)len, hs->chars + hs->offsets[i], want);
        }
      }
      gcol_host_strings_free(hs);
      gcol_column_free(out);
      gcol_column_free(c);
      ops_host_free(&in);
    }
  }
  gcol_set_large_offsets_threshold(saved);
  /* Empty input: empty strings column. */
  gcol_column *e = NULL, *out = NULL;
  GCOL_TEST_OK(gcol_column_create(gcol_data_type_make(GCOL_INT32), 0, GCOL_MASK_UNALLOCATED, NULL, NULL, &e));
  GCOL_TEST_OK(gcol_cast(gcol_column_get_view(e), gcol_data_type_make(GCOL_STRING), &out, NULL, NULL));
  assert_int_equal(out->size, 0);
  gcol_column_free(out);
  gcol_column_free(e);
}

typedef struct cast_fault_ctx {
  gcol_column_view in;
  gcol_data_type to;
} cast_fault_ctx;

static gcol_status cast_fault_call(void *p, gcol_column **out) {
  cast_fault_ctx *c = (cast_fault_ctx *)p;
  return gcol_cast(c->in, c->to, out, NULL, NULL);
}

static gcol_status unary_fault_call(void *p, gcol_column **out) {
  cast_fault_ctx *c = (cast_fault_ctx *)p;
  return gcol_unary_operation(c->in, GCOL_UNARY_SQRT, out, NULL, NULL);
}

static gcol_status datetime_fault_call(void *p, gcol_column **out) {
  cast_fault_ctx *c = (cast_fault_ctx *)p;
  return gcol_datetime_extract(c->in, GCOL_DATETIME_MONTH, out, NULL, NULL);
}

static void allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(805);
  ops_host_col f = ops_host_random(&rng, gcol_data_type_make(GCOL_FLOAT64), 700, GCOL_TEST_RANDOM_NULLS);
  cast_fault_ctx c;
  gcol_column *fc = ops_upload(&f, 3, &c.in);
  gcol_type_id const targets[] = {GCOL_INT32, GCOL_STRING, GCOL_FLOAT32};
  for (size_t t = 0; t < 3; ++t) {
    c.to = gcol_data_type_make(targets[t]);
    assert_true(ops_fail_nth_loop(cast_fault_call, &c) >= 2);
  }
  assert_true(ops_fail_nth_loop(unary_fault_call, &c) >= 2);
  gcol_column *strings = NULL;
  GCOL_TEST_OK(gcol_cast(c.in, gcol_data_type_make(GCOL_STRING), &strings, NULL, NULL));
  c.in = gcol_column_get_view(strings);
  c.to = gcol_data_type_make(GCOL_FLOAT64);
  assert_true(ops_fail_nth_loop(cast_fault_call, &c) >= 2);
  ops_host_col ts = ops_host_random(&rng, gcol_data_type_make(GCOL_TIMESTAMP_MILLISECONDS), 100, GCOL_TEST_RANDOM_NULLS);
  gcol_column *tc = ops_upload(&ts, 7, &c.in);
  assert_true(ops_fail_nth_loop(datetime_fault_call, &c) >= 2);
  gcol_column_free(tc);
  gcol_column_free(strings);
  gcol_column_free(fc);
  ops_host_free(&f);
  ops_host_free(&ts);
}

/* cast.h: milliseconds to DAYS (int32 ticks) beyond the int32 range of days wrap modulo
 * 2^32 after the division (timestamps floor, durations truncate), as every integer
 * narrowing; no row becomes null. */
static void time_casts_to_days_beyond_int32(void **state) {
  (void)state;
  enum { N = 6 };
  int64_t const day = 86400000;
  int64_t const ms[N] = {INT64_MAX, INT64_MIN,  day * 2147483648LL, -day * 2147483649LL - 1,
                         -1,        day * 3 + 5};
  /* floor / truncate, then the low 32 bits, written as the int32 they are */
  int32_t const ts_want[N] = {(int32_t)(uint32_t)106751991167LL,
                              (int32_t)(uint32_t)-106751991168LL,
                              INT32_MIN,
                              (int32_t)(uint32_t)-2147483650LL,
                              -1,
                              3};
  int32_t const dur_want[N] = {(int32_t)(uint32_t)106751991167LL,
                               (int32_t)(uint32_t)-106751991167LL,
                               INT32_MIN,
                               (int32_t)(uint32_t)-2147483649LL,
                               0,
                               3};
  gcol_type_id const from[2] = {GCOL_TIMESTAMP_MILLISECONDS, GCOL_DURATION_MILLISECONDS};
  gcol_type_id const to[2] = {GCOL_TIMESTAMP_DAYS, GCOL_DURATION_DAYS};
  for (int k = 0; k < 2; ++k) {
    gcol_column *in = NULL, *out = NULL;
    GCOL_TEST_OK(
        gcol_column_create_from_host(gcol_data_type_make(from[k]), N, ms, NULL, NULL, NULL, &in));
    GCOL_TEST_OK(gcol_cast(gcol_column_get_view(in), gcol_data_type_make(to[k]), &out, NULL, NULL));
    assert_int_equal(gcol_column_get_view(out).null_count, 0);
    gcol_test_assert_column_equals_host(gcol_column_get_view(out), k == 0 ? ts_want : dur_want,
                                        NULL, N);
    gcol_column_free(out);
    gcol_column_free(in);
  }
}

/* ---- datetime ---- */

static void datetime_every_unit_and_field(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(806);
  for (int u = 0; u < 5; ++u) {
    gcol_type_id const id = (gcol_type_id)(GCOL_TIMESTAMP_DAYS + u);
    int64_t const n = 2000;
    ops_host_col in = ops_host_random(&rng, gcol_data_type_make(id), n, GCOL_TEST_RANDOM_NULLS);
    for (int64_t i = 0; i < n; ++i) { /* years -3000..7000 in the unit, or full int64 for ns */
      int64_t const span = id == GCOL_TIMESTAMP_DAYS ? 3652425LL : (INT64_MAX / time_ns(id) < 3652425LL * 86400 ? INT64_MAX : 3652425LL * 86400 * (1000000000LL / time_ns(id)));
      int64_t v = gcol_test_rng_range(&rng, -span / 2, span / 2);
      if (i == 0) v = -1;
      if (i == 1) v = id == GCOL_TIMESTAMP_DAYS ? INT32_MIN : INT64_MIN;
      memcpy(in.data + (size_t)i * gcol_type_size(id), &v, gcol_type_size(id));
    }
    gcol_column_view v;
    gcol_column *c = ops_upload(&in, 1, &v);
    for (int comp = 0; comp < GCOL_NUM_DATETIME_COMPONENTS; ++comp) {
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_datetime_extract(v, (gcol_datetime_component)comp, &out, NULL, NULL));
      assert_int_equal(out->type.id, GCOL_INT16);
      int16_t *vals = (int16_t *)malloc((size_t)n * 2);
      uint8_t *valid = (uint8_t *)malloc((size_t)n);
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), vals, valid, NULL));
      for (int64_t i = 0; i < n; ++i) {
        assert_int_equal(valid[i] != 0, ops_is_valid(&in, i));
        if (!valid[i]) continue;
        /* civil.h is checked against a day-by-day calendar walk in the host suite. */
        int16_t const want = (int16_t)gcol_detail_datetime_field(ops_get_i64(&in, i), time_ns(id), comp);
        if (vals[i] != want) fail_msg("%s field %d row %lld: %d, expected %d", gcol_type_name(id), comp, (long long)i, vals[i], want);
      }
      free(vals);
      free(valid);
      gcol_column_free(out);
    }
    gcol_column_free(c);
    ops_host_free(&in);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(unary_every_op_every_type),
      GCOL_TEST_GPU(validity_tests),
      GCOL_TEST_GPU(every_fixed_width_cast),
      GCOL_TEST_GPU(strings_to_numbers),
      GCOL_TEST_GPU(numbers_to_strings),
      GCOL_TEST_GPU(allocation_failures),
      GCOL_TEST_GPU(time_casts_to_days_beyond_int32),
      GCOL_TEST_GPU(datetime_every_unit_and_field),
  };
  return GCOL_TEST_RUN_GPU("unary_cast_datetime", tests);
}
