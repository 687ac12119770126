/* Host tests of gcol/hash.h: MurmurHash3_x86_32 and XXH64 against published vectors, the
 * 64-bit finalizer and combiner, and the typed value hashes (-0.0 == 0.0, NaNs equal). */
#include <math.h>

#include "gcol/hash.h"
#include "test_util.h"

typedef struct murmur_vector {
  const char *key;
  int64_t len;
  uint32_t seed;
  uint32_t expected;
} murmur_vector;

/* MurmurHash3_x86_32 vectors published by Ian Boyd (https://stackoverflow.com/a/31929528,
 * "MurmurHash3 test vectors", checked against the reference MurmurHash3.cpp), also used by
 * the mmh3 Python package's tests. */
static const murmur_vector murmur_vectors[] = {
    {"", 0, 0u, 0x00000000u},
    {"", 0, 1u, 0x514E28B7u},
    {"", 0, 0xFFFFFFFFu, 0x81F16F39u},
    {"\xff\xff\xff\xff", 4, 0u, 0x76293B50u},
    {"\x21\x43\x65\x87", 4, 0u, 0xF55B516Bu},
    {"\x21\x43\x65\x87", 4, 0x5082EDEEu, 0x2362F9DEu},
    {"\x21\x43\x65", 3, 0u, 0x7E4A8634u},
    {"\x21\x43", 2, 0u, 0xA0F7B07Au},
    {"\x21", 1, 0u, 0x72661CF4u},
    {"\x00\x00\x00\x00", 4, 0u, 0x2362F9DEu},
    {"\x00\x00\x00", 3, 0u, 0x85F0B427u},
    {"\x00\x00", 2, 0u, 0x30F4C306u},
    {"\x00", 1, 0u, 0x514E28B7u},
    {"aaaa", 4, 0x9747B28Cu, 0x5A97808Au},
    {"aaa", 3, 0x9747B28Cu, 0x283E0130u},
    {"aa", 2, 0x9747B28Cu, 0x5D211726u},
    {"a", 1, 0x9747B28Cu, 0x7FA09EA6u},
    {"abcd", 4, 0x9747B28Cu, 0xF0478627u},
    {"abc", 3, 0x9747B28Cu, 0xC84A62DDu},
    {"ab", 2, 0x9747B28Cu, 0x74875592u},
    {"Hello, world!", 13, 0x9747B28Cu, 0x24884CBAu},
    {"The quick brown fox jumps over the lazy dog", 43, 0x9747B28Cu, 0x2FA826CDu},
};

static void murmur3_matches_published_vectors(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof murmur_vectors / sizeof murmur_vectors[0]; ++i) {
    const murmur_vector *v = &murmur_vectors[i];
    uint32_t const h = gcol_murmur3_32(v->key, v->len, v->seed);
    if (h != v->expected) fail_msg("vector %zu: got 0x%08X, expected 0x%08X", i, h, v->expected);
  }
}

/* SMHasher's VerificationTest (rurban/smhasher and aappleby/smhasher, KeysetTest.cpp):
 * hash key[0..i) (key[j] = j) with seed 256 - i for i = 0..255, concatenate the hashes
 * little-endian, hash that with seed 0 and take the first 4 bytes. */
static uint32_t smhasher_verification(int hash_bytes, bool is64) {
  uint8_t key[256];
  uint8_t hashes[256 * 8];
  for (int i = 0; i < 256; ++i) {
    key[i] = (uint8_t)i;
    uint64_t h = is64 ? gcol_xxhash64(key, i, (uint64_t)(256 - i))
                      : gcol_murmur3_32(key, i, (uint32_t)(256 - i));
    for (int b = 0; b < hash_bytes; ++b) hashes[i * hash_bytes + b] = (uint8_t)(h >> (8 * b));
  }
  uint64_t const final_hash = is64 ? gcol_xxhash64(hashes, 256 * hash_bytes, 0)
                                   : gcol_murmur3_32(hashes, 256 * hash_bytes, 0);
  return (uint32_t)final_hash;
}

