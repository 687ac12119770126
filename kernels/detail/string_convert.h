/*
 * Number <-> text conversion for host and device (the host suite runs these with gcc and
 * compares them with strtoll, strtod and snprintf):
 * - integers parse as [+-]digits (no spaces, no base prefixes); an empty string, a lone
 *   sign, any other byte, or a value outside the target type is an error;
 * - floats parse as [+-](digits[.[digits]] | .digits)[(e|E)[+-]digits] ("5." is 5, "." is
 *   an error), or nan, inf, infinity (any case, with a sign), correctly rounded to FLOAT64
 *   or FLOAT32 (bit for bit as strtod and strtof; values beyond the range give +-inf):
 *   Clinger's fast path (a mantissa below 2^53 times or over an exact 10^0..22), else 19
 *   digits times or over 5^0..27 exactly in 128 bits (when dropped digits cannot change the
 *   rounding), else big-integer comparisons with the midpoints next to a guess (long
 *   mantissas, large exponents, subnormals);
 * - integers format exactly; floats format as C's "%.17g" (FLOAT64) or "%.9g" (FLOAT32):
 *   the shortest fixed precision that always round-trips, computed exactly (x * 10^k in 128
 *   bits when 0 <= k <= 27, e.g. 1e-11 <= x < 1e17 for FLOAT64; else all the digits of a
 *   bignum), so the text equals glibc's byte for byte and parses back to the same bits; NaN
 *   is "nan", infinities "inf" and "-inf".
 */
#ifndef GCOL_KERNELS_DETAIL_STRING_CONVERT_H
#define GCOL_KERNELS_DETAIL_STRING_CONVERT_H

#include <math.h>
#include <string.h>

#include "gcol/config.h"

/* ---- big integers (little-endian 32-bit words, no leading zero word) ---- */

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

/* n[0, *size) += v. */
GCOL_HD_INLINE void gcol_detail_bignum_add(uint32_t *n, int *size, uint32_t v) {
  for (int k = 0; v != 0; ++k) {
    if (k == *size) {
      n[(*size)++] = v;
      return;
    }
    uint64_t const t = (uint64_t)n[k] + v;
    n[k] = (uint32_t)t;
    v = (uint32_t)(t >> 32);
  }
}

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

/* m * 10^e within a few ulp (pow() is not exact): the first guess of the exact path. */
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

/* 128-bit integers (host: gcc's, device: nvcc's). */
__extension__ typedef unsigned __int128 gcol_detail_conv_u128;

/* The IEEE binary format a parse rounds to: FLOAT64 or FLOAT32. */
typedef struct gcol_detail_ieee {
  int p;             /* significand bits, the hidden one included */
  int bias;          /* exponent bias */
  uint64_t inf_bits; /* +infinity; the largest finite value is one less */
  uint64_t sign_bit;
} gcol_detail_ieee;

GCOL_HD_INLINE gcol_detail_ieee gcol_detail_ieee_of(bool single) {
  gcol_detail_ieee t;
  t.p = single ? 24 : 53;
  t.bias = single ? 127 : 1023;
  t.inf_bits = single ? 0x7F800000ull : 0x7FF0000000000000ull;
  t.sign_bit = single ? 0x80000000ull : 0x8000000000000000ull;
  return t;
}

/* Leading zero bits of x != 0. */
GCOL_HD_INLINE int gcol_detail_clz64(uint64_t x) {
#ifdef __CUDA_ARCH__
  return __clzll((long long)x);
#else
  return __builtin_clzll(x);
#endif
}

/* The bits of (m + f) * 2^b rounded to nearest, ties to even, in format t: m has its top bit
 * set, 0 <= f < 1 and f > 0 exactly when sticky. Subnormals round once; overflow gives inf. */
