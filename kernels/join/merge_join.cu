/*
 * Sort-merge join (include/gcol/join.h, gcol_sort_merge_join): both sides are already sorted
 * on the keys, so the right rows equal to a left row are one run [lo, hi) of the right keys
 * (the sort comparator's equality is the join's: -0.0 == +0.0, NaNs alike, nulls alike). No
 * hash table is built. Two paths give the same output:
 *
 * Fast path: one fixed-width key column (not DECIMAL128) without nulls on either side. Keys
 * compare as one unsigned word (gcol_detail_key_word_fixed, the sort's order), so a search
 * step is a load and a compare, and nothing per left row goes to memory:
 * 1. windows_kernel: every tile of FAST_TILE consecutive left rows (needles) gets its window
 *    of right rows (hay): the lower bound of its first needle and the upper bound of its
 *    last, a thread per bound so that these long searches overlap.
 * 2. count_smem_kernel: a block per tile stages the window in shared memory (where it fits;
 *    else it searches the column within the window), finds each needle's run (a thread takes
 *    FAST_ITEMS consecutive needles: a binary search, then galloping from the previous
 *    bound) and writes the tile's output rows by kind and how many blocks will write them
 *    (one per PART rows). It also checks that the needles are sorted: the left side is read
 *    once for both.
 * 3. An exclusive sum over the tiles (the exact 64-bit size) and one over their writing
 *    blocks, read back with the sortedness flags in one synchronization.
 * 4. write_smem_kernel: a block per PART output rows of a tile finds the tile's runs again
 *    (reading the needles again costs less than writing and reading 16 bytes per left row),
 *    places them by a block scan and writes: a needle per thread where every needle of the
 *    tile has at most one output row (unique right keys, semi, anti), else an output row per
 *    thread, its needle found by galloping over the tile's starts in shared memory (a run of
 *    10K matches is spread over threads and blocks).
 * A full join runs 1, 2 and 4 once more with the sides swapped for the right rows without a
 * match (counted as an anti join), their tiles after the left ones in the same sums, so they
 * follow the left rows' output in ascending order.
 *
 * Generic path (several key columns, strings, DECIMAL128, nulls), on the row comparator:
 * 1. runs_smem_kernel: a block takes a tile of consecutive left rows; since they are sorted,
 *    their runs lie between the lower bound of the tile's first row and the upper bound of
 *    its last (two searches of the whole right side a tile), and each row's bounds are
 *    searched in that window only (a few steps, cached). It writes each left row's output
 *    rows by kind (a run, at least one for left and full joins, 0 or 1 for semi and anti;
 *    with nulls unequal a left row with a null key matches nothing) and its run's start (-1:
 *    no match). Their exclusive sum places each left row's rows (one synchronization).
 * 2. pairs_smem_kernel: a block takes a chunk of output rows, finds the left rows at its two
 *    ends (two searches of the offsets), and each thread finds its output row's left row in
 *    between (no skew: a run of 10K matches is spread over the chunk's threads).
 * 3. Full join: the same runs kernel with the sides swapped counts the right rows without a
 *    match; they are appended, ascending.
 */
#include "common.cuh"
#include "detail/scan.h"
#include "detail/sort_keys.h"
#include "gcol/bitmask.h"
#include "gcol/device/block.cuh"
#include "gcol/indexalator.h"
#include "gcol/join.h"
#include "gcol/sorting.h"

