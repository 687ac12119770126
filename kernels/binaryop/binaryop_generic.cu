/*
 * The generic element-wise binary kernel: one instantiation per compute type (int64,
 * uint64, double, int128), the operator a run-time switch that is uniform across the grid,
 * the operands read through width/kind-erased loaders. Four kernels serve every
 * (lhs, rhs, output, op) combination the rules accept.
 */
#include <math.h>

#include "binaryop/binaryop_kernels.h"

/* Exact integer power by squaring, wrapping; negative exponents truncate 1 / base^e. */
template <typename C, typename U>
static __device__ C gcol_detail_int_pow(C base, C exponent) {
  if (gcol_detail_is_negative(exponent)) {
    if (base == 1) return 1;
    if (gcol_detail_is_minus_one(base)) return (exponent & 1) ? base : (C)1;
    return 0;
  }
  U result = 1, b = (U)base, e = (U)exponent;
  while (e != 0) {
    if (e & 1u) result *= b;
    b *= b;
    e >>= 1;
  }
  return (C)result;
}

/* Integer division family; divisor zero gives a null row, MIN / -1 wraps. */
template <typename C, typename U>
static __device__ C gcol_detail_int_divide(int op, C a, C b, bool &ok) {
  if (b == 0) {
    ok = false;
    return 0;
  }
  bool const minus_one = gcol_detail_is_minus_one(b);
  switch (op) {
    case GCOL_BINARY_MOD: return minus_one ? (C)0 : (C)(a % b);
    case GCOL_BINARY_PYMOD: {
      if (minus_one) return 0;
      C r = a % b;
      if (r != 0 && gcol_detail_is_negative(r) != gcol_detail_is_negative(b)) r += b;
      return r;
    }
    case GCOL_BINARY_FLOOR_DIV: {
      if (minus_one) return (C)((U)0 - (U)a);
      C q = a / b;
      if (a % b != 0 && gcol_detail_is_negative(a) != gcol_detail_is_negative(b)) q -= 1;
      return q;
    }
    default: return minus_one ? (C)((U)0 - (U)a) : (C)(a / b);
  }
}

/* Shift counts outside [0, 63] give 0 (or -1 for an arithmetic right shift of a negative). */
template <typename C, typename U>
static __device__ C gcol_detail_int_shift(int op, C a, C b) {
  bool const in_range = !gcol_detail_is_negative(b) && b <= 63;
  int const s = in_range ? (int)b : 0;
  switch (op) {
    case GCOL_BINARY_SHIFT_LEFT: return in_range ? (C)((U)a << s) : (C)0;
    case GCOL_BINARY_SHIFT_RIGHT:
      return in_range ? (C)(a >> s) : (gcol_detail_is_negative(a) ? (C)-1 : (C)0);
    default: return in_range ? (C)((U)a >> s) : (C)0;
  }
}

template <typename C, typename U>
static __device__ C gcol_detail_int_op(int op, C a, C b, bool &ok) {
  switch (op) {
    case GCOL_BINARY_ADD: return (C)((U)a + (U)b);
    case GCOL_BINARY_SUB: return (C)((U)a - (U)b);
    case GCOL_BINARY_MUL: return (C)((U)a * (U)b);
    case GCOL_BINARY_DIV:
    case GCOL_BINARY_TRUE_DIV:
    case GCOL_BINARY_FLOOR_DIV:
    case GCOL_BINARY_MOD:
    case GCOL_BINARY_PYMOD: return gcol_detail_int_divide<C, U>(op, a, b, ok);
    case GCOL_BINARY_POW: return gcol_detail_int_pow<C, U>(a, b);
    case GCOL_BINARY_BITWISE_AND: return a & b;
    case GCOL_BINARY_BITWISE_OR: return a | b;
    case GCOL_BINARY_BITWISE_XOR: return a ^ b;
    case GCOL_BINARY_SHIFT_LEFT:
    case GCOL_BINARY_SHIFT_RIGHT:
    case GCOL_BINARY_SHIFT_RIGHT_UNSIGNED: return gcol_detail_int_shift<C, U>(op, a, b);
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
    default: return a > b ? a : b; /* NULL_MAX */
  }
}

/* NULL_MIN / NULL_MAX of floats (binaryop.h): a NaN operand, quiet or signaling, loses to
 * a number; -0 orders below +0. Spelled out rather than left to fmin/fmax so that the rule
 * does not depend on how a math library treats signaling NaNs or the sign of zero. */
static __device__ double gcol_detail_min_number(double a, double b, bool want_max) {
  if (isnan(a)) return b; /* NaN when both are */
  if (isnan(b)) return a;
  if (a == b) return (signbit(a) != 0) != want_max ? a : b; /* +-0 */
  return (a < b) != want_max ? a : b;
}

/* POW of floats: C pow (Annex F), with pow(x, +-0) = 1 and pow(1, y) = 1 for every x and y,
 * NaNs of either kind included. */
static __device__ double gcol_detail_float_pow(double a, double b) {
  if (b == 0.0 || a == 1.0) return 1.0;
  return pow(a, b);
}

