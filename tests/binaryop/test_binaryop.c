/*
 * GPU tests of binary operations: every operator x every accepted numeric type pair against
 * the plain-C reference (exact, except float POW within 2 ulp), nulls and null-aware ops,
 * scalars (valid and null) on either side, slices, sizes, the fast path, decimals,
 * timestamps/durations, string comparisons, and allocation failure at every point.
 */
#include <math.h>

#include "binary_reference.h"
#include "ops_support.h"

static const gcol_type_id numeric_ids[] = {GCOL_INT8,   GCOL_INT16,   GCOL_INT32,  GCOL_INT64,
                                           GCOL_UINT8,  GCOL_UINT16,  GCOL_UINT32, GCOL_UINT64,
                                           GCOL_FLOAT32, GCOL_FLOAT64, GCOL_BOOL8};
#define NUM_NUMERIC (sizeof numeric_ids / sizeof numeric_ids[0])

/* Compares a device result with the reference, row by row. */
static void check_against_reference(gcol_binary_op op, const ops_host_col *l, bool l_scalar,
                                    const ops_host_col *r, bool r_scalar, gcol_data_type out_type,
                                    gcol_column_view result, int64_t n) {
  assert_int_equal(result.size, n);
  assert_int_equal(result.type.id, out_type.id);
  unsigned char *data = NULL;
  uint8_t *valid = NULL;
  ops_download(result, &data, &valid);
  size_t const w = gcol_type_size(out_type.id);
  for (int64_t i = 0; i < n; ++i) {
    unsigned char want[16];
    bool want_valid = false, approx = false;
    ref_binary_numeric(op, l, l_scalar ? 0 : i, r, r_scalar ? 0 : i, out_type, want, &want_valid,
                       &approx);
    if ((valid[i] != 0) != want_valid) {
      fail_msg("%s(%s, %s) row %lld: validity %d, expected %d", gcol_binary_op_name(op),
               gcol_type_name(l->type.id), gcol_type_name(r->type.id), (long long)i, valid[i],
               want_valid);
    }
    if (!want_valid) continue;
    const unsigned char *got = data + (size_t)i * w;
    /* Exact bytes (so the sign of a zero counts: min(-0, +0) is -0) or two NaNs, whatever
     * their payloads; POW within its ulp bound. */
    bool same = memcmp(got, want, w) == 0;
    if (!same && out_type.id == GCOL_FLOAT64) {
      double g, e;
      memcpy(&g, got, 8);
      memcpy(&e, want, 8);
      same = approx ? ops_ulp_f64(g, e) <= 2 : (isnan(g) && isnan(e));
    } else if (!same && out_type.id == GCOL_FLOAT32) {
      float g, e;
      memcpy(&g, got, 4);
      memcpy(&e, want, 4);
      same = approx ? ops_ulp_f32(g, e) <= 1 : (isnan(g) && isnan(e));
    }
    if (!same) {
      fail_msg("%s(%s, %s) -> %s row %lld: lhs %.17g rhs %.17g, bytes differ", gcol_binary_op_name(op),
               gcol_type_name(l->type.id), gcol_type_name(r->type.id), gcol_type_name(out_type.id),
               (long long)i, ops_get_f64(l, l_scalar ? 0 : i), ops_get_f64(r, r_scalar ? 0 : i));
    }
  }
  free(data);
  free(valid);
}

/* Random POW exponents stay small so results are not all 0 or overflow. */
static void tame_for_op(gcol_binary_op op, ops_host_col *r, gcol_test_rng *rng) {
  if (op != GCOL_BINARY_POW || gcol_type_is_floating(r->type.id)) return;
  size_t const w = gcol_type_size(r->type.id);
  for (int64_t i = 0; i < r->size; ++i) {
    int64_t const e = gcol_test_rng_range(rng, -3, 70);
    memcpy(r->data + (size_t)i * w, &e, w);
    if (r->type.id == GCOL_BOOL8) r->data[i] &= 1;
  }
}

static void run_pair(gcol_binary_op op, gcol_type_id lid, gcol_type_id rid, int64_t n,
                     int64_t offset, gcol_test_rng *rng, int round) {
  gcol_data_type const lt = gcol_data_type_make(lid), rt = gcol_data_type_make(rid);
  gcol_data_type out_type;
  if (gcol_binary_op_output_type(lt, rt, op, &out_type) != GCOL_OK) return;
  ops_host_col l = ops_host_random(rng, lt, n, (gcol_test_validity)(round % GCOL_TEST_NUM_VALIDITY));
  ops_host_col r = ops_host_random(rng, rt, n, (gcol_test_validity)((round / 3) % GCOL_TEST_NUM_VALIDITY));
  tame_for_op(op, &r, rng);
  gcol_column_view lv, rv;
  gcol_column *lc = ops_upload(&l, offset, &lv);
  gcol_column *rc = ops_upload(&r, (offset * 3) % 67, &rv);
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_binary_operation(lv, rv, op, out_type, &out, NULL, NULL));
  check_against_reference(op, &l, false, &r, false, out_type, gcol_column_get_view(out), n);
  gcol_column_free(out);
  gcol_column_free(lc);
  gcol_column_free(rc);
  ops_host_free(&l);
  ops_host_free(&r);
}

