/*
 * Walks of LZ4_RAW and SNAPPY pages before nvCOMP gets them (docs/design.md, "nvCOMP"): a
 * page is walked through its format without writing anything (lengths, every copy's offset
 * within what is written so far, lz4's end-of-block rules, exactly the header's size), so that
 * nvCOMP's kernels, which trust their input, never get one they could decompress past its
 * output. The same code runs on the host (gcol_detail_pq_check_for_gpu, its tests) and on the
 * GPU (a thread per page, before the batch goes to nvCOMP).
 */
#ifndef GCOL_LIB_INTERNAL_PQ_WALK_H
#define GCOL_LIB_INTERNAL_PQ_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "gcol/config.h"

/* What a walk found; a and b: the numbers of its message (gcol_detail_pq_check_for_gpu). */
enum {
  GCOL_DETAIL_PQ_WALK_OK = 0,
  GCOL_DETAIL_PQ_WALK_LZ4_EMPTY,       /* out 0 but not lz4's one empty block */
  GCOL_DETAIL_PQ_WALK_LZ4_SHORT,       /* a: bytes written when the block ended */
  GCOL_DETAIL_PQ_WALK_LZ4_LIT_LENGTH,  /* a: out */
  GCOL_DETAIL_PQ_WALK_LZ4_LIT_PAST,    /* a: input position */
  GCOL_DETAIL_PQ_WALK_MORE,            /* a: out */
  GCOL_DETAIL_PQ_WALK_LZ4_NEAR_END,    /* a: bytes written */
  GCOL_DETAIL_PQ_WALK_OFFSET_BEFORE,   /* a: offset, b: bytes written */
  GCOL_DETAIL_PQ_WALK_LZ4_MATCH_LENGTH, /* a: out */
  GCOL_DETAIL_PQ_WALK_LZ4_INTO_END,    /* a: bytes written, b: out */
  GCOL_DETAIL_PQ_WALK_SIZE,            /* a: bytes written, b: out */
  GCOL_DETAIL_PQ_WALK_SNAPPY_PREFIX,
  GCOL_DETAIL_PQ_WALK_SNAPPY_ANNOUNCED, /* a: announced, b: out */
  GCOL_DETAIL_PQ_WALK_SNAPPY_LIT_LENGTH,
  GCOL_DETAIL_PQ_WALK_SNAPPY_LIT_PAST, /* a: input position */
  GCOL_DETAIL_PQ_WALK_SNAPPY_OFFSET_PAST,
};

typedef struct gcol_detail_pq_walk {
  int code;
  int64_t a, b;
} gcol_detail_pq_walk;

/* Whether a walk's finding is about the decompressed size (its message says "another size"). */
GCOL_HD_INLINE bool gcol_detail_pq_walk_is_size(int code) {
  return code == GCOL_DETAIL_PQ_WALK_LZ4_EMPTY || code == GCOL_DETAIL_PQ_WALK_MORE ||
         code == GCOL_DETAIL_PQ_WALK_SIZE || code == GCOL_DETAIL_PQ_WALK_SNAPPY_ANNOUNCED;
}

GCOL_HD_INLINE gcol_detail_pq_walk gcol_detail_pq_walk_make(int code, int64_t a, int64_t b) {
  gcol_detail_pq_walk w;
  w.code = code;
  w.a = a;
  w.b = b;
  return w;
}

/* An LZ4 length's extension bytes (255 continues) added to *len, bounded by `most` so the sum
 * never overflows. */
GCOL_HD_INLINE bool gcol_detail_pq_lz4_length(const uint8_t *src, int64_t size, int64_t *ip,
                                              int64_t most, int64_t *len) {
  uint8_t b = 255;
  while (b == 255) {
    if (*ip >= size || *len > most) return false;
    b = src[(*ip)++];
    *len += b;
  }
  return *len <= most;
}

/* A raw LZ4 block (lz4's block format): token, literal length (+ extension), literals, then
 * unless the block ends there a 2-byte offset and the match length (+ extension, + 4). The
 * rules of lz4's own safe decoder: the last sequence is literals only; a match starts 12 or
 * more bytes before the end (and 8 input bytes follow its literals) and ends 5 or more before
 * it; an offset is 1 to the bytes written so far. */
