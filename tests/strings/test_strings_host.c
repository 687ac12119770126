/*
 * Host tests (no GPU) of the strings operations: the per-string code the kernels run
 * (search_ops.h, like_match.h, char_props.h) against the references of
 * strings_reference.c on random strings with 1- to 4-byte characters and invalid bytes; the
 * LIKE pattern compiler; known case mappings; and every argument check of the public
 * functions, which must fail before any device memory is touched (the device pointers here
 * are fake: a check that let them through would crash the test).
 */
#include "test_util.h"

#include "detail/like_match.h"
#include "gcol/strings/attributes.h"
#include "gcol/strings/case.h"
#include "gcol/strings/find.h"
#include "gcol/strings/like.h"
#include "host_tables.h"
#include "strings/search_ops.h"
#include "strings_reference.h"

#define FAKE_PTR ((const void *)(uintptr_t)0x10)

/* Pieces random strings are made of: ASCII, 2-, 3- and 4-byte characters (U+10FFFF
 * included), invalid bytes (stray continuation, truncated sequence, overlong, lone lead). */
static const char *const pieces[] = {"a", "b", "%", "_", "!", "\xc3\xa9", "\xe2\x82\xac",
                                     "\xf4\x8f\xbf\xbf", "\xf0\x90\x8d\x88", "\x80", "\xe2\x82",
                                     "\xc0\xaf", "\xf4", ""};
#define NUM_PIECES (sizeof pieces / sizeof pieces[0])

static int64_t random_string(gcol_test_rng *rng, char *out, int max_pieces, int num_pieces) {
  return ref_random_string(rng, pieces, num_pieces, max_pieces, out);
}

/* ---------------------------------------------------------------- search */

static void test_search_ops_match_reference(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1201);
  char s[256], t[256]; /* a target may be cut from all of s */
  for (int iter = 0; iter < 200000; ++iter) {
    /* one string in eight spans several 32-byte windows */
    int64_t const n = random_string(&rng, s, iter % 8 == 0 ? 60 : 12, (int)NUM_PIECES);
    /* targets from the same pieces (often found), sometimes cut from s itself */
    int64_t tn;
    if (n > 0 && gcol_test_rng_range(&rng, 0, 3) == 0) {
      int64_t const a = gcol_test_rng_range(&rng, 0, n);
      int64_t const b = gcol_test_rng_range(&rng, a, n);
      tn = b - a;
      memcpy(t, s + a, (size_t)tn);
    } else {
      tn = random_string(&rng, t, 3, (int)NUM_PIECES);
    }
    int64_t const reach = iter % 8 == 0 ? 70 : 14;
    int64_t const start = gcol_test_rng_range(&rng, 0, reach);
    int64_t const stop = gcol_test_rng_range(&rng, -1, reach);
    for (int rev = 0; rev < 2; ++rev) {
      int64_t const got = gcol_detail_string_find(s, n, t, tn, start, stop, rev != 0);
      int64_t const want = ref_find(s, n, t, tn, start, stop, rev != 0);
      int64_t const windows = gcol_detail_string_find_windows(s, n, t, tn, start, stop, rev != 0);
      if (got != want || windows != want) {
        fail_msg("find(rev %d, start %lld, stop %lld) of %lld target bytes in %lld bytes: %lld, "
                 "by windows %lld, want %lld (iteration %d)",
                 rev, (long long)start, (long long)stop, (long long)tn, (long long)n,
                 (long long)got, (long long)windows, (long long)want, iter);
      }
    }
    assert_int_equal(gcol_detail_string_contains(s, n, t, tn), ref_contains(s, n, t, tn));
    assert_int_equal(gcol_detail_string_starts_with(s, n, t, tn), ref_starts_with(s, n, t, tn));
    assert_int_equal(gcol_detail_string_ends_with(s, n, t, tn), ref_ends_with(s, n, t, tn));
    assert_int_equal(gcol_detail_string_count(s, n, t, tn), ref_count(s, n, t, tn));
  }
}

/* The local boundary rule of the warp search against sequential decoding. */
/* gcol_detail_row_of_byte (the chars-parallel contains finds a match's row with it):
 * every byte of random rows (empty ones among them) maps to the row whose span holds it,
 * over INT32 and INT64 offsets. */