GCOL_HD_INLINE uint64_t gcol_detail_round_bits(uint64_t m, bool sticky, int64_t b,
                                               gcol_detail_ieee t) {
  int64_t const field_max = (int64_t)(t.inf_bits >> (t.p - 1));
  int64_t const biased = b + 63 + t.bias; /* exponent field of the top bit, if normal */
  if (biased >= field_max) return t.inf_bits;
  int64_t const shift = (64 - t.p) + (biased >= 1 ? 0 : 1 - biased);
  if (shift > 64) return 0; /* below half the smallest subnormal */
  uint64_t const keep = shift == 64 ? 0 : m >> shift;
  uint64_t const rem = shift == 64 ? m : m & ((1ull << shift) - 1);
  uint64_t const half = 1ull << (shift - 1);
  uint64_t r = keep + (rem > half || (rem == half && (sticky || (keep & 1))) ? 1 : 0);
  if (biased < 1) return r; /* a subnormal (or, rounded up, the smallest normal) */
  int64_t e = biased;
  if (r >> t.p) { /* rounded up to the next power of two */
    r >>= 1;
    ++e;
  }
  if (e >= field_max) return t.inf_bits;
  return ((uint64_t)e << (t.p - 1)) | (r & ((1ull << (t.p - 1)) - 1));
}

/* 5^k for 0 <= k <= 27 (below 2^63). */
GCOL_HD_INLINE uint64_t gcol_detail_pow5(int k) {
  uint64_t p = 1;
  for (int j = 0; j < k; ++j) p *= 5;
  return p;
}

/* The bits of w * 10^e10 (w > 0, |e10| <= 27) in format t, rounded once: w * 5^e10, or w
 * scaled up by 2^s over 5^-e10 with the remainder as sticky, is exact in 128 bits. */
GCOL_HD_INLINE uint64_t gcol_detail_decimal_bits_small(uint64_t w, int e10, gcol_detail_ieee t) {
  gcol_detail_conv_u128 q;
  int64_t b = e10;
  bool sticky = false;
  if (e10 >= 0) {
    q = (gcol_detail_conv_u128)w * gcol_detail_pow5(e10);
  } else {
    uint64_t const d = gcol_detail_pow5(-e10);
    int const s = gcol_detail_clz64(w) + 63; /* n in [2^126, 2^127): q >= 2^63 */
    gcol_detail_conv_u128 const n = (gcol_detail_conv_u128)w << s;
    q = n / d;
    sticky = n - q * d != 0;
    b -= s;
  }
  uint64_t const hi = (uint64_t)(q >> 64), lo = (uint64_t)q;
  uint64_t m;
  if (hi != 0) { /* keep the top 64 bits */
    int const z = gcol_detail_clz64(hi);
    m = z == 0 ? hi : (hi << z) | (lo >> (64 - z));
    sticky = sticky || (lo << z) != 0;
    b += 64 - z;
  } else {
    int const z = gcol_detail_clz64(lo);
    m = lo << z;
    b -= z;
  }
  return gcol_detail_round_bits(m, sticky, b, t);
}

/* Words of the exact path's bignums: 800 digits times 10^-1125, and the midpoints compared
 * with them, stay below 2^2720. */
#define GCOL_DETAIL_PARSE_WORDS 96
/* Significant digits the exact path keeps: a midpoint between two doubles has at most 767,
 * so digits after these only say "a little more" (sticky). */
#define GCOL_DETAIL_PARSE_DIGITS 800

/* n = n * 2^k. */
GCOL_HD_INLINE void gcol_detail_bignum_shl(uint32_t *n, int *size, int64_t k) {
  if (*size == 0) return;
  int const words = (int)(k / 32), bits = (int)(k % 32);
  if (bits != 0) {
    uint32_t carry = 0;
    for (int i = 0; i < *size; ++i) {
      uint32_t const v = n[i];
      n[i] = (v << bits) | carry;
      carry = v >> (32 - bits);
    }
    if (carry != 0) n[(*size)++] = carry;
  }
  if (words != 0) {
    for (int i = *size - 1; i >= 0; --i) n[i + words] = n[i];
    for (int i = 0; i < words; ++i) n[i] = 0;
    *size += words;
  }
}

/* n = n * 5^k. */
GCOL_HD_INLINE void gcol_detail_bignum_mul_pow5(uint32_t *n, int *size, int64_t k) {
  for (; k > 0; k -= 13) {
    uint32_t f = 1;
    for (int j = 0; j < 13 && j < k; ++j) f *= 5;
    gcol_detail_bignum_mul(n, size, f);
  }
}

