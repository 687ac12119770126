/**
 * @file utf8.h
 * @ingroup gcol_views
 * @brief UTF-8 for host and device code: decode and encode one code point, count and
 *        iterate characters of a ::gcol_string_ref, and hash a string.
 *
 * Decoding never reads past the bytes it is given. A byte that does not start a valid
 * sequence (a stray continuation byte, a truncated sequence, an overlong form, a surrogate,
 * a code point above U+10FFFF) decodes as U+FFFD consuming exactly one byte, so iteration
 * always advances and resynchronizes at the next byte.
 *
 * @code
 * gcol_utf8_iter it = gcol_utf8_iter_make(s);
 * uint32_t cp;
 * while (gcol_utf8_iter_next(&it, &cp)) {
 *   if (cp == 0xFFFD) ...;        // invalid byte, or a real U+FFFD
 * }
 * uint32_t h = gcol_string_ref_hash(s, 0);  // MurmurHash3_x86_32 of the bytes
 * @endcode
 */
#ifndef GCOL_UTF8_H
#define GCOL_UTF8_H

/** @addtogroup gcol_views
 *  @{ */

#include "gcol/config.h"
#include "gcol/hash.h"
#include "gcol/string_view.h"

GCOL_EXTERN_C_BEGIN

/** @brief The replacement character that invalid bytes decode to. */
#define GCOL_UTF8_REPLACEMENT 0xFFFDu
/** @brief The largest Unicode code point. */
#define GCOL_UTF8_MAX_CODE_POINT 0x10FFFFu

/** @brief One decoded character. */
typedef struct gcol_utf8_char {
  uint32_t code_point; /**< The code point; U+FFFD when invalid. */
  int32_t length;      /**< Bytes consumed: 1..4; 1 when invalid; 0 only for empty input. */
  bool valid;          /**< False for an invalid byte (or empty input). */
} gcol_utf8_char;

/** @brief True for a continuation byte (10xxxxxx). */
GCOL_HD_INLINE bool gcol_utf8_is_continuation(unsigned char byte) { return (byte & 0xC0u) == 0x80u; }

/** @cond GCOL_DETAIL */
GCOL_HD_INLINE gcol_utf8_char gcol_detail_utf8_result(uint32_t cp, int32_t length, bool valid) {
  gcol_utf8_char c;
  c.code_point = cp;
  c.length = length;
  c.valid = valid;
  return c;
}

/* Sequence length announced by a lead byte, and the allowed range of the second byte
 * (narrower than 80..BF after E0, ED, F0 and F4: that excludes overlongs, surrogates and
 * values past U+10FFFF). 0 for bytes that never start a sequence. */
GCOL_HD_INLINE int32_t gcol_detail_utf8_lead(unsigned char b, unsigned char *lo, unsigned char *hi) {
  *lo = 0x80u;
  *hi = 0xBFu;
  if (b < 0x80u) return 1;
  if (b < 0xC2u) return 0; /* continuation bytes, and C0/C1 (overlong 2-byte) */
  if (b < 0xE0u) return 2;
  if (b < 0xF0u) {
    if (b == 0xE0u) *lo = 0xA0u;
    if (b == 0xEDu) *hi = 0x9Fu;
    return 3;
  }
  if (b < 0xF5u) {
    if (b == 0xF0u) *lo = 0x90u;
    if (b == 0xF4u) *hi = 0x8Fu;
    return 4;
  }
  return 0;
}
/** @endcond */

/**
 * @brief Decodes the character at the start of @p bytes.
 * @param[in] bytes The input (may be NULL when @p size is 0).
 * @param[in] size Bytes available; never read beyond.
 * @return The code point, its length and validity; invalid input gives U+FFFD, length 1,
 *         valid false; empty input gives U+FFFD, length 0, valid false.
 */
GCOL_HD_INLINE gcol_utf8_char gcol_utf8_decode(const char *bytes, int64_t size) {
  if (size <= 0) return gcol_detail_utf8_result(GCOL_UTF8_REPLACEMENT, 0, false);
  const unsigned char *p = (const unsigned char *)bytes;
  unsigned char lo;
  unsigned char hi;
  int32_t const length = gcol_detail_utf8_lead(p[0], &lo, &hi);
  if (length == 1) return gcol_detail_utf8_result(p[0], 1, true);
  if (length == 0 || size < length) return gcol_detail_utf8_result(GCOL_UTF8_REPLACEMENT, 1, false);
  if (p[1] < lo || p[1] > hi) return gcol_detail_utf8_result(GCOL_UTF8_REPLACEMENT, 1, false);
  uint32_t cp = (uint32_t)p[0] & (0x7Fu >> length);
  for (int32_t i = 1; i < length; ++i) {
    if (!gcol_utf8_is_continuation(p[i])) {
      return gcol_detail_utf8_result(GCOL_UTF8_REPLACEMENT, 1, false);
    }
    cp = (cp << 6) | ((uint32_t)p[i] & 0x3Fu);
  }
  return gcol_detail_utf8_result(cp, length, true);
}

