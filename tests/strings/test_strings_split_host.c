/*
 * Host tests (no GPU) of split and join (strings/split.h, strings/combine.h): the
 * per-string functions the kernels run (split_ops.h, combine_ops.h) against the references
 * of strings_reference.c (CPython's algorithms transcribed) on random strings of 1- to
 * 4-byte characters, whitespace and invalid bytes; both against answers Python gave; and
 * every argument check of the public functions, which must fail before any device memory
 * is touched (the device pointers here are fake: a check that let them through would crash
 * the test).
 */
#include "test_util.h"

#include "strings_fake_views.h"

#include "gcol/strings/combine.h"
#include "gcol/strings/split.h"
#include "strings/combine_ops.h"
#include "strings/split_ops.h"
#include "strings_reference.h"


/* Pieces of random strings: ASCII, delimiters, whitespace of 1 to 3 bytes, 2-, 3- and
 * 4-byte characters (U+10FFFF), invalid bytes (a stray continuation, truncated sequences,
 * an overlong form, a lone lead byte). */
static const char *const pieces[] = {"a",
                                     "b",
                                     ",",
                                     ", ",
                                     "--",
                                     " ",
                                     "\t",
                                     "\n",
                                     "\x1c",
                                     "\xc2\x85",
                                     "\xc2\xa0",
                                     "\xe3\x80\x80",
                                     "\xe2\x80\xa8",
                                     "\xc3\xa9",
                                     "\xe2\x82\xac",
                                     "\xf4\x8f\xbf\xbf",
                                     "\x80",
                                     "\xe2\x82",
                                     "\xe3\x80",
                                     "\xc0\xaf",
                                     "\xf4"};
#define NUM_PIECES ((int64_t)(sizeof pieces / sizeof pieces[0]))

static int64_t random_string(gcol_test_rng *rng, char *out, int64_t max_pieces) {
  int64_t n = 0;
  int64_t const count = gcol_test_rng_range(rng, 0, max_pieces);
  for (int64_t k = 0; k < count; ++k) {
    const char *p = pieces[gcol_test_rng_range(rng, 0, NUM_PIECES - 1)];
    size_t const len = strlen(p);
    memcpy(out + n, p, len);
    n += (int64_t)len;
  }
  return n;
}

/* ---------------------------------------------------------------- split */

/* The kernels' pieces of s, left to right, as the passes place them: counted first, then
 * enumerated (rsplit fills from the back). Returns the count; ranges has room for it. */
static int64_t kernel_split(const char *s, int64_t n, const char *d, int64_t dn, int64_t max_splits,
                            bool reverse, int64_t *ranges) {
  gcol_detail_split_spec sp;
  sp.delim = d;
  sp.dn = dn;
  sp.max_splits = max_splits;
  sp.reverse = reverse;
  int64_t const count = gcol_detail_split_count(s, n, sp);
  gcol_detail_split_state st = gcol_detail_split_begin(sp, n);
  int64_t b = 0, e = 0, k = 0;
  for (; gcol_detail_split_next(s, n, sp, &st, &b, &e); ++k) {
    int64_t const at = reverse ? count - 1 - k : k;
    assert_true(at >= 0 && at < count);
    assert_true(0 <= b && b <= e && e <= n);
    ranges[2 * at] = b;
    ranges[2 * at + 1] = e;
  }
  assert_int_equal(k, count);
  return count;
}

static void expect_pieces(const char *what, const char *s, int64_t n, const int64_t *got,
                          int64_t gn, const int64_t *want, int64_t wn, int64_t iter) {
  bool same = gn == wn;
  for (int64_t k = 0; same && k < gn; ++k) {
    same = got[2 * k] == want[2 * k] && got[2 * k + 1] == want[2 * k + 1];
  }
  if (!same) {
    fail_msg("%s (case %lld, %lld bytes): %lld pieces, want %lld", what, (long long)iter,
             (long long)n, (long long)gn, (long long)wn);
  }
  (void)s;
}

