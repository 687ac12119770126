/*
 * GPU tests of regular expressions (include/gcol/strings/regex.h): contains, matches and
 * count against the host Pike VM (kernels/strings/regex_match.h, itself checked against
 * Python's re and a backtracker by test_regex_host.c) over the strings axes: sizes, slices
 * whose first offset is not 0, validity patterns, "" vs null vs "\0", 1- to 4-byte
 * characters and invalid bytes, INT64 offsets; allocation failures with nothing leaked, and
 * bad arguments. The references are the VM alone, so that the DFA the kernels run where a
 * program has one (and the shared-memory kernel that runs it) is checked too; rows of ASCII
 * bytes only are the ones it decides alone. extract and replace likewise, against the host row
 * functions of kernels/strings/regex_ops.h (checked against Python's re by test_regex_host.c),
 * their outputs with INT32 offsets, or INT64 forced where the input has them.
 */
#include "test_util.h"

#include "gcol/strings/regex.h"
#include "strings/regex_match.h"
#include "strings/regex_ops.h"

typedef struct host_rows {
  int64_t n;
  char *chars;
  int64_t *offsets;
  uint8_t *valid;
} host_rows;

static const char *const pieces[] = {"a",
                                     "b",
                                     "c",
                                     "A",
                                     "1",
                                     " ",
                                     "\n",
                                     "_",
                                     "\xc3\xa9",
                                     "\xe2\x82\xac",
                                     "\xf4\x8f\xbf\xbf",
                                     "\xf0\x90\x8d\x88",
                                     "\x80",
                                     "\xe2\x82",
                                     "ab1"};
#define NUM_PIECES ((int64_t)(sizeof pieces / sizeof pieces[0]))

/* The ASCII pieces: the first ones. */
#define ASCII_PIECES 8

/* n rows of 0..max_pieces of the first num_pieces pieces; one in 16 is "", one in 16 is
 * "\0". */
static host_rows make_rows_of(gcol_test_rng *rng, int64_t n, int64_t max_pieces,
                              gcol_test_validity v, int64_t num_pieces) {
  host_rows h;
  h.n = n;
  h.offsets = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  h.chars = (char *)malloc((size_t)(n * max_pieces * 4 + 1));
  h.valid = (uint8_t *)malloc((size_t)n + 1);
  assert_true(h.offsets && h.chars && h.valid);
  gcol_test_fill_valid(rng, v, h.valid, n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t at = h.offsets[i];
    int64_t const kind = gcol_test_rng_range(rng, 0, 15);
    if (kind == 1) {
      h.chars[at++] = '\0';
    } else if (kind != 0) {
      int64_t const count = gcol_test_rng_range(rng, 1, max_pieces);
      for (int64_t k = 0; k < count; ++k) {
        const char *p = pieces[gcol_test_rng_range(rng, 0, num_pieces - 1)];
        memcpy(h.chars + at, p, strlen(p));
        at += (int64_t)strlen(p);
      }
    }
    h.offsets[i + 1] = at;
  }
  return h;
}

static host_rows make_rows(gcol_test_rng *rng, int64_t n, int64_t max_pieces,
                           gcol_test_validity v) {
  return make_rows_of(rng, n, max_pieces, v, NUM_PIECES);
}

static void free_rows(host_rows *h) {
  free(h->chars);
  free(h->offsets);
  free(h->valid);
}

static gcol_column *to_device(const host_rows *h, bool wide, bool masked) {
  gcol_column *col = NULL;
  int64_t const previous = gcol_set_large_offsets_threshold(wide ? 1 : INT32_MAX);
  GCOL_TEST_OK(gcol_column_create_strings_from_host_offsets(
      h->n, h->chars, h->offsets, masked ? h->valid : NULL, NULL, NULL, &col));
  gcol_set_large_offsets_threshold(previous);
  return col;
}

static const char *const patterns[] = {"a",
                                       "",
                                       "a*",
                                       "b+c",
                                       "[^a]",
                                       "(a|b)c?",
                                       "\\d+",
                                       "\\bab",
                                       "^a",
                                       "c$",
                                       "\xe2\x82\xac|\xc3\xa9.",
                                       "[\xc3\xa9-\xf4\x8f\xbf\xbf]+",
                                       "(?:a|ab)*?1",
                                       ".\\Z"};
