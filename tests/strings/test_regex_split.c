/*
 * GPU tests of regex findall and split (include/gcol/strings/regex.h): every form against
 * the host enumeration of kernels/strings/regex_ops.h (gcol_detail_regex_pieces_next, checked
 * against Python's re by test_regex_host.c) over the strings test data
 * (strings_test_data.c) on TESTING.md's strings axes: sizes, slices whose first offset is
 * not 0 (a slice of a slice, a zero-length slice at the end), every validity pattern, "" vs
 * null vs "\0", 1- to 4-byte characters incl. U+10FFFF and invalid bytes, rows longer than
 * 64 KiB, INT64 offsets forced (in and out) by gcol_set_large_offsets_threshold(); known
 * outputs; bad arguments on device data (nothing leaked); allocation failure at every point.
 */
#include "test_util.h"

#include "gcol/strings/regex.h"
#include "strings/regex_match.h"
#include "strings/regex_ops.h"
#include "strings_test_data.h"

/* ---------------------------------------------------------------- host data */

static const char *const pieces[] = {"a",
                                     "b",
                                     "c",
                                     "A",
                                     ",",
                                     ", ",
                                     " ",
                                     "\n",
                                     "1",
                                     "22",
                                     "\0",
                                     "baaac",
                                     "\xc3\xa9",
                                     "\xe2\x82\xac",
                                     "\xf4\x8f\xbf\xbf",
                                     "\xf0\x90\x8d\x88",
                                     "\x80",
                                     "\xe2\x82"};
#define NUM_PIECES ((int64_t)(sizeof pieces / sizeof pieces[0]))

static host_strings make_strings(gcol_test_rng *rng, int64_t n, bool huge, bool one_byte,
                                 gcol_test_validity validity) {
  strings_recipe const recipe = {pieces, NUM_PIECES, 0, 30, huge ? 5 : 0, one_byte, true};
  return strings_random(rng, n, &recipe, validity);
}

/* What a test case checks: rows [begin, begin + view.size) of h; outputs made under a
 * lowered threshold when `wide` (INT64 offsets expected). */
typedef struct check_ctx {
  const host_strings *h;
  int64_t begin;
  bool masked, wide;
  const char *what;
} check_ctx;

static int64_t set_threshold(bool wide) {
  return gcol_set_large_offsets_threshold(wide ? 1 : INT32_MAX);
}

/* ---------------------------------------------------------------- calls */

typedef struct regex_call {
  int kind; /* gcol_detail_regex_pieces_kind */
  const char *pattern;
  uint32_t flags;
  int64_t max_splits; /* split, rsplit */
  const char *what;
} regex_call;

static const regex_call calls[] = {
    {GCOL_DETAIL_REGEX_FINDALL, "a*", 0, -1, "findall a*"},
    {GCOL_DETAIL_REGEX_FINDALL, "", 0, -1, "findall \"\""},
    {GCOL_DETAIL_REGEX_FINDALL, "\\d+|\xe2\x82\xac", 0, -1, "findall \\d+|euro"},
    {GCOL_DETAIL_REGEX_FINDALL, "(a|b)c?", GCOL_REGEX_IGNORECASE, -1, "findall (a|b)c? /i"},
    {GCOL_DETAIL_REGEX_FINDALL, "(x)?[\xc3\xa9-\xf4\x8f\xbf\xbf]", 0, -1, "findall unset group"},
    {GCOL_DETAIL_REGEX_FINDALL, "^.|.$", GCOL_REGEX_MULTILINE, -1, "findall ^.|.$ /m"},
    {GCOL_DETAIL_REGEX_FINDALL, "\\b", 0, -1, "findall \\b"},
    {GCOL_DETAIL_REGEX_FINDALL, "a??", 0, -1, "findall a?? (2n + 1 matches)"},
    {GCOL_DETAIL_REGEX_FINDALL, "a[b,]", 0, -1, "findall a[b,] (one length: the DFA's spans)"},
    {GCOL_DETAIL_REGEX_FINDALL, "a+c", 0, -1, "findall a+c (the DFA, then the VM)"},
    {GCOL_DETAIL_REGEX_SPLIT, ",", 0, -1, "split_re ,"},
    {GCOL_DETAIL_REGEX_SPLIT, "[,\n]a", GCOL_REGEX_IGNORECASE, -1, "split_re [,\\n]a /i"},
    {GCOL_DETAIL_REGEX_SPLIT, "a*", 0, 2, "split_re a* 2"},
    {GCOL_DETAIL_REGEX_SPLIT, "\\s+", 0, -1, "split_re \\s+"},
    {GCOL_DETAIL_REGEX_SPLIT, "", 0, 0, "split_re \"\" 0"},
    {GCOL_DETAIL_REGEX_SPLIT, "(,)|b", 0, 3, "split_re (,)|b 3"},
    {GCOL_DETAIL_REGEX_RSPLIT, ",", 0, 1, "rsplit_re , 1"},
    {GCOL_DETAIL_REGEX_RSPLIT, "a*|\xe2\x82\xac", 0, 2, "rsplit_re a*|euro 2"},
    {GCOL_DETAIL_REGEX_RSPLIT, "\\b", 0, -1, "rsplit_re \\b"},
    {GCOL_DETAIL_REGEX_RSPLIT, "[^a]", GCOL_REGEX_IGNORECASE, 3, "rsplit_re [^a] 3 /i"},
};
#define NUM_CALLS ((int64_t)(sizeof calls / sizeof calls[0]))