namespace {

constexpr int RUN_THREADS = 256, RUN_ITEMS = 8;
constexpr int64_t RUN_TILE = (int64_t)RUN_THREADS * RUN_ITEMS;
constexpr int PAIR_THREADS = 256;
constexpr int64_t PAIR_CHUNK = (int64_t)PAIR_THREADS * 8;

/* First position in [lo, hi) of the sorted `hay` whose row compares >= (upper: >) row
 * `needle` of `ndl`. */
__device__ int64_t bound_in(const gcol_detail_key_table *hay, int64_t lo, int64_t hi,
                            const gcol_detail_key_table *ndl, int64_t needle, bool upper) {
  while (lo < hi) {
    int64_t const mid = lo + (hi - lo) / 2;
    int const cmp = gcol_detail_compare_table_rows(hay, mid, ndl, needle);
    if (cmp < 0 || (upper && cmp == 0)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Output rows of a needle whose run has `run` rows (0 when its key is null and unequal). */
__device__ __forceinline__ int64_t rows_out(int64_t run, int kind) {
  switch (kind) {
    case GCOL_JOIN_INNER:
      return run;
    case GCOL_JOIN_LEFT:
    case GCOL_JOIN_FULL:
      return run > 0 ? run : 1;
    case GCOL_JOIN_LEFT_SEMI:
      return run > 0 ? 1 : 0;
    default:
      return run == 0 ? 1 : 0; /* anti */
  }
}

/* As bound_in, galloping from lo (1, 2, 4, ... rows ahead, then a binary search): a sorted
 * needle's bound lies a few rows past the previous needle's, so this costs a few compares. */
__device__ int64_t gallop_in(const gcol_detail_key_table *hay, int64_t lo, int64_t hi,
                             const gcol_detail_key_table *ndl, int64_t needle, bool upper) {
  for (int64_t step = 1; lo < hi; step *= 2) {
    int64_t const probe = lo + step - 1 < hi ? lo + step - 1 : hi - 1;
    int const cmp = gcol_detail_compare_table_rows(hay, probe, ndl, needle);
    if (!(cmp < 0 || (upper && cmp == 0))) return bound_in(hay, lo, probe, ndl, needle, upper);
    lo = probe + 1;
  }
  return hi;
}

/* sizes[i] = needle i's output rows by kind; start[i] = its run's first hay row, or -1
 * (start may be NULL). `valid` (NULL: all) clears needles with a null key. A thread takes
 * RUN_ITEMS consecutive needles: a binary search in the tile's window for the first, then
 * galloping from each bound to the next. */
__global__ void runs_smem_kernel(gcol_detail_key_table hay, int64_t hay_rows,
                                 gcol_detail_key_table ndl, int64_t n, const uint32_t *valid,
                                 int kind, int64_t *sizes, int64_t *start) {
  __shared__ int64_t window[2];
  for (int64_t tile = blockIdx.x; tile * RUN_TILE < n; tile += gridDim.x) {
    int64_t const first = tile * RUN_TILE;
    int64_t const last = first + RUN_TILE < n ? first + RUN_TILE - 1 : n - 1;
    __syncthreads(); /* the previous tile is done with the window */
    if (threadIdx.x == 0) window[0] = bound_in(&hay, 0, hay_rows, &ndl, first, false);
    if (threadIdx.x == 32) window[1] = bound_in(&hay, 0, hay_rows, &ndl, last, true);
    __syncthreads();
    int64_t const w1 = window[1];
    int64_t lo = window[0];
    for (int t = 0; t < RUN_ITEMS; ++t) {
      int64_t const i = first + (int64_t)threadIdx.x * RUN_ITEMS + t;
      if (i > last) break;
      lo =
          t == 0 ? bound_in(&hay, lo, w1, &ndl, i, false) : gallop_in(&hay, lo, w1, &ndl, i, false);
      int64_t const hi = gallop_in(&hay, lo, w1, &ndl, i, true);
      int64_t const run = valid == NULL || gcol_bit_is_set(valid, i) ? hi - lo : 0;
      sizes[i] = rows_out(run, kind);
      if (start != NULL) start[i] = run > 0 ? lo : -1;
    }
  }
}

/* The last i in [lo, hi] with offsets[i] <= k (offsets[lo] <= k). */
__device__ __forceinline__ int64_t row_of(const int64_t *offsets, int64_t lo, int64_t hi,
                                          int64_t k) {
  ++hi;
  while (hi - lo > 1) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= k) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Output row k: its left row i (offsets[i] <= k < offsets[i + 1]) and (i, start[i] + k -
 * offsets[i]), or (i, -1) without a match. */
__global__ void pairs_smem_kernel(const int64_t *offsets, int64_t n, const int64_t *start,
                                  int64_t total, gcol_index_writer left_map,
                                  gcol_index_writer right_map, bool has_right) {
  __shared__ int64_t rows[2];
  for (int64_t c0 = blockIdx.x * PAIR_CHUNK; c0 < total; c0 += gridDim.x * PAIR_CHUNK) {
    int64_t const c1 = c0 + PAIR_CHUNK < total ? c0 + PAIR_CHUNK : total;
    __syncthreads(); /* the previous chunk is done with the rows */
    if (threadIdx.x == 0) rows[0] = row_of(offsets, 0, n - 1, c0);
    if (threadIdx.x == 32) rows[1] = row_of(offsets, 0, n - 1, c1 - 1);
    __syncthreads();
    for (int64_t k = c0 + threadIdx.x; k < c1; k += PAIR_THREADS) {
      int64_t const i = row_of(offsets, rows[0], rows[1], k);
      gcol_index_writer_set(left_map, k, i);
      if (has_right) {
        int64_t const first = start[i];
        gcol_index_writer_set(right_map, k, first >= 0 ? first + (k - offsets[i]) : -1);
      }
    }
  }
}

/* (-1, j) for each right row j without a match, at base + its rank among them. */
__global__ void append_unmatched_kernel(const int64_t *offsets, int64_t n, int64_t base,
                                        gcol_index_writer left_map, gcol_index_writer right_map) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    int64_t const at = offsets[j];
    if (offsets[j + 1] > at) {
      gcol_index_writer_set(left_map, base + at, -1);
      gcol_index_writer_set(right_map, base + at, j);
    }
  }
}

/* ----------------------------------------------------------------------------- fast path */

constexpr int FAST_THREADS = 256, FAST_ITEMS = 8;
constexpr int FAST_TILE = FAST_THREADS * FAST_ITEMS; /* needles per tile */
/* A tile's shared memory: its hay window (4096 8-byte or 8192 4-byte words) while the runs
 * are searched, then the needles' output starts and run starts (2 x FAST_TILE int64). */
constexpr int TILE_SMEM_BYTES = 2 * FAST_TILE * 8;
/* Output rows one block writes of a tile that has more: a tile whose needles match 10K rows
 * each is written by many blocks, each finding the tile's runs once per PART rows. */
constexpr int64_t PART = 32768;
/* The kind of a full join's pass over the right rows: counted as an anti join (rows_out's
 * default), written as (-1, row). */
constexpr int KIND_TAIL = 5;

/* How the key column's raw values become words (one type and one order on both sides). */
typedef struct key_format {
  int32_t base_kind; /* gcol_detail_key_base_kind: UINT, FLOAT or BOOL */
  int32_t width;     /* bytes per value: 1, 2, 4 or 8 */
  uint64_t flip;     /* gcol_detail_key_flip */
} key_format;

/* Keys as unsigned words W whose order is the sort's: uint64_t for 8-byte keys, uint32_t for
 * narrower ones. One instantiation per word, the kind and width read at run time: those
 * branches are uniform and cheap beside a load, and the file compiles two sets of kernels
 * instead of seven (CI time). */
template <typename W>
struct fixed_key {
  typedef W word;
  static constexpr int64_t WINDOW = TILE_SMEM_BYTES / sizeof(W); /* hay rows a tile stages */
  static __device__ __forceinline__ W at(const void *data, int64_t row, const key_format &f) {
    int32_t const width = sizeof(W) == 8 ? 8 : f.width;
    return (W)gcol_detail_key_word_fixed(gcol_detail_load_raw(data, width, row), f.base_kind, width,
                                         f.flip);
  }
};

/* The hay read from its column. */
template <typename KEY>
struct column_hay {
  const void *data;
  key_format f;
  __device__ __forceinline__ typename KEY::word operator()(int64_t p) const {
    return KEY::at(data, p, f);
  }
};

/* The hay's rows [base, base + staged) staged in shared memory. */
template <typename W>
struct staged_hay {
  const W *words;
  int64_t base;
  __device__ __forceinline__ W operator()(int64_t p) const { return words[p - base]; }
};

/* Whether hay word w lies before the bound of `key`: w < key (lower), w <= key (upper). */
template <typename W>
__device__ __forceinline__ bool before(W w, W key, bool upper) {
  return w < key || (upper && w == key);
}

/* The first p in [lo, hi) whose word is not before the bound of `key` (hi if none). */
template <typename H, typename W>
__device__ __forceinline__ int64_t search(const H &hay, int64_t lo, int64_t hi, W key, bool upper) {
  while (lo < hi) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (before(hay(mid), key, upper)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* As search, galloping from lo (1, 2, 4, ... rows ahead, then a binary search): a sorted
 * needle's bound lies a few rows past its predecessor's. */
template <typename H, typename W>
__device__ __forceinline__ int64_t gallop(const H &hay, int64_t lo, int64_t hi, W key, bool upper) {
  for (int64_t step = 1; lo < hi; step *= 2) {
    int64_t const probe = hi - lo > step ? lo + step - 1 : hi - 1;
    if (!before(hay(probe), key, upper)) return search(hay, lo, probe, key, upper);
    lo = probe + 1;
  }
  return hi;
}

/* One side's rows as needles (a tile's rows) or hay (searched). */
typedef struct fast_side {
  const void *data; /* row 0, the view's offset applied */
  int64_t rows;
} fast_side;

/* One pass of the fast path: the needles of `tiles` tiles searched in the hay. */
typedef struct fast_args {
  fast_side ndl, hay;
  key_format key;    /* how both sides' keys become words */
  int kind;          /* gcol_join_kind, or KIND_TAIL */
  int64_t tiles;     /* needle tiles */
  int64_t *windows;  /* [2 * tiles]: the hay rows [lo, hi) each tile's runs lie in */
  int64_t *sizes;    /* [tiles]: output rows per tile (count), then their offsets (write) */
  int64_t *parts;    /* [tiles + 1]: writing blocks per tile (count), then their offsets */
  int64_t *unsorted; /* set by the count when a needle sorts after its successor */
} fast_args;

/* windows[2t], windows[2t + 1]: the lower bound of tile t's first needle and the upper bound
 * of its last in the whole hay. */
template <typename KEY>
__global__ void windows_kernel(fast_args a) {
  GCOL_DETAIL_GRID_LOOP(b, 2 * a.tiles) {
    int64_t const t = b / 2, last = t * FAST_TILE + FAST_TILE - 1;
    bool const upper = (b & 1) != 0;
    int64_t const row = upper ? (last < a.ndl.rows ? last : a.ndl.rows - 1) : t * FAST_TILE;
    a.windows[b] = search(column_hay<KEY>{a.hay.data, a.key}, 0, a.hay.rows,
                          KEY::at(a.ndl.data, row, a.key), upper);
  }
}

/* The FAST_ITEMS consecutive needles a thread holds of a tile: rows row0 + [0, valid). */
template <typename KEY>
struct thread_needles {
  int64_t row0;
  int valid;
  typename KEY::word key[FAST_ITEMS];
};

template <typename KEY>
__device__ __forceinline__ void load_needles(const fast_args &a, int64_t t,
                                             thread_needles<KEY> *nd) {
  nd->row0 = t * FAST_TILE + (int64_t)threadIdx.x * FAST_ITEMS;
  int64_t const rest = a.ndl.rows - nd->row0;
  nd->valid = rest <= 0 ? 0 : (rest < FAST_ITEMS ? (int)rest : FAST_ITEMS);
#pragma unroll
  for (int j = 0; j < FAST_ITEMS; ++j) { /* every load first: they are in flight together */
    nd->key[j] = j < nd->valid ? KEY::at(a.ndl.data, nd->row0 + j, a.key) : 0;
  }
}

/* The run of each of a thread's needles in the window [wlo, whi): its first hay row and its
 * length (0 without a match, and for needles past `valid`). A binary search for the first
 * needle, then galloping from the previous bound; an equal needle shares its predecessor's
 * run. Every bound stays within [wlo, whi], sorted or not. */
template <typename H, typename W>
__device__ __forceinline__ void find_runs(const H &hay, int64_t wlo, int64_t whi, const W *key,
                                          int valid, int64_t *first, int64_t *run) {
  int64_t lo = wlo, hi = wlo;
#pragma unroll
  for (int j = 0; j < FAST_ITEMS; ++j) {
    if (j < valid && (j == 0 || key[j] != key[j - 1])) {
      /* a larger needle's run starts at or after the previous run's end */
      lo = j == 0 ? search(hay, wlo, whi, key[j], false) : gallop(hay, hi, whi, key[j], false);
      hi = gallop(hay, lo, whi, key[j], true);
    }
    first[j] = lo;
    run[j] = j < valid ? hi - lo : 0;
  }
}

/* A tile's shared memory (see TILE_SMEM_BYTES). */
template <typename W>
union tile_smem {
  W hay[TILE_SMEM_BYTES / sizeof(W)];
  struct {
    int64_t start[FAST_TILE]; /* each needle's first output row, from the tile's first */
    int64_t first[FAST_TILE]; /* its run's first hay row, -1 without a match */
  } out;
};

/* The runs of a thread's needles of tile t; every thread of the block calls it. The window
 * is staged in `stage` where it fits (one coalesced read of the rows the tile's searches
 * visit), else the searches read the column. */
template <typename KEY>
__device__ __forceinline__ void tile_runs(const fast_args &a, int64_t t, typename KEY::word *stage,
                                          const thread_needles<KEY> &nd, int64_t *first,
                                          int64_t *run) {
  /* the bounds cross only on unsorted sides (an error found after this pass) */
  int64_t const wlo = a.windows[2 * t];
  int64_t const whi = a.windows[2 * t + 1] > wlo ? a.windows[2 * t + 1] : wlo;
  bool const staged = whi - wlo <= KEY::WINDOW;
  __syncthreads(); /* the previous tile is done with the shared memory */
  if (staged) {
    for (int64_t p = wlo + threadIdx.x; p < whi; p += FAST_THREADS) {
      stage[p - wlo] = KEY::at(a.hay.data, p, a.key);
    }
  }
  __syncthreads();
  if (staged) {
    find_runs(staged_hay<typename KEY::word>{stage, wlo}, wlo, whi, nd.key, nd.valid, first, run);
  } else {
    find_runs(column_hay<KEY>{a.hay.data, a.key}, wlo, whi, nd.key, nd.valid, first, run);
  }
}

/* Whether a thread's needles, and its last with the next thread's first, are out of order. */
template <typename KEY>
__device__ __forceinline__ bool needles_unsorted(const fast_args &a,
                                                 const thread_needles<KEY> &nd) {
  bool unsorted = false;
#pragma unroll
  for (int j = 0; j + 1 < FAST_ITEMS; ++j) {
    unsorted = unsorted || (j + 1 < nd.valid && nd.key[j] > nd.key[j + 1]);
  }
  int64_t const after = nd.row0 + FAST_ITEMS;
  if (nd.valid == FAST_ITEMS && after < a.ndl.rows) {
    unsorted = unsorted || nd.key[FAST_ITEMS - 1] > KEY::at(a.ndl.data, after, a.key);
  }
  return unsorted;
}

/* Pass 1, a tile per block: its output rows by kind and its writing blocks; sets *unsorted
 * when a needle sorts after its successor (checked here, where the needles are read anyway). */
template <typename KEY>
__global__ void __launch_bounds__(FAST_THREADS) count_smem_kernel(fast_args a) {
  __shared__ tile_smem<typename KEY::word> s;
  for (int64_t t = blockIdx.x; t < a.tiles; t += gridDim.x) {
    thread_needles<KEY> nd;
    int64_t first[FAST_ITEMS], run[FAST_ITEMS], count = 0;
    load_needles(a, t, &nd);
    tile_runs(a, t, s.hay, nd, first, run);
#pragma unroll
    for (int j = 0; j < FAST_ITEMS; ++j) count += j < nd.valid ? rows_out(run[j], a.kind) : 0;
    int64_t const total = gcol_block_reduce_sum_i64(count);
    bool const unsorted = __syncthreads_or(needles_unsorted(a, nd)) != 0;
    if (threadIdx.x == 0) {
      a.sizes[t] = total;
      a.parts[t] = total / PART + (total % PART != 0 ? 1 : 0);
      if (unsorted) *a.unsorted = 1;
    }
  }
}

/* Output row `at`: needle row i with the k-th row of its run from hay row `first` (-1: no
 * match), or (-1, i) for a full join's right row. */
__device__ __forceinline__ void put(const fast_args &a, gcol_index_writer left,
                                    gcol_index_writer right, bool has_right, int64_t at, int64_t i,
                                    int64_t first, int64_t k) {
  if (a.kind == KIND_TAIL) {
    gcol_index_writer_set(left, at, -1);
    gcol_index_writer_set(right, at, i);
    return;
  }
  gcol_index_writer_set(left, at, i);
  if (has_right) gcol_index_writer_set(right, at, first >= 0 ? first + k : -1);
}

/* The last needle q in [r, rows) of a tile whose output starts at or before k, given
 * start[r] <= k: galloping from r, since the k of a thread only grow. */
__device__ __forceinline__ int last_at_most(const int64_t *start, int r, int rows, int64_t k) {
  int hi = rows; /* start[hi] > k, or hi == rows */
  for (int step = 1; r + step < hi; step *= 2) {
    if (start[r + step] > k) {
      hi = r + step;
      break;
    }
    r += step;
  }
  while (hi - r > 1) {
    int const mid = r + (hi - r) / 2;
    if (start[mid] <= k) {
      r = mid;
    } else {
      hi = mid;
    }
  }
  return r;
}

/* Pass 2: writing block w takes output rows [part * PART, (part + 1) * PART) of its tile
 * (part = w - parts[t]), finds the tile's runs again and places them by a block scan. */
template <typename KEY>
__global__ void __launch_bounds__(FAST_THREADS)
    write_smem_kernel(fast_args a, gcol_index_writer left, gcol_index_writer right,
                      bool has_right) {
  __shared__ tile_smem<typename KEY::word> s;
  int64_t const end = a.parts[a.tiles];
  for (int64_t w = a.parts[0] + blockIdx.x; w < end; w += gridDim.x) {
    int64_t const t = row_of(a.parts, 0, a.tiles - 1, w), tile0 = t * FAST_TILE;
    thread_needles<KEY> nd;
    int64_t first[FAST_ITEMS], run[FAST_ITEMS], mine = 0, total = 0;
    bool many = false;
    load_needles(a, t, &nd);
    tile_runs(a, t, s.hay, nd, first, run);
#pragma unroll
    for (int j = 0; j < FAST_ITEMS; ++j) {
      int64_t const c = j < nd.valid ? rows_out(run[j], a.kind) : 0;
      mine += c;
      many = many || c > 1;
    }
    int64_t at = gcol_block_exclusive_sum_i64(mine, &total);
    /* also the barrier after the last read of the staged window, which `out` overwrites */
    bool const single = __syncthreads_or(many) == 0;
#pragma unroll
    for (int j = 0; j < FAST_ITEMS; ++j) {
      int const r = (int)threadIdx.x * FAST_ITEMS + j;
      s.out.start[r] = at;
      s.out.first[r] = run[j] > 0 ? first[j] : -1;
      at += j < nd.valid ? rows_out(run[j], a.kind) : 0;
    }
    __syncthreads();
    int64_t const base = a.sizes[t];
    int const rows = a.ndl.rows - tile0 < FAST_TILE ? (int)(a.ndl.rows - tile0) : FAST_TILE;
    if (single) { /* a row per needle at most, so total <= FAST_TILE: the tile's one part */
      for (int r = (int)threadIdx.x; r < rows; r += FAST_THREADS) {
        int64_t const next = r + 1 < rows ? s.out.start[r + 1] : total;
        if (next > s.out.start[r]) {
          put(a, left, right, has_right, base + s.out.start[r], tile0 + r, s.out.first[r], 0);
        }
      }
    } else {
      int64_t const from = (w - a.parts[t]) * PART;
      int64_t const to = total - from > PART ? from + PART : total;
      int r = 0;
      for (int64_t k = from + threadIdx.x; k < to; k += FAST_THREADS) {
        r = last_at_most(s.out.start, r, rows, k);
        put(a, left, right, has_right, base + k, tile0 + r, s.out.first[r], k - s.out.start[r]);
      }
    }
  }
}

/* Sets *unsorted when a row of `side` sorts after its successor: the right side's check
 * where no pass reads all of its rows (joins other than full). */
template <typename KEY>
__global__ void unsorted_kernel(fast_side side, key_format key, int64_t *unsorted) {
  bool found = false;
  GCOL_DETAIL_GRID_LOOP(i, side.rows - 1) {
    found = found || KEY::at(side.data, i, key) > KEY::at(side.data, i + 1, key);
  }
  if (__syncthreads_or(found) && threadIdx.x == 0) *unsorted = 1;
}

struct merge_state {
  gcol_detail_key_table left, right; /* the key rows, as the sort compares them */
  gcol_table_view left_view, right_view;
  gcol_join_kind kind;
  bool nulls_equal;
  cudaStream_t stream;
};

unsigned int grid_for(int64_t n) { return gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE); }

/* The bit of each row of `keys` that has no null key (NULL when no key has nulls). */
gcol_status valid_rows(gcol_table_view keys, cudaStream_t stream, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  const uint32_t **masks = NULL;
  int64_t *offsets = NULL;
  int32_t const nk = keys.num_columns;
  *out = NULL;
  masks = (const uint32_t **)calloc((size_t)nk, sizeof *masks);
  offsets = (int64_t *)calloc((size_t)nk, sizeof *offsets);
  GCOL_DETAIL_CHECK(masks != NULL && offsets != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d key masks", (int)nk);
  for (int32_t k = 0; k < nk; ++k) {
    gcol_column_view const c = keys.columns[k];
    masks[k] = c.null_count != 0 ? c.null_mask : NULL;
    offsets[k] = c.offset;
  }
  GCOL_DETAIL_TRY(
      gcol_bitmask_and(masks, offsets, nk, keys.num_rows, (gcol_stream)stream, NULL, out, NULL));
done:
  free(masks);
  free(offsets);
  return status;
}

/* Output rows per needle row by kind (and run starts) into a sizes buffer, summed in place:
 * *offsets holds n + 1 offsets, *total their sum. */
gcol_status runs(const merge_state *m, const gcol_detail_key_table *hay, int64_t hay_rows,
                 const gcol_detail_key_table *ndl, gcol_table_view needles, int kind,
                 int64_t *start, gcol_buffer **offsets, int64_t *total) {
  gcol_status status = GCOL_OK;
  gcol_buffer *valid = NULL;
  int64_t const n = needles.num_rows;
  *offsets = NULL;
  if (!m->nulls_equal) GCOL_DETAIL_TRY(valid_rows(needles, m->stream, &valid));
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 1, (gcol_stream)m->stream, offsets));
  if (n > 0) {
    int64_t const tiles = (n + RUN_TILE - 1) / RUN_TILE;
    unsigned int const grid = (unsigned int)(tiles < 65536 ? tiles : 65536);
    runs_smem_kernel<<<grid, RUN_THREADS, 0, m->stream>>>(
        *hay, hay_rows, *ndl, n, valid != NULL ? gcol_bitmask_data(valid) : NULL, kind,
        (int64_t *)(*offsets)->data, start);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan((const int64_t *)(*offsets)->data,
                                         (int64_t *)(*offsets)->data, n, total, 1,
                                         (gcol_stream)m->stream));
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*offsets);
    *offsets = NULL;
  }
  gcol_buffer_free(valid);
  return status;
}

