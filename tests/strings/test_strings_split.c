/*
 * GPU tests of split and join (include/gcol/strings/split.h, strings/combine.h): every
 * operation against the references of strings_reference.c (CPython's split and rsplit,
 * sep.join) on TESTING.md's strings axes: sizes, slices whose first offset is not 0 (a
 * slice of a slice, a zero-length slice at the end; LIST slices whose values child is
 * sliced too), every validity pattern, "" vs null vs "\0", 1- to 4-byte characters incl.
 * U+10FFFF, whitespace and invalid bytes, rows longer than 64 KiB, INT64 offsets forced (in
 * and out) by gcol_set_large_offsets_threshold(), per-row separator columns with nulls; bad
 * arguments on device data (nothing leaked); allocation failure at every point.
 */
#include "test_util.h"

#include "gcol/strings/combine.h"
#include "gcol/strings/split.h"
#include "strings_reference.h"
#include "strings_test_data.h"

/* ---------------------------------------------------------------- host data */

typedef enum content {
  CONTENT_MIXED = 0, /* delimiters, whitespace, every kind of character, invalid bytes */
  CONTENT_ONE_BYTE,  /* rows of 0 or 1 byte */
  CONTENT_HUGE       /* every fifth row over 64 KiB */
} content;

static const char *const pieces[] = {"a",
                                     "b",
                                     ",",
                                     ", ",
                                     "--",
                                     " ",
                                     "\t",
                                     "\n",
                                     "\0",
                                     "\xc2\xa0",
                                     "\xe3\x80\x80",
                                     "\xc3\xa9",
                                     "\xe2\x82\xac",
                                     "\xf4\x8f\xbf\xbf",
                                     "\xf0\x90\x90\xa8",
                                     "\x80",
                                     "\xe2\x82",
                                     "\xff"};
#define NUM_PIECES ((int64_t)(sizeof pieces / sizeof pieces[0]))

static host_strings make_strings(gcol_test_rng *rng, int64_t n, content kind,
                                 gcol_test_validity validity) {
  strings_recipe const recipe = {
      pieces, NUM_PIECES, 0, 30, kind == CONTENT_HUGE ? 5 : 0, kind == CONTENT_ONE_BYTE, false};
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

/* ---------------------------------------------------------------- split */

typedef struct split_call {
  const char *delim; /* NULL: whitespace; "" too (a scalar) */
  int64_t max_splits;
  bool reverse;
  const char *what;
} split_call;

static const split_call split_calls[] = {
    {",", -1, false, "split ,"},
    {",", 1, true, "rsplit , 1"},
    {NULL, -1, false, "split whitespace"},
    {NULL, 2, true, "rsplit whitespace 2"},
    {"", 0, false, "split \"\" (whitespace) 0"},
    {"\xf4\x8f\xbf\xbf", -1, true, "rsplit U+10FFFF"},
    {", ", 3, false, "split ', ' 3"},
};
#define NUM_SPLIT_CALLS ((int64_t)(sizeof split_calls / sizeof split_calls[0]))

static gcol_status run_split(const split_call *c, bool table, gcol_column_view v, gcol_column **rec,
                             gcol_table **tab) {
  gcol_scalar *d = NULL;
  gcol_status status = GCOL_OK;
  if (c->delim != NULL) GCOL_TEST_OK(gcol_scalar_create_cstring(c->delim, &d));
  if (table) {
    status = c->reverse ? gcol_strings_rsplit(v, d, c->max_splits, tab, NULL, NULL)
                        : gcol_strings_split(v, d, c->max_splits, tab, NULL, NULL);
  } else {
    status = c->reverse ? gcol_strings_rsplit_record(v, d, c->max_splits, rec, NULL, NULL)
                        : gcol_strings_split_record(v, d, c->max_splits, rec, NULL, NULL);
  }
  gcol_scalar_free(d);
  return status;
}

/* The reference pieces of view row i (count, ranges into the row); -1 when it is null. */
static int64_t ref_pieces(const check_ctx *c, const split_call *call, int64_t i, const char **s,
                          int64_t **ranges) {
  int64_t n = 0;
  *s = strings_masked_row(c->h, c->masked, c->begin + i, &n);
  *ranges = NULL;
  if (*s == NULL) return -1;
  int64_t const dn = call->delim != NULL ? (int64_t)strlen(call->delim) : 0;
  return ref_split(*s, n, call->delim, dn, call->max_splits, call->reverse, ranges);
}

static void check_split_record(const check_ctx *c, gcol_column_view v, const split_call *call) {
  int64_t const n = v.size;
  gcol_column *out = NULL;
  int64_t const previous = set_threshold(c->wide);
  gcol_status const st = run_split(call, false, v, &out, NULL);
  gcol_set_large_offsets_threshold(previous);
  GCOL_TEST_OK(st);
  assert_int_equal(out->type.id, GCOL_LIST);
  assert_int_equal(out->size, n);
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
    int64_t const count = ref_pieces(c, call, i, &s, &ranges);
    if ((valid[i] != 0) != (count >= 0) || offs[i + 1] - offs[i] != (count < 0 ? 0 : count)) {
      fail_msg("%s record (%s): row %lld has %lld pieces (valid %d), want %lld", call->what,
               c->what, (long long)i, (long long)(offs[i + 1] - offs[i]), valid[i],
               (long long)count);
    }
    for (int64_t k = 0; k < count; ++k) {
      strings_expect_row(values, offs[i] + k, s + ranges[2 * k], ranges[2 * k + 1] - ranges[2 * k],
                         call->what, c->what);
    }
    free(ranges);
  }
  if (c->wide && offs[n] > 1) assert_int_equal(out->children[0]->type.id, GCOL_INT64);
  if (!c->wide) assert_int_equal(out->children[0]->type.id, GCOL_INT32);
  free(offs);
  free(valid);
  gcol_host_strings_free(values);
  gcol_column_free(out);
}

