/*
 * Host suite of the compute operations (binaryop.h, unaryop.h, cast.h, datetime.h): the
 * type rules of every operator over every type pair, the conversion rules, text parsing and
 * formatting against the C library, the calendar against a day-by-day count, and the
 * argument checks that fail before any GPU work.
 */
#include <errno.h>
#include <float.h>
#include <math.h>

#include "test_util.h"

#include "binary_reference.h"
#include "binaryop/binaryop_plan.h"
#include "cast/cast_plan.h"
#include "detail/string_convert.h"
#include "detail/civil.h"

/* ---- binary type rules ---- */

static bool is_num(gcol_type_id id) { return gcol_type_is_numeric(id); }
static bool is_flt(gcol_type_id id) { return gcol_type_is_floating(id); }
static bool is_ts(gcol_type_id id) { return gcol_type_is_timestamp(id); }
static bool is_dur(gcol_type_id id) { return gcol_type_is_duration(id); }
static bool is_cmp(gcol_binary_op op) { return op >= GCOL_BINARY_EQUAL && op <= GCOL_BINARY_NULL_EQUALS; }
static bool is_mm(gcol_binary_op op) { return op == GCOL_BINARY_NULL_MIN || op == GCOL_BINARY_NULL_MAX; }

/* The rules of binaryop.h restated: does op take (l, r) with some output? */
static bool expect_accepted(gcol_binary_op op, gcol_type_id l, gcol_type_id r) {
  if (is_num(l) && is_num(r)) {
    if (op >= GCOL_BINARY_BITWISE_AND && op <= GCOL_BINARY_SHIFT_RIGHT_UNSIGNED) {
      return !is_flt(l) && !is_flt(r);
    }
    return true;
  }
  if (gcol_type_is_decimal(l) && gcol_type_is_decimal(r)) {
    return op == GCOL_BINARY_ADD || op == GCOL_BINARY_SUB || op == GCOL_BINARY_MUL ||
           op == GCOL_BINARY_DIV || is_cmp(op) || is_mm(op);
  }
  if ((is_ts(l) || is_dur(l)) && (is_ts(r) || is_dur(r))) {
    if (op == GCOL_BINARY_SUB && is_ts(l)) return true;            /* ts - ts, ts - dur */
    if (op == GCOL_BINARY_ADD) return !(is_ts(l) && is_ts(r));     /* ts+dur, dur+ts, dur+dur */
    if (op == GCOL_BINARY_SUB) return is_dur(l) && is_dur(r);
    return (is_cmp(op) || is_mm(op)) && is_ts(l) == is_ts(r);
  }
  if (l == GCOL_STRING && r == GCOL_STRING) return is_cmp(op);
  return false;
}

static const gcol_type_id all_ids[] = {
    GCOL_INT8, GCOL_INT16, GCOL_INT32, GCOL_INT64, GCOL_UINT8, GCOL_UINT16, GCOL_UINT32,
    GCOL_UINT64, GCOL_FLOAT32, GCOL_FLOAT64, GCOL_BOOL8, GCOL_TIMESTAMP_DAYS,
    GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_MILLISECONDS, GCOL_TIMESTAMP_MICROSECONDS,
    GCOL_TIMESTAMP_NANOSECONDS, GCOL_DURATION_DAYS, GCOL_DURATION_SECONDS,
    GCOL_DURATION_MILLISECONDS, GCOL_DURATION_MICROSECONDS, GCOL_DURATION_NANOSECONDS,
    GCOL_DECIMAL32, GCOL_DECIMAL64, GCOL_DECIMAL128, GCOL_STRING, GCOL_LIST, GCOL_STRUCT,
    GCOL_DICTIONARY32, GCOL_EMPTY};
#define NUM_IDS (sizeof all_ids / sizeof all_ids[0])

static gcol_data_type typ(gcol_type_id id) {
  return gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, -2) : gcol_data_type_make(id);
}

/* Every op x every pair: accepted exactly when the rules say so, with the natural output;
 * rejections name both types and the op. */
static void binary_every_pair_follows_rules(void **state) {
  (void)state;
  int accepted = 0;
  for (int op = 0; op < GCOL_NUM_BINARY_OPS; ++op) {
    for (size_t a = 0; a < NUM_IDS; ++a) {
      for (size_t b = 0; b < NUM_IDS; ++b) {
        gcol_data_type const l = typ(all_ids[a]), r = typ(all_ids[b]);
        gcol_data_type out;
        gcol_status const st = gcol_binary_op_output_type(l, r, (gcol_binary_op)op, &out);
        bool const want = expect_accepted((gcol_binary_op)op, l.id, r.id);
        if ((st == GCOL_OK) != want) {
          fail_msg("%s(%s, %s): got %s, expected %s (%s)", gcol_binary_op_name((gcol_binary_op)op),
                   gcol_type_name(l.id), gcol_type_name(r.id), gcol_status_string(st),
                   want ? "accepted" : "rejected", gcol_last_error());
        }
        if (st == GCOL_OK) {
          ++accepted;
          assert_int_equal(gcol_binary_op_check_types(l, r, (gcol_binary_op)op, out), GCOL_OK);
        } else {
          assert_true(st == GCOL_ERROR_TYPE_MISMATCH || st == GCOL_ERROR_UNSUPPORTED);
          const char *msg = gcol_last_error();
          assert_non_null(strstr(msg, gcol_binary_op_name((gcol_binary_op)op)));
          assert_non_null(strstr(msg, gcol_type_name(l.id)));
          assert_non_null(strstr(msg, gcol_type_name(r.id)));
        }
      }
    }
  }
  print_message("# %d accepted (op, lhs, rhs) combinations\n", accepted);
  assert_true(accepted > 2000);
}

static void expect_output(gcol_binary_op op, gcol_data_type l, gcol_data_type r,
                          gcol_data_type want) {
  gcol_data_type out;
  GCOL_TEST_OK(gcol_binary_op_output_type(l, r, op, &out));
  if (!gcol_data_type_equal(out, want)) {
    fail_msg("%s(%s, %s) -> %s(scale %d), expected %s(scale %d)", gcol_binary_op_name(op),
             gcol_type_name(l.id), gcol_type_name(r.id), gcol_type_name(out.id), (int)out.scale,
             gcol_type_name(want.id), (int)want.scale);
  }
}

