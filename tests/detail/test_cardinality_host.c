/*
 * Host tests of the cardinality estimates (kernels/detail/cardinality.h): the register and
 * rank of a hash on hand-made hashes, and the HyperLogLog estimator on keys of known
 * cardinality hashed as the packed path hashes them (gcol_hash_mix64 of the key's bits):
 * within 6% from 100 keys to 2^20 (about 4 standard errors of 2^12 registers; the raw
 * estimator is ~4% high right above its switch from linear counting at 2.5 x 2^12), within
 * 0.5 below 100 (linear counting), and blind to repeats. The GPU test checks that the device
 * pass gives the estimate of the same registers.
 */
#include "test_util.h"

#include <math.h>

#include "detail/cardinality.h"
#include "gcol/hash.h"

/* Registers of keys `first, first + 1, ...` (count keys, each seen `repeats` times). */
static void add_keys(uint32_t *registers, int64_t first, int64_t count, int repeats) {
  for (int r = 0; r < repeats; ++r) {
    for (int64_t k = first; k < first + count; ++k) {
      uint64_t const h = gcol_hash_mix64((uint64_t)k);
      uint32_t const j = gcol_detail_hll_register(h), rank = gcol_detail_hll_rank(h);
      if (registers[j] < rank) registers[j] = rank;
    }
  }
}

static double estimate_of(int64_t first, int64_t count, int repeats) {
  uint32_t *registers = (uint32_t *)calloc(GCOL_DETAIL_HLL_REGISTERS, sizeof *registers);
  add_keys(registers, first, count, repeats);
  double const e = gcol_detail_hll_estimate(registers);
  free(registers);
  return e;
}

static void test_register_and_rank(void **state) {
  (void)state;
  assert_int_equal(gcol_detail_hll_register(0), 0);
  assert_int_equal(gcol_detail_hll_register(~0ull), GCOL_DETAIL_HLL_REGISTERS - 1);
  assert_int_equal(gcol_detail_hll_register(0xABC0000000000000ull), 0xABC);
  /* the bit right below the register bits set: rank 1 */
  assert_int_equal(gcol_detail_hll_rank(0x0008000000000000ull), 1);
  assert_int_equal(gcol_detail_hll_rank(0xFFF8000000000000ull), 1);
  /* k zeros then a one: rank k + 1 */
  assert_int_equal(gcol_detail_hll_rank(0x0004000000000000ull), 2);
  assert_int_equal(gcol_detail_hll_rank(1ull), 52);
  /* nothing below the register bits: the sentinel caps the rank at 53 */
  assert_int_equal(gcol_detail_hll_rank(0), 53);
  assert_int_equal(gcol_detail_hll_rank(0xFFF0000000000000ull), 53);
}

static void test_estimate_of_no_keys_is_zero(void **state) {
  (void)state;
  assert_true(estimate_of(0, 0, 1) == 0.0);
}

static void test_estimate_within_bound(void **state) {
  (void)state;
  static const int64_t counts[] = {1,    2,     3,     10,    100,   1000,   4096,    5000,
                                   9000, 10240, 12000, 20000, 50000, 100000, 1000000, 1 << 20};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
    int64_t const n = counts[c];
    double const e = estimate_of(1000 * (int64_t)c, n, 1);
    double const bound = n < 100 ? 0.5 : 0.06 * (double)n;
    if (fabs(e - (double)n) > bound) {
      fail_msg("%lld keys estimated as %.1f (bound +-%.1f)", (long long)n, e, bound);
    }
  }
}

/* The packed distinct bench's keys: a signed range that includes -1 (all ones). */
static void test_estimate_of_negative_keys(void **state) {
  (void)state;
  double const e = estimate_of(-50000, 100000, 1);
  assert_true(fabs(e - 100000.0) <= 6000.0);
}

static void test_repeats_do_not_count(void **state) {
  (void)state;
  assert_true(estimate_of(7, 3000, 1) == estimate_of(7, 3000, 5));
  assert_true(fabs(estimate_of(42, 1, 1000) - 1.0) <= 0.5); /* all keys equal */
}

static void test_estimate_override(void **state) {
  (void)state;
  int64_t const before = gcol_detail_set_estimate_override(17);
  assert_int_equal(before, -1);
  assert_int_equal(gcol_detail_estimate_override(), 17);
  assert_int_equal(gcol_detail_set_estimate_override(-5), 17);
  assert_int_equal(gcol_detail_estimate_override(), -1);
  int64_t const misses = gcol_detail_estimate_misses();
  gcol_detail_note_estimate_miss();
  assert_int_equal(gcol_detail_estimate_misses(), misses + 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_register_and_rank),
      cmocka_unit_test(test_estimate_of_no_keys_is_zero),
      cmocka_unit_test(test_estimate_within_bound),
      cmocka_unit_test(test_estimate_of_negative_keys),
      cmocka_unit_test(test_repeats_do_not_count),
      cmocka_unit_test(test_estimate_override),
  };
  return GCOL_TEST_RUN("detail_cardinality_host", tests);
}