GCOL_HD_INLINE gcol_detail_pq_walk gcol_detail_pq_walk_lz4(const uint8_t *src, int64_t size,
                                                           int64_t out) {
  int64_t ip = 0;
  int64_t op = 0;
  if (out == 0 && (size != 1 || src[0] != 0)) { /* lz4's one empty block: a zero token */
    return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_LZ4_EMPTY, 0, 0);
  }
  for (;;) {
    if (ip >= size) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_LZ4_SHORT, op, 0);
    uint8_t const token = src[ip++];
    int64_t lit = token >> 4;
    if (lit == 15 && !gcol_detail_pq_lz4_length(src, size, &ip, out, &lit)) {
      return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_LZ4_LIT_LENGTH, out, 0);
    }
    if (lit > size - ip) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_LZ4_LIT_PAST, ip, 0);
    if (lit > out - op) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_MORE, out, 0);
    ip += lit;
    op += lit;
    if (ip == size) break; /* the last sequence: literals only */
    if (op > out - 12 || size - ip < 8) {
      return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_LZ4_NEAR_END, op, 0);
    }
    int64_t const offset = (int64_t)src[ip] | (int64_t)src[ip + 1] << 8;
    ip += 2;
    if (offset == 0 || offset > op) {
      return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OFFSET_BEFORE, offset, op);
    }
    int64_t match = token & 15;
    if (match == 15 && !gcol_detail_pq_lz4_length(src, size, &ip, out, &match)) {
      return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_LZ4_MATCH_LENGTH, out, 0);
    }
    match += 4;
    if (match > out - 5 - op) {
      return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_LZ4_INTO_END, op, out);
    }
    op += match;
  }
  if (op != out) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SIZE, op, out);
  return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OK, 0, 0);
}

/* A little-endian number of `n` bytes at src. */
GCOL_HD_INLINE int64_t gcol_detail_pq_read_le(const uint8_t *src, int n) {
  int64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | src[i];
  return v;
}

/* Snappy's format: a varint of the decompressed length, then literals (tag 0: length in the
 * tag or 1 to 4 bytes after it) and copies (tags 1, 2, 3: 1, 2 or 4 offset bytes), each copy's
 * offset 1 to the bytes written so far; exactly the length announced. In pieces, which the
 * GPU's walk by windows (below) puts together in parallel: the length prefix, the element at
 * a position, and the checks of an element against the bytes written before it. */

/* One Snappy element: the input bytes it takes (tag included), the bytes it writes, and a
 * copy's offset (-1 for a literal). */
typedef struct gcol_detail_pq_snappy_element {
  int64_t in;
  int64_t out;
  int64_t offset;
} gcol_detail_pq_snappy_element;

/* The varint length prefix, which must announce `out`; *ip moves past it. */
GCOL_HD_INLINE gcol_detail_pq_walk gcol_detail_pq_snappy_prefix(const uint8_t *src, int64_t size,
                                                                int64_t out, int64_t *ip) {
  int64_t announced = 0;
  for (int shift = 0;; shift += 7) {
    if (*ip >= size || shift > 28) {
      return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_PREFIX, 0, 0);
    }
    uint8_t const b = src[(*ip)++];
    announced |= (int64_t)(b & 127) << shift;
    if (b < 128) break;
  }
  if (announced != out) {
    return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_ANNOUNCED, announced, out);
  }
  return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OK, 0, 0);
}

