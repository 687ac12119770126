/*
 * Compiles a regular expression on the host (regex_match.h): a recursive-descent parser
 * builds a small tree (nesting depth bounded, so the host recursion is too), then the tree
 * is emitted as Pike VM instructions, counted repetition expanded into copies. Every error
 * names the byte of the pattern where it was found; a program past the limits of
 * regex_match.h is GCOL_ERROR_OVERFLOW.
 */
#include <stdlib.h>
#include <string.h>

#include "gcol/utf8.h"
#include "internal/error.h"
#include "internal/nvtx.h"
#include "strings/regex_match.h"

#define MAX_DEPTH 200
#define MAX_NODES 100000

typedef enum node_kind {
  N_EMPTY,
  N_CHAR,
  N_ANY,
  N_CLASS,
  N_CAT,
  N_ALT,
  N_REPEAT,
  N_GROUP,
  N_ASSERT
} node_kind;

typedef struct node {
  node_kind kind;
  int32_t a, b;     /* CHAR: cp; CLASS: first range, count; GROUP: index (-1: none); ASSERT: kind */
  int32_t min, max; /* REPEAT; max -1 for unbounded */
  bool greedy;
  int32_t child, next; /* first child, next sibling (-1: none) */
} node;

typedef struct parser {
  const char *p;
  int64_t n, pos;
  uint32_t flags;
  node *nodes;
  int32_t num_nodes, cap_nodes;
  uint32_t *ranges; /* pairs */
  int32_t num_ranges, cap_ranges;
  int32_t groups, depth;
  gcol_detail_regex_inst *insts;
  int32_t num_insts;
  int32_t loop_depth, max_loop_depth; /* nesting of LOOP bodies being emitted */
  /* group g's name: bytes [name_at[g], + name_len[g]) of the pattern (0: unnamed) */
  int64_t name_at[GCOL_DETAIL_REGEX_MAX_GROUPS + 2];
  int32_t name_len[GCOL_DETAIL_REGEX_MAX_GROUPS + 2];
  bool named;
} parser;

static gcol_status fail_at(int64_t pos, gcol_status st, const char *what) {
  return gcol_detail_error(st, "gcol_regex_compile", "%s at byte %lld of the pattern", what,
                           (long long)pos);
}

