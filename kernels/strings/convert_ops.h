/*
 * Conversions of one string, host and device (strings/convert.h): what the kernels of
 * convert.cu run per row (a thread per row), unit-tested on the CPU against answers Python
 * gave (tests/strings/convert_cases.h). Functions that make text write through the sink of
 * edit_ops.h: with a NULL `out` they only count (the count pass), then they write.
 */
#ifndef GCOL_KERNELS_STRINGS_CONVERT_OPS_H
#define GCOL_KERNELS_STRINGS_CONVERT_OPS_H

#include <stdint.h>

#include "gcol/config.h"
#include "strings/edit_ops.h"

GCOL_EXTERN_C_BEGIN

/* ---- booleans ---- */

/* Whether s equals t byte for byte. */
GCOL_HD_INLINE bool gcol_detail_bytes_equal(const char *s, int64_t n, const char *t, int64_t tn) {
  if (n != tn) return false;
  for (int64_t i = 0; i < n; ++i) {
    if (s[i] != t[i]) return false;
  }
  return true;
}

/* ---- hex ---- */

/* The value of a hex digit, or -1. */
GCOL_HD_INLINE int gcol_detail_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Where the digits of a hex row begin: after a "0x" or "0X" prefix, if any. */
GCOL_HD_INLINE int64_t gcol_detail_hex_start(const char *s, int64_t n) {
  return n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 2 : 0;
}

/* Whether s is [0x|0X]hexdigits (at least one digit, any case, any count). */
GCOL_HD_INLINE bool gcol_detail_is_hex(const char *s, int64_t n) {
  int64_t const begin = gcol_detail_hex_start(s, n);
  if (begin == n) return false;
  for (int64_t i = begin; i < n; ++i) {
    if (gcol_detail_hex_digit(s[i]) < 0) return false;
  }
  return true;
}

/* Parses [0x|0X]hexdigits as the bits of a `bits`-wide integer (8..64): false when s is not
 * hex or the value needs more than `bits` bits (leading zeros are free). */
GCOL_HD_INLINE bool gcol_detail_hex_parse(const char *s, int64_t n, int bits, uint64_t *out) {
  if (!gcol_detail_is_hex(s, n)) return false;
  uint64_t v = 0;
  for (int64_t i = gcol_detail_hex_start(s, n); i < n; ++i) {
    if ((v >> (bits - 4)) != 0) return false;
    v = (v << 4) | (uint64_t)gcol_detail_hex_digit(s[i]);
  }
  *out = v;
  return true;
}

/* The `width`-byte two's complement bits v as upper-case hex, two digits a byte, leading
 * zero bytes dropped (at least one byte: 0 is "00"). */
GCOL_HD_INLINE void gcol_detail_to_hex_row(uint64_t v, int width, gcol_detail_sink *k) {
  static const char digits[] = "0123456789ABCDEF";
  if (width < 8) v &= ((uint64_t)1 << (8 * width)) - 1;
  int bytes = 1;
  while (bytes < 8 && (v >> (8 * bytes)) != 0) ++bytes;
  for (int b = bytes - 1; b >= 0; --b) {
    unsigned const byte = (unsigned)(v >> (8 * b)) & 0xFFu;
    char const pair[2] = {digits[byte >> 4], digits[byte & 15u]};
    gcol_detail_sink_put(k, pair, 2);
  }
}

/* ---- url ---- */

/* RFC 3986's unreserved characters (Python's quote(s, safe='') keeps these). */
GCOL_HD_INLINE bool gcol_detail_url_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '_' || c == '.' || c == '~';
}

/* Every byte but the unreserved ones as %XX (upper case). */
GCOL_HD_INLINE void gcol_detail_url_encode_row(const char *s, int64_t n, gcol_detail_sink *k) {
  static const char digits[] = "0123456789ABCDEF";
  for (int64_t i = 0; i < n; ++i) {
    unsigned char const c = (unsigned char)s[i];
    if (gcol_detail_url_unreserved(c)) {
      gcol_detail_sink_put(k, s + i, 1);
    } else {
      char const esc[3] = {'%', digits[c >> 4], digits[c & 15u]};
      gcol_detail_sink_put(k, esc, 3);
    }
  }
}

/* Each %XX (two hex digits, any case) as its byte; every other byte copied. */
GCOL_HD_INLINE void gcol_detail_url_decode_row(const char *s, int64_t n, gcol_detail_sink *k) {
  for (int64_t i = 0; i < n;) {
    if (s[i] == '%' && i + 2 < n) {
      int const hi = gcol_detail_hex_digit(s[i + 1]);
      int const lo = gcol_detail_hex_digit(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        char const c = (char)(unsigned char)(hi * 16 + lo);
        gcol_detail_sink_put(k, &c, 1);
        i += 3;
        continue;
      }
    }
    gcol_detail_sink_put(k, s + i, 1);
    ++i;
  }
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_CONVERT_OPS_H */
