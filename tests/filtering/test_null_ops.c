/*
 * GPU tests of include/gcol/null_ops.h against plain-C expectations: is_null / is_valid /
 * is_nan, replace_nulls (column, scalar, preceding, following) for every fixed-width type
 * and strings, replace_nulls (column, preceding, following) for LIST<INT32>,
 * STRUCT<INT64, STRING> and STRUCT<LIST<INT32>, INT64>, bools_to_mask / mask_to_bools at any bit
 * offset, bad input, allocation failures.
 */
#include <math.h>

#include "filtering_reference.h"
#include "gcol/copying.h"

static uint8_t *read_bools(gcol_column_view v) {
  uint8_t *out = (uint8_t *)malloc((size_t)(v.size > 0 ? v.size : 1));
  assert_int_equal(v.type.id, GCOL_BOOL8);
  if (v.size > 0) GCOL_TEST_OK(gcol_column_copy_to_host(v, out, NULL, NULL));
  return out;
}

static void test_is_null_is_valid_is_nan(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(601);
  gcol_type_id const ids[] = {GCOL_INT8, GCOL_FLOAT32, GCOL_FLOAT64, GCOL_DECIMAL128, GCOL_STRING};
  for (size_t t = 0; t < sizeof ids / sizeof ids[0]; ++t) {
    for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
      int64_t const n = gcol_test_sizes[s], off = gcol_test_offsets[s % gcol_test_num_offsets];
      for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
        ref_column c = ref_column_random(&rng, gcol_data_type_make(ids[t]), n + off,
                                         (gcol_test_validity)v, ids[t] == GCOL_STRING ? 0 : 5);
        gcol_column *d = NULL, *isnull = NULL, *isvalid = NULL;
        ref_column_to_device(&c, &d);
        gcol_column_view const view = ref_slice(gcol_column_get_view(d), off, off + n);
        GCOL_TEST_OK(gcol_is_null(view, &isnull, NULL, NULL));
        GCOL_TEST_OK(gcol_is_valid(view, &isvalid, NULL, NULL));
        assert_null(isnull->null_mask);
        uint8_t *a = read_bools(gcol_column_get_view(isnull));
        uint8_t *b = read_bools(gcol_column_get_view(isvalid));
        for (int64_t i = 0; i < n; ++i) {
          assert_int_equal(a[i], !c.valid[off + i]);
          assert_int_equal(b[i], c.valid[off + i] ? 1 : 0);
        }
        if (gcol_type_is_floating(ids[t])) {
          gcol_column *isnan_col = NULL;
          GCOL_TEST_OK(gcol_is_nan(view, &isnan_col, NULL, NULL));
          gcol_column_view const nv = gcol_column_get_view(isnan_col);
          assert_null(nv.null_mask);
          uint8_t *expected = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
          for (int64_t i = 0; i < n; ++i) {
            const uint8_t *p = c.values + (off + i) * c.width;
            if (ids[t] == GCOL_FLOAT32) {
              float f;
              memcpy(&f, p, 4);
              expected[i] = (isnan(f) && c.valid[off + i]) ? 1 : 0;
            } else {
              double dd;
              memcpy(&dd, p, 8);
              expected[i] = (isnan(dd) && c.valid[off + i]) ? 1 : 0;
            }
          }
          gcol_test_assert_column_equals_host(nv, expected, NULL, n);
          free(expected);
          gcol_column_free(isnan_col);
        }
        free(a);
        free(b);
        gcol_column_free(isnull);
        gcol_column_free(isvalid);
        gcol_column_free(d);
        ref_column_free(&c);
      }
    }
  }
}

/* Expected source row of each output row for the replace policies; -1 keeps the null. */
static void expected_policy(const uint8_t *valid, int64_t off, int64_t n, gcol_replace_policy p,
                            int64_t *src) {
  if (p == GCOL_REPLACE_PRECEDING) {
    int64_t last = -1;
    for (int64_t i = 0; i < n; ++i) {
      if (valid[off + i]) last = i;
      src[i] = last;
    }
  } else {
    int64_t next = -1;
    for (int64_t i = n - 1; i >= 0; --i) {
      if (valid[off + i]) next = i;
      src[i] = next;
    }
  }
}