static void test_row_of_byte(void **state) {
  (void)state;
  uint64_t x = 77;
  for (int trial = 0; trial < 200; ++trial) {
    int64_t const rows = 1 + trial % 37;
    int64_t off64[40];
    int32_t off32[40];
    off64[0] = off32[0] = (int32_t)(trial % 5); /* a sliced column's first offset */
    for (int64_t r = 0; r < rows; ++r) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      int64_t const len = (x >> 33) % 4 == 0 ? 0 : (int64_t)((x >> 40) % 9);
      off64[r + 1] = off64[r] + len;
      off32[r + 1] = (int32_t)off64[r + 1];
    }
    for (int w = 0; w < 2; ++w) {
      gcol_offsetalator const it = {w == 0 ? (const void *)off32 : (const void *)off64,
                                    w == 0 ? 4 : 8};
      for (int64_t p = off64[0]; p < off64[rows]; ++p) {
        int64_t const r = gcol_detail_row_of_byte(it, rows, p);
        assert_true(r >= 0 && r < rows);
        assert_true(off64[r] <= p && p < off64[r + 1]);
      }
    }
  }
}

static void test_char_boundaries_are_local(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1203);
  char s[256];
  bool expected[257];
  for (int iter = 0; iter < 100000; ++iter) {
    int64_t const n = random_string(&rng, s, 40, (int)NUM_PIECES);
    memset(expected, 0, sizeof expected);
    for (int64_t p = 0; p < n; p += gcol_utf8_decode(s + p, n - p).length) expected[p] = true;
    expected[n] = true;
    for (int64_t p = 0; p <= n + 1; ++p) {
      bool const want = p <= n && expected[p];
      if (gcol_detail_is_char_boundary(s, n, p) != want) {
        fail_msg("position %lld of %lld bytes: boundary %d, want %d (iteration %d)", (long long)p,
                 (long long)n, !want, want, iter);
      }
    }
  }
}

/* Python's answers, typed in. */
static void test_search_known_answers(void **state) {
  (void)state;
  const char *s = "h\xc3\xa9llo w\xc3\xa9rld"; /* "héllo wérld": 11 characters, 13 bytes */
  int64_t const n = (int64_t)strlen(s);
  assert_int_equal(gcol_detail_string_find(s, n, "l", 1, 0, -1, false), 2);
  assert_int_equal(gcol_detail_string_find(s, n, "l", 1, 0, -1, true), 9);
  assert_int_equal(gcol_detail_string_find(s, n, "w\xc3\xa9", 3, 0, -1, false), 6);
  assert_int_equal(gcol_detail_string_find(s, n, "l", 1, 4, 9, false), -1); /* "o wér" */
  assert_int_equal(gcol_detail_string_find(s, n, "l", 1, 4, 10, false), 9);
  assert_int_equal(gcol_detail_string_find(s, n, "", 0, 11, -1, false), 11);
  assert_int_equal(gcol_detail_string_find(s, n, "", 0, 12, -1, false), -1);
  assert_int_equal(gcol_detail_string_find(s, n, "", 0, 0, -1, true), 11);
  assert_int_equal(gcol_detail_string_find(s, n, "", 0, 1, 3, true), 3);
  assert_int_equal(gcol_detail_string_find(s, n, "", 0, 3, 1, false), -1);
  assert_int_equal(gcol_detail_string_count(s, n, "l", 1), 3);
  assert_int_equal(gcol_detail_string_count(s, n, "", 0), 12);
  assert_int_equal(gcol_detail_string_count("aaaa", 4, "aa", 2), 2);
  assert_true(gcol_detail_string_contains(s, n, "", 0));
  assert_true(gcol_detail_string_starts_with("", 0, "", 0));
  assert_false(gcol_detail_string_ends_with("a", 1, "ba", 2));
  /* U+10FFFF is one character */
  assert_int_equal(gcol_detail_string_find("\xf4\x8f\xbf\xbfx", 5, "x", 1, 0, -1, false), 1);
}

/* ---------------------------------------------------------------- LIKE */