static void test_split_matches_reference(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1240);
  char s[512], d[64];
  int64_t got[1100];
  for (int64_t iter = 0; iter < 120000; ++iter) {
    int64_t const n = random_string(&rng, s, iter % 16 == 0 ? 60 : 10);
    int64_t dn = 0;
    int64_t const kind = gcol_test_rng_range(&rng, 0, 3);
    if (kind == 1 && n > 0) { /* a delimiter cut from the row */
      int64_t const at = gcol_test_rng_range(&rng, 0, n - 1);
      dn = gcol_test_rng_range(&rng, 1, n - at < 4 ? n - at : 4);
      memcpy(d, s + at, (size_t)dn);
    } else if (kind >= 2) {
      dn = random_string(&rng, d, 2);
    }
    int64_t const max_splits = gcol_test_rng_range(&rng, -1, 4);
    bool const reverse = (iter & 1) != 0;
    int64_t *want = NULL;
    int64_t const wn = ref_split(s, n, d, dn, max_splits, reverse, &want);
    int64_t const gn = kernel_split(s, n, d, dn, max_splits, reverse, got);
    expect_pieces(reverse ? "rsplit" : "split", s, n, got, gn, want, wn, iter);
    free(want);
  }
}

typedef struct split_answer {
  const char *s, *delim;
  int64_t max_splits;
  bool reverse;
  int64_t count;
  const char *pieces[4];
} split_answer;

/* Generated by Python 3 (str.split, str.rsplit; NULL: sep None). */
// clang-format off
static const split_answer split_answers[] = {
    {"a,b,c", ",", -1, false, 3, {"a", "b", "c"}},
    {"a,b,c", ",", -1, true, 3, {"a", "b", "c"}},
    {"a,b,c", ",", 1, false, 2, {"a", "b,c"}},
    {"a,b,c", ",", 1, true, 2, {"a,b", "c"}},
    {"a,,b,", ",", -1, false, 4, {"a", "", "b", ""}},
    {"a,,b,", ",", -1, true, 4, {"a", "", "b", ""}},
    {"", ",", -1, false, 1, {""}},
    {"", ",", -1, true, 1, {""}},
    {",", ",", -1, false, 2, {"", ""}},
    {",", ",", -1, true, 2, {"", ""}},
    {"aaa", "aa", -1, false, 2, {"", "a"}},
    {"aaa", "aa", -1, true, 2, {"a", ""}},
    {"aaaa", "aa", -1, false, 3, {"", "", ""}},
    {"aaaa", "aa", -1, true, 3, {"", "", ""}},
    {"a--b--c", "--", 0, false, 1, {"a--b--c"}},
    {"a--b--c", "--", 0, true, 1, {"a--b--c"}},
    {"a--b--c", "--", 5, false, 3, {"a", "b", "c"}},
    {"a--b--c", "--", 5, true, 3, {"a", "b", "c"}},
    {"x\xe2""\x82""\xac""y\xe2""\x82""\xac""z", "\xe2""\x82""\xac""", -1, false, 3, {"x", "y", "z"}},
    {"x\xe2""\x82""\xac""y\xe2""\x82""\xac""z", "\xe2""\x82""\xac""", -1, true, 3, {"x", "y", "z"}},
    {"\xf4""\x8f""\xbf""\xbf""ab\xf4""\x8f""\xbf""\xbf""", "\xf4""\x8f""\xbf""\xbf""", -1, false, 3, {"", "ab", ""}},
    {"\xf4""\x8f""\xbf""\xbf""ab\xf4""\x8f""\xbf""\xbf""", "\xf4""\x8f""\xbf""\xbf""", -1, true, 3, {"", "ab", ""}},
    {"\xc3""\xa9""a\xc3""\xa9""", "a", -1, false, 2, {"\xc3""\xa9""", "\xc3""\xa9"""}},
    {"\xc3""\xa9""a\xc3""\xa9""", "a", -1, true, 2, {"\xc3""\xa9""", "\xc3""\xa9"""}},
    {"  a  b  c  ", NULL, -1, false, 3, {"a", "b", "c"}},
    {"  a  b  c  ", NULL, -1, true, 3, {"a", "b", "c"}},
    {"  a  b  c  ", NULL, 1, false, 2, {"a", "b  c  "}},
    {"  a  b  c  ", NULL, 1, true, 2, {"  a  b", "c"}},
    {"  a  b  c  ", NULL, 0, false, 1, {"a  b  c  "}},
    {"  a  b  c  ", NULL, 0, true, 1, {"  a  b  c"}},
    {"", NULL, -1, false, 0, {NULL}},
    {"", NULL, -1, true, 0, {NULL}},
    {"   ", NULL, -1, false, 0, {NULL}},
    {"   ", NULL, -1, true, 0, {NULL}},
    {"   ", NULL, 0, false, 0, {NULL}},
    {"   ", NULL, 0, true, 0, {NULL}},
    {"a", NULL, -1, false, 1, {"a"}},
    {"a", NULL, -1, true, 1, {"a"}},
    {"a\xe3""\x80""\x80""b\xc2""\xa0""c\xe2""\x80""\xa8""d", NULL, -1, false, 4, {"a", "b", "c", "d"}},
    {"a\xe3""\x80""\x80""b\xc2""\xa0""c\xe2""\x80""\xa8""d", NULL, -1, true, 4, {"a", "b", "c", "d"}},
    {"a\xe3""\x80""\x80""b\xc2""\xa0""c", NULL, 1, false, 2, {"a", "b\xc2""\xa0""c"}},
    {"a\xe3""\x80""\x80""b\xc2""\xa0""c", NULL, 1, true, 2, {"a\xe3""\x80""\x80""b", "c"}},
    {"\x1c""\x1f""a b\x09""\x0a""", NULL, -1, false, 2, {"a", "b"}},
    {"\x1c""\x1f""a b\x09""\x0a""", NULL, -1, true, 2, {"a", "b"}},
    {"a b   ", NULL, 1, false, 2, {"a", "b   "}},
    {"a b   ", NULL, 1, true, 2, {"a", "b"}},
    {"\xe2""\x80""\x8b""x\xe2""\x80""\x8b"" y", NULL, -1, false, 2, {"\xe2""\x80""\x8b""x\xe2""\x80""\x8b""", "y"}},
    {"\xe2""\x80""\x8b""x\xe2""\x80""\x8b"" y", NULL, -1, true, 2, {"\xe2""\x80""\x8b""x\xe2""\x80""\x8b""", "y"}},
};
// clang-format on

