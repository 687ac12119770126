/*
 * Edits of one string, host and device: what the kernels of edit.cu run per row (a thread
 * per string), unit-tested on the CPU against tests/strings/strings_reference.c.
 *
 * Each function writes its result through a sink: with `out` NULL it only counts the
 * bytes (the count pass), otherwise it also writes them at `out` (the write pass, whose
 * sizes the count pass has checked). Counts saturate at INT64_MAX instead of wrapping, so
 * the count pass can refuse an output too large to address.
 *
 * Characters are decoded as gcol/utf8.h does. Walking backwards uses the local boundary
 * rule of search_ops.h (gcol_detail_is_char_boundary), which agrees with decoding from the
 * start, invalid bytes included.
 */
#ifndef GCOL_KERNELS_STRINGS_EDIT_OPS_H
#define GCOL_KERNELS_STRINGS_EDIT_OPS_H

#include <stdint.h>

#include "gcol/config.h"
#include "gcol/string_view.h"
#include "gcol/strings/edit.h"
#include "gcol/utf8.h"
#include "strings/search_ops.h"

GCOL_EXTERN_C_BEGIN

/* ---- the sink ---- */

typedef struct gcol_detail_sink {
  char *out;    /* NULL: count only */
  int64_t size; /* bytes so far (saturated at INT64_MAX) */
} gcol_detail_sink;

GCOL_HD_INLINE gcol_detail_sink gcol_detail_sink_make(char *out) {
  gcol_detail_sink k;
  k.out = out;
  k.size = 0;
  return k;
}

GCOL_HD_INLINE int64_t gcol_detail_sat_add(int64_t a, int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* a * b for a, b >= 0, saturated. */
GCOL_HD_INLINE int64_t gcol_detail_sat_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > INT64_MAX / b ? INT64_MAX : a * b;
}

GCOL_HD_INLINE void gcol_detail_sink_put(gcol_detail_sink *k, const char *bytes, int64_t len) {
  if (k->out != NULL) {
    for (int64_t i = 0; i < len; ++i) k->out[k->size + i] = bytes[i];
  }
  k->size = gcol_detail_sat_add(k->size, len);
}

/* `count` copies of `len` bytes (count may be large when only counting). */
GCOL_HD_INLINE void gcol_detail_sink_repeat(gcol_detail_sink *k, const char *bytes, int64_t len,
                                            int64_t count) {
  if (count <= 0) return;
  if (k->out == NULL) {
    k->size = gcol_detail_sat_add(k->size, gcol_detail_sat_mul(len, count));
    return;
  }
  for (int64_t c = 0; c < count; ++c) gcol_detail_sink_put(k, bytes, len);
}

/* Byte position where the character that ends at p (0 < p <= n) begins. */
GCOL_HD_INLINE int64_t gcol_detail_char_before(const char *s, int64_t n, int64_t p) {
  int64_t q = p - 1;
  while (q > 0 && !gcol_detail_is_char_boundary(s, n, q)) --q;
  return q;
}

/* ---- replace ---- */

/*
 * Replaces, left to right and non-overlapping, at most max_count (< 0: every) occurrences
 * of the targets: at each character boundary the first target that begins there wins (an
 * empty one matches at every boundary, the end included, and the character after it is
 * copied); where none does, the byte is copied. repls has targets.size rows, or 1 for all.
 */
GCOL_HD_INLINE void gcol_detail_replace_row(const char *s, int64_t n, gcol_strings_view targets,
                                            gcol_strings_view repls, int64_t max_count,
                                            gcol_detail_sink *k) {
  int64_t done = 0;
  int64_t p = 0;
  for (;;) {
    if ((max_count < 0 || done < max_count) && gcol_detail_is_char_boundary(s, n, p)) {
      int64_t hit = -1;
      gcol_string_ref t = gcol_string_ref_make(NULL, 0);
      for (int64_t j = 0; j < targets.size && hit < 0; ++j) {
        t = gcol_strings_view_get(targets, j);
        if (p + t.size <= n && gcol_detail_bytes_at(s, p, t.data, t.size)) hit = j;
      }
      if (hit >= 0) {
        gcol_string_ref const r = gcol_strings_view_get(repls, repls.size == 1 ? 0 : hit);
        gcol_detail_sink_put(k, r.data, r.size);
        ++done;
        if (t.size > 0) {
          p += t.size;
          continue;
        }
      }
    }
    if (p >= n) break;
    gcol_detail_sink_put(k, s + p, 1);
    ++p;
  }
}

