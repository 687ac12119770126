/*
 * GPU tests of regular expressions (include/gcol/strings/regex.h): contains, matches and
 * count against the host Pike VM (kernels/strings/regex_match.h, itself checked against
 * Python's re and a backtracker by test_regex_host.c) over the strings axes: sizes, slices
 * whose first offset is not 0, validity patterns, "" vs null vs "\0", 1- to 4-byte
 * characters and invalid bytes, INT64 offsets; allocation failures with nothing leaked, and
 * bad arguments.
 */
#include "test_util.h"

#include "gcol/strings/regex.h"
#include "strings/regex_match.h"

typedef struct host_rows {
  int64_t n;
  char *chars;
  int64_t *offsets;
  uint8_t *valid;
} host_rows;

static const char *const pieces[] = {"a", "b", "c", "A", "1", " ", "\n", "_", "\xc3\xa9",
                                     "\xe2\x82\xac", "\xf4\x8f\xbf\xbf", "\xf0\x90\x8d\x88",
                                     "\x80", "\xe2\x82", "ab1"};
#define NUM_PIECES ((int64_t)(sizeof pieces / sizeof pieces[0]))

/* n rows of 0..max_pieces pieces; one in 16 is "", one in 16 is "\0". */
static host_rows make_rows(gcol_test_rng *rng, int64_t n, int64_t max_pieces, gcol_test_validity v) {
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
        const char *p = pieces[gcol_test_rng_range(rng, 0, NUM_PIECES - 1)];
        memcpy(h.chars + at, p, strlen(p));
        at += (int64_t)strlen(p);
      }
    }
    h.offsets[i + 1] = at;
  }
  return h;
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

static const char *const patterns[] = {"a", "", "a*", "b+c", "[^a]", "(a|b)c?", "\\d+",
                                       "\\bab", "^a", "c$", "\xe2\x82\xac|\xc3\xa9.",
                                       "[\xc3\xa9-\xf4\x8f\xbf\xbf]+", "(?:a|ab)*?1", ".\\Z"};
#define NUM_PATTERNS ((int64_t)(sizeof patterns / sizeof patterns[0]))

/* Checks the three operations on view v, rows [begin, begin + v.size) of h. */
static void check_ops(const host_rows *h, int64_t begin, gcol_column_view v, bool masked,
                      const char *what) {
  int64_t const n = v.size;
  int32_t *got = (int32_t *)malloc((size_t)n * 4 + 4);
  uint8_t *b8 = (uint8_t *)malloc((size_t)n + 1), *valid = (uint8_t *)malloc((size_t)n + 1);
  for (int64_t k = 0; k < NUM_PATTERNS; ++k) {
    gcol_regex *re = NULL;
    GCOL_TEST_OK(gcol_regex_compile(patterns[k], -1, k % 3 == 2 ? GCOL_REGEX_IGNORECASE : 0, &re));
    int32_t *scratch = (int32_t *)malloc(
        (size_t)gcol_detail_regex_scratch_ints(re->host.prog.num_insts, 2) * sizeof(int32_t));
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
        if (!valid[i] != !row_valid) fail_msg("%s /%s/ op %d row %lld: validity", what, patterns[k], op, (long long)i);
        if (!row_valid) continue;
        const char *s = h->chars + h->offsets[begin + i];
        int64_t const len = h->offsets[begin + i + 1] - h->offsets[begin + i];
        int32_t want;
        if (op == 2) want = gcol_detail_regex_count(&re->host.prog, s, len, scratch);
        else want = gcol_detail_regex_exec(&re->host.prog, s, len, 0, op == 1, -1, 0, scratch, NULL);
        int32_t const have = op == 2 ? got[i] : b8[i];
        if (have != want) {
          fail_msg("%s /%s/ op %d row %lld: %d, want %d", what, patterns[k], op, (long long)i, have, want);
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

static void test_sizes(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1401);
  for (size_t k = 0; k < gcol_test_num_sizes; ++k) {
    int64_t const n = gcol_test_sizes[k];
    if (n > 5000) continue;
    host_rows h = make_rows(&rng, n, 8, GCOL_TEST_RANDOM_NULLS);
    gcol_column *col = to_device(&h, false, true);
    check_ops(&h, 0, gcol_column_get_view(col), true, "sizes");
    gcol_column_free(col);
    free_rows(&h);
  }
}

static void run_slices(bool wide) {
  gcol_test_rng rng = gcol_test_rng_make(wide ? 1403 : 1402);
  static const int64_t begins[] = {0, 1, 3, 5, 7, 31, 33, 63, 65};
  for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
    host_rows h = make_rows(&rng, 200, 12, (gcol_test_validity)v);
    bool const masked = v != GCOL_TEST_NO_MASK;
    gcol_column *col = to_device(&h, wide, masked);
    for (size_t b = 0; b < sizeof begins / sizeof begins[0]; ++b) {
      gcol_column_view slice, twice;
      GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), begins[b], 190, &slice));
      check_ops(&h, begins[b], slice, masked, gcol_test_validity_name((gcol_test_validity)v));
      if (b == 2) { /* a slice of a slice, and a zero-length slice at the end */
        GCOL_TEST_OK(gcol_column_view_slice(slice, 2, 100, &twice));
        check_ops(&h, begins[b] + 2, twice, masked, "slice of a slice");
        GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 200, 200, &twice));
        check_ops(&h, 200, twice, masked, "empty slice");
      }
    }
    gcol_column_free(col);
    free_rows(&h);
  }
}