#define NUM_PATTERNS ((int64_t)(sizeof patterns / sizeof patterns[0]))

static const char *const extract_patterns[] = {"(a)(b)?",  "(\\d+)", "(\xe2\x82\xac)(.)?",
                                               "((a)|b)+", "()(x)?", "(\xc3\xa9|\x80)\\Z"};
#define NUM_EXTRACT ((int64_t)(sizeof extract_patterns / sizeof extract_patterns[0]))

typedef struct replace_spec {
  const char *pattern, *tmpl;
  int64_t max_count;
} replace_spec;

static const replace_spec replace_specs[] = {{"a", "-", -1},
                                             {"(a|b)c?", "<\\1\\g<0>>", -1},
                                             {"", "|", -1},
                                             {"\\d+", "", 2},
                                             {"(\xe2\x82\xac)(x)?", "\\2\xc3\xa9\\1", -1},
                                             {"a*", "\\n", 0},
                                             {"(.)", "\\1\\1", 1},
                                             {"(?P<w>a|b)(?P<n>\\d)?", "<\\g<n>\\g<w>>", -1},
                                             {"[ab]+", "<\\g<0>>", -1},
                                             {"a[^a]", "", 3}};
#define NUM_REPLACE ((int64_t)(sizeof replace_specs / sizeof replace_specs[0]))

/* Asserts the offsets type of a STRING output: INT64 when forced and there are bytes. */
static void check_offsets_type(const gcol_column *out, bool wide) {
  if (out->size > 0 && out->children[0]->size > 0) {
    gcol_host_strings *hs = NULL;
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
    if (hs->offsets[out->size] > 1) {
      assert_int_equal(out->children[0]->type.id, wide ? GCOL_INT64 : GCOL_INT32);
    }
    gcol_host_strings_free(hs);
  }
}

/* Checks row i of a STRING output against want (NULL: null), wn bytes. */
static void check_row(const gcol_host_strings *hs, int64_t i, const char *want, int64_t wn,
                      const char *what, const char *pattern) {
  if ((hs->valid[i] != 0) != (want != NULL)) {
    fail_msg("%s /%s/ row %lld: validity %d, want %d", what, pattern, (long long)i, hs->valid[i],
             want != NULL);
  }
  int64_t const gn = hs->offsets[i + 1] - hs->offsets[i];
  if (want == NULL) wn = 0;
  if (gn != wn || (wn > 0 && memcmp(hs->chars + hs->offsets[i], want, (size_t)wn) != 0)) {
    fail_msg("%s /%s/ row %lld: %lld bytes, want %lld", what, pattern, (long long)i, (long long)gn,
             (long long)wn);
  }
}

/* extract and replace on view v, rows [begin, begin + v.size) of h; INT64 output offsets
 * forced where v has INT64 offsets. */
