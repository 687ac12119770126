/*
 * Literal search in one string, host and device: what the kernels of find.cu run per row
 * (thread per string), unit-tested on the CPU against tests/strings/strings_reference.c.
 *
 * Bytes are compared as bytes. Character positions count characters as gcol/utf8.h
 * decodes them (an invalid byte is one character), and find/rfind only report matches
 * that begin at a character boundary. A target that is valid UTF-8 never begins with a
 * continuation byte, so every byte-wise match of it begins at a boundary and all the
 * operations agree.
 */
#ifndef GCOL_KERNELS_STRINGS_SEARCH_OPS_H
#define GCOL_KERNELS_STRINGS_SEARCH_OPS_H

#include <stdint.h>

#include "gcol/bits.h"
#include "gcol/config.h"
#include "gcol/indexalator.h"
#include "gcol/utf8.h"

GCOL_EXTERN_C_BEGIN

/* Bytes of the character at s[p] (p < n): 1 for ASCII and invalid bytes. */
GCOL_HD_INLINE int64_t gcol_detail_char_bytes(const char *s, int64_t p, int64_t n) {
  if ((unsigned char)s[p] < 0x80u) return 1;
  return gcol_utf8_decode(s + p, n - p).length;
}

/* True if t (tn bytes) is at s + p. */
GCOL_HD_INLINE bool gcol_detail_bytes_at(const char *s, int64_t p, const char *t, int64_t tn) {
  for (int64_t k = 0; k < tn; ++k) {
    if (s[p + k] != t[k]) return false;
  }
  return true;
}

/* The row whose bytes hold chars position p: the r in [0, rows) with offsets(r) <= p <
 * offsets(r + 1) (empty rows hold none), by binary search; p must lie in [offsets(0),
 * offsets(rows)). */
