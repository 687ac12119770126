/*
 * Host tests of include/gcol/hashing.h and include/gcol/partitioning.h (no GPU needed): the
 * Spark reference against the independent MurmurHash3 of gcol/hash.h (equal where Spark's
 * rules say so), Java's BigInteger bytes, row chaining and null skipping of the reference,
 * and the argument checks of gcol_hash and the partitioning functions (which fail before any
 * device work).
 */
#include "hashing_reference.h"

#include "gcol/partitioning.h"
#include "hashing/digest.h"

static void md5_hex(const void *p, int64_t n, char *hex) {
  gcol_detail_md5 c;
  unsigned char d[16];
  gcol_detail_md5_init(&c);
  gcol_detail_md5_update(&c, (const unsigned char *)p, n);
  gcol_detail_md5_final(&c, d);
  gcol_detail_digest_hex(d, 16, hex);
  hex[32] = '\0';
}

static void sha256_hex(const void *p, int64_t n, char *hex) {
  gcol_detail_sha256 c;
  unsigned char d[32];
  gcol_detail_sha256_init(&c);
  gcol_detail_sha256_update(&c, (const unsigned char *)p, n);
  gcol_detail_sha256_final(&c, d);
  gcol_detail_digest_hex(d, 32, hex);
  hex[64] = '\0';
}

/* The RFC 1321 test suite (appendix A.5). */
static void test_md5_rfc1321(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
       "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
       "57edf4a22be3c955ac49da2e2107b67a"},
  };
  char hex[33];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    md5_hex(cases[i][0], (int64_t)strlen(cases[i][0]), hex);
    assert_string_equal(hex, cases[i][1]);
  }
}

