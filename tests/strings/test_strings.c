/*
 * GPU tests of the strings operations (include/gcol/strings/): every operation against the
 * host references of strings_reference.c on TESTING.md's strings axes: sizes, slices whose
 * first offset is not 0 (and a slice of a slice, a zero-length slice at the end), every
 * validity pattern, "" vs null vs "\0", 1- to 4-byte characters incl. U+10FFFF, invalid
 * bytes, all-ASCII columns (the case fast path), rows longer than 64 KiB, rows averaging
 * over 64 bytes (the warp-per-string contains), many 1-byte rows, INT64 offsets forced by
 * gcol_set_large_offsets_threshold(); allocation failure at every point with nothing leaked.
 */
#include "test_util.h"

#include "gcol/strings/attributes.h"
#include "gcol/strings/case.h"
#include "gcol/strings/find.h"
#include "gcol/strings/like.h"
#include "strings_reference.h"
#include "strings_test_data.h"

/* ---------------------------------------------------------------- host data */

typedef enum content {
  CONTENT_MIXED = 0, /* every kind of character and invalid bytes, 0..40 bytes */
  CONTENT_ASCII,     /* ASCII only, 0..40 bytes */
  CONTENT_ONE_BYTE,  /* rows of 0 or 1 byte */
  CONTENT_LONG,      /* 100..600 bytes (average well over 64) */
  CONTENT_HUGE       /* a few rows over 64 KiB among short ones */
} content;

static const char *const mixed_pieces[] = {
    "a", "b", "e", "A", "Z", "0", "7", " ", "x", "ab", "\t", "'", "\0",
    "\xc3\xa9", "\xc3\x9f", "\xc8\xba", "\xc4\xb1", "\xc7\x85", "\xce\xa3", /* é ß Ⱥ ı ǅ Σ */
    "\xe2\x82\xac", "\xe4\xba\x8c", "\xe1\xbe\x80", "\xe3\x80\x80",         /* € 二 ᾀ U+3000 */
    "\xf4\x8f\xbf\xbf", "\xf0\x90\x90\xa8",                                 /* U+10FFFF 𐐨 */
    "\x80", "\xe2\x82", "\xc0\xaf", "\xff"};                                /* invalid */
#define NUM_MIXED ((int)(sizeof mixed_pieces / sizeof mixed_pieces[0]))
#define NUM_ASCII 13 /* the first 13 pieces are ASCII */


static host_strings make_strings(gcol_test_rng *rng, int64_t n, content kind,
                                 gcol_test_validity validity) {
  bool const ascii = kind == CONTENT_ASCII || kind == CONTENT_ONE_BYTE;
  bool const long_rows = kind == CONTENT_LONG;
  strings_recipe const recipe = {mixed_pieces, ascii ? NUM_ASCII : NUM_MIXED,
                                 long_rows ? 100 : 0, long_rows ? 600 : 40,
                                 kind == CONTENT_HUGE ? 5 : 0, kind == CONTENT_ONE_BYTE, true};
  return strings_random(rng, n, &recipe, validity);
}

/* ---------------------------------------------------------------- checks */

typedef struct check_ctx {
  const host_strings *h; /* the full host data */
  int64_t begin;         /* the view is rows [begin, begin + view.size) of h */
  bool masked;           /* h->valid applies */
  const char *what;      /* dataset name for messages */
  bool wide;             /* INT64 offsets: case outputs are made under a lowered threshold too */
} check_ctx;

static bool row_valid(const check_ctx *c, int64_t i) { return !c->masked || c->h->valid[c->begin + i]; }

/* Copies a fixed-width result and checks validity against the input's (and `other`'s). */
static void fetch_fixed(gcol_column *col, int64_t n, void *data, uint8_t *valid) {
  assert_non_null(col);
  assert_int_equal(col->size, n);
  gcol_column_view const v = gcol_column_get_view(col);
  GCOL_TEST_OK(gcol_column_copy_to_host(v, data, valid, NULL));
  gcol_test_assert_null_count_consistent(v);
}

static void check_validity(const check_ctx *c, const uint8_t *valid, int64_t n,
                           const uint8_t *other_valid, const char *op) {
  for (int64_t i = 0; i < n; ++i) {
    bool const want = row_valid(c, i) && (other_valid == NULL || other_valid[i]);
    if ((valid[i] != 0) != want) {
      fail_msg("%s (%s): row %lld validity %d, want %d", op, c->what, (long long)i, valid[i], want);
    }
  }
}