/* The element at ip < size of src[0, size) into *e; a finding when its bytes run past size. */
GCOL_HD_INLINE gcol_detail_pq_walk gcol_detail_pq_snappy_element_at(
    const uint8_t *src, int64_t size, int64_t ip, gcol_detail_pq_snappy_element *e) {
  uint8_t const tag = src[ip];
  int64_t p = ip + 1;
  int const kind = tag & 3;
  if (kind == 0) {
    int64_t len = (tag >> 2) + 1;
    if (len > 60) {
      int const n = (int)len - 60;
      if (n > size - p) {
        return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_LIT_LENGTH, 0, 0);
      }
      len = gcol_detail_pq_read_le(src + p, n) + 1;
      p += n;
    }
    if (len > size - p) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_LIT_PAST, p, 0);
    e->in = p + len - ip;
    e->out = len;
    e->offset = -1;
    return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OK, 0, 0);
  }
  int const n = kind == 1 ? 1 : kind == 2 ? 2 : 4;
  if (n > size - p) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_OFFSET_PAST, 0, 0);
  e->in = 1 + n;
  e->out = kind == 1 ? 4 + ((tag >> 2) & 7) : (tag >> 2) + 1;
  e->offset = kind == 1 ? (int64_t)(tag >> 5) << 8 | src[p] : gcol_detail_pq_read_le(src + p, n);
  return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OK, 0, 0);
}

/* An element after op bytes of `out` were written: a copy's offset 1 to op, and no more than
 * `out` written. `need`: the least op its offset allows (0 for a literal; above any op when
 * the offset is 0). */
GCOL_HD_INLINE gcol_detail_pq_walk gcol_detail_pq_snappy_check(int64_t need, int64_t offset,
                                                               int64_t len, int64_t out,
                                                               int64_t op) {
  if (need > op) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OFFSET_BEFORE, offset, op);
  if (len > out - op) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_MORE, out, 0);
  return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OK, 0, 0);
}

GCOL_HD_INLINE int64_t gcol_detail_pq_snappy_need(int64_t offset) {
  return offset < 0 ? 0 : offset == 0 ? INT64_MAX : offset;
}

GCOL_HD_INLINE gcol_detail_pq_walk gcol_detail_pq_walk_snappy(const uint8_t *src, int64_t size,
                                                              int64_t out) {
  int64_t ip = 0;
  int64_t op = 0;
  gcol_detail_pq_walk w = gcol_detail_pq_snappy_prefix(src, size, out, &ip);
  if (w.code != GCOL_DETAIL_PQ_WALK_OK) return w;
  while (ip < size) {
    gcol_detail_pq_snappy_element e;
    w = gcol_detail_pq_snappy_element_at(src, size, ip, &e);
    if (w.code != GCOL_DETAIL_PQ_WALK_OK) return w;
    w = gcol_detail_pq_snappy_check(gcol_detail_pq_snappy_need(e.offset), e.offset, e.out, out, op);
    if (w.code != GCOL_DETAIL_PQ_WALK_OK) return w;
    ip += e.in;
    op += e.out;
  }
  if (op != out) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SIZE, op, out);
  return w;
}

/* ---- the GPU's SNAPPY walk, by windows of a page's bytes in shared memory ----
 * For every position p of a window (and p = its length, none), the tables say where the
 * element starting at p would end, what it writes and the op its offset needs, when it lies
 * wholly in the window (next NONE otherwise). Squared (next and bytes written over 2, 4, ...
 * elements), they let one thread find a checkpoint every `hop` elements with the bytes
 * written there; a thread per checkpoint then checks its elements, the last one the rest of
 * the window (parsing from the page an element the tables lack). The first checkpoint in
 * order with a finding gives the walk's. Replayed on the host by the tests. */

#define GCOL_DETAIL_PQ_SNAPPY_NONE 0xffffu
#define GCOL_DETAIL_PQ_SNAPPY_WINDOW_MAX 0x4000 /* 16 hops' output fits 16 bits */

/* Entry p of a window of `len` bytes (p == len: none). */
GCOL_HD_INLINE void gcol_detail_pq_snappy_entry(const uint8_t *window, int64_t len, int64_t p,
                                                uint16_t *next, uint16_t *wrote, uint32_t *need) {
  gcol_detail_pq_snappy_element e;
  if (p >= len ||
      gcol_detail_pq_snappy_element_at(window, len, p, &e).code != GCOL_DETAIL_PQ_WALK_OK) {
    next[p] = GCOL_DETAIL_PQ_SNAPPY_NONE;
    wrote[p] = 0;
    need[p] = 0;
    return;
  }
  int64_t const n = gcol_detail_pq_snappy_need(e.offset);
  next[p] = (uint16_t)(p + e.in);
  wrote[p] = (uint16_t)e.out;
  need[p] = n > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)n; /* UINT32_MAX: above any op */
}

