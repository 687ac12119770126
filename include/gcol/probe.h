/**
 * @file probe.h
 * @ingroup gcol_hashes
 * @brief Bounded probe sequences for open-addressing hash tables of power-of-two capacity,
 *        for host and device code: linear probing and double hashing.
 *
 * A sequence yields at most `capacity` slots and visits each slot exactly once, then ends:
 * a full table is reported by the caller as an overflow, never an endless loop.
 *
 * @code
 * gcol_probe_sequence p = gcol_probe_double(h1, h2, capacity);
 * int64_t slot;
 * while (gcol_probe_next(&p, &slot)) {
 *   if (try_insert(table, slot, key)) return true;   // inserted or found
 * }
 * return false;                                      // table full: GCOL_ERROR_OVERFLOW
 * @endcode
 */
#ifndef GCOL_PROBE_H
#define GCOL_PROBE_H

/** @addtogroup gcol_hashes
 *  @{ */

#include "gcol/config.h"

GCOL_EXTERN_C_BEGIN

/** @brief The state of one probe sequence (a plain struct, kept in registers). */
typedef struct gcol_probe_sequence {
  uint64_t mask;     /**< capacity - 1 (capacity is a power of two). */
  uint64_t slot;     /**< The next slot to yield. */
  uint64_t step;     /**< Distance between slots: 1 (linear) or odd (double hashing). */
  int64_t remaining; /**< Slots still to yield; 0 when the sequence is exhausted. */
} gcol_probe_sequence;

/** @brief True if @p n is a positive power of two. */
GCOL_HD_INLINE bool gcol_is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/**
 * @brief The smallest power of two >= @p n (1 for n <= 1); 0 if it would exceed 2^62.
 */
GCOL_HD_INLINE int64_t gcol_next_pow2(int64_t n) {
  int64_t p = 1;
  if (n > ((int64_t)1 << 62)) return 0;
  while (p < n) p <<= 1;
  return p;
}

/**
 * @brief A power-of-two capacity for @p num_keys keys at a load factor of at most 1/2
 *        (at least 2 slots); 0 if it would exceed 2^62 (report ::GCOL_ERROR_OVERFLOW).
 */
GCOL_HD_INLINE int64_t gcol_probe_capacity_for(int64_t num_keys) {
  if (num_keys < 1) return 2;
  if (num_keys > ((int64_t)1 << 61)) return 0;
  return gcol_next_pow2(2 * num_keys);
}

/** @cond GCOL_DETAIL */
GCOL_HD_INLINE gcol_probe_sequence gcol_detail_probe_make(uint64_t start, uint64_t step,
                                                          int64_t capacity) {
  gcol_probe_sequence p;
  bool const usable = gcol_is_pow2(capacity);
  p.mask = usable ? (uint64_t)capacity - 1u : 0u;
  p.slot = start & p.mask;
  p.step = step;
  p.remaining = usable ? capacity : 0;
  return p;
}
/** @endcond */

/**
 * @brief Linear probing from `hash mod capacity`: slots h, h+1, h+2, ... (wrapping).
 * @param[in] hash The key's hash.
 * @param[in] capacity Table slots, a power of two; any other value (including <= 0) gives
 *                     an empty sequence.
 * @return The sequence, yielding @p capacity slots.
 */
GCOL_HD_INLINE gcol_probe_sequence gcol_probe_linear(uint64_t hash, int64_t capacity) {
  return gcol_detail_probe_make(hash, 1u, capacity);
}

/**
 * @brief Double hashing: slots h1, h1+s, h1+2s, ... with step `s = h2 | 1`. An odd step is
 *        coprime with a power-of-two capacity, so the sequence visits every slot once.
 * @param[in] hash1 The key's hash (start slot).
 * @param[in] hash2 A second, independent hash (step).
 * @param[in] capacity Table slots, a power of two; any other value gives an empty sequence.
 * @return The sequence, yielding @p capacity slots.
 */
GCOL_HD_INLINE gcol_probe_sequence gcol_probe_double(uint64_t hash1, uint64_t hash2,
                                                     int64_t capacity) {
  return gcol_detail_probe_make(hash1, hash2 | 1u, capacity);
}

/**
 * @brief Yields the next slot of @p p.
 * @param[in,out] p The sequence (advanced).
 * @param[out] slot The slot in `[0, capacity)`; untouched when the sequence has ended.
 * @return true with a slot, false once `capacity` slots were yielded (or for an empty
 *         sequence).
 */
GCOL_HD_INLINE bool gcol_probe_next(gcol_probe_sequence *p, int64_t *slot) {
  if (p->remaining <= 0) return false;
  *slot = (int64_t)p->slot;
  p->slot = (p->slot + p->step) & p->mask;
  p->remaining -= 1;
  return true;
}

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_PROBE_H */