static __device__ double gcol_detail_float_op(int op, double a, double b) {
  switch (op) {
    case GCOL_BINARY_ADD: return a + b;
    case GCOL_BINARY_SUB: return a - b;
    case GCOL_BINARY_MUL: return a * b;
    case GCOL_BINARY_DIV:
    case GCOL_BINARY_TRUE_DIV: return a / b;
    case GCOL_BINARY_FLOOR_DIV: return floor(a / b);
    case GCOL_BINARY_MOD: return fmod(a, b);
    case GCOL_BINARY_PYMOD: { /* Python's float %: a zero result takes the divisor's sign */
      double r = fmod(a, b);
      if (r != 0.0) {
        if ((r < 0.0) != (b < 0.0)) r += b;
      } else {
        r = copysign(0.0, b);
      }
      return r;
    }
    case GCOL_BINARY_POW: return gcol_detail_float_pow(a, b);
    case GCOL_BINARY_LOGICAL_AND:
    case GCOL_BINARY_NULL_LOGICAL_AND: return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
    case GCOL_BINARY_LOGICAL_OR:
    case GCOL_BINARY_NULL_LOGICAL_OR: return (a != 0.0 || b != 0.0) ? 1.0 : 0.0;
    case GCOL_BINARY_EQUAL:
    case GCOL_BINARY_NULL_EQUALS: return a == b ? 1.0 : 0.0;
    case GCOL_BINARY_NOT_EQUAL: return a != b ? 1.0 : 0.0;
    case GCOL_BINARY_LESS: return a < b ? 1.0 : 0.0;
    case GCOL_BINARY_LESS_EQUAL: return a <= b ? 1.0 : 0.0;
    case GCOL_BINARY_GREATER: return a > b ? 1.0 : 0.0;
    case GCOL_BINARY_GREATER_EQUAL: return a >= b ? 1.0 : 0.0;
    case GCOL_BINARY_NULL_MIN: return gcol_detail_min_number(a, b, false);
    case GCOL_BINARY_NULL_MAX: return gcol_detail_min_number(a, b, true);
    default: return 0.0; /* bitwise ops never reach floats */
  }
}

static __device__ __forceinline__ int64_t gcol_detail_apply(int op, int64_t a, int64_t b, bool &ok) {
  return gcol_detail_int_op<int64_t, uint64_t>(op, a, b, ok);
}
static __device__ __forceinline__ uint64_t gcol_detail_apply(int op, uint64_t a, uint64_t b, bool &ok) {
  return gcol_detail_int_op<uint64_t, uint64_t>(op, a, b, ok);
}
static __device__ __forceinline__ gcol_detail_i128 gcol_detail_apply(int op, gcol_detail_i128 a,
                                                            gcol_detail_i128 b, bool &ok) {
  return gcol_detail_int_op<gcol_detail_i128, gcol_detail_u128>(op, a, b, ok);
}
static __device__ __forceinline__ double gcol_detail_apply(int op, double a, double b, bool &) {
  return gcol_detail_float_op(op, a, b);
}

/* The null-aware ops: result and validity from both values and both validities. */
template <typename C>
static __device__ C gcol_detail_apply_null_aware(int op, C a, bool va, C b, bool vb, bool &valid) {
  bool ok = true;
  valid = true;
  if (va && vb) return gcol_detail_apply(op, a, b, ok);
  switch (op) {
    case GCOL_BINARY_NULL_EQUALS: return (C)(va == vb ? 1 : 0);
    case GCOL_BINARY_NULL_LOGICAL_AND:
      if ((va && a == 0) || (vb && b == 0)) return (C)0;
      break;
    case GCOL_BINARY_NULL_LOGICAL_OR:
      if ((va && a != 0) || (vb && b != 0)) return (C)1;
      break;
    default: /* NULL_MIN, NULL_MAX: the valid one */
      if (va) return a;
      if (vb) return b;
      break;
  }
  valid = false;
  return (C)0;
}

template <typename C>
__global__ void gcol_detail_binary_kernel(gcol_detail_binary_launch l) {
  C const lhs_scalar = l.lhs.is_scalar ? gcol_detail_operand_get<C>(l.lhs, 0) : (C)0;
  C const rhs_scalar = l.rhs.is_scalar ? gcol_detail_operand_get<C>(l.rhs, 0) : (C)0;
  GCOL_DETAIL_WARP_LOOP(word, i, l.size) {
    bool valid = false;
    if (i < l.size) {
      C const a = l.lhs.is_scalar ? lhs_scalar : gcol_detail_operand_get<C>(l.lhs, i);
      C const b = l.rhs.is_scalar ? rhs_scalar : gcol_detail_operand_get<C>(l.rhs, i);
      C r;
      if (l.null_aware) {
        r = gcol_detail_apply_null_aware<C>(l.op, a, gcol_detail_operand_valid(l.lhs, i), b,
                                            gcol_detail_operand_valid(l.rhs, i), valid);
      } else {
        valid = true;
        r = gcol_detail_apply(l.op, a, b, valid);
      }
      gcol_detail_store(l.out, i, r);
    }
    gcol_detail_warp_mask_update(l.mask, l.mask_mode, word, valid);
  }
}

gcol_status gcol_detail_binary_launch_generic(const gcol_detail_binary_launch *l,
                                              gcol_detail_compute compute, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  unsigned int const grid = gcol_detail_grid_size(l->size, GCOL_DETAIL_BLOCK_SIZE);
  switch (compute) {
    case GCOL_DETAIL_COMPUTE_I64:
      gcol_detail_binary_kernel<int64_t><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(*l);
      break;
    case GCOL_DETAIL_COMPUTE_U64:
      gcol_detail_binary_kernel<uint64_t><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(*l);
      break;
    case GCOL_DETAIL_COMPUTE_F64:
      gcol_detail_binary_kernel<double><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(*l);
      break;
    case GCOL_DETAIL_COMPUTE_I128:
      gcol_detail_binary_kernel<gcol_detail_i128><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(*l);
      break;
    default:
      GCOL_DETAIL_FAIL(GCOL_ERROR_INTERNAL, "compute type %d has no generic kernel", (int)compute);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}