GCOL_HD_INLINE int64_t gcol_detail_row_of_byte(gcol_offsetalator offsets, int64_t rows, int64_t p) {
  int64_t lo = 0, hi = rows; /* first r with offsets(r) > p lies in (lo, hi] */
  while (hi - lo > 1) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (gcol_offsetalator_get(offsets, mid) <= p) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Byte position of character `index` (counting from byte p, character ci), or -1 when the
 * string has fewer characters; n when it has exactly `index`. */
GCOL_HD_INLINE int64_t gcol_detail_char_to_byte_from(const char *s, int64_t n, int64_t p,
                                                     int64_t ci, int64_t index) {
  while (ci < index && p < n) {
    p += gcol_detail_char_bytes(s, p, n);
    ++ci;
  }
  return ci < index ? -1 : p;
}

/*
 * Character position of the first (reverse: last) occurrence of t in s that lies within
 * characters [start, stop) (stop < 0: to the end), or -1: Python's str.find / str.rfind.
 * An empty target occurs at every character boundary of the range (find gives start,
 * rfind the range's end); start beyond the string's length gives -1. start >= 0.
 */
GCOL_HD_INLINE int64_t gcol_detail_string_find(const char *s, int64_t n, const char *t, int64_t tn,
                                               int64_t start, int64_t stop, bool reverse) {
  int64_t const first = gcol_detail_char_to_byte_from(s, n, 0, 0, start);
  if (first < 0) return -1;
  int64_t end = n;
  if (stop >= 0 && stop < start) return -1;
  if (stop >= 0) {
    int64_t const e = gcol_detail_char_to_byte_from(s, n, first, start, stop);
    if (e >= 0) end = e;
  }
  int64_t found = -1;
  int64_t p = first;
  int64_t ci = start;
  while (p + tn <= end) {
    if (gcol_detail_bytes_at(s, p, t, tn)) {
      found = ci;
      if (!reverse) break;
    }
    if (p >= n) break;
    p += gcol_detail_char_bytes(s, p, n);
    ++ci;
  }
  return found;
}

/* True if t occurs in s (byte-wise; "" occurs everywhere). */
GCOL_HD_INLINE bool gcol_detail_string_contains(const char *s, int64_t n, const char *t,
                                                int64_t tn) {
  for (int64_t p = 0; p + tn <= n; ++p) {
    if (gcol_detail_bytes_at(s, p, t, tn)) return true;
  }
  return false;
}

/* True if s begins (ends) with t. */
GCOL_HD_INLINE bool gcol_detail_string_starts_with(const char *s, int64_t n, const char *t,
                                                   int64_t tn) {
  return tn <= n && gcol_detail_bytes_at(s, 0, t, tn);
}

GCOL_HD_INLINE bool gcol_detail_string_ends_with(const char *s, int64_t n, const char *t,
                                                 int64_t tn) {
  return tn <= n && gcol_detail_bytes_at(s, n - tn, t, tn);
}

/* Non-overlapping occurrences of t in s, left to right (byte-wise), as Python's
 * str.count; "" occurs characters + 1 times. */
GCOL_HD_INLINE int64_t gcol_detail_string_count(const char *s, int64_t n, const char *t,
                                                int64_t tn) {
  if (tn == 0) return gcol_string_ref_char_count(gcol_string_ref_make(s, n)) + 1;
  int64_t count = 0;
  int64_t p = 0;
  while (p + tn <= n) {
    if (gcol_detail_bytes_at(s, p, t, tn)) {
      ++count;
      p += tn;
    } else {
      ++p;
    }
  }
  return count;
}

/* ---- find by windows of 32 positions (a warp per string) ---- */

/*
 * Whether byte position p (0 <= p <= n) begins a character as gcol/utf8.h decodes s (n, the
 * end, counts as one). Local: a position is inside a character only when it holds a
 * continuation byte and the nearest non-continuation byte before it, at most 3 back,
 * starts a valid sequence that reaches p (a non-continuation byte always begins one).
 */
GCOL_HD_INLINE bool gcol_detail_is_char_boundary(const char *s, int64_t n, int64_t p) {
  if (p >= n) return p == n;
  if (!gcol_utf8_is_continuation((unsigned char)s[p])) return true;
  for (int64_t k = 1; k <= 3 && p - k >= 0; ++k) {
    if (gcol_utf8_is_continuation((unsigned char)s[p - k])) continue;
    gcol_utf8_char const c = gcol_utf8_decode(s + p - k, n - (p - k));
    return !(c.valid && c.length > k);
  }
  return true;
}

/* Lane work of a window: whether position p, a boundary of character index ci, begins an
 * occurrence of t lying within characters [start, stop) (stop < 0: the end). */
GCOL_HD_INLINE bool gcol_detail_find_candidate(const char *s, int64_t n, const char *t, int64_t tn,
                                               int64_t p, int64_t ci, int64_t start, int64_t stop) {
  if (ci < start || p + tn > n || !gcol_detail_bytes_at(s, p, t, tn)) return false;
  if (stop < 0) return true;
  int64_t inside = 0; /* characters that begin in [p, p + tn) */
  for (int64_t q = p; q < p + tn; ++q) inside += gcol_detail_is_char_boundary(s, n, q);
  return ci + inside <= stop;
}

/* Character index of lane `lane` of a window, given the window's boundary bits. */
GCOL_HD_INLINE int64_t gcol_detail_window_char(uint32_t boundaries, int64_t before, int lane) {
  uint32_t const below = lane == 0 ? 0u : (boundaries & (0xFFFFFFFFu >> (32 - lane)));
  return before + gcol_popcount32(below);
}

/*
 * Folds one window (boundary bits, candidate bits) into the search: *result becomes the
 * character index of the first (reverse: last so far) candidate; *before counts the
 * characters that begin before the next window. Returns true when the search is over
 * (forward: found; any: no later window can hold a candidate).
 */
GCOL_HD_INLINE bool gcol_detail_window_fold(uint32_t boundaries, uint32_t candidates, bool reverse,
                                            int64_t stop, int64_t *before, int64_t *result) {
  if (candidates != 0u) {
    int lane = 0;
    if (reverse) {
      while ((candidates >> lane) > 1u) ++lane; /* the highest set bit */
    } else {
      while (((candidates >> lane) & 1u) == 0u) ++lane; /* the lowest set bit */
    }
    *result = gcol_detail_window_char(boundaries, *before, lane);
    if (!reverse) return true;
  }
  *before += gcol_popcount32(boundaries);
  return stop >= 0 && *before > stop;
}

/* gcol_detail_string_find computed window by window as the warp does (the lanes run one
 * after another): the host tests check it against the reference. */
GCOL_HD_INLINE int64_t gcol_detail_string_find_windows(const char *s, int64_t n, const char *t,
                                                       int64_t tn, int64_t start, int64_t stop,
                                                       bool reverse) {
  int64_t before = 0;
  int64_t result = -1;
  for (int64_t base = 0; base <= n; base += 32) {
    uint32_t boundaries = 0;
    for (int lane = 0; lane < 32; ++lane) {
      if (gcol_detail_is_char_boundary(s, n, base + lane)) boundaries |= 1u << lane;
    }
    uint32_t candidates = 0;
    for (int lane = 0; lane < 32; ++lane) {
      int64_t const ci = gcol_detail_window_char(boundaries, before, lane);
      if (((boundaries >> lane) & 1u) != 0u &&
          gcol_detail_find_candidate(s, n, t, tn, base + lane, ci, start, stop)) {
        candidates |= 1u << lane;
      }
    }
    if (gcol_detail_window_fold(boundaries, candidates, reverse, stop, &before, &result)) break;
  }
  return result;
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_SEARCH_OPS_H */