static gcol_status new_node(parser *ps, node_kind kind, int32_t *out) {
  if (ps->num_nodes == ps->cap_nodes) {
    if (ps->cap_nodes >= MAX_NODES)
      return fail_at(ps->pos, GCOL_ERROR_OVERFLOW, "pattern too large");
    int32_t const cap = ps->cap_nodes ? 2 * ps->cap_nodes : 64;
    node *grown = (node *)realloc(ps->nodes, (size_t)cap * sizeof(node));
    if (grown == NULL) return fail_at(ps->pos, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
    ps->nodes = grown;
    ps->cap_nodes = cap;
  }
  node *x = &ps->nodes[ps->num_nodes];
  memset(x, 0, sizeof *x);
  x->kind = kind;
  x->child = x->next = -1;
  *out = ps->num_nodes++;
  return GCOL_OK;
}

/* ---------------------------------------------------------------- character classes */

static gcol_status push_range(parser *ps, uint32_t lo, uint32_t hi) {
  if (ps->num_ranges == ps->cap_ranges) {
    if (ps->cap_ranges >= 4 * GCOL_DETAIL_REGEX_MAX_RANGES) {
      return fail_at(ps->pos, GCOL_ERROR_OVERFLOW, "too many character ranges");
    }
    int32_t const cap = ps->cap_ranges ? 2 * ps->cap_ranges : 64;
    uint32_t *grown = (uint32_t *)realloc(ps->ranges, (size_t)cap * 2 * sizeof(uint32_t));
    if (grown == NULL) return fail_at(ps->pos, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
    ps->ranges = grown;
    ps->cap_ranges = cap;
  }
  ps->ranges[2 * ps->num_ranges] = lo;
  ps->ranges[2 * ps->num_ranges + 1] = hi;
  ++ps->num_ranges;
  return GCOL_OK;
}

static int cmp_range(const void *a, const void *b) {
  uint32_t const x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Ranges [first, num_ranges) of one class: case-folded (ASCII letters) when asked, sorted,
 * merged, complemented when negated. */
static gcol_status finish_class(parser *ps, int32_t first, bool negated, int32_t *count) {
  gcol_status status = GCOL_OK;
  if (ps->flags & GCOL_DETAIL_REGEX_ICASE) {
    int32_t const end = ps->num_ranges;
    for (int32_t i = first; i < end; ++i) {
      uint32_t const lo = ps->ranges[2 * i], hi = ps->ranges[2 * i + 1];
      uint32_t const bounds[2][2] = {{'a', 'z'}, {'A', 'Z'}};
      for (int k = 0; k < 2; ++k) {
        uint32_t const a = lo > bounds[k][0] ? lo : bounds[k][0];
        uint32_t const b = hi < bounds[k][1] ? hi : bounds[k][1];
        if (a > b) continue;
        uint32_t const shift = k == 0 ? (uint32_t)-32 : 32u;
        GCOL_DETAIL_TRY(push_range(ps, a + shift, b + shift));
      }
    }
  }
  int32_t m = ps->num_ranges - first;
  uint32_t *r = ps->ranges + 2 * first;
  qsort(r, (size_t)m, 2 * sizeof(uint32_t), cmp_range);
  int32_t k = 0;
  for (int32_t i = 0; i < m; ++i) {
    if (k > 0 && r[2 * i] <= r[2 * (k - 1) + 1] + 1) {
      if (r[2 * i + 1] > r[2 * (k - 1) + 1]) r[2 * (k - 1) + 1] = r[2 * i + 1];
    } else {
      r[2 * k] = r[2 * i];
      r[2 * k + 1] = r[2 * i + 1];
      ++k;
    }
  }
  ps->num_ranges = first + k;
  if (negated) {
    /* the complement of k sorted disjoint ranges: at most k + 1 ranges, built in a copy */
    uint32_t *copy = (uint32_t *)malloc((size_t)(2 * k + 1) * sizeof(uint32_t));
    if (copy == NULL) return fail_at(ps->pos, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
    memcpy(copy, ps->ranges + 2 * first, (size_t)(2 * k) * sizeof(uint32_t));
    ps->num_ranges = first;
    uint32_t lo = 0;
    for (int32_t i = 0; i < k && status == GCOL_OK; ++i) {
      if (copy[2 * i] > lo) status = push_range(ps, lo, copy[2 * i] - 1);
      lo = copy[2 * i + 1] + 1;
    }
    if (status == GCOL_OK && lo <= GCOL_UTF8_MAX_CODE_POINT) {
      status = push_range(ps, lo, GCOL_UTF8_MAX_CODE_POINT);
    }
    free(copy);
    GCOL_DETAIL_TRY(status);
  }
  *count = ps->num_ranges - first;
done:
  return status;
}

/* \d \w \s (ASCII, as re.ASCII) and their negations, added to the current class. */
static gcol_status push_shorthand(parser *ps, char c) {
  gcol_status status = GCOL_OK;
  static const uint32_t digit[] = {'0', '9'};
  static const uint32_t word[] = {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'};
  static const uint32_t space[] = {'\t', '\r', ' ', ' '};
  const uint32_t *set = c == 'd' || c == 'D' ? digit : c == 'w' || c == 'W' ? word : space;
  int32_t const m = set == digit ? 1 : set == word ? 4 : 2;
  bool const negated = c == 'D' || c == 'W' || c == 'S';
  uint32_t lo = 0;
  for (int32_t i = 0; i < m; ++i) {
    if (!negated) {
      GCOL_DETAIL_TRY(push_range(ps, set[2 * i], set[2 * i + 1]));
    } else {
      if (set[2 * i] > lo) GCOL_DETAIL_TRY(push_range(ps, lo, set[2 * i] - 1));
      lo = set[2 * i + 1] + 1;
    }
  }
  if (negated) GCOL_DETAIL_TRY(push_range(ps, lo, GCOL_UTF8_MAX_CODE_POINT));
done:
  return status;
}

/* ---------------------------------------------------------------- escapes */

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* A character escape (ps->pos just past the backslash, at the escape letter): the code
 * point in *cp, or *shorthand set to d/D/w/W/s/S; anything else is the caller's. */
static gcol_status char_escape(parser *ps, bool in_class, uint32_t *cp, char *shorthand) {
  int64_t const at = ps->pos - 1;
  char const c = ps->p[ps->pos];
  *shorthand = 0;
  if (strchr("dDwWsS", c) != NULL && c != 0) {
    ++ps->pos;
    *shorthand = c;
    return GCOL_OK;
  }
  static const char simple[] = "ntrfva";
  static const uint32_t simple_cp[] = {'\n', '\t', '\r', '\f', '\v', 7};
  const char *hit = c != 0 ? strchr(simple, c) : NULL;
  if (hit != NULL) {
    ++ps->pos;
    *cp = simple_cp[hit - simple];
    return GCOL_OK;
  }
  if (in_class && c == 'b') {
    ++ps->pos;
    *cp = 8;
    return GCOL_OK;
  }
  if (c == 'x' || c == 'u' || c == 'U') {
    int const digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
    uint32_t v = 0;
    for (int i = 1; i <= digits; ++i) {
      int const h = ps->pos + i < ps->n ? hex_value(ps->p[ps->pos + i]) : -1;
      if (h < 0)
        return fail_at(at, GCOL_ERROR_INVALID_ARGUMENT, "incomplete escape \\x, \\u or \\U");
      v = v * 16 + (uint32_t)h;
    }
    if (v > GCOL_UTF8_MAX_CODE_POINT)
      return fail_at(at, GCOL_ERROR_INVALID_ARGUMENT, "bad escape (code point above U+10FFFF)");
    ps->pos += 1 + digits;
    *cp = v;
    return GCOL_OK;
  }
  if (c == '0') { /* \0 and up to two more octal digits */
    uint32_t v = 0;
    ++ps->pos;
    for (int i = 0; i < 2 && ps->pos < ps->n && ps->p[ps->pos] >= '0' && ps->p[ps->pos] <= '7';
         ++i) {
      v = v * 8 + (uint32_t)(ps->p[ps->pos++] - '0');
    }
    *cp = v;
    return GCOL_OK;
  }
  if (c >= '1' && c <= '9') {
    return fail_at(at, GCOL_ERROR_UNSUPPORTED,
                   "backreferences (and octal escapes) are not supported");
  }
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
    return fail_at(at, GCOL_ERROR_INVALID_ARGUMENT, "bad escape");
  }
  gcol_utf8_char const d = gcol_utf8_decode(ps->p + ps->pos, ps->n - ps->pos);
  ps->pos += d.length;
  *cp = d.code_point;
  return GCOL_OK;
}

/* One character of a class or literal: escape or UTF-8 (an invalid byte is U+FFFD). */
static gcol_status class_char(parser *ps, uint32_t *cp, char *shorthand) {
  *shorthand = 0;
  if (ps->p[ps->pos] == '\\') {
    if (ps->pos + 1 >= ps->n)
      return fail_at(ps->pos, GCOL_ERROR_INVALID_ARGUMENT, "pattern ends with a backslash");
    ++ps->pos;
    return char_escape(ps, true, cp, shorthand);
  }
  gcol_utf8_char const d = gcol_utf8_decode(ps->p + ps->pos, ps->n - ps->pos);
  ps->pos += d.length;
  *cp = d.code_point;
  return GCOL_OK;
}

static gcol_status parse_class(parser *ps, int32_t *out) {
  gcol_status status = GCOL_OK;
  int64_t const open = ps->pos++;
  int32_t const first = ps->num_ranges;
  bool negated = false;
  int32_t count = 0;
  if (ps->pos < ps->n && ps->p[ps->pos] == '^') {
    negated = true;
    ++ps->pos;
  }
  for (bool start = true;; start = false) {
    if (ps->pos >= ps->n)
      return fail_at(open, GCOL_ERROR_INVALID_ARGUMENT, "unterminated character set");
    if (ps->p[ps->pos] == ']' && !start) break;
    int64_t const item = ps->pos;
    uint32_t lo, hi;
    char sh;
    GCOL_DETAIL_TRY(class_char(ps, &lo, &sh));
    bool const range = ps->pos + 1 < ps->n && ps->p[ps->pos] == '-' && ps->p[ps->pos + 1] != ']';
    if (sh != 0) {
      if (range) return fail_at(item, GCOL_ERROR_INVALID_ARGUMENT, "bad character range");
      GCOL_DETAIL_TRY(push_shorthand(ps, sh));
      continue;
    }
    hi = lo;
    if (range) {
      ++ps->pos;
      GCOL_DETAIL_TRY(class_char(ps, &hi, &sh));
      if (sh != 0 || hi < lo)
        return fail_at(item, GCOL_ERROR_INVALID_ARGUMENT, "bad character range");
    }
    GCOL_DETAIL_TRY(push_range(ps, lo, hi));
  }
  ++ps->pos;
  GCOL_DETAIL_TRY(finish_class(ps, first, negated, &count));
  GCOL_DETAIL_TRY(new_node(ps, N_CLASS, out));
  ps->nodes[*out].a = first;
  ps->nodes[*out].b = count;
done:
  return status;
}

/* A node for literal code point cp (a two-case class for an ASCII letter under ICASE). */
static gcol_status literal(parser *ps, uint32_t cp, int32_t *out) {
  gcol_status status = GCOL_OK;
  bool const letter = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
  if ((ps->flags & GCOL_DETAIL_REGEX_ICASE) && letter) {
    int32_t const first = ps->num_ranges;
    GCOL_DETAIL_TRY(push_range(ps, cp, cp));
    int32_t m;
    GCOL_DETAIL_TRY(finish_class(ps, first, false, &m));
    GCOL_DETAIL_TRY(new_node(ps, N_CLASS, out));
    ps->nodes[*out].a = first;
    ps->nodes[*out].b = m;
    return GCOL_OK;
  }
  GCOL_DETAIL_TRY(new_node(ps, N_CHAR, out));
  ps->nodes[*out].a = (int32_t)cp;
done:
  return status;
}

/* ---------------------------------------------------------------- the grammar */

static gcol_status parse_alt(parser *ps, int32_t *out);

/* {n}, {n,}, {,m}, {n,m} at ps->pos (a '{'): true and the bounds if it is one (Python
 * reads any other '{' as a literal). */
static bool parse_braces(parser *ps, int64_t *end, int64_t *min, int64_t *max) {
  int64_t i = ps->pos + 1;
  int64_t lo = 0, hi = -1;
  bool have_lo = false, have_hi = false, comma = false;
  while (i < ps->n && ps->p[i] >= '0' && ps->p[i] <= '9') {
    if (lo < 1000000000) lo = lo * 10 + (ps->p[i] - '0');
    have_lo = true;
    ++i;
  }
  if (i < ps->n && ps->p[i] == ',') {
    comma = true;
    ++i;
    int64_t v = 0;
    while (i < ps->n && ps->p[i] >= '0' && ps->p[i] <= '9') {
      if (v < 1000000000) v = v * 10 + (ps->p[i] - '0');
      have_hi = true;
      ++i;
    }
    if (have_hi) hi = v;
  }
  if (i >= ps->n || ps->p[i] != '}' || (!have_lo && !comma)) return false; /* {} is literal */
  *end = i + 1;
  *min = lo;
  *max = comma ? hi : lo;
  return true;
}

/* A group name must be an identifier (Python's str.isidentifier(), non-ASCII bytes taken
 * as identifier characters unchecked) and new. */
static gcol_status check_group_name(const parser *ps, int64_t open, int64_t at, int64_t len) {
  const char *name = ps->p + at;
  if (!gcol_detail_regex_is_group_name(name, len)) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_regex_compile",
                             "bad character in group name '%.*s' at byte %lld of the pattern",
                             (int)len, name, (long long)open);
  }
  for (int32_t g = 1; g <= ps->groups; ++g) {
    if (ps->name_len[g] == len && memcmp(ps->p + ps->name_at[g], name, (size_t)len) == 0) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_regex_compile",
                               "redefinition of group name '%.*s' (group %d) at byte %lld of the "
                               "pattern",
                               (int)len, name, (int)g, (long long)open);
    }
  }
  return GCOL_OK;
}

