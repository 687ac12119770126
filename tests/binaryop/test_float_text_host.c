/*
 * Host suite of the float <-> text conversions that gcol_cast and the CSV reader and writer
 * share (kernels/detail/string_convert.h): the parse is correctly rounded, so it must agree with
 * glibc's strtod and strtof (themselves correctly rounded) bit for bit, on random values in
 * every written form, on exact midpoints between neighbours (ties to even) and next to them,
 * on long mantissas, and on the edge cases; the formatter's text parses back to the same bits
 * and equals printf's where its digits end in ties.
 */
#include <float.h>
#include <math.h>

#include "test_util.h"

#include "detail/string_convert.h"

static void check_double(const char *text) {
  double got = 0.0;
  double const want = strtod(text, NULL);
  if (!gcol_detail_parse_double(text, (int64_t)strlen(text), &got)) {
    fail_msg("did not parse %.80s", text);
  }
  if (memcmp(&got, &want, sizeof got) != 0 && !(isnan(got) && isnan(want))) {
    fail_msg("%.80s (%zu bytes): %a, strtod %a", text, strlen(text), got, want);
  }
}

static void check_float(const char *text) {
  float got = 0.0f;
  float const want = strtof(text, NULL);
  if (!gcol_detail_parse_float(text, (int64_t)strlen(text), &got)) {
    fail_msg("did not parse %.80s", text);
  }
  if (memcmp(&got, &want, sizeof got) != 0 && !(isnan(got) && isnan(want))) {
    fail_msg("%.80s (%zu bytes): %a, strtof %a", text, strlen(text), (double)got, (double)want);
  }
}

static void check_both(const char *text) {
  check_double(text);
  check_float(text);
}

static double random_double(gcol_test_rng *rng) {
  double x;
  do {
    uint64_t const bits = gcol_test_rng_next(rng);
    memcpy(&x, &bits, sizeof x);
  } while (!isfinite(x));
  return x;
}

static float random_float(gcol_test_rng *rng) {
  float f;
  do {
    uint32_t const bits = (uint32_t)gcol_test_rng_next(rng);
    memcpy(&f, &bits, sizeof f);
  } while (!isfinite(f));
  return f;
}

static void parse_edge_cases(void **state) {
  (void)state;
  static const char *const texts[] = {
      "0", "-0", "0.0", "0e999999", "-0.000e-5", "1", "-1", "+1", "0.1", "0.2", "0.3",
      "9007199254740992", "9007199254740993", "9007199254740993.0000000000000000001",
      "9007199254740994", "9007199254740995", "18014398509481985", "1e22", "1e23", "8.5e22",
      "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.797693134862315807e308",
      "1.7976931348623159e308", "1e309", "-1e309", "2.2250738585072011e-308",
      "2.2250738585072012e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
      "2.4703282292062327e-324", "2.4703282292062328e-324", "2.4703282292062327208828e-324",
      "1e-324", "3e-324", "7e-324", "1e-400", "1.00000005960464477550", "1.0000000596046447755",
      "7.038531e-26", "3.4028235e38", "3.40282356779733661637e38", "3.4028236e38",
      "1.17549435e-38", "1.4e-45", "7.00649232e-46", "7.1e-46", "7e-46",
      "123456789012345678901234567890", "1234567890123456789012345678901234567890e-40",
      "0.000000000000000000000000000001234567890123456789012345678901",
      "00000000000000000000000000000000000001.5", "1.500000000000000000000000000000000000000",
      "1e+5", "1E-5", "1e+0005", "-1.5e-3", ".5", "5.", "1.", ".000001e6", "4.35e-10",
      "inf", "-inf", "INF", "Infinity", "-infinity", "nan", "NaN", "-nan", "NAN",
      "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649"
      "017977587207096330286416692887910946555547851940402630657488671505820681908902000708383"
      "676273854845817711531764475730270069855571366959622842914819860834936475292719074168444"
      "365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999",
      "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649"
      "918180817996189898282347722858865463328355177969898199387398005390939063150356595155702"
      "263922908583924491051844359318028499365361525003193704576782492193656236698636584807570"
      "015857692699037063119282795585513329278343384093519780155312465972635795746227664652728"
      "272200563740064854999770965994704540208281662262378573934507363390079677619305775067401"
      "763246736009689513405355374585166611342237666786041621596804619144672918403005300575308"
      "490487653917113865916462395249126236538818796362393732804238910186723484976682350898633"
      "885879256283027559956575244555072551893136908362547791869486679949683240497058210285131"
      "854513962138377228261454376934125320985913276672363281255e-324",
  };
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k) check_both(texts[k]);
  double d = 0.0;
  float f = 0.0f;
  assert_true(gcol_detail_parse_double("-0", 2, &d) && d == 0.0 && signbit(d));
  assert_true(gcol_detail_parse_float("-0", 2, &f) && f == 0.0f && signbit(f));
  assert_true(gcol_detail_parse_double("0.1", 3, &d) && d == 0.1);
  assert_true(gcol_detail_parse_double("9007199254740993", 16, &d) && d == 9007199254740992.0);
  assert_true(gcol_detail_parse_float("1e-50", 5, &f) && f == 0.0f);
  assert_true(gcol_detail_parse_float("1e39", 4, &f) && isinf(f));
  /* cast.h: a point with digits on one side only parses, as strtod and Python's float() */
  assert_true(gcol_detail_parse_double("5.", 2, &d) && d == 5.0);
  assert_true(gcol_detail_parse_double("-5.", 3, &d) && d == -5.0);
  assert_true(gcol_detail_parse_double("5.e2", 4, &d) && d == 500.0);
  assert_true(gcol_detail_parse_double(".5", 2, &d) && d == 0.5);
  assert_true(gcol_detail_parse_float("5.", 2, &f) && f == 5.0f);
  static const char *const bad[] = {"", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", " 1",
                                    "1 ", "0x10", "1e5.5", "nana", "infinit", "--1", "1-"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
    if (gcol_detail_parse_double(bad[k], (int64_t)strlen(bad[k]), &d)) fail_msg("took '%s'", bad[k]);
    if (gcol_detail_parse_float(bad[k], (int64_t)strlen(bad[k]), &f)) fail_msg("took '%s'", bad[k]);
  }
}