static void check_attributes(const check_ctx *c, gcol_column_view v) {
  int64_t const n = v.size;
  int32_t *got = (int32_t *)malloc((size_t)(n + 1) * 4);
  uint8_t *b = (uint8_t *)malloc((size_t)(n + 1));
  uint8_t *valid = (uint8_t *)malloc((size_t)(n + 1));
  gcol_column *out = NULL;
  for (int which = 0; which < 2; ++which) {
    GCOL_TEST_OK(which == 0 ? gcol_strings_count_bytes(v, &out, NULL, NULL)
                            : gcol_strings_count_characters(v, &out, NULL, NULL));
    assert_int_equal(out->type.id, GCOL_INT32);
    fetch_fixed(out, n, got, valid);
    check_validity(c, valid, n, NULL, which == 0 ? "count_bytes" : "count_characters");
    for (int64_t i = 0; i < n; ++i) {
      if (!valid[i]) continue;
      int64_t len;
      const char *s = strings_row(c->h, c->begin + i, &len);
      int64_t const want = which == 0 ? len : ref_char_count(s, len);
      if (got[i] != want) {
        fail_msg("%s (%s): row %lld is %d, want %lld", which == 0 ? "count_bytes" : "count_characters",
                 c->what, (long long)i, got[i], (long long)want);
      }
    }
    gcol_column_free(out);
    out = NULL;
  }
  for (int cls = GCOL_CHAR_DECIMAL; cls <= GCOL_CHAR_LOWER; ++cls) {
    GCOL_TEST_OK(gcol_strings_is_char_class(v, (gcol_char_class)cls, &out, NULL, NULL));
    assert_int_equal(out->type.id, GCOL_BOOL8);
    fetch_fixed(out, n, b, valid);
    check_validity(c, valid, n, NULL, "is_char_class");
    for (int64_t i = 0; i < n; ++i) {
      if (!valid[i]) continue;
      int64_t len;
      const char *s = strings_row(c->h, c->begin + i, &len);
      if (b[i] != (uint8_t)ref_is_class(s, len, (gcol_char_class)cls)) {
        fail_msg("is_char_class %d (%s): row %lld is %d", cls, c->what, (long long)i, b[i]);
      }
    }
    gcol_column_free(out);
    out = NULL;
  }
  free(got);
  free(b);
  free(valid);
}

static void check_case(const check_ctx *c, gcol_column_view v) {
  int64_t const n = v.size;
  for (int op = GCOL_CASE_UPPER; op <= GCOL_CASE_TITLE; ++op) {
    gcol_column *out = NULL;
    gcol_host_strings *hs = NULL;
    int64_t const previous = gcol_set_large_offsets_threshold(c->wide ? 1 : INT32_MAX);
    gcol_status const st = gcol_strings_convert_case(v, (gcol_case_op)op, &out, NULL, NULL);
    gcol_set_large_offsets_threshold(previous);
    GCOL_TEST_OK(st);
    assert_int_equal(out->type.id, GCOL_STRING);
    if (n > 0) {
      int64_t total = 0;
      for (int64_t i = 0; i < n; ++i) {
        int64_t len;
        const char *s = strings_row(c->h, c->begin + i, &len);
        if (row_valid(c, i)) total += ref_convert_case(s, len, (gcol_case_op)op, NULL);
      }
      if (total > 1) {
        assert_int_equal(out->children[0]->type.id, c->wide ? GCOL_INT64 : GCOL_INT32);
      }
    }
    assert_int_equal(out->size, n);
    gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
    for (int64_t i = 0; i < n; ++i) {
      if ((hs->valid[i] != 0) != row_valid(c, i)) {
        fail_msg("convert_case %d (%s): row %lld validity %d", op, c->what, (long long)i,
                 hs->valid[i]);
      }
      if (!hs->valid[i]) continue;
      int64_t len;
      const char *s = strings_row(c->h, c->begin + i, &len);
      char *want = (char *)malloc((size_t)(3 * len + 1));
      int64_t const wn = ref_convert_case(s, len, (gcol_case_op)op, want);
      int64_t const gn = hs->offsets[i + 1] - hs->offsets[i];
      if (gn != wn || memcmp(hs->chars + hs->offsets[i], want, (size_t)wn) != 0) {
        fail_msg("convert_case %d (%s): row %lld has %lld bytes, want %lld", op, c->what,
                 (long long)i, (long long)gn, (long long)wn);
      }
      free(want);
    }
    gcol_host_strings_free(hs);
    gcol_column_free(out);
  }
}

/* The scalar targets: fixed ones and one cut from the first non-empty valid row. */
static int64_t scalar_targets(const check_ctx *c, int64_t n, char targets[][64], int64_t *sizes) {
  static const char *const fixed[] = {"", "a", "ab", "\xc3\xa9", "\xf4\x8f\xbf\xbf", "e\xe2\x82",
                                      "\x80"};
  int64_t count = 0;
  for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; ++k) {
    sizes[count] = (int64_t)strlen(fixed[k]);
    memcpy(targets[count], fixed[k], (size_t)sizes[count]);
    ++count;
  }
  memcpy(targets[count], "\0", 1);
  sizes[count++] = 1;
  for (int64_t i = 0; i < n; ++i) {
    int64_t len;
    const char *s = strings_row(c->h, c->begin + i, &len);
    if (row_valid(c, i) && len > 2) {
      int64_t const take = len - 1 < 20 ? len - 1 : 20;
      memcpy(targets[count], s + 1, (size_t)take);
      sizes[count++] = take;
      break;
    }
  }
  return count;
}

/* want for one search op on row i and target t. */
static int64_t search_want(int op, const char *s, int64_t len, const char *t, int64_t tn,
                           int64_t start, int64_t stop) {
  switch (op) {
    case 0: return ref_find(s, len, t, tn, start, stop, false);
    case 1: return ref_find(s, len, t, tn, start, stop, true);
    case 2: return ref_contains(s, len, t, tn);
    case 3: return ref_starts_with(s, len, t, tn);
    case 4: return ref_ends_with(s, len, t, tn);
    default: return ref_count(s, len, t, tn);
  }
}

