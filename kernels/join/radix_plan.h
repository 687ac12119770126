/*
 * The plan of a radix-partitioned hash join (include/gcol/join.h, gcol_join_algorithm): when
 * to partition, into how many partitions, and which partition a key's hash falls in. Plain C
 * with GCOL_HD_INLINE bodies: the host suite tests the exact code the kernels run.
 *
 * The join's hash map has `capacity` (a power of two, 2^c) 16-byte slots and a key starts its
 * linear probe at slot `hash & (capacity - 1)`. Partition p of 2^b owns the contiguous slots
 * [p << (c - b), (p + 1) << (c - b)): a key's partition is the top b bits of its first slot,
 * so the map itself is the same as one table's (any probe may run either way on any build);
 * only the order in which rows are inserted and probed changes. A probe sequence that runs
 * past its region's end goes on into the next one (rare at load <= 1/2; correct either way).
 *
 * A partitioned side has 2^b + 1 buckets: the partitions, then the rows whose key can match
 * nothing (a null key of a packed probe, or with nulls unequal). Its rows are counted per
 * tile of GCOL_DETAIL_RADIX_TILE rows and bucket, the counts laid out bucket-major (bucket *
 * tiles + tile) so that one exclusive sum gives each (bucket, tile) its first position, and
 * scattered stably: buckets in order, rows ascending within a bucket.
 */
#ifndef GCOL_KERNELS_JOIN_RADIX_PLAN_H
#define GCOL_KERNELS_JOIN_RADIX_PLAN_H

#include "gcol/config.h"
#include "gcol/join.h"

GCOL_EXTERN_C_BEGIN

/* ---- The rule of GCOL_JOIN_ALGORITHM_AUTO: retune these after measurements. ---- */

/* Whether AUTO partitions at all. Off: measured on an H200 (session 17, bench_join), the
 * partitioned join lost at every size tried: 10M unique keys x 100M probe rows over 64 bits
 * (a 512 MiB map, ~9x the L2) 7.33 ms against 4.53 on one table (build 1.56 against 0.95),
 * and 100M x 100M (a 4 GiB map) 27.4 against 12.8 (build 17.9 against 8.9). The partition
 * pass (a count and a stable scatter of 12 bytes a row, 3 barriers per 256 rows) costs more
 * than the probe's L2 locality saves. The rule below is what AUTO would apply with it on. */
#define GCOL_DETAIL_RADIX_AUTO_ENABLED 0

/* AUTO partitions a hash map of at least this many times the L2 cache's bytes (below it,
 * enough of the map stays in L2 that the partition pass costs more than it saves). */
#define GCOL_DETAIL_RADIX_MIN_L2_MULTIPLE 4.0
/* AUTO partitions a probe with at least this many rows per slot of such a map: a region's
 * lines must be read several times while they sit in L2 for the pass to pay (8 probe rows
 * per 128-byte line at 1.0). */
#define GCOL_DETAIL_RADIX_MIN_PROBE_ROWS_PER_SLOT 1.0
/* A partition's slots take at most L2 / this (the rest: the streams of rows and outputs). */
#define GCOL_DETAIL_RADIX_REGION_L2_DIVISOR 2
/* Bytes of one slot of the join's hash map. */
#define GCOL_DETAIL_RADIX_SLOT_BYTES 16

/* The partition pass: tiles of THREADS x ITEMS rows, one block each. */
#define GCOL_DETAIL_RADIX_THREADS 256
#define GCOL_DETAIL_RADIX_ITEMS 16
#define GCOL_DETAIL_RADIX_TILE (GCOL_DETAIL_RADIX_THREADS * GCOL_DETAIL_RADIX_ITEMS)

/* log2 of a power of two (0 for anything below 2). */
GCOL_HD_INLINE int gcol_detail_radix_log2(int64_t pow2) {
  int c = 0;
  while (c < 62 && ((int64_t)1 << (c + 1)) <= pow2) ++c;
  return c;
}

/* Bytes of a join map of `capacity` slots (one more slot for the packed key whose bits are
 * all ones), saturating at INT64_MAX. */
GCOL_HD_INLINE int64_t gcol_detail_radix_map_bytes(int64_t capacity) {
  if (capacity < 0 || capacity >= INT64_MAX / GCOL_DETAIL_RADIX_SLOT_BYTES - 1) return INT64_MAX;
  return (capacity + 1) * GCOL_DETAIL_RADIX_SLOT_BYTES;
}

/* Partition bits that make a region of a map of `capacity` slots take at most
 * l2_bytes / GCOL_DETAIL_RADIX_REGION_L2_DIVISOR, at most GCOL_JOIN_RADIX_MAX_BITS and at
 * most log2(capacity) (one slot a partition); 0 when the L2 size is unknown (<= 0). */