/* Random doubles of every exponent as %.17g, as the shortest %.Ng that reads back, and with
 * random precisions and forms; uniform [0, 1) as the CSV benchmark writes them. */
static void doubles_parse_like_strtod(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(701);
  char text[64];
  for (int it = 0; it < 250000; ++it) {
    double const x = random_double(&rng);
    snprintf(text, sizeof text, "%.17g", x);
    check_double(text);
    for (int p = 1; p <= 17; ++p) { /* the shortest that reads back (Python's repr digits) */
      snprintf(text, sizeof text, "%.*g", p, x);
      if (strtod(text, NULL) == x) break;
    }
    check_double(text);
    snprintf(text, sizeof text, (it & 1) ? "%.*e" : "%.*g",
             (int)gcol_test_rng_range(&rng, 0, 25), x);
    check_double(text);
    snprintf(text, sizeof text, "%.17g", gcol_test_rng_double(&rng));
    check_double(text);
  }
}

/* Exact midpoints between neighbouring doubles (ties go to the even one) and texts a little
 * below or above them: the cases a parse that is off by a fraction of an ulp gets wrong. The
 * midpoints are exact in long double (64 significand bits on x86-64). */
static void doubles_at_and_near_midpoints(void **state) {
  (void)state;
  if (LDBL_MANT_DIG < 55) skip();
  gcol_test_rng rng = gcol_test_rng_make(702);
  static char text[1200];
  for (int it = 0; it < 6000; ++it) {
    double x = random_double(&rng);
    if (it % 3 == 0) x = ldexp(1.0 + gcol_test_rng_double(&rng), (int)gcol_test_rng_range(&rng, -1074, 1023));
    x = fabs(x);
    if (x == DBL_MAX) continue;
    long double const mid = ((long double)x + (long double)nextafter(x, INFINITY)) / 2;
    snprintf(text, sizeof text, "%.780Le", mid); /* every digit: exact */
    check_double(text);
    snprintf(text, sizeof text, "%.*Le", (int)gcol_test_rng_range(&rng, 17, 40), mid);
    check_double(text);
  }
}

/* Mantissas of 20 to 1000 digits (zeros leading, a point anywhere) with exponents that keep
 * the value anywhere from below the subnormals to above the largest double. */
static void long_mantissas_parse_like_strtod(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(703);
  static char text[1100];
  for (int it = 0; it < 3000; ++it) {
    int const digits = (int)(it % 4 == 0 ? gcol_test_rng_range(&rng, 20, 1000)
                                         : gcol_test_rng_range(&rng, 20, 40));
    int n = 0;
    int const zeros = (int)gcol_test_rng_range(&rng, 0, 3);
    for (int k = 0; k < zeros; ++k) text[n++] = '0';
    for (int k = 0; k < digits; ++k) {
      /* runs of 0 and 9 put values next to midpoints and powers of ten */
      int const kind = (int)(gcol_test_rng_next(&rng) % 8);
      text[n++] = (char)('0' + (kind == 0 ? 0 : kind == 1 ? 9 : (int)(gcol_test_rng_next(&rng) % 10)));
    }
    if (gcol_test_rng_next(&rng) & 1) {
      int const at = (int)gcol_test_rng_range(&rng, 0, n);
      memmove(text + at + 1, text + at, (size_t)(n - at));
      text[at] = '.';
      ++n;
    }
    int const e = (int)gcol_test_rng_range(&rng, -360, 330) - (it % 2 ? digits : 0);
    snprintf(text + n, sizeof text - (size_t)n, "e%d", e);
    check_both(text);
  }
}