/* FIPS 180 examples: "abc", the 448-bit two-block message, one million 'a', and "". */
static void test_sha256_fips180(void **state) {
  (void)state;
  char hex[65];
  sha256_hex("abc", 3, hex);
  assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  sha256_hex("", 0, hex);
  assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  sha256_hex(two, (int64_t)strlen(two), hex);
  assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  char *million = (char *)malloc(1000000);
  memset(million, 'a', 1000000);
  sha256_hex(million, 1000000, hex);
  free(million);
  assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Feeding the bytes in pieces gives the digest of the whole (the row path). */
static void test_digest_streaming(void **state) {
  (void)state;
  static const char msg[] =
      "12345678901234567890123456789012345678901234567890123456789012345678901234567890";
  int64_t const n = (int64_t)strlen(msg);
  char whole_md5[33], whole_sha[65];
  md5_hex(msg, n, whole_md5);
  sha256_hex(msg, n, whole_sha);
  for (int64_t cut = 0; cut <= n; cut += 7) {
    gcol_detail_md5 m;
    gcol_detail_sha256 s;
    unsigned char d[32];
    char hex[65];
    gcol_detail_md5_init(&m);
    gcol_detail_sha256_init(&s);
    gcol_detail_md5_update(&m, (const unsigned char *)msg, cut);
    gcol_detail_md5_update(&m, (const unsigned char *)msg + cut, n - cut);
    gcol_detail_sha256_update(&s, (const unsigned char *)msg, cut);
    gcol_detail_sha256_update(&s, (const unsigned char *)msg + cut, n - cut);
    gcol_detail_md5_final(&m, d);
    gcol_detail_digest_hex(d, 16, hex);
    hex[32] = '\0';
    assert_string_equal(hex, whole_md5);
    gcol_detail_sha256_final(&s, d);
    gcol_detail_digest_hex(d, 32, hex);
    hex[64] = '\0';
    assert_string_equal(hex, whole_sha);
  }
}

/* hashInt / hashLong are MurmurHash3_x86_32 of the 4 / 8 little-endian bytes. */
static void test_spark_int_long_match_murmur3(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(901);
  for (int k = 0; k < 1000; ++k) {
    uint64_t const v = gcol_test_rng_next(&rng);
    uint32_t const seed = (uint32_t)gcol_test_rng_next(&rng);
    uint32_t const v32 = (uint32_t)v;
    assert_int_equal(ref_spark_hash_int((int32_t)v32, seed), gcol_murmur3_32(&v32, 4, seed));
    assert_int_equal(ref_spark_hash_long((int64_t)v, seed), gcol_murmur3_32(&v, 8, seed));
  }
}

/* hashUnsafeBytes equals MurmurHash3 for lengths that are multiples of 4, and differs in
 * the tail (each byte its own block, sign-extended) otherwise. */
static void test_spark_unsafe_bytes(void **state) {
  (void)state;
  unsigned char bytes[64];
  gcol_test_rng rng = gcol_test_rng_make(902);
  gcol_test_rng_fill(&rng, bytes, sizeof bytes);
  for (int64_t len = 0; len <= 64; len += 4) {
    assert_int_equal(ref_spark_hash_unsafe_bytes(bytes, len, 42), gcol_murmur3_32(bytes, len, 42));
  }
  /* One tail byte 0x80: Spark mixes the block 0xFFFFFF80 and a full round. */
  unsigned char const one = 0x80;
  uint32_t h = 42;
  uint32_t k = 0xFFFFFF80u;
  k *= 0xCC9E2D51u;
  k = (k << 15) | (k >> 17);
  k *= 0x1B873593u;
  h ^= k;
  h = (h << 13) | (h >> 19);
  h = h * 5u + 0xE6546B64u;
  h ^= 1u;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  assert_int_equal(ref_spark_hash_unsafe_bytes(&one, 1, 42), h);
  assert_int_not_equal(ref_spark_hash_unsafe_bytes(&one, 1, 42), gcol_murmur3_32(&one, 1, 42));
}

static void check_big_integer(uint64_t lo, int64_t hi, const unsigned char *expected, int len) {
  unsigned char out[16];
  assert_int_equal(ref_java_big_integer_bytes(lo, hi, out), len);
  assert_memory_equal(out, expected, (size_t)len);
}

/* BigInteger.valueOf(x).toByteArray() of known values. */
static void test_java_big_integer_bytes(void **state) {
  (void)state;
  check_big_integer(0, 0, (const unsigned char[]){0x00}, 1);
  check_big_integer(~0ull, -1, (const unsigned char[]){0xFF}, 1);
  check_big_integer(127, 0, (const unsigned char[]){0x7F}, 1);
  check_big_integer(128, 0, (const unsigned char[]){0x00, 0x80}, 2);
  check_big_integer((uint64_t)-128, -1, (const unsigned char[]){0x80}, 1);
  check_big_integer((uint64_t)-129, -1, (const unsigned char[]){0xFF, 0x7F}, 2);
  check_big_integer(255, 0, (const unsigned char[]){0x00, 0xFF}, 2);
  check_big_integer(0x8000000000000000ull, 0,
                    (const unsigned char[]){0x00, 0x80, 0, 0, 0, 0, 0, 0, 0}, 9);
  check_big_integer(0, INT64_MIN,
                    (const unsigned char[]){0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 16);
  check_big_integer(~0ull, INT64_MAX,
                    (const unsigned char[]){0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
                    16);
}

/* A host column of n rows of one fixed-width type (values given), all valid. */
static ref_column host_column(gcol_type_id id, int64_t n, const void *values) {
  ref_column c;
  memset(&c, 0, sizeof c);
  c.type = gcol_data_type_make(id);
  c.size = n;
  c.width = gcol_type_size(id);
  c.values = (uint8_t *)malloc((size_t)n * c.width);
  memcpy(c.values, values, (size_t)n * c.width);
  c.valid = (uint8_t *)malloc((size_t)n);
  memset(c.valid, 1, (size_t)n);
  return c;
}

static void free_host_column(ref_column *c) {
  free(c->values);
  free(c->valid);
}

/* The reference chains the running hash and skips nulls; floats are normalized. */
static void test_reference_row_semantics(void **state) {
  (void)state;
  int64_t const a[2] = {42, -7};
  double const d[2] = {-0.0, 0.0};
  ref_column ca = host_column(GCOL_INT64, 2, a);
  ref_column cd = host_column(GCOL_FLOAT64, 2, d);
  const ref_column *cols[2] = {&ca, &cd};
  uint64_t const zero = 0;
  uint32_t const h0 = gcol_murmur3_32(&a[0], 8, 7);
  assert_int_equal(ref_row_hash(cols, 2, 0, GCOL_HASH_MURMUR3_32, 7),
                   gcol_murmur3_32(&zero, 8, h0));
  assert_int_equal(ref_row_hash(cols, 2, 0, GCOL_HASH_MURMUR3_32, 7),
                   ref_row_hash(cols + 1, 1, 1, GCOL_HASH_MURMUR3_32, h0));
  assert_true(ref_row_hash(cols, 2, 0, GCOL_HASH_XXHASH64, 7) ==
              gcol_xxhash64(&zero, 8, gcol_xxhash64(&a[0], 8, 7)));
  ca.valid[1] = 0; /* a null leaves the running hash as it was */
  assert_int_equal(ref_row_hash(cols, 2, 1, GCOL_HASH_MURMUR3_32_SPARK, 42),
                   ref_spark_hash_long(0, 42));
  cd.valid[1] = 0;
  assert_int_equal(ref_row_hash(cols, 2, 1, GCOL_HASH_MURMUR3_32_SPARK, 42), 42);
  assert_true(ref_row_hash(cols, 2, 1, GCOL_HASH_XXHASH64, 1234) == 1234);
  free_host_column(&ca);
  free_host_column(&cd);
}

static gcol_column_view empty_view(gcol_type_id id) {
  return gcol_column_view_make(gcol_data_type_make(id), 0, NULL, NULL, 0);
}

static void test_hash_argument_checks(void **state) {
  (void)state;
  gcol_column_view cols[2] = {empty_view(GCOL_INT32), empty_view(GCOL_STRUCT)};
  gcol_table_view t;
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_table_view_make(cols, 1, &t));
  GCOL_TEST_STATUS(gcol_hash(t, GCOL_HASH_MURMUR3_32, 0, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_hash(t, (gcol_hash_function)99, 0, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_table_view none = t;
  none.num_columns = 0;
  GCOL_TEST_STATUS(gcol_hash(none, GCOL_HASH_XXHASH64, 0, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_table_view const structs = {1, 0, &cols[1]};
  GCOL_TEST_STATUS(gcol_hash(structs, GCOL_HASH_XXHASH64, 0, &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_hash(structs, GCOL_HASH_MD5, 0, &out, NULL, NULL), GCOL_ERROR_UNSUPPORTED);
  assert_null(out);
}

static void test_partition_argument_checks(void **state) {
  (void)state;
  gcol_column_view cols[2] = {empty_view(GCOL_INT32), empty_view(GCOL_STRING)};
  gcol_table_view t;
  gcol_table *out = NULL;
  int64_t offsets[8];
  int32_t const keys[2] = {0, 5};
  GCOL_TEST_OK(gcol_table_view_make(cols, 1, &t));
  GCOL_TEST_STATUS(
      gcol_hash_partition(t, keys, 1, 4, GCOL_HASH_MURMUR3_32, 0, NULL, offsets, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_hash_partition(t, keys, 1, 4, GCOL_HASH_MURMUR3_32, 0, &out, NULL, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_hash_partition(t, NULL, 1, 4, GCOL_HASH_MURMUR3_32, 0, &out, offsets, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_hash_partition(t, keys, 0, 4, GCOL_HASH_MURMUR3_32, 0, &out, offsets, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_hash_partition(t, keys, 2, 4, GCOL_HASH_MURMUR3_32, 0, &out, offsets, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT); /* key index 5 of 1 column */
  GCOL_TEST_STATUS(
      gcol_hash_partition(t, keys, 1, 0, GCOL_HASH_MURMUR3_32, 0, &out, offsets, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_hash_partition(t, keys, 1, -3, GCOL_HASH_XXHASH64, 0, &out, offsets, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_hash_partition(t, keys, 1, 4, GCOL_HASH_MD5, 0, &out, offsets, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_partition(t, empty_view(GCOL_INT32), 0, &out, offsets, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_partition(t, empty_view(GCOL_FLOAT32), 4, &out, offsets, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_partition(t, empty_view(GCOL_INT8), 4, NULL, offsets, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_round_robin_partition(t, 0, 0, &out, offsets, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_round_robin_partition(t, 4, 4, &out, offsets, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_round_robin_partition(t, 4, -1, &out, offsets, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_round_robin_partition(t, 4, 0, &out, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_md5_rfc1321),
      cmocka_unit_test(test_sha256_fips180),
      cmocka_unit_test(test_digest_streaming),
      cmocka_unit_test(test_spark_int_long_match_murmur3),
      cmocka_unit_test(test_spark_unsafe_bytes),
      cmocka_unit_test(test_java_big_integer_bytes),
      cmocka_unit_test(test_reference_row_semantics),
      cmocka_unit_test(test_hash_argument_checks),
      cmocka_unit_test(test_partition_argument_checks),
  };
  return GCOL_TEST_RUN("hashing_host", tests);
}