/* Builds the expected column of replace_nulls from input / replacement rows. */
static ref_column merged(const ref_column *in, const ref_column *rep, int64_t off, int64_t n,
                         const int64_t *policy_src) {
  ref_column e;
  memset(&e, 0, sizeof e);
  e.type = in->type;
  e.size = n;
  e.width = in->width;
  e.valid = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
  if (in->type.id == GCOL_STRING) {
    e.strs = (char **)malloc((size_t)(n > 0 ? n : 1) * sizeof(char *));
    e.lens = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  } else {
    e.values = (uint8_t *)malloc((size_t)(n > 0 ? n : 1) * e.width);
  }
  for (int64_t i = 0; i < n; ++i) {
    const ref_column *from = in;
    int64_t row = off + i;
    if (!in->valid[off + i]) {
      if (policy_src != NULL) {
        row = policy_src[i] < 0 ? off + i : off + policy_src[i];
      } else {
        from = rep;
        row = rep->size == 1 ? 0 : off + i;
      }
    }
    e.valid[i] = from->valid[row];
    if (in->type.id == GCOL_STRING) {
      e.lens[i] = from->lens[row];
      e.strs[i] = (char *)malloc((size_t)e.lens[i] + 1);
      memcpy(e.strs[i], from->strs[row], (size_t)e.lens[i] + 1);
    } else {
      memcpy(e.values + i * e.width, from->values + row * e.width, e.width);
    }
  }
  return e;
}

static void check_replace(gcol_test_rng *rng, gcol_type_id id, int64_t n, int64_t off,
                          gcol_test_validity validity) {
  gcol_data_type const type = gcol_data_type_make(id);
  ref_column in = ref_column_random(rng, type, n + off, validity, 0);
  ref_column rep = ref_column_random(rng, type, n + off, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column one = ref_column_random(rng, type, 1, GCOL_TEST_NO_MASK, 0);
  int64_t *idx = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  int64_t *src = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) idx[i] = i;
  gcol_column *din = NULL, *drep = NULL, *out = NULL;
  ref_column_to_device(&in, &din);
  ref_column_to_device(&rep, &drep);
  gcol_column_view const vin = ref_slice(gcol_column_get_view(din), off, off + n);
  /* column */
  GCOL_TEST_OK(gcol_replace_nulls(vin, ref_slice(gcol_column_get_view(drep), off, off + n), &out,
                                  NULL, NULL));
  ref_column e = merged(&in, &rep, off, n, NULL);
  ref_assert_rows(gcol_column_get_view(out), &e, 0, idx, n);
  ref_column_free(&e);
  gcol_column_free(out);
  /* scalar */
  gcol_scalar *s = NULL;
  if (id == GCOL_STRING) {
    GCOL_TEST_OK(gcol_scalar_create_string(one.strs[0], one.lens[0], &s));
  } else {
    GCOL_TEST_OK(gcol_scalar_create_from_storage(type, one.values, &s));
  }
  GCOL_TEST_OK(gcol_replace_nulls_scalar(vin, s, &out, NULL, NULL));
  e = merged(&in, &one, off, n, NULL);
  ref_assert_rows(gcol_column_get_view(out), &e, 0, idx, n);
  ref_column_free(&e);
  gcol_column_free(out);
  gcol_scalar_free(s);
  /* policies */
  for (int p = 0; p < 2; ++p) {
    expected_policy(in.valid, off, n, (gcol_replace_policy)p, src);
    GCOL_TEST_OK(gcol_replace_nulls_policy(vin, (gcol_replace_policy)p, &out, NULL, NULL));
    e = merged(&in, NULL, off, n, src);
    ref_assert_rows(gcol_column_get_view(out), &e, 0, idx, n);
    ref_column_free(&e);
    gcol_column_free(out);
  }
  free(idx);
  free(src);
  gcol_column_free(din);
  gcol_column_free(drep);
  ref_column_free(&in);
  ref_column_free(&rep);
  ref_column_free(&one);
}

static void test_replace_nulls(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(602);
  static const int64_t sizes[] = {0, 1, 2, 33, 257, 4097};
  for (int id = GCOL_INT8; id <= GCOL_STRING; ++id) {
    if (!gcol_test_in_part(state, (size_t)id)) continue;
    if (id > GCOL_DECIMAL128 && id != GCOL_STRING) continue;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
        check_replace(&rng, (gcol_type_id)id, sizes[s],
                      gcol_test_offsets[(s + (size_t)v) % gcol_test_num_offsets],
                      (gcol_test_validity)v);
      }
    }
  }
  check_replace(&rng, GCOL_INT64, gcol_test_cap(1000003), 63, GCOL_TEST_RANDOM_NULLS);
  check_replace(&rng, GCOL_STRING, gcol_test_cap(100003), 5, GCOL_TEST_RANDOM_NULLS);
}

