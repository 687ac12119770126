/**
 * @file atomics.cuh
 * @ingroup gcol_device
 * @brief Device atomics for every fixed-width storage type, and atomic null-mask bits
 *        (device only, needs nvcc).
 *
 * @code
 * __global__ void histogram(gcol_u8_view keys, uint16_t *counts, gcol_i64_mutable_view out) {
 *   int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
 *   if (i >= keys.size) return;
 *   gcol_atomic_add_u16(&counts[gcol_u8_view_get(keys, i)], 1);  // 16-bit: CAS on its word
 *   if (!gcol_u8_view_is_valid(keys, i)) gcol_i64_mutable_view_set_null_atomic(out, i);
 * }
 * @endcode
 *
 * For every suffix `SFX` of ::GCOL_STORAGE_TYPE_LIST with element type `T`; each returns
 * the value held before the operation (operator semantics in gcol/device/ops.cuh):
 * @code
 * T gcol_atomic_add_SFX(T *address, T value);  // wraps for integers
 * T gcol_atomic_min_SFX(T *address, T value);  // floats: fmin semantics (NaN loses)
 * T gcol_atomic_max_SFX(T *address, T value);
 * @endcode
 * 32- and 64-bit integers and float/double add use the hardware atomics; 8- and 16-bit
 * types and float/double min/max use a compare-and-swap loop (8/16-bit on the aligned
 * 32-bit word that contains the element: that word must be addressable, as in any gcol
 * buffer, whose allocations are 256-byte aligned; neighbours in the word are preserved).
 *
 * And for every suffix of ::GCOL_TYPED_VIEW_LIST, atomic validity updates that are safe
 * when threads share a mask word:
 * @code
 * void gcol_SFX_mutable_view_set_null_atomic(gcol_SFX_mutable_view v, int64_t i);
 * void gcol_SFX_mutable_view_set_valid_atomic(gcol_SFX_mutable_view v, int64_t i);
 * void gcol_SFX_mutable_view_set_pair_atomic(gcol_SFX_mutable_view v, int64_t i, gcol_SFX_pair p);
 * @endcode
 */
#ifndef GCOL_DEVICE_ATOMICS_CUH
#define GCOL_DEVICE_ATOMICS_CUH

/** @addtogroup gcol_device
 *  @{ */

#include "gcol/bits.h"
#include "gcol/device/ops.cuh"
#include "gcol/typed_view.h"

/**
 * @brief Sets bit @p bit of @p mask atomically.
 * @return The bit's previous value.
 */
GCOL_DEVICE_INLINE bool gcol_atomic_bit_set(uint32_t *mask, int64_t bit) {
  unsigned int const b = 1u << gcol_bit_in_word(bit);
  return (atomicOr((unsigned int *)&mask[gcol_bit_word_index(bit)], b) & b) != 0;
}

/**
 * @brief Clears bit @p bit of @p mask atomically.
 * @return The bit's previous value.
 */
GCOL_DEVICE_INLINE bool gcol_atomic_bit_clear(uint32_t *mask, int64_t bit) {
  unsigned int const b = 1u << gcol_bit_in_word(bit);
  return (atomicAnd((unsigned int *)&mask[gcol_bit_word_index(bit)], ~b) & b) != 0;
}

/** @brief Sets bit @p bit of @p mask to @p value atomically; returns the previous value. */
GCOL_DEVICE_INLINE bool gcol_atomic_bit_assign(uint32_t *mask, int64_t bit, bool value) {
  return value ? gcol_atomic_bit_set(mask, bit) : gcol_atomic_bit_clear(mask, bit);
}

