/*
 * Host tests (no GPU) of the strings edits (include/gcol/strings/edit.h): the per-string
 * functions the kernels run (edit_ops.h) against the references of strings_reference.c on
 * random strings of 1- to 4-byte characters, whitespace and invalid bytes; both against
 * answers Python gave; the fixed whitespace list against the generated Unicode table for
 * every code point; saturated counts; and every argument check of the public functions,
 * which must fail before any device memory is touched (the device pointers here are fake: a
 * check that let them through would crash the test).
 */
#include "test_util.h"

#include "strings_fake_views.h"

#include "gcol/strings/edit.h"
#include "host_tables.h"
#include "strings/edit_ops.h"
#include "strings_reference.h"


/* Pieces of random strings: ASCII (signs and digits for zfill), whitespace of 1 to 3 bytes,
 * 2-, 3- and 4-byte characters (U+10FFFF), invalid bytes (a stray continuation, truncated
 * sequences, one of them a truncated U+3000, an overlong form, a lone lead byte). */
static const char *const pieces[] = {"a",
                                     "b",
                                     "ab",
                                     "-",
                                     "+",
                                     "0",
                                     " ",
                                     "\t",
                                     "\n",
                                     "\x1c",
                                     "\xc2\x85",
                                     "\xc2\xa0",
                                     "\xe3\x80\x80",
                                     "\xe2\x80\xa8",
                                     "\xe1\x9a\x80",
                                     "\xc3\xa9",
                                     "\xe2\x82\xac",
                                     "\xf4\x8f\xbf\xbf",
                                     "\xf0\x90\x8d\x88",
                                     "\x80",
                                     "\xe2\x82",
                                     "\xe3\x80",
                                     "\xc0\xaf",
                                     "\xf4"};
#define NUM_PIECES ((int64_t)(sizeof pieces / sizeof pieces[0]))

static int64_t random_string(gcol_test_rng *rng, char *out, int64_t max_pieces) {
  return ref_random_string(rng, pieces, NUM_PIECES, max_pieces, out);
}

typedef enum op_kind {
  OP_REPLACE = 0,
  OP_SLICE,
  OP_STRIP,
  OP_PAD,
  OP_ZFILL,
  OP_REPEAT,
  OP_REVERSE,
  NUM_OPS
} op_kind;

/* One edit: the operation and its arguments (a, b, c by operation, as in the known
 * answers below: replace max_count; slice start, stop, step; strip side; pad width, side,
 * fill; zfill width; repeat count). Replace takes targets[0..count) and repls. */
typedef struct edit_call {
  op_kind op;
  const char *const *targets;
  const int64_t *target_sizes;
  int64_t count;
  const char *const *repls;
  const int64_t *repl_sizes;
  int64_t num_repls;
  const char *set; /* strip: NULL for whitespace */
  int64_t set_size;
  int64_t a, b, c;
} edit_call;

/* A host strings view over rows[0..count) (the layout the kernels read). */
static gcol_strings_view host_view(const char *const *rows, const int64_t *sizes, int64_t count,
                                   char *chars, int64_t *offsets) {
  gcol_strings_view v;
  offsets[0] = 0;
  for (int64_t j = 0; j < count; ++j) {
    memcpy(chars + offsets[j], rows[j], (size_t)sizes[j]);
    offsets[j + 1] = offsets[j] + sizes[j];
  }
  v.offsets.data = offsets;
  v.offsets.width = 8;
  v.chars = chars;
  v.null_mask = NULL;
  v.mask_offset = 0;
  v.size = count;
  return v;
}

/* The kernels' per-string function into k. */
static void run_ops(const edit_call *e, const char *s, int64_t n, gcol_detail_sink *k) {
  char tchars[256], rchars[256], fill[4];
  int64_t toffs[9], roffs[9];
  switch (e->op) {
    case OP_REPLACE: {
      gcol_strings_view const t = host_view(e->targets, e->target_sizes, e->count, tchars, toffs);
      gcol_strings_view const r = host_view(e->repls, e->repl_sizes, e->num_repls, rchars, roffs);
      gcol_detail_replace_row(s, n, t, r, e->a, k);
      break;
    }
    case OP_SLICE:
      gcol_detail_slice_row(s, n, e->a, e->b, e->c == GCOL_SLICE_NONE ? 1 : e->c, k);
      break;
    case OP_STRIP:
      gcol_detail_strip_row(s, n, (int)e->a, e->set, e->set_size, k);
      break;
    case OP_PAD: {
      int64_t const fl = gcol_utf8_encode((uint32_t)e->c, fill);
      gcol_detail_pad_row(s, n, e->a, (int)e->b, fill, fl, k);
      break;
    }
    case OP_ZFILL:
      gcol_detail_zfill_row(s, n, e->a, k);
      break;
    case OP_REPEAT:
      gcol_detail_repeat_row(s, n, e->a, k);
      break;
    default:
      gcol_detail_reverse_row(s, n, k);
      break;
  }
}

