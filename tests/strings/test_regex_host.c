/*
 * Host tests (no GPU) of regular expressions (include/gcol/strings/regex.h): the compiler's
 * errors and limits; the Pike VM the kernels run (kernels/strings/regex_match.h) against
 * known answers of Python's re (regex_cases.h, written by gen_regex_cases.py); and a fuzzer
 * comparing it with an independent backtracking matcher over random patterns of the
 * supported subset (built as trees: the backtracker walks the tree, the compiler parses its
 * printed form) and random subjects of 1- to 4-byte characters and an invalid byte.
 * Extract, replace, findall and split row by row (regex_ops.h) against Python's answers
 * (regex_ops_cases.h, regex_split_cases.h), and the argument checks of the public
 * findall and split calls, which fail before any device work.
 */
#include "test_util.h"

#include "gcol/strings/regex.h"
#include "strings/regex_match.h"
#include "strings/regex_ops.h"
#include "strings_fake_views.h"

typedef struct regex_case {
  const char *pattern;
  unsigned flags;
  const char *subject;
  int matched;
  int groups;
  int count;
  int32_t spans[20];
} regex_case;

#include "regex_cases.h"

typedef struct extract_case {
  const char *pattern;
  const char *subject;
  int groups;
  int matched;
  int32_t spans[16];
} extract_case;

typedef struct replace_case {
  const char *pattern;
  const char *tmpl;
  int64_t max_count;
  const char *subject;
  const char *want;
  int64_t want_size;
} replace_case;

typedef struct bad_template {
  const char *pattern;
  const char *tmpl;
} bad_template;

#include "regex_ops_cases.h"

typedef struct split_case {
  const char *pattern;
  unsigned flags;
  const char *subject;
  int kind; /* gcol_detail_regex_pieces_kind */
  int64_t max_splits;
  int count;
  int first; /* the case's spans: split_spans[2 * first ..] */
} split_case;

#include "regex_split_cases.h"

#define NUM(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

/* Runs the VM with every slot; scratch sized for the program. */
static bool vm_exec(const gcol_detail_regex_prog *prog, const char *s, int64_t n, int64_t start,
                    bool anchored, int64_t not_empty_at, int32_t nslots, int32_t *caps) {
  int32_t *scratch =
      (int32_t *)malloc((size_t)gcol_detail_regex_scratch_ints(prog, nslots) * sizeof(int32_t));
  assert_non_null(scratch);
  bool const m =
      gcol_detail_regex_exec(prog, s, n, start, anchored, not_empty_at, nslots, scratch, caps);
  free(scratch);
  return m;
}

static int32_t vm_count(const gcol_detail_regex_prog *prog, const char *s, int64_t n) {
  int32_t *scratch =
      (int32_t *)malloc((size_t)gcol_detail_regex_scratch_ints(prog, 2) * sizeof(int32_t));
  assert_non_null(scratch);
  int32_t const c = gcol_detail_regex_count(prog, s, n, scratch);
  free(scratch);
  return c;
}

/* ---------------------------------------------------------------- prefilter */

/* The first-byte sets of gcol_detail_regex_first_bytes: on where every match begins with
 * an ASCII byte of the set, off where a match may be empty or begin otherwise. */
static void test_first_byte_prefilter(void **state) {
  (void)state;
  struct {
    const char *pattern;
    uint32_t flags;
    const char *set; /* NULL: no prefilter */
  } const cases[] = {
      {"[a-c]q+z", 0, "abc"},  {"q[a-z]", 0, "q"},     {"[,;]", 0, ",;"},
      {"q+", 0, "q"},          {"a*b", 0, "ab"},       {"\\bfoo|bar", 0, "bf"},
      {"x", GCOL_REGEX_IGNORECASE, "xX"},              {"(a|b)?c", 0, "abc"},
      {"a|", 0, NULL},         {"a*", 0, NULL},        {".x", 0, NULL},
      {"$", 0, NULL},          {"\xe9", 0, NULL},     {"[^a]", 0, NULL},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    gcol_detail_regex_host h;
    GCOL_TEST_OK(gcol_detail_regex_compile(cases[k].pattern, (int64_t)strlen(cases[k].pattern),
                                           cases[k].flags, &h));
    if (cases[k].set == NULL) {
      if (h.prog.has_first) fail_msg("'%s': a prefilter where none may be", cases[k].pattern);
    } else {
      if (!h.prog.has_first) fail_msg("'%s': no prefilter", cases[k].pattern);
      for (int b = 0; b < 256; ++b) {
        bool const want = b > 0 && strchr(cases[k].set, b) != NULL;
        if (gcol_detail_regex_may_begin(&h.prog, (unsigned char)b) != want) {
          fail_msg("'%s': byte %d %s the set", cases[k].pattern, b, want ? "missing from" : "in");
        }
      }
    }
    gcol_detail_regex_host_free(&h);
  }
}

/* ---------------------------------------------------------------- known answers */

static void test_python_known_answers(void **state) {
  (void)state;
  for (int64_t k = 0; k < NUM(regex_cases); ++k) {
    regex_case const *c = &regex_cases[k];
    gcol_detail_regex_host h;
    int32_t caps[20];
    int64_t const n = (int64_t)strlen(c->subject);
    GCOL_TEST_OK(gcol_detail_regex_compile(c->pattern, (int64_t)strlen(c->pattern), c->flags, &h));
    assert_int_equal(h.prog.num_groups, c->groups);
    int32_t const nslots = 2 * (c->groups + 1);
    bool const m = vm_exec(&h.prog, c->subject, n, 0, false, -1, nslots, caps);
    bool const any = vm_exec(&h.prog, c->subject, n, 0, false, -1, 0, NULL);
    int32_t const count = vm_count(&h.prog, c->subject, n);
    bool ok = m == (c->matched != 0) && any == m && count == c->count;
    for (int32_t j = 0; ok && m && j < nslots; ++j) ok = caps[j] == c->spans[j];
    if (!ok) {
      fail_msg(
          "case %lld: /%s/ flags %u on \"%s\": matched %d (want %d), count %d (want %d), "
          "span %d..%d (want %d..%d)",
          (long long)k, c->pattern, c->flags, c->subject, m, c->matched, count, c->count,
          m ? caps[0] : -1, m ? caps[1] : -1, c->spans[0], c->spans[1]);
    }
    gcol_detail_regex_host_free(&h);
  }
}

/* ---------------------------------------------------------------- compile errors */

static void expect_error(const char *pattern, uint32_t flags, gcol_status want, const char *text) {
  gcol_regex *re = (gcol_regex *)(uintptr_t)1;
  gcol_status const st = gcol_regex_compile(pattern, -1, flags, &re);
  if (st != want) {
    fail_msg("/%s/: %s (want %s): %s", pattern, gcol_status_string(st), gcol_status_string(want),
             gcol_last_error());
  }
  assert_null(re);
  if (text != NULL && strstr(gcol_last_error(), text) == NULL) {
    fail_msg("/%s/: message \"%s\" lacks \"%s\"", pattern, gcol_last_error(), text);
  }
}

