/*
 * Named tables on the CPU: columns are INT32 columns over a host memory resource (wrapped
 * in a statistics adaptor, so every test ends with nothing allocated), so the name
 * bookkeeping, selection (by names and by level prefix), rename, insert, pop and drop run
 * without a GPU, and so do the name checks of frame_ops.h's row operations, which fail
 * before any device work.
 */
#include "gcol/frame_ops.h"
#include "test_util.h"

static gcol_mr *host_mr = NULL;
static gcol_mr *stats = NULL;

static int host_setup(void **state) {
  (void)state;
  GCOL_TEST_OK(gcol_mr_host_create(&host_mr));
  GCOL_TEST_OK(gcol_mr_statistics_create(host_mr, &stats));
  gcol_clear_last_error();
  return 0;
}

static int host_teardown(void **state) {
  (void)state;
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &s));
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host_mr);
  stats = host_mr = NULL;
  if (s.current_bytes != 0 || s.current_allocations != 0)
    fail_msg("%lld bytes in %lld allocations still live", (long long)s.current_bytes,
             (long long)s.current_allocations);
  return 0;
}

#define HOST_TEST(fn) cmocka_unit_test_setup_teardown(fn, host_setup, host_teardown)

/* An INT32 column of n rows in host memory, row i holding tag * 1000 + i. */
static gcol_column *host_column(int64_t n, int32_t tag) {
  gcol_buffer *data = NULL;
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_buffer_create((size_t)n * 4, NULL, stats, &data));
  for (int64_t i = 0; i < n; ++i) ((int32_t *)data->data)[i] = tag * 1000 + (int32_t)i;
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT32), n, data, NULL, 0, NULL, 0, &col));
  return col;
}

static int32_t tag_of(const gcol_column *col) {
  return col->size > 0 ? ((const int32_t *)col->data->data)[0] / 1000 : -1;
}

static gcol_table *host_table(int32_t num_columns, int64_t rows) {
  gcol_column *cols[64];
  gcol_table *t = NULL;
  assert_true(num_columns <= 64);
  for (int32_t i = 0; i < num_columns; ++i) cols[i] = host_column(rows, i);
  GCOL_TEST_OK(gcol_table_make(cols, num_columns, &t));
  return t;
}

/* Names ("a","x"), ("b","x"), ("a","y") over tags 0, 1, 2. */
static const char *ax[] = {"a", "x"}, *bx[] = {"b", "x"}, *ay[] = {"a", "y"};
static const char *bz[] = {"b", "z"}, *cc[] = {"c", "c"};
static const char *a1[] = {"a"}, *b1[] = {"b"}, *z1[] = {"z"};

static gcol_frame *abx_frame(int64_t rows) {
  gcol_name names[3] = {gcol_name_make(ax, 2), gcol_name_make(bx, 2), gcol_name_make(ay, 2)};
  gcol_frame *f = NULL;
  GCOL_TEST_OK(gcol_frame_make(host_table(3, rows), names, 3, 2, &f));
  return f;
}

static void assert_name(const gcol_frame *f, int32_t i, const char *l0, const char *l1) {
  gcol_name n;
  GCOL_TEST_OK(gcol_frame_get_name(f, i, &n));
  assert_int_equal(n.num_levels, 2);
  assert_string_equal(n.levels[0], l0);
  assert_string_equal(n.levels[1], l1);
}

static void assert_error_mentions(const char *text) {
  if (strstr(gcol_last_error(), text) == NULL)
    fail_msg("the message \"%s\" does not mention \"%s\"", gcol_last_error(), text);
}

/* ---- make and queries ---- */

