/*
 * GPU tests of the strings edits (include/gcol/strings/edit.h): every operation against the
 * references of strings_reference.c on TESTING.md's strings axes: sizes, slices whose first
 * offset is not 0 (a slice of a slice, a zero-length slice at the end), every validity
 * pattern, "" vs null vs "\0", 1- to 4-byte characters incl. U+10FFFF, whitespace and
 * invalid bytes, rows longer than 64 KiB, INT64 offsets forced (input and output) by
 * gcol_set_large_offsets_threshold(), sliced per-row argument columns with nulls; outputs
 * too large to address (overflow, nothing leaked); allocation failure at every point.
 */
#include "test_util.h"

#include "gcol/strings/edit.h"
#include "strings_reference.h"
#include "strings_test_data.h"

/* ---------------------------------------------------------------- host data */

typedef enum content {
  CONTENT_MIXED = 0, /* every kind of character, whitespace, signs, invalid bytes: 0..40 bytes */
  CONTENT_ONE_BYTE,  /* rows of 0 or 1 byte */
  CONTENT_HUGE       /* every fifth row over 64 KiB */
} content;

static const char *const pieces[] = {"a",
                                     "b",
                                     "ab",
                                     "x",
                                     "-",
                                     "+",
                                     "0",
                                     " ",
                                     "\t",
                                     "\0",
                                     "\xc2\xa0",
                                     "\xe3\x80\x80",
                                     "\xc3\xa9",
                                     "\xe2\x82\xac",
                                     "\xe4\xba\x8c",
                                     "\xf4\x8f\xbf\xbf",
                                     "\xf0\x90\x90\xa8",
                                     "\x80",
                                     "\xe2\x82",
                                     "\xc0\xaf",
                                     "\xff"};
#define NUM_PIECES ((int64_t)(sizeof pieces / sizeof pieces[0]))

static host_strings make_strings(gcol_test_rng *rng, int64_t n, content kind,
                                 gcol_test_validity validity) {
  strings_recipe const recipe = {pieces, NUM_PIECES, 0, 40, kind == CONTENT_HUGE ? 5 : 0,
                                 kind == CONTENT_ONE_BYTE, false};
  return strings_random(rng, n, &recipe, validity);
}

/* ---------------------------------------------------------------- the operations */

typedef enum op_kind {
  OP_REPLACE = 0,
  OP_REPLACE_MULTIPLE,
  OP_SLICE,
  OP_SLICE_COLUMN,
  OP_STRIP,
  OP_PAD,
  OP_ZFILL,
  OP_REPEAT,
  OP_REPEAT_COLUMN,
  OP_REVERSE
} op_kind;

/* One call: the operation and its arguments (a, b, c: replace max_count; slice start,
 * stop, step; strip and pad side in b; pad/zfill width in a, fill in c; repeat count). */
typedef struct edit_call {
  op_kind op;
  const char *str1; /* replace target; strip set (NULL: whitespace) */
  const char *str2; /* replace replacement */
  int64_t a, b, c;
  const char *what;
} edit_call;