/* A map of `rows` entries of the output index type, as a writer. */
gcol_status make_map(gcol_type_id type, int64_t rows, const merge_state *m, gcol_mr *mr,
                     gcol_column **out, gcol_index_writer *w) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(type), rows, GCOL_MASK_UNALLOCATED,
                                     (gcol_stream)m->stream, mr, out));
  w->data = (*out)->data->data; /* a fresh column: its own buffer */
  w->width = (int32_t)gcol_type_size(type);
done:
  return status;
}

gcol_status check_sorted(const merge_state *m, gcol_table_view keys, const gcol_order *order,
                         const gcol_null_order *null_order, const char *side) {
  gcol_status status = GCOL_OK;
  bool sorted = false;
  GCOL_DETAIL_TRY(gcol_is_sorted(keys, order, null_order, &sorted, (gcol_stream)m->stream));
  GCOL_DETAIL_CHECK(sorted, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s_keys are not sorted in the order given (gcol_sort them first)", side);
done:
  return status;
}

/* Both sides as key tables, after checking that their columns match. */
gcol_status key_tables(gcol_table_view left, gcol_table_view right, const gcol_order *order,
                       const gcol_null_order *null_order, merge_state *m) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_detail_table_view_check(left, "left_keys"));
  GCOL_DETAIL_TRY(gcol_detail_table_view_check(right, "right_keys"));
  for (int32_t c = 0; c < left.num_columns; ++c) {
    GCOL_DETAIL_CHECK(
        gcol_data_type_equal(left.columns[c].type, right.columns[c].type), GCOL_ERROR_TYPE_MISMATCH,
        "key column %d is %s (scale %d) on the left, %s (scale %d) on the right", (int)c,
        gcol_type_name(left.columns[c].type.id), (int)left.columns[c].type.scale,
        gcol_type_name(right.columns[c].type.id), (int)right.columns[c].type.scale);
  }
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(left, order, null_order, "left_keys", &m->left));
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(right, order, null_order, "right_keys", &m->right));
done:
  return status;
}

