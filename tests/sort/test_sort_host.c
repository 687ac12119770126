/*
 * Host tests of sorting and searching: the key normalization and row comparison that the
 * kernels run (sort/sort_keys.h, compiled here by gcc) against the independent host
 * reference, the documented float and string orders, and argument validation that fails
 * before any GPU work.
 */
#include <float.h>
#include <math.h>

#include "detail/sort_keys.h"
#include "sort/split_sort.h"
#include "sort_ref.h"

static const gcol_type_id fixed_types[] = {GCOL_INT8,
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
                                           GCOL_DURATION_SECONDS,
                                           GCOL_DECIMAL32,
                                           GCOL_DECIMAL64,
                                           GCOL_DECIMAL128};
#define NUM_FIXED_TYPES (sizeof fixed_types / sizeof fixed_types[0])

/* A host column view over host arrays (only host code reads it). */
static gcol_column_view host_view(gcol_data_type type, int64_t n, const void *data,
                                  const uint32_t *mask) {
  gcol_column_view v =
      gcol_column_view_make(type, n, data, mask, mask ? GCOL_UNKNOWN_NULL_COUNT : 0);
  return v;
}

static void valid_to_mask(const uint8_t *valid, int64_t n, uint32_t *mask) {
  memset(mask, 0, (size_t)gcol_bit_num_words(n) * 4);
  for (int64_t i = 0; i < n; ++i) {
    if (valid[i]) gcol_bit_set(mask, i);
  }
}

static int sign_of(int x) { return (x > 0) - (x < 0); }

/* The kernels' comparator agrees with the reference on every pair, for every fixed-width
 * type, order, null order and with nulls. */
static void test_normalized_compare_matches_reference(void **state) {
  (void)state;
  enum { N = 64 };
  gcol_test_rng rng = gcol_test_rng_make(1);
  for (size_t t = 0; t < NUM_FIXED_TYPES; ++t) {
    gcol_data_type const type = gcol_data_type_make(fixed_types[t]);
    gcol_int128 data[N]; /* large enough for any width */
    uint8_t valid[N];
    uint32_t mask[4];
    ref_fill_values(&rng, type, data, N);
    gcol_test_fill_valid(&rng, GCOL_TEST_RANDOM_NULLS, valid, N);
    valid_to_mask(valid, N, mask);
    for (int o = 0; o < 2; ++o) {
      for (int no = 0; no < 2; ++no) {
        gcol_detail_key_column key;
        ref_column ref = {type, N, data, valid, NULL, NULL, (gcol_order)o, (gcol_null_order)no};
        GCOL_TEST_OK(gcol_detail_key_column_make(host_view(type, N, data, mask), (gcol_order)o,
                                                 (gcol_null_order)no, "key", &key));
        for (int64_t a = 0; a < N; ++a) {
          for (int64_t b = 0; b < N; ++b) {
            int const got = sign_of(gcol_detail_compare_key_rows(&key, a, &key, b));
            int const want = sign_of(ref_compare_rows(&ref, 1, a, b));
            if (got != want) {
              fail_msg("type %s order %d nulls %d rows %lld,%lld: got %d want %d",
                       gcol_type_name(type.id), o, no, (long long)a, (long long)b, got, want);
            }
            /* the normalized words order valid rows as the comparator does */
            if (valid[a] && valid[b] && type.id != GCOL_DECIMAL128) {
              uint64_t const wa = gcol_detail_key_word(&key, a, 0);
              uint64_t const wb = gcol_detail_key_word(&key, b, 0);
              assert_int_equal(sign_of((wa > wb) - (wa < wb)), want);
            }
          }
        }
      }
    }
  }
}

/* -Inf < -MAX < -1 < -subnormal < -0 == +0 < subnormal < 1 < MAX < +Inf < NaN == -NaN. */
static void test_float_order_documented(void **state) {
  (void)state;
  int const rank[] = {0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 9};
  int const n = (int)(sizeof rank / sizeof rank[0]);
  for (int width = 4; width <= 8; width += 4) {
    double const max = width == 4 ? FLT_MAX : DBL_MAX;
    double const tiny = width == 4 ? FLT_TRUE_MIN : DBL_TRUE_MIN; /* a subnormal */
    double const v[] = {-INFINITY, -max, -1.0, -tiny,    -0.0, 0.0,
                        tiny,      1.0,  max,  INFINITY, NAN,  -NAN};
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        uint64_t bi, bj;
        if (width == 4) {
          float const fi = (float)v[i], fj = (float)v[j];
          uint32_t ui, uj;
          memcpy(&ui, &fi, 4);
          memcpy(&uj, &fj, 4);
          bi = ui;
          bj = uj;
        } else {
          memcpy(&bi, &v[i], 8);
          memcpy(&bj, &v[j], 8);
        }
        uint64_t const ni = gcol_detail_normalize_raw(bi, GCOL_DETAIL_KEY_FLOAT, width);
        uint64_t const nj = gcol_detail_normalize_raw(bj, GCOL_DETAIL_KEY_FLOAT, width);
        int const got = (ni > nj) - (ni < nj);
        int const want = (rank[i] > rank[j]) - (rank[i] < rank[j]);
        if (got != want)
          fail_msg("width %d: %g vs %g gave %d, want %d", width, v[i], v[j], got, want);
      }
    }
  }
}

