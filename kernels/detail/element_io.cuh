/*
 * Width- and kind-erased element access for the element-wise kernels (binary, unary, cast):
 * an operand is (pointer, kind, width, multiplier); the kernel is instantiated once per
 * compute type and converts each element to it on load and from it on store. The branch on
 * kind/width is uniform across the grid, so it costs a few instructions and saves hundreds
 * of instantiations (the indexalator idea, applied to values).
 */
#ifndef GCOL_KERNELS_DETAIL_ELEMENT_IO_CUH
#define GCOL_KERNELS_DETAIL_ELEMENT_IO_CUH

#include <stdint.h>
#include <string.h>

#include "common.cuh"
#include "detail/element_kind.h"
#include "gcol/scalar.h"

typedef __int128 gcol_detail_i128;
typedef unsigned __int128 gcol_detail_u128;


/* One input of an element-wise kernel: a column or a broadcast scalar. */
typedef struct gcol_detail_operand {
  const void *data;          /* element 0 (the column's offset applied); NULL for a scalar */
  const uint32_t *null_mask; /* NULL: all valid */
  int64_t mask_offset;       /* bit of element 0 */
  int32_t kind;              /* gcol_detail_kind */
  int32_t width;             /* bytes */
  bool is_scalar;
  bool scalar_valid;
  uint64_t scalar_bits[2];   /* the scalar's storage bytes */
  uint64_t mul_lo, mul_hi;   /* multiplier applied after loading (1 = none) */
} gcol_detail_operand;

/* One output: kind and width as above, element 0 at data. */
typedef struct gcol_detail_result {
  void *data;
  int32_t kind;
  int32_t width;
} gcol_detail_result;

/* The storage kind of a type (INT128 for DECIMAL128, unlike aggregate.h's gcol_detail_kind_of). */
static inline int32_t gcol_detail_element_kind_of(gcol_type_id id) {
  if (id == GCOL_BOOL8) return GCOL_DETAIL_KIND_BOOL;
  if (gcol_type_is_floating(id)) return GCOL_DETAIL_KIND_FLOAT;
  if (id == GCOL_DECIMAL128) return GCOL_DETAIL_KIND_INT128;
  if (gcol_type_is_unsigned_integral(id)) return GCOL_DETAIL_KIND_UNSIGNED;
  return GCOL_DETAIL_KIND_SIGNED;
}

/* An operand over a fixed-width column view. */
static inline gcol_detail_operand gcol_detail_operand_of_column(gcol_column_view v,
                                                                gcol_detail_multiplier m) {
  gcol_detail_operand o;
  memset(&o, 0, sizeof o);
  o.width = (int32_t)gcol_type_size(v.type.id);
  o.data = v.data == NULL ? NULL : (const char *)v.data + v.offset * o.width;
  o.null_mask = v.null_mask;
  o.mask_offset = v.offset;
  o.kind = gcol_detail_element_kind_of(v.type.id);
  o.mul_lo = m.lo;
  o.mul_hi = m.hi;
  return o;
}

/* An operand broadcasting a fixed-width host scalar (its bytes go in the kernel argument). */
static inline gcol_detail_operand gcol_detail_operand_of_scalar(const gcol_scalar *s,
                                                                gcol_detail_multiplier m) {
  gcol_detail_operand o;
  memset(&o, 0, sizeof o);
  o.width = (int32_t)gcol_type_size(s->type.id);
  o.kind = gcol_detail_element_kind_of(s->type.id);
  o.is_scalar = true;
  o.scalar_valid = s->is_valid;
  memcpy(o.scalar_bits, &s->value, o.width <= 16 ? (size_t)o.width : 16u);
  o.mul_lo = m.lo;
  o.mul_hi = m.hi;
  return o;
}

