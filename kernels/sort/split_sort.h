/*
 * The split sort of one 64-bit key (split_sort.cu): the pure arithmetic of its plan, its
 * packed words and its fix-up, as GCOL_HD_INLINE functions so that the host suite
 * (tests/sort/test_sort_host.c) runs the exact code the kernels run.
 *
 * One 64-bit key without nulls (INT64, UINT64, FLOAT64, timestamps, durations, DECIMAL64;
 * either direction) of n <= INT32_MAX rows. Each value becomes its order-preserving word w
 * (gcol_detail_key_word); a min/max pass gives the live range: R = bits of (max - min).
 * - R <= 32 (narrow): the key is the 32-bit word w - min, sorted with an iota of rows
 *   (ceil(R / 8) passes of 8-byte pairs).
 * - R > 32 (split): w - min splits into hi = its top 32 bits and lo = its low R - 32 bits;
 *   the pair (hi, value = lo << idx_bits | row), idx_bits = bits of n - 1, is sorted by hi
 *   (4 passes of 12-byte pairs instead of 8). The stable passes leave each run of equal hi
 *   in row order; a fix-up then orders each run by its packed value, that is by lo and then
 *   by row: the stable order of the whole key. Runs of at most
 *   GCOL_DETAIL_SPLIT_SHORT_RUN rows are sorted by one thread each; longer runs are
 *   gathered and sorted together by (run number, lo), stably, with one more radix sort.
 */
#ifndef GCOL_KERNELS_SORT_SPLIT_SORT_H
#define GCOL_KERNELS_SORT_SPLIT_SORT_H

#include <stdbool.h>
#include <stdint.h>

#include "gcol/config.h"

GCOL_EXTERN_C_BEGIN

/* Longest run of equal hi that one thread of the fix-up sorts (insertion sort in local
 * memory); longer runs go to the long-run sort. */
#define GCOL_DETAIL_SPLIT_SHORT_RUN 16

/* What a split sort does with a key of this range and row count. */
typedef enum gcol_detail_split_kind {
  GCOL_DETAIL_SPLIT_NONE = 0,   /* doesn't fit: the general path */
  GCOL_DETAIL_SPLIT_NARROW = 1, /* R <= 32: one 32-bit key */
  GCOL_DETAIL_SPLIT_HI_LO = 2   /* R > 32: hi key, packed (lo, row) value, fix-up */
} gcol_detail_split_kind;

/* The plan of one split sort (passed by value into kernels). */
typedef struct gcol_detail_split_plan {
  uint64_t min;       /* subtracted from every word */
  int32_t kind;       /* gcol_detail_split_kind */
  int32_t range_bits; /* R: bits of max - min (0: all keys equal) */
  int32_t lo_bits;    /* R - 32 when R > 32 (1..32), else 0 */
  int32_t idx_bits;   /* bits of n - 1 (0 for n == 1) */
} gcol_detail_split_plan;

/* Bits needed to write x (0 for 0). */
GCOL_HD_INLINE int32_t gcol_detail_bit_width_u64(uint64_t x) {
  int32_t bits = 0;
  while (x != 0) {
    ++bits;
    x >>= 1;
  }
  return bits;
}

/* The plan for n rows whose words lie in [min, max] (min <= max). NONE when n is 0 or above
 * INT32_MAX (the fix-up writes INT32 rows, CUB counts them as int) or when lo and the row
 * index don't fit one 64-bit value (lo_bits + idx_bits > 64: never below 2^32 rows, so the
 * row limit decides today; the check keeps the packing honest if that limit is raised). */
GCOL_HD_INLINE gcol_detail_split_plan gcol_detail_split_plan_make(uint64_t min, uint64_t max,
                                                                  int64_t n) {
  gcol_detail_split_plan p;
  p.min = min;
  p.kind = GCOL_DETAIL_SPLIT_NONE;
  p.range_bits = gcol_detail_bit_width_u64(max - min);
  p.lo_bits = p.range_bits > 32 ? p.range_bits - 32 : 0;
  p.idx_bits = n > 0 ? gcol_detail_bit_width_u64((uint64_t)(n - 1)) : 0;
  if (n <= 0 || n > INT32_MAX) return p;
  if (p.range_bits <= 32) {
    p.kind = GCOL_DETAIL_SPLIT_NARROW;
  } else if (p.lo_bits + p.idx_bits <= 64) {
    p.kind = GCOL_DETAIL_SPLIT_HI_LO;
  }
  return p;
}

/* NARROW: the 32-bit key of word w. */
GCOL_HD_INLINE uint32_t gcol_detail_split_narrow_key(gcol_detail_split_plan p, uint64_t w) {
  return (uint32_t)(w - p.min);
}

/* HI_LO: the hi key of word w (its top 32 live bits). */
GCOL_HD_INLINE uint32_t gcol_detail_split_hi(gcol_detail_split_plan p, uint64_t w) {
  return (uint32_t)((w - p.min) >> p.lo_bits);
}

/* HI_LO: the packed value of word w at row `row`: lo above the row index. */
GCOL_HD_INLINE uint64_t gcol_detail_split_value(gcol_detail_split_plan p, uint64_t w, int64_t row) {
  uint64_t const lo = (w - p.min) & ((((uint64_t)1) << p.lo_bits) - 1u);
  return (lo << p.idx_bits) | (uint64_t)row;
}