/* Every operator x every numeric pair, with random nulls and slice offsets. */
static void every_op_every_numeric_pair(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(701);
  int round = 0;
  for (int op = 0; op < GCOL_NUM_BINARY_OPS; ++op) {
    if (!gcol_test_in_part(state, (size_t)op)) continue;
    for (size_t a = 0; a < NUM_NUMERIC; ++a) {
      for (size_t b = 0; b < NUM_NUMERIC; ++b) {
        int64_t const offset = gcol_test_offsets[(size_t)round % gcol_test_num_offsets];
        /* under the tools every other (op, left, right): each op still meets every left and
         * right type, each pair half the ops, at 300 rows (past a block); round still counts
         * skipped pairs, so validity and offsets rotate as in the plain run */
        if (gcol_test_keep_combination((size_t)op + a + b)) {
          run_pair((gcol_binary_op)op, numeric_ids[a], numeric_ids[b], 300, offset, &rng, round);
        }
        ++round;
      }
    }
  }
}

/* Outputs other than the natural one: wrapping to narrower integers, ints to floats. */
static void chosen_output_types(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(702);
  struct { gcol_binary_op op; gcol_type_id l, r, out; } const cases[] = {
      {GCOL_BINARY_ADD, GCOL_INT64, GCOL_INT64, GCOL_INT8},
      {GCOL_BINARY_MUL, GCOL_INT32, GCOL_INT32, GCOL_FLOAT64},
      {GCOL_BINARY_MUL, GCOL_UINT64, GCOL_UINT64, GCOL_FLOAT32},
      {GCOL_BINARY_SUB, GCOL_UINT8, GCOL_UINT8, GCOL_INT64},
      {GCOL_BINARY_TRUE_DIV, GCOL_INT64, GCOL_INT8, GCOL_FLOAT32},
      {GCOL_BINARY_ADD, GCOL_FLOAT64, GCOL_FLOAT64, GCOL_FLOAT32},
      {GCOL_BINARY_BITWISE_XOR, GCOL_INT16, GCOL_UINT32, GCOL_BOOL8},
      {GCOL_BINARY_NULL_MAX, GCOL_INT64, GCOL_UINT64, GCOL_UINT16},
      {GCOL_BINARY_SHIFT_LEFT, GCOL_INT32, GCOL_INT32, GCOL_INT64},
      /* BOOL8 outputs where an integer output is accepted: result != 0 */
      {GCOL_BINARY_NULL_MIN, GCOL_BOOL8, GCOL_BOOL8, GCOL_BOOL8},
      {GCOL_BINARY_NULL_MAX, GCOL_INT32, GCOL_BOOL8, GCOL_BOOL8},
      {GCOL_BINARY_ADD, GCOL_INT32, GCOL_INT32, GCOL_BOOL8},
      {GCOL_BINARY_MUL, GCOL_UINT8, GCOL_INT16, GCOL_BOOL8},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    gcol_data_type const lt = gcol_data_type_make(cases[k].l), rt = gcol_data_type_make(cases[k].r);
    gcol_data_type const ot = gcol_data_type_make(cases[k].out);
    ops_host_col l = ops_host_random(&rng, lt, 1000, GCOL_TEST_RANDOM_NULLS);
    ops_host_col r = ops_host_random(&rng, rt, 1000, GCOL_TEST_NO_MASK);
    gcol_column_view lv, rv;
    gcol_column *lc = ops_upload(&l, 5, &lv), *rc = ops_upload(&r, 0, &rv);
    gcol_column *out = NULL;
    GCOL_TEST_OK(gcol_binary_operation(lv, rv, cases[k].op, ot, &out, NULL, NULL));
    check_against_reference(cases[k].op, &l, false, &r, false, ot, gcol_column_get_view(out), 1000);
    gcol_column_free(out);
    gcol_column_free(lc);
    gcol_column_free(rc);
    ops_host_free(&l);
    ops_host_free(&r);
  }
}