static gcol_status run_call(const regex_call *c, const gcol_regex *re, bool table,
                            gcol_column_view v, gcol_column **rec, gcol_table **tab) {
  bool const reverse = c->kind == GCOL_DETAIL_REGEX_RSPLIT;
  if (c->kind == GCOL_DETAIL_REGEX_FINDALL) return gcol_strings_findall(v, re, rec, NULL, NULL);
  if (table) {
    return reverse ? gcol_strings_rsplit_re(v, re, c->max_splits, tab, NULL, NULL)
                   : gcol_strings_split_re(v, re, c->max_splits, tab, NULL, NULL);
  }
  return reverse ? gcol_strings_rsplit_record_re(v, re, c->max_splits, rec, NULL, NULL)
                 : gcol_strings_split_record_re(v, re, c->max_splits, rec, NULL, NULL);
}

/* The host pieces of s (n bytes): their count, and ranges (2 per piece, the caller frees). */
static int64_t host_pieces(const gcol_regex *re, const regex_call *c, const char *s, int64_t n,
                           int64_t **ranges) {
  gcol_detail_regex_pieces_spec sp;
  sp.kind = c->kind;
  sp.group = c->kind == GCOL_DETAIL_REGEX_FINDALL ? gcol_regex_num_groups(re) : 0;
  sp.max_splits = c->max_splits;
  int32_t *scratch = (int32_t *)malloc(
      (size_t)gcol_detail_regex_scratch_ints(&re->host.prog, gcol_detail_regex_pieces_slots(sp)) *
      sizeof(int32_t));
  assert_non_null(scratch);
  /* 2n + 2 pieces at most: a lazy x?? on "xxx" finds "", "x", "", "x", "", "x", "" */
  *ranges = (int64_t *)malloc((size_t)(2 * (2 * n + 2)) * sizeof(int64_t));
  assert_non_null(*ranges);
  gcol_detail_regex_pieces_state st =
      gcol_detail_regex_pieces_begin(&re->host.prog, sp, s, n, scratch);
  int64_t b = 0, e = 0, count = 0;
  while (gcol_detail_regex_pieces_next(&re->host.prog, sp, s, n, &st, scratch, &b, &e)) {
    assert_true(count < 2 * n + 2);
    (*ranges)[2 * count] = b;
    (*ranges)[2 * count + 1] = e;
    ++count;
  }
  free(scratch);
  return count;
}

/* The reference pieces of view row i (count, ranges into the row); -1 when it is null. */
static int64_t ref_pieces(const check_ctx *c, const gcol_regex *re, const regex_call *call,
                          int64_t i, const char **s, int64_t **ranges) {
  int64_t n = 0;
  *s = strings_masked_row(c->h, c->masked, c->begin + i, &n);
  *ranges = NULL;
  if (*s == NULL) return -1;
  return host_pieces(re, call, *s, n, ranges);
}

/* ---------------------------------------------------------------- checks */