static gcol_status parse_group(parser *ps, int32_t *out) {
  gcol_status status = GCOL_OK;
  int64_t const open = ps->pos++;
  int32_t index = -1, body;
  if (ps->pos < ps->n && ps->p[ps->pos] == '?') {
    char const c = ps->pos + 1 < ps->n ? ps->p[ps->pos + 1] : 0;
    if (c == ':') {
      ps->pos += 2;
    } else if (c == 'P' && ps->pos + 2 < ps->n && ps->p[ps->pos + 2] == '<') {
      int64_t const name = ps->pos + 3; /* numbered; the name kept for \g<name> */
      int64_t i = name;
      while (i < ps->n && ps->p[i] != '>') ++i;
      if (i >= ps->n || i == name)
        return fail_at(open, GCOL_ERROR_INVALID_ARGUMENT, "bad group name");
      GCOL_DETAIL_TRY(check_group_name(ps, open, name, i - name));
      ps->pos = i + 1;
      index = ++ps->groups;
      ps->name_at[index] = name;
      ps->name_len[index] = (int32_t)(i - name);
      ps->named = true;
    } else if (c == 0) {
      return fail_at(open, GCOL_ERROR_INVALID_ARGUMENT, "unexpected end of pattern after (?");
    } else if (c == '=' || c == '!' || c == '<') {
      return fail_at(open, GCOL_ERROR_UNSUPPORTED, "lookaround assertions are not supported");
    } else {
      return fail_at(open, GCOL_ERROR_UNSUPPORTED,
                     "this (? extension (inline flags, comments, conditionals) is not supported");
    }
  } else {
    index = ++ps->groups;
  }
  if (ps->groups > GCOL_DETAIL_REGEX_MAX_GROUPS)
    return fail_at(open, GCOL_ERROR_OVERFLOW, "too many groups");
  GCOL_DETAIL_TRY(parse_alt(ps, &body));
  if (ps->pos >= ps->n || ps->p[ps->pos] != ')')
    return fail_at(open, GCOL_ERROR_INVALID_ARGUMENT, "missing ), unterminated subpattern");
  ++ps->pos;
  GCOL_DETAIL_TRY(new_node(ps, N_GROUP, out));
  ps->nodes[*out].a = index;
  ps->nodes[*out].child = body;
done:
  return status;
}