static void binary_output_types(void **state) {
  (void)state;
  gcol_data_type const i8 = gcol_data_type_make(GCOL_INT8), u32 = gcol_data_type_make(GCOL_UINT32),
                       i64 = gcol_data_type_make(GCOL_INT64), u64 = gcol_data_type_make(GCOL_UINT64),
                       f32 = gcol_data_type_make(GCOL_FLOAT32), f64 = gcol_data_type_make(GCOL_FLOAT64),
                       b8 = gcol_data_type_make(GCOL_BOOL8);
  expect_output(GCOL_BINARY_ADD, i8, u32, gcol_data_type_make(GCOL_INT32));
  expect_output(GCOL_BINARY_ADD, u32, u64, u64);
  expect_output(GCOL_BINARY_MUL, i64, f32, f32);
  expect_output(GCOL_BINARY_SUB, f32, f64, f64);
  expect_output(GCOL_BINARY_TRUE_DIV, i8, i8, f64);
  expect_output(GCOL_BINARY_LESS, i8, f64, b8);
  expect_output(GCOL_BINARY_NULL_LOGICAL_OR, b8, b8, b8);
  gcol_data_type const d2 = gcol_data_type_decimal(GCOL_DECIMAL32, -2);
  gcol_data_type const d5 = gcol_data_type_decimal(GCOL_DECIMAL64, -5);
  expect_output(GCOL_BINARY_ADD, d2, d5, gcol_data_type_decimal(GCOL_DECIMAL64, -5));
  expect_output(GCOL_BINARY_MUL, d2, d5, gcol_data_type_decimal(GCOL_DECIMAL64, -7));
  expect_output(GCOL_BINARY_DIV, d2, d5, gcol_data_type_decimal(GCOL_DECIMAL64, 3));
  expect_output(GCOL_BINARY_NULL_MAX, d2, d5, gcol_data_type_decimal(GCOL_DECIMAL64, -5));
  gcol_data_type const ts_s = gcol_data_type_make(GCOL_TIMESTAMP_SECONDS);
  gcol_data_type const ts_ms = gcol_data_type_make(GCOL_TIMESTAMP_MILLISECONDS);
  gcol_data_type const du_d = gcol_data_type_make(GCOL_DURATION_DAYS);
  gcol_data_type const du_ns = gcol_data_type_make(GCOL_DURATION_NANOSECONDS);
  expect_output(GCOL_BINARY_SUB, ts_s, ts_ms, gcol_data_type_make(GCOL_DURATION_MILLISECONDS));
  expect_output(GCOL_BINARY_ADD, ts_s, du_d, ts_s);
  expect_output(GCOL_BINARY_ADD, du_ns, ts_s, gcol_data_type_make(GCOL_TIMESTAMP_NANOSECONDS));
  expect_output(GCOL_BINARY_SUB, du_d, du_ns, du_ns);
  expect_output(GCOL_BINARY_NULL_MIN, ts_s, ts_ms, ts_ms);
  expect_output(GCOL_BINARY_GREATER, du_d, du_ns, b8);
}