static const char *const search_names[] = {"find", "rfind", "contains", "starts_with", "ends_with",
                                           "count_matches"};

static gcol_status run_scalar_search(int op, gcol_column_view v, const gcol_scalar *t,
                                     int64_t start, int64_t stop, gcol_column **out) {
  switch (op) {
    case 0: return gcol_strings_find(v, t, start, stop, out, NULL, NULL);
    case 1: return gcol_strings_rfind(v, t, start, stop, out, NULL, NULL);
    case 2: return gcol_strings_contains(v, t, out, NULL, NULL);
    case 3: return gcol_strings_starts_with(v, t, out, NULL, NULL);
    case 4: return gcol_strings_ends_with(v, t, out, NULL, NULL);
    default: return gcol_strings_count_matches(v, t, out, NULL, NULL);
  }
}

static gcol_status run_column_search(int op, gcol_column_view v, gcol_column_view t,
                                     int64_t start, int64_t stop, gcol_column **out) {
  switch (op) {
    case 0: return gcol_strings_find_column(v, t, start, stop, out, NULL, NULL);
    case 1: return gcol_strings_rfind_column(v, t, start, stop, out, NULL, NULL);
    case 2: return gcol_strings_contains_column(v, t, out, NULL, NULL);
    case 3: return gcol_strings_starts_with_column(v, t, out, NULL, NULL);
    case 4: return gcol_strings_ends_with_column(v, t, out, NULL, NULL);
    default: return gcol_strings_count_matches_column(v, t, out, NULL, NULL);
  }
}

/* Compares a search result (INT32 for find/rfind/count, BOOL8 otherwise). */
static void compare_search(const check_ctx *c, int op, gcol_column *out, int64_t n,
                           const host_strings *per_row, const char *t, int64_t tn, int64_t start,
                           int64_t stop) {
  bool const ints = op == 0 || op == 1 || op == 5;
  void *data = malloc((size_t)(n + 1) * 4);
  uint8_t *valid = (uint8_t *)malloc((size_t)(n + 1));
  assert_int_equal(out->type.id, ints ? GCOL_INT32 : GCOL_BOOL8);
  fetch_fixed(out, n, data, valid);
  check_validity(c, valid, n, per_row != NULL ? per_row->valid : NULL, search_names[op]);
  for (int64_t i = 0; i < n; ++i) {
    if (!valid[i]) continue;
    int64_t len;
    const char *s = strings_row(c->h, c->begin + i, &len);
    if (per_row != NULL) t = strings_row(per_row, i, &tn);
    int64_t const want = search_want(op, s, len, t, tn, start, stop);
    int64_t const got = ints ? ((int32_t *)data)[i] : ((uint8_t *)data)[i];
    if (got != want) {
      fail_msg("%s%s (%s, start %lld, stop %lld, %lld target bytes): row %lld is %lld, want %lld",
               search_names[op], per_row != NULL ? "_column" : "", c->what, (long long)start,
               (long long)stop, (long long)tn, (long long)i, (long long)got, (long long)want);
    }
  }
  free(data);
  free(valid);
}

static void check_search(const check_ctx *c, gcol_column_view v, gcol_test_rng *rng) {
  int64_t const n = v.size;
  char targets[16][64];
  int64_t sizes[16];
  int64_t const count = scalar_targets(c, n, targets, sizes);
  static const int64_t bounds[][2] = {{0, -1}, {1, -1}, {2, 5}, {3, 3}, {40, -1}};
  for (int64_t k = 0; k < count; ++k) {
    gcol_scalar *t = NULL;
    GCOL_TEST_OK(gcol_scalar_create_string(targets[k], sizes[k], &t));
    for (int op = 0; op < 6; ++op) {
      /* every (start, stop) for "", "a" and the target cut from a row; the rest at (0, -1) */
      int const nb = op <= 1 && (k < 2 || k == count - 1) ? 5 : 1;
      for (int b = 0; b < nb; ++b) {
        gcol_column *out = NULL;
        GCOL_TEST_OK(run_scalar_search(op, v, t, bounds[b][0], bounds[b][1], &out));
        compare_search(c, op, out, n, NULL, targets[k], sizes[k], bounds[b][0], bounds[b][1]);
        gcol_column_free(out);
      }
    }
    gcol_scalar_free(t);
  }
  /* one target per row: half cut from the row itself, the rest random, own nulls */
  host_strings per_row = make_strings(rng, n, CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS);
  {
    host_strings cut;
    int64_t cap = 1024;
    cut.n = 0;
    cut.chars = (char *)malloc((size_t)cap);
    cut.offsets = (int64_t *)calloc((size_t)(n + 1), sizeof(int64_t));
    cut.valid = per_row.valid;
    for (int64_t i = 0; i < n; ++i) {
      int64_t len, tl;
      const char *s = strings_row(c->h, c->begin + i, &len);
      const char *r = strings_row(&per_row, i, &tl);
      cut.n = i;
      cut.offsets[i + 1] = cut.offsets[i];
      if (i % 2 == 0 && len > 0) {
        int64_t const a = gcol_test_rng_range(rng, 0, len);
        int64_t const e = gcol_test_rng_range(rng, a, len < a + 8 ? len : a + 8);
        strings_append(&cut, &cap, s + a, (size_t)(e - a));
      } else {
        strings_append(&cut, &cap, r, (size_t)(tl < 6 ? tl : 6));
      }
    }
    cut.n = n;
    free(per_row.chars);
    free(per_row.offsets);
    per_row.chars = cut.chars;
    per_row.offsets = cut.offsets;
  }
  gcol_column *tcol = strings_to_device(&per_row, false, true);
  for (int op = 0; op < 6; ++op) {
    gcol_column *out = NULL;
    GCOL_TEST_OK(run_column_search(op, v, gcol_column_get_view(tcol), 1, -1, &out));
    compare_search(c, op, out, n, &per_row, NULL, 0, 1, -1);
    gcol_column_free(out);
  }
  gcol_column_free(tcol);
  strings_free(&per_row);
}