gcol_status merge_join(const merge_state *m, gcol_column **left_map, gcol_column **right_map,
                       gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *lm = NULL, *rm = NULL;
  gcol_buffer *start = NULL, *offsets = NULL, *tail = NULL;
  gcol_index_writer lw = {NULL, 4}, rw = {NULL, 4};
  int64_t const n = m->left_view.num_rows, nr = m->right_view.num_rows;
  int64_t total = 0, extra = 0;
  bool const has_right =
      m->kind == GCOL_JOIN_INNER || m->kind == GCOL_JOIN_LEFT || m->kind == GCOL_JOIN_FULL;
  gcol_type_id const type = gcol_index_type_for(n > nr ? n : nr);
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, (gcol_stream)m->stream, NULL, &start));
  GCOL_DETAIL_TRY(runs(m, &m->right, nr, &m->left, m->left_view, (int)m->kind,
                       (int64_t *)start->data, &offsets, &total));
  if (m->kind == GCOL_JOIN_FULL) {
    /* the right rows no left row matches: an anti join the other way round */
    GCOL_DETAIL_TRY(runs(m, &m->left, n, &m->right, m->right_view, (int)GCOL_JOIN_LEFT_ANTI, NULL,
                         &tail, &extra));
  }
  GCOL_DETAIL_CHECK(total <= INT64_MAX - extra, GCOL_ERROR_OVERFLOW,
                    "the join has more than 2^63 output rows");
  GCOL_DETAIL_TRY(make_map(type, total + extra, m, mr, &lm, &lw));
  if (has_right) GCOL_DETAIL_TRY(make_map(type, total + extra, m, mr, &rm, &rw));
  if (total > 0) {
    int64_t const chunks = (total + PAIR_CHUNK - 1) / PAIR_CHUNK;
    unsigned int const grid = (unsigned int)(chunks < 65536 ? chunks : 65536);
    pairs_smem_kernel<<<grid, PAIR_THREADS, 0, m->stream>>>(
        (const int64_t *)offsets->data, n, (const int64_t *)start->data, total, lw, rw, has_right);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (extra > 0) {
    append_unmatched_kernel<<<grid_for(nr), GCOL_DETAIL_BLOCK_SIZE, 0, m->stream>>>(
        (const int64_t *)tail->data, nr, total, lw, rw);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *left_map = lm;
  lm = NULL;
  if (right_map != NULL) {
    *right_map = rm;
    rm = NULL;
  }
done:
  gcol_column_free(lm);
  gcol_column_free(rm);
  gcol_buffer_free(start);
  gcol_buffer_free(offsets);
  gcol_buffer_free(tail);
  return status;
}

/* ----------------------------------------------------------------------------- fast path */

unsigned int blocks_for(int64_t items) { return gcol_detail_grid_size(items, 1); }

int64_t tiles_of(int64_t rows) { return (rows + FAST_TILE - 1) / FAST_TILE; }

/* The fast path takes one key column of a one-word fixed-width kind (not DECIMAL128, not
 * STRING) without a null on either side (counted where a view does not know). */
gcol_status fast_path_applies(const merge_state *m, bool *out) {
  gcol_status status = GCOL_OK;
  const gcol_detail_key_column *const c = &m->left.columns[0];
  int64_t nulls_left = 0, nulls_right = 0;
  bool width_ok = false;
  *out = false;
  if (m->left.num_columns != 1) goto done;
  switch (c->kind) {
    case GCOL_DETAIL_KEY_UINT:
    case GCOL_DETAIL_KEY_SINT:
      width_ok = c->width == 1 || c->width == 2 || c->width == 4 || c->width == 8;
      break;
    case GCOL_DETAIL_KEY_FLOAT:
      width_ok = c->width == 4 || c->width == 8;
      break;
    case GCOL_DETAIL_KEY_BOOL:
      width_ok = c->width == 1;
      break;
    default: /* DECIMAL128, STRING */
      break;
  }
  if (!width_ok) goto done;
  GCOL_DETAIL_TRY(
      gcol_column_view_null_count(m->left_view.columns[0], (gcol_stream)m->stream, &nulls_left));
  GCOL_DETAIL_TRY(
      gcol_column_view_null_count(m->right_view.columns[0], (gcol_stream)m->stream, &nulls_right));
  *out = nulls_left == 0 && nulls_right == 0;
done:
  return status;
}

/* The arguments of one pass over `tiles` tiles whose state starts at tile `tile0` of the
 * shared buffers (the full join's right pass follows the left one's tiles). */
fast_args fast_pass(const gcol_detail_key_column *ndl, int64_t ndl_rows,
                    const gcol_detail_key_column *hay, int64_t hay_rows, key_format key, int kind,
                    int64_t tiles, int64_t tile0, gcol_buffer *windows, gcol_buffer *sizes,
                    gcol_buffer *parts, int64_t *unsorted) {
  fast_args a;
  a.ndl.data = ndl->data;
  a.ndl.rows = ndl_rows;
  a.hay.data = hay->data;
  a.hay.rows = hay_rows;
  a.key = key;
  a.kind = kind;
  a.tiles = tiles;
  a.windows = (int64_t *)windows->data + 2 * tile0;
  a.sizes = (int64_t *)sizes->data + tile0;
  a.parts = (int64_t *)parts->data + tile0;
  a.unsorted = unsorted;
  return a;
}

/* Pass 1 of one side: the tiles' windows, then their output rows and writing blocks. */
template <typename KEY>
gcol_status fast_count(const fast_args *a, cudaStream_t s) {
  gcol_status status = GCOL_OK;
  if (a->tiles > 0) {
    windows_kernel<KEY><<<grid_for(2 * a->tiles), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(*a);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    count_smem_kernel<KEY><<<blocks_for(a->tiles), FAST_THREADS, 0, s>>>(*a);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

/* The sums over all tiles and their writing blocks, read back with the sortedness flags
 * (sizes[tiles + 1]: left, sizes[tiles + 2]: right) in one synchronization: the exact output
 * size, or the error of an unsorted side (checked first: its counts mean nothing). */
gcol_status fast_total(gcol_buffer *sizes, gcol_buffer *parts, int64_t tiles, cudaStream_t s,
                       int64_t *total) {
  gcol_status status = GCOL_OK;
  int64_t tail[3] = {0, 0, 0};
  int64_t *const sz = (int64_t *)sizes->data;
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)parts->data,
                                                (int64_t *)parts->data, tiles + 1, (gcol_stream)s));
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(sz, sz, tiles + 1, (gcol_stream)s));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(tail, sz + tiles, sizeof tail, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  GCOL_DETAIL_CHECK(tail[1] == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "left_keys are not sorted in the order given (gcol_sort them first)");
  GCOL_DETAIL_CHECK(tail[2] == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "right_keys are not sorted in the order given (gcol_sort them first)");
  GCOL_DETAIL_CHECK(tail[0] >= 0, GCOL_ERROR_OVERFLOW, "the join has more than 2^63 output rows");
  *total = tail[0];
done:
  return status;
}

