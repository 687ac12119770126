/*
 * The no-null fast path of binary operations: operands and output of one 4- or 8-byte
 * storage type, 16-byte aligned, a plain operator (add, sub, mul, bitwise, float div).
 * Each thread keeps two 16-byte loads per operand in flight (HOPPER.md: bytes in flight
 * hide latency) with streaming cache hints, since every byte is touched once.
 * Integer operators run on unsigned words: wrapping add/sub/mul/and/or/xor give the same
 * low bits whatever the signedness and however wide the compute type.
 */
#include "binaryop/binaryop_kernels.h"

#define GCOL_DETAIL_FAST_OP(NAME, EXPR)                                       \
  struct NAME {                                                               \
    template <typename T>                                                     \
    static __device__ __forceinline__ T apply(T a, T b) { return (EXPR); }    \
  };
GCOL_DETAIL_FAST_OP(gcol_detail_fast_add, a + b)
GCOL_DETAIL_FAST_OP(gcol_detail_fast_sub, a - b)
GCOL_DETAIL_FAST_OP(gcol_detail_fast_mul, a * b)
GCOL_DETAIL_FAST_OP(gcol_detail_fast_div, a / b)
GCOL_DETAIL_FAST_OP(gcol_detail_fast_and, a & b)
GCOL_DETAIL_FAST_OP(gcol_detail_fast_or, a | b)
GCOL_DETAIL_FAST_OP(gcol_detail_fast_xor, a ^ b)

/* 16 bytes seen as lanes of T. */
template <typename T>
union gcol_detail_vec16 {
  uint4 v;
  T e[16 / sizeof(T)];
};

template <typename T, typename Op>
static __device__ __forceinline__ uint4 gcol_detail_fast_vec(uint4 a, uint4 b) {
  gcol_detail_vec16<T> x, y, r;
  x.v = a;
  y.v = b;
#pragma unroll
  for (int k = 0; k < (int)(16 / sizeof(T)); ++k) r.e[k] = Op::apply(x.e[k], y.e[k]);
  return r.v;
}

/* A broadcast scalar as a vector of identical lanes. */
template <typename T>
static __device__ __forceinline__ uint4 gcol_detail_splat(T s) {
  gcol_detail_vec16<T> x;
#pragma unroll
  for (int k = 0; k < (int)(16 / sizeof(T)); ++k) x.e[k] = s;
  return x.v;
}

typedef struct gcol_detail_fast_args {
  const void *a;
  const void *b;
  void *out;
  int64_t n;
  uint64_t a_bits; /* scalar bits when a is NULL */
  uint64_t b_bits;
} gcol_detail_fast_args;

template <typename T, typename Op>
static __device__ void gcol_detail_fast_loop(const gcol_detail_fast_args &p) {
  int64_t const lanes = 16 / sizeof(T);
  int64_t const nvec = p.n / lanes;
  int64_t const stride = gcol_detail_grid_stride();
  T as, bs;
  memcpy(&as, &p.a_bits, sizeof(T));
  memcpy(&bs, &p.b_bits, sizeof(T));
  uint4 const a_splat = gcol_detail_splat<T>(as), b_splat = gcol_detail_splat<T>(bs);
  const uint4 *a4 = (const uint4 *)p.a;
  const uint4 *b4 = (const uint4 *)p.b;
  uint4 *o4 = (uint4 *)p.out;
  for (int64_t v = gcol_detail_thread_index(); v < nvec; v += 2 * stride) {
    bool const second = v + stride < nvec;
    uint4 a0 = a_splat, a1 = a_splat, b0 = b_splat, b1 = b_splat;
    if (a4 != NULL) {
      a0 = __ldcs(a4 + v);
      if (second) a1 = __ldcs(a4 + v + stride);
    }
    if (b4 != NULL) {
      b0 = __ldcs(b4 + v);
      if (second) b1 = __ldcs(b4 + v + stride);
    }
    __stcs(o4 + v, gcol_detail_fast_vec<T, Op>(a0, b0));
    if (second) __stcs(o4 + v + stride, gcol_detail_fast_vec<T, Op>(a1, b1));
  }
  const T *a = (const T *)p.a;
  const T *b = (const T *)p.b;
  T *out = (T *)p.out;
  for (int64_t i = nvec * lanes + gcol_detail_thread_index(); i < p.n; i += stride) {
    out[i] = Op::apply(a != NULL ? a[i] : as, b != NULL ? b[i] : bs);
  }
}

