/*
 * GPU tests of gcol/sorting.h against the host reference (sort_ref.c): stable orders
 * compared exactly (the stable order is unique), unstable orders checked as sorting
 * permutations, every key type with edge values, sizes, slices, validity patterns, orders,
 * null orders, multi-column keys, strings, payload stability, segments, ranks, top-k,
 * is_sorted and allocation failures.
 */
#include <math.h>

#include "sort/sort_internal.h"
#include "sort/split_sort.h"
#include "sort_test_data.h"

static const gcol_type_id key_types[] = {GCOL_INT8,
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
                                         GCOL_TIMESTAMP_MILLISECONDS,
                                         GCOL_DURATION_NANOSECONDS,
                                         GCOL_DECIMAL32,
                                         GCOL_DECIMAL64,
                                         GCOL_DECIMAL128,
                                         GCOL_STRING};
#define NUM_KEY_TYPES (sizeof key_types / sizeof key_types[0])

static gcol_data_type type_of(gcol_type_id id) {
  return gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, -2) : gcol_data_type_make(id);
}

/* Checks a stable order exactly against the reference. */
static void expect_stable_order(gcol_column_view perm, const ref_column *refs, int32_t ncols,
                                int64_t n, const char *what) {
  int64_t *want = (int64_t *)malloc(sizeof(int64_t) * ((size_t)n + 1));
  int64_t *got;
  assert_int_equal(perm.size, n);
  assert_int_equal(perm.type.id, gcol_index_type_for(n));
  got = copy_indices(perm);
  ref_stable_order(refs, ncols, n, want);
  for (int64_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      fail_msg("%s: position %lld of %lld: got row %lld, want %lld", what, (long long)i,
               (long long)n, (long long)got[i], (long long)want[i]);
    }
  }
  free(got);
  free(want);
}

/* Checks that an order is a permutation that sorts (ties in any order). */
static void expect_sorting_permutation(gcol_column_view perm, const ref_column *refs, int32_t ncols,
                                       int64_t n) {
  int64_t *got = copy_indices(perm);
  uint8_t *seen = (uint8_t *)calloc((size_t)n + 1, 1);
  for (int64_t i = 0; i < n; ++i) {
    assert_true(got[i] >= 0 && got[i] < n);
    assert_false(seen[got[i]]);
    seen[got[i]] = 1;
    if (i > 0) assert_true(ref_compare_rows(refs, ncols, got[i - 1], got[i]) <= 0);
  }
  free(seen);
  free(got);
}

/* Every type x size x validity x order x null order, one column, stable and unstable. */
static void test_sorted_order_every_type(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(11);
  for (size_t t = 0; t < NUM_KEY_TYPES; ++t) {
    if (!gcol_test_in_part(state, (size_t)t)) continue;
    for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
      int64_t const n = gcol_test_sizes[s];
      for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
        /* all four order combinations on small sizes, one rotating combination above */
        for (int combo = 0; combo < 4; ++combo) {
          if (n > 300 && combo != (int)((s + (size_t)v) % 4)) continue;
          /* under the tools every other (size, validity, combination) up to 300 rows (the one
           * rotating combination above always has an even sum): each size, validity, order and
           * null order still runs for every type */
          if (!gcol_test_keep_combination(s + (size_t)v + (size_t)combo)) continue;
          gcol_order const o = (gcol_order)(combo & 1);
          gcol_null_order const no = (gcol_null_order)(combo >> 1);
          test_column tc;
          gcol_column *perm = NULL;
          gcol_table_view keys;
          char what[128];
          test_column_make(&rng, type_of(key_types[t]), n, 0, (gcol_test_validity)v, o, no, &tc);
          keys.num_columns = 1;
          keys.num_rows = n;
          keys.columns = &tc.view;
          snprintf(what, sizeof what, "%s n=%lld %s order=%d nulls=%d",
                   gcol_type_name(key_types[t]), (long long)n,
                   gcol_test_validity_name((gcol_test_validity)v), (int)o, (int)no);
          GCOL_TEST_OK(gcol_stable_sorted_order(keys, &o, &no, &perm, NULL, NULL));
          expect_stable_order(gcol_column_get_view(perm), &tc.ref, 1, n, what);
          gcol_column_free(perm);
          perm = NULL;
          GCOL_TEST_OK(gcol_sorted_order(keys, &o, &no, &perm, NULL, NULL));
          expect_sorting_permutation(gcol_column_get_view(perm), &tc.ref, 1, n);
          gcol_column_free(perm);
          test_column_free(&tc);
        }
      }
    }
  }
}

/* One ascending key stored as a signed 32/64-bit integer without nulls (no mask, or a mask
 * without nulls) takes the plan-free path (CUB sorts the column as stored): every size at a
 * rotating slice offset, then every offset at 257 rows, stable and unstable. */
static void check_native_key(gcol_test_rng *rng, gcol_type_id id, int64_t n, int64_t offset,
                             gcol_test_validity validity) {
  gcol_order const o = GCOL_ORDER_ASCENDING;
  gcol_null_order const no = GCOL_NULLS_AFTER;
  test_column tc;
  gcol_column *perm = NULL;
  gcol_table_view keys;
  char what[128];
  test_column_make(rng, type_of(id), n, offset, validity, o, no, &tc);
  GCOL_TEST_OK(gcol_table_view_make(&tc.view, 1, &keys));
  snprintf(what, sizeof what, "%s n=%lld offset=%lld %s (native key)", gcol_type_name(id),
           (long long)n, (long long)offset, gcol_test_validity_name(validity));
  GCOL_TEST_OK(gcol_stable_sorted_order(keys, &o, &no, &perm, NULL, NULL));
  expect_stable_order(gcol_column_get_view(perm), &tc.ref, 1, n, what);
  gcol_column_free(perm);
  perm = NULL;
  GCOL_TEST_OK(gcol_sorted_order(keys, NULL, NULL, &perm, NULL, NULL));
  expect_sorting_permutation(gcol_column_get_view(perm), &tc.ref, 1, n);
  gcol_column_free(perm);
  test_column_free(&tc);
}

static void test_sorted_order_native_keys(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(24);
  gcol_type_id const ids[] = {GCOL_INT64, GCOL_INT32, GCOL_TIMESTAMP_MILLISECONDS,
                              GCOL_DURATION_DAYS, GCOL_DECIMAL64};
  size_t const num_offsets = gcol_test_num_offsets;
  for (size_t t = 0; t < sizeof ids / sizeof ids[0]; ++t) {
    for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
      gcol_test_validity const v = s % 2 == 0 ? GCOL_TEST_NO_MASK : GCOL_TEST_ALL_VALID;
      check_native_key(&rng, ids[t], gcol_test_sizes[s], gcol_test_offsets[(s + t) % num_offsets],
                       v);
    }
    for (size_t f = 0; f < num_offsets; ++f) {
      check_native_key(&rng, ids[t], 257, gcol_test_offsets[f], GCOL_TEST_NO_MASK);
    }
  }
}

/* ---- the split sort of one 64-bit key (split_sort.cu) ---- */

/* Key shapes of the split sort's tests. */
enum {
  SPLIT_FULL = 0,      /* random full-range words */
  SPLIT_NARROW,        /* a 20-bit range away from 0: one 32-bit key */
  SPLIT_HALF_SHARED,   /* half the rows in one hi (and few lo values): one huge run */
  SPLIT_RUN_LENGTHS,   /* runs of hi of 1, 2, T - 1, T, T + 1, T + 2, 2T, 2T + 1 rows */
  SPLIT_FEW_DISTINCT,  /* 5 distinct keys over the whole range: long runs of equal keys */
  SPLIT_EXTREMES,      /* MIN, MAX, 0, -1, 1 and their neighbours */
  SPLIT_FLOAT_SPECIAL, /* FLOAT64 only: +-0, NaNs of any payload, +-Inf, subnormals */
  SPLIT_NUM_SHAPES
};

