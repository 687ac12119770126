/*
 * GPU tests of gcol_copy_if_else (column/column, column/scalar, scalar/column),
 * gcol_copy_range and gcol_shift against the plain-C reference: every kind, BOOL8 masks with
 * nulls (null = false) at any offset, valid and null scalars, sliced inputs, fault injection.
 */
#include "copying_reference.h"

static const int64_t sizes[] = {0, 1, 7, 32, 33, 65, 257, 1000};
#define NUM_SIZES (sizeof sizes / sizeof sizes[0])

/* A random BOOL8 mask behind `offset` rows, with nulls; *take[i] = valid and true. */
static gcol_column_view random_bool_mask(gcol_test_rng *rng, int64_t n, int64_t offset,
                                         gcol_column **owner, uint8_t **take) {
  hcol *m = hcol_random(rng, HK_FIXED, GCOL_BOOL8, n, GCOL_TEST_RANDOM_NULLS);
  for (int64_t i = 0; i < n; ++i)
    m->data[i] = (uint8_t)gcol_test_rng_range(rng, 0, 1) * (uint8_t)(1 + i % 3);
  *take = (uint8_t *)calloc((size_t)n + 1, 1);
  for (int64_t i = 0; i < n; ++i) (*take)[i] = hcol_is_valid(m, i) && m->data[i] != 0;
  gcol_column_view const v = hcol_to_device_sliced(m, offset, false, rng, owner);
  hcol_free(m);
  return v;
}

/* Reference: rows of lhs where take, else rhs (a scalar side is one row, read always). */
static hcol *expected_select(const hcol *lhs, bool lhs_scalar, const hcol *rhs, bool rhs_scalar,
                             const uint8_t *take, int64_t n) {
  hcol *parts[2] = {(hcol *)lhs, (hcol *)rhs};
  hcol *both = hcol_concat(parts, 2);
  int64_t *rows = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) {
    rows[i] = take[i] ? (lhs_scalar ? 0 : i) : lhs->size + (rhs_scalar ? 0 : i);
  }
  hcol *out = hcol_gather(both, rows, n);
  free(rows);
  hcol_free(both);
  return out;
}

static void test_copy_if_else_columns(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(401);
  for (int k = HK_FIXED; k < HK_NUM_KINDS; ++k) {
    for (size_t s = 0; s < NUM_SIZES; ++s) {
      int64_t const n = sizes[s];
      gcol_type_id const fixed = hcol_fixed_types[(s * 7 + (size_t)k) % hcol_num_fixed_types];
      hcol *lhs = hcol_random(&rng, (hkind)k, fixed, n, (gcol_test_validity)(s % 6));
      hcol *rhs = hcol_random(&rng, (hkind)k, fixed, n, (gcol_test_validity)((s + 3) % 6));
      gcol_column *ol = NULL, *or_ = NULL, *om = NULL;
      uint8_t *take = NULL;
      gcol_column_view const lv =
          hcol_to_device_sliced(lhs, gcol_test_offsets[s % 9], false, &rng, &ol);
      gcol_column_view const rv =
          hcol_to_device_sliced(rhs, gcol_test_offsets[(s + 4) % 9], true, &rng, &or_);
      gcol_column_view const mv =
          random_bool_mask(&rng, n, gcol_test_offsets[(s + 2) % 9], &om, &take);
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_copy_if_else(lv, rv, mv, &out, NULL, NULL));
      hcol *expected = expected_select(lhs, false, rhs, false, take, n);
      hcol_assert_device_equal(expected, gcol_column_get_view(out), hkind_name((hkind)k));
      hcol_free(expected);
      gcol_column_free(out);
      free(take);
      gcol_column_free(ol);
      gcol_column_free(or_);
      gcol_column_free(om);
      hcol_free(lhs);
      hcol_free(rhs);
    }
  }
}