/* Strings: "" < "\0" < "\0\0" < "a" < "a\0" < "ab" < shared long prefixes < multibyte. */
static void test_string_order_documented(void **state) {
  (void)state;
  static const char *const s[] = {"",
                                  "\0",
                                  "\0\0",
                                  "a",
                                  "a\0",
                                  "ab",
                                  "abcdefgh",
                                  "abcdefgh\0",
                                  "abcdefghi",
                                  "abcdefghij",
                                  "\x7f",
                                  "\xc3\xa9",
                                  "\xe2\x82\xac",
                                  "\xf4\x8f\xbf\xbf"};
  static const int64_t len[] = {0, 1, 2, 1, 2, 2, 8, 9, 9, 10, 1, 2, 3, 4};
  int const n = (int)(sizeof len / sizeof len[0]);
  int32_t offsets[15];
  char chars[64];
  offsets[0] = 0;
  for (int i = 0; i < n; ++i) {
    memcpy(chars + offsets[i], s[i], (size_t)len[i]);
    offsets[i + 1] = offsets[i] + (int32_t)len[i];
  }
  gcol_column_view child =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT32), n + 1, offsets, NULL, 0);
  gcol_column_view view =
      gcol_column_view_make(gcol_data_type_make(GCOL_STRING), n, chars, NULL, 0);
  view.num_children = 1;
  view.children = &child;
  for (int o = 0; o < 2; ++o) {
    gcol_detail_key_column key;
    GCOL_TEST_OK(gcol_detail_key_column_make(view, (gcol_order)o, GCOL_NULLS_AFTER, "s", &key));
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        int want = (i > j) - (i < j);
        if (o == GCOL_ORDER_DESCENDING) want = -want;
        assert_int_equal(sign_of(gcol_detail_compare_key_rows(&key, i, &key, j)), want);
        /* the prefix word never contradicts the full order */
        uint64_t const pi = gcol_detail_key_word(&key, i, 0), pj = gcol_detail_key_word(&key, j, 0);
        if (pi != pj) assert_int_equal((pi > pj) - (pi < pj), want);
      }
    }
  }
  /* a slice whose first offset is not 0 reads the right rows */
  {
    gcol_column_view sliced = view;
    gcol_detail_key_column key;
    sliced.offset = 6;
    sliced.size = 3;
    GCOL_TEST_OK(
        gcol_detail_key_column_make(sliced, GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, "s", &key));
    assert_int_equal(gcol_detail_key_string(&key, 0).size, 8);
    assert_int_equal(gcol_detail_key_string(&key, 2).size, 9);
    assert_true(gcol_detail_compare_key_rows(&key, 0, &key, 1) < 0);
  }
}

/* A slice at a non-byte-aligned offset reads values and validity from the offset. */
static void test_sliced_key_column(void **state) {
  (void)state;
  int32_t data[100];
  uint8_t valid[100];
  uint32_t mask[4];
  for (int i = 0; i < 100; ++i) {
    data[i] = 100 - i;
    valid[i] = (uint8_t)(i % 3 != 0);
  }
  valid_to_mask(valid, 100, mask);
  for (size_t k = 0; k < gcol_test_num_offsets; ++k) {
    int64_t const off = gcol_test_offsets[k];
    gcol_column_view v = host_view(gcol_data_type_make(GCOL_INT32), 100, data, mask);
    gcol_detail_key_column key;
    v.offset = off;
    v.size = 100 - off;
    GCOL_TEST_OK(
        gcol_detail_key_column_make(v, GCOL_ORDER_ASCENDING, GCOL_NULLS_BEFORE, "k", &key));
    for (int64_t i = 0; i + 1 < v.size; ++i) {
      assert_int_equal(gcol_detail_key_is_valid(&key, i), valid[off + i]);
      if (valid[off + i] && valid[off + i + 1]) {
        assert_true(gcol_detail_compare_key_rows(&key, i, &key, i + 1) > 0);
      }
    }
  }
}