/* Scalars on either side, valid and null, for every operator. */
static void scalar_operands(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(703);
  gcol_type_id const pairs[][2] = {{GCOL_INT32, GCOL_INT64}, {GCOL_FLOAT64, GCOL_INT8},
                                   {GCOL_UINT64, GCOL_UINT8}, {GCOL_INT64, GCOL_INT64},
                                   {GCOL_FLOAT32, GCOL_FLOAT32}, {GCOL_BOOL8, GCOL_BOOL8}};
  for (int op = 0; op < GCOL_NUM_BINARY_OPS; ++op) {
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
      for (int side = 0; side < 2; ++side) {
        for (int scalar_null = 0; scalar_null < 2; ++scalar_null) {
          gcol_data_type const ct = gcol_data_type_make(pairs[p][side]);
          gcol_data_type const st = gcol_data_type_make(pairs[p][1 - side]);
          gcol_data_type const lt = side == 0 ? ct : st, rt = side == 0 ? st : ct;
          gcol_data_type out_type;
          if (gcol_binary_op_output_type(lt, rt, (gcol_binary_op)op, &out_type) != GCOL_OK) continue;
          ops_host_col col = ops_host_random(&rng, ct, 513, GCOL_TEST_RANDOM_NULLS);
          ops_host_col sc = ops_host_random(&rng, st, 1, GCOL_TEST_NO_MASK);
          tame_for_op((gcol_binary_op)op, side == 0 ? &sc : &col, &rng);
          uint8_t scalar_valid = (uint8_t)!scalar_null;
          sc.valid = (uint8_t *)malloc(1);
          sc.valid[0] = scalar_valid;
          gcol_scalar *s = NULL;
          if (scalar_null) {
            GCOL_TEST_OK(gcol_scalar_create_null(st, &s));
          } else {
            GCOL_TEST_OK(gcol_scalar_create_from_storage(st, sc.data, &s));
          }
          gcol_column_view cv;
          gcol_column *cc = ops_upload(&col, 33, &cv);
          gcol_column *out = NULL;
          if (side == 0) {
            GCOL_TEST_OK(gcol_binary_operation_column_scalar(cv, s, (gcol_binary_op)op, out_type, &out, NULL, NULL));
            check_against_reference((gcol_binary_op)op, &col, false, &sc, true, out_type,
                                    gcol_column_get_view(out), 513);
          } else {
            GCOL_TEST_OK(gcol_binary_operation_scalar_column(s, cv, (gcol_binary_op)op, out_type, &out, NULL, NULL));
            check_against_reference((gcol_binary_op)op, &sc, true, &col, false, out_type,
                                    gcol_column_get_view(out), 513);
          }
          gcol_column_free(out);
          gcol_column_free(cc);
          gcol_scalar_free(s);
          ops_host_free(&col);
          ops_host_free(&sc);
        }
      }
    }
  }
}

/* Every size and slice offset through the fast path (aligned int64/float32) and the generic
 * one (int16, misaligned slices). */
static void sizes_and_slices(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(704);
  gcol_type_id const types[] = {GCOL_INT64, GCOL_FLOAT32, GCOL_INT16, GCOL_UINT32};
  gcol_binary_op const ops[] = {GCOL_BINARY_ADD, GCOL_BINARY_MUL, GCOL_BINARY_BITWISE_XOR, GCOL_BINARY_DIV};
  for (size_t t = 0; t < 4; ++t) {
    for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
      for (size_t o = 0; o < gcol_test_num_offsets; o += 2) {
        gcol_binary_op const op = ops[(s + o) % 4];
        if (op == GCOL_BINARY_BITWISE_XOR && types[t] == GCOL_FLOAT32) continue;
        run_pair(op, types[t], types[t], gcol_test_sizes[s], gcol_test_offsets[o], &rng,
                 (int)(s % 2)); /* no mask / all-valid mask */
      }
    }
  }
}

/* Kleene logic: all nine combinations, literally. */
static void kleene_truth_tables(void **state) {
  (void)state;
  /* rows: (F,F) (F,T) (F,N) (T,F) (T,T) (T,N) (N,F) (N,T) (N,N) */
  uint8_t const lvals[9] = {0, 0, 0, 1, 1, 1, 0, 1, 0}, lvalid[9] = {1, 1, 1, 1, 1, 1, 0, 0, 0};
  uint8_t const rvals[9] = {0, 1, 0, 0, 1, 0, 0, 1, 0}, rvalid[9] = {1, 1, 0, 1, 1, 0, 1, 1, 0};
  /* -1 = null */
  int const want_and[9] = {0, 0, 0, 0, 1, -1, 0, -1, -1};
  int const want_or[9] = {0, 1, -1, 1, 1, 1, -1, 1, -1};
  int const want_eq[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  gcol_column *l = NULL, *r = NULL;
  gcol_data_type const b8 = gcol_data_type_make(GCOL_BOOL8);
  GCOL_TEST_OK(gcol_column_create_from_host(b8, 9, lvals, lvalid, NULL, NULL, &l));
  GCOL_TEST_OK(gcol_column_create_from_host(b8, 9, rvals, rvalid, NULL, NULL, &r));
  gcol_binary_op const ops[3] = {GCOL_BINARY_NULL_LOGICAL_AND, GCOL_BINARY_NULL_LOGICAL_OR,
                                 GCOL_BINARY_NULL_EQUALS};
  const int *wants[3] = {want_and, want_or, want_eq};
  for (int k = 0; k < 3; ++k) {
    gcol_column *out = NULL;
    GCOL_TEST_OK(gcol_binary_operation(gcol_column_get_view(l), gcol_column_get_view(r), ops[k], b8,
                                       &out, NULL, NULL));
    uint8_t vals[9], valid[9];
    GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), vals, valid, NULL));
    int64_t nulls = 0;
    for (int i = 0; i < 9; ++i) {
      int const got = valid[i] ? vals[i] : -1;
      if (got != wants[k][i]) fail_msg("%s row %d: %d, expected %d", gcol_binary_op_name(ops[k]), i, got, wants[k][i]);
      nulls += wants[k][i] < 0;
    }
    assert_int_equal(out->null_count, nulls);
    if (ops[k] == GCOL_BINARY_NULL_EQUALS) assert_null(out->null_mask);
    gcol_column_free(out);
  }
  gcol_column_free(l);
  gcol_column_free(r);
}