/* The table form: each row's reference pieces computed once, then column by column. Rows
 * of thousands of pieces (the long rows split without a limit) would make a table of
 * thousands of columns, one gather each: those calls are left to the record form. */
#define MOST_TABLE_COLUMNS 64

static void check_split_table(const check_ctx *c, gcol_column_view v, const split_call *call) {
  int64_t const n = v.size;
  const char **rows = (const char **)malloc((size_t)(n + 1) * sizeof *rows);
  int64_t **ranges = (int64_t **)malloc((size_t)(n + 1) * sizeof *ranges);
  int64_t *counts = (int64_t *)malloc((size_t)(n + 1) * sizeof *counts);
  int64_t most = 0;
  for (int64_t i = 0; i < n; ++i) {
    counts[i] = ref_pieces(c, call, i, &rows[i], &ranges[i]);
    if (counts[i] > most) most = counts[i];
  }
  if (most <= MOST_TABLE_COLUMNS) {
    gcol_table *out = NULL;
    int64_t const previous = set_threshold(c->wide);
    gcol_status const st = run_split(call, true, v, NULL, &out);
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

/* ---------------------------------------------------------------- combine */

/* Arguments of the joins: a second STRING column and a separators column (each with
 * nulls, sliced to the view's rows from row 2), a LIST column over h (sliced, its values
 * child sliced from row 2), and their host copies. */
typedef struct combine_data {
  host_strings other, seps;
  gcol_column *other_col, *seps_col, *values_col, *lists_col;
  gcol_column_view other_v, seps_v, lists_v;
  gcol_column_view lists_children[2];
  int64_t *list_offsets; /* m + 1 list offsets into the values child view */
  uint8_t *list_valid;   /* m */
  int64_t first_value;   /* the row of h that is row 0 of the values child view */
} combine_data;

#define COMBINE_SKIP 2

/* A mask of m rows from host bytes (taken from a UINT8 column built with them). */
static gcol_buffer *mask_from_host(const uint8_t *valid, int64_t m, int64_t *nulls) {
  gcol_column *probe = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_UINT8), m, valid, valid, NULL,
                                            NULL, &probe));
  gcol_buffer *const mask = probe->null_mask;
  *nulls = probe->null_count;
  probe->null_mask = NULL;
  gcol_column_free(probe);
  return mask;
}

