#include "strings_reference.h"

#include <stdlib.h>
#include <string.h>

#include "gcol/utf8.h"
#include "host_tables.h"

int64_t ref_char_count(const char *s, int64_t n) {
  int64_t count = 0;
  for (int64_t p = 0; p < n; ++count) p += gcol_utf8_decode(s + p, n - p).length;
  return count;
}

/* bounds[k] = byte position of character k, k = 0..chars (bounds[chars] = n). */
static int64_t *char_bounds(const char *s, int64_t n, int64_t *chars) {
  int64_t *b = (int64_t *)malloc((size_t)(n + 2) * sizeof(int64_t));
  int64_t k = 0, p = 0;
  while (p < n) {
    b[k++] = p;
    p += gcol_utf8_decode(s + p, n - p).length;
  }
  b[k] = n;
  *chars = k;
  return b;
}

int64_t ref_find(const char *s, int64_t n, const char *t, int64_t tn, int64_t start,
                 int64_t stop, bool reverse) {
  int64_t chars = 0;
  int64_t *b = char_bounds(s, n, &chars);
  int64_t result = -1;
  int64_t const last = stop < 0 || stop > chars ? chars : stop;
  if (start <= chars) {
    for (int64_t k = start; k <= last; ++k) {
      if (b[k] + tn <= b[last] && memcmp(s + b[k], t, (size_t)tn) == 0) {
        result = k;
        if (!reverse) break;
      }
    }
  }
  free(b);
  return result;
}

bool ref_contains(const char *s, int64_t n, const char *t, int64_t tn) {
  for (int64_t p = 0; p + tn <= n; ++p) {
    if (memcmp(s + p, t, (size_t)tn) == 0) return true;
  }
  return false;
}

bool ref_starts_with(const char *s, int64_t n, const char *t, int64_t tn) {
  return tn <= n && memcmp(s, t, (size_t)tn) == 0;
}

bool ref_ends_with(const char *s, int64_t n, const char *t, int64_t tn) {
  return tn <= n && memcmp(s + n - tn, t, (size_t)tn) == 0;
}

int64_t ref_count(const char *s, int64_t n, const char *t, int64_t tn) {
  if (tn == 0) return ref_char_count(s, n) + 1;
  int64_t count = 0;
  for (int64_t p = 0; p + tn <= n;) {
    if (memcmp(s + p, t, (size_t)tn) == 0) {
      ++count;
      p += tn;
    } else {
      ++p;
    }
  }
  return count;
}

/* Token kinds of the reference's own pattern reading. */
enum { TOK_BYTE, TOK_ONE, TOK_ANY };

int ref_like(const char *s, int64_t n, const char *pattern, int64_t pn, const char *escape) {
  size_t const en = escape == NULL ? 0 : strlen(escape);
  int *kind = (int *)malloc((size_t)(pn + 1) * sizeof(int));
  unsigned char *byte = (unsigned char *)malloc((size_t)(pn + 1));
  int64_t m = 0;
  int result = -1;
  for (int64_t p = 0; p < pn;) {
    if (en > 0 && p + (int64_t)en <= pn && memcmp(pattern + p, escape, en) == 0) {
      int64_t q = p + (int64_t)en;
      if (q < pn && (pattern[q] == '%' || pattern[q] == '_')) {
        kind[m] = TOK_BYTE;
        byte[m++] = (unsigned char)pattern[q];
        p = q + 1;
      } else if (q + (int64_t)en <= pn && memcmp(pattern + q, escape, en) == 0) {
        for (size_t k = 0; k < en; ++k) {
          kind[m] = TOK_BYTE;
          byte[m++] = (unsigned char)escape[k];
        }
        p = q + (int64_t)en;
      } else {
        goto done; /* malformed */
      }
    } else if (pattern[p] == '%') {
      kind[m++] = TOK_ANY;
      ++p;
    } else if (pattern[p] == '_') {
      kind[m++] = TOK_ONE;
      ++p;
    } else {
      kind[m] = TOK_BYTE;
      byte[m++] = (unsigned char)pattern[p++];
    }
  }
  {
    /* reach[j]: the first i tokens can match s[0, j). */
    bool *reach = (bool *)calloc((size_t)(n + 1), 1);
    bool *next = (bool *)calloc((size_t)(n + 1), 1);
    reach[0] = true;
    for (int64_t i = 0; i < m; ++i) {
      memset(next, 0, (size_t)(n + 1));
      for (int64_t j = 0; j <= n; ++j) {
        if (kind[i] == TOK_ANY) {
          /* reach[j] or next[j - one character] */
          if (reach[j]) next[j] = true;
          if (next[j] && j < n) next[j + gcol_utf8_decode(s + j, n - j).length] = true;
        } else if (reach[j] && j < n) {
          if (kind[i] == TOK_ONE) {
            next[j + gcol_utf8_decode(s + j, n - j).length] = true;
          } else if ((unsigned char)s[j] == byte[i]) {
            next[j + 1] = true;
          }
        }
      }
      bool *swap = reach;
      reach = next;
      next = swap;
    }
    result = reach[n] ? 1 : 0;
    free(reach);
    free(next);
  }
done:
  free(kind);
  free(byte);
  return result;
}