static gcol_status make_assert(parser *ps, int32_t kind, int32_t *out) {
  gcol_status const status = new_node(ps, N_ASSERT, out);
  if (status == GCOL_OK) ps->nodes[*out].a = kind;
  return status;
}

/* One atom; *repeatable false for an assertion (Python: "nothing to repeat"). */
static gcol_status parse_atom(parser *ps, int32_t *out, bool *repeatable) {
  gcol_status status = GCOL_OK;
  char const c = ps->p[ps->pos];
  int64_t e, lo, hi;
  *repeatable = true;
  if (c == '(') return parse_group(ps, out);
  if (c == '[') return parse_class(ps, out);
  if (c == '*' || c == '+' || c == '?' || (c == '{' && parse_braces(ps, &e, &lo, &hi))) {
    return fail_at(ps->pos, GCOL_ERROR_INVALID_ARGUMENT, "nothing to repeat");
  }
  if (c == '.') {
    ++ps->pos;
    GCOL_DETAIL_TRY(new_node(ps, N_ANY, out));
    return GCOL_OK;
  }
  if (c == '^' || c == '$') {
    ++ps->pos;
    *repeatable = false;
    return make_assert(ps, c == '^' ? GCOL_DETAIL_RX_BOL : GCOL_DETAIL_RX_EOL, out);
  }
  if (c == '\\') {
    if (ps->pos + 1 >= ps->n)
      return fail_at(ps->pos, GCOL_ERROR_INVALID_ARGUMENT, "pattern ends with a backslash");
    char const d = ps->p[ps->pos + 1];
    int32_t const kind = d == 'A'                 ? GCOL_DETAIL_RX_TEXT_BEGIN
                         : (d == 'Z' || d == 'z') ? GCOL_DETAIL_RX_TEXT_END
                         : d == 'b'               ? GCOL_DETAIL_RX_WORD
                         : d == 'B'               ? GCOL_DETAIL_RX_NOT_WORD
                                                  : -1;
    if (kind >= 0) {
      ps->pos += 2;
      *repeatable = false;
      return make_assert(ps, kind, out);
    }
  }
  uint32_t cp;
  char sh;
  GCOL_DETAIL_TRY(class_char(ps, &cp, &sh));
  if (sh != 0) {
    int32_t const first = ps->num_ranges;
    int32_t m;
    GCOL_DETAIL_TRY(push_shorthand(ps, sh));
    GCOL_DETAIL_TRY(finish_class(ps, first, false, &m));
    GCOL_DETAIL_TRY(new_node(ps, N_CLASS, out));
    ps->nodes[*out].a = first;
    ps->nodes[*out].b = m;
    return GCOL_OK;
  }
  GCOL_DETAIL_TRY(literal(ps, cp, out));
done:
  return status;
}