/* Column/scalar and scalar/column for fixed-width types and strings, valid and null. */
static void test_copy_if_else_scalars(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(402);
  for (size_t t = 0; t <= hcol_num_fixed_types; ++t) {
    bool const is_string = t == hcol_num_fixed_types;
    for (int null_scalar = 0; null_scalar < 2; ++null_scalar) {
      int64_t const n = sizes[(t + (size_t)null_scalar) % NUM_SIZES];
      hcol *col = is_string
                      ? hcol_random(&rng, HK_STRING, GCOL_EMPTY, n, GCOL_TEST_RANDOM_NULLS)
                      : hcol_random(&rng, HK_FIXED, hcol_fixed_types[t], n, GCOL_TEST_RANDOM_NULLS);
      gcol_scalar *scalar = NULL;
      if (null_scalar) {
        GCOL_TEST_OK(gcol_scalar_create_null(col->type, &scalar));
      } else if (is_string) {
        GCOL_TEST_OK(gcol_scalar_create_string("\xE2\x82\xAC\0x", 5, &scalar));
      } else {
        unsigned char bytes[16];
        gcol_test_rng_fill(&rng, bytes, sizeof bytes);
        if (col->type.id == GCOL_BOOL8) bytes[0] = 1;
        GCOL_TEST_OK(gcol_scalar_create_from_storage(col->type, bytes, &scalar));
      }
      hcol *one = hcol_from_scalar(scalar, 1);
      gcol_column *oc = NULL, *om = NULL;
      uint8_t *take = NULL;
      gcol_column_view const cv = hcol_to_device_sliced(col, 31, false, &rng, &oc);
      gcol_column_view const mv = random_bool_mask(&rng, n, 5, &om, &take);
      for (int scalar_left = 0; scalar_left < 2; ++scalar_left) {
        gcol_column *out = NULL;
        hcol *expected = NULL;
        if (scalar_left) {
          GCOL_TEST_OK(gcol_copy_if_else_scalar_column(scalar, cv, mv, &out, NULL, NULL));
          expected = expected_select(one, true, col, false, take, n);
        } else {
          GCOL_TEST_OK(gcol_copy_if_else_column_scalar(cv, scalar, mv, &out, NULL, NULL));
          expected = expected_select(col, false, one, true, take, n);
        }
        hcol_assert_device_equal(expected, gcol_column_get_view(out),
                                 is_string ? "string scalar" : gcol_type_name(col->type.id));
        hcol_free(expected);
        gcol_column_free(out);
      }
      free(take);
      gcol_column_free(oc);
      gcol_column_free(om);
      hcol_free(one);
      gcol_scalar_free(scalar);
      hcol_free(col);
    }
  }
}

static void test_copy_range_every_kind(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(403);
  for (int k = HK_FIXED; k < HK_NUM_KINDS; ++k) {
    for (size_t s = 0; s < NUM_SIZES; ++s) {
      int64_t const nt = sizes[s];
      int64_t const ns = gcol_test_rng_range(&rng, 0, 300);
      gcol_type_id const fixed = hcol_fixed_types[(s * 3 + (size_t)k) % hcol_num_fixed_types];
      hcol *target = hcol_random(&rng, (hkind)k, fixed, nt, (gcol_test_validity)(s % 6));
      hcol *source = hcol_random(&rng, (hkind)k, fixed, ns, (gcol_test_validity)((s + 1) % 6));
      int64_t const sb = gcol_test_rng_range(&rng, 0, ns);
      int64_t const max_len = ns - sb < nt ? ns - sb : nt;
      int64_t const len = gcol_test_rng_range(&rng, 0, max_len);
      int64_t const tb = gcol_test_rng_range(&rng, 0, nt - len);
      gcol_column *os = NULL, *ot = NULL;
      gcol_column_view const sv =
          hcol_to_device_sliced(source, gcol_test_offsets[s % 9], false, &rng, &os);
      gcol_column_view const tv =
          hcol_to_device_sliced(target, gcol_test_offsets[(s + 5) % 9], false, &rng, &ot);
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_copy_range(sv, sb, sb + len, tv, tb, &out, NULL, NULL));
      hcol *pieces[3] = {hcol_slice(target, 0, tb), hcol_slice(source, sb, sb + len),
                         hcol_slice(target, tb + len, nt)};
      hcol *expected = hcol_concat(pieces, 3);
      hcol_assert_device_equal(expected, gcol_column_get_view(out), hkind_name((hkind)k));
      hcol_free(expected);
      for (int p = 0; p < 3; ++p) hcol_free(pieces[p]);
      gcol_column_free(out);
      gcol_column_free(os);
      gcol_column_free(ot);
      hcol_free(target);
      hcol_free(source);
    }
  }
}

/* Shift by offsets of both signs, 0, and past the size; value fills for fixed-width and
 * strings, null fills for every kind. */
