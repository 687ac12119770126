/*
 * Host tests (no GPU) of the strings conversions (include/gcol/strings/convert.h): the
 * per-row functions the kernels run (convert_ops.h) against answers Python gave
 * (gen_convert_cases.py -> convert_cases.h: int(s, 16), format(v, 'X'),
 * urllib.parse.quote_from_bytes / unquote_to_bytes), round trips on random bytes, and every
 * argument check of the public functions, which must fail before any device memory is
 * touched (the device pointers here are fake).
 */
#include "test_util.h"

#include "strings_fake_views.h"

#include "convert_cases.h"
#include "gcol/strings/convert.h"
#include "strings/convert_ops.h"

#define COUNT(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

/* Counted, then written (the two passes must agree); the caller frees. */
typedef void (*row_fn)(const char *s, int64_t n, gcol_detail_sink *k);

static char *run_row(row_fn f, const char *s, int64_t n, int64_t *len) {
  gcol_detail_sink count = gcol_detail_sink_make(NULL);
  f(s, n, &count);
  char *out = (char *)malloc((size_t)count.size + 1);
  gcol_detail_sink write = gcol_detail_sink_make(out);
  f(s, n, &write);
  assert_int_equal(write.size, count.size);
  *len = write.size;
  return out;
}

static void expect_bytes(const char *what, int64_t i, const char *got, int64_t gn, const char *want,
                         int64_t wn) {
  if (gn == wn && memcmp(got, want, (size_t)wn) == 0) return;
  fail_msg("%s case %lld: %lld bytes \"%.*s\", want %lld \"%.*s\"", what, (long long)i,
           (long long)gn, (int)gn, got, (long long)wn, (int)wn, want);
}

/* ---------------------------------------------------------------- booleans */

static void test_bytes_equal(void **state) {
  (void)state;
  assert_true(gcol_detail_bytes_equal("true", 4, "true", 4));
  assert_false(gcol_detail_bytes_equal("True", 4, "true", 4));
  assert_false(gcol_detail_bytes_equal("true ", 5, "true", 4));
  assert_false(gcol_detail_bytes_equal("", 0, "true", 4));
  assert_true(gcol_detail_bytes_equal("", 0, "", 0));
  assert_true(gcol_detail_bytes_equal("a\0b", 3, "a\0b", 3));
  assert_false(gcol_detail_bytes_equal("a\0b", 3, "a\0c", 3));
}

/* ---------------------------------------------------------------- hex */

static void test_hex_known_answers(void **state) {
  (void)state;
  for (int64_t i = 0; i < COUNT(hex_cases); ++i) {
    hex_case const *c = &hex_cases[i];
    int64_t const n = (int64_t)strlen(c->s);
    uint64_t v = 12345;
    bool const ok = gcol_detail_hex_parse(c->s, n, c->bits, &v);
    if (ok != c->ok || (ok && v != c->value)) {
      fail_msg("hex \"%s\" as %d bits: %s %llu, want %s %llu", c->s, c->bits, ok ? "ok" : "null",
               (unsigned long long)v, c->ok ? "ok" : "null", (unsigned long long)c->value);
    }
    /* is_hex is the parse without the width check */
    assert_int_equal(gcol_detail_is_hex(c->s, n), c->is_hex);
  }
  assert_true(gcol_detail_is_hex("000000000000000000000000000000000001", 36));
  assert_true(gcol_detail_is_hex("0x123456789abcdef0123456789", 27));
  assert_false(gcol_detail_is_hex("0x", 2));
  assert_false(gcol_detail_is_hex("", 0));
  assert_false(gcol_detail_is_hex("1\0", 2));
}

static void test_to_hex_known_answers(void **state) {
  (void)state;
  for (int64_t i = 0; i < COUNT(to_hex_cases); ++i) {
    to_hex_case const *c = &to_hex_cases[i];
    char buf[32];
    gcol_detail_sink count = gcol_detail_sink_make(NULL);
    gcol_detail_to_hex_row(c->bits, c->width, &count);
    gcol_detail_sink k = gcol_detail_sink_make(buf);
    gcol_detail_to_hex_row(c->bits, c->width, &k);
    assert_int_equal(k.size, count.size);
    expect_bytes("to_hex", i, buf, k.size, c->text, (int64_t)strlen(c->text));
  }
}