/* ---- slice ---- */

/* A slice bound: counted from the end when negative, then clamped to [lo, hi] (v is never
 * INT64_MIN here, so adding the length cannot wrap). */
GCOL_HD_INLINE int64_t gcol_detail_slice_bound(int64_t v, int64_t length, int64_t lo, int64_t hi) {
  if (v < 0) v += length;
  return v < lo ? lo : (v > hi ? hi : v);
}

/* Python's slice.indices() for a row of `length` characters: the first character and the
 * number of characters taken (start/stop GCOL_SLICE_NONE: the defaults; step != 0). */
GCOL_HD_INLINE int64_t gcol_detail_slice_indices(int64_t length, int64_t start, int64_t stop,
                                                 int64_t step, int64_t *first) {
  if (start == GCOL_SLICE_NONE) start = step < 0 ? INT64_MAX : 0;
  if (stop == GCOL_SLICE_NONE) stop = step < 0 ? -INT64_MAX : INT64_MAX;
  /* a backward slice may end before the first character (-1) */
  int64_t const lo = step < 0 ? -1 : 0;
  int64_t const hi = step < 0 ? length - 1 : length;
  start = gcol_detail_slice_bound(start, length, lo, hi);
  stop = gcol_detail_slice_bound(stop, length, lo, hi);
  *first = start;
  if (step < 0) return stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  return start < stop ? (stop - start - 1) / step + 1 : 0;
}

/* The characters s[start:stop:step] (step != 0 and not GCOL_SLICE_NONE). */
GCOL_HD_INLINE void gcol_detail_slice_row(const char *s, int64_t n, int64_t start, int64_t stop,
                                          int64_t step, gcol_detail_sink *k) {
  int64_t const length = gcol_string_ref_char_count(gcol_string_ref_make(s, n));
  int64_t first = 0;
  int64_t const count = gcol_detail_slice_indices(length, start, stop, step, &first);
  if (count == 0) return;
  int64_t p = gcol_detail_char_to_byte_from(s, n, 0, 0, first);
  for (int64_t c = 0; c < count; ++c) {
    int64_t const len = gcol_detail_char_bytes(s, p, n);
    gcol_detail_sink_put(k, s + p, len);
    if (c + 1 == count) break;
    if (step > 0) {
      p = gcol_detail_char_to_byte_from(s, n, p, 0, step);
    } else {
      for (int64_t m = 0; m < -step; ++m) p = gcol_detail_char_before(s, n, p);
    }
  }
}

/* ---- strip ---- */

/* Python's str.isspace() for one code point: category Zs, or bidirectional class WS, B or
 * S. A short fixed list, so that this file needs no Unicode table (the host test checks it
 * against the SPACE flag of the generated table for every code point). */
GCOL_HD_INLINE bool gcol_detail_is_space(uint32_t cp) {
  if (cp < 0x80u) return (cp >= 0x09u && cp <= 0x0Du) || (cp >= 0x1Cu && cp <= 0x20u);
  return cp == 0x85u || cp == 0xA0u || cp == 0x1680u || (cp >= 0x2000u && cp <= 0x200Au) ||
         cp == 0x2028u || cp == 0x2029u || cp == 0x202Fu || cp == 0x205Fu || cp == 0x3000u;
}

/* Whether the character s[p, p + len) is stripped: whitespace (set NULL) or one of the
 * characters of set (compared by bytes, so an invalid byte matches the same byte). */
