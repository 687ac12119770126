/*
 * GPU tests of include/gcol/filling.h against plain-C expectations: fill in place and out of
 * place (every fixed-width type, strings, valid and null values, slices), sequence (every
 * integer and float type, wrap-around), repeat by a count column and by a scalar (strings,
 * nulls), bad input, allocation failures.
 */
#include <math.h>

#include "filtering_reference.h"

static gcol_scalar *random_scalar(gcol_test_rng *rng, gcol_data_type type, bool valid) {
  gcol_scalar *s = NULL;
  if (!valid) {
    GCOL_TEST_OK(gcol_scalar_create_null(type, &s));
  } else if (type.id == GCOL_STRING) {
    GCOL_TEST_OK(
        gcol_scalar_create_string("\xE2\x82\xAC"
                                  "x\0y",
                                  6, &s));
  } else {
    uint8_t bytes[16];
    gcol_test_rng_fill(rng, bytes, sizeof bytes);
    if (type.id == GCOL_BOOL8) bytes[0] &= 1u;
    GCOL_TEST_OK(gcol_scalar_create_from_storage(type, bytes, &s));
  }
  return s;
}

/* Expected host column after filling [begin, end) of rows [off, off+n) with s. */
static ref_column expected_fill(const ref_column *src, int64_t off, int64_t n, int64_t begin,
                                int64_t end, const gcol_scalar *s) {
  ref_column e;
  memset(&e, 0, sizeof e);
  e.type = src->type;
  e.size = n;
  e.width = src->width;
  e.valid = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
  if (src->type.id == GCOL_STRING) {
    e.strs = (char **)malloc((size_t)(n > 0 ? n : 1) * sizeof(char *));
    e.lens = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  } else {
    e.values = (uint8_t *)malloc((size_t)(n > 0 ? n : 1) * e.width);
  }
  for (int64_t i = 0; i < n; ++i) {
    bool const inside = i >= begin && i < end;
    e.valid[i] = inside ? s->is_valid : src->valid[off + i];
    if (src->type.id == GCOL_STRING) {
      const char *p = inside ? (s->is_valid ? s->string_data : "") : src->strs[off + i];
      int64_t const len = inside ? (s->is_valid ? s->string_size : 0) : src->lens[off + i];
      e.strs[i] = (char *)malloc((size_t)len + 1);
      memcpy(e.strs[i], p, (size_t)len);
      e.lens[i] = len;
    } else {
      memcpy(e.values + i * e.width,
             inside ? gcol_scalar_get_storage(s) : src->values + (off + i) * e.width, e.width);
    }
  }
  return e;
}

static void check_fill(gcol_test_rng *rng, gcol_data_type type, int64_t n, int64_t off,
                       gcol_test_validity validity, bool value_valid) {
  ref_column src = ref_column_random(rng, type, n + off, validity, 0);
  int64_t const begin = n > 0 ? gcol_test_rng_range(rng, 0, n) : 0;
  int64_t const end = n > 0 ? gcol_test_rng_range(rng, begin, n) : 0;
  gcol_scalar *s = random_scalar(rng, type, value_valid);
  ref_column expected = expected_fill(&src, off, n, begin, end, s);
  int64_t *idx = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) idx[i] = i;
  gcol_column *d = NULL, *out = NULL;
  ref_column_to_device(&src, &d);
  GCOL_TEST_OK(
      gcol_fill(ref_slice(gcol_column_get_view(d), off, off + n), begin, end, s, &out, NULL, NULL));
  ref_assert_rows(gcol_column_get_view(out), &expected, 0, idx, n);
  gcol_column_free(out);
  /* in place, on the parent column's rows [off, off + n) */
  if (type.id != GCOL_STRING && (value_valid || d->null_mask != NULL)) {
    /* twice: through a view (its count follows; the column's is the caller's to set), then
     * through the column itself (its count follows, nothing to set) */
    for (int form = 0; form < 2; ++form) {
      int64_t const before = d->null_count;
      int64_t got_nulls = 0;
      if (form == 0) {
        gcol_mutable_column_view mv;
        GCOL_TEST_OK(gcol_column_get_mutable_view(d, NULL, &mv));
        GCOL_TEST_OK(gcol_fill_in_place_view(&mv, off + begin, off + end, s, NULL));
        assert_int_equal(d->null_count, before); /* the view's count only */
        got_nulls = mv.null_count;
      } else {
        GCOL_TEST_OK(gcol_fill_in_place(d, off + begin, off + end, s, NULL));
        got_nulls = d->null_count;
      }
      if (d->null_mask != NULL) {
        int64_t expected_nulls = 0;
        for (int64_t i = 0; i < n + off; ++i) {
          bool const inside = i >= off + begin && i < off + end;
          expected_nulls += inside ? !s->is_valid : !src.valid[i];
        }
        assert_int_equal(got_nulls, expected_nulls);
        if (form == 0) GCOL_TEST_OK(gcol_column_set_null_count(d, got_nulls));
        int64_t counted = 0; /* the column's count is the mask's */
        GCOL_TEST_OK(gcol_column_view_null_count(ref_slice(gcol_column_get_view(d), 0, n + off),
                                                 NULL, &counted));
        assert_int_equal(counted, expected_nulls);
      } else {
        assert_int_equal(got_nulls, before);
      }
      ref_assert_rows(ref_slice(gcol_column_get_view(d), off, off + n), &expected, 0, idx, n);
    }
  }
  free(idx);
  gcol_column_free(d);
  gcol_scalar_free(s);
  ref_column_free(&src);
  ref_column_free(&expected);
}