static void test_compile_errors(void **state) {
  (void)state;
  for (int64_t k = 0; k < NUM(regex_errors); ++k) {
    expect_error(regex_errors[k], 0, GCOL_ERROR_INVALID_ARGUMENT, "byte");
  }
  expect_error("ab(c", 0, GCOL_ERROR_INVALID_ARGUMENT, "unterminated subpattern at byte 2");
  expect_error("a)b", 0, GCOL_ERROR_INVALID_ARGUMENT, "unbalanced parenthesis at byte 1");
  expect_error("x[a", 0, GCOL_ERROR_INVALID_ARGUMENT, "unterminated character set at byte 1");
  expect_error("ab**", 0, GCOL_ERROR_INVALID_ARGUMENT, "multiple repeat at byte 3");
  expect_error("a\\q", 0, GCOL_ERROR_INVALID_ARGUMENT, "bad escape at byte 1");
  expect_error("\\x4", 0, GCOL_ERROR_INVALID_ARGUMENT, "incomplete escape");
  expect_error("(a)\\1", 0, GCOL_ERROR_UNSUPPORTED, "backreferences");
  expect_error("a(?=b)", 0, GCOL_ERROR_UNSUPPORTED, "lookaround");
  expect_error("(?<!b)", 0, GCOL_ERROR_UNSUPPORTED, "lookaround");
  expect_error("(?i)a", 0, GCOL_ERROR_UNSUPPORTED, "inline flags");
  expect_error("a*+", 0, GCOL_ERROR_UNSUPPORTED, "possessive");
  expect_error("a{1001}", 0, GCOL_ERROR_OVERFLOW, "above 1000");
  expect_error("(?:a{1000}){1000}", 0, GCOL_ERROR_OVERFLOW, "2000 instructions");
  expect_error("a", 8, GCOL_ERROR_INVALID_ARGUMENT, "unknown flags");
  char deep[1024], groups[1024];
  int64_t d = 0, g = 0;
  for (int i = 0; i < 201; ++i) {
    memcpy(deep + d, "(?:", 3);
    d += 3;
  }
  for (int i = 0; i < 201; ++i) deep[d++] = ')';
  deep[d] = 0;
  expect_error(deep, 0, GCOL_ERROR_OVERFLOW, "nested too deeply");
  for (int i = 0; i < 65; ++i) {
    groups[g++] = '(';
    groups[g++] = ')';
  }
  groups[g] = 0;
  expect_error(groups, 0, GCOL_ERROR_OVERFLOW, "too many groups");
  /* empty-capable repetitions nested 17 deep: over the cap; 16 compile */
  char loops[256];
  int64_t l = 0;
  for (int i = 0; i < 17; ++i) {
    memcpy(loops + l, "(?:a?", 5);
    l += 5;
  }
  for (int i = 0; i < 17; ++i) {
    memcpy(loops + l, ")*", 2);
    l += 2;
  }
  loops[l] = 0;
  expect_error(loops, 0, GCOL_ERROR_OVERFLOW, "nested 17 deep");
  {
    gcol_regex *ok = NULL;
    GCOL_TEST_OK(gcol_regex_compile(loops + 5, (int64_t)strlen(loops + 5) - 2, 0, &ok));
    gcol_regex_free(ok);
  }
  groups[2 * 64] = 0; /* 64 groups compile */
  gcol_regex *re = NULL;
  GCOL_TEST_OK(gcol_regex_compile(groups, -1, 0, &re));
  assert_int_equal(gcol_regex_num_groups(re), 64);
  gcol_regex_free(re);
  GCOL_TEST_STATUS(gcol_regex_compile(NULL, 0, 0, &re), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_regex_compile("a", 0, 0, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_regex_compile("a", -2, 0, &re), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_regex_free(NULL);
  assert_int_equal(gcol_regex_num_groups(NULL), 0);
  /* a NUL inside a sized pattern is a literal */
  GCOL_TEST_OK(gcol_regex_compile("a\0b", 3, 0, &re));
  int32_t caps[2];
  assert_true(vm_exec(&re->host.prog, "xa\0b", 4, 0, false, -1, 2, caps));
  assert_int_equal(caps[0], 1);
  assert_int_equal(caps[1], 4);
  gcol_regex_free(re);
}

/* ---------------------------------------------------------------- the backtracker */

enum { F_LIT, F_ANY, F_CLASS, F_CAT, F_ALT, F_REP, F_GROUP, F_ASSERT };

typedef struct fnode {
  int kind;
  uint32_t cp;        /* LIT */
  int nkids, kids[4]; /* CAT, ALT; REP and GROUP use kids[0] */
  int min, max;       /* REP (max -1: unbounded) */
  bool greedy;
  int group;       /* GROUP: index, -1 non-capturing */
  int assert_kind; /* ASSERT: a gcol_detail_regex_assert */
  int nitems;      /* CLASS: items (lo, hi) or shorthand (lo = 0, hi = 'd', 'w', 's', 'W') */
  uint32_t lo[4], hi[4];
  bool negated;
} fnode;

typedef struct fuzz_pattern {
  fnode nodes[64];
  int num_nodes, groups;
  char text[512];
  int len;
} fuzz_pattern;

typedef struct bt_ctx {
  const fuzz_pattern *fp;
  uint32_t flags;
  uint32_t cps[64];
  int64_t offs[65]; /* byte offset of each character, and the end */
  int n;
  int caps[2 * 20];
  int start, end, forbid;
} bt_ctx;

typedef struct bt_k {
  int kind; /* 0 CAT, 1 GROUP end, 2 REP iteration end */
  const fnode *node;
  int i, a;
  const struct bt_k *up;
} bt_k;

static bool is_word(uint32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool in_items(const fnode *x, uint32_t c) {
  for (int i = 0; i < x->nitems; ++i) {
    if (x->lo[i] == 0) {
      bool const d = c >= '0' && c <= '9';
      bool const s = c == ' ' || (c >= 9 && c <= 13);
      bool const hit = x->hi[i] == 'd'   ? d
                       : x->hi[i] == 'w' ? is_word(c)
                       : x->hi[i] == 's' ? s
                                         : !is_word(c);
      if (hit) return true;
    } else if (c >= x->lo[i] && c <= x->hi[i]) {
      return true;
    }
  }
  return false;
}

static uint32_t other_case(uint32_t c) {
  if (c >= 'a' && c <= 'z') return c - 32;
  if (c >= 'A' && c <= 'Z') return c + 32;
  return c;
}

static bool bt_accepts(const bt_ctx *c, const fnode *x, uint32_t ch) {
  bool const icase = (c->flags & GCOL_REGEX_IGNORECASE) != 0;
  switch (x->kind) {
    case F_LIT:
      return ch == x->cp || (icase && other_case(ch) == x->cp);
    case F_ANY:
      return ch != '\n' || (c->flags & GCOL_REGEX_DOTALL);
    default: {
      bool const hit = in_items(x, ch) || (icase && in_items(x, other_case(ch)));
      return hit != x->negated;
    }
  }
}

static bool bt_assert(const bt_ctx *c, int kind, int i) {
  bool const ml = (c->flags & GCOL_REGEX_MULTILINE) != 0;
  switch (kind) {
    case GCOL_DETAIL_RX_BOL:
      return i == 0 || (ml && c->cps[i - 1] == '\n');
    case GCOL_DETAIL_RX_EOL:
      return i == c->n || (ml ? c->cps[i] == '\n' : (i == c->n - 1 && c->cps[i] == '\n'));
    case GCOL_DETAIL_RX_TEXT_BEGIN:
      return i == 0;
    case GCOL_DETAIL_RX_TEXT_END:
      return i == c->n;
    default: {
      if (c->n == 0) return false; /* Python before 3.14 */
      bool const b = (i > 0 && is_word(c->cps[i - 1])) != (i < c->n && is_word(c->cps[i]));
      return b == (kind == GCOL_DETAIL_RX_WORD);
    }
  }
}

static bool bt(bt_ctx *c, const fnode *x, int pos, const bt_k *k);

static bool bt_cont(bt_ctx *c, const bt_k *k, int pos) {
  if (k == NULL) {
    if (pos == c->forbid && pos == c->start) return false;
    c->end = pos;
    return true;
  }
  const fnode *x = k->node;
  if (k->kind == 0) {
    if (k->i == x->nkids) return bt_cont(c, k->up, pos);
    bt_k const next = {0, x, k->i + 1, 0, k->up};
    return bt(c, &c->fp->nodes[x->kids[k->i]], pos, &next);
  }
  if (k->kind == 1) {
    int const g = x->group, old0 = c->caps[2 * g], old1 = c->caps[2 * g + 1];
    c->caps[2 * g] = k->a;
    c->caps[2 * g + 1] = pos;
    if (bt_cont(c, k->up, pos)) return true;
    c->caps[2 * g] = old0;
    c->caps[2 * g + 1] = old1;
    return false;
  }
  /* iteration k->i of a repeat ended; Python's rule (sre's MAX_UNTIL and MIN_UNTIL): one
   * beyond the minimum that consumed nothing ends the repeat, only the tail follows */
  if (k->i > x->min && pos == k->a) return bt_cont(c, k->up, pos);
  bool const more = x->max < 0 || k->i < x->max, stop = k->i >= x->min;
  bt_k const next = {2, x, k->i + 1, pos, k->up};
  const fnode *body = &c->fp->nodes[x->kids[0]];
  if (x->greedy) return (more && bt(c, body, pos, &next)) || (stop && bt_cont(c, k->up, pos));
  return (stop && bt_cont(c, k->up, pos)) || (more && bt(c, body, pos, &next));
}

static bool bt(bt_ctx *c, const fnode *x, int pos, const bt_k *k) {
  switch (x->kind) {
    case F_LIT:
    case F_ANY:
    case F_CLASS:
      return pos < c->n && bt_accepts(c, x, c->cps[pos]) && bt_cont(c, k, pos + 1);
    case F_ASSERT:
      return bt_assert(c, x->assert_kind, pos) && bt_cont(c, k, pos);
    case F_CAT: {
      bt_k const first = {0, x, 0, 0, k};
      return bt_cont(c, &first, pos);
    }
    case F_ALT:
      for (int i = 0; i < x->nkids; ++i) {
        if (bt(c, &c->fp->nodes[x->kids[i]], pos, k)) return true;
      }
      return false;
    case F_GROUP: {
      if (x->group < 0) return bt(c, &c->fp->nodes[x->kids[0]], pos, k);
      bt_k const end = {1, x, 0, pos, k};
      return bt(c, &c->fp->nodes[x->kids[0]], pos, &end);
    }
    default: { /* REP: "iteration 0 ended" at pos */
      bt_k const zero = {2, x, 0, -1, k};
      return bt_cont(c, &zero, pos);
    }
  }
}

/* Leftmost-first search from character `from` (only there when anchored); caps in bytes. */
static bool bt_search(bt_ctx *c, int from, bool anchored, int forbid, int32_t *caps) {
  c->forbid = forbid;
  for (int s = from; s <= c->n; ++s) {
    for (int j = 0; j < 2 * 20; ++j) c->caps[j] = -1;
    c->start = s;
    if (bt(c, &c->fp->nodes[0], s, NULL)) {
      caps[0] = (int32_t)c->offs[s];
      caps[1] = (int32_t)c->offs[c->end];
      for (int g = 1; g <= c->fp->groups; ++g) {
        caps[2 * g] = c->caps[2 * g] < 0 ? -1 : (int32_t)c->offs[c->caps[2 * g]];
        caps[2 * g + 1] = c->caps[2 * g + 1] < 0 ? -1 : (int32_t)c->offs[c->caps[2 * g + 1]];
      }
      return true;
    }
    if (anchored) break;
  }
  return false;
}

static int bt_count(bt_ctx *c) {
  int pos = 0, count = 0;
  bool last_empty = false;
  int32_t caps[2 * 20];
  while (pos <= c->n && bt_search(c, pos, false, last_empty ? pos : -1, caps)) {
    ++count;
    last_empty = c->start == c->end;
    pos = c->end;
  }
  return count;
}

/* ---------------------------------------------------------------- random patterns */

static const uint32_t lit_cps[] = {'a', 'b', 'c', 'A', '1', '\n', ' ', 0xE9, 0x20AC, 0x10FFFF, '.'};

static void put(fuzz_pattern *fp, const char *s) {
  size_t const l = strlen(s);
  memcpy(fp->text + fp->len, s, l);
  fp->len += (int)l;
}

static void put_cp(fuzz_pattern *fp, uint32_t cp) {
  if (cp == '\n') {
    put(fp, "\\n");
  } else if (cp == '.') {
    put(fp, "\\.");
  } else {
    fp->len += gcol_utf8_encode(cp, fp->text + fp->len);
  }
}

static int new_fnode(fuzz_pattern *fp, int kind) {
  fnode *x = &fp->nodes[fp->num_nodes];
  memset(x, 0, sizeof *x);
  x->kind = kind;
  x->group = -1;
  return fp->num_nodes++;
}

static void gen_class(gcol_test_rng *r, fuzz_pattern *fp, fnode *x) {
  static const char *const shorts[] = {"\\d", "\\w", "\\s", "\\W"};
  static const char short_kind[] = {'d', 'w', 's', 'W'};
  if (gcol_test_rng_range(r, 0, 2) == 0) { /* a shorthand alone */
    int const k = (int)gcol_test_rng_range(r, 0, 3);
    x->nitems = 1;
    x->lo[0] = 0;
    x->hi[0] = (uint32_t)short_kind[k];
    put(fp, shorts[k]);
    return;
  }
  x->negated = gcol_test_rng_range(r, 0, 2) == 0;
  put(fp, x->negated ? "[^" : "[");
  x->nitems = (int)gcol_test_rng_range(r, 1, 3);
  for (int i = 0; i < x->nitems; ++i) {
    int64_t const what = gcol_test_rng_range(r, 0, 5);
    if (what == 0) {
      int const k = (int)gcol_test_rng_range(r, 0, 3);
      x->lo[i] = 0;
      x->hi[i] = (uint32_t)short_kind[k];
      put(fp, shorts[k]);
    } else if (what == 1) {
      x->lo[i] = 'a';
      x->hi[i] = 'c';
      put(fp, "a-c");
    } else if (what == 2) {
      x->lo[i] = 0xE9;
      x->hi[i] = 0x20AC;
      put(fp, "\xc3\xa9-\xe2\x82\xac");
    } else {
      x->lo[i] = x->hi[i] = lit_cps[gcol_test_rng_range(r, 0, NUM(lit_cps) - 1)];
      put_cp(fp, x->lo[i]);
    }
  }
  put(fp, "]");
}

static int gen(gcol_test_rng *r, fuzz_pattern *fp, int depth, bool atomic);

/* A repeat of an atom, with its quantifier text. */
static int gen_rep(gcol_test_rng *r, fuzz_pattern *fp, int depth) {
  int const id = new_fnode(fp, F_REP);
  fp->nodes[id].kids[0] = gen(r, fp, depth + 1, true);
  fnode *x = &fp->nodes[id];
  char q[32];
  switch (gcol_test_rng_range(r, 0, 5)) {
    case 0:
      x->min = 0;
      x->max = -1;
      strcpy(q, "*");
      break;
    case 1:
      x->min = 1;
      x->max = -1;
      strcpy(q, "+");
      break;
    case 2:
      x->min = 0;
      x->max = 1;
      strcpy(q, "?");
      break;
    case 3:
      x->min = x->max = (int)gcol_test_rng_range(r, 0, 2);
      sprintf(q, "{%d}", x->min);
      break;
    case 4:
      x->min = (int)gcol_test_rng_range(r, 0, 2);
      x->max = -1;
      sprintf(q, "{%d,}", x->min);
      break;
    default:
      x->min = (int)gcol_test_rng_range(r, 0, 2);
      x->max = x->min + (int)gcol_test_rng_range(r, 0, 2);
      sprintf(q, "{%d,%d}", x->min, x->max);
  }
  x->greedy = gcol_test_rng_range(r, 0, 2) != 0;
  put(fp, q);
  if (!x->greedy) put(fp, "?");
  return id;
}

/* A random node; atomic: something a quantifier may follow (else wrapped in a group). */
static int gen(gcol_test_rng *r, fuzz_pattern *fp, int depth, bool atomic) {
  int64_t const pick = depth >= 3 || fp->num_nodes > 40 ? gcol_test_rng_range(r, 0, 2)
                                                        : gcol_test_rng_range(r, 0, 9);
  if (pick <= 1) {
    int const id = new_fnode(fp, F_LIT);
    fp->nodes[id].cp = lit_cps[gcol_test_rng_range(r, 0, NUM(lit_cps) - 1)];
    put_cp(fp, fp->nodes[id].cp);
    return id;
  }
  if (pick == 2) {
    int const id = new_fnode(fp, gcol_test_rng_range(r, 0, 2) == 0 ? F_ANY : F_CLASS);
    if (fp->nodes[id].kind == F_ANY)
      put(fp, ".");
    else
      gen_class(r, fp, &fp->nodes[id]);
    return id;
  }
  if (pick == 3 && !atomic) {
    static const char *const texts[] = {"^", "$", "\\A", "\\Z", "\\b", "\\B"};
    int const k = (int)gcol_test_rng_range(r, 0, 5);
    int const id = new_fnode(fp, F_ASSERT);
    fp->nodes[id].assert_kind = k;
    put(fp, texts[k]);
    return id;
  }
  if (pick == 4 && !atomic) return gen_rep(r, fp, depth);
  int const group = new_fnode(fp, F_GROUP);
  if (gcol_test_rng_range(r, 0, 2) != 0 && fp->groups < 9) fp->nodes[group].group = ++fp->groups;
  put(fp, fp->nodes[group].group >= 0 ? "(" : "(?:");
  int const kind = pick <= 6 ? F_CAT : F_ALT;
  int const inner = new_fnode(fp, kind);
  int const kids = (int)gcol_test_rng_range(r, kind == F_ALT ? 2 : 0, 3);
  for (int i = 0; i < kids; ++i) {
    if (kind == F_ALT && i > 0) put(fp, "|");
    int const kid = kind == F_ALT ? gen(r, fp, depth + 1, false) : gen(r, fp, depth + 1, false);
    fp->nodes[inner].kids[fp->nodes[inner].nkids++] = kid;
  }
  put(fp, ")");
  fp->nodes[group].kids[0] = inner;
  return group;
}

static void gen_pattern(gcol_test_rng *r, fuzz_pattern *fp) {
  memset(fp, 0, sizeof *fp);
  int const root = new_fnode(fp, F_CAT); /* node 0 */
  int const kids = (int)gcol_test_rng_range(r, 1, 4);
  for (int i = 0; i < kids; ++i)
    fp->nodes[root].kids[fp->nodes[root].nkids++] = gen(r, fp, 0, false);
  fp->text[fp->len] = 0;
}

static const char *const subject_pieces[] = {
    "a",    "b", "c", "A", "1", "\n", " ", "_", "\xc3\xa9", "\xe2\x82\xac", "\xf4\x8f\xbf\xbf",
    "\x80", "."};

/* The ASCII pieces: the first ones. */
#define ASCII_PIECES 8

static int64_t gen_subject_of(gcol_test_rng *r, char *out, bt_ctx *c, int64_t pieces) {
  int64_t n = 0;
  int const chars = (int)gcol_test_rng_range(r, 0, 10);
  for (int k = 0; k < chars; ++k) {
    const char *p = subject_pieces[gcol_test_rng_range(r, 0, pieces - 1)];
    memcpy(out + n, p, strlen(p));
    n += (int64_t)strlen(p);
  }
  c->n = 0;
  for (int64_t p = 0; p < n;) { /* the backtracker's characters */
    gcol_utf8_char const d = gcol_utf8_decode(out + p, n - p);
    c->offs[c->n] = p;
    c->cps[c->n++] = d.code_point;
    p += d.length;
  }
  c->offs[c->n] = n;
  return n;
}

static int64_t gen_subject(gcol_test_rng *r, char *out, bt_ctx *c) {
  return gen_subject_of(r, out, c, NUM(subject_pieces));
}

static void compare(const fuzz_pattern *fp, uint32_t flags, const char *s, int64_t n, bool vm_m,
                    bool bt_m, const int32_t *vm_caps, const int32_t *bt_caps, const char *what) {
  bool ok = vm_m == bt_m;
  for (int j = 0; ok && vm_m && j < 2 * (fp->groups + 1); ++j) ok = vm_caps[j] == bt_caps[j];
  if (ok) return;
  char hex[256];
  int h = 0;
  for (int64_t i = 0; i < n && h < 240; ++i) h += sprintf(hex + h, "%02x", (unsigned char)s[i]);
  hex[h] = 0;
  int g = 0;
  while (g < 2 * (fp->groups + 1) && (!vm_m || vm_caps[g] == bt_caps[g])) ++g;
  fail_msg("%s /%s/ flags %u on bytes %s: vm %d, backtracker %d; slot %d: vm %d, bt %d", what,
           fp->text, flags, hex, vm_m, bt_m, g, vm_m ? vm_caps[g] : -1, bt_m ? bt_caps[g] : -1);
}

static void test_fuzz_against_backtracker(void **state) {
  (void)state;
  /* The run's seed (GCOL_TEST_SEED); GCOL_REGEX_FUZZ_SEED, when set, seeds the fuzzer
   * directly instead (the generator's state, as the fixed seed 1301 of earlier versions). */
  gcol_test_rng rng = gcol_test_rng_make(1301);
  if (getenv("GCOL_REGEX_FUZZ_SEED"))
    rng.state = strtoull(getenv("GCOL_REGEX_FUZZ_SEED"), NULL, 10);
  static fuzz_pattern fp;
  static bt_ctx c;
  char s[64];
  int32_t vm_caps[20], bt_caps[20];
  for (int iter = 0; iter < 4000; ++iter) {
    gen_pattern(&rng, &fp);
    uint32_t const flags = (uint32_t)gcol_test_rng_range(&rng, 0, 7);
    gcol_detail_regex_host h;
    GCOL_TEST_OK(gcol_detail_regex_compile(fp.text, fp.len, flags, &h));
    assert_int_equal(h.prog.num_groups, fp.groups);
    c.fp = &fp;
    c.flags = flags;
    int32_t const nslots = 2 * (fp.groups + 1);
    for (int t = 0; t < 8; ++t) {
      int64_t const n = gen_subject(&rng, s, &c);
      bool const vm_m = vm_exec(&h.prog, s, n, 0, false, -1, nslots, vm_caps);
      bool const bt_m = bt_search(&c, 0, false, -1, bt_caps);
      compare(&fp, flags, s, n, vm_m, bt_m, vm_caps, bt_caps, "search");
      assert_int_equal(vm_exec(&h.prog, s, n, 0, false, -1, 0, NULL), bt_m);
      bool const vm_a = vm_exec(&h.prog, s, n, 0, true, -1, nslots, vm_caps);
      bool const bt_a = bt_search(&c, 0, true, -1, bt_caps);
      compare(&fp, flags, s, n, vm_a, bt_a, vm_caps, bt_caps, "match");
      int const want = bt_count(&c);
      if (vm_count(&h.prog, s, n) != want) {
        fail_msg("count /%s/ flags %u: vm %d, backtracker %d", fp.text, flags,
                 vm_count(&h.prog, s, n), want);
      }
    }
    gcol_detail_regex_host_free(&h);
  }
}

/* ---------------------------------------------------------------- the DFA */

/* The DFA's answer (regex_match.h) for a search or a match at 0 against the backtracker's,
 * where it gives one; returns whether it did. */
static bool dfa_check(const fuzz_pattern *fp, uint32_t flags, const gcol_detail_regex_prog *prog,
                      bt_ctx *c, const char *s, int64_t n, bool anchored) {
  int32_t caps[2 * 20];
  int const d = gcol_detail_regex_dfa_decide(prog, anchored, s, n, 0);
  for (int off = 1; off < 4; ++off) { /* the same from every alignment (a word at a time) */
    uint32_t words[24];
    char *const at = (char *)words + off;
    memcpy(at, s, (size_t)n);
    if (gcol_detail_regex_dfa_decide(prog, anchored, at, n, 0) != d) {
      fail_msg("dfa /%s/ flags %u: another answer at alignment %d", fp->text, flags, off);
    }
  }
  if (anchored && n > 0) { /* a match at a later byte: the VM's */
    assert_int_equal(gcol_detail_regex_dfa_decide(prog, true, s, n, c->offs[c->n]), -1);
  }
  bool decided = false;
  for (int from = 0; from <= (anchored ? 0 : c->n); ++from) { /* a search from each character */
    int const e = gcol_detail_regex_dfa_decide(prog, anchored, s, n, c->offs[from]);
    if (e < 0) continue;
    decided = true;
    bool const want = bt_search(c, from, anchored, -1, caps);
    if ((e == 1) != want) {
      char hex[256];
      int h = 0;
      for (int64_t i = 0; i < n && h < 240; ++i) h += sprintf(hex + h, "%02x", (unsigned char)s[i]);
      hex[h] = 0;
      fail_msg("dfa %s /%s/ flags %u on bytes %s from byte %lld: dfa %d, backtracker %d",
               anchored ? "match" : "search", fp->text, flags, hex, (long long)c->offs[from], e,
               want);
    }
  }
  return d >= 0 && decided;
}

/* Whether the program has a \b or \B (no DFA). */
static bool has_word_assert(const gcol_detail_regex_prog *prog) {
  for (int32_t pc = 0; pc < prog->num_insts; ++pc) {
    gcol_detail_regex_inst const in = prog->insts[pc];
    if (in.op == GCOL_DETAIL_RX_ASSERT &&
        (in.x == GCOL_DETAIL_RX_WORD || in.x == GCOL_DETAIL_RX_NOT_WORD)) {
      return true;
    }
  }
  return false;
}

/* The DFA against the backtracker on random patterns: every program without \b, \B gets one
 * unless its table passes the cap; its answers on ASCII subjects (and on the others, where
 * it gives one) are the backtracker's; a byte >= 0x80 leaves the row to the VM. */
static void test_dfa_fuzz_against_backtracker(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(2203);
  if (getenv("GCOL_REGEX_FUZZ_SEED"))
    rng.state = strtoull(getenv("GCOL_REGEX_FUZZ_SEED"), NULL, 10);
  static fuzz_pattern fp;
  static bt_ctx c;
  char s[64];
  int64_t eligible = 0, with_dfa = 0, decided = 0, rows = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    gen_pattern(&rng, &fp);
    uint32_t const flags = (uint32_t)gcol_test_rng_range(&rng, 0, 7);
    gcol_detail_regex_host h;
    GCOL_TEST_OK(gcol_detail_regex_compile(fp.text, fp.len, flags, &h));
    c.fp = &fp;
    c.flags = flags;
    eligible += !has_word_assert(&h.prog);
    if (has_word_assert(&h.prog)) {
      if (h.prog.dfa_stride != 0) fail_msg("/%s/: a DFA with \\b or \\B", fp.text);
    } else if (h.prog.dfa_stride != 0) {
      ++with_dfa;
      int64_t const bytes = (int64_t)h.prog.dfa_states[0] * h.prog.dfa_stride * 2;
      assert_true(bytes <= GCOL_DETAIL_REGEX_DFA_MAX_BYTES);
      for (int t = 0; t < 16; ++t) {
        int64_t const pieces = t % 4 == 3 ? NUM(subject_pieces) : ASCII_PIECES;
        int64_t const n = gen_subject_of(&rng, s, &c, pieces);
        rows += 2;
        decided += dfa_check(&fp, flags, &h.prog, &c, s, n, false);
        decided += dfa_check(&fp, flags, &h.prog, &c, s, n, true);
      }
    }
    gcol_detail_regex_host_free(&h);
  }
  /* the DFA is not vacuous: nearly every program without \b, \B has one, and it decides
   * most rows (three in four are ASCII) */
  print_message("# dfa: %lld of %lld programs without \\b, \\B; %lld of %lld rows decided\n",
                (long long)with_dfa, (long long)eligible, (long long)decided, (long long)rows);
  assert_true(with_dfa * 10 >= eligible * 9);
  assert_true(decided * 10 >= rows * 6);
}

/* Which programs get a DFA, and answers around its limits: ^ and $ with and without
 * MULTILINE (a final \n left to the VM), a non-ASCII byte (the VM), the cap. */
static void test_dfa_known_answers(void **state) {
  (void)state;
  struct {
    const char *pattern;
    uint32_t flags;
    const char *subject;
    int search, match; /* dfa_decide's answers; 9: no DFA */
  } const cases[] = {
      {"[a-c]q+z", 0, "xxbqqqzyy", 1, 0},
      {"[a-c]q+z", 0, "xxbqqqyzy", 0, 0},
      {"q[a-z]", 0, "qa", 1, 1},
      {"q[a-z]", 0, "aq", 0, 0},
      {"[,;]", 0, "abc", 0, 0},
      {"[,;]", 0, "a;c", 1, 0},
      {"q+", 0, "", 0, 0},
      {"a*", 0, "", 1, 1},
      {"^ab", 0, "ab", 1, 1},
      {"^b", 0, "a\nb", 0, 0},
      {"^b", GCOL_REGEX_MULTILINE, "a\nb", 1, 0},
      {"a$", 0, "a", 1, 1},
      {"a$", 0, "a\n", -1, -1}, /* $ before a final \n: the VM's */
      {"a$", 0, "a\nb", 0, 0},
      {"a$", GCOL_REGEX_MULTILINE, "a\nb", 1, 1},
      {"a\\Z", 0, "a\n", 0, 0},
      {"\\Aa", 0, "ba", 0, 0},
      {"(?:a|\\A)b", 0, "b", 1, 1},
      {"a.c", 0, "a\nc", 0, 0},
      {"a.c", GCOL_REGEX_DOTALL, "a\nc", 1, 1},
      {"A", GCOL_REGEX_IGNORECASE, "xa", 1, 0},
      {"a", 0, "\303\251a", -1, -1}, /* a non-ASCII byte (U+00E9) before any answer */
      {"a", 0, "a\303\251", 1, 1},   /* the answer comes first */
      {"\\bfoo", 0, "foo", 9, 9},
      {"foo\\B", 0, "foo", 9, 9},
      {"(?:a|b)*a[ab]{12}", 0, "ab", 9, 9}, /* 2^13 states: past the cap */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    gcol_detail_regex_host h;
    const char *p = cases[k].pattern;
    GCOL_TEST_OK(gcol_detail_regex_compile(p, (int64_t)strlen(p), cases[k].flags, &h));
    int64_t const n = (int64_t)strlen(cases[k].subject);
    if (cases[k].search == 9) {
      if (h.prog.dfa_stride != 0) fail_msg("'%s': a DFA where none may be", p);
    } else {
      if (h.prog.dfa_stride == 0) fail_msg("'%s': no DFA", p);
      int const s = gcol_detail_regex_dfa_decide(&h.prog, false, cases[k].subject, n, 0);
      int const m = gcol_detail_regex_dfa_decide(&h.prog, true, cases[k].subject, n, 0);
      if (s != cases[k].search || m != cases[k].match) {
        fail_msg("'%s' on '%s': search %d (want %d), match %d (want %d)", p, cases[k].subject, s,
                 cases[k].search, m, cases[k].match);
      }
    }
    /* the VM (through gcol_detail_regex_exec and alone) agrees where the DFA answered */
    int32_t *scratch =
        (int32_t *)malloc((size_t)gcol_detail_regex_scratch_ints(&h.prog, 0) * sizeof(int32_t));
    assert_non_null(scratch);
    for (int a = 0; a < 2; ++a) {
      int const want = a ? cases[k].match : cases[k].search;
      bool const vm =
          gcol_detail_regex_exec_vm(&h.prog, cases[k].subject, n, 0, a, -1, 0, scratch, NULL);
      bool const both =
          gcol_detail_regex_exec(&h.prog, cases[k].subject, n, 0, a, -1, 0, scratch, NULL);
      if (vm != both || (want == 0 && vm) || (want == 1 && !vm)) {
        fail_msg("'%s' on '%s' (%s): vm %d, exec %d, dfa %d", p, cases[k].subject,
                 a ? "match" : "search", vm, both, want);
      }
    }
    free(scratch);
    gcol_detail_regex_host_free(&h);
  }
}

/* Programs of character sets in sequence, the last one maybe repeated greedily (X+): a
 * search's span comes from the DFA alone (dfa_fixed, dfa_plus). Against the VM alone, on
 * random such sequences, from every character of random subjects (1- to 4-byte characters,
 * invalid bytes); and which programs are in the class. */
static void test_dfa_fixed_length(void **state) {
  (void)state;
  /* sets (first), alternatives of one length, assertions, and their lengths */
  static const struct {
    const char *text;
    int len;
  } atoms[] = {{"a", 1},   {"b", 1},      {"[ab]", 1},      {"[^a]", 1},      {".", 1},
               {"\\d", 1}, {"[a-c]", 1},  {"A", 1},         {"\\n", 1},       {"_", 1},
               {"\\s", 1}, {"[\\w.]", 1}, {"(?:ab|c.)", 2}, {"(?:a|\\d)", 1}, {"^", 0},
               {"$", 0},   {"\\A", 0},    {"\\Z", 0},       {"(?:a|b|)", -1}};
  int64_t const sets = 12;
  gcol_test_rng rng = gcol_test_rng_make(2207);
  static bt_ctx c;
  char s[64];
  int64_t from_dfa = 0, searches = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    char pattern[64];
    int len = 0;
    int const atoms_in = (int)gcol_test_rng_range(&rng, 1, 4);
    /* half the time sets alone, which may end in X+ */
    bool const only_sets = gcol_test_rng_range(&rng, 0, 1) != 0;
    int fixed = 0;
    for (int k = 0; k < atoms_in; ++k) {
      int64_t const a = gcol_test_rng_range(&rng, 0, only_sets ? sets - 1 : NUM(atoms) - 1);
      len += sprintf(pattern + len, "%s", atoms[a].text);
      fixed = fixed < 0 || atoms[a].len < 0 ? -1 : fixed + atoms[a].len;
    }
    bool const plus = only_sets && gcol_test_rng_range(&rng, 0, 1) != 0;
    if (plus) pattern[len++] = '+';
    pattern[len] = 0;
    if (fixed < 0) fixed = 0; /* lengths differ: not in the class */
    uint32_t const flags = (uint32_t)gcol_test_rng_range(&rng, 0, 7);
    gcol_detail_regex_host h;
    GCOL_TEST_OK(gcol_detail_regex_compile(pattern, len, flags, &h));
    if (h.prog.dfa_fixed != fixed || (h.prog.dfa_plus > 0) != plus) {
      fail_msg("/%s/ flags %u: dfa_fixed %d (want %d), dfa_plus %d", pattern, flags,
               h.prog.dfa_fixed, fixed, h.prog.dfa_plus);
    }
    int32_t *scratch =
        (int32_t *)malloc((size_t)gcol_detail_regex_scratch_ints(&h.prog, 2) * sizeof(int32_t));
    assert_non_null(scratch);
    for (int t = 0; t < 8; ++t) {
      int64_t const n = gen_subject_of(&rng, s, &c, t % 2 ? NUM(subject_pieces) : ASCII_PIECES);
      for (int from = 0; from <= c.n; ++from) {
        int64_t const start = c.offs[from];
        int32_t want[2] = {-1, -1}, got[2] = {-1, -1};
        bool const vm =
            gcol_detail_regex_exec_vm(&h.prog, s, n, start, false, -1, 2, scratch, want);
        bool const both = gcol_detail_regex_exec(&h.prog, s, n, start, false, -1, 2, scratch, got);
        ++searches;
        from_dfa += gcol_detail_regex_dfa_end(&h.prog, s, n, start) != -2;
        if (vm != both || (vm && (want[0] != got[0] || want[1] != got[1]))) {
          fail_msg("/%s/ flags %u from byte %lld of %lld: vm %d %d..%d, exec %d %d..%d", pattern,
                   flags, (long long)start, (long long)n, vm, want[0], want[1], both, got[0],
                   got[1]);
        }
      }
    }
    free(scratch);
    gcol_detail_regex_host_free(&h);
  }
  print_message("# fixed length: %lld of %lld searches by the DFA alone\n", (long long)from_dfa,
                (long long)searches);
  assert_true(from_dfa * 2 >= searches);
  static const char *const outside[] = {"(a)", "a|bc", "a+?", "a?",      "^",
                                        "a|",  "a\\b", "a*b", "a*",      "a+b",
                                        "(a)", "(a)+", "^a+", "(?:ab)+", "a{1,2}"};
  for (int64_t k = 0; k < NUM(outside); ++k) {
    gcol_detail_regex_host h;
    GCOL_TEST_OK(gcol_detail_regex_compile(outside[k], (int64_t)strlen(outside[k]), 0, &h));
    if (h.prog.dfa_fixed != 0) fail_msg("/%s/: dfa_fixed %d", outside[k], h.prog.dfa_fixed);
    gcol_detail_regex_host_free(&h);
  }
}

/*
 * Empty iterations, Python's answers (re.search(p, s).span() and group spans): an iteration
 * beyond the minimum that consumes nothing ends the repeat, the tail alone following it, and
 * the empty iteration counts (its captures stay). Nested loops that can match empty keep
 * leftmost-first priority ((?:[^c]*?)* on "__c": an earlier VM gave 0..1).
 */
typedef struct empty_case {
  const char *pattern, *subject;
  int groups;
  int32_t spans[8];
} empty_case;

static void test_empty_iterations(void **state) {
  (void)state;
  static const empty_case cases[] = {
      {"(?:[^c]*?)*", "__c", 0, {0, 0}},
      {"(a*)*", "b", 1, {0, 0, 0, 0}},
      {"(a*)+", "b", 1, {0, 0, 0, 0}},
      {"(a*?)*b", "aab", 1, {0, 3, 2, 2}},
      {"(?:a|())*", "aa", 1, {0, 2, 2, 2}},
      {"(?:x?)*y", "xxy", 0, {0, 3}},
      {"(?:(a)|())*", "a", 2, {0, 1, 0, 1, 1, 1}},
      {"(?:(x?)(?:(a)|())*)*", "x", 3, {0, 1, 1, 1, -1, -1, 1, 1}},
  };
  for (int64_t k = 0; k < NUM(cases); ++k) {
    empty_case const *c = &cases[k];
    gcol_detail_regex_host h;
    int32_t caps[8];
    GCOL_TEST_OK(gcol_detail_regex_compile(c->pattern, (int64_t)strlen(c->pattern), 0, &h));
    assert_int_equal(h.prog.num_groups, c->groups);
    int32_t const nslots = 2 * (c->groups + 1);
    assert_true(
        vm_exec(&h.prog, c->subject, (int64_t)strlen(c->subject), 0, false, -1, nslots, caps));
    for (int32_t j = 0; j < nslots; ++j) {
      if (caps[j] != c->spans[j]) {
        fail_msg("/%s/ on \"%s\": slot %d is %d (Python: %d)", c->pattern, c->subject, j, caps[j],
                 c->spans[j]);
      }
    }
    gcol_detail_regex_host_free(&h);
  }
}

/* ---------------------------------------------------------------- extract and replace */

static void test_extract_known_answers(void **state) {
  (void)state;
  for (int64_t k = 0; k < NUM(extract_cases); ++k) {
    extract_case const *c = &extract_cases[k];
    gcol_detail_regex_host h;
    int32_t spans[GCOL_DETAIL_REGEX_MAX_SLOTS];
    GCOL_TEST_OK(gcol_detail_regex_compile(c->pattern, (int64_t)strlen(c->pattern), 0, &h));
    assert_int_equal(h.prog.num_groups, c->groups);
    int32_t *scratch =
        (int32_t *)malloc((size_t)gcol_detail_regex_scratch_ints(&h.prog, 2 * (c->groups + 1)) * 4);
    assert_non_null(scratch);
    bool const m = gcol_detail_regex_extract_row(&h.prog, c->subject, (int64_t)strlen(c->subject),
                                                 scratch, spans);
    bool ok = m == (c->matched != 0);
    for (int32_t j = 0; ok && j < 2 * c->groups; ++j) ok = spans[j] == c->spans[j];
    if (!ok) {
      fail_msg(
          "extract case %lld: /%s/ on \"%s\": matched %d (want %d), group 1 %d..%d (want "
          "%d..%d)",
          (long long)k, c->pattern, c->subject, m, c->matched, spans[0], spans[1], c->spans[0],
          c->spans[1]);
    }
    free(scratch);
    gcol_detail_regex_host_free(&h);
  }
}

/* Python's re.sub through the count pass (no output) and the write pass. */
static void test_replace_known_answers(void **state) {
  (void)state;
  for (int64_t k = 0; k < NUM(replace_cases); ++k) {
    replace_case const *c = &replace_cases[k];
    gcol_detail_regex_host h;
    gcol_detail_regex_template_host t;
    GCOL_TEST_OK(gcol_detail_regex_compile(c->pattern, (int64_t)strlen(c->pattern), 0, &h));
    GCOL_TEST_OK(
        gcol_detail_regex_template_parse(c->tmpl, (int64_t)strlen(c->tmpl), &h, "test", &t));
    int32_t *scratch = (int32_t *)malloc(
        (size_t)gcol_detail_regex_scratch_ints(&h.prog, gcol_detail_regex_replace_slots(&t.t)) * 4);
    assert_non_null(scratch);
    int64_t const n = (int64_t)strlen(c->subject);
    gcol_detail_sink count = gcol_detail_sink_make(NULL);
    gcol_detail_regex_replace_row(&h.prog, c->subject, n, &t.t, c->max_count, scratch, &count);
    assert_true(count.size >= 0 && count.size < 4096);
    char *buf = (char *)malloc((size_t)(count.size & 4095) + 1);
    assert_non_null(buf);
    gcol_detail_sink write = gcol_detail_sink_make(buf);
    gcol_detail_regex_replace_row(&h.prog, c->subject, n, &t.t, c->max_count, scratch, &write);
    if (count.size != c->want_size || write.size != c->want_size ||
        memcmp(buf, c->want, (size_t)c->want_size) != 0) {
      fail_msg(
          "replace case %lld: /%s/ -> \"%s\" (max %lld) on \"%s\": \"%.*s\" (%lld bytes), "
          "want \"%s\" (%lld)",
          (long long)k, c->pattern, c->tmpl, (long long)c->max_count, c->subject, (int)write.size,
          buf, (long long)count.size, c->want, (long long)c->want_size);
    }
    free(buf);
    free(scratch);
    gcol_detail_regex_template_free(&t);
    gcol_detail_regex_host_free(&h);
  }
}

static void test_bad_templates(void **state) {
  (void)state;
  for (int64_t k = 0; k < NUM(bad_templates); ++k) {
    bad_template const *c = &bad_templates[k];
    gcol_detail_regex_host h;
    gcol_detail_regex_template_host t;
    GCOL_TEST_OK(gcol_detail_regex_compile(c->pattern, (int64_t)strlen(c->pattern), 0, &h));
    gcol_status const st =
        gcol_detail_regex_template_parse(c->tmpl, (int64_t)strlen(c->tmpl), &h, "test", &t);
    if (st != GCOL_ERROR_INVALID_ARGUMENT) {
      fail_msg("template \"%s\" of /%s/: status %d, want invalid argument", c->tmpl, c->pattern,
               (int)st);
    }
    assert_null(t.block);
    gcol_detail_regex_host_free(&h);
  }
  /* the message names the reference or the name */
  gcol_detail_regex_host two;
  gcol_detail_regex_template_host t;
  GCOL_TEST_OK(gcol_detail_regex_compile("(a)(?P<second>b)", 16, 0, &two));
  GCOL_TEST_STATUS(gcol_detail_regex_template_parse("x\\3", 3, &two, "test", &t),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "invalid group reference 3"));
  GCOL_TEST_STATUS(gcol_detail_regex_template_parse("\\g<name>", 8, &two, "test", &t),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "unknown group name 'name'"));
  assert_null(t.block);
  GCOL_TEST_STATUS(gcol_detail_regex_template_parse("\\g<a-b>", 7, &two, "test", &t),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "bad character in group name 'a-b'"));
  /* pieces: literal runs merged, references apart; a name is its group's number */
  GCOL_TEST_OK(
      gcol_detail_regex_template_parse("ab\\n\\1c\\g<0>\\g<second>", 22, &two, "test", &t));
  assert_int_equal(t.t.num_pieces, 5);
  assert_int_equal(t.t.max_group, 2);
  assert_int_equal(t.t.pieces[0].group, -1);
  assert_int_equal(t.t.pieces[0].size, 3);
  assert_memory_equal(t.t.bytes + t.t.pieces[0].offset, "ab\n", 3);
  assert_int_equal(t.t.pieces[1].group, 1);
  assert_int_equal(t.t.pieces[3].group, 0);
  assert_int_equal(t.t.pieces[4].group, 2);
  gcol_detail_regex_template_free(&t);
  gcol_detail_regex_host_free(&two);
}