/* Raw 64-bit values of `shape` (read as the column's type). */
static void split_fill(gcol_test_rng *rng, int shape, uint64_t *raw, int64_t n) {
  static const int64_t run_lengths[] = {1,
                                        2,
                                        GCOL_DETAIL_SPLIT_SHORT_RUN - 1,
                                        GCOL_DETAIL_SPLIT_SHORT_RUN,
                                        GCOL_DETAIL_SPLIT_SHORT_RUN + 1,
                                        GCOL_DETAIL_SPLIT_SHORT_RUN + 2,
                                        2 * GCOL_DETAIL_SPLIT_SHORT_RUN,
                                        2 * GCOL_DETAIL_SPLIT_SHORT_RUN + 1};
  static const uint64_t extremes[] = {0x8000000000000000ull,
                                      0x8000000000000001ull,
                                      0x7FFFFFFFFFFFFFFFull,
                                      0x7FFFFFFFFFFFFFFEull,
                                      0,
                                      1,
                                      ~0ull,
                                      ~1ull};
  static const uint64_t specials[] = {0x0000000000000000ull /* +0 */,
                                      0x8000000000000000ull /* -0 */,
                                      0x7FF0000000000000ull /* +Inf */,
                                      0xFFF0000000000000ull /* -Inf */,
                                      0x7FF8000000000000ull /* NaN */,
                                      0xFFF8000000000001ull /* -NaN, payload */,
                                      0x7FF0000000000001ull /* signalling NaN */,
                                      0x0000000000000001ull /* smallest subnormal */,
                                      0x800FFFFFFFFFFFFFull /* -largest subnormal */,
                                      0x3FF0000000000000ull /* 1.0 */};
  int64_t group = 0, left = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t const x = gcol_test_rng_next(rng);
    switch (shape) {
      case SPLIT_FULL:
        raw[i] = x;
        break;
      case SPLIT_NARROW:
        raw[i] = 0x0123456789000000ull + (x % (1u << 20));
        break;
      case SPLIT_HALF_SHARED:
        raw[i] = i % 2 == 0 ? 0x12345678AB000000ull + (x % 1000) : x;
        break;
      case SPLIT_RUN_LENGTHS:
        /* consecutive groups of the listed lengths, hi = the group (bits 40 up), lo small */
        if (left == 0) {
          left = run_lengths[(size_t)group % (sizeof run_lengths / sizeof run_lengths[0])];
          group++;
        }
        left--;
        raw[i] = ((uint64_t)group << 40) | (x % 4096);
        break;
      case SPLIT_FEW_DISTINCT:
        raw[i] = (x % 5) * 0x3333333333333333ull;
        break;
      case SPLIT_EXTREMES:
        raw[i] = extremes[x % (sizeof extremes / sizeof extremes[0])];
        break;
      default:
        raw[i] = x % 3 == 0 ? x : specials[x % (sizeof specials / sizeof specials[0])];
        break;
    }
  }
  if (shape == SPLIT_RUN_LENGTHS && n > 0) {
    raw[0] = 0; /* the minimum with zero low bits: hi is the group as written (ascending) */
    for (int64_t i = n - 1; i > 0; --i) { /* a run's rows not next to each other */
      int64_t const j = (int64_t)(gcol_test_rng_next(rng) % (uint64_t)(i + 1));
      uint64_t const t = raw[i];
      raw[i] = raw[j];
      raw[j] = t;
    }
  }
}

/* One column of `shape` as `id`, `n` rows after `offset`, sorted in `order` by the split
 * sort and by the general path (the split sort turned off), both checked exactly against
 * the stable reference. */
static void check_split_key(gcol_test_rng *rng, gcol_type_id id, int shape, int64_t n,
                            int64_t offset, gcol_order order, bool with_mask) {
  int64_t const total = n + offset;
  uint64_t *raw = (uint64_t *)malloc(sizeof(uint64_t) * ((size_t)total + 1));
  uint8_t *valid = (uint8_t *)malloc((size_t)total + 1);
  gcol_null_order const no = GCOL_NULLS_AFTER;
  gcol_column *col = NULL;
  gcol_column_view view;
  gcol_table_view keys;
  ref_column ref;
  char what[160];
  split_fill(rng, shape, raw, total);
  memset(valid, 1, (size_t)total + 1);
  GCOL_TEST_OK(gcol_column_create_from_host(type_of(id), total, raw, with_mask ? valid : NULL, NULL,
                                            NULL, &col));
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), offset, total, &view));
  GCOL_TEST_OK(gcol_table_view_make(&view, 1, &keys));
  memset(&ref, 0, sizeof ref);
  ref.type = type_of(id);
  ref.size = n;
  ref.data = raw + offset;
  ref.order = order;
  ref.null_order = no;
  for (int path = 0; path < 2; ++path) {
    gcol_column *perm = NULL;
    int64_t const min_rows = gcol_detail_set_split_sort_min_rows(path == 0 ? 1 : INT64_MAX);
    snprintf(what, sizeof what, "%s shape %d n=%lld offset=%lld order=%d mask=%d (%s)",
             gcol_type_name(id), shape, (long long)n, (long long)offset, (int)order, (int)with_mask,
             path == 0 ? "split sort" : "general path");
    GCOL_TEST_OK(gcol_stable_sorted_order(keys, &order, &no, &perm, NULL, NULL));
    gcol_detail_set_split_sort_min_rows(min_rows);
    expect_stable_order(gcol_column_get_view(perm), &ref, 1, n, what);
    gcol_column_free(perm);
  }
  gcol_column_free(col);
  free(raw);
  free(valid);
}

/* Every 64-bit key type, shape, both orders, sizes 0 .. around blocks and tiles, slices. */
static void test_split_sort_shapes(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(31);
  static const gcol_type_id ids[] = {
      GCOL_INT64,    GCOL_UINT64, GCOL_FLOAT64, GCOL_TIMESTAMP_NANOSECONDS, GCOL_DURATION_SECONDS,
      GCOL_DECIMAL64};
  static const int64_t sizes[] = {0,   1,   2,    7,    16,   17,    33,    255,
                                  256, 257, 1000, 1023, 4099, 65537, 100003};
  size_t const num_offsets = gcol_test_num_offsets;
  for (size_t t = 0; t < sizeof ids / sizeof ids[0]; ++t) {
    if (!gcol_test_in_part(state, t)) continue;
    for (int shape = 0; shape < SPLIT_NUM_SHAPES; ++shape) {
      if (shape == SPLIT_FLOAT_SPECIAL && ids[t] != GCOL_FLOAT64) continue;
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        if (!gcol_test_keep_combination(s + (size_t)shape + t)) continue;
        for (int o = 0; o < 2; ++o) {
          int64_t const n = gcol_test_cap(sizes[s]);
          int64_t const offset = gcol_test_offsets[(s + (size_t)shape + t) % num_offsets];
          check_split_key(&rng, ids[t], shape, n, offset, (gcol_order)o, (s + (size_t)o) % 3 == 0);
        }
      }
    }
  }
}

/* A few million rows with the default row minimum (the split sort's own choice): the shapes
 * whose runs matter, ascending and descending. */
static void test_split_sort_millions(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(32);
  int64_t const n = gcol_test_cap(3000017);
  static const int shapes[] = {SPLIT_FULL, SPLIT_HALF_SHARED, SPLIT_RUN_LENGTHS, SPLIT_NARROW};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
    check_split_key(&rng, GCOL_INT64, shapes[k], n, 3, (gcol_order)(k % 2), false);
  }
  check_split_key(&rng, GCOL_FLOAT64, SPLIT_FLOAT_SPECIAL, n, 0, GCOL_ORDER_DESCENDING, false);
}

/* The sorted copy and sort_by_key over the split sort's order: the rows follow it. */
static void test_split_sort_sorts_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(33);
  int64_t const n = 5003;
  int64_t *raw = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
  int64_t *sorted = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
  int64_t const min_rows = gcol_detail_set_split_sort_min_rows(1);
  gcol_column *col = NULL;
  gcol_table *out = NULL;
  gcol_column_view v;
  gcol_table_view keys;
  split_fill(&rng, SPLIT_HALF_SHARED, (uint64_t *)raw, n);
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, raw, NULL, NULL,
                                            NULL, &col));
  v = gcol_column_get_view(col);
  GCOL_TEST_OK(gcol_table_view_make(&v, 1, &keys));
  GCOL_TEST_OK(gcol_stable_sort(keys, NULL, NULL, &out, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(out).columns[0], sorted, NULL, NULL));
  for (int64_t i = 1; i < n; ++i) assert_true(sorted[i - 1] <= sorted[i]);
  gcol_table_free(out);
  gcol_column_free(col);
  gcol_detail_set_split_sort_min_rows(min_rows);
  free(raw);
  free(sorted);
}