/* Every width: parse(to_hex(v)) == v's bits, on random values. */
static void test_hex_round_trip(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4401);
  for (int iter = 0; iter < 20000; ++iter) {
    int const width = 1 << gcol_test_rng_range(&rng, 0, 3);
    uint64_t v = gcol_test_rng_next(&rng) >> gcol_test_rng_range(&rng, 0, 63);
    if (width < 8) v &= ((uint64_t)1 << (8 * width)) - 1;
    char buf[32];
    gcol_detail_sink k = gcol_detail_sink_make(buf);
    gcol_detail_to_hex_row(v, width, &k);
    assert_true(k.size >= 2 && k.size <= 2 * width && k.size % 2 == 0);
    uint64_t back = 0;
    assert_true(gcol_detail_hex_parse(buf, k.size, 8 * width, &back));
    assert_true(back == v);
  }
}

/* ---------------------------------------------------------------- url */

static void test_url_known_answers(void **state) {
  (void)state;
  for (int64_t i = 0; i < COUNT(url_cases); ++i) {
    url_case const *c = &url_cases[i];
    int64_t n = 0;
    char *enc = run_row(gcol_detail_url_encode_row, c->s, c->n, &n);
    expect_bytes("url_encode", i, enc, n, c->enc, c->enc_n);
    free(enc);
    char *dec = run_row(gcol_detail_url_decode_row, c->s, c->n, &n);
    expect_bytes("url_decode", i, dec, n, c->dec, c->dec_n);
    free(dec);
  }
}

/* decode(encode(s)) == s for random bytes; encode keeps unreserved bytes and makes ASCII. */
static void test_url_round_trip(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4402);
  char s[64];
  for (int iter = 0; iter < 20000; ++iter) {
    int64_t const n = gcol_test_rng_range(&rng, 0, 63);
    for (int64_t j = 0; j < n; ++j) s[j] = (char)gcol_test_rng_range(&rng, 0, 255);
    int64_t en = 0, dn = 0;
    char *enc = run_row(gcol_detail_url_encode_row, s, n, &en);
    int64_t kept = 0;
    for (int64_t j = 0; j < n; ++j) kept += gcol_detail_url_unreserved((unsigned char)s[j]);
    assert_int_equal(en, kept + 3 * (n - kept));
    for (int64_t j = 0; j < en; ++j) {
      assert_true(gcol_detail_url_unreserved((unsigned char)enc[j]) || enc[j] == '%' ||
                  (enc[j] >= 'A' && enc[j] <= 'F'));
    }
    char *dec = run_row(gcol_detail_url_decode_row, enc, en, &dn);
    expect_bytes("url round trip", iter, dec, dn, s, n);
    free(enc);
    free(dec);
  }
}

/* ---------------------------------------------------------------- decimals */

static gcol_detail_dec_i128 make_i128(uint64_t lo, uint64_t hi) {
  return (gcol_detail_dec_i128)(((gcol_detail_dec_u128)hi << 64) | lo);
}

/* The text of v at scale (counted, then written into a buffer of that size; freed by the
 * caller). */
static char *dec_text(gcol_detail_dec_i128 v, int32_t scale, int64_t *len) {
  gcol_detail_sink count = gcol_detail_sink_make(NULL);
  gcol_detail_decimal_to_text(v, scale, &count);
  char *out = (char *)malloc((size_t)count.size + 1);
  gcol_detail_sink k = gcol_detail_sink_make(out);
  gcol_detail_decimal_to_text(v, scale, &k);
  assert_int_equal(k.size, count.size);
  *len = k.size;
  return out;
}