static void check_record(const check_ctx *c, gcol_column_view v, const gcol_regex *re,
                         const regex_call *call) {
  int64_t const n = v.size;
  gcol_column *out = NULL;
  int64_t const previous = set_threshold(c->wide);
  gcol_status const st = run_call(call, re, false, v, &out, NULL);
  gcol_set_large_offsets_threshold(previous);
  GCOL_TEST_OK(st);
  assert_int_equal(out->type.id, GCOL_LIST);
  assert_int_equal(out->size, n);
  assert_int_equal(out->children[1]->type.id, GCOL_STRING);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
  int64_t *offs = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
  gcol_host_strings *values = NULL;
  strings_offsets_to_host(gcol_column_get_view(out->children[0]), offs);
  strings_list_validity(out, valid);
  GCOL_TEST_OK(
      gcol_column_strings_copy_to_host(gcol_column_get_view(out->children[1]), NULL, &values));
  assert_int_equal(offs[0], 0);
  assert_int_equal(offs[n], out->children[1]->size);
  assert_int_equal(out->children[1]->null_count, 0);
  for (int64_t i = 0; i < n; ++i) {
    const char *s = NULL;
    int64_t *ranges = NULL;
    int64_t const count = ref_pieces(c, re, call, i, &s, &ranges);
    if ((valid[i] != 0) != (count >= 0) || offs[i + 1] - offs[i] != (count < 0 ? 0 : count)) {
      fail_msg("%s (%s): row %lld has %lld pieces (valid %d), want %lld", call->what, c->what,
               (long long)i, (long long)(offs[i + 1] - offs[i]), valid[i], (long long)count);
    }
    for (int64_t k = 0; k < count; ++k) {
      strings_expect_row(values, offs[i] + k, s + ranges[2 * k], ranges[2 * k + 1] - ranges[2 * k],
                         call->what, c->what);
    }
    free(ranges);
  }
  if (c->wide && offs[n] > 1) assert_int_equal(out->children[0]->type.id, GCOL_INT64);
  if (!c->wide) assert_int_equal(out->children[0]->type.id, GCOL_INT32);
  if (values->offsets[values->size] > 1) {
    assert_int_equal(out->children[1]->children[0]->type.id, c->wide ? GCOL_INT64 : GCOL_INT32);
  }
  free(offs);
  free(valid);
  gcol_host_strings_free(values);
  gcol_column_free(out);
}

/* The table form: each row's reference pieces computed once, then column by column. Rows
 * of thousands of pieces (long rows) would make a table of thousands of columns, one
 * gather each: those calls are left to the record form. */
#define MOST_TABLE_COLUMNS 64

static void check_table(const check_ctx *c, gcol_column_view v, const gcol_regex *re,
                        const regex_call *call) {
  int64_t const n = v.size;
  const char **rows = (const char **)malloc((size_t)(n + 1) * sizeof *rows);
  int64_t **ranges = (int64_t **)malloc((size_t)(n + 1) * sizeof *ranges);
  int64_t *counts = (int64_t *)malloc((size_t)(n + 1) * sizeof *counts);
  int64_t most = 0;
  for (int64_t i = 0; i < n; ++i) {
    counts[i] = ref_pieces(c, re, call, i, &rows[i], &ranges[i]);
    if (counts[i] > most) most = counts[i];
  }
  if (most <= MOST_TABLE_COLUMNS) {
    gcol_table *out = NULL;
    int64_t const previous = set_threshold(c->wide);
    gcol_status const st = run_call(call, re, true, v, NULL, &out);
    gcol_set_large_offsets_threshold(previous);
    GCOL_TEST_OK(st);
    strings_expect_pieces_table(out, n, most, counts, rows, (const int64_t *const *)ranges,
                                call->what, c->what);
    gcol_table_free(out);
  }
  for (int64_t i = 0; i < n; ++i) free(ranges[i]);
  free(rows);
  free(ranges);
  free(counts);
}

/* ---------------------------------------------------------------- drivers */

/* Every call on rows [begin, begin + size) of `full` (rows of h from h_begin). */
/* Every call of calls[] from first_call, every step-th (check_all: all of them). */
static void check_calls(const host_strings *h, gcol_column_view full, int64_t begin, int64_t size,
                        int64_t h_begin, bool masked, const char *what, int64_t first_call,
                        int64_t step) {
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_view_slice(full, begin, begin + size, &v));
  check_ctx const c = {h, h_begin, masked, full.size > 0 && full.children[0].type.id == GCOL_INT64,
                       what};
  for (int64_t k = first_call; k < NUM_CALLS; k += step) {
    gcol_regex *re = NULL;
    GCOL_TEST_OK(gcol_regex_compile(calls[k].pattern, -1, calls[k].flags, &re));
    check_record(&c, v, re, &calls[k]);
    if (calls[k].kind != GCOL_DETAIL_REGEX_FINDALL) check_table(&c, v, re, &calls[k]);
    gcol_regex_free(re);
  }
}