/* ---- argument validation (fails before any device work) ---- */

static gcol_table_view one_column_table(gcol_column_view *col) {
  gcol_table_view t;
  t.num_columns = 1;
  t.num_rows = col->size;
  t.columns = col;
  return t;
}

static void test_sorted_order_rejects_bad_arguments(void **state) {
  (void)state;
  int32_t data[4] = {1, 2, 3, 4};
  gcol_column_view col = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 4, data, NULL, 0);
  gcol_column_view list = gcol_column_view_make(gcol_data_type_make(GCOL_LIST), 4, NULL, NULL, 0);
  gcol_column_view two[2] = {col, col};
  gcol_table_view t = one_column_table(&col);
  gcol_column *out = (gcol_column *)&out;
  gcol_order bad_order = (gcol_order)7;
  gcol_null_order bad_nulls = (gcol_null_order)-1;

  GCOL_TEST_STATUS(gcol_sorted_order(t, NULL, NULL, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_stable_sorted_order(t, &bad_order, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "order"));
  GCOL_TEST_STATUS(gcol_stable_sorted_order(t, NULL, &bad_nulls, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  t = one_column_table(&list);
  GCOL_TEST_STATUS(gcol_sorted_order(t, NULL, NULL, &out, NULL, NULL), GCOL_ERROR_UNSUPPORTED);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "list"));
  two[1].size = 3;
  t.num_columns = 2;
  t.num_rows = 4;
  t.columns = two;
  GCOL_TEST_STATUS(gcol_sorted_order(t, NULL, NULL, &out, NULL, NULL), GCOL_ERROR_SIZE_MISMATCH);
  assert_non_null(strstr(gcol_last_error(), "column 1"));
  t.num_columns = 0;
  GCOL_TEST_STATUS(gcol_sorted_order(t, NULL, NULL, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  t.num_columns = 1;
  t.columns = NULL;
  GCOL_TEST_STATUS(gcol_sorted_order(t, NULL, NULL, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  col.data = NULL; /* rows but no data */
  t = one_column_table(&col);
  GCOL_TEST_STATUS(gcol_sorted_order(t, NULL, NULL, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
}

static void test_other_sorts_reject_bad_arguments(void **state) {
  (void)state;
  int32_t data[4] = {1, 2, 3, 4};
  float fdata[2] = {0, 1};
  gcol_column_view col = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 4, data, NULL, 0);
  gcol_column_view shorter =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 3, data, NULL, 0);
  gcol_column_view list = gcol_column_view_make(gcol_data_type_make(GCOL_LIST), 4, NULL, NULL, 0);
  gcol_column_view offs =
      gcol_column_view_make(gcol_data_type_make(GCOL_FLOAT32), 2, fdata, NULL, 0);
  gcol_table_view keys = one_column_table(&col), values = one_column_table(&shorter);
  gcol_table_view lists = one_column_table(&list);
  gcol_table *tout = (gcol_table *)&tout;
  gcol_column *out = (gcol_column *)&out;
  bool sorted = true;

  GCOL_TEST_STATUS(gcol_sort_by_key(values, keys, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_null(tout);
  /* A LIST payload is carried, but this one has no children: malformed. */
  GCOL_TEST_STATUS(gcol_stable_sort_by_key(lists, keys, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_sort(lists, NULL, NULL, &tout, NULL, NULL), GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_stable_sort(keys, NULL, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_segmented_sorted_order(keys, offs, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_segmented_sort_by_key(keys, keys, offs, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_rank(col, (gcol_rank_method)9, GCOL_ORDER_ASCENDING, GCOL_RANK_NULLS_KEEP,
                             false, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_rank(col, GCOL_RANK_MIN, GCOL_ORDER_ASCENDING, (gcol_rank_nulls)5, false,
                             &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_rank(list, GCOL_RANK_MIN, GCOL_ORDER_ASCENDING, GCOL_RANK_NULLS_KEEP, false,
                             &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_is_sorted(keys, NULL, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_is_sorted(lists, NULL, NULL, &sorted, NULL), GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_top_k(col, -1, GCOL_ORDER_DESCENDING, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_top_k_order(list, 1, GCOL_ORDER_DESCENDING, &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
}

static void test_search_rejects_bad_arguments(void **state) {
  (void)state;
  int32_t data[4] = {1, 2, 3, 4};
  int64_t data64[4] = {1, 2, 3, 4};
  gcol_column_view col = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 4, data, NULL, 0);
  gcol_column_view col64 =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT64), 4, data64, NULL, 0);
  gcol_column_view dec =
      gcol_column_view_make(gcol_data_type_decimal(GCOL_DECIMAL32, -2), 4, data, NULL, 0);
  gcol_column_view two[2] = {col, col};
  gcol_table_view hay = one_column_table(&col), ndl64 = one_column_table(&col64);
  gcol_table_view ndl_dec = one_column_table(&dec), hay2;
  gcol_column *out = (gcol_column *)&out;
  gcol_table *tout = (gcol_table *)&tout;
  gcol_table_view tables[2];
  int32_t key = 0, bad_key = 3;
  hay2.num_columns = 2;
  hay2.num_rows = 4;
  hay2.columns = two;

  GCOL_TEST_STATUS(gcol_lower_bound(hay, ndl64, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_upper_bound(hay2, hay, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_upper_bound(hay, hay, NULL, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_contains(col, dec, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_lower_bound(ndl_dec, hay, NULL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  tables[0] = hay;
  tables[1] = ndl64;
  GCOL_TEST_STATUS(gcol_merge(tables, 2, &key, 1, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(tout);
  tables[1] = hay;
  GCOL_TEST_STATUS(gcol_merge(tables, 2, &bad_key, 1, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_merge(tables, 0, &key, 1, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_merge(NULL, 2, &key, 1, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_merge(tables, 2, &key, 0, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  tables[1] = hay2;
  GCOL_TEST_STATUS(gcol_merge(tables, 2, &key, 1, NULL, NULL, &tout, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
}

/* The reference itself: a stable order puts equal rows in index order. */
static void test_reference_is_stable(void **state) {
  (void)state;
  int32_t data[6] = {3, 1, 3, 1, 2, 1};
  int64_t perm[6];
  int64_t const want[6] = {1, 3, 5, 4, 0, 2};
  ref_column c = {gcol_data_type_make(GCOL_INT32),
                  6,
                  data,
                  NULL,
                  NULL,
                  NULL,
                  GCOL_ORDER_ASCENDING,
                  GCOL_NULLS_AFTER};
  ref_stable_order(&c, 1, 6, perm);
  for (int i = 0; i < 6; ++i) assert_int_equal(perm[i], want[i]);
}

/* ---- the split sort's arithmetic (sort/split_sort.h, the code its kernels run) ---- */

static void test_split_bit_width_and_plan(void **state) {
  (void)state;
  gcol_detail_split_plan p;
  assert_int_equal(gcol_detail_bit_width_u64(0), 0);
  assert_int_equal(gcol_detail_bit_width_u64(1), 1);
  assert_int_equal(gcol_detail_bit_width_u64(2), 2);
  assert_int_equal(gcol_detail_bit_width_u64(255), 8);
  assert_int_equal(gcol_detail_bit_width_u64(256), 9);
  assert_int_equal(gcol_detail_bit_width_u64((uint64_t)1 << 63), 64);
  assert_int_equal(gcol_detail_bit_width_u64(~(uint64_t)0), 64);
  /* all keys equal: narrow, no bits to sort */
  p = gcol_detail_split_plan_make(5, 5, 10);
  assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_NARROW);
  assert_int_equal(p.range_bits, 0);
  /* the range, not the values, decides: 2^40 .. 2^40 + 2^32 - 1 is 32 bits */
  p = gcol_detail_split_plan_make((uint64_t)1 << 40, ((uint64_t)1 << 40) + 0xFFFFFFFFull, 100);
  assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_NARROW);
  assert_int_equal(p.range_bits, 32);
  p = gcol_detail_split_plan_make(7, 7 + ((uint64_t)1 << 32), 100);
  assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_HI_LO);
  assert_int_equal(p.range_bits, 33);
  assert_int_equal(p.lo_bits, 1);
  assert_int_equal(p.idx_bits, 7);
  p = gcol_detail_split_plan_make(0, ~(uint64_t)0, (int64_t)1 << 27);
  assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_HI_LO);
  assert_int_equal(p.lo_bits, 32);
  assert_int_equal(p.idx_bits, 27);
  p = gcol_detail_split_plan_make(0, ~(uint64_t)0, ((int64_t)1 << 27) + 1);
  assert_int_equal(p.idx_bits, 28);
  p = gcol_detail_split_plan_make(0, ~(uint64_t)0, 1);
  assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_HI_LO);
  assert_int_equal(p.idx_bits, 0);
  p = gcol_detail_split_plan_make(0, ~(uint64_t)0, INT32_MAX);
  assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_HI_LO);
  assert_int_equal(p.lo_bits + p.idx_bits, 63);
  /* the fallbacks: no rows, more rows than INT32 indices, lo + index past 64 bits */
  assert_int_equal(gcol_detail_split_plan_make(0, 9, 0).kind, GCOL_DETAIL_SPLIT_NONE);
  assert_int_equal(gcol_detail_split_plan_make(0, 9, (int64_t)INT32_MAX + 1).kind,
                   GCOL_DETAIL_SPLIT_NONE);
  p = gcol_detail_split_plan_make(0, ~(uint64_t)0, (int64_t)1 << 40);
  assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_NONE);
  assert_true(p.lo_bits + p.idx_bits > 64);
  /* the long-run key: run number bits above lo */
  p = gcol_detail_split_plan_make(0, ~(uint64_t)0, 1000);
  assert_int_equal(gcol_detail_split_run_key_bits(p, 1), 32);
  assert_int_equal(gcol_detail_split_run_key_bits(p, 2), 33);
  assert_int_equal(gcol_detail_split_run_key_bits(p, 5), 35);
}

/* Packing keeps everything: hi and lo give back w, the value gives back the row, and
 * (hi, value) orders exactly as (w, row). */
static void test_split_packing_round_trip_and_order(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(301);
  static const int64_t rows[] = {1, 2, 1000, (int64_t)1 << 27, INT32_MAX};
  static const int ranges[] = {33, 40, 48, 63, 64};
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; ++r) {
    for (size_t g = 0; g < sizeof ranges / sizeof ranges[0]; ++g) {
      int const range = ranges[g];
      uint64_t const min = range == 64 ? 0 : gcol_test_rng_next(&rng) >> range;
      uint64_t const max = min + gcol_detail_low_bits64(range);
      gcol_detail_split_plan const p = gcol_detail_split_plan_make(min, max, rows[r]);
      assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_HI_LO);
      assert_int_equal(p.range_bits, range);
      for (int k = 0; k < 2000; ++k) {
        uint64_t const w1 = min + gcol_test_rng_next(&rng) % (max - min) + (k % 7 == 0);
        uint64_t const w2 = k % 3 == 0 ? w1 : min + gcol_test_rng_next(&rng) % (max - min);
        int64_t const r1 = (int64_t)(gcol_test_rng_next(&rng) % (uint64_t)rows[r]);
        int64_t const r2 = (int64_t)(gcol_test_rng_next(&rng) % (uint64_t)rows[r]);
        uint32_t const h1 = gcol_detail_split_hi(p, w1), h2 = gcol_detail_split_hi(p, w2);
        uint64_t const v1 = gcol_detail_split_value(p, w1, r1);
        uint64_t const v2 = gcol_detail_split_value(p, w2, r2);
        int want, got;
        assert_true(((((uint64_t)h1 << p.lo_bits) | gcol_detail_split_lo(p, v1)) + p.min) == w1);
        assert_int_equal(gcol_detail_split_row(p, v1), r1);
        want = w1 != w2 ? (w1 < w2 ? -1 : 1) : (r1 != r2 ? (r1 < r2 ? -1 : 1) : 0);
        got = h1 != h2 ? (h1 < h2 ? -1 : 1) : (v1 != v2 ? (v1 < v2 ? -1 : 1) : 0);
        if (want != got) {
          fail_msg("rows %lld, range %d: (%llx, %lld) vs (%llx, %lld): want %d, got %d",
                   (long long)rows[r], range, (unsigned long long)w1, (long long)r1,
                   (unsigned long long)w2, (long long)r2, want, got);
        }
      }
    }
  }
  {
    /* narrow keys: w - min, in order */
    gcol_detail_split_plan const p = gcol_detail_split_plan_make(1000, 1000 + 0xFFFFFFFFull, 9);
    assert_int_equal(gcol_detail_split_narrow_key(p, 1000), 0);
    assert_int_equal(gcol_detail_split_narrow_key(p, 1000 + 0xFFFFFFFFull), 0xFFFFFFFFu);
    assert_true(gcol_detail_split_narrow_key(p, 5000) < gcol_detail_split_narrow_key(p, 5001));
  }
}

/* hi[] made of runs of the given lengths (distinct ascending hi per run). */
static int64_t runs_to_hi(const int64_t *lengths, size_t count, uint32_t *hi) {
  int64_t n = 0;
  for (size_t r = 0; r < count; ++r) {
    for (int64_t k = 0; k < lengths[r]; ++k) hi[n++] = (uint32_t)(3 * r + 1);
  }
  return n;
}

/* Every position's role against the runs it was built from. */
static void test_split_fixup_roles(void **state) {
  (void)state;
  int64_t const T = GCOL_DETAIL_SPLIT_SHORT_RUN;
  static const int64_t patterns[][8] = {
      {1, 0},
      {2, 0},
      {GCOL_DETAIL_SPLIT_SHORT_RUN, 0},
      {GCOL_DETAIL_SPLIT_SHORT_RUN + 1, 0},
      {1, 2, 1, 3, 1, 0},
      {GCOL_DETAIL_SPLIT_SHORT_RUN - 1, GCOL_DETAIL_SPLIT_SHORT_RUN,
       GCOL_DETAIL_SPLIT_SHORT_RUN + 1, GCOL_DETAIL_SPLIT_SHORT_RUN + 2, 1, 0},
      {2 * GCOL_DETAIL_SPLIT_SHORT_RUN, 1, 2 * GCOL_DETAIL_SPLIT_SHORT_RUN + 1,
       2 * GCOL_DETAIL_SPLIT_SHORT_RUN + 2, 0},
      {1, 100, 1, 0},
      {100, 0},
      {3, 300, 2, GCOL_DETAIL_SPLIT_SHORT_RUN + 1, 0},
  };
  uint32_t hi[1024];
  for (size_t q = 0; q < sizeof patterns / sizeof patterns[0]; ++q) {
    size_t count = 0;
    while (count < 8 && patterns[q][count] != 0) ++count;
    int64_t const n = runs_to_hi(patterns[q], count, hi);
    int64_t i = 0;
    for (size_t r = 0; r < count; ++r) {
      int64_t const len = patterns[q][r], first = i;
      for (int64_t k = 0; k < len; ++k, ++i) {
        int64_t start = -1, length = -1;
        int32_t const role = gcol_detail_split_role_of(hi, n, i, &start, &length);
        int32_t want;
        if (len == 1) {
          want = GCOL_DETAIL_SPLIT_SINGLE;
        } else if (len <= T) {
          want = k == 0 ? GCOL_DETAIL_SPLIT_SHORT_HEAD : GCOL_DETAIL_SPLIT_SHORT_BODY;
        } else {
          want = k == len - 1 ? GCOL_DETAIL_SPLIT_LONG_TAIL : GCOL_DETAIL_SPLIT_LONG;
        }
        if (role != want) {
          fail_msg("pattern %zu, run %zu of length %lld, position %lld: role %d, want %d", q, r,
                   (long long)len, (long long)k, (int)role, (int)want);
        }
        if (role == GCOL_DETAIL_SPLIT_SHORT_HEAD || role == GCOL_DETAIL_SPLIT_LONG_TAIL) {
          assert_int_equal(start, first);
          assert_int_equal(length, len);
        }
      }
    }
  }
}

typedef struct split_sim_pair {
  uint64_t key;
  uint64_t value;
  int64_t tie; /* the position before the sort: a stable sort's last key */
} split_sim_pair;

static int split_sim_compare(const void *a, const void *b) {
  const split_sim_pair *x = (const split_sim_pair *)a, *y = (const split_sim_pair *)b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->tie < y->tie ? -1 : (x->tie > y->tie ? 1 : 0);
}

/* The split sort's steps on the host with the kernels' helpers (stable sorts stand in for
 * CUB's); the long runs are processed in reverse order of discovery, as the atomics may. */
static void split_simulate(const uint64_t *w, int64_t n, int64_t *perm, int32_t *kind,
                           int64_t *long_runs) {
  uint64_t min = ~(uint64_t)0, max = 0;
  split_sim_pair *pairs = (split_sim_pair *)malloc(sizeof(split_sim_pair) * (size_t)n);
  uint32_t *hi = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)n);
  int64_t *starts = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
  int64_t *lengths = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
  int64_t *offsets = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
  int64_t runs = 0, m = 0;
  for (int64_t i = 0; i < n; ++i) {
    min = w[i] < min ? w[i] : min;
    max = w[i] > max ? w[i] : max;
  }
  gcol_detail_split_plan const p = gcol_detail_split_plan_make(min, max, n);
  *kind = p.kind;
  *long_runs = 0;
  if (p.kind == GCOL_DETAIL_SPLIT_NARROW) {
    for (int64_t i = 0; i < n; ++i) {
      pairs[i].key = gcol_detail_split_narrow_key(p, w[i]);
      pairs[i].value = (uint64_t)i;
      pairs[i].tie = i;
    }
    qsort(pairs, (size_t)n, sizeof *pairs, split_sim_compare);
    for (int64_t i = 0; i < n; ++i) perm[i] = (int64_t)pairs[i].value;
    goto done;
  }
  assert_int_equal(p.kind, GCOL_DETAIL_SPLIT_HI_LO);
  for (int64_t i = 0; i < n; ++i) {
    pairs[i].key = gcol_detail_split_hi(p, w[i]);
    pairs[i].value = gcol_detail_split_value(p, w[i], i);
    pairs[i].tie = i;
  }
  qsort(pairs, (size_t)n, sizeof *pairs, split_sim_compare);
  for (int64_t i = 0; i < n; ++i) hi[i] = (uint32_t)pairs[i].key;
  for (int64_t i = 0; i < n; ++i) { /* the fix-up kernel's body */
    int64_t start = 0, length = 0;
    int32_t const role = gcol_detail_split_role_of(hi, n, i, &start, &length);
    if (role == GCOL_DETAIL_SPLIT_SINGLE || role == GCOL_DETAIL_SPLIT_LONG ||
        role == GCOL_DETAIL_SPLIT_LONG_TAIL) {
      perm[i] = gcol_detail_split_row(p, pairs[i].value);
    }
    if (role == GCOL_DETAIL_SPLIT_LONG_TAIL) {
      starts[runs] = start;
      lengths[runs] = length;
      runs++;
      m += length;
    } else if (role == GCOL_DETAIL_SPLIT_SHORT_HEAD) {
      uint64_t v[GCOL_DETAIL_SPLIT_SHORT_RUN];
      assert_true(length >= 2 && length <= GCOL_DETAIL_SPLIT_SHORT_RUN);
      for (int64_t j = 0; j < length; ++j) v[j] = pairs[start + j].value;
      gcol_detail_split_sort_short(v, (int32_t)length);
      for (int64_t j = 0; j < length; ++j) perm[start + j] = gcol_detail_split_row(p, v[j]);
    }
  }
  *long_runs = runs;
  if (runs > 0) {
    split_sim_pair *gathered = (split_sim_pair *)malloc(sizeof(split_sim_pair) * (size_t)m);
    for (int64_t r = 0; r < runs / 2; ++r) { /* another discovery order */
      int64_t const s = starts[r], l = lengths[r];
      starts[r] = starts[runs - 1 - r];
      lengths[r] = lengths[runs - 1 - r];
      starts[runs - 1 - r] = s;
      lengths[runs - 1 - r] = l;
    }
    offsets[0] = 0;
    for (int64_t r = 1; r < runs; ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
    assert_true(gcol_detail_split_run_key_bits(p, runs) <= 64);
    for (int64_t j = 0; j < m; ++j) { /* the gather kernel's body */
      int64_t const r = gcol_detail_split_run_of(offsets, runs, j);
      uint64_t const v = pairs[starts[r] + (j - offsets[r])].value;
      gathered[j].key = gcol_detail_split_run_key(p, r, v);
      gathered[j].value = (uint64_t)gcol_detail_split_row(p, v);
      gathered[j].tie = j;
    }
    qsort(gathered, (size_t)m, sizeof *gathered, split_sim_compare);
    for (int64_t j = 0; j < m; ++j) { /* the scatter kernel's body */
      int64_t const r = gcol_detail_split_run_of(offsets, runs, j);
      perm[starts[r] + (j - offsets[r])] = (int64_t)gathered[j].value;
    }
    free(gathered);
  }
done:
  free(pairs);
  free(hi);
  free(starts);
  free(lengths);
  free(offsets);
}

static const uint64_t *split_ref_words;

static int split_ref_compare(const void *a, const void *b) {
  int64_t const x = *(const int64_t *)a, y = *(const int64_t *)b;
  uint64_t const wx = split_ref_words[x], wy = split_ref_words[y];
  if (wx != wy) return wx < wy ? -1 : 1;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* Key sets: full-range random, narrow, runs of lengths around the short-run limit, half
 * the keys in one hi, duplicates, many long runs; each against the stable order of words. */
static void test_split_sort_simulation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(302);
  int64_t const T = GCOL_DETAIL_SPLIT_SHORT_RUN;
  static const int64_t sizes[] = {1, 2, 3, 17, 18, 33, 1000, 5003};
  for (int shape = 0; shape < 8; ++shape) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      int64_t const n = sizes[s];
      uint64_t *w = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)n);
      int64_t *got = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
      int64_t *want = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
      int32_t kind = 0;
      int64_t long_runs = 0;
      for (int64_t i = 0; i < n; ++i) {
        uint64_t const x = gcol_test_rng_next(&rng);
        switch (shape) {
          case 0: /* full range */
            w[i] = x;
            break;
          case 1: /* narrow: a 20-bit range far from 0 */
            w[i] = ((uint64_t)1 << 50) + (x % (1u << 20));
            break;
          case 2: /* runs of T - 1 .. 2T + 1 rows in one hi (with equal lo), shuffled */
            w[i] = ((uint64_t)((i / 7) % 5) << 61) | ((uint64_t)((i * 13) % (2 * T + 1)) << 32) |
                   (x % 3);
            break;
          case 3: /* half the keys share hi (and many share lo), half full range */
            w[i] = i % 2 == 0 ? (((uint64_t)0xABCD1234u << 32) | (x % 1000)) : x;
            break;
          case 4: /* few distinct keys: long runs of equal keys (stability) */
            w[i] = (x % 4) * 0x4000000000000001ull;
            break;
          case 5: /* many runs of exactly T + 1 rows (lo within the low 13 bits, under the
                   * plan's 14 or more): many long runs */
            w[i] = ((uint64_t)(i / (T + 1)) << 40) | ((x % 4096) << 1);
            break;
          case 6: /* runs of exactly T rows: all short, all at the limit */
            w[i] = ((uint64_t)(i / T) << 40) | (x % 8192);
            break;
          default: /* extremes: 0, ~0 and values next to them */
            w[i] = x % 4 == 0 ? 0 : (x % 4 == 1 ? ~(uint64_t)0 : (x % 4 == 2 ? x % 5 : ~(x % 5)));
            break;
        }
      }
      /* min 0, so that hi is the bits above lo as written (no borrow from lo < min) */
      if (shape == 2 || shape == 5 || shape == 6) w[0] = 0;
      if (shape == 5 || shape == 6) { /* the rows of a run not next to each other */
        for (int64_t i = n - 1; i > 0; --i) {
          int64_t const j = (int64_t)(gcol_test_rng_next(&rng) % (uint64_t)(i + 1));
          uint64_t const t = w[i];
          w[i] = w[j];
          w[j] = t;
        }
      }
      split_simulate(w, n, got, &kind, &long_runs);
      for (int64_t i = 0; i < n; ++i) want[i] = i;
      split_ref_words = w;
      qsort(want, (size_t)n, sizeof *want, split_ref_compare);
      for (int64_t i = 0; i < n; ++i) {
        if (got[i] != want[i]) {
          fail_msg("shape %d, n=%lld (kind %d, %lld long runs): position %lld: row %lld, want %lld",
                   shape, (long long)n, (int)kind, (long long)long_runs, (long long)i,
                   (long long)got[i], (long long)want[i]);
        }
      }
      if (shape == 1 && n > 1) assert_int_equal(kind, GCOL_DETAIL_SPLIT_NARROW);
      /* the shapes reach the paths they are for */
      if ((shape == 3 || shape == 5 || (shape == 2 && n > 5000)) && n >= 1000 &&
          (kind != GCOL_DETAIL_SPLIT_HI_LO || long_runs < 1)) {
        fail_msg("shape %d, n=%lld: kind %d, %lld long runs", shape, (long long)n, (int)kind,
                 (long long)long_runs);
      }
      if (shape == 6 && n >= 1000) assert_int_equal(long_runs, 0);
      free(w);
      free(got);
      free(want);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_normalized_compare_matches_reference),
      cmocka_unit_test(test_float_order_documented),
      cmocka_unit_test(test_string_order_documented),
      cmocka_unit_test(test_sliced_key_column),
      cmocka_unit_test(test_sorted_order_rejects_bad_arguments),
      cmocka_unit_test(test_other_sorts_reject_bad_arguments),
      cmocka_unit_test(test_search_rejects_bad_arguments),
      cmocka_unit_test(test_reference_is_stable),
      cmocka_unit_test(test_split_bit_width_and_plan),
      cmocka_unit_test(test_split_packing_round_trip_and_order),
      cmocka_unit_test(test_split_fixup_roles),
      cmocka_unit_test(test_split_sort_simulation),
  };
  return GCOL_TEST_RUN("sort_host", tests);
}
