/* Type rules of binary operations: see binaryop.h and binaryop_plan.h. */
#include "binaryop/binaryop_plan.h"

#include <stdio.h>

#include "internal/error.h"
#include "internal/nvtx.h"

#define GCOL_DETAIL_BINARY_OP_NAME(NAME, STRING) STRING,
static const char *const binary_op_names[] = {GCOL_BINARY_OP_LIST(GCOL_DETAIL_BINARY_OP_NAME)};

const char *gcol_binary_op_name(gcol_binary_op op) {
  if ((int)op < 0 || op >= GCOL_NUM_BINARY_OPS) return "invalid";
  return binary_op_names[op];
}

bool gcol_detail_binary_op_is_null_aware(gcol_binary_op op) {
  return op == GCOL_BINARY_NULL_EQUALS || op == GCOL_BINARY_NULL_LOGICAL_AND ||
         op == GCOL_BINARY_NULL_LOGICAL_OR || op == GCOL_BINARY_NULL_MIN ||
         op == GCOL_BINARY_NULL_MAX;
}


static gcol_detail_multiplier multiplier_of(int64_t value) {
  gcol_detail_multiplier m = {(uint64_t)value, 0};
  return m;
}

typedef enum type_class {
  CLASS_NUMERIC,
  CLASS_DECIMAL,
  CLASS_TIMESTAMP,
  CLASS_DURATION,
  CLASS_STRING,
  CLASS_OTHER
} type_class;

static type_class class_of(gcol_type_id id) {
  if (gcol_type_is_numeric(id)) return CLASS_NUMERIC;
  if (gcol_type_is_decimal(id)) return CLASS_DECIMAL;
  if (gcol_type_is_timestamp(id)) return CLASS_TIMESTAMP;
  if (gcol_type_is_duration(id)) return CLASS_DURATION;
  if (id == GCOL_STRING) return CLASS_STRING;
  return CLASS_OTHER;
}

static bool is_arithmetic(gcol_binary_op op) { return op <= GCOL_BINARY_POW && op != GCOL_BINARY_TRUE_DIV; }
static bool is_bitwise(gcol_binary_op op) {
  return op >= GCOL_BINARY_BITWISE_AND && op <= GCOL_BINARY_SHIFT_RIGHT_UNSIGNED;
}
static bool is_logical(gcol_binary_op op) {
  return op >= GCOL_BINARY_LOGICAL_AND && op <= GCOL_BINARY_NULL_LOGICAL_OR;
}
static bool is_comparison(gcol_binary_op op) {
  return op >= GCOL_BINARY_EQUAL && op <= GCOL_BINARY_NULL_EQUALS;
}
static bool is_min_max(gcol_binary_op op) {
  return op == GCOL_BINARY_NULL_MIN || op == GCOL_BINARY_NULL_MAX;
}
static bool is_division(gcol_binary_op op) {
  return op == GCOL_BINARY_DIV || op == GCOL_BINARY_FLOOR_DIV || op == GCOL_BINARY_MOD ||
         op == GCOL_BINARY_PYMOD;
}
static bool is_unsigned_like(gcol_type_id id) {
  return gcol_type_is_unsigned_integral(id) || id == GCOL_BOOL8;
}

/* Raises the rule violation with both types, the op and the output in the message. */
static gcol_status reject(gcol_status status, gcol_data_type lhs, gcol_data_type rhs,
                          gcol_binary_op op, gcol_data_type output, const char *why) {
  char l[48], r[48], o[48];
  gcol_data_type_format(lhs, l, sizeof l);
  gcol_data_type_format(rhs, r, sizeof r);
  gcol_data_type_format(output, o, sizeof o);
  return gcol_detail_error(status, "gcol_binary_operation", "%s(%s, %s) -> %s: %s",
                           gcol_binary_op_name(op), l, r, o, why);
}

#define REJECT(status_code, why) return reject((status_code), lhs, rhs, op, output, (why))