/* A device null mask from host validity bytes (through BOOL8 -> mask). */
static gcol_buffer *mask_from_valid(const uint8_t *valid, int64_t n, int64_t *nulls) {
  gcol_column *bools = NULL;
  gcol_buffer *mask = NULL;
  *nulls = 0;
  if (n == 0) return NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), n, valid, NULL, NULL,
                                            NULL, &bools));
  GCOL_TEST_OK(gcol_bools_to_mask(gcol_column_get_view(bools), &mask, nulls, NULL, NULL));
  gcol_column_free(bools);
  return mask;
}

typedef enum nested_kind { NESTED_LIST, NESTED_STRUCT, NESTED_STRUCT_OF_LIST } nested_kind;

/*
 * A random nested column of `rows` rows with row validity by `validity` (written to valid):
 * LIST<INT32> (0..4 values a row, also under null rows, values with their own nulls),
 * STRUCT<INT64, STRING> (fields with their own nulls) or STRUCT<LIST<INT32>, INT64>.
 */
static gcol_column *make_nested(gcol_test_rng *rng, nested_kind kind, int64_t rows,
                                gcol_test_validity validity, uint8_t *valid) {
  gcol_column *col = NULL;
  int64_t nulls = 0;
  gcol_test_fill_valid(rng, validity, valid, rows);
  gcol_buffer *mask = validity == GCOL_TEST_NO_MASK ? NULL : mask_from_valid(valid, rows, &nulls);
  if (kind == NESTED_LIST) {
    int32_t *offs = (int32_t *)malloc((size_t)(rows + 1) * sizeof(int32_t));
    offs[0] = 0;
    for (int64_t i = 0; i < rows; ++i)
      offs[i + 1] = offs[i] + (int32_t)gcol_test_rng_range(rng, 0, 4);
    ref_column values = ref_column_random(rng, gcol_data_type_make(GCOL_INT32), offs[rows],
                                          GCOL_TEST_RANDOM_NULLS, 0);
    gcol_column *d_offs = NULL, *d_values = NULL;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), rows + 1, offs, NULL,
                                              NULL, NULL, &d_offs));
    ref_column_to_device(&values, &d_values);
    GCOL_TEST_OK(gcol_column_make_list(rows, d_offs, d_values, mask, nulls, &col));
    ref_column_free(&values);
    free(offs);
  } else {
    uint8_t *field_valid = (uint8_t *)malloc((size_t)(rows > 0 ? rows : 1));
    ref_column f1 =
        ref_column_random(rng, gcol_data_type_make(GCOL_INT64), rows, GCOL_TEST_RANDOM_NULLS, 0);
    gcol_column *fields[2] = {NULL, NULL};
    if (kind == NESTED_STRUCT) {
      ref_column f0 =
          ref_column_random(rng, gcol_data_type_make(GCOL_STRING), rows, GCOL_TEST_RANDOM_NULLS, 0);
      ref_column_to_device(&f1, &fields[0]);
      ref_column_to_device(&f0, &fields[1]);
      ref_column_free(&f0);
    } else {
      fields[0] = make_nested(rng, NESTED_LIST, rows, GCOL_TEST_RANDOM_NULLS, field_valid);
      ref_column_to_device(&f1, &fields[1]);
    }
    GCOL_TEST_OK(gcol_column_make_struct(rows, fields, 2, mask, nulls, &col));
    ref_column_free(&f1);
    free(field_valid);
  }
  return col;
}

/*
 * Asserts actual == gather(source, map) with out-of-range entries nullified (the expected
 * column is gathered from the host-computed map), and that its validity is exactly
 * expected_valid (read straight, not through gather).
 */
static void assert_gathered(gcol_column_view actual, gcol_column_view source, const int64_t *map,
                            const uint8_t *expected_valid, int64_t n) {
  assert_int_equal(actual.size, n);
  assert_int_equal(actual.type.id, source.type.id);
  if (n == 0) return;
  gcol_column *d_map = NULL, *valid = NULL;
  gcol_table *expected = NULL;
  gcol_table_view t;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, map, NULL, NULL,
                                            NULL, &d_map));
  GCOL_TEST_OK(gcol_table_view_make(&source, 1, &t));
  GCOL_TEST_OK(gcol_gather(t, gcol_column_get_view(d_map), GCOL_OUT_OF_BOUNDS_NULLIFY,
                           GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &expected, NULL, NULL));
  gcol_test_assert_columns_equal(actual, gcol_table_get_view(expected).columns[0]);
  gcol_test_assert_null_count_consistent(actual);
  GCOL_TEST_OK(gcol_is_valid(actual, &valid, NULL, NULL));
  uint8_t *got = read_bools(gcol_column_get_view(valid));
  for (int64_t i = 0; i < n; ++i) assert_int_equal(got[i], expected_valid[i]);
  free(got);
  gcol_column_free(valid);
  gcol_table_free(expected);
  gcol_column_free(d_map);
}