static const edit_call calls[] = {
    {OP_REPLACE, "a", "\xf4\x8f\xbf\xbf", -1, 0, 0, "replace a"},
    {OP_REPLACE, "", "-", 2, 0, 0, "replace empty target"},
    {OP_REPLACE, "\xc3\xa9", "", 1, 0, 0, "replace once"},
    {OP_REPLACE_MULTIPLE, NULL, NULL, 0, 0, 0, "replace_multiple"},
    {OP_SLICE, NULL, NULL, 1, 4, GCOL_SLICE_NONE, "slice 1:4"},
    {OP_SLICE, NULL, NULL, GCOL_SLICE_NONE, GCOL_SLICE_NONE, -1, "slice ::-1"},
    {OP_SLICE, NULL, NULL, -3, GCOL_SLICE_NONE, 2, "slice -3::2"},
    {OP_SLICE, NULL, NULL, 9, 1, -3, "slice 9:1:-3"},
    {OP_SLICE_COLUMN, NULL, NULL, 0, 0, 1, "slice_column"},
    {OP_SLICE_COLUMN, NULL, NULL, 0, 0, -2, "slice_column step -2"},
    {OP_STRIP, NULL, NULL, 0, GCOL_SIDE_BOTH, 0, "strip"},
    {OP_STRIP, "a\xc3\xa9\xf4\x8f\xbf\xbf", NULL, 0, GCOL_SIDE_LEFT, 0, "lstrip set"},
    {OP_STRIP, NULL, NULL, 0, GCOL_SIDE_RIGHT, 0, "rstrip"},
    {OP_PAD, NULL, NULL, 12, GCOL_SIDE_LEFT, '*', "rjust"},
    {OP_PAD, NULL, NULL, 9, GCOL_SIDE_BOTH, 0x10FFFF, "center"},
    {OP_PAD, NULL, NULL, 30, GCOL_SIDE_RIGHT, 0xE9, "ljust"},
    {OP_ZFILL, NULL, NULL, 8, 0, 0, "zfill"},
    {OP_REPEAT, NULL, NULL, 3, 0, 0, "repeat 3"},
    {OP_REPEAT, NULL, NULL, 0, 0, 0, "repeat 0"},
    {OP_REPEAT_COLUMN, NULL, NULL, 0, 0, 0, "repeat_column"},
    {OP_REVERSE, NULL, NULL, 0, 0, 0, "reverse"},
};
#define NUM_CALLS ((int64_t)(sizeof calls / sizeof calls[0]))

/* replace_multiple's lists: the first match wins ("ab" before "a"). */
static const char *const multi_targets[] = {"ab", "a", "\xc3\xa9", "\x80"};
static const char *const multi_repls[] = {"<", "\xf4\x8f\xbf\xbf", "", "e"};
#define NUM_MULTI 4

/* Per-row arguments: starts, stops, counts (INT32, INT64, INT16), sliced to the view's
 * rows, with nulls; host copies for the reference. */
typedef struct per_row {
  gcol_column *starts, *stops, *counts, *targets, *repls;
  gcol_column_view starts_v, stops_v, counts_v;
  int32_t *start_h;
  int64_t *stop_h;
  int16_t *count_h;
  uint8_t *start_ok, *stop_ok, *count_ok;
} per_row;

#define PER_ROW_SKIP 3 /* the argument columns are views from row 3 */

static void per_row_make(gcol_test_rng *rng, int64_t n, per_row *p) {
  int64_t const m = n + PER_ROW_SKIP;
  memset(p, 0, sizeof *p);
  p->start_h = (int32_t *)malloc((size_t)m * 4 + 4);
  p->stop_h = (int64_t *)malloc((size_t)m * 8 + 8);
  p->count_h = (int16_t *)malloc((size_t)m * 2 + 2);
  p->start_ok = (uint8_t *)malloc((size_t)m + 1);
  p->stop_ok = (uint8_t *)malloc((size_t)m + 1);
  p->count_ok = (uint8_t *)malloc((size_t)m + 1);
  for (int64_t i = 0; i < m; ++i) {
    p->start_h[i] = (int32_t)gcol_test_rng_range(rng, -12, 12);
    p->stop_h[i] =
        gcol_test_rng_range(rng, 0, 9) == 0 ? GCOL_SLICE_NONE : gcol_test_rng_range(rng, -12, 40);
    p->count_h[i] = (int16_t)gcol_test_rng_range(rng, -1, 4);
  }
  gcol_test_fill_valid(rng, GCOL_TEST_RANDOM_NULLS, p->start_ok, m);
  gcol_test_fill_valid(rng, GCOL_TEST_RANDOM_NULLS, p->stop_ok, m);
  gcol_test_fill_valid(rng, GCOL_TEST_RANDOM_NULLS, p->count_ok, m);
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), m, p->start_h,
                                            p->start_ok, NULL, NULL, &p->starts));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), m, p->stop_h,
                                            p->stop_ok, NULL, NULL, &p->stops));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT16), m, p->count_h,
                                            p->count_ok, NULL, NULL, &p->counts));
  GCOL_TEST_OK(
      gcol_column_view_slice(gcol_column_get_view(p->starts), PER_ROW_SKIP, m, &p->starts_v));
  GCOL_TEST_OK(
      gcol_column_view_slice(gcol_column_get_view(p->stops), PER_ROW_SKIP, m, &p->stops_v));
  GCOL_TEST_OK(
      gcol_column_view_slice(gcol_column_get_view(p->counts), PER_ROW_SKIP, m, &p->counts_v));
  int64_t lens[NUM_MULTI], rlens[NUM_MULTI];
  for (int k = 0; k < NUM_MULTI; ++k) {
    lens[k] = (int64_t)strlen(multi_targets[k]);
    rlens[k] = (int64_t)strlen(multi_repls[k]);
  }
  host_strings t = strings_rows(multi_targets, lens, NUM_MULTI);
  host_strings r = strings_rows(multi_repls, rlens, NUM_MULTI);
  p->targets = strings_to_device(&t, false, false);
  p->repls = strings_to_device(&r, true, false);
  strings_free(&t);
  strings_free(&r);
}