int64_t ref_convert_case(const char *s, int64_t n, gcol_case_op op, char *out) {
  return gcol_detail_case_convert(gcol_test_unicode_tables(), op, s, n, out);
}

bool ref_is_class(const char *s, int64_t n, gcol_char_class cls) {
  return gcol_detail_string_is_class(gcol_test_unicode_tables(), s, n, cls);
}

/* ---------------------------------------------------------------- edits */

/* A growing result buffer. */
typedef struct ref_buf {
  char *data;
  int64_t size, cap;
} ref_buf;

static void buf_put(ref_buf *b, const char *bytes, int64_t len) {
  if (b->size + len + 1 > b->cap) {
    while (b->size + len + 1 > b->cap) b->cap = b->cap * 2 + 16;
    b->data = (char *)realloc(b->data, (size_t)b->cap);
  }
  if (len > 0) memcpy(b->data + b->size, bytes, (size_t)len);
  b->size += len;
}

static char *buf_done(ref_buf *b, int64_t *len) {
  buf_put(b, "", 0); /* never NULL */
  *len = b->size;
  return b->data;
}

char *ref_replace(const char *s, int64_t n, const char *const *targets,
                  const int64_t *target_sizes, int64_t count, const char *const *repls,
                  const int64_t *repl_sizes, int64_t num_repls, int64_t max_count, int64_t *len) {
  ref_buf out = {NULL, 0, 0};
  int64_t chars = 0;
  int64_t *b = char_bounds(s, n, &chars);
  bool *boundary = (bool *)calloc((size_t)(n + 1), 1);
  for (int64_t k = 0; k <= chars; ++k) boundary[b[k]] = true;
  int64_t done = 0;
  for (int64_t p = 0; p <= n;) {
    int64_t hit = -1;
    if (boundary[p] && (max_count < 0 || done < max_count)) {
      for (int64_t j = 0; j < count && hit < 0; ++j) {
        if (p + target_sizes[j] <= n && memcmp(s + p, targets[j], (size_t)target_sizes[j]) == 0) {
          hit = j;
        }
      }
    }
    if (hit >= 0) {
      int64_t const r = num_repls == 1 ? 0 : hit;
      buf_put(&out, repls[r], repl_sizes[r]);
      ++done;
      if (target_sizes[hit] > 0) {
        p += target_sizes[hit];
        continue;
      }
    }
    if (p < n) buf_put(&out, s + p, 1);
    ++p;
  }
  free(boundary);
  free(b);
  return buf_done(&out, len);
}