/* The kernels' result (counted, then written: the two passes must agree). */
static char *run_kernel_code(const edit_call *e, const char *s, int64_t n, int64_t *len) {
  gcol_detail_sink count = gcol_detail_sink_make(NULL);
  run_ops(e, s, n, &count);
  char *out = (char *)malloc((size_t)count.size + 1);
  gcol_detail_sink write = gcol_detail_sink_make(out);
  run_ops(e, s, n, &write);
  assert_int_equal(write.size, count.size);
  *len = write.size;
  return out;
}

static char *run_reference(const edit_call *e, const char *s, int64_t n, int64_t *len) {
  switch (e->op) {
    case OP_REPLACE:
      return ref_replace(s, n, e->targets, e->target_sizes, e->count, e->repls, e->repl_sizes,
                         e->num_repls, e->a, len);
    case OP_SLICE:
      return ref_slice(s, n, e->a, e->b, e->c, len);
    case OP_STRIP:
      return ref_strip(s, n, (gcol_strings_side)e->a, e->set, e->set_size, len);
    case OP_PAD:
      return ref_pad(s, n, e->a, (gcol_strings_side)e->b, (uint32_t)e->c, len);
    case OP_ZFILL:
      return ref_zfill(s, n, e->a, len);
    case OP_REPEAT:
      return ref_repeat(s, n, e->a, len);
    default:
      return ref_reverse(s, n, len);
  }
}

static const char *const op_names[] = {"replace", "slice",  "strip",  "pad",
                                       "zfill",   "repeat", "reverse"};

static void expect_bytes(const char *what, const char *got, int64_t gn, const char *want,
                         int64_t wn, const edit_call *e, int64_t iter) {
  if (gn == wn && memcmp(got, want, (size_t)wn) == 0) return;
  fail_msg("%s %s (a %lld, b %lld, c %lld; case %lld): %lld bytes, want %lld", what,
           op_names[e->op], (long long)e->a, (long long)e->b, (long long)e->c, (long long)iter,
           (long long)gn, (long long)wn);
}

/* ---------------------------------------------------------------- random strings */

/* Random arguments for op (targets may be cut from s); strings live in store. */
static void random_call(gcol_test_rng *rng, op_kind op, const char *s, int64_t n, char store[][64],
                        const char **ptrs, int64_t *sizes, edit_call *e) {
  static const uint32_t fills[] = {'*', 0xE9, 0x20AC, 0x10FFFF, 0x3000, 0};
  memset(e, 0, sizeof *e);
  e->op = op;
  for (int k = 0; k < 8; ++k) {
    ptrs[k] = store[k];
    if (k < 3 && n > 0 && gcol_test_rng_range(rng, 0, 2) == 0) {
      int64_t const at = gcol_test_rng_range(rng, 0, n - 1);
      int64_t const take = gcol_test_rng_range(rng, 0, n - at < 6 ? n - at : 6);
      memcpy(store[k], s + at, (size_t)take);
      sizes[k] = take;
    } else {
      sizes[k] = random_string(rng, store[k], k < 3 ? 2 : 3);
    }
  }
  e->targets = ptrs;
  e->target_sizes = sizes;
  e->count = gcol_test_rng_range(rng, 1, 3);
  e->repls = ptrs + 4;
  e->repl_sizes = sizes + 4;
  e->num_repls = gcol_test_rng_range(rng, 0, 1) ? 1 : e->count;
  static const int64_t steps[] = {1, 2, 3, -1, -2, -3, GCOL_SLICE_NONE, INT64_MAX, -INT64_MAX};
  switch (op) {
    case OP_REPLACE:
      e->a = gcol_test_rng_range(rng, -1, 3);
      break;
    case OP_SLICE:
      e->a =
          gcol_test_rng_range(rng, 0, 5) == 0 ? GCOL_SLICE_NONE : gcol_test_rng_range(rng, -14, 14);
      e->b =
          gcol_test_rng_range(rng, 0, 5) == 0 ? GCOL_SLICE_NONE : gcol_test_rng_range(rng, -14, 14);
      e->c = steps[gcol_test_rng_range(rng, 0, 8)];
      break;
    case OP_STRIP:
      e->a = gcol_test_rng_range(rng, 0, 2);
      if (gcol_test_rng_range(rng, 0, 1)) {
        e->set = store[7];
        e->set_size = sizes[7];
      }
      break;
    case OP_PAD:
      e->a = gcol_test_rng_range(rng, -2, 20);
      e->b = gcol_test_rng_range(rng, 0, 2);
      e->c = fills[gcol_test_rng_range(rng, 0, 5)];
      break;
    case OP_ZFILL:
      e->a = gcol_test_rng_range(rng, -1, 20);
      break;
    case OP_REPEAT:
      e->a = gcol_test_rng_range(rng, -2, 4);
      break;
    default:
      break;
  }
}