/* Sign of a - b (no leading zero words). */
GCOL_HD_INLINE int gcol_detail_bignum_cmp(const uint32_t *a, int na, const uint32_t *b, int nb) {
  if (na != nb) return na < nb ? -1 : 1;
  for (int i = na - 1; i >= 0; --i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/* The significant digits of the mantissa text s[0, len) (digits and at most one point,
 * already checked), the first GCOL_DETAIL_PARSE_DIGITS of them, as the bignum n; *e10 is the
 * power of ten of the last digit kept and *sticky says whether a non-zero digit was dropped. */
GCOL_HD_INLINE void gcol_detail_decimal_digits(const char *s, int64_t len, uint32_t *n, int *size,
                                               int64_t *e10, bool *sticky) {
  int64_t e = 0;
  int kept = 0, in_chunk = 0;
  uint32_t chunk = 0, scale = 1;
  bool point = false;
  *size = 0;
  *sticky = false;
  for (int64_t i = 0; i < len; ++i) {
    if (s[i] == '.') {
      point = true;
      continue;
    }
    uint32_t const d = (uint32_t)(s[i] - '0');
    if (kept == GCOL_DETAIL_PARSE_DIGITS) {
      *sticky = *sticky || d != 0;
      if (!point) ++e;
      continue;
    }
    if (point) --e;
    if (kept == 0 && d == 0) continue; /* a leading zero */
    ++kept;
    chunk = chunk * 10 + d;
    scale *= 10;
    if (++in_chunk == 9) {
      gcol_detail_bignum_mul(n, size, scale);
      gcol_detail_bignum_add(n, size, chunk);
      chunk = 0;
      scale = 1;
      in_chunk = 0;
    }
  }
  if (in_chunk != 0) {
    gcol_detail_bignum_mul(n, size, scale);
    gcol_detail_bignum_add(n, size, chunk);
  }
  *e10 = e;
}

/* Sign of D * 10^E - H * 2^K, where D (digits[0, size)) stands for a little more when sticky. */
GCOL_HD_INLINE int gcol_detail_decimal_cmp(const uint32_t *digits, int size, int64_t E,
                                           bool sticky, uint64_t H, int64_t K) {
  uint32_t a[GCOL_DETAIL_PARSE_WORDS], b[GCOL_DETAIL_PARSE_WORDS];
  int na = size, nb;
  for (int i = 0; i < na; ++i) a[i] = digits[i];
  b[0] = (uint32_t)H;
  b[1] = (uint32_t)(H >> 32);
  nb = b[1] != 0 ? 2 : (b[0] != 0 ? 1 : 0);
  if (E >= 0) {
    gcol_detail_bignum_mul_pow5(a, &na, E);
  } else {
    gcol_detail_bignum_mul_pow5(b, &nb, -E);
  }
  if (K >= E) {
    gcol_detail_bignum_shl(b, &nb, K - E);
  } else {
    gcol_detail_bignum_shl(a, &na, E - K);
  }
  int const c = gcol_detail_bignum_cmp(a, na, b, nb);
  return c == 0 && sticky ? 1 : c;
}

/* The bits of the positive decimal mantissa s[0, len) * 10^exp10 in format t, rounded
 * exactly: from the guess (a few ulp off at most), step while the value lies beyond the
 * midpoint to a neighbour, comparing in big integers. For what the fast paths leave. */
GCOL_HD_INLINE uint64_t gcol_detail_decimal_bits_exact(const char *s, int64_t len, int64_t exp10,
                                                       double guess, gcol_detail_ieee t) {
  uint32_t digits[GCOL_DETAIL_PARSE_WORDS];
  int size = 0;
  int64_t e10 = 0;
  bool sticky = false;
  gcol_detail_decimal_digits(s, len, digits, &size, &e10, &sticky);
  e10 += exp10;
  uint64_t bits;
  if (t.p == 24) {
    float const f = (float)guess;
    uint32_t b32;
    memcpy(&b32, &f, sizeof b32);
    bits = b32;
  } else {
    memcpy(&bits, &guess, sizeof bits);
  }
  if (bits >= t.inf_bits) bits = t.inf_bits - 1;
  int const frac_bits = t.p - 1;
  for (int step = 0; step < 1000; ++step) {
    uint64_t const field = bits >> frac_bits, frac = bits & ((1ull << frac_bits) - 1);
    uint64_t const m = field != 0 ? frac | (1ull << frac_bits) : frac;
    int64_t const e = (int64_t)(field != 0 ? field : 1) - t.bias - frac_bits; /* bits = m*2^e */
    int const up = gcol_detail_decimal_cmp(digits, size, e10, sticky, 2 * m + 1, e - 1);
    if (up > 0 || (up == 0 && (m & 1))) {
      if (++bits == t.inf_bits) break;
      continue;
    }
    if (bits == 0) break;
    /* below a power of two the neighbour is half as far */
    bool const edge = frac == 0 && field > 1;
    int const down = edge ? gcol_detail_decimal_cmp(digits, size, e10, sticky, 4 * m - 1, e - 2)
                          : gcol_detail_decimal_cmp(digits, size, e10, sticky, 2 * m - 1, e - 1);
    if (down < 0 || (down == 0 && (m & 1))) {
      --bits;
      continue;
    }
    break;
  }
  return bits;
}

/* The bits of the positive w * 10^e10 in format t, w holding the first `significant` digits
 * of the mantissa text s[0, len) (a little more when truncated), `written` the exponent as
 * written: the fast paths, else the exact one. */
GCOL_HD_INLINE uint64_t gcol_detail_decimal_bits(uint64_t w, int64_t e10, int significant,
                                                 bool truncated, const char *s, int64_t len,
                                                 int64_t written, gcol_detail_ieee t) {
  bool const single = t.p == 24;
  int64_t const lead = e10 + significant - 1; /* the value lies in [10^lead, 10^(lead+1)) */
  if (lead >= (single ? 39 : 309)) return t.inf_bits;
  if (lead < (single ? -46 : -325)) return 0; /* below half the smallest subnormal */
  if (!truncated && !single && w <= (1ull << 53) && e10 >= -22 && e10 <= 22) {
    /* Clinger: both operands exact, one rounding */
    double const d = gcol_detail_scale_pow10((double)w, e10);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
  }
  if (e10 >= -27 && e10 <= 27) {
    uint64_t const bits = gcol_detail_decimal_bits_small(w, (int)e10, t);
    /* the dropped digits put the value strictly between w and w + 1 units */
    if (!truncated || bits == gcol_detail_decimal_bits_small(w + 1, (int)e10, t)) return bits;
  }
  return gcol_detail_decimal_bits_exact(s, len, written, gcol_detail_scale_pow10((double)w, e10),
                                        t);
}

/* Parses a float (see the file comment) into the bits of format t, correctly rounded. */
GCOL_HD_INLINE bool gcol_detail_parse_real(const char *s, int64_t len, gcol_detail_ieee t,
                                           uint64_t *out) {
  int64_t i = 0;
  bool negative = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  uint64_t const sign = negative ? t.sign_bit : 0;
  if (GCOL_DETAIL_WORD_EQUAL(s + i, len - i, "nan")) {
    *out = t.inf_bits | (1ull << (t.p - 2)); /* the quiet NaN, unsigned as before */
    return true;
  }
  if (GCOL_DETAIL_WORD_EQUAL(s + i, len - i, "inf") ||
      GCOL_DETAIL_WORD_EQUAL(s + i, len - i, "infinity")) {
    *out = sign | t.inf_bits;
    return true;
  }
  int64_t const mant_begin = i;
  uint64_t mantissa = 0;
  int significant = 0; /* digits kept in mantissa (at most 19) */
  int64_t exponent = 0;
  int digits = 0;
  bool seen_point = false, truncated = false;
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
    } else {
      truncated = truncated || c != '0';
      if (!seen_point) ++exponent; /* dropped integer digit */
    }
  }
  if (digits == 0) return false;
  int64_t const mant_end = i;
  int64_t written = 0; /* the exponent as written */
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < len && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
    if (i == len) return false;
    for (; i < len; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      if (written < 100000) written = written * 10 + (s[i] - '0');
    }
    if (exp_negative) written = -written;
    exponent += written;
  }
  if (i != len) return false;
  uint64_t const bits =
      mantissa == 0 ? 0
                    : gcol_detail_decimal_bits(mantissa, exponent, significant, truncated,
                                               s + mant_begin, mant_end - mant_begin, written, t);
  *out = sign | bits;
  return true;
}

