/*
 * Joins and groupby over frames (frame_ops.h) on the GPU: the names each result carries
 * (suffixes on collisions, right keys left out or kept, semi joins, two-level names,
 * aggregation names), the values under those names, bad input, allocation failures. And
 * the row operations (sort, filter, distinct, gather, slice/head, concatenate): every
 * column under the input's two-level names, each result row checked in every column (nulls
 * included) against the input row a host reference says it is, bad input, allocation
 * failures.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/cast.h"
#include "gcol/frame_ops.h"
#include "test_util.h"

/* An INT32 column of n rows: values[i]. */
static gcol_column *int_column(const int32_t *values, int64_t n) {
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, values, NULL,
                                            NULL, NULL, &col));
  return col;
}

/* A frame of one-level names over INT32 columns: column c holds values[c][0..n). */
static gcol_frame *frame_of(const char *const *names, int32_t num_columns, int32_t levels,
                            int32_t *const *values, int64_t n) {
  gcol_column *cols[8];
  gcol_name frame_names[8];
  gcol_table *table = NULL;
  gcol_frame *frame = NULL;
  for (int32_t c = 0; c < num_columns; ++c) {
    cols[c] = int_column(values[c], n);
    frame_names[c] = gcol_name_make(names + (size_t)c * (size_t)levels, levels);
  }
  GCOL_TEST_OK(gcol_table_make(cols, num_columns, &table));
  GCOL_TEST_OK(gcol_frame_make(table, frame_names, num_columns, levels, &frame));
  return frame;
}

/* Asserts the frame's names, each given as `levels` strings. */
static void assert_names(const gcol_frame *frame, const char *const *want, int32_t count,
                         int32_t levels) {
  assert_int_equal(gcol_frame_num_columns(frame), count);
  assert_int_equal(gcol_frame_num_levels(frame), levels);
  for (int32_t c = 0; c < count; ++c) {
    gcol_name name;
    GCOL_TEST_OK(gcol_frame_get_name(frame, c, &name));
    for (int32_t k = 0; k < levels; ++k) {
      assert_string_equal(name.levels[k], want[(size_t)c * (size_t)levels + (size_t)k]);
    }
  }
}

/* The INT32 column named `name` (one level), copied to the host (the caller frees it). */
static int32_t *host_values(const gcol_frame *frame, const char *name, uint8_t **valid) {
  const char *levels[] = {name};
  int32_t index = -1;
  GCOL_TEST_OK(gcol_frame_find(frame, gcol_name_make(levels, 1), &index));
  assert_true(index >= 0);
  int64_t const n = gcol_frame_num_rows(frame);
  int32_t *values = (int32_t *)malloc(sizeof *values * (size_t)(n > 0 ? n : 1));
  *valid = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(gcol_frame_get_column(frame, index)),
                                        values, *valid, NULL));
  return values;
}

/* left: id 0..9, amount 10 id, note 1000 + id; right: id 5..14, amount 100 id + 1,
 * region 2000 + id. */
enum { ROWS = 10 };
static int32_t l_id[ROWS], l_amount[ROWS], l_note[ROWS], r_id[ROWS], r_amount[ROWS], r_region[ROWS];

static void make_sides(gcol_frame **left, gcol_frame **right) {
  for (int32_t i = 0; i < ROWS; ++i) {
    l_id[i] = i;
    l_amount[i] = 10 * i;
    l_note[i] = 1000 + i;
    r_id[i] = 5 + i;
    r_amount[i] = 100 * (5 + i) + 1;
    r_region[i] = 2000 + 5 + i;
  }
  static const char *ln[] = {"id", "amount", "note"}, *rn[] = {"id", "amount", "region"};
  int32_t *lv[] = {l_id, l_amount, l_note}, *rv[] = {r_id, r_amount, r_region};
  *left = frame_of(ln, 3, 1, lv, ROWS);
  *right = frame_of(rn, 3, 1, rv, ROWS);
}

static const char *id_level[] = {"id"};

static void join_suffixes_collisions_and_leaves_out_right_keys(void **state) {
  (void)state;
  gcol_frame *left = NULL, *right = NULL, *out = NULL;
  make_sides(&left, &right);
  gcol_name const key = gcol_name_make(id_level, 1);
  GCOL_TEST_OK(gcol_frame_join(left, &key, right, &key, 1, GCOL_JOIN_INNER, NULL, &out, NULL, NULL));
  static const char *want[] = {"id", "amount_x", "note", "amount_y", "region"};
  assert_names(out, want, 5, 1);
  assert_int_equal(gcol_frame_num_rows(out), 5);
  uint8_t *v[5];
  int32_t *id = host_values(out, "id", &v[0]), *ax = host_values(out, "amount_x", &v[1]);
  int32_t *note = host_values(out, "note", &v[2]), *ay = host_values(out, "amount_y", &v[3]);
  int32_t *region = host_values(out, "region", &v[4]);
  int seen = 0;
  for (int32_t r = 0; r < 5; ++r) { /* each row is one id's, whatever the order */
    assert_true(id[r] >= 5 && id[r] < 10);
    seen |= 1 << (id[r] - 5);
    assert_int_equal(ax[r], 10 * id[r]);
    assert_int_equal(note[r], 1000 + id[r]);
    assert_int_equal(ay[r], 100 * id[r] + 1);
    assert_int_equal(region[r], 2000 + id[r]);
  }
  assert_int_equal(seen, 31);
  free(id), free(ax), free(note), free(ay), free(region);
  for (int i = 0; i < 5; ++i) free(v[i]);
  gcol_frame_free(out);
  /* kept right keys collide too; other suffixes */
  gcol_frame_join_options o;
  gcol_frame_join_options_init(&o);
  o.keep_right_keys = true;
  o.left_suffix = "_l";
  o.right_suffix = "_r";
  GCOL_TEST_OK(gcol_frame_join(left, &key, right, &key, 1, GCOL_JOIN_LEFT, &o, &out, NULL, NULL));
  static const char *kept[] = {"id_l", "amount_l", "note", "id_r", "amount_r", "region"};
  assert_names(out, kept, 6, 1);
  assert_int_equal(gcol_frame_num_rows(out), ROWS);
  uint8_t *valid = NULL;
  int32_t *idr = host_values(out, "id_r", &valid);
  int nulls = 0;
  for (int32_t r = 0; r < ROWS; ++r) nulls += !valid[r];
  assert_int_equal(nulls, 5); /* left ids 0..4 have no right row */
  free(idr), free(valid);
  gcol_frame_free(out);
  /* semi join: the left columns, unsuffixed */
  GCOL_TEST_OK(
      gcol_frame_join(left, &key, right, &key, 1, GCOL_JOIN_LEFT_SEMI, NULL, &out, NULL, NULL));
  static const char *semi[] = {"id", "amount", "note"};
  assert_names(out, semi, 3, 1);
  assert_int_equal(gcol_frame_num_rows(out), 5);
  gcol_frame_free(out);
  gcol_frame_free(left);
  gcol_frame_free(right);
}

