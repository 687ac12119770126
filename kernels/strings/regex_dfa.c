/*
 * The DFAs of a compiled regex (regex_match.h): whether a row has a match, one table lookup
 * per byte, built on the host by subset construction over the program's NFA.
 *
 * Why it is exact. Whether a match exists does not depend on priorities (leftmost-first only
 * chooses among matches), so a state is a set of instructions. Python's rule for empty
 * iterations (CHECK) only drops paths that have a shorter equivalent (the same iteration
 * left out), so here a CHECK follows both its targets and the set of matches is the same.
 *
 * A state is the set of instructions a step reached (before their epsilon closure) and its
 * context: at the beginning of the text, and (MULTILINE ^ only) after a \n. The closure is
 * taken when the next byte is known, so that $ (MULTILINE: before a \n or at the end) and \Z
 * (at the end) are decided from it; the last column of a table is the end of the text. A
 * search adds instruction 0 to every closure (a match may begin anywhere); its table also
 * has the states a search from a later byte begins at (GCOL_DETAIL_RX_DFA_MID, _MID_NL:
 * nothing reached, not at the beginning), which find, after a row's last match, that no
 * other follows without the VM. A closure that
 * reaches MATCH goes to ACCEPT. Without MULTILINE, $ also holds before a final \n, which
 * this does not see: it takes $ as false there, which can only lose matches, so a row
 * ending in \n that found none is left to the VM (GCOL_DETAIL_RX_DFA_LAST_NL).
 *
 * Where every match has one length, or the program is character sets in sequence, the last
 * maybe repeated greedily (dfa_fixed_length), the first match to end is the shortest at the
 * leftmost start, so the byte a run reads into ACCEPT, and then the run of the repeated
 * set, give a search's span (gcol_detail_regex_exec).
 *
 * Columns: bytes are decided by ASCII class, bytes that every consuming instruction and the
 * assertions treat alike sharing one (the program's character sets partition 0..127, \n
 * kept apart). Every byte >= 0x80 goes to UNKNOWN: the VM decodes UTF-8 characters, which a
 * byte DFA would have to spell out. \b and \B look at both neighbours of a position: no DFA.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strings/regex_match.h"

typedef struct dfa_builder {
  const gcol_detail_regex_prog *prog;
  int32_t m;          /* instructions */
  bool anchored;      /* a match only at 0 */
  bool track_nl;      /* a state knows whether the byte before was \n (MULTILINE ^) */
  int32_t ascii_cols; /* classes of ASCII bytes; then the non-ASCII column, then the end */
  int32_t stride;
  unsigned char rep[128]; /* a byte of each ASCII class */
  int32_t max_states;
  /* states: the sorted instruction set of state i is pool[start[i] .. start[i] + len[i]) */
  int32_t num_states;
  int32_t *start, *len;
  uint8_t *ctx; /* bit 0: at the beginning; bit 1: after a \n */
  int32_t *pool;
  int64_t pool_len, pool_cap;
  int32_t *slots; /* hash of the states: index + 1, 0 empty; hash_cap a power of two */
  int32_t hash_cap;
  uint16_t *table;
  /* a closure's work */
  int32_t *stamp, *stack, *next;
  int32_t now;
} dfa_builder;

enum { CTX_AT0 = 1, CTX_NL = 2 };

static bool consuming(int32_t op) { return op <= GCOL_DETAIL_RX_CLASS; }

/* Whether the program is one a DFA is exact for (\b, \B: no), and whether it has a ^ under
 * MULTILINE (*bol_nl) and a $ without it (*eol_last). */
static bool dfa_eligible(const gcol_detail_regex_prog *prog, bool *bol_nl, bool *eol_last) {
  bool const ml = (prog->flags & GCOL_DETAIL_REGEX_MULTILINE) != 0;
  *bol_nl = *eol_last = false;
  for (int32_t pc = 0; pc < prog->num_insts; ++pc) {
    gcol_detail_regex_inst const in = prog->insts[pc];
    if (in.op != GCOL_DETAIL_RX_ASSERT) continue;
    if (in.x == GCOL_DETAIL_RX_WORD || in.x == GCOL_DETAIL_RX_NOT_WORD) return false;
    if (in.x == GCOL_DETAIL_RX_BOL && ml) *bol_nl = true;
    if (in.x == GCOL_DETAIL_RX_EOL && !ml) *eol_last = true;
  }
  return prog->num_insts > 0;
}

