/* Plain-C reference of numeric binary operations: see binary_reference.h and binaryop.h. */
#include "binary_reference.h"

#include <math.h>

__extension__ typedef __int128 ref_i128;

static bool unsigned_like(gcol_type_id id) {
  return gcol_type_is_unsigned_integral(id) || id == GCOL_BOOL8;
}

static bool is_compare(gcol_binary_op op) {
  return op >= GCOL_BINARY_EQUAL && op <= GCOL_BINARY_NULL_EQUALS;
}

/* Stores v (as the mathematical integer it represents, wrapped) into the output. */
static void store_i128(gcol_data_type out, ref_i128 v, unsigned char *bytes) {
  size_t const w = gcol_type_size(out.id);
  if (out.id == GCOL_BOOL8) {
    bytes[0] = v != 0;
  } else if (out.id == GCOL_FLOAT32) {
    float f = (v < 0) ? (float)(int64_t)v : (float)(uint64_t)v;
    memcpy(bytes, &f, 4);
  } else if (out.id == GCOL_FLOAT64) {
    double d = (v < 0) ? (double)(int64_t)v : (double)(uint64_t)v;
    memcpy(bytes, &d, 8);
  } else {
    memcpy(bytes, &v, w); /* little-endian low bytes: two's complement wrap */
  }
}

static void store_f64(gcol_data_type out, double v, unsigned char *bytes) {
  if (out.id == GCOL_FLOAT32) {
    float f = (float)v;
    memcpy(bytes, &f, 4);
  } else if (out.id == GCOL_FLOAT64) {
    memcpy(bytes, &v, 8);
  } else {
    bytes[0] = v != 0.0; /* BOOL8 */
  }
}

/* NULL_MIN / NULL_MAX of floats by the rule of binaryop.h, spelled out: glibc's fmin/fmax
 * return NaN for a signaling NaN (TS 18661), which the rule does not. */
static double ref_min_number(double a, double b, bool want_max) {
  if (isnan(a)) return b;
  if (isnan(b)) return a;
  if (a == b) { /* +-0: -0 is the smaller */
    bool const a_negative = signbit(a) != 0;
    return a_negative != want_max ? a : b;
  }
  return (a < b) != want_max ? a : b;
}

/* POW by C Annex F; glibc returns NaN for pow(sNaN, 0) and pow(1, sNaN), the rule 1. */
static double ref_pow_float(double a, double b) {
  if (b == 0.0 || a == 1.0) return 1.0;
  return pow(a, b);
}

static double ref_float(gcol_binary_op op, double a, double b) {
  switch (op) {
    case GCOL_BINARY_ADD: return a + b;
    case GCOL_BINARY_SUB: return a - b;
    case GCOL_BINARY_MUL: return a * b;
    case GCOL_BINARY_DIV:
    case GCOL_BINARY_TRUE_DIV: return a / b;
    case GCOL_BINARY_FLOOR_DIV: return floor(a / b);
    case GCOL_BINARY_MOD: return fmod(a, b);
    case GCOL_BINARY_PYMOD: { /* CPython's float_rem */
      double m = fmod(a, b);
      if (m != 0) {
        if ((m < 0) != (b < 0)) m += b;
      } else {
        m = copysign(0.0, b);
      }
      return m;
    }
    case GCOL_BINARY_POW: return ref_pow_float(a, b);
    case GCOL_BINARY_LOGICAL_AND:
    case GCOL_BINARY_NULL_LOGICAL_AND: return a != 0 && b != 0;
    case GCOL_BINARY_LOGICAL_OR:
    case GCOL_BINARY_NULL_LOGICAL_OR: return a != 0 || b != 0;
    case GCOL_BINARY_EQUAL:
    case GCOL_BINARY_NULL_EQUALS: return a == b;
    case GCOL_BINARY_NOT_EQUAL: return a != b;
    case GCOL_BINARY_LESS: return a < b;
    case GCOL_BINARY_LESS_EQUAL: return a <= b;
    case GCOL_BINARY_GREATER: return a > b;
    case GCOL_BINARY_GREATER_EQUAL: return a >= b;
    case GCOL_BINARY_NULL_MIN: return ref_min_number(a, b, false);
    case GCOL_BINARY_NULL_MAX: return ref_min_number(a, b, true);
    default: fail_msg("float op %d", (int)op); return 0;
  }
}