static void check_like(const check_ctx *c, gcol_column_view v) {
  static const char *const patterns[] = {"%", "", "a%", "%a", "%\xc3\xa9%", "_", "__%", "a_b%",
                                         "%!%%", "%\xf4\x8f\xbf\xbf", "%_a_%", "!!%"};
  int64_t const n = v.size;
  uint8_t *got = (uint8_t *)malloc((size_t)(n + 1));
  uint8_t *valid = (uint8_t *)malloc((size_t)(n + 1));
  for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; ++k) {
    gcol_scalar *p = NULL;
    gcol_column *out = NULL;
    GCOL_TEST_OK(gcol_scalar_create_cstring(patterns[k], &p));
    GCOL_TEST_OK(gcol_strings_like(v, p, "!", &out, NULL, NULL));
    assert_int_equal(out->type.id, GCOL_BOOL8);
    fetch_fixed(out, n, got, valid);
    check_validity(c, valid, n, NULL, "like");
    for (int64_t i = 0; i < n; ++i) {
      if (!valid[i]) continue;
      int64_t len;
      const char *s = strings_row(c->h, c->begin + i, &len);
      int const want = ref_like(s, len, patterns[k], (int64_t)strlen(patterns[k]), "!");
      if (got[i] != want) {
        fail_msg("like \"%s\" (%s): row %lld is %d, want %d", patterns[k], c->what, (long long)i,
                 got[i], want);
      }
    }
    gcol_column_free(out);
    gcol_scalar_free(p);
  }
  free(got);
  free(valid);
}

/* Every operation on rows [begin, begin + size) of `view`, which are rows
 * [h_begin, h_begin + size) of h. */
static void check_all(const host_strings *h, gcol_column_view view, int64_t begin, int64_t size,
                      int64_t h_begin, bool masked, const char *what, gcol_test_rng *rng) {
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_view_slice(view, begin, begin + size, &v));
  check_ctx c = {h, h_begin, masked, what,
                 size > 0 && view.children[0].type.id == GCOL_INT64};
  check_attributes(&c, v);
  check_case(&c, v);
  check_search(&c, v, rng);
  check_like(&c, v);
}

/* ---------------------------------------------------------------- tests */

static void run_dataset(gcol_test_rng *rng, int64_t n, content kind, gcol_test_validity validity,
                        int64_t begin, bool wide, const char *what) {
  host_strings h = make_strings(rng, n + begin + 2, kind, validity);
  bool const masked = validity != GCOL_TEST_NO_MASK;
  gcol_column *col = strings_to_device(&h, wide, masked);
  char name[160];
  snprintf(name, sizeof name, "%s, %lld rows from %lld, %s, %s offsets", what, (long long)n,
           (long long)begin, gcol_test_validity_name(validity), wide ? "INT64" : "INT32");
  check_all(&h, gcol_column_get_view(col), begin, n, begin, masked, name, rng);
  gcol_column_free(col);
  strings_free(&h);
}

static void test_sizes(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1210);
  static const int64_t sizes[] = {0, 1, 2, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257};
  size_t const count = sizeof sizes / sizeof sizes[0];
  for (size_t k = 0; k < count; ++k) {
    if (!gcol_test_in_sparse_part(state, k)) continue; /* halved under the tools */
    run_dataset(&rng, sizes[k], CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS, 0, false, "mixed");
    run_dataset(&rng, sizes[k], CONTENT_ASCII, GCOL_TEST_NO_MASK, 0, false, "ascii");
  }
  if (gcol_test_in_part(state, count)) {
    run_dataset(&rng, gcol_test_cap(3001), CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS, 0, false,
                "mixed");
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
      run_dataset(&rng, 129, (b % 2) ? CONTENT_ASCII : CONTENT_MIXED, (gcol_test_validity)v,
                  begins[b], wide, (b % 2) ? "ascii" : "mixed");
    }
  }
}

static void test_slices_validity(void **state) { run_slices_validity(state, 1211, false); }

static void test_slices_validity_int64_offsets(void **state) {
  run_slices_validity(state, 1216, true);
}

