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
 * offset 1 to the bytes written so far; exactly the length announced. */
GCOL_HD_INLINE gcol_detail_pq_walk gcol_detail_pq_walk_snappy(const uint8_t *src, int64_t size,
                                                              int64_t out) {
  int64_t ip = 0;
  int64_t op = 0;
  int64_t announced = 0;
  for (int shift = 0;; shift += 7) {
    if (ip >= size || shift > 28) {
      return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_PREFIX, 0, 0);
    }
    uint8_t const b = src[ip++];
    announced |= (int64_t)(b & 127) << shift;
    if (b < 128) break;
  }
  if (announced != out) {
    return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_ANNOUNCED, announced, out);
  }
  while (ip < size) {
    uint8_t const tag = src[ip++];
    int const kind = tag & 3;
    int64_t len = 0;
    if (kind == 0) {
      len = (tag >> 2) + 1;
      if (len > 60) {
        int const n = (int)len - 60;
        if (n > size - ip) {
          return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_LIT_LENGTH, 0, 0);
        }
        len = gcol_detail_pq_read_le(src + ip, n) + 1;
        ip += n;
      }
      if (len > size - ip) {
        return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_LIT_PAST, ip, 0);
      }
      ip += len;
    } else {
      int const n = kind == 1 ? 1 : kind == 2 ? 2 : 4;
      if (n > size - ip) {
        return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SNAPPY_OFFSET_PAST, 0, 0);
      }
      len = kind == 1 ? 4 + ((tag >> 2) & 7) : (tag >> 2) + 1;
      int64_t const offset =
          kind == 1 ? (int64_t)(tag >> 5) << 8 | src[ip] : gcol_detail_pq_read_le(src + ip, n);
      ip += n;
      if (offset == 0 || offset > op) {
        return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OFFSET_BEFORE, offset, op);
      }
    }
    if (len > out - op) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_MORE, out, 0);
    op += len;
  }
  if (op != out) return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_SIZE, op, out);
  return gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OK, 0, 0);
}

#endif /* GCOL_LIB_INTERNAL_PQ_WALK_H */
