/* GPU tests of gcol_reduce_nunique against a host count of distinct values. */
#include <math.h>

#include "test_util.h"

static int cmp_i32(const void *a, const void *b) {
  int32_t const x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Distinct valid values of v[0..n) (sorted copy), plus one for nulls if asked and present. */
static int64_t host_nunique_i32(const int32_t *v, const uint8_t *valid, int64_t n, bool nulls) {
  int32_t *copy = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
  int64_t m = 0, distinct = 0;
  bool any_null = false;
  for (int64_t i = 0; i < n; ++i) {
    if (valid == NULL || valid[i]) {
      copy[m++] = v[i];
    } else {
      any_null = true;
    }
  }
  qsort(copy, (size_t)m, sizeof(int32_t), cmp_i32);
  for (int64_t i = 0; i < m; ++i) distinct += i == 0 || copy[i] != copy[i - 1];
  free(copy);
  return distinct + (nulls && any_null ? 1 : 0);
}

static int64_t nunique(gcol_column_view v, bool include_nulls) {
  int64_t count = -1;
  GCOL_TEST_OK(gcol_reduce_nunique(v, include_nulls, &count, NULL));
  return count;
}

static void ints_with_nulls_and_slices(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(71);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
      int64_t const n = gcol_test_sizes[s] + 65;
      int32_t *values = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
      uint8_t *valid = (uint8_t *)malloc((size_t)n);
      int64_t const range = 1 + gcol_test_rng_range(&rng, 0, n); /* many repeats */
      for (int64_t i = 0; i < n; ++i) values[i] = (int32_t)gcol_test_rng_range(&rng, -range, range);
      gcol_test_fill_valid(&rng, (gcol_test_validity)p, valid, n);
      const uint8_t *mask = p == GCOL_TEST_NO_MASK ? NULL : valid;
      gcol_column *col = NULL;
      GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, values, mask,
                                                NULL, NULL, &col));
      for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
        int64_t const off = gcol_test_offsets[o];
        gcol_column_view v;
        GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), off, n, &v));
        for (int inc = 0; inc <= 1; ++inc) {
          int64_t const want = host_nunique_i32(values + off, mask ? valid + off : NULL, n - off, inc);
          assert_int_equal(nunique(v, inc), want);
        }
      }
      gcol_column_free(col);
      free(values);
      free(valid);
    }
  }
}

static void float_zeros_and_nans_and_strings(void **state) {
  (void)state;
  double const values[7] = {0.0, -0.0, NAN, -NAN, 1.5, 1.5, INFINITY};
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), 7, values, NULL,
                                            NULL, NULL, &col));
  assert_int_equal(nunique(gcol_column_get_view(col), true), 4); /* 0, NaN, 1.5, Inf */
  gcol_column_free(col);
  const char *strs[6] = {"", NULL, "\xc3\xa9", "", "a", NULL};
  GCOL_TEST_OK(gcol_column_create_strings_from_host(6, strs, NULL, NULL, NULL, &col));
  assert_int_equal(nunique(gcol_column_get_view(col), false), 3);
  assert_int_equal(nunique(gcol_column_get_view(col), true), 4);
  gcol_column_free(col);
}

static void empty_and_bad_input(void **state) {
  (void)state;
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create(gcol_data_type_make(GCOL_INT8), 0, GCOL_MASK_UNALLOCATED, NULL,
                                  NULL, &col));
  assert_int_equal(nunique(gcol_column_get_view(col), true), 0);
  int64_t count = -1;
  GCOL_TEST_STATUS(gcol_reduce_nunique(gcol_column_get_view(col), true, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_column_view list = gcol_column_view_make(gcol_data_type_make(GCOL_LIST), 0, NULL, NULL, 0);
  GCOL_TEST_STATUS(gcol_reduce_nunique(list, true, &count, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_int_equal(count, 0);
  gcol_column_free(col);
}

typedef struct ctx {
  gcol_column_view view;
  int64_t out;
} ctx;

static gcol_status run(void *p) {
  ctx *c = (ctx *)p;
  return gcol_reduce_nunique(c->view, true, &c->out, NULL);
}

static void cleanup(void *p) { ((ctx *)p)->out = 0; /* a host count: nothing to free */ }

static void allocation_failures_leak_nothing(void **state) {
  (void)state;
  int32_t const values[5] = {3, 1, 3, 2, 1};
  uint8_t const valid[5] = {1, 1, 0, 1, 1};
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 5, values, valid,
                                            NULL, NULL, &col));
  ctx c = {gcol_column_get_view(col), 0};
  assert_true(gcol_test_check_allocation_failures(run, cleanup, &c) >= 1);
  gcol_column_free(col);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(ints_with_nulls_and_slices),
      GCOL_TEST_GPU(float_zeros_and_nans_and_strings),
      GCOL_TEST_GPU(empty_and_bad_input),
      GCOL_TEST_GPU(allocation_failures_leak_nothing),
  };
  return GCOL_TEST_RUN_GPU("nunique", tests);
}