/* Integer MIN/MAX, -1 and zero divisors, literally. */
static void integer_edges(void **state) {
  (void)state;
  int64_t const a[6] = {INT64_MIN, INT64_MIN, INT64_MAX, -7, 7, 5};
  int64_t const b[6] = {-1, 0, 1, 2, -2, 0};
  gcol_data_type const i64 = gcol_data_type_make(GCOL_INT64);
  gcol_column *l = NULL, *r = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(i64, 6, a, NULL, NULL, NULL, &l));
  GCOL_TEST_OK(gcol_column_create_from_host(i64, 6, b, NULL, NULL, NULL, &r));
  struct { gcol_binary_op op; int64_t want[6]; uint8_t valid[6]; } const cases[] = {
      {GCOL_BINARY_DIV, {INT64_MIN, 0, INT64_MAX, -3, -3, 0}, {1, 0, 1, 1, 1, 0}},
      {GCOL_BINARY_MOD, {0, 0, 0, -1, 1, 0}, {1, 0, 1, 1, 1, 0}},
      {GCOL_BINARY_FLOOR_DIV, {INT64_MIN, 0, INT64_MAX, -4, -4, 0}, {1, 0, 1, 1, 1, 0}},
      {GCOL_BINARY_PYMOD, {0, 0, 0, 1, -1, 0}, {1, 0, 1, 1, 1, 0}},
      {GCOL_BINARY_ADD, {INT64_MAX, INT64_MIN, INT64_MIN, -5, 5, 5}, {1, 1, 1, 1, 1, 1}},
      {GCOL_BINARY_MUL, {INT64_MIN, 0, INT64_MAX, -14, -14, 0}, {1, 1, 1, 1, 1, 1}},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    gcol_column *out = NULL;
    GCOL_TEST_OK(gcol_binary_operation(gcol_column_get_view(l), gcol_column_get_view(r), cases[k].op,
                                       i64, &out, NULL, NULL));
    gcol_test_assert_column_equals_host(gcol_column_get_view(out), cases[k].want, cases[k].valid, 6);
    gcol_column_free(out);
  }
  gcol_column_free(l);
  gcol_column_free(r);
}

/* ---- decimals ---- */

__extension__ typedef __int128 dec_i128;

static dec_i128 dec_get(const ops_host_col *c, int64_t i) {
  if (c->type.id == GCOL_DECIMAL128) {
    dec_i128 v;
    memcpy(&v, c->data + (size_t)i * 16, 16);
    return v;
  }
  return ops_get_i64(c, i);
}

static dec_i128 pow10_128(int k) {
  dec_i128 p = 1;
  for (int j = 0; j < k; ++j) p *= 10;
  return p;
}

static void decimal_ops(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(705);
  gcol_type_id const ids[3] = {GCOL_DECIMAL32, GCOL_DECIMAL64, GCOL_DECIMAL128};
  int32_t const scales[3] = {-2, 0, -5};
  gcol_binary_op const ops[] = {GCOL_BINARY_ADD, GCOL_BINARY_SUB, GCOL_BINARY_MUL, GCOL_BINARY_DIV,
                                GCOL_BINARY_LESS, GCOL_BINARY_EQUAL, GCOL_BINARY_GREATER_EQUAL,
                                GCOL_BINARY_NULL_EQUALS, GCOL_BINARY_NULL_MIN, GCOL_BINARY_NULL_MAX};
  int64_t const n = 400;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      gcol_data_type const lt = gcol_data_type_decimal(ids[a], scales[a]);
      gcol_data_type const rt = gcol_data_type_decimal(ids[b], scales[(a + b) % 3]);
      ops_host_col l = ops_host_random(&rng, lt, n, GCOL_TEST_RANDOM_NULLS);
      ops_host_col r = ops_host_random(&rng, rt, n, GCOL_TEST_NO_MASK);
      /* Small values so that results fit and are checkable exactly. */
      for (int64_t i = 0; i < n; ++i) {
        dec_i128 lvv = gcol_test_rng_range(&rng, -1000000, 1000000);
        dec_i128 rvv = i % 17 == 0 ? 0 : gcol_test_rng_range(&rng, -100000, 100000);
        memcpy(l.data + (size_t)i * gcol_type_size(lt.id), &lvv, gcol_type_size(lt.id));
        memcpy(r.data + (size_t)i * gcol_type_size(rt.id), &rvv, gcol_type_size(rt.id));
      }
      gcol_column_view lv, rv;
      gcol_column *lc = ops_upload(&l, 7, &lv), *rc = ops_upload(&r, 0, &rv);
      for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
        gcol_data_type ot;
        GCOL_TEST_OK(gcol_binary_op_output_type(lt, rt, ops[k], &ot));
        gcol_column *out = NULL;
        GCOL_TEST_OK(gcol_binary_operation(lv, rv, ops[k], ot, &out, NULL, NULL));
        unsigned char *data = NULL;
        uint8_t *valid = NULL;
        ops_download(gcol_column_get_view(out), &data, &valid);
        int32_t const ms = lt.scale < rt.scale ? lt.scale : rt.scale;
        for (int64_t i = 0; i < n; ++i) {
          bool const va = ops_is_valid(&l, i), vb = ops_is_valid(&r, i);
          dec_i128 x = dec_get(&l, i), y = dec_get(&r, i);
          dec_i128 want = 0;
          bool want_valid = va && vb;
          dec_i128 const xs = x * pow10_128(lt.scale - ms), ys = y * pow10_128(rt.scale - ms);
          switch (ops[k]) {
            case GCOL_BINARY_ADD: want = xs + ys; break;
            case GCOL_BINARY_SUB: want = xs - ys; break;
            case GCOL_BINARY_MUL: want = x * y; break;
            case GCOL_BINARY_DIV: want_valid = want_valid && y != 0; want = y != 0 ? x / y : 0; break;
            case GCOL_BINARY_LESS: want = xs < ys; break;
            case GCOL_BINARY_EQUAL: want = xs == ys; break;
            case GCOL_BINARY_GREATER_EQUAL: want = xs >= ys; break;
            case GCOL_BINARY_NULL_EQUALS: want = (va && vb) ? xs == ys : va == vb; want_valid = true; break;
            case GCOL_BINARY_NULL_MIN: want = !va ? ys : !vb ? xs : (xs < ys ? xs : ys); want_valid = va || vb; break;
            default: want = !va ? ys : !vb ? xs : (xs > ys ? xs : ys); want_valid = va || vb; break;
          }
          assert_int_equal(valid[i] != 0, want_valid);
          if (!want_valid) continue;
          size_t const w = gcol_type_size(ot.id);
          if (memcmp(data + (size_t)i * w, &want, w) != 0) {
            fail_msg("%s(%s s%d, %s s%d) row %lld", gcol_binary_op_name(ops[k]), gcol_type_name(lt.id),
                     lt.scale, gcol_type_name(rt.id), rt.scale, (long long)i);
          }
        }
        free(data);
        free(valid);
        gcol_column_free(out);
      }
      gcol_column_free(lc);
      gcol_column_free(rc);
      ops_host_free(&l);
      ops_host_free(&r);
    }
  }
}