static void test_fill_every_type(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(501);
  static const int64_t sizes[] = {0, 1, 31, 33, 257, 4097};
  static const int64_t offsets[] = {0, 1, 33, 65};
  for (int id = GCOL_INT8; id <= GCOL_STRING; ++id) {
    if (!gcol_test_in_part(state, (size_t)id)) continue;
    if (id > GCOL_DECIMAL128 && id != GCOL_STRING) continue;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; ++o) {
        for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
          if (!gcol_test_keep_combination(s + o + (size_t)v)) continue;
          check_fill(&rng, gcol_data_type_make((gcol_type_id)id), sizes[s], offsets[o],
                     (gcol_test_validity)v, (v + (int)s) % 3 != 0);
        }
      }
    }
  }
  check_fill(&rng, gcol_data_type_make(GCOL_INT64), gcol_test_cap(1000003), 7, GCOL_TEST_RANDOM_NULLS, true);
}

/* sequence: integers wrap modulo 2^width; floats with separate roundings. */
static void test_sequence(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(502);
  static const int64_t sizes[] = {0, 1, 2, 257, 100003};
  for (int id = GCOL_INT8; id <= GCOL_FLOAT64; ++id) {
    gcol_data_type const type = gcol_data_type_make((gcol_type_id)id);
    size_t const w = gcol_type_size(type.id);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      if (gcol_test_cap(sizes[s]) < sizes[s]) break;
      int64_t const n = sizes[s];
      gcol_scalar *init = NULL, *step = NULL;
      uint64_t a = gcol_test_rng_next(&rng), b = gcol_test_rng_next(&rng);
      if (id == GCOL_FLOAT32) {
        GCOL_TEST_OK(gcol_scalar_create_float(type, -12.75, &init));
        GCOL_TEST_OK(gcol_scalar_create_float(type, 0.1, &step));
      } else if (id == GCOL_FLOAT64) {
        GCOL_TEST_OK(gcol_scalar_create_float(type, 1e10, &init));
        GCOL_TEST_OK(gcol_scalar_create_float(type, -0.3, &step));
      } else {
        GCOL_TEST_OK(gcol_scalar_create_from_storage(type, &a, &init));
        GCOL_TEST_OK(gcol_scalar_create_from_storage(type, &b, &step));
      }
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_sequence(n, init, step, &out, NULL, NULL));
      assert_int_equal(out->size, n);
      assert_null(out->null_mask);
      uint8_t *got = (uint8_t *)malloc((size_t)(n > 0 ? n : 1) * w);
      if (n > 0) GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), got, NULL, NULL));
      for (int64_t i = 0; i < n; ++i) {
        if (id == GCOL_FLOAT32) {
          volatile float prod = (float)i * step->value.f32;
          float const e = init->value.f32 + prod;
          float g;
          memcpy(&g, got + i * 4, 4);
          if (memcmp(&g, &e, 4) != 0) fail_msg("row %lld: %.9g, expected %.9g", (long long)i, g, e);
        } else if (id == GCOL_FLOAT64) {
          volatile double prod = (double)i * step->value.f64;
          double const e = init->value.f64 + prod;
          double g;
          memcpy(&g, got + i * 8, 8);
          if (memcmp(&g, &e, 8) != 0)
            fail_msg("row %lld: %.17g, expected %.17g", (long long)i, g, e);
        } else {
          uint64_t const e = a + (uint64_t)i * b; /* low bytes are the wrapped value */
          if (memcmp(got + i * w, &e, w) != 0) fail_msg("row %lld differs", (long long)i);
        }
      }
      free(got);
      gcol_column_free(out);
      gcol_scalar_free(init);
      gcol_scalar_free(step);
    }
  }
}