/* An atom and at most one quantifier (with a lazy '?'). */
static gcol_status parse_repeat(parser *ps, int32_t *out) {
  gcol_status status = GCOL_OK;
  bool repeatable;
  int32_t atom;
  GCOL_DETAIL_TRY(parse_atom(ps, &atom, &repeatable));
  *out = atom;
  if (ps->pos >= ps->n) return GCOL_OK;
  int64_t const at = ps->pos;
  char const c = ps->p[at];
  int64_t end = at + 1, min, max;
  if (c == '*') {
    min = 0;
    max = -1;
  } else if (c == '+') {
    min = 1;
    max = -1;
  } else if (c == '?') {
    min = 0;
    max = 1;
  } else if (c != '{' || !parse_braces(ps, &end, &min, &max))
    return GCOL_OK;
  if (!repeatable) return fail_at(at, GCOL_ERROR_INVALID_ARGUMENT, "nothing to repeat");
  if (max >= 0 && max < min)
    return fail_at(at, GCOL_ERROR_INVALID_ARGUMENT, "min repeat greater than max repeat");
  if (min > GCOL_DETAIL_REGEX_MAX_REPEAT || max > GCOL_DETAIL_REGEX_MAX_REPEAT) {
    return fail_at(at, GCOL_ERROR_OVERFLOW, "repeat count above 1000");
  }
  ps->pos = end;
  bool greedy = true;
  if (ps->pos < ps->n && ps->p[ps->pos] == '?') {
    greedy = false;
    ++ps->pos;
  } else if (ps->pos < ps->n && ps->p[ps->pos] == '+') {
    return fail_at(ps->pos, GCOL_ERROR_UNSUPPORTED, "possessive quantifiers are not supported");
  }
  if (ps->pos < ps->n) {
    int64_t e2, a2, b2;
    char const d = ps->p[ps->pos];
    if (d == '*' || d == '+' || d == '?' || (d == '{' && parse_braces(ps, &e2, &a2, &b2))) {
      return fail_at(ps->pos, GCOL_ERROR_INVALID_ARGUMENT, "multiple repeat");
    }
  }
  GCOL_DETAIL_TRY(new_node(ps, N_REPEAT, out));
  ps->nodes[*out].min = (int32_t)min;
  ps->nodes[*out].max = (int32_t)max;
  ps->nodes[*out].greedy = greedy;
  ps->nodes[*out].child = atom;
done:
  return status;
}

static gcol_status parse_cat(parser *ps, int32_t *out) {
  gcol_status status = GCOL_OK;
  int32_t last = -1;
  GCOL_DETAIL_TRY(new_node(ps, N_CAT, out));
  while (ps->pos < ps->n && ps->p[ps->pos] != '|' && ps->p[ps->pos] != ')') {
    int32_t item;
    GCOL_DETAIL_TRY(parse_repeat(ps, &item));
    if (last < 0)
      ps->nodes[*out].child = item;
    else
      ps->nodes[last].next = item;
    last = item;
  }
done:
  return status;
}

static gcol_status parse_alt(parser *ps, int32_t *out) {
  gcol_status status = GCOL_OK;
  int32_t last;
  if (++ps->depth > MAX_DEPTH)
    return fail_at(ps->pos, GCOL_ERROR_OVERFLOW, "groups nested too deeply");
  GCOL_DETAIL_TRY(new_node(ps, N_ALT, out));
  GCOL_DETAIL_TRY(parse_cat(ps, &last));
  ps->nodes[*out].child = last;
  while (ps->pos < ps->n && ps->p[ps->pos] == '|') {
    int32_t item;
    ++ps->pos;
    GCOL_DETAIL_TRY(parse_cat(ps, &item));
    ps->nodes[last].next = item;
    last = item;
  }
  --ps->depth;
done:
  return status;
}

/* ---------------------------------------------------------------- emission */

static gcol_status emit(parser *ps, int32_t op, int32_t x, int32_t y) {
  if (ps->num_insts >= GCOL_DETAIL_REGEX_MAX_INSTS) {
    return gcol_detail_error(GCOL_ERROR_OVERFLOW, "gcol_regex_compile",
                             "the program exceeds %d instructions (counted repetition is "
                             "expanded into copies)",
                             GCOL_DETAIL_REGEX_MAX_INSTS);
  }
  gcol_detail_regex_inst *in = &ps->insts[ps->num_insts++];
  in->op = op;
  in->x = x;
  in->y = y;
  return GCOL_OK;
}

static gcol_status emit_node(parser *ps, int32_t id);

/* Whether node id can match the empty string (then its repetition is progress-checked). */
static bool nullable(const parser *ps, int32_t id) {
  node const *x = &ps->nodes[id];
  switch (x->kind) {
    case N_EMPTY:
    case N_ASSERT:
      return true;
    case N_CHAR:
    case N_ANY:
    case N_CLASS:
      return false;
    case N_CAT:
      for (int32_t c = x->child; c >= 0; c = ps->nodes[c].next) {
        if (!nullable(ps, c)) return false;
      }
      return true;
    case N_ALT:
      for (int32_t c = x->child; c >= 0; c = ps->nodes[c].next) {
        if (nullable(ps, c)) return true;
      }
      return false;
    case N_REPEAT:
      return x->min == 0 || nullable(ps, x->child);
    case N_GROUP:
      return nullable(ps, x->child);
  }
  return false;
}