static void check_extract_replace(const host_rows *h, int64_t begin, gcol_column_view v,
                                  bool masked, const char *what) {
  int64_t const n = v.size;
  bool const wide = n > 0 && v.children[0].type.id == GCOL_INT64;
  for (int64_t k = 0; k < NUM_EXTRACT; ++k) {
    gcol_regex *re = NULL;
    gcol_table *t = NULL;
    GCOL_TEST_OK(gcol_regex_compile(extract_patterns[k], -1, 0, &re));
    int32_t const groups = gcol_regex_num_groups(re);
    int32_t *scratch = (int32_t *)malloc(
        (size_t)gcol_detail_regex_scratch_ints(&re->host.prog, 2 * (groups + 1)) * 4);
    int64_t const previous = gcol_set_large_offsets_threshold(wide ? 1 : INT32_MAX);
    gcol_status const st = gcol_strings_regex_extract(v, re, &t, NULL, NULL);
    gcol_set_large_offsets_threshold(previous);
    GCOL_TEST_OK(st);
    assert_int_equal(t->num_columns, groups);
    for (int32_t g = 0; g < groups; ++g) {
      gcol_column const *col = t->columns[g];
      gcol_host_strings *hs = NULL;
      assert_int_equal(col->type.id, GCOL_STRING);
      assert_int_equal(col->size, n);
      gcol_test_assert_null_count_consistent(gcol_column_get_view(col));
      check_offsets_type(col, wide);
      GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(col), NULL, &hs));
      for (int64_t i = 0; i < n; ++i) {
        const char *want = NULL;
        int64_t wn = 0;
        if (!masked || h->valid[begin + i]) {
          int32_t spans[GCOL_DETAIL_REGEX_MAX_SLOTS];
          const char *row = h->chars + h->offsets[begin + i];
          gcol_detail_regex_extract_row(&re->host.prog, row,
                                        h->offsets[begin + i + 1] - h->offsets[begin + i], scratch,
                                        spans);
          if (spans[2 * g] >= 0) {
            want = row + spans[2 * g];
            wn = spans[2 * g + 1] - spans[2 * g];
          }
        }
        check_row(hs, i, want, wn, what, extract_patterns[k]);
      }
      gcol_host_strings_free(hs);
    }
    gcol_table_free(t);
    free(scratch);
    gcol_regex_free(re);
  }
  for (int64_t k = 0; k < NUM_REPLACE; ++k) {
    replace_spec const *c = &replace_specs[k];
    gcol_regex *re = NULL;
    gcol_column *out = NULL;
    gcol_host_strings *hs = NULL;
    gcol_detail_regex_template_host th;
    GCOL_TEST_OK(gcol_regex_compile(c->pattern, -1, 0, &re));
    GCOL_TEST_OK(gcol_detail_regex_template_parse(c->tmpl, (int64_t)strlen(c->tmpl), &re->host,
                                                  "test", &th));
    int32_t *scratch =
        (int32_t *)malloc((size_t)gcol_detail_regex_scratch_ints(
                              &re->host.prog, gcol_detail_regex_replace_slots(&th.t)) *
                          4);
    int64_t const previous = gcol_set_large_offsets_threshold(wide ? 1 : INT32_MAX);
    gcol_status const st =
        gcol_strings_regex_replace(v, re, c->tmpl, -1, c->max_count, &out, NULL, NULL);
    gcol_set_large_offsets_threshold(previous);
    GCOL_TEST_OK(st);
    assert_int_equal(out->type.id, GCOL_STRING);
    assert_int_equal(out->size, n);
    gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
    check_offsets_type(out, wide);
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
    for (int64_t i = 0; i < n; ++i) {
      char *want = NULL;
      int64_t wn = 0;
      if (!masked || h->valid[begin + i]) {
        const char *row = h->chars + h->offsets[begin + i];
        int64_t const len = h->offsets[begin + i + 1] - h->offsets[begin + i];
        gcol_detail_sink count = gcol_detail_sink_make(NULL);
        gcol_detail_regex_replace_row(&re->host.prog, row, len, &th.t, c->max_count, scratch,
                                      &count);
        assert_true(count.size >= 0 && count.size < ((int64_t)1 << 30));
        want = (char *)malloc((size_t)(count.size & (((int64_t)1 << 30) - 1)) + 1);
        assert_non_null(want);
        gcol_detail_sink write = gcol_detail_sink_make(want);
        gcol_detail_regex_replace_row(&re->host.prog, row, len, &th.t, c->max_count, scratch,
                                      &write);
        wn = write.size;
      }
      check_row(hs, i, want, wn, what, c->pattern);
      free(want);
    }
    gcol_host_strings_free(hs);
    gcol_column_free(out);
    gcol_detail_regex_template_free(&th);
    free(scratch);
    gcol_regex_free(re);
  }
}

/* Patterns with a DFA (regex_match.h; the kernel that runs it in shared memory) and flags:
 * the benchmark's, anchors with and without MULTILINE ($ before a final \n: the VM's), a
 * table near the cap (2^10 states), one past it (the VM alone). */
static const struct {
  const char *pattern;
  uint32_t flags;
} dfa_patterns[] = {{"[a-c]q+z", 0},
                    {"[ab]1+", 0},
                    {"a[^a]", 0},
                    {"^a|b$", 0},
                    {"^a|b$", GCOL_REGEX_MULTILINE},
                    {"b\n?\\Z|\\Ac", 0},
                    {"a.b", GCOL_REGEX_DOTALL},
                    {"(?:a|b)*a[ab]{9}", 0},
                    {"(?:a|b)*a[ab]{12}", 0},
                    {"(?:a|_)+b?", GCOL_REGEX_IGNORECASE}};
#define NUM_DFA_PATTERNS ((int64_t)(sizeof dfa_patterns / sizeof dfa_patterns[0]))