static void test_edit_ops_match_reference(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1220);
  char s[256], store[8][64];
  const char *ptrs[8];
  int64_t sizes[8];
  for (int64_t iter = 0; iter < 140000; ++iter) {
    int64_t const n = random_string(&rng, s, iter % 16 == 0 ? 40 : 8);
    op_kind const op = (op_kind)(iter % NUM_OPS);
    edit_call e;
    random_call(&rng, op, s, n, store, ptrs, sizes, &e);
    int64_t gn = 0, wn = 0;
    char *got = run_kernel_code(&e, s, n, &gn);
    char *want = run_reference(&e, s, n, &wn);
    expect_bytes("random", got, gn, want, wn, &e, iter);
    free(got);
    free(want);
  }
}

/* ---------------------------------------------------------------- known answers */

typedef struct known {
  op_kind op;
  const char *s, *want;
  const char *str1; /* replace: target; strip: the set (NULL: whitespace) */
  const char *str2; /* replace: replacement */
  int64_t a, b, c;
} known;

/* Generated by Python 3 (str.replace, slicing, strip/lstrip/rstrip, rjust/ljust/center,
 * zfill, s * n, s[::-1]). */
// clang-format off
static const known answers[] = {
    {OP_REPLACE, "hello world", "hell0 w0rld", "o", "0", -1, 0, 0},
    {OP_REPLACE, "aaaa", "bb", "aa", "b", -1, 0, 0},
    {OP_REPLACE, "aaa", "ba", "aa", "b", -1, 0, 0},
    {OP_REPLACE, "abc", "-a-b-c-", "", "-", -1, 0, 0},
    {OP_REPLACE, "abc", "-a-bc", "", "-", 2, 0, 0},
    {OP_REPLACE, "", "-", "", "-", -1, 0, 0},
    {OP_REPLACE, "", "", "a", "b", -1, 0, 0},
    {OP_REPLACE, "abcabc", "abc", "abc", "", 1, 0, 0},
    {OP_REPLACE, "x\xe2\x82\xacy\xe2\x82\xac", "xeuryeur", "\xe2\x82\xac", "eur", -1, 0, 0},
    {OP_REPLACE, "\xc3\xa9\xf4\x8f\xbf\xbf\xc3\xa9", "\xc3\xa9\xf4\x8f\xbf\xbf\xc3\xa9", "\xf4\x8f\xbf\xbf", "", 0, 0, 0},
    {OP_REPLACE, "ab", "a\xf4\x8f\xbf\xbf", "b", "\xf4\x8f\xbf\xbf", -1, 0, 0},
    {OP_SLICE, "h\xc3\xa9llo\xe2\x82\xac", "\xc3\xa9ll", NULL, NULL, 1, 4, GCOL_SLICE_NONE},
    {OP_SLICE, "h\xc3\xa9llo\xe2\x82\xac", "\xe2\x82\xacoll\xc3\xa9h", NULL, NULL, GCOL_SLICE_NONE, GCOL_SLICE_NONE, -1},
    {OP_SLICE, "h\xc3\xa9llo\xe2\x82\xac", "o\xe2\x82\xac", NULL, NULL, -2, GCOL_SLICE_NONE, GCOL_SLICE_NONE},
    {OP_SLICE, "h\xc3\xa9llo\xe2\x82\xac", "h\xc3\xa9ll", NULL, NULL, GCOL_SLICE_NONE, -2, GCOL_SLICE_NONE},
    {OP_SLICE, "h\xc3\xa9llo\xe2\x82\xac", "\xe2\x82\xacl\xc3\xa9", NULL, NULL, 5, 0, -2},
    {OP_SLICE, "h\xc3\xa9llo\xe2\x82\xac", "\xe2\x82\xacoll\xc3\xa9h", NULL, NULL, 10, -10, -1},
    {OP_SLICE, "h\xc3\xa9llo\xe2\x82\xac", "hl", NULL, NULL, -100, 100, 3},
    {OP_SLICE, "abc", "", NULL, NULL, 2, 2, GCOL_SLICE_NONE},
    {OP_SLICE, "", "", NULL, NULL, GCOL_SLICE_NONE, GCOL_SLICE_NONE, -1},
    {OP_SLICE, "\xf4\x8f\xbf\xbf""ab", "\xf4\x8f\xbf\xbf""b", NULL, NULL, GCOL_SLICE_NONE, GCOL_SLICE_NONE, 2},
    {OP_SLICE, "abcdef", "fdb", NULL, NULL, -1, -7, -2},
    {OP_SLICE, "abcdef", "edc", NULL, NULL, 4, 1, -1},
    {OP_STRIP, "  a b \x09\x0a", "a b", NULL, NULL, GCOL_SIDE_BOTH, 0, 0},
    {OP_STRIP, "\xe3\x80\x80\xc2\x85x\xe2\x80\xa8", "x", NULL, NULL, GCOL_SIDE_BOTH, 0, 0},
    {OP_STRIP, "\x1c\x1f""ab\xc2\xa0", "ab\xc2\xa0", NULL, NULL, GCOL_SIDE_LEFT, 0, 0},
    {OP_STRIP, "\x1c\x1f""ab\xc2\xa0", "\x1c\x1f""ab", NULL, NULL, GCOL_SIDE_RIGHT, 0, 0},
    {OP_STRIP, "xxaxx", "a", "x", NULL, GCOL_SIDE_BOTH, 0, 0},
    {OP_STRIP, "\xc3\xa9""a\xc3\xa9", "a\xc3\xa9", "\xc3\xa9", NULL, GCOL_SIDE_LEFT, 0, 0},
    {OP_STRIP, "abcba", "c", "ab", NULL, GCOL_SIDE_BOTH, 0, 0},
    {OP_STRIP, "  a  ", "  a  ", "", NULL, GCOL_SIDE_BOTH, 0, 0},
    {OP_STRIP, "\xe2\x80\x8bx\xe2\x80\x8b", "\xe2\x80\x8bx\xe2\x80\x8b", NULL, NULL, GCOL_SIDE_BOTH, 0, 0},
    {OP_PAD, "ab", "***ab", NULL, NULL, 5, GCOL_SIDE_LEFT, 0x2A},
    {OP_PAD, "ab", "ab***", NULL, NULL, 5, GCOL_SIDE_RIGHT, 0x2A},
    {OP_PAD, "ab", "**ab*", NULL, NULL, 5, GCOL_SIDE_BOTH, 0x2A},
    {OP_PAD, "abc", "\xc3\xa9""abc\xc3\xa9\xc3\xa9", NULL, NULL, 6, GCOL_SIDE_BOTH, 0xE9},
    {OP_PAD, "abc", "--abc--", NULL, NULL, 7, GCOL_SIDE_BOTH, 0x2D},
    {OP_PAD, "ab", "---ab--", NULL, NULL, 7, GCOL_SIDE_BOTH, 0x2D},
    {OP_PAD, "\xc3\xa9", "\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbf\xc3\xa9", NULL, NULL, 3, GCOL_SIDE_LEFT, 0x10FFFF},
    {OP_PAD, "abcdef", "abcdef", NULL, NULL, 3, GCOL_SIDE_BOTH, 0x78},
    {OP_PAD, "", "\xe3\x80\x80\xe3\x80\x80", NULL, NULL, 2, GCOL_SIDE_BOTH, 0x3000},
    {OP_PAD, "a", "a", NULL, NULL, -3, GCOL_SIDE_LEFT, 0x78},
    {OP_ZFILL, "42", "00042", NULL, NULL, 5, 0, 0},
    {OP_ZFILL, "-42", "-0042", NULL, NULL, 5, 0, 0},
    {OP_ZFILL, "+4", "+004", NULL, NULL, 4, 0, 0},
    {OP_ZFILL, "-", "-00", NULL, NULL, 3, 0, 0},
    {OP_ZFILL, "", "000", NULL, NULL, 3, 0, 0},
    {OP_ZFILL, "\xc3\xa9-1", "00\xc3\xa9-1", NULL, NULL, 5, 0, 0},
    {OP_ZFILL, "abc", "abc", NULL, NULL, 2, 0, 0},
    {OP_ZFILL, "--1", "-00-1", NULL, NULL, 5, 0, 0},
    {OP_REPEAT, "ab", "ababab", NULL, NULL, 3, 0, 0},
    {OP_REPEAT, "\xc3\xa9", "\xc3\xa9\xc3\xa9", NULL, NULL, 2, 0, 0},
    {OP_REPEAT, "x", "", NULL, NULL, 0, 0, 0},
    {OP_REPEAT, "x", "", NULL, NULL, -1, 0, 0},
    {OP_REPEAT, "", "", NULL, NULL, 5, 0, 0},
    {OP_REVERSE, "abc", "cba", NULL, NULL, 0, 0, 0},
    {OP_REVERSE, "a\xc3\xa9\xe2\x82\xac\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf\xe2\x82\xac\xc3\xa9""a", NULL, NULL, 0, 0, 0},
    {OP_REVERSE, "", "", NULL, NULL, 0, 0, 0},
};
// clang-format on

