/*
 * Equality joins (include/gcol/join.h) on the shared hash map (kernels/detail/hash_table.cuh:
 * 16-byte slots, key word and value side by side).
 *
 * Build: every build row with a usable key claims the slot of its key's group; the first row
 * of a group stores its index as the slot's value. One fixed-width key column of at most 8
 * bytes without nulls is packed: the slot holds the key's bits, so neither build nor probe
 * reads the build's keys at a random row. When every usable key is unique (the common case
 * of a join on a primary key) the build ends there: a probe reads one slot and has its row.
 * Otherwise rows per slot are counted, an exclusive sum gives each group a run of `rows` (a
 * CSR layout) and a second pass drops each build row's index into its run: a key with 10K
 * duplicates is one slot and one run, so the cost per output row does not depend on how
 * often keys repeat (no chain of duplicates to walk, no cliff).
 *
 * Probe, in tiles of TILE probe rows, one block each: pass 1 finds each probe row's match
 * (the build row, or the run's start) and the tile's output count; an exclusive sum over the
 * tiles gives the exact 64-bit size before anything is allocated; pass 2 scans each tile's
 * rows again and writes the output rows of the requested range (a batch) in probe-row order.
 * Where a probe row has at most one output row (unique build keys, semi and anti joins) the
 * match is all pass 2 reads. Where it may have many, pass 2 writes one output row per
 * thread, finding its probe row by a binary search of the tile's offsets in shared memory,
 * so a probe row with 10K matches is spread over the block. A full join marks the matched
 * slots in pass 1 and appends the unmatched build rows.
 *
 * Radix partitions (radix_plan.h): a map far beyond L2 is the same map, but its build rows,
 * and a large probe's rows, are first reordered by the region of slots their key starts in
 * (a count per tile and bucket, an exclusive sum, a stable scatter of the key's bits or hash
 * and the row index); inserts and pass 1 then read the rows by position, so the random
 * accesses of the blocks in flight fall in one region that stays in L2, and pass 2 writes the
 * position's row. Everything else (runs, sums, batches, the full join's tail) is unchanged.
 */
#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "detail/gather.h"
#include "detail/hash_table.cuh"
#include "detail/scan.h"
#include "gcol/join.h"
#include "internal/spill.h"
#include "join/radix_plan.h"

struct gcol_join_hash {
  gcol_buffer *slots; /* the hash map's slots (not direct) */
  gcol_detail_hash_map map;
  bool direct;          /* integer keys indexed by value: slot = key - dir_min */
  uint64_t dir_bias;    /* direct: XORed into a key's bits so signed keys order as unsigned */
  uint64_t dir_min;     /* direct: the smallest biased build key */
  int64_t dir_range;    /* direct: slots, max - min + 1 */
  gcol_buffer *present; /* direct: uint32 bitmap of the slots holding a build key */
  gcol_buffer *dir;     /* direct, unique: int64 first build row of each present slot */
  gcol_buffer *rank;    /* direct, while building: uint32 place of a row among its key's rows */
  gcol_buffer *counts;  /* direct, while building: uint32 rows per slot */
  gcol_buffer *keys;    /* gcol_detail_row_column[num_keys] of the build keys */
  int32_t num_keys;
  gcol_data_type *types; /* host copy of the build key types (probe keys must match) */
  bool packed;           /* one fixed-width key of <= 8 bytes, no nulls in the build */
  bool unique;           /* every usable build key once: a slot's value is its build row */
  gcol_buffer *offsets;  /* !unique: int64[capacity + 2], run of slot s = rows[offsets[s]..s+1) */
  gcol_buffer *rows;     /* !unique: build rows grouped by slot (int32 up to INT32_MAX rows) */
  gcol_buffer *row_slot; /* int64[build rows]: a build row's slot, -1 when its key is unusable */
  int64_t build_rows;
  bool nulls_equal;
  gcol_join_algorithm algorithm; /* the options' */
  int32_t radix_bits_option;     /* the options' (0: by L2) */
  int radix_bits;                /* hash map: partition bits of a partitioned build or probe */
  bool radix_build;              /* the build was inserted in partitions */
  int64_t l2_bytes;              /* the device's L2 cache (0: unknown) */
};

namespace {

/* Probe rows per tile: THREADS threads, ITEMS rows each. */
constexpr int TILE_THREADS = 256;
constexpr int TILE_ITEMS = 8;
constexpr int64_t TILE = (int64_t)TILE_THREADS * TILE_ITEMS;
/* Output rows per block of the many-matches writer, were the batch spread over every tile. */
constexpr int64_t SHARE = 4096;

/* The keys and options a kernel needs to find a row's slot. */
typedef struct join_keys {
  gcol_detail_hash_map map;
  const gcol_detail_row_column *build, *probe;
  int32_t num_keys;
  bool nulls_equal, packed, direct;
  uint64_t dir_bias, dir_min;
  int64_t dir_range;
  const uint32_t *present;
  const long long *dir;
} join_keys;

/* Direct keys: the slot of a key's bits, or -1 when it is outside the build's range. */
__device__ __forceinline__ int64_t direct_slot(const join_keys &k, uint64_t bits) {
  uint64_t const x = (bits ^ k.dir_bias) - k.dir_min;
  return x < (uint64_t)k.dir_range ? (int64_t)x : -1;
}

/* Direct keys: the slot of probe row i or -1; its build row in *value if `want_value`. */
__device__ __forceinline__ int64_t find_direct(const join_keys &k, int64_t i, bool want_value,
                                               int64_t *value) {
  if (!gcol_detail_row_valid(&k.probe[0], i)) return -1;
  int64_t const x = direct_slot(k, gcol_detail_row_bits(&k.probe[0], i));
  if (x < 0 || ((k.present[x >> 5] >> (x & 31)) & 1u) == 0) return -1;
  if (want_value) *value = k.dir[x];
  return x;
}

/* The slot of probe row i, -1 when nothing matches; its value in *value where the slot has
 * one at hand (hash) or `want_value` asks for it (direct). */
__device__ __forceinline__ int64_t find_slot(const join_keys &k, int64_t i, bool want_value,
                                             int64_t *value) {
  if (k.direct) return find_direct(k, i, want_value, value);
  if (k.packed) {
    /* the build has no null: a null probe row matches nothing, whatever the null option */
    if (!gcol_detail_row_valid(&k.probe[0], i)) return -1;
    return gcol_detail_map_find_packed(k.map, gcol_detail_row_bits(&k.probe[0], i), value);
  }
  if (!k.nulls_equal && gcol_detail_row_has_null(k.probe, k.num_keys, i)) return -1;
  gcol_detail_row_matcher m = {k.build, k.probe, k.num_keys, k.nulls_equal, i};
  return gcol_detail_map_find_row(k.map, gcol_detail_row_hash(k.probe, k.num_keys, i), &m, value);
}

/* How a partition pass splits keys: first slot `hash & mask`, partition `>> shift`, and
 * `parts` partitions (bucket `parts` holds the rows that match nothing). */
typedef struct radix_geometry {
  uint64_t mask;
  int shift;
  uint32_t parts;
} radix_geometry;

/* A side partitioned by the map region of its keys, read by position. */
typedef struct radix_view {
  const unsigned long long *words; /* the key's bits (packed) or its row hash */
  const void *rows;                /* the row at each position: int64 (wide) or int32 */
  bool wide;
  const int64_t *nomatch; /* device: the first position of the no-match bucket */
} radix_view;

__device__ __forceinline__ int64_t radix_row(const radix_view &r, int64_t pos) {
  return r.wide ? ((const int64_t *)r.rows)[pos] : (int64_t)((const int32_t *)r.rows)[pos];
}

/* The bucket of row i of the key columns `cols` (build or probe) and its word: the key's bits
 * (packed) or its row hash; bucket g.parts for a key that can match nothing. */
__device__ __forceinline__ uint32_t radix_bucket(const join_keys &k,
                                                 const gcol_detail_row_column *cols, int64_t i,
                                                 radix_geometry g, unsigned long long *word) {
  *word = 0;
  if (k.packed) { /* the build has no null: a null probe row matches nothing */
    if (!gcol_detail_row_valid(&cols[0], i)) return g.parts;
    uint64_t const bits = gcol_detail_row_bits(&cols[0], i);
    *word = bits;
    return gcol_detail_radix_partition(gcol_hash_mix64(bits), g.mask, g.shift);
  }
  if (!k.nulls_equal && gcol_detail_row_has_null(cols, k.num_keys, i)) return g.parts;
  uint64_t const hash = gcol_detail_row_hash(cols, k.num_keys, i);
  *word = hash;
  return gcol_detail_radix_partition(hash, g.mask, g.shift);
}

/* A partitioned probe: the slot of position `pos`, -1 when nothing matches; its value in
 * *value. */
__device__ __forceinline__ int64_t find_radix(const join_keys &k, const radix_view &r, int64_t pos,
                                              int64_t *value) {
  if (pos >= *r.nomatch) return -1;
  unsigned long long const word = r.words[pos];
  if (k.packed) return gcol_detail_map_find_packed(k.map, word, value);
  gcol_detail_row_matcher m = {k.build, k.probe, k.num_keys, k.nulls_equal, radix_row(r, pos)};
  return gcol_detail_map_find_row(k.map, word, &m, value);
}

/* Sets *flag once per block where any thread saw `seen` (all threads call it): millions of
 * stores to one address from every row with a repeated key took milliseconds. */
__device__ __forceinline__ void flag_block(bool seen, int *flag) {
  if (__syncthreads_or(seen) && threadIdx.x == 0 && *(volatile int *)flag == 0) *flag = 1;
}

/* Partition buckets: 2^GCOL_JOIN_RADIX_MAX_BITS partitions and the no-match bucket. */
constexpr int RADIX_MAX_BUCKETS = (1 << GCOL_JOIN_RADIX_MAX_BITS) + 1;
/* The bucket of a thread without a row. */
constexpr uint32_t RADIX_NO_BUCKET = 0xFFFFFFFFu;

/* An insert's result for build row i: its slot, the slot's value if it is the key's first
 * row, or the mark of a repeated key; *overflow when the probe sequence ran out. */
__device__ __forceinline__ void record_insert(const join_keys &k, int64_t i, int64_t slot,
                                              bool inserted, int64_t *row_slot, int *overflow,
                                              bool *repeated) {
  if (slot < 0) {
    *overflow = 1;
  } else if (inserted) {
    k.map.slots[2 * slot + 1] = (unsigned long long)i;
  } else {
    *repeated = true;
  }
  row_slot[i] = slot;
}

/* Build: the slot of build row i (claimed if new; the first row stores itself as the value),
 * -1 for a key with a null when nulls are unequal. Sets *dup when a key repeats and
 * *overflow when a probe sequence runs out. */
__global__ void build_insert_kernel(join_keys k, int64_t n, int64_t *row_slot, int *dup,
                                    int *overflow) {
  bool repeated = false;
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t slot = -1;
    bool inserted = false;
    if (k.packed) {
      slot = gcol_detail_map_insert_packed(k.map, gcol_detail_row_bits(&k.build[0], i), &inserted);
    } else if (k.nulls_equal || !gcol_detail_row_has_null(k.build, k.num_keys, i)) {
      gcol_detail_row_matcher m = {k.build, k.build, k.num_keys, k.nulls_equal, i};
      slot = gcol_detail_map_insert_row(k.map, gcol_detail_row_hash(k.build, k.num_keys, i), &m,
                                        &inserted);
    } else {
      row_slot[i] = -1;
      continue;
    }
    record_insert(k, i, slot, inserted, row_slot, overflow, &repeated);
  }
  flag_block(repeated, dup);
}