/* An INT32 or INT64 column of offs[0..count). */
static gcol_column *offsets_to_device(const int64_t *offs, int64_t count, bool wide) {
  gcol_column *col = NULL;
  if (wide) {
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), count, offs, NULL,
                                              NULL, NULL, &col));
    return col;
  }
  int32_t *narrow = (int32_t *)malloc((size_t)count * sizeof(int32_t));
  for (int64_t i = 0; i < count; ++i) narrow[i] = (int32_t)offs[i];
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), count, narrow, NULL,
                                            NULL, NULL, &col));
  free(narrow);
  return col;
}

/* `full` is the device column the view slices from its row `begin`. */
static void combine_make(gcol_test_rng *rng, const check_ctx *c, gcol_column_view v,
                         gcol_column_view full, int64_t begin, combine_data *d) {
  int64_t const n = v.size, m = n + COMBINE_SKIP;
  int64_t const first = begin + COMBINE_SKIP < full.size ? begin + COMBINE_SKIP : full.size;
  int64_t const avail = full.size - first;
  int64_t list_nulls = 0;
  gcol_column *values = NULL;
  memset(d, 0, sizeof *d);
  d->other = make_strings(rng, m, CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS);
  d->seps = make_strings(rng, m, CONTENT_ONE_BYTE, GCOL_TEST_RANDOM_NULLS);
  d->other_col = strings_to_device(&d->other, !c->wide, true);
  d->seps_col = strings_to_device(&d->seps, c->wide, true);
  GCOL_TEST_OK(
      gcol_column_view_slice(gcol_column_get_view(d->other_col), COMBINE_SKIP, m, &d->other_v));
  GCOL_TEST_OK(
      gcol_column_view_slice(gcol_column_get_view(d->seps_col), COMBINE_SKIP, m, &d->seps_v));
  /* lists of 0 to 4 strings over the input's rows from `first` (its values child) */
  d->list_offsets = (int64_t *)calloc((size_t)(m + 1), sizeof(int64_t));
  d->list_valid = (uint8_t *)malloc((size_t)m + 1);
  gcol_test_fill_valid(rng, GCOL_TEST_RANDOM_NULLS, d->list_valid, m);
  for (int64_t i = 0; i < m; ++i) {
    int64_t const next = d->list_offsets[i] + gcol_test_rng_range(rng, 0, 4);
    d->list_offsets[i + 1] = next > avail ? avail : next;
  }
  GCOL_TEST_OK(gcol_column_copy(full, NULL, NULL, &values));
  gcol_buffer *const list_mask = mask_from_host(d->list_valid, m, &list_nulls);
  GCOL_TEST_OK(gcol_column_make_list(m, offsets_to_device(d->list_offsets, m + 1, c->wide), values,
                                     list_mask, list_nulls, &d->lists_col));
  /* the view: LIST rows [COMBINE_SKIP, m) whose values child starts at input row `first` */
  gcol_column_view const lv = gcol_column_get_view(d->lists_col);
  GCOL_TEST_OK(gcol_column_view_slice(lv, COMBINE_SKIP, m, &d->lists_v));
  d->lists_children[0] = lv.children[0];
  GCOL_TEST_OK(gcol_column_view_slice(lv.children[1], first, full.size, &d->lists_children[1]));
  d->lists_v.children = d->lists_children;
  d->first_value = c->begin - begin + first;
}

static void combine_free(combine_data *d) {
  strings_free(&d->other);
  strings_free(&d->seps);
  gcol_column_free(d->other_col);
  gcol_column_free(d->seps_col);
  gcol_column_free(d->lists_col);
  free(d->list_offsets);
  free(d->list_valid);
}

