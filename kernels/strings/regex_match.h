/*
 * Regular expressions (strings/regex.h): the compiled program and the Pike VM that runs it,
 * host and device. regex_compile.c compiles a pattern on the host into a flat program of
 * Thompson NFA instructions; gcol_detail_regex_exec runs it over one string in lockstep (no
 * recursion, no backtracking): at most one thread per instruction per position, so time is
 * O(bytes x instructions x levels) and memory a fixed scratch the caller provides
 * (gcol_detail_regex_scratch_ints), sized from the program alone.
 *
 * Semantics are Python's re with re.ASCII: leftmost-first (the match and captures a
 * backtracking matcher would find, trying alternatives and quantifier choices in priority
 * order), \d \w \s \b over ASCII, IGNORECASE folding ASCII letters. An iteration of a
 * repetition beyond its minimum that consumes nothing ends the repetition (sre's rule: the
 * tail alone follows it, and its captures stay): LOOP / CHECK below, and the closure's
 * levels (gcol_detail_regex_add).
 * Characters are decoded as gcol/utf8.h does; an invalid byte is one character, U+FFFD.
 */
#ifndef GCOL_KERNELS_STRINGS_REGEX_MATCH_H
#define GCOL_KERNELS_STRINGS_REGEX_MATCH_H

#include <stdint.h>

#include "gcol/config.h"
#include "gcol/status.h"
#include "gcol/strings/regex.h"
#include "gcol/utf8.h"

GCOL_EXTERN_C_BEGIN

/* Limits: a pattern beyond them fails to compile with GCOL_ERROR_OVERFLOW. */
#define GCOL_DETAIL_REGEX_MAX_INSTS 2000
#define GCOL_DETAIL_REGEX_MAX_GROUPS 64
#define GCOL_DETAIL_REGEX_MAX_REPEAT 1000
#define GCOL_DETAIL_REGEX_MAX_RANGES 4096
/* Empty-capable repetitions nested in each other: each level multiplies a thread's dedup
 * marks and closure stack (gcol_detail_regex_scratch_ints), so the depth is capped. */
#define GCOL_DETAIL_REGEX_MAX_LOOP_DEPTH 16

/* Flags (the public GCOL_REGEX_* values). */
#define GCOL_DETAIL_REGEX_ICASE 1u
#define GCOL_DETAIL_REGEX_MULTILINE 2u
#define GCOL_DETAIL_REGEX_DOTALL 4u

typedef enum gcol_detail_regex_op {
  GCOL_DETAIL_RX_CHAR = 0, /* x: the code point */
  GCOL_DETAIL_RX_ANY,      /* any character */
  GCOL_DETAIL_RX_ANY_NL,   /* any character but \n */
  GCOL_DETAIL_RX_CLASS,    /* ranges[x .. x + y) (pairs lo, hi), sorted, disjoint */
  GCOL_DETAIL_RX_SPLIT,    /* to x (preferred), then y */
  GCOL_DETAIL_RX_JMP,      /* to x */
  GCOL_DETAIL_RX_SAVE,     /* capture slot x = position */
  GCOL_DETAIL_RX_ASSERT,   /* x: a gcol_detail_regex_assert */
  GCOL_DETAIL_RX_MATCH,
  /* A repetition whose body can match empty (progress-checked): LOOP is a SPLIT (to x,
   * then y) one of whose targets is pc + 1, the body, entered as a new iteration; CHECK
   * ends an iteration: to y (the repetition's exit) when the iteration began at this
   * position (it consumed nothing: Python's rule, only the tail follows), else to x. */
  GCOL_DETAIL_RX_LOOP,
  GCOL_DETAIL_RX_CHECK
} gcol_detail_regex_op;

typedef enum gcol_detail_regex_assert {
  GCOL_DETAIL_RX_BOL = 0,    /* ^ */
  GCOL_DETAIL_RX_EOL,        /* $ */
  GCOL_DETAIL_RX_TEXT_BEGIN, /* \A */
  GCOL_DETAIL_RX_TEXT_END,   /* \Z, \z */
  GCOL_DETAIL_RX_WORD,       /* \b */
  GCOL_DETAIL_RX_NOT_WORD    /* \B */
} gcol_detail_regex_assert;