static void test_special_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1212);
  /* "" vs null vs "\0", U+10FFFF alone, invalid bytes alone */
  const char *const rows[] = {"", NULL, "\0", "\xf4\x8f\xbf\xbf", "\x80", "a", "\xc3\xa9", ""};
  int64_t const lens[] = {0, 0, 1, 4, 1, 1, 2, 0};
  host_strings h;
  h.n = 8;
  h.chars = (char *)malloc(16);
  h.offsets = (int64_t *)calloc(9, sizeof(int64_t));
  h.valid = (uint8_t *)malloc(8);
  for (int64_t i = 0; i < 8; ++i) {
    h.valid[i] = rows[i] != NULL;
    if (rows[i] != NULL) memcpy(h.chars + h.offsets[i], rows[i], (size_t)lens[i]);
    h.offsets[i + 1] = h.offsets[i] + lens[i];
  }
  for (int wide = 0; wide < 2; ++wide) {
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    gcol_column_view slice;
    check_all(&h, gcol_column_get_view(col), 0, 8, 0, true, "special rows", &rng);
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 2, 7, &slice));
    check_all(&h, slice, 1, 3, 3, true, "slice of a slice", &rng); /* rows 3..5 of h */
    check_all(&h, gcol_column_get_view(col), 8, 0, 8, true, "zero-length slice at the end", &rng);
    gcol_column_free(col);
  }
  strings_free(&h);
  /* all empty, all null, many 1-byte rows */
  run_dataset(&rng, 300, CONTENT_ONE_BYTE, GCOL_TEST_ALL_NULL, 5, false, "all null");
  run_dataset(&rng, gcol_test_cap(5000), CONTENT_ONE_BYTE, GCOL_TEST_RANDOM_NULLS, 7, true,
              "one byte");
  host_strings all_empty;
  all_empty.n = 100;
  all_empty.chars = (char *)malloc(1);
  all_empty.offsets = (int64_t *)calloc(101, sizeof(int64_t));
  all_empty.valid = (uint8_t *)malloc(100);
  gcol_test_fill_valid(&rng, GCOL_TEST_RANDOM_NULLS, all_empty.valid, 100);
  gcol_column *col = strings_to_device(&all_empty, false, true);
  check_all(&all_empty, gcol_column_get_view(col), 3, 90, 3, true, "all empty", &rng);
  gcol_column_free(col);
  strings_free(&all_empty);
}

static void test_long_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1213);
  /* averages over 64 bytes: contains takes the warp per string */
  run_dataset(&rng, gcol_test_cap(700), CONTENT_LONG, GCOL_TEST_RANDOM_NULLS, 3, false, "long");
  run_dataset(&rng, gcol_test_cap(700), CONTENT_LONG, GCOL_TEST_NO_MASK, 0, true, "long");
  /* rows over 64 KiB (every fifth): under the sanitizers one such row, in the first dataset
   * only (INT64 offsets have their short-row datasets there): one thread walks each, and
   * under memcheck that holds the whole GPU for tens of seconds a call */
  int64_t const huge_n = gcol_test_if_sparse(12, 2);
  run_dataset(&rng, huge_n, CONTENT_HUGE, GCOL_TEST_RANDOM_NULLS, 1, false, "over 64 KiB");
  if (gcol_test_keep_combination(1)) {
    run_dataset(&rng, huge_n, CONTENT_HUGE, GCOL_TEST_NO_MASK, 0, true, "over 64 KiB");
  }
}

/* A long-row column where the target sits at the very end, or is absent, so the warp
 * kernel's last window and its bounds matter. */
static void test_contains_warp_edges(void **state) {
  (void)state;
  int64_t const n = 40;
  host_strings h;
  int64_t cap = 1 << 16;
  h.n = 0;
  h.chars = (char *)malloc((size_t)cap);
  h.offsets = (int64_t *)calloc((size_t)(n + 1), sizeof(int64_t));
  h.valid = (uint8_t *)malloc((size_t)n);
  for (int64_t i = 0; i < n; ++i) {
    h.valid[i] = 1;
    h.n = i;
    h.offsets[i + 1] = h.offsets[i];
    for (int64_t k = 0; k < 60 + i * 7; ++k) strings_append(&h, &cap, "x", 1);
    if (i % 3 == 0) strings_append(&h, &cap, "needle", 6);
    if (i % 3 == 1) strings_append(&h, &cap, "needl", 5);
  }
  h.n = n;
  gcol_column *col = strings_to_device(&h, false, false);
  gcol_scalar *t = NULL;
  gcol_column *out = NULL;
  uint8_t got[40], valid[40];
  GCOL_TEST_OK(gcol_scalar_create_cstring("needle", &t));
  GCOL_TEST_OK(gcol_strings_contains(gcol_column_get_view(col), t, &out, NULL, NULL));
  fetch_fixed(out, n, got, valid);
  for (int64_t i = 0; i < n; ++i) assert_int_equal(got[i], i % 3 == 0);
  gcol_column_free(out);
  gcol_scalar_free(t);
  gcol_column_free(col);
  strings_free(&h);
}

/* contains of one target where most bytes are candidates: more than a tile's candidate list
 * holds (the rest are judged where found), with "aa" split across rows ("xa" | "ab"), null
 * rows holding matches, INT32 and INT64 offsets, the whole column and a slice. */