/* Python's slice of a sequence of `chars` items: the item indices taken, in order. */
char *ref_slice(const char *s, int64_t n, int64_t start, int64_t stop, int64_t step,
                int64_t *len) {
  ref_buf out = {NULL, 0, 0};
  int64_t chars = 0;
  int64_t *b = char_bounds(s, n, &chars);
  if (step == GCOL_SLICE_NONE) step = 1;
  if (step > 0) {
    /* None: 0 and chars; negative counts from the end; clamp to [0, chars] */
    int64_t lo = start == GCOL_SLICE_NONE ? 0 : start;
    int64_t hi = stop == GCOL_SLICE_NONE ? chars : stop;
    if (lo < 0) lo = lo + chars < 0 ? 0 : lo + chars;
    if (hi < 0) hi = hi + chars < 0 ? 0 : hi + chars;
    if (lo > chars) lo = chars;
    if (hi > chars) hi = chars;
    for (int64_t i = lo; i < hi; i = step > INT64_MAX - i ? hi : i + step) {
      buf_put(&out, s + b[i], b[i + 1] - b[i]);
    }
  } else {
    /* None: the last item and "before the first" (-1); clamp to [-1, chars - 1] */
    int64_t hi = start == GCOL_SLICE_NONE ? chars - 1 : start;
    int64_t lo = stop == GCOL_SLICE_NONE ? -1 : stop;
    if (hi < 0) hi = hi + chars < 0 ? -1 : hi + chars;
    if (lo < 0 && stop != GCOL_SLICE_NONE) lo = lo + chars < 0 ? -1 : lo + chars;
    if (hi > chars - 1) hi = chars - 1;
    if (lo > chars - 1) lo = chars - 1;
    for (int64_t i = hi; i > lo; i += step) {
      buf_put(&out, s + b[i], b[i + 1] - b[i]); /* i >= 0, step >= -INT64_MAX: no wrap */
    }
  }
  free(b);
  return buf_done(&out, len);
}

/* Whether character k (bytes [b[k], b[k + 1])) is stripped. */
static bool ref_stripped(const char *s, const int64_t *b, int64_t k, const char *set,
                         int64_t set_size) {
  int64_t const len = b[k + 1] - b[k];
  if (set == NULL) return ref_is_class(s + b[k], len, GCOL_CHAR_SPACE);
  int64_t set_chars = 0;
  int64_t *sb = char_bounds(set, set_size, &set_chars);
  bool found = false;
  for (int64_t j = 0; j < set_chars && !found; ++j) {
    found = sb[j + 1] - sb[j] == len && memcmp(set + sb[j], s + b[k], (size_t)len) == 0;
  }
  free(sb);
  return found;
}

char *ref_strip(const char *s, int64_t n, gcol_strings_side side, const char *set,
                int64_t set_size, int64_t *len) {
  ref_buf out = {NULL, 0, 0};
  int64_t chars = 0;
  int64_t *b = char_bounds(s, n, &chars);
  int64_t first = 0, last = chars; /* characters [first, last) are kept */
  if (side != GCOL_SIDE_RIGHT) {
    while (first < last && ref_stripped(s, b, first, set, set_size)) ++first;
  }
  if (side != GCOL_SIDE_LEFT) {
    while (last > first && ref_stripped(s, b, last - 1, set, set_size)) --last;
  }
  buf_put(&out, s + b[first], b[last] - b[first]);
  free(b);
  return buf_done(&out, len);
}

char *ref_pad(const char *s, int64_t n, int64_t width, gcol_strings_side side, uint32_t fill,
              int64_t *len) {
  ref_buf out = {NULL, 0, 0};
  char f[4];
  int64_t const fl = gcol_utf8_encode(fill, f);
  int64_t const chars = ref_char_count(s, n);
  int64_t left = 0, right = 0;
  if (width > chars) {
    int64_t const marg = width - chars;
    if (side == GCOL_SIDE_LEFT) left = marg;        /* str.rjust */
    if (side == GCOL_SIDE_RIGHT) right = marg;      /* str.ljust */
    if (side == GCOL_SIDE_BOTH) {                   /* CPython's str.center */
      left = marg / 2 + (marg & width & 1);
      right = marg - left;
    }
  }
  for (int64_t k = 0; k < left; ++k) buf_put(&out, f, fl);
  buf_put(&out, s, n);
  for (int64_t k = 0; k < right; ++k) buf_put(&out, f, fl);
  return buf_done(&out, len);
}