/* ---- timestamps and durations ---- */

static int64_t unit_ns(gcol_type_id id) {
  int const u = gcol_type_is_timestamp(id) ? id - GCOL_TIMESTAMP_DAYS : id - GCOL_DURATION_DAYS;
  static const int64_t ns[5] = {86400000000000LL, 1000000000LL, 1000000LL, 1000LL, 1LL};
  return ns[u];
}

static void time_ops(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(706);
  int64_t const n = 300;
  gcol_binary_op const ops[] = {GCOL_BINARY_ADD, GCOL_BINARY_SUB, GCOL_BINARY_LESS,
                                GCOL_BINARY_NOT_EQUAL, GCOL_BINARY_NULL_MAX};
  for (int lu = 0; lu < 10; ++lu) {
    for (int ru = 0; ru < 10; ++ru) {
      gcol_type_id const lid = (gcol_type_id)(GCOL_TIMESTAMP_DAYS + lu);
      gcol_type_id const rid = (gcol_type_id)(GCOL_TIMESTAMP_DAYS + ru);
      gcol_data_type const lt = gcol_data_type_make(lid), rt = gcol_data_type_make(rid);
      ops_host_col l = ops_host_random(&rng, lt, n, GCOL_TEST_RANDOM_NULLS);
      ops_host_col r = ops_host_random(&rng, rt, n, GCOL_TEST_LAST_NULL);
      for (int64_t i = 0; i < n; ++i) { /* values whose conversion to ns does not wrap */
        int64_t a = gcol_test_rng_range(&rng, -100000, 100000), b = gcol_test_rng_range(&rng, -100000, 100000);
        memcpy(l.data + (size_t)i * gcol_type_size(lid), &a, gcol_type_size(lid));
        memcpy(r.data + (size_t)i * gcol_type_size(rid), &b, gcol_type_size(rid));
      }
      gcol_column_view lv, rv;
      gcol_column *lc = ops_upload(&l, 3, &lv), *rc = ops_upload(&r, 65, &rv);
      for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
        gcol_data_type ot;
        if (gcol_binary_op_output_type(lt, rt, ops[k], &ot) != GCOL_OK) continue;
        gcol_column *out = NULL;
        GCOL_TEST_OK(gcol_binary_operation(lv, rv, ops[k], ot, &out, NULL, NULL));
        unsigned char *data = NULL;
        uint8_t *valid = NULL;
        ops_download(gcol_column_get_view(out), &data, &valid);
        int64_t const fine = unit_ns(lid) < unit_ns(rid) ? unit_ns(lid) : unit_ns(rid);
        for (int64_t i = 0; i < n; ++i) {
          bool const va = ops_is_valid(&l, i), vb = ops_is_valid(&r, i);
          int64_t const x = ops_get_i64(&l, i) * (unit_ns(lid) / fine);
          int64_t const y = ops_get_i64(&r, i) * (unit_ns(rid) / fine);
          int64_t want;
          bool want_valid = va && vb;
          switch (ops[k]) {
            case GCOL_BINARY_ADD: want = x + y; break;
            case GCOL_BINARY_SUB: want = x - y; break;
            case GCOL_BINARY_LESS: want = x < y; break;
            case GCOL_BINARY_NOT_EQUAL: want = x != y; break;
            default: want = !va ? y : !vb ? x : (x > y ? x : y); want_valid = va || vb; break;
          }
          assert_int_equal(valid[i] != 0, want_valid);
          if (!want_valid) continue;
          size_t const w = gcol_type_size(ot.id);
          if (memcmp(data + (size_t)i * w, &want, w) != 0) {
            fail_msg("%s(%s, %s) row %lld", gcol_binary_op_name(ops[k]), gcol_type_name(lid),
                     gcol_type_name(rid), (long long)i);
          }
        }
        free(data);
        free(valid);
        gcol_column_free(out);
      }
      gcol_column_free(lc);
      gcol_column_free(rc);
      ops_host_free(&l);
      ops_host_free(&r);
    }
  }
}

