/*
 * Aggregation helpers shared by reductions, segmented reductions, quantiles and scans (and
 * groupby next): a
 * run-time-typed element reader (so one kernel instantiation serves every fixed-width
 * type), order-preserving 64-bit keys (so min, max, argmin, argmax and sorting need one
 * instantiation for all types), and a storage writer. Plain C with GCOL_HD_INLINE: the host
 * tests compile this header with gcc and check every helper on the CPU.
 *
 * Why 64-bit domains: integer sums and products wrap identically in two's complement
 * whatever the signedness and width, so accumulating sign- or zero-extended values as
 * uint64 and truncating the result to the output width gives exactly the narrow result.
 */
#ifndef GCOL_KERNELS_DETAIL_AGGREGATE_H
#define GCOL_KERNELS_DETAIL_AGGREGATE_H

#include <math.h>
#include <string.h>

#include "gcol/bits.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/reduction.h"
#include "gcol/types.h"
#include "detail/element_kind.h"

#ifdef __cplusplus
extern "C" {
#endif


/* Reads row i of a fixed-width column of width 1, 2, 4 or 8 (offset already applied). */
typedef struct gcol_detail_reader {
  const void *data;      /* row 0 */
  const uint32_t *mask;  /* NULL: every row valid */
  int64_t mask_offset;   /* bit of row 0 in mask */
  int32_t width;         /* bytes per element */
  int32_t kind;          /* gcol_detail_kind */
} gcol_detail_reader;

/* The kind of a fixed-width type id (DECIMAL128 and non-fixed-width types: -1). */
GCOL_HD_INLINE int32_t gcol_detail_kind_of(gcol_type_id id) {
  if (id == GCOL_BOOL8) return GCOL_DETAIL_KIND_BOOL;
  if (gcol_type_is_floating(id)) return GCOL_DETAIL_KIND_FLOAT;
  if (gcol_type_is_unsigned_integral(id)) return GCOL_DETAIL_KIND_UNSIGNED;
  if (gcol_type_is_signed_integral(id) || gcol_type_is_timestamp(id) ||
      gcol_type_is_duration(id) || id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64) {
    return GCOL_DETAIL_KIND_SIGNED;
  }
  return -1;
}

/* A reader over a fixed-width view whose type has a kind (see gcol_detail_kind_of). */
GCOL_HD_INLINE gcol_detail_reader gcol_detail_reader_make(gcol_column_view view) {
  gcol_detail_reader r;
  r.width = (int32_t)gcol_type_size(view.type.id);
  r.kind = gcol_detail_kind_of(view.type.id);
  r.data = view.data == NULL ? NULL : (const char *)view.data + view.offset * (int64_t)r.width;
  r.mask = view.null_mask;
  r.mask_offset = view.offset;
  return r;
}

GCOL_HD_INLINE bool gcol_detail_reader_valid(gcol_detail_reader r, int64_t i) {
  return r.mask == NULL || gcol_bit_is_set(r.mask, r.mask_offset + i);
}

/* An integer element sign- or zero-extended to 64 bits (BOOL8: 0 or 1; floats: not used). */
GCOL_HD_INLINE uint64_t gcol_detail_reader_bits(gcol_detail_reader r, int64_t i) {
  if (r.kind == GCOL_DETAIL_KIND_SIGNED) {
    switch (r.width) {
      case 1: return (uint64_t)(int64_t)((const int8_t *)r.data)[i];
      case 2: return (uint64_t)(int64_t)((const int16_t *)r.data)[i];
      case 4: return (uint64_t)(int64_t)((const int32_t *)r.data)[i];
      default: return (uint64_t)((const int64_t *)r.data)[i];
    }
  }
  if (r.kind == GCOL_DETAIL_KIND_BOOL) return ((const uint8_t *)r.data)[i] != 0 ? 1u : 0u;
  switch (r.width) {
    case 1: return ((const uint8_t *)r.data)[i];
    case 2: return ((const uint16_t *)r.data)[i];
    case 4: return ((const uint32_t *)r.data)[i];
    default: return ((const uint64_t *)r.data)[i];
  }
}

/* Any numeric element as double (int64 beyond 2^53 rounds). */
GCOL_HD_INLINE double gcol_detail_reader_f64(gcol_detail_reader r, int64_t i) {
  if (r.kind == GCOL_DETAIL_KIND_FLOAT) {
    return r.width == 4 ? (double)((const float *)r.data)[i] : ((const double *)r.data)[i];
  }
  uint64_t const bits = gcol_detail_reader_bits(r, i);
  return r.kind == GCOL_DETAIL_KIND_SIGNED ? (double)(int64_t)bits : (double)bits;
}

/* True if the element is not zero (NaN is non-zero, -0.0 is zero). */
GCOL_HD_INLINE bool gcol_detail_reader_nonzero(gcol_detail_reader r, int64_t i) {
  if (r.kind == GCOL_DETAIL_KIND_FLOAT) return gcol_detail_reader_f64(r, i) != 0.0;
  return gcol_detail_reader_bits(r, i) != 0;
}

GCOL_HD_INLINE uint64_t gcol_detail_f64_bits(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return bits;
}

GCOL_HD_INLINE double gcol_detail_f64_from_bits(uint64_t bits) {
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

/* Sign bit of a 64-bit word. */
#define GCOL_DETAIL_SIGN64 0x8000000000000000ull

/*
 * The order-preserving key of a double: -Inf < ... < -0.0 < +0.0 < ... < +Inf < NaN, every
 * NaN mapped to the one largest key (so NaN sorts last, is the max and never the min
 * unless every value is NaN).
 */
GCOL_HD_INLINE uint64_t gcol_detail_key_from_f64(double x) {
  if (x != x) return ~0ull;
  uint64_t const bits = gcol_detail_f64_bits(x);
  return (bits & GCOL_DETAIL_SIGN64) != 0 ? ~bits : (bits | GCOL_DETAIL_SIGN64);
}

/* The double of a key (the largest key gives a NaN). */
GCOL_HD_INLINE double gcol_detail_f64_from_key(uint64_t key) {
  uint64_t const bits = (key & GCOL_DETAIL_SIGN64) != 0 ? (key & ~GCOL_DETAIL_SIGN64) : ~key;
  return gcol_detail_f64_from_bits(bits);
}

/* The order-preserving unsigned key of row i, for every kind. */
GCOL_HD_INLINE uint64_t gcol_detail_reader_key(gcol_detail_reader r, int64_t i) {
  if (r.kind == GCOL_DETAIL_KIND_FLOAT) return gcol_detail_key_from_f64(gcol_detail_reader_f64(r, i));
  uint64_t const bits = gcol_detail_reader_bits(r, i);
  return r.kind == GCOL_DETAIL_KIND_SIGNED ? bits ^ GCOL_DETAIL_SIGN64 : bits;
}

/*
 * The storage bits (low `width` bytes, little-endian) of a key decoded into a value of
 * (kind, width): the inverse of gcol_detail_reader_key for values that came from that type.
 */
GCOL_HD_INLINE uint64_t gcol_detail_storage_from_key(uint64_t key, int32_t kind, int32_t width) {
  if (kind == GCOL_DETAIL_KIND_FLOAT) {
    double const x = gcol_detail_f64_from_key(key);
    if (width == 4) {
      float const f = (float)x;
      uint32_t fbits;
      memcpy(&fbits, &f, sizeof fbits);
      return fbits;
    }
    return gcol_detail_f64_bits(x);
  }
  return kind == GCOL_DETAIL_KIND_SIGNED ? key ^ GCOL_DETAIL_SIGN64 : key;
}

/* The storage bits of a double stored as float (width 4) or double (width 8). */
GCOL_HD_INLINE uint64_t gcol_detail_storage_from_f64(double x, int32_t width) {
  if (width == 4) {
    float const f = (float)x;
    uint32_t fbits;
    memcpy(&fbits, &f, sizeof fbits);
    return fbits;
  }
  return gcol_detail_f64_bits(x);
}

/* Writes the low `width` bytes of `bits` as element i of `data`. */
GCOL_HD_INLINE void gcol_detail_store_bits(void *data, int64_t i, int32_t width, uint64_t bits) {
  switch (width) {
    case 1: ((uint8_t *)data)[i] = (uint8_t)bits; break;
    case 2: ((uint16_t *)data)[i] = (uint16_t)bits; break;
    case 4: ((uint32_t *)data)[i] = (uint32_t)bits; break;
    default: ((uint64_t *)data)[i] = bits; break;
  }
}

/*
 * Partial moments of a set of values: count, sum and the sum of squared deviations from
 * the mean (m2). Merged with Chan et al.'s parallel formula, which stays accurate where
 * sum(x^2) - n*mean^2 cancels catastrophically. The mean is kept as sum / n so that
 * infinities give the IEEE mean (a running mean would turn [inf, 1] into NaN).
 */
typedef struct gcol_detail_moments {
  double n;
  double sum;
  double m2;
} gcol_detail_moments;

GCOL_HD_INLINE gcol_detail_moments gcol_detail_moments_make(double n, double sum, double m2) {
  gcol_detail_moments m;
  m.n = n;
  m.sum = sum;
  m.m2 = m2;
  return m;
}

GCOL_HD_INLINE gcol_detail_moments gcol_detail_moments_merge(gcol_detail_moments a,
                                                             gcol_detail_moments b) {
  if (a.n == 0) return b;
  if (b.n == 0) return a;
  double const n = a.n + b.n;
  double const delta = b.sum / b.n - a.sum / a.n;
  return gcol_detail_moments_make(n, a.sum + b.sum, a.m2 + b.m2 + delta * delta * (a.n * b.n / n));
}

/* How a reduction accumulates: the accumulator type and the operator. */
typedef enum gcol_detail_family {
  GCOL_DETAIL_FAMILY_U64_PLUS = 0,  /* wrapping integer sum (uint64) */
  GCOL_DETAIL_FAMILY_U64_TIMES = 1, /* wrapping integer product */
  GCOL_DETAIL_FAMILY_U64_MAX = 2,   /* max of keys: min, max (complemented keys), any, all */
  GCOL_DETAIL_FAMILY_F64_PLUS = 3,  /* float sum in double */
  GCOL_DETAIL_FAMILY_F64_TIMES = 4, /* float product in double */
  GCOL_DETAIL_FAMILY_MOMENTS = 5,   /* mean, variance, std */
  GCOL_DETAIL_FAMILY_KEY_INDEX = 6, /* argmin, argmax */
  GCOL_DETAIL_FAMILY_COUNT = 7      /* counts: no values read */
} gcol_detail_family;

/* What the per-row map produces in the uint64 families. */
typedef enum gcol_detail_map_mode {
  GCOL_DETAIL_MAP_BITS = 0,           /* the value's 64-bit pattern (integer sums, products) */
  GCOL_DETAIL_MAP_BITS_SQUARE = 1,    /* its wrapping square (sum of squares) */
  GCOL_DETAIL_MAP_KEY = 2,            /* the order-preserving key (max) */
  GCOL_DETAIL_MAP_KEY_COMPLEMENT = 3, /* ~key: max of ~key is ~min (min) */
  GCOL_DETAIL_MAP_NONZERO = 4,        /* 1 if non-zero (any) */
  GCOL_DETAIL_MAP_ZERO = 5,           /* 1 if zero (all = !max(zero)) */
  GCOL_DETAIL_MAP_VALUE = 6,          /* doubles: the value (float sums, products) */
  GCOL_DETAIL_MAP_SQUARE = 7          /* doubles: its square */
} gcol_detail_map_mode;

/* Everything a kernel and the host need to run and finish one reduction. */
typedef struct gcol_detail_reduce_plan {
  int32_t op;        /* gcol_reduce_op */
  int32_t family;    /* gcol_detail_family */
  int32_t map_mode;  /* gcol_detail_map_mode */
  int32_t in_kind;   /* gcol_detail_kind of the input */
  int32_t out_width; /* bytes of the output storage */
  int32_t ddof;      /* variance, std */
} gcol_detail_reduce_plan;

/* The plan of op over a fixed-width input type whose output type is out_type (already
 * checked by gcol_reduce_output_type). */
GCOL_HD_INLINE gcol_detail_reduce_plan gcol_detail_reduce_plan_make(gcol_type_id input,
                                                                    int32_t op,
                                                                    gcol_type_id out_type,
                                                                    int32_t ddof) {
  gcol_detail_reduce_plan p;
  bool const is_float = gcol_type_is_floating(input);
  p.op = op;
  p.in_kind = gcol_detail_kind_of(input);
  p.out_width = (int32_t)gcol_type_size(out_type);
  p.ddof = ddof;
  p.map_mode = GCOL_DETAIL_MAP_BITS;
  p.family = GCOL_DETAIL_FAMILY_COUNT;
  switch (op) {
    case GCOL_REDUCE_SUM:
    case GCOL_REDUCE_SUM_OF_SQUARES:
      p.family = is_float ? GCOL_DETAIL_FAMILY_F64_PLUS : GCOL_DETAIL_FAMILY_U64_PLUS;
      if (op == GCOL_REDUCE_SUM_OF_SQUARES) {
        p.map_mode = is_float ? GCOL_DETAIL_MAP_SQUARE : GCOL_DETAIL_MAP_BITS_SQUARE;
      } else {
        p.map_mode = is_float ? GCOL_DETAIL_MAP_VALUE : GCOL_DETAIL_MAP_BITS;
      }
      break;
    case GCOL_REDUCE_PRODUCT:
      p.family = is_float ? GCOL_DETAIL_FAMILY_F64_TIMES : GCOL_DETAIL_FAMILY_U64_TIMES;
      p.map_mode = is_float ? GCOL_DETAIL_MAP_VALUE : GCOL_DETAIL_MAP_BITS;
      break;
    case GCOL_REDUCE_MIN:
    case GCOL_REDUCE_MAX:
      p.family = GCOL_DETAIL_FAMILY_U64_MAX;
      p.map_mode = op == GCOL_REDUCE_MIN ? GCOL_DETAIL_MAP_KEY_COMPLEMENT : GCOL_DETAIL_MAP_KEY;
      break;
    case GCOL_REDUCE_ANY:
    case GCOL_REDUCE_ALL:
      p.family = GCOL_DETAIL_FAMILY_U64_MAX;
      p.map_mode = op == GCOL_REDUCE_ANY ? GCOL_DETAIL_MAP_NONZERO : GCOL_DETAIL_MAP_ZERO;
      break;
    case GCOL_REDUCE_MEAN:
    case GCOL_REDUCE_VARIANCE:
    case GCOL_REDUCE_STD:
      p.family = GCOL_DETAIL_FAMILY_MOMENTS;
      p.map_mode = GCOL_DETAIL_MAP_VALUE;
      break;
    case GCOL_REDUCE_ARGMIN:
    case GCOL_REDUCE_ARGMAX:
      p.family = GCOL_DETAIL_FAMILY_KEY_INDEX;
      p.map_mode = op == GCOL_REDUCE_ARGMIN ? GCOL_DETAIL_MAP_KEY_COMPLEMENT : GCOL_DETAIL_MAP_KEY;
      break;
    default: /* COUNT_VALID, COUNT_ALL */
      break;
  }
  return p;
}

/* The identity of a uint64 family (nulls map to it). */
GCOL_HD_INLINE uint64_t gcol_detail_u64_identity(int32_t family) {
  return family == GCOL_DETAIL_FAMILY_U64_TIMES ? 1u : 0u;
}

/* The uint64 map of a valid row i. */
GCOL_HD_INLINE uint64_t gcol_detail_map_u64(gcol_detail_reader r, int32_t mode, int64_t i) {
  switch (mode) {
    case GCOL_DETAIL_MAP_BITS_SQUARE: {
      uint64_t const b = gcol_detail_reader_bits(r, i);
      return b * b;
    }
    case GCOL_DETAIL_MAP_KEY: return gcol_detail_reader_key(r, i);
    case GCOL_DETAIL_MAP_KEY_COMPLEMENT: return ~gcol_detail_reader_key(r, i);
    case GCOL_DETAIL_MAP_NONZERO: return gcol_detail_reader_nonzero(r, i) ? 1u : 0u;
    case GCOL_DETAIL_MAP_ZERO: return gcol_detail_reader_nonzero(r, i) ? 0u : 1u;
    default: return gcol_detail_reader_bits(r, i);
  }
}

/* The double map of a valid row i. */
GCOL_HD_INLINE double gcol_detail_map_f64(gcol_detail_reader r, int32_t mode, int64_t i) {
  double const x = gcol_detail_reader_f64(r, i);
  return mode == GCOL_DETAIL_MAP_SQUARE ? x * x : x;
}

/*
 * Turns a uint64 accumulator over `count` valid rows into the output's storage bits.
 * Returns false when the result is null (no valid row). The input's width is only needed
 * for min and max, whose output has the input's type, so out_width serves both.
 */
GCOL_HD_INLINE bool gcol_detail_finish_u64(gcol_detail_reduce_plan p, uint64_t acc,
                                           int64_t count, uint64_t *bits) {
  if (count <= 0) return false;
  switch (p.map_mode) {
    case GCOL_DETAIL_MAP_KEY:
      *bits = gcol_detail_storage_from_key(acc, p.in_kind, p.out_width);
      break;
    case GCOL_DETAIL_MAP_KEY_COMPLEMENT:
      *bits = gcol_detail_storage_from_key(~acc, p.in_kind, p.out_width);
      break;
    case GCOL_DETAIL_MAP_NONZERO: *bits = acc != 0 ? 1u : 0u; break; /* any */
    case GCOL_DETAIL_MAP_ZERO: *bits = acc != 0 ? 0u : 1u; break;    /* all */
    default: *bits = acc; break; /* truncated to out_width when stored */
  }
  return true;
}

/*
 * A double accumulator (sum, product, sum of squares) as output storage bits. Sums start
 * from the identity +0.0 (reduction.h): adding +0.0 changes only a -0.0 (to +0.0), which a
 * sum that starts from +0.0 never is, so whatever CUB does with its init, the result is the
 * documented one. Products keep their sign (1.0 * -0.0 is -0.0).
 */
GCOL_HD_INLINE bool gcol_detail_finish_f64(gcol_detail_reduce_plan p, double acc,
                                           int64_t count, uint64_t *bits) {
  if (count <= 0) return false;
  double const value = p.family == GCOL_DETAIL_FAMILY_F64_PLUS ? acc + 0.0 : acc;
  *bits = gcol_detail_storage_from_f64(value, p.out_width);
  return true;
}

/* Mean, variance or standard deviation (FLOAT64 bits) of moments; null when n == 0, or
 * n - ddof <= 0 for variance and std; NaN variance when the sum is not finite. */
GCOL_HD_INLINE bool gcol_detail_finish_moments(gcol_detail_reduce_plan p, gcol_detail_moments m,
                                               uint64_t *bits) {
  if (m.n <= 0) return false;
  if (p.op == GCOL_REDUCE_MEAN) {
    /* the sum starts from +0.0 as SUM's does (merging skips empty parts, so the sum of
     * -0.0 values alone would stay -0.0): the mean of -0.0 values is +0.0 */
    *bits = gcol_detail_f64_bits((m.sum + 0.0) / m.n);
    return true;
  }
  double const denominator = m.n - (double)p.ddof;
  if (denominator <= 0) return false;
  /* an infinite or NaN value leaves m2 at Inf or NaN depending on the merge order: the
   * variance is then NaN, whatever the order (as numpy) */
  double const variance = isfinite(m.sum) ? m.m2 / denominator : m.sum - m.sum;
  *bits = gcol_detail_f64_bits(p.op == GCOL_REDUCE_STD ? sqrt(variance) : variance);
  return true;
}

/* Row index that loses every argmin/argmax tie: marks null rows. */
#define GCOL_DETAIL_NO_INDEX INT64_MAX

/* A key with the row it came from, for argmin/argmax (the larger key wins; ties: the
 * smaller index, so the first occurrence is returned). */
typedef struct gcol_detail_key_index {
  uint64_t key;
  int64_t index;
} gcol_detail_key_index;

GCOL_HD_INLINE gcol_detail_key_index gcol_detail_key_index_max(gcol_detail_key_index a,
                                                               gcol_detail_key_index b) {
  if (a.key != b.key) return a.key > b.key ? a : b;
  return a.index <= b.index ? a : b;
}

/* The key of the smallest (want_max false) or largest value of a type of (kind, width):
 * the identity of a scan's max (or min). Floats: -Inf and NaN (the largest in the order). */
GCOL_HD_INLINE uint64_t gcol_detail_key_of_extreme(int32_t kind, int32_t width, bool want_max) {
  if (kind == GCOL_DETAIL_KIND_FLOAT) {
    return want_max ? ~0ull : gcol_detail_key_from_f64(-(double)INFINITY);
  }
  if (kind == GCOL_DETAIL_KIND_BOOL) return want_max ? 1u : 0u;
  int const bits = width * 8;
  if (kind == GCOL_DETAIL_KIND_UNSIGNED) {
    return want_max ? (bits >= 64 ? ~0ull : ((1ull << bits) - 1u)) : 0u;
  }
  /* signed: key = value ^ sign of the widened value */
  uint64_t const max_value = bits >= 64 ? (~0ull >> 1) : ((1ull << (bits - 1)) - 1u);
  uint64_t const min_value = ~max_value; /* sign-extended -2^(bits-1) */
  return (want_max ? max_value : min_value) ^ GCOL_DETAIL_SIGN64;
}

/* The value of a key of an input of `kind` as double (for interpolated quantiles). */
GCOL_HD_INLINE double gcol_detail_f64_from_typed_key(uint64_t key, int32_t kind) {
  if (kind == GCOL_DETAIL_KIND_FLOAT) return gcol_detail_f64_from_key(key);
  if (kind == GCOL_DETAIL_KIND_SIGNED) return (double)(int64_t)(key ^ GCOL_DETAIL_SIGN64);
  return (double)key;
}

/* Quantile interpolation helpers: position of q among n sorted values (n >= 1). */
GCOL_HD_INLINE double gcol_detail_quantile_position(double q, int64_t n) {
  return q * (double)(n - 1);
}

/* Round half to even (what `nearest` uses, as numpy), without libm. */
GCOL_HD_INLINE int64_t gcol_detail_round_half_even(double x) {
  double const fl = (double)(int64_t)x; /* x >= 0 here */
  double const frac = x - fl;
  int64_t const base = (int64_t)fl;
  if (frac > 0.5) return base + 1;
  if (frac < 0.5) return base;
  return (base % 2 == 0) ? base : base + 1;
}

/*
 * Quantile q of n >= 1 sorted keys of an input of (kind, width): the output's storage bits
 * (FLOAT64 for LINEAR and MIDPOINT, the input type otherwise).
 */
GCOL_HD_INLINE uint64_t gcol_detail_quantile_bits(const uint64_t *sorted_keys, int64_t n,
                                                  double q, int32_t interp, int32_t kind,
                                                  int32_t width) {
  double const pos = gcol_detail_quantile_position(q, n);
  int64_t lo = (int64_t)pos; /* floor: pos >= 0 */
  if (lo > n - 1) lo = n - 1;
  int64_t const hi = (double)lo < pos && lo < n - 1 ? lo + 1 : lo;
  switch (interp) {
    case GCOL_INTERPOLATION_LOWER:
      return gcol_detail_storage_from_key(sorted_keys[lo], kind, width);
    case GCOL_INTERPOLATION_HIGHER:
      return gcol_detail_storage_from_key(sorted_keys[hi], kind, width);
    case GCOL_INTERPOLATION_NEAREST: {
      int64_t nearest = gcol_detail_round_half_even(pos);
      if (nearest > n - 1) nearest = n - 1;
      return gcol_detail_storage_from_key(sorted_keys[nearest], kind, width);
    }
    default: break;
  }
  double const a = gcol_detail_f64_from_typed_key(sorted_keys[lo], kind);
  double const b = gcol_detail_f64_from_typed_key(sorted_keys[hi], kind);
  if (interp == GCOL_INTERPOLATION_MIDPOINT) return gcol_detail_f64_bits((a + b) / 2);
  double const frac = pos - (double)lo;
  /* equal ends return a itself: a + (b - a) * frac would turn an infinite a into NaN */
  return gcol_detail_f64_bits(frac == 0 || a == b ? a : a + (b - a) * frac);
}

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_DETAIL_AGGREGATE_H */
