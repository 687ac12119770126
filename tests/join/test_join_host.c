/*
 * Host tests of include/gcol/join.h (no GPU needed): the argument checks that fail before
 * any device work, each with its status and a message, and nothing written to the outputs;
 * the key words of the sort-merge join's fast path (kernels/detail/sort_keys.h, compiled
 * here by gcc) against the sort comparator's; the plan of the radix-partitioned hash join
 * (kernels/join/radix_plan.h: when, how many partitions, a key's partition, the layout of
 * the partition pass's counts), with the partition pass simulated on the host.
 */
#include <stdlib.h>
#include <string.h>

#include "detail/sort_keys.h"
#include "gcol/hash.h"
#include "gcol/join.h"
#include "gcol/probe.h"
#include "join/radix_plan.h"
#include "test_util.h"

static gcol_column_view empty_column(gcol_type_id id) {
  return gcol_column_view_make(gcol_data_type_make(id), 0, NULL, NULL, 0);
}

static void assert_message(void) { assert_true(strlen(gcol_last_error()) > 0); }

static void test_join_argument_checks(void **state) {
  (void)state;
  gcol_column_view const cols[2] = {empty_column(GCOL_INT32), empty_column(GCOL_STRING)};
  gcol_table_view one, two;
  GCOL_TEST_OK(gcol_table_view_make(cols, 1, &one));
  GCOL_TEST_OK(gcol_table_view_make(cols, 2, &two));
  gcol_column *l = (gcol_column *)&l, *r = (gcol_column *)&r; /* must be set to NULL */
  GCOL_TEST_STATUS(gcol_join(one, one, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, NULL, &r, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_message();
  GCOL_TEST_STATUS(gcol_join(one, two, GCOL_JOIN_LEFT, GCOL_NULLS_EQUAL, &l, &r, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(l);
  assert_null(r);
  assert_message();
  GCOL_TEST_STATUS(gcol_join(one, one, (gcol_join_kind)7, GCOL_NULLS_EQUAL, &l, &r, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_message();
}

static void test_join_hash_argument_checks(void **state) {
  (void)state;
  gcol_column_view const col = empty_column(GCOL_INT64);
  gcol_table_view one, none;
  GCOL_TEST_OK(gcol_table_view_make(&col, 1, &one));
  memset(&none, 0, sizeof none);
  gcol_join_hash *h = (gcol_join_hash *)&h;
  GCOL_TEST_STATUS(gcol_join_hash_create(none, GCOL_NULLS_EQUAL, &h, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(h);
  GCOL_TEST_STATUS(gcol_join_hash_create(one, (gcol_null_equality)3, &h, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_join_hash_create(one, GCOL_NULLS_EQUAL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  int64_t size = 5;
  GCOL_TEST_STATUS(gcol_join_hash_probe_size(NULL, one, GCOL_JOIN_INNER, &size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(size, 0);
  gcol_column *l = NULL, *r = NULL;
  GCOL_TEST_STATUS(gcol_join_hash_probe(NULL, one, GCOL_JOIN_INNER, 0, -1, &l, &r, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_message();
  gcol_join_hash_free(NULL);
  assert_int_equal(gcol_join_hash_build_rows(NULL), 0);
}

static void test_join_tables_argument_checks(void **state) {
  (void)state;
  gcol_column_view const cols[2] = {empty_column(GCOL_INT32), empty_column(GCOL_FLOAT64)};
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(cols, 2, &t));
  int32_t const ok = 0, out_of_range = 2, negative = -1;
  gcol_table *out = (gcol_table *)&out;
  GCOL_TEST_STATUS(gcol_join_tables(t, &ok, t, &ok, 0, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, false,
                                    &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_join_tables(t, NULL, t, &ok, 1, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, false,
                                    &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_join_tables(t, &out_of_range, t, &ok, 1, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL,
                                    false, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_message();
  /* found by an internal helper, reported under the public function the user called */
  assert_non_null(strstr(gcol_last_error(), "gcol_join_tables: left_on[0] is 2"));
  GCOL_TEST_STATUS(gcol_join_tables(t, &ok, t, &negative, 1, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL,
                                    false, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_join_tables(t, &ok, t, &ok, 1, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, false,
                                    NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

static void test_cross_join_argument_checks(void **state) {
  (void)state;
  gcol_column *l = (gcol_column *)&l, *r = (gcol_column *)&r;
  GCOL_TEST_STATUS(gcol_cross_join((int64_t)1 << 33, (int64_t)1 << 31, &l, &r, NULL, NULL),
                   GCOL_ERROR_OVERFLOW);
  assert_null(l);
  assert_null(r);
  assert_message();
  GCOL_TEST_STATUS(gcol_cross_join(3, -2, &l, &r, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_cross_join(3, 2, NULL, &r, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_cross_join(3, 2, &l, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
}

/* Raw values of `width` bytes at the edges of every one-word kind (bit patterns: zero, all
 * ones, the sign bit alone, the largest positive, NaNs of both signs, quiet and signalling,
 * infinities, subnormals, one; for BOOL8 bytes other than 0 and 1). */
static size_t edge_values(int32_t width, uint64_t *out) {
  size_t n = 0;
  uint64_t const ones = width == 8 ? ~0ull : (1ull << (width * 8)) - 1u;
  uint64_t const sign = 1ull << (width * 8 - 1);
  out[n++] = 0;
  out[n++] = ones;
  out[n++] = sign;
  out[n++] = sign - 1u;
  out[n++] = 1;
  out[n++] = 2;
  out[n++] = sign + 1u;
  if (width == 4) {
    static const uint32_t f32[] = {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFF800001u,
                                   0x7F800000u, 0xFF800000u, 0x00000001u, 0x80000001u,
                                   0x3F800000u, 0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu};
    for (size_t i = 0; i < sizeof f32 / sizeof f32[0]; ++i) out[n++] = f32[i];
  }
  if (width == 8) {
    static const uint64_t f64[] = {
        0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull, 0xFFF0000000000001ull,
        0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x0000000000000001ull, 0x8000000000000001ull,
        0x3FF0000000000000ull, 0xBFF0000000000000ull};
    for (size_t i = 0; i < sizeof f64 / sizeof f64[0]; ++i) out[n++] = f64[i];
  }
  if (width == 1) {
    out[n++] = 0x7F;
    out[n++] = 0xFE;
  }
  return n;
}

/* The sort-merge join's fast path compares gcol_detail_key_word_fixed words: for every
 * fixed-width type it takes (all but DECIMAL128) and both orders, they equal the sort
 * comparator's gcol_detail_key_word on random and edge values, and fit in 32 bits for
 * types of up to 4 bytes (the kernels keep those as uint32). */
static void test_merge_fast_key_words(void **state) {
  (void)state;
  static const gcol_type_id types[] = {GCOL_INT8,
                                       GCOL_INT16,
                                       GCOL_INT32,
                                       GCOL_INT64,
                                       GCOL_UINT8,
                                       GCOL_UINT16,
                                       GCOL_UINT32,
                                       GCOL_UINT64,
                                       GCOL_FLOAT32,
                                       GCOL_FLOAT64,
                                       GCOL_BOOL8,
                                       GCOL_TIMESTAMP_DAYS,
                                       GCOL_TIMESTAMP_NANOSECONDS,
                                       GCOL_DURATION_DAYS,
                                       GCOL_DURATION_SECONDS,
                                       GCOL_DECIMAL32,
                                       GCOL_DECIMAL64};
  enum { N = 256 };
  gcol_test_rng rng = gcol_test_rng_make(1410);
  for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
    gcol_data_type const type = gcol_data_type_make(types[t]);
    int32_t const width = (int32_t)gcol_type_size(type.id);
    uint64_t raws[N], edges[32];
    uint8_t data[N * 8];
    size_t const ne = edge_values(width, edges);
    for (size_t i = 0; i < N; ++i) raws[i] = i < ne ? edges[i] : gcol_test_rng_next(&rng);
    for (size_t i = 0; i < N; ++i) memcpy(data + i * (size_t)width, &raws[i], (size_t)width);
    gcol_column_view const view = gcol_column_view_make(type, N, data, NULL, 0);
    for (int o = 0; o < 2; ++o) {
      gcol_detail_key_column key;
      GCOL_TEST_OK(gcol_detail_key_column_make(view, (gcol_order)o, GCOL_NULLS_AFTER, "key", &key));
      int32_t const base = gcol_detail_key_base_kind(key.kind);
      uint64_t const flip = gcol_detail_key_flip(key.kind, key.width, key.descending);
      assert_true(base == GCOL_DETAIL_KEY_UINT || base == GCOL_DETAIL_KEY_FLOAT ||
                  base == GCOL_DETAIL_KEY_BOOL);
      for (int64_t i = 0; i < N; ++i) {
        uint64_t const want = gcol_detail_key_word(&key, i, 0);
        uint64_t const got = gcol_detail_key_word_fixed(
            gcol_detail_load_raw(key.data, key.width, i), base, key.width, flip);
        if (got != want || (width <= 4 && got > 0xFFFFFFFFull)) {
          fail_msg("%s order %d row %lld (raw 0x%llx): word 0x%llx, the sort's 0x%llx",
                   gcol_type_name(type.id), o, (long long)i, (unsigned long long)raws[i],
                   (unsigned long long)got, (unsigned long long)want);
        }
      }
    }
  }
}

/* Bad options: the specific status before any device work, nothing written. */
static void test_join_options_argument_checks(void **state) {
  (void)state;
  gcol_column_view const col = empty_column(GCOL_INT64);
  gcol_table_view one;
  GCOL_TEST_OK(gcol_table_view_make(&col, 1, &one));
  gcol_join_hash *h = (gcol_join_hash *)&h;
  gcol_join_options bad;
  memset(&bad, 0, sizeof bad);
  bad.algorithm = (gcol_join_algorithm)3;
  GCOL_TEST_STATUS(gcol_join_hash_create_with_options(one, GCOL_NULLS_EQUAL, &bad, &h, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(h);
  assert_non_null(strstr(gcol_last_error(), "gcol_join_hash_create_with_options"));
  assert_non_null(strstr(gcol_last_error(), "algorithm"));
  static const int32_t bad_bits[] = {-1, GCOL_JOIN_RADIX_MAX_BITS + 1, 64};
  for (size_t b = 0; b < sizeof bad_bits / sizeof bad_bits[0]; ++b) {
    memset(&bad, 0, sizeof bad);
    bad.algorithm = GCOL_JOIN_ALGORITHM_RADIX;
    bad.radix_bits = bad_bits[b];
    GCOL_TEST_STATUS(gcol_join_hash_create_with_options(one, GCOL_NULLS_EQUAL, &bad, &h, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(gcol_last_error(), "radix_bits"));
    gcol_column *l = (gcol_column *)&l, *r = (gcol_column *)&r;
    GCOL_TEST_STATUS(gcol_join_with_options(one, one, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, &bad, &l,
                                            &r, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(l);
    assert_null(r);
    assert_non_null(strstr(gcol_last_error(), "gcol_join_with_options"));
  }
  GCOL_TEST_STATUS(gcol_join_hash_create_with_options(one, GCOL_NULLS_EQUAL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_column *l = NULL;
  GCOL_TEST_STATUS(gcol_join_with_options(one, one, (gcol_join_kind)9, GCOL_NULLS_EQUAL, NULL, &l,
                                          NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_join_hash_probe_partitions(NULL, 100000000), 0);
}

enum { MIB = 1 << 20 };

/* Partition bits: a region of at most half the L2 (16-byte slots), at most 8 bits and at
 * most one slot a partition; forced bits cut the same way; none for an unknown L2. */
static void test_radix_plan_bits(void **state) {
  (void)state;
  int64_t const l2 = 50 * (int64_t)MIB; /* an H100's */
  assert_int_equal(gcol_detail_radix_log2(2), 1);
  assert_int_equal(gcol_detail_radix_log2((int64_t)1 << 25), 25);
  assert_int_equal(gcol_detail_radix_log2((int64_t)1 << 62), 62);
  /* the benchmark's map: 2^25 slots, 512 MiB; 32 regions of 16 MiB <= 25 MiB */
  assert_int_equal(gcol_detail_radix_bits_for((int64_t)1 << 25, l2), 5);
  assert_int_equal(gcol_detail_radix_bits_for((int64_t)1 << 25, 60 * (int64_t)MIB), 5);
  /* 2^21 slots = 32 MiB: two regions of 16 MiB; 2^20 = 16 MiB fits: one */
  assert_int_equal(gcol_detail_radix_bits_for((int64_t)1 << 21, l2), 1);
  assert_int_equal(gcol_detail_radix_bits_for((int64_t)1 << 20, l2), 0);
  assert_int_equal(gcol_detail_radix_bits_for(1024, l2), 0);
  assert_int_equal(gcol_detail_radix_bits_for((int64_t)1 << 40, l2), GCOL_JOIN_RADIX_MAX_BITS);
  assert_int_equal(gcol_detail_radix_bits_for((int64_t)1 << 25, 0), 0);
  assert_int_equal(gcol_detail_radix_bits_for((int64_t)1 << 25, -1), 0);
  /* a tiny L2: as many bits as allowed, never more than the slots */
  assert_int_equal(gcol_detail_radix_bits_for(8, 16), 3);
  assert_int_equal(gcol_detail_radix_bits_for(2, 1), 1);
  /* every answer leaves a region within the target, or is at a cap */
  for (int c = 1; c <= 40; ++c) {
    int64_t const cap = (int64_t)1 << c;
    int const b = gcol_detail_radix_bits_for(cap, l2);
    assert_true(b >= 0 && b <= GCOL_JOIN_RADIX_MAX_BITS && b <= c);
    assert_true((cap >> b) * 16 <= l2 / 2 || b == GCOL_JOIN_RADIX_MAX_BITS || b == c);
    if (b > 0) assert_true((cap >> (b - 1)) * 16 > l2 / 2); /* the fewest that do */
  }
  /* forced */
  assert_int_equal(gcol_detail_radix_bits(3, (int64_t)1 << 25, l2), 3);
  assert_int_equal(gcol_detail_radix_bits(8, 2, l2), 1);
  assert_int_equal(gcol_detail_radix_bits(8, 64, 0), 6);
  assert_int_equal(gcol_detail_radix_bits(0, (int64_t)1 << 25, l2), 5);
  assert_int_equal(gcol_detail_radix_bits(0, 64, l2), 0);
}

/* AUTO's rule: the map at least 4x the L2 (build and probe), the probe at least one row per
 * slot; ONE_TABLE never, RADIX always (but never on the direct layout). */
static void test_radix_plan_rule(void **state) {
  (void)state;
  int64_t const l2 = 50 * (int64_t)MIB;
  int64_t const big = (int64_t)1 << 25;   /* 512 MiB + 16 B: > 4 x 50 MiB */
  int64_t const small = (int64_t)1 << 23; /* 128 MiB: < 200 MiB */
  assert_int_equal(gcol_detail_radix_map_bytes(big), (big + 1) * 16);
  assert_int_equal(gcol_detail_radix_map_bytes((int64_t)1 << 62), INT64_MAX);
  assert_true(gcol_detail_radix_map_too_big(big, l2));
  assert_false(gcol_detail_radix_map_too_big(small, l2));
  assert_true(gcol_detail_radix_map_too_big((int64_t)1 << 24, l2)); /* 256 MiB >= 200 MiB */
  assert_false(gcol_detail_radix_map_too_big(big, 0));
  /* AUTO partitions only while GCOL_DETAIL_RADIX_AUTO_ENABLED (off: measured slower) */
  bool const on = GCOL_DETAIL_RADIX_AUTO_ENABLED != 0;
  assert_int_equal(gcol_detail_radix_build(GCOL_JOIN_ALGORITHM_AUTO, big, l2), on);
  assert_false(gcol_detail_radix_build(GCOL_JOIN_ALGORITHM_AUTO, small, l2));
  assert_false(gcol_detail_radix_build(GCOL_JOIN_ALGORITHM_ONE_TABLE, big, l2));
  assert_true(gcol_detail_radix_build(GCOL_JOIN_ALGORITHM_RADIX, 2, l2));
  assert_true(gcol_detail_radix_build(GCOL_JOIN_ALGORITHM_RADIX, 2, 0));
  /* the benchmark: 100M probe rows, 2^25 slots */
  assert_int_equal(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_AUTO, true, big, 100000000, l2), on);
  assert_int_equal(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_AUTO, true, big, big, l2), on);
  assert_false(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_AUTO, true, big, big - 1, l2));
  assert_false(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_AUTO, true, big, 10000000, l2));
  assert_false(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_AUTO, true, small, 100000000, l2));
  assert_false(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_AUTO, false, big, 100000000, l2));
  assert_false(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_AUTO, true, big, 100000000, 0));
  assert_false(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_ONE_TABLE, true, big, 100000000, l2));
  assert_true(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_RADIX, true, 2, 0, l2));
  assert_false(gcol_detail_radix_probe(GCOL_JOIN_ALGORITHM_RADIX, false, 2, 5, l2));
}

/* A key's partition is the top bits of its first slot: partition p of 2^b owns exactly the
 * slots [p << shift, (p + 1) << shift), every slot of the map belongs to one, and hashes
 * differing only above the slot bits share a partition. */
static void test_radix_plan_partition_regions(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1420);
  for (int c = 1; c <= 12; ++c) {
    int64_t const cap = (int64_t)1 << c;
    uint64_t const mask = (uint64_t)cap - 1u;
    for (int b = 0; b <= GCOL_JOIN_RADIX_MAX_BITS && b <= c; ++b) {
      int const shift = gcol_detail_radix_shift(cap, b);
      assert_int_equal(shift, c - b);
      for (int64_t slot = 0; slot < cap; ++slot) {
        uint32_t const p = gcol_detail_radix_partition((uint64_t)slot, mask, shift);
        assert_true(p < (1u << b));
        assert_true(slot >= ((int64_t)p << shift) && slot < ((int64_t)(p + 1) << shift));
        uint64_t const high = gcol_test_rng_next(&rng) & ~mask;
        assert_int_equal(gcol_detail_radix_partition(high | (uint64_t)slot, mask, shift), p);
      }
    }
  }
  /* the packed key's partition is that of the slot gcol_probe_linear starts at */
  for (int i = 0; i < 1000; ++i) {
    uint64_t const key = gcol_test_rng_next(&rng);
    int64_t const cap = (int64_t)1 << 25;
    gcol_probe_sequence seq = gcol_probe_linear(gcol_hash_mix64(key), cap);
    int64_t first = -1;
    assert_true(gcol_probe_next(&seq, &first));
    uint32_t const p = gcol_detail_radix_partition(gcol_hash_mix64(key), (uint64_t)cap - 1u,
                                                   gcol_detail_radix_shift(cap, 5));
    assert_int_equal(p, (uint32_t)(first >> 20));
  }
}

/* The partition pass on the host, as the kernels do it: counts per (bucket, tile) at
 * gcol_detail_radix_count_index, one exclusive sum, a stable scatter (each tile's rows in
 * order after its offset). The result lists buckets in order, rows ascending within each;
 * the no-match bucket starts at the sum's entry (parts, 0); the last entry is the total. */
static void test_radix_plan_partition_pass(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1421);
  static const int64_t sizes[] = {0,
                                  1,
                                  7,
                                  GCOL_DETAIL_RADIX_TILE - 1,
                                  GCOL_DETAIL_RADIX_TILE,
                                  GCOL_DETAIL_RADIX_TILE + 1,
                                  3 * GCOL_DETAIL_RADIX_TILE + 5};
  static const int bits[] = {0, 1, 3, GCOL_JOIN_RADIX_MAX_BITS};
  int64_t const cap = (int64_t)1 << 12;
  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
    for (size_t q = 0; q < sizeof bits / sizeof bits[0]; ++q) {
      int64_t const n = sizes[z];
      int const b = bits[q];
      uint32_t const parts = 1u << b;
      int64_t const tiles = gcol_detail_radix_tiles(n);
      int64_t const counts = gcol_detail_radix_counts(n, b);
      assert_int_equal(tiles, (n + GCOL_DETAIL_RADIX_TILE - 1) / GCOL_DETAIL_RADIX_TILE);
      assert_int_equal(counts, (int64_t)(parts + 1) * tiles + 1);
      uint32_t *bucket = (uint32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *bucket);
      int64_t *offsets = (int64_t *)calloc((size_t)counts, sizeof *offsets);
      int64_t *order = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
      for (int64_t i = 0; i < n; ++i) { /* a tenth match nothing; skewed towards partition 0 */
        uint64_t const h = gcol_test_rng_next(&rng);
        bool const none = h % 10 == 0;
        uint64_t const hash = h % 3 == 0 ? h & ~((uint64_t)cap - 1u) : h;
        bucket[i] = none ? parts
                         : gcol_detail_radix_partition(hash, (uint64_t)cap - 1u,
                                                       gcol_detail_radix_shift(cap, b));
        offsets[gcol_detail_radix_count_index(bucket[i], i / GCOL_DETAIL_RADIX_TILE, tiles)] += 1;
      }
      int64_t sum = 0;
      for (int64_t e = 0; e < counts; ++e) {
        int64_t const c = offsets[e];
        offsets[e] = sum;
        sum += c;
      }
      assert_int_equal(offsets[counts - 1], n);
      int64_t const nomatch = n > 0 ? offsets[gcol_detail_radix_count_index(parts, 0, tiles)] : 0;
      for (int64_t i = 0; i < n; ++i) {
        int64_t *at =
            &offsets[gcol_detail_radix_count_index(bucket[i], i / GCOL_DETAIL_RADIX_TILE, tiles)];
        order[(*at)++] = i;
      }
      int64_t none = 0;
      for (int64_t i = 0; i < n; ++i) none += bucket[i] == parts;
      assert_int_equal(nomatch, n - none);
      for (int64_t pos = 0; pos < n; ++pos) {
        if (pos >= nomatch) assert_int_equal(bucket[order[pos]], parts);
        if (pos > 0) {
          uint32_t const a = bucket[order[pos - 1]], c = bucket[order[pos]];
          assert_true(a < c || (a == c && order[pos - 1] < order[pos]));
        }
      }
      free(bucket);
      free(offsets);
      free(order);
    }
  }
  /* the most rows there can be: the counts still fit in int64 bytes */
  int64_t const most = gcol_detail_radix_counts(INT64_MAX, GCOL_JOIN_RADIX_MAX_BITS);
  assert_int_equal(most, 257 * gcol_detail_radix_tiles(INT64_MAX) + 1);
  assert_true(most > 0 && most <= INT64_MAX / 8);
  assert_int_equal(gcol_detail_radix_tiles(0), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_join_argument_checks),
      cmocka_unit_test(test_join_hash_argument_checks),
      cmocka_unit_test(test_join_tables_argument_checks),
      cmocka_unit_test(test_cross_join_argument_checks),
      cmocka_unit_test(test_merge_fast_key_words),
      cmocka_unit_test(test_join_options_argument_checks),
      cmocka_unit_test(test_radix_plan_bits),
      cmocka_unit_test(test_radix_plan_rule),
      cmocka_unit_test(test_radix_plan_partition_regions),
      cmocka_unit_test(test_radix_plan_partition_pass),
  };
  return GCOL_TEST_RUN("join_host", tests);
}