static void test_edit_known_answers(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof answers / sizeof answers[0]; ++i) {
    known const *q = &answers[i];
    const char *t[1] = {q->str1 != NULL ? q->str1 : ""};
    const char *r[1] = {q->str2 != NULL ? q->str2 : ""};
    int64_t const tn = (int64_t)strlen(t[0]), rn = (int64_t)strlen(r[0]);
    edit_call e;
    memset(&e, 0, sizeof e);
    e.op = q->op;
    e.targets = t;
    e.target_sizes = &tn;
    e.count = 1;
    e.repls = r;
    e.repl_sizes = &rn;
    e.num_repls = 1;
    e.set = q->str1;
    e.set_size = q->str1 != NULL ? (int64_t)strlen(q->str1) : 0;
    e.a = q->a;
    e.b = q->b;
    e.c = q->c;
    int64_t const n = (int64_t)strlen(q->s), wn = (int64_t)strlen(q->want);
    int64_t gn = 0, rfn = 0;
    char *got = run_kernel_code(&e, q->s, n, &gn);
    char *ref = run_reference(&e, q->s, n, &rfn);
    expect_bytes("kernel code", got, gn, q->want, wn, &e, (int64_t)i);
    expect_bytes("reference", ref, rfn, q->want, wn, &e, (int64_t)i);
    free(got);
    free(ref);
  }
}