static void check_all(const host_strings *h, gcol_column_view full, int64_t begin, int64_t size,
                      int64_t h_begin, bool masked, const char *what) {
  check_calls(h, full, begin, size, h_begin, masked, what, 0, 1);
}

/* Rows [begin, begin + n) of a random column, through calls[first_call], every step-th. */
static void run_dataset_calls(gcol_test_rng *rng, int64_t n, bool huge, bool one_byte,
                              gcol_test_validity validity, int64_t begin, bool wide,
                              const char *what, int64_t first_call, int64_t step) {
  host_strings h = make_strings(rng, n + begin + 2, huge, one_byte, validity);
  bool const masked = validity != GCOL_TEST_NO_MASK;
  gcol_column *col = strings_to_device(&h, wide, masked);
  char name[160];
  snprintf(name, sizeof name, "%s, %lld rows from %lld, %s, %s offsets", what, (long long)n,
           (long long)begin, gcol_test_validity_name(validity), wide ? "INT64" : "INT32");
  check_calls(&h, gcol_column_get_view(col), begin, n, begin, masked, name, first_call, step);
  gcol_column_free(col);
  strings_free(&h);
}

static void run_dataset(gcol_test_rng *rng, int64_t n, bool huge, bool one_byte,
                        gcol_test_validity validity, int64_t begin, bool wide, const char *what) {
  run_dataset_calls(rng, n, huge, one_byte, validity, begin, wide, what, 0, 1);
}

/* ---------------------------------------------------------------- tests */

static void test_sizes(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1501);
  static const int64_t sizes[] = {0,  1,  2,  7,   8,   9,   31,  32, 33,
                                  63, 64, 65, 127, 128, 129, 255, 257};
  size_t const count = sizeof sizes / sizeof sizes[0];
  for (size_t k = 0; k < count; ++k) {
    if (!gcol_test_in_sparse_part(state, k)) continue; /* halved under the tools */
    run_dataset(&rng, sizes[k], false, false, GCOL_TEST_RANDOM_NULLS, 0, false, "mixed");
  }
  if (gcol_test_in_part(state, count)) {
    run_dataset(&rng, gcol_test_cap(3001), false, false, GCOL_TEST_NO_MASK, 0, false, "mixed");
  }
}

/* Slices at 1, 3, 33, 65 under every validity pattern. */
static void run_slices_validity(void **state, uint64_t salt, bool wide) {
  gcol_test_rng rng = gcol_test_rng_make(salt);
  static const int64_t begins[] = {1, 3, 33, 65};
  for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
    for (size_t b = 0; b < sizeof begins / sizeof begins[0]; ++b) {
      if (!gcol_test_in_part(state, (size_t)v * 4 + b)) continue;
      if (!gcol_test_keep_combination((size_t)v + b)) continue; /* sparse under the tools */
      run_dataset(&rng, 129, false, false, (gcol_test_validity)v, begins[b], wide, "mixed");
    }
  }
}

static void test_slices_validity(void **state) { run_slices_validity(state, 1502, false); }

static void test_slices_validity_int64_offsets(void **state) {
  run_slices_validity(state, 1503, true);
}