/* ---------------------------------------------------------------- findall and split */

static const char *const kind_names[] = {"findall", "split", "rsplit"};

/* Python's answer for piece k of a case (an unset group: ""). */
static void want_piece(const split_case *c, int k, int64_t *b, int64_t *e) {
  *b = split_spans[2 * (c->first + k)];
  *e = split_spans[2 * (c->first + k) + 1];
  if (*b < 0) *b = *e = 0;
}

/* One case through the count pass's function and the write pass's enumeration. */
static void check_split_case(int64_t index, const split_case *c) {
  gcol_detail_regex_host h;
  GCOL_TEST_OK(gcol_detail_regex_compile(c->pattern, (int64_t)strlen(c->pattern), c->flags, &h));
  gcol_detail_regex_pieces_spec sp;
  sp.kind = c->kind;
  sp.group = c->kind == GCOL_DETAIL_REGEX_FINDALL ? h.prog.num_groups : 0;
  sp.max_splits = c->max_splits;
  int32_t *scratch = (int32_t *)malloc(
      (size_t)gcol_detail_regex_scratch_ints(&h.prog, gcol_detail_regex_pieces_slots(sp)) * 4);
  assert_non_null(scratch);
  int64_t const n = (int64_t)strlen(c->subject);
  int64_t const count = gcol_detail_regex_pieces_count(&h.prog, sp, c->subject, n, scratch);
  if (count != c->count) {
    fail_msg("case %lld: %s /%s/ (max %lld) on \"%s\": %lld pieces, want %d", (long long)index,
             kind_names[c->kind], c->pattern, (long long)c->max_splits, c->subject,
             (long long)count, c->count);
  }
  gcol_detail_regex_pieces_state st =
      gcol_detail_regex_pieces_begin(&h.prog, sp, c->subject, n, scratch);
  int64_t b = 0, e = 0, k = 0;
  for (; gcol_detail_regex_pieces_next(&h.prog, sp, c->subject, n, &st, scratch, &b, &e); ++k) {
    int64_t wb = 0, we = 0;
    assert_true(k < c->count);
    want_piece(c, (int)k, &wb, &we);
    if (b < 0 || e < b || e > n || e - b != we - wb ||
        memcmp(c->subject + b, c->subject + wb, (size_t)(we - wb)) != 0) {
      fail_msg(
          "case %lld: %s /%s/ (max %lld) on \"%s\": piece %lld is %lld..%lld, want "
          "%lld..%lld",
          (long long)index, kind_names[c->kind], c->pattern, (long long)c->max_splits, c->subject,
          (long long)k, (long long)b, (long long)e, (long long)wb, (long long)we);
    }
  }
  assert_int_equal(k, c->count);
  /* enumeration is over: it stays over */
  assert_false(gcol_detail_regex_pieces_next(&h.prog, sp, c->subject, n, &st, scratch, &b, &e));
  free(scratch);
  gcol_detail_regex_host_free(&h);
}

