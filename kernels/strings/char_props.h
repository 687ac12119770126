/*
 * Character classes and simple case mappings of one string, host and device: the kernels of
 * kernels/strings/ run these per row, and tests/strings/ runs the same code on the CPU
 * (against Python's str methods, tests/strings/check_unicode_table.py).
 *
 * The data is the generated kernels/strings/unicode_data.h. Its arrays are initializer
 * macros so that a .cu file makes them __device__ arrays and a host test plain ones; the
 * functions here take them through a gcol_detail_unicode_tables.
 *
 * Characters are decoded as gcol/utf8.h does: an invalid byte is one character with no
 * class and no case mapping, and case conversion copies it unchanged.
 */
#ifndef GCOL_KERNELS_STRINGS_CHAR_PROPS_H
#define GCOL_KERNELS_STRINGS_CHAR_PROPS_H

#include <stdint.h>

#include "gcol/config.h"
#include "gcol/strings/attributes.h"
#include "gcol/strings/case.h"
#include "gcol/utf8.h"
#include "strings/unicode_data.h"

GCOL_EXTERN_C_BEGIN

/* One record of unicode_data.h: class flags and the three simple mappings as deltas. */
typedef struct gcol_detail_unicode_record {
  uint16_t flags;
  int32_t upper;
  int32_t lower;
  int32_t title;
} gcol_detail_unicode_record;

/* The three arrays of unicode_data.h, wherever they live. */
typedef struct gcol_detail_unicode_tables {
  const uint16_t *stage1;
  const uint16_t *stage2;
  const gcol_detail_unicode_record *records;
} gcol_detail_unicode_tables;

/* The record of a code point (record 0, no class and no mapping, above U+10FFFF). */
GCOL_HD_INLINE gcol_detail_unicode_record gcol_detail_unicode_lookup(gcol_detail_unicode_tables t,
                                                                    uint32_t cp) {
  if (cp > GCOL_UTF8_MAX_CODE_POINT) return t.records[0];
  uint32_t const block = t.stage1[cp / GCOL_DETAIL_UNICODE_BLOCK];
  return t.records[t.stage2[block * GCOL_DETAIL_UNICODE_BLOCK + cp % GCOL_DETAIL_UNICODE_BLOCK]];
}

/* ---- character classes ---- */

/* Class flags of ASCII bytes, without the tables (the common case). */
GCOL_HD_INLINE uint32_t gcol_detail_ascii_flags(unsigned char c) {
  if (c >= '0' && c <= '9') {
    return GCOL_DETAIL_CHAR_DECIMAL | GCOL_DETAIL_CHAR_DIGIT | GCOL_DETAIL_CHAR_NUMERIC;
  }
  if (c >= 'A' && c <= 'Z') {
    return GCOL_DETAIL_CHAR_ALPHA | GCOL_DETAIL_CHAR_UPPER | GCOL_DETAIL_CHAR_CASED;
  }
  if (c >= 'a' && c <= 'z') {
    return GCOL_DETAIL_CHAR_ALPHA | GCOL_DETAIL_CHAR_LOWER | GCOL_DETAIL_CHAR_CASED;
  }
  if (c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F)) return GCOL_DETAIL_CHAR_SPACE;
  return 0;
}

/*
 * Whether string s is of class cls, as Python's str methods define it: false for "";
 * DECIMAL, DIGIT, NUMERIC, ALPHA, SPACE: every character has the class; ALNUM: every
 * character is alpha, decimal, digit or numeric; UPPER (LOWER): no lowercase (uppercase)
 * or titlecase character and at least one uppercase (lowercase) one.
 */
GCOL_HD_INLINE bool gcol_detail_string_is_class(gcol_detail_unicode_tables t, const char *s,
                                                int64_t n, gcol_char_class cls) {
  uint32_t need;
  switch (cls) {
    case GCOL_CHAR_DECIMAL: need = GCOL_DETAIL_CHAR_DECIMAL; break;
    case GCOL_CHAR_DIGIT: need = GCOL_DETAIL_CHAR_DIGIT; break;
    case GCOL_CHAR_NUMERIC: need = GCOL_DETAIL_CHAR_NUMERIC; break;
    case GCOL_CHAR_ALPHA: need = GCOL_DETAIL_CHAR_ALPHA; break;
    case GCOL_CHAR_SPACE: need = GCOL_DETAIL_CHAR_SPACE; break;
    case GCOL_CHAR_ALNUM:
      need = GCOL_DETAIL_CHAR_ALPHA | GCOL_DETAIL_CHAR_DECIMAL | GCOL_DETAIL_CHAR_DIGIT |
             GCOL_DETAIL_CHAR_NUMERIC;
      break;
    default: need = 0; break; /* UPPER, LOWER below */
  }
  bool const casing = cls == GCOL_CHAR_UPPER || cls == GCOL_CHAR_LOWER;
  uint32_t const want = cls == GCOL_CHAR_UPPER ? GCOL_DETAIL_CHAR_UPPER : GCOL_DETAIL_CHAR_LOWER;
  uint32_t const reject = GCOL_DETAIL_CHAR_TITLE |
                          (cls == GCOL_CHAR_UPPER ? GCOL_DETAIL_CHAR_LOWER : GCOL_DETAIL_CHAR_UPPER);
  bool seen = false;
  int64_t pos = 0;
  while (pos < n) {
    unsigned char const b = (unsigned char)s[pos];
    uint32_t flags;
    if (b < 0x80u) {
      flags = gcol_detail_ascii_flags(b);
      ++pos;
    } else {
      gcol_utf8_char const c = gcol_utf8_decode(s + pos, n - pos);
      flags = c.valid ? gcol_detail_unicode_lookup(t, c.code_point).flags : 0u;
      pos += c.length;
    }
    if (casing) {
      if ((flags & reject) != 0) return false;
      if ((flags & want) != 0) seen = true;
    } else if ((flags & need) == 0) {
      return false;
    }
  }
  return casing ? seen : n > 0;
}