static void test_decimal_to_text_known_answers(void **state) {
  (void)state;
  for (int64_t i = 0; i < COUNT(from_dec_cases); ++i) {
    from_dec_case const *c = &from_dec_cases[i];
    int64_t n = 0;
    char *text = dec_text(make_i128(c->lo, c->hi), c->scale, &n);
    expect_bytes("decimal to text", i, text, n, c->text, (int64_t)strlen(c->text));
    free(text);
  }
  /* a huge scale only counts (saturating), as the count pass does */
  gcol_detail_sink k = gcol_detail_sink_make(NULL);
  gcol_detail_decimal_to_text(1, INT32_MAX, &k);
  assert_int_equal(k.size, (int64_t)INT32_MAX + 1);
  k = gcol_detail_sink_make(NULL);
  gcol_detail_decimal_to_text(-1, INT32_MIN, &k);
  assert_int_equal(k.size, (int64_t)INT32_MAX + 4); /* "-0." then 2^31 digits */
}

static void test_text_to_decimal_known_answers(void **state) {
  (void)state;
  for (int64_t i = 0; i < COUNT(to_dec_cases); ++i) {
    to_dec_case const *c = &to_dec_cases[i];
    gcol_detail_dec_i128 v = 7;
    bool const ok = gcol_detail_parse_decimal(c->s, (int64_t)strlen(c->s), c->scale, c->bits, &v);
    gcol_detail_dec_i128 const want = make_i128(c->lo, c->hi);
    if (ok != c->ok || (ok && v != want)) {
      fail_msg("decimal case %lld \"%s\" scale %d, %d bits: %s %lld, want %s %lld", (long long)i,
               c->s, c->scale, c->bits, ok ? "ok" : "null", (long long)v, c->ok ? "ok" : "null",
               (long long)want);
    }
  }
}

/* text(v, scale) parses back to v at the same scale, for random values of every width. */
static void test_decimal_round_trip(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4403);
  static const int bits[] = {32, 64, 128};
  for (int iter = 0; iter < 20000; ++iter) {
    int const b = bits[gcol_test_rng_range(&rng, 0, 2)];
    int const shift = (int)gcol_test_rng_range(&rng, 0, b - 2);
    gcol_detail_dec_u128 u =
        ((gcol_detail_dec_u128)gcol_test_rng_next(&rng) << 64) | gcol_test_rng_next(&rng);
    u = (u << (129 - b)) >> (129 - b + shift); /* b - 1 - shift random bits */
    gcol_detail_dec_i128 v = (gcol_detail_dec_i128)u;
    if (gcol_test_rng_range(&rng, 0, 1) == 1) v = -v - 1; /* down to -2^(b-1) */
    int32_t const scale = (int32_t)gcol_test_rng_range(&rng, -45, 5);
    int64_t n = 0;
    char *text = dec_text(v, scale, &n);
    gcol_detail_dec_i128 back = 0;
    if (!gcol_detail_parse_decimal(text, n, scale, b, &back)) {
      fail_msg("\"%.*s\" at scale %d, %d bits does not parse", (int)n, text, scale, b);
    }
    assert_true(back == v);
    free(text);
  }
}

/* ---------------------------------------------------------------- argument checks */