static void per_row_free(per_row *p) {
  gcol_column_free(p->starts);
  gcol_column_free(p->stops);
  gcol_column_free(p->counts);
  gcol_column_free(p->targets);
  gcol_column_free(p->repls);
  free(p->start_h);
  free(p->stop_h);
  free(p->count_h);
  free(p->start_ok);
  free(p->stop_ok);
  free(p->count_ok);
}

static gcol_status run_call(const edit_call *e, gcol_column_view v, const per_row *p,
                            gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_scalar *s1 = NULL, *s2 = NULL;
  switch (e->op) {
    case OP_REPLACE:
      GCOL_TEST_OK(gcol_scalar_create_cstring(e->str1, &s1));
      GCOL_TEST_OK(gcol_scalar_create_cstring(e->str2, &s2));
      status = gcol_strings_replace(v, s1, s2, e->a, out, NULL, NULL);
      break;
    case OP_REPLACE_MULTIPLE:
      status = gcol_strings_replace_multiple(v, gcol_column_get_view(p->targets),
                                             gcol_column_get_view(p->repls), out, NULL, NULL);
      break;
    case OP_SLICE:
      status = gcol_strings_slice(v, e->a, e->b, e->c, out, NULL, NULL);
      break;
    case OP_SLICE_COLUMN:
      status = gcol_strings_slice_column(v, p->starts_v, p->stops_v, e->c, out, NULL, NULL);
      break;
    case OP_STRIP:
      if (e->str1 != NULL) GCOL_TEST_OK(gcol_scalar_create_cstring(e->str1, &s1));
      status = gcol_strings_strip(v, (gcol_strings_side)e->b, s1, out, NULL, NULL);
      break;
    case OP_PAD:
      status = gcol_strings_pad(v, e->a, (gcol_strings_side)e->b, (uint32_t)e->c, out, NULL, NULL);
      break;
    case OP_ZFILL:
      status = gcol_strings_zfill(v, e->a, out, NULL, NULL);
      break;
    case OP_REPEAT:
      status = gcol_strings_repeat(v, e->a, out, NULL, NULL);
      break;
    case OP_REPEAT_COLUMN:
      status = gcol_strings_repeat_column(v, p->counts_v, out, NULL, NULL);
      break;
    default:
      status = gcol_strings_reverse(v, out, NULL, NULL);
      break;
  }
  gcol_scalar_free(s1);
  gcol_scalar_free(s2);
  return status;
}

/* The reference of row i (view row i; argument row i of the per-row columns); NULL when
 * the output row is null beyond the input's own nulls (a null count). */