/* A squaring of the jump tables at p: from h elements on (next, wrote) to 2h (next2, wrote2). */
GCOL_HD_INLINE void gcol_detail_pq_snappy_square(const uint16_t *next, const uint16_t *wrote,
                                                 int64_t p, uint16_t *next2, uint16_t *wrote2) {
  uint16_t const q = next[p];
  uint16_t const r = q == GCOL_DETAIL_PQ_SNAPPY_NONE ? q : next[q];
  next2[p] = r;
  wrote2[p] = r == GCOL_DETAIL_PQ_SNAPPY_NONE ? 0 : (uint16_t)(wrote[p] + wrote[q]);
}

/* Checkpoints from window position 0 with op bytes written: check[k] the position of element
 * k * hop, check_op[k] the bytes written before it; at most `most`. Returns how many. */
GCOL_HD_INLINE int32_t gcol_detail_pq_snappy_checkpoints(const uint16_t *jump,
                                                         const uint16_t *jump_wrote, int64_t op,
                                                         int32_t most, uint16_t *check,
                                                         int64_t *check_op) {
  int32_t n = 1;
  check[0] = 0;
  check_op[0] = op;
  while (n < most && jump[check[n - 1]] != GCOL_DETAIL_PQ_SNAPPY_NONE) {
    check[n] = jump[check[n - 1]];
    check_op[n] = check_op[n - 1] + jump_wrote[check[n - 1]];
    ++n;
  }
  return n;
}

/* Where a walk stands: the next element at ip, op bytes written. */
typedef struct gcol_detail_pq_snappy_walker {
  int64_t ip;
  int64_t op;
} gcol_detail_pq_snappy_walker;

/* A checkpoint's walk over the window src[lo, hi) (hi <= size) with its tables: `count`
 * elements, or with count < 0 every element starting before hi (parsing from src those the
 * tables lack). True with *w when it found something: a failing element, or the page's end
 * (*w OK or the size); false when it walked its elements (*s past them). */
GCOL_HD_INLINE bool gcol_detail_pq_snappy_walk_from(const uint8_t *src, int64_t size, int64_t out,
                                                    int64_t lo, int64_t hi, const uint16_t *next,
                                                    const uint16_t *wrote, const uint32_t *need,
                                                    int32_t count, gcol_detail_pq_snappy_walker *s,
                                                    gcol_detail_pq_walk *w) {
  int64_t ip = s->ip;
  int64_t op = s->op;
  *w = gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OK, 0, 0);
  for (int32_t k = 0; count < 0 ? ip < hi : k < count; ++k) {
    uint16_t const q = next[ip - lo];
    gcol_detail_pq_snappy_element e;
    int64_t n;
    /* need UINT32_MAX: an offset of 0 or 2^32 - 1, which fails; parsed again for its number */
    if (q != GCOL_DETAIL_PQ_SNAPPY_NONE && need[ip - lo] != UINT32_MAX) {
      e.in = q - (ip - lo);
      e.out = wrote[ip - lo];
      n = need[ip - lo];
      e.offset = n; /* a copy's offset (a literal's 0 never fails its check) */
    } else {
      *w = gcol_detail_pq_snappy_element_at(src, size, ip, &e);
      if (w->code != GCOL_DETAIL_PQ_WALK_OK) return true;
      n = gcol_detail_pq_snappy_need(e.offset);
    }
    *w = gcol_detail_pq_snappy_check(n, e.offset, e.out, out, op);
    if (w->code != GCOL_DETAIL_PQ_WALK_OK) return true;
    ip += e.in;
    op += e.out;
  }
  s->ip = ip;
  s->op = op;
  if (count >= 0 || ip < size) return false;
  if (op != out) *w = gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SIZE, op, out);
  return true;
}

#endif /* GCOL_LIB_INTERNAL_PQ_WALK_H */