static void murmur3_matches_smhasher_verification(void **state) {
  (void)state;
  /* SMHasher main.cpp lists MurmurHash3_x86_32 with verification value 0xB0F57EE3. */
  assert_int_equal(smhasher_verification(4, false), 0xB0F57EE3u);
}

static void xxhash64_matches_smhasher_verification(void **state) {
  (void)state;
  /* rurban/smhasher main.cpp lists xxHash64 with verification value 0x024B7CF4. */
  assert_int_equal(smhasher_verification(8, true), 0x024B7CF4u);
}

/* xxHash's own sanity check (Cyan4973/xxHash, cli/xsum_sanity_check.c): a buffer filled by
 * XSUM_fillTestBuffer, hashed at several lengths with seeds 0 and PRIME32. */
#define XXH_PRIME32 2654435761u
#define XXH_PRIME64 11400714785074694797ull

static void xxhash64_matches_xxhsum_sanity_vectors(void **state) {
  (void)state;
  static const struct {
    int64_t len;
    uint64_t seed;
    uint64_t expected;
  } vectors[] = {
      {0, 0, 0xEF46DB3751D8E999ull},   {0, XXH_PRIME32, 0xAC75FDA2929B17EFull},
      {1, 0, 0xE934A84ADB052768ull},   {1, XXH_PRIME32, 0x5014607643A9B4C3ull},
      {4, 0, 0x9136A0DCA57457EEull},   {14, 0, 0x8282DCC4994E35C8ull},
      {14, XXH_PRIME32, 0xC3BD6BF63DEB6DF0ull}, {222, 0, 0xB641AE8CB691C174ull},
      {222, XXH_PRIME32, 0x20CB8AB7AE10C14Aull},
  };
  uint8_t buffer[256];
  uint64_t gen = XXH_PRIME32;
  for (size_t i = 0; i < sizeof buffer; ++i) {
    buffer[i] = (uint8_t)(gen >> 56);
    gen *= XXH_PRIME64;
  }
  for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; ++i) {
    uint64_t const h = gcol_xxhash64(buffer, vectors[i].len, vectors[i].seed);
    if (h != vectors[i].expected) {
      fail_msg("len %lld seed %llu: got 0x%016llX, expected 0x%016llX", (long long)vectors[i].len,
               (unsigned long long)vectors[i].seed, (unsigned long long)h,
               (unsigned long long)vectors[i].expected);
    }
  }
}

/* The hashes read bytes, so a key at any address gives the same result. */
static void hashes_do_not_depend_on_alignment(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(11);
  uint8_t key[300];
  uint8_t shifted[300 + 8];
  gcol_test_rng_fill(&rng, key, sizeof key);
  for (int64_t len = 0; len <= 300; len += (len < 70 ? 1 : 23)) {
    uint32_t const m = gcol_murmur3_32(key, len, 7);
    uint64_t const x = gcol_xxhash64(key, len, 7);
    for (int shift = 1; shift < 8; ++shift) {
      memcpy(shifted + shift, key, (size_t)len);
      assert_int_equal(gcol_murmur3_32(shifted + shift, len, 7), m);
      assert_true(gcol_xxhash64(shifted + shift, len, 7) == x);
    }
  }
}

static int popcount64(uint64_t x) {
  int n = 0;
  for (; x != 0; x &= x - 1) ++n;
  return n;
}

static void mix64_avalanches_and_is_injective_on_samples(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(12);
  assert_true(gcol_hash_mix64(0) == 0);
  /* Flipping one input bit flips about half the output bits. */
  int64_t flipped = 0;
  int64_t trials = 0;
  for (int t = 0; t < 2000; ++t) {
    uint64_t const x = gcol_test_rng_next(&rng);
    uint64_t const hx = gcol_hash_mix64(x);
    for (int b = 0; b < 64; ++b) {
      flipped += popcount64(hx ^ gcol_hash_mix64(x ^ (1ull << b)));
      ++trials;
    }
  }
  double const mean = (double)flipped / (double)trials;
  if (mean < 31.0 || mean > 33.0) fail_msg("mean flipped bits %f, expected about 32", mean);
  /* Consecutive keys give distinct hashes (fmix64 is a bijection). */
  enum { N = 4096 };
  static uint64_t seen[N];
  for (uint64_t i = 0; i < N; ++i) seen[i] = gcol_hash_u64(i, 3);
  for (int i = 0; i < N; ++i) {
    for (int j = i + 1; j < N; ++j) assert_true(seen[i] != seen[j]);
  }
}