static gcol_status plan_numeric(gcol_data_type lhs, gcol_data_type rhs, gcol_binary_op op,
                                gcol_data_type output, gcol_detail_binary_plan *p) {
  bool const any_float = gcol_type_is_floating(lhs.id) || gcol_type_is_floating(rhs.id);
  bool const both_unsigned = is_unsigned_like(lhs.id) && is_unsigned_like(rhs.id);
  bool const mixed_sign = !any_float && !both_unsigned;
  /* BOOL8 is accepted wherever an integer output is (it stores result != 0), as libcudf */
  bool const out_int = gcol_type_is_integral(output.id) || output.id == GCOL_BOOL8;
  bool const out_float = gcol_type_is_floating(output.id);
  gcol_detail_compute const int_compute =
      both_unsigned ? GCOL_DETAIL_COMPUTE_U64 : GCOL_DETAIL_COMPUTE_I64;
  if (op == GCOL_BINARY_TRUE_DIV) {
    if (!out_float) REJECT(GCOL_ERROR_TYPE_MISMATCH, "true_div needs a floating output");
    p->compute = GCOL_DETAIL_COMPUTE_F64;
  } else if (is_arithmetic(op)) {
    if (any_float && !out_float) {
      REJECT(GCOL_ERROR_TYPE_MISMATCH, "arithmetic on floats needs a floating output");
    }
    if (!out_int && !out_float) {
      REJECT(GCOL_ERROR_TYPE_MISMATCH, "output must be numeric or bool8");
    }
    p->compute = any_float ? GCOL_DETAIL_COMPUTE_F64 : int_compute;
    p->can_make_nulls = !any_float && is_division(op);
  } else if (is_bitwise(op)) {
    if (any_float) REJECT(GCOL_ERROR_TYPE_MISMATCH, "bitwise ops need integer inputs");
    if (!out_int) {
      REJECT(GCOL_ERROR_TYPE_MISMATCH, "bitwise ops need an integer or bool8 output");
    }
    if (op == GCOL_BINARY_SHIFT_RIGHT_UNSIGNED) {
      p->compute = GCOL_DETAIL_COMPUTE_U64;
      p->lhs_zero_extend = true;
    } else if (op >= GCOL_BINARY_SHIFT_LEFT) {
      p->compute = is_unsigned_like(lhs.id) ? GCOL_DETAIL_COMPUTE_U64 : GCOL_DETAIL_COMPUTE_I64;
    } else {
      p->compute = int_compute;
    }
  } else if (is_logical(op) || is_comparison(op)) {
    if (output.id != GCOL_BOOL8) REJECT(GCOL_ERROR_TYPE_MISMATCH, "output must be bool8");
    p->compute = any_float ? GCOL_DETAIL_COMPUTE_F64
                           : (mixed_sign && is_comparison(op) ? GCOL_DETAIL_COMPUTE_I128
                                                              : int_compute);
  } else { /* NULL_MIN, NULL_MAX */
    if (any_float ? !out_float : !(out_int || out_float)) {
      REJECT(GCOL_ERROR_TYPE_MISMATCH,
             any_float ? "min/max of floats needs a floating output"
                       : "output must be numeric or bool8");
    }
    p->compute = any_float ? GCOL_DETAIL_COMPUTE_F64
                           : (mixed_sign ? GCOL_DETAIL_COMPUTE_I128 : int_compute);
  }
  return GCOL_OK;
}

static gcol_status plan_decimal(gcol_data_type lhs, gcol_data_type rhs, gcol_binary_op op,
                                gcol_data_type output, gcol_detail_binary_plan *p) {
  int32_t const min_scale = lhs.scale < rhs.scale ? lhs.scale : rhs.scale;
  int32_t const lhs_shift = lhs.scale - min_scale, rhs_shift = rhs.scale - min_scale;
  bool const rescale = op == GCOL_BINARY_ADD || op == GCOL_BINARY_SUB || is_comparison(op) ||
                       is_min_max(op);
  int64_t want_scale = 0;
  p->compute = GCOL_DETAIL_COMPUTE_I128;
  if (op == GCOL_BINARY_ADD || op == GCOL_BINARY_SUB || is_min_max(op)) {
    want_scale = min_scale;
  } else if (op == GCOL_BINARY_MUL) {
    want_scale = (int64_t)lhs.scale + rhs.scale;
  } else if (op == GCOL_BINARY_DIV) {
    want_scale = (int64_t)lhs.scale - rhs.scale;
    p->can_make_nulls = true;
  } else if (!is_comparison(op)) {
    REJECT(GCOL_ERROR_TYPE_MISMATCH, "decimals take add, sub, mul, div, comparisons, min, max");
  }
  if (rescale && (lhs_shift > 38 || rhs_shift > 38)) {
    REJECT(GCOL_ERROR_UNSUPPORTED, "the scales differ by more than 38");
  }
  if (is_comparison(op)) {
    if (output.id != GCOL_BOOL8) REJECT(GCOL_ERROR_TYPE_MISMATCH, "output must be bool8");
  } else if (!gcol_type_is_decimal(output.id) || output.scale != want_scale) {
    char why[96];
    snprintf(why, sizeof why, "output must be a decimal of scale %lld", (long long)want_scale);
    REJECT(GCOL_ERROR_TYPE_MISMATCH, why);
  }
  if (rescale) {
    p->lhs_multiplier = gcol_detail_pow10_multiplier(lhs_shift);
    p->rhs_multiplier = gcol_detail_pow10_multiplier(rhs_shift);
  }
  return GCOL_OK;
}