/* ---- strings ---- */

static int bytes_compare(const char *a, int64_t na, const char *b, int64_t nb) {
  int64_t const m = na < nb ? na : nb;
  int const c = memcmp(a, b, (size_t)m);
  if (c != 0) return c;
  return na < nb ? -1 : (na > nb ? 1 : 0);
}

static void string_comparisons(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(707);
  int64_t const n = 700;
  char **ls = (char **)calloc((size_t)n, sizeof *ls), **rs = (char **)calloc((size_t)n, sizeof *rs);
  int64_t *ll = (int64_t *)calloc((size_t)n, sizeof *ll), *rl = (int64_t *)calloc((size_t)n, sizeof *rl);
  const char alphabet[] = {'a', 'b', '\0', (char)0xC3, (char)0xA9, (char)0xF4};
  for (int64_t i = 0; i < n; ++i) {
    ll[i] = gcol_test_rng_range(&rng, 0, 4);
    rl[i] = gcol_test_rng_range(&rng, 0, 4);
    ls[i] = (char *)malloc(8);
    rs[i] = (char *)malloc(8);
    for (int k = 0; k < 4; ++k) {
      ls[i][k] = alphabet[gcol_test_rng_range(&rng, 0, 5)];
      rs[i][k] = i % 3 == 0 ? ls[i][k] : alphabet[gcol_test_rng_range(&rng, 0, 5)]; /* prefixes */
    }
  }
  const char **lp = (const char **)calloc((size_t)n, sizeof *lp), **rp = (const char **)calloc((size_t)n, sizeof *rp);
  for (int64_t i = 0; i < n; ++i) {
    lp[i] = i % 11 == 0 ? NULL : ls[i];
    rp[i] = i % 13 == 0 ? NULL : rs[i];
  }
  gcol_column *lc = NULL, *rc = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(n, lp, ll, NULL, NULL, &lc));
  GCOL_TEST_OK(gcol_column_create_strings_from_host(n, rp, rl, NULL, NULL, &rc));
  gcol_column_view lv, rv;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(lc), 5, n, &lv));
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(rc), 5, n, &rv));
  gcol_scalar *sc = NULL;
  GCOL_TEST_OK(gcol_scalar_create_string("ab", 2, &sc));
  gcol_data_type const b8 = gcol_data_type_make(GCOL_BOOL8);
  for (int op = GCOL_BINARY_EQUAL; op <= GCOL_BINARY_NULL_EQUALS; ++op) {
    for (int mode = 0; mode < 2; ++mode) { /* column-column, column-scalar */
      gcol_column *out = NULL;
      if (mode == 0) {
        GCOL_TEST_OK(gcol_binary_operation(lv, rv, (gcol_binary_op)op, b8, &out, NULL, NULL));
      } else {
        GCOL_TEST_OK(gcol_binary_operation_column_scalar(lv, sc, (gcol_binary_op)op, b8, &out, NULL, NULL));
      }
      int64_t const m = n - 5;
      uint8_t *vals = (uint8_t *)malloc((size_t)m), *valid = (uint8_t *)malloc((size_t)m);
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), vals, valid, NULL));
      for (int64_t j = 0; j < m; ++j) {
        int64_t const i = j + 5;
        bool const va = lp[i] != NULL, vb = mode == 1 || rp[i] != NULL;
        const char *b = mode == 1 ? "ab" : rs[i];
        int64_t const nb = mode == 1 ? 2 : rl[i];
        int const c = bytes_compare(ls[i], ll[i], b, nb);
        bool want_valid = va && vb;
        int want = 0;
        switch (op) {
          case GCOL_BINARY_EQUAL: want = c == 0; break;
          case GCOL_BINARY_NOT_EQUAL: want = c != 0; break;
          case GCOL_BINARY_LESS: want = c < 0; break;
          case GCOL_BINARY_LESS_EQUAL: want = c <= 0; break;
          case GCOL_BINARY_GREATER: want = c > 0; break;
          case GCOL_BINARY_GREATER_EQUAL: want = c >= 0; break;
          default: want = (va && vb) ? c == 0 : va == vb; want_valid = true; break;
        }
        assert_int_equal(valid[j] != 0, want_valid);
        if (want_valid && vals[j] != want) fail_msg("%s row %lld", gcol_binary_op_name((gcol_binary_op)op), (long long)i);
      }
      free(vals);
      free(valid);
      gcol_column_free(out);
    }
  }
  gcol_scalar_free(sc);
  gcol_column_free(lc);
  gcol_column_free(rc);
  for (int64_t i = 0; i < n; ++i) {
    free(ls[i]);
    free(rs[i]);
  }
  free(ls); free(rs); free(ll); free(rl); free(lp); free(rp);
}