template <typename T>
__global__ void gcol_detail_fast_int_kernel(gcol_detail_fast_args p, int op) {
  switch (op) {
    case GCOL_BINARY_ADD: gcol_detail_fast_loop<T, gcol_detail_fast_add>(p); break;
    case GCOL_BINARY_SUB: gcol_detail_fast_loop<T, gcol_detail_fast_sub>(p); break;
    case GCOL_BINARY_MUL: gcol_detail_fast_loop<T, gcol_detail_fast_mul>(p); break;
    case GCOL_BINARY_BITWISE_AND: gcol_detail_fast_loop<T, gcol_detail_fast_and>(p); break;
    case GCOL_BINARY_BITWISE_OR: gcol_detail_fast_loop<T, gcol_detail_fast_or>(p); break;
    default: gcol_detail_fast_loop<T, gcol_detail_fast_xor>(p); break;
  }
}

template <typename T>
__global__ void gcol_detail_fast_float_kernel(gcol_detail_fast_args p, int op) {
  switch (op) {
    case GCOL_BINARY_ADD: gcol_detail_fast_loop<T, gcol_detail_fast_add>(p); break;
    case GCOL_BINARY_SUB: gcol_detail_fast_loop<T, gcol_detail_fast_sub>(p); break;
    case GCOL_BINARY_MUL: gcol_detail_fast_loop<T, gcol_detail_fast_mul>(p); break;
    default: gcol_detail_fast_loop<T, gcol_detail_fast_div>(p); break;
  }
}

static bool is_int_kind(int32_t kind) {
  return kind == GCOL_DETAIL_KIND_SIGNED || kind == GCOL_DETAIL_KIND_UNSIGNED;
}

static bool fast_operand_ok(const gcol_detail_operand &o, int32_t kind_class, int32_t width) {
  bool const kind_ok = kind_class == GCOL_DETAIL_KIND_FLOAT ? o.kind == GCOL_DETAIL_KIND_FLOAT
                                                            : is_int_kind(o.kind);
  return kind_ok && o.width == width && o.mul_lo == 1 && o.mul_hi == 0 &&
         (o.is_scalar || ((uintptr_t)o.data % 16u) == 0);
}

bool gcol_detail_binary_fast_applies(const gcol_detail_binary_launch *l,
                                     const gcol_detail_binary_plan *plan) {
  int32_t const op = l->op;
  int32_t const w = l->out.width;
  if (plan->null_aware || plan->can_make_nulls || l->mask_mode != GCOL_DETAIL_MASK_NONE) return false;
  if ((w != 4 && w != 8) || ((uintptr_t)l->out.data % 16u) != 0) return false;
  if (l->lhs.is_scalar && l->rhs.is_scalar) return false;
  if (plan->compute == GCOL_DETAIL_COMPUTE_F64) {
    bool const op_ok = op == GCOL_BINARY_ADD || op == GCOL_BINARY_SUB || op == GCOL_BINARY_MUL ||
                       op == GCOL_BINARY_DIV || op == GCOL_BINARY_TRUE_DIV;
    return op_ok && l->out.kind == GCOL_DETAIL_KIND_FLOAT &&
           fast_operand_ok(l->lhs, GCOL_DETAIL_KIND_FLOAT, w) &&
           fast_operand_ok(l->rhs, GCOL_DETAIL_KIND_FLOAT, w);
  }
  if (plan->compute != GCOL_DETAIL_COMPUTE_I64 && plan->compute != GCOL_DETAIL_COMPUTE_U64) {
    return false;
  }
  bool const op_ok = op == GCOL_BINARY_ADD || op == GCOL_BINARY_SUB || op == GCOL_BINARY_MUL ||
                     op == GCOL_BINARY_BITWISE_AND || op == GCOL_BINARY_BITWISE_OR ||
                     op == GCOL_BINARY_BITWISE_XOR;
  return op_ok && is_int_kind(l->out.kind) && fast_operand_ok(l->lhs, GCOL_DETAIL_KIND_SIGNED, w) &&
         fast_operand_ok(l->rhs, GCOL_DETAIL_KIND_SIGNED, w);
}

gcol_status gcol_detail_binary_launch_fast(const gcol_detail_binary_launch *l,
                                           gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_detail_fast_args p;
  p.a = l->lhs.is_scalar ? NULL : l->lhs.data;
  p.b = l->rhs.is_scalar ? NULL : l->rhs.data;
  p.out = l->out.data;
  p.n = l->size;
  p.a_bits = l->lhs.scalar_bits[0];
  p.b_bits = l->rhs.scalar_bits[0];
  int const w = l->out.width;
  /* Two vectors per thread per iteration. */
  int64_t const work = (l->size / (16 / w) + 1) / 2 + 1;
  unsigned int const grid = gcol_detail_grid_size(work, GCOL_DETAIL_BLOCK_SIZE);
  if (l->out.kind == GCOL_DETAIL_KIND_FLOAT) {
    if (w == 4) {
      gcol_detail_fast_float_kernel<float><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(p, l->op);
    } else {
      gcol_detail_fast_float_kernel<double><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(p, l->op);
    }
  } else if (w == 4) {
    gcol_detail_fast_int_kernel<uint32_t><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(p, l->op);
  } else {
    gcol_detail_fast_int_kernel<uint64_t><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(p, l->op);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}
