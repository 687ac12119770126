/* Host tests of gcol/utf8.h: decode/encode of all four widths and U+10FFFF, invalid input
 * without reading past the end (inputs placed at the very end of a malloc'd buffer, so
 * valgrind or ASan flags any overread), counting, iteration and hashing. */
#include "gcol/utf8.h"
#include "test_util.h"

/* An independent reference: a sequence of length n is valid iff its lead and continuation
 * bytes have the right shapes and the value is the shortest form of a scalar value. */
static gcol_utf8_char reference_decode(const unsigned char *p, int64_t size) {
  gcol_utf8_char bad = {0xFFFDu, 1, false};
  if (size <= 0) {
    bad.length = 0;
    return bad;
  }
  int n;
  uint32_t cp;
  if (p[0] < 0x80) { gcol_utf8_char c = {p[0], 1, true}; return c; }
  if ((p[0] & 0xE0) == 0xC0) { n = 2; cp = p[0] & 0x1Fu; }
  else if ((p[0] & 0xF0) == 0xE0) { n = 3; cp = p[0] & 0x0Fu; }
  else if ((p[0] & 0xF8) == 0xF0) { n = 4; cp = p[0] & 0x07u; }
  else return bad;
  if (size < n) return bad;
  for (int i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return bad;
    cp = (cp << 6) | (p[i] & 0x3Fu);
  }
  static const uint32_t min_for_length[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min_for_length[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return bad;
  gcol_utf8_char c = {cp, n, true};
  return c;
}

/* Copies bytes to the very end of a fresh allocation and decodes them there. */
static gcol_utf8_char decode_at_end(const unsigned char *bytes, int64_t n) {
  char *buf = malloc((size_t)(n > 0 ? n : 1));
  assert_non_null(buf);
  char *at = buf + (n > 0 ? 0 : 1);
  if (n > 0) memcpy(at, bytes, (size_t)n);
  gcol_utf8_char const c = gcol_utf8_decode(at, n);
  free(buf);
  return c;
}

static void assert_same(gcol_utf8_char got, gcol_utf8_char want, const unsigned char *p, int n) {
  if (got.code_point != want.code_point || got.length != want.length || got.valid != want.valid) {
    fail_msg("bytes %02X %02X %02X %02X (n=%d): got U+%04X/%d/%d, want U+%04X/%d/%d", n > 0 ? p[0] : 0,
             n > 1 ? p[1] : 0, n > 2 ? p[2] : 0, n > 3 ? p[3] : 0, n, got.code_point, got.length,
             got.valid, want.code_point, want.length, want.valid);
  }
}

static void decodes_boundaries_of_all_four_widths(void **state) {
  (void)state;
  static const struct {
    const char *bytes;
    int n;
    uint32_t cp;
  } cases[] = {
      {"\x00", 1, 0x0},           {"\x7F", 1, 0x7F},          {"\xC2\x80", 2, 0x80},
      {"\xDF\xBF", 2, 0x7FF},     {"\xE0\xA0\x80", 3, 0x800}, {"\xED\x9F\xBF", 3, 0xD7FF},
      {"\xEE\x80\x80", 3, 0xE000}, {"\xEF\xBF\xBF", 3, 0xFFFF}, {"\xF0\x90\x80\x80", 4, 0x10000},
      {"\xF4\x8F\xBF\xBF", 4, 0x10FFFF}, {"\xE2\x82\xAC", 3, 0x20AC}, {"\xF0\x9F\x98\x80", 4, 0x1F600},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    gcol_utf8_char const c = decode_at_end((const unsigned char *)cases[i].bytes, cases[i].n);
    assert_true(c.valid);
    assert_int_equal(c.length, cases[i].n);
    assert_int_equal(c.code_point, cases[i].cp);
    char out[4];
    assert_int_equal(gcol_utf8_encode(cases[i].cp, out), cases[i].n);
    assert_memory_equal(out, cases[i].bytes, (size_t)cases[i].n);
  }
}

static void rejects_overlong_surrogate_and_out_of_range_forms(void **state) {
  (void)state;
  static const struct {
    const char *bytes;
    int n;
  } cases[] = {
      {"\x80", 1},             {"\xBF", 1},             {"\xC0\x80", 2},         {"\xC1\xBF", 2},
      {"\xE0\x80\x80", 3},     {"\xE0\x9F\xBF", 3},     {"\xED\xA0\x80", 3},     {"\xED\xBF\xBF", 3},
      {"\xF0\x80\x80\x80", 4}, {"\xF0\x8F\xBF\xBF", 4}, {"\xF4\x90\x80\x80", 4}, {"\xF5\x80\x80\x80", 4},
      {"\xFF", 1},             {"\xFE", 1},             {"\xC2\x41", 2},         {"\xE2\x82\x41", 3},
      {"\xF0\x9F\x98\x41", 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    gcol_utf8_char const c = decode_at_end((const unsigned char *)cases[i].bytes, cases[i].n);
    assert_false(c.valid);
    assert_int_equal(c.length, 1);
    assert_int_equal(c.code_point, GCOL_UTF8_REPLACEMENT);
  }
}

static void truncated_sequences_at_the_end_of_the_buffer(void **state) {
  (void)state;
  /* Every proper prefix of a multi-byte character, ending exactly at the allocation end. */
  static const char *full[] = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF"};
  for (size_t i = 0; i < 4; ++i) {
    int64_t const n = (int64_t)strlen(full[i]);
    for (int64_t cut = 1; cut < n; ++cut) {
      gcol_utf8_char const c = decode_at_end((const unsigned char *)full[i], cut);
      assert_false(c.valid);
      assert_int_equal(c.length, 1);
    }
  }
  gcol_utf8_char const empty = decode_at_end(NULL, 0);
  assert_false(empty.valid);
  assert_int_equal(empty.length, 0);
  assert_int_equal(gcol_utf8_decode(NULL, 0).length, 0);
}

static void matches_reference_on_every_one_to_three_byte_input(void **state) {
  (void)state;
  unsigned char b[3];
  for (int n = 1; n <= 3; ++n) {
    uint32_t const count = 1u << (8 * n);
    for (uint32_t v = 0; v < count; ++v) {
      for (int i = 0; i < n; ++i) b[i] = (unsigned char)(v >> (8 * i));
      assert_same(gcol_utf8_decode((const char *)b, n), reference_decode(b, n), b, n);
    }
  }
}

static void matches_reference_on_random_four_byte_inputs(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(31);
  unsigned char b[4];
  for (int t = 0; t < 2000000; ++t) {
    uint64_t const r = gcol_test_rng_next(&rng);
    for (int i = 0; i < 4; ++i) b[i] = (unsigned char)(r >> (8 * i));
    /* Bias towards well-formed shapes so that the valid paths get exercised too. */
    if (t & 1) {
      b[0] = (unsigned char)(0xF0 | (b[0] & 0x07));
      for (int i = 1; i < 4; ++i) b[i] = (unsigned char)(0x80 | (b[i] & 0x3F));
    }
    assert_same(gcol_utf8_decode((const char *)b, 4), reference_decode(b, 4), b, 4);
  }
}

static void encode_decode_round_trip_every_scalar_value(void **state) {
  (void)state;
  char out[4];
  for (uint32_t cp = 0; cp <= 0x10FFFF + 16; ++cp) {
    int32_t const n = gcol_utf8_encode(cp, out);
    bool const scalar = cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
    if (!scalar) {
      assert_int_equal(n, 0);
      assert_int_equal(gcol_utf8_encoded_length(cp), 0);
      continue;
    }
    int32_t const want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    assert_int_equal(n, want);
    assert_int_equal(gcol_utf8_encoded_length(cp), want);
    gcol_utf8_char const c = gcol_utf8_decode(out, n);
    assert_true(c.valid);
    assert_int_equal(c.length, n);
    assert_int_equal(c.code_point, cp);
  }
  assert_int_equal(gcol_utf8_encode(0xFFFFFFFFu, out), 0);
}

static void counts_iterates_and_indexes_characters(void **state) {
  (void)state;
  /* "a" "é" "€" "😀" U+10FFFF, then a stray continuation byte and a truncated lead. */
  static const char text[] = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\x80\xE2\x82";
  int64_t const n = (int64_t)sizeof text - 1;
  char *buf = malloc((size_t)n);
  assert_non_null(buf);
  memcpy(buf, text, (size_t)n);
  gcol_string_ref const s = gcol_string_ref_make(buf, n);
  static const uint32_t expected[] = {'a', 0xE9, 0x20AC, 0x1F600, 0x10FFFF, 0xFFFD, 0xFFFD, 0xFFFD};
  static const int64_t starts[] = {0, 1, 3, 6, 10, 14, 15, 16, 17};
  assert_int_equal(gcol_string_ref_char_count(s), 8);
  gcol_utf8_iter it = gcol_utf8_iter_make(s);
  uint32_t cp;
  for (int i = 0; i < 8; ++i) {
    assert_int_equal(it.position, starts[i]);
    assert_true(gcol_utf8_iter_next(&it, &cp));
    assert_int_equal(cp, expected[i]);
    assert_int_equal(gcol_string_ref_char_to_byte(s, i), starts[i]);
  }
  assert_false(gcol_utf8_iter_next(&it, &cp));
  assert_int_equal(gcol_string_ref_char_to_byte(s, 8), n);
  assert_int_equal(gcol_string_ref_char_to_byte(s, 100), n);
  assert_false(gcol_string_ref_is_valid_utf8(s));
  assert_true(gcol_string_ref_is_valid_utf8(gcol_string_ref_make(buf, 14)));
  assert_int_equal(gcol_string_ref_char_count(gcol_string_ref_make(buf, 14)), 5);
  assert_int_equal(gcol_string_ref_char_count(gcol_string_ref_make(NULL, 0)), 0);
  assert_true(gcol_string_ref_is_valid_utf8(gcol_string_ref_make(NULL, 0)));
  /* Iteration with a NULL output still advances. */
  gcol_utf8_iter it2 = gcol_utf8_iter_make(s);
  int steps = 0;
  while (gcol_utf8_iter_next(&it2, NULL)) ++steps;
  assert_int_equal(steps, 8);
  free(buf);
}

static void string_hash_is_murmur3_of_the_bytes(void **state) {
  (void)state;
  gcol_string_ref const a = gcol_string_ref_make("Hello, world!", 13);
  assert_int_equal(gcol_string_ref_hash(a, 0x9747B28Cu), 0x24884CBAu); /* published vector */
  assert_int_equal(gcol_string_ref_hash(gcol_string_ref_make(NULL, 0), 0), 0u);
  /* "" and "\0" differ. */
  assert_true(gcol_string_ref_hash(gcol_string_ref_make("", 0), 1) !=
              gcol_string_ref_hash(gcol_string_ref_make("\0", 1), 1));
}

static void continuation_bytes_and_string_ref_compare(void **state) {
  (void)state;
  for (int b = 0; b < 256; ++b) assert_int_equal(gcol_utf8_is_continuation((unsigned char)b), b >= 0x80 && b < 0xC0);
  gcol_string_ref const empty = gcol_string_ref_make(NULL, 0);
  gcol_string_ref const nul = gcol_string_ref_make("\0", 1);
  gcol_string_ref const ab = gcol_string_ref_make("ab", 2);
  gcol_string_ref const abc = gcol_string_ref_make("abc", 3);
  gcol_string_ref const high = gcol_string_ref_make("\xC3\xA9", 2); /* bytes above 0x7F sort last */
  assert_true(gcol_string_ref_compare(empty, nul) < 0);
  assert_true(gcol_string_ref_compare(nul, empty) > 0);
  assert_true(gcol_string_ref_compare(ab, abc) < 0);
  assert_true(gcol_string_ref_compare(abc, ab) > 0);
  assert_true(gcol_string_ref_compare(abc, high) < 0);
  assert_int_equal(gcol_string_ref_compare(abc, gcol_string_ref_make("abc", 3)), 0);
  assert_true(gcol_string_ref_equal(abc, gcol_string_ref_make("abcd", 3)));
  assert_false(gcol_string_ref_equal(ab, abc));
  assert_false(gcol_string_ref_equal(empty, nul));
  assert_true(gcol_string_ref_equal(empty, gcol_string_ref_make("", 0)));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(decodes_boundaries_of_all_four_widths),
      cmocka_unit_test(rejects_overlong_surrogate_and_out_of_range_forms),
      cmocka_unit_test(truncated_sequences_at_the_end_of_the_buffer),
      cmocka_unit_test(matches_reference_on_every_one_to_three_byte_input),
      cmocka_unit_test(matches_reference_on_random_four_byte_inputs),
      cmocka_unit_test(encode_decode_round_trip_every_scalar_value),
      cmocka_unit_test(counts_iterates_and_indexes_characters),
      cmocka_unit_test(string_hash_is_murmur3_of_the_bytes),
      cmocka_unit_test(continuation_bytes_and_string_ref_compare),
  };
  return GCOL_TEST_RUN("toolkit_utf8", tests);
}