/* The body of one iteration beyond the minimum, as a LOOP's body when it can match empty. */
static gcol_status emit_iteration(parser *ps, const node *r, bool checked) {
  gcol_status status = GCOL_OK;
  if (checked && ++ps->loop_depth > ps->max_loop_depth) ps->max_loop_depth = ps->loop_depth;
  status = emit_node(ps, r->child);
  if (checked) --ps->loop_depth;
  return status;
}

/* The mandatory copies of the body, then the optional iterations: an unbounded loop
 * L: SPLIT(body, exit) body JMP L, or max - min optional copies, each split's exit chained
 * through its exit field and patched to the end. A body that can match empty is
 * progress-checked as Python's re does: its split is a LOOP and a CHECK ends each
 * iteration, going on to the exit alone when the iteration consumed nothing. */
static gcol_status emit_repeat(parser *ps, const node *r) {
  gcol_status status = GCOL_OK;
  bool const checked = nullable(ps, r->child);
  int32_t const split_op = checked ? GCOL_DETAIL_RX_LOOP : GCOL_DETAIL_RX_SPLIT;
  for (int32_t i = 0; i < r->min; ++i) GCOL_DETAIL_TRY(emit_node(ps, r->child));
  if (r->max < 0) {
    int32_t const loop = ps->num_insts;
    GCOL_DETAIL_TRY(emit(ps, split_op, 0, 0));
    GCOL_DETAIL_TRY(emit_iteration(ps, r, checked));
    /* CHECK: back to the LOOP, or (an empty iteration) on to the exit just after it */
    GCOL_DETAIL_TRY(
        emit(ps, checked ? GCOL_DETAIL_RX_CHECK : GCOL_DETAIL_RX_JMP, loop, ps->num_insts + 1));
    ps->insts[loop].x = r->greedy ? loop + 1 : ps->num_insts;
    ps->insts[loop].y = r->greedy ? ps->num_insts : loop + 1;
    if (!checked) ps->insts[ps->num_insts - 1].y = 0;
    return GCOL_OK;
  }
  int32_t chain = -1, checks = -1;
  for (int32_t i = r->min; i < r->max; ++i) {
    int32_t const split = ps->num_insts;
    GCOL_DETAIL_TRY(emit(ps, split_op, split + 1, chain));
    chain = split;
    GCOL_DETAIL_TRY(emit_iteration(ps, r, checked));
    if (checked) { /* CHECK: on to the next copy, or (empty) to the end; y chained */
      GCOL_DETAIL_TRY(emit(ps, GCOL_DETAIL_RX_CHECK, ps->num_insts + 1, checks));
      checks = ps->num_insts - 1;
    }
  }
  while (chain >= 0) {
    gcol_detail_regex_inst *in = &ps->insts[chain];
    int32_t const prev = in->y;
    in->x = r->greedy ? chain + 1 : ps->num_insts;
    in->y = r->greedy ? ps->num_insts : chain + 1;
    chain = prev;
  }
  while (checks >= 0) {
    int32_t const prev = ps->insts[checks].y;
    ps->insts[checks].y = ps->num_insts;
    checks = prev;
  }
done:
  return status;
}

/* Alternatives: split to each in turn, each ending in a jump (chained, then patched). */
static gcol_status emit_alt(parser *ps, const node *a) {
  gcol_status status = GCOL_OK;
  int32_t chain = -1;
  for (int32_t c = a->child; c >= 0; c = ps->nodes[c].next) {
    int32_t split = -1;
    if (ps->nodes[c].next >= 0) {
      split = ps->num_insts;
      GCOL_DETAIL_TRY(emit(ps, GCOL_DETAIL_RX_SPLIT, split + 1, 0));
    }
    GCOL_DETAIL_TRY(emit_node(ps, c));
    if (split >= 0) {
      GCOL_DETAIL_TRY(emit(ps, GCOL_DETAIL_RX_JMP, chain, 0));
      chain = ps->num_insts - 1;
      ps->insts[split].y = ps->num_insts;
    }
  }
  while (chain >= 0) {
    int32_t const prev = ps->insts[chain].x;
    ps->insts[chain].x = ps->num_insts;
    chain = prev;
  }
done:
  return status;
}