/* Build in partitions: build_insert_kernel over the rows in partition order. */
__global__ void build_insert_radix_kernel(join_keys k, radix_view r, int64_t n, int64_t *row_slot,
                                          int *dup, int *overflow) {
  bool repeated = false;
  int64_t const nomatch = *r.nomatch;
  GCOL_DETAIL_GRID_LOOP(pos, n) {
    int64_t const i = radix_row(r, pos);
    int64_t slot = -1;
    bool inserted = false;
    if (pos >= nomatch) { /* a null key, nulls unequal */
      row_slot[i] = -1;
      continue;
    }
    if (k.packed) {
      slot = gcol_detail_map_insert_packed(k.map, r.words[pos], &inserted);
    } else {
      gcol_detail_row_matcher m = {k.build, k.build, k.num_keys, k.nulls_equal, i};
      slot = gcol_detail_map_insert_row(k.map, r.words[pos], &m, &inserted);
    }
    record_insert(k, i, slot, inserted, row_slot, overflow, &repeated);
  }
  flag_block(repeated, dup);
}

/* Partition pass 1: the rows of each bucket in each tile of GCOL_DETAIL_RADIX_TILE rows (a
 * block per tile), at counts[bucket * tiles + tile]. */
__global__ void __launch_bounds__(GCOL_DETAIL_RADIX_THREADS)
    radix_count_smem_kernel(join_keys k, const gcol_detail_row_column *cols, int64_t n,
                            radix_geometry g, int64_t tiles, int64_t *counts) {
  __shared__ unsigned int hist[RADIX_MAX_BUCKETS];
  int const buckets = (int)g.parts + 1;
  unsigned int const lanes_below = (1u << (threadIdx.x & 31)) - 1u;
  for (int b = threadIdx.x; b < buckets; b += GCOL_DETAIL_RADIX_THREADS) hist[b] = 0;
  __syncthreads();
  int64_t const start = (int64_t)blockIdx.x * GCOL_DETAIL_RADIX_TILE;
  for (int j = 0; j < GCOL_DETAIL_RADIX_ITEMS; ++j) {
    int64_t const i = start + (int64_t)j * GCOL_DETAIL_RADIX_THREADS + threadIdx.x;
    unsigned long long word = 0;
    uint32_t const b = i < n ? radix_bucket(k, cols, i, g, &word) : RADIX_NO_BUCKET;
    /* one shared atomic per bucket a warp's rows fall in (few partitions: one per warp) */
    unsigned int const peers = __match_any_sync(0xFFFFFFFFu, b);
    if (b != RADIX_NO_BUCKET && (peers & lanes_below) == 0) atomicAdd(&hist[b], __popc(peers));
  }
  __syncthreads();
  for (int b = threadIdx.x; b < buckets; b += GCOL_DETAIL_RADIX_THREADS) {
    counts[gcol_detail_radix_count_index(b, blockIdx.x, tiles)] = hist[b];
  }
}

/* Partition pass 2: each row's word and index to its place, stable. offsets: the exclusive sum
 * of the counts. A tile goes in rounds of a row per thread (in row order); a row's place is
 * its (bucket, tile)'s offset, the bucket's rows of earlier rounds, of lower warps of this
 * round (shared counts), and of lower lanes of its warp (__match_any_sync). */
template <typename R>
__global__ void __launch_bounds__(GCOL_DETAIL_RADIX_THREADS)
    radix_scatter_smem_kernel(join_keys k, const gcol_detail_row_column *cols, int64_t n,
                              radix_geometry g, int64_t tiles, const int64_t *offsets,
                              unsigned long long *words, R *rows) {
  constexpr int WARPS = GCOL_DETAIL_RADIX_THREADS / 32;
  __shared__ int64_t base[RADIX_MAX_BUCKETS];
  __shared__ unsigned int warp_counts[WARPS][RADIX_MAX_BUCKETS];
  int const buckets = (int)g.parts + 1;
  int const warp = threadIdx.x / 32;
  unsigned int const lanes_below = (1u << (threadIdx.x & 31)) - 1u;
  for (int b = threadIdx.x; b < buckets; b += GCOL_DETAIL_RADIX_THREADS) {
    base[b] = offsets[gcol_detail_radix_count_index(b, blockIdx.x, tiles)];
    for (int w = 0; w < WARPS; ++w) warp_counts[w][b] = 0;
  }
  __syncthreads();
  int64_t const start = (int64_t)blockIdx.x * GCOL_DETAIL_RADIX_TILE;
  for (int j = 0; j < GCOL_DETAIL_RADIX_ITEMS; ++j) {
    int64_t const i = start + (int64_t)j * GCOL_DETAIL_RADIX_THREADS + threadIdx.x;
    unsigned long long word = 0;
    uint32_t const b = i < n ? radix_bucket(k, cols, i, g, &word) : RADIX_NO_BUCKET;
    unsigned int const peers = __match_any_sync(0xFFFFFFFFu, b);
    if (b != RADIX_NO_BUCKET && (peers & lanes_below) == 0) warp_counts[warp][b] = __popc(peers);
    __syncthreads();
    if (b != RADIX_NO_BUCKET) {
      int64_t pos = base[b] + __popc(peers & lanes_below);
      for (int w = 0; w < warp; ++w) pos += warp_counts[w][b];
      words[pos] = word;
      rows[pos] = (R)i;
    }
    __syncthreads();
    for (int c = threadIdx.x; c < buckets; c += GCOL_DETAIL_RADIX_THREADS) {
      unsigned int sum = 0;
      for (int w = 0; w < WARPS; ++w) {
        sum += warp_counts[w][c];
        warp_counts[w][c] = 0;
      }
      base[c] += sum;
    }
    __syncthreads();
  }
}

/* Direct build: the smallest and largest biased key (mm[0], mm[1]). */
__global__ void direct_range_kernel(join_keys k, int64_t n, unsigned long long *mm) {
  unsigned long long lo = ~0ull, hi = 0;
  GCOL_DETAIL_GRID_LOOP(i, n) {
    unsigned long long const b = gcol_detail_row_bits(&k.build[0], i) ^ k.dir_bias;
    lo = b < lo ? b : lo;
    hi = b > hi ? b : hi;
  }
  for (int d = 16; d > 0; d /= 2) { /* one atomic per warp (the grid is bounded) */
    unsigned long long const l = __shfl_xor_sync(0xFFFFFFFFu, lo, d);
    unsigned long long const h = __shfl_xor_sync(0xFFFFFFFFu, hi, d);
    lo = l < lo ? l : lo;
    hi = h > hi ? h : hi;
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&mm[0], lo);
    atomicMax(&mm[1], hi);
  }
}

