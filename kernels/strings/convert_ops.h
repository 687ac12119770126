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
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
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

/* ---- decimals ---- */

/* 128-bit integers of the decimal conversions (host: gcc's, device: nvcc's). */
__extension__ typedef __int128 gcol_detail_dec_i128;
__extension__ typedef unsigned __int128 gcol_detail_dec_u128;

/* The decimal digits of u, most significant first, into digits[40]; returns their count
 * (0 is "0"). */
GCOL_HD_INLINE int gcol_detail_u128_digits(gcol_detail_dec_u128 u, char *digits) {
  char tmp[40];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(u % 10u));
    u /= 10u;
  } while (u != 0);
  for (int i = 0; i < n; ++i) digits[i] = tmp[n - 1 - i];
  return n;
}

/* The text of the decimal v * 10^scale, exact: "-" for a negative v, then for scale >= 0 the
 * digits and `scale` zeros (0 stays "0"), for scale < 0 the integer part ("0" when there is
 * none), '.', and -scale fraction digits ("0.05", "-123.45", "0.00"): Python's
 * format(Decimal(v).scaleb(scale), 'f'). */
GCOL_HD_INLINE void gcol_detail_decimal_to_text(gcol_detail_dec_i128 v, int32_t scale,
                                                gcol_detail_sink *k) {
  char digits[40];
  gcol_detail_dec_u128 const u =
      v < 0 ? (gcol_detail_dec_u128)0 - (gcol_detail_dec_u128)v : (gcol_detail_dec_u128)v;
  int64_t const n = gcol_detail_u128_digits(u, digits);
  if (v < 0) gcol_detail_sink_put(k, "-", 1);
  if (scale >= 0) {
    gcol_detail_sink_put(k, digits, n);
    if (u != 0) gcol_detail_sink_repeat(k, "0", 1, scale);
    return;
  }
  int64_t const frac = -(int64_t)scale;
  if (frac >= n) {
    gcol_detail_sink_put(k, "0.", 2);
    gcol_detail_sink_repeat(k, "0", 1, frac - n);
    gcol_detail_sink_put(k, digits, n);
  } else {
    gcol_detail_sink_put(k, digits, n - frac);
    gcol_detail_sink_put(k, ".", 1);
    gcol_detail_sink_put(k, digits + (n - frac), frac);
  }
}

/* Parses [+-](digits[.[digits]] | .digits)[(e|E)[+-]digits] (ASCII digits, nothing else)
 * into the unscaled value of a decimal of `scale` and `bits` (32, 64 or 128): the number
 * divided by 10^scale, truncated toward zero (digits below the scale are dropped). False
 * when s does not parse or the result is outside the type's range. */
GCOL_HD_INLINE bool gcol_detail_parse_decimal(const char *s, int64_t n, int32_t scale, int bits,
                                              gcol_detail_dec_i128 *out) {
  int64_t i = 0;
  bool negative = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  int64_t const int_begin = i;
  while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
  int64_t const int_digits = i - int_begin;
  int64_t frac_begin = i, frac_digits = 0;
  if (i < n && s[i] == '.') {
    frac_begin = ++i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    frac_digits = i - frac_begin;
  }
  if (int_digits + frac_digits == 0) return false;
  int64_t exponent = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool neg_exp = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) neg_exp = s[i++] == '-';
    if (i == n) return false;
    for (; i < n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      if (exponent < ((int64_t)1 << 40)) exponent = exponent * 10 + (s[i] - '0');
    }
    if (neg_exp) exponent = -exponent;
  }
  if (i != n) return false;
  /* digit j (of int then fraction digits) weighs 10^(int_digits - 1 - j + exponent); those
   * of weight >= 10^scale count, the rest are truncated */
  int64_t const total = int_digits + frac_digits;
  int64_t const last = int_digits - 1 + exponent - (int64_t)scale; /* the last digit kept */
  int64_t const kept = last < 0 ? 0 : (last + 1 < total ? last + 1 : total);
  gcol_detail_dec_u128 const limit = ((gcol_detail_dec_u128)1 << (bits - 1)) - (negative ? 0u : 1u);
  gcol_detail_dec_u128 value = 0;
  for (int64_t j = 0; j < kept; ++j) {
    char const c = j < int_digits ? s[int_begin + j] : s[frac_begin + j - int_digits];
    unsigned const d = (unsigned)(c - '0');
    if (value > (limit - d) / 10u) return false;
    value = value * 10u + d;
  }
  if (kept == total && value != 0) {
    /* the last digit weighs more than 10^scale: append zeros */
    for (int64_t z = last - (total - 1); z > 0; --z) {
      if (value > limit / 10u) return false;
      value *= 10u;
    }
  }
  /* two's complement: -2^(bits-1) comes out of the unsigned negation */
  *out = (gcol_detail_dec_i128)(negative ? (gcol_detail_dec_u128)0 - value : value);
  return true;
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_CONVERT_OPS_H */
