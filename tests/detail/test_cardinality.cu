/*
 * GPU tests of the cardinality estimates (kernels/detail/cardinality.h): the device pass
 * over packed keys (INT64, INT32, INT8; sliced) and over row hashes gives exactly the
 * estimate of the registers the host computes for the same keys, and that estimate is within
 * 8% of the true count (about 5 standard errors, see test_cardinality_host.c) for all-equal
 * keys, all-distinct keys and few and many distinct keys among many rows; no rows give 0;
 * the test override replaces the estimate.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <string.h>

#include "detail/cardinality.h"
#include "detail/row_operators.cuh"
#include "gcol/column.h"

/* cmocka.h declares no extern "C" of its own: include it as C before test_util.h does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}
#include "test_util.h"

/* Registers of the hashes, and the estimate the device pass must return for them. */
static int64_t host_estimate(const uint64_t *hashes, int64_t n) {
  uint32_t *registers = (uint32_t *)calloc(GCOL_DETAIL_HLL_REGISTERS, sizeof *registers);
  for (int64_t i = 0; i < n; ++i) {
    uint32_t const j = gcol_detail_hll_register(hashes[i]), rank = gcol_detail_hll_rank(hashes[i]);
    if (registers[j] < rank) registers[j] = rank;
  }
  double const e = round(gcol_detail_hll_estimate(registers));
  free(registers);
  if (n == 0) return 0;
  return e < 1.0 ? 1 : e >= (double)n ? n : (int64_t)e;
}

/* The device estimate of rows [off, off + n) of a column of `type` holding `values`. */
static int64_t device_estimate(gcol_type_id type, const void *values, int64_t total, int64_t off,
                               int64_t n, bool packed) {
  gcol_column *c = NULL;
  gcol_buffer *flat = NULL;
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(type), total, values, NULL, NULL, NULL, &c));
  gcol_column_view view = gcol_column_get_view(c);
  GCOL_TEST_OK(gcol_column_view_slice(view, off, off + n, &view));
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&view, 1, &t));
  int32_t const key = 0;
  GCOL_TEST_OK(gcol_detail_row_columns_make(t, &key, 1, true, false, NULL, &flat));
  int64_t got = -1;
  GCOL_TEST_OK(gcol_detail_estimate_distinct((const gcol_detail_row_column *)flat->data, 1, packed,
                                             n, NULL, &got));
  gcol_buffer_free(flat);
  gcol_column_free(c);
  return got;
}

static void expect_close(int64_t got, int64_t truth) {
  double const bound = truth < 100 ? 1.0 : 0.08 * (double)truth;
  if (fabs((double)got - (double)truth) > bound) {
    fail_msg("%lld distinct keys estimated as %lld (bound +-%.1f)", (long long)truth,
             (long long)got, bound);
  }
}

/* INT64 keys: `distinct` values (a random permutation of a spread range, -1 included) over
 * `n` rows after `off` leading rows; packed hashes and row hashes. */
static void check_i64(gcol_test_rng *rng, int64_t size, int64_t distinct, int64_t off) {
  int64_t const n = gcol_test_cap(size), total = n + off; /* capped under the sanitizers */
  int64_t *values = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
  uint64_t *packed = (uint64_t *)calloc((size_t)(n > 0 ? n : 1), sizeof(uint64_t));
  uint64_t *rows = (uint64_t *)calloc((size_t)(n > 0 ? n : 1), sizeof(uint64_t));
  assert_non_null(values);
  assert_non_null(packed);
  assert_non_null(rows);
  for (int64_t i = 0; i < total; ++i) {
    /* the first `distinct` rows of the slice hold every value once, the rest repeat them */
    int64_t const k = i - off < distinct ? i - off : gcol_test_rng_range(rng, 0, distinct - 1);
    values[i] = (k - distinct / 2) * 7919 - 1; /* k = distinct / 2: -1 */
  }
  for (int64_t i = 0; i < n; ++i) {
    uint64_t const bits = (uint64_t)values[off + i];
    packed[i] = gcol_hash_mix64(bits);
    rows[i] = gcol_hash_mix64(gcol_hash_combine64(0, gcol_hash_u64(bits, 0)));
  }
  int64_t const want_packed = host_estimate(packed, n), want_rows = host_estimate(rows, n);
  int64_t const got_packed = device_estimate(GCOL_INT64, values, total, off, n, true);
  int64_t const got_rows = device_estimate(GCOL_INT64, values, total, off, n, false);
  assert_int_equal(got_packed, want_packed);
  assert_int_equal(got_rows, want_rows);
  int64_t const truth = n < distinct ? n : distinct;
  expect_close(got_packed, truth);
  expect_close(got_rows, truth);
  free(values);
  free(packed);
  free(rows);
}