static void test_shift_every_kind(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(404);
  for (int k = HK_FIXED; k < HK_NUM_KINDS; ++k) {
    for (size_t s = 0; s < NUM_SIZES; ++s) {
      int64_t const n = sizes[s];
      hcol *input = hcol_random(&rng, (hkind)k, hcol_fixed_types[s % hcol_num_fixed_types], n,
                                (gcol_test_validity)(s % 6));
      gcol_column *owner = NULL;
      gcol_column_view const view =
          hcol_to_device_sliced(input, gcol_test_offsets[(s + 1) % 9], false, &rng, &owner);
      int64_t const shifts[7] = {0, 1, -1, 33, -65, n, -(n + 5)};
      for (int with_value = 0; with_value < 2; ++with_value) {
        if (with_value && k != HK_FIXED && k != HK_STRING) continue;
        gcol_scalar *fill = NULL;
        if (with_value && k == HK_STRING) {
          GCOL_TEST_OK(gcol_scalar_create_string("\xF4\x8F\xBF\xBF fill", 9, &fill));
        } else if (with_value) {
          unsigned char bytes[16];
          gcol_test_rng_fill(&rng, bytes, sizeof bytes);
          if (input->type.id == GCOL_BOOL8) bytes[0] = 1;
          GCOL_TEST_OK(gcol_scalar_create_from_storage(input->type, bytes, &fill));
        }
        for (int i = 0; i < 7; ++i) {
          int64_t const shift = shifts[i];
          gcol_column *out = NULL;
          GCOL_TEST_OK(gcol_shift(view, shift, fill, &out, NULL, NULL));
          int64_t *rows = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
          for (int64_t r = 0; r < n; ++r) {
            int64_t const from = r - shift;
            rows[r] = from >= 0 && from < n ? from : (fill != NULL ? n : -1);
          }
          hcol *expected;
          if (fill != NULL) {
            hcol *one = hcol_from_scalar(fill, 1);
            hcol *parts[2] = {input, one};
            hcol *both = hcol_concat(parts, 2);
            expected = hcol_gather(both, rows, n);
            hcol_free(both);
            hcol_free(one);
          } else {
            expected = hcol_gather(input, rows, n);
          }
          char context[96];
          snprintf(context, sizeof context, "%s shifted by %lld (%s fill)", hkind_name((hkind)k),
                   (long long)shift, fill != NULL ? "value" : "null");
          hcol_assert_device_equal(expected, gcol_column_get_view(out), context);
          hcol_free(expected);
          free(rows);
          gcol_column_free(out);
        }
        gcol_scalar_free(fill);
      }
      gcol_column_free(owner);
      hcol_free(input);
    }
  }
}

typedef struct fault_ctx {
  gcol_column_view lhs, rhs, mask;
  const gcol_scalar *fill;
  int op;
} fault_ctx;

static gcol_status run_fault_op(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column *out = (gcol_column *)c;
  gcol_status st;
  if (c->op == 0) {
    st = gcol_copy_if_else(c->lhs, c->rhs, c->mask, &out, NULL, NULL);
  } else if (c->op == 1) {
    st = gcol_copy_if_else_scalar_column(c->fill, c->rhs, c->mask, &out, NULL, NULL);
  } else if (c->op == 2) {
    st = gcol_copy_range(c->lhs, 3, 50, c->rhs, 10, &out, NULL, NULL);
  } else if (c->op == 3) {
    st = gcol_shift(c->lhs, 17, c->fill, &out, NULL, NULL);
  } else {
    st = gcol_shift(c->lhs, -17, NULL, &out, NULL, NULL);
  }
  if (st != GCOL_OK && out != NULL) fail_msg("op %d failed but left an output", c->op);
  gcol_column_free(out);
  return st;
}

static void test_fail_every_allocation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(405);
  hcol *l = hcol_random(&rng, HK_STRING, GCOL_EMPTY, 100, GCOL_TEST_RANDOM_NULLS);
  hcol *r = hcol_random(&rng, HK_STRING, GCOL_EMPTY, 100, GCOL_TEST_NO_MASK);
  gcol_column *ol = NULL, *or_ = NULL, *om = NULL;
  uint8_t *take = NULL;
  fault_ctx ctx;
  ctx.lhs = hcol_to_device_sliced(l, 3, false, &rng, &ol);
  ctx.rhs = hcol_to_device_sliced(r, 0, false, &rng, &or_);
  ctx.mask = random_bool_mask(&rng, 100, 1, &om, &take);
  gcol_scalar *fill = NULL;
  GCOL_TEST_OK(gcol_scalar_create_string("abc", 3, &fill));
  ctx.fill = fill;
  for (ctx.op = 0; ctx.op < 5; ++ctx.op) {
    int const failures = hcol_fail_nth_loop(run_fault_op, &ctx, "copy_if_else/copy_range/shift");
    assert_true(failures >= 2);
  }
  gcol_scalar_free(fill);
  free(take);
  gcol_column_free(ol);
  gcol_column_free(or_);
  gcol_column_free(om);
  hcol_free(l);
  hcol_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_copy_if_else_columns),  GCOL_TEST_GPU(test_copy_if_else_scalars),
      GCOL_TEST_GPU(test_copy_range_every_kind), GCOL_TEST_GPU(test_shift_every_kind),
      GCOL_TEST_GPU(test_fail_every_allocation),
  };
  return GCOL_TEST_RUN_GPU("copying_copy_if_else", tests);
}