/* Direct build: counts the rows of each slot (32-bit: the counts of a range that fits in L2
 * stay there) and keeps each row's place in its slot's run. */
__global__ void direct_insert_kernel(join_keys k, int64_t n, uint32_t *counts, int64_t *row_slot,
                                     uint32_t *rank, int *dup) {
  bool repeated = false;
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const x = direct_slot(k, gcol_detail_row_bits(&k.build[0], i));
    uint32_t const before = atomicAdd(&counts[x], 1u);
    repeated = repeated || before > 0;
    row_slot[i] = x;
    rank[i] = before; /* the row's place in its run, if keys repeat */
  }
  flag_block(repeated, dup);
}

/* Direct build with unique keys: each slot's row (a pass of its own: with repeated keys the
 * rows go to runs instead, and these random writes would be wasted). */
__global__ void direct_rows_kernel(const int64_t *row_slot, int64_t n, long long *dir) {
  GCOL_DETAIL_GRID_LOOP(i, n) { dir[row_slot[i]] = i; }
}

/* Direct build: the bitmap of slots with rows, a warp per 32 slots (streams the counts:
 * cheaper than an atomic OR per build row). */
__global__ void direct_present_kernel(const uint32_t *counts, int64_t range, uint32_t *present) {
  int64_t const warps = (int64_t)gridDim.x * blockDim.x / 32;
  for (int64_t w = gcol_detail_thread_index() / 32; w * 32 < range; w += warps) {
    int64_t const x = w * 32 + (threadIdx.x & 31);
    uint32_t const bits = __ballot_sync(0xFFFFFFFFu, x < range && counts[x] > 0);
    if ((threadIdx.x & 31) == 0) present[w] = bits;
  }
}

/* Direct build with repeated keys: 64-bit counts for the scan (offsets[range] = 0). */
__global__ void widen_counts_kernel(const uint32_t *counts, int64_t range, int64_t *offsets) {
  GCOL_DETAIL_GRID_LOOP(x, range + 1) { offsets[x] = x < range ? counts[x] : 0; }
}

/* Direct build with repeated keys: each row to its place in its key's run. */
template <typename R>
__global__ void direct_fill_kernel(const int64_t *row_slot, const uint32_t *rank,
                                   const int64_t *offsets, int64_t n, R *rows) {
  GCOL_DETAIL_GRID_LOOP(i, n) { rows[offsets[row_slot[i]] + rank[i]] = (R)i; }
}

/* Build with repeated keys: rows per slot. */
__global__ void build_count_kernel(const int64_t *row_slot, int64_t n, unsigned long long *counts) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const slot = row_slot[i];
    if (slot >= 0) atomicAdd(&counts[slot], 1ull);
  }
}

/* rows[cursor[slot]++] = i for every build row with a slot. */
template <typename R>
__global__ void build_fill_kernel(const int64_t *row_slot, int64_t n, unsigned long long *cursor,
                                  R *rows) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const slot = row_slot[i];
    if (slot >= 0) rows[atomicAdd(&cursor[slot], 1ull)] = (R)i;
  }
}

/* Output rows of one probe row with `matches` matches. */
__device__ __forceinline__ int64_t output_count(gcol_join_kind kind, int64_t matches) {
  switch (kind) {
    case GCOL_JOIN_INNER:
      return matches;
    case GCOL_JOIN_LEFT_SEMI:
      return matches > 0 ? 1 : 0;
    case GCOL_JOIN_LEFT_ANTI:
      return matches > 0 ? 0 : 1;
    default:
      return matches > 0 ? matches : 1; /* left, full */
  }
}

/* Where a probe pass reads and writes. */
template <typename M>
struct probe_args {
  gcol_join_kind kind;
  int64_t n;              /* probe rows */
  const int64_t *offsets; /* the build's runs (NULL: unique keys, or no right rows wanted) */
  bool want_value;        /* unique keys and right rows wanted: the slot's build row */
  M *match;               /* per probe row: the build row (one output row at most) or the run's
                             start (several), -1 when none */
  int64_t *counts;        /* per probe row output rows, when several are possible (else NULL) */
  uint8_t *matched;       /* full join: matched slots (else NULL) */
  int64_t *tile_counts;   /* output rows per tile */
};

/* Pass 1, one probe row (a position of the partitioned probe when RADIX): its slot, match
 * (build row, run start or mark) and match count. */
template <bool DIRECT, bool RADIX, typename M>
__device__ __forceinline__ int64_t match_row(const join_keys &k, const probe_args<M> &a,
                                             const radix_view &r, int64_t i, int64_t *match,
                                             int64_t *matches) {
  int64_t value = -1;
  int64_t const slot = DIRECT  ? find_direct(k, i, a.want_value, &value)
                       : RADIX ? find_radix(k, r, i, &value)
                               : find_slot(k, i, a.want_value, &value);
  *match = -1;
  *matches = slot >= 0 ? 1 : 0;
  if (slot >= 0 && a.offsets != NULL) {
    *match = a.offsets[slot];
    *matches = a.offsets[slot + 1] - *match;
  } else if (slot >= 0) {
    *match = a.want_value ? value : 0; /* semi and anti joins read no right row */
  }
  return slot;
}

/* Pass 1, one probe row's stores; returns its output rows. */
template <typename M>
__device__ __forceinline__ int64_t store_row(const probe_args<M> &a, int64_t i, int64_t slot,
                                             int64_t match, int64_t matches) {
  int64_t const count = output_count(a.kind, matches);
  if (a.matched != NULL && slot >= 0) a.matched[slot] = 1;
  a.match[i] = (M)(matches > 0 ? match : -1);
  if (a.counts != NULL) a.counts[i] = count;
  return count;
}

/* Pass 1 over one tile per block (rows striped over the threads), a row at a time (the
 * probe loops of hash keys would take the registers that occupancy needs). RADIX: the tiles
 * are of the partitioned probe's positions. */
template <typename M, bool RADIX>
__global__ void __launch_bounds__(TILE_THREADS)
    probe_match_smem_kernel(join_keys k, probe_args<M> a, radix_view r) {
  typedef cub::BlockReduce<int64_t, TILE_THREADS> reduce_t;
  __shared__ typename reduce_t::TempStorage temp;
  int64_t const tile_start = (int64_t)blockIdx.x * TILE;
  int64_t total = 0;
  for (int j = 0; j < TILE_ITEMS; ++j) {
    int64_t const i = tile_start + (int64_t)j * TILE_THREADS + threadIdx.x;
    if (i >= a.n) break;
    int64_t match = -1, matches = 0;
    int64_t const slot = match_row<false, RADIX>(k, a, r, i, &match, &matches);
    total += store_row(a, i, slot, match, matches);
  }
  total = reduce_t(temp).Sum(total);
  if (threadIdx.x == 0) a.tile_counts[blockIdx.x] = total;
}

/* Pass 1 for direct keys: all lookups of a thread's rows before any store, so that their
 * loads are in flight together (a row at a time left the probe bound by the latency of its
 * dependent loads). */
template <typename M>
__global__ void __launch_bounds__(TILE_THREADS, 4)
    probe_direct_smem_kernel(join_keys k, probe_args<M> a) {
  typedef cub::BlockReduce<int64_t, TILE_THREADS> reduce_t;
  __shared__ typename reduce_t::TempStorage temp;
  int64_t const tile_start = (int64_t)blockIdx.x * TILE;
  int64_t slot[TILE_ITEMS], match[TILE_ITEMS], matches[TILE_ITEMS], total = 0;
#pragma unroll
  for (int j = 0; j < TILE_ITEMS; ++j) {
    int64_t const i = tile_start + (int64_t)j * TILE_THREADS + threadIdx.x;
    slot[j] = i < a.n ? match_row<true, false>(k, a, radix_view(), i, &match[j], &matches[j]) : -1;
  }
#pragma unroll
  for (int j = 0; j < TILE_ITEMS; ++j) {
    int64_t const i = tile_start + (int64_t)j * TILE_THREADS + threadIdx.x;
    if (i < a.n) total += store_row(a, i, slot[j], match[j], matches[j]);
  }
  total = reduce_t(temp).Sum(total);
  if (threadIdx.x == 0) a.tile_counts[blockIdx.x] = total;
}

/* Pass 2 where every probe row has at most one output row: a block scan of the tile's flags
 * places them. Output rows [first, last) are written, shifted by first. perm: the row of each
 * position of a partitioned probe (NULL: positions are rows). */
