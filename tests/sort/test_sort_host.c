/*
 * Host tests of sorting and searching: the key normalization and row comparison that the
 * kernels run (sort/sort_keys.h, compiled here by gcc) against the independent host
 * reference, the documented float and string orders, and argument validation that fails
 * before any GPU work.
 */
#include <float.h>
#include <math.h>

#include "detail/sort_keys.h"
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
  };
  return GCOL_TEST_RUN("sort_host", tests);
}