static void binary_rejects_wrong_outputs(void **state) {
  (void)state;
  gcol_data_type const i32 = gcol_data_type_make(GCOL_INT32), f32 = gcol_data_type_make(GCOL_FLOAT32),
                       b8 = gcol_data_type_make(GCOL_BOOL8), s = gcol_data_type_make(GCOL_STRING);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(f32, f32, GCOL_BINARY_ADD, i32), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(i32, i32, GCOL_BINARY_TRUE_DIV, i32), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(i32, i32, GCOL_BINARY_LESS, i32), GCOL_ERROR_TYPE_MISMATCH);
  /* BOOL8 outputs: accepted where an integer output is (result != 0), as in libcudf */
  GCOL_TEST_OK(gcol_binary_op_check_types(i32, i32, GCOL_BINARY_ADD, b8));
  GCOL_TEST_OK(gcol_binary_op_check_types(b8, b8, GCOL_BINARY_NULL_MIN, b8));
  GCOL_TEST_OK(gcol_binary_op_check_types(i32, b8, GCOL_BINARY_NULL_MAX, b8));
  GCOL_TEST_STATUS(gcol_binary_op_check_types(f32, f32, GCOL_BINARY_ADD, b8), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(f32, b8, GCOL_BINARY_NULL_MIN, b8),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(i32, i32, GCOL_BINARY_TRUE_DIV, b8), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(i32, i32, GCOL_BINARY_ADD, s), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(i32, i32, GCOL_BINARY_ADD, gcol_data_type_make(GCOL_LIST)),
                   GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(s, s, GCOL_BINARY_NULL_MIN, s), GCOL_ERROR_TYPE_MISMATCH);
  gcol_data_type const d2 = gcol_data_type_decimal(GCOL_DECIMAL32, -2);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(d2, d2, GCOL_BINARY_ADD,
                                              gcol_data_type_decimal(GCOL_DECIMAL32, -3)),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_non_null(strstr(gcol_last_error(), "scale -2"));
  GCOL_TEST_STATUS(gcol_binary_op_check_types(d2, gcol_data_type_decimal(GCOL_DECIMAL128, 40),
                                              GCOL_BINARY_ADD,
                                              gcol_data_type_decimal(GCOL_DECIMAL128, -2)),
                   GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(i32, i32, (gcol_binary_op)99, i32),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_binary_op_check_types(i32, gcol_data_type_make((gcol_type_id)77),
                                              GCOL_BINARY_ADD, i32),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_binary_op_output_type(i32, i32, GCOL_BINARY_ADD, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_string_equal(gcol_binary_op_name(GCOL_BINARY_PYMOD), "pymod");
  assert_string_equal(gcol_binary_op_name((gcol_binary_op)-1), "invalid");
}

static void expect_plan(gcol_type_id l, gcol_type_id r, gcol_binary_op op, gcol_type_id out,
                        gcol_detail_compute compute) {
  gcol_detail_binary_plan p;
  GCOL_TEST_OK(gcol_detail_binary_plan_make(gcol_data_type_make(l), gcol_data_type_make(r), op,
                                            gcol_data_type_make(out), &p));
  if (p.compute != compute) {
    fail_msg("%s(%s, %s): compute %d, expected %d", gcol_binary_op_name(op), gcol_type_name(l),
             gcol_type_name(r), (int)p.compute, (int)compute);
  }
}

static void binary_compute_types_and_multipliers(void **state) {
  (void)state;
  expect_plan(GCOL_INT8, GCOL_INT64, GCOL_BINARY_ADD, GCOL_INT64, GCOL_DETAIL_COMPUTE_I64);
  expect_plan(GCOL_UINT8, GCOL_UINT64, GCOL_BINARY_ADD, GCOL_UINT64, GCOL_DETAIL_COMPUTE_U64);
  expect_plan(GCOL_UINT8, GCOL_INT8, GCOL_BINARY_ADD, GCOL_INT16, GCOL_DETAIL_COMPUTE_I64);
  expect_plan(GCOL_INT64, GCOL_UINT64, GCOL_BINARY_LESS, GCOL_BOOL8, GCOL_DETAIL_COMPUTE_I128);
  expect_plan(GCOL_INT64, GCOL_UINT64, GCOL_BINARY_NULL_MAX, GCOL_INT64, GCOL_DETAIL_COMPUTE_I128);
  expect_plan(GCOL_INT64, GCOL_FLOAT32, GCOL_BINARY_LESS, GCOL_BOOL8, GCOL_DETAIL_COMPUTE_F64);
  expect_plan(GCOL_INT32, GCOL_INT32, GCOL_BINARY_TRUE_DIV, GCOL_FLOAT32, GCOL_DETAIL_COMPUTE_F64);
  expect_plan(GCOL_UINT32, GCOL_INT32, GCOL_BINARY_SHIFT_RIGHT, GCOL_UINT32, GCOL_DETAIL_COMPUTE_U64);
  expect_plan(GCOL_INT32, GCOL_UINT8, GCOL_BINARY_SHIFT_RIGHT, GCOL_INT32, GCOL_DETAIL_COMPUTE_I64);
  expect_plan(GCOL_STRING, GCOL_STRING, GCOL_BINARY_LESS, GCOL_BOOL8, GCOL_DETAIL_COMPUTE_STRING);

  gcol_detail_binary_plan p;
  GCOL_TEST_OK(gcol_detail_binary_plan_make(gcol_data_type_make(GCOL_INT32), gcol_data_type_make(GCOL_INT32),
                                            GCOL_BINARY_SHIFT_RIGHT_UNSIGNED,
                                            gcol_data_type_make(GCOL_INT32), &p));
  assert_true(p.lhs_zero_extend);
  GCOL_TEST_OK(gcol_detail_binary_plan_make(gcol_data_type_make(GCOL_INT32), gcol_data_type_make(GCOL_INT32),
                                            GCOL_BINARY_MOD, gcol_data_type_make(GCOL_INT32), &p));
  assert_true(p.can_make_nulls);
  GCOL_TEST_OK(gcol_detail_binary_plan_make(gcol_data_type_make(GCOL_FLOAT32), gcol_data_type_make(GCOL_INT32),
                                            GCOL_BINARY_MOD, gcol_data_type_make(GCOL_FLOAT32), &p));
  assert_false(p.can_make_nulls);
  GCOL_TEST_OK(gcol_detail_binary_plan_make(gcol_data_type_make(GCOL_TIMESTAMP_DAYS),
                                            gcol_data_type_make(GCOL_DURATION_MILLISECONDS),
                                            GCOL_BINARY_ADD,
                                            gcol_data_type_make(GCOL_TIMESTAMP_MILLISECONDS), &p));
  assert_int_equal(p.lhs_multiplier.lo, 86400000u);
  assert_int_equal(p.rhs_multiplier.lo, 1u);
  GCOL_TEST_OK(gcol_detail_binary_plan_make(gcol_data_type_decimal(GCOL_DECIMAL32, 3),
                                            gcol_data_type_decimal(GCOL_DECIMAL128, -35),
                                            GCOL_BINARY_SUB,
                                            gcol_data_type_decimal(GCOL_DECIMAL128, -35), &p));
  /* 10^38 = 0x4B3B4CA85A86C47A_098A224000000000 */
  assert_true(p.lhs_multiplier.hi == 0x4B3B4CA85A86C47Aull && p.lhs_multiplier.lo == 0x098A224000000000ull);
  assert_true(p.rhs_multiplier.hi == 0 && p.rhs_multiplier.lo == 1);
  for (int k = 0; k <= 19; ++k) {
    gcol_detail_multiplier const m = gcol_detail_pow10_multiplier(k);
    uint64_t want = 1;
    for (int j = 0; j < k; ++j) want *= 10;
    assert_true(m.hi == 0 && m.lo == want);
  }
}

/* ---- unary rules ---- */

static void unary_every_type_follows_rules(void **state) {
  (void)state;
  for (int op = 0; op < GCOL_NUM_UNARY_OPS; ++op) {
    for (size_t a = 0; a < NUM_IDS; ++a) {
      gcol_type_id const id = all_ids[a];
      bool want;
      if (op <= GCOL_UNARY_RINT) {
        want = is_flt(id);
      } else if (op == GCOL_UNARY_ABS) {
        want = gcol_type_is_integral(id) || is_flt(id) || is_dur(id) || gcol_type_is_decimal(id);
      } else if (op == GCOL_UNARY_NEGATE) {
        want = gcol_type_is_signed_integral(id) || is_flt(id) || is_dur(id) || gcol_type_is_decimal(id);
      } else if (op == GCOL_UNARY_BIT_INVERT) {
        want = gcol_type_is_integral(id) || id == GCOL_BOOL8;
      } else {
        want = is_num(id);
      }
      gcol_data_type out;
      gcol_status const st = gcol_unary_op_check_type(typ(id), (gcol_unary_op)op, &out);
      if ((st == GCOL_OK) != want) {
        fail_msg("%s(%s): %s", gcol_unary_op_name((gcol_unary_op)op), gcol_type_name(id),
                 gcol_status_string(st));
      }
      if (st == GCOL_OK) {
        gcol_type_id const want_out = op == GCOL_UNARY_NOT ? GCOL_BOOL8 : id;
        assert_int_equal(out.id, want_out);
      } else {
        assert_int_equal(st, GCOL_ERROR_TYPE_MISMATCH);
        assert_non_null(strstr(gcol_last_error(), gcol_type_name(id)));
      }
    }
  }
  GCOL_TEST_STATUS(gcol_unary_op_check_type(typ(GCOL_FLOAT32), (gcol_unary_op)-3, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

/* ---- cast rules ---- */

static bool int_like(gcol_type_id id) {
  return gcol_type_is_integral(id) || id == GCOL_BOOL8 || is_ts(id) || is_dur(id);
}

static bool expect_cast(gcol_type_id f, gcol_type_id t) {
  bool const fixed_or_string_f = gcol_type_is_fixed_width(f) || f == GCOL_STRING;
  bool const fixed_or_string_t = gcol_type_is_fixed_width(t) || t == GCOL_STRING;
  if (!fixed_or_string_f || !fixed_or_string_t) return false;
  if (f == t) return true;
  if (f == GCOL_STRING) return gcol_type_is_integral(t) || is_flt(t) || gcol_type_is_decimal(t);
  if (t == GCOL_STRING) return gcol_type_is_integral(f) || is_flt(f) || gcol_type_is_decimal(f);
  if (is_flt(f)) return is_flt(t) || gcol_type_is_integral(t) || t == GCOL_BOOL8 || gcol_type_is_decimal(t);
  if (gcol_type_is_decimal(f)) return gcol_type_is_decimal(t) || gcol_type_is_integral(t) || is_flt(t);
  if (gcol_type_is_decimal(t)) return gcol_type_is_integral(f);
  if (is_flt(t)) return gcol_type_is_integral(f) || f == GCOL_BOOL8;
  if ((is_ts(f) && is_dur(t)) || (is_dur(f) && is_ts(t))) return false;
  if ((f == GCOL_BOOL8 && (is_ts(t) || is_dur(t))) || (t == GCOL_BOOL8 && (is_ts(f) || is_dur(f)))) {
    return false;
  }
  return int_like(f) && int_like(t);
}

static void cast_every_pair_follows_rules(void **state) {
  (void)state;
  int accepted = 0;
  for (size_t a = 0; a < NUM_IDS; ++a) {
    for (size_t b = 0; b < NUM_IDS; ++b) {
      gcol_status const st = gcol_cast_check_types(typ(all_ids[a]), typ(all_ids[b]));
      bool const want = expect_cast(all_ids[a], all_ids[b]);
      if ((st == GCOL_OK) != want) {
        fail_msg("cast %s -> %s: %s (%s)", gcol_type_name(all_ids[a]), gcol_type_name(all_ids[b]),
                 gcol_status_string(st), gcol_last_error());
      }
      if (st != GCOL_OK) {
        assert_non_null(strstr(gcol_last_error(), gcol_type_name(all_ids[a])));
        assert_non_null(strstr(gcol_last_error(), gcol_type_name(all_ids[b])));
      }
      accepted += st == GCOL_OK;
    }
  }
  assert_true(accepted > 300);
}

static void cast_plan_constants(void **state) {
  (void)state;
  gcol_detail_cast_plan p;
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_make(GCOL_TIMESTAMP_NANOSECONDS),
                                          gcol_data_type_make(GCOL_TIMESTAMP_DAYS), &p));
  assert_int_equal(p.path, GCOL_DETAIL_CAST_INT_TO_INT);
  assert_true(p.unit_divide == 86400LL * 1000000000LL && p.unit_multiply == 1 && p.unit_floor);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_make(GCOL_DURATION_SECONDS),
                                          gcol_data_type_make(GCOL_DURATION_MILLISECONDS), &p));
  assert_true(p.unit_multiply == 1000 && p.unit_divide == 1 && !p.unit_floor);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_make(GCOL_DURATION_MILLISECONDS),
                                          gcol_data_type_make(GCOL_DURATION_SECONDS), &p));
  assert_true(p.unit_divide == 1000 && !p.unit_floor);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_make(GCOL_FLOAT64),
                                          gcol_data_type_make(GCOL_INT8), &p));
  assert_true(p.lower == -128.0 && p.upper_exclusive == 128.0 && p.can_make_nulls);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_make(GCOL_FLOAT64),
                                          gcol_data_type_make(GCOL_UINT64), &p));
  assert_true(p.lower == 0.0 && p.upper_exclusive == 18446744073709551616.0);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_make(GCOL_FLOAT64),
                                          gcol_data_type_make(GCOL_BOOL8), &p));
  assert_false(p.can_make_nulls);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_decimal(GCOL_DECIMAL64, -2),
                                          gcol_data_type_decimal(GCOL_DECIMAL32, -5), &p));
  assert_true(p.path == GCOL_DETAIL_CAST_DECIMAL_RESCALE && !p.pow10_divides && p.pow10.lo == 1000);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_decimal(GCOL_DECIMAL64, -2),
                                          gcol_data_type_make(GCOL_INT32), &p));
  assert_true(p.pow10_divides && p.pow10.lo == 100);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_decimal(GCOL_DECIMAL64, -30),
                                          gcol_data_type_make(GCOL_FLOAT64), &p));
  assert_true(p.pow10_double == 1e30 && p.pow10_double_divides);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_decimal(GCOL_DECIMAL32, 0),
                                          gcol_data_type_make(GCOL_STRING), &p));
  assert_true(p.path == GCOL_DETAIL_CAST_DECIMAL_TO_STRING);
  GCOL_TEST_OK(gcol_detail_cast_plan_make(gcol_data_type_make(GCOL_STRING),
                                          gcol_data_type_decimal(GCOL_DECIMAL128, -7), &p));
  assert_true(p.path == GCOL_DETAIL_CAST_STRING_TO_DECIMAL && p.can_make_nulls);
  GCOL_TEST_STATUS(gcol_cast_check_types(gcol_data_type_make(GCOL_TIMESTAMP_DAYS),
                                         gcol_data_type_make(GCOL_DURATION_DAYS)),
                   GCOL_ERROR_TYPE_MISMATCH);
}