/* replace_nulls (column) and both policies on one nested kind, size, offset and validity. */
static void check_replace_nested(gcol_test_rng *rng, nested_kind kind, int64_t n, int64_t off,
                                 gcol_test_validity validity) {
  int64_t const rows = n + off;
  size_t const bytes = (size_t)(rows > 0 ? rows : 1);
  uint8_t *in_valid = (uint8_t *)malloc(bytes), *rep_valid = (uint8_t *)malloc(bytes);
  uint8_t *expected_valid = (uint8_t *)malloc(bytes);
  int64_t *map = (int64_t *)malloc(bytes * sizeof(int64_t));
  int64_t *src = (int64_t *)malloc(bytes * sizeof(int64_t));
  gcol_column *din = make_nested(rng, kind, rows, validity, in_valid);
  gcol_column *drep = make_nested(rng, kind, rows, GCOL_TEST_RANDOM_NULLS, rep_valid);
  gcol_column *both = NULL, *out = NULL;
  gcol_column_view const vin = ref_slice(gcol_column_get_view(din), off, off + n);
  gcol_column_view const vrep = ref_slice(gcol_column_get_view(drep), off, off + n);
  /* column: the expected rows are gathered from [input | replacement] at i or n + i */
  gcol_column_view const sides[2] = {vin, vrep};
  GCOL_TEST_OK(gcol_concatenate(sides, 2, &both, NULL, NULL));
  for (int64_t i = 0; i < n; ++i) {
    bool const keep = in_valid[off + i] != 0;
    map[i] = keep ? i : n + i;
    expected_valid[i] = keep ? 1 : rep_valid[off + i];
  }
  GCOL_TEST_OK(gcol_replace_nulls(vin, vrep, &out, NULL, NULL));
  assert_gathered(gcol_column_get_view(out), gcol_column_get_view(both), map, expected_valid, n);
  gcol_column_free(out);
  /* policies: the source row of each output row, n (nullified) where there is none */
  for (int p = 0; p < 2; ++p) {
    expected_policy(in_valid, off, n, (gcol_replace_policy)p, src);
    for (int64_t i = 0; i < n; ++i) {
      map[i] = src[i] < 0 ? n : src[i];
      expected_valid[i] = src[i] >= 0;
    }
    GCOL_TEST_OK(gcol_replace_nulls_policy(vin, (gcol_replace_policy)p, &out, NULL, NULL));
    assert_gathered(gcol_column_get_view(out), vin, map, expected_valid, n);
    gcol_column_free(out);
  }
  gcol_column_free(both);
  gcol_column_free(din);
  gcol_column_free(drep);
  free(in_valid);
  free(rep_valid);
  free(expected_valid);
  free(map);
  free(src);
}

static void test_replace_nulls_nested(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(605);
  /* under the tools the largest size 1000 (racecheck 300): still several blocks and mask
   * words of parents, their children more */
  int64_t const sizes[] = {0, 1, 2, 33, 257, gcol_test_if_sparse(2000, gcol_test_cap(1000))};
  static const int64_t offsets[] = {0, 1, 33};
  for (int k = NESTED_LIST; k <= NESTED_STRUCT_OF_LIST; ++k) {
    if (!gcol_test_in_part(state, (size_t)k)) continue;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; ++o) {
        for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
          if (!gcol_test_keep_combination(s + o + (size_t)v)) continue;
          check_replace_nested(&rng, (nested_kind)k, sizes[s], offsets[o], (gcol_test_validity)v);
        }
      }
    }
  }
  /* under the tools each large case in its kind's part only (the plain run: in both parts) */
  if (gcol_test_if_sparse(1, gcol_test_in_part(state, NESTED_LIST))) {
    check_replace_nested(&rng, NESTED_LIST, gcol_test_cap(100003), 7, GCOL_TEST_RANDOM_NULLS);
  }
  if (gcol_test_if_sparse(1, gcol_test_in_part(state, NESTED_STRUCT))) {
    check_replace_nested(&rng, NESTED_STRUCT, gcol_test_cap(100003), 65, GCOL_TEST_RANDOM_NULLS);
  }
}