static void test_slices_validity(void **state) {
  (void)state;
  run_slices(false);
}

static void test_slices_validity_int64_offsets(void **state) {
  (void)state;
  run_slices(true);
}

/* Long rows: the VM's time grows with the row, its memory does not. */
static void test_long_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1404);
  host_rows h = make_rows(&rng, 40, 20000, GCOL_TEST_NO_MASK);
  gcol_column *col = to_device(&h, false, false);
  check_ops(&h, 0, gcol_column_get_view(col), false, "long rows");
  gcol_column_free(col);
  free_rows(&h);
}

typedef struct fault_ctx {
  gcol_column_view input;
  gcol_regex *re;
  int op;
  gcol_column *out;
} fault_ctx;

static gcol_status fault_op(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  c->out = NULL;
  if (c->op == 0) return gcol_strings_regex_contains(c->input, c->re, &c->out, NULL, NULL);
  if (c->op == 1) return gcol_strings_regex_matches(c->input, c->re, &c->out, NULL, NULL);
  return gcol_strings_regex_count(c->input, c->re, &c->out, NULL, NULL);
}

static void fault_cleanup(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column_free(c->out);
  c->out = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1405);
  host_rows h = make_rows(&rng, 300, 8, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = to_device(&h, true, true);
  fault_ctx c;
  memset(&c, 0, sizeof c);
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 297, &c.input));
  GCOL_TEST_OK(gcol_regex_compile("(a|b)+\\d", -1, 0, &c.re));
  for (c.op = 0; c.op < 3; ++c.op) {
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
  GCOL_TEST_OK(gcol_column_create(gcol_data_type_make(GCOL_INT32), 10, GCOL_MASK_UNALLOCATED, NULL, NULL, &ints));
  int64_t const live = gcol_test_live_bytes();
  GCOL_TEST_STATUS(gcol_strings_regex_contains(gcol_column_get_view(col), NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_regex_count(gcol_column_get_view(col), re, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_strings_regex_matches(gcol_column_get_view(ints), re, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  assert_int_equal(gcol_test_live_bytes(), live);
  GCOL_TEST_OK(gcol_strings_regex_contains(gcol_column_get_view(col), re, &out, NULL, NULL));
  gcol_column_free(out);
  gcol_column_free(ints);
  gcol_regex_free(re);
  gcol_column_free(col);
  free_rows(&h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_sizes),
      GCOL_TEST_GPU(test_slices_validity),
      GCOL_TEST_GPU(test_slices_validity_int64_offsets),
      GCOL_TEST_GPU(test_long_rows),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_bad_input),
  };
  return GCOL_TEST_RUN_GPU("strings_regex", tests);
}