/** @cond GCOL_DETAIL */
/* Read-modify-write of an 8- or 16-bit element through CAS on its aligned 32-bit word. */
template <int Op, typename T, typename U>
GCOL_DEVICE_INLINE T gcol_detail_atomic_subword(T *address, T value) {
  uintptr_t const addr = (uintptr_t)address;
  unsigned int *word = (unsigned int *)(addr & ~(uintptr_t)3);
  unsigned int const shift = (unsigned int)(addr & 3u) * 8u;
  unsigned int const field = (sizeof(T) == 1 ? 0xFFu : 0xFFFFu) << shift;
  unsigned int old = *(volatile unsigned int *)word;
  unsigned int assumed;
  T current;
  do {
    assumed = old;
    current = (T)(U)((assumed & field) >> shift);
    T const next = gcol_detail_apply<Op>(current, value);
    unsigned int const replaced = (assumed & ~field) | (((unsigned int)(U)next << shift) & field);
    if (replaced == assumed) return current; /* nothing to change (min/max, or add 0) */
    old = atomicCAS(word, assumed, replaced);
  } while (old != assumed);
  return current;
}

/* float/double min or max through CAS on the bit pattern: replace while the operator
 * picks the new value (fmin/fmax: a NaN in memory is replaced, a NaN value never wins). */
#define GCOL_DETAIL_ATOMIC_FLOAT_MINMAX(NAME, T, W, TO_BITS, FROM_BITS, OP)            \
  GCOL_DEVICE_INLINE T NAME(T *address, T value) {                                     \
    W *word = (W *)address;                                                            \
    W old = *(volatile W *)word;                                                       \
    W assumed;                                                                         \
    do {                                                                               \
      assumed = old;                                                                   \
      T const current = FROM_BITS(assumed);                                            \
      T const next = gcol_detail_apply<OP>(current, value);                            \
      if (TO_BITS(next) == assumed || next != next) return current;                    \
      old = atomicCAS(word, assumed, TO_BITS(next));                                   \
    } while (old != assumed);                                                          \
    return FROM_BITS(assumed);                                                         \
  }

GCOL_DEVICE_INLINE unsigned long long gcol_detail_double_to_bits(double v) {
  return (unsigned long long)__double_as_longlong(v);
}
GCOL_DEVICE_INLINE double gcol_detail_bits_to_double(unsigned long long b) {
  return __longlong_as_double((long long)b);
}

GCOL_DETAIL_ATOMIC_FLOAT_MINMAX(gcol_atomic_min_f32, float, unsigned int, __float_as_uint,
                                __uint_as_float, GCOL_DETAIL_OP_MIN)
GCOL_DETAIL_ATOMIC_FLOAT_MINMAX(gcol_atomic_max_f32, float, unsigned int, __float_as_uint,
                                __uint_as_float, GCOL_DETAIL_OP_MAX)
GCOL_DETAIL_ATOMIC_FLOAT_MINMAX(gcol_atomic_min_f64, double, unsigned long long,
                                gcol_detail_double_to_bits, gcol_detail_bits_to_double,
                                GCOL_DETAIL_OP_MIN)
GCOL_DETAIL_ATOMIC_FLOAT_MINMAX(gcol_atomic_max_f64, double, unsigned long long,
                                gcol_detail_double_to_bits, gcol_detail_bits_to_double,
                                GCOL_DETAIL_OP_MAX)

#define GCOL_DETAIL_ATOMIC_SUBWORD(SFX, T, U)                                          \
  GCOL_DEVICE_INLINE T gcol_atomic_add_##SFX(T *address, T value) {                    \
    return gcol_detail_atomic_subword<GCOL_DETAIL_OP_SUM, T, U>(address, value);       \
  }                                                                                    \
  GCOL_DEVICE_INLINE T gcol_atomic_min_##SFX(T *address, T value) {                    \
    return gcol_detail_atomic_subword<GCOL_DETAIL_OP_MIN, T, U>(address, value);       \
  }                                                                                    \
  GCOL_DEVICE_INLINE T gcol_atomic_max_##SFX(T *address, T value) {                    \
    return gcol_detail_atomic_subword<GCOL_DETAIL_OP_MAX, T, U>(address, value);       \
  }