static gcol_status plan_time(gcol_data_type lhs, gcol_data_type rhs, gcol_binary_op op,
                             gcol_data_type output, gcol_detail_binary_plan *p) {
  type_class const cl = class_of(lhs.id), cr = class_of(rhs.id);
  int64_t const lns = gcol_detail_time_unit_ns(lhs.id), rns = gcol_detail_time_unit_ns(rhs.id);
  int64_t const fine_ns = lns < rns ? lns : rns;
  /* Unit index 0..4 (days .. ns) of the finer unit, to build the output id. */
  gcol_type_id const fine_id = lns < rns ? lhs.id : rhs.id;
  int const unit = gcol_type_is_timestamp(fine_id) ? fine_id - GCOL_TIMESTAMP_DAYS
                                                   : fine_id - GCOL_DURATION_DAYS;
  gcol_type_id const ts = (gcol_type_id)(GCOL_TIMESTAMP_DAYS + unit);
  gcol_type_id const dur = (gcol_type_id)(GCOL_DURATION_DAYS + unit);
  gcol_type_id want = GCOL_EMPTY;
  if (op == GCOL_BINARY_SUB && cl == CLASS_TIMESTAMP && cr == CLASS_TIMESTAMP) {
    want = dur;
  } else if ((op == GCOL_BINARY_ADD || op == GCOL_BINARY_SUB) && cl == CLASS_TIMESTAMP &&
             cr == CLASS_DURATION) {
    want = ts;
  } else if (op == GCOL_BINARY_ADD && cl == CLASS_DURATION && cr == CLASS_TIMESTAMP) {
    want = ts;
  } else if ((op == GCOL_BINARY_ADD || op == GCOL_BINARY_SUB) && cl == CLASS_DURATION &&
             cr == CLASS_DURATION) {
    want = dur;
  } else if ((is_comparison(op) || is_min_max(op)) && cl == cr) {
    want = is_comparison(op) ? GCOL_BOOL8 : (cl == CLASS_TIMESTAMP ? ts : dur);
  } else {
    REJECT(GCOL_ERROR_TYPE_MISMATCH,
           "timestamps and durations take ts - ts, ts +/- duration, duration +/- duration, "
           "comparisons, min and max");
  }
  if (output.id != want) {
    char why[96];
    snprintf(why, sizeof why, "output must be %s", gcol_type_name(want));
    REJECT(GCOL_ERROR_TYPE_MISMATCH, why);
  }
  p->compute = GCOL_DETAIL_COMPUTE_I64;
  p->lhs_multiplier = multiplier_of(lns / fine_ns);
  p->rhs_multiplier = multiplier_of(rns / fine_ns);
  return GCOL_OK;
}

gcol_status gcol_detail_binary_plan_make(gcol_data_type lhs, gcol_data_type rhs,
                                         gcol_binary_op op, gcol_data_type output,
                                         gcol_detail_binary_plan *plan) {
  gcol_detail_binary_plan p;
  gcol_status status = GCOL_OK;
  if ((int)op < 0 || op >= GCOL_NUM_BINARY_OPS) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_binary_operation",
                             "op %d is not a binary operator", (int)op);
  }
  if (!gcol_type_id_is_valid(lhs.id) || !gcol_type_id_is_valid(rhs.id) ||
      !gcol_type_id_is_valid(output.id)) {
    REJECT(GCOL_ERROR_INVALID_ARGUMENT, "invalid type id");
  }
  p.compute = GCOL_DETAIL_COMPUTE_I64;
  p.lhs_multiplier = multiplier_of(1);
  p.rhs_multiplier = multiplier_of(1);
  p.lhs_zero_extend = false;
  p.can_make_nulls = false;
  p.null_aware = gcol_detail_binary_op_is_null_aware(op);
  type_class const cl = class_of(lhs.id), cr = class_of(rhs.id);
  bool const cl_time = cl == CLASS_TIMESTAMP || cl == CLASS_DURATION;
  bool const cr_time = cr == CLASS_TIMESTAMP || cr == CLASS_DURATION;
  if (cl == CLASS_OTHER || cr == CLASS_OTHER || class_of(output.id) == CLASS_OTHER) {
    REJECT(GCOL_ERROR_UNSUPPORTED, "nested, dictionary and empty types are not supported");
  }
  if (cl == CLASS_NUMERIC && cr == CLASS_NUMERIC) {
    status = plan_numeric(lhs, rhs, op, output, &p);
  } else if (cl == CLASS_DECIMAL && cr == CLASS_DECIMAL) {
    status = plan_decimal(lhs, rhs, op, output, &p);
  } else if (cl_time && cr_time) {
    status = plan_time(lhs, rhs, op, output, &p);
  } else if (cl == CLASS_STRING && cr == CLASS_STRING) {
    if (!is_comparison(op)) REJECT(GCOL_ERROR_TYPE_MISMATCH, "strings take comparisons only");
    if (output.id != GCOL_BOOL8) REJECT(GCOL_ERROR_TYPE_MISMATCH, "output must be bool8");
    p.compute = GCOL_DETAIL_COMPUTE_STRING;
  } else {
    REJECT(GCOL_ERROR_TYPE_MISMATCH, "the operand types do not combine (cast one first)");
  }
  if (status == GCOL_OK && plan != NULL) *plan = p;
  return status;
}

