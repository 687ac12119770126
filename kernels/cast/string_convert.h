/*
 * Number <-> text conversion for host and device (the host suite runs these with gcc and
 * compares them with strtoll, strtod and snprintf):
 * - integers parse as [+-]digits (no spaces, no base prefixes); an empty string, a lone
 *   sign, any other byte, or a value outside the target type is an error;
 * - floats parse as [+-](digits[.digits] | .digits)[(e|E)[+-]digits], or nan, inf, infinity
 *   (any case, with a sign); values beyond the range give +-inf (as strtod), the exact result
 *   when the significand has at most 15 digits and the exponent is within 22 of it (Clinger's
 *   fast path), otherwise within 3 ulp (the power of ten comes from pow());
 * - integers format exactly; floats format as C's "%.17g" (FLOAT64) or "%.9g" (FLOAT32):
 *   the shortest fixed precision that always round-trips, computed exactly with a bignum, so
 *   the text equals glibc's byte for byte; NaN is "nan", infinities "inf" and "-inf".
 */
#ifndef GCOL_KERNELS_CAST_STRING_CONVERT_H
#define GCOL_KERNELS_CAST_STRING_CONVERT_H

#include <math.h>
#include <string.h>

#include "gcol/config.h"

/* ---- parsing ---- */

/* Parses an integer; on success *out holds the value (two's complement bits) and true is
 * returned. `bits` is the target width (8..64), `is_unsigned` its signedness. */
GCOL_HD_INLINE bool gcol_detail_parse_int(const char *s, int64_t len, int bits, bool is_unsigned,
                                          uint64_t *out) {
  int64_t i = 0;
  bool negative = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == len) return false;
  uint64_t value = 0;
  for (; i < len; ++i) {
    unsigned const d = (unsigned)(unsigned char)s[i] - (unsigned)'0';
    if (d > 9) return false;
    if (value > (UINT64_MAX - d) / 10) return false;
    value = value * 10 + d;
  }
  uint64_t const magnitude_max =
      is_unsigned ? (bits == 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1))
                  : ((uint64_t)1 << (bits - 1)) - (negative ? 0 : 1);
  if (value > (negative && is_unsigned ? 0 : magnitude_max)) return false;
  *out = negative ? (uint64_t)0 - value : value;
  return true;
}

/* 10^e for 0 <= e <= 22, exactly. */
GCOL_HD_INLINE double gcol_detail_exact_pow10(int e) {
  double p = 1.0;
  for (int k = 0; k < e; ++k) p *= 10.0;
  return p;
}

/* m * 10^e, rounded once when exact powers allow. */
GCOL_HD_INLINE double gcol_detail_scale_pow10(double m, int64_t e) {
  if (e >= 0 && e <= 22) return m * gcol_detail_exact_pow10((int)e);
  if (e < 0 && e >= -22) return m / gcol_detail_exact_pow10((int)-e);
  if (e > 0) return e > 400 ? (m == 0.0 ? 0.0 : m * INFINITY) : m * pow(10.0, (double)e);
  if (e >= -300) return m / pow(10.0, (double)-e);
  if (e < -800) return m * 0.0;
  /* Stay out of the subnormal range until the last step. */
  return (m / pow(10.0, (double)(-e - 300))) / 1e300;
}

/* Case-insensitive match of s[0, len) against the lower-case word w of w_len bytes. */
GCOL_HD_INLINE bool gcol_detail_word_equal(const char *s, int64_t len, const char *w,
                                           int64_t w_len) {
  if (len != w_len) return false;
  for (int64_t i = 0; i < len; ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != w[i]) return false;
  }
  return true;
}

/* gcol_detail_word_equal with a string literal's length taken from the literal. */
#define GCOL_DETAIL_WORD_EQUAL(s, len, literal) \
  gcol_detail_word_equal((s), (len), (literal), (int64_t)sizeof(literal) - 1)