/* Native atomics: W is the type CUDA's overloads take. */
#define GCOL_DETAIL_ATOMIC_NATIVE(SFX, T, W)                                           \
  GCOL_DEVICE_INLINE T gcol_atomic_add_##SFX(T *address, T value) {                    \
    return (T)atomicAdd((W *)address, (W)value);                                       \
  }                                                                                    \
  GCOL_DEVICE_INLINE T gcol_atomic_min_##SFX(T *address, T value) {                    \
    return (T)atomicMin((W *)address, (W)value);                                       \
  }                                                                                    \
  GCOL_DEVICE_INLINE T gcol_atomic_max_##SFX(T *address, T value) {                    \
    return (T)atomicMax((W *)address, (W)value);                                       \
  }

GCOL_DETAIL_ATOMIC_SUBWORD(i8, int8_t, uint8_t)
GCOL_DETAIL_ATOMIC_SUBWORD(i16, int16_t, uint16_t)
GCOL_DETAIL_ATOMIC_SUBWORD(u8, uint8_t, uint8_t)
GCOL_DETAIL_ATOMIC_SUBWORD(u16, uint16_t, uint16_t)
GCOL_DETAIL_ATOMIC_SUBWORD(b8, uint8_t, uint8_t)
GCOL_DETAIL_ATOMIC_NATIVE(i32, int32_t, int)
GCOL_DETAIL_ATOMIC_NATIVE(u32, uint32_t, unsigned int)
GCOL_DETAIL_ATOMIC_NATIVE(u64, uint64_t, unsigned long long)
/** @endcond */

/** @brief Atomic add of an int64 (wrapping, through the unsigned 64-bit hardware add). */
GCOL_DEVICE_INLINE int64_t gcol_atomic_add_i64(int64_t *address, int64_t value) {
  return (int64_t)atomicAdd((unsigned long long *)address, (unsigned long long)value);
}
/** @brief Atomic min of an int64. */
GCOL_DEVICE_INLINE int64_t gcol_atomic_min_i64(int64_t *address, int64_t value) {
  return (int64_t)atomicMin((long long *)address, (long long)value);
}
/** @brief Atomic max of an int64. */
GCOL_DEVICE_INLINE int64_t gcol_atomic_max_i64(int64_t *address, int64_t value) {
  return (int64_t)atomicMax((long long *)address, (long long)value);
}
/** @brief Atomic add of a float (hardware). */
GCOL_DEVICE_INLINE float gcol_atomic_add_f32(float *address, float value) {
  return atomicAdd(address, value);
}
/** @brief Atomic add of a double (hardware, sm_60 and newer). */
GCOL_DEVICE_INLINE double gcol_atomic_add_f64(double *address, double value) {
  return atomicAdd(address, value);
}

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_VIEW_ATOMICS(SFX, T)                                               \
  GCOL_DEVICE_INLINE void gcol_##SFX##_mutable_view_set_null_atomic(                   \
      gcol_##SFX##_mutable_view v, int64_t i) {                                        \
    if (v.null_mask != NULL) gcol_atomic_bit_clear(v.null_mask, v.mask_offset + (i));  \
  }                                                                                    \
  GCOL_DEVICE_INLINE void gcol_##SFX##_mutable_view_set_valid_atomic(                  \
      gcol_##SFX##_mutable_view v, int64_t i) {                                        \
    if (v.null_mask != NULL) gcol_atomic_bit_set(v.null_mask, v.mask_offset + (i));    \
  }                                                                                    \
  GCOL_DEVICE_INLINE void gcol_##SFX##_mutable_view_set_pair_atomic(                   \
      gcol_##SFX##_mutable_view v, int64_t i, gcol_##SFX##_pair p) {                   \
    v.data[(i)] = p.value;                                                             \
    if (v.null_mask != NULL) gcol_atomic_bit_assign(v.null_mask, v.mask_offset + (i), p.valid); \
  }

GCOL_TYPED_VIEW_LIST(GCOL_DETAIL_VIEW_ATOMICS)
/** @endcond */

/** @} */

#endif /* GCOL_DEVICE_ATOMICS_CUH */