/* Random floats as %.9g, the shortest %.Ng that reads back and other precisions, and the
 * midpoints between neighbouring floats (exact as doubles), against strtof: no double in
 * between (which could round twice). */
static void floats_parse_like_strtof(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(704);
  char text[128];
  for (int it = 0; it < 120000; ++it) {
    float const f = random_float(&rng);
    snprintf(text, sizeof text, "%.9g", (double)f);
    check_float(text);
    for (int p = 1; p <= 9; ++p) {
      snprintf(text, sizeof text, "%.*g", p, (double)f);
      if (strtof(text, NULL) == f) break;
    }
    check_float(text);
    snprintf(text, sizeof text, "%.*e", (int)gcol_test_rng_range(&rng, 0, 20), (double)f);
    check_float(text);
    if (isfinite(nextafterf(fabsf(f), INFINITY))) {
      double const mid = ((double)fabsf(f) + (double)nextafterf(fabsf(f), INFINITY)) / 2;
      snprintf(text, sizeof text, "%.*e", it % 2 ? 110 : (int)gcol_test_rng_range(&rng, 8, 20), mid);
      check_float(text);
    }
  }
}

/* The formatter's text (what gcol_cast to STRING and the CSV writer print: %.17g, %.9g) reads
 * back to the same bits, through strtod/strtof and through the parse. */
static void formatted_text_round_trips(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(705);
  char text[GCOL_DETAIL_FLOAT_TEXT_MAX + 1];
  for (int it = 0; it < 60000; ++it) {
    double const x = it % 2 ? random_double(&rng) : gcol_test_rng_double(&rng);
    int n = gcol_detail_format_double(x, 17, text);
    text[n] = '\0';
    double back = 0.0;
    assert_true(gcol_detail_parse_double(text, n, &back));
    if (memcmp(&back, &x, sizeof x) != 0 || strtod(text, NULL) != x) fail_msg("%a -> %s", x, text);
    float const f = random_float(&rng);
    n = gcol_detail_format_double((double)f, 9, text);
    text[n] = '\0';
    float fback = 0.0f;
    assert_true(gcol_detail_parse_float(text, n, &fback));
    if (memcmp(&fback, &f, sizeof f) != 0 || strtof(text, NULL) != f) {
      fail_msg("%a -> %s", (double)f, text);
    }
  }
}

/* The formatter equals printf's %.17g / %.9g byte for byte on values whose digits end in
 * ties or carries (few significant bits, integers, powers of two at every scale): the 128-bit
 * path (1e-11 <= x < 1e17) and the big-integer path must round alike. */
static void format_like_printf_at_ties(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(706);
  char want[64], got[GCOL_DETAIL_FLOAT_TEXT_MAX + 1];
  for (int it = 0; it < 150000; ++it) {
    uint64_t const r = gcol_test_rng_next(&rng);
    double x;
    switch (it % 4) {
      case 0: x = ldexp((double)(r >> (11 + r % 50)), (int)gcol_test_rng_range(&rng, -100, 60)); break;
      case 1: x = (double)(int64_t)(r >> (r % 64)); break;
      case 2: x = ldexp(1.0 + gcol_test_rng_double(&rng), (int)gcol_test_rng_range(&rng, -120, 120)); break;
      default: x = gcol_test_rng_double(&rng) * (double)gcol_test_rng_range(&rng, 1, 1000000); break;
    }
    int const precision = it % 3 == 0 ? 9 : 17;
    if (precision == 9) x = (double)(float)x;
    snprintf(want, sizeof want, "%.*g", precision, x);
    int const n = gcol_detail_format_double(x, precision, got);
    got[n] = '\0';
    if (strcmp(want, got) != 0) fail_msg("%a: printf %s, gcol %s", x, want, got);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(parse_edge_cases),
      cmocka_unit_test(doubles_parse_like_strtod),
      cmocka_unit_test(doubles_at_and_near_midpoints),
      cmocka_unit_test(long_mantissas_parse_like_strtod),
      cmocka_unit_test(floats_parse_like_strtof),
      cmocka_unit_test(formatted_text_round_trips),
      cmocka_unit_test(format_like_printf_at_ties),
  };
  return GCOL_TEST_RUN("float_text_host", tests);
}
