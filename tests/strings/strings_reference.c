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