/* ---- parsing and formatting ---- */

static bool parse_int_str(const char *s, int bits, bool is_unsigned, uint64_t *v) {
  return gcol_detail_parse_int(s, (int64_t)strlen(s), bits, is_unsigned, v);
}

static void parse_int_edge_cases(void **state) {
  (void)state;
  uint64_t v = 0;
  assert_false(parse_int_str("", 64, false, &v));
  assert_false(parse_int_str("-", 64, false, &v));
  assert_false(parse_int_str("+", 64, false, &v));
  assert_false(parse_int_str(" 5", 64, false, &v));
  assert_false(parse_int_str("5 ", 64, false, &v));
  assert_false(parse_int_str("0x10", 64, false, &v));
  assert_false(parse_int_str("1e3", 64, false, &v));
  assert_false(parse_int_str("+-5", 64, false, &v));
  assert_true(parse_int_str("+5", 64, false, &v) && v == 5);
  assert_true(parse_int_str("-0", 8, true, &v) && v == 0);
  assert_false(parse_int_str("-1", 8, true, &v));
  assert_true(parse_int_str("-9223372036854775808", 64, false, &v) && (int64_t)v == INT64_MIN);
  assert_false(parse_int_str("-9223372036854775809", 64, false, &v));
  assert_true(parse_int_str("9223372036854775807", 64, false, &v) && (int64_t)v == INT64_MAX);
  assert_false(parse_int_str("9223372036854775808", 64, false, &v));
  assert_true(parse_int_str("18446744073709551615", 64, true, &v) && v == UINT64_MAX);
  assert_false(parse_int_str("18446744073709551616", 64, true, &v));
  assert_false(parse_int_str("99999999999999999999999", 64, true, &v));
  assert_true(parse_int_str("-128", 8, false, &v) && (int8_t)v == -128);
  assert_false(parse_int_str("128", 8, false, &v));
  assert_true(parse_int_str("255", 8, true, &v) && v == 255);
  assert_false(parse_int_str("256", 8, true, &v));
  assert_true(parse_int_str("000000000000000000000000042", 16, false, &v) && v == 42);
  assert_true(parse_int_str("-32768", 16, false, &v) && (int16_t)v == INT16_MIN);
  assert_false(parse_int_str("4294967296", 32, true, &v));
  /* A NUL inside the bytes is not a digit. */
  assert_false(gcol_detail_parse_int("1\0" "2", 3, 64, false, &v));
}

