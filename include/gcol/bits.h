/**
 * @file bits.h
 * @ingroup gcol_core
 * @brief Inline bit operations on null masks and bitmaps, for host and device code.
 *
 * A null mask is an array of `uint32_t` words, bit i of the mask at word i / 32, bit
 * i % 32 (LSB first, Arrow's order); a set bit means the row is valid. These functions
 * work at any bit offset; none allocate.
 *
 * @code
 * // in a kernel or on the host, for row i of a column view v:
 * bool valid = gcol_bit_is_set_or_null_mask(v.null_mask, v.offset + i);
 * @endcode
 */
#ifndef GCOL_BITS_H
#define GCOL_BITS_H

/** @addtogroup gcol_core
 *  @{ */

#include "gcol/config.h"

GCOL_EXTERN_C_BEGIN

/** @brief Bits in one null-mask word. */
#define GCOL_BITS_PER_WORD 32

/** @brief Index of the word that holds bit @p bit. */
GCOL_HD_INLINE int64_t gcol_bit_word_index(int64_t bit) { return bit >> 5; }

/** @brief Position of bit @p bit inside its word. */
GCOL_HD_INLINE uint32_t gcol_bit_in_word(int64_t bit) { return (uint32_t)(bit & 31); }

/** @brief Number of 32-bit words that hold @p num_bits bits. */
GCOL_HD_INLINE int64_t gcol_bit_num_words(int64_t num_bits) { return (num_bits + 31) >> 5; }

/** @brief True if bit @p bit of @p mask is set. */
GCOL_HD_INLINE bool gcol_bit_is_set(const uint32_t *mask, int64_t bit) {
  return ((mask[gcol_bit_word_index(bit)] >> gcol_bit_in_word(bit)) & 1u) != 0;
}

/** @brief True if @p mask is NULL (no nulls) or bit @p bit is set: the validity of a row. */
GCOL_HD_INLINE bool gcol_bit_is_set_or_null_mask(const uint32_t *mask, int64_t bit) {
  return mask == NULL || gcol_bit_is_set(mask, bit);
}

/** @brief Sets bit @p bit (not atomic: use device/atomics.cuh when threads share a word). */
GCOL_HD_INLINE void gcol_bit_set(uint32_t *mask, int64_t bit) {
  mask[gcol_bit_word_index(bit)] |= (1u << gcol_bit_in_word(bit));
}

/** @brief Clears bit @p bit (not atomic). */
GCOL_HD_INLINE void gcol_bit_clear(uint32_t *mask, int64_t bit) {
  mask[gcol_bit_word_index(bit)] &= ~(1u << gcol_bit_in_word(bit));
}

/** @brief Sets bit @p bit to @p value (not atomic). */
GCOL_HD_INLINE void gcol_bit_assign(uint32_t *mask, int64_t bit, bool value) {
  if (value) {
    gcol_bit_set(mask, bit);
  } else {
    gcol_bit_clear(mask, bit);
  }
}

/** @brief Number of set bits in @p word. */
GCOL_HD_INLINE int gcol_popcount32(uint32_t word) {
#if defined(__CUDA_ARCH__)
  return __popc(word);
#elif defined(__GNUC__)
  return __builtin_popcount(word);
#else
  word = word - ((word >> 1) & 0x55555555u);
  word = (word & 0x33333333u) + ((word >> 2) & 0x33333333u);
  return (int)((((word + (word >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}

/** @brief A word with the low @p n bits set (0 <= n <= 32). */
GCOL_HD_INLINE uint32_t gcol_bits_low_mask(int n) {
  return n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1u);
}

/**
 * @brief The low 32 bits of the 64-bit value `(hi:lo) >> shift` (0 <= shift < 32): a funnel
 *        shift, which joins two neighbouring words into one word that starts mid-word.
 */
GCOL_HD_INLINE uint32_t gcol_bits_funnel_shift_right(uint32_t lo, uint32_t hi, uint32_t shift) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(lo, hi, shift);
#else
  return (uint32_t)((((uint64_t)hi << 32) | lo) >> (shift & 31u));
#endif
}

/**
 * @brief The 32 bits of @p mask starting at bit @p begin, bits at or past @p end read as
 *        zero; never reads a word past the one holding bit `end - 1`.
 * @param mask The bitmap.
 * @param begin First bit (any offset).
 * @param end One past the last bit that may be read (`end > begin`).
 */
GCOL_HD_INLINE uint32_t gcol_bits_extract_word(const uint32_t *mask, int64_t begin, int64_t end) {
  int64_t const word = gcol_bit_word_index(begin);
  uint32_t const shift = gcol_bit_in_word(begin);
  int64_t const count = end - begin < 32 ? end - begin : 32;
  uint32_t lo = mask[word];
  uint32_t hi = 0;
  if (shift != 0 && begin + count > (word + 1) * 32) hi = mask[word + 1];
  return gcol_bits_funnel_shift_right(lo, hi, shift) & gcol_bits_low_mask((int)count);
}

/**
 * @brief Number of set bits of @p mask in `[begin, end)`, at any offsets; a serial loop
 *        over words (device code counting large ranges should split the work, see
 *        gcol_bitmask_count_set_bits()).
 */
GCOL_HD_INLINE int64_t gcol_bits_count_set_range(const uint32_t *mask, int64_t begin, int64_t end) {
  int64_t count = 0;
  for (int64_t bit = begin; bit < end; bit += 32) {
    count += gcol_popcount32(gcol_bits_extract_word(mask, bit, end));
  }
  return count;
}

/**
 * @brief Number of unset bits (nulls) of @p mask in `[begin, end)`, at any offsets; 0 for
 *        a NULL mask (every row valid) or an empty range.
 */
GCOL_HD_INLINE int64_t gcol_bits_count_unset_range(const uint32_t *mask, int64_t begin,
                                                   int64_t end) {
  if (mask == NULL || end <= begin) return 0;
  return (end - begin) - gcol_bits_count_set_range(mask, begin, end);
}

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_BITS_H */