/* Pass 2 of one side: every writing block of its tiles (at most one per tile and per PART
 * output rows of the whole join). */
template <typename KEY>
gcol_status fast_write(const fast_args *a, int64_t total, gcol_index_writer lw,
                       gcol_index_writer rw, bool has_right, cudaStream_t s) {
  gcol_status status = GCOL_OK;
  if (a->tiles > 0 && total > 0) {
    write_smem_kernel<KEY>
        <<<blocks_for(a->tiles + total / PART + 1), FAST_THREADS, 0, s>>>(*a, lw, rw, has_right);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

/* The fast path for keys of one instantiation: both passes, the sums, the maps. */
template <typename KEY>
gcol_status fast_join(const merge_state *m, key_format key, gcol_column **left_map,
                      gcol_column **right_map, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *lm = NULL, *rm = NULL;
  gcol_buffer *sizes = NULL, *parts = NULL, *windows = NULL;
  gcol_index_writer lw = {NULL, 4}, rw = {NULL, 4};
  fast_args pass[2]; /* left rows searched in the right; right rows in the left (full) */
  cudaStream_t const s = m->stream;
  int64_t const n = m->left_view.num_rows, nr = m->right_view.num_rows;
  bool const full = m->kind == GCOL_JOIN_FULL;
  bool const has_right =
      m->kind == GCOL_JOIN_INNER || m->kind == GCOL_JOIN_LEFT || m->kind == GCOL_JOIN_FULL;
  int64_t const tl = tiles_of(n), tr = full ? tiles_of(nr) : 0, tiles = tl + tr;
  int64_t total = 0;
  gcol_type_id const type = gcol_index_type_for(n > nr ? n : nr);
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(tiles, 3, (gcol_stream)s, &sizes));
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(tiles, 1, (gcol_stream)s, &parts));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(tiles > 0 ? 2 * tiles : 1) * 8u, (gcol_stream)s, NULL, &windows));
  pass[0] = fast_pass(&m->left.columns[0], n, &m->right.columns[0], nr, key, (int)m->kind, tl, 0,
                      windows, sizes, parts, (int64_t *)sizes->data + tiles + 1);
  pass[1] = fast_pass(&m->right.columns[0], nr, &m->left.columns[0], n, key, KIND_TAIL, tr, tl,
                      windows, sizes, parts, (int64_t *)sizes->data + tiles + 2);
  GCOL_DETAIL_TRY(fast_count<KEY>(&pass[0], s));
  if (full) {
    GCOL_DETAIL_TRY(fast_count<KEY>(&pass[1], s)); /* checks the right side's order too */
  } else if (nr > 1) {
    unsorted_kernel<KEY>
        <<<grid_for(nr - 1), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(pass[1].ndl, key, pass[1].unsorted);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(fast_total(sizes, parts, tiles, s, &total));
  GCOL_DETAIL_TRY(make_map(type, total, m, mr, &lm, &lw));
  if (has_right) GCOL_DETAIL_TRY(make_map(type, total, m, mr, &rm, &rw));
  GCOL_DETAIL_TRY(fast_write<KEY>(&pass[0], total, lw, rw, has_right, s));
  if (full) GCOL_DETAIL_TRY(fast_write<KEY>(&pass[1], total, lw, rw, true, s));
  *left_map = lm;
  lm = NULL;
  if (right_map != NULL) {
    *right_map = rm;
    rm = NULL;
  }
done:
  gcol_column_free(lm);
  gcol_column_free(rm);
  gcol_buffer_free(sizes);
  gcol_buffer_free(parts);
  gcol_buffer_free(windows);
  return status;
}