static void test_split_known_answers(void **state) {
  (void)state;
  int64_t got[64];
  for (size_t i = 0; i < sizeof split_answers / sizeof split_answers[0]; ++i) {
    split_answer const *q = &split_answers[i];
    int64_t const n = (int64_t)strlen(q->s);
    int64_t const dn = q->delim != NULL ? (int64_t)strlen(q->delim) : 0;
    int64_t *ref = NULL;
    int64_t const rn = ref_split(q->s, n, q->delim, dn, q->max_splits, q->reverse, &ref);
    int64_t const gn = kernel_split(q->s, n, q->delim, dn, q->max_splits, q->reverse, got);
    if (gn != q->count || rn != q->count) {
      fail_msg("case %zu: kernel %lld pieces, reference %lld, Python %lld", i, (long long)gn,
               (long long)rn, (long long)q->count);
    }
    for (int64_t k = 0; k < q->count; ++k) {
      int64_t const wl = (int64_t)strlen(q->pieces[k]);
      if (got[2 * k + 1] - got[2 * k] != wl ||
          memcmp(q->s + got[2 * k], q->pieces[k], (size_t)wl) ||
          ref[2 * k + 1] - ref[2 * k] != wl ||
          memcmp(q->s + ref[2 * k], q->pieces[k], (size_t)wl)) {
        fail_msg("case %zu: piece %lld differs from Python's", i, (long long)k);
      }
    }
    free(ref);
  }
}

/* ---------------------------------------------------------------- join */

/* A host strings view of count rows (rows[k] NULL: null) with a host mask. */
typedef struct host_rows {
  char chars[1024];
  int64_t offsets[40];
  uint32_t mask[2];
  gcol_strings_view view;
} host_rows;

static void host_rows_make(host_rows *h, const char *const *rows, const int64_t *sizes,
                           int64_t count) {
  h->offsets[0] = 0;
  h->mask[0] = h->mask[1] = 0;
  for (int64_t k = 0; k < count; ++k) {
    int64_t const size = rows[k] != NULL ? sizes[k] : 0;
    if (size > 0) memcpy(h->chars + h->offsets[k], rows[k], (size_t)size);
    h->offsets[k + 1] = h->offsets[k] + size;
    if (rows[k] != NULL) h->mask[k / 32] |= 1u << (k % 32);
  }
  h->view.offsets.data = h->offsets;
  h->view.offsets.width = 8;
  h->view.chars = h->chars;
  h->view.null_mask = h->mask;
  h->view.mask_offset = 0;
  h->view.size = count;
}