static void combine64_depends_on_order_and_both_inputs(void **state) {
  (void)state;
  uint64_t const a = gcol_hash_u64(1, 0);
  uint64_t const b = gcol_hash_u64(2, 0);
  assert_true(gcol_hash_combine64(gcol_hash_combine64(0, a), b) !=
              gcol_hash_combine64(gcol_hash_combine64(0, b), a));
  assert_true(gcol_hash_combine64(a, b) != gcol_hash_combine64(a, a));
  assert_true(gcol_hash_combine64(a, b) != gcol_hash_combine64(b, b));
  /* The documented formula (boost/libcudf hash_combine widened to 64 bits). */
  assert_true(gcol_hash_combine64(a, b) ==
              (a ^ (b + 0x9E3779B97F4A7C15ull + (a << 12) + (a >> 4))));
}

static float float_from_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static double double_from_bits(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static void float_hashes_treat_zeros_and_nans_as_one_key(void **state) {
  (void)state;
  static const uint32_t nans32[] = {0x7FC00000u, 0x7FC00001u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu};
  static const uint64_t nans64[] = {0x7FF8000000000000ull, 0x7FF8000000000001ull,
                                    0xFFF8000000000000ull, 0x7FF0000000000001ull,
                                    0xFFFFFFFFFFFFFFFFull};
  for (uint64_t seed = 0; seed < 3; ++seed) {
    assert_true(gcol_hash_f32(0.0f, seed) == gcol_hash_f32(-0.0f, seed));
    assert_true(gcol_hash_f64(0.0, seed) == gcol_hash_f64(-0.0, seed));
    for (size_t i = 0; i < 5; ++i) {
      assert_true(isnan(float_from_bits(nans32[i])));
      assert_true(gcol_hash_f32(float_from_bits(nans32[i]), seed) == gcol_hash_f32(NAN, seed));
      assert_true(isnan(double_from_bits(nans64[i])));
      assert_true(gcol_hash_f64(double_from_bits(nans64[i]), seed) == gcol_hash_f64(NAN, seed));
    }
    assert_true(gcol_hash_f32(1.0f, seed) != gcol_hash_f32(-1.0f, seed));
    assert_true(gcol_hash_f32(INFINITY, seed) != gcol_hash_f32(-INFINITY, seed));
    assert_true(gcol_hash_f32(INFINITY, seed) != gcol_hash_f32(NAN, seed));
    assert_true(gcol_hash_f64(INFINITY, seed) != gcol_hash_f64(-INFINITY, seed));
    assert_true(gcol_hash_f64(1e-310, seed) != gcol_hash_f64(0.0, seed)); /* subnormal */
    assert_true(gcol_hash_f32(1e-40f, seed) != gcol_hash_f32(0.0f, seed));
    assert_true(gcol_hash_f64(0.0, seed) != gcol_hash_f64(0.0, seed + 1));
  }
  /* A non-special value hashes its bits. */
  assert_true(gcol_hash_f64(2.5, 9) == gcol_hash_u64(gcol_double_bits(2.5), 9));
  assert_true(gcol_hash_f32(2.5f, 9) == gcol_hash_u64(gcol_float_bits(2.5f), 9));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(murmur3_matches_published_vectors),
      cmocka_unit_test(murmur3_matches_smhasher_verification),
      cmocka_unit_test(xxhash64_matches_smhasher_verification),
      cmocka_unit_test(xxhash64_matches_xxhsum_sanity_vectors),
      cmocka_unit_test(hashes_do_not_depend_on_alignment),
      cmocka_unit_test(mix64_avalanches_and_is_injective_on_samples),
      cmocka_unit_test(combine64_depends_on_order_and_both_inputs),
      cmocka_unit_test(float_hashes_treat_zeros_and_nans_as_one_key),
  };
  return GCOL_TEST_RUN("toolkit_hash", tests);
}