static void expect_items(const char *pattern, const char *escape, const int32_t *want,
                         int64_t want_count) {
  int32_t items[64];
  int64_t count = -1;
  GCOL_TEST_OK(gcol_detail_like_compile(pattern, (int64_t)strlen(pattern), escape, items, &count));
  assert_int_equal(count, want_count);
  for (int64_t i = 0; i < count; ++i) {
    if (items[i] != want[i]) {
      fail_msg("pattern \"%s\": item %lld is %d, want %d", pattern, (long long)i, items[i], want[i]);
    }
  }
}

static void test_like_compile(void **state) {
  (void)state;
  int32_t const any = GCOL_DETAIL_LIKE_ANY, one = GCOL_DETAIL_LIKE_ONE;
  int32_t const w1[] = {'a', any, 'b'};
  expect_items("a%b", NULL, w1, 3);
  int32_t const w2[] = {any};
  expect_items("%%%", NULL, w2, 1);
  int32_t const w3[] = {one, one, any, one};
  expect_items("__%%_", "", w3, 4);
  int32_t const w4[] = {'1', '0', '0', '%', any};
  expect_items("100!%%", "!", w4, 5);
  int32_t const w5[] = {'!', '_', one};
  expect_items("!!!__", "!", w5, 3);
  int32_t const w6[] = {'%', any, 0xc3, 0xa9};
  expect_items("\xc3\xa9%%\xc3\xa9\xc3\xa9", "\xc3\xa9", w6, 4); /* escape "é" */
  int32_t const w7[] = {any, '%', any};
  expect_items("%!%%", "!", w7, 3); /* an escaped % does not merge with % */
  expect_items("", NULL, NULL, 0);

  int32_t items[16];
  int64_t count = 7;
  GCOL_TEST_STATUS(gcol_detail_like_compile("ab!", 3, "!", items, &count),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "ends with the escape"));
  assert_int_equal(count, 0);
  GCOL_TEST_STATUS(gcol_detail_like_compile("!a", 2, "!", items, &count),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "byte 0"));
  GCOL_TEST_STATUS(gcol_detail_like_compile("a", 1, "ab", items, &count),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_detail_like_compile("a", 1, "\xc3", items, &count),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

static void test_like_matches_reference(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1202);
  static const char *const pattern_pieces[] = {"a", "b", "%", "_", "!", "\xc3\xa9", "\x80",
                                               "\xf4\x8f\xbf\xbf", "%%", "!%", "!_", "!!"};
  char s[256], pattern[128];
  int32_t items[128];
  int64_t matches = 0, compiled = 0;
  for (int iter = 0; iter < 200000; ++iter) {
    int64_t const n = random_string(&rng, s, 10, 9); /* a b % _ ! é € U+10FFFF 𐍈 */
    int64_t pn = 0;
    int64_t const parts = gcol_test_rng_range(&rng, 0, 6);
    for (int64_t k = 0; k < parts; ++k) {
      const char *p = pattern_pieces[gcol_test_rng_range(&rng, 0, 11)];
      memcpy(pattern + pn, p, strlen(p));
      pn += (int64_t)strlen(p);
    }
    const char *escape = gcol_test_rng_range(&rng, 0, 1) ? "!" : NULL;
    int64_t count = 0;
    gcol_status const st = gcol_detail_like_compile(pattern, pn, escape, items, &count);
    int const want = ref_like(s, n, pattern, pn, escape);
    if (st != GCOL_OK) {
      if (want != -1) fail_msg("compile refused a pattern the reference reads (iteration %d)", iter);
      continue;
    }
    ++compiled;
    if (want == -1) fail_msg("compile accepted a malformed pattern (iteration %d)", iter);
    bool const got = gcol_detail_like_match(s, n, items, count);
    if ((int)got != want) {
      fail_msg("LIKE of %lld bytes by a %lld-byte pattern: %d, want %d (iteration %d)",
               (long long)n, (long long)pn, (int)got, want, iter);
    }
    matches += got;
  }
  /* both outcomes must be common, or the comparison proves little */
  assert_true(compiled > 100000);
  assert_true(matches > compiled / 50);
  assert_true(matches < compiled - compiled / 50);
}

/* ---------------------------------------------------------------- case and classes */