static void test_special_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1504);
  /* "" vs null vs "\0", U+10FFFF, delimiters alone and at the ends, a* on "baaac",
   * invalid bytes */
  const char *const rows[] = {"",          NULL,
                              "\0",        "\xf4\x8f\xbf\xbf",
                              ",",         "baaac",
                              ",a,,b,",    " a \xc2\xa0 b ",
                              "\x80,\xff", "\xf4\x8f\xbf\xbf,\xf4\x8f\xbf\xbf",
                              ""};
  int64_t const lens[] = {0, 0, 1, 4, 1, 5, 6, 8, 3, 9, 0};
  int64_t const count = (int64_t)(sizeof lens / sizeof lens[0]);
  host_strings h = strings_rows(rows, lens, count);
  for (int wide = 0; wide < 2; ++wide) {
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    gcol_column_view slice;
    check_all(&h, gcol_column_get_view(col), 0, count, 0, true, "special rows");
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 2, 9, &slice));
    check_all(&h, slice, 1, 5, 3, true, "slice of a slice"); /* rows 3..7 of h */
    check_all(&h, gcol_column_get_view(col), count, 0, count, true, "zero-length slice at the end");
    gcol_column_free(col);
  }
  strings_free(&h);
  run_dataset(&rng, 300, false, true, GCOL_TEST_ALL_NULL, 5, false, "all null");
  run_dataset(&rng, gcol_test_cap(2000), false, true, GCOL_TEST_RANDOM_NULLS, 7, true, "one byte");
  host_strings all_empty = make_strings(&rng, 100, false, false, GCOL_TEST_RANDOM_NULLS);
  memset(all_empty.offsets, 0, 101 * sizeof(int64_t));
  gcol_column *col = strings_to_device(&all_empty, false, true);
  check_all(&all_empty, gcol_column_get_view(col), 3, 90, 3, true, "all empty");
  gcol_column_free(col);
  strings_free(&all_empty);
}

/* Rows over 64 KiB (every fifth row): one thread walks each, in two parts (each its own
 * shard). Under the sanitizers each part has one such row and fewer calls: memcheck takes
 * 30-60 s a call to walk one (three calls a part still took 182-197 s on an H200), so part 0
 * runs findall a[b,] (the DFA's spans) and rsplit_re , 1, part 1 split_re , (calls 8, 16,
 * 10); the plain run takes every call in both parts. */
static void test_long_rows(void **state) {
  int64_t const n = gcol_test_if_sparse(12, 2);
  if (gcol_test_in_part(state, 0)) {
    gcol_test_rng rng = gcol_test_rng_make(1505);
    run_dataset_calls(&rng, n, true, false, GCOL_TEST_RANDOM_NULLS, 1, false, "over 64 KiB",
                      gcol_test_if_sparse(0, 8), gcol_test_if_sparse(1, 8));
  }
  if (gcol_test_in_part(state, 1)) {
    gcol_test_rng rng = gcol_test_rng_make(1506);
    run_dataset_calls(&rng, n, true, false, GCOL_TEST_NO_MASK, 0, true, "over 64 KiB",
                      gcol_test_if_sparse(0, 10), gcol_test_if_sparse(1, NUM_CALLS));
  }
}

/* The values of list row i as sizes (asserting the list's validity). */
static void expect_list_sizes(const gcol_column *list, int64_t i, bool valid, const int64_t *want,
                              int64_t count) {
  int64_t offs[8];
  uint8_t v[8];
  gcol_host_strings *values = NULL;
  assert_true(list->size < 8);
  strings_offsets_to_host(gcol_column_get_view(list->children[0]), offs);
  strings_list_validity(list, v);
  assert_int_equal(v[i] != 0, valid);
  assert_int_equal(offs[i + 1] - offs[i], count);
  GCOL_TEST_OK(
      gcol_column_strings_copy_to_host(gcol_column_get_view(list->children[1]), NULL, &values));
  for (int64_t k = 0; k < count; ++k) {
    int64_t const j = offs[i] + k;
    assert_int_equal(values->offsets[j + 1] - values->offsets[j], want[k]);
  }
  gcol_host_strings_free(values);
}