/* Columns of the ASCII bytes: two bytes share one when every consuming instruction accepts
 * both or neither and neither is \n. classes[b] for b < 128; rep[] a byte of each. */
static void dfa_classes(dfa_builder *b, uint8_t *classes) {
  const gcol_detail_regex_prog *prog = b->prog;
  b->ascii_cols = 0;
  for (int c = 0; c < 128; ++c) {
    int32_t col = 0;
    for (; col < b->ascii_cols; ++col) {
      int const r = b->rep[col];
      bool same = c != '\n' && r != '\n';
      for (int32_t pc = 0; same && pc < prog->num_insts; ++pc) {
        gcol_detail_regex_inst const in = prog->insts[pc];
        if (!consuming(in.op)) continue;
        same = gcol_detail_regex_accepts(prog, in, (uint32_t)c) ==
               gcol_detail_regex_accepts(prog, in, (uint32_t)r);
      }
      if (same) break;
    }
    if (col == b->ascii_cols) b->rep[b->ascii_cols++] = (unsigned char)c;
    classes[c] = (uint8_t)col;
  }
  for (int c = 128; c < 256; ++c) classes[c] = (uint8_t)b->ascii_cols;
  b->stride = b->ascii_cols + 2;
}

static uint32_t dfa_hash(const int32_t *set, int32_t len, uint8_t ctx) {
  uint32_t h = 2166136261u ^ ctx;
  for (int32_t i = 0; i < len; ++i) h = (h ^ (uint32_t)set[i]) * 16777619u;
  return h;
}

/* The state (set, ctx): found, or added; -1 past max_states or without memory. */
static int32_t dfa_state(dfa_builder *b, const int32_t *set, int32_t len, uint8_t ctx) {
  uint32_t const mask = (uint32_t)b->hash_cap - 1;
  uint32_t h = dfa_hash(set, len, ctx) & mask;
  for (;; h = (h + 1) & mask) {
    int32_t const id = b->slots[h] - 1;
    if (id < 0) break;
    if (b->ctx[id] == ctx && b->len[id] == len &&
        memcmp(b->pool + b->start[id], set, (size_t)len * sizeof *set) == 0) {
      return id;
    }
  }
  if (b->num_states >= b->max_states) return -1;
  if (b->pool_len + len > b->pool_cap) {
    int64_t const cap = 2 * (b->pool_len + len);
    int32_t *pool = (int32_t *)realloc(b->pool, (size_t)cap * sizeof *pool);
    if (pool == NULL) return -1;
    b->pool = pool;
    b->pool_cap = cap;
  }
  int32_t const id = b->num_states++;
  b->start[id] = (int32_t)b->pool_len;
  b->len[id] = len;
  b->ctx[id] = ctx;
  if (len > 0) memcpy(b->pool + b->pool_len, set, (size_t)len * sizeof *set);
  b->pool_len += len;
  b->slots[h] = id + 1;
  return id;
}

/* Whether assertion a holds with the context ctx and the next byte (-1: the end). */
static bool dfa_assert_holds(int32_t a, uint32_t flags, uint8_t ctx, int next) {
  bool const ml = (flags & GCOL_DETAIL_REGEX_MULTILINE) != 0;
  switch (a) {
    case GCOL_DETAIL_RX_BOL:
      return (ctx & CTX_AT0) != 0 || (ml && (ctx & CTX_NL) != 0);
    case GCOL_DETAIL_RX_EOL: /* without MULTILINE, before a final \n: see the top */
      return next < 0 || (ml && next == '\n');
    case GCOL_DETAIL_RX_TEXT_BEGIN:
      return (ctx & CTX_AT0) != 0;
    case GCOL_DETAIL_RX_TEXT_END:
      return next < 0;
    default:
      return false;
  }
}

/* Follows pc's epsilon closure (context ctx, next byte `next`), stamping what it reaches.
 * Returns whether MATCH is reached. */
