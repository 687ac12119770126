/*
 * Splitting one string, host and device: what the kernels of split.cu run per row (a thread
 * per string), unit-tested on the CPU against tests/strings/strings_reference.c.
 *
 * gcol_detail_split_next() hands out a row's pieces one at a time (left to right for
 * split, right to left for rsplit), so that the count, size and write passes enumerate the
 * same pieces without storing them. The whitespace forms follow CPython's
 * split_whitespace / rsplit_whitespace (a run of whitespace is one separator; the last
 * piece after max_splits keeps its inner and far-end whitespace).
 */
#ifndef GCOL_KERNELS_STRINGS_SPLIT_OPS_H
#define GCOL_KERNELS_STRINGS_SPLIT_OPS_H

#include <stdint.h>

#include "gcol/config.h"
#include "gcol/utf8.h"
#include "strings/edit_ops.h"
#include "strings/search_ops.h"

GCOL_EXTERN_C_BEGIN

/* What a split reads: the delimiter (dn == 0: whitespace), the direction, max_splits. */
typedef struct gcol_detail_split_spec {
  const char *delim;
  int64_t dn;
  int64_t max_splits; /* < 0: all */
  bool reverse;
} gcol_detail_split_spec;

/* Where the enumeration of one row stands. */
typedef struct gcol_detail_split_state {
  int64_t pos;    /* forward: where the next piece may begin; reverse: where it may end */
  int64_t splits; /* pieces cut so far */
  bool done;
} gcol_detail_split_state;

GCOL_HD_INLINE gcol_detail_split_state gcol_detail_split_begin(gcol_detail_split_spec sp,
                                                               int64_t n) {
  gcol_detail_split_state st;
  st.pos = sp.reverse ? n : 0;
  st.splits = 0;
  st.done = false;
  return st;
}

GCOL_HD_INLINE bool gcol_detail_split_may_cut(gcol_detail_split_spec sp,
                                              const gcol_detail_split_state *st) {
  return sp.max_splits < 0 || st->splits < sp.max_splits;
}

/* Whether the character s[p, p + len) is whitespace (an invalid byte never is). */
GCOL_HD_INLINE bool gcol_detail_space_at(const char *s, int64_t p, int64_t len) {
  gcol_utf8_char const c = gcol_utf8_decode(s + p, len);
  return c.valid && gcol_detail_is_space(c.code_point);
}

/* Forward from p: the first position at or after p whose character is (want_space) or is
 * not whitespace, or n. */
GCOL_HD_INLINE int64_t gcol_detail_skip_fwd(const char *s, int64_t n, int64_t p, bool want_space) {
  while (p < n) {
    int64_t const len = gcol_detail_char_bytes(s, p, n);
    if (gcol_detail_space_at(s, p, len) == want_space) break;
    p += len;
  }
  return p;
}

/* Backward from end: the end of the last character before `end` that is (want_space) or is
 * not whitespace, or 0. */
GCOL_HD_INLINE int64_t gcol_detail_skip_back(const char *s, int64_t n, int64_t end,
                                             bool want_space) {
  while (end > 0) {
    int64_t const p = gcol_detail_char_before(s, n, end);
    if (gcol_detail_space_at(s, p, end - p) == want_space) break;
    end = p;
  }
  return end;
}

/* The next piece by whitespace: s[*b, *e). */
GCOL_HD_INLINE bool gcol_detail_split_ws(const char *s, int64_t n, gcol_detail_split_spec sp,
                                         gcol_detail_split_state *st, int64_t *b, int64_t *e) {
  bool const cut = gcol_detail_split_may_cut(sp, st);
  if (!sp.reverse) {
    *b = gcol_detail_skip_fwd(s, n, st->pos, false);
    if (*b == n) return false;
    *e = cut ? gcol_detail_skip_fwd(s, n, *b, true) : n;
    st->pos = *e;
  } else {
    *e = gcol_detail_skip_back(s, n, st->pos, false);
    if (*e == 0) return false;
    *b = cut ? gcol_detail_skip_back(s, n, *e, true) : 0;
    st->pos = *b;
  }
  if (cut) ++st->splits;
  st->done = !cut;
  return true;
}

/* The first (reverse: last) occurrence of the delimiter at a character boundary within
 * s[from, to), or -1. */
GCOL_HD_INLINE int64_t gcol_detail_split_find(const char *s, int64_t n, gcol_detail_split_spec sp,
                                              int64_t from, int64_t to) {
  if (to - from < sp.dn) return -1;
  int64_t const last = to - sp.dn;
  for (int64_t q = 0; q <= last - from; ++q) {
    int64_t const p = sp.reverse ? last - q : from + q;
    if (gcol_detail_bytes_at(s, p, sp.delim, sp.dn) && gcol_detail_is_char_boundary(s, n, p)) {
      return p;
    }
  }
  return -1;
}

/* The next piece at the delimiter: s[*b, *e). */
GCOL_HD_INLINE bool gcol_detail_split_delim(const char *s, int64_t n, gcol_detail_split_spec sp,
                                            gcol_detail_split_state *st, int64_t *b, int64_t *e) {
  int64_t hit = -1;
  if (gcol_detail_split_may_cut(sp, st)) {
    hit = sp.reverse ? gcol_detail_split_find(s, n, sp, 0, st->pos)
                     : gcol_detail_split_find(s, n, sp, st->pos, n);
  }
  if (!sp.reverse) {
    *b = st->pos;
    *e = hit < 0 ? n : hit;
    st->pos = hit + sp.dn;
  } else {
    *e = st->pos;
    *b = hit < 0 ? 0 : hit + sp.dn;
    st->pos = hit;
  }
  if (hit >= 0) ++st->splits;
  st->done = hit < 0;
  return true;
}

/* The row's next piece s[*b, *e) in the spec's direction; false when there is none. */
GCOL_HD_INLINE bool gcol_detail_split_next(const char *s, int64_t n, gcol_detail_split_spec sp,
                                           gcol_detail_split_state *st, int64_t *b, int64_t *e) {
  if (st->done) return false;
  if (sp.dn == 0) {
    bool const got = gcol_detail_split_ws(s, n, sp, st, b, e);
    if (!got) st->done = true;
    return got;
  }
  return gcol_detail_split_delim(s, n, sp, st, b, e);
}

/* The number of pieces of s. */
GCOL_HD_INLINE int64_t gcol_detail_split_count(const char *s, int64_t n,
                                               gcol_detail_split_spec sp) {
  gcol_detail_split_state st = gcol_detail_split_begin(sp, n);
  int64_t b = 0, e = 0, count = 0;
  while (gcol_detail_split_next(s, n, sp, &st, &b, &e)) ++count;
  return count;
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_SPLIT_OPS_H */