static gcol_status emit_node(parser *ps, int32_t id) {
  gcol_status status = GCOL_OK;
  node const x = ps->nodes[id];
  switch (x.kind) {
    case N_EMPTY:
      break;
    case N_CHAR:
      GCOL_DETAIL_TRY(emit(ps, GCOL_DETAIL_RX_CHAR, x.a, 0));
      break;
    case N_ANY:
      GCOL_DETAIL_TRY(emit(
          ps, (ps->flags & GCOL_DETAIL_REGEX_DOTALL) ? GCOL_DETAIL_RX_ANY : GCOL_DETAIL_RX_ANY_NL,
          0, 0));
      break;
    case N_CLASS:
      GCOL_DETAIL_TRY(emit(ps, GCOL_DETAIL_RX_CLASS, x.a, x.b));
      break;
    case N_ASSERT:
      GCOL_DETAIL_TRY(emit(ps, GCOL_DETAIL_RX_ASSERT, x.a, 0));
      break;
    case N_CAT:
      for (int32_t c = x.child; c >= 0; c = ps->nodes[c].next) GCOL_DETAIL_TRY(emit_node(ps, c));
      break;
    case N_ALT:
      GCOL_DETAIL_TRY(emit_alt(ps, &x));
      break;
    case N_REPEAT:
      GCOL_DETAIL_TRY(emit_repeat(ps, &x));
      break;
    case N_GROUP:
      if (x.a >= 0) GCOL_DETAIL_TRY(emit(ps, GCOL_DETAIL_RX_SAVE, 2 * x.a, 0));
      GCOL_DETAIL_TRY(emit_node(ps, x.child));
      if (x.a >= 0) GCOL_DETAIL_TRY(emit(ps, GCOL_DETAIL_RX_SAVE, 2 * x.a + 1, 0));
      break;
  }
done:
  return status;
}

/* The program in one block: insts, then the ranges. */
/* out->names: group g's name as the g-th NUL-terminated string ("" for an unnamed one). */
static gcol_status finish_names(const parser *ps, gcol_detail_regex_host *out) {
  int64_t bytes = 0;
  for (int32_t g = 1; g <= ps->groups; ++g) bytes += ps->name_len[g] + 1;
  out->names = (char *)malloc((size_t)bytes);
  if (out->names == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_regex_compile", "no host memory");
  }
  char *at = out->names;
  for (int32_t g = 1; g <= ps->groups; ++g) {
    memcpy(at, ps->p + ps->name_at[g], (size_t)ps->name_len[g]);
    at += ps->name_len[g];
    *at++ = '\0';
  }
  return GCOL_OK;
}

static gcol_status finish(parser *ps, gcol_detail_regex_host *out) {
  gcol_status status = GCOL_OK;
  int64_t const inst_bytes = (int64_t)ps->num_insts * (int64_t)sizeof(gcol_detail_regex_inst);
  int64_t const bytes = inst_bytes + (int64_t)ps->num_ranges * 2 * (int64_t)sizeof(uint32_t);
  if (ps->max_loop_depth > GCOL_DETAIL_REGEX_MAX_LOOP_DEPTH) {
    return gcol_detail_error(GCOL_ERROR_OVERFLOW, "gcol_regex_compile",
                             "repetitions that can match empty are nested %d deep, more than %d",
                             ps->max_loop_depth, GCOL_DETAIL_REGEX_MAX_LOOP_DEPTH);
  }
  if (ps->num_ranges > GCOL_DETAIL_REGEX_MAX_RANGES) {
    return gcol_detail_error(GCOL_ERROR_OVERFLOW, "gcol_regex_compile",
                             "the pattern's classes need %d ranges, more than %d", ps->num_ranges,
                             GCOL_DETAIL_REGEX_MAX_RANGES);
  }
  if (ps->named) GCOL_DETAIL_TRY(finish_names(ps, out));
  char *block = (char *)malloc((size_t)bytes);
  if (block == NULL) {
    gcol_detail_regex_host_free(out);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_regex_compile", "no host memory");
  }
  memcpy(block, ps->insts, (size_t)inst_bytes);
  if (ps->num_ranges > 0) memcpy(block + inst_bytes, ps->ranges, (size_t)(bytes - inst_bytes));
  out->block = block;
  out->block_bytes = bytes;
  out->prog.insts = (const gcol_detail_regex_inst *)block;
  out->prog.ranges = (const uint32_t *)(block + inst_bytes);
  out->prog.num_insts = ps->num_insts;
  out->prog.num_ranges = ps->num_ranges;
  out->prog.num_groups = ps->groups;
  out->prog.num_levels = 1 + ps->max_loop_depth;
  out->prog.flags = ps->flags;
  {
    unsigned char *visited = (unsigned char *)calloc((size_t)ps->num_insts + 1, 1);
    int32_t *stack = (int32_t *)malloc(sizeof *stack * (2 * (size_t)ps->num_insts + 2));
    if (visited != NULL && stack != NULL) gcol_detail_regex_first_bytes(&out->prog, visited, stack);
    free(visited); /* without memory the prefilter stays off: only slower */
    free(stack);
  }
  gcol_detail_regex_dfa_build(out);
done:
  return status;
}

/* Adds the ASCII bytes [lo, hi] to the set; false (no prefilter) past ASCII. */
static bool first_add_range(uint32_t *first, uint32_t lo, uint32_t hi) {
  if (hi >= 0x80) return false;
  for (uint32_t b = lo; b <= hi; ++b) first[b >> 5] |= 1u << (b & 31);
  return true;
}

