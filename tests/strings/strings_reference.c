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