/* ---- empty input, all-null scalar, allocation failures ---- */

static void empty_and_null_scalar(void **state) {
  (void)state;
  gcol_data_type const i32 = gcol_data_type_make(GCOL_INT32);
  gcol_column *e = NULL, *out = NULL;
  GCOL_TEST_OK(gcol_column_create(i32, 0, GCOL_MASK_UNALLOCATED, NULL, NULL, &e));
  GCOL_TEST_OK(gcol_binary_operation(gcol_column_get_view(e), gcol_column_get_view(e), GCOL_BINARY_ADD,
                                     i32, &out, NULL, NULL));
  assert_int_equal(out->size, 0);
  gcol_column_free(out);
  int32_t vals[70];
  for (int i = 0; i < 70; ++i) vals[i] = i * 7 - 100;
  gcol_column *c = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(i32, 70, vals, NULL, NULL, NULL, &c));
  gcol_scalar *ns = NULL;
  GCOL_TEST_OK(gcol_scalar_create_null(i32, &ns));
  GCOL_TEST_OK(gcol_binary_operation_column_scalar(gcol_column_get_view(c), ns, GCOL_BINARY_SUB, i32,
                                                   &out, NULL, NULL));
  assert_int_equal(out->null_count, 70);
  gcol_column_free(out);
  gcol_scalar_free(ns);
  gcol_column_free(c);
  gcol_column_free(e);
}

typedef struct fault_ctx {
  gcol_column_view l, r;
  gcol_binary_op op;
  gcol_data_type out;
} fault_ctx;

static gcol_status fault_call(void *p, gcol_column **out) {
  fault_ctx *c = (fault_ctx *)p;
  return gcol_binary_operation(c->l, c->r, c->op, c->out, out, NULL, NULL);
}

static void allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(708);
  ops_host_col l = ops_host_random(&rng, gcol_data_type_make(GCOL_INT32), 1000, GCOL_TEST_RANDOM_NULLS);
  ops_host_col r = ops_host_random(&rng, gcol_data_type_make(GCOL_INT32), 1000, GCOL_TEST_RANDOM_NULLS);
  fault_ctx c;
  gcol_column *lc = ops_upload(&l, 3, &c.l), *rc = ops_upload(&r, 0, &c.r);
  gcol_binary_op const ops[] = {GCOL_BINARY_ADD, GCOL_BINARY_MOD, GCOL_BINARY_NULL_MAX, GCOL_BINARY_NULL_EQUALS};
  for (size_t k = 0; k < 4; ++k) {
    c.op = ops[k];
    GCOL_TEST_OK(gcol_binary_op_output_type(c.l.type, c.r.type, c.op, &c.out));
    int64_t const n = ops_fail_nth_loop(fault_call, &c);
    print_message("# %s: %lld allocation points\n", gcol_binary_op_name(c.op), (long long)(n - 1));
    assert_true(n >= 2);
  }
  gcol_column_free(lc);
  gcol_column_free(rc);
  ops_host_free(&l);
  ops_host_free(&r);
}

/* ---- the documented edges (binaryop.h): float PYMOD, NULL_EQUALS of NaNs, time overflow ---- */

static void download_f64(gcol_column_view v, double *data, uint8_t *valid) {
  GCOL_TEST_OK(gcol_column_copy_to_host(v, data, valid, NULL));
}

