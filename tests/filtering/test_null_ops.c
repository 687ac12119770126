/*
 * GPU tests of include/gcol/null_ops.h against plain-C expectations: is_null / is_valid /
 * is_nan, replace_nulls (column, scalar, preceding, following) for every fixed-width type
 * and strings, bools_to_mask / mask_to_bools at any bit offset, bad input, allocation
 * failures.
 */
#include <math.h>

#include "filtering_reference.h"

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
static void expected_policy(const ref_column *c, int64_t off, int64_t n, gcol_replace_policy p,
                            int64_t *src) {
  if (p == GCOL_REPLACE_PRECEDING) {
    int64_t last = -1;
    for (int64_t i = 0; i < n; ++i) {
      if (c->valid[off + i]) last = i;
      src[i] = last;
    }
  } else {
    int64_t next = -1;
    for (int64_t i = n - 1; i >= 0; --i) {
      if (c->valid[off + i]) next = i;
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
    expected_policy(&in, off, n, (gcol_replace_policy)p, src);
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
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(602);
  static const int64_t sizes[] = {0, 1, 2, 33, 257, 4097};
  for (int id = GCOL_INT8; id <= GCOL_STRING; ++id) {
    if (id > GCOL_DECIMAL128 && id != GCOL_STRING) continue;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
        check_replace(&rng, (gcol_type_id)id, sizes[s],
                      gcol_test_offsets[(s + (size_t)v) % gcol_test_num_offsets],
                      (gcol_test_validity)v);
      }
    }
  }
  check_replace(&rng, GCOL_INT64, 1000003, 63, GCOL_TEST_RANDOM_NULLS);
  check_replace(&rng, GCOL_STRING, 100003, 5, GCOL_TEST_RANDOM_NULLS);
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
      } else {
        GCOL_TEST_OK(gcol_mask_to_bools((const uint32_t *)mask->data, 0, n, &back, NULL, NULL));
        uint8_t *got = read_bools(gcol_column_get_view(back));
        for (int64_t i = 0; i < n; ++i) {
          assert_int_equal(got[i], (c.valid[off + i] && c.values[off + i]) ? 1 : 0);
        }
        free(got);
        /* a sub-range starting mid-word */
        int64_t const b = n > 3 ? 3 : 0;
        GCOL_TEST_OK(gcol_mask_to_bools((const uint32_t *)mask->data, b, n, &back_off, NULL, NULL));
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
  GCOL_TEST_STATUS(gcol_mask_to_bools(NULL, 0, 4, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_is_null_is_valid_is_nan), GCOL_TEST_GPU(test_replace_nulls),
      GCOL_TEST_GPU(test_bools_mask_round_trip),   GCOL_TEST_GPU(test_bad_input),
      GCOL_TEST_GPU(test_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("null_ops", tests);
}