typedef enum combine_kind {
  COMBINE_CONCAT = 0,
  COMBINE_CONCAT_COLUMN,
  COMBINE_JOIN,
  COMBINE_LISTS,
  COMBINE_LISTS_COLUMN
} combine_kind;

typedef struct combine_call {
  combine_kind kind;
  const char *sep;   /* a scalar separator */
  const char *narep; /* NULL: none */
  const char *what;
} combine_call;

static const combine_call combine_calls[] = {
    {COMBINE_CONCAT, ", ", NULL, "concatenate"},
    {COMBINE_CONCAT, "", "\xf4\x8f\xbf\xbf", "concatenate, replacement"},
    {COMBINE_CONCAT_COLUMN, NULL, NULL, "concatenate_column"},
    {COMBINE_CONCAT_COLUMN, NULL, "", "concatenate_column, replacement \"\""},
    {COMBINE_JOIN, "\xc3\xa9", NULL, "join"},
    {COMBINE_JOIN, "--", "?", "join, replacement"},
    {COMBINE_LISTS, "|", NULL, "join_lists"},
    {COMBINE_LISTS, "", "\xe2\x82\xac", "join_lists, replacement"},
    {COMBINE_LISTS_COLUMN, NULL, NULL, "join_lists_column"},
    {COMBINE_LISTS_COLUMN, NULL, "-", "join_lists_column, replacement"},
};
#define NUM_COMBINE_CALLS ((int64_t)(sizeof combine_calls / sizeof combine_calls[0]))

/* concatenate's columns: the input, the other column, the input again */
static gcol_status run_combine(const combine_call *e, gcol_column_view v, const combine_data *d,
                               gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_scalar *sep = NULL, *narep = NULL;
  gcol_column_view cols[3] = {v, d->other_v, v};
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(cols, 3, &t));
  if (e->sep != NULL) GCOL_TEST_OK(gcol_scalar_create_cstring(e->sep, &sep));
  if (e->narep != NULL) GCOL_TEST_OK(gcol_scalar_create_cstring(e->narep, &narep));
  switch (e->kind) {
    case COMBINE_CONCAT:
      status = gcol_strings_concatenate(t, sep, narep, out, NULL, NULL);
      break;
    case COMBINE_CONCAT_COLUMN:
      status = gcol_strings_concatenate_column(t, d->seps_v, narep, out, NULL, NULL);
      break;
    case COMBINE_JOIN:
      status = gcol_strings_join(v, sep, narep, out, NULL, NULL);
      break;
    case COMBINE_LISTS:
      status = gcol_strings_join_lists(d->lists_v, sep, narep, out, NULL, NULL);
      break;
    default:
      status = gcol_strings_join_lists_column(d->lists_v, d->seps_v, narep, out, NULL, NULL);
      break;
  }
  gcol_scalar_free(sep);
  gcol_scalar_free(narep);
  return status;
}

/* The reference of output row i (NULL: null). */
static char *combine_reference(const check_ctx *c, const combine_call *e, const combine_data *d,
                               int64_t i, int64_t *len) {
  const char *items[8];
  int64_t sizes[8];
  int64_t sep_size = e->sep != NULL ? (int64_t)strlen(e->sep) : 0;
  const char *sep = e->sep;
  int64_t const narep_size = e->narep != NULL ? (int64_t)strlen(e->narep) : 0;
  int64_t const r = i + COMBINE_SKIP, count = d->list_offsets[r + 1] - d->list_offsets[r];
  if (e->kind == COMBINE_CONCAT_COLUMN || e->kind == COMBINE_LISTS_COLUMN) {
    sep = strings_masked_row(&d->seps, true, r, &sep_size);
    if (sep == NULL) return NULL;
  }
  if (e->kind == COMBINE_CONCAT || e->kind == COMBINE_CONCAT_COLUMN) {
    items[0] = strings_masked_row(c->h, c->masked, c->begin + i, &sizes[0]);
    items[1] = strings_masked_row(&d->other, true, r, &sizes[1]);
    items[2] = items[0];
    sizes[2] = sizes[0];
    return ref_join(items, sizes, 3, sep, sep_size, e->narep, narep_size, false, len);
  }
  if (!d->list_valid[r]) return NULL;
  for (int64_t k = 0; k < count; ++k) {
    items[k] =
        strings_masked_row(c->h, c->masked, d->first_value + d->list_offsets[r] + k, &sizes[k]);
  }
  return ref_join(items, sizes, count, sep, sep_size, e->narep, narep_size, false, len);
}