template <typename M, typename T>
__global__ void __launch_bounds__(TILE_THREADS)
    write_single_smem_kernel(gcol_join_kind kind, int64_t n, const M *match, const T *perm,
                             const int64_t *tile_offsets, int64_t first, int64_t last, T *left,
                             T *right) {
  typedef cub::BlockScan<int64_t, TILE_THREADS> scan_t;
  __shared__ typename scan_t::TempStorage temp;
  int64_t const base = tile_offsets[blockIdx.x];
  if (tile_offsets[blockIdx.x + 1] <= first || base >= last) return;
  int64_t const tile_start = (int64_t)blockIdx.x * TILE;
  int64_t m[TILE_ITEMS];
#pragma unroll
  for (int j = 0; j < TILE_ITEMS; ++j) { /* every load first */
    int64_t const i = tile_start + (int64_t)j * TILE_THREADS + threadIdx.x;
    m[j] = i < n ? (int64_t)match[i] : -1;
  }
  int64_t done = 0;
#pragma unroll
  for (int j = 0; j < TILE_ITEMS; ++j) {
    int64_t const i = tile_start + (int64_t)j * TILE_THREADS + threadIdx.x;
    int64_t const flag = i < n ? output_count(kind, m[j] >= 0 ? 1 : 0) : 0;
    int64_t pos = 0, sum = 0;
    scan_t(temp).ExclusiveSum(flag, pos, sum);
    __syncthreads(); /* temp is reused by the next round */
    int64_t const at = base + done + pos;
    if (flag != 0 && at >= first && at < last) {
      left[at - first] = perm != NULL ? perm[i] : (T)i;
      if (right != NULL) right[at - first] = (T)m[j];
    }
    done += sum;
  }
}

/* The last of `rows` tile rows whose output start is <= rel (starts ascending, starts[0] 0). */
__device__ __forceinline__ int last_start_at_most(const int64_t *starts, int rows, int64_t rel) {
  int a = 0, b = rows;
  while (b - a > 1) {
    int const mid = (a + b) / 2;
    if (starts[mid] <= rel) {
      a = mid;
    } else {
      b = mid;
    }
  }
  return a;
}

/* Output rows a thread of the many-matches writer handles at once (loads in flight). */
constexpr int WRITE_UNROLL = 4;

/* Pass 2 where a probe row may have many output rows: the tile's offsets go to shared memory
 * and each thread writes output rows (consecutive rows by consecutive threads), finding its
 * probe row by binary search. gridDim.y blocks share a tile: where keys repeat thousands of
 * times a batch may fall within a few tiles. */
template <typename M, typename T>
__global__ void __launch_bounds__(TILE_THREADS)
    write_multi_smem_kernel(int64_t n, const M *match, const int64_t *counts, const M *rows,
                            const T *perm, const int64_t *tile_offsets, int64_t first, int64_t last,
                            T *left, T *right) {
  typedef cub::BlockScan<int64_t, TILE_THREADS> scan_t;
  __shared__ typename scan_t::TempStorage temp;
  __shared__ int64_t starts[TILE]; /* output offset of each tile row within the tile */
  int64_t const base = tile_offsets[blockIdx.x], end = tile_offsets[blockIdx.x + 1];
  /* this block's share (blockIdx.y of gridDim.y) of the tile's output rows in [first, last) */
  int64_t lo = base > first ? base : first, hi = end < last ? end : last;
  int64_t const share = hi > lo ? (hi - lo + gridDim.y - 1) / gridDim.y : 0;
  lo += share * blockIdx.y;
  hi = lo + share < hi ? lo + share : hi;
  if (lo >= hi) return;
  int64_t const tile_start = (int64_t)blockIdx.x * TILE;
  int const rows_here = (int)(n - tile_start < TILE ? n - tile_start : TILE);
  int64_t cnt[TILE_ITEMS];
#pragma unroll
  for (int j = 0; j < TILE_ITEMS; ++j) {
    int const r = j * TILE_THREADS + threadIdx.x;
    cnt[j] = r < rows_here ? counts[tile_start + r] : 0;
  }
  int64_t done = 0;
#pragma unroll
  for (int j = 0; j < TILE_ITEMS; ++j) {
    int64_t pos = 0, sum = 0;
    scan_t(temp).ExclusiveSum(cnt[j], pos, sum);
    __syncthreads();
    starts[j * TILE_THREADS + threadIdx.x] = done + pos;
    done += sum;
  }
  __syncthreads();
  for (int64_t k0 = lo + threadIdx.x; k0 < hi; k0 += WRITE_UNROLL * TILE_THREADS) {
    int64_t row[WRITE_UNROLL], right_row[WRITE_UNROLL];
#pragma unroll
    for (int u = 0; u < WRITE_UNROLL; ++u) {
      int64_t const rel = k0 + u * TILE_THREADS - base;
      int const r = k0 + u * TILE_THREADS < hi ? last_start_at_most(starts, rows_here, rel) : 0;
      row[u] = tile_start + r;
      right_row[u] = rel - starts[r]; /* the match's place in its run */
    }
#pragma unroll
    for (int u = 0; u < WRITE_UNROLL; ++u) {
      if (k0 + u * TILE_THREADS >= hi) break;
      int64_t const run = (int64_t)match[row[u]];
      right_row[u] = run >= 0 && right != NULL ? rows[run + right_row[u]] : -1;
      if (perm != NULL) row[u] = (int64_t)perm[row[u]]; /* the position's left row */
    }
#pragma unroll
    for (int u = 0; u < WRITE_UNROLL; ++u) {
      int64_t const k = k0 + u * TILE_THREADS;
      if (k >= hi) break;
      left[k - first] = (T)row[u];
      if (right != NULL) right[k - first] = (T)right_row[u];
    }
  }
}

/* Full join: flags[j] = 1 for build rows no probe row matched (their key unusable or their
 * slot unmarked). */
__global__ void unmatched_kernel(const int64_t *row_slot, const uint8_t *matched, int64_t n,
                                 int64_t *flags) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    int64_t const slot = row_slot[j];
    flags[j] = slot < 0 || matched[slot] == 0 ? 1 : 0;
  }
}

/* Full join: unmatched build row j (position pos[j] among them) is output row base + pos[j]. */
template <typename T>
__global__ void unmatched_write_kernel(const int64_t *row_slot, const uint8_t *matched,
                                       const int64_t *pos, int64_t n, int64_t base, int64_t first,
                                       int64_t last, T *left, T *right) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    int64_t const slot = row_slot[j];
    if (!(slot < 0 || matched[slot] == 0)) continue;
    int64_t const k = base + pos[j];
    if (k < first || k >= last) continue;
    left[k - first] = (T)-1;
    right[k - first] = (T)j;
  }
}

template <typename T>
__global__ void cross_kernel(int64_t first, int64_t count, int64_t right_rows, T *left, T *right) {
  GCOL_DETAIL_GRID_LOOP(k, count) {
    left[k] = (T)((first + k) / right_rows);
    right[k] = (T)((first + k) % right_rows);
  }
}

unsigned int grid_for(int64_t n) { return gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE); }

/* Flat descriptors of every column of a key table (all of them are keys). */
gcol_status key_columns(gcol_table_view keys, gcol_stream stream, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;
  *out = NULL;
  GCOL_DETAIL_CHECK(keys.num_columns >= 1 && keys.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "the key table has no column");
  indices = (int32_t *)calloc((size_t)keys.num_columns, sizeof *indices);
  GCOL_DETAIL_CHECK(indices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                    (int)keys.num_columns);
  for (int32_t k = 0; k < keys.num_columns; ++k) indices[k] = k;
  GCOL_DETAIL_TRY(
      gcol_detail_row_columns_make(keys, indices, keys.num_columns, true, false, stream, out));
done:
  free(indices);
  return status;
}

bool kind_valid(gcol_join_kind kind) {
  return kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL ||
         kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI;
}

bool has_right(gcol_join_kind kind) {
  return kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL;
}

/* Probe keys: the build's key count and types. */
gcol_status check_probe(const gcol_join_hash *h, gcol_table_view probe, gcol_join_kind kind) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(h);
  GCOL_DETAIL_CHECK(kind_valid(kind), GCOL_ERROR_INVALID_ARGUMENT, "kind is %d, not a join kind",
                    (int)kind);
  GCOL_DETAIL_CHECK(probe.num_columns == h->num_keys, GCOL_ERROR_INVALID_ARGUMENT,
                    "the probe has %d key columns, the build %d", (int)probe.num_columns,
                    (int)h->num_keys);
  for (int32_t k = 0; k < h->num_keys; ++k) {
    gcol_data_type const a = probe.columns[k].type, b = h->types[k];
    GCOL_DETAIL_CHECK(a.id == b.id && a.scale == b.scale, GCOL_ERROR_TYPE_MISMATCH,
                      "key column %d is %s (scale %d) in the probe, %s (scale %d) in the build",
                      (int)k, gcol_type_name(a.id), (int)a.scale, gcol_type_name(b.id),
                      (int)b.scale);
  }
done:
  return status;
}

/* A side partitioned by the map region of its keys (radix_plan.h): per position the key's
 * word and its row, and the scanned counts per (bucket, tile). */
typedef struct radix_side {
  gcol_buffer *words, *rows, *offsets;
  bool wide;          /* rows are int64 (else int32) */
  int64_t nomatch_at; /* index into offsets of the no-match bucket's first position */
} radix_side;

void radix_side_free(radix_side *r) {
  gcol_buffer_free(r->words);
  gcol_buffer_free(r->rows);
  gcol_buffer_free(r->offsets);
  memset(r, 0, sizeof *r);
}

radix_view view_of(const radix_side *r) {
  radix_view v;
  v.words = (const unsigned long long *)r->words->data;
  v.rows = r->rows->data;
  v.wide = r->wide;
  v.nomatch = (const int64_t *)r->offsets->data + r->nomatch_at;
  return v;
}

