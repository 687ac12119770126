/**
 * @file hash.h
 * @ingroup gcol_hashes
 * @brief Hash functions for host and device code: MurmurHash3_x86_32, XXH64, a 64-bit
 *        finalizer, hash combining, and typed value hashes for joins and groupby.
 *
 * The byte hashes read their input one byte at a time, so keys may sit at any address
 * (device loads must be aligned) and results are the same on every platform; they match
 * the reference implementations bit for bit (tests/toolkit/test_hash.c checks the
 * published vectors).
 *
 * @code
 * uint32_t h32 = gcol_murmur3_32("abc", 3, 0);          // MurmurHash3_x86_32
 * uint64_t h64 = gcol_xxhash64("abc", 3, 0);            // XXH64
 * uint64_t row = gcol_hash_combine64(gcol_hash_u64((uint64_t)key, 0), gcol_hash_f64(x, 0));
 * @endcode
 */
#ifndef GCOL_HASH_H
#define GCOL_HASH_H

/** @addtogroup gcol_hashes
 *  @{ */

#include <string.h>

#include "gcol/config.h"

GCOL_EXTERN_C_BEGIN

/** @cond GCOL_DETAIL */
GCOL_HD_INLINE uint32_t gcol_detail_rotl32(uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}

GCOL_HD_INLINE uint64_t gcol_detail_rotl64(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

/* Little-endian loads byte by byte: any alignment, host and device. */
GCOL_HD_INLINE uint32_t gcol_detail_load_le32(const unsigned char *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}

GCOL_HD_INLINE uint64_t gcol_detail_load_le64(const unsigned char *p) {
  return (uint64_t)gcol_detail_load_le32(p) | ((uint64_t)gcol_detail_load_le32(p + 4) << 32);
}

GCOL_HD_INLINE uint32_t gcol_detail_murmur3_fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

GCOL_HD_INLINE uint32_t gcol_detail_murmur3_scramble(uint32_t k) {
  k *= 0xCC9E2D51u;
  k = gcol_detail_rotl32(k, 15);
  return k * 0x1B873593u;
}

#define GCOL_DETAIL_XXH_PRIME64_1 0x9E3779B185EBCA87ull
#define GCOL_DETAIL_XXH_PRIME64_2 0xC2B2AE3D27D4EB4Full
#define GCOL_DETAIL_XXH_PRIME64_3 0x165667B19E3779F9ull
#define GCOL_DETAIL_XXH_PRIME64_4 0x85EBCA77C2B2AE63ull
#define GCOL_DETAIL_XXH_PRIME64_5 0x27D4EB2F165667C5ull

GCOL_HD_INLINE uint64_t gcol_detail_xxh64_round(uint64_t acc, uint64_t input) {
  acc += input * GCOL_DETAIL_XXH_PRIME64_2;
  acc = gcol_detail_rotl64(acc, 31);
  return acc * GCOL_DETAIL_XXH_PRIME64_1;
}

GCOL_HD_INLINE uint64_t gcol_detail_xxh64_merge_round(uint64_t acc, uint64_t val) {
  acc ^= gcol_detail_xxh64_round(0, val);
  return acc * GCOL_DETAIL_XXH_PRIME64_1 + GCOL_DETAIL_XXH_PRIME64_4;
}

/* The 32-byte stripe loop of XXH64 (len >= 32); *consumed receives the bytes eaten. */
GCOL_HD_INLINE uint64_t gcol_detail_xxh64_stripes(const unsigned char *p, int64_t len,
                                                   uint64_t seed, int64_t *consumed) {
  uint64_t v1 = seed + GCOL_DETAIL_XXH_PRIME64_1 + GCOL_DETAIL_XXH_PRIME64_2;
  uint64_t v2 = seed + GCOL_DETAIL_XXH_PRIME64_2;
  uint64_t v3 = seed;
  uint64_t v4 = seed - GCOL_DETAIL_XXH_PRIME64_1;
  int64_t i = 0;
  for (; i + 32 <= len; i += 32) {
    v1 = gcol_detail_xxh64_round(v1, gcol_detail_load_le64(p + i));
    v2 = gcol_detail_xxh64_round(v2, gcol_detail_load_le64(p + i + 8));
    v3 = gcol_detail_xxh64_round(v3, gcol_detail_load_le64(p + i + 16));
    v4 = gcol_detail_xxh64_round(v4, gcol_detail_load_le64(p + i + 24));
  }
  *consumed = i;
  uint64_t h = gcol_detail_rotl64(v1, 1) + gcol_detail_rotl64(v2, 7) +
               gcol_detail_rotl64(v3, 12) + gcol_detail_rotl64(v4, 18);
  h = gcol_detail_xxh64_merge_round(h, v1);
  h = gcol_detail_xxh64_merge_round(h, v2);
  h = gcol_detail_xxh64_merge_round(h, v3);
  return gcol_detail_xxh64_merge_round(h, v4);
}
/** @endcond */

/**
 * @brief MurmurHash3_x86_32 of @p len bytes at @p key (Austin Appleby's reference
 *        algorithm, little-endian block reads).
 * @param[in] key The bytes (any alignment; may be NULL when @p len is 0).
 * @param[in] len Number of bytes (>= 0).
 * @param[in] seed The seed.
 * @return The 32-bit hash.
 */
GCOL_HD_INLINE uint32_t gcol_murmur3_32(const void *key, int64_t len, uint32_t seed) {
  const unsigned char *p = (const unsigned char *)key;
  int64_t const blocks_end = len - (len & 3);
  uint32_t h = seed;
  for (int64_t i = 0; i < blocks_end; i += 4) {
    h ^= gcol_detail_murmur3_scramble(gcol_detail_load_le32(p + i));
    h = gcol_detail_rotl32(h, 13);
    h = h * 5u + 0xE6546B64u;
  }
  if (blocks_end < len) { /* 1..3 tail bytes, little-endian */
    uint32_t k = 0;
    for (int64_t j = len - 1; j >= blocks_end; --j) k = (k << 8) | p[j];
    h ^= gcol_detail_murmur3_scramble(k);
  }
  /* The reference mixes in the length as a 32-bit int. */
  h ^= (uint32_t)len;
  return gcol_detail_murmur3_fmix32(h);
}

/**
 * @brief XXH64 of @p len bytes at @p key (Yann Collet's reference algorithm).
 * @param[in] key The bytes (any alignment; may be NULL when @p len is 0).
 * @param[in] len Number of bytes (>= 0).
 * @param[in] seed The seed.
 * @return The 64-bit hash.
 */
GCOL_HD_INLINE uint64_t gcol_xxhash64(const void *key, int64_t len, uint64_t seed) {
  const unsigned char *p = (const unsigned char *)key;
  int64_t i = 0;
  uint64_t h;
  if (len >= 32) {
    h = gcol_detail_xxh64_stripes(p, len, seed, &i);
  } else {
    h = seed + GCOL_DETAIL_XXH_PRIME64_5;
  }
  h += (uint64_t)len;
  for (; i + 8 <= len; i += 8) {
    h ^= gcol_detail_xxh64_round(0, gcol_detail_load_le64(p + i));
    h = gcol_detail_rotl64(h, 27) * GCOL_DETAIL_XXH_PRIME64_1 + GCOL_DETAIL_XXH_PRIME64_4;
  }
  if (i + 4 <= len) {
    h ^= (uint64_t)gcol_detail_load_le32(p + i) * GCOL_DETAIL_XXH_PRIME64_1;
    h = gcol_detail_rotl64(h, 23) * GCOL_DETAIL_XXH_PRIME64_2 + GCOL_DETAIL_XXH_PRIME64_3;
    i += 4;
  }
  for (; i < len; ++i) {
    h ^= (uint64_t)p[i] * GCOL_DETAIL_XXH_PRIME64_5;
    h = gcol_detail_rotl64(h, 11) * GCOL_DETAIL_XXH_PRIME64_1;
  }
  h ^= h >> 33;
  h *= GCOL_DETAIL_XXH_PRIME64_2;
  h ^= h >> 29;
  h *= GCOL_DETAIL_XXH_PRIME64_3;
  h ^= h >> 32;
  return h;
}

/**
 * @brief A strong 64-bit finalizer (MurmurHash3's fmix64): every input bit affects every
 *        output bit; a bijection, so distinct inputs never collide.
 * @param[in] h The value to mix.
 * @return The mixed value (0 maps to 0).
 */
GCOL_HD_INLINE uint64_t gcol_hash_mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return h;
}