/* Random integers printed by snprintf parse back; integers format as snprintf. */
static void integers_round_trip_like_libc(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(601);
  char ref[32], got[32];
  for (int it = 0; it < 200000; ++it) {
    uint64_t bits = gcol_test_rng_next(&rng);
    bits >>= gcol_test_rng_range(&rng, 0, 63);
    if (it & 1) bits = (uint64_t)0 - bits;
    if (it == 0) bits = (uint64_t)INT64_MIN;
    bool const is_unsigned = (it % 3) == 0;
    int const n = is_unsigned ? snprintf(ref, sizeof ref, "%llu", (unsigned long long)bits)
                              : snprintf(ref, sizeof ref, "%lld", (long long)(int64_t)bits);
    assert_int_equal(gcol_detail_format_int_size(bits, is_unsigned), n);
    gcol_detail_format_int(bits, is_unsigned, got);
    if (memcmp(ref, got, (size_t)n) != 0) fail_msg("format %s", ref);
    uint64_t back = 0;
    assert_true(gcol_detail_parse_int(ref, n, 64, is_unsigned, &back));
    assert_true(back == bits);
  }
}

static int64_t ulp_distance(double a, double b) {
  if (a == b) return 0;
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) ? 0 : INT64_MAX;
  int64_t ia, ib;
  memcpy(&ia, &a, 8);
  memcpy(&ib, &b, 8);
  if (ia < 0) ia = INT64_MIN - ia;
  if (ib < 0) ib = INT64_MIN - ib;
  return ia > ib ? ia - ib : ib - ia;
}

static bool parse_dbl(const char *s, double *d) { return gcol_detail_parse_double(s, (int64_t)strlen(s), d); }

static void parse_float_edge_cases(void **state) {
  (void)state;
  double d = 0;
  assert_false(parse_dbl("", &d));
  assert_false(parse_dbl("-", &d));
  assert_false(parse_dbl(".", &d));
  assert_false(parse_dbl(" 5", &d));
  assert_false(parse_dbl("1e", &d));
  assert_false(parse_dbl("1e+", &d));
  assert_false(parse_dbl("e5", &d));
  assert_false(parse_dbl("1.2.3", &d));
  assert_false(parse_dbl("nana", &d));
  assert_false(parse_dbl("0x1p3", &d));
  assert_true(parse_dbl("+5", &d) && d == 5.0);
  assert_true(parse_dbl("1e309", &d) && isinf(d) && d > 0);
  assert_true(parse_dbl("-1e309", &d) && isinf(d) && d < 0);
  assert_true(parse_dbl("1e-400", &d) && d == 0.0);
  assert_true(parse_dbl("-0", &d) && d == 0.0 && signbit(d));
  assert_true(parse_dbl("nan", &d) && isnan(d));
  assert_true(parse_dbl("-NaN", &d) && isnan(d));
  assert_true(parse_dbl("inf", &d) && isinf(d) && d > 0);
  assert_true(parse_dbl("-Infinity", &d) && isinf(d) && d < 0);
  assert_true(parse_dbl("INF", &d) && isinf(d));
  assert_true(parse_dbl(".5", &d) && d == 0.5);
  assert_true(parse_dbl("5.", &d) && d == 5.0);
  assert_true(parse_dbl("1E3", &d) && d == 1000.0);
  assert_true(parse_dbl("0.1", &d) && d == 0.1);
  assert_true(parse_dbl("123456789012345", &d) && d == 123456789012345.0);
  assert_true(parse_dbl("4.9406564584124654e-324", &d) && d == DBL_TRUE_MIN);
  assert_true(parse_dbl("2.2250738585072014e-308", &d) && d == DBL_MIN);
  assert_true(parse_dbl("1.7976931348623157e308", &d) && d == DBL_MAX);
  assert_true(parse_dbl("0000000000000000000000000000001", &d) && d == 1.0);
  assert_true(parse_dbl("100000000000000000000000000000000000000000", &d) && d == 1e41);
}