static void test_findall_split_known_answers(void **state) {
  (void)state;
  int64_t seen[3] = {0, 0, 0};
  for (int64_t k = 0; k < NUM(split_cases); ++k) {
    check_split_case(k, &split_cases[k]);
    ++seen[split_cases[k].kind];
  }
  assert_true(seen[0] > 100 && seen[1] > 100 && seen[2] > 100);
}

/* rsplit cuts the last matches: spot checks written out, beside the generated table. */
static void test_split_spot_checks(void **state) {
  (void)state;
  static const split_case spots[] = {
      {"a*", 0, "baaac", GCOL_DETAIL_REGEX_FINDALL, -1, 4, 0}, /* "", "aaa", "", "" */
      {",", 0, "a,b,c", GCOL_DETAIL_REGEX_RSPLIT, 1, 2, 4},    /* "a,b", "c" */
      {"x*", 0, "", GCOL_DETAIL_REGEX_SPLIT, -1, 2, 6},        /* "", "" */
      {",", 0, "", GCOL_DETAIL_REGEX_SPLIT, -1, 1, 8},         /* "" */
      {"a", 0, "aa", GCOL_DETAIL_REGEX_SPLIT, 0, 1, 9},        /* "aa" */
  };
  static const int32_t spans[] = {0, 0, 1, 4, 4, 4, 5, 5, 0, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 2};
  for (int64_t k = 0; k < NUM(spots); ++k) {
    split_case const *c = &spots[k];
    gcol_detail_regex_host h;
    GCOL_TEST_OK(gcol_detail_regex_compile(c->pattern, (int64_t)strlen(c->pattern), c->flags, &h));
    gcol_detail_regex_pieces_spec const sp = {c->kind, 0, c->max_splits};
    int32_t *scratch = (int32_t *)malloc((size_t)gcol_detail_regex_scratch_ints(&h.prog, 2) * 4);
    assert_non_null(scratch);
    int64_t const n = (int64_t)strlen(c->subject);
    gcol_detail_regex_pieces_state st =
        gcol_detail_regex_pieces_begin(&h.prog, sp, c->subject, n, scratch);
    int64_t b = 0, e = 0, j = 0;
    for (; gcol_detail_regex_pieces_next(&h.prog, sp, c->subject, n, &st, scratch, &b, &e); ++j) {
      assert_true(j < c->count);
      assert_int_equal(b, spans[2 * (c->first + j)]);
      assert_int_equal(e, spans[2 * (c->first + j) + 1]);
    }
    assert_int_equal(j, c->count);
    free(scratch);
    gcol_detail_regex_host_free(&h);
  }
}