/* Integer ops on the mathematical values a, b of the compute type (bits wide, signed or
 * not); the wrap happens at the store (add/sub/mul are ring operations mod 2^64). */
static ref_i128 wrap64(ref_i128 v, bool is_signed) {
  uint64_t const low = (uint64_t)v;
  return is_signed ? (ref_i128)(int64_t)low : (ref_i128)low;
}

static ref_i128 ref_pow(ref_i128 base, ref_i128 e, bool is_signed) {
  if (e < 0) return base == 1 ? 1 : (base == -1 ? ((e & 1) ? -1 : 1) : 0);
  uint64_t result = 1, b = (uint64_t)base;
  for (uint64_t k = (uint64_t)e; k != 0; k >>= 1) {
    if (k & 1) result *= b;
    b *= b;
  }
  return wrap64((ref_i128)result, is_signed);
}

static ref_i128 ref_int(gcol_binary_op op, ref_i128 a, ref_i128 b, bool is_signed, bool *ok) {
  ref_i128 const min64 = is_signed ? (ref_i128)INT64_MIN : 0;
  switch (op) {
    case GCOL_BINARY_ADD: return wrap64(a + b, is_signed);
    case GCOL_BINARY_SUB: return wrap64(a - b, is_signed);
    case GCOL_BINARY_MUL: return wrap64((ref_i128)((uint64_t)a * (uint64_t)b), is_signed);
    case GCOL_BINARY_DIV:
    case GCOL_BINARY_FLOOR_DIV:
    case GCOL_BINARY_MOD:
    case GCOL_BINARY_PYMOD: {
      if (b == 0) {
        *ok = false;
        return 0;
      }
      ref_i128 q = a / b, m = a % b; /* exact in 128 bits, truncating */
      if (op == GCOL_BINARY_FLOOR_DIV || op == GCOL_BINARY_PYMOD) {
        if (m != 0 && ((m < 0) != (b < 0))) {
          q -= 1;
          m += b;
        }
      }
      (void)min64;
      return (op == GCOL_BINARY_DIV || op == GCOL_BINARY_FLOOR_DIV) ? wrap64(q, is_signed) : m;
    }
    case GCOL_BINARY_POW: return ref_pow(a, b, is_signed);
    case GCOL_BINARY_BITWISE_AND: return wrap64((ref_i128)((uint64_t)a & (uint64_t)b), is_signed);
    case GCOL_BINARY_BITWISE_OR: return wrap64((ref_i128)((uint64_t)a | (uint64_t)b), is_signed);
    case GCOL_BINARY_BITWISE_XOR: return wrap64((ref_i128)((uint64_t)a ^ (uint64_t)b), is_signed);
    case GCOL_BINARY_SHIFT_LEFT:
      return (b < 0 || b > 63) ? 0 : wrap64((ref_i128)((uint64_t)a << (int)b), is_signed);
    case GCOL_BINARY_SHIFT_RIGHT:
      if (b < 0 || b > 63) return a < 0 ? -1 : 0;
      return a < 0 ? -((-a - 1) >> (int)b) - 1 : a >> (int)b; /* floor(a / 2^b) */
    case GCOL_BINARY_SHIFT_RIGHT_UNSIGNED:
      return (b < 0 || b > 63) ? 0 : (ref_i128)((uint64_t)a >> (int)b);
    case GCOL_BINARY_LOGICAL_AND:
    case GCOL_BINARY_NULL_LOGICAL_AND: return a != 0 && b != 0;
    case GCOL_BINARY_LOGICAL_OR:
    case GCOL_BINARY_NULL_LOGICAL_OR: return a != 0 || b != 0;
    case GCOL_BINARY_EQUAL:
    case GCOL_BINARY_NULL_EQUALS: return a == b;
    case GCOL_BINARY_NOT_EQUAL: return a != b;
    case GCOL_BINARY_LESS: return a < b;
    case GCOL_BINARY_LESS_EQUAL: return a <= b;
    case GCOL_BINARY_GREATER: return a > b;
    case GCOL_BINARY_GREATER_EQUAL: return a >= b;
    case GCOL_BINARY_NULL_MIN: return a < b ? a : b;
    case GCOL_BINARY_NULL_MAX: return a > b ? a : b;
    default: fail_msg("int op %d", (int)op); return 0;
  }
}