/* gcol_strings_join's one row: every row of the view, nulls skipped or replaced; null when
 * every row of a non-empty view is null and nothing replaces them. */
static char *join_reference(const check_ctx *c, const combine_call *e, int64_t n, int64_t *len) {
  const char **items = (const char **)malloc((size_t)(n + 1) * sizeof *items);
  int64_t *sizes = (int64_t *)malloc((size_t)(n + 1) * sizeof *sizes);
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    items[i] = strings_masked_row(c->h, c->masked, c->begin + i, &sizes[i]);
    nulls += items[i] == NULL;
  }
  char *want = NULL;
  if (n == 0 || nulls < n || e->narep != NULL) {
    want = ref_join(items, sizes, n, e->sep, (int64_t)strlen(e->sep), e->narep,
                    e->narep != NULL ? (int64_t)strlen(e->narep) : 0, true, len);
  }
  free(items);
  free(sizes);
  return want;
}

static void check_combine(const check_ctx *c, gcol_column_view v, const combine_data *d,
                          const combine_call *e) {
  int64_t const n = e->kind == COMBINE_JOIN ? 1 : v.size;
  gcol_column *out = NULL;
  gcol_host_strings *hs = NULL;
  int64_t const previous = set_threshold(c->wide);
  gcol_status const st = run_combine(e, v, d, &out);
  gcol_set_large_offsets_threshold(previous);
  GCOL_TEST_OK(st);
  assert_int_equal(out->type.id, GCOL_STRING);
  assert_int_equal(out->size, n);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
  for (int64_t i = 0; i < n; ++i) {
    int64_t wn = 0;
    char *want = e->kind == COMBINE_JOIN ? join_reference(c, e, v.size, &wn)
                                         : combine_reference(c, e, d, i, &wn);
    strings_expect_row(hs, i, want, wn, e->what, c->what);
    free(want);
  }
  if (n > 0 && hs->offsets[n] > 1) {
    assert_int_equal(out->children[0]->type.id, c->wide ? GCOL_INT64 : GCOL_INT32);
  }
  gcol_host_strings_free(hs);
  gcol_column_free(out);
}

/* ---------------------------------------------------------------- drivers */

/* Every operation on rows [begin, begin + size) of `full` (rows of h from h_begin). */
static void check_all(const host_strings *h, gcol_column_view full, int64_t begin, int64_t size,
                      int64_t h_begin, bool masked, const char *what, gcol_test_rng *rng) {
  gcol_column_view v;
  combine_data d;
  GCOL_TEST_OK(gcol_column_view_slice(full, begin, begin + size, &v));
  check_ctx const c = {h, h_begin, masked, full.size > 0 && full.children[0].type.id == GCOL_INT64,
                       what};
  for (int64_t k = 0; k < NUM_SPLIT_CALLS; ++k) {
    check_split_record(&c, v, &split_calls[k]);
    check_split_table(&c, v, &split_calls[k]);
  }
  combine_make(rng, &c, v, full, begin, &d);
  for (int64_t k = 0; k < NUM_COMBINE_CALLS; ++k) check_combine(&c, v, &d, &combine_calls[k]);
  combine_free(&d);
}

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

/* ---------------------------------------------------------------- tests */

static void test_sizes(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1250);
  static const int64_t sizes[] = {0,  1,  2,  7,   8,   9,   31,  32, 33,
                                  63, 64, 65, 127, 128, 129, 255, 257};
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

static void test_slices_validity(void **state) { run_slices_validity(state, 1251, false); }

static void test_slices_validity_int64_offsets(void **state) {
  run_slices_validity(state, 1252, true);
}