/* CPython's str.zfill: '0' * fill + s, then a sign now at position fill moves to the front. */
char *ref_zfill(const char *s, int64_t n, int64_t width, int64_t *len) {
  ref_buf out = {NULL, 0, 0};
  int64_t const fill = width - ref_char_count(s, n);
  if (fill <= 0) {
    buf_put(&out, s, n);
    return buf_done(&out, len);
  }
  for (int64_t k = 0; k < fill; ++k) buf_put(&out, "0", 1);
  buf_put(&out, s, n);
  if (n > 0 && (out.data[fill] == '+' || out.data[fill] == '-')) {
    out.data[0] = out.data[fill];
    out.data[fill] = '0';
  }
  return buf_done(&out, len);
}

char *ref_repeat(const char *s, int64_t n, int64_t count, int64_t *len) {
  ref_buf out = {NULL, 0, 0};
  for (int64_t k = 0; k < count; ++k) buf_put(&out, s, n);
  return buf_done(&out, len);
}

char *ref_reverse(const char *s, int64_t n, int64_t *len) {
  ref_buf out = {NULL, 0, 0};
  int64_t chars = 0;
  int64_t *b = char_bounds(s, n, &chars);
  for (int64_t k = chars - 1; k >= 0; --k) buf_put(&out, s + b[k], b[k + 1] - b[k]);
  free(b);
  return buf_done(&out, len);
}

/* ---- split and join ---- */

typedef struct ref_ranges {
  int64_t *data;
  int64_t count, cap;
} ref_ranges;

static void ranges_add(ref_ranges *r, int64_t begin, int64_t end) {
  if (2 * r->count + 2 > r->cap) {
    r->cap = r->cap * 2 + 16;
    r->data = (int64_t *)realloc(r->data, (size_t)r->cap * sizeof(int64_t));
  }
  r->data[2 * r->count] = begin;
  r->data[2 * r->count + 1] = end;
  ++r->count;
}

/* Whether character k is whitespace (the Unicode table's SPACE class). */
static bool ref_space(const char *s, const int64_t *b, int64_t k) {
  return ref_is_class(s + b[k], b[k + 1] - b[k], GCOL_CHAR_SPACE);
}

/* CPython's split_whitespace / rsplit_whitespace over characters [0, chars). */
static void ref_split_ws(const char *s, const int64_t *b, int64_t chars, int64_t max_splits,
                         bool reverse, ref_ranges *r) {
  int64_t maxcount = max_splits < 0 ? INT64_MAX : max_splits;
  if (!reverse) {
    int64_t i = 0, j = 0;
    while (maxcount-- > 0) {
      while (i < chars && ref_space(s, b, i)) i++;
      if (i == chars) break;
      j = i;
      i++;
      while (i < chars && !ref_space(s, b, i)) i++;
      ranges_add(r, b[j], b[i]);
    }
    if (i < chars) {
      while (i < chars && ref_space(s, b, i)) i++;
      if (i != chars) ranges_add(r, b[i], b[chars]);
    }
    return;
  }
  int64_t i = chars - 1, j = chars - 1;
  while (maxcount-- > 0) {
    while (i >= 0 && ref_space(s, b, i)) i--;
    if (i < 0) break;
    j = i;
    i--;
    while (i >= 0 && !ref_space(s, b, i)) i--;
    ranges_add(r, b[i + 1], b[j + 1]);
  }
  if (i >= 0) {
    while (i >= 0 && ref_space(s, b, i)) i--;
    if (i >= 0) ranges_add(r, b[0], b[i + 1]);
  }
}

/* Byte position of the first (reverse: last) match of d within s[from, to) that begins at
 * a boundary, or -1. */