GCOL_HD_INLINE int gcol_detail_radix_bits_for(int64_t capacity, int64_t l2_bytes) {
  int const c = gcol_detail_radix_log2(capacity);
  int64_t const region = l2_bytes / GCOL_DETAIL_RADIX_REGION_L2_DIVISOR;
  int b = 0;
  if (l2_bytes <= 0) return 0;
  while (b < GCOL_JOIN_RADIX_MAX_BITS && b < c &&
         (capacity >> b) > region / GCOL_DETAIL_RADIX_SLOT_BYTES) {
    ++b;
  }
  return b;
}

/* The bits a join uses: `forced_bits` (1..GCOL_JOIN_RADIX_MAX_BITS, cut to log2(capacity))
 * when positive, else gcol_detail_radix_bits_for(). */
GCOL_HD_INLINE int gcol_detail_radix_bits(int forced_bits, int64_t capacity, int64_t l2_bytes) {
  int const c = gcol_detail_radix_log2(capacity);
  if (forced_bits <= 0) return gcol_detail_radix_bits_for(capacity, l2_bytes);
  if (forced_bits > GCOL_JOIN_RADIX_MAX_BITS) forced_bits = GCOL_JOIN_RADIX_MAX_BITS;
  return forced_bits < c ? forced_bits : c;
}

/* AUTO: whether a map of `capacity` slots is far enough beyond L2 to build in partitions. */
GCOL_HD_INLINE bool gcol_detail_radix_map_too_big(int64_t capacity, int64_t l2_bytes) {
  return l2_bytes > 0 && (double)gcol_detail_radix_map_bytes(capacity) >=
                             GCOL_DETAIL_RADIX_MIN_L2_MULTIPLE * (double)l2_bytes;
}

/* Whether a build of a hash map of `capacity` slots inserts in partitions. */
GCOL_HD_INLINE bool gcol_detail_radix_build(gcol_join_algorithm algorithm, int64_t capacity,
                                            int64_t l2_bytes) {
  if (algorithm == GCOL_JOIN_ALGORITHM_RADIX) return true;
  if (algorithm == GCOL_JOIN_ALGORITHM_ONE_TABLE) return false;
  return GCOL_DETAIL_RADIX_AUTO_ENABLED && gcol_detail_radix_map_too_big(capacity, l2_bytes);
}

/* Whether a probe of `probe_rows` rows of a build (a hash map of `capacity` slots, or the
 * direct layout: never partitioned) runs in partitions. */
GCOL_HD_INLINE bool gcol_detail_radix_probe(gcol_join_algorithm algorithm, bool hash_map,
                                            int64_t capacity, int64_t probe_rows,
                                            int64_t l2_bytes) {
  if (!hash_map || algorithm == GCOL_JOIN_ALGORITHM_ONE_TABLE) return false;
  if (algorithm == GCOL_JOIN_ALGORITHM_RADIX) return true;
  return GCOL_DETAIL_RADIX_AUTO_ENABLED && gcol_detail_radix_map_too_big(capacity, l2_bytes) &&
         (double)probe_rows >= GCOL_DETAIL_RADIX_MIN_PROBE_ROWS_PER_SLOT * (double)capacity;
}

/* The shift that takes a first slot to its partition: log2(capacity) - bits. */
GCOL_HD_INLINE int gcol_detail_radix_shift(int64_t capacity, int bits) {
  return gcol_detail_radix_log2(capacity) - bits;
}

/* The partition of a key's hash: the top bits of its first slot (hash & mask, mask =
 * capacity - 1), in [0, 2^bits). */
GCOL_HD_INLINE uint32_t gcol_detail_radix_partition(uint64_t hash, uint64_t mask, int shift) {
  return (uint32_t)((hash & mask) >> shift);
}

/* Where the count of (bucket, tile) lives: bucket-major, so an exclusive sum over
 * buckets * tiles + 1 counts gives each its first position (and the total last). */
GCOL_HD_INLINE int64_t gcol_detail_radix_count_index(int64_t bucket, int64_t tile, int64_t tiles) {
  return bucket * tiles + tile;
}

/* Tiles of the partition pass over `rows` rows. */
GCOL_HD_INLINE int64_t gcol_detail_radix_tiles(int64_t rows) {
  return rows <= 0 ? 0 : (rows - 1) / GCOL_DETAIL_RADIX_TILE + 1;
}

/* Counts of a partition pass over `rows` rows into 2^bits partitions and the no-match bucket,
 * with the total after them; 0 when that many would not fit in int64 bytes. */
GCOL_HD_INLINE int64_t gcol_detail_radix_counts(int64_t rows, int bits) {
  int64_t const tiles = gcol_detail_radix_tiles(rows);
  int64_t const buckets = ((int64_t)1 << bits) + 1;
  if (tiles > (INT64_MAX / 8 - 1) / buckets) return 0;
  return buckets * tiles + 1;
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_JOIN_RADIX_PLAN_H */