static void test_special_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1253);
  /* "" vs null vs "\0", U+10FFFF, delimiters alone and at the ends, whitespace only,
   * invalid bytes */
  const char *const rows[] = {"",          NULL,
                              "\0",        "\xf4\x8f\xbf\xbf",
                              ",",         " \xe3\x80\x80\t",
                              ",a,,b,",    " a \xc2\xa0 b ",
                              "\x80,\xff", "\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbf",
                              ""};
  int64_t const lens[] = {0, 0, 1, 4, 1, 5, 6, 8, 3, 8, 0};
  int64_t const count = (int64_t)(sizeof lens / sizeof lens[0]);
  host_strings h = strings_rows(rows, lens, count);
  for (int wide = 0; wide < 2; ++wide) {
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    gcol_column_view slice;
    check_all(&h, gcol_column_get_view(col), 0, count, 0, true, "special rows", &rng);
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 2, 9, &slice));
    check_all(&h, slice, 1, 5, 3, true, "slice of a slice", &rng); /* rows 3..7 of h */
    check_all(&h, gcol_column_get_view(col), count, 0, count, true, "zero-length slice at the end",
              &rng);
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
  gcol_test_rng rng = gcol_test_rng_make(1254);
  /* rows over 64 KiB (every fifth): under the sanitizers one such row, in the first dataset
   * only (INT64 offsets have their short-row datasets there): one thread walks each, and
   * under memcheck that holds the whole GPU for tens of seconds a call */
  int64_t const huge_n = gcol_test_if_sparse(12, 2);
  run_dataset(&rng, huge_n, CONTENT_HUGE, GCOL_TEST_RANDOM_NULLS, 1, false, "over 64 KiB");
  if (gcol_test_keep_combination(1)) {
    run_dataset(&rng, huge_n, CONTENT_HUGE, GCOL_TEST_NO_MASK, 0, true, "over 64 KiB");
  }
}

/* Known rows through every API: the shapes of the outputs. */
static void test_known_outputs(void **state) {
  (void)state;
  const char *const rows[] = {"a,b,c", NULL, "", "x"};
  int64_t const lens[] = {5, 0, 0, 1};
  host_strings h = strings_rows(rows, lens, 4);
  gcol_column *col = strings_to_device(&h, false, true);
  gcol_column_view const v = gcol_column_get_view(col);
  gcol_scalar *comma = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring(",", &comma));
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_strings_rsplit(v, comma, 1, &t, NULL, NULL));
  assert_int_equal(t->num_columns, 2); /* "a,b" | "c"; null | null; "" | null; "x" | null */
  gcol_host_strings *c0 = NULL, *c1 = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_table_get_view(t).columns[0], NULL, &c0));
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_table_get_view(t).columns[1], NULL, &c1));
  assert_memory_equal(c0->chars, "a,bx", 4);
  assert_int_equal(c0->valid[1] + c1->valid[1] + c1->valid[2] + c1->valid[3], 0);
  assert_int_equal(c0->valid[2], 1);
  assert_memory_equal(c1->chars, "c", 1);
  gcol_host_strings_free(c0);
  gcol_host_strings_free(c1);
  gcol_table_free(t);
  /* no piece anywhere: one column of nulls */
  gcol_column_view nulls;
  GCOL_TEST_OK(gcol_column_view_slice(v, 1, 3, &nulls)); /* null, "" */
  GCOL_TEST_OK(gcol_strings_split(nulls, NULL, -1, &t, NULL, NULL));
  assert_int_equal(t->num_columns, 1);
  assert_int_equal(gcol_table_get_view(t).columns[0].null_count, 2);
  gcol_table_free(t);
  /* join: every row null -> null; no rows -> "" */
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_column_view_slice(v, 1, 2, &nulls));
  GCOL_TEST_OK(gcol_strings_join(nulls, comma, NULL, &out, NULL, NULL));
  assert_int_equal(out->size, 1);
  assert_int_equal(out->null_count, 1);
  gcol_column_free(out);
  GCOL_TEST_OK(gcol_column_view_slice(v, 4, 4, &nulls));
  GCOL_TEST_OK(gcol_strings_join(nulls, comma, NULL, &out, NULL, NULL));
  assert_int_equal(out->size, 1);
  assert_int_equal(out->null_count, 0);
  gcol_column_free(out);
  GCOL_TEST_OK(gcol_strings_join(v, comma, NULL, &out, NULL, NULL));
  gcol_host_strings *j = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &j));
  assert_int_equal(j->offsets[1], 8);
  assert_memory_equal(j->chars, "a,b,c,,x", 8);
  gcol_host_strings_free(j);
  gcol_column_free(out);
  gcol_scalar_free(comma);
  gcol_column_free(col);
  strings_free(&h);
}