/**
 * @brief Bytes that encoding @p code_point takes: 1..4, or 0 for a surrogate
 *        (U+D800..U+DFFF) or a value above U+10FFFF.
 */
GCOL_HD_INLINE int32_t gcol_utf8_encoded_length(uint32_t code_point) {
  if (code_point < 0x80u) return 1;
  if (code_point < 0x800u) return 2;
  if (code_point >= 0xD800u && code_point <= 0xDFFFu) return 0;
  if (code_point < 0x10000u) return 3;
  if (code_point <= GCOL_UTF8_MAX_CODE_POINT) return 4;
  return 0;
}

/**
 * @brief Encodes one code point.
 * @param[in] code_point The code point.
 * @param[out] out At least 4 bytes of room; gcol_utf8_encoded_length() bytes are written.
 * @return Bytes written (1..4), or 0 (nothing written) for a surrogate or a value above
 *         U+10FFFF.
 */
GCOL_HD_INLINE int32_t gcol_utf8_encode(uint32_t code_point, char *out) {
  int32_t const length = gcol_utf8_encoded_length(code_point);
  unsigned char *o = (unsigned char *)out;
  switch (length) {
    case 1: o[0] = (unsigned char)code_point; break;
    case 2:
      o[0] = (unsigned char)(0xC0u | (code_point >> 6));
      o[1] = (unsigned char)(0x80u | (code_point & 0x3Fu));
      break;
    case 3:
      o[0] = (unsigned char)(0xE0u | (code_point >> 12));
      o[1] = (unsigned char)(0x80u | ((code_point >> 6) & 0x3Fu));
      o[2] = (unsigned char)(0x80u | (code_point & 0x3Fu));
      break;
    case 4:
      o[0] = (unsigned char)(0xF0u | (code_point >> 18));
      o[1] = (unsigned char)(0x80u | ((code_point >> 12) & 0x3Fu));
      o[2] = (unsigned char)(0x80u | ((code_point >> 6) & 0x3Fu));
      o[3] = (unsigned char)(0x80u | (code_point & 0x3Fu));
      break;
    default: break;
  }
  return length;
}

/** @brief A character cursor over a string (see the example at the top of this file). */
typedef struct gcol_utf8_iter {
  const char *data; /**< The string's bytes. */
  int64_t size;     /**< Its byte length. */
  int64_t position; /**< Byte position of the next character. */
} gcol_utf8_iter;

/** @brief A cursor at the first character of @p s. */
GCOL_HD_INLINE gcol_utf8_iter gcol_utf8_iter_make(gcol_string_ref s) {
  gcol_utf8_iter it;
  it.data = s.data;
  it.size = s.size;
  it.position = 0;
  return it;
}

/**
 * @brief Decodes the next character and advances.
 * @param[in,out] it The cursor.
 * @param[out] code_point The character (U+FFFD for an invalid byte); may be NULL.
 * @return false at the end of the string (nothing written).
 */
GCOL_HD_INLINE bool gcol_utf8_iter_next(gcol_utf8_iter *it, uint32_t *code_point) {
  if (it->position >= it->size) return false;
  gcol_utf8_char const c = gcol_utf8_decode(it->data + it->position, it->size - it->position);
  if (code_point != NULL) *code_point = c.code_point;
  it->position += c.length;
  return true;
}

/**
 * @brief Number of characters of @p s: the steps gcol_utf8_iter_next() takes (each invalid
 *        byte counts as one character).
 */
GCOL_HD_INLINE int64_t gcol_string_ref_char_count(gcol_string_ref s) {
  int64_t count = 0;
  int64_t pos = 0;
  while (pos < s.size) {
    pos += gcol_utf8_decode(s.data + pos, s.size - pos).length;
    ++count;
  }
  return count;
}

/** @brief True if every byte of @p s belongs to a valid UTF-8 character. */
GCOL_HD_INLINE bool gcol_string_ref_is_valid_utf8(gcol_string_ref s) {
  int64_t pos = 0;
  while (pos < s.size) {
    gcol_utf8_char const c = gcol_utf8_decode(s.data + pos, s.size - pos);
    if (!c.valid) return false;
    pos += c.length;
  }
  return true;
}

/**
 * @brief Byte position of character @p index of @p s (counted as gcol_string_ref_char_count()
 *        does); @p s.size when the string has @p index characters or fewer.
 */
GCOL_HD_INLINE int64_t gcol_string_ref_char_to_byte(gcol_string_ref s, int64_t index) {
  int64_t pos = 0;
  for (int64_t i = 0; i < index && pos < s.size; ++i) {
    pos += gcol_utf8_decode(s.data + pos, s.size - pos).length;
  }
  return pos;
}

/**
 * @brief Hash of a string's bytes: gcol_murmur3_32() with @p seed (equal strings hash
 *        equal; "" and a null row are the caller's to tell apart).
 */
GCOL_HD_INLINE uint32_t gcol_string_ref_hash(gcol_string_ref s, uint32_t seed) {
  return gcol_murmur3_32(s.data, s.size, seed);
}

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_UTF8_H */