/* The fast path for the key's word width (both sides have one type and one order). */
gcol_status fast_join_any(const merge_state *m, gcol_column **left_map, gcol_column **right_map,
                          gcol_mr *mr) {
  const gcol_detail_key_column *const c = &m->left.columns[0];
  key_format key;
  key.base_kind = gcol_detail_key_base_kind(c->kind);
  key.width = c->width;
  key.flip = gcol_detail_key_flip(c->kind, c->width, c->descending);
  if (c->width == 8) return fast_join<fixed_key<uint64_t>>(m, key, left_map, right_map, mr);
  return fast_join<fixed_key<uint32_t>>(m, key, left_map, right_map, mr);
}

}  // namespace

extern "C" gcol_status gcol_sort_merge_join(gcol_table_view left_keys, gcol_table_view right_keys,
                                            const gcol_order *order,
                                            const gcol_null_order *null_order, gcol_join_kind kind,
                                            gcol_null_equality nulls, gcol_column **left_map,
                                            gcol_column **right_map, gcol_stream stream,
                                            gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  merge_state m;
  bool fast = false;
  GCOL_DETAIL_NVTX_PUSH("gcol_sort_merge_join");
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  if (right_map != NULL) *right_map = NULL;
  GCOL_DETAIL_CHECK(kind >= GCOL_JOIN_INNER && kind <= GCOL_JOIN_LEFT_ANTI,
                    GCOL_ERROR_INVALID_ARGUMENT, "join kind %d is not a gcol_join_kind", (int)kind);
  GCOL_DETAIL_CHECK(nulls == GCOL_NULLS_EQUAL || nulls == GCOL_NULLS_UNEQUAL,
                    GCOL_ERROR_INVALID_ARGUMENT, "null equality %d is not a gcol_null_equality",
                    (int)nulls);
  GCOL_DETAIL_CHECK(right_map != NULL || kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI,
                    GCOL_ERROR_INVALID_ARGUMENT, "right_map is NULL for a join kind %d", (int)kind);
  GCOL_DETAIL_CHECK(left_keys.num_columns > 0 && left_keys.num_columns == right_keys.num_columns,
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "left_keys has %d key columns, right_keys %d (at least one, as many)",
                    (int)left_keys.num_columns, (int)right_keys.num_columns);
  m.left_view = left_keys;
  m.right_view = right_keys;
  m.kind = kind;
  m.nulls_equal = nulls == GCOL_NULLS_EQUAL;
  m.stream = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(key_tables(left_keys, right_keys, order, null_order, &m));
  GCOL_DETAIL_TRY(fast_path_applies(&m, &fast));
  if (fast) { /* checks both sides' order itself, fused into its passes */
    GCOL_DETAIL_TRY(fast_join_any(&m, left_map, right_map, mr));
  } else {
    GCOL_DETAIL_TRY(check_sorted(&m, left_keys, order, null_order, "left"));
    GCOL_DETAIL_TRY(check_sorted(&m, right_keys, order, null_order, "right"));
    GCOL_DETAIL_TRY(merge_join(&m, left_map, right_map, mr));
  }
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
