/*
 * Joins and groupby over frames (frame_ops.h) on the GPU: the names each result carries
 * (suffixes on collisions, right keys left out or kept, semi joins, two-level names,
 * aggregation names), the values under those names, bad input, allocation failures.
 */
#include <stdlib.h>
#include <string.h>

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

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(join_suffixes_collisions_and_leaves_out_right_keys),
      GCOL_TEST_GPU(join_two_level_names),
      GCOL_TEST_GPU(groupby_names_its_results),
      GCOL_TEST_GPU(bad_input_is_refused_with_a_message),
      GCOL_TEST_GPU(allocation_failures_leave_nothing),
  };
  return GCOL_TEST_RUN_GPU("frame_ops", tests);
}