/* Sign tests that do not warn on unsigned types. */
static __device__ __forceinline__ bool gcol_detail_is_negative(int64_t v) { return v < 0; }
static __device__ __forceinline__ bool gcol_detail_is_negative(uint64_t) { return false; }
static __device__ __forceinline__ bool gcol_detail_is_negative(gcol_detail_i128 v) { return v < 0; }
static __device__ __forceinline__ bool gcol_detail_is_minus_one(int64_t v) { return v == -1; }
static __device__ __forceinline__ bool gcol_detail_is_minus_one(uint64_t) { return false; }
static __device__ __forceinline__ bool gcol_detail_is_minus_one(gcol_detail_i128 v) { return v == -1; }

/* ---- loads ---- */

template <typename C>
struct gcol_detail_tag {};

/* Raw element at p[i] in the widest type of its kind. */
static __device__ __forceinline__ int64_t gcol_detail_raw_signed(const void *p, int32_t w, int64_t i) {
  switch (w) {
    case 1: return ((const int8_t *)p)[i];
    case 2: return ((const int16_t *)p)[i];
    case 4: return ((const int32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
  }
}

static __device__ __forceinline__ uint64_t gcol_detail_raw_unsigned(const void *p, int32_t w, int64_t i) {
  switch (w) {
    case 1: return ((const uint8_t *)p)[i];
    case 2: return ((const uint16_t *)p)[i];
    case 4: return ((const uint32_t *)p)[i];
    default: return ((const uint64_t *)p)[i];
  }
}

static __device__ __forceinline__ double gcol_detail_raw_float(const void *p, int32_t w, int64_t i) {
  return w == 4 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

static __device__ __forceinline__ gcol_detail_i128 gcol_detail_raw_i128(const void *p, int64_t i) {
  const uint64_t *q = (const uint64_t *)p + 2 * i;
  return (gcol_detail_i128)(((gcol_detail_u128)q[1] << 64) | q[0]);
}

static __device__ __forceinline__ int64_t gcol_detail_load(gcol_detail_tag<int64_t>, int32_t kind,
                                                  int32_t w, const void *p, int64_t i) {
  switch (kind) {
    case GCOL_DETAIL_KIND_SIGNED: return gcol_detail_raw_signed(p, w, i);
    case GCOL_DETAIL_KIND_FLOAT: return (int64_t)gcol_detail_raw_float(p, w, i);
    case GCOL_DETAIL_KIND_INT128: return (int64_t)gcol_detail_raw_i128(p, i);
    case GCOL_DETAIL_KIND_BOOL: return ((const uint8_t *)p)[i] != 0;
    default: return (int64_t)gcol_detail_raw_unsigned(p, w, i);
  }
}

static __device__ __forceinline__ uint64_t gcol_detail_load(gcol_detail_tag<uint64_t>, int32_t kind,
                                                   int32_t w, const void *p, int64_t i) {
  switch (kind) {
    case GCOL_DETAIL_KIND_SIGNED: return (uint64_t)gcol_detail_raw_signed(p, w, i);
    case GCOL_DETAIL_KIND_FLOAT: return (uint64_t)gcol_detail_raw_float(p, w, i);
    case GCOL_DETAIL_KIND_INT128: return (uint64_t)gcol_detail_raw_i128(p, i);
    case GCOL_DETAIL_KIND_BOOL: return ((const uint8_t *)p)[i] != 0;
    default: return gcol_detail_raw_unsigned(p, w, i);
  }
}

static __device__ __forceinline__ double gcol_detail_load(gcol_detail_tag<double>, int32_t kind,
                                                 int32_t w, const void *p, int64_t i) {
  switch (kind) {
    case GCOL_DETAIL_KIND_SIGNED: return (double)gcol_detail_raw_signed(p, w, i);
    case GCOL_DETAIL_KIND_FLOAT: return gcol_detail_raw_float(p, w, i);
    case GCOL_DETAIL_KIND_INT128: return (double)gcol_detail_raw_i128(p, i);
    case GCOL_DETAIL_KIND_BOOL: return ((const uint8_t *)p)[i] != 0 ? 1.0 : 0.0;
    default: return (double)gcol_detail_raw_unsigned(p, w, i);
  }
}

static __device__ __forceinline__ gcol_detail_i128 gcol_detail_load(gcol_detail_tag<gcol_detail_i128>,
                                                           int32_t kind, int32_t w,
                                                           const void *p, int64_t i) {
  switch (kind) {
    case GCOL_DETAIL_KIND_SIGNED: return gcol_detail_raw_signed(p, w, i);
    case GCOL_DETAIL_KIND_FLOAT: return (gcol_detail_i128)(int64_t)gcol_detail_raw_float(p, w, i);
    case GCOL_DETAIL_KIND_INT128: return gcol_detail_raw_i128(p, i);
    case GCOL_DETAIL_KIND_BOOL: return ((const uint8_t *)p)[i] != 0;
    default: return (gcol_detail_i128)gcol_detail_raw_unsigned(p, w, i);
  }
}

/* Applies the operand's multiplier (wrapping); floats and a multiplier of 1 are untouched. */
static __device__ __forceinline__ int64_t gcol_detail_scale(int64_t v, const gcol_detail_operand &o) {
  return (int64_t)((uint64_t)v * o.mul_lo);
}
static __device__ __forceinline__ uint64_t gcol_detail_scale(uint64_t v, const gcol_detail_operand &o) {
  return v * o.mul_lo;
}
static __device__ __forceinline__ double gcol_detail_scale(double v, const gcol_detail_operand &) {
  return v;
}
static __device__ __forceinline__ gcol_detail_i128 gcol_detail_scale(gcol_detail_i128 v,
                                                            const gcol_detail_operand &o) {
  gcol_detail_u128 const m = ((gcol_detail_u128)o.mul_hi << 64) | o.mul_lo;
  return (gcol_detail_i128)((gcol_detail_u128)v * m);
}

/* Element i of a column operand, or the scalar's value, converted to C and scaled. */
template <typename C>
static __device__ __forceinline__ C gcol_detail_operand_get(const gcol_detail_operand &o, int64_t i) {
  C const v = o.is_scalar ? gcol_detail_load(gcol_detail_tag<C>(), o.kind, o.width, o.scalar_bits, 0)
                          : gcol_detail_load(gcol_detail_tag<C>(), o.kind, o.width, o.data, i);
  return gcol_detail_scale(v, o);
}

/* Validity of element i (a scalar: its own validity). */
static __device__ __forceinline__ bool gcol_detail_operand_valid(const gcol_detail_operand &o,
                                                                 int64_t i) {
  if (o.is_scalar) return o.scalar_valid;
  return gcol_bit_is_set_or_null_mask(o.null_mask, o.mask_offset + i);
}

/* ---- stores ---- */

static __device__ __forceinline__ void gcol_detail_store_int(const gcol_detail_result &r, int64_t i,
                                                    uint64_t bits) {
  switch (r.width) {
    case 1: ((uint8_t *)r.data)[i] = (uint8_t)bits; break;
    case 2: ((uint16_t *)r.data)[i] = (uint16_t)bits; break;
    case 4: ((uint32_t *)r.data)[i] = (uint32_t)bits; break;
    default: ((uint64_t *)r.data)[i] = bits; break;
  }
}

static __device__ __forceinline__ void gcol_detail_store_i128(const gcol_detail_result &r, int64_t i,
                                                     gcol_detail_i128 v) {
  uint64_t *q = (uint64_t *)r.data + 2 * i;
  q[0] = (uint64_t)v;
  q[1] = (uint64_t)((gcol_detail_u128)v >> 64);
}

static __device__ __forceinline__ void gcol_detail_store_float(const gcol_detail_result &r, int64_t i,
                                                      double v) {
  if (r.width == 4) {
    ((float *)r.data)[i] = (float)v;
  } else {
    ((double *)r.data)[i] = v;
  }
}

static __device__ __forceinline__ void gcol_detail_store(const gcol_detail_result &r, int64_t i,
                                                int64_t v) {
  switch (r.kind) {
    case GCOL_DETAIL_KIND_BOOL: ((uint8_t *)r.data)[i] = v != 0; break;
    case GCOL_DETAIL_KIND_FLOAT:
      /* Convert directly to the output's width: int64 -> float rounds once. */
      if (r.width == 4) {
        ((float *)r.data)[i] = (float)v;
      } else {
        ((double *)r.data)[i] = (double)v;
      }
      break;
    case GCOL_DETAIL_KIND_INT128: gcol_detail_store_i128(r, i, v); break;
    default: gcol_detail_store_int(r, i, (uint64_t)v); break;
  }
}

static __device__ __forceinline__ void gcol_detail_store(const gcol_detail_result &r, int64_t i,
                                                uint64_t v) {
  switch (r.kind) {
    case GCOL_DETAIL_KIND_BOOL: ((uint8_t *)r.data)[i] = v != 0; break;
    case GCOL_DETAIL_KIND_FLOAT:
      if (r.width == 4) {
        ((float *)r.data)[i] = (float)v;
      } else {
        ((double *)r.data)[i] = (double)v;
      }
      break;
    case GCOL_DETAIL_KIND_INT128: gcol_detail_store_i128(r, i, (gcol_detail_i128)v); break;
    default: gcol_detail_store_int(r, i, v); break;
  }
}

static __device__ __forceinline__ void gcol_detail_store(const gcol_detail_result &r, int64_t i,
                                                double v) {
  switch (r.kind) {
    case GCOL_DETAIL_KIND_BOOL: ((uint8_t *)r.data)[i] = v != 0.0; break;
    case GCOL_DETAIL_KIND_FLOAT: gcol_detail_store_float(r, i, v); break;
    /* Validation never routes float results to integers (casts have their own path). */
    default: gcol_detail_store_int(r, i, (uint64_t)(int64_t)v); break;
  }
}

static __device__ __forceinline__ void gcol_detail_store(const gcol_detail_result &r, int64_t i,
                                                gcol_detail_i128 v) {
  switch (r.kind) {
    case GCOL_DETAIL_KIND_BOOL: ((uint8_t *)r.data)[i] = v != 0; break;
    case GCOL_DETAIL_KIND_INT128: gcol_detail_store_i128(r, i, v); break;
    case GCOL_DETAIL_KIND_FLOAT: gcol_detail_store_float(r, i, (double)v); break;
    default: gcol_detail_store_int(r, i, (uint64_t)v); break;
  }
}

/* ---- output validity written a warp word at a time ---- */

/* How a kernel treats the output mask. */
typedef enum gcol_detail_mask_mode {
  GCOL_DETAIL_MASK_NONE = 0, /* no mask, or one already final */
  GCOL_DETAIL_MASK_AND,      /* clear the bits of rows the op made null */
  GCOL_DETAIL_MASK_WRITE     /* write every bit from the computed validity */
} gcol_detail_mask_mode;

/* Combines one warp's validity bits into mask word `word` (all 32 lanes call this). */
static __device__ __forceinline__ void gcol_detail_warp_mask_update(uint32_t *mask, int mode,
                                                           int64_t word, bool valid) {
  uint32_t const bits = __ballot_sync(0xFFFFFFFFu, valid);
  if (mode == GCOL_DETAIL_MASK_NONE || (threadIdx.x & 31u) != 0) return;
  if (mode == GCOL_DETAIL_MASK_AND) {
    mask[word] &= bits;
  } else {
    mask[word] = bits;
  }
}

/* for (w...) over warp-sized row groups, each lane taking row w * 32 + lane. */
#define GCOL_DETAIL_WARP_LOOP(word, row, n)                                                   \
  for (int64_t word = gcol_detail_thread_index() >> 5, row = (word << 5) + (threadIdx.x & 31u); \
       (word << 5) < (int64_t)(n);                                                            \
       word += gcol_detail_grid_stride() >> 5, row = (word << 5) + (threadIdx.x & 31u))

#endif /* GCOL_KERNELS_DETAIL_ELEMENT_IO_CUH */
