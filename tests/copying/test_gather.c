/*
 * GPU tests of gcol_gather, gcol_scatter, gcol_scatter_scalars, gcol_reverse and
 * gcol_get_element against the plain-C reference (copying_reference.c): every fixed-width
 * type, strings, lists, structs, every index type, negative indices, each out-of-bounds
 * policy, sliced inputs, all validity patterns, the INT64-offsets path, fault injection.
 */
#include "copying_reference.h"

static const int64_t sizes[] = {0, 1, 2, 7, 31, 32, 33, 65, 129, 255, 257, 1000};
#define NUM_SIZES (sizeof sizes / sizeof sizes[0])

/* Host resolution of a map, as documented: null entry -> null row; negative wraps when asked;
 * out of range -> null row (NULLIFY). */
static int64_t *expected_rows(const int64_t *map, const uint8_t *valid, int64_t n,
                              int64_t source_rows, bool wrap) {
  int64_t *rows = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = map[i];
    if (wrap && r < 0) r += source_rows;
    rows[i] = (valid != NULL && !valid[i]) || r < 0 || r >= source_rows ? -1 : r;
  }
  return rows;
}

/* Gathers `src` (uploaded behind `offset` rows) by a random map of type `index_type` and
 * checks the result against the reference. Out-of-range indices only when nullifying. */
static void check_gather(gcol_test_rng *rng, const hcol *src, int64_t offset,
                         gcol_type_id index_type, int64_t map_size,
                         gcol_out_of_bounds_policy policy, bool wrap, bool map_nulls,
                         const char *what) {
  int64_t const n = src->size;
  bool const is_signed = gcol_type_is_signed_integral(index_type);
  int64_t const max_index = (int64_t)((index_type == GCOL_INT8)     ? INT8_MAX
                                      : (index_type == GCOL_UINT8)  ? UINT8_MAX
                                      : (index_type == GCOL_INT16)  ? INT16_MAX
                                      : (index_type == GCOL_UINT16) ? UINT16_MAX
                                                                    : INT32_MAX);
  int64_t *map = (int64_t *)calloc((size_t)map_size + 1, sizeof(int64_t));
  uint8_t *map_valid = NULL;
  for (int64_t i = 0; i < map_size; ++i) {
    int64_t lo = 0, hi = n - 1;
    if (policy == GCOL_OUT_OF_BOUNDS_NULLIFY) hi = n + 3;
    if (wrap && is_signed) lo = -n - (policy == GCOL_OUT_OF_BOUNDS_NULLIFY ? 3 : 0);
    if (hi > max_index) hi = max_index;
    if (is_signed && lo < -max_index - 1) lo = -max_index - 1;
    if (n == 0 && policy != GCOL_OUT_OF_BOUNDS_NULLIFY) fail_msg("no valid index into 0 rows");
    map[i] = gcol_test_rng_range(rng, lo, hi);
  }
  if (map_nulls) {
    map_valid = (uint8_t *)calloc((size_t)map_size + 1, 1);
    gcol_test_fill_valid(rng, GCOL_TEST_RANDOM_NULLS, map_valid, map_size);
  }
  gcol_column *owner = NULL;
  gcol_column_view const view = hcol_to_device_sliced(src, offset, false, rng, &owner);
  gcol_column *map_col = hcol_index_column(index_type, map, map_size, map_valid, NULL);
  gcol_table_view table;
  GCOL_TEST_OK(gcol_table_view_make(&view, 1, &table));
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_gather(table, gcol_column_get_view(map_col), policy,
                           wrap ? GCOL_NEGATIVE_INDEX_WRAP : GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &out,
                           NULL, NULL));
  int64_t *rows = expected_rows(map, map_valid, map_size, n, wrap);
  hcol *expected = hcol_gather(src, rows, map_size);
  char context[160];
  snprintf(context, sizeof context, "%s: gather %lld rows (offset %lld) by %lld %s indices", what,
           (long long)n, (long long)offset, (long long)map_size, gcol_type_name(index_type));
  assert_int_equal(out->num_columns, 1);
  assert_int_equal(out->num_rows, map_size);
  hcol_assert_device_equal(expected, gcol_table_get_view(out).columns[0], context);
  hcol_free(expected);
  free(rows);
  gcol_table_free(out);
  gcol_column_free(map_col);
  gcol_column_free(owner);
  free(map);
  free(map_valid);
}