/* Known rows through every API: the shapes of the outputs (Python's answers). */
static void test_known_outputs(void **state) {
  (void)state;
  const char *const rows[] = {"baaac", NULL, "", "a,b,,c"};
  int64_t const lens[] = {5, 0, 0, 6};
  host_strings h = strings_rows(rows, lens, 4);
  gcol_column *col = strings_to_device(&h, false, true);
  gcol_column_view const v = gcol_column_get_view(col);
  gcol_regex *astar = NULL, *comma = NULL;
  GCOL_TEST_OK(gcol_regex_compile("a*", -1, 0, &astar));
  GCOL_TEST_OK(gcol_regex_compile(",", -1, 0, &comma));
  /* re.findall("a*", row): ["", "aaa", "", ""], None, [""], ["a", "", "", "", "", "", ""] */
  gcol_column *list = NULL;
  GCOL_TEST_OK(gcol_strings_findall(v, astar, &list, NULL, NULL));
  static const int64_t f0[] = {0, 3, 0, 0}, f2[] = {0}, f3[] = {1, 0, 0, 0, 0, 0, 0};
  expect_list_sizes(list, 0, true, f0, 4);
  expect_list_sizes(list, 1, false, NULL, 0);
  expect_list_sizes(list, 2, true, f2, 1);
  expect_list_sizes(list, 3, true, f3, 7);
  assert_int_equal(list->null_count, 1);
  gcol_column_free(list);
  /* rsplit by "," once: ["baaac"], None, [""], ["a,b,", "c"] */
  GCOL_TEST_OK(gcol_strings_rsplit_record_re(v, comma, 1, &list, NULL, NULL));
  static const int64_t r0[] = {5}, r3[] = {4, 1};
  expect_list_sizes(list, 0, true, r0, 1);
  expect_list_sizes(list, 1, false, NULL, 0);
  expect_list_sizes(list, 2, true, f2, 1);
  expect_list_sizes(list, 3, true, r3, 2);
  gcol_column_free(list);
  /* split by ",": 4 columns; "a" | "b" | "" | "c" in row 3, nulls past a row's pieces */
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_strings_split_re(v, comma, -1, &t, NULL, NULL));
  assert_int_equal(t->num_columns, 4);
  gcol_host_strings *c0 = NULL, *c2 = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_table_get_view(t).columns[0], NULL, &c0));
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_table_get_view(t).columns[2], NULL, &c2));
  assert_int_equal(c0->offsets[4], 6);
  assert_memory_equal(c0->chars, "baaaca", 6);
  assert_int_equal(c0->valid[0] + c0->valid[1] + c0->valid[2] + c0->valid[3], 3);
  assert_int_equal(c2->valid[0] + c2->valid[1] + c2->valid[2], 0);
  assert_int_equal(c2->valid[3], 1);
  assert_int_equal(c2->offsets[4], 0);
  gcol_host_strings_free(c0);
  gcol_host_strings_free(c2);
  gcol_table_free(t);
  /* no rows: an empty list column; a table of one empty column */
  gcol_column_view none;
  GCOL_TEST_OK(gcol_column_view_slice(v, 4, 4, &none));
  GCOL_TEST_OK(gcol_strings_findall(none, astar, &list, NULL, NULL));
  assert_int_equal(list->type.id, GCOL_LIST);
  assert_int_equal(list->size, 0);
  assert_int_equal(list->children[1]->size, 0);
  gcol_column_free(list);
  GCOL_TEST_OK(gcol_strings_rsplit_re(none, comma, 2, &t, NULL, NULL));
  assert_int_equal(t->num_columns, 1);
  assert_int_equal(gcol_table_get_view(t).columns[0].size, 0);
  gcol_table_free(t);
  /* every row null: one column of nulls */
  GCOL_TEST_OK(gcol_column_view_slice(v, 1, 2, &none));
  GCOL_TEST_OK(gcol_strings_split_re(none, comma, -1, &t, NULL, NULL));
  assert_int_equal(t->num_columns, 1);
  assert_int_equal(gcol_table_get_view(t).columns[0].null_count, 1);
  gcol_table_free(t);
  gcol_regex_free(astar);
  gcol_regex_free(comma);
  gcol_column_free(col);
  strings_free(&h);
}