/* count by the VM alone (gcol_detail_regex_count begins with the DFA). */
static int32_t vm_only_count(const gcol_detail_regex_prog *prog, const char *s, int64_t n,
                             int32_t *scratch) {
  int64_t pos = 0;
  int32_t caps[2], count = 0;
  bool last_empty = false;
  while (pos <= n && gcol_detail_regex_exec_vm(prog, s, n, pos, false, last_empty ? pos : -1, 2,
                                               scratch, caps)) {
    ++count;
    last_empty = caps[0] == caps[1];
    pos = caps[1];
  }
  return count;
}

/* Checks contains, matches and count of one pattern on view v, rows [begin, begin + v.size)
 * of h, against the VM alone (not the DFA the kernels may run). */
static void check_pattern(const host_rows *h, int64_t begin, gcol_column_view v, bool masked,
                          const char *what, const char *pattern, uint32_t flags) {
  int64_t const n = v.size;
  int32_t *got = (int32_t *)malloc((size_t)n * 4 + 4);
  uint8_t *b8 = (uint8_t *)malloc((size_t)n + 1), *valid = (uint8_t *)malloc((size_t)n + 1);
  {
    gcol_regex *re = NULL;
    GCOL_TEST_OK(gcol_regex_compile(pattern, -1, flags, &re));
    int32_t *scratch = (int32_t *)malloc((size_t)gcol_detail_regex_scratch_ints(&re->host.prog, 2) *
                                         sizeof(int32_t));
    for (int op = 0; op < 3; ++op) {
      gcol_column *out = NULL;
      if (op == 0) GCOL_TEST_OK(gcol_strings_regex_contains(v, re, &out, NULL, NULL));
      if (op == 1) GCOL_TEST_OK(gcol_strings_regex_matches(v, re, &out, NULL, NULL));
      if (op == 2) GCOL_TEST_OK(gcol_strings_regex_count(v, re, &out, NULL, NULL));
      assert_int_equal(out->size, n);
      gcol_column_view const ov = gcol_column_get_view(out);
      GCOL_TEST_OK(gcol_column_copy_to_host(ov, op == 2 ? (void *)got : (void *)b8, valid, NULL));
      gcol_test_assert_null_count_consistent(ov);
      for (int64_t i = 0; i < n; ++i) {
        bool const row_valid = !masked || h->valid[begin + i];
        if (!valid[i] != !row_valid)
          fail_msg("%s /%s/ op %d row %lld: validity", what, pattern, op, (long long)i);
        if (!row_valid) continue;
        const char *s = h->chars + h->offsets[begin + i];
        int64_t const len = h->offsets[begin + i + 1] - h->offsets[begin + i];
        int32_t want;
        if (op == 2)
          want = vm_only_count(&re->host.prog, s, len, scratch);
        else
          want =
              gcol_detail_regex_exec_vm(&re->host.prog, s, len, 0, op == 1, -1, 0, scratch, NULL);
        int32_t const have = op == 2 ? got[i] : b8[i];
        if (have != want) {
          fail_msg("%s /%s/ flags %u op %d row %lld: %d, want %d", what, pattern, flags, op,
                   (long long)i, have, want);
        }
      }
      gcol_column_free(out);
    }
    free(scratch);
    gcol_regex_free(re);
  }
  free(got);
  free(b8);
  free(valid);
}

/* Checks the operations on view v, rows [begin, begin + v.size) of h: contains, matches and
 * count for every `every`-th pattern from `first` (and of the DFA's), then extract and
 * replace. */
static void check_ops(const host_rows *h, int64_t begin, gcol_column_view v, bool masked,
                      const char *what, int64_t first, int64_t every) {
  for (int64_t k = first % every; k < NUM_PATTERNS; k += every) {
    check_pattern(h, begin, v, masked, what, patterns[k], k % 3 == 2 ? GCOL_REGEX_IGNORECASE : 0);
  }
  for (int64_t k = first % every; k < NUM_DFA_PATTERNS; k += every) {
    check_pattern(h, begin, v, masked, what, dfa_patterns[k].pattern, dfa_patterns[k].flags);
  }
  check_extract_replace(h, begin, v, masked, what);
}