/* Texts printed by %.17g / %.{random}g / %.{random}e parse as strtod does, bit for bit (the
 * correctly rounded parse has its own suite, float_text_host). */
static void floats_parse_like_strtod(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(602);
  char text[64];
  for (int it = 0; it < 300000; ++it) {
    uint64_t bits = gcol_test_rng_next(&rng);
    double x;
    memcpy(&x, &bits, 8);
    if (isnan(x) || isinf(x)) continue;
    int const prec = (int)gcol_test_rng_range(&rng, 1, 17);
    if (it % 3 == 0) {
      x = (double)gcol_test_rng_range(&rng, -1000000, 1000000) / 1000.0; /* fast-path texts */
      snprintf(text, sizeof text, "%.3f", x);
    } else {
      snprintf(text, sizeof text, (it & 1) ? "%.*g" : "%.*e", prec, x);
    }
    double const want = strtod(text, NULL);
    double got = 0;
    if (!parse_dbl(text, &got)) fail_msg("did not parse %s", text);
    int64_t const d = ulp_distance(got, want);
    if (d != 0) fail_msg("%s: %a vs strtod %a (%lld ulp)", text, got, want, (long long)d);
  }
}

static void check_format(double x, int prec) {
  char ref[64], got[GCOL_DETAIL_FLOAT_TEXT_MAX + 1];
  snprintf(ref, sizeof ref, "%.*g", prec, x);
  if (isnan(x)) strcpy(ref, "nan");
  int const n = gcol_detail_format_double(x, prec, got);
  assert_true(n <= GCOL_DETAIL_FLOAT_TEXT_MAX);
  got[n] = '\0';
  if (strcmp(ref, got) != 0) fail_msg("%a: printf %s, gcol %s", x, ref, got);
}

static void floats_format_like_printf(void **state) {
  (void)state;
  double const specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MIN, DBL_MAX,
                             DBL_TRUE_MIN, -DBL_TRUE_MIN, 1e-5, 1e-4, 9.9999e-5, 1e16, 1e17,
                             0.1, 1.0 / 3.0, 123456789012345678.0, 9007199254740993.0,
                             FLT_MIN, FLT_MAX, FLT_TRUE_MIN, 0.5, 2.5, 1e22, 1e23};
  for (size_t k = 0; k < sizeof specials / sizeof specials[0]; ++k) {
    check_format(specials[k], 17);
    check_format((double)(float)specials[k], 9);
  }
  gcol_test_rng rng = gcol_test_rng_make(603);
  for (int it = 0; it < 200000; ++it) {
    uint64_t bits = gcol_test_rng_next(&rng);
    double x;
    memcpy(&x, &bits, 8);
    if (it % 4 == 0) {
      uint32_t b32 = (uint32_t)bits;
      float f;
      memcpy(&f, &b32, 4);
      check_format((double)f, 9);
    } else if (it % 4 == 1) {
      check_format((double)gcol_test_rng_range(&rng, -100000000, 100000000) / 10000.0, 17);
    } else {
      check_format(x, 17);
    }
  }
}

/* ---- calendar ---- */

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static int month_days(int64_t y, int m) {
  static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* Walks the calendar day by day from 1970-01-01 in both directions and compares. */
static void civil_matches_day_by_day_walk(void **state) {
  (void)state;
  for (int dir = -1; dir <= 1; dir += 2) {
    int64_t y = 1970;
    int m = 1, d = 1, doy = 1, wd = 4; /* Thursday */
    for (int64_t days = 0; days * dir <= 800000; days += dir) {
      gcol_detail_civil const c = gcol_detail_civil_from_days(days);
      if (c.year != y || c.month != m || c.day != d) {
        fail_msg("day %lld: %lld-%d-%d, expected %lld-%d-%d", (long long)days, (long long)c.year,
                 c.month, c.day, (long long)y, m, d);
      }
      assert_int_equal(gcol_detail_days_from_civil(y, m, d), days);
      assert_int_equal(gcol_detail_iso_weekday(days), wd);
      assert_int_equal(gcol_detail_datetime_field(days, 86400LL * 1000000000LL, 8), doy);
      if (dir > 0) {
        wd = wd % 7 + 1;
        ++doy;
        if (++d > month_days(y, m)) {
          d = 1;
          if (++m > 12) {
            m = 1;
            ++y;
            doy = 1;
          }
        }
      } else {
        wd = wd == 1 ? 7 : wd - 1;
        --doy;
        if (--d < 1) {
          if (--m < 1) {
            m = 12;
            --y;
            doy = is_leap(y) ? 366 : 365;
          }
          d = month_days(y, m);
        }
      }
    }
  }
}

static void datetime_fields_of_negative_and_extreme_ticks(void **state) {
  (void)state;
  /* -1 ns = 1969-12-31T23:59:59.999999999 */
  int64_t const ns = 1;
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 0), 1969);
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 1), 12);
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 2), 31);
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 3), 23);
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 4), 59);
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 5), 59);
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 6), 999);
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 7), 3);
  assert_int_equal(gcol_detail_datetime_field(-1, ns, 8), 365);
  /* INT64_MIN ns = 1677-09-21T00:12:43.145224192; INT64_MAX = 2262-04-11T23:47:16.854775807 */
  assert_int_equal(gcol_detail_datetime_field(INT64_MIN, ns, 0), 1677);
  assert_int_equal(gcol_detail_datetime_field(INT64_MIN, ns, 1), 9);
  assert_int_equal(gcol_detail_datetime_field(INT64_MIN, ns, 2), 21);
  assert_int_equal(gcol_detail_datetime_field(INT64_MIN, ns, 3), 0);
  assert_int_equal(gcol_detail_datetime_field(INT64_MIN, ns, 4), 12);
  assert_int_equal(gcol_detail_datetime_field(INT64_MIN, ns, 5), 43);
  assert_int_equal(gcol_detail_datetime_field(INT64_MIN, ns, 6), 145);
  assert_int_equal(gcol_detail_datetime_field(INT64_MAX, ns, 0), 2262);
  assert_int_equal(gcol_detail_datetime_field(INT64_MAX, ns, 1), 4);
  assert_int_equal(gcol_detail_datetime_field(INT64_MAX, ns, 2), 11);
  assert_int_equal(gcol_detail_datetime_field(INT64_MAX, ns, 3), 23);
  assert_int_equal(gcol_detail_datetime_field(INT64_MAX, ns, 6), 854);
  /* 2000-02-29T12:34:56.789 in ms, and -1.5 s in ms. */
  int64_t const ms = 1000000;
  int64_t const t = (gcol_detail_days_from_civil(2000, 2, 29) * 86400 + 12 * 3600 + 34 * 60 + 56) * 1000 + 789;
  int64_t const want[9] = {2000, 2, 29, 12, 34, 56, 789, 2, 60};
  for (int c = 0; c < 9; ++c) assert_int_equal(gcol_detail_datetime_field(t, ms, c), want[c]);
  assert_int_equal(gcol_detail_datetime_field(-1500, ms, 5), 58);
  assert_int_equal(gcol_detail_datetime_field(-1500, ms, 6), 500);
  /* Days unit: time of day is zero. */
  assert_int_equal(gcol_detail_datetime_field(-1, 86400LL * 1000000000LL, 3), 0);
  assert_int_equal(gcol_detail_floor_div(-7, 7), -1);
  assert_int_equal(gcol_detail_floor_div(-8, 7), -2);
  assert_int_equal(gcol_detail_floor_div(6, 7), 0);
}