/* The state of one probe: pass 1 and the sums. */
typedef struct probe_state {
  gcol_buffer *keys, *match, *counts, *tile_offsets, *matched, *unmatched_pos;
  radix_side radix; /* a partitioned probe's positions (else empty) */
  bool partitioned; /* the probe runs in radix partitions */
  bool wide_match;  /* match is int64 (else int32) */
  bool multi;       /* a probe row may have several output rows */
  int64_t tiles;
  int64_t probe_total; /* output rows from probe rows */
  int64_t unmatched;   /* full join: unmatched build rows appended */
} probe_state;

void probe_state_free(probe_state *p) {
  gcol_buffer_free(p->keys);
  gcol_buffer_free(p->match);
  gcol_buffer_free(p->counts);
  gcol_buffer_free(p->tile_offsets);
  gcol_buffer_free(p->matched);
  gcol_buffer_free(p->unmatched_pos);
  radix_side_free(&p->radix);
  memset(p, 0, sizeof *p);
}

/* Reads element `index` of a device int64 array (synchronizes). */
gcol_status read_i64(const gcol_buffer *b, int64_t index, int64_t *out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(out, (const int64_t *)b->data + index, sizeof *out,
                                       cudaMemcpyDeviceToHost, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
done:
  return status;
}

/* Slots a build row's slot indexes (matched flags, runs). */
int64_t num_slots(const gcol_join_hash *h) {
  return h->direct ? h->dir_range : h->map.capacity + 1;
}

join_keys keys_of(const gcol_join_hash *h, const gcol_buffer *probe_keys) {
  join_keys k;
  k.map = h->map;
  k.build = (const gcol_detail_row_column *)h->keys->data;
  k.probe = probe_keys != NULL ? (const gcol_detail_row_column *)probe_keys->data : k.build;
  k.num_keys = h->num_keys;
  k.nulls_equal = h->nulls_equal;
  k.packed = h->packed;
  k.direct = h->direct;
  k.dir_bias = h->dir_bias;
  k.dir_min = h->dir_min;
  k.dir_range = h->dir_range;
  k.present = h->present != NULL ? (const uint32_t *)h->present->data : NULL;
  k.dir = h->dir != NULL ? (const long long *)h->dir->data : NULL;
  return k;
}

/* The partition of a map's keys the hash's build and probes use. */
radix_geometry geometry_of(const gcol_join_hash *h) {
  radix_geometry g;
  g.mask = (uint64_t)h->map.capacity - 1u;
  g.shift = gcol_detail_radix_shift(h->map.capacity, h->radix_bits);
  g.parts = 1u << h->radix_bits;
  return g;
}

/* Partitions the n > 0 rows of the key columns `cols` (the build's or a probe's, as in k) by
 * the map region of their keys: counts, their exclusive sum, the stable scatter. */
gcol_status radix_partition(const gcol_join_hash *h, const join_keys &k,
                            const gcol_detail_row_column *cols, int64_t n, bool wide,
                            gcol_stream stream, radix_side *out) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  radix_geometry const g = geometry_of(h);
  int64_t const tiles = gcol_detail_radix_tiles(n);
  int64_t const counts = gcol_detail_radix_counts(n, h->radix_bits);
  memset(out, 0, sizeof *out);
  out->wide = wide;
  out->nomatch_at = gcol_detail_radix_count_index(g.parts, 0, tiles);
  GCOL_DETAIL_CHECK(counts > 0 && tiles <= INT32_MAX, GCOL_ERROR_OVERFLOW,
                    "%lld rows in %u radix partitions are too many tiles", (long long)n,
                    (unsigned)g.parts);
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)counts * 8u, stream, NULL, &out->offsets));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(out->offsets->data, 0, (size_t)counts * 8u, s));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * 8u, stream, NULL, &out->words));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * (wide ? 8u : 4u), stream, NULL, &out->rows));
  radix_count_smem_kernel<<<(unsigned int)tiles, GCOL_DETAIL_RADIX_THREADS, 0, s>>>(
      k, cols, n, g, tiles, (int64_t *)out->offsets->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)out->offsets->data,
                                                (int64_t *)out->offsets->data, counts, stream));
  if (wide) {
    radix_scatter_smem_kernel<int64_t><<<(unsigned int)tiles, GCOL_DETAIL_RADIX_THREADS, 0, s>>>(
        k, cols, n, g, tiles, (const int64_t *)out->offsets->data,
        (unsigned long long *)out->words->data, (int64_t *)out->rows->data);
  } else {
    radix_scatter_smem_kernel<int32_t><<<(unsigned int)tiles, GCOL_DETAIL_RADIX_THREADS, 0, s>>>(
        k, cols, n, g, tiles, (const int64_t *)out->offsets->data,
        (unsigned long long *)out->words->data, (int32_t *)out->rows->data);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  if (status != GCOL_OK) radix_side_free(out);
  return status;
}

/* Whether a probe of `rows` rows of h runs in radix partitions. */
bool probe_partitioned(const gcol_join_hash *h, int64_t rows) {
  return gcol_detail_radix_probe(h->algorithm, !h->direct, h->map.capacity, rows, h->l2_bytes);
}

template <typename M>
void launch_match(const gcol_join_hash *h, gcol_join_kind kind, probe_state *p, int64_t n,
                  cudaStream_t s) {
  probe_args<M> a;
  a.kind = kind;
  a.n = n;
  a.offsets = h->unique || !has_right(kind) ? NULL : (const int64_t *)h->offsets->data;
  a.want_value = h->unique && has_right(kind);
  a.match = (M *)p->match->data;
  a.counts = p->multi ? (int64_t *)p->counts->data : NULL;
  a.matched = p->matched != NULL ? (uint8_t *)p->matched->data : NULL;
  a.tile_counts = (int64_t *)p->tile_offsets->data;
  unsigned int const tiles = (unsigned int)p->tiles;
  if (h->direct) {
    probe_direct_smem_kernel<M><<<tiles, TILE_THREADS, 0, s>>>(keys_of(h, p->keys), a);
  } else if (p->partitioned) {
    probe_match_smem_kernel<M, true>
        <<<tiles, TILE_THREADS, 0, s>>>(keys_of(h, p->keys), a, view_of(&p->radix));
  } else {
    probe_match_smem_kernel<M, false>
        <<<tiles, TILE_THREADS, 0, s>>>(keys_of(h, p->keys), a, radix_view());
  }
}

/* Full join: positions of the unmatched build rows (synchronizes). */
gcol_status count_unmatched(const gcol_join_hash *h, probe_state *p, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t const nb = h->build_rows;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(nb + 1) * 8u, stream, NULL, &p->unmatched_pos));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(p->unmatched_pos->data, 0, (size_t)(nb + 1) * 8u, s));
  unmatched_kernel<<<grid_for(nb), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      (const int64_t *)h->row_slot->data, (const uint8_t *)p->matched->data, nb,
      (int64_t *)p->unmatched_pos->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)p->unmatched_pos->data,
                                                (int64_t *)p->unmatched_pos->data, nb + 1, stream));
  GCOL_DETAIL_TRY(read_i64(p->unmatched_pos, nb, &p->unmatched, stream));
done:
  return status;
}

/* Pass 1, the sums, and the full join's unmatched build rows (synchronizes). */
gcol_status probe_run(const gcol_join_hash *h, gcol_table_view probe_keys, gcol_join_kind kind,
                      probe_state *p, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = probe_keys.num_rows;
  bool const full = kind == GCOL_JOIN_FULL;
  memset(p, 0, sizeof *p);
  p->tiles = (n + TILE - 1) / TILE;
  p->multi = !h->unique && has_right(kind);
  p->wide_match = h->build_rows > INT32_MAX;
  p->partitioned = probe_partitioned(h, n);
  GCOL_DETAIL_TRY(key_columns(probe_keys, stream, &p->keys));
  if (p->partitioned && n > 0) { /* positions' rows: the maps' index type */
    int64_t const larger = n > h->build_rows ? n : h->build_rows;
    GCOL_DETAIL_TRY(radix_partition(h, keys_of(h, p->keys),
                                    (const gcol_detail_row_column *)p->keys->data, n,
                                    gcol_index_type_for(larger) == GCOL_INT64, stream, &p->radix));
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * (p->wide_match ? 8u : 4u), stream,
                                     NULL, &p->match));
  if (p->multi) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, stream, NULL, &p->counts));
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(p->tiles + 1) * 8u, stream, NULL, &p->tile_offsets));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(p->tile_offsets->data, 0, (size_t)(p->tiles + 1) * 8u, s));
  if (full) {
    size_t const bytes = (size_t)num_slots(h);
    GCOL_DETAIL_TRY(gcol_buffer_create(bytes, stream, NULL, &p->matched));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(p->matched->data, 0, bytes, s));
  }
  if (n > 0) {
    if (p->wide_match) {
      launch_match<int64_t>(h, kind, p, n, s);
    } else {
      launch_match<int32_t>(h, kind, p, n, s);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    /* pass 2 reads only the positions' rows: the words go now (stream-ordered), lowering the
     * peak by 8 bytes a probe row while the maps are allocated */
    gcol_buffer_free(p->radix.words);
    gcol_buffer_free(p->radix.offsets);
    p->radix.words = p->radix.offsets = NULL;
    GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)p->tile_offsets->data,
                                                  (int64_t *)p->tile_offsets->data, p->tiles + 1,
                                                  stream));
  }
  GCOL_DETAIL_TRY(read_i64(p->tile_offsets, p->tiles, &p->probe_total, stream));
  if (full && h->build_rows > 0) GCOL_DETAIL_TRY(count_unmatched(h, p, stream));
  GCOL_DETAIL_CHECK(p->probe_total <= INT64_MAX - p->unmatched, GCOL_ERROR_OVERFLOW,
                    "the join's output does not fit in int64 rows");