static void test_sizes(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1401);
  for (size_t k = 0; k < gcol_test_num_sizes; ++k) {
    int64_t const n = gcol_test_sizes[k];
    if (n > 5000 || !gcol_test_in_part(state, k)) continue;
    host_rows h = make_rows(&rng, n, 8, GCOL_TEST_RANDOM_NULLS);
    gcol_column *col = to_device(&h, false, true);
    check_ops(&h, 0, gcol_column_get_view(col), true, "sizes", 0, 1);
    gcol_column_free(col);
    free_rows(&h);
  }
}

static void run_slices(void **state, bool wide) {
  gcol_test_rng rng = gcol_test_rng_make(wide ? 1403 : 1402);
  static const int64_t begins[] = {0, 1, 3, 5, 7, 31, 33, 63, 65};
  /* under the tools INT64 offsets take every other pattern, alternating with v / 2 so each
   * part still runs every pattern (VM, DFA near the shared-memory cap, past it) and extract
   * and replace each time; the INT32 run keeps every pattern at these slices */
  int64_t const every = wide ? gcol_test_if_sparse(1, 2) : 1;
  for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
    host_rows h = make_rows(&rng, 200, 12, (gcol_test_validity)v);
    bool const masked = v != GCOL_TEST_NO_MASK;
    gcol_column *col = to_device(&h, wide, masked);
    for (size_t b = 0; b < sizeof begins / sizeof begins[0]; ++b) {
      if (!gcol_test_in_part(state, b)) continue;
      if (!gcol_test_keep_combination((size_t)v + b)) continue; /* sparse under the tools */
      gcol_column_view slice, twice;
      GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), begins[b], 190, &slice));
      check_ops(&h, begins[b], slice, masked, gcol_test_validity_name((gcol_test_validity)v), v / 2,
                every);
      if (b == 2) { /* a slice of a slice, and a zero-length slice at the end */
        GCOL_TEST_OK(gcol_column_view_slice(slice, 2, 100, &twice));
        check_ops(&h, begins[b] + 2, twice, masked, "slice of a slice", v / 2 + 1, every);
        GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 200, 200, &twice));
        check_ops(&h, 200, twice, masked, "empty slice", v / 2, every);
      }
    }
    gcol_column_free(col);
    free_rows(&h);
  }
}

static void test_slices_validity(void **state) { run_slices(state, false); }

static void test_slices_validity_int64_offsets(void **state) { run_slices(state, true); }

/* Long rows: the VM's time grows with the row, its memory does not. */
static void test_long_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1404);
  /* rows of up to 80 KB; capped under the sanitizers (GCOL_TEST_MAX_SIZE), where a thread
   * walking such a row alone kept this case's shard from finishing in minutes, and fewer
   * (10 rows still took 91 s under memcheck on an H200) */
  host_rows h = make_rows(&rng, gcol_test_if_sparse(40, 4), gcol_test_cap(20000),
                          GCOL_TEST_NO_MASK);
  gcol_column *col = to_device(&h, false, false);
  check_ops(&h, 0, gcol_column_get_view(col), false, "long rows", 0, 1);
  gcol_column_free(col);
  free_rows(&h);
}

/* The DFA's patterns on rows of ASCII bytes only, which it decides without the VM: sizes
 * around a block, random nulls, a slice not at 0 with INT64 offsets, and long rows. */
static void test_dfa_ascii_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1407);
  static const int64_t sizes[] = {0, 1, 7, 33, 255, 257, 3001};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    host_rows h = make_rows_of(&rng, sizes[k] + 5, 12, GCOL_TEST_RANDOM_NULLS, ASCII_PIECES);
    for (int wide = 0; wide < 2; ++wide) {
      gcol_column *col = to_device(&h, wide, true);
      gcol_column_view slice;
      GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 3 + sizes[k], &slice));
      for (int64_t p = 0; p < NUM_DFA_PATTERNS; ++p) {
        check_pattern(&h, 3, slice, true, wide ? "ascii int64" : "ascii", dfa_patterns[p].pattern,
                      dfa_patterns[p].flags);
      }
      gcol_column_free(col);
    }
    free_rows(&h);
  }
  host_rows h = make_rows_of(&rng, 40, gcol_test_cap(20000), GCOL_TEST_NO_MASK, ASCII_PIECES);
  gcol_column *col = to_device(&h, false, false);
  for (int64_t p = 0; p < NUM_DFA_PATTERNS; ++p) {
    check_pattern(&h, 0, gcol_column_get_view(col), false, "ascii long", dfa_patterns[p].pattern,
                  dfa_patterns[p].flags);
  }
  gcol_column_free(col);
  free_rows(&h);
}