static int64_t ref_find_in(const char *s, const bool *boundary, int64_t from, int64_t to,
                           const char *d, int64_t dn, bool reverse) {
  int64_t found = -1;
  for (int64_t p = from; p + dn <= to; ++p) {
    if (boundary[p] && memcmp(s + p, d, (size_t)dn) == 0) {
      found = p;
      if (!reverse) break;
    }
  }
  return found;
}

/* CPython's split / rsplit by a separator (bytes). */
static void ref_split_delim(const char *s, int64_t n, const bool *boundary, const char *d,
                            int64_t dn, int64_t max_splits, bool reverse, ref_ranges *r) {
  int64_t maxcount = max_splits < 0 ? INT64_MAX : max_splits;
  if (!reverse) {
    int64_t i = 0;
    while (maxcount-- > 0) {
      int64_t const pos = ref_find_in(s, boundary, i, n, d, dn, false);
      if (pos < 0) break;
      ranges_add(r, i, pos);
      i = pos + dn;
    }
    ranges_add(r, i, n);
    return;
  }
  int64_t j = n;
  while (maxcount-- > 0) {
    int64_t const pos = ref_find_in(s, boundary, 0, j, d, dn, true);
    if (pos < 0) break;
    ranges_add(r, pos + dn, j);
    j = pos;
  }
  ranges_add(r, 0, j);
}

int64_t ref_split(const char *s, int64_t n, const char *delim, int64_t dn, int64_t max_splits,
                  bool reverse, int64_t **ranges) {
  ref_ranges r = {NULL, 0, 0};
  int64_t chars = 0;
  int64_t *b = char_bounds(s, n, &chars);
  bool *boundary = (bool *)calloc((size_t)(n + 1), 1);
  for (int64_t k = 0; k <= chars; ++k) boundary[b[k]] = true;
  if (dn == 0) {
    ref_split_ws(s, b, chars, max_splits, reverse, &r);
  } else {
    ref_split_delim(s, n, boundary, delim, dn, max_splits, reverse, &r);
  }
  if (reverse) { /* CPython reverses rsplit's list at the end */
    for (int64_t k = 0; k < r.count / 2; ++k) {
      int64_t const o = r.count - 1 - k;
      int64_t const b0 = r.data[2 * k], e0 = r.data[2 * k + 1];
      r.data[2 * k] = r.data[2 * o];
      r.data[2 * k + 1] = r.data[2 * o + 1];
      r.data[2 * o] = b0;
      r.data[2 * o + 1] = e0;
    }
  }
  free(boundary);
  free(b);
  *ranges = r.data != NULL ? r.data : (int64_t *)malloc(sizeof(int64_t));
  return r.count;
}

char *ref_join(const char *const *items, const int64_t *sizes, int64_t count, const char *sep,
               int64_t sep_size, const char *narep, int64_t narep_size, bool skip_nulls,
               int64_t *len) {
  ref_buf out = {NULL, 0, 0};
  int64_t joined = 0;
  for (int64_t k = 0; k < count; ++k) {
    const char *item = items[k];
    int64_t size = sizes[k];
    if (item == NULL && narep != NULL) {
      item = narep;
      size = narep_size;
    } else if (item == NULL && skip_nulls) {
      continue;
    } else if (item == NULL) {
      free(out.data);
      *len = 0;
      return NULL;
    }
    if (joined++ > 0) buf_put(&out, sep, sep_size);
    buf_put(&out, item, size);
  }
  return buf_done(&out, len);
}

int64_t ref_random_string(gcol_test_rng *rng, const char *const *pieces, int64_t num_pieces,
                          int64_t max_pieces, char *out) {
  int64_t n = 0;
  int64_t const count = gcol_test_rng_range(rng, 0, max_pieces);
  for (int64_t k = 0; k < count; ++k) {
    const char *p = pieces[gcol_test_rng_range(rng, 0, num_pieces - 1)];
    size_t const len = strlen(p);
    memcpy(out + n, p, len);
    n += (int64_t)len;
  }
  return n;
}