static bool dfa_close(dfa_builder *b, int32_t pc0, uint8_t ctx, int next) {
  const gcol_detail_regex_prog *prog = b->prog;
  bool matched = false;
  int32_t top = 0;
  b->stack[top++] = pc0;
  while (top > 0) {
    int32_t const pc = b->stack[--top];
    if (b->stamp[pc] == b->now) continue;
    b->stamp[pc] = b->now;
    gcol_detail_regex_inst const in = prog->insts[pc];
    switch (in.op) {
      case GCOL_DETAIL_RX_JMP:
        b->stack[top++] = in.x;
        break;
      case GCOL_DETAIL_RX_SPLIT:
      case GCOL_DETAIL_RX_LOOP:
      case GCOL_DETAIL_RX_CHECK: /* both ways: see the top */
        b->stack[top++] = in.x;
        b->stack[top++] = in.y;
        break;
      case GCOL_DETAIL_RX_SAVE:
        b->stack[top++] = pc + 1;
        break;
      case GCOL_DETAIL_RX_ASSERT:
        if (dfa_assert_holds(in.x, prog->flags, ctx, next)) b->stack[top++] = pc + 1;
        break;
      case GCOL_DETAIL_RX_MATCH:
        matched = true;
        break;
      default: /* consuming: stamped, stepped over by dfa_step */
        break;
    }
  }
  return matched;
}

static int cmp_i32(const void *x, const void *y) {
  int32_t const a = *(const int32_t *)x, c = *(const int32_t *)y;
  return (a > c) - (a < c);
}

/* The state state `from` goes to on column col (the transition of the table). */
static int32_t dfa_step(dfa_builder *b, int32_t from, int32_t col) {
  bool const end = col == b->ascii_cols + 1;
  bool const non_ascii = col == b->ascii_cols; /* a match may end before it: closed first */
  int const next = end ? -1 : non_ascii ? 0x80 : b->rep[col];
  uint8_t const ctx = b->ctx[from];
  bool matched = false;
  ++b->now;
  for (int32_t i = 0; i < b->len[from]; ++i) {
    matched |= dfa_close(b, b->pool[b->start[from] + i], ctx, next);
  }
  if (!b->anchored || (ctx & CTX_AT0) != 0) matched |= dfa_close(b, 0, ctx, next);
  if (matched) return GCOL_DETAIL_RX_DFA_ACCEPT;
  if (end) return GCOL_DETAIL_RX_DFA_DEAD;
  if (non_ascii) return GCOL_DETAIL_RX_DFA_UNKNOWN;
  int32_t len = 0;
  for (int32_t pc = 0; pc < b->m; ++pc) {
    gcol_detail_regex_inst const in = b->prog->insts[pc];
    if (b->stamp[pc] == b->now && consuming(in.op) &&
        gcol_detail_regex_accepts(b->prog, in, (uint32_t)next)) {
      b->next[len++] = pc + 1;
    }
  }
  if (len == 0 && b->anchored) return GCOL_DETAIL_RX_DFA_DEAD;
  qsort(b->next, (size_t)len, sizeof *b->next, cmp_i32);
  uint8_t const ctx_next = (b->track_nl && next == '\n') ? CTX_NL : 0;
  return dfa_state(b, b->next, len, ctx_next);
}

/* Builds one table (anchored or not) into b->table: true, or false past the cap. */
static bool dfa_table(dfa_builder *b, bool anchored) {
  b->anchored = anchored;
  b->num_states = 0;
  b->pool_len = 0;
  memset(b->slots, 0, (size_t)b->hash_cap * sizeof *b->slots);
  int32_t const zero = 0;
  for (int k = 0; k < GCOL_DETAIL_RX_DFA_START; ++k) dfa_state(b, &zero, 0, (uint8_t)(0x10 + k));
  if (dfa_state(b, &zero, anchored ? 1 : 0, CTX_AT0) != GCOL_DETAIL_RX_DFA_START) {
    return false;
  }
  if (!anchored) { /* the starts of a search from a later byte: nothing reached yet */
    if (dfa_state(b, &zero, 0, 0) != GCOL_DETAIL_RX_DFA_MID) return false;
    if (b->track_nl && dfa_state(b, &zero, 0, CTX_NL) != GCOL_DETAIL_RX_DFA_MID_NL) return false;
  }
  for (int32_t st = 0; st < b->num_states; ++st) { /* states are added as they are found */
    for (int32_t col = 0; col < b->stride; ++col) {
      int32_t const to = st < GCOL_DETAIL_RX_DFA_START ? st : dfa_step(b, st, col);
      if (to < 0) return false;
      b->table[(int64_t)st * b->stride + col] = (uint16_t)to;
    }
  }
  return true;
}