/* bools -> mask -> bools, at every slice offset; nulls in the bools read as false. */
static void test_bools_mask_round_trip(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(603);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
      int64_t const n = gcol_test_sizes[s], off = gcol_test_offsets[o];
      ref_column c = ref_column_random(&rng, gcol_data_type_make(GCOL_BOOL8), n + off,
                                       (gcol_test_validity)((s + o) % GCOL_TEST_NUM_VALIDITY), 0);
      gcol_column *d = NULL, *back = NULL, *back_off = NULL;
      gcol_buffer *mask = NULL;
      int64_t nulls = -1;
      ref_column_to_device(&c, &d);
      GCOL_TEST_OK(gcol_bools_to_mask(ref_slice(gcol_column_get_view(d), off, off + n), &mask,
                                      &nulls, NULL, NULL));
      int64_t expected_nulls = 0;
      for (int64_t i = 0; i < n; ++i) expected_nulls += !(c.valid[off + i] && c.values[off + i]);
      assert_int_equal(nulls, expected_nulls);
      if (n == 0) {
        assert_null(mask);
        /* the empty mask goes back in as it came out (NULL: no rows, or all valid) */
        GCOL_TEST_OK(gcol_mask_to_bools(gcol_bitmask_data(mask), 0, 0, &back, NULL, NULL));
        assert_int_equal(back->size, 0);
        gcol_column_free(back);
        back = NULL;
      } else {
        GCOL_TEST_OK(gcol_mask_to_bools(gcol_bitmask_data(mask), 0, n, &back, NULL, NULL));
        uint8_t *got = read_bools(gcol_column_get_view(back));
        for (int64_t i = 0; i < n; ++i) {
          assert_int_equal(got[i], (c.valid[off + i] && c.values[off + i]) ? 1 : 0);
        }
        free(got);
        /* a sub-range starting mid-word */
        int64_t const b = n > 3 ? 3 : 0;
        GCOL_TEST_OK(gcol_mask_to_bools(gcol_bitmask_data(mask), b, n, &back_off, NULL, NULL));
        got = read_bools(gcol_column_get_view(back_off));
        for (int64_t i = b; i < n; ++i) {
          assert_int_equal(got[i - b], (c.valid[off + i] && c.values[off + i]) ? 1 : 0);
        }
        free(got);
      }
      gcol_column_free(back);
      gcol_column_free(back_off);
      gcol_buffer_free(mask);
      gcol_column_free(d);
      ref_column_free(&c);
    }
  }
}

/* null_ops.h: gcol_mask_to_bools takes a view's mask as it is, NULL included (every row
 * valid), and gives the view's validity, as gcol_is_valid does. */
static void test_mask_to_bools_of_any_view(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(9301);
  int64_t const n = 200;
  for (int masked = 0; masked <= 1; ++masked) {
    ref_column c = ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), n,
                                     masked ? GCOL_TEST_RANDOM_NULLS : GCOL_TEST_NO_MASK, 0);
    gcol_column *d = NULL;
    ref_column_to_device(&c, &d);
    for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
      int64_t const off = gcol_test_offsets[o];
      if (off >= n) continue;
      gcol_column_view const v = ref_slice(gcol_column_get_view(d), off, n);
      gcol_column *bools = NULL, *valid = NULL;
      GCOL_TEST_OK(
          gcol_mask_to_bools(v.null_mask, v.offset, v.offset + v.size, &bools, NULL, NULL));
      GCOL_TEST_OK(gcol_is_valid(v, &valid, NULL, NULL));
      uint8_t *got = read_bools(gcol_column_get_view(bools));
      uint8_t *want = read_bools(gcol_column_get_view(valid));
      assert_int_equal(bools->size, n - off);
      for (int64_t i = 0; i < n - off; ++i) {
        assert_int_equal(got[i], want[i]);
        if (!masked) assert_int_equal(got[i], 1);
      }
      free(got);
      free(want);
      gcol_column_free(bools);
      gcol_column_free(valid);
    }
    gcol_column_free(d);
    ref_column_free(&c);
  }
}