static char *reference(const edit_call *e, const per_row *p, int64_t i, const char *s, int64_t n,
                       int64_t *len) {
  int64_t const k = i + PER_ROW_SKIP;
  switch (e->op) {
    case OP_REPLACE: {
      int64_t const tn = (int64_t)strlen(e->str1), rn = (int64_t)strlen(e->str2);
      return ref_replace(s, n, &e->str1, &tn, 1, &e->str2, &rn, 1, e->a, len);
    }
    case OP_REPLACE_MULTIPLE: {
      int64_t tn[NUM_MULTI], rn[NUM_MULTI];
      for (int j = 0; j < NUM_MULTI; ++j) {
        tn[j] = (int64_t)strlen(multi_targets[j]);
        rn[j] = (int64_t)strlen(multi_repls[j]);
      }
      return ref_replace(s, n, multi_targets, tn, NUM_MULTI, multi_repls, rn, NUM_MULTI, -1, len);
    }
    case OP_SLICE:
      return ref_slice(s, n, e->a, e->b, e->c, len);
    case OP_SLICE_COLUMN:
      return ref_slice(s, n, p->start_ok[k] ? p->start_h[k] : GCOL_SLICE_NONE,
                       p->stop_ok[k] ? p->stop_h[k] : GCOL_SLICE_NONE, e->c, len);
    case OP_STRIP:
      return ref_strip(s, n, (gcol_strings_side)e->b, e->str1,
                       e->str1 != NULL ? (int64_t)strlen(e->str1) : 0, len);
    case OP_PAD:
      return ref_pad(s, n, e->a, (gcol_strings_side)e->b, (uint32_t)e->c, len);
    case OP_ZFILL:
      return ref_zfill(s, n, e->a, len);
    case OP_REPEAT:
      return ref_repeat(s, n, e->a, len);
    case OP_REPEAT_COLUMN:
      return p->count_ok[k] ? ref_repeat(s, n, p->count_h[k], len) : NULL;
    default:
      return ref_reverse(s, n, len);
  }
}

/* ---------------------------------------------------------------- checks */

typedef struct check_ctx {
  const host_strings *h; /* the full host data */
  int64_t begin;         /* the view is rows [begin, begin + size) of h */
  bool masked;
  bool wide; /* outputs made under a lowered threshold: INT64 offsets expected */
  const char *what;
} check_ctx;

static void check_call(const check_ctx *c, gcol_column_view v, const edit_call *e,
                       const per_row *p) {
  int64_t const n = v.size;
  gcol_column *out = NULL;
  gcol_host_strings *hs = NULL;
  int64_t const previous = gcol_set_large_offsets_threshold(c->wide ? 1 : INT32_MAX);
  gcol_status const st = run_call(e, v, p, &out);
  gcol_set_large_offsets_threshold(previous);
  GCOL_TEST_OK(st);
  assert_int_equal(out->type.id, GCOL_STRING);
  assert_int_equal(out->size, n);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
  for (int64_t i = 0; i < n; ++i) {
    int64_t len = 0, wn = 0;
    const char *s = strings_row(c->h, c->begin + i, &len);
    bool const in_valid = !c->masked || c->h->valid[c->begin + i];
    char *want = in_valid ? reference(e, p, i, s, len, &wn) : NULL;
    if ((hs->valid[i] != 0) != (want != NULL)) {
      fail_msg("%s (%s): row %lld validity %d, want %d", e->what, c->what, (long long)i,
               hs->valid[i], want != NULL);
    }
    int64_t const gn = hs->offsets[i + 1] - hs->offsets[i];
    if (want == NULL && gn != 0) {
      fail_msg("%s (%s): null row %lld has %lld bytes", e->what, c->what, (long long)i,
               (long long)gn);
    }
    if (want != NULL && (gn != wn || memcmp(hs->chars + hs->offsets[i], want, (size_t)wn) != 0)) {
      fail_msg("%s (%s): row %lld has %lld bytes, want %lld", e->what, c->what, (long long)i,
               (long long)gn, (long long)wn);
    }
    free(want);
  }
  if (n > 0 && hs->offsets[n] > 1) {
    assert_int_equal(out->children[0]->type.id, c->wide ? GCOL_INT64 : GCOL_INT32);
  }
  gcol_host_strings_free(hs);
  gcol_column_free(out);
}