/* Bad arguments on device data: the specific status, nothing leaked, then a valid call. */
static void test_bad_input(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1255);
  host_strings h = make_strings(&rng, 20, CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = strings_to_device(&h, false, true);
  gcol_column_view const v = gcol_column_get_view(col);
  gcol_column_view shorter;
  GCOL_TEST_OK(gcol_column_view_slice(v, 1, 20, &shorter));
  gcol_scalar *comma = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring(",", &comma));
  int64_t const live = gcol_test_live_bytes();
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_table *t = (gcol_table *)(uintptr_t)1;
  gcol_column_view cols[2] = {v, shorter};
  gcol_table_view tv = {2, 20, cols};
  GCOL_TEST_STATUS(gcol_strings_concatenate(tv, comma, NULL, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_strings_join_lists(v, comma, NULL, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_strings_split(v, comma, -3, &t, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_int_equal(gcol_test_live_bytes(), live);
  GCOL_TEST_OK(gcol_strings_split(v, comma, -1, &t, NULL, NULL));
  gcol_table_free(t);
  gcol_scalar_free(comma);
  gcol_column_free(col);
  strings_free(&h);
}

/* ---------------------------------------------------------------- faults */

typedef struct fault_ctx {
  check_ctx c;
  gcol_column_view input;
  const combine_data *d;
  int64_t call; /* split calls (record, then table), then combine calls */
  gcol_column *out;
  gcol_table *table;
} fault_ctx;

static gcol_status fault_op(void *ctx) {
  fault_ctx *f = (fault_ctx *)ctx;
  f->out = NULL;
  f->table = NULL;
  if (f->call < 2 * NUM_SPLIT_CALLS) {
    return run_split(&split_calls[f->call / 2], (f->call & 1) != 0, f->input, &f->out, &f->table);
  }
  return run_combine(&combine_calls[f->call - 2 * NUM_SPLIT_CALLS], f->input, f->d, &f->out);
}

static void fault_cleanup(void *ctx) {
  fault_ctx *f = (fault_ctx *)ctx;
  gcol_column_free(f->out);
  gcol_table_free(f->table);
  f->out = NULL;
  f->table = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1256);
  for (int wide = 0; wide < 2; ++wide) {
    /* few rows: a table form reruns a gather per column for every failing allocation */
    host_strings h = make_strings(&rng, 60, CONTENT_MIXED, GCOL_TEST_RANDOM_NULLS);
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    combine_data d;
    fault_ctx f;
    memset(&f, 0, sizeof f);
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 57, &f.input));
    check_ctx const c = {&h, 3, true, wide != 0, "faults"};
    f.c = c;
    combine_make(&rng, &f.c, f.input, gcol_column_get_view(col), 3, &d);
    f.d = &d;
    for (f.call = 0; f.call < 2 * NUM_SPLIT_CALLS + NUM_COMBINE_CALLS; ++f.call) {
      assert_true(gcol_test_check_allocation_failures(fault_op, fault_cleanup, &f) > 0);
    }
    combine_free(&d);
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
      GCOL_TEST_GPU(test_known_outputs),
      GCOL_TEST_GPU(test_bad_input),
      GCOL_TEST_GPU(test_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("strings_split", tests);
}