done:
  if (status != GCOL_OK) probe_state_free(p);
  return status;
}

/* Pass 2 with match type M into maps of type T for output rows [first, last). */
template <typename M, typename T>
void launch_probe_writes(const gcol_join_hash *h, const probe_state *p, gcol_join_kind kind,
                         int64_t n, int64_t first, int64_t last, T *left, T *right,
                         cudaStream_t s) {
  const M *match = (const M *)p->match->data;
  const T *perm = p->partitioned ? (const T *)p->radix.rows->data : NULL;
  const int64_t *tile_offsets = (const int64_t *)p->tile_offsets->data;
  unsigned int const tiles = (unsigned int)p->tiles;
  if (p->multi) {
    /* blocks per tile: about SHARE output rows each if the batch were spread evenly */
    int64_t const per_tile = (last - first) / (int64_t)tiles / SHARE + 1;
    dim3 const grid(tiles, (unsigned int)(per_tile < 65535 ? per_tile : 65535));
    write_multi_smem_kernel<M, T><<<grid, TILE_THREADS, 0, s>>>(
        n, match, (const int64_t *)p->counts->data, (const M *)h->rows->data, perm, tile_offsets,
        first, last, left, right);
  } else {
    write_single_smem_kernel<M, T><<<tiles, TILE_THREADS, 0, s>>>(
        kind, n, match, perm, tile_offsets, first, last, left, right);
  }
}

/* Pass 2 into maps of type T for output rows [first, last). */
template <typename T>
void launch_writes(const gcol_join_hash *h, const probe_state *p, gcol_join_kind kind, int64_t n,
                   int64_t first, int64_t last, T *left, T *right, cudaStream_t s) {
  if (n > 0 && first < p->probe_total) {
    if (p->wide_match) {
      launch_probe_writes<int64_t, T>(h, p, kind, n, first, last, left, right, s);
    } else {
      launch_probe_writes<int32_t, T>(h, p, kind, n, first, last, left, right, s);
    }
  }
  if (kind == GCOL_JOIN_FULL && p->unmatched > 0 && last > p->probe_total) {
    unmatched_write_kernel<T><<<grid_for(h->build_rows), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const int64_t *)h->row_slot->data, (const uint8_t *)p->matched->data,
        (const int64_t *)p->unmatched_pos->data, h->build_rows, p->probe_total, first, last, left,
        right);
  }
}

/* Fails with OVERFLOW when `rows` rows of `width` bytes do not fit in size_t. */
gcol_status check_output_bytes(int64_t rows, size_t width) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK((uint64_t)rows <= SIZE_MAX / width, GCOL_ERROR_OVERFLOW,
                    "an output of %lld rows does not fit in memory sizes", (long long)rows);
done:
  return status;
}

/* The bias of direct keys (their bits XOR it order as unsigned), or false when a key type
 * is not an integer. */
bool direct_bias(gcol_type_id id, uint64_t *bias) {
  int const bits = (int)gcol_type_size(id) * 8;
  bool const is_signed = gcol_type_is_signed_integral(id) || gcol_type_is_timestamp(id) ||
                         gcol_type_is_duration(id) || id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64;
  *bias = is_signed ? 1ull << (bits - 1) : 0;
  return is_signed || gcol_type_is_unsigned_integral(id) || id == GCOL_BOOL8;
}

/* Direct build when the packed integer keys span at most twice the slots a hash map would
 * have (the index then takes no more memory than the map): the range, read back. */
gcol_status try_direct(gcol_join_hash *h, gcol_type_id id, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mm = NULL;
  unsigned long long host[2] = {~0ull, 0};
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = h->build_rows, limit = 2 * gcol_probe_capacity_for(n);
  /* 32-bit counts and ranks: up to 2^32 - 1 build rows */
  if (!h->packed || n == 0 || n > (int64_t)UINT32_MAX || !direct_bias(id, &h->dir_bias)) goto done;
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof host, stream, NULL, &mm));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(mm->data, host, sizeof host, cudaMemcpyHostToDevice, s));
  direct_range_kernel<<<std::min(grid_for(n), 2048u), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      keys_of(h, NULL), n, (unsigned long long *)mm->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host, mm->data, sizeof host, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  if (limit <= 0 || host[1] - host[0] >= (unsigned long long)limit) goto done;
  h->direct = true;
  h->dir_min = host[0];
  h->dir_range = (int64_t)(host[1] - host[0]) + 1;
done:
  gcol_buffer_free(mm);
  return status;
}

/* Direct build: the bitmap and the first row of every slot; sets *dup_flag. */
gcol_status direct_build(gcol_join_hash *h, gcol_stream stream, int *dup_flag) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = h->build_rows, range = h->dir_range;
  int64_t const words = (range + 31) / 32;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)range * 4u, stream, NULL, &h->counts));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(h->counts->data, 0, (size_t)range * 4u, s));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * 4u, stream, NULL, &h->rank));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)words * 4u, stream, NULL, &h->present));
  direct_insert_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      keys_of(h, NULL), n, (uint32_t *)h->counts->data, (int64_t *)h->row_slot->data,
      (uint32_t *)h->rank->data, dup_flag);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  direct_present_kernel<<<grid_for(words * 32), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      (const uint32_t *)h->counts->data, range, (uint32_t *)h->present->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* One fixed-width key column of at most 8 bytes without nulls: its bits are the key word. */
gcol_status packable(gcol_table_view keys, gcol_stream stream, bool *out) {
  gcol_status status = GCOL_OK;
  int64_t nulls = 0;
  gcol_type_id const id = keys.columns[0].type.id;
  *out = false;
  if (keys.num_columns != 1 || !gcol_type_is_fixed_width(id) || gcol_type_size(id) > 8) goto done;
  GCOL_DETAIL_TRY(gcol_column_view_null_count(keys.columns[0], stream, &nulls));
  *out = nulls == 0;
done:
  return status;
}

/* Repeated keys: counts per slot, their exclusive sum (offsets), the rows in runs. */
/* The run of each slot's rows (repeated keys), rows of type R. */
template <typename R>
gcol_status fill_runs(gcol_join_hash *h, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *cursor = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = h->build_rows, slots = num_slots(h);
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(R), stream, NULL, &h->rows));
  if (h->direct) { /* every row knows its place */
    direct_fill_kernel<R><<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const int64_t *)h->row_slot->data, (const uint32_t *)h->rank->data,
        (const int64_t *)h->offsets->data, n, (R *)h->rows->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)slots * 8u, stream, NULL, &cursor));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(cursor->data, h->offsets->data, (size_t)slots * 8u,
                                       cudaMemcpyDeviceToDevice, s));
  build_fill_kernel<R><<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      (const int64_t *)h->row_slot->data, n, (unsigned long long *)cursor->data,
      (R *)h->rows->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  gcol_buffer_free(cursor);
  return status;
}

/* Repeated keys: the counts per slot, their exclusive sum (offsets), the rows in runs. */
gcol_status build_runs(gcol_join_hash *h, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = h->build_rows, slots = num_slots(h);
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(slots + 1) * 8u, stream, NULL, &h->offsets));
  if (h->direct) { /* counted while inserting */
    widen_counts_kernel<<<grid_for(slots + 1), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const uint32_t *)h->counts->data, slots, (int64_t *)h->offsets->data);
  } else {
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(h->offsets->data, 0, (size_t)(slots + 1) * 8u, s));
    build_count_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const int64_t *)h->row_slot->data, n, (unsigned long long *)h->offsets->data);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)h->offsets->data,
                                                (int64_t *)h->offsets->data, slots + 1, stream));
  if (n > INT32_MAX) {
    GCOL_DETAIL_TRY(fill_runs<int64_t>(h, stream));
  } else {
    GCOL_DETAIL_TRY(fill_runs<int32_t>(h, stream));
  }
done:
  return status;
}

}  // namespace

extern "C" void gcol_join_hash_free(gcol_join_hash *hash) {
  if (hash == NULL) return;
  gcol_buffer_free(hash->slots);
  gcol_buffer_free(hash->present);
  gcol_buffer_free(hash->dir);
  gcol_buffer_free(hash->rank);
  gcol_buffer_free(hash->counts);
  gcol_buffer_free(hash->keys);
  gcol_buffer_free(hash->offsets);
  gcol_buffer_free(hash->rows);
  gcol_buffer_free(hash->row_slot);
  free(hash->types);
  free(hash);
}