/* Bad arguments on device data: the specific status, nothing leaked, then a valid call. */
static void test_bad_input(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1506);
  host_strings h = make_strings(&rng, 20, false, false, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = strings_to_device(&h, false, true);
  gcol_column_view const v = gcol_column_get_view(col);
  gcol_column *ints = NULL;
  gcol_regex *re = NULL, *two_groups = NULL;
  GCOL_TEST_OK(gcol_regex_compile("(a)", -1, 0, &re));
  GCOL_TEST_OK(gcol_regex_compile("(a)(b)", -1, 0, &two_groups));
  GCOL_TEST_OK(gcol_column_create(gcol_data_type_make(GCOL_INT32), 10, GCOL_MASK_UNALLOCATED, NULL,
                                  NULL, &ints));
  int64_t const live = gcol_test_live_bytes();
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_table *t = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_findall(gcol_column_get_view(ints), re, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_findall(v, two_groups, &out, NULL, NULL), GCOL_ERROR_UNSUPPORTED);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_split_record_re(v, NULL, -1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_strings_rsplit_re(v, re, -2, &t, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  t = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_split_re(gcol_column_get_view(ints), re, -1, &t, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(t);
  assert_int_equal(gcol_test_live_bytes(), live);
  /* split takes a pattern of several groups (not inserted) */
  GCOL_TEST_OK(gcol_strings_split_record_re(v, two_groups, -1, &out, NULL, NULL));
  gcol_column_free(out);
  GCOL_TEST_OK(gcol_strings_findall(v, re, &out, NULL, NULL));
  gcol_column_free(out);
  gcol_column_free(ints);
  gcol_regex_free(re);
  gcol_regex_free(two_groups);
  gcol_column_free(col);
  strings_free(&h);
}

/* ---------------------------------------------------------------- faults */

typedef struct fault_ctx {
  gcol_column_view input;
  const gcol_regex *re;
  regex_call call;
  bool table;
  gcol_column *out;
  gcol_table *tab;
} fault_ctx;

static gcol_status fault_op(void *ctx) {
  fault_ctx *f = (fault_ctx *)ctx;
  f->out = NULL;
  f->tab = NULL;
  return run_call(&f->call, f->re, f->table, f->input, &f->out, &f->tab);
}

static void fault_cleanup(void *ctx) {
  fault_ctx *f = (fault_ctx *)ctx;
  gcol_column_free(f->out);
  gcol_table_free(f->tab);
  f->out = NULL;
  f->tab = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1507);
  static const regex_call fault_calls[] = {
      {GCOL_DETAIL_REGEX_FINDALL, "(a|b)c?", 0, -1, "findall"},
      {GCOL_DETAIL_REGEX_SPLIT, ",|a", 0, -1, "split_re"},
      {GCOL_DETAIL_REGEX_RSPLIT, ",|a*", 0, 2, "rsplit_re"},
  };
  for (int wide = 0; wide < 2; ++wide) {
    host_strings h = make_strings(&rng, 60, false, false, GCOL_TEST_RANDOM_NULLS);
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    fault_ctx f;
    memset(&f, 0, sizeof f);
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 57, &f.input));
    for (size_t k = 0; k < sizeof fault_calls / sizeof fault_calls[0]; ++k) {
      gcol_regex *re = NULL;
      GCOL_TEST_OK(gcol_regex_compile(fault_calls[k].pattern, -1, 0, &re));
      f.re = re;
      f.call = fault_calls[k];
      for (int table = 0; table < 2; ++table) {
        if (table && f.call.kind == GCOL_DETAIL_REGEX_FINDALL) continue;
        f.table = table != 0;
        assert_true(gcol_test_check_allocation_failures(fault_op, fault_cleanup, &f) > 0);
      }
      gcol_regex_free(re);
    }
    gcol_column_free(col);
    strings_free(&h);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_sizes, 0, 4),
      GCOL_TEST_GPU_PART(test_sizes, 1, 4),
      GCOL_TEST_GPU_PART(test_sizes, 2, 4),
      GCOL_TEST_GPU_PART(test_sizes, 3, 4),
      GCOL_TEST_GPU_PART(test_slices_validity, 0, 4),
      GCOL_TEST_GPU_PART(test_slices_validity, 1, 4),
      GCOL_TEST_GPU_PART(test_slices_validity, 2, 4),
      GCOL_TEST_GPU_PART(test_slices_validity, 3, 4),
      GCOL_TEST_GPU_PART(test_slices_validity_int64_offsets, 0, 4),
      GCOL_TEST_GPU_PART(test_slices_validity_int64_offsets, 1, 4),
      GCOL_TEST_GPU_PART(test_slices_validity_int64_offsets, 2, 4),
      GCOL_TEST_GPU_PART(test_slices_validity_int64_offsets, 3, 4),
      GCOL_TEST_GPU(test_special_rows),
      GCOL_TEST_GPU_PART(test_long_rows, 0, 2),
      GCOL_TEST_GPU_PART(test_long_rows, 1, 2),
      GCOL_TEST_GPU(test_known_outputs),
      GCOL_TEST_GPU(test_bad_input),
      GCOL_TEST_GPU(test_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("strings_regex_split", tests);
}