/* ---- case conversion ---- */

/* The code point a character becomes (simple mappings). */
GCOL_HD_INLINE uint32_t gcol_detail_case_map(gcol_detail_unicode_record r, uint32_t cp, int kind) {
  int32_t const delta = kind == 0 ? r.upper : (kind == 1 ? r.lower : r.title);
  return (uint32_t)((int32_t)cp + delta);
}

/* Mapping kinds for gcol_detail_case_map. */
#define GCOL_DETAIL_MAP_UPPER 0
#define GCOL_DETAIL_MAP_LOWER 1
#define GCOL_DETAIL_MAP_TITLE 2
#define GCOL_DETAIL_MAP_NONE 3

/* Which mapping character number `index` (previous character cased or not) gets. */
GCOL_HD_INLINE int gcol_detail_case_kind(gcol_case_op op, uint32_t flags, int64_t index,
                                         bool previous_cased) {
  switch (op) {
    case GCOL_CASE_UPPER: return GCOL_DETAIL_MAP_UPPER;
    case GCOL_CASE_LOWER: return GCOL_DETAIL_MAP_LOWER;
    case GCOL_CASE_SWAPCASE:
      if ((flags & GCOL_DETAIL_CHAR_UPPER) != 0) return GCOL_DETAIL_MAP_LOWER;
      if ((flags & GCOL_DETAIL_CHAR_LOWER) != 0) return GCOL_DETAIL_MAP_UPPER;
      return GCOL_DETAIL_MAP_NONE;
    case GCOL_CASE_CAPITALIZE: return index == 0 ? GCOL_DETAIL_MAP_TITLE : GCOL_DETAIL_MAP_LOWER;
    default: /* GCOL_CASE_TITLE */
      return previous_cased ? GCOL_DETAIL_MAP_LOWER : GCOL_DETAIL_MAP_TITLE;
  }
}

/* An ASCII byte under a mapping kind. */
GCOL_HD_INLINE unsigned char gcol_detail_ascii_map(unsigned char c, int kind) {
  if (kind == GCOL_DETAIL_MAP_LOWER) return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
  if (kind == GCOL_DETAIL_MAP_NONE) return c;
  return (c >= 'a' && c <= 'z') ? (unsigned char)(c - 32) : c; /* UPPER, TITLE */
}

/*
 * Converts string s (n bytes) by op into dst, or only measures it when dst is NULL; returns
 * the output bytes. Simple mappings, no context (no final sigma); invalid bytes are copied
 * unchanged. TITLE as Python's str.title(): a character after a cased one is lowercased,
 * any other titlecased; CAPITALIZE: the first character titlecased, the rest lowercased.
 */
GCOL_HD_INLINE int64_t gcol_detail_case_convert(gcol_detail_unicode_tables t, gcol_case_op op,
                                                const char *s, int64_t n, char *dst) {
  int64_t pos = 0;
  int64_t out = 0;
  int64_t index = 0;
  bool previous_cased = false;
  while (pos < n) {
    unsigned char const b = (unsigned char)s[pos];
    if (b < 0x80u) {
      uint32_t const flags = gcol_detail_ascii_flags(b);
      int const kind = gcol_detail_case_kind(op, flags, index, previous_cased);
      if (dst != NULL) dst[out] = (char)gcol_detail_ascii_map(b, kind);
      previous_cased = (flags & GCOL_DETAIL_CHAR_CASED) != 0;
      ++pos;
      ++out;
    } else {
      gcol_utf8_char const c = gcol_utf8_decode(s + pos, n - pos);
      if (!c.valid) {
        if (dst != NULL) dst[out] = (char)b;
        previous_cased = false;
        ++pos;
        ++out;
      } else {
        gcol_detail_unicode_record const r = gcol_detail_unicode_lookup(t, c.code_point);
        int const kind = gcol_detail_case_kind(op, r.flags, index, previous_cased);
        uint32_t const mapped =
            kind == GCOL_DETAIL_MAP_NONE ? c.code_point : gcol_detail_case_map(r, c.code_point, kind);
        if (dst != NULL) {
          out += gcol_utf8_encode(mapped, dst + out);
        } else {
          out += gcol_utf8_encoded_length(mapped);
        }
        previous_cased = (r.flags & GCOL_DETAIL_CHAR_CASED) != 0;
        pos += c.length;
      }
    }
    ++index;
  }
  return out;
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_CHAR_PROPS_H */