/* Slices at every offset of TESTING.md (not byte- or word-aligned), nulls included. */
static void test_sorted_order_slices(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(12);
  gcol_type_id const ids[] = {GCOL_INT32, GCOL_FLOAT64, GCOL_INT8, GCOL_DECIMAL128, GCOL_STRING};
  for (size_t k = 0; k < sizeof ids / sizeof ids[0]; ++k) {
    for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
      int64_t const n = 300;
      test_column tc;
      gcol_column *perm = NULL;
      gcol_table_view keys;
      gcol_order const ord = GCOL_ORDER_DESCENDING;
      gcol_null_order const nulls = GCOL_NULLS_BEFORE;
      test_column_make(&rng, type_of(ids[k]), n, gcol_test_offsets[o], GCOL_TEST_RANDOM_NULLS, ord,
                       nulls, &tc);
      keys.num_columns = 1;
      keys.num_rows = n;
      keys.columns = &tc.view;
      GCOL_TEST_OK(gcol_stable_sorted_order(keys, &ord, &nulls, &perm, NULL, NULL));
      expect_stable_order(gcol_column_get_view(perm), &tc.ref, 1, n, gcol_type_name(ids[k]));
      gcol_column_free(perm);
      test_column_free(&tc);
    }
  }
}

/* Three and four key columns of mixed types, each with its own order and null order. */
static void test_sorted_order_multi_column(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(13);
  gcol_type_id const ids[4] = {GCOL_INT32, GCOL_STRING, GCOL_FLOAT64, GCOL_INT64};
  int64_t const sizes[] = {0, 1, 33, 257, 4097, 100003};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    if (gcol_test_cap(sizes[s]) < sizes[s]) break;
    for (int combo = 0; combo < 16; ++combo) {
      int64_t const n = sizes[s];
      int32_t const ncols = combo % 2 == 0 ? 3 : 4;
      test_column tc[4];
      gcol_column_view views[4];
      ref_column refs[4];
      gcol_order orders[4];
      gcol_null_order nulls[4];
      gcol_column *perm = NULL;
      gcol_table_view keys;
      for (int32_t c = 0; c < ncols; ++c) {
        orders[c] = (gcol_order)((combo >> c) & 1);
        nulls[c] = (gcol_null_order)(((combo >> (c + 1)) & 1));
        test_column_make(&rng, type_of(ids[(c + combo) % 4]), n, (int64_t)c * 3,
                         GCOL_TEST_RANDOM_NULLS, orders[c], nulls[c], &tc[c]);
        views[c] = tc[c].view;
        refs[c] = tc[c].ref;
      }
      GCOL_TEST_OK(gcol_table_view_make(views, ncols, &keys));
      GCOL_TEST_OK(gcol_stable_sorted_order(keys, orders, nulls, &perm, NULL, NULL));
      expect_stable_order(gcol_column_get_view(perm), refs, ncols, n, "multi-column");
      gcol_column_free(perm);
      for (int32_t c = 0; c < ncols; ++c) test_column_free(&tc[c]);
    }
  }
}

/* All-equal keys and all-null keys keep the input order; nulls first or last. */
static void test_sorted_order_ties_and_all_null(void **state) {
  (void)state;
  int64_t const n = 1000;
  int64_t *vals = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
  uint8_t *valid = (uint8_t *)calloc((size_t)n, 1);
  for (int pattern = 0; pattern < 2; ++pattern) {
    gcol_column *col = NULL, *perm = NULL;
    gcol_column_view v;
    gcol_table_view keys;
    for (int64_t i = 0; i < n; ++i) vals[i] = 42;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, vals,
                                              pattern ? valid : NULL, NULL, NULL, &col));
    v = gcol_column_get_view(col);
    GCOL_TEST_OK(gcol_table_view_make(&v, 1, &keys));
    GCOL_TEST_OK(gcol_stable_sorted_order(keys, NULL, NULL, &perm, NULL, NULL));
    int64_t *got = copy_indices(gcol_column_get_view(perm));
    for (int64_t i = 0; i < n; ++i) assert_int_equal(got[i], i);
    free(got);
    gcol_column_free(perm);
    gcol_column_free(col);
  }
  free(vals);
  free(valid);
}

/* sort_by_key: the payload is the row number, so its order shows stability. Covers the
 * fast path (int32 key, int32 payload) and the general one (nulls, strings, two payloads). */
static void test_sort_by_key_payload_order(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(14);
  int64_t const sizes[] = {0, 1, 255, 257, 65537, 1000003};
  gcol_type_id const key_ids[] = {GCOL_INT32, GCOL_INT64, GCOL_FLOAT32, GCOL_STRING, GCOL_UINT16};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    if (gcol_test_cap(sizes[s]) < sizes[s]) break;
    for (size_t k = 0; k < sizeof key_ids / sizeof key_ids[0]; ++k) {
      for (int v = 0; v < 2; ++v) {
        int64_t const n = sizes[s];
        gcol_test_validity const validity = v ? GCOL_TEST_RANDOM_NULLS : GCOL_TEST_NO_MASK;
        test_column key, strpay;
        int32_t *payload = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1));
        gcol_column *pcol = NULL;
        gcol_table *out = NULL;
        gcol_column_view vals[2];
        gcol_table_view values, keys;
        gcol_order const o = GCOL_ORDER_ASCENDING;
        gcol_null_order const no = GCOL_NULLS_AFTER;
        int64_t *want = (int64_t *)malloc(sizeof(int64_t) * ((size_t)n + 1));
        for (int64_t i = 0; i < n; ++i) payload[i] = (int32_t)i;
        test_column_make(&rng, type_of(key_ids[k]), n, 0, validity, o, no, &key);
        test_column_make(&rng, gcol_data_type_make(GCOL_STRING), n, 0, validity, o, no, &strpay);
        GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, payload, NULL,
                                                  NULL, NULL, &pcol));
        vals[0] = gcol_column_get_view(pcol);
        vals[1] = strpay.view;
        GCOL_TEST_OK(gcol_table_view_make(vals, v ? 2 : 1, &values));
        GCOL_TEST_OK(gcol_table_view_make(&key.view, 1, &keys));
        GCOL_TEST_OK(gcol_stable_sort_by_key(values, keys, &o, &no, &out, NULL, NULL));
        ref_stable_order(&key.ref, 1, n, want);
        {
          gcol_table_view const tv = gcol_table_get_view(out);
          int32_t *got = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1));
          GCOL_TEST_OK(gcol_column_copy_to_host(tv.columns[0], got, NULL, NULL));
          for (int64_t i = 0; i < n; ++i) {
            if (got[i] != (int32_t)want[i]) {
              fail_msg("%s n=%lld: payload %lld is %d, want %lld", gcol_type_name(key_ids[k]),
                       (long long)n, (long long)i, got[i], (long long)want[i]);
            }
          }
          if (v) { /* the string payload follows the same permutation, nulls included */
            gcol_host_strings *hs = NULL;
            GCOL_TEST_OK(gcol_column_strings_copy_to_host(tv.columns[1], NULL, &hs));
            for (int64_t i = 0; i < n; ++i) {
              int64_t const r = want[i];
              assert_int_equal(hs->valid[i], strpay.valid[r]);
              if (hs->valid[i]) {
                assert_int_equal(hs->offsets[i + 1] - hs->offsets[i], strpay.lengths[r]);
                assert_memory_equal(hs->chars + hs->offsets[i], strpay.strings[r],
                                    (size_t)strpay.lengths[r]);
              }
            }
            gcol_test_assert_null_count_consistent(tv.columns[1]);
            gcol_host_strings_free(hs);
          }
          free(got);
        }
        gcol_table_free(out);
        gcol_column_free(pcol);
        test_column_free(&key);
        test_column_free(&strpay);
        free(payload);
        free(want);
      }
    }
  }
}