static void expect_case(const char *in, gcol_case_op op, const char *want) {
  char out[64];
  int64_t const n = (int64_t)strlen(in);
  int64_t const size = ref_convert_case(in, n, op, out);
  assert_int_equal(gcol_detail_case_convert(gcol_test_unicode_tables(), op, in, n, NULL), size);
  if (size != (int64_t)strlen(want) || memcmp(out, want, (size_t)size) != 0) {
    fail_msg("case op %d of \"%s\" is %lld bytes \"%.*s\", want \"%s\"", (int)op, in,
             (long long)size, (int)size, out, want);
  }
}

static void test_case_known_answers(void **state) {
  (void)state;
  expect_case("Hello, World 42", GCOL_CASE_UPPER, "HELLO, WORLD 42");
  expect_case("Hello, World 42", GCOL_CASE_LOWER, "hello, world 42");
  expect_case("Hello, World 42", GCOL_CASE_SWAPCASE, "hELLO, wORLD 42");
  expect_case("hELLO wORLD", GCOL_CASE_CAPITALIZE, "Hello world");
  expect_case("they're bill's friends", GCOL_CASE_TITLE, "They'Re Bill'S Friends");
  expect_case("stra\xc3\x9f" "e", GCOL_CASE_UPPER, "STRA\xc3\x9f" "E");          /* ß stays */
  expect_case("\xc4\xb1", GCOL_CASE_UPPER, "I");                              /* ı -> I: 2 -> 1 byte */
  expect_case("\xc8\xba", GCOL_CASE_LOWER, "\xe2\xb1\xa5");                   /* Ⱥ -> ⱥ: 2 -> 3 bytes */
  expect_case("\xc4\xb0", GCOL_CASE_LOWER, "i");                              /* İ -> i (simple) */
  expect_case("\xc7\x86" "a", GCOL_CASE_TITLE, "\xc7\x85" "a");               /* ǆa -> ǅa */
  expect_case("\xe1\xbe\x80", GCOL_CASE_UPPER, "\xe1\xbe\x88");               /* ᾀ -> ᾈ */
  expect_case("\xce\xa3\xce\x91", GCOL_CASE_LOWER, "\xcf\x83\xce\xb1");      /* no final sigma */
  expect_case("\xf4\x8f\xbf\xbf" "a", GCOL_CASE_UPPER, "\xf4\x8f\xbf\xbf" "A"); /* U+10FFFF */
  expect_case("\xf0\x90\x90\xa8", GCOL_CASE_UPPER, "\xf0\x90\x90\x80");       /* Deseret, 4 bytes */
  expect_case("a\x80" "b\xe2\x82" "c", GCOL_CASE_UPPER, "A\x80" "B\xe2\x82" "C"); /* invalid kept */
  expect_case("a\x80" "b", GCOL_CASE_TITLE, "A\x80" "B"); /* an invalid byte is not cased */
  expect_case("", GCOL_CASE_TITLE, "");
}

static void test_classes_known_answers(void **state) {
  (void)state;
  struct {
    const char *s;
    unsigned bits; /* gcol_char_class order: decimal digit numeric alpha alnum space upper lower */
  } const cases[] = {
      {"", 0x00},
      {"123", 0x1F & ~0x08u},               /* decimal digit numeric alnum */
      {"\xc2\xb2", 0x02 | 0x04 | 0x10},      /* ² digit numeric alnum */
      {"\xc2\xbd", 0x04 | 0x10},             /* ½ numeric alnum */
      {"\xe4\xba\x8c", 0x04 | 0x08 | 0x10},  /* 二 numeric alpha alnum */
      {"abc", 0x08 | 0x10 | 0x80},
      {"ABC1", 0x10 | 0x40},                 /* alnum upper */
      {"A b", 0x00},                         /* neither upper nor lower */
      {" \t\n\x1c\xe3\x80\x80", 0x20},       /* space incl. U+001C, U+3000 */
      {"\xc7\x85", 0x08 | 0x10},             /* ǅ titlecase: neither upper nor lower */
      {"\xc3\xa9t\xc3\xa9", 0x08 | 0x10 | 0x80},
      {"a\x80", 0x80},                       /* lower: an invalid byte is uncased */
      {"1\x80", 0x00},                       /* and has no class */
      {"\xf4\x8f\xbf\xbf", 0x00},            /* U+10FFFF: unassigned */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    unsigned bits = 0;
    for (int c = GCOL_CHAR_DECIMAL; c <= GCOL_CHAR_LOWER; ++c) {
      if (ref_is_class(cases[k].s, (int64_t)strlen(cases[k].s), (gcol_char_class)c)) bits |= 1u << c;
    }
    if (bits != cases[k].bits) fail_msg("case %zu: classes %#x, want %#x", k, bits, cases[k].bits);
  }
}