/* Several targets: the first in the list that matches at a position wins. */
static void test_replace_multiple_known_answers(void **state) {
  (void)state;
  static const struct {
    const char *s;
    const char *targets[3];
    const char *repls[3];
    int64_t count, num_repls;
    const char *want;
  } cases[] = {
      {"aab", {"ab", "a"}, {"X", "Y"}, 2, 2, "YX"},
      {"ab", {"a", "ab"}, {"X", "Y"}, 2, 2, "Xb"},
      {"abcabc", {"bc", "a", "c"}, {"1", "2", "3"}, 3, 3, "2121"},
      {"a\xc3\xa9z", {"\xc3\xa9", "z"}, {"-"}, 2, 1, "a--"},
      {"ab", {"", "a"}, {"<", ">"}, 2, 2, "<a<b<"}, /* "" wins everywhere */
      {"ab", {"b", ""}, {"B", "."}, 2, 2, ".aB."},
      {"abc", {"x"}, {"y"}, 0, 1, "abc"}, /* no targets: a copy */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int64_t tn[3], rn[3];
    for (int k = 0; k < 3; ++k) {
      tn[k] = cases[i].targets[k] != NULL ? (int64_t)strlen(cases[i].targets[k]) : 0;
      rn[k] = cases[i].repls[k] != NULL ? (int64_t)strlen(cases[i].repls[k]) : 0;
    }
    edit_call e;
    memset(&e, 0, sizeof e);
    e.op = OP_REPLACE;
    e.targets = cases[i].targets;
    e.target_sizes = tn;
    e.count = cases[i].count;
    e.repls = cases[i].repls;
    e.repl_sizes = rn;
    e.num_repls = cases[i].num_repls;
    e.a = -1;
    int64_t const n = (int64_t)strlen(cases[i].s), wn = (int64_t)strlen(cases[i].want);
    int64_t gn = 0, rfn = 0;
    char *got = run_kernel_code(&e, cases[i].s, n, &gn);
    char *ref = run_reference(&e, cases[i].s, n, &rfn);
    expect_bytes("kernel code", got, gn, cases[i].want, wn, &e, (int64_t)i);
    expect_bytes("reference", ref, rfn, cases[i].want, wn, &e, (int64_t)i);
    free(got);
    free(ref);
  }
}