/* Counted, then written: the two passes agree; NULL when the row is null. */
static char *kernel_join(gcol_strings_view v, int64_t first, int64_t last, gcol_string_ref sep,
                         gcol_detail_narep narep, int64_t *len) {
  gcol_detail_sink count = gcol_detail_sink_make(NULL);
  if (!gcol_detail_join_range(v, first, last, sep, narep, &count)) return NULL;
  char *out = (char *)malloc((size_t)count.size + 1);
  gcol_detail_sink write = gcol_detail_sink_make(out);
  assert_true(gcol_detail_join_range(v, first, last, sep, narep, &write));
  assert_int_equal(write.size, count.size);
  *len = write.size;
  return out;
}

static void expect_same(const char *what, const char *got, int64_t gn, const char *want, int64_t wn,
                        int64_t iter) {
  if ((got == NULL) != (want == NULL)) {
    fail_msg("%s (case %lld): null %d, want %d", what, (long long)iter, got == NULL, want == NULL);
  }
  if (got != NULL && (gn != wn || memcmp(got, want, (size_t)wn) != 0)) {
    fail_msg("%s (case %lld): %lld bytes, want %lld", what, (long long)iter, (long long)gn,
             (long long)wn);
  }
}

/* Lists (join_range) and rows of several columns (concat_row, each column one row of its
 * own view) against ref_join, with and without a replacement. */
static void test_join_matches_reference(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1241);
  char store[36][24], sep[24], narep_s[24];
  const char *items[36];
  int64_t sizes[36];
  for (int64_t iter = 0; iter < 40000; ++iter) {
    int64_t const count = gcol_test_rng_range(&rng, 0, 35);
    for (int64_t k = 0; k < count; ++k) {
      sizes[k] = random_string(&rng, store[k], 3);
      items[k] = gcol_test_rng_range(&rng, 0, 4) == 0 ? NULL : store[k];
    }
    int64_t const sep_size = random_string(&rng, sep, 2);
    int64_t const narep_size = random_string(&rng, narep_s, 2);
    bool const has_narep = (iter & 1) != 0;
    host_rows h;
    host_rows_make(&h, items, sizes, count);
    gcol_detail_narep narep;
    narep.text = gcol_string_ref_make(narep_s, narep_size);
    narep.valid = has_narep;
    int64_t first = gcol_test_rng_range(&rng, 0, count), gn = 0, wn = 0;
    int64_t const last = gcol_test_rng_range(&rng, first, count);
    char *got = kernel_join(h.view, first, last, gcol_string_ref_make(sep, sep_size), narep, &gn);
    char *want = ref_join(items + first, sizes + first, last - first, sep, sep_size,
                          has_narep ? narep_s : NULL, narep_size, false, &wn);
    expect_same("join_range", got, gn, want, wn, iter);
    free(got);
    free(want);
    /* the same items as one row of (last - first) one-row columns: row 0 of each */
    gcol_strings_view cols[36];
    for (int64_t k = first; k < last; ++k) {
      cols[k - first] = h.view;
      cols[k - first].offsets.data = h.offsets + k;
      cols[k - first].mask_offset = k;
      cols[k - first].size = 1;
    }
    gcol_detail_sink c = gcol_detail_sink_make(NULL);
    bool const ok = gcol_detail_concat_row(cols, (int32_t)(last - first), 0,
                                           gcol_string_ref_make(sep, sep_size), narep, &c);
    want = ref_join(items + first, sizes + first, last - first, sep, sep_size,
                    has_narep ? narep_s : NULL, narep_size, false, &wn);
    assert_int_equal(ok, want != NULL);
    if (ok) assert_int_equal(c.size, wn);
    free(want);
  }
}