#define EXPECT_FAIL_TABLE(call, st, needle) \
  do {                                      \
    table = (gcol_table *)(uintptr_t)1;     \
    GCOL_TEST_STATUS((call), (st));         \
    expect_message(needle);                 \
    assert_null(table);                     \
  } while (0)

/* Bad arguments are refused before any device work (the views' device memory is fake). */
static void test_findall_split_argument_checks(void **state) {
  (void)state;
  gcol_column *out = NULL;
  gcol_table *table = NULL;
  gcol_regex *re = NULL, *two_groups = NULL;
  GCOL_TEST_OK(gcol_regex_compile("(a)b", -1, 0, &re));
  GCOL_TEST_OK(gcol_regex_compile("(a)(?:x)(b)", -1, 0, &two_groups));
  gcol_column_view const offs3 = fake_view(GCOL_INT32, 3);
  gcol_column_view const two = fake_strings(2, &offs3);
  gcol_column_view const ints = fake_view(GCOL_INT32, 2);

  EXPECT_FAIL(gcol_strings_findall(ints, re, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH,
              "gcol_strings_findall: input is int32");
  EXPECT_FAIL(gcol_strings_findall(two, NULL, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT,
              "re is NULL");
  EXPECT_FAIL(gcol_strings_findall(two, two_groups, &out, NULL, NULL), GCOL_ERROR_UNSUPPORTED,
              "the pattern has 2 capturing groups");
  GCOL_TEST_STATUS(gcol_strings_findall(two, re, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("out is NULL");
  EXPECT_FAIL(gcol_strings_split_record_re(two, re, -2, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "gcol_strings_split_record_re: max_splits is -2");
  EXPECT_FAIL(gcol_strings_rsplit_record_re(ints, re, -1, &out, NULL, NULL),
              GCOL_ERROR_TYPE_MISMATCH, "gcol_strings_rsplit_record_re: input is int32");
  EXPECT_FAIL(gcol_strings_rsplit_record_re(two, NULL, 1, &out, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT, "re is NULL");
  EXPECT_FAIL_TABLE(gcol_strings_split_re(ints, re, -1, &table, NULL, NULL),
                    GCOL_ERROR_TYPE_MISMATCH, "gcol_strings_split_re: input is int32");
  EXPECT_FAIL_TABLE(gcol_strings_rsplit_re(two, re, INT64_MIN, &table, NULL, NULL),
                    GCOL_ERROR_INVALID_ARGUMENT, "gcol_strings_rsplit_re: max_splits is");
  EXPECT_FAIL_TABLE(gcol_strings_split_re(two, NULL, -1, &table, NULL, NULL),
                    GCOL_ERROR_INVALID_ARGUMENT, "re is NULL");
  GCOL_TEST_STATUS(gcol_strings_rsplit_re(two, re, -1, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("out is NULL");
  gcol_regex_free(two_groups);
  gcol_regex_free(re);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_python_known_answers),
      cmocka_unit_test(test_first_byte_prefilter),
      cmocka_unit_test(test_compile_errors),
      cmocka_unit_test(test_fuzz_against_backtracker),
      cmocka_unit_test(test_dfa_fuzz_against_backtracker),
      cmocka_unit_test(test_dfa_known_answers),
      cmocka_unit_test(test_dfa_fixed_length),
      cmocka_unit_test(test_empty_iterations),
      cmocka_unit_test(test_extract_known_answers),
      cmocka_unit_test(test_replace_known_answers),
      cmocka_unit_test(test_bad_templates),
      cmocka_unit_test(test_findall_split_known_answers),
      cmocka_unit_test(test_split_spot_checks),
      cmocka_unit_test(test_findall_split_argument_checks),
  };
  return GCOL_TEST_RUN("strings_regex_host", tests);
}