/* ---------------------------------------------------------------- argument checks */

static gcol_column_view fake_view(gcol_type_id id, int64_t size) {
  return gcol_column_view_make(gcol_data_type_make(id), size, FAKE_PTR, NULL, 0);
}

/* An empty STRING view: valid, and checks that pass reach no device code before failing. */
static gcol_column_view empty_strings(void) { return fake_view(GCOL_STRING, 0); }

static void expect_message(const char *needle) {
  if (strstr(gcol_last_error(), needle) == NULL) {
    fail_msg("message \"%s\" does not name \"%s\"", gcol_last_error(), needle);
  }
}

static void test_argument_checks(void **state) {
  (void)state;
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_scalar *target = NULL, *null_target = NULL, *int_scalar = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring("x", &target));
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_STRING), &null_target));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 3, &int_scalar));
  gcol_column_view const ints = fake_view(GCOL_INT32, 4);

  GCOL_TEST_STATUS(gcol_strings_count_bytes(ints, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  expect_message("gcol_strings_count_bytes");
  expect_message("input");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_count_characters(empty_strings(), NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_is_char_class(empty_strings(), (gcol_char_class)8, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("char_class");
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_is_char_class(empty_strings(), (gcol_char_class)-1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_convert_case(empty_strings(), (gcol_case_op)5, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("op 5");
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_convert_case(ints, GCOL_CASE_UPPER, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);

  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_find(empty_strings(), NULL, 0, -1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("target");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_contains(empty_strings(), null_target, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("null scalar");
  GCOL_TEST_STATUS(gcol_strings_starts_with(empty_strings(), int_scalar, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_strings_rfind(empty_strings(), target, -1, -1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("start");
  GCOL_TEST_STATUS(gcol_strings_find(empty_strings(), target, 0, -2, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("stop");
  GCOL_TEST_STATUS(gcol_strings_ends_with(ints, target, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_strings_count_matches(empty_strings(), target, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_strings_contains_column(empty_strings(), ints, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("targets");
  gcol_column_view const offsets = fake_view(GCOL_INT32, 3);
  gcol_column_view two = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 2, FAKE_PTR,
                                               NULL, 0);
  two.children = &offsets;
  two.num_children = 1;
  GCOL_TEST_STATUS(gcol_strings_find_column(empty_strings(), two, 0, -1, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  expect_message("targets has 2 rows");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_count_matches_column(two, empty_strings(), &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);

  gcol_scalar *pattern = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring("50!", &pattern));
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_like(two, pattern, "!", &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_strings_like");
  expect_message("ends with the escape");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_like(two, null_target, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("pattern");
  GCOL_TEST_STATUS(gcol_strings_like(two, pattern, "!!", &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("escape_character");
  GCOL_TEST_STATUS(gcol_strings_like(ints, pattern, NULL, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);

  gcol_scalar_free(pattern);
  gcol_scalar_free(target);
  gcol_scalar_free(null_target);
  gcol_scalar_free(int_scalar);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_search_ops_match_reference),
      cmocka_unit_test(test_search_known_answers),
      cmocka_unit_test(test_char_boundaries_are_local),
      cmocka_unit_test(test_row_of_byte),
      cmocka_unit_test(test_like_compile),
      cmocka_unit_test(test_like_matches_reference),
      cmocka_unit_test(test_case_known_answers),
      cmocka_unit_test(test_classes_known_answers),
      cmocka_unit_test(test_argument_checks),
  };
  return GCOL_TEST_RUN("strings_host", tests);
}