/* Host int32 storage for the fast path: full-range values, a few ties, INT32_MIN/MAX, 0, -1. */
static void fill_int32_keys(gcol_test_rng *rng, int32_t *keys, int64_t n) {
  static const int32_t edges[] = {INT32_MIN, INT32_MAX, 0, -1, 1, INT32_MIN + 1, INT32_MAX - 1};
  for (int64_t i = 0; i < n; ++i) {
    uint64_t const r = gcol_test_rng_next(rng);
    switch (r % 4) {
      case 0:
        keys[i] = edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
        break;
      case 1:
        keys[i] = (int32_t)((r >> 8) % 7) - 3; /* ties */
        break;
      default:
        keys[i] = (int32_t)(uint32_t)(r >> 32); /* every radix digit */
        break;
    }
  }
}

/* An INT32 column of `offset + n` rows sliced to the last n; payload[offset + i] = i. */
static gcol_column *payload_column(int64_t n, int64_t offset, gcol_column_view *view) {
  int32_t *rows = (int32_t *)malloc(sizeof(int32_t) * ((size_t)(n + offset) + 1));
  gcol_column *col = NULL;
  for (int64_t i = 0; i < n + offset; ++i) rows[i] = (int32_t)(i - offset);
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n + offset, rows, NULL,
                                            NULL, NULL, &col));
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), offset, n + offset, view));
  free(rows);
  return col;
}

/* Checks that the int32 payload of `out` is the stable order `want`. */
static void expect_payload(const gcol_table *out, const int64_t *want, int64_t n,
                           const char *what) {
  gcol_column_view const v = gcol_table_get_view(out).columns[0];
  int32_t *got = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1));
  assert_int_equal(v.size, n);
  GCOL_TEST_OK(gcol_column_copy_to_host(v, got, NULL, NULL));
  for (int64_t i = 0; i < n; ++i) {
    if (got[i] != (int32_t)want[i]) {
      fail_msg("%s n=%lld: payload %lld is %d, want %lld", what, (long long)n, (long long)i, got[i],
               (long long)want[i]);
    }
  }
  free(got);
}

/* One case of the 4-byte signed key fast path: sort_by_key (stable and not) and sort. */
static void check_int32_key_case(gcol_test_rng *rng, gcol_type_id id, gcol_order o, int64_t n,
                                 int64_t key_offset, int64_t payload_offset) {
  gcol_null_order const no = GCOL_NULLS_AFTER;
  int32_t *host = (int32_t *)malloc(sizeof(int32_t) * ((size_t)(n + key_offset) + 1));
  int64_t *want = (int64_t *)malloc(sizeof(int64_t) * ((size_t)n + 1));
  gcol_column *kcol = NULL, *pcol = NULL;
  gcol_column_view kv, pv;
  gcol_table_view keys, values;
  gcol_table *out = NULL;
  ref_column ref;
  char what[96];
  snprintf(what, sizeof what, "%s %s key offset %lld payload offset %lld", gcol_type_name(id),
           o == GCOL_ORDER_ASCENDING ? "asc" : "desc", (long long)key_offset,
           (long long)payload_offset);
  fill_int32_keys(rng, host, n + key_offset);
  GCOL_TEST_OK(
      gcol_column_create_from_host(type_of(id), n + key_offset, host, NULL, NULL, NULL, &kcol));
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(kcol), key_offset, n + key_offset, &kv));
  pcol = payload_column(n, payload_offset, &pv);
  GCOL_TEST_OK(gcol_table_view_make(&kv, 1, &keys));
  GCOL_TEST_OK(gcol_table_view_make(&pv, 1, &values));
  memset(&ref, 0, sizeof ref);
  ref.type = type_of(id);
  ref.size = n;
  ref.data = host + key_offset;
  ref.order = o;
  ref.null_order = no;
  ref_stable_order(&ref, 1, n, want);
  GCOL_TEST_OK(gcol_stable_sort_by_key(values, keys, &o, &no, &out, NULL, NULL));
  expect_payload(out, want, n, what);
  gcol_table_free(out);
  out = NULL;
  /* documented: the unstable variant returns the stable result in this version */
  GCOL_TEST_OK(gcol_sort_by_key(values, keys, &o, &no, &out, NULL, NULL));
  expect_payload(out, want, n, what);
  gcol_table_free(out);
  out = NULL;
  /* gcol_sort: the key column is its own payload */
  GCOL_TEST_OK(gcol_sort(keys, &o, &no, &out, NULL, NULL));
  {
    int32_t *got = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1));
    GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(out).columns[0], got, NULL, NULL));
    for (int64_t i = 0; i < n; ++i) {
      if (got[i] != host[key_offset + want[i]]) {
        fail_msg("%s: sorted row %lld is %d, want %d", what, (long long)i, got[i],
                 host[key_offset + want[i]]);
      }
    }
    free(got);
  }
  gcol_table_free(out);
  gcol_column_free(kcol);
  gcol_column_free(pcol);
  free(host);
  free(want);
}

/* 4-byte signed keys without nulls and a 4-byte payload: the single radix sort (int32 as
 * stored when ascending, normalized when descending), over slices of keys and payload. */
/* sort_by_key carries payloads of every layout the gather takes: LIST<INT32> and
 * STRUCT<INT64, LIST<INT32>> with nulls, sliced, against gather(payload, stable order). */
static gcol_column *random_int_list(gcol_test_rng *rng, int64_t rows) {
  int32_t *offs = (int32_t *)malloc((size_t)(rows + 1) * sizeof(int32_t));
  offs[0] = 0;
  for (int64_t i = 0; i < rows; ++i) offs[i + 1] = offs[i] + (int32_t)gcol_test_rng_range(rng, 0, 3);
  int32_t *vals = (int32_t *)malloc((size_t)(offs[rows] > 0 ? offs[rows] : 1) * sizeof(int32_t));
  for (int32_t k = 0; k < offs[rows]; ++k) vals[k] = (int32_t)gcol_test_rng_range(rng, -50, 50);
  uint8_t *valid = (uint8_t *)malloc((size_t)(rows > 0 ? rows : 1));
  for (int64_t i = 0; i < rows; ++i) valid[i] = gcol_test_rng_range(rng, 0, 4) != 0;
  gcol_column *d_offs = NULL, *d_vals = NULL, *d_valid = NULL, *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t nulls = 0;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), rows + 1, offs, NULL,
                                            NULL, NULL, &d_offs));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), offs[rows], vals,
                                            NULL, NULL, NULL, &d_vals));
  if (rows > 0) {
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), rows, valid, NULL,
                                              NULL, NULL, &d_valid));
    GCOL_TEST_OK(gcol_bools_to_mask(gcol_column_get_view(d_valid), &mask, &nulls, NULL, NULL));
  }
  GCOL_TEST_OK(gcol_column_make_list(rows, d_offs, d_vals, mask, nulls, &col));
  gcol_column_free(d_valid);
  free(offs);
  free(vals);
  free(valid);
  return col;
}

static void test_sort_by_key_nested_payload(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(19);
  static const int64_t sizes[] = {0, 1, 33, 257, 1000};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int64_t const n = sizes[s], off = 3, rows = n + off;
    int32_t *keys = (int32_t *)malloc((size_t)rows * sizeof(int32_t));
    for (int64_t i = 0; i < rows; ++i) keys[i] = (int32_t)gcol_test_rng_range(&rng, 0, 9);
    gcol_column *key = NULL, *list = random_int_list(&rng, rows), *order = NULL;
    gcol_column *fields[2] = {NULL, random_int_list(&rng, rows)}, *strct = NULL;
    int64_t *f0 = (int64_t *)malloc((size_t)rows * sizeof(int64_t));
    for (int64_t i = 0; i < rows; ++i) f0[i] = (int64_t)gcol_test_rng_next(&rng);
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), rows, keys, NULL,
                                              NULL, NULL, &key));
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), rows, f0, NULL,
                                              NULL, NULL, &fields[0]));
    GCOL_TEST_OK(gcol_column_make_struct(rows, fields, 2, NULL, 0, &strct));
    gcol_column_view kv, payload[2];
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(key), off, rows, &kv));
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(list), off, rows, &payload[0]));
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(strct), off, rows, &payload[1]));
    gcol_table_view kt, pt;
    GCOL_TEST_OK(gcol_table_view_make(&kv, 1, &kt));
    GCOL_TEST_OK(gcol_table_view_make(payload, 2, &pt));
    gcol_table *sorted = NULL, *expected = NULL;
    GCOL_TEST_OK(gcol_stable_sort_by_key(pt, kt, NULL, NULL, &sorted, NULL, NULL));
    GCOL_TEST_OK(gcol_stable_sorted_order(kt, NULL, NULL, &order, NULL, NULL));
    GCOL_TEST_OK(gcol_gather(pt, gcol_column_get_view(order), GCOL_OUT_OF_BOUNDS_CHECK,
                             GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &expected, NULL, NULL));
    for (int c = 0; c < 2; ++c) {
      gcol_test_assert_columns_equal(gcol_table_get_view(sorted).columns[c],
                                     gcol_table_get_view(expected).columns[c]);
    }
    gcol_table_free(sorted);
    gcol_table_free(expected);
    gcol_column_free(order);
    gcol_column_free(key);
    gcol_column_free(list);
    gcol_column_free(strct);
    free(keys);
    free(f0);
  }
}