extern "C" int64_t gcol_join_hash_build_rows(const gcol_join_hash *hash) {
  return hash == NULL ? 0 : hash->build_rows;
}

extern "C" int32_t gcol_join_hash_probe_partitions(const gcol_join_hash *hash, int64_t probe_rows) {
  if (hash == NULL || !probe_partitioned(hash, probe_rows)) return 0;
  return (int32_t)1 << hash->radix_bits;
}

namespace {

/* The device's L2 cache in bytes, 0 when it cannot be asked. */
int64_t l2_cache_bytes(void) {
  int device = 0, bytes = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device) != cudaSuccess) {
    (void)cudaGetLastError(); /* not sticky: the join runs on one table */
    return 0;
  }
  return bytes;
}

/* The hash map's inserts, in radix partitions when the plan says so. */
gcol_status map_build(gcol_join_hash *h, gcol_stream stream, int *flags) {
  gcol_status status = GCOL_OK;
  radix_side side;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = h->build_rows;
  memset(&side, 0, sizeof side);
  GCOL_DETAIL_TRY(
      gcol_detail_hash_map_create(n, n < (int64_t)0xFFFFFFFF, stream, &h->slots, &h->map));
  h->radix_bits = gcol_detail_radix_bits(h->radix_bits_option, h->map.capacity, h->l2_bytes);
  h->radix_build = gcol_detail_radix_build(h->algorithm, h->map.capacity, h->l2_bytes);
  if (n == 0) goto done;
  if (h->radix_build) {
    GCOL_DETAIL_TRY(radix_partition(h, keys_of(h, NULL),
                                    (const gcol_detail_row_column *)h->keys->data, n, n > INT32_MAX,
                                    stream, &side));
    build_insert_radix_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        keys_of(h, NULL), view_of(&side), n, (int64_t *)h->row_slot->data, flags, flags + 1);
  } else {
    build_insert_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        keys_of(h, NULL), n, (int64_t *)h->row_slot->data, flags, flags + 1);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  radix_side_free(&side); /* stream-ordered: after the inserts */
  return status;
}

gcol_status hash_create(gcol_table_view build_keys, gcol_null_equality nulls,
                        const gcol_join_options *options, gcol_join_hash **out,
                        gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_join_hash *h = NULL;
  gcol_buffer *flags = NULL; /* int[2]: repeated key, overflow */
  cudaStream_t const s = (cudaStream_t)stream;
  int host_flags[2] = {0, 0};
  int64_t n = 0;
  gcol_join_options opts;
  memset(&opts, 0, sizeof opts);
  if (options != NULL) opts = *options;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(nulls == GCOL_NULLS_EQUAL || nulls == GCOL_NULLS_UNEQUAL,
                    GCOL_ERROR_INVALID_ARGUMENT, "nulls is %d, not a gcol_null_equality",
                    (int)nulls);
  GCOL_DETAIL_CHECK(opts.algorithm == GCOL_JOIN_ALGORITHM_AUTO ||
                        opts.algorithm == GCOL_JOIN_ALGORITHM_ONE_TABLE ||
                        opts.algorithm == GCOL_JOIN_ALGORITHM_RADIX,
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "options->algorithm is %d, not a gcol_join_algorithm", (int)opts.algorithm);
  GCOL_DETAIL_CHECK(opts.radix_bits >= 0 && opts.radix_bits <= GCOL_JOIN_RADIX_MAX_BITS,
                    GCOL_ERROR_INVALID_ARGUMENT, "options->radix_bits is %d, outside [0, %d]",
                    (int)opts.radix_bits, (int)GCOL_JOIN_RADIX_MAX_BITS);
  GCOL_DETAIL_CHECK(build_keys.num_columns >= 1 && build_keys.columns != NULL,
                    GCOL_ERROR_INVALID_ARGUMENT, "the build has no key column");
  h = (gcol_join_hash *)calloc(1, sizeof *h);
  GCOL_DETAIL_CHECK(h != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for a join hash");
  h->types = (gcol_data_type *)calloc((size_t)build_keys.num_columns, sizeof *h->types);
  GCOL_DETAIL_CHECK(h->types != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                    (int)build_keys.num_columns);
  for (int32_t k = 0; k < build_keys.num_columns; ++k) h->types[k] = build_keys.columns[k].type;
  h->num_keys = build_keys.num_columns;
  h->nulls_equal = nulls == GCOL_NULLS_EQUAL;
  h->build_rows = n = build_keys.num_rows;
  h->algorithm = opts.algorithm;
  h->radix_bits_option = opts.radix_bits;
  h->l2_bytes = opts.algorithm == GCOL_JOIN_ALGORITHM_ONE_TABLE ? 0 : l2_cache_bytes();
  GCOL_DETAIL_TRY(key_columns(build_keys, stream, &h->keys));
  GCOL_DETAIL_TRY(packable(build_keys, stream, &h->packed));
  if (h->algorithm != GCOL_JOIN_ALGORITHM_RADIX) { /* radix partitions need the hash map */
    GCOL_DETAIL_TRY(try_direct(h, build_keys.columns[0].type.id, stream));
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, stream, NULL, &h->row_slot));
  GCOL_DETAIL_TRY(gcol_buffer_create(2 * sizeof(int), stream, NULL, &flags));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(flags->data, 0, 2 * sizeof(int), s));
  if (h->direct) {
    GCOL_DETAIL_TRY(direct_build(h, stream, (int *)flags->data));
  } else {
    GCOL_DETAIL_TRY(map_build(h, stream, (int *)flags->data));
  }
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(host_flags, flags->data, sizeof host_flags, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  GCOL_DETAIL_CHECK(host_flags[1] == 0, GCOL_ERROR_OVERFLOW,
                    "the join hash map of %lld rows overflowed its %lld slots", (long long)n,
                    (long long)h->map.capacity);
  h->unique = host_flags[0] == 0;
  if (!h->unique) {
    GCOL_DETAIL_TRY(build_runs(h, stream));
  } else if (h->direct) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)h->dir_range * 8u, stream, NULL, &h->dir));
    direct_rows_kernel<<<grid_for(n), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const int64_t *)h->row_slot->data, n, (long long *)h->dir->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  gcol_buffer_free(h->rank); /* stream-ordered frees: no synchronization */
  gcol_buffer_free(h->counts);
  h->rank = h->counts = NULL;
  {
    /* The caller keeps the hash, whose map holds raw pointers: they must never spill. */
    gcol_buffer *const kept[] = {h->slots,   h->present, h->dir,     h->keys,
                                 h->offsets, h->rows,    h->row_slot};
    GCOL_DETAIL_TRY(gcol_detail_spill_expose_outlasting(kept, 7, stream));
  }
  *out = h;
  h = NULL;