static void test_contains_many_candidates(void **state) {
  (void)state;
  int64_t const n = 10000;
  host_strings h;
  int64_t cap = 1024;
  h.n = 0;
  h.chars = (char *)malloc((size_t)cap);
  h.offsets = (int64_t *)calloc((size_t)(n + 1), sizeof(int64_t));
  h.valid = (uint8_t *)malloc((size_t)n);
  static const char *const kinds[] = {"xa", "ab", "aaaaaaaaaa"};
  for (int64_t i = 0; i < n; ++i) {
    h.n = i;
    h.offsets[i + 1] = h.offsets[i];
    strings_append(&h, &cap, kinds[i % 3], strlen(kinds[i % 3]));
    h.valid[i] = i % 7 != 0;
  }
  h.n = n;
  gcol_scalar *t = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring("aa", &t));
  uint8_t *got = (uint8_t *)malloc((size_t)n), *valid = (uint8_t *)malloc((size_t)n);
  for (int wide = 0; wide < 2; ++wide) {
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    for (int sliced = 0; sliced < 2; ++sliced) {
      int64_t const first = sliced ? 1001 : 0, count = sliced ? 7000 : n;
      gcol_column_view v = gcol_column_get_view(col);
      if (sliced) GCOL_TEST_OK(gcol_column_view_slice(v, first, first + count, &v));
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_strings_contains(v, t, &out, NULL, NULL));
      fetch_fixed(out, count, got, valid);
      for (int64_t i = 0; i < count; ++i) {
        int64_t const r = first + i;
        assert_int_equal(valid[i], h.valid[r]);
        if (got[i] != (h.valid[r] && r % 3 == 2)) {
          fail_msg("row %lld (%s, sliced %d): got %d", (long long)r, wide ? "INT64" : "INT32",
                   sliced, (int)got[i]);
        }
      }
      gcol_column_free(out);
    }
    gcol_column_free(col);
  }
  free(got);
  free(valid);
  gcol_scalar_free(t);
  strings_free(&h);
}

/* contains of one target scans the chars, not the rows: a target split across two rows
 * ("q" | "z"), one ending a row exactly, one in the bytes of a null row, one in the rows
 * before a slice's first or after its last, over INT32 and INT64 offsets. */
static void test_contains_chars_edges(void **state) {
  (void)state;
  static const char *const rows[] = {"qz",  "aq",     "zb",  "q", "z", "",  "xxqz",
                                     "qzq", "nullqz", "qqz", "q", "",  "z", "abc"};
  static const bool want[] = {1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0};
  int64_t const n = (int64_t)(sizeof rows / sizeof rows[0]);
  host_strings h;
  int64_t cap = 256;
  h.n = 0;
  h.chars = (char *)malloc((size_t)cap);
  h.offsets = (int64_t *)calloc((size_t)(n + 1), sizeof(int64_t));
  h.valid = (uint8_t *)malloc((size_t)n);
  for (int64_t i = 0; i < n; ++i) {
    h.n = i;
    h.offsets[i + 1] = h.offsets[i];
    strings_append(&h, &cap, rows[i], (int64_t)strlen(rows[i]));
    h.valid[i] = strncmp(rows[i], "null", 4) != 0; /* a null row that keeps its bytes */
  }
  h.n = n;
  gcol_scalar *t = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring("qz", &t));
  for (int wide = 0; wide < 2; ++wide) {
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    /* the whole column, then rows 1..12 (row 0's "qz" lies before the slice's chars) */
    for (int sliced = 0; sliced < 2; ++sliced) {
      int64_t const first = sliced ? 1 : 0, count = sliced ? 12 : n;
      gcol_column_view v = gcol_column_get_view(col);
      if (sliced) GCOL_TEST_OK(gcol_column_view_slice(v, first, first + count, &v));
      gcol_column *out = NULL;
      uint8_t got[16], valid[16];
      GCOL_TEST_OK(gcol_strings_contains(v, t, &out, NULL, NULL));
      fetch_fixed(out, count, got, valid);
      for (int64_t i = 0; i < count; ++i) {
        assert_int_equal(valid[i], h.valid[first + i]);
        assert_int_equal(got[i], valid[i] ? want[first + i] : 0); /* null rows hold 0 */
      }
      gcol_column_free(out);
    }
    gcol_column_free(col);
  }
  gcol_scalar_free(t);
  /* targets of 64 bytes (the most that travel by value) and longer (through the device) */
  static const int64_t sizes[] = {63, 64, 65, 100};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    char target[101], row[104];
    int64_t const tn = sizes[k];
    for (int64_t b = 0; b < tn; ++b) target[b] = (char)('a' + (b * 7) % 26);
    target[tn] = '\0';
    host_strings hk;
    int64_t kcap = 512;
    hk.n = 0;
    hk.chars = (char *)malloc((size_t)kcap);
    hk.offsets = (int64_t *)calloc(6, sizeof(int64_t));
    hk.valid = (uint8_t *)malloc(5);
    static const bool kwant[] = {1, 1, 0, 0, 0};
    for (int64_t r = 0; r < 5; ++r) {
      int64_t len = 0;
      if (r == 0 || r == 3) { /* the target itself (row 3 null) */
        memcpy(row, target, (size_t)tn);
        len = tn;
      } else if (r == 1) { /* inside a longer row */
        row[0] = 'x';
        memcpy(row + 1, target, (size_t)tn);
        row[tn + 1] = 'y';
        len = tn + 2;
      } else if (r == 2) { /* all but its last byte */
        memcpy(row, target, (size_t)(tn - 1));
        len = tn - 1;
      }
      hk.n = r;
      hk.offsets[r + 1] = hk.offsets[r];
      strings_append(&hk, &kcap, row, len);
      hk.valid[r] = r != 3;
    }
    hk.n = 5;
    GCOL_TEST_OK(gcol_scalar_create_cstring(target, &t));
    gcol_column *col = strings_to_device(&hk, k % 2 == 1, true);
    gcol_column *out = NULL;
    uint8_t got[5], valid[5];
    GCOL_TEST_OK(gcol_strings_contains(gcol_column_get_view(col), t, &out, NULL, NULL));
    fetch_fixed(out, 5, got, valid);
    for (int64_t r = 0; r < 5; ++r) {
      assert_int_equal(valid[r], hk.valid[r]);
      if (got[r] != (valid[r] ? kwant[r] : 0)) {
        fail_msg("target of %lld bytes, row %lld: got %d", (long long)tn, (long long)r,
                 (int)got[r]);
      }
    }
    gcol_column_free(out);
    gcol_column_free(col);
    gcol_scalar_free(t);
    strings_free(&hk);
  }
  strings_free(&h);
}