/* HI_LO: the row index and the lo bits of a packed value. */
GCOL_HD_INLINE int64_t gcol_detail_split_row(gcol_detail_split_plan p, uint64_t value) {
  return (int64_t)(value & ((((uint64_t)1) << p.idx_bits) - 1u));
}

GCOL_HD_INLINE uint64_t gcol_detail_split_lo(gcol_detail_split_plan p, uint64_t value) {
  return value >> p.idx_bits;
}

/* The key of a long run's row: its run number above its lo bits (the long-run sort orders
 * by it, stably, so rows of equal lo keep their row order). */
GCOL_HD_INLINE uint64_t gcol_detail_split_run_key(gcol_detail_split_plan p, int64_t run,
                                                  uint64_t value) {
  return ((uint64_t)run << p.lo_bits) | gcol_detail_split_lo(p, value);
}

/* Bits of the long-run sort's key for `runs` long runs. */
GCOL_HD_INLINE int32_t gcol_detail_split_run_key_bits(gcol_detail_split_plan p, int64_t runs) {
  return gcol_detail_bit_width_u64(runs > 0 ? (uint64_t)(runs - 1) : 0u) + p.lo_bits;
}

/* What the fix-up thread of sorted position i does. */
typedef enum gcol_detail_split_role {
  GCOL_DETAIL_SPLIT_SINGLE = 0,     /* alone in its run: writes its own row */
  GCOL_DETAIL_SPLIT_SHORT_HEAD = 1, /* first of a short run: sorts and writes the run */
  GCOL_DETAIL_SPLIT_SHORT_BODY = 2, /* in a short run, not first: nothing */
  GCOL_DETAIL_SPLIT_LONG = 3,       /* in a long run: writes its own row (fixed later) */
  GCOL_DETAIL_SPLIT_LONG_TAIL = 4   /* last of a long run: as LONG, and records the run */
} gcol_detail_split_role;

/* First position in [0, end) whose hi is h, in an ascending array that holds h at end. */
GCOL_HD_INLINE int64_t gcol_detail_split_run_start(const uint32_t *hi, int64_t end, uint32_t h) {
  int64_t lo = 0;
  while (lo < end) {
    int64_t const mid = lo + (end - lo) / 2;
    if (hi[mid] < h) {
      lo = mid + 1;
    } else {
      end = mid;
    }
  }
  return lo;
}

/*
 * The role of position i of the ascending hi[0, n). A run is long when it has more than
 * GCOL_DETAIL_SPLIT_SHORT_RUN (T) rows. *start and *length get the run's first position and
 * length for SHORT_HEAD and LONG_TAIL (untouched otherwise). hi being sorted, hi[i - T] == h
 * or hi[i + T] == h means T + 1 equal rows around i: a long run, known from 4 reads (a row
 * of a huge run costs no more); otherwise the run lies within (i - T, i + T) and is walked
 * (fewer than 2T reads, only for rows in runs). A long run's last row finds its start by a
 * binary search.
 */
GCOL_HD_INLINE int32_t gcol_detail_split_role_of(const uint32_t *hi, int64_t n, int64_t i,
                                                 int64_t *start, int64_t *length) {
  int64_t const T = GCOL_DETAIL_SPLIT_SHORT_RUN;
  uint32_t const h = hi[i];
  bool const prev_eq = i > 0 && hi[i - 1] == h;
  bool const next_eq = i + 1 < n && hi[i + 1] == h;
  int64_t s = i, e = i + 1;
  if (!prev_eq && !next_eq) return GCOL_DETAIL_SPLIT_SINGLE;
  if ((i >= T && hi[i - T] == h) || (i + T < n && hi[i + T] == h)) {
    if (next_eq) return GCOL_DETAIL_SPLIT_LONG;
    /* the last row: hi[i + T] > h, so hi[i - T] == h */
    *start = gcol_detail_split_run_start(hi, i - T, h);
    *length = i - *start + 1;
    return GCOL_DETAIL_SPLIT_LONG_TAIL;
  }
  while (s > 0 && hi[s - 1] == h) --s; /* fewer than T steps each way */
  while (e < n && hi[e] == h) ++e;
  if (e - s > T) { /* T + 1 .. 2T - 1 rows, i too far from both ends for the probes */
    if (next_eq) return GCOL_DETAIL_SPLIT_LONG;
    *start = s;
    *length = e - s;
    return GCOL_DETAIL_SPLIT_LONG_TAIL;
  }
  if (s != i) return GCOL_DETAIL_SPLIT_SHORT_BODY;
  *start = s;
  *length = e - s;
  return GCOL_DETAIL_SPLIT_SHORT_HEAD;
}

/* Sorts v[0, len) ascending (a short run's packed values: distinct, so any sort is stable). */
GCOL_HD_INLINE void gcol_detail_split_sort_short(uint64_t *v, int32_t len) {
  for (int32_t k = 1; k < len; ++k) {
    uint64_t const x = v[k];
    int32_t j = k;
    while (j > 0 && v[j - 1] > x) {
      v[j] = v[j - 1];
      --j;
    }
    v[j] = x;
  }
}

/* The long run holding position j of the gathered long runs: the last r with
 * offsets[r] <= j (offsets: the exclusive sum of the runs' lengths, offsets[0] == 0). */
GCOL_HD_INLINE int64_t gcol_detail_split_run_of(const int64_t *offsets, int64_t runs, int64_t j) {
  int64_t lo = 0, hi = runs;
  while (hi - lo > 1) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= j) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_SORT_SPLIT_SORT_H */