static void test_bad_input(void **state) {
  (void)state;
  int64_t vals[4] = {1, 2, 3, 4};
  gcol_column *c = NULL, *c3 = NULL;
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 4, vals, NULL, NULL, NULL, &c));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 3, vals, NULL, NULL,
                                            NULL, &c3));
  gcol_column_view const v = gcol_column_get_view(c);
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_is_nan(v, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_is_null(v, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_replace_nulls(v, gcol_column_get_view(c3), &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_replace_nulls(v, ref_slice(v, 0, 3), &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_replace_nulls_scalar(v, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_replace_nulls_policy(v, (gcol_replace_policy)7, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_buffer *mask = (gcol_buffer *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_bools_to_mask(v, &mask, NULL, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_null(mask);
  GCOL_TEST_STATUS(gcol_mask_to_bools(NULL, 0, 4, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mask_to_bools((const uint32_t *)v.data, 5, 4, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_column_free(c);
  gcol_column_free(c3);
}

typedef struct alloc_ctx {
  gcol_column_view input, replacement;
  const gcol_scalar *value;
  int op;
  gcol_column *out;
} alloc_ctx;

static gcol_status alloc_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  c->out = NULL;
  switch (c->op) {
    case 0:
      return gcol_replace_nulls(c->input, c->replacement, &c->out, NULL, NULL);
    case 1:
      return gcol_replace_nulls_scalar(c->input, c->value, &c->out, NULL, NULL);
    case 2:
      return gcol_replace_nulls_policy(c->input, GCOL_REPLACE_FOLLOWING, &c->out, NULL, NULL);
    default:
      return gcol_is_valid(c->input, &c->out, NULL, NULL);
  }
}

static void alloc_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_column_free(c->out);
  c->out = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(604);
  int64_t const n = 2000;
  for (int t = 0; t < 2; ++t) {
    gcol_data_type const type = gcol_data_type_make(t == 0 ? GCOL_STRING : GCOL_FLOAT64);
    ref_column a = ref_column_random(&rng, type, n, GCOL_TEST_RANDOM_NULLS, 0);
    ref_column b = ref_column_random(&rng, type, n, GCOL_TEST_RANDOM_NULLS, 0);
    gcol_column *da = NULL, *db = NULL;
    ref_column_to_device(&a, &da);
    ref_column_to_device(&b, &db);
    gcol_scalar *s = NULL;
    if (t == 0) {
      GCOL_TEST_OK(gcol_scalar_create_string("zz", 2, &s));
    } else {
      GCOL_TEST_OK(gcol_scalar_create_float(type, 2.5, &s));
    }
    alloc_ctx ctx;
    ctx.input = ref_slice(gcol_column_get_view(da), 5, n);
    ctx.replacement = ref_slice(gcol_column_get_view(db), 5, n);
    ctx.value = s;
    ctx.out = NULL;
    for (int op = 0; op < 4; ++op) {
      ctx.op = op;
      assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
    }
    gcol_scalar_free(s);
    gcol_column_free(da);
    gcol_column_free(db);
    ref_column_free(&a);
    ref_column_free(&b);
  }
}

/* Allocation failures of the nested paths (copy_if_else and gather under them). */
static void test_nested_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(606);
  int64_t const n = 2000;
  uint8_t *valid = (uint8_t *)malloc((size_t)n);
  for (int k = NESTED_LIST; k <= NESTED_STRUCT_OF_LIST; ++k) {
    gcol_column *da = make_nested(&rng, (nested_kind)k, n, GCOL_TEST_RANDOM_NULLS, valid);
    gcol_column *db = make_nested(&rng, (nested_kind)k, n, GCOL_TEST_RANDOM_NULLS, valid);
    alloc_ctx ctx;
    ctx.input = ref_slice(gcol_column_get_view(da), 33, n);
    ctx.replacement = ref_slice(gcol_column_get_view(db), 33, n);
    ctx.value = NULL;
    ctx.out = NULL;
    ctx.op = 0;
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
    ctx.op = 2;
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
    gcol_column_free(da);
    gcol_column_free(db);
  }
  free(valid);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_is_null_is_valid_is_nan),
      GCOL_TEST_GPU_PART(test_replace_nulls, 0, 3),
      GCOL_TEST_GPU_PART(test_replace_nulls, 1, 3),
      GCOL_TEST_GPU_PART(test_replace_nulls, 2, 3),
      GCOL_TEST_GPU_PART(test_replace_nulls_nested, 0, 2),
      GCOL_TEST_GPU_PART(test_replace_nulls_nested, 1, 2),
      GCOL_TEST_GPU(test_bools_mask_round_trip),
      GCOL_TEST_GPU(test_mask_to_bools_of_any_view),
      GCOL_TEST_GPU(test_bad_input),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_nested_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("null_ops", tests);
}