/* The fixed whitespace list of edit_ops.h is the SPACE class of the generated table. */
static void test_whitespace_matches_table(void **state) {
  (void)state;
  gcol_detail_unicode_tables const t = gcol_test_unicode_tables();
  for (uint32_t cp = 0; cp <= GCOL_UTF8_MAX_CODE_POINT; ++cp) {
    bool const table = (gcol_detail_unicode_lookup(t, cp).flags & GCOL_DETAIL_CHAR_SPACE) != 0;
    if (gcol_detail_is_space(cp) != table) {
      fail_msg("U+%04X: is_space %d, the table says %d", (unsigned)cp, gcol_detail_is_space(cp),
               table);
    }
  }
}

/* Counting saturates instead of wrapping: the count pass can refuse such rows. */
static void test_counts_saturate(void **state) {
  (void)state;
  gcol_detail_sink k = gcol_detail_sink_make(NULL);
  gcol_detail_repeat_row("abc", 3, INT64_MAX / 2, &k);
  assert_int_equal(k.size, INT64_MAX);
  k = gcol_detail_sink_make(NULL);
  gcol_detail_pad_row("a", 1, INT64_MAX, GCOL_SIDE_BOTH, "\xf4\x8f\xbf\xbf", 4, &k);
  assert_int_equal(k.size, INT64_MAX);
  k = gcol_detail_sink_make(NULL);
  gcol_detail_zfill_row("-1", 2, INT64_MAX, &k);
  assert_int_equal(k.size, INT64_MAX);
  k = gcol_detail_sink_make(NULL);
  gcol_detail_repeat_row("", 0, INT64_MAX, &k); /* empty rows stay empty */
  assert_int_equal(k.size, 0);
  /* the slice of a huge step takes one character either way */
  k = gcol_detail_sink_make(NULL);
  gcol_detail_slice_row("abc", 3, GCOL_SLICE_NONE, GCOL_SLICE_NONE, INT64_MAX, &k);
  assert_int_equal(k.size, 1);
  k = gcol_detail_sink_make(NULL);
  gcol_detail_slice_row("abc", 3, INT64_MAX - 1, -INT64_MAX, -INT64_MAX, &k);
  assert_int_equal(k.size, 1);
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
  gcol_column_view const ints3 = fake_view(GCOL_INT32, 3);
  gcol_column_view const floats = fake_view(GCOL_FLOAT64, 2);

  /* replace */
  EXPECT_FAIL(gcol_strings_replace(ints, x, x, -1, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_replace: input is int32");
  EXPECT_FAIL(gcol_strings_replace(two, NULL, x, -1, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT,
              "target is NULL");
  EXPECT_FAIL(gcol_strings_replace(two, x, null_s, -1, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "replacement is a null scalar");
  EXPECT_FAIL(gcol_strings_replace(two, int_s, x, -1, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "target is int32");
  EXPECT_FAIL(gcol_strings_replace(two, x, x, -2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT,
              "max_count is -2");
  GCOL_TEST_STATUS(gcol_strings_replace(two, x, x, -1, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("out is NULL");

  /* replace_multiple: sizes, types, nulls (a known null count: no device work) */
  EXPECT_FAIL(gcol_strings_replace_multiple(two, two, fake_strings(0, NULL), &out, NULL, NULL),
              GCOL_ERROR_SIZE_MISMATCH, "replacements has 0 rows, targets 2");
  EXPECT_FAIL(gcol_strings_replace_multiple(two, ints, two, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "targets is int32");
  EXPECT_FAIL(gcol_strings_replace_multiple(ints, two, two, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "input is int32");
  uint32_t mask_word = 1u;
  gcol_column_view with_null = two;
  with_null.null_mask = &mask_word;
  with_null.null_count = 1;
  EXPECT_FAIL(gcol_strings_replace_multiple(two, with_null, two, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "targets has 1 nulls");
  EXPECT_FAIL(gcol_strings_replace_multiple(two, two, with_null, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "replacements has 1 nulls");

  /* slice */
  EXPECT_FAIL(gcol_strings_slice(two, 0, 1, 0, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT,
              "step is 0");
  EXPECT_FAIL(gcol_strings_slice(ints, 0, 1, 1, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "input is int32");
  EXPECT_FAIL(gcol_strings_slice_column(two, ints, ints, 0, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "step is 0");
  EXPECT_FAIL(gcol_strings_slice_column(two, floats, ints, 1, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "starts is float64, not an integer type");
  EXPECT_FAIL(gcol_strings_slice_column(two, ints, ints3, 1, &out, NULL, NULL),
              GCOL_ERROR_SIZE_MISMATCH, "stops has 3 rows, input 2");
  EXPECT_FAIL(gcol_strings_slice_column(two, two, ints, 1, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "starts is string");

  /* strip */
  EXPECT_FAIL(gcol_strings_strip(two, (gcol_strings_side)3, NULL, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "side 3");
  EXPECT_FAIL(gcol_strings_strip(two, (gcol_strings_side)-1, NULL, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "side -1");
  EXPECT_FAIL(gcol_strings_strip(two, GCOL_SIDE_BOTH, null_s, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "characters is a null scalar");
  EXPECT_FAIL(gcol_strings_strip(two, GCOL_SIDE_BOTH, int_s, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "characters is int32");
  EXPECT_FAIL(gcol_strings_strip(ints, GCOL_SIDE_LEFT, NULL, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "gcol_strings_strip");

  /* pad, zfill */
  EXPECT_FAIL(gcol_strings_pad(two, 5, GCOL_SIDE_LEFT, 0xD800, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "U+D800");
  EXPECT_FAIL(gcol_strings_pad(two, 5, GCOL_SIDE_LEFT, 0x110000, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "U+110000");
  EXPECT_FAIL(gcol_strings_pad(two, 5, (gcol_strings_side)7, ' ', &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "side 7");
  EXPECT_FAIL(gcol_strings_pad(ints, 5, GCOL_SIDE_LEFT, ' ', &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "gcol_strings_pad");
  EXPECT_FAIL(gcol_strings_zfill(ints, 5, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_zfill");
  GCOL_TEST_STATUS(gcol_strings_zfill(two, 5, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);

  /* repeat, reverse */
  EXPECT_FAIL(gcol_strings_repeat(ints, 2, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_repeat");
  EXPECT_FAIL(gcol_strings_repeat_column(two, floats, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "counts is float64");
  EXPECT_FAIL(gcol_strings_repeat_column(two, ints3, &out, NULL, NULL), GCOL_ERROR_SIZE_MISMATCH,
              "counts has 3 rows");
  EXPECT_FAIL(gcol_strings_reverse(ints, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_reverse");
  GCOL_TEST_STATUS(gcol_strings_reverse(two, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);

  gcol_scalar_free(x);
  gcol_scalar_free(null_s);
  gcol_scalar_free(int_s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edit_ops_match_reference),
      cmocka_unit_test(test_edit_known_answers),
      cmocka_unit_test(test_replace_multiple_known_answers),
      cmocka_unit_test(test_whitespace_matches_table),
      cmocka_unit_test(test_counts_saturate),
      cmocka_unit_test(test_argument_checks),
  };
  return GCOL_TEST_RUN("strings_edit_host", tests);
}