static void test_gather_every_fixed_type(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(201);
  for (size_t t = 0; t < hcol_num_fixed_types; ++t) {
    for (size_t s = 0; s < NUM_SIZES; ++s) {
      int64_t const n = sizes[s];
      gcol_test_validity const pattern = (gcol_test_validity)((t + s) % GCOL_TEST_NUM_VALIDITY);
      hcol *src = hcol_random(&rng, HK_FIXED, hcol_fixed_types[t], n, pattern);
      int64_t const offset = gcol_test_offsets[(t + s) % gcol_test_num_offsets];
      gcol_type_id const index_type = hcol_index_types[(t + s) % hcol_num_index_types];
      int64_t const map_size = n + (int64_t)(s % 3);
      check_gather(&rng, src, offset, index_type, map_size, GCOL_OUT_OF_BOUNDS_NULLIFY, true,
                   s % 2 == 0, gcol_type_name(hcol_fixed_types[t]));
      if (n > 0 && (index_type == GCOL_INT32 || index_type == GCOL_INT64 ||
                    index_type == GCOL_UINT32 || index_type == GCOL_UINT64 || n < 127)) {
        check_gather(&rng, src, offset, index_type, map_size, GCOL_OUT_OF_BOUNDS_DONT_CHECK, false,
                     false, gcol_type_name(hcol_fixed_types[t]));
        check_gather(&rng, src, offset, index_type, map_size, GCOL_OUT_OF_BOUNDS_CHECK, true, true,
                     gcol_type_name(hcol_fixed_types[t]));
      }
      hcol_free(src);
    }
  }
}

static void test_gather_validity_patterns_and_offsets(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(202);
  for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
    for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
      hcol *src = hcol_random(&rng, HK_FIXED, GCOL_INT64, 97, (gcol_test_validity)p);
      check_gather(&rng, src, gcol_test_offsets[o], GCOL_INT32, 150, GCOL_OUT_OF_BOUNDS_NULLIFY,
                   true, false, gcol_test_validity_name((gcol_test_validity)p));
      check_gather(&rng, src, gcol_test_offsets[o], GCOL_INT32, 150, GCOL_OUT_OF_BOUNDS_DONT_CHECK,
                   false, false, gcol_test_validity_name((gcol_test_validity)p));
      hcol_free(src);
    }
  }
}

static void test_gather_nested_kinds(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(203);
  for (int k = HK_STRING; k < HK_NUM_KINDS; ++k) {
    for (size_t s = 0; s < NUM_SIZES; ++s) {
      for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; p += 1 + (int)(s % 2)) {
        hcol *src = hcol_random(&rng, (hkind)k, GCOL_EMPTY, sizes[s], (gcol_test_validity)p);
        int64_t const offset = gcol_test_offsets[(s + (size_t)p) % gcol_test_num_offsets];
        check_gather(&rng, src, offset, hcol_index_types[(s + (size_t)k) % hcol_num_index_types],
                     sizes[s] + 5, GCOL_OUT_OF_BOUNDS_NULLIFY, true, p % 2 == 1,
                     hkind_name((hkind)k));
        if (sizes[s] > 0) {
          check_gather(&rng, src, offset, GCOL_INT32, sizes[s] * 2, GCOL_OUT_OF_BOUNDS_DONT_CHECK,
                       false, false, hkind_name((hkind)k));
        }
        hcol_free(src);
      }
    }
  }
}