/* Python's sep.join (nulls: None replaced or refused, as the API documents). */
static void test_join_known_answers(void **state) {
  (void)state;
  static const struct {
    const char *items[4];
    int64_t count;
    const char *sep, *narep, *want; /* want NULL: a null row */
  } cases[] = {
      {{"a", "b", "c"}, 3, ",", NULL, "a,b,c"},
      {{"a", "", "c"}, 3, "--", NULL, "a----c"},
      {{""}, 1, ",", NULL, ""},
      {{NULL}, 0, ",", NULL, ""},
      {{"a", NULL, "c"}, 3, ",", NULL, NULL},
      {{"a", NULL, "c"}, 3, ",", "?", "a,?,c"},
      {{NULL, NULL}, 2, "\xf4\x8f\xbf\xbf", "", "\xf4\x8f\xbf\xbf"},
      {{"\xc3\xa9", "\xe2\x82\xac"}, 2, "", NULL, "\xc3\xa9\xe2\x82\xac"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int64_t sizes[4];
    for (int k = 0; k < 4; ++k) {
      sizes[k] = cases[i].items[k] != NULL ? (int64_t)strlen(cases[i].items[k]) : 0;
    }
    host_rows h;
    host_rows_make(&h, cases[i].items, sizes, cases[i].count);
    gcol_detail_narep narep;
    narep.text = gcol_string_ref_make(cases[i].narep != NULL ? cases[i].narep : "",
                                      cases[i].narep != NULL ? (int64_t)strlen(cases[i].narep) : 0);
    narep.valid = cases[i].narep != NULL;
    int64_t gn = 0, rn = 0;
    int64_t const wn = cases[i].want != NULL ? (int64_t)strlen(cases[i].want) : 0;
    gcol_string_ref const sep = gcol_string_ref_make(cases[i].sep, (int64_t)strlen(cases[i].sep));
    char *got = kernel_join(h.view, 0, cases[i].count, sep, narep, &gn);
    char *ref = ref_join(cases[i].items, sizes, cases[i].count, sep.data, sep.size, cases[i].narep,
                         narep.text.size, false, &rn);
    expect_same("kernel code", got, gn, cases[i].want, wn, (int64_t)i);
    expect_same("reference", ref, rn, cases[i].want, wn, (int64_t)i);
    free(got);
    free(ref);
  }
  /* skipping nulls (gcol_strings_join): pandas' Series.str.cat() */
  const char *const items[] = {NULL, "a", NULL, "b", NULL};
  int64_t const sizes[] = {0, 1, 0, 1, 0};
  int64_t len = 0;
  char *got = ref_join(items, sizes, 5, ", ", 2, NULL, 0, true, &len);
  assert_int_equal(len, 4);
  assert_memory_equal(got, "a, b", 4);
  free(got);
}

/* ---------------------------------------------------------------- argument checks */

#define EXPECT_FAIL_TABLE(call, st, needle) \
  do {                                      \
    table = (gcol_table *)(uintptr_t)1;     \
    GCOL_TEST_STATUS((call), (st));         \
    expect_message(needle);                 \
    assert_null(table);                     \
  } while (0)


static void test_split_argument_checks(void **state) {
  (void)state;
  gcol_column *out = NULL;
  gcol_table *table = NULL;
  gcol_scalar *x = NULL, *null_s = NULL, *int_s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring(",", &x));
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_STRING), &null_s));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 3, &int_s));
  gcol_column_view const offs3 = fake_view(GCOL_INT32, 3);
  gcol_column_view const two = fake_strings(2, &offs3);
  gcol_column_view const ints = fake_view(GCOL_INT32, 2);

  EXPECT_FAIL_TABLE(gcol_strings_split(ints, x, -1, &table, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
                    "gcol_strings_split: input is int32");
  EXPECT_FAIL_TABLE(gcol_strings_rsplit(two, null_s, -1, &table, NULL, NULL),
                    GCOL_ERROR_INVALID_ARGUMENT, "delimiter is a null scalar");
  EXPECT_FAIL_TABLE(gcol_strings_split(two, int_s, -1, &table, NULL, NULL),
                    GCOL_ERROR_TYPE_MISMATCH, "delimiter is int32");
  EXPECT_FAIL_TABLE(gcol_strings_rsplit(two, NULL, -2, &table, NULL, NULL),
                    GCOL_ERROR_INVALID_ARGUMENT, "max_splits is -2");
  GCOL_TEST_STATUS(gcol_strings_split(two, x, -1, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("out is NULL");
  EXPECT_FAIL(gcol_strings_split_record(ints, NULL, -1, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_split_record: input is int32");
  EXPECT_FAIL(gcol_strings_rsplit_record(two, x, INT64_MIN, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "max_splits is");
  EXPECT_FAIL(gcol_strings_rsplit_record(two, null_s, 1, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT,
              "gcol_strings_rsplit_record: delimiter is a null scalar");
  GCOL_TEST_STATUS(gcol_strings_rsplit_record(two, x, -1, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);

  gcol_scalar_free(x);
  gcol_scalar_free(null_s);
  gcol_scalar_free(int_s);
}

static void test_combine_argument_checks(void **state) {
  (void)state;
  gcol_column *out = NULL;
  gcol_scalar *x = NULL, *null_s = NULL, *int_s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring(",", &x));
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_STRING), &null_s));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 3, &int_s));
  gcol_column_view const offs3 = fake_view(GCOL_INT32, 3);
  gcol_column_view const offs4 = fake_view(GCOL_INT32, 4);
  gcol_column_view const two = fake_strings(2, &offs3);
  gcol_column_view const three = fake_strings(3, &offs4);
  gcol_column_view const ints = fake_view(GCOL_INT32, 2);
  gcol_column_view cols[2] = {two, two};
  gcol_column_view mixed[2] = {two, ints};
  gcol_column_view sizes[2] = {two, three};
  gcol_table_view t = {2, 2, cols};
  gcol_table_view const none = {0, 0, NULL};
  gcol_table_view const bad_type = {2, 2, mixed};
  gcol_table_view const bad_size = {2, 2, sizes};

  /* concatenate */
  EXPECT_FAIL(gcol_strings_concatenate(none, x, NULL, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "columns has no column");
  EXPECT_FAIL(gcol_strings_concatenate(bad_type, x, NULL, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "columns[1] is int32");
  EXPECT_FAIL(gcol_strings_concatenate(bad_size, x, NULL, &out, NULL, NULL),
              GCOL_ERROR_SIZE_MISMATCH, "columns[1] has 3 rows");
  EXPECT_FAIL(gcol_strings_concatenate(t, NULL, NULL, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "separator is NULL");
  EXPECT_FAIL(gcol_strings_concatenate(t, null_s, NULL, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "separator is a null scalar");
  EXPECT_FAIL(gcol_strings_concatenate(t, x, int_s, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "null_replacement is int32");
  EXPECT_FAIL(gcol_strings_concatenate(t, x, null_s, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT,
              "gcol_strings_concatenate: null_replacement is a null");
  GCOL_TEST_STATUS(gcol_strings_concatenate(t, x, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  EXPECT_FAIL(gcol_strings_concatenate_column(t, three, NULL, &out, NULL, NULL),
              GCOL_ERROR_SIZE_MISMATCH, "separators has 3 rows, the input 2");
  EXPECT_FAIL(gcol_strings_concatenate_column(t, ints, NULL, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "separators is int32");
  EXPECT_FAIL(gcol_strings_concatenate_column(bad_type, two, NULL, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "gcol_strings_concatenate_column: columns[1]");

  /* join */
  EXPECT_FAIL(gcol_strings_join(ints, x, NULL, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_join: input is int32");
  EXPECT_FAIL(gcol_strings_join(two, int_s, NULL, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "separator is int32");
  EXPECT_FAIL(gcol_strings_join(two, x, null_s, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT,
              "null_replacement is a null scalar");
  GCOL_TEST_STATUS(gcol_strings_join(two, x, NULL, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);

  /* join lists */
  gcol_column_view list_children[2] = {offs3, two};
  gcol_column_view lists = gcol_column_view_make(gcol_data_type_make(GCOL_LIST), 2, NULL, NULL, 0);
  lists.children = list_children;
  lists.num_children = 2;
  gcol_column_view int_children[2] = {offs3, ints};
  gcol_column_view int_lists = lists;
  int_lists.children = int_children;
  EXPECT_FAIL(gcol_strings_join_lists(two, x, NULL, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "lists is string, not LIST");
  EXPECT_FAIL(gcol_strings_join_lists(int_lists, x, NULL, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "lists values is int32");
  EXPECT_FAIL(gcol_strings_join_lists(lists, null_s, NULL, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "gcol_strings_join_lists: separator is a null scalar");
  EXPECT_FAIL(gcol_strings_join_lists(lists, x, int_s, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "null_replacement is int32");
  EXPECT_FAIL(gcol_strings_join_lists_column(lists, three, NULL, &out, NULL, NULL),
              GCOL_ERROR_SIZE_MISMATCH, "separators has 3 rows");
  EXPECT_FAIL(gcol_strings_join_lists_column(lists, ints, NULL, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "separators is int32");
  GCOL_TEST_STATUS(gcol_strings_join_lists_column(lists, two, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);

  gcol_scalar_free(x);
  gcol_scalar_free(null_s);
  gcol_scalar_free(int_s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_split_matches_reference),
      cmocka_unit_test(test_split_known_answers),
      cmocka_unit_test(test_join_matches_reference),
      cmocka_unit_test(test_join_known_answers),
      cmocka_unit_test(test_split_argument_checks),
      cmocka_unit_test(test_combine_argument_checks),
  };
  return GCOL_TEST_RUN("strings_split_host", tests);
}