/* ---- argument checks before any GPU work ---- */

static gcol_column_view fake_view(gcol_type_id id, int64_t size) {
  /* Never dereferenced: every call below fails in validation. */
  return gcol_column_view_make(gcol_data_type_make(id), size, (const void *)(uintptr_t)0x1000, NULL, 0);
}

static void public_calls_reject_bad_arguments(void **state) {
  (void)state;
  gcol_column *out = (gcol_column *)(uintptr_t)0x1;
  gcol_column_view const a = fake_view(GCOL_INT32, 10), b = fake_view(GCOL_INT32, 11);
  gcol_data_type const i32 = gcol_data_type_make(GCOL_INT32);
  GCOL_TEST_STATUS(gcol_binary_operation(a, a, GCOL_BINARY_ADD, i32, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_binary_operation(a, b, GCOL_BINARY_ADD, i32, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_null(out);
  out = (gcol_column *)(uintptr_t)0x1;
  GCOL_TEST_STATUS(gcol_binary_operation(a, fake_view(GCOL_STRING, 10), GCOL_BINARY_ADD, i32, &out,
                                         NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT); /* a string view without offsets is malformed */
  assert_null(out);
  GCOL_TEST_STATUS(gcol_binary_operation(a, fake_view(GCOL_FLOAT32, 10), GCOL_BINARY_BITWISE_AND,
                                         i32, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_non_null(strstr(gcol_last_error(), "bitwise_and"));
  assert_non_null(strstr(gcol_last_error(), "float32"));
  GCOL_TEST_STATUS(gcol_binary_operation_column_scalar(a, NULL, GCOL_BINARY_ADD, i32, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_binary_operation_scalar_column(NULL, a, GCOL_BINARY_ADD, i32, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_column_view neg = a;
  neg.size = -1;
  GCOL_TEST_STATUS(gcol_unary_operation(neg, GCOL_UNARY_ABS, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_unary_operation(a, GCOL_UNARY_SQRT, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_unary_operation(a, GCOL_UNARY_SQRT, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_is_nan(a, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_is_null(a, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_cast(fake_view(GCOL_TIMESTAMP_DAYS, 4), gcol_data_type_make(GCOL_FLOAT64),
                             &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
}

static void public_cast_and_datetime_reject_bad_arguments(void **state) {
  (void)state;
  gcol_column *out = NULL;
  gcol_column_view const a = fake_view(GCOL_INT32, 10);
  GCOL_TEST_STATUS(gcol_cast(a, gcol_data_type_make(GCOL_LIST), &out, NULL, NULL), GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_cast(fake_view(GCOL_BOOL8, 3), gcol_data_type_make(GCOL_TIMESTAMP_DAYS), &out,
                             NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_cast(a, gcol_data_type_make(GCOL_INT64), NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_datetime_extract(a, GCOL_DATETIME_YEAR, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_datetime_extract(fake_view(GCOL_TIMESTAMP_DAYS, 3), (gcol_datetime_component)42,
                                         &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_datetime_extract(a, GCOL_DATETIME_DAY, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
}

/* ---- float special values of the reference (the rules the GPU kernel must match) ---- */

/* One row of FLOAT64 (or INT64) held in a host column; `valid` false makes it null. */
static ops_host_col one_row(gcol_type_id id, const void *value, uint8_t *valid_byte, bool valid) {
  ops_host_col c;
  c.type = gcol_data_type_make(id);
  c.size = 1;
  c.data = (unsigned char *)value;
  *valid_byte = valid ? 1 : 0;
  c.valid = valid_byte;
  return c;
}

static double ref_f64(gcol_binary_op op, double a, bool va, double b, bool vb, bool *valid) {
  uint8_t ka, kb;
  ops_host_col l = one_row(GCOL_FLOAT64, &a, &ka, va), r = one_row(GCOL_FLOAT64, &b, &kb, vb);
  unsigned char out[16];
  bool approx = false;
  ref_binary_numeric(op, &l, 0, &r, 0, gcol_data_type_make(GCOL_FLOAT64), out, valid, &approx);
  double d;
  memcpy(&d, out, 8);
  return d;
}

static void assert_same_double(double got, double want) {
  if (isnan(want)) {
    assert_true(isnan(got));
  } else {
    assert_true(got == want && signbit(got) == signbit(want));
  }
}

static void reference_float_min_max_and_pow_specials(void **state) {
  (void)state;
  uint64_t const snan_bits = 0x7FF0000000000123ull; /* signaling: quiet bit clear */
  double snan;
  memcpy(&snan, &snan_bits, 8);
  double const nans[2] = {NAN, snan};
  bool v = false;
  for (int k = 0; k < 2; ++k) {
    double const n = nans[k];
    /* A NaN of either kind loses to a number, on either side. */
    assert_same_double(ref_f64(GCOL_BINARY_NULL_MIN, n, true, -46.0, true, &v), -46.0);
    assert_true(v);
    assert_same_double(ref_f64(GCOL_BINARY_NULL_MIN, -46.0, true, n, true, &v), -46.0);
    assert_same_double(ref_f64(GCOL_BINARY_NULL_MAX, n, true, 3.0, true, &v), 3.0);
    assert_same_double(ref_f64(GCOL_BINARY_NULL_MAX, 3.0, true, n, true, &v), 3.0);
    assert_same_double(ref_f64(GCOL_BINARY_NULL_MIN, n, true, n, true, &v), NAN);
    /* A null beside a NaN: the NaN (the valid operand). */
    assert_same_double(ref_f64(GCOL_BINARY_NULL_MAX, n, true, 3.0, false, &v), NAN);
    assert_true(v);
    /* C Annex F for every NaN. */
    assert_same_double(ref_f64(GCOL_BINARY_POW, n, true, 0.0, true, &v), 1.0);
    assert_same_double(ref_f64(GCOL_BINARY_POW, n, true, -0.0, true, &v), 1.0);
    assert_same_double(ref_f64(GCOL_BINARY_POW, 1.0, true, n, true, &v), 1.0);
    assert_same_double(ref_f64(GCOL_BINARY_POW, 2.0, true, n, true, &v), NAN);
    /* Other ops: NaN in, NaN out. */
    assert_same_double(ref_f64(GCOL_BINARY_ADD, n, true, 1.0, true, &v), NAN);
    assert_same_double(ref_f64(GCOL_BINARY_PYMOD, n, true, -2.0, true, &v), NAN);
    assert_same_double(ref_f64(GCOL_BINARY_FLOOR_DIV, 1.0, true, n, true, &v), NAN);
  }
  /* Float PYMOD is Python's float % (binaryop.h): the divisor's sign, a zero result included;
   * r + b rounds as in Python (-1e-20 % 1.0 == 1.0); by zero NaN. */
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, 5.5, true, -2.0, true, &v), -0.5);
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, -5.5, true, 2.0, true, &v), 0.5);
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, 4.0, true, -2.0, true, &v), -0.0);
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, -4.0, true, 2.0, true, &v), 0.0);
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, -0.0, true, 3.0, true, &v), 0.0);
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, -1e-20, true, 1.0, true, &v), 1.0);
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, -1.0, true, INFINITY, true, &v), INFINITY);
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, 1.0, true, 0.0, true, &v), NAN);
  assert_same_double(ref_f64(GCOL_BINARY_PYMOD, INFINITY, true, 2.0, true, &v), NAN);
  /* NULL_EQUALS compares two valid floats as EQUAL: NaN is not equal to NaN (libcudf's
   * NULL_EQUALS too); -0.0 equals +0.0. */
  assert_same_double(ref_f64(GCOL_BINARY_NULL_EQUALS, NAN, true, NAN, true, &v), 0.0);
  assert_true(v);
  assert_same_double(ref_f64(GCOL_BINARY_NULL_EQUALS, -0.0, true, 0.0, true, &v), 1.0);
  /* -0 orders below +0 whatever the operand order. */
  assert_same_double(ref_f64(GCOL_BINARY_NULL_MIN, 0.0, true, -0.0, true, &v), -0.0);
  assert_same_double(ref_f64(GCOL_BINARY_NULL_MIN, -0.0, true, 0.0, true, &v), -0.0);
  assert_same_double(ref_f64(GCOL_BINARY_NULL_MAX, 0.0, true, -0.0, true, &v), 0.0);
  assert_same_double(ref_f64(GCOL_BINARY_NULL_MAX, -0.0, true, 0.0, true, &v), 0.0);
  assert_same_double(ref_f64(GCOL_BINARY_NULL_MIN, -INFINITY, true, 1.0, true, &v), -INFINITY);
  assert_same_double(ref_f64(GCOL_BINARY_NULL_MAX, INFINITY, true, NAN, true, &v), INFINITY);
  /* Both null: null. */
  (void)ref_f64(GCOL_BINARY_NULL_MIN, 1.0, false, 2.0, false, &v);
  assert_false(v);
  /* An integer against a NaN (the failing case of the H200 run: float64 NaN vs int64 -46). */
  int64_t const minus46 = -46;
  uint8_t ka, kb;
  ops_host_col l = one_row(GCOL_FLOAT64, &snan, &ka, true), r = one_row(GCOL_INT64, &minus46, &kb, true);
  unsigned char out[16];
  bool approx = true;
  ref_binary_numeric(GCOL_BINARY_NULL_MIN, &l, 0, &r, 0, gcol_data_type_make(GCOL_FLOAT64), out, &v,
                     &approx);
  double d;
  memcpy(&d, out, 8);
  assert_true(v);
  assert_false(approx);
  assert_same_double(d, -46.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(binary_every_pair_follows_rules),
      cmocka_unit_test(binary_output_types),
      cmocka_unit_test(binary_rejects_wrong_outputs),
      cmocka_unit_test(binary_compute_types_and_multipliers),
      cmocka_unit_test(reference_float_min_max_and_pow_specials),
      cmocka_unit_test(unary_every_type_follows_rules),
      cmocka_unit_test(cast_every_pair_follows_rules),
      cmocka_unit_test(cast_plan_constants),
      cmocka_unit_test(parse_int_edge_cases),
      cmocka_unit_test(integers_round_trip_like_libc),
      cmocka_unit_test(parse_float_edge_cases),
      cmocka_unit_test(floats_parse_like_strtod),
      cmocka_unit_test(floats_format_like_printf),
      cmocka_unit_test(civil_matches_day_by_day_walk),
      cmocka_unit_test(datetime_fields_of_negative_and_extreme_ticks),
      cmocka_unit_test(public_calls_reject_bad_arguments),
      cmocka_unit_test(public_cast_and_datetime_reject_bad_arguments),
  };
  return GCOL_TEST_RUN("ops_host", tests);
}