/* find/rfind on rows averaging over 64 bytes (the warp per string): 2-, 3- and 4-byte
 * characters and invalid bytes straddling the 32-byte windows, targets at window edges, and
 * (start, stop) around them; every row against the reference. */
static void test_find_warp_edges(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1217);
  int64_t const n = 64;
  static const char *const fill[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf4\x8f\xbf\xbf", "a", "\x80",
                                     "\xe2\x82"};
  host_strings h;
  int64_t cap = 1 << 12;
  h.n = 0;
  h.chars = (char *)malloc((size_t)cap);
  h.offsets = (int64_t *)calloc((size_t)(n + 1), sizeof(int64_t));
  h.valid = (uint8_t *)malloc((size_t)n);
  gcol_test_fill_valid(&rng, GCOL_TEST_RANDOM_NULLS, h.valid, n);
  for (int64_t i = 0; i < n; ++i) {
    h.n = i;
    h.offsets[i + 1] = h.offsets[i];
    int64_t const lead = i % 40;
    for (int64_t k = 0; k < lead; ++k) strings_append(&h, &cap, fill[(i + k) % 6], strlen(fill[(i + k) % 6]));
    strings_append(&h, &cap, "x\xc3\xa9", 3);
    for (int64_t k = 0; k < 30 + i % 7; ++k) strings_append(&h, &cap, fill[(i * 7 + k) % 6], strlen(fill[(i * 7 + k) % 6]));
    strings_append(&h, &cap, "x", 1);
  }
  h.n = n;
  for (int wide = 0; wide < 2; ++wide) {
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    gcol_column_view v;
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 1, n, &v));
    check_ctx c = {&h, 1, true, "find warp edges", wide != 0};
    static const char *const targets[] = {"x", "\xc3\xa9", "", "\x80", "x\xc3\xa9", "\xbf"};
    static const int64_t starts[] = {0, 1, 31, 32, 33, 45, 90};
    static const int64_t stops[] = {-1, 0, 31, 32, 33, 46, 100};
    for (size_t k = 0; k < sizeof targets / sizeof targets[0]; ++k) {
      gcol_scalar *t = NULL;
      GCOL_TEST_OK(gcol_scalar_create_cstring(targets[k], &t));
      for (size_t a = 0; a < sizeof starts / sizeof starts[0]; ++a) {
        for (size_t b = 0; b < sizeof stops / sizeof stops[0]; ++b) {
          if (!gcol_test_keep_combination(k + a + b)) continue;
          for (int op = 0; op < 2; ++op) {
            gcol_column *out = NULL;
            GCOL_TEST_OK(run_scalar_search(op, v, t, starts[a], stops[b], &out));
            compare_search(&c, op, out, n - 1, NULL, targets[k], (int64_t)strlen(targets[k]),
                           starts[a], stops[b]);
            gcol_column_free(out);
          }
        }
      }
      gcol_scalar_free(t);
    }
    gcol_column_free(col);
  }
  strings_free(&h);
}

/* A row longer than INT32_MAX bytes (INT64 offsets) cannot have an INT32 length or position:
 * overflow, nothing leaked. The offsets claim 3e9 bytes over a 64-byte chars buffer; the
 * check reads only the offsets and fails before any kernel reads the chars. */