static void test_sort_by_key_int32_fast_path(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(22);
  gcol_type_id const ids[] = {GCOL_INT32, GCOL_TIMESTAMP_DAYS, GCOL_DURATION_DAYS, GCOL_DECIMAL32};
  gcol_order const orders[] = {GCOL_ORDER_ASCENDING, GCOL_ORDER_DESCENDING};
  size_t const num_offsets = gcol_test_num_offsets;
  for (size_t t = 0; t < sizeof ids / sizeof ids[0]; ++t) {
    for (int o = 0; o < 2; ++o) {
      /* every size with a rotating pair of (key, payload) slice offsets; 257 rows with all */
      for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
        size_t const f = (s + t) % num_offsets;
        check_int32_key_case(&rng, ids[t], orders[o], gcol_test_sizes[s], gcol_test_offsets[f],
                             gcol_test_offsets[(f + 3) % num_offsets]);
      }
      for (size_t f = 0; f < num_offsets; ++f) {
        check_int32_key_case(&rng, ids[t], orders[o], 257, gcol_test_offsets[f],
                             gcol_test_offsets[(f + 1) % num_offsets]);
      }
    }
  }
  /* ~1e6 rows (skipped under GCOL_TEST_MAX_SIZE, as the large sizes are) */
  if (gcol_test_sizes[gcol_test_num_sizes - 1] >= 100003) {
    check_int32_key_case(&rng, GCOL_INT32, GCOL_ORDER_ASCENDING, gcol_test_cap(1000003), 7, 31);
  }
}

typedef struct int32_by_key_ctx {
  gcol_table_view values, keys;
  gcol_table *out;
} int32_by_key_ctx;

static gcol_status int32_by_key_op(void *p) {
  int32_by_key_ctx *c = (int32_by_key_ctx *)p;
  return gcol_sort_by_key(c->values, c->keys, NULL, NULL, &c->out, NULL, NULL);
}

static void int32_by_key_cleanup(void *p) {
  int32_by_key_ctx *c = (int32_by_key_ctx *)p;
  gcol_table_free(c->out);
  c->out = NULL;
}

/* Every allocation of both fast paths (int32 as stored, and a normalized INT64 key) fails
 * once: OUT_OF_MEMORY, no output, nothing leaked. */
static void test_sort_by_key_fast_path_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(23);
  gcol_type_id const ids[] = {GCOL_INT32, GCOL_INT64};
  for (size_t t = 0; t < 2; ++t) {
    int64_t const n = 3000;
    test_column key;
    gcol_column *pcol = NULL;
    gcol_column_view pv;
    int32_by_key_ctx c;
    test_column_make(&rng, gcol_data_type_make(ids[t]), n, 3, GCOL_TEST_NO_MASK,
                     GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, &key);
    pcol = payload_column(n, 5, &pv);
    GCOL_TEST_OK(gcol_table_view_make(&key.view, 1, &c.keys));
    GCOL_TEST_OK(gcol_table_view_make(&pv, 1, &c.values));
    c.out = NULL;
    /* sorted keys, (normalized keys,) output, CUB temporary */
    assert_true(gcol_test_check_allocation_failures(int32_by_key_op, int32_by_key_cleanup, &c) >=
                3);
    assert_null(c.out);
    gcol_column_free(pcol);
    test_column_free(&key);
  }
}

/* gcol_sort and gcol_stable_sort return the key rows in order, nulls and all. */
static void test_sort_returns_sorted_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(15);
  gcol_type_id const ids[] = {GCOL_INT32, GCOL_FLOAT64, GCOL_DECIMAL128, GCOL_BOOL8};
  for (size_t k = 0; k < sizeof ids / sizeof ids[0]; ++k) {
    for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
      int64_t const n = 4097;
      test_column tc;
      gcol_table *out = NULL;
      gcol_table_view keys;
      gcol_order const o = GCOL_ORDER_DESCENDING;
      gcol_null_order const no = GCOL_NULLS_BEFORE;
      size_t const width = gcol_type_size(ids[k]);
      int64_t *want = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
      char *expect = (char *)malloc(width * (size_t)n);
      uint8_t *expect_valid = (uint8_t *)malloc((size_t)n);
      test_column_make(&rng, type_of(ids[k]), n, 5, (gcol_test_validity)v, o, no, &tc);
      GCOL_TEST_OK(gcol_table_view_make(&tc.view, 1, &keys));
      GCOL_TEST_OK(v % 2 ? gcol_sort(keys, &o, &no, &out, NULL, NULL)
                         : gcol_stable_sort(keys, &o, &no, &out, NULL, NULL));
      ref_stable_order(&tc.ref, 1, n, want);
      for (int64_t i = 0; i < n; ++i) {
        memcpy(expect + (size_t)i * width, (const char *)tc.ref.data + (size_t)want[i] * width,
               width);
        expect_valid[i] = tc.ref.valid ? tc.ref.valid[want[i]] : 1;
      }
      {
        gcol_table_view const tv = gcol_table_get_view(out);
        /* ties of equal keys may hold different bytes (NaN payloads, -0/+0, true = 1 or
         * 0x80): compare through the reference comparator instead of bytes */
        char *got = (char *)malloc(width * (size_t)n);
        uint8_t *got_valid = (uint8_t *)malloc((size_t)n);
        ref_column gref = tc.ref, eref = tc.ref;
        GCOL_TEST_OK(gcol_column_copy_to_host(tv.columns[0], got, got_valid, NULL));
        gref.data = got;
        gref.valid = got_valid;
        eref.data = expect;
        eref.valid = expect_valid;
        for (int64_t i = 0; i < n; ++i) {
          assert_int_equal(ref_compare_rows2(&gref, i, &eref, i, 1), 0);
        }
        gcol_test_assert_null_count_consistent(tv.columns[0]);
        free(got);
        free(got_valid);
      }
      gcol_table_free(out);
      test_column_free(&tc);
      free(want);
      free(expect);
      free(expect_valid);
    }
  }
}

