/*
 * Host tests (no GPU needed) of the single-column forms (gcol_column_gather,
 * gcol_column_reverse, gcol_column_apply_boolean_mask, gcol_column_distinct,
 * gcol_column_sort): every argument check that fails before device memory is touched gives
 * the table form's status, a message that starts with the single-column function's name and
 * names the argument, and leaves the output NULL. The device pointers are fake and never
 * dereferenced: a check that let them through would crash the test.
 */
#include "test_util.h"

#include <stdint.h>

#include "gcol/copying.h"
#include "gcol/filtering.h"
#include "gcol/sorting.h"

/* A fake device address: any access to it faults. */
#define FAKE_PTR ((const void *)(uintptr_t)0x10)

static gcol_column_view fake_view(gcol_type_id id, int64_t size) {
  return gcol_column_view_make(gcol_data_type_make(id), size, FAKE_PTR, NULL, 0);
}

/* The last error comes from `function` (not from the table form it calls) and names
 * `needle`. */
static void expect_message(const char *function, const char *needle) {
  const char *message = gcol_last_error();
  if (strncmp(message, function, strlen(function)) != 0 || message[strlen(function)] != ':') {
    fail_msg("message \"%s\" does not start with \"%s:\"", message, function);
  }
  if (strstr(message, needle) == NULL) {
    fail_msg("message \"%s\" does not name \"%s\"", message, needle);
  }
}

/* A well-formed LIST<INT64> view of `rows` rows over fake memory. */
static gcol_column_view list_view(gcol_column_view *children, int64_t rows) {
  children[0] = fake_view(GCOL_INT32, rows + 1);
  children[1] = fake_view(GCOL_INT64, 40);
  gcol_column_view list =
      gcol_column_view_make(gcol_data_type_make(GCOL_LIST), rows, NULL, NULL, 0);
  list.num_children = 2;
  list.children = children;
  return list;
}

static void test_gather_checks(void **state) {
  (void)state;
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_column_view const source = fake_view(GCOL_INT64, 8);
  GCOL_TEST_STATUS(
      gcol_column_gather(source, fake_view(GCOL_FLOAT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                         GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
      GCOL_ERROR_TYPE_MISMATCH);
  expect_message("gcol_column_gather", "gather_map");
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(
      gcol_column_gather(source, fake_view(GCOL_INT32, 4), (gcol_out_of_bounds_policy)7,
                         GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_gather", "policy");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_column_gather(source, fake_view(GCOL_INT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                                      (gcol_negative_index_policy)3, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_gather(source, fake_view(GCOL_INT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                                      GCOL_NEGATIVE_INDEX_WRAP, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_gather", "out");
  gcol_column_view broken = fake_view(GCOL_INT64, -1);
  GCOL_TEST_STATUS(gcol_column_gather(broken, fake_view(GCOL_INT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                                      GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_gather", "source");
  assert_null(out);
}

static void test_reverse_checks(void **state) {
  (void)state;
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_column_reverse(fake_view(GCOL_INT64, 8), NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_reverse", "out");
  GCOL_TEST_STATUS(gcol_column_reverse(fake_view(GCOL_INT64, -1), &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_reverse", "source");
  assert_null(out);
  gcol_column_view no_children =
      gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 4, FAKE_PTR, NULL, 0);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_column_reverse(no_children, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
}

static void test_apply_boolean_mask_checks(void **state) {
  (void)state;
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_column_view const input = fake_view(GCOL_INT64, 10);
  GCOL_TEST_STATUS(
      gcol_column_apply_boolean_mask(input, fake_view(GCOL_INT8, 10), &out, NULL, NULL),
      GCOL_ERROR_TYPE_MISMATCH);
  expect_message("gcol_column_apply_boolean_mask", "boolean_mask");
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(
      gcol_column_apply_boolean_mask(input, fake_view(GCOL_BOOL8, 9), &out, NULL, NULL),
      GCOL_ERROR_SIZE_MISMATCH);
  expect_message("gcol_column_apply_boolean_mask", "9");
  assert_null(out);
  GCOL_TEST_STATUS(
      gcol_column_apply_boolean_mask(input, fake_view(GCOL_BOOL8, 10), NULL, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_apply_boolean_mask", "out");
  GCOL_TEST_STATUS(gcol_column_apply_boolean_mask(fake_view(GCOL_INT64, -3),
                                                  fake_view(GCOL_BOOL8, 10), &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_apply_boolean_mask", "input");
}

static void test_distinct_checks(void **state) {
  (void)state;
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_column_view children[2];
  GCOL_TEST_STATUS(gcol_column_distinct(list_view(children, 10), GCOL_KEEP_ANY, GCOL_NULLS_EQUAL,
                                        &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("gcol_column_distinct", "list");
  assert_null(out);
  gcol_column_view const input = fake_view(GCOL_INT32, 10);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(
      gcol_column_distinct(input, (gcol_duplicate_keep)4, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_distinct", "keep");
  assert_null(out);
  GCOL_TEST_STATUS(
      gcol_column_distinct(input, GCOL_KEEP_FIRST, (gcol_null_equality)2, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_distinct", "nulls");
  GCOL_TEST_STATUS(gcol_column_distinct(input, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_distinct", "out");
}

static void test_sort_checks(void **state) {
  (void)state;
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_column_view children[2];
  GCOL_TEST_STATUS(gcol_column_sort(list_view(children, 4), GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER,
                                    &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  expect_message("gcol_column_sort", "");
  assert_null(out);
  gcol_column_view const input = fake_view(GCOL_INT32, 4);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_column_sort(input, (gcol_order)2, GCOL_NULLS_AFTER, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_sort", "order");
  assert_null(out);
  GCOL_TEST_STATUS(
      gcol_column_sort(input, GCOL_ORDER_DESCENDING, (gcol_null_order)5, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_sort", "order");
  GCOL_TEST_STATUS(
      gcol_column_sort(input, GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, NULL, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_column_sort", "out");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gather_checks),
      cmocka_unit_test(test_reverse_checks),
      cmocka_unit_test(test_apply_boolean_mask_checks),
      cmocka_unit_test(test_distinct_checks),
      cmocka_unit_test(test_sort_checks),
  };
  return GCOL_TEST_RUN("column_forms_host", tests);
}