typedef struct fault_ctx {
  gcol_column_view input;
  gcol_regex *re;
  int op;
  gcol_column *out;
  gcol_table *table;
} fault_ctx;

static gcol_status fault_op(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  c->out = NULL;
  if (c->op == 0) return gcol_strings_regex_contains(c->input, c->re, &c->out, NULL, NULL);
  if (c->op == 1) return gcol_strings_regex_matches(c->input, c->re, &c->out, NULL, NULL);
  if (c->op == 2) return gcol_strings_regex_count(c->input, c->re, &c->out, NULL, NULL);
  if (c->op == 3) {
    gcol_status const st = gcol_strings_regex_extract(c->input, c->re, &c->table, NULL, NULL);
    return st;
  }
  return gcol_strings_regex_replace(c->input, c->re, "<\\2\\1>", -1, -1, &c->out, NULL, NULL);
}

static void fault_cleanup(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column_free(c->out);
  c->out = NULL;
  gcol_table_free(c->table);
  c->table = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1405);
  host_rows h = make_rows(&rng, 300, 8, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = to_device(&h, true, true);
  fault_ctx c;
  memset(&c, 0, sizeof c);
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 297, &c.input));
  GCOL_TEST_OK(gcol_regex_compile("(a|b)+(\\d)", -1, 0, &c.re));
  for (c.op = 0; c.op < 5; ++c.op) {
    assert_true(gcol_test_check_allocation_failures(fault_op, fault_cleanup, &c) > 0);
  }
  gcol_regex_free(c.re);
  gcol_column_free(col);
  free_rows(&h);
}

static void test_bad_input(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1406);
  host_rows h = make_rows(&rng, 10, 4, GCOL_TEST_NO_MASK);
  gcol_column *col = to_device(&h, false, false);
  gcol_column *ints = NULL;
  gcol_regex *re = NULL;
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_OK(gcol_regex_compile("a", -1, 0, &re));
  GCOL_TEST_OK(gcol_column_create(gcol_data_type_make(GCOL_INT32), 10, GCOL_MASK_UNALLOCATED, NULL,
                                  NULL, &ints));
  int64_t const live = gcol_test_live_bytes();
  GCOL_TEST_STATUS(gcol_strings_regex_contains(gcol_column_get_view(col), NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_regex_count(gcol_column_get_view(col), re, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_strings_regex_matches(gcol_column_get_view(ints), re, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  /* extract: a pattern without groups; replace: templates Python rejects, max_count */
  gcol_table *t = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_regex_extract(gcol_column_get_view(col), re, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  GCOL_TEST_STATUS(gcol_strings_regex_extract(gcol_column_get_view(col), NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_strings_regex_extract(gcol_column_get_view(ints), re, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_strings_regex_replace(gcol_column_get_view(col), re, "\\1", -1, -1, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "invalid group reference 1"));
  GCOL_TEST_STATUS(
      gcol_strings_regex_replace(gcol_column_get_view(col), re, "\\q", -1, -1, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_strings_regex_replace(gcol_column_get_view(col), re, "\\g<x>", -1, -1, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "unknown group name 'x'"));
  GCOL_TEST_STATUS(
      gcol_strings_regex_replace(gcol_column_get_view(col), re, "x", -1, -2, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_strings_regex_replace(gcol_column_get_view(col), re, NULL, 1, -1, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_strings_regex_replace(gcol_column_get_view(ints), re, "x", -1, -1, &out, NULL, NULL),
      GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  assert_int_equal(gcol_test_live_bytes(), live);
  GCOL_TEST_OK(
      gcol_strings_regex_replace(gcol_column_get_view(col), re, NULL, 0, -1, &out, NULL, NULL));
  gcol_column_free(out);
  GCOL_TEST_OK(gcol_strings_regex_contains(gcol_column_get_view(col), re, &out, NULL, NULL));
  gcol_column_free(out);
  gcol_column_free(ints);
  gcol_regex_free(re);
  gcol_column_free(col);
  free_rows(&h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      /* in parts: under memcheck each whole case took two minutes */
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
      GCOL_TEST_GPU(test_long_rows),
      GCOL_TEST_GPU(test_dfa_ascii_rows),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_bad_input),
  };
  return GCOL_TEST_RUN_GPU("strings_regex", tests);
}