/* Whether pc..m - 3 of the program are SAVE 1, MATCH (the end). */
static bool dfa_is_end(const gcol_detail_regex_prog *prog, int32_t pc) {
  int32_t const m = prog->num_insts;
  return pc == m - 2 && prog->insts[pc].op == GCOL_DETAIL_RX_SAVE && prog->insts[pc].x == 1 &&
         prog->insts[pc + 1].op == GCOL_DETAIL_RX_MATCH;
}

/* The characters every path from pc to MATCH consumes, where that is one number; -1 where
 * paths differ or loop. memo[pc]: -2 not yet known, -3 on the path being followed. */
static int32_t dfa_path_length(const gcol_detail_regex_prog *prog, int32_t pc, int32_t *memo) {
  if (memo[pc] != -2) return memo[pc] == -3 ? -1 : memo[pc];
  memo[pc] = -3;
  gcol_detail_regex_inst const in = prog->insts[pc];
  int32_t len = -1;
  if (consuming(in.op)) {
    int32_t const rest = dfa_path_length(prog, pc + 1, memo);
    len = rest < 0 ? -1 : 1 + rest;
  } else if (in.op == GCOL_DETAIL_RX_SAVE || in.op == GCOL_DETAIL_RX_ASSERT) {
    len = dfa_path_length(prog, pc + 1, memo);
  } else if (in.op == GCOL_DETAIL_RX_JMP) {
    len = dfa_path_length(prog, in.x, memo);
  } else if (in.op == GCOL_DETAIL_RX_SPLIT) {
    int32_t const a = dfa_path_length(prog, in.x, memo);
    int32_t const b = dfa_path_length(prog, in.y, memo);
    len = a == b ? a : -1;
  } else if (in.op == GCOL_DETAIL_RX_MATCH) {
    len = 0;
  } /* LOOP, CHECK: a repetition */
  memo[pc] = len;
  return len;
}

/* Where every match of a program without groups has one length L >= 1 (no repetition;
 * alternatives of one length; assertions anywhere): L. Where the program is SAVE 0, k
 * consuming instructions, the last repeated greedily (X+: X, SPLIT to the copy then out,
 * the copy, JMP back), SAVE 1, MATCH: k, the shortest matches' length, and *plus the copy's
 * pc. Else 0. memo: num_insts words. */
static int32_t dfa_fixed_length(const gcol_detail_regex_prog *prog, int32_t *memo, int32_t *plus) {
  int32_t const m = prog->num_insts;
  *plus = 0;
  if (prog->num_groups != 0 || m < 4 || prog->insts[0].op != GCOL_DETAIL_RX_SAVE) return 0;
  for (int32_t pc = 0; pc < m; ++pc) memo[pc] = -2;
  int32_t const len = dfa_path_length(prog, 0, memo);
  if (len >= 1) return len;
  int32_t k = 0;
  while (1 + k < m && consuming(prog->insts[1 + k].op)) ++k;
  int32_t const pc = 1 + k;
  gcol_detail_regex_inst const split = prog->insts[pc];
  if (k > 0 && pc + 4 < m && split.op == GCOL_DETAIL_RX_SPLIT && split.x == pc + 1 &&
      split.y == pc + 3 && consuming(prog->insts[pc + 1].op) &&
      prog->insts[pc + 2].op == GCOL_DETAIL_RX_JMP && prog->insts[pc + 2].x == pc &&
      dfa_is_end(prog, pc + 3)) {
    *plus = pc + 1;
    return k;
  }
  return 0;
}

static void dfa_builder_free(dfa_builder *b) {
  free(b->start);
  free(b->len);
  free(b->ctx);
  free(b->pool);
  free(b->slots);
  free(b->table);
  free(b->stamp);
  free(b->stack);
  free(b->next);
}