typedef struct gcol_detail_regex_inst {
  int32_t op;
  int32_t x;
  int32_t y;
} gcol_detail_regex_inst;

/* A compiled program; insts[0] is where a match begins (SAVE 0), and the pointers are host
 * or device memory alike (one buffer: instructions, then ranges). */
typedef struct gcol_detail_regex_prog {
  const gcol_detail_regex_inst *insts;
  const uint32_t *ranges;
  int32_t num_insts;
  int32_t num_ranges; /* pairs */
  int32_t num_groups; /* capturing groups, not counting the whole match */
  int32_t num_levels; /* 1 + the deepest nesting of LOOP bodies (closure states per pc) */
  uint32_t flags;
  /* Prefilter: where has_first, every match begins with an ASCII byte of this set (bit b of
   * first[b / 32]) and none is empty, so a search with no thread alive skips to the next
   * such byte (gcol_detail_regex_first_bytes). */
  int32_t has_first;
  uint32_t first[4];
  /* DFA (regex_dfa.c), where the program has one: dfa_stride columns per state (the byte
   * classes, then the end of the text), 0 for none; dfa[0] searches (unanchored), dfa[1]
   * matches at 0 (anchored), each dfa_states[k] x dfa_stride entries; dfa_classes[b] is byte
   * b's column. They live in the program's block after the ranges. */
  int32_t dfa_stride;
  int32_t dfa_states[2];
  uint32_t dfa_flags; /* GCOL_DETAIL_RX_DFA_LAST_NL, GCOL_DETAIL_RX_DFA_TRACK_NL */
  /* > 0: every match is this many characters (no group, no repetition; alternatives of one
   * length), or the program is this many character sets in sequence, the last repeated
   * greedily (X+), where dfa_plus > 0 (the copy's pc): then the DFA's first match end gives
   * a search's match (gcol_detail_regex_exec) */
  int32_t dfa_fixed;
  int32_t dfa_plus;
  const uint8_t *dfa_classes;
  const uint16_t *dfa[2];
} gcol_detail_regex_prog;

/* ---- the DFA: a program's existence of a match, one table lookup per byte ---- */

/* Its first states, the same in every table: sinks (each column back to itself). */
#define GCOL_DETAIL_RX_DFA_ACCEPT 0  /* a match ends here: there is one */
#define GCOL_DETAIL_RX_DFA_DEAD 1    /* no match can follow */
#define GCOL_DETAIL_RX_DFA_UNKNOWN 2 /* a byte >= 0x80: the DFA cannot tell (the VM decides) */
/* Where a run begins: at byte 0; in a search from a later byte (the search table only),
 * after a byte other than \n, or after a \n where a state tracks it. */
#define GCOL_DETAIL_RX_DFA_START 3
#define GCOL_DETAIL_RX_DFA_MID 4
#define GCOL_DETAIL_RX_DFA_MID_NL 5
/* A table entry uses 16 bits; a table stays under this many bytes (shared memory). */
#define GCOL_DETAIL_REGEX_DFA_MAX_BYTES 16384
/* dfa_flags: the program has a $ without MULTILINE, which also holds before a final \n, a
 * context the DFA does not track: a row ending in \n without a match found is the VM's. */
#define GCOL_DETAIL_RX_DFA_LAST_NL 1u
/* dfa_flags: a state knows whether the byte before it was \n (a MULTILINE ^): a search from a
 * byte after a \n begins at GCOL_DETAIL_RX_DFA_MID_NL. */
#define GCOL_DETAIL_RX_DFA_TRACK_NL 2u

