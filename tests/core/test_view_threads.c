/* Views of one owning table and column taken from many threads at once (issue 19: a const
 * object is safe to read from many threads). gcol_table_get_view and gcol_column_get_view
 * refresh the view storage the object keeps (table->views, column->child_views); two threads
 * must not write it at the same time. Host-memory columns, so it runs on the CPU; meson also
 * runs it under valgrind's helgrind where valgrind is installed, which fails on any race. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "gcol/column.h"
#include "gcol/memory.h"
#include "gcol/table.h"

enum { THREADS = 6, ROUNDS = 200, ROWS = 16 };

static gcol_mr *host_mr = NULL;

static gcol_column *int_column(int32_t tag) {
  gcol_buffer *data = NULL;
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_buffer_create(ROWS * 4, NULL, host_mr, &data));
  for (int32_t i = 0; i < ROWS; ++i) ((int32_t *)data->data)[i] = tag * 1000 + i;
  GCOL_TEST_OK(
      gcol_column_make(gcol_data_type_make(GCOL_INT32), ROWS, data, NULL, 0, NULL, 0, &col));
  return col;
}

/* A STRING column (an offsets child) of ROWS one-byte rows: a column with children. */
static gcol_column *string_column(void) {
  gcol_buffer *offsets = NULL, *chars = NULL;
  gcol_column *off = NULL, *col = NULL;
  GCOL_TEST_OK(gcol_buffer_create((ROWS + 1) * 4, NULL, host_mr, &offsets));
  GCOL_TEST_OK(gcol_buffer_create(ROWS, NULL, host_mr, &chars));
  for (int32_t i = 0; i <= ROWS; ++i) ((int32_t *)offsets->data)[i] = i;
  memset(chars->data, 'x', ROWS);
  GCOL_TEST_OK(
      gcol_column_make(gcol_data_type_make(GCOL_INT32), ROWS + 1, offsets, NULL, 0, NULL, 0, &off));
  GCOL_TEST_OK(gcol_column_make_strings(ROWS, off, chars, NULL, 0, &col));
  return col;
}

typedef struct shared_objects {
  const gcol_table *table;
  const gcol_column *strings;
} shared_objects;

static void *reader(void *arg) {
  const shared_objects *o = (const shared_objects *)arg;
  for (int r = 0; r < ROUNDS; ++r) {
    gcol_table_view const t = gcol_table_get_view(o->table);
    gcol_column_view const s = gcol_column_get_view(o->strings);
    if (t.num_columns != 3 || t.columns[2].size != ROWS ||
        ((const int32_t *)t.columns[2].data)[1] != 2001 || s.num_children != 1 ||
        ((const int32_t *)s.children[0].data)[ROWS] != ROWS) {
      return (void *)1;
    }
  }
  return NULL;
}

static void views_from_many_threads(void **state) {
  (void)state;
  GCOL_TEST_OK(gcol_mr_host_create(&host_mr));
  gcol_column *cols[3] = {int_column(0), int_column(1), int_column(2)};
  gcol_table *table = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 3, &table));
  shared_objects o = {table, string_column()};
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; ++i)
    assert_int_equal(pthread_create(&threads[i], NULL, reader, &o), 0);
  int bad = 0;
  for (int i = 0; i < THREADS; ++i) {
    void *result = NULL;
    assert_int_equal(pthread_join(threads[i], &result), 0);
    bad += result != NULL;
  }
  assert_int_equal(bad, 0);
  gcol_column_free((gcol_column *)o.strings);
  gcol_table_free(table);
  gcol_mr_destroy(host_mr);
  host_mr = NULL;
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(views_from_many_threads)};
  return cmocka_run_group_tests_name("view_threads", tests, NULL, NULL);
}