static void check_repeat(gcol_test_rng *rng, int64_t n, int64_t off, bool scalar) {
  int64_t const total = n + off;
  ref_column a =
      ref_column_random(rng, gcol_data_type_make(GCOL_INT16), total, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column b =
      ref_column_random(rng, gcol_data_type_make(GCOL_STRING), total, GCOL_TEST_RANDOM_NULLS, 0);
  uint8_t *counts = (uint8_t *)malloc((size_t)(total > 0 ? total : 1));
  int64_t const k = gcol_test_rng_range(rng, 0, 4);
  int64_t out_rows = 0;
  for (int64_t i = 0; i < total; ++i) counts[i] = (uint8_t)gcol_test_rng_range(rng, 0, 3);
  for (int64_t i = 0; i < n; ++i) out_rows += scalar ? k : counts[off + i];
  int64_t *idx = (int64_t *)malloc((size_t)(out_rows > 0 ? out_rows : 1) * sizeof(int64_t));
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t const c = scalar ? k : counts[off + i];
    for (int64_t r = 0; r < c; ++r) idx[j++] = i;
  }
  gcol_column *da = NULL, *db = NULL, *dc = NULL;
  ref_column_to_device(&a, &da);
  ref_column_to_device(&b, &db);
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_UINT8), total, counts, NULL,
                                            NULL, NULL, &dc));
  gcol_column_view cols[2] = {ref_slice(gcol_column_get_view(da), off, off + n),
                              ref_slice(gcol_column_get_view(db), off, off + n)};
  gcol_table_view input;
  GCOL_TEST_OK(gcol_table_view_make(cols, 2, &input));
  gcol_table *out = NULL;
  if (scalar) {
    GCOL_TEST_OK(gcol_repeat_scalar(input, k, &out, NULL, NULL));
  } else {
    GCOL_TEST_OK(
        gcol_repeat(input, ref_slice(gcol_column_get_view(dc), off, off + n), &out, NULL, NULL));
  }
  gcol_table_view const r = gcol_table_get_view(out);
  ref_assert_rows(r.columns[0], &a, off, idx, out_rows);
  ref_assert_rows(r.columns[1], &b, off, idx, out_rows);
  gcol_table_free(out);
  gcol_column_free(da);
  gcol_column_free(db);
  gcol_column_free(dc);
  free(idx);
  free(counts);
  ref_column_free(&a);
  ref_column_free(&b);
}

static void test_repeat(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(503);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    int64_t const off = gcol_test_offsets[s % gcol_test_num_offsets];
    check_repeat(&rng, gcol_test_sizes[s], off, false);
    check_repeat(&rng, gcol_test_sizes[s], off, true);
  }
}