static void float_pymod_and_nan_equality(void **state) {
  (void)state;
  enum { N = 9 };
  double const a[N] = {5.5, -5.5, 4.0, -4.0, -0.0, -1e-20, -1.0, 1.0, INFINITY};
  double const b[N] = {-2.0, 2.0, -2.0, 2.0, 3.0, 1.0, INFINITY, 0.0, 2.0};
  double const want[N] = {-0.5, 0.5, -0.0, 0.0, 0.0, 1.0, INFINITY, NAN, NAN};
  gcol_data_type const f64 = gcol_data_type_make(GCOL_FLOAT64);
  gcol_column *l = NULL, *r = NULL, *out = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(f64, N, a, NULL, NULL, NULL, &l));
  GCOL_TEST_OK(gcol_column_create_from_host(f64, N, b, NULL, NULL, NULL, &r));
  GCOL_TEST_OK(gcol_binary_operation(gcol_column_get_view(l), gcol_column_get_view(r),
                                     GCOL_BINARY_PYMOD, f64, &out, NULL, NULL));
  double got[N];
  uint8_t got_valid[N];
  download_f64(gcol_column_get_view(out), got, got_valid);
  for (int i = 0; i < N; ++i) {
    bool const same =
        isnan(want[i]) ? isnan(got[i]) : got[i] == want[i] && signbit(got[i]) == signbit(want[i]);
    if (!same) fail_msg("pymod(%g, %g) = %g, want %g (Python)", a[i], b[i], got[i], want[i]);
  }
  gcol_column_free(out);
  gcol_column_free(l);
  gcol_column_free(r);
  /* NULL_EQUALS: NaN vs NaN false (as EQUAL and libcudf), -0.0 vs +0.0 true, null vs null
   * true, null vs NaN false; never null */
  enum { M = 5 };
  double const x[M] = {NAN, NAN, -0.0, 1.0, 1.0};
  double const y[M] = {NAN, 1.0, 0.0, 1.0, NAN};
  uint8_t const vx[M] = {1, 1, 1, 0, 0}, vy[M] = {1, 1, 1, 0, 1};
  uint8_t const eq[M] = {0, 0, 1, 1, 0}, all_valid[M] = {1, 1, 1, 1, 1};
  GCOL_TEST_OK(gcol_column_create_from_host(f64, M, x, vx, NULL, NULL, &l));
  GCOL_TEST_OK(gcol_column_create_from_host(f64, M, y, vy, NULL, NULL, &r));
  GCOL_TEST_OK(gcol_binary_operation(gcol_column_get_view(l), gcol_column_get_view(r),
                                     GCOL_BINARY_NULL_EQUALS, gcol_data_type_make(GCOL_BOOL8), &out,
                                     NULL, NULL));
  gcol_test_assert_column_equals_host(gcol_column_get_view(out), eq, all_valid, M);
  gcol_column_free(out);
  gcol_column_free(l);
  gcol_column_free(r);
}

/* Timestamp +- duration wraps modulo 2^64 like integer arithmetic, the unit conversion
 * first (no null, no error). */
static void time_arithmetic_wraps(void **state) {
  (void)state;
  enum { N = 4 };
  int64_t const ts[N] = {INT64_MAX, INT64_MIN, INT64_MAX / 1000 + 1, -5};
  int64_t const dur_s[N] = {1, -1, 0, 2};
  gcol_column *l = NULL, *r = NULL, *out = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_TIMESTAMP_SECONDS), N, ts,
                                            NULL, NULL, NULL, &l));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_DURATION_SECONDS), N, dur_s,
                                            NULL, NULL, NULL, &r));
  int64_t const add_want[N] = {INT64_MIN, INT64_MAX, INT64_MAX / 1000 + 1, -3};
  GCOL_TEST_OK(gcol_binary_operation(gcol_column_get_view(l), gcol_column_get_view(r),
                                     GCOL_BINARY_ADD, gcol_data_type_make(GCOL_TIMESTAMP_SECONDS),
                                     &out, NULL, NULL));
  gcol_test_assert_column_equals_host(gcol_column_get_view(out), add_want, NULL, N);
  gcol_column_free(out);
  int64_t const sub_want[N] = {INT64_MAX - 1, INT64_MIN + 1, INT64_MAX / 1000 + 1, -7};
  GCOL_TEST_OK(gcol_binary_operation(gcol_column_get_view(l), gcol_column_get_view(r),
                                     GCOL_BINARY_SUB, gcol_data_type_make(GCOL_TIMESTAMP_SECONDS),
                                     &out, NULL, NULL));
  gcol_test_assert_column_equals_host(gcol_column_get_view(out), sub_want, NULL, N);
  gcol_column_free(out);
  gcol_column_free(r);
  /* seconds + milliseconds: the seconds are scaled to ms first, wrapping */
  int64_t const dur_ms[N] = {0, 0, 0, 7};
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_DURATION_MILLISECONDS), N,
                                            dur_ms, NULL, NULL, NULL, &r));
  int64_t ms_want[N];
  for (int i = 0; i < N; ++i) {
    ms_want[i] = (int64_t)((uint64_t)ts[i] * 1000u + (uint64_t)dur_ms[i]);
  }
  GCOL_TEST_OK(
      gcol_binary_operation(gcol_column_get_view(l), gcol_column_get_view(r), GCOL_BINARY_ADD,
                            gcol_data_type_make(GCOL_TIMESTAMP_MILLISECONDS), &out, NULL, NULL));
  gcol_test_assert_column_equals_host(gcol_column_get_view(out), ms_want, NULL, N);
  gcol_column_free(out);
  gcol_column_free(l);
  gcol_column_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(every_op_every_numeric_pair, 0, 3),
      GCOL_TEST_GPU_PART(every_op_every_numeric_pair, 1, 3),
      GCOL_TEST_GPU_PART(every_op_every_numeric_pair, 2, 3),
      GCOL_TEST_GPU(chosen_output_types),
      GCOL_TEST_GPU(scalar_operands),
      GCOL_TEST_GPU(sizes_and_slices),
      GCOL_TEST_GPU(kleene_truth_tables),
      GCOL_TEST_GPU(integer_edges),
      GCOL_TEST_GPU(decimal_ops),
      GCOL_TEST_GPU(time_ops),
      GCOL_TEST_GPU(float_pymod_and_nan_equality),
      GCOL_TEST_GPU(time_arithmetic_wraps),
      GCOL_TEST_GPU(string_comparisons),
      GCOL_TEST_GPU(empty_and_null_scalar),
      GCOL_TEST_GPU(allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("binaryop", tests);
}