/* Four bytes at p (4-aligned), the first in the low byte. */
GCOL_HD_INLINE uint32_t gcol_detail_regex_dfa_word(const unsigned char *p) {
#if defined(__CUDA_ARCH__)
  return *(const uint32_t *)p; /* one load where a copy may become four */
#else
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

/*
 * Whether s (the n bytes to the end of the text) has a match of the DFA table (states x
 * stride, columns by classes), the run beginning at state `first`: 1 yes, 0 no, -1 unknown
 * (the VM must decide). One lookup per byte; it stops at the first sink, so a search stops
 * near the byte a match ends on. The bytes are read a 4-aligned word at a time (a thread per
 * row: a quarter of the loads); a sink goes back to itself, so a word's four steps need one
 * check.
 */
GCOL_HD_INLINE int gcol_detail_regex_dfa_run(const uint16_t *table, const uint8_t *classes,
                                             int32_t stride, uint32_t flags, const char *s,
                                             int64_t n, uint32_t first) {
  const unsigned char *const u = (const unsigned char *)s;
  uint32_t const w = (uint32_t)stride;
  uint32_t st = first;
  int64_t p = 0;
  for (; p < n && ((uintptr_t)(u + p) & 3u) != 0 && st >= GCOL_DETAIL_RX_DFA_START; ++p) {
    st = table[st * w + classes[u[p]]];
  }
  for (; p + 4 <= n && st >= GCOL_DETAIL_RX_DFA_START; p += 4) {
    uint32_t const word = gcol_detail_regex_dfa_word(u + p);
    st = table[st * w + classes[word & 0xffu]];
    st = table[st * w + classes[(word >> 8) & 0xffu]];
    st = table[st * w + classes[(word >> 16) & 0xffu]];
    st = table[st * w + classes[word >> 24]];
  }
  for (; p < n && st >= GCOL_DETAIL_RX_DFA_START; ++p) st = table[st * w + classes[u[p]]];
  if (st >= GCOL_DETAIL_RX_DFA_START) st = table[st * w + w - 1];
  if (st == GCOL_DETAIL_RX_DFA_ACCEPT) return 1;
  if (st == GCOL_DETAIL_RX_DFA_UNKNOWN) return -1;
  if ((flags & GCOL_DETAIL_RX_DFA_LAST_NL) != 0 && n > 0 && s[n - 1] == '\n') return -1;
  return 0;
}

/* The state a run of prog's search table from byte start of s begins at. */
GCOL_HD_INLINE uint32_t gcol_detail_regex_dfa_first(const gcol_detail_regex_prog *prog,
                                                    const char *s, int64_t start) {
  if (start <= 0) return GCOL_DETAIL_RX_DFA_START;
  bool const nl = (prog->dfa_flags & GCOL_DETAIL_RX_DFA_TRACK_NL) != 0 && s[start - 1] == '\n';
  return nl ? GCOL_DETAIL_RX_DFA_MID_NL : GCOL_DETAIL_RX_DFA_MID;
}

/* gcol_detail_regex_dfa_run with prog's table for a search from byte start (anchored
 * false) or a match at 0 (anchored, start 0) in s (n bytes); -1 where prog has no DFA or
 * for a match elsewhere. */
GCOL_HD_INLINE int gcol_detail_regex_dfa_decide(const gcol_detail_regex_prog *prog, bool anchored,
                                                const char *s, int64_t n, int64_t start) {
  if (prog->dfa_stride == 0 || (anchored && start > 0)) return -1;
  return gcol_detail_regex_dfa_run(prog->dfa[anchored ? 1 : 0], prog->dfa_classes, prog->dfa_stride,
                                   prog->dfa_flags, s + start, n - start,
                                   gcol_detail_regex_dfa_first(prog, s, start));
}

/* Steps the table from state st over s[p .. end) (one at a time) up to the first sink;
 * returns where it stopped (the byte that led into the sink, or end) and sets *st. */
GCOL_HD_INLINE int64_t gcol_detail_regex_dfa_bytes(const uint16_t *table, const uint8_t *classes,
                                                   uint32_t w, const unsigned char *u, int64_t p,
                                                   int64_t end, uint32_t *st) {
  for (; p < end; ++p) {
    *st = table[*st * w + classes[u[p]]];
    if (*st < GCOL_DETAIL_RX_DFA_START) return p;
  }
  return end;
}

/* Where the first match of a search from byte start of s (n bytes) to end ends, by prog's
 * search table: a transition into ACCEPT reads the byte just after a match (or is the end
 * column), the first such the nearest end. -1: no match; -2: the DFA cannot tell. A word
 * at a time as gcol_detail_regex_dfa_run, the word that leads into a sink stepped again a
 * byte at a time for the exact place. The bytes before it are ASCII (UNKNOWN comes at the
 * first other byte), so they are its characters too (dfa_fixed: gcol_detail_regex_exec). */
GCOL_HD_INLINE int64_t gcol_detail_regex_dfa_end(const gcol_detail_regex_prog *prog, const char *s,
                                                 int64_t n, int64_t start) {
  const uint16_t *const table = prog->dfa[0];
  const uint8_t *const classes = prog->dfa_classes;
  const unsigned char *const u = (const unsigned char *)s;
  uint32_t const w = (uint32_t)prog->dfa_stride;
  uint32_t st = gcol_detail_regex_dfa_first(prog, s, start);
  int64_t p = start;
  int64_t const head = p + (int64_t)((4u - ((uintptr_t)(u + p) & 3u)) & 3u);
  p = gcol_detail_regex_dfa_bytes(table, classes, w, u, p, head < n ? head : n, &st);
  while (st >= GCOL_DETAIL_RX_DFA_START && p + 4 <= n) {
    uint32_t const word = gcol_detail_regex_dfa_word(u + p);
    uint32_t next = table[st * w + classes[word & 0xffu]];
    next = table[next * w + classes[(word >> 8) & 0xffu]];
    next = table[next * w + classes[(word >> 16) & 0xffu]];
    next = table[next * w + classes[word >> 24]];
    if (next < GCOL_DETAIL_RX_DFA_START) break; /* into a sink in this word: st stays */
    st = next;
    p += 4;
  }
  if (st >= GCOL_DETAIL_RX_DFA_START)
    p = gcol_detail_regex_dfa_bytes(table, classes, w, u, p, n, &st);
  if (st >= GCOL_DETAIL_RX_DFA_START) {
    st = table[st * w + w - 1];
    p = n;
  }
  if (st == GCOL_DETAIL_RX_DFA_UNKNOWN) return -2;
  /* a match the DFA does not see ends at n - 1 ($ before a final \n): one found before it
   * is still the first, not one found after */
  if ((prog->dfa_flags & GCOL_DETAIL_RX_DFA_LAST_NL) != 0 && n > 0 && s[n - 1] == '\n' &&
      (st != GCOL_DETAIL_RX_DFA_ACCEPT || p >= n - 1)) {
    return -2;
  }
  return st == GCOL_DETAIL_RX_DFA_ACCEPT ? p : -1;
}

/* Points prog's arrays (insts, ranges, DFA) into `to`, a copy of the block `from` they
 * point into now. */
GCOL_HD_INLINE void gcol_detail_regex_prog_rebase(gcol_detail_regex_prog *prog, const void *from,
                                                  const void *to) {
  const char *const f = (const char *)from;
  const char *const t = (const char *)to;
  prog->insts = (const gcol_detail_regex_inst *)(t + ((const char *)prog->insts - f));
  prog->ranges = (const uint32_t *)(t + ((const char *)prog->ranges - f));
  if (prog->dfa_stride == 0) return;
  prog->dfa_classes = (const uint8_t *)(t + ((const char *)prog->dfa_classes - f));
  for (int k = 0; k < 2; ++k)
    prog->dfa[k] = (const uint16_t *)(t + ((const char *)prog->dfa[k] - f));
}

/* Sets prog's prefilter (has_first, first) from the closure of instruction 0: the first
 * bytes of every character that can begin a match; none where a match can be empty or can
 * begin with a non-ASCII character or any character. Host; `visited` has num_insts bytes. */
void gcol_detail_regex_first_bytes(gcol_detail_regex_prog *prog, unsigned char *visited,
                                   int32_t *stack);

/* ---- the Pike VM ---- */

/* int32 words of scratch one exec needs for prog tracking nslots capture slots: two thread
 * lists (pc + slots each), marks (one per closure state: pc and level), work slots, and
 * the closure stack (triples; it grows by at most one per state visited). */
GCOL_HD_INLINE int64_t gcol_detail_regex_scratch_ints(const gcol_detail_regex_prog *prog,
                                                      int32_t nslots) {
  int64_t const m = prog->num_insts;
  int64_t const states = m * (int64_t)prog->num_levels;
  return 2 * m * (1 + nslots) + states + nslots + 3 * (states + 1);
}

GCOL_HD_INLINE bool gcol_detail_regex_is_word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether assertion a holds at byte position p of s (n bytes). Bytes suffice: the ASCII
 * classes never hold for a byte of a multi-byte character. */
GCOL_HD_INLINE bool gcol_detail_regex_assert_holds(int32_t a, uint32_t flags, const char *s,
                                                   int64_t n, int64_t p) {
  bool const multiline = (flags & GCOL_DETAIL_REGEX_MULTILINE) != 0;
  switch (a) {
    case GCOL_DETAIL_RX_BOL:
      return p == 0 || (multiline && s[p - 1] == '\n');
    case GCOL_DETAIL_RX_EOL:
      if (multiline) return p == n || s[p] == '\n';
      return p == n || (p == n - 1 && s[p] == '\n');
    case GCOL_DETAIL_RX_TEXT_BEGIN:
      return p == 0;
    case GCOL_DETAIL_RX_TEXT_END:
      return p == n;
    default: {
      if (n == 0) return false; /* Python before 3.14: neither \b nor \B matches "" */
      bool const before = p > 0 && gcol_detail_regex_is_word_byte((unsigned char)s[p - 1]);
      bool const after = p < n && gcol_detail_regex_is_word_byte((unsigned char)s[p]);
      return (before != after) == (a == GCOL_DETAIL_RX_WORD);
    }
  }
}

/* Whether instruction in (a consuming one) accepts code point cp. */
GCOL_HD_INLINE bool gcol_detail_regex_accepts(const gcol_detail_regex_prog *prog,
                                              gcol_detail_regex_inst in, uint32_t cp) {
  switch (in.op) {
    case GCOL_DETAIL_RX_CHAR:
      return cp == (uint32_t)in.x;
    case GCOL_DETAIL_RX_ANY:
      return true;
    case GCOL_DETAIL_RX_ANY_NL:
      return cp != '\n';
    case GCOL_DETAIL_RX_CLASS: {
      /* binary search for the last range whose lo <= cp */
      int32_t lo = 0, hi = in.y;
      while (lo < hi) {
        int32_t const mid = lo + (hi - lo) / 2;
        if (prog->ranges[2 * (in.x + mid)] <= cp)
          lo = mid + 1;
        else
          hi = mid;
      }
      return lo > 0 && cp <= prog->ranges[2 * (in.x + lo - 1) + 1];
    }
    default:
      return false;
  }
}

/* Whether a match may begin with byte b (the prefilter's set: ASCII bytes only). */
GCOL_HD_INLINE bool gcol_detail_regex_may_begin(const gcol_detail_regex_prog *prog,
                                                unsigned char b) {
  return b < 0x80 && ((prog->first[b >> 5] >> (b & 31)) & 1u) != 0;
}

/* The state of one exec, carved from the caller's scratch. */
typedef struct gcol_detail_regex_vm {
  const gcol_detail_regex_prog *prog;
  const char *s;
  int64_t n;
  int32_t nslots;
  int64_t not_empty_at; /* a match may not be empty here (-1: anywhere) */
  int32_t *pcs[2];
  int32_t *slots[2];
  int32_t count[2];
  int32_t *marks;
  int32_t *work; /* slots of the thread being followed */
  /* triples: (pc, level, 0) to follow, or (-1 - slot, 0, old value) to restore */
  int32_t *stack;
} gcol_detail_regex_vm;

/* Pushes (pc, level) to follow. */
#define GCOL_DETAIL_RX_PUSH(pc_, level_) \
  do {                                   \
    vm->stack[top++] = (pc_);            \
    vm->stack[top++] = (level_);         \
    vm->stack[top++] = 0;                \
  } while (0)

/*
 * Adds to list l the threads that the epsilon closure of pc at position p reaches, in
 * priority order, each with the work slots it carries. A thread in the closure is a pc and
 * a level: how many of the LOOP bodies around pc, innermost first, began their current
 * iteration at p (those form such a chain: an inner iteration begins after the outer one).
 * The level is what CHECK reads (level > 0: this iteration consumed nothing), and the
 * future of a thread depends on (pc, level) alone, so marks dedup the pair (stamp): the
 * first thread, the one of highest priority, wins. No path meets the same pair twice at
 * one position (a CHECK goes back only from level 0, and the body it re-enters is then at
 * level >= 1 until it is left). A consuming instruction's future does not depend on the
 * level (every level is 0 after a character), so it is deduped on pc alone.
 */
GCOL_HD_INLINE void gcol_detail_regex_add(gcol_detail_regex_vm *vm, int l, int32_t pc0, int64_t p,
                                          int32_t stamp) {
  const gcol_detail_regex_prog *prog = vm->prog;
  int32_t const m = prog->num_insts;
  int32_t top = 0;
  GCOL_DETAIL_RX_PUSH(pc0, 0);
  while (top > 0) {
    int32_t const value = vm->stack[--top];
    int32_t const level = vm->stack[--top];
    int32_t const pc = vm->stack[--top];
    if (pc < 0) {
      vm->work[-1 - pc] = value;
      continue;
    }
    gcol_detail_regex_inst const in = prog->insts[pc];
    bool const consuming = in.op <= GCOL_DETAIL_RX_CLASS || in.op == GCOL_DETAIL_RX_MATCH;
    int32_t *mark = &vm->marks[(int64_t)(consuming ? 0 : level) * m + pc];
    if (*mark == stamp) continue;
    *mark = stamp;
    switch (in.op) {
      case GCOL_DETAIL_RX_JMP:
        GCOL_DETAIL_RX_PUSH(in.x, level);
        break;
      case GCOL_DETAIL_RX_SPLIT: /* y below x: x is followed first */
        GCOL_DETAIL_RX_PUSH(in.y, level);
        GCOL_DETAIL_RX_PUSH(in.x, level);
        break;
      case GCOL_DETAIL_RX_LOOP: /* the body (pc + 1) as a new iteration begun here */
        GCOL_DETAIL_RX_PUSH(in.y, in.y == pc + 1 ? level + 1 : level);
        GCOL_DETAIL_RX_PUSH(in.x, in.x == pc + 1 ? level + 1 : level);
        break;
      case GCOL_DETAIL_RX_CHECK:
        if (level > 0) {
          GCOL_DETAIL_RX_PUSH(in.y, level - 1); /* empty iteration: the tail only */
        } else {
          GCOL_DETAIL_RX_PUSH(in.x, 0);
        }
        break;
      case GCOL_DETAIL_RX_SAVE:
        if (in.x < vm->nslots) {
          vm->stack[top++] = -1 - in.x;
          vm->stack[top++] = 0;
          vm->stack[top++] = vm->work[in.x];
          vm->work[in.x] = (int32_t)p;
        }
        GCOL_DETAIL_RX_PUSH(pc + 1, level);
        break;
      case GCOL_DETAIL_RX_ASSERT:
        if (gcol_detail_regex_assert_holds(in.x, prog->flags, vm->s, vm->n, p)) {
          GCOL_DETAIL_RX_PUSH(pc + 1, level);
        }
        break;
      default: {
        if (in.op == GCOL_DETAIL_RX_MATCH && p == vm->not_empty_at) break;
        int32_t const k = vm->count[l]++;
        vm->pcs[l][k] = pc;
        for (int32_t j = 0; j < vm->nslots; ++j) vm->slots[l][k * vm->nslots + j] = vm->work[j];
        break;
      }
    }
  }
}

#undef GCOL_DETAIL_RX_PUSH

/*
 * Searches s (n bytes, n < 2^31) for the leftmost-first match that begins at or after byte
 * start (a character boundary), or only at start when anchored; a match may not be empty
 * at byte not_empty_at (-1 for no such rule: Python's rule after an empty match).
 * nslots: capture slots to report in caps (0: only whether there is a match, and it
 * returns at the first one found; 2: the match span; 2 * (groups + 1): every group).
 * caps[2g], caps[2g + 1] are group g's byte span, -1 when it did not take part.
 * scratch: gcol_detail_regex_scratch_ints(prog, nslots) words.
 */
GCOL_HD_INLINE bool gcol_detail_regex_exec_vm(const gcol_detail_regex_prog *prog, const char *s,
                                              int64_t n, int64_t start, bool anchored,
                                              int64_t not_empty_at, int32_t nslots,
                                              int32_t *scratch, int32_t *caps) {
  int32_t const m = prog->num_insts;
  gcol_detail_regex_vm vm;
  vm.prog = prog;
  vm.s = s;
  vm.n = n;
  vm.nslots = nslots;
  vm.not_empty_at = not_empty_at;
  vm.pcs[0] = scratch;
  vm.pcs[1] = scratch + m;
  vm.slots[0] = scratch + 2 * m;
  vm.slots[1] = vm.slots[0] + (int64_t)m * nslots;
  vm.marks = vm.slots[1] + (int64_t)m * nslots;
  int64_t const states = (int64_t)m * prog->num_levels;
  vm.work = vm.marks + states;
  vm.stack = vm.work + nslots;
  vm.count[0] = vm.count[1] = 0;
  for (int64_t i = 0; i < states; ++i) vm.marks[i] = 0;
  bool matched = false;
  int32_t stamp = 1;
  int cur = 0;
  /* the prefilter's skips add a stamp each: at most two per position stay below 2^31 */
  bool const skip = prog->has_first && !anchored && n < ((int64_t)1 << 30);
  for (int64_t p = start;;) {
    if (!matched && (!anchored || p == start)) {
      if (skip && vm.count[cur] == 0) { /* no thread alive: on to a byte a match begins with */
        int64_t q = p;
        while (q < n && !gcol_detail_regex_may_begin(prog, (unsigned char)s[q])) ++q;
        if (q >= n) break; /* no match can begin (none is empty) */
        if (q != p) ++stamp; /* marks left at p by closures that made no thread */
        p = q;
      }
      for (int32_t j = 0; j < nslots; ++j) vm.work[j] = -1;
      gcol_detail_regex_add(&vm, cur, 0, p, stamp); /* lowest priority: after the others */
    }
    if (vm.count[cur] == 0 && (matched || anchored || p >= n)) break;
    gcol_utf8_char const c = gcol_utf8_decode(s + p, n - p);
    int const next = 1 - cur;
    vm.count[next] = 0;
    ++stamp;
    for (int32_t t = 0; t < vm.count[cur]; ++t) {
      int32_t const pc = vm.pcs[cur][t];
      gcol_detail_regex_inst const in = prog->insts[pc];
      const int32_t *ts = vm.slots[cur] + (int64_t)t * nslots;
      if (in.op == GCOL_DETAIL_RX_MATCH) {
        matched = true;
        for (int32_t j = 0; j < nslots; ++j) caps[j] = ts[j];
        if (nslots == 0) return true;
        break; /* lower-priority threads lose to this match */
      }
      if (c.length > 0 && gcol_detail_regex_accepts(prog, in, c.code_point)) {
        for (int32_t j = 0; j < nslots; ++j) vm.work[j] = ts[j];
        gcol_detail_regex_add(&vm, next, pc + 1, p + c.length, stamp);
      }
    }
    if (p >= n) break;
    p += c.length;
    cur = next;
  }
  return matched;
}

/* Where the match whose first end is `end` ends: there, or (dfa_plus) after the longest run
 * of characters the repeated set accepts (greedy, the last thing in the pattern: the first
 * try succeeds); -2 where a byte >= 0x80 comes first (a character the VM decodes). */
GCOL_HD_INLINE int64_t gcol_detail_regex_dfa_greedy(const gcol_detail_regex_prog *prog,
                                                    const char *s, int64_t n, int64_t end) {
  if (prog->dfa_plus == 0) return end;
  gcol_detail_regex_inst const x = prog->insts[prog->dfa_plus];
  for (; end < n; ++end) {
    unsigned char const b = (unsigned char)s[end];
    if (b >= 0x80) return -2;
    if (!gcol_detail_regex_accepts(prog, x, b)) break;
  }
  return end;
}

/* gcol_detail_regex_exec_vm, after the DFA where the program has one (a search, or a match
 * at 0): a row without a match (or a rest of a row, after its last match) never runs the
 * VM, and one with a match runs it only for what the DFA cannot say (the match's bounds and
 * captures, nslots > 0; or not_empty_at). Where dfa_fixed (every match that long, or sets in
 * sequence ending in X+), a search's span comes from the DFA too: the first end is that of
 * the shortest match at the leftmost start (every match is at least dfa_fixed long, and one
 * that begins later ends later), which a greedy X+ extends. */
GCOL_HD_INLINE bool gcol_detail_regex_exec(const gcol_detail_regex_prog *prog, const char *s,
                                           int64_t n, int64_t start, bool anchored,
                                           int64_t not_empty_at, int32_t nslots, int32_t *scratch,
                                           int32_t *caps) {
  if (prog->dfa_fixed > 0 && !anchored && nslots <= 2) { /* the DFA alone finds the match */
    int64_t const first_end = gcol_detail_regex_dfa_end(prog, s, n, start);
    if (first_end == -1) return false;
    int64_t const end = first_end >= 0 ? gcol_detail_regex_dfa_greedy(prog, s, n, first_end) : -2;
    if (end >= 0) {
      for (int32_t j = 0; j < nslots; ++j) {
        caps[j] = (int32_t)(j == 0 ? first_end - prog->dfa_fixed : end);
      }
      return true;
    }
  }
  int const d = gcol_detail_regex_dfa_decide(prog, anchored, s, n, start);
  if (d == 0) return false;
  if (d == 1 && nslots == 0 && not_empty_at < 0) return true;
  return gcol_detail_regex_exec_vm(prog, s, n, start, anchored, not_empty_at, nslots, scratch,
                                   caps);
}

/* ---- iteration over the matches of a row, as Python's re.finditer ---- */

/* Finds the match after one ending at *pos (the first: *pos = 0, *last_empty = false);
 * caps as gcol_detail_regex_exec with nslots >= 2. After an empty match the next one may
 * not be empty at the same place (Python 3.7's rule). Advances *pos, *last_empty. */
GCOL_HD_INLINE bool gcol_detail_regex_next(const gcol_detail_regex_prog *prog, const char *s,
                                           int64_t n, int64_t *pos, bool *last_empty,
                                           int32_t nslots, int32_t *scratch, int32_t *caps) {
  if (*pos > n) return false;
  int64_t const not_empty_at = *last_empty ? *pos : -1;
  if (!gcol_detail_regex_exec(prog, s, n, *pos, false, not_empty_at, nslots, scratch, caps)) {
    *pos = n + 1;
    return false;
  }
  *last_empty = caps[0] == caps[1];
  *pos = caps[1];
  return true;
}

/* Number of non-overlapping matches in s (len(re.findall)), saturated at INT32_MAX. */
GCOL_HD_INLINE int32_t gcol_detail_regex_count(const gcol_detail_regex_prog *prog, const char *s,
                                               int64_t n, int32_t *scratch) {
  int64_t pos = 0;
  bool last_empty = false;
  int32_t caps[2];
  int32_t count = 0;
  while (gcol_detail_regex_next(prog, s, n, &pos, &last_empty, 2, scratch, caps)) {
    if (count < INT32_MAX) ++count;
  }
  return count;
}

/* ---- host compilation (regex_compile.c) ---- */

/* A compiled program in host memory: one allocation holding insts then ranges. */
typedef struct gcol_detail_regex_host {
  gcol_detail_regex_prog prog;
  void *block;
  int64_t block_bytes; /* insts and ranges, as copied to the device */
  /* host only, for \g<name> in replace templates: group g's name is the g-th NUL-terminated
   * string ("" unnamed); NULL when no group has a name */
  char *names;
} gcol_detail_regex_host;

/* Compiles pattern (size bytes, any bytes) with flags into *out. Invalid argument for a
 * malformed pattern (the message names the byte), unsupported for a construct outside the
 * subset (backreferences, lookaround, inline flags), overflow beyond the limits above,
 * out of memory. On failure *out is left empty (block NULL). */
gcol_status gcol_detail_regex_compile(const char *pattern, int64_t size, uint32_t flags,
                                      gcol_detail_regex_host *out);

/* Gives h's program its DFAs where they are exact and fit (regex_dfa.c): the block grows to
 * hold them. Leaves the program without one (the VM alone) for \b and \B, a table past
 * GCOL_DETAIL_REGEX_DFA_MAX_BYTES, or no host memory: never an error. */
void gcol_detail_regex_dfa_build(gcol_detail_regex_host *h);

/* Frees what gcol_detail_regex_compile allocated (safe on an empty one). */
void gcol_detail_regex_host_free(gcol_detail_regex_host *h);

/* Whether name (size bytes) is a valid group name: an identifier (ASCII letters, digits and
 * _, not first a digit; a byte >= 0x80 is taken as an identifier character, unchecked). */
bool gcol_detail_regex_is_group_name(const char *name, int64_t size);

/* The group named name (size bytes) in h, or 0 when no group has that name. */
int32_t gcol_detail_regex_group_index(const gcol_detail_regex_host *h, const char *name,
                                      int64_t size);

/* The public gcol_regex (strings/regex.h). */
struct gcol_regex {
  gcol_detail_regex_host host;
};

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_REGEX_MATCH_H */
