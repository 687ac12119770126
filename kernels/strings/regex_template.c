/*
 * Parses a replacement template of gcol_strings_regex_replace on the host (regex_ops.h), as
 * Python's re.sub parses its template (re._parser.parse_template): literal runs and group
 * references, escapes resolved once here so that the kernels only copy bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "internal/error.h"
#include "strings/regex_ops.h"

typedef struct tparser {
  const char *p;
  int64_t n;
  const gcol_detail_regex_host *re;
  int32_t groups;
  const char *fn;
  gcol_detail_regex_piece *pieces;
  int32_t num_pieces;
  char *bytes;
  int32_t num_bytes;
  bool open; /* the last piece is a literal still growing */
} tparser;

static gcol_status bad(const tparser *tp, int64_t pos, const char *what) {
  return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, tp->fn, "%s at byte %lld of the template",
                           what, (long long)pos);
}

static void put_bytes(tparser *tp, const char *b, int32_t len) {
  if (!tp->open) {
    gcol_detail_regex_piece *pc = &tp->pieces[tp->num_pieces++];
    pc->group = -1;
    pc->offset = tp->num_bytes;
    pc->size = 0;
    tp->open = true;
  }
  memcpy(tp->bytes + tp->num_bytes, b, (size_t)len);
  tp->num_bytes += len;
  tp->pieces[tp->num_pieces - 1].size += len;
}

/* A code point below 256 (an octal escape) as UTF-8. */
static void put_latin1(tparser *tp, unsigned cp) {
  char b[2];
  if (cp < 0x80) {
    b[0] = (char)cp;
    put_bytes(tp, b, 1);
  } else {
    b[0] = (char)(0xc0 | (cp >> 6));
    b[1] = (char)(0x80 | (cp & 0x3f));
    put_bytes(tp, b, 2);
  }
}

static gcol_status put_group(tparser *tp, int64_t pos, int32_t g) {
  if (g > tp->groups) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, tp->fn,
                             "invalid group reference %d at byte %lld of the template (the "
                             "pattern has %d groups)",
                             (int)g, (long long)pos, (int)tp->groups);
  }
  gcol_detail_regex_piece *pc = &tp->pieces[tp->num_pieces++];
  pc->group = g;
  pc->offset = 0;
  pc->size = 0;
  tp->open = false;
  return GCOL_OK;
}

/* \g<name>: the group of that name; Python's errors for a name that is not an identifier
 * (re.error) or no group's (IndexError). */
static gcol_status named_group(const tparser *tp, int64_t at, const char *name, int64_t len,
                               int32_t *g) {
  if (!gcol_detail_regex_is_group_name(name, len)) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, tp->fn,
                             "bad character in group name '%.*s' at byte %lld of the template",
                             (int)len, name, (long long)at);
  }
  *g = gcol_detail_regex_group_index(tp->re, name, len);
  if (*g == 0) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, tp->fn,
                             "unknown group name '%.*s' at byte %lld of the template", (int)len,
                             name, (long long)at);
  }
  return GCOL_OK;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_oct(char c) { return c >= '0' && c <= '7'; }