/* Parses a float; see the file comment for the grammar. */
GCOL_HD_INLINE bool gcol_detail_parse_double(const char *s, int64_t len, double *out) {
  int64_t i = 0;
  bool negative = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  double const sign = negative ? -1.0 : 1.0;
  if (GCOL_DETAIL_WORD_EQUAL(s + i, len - i, "nan")) {
    *out = NAN;
    return true;
  }
  if (GCOL_DETAIL_WORD_EQUAL(s + i, len - i, "inf") ||
      GCOL_DETAIL_WORD_EQUAL(s + i, len - i, "infinity")) {
    *out = sign * INFINITY;
    return true;
  }
  uint64_t mantissa = 0;
  int significant = 0; /* digits kept in mantissa (at most 19) */
  int64_t exponent = 0;
  int digits = 0;
  bool seen_point = false;
  for (; i < len; ++i) {
    char const c = s[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    ++digits;
    if (significant < 19) {
      mantissa = mantissa * 10 + (uint64_t)(c - '0');
      if (mantissa != 0) ++significant;
      if (seen_point) --exponent;
    } else if (!seen_point) {
      ++exponent; /* dropped integer digit */
    }
  }
  if (digits == 0) return false;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < len && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
    if (i == len) return false;
    int64_t e = 0;
    for (; i < len; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    exponent += exp_negative ? -e : e;
  }
  if (i != len) return false;
  *out = sign * gcol_detail_scale_pow10((double)mantissa, exponent);
  return true;
}

/* ---- integer formatting ---- */

/* Characters of the decimal text of v (signed: with a '-' for negatives). */
GCOL_HD_INLINE int gcol_detail_format_int_size(uint64_t bits, bool is_unsigned) {
  bool const negative = !is_unsigned && (int64_t)bits < 0;
  uint64_t v = negative ? (uint64_t)0 - bits : bits;
  int n = negative ? 2 : 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

/* Writes the text (gcol_detail_format_int_size() bytes, no NUL). */
GCOL_HD_INLINE void gcol_detail_format_int(uint64_t bits, bool is_unsigned, char *out) {
  bool const negative = !is_unsigned && (int64_t)bits < 0;
  uint64_t v = negative ? (uint64_t)0 - bits : bits;
  int const n = gcol_detail_format_int_size(bits, is_unsigned);
  int k = n;
  do {
    out[--k] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v != 0);
  if (negative) out[0] = '-';
}

/* ---- exact float formatting ---- */

/* Words of the bignum: m * 5^1074 < 2^2548. */
#define GCOL_DETAIL_BIGNUM_WORDS 82
/* Base-10^9 chunks of its decimal text (< 770 digits). */
#define GCOL_DETAIL_BIGNUM_CHUNKS 90
/* Longest text: "-d.dddddddddddddddde-308" and "-0.0000dddddddddddddddd" fit in 32. */
#define GCOL_DETAIL_FLOAT_TEXT_MAX 32

/* n[0, *size) *= factor (< 2^32). */
GCOL_HD_INLINE void gcol_detail_bignum_mul(uint32_t *n, int *size, uint32_t factor) {
  uint64_t carry = 0;
  for (int k = 0; k < *size; ++k) {
    uint64_t const t = (uint64_t)n[k] * factor + carry;
    n[k] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry != 0) n[(*size)++] = (uint32_t)carry;
}

/* n /= divisor, returning the remainder; trims leading zero words. */
GCOL_HD_INLINE uint32_t gcol_detail_bignum_divmod(uint32_t *n, int *size, uint32_t divisor) {
  uint64_t rem = 0;
  for (int k = *size - 1; k >= 0; --k) {
    uint64_t const cur = (rem << 32) | n[k];
    n[k] = (uint32_t)(cur / divisor);
    rem = cur % divisor;
  }
  while (*size > 0 && n[*size - 1] == 0) --(*size);
  return (uint32_t)rem;
}

/* The decimal digits of a positive finite x, as base-1e9 chunks (least significant first),
 * and the power of ten of the last digit: x = chunks * 10^(-*shift). Returns the count. */
GCOL_HD_INLINE int gcol_detail_float_chunks(double x, uint32_t *chunks, int *shift) {
  uint32_t n[GCOL_DETAIL_BIGNUM_WORDS];
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int const biased = (int)((bits >> 52) & 0x7FF);
  uint64_t const m = (bits & ((1ull << 52) - 1)) | (biased != 0 ? (1ull << 52) : 0);
  int const e2 = (biased != 0 ? biased : 1) - 1075;
  int size = 2;
  n[0] = (uint32_t)m;
  n[1] = (uint32_t)(m >> 32);
  if (n[1] == 0) size = n[0] == 0 ? 0 : 1;
  if (e2 >= 0) {
    for (int k = 0; k < e2; k += 31) gcol_detail_bignum_mul(n, &size, 1u << (e2 - k < 31 ? e2 - k : 31));
    *shift = 0;
  } else {
    /* m * 2^e2 = m * 5^-e2 / 10^-e2 */
    for (int k = 0; k < -e2; k += 13) {
      uint32_t f = 1;
      for (int j = k; j < -e2 && j < k + 13; ++j) f *= 5;
      gcol_detail_bignum_mul(n, &size, f);
    }
    *shift = -e2;
  }
  int count = 0;
  while (size > 0) chunks[count++] = gcol_detail_bignum_divmod(n, &size, 1000000000u);
  return count;
}

/* Digit j (0 = most significant) of the chunks, whose top chunk has top_digits digits. */
GCOL_HD_INLINE int gcol_detail_chunk_digit(const uint32_t *chunks, int count, int top_digits, int j) {
  int chunk, pos; /* pos: digit index from the right inside the chunk */
  if (j < top_digits) {
    chunk = count - 1;
    pos = top_digits - 1 - j;
  } else {
    int const r = j - top_digits;
    chunk = count - 2 - r / 9;
    pos = 8 - r % 9;
  }
  uint32_t v = chunks[chunk];
  for (int k = 0; k < pos; ++k) v /= 10;
  return (int)(v % 10);
}

/* True if any digit from index j on is non-zero. */
GCOL_HD_INLINE bool gcol_detail_digits_nonzero_from(const uint32_t *chunks, int count, int top_digits,
                                                    int total, int j) {
  if (j >= total) return false;
  int chunk, pos; /* as in gcol_detail_chunk_digit() */
  if (j < top_digits) {
    chunk = count - 1;
    pos = top_digits - 1 - j;
  } else {
    chunk = count - 2 - (j - top_digits) / 9;
    pos = 8 - (j - top_digits) % 9;
  }
  uint32_t p = 1;
  for (int k = 0; k <= pos; ++k) p *= 10; /* pos <= 8: p <= 10^9 */
  if (chunks[chunk] % p != 0) return true;
  for (int c = chunk - 1; c >= 0; --c) {
    if (chunks[c] != 0) return true;
  }
  return false;
}

/* The first `precision` significant digits of positive finite x, rounded half to even
 * (digits[] as values 0..9), and the decimal exponent of the first. */
GCOL_HD_INLINE int gcol_detail_float_digits(double x, int precision, int *digits) {
  uint32_t chunks[GCOL_DETAIL_BIGNUM_CHUNKS];
  int shift = 0;
  int const count = gcol_detail_float_chunks(x, chunks, &shift);
  int top_digits = 1;
  for (uint32_t t = chunks[count - 1]; t >= 10; t /= 10) ++top_digits;
  int const total = top_digits + 9 * (count - 1);
  int exp10 = total - shift - 1;
  for (int j = 0; j < precision; ++j) {
    digits[j] = j < total ? gcol_detail_chunk_digit(chunks, count, top_digits, j) : 0;
  }
  if (total > precision) {
    int const next = gcol_detail_chunk_digit(chunks, count, top_digits, precision);
    bool const rest = gcol_detail_digits_nonzero_from(chunks, count, top_digits, total, precision + 1);
    bool const up = next > 5 || (next == 5 && (rest || (digits[precision - 1] & 1)));
    if (up) {
      int j = precision - 1;
      while (j >= 0 && digits[j] == 9) digits[j--] = 0;
      if (j >= 0) {
        ++digits[j];
      } else {
        digits[0] = 1; /* 99..9 rounded to 100..0 */
        ++exp10;
      }
    }
  }
  return exp10;
}

/* Writes x as printf's "%.<precision>g" (1 <= precision <= 17) into out (at least
 * GCOL_DETAIL_FLOAT_TEXT_MAX bytes, no NUL) and returns the length. */
GCOL_HD_INLINE int gcol_detail_format_double(double x, int precision, char *out) {
  int len = 0;
  if (x != x) {
    out[0] = 'n'; out[1] = 'a'; out[2] = 'n';
    return 3;
  }
  if (signbit(x)) out[len++] = '-';
  if (isinf(x)) {
    out[len++] = 'i'; out[len++] = 'n'; out[len++] = 'f';
    return len;
  }
  if (x == 0.0) {
    out[len++] = '0';
    return len;
  }
  int digits[17];
  int const e = gcol_detail_float_digits(fabs(x), precision, digits);
  int used = precision; /* %g drops trailing zeros */
  while (used > 1 && digits[used - 1] == 0) --used;
  if (e >= -4 && e < precision) {
    if (e < 0) {
      out[len++] = '0';
      out[len++] = '.';
      for (int k = 0; k < -e - 1; ++k) out[len++] = '0';
      for (int k = 0; k < used; ++k) out[len++] = (char)('0' + digits[k]);
    } else {
      for (int k = 0; k <= e; ++k) out[len++] = (char)('0' + (k < used ? digits[k] : 0));
      if (used > e + 1) {
        out[len++] = '.';
        for (int k = e + 1; k < used; ++k) out[len++] = (char)('0' + digits[k]);
      }
    }
    return len;
  }
  out[len++] = (char)('0' + digits[0]);
  if (used > 1) {
    out[len++] = '.';
    for (int k = 1; k < used; ++k) out[len++] = (char)('0' + digits[k]);
  }
  out[len++] = 'e';
  out[len++] = e < 0 ? '-' : '+';
  int const a = e < 0 ? -e : e;
  if (a >= 100) out[len++] = (char)('0' + a / 100);
  out[len++] = (char)('0' + (a / 10) % 10);
  out[len++] = (char)('0' + a % 10);
  return len;
}

#endif /* GCOL_KERNELS_CAST_STRING_CONVERT_H */