/* The value of element i as the compute type sees it. */
static ref_i128 int_value(const ops_host_col *c, int64_t i, bool as_signed64, bool exact,
                          bool zero_extend) {
  if (zero_extend) return (ref_i128)ops_get_u64(c, i);
  if (unsigned_like(c->type.id)) {
    uint64_t const u = ops_get_u64(c, i);
    return (exact || !as_signed64) ? (ref_i128)u : (ref_i128)(int64_t)u;
  }
  return ops_get_i64(c, i);
}

/* Both-valid result of the op. */
static void core(gcol_binary_op op, const ops_host_col *l, int64_t li, const ops_host_col *r,
                 int64_t ri, gcol_data_type out, unsigned char *bytes, bool *ok, bool *approx) {
  bool const any_float = gcol_type_is_floating(l->type.id) || gcol_type_is_floating(r->type.id);
  if (any_float || op == GCOL_BINARY_TRUE_DIV) {
    double const a = ops_get_f64(l, li), b = ops_get_f64(r, ri);
    *approx = op == GCOL_BINARY_POW;
    store_f64(out, ref_float(op, a, b), bytes);
    return;
  }
  bool const both_unsigned = unsigned_like(l->type.id) && unsigned_like(r->type.id);
  bool const exact = !both_unsigned && (is_compare(op) || op == GCOL_BINARY_NULL_MIN ||
                                        op == GCOL_BINARY_NULL_MAX);
  bool is_signed = !both_unsigned;
  bool zero_extend = false;
  if (op >= GCOL_BINARY_SHIFT_LEFT && op <= GCOL_BINARY_SHIFT_RIGHT_UNSIGNED) {
    is_signed = !unsigned_like(l->type.id) && op != GCOL_BINARY_SHIFT_RIGHT_UNSIGNED;
    zero_extend = op == GCOL_BINARY_SHIFT_RIGHT_UNSIGNED;
  }
  ref_i128 const a = int_value(l, li, is_signed, exact, zero_extend);
  ref_i128 const b = int_value(r, ri, is_signed || (op >= GCOL_BINARY_SHIFT_LEFT &&
                                                    op <= GCOL_BINARY_SHIFT_RIGHT_UNSIGNED &&
                                                    !unsigned_like(r->type.id)), exact, false);
  store_i128(out, ref_int(op, a, b, is_signed, ok), bytes);
}

void ref_binary_numeric(gcol_binary_op op, const ops_host_col *l, int64_t li,
                        const ops_host_col *r, int64_t ri, gcol_data_type out,
                        unsigned char *out_bytes, bool *valid, bool *approx) {
  bool const va = ops_is_valid(l, li), vb = ops_is_valid(r, ri);
  bool ok = true;
  *approx = false;
  memset(out_bytes, 0, gcol_type_size(out.id));
  bool const null_aware = op == GCOL_BINARY_NULL_EQUALS || op == GCOL_BINARY_NULL_LOGICAL_AND ||
                          op == GCOL_BINARY_NULL_LOGICAL_OR || op == GCOL_BINARY_NULL_MIN ||
                          op == GCOL_BINARY_NULL_MAX;
  if (va && vb) {
    core(op, l, li, r, ri, out, out_bytes, &ok, approx);
    *valid = ok;
    return;
  }
  *valid = false;
  if (!null_aware) return;
  double const a = va ? ops_get_f64(l, li) : 0.0, b = vb ? ops_get_f64(r, ri) : 0.0;
  switch (op) {
    case GCOL_BINARY_NULL_EQUALS:
      out_bytes[0] = va == vb;
      *valid = true;
      break;
    case GCOL_BINARY_NULL_LOGICAL_AND:
      if ((va && a == 0.0) || (vb && b == 0.0)) *valid = true; /* false */
      break;
    case GCOL_BINARY_NULL_LOGICAL_OR:
      if ((va && a != 0.0) || (vb && b != 0.0)) {
        out_bytes[0] = 1;
        *valid = true;
      }
      break;
    default: /* NULL_MIN / NULL_MAX: the valid operand, converted like a result */
      if (va || vb) {
        const ops_host_col *c = va ? l : r;
        int64_t const i = va ? li : ri;
        if (gcol_type_is_floating(out.id)) {
          store_f64(out, ops_get_f64(c, i), out_bytes);
        } else {
          bool const both_unsigned = unsigned_like(l->type.id) && unsigned_like(r->type.id);
          store_i128(out, int_value(c, i, !both_unsigned, true, false), out_bytes);
        }
        *valid = true;
      }
      break;
  }
}