/* Two levels: suffixes go to the last level; keys named differently on each side. */
static void join_two_level_names(void **state) {
  (void)state;
  int32_t a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, c[4] = {3, 4, 5, 6}, d[4] = {7, 8, 9, 0};
  static const char *ln[] = {"o", "key", "v", "x"}, *rn[] = {"c", "cust", "v", "x"};
  int32_t *lv[] = {a, b}, *rv[] = {c, d};
  gcol_frame *left = frame_of(ln, 2, 2, lv, 4), *right = frame_of(rn, 2, 2, rv, 4), *out = NULL;
  gcol_name const lk = gcol_name_make(ln, 2), rk = gcol_name_make(rn, 2);
  GCOL_TEST_OK(gcol_frame_join(left, &lk, right, &rk, 1, GCOL_JOIN_INNER, NULL, &out, NULL, NULL));
  static const char *want[] = {"o", "key", "v", "x_x", "v", "x_y"};
  assert_names(out, want, 3, 2);
  assert_int_equal(gcol_frame_num_rows(out), 2);
  gcol_frame_free(out);
  /* a frame of one level against one of two */
  int32_t *one[] = {a};
  gcol_frame *flat = frame_of(id_level, 1, 1, one, 4);
  gcol_name const fk = gcol_name_make(id_level, 1);
  GCOL_TEST_STATUS(gcol_frame_join(flat, &fk, right, &rk, 1, GCOL_JOIN_INNER, NULL, &out, NULL,
                                   NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_frame_free(flat);
  gcol_frame_free(left);
  gcol_frame_free(right);
}

/* k: i % 4 over 20 rows, v: i (nulls: none). */
static gcol_frame *grouped_input(void) {
  static int32_t k[20], v[20];
  for (int32_t i = 0; i < 20; ++i) k[i] = i % 4, v[i] = i;
  static const char *names[] = {"k", "v"};
  int32_t *values[] = {k, v};
  return frame_of(names, 2, 1, values, 20);
}

static void groupby_names_its_results(void **state) {
  (void)state;
  gcol_frame *in = grouped_input(), *out = NULL;
  static const char *k[] = {"k"}, *v[] = {"v"};
  gcol_name const key = gcol_name_make(k, 1), value = gcol_name_make(v, 1);
  gcol_frame_agg aggs[3] = {{value, gcol_groupby_agg_make(GCOL_GROUPBY_SUM), NULL},
                            {value, gcol_groupby_agg_make(GCOL_GROUPBY_MAX), NULL},
                            {value, gcol_groupby_agg_make(GCOL_GROUPBY_MIN), "smallest"}};
  gcol_groupby_options options = {false, true};
  GCOL_TEST_OK(gcol_frame_groupby(in, &key, 1, aggs, 3, &options, &out, NULL, NULL));
  assert_int_equal(gcol_frame_num_rows(out), 4);
  const char *want[] = {"k", "v_sum", "v_max", "smallest"};
  assert_names(out, want, 4, 1);
  uint8_t *valid[4];
  int32_t *keys = host_values(out, "k", &valid[0]);
  int32_t *mx = host_values(out, "v_max", &valid[1]), *mn = host_values(out, "smallest", &valid[2]);
  for (int32_t g = 0; g < 4; ++g) {
    assert_int_equal(keys[g], g); /* sorted keys */
    assert_int_equal(mx[g], 16 + g);
    assert_int_equal(mn[g], g);
  }
  /* the sum's type is the groupby's (INT64 for INT32 values): read it as such */
  const char *sum_level[] = {"v_sum"};
  int32_t index = -1;
  GCOL_TEST_OK(gcol_frame_find(out, gcol_name_make(sum_level, 1), &index));
  gcol_column_view const sums = gcol_column_get_view(gcol_frame_get_column(out, index));
  assert_int_equal(sums.type.id, GCOL_INT64);
  int64_t got[4];
  GCOL_TEST_OK(gcol_column_copy_to_host(sums, got, NULL, NULL));
  for (int32_t g = 0; g < 4; ++g) assert_int_equal(got[g], 5 * g + 40); /* g+4j, j<5 */
  free(keys), free(mx), free(mn);
  for (int i = 0; i < 3; ++i) free(valid[i]);
  /* the result joins back onto its input by name */
  gcol_frame *joined = NULL;
  GCOL_TEST_OK(gcol_frame_join(in, &key, out, &key, 1, GCOL_JOIN_INNER, NULL, &joined, NULL, NULL));
  const char *jn[] = {"k", "v", "v_sum", "v_max", "smallest"};
  assert_names(joined, jn, 5, 1);
  assert_int_equal(gcol_frame_num_rows(joined), 20);
  gcol_frame_free(joined);
  gcol_frame_free(out);
  /* no aggregation: the distinct keys */
  GCOL_TEST_OK(gcol_frame_groupby(in, &key, 1, NULL, 0, &options, &out, NULL, NULL));
  assert_names(out, k, 1, 1);
  assert_int_equal(gcol_frame_num_rows(out), 4);
  gcol_frame_free(out);
  gcol_frame_free(in);
}

static void bad_input_is_refused_with_a_message(void **state) {
  (void)state;
  gcol_frame *left = NULL, *right = NULL, *out = NULL;
  make_sides(&left, &right);
  gcol_name const key = gcol_name_make(id_level, 1);
  static const char *nope[] = {"nope"};
  gcol_name const missing = gcol_name_make(nope, 1);
  GCOL_TEST_STATUS(gcol_frame_join(left, &missing, right, &key, 1, GCOL_JOIN_INNER, NULL, &out,
                                   NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "gcol_frame_join"));
  GCOL_TEST_STATUS(
      gcol_frame_join(left, &key, right, &key, 0, GCOL_JOIN_INNER, NULL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_frame_join(NULL, &key, right, &key, 1, GCOL_JOIN_INNER, NULL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_frame_join(left, &key, right, &key, 1, GCOL_JOIN_INNER, NULL, NULL, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  gcol_frame_join_options o;
  gcol_frame_join_options_init(&o);
  o.right_suffix = "_x";
  GCOL_TEST_STATUS(
      gcol_frame_join(left, &key, right, &key, 1, GCOL_JOIN_INNER, &o, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  o.right_suffix = NULL;
  GCOL_TEST_STATUS(
      gcol_frame_join(left, &key, right, &key, 1, GCOL_JOIN_INNER, &o, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  /* a suffixed name another column already has */
  static const char *amount_x[] = {"amount_x"}, *note_level[] = {"note"};
  GCOL_TEST_OK(
      gcol_frame_rename(left, gcol_name_make(note_level, 1), gcol_name_make(amount_x, 1)));
  GCOL_TEST_STATUS(
      gcol_frame_join(left, &key, right, &key, 1, GCOL_JOIN_INNER, NULL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  /* groupby: an unknown value column, two results of one name */
  gcol_frame_agg agg = {missing, gcol_groupby_agg_make(GCOL_GROUPBY_SUM), NULL};
  GCOL_TEST_STATUS(gcol_frame_groupby(left, &key, 1, &agg, 1, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  static const char *amount[] = {"amount"};
  gcol_name const a = gcol_name_make(amount, 1);
  gcol_frame_agg twice[2] = {{a, gcol_groupby_agg_make(GCOL_GROUPBY_SUM), NULL},
                             {a, gcol_groupby_agg_make(GCOL_GROUPBY_SUM), NULL}};
  GCOL_TEST_STATUS(gcol_frame_groupby(left, &key, 1, twice, 2, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_groupby(left, &key, 1, NULL, 1, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_groupby(left, &key, 0, NULL, 0, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_frame_free(left);
  gcol_frame_free(right);
}

typedef struct alloc_ctx {
  gcol_frame *left, *right, *out;
  bool groupby;
} alloc_ctx;

static gcol_status alloc_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_name const key = gcol_name_make(id_level, 1);
  if (!c->groupby) {
    return gcol_frame_join(c->left, &key, c->right, &key, 1, GCOL_JOIN_FULL, NULL, &c->out, NULL,
                           NULL);
  }
  static const char *amount[] = {"amount"}, *note[] = {"note"};
  gcol_frame_agg aggs[3] = {
      {gcol_name_make(amount, 1), gcol_groupby_agg_make(GCOL_GROUPBY_SUM), NULL},
      {gcol_name_make(note, 1), gcol_groupby_agg_make(GCOL_GROUPBY_MIN), NULL},
      {gcol_name_make(amount, 1), gcol_groupby_agg_make(GCOL_GROUPBY_MEDIAN), NULL}};
  return gcol_frame_groupby(c->left, &key, 1, aggs, 3, NULL, &c->out, NULL, NULL);
}

static void alloc_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_frame_free(c->out);
  c->out = NULL;
}

static void allocation_failures_leave_nothing(void **state) {
  (void)state;
  alloc_ctx c;
  memset(&c, 0, sizeof c);
  make_sides(&c.left, &c.right);
  for (int g = 0; g < 2; ++g) {
    c.groupby = g == 1;
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &c) >= 2);
  }
  gcol_frame_free(c.left);
  gcol_frame_free(c.right);
}

/* ---- row operations: sort, filter, distinct, gather, slice, head, concatenate ---- */

/* A two-level frame and its host copy: ("k", "a") INT32 with nulls, ("k", "b") INT32,
 * ("v", "id") INT32 row ids (no nulls: they tell each result row's source row),
 * ("v", "s") STRING with nulls, ("m", "flag") BOOL8 with nulls. Few distinct values, so
 * keys repeat. */
enum { NCOL = 5, MAXR = 1000 };
static const char *row_names[NCOL][2] = {
    {"k", "a"}, {"k", "b"}, {"v", "id"}, {"v", "s"}, {"m", "flag"}};
static const int64_t row_sizes[] = {0, 1, 2, 7, 33, 129, 1000};

typedef struct named_rows {
  int64_t n;
  int32_t ka[MAXR], kb[MAXR], id[MAXR];
  uint8_t flag[MAXR], ka_valid[MAXR], s_valid[MAXR], flag_valid[MAXR];
  char s[MAXR][4];
  gcol_frame *frame;
} named_rows;

static named_rows rows_in; /* one at a time */

static gcol_name row_name(int32_t c) { return gcol_name_make(row_names[c], 2); }

static void make_rows(named_rows *in, int64_t n, uint64_t salt) {
  gcol_test_rng rng = gcol_test_rng_make(salt);
  const char *strings[MAXR];
  in->n = n;
  for (int64_t i = 0; i < n; ++i) {
    in->ka[i] = (int32_t)gcol_test_rng_range(&rng, -2, 2);
    in->ka_valid[i] = gcol_test_rng_range(&rng, 0, 5) != 0;
    in->kb[i] = (int32_t)gcol_test_rng_range(&rng, 0, 2);
    in->id[i] = (int32_t)i;
    snprintf(in->s[i], sizeof in->s[i], "s%d", (int)gcol_test_rng_range(&rng, 0, 3));
    in->s_valid[i] = gcol_test_rng_range(&rng, 0, 7) != 0;
    strings[i] = in->s_valid[i] ? in->s[i] : NULL;
    in->flag[i] = (uint8_t)gcol_test_rng_range(&rng, 0, 1);
    in->flag_valid[i] = gcol_test_rng_range(&rng, 0, 4) != 0;
  }
  gcol_column *cols[NCOL];
  gcol_name names[NCOL];
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, in->ka,
                                            in->ka_valid, NULL, NULL, &cols[0]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, in->kb, NULL, NULL,
                                            NULL, &cols[1]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, in->id, NULL, NULL,
                                            NULL, &cols[2]));
  GCOL_TEST_OK(gcol_column_create_strings_from_host(n, strings, NULL, NULL, NULL, &cols[3]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), n, in->flag,
                                            in->flag_valid, NULL, NULL, &cols[4]));
  for (int32_t c = 0; c < NCOL; ++c) names[c] = row_name(c);
  gcol_table *table = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, NCOL, &table));
  in->frame = NULL;
  GCOL_TEST_OK(gcol_frame_make(table, names, NCOL, 2, &in->frame));
}

/* Asserts that `out` has the input's names and levels, in order, and `count` rows: row r is
 * input row want[r] in every column (values and nulls), or all null where want[r] is -1. */
static void assert_rows(const named_rows *in, const gcol_frame *out, const int32_t *want,
                        int64_t count) {
  assert_int_equal(gcol_frame_num_columns(out), NCOL);
  assert_int_equal(gcol_frame_num_levels(out), 2);
  for (int32_t c = 0; c < NCOL; ++c) {
    gcol_name name;
    GCOL_TEST_OK(gcol_frame_get_name(out, c, &name));
    assert_string_equal(name.levels[0], row_names[c][0]);
    assert_string_equal(name.levels[1], row_names[c][1]);
  }
  assert_int_equal(gcol_frame_num_rows(out), count);
  size_t const m = (size_t)(count > 0 ? count : 1);
  int32_t *ka = malloc(m * 4), *kb = malloc(m * 4), *id = malloc(m * 4);
  uint8_t *flag = malloc(m), *v_ka = malloc(m), *v_kb = malloc(m), *v_id = malloc(m);
  uint8_t *v_flag = malloc(m);
  gcol_table_view const view = gcol_frame_get_view(out);
  GCOL_TEST_OK(gcol_column_copy_to_host(view.columns[0], ka, v_ka, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(view.columns[1], kb, v_kb, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(view.columns[2], id, v_id, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(view.columns[4], flag, v_flag, NULL));
  gcol_host_strings *s = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(view.columns[3], NULL, &s));
  for (int64_t r = 0; r < count; ++r) {
    int32_t const w = want[r];
    if (w < 0) { /* a null row */
      if (v_ka[r] || v_kb[r] || v_id[r] || v_flag[r] || s->valid[r])
        fail_msg("row %lld should be null in every column", (long long)r);
      continue;
    }
    if (!v_id[r] || id[r] != w)
      fail_msg("row %lld: id %d (valid %d), expected %d", (long long)r, id[r], v_id[r], w);
    assert_int_equal(v_ka[r], in->ka_valid[w]);
    if (v_ka[r]) assert_int_equal(ka[r], in->ka[w]);
    assert_true(v_kb[r]);
    assert_int_equal(kb[r], in->kb[w]);
    assert_int_equal(v_flag[r], in->flag_valid[w]);
    if (v_flag[r]) assert_int_equal(flag[r] != 0, in->flag[w] != 0);
    assert_int_equal(s->valid[r], in->s_valid[w]);
    if (s->valid[r]) {
      int64_t const len = s->offsets[r + 1] - s->offsets[r];
      assert_int_equal(len, (int64_t)strlen(in->s[w]));
      assert_memory_equal(s->chars + s->offsets[r], in->s[w], (size_t)len);
    }
  }
  gcol_host_strings_free(s);
  free(ka), free(kb), free(id), free(flag), free(v_ka), free(v_kb), free(v_id), free(v_flag);
}

/* ---- host references ---- */

/* The sort of row_sort_keys: ("k","a") descending, nulls first; ("v","s") ascending, nulls
 * last; ("k","b") ascending; ties by input row (stable). */
static int compare_sorted(const void *pa, const void *pb) {
  const named_rows *in = &rows_in;
  int32_t const a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  if (in->ka_valid[a] != in->ka_valid[b]) return in->ka_valid[a] ? 1 : -1; /* null first */
  if (in->ka_valid[a] && in->ka[a] != in->ka[b]) return in->ka[a] > in->ka[b] ? -1 : 1;
  if (in->s_valid[a] != in->s_valid[b]) return in->s_valid[a] ? -1 : 1; /* null last */
  if (in->s_valid[a]) {
    int const c = strcmp(in->s[a], in->s[b]);
    if (c != 0) return c;
  }
  if (in->kb[a] != in->kb[b]) return in->kb[a] < in->kb[b] ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* Whether rows i and j have equal ("k","a"), ("k","b") keys. */
static bool same_keys(const named_rows *in, int64_t i, int64_t j, gcol_null_equality nulls) {
  if (in->kb[i] != in->kb[j]) return false;
  if (!in->ka_valid[i] || !in->ka_valid[j])
    return nulls == GCOL_NULLS_EQUAL && !in->ka_valid[i] && !in->ka_valid[j];
  return in->ka[i] == in->ka[j];
}

/* The rows gcol_distinct keeps, in input order. */
static int64_t expected_distinct(const named_rows *in, gcol_duplicate_keep keep,
                                 gcol_null_equality nulls, int32_t *want) {
  int64_t count = 0;
  for (int64_t i = 0; i < in->n; ++i) {
    bool before = false, after = false;
    for (int64_t j = 0; j < in->n; ++j) {
      if (j == i || !same_keys(in, i, j, nulls)) continue;
      if (j < i) before = true;
      if (j > i) after = true;
    }
    bool const kept = keep == GCOL_KEEP_FIRST  ? !before
                      : keep == GCOL_KEEP_LAST ? !after
                                               : !before && !after;
    if (kept) want[count++] = (int32_t)i;
  }
  return count;
}

static void sort_carries_names_and_rows(void **state) {
  (void)state;
  static int32_t want[MAXR];
  for (size_t k = 0; k < sizeof row_sizes / sizeof row_sizes[0]; ++k) {
    make_rows(&rows_in, row_sizes[k], 1600 + k);
    gcol_name by[3] = {row_name(0), row_name(3), row_name(1)};
    gcol_order order[3] = {GCOL_ORDER_DESCENDING, GCOL_ORDER_ASCENDING, GCOL_ORDER_ASCENDING};
    gcol_null_order nulls[3] = {GCOL_NULLS_BEFORE, GCOL_NULLS_AFTER, GCOL_NULLS_AFTER};
    gcol_frame *out = NULL;
    GCOL_TEST_OK(gcol_frame_sort(rows_in.frame, by, 3, order, nulls, &out, NULL, NULL));
    for (int64_t i = 0; i < rows_in.n; ++i) want[i] = (int32_t)i;
    qsort(want, (size_t)rows_in.n, sizeof *want, compare_sorted);
    assert_rows(&rows_in, out, want, rows_in.n);
    gcol_frame_free(out);
    /* defaults (ascending, nulls after) by ("k","b") alone; a repeated key changes nothing */
    gcol_name kb2[2] = {row_name(1), row_name(1)};
    GCOL_TEST_OK(gcol_frame_sort(rows_in.frame, kb2, 2, NULL, NULL, &out, NULL, NULL));
    int64_t count = 0;
    for (int32_t b = 0; b < 3; ++b) {
      for (int64_t i = 0; i < rows_in.n; ++i) {
        if (rows_in.kb[i] == b) want[count++] = (int32_t)i;
      }
    }
    assert_rows(&rows_in, out, want, rows_in.n);
    gcol_frame_free(out);
    gcol_frame_free(rows_in.frame);
  }
}

static void filter_by_a_named_column_or_a_mask(void **state) {
  (void)state;
  static int32_t want[MAXR];
  static uint8_t mask[MAXR], mask_valid[MAXR];
  for (size_t k = 0; k < sizeof row_sizes / sizeof row_sizes[0]; ++k) {
    make_rows(&rows_in, row_sizes[k], 1700 + k);
    int64_t const n = rows_in.n;
    gcol_frame *out = NULL;
    GCOL_TEST_OK(gcol_frame_filter(rows_in.frame, row_name(4), &out, NULL, NULL));
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (rows_in.flag_valid[i] && rows_in.flag[i]) want[count++] = (int32_t)i;
    }
    assert_rows(&rows_in, out, want, count); /* the mask column is kept */
    gcol_frame_free(out);
    /* a mask of the caller's: rows i % 3 != 0, null where i % 4 == 1 */
    count = 0;
    for (int64_t i = 0; i < n; ++i) {
      mask[i] = i % 3 != 0;
      mask_valid[i] = i % 4 != 1;
      if (mask[i] && mask_valid[i]) want[count++] = (int32_t)i;
    }
    gcol_column *m = NULL;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), n, mask, mask_valid,
                                              NULL, NULL, &m));
    GCOL_TEST_OK(
        gcol_frame_apply_boolean_mask(rows_in.frame, gcol_column_get_view(m), &out, NULL, NULL));
    assert_rows(&rows_in, out, want, count);
    gcol_frame_free(out);
    gcol_column_free(m);
    gcol_frame_free(rows_in.frame);
  }
}

static void distinct_by_a_named_subset(void **state) {
  (void)state;
  static int32_t want[MAXR];
  gcol_duplicate_keep const keeps[] = {GCOL_KEEP_FIRST, GCOL_KEEP_LAST, GCOL_KEEP_NONE};
  for (size_t k = 0; k < sizeof row_sizes / sizeof row_sizes[0]; ++k) {
    make_rows(&rows_in, row_sizes[k], 1800 + k);
    gcol_name subset[2] = {row_name(1), row_name(0)};
    for (int nulls = 0; nulls < 2; ++nulls) {
      for (size_t e = 0; e < 3; ++e) {
        gcol_null_equality const ne = nulls ? GCOL_NULLS_UNEQUAL : GCOL_NULLS_EQUAL;
        gcol_frame *out = NULL;
        GCOL_TEST_OK(gcol_frame_distinct(rows_in.frame, subset, 2, keeps[e], ne, &out, NULL, NULL));
        int64_t const count = expected_distinct(&rows_in, keeps[e], ne, want);
        assert_rows(&rows_in, out, want, count);
        gcol_frame_free(out);
      }
    }
    /* no subset: every column a key; the ids are unique, so every row stays */
    gcol_frame *out = NULL;
    GCOL_TEST_OK(gcol_frame_distinct(rows_in.frame, NULL, 0, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL,
                                     &out, NULL, NULL));
    for (int64_t i = 0; i < rows_in.n; ++i) want[i] = (int32_t)i;
    assert_rows(&rows_in, out, want, rows_in.n);
    gcol_frame_free(out);
    gcol_frame_free(rows_in.frame);
  }
}

static void gather_by_a_row_map(void **state) {
  (void)state;
  static int32_t want[2 * MAXR], map[2 * MAXR];
  static uint8_t map_valid[2 * MAXR];
  for (size_t k = 0; k < sizeof row_sizes / sizeof row_sizes[0]; ++k) {
    make_rows(&rows_in, row_sizes[k], 1900 + k);
    int64_t const n = rows_in.n, m = 2 * n;
    gcol_test_rng rng = gcol_test_rng_make(1950 + k);
    for (int64_t i = 0; i < m; ++i) { /* negative indices wrap; some entries null */
      map[i] = (int32_t)gcol_test_rng_range(&rng, -n, n - 1);
      map_valid[i] = gcol_test_rng_range(&rng, 0, 6) != 0;
      want[i] = !map_valid[i] ? -1 : map[i] < 0 ? (int32_t)(n + map[i]) : map[i];
    }
    gcol_column *gm = NULL;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), m, map, map_valid,
                                              NULL, NULL, &gm));
    gcol_frame *out = NULL;
    GCOL_TEST_OK(gcol_frame_gather(rows_in.frame, gcol_column_get_view(gm),
                                   GCOL_OUT_OF_BOUNDS_CHECK, GCOL_NEGATIVE_INDEX_WRAP, &out, NULL,
                                   NULL));
    assert_rows(&rows_in, out, want, m);
    gcol_frame_free(out);
    gcol_column_free(gm);
    /* an index past the end: refused under CHECK, a null row under NULLIFY */
    int32_t const past[2] = {0, (int32_t)n};
    int32_t const want_past[2] = {n > 0 ? 0 : -1, -1};
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 2, past, NULL, NULL,
                                              NULL, &gm));
    out = rows_in.frame;
    GCOL_TEST_STATUS(
        gcol_frame_gather(rows_in.frame, gcol_column_get_view(gm), GCOL_OUT_OF_BOUNDS_CHECK,
                          GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
        GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(out);
    GCOL_TEST_OK(gcol_frame_gather(rows_in.frame, gcol_column_get_view(gm),
                                   GCOL_OUT_OF_BOUNDS_NULLIFY, GCOL_NEGATIVE_INDEX_WRAP, &out, NULL,
                                   NULL));
    assert_rows(&rows_in, out, want_past, 2);
    gcol_frame_free(out);
    gcol_column_free(gm);
    gcol_frame_free(rows_in.frame);
  }
}

static void slice_and_head_copy_rows(void **state) {
  (void)state;
  static int32_t want[MAXR];
  for (int64_t i = 0; i < MAXR; ++i) want[i] = (int32_t)i;
  for (size_t k = 0; k < sizeof row_sizes / sizeof row_sizes[0]; ++k) {
    make_rows(&rows_in, row_sizes[k], 2000 + k);
    int64_t const n = rows_in.n;
    gcol_frame *out = NULL;
    int64_t const begin = n / 3, end = n - n / 4;
    GCOL_TEST_OK(gcol_frame_slice(rows_in.frame, begin, end, &out, NULL, NULL));
    assert_rows(&rows_in, out, want + begin, end - begin);
    gcol_frame_free(out);
    GCOL_TEST_OK(gcol_frame_slice(rows_in.frame, n, n, &out, NULL, NULL)); /* empty, at the end */
    assert_rows(&rows_in, out, want, 0);
    gcol_frame_free(out);
    /* head: n rows, all of them past the end, all but the last -n, none */
    int64_t const heads[][2] = {{5, n < 5 ? n : 5}, {n + 10, n},    {-4, n > 4 ? n - 4 : 0}, {0, 0},
                                {-n - 1, 0},        {INT64_MIN, 0}, {INT64_MAX, n}};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; ++h) {
      GCOL_TEST_OK(gcol_frame_head(rows_in.frame, heads[h][0], &out, NULL, NULL));
      assert_rows(&rows_in, out, want, heads[h][1]);
      gcol_frame_free(out);
    }
    /* bounds outside the rows */
    int64_t const bad[][2] = {{-1, 1}, {1, 0}, {0, n + 1}, {n + 1, n + 1}};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
      out = rows_in.frame;
      GCOL_TEST_STATUS(gcol_frame_slice(rows_in.frame, bad[b][0], bad[b][1], &out, NULL, NULL),
                       GCOL_ERROR_INVALID_ARGUMENT);
      assert_null(out);
      assert_non_null(strstr(gcol_last_error(), "gcol_frame_slice"));
    }
    gcol_frame_free(rows_in.frame);
  }
}

static void concatenate_matches_columns_by_name(void **state) {
  (void)state;
  static int32_t want[3 * MAXR];
  for (size_t k = 0; k < sizeof row_sizes / sizeof row_sizes[0]; ++k) {
    make_rows(&rows_in, row_sizes[k], 2100 + k);
    int64_t const n = rows_in.n;
    /* the same columns in another order: matched by name, the result in frames[0]'s order */
    gcol_name reordered[NCOL] = {row_name(3), row_name(0), row_name(4), row_name(2), row_name(1)};
    gcol_frame *other = NULL, *out = NULL;
    GCOL_TEST_OK(gcol_frame_select(rows_in.frame, reordered, NCOL, NULL, &other));
    const gcol_frame *frames[3] = {rows_in.frame, other, rows_in.frame};
    GCOL_TEST_OK(gcol_frame_concatenate(frames, 3, &out, NULL, NULL));
    for (int64_t i = 0; i < 3 * n; ++i) want[i] = (int32_t)(i % (n > 0 ? n : 1));
    assert_rows(&rows_in, out, want, 3 * n);
    gcol_frame_free(out);
    GCOL_TEST_OK(gcol_frame_concatenate(frames, 1, &out, NULL, NULL)); /* one frame: a copy */
    assert_rows(&rows_in, out, want, n);
    gcol_frame_free(out);
    gcol_frame_free(other);
    gcol_frame_free(rows_in.frame);
  }
}

static void row_operations_refuse_bad_input(void **state) {
  (void)state;
  make_rows(&rows_in, 9, 2200);
  gcol_frame *const f = rows_in.frame;
  gcol_frame *out = NULL;
  static const char *nope[] = {"k", "nope"}, *flat[] = {"k"};
  gcol_name const missing = gcol_name_make(nope, 2), one_level = gcol_name_make(flat, 1);
  gcol_name by[2] = {row_name(0), missing};
  /* sort */
  out = f;
  GCOL_TEST_STATUS(gcol_frame_sort(f, by, 2, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "gcol_frame_sort"));
  assert_non_null(strstr(gcol_last_error(), "('k', 'nope')"));
  GCOL_TEST_STATUS(gcol_frame_sort(f, &one_level, 1, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_sort(f, by, 0, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_sort(f, NULL, 1, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_sort(NULL, by, 1, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_sort(f, by, 1, NULL, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_order const bad_order[1] = {(gcol_order)7}; /* the sort's own check, passed through */
  GCOL_TEST_STATUS(gcol_frame_sort(f, by, 1, bad_order, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  /* filter: unknown, not BOOL8; a mask of other rows or type */
  GCOL_TEST_STATUS(gcol_frame_filter(f, missing, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_filter(f, row_name(0), &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_non_null(strstr(gcol_last_error(), "gcol_frame_filter"));
  assert_non_null(strstr(gcol_last_error(), "the mask column ('k', 'a') is int32, not bool8"));
  GCOL_TEST_STATUS(gcol_frame_filter(NULL, row_name(4), &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_filter(f, row_name(4), NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_table_view const view = gcol_frame_get_view(f);
  gcol_column_view short_mask;
  GCOL_TEST_OK(gcol_column_view_slice(view.columns[4], 0, 8, &short_mask));
  GCOL_TEST_STATUS(gcol_frame_apply_boolean_mask(f, short_mask, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_non_null(strstr(gcol_last_error(), "gcol_frame_apply_boolean_mask"));
  GCOL_TEST_STATUS(gcol_frame_apply_boolean_mask(f, view.columns[0], &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_frame_apply_boolean_mask(NULL, view.columns[4], &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  /* distinct: unknown, negative count, NULL subset, a frame without columns */
  GCOL_TEST_STATUS(
      gcol_frame_distinct(f, by, 2, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "gcol_frame_distinct"));
  GCOL_TEST_STATUS(
      gcol_frame_distinct(f, by, -1, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_frame_distinct(f, NULL, 1, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_frame_distinct(f, by, 1, (gcol_duplicate_keep)9, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  gcol_frame *empty = NULL;
  GCOL_TEST_OK(gcol_frame_select(f, NULL, 0, NULL, &empty));
  GCOL_TEST_STATUS(
      gcol_frame_distinct(empty, NULL, 0, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  /* gather: a map that is not integers */
  GCOL_TEST_STATUS(gcol_frame_gather(f, view.columns[3], GCOL_OUT_OF_BOUNDS_CHECK,
                                     GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_frame_gather(NULL, view.columns[0], GCOL_OUT_OF_BOUNDS_CHECK,
                                     GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_head(NULL, 3, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_head(f, 3, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "gcol_frame_head"));
  assert_null(out);
  /* concatenate: names that do not match, types that differ */
  gcol_frame *renamed = NULL, *fewer = NULL, *retyped = NULL;
  GCOL_TEST_OK(gcol_frame_copy_shallow(f, NULL, &renamed));
  static const char *other_id[] = {"v", "row"};
  GCOL_TEST_OK(gcol_frame_rename(renamed, row_name(2), gcol_name_make(other_id, 2)));
  const gcol_frame *pair[2] = {f, renamed};
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "gcol_frame_concatenate"));
  assert_non_null(strstr(gcol_last_error(), "frames[1] has no column named ('v', 'id')"));
  GCOL_TEST_OK(gcol_frame_copy_shallow(f, NULL, &fewer));
  gcol_name const drop = row_name(3);
  GCOL_TEST_OK(gcol_frame_drop(fewer, &drop, 1));
  pair[1] = fewer;
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "frames[1] has 4 columns, frames[0] 5"));
  GCOL_TEST_OK(gcol_frame_copy_shallow(f, NULL, &retyped));
  gcol_column *kb = NULL, *wide = NULL;
  GCOL_TEST_OK(gcol_frame_pop(retyped, row_name(1), &kb));
  GCOL_TEST_OK(
      gcol_cast(gcol_column_get_view(kb), gcol_data_type_make(GCOL_INT64), &wide, NULL, NULL));
  GCOL_TEST_OK(gcol_frame_insert(retyped, 1, row_name(1), wide));
  pair[1] = retyped;
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_non_null(
      strstr(gcol_last_error(), "column ('k', 'b') is int64 in frames[1], int32 in frames[0]"));
  int32_t a[9] = {0};
  int32_t *values[1] = {a};
  gcol_frame *single = frame_of(flat, 1, 1, values, 9);
  pair[1] = single;
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "frames[1]'s names have 1 levels, frames[0]'s 2"));
  pair[1] = NULL;
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 0, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_concatenate(NULL, 1, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 1, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_column_free(kb);
  gcol_frame_free(single);
  gcol_frame_free(retyped);
  gcol_frame_free(fewer);
  gcol_frame_free(renamed);
  gcol_frame_free(empty);
  gcol_frame_free(f);
}

typedef enum row_op {
  OP_SORT,
  OP_FILTER,
  OP_DISTINCT,
  OP_GATHER,
  OP_SLICE,
  OP_CONCAT,
  NUM_OPS
} row_op;

typedef struct row_ctx {
  row_op op;
  const gcol_frame *frame;
  gcol_column_view map;
  gcol_frame *out;
} row_ctx;

static gcol_status row_alloc_op(void *p) {
  row_ctx *c = (row_ctx *)p;
  gcol_name by[2] = {row_name(3), row_name(0)};
  switch (c->op) {
    case OP_SORT:
      return gcol_frame_sort(c->frame, by, 2, NULL, NULL, &c->out, NULL, NULL);
    case OP_FILTER:
      return gcol_frame_filter(c->frame, row_name(4), &c->out, NULL, NULL);
    case OP_DISTINCT:
      return gcol_frame_distinct(c->frame, by, 2, GCOL_KEEP_LAST, GCOL_NULLS_EQUAL, &c->out, NULL,
                                 NULL);
    case OP_GATHER:
      return gcol_frame_gather(c->frame, c->map, GCOL_OUT_OF_BOUNDS_CHECK, GCOL_NEGATIVE_INDEX_WRAP,
                               &c->out, NULL, NULL);
    case OP_SLICE:
      return gcol_frame_head(c->frame, -3, &c->out, NULL, NULL);
    case OP_CONCAT: {
      const gcol_frame *frames[2] = {c->frame, c->frame};
      return gcol_frame_concatenate(frames, 2, &c->out, NULL, NULL);
    }
    default:
      return GCOL_ERROR_INVALID_ARGUMENT;
  }
}

static void row_alloc_cleanup(void *p) {
  row_ctx *c = (row_ctx *)p;
  gcol_frame_free(c->out);
  c->out = NULL;
}

static void row_operations_survive_allocation_failures(void **state) {
  (void)state;
  make_rows(&rows_in, 129, 2300);
  int32_t map[40];
  for (int32_t i = 0; i < 40; ++i) map[i] = (i * 37) % 129 - 64;
  gcol_column *gm = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 40, map, NULL, NULL,
                                            NULL, &gm));
  row_ctx c;
  memset(&c, 0, sizeof c);
  c.frame = rows_in.frame;
  c.map = gcol_column_get_view(gm);
  for (int op = 0; op < NUM_OPS; ++op) {
    c.op = (row_op)op;
    if (gcol_test_check_allocation_failures(row_alloc_op, row_alloc_cleanup, &c) < 1)
      fail_msg("operation %d made no device allocation", op);
  }
  gcol_column_free(gm);
  gcol_frame_free(rows_in.frame);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(join_suffixes_collisions_and_leaves_out_right_keys),
      GCOL_TEST_GPU(join_two_level_names),
      GCOL_TEST_GPU(groupby_names_its_results),
      GCOL_TEST_GPU(bad_input_is_refused_with_a_message),
      GCOL_TEST_GPU(allocation_failures_leave_nothing),
      GCOL_TEST_GPU(sort_carries_names_and_rows),
      GCOL_TEST_GPU(filter_by_a_named_column_or_a_mask),
      GCOL_TEST_GPU(distinct_by_a_named_subset),
      GCOL_TEST_GPU(gather_by_a_row_map),
      GCOL_TEST_GPU(slice_and_head_copy_rows),
      GCOL_TEST_GPU(concatenate_matches_columns_by_name),
      GCOL_TEST_GPU(row_operations_refuse_bad_input),
      GCOL_TEST_GPU(row_operations_survive_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("frame_ops", tests);
}