void gcol_detail_regex_first_bytes(gcol_detail_regex_prog *prog, unsigned char *visited,
                                   int32_t *stack) {
  uint32_t first[4] = {0, 0, 0, 0};
  bool ok = prog->num_insts > 0;
  int32_t top = 0;
  stack[top++] = 0;
  while (ok && top > 0) { /* every instruction the closure of 0 reaches, assertions passed */
    int32_t const pc = stack[--top];
    if (pc < 0 || pc >= prog->num_insts || visited[pc]) continue;
    visited[pc] = 1;
    gcol_detail_regex_inst const in = prog->insts[pc];
    switch (in.op) {
      case GCOL_DETAIL_RX_CHAR:
        ok = first_add_range(first, (uint32_t)in.x, (uint32_t)in.x);
        break;
      case GCOL_DETAIL_RX_CLASS:
        for (int32_t r = 0; ok && r < in.y; ++r) {
          ok = first_add_range(first, prog->ranges[2 * (in.x + r)], prog->ranges[2 * (in.x + r) + 1]);
        }
        break;
      case GCOL_DETAIL_RX_SPLIT:
      case GCOL_DETAIL_RX_LOOP:
      case GCOL_DETAIL_RX_CHECK:
        stack[top++] = in.x;
        stack[top++] = in.y;
        break;
      case GCOL_DETAIL_RX_JMP:
        stack[top++] = in.x;
        break;
      case GCOL_DETAIL_RX_SAVE:
      case GCOL_DETAIL_RX_ASSERT:
        stack[top++] = pc + 1;
        break;
      default: /* ANY, ANY_NL, MATCH (an empty match) */
        ok = false;
        break;
    }
  }
  prog->has_first = ok;
  for (int k = 0; k < 4; ++k) prog->first[k] = ok ? first[k] : 0;
}

gcol_status gcol_detail_regex_compile(const char *pattern, int64_t size, uint32_t flags,
                                      gcol_detail_regex_host *out) {
  gcol_status status = GCOL_OK;
  parser ps;
  int32_t root;
  memset(&ps, 0, sizeof ps);
  memset(out, 0, sizeof *out);
  ps.p = pattern;
  ps.n = size;
  ps.flags = flags;
  ps.insts = (gcol_detail_regex_inst *)malloc(GCOL_DETAIL_REGEX_MAX_INSTS *
                                              sizeof(gcol_detail_regex_inst));
  GCOL_DETAIL_CHECK(ps.insts != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  GCOL_DETAIL_TRY(parse_alt(&ps, &root));
  GCOL_DETAIL_CHECK(ps.pos == ps.n, GCOL_ERROR_INVALID_ARGUMENT,
                    "unbalanced parenthesis at byte %lld of the pattern", (long long)ps.pos);
  GCOL_DETAIL_TRY(emit(&ps, GCOL_DETAIL_RX_SAVE, 0, 0));
  GCOL_DETAIL_TRY(emit_node(&ps, root));
  GCOL_DETAIL_TRY(emit(&ps, GCOL_DETAIL_RX_SAVE, 1, 0));
  GCOL_DETAIL_TRY(emit(&ps, GCOL_DETAIL_RX_MATCH, 0, 0));
  GCOL_DETAIL_TRY(finish(&ps, out));
done:
  free(ps.nodes);
  free(ps.ranges);
  free(ps.insts);
  return status;
}

void gcol_detail_regex_host_free(gcol_detail_regex_host *h) {
  if (h == NULL) return;
  free(h->block);
  free(h->names);
  memset(h, 0, sizeof *h);
}

static bool is_name_byte(unsigned char c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80 ||
         (!first && c >= '0' && c <= '9');
}

bool gcol_detail_regex_is_group_name(const char *name, int64_t size) {
  if (size <= 0) return false;
  for (int64_t i = 0; i < size; ++i) {
    if (!is_name_byte((unsigned char)name[i], i == 0)) return false;
  }
  return true;
}

int32_t gcol_detail_regex_group_index(const gcol_detail_regex_host *h, const char *name,
                                      int64_t size) {
  const char *at = h->names;
  for (int32_t g = 1; at != NULL && g <= h->prog.num_groups; ++g) {
    int64_t const len = (int64_t)strlen(at);
    if (len == size && memcmp(at, name, (size_t)size) == 0) return g;
    at += len + 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- public (strings/regex.h) */

static gcol_status regex_compile(const char *pattern, int64_t size, uint32_t flags,
                                 gcol_regex **out) {
  uint32_t const known = GCOL_REGEX_IGNORECASE | GCOL_REGEX_MULTILINE | GCOL_REGEX_DOTALL;
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  GCOL_DETAIL_REQUIRE(pattern != NULL, GCOL_ERROR_INVALID_ARGUMENT, "pattern is NULL");
  GCOL_DETAIL_REQUIRE(size >= -1, GCOL_ERROR_INVALID_ARGUMENT, "size is %lld (want >= 0, or -1)",
                      (long long)size);
  GCOL_DETAIL_REQUIRE((flags & ~known) == 0, GCOL_ERROR_INVALID_ARGUMENT, "unknown flags 0x%x",
                      (unsigned)(flags & ~known));
  gcol_regex *re = (gcol_regex *)calloc(1, sizeof *re);
  GCOL_DETAIL_REQUIRE(re != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  gcol_status const status = gcol_detail_regex_compile(
      pattern, size < 0 ? (int64_t)strlen(pattern) : size, flags, &re->host);
  if (status != GCOL_OK) {
    free(re);
    return status;
  }
  *out = re;
  return GCOL_OK;
}

gcol_status gcol_regex_compile(const char *pattern, int64_t size, uint32_t flags,
                               gcol_regex **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_regex_compile");
  gcol_status const status = regex_compile(pattern, size, flags, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_regex_free(gcol_regex *re) {
  if (re == NULL) return;
  gcol_detail_regex_host_free(&re->host);
  free(re);
}

int32_t gcol_regex_num_groups(const gcol_regex *re) {
  return re == NULL ? 0 : re->host.prog.num_groups;
}