static void test_bad_input(void **state) {
  (void)state;
  int64_t vals[4] = {1, 2, 3, 4};
  int64_t neg[4] = {1, -2, 3, 4};
  int64_t huge[4] = {1, INT64_MAX / 2, 3, 4};
  gcol_column *c = NULL, *cn = NULL, *ch = NULL;
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 4, vals, NULL, NULL, NULL, &c));
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 4, neg, NULL, NULL, NULL, &cn));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 4, huge, NULL, NULL,
                                            NULL, &ch));
  gcol_scalar *i32 = NULL, *i64 = NULL, *null64 = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 5, &i32));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), 5, &i64));
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_INT64), &null64));
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_column_view v = gcol_column_get_view(c);
  GCOL_TEST_STATUS(gcol_fill(v, 0, 2, i32, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_fill(v, 3, 2, i64, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_fill(v, 0, 5, i64, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_fill(v, 0, 1, NULL, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_mutable_column_view mv;
  GCOL_TEST_OK(gcol_column_get_mutable_view(c, NULL, &mv));
  GCOL_TEST_STATUS(gcol_fill_in_place_view(&mv, 0, 2, null64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "null mask"));
  GCOL_TEST_STATUS(gcol_fill_in_place_view(NULL, 0, 2, i64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_fill_in_place(c, 0, 2, null64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "null mask"));
  GCOL_TEST_STATUS(gcol_fill_in_place(NULL, 0, 2, i64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_sequence(-1, i64, i64, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_sequence(3, i64, i32, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_sequence(3, null64, null64, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&v, 1, &t));
  gcol_table *tout = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_repeat_scalar(t, -1, &tout, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(tout);
  GCOL_TEST_STATUS(gcol_repeat_scalar(t, INT64_MAX / 2, &tout, NULL, NULL), GCOL_ERROR_OVERFLOW);
  GCOL_TEST_STATUS(gcol_repeat(t, gcol_column_get_view(cn), &tout, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_repeat(t, gcol_column_get_view(ch), &tout, NULL, NULL),
                   GCOL_ERROR_OVERFLOW);
  GCOL_TEST_STATUS(gcol_repeat(t, ref_slice(v, 0, 3), &tout, NULL, NULL), GCOL_ERROR_SIZE_MISMATCH);
  assert_null(tout);
  gcol_scalar_free(i32);
  gcol_scalar_free(i64);
  gcol_scalar_free(null64);
  gcol_column_free(c);
  gcol_column_free(cn);
  gcol_column_free(ch);
}

typedef struct alloc_ctx {
  gcol_column_view col;
  gcol_table_view table;
  gcol_column_view counts;
  const gcol_scalar *value;
  int op;
  gcol_column *out;
  gcol_table *tout;
} alloc_ctx;

static gcol_status alloc_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  c->out = NULL;
  c->tout = NULL;
  switch (c->op) {
    case 0:
      return gcol_fill(c->col, 3, 400, c->value, &c->out, NULL, NULL);
    case 1:
      return gcol_repeat(c->table, c->counts, &c->tout, NULL, NULL);
    default:
      return gcol_repeat_scalar(c->table, 3, &c->tout, NULL, NULL);
  }
}

static void alloc_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_column_free(c->out);
  gcol_table_free(c->tout);
  c->out = NULL;
  c->tout = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(504);
  int64_t const n = 1000;
  ref_column s =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), n, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column i =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), n, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column counts =
      ref_column_random(&rng, gcol_data_type_make(GCOL_UINT8), n, GCOL_TEST_NO_MASK, 3);
  gcol_column *ds = NULL, *di = NULL, *dc = NULL;
  ref_column_to_device(&s, &ds);
  ref_column_to_device(&i, &di);
  ref_column_to_device(&counts, &dc);
  gcol_scalar *str = NULL, *num = NULL;
  GCOL_TEST_OK(gcol_scalar_create_string("fill", 4, &str));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 7, &num));
  gcol_column_view cols[2] = {gcol_column_get_view(ds), gcol_column_get_view(di)};
  alloc_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  GCOL_TEST_OK(gcol_table_view_make(cols, 2, &ctx.table));
  ctx.counts = gcol_column_get_view(dc);
  for (int op = 0; op < 3; ++op) {
    ctx.op = op;
    ctx.col = cols[0];
    ctx.value = str;
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  }
  ctx.op = 0;
  ctx.col = cols[1];
  ctx.value = num;
  assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  gcol_scalar_free(str);
  gcol_scalar_free(num);
  gcol_column_free(ds);
  gcol_column_free(di);
  gcol_column_free(dc);
  ref_column_free(&s);
  ref_column_free(&i);
  ref_column_free(&counts);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_fill_every_type, 0, 3),
      GCOL_TEST_GPU_PART(test_fill_every_type, 1, 3),
      GCOL_TEST_GPU_PART(test_fill_every_type, 2, 3),
      GCOL_TEST_GPU(test_sequence),
      GCOL_TEST_GPU(test_repeat),
      GCOL_TEST_GPU(test_bad_input),
      GCOL_TEST_GPU(test_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("filling", tests);
}
