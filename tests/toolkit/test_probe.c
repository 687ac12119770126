/* Host tests of gcol/probe.h: every slot visited exactly once, then the sequence ends. */
#include "gcol/probe.h"
#include "test_util.h"

/* Drains p, checking the slots are a permutation of [0, capacity); returns the count. */
static int64_t drain_and_check(gcol_probe_sequence *p, int64_t capacity, uint8_t *seen) {
  int64_t slot = -1;
  int64_t count = 0;
  memset(seen, 0, (size_t)capacity);
  while (gcol_probe_next(p, &slot)) {
    if (slot < 0 || slot >= capacity) fail_msg("slot %lld outside [0, %lld)", (long long)slot, (long long)capacity);
    if (seen[slot]) fail_msg("slot %lld visited twice (capacity %lld)", (long long)slot, (long long)capacity);
    seen[slot] = 1;
    ++count;
    if (count > capacity) fail_msg("more than %lld probes", (long long)capacity);
  }
  /* Ended: further calls keep returning false and leave the slot untouched. */
  int64_t untouched = -7;
  assert_false(gcol_probe_next(p, &untouched));
  assert_int_equal(untouched, -7);
  return count;
}

static void probes_visit_every_slot_once(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(21);
  uint8_t *seen = malloc((size_t)1 << 16);
  assert_non_null(seen);
  for (int log2 = 0; log2 <= 16; ++log2) {
    int64_t const capacity = (int64_t)1 << log2;
    for (int t = 0; t < (log2 < 10 ? 20 : 3); ++t) {
      uint64_t const h1 = gcol_test_rng_next(&rng);
      uint64_t const h2 = t == 0 ? 0u : gcol_test_rng_next(&rng); /* h2 = 0: step forced to 1 */
      gcol_probe_sequence lin = gcol_probe_linear(h1, capacity);
      gcol_probe_sequence dbl = gcol_probe_double(h1, h2, capacity);
      assert_int_equal(drain_and_check(&lin, capacity, seen), capacity);
      assert_int_equal(drain_and_check(&dbl, capacity, seen), capacity);
    }
  }
  free(seen);
}

static void linear_probe_walks_consecutive_slots_and_wraps(void **state) {
  (void)state;
  gcol_probe_sequence p = gcol_probe_linear(0xFFFFFFFFFFFFFFFEull, 8); /* starts at 6 */
  static const int64_t expected[] = {6, 7, 0, 1, 2, 3, 4, 5};
  int64_t slot;
  for (int i = 0; i < 8; ++i) {
    assert_true(gcol_probe_next(&p, &slot));
    assert_int_equal(slot, expected[i]);
  }
  assert_false(gcol_probe_next(&p, &slot));
}

static void double_probe_uses_an_odd_step(void **state) {
  (void)state;
  gcol_probe_sequence p = gcol_probe_double(3, 4, 16); /* step 4 | 1 = 5 */
  int64_t slot;
  int64_t expected = 3;
  for (int i = 0; i < 16; ++i) {
    assert_true(gcol_probe_next(&p, &slot));
    assert_int_equal(slot, expected);
    expected = (expected + 5) & 15;
  }
  assert_false(gcol_probe_next(&p, &slot));
}

static void bad_capacity_gives_an_empty_sequence(void **state) {
  (void)state;
  static const int64_t bad[] = {0, -1, -8, 3, 6, 100, INT64_MIN, INT64_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    int64_t slot = -3;
    gcol_probe_sequence a = gcol_probe_linear(5, bad[i]);
    gcol_probe_sequence b = gcol_probe_double(5, 9, bad[i]);
    assert_false(gcol_probe_next(&a, &slot));
    assert_false(gcol_probe_next(&b, &slot));
    assert_int_equal(slot, -3);
  }
}

static void capacity_helpers(void **state) {
  (void)state;
  assert_true(gcol_is_pow2(1) && gcol_is_pow2(2) && gcol_is_pow2((int64_t)1 << 62));
  assert_false(gcol_is_pow2(0) || gcol_is_pow2(-2) || gcol_is_pow2(6) || gcol_is_pow2(INT64_MIN));
  assert_int_equal(gcol_next_pow2(0), 1);
  assert_int_equal(gcol_next_pow2(1), 1);
  assert_int_equal(gcol_next_pow2(5), 8);
  assert_int_equal(gcol_next_pow2(64), 64);
  assert_int_equal(gcol_next_pow2(((int64_t)1 << 62) + 1), 0);
  assert_int_equal(gcol_probe_capacity_for(0), 2);
  assert_int_equal(gcol_probe_capacity_for(1), 2);
  assert_int_equal(gcol_probe_capacity_for(3), 8);
  assert_int_equal(gcol_probe_capacity_for(1000), 2048);
  assert_int_equal(gcol_probe_capacity_for(((int64_t)1 << 61) + 1), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(probes_visit_every_slot_once),
      cmocka_unit_test(linear_probe_walks_consecutive_slots_and_wraps),
      cmocka_unit_test(double_probe_uses_an_odd_step),
      cmocka_unit_test(bad_capacity_gives_an_empty_sequence),
      cmocka_unit_test(capacity_helpers),
  };
  return GCOL_TEST_RUN("toolkit_probe", tests);
}