static void test_gather_large_sizes(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(204);
  int64_t const n = gcol_test_cap(1000003);
  hcol *ints = hcol_random(&rng, HK_FIXED, GCOL_INT64, n, GCOL_TEST_RANDOM_NULLS);
  check_gather(&rng, ints, 33, GCOL_INT32, n, GCOL_OUT_OF_BOUNDS_NULLIFY, true, true, "1e6 int64");
  check_gather(&rng, ints, 0, GCOL_UINT32, n - 7, GCOL_OUT_OF_BOUNDS_DONT_CHECK, false, false,
               "1e6 int64");
  hcol_free(ints);
  hcol *strings = hcol_random(&rng, HK_STRING, GCOL_EMPTY, gcol_test_cap(300001), GCOL_TEST_RANDOM_NULLS);
  check_gather(&rng, strings, 5, GCOL_INT64, gcol_test_cap(400000), GCOL_OUT_OF_BOUNDS_NULLIFY, true, false,
               "3e5 strings");
  hcol_free(strings);
}

/* Strings longer than 64 KiB, "" vs null vs "\0", many 1-byte strings, lengths 0..189. */
static void test_gather_string_cases(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(205);
  int64_t const long_len = 70000;
  char *big = (char *)malloc((size_t)long_len);
  for (int64_t i = 0; i < long_len; ++i) big[i] = (char)('a' + i % 26);
  const char *strings[6] = {big, "", NULL, "\0", "\xF4\x8F\xBF\xBF", big};
  int64_t lengths[6] = {long_len, 0, 0, 1, 4, long_len - 1};
  hcol *src = hcol_strings(6, strings, lengths);
  for (size_t o = 0; o < gcol_test_num_offsets; o += 2) {
    check_gather(&rng, src, gcol_test_offsets[o], GCOL_INT8, 40, GCOL_OUT_OF_BOUNDS_NULLIFY, true,
                 false, "special strings");
  }
  hcol_free(src);
  free(big);
  const char *ones[3] = {"x", "y", "z"};
  const char *many[1000];
  for (int i = 0; i < 1000; ++i) many[i] = ones[i % 3];
  hcol *small = hcol_strings(1000, many, NULL);
  check_gather(&rng, small, 1, GCOL_INT16, 3000, GCOL_OUT_OF_BOUNDS_DONT_CHECK, false, false,
               "1-byte strings");
  hcol_free(small);
  /* Lengths 0..189 around the word size and the 64-byte limit of a thread's own copy (longer
   * rows are copied by the whole warp), starting at every alignment in source and output. */
  char text[200];
  for (int i = 0; i < 200; ++i) text[i] = (char)gcol_test_rng_range(&rng, 1, 255);
  const char *mid[500];
  int64_t mid_lengths[500];
  for (int i = 0; i < 500; ++i) {
    mid[i] = text + i % 5;
    mid_lengths[i] = (i * 37) % 190;
  }
  hcol *medium = hcol_strings(500, mid, mid_lengths);
  for (size_t o = 0; o < gcol_test_num_offsets; o += 3) {
    check_gather(&rng, medium, gcol_test_offsets[o], GCOL_INT32, 1500,
                 GCOL_OUT_OF_BOUNDS_DONT_CHECK, false, o % 2 == 1, "lengths 0..189");
  }
  hcol_free(medium);
}