done:
  gcol_join_hash_free(h);
  gcol_buffer_free(flags);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_join_hash_create(gcol_table_view build_keys, gcol_null_equality nulls,
                                             gcol_join_hash **out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_join_hash_create");
  status = hash_create(build_keys, nulls, NULL, out, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_join_hash_create_with_options(gcol_table_view build_keys,
                                                          gcol_null_equality nulls,
                                                          const gcol_join_options *options,
                                                          gcol_join_hash **out,
                                                          gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_join_hash_create_with_options");
  status = hash_create(build_keys, nulls, options, out, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_join_hash_probe_size(const gcol_join_hash *hash,
                                                 gcol_table_view probe_keys, gcol_join_kind kind,
                                                 int64_t *out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  probe_state p;
  memset(&p, 0, sizeof p);
  GCOL_DETAIL_NVTX_PUSH("gcol_join_hash_probe_size");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = 0;
  GCOL_DETAIL_TRY(check_probe(hash, probe_keys, kind));
  GCOL_DETAIL_TRY(probe_run(hash, probe_keys, kind, &p, stream));
  *out = p.probe_total + p.unmatched;
done:
  probe_state_free(&p);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_join_hash_probe(const gcol_join_hash *hash, gcol_table_view probe_keys,
                                            gcol_join_kind kind, int64_t first, int64_t max_rows,
                                            gcol_column **left_map, gcol_column **right_map,
                                            gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  probe_state p;
  gcol_column *left = NULL, *right = NULL;
  int64_t total = 0, count = 0;
  memset(&p, 0, sizeof p);
  GCOL_DETAIL_NVTX_PUSH("gcol_join_hash_probe");
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  if (right_map != NULL) *right_map = NULL;
  GCOL_DETAIL_TRY(check_probe(hash, probe_keys, kind));
  GCOL_DETAIL_CHECK(right_map != NULL || !has_right(kind), GCOL_ERROR_INVALID_ARGUMENT,
                    "right_map is NULL: inner, left and full joins return right rows");
  GCOL_DETAIL_TRY(probe_run(hash, probe_keys, kind, &p, stream));
  total = p.probe_total + p.unmatched;
  GCOL_DETAIL_CHECK(first >= 0 && first <= total, GCOL_ERROR_INVALID_ARGUMENT,
                    "first is %lld, outside the output's [0, %lld]", (long long)first,
                    (long long)total);
  count = max_rows < 0 || max_rows > total - first ? total - first : max_rows;
  {
    int64_t const larger =
        probe_keys.num_rows > hash->build_rows ? probe_keys.num_rows : hash->build_rows;
    gcol_data_type const type = gcol_data_type_make(gcol_index_type_for(larger));
    bool const wide = type.id == GCOL_INT64;
    cudaStream_t const s = (cudaStream_t)stream;
    GCOL_DETAIL_TRY(check_output_bytes(count, 8u));
    GCOL_DETAIL_TRY(gcol_column_create(type, count, GCOL_MASK_UNALLOCATED, stream, mr, &left));
    if (has_right(kind)) {
      GCOL_DETAIL_TRY(gcol_column_create(type, count, GCOL_MASK_UNALLOCATED, stream, mr, &right));
    }
    if (count > 0) {
      void *const l = left->data->data;
      void *const r = right != NULL ? right->data->data : NULL;
      int64_t const n = probe_keys.num_rows;
      if (wide) {
        launch_writes<int64_t>(hash, &p, kind, n, first, first + count, (int64_t *)l, (int64_t *)r,
                               s);
      } else {
        launch_writes<int32_t>(hash, &p, kind, n, first, first + count, (int32_t *)l, (int32_t *)r,
                               s);
      }
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
  }
  *left_map = left;
  left = NULL;
  if (right_map != NULL) {
    *right_map = right;
    right = NULL;
  }
done:
  gcol_column_free(left);
  gcol_column_free(right);
  probe_state_free(&p);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

namespace {

gcol_status join_with(gcol_table_view left_keys, gcol_table_view right_keys, gcol_join_kind kind,
                      gcol_null_equality nulls, const gcol_join_options *options,
                      gcol_column **left_map, gcol_column **right_map, gcol_stream stream,
                      gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_join_hash *h = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  if (right_map != NULL) *right_map = NULL;
  GCOL_DETAIL_CHECK(kind_valid(kind), GCOL_ERROR_INVALID_ARGUMENT, "kind is %d, not a join kind",
                    (int)kind);
  GCOL_DETAIL_CHECK(left_keys.num_columns == right_keys.num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                    "left has %d key columns, right %d", (int)left_keys.num_columns,
                    (int)right_keys.num_columns);
  GCOL_DETAIL_TRY(hash_create(right_keys, nulls, options, &h, stream));
  GCOL_DETAIL_TRY(gcol_join_hash_probe(h, left_keys, kind, 0, -1, left_map, right_map, stream, mr));
done:
  gcol_join_hash_free(h);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_join(gcol_table_view left_keys, gcol_table_view right_keys,
                                 gcol_join_kind kind, gcol_null_equality nulls,
                                 gcol_column **left_map, gcol_column **right_map,
                                 gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_join");
  status = join_with(left_keys, right_keys, kind, nulls, NULL, left_map, right_map, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_join_with_options(gcol_table_view left_keys, gcol_table_view right_keys,
                                              gcol_join_kind kind, gcol_null_equality nulls,
                                              const gcol_join_options *options,
                                              gcol_column **left_map, gcol_column **right_map,
                                              gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_join_with_options");
  status = join_with(left_keys, right_keys, kind, nulls, options, left_map, right_map, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

namespace {

/* The columns `indices` of a table as a view (storage: num host views). */
gcol_status select_columns(gcol_table_view t, const int32_t *indices, int32_t num,
                           gcol_column_view *storage, const char *what, gcol_table_view *out) {
  gcol_status status = GCOL_OK;
  for (int32_t k = 0; k < num; ++k) {
    GCOL_DETAIL_CHECK(indices[k] >= 0 && indices[k] < t.num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s[%d] is %d, outside the %d columns", what, (int)k, (int)indices[k],
                      (int)t.num_columns);
    storage[k] = t.columns[indices[k]];
  }
  GCOL_DETAIL_TRY(gcol_table_view_make(storage, num, out));
done:
  return status;
}

/* Gathers the columns of `source` by `map` (-1: null row) into out[0..). */
gcol_status gather_side(gcol_table_view source, const gcol_column *map, gcol_column **out,
                        gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *t = NULL;
  gcol_detail_gather_map g;
  memset(&g, 0, sizeof g);
  GCOL_DETAIL_TRY(gcol_indexalator_make(gcol_column_get_view(map), &g.indices));
  g.size = map->size;
  g.source_rows = source.num_rows;
  g.nullify = true;
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_table(source, g, stream, mr, &t));
  for (int32_t k = 0; k < t->num_columns; ++k) {
    out[k] = t->columns[k];
    t->columns[k] = NULL;
  }
done:
  gcol_table_free(t);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_join_tables(gcol_table_view left, const int32_t *left_on,
                                        gcol_table_view right, const int32_t *right_on,
                                        int32_t num_keys, gcol_join_kind kind,
                                        gcol_null_equality nulls, bool drop_right_keys,
                                        gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view *views = NULL;
  gcol_column **columns = NULL;
  gcol_column *left_map = NULL, *right_map = NULL;
  gcol_table_view left_keys, right_keys, right_kept;
  int32_t num_out = 0, num_right = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_join_tables");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(left_on);
  GCOL_DETAIL_CHECK_NOT_NULL(right_on);
  GCOL_DETAIL_CHECK(num_keys >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_keys is %d, needs >= 1",
                    (int)num_keys);
  views = (gcol_column_view *)calloc((size_t)(2 * num_keys + right.num_columns), sizeof *views);
  columns =
      (gcol_column **)calloc((size_t)(left.num_columns + right.num_columns + 1), sizeof *columns);
  GCOL_DETAIL_CHECK(views != NULL && columns != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d columns", (int)(left.num_columns + right.num_columns));
  GCOL_DETAIL_TRY(select_columns(left, left_on, num_keys, views, "left_on", &left_keys));
  GCOL_DETAIL_TRY(
      select_columns(right, right_on, num_keys, views + num_keys, "right_on", &right_keys));
  GCOL_DETAIL_TRY(gcol_join(left_keys, right_keys, kind, nulls, &left_map,
                            has_right(kind) ? &right_map : NULL, stream, mr));
  GCOL_DETAIL_TRY(gather_side(left, left_map, columns, stream, mr));
  num_out = left.num_columns;
  if (has_right(kind)) {
    gcol_column_view *const kept = views + 2 * num_keys;
    for (int32_t c = 0; c < right.num_columns; ++c) {
      bool is_key = false;
      for (int32_t k = 0; k < num_keys; ++k) is_key = is_key || right_on[k] == c;
      if (!(drop_right_keys && is_key)) kept[num_right++] = right.columns[c];
    }
    if (num_right > 0) {
      GCOL_DETAIL_TRY(gcol_table_view_make(kept, num_right, &right_kept));
      right_kept.num_rows = right.num_rows;
      GCOL_DETAIL_TRY(gather_side(right_kept, right_map, columns + num_out, stream, mr));
      num_out += num_right;
    }
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, num_out, out));
  for (int32_t k = 0; k < num_out; ++k) columns[k] = NULL;
done:
  if (columns != NULL) {
    for (int32_t k = 0; k < left.num_columns + right.num_columns; ++k) gcol_column_free(columns[k]);
  }
  free(columns);
  free(views);
  gcol_column_free(left_map);
  gcol_column_free(right_map);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_cross_join(int64_t left_rows, int64_t right_rows,
                                       gcol_column **left_map, gcol_column **right_map,
                                       gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *left = NULL, *right = NULL;
  int64_t count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_cross_join");
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(right_map);
  *right_map = NULL;
  GCOL_DETAIL_CHECK(left_rows >= 0 && right_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "row counts are %lld and %lld, need >= 0", (long long)left_rows,
                    (long long)right_rows);
  GCOL_DETAIL_CHECK(right_rows == 0 || left_rows <= INT64_MAX / right_rows, GCOL_ERROR_OVERFLOW,
                    "a cross join of %lld x %lld rows does not fit in int64", (long long)left_rows,
                    (long long)right_rows);
  count = left_rows * right_rows;
  GCOL_DETAIL_TRY(check_output_bytes(count, 8u));
  {
    int64_t const larger = left_rows > right_rows ? left_rows : right_rows;
    gcol_data_type const type = gcol_data_type_make(gcol_index_type_for(larger));
    cudaStream_t const s = (cudaStream_t)stream;
    GCOL_DETAIL_TRY(gcol_column_create(type, count, GCOL_MASK_UNALLOCATED, stream, mr, &left));
    GCOL_DETAIL_TRY(gcol_column_create(type, count, GCOL_MASK_UNALLOCATED, stream, mr, &right));
    if (count > 0) {
      if (type.id == GCOL_INT64) {
        cross_kernel<int64_t><<<grid_for(count), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
            0, count, right_rows, (int64_t *)left->data->data, (int64_t *)right->data->data);
      } else {
        cross_kernel<int32_t><<<grid_for(count), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
            0, count, right_rows, (int32_t *)left->data->data, (int32_t *)right->data->data);
      }
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
  }
  *left_map = left;
  *right_map = right;
  left = right = NULL;
done:
  gcol_column_free(left);
  gcol_column_free(right);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