/* Parses a FLOAT64, correctly rounded (as strtod). */
GCOL_HD_INLINE bool gcol_detail_parse_double(const char *s, int64_t len, double *out) {
  uint64_t bits;
  if (!gcol_detail_parse_real(s, len, gcol_detail_ieee_of(false), &bits)) return false;
  memcpy(out, &bits, sizeof bits);
  return true;
}

/* Parses a FLOAT32, correctly rounded from the text (as strtof, not via a double). */
GCOL_HD_INLINE bool gcol_detail_parse_float(const char *s, int64_t len, float *out) {
  uint64_t bits;
  if (!gcol_detail_parse_real(s, len, gcol_detail_ieee_of(true), &bits)) return false;
  uint32_t const b32 = (uint32_t)bits;
  memcpy(out, &b32, sizeof b32);
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

/* floor(x * 10^k) of x = m * 2^e2 (0 <= k <= 27) as *q, with the rest compared to one half
 * (*rest: -1 below, 0 at, 1 above); false when that does not fit 128 bits. m * 5^k < 2^116. */
GCOL_HD_INLINE bool gcol_detail_scaled_floor(uint64_t m, int e2, int k, uint64_t *q, int *rest) {
  gcol_detail_conv_u128 const p = (gcol_detail_conv_u128)m * gcol_detail_pow5(k);
  int const s = -(e2 + k); /* x * 10^k = p * 2^-s */
  if (s <= 0) {
    if (-s > 60 || (p >> 60) != 0 || ((p << -s) >> 60) != 0) return false;
    *q = (uint64_t)(p << -s);
    *rest = -1; /* nothing below: an exact integer (compares as "below half") */
    return true;
  }
  if (s >= 128) return false;
  gcol_detail_conv_u128 const one = (gcol_detail_conv_u128)1 << s;
  gcol_detail_conv_u128 const r = p & (one - 1), half = one >> 1;
  if ((p >> s) >> 63 != 0) return false;
  *q = (uint64_t)(p >> s);
  *rest = r < half ? -1 : (r == half ? 0 : 1);
  return true;
}

/* gcol_detail_float_digits() without big integers, for positive finite x whose digits come
 * from x * 10^k with 0 <= k <= 27 (FLOAT64 %.17g: 1e-11 <= x < 1e17); false otherwise. */
GCOL_HD_INLINE bool gcol_detail_float_digits_fast(double x, int precision, int *digits,
                                                  int *exp10) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int const biased = (int)((bits >> 52) & 0x7FF);
  if (biased == 0) return false; /* subnormals: the slow path */
  uint64_t const m = (bits & ((1ull << 52) - 1)) | (1ull << 52);
  int const e2 = biased - 1075;
  int const t = e2 + 52;                  /* x in [2^t, 2^(t+1)) */
  int e = (int)(((int64_t)t * 78913) >> 18); /* floor(t * log10(2)): the exponent or one less */
  uint64_t pow_p = 1;
  for (int j = 0; j < precision; ++j) pow_p *= 10;
  uint64_t q = 0;
  int rest = 0;
  for (int attempt = 0; attempt < 2; ++attempt) {
    int const k = precision - 1 - e;
    if (k < 0 || k > 27 || !gcol_detail_scaled_floor(m, e2, k, &q, &rest)) return false;
    if (q < pow_p) break;
    ++e; /* x >= 10^(e+1): one digit too many */
  }
  if (q >= pow_p || q < pow_p / 10) return false; /* (a wrong first exponent: never seen) */
  if (rest > 0 || (rest == 0 && (q & 1))) ++q; /* half to even */
  if (q == pow_p) { /* 99..9 rounded to 100..0 */
    q /= 10;
    ++e;
  }
  for (int j = precision - 1; j >= 0; --j) {
    digits[j] = (int)(q % 10);
    q /= 10;
  }
  *exp10 = e;
  return true;
}

/* The first `precision` significant digits of positive finite x, rounded half to even
 * (digits[] as values 0..9), and the decimal exponent of the first: in 128 bits when the
 * scale allows (gcol_detail_float_digits_fast), else from all the digits of a big integer. */
GCOL_HD_INLINE int gcol_detail_float_digits(double x, int precision, int *digits) {
  int fast_exp10 = 0;
  if (gcol_detail_float_digits_fast(x, precision, digits, &fast_exp10)) return fast_exp10;
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

#endif /* GCOL_KERNELS_DETAIL_STRING_CONVERT_H */