/* Every index type, negative indices with and without wrap. */
static void test_gather_index_types_and_negatives(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(206);
  hcol *src = hcol_random(&rng, HK_STRING, GCOL_EMPTY, 100, GCOL_TEST_RANDOM_NULLS);
  for (size_t t = 0; t < hcol_num_index_types; ++t) {
    for (int wrap = 0; wrap < 2; ++wrap) {
      check_gather(&rng, src, 3, hcol_index_types[t], 257, GCOL_OUT_OF_BOUNDS_NULLIFY, wrap, false,
                   "index types");
    }
  }
  hcol_free(src);
  /* Exact answer for -1 in every signed type: the last row. */
  int64_t const values[3] = {10, 20, 30};
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 3, values, NULL, NULL,
                                            NULL, &col));
  gcol_column_view const cv = gcol_column_get_view(col);
  gcol_table_view table;
  GCOL_TEST_OK(gcol_table_view_make(&cv, 1, &table));
  for (size_t t = 0; t < 4; ++t) {
    int64_t const minus_one[2] = {-1, -3};
    gcol_column *map = hcol_index_column(hcol_index_types[t], minus_one, 2, NULL, NULL);
    gcol_table *out = NULL;
    GCOL_TEST_OK(gcol_gather(table, gcol_column_get_view(map), GCOL_OUT_OF_BOUNDS_CHECK,
                             GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL));
    int64_t const expect[2] = {30, 10};
    gcol_test_assert_column_equals_host(gcol_table_get_view(out).columns[0], expect, NULL, 2);
    gcol_table_free(out);
    GCOL_TEST_STATUS(gcol_gather(table, gcol_column_get_view(map), GCOL_OUT_OF_BOUNDS_CHECK,
                                 GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &out, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(out);
    gcol_column_free(map);
  }
  gcol_column_free(col);
}

/* CHECK fails on any non-null out-of-range index and names it; null entries never fail. */
static void test_gather_check_policy(void **state) {
  (void)state;
  int64_t const values[4] = {1, 2, 3, 4};
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 4, values, NULL, NULL,
                                            NULL, &col));
  gcol_column_view const cv = gcol_column_get_view(col);
  gcol_table_view table;
  GCOL_TEST_OK(gcol_table_view_make(&cv, 1, &table));
  int64_t const bad[5] = {0, 3, 4, 1, 99};
  uint8_t const valid[5] = {1, 1, 1, 1, 0};
  gcol_column *map = hcol_index_column(GCOL_INT32, bad, 5, NULL, NULL);
  gcol_table *out = NULL;
  GCOL_TEST_STATUS(gcol_gather(table, gcol_column_get_view(map), GCOL_OUT_OF_BOUNDS_CHECK,
                               GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "2 indices"));
  assert_non_null(strstr(gcol_last_error(), "position 2 is 4"));
  gcol_column_free(map);
  int64_t const fixed[5] = {0, 3, 2, 1, 99};
  map = hcol_index_column(GCOL_INT32, fixed, 5, valid, NULL);
  GCOL_TEST_OK(gcol_gather(table, gcol_column_get_view(map), GCOL_OUT_OF_BOUNDS_CHECK,
                           GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL));
  int64_t const expect[5] = {1, 4, 3, 2, 0};
  uint8_t const expect_valid[5] = {1, 1, 1, 1, 0};
  gcol_test_assert_column_equals_host(gcol_table_get_view(out).columns[0], expect, expect_valid, 5);
  gcol_table_free(out);
  gcol_column_free(map);
  gcol_column_free(col);
}

/* The INT64-offsets path forced through a threshold one byte below the total, and INT32 at
 * exactly the total. Null rows are empty in the output, so the total counts valid rows only
 * (the reference gather empties them too): the switch happens at that exact byte. */
static void test_gather_offsets_threshold(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(207);
  for (int k = HK_STRING; k <= HK_LIST_STRING; ++k) {
    hcol *src = hcol_random(&rng, (hkind)k, GCOL_EMPTY, 300, GCOL_TEST_RANDOM_NULLS);
    int64_t rows[300];
    for (int i = 0; i < 300; ++i) rows[i] = 299 - i;
    hcol *expected = hcol_gather(src, rows, 300);
    int64_t const total = expected->offsets[300];
    gcol_column *input = hcol_to_device(src, k == HK_LIST_STRING, NULL);
    gcol_column_view const cv = gcol_column_get_view(input);
    gcol_table_view table;
    GCOL_TEST_OK(gcol_table_view_make(&cv, 1, &table));
    gcol_column *map = hcol_index_column(GCOL_INT64, rows, 300, NULL, NULL);
    for (int forced = 0; forced < 2; ++forced) {
      int64_t const previous = gcol_set_large_offsets_threshold(forced ? total - 1 : total);
      gcol_table *out = NULL;
      gcol_status const st =
          gcol_gather(table, gcol_column_get_view(map), GCOL_OUT_OF_BOUNDS_DONT_CHECK,
                      GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &out, NULL, NULL);
      gcol_set_large_offsets_threshold(previous);
      GCOL_TEST_OK(st);
      gcol_column_view const got = gcol_table_get_view(out).columns[0];
      assert_int_equal(got.children[GCOL_OFFSETS_CHILD].type.id, forced ? GCOL_INT64 : GCOL_INT32);
      hcol_assert_device_equal(expected, got, forced ? "INT64 offsets" : "INT32 offsets");
      gcol_table_free(out);
    }
    gcol_column_free(map);
    gcol_column_free(input);
    hcol_free(expected);
    hcol_free(src);
  }
}