GCOL_HD_INLINE bool gcol_detail_strip_char(const char *s, int64_t p, int64_t len, const char *set,
                                           int64_t set_size) {
  if (set == NULL) {
    gcol_utf8_char const c = gcol_utf8_decode(s + p, len);
    return c.valid && gcol_detail_is_space(c.code_point);
  }
  for (int64_t q = 0; q < set_size;) {
    int64_t const m = gcol_utf8_decode(set + q, set_size - q).length;
    if (m == len && gcol_detail_bytes_at(s, p, set + q, m)) return true;
    q += m;
  }
  return false;
}

/* s without its leading (side LEFT), trailing (RIGHT) or both runs of stripped characters. */
GCOL_HD_INLINE void gcol_detail_strip_row(const char *s, int64_t n, int side, const char *set,
                                          int64_t set_size, gcol_detail_sink *k) {
  int64_t begin = 0;
  int64_t end = n;
  if (side != GCOL_SIDE_RIGHT) {
    while (begin < end) {
      int64_t const len = gcol_detail_char_bytes(s, begin, n);
      if (!gcol_detail_strip_char(s, begin, len, set, set_size)) break;
      begin += len;
    }
  }
  if (side != GCOL_SIDE_LEFT) {
    while (end > begin) {
      int64_t const p = gcol_detail_char_before(s, n, end);
      if (!gcol_detail_strip_char(s, p, end - p, set, set_size)) break;
      end = p;
    }
  }
  gcol_detail_sink_put(k, s + begin, end - begin);
}

/* ---- pad, zfill ---- */

/* s padded to width characters with fill (fill_len bytes) on side LEFT, RIGHT or BOTH
 * (str.center's split: the left gets half, one more when padding and width are odd). */
GCOL_HD_INLINE void gcol_detail_pad_row(const char *s, int64_t n, int64_t width, int side,
                                        const char *fill, int64_t fill_len, gcol_detail_sink *k) {
  int64_t const length = gcol_string_ref_char_count(gcol_string_ref_make(s, n));
  int64_t const pad = width > length ? width - length : 0;
  int64_t left = pad;
  if (side == GCOL_SIDE_RIGHT) left = 0;
  if (side == GCOL_SIDE_BOTH) left = pad / 2 + (pad & width & 1);
  gcol_detail_sink_repeat(k, fill, fill_len, left);
  gcol_detail_sink_put(k, s, n);
  gcol_detail_sink_repeat(k, fill, fill_len, pad - left);
}

/* s padded to width characters with '0' in front, after a leading '+' or '-'. */
GCOL_HD_INLINE void gcol_detail_zfill_row(const char *s, int64_t n, int64_t width,
                                          gcol_detail_sink *k) {
  int64_t const length = gcol_string_ref_char_count(gcol_string_ref_make(s, n));
  int64_t const pad = width > length ? width - length : 0;
  int64_t const sign = pad > 0 && n > 0 && (s[0] == '+' || s[0] == '-') ? 1 : 0;
  gcol_detail_sink_put(k, s, sign);
  gcol_detail_sink_repeat(k, "0", 1, pad);
  gcol_detail_sink_put(k, s + sign, n - sign);
}

/* ---- repeat, reverse ---- */

GCOL_HD_INLINE void gcol_detail_repeat_row(const char *s, int64_t n, int64_t count,
                                           gcol_detail_sink *k) {
  gcol_detail_sink_repeat(k, s, n, count);
}

/* s's characters last to first (each character's bytes kept in order). */
GCOL_HD_INLINE void gcol_detail_reverse_row(const char *s, int64_t n, gcol_detail_sink *k) {
  for (int64_t end = n; end > 0;) {
    int64_t const p = gcol_detail_char_before(s, n, end);
    gcol_detail_sink_put(k, s + p, end - p);
    end = p;
  }
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_EDIT_OPS_H */