/* Segments: each sorted on its own; rows before the first and after the last offset too. */
static void test_segmented_sort(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(16);
  int64_t const n = 5000;
  int64_t const offsets[] = {10, 10, 11, 500, 2047, 4000, 4990};
  int32_t const num_offsets = 7;
  for (int v = 0; v < 3; ++v) {
    test_column tc;
    gcol_column *offs = NULL, *perm = NULL, *pcol = NULL;
    gcol_table *sorted = NULL;
    gcol_table_view keys, values;
    gcol_column_view pv;
    gcol_order const o = GCOL_ORDER_DESCENDING;
    gcol_null_order const no = GCOL_NULLS_AFTER;
    int64_t *got;
    int32_t *payload = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    for (int64_t i = 0; i < n; ++i) payload[i] = (int32_t)i;
    test_column_make(&rng, type_of(v == 2 ? GCOL_STRING : GCOL_INT16), n, 0,
                     v ? GCOL_TEST_RANDOM_NULLS : GCOL_TEST_NO_MASK, o, no, &tc);
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), num_offsets, offsets,
                                              NULL, NULL, NULL, &offs));
    GCOL_TEST_OK(gcol_table_view_make(&tc.view, 1, &keys));
    GCOL_TEST_OK(
        gcol_segmented_sorted_order(keys, gcol_column_get_view(offs), &o, &no, &perm, NULL, NULL));
    got = copy_indices(gcol_column_get_view(perm));
    /* reference: a stable sort of each segment's rows */
    for (int32_t seg = 0; seg <= num_offsets; ++seg) {
      int64_t const begin = seg == 0 ? 0 : offsets[seg - 1];
      int64_t const end = seg == num_offsets ? n : offsets[seg];
      int64_t *want = (int64_t *)malloc(sizeof(int64_t) * (size_t)(end - begin + 1));
      ref_column r = tc.ref;
      r.size = end - begin;
      if (r.data) r.data = (const char *)r.data + (size_t)begin * 2;
      if (r.valid) r.valid += begin;
      if (r.strings) {
        r.strings += begin;
        r.lengths += begin;
      }
      ref_stable_order(&r, 1, end - begin, want);
      for (int64_t i = begin; i < end; ++i) assert_int_equal(got[i], want[i - begin] + begin);
      free(want);
    }
    /* segmented_sort_by_key moves the payload the same way */
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, payload, NULL,
                                              NULL, NULL, &pcol));
    pv = gcol_column_get_view(pcol);
    GCOL_TEST_OK(gcol_table_view_make(&pv, 1, &values));
    GCOL_TEST_OK(gcol_segmented_sort_by_key(values, keys, gcol_column_get_view(offs), &o, &no,
                                            &sorted, NULL, NULL));
    GCOL_TEST_OK(
        gcol_column_copy_to_host(gcol_table_get_view(sorted).columns[0], payload, NULL, NULL));
    for (int64_t i = 0; i < n; ++i) assert_int_equal(payload[i], got[i]);
    free(got);
    free(payload);
    gcol_table_free(sorted);
    gcol_column_free(pcol);
    gcol_column_free(perm);
    gcol_column_free(offs);
    test_column_free(&tc);
  }
}

/* Host rank of row r (1-based), by definition over all rows. */
static double ref_rank(const ref_column *c, int64_t n, int64_t r, gcol_rank_method m,
                       gcol_rank_nulls nulls, bool pct, const int64_t *perm) {
  int64_t less = 0, equal = 0, counted = 0, before_equal = 0, distinct_less = 0, distinct = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool const vi = c->valid == NULL || c->valid[i];
    if (nulls == GCOL_RANK_NULLS_KEEP && !vi) continue;
    counted++;
    int const cmp = ref_compare_rows(c, 1, i, r);
    if (cmp < 0) less++;
    if (cmp == 0) equal++;
  }
  for (int64_t p = 0; p < n; ++p) { /* distinct groups via the stable order */
    int64_t const i = perm[p];
    bool const vi = c->valid == NULL || c->valid[i];
    if (nulls == GCOL_RANK_NULLS_KEEP && !vi) continue;
    bool const head = p == 0 || ref_compare_rows(c, 1, perm[p - 1], i) != 0;
    if (head) {
      distinct++;
      if (ref_compare_rows(c, 1, i, r) < 0) distinct_less++;
    }
    if (i == r) before_equal = p;
  }
  double rank;
  switch (m) {
    case GCOL_RANK_FIRST:
      rank = (double)(before_equal + 1);
      break;
    case GCOL_RANK_AVERAGE:
      rank = (double)less + (double)(equal + 1) / 2.0;
      break;
    case GCOL_RANK_MIN:
      rank = (double)(less + 1);
      break;
    case GCOL_RANK_MAX:
      rank = (double)(less + equal);
      break;
    default:
      rank = (double)(distinct_less + 1);
      break;
  }
  if (pct) rank /= (double)(m == GCOL_RANK_DENSE ? distinct : counted);
  return rank;
}

static void test_rank_methods(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(17);
  int64_t const n = 300;
  for (int t = 0; t < 2; ++t) {
    for (int m = 0; m <= GCOL_RANK_DENSE; ++m) {
      for (int nl = 0; nl <= GCOL_RANK_NULLS_BOTTOM; ++nl) {
        for (int pct = 0; pct < 2; ++pct) {
          gcol_order const o = (gcol_order)((m + nl) % 2);
          gcol_null_order const no =
              nl == GCOL_RANK_NULLS_TOP ? GCOL_NULLS_BEFORE : GCOL_NULLS_AFTER;
          test_column tc;
          gcol_column *out = NULL;
          int64_t perm[300];
          double *got = (double *)malloc(sizeof(double) * (size_t)n);
          int32_t *got_i = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
          uint8_t valid[300];
          test_column_make(&rng, type_of(t ? GCOL_STRING : GCOL_FLOAT32), n, 3,
                           GCOL_TEST_RANDOM_NULLS, o, no, &tc);
          GCOL_TEST_OK(gcol_rank(tc.view, (gcol_rank_method)m, o, (gcol_rank_nulls)nl, pct != 0,
                                 &out, NULL, NULL));
          ref_stable_order(&tc.ref, 1, n, perm);
          gcol_column_view const ov = gcol_column_get_view(out);
          bool const as_double = m == GCOL_RANK_AVERAGE || pct;
          assert_int_equal(ov.type.id, as_double ? GCOL_FLOAT64 : GCOL_INT32);
          GCOL_TEST_OK(
              gcol_column_copy_to_host(ov, as_double ? (void *)got : (void *)got_i, valid, NULL));
          for (int64_t r = 0; r < n; ++r) {
            bool const vr = tc.ref.valid == NULL || tc.ref.valid[r];
            if (nl == GCOL_RANK_NULLS_KEEP && !vr) {
              assert_int_equal(valid[r], 0);
              continue;
            }
            assert_int_equal(valid[r], 1);
            double const want =
                ref_rank(&tc.ref, n, r, (gcol_rank_method)m, (gcol_rank_nulls)nl, pct != 0, perm);
            double const g = as_double ? got[r] : (double)got_i[r];
            if (fabs(g - want) > 1e-9) {
              fail_msg("rank method %d nulls %d pct %d row %lld: got %g want %g", m, nl, pct,
                       (long long)r, g, want);
            }
          }
          free(got);
          free(got_i);
          gcol_column_free(out);
          test_column_free(&tc);
        }
      }
    }
  }
}

/* Where nulls land, spelled out for every (order, null order) pair: the table of
 * sorting.h, so a change of meaning (or a port that assumes libcudf's) fails here by name.
 * Also gcol_is_sorted on each output and on the other placement, and gcol_lower_bound of a
 * null needle (before or after the values). Keys: 3, null, 1, null, 2. */