static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static gcol_status parse(tparser *tp) {
  gcol_status status = GCOL_OK;
  const char *p = tp->p;
  int64_t const n = tp->n;
  for (int64_t i = 0; i < n;) {
    if (p[i] != '\\') {
      put_bytes(tp, p + i, 1);
      ++i;
      continue;
    }
    int64_t const at = i;
    if (i + 1 >= n) return bad(tp, at, "bad escape (end of template)");
    char const c = p[i + 1];
    i += 2;
    if (c == 'g') {
      if (i >= n || p[i] != '<') return bad(tp, at, "missing < after \\g");
      int64_t const name = ++i;
      while (i < n && p[i] != '>') ++i;
      if (i >= n) return bad(tp, at, "missing >, unterminated name");
      if (i == name) return bad(tp, at, "missing group name");
      bool digits = true;
      for (int64_t j = name; j < i; ++j) digits = digits && is_digit(p[j]);
      int64_t g = 0;
      if (!digits) {
        int32_t named = 0;
        GCOL_DETAIL_TRY(named_group(tp, at, p + name, i - name, &named));
        g = named;
      }
      for (int64_t j = name; digits && j < i; ++j) {
        g = 10 * g + (p[j] - '0');
        if (g > 100000000) g = 100000000;
      }
      ++i; /* '>' */
      GCOL_DETAIL_TRY(put_group(tp, at, (int32_t)g));
    } else if (c == '0') {
      unsigned v = 0;
      for (int k = 0; k < 2 && i < n && is_oct(p[i]); ++k) v = 8 * v + (unsigned)(p[i++] - '0');
      put_latin1(tp, v);
    } else if (is_digit(c)) {
      int32_t g = c - '0';
      if (i < n && is_digit(p[i])) {
        if (is_oct(c) && is_oct(p[i]) && i + 1 < n && is_oct(p[i + 1])) {
          unsigned const v =
              64u * (unsigned)(c - '0') + 8u * (unsigned)(p[i] - '0') + (unsigned)(p[i + 1] - '0');
          if (v > 0377) return bad(tp, at, "octal escape outside 0o377");
          put_latin1(tp, v);
          i += 2;
          continue;
        }
        g = 10 * g + (p[i++] - '0');
      }
      GCOL_DETAIL_TRY(put_group(tp, at, g));
    } else {
      const char *esc = NULL;
      switch (c) {
        case 'a':
          esc = "\a";
          break;
        case 'b':
          esc = "\b";
          break;
        case 'f':
          esc = "\f";
          break;
        case 'n':
          esc = "\n";
          break;
        case 'r':
          esc = "\r";
          break;
        case 't':
          esc = "\t";
          break;
        case 'v':
          esc = "\v";
          break;
        case '\\':
          esc = "\\";
          break;
        default:
          break;
      }
      if (esc != NULL) {
        put_bytes(tp, esc, 1);
      } else if (is_letter(c)) {
        return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, tp->fn,
                                 "bad escape \\%c at byte %lld of the template", c, (long long)at);
      } else {
        put_bytes(tp, p + at, 2); /* kept as written, backslash included */
      }
    }
  }
done:
  return status;
}

gcol_status gcol_detail_regex_template_parse(const char *tmpl, int64_t size,
                                             const gcol_detail_regex_host *re, const char *fn,
                                             gcol_detail_regex_template_host *out) {
  gcol_status status = GCOL_OK;
  tparser tp;
  memset(out, 0, sizeof *out);
  memset(&tp, 0, sizeof tp);
  if (size >= INT32_MAX / 4) {
    return gcol_detail_error(GCOL_ERROR_OVERFLOW, fn, "the template has %lld bytes",
                             (long long)size);
  }
  /* at most one piece and one output byte per template byte */
  int64_t const piece_bytes = (size + 1) * (int64_t)sizeof(gcol_detail_regex_piece);
  char *block = (char *)malloc((size_t)(piece_bytes + size + 1));
  if (block == NULL) return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, fn, "no host memory");
  out->block = block;
  tp.p = tmpl;
  tp.n = size;
  tp.re = re;
  tp.groups = re->prog.num_groups;
  tp.fn = fn;
  tp.pieces = (gcol_detail_regex_piece *)block;
  tp.bytes = block + piece_bytes;
  GCOL_DETAIL_TRY(parse(&tp));
  {
    int64_t const used = tp.num_pieces * (int64_t)sizeof(gcol_detail_regex_piece);
    memmove(block + used, tp.bytes, (size_t)tp.num_bytes);
    out->t.pieces = (const gcol_detail_regex_piece *)block;
    out->t.bytes = block + used;
    out->t.num_pieces = tp.num_pieces;
    out->t.max_group = -1;
    for (int32_t j = 0; j < tp.num_pieces; ++j) {
      if (tp.pieces[j].group > out->t.max_group) out->t.max_group = tp.pieces[j].group;
    }
    out->block_bytes = used + tp.num_bytes;
  }
done:
  if (status != GCOL_OK) gcol_detail_regex_template_free(out);
  return status;
}

void gcol_detail_regex_template_free(gcol_detail_regex_template_host *h) {
  if (h == NULL) return;
  free(h->block);
  memset(h, 0, sizeof *h);
}