/* Every call on rows [begin, begin + size) of `view`, rows [h_begin, ...) of h. */
static void check_all(const host_strings *h, gcol_column_view view, int64_t begin, int64_t size,
                      int64_t h_begin, bool masked, const char *what, gcol_test_rng *rng) {
  gcol_column_view v;
  per_row p;
  GCOL_TEST_OK(gcol_column_view_slice(view, begin, begin + size, &v));
  per_row_make(rng, size, &p);
  check_ctx const c = {h, h_begin, masked, size > 0 && view.children[0].type.id == GCOL_INT64,
                       what};
  for (int64_t k = 0; k < NUM_CALLS; ++k) check_call(&c, v, &calls[k], &p);
  per_row_free(&p);
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
  gcol_test_rng rng = gcol_test_rng_make(1230);
  static const int64_t sizes[] = {0,  1,  2,  7,   8,   9,   31,  32,  33,
                                  63, 64, 65, 127, 128, 129, 255, 256, 257};
  size_t const count = sizeof sizes / sizeof sizes[0];
  for (size_t k = 0; k < count; ++k) {
    if (!gcol_test_in_sparse_part(state, k)) continue; /* halved under the tools */
    run_dataset(&rng, sizes[k], CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS, 0, false, "mixed");
  }
  if (gcol_test_in_part(state, count)) {
    run_dataset(&rng, gcol_test_cap(3001), CONTENT_MIXED, GCOL_TEST_NO_MASK, 0, false, "mixed");
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
      run_dataset(&rng, 129, CONTENT_MIXED, (gcol_test_validity)v, begins[b], wide, "mixed");
    }
  }
}

static void test_slices_validity(void **state) { run_slices_validity(state, 1231, false); }

static void test_slices_validity_int64_offsets(void **state) {
  run_slices_validity(state, 1232, true);
}

static void test_special_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1233);
  /* "" vs null vs "\0", U+10FFFF alone, invalid bytes, whitespace only, a sign only */
  const char *const rows[] = {"",  NULL,        "\0", "\xf4\x8f\xbf\xbf", "\x80", " \xe3\x80\x80\t",
                              "-", "a\xc3\xa9", ""};
  int64_t const lens[] = {0, 0, 1, 4, 1, 5, 1, 3, 0};
  host_strings h = strings_rows(rows, lens, 9);
  for (int wide = 0; wide < 2; ++wide) {
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    gcol_column_view slice;
    check_all(&h, gcol_column_get_view(col), 0, 9, 0, true, "special rows", &rng);
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 2, 8, &slice));
    check_all(&h, slice, 1, 4, 3, true, "slice of a slice", &rng); /* rows 3..6 of h */
    check_all(&h, gcol_column_get_view(col), 9, 0, 9, true, "zero-length slice at the end", &rng);
    gcol_column_free(col);
  }
  strings_free(&h);
  run_dataset(&rng, 300, CONTENT_ONE_BYTE, GCOL_TEST_ALL_NULL, 5, false, "all null");
  run_dataset(&rng, gcol_test_cap(2000), CONTENT_ONE_BYTE, GCOL_TEST_RANDOM_NULLS, 7, true,
              "one byte");
  host_strings all_empty = make_strings(&rng, 100, CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS);
  memset(all_empty.offsets, 0, 101 * sizeof(int64_t));
  gcol_column *col = strings_to_device(&all_empty, false, true);
  check_all(&all_empty, gcol_column_get_view(col), 3, 90, 3, true, "all empty", &rng);
  gcol_column_free(col);
  strings_free(&all_empty);
}

static void test_long_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1234);
  /* rows over 64 KiB (every fifth): under the sanitizers one such row, in the first dataset
   * only (INT64 offsets have their short-row datasets there): one thread walks each, and
   * under memcheck that holds the whole GPU for tens of seconds a call */
  int64_t const huge_n = gcol_test_if_sparse(12, 2);
  run_dataset(&rng, huge_n, CONTENT_HUGE, GCOL_TEST_RANDOM_NULLS, 1, false, "over 64 KiB");
  if (gcol_test_keep_combination(1)) {
    run_dataset(&rng, huge_n, CONTENT_HUGE, GCOL_TEST_NO_MASK, 0, true, "over 64 KiB");
  }
}