static void test_int32_overflow(void **state) {
  (void)state;
  int64_t const offsets[3] = {0, 10, 3000000000LL};
  gcol_column *offs = NULL;
  gcol_buffer *chars = NULL;
  gcol_scalar *t = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 3, offsets, NULL,
                                            NULL, NULL, &offs));
  GCOL_TEST_OK(gcol_buffer_create(64, NULL, NULL, &chars));
  gcol_column_view const ov = gcol_column_get_view(offs);
  gcol_column_view v = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 2, chars->data,
                                             NULL, 0);
  v.children = &ov;
  v.num_children = 1;
  GCOL_TEST_OK(gcol_scalar_create_cstring("a", &t));
  int64_t const live = gcol_test_live_bytes();
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_count_bytes(v, &out, NULL, NULL), GCOL_ERROR_OVERFLOW);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_count_characters(v, &out, NULL, NULL), GCOL_ERROR_OVERFLOW);
  GCOL_TEST_STATUS(gcol_strings_find(v, t, 0, -1, &out, NULL, NULL), GCOL_ERROR_OVERFLOW);
  GCOL_TEST_STATUS(gcol_strings_count_matches(v, t, &out, NULL, NULL), GCOL_ERROR_OVERFLOW);
  assert_null(out);
  assert_int_equal(gcol_test_live_bytes(), live);
  /* the first row alone is fine */
  gcol_column_view first;
  GCOL_TEST_OK(gcol_column_view_slice(v, 0, 1, &first));
  GCOL_TEST_OK(gcol_strings_count_bytes(first, &out, NULL, NULL));
  int32_t len = 0;
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), &len, NULL, NULL));
  assert_int_equal(len, 10);
  gcol_column_free(out);
  gcol_scalar_free(t);
  gcol_buffer_free(chars);
  gcol_column_free(offs);
}

/* ---------------------------------------------------------------- faults */

typedef struct fault_ctx {
  gcol_column_view input;
  gcol_column_view targets;
  gcol_scalar *target;
  int op;
  gcol_column *out;
} fault_ctx;

static gcol_status fault_op(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  c->out = NULL;
  switch (c->op) {
    case 0: return gcol_strings_count_characters(c->input, &c->out, NULL, NULL);
    case 1: return gcol_strings_is_char_class(c->input, GCOL_CHAR_ALPHA, &c->out, NULL, NULL);
    case 2: return gcol_strings_convert_case(c->input, GCOL_CASE_UPPER, &c->out, NULL, NULL);
    case 3: return gcol_strings_convert_case(c->input, GCOL_CASE_TITLE, &c->out, NULL, NULL);
    case 4: return gcol_strings_find(c->input, c->target, 1, -1, &c->out, NULL, NULL);
    case 5: return gcol_strings_contains(c->input, c->target, &c->out, NULL, NULL);
    case 6: return gcol_strings_count_matches_column(c->input, c->targets, &c->out, NULL, NULL);
    default: return gcol_strings_like(c->input, c->target, "!", &c->out, NULL, NULL);
  }
}

static void fault_cleanup(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column_free(c->out);
  c->out = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1214);
  for (int kind = 0; kind < 3; ++kind) {
    content const k = kind == 0 ? CONTENT_MIXED : (kind == 1 ? CONTENT_ASCII : CONTENT_LONG);
    host_strings h = make_strings(&rng, 200, k, GCOL_TEST_RANDOM_NULLS);
    host_strings t = make_strings(&rng, 200, CONTENT_ASCII, GCOL_TEST_RANDOM_NULLS);
    gcol_column *col = strings_to_device(&h, kind == 1, true);
    gcol_column *tcol = strings_to_device(&t, false, true);
    fault_ctx c;
    memset(&c, 0, sizeof c);
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 197, &c.input));
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(tcol), 1, 195, &c.targets));
    GCOL_TEST_OK(gcol_scalar_create_cstring("a%", &c.target));
    for (c.op = 0; c.op < 8; ++c.op) {
      assert_true(gcol_test_check_allocation_failures(fault_op, fault_cleanup, &c) > 0);
    }
    gcol_scalar_free(c.target);
    gcol_column_free(col);
    gcol_column_free(tcol);
    strings_free(&h);
    strings_free(&t);
  }
}

static void test_bad_input(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1215);
  host_strings h = make_strings(&rng, 10, CONTENT_ASCII, GCOL_TEST_NO_MASK);
  gcol_column *col = strings_to_device(&h, false, false);
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_scalar *p = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring("ab!c", &p));
  int64_t const live = gcol_test_live_bytes();
  GCOL_TEST_STATUS(gcol_strings_like(gcol_column_get_view(col), p, "!", &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_int_equal(gcol_test_live_bytes(), live);
  /* the next valid call works */
  GCOL_TEST_OK(gcol_strings_like(gcol_column_get_view(col), p, NULL, &out, NULL, NULL));
  gcol_column_free(out);
  gcol_scalar_free(p);
  gcol_column_free(col);
  strings_free(&h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_sizes, 0, 2),
      GCOL_TEST_GPU_PART(test_sizes, 1, 2),
      GCOL_TEST_GPU_PART(test_slices_validity, 0, 2),
      GCOL_TEST_GPU_PART(test_slices_validity, 1, 2),
      GCOL_TEST_GPU_PART(test_slices_validity_int64_offsets, 0, 2),
      GCOL_TEST_GPU_PART(test_slices_validity_int64_offsets, 1, 2),
      GCOL_TEST_GPU(test_special_rows),
      GCOL_TEST_GPU(test_long_rows),
      GCOL_TEST_GPU(test_contains_warp_edges),
      GCOL_TEST_GPU(test_contains_chars_edges),
      GCOL_TEST_GPU(test_contains_many_candidates),
      GCOL_TEST_GPU(test_find_warp_edges),
      GCOL_TEST_GPU(test_int32_overflow),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_bad_input),
  };
  return GCOL_TEST_RUN_GPU("strings", tests);
}