static void test_null_order_placement_table(void **state) {
  (void)state;
  int32_t const values[5] = {3, 0, 1, 0, 2};
  uint8_t const valid[5] = {1, 0, 1, 0, 1};
  struct {
    gcol_order order;
    gcol_null_order nulls;
    int32_t want[5];  /* -1: null */
    int64_t null_pos; /* lower bound of a null needle */
  } const cases[] = {
      {GCOL_ORDER_ASCENDING, GCOL_NULLS_BEFORE, {-1, -1, 1, 2, 3}, 0},
      {GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, {1, 2, 3, -1, -1}, 3},
      {GCOL_ORDER_DESCENDING, GCOL_NULLS_BEFORE, {-1, -1, 3, 2, 1}, 0}, /* libcudf: nulls last */
      {GCOL_ORDER_DESCENDING, GCOL_NULLS_AFTER, {3, 2, 1, -1, -1}, 3},  /* libcudf: nulls first */
  };
  gcol_column *in = NULL, *needle = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 5, values, valid,
                                            NULL, NULL, &in));
  uint8_t const null_valid = 0;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 1, values,
                                            &null_valid, NULL, NULL, &needle));
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    gcol_column *sorted = NULL, *pos = NULL;
    GCOL_TEST_OK(gcol_column_sort(gcol_column_get_view(in), cases[k].order, cases[k].nulls,
                                  &sorted, NULL, NULL));
    int32_t got[5];
    uint8_t got_valid[5];
    GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(sorted), got, got_valid, NULL));
    for (int i = 0; i < 5; ++i) {
      int32_t const g = got_valid[i] ? got[i] : -1;
      if (g != cases[k].want[i]) {
        fail_msg("order %d null order %d: row %d is %d, expected %d", (int)cases[k].order,
                 (int)cases[k].nulls, i, g, cases[k].want[i]);
      }
    }
    gcol_column_view sv = gcol_column_get_view(sorted), nv = gcol_column_get_view(needle);
    gcol_table_view st, nt;
    GCOL_TEST_OK(gcol_table_view_make(&sv, 1, &st));
    GCOL_TEST_OK(gcol_table_view_make(&nv, 1, &nt));
    bool ok = false;
    GCOL_TEST_OK(gcol_is_sorted(st, &cases[k].order, &cases[k].nulls, &ok, NULL));
    assert_true(ok);
    gcol_null_order const other = cases[k].nulls == GCOL_NULLS_BEFORE ? GCOL_NULLS_AFTER
                                                                       : GCOL_NULLS_BEFORE;
    GCOL_TEST_OK(gcol_is_sorted(st, &cases[k].order, &other, &ok, NULL));
    assert_false(ok);
    GCOL_TEST_OK(gcol_lower_bound(st, nt, &cases[k].order, &cases[k].nulls, &pos, NULL, NULL));
    int64_t p = -1;
    gcol_column_view const pv = gcol_column_get_view(pos);
    if (pv.type.id == GCOL_INT32) {
      int32_t p32 = -1;
      GCOL_TEST_OK(gcol_column_copy_to_host(pv, &p32, NULL, NULL));
      p = p32;
    } else {
      GCOL_TEST_OK(gcol_column_copy_to_host(pv, &p, NULL, NULL));
    }
    assert_int_equal(p, cases[k].null_pos);
    gcol_column_free(pos);
    gcol_column_free(sorted);
  }
  gcol_column_free(needle);
  gcol_column_free(in);
}

static void test_is_sorted(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(18);
  int64_t const sizes[] = {0, 1, 2, 129, 65537};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    if (gcol_test_cap(sizes[s]) < sizes[s]) break;
    int64_t const n = sizes[s];
    test_column tc;
    gcol_table *sorted = NULL;
    gcol_table_view keys;
    gcol_order const o = GCOL_ORDER_DESCENDING;
    gcol_null_order const no = GCOL_NULLS_BEFORE;
    bool result = false;
    test_column_make(&rng, type_of(GCOL_FLOAT64), n, 1, GCOL_TEST_RANDOM_NULLS, o, no, &tc);
    GCOL_TEST_OK(gcol_table_view_make(&tc.view, 1, &keys));
    GCOL_TEST_OK(gcol_stable_sort(keys, &o, &no, &sorted, NULL, NULL));
    GCOL_TEST_OK(gcol_is_sorted(gcol_table_get_view(sorted), &o, &no, &result, NULL));
    assert_true(result);
    /* the unsorted input: sorted only if the reference says so */
    {
      bool want = true;
      for (int64_t i = 1; i < n; ++i) want = want && ref_compare_rows(&tc.ref, 1, i - 1, i) <= 0;
      GCOL_TEST_OK(gcol_is_sorted(keys, &o, &no, &result, NULL));
      assert_int_equal(result, want);
    }
    gcol_table_free(sorted);
    test_column_free(&tc);
  }
}

static void test_top_k(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(19);
  int64_t const n = 1000;
  int64_t const ks[] = {0, 1, 10, 999, 1000, 5000};
  for (size_t k = 0; k < sizeof ks / sizeof ks[0]; ++k) {
    test_column tc;
    gcol_column *top = NULL, *order = NULL;
    int64_t want[1000];
    int64_t const taken = ks[k] < n ? ks[k] : n;
    int64_t got_vals[1000];
    uint8_t got_valid[1000];
    test_column_make(&rng, type_of(GCOL_INT64), n, 7, GCOL_TEST_RANDOM_NULLS, GCOL_ORDER_DESCENDING,
                     GCOL_NULLS_AFTER, &tc);
    GCOL_TEST_OK(gcol_top_k(tc.view, ks[k], GCOL_ORDER_DESCENDING, &top, NULL, NULL));
    GCOL_TEST_OK(gcol_top_k_order(tc.view, ks[k], GCOL_ORDER_DESCENDING, &order, NULL, NULL));
    ref_stable_order(&tc.ref, 1, n, want);
    assert_int_equal(gcol_column_get_view(top).size, taken);
    int64_t *idx = copy_indices(gcol_column_get_view(order));
    GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(top), got_vals, got_valid, NULL));
    for (int64_t i = 0; i < taken; ++i) {
      assert_int_equal(idx[i], want[i]);
      assert_int_equal(got_valid[i], tc.ref.valid[want[i]]);
      if (got_valid[i]) assert_int_equal(got_vals[i], ((const int64_t *)tc.ref.data)[want[i]]);
    }
    gcol_test_assert_null_count_consistent(gcol_column_get_view(top));
    free(idx);
    gcol_column_free(top);
    gcol_column_free(order);
    test_column_free(&tc);
  }
}

typedef struct sort_fault_ctx {
  gcol_table_view keys;
  bool by_key;
  gcol_column *perm;
  gcol_table *sorted;
} sort_fault_ctx;

static gcol_status sort_fault_op(void *p) {
  sort_fault_ctx *c = (sort_fault_ctx *)p;
  return c->by_key ? gcol_stable_sort(c->keys, NULL, NULL, &c->sorted, NULL, NULL)
                   : gcol_stable_sorted_order(c->keys, NULL, NULL, &c->perm, NULL, NULL);
}

static void sort_fault_cleanup(void *p) {
  sort_fault_ctx *c = (sort_fault_ctx *)p;
  gcol_column_free(c->perm);
  gcol_table_free(c->sorted);
  c->perm = NULL;
  c->sorted = NULL;
}

/* Every allocation point fails once: OUT_OF_MEMORY, no output, nothing leaked. */
static void fail_nth_loop(gcol_column_view key, bool by_key) {
  sort_fault_ctx c;
  memset(&c, 0, sizeof c);
  GCOL_TEST_OK(gcol_table_view_make(&key, 1, &c.keys));
  c.by_key = by_key;
  assert_true(gcol_test_check_allocation_failures(sort_fault_op, sort_fault_cleanup, &c) >= 1);
  assert_null(c.perm);
  assert_null(c.sorted);
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(20);
  gcol_type_id const ids[] = {GCOL_INT32, GCOL_STRING, GCOL_DECIMAL128};
  for (size_t k = 0; k < sizeof ids / sizeof ids[0]; ++k) {
    test_column tc;
    test_column_make(&rng, type_of(ids[k]), 1000, 3, GCOL_TEST_RANDOM_NULLS, GCOL_ORDER_ASCENDING,
                     GCOL_NULLS_AFTER, &tc);
    fail_nth_loop(tc.view, false);
    fail_nth_loop(tc.view, true);
    test_column_free(&tc);
  }
  /* the plan-free path of one INT64 key without nulls: sorted keys, iota, output, CUB's
   * temporary */
  test_column tc;
  test_column_make(&rng, gcol_data_type_make(GCOL_INT64), 1000, 3, GCOL_TEST_NO_MASK,
                   GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, &tc);
  fail_nth_loop(tc.view, false);
  {
    /* the split sort: its hi/lo path with long runs (the reference's values: a small range
     * and the extremes), then a narrow key */
    int64_t const min_rows = gcol_detail_set_split_sort_min_rows(1);
    int64_t narrow[300];
    gcol_column *col = NULL;
    gcol_column_view v;
    fail_nth_loop(tc.view, false);
    for (int64_t i = 0; i < 300; ++i) narrow[i] = (i * 7919) % 301 - 150;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 300, narrow, NULL,
                                              NULL, NULL, &col));
    v = gcol_column_get_view(col);
    fail_nth_loop(v, false);
    gcol_column_free(col);
    gcol_detail_set_split_sort_min_rows(min_rows);
  }
  test_column_free(&tc);
}

/* Strings sharing a long head (0, 8, 20 or 60 bytes, the last past every word round of the
 * tie refinement), then short tails from a small alphabet with 0 bytes, so rows tie for many
 * words, some exactly (equal strings: stability), some only through zero padding ("a" vs
 * "a\0"); nulls; every order and null order; a slice. Checked against the stable reference. */