/* Outputs too large to address: overflow, out NULL, nothing leaked; then a valid call. */
static void test_output_overflow(void **state) {
  (void)state;
  const char *const rows[] = {"ab", NULL, "\xc3\xa9", ""};
  int64_t const lens[] = {2, 0, 2, 0};
  host_strings h = strings_rows(rows, lens, 4);
  gcol_column *col = strings_to_device(&h, false, true);
  gcol_column_view const v = gcol_column_get_view(col);
  int64_t const live = gcol_test_live_bytes();
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_repeat(v, INT64_MAX / 3, &out, NULL, NULL), GCOL_ERROR_OVERFLOW);
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_pad(v, INT64_MAX / 2, GCOL_SIDE_BOTH, 0x10FFFF, &out, NULL, NULL),
                   GCOL_ERROR_OVERFLOW);
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_zfill(v, INT64_MAX, &out, NULL, NULL), GCOL_ERROR_OVERFLOW);
  assert_null(out);
  assert_int_equal(gcol_test_live_bytes(), live);
  /* the same column repeated a sane number of times */
  GCOL_TEST_OK(gcol_strings_repeat(v, 4, &out, NULL, NULL));
  gcol_host_strings *hs = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
  assert_int_equal(hs->offsets[4], 16);
  assert_memory_equal(hs->chars, "abababab\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 16);
  gcol_host_strings_free(hs);
  gcol_column_free(out);
  gcol_column_free(col);
  strings_free(&h);
}

/* Bad arguments on device data: the specific status, nothing leaked, then a valid call. */
static void test_bad_input(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1235);
  host_strings h = make_strings(&rng, 20, CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = strings_to_device(&h, false, true);
  gcol_column_view const v = gcol_column_get_view(col);
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  int64_t const live = gcol_test_live_bytes();
  /* targets with a null in a slice whose null count is unknown: counted on the device */
  gcol_column_view targets;
  GCOL_TEST_OK(gcol_column_view_slice(v, 1, 19, &targets));
  bool any_null = false;
  for (int64_t i = 1; i < 19; ++i) any_null = any_null || !h.valid[i];
  if (any_null) {
    GCOL_TEST_STATUS(gcol_strings_replace_multiple(v, targets, targets, &out, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(out);
  }
  GCOL_TEST_STATUS(gcol_strings_slice(v, 0, 2, 0, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_int_equal(gcol_test_live_bytes(), live);
  GCOL_TEST_OK(gcol_strings_slice(v, 0, 2, GCOL_SLICE_NONE, &out, NULL, NULL));
  gcol_column_free(out);
  gcol_column_free(col);
  strings_free(&h);
}

/* ---------------------------------------------------------------- faults */

typedef struct fault_ctx {
  gcol_column_view input;
  const per_row *p;
  int64_t call;
  gcol_column *out;
} fault_ctx;

static gcol_status fault_op(void *ctx) {
  fault_ctx *c = (fault_ctx *)ctx;
  c->out = NULL;
  return run_call(&calls[c->call], c->input, c->p, &c->out);
}

static void fault_cleanup(void *ctx) {
  fault_ctx *c = (fault_ctx *)ctx;
  gcol_column_free(c->out);
  c->out = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1236);
  for (int wide = 0; wide < 2; ++wide) {
    host_strings h = make_strings(&rng, 200, CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS);
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    per_row p;
    fault_ctx c;
    memset(&c, 0, sizeof c);
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 197, &c.input));
    per_row_make(&rng, c.input.size, &p);
    c.p = &p;
    for (c.call = 0; c.call < NUM_CALLS; ++c.call) {
      assert_true(gcol_test_check_allocation_failures(fault_op, fault_cleanup, &c) > 0);
    }
    per_row_free(&p);
    gcol_column_free(col);
    strings_free(&h);
  }
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
      GCOL_TEST_GPU(test_output_overflow),
      GCOL_TEST_GPU(test_bad_input),
      GCOL_TEST_GPU(test_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("strings_edit", tests);
}