static void test_argument_checks(void **state) {
  (void)state;
  gcol_column *out = NULL;
  gcol_scalar *x = NULL, *null_s = NULL, *int_s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring("x", &x));
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_STRING), &null_s));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 3, &int_s));
  gcol_column_view const offs3 = fake_view(GCOL_INT32, 3);
  gcol_column_view const two = fake_strings(2, &offs3);
  gcol_column_view const ints = fake_view(GCOL_INT32, 2);
  gcol_column_view const bools = fake_view(GCOL_BOOL8, 2);
  gcol_column_view const floats = fake_view(GCOL_FLOAT64, 2);

  EXPECT_FAIL(gcol_strings_to_booleans(ints, x, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "input is int32");
  EXPECT_FAIL(gcol_strings_to_booleans(two, NULL, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT,
              "true_string is NULL");
  EXPECT_FAIL(gcol_strings_to_booleans(two, null_s, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT,
              "true_string is a null scalar");
  EXPECT_FAIL(gcol_strings_to_booleans(two, int_s, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "true_string");
  GCOL_TEST_STATUS(gcol_strings_to_booleans(two, x, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);

  EXPECT_FAIL(gcol_strings_from_booleans(ints, x, x, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_from_booleans: input is int32, not BOOL8");
  EXPECT_FAIL(gcol_strings_from_booleans(two, x, x, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "input is string");
  EXPECT_FAIL(gcol_strings_from_booleans(bools, x, null_s, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "false_string is a null scalar");
  EXPECT_FAIL(gcol_strings_from_booleans(bools, int_s, x, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "true_string");
  GCOL_TEST_STATUS(gcol_strings_from_booleans(bools, x, x, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);

  EXPECT_FAIL(gcol_strings_hex_to_integers(ints, gcol_data_type_make(GCOL_INT32), &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "input is int32");
  EXPECT_FAIL(
      gcol_strings_hex_to_integers(two, gcol_data_type_make(GCOL_FLOAT64), &out, NULL, NULL),
      GCOL_ERROR_TYPE_MISMATCH, "type is float64, not an integer type");
  EXPECT_FAIL(gcol_strings_hex_to_integers(two, gcol_data_type_make(GCOL_BOOL8), &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "not an integer type");
  GCOL_TEST_STATUS(
      gcol_strings_hex_to_integers(two, gcol_data_type_make(GCOL_INT8), NULL, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  EXPECT_FAIL(gcol_strings_is_hex(ints, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "input is int32");
  EXPECT_FAIL(gcol_strings_integers_to_hex(floats, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_integers_to_hex: input is float64, not an integer type");
  EXPECT_FAIL(gcol_strings_integers_to_hex(bools, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "input is bool8");
  EXPECT_FAIL(gcol_strings_integers_to_hex(two, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "input is string");
  GCOL_TEST_STATUS(gcol_strings_integers_to_hex(ints, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);

  EXPECT_FAIL(gcol_strings_url_encode(ints, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_url_encode");
  EXPECT_FAIL(gcol_strings_url_decode(ints, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_url_decode");
  GCOL_TEST_STATUS(gcol_strings_url_encode(two, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_strings_url_decode(two, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);

  gcol_column_view const decs =
      gcol_column_view_make(gcol_data_type_decimal(GCOL_DECIMAL64, -2), 2, FAKE_PTR, NULL, 0);
  EXPECT_FAIL(gcol_strings_from_decimals(ints, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_from_decimals: input is int32, not a decimal type");
  EXPECT_FAIL(gcol_strings_from_decimals(two, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "input is string");
  GCOL_TEST_STATUS(gcol_strings_from_decimals(decs, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  EXPECT_FAIL(
      gcol_strings_to_decimals(decs, gcol_data_type_decimal(GCOL_DECIMAL32, 0), &out, NULL, NULL),
      GCOL_ERROR_TYPE_MISMATCH, "input is decimal64");
  EXPECT_FAIL(gcol_strings_to_decimals(two, gcol_data_type_make(GCOL_INT64), &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "type is int64, not a decimal type");
  GCOL_TEST_STATUS(
      gcol_strings_to_decimals(two, gcol_data_type_decimal(GCOL_DECIMAL128, 3), NULL, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);

  gcol_scalar_free(x);
  gcol_scalar_free(null_s);
  gcol_scalar_free(int_s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bytes_equal),
      cmocka_unit_test(test_hex_known_answers),
      cmocka_unit_test(test_to_hex_known_answers),
      cmocka_unit_test(test_hex_round_trip),
      cmocka_unit_test(test_url_known_answers),
      cmocka_unit_test(test_url_round_trip),
      cmocka_unit_test(test_decimal_to_text_known_answers),
      cmocka_unit_test(test_text_to_decimal_known_answers),
      cmocka_unit_test(test_decimal_round_trip),
      cmocka_unit_test(test_argument_checks),
  };
  return GCOL_TEST_RUN("strings_convert_host", tests);
}