/**
 * @brief Combines a running hash @p seed with the next hash @p h (for multi-column rows);
 *        order matters: combine(combine(s, a), b) != combine(combine(s, b), a) in general.
 * @param[in] seed The hash so far.
 * @param[in] h The hash to fold in.
 * @return The combined hash.
 */
GCOL_HD_INLINE uint64_t gcol_hash_combine64(uint64_t seed, uint64_t h) {
  return seed ^ (h + 0x9E3779B97F4A7C15ull + (seed << 12) + (seed >> 4));
}

/**
 * @brief Hash of a 64-bit integer (cast narrower integers to uint64_t first, with sign
 *        extension for signed types so equal values hash equal).
 * @param[in] value The value.
 * @param[in] seed A seed (0 for the default).
 * @return The hash: gcol_hash_mix64() of the value keyed by the seed.
 */
GCOL_HD_INLINE uint64_t gcol_hash_u64(uint64_t value, uint64_t seed) {
  return gcol_hash_mix64(value ^ gcol_hash_mix64(seed + 0x9E3779B97F4A7C15ull));
}

/** @brief The bits of @p value (host and device; no aliasing violation). */
GCOL_HD_INLINE uint32_t gcol_float_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

/** @brief The bits of @p value (host and device; no aliasing violation). */
GCOL_HD_INLINE uint64_t gcol_double_bits(double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

/**
 * @brief Hash of a float for equality joins and groupby: -0.0 hashes as 0.0 and every NaN
 *        hashes alike (they compare as one key there).
 * @param[in] value The value.
 * @param[in] seed A seed (0 for the default).
 * @return The hash.
 */
GCOL_HD_INLINE uint64_t gcol_hash_f32(float value, uint64_t seed) {
  uint32_t bits = gcol_float_bits(value);
  if (value != value) bits = 0x7FC00000u; /* canonical quiet NaN */
  if (value == 0.0f) bits = 0u;           /* -0.0 == 0.0 */
  return gcol_hash_u64(bits, seed);
}

/**
 * @brief Hash of a double, with -0.0 == 0.0 and all NaNs equal, as gcol_hash_f32().
 * @param[in] value The value.
 * @param[in] seed A seed (0 for the default).
 * @return The hash.
 */
GCOL_HD_INLINE uint64_t gcol_hash_f64(double value, uint64_t seed) {
  uint64_t bits = gcol_double_bits(value);
  if (value != value) bits = 0x7FF8000000000000ull;
  if (value == 0.0) bits = 0u;
  return gcol_hash_u64(bits, seed);
}

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_HASH_H */