static gcol_status binary_op_check_types(gcol_data_type lhs, gcol_data_type rhs, gcol_binary_op op,
                                         gcol_data_type output) {
  return gcol_detail_binary_plan_make(lhs, rhs, op, output, NULL);
}

gcol_status gcol_binary_op_check_types(gcol_data_type lhs, gcol_data_type rhs, gcol_binary_op op,
                                       gcol_data_type output) {
  GCOL_DETAIL_NVTX_PUSH("gcol_binary_op_check_types");
  gcol_status const status = binary_op_check_types(lhs, rhs, op, output);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* The natural output of a numeric pair: the wider type, float over integer, signed wins. */
static gcol_data_type numeric_natural(gcol_type_id l, gcol_type_id r) {
  if (l == GCOL_FLOAT64 || r == GCOL_FLOAT64) return gcol_data_type_make(GCOL_FLOAT64);
  if (gcol_type_is_floating(l) || gcol_type_is_floating(r)) {
    return gcol_data_type_make(GCOL_FLOAT32);
  }
  size_t const wl = gcol_type_size(l), wr = gcol_type_size(r);
  size_t const w = wl > wr ? wl : wr;
  bool const is_signed = gcol_type_is_signed_integral(l) || gcol_type_is_signed_integral(r);
  gcol_type_id const base = is_signed ? GCOL_INT8 : GCOL_UINT8;
  int const step = w == 1 ? 0 : (w == 2 ? 1 : (w == 4 ? 2 : 3));
  return gcol_data_type_make((gcol_type_id)(base + step));
}

static gcol_status binary_op_output_type(gcol_data_type lhs, gcol_data_type rhs, gcol_binary_op op,
                                         gcol_data_type *out) {
  if (out == NULL) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "out is NULL");
  }
  gcol_data_type t = gcol_data_type_make(GCOL_BOOL8);
  type_class const cl = class_of(lhs.id), cr = class_of(rhs.id);
  if (op == GCOL_BINARY_TRUE_DIV) {
    t = gcol_data_type_make(GCOL_FLOAT64);
  } else if (is_comparison(op) || is_logical(op)) {
    t = gcol_data_type_make(GCOL_BOOL8);
  } else if (cl == CLASS_NUMERIC && cr == CLASS_NUMERIC) {
    t = numeric_natural(lhs.id, rhs.id);
  } else if (cl == CLASS_DECIMAL && cr == CLASS_DECIMAL) {
    gcol_type_id const id = lhs.id > rhs.id ? lhs.id : rhs.id;
    int32_t const min_scale = lhs.scale < rhs.scale ? lhs.scale : rhs.scale;
    int32_t scale = min_scale;
    if (op == GCOL_BINARY_MUL) scale = lhs.scale + rhs.scale;
    if (op == GCOL_BINARY_DIV) scale = lhs.scale - rhs.scale;
    t = gcol_data_type_decimal(id, scale);
  } else if ((cl == CLASS_TIMESTAMP || cl == CLASS_DURATION) &&
             (cr == CLASS_TIMESTAMP || cr == CLASS_DURATION)) {
    int64_t const lns = gcol_detail_time_unit_ns(lhs.id), rns = gcol_detail_time_unit_ns(rhs.id);
    gcol_type_id const fine = lns < rns ? lhs.id : rhs.id;
    int const unit = gcol_type_is_timestamp(fine) ? fine - GCOL_TIMESTAMP_DAYS
                                                  : fine - GCOL_DURATION_DAYS;
    bool const to_duration = (cl == CLASS_TIMESTAMP && cr == CLASS_TIMESTAMP)
                                 ? !is_min_max(op)
                                 : (cl == CLASS_DURATION && cr == CLASS_DURATION);
    t = gcol_data_type_make(
        (gcol_type_id)((to_duration ? GCOL_DURATION_DAYS : GCOL_TIMESTAMP_DAYS) + unit));
  }
  gcol_status const status = gcol_binary_op_check_types(lhs, rhs, op, t);
  if (status == GCOL_OK) *out = t;
  return status;
}

gcol_status gcol_binary_op_output_type(gcol_data_type lhs, gcol_data_type rhs, gcol_binary_op op,
                                       gcol_data_type *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_binary_op_output_type");
  gcol_status const status = binary_op_output_type(lhs, rhs, op, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
