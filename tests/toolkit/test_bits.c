/* Host tests of gcol/bits.h: single bits, counting in any range at any offset, word
 * extraction (funnel shift) at every offset 0..64, and no read past the word holding the
 * last bit (masks sized exactly, so valgrind/ASan flag an overread). */
#include "gcol/bits.h"
#include "test_util.h"

static bool ref_bit(const uint32_t *mask, int64_t bit) { return (mask[bit / 32] >> (bit % 32)) & 1u; }

static int64_t ref_count(const uint32_t *mask, int64_t begin, int64_t end) {
  int64_t n = 0;
  for (int64_t b = begin; b < end; ++b) n += ref_bit(mask, b);
  return n;
}

/* A mask of exactly the words that hold num_bits bits, random content. */
static uint32_t *random_mask(gcol_test_rng *rng, int64_t num_bits) {
  size_t const words = (size_t)gcol_bit_num_words(num_bits);
  uint32_t *mask = malloc(words * sizeof(uint32_t) + (words == 0));
  assert_non_null(mask);
  gcol_test_rng_fill(rng, mask, words * sizeof(uint32_t));
  return mask;
}

static void word_index_and_counts(void **state) {
  (void)state;
  assert_int_equal(gcol_bit_word_index(0), 0);
  assert_int_equal(gcol_bit_word_index(31), 0);
  assert_int_equal(gcol_bit_word_index(32), 1);
  assert_int_equal(gcol_bit_word_index((int64_t)1 << 40), (int64_t)1 << 35);
  assert_int_equal(gcol_bit_in_word(33), 1);
  assert_int_equal(gcol_bit_num_words(0), 0);
  assert_int_equal(gcol_bit_num_words(1), 1);
  assert_int_equal(gcol_bit_num_words(32), 1);
  assert_int_equal(gcol_bit_num_words(33), 2);
  for (int n = 0; n <= 32; ++n) {
    uint32_t const m = gcol_bits_low_mask(n);
    assert_int_equal(gcol_popcount32(m), n);
    assert_int_equal(n == 32 ? m : m >> n, n == 32 ? 0xFFFFFFFFu : 0u);
  }
  assert_int_equal(gcol_popcount32(0x80000001u), 2);
  assert_int_equal(gcol_popcount32(0xF0F0F0F0u), 16);
}

static void set_clear_assign_touch_one_bit(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(41);
  uint32_t mask[4];
  uint32_t before[4];
  for (int64_t bit = 0; bit < 128; ++bit) {
    gcol_test_rng_fill(&rng, mask, sizeof mask);
    memcpy(before, mask, sizeof mask);
    gcol_bit_set(mask, bit);
    assert_true(gcol_bit_is_set(mask, bit));
    assert_true(gcol_bit_is_set_or_null_mask(mask, bit));
    gcol_bit_clear(mask, bit);
    assert_false(gcol_bit_is_set(mask, bit));
    assert_false(gcol_bit_is_set_or_null_mask(mask, bit));
    gcol_bit_assign(mask, bit, true);
    assert_true(gcol_bit_is_set(mask, bit));
    gcol_bit_assign(mask, bit, ref_bit(before, bit));
    assert_memory_equal(mask, before, sizeof mask); /* no other bit moved */
  }
  assert_true(gcol_bit_is_set_or_null_mask(NULL, 12345));
}

static void funnel_shift_matches_64_bit_shift(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(42);
  for (int t = 0; t < 1000; ++t) {
    uint64_t const r = gcol_test_rng_next(&rng);
    uint32_t const lo = (uint32_t)r;
    uint32_t const hi = (uint32_t)(r >> 32);
    for (uint32_t s = 0; s < 32; ++s) {
      assert_int_equal(gcol_bits_funnel_shift_right(lo, hi, s), (uint32_t)(r >> s));
    }
  }
}

static void extract_word_at_every_offset(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(43);
  int64_t const num_bits = 64 + 64 + 32;
  uint32_t *mask = random_mask(&rng, num_bits);
  for (int64_t begin = 0; begin <= 64; ++begin) {
    for (int64_t len = 1; len <= 40 && begin + len <= num_bits; ++len) {
      int64_t const end = begin + len;
      uint32_t expected = 0;
      for (int64_t k = 0; k < len && k < 32; ++k) expected |= (uint32_t)ref_bit(mask, begin + k) << k;
      uint32_t const got = gcol_bits_extract_word(mask, begin, end);
      if (got != expected) {
        fail_msg("begin %lld end %lld: got %08X want %08X", (long long)begin, (long long)end, got, expected);
      }
    }
  }
  free(mask);
}

/* end is the last bit of an exactly-sized mask: the word after it must not be read. */
static void extract_and_count_never_read_past_the_last_word(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(44);
  for (int64_t num_bits = 1; num_bits <= 130; ++num_bits) {
    uint32_t *mask = random_mask(&rng, num_bits);
    for (int64_t begin = 0; begin < num_bits; ++begin) {
      uint32_t const w = gcol_bits_extract_word(mask, begin, num_bits);
      int64_t const len = num_bits - begin < 32 ? num_bits - begin : 32;
      uint32_t expected = 0;
      for (int64_t k = 0; k < len; ++k) expected |= (uint32_t)ref_bit(mask, begin + k) << k;
      assert_int_equal(w, expected);
      assert_int_equal(gcol_bits_count_set_range(mask, begin, num_bits), ref_count(mask, begin, num_bits));
    }
    free(mask);
  }
}

static void count_ranges_at_any_offsets(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(45);
  int64_t const num_bits = 300;
  uint32_t *mask = random_mask(&rng, num_bits);
  for (int64_t begin = 0; begin <= 130; ++begin) {
    for (int64_t end = begin; end <= num_bits; end += (end - begin < 70 ? 1 : 7)) {
      int64_t const set = ref_count(mask, begin, end);
      int64_t const got = gcol_bits_count_set_range(mask, begin, end);
      if (got != set) fail_msg("[%lld, %lld): got %lld want %lld", (long long)begin, (long long)end, (long long)got, (long long)set);
      assert_int_equal(gcol_bits_count_unset_range(mask, begin, end), (end - begin) - set);
    }
  }
  /* Empty and reversed ranges, NULL mask. */
  assert_int_equal(gcol_bits_count_set_range(mask, 17, 17), 0);
  assert_int_equal(gcol_bits_count_unset_range(mask, 17, 17), 0);
  assert_int_equal(gcol_bits_count_unset_range(mask, 20, 10), 0);
  assert_int_equal(gcol_bits_count_unset_range(NULL, 0, 1000), 0);
  /* All-ones and all-zeros masks give exact counts. */
  memset(mask, 0xFF, (size_t)gcol_bit_num_words(num_bits) * 4);
  assert_int_equal(gcol_bits_count_set_range(mask, 3, 299), 296);
  memset(mask, 0, (size_t)gcol_bit_num_words(num_bits) * 4);
  assert_int_equal(gcol_bits_count_unset_range(mask, 33, 65), 32);
  free(mask);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(word_index_and_counts),
      cmocka_unit_test(set_clear_assign_touch_one_bit),
      cmocka_unit_test(funnel_shift_matches_64_bit_shift),
      cmocka_unit_test(extract_word_at_every_offset),
      cmocka_unit_test(extract_and_count_never_read_past_the_last_word),
      cmocka_unit_test(count_ranges_at_any_offsets),
  };
  return GCOL_TEST_RUN("toolkit_bits", tests);
}