static void test_i64_known_cardinalities(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(951);
  check_i64(&rng, 100000, 1, 0);        /* all keys equal (and -1: the EMPTY pattern) */
  check_i64(&rng, 1 << 20, 1 << 20, 3); /* all distinct */
  check_i64(&rng, 300000, 1000, 65);    /* few distinct among many rows */
  check_i64(&rng, 400000, 150000, 5);   /* many distinct */
  check_i64(&rng, 5000, 3000, 1);       /* linear counting's range */
  check_i64(&rng, 60000, 11000, 0);     /* right above its switch */
  check_i64(&rng, 1 << 22, 1 << 20, 7); /* the bench's shape, smaller */
}

/* Narrow keys hash their zero-extended bits: INT32 over 20000 values, INT8 over all 256. */
static void test_narrow_keys(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(952);
  int64_t const n = gcol_test_cap(200000);
  int32_t *i32 = (int32_t *)malloc((size_t)n * sizeof(int32_t));
  int8_t *i8 = (int8_t *)malloc((size_t)n);
  uint64_t *h32 = (uint64_t *)malloc((size_t)n * sizeof(uint64_t));
  uint64_t *h8 = (uint64_t *)malloc((size_t)n * sizeof(uint64_t));
  for (int64_t i = 0; i < n; ++i) {
    i32[i] = (int32_t)(i < 20000 ? i : gcol_test_rng_range(&rng, 0, 19999)) - 10000;
    i8[i] = (int8_t)(i < 256 ? i : gcol_test_rng_range(&rng, 0, 255));
    h32[i] = gcol_hash_mix64((uint64_t)(uint32_t)i32[i]);
    h8[i] = gcol_hash_mix64((uint64_t)(uint8_t)i8[i]);
  }
  int64_t const got32 = device_estimate(GCOL_INT32, i32, n, 0, n, true);
  int64_t const got8 = device_estimate(GCOL_INT8, i8, n, 0, n, true);
  assert_int_equal(got32, host_estimate(h32, n));
  assert_int_equal(got8, host_estimate(h8, n));
  expect_close(got32, n < 20000 ? n : 20000);
  expect_close(got8, n < 256 ? n : 256);
  free(i32);
  free(i8);
  free(h32);
  free(h8);
}

static void test_no_rows_and_override(void **state) {
  (void)state;
  int64_t const v[4] = {1, 2, 3, 4};
  assert_int_equal(device_estimate(GCOL_INT64, v, 4, 2, 0, true), 0);
  assert_int_equal(device_estimate(GCOL_INT64, v, 4, 0, 4, true), 4);
  assert_int_equal(gcol_detail_set_estimate_override(3), -1);
  assert_int_equal(device_estimate(GCOL_INT64, v, 4, 0, 4, true), 3);
  assert_int_equal(gcol_detail_set_estimate_override(-1), 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_i64_known_cardinalities),
      GCOL_TEST_GPU(test_narrow_keys),
      GCOL_TEST_GPU(test_no_rows_and_override),
  };
  return GCOL_TEST_RUN_GPU("detail_cardinality", tests);
}