/* ------------------------------------------------------------------ scatter */

/* Scatters `src` into `dst` by distinct random target rows (some negative, some out of range
 * and ignored) and checks against the reference: gather from target ++ source. */
static void check_scatter(gcol_test_rng *rng, const hcol *src, const hcol *dst, int64_t offset,
                          gcol_type_id index_type, const char *what) {
  int64_t const ns = src->size, nt = dst->size;
  int64_t *perm = (int64_t *)calloc((size_t)nt + 1, sizeof(int64_t));
  for (int64_t i = 0; i < nt; ++i) perm[i] = i;
  for (int64_t i = nt - 1; i > 0; --i) {
    int64_t const j = gcol_test_rng_range(rng, 0, i), tmp = perm[i];
    perm[i] = perm[j];
    perm[j] = tmp;
  }
  int64_t *map = (int64_t *)calloc((size_t)ns + 1, sizeof(int64_t));
  int64_t *rows = (int64_t *)calloc((size_t)nt + 1, sizeof(int64_t));
  for (int64_t t = 0; t < nt; ++t) rows[t] = t;
  bool const is_signed = gcol_type_is_signed_integral(index_type);
  for (int64_t k = 0; k < ns; ++k) {
    if (k >= nt) {
      map[k] = nt; /* out of range: ignored */
      continue;
    }
    int64_t const t = perm[k];
    map[k] = (is_signed && k % 2 == 1) ? t - nt : t;
    rows[t] = nt + k;
  }
  hcol *parts[2] = {(hcol *)dst, (hcol *)src};
  hcol *both = hcol_concat(parts, 2);
  hcol *expected = hcol_gather(both, rows, nt);
  gcol_column *src_owner = NULL, *dst_owner = NULL;
  gcol_column_view const sv = hcol_to_device_sliced(src, offset, false, rng, &src_owner);
  gcol_column_view const tv = hcol_to_device_sliced(dst, offset + 2, false, rng, &dst_owner);
  gcol_column *map_col = hcol_index_column(index_type, map, ns, NULL, NULL);
  gcol_table_view source, target;
  GCOL_TEST_OK(gcol_table_view_make(&sv, 1, &source));
  GCOL_TEST_OK(gcol_table_view_make(&tv, 1, &target));
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_scatter(source, gcol_column_get_view(map_col), target,
                            GCOL_OUT_OF_BOUNDS_DONT_CHECK, &out, NULL, NULL));
  hcol_assert_device_equal(expected, gcol_table_get_view(out).columns[0], what);
  gcol_table_free(out);
  if (ns > nt) { /* CHECK rejects the out-of-range indices */
    GCOL_TEST_STATUS(gcol_scatter(source, gcol_column_get_view(map_col), target,
                                  GCOL_OUT_OF_BOUNDS_CHECK, &out, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(out);
  }
  gcol_column_free(map_col);
  gcol_column_free(src_owner);
  gcol_column_free(dst_owner);
  hcol_free(expected);
  hcol_free(both);
  free(perm);
  free(map);
  free(rows);
}

static void test_scatter_every_kind(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(208);
  for (int k = HK_FIXED; k < HK_NUM_KINDS; ++k) {
    for (size_t s = 0; s < NUM_SIZES; ++s) {
      gcol_type_id const fixed = hcol_fixed_types[s % hcol_num_fixed_types];
      int64_t const nt = sizes[s];
      int64_t const ns = gcol_test_rng_range(&rng, 0, nt + 3);
      gcol_test_validity const p = (gcol_test_validity)((s + (size_t)k) % GCOL_TEST_NUM_VALIDITY);
      hcol *dst = hcol_random(&rng, (hkind)k, fixed, nt, p);
      hcol *src = hcol_random(&rng, (hkind)k, fixed, ns, (gcol_test_validity)((p + 2) % 6));
      if (k == HK_FIXED) src->type = dst->type;
      /* Small index types only where every target row (and nt itself) fits them. */
      gcol_type_id const index_type = nt < 120 ? hcol_index_types[s % hcol_num_index_types]
                                               : (s % 2 ? GCOL_INT32 : GCOL_UINT64);
      check_scatter(&rng, src, dst, gcol_test_offsets[s % gcol_test_num_offsets], index_type,
                    hkind_name((hkind)k));
      hcol_free(src);
      hcol_free(dst);
    }
  }
}

static void test_scatter_scalars(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(209);
  hcol *ints = hcol_random(&rng, HK_FIXED, GCOL_DECIMAL128, 70, GCOL_TEST_RANDOM_NULLS);
  hcol *strs = hcol_random(&rng, HK_STRING, GCOL_EMPTY, 70, GCOL_TEST_NO_MASK);
  gcol_column *c0 = hcol_to_device(ints, false, NULL), *c1 = hcol_to_device(strs, false, NULL);
  gcol_column_view views[2] = {gcol_column_get_view(c0), gcol_column_get_view(c1)};
  gcol_table_view target;
  GCOL_TEST_OK(gcol_table_view_make(views, 2, &target));
  gcol_int128 const v = {0x0123456789abcdefull, -5};
  gcol_scalar *dec = NULL, *str = NULL, *null_str = NULL;
  GCOL_TEST_OK(gcol_scalar_create_decimal(ints->type, v, &dec));
  GCOL_TEST_OK(gcol_scalar_create_string("h\xC3\xA9llo\0!", 8, &str));
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_STRING), &null_str));
  int64_t const idx[5] = {0, -1, 35, 69, 200}; /* 200: ignored */
  gcol_column *map = hcol_index_column(GCOL_INT16, idx, 5, NULL, NULL);
  for (int use_null = 0; use_null < 2; ++use_null) {
    const gcol_scalar *scalars[2] = {dec, use_null ? null_str : str};
    gcol_table *out = NULL;
    GCOL_TEST_OK(gcol_scatter_scalars(scalars, 2, gcol_column_get_view(map), target,
                                      GCOL_OUT_OF_BOUNDS_NULLIFY, &out, NULL, NULL));
    hcol *s0 = hcol_from_scalar(dec, 1), *s1 = hcol_from_scalar(scalars[1], 1);
    hcol *p0[2] = {ints, s0}, *p1[2] = {strs, s1};
    hcol *b0 = hcol_concat(p0, 2), *b1 = hcol_concat(p1, 2);
    int64_t rows[70];
    for (int i = 0; i < 70; ++i) rows[i] = (i == 0 || i == 69 || i == 35) ? 70 : i;
    hcol *e0 = hcol_gather(b0, rows, 70), *e1 = hcol_gather(b1, rows, 70);
    hcol_assert_device_equal(e0, gcol_table_get_view(out).columns[0], "decimal128 scalar");
    hcol_assert_device_equal(e1, gcol_table_get_view(out).columns[1], "string scalar");
    hcol_free(e0);
    hcol_free(e1);
    hcol_free(b0);
    hcol_free(b1);
    hcol_free(s0);
    hcol_free(s1);
    gcol_table_free(out);
    GCOL_TEST_STATUS(gcol_scatter_scalars(scalars, 2, gcol_column_get_view(map), target,
                                          GCOL_OUT_OF_BOUNDS_CHECK, &out, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(out);
  }
  gcol_column_free(map);
  gcol_scalar_free(dec);
  gcol_scalar_free(str);
  gcol_scalar_free(null_str);
  gcol_column_free(c0);
  gcol_column_free(c1);
  hcol_free(ints);
  hcol_free(strs);
}

/* ------------------------------------------------------------------ reverse, get_element */

static void test_reverse_every_kind(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(210);
  for (int k = HK_FIXED; k < HK_NUM_KINDS; ++k) {
    for (size_t s = 0; s < NUM_SIZES; ++s) {
      hcol *src = hcol_random(&rng, (hkind)k, hcol_fixed_types[(s * 5) % hcol_num_fixed_types],
                              sizes[s], (gcol_test_validity)(s % GCOL_TEST_NUM_VALIDITY));
      gcol_column *owner = NULL;
      gcol_column_view const view = hcol_to_device_sliced(
          src, gcol_test_offsets[s % gcol_test_num_offsets], false, &rng, &owner);
      gcol_table_view table;
      GCOL_TEST_OK(gcol_table_view_make(&view, 1, &table));
      gcol_table *out = NULL;
      GCOL_TEST_OK(gcol_reverse(table, &out, NULL, NULL));
      int64_t *rows = (int64_t *)calloc((size_t)sizes[s] + 1, sizeof(int64_t));
      for (int64_t i = 0; i < sizes[s]; ++i) rows[i] = sizes[s] - 1 - i;
      hcol *expected = hcol_gather(src, rows, sizes[s]);
      hcol_assert_device_equal(expected, gcol_table_get_view(out).columns[0], hkind_name((hkind)k));
      hcol_free(expected);
      free(rows);
      gcol_table_free(out);
      gcol_column_free(owner);
      hcol_free(src);
    }
  }
}

static void test_get_element(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(211);
  for (size_t t = 0; t < hcol_num_fixed_types; ++t) {
    hcol *src = hcol_random(&rng, HK_FIXED, hcol_fixed_types[t], 40, GCOL_TEST_RANDOM_NULLS);
    gcol_column *owner = NULL;
    gcol_column_view const view = hcol_to_device_sliced(src, 33, false, &rng, &owner);
    size_t const w = gcol_type_size(src->type.id);
    for (int64_t i = 0; i < 40; i += 3) {
      gcol_scalar *s = NULL;
      GCOL_TEST_OK(gcol_get_element(view, i, &s, NULL));
      assert_true(gcol_data_type_equal(s->type, src->type));
      assert_int_equal(s->is_valid, hcol_is_valid(src, i));
      if (s->is_valid) assert_memory_equal(gcol_scalar_get_storage(s), src->data + i * w, w);
      gcol_scalar_free(s);
    }
    gcol_column_free(owner);
    hcol_free(src);
  }
  const char *strings[4] = {"", NULL, "\0", "\xF0\x90\x8D\x88z"};
  int64_t const lengths[4] = {0, 0, 1, 5};
  hcol *src = hcol_strings(4, strings, lengths);
  gcol_column *owner = NULL;
  gcol_column_view const view = hcol_to_device_sliced(src, 5, false, &rng, &owner);
  for (int64_t i = 0; i < 4; ++i) {
    gcol_scalar *s = NULL;
    GCOL_TEST_OK(gcol_get_element(view, i, &s, NULL));
    assert_int_equal(s->type.id, GCOL_STRING);
    assert_int_equal(s->is_valid, strings[i] != NULL);
    if (s->is_valid) {
      assert_int_equal(s->string_size, lengths[i]);
      assert_memory_equal(s->string_data, strings[i], (size_t)lengths[i]);
    }
    gcol_scalar_free(s);
  }
  gcol_column_free(owner);
  hcol_free(src);
  hcol *list = hcol_random(&rng, HK_LIST_INT32, GCOL_EMPTY, 3, GCOL_TEST_NO_MASK);
  gcol_column *lc = hcol_to_device(list, false, NULL);
  gcol_scalar *s = NULL;
  GCOL_TEST_STATUS(gcol_get_element(gcol_column_get_view(lc), 0, &s, NULL), GCOL_ERROR_UNSUPPORTED);
  assert_null(s);
  gcol_column_free(lc);
  hcol_free(list);
}

/* ------------------------------------------------------------------ faults */

typedef struct fault_ctx {
  gcol_table_view table;
  gcol_column_view map;
  gcol_table_view target;
  int op;
} fault_ctx;

static gcol_status run_fault_op(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_table *out = (gcol_table *)c; /* must become NULL on failure */
  gcol_status st;
  if (c->op == 0) {
    st = gcol_gather(c->table, c->map, GCOL_OUT_OF_BOUNDS_NULLIFY, GCOL_NEGATIVE_INDEX_WRAP, &out,
                     NULL, NULL);
  } else if (c->op == 1) {
    st = gcol_scatter(c->table, c->map, c->target, GCOL_OUT_OF_BOUNDS_CHECK, &out, NULL, NULL);
  } else {
    st = gcol_reverse(c->table, &out, NULL, NULL);
  }
  if (st != GCOL_OK && out != NULL) fail_msg("op %d failed but left an output", c->op);
  gcol_table_free(out);
  return st;
}

static void test_fail_every_allocation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(212);
  hcol *cols[3] = {hcol_random(&rng, HK_STRING, GCOL_EMPTY, 300, GCOL_TEST_RANDOM_NULLS),
                   hcol_random(&rng, HK_STRUCT, GCOL_EMPTY, 300, GCOL_TEST_RANDOM_NULLS),
                   hcol_random(&rng, HK_LIST_STRING, GCOL_EMPTY, 300, GCOL_TEST_ALL_VALID)};
  gcol_column *dev[3];
  gcol_column_view views[3];
  for (int i = 0; i < 3; ++i) {
    dev[i] = hcol_to_device(cols[i], false, NULL);
    views[i] = gcol_column_get_view(dev[i]);
  }
  int64_t map[300];
  for (int i = 0; i < 300; ++i) map[i] = (i * 7919) % 300;
  gcol_column *map_col = hcol_index_column(GCOL_INT32, map, 300, NULL, NULL);
  fault_ctx ctx;
  GCOL_TEST_OK(gcol_table_view_make(views, 3, &ctx.table));
  ctx.target = ctx.table;
  ctx.map = gcol_column_get_view(map_col);
  for (ctx.op = 0; ctx.op < 3; ++ctx.op) {
    int const failures = hcol_fail_nth_loop(run_fault_op, &ctx, "gather/scatter/reverse");
    assert_true(failures > 3); /* several allocation points were exercised */
  }
  gcol_column_free(map_col);
  for (int i = 0; i < 3; ++i) {
    gcol_column_free(dev[i]);
    hcol_free(cols[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_gather_every_fixed_type),
      GCOL_TEST_GPU(test_gather_validity_patterns_and_offsets),
      GCOL_TEST_GPU(test_gather_nested_kinds),
      GCOL_TEST_GPU(test_gather_large_sizes),
      GCOL_TEST_GPU(test_gather_string_cases),
      GCOL_TEST_GPU(test_gather_index_types_and_negatives),
      GCOL_TEST_GPU(test_gather_check_policy),
      GCOL_TEST_GPU(test_gather_offsets_threshold),
      GCOL_TEST_GPU(test_scatter_every_kind),
      GCOL_TEST_GPU(test_scatter_scalars),
      GCOL_TEST_GPU(test_reverse_every_kind),
      GCOL_TEST_GPU(test_get_element),
      GCOL_TEST_GPU(test_fail_every_allocation),
  };
  return GCOL_TEST_RUN_GPU("copying_gather", tests);
}