static void check_shared_head(gcol_test_rng *rng, int64_t head, int64_t n, int64_t offset) {
  int64_t const total = n + offset;
  char **strings = (char **)malloc(sizeof(char *) * (size_t)total);
  int64_t *lengths = (int64_t *)malloc(sizeof(int64_t) * (size_t)total);
  const char **ptrs = (const char **)malloc(sizeof(char *) * (size_t)total);
  uint8_t *valid = (uint8_t *)malloc((size_t)total);
  static const char alphabet[] = {'a', 'b', '\0', 'z'};
  for (int64_t i = 0; i < total; ++i) {
    int64_t const tail = (int64_t)(gcol_test_rng_next(rng) % 12);
    lengths[i] = head + tail;
    strings[i] = (char *)malloc((size_t)lengths[i] + 1);
    for (int64_t k = 0; k < head; ++k) strings[i][k] = (char)('A' + k % 26);
    for (int64_t k = 0; k < tail; ++k) strings[i][head + k] = alphabet[gcol_test_rng_next(rng) % 4];
    strings[i][lengths[i]] = '\0';
    valid[i] = gcol_test_rng_next(rng) % 9 != 0;
    ptrs[i] = valid[i] ? strings[i] : NULL;
  }
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(total, ptrs, lengths, NULL, NULL, &col));
  gcol_column_view view;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), offset, total, &view));
  for (int combo = 0; combo < 4; ++combo) {
    ref_column ref;
    memset(&ref, 0, sizeof ref);
    ref.type = gcol_data_type_make(GCOL_STRING);
    ref.size = n;
    ref.valid = valid + offset;
    ref.strings = (const char *const *)(ptrs + offset);
    ref.lengths = lengths + offset;
    ref.order = (gcol_order)(combo & 1);
    ref.null_order = (gcol_null_order)(combo >> 1);
    gcol_table_view keys;
    GCOL_TEST_OK(gcol_table_view_make(&view, 1, &keys));
    gcol_column *perm = NULL;
    char what[96];
    snprintf(what, sizeof what, "head %lld, %lld rows from %lld, order %d, nulls %d",
             (long long)head, (long long)n, (long long)offset, combo & 1, combo >> 1);
    GCOL_TEST_OK(gcol_stable_sorted_order(keys, &ref.order, &ref.null_order, &perm, NULL, NULL));
    expect_stable_order(gcol_column_get_view(perm), &ref, 1, n, what);
    gcol_column_free(perm);
  }
  gcol_column_free(col);
  for (int64_t i = 0; i < total; ++i) free(strings[i]);
  free(strings);
  free(lengths);
  free(ptrs);
  free(valid);
}

static void test_sort_strings_shared_heads(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(25);
  /* every tie set through the word rounds (by default only large ones are) */
  int64_t const refine_min = gcol_detail_set_tie_refine_min(2);
  static const int64_t heads[] = {0, 8, 20, 60};
  static const int64_t sizes[] = {2, 33, 700, 3001};
  for (size_t h = 0; h < sizeof heads / sizeof heads[0]; ++h) {
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
      check_shared_head(&rng, heads[h], gcol_test_cap(sizes[k]), (int64_t)((h + k) % 3) * 5);
    }
  }
  gcol_detail_set_tie_refine_min(refine_min);
}

/* STRING outputs switch to INT64 offsets above the threshold (forced low here), and a
 * zero-length slice at the end sorts to an empty result. */
static void test_sort_strings_int64_offsets_and_empty_slice(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(21);
  int64_t const n = 513;
  test_column tc;
  gcol_table *out = NULL;
  gcol_table_view keys;
  gcol_column_view empty;
  gcol_column *perm = NULL;
  int64_t *want = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
  int64_t const previous = gcol_set_large_offsets_threshold(16);
  gcol_host_strings *hs = NULL;
  test_column_make(&rng, gcol_data_type_make(GCOL_STRING), n, 7, GCOL_TEST_RANDOM_NULLS,
                   GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, &tc);
  GCOL_TEST_OK(gcol_table_view_make(&tc.view, 1, &keys));
  GCOL_TEST_OK(gcol_stable_sort(keys, NULL, NULL, &out, NULL, NULL));
  gcol_set_large_offsets_threshold(previous);
  {
    gcol_column_view const sv = gcol_table_get_view(out).columns[0];
    assert_int_equal(sv.children[GCOL_OFFSETS_CHILD].type.id, GCOL_INT64);
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(sv, NULL, &hs));
  }
  ref_stable_order(&tc.ref, 1, n, want);
  for (int64_t i = 0; i < n; ++i) {
    int64_t const r = want[i];
    assert_int_equal(hs->valid[i], tc.ref.valid[r]);
    if (!hs->valid[i]) continue;
    assert_int_equal(hs->offsets[i + 1] - hs->offsets[i], tc.ref.lengths[r]);
    assert_memory_equal(hs->chars + hs->offsets[i], tc.ref.strings[r], (size_t)tc.ref.lengths[r]);
  }
  gcol_host_strings_free(hs);
  gcol_table_free(out);
  /* the zero-length slice at the end */
  GCOL_TEST_OK(gcol_column_view_slice(tc.view, n, n, &empty));
  GCOL_TEST_OK(gcol_table_view_make(&empty, 1, &keys));
  GCOL_TEST_OK(gcol_stable_sorted_order(keys, NULL, NULL, &perm, NULL, NULL));
  assert_int_equal(gcol_column_get_view(perm).size, 0);
  assert_int_equal(gcol_column_get_view(perm).type.id, GCOL_INT32);
  gcol_column_free(perm);
  free(want);
  test_column_free(&tc);
}

/* A LIST key is refused on the device path too, with the output untouched. */
static void test_unsortable_types(void **state) {
  (void)state;
  gcol_column_view list = gcol_column_view_make(gcol_data_type_make(GCOL_STRUCT), 0, NULL, NULL, 0);
  gcol_table_view keys;
  gcol_column *perm = NULL;
  keys.num_columns = 1;
  keys.num_rows = 0;
  keys.columns = &list;
  GCOL_TEST_STATUS(gcol_stable_sorted_order(keys, NULL, NULL, &perm, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(perm);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_sorted_order_every_type, 0, 4),
      GCOL_TEST_GPU_PART(test_sorted_order_every_type, 1, 4),
      GCOL_TEST_GPU_PART(test_sorted_order_every_type, 2, 4),
      GCOL_TEST_GPU_PART(test_sorted_order_every_type, 3, 4),
      GCOL_TEST_GPU(test_sorted_order_native_keys),
      GCOL_TEST_GPU_PART(test_split_sort_shapes, 0, 3),
      GCOL_TEST_GPU_PART(test_split_sort_shapes, 1, 3),
      GCOL_TEST_GPU_PART(test_split_sort_shapes, 2, 3),
      GCOL_TEST_GPU(test_split_sort_millions),
      GCOL_TEST_GPU(test_split_sort_sorts_rows),
      GCOL_TEST_GPU(test_sorted_order_slices),
      GCOL_TEST_GPU(test_sorted_order_multi_column),
      GCOL_TEST_GPU(test_sorted_order_ties_and_all_null),
      GCOL_TEST_GPU(test_sort_by_key_payload_order),
      GCOL_TEST_GPU(test_sort_by_key_nested_payload),
      GCOL_TEST_GPU(test_sort_by_key_int32_fast_path),
      GCOL_TEST_GPU(test_sort_by_key_fast_path_allocation_failures),
      GCOL_TEST_GPU(test_sort_returns_sorted_rows),
      GCOL_TEST_GPU(test_segmented_sort),
      GCOL_TEST_GPU(test_rank_methods),
      GCOL_TEST_GPU(test_is_sorted),
      GCOL_TEST_GPU(test_null_order_placement_table),
      GCOL_TEST_GPU(test_top_k),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_sort_strings_int64_offsets_and_empty_slice),
      GCOL_TEST_GPU(test_sort_strings_shared_heads),
      GCOL_TEST_GPU(test_unsortable_types),
  };
  return GCOL_TEST_RUN_GPU("sort", tests);
}