static void make_copies_names_and_takes_the_table(void **state) {
  (void)state;
  char level0[] = "a", level1[] = "x";
  const char *mine[] = {level0, level1};
  gcol_table *t = host_table(2, 5);
  gcol_column *first = t->columns[0];
  gcol_name names[2] = {gcol_name_make(mine, 2), gcol_name_make(ay, 2)};
  gcol_frame *f = NULL;
  GCOL_TEST_OK(gcol_frame_make(t, names, 2, 2, &f));
  level0[0] = 'q'; /* the frame kept its own copy */
  assert_name(f, 0, "a", "x");
  assert_name(f, 1, "a", "y");
  assert_int_equal(gcol_frame_num_columns(f), 2);
  assert_int_equal(gcol_frame_num_levels(f), 2);
  assert_int_equal(gcol_frame_num_rows(f), 5);
  assert_ptr_equal(gcol_frame_get_column(f, 0), first);
  assert_null(gcol_frame_get_column(f, 2));
  assert_null(gcol_frame_get_column(f, -1));
  gcol_table_view v = gcol_frame_get_view(f);
  assert_int_equal(v.num_columns, 2);
  assert_int_equal(v.num_rows, 5);
  assert_ptr_equal(v.columns[1].data, t->columns[1]->data->data);
  int32_t idx = 7;
  GCOL_TEST_OK(gcol_frame_find(f, gcol_name_make(ay, 2), &idx));
  assert_int_equal(idx, 1);
  GCOL_TEST_OK(gcol_frame_find(f, gcol_name_make(bx, 2), &idx));
  assert_int_equal(idx, -1); /* unknown: a query, not an error */
  GCOL_TEST_STATUS(gcol_frame_find(f, gcol_name_make(a1, 1), &idx), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("has 1 levels, the frame's names have 2");
  gcol_name n;
  GCOL_TEST_STATUS(gcol_frame_get_name(f, 2, &n), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_get_name");
  gcol_frame_free(f);
  gcol_frame_free(NULL);
  assert_int_equal(gcol_frame_num_columns(NULL), 0);
  assert_int_equal(gcol_frame_get_view(NULL).num_columns, 0);
}

static void single_level_and_empty_frames(void **state) {
  (void)state;
  const char *n0 = "price", *n1 = "qty", *n2 = "";
  gcol_name names[3] = {gcol_name_make(&n0, 1), gcol_name_make(&n1, 1), gcol_name_make(&n2, 1)};
  gcol_frame *f = NULL;
  GCOL_TEST_OK(gcol_frame_make(host_table(3, 0), names, 3, 1, &f));
  int32_t idx = -1;
  GCOL_TEST_OK(gcol_frame_find(f, gcol_name_make(&n2, 1), &idx)); /* "" is a name */
  assert_int_equal(idx, 2);
  gcol_frame_free(f);
  gcol_table *empty = NULL;
  GCOL_TEST_OK(gcol_table_make(NULL, 0, &empty));
  GCOL_TEST_OK(gcol_frame_make(empty, NULL, 0, 3, &f));
  assert_int_equal(gcol_frame_num_columns(f), 0);
  assert_int_equal(gcol_frame_num_levels(f), 3);
  /* the first column inserted sets the rows */
  const char *xyz[] = {"x", "y", "z"};
  GCOL_TEST_OK(gcol_frame_insert(f, 0, gcol_name_make(xyz, 3), host_column(9, 4)));
  assert_int_equal(gcol_frame_num_rows(f), 9);
  gcol_frame_free(f);
}

static void make_refuses_bad_names_and_leaves_the_table(void **state) {
  (void)state;
  gcol_table *t = host_table(3, 4);
  gcol_frame *f = (gcol_frame *)&f; /* must become NULL */
  const char *bad[] = {"a", NULL};
  gcol_name good[3] = {gcol_name_make(ax, 2), gcol_name_make(bx, 2), gcol_name_make(ay, 2)};
  gcol_name mixed[3] = {gcol_name_make(ax, 2), gcol_name_make(a1, 1), gcol_name_make(ay, 2)};
  gcol_name nulls[3] = {gcol_name_make(ax, 2), gcol_name_make(bad, 2), gcol_name_make(ay, 2)};
  gcol_name dup[3] = {gcol_name_make(ay, 2), gcol_name_make(bx, 2), gcol_name_make(ay, 2)};
  GCOL_TEST_STATUS(gcol_frame_make(t, good, 3, 2, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_make(NULL, good, 3, 2, &f), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(f);
  GCOL_TEST_STATUS(gcol_frame_make(t, good, 3, 0, &f), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("num_levels is 0");
  GCOL_TEST_STATUS(gcol_frame_make(t, good, 2, 2, &f), GCOL_ERROR_SIZE_MISMATCH);
  assert_error_mentions("2 names for 3 columns");
  GCOL_TEST_STATUS(gcol_frame_make(t, NULL, 3, 2, &f), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_make(t, mixed, 3, 2, &f), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_make: names[1] has 1 levels, the frame's names have 2");
  GCOL_TEST_STATUS(gcol_frame_make(t, good, 3, 1, &f), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("names[0] has 2 levels");
  GCOL_TEST_STATUS(gcol_frame_make(t, nulls, 3, 2, &f), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("names[1]: level 1 is NULL");
  GCOL_TEST_STATUS(gcol_frame_make(t, dup, 3, 2, &f), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("columns 0 and 2 have the same name ('a', 'y')");
  assert_null(f);
  gcol_table_free(t); /* still the caller's after every failure */
}

static void duplicates_among_many_columns(void **state) {
  (void)state;
  enum { N = 3000 };
  static char text[N][2][16];
  static const char *levels[N][2];
  static gcol_name names[N];
  static gcol_column *cols[N];
  for (int i = 0; i < N; ++i) {
    /* distinct names that share first levels and whole strings across levels */
    snprintf(text[i][0], sizeof text[i][0], "g%d", i % 17);
    snprintf(text[i][1], sizeof text[i][1], "c%d", i);
    levels[i][0] = text[i][0];
    levels[i][1] = text[i][1];
    names[i] = gcol_name_make(levels[i], 2);
    cols[i] = NULL;
    GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT8), 0, NULL, NULL, 0, NULL, 0, &cols[i]));
  }
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, N, &t));
  /* one duplicate, far apart: found */
  levels[2999][0] = levels[17][0];
  levels[2999][1] = levels[17][1];
  gcol_frame *f = NULL;
  GCOL_TEST_STATUS(gcol_frame_make(t, names, N, 2, &f), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("columns 17 and 2999 have the same name ('g0', 'c17')");
  levels[2999][0] = text[2999][0];
  levels[2999][1] = text[2999][1];
  GCOL_TEST_OK(gcol_frame_make(t, names, N, 2, &f));
  int32_t idx = -1;
  GCOL_TEST_OK(gcol_frame_find(f, names[2345], &idx));
  assert_int_equal(idx, 2345);
  const char *g3[] = {"g3"};
  static int32_t found[N];
  int32_t count = 0;
  GCOL_TEST_OK(gcol_frame_prefix_indices(f, gcol_name_make(g3, 1), found, N, &count));
  int32_t expected = 0;
  for (int i = 0; i < N; ++i) {
    if (i % 17 == 3) assert_int_equal(found[expected++], i);
  }
  assert_int_equal(count, expected);
  gcol_frame_free(f);
}

/* ---- selection ---- */

static void select_by_names_in_order(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(6);
  gcol_name want[4] = {gcol_name_make(ay, 2), gcol_name_make(ax, 2), gcol_name_make(ay, 2),
                       gcol_name_make(bx, 2)};
  int32_t idx[4] = {-1, -1, -1, -1};
  GCOL_TEST_OK(gcol_frame_indices(f, want, 4, idx));
  assert_int_equal(idx[0], 2);
  assert_int_equal(idx[1], 0);
  assert_int_equal(idx[2], 2);
  assert_int_equal(idx[3], 1);
  gcol_column_view storage[4];
  gcol_table_view v;
  GCOL_TEST_OK(gcol_frame_select_view(f, want, 4, storage, &v));
  assert_int_equal(v.num_columns, 4);
  assert_int_equal(v.num_rows, 6);
  assert_ptr_equal(v.columns[0].data, gcol_frame_get_column(f, 2)->data->data);
  assert_ptr_equal(v.columns[3].data, gcol_frame_get_column(f, 1)->data->data);
  assert_int_equal(((const int32_t *)v.columns[1].data)[5], 0 * 1000 + 5);
  GCOL_TEST_OK(gcol_frame_select_view(f, NULL, 0, NULL, &v));
  assert_int_equal(v.num_columns, 0);
  /* an unknown name, a level mismatch, bad pointers */
  gcol_name unknown[2] = {gcol_name_make(ax, 2), gcol_name_make(bz, 2)};
  GCOL_TEST_STATUS(gcol_frame_indices(f, unknown, 2, idx), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_indices: no column is named ('b', 'z') (names[1])");
  GCOL_TEST_STATUS(gcol_frame_select_view(f, unknown, 2, storage, &v), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_select_view: no column is named ('b', 'z')");
  gcol_name shallow[1] = {gcol_name_make(a1, 1)};
  GCOL_TEST_STATUS(gcol_frame_indices(f, shallow, 1, idx), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("names[0] has 1 levels, the frame's names have 2");
  GCOL_TEST_STATUS(gcol_frame_indices(NULL, want, 1, idx), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_indices(f, want, -1, idx), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_indices(f, want, 1, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_select_view(f, want, 1, NULL, &v), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_frame_free(f);
}

static void select_by_level_prefix(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(3);
  int32_t idx[3] = {-1, -1, -1}, count = -1;
  GCOL_TEST_OK(gcol_frame_prefix_indices(f, gcol_name_make(a1, 1), idx, 3, &count));
  assert_int_equal(count, 2); /* frame order: ("a","x") at 0, ("a","y") at 2 */
  assert_int_equal(idx[0], 0);
  assert_int_equal(idx[1], 2);
  GCOL_TEST_OK(gcol_frame_prefix_indices(f, gcol_name_make(b1, 1), idx, 3, &count));
  assert_int_equal(count, 1);
  assert_int_equal(idx[0], 1);
  GCOL_TEST_OK(gcol_frame_prefix_indices(f, gcol_name_make(ay, 2), idx, 3, &count));
  assert_int_equal(count, 1); /* every level: the column of that name */
  assert_int_equal(idx[0], 2);
  GCOL_TEST_STATUS(gcol_frame_prefix_indices(f, gcol_name_make(z1, 1), idx, 3, &count),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("no column's name starts with ('z')");
  assert_int_equal(count, 0);
  GCOL_TEST_STATUS(gcol_frame_prefix_indices(f, gcol_name_make(a1, 1), idx, 1, &count),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("2 columns start with ('a'), capacity is 1");
  const char *three[] = {"a", "x", "q"};
  GCOL_TEST_STATUS(gcol_frame_prefix_indices(f, gcol_name_make(three, 3), idx, 3, &count),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("prefix has 3 levels, not 1 to 2");
  GCOL_TEST_STATUS(gcol_frame_prefix_indices(f, gcol_name_make(a1, 0), idx, 3, &count),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_prefix_indices(f, gcol_name_make(a1, 1), idx, 3, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_frame_free(f);
}

/* ---- changes ---- */

static void rename_checks_and_keeps_others(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(2);
  GCOL_TEST_OK(gcol_frame_rename(f, gcol_name_make(bx, 2), gcol_name_make(bz, 2)));
  assert_name(f, 1, "b", "z");
  assert_name(f, 0, "a", "x");
  int32_t idx = 0;
  GCOL_TEST_OK(gcol_frame_find(f, gcol_name_make(bx, 2), &idx));
  assert_int_equal(idx, -1);
  GCOL_TEST_OK(gcol_frame_rename(f, gcol_name_make(ay, 2), gcol_name_make(ay, 2)));
  GCOL_TEST_STATUS(gcol_frame_rename(f, gcol_name_make(ax, 2), gcol_name_make(bz, 2)),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_rename: column 1 is already named ('b', 'z')");
  assert_name(f, 0, "a", "x");
  GCOL_TEST_STATUS(gcol_frame_rename(f, gcol_name_make(bx, 2), gcol_name_make(cc, 2)),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("no column is named ('b', 'x')");
  GCOL_TEST_STATUS(gcol_frame_rename(f, gcol_name_make(ax, 2), gcol_name_make(a1, 1)),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("new_name has 1 levels");
  gcol_frame_free(f);
}

static void insert_at_every_position_and_grow(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(4);
  gcol_column *c = host_column(4, 7);
  GCOL_TEST_OK(gcol_frame_insert(f, 1, gcol_name_make(cc, 2), c));
  assert_int_equal(gcol_frame_num_columns(f), 4);
  assert_ptr_equal(gcol_frame_get_column(f, 1), c);
  assert_name(f, 0, "a", "x");
  assert_name(f, 1, "c", "c");
  assert_name(f, 2, "b", "x");
  assert_name(f, 3, "a", "y");
  assert_int_equal(tag_of(gcol_frame_get_column(f, 3)), 2);
  /* refused: name taken, rows differ, index out of range, level mismatch; the column stays
   * the caller's and the frame is unchanged */
  gcol_column *other = host_column(5, 8);
  GCOL_TEST_STATUS(gcol_frame_insert(f, 0, gcol_name_make(bz, 2), other), GCOL_ERROR_SIZE_MISMATCH);
  assert_error_mentions("column has 5 rows, the frame 4");
  gcol_column_free(other);
  other = host_column(4, 8);
  GCOL_TEST_STATUS(gcol_frame_insert(f, 0, gcol_name_make(ay, 2), other), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("column 3 is already named ('a', 'y')");
  GCOL_TEST_STATUS(gcol_frame_insert(f, 5, gcol_name_make(bz, 2), other), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("index 5 out of range [0, 4]");
  GCOL_TEST_STATUS(gcol_frame_insert(f, -1, gcol_name_make(bz, 2), other), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_insert(f, 0, gcol_name_make(z1, 1), other), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_insert(f, 0, gcol_name_make(bz, 2), NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_frame_num_columns(f), 4);
  /* append at the end (index == num_columns), then many more so the arrays grow */
  GCOL_TEST_OK(gcol_frame_insert(f, 4, gcol_name_make(bz, 2), other));
  assert_name(f, 4, "b", "z");
  char text[100][8];
  const char *levels[100][2];
  for (int i = 0; i < 100; ++i) {
    snprintf(text[i], sizeof text[i], "n%d", i);
    levels[i][0] = "m";
    levels[i][1] = text[i];
    GCOL_TEST_OK(gcol_frame_insert(f, i % 3, gcol_name_make(levels[i], 2), host_column(4, 10 + i)));
  }
  assert_int_equal(gcol_frame_num_columns(f), 105);
  int32_t idx = -1;
  const char *n57[] = {"m", "n57"};
  GCOL_TEST_OK(gcol_frame_find(f, gcol_name_make(n57, 2), &idx));
  assert_int_equal(tag_of(gcol_frame_get_column(f, idx)), 67);
  gcol_table_view v = gcol_frame_get_view(f);
  assert_int_equal(v.num_columns, 105);
  for (int32_t i = 0; i < v.num_columns; ++i) {
    assert_ptr_equal(v.columns[i].data, gcol_frame_get_column(f, i)->data->data);
    gcol_name n;
    GCOL_TEST_OK(gcol_frame_get_name(f, i, &n));
    GCOL_TEST_OK(gcol_frame_find(f, n, &idx));
    assert_int_equal(idx, i);
  }
  gcol_frame_free(f);
}

static void pop_and_drop(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(3);
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_frame_pop(f, gcol_name_make(bx, 2), &col));
  assert_int_equal(tag_of(col), 1);
  gcol_column_free(col);
  assert_int_equal(gcol_frame_num_columns(f), 2);
  assert_name(f, 1, "a", "y");
  GCOL_TEST_STATUS(gcol_frame_pop(f, gcol_name_make(bx, 2), &col), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(col);
  assert_error_mentions("gcol_frame_pop: no column is named ('b', 'x')");
  /* drop: an unknown name drops nothing */
  gcol_name some[2] = {gcol_name_make(ay, 2), gcol_name_make(bz, 2)};
  GCOL_TEST_STATUS(gcol_frame_drop(f, some, 2), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_drop: no column is named ('b', 'z')");
  assert_int_equal(gcol_frame_num_columns(f), 2);
  gcol_name twice[2] = {gcol_name_make(ay, 2), gcol_name_make(ay, 2)};
  GCOL_TEST_OK(gcol_frame_drop(f, twice, 2));
  assert_int_equal(gcol_frame_num_columns(f), 1);
  assert_name(f, 0, "a", "x");
  assert_int_equal(gcol_frame_num_rows(f), 3);
  gcol_name last[1] = {gcol_name_make(ax, 2)};
  GCOL_TEST_OK(gcol_frame_drop(f, last, 1));
  assert_int_equal(gcol_frame_num_columns(f), 0);
  assert_int_equal(gcol_frame_num_rows(f), 0);
  GCOL_TEST_OK(gcol_frame_drop(f, NULL, 0));
  /* an empty frame takes a column of any size again */
  GCOL_TEST_OK(gcol_frame_insert(f, 0, gcol_name_make(ax, 2), host_column(11, 3)));
  assert_int_equal(gcol_frame_num_rows(f), 11);
  gcol_frame_free(f);
}

static void release_hands_back_the_table(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(2);
  gcol_column *c1 = (gcol_column *)gcol_frame_get_column(f, 1);
  gcol_table *t = NULL;
  GCOL_TEST_STATUS(gcol_frame_release(f, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_release(NULL, &t), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_OK(gcol_frame_release(f, &t));
  assert_int_equal(t->num_columns, 3);
  assert_ptr_equal(t->columns[1], c1);
  gcol_table_view v = gcol_table_get_view(t); /* the table's arrays still work */
  assert_ptr_equal(v.columns[1].data, c1->data->data);
  gcol_table_free(t);
}

/* ---- shallow copies and selection into new frames (copy on write) ---- */

static void copy_shallow_shares_columns_until_a_write(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(6), *g = NULL;
  gcol_buffer_statistics s0, s1;
  gcol_buffer_statistics_get(&s0);
  GCOL_TEST_OK(gcol_frame_copy_shallow(f, NULL, &g));
  gcol_buffer_statistics_get(&s1);
  assert_int_equal(s1.shared_copies - s0.shared_copies, 3); /* one data buffer per column */
  assert_int_equal(s1.write_copies + s1.exposed_copies, s0.write_copies + s0.exposed_copies);
  assert_int_equal(gcol_frame_num_columns(g), 3);
  assert_int_equal(gcol_frame_num_rows(g), 6);
  assert_int_equal(gcol_frame_num_levels(g), 2);
  for (int32_t i = 0; i < 3; ++i) {
    assert_ptr_not_equal(gcol_frame_get_column(g, i), gcol_frame_get_column(f, i));
    assert_ptr_equal(gcol_frame_get_column(g, i)->data->data,
                     gcol_frame_get_column(f, i)->data->data);
  }
  assert_name(g, 0, "a", "x");
  assert_name(g, 2, "a", "y");
  /* a write to g's column ("b", "x") copies its buffer: f keeps its values */
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_frame_pop(g, gcol_name_make(bx, 2), &col));
  gcol_mutable_column_view mv;
  GCOL_TEST_OK(gcol_column_get_mutable_view(col, NULL, &mv));
  ((int32_t *)mv.data)[0] = 77000;
  assert_int_equal(tag_of(col), 77);
  assert_int_equal(tag_of(gcol_frame_get_column(f, 1)), 1);
  /* and renaming in g changes nothing in f */
  GCOL_TEST_OK(gcol_frame_rename(g, gcol_name_make(ax, 2), gcol_name_make(bz, 2)));
  assert_name(f, 0, "a", "x");
  gcol_column_free(col);
  gcol_frame_free(f); /* g still reads its shared columns */
  assert_int_equal(tag_of(gcol_frame_get_column(g, 1)), 2);
  gcol_frame_free(g);
  GCOL_TEST_STATUS(gcol_frame_copy_shallow(NULL, NULL, &g), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(g);
}

static void select_makes_a_frame_over_shared_columns(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(4), *g = NULL;
  gcol_name names[2] = {gcol_name_make(ay, 2), gcol_name_make(ax, 2)};
  GCOL_TEST_OK(gcol_frame_select(f, names, 2, NULL, &g));
  assert_int_equal(gcol_frame_num_columns(g), 2);
  assert_name(g, 0, "a", "y");
  assert_name(g, 1, "a", "x");
  assert_int_equal(tag_of(gcol_frame_get_column(g, 0)), 2);
  assert_ptr_equal(gcol_frame_get_column(g, 1)->data->data,
                   gcol_frame_get_column(f, 0)->data->data);
  assert_true(gcol_buffer_is_shared(gcol_frame_get_column(f, 2)->data));
  assert_false(gcol_buffer_is_shared(gcol_frame_get_column(f, 1)->data)); /* not selected */
  gcol_frame_free(g);
  assert_false(gcol_buffer_is_shared(gcol_frame_get_column(f, 2)->data));
  /* no names: a frame without columns, of the same levels */
  GCOL_TEST_OK(gcol_frame_select(f, NULL, 0, NULL, &g));
  assert_int_equal(gcol_frame_num_columns(g), 0);
  assert_int_equal(gcol_frame_num_levels(g), 2);
  gcol_frame_free(g);
  g = f; /* every failure must clear it */
  gcol_name twice[3] = {gcol_name_make(ax, 2), gcol_name_make(bx, 2), gcol_name_make(ax, 2)};
  GCOL_TEST_STATUS(gcol_frame_select(f, twice, 3, NULL, &g), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(g);
  assert_error_mentions("names[0] and names[2] are both ('a', 'x')");
  gcol_name unknown[1] = {gcol_name_make(cc, 2)};
  GCOL_TEST_STATUS(gcol_frame_select(f, unknown, 1, NULL, &g), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("no column is named ('c', 'c')");
  assert_error_mentions("gcol_frame_select");
  gcol_name shallow[1] = {gcol_name_make(a1, 1)};
  GCOL_TEST_STATUS(gcol_frame_select(f, shallow, 1, NULL, &g), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("has 1 levels, the frame's names have 2");
  GCOL_TEST_STATUS(gcol_frame_select(NULL, names, 2, NULL, &g), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_select(f, names, 2, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_select(f, NULL, 2, NULL, &g), GCOL_ERROR_INVALID_ARGUMENT);
  assert_false(gcol_buffer_is_shared(gcol_frame_get_column(f, 0)->data)); /* nothing left */
  gcol_frame_free(f);
}

/* Asserts the frame's column i is named by the `levels` strings of `want` and holds tag. */
static void assert_levels(const gcol_frame *f, int32_t i, const char *const *want, int32_t levels,
                          int32_t tag) {
  gcol_name n;
  GCOL_TEST_OK(gcol_frame_get_name(f, i, &n));
  assert_int_equal(n.num_levels, levels);
  for (int32_t l = 0; l < levels; ++l) assert_string_equal(n.levels[l], want[l]);
  assert_int_equal(tag_of(gcol_frame_get_column(f, i)), tag);
}

/* cuDF's ColumnAccessor: a shorter prefix drops its levels from the names (one level left:
 * plain names), a full name keeps all of them; the columns are shared, not copied. */
static void select_prefix_drops_the_prefix_levels(void **state) {
  (void)state;
  static const char *ax1[] = {"a", "x", "1"}, *ax2[] = {"a", "x", "2"}, *ay1[] = {"a", "y", "1"};
  static const char *bx1[] = {"b", "x", "1"};
  gcol_name names[4] = {gcol_name_make(ax1, 3), gcol_name_make(bx1, 3), gcol_name_make(ax2, 3),
                        gcol_name_make(ay1, 3)};
  gcol_frame *f = NULL, *g = NULL;
  GCOL_TEST_OK(gcol_frame_make(host_table(4, 5), names, 4, 3, &f));
  /* ("a"): three columns in frame order, two levels left */
  GCOL_TEST_OK(gcol_frame_select_prefix(f, gcol_name_make(a1, 1), NULL, &g));
  assert_int_equal(gcol_frame_num_columns(g), 3);
  assert_int_equal(gcol_frame_num_levels(g), 2);
  assert_int_equal(gcol_frame_num_rows(g), 5);
  assert_levels(g, 0, ax1 + 1, 2, 0);
  assert_levels(g, 1, ax2 + 1, 2, 2);
  assert_levels(g, 2, ay1 + 1, 2, 3);
  assert_ptr_equal(gcol_frame_get_column(g, 1)->data->data,
                   gcol_frame_get_column(f, 2)->data->data);
  assert_true(gcol_buffer_is_shared(gcol_frame_get_column(f, 3)->data));
  assert_false(gcol_buffer_is_shared(gcol_frame_get_column(f, 1)->data)); /* not selected */
  /* the new frame's names are its own: a two-level lookup finds ("y", "1") */
  int32_t idx = -1;
  GCOL_TEST_OK(gcol_frame_find(g, gcol_name_make(ay1 + 1, 2), &idx));
  assert_int_equal(idx, 2);
  gcol_frame_free(g);
  /* ("a", "x"): one level left, plain names "1" and "2" */
  GCOL_TEST_OK(gcol_frame_select_prefix(f, gcol_name_make(ax1, 2), NULL, &g));
  assert_int_equal(gcol_frame_num_columns(g), 2);
  assert_int_equal(gcol_frame_num_levels(g), 1);
  assert_levels(g, 0, ax1 + 2, 1, 0);
  assert_levels(g, 1, ax2 + 2, 1, 2);
  gcol_frame_free(g);
  /* ("b"): one column under a shorter prefix is still named by its remaining levels */
  GCOL_TEST_OK(gcol_frame_select_prefix(f, gcol_name_make(b1, 1), NULL, &g));
  assert_int_equal(gcol_frame_num_columns(g), 1);
  assert_int_equal(gcol_frame_num_levels(g), 2);
  assert_levels(g, 0, bx1 + 1, 2, 1);
  gcol_frame_free(g);
  /* a full name is a leaf: its column under its full name, all three levels */
  GCOL_TEST_OK(gcol_frame_select_prefix(f, gcol_name_make(ay1, 3), NULL, &g));
  assert_int_equal(gcol_frame_num_columns(g), 1);
  assert_int_equal(gcol_frame_num_levels(g), 3);
  assert_levels(g, 0, ay1, 3, 3);
  gcol_frame_free(g);
  assert_false(gcol_buffer_is_shared(gcol_frame_get_column(f, 3)->data)); /* all let go */
  /* bad prefixes: nothing made, the output cleared */
  static const char *four[] = {"a", "x", "1", "q"}, *ab[] = {"a", "b"};
  g = f;
  GCOL_TEST_STATUS(gcol_frame_select_prefix(f, gcol_name_make(z1, 1), NULL, &g),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(g);
  assert_error_mentions("gcol_frame_select_prefix: no column's name starts with ('z')");
  GCOL_TEST_STATUS(gcol_frame_select_prefix(f, gcol_name_make(ab, 2), NULL, &g),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("('a', 'b')");
  GCOL_TEST_STATUS(gcol_frame_select_prefix(f, gcol_name_make(four, 4), NULL, &g),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("prefix has 4 levels, not 1 to 3");
  GCOL_TEST_STATUS(gcol_frame_select_prefix(f, gcol_name_make(a1, 0), NULL, &g),
                   GCOL_ERROR_INVALID_ARGUMENT);
  const char *null_level[] = {NULL};
  GCOL_TEST_STATUS(gcol_frame_select_prefix(f, gcol_name_make(null_level, 1), NULL, &g),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_select_prefix(f, gcol_name_make(NULL, 1), NULL, &g),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_select_prefix(NULL, gcol_name_make(a1, 1), NULL, &g),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(g);
  GCOL_TEST_STATUS(gcol_frame_select_prefix(f, gcol_name_make(a1, 1), NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_false(gcol_buffer_is_shared(gcol_frame_get_column(f, 0)->data));
  gcol_frame_free(f);
  /* two levels to one: ("a") of ("a","x"), ("b","x"), ("a","y") gives "x", "y" */
  f = abx_frame(3);
  GCOL_TEST_OK(gcol_frame_select_prefix(f, gcol_name_make(a1, 1), NULL, &g));
  assert_int_equal(gcol_frame_num_levels(g), 1);
  assert_levels(g, 0, ax + 1, 1, 0);
  assert_levels(g, 1, ay + 1, 1, 2);
  gcol_frame_free(g);
  gcol_frame_free(f);
}

/* ---- frame_ops.h: the name checks the row operations make before any device work ---- */

static void row_operations_check_names_first(void **state) {
  (void)state;
  gcol_frame *f = abx_frame(4), *out = NULL;
  gcol_name const unknown = gcol_name_make(cc, 2), flat = gcol_name_make(a1, 1);
  gcol_name by[2] = {gcol_name_make(ax, 2), unknown};
  out = f; /* every failure clears it */
  GCOL_TEST_STATUS(gcol_frame_sort(f, by, 2, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_error_mentions("gcol_frame_sort");
  assert_error_mentions("no column is named ('c', 'c')");
  GCOL_TEST_STATUS(gcol_frame_sort(f, &flat, 1, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("has 1 levels, the frame's names have 2");
  GCOL_TEST_STATUS(gcol_frame_sort(f, by, 0, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("num_by is 0");
  /* filter: an unknown name, a column that is not BOOL8 */
  GCOL_TEST_STATUS(gcol_frame_filter(f, unknown, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_filter");
  GCOL_TEST_STATUS(gcol_frame_filter(f, gcol_name_make(bx, 2), &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_error_mentions("the mask column ('b', 'x') is int32, not bool8");
  /* distinct: an unknown name in the subset, no key at all */
  GCOL_TEST_STATUS(
      gcol_frame_distinct(f, by, 2, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_distinct");
  gcol_frame *empty = NULL;
  GCOL_TEST_OK(gcol_frame_select(f, NULL, 0, NULL, &empty));
  GCOL_TEST_STATUS(
      gcol_frame_distinct(empty, NULL, 0, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("no key");
  /* slice: bounds outside the rows */
  GCOL_TEST_STATUS(gcol_frame_slice(f, 2, 5, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_slice: rows [2, 5) are not within the frame's 4 rows");
  GCOL_TEST_STATUS(gcol_frame_slice(f, 3, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_slice(f, -1, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_frame_head(NULL, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_frame_head");
  /* concatenate: levels, column counts, names and types must match */
  gcol_frame *renamed = NULL, *fewer = NULL, *retyped = NULL, *one = NULL;
  GCOL_TEST_OK(gcol_frame_copy_shallow(f, NULL, &renamed));
  GCOL_TEST_OK(gcol_frame_rename(renamed, gcol_name_make(ay, 2), gcol_name_make(bz, 2)));
  const gcol_frame *pair[2] = {f, renamed};
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions(
      "gcol_frame_concatenate: frames[1] has no column named ('a', 'y'), as frames[0] has");
  GCOL_TEST_OK(gcol_frame_select(f, by, 1, NULL, &fewer));
  pair[1] = fewer;
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("frames[1] has 1 columns, frames[0] 3: the names must match");
  GCOL_TEST_OK(gcol_frame_select_prefix(f, gcol_name_make(a1, 1), NULL, &one));
  pair[0] = one;
  pair[1] = fewer;
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("frames[1]'s names have 2 levels, frames[0]'s 1");
  GCOL_TEST_OK(gcol_frame_copy_shallow(f, NULL, &retyped));
  gcol_column *popped = NULL, *wide = NULL;
  gcol_buffer *data = NULL;
  GCOL_TEST_OK(gcol_frame_pop(retyped, gcol_name_make(bx, 2), &popped));
  GCOL_TEST_OK(gcol_buffer_create(4 * 8, NULL, stats, &data));
  memset(data->data, 0, 4 * 8);
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT64), 4, data, NULL, 0, NULL, 0, &wide));
  GCOL_TEST_OK(gcol_frame_insert(retyped, 0, gcol_name_make(bx, 2), wide)); /* order differs too */
  pair[0] = f;
  pair[1] = retyped;
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_error_mentions("column ('b', 'x') is int64 in frames[1], int32 in frames[0]");
  pair[1] = NULL;
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("frames[1] is NULL");
  GCOL_TEST_STATUS(gcol_frame_concatenate(pair, 0, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_column_free(popped);
  gcol_frame_free(retyped);
  gcol_frame_free(one);
  gcol_frame_free(fewer);
  gcol_frame_free(renamed);
  gcol_frame_free(empty);
  gcol_frame_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      HOST_TEST(make_copies_names_and_takes_the_table),
      HOST_TEST(single_level_and_empty_frames),
      HOST_TEST(make_refuses_bad_names_and_leaves_the_table),
      HOST_TEST(duplicates_among_many_columns),
      HOST_TEST(select_by_names_in_order),
      HOST_TEST(select_by_level_prefix),
      HOST_TEST(rename_checks_and_keeps_others),
      HOST_TEST(insert_at_every_position_and_grow),
      HOST_TEST(pop_and_drop),
      HOST_TEST(release_hands_back_the_table),
      HOST_TEST(copy_shallow_shares_columns_until_a_write),
      HOST_TEST(select_makes_a_frame_over_shared_columns),
      HOST_TEST(select_prefix_drops_the_prefix_levels),
      HOST_TEST(row_operations_check_names_first),
  };
  return GCOL_TEST_RUN("frame", tests);
}