/* Appends classes and the two tables to h's block and points the program at them. */
static bool dfa_append(gcol_detail_regex_host *h, const uint8_t *classes, const uint16_t *t0,
                       int32_t s0, const uint16_t *t1, int32_t s1, int32_t stride) {
  int64_t const old = h->block_bytes;
  int64_t const b0 = (int64_t)s0 * stride * 2, b1 = (int64_t)s1 * stride * 2;
  int64_t const bytes = old + 256 + b0 + b1;
  char *block = (char *)malloc((size_t)bytes);
  if (block == NULL) return false;
  memcpy(block, h->block, (size_t)old);
  memcpy(block + old, classes, 256);
  memcpy(block + old + 256, t0, (size_t)b0);
  memcpy(block + old + 256 + b0, t1, (size_t)b1);
  gcol_detail_regex_prog *prog = &h->prog;
  gcol_detail_regex_prog_rebase(prog, h->block, block);
  free(h->block);
  h->block = block;
  h->block_bytes = bytes;
  prog->dfa_stride = stride;
  prog->dfa_states[0] = s0;
  prog->dfa_states[1] = s1;
  prog->dfa_classes = (const uint8_t *)(block + old);
  prog->dfa[0] = (const uint16_t *)(block + old + 256); /* old: a multiple of 4 */
  prog->dfa[1] = (const uint16_t *)(block + old + 256 + b0);
  return true;
}

void gcol_detail_regex_dfa_build(gcol_detail_regex_host *h) {
  gcol_detail_regex_prog *prog = &h->prog;
  dfa_builder b;
  uint8_t classes[256];
  uint16_t *first = NULL;
  int32_t first_states = 0;
  bool bol_nl = false, eol_last = false;
  memset(&b, 0, sizeof b);
  prog->dfa_stride = 0;
  prog->dfa_fixed = prog->dfa_plus = 0;
  if (!dfa_eligible(prog, &bol_nl, &eol_last)) return;
  b.prog = prog;
  b.m = prog->num_insts;
  b.track_nl = bol_nl;
  dfa_classes(&b, classes);
  b.max_states = GCOL_DETAIL_REGEX_DFA_MAX_BYTES / (2 * b.stride);
  b.hash_cap = 1;
  while (b.hash_cap < 2 * b.max_states) b.hash_cap *= 2;
  b.start = (int32_t *)malloc((size_t)b.max_states * sizeof *b.start);
  b.len = (int32_t *)malloc((size_t)b.max_states * sizeof *b.len);
  b.ctx = (uint8_t *)malloc((size_t)b.max_states);
  b.slots = (int32_t *)malloc((size_t)b.hash_cap * sizeof *b.slots);
  b.table = (uint16_t *)malloc((size_t)b.max_states * (size_t)b.stride * sizeof *b.table);
  b.stamp = (int32_t *)calloc((size_t)b.m, sizeof *b.stamp);
  b.stack = (int32_t *)malloc((2 * (size_t)b.m + 2) * sizeof *b.stack); /* two a visit */
  b.next = (int32_t *)malloc((size_t)b.m * sizeof *b.next);
  if (!b.start || !b.len || !b.ctx || !b.slots || !b.table || !b.stamp || !b.stack || !b.next) {
    goto done;
  }
  if (!dfa_table(&b, false)) goto done;
  first_states = b.num_states;
  first = (uint16_t *)malloc((size_t)first_states * (size_t)b.stride * sizeof *first);
  if (first == NULL) goto done;
  memcpy(first, b.table, (size_t)first_states * (size_t)b.stride * sizeof *first);
  if (!dfa_table(&b, true)) goto done;
  if (dfa_append(h, classes, first, first_states, b.table, b.num_states, b.stride)) {
    prog->dfa_flags =
        (eol_last ? GCOL_DETAIL_RX_DFA_LAST_NL : 0) | (bol_nl ? GCOL_DETAIL_RX_DFA_TRACK_NL : 0);
    prog->dfa_fixed = dfa_fixed_length(prog, b.stamp, &prog->dfa_plus);
  }
done:
  free(first);
  dfa_builder_free(&b);
}
