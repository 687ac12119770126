/*
 * Groupby (include/gcol/groupby.h). Three steps:
 *
 * 1. Group ids. Every row gets an id in an accumulation "space":
 *    - direct: up to four integer-like key columns (ints, BOOL8, timestamps, durations,
 *      DECIMAL32/64) whose value ranges multiply to a small space (one min/max pass over
 *      the keys): id = mixed-radix number of (key - min) digits, a null key one more digit
 *      after the values. No hash table; ids come out in key order (nulls last), so the
 *      output is sorted for free. The space may hold unused ids: groups are the ids that
 *      received a row, compacted by a scan at the end.
 *    - hash: the shared hash table (detail/hash_table.cuh; packed keys for one fixed-width
 *      key of <= 8 bytes without nulls). The row that claims a slot records itself as the
 *      group's representative; a scan over the occupied slots gives dense ids, and the
 *      space is the groups themselves.
 * 2. Atomic aggregation into per-id accumulators (64-bit words): counts, integer sums and
 *    products in uint64 (wrapping), float sums and products in double, min/max as
 *    order-preserving keys (detail/aggregate.h), any/all. While the space is small the
 *    accumulators live in shared memory per block and are merged into global memory at
 *    the end (launches of only counts, sums, minima and maxima, the common case, run
 *    accumulate_few_smem_kernel: tiles of rows per thread, no per-row operator switch); else
 *    directly in global memory. A second pass adds what needs the first
 *    pass's results: M2 = sum (x - mean)^2 (VARIANCE, STD, M2) and the first row holding
 *    the min/max key (ARGMIN, ARGMAX). Results are finished with the reductions' helpers.
 * 3. Order-based aggregations (MEDIAN, QUANTILE, NUNIQUE, NTH_ELEMENT, COLLECT_LIST): row
 *    indices sorted by (group, null, value) or (group[, null]) with stable radix sorts of
 *    uint64 keys (one CUB instantiation), then per-group work over the group offsets; the
 *    gather engine moves the values of NTH_ELEMENT and COLLECT_LIST.
 * With sort_keys on the hash path the groups are ordered afterwards by a merge sort of the
 * group representatives (one comparator) and every output is gathered into that order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include "detail/aggregate.h"
#include "detail/gather.h"
#include "detail/hash_table.cuh"
#include "detail/scan.h"
#include "groupby/groupby_internal.h"

namespace {

/* ------------------------------------------------------------------ limits */

#define GB_MAX_DIRECT_KEYS 4
#define GB_MAX_VALUES 8 /* value columns per accumulation launch */
#define GB_MAX_ACCS 16  /* accumulators per accumulation launch */
#define GB_SHARED_MAX_BYTES (96 * 1024)
#define GB_SHARED_MAX_SPACE 8192
#define GB_BLOCK 256

/* ------------------------------------------------------------------ group ids */

typedef struct direct_keys {
  int32_t num_keys;
  bool drop_nulls;
  gcol_detail_reader key[GB_MAX_DIRECT_KEYS];
  uint64_t min[GB_MAX_DIRECT_KEYS];   /* smallest order key of the valid values */
  uint64_t radix[GB_MAX_DIRECT_KEYS]; /* digits: value range (+1 when nulls form a group) */
  uint64_t stride[GB_MAX_DIRECT_KEYS];
  bool null_digit[GB_MAX_DIRECT_KEYS]; /* the last digit stands for null */
} direct_keys;

/* Where a row's id comes from: an array (hash path, -1: no group) or the direct formula. */
typedef struct gid_source {
  const int64_t *row_gid;
  direct_keys dk;
} gid_source;

__device__ __forceinline__ int64_t gid_of(const gid_source &s, int64_t i) {
  if (s.row_gid != NULL) return s.row_gid[i];
  uint64_t id = 0;
  for (int32_t k = 0; k < s.dk.num_keys; ++k) {
    uint64_t digit;
    if (!gcol_detail_reader_valid(s.dk.key[k], i)) {
      if (s.dk.drop_nulls) return -1;
      digit = s.dk.radix[k] - 1;
    } else {
      digit = gcol_detail_reader_key(s.dk.key[k], i) - s.dk.min[k];
    }
    id += digit * s.dk.stride[k];
  }
  return (int64_t)id;
}

/*
 * Kernels index their by-value launch structs (gid_source, acc_launch) with loop variables;
 * a kernel parameter indexed at run time is copied to every thread's local memory, which
 * made each row cost a round of local loads. Thread 0 copies the struct into shared memory
 * once (member offsets are constant there) and every thread reads it from there.
 */
template <typename T>
__device__ __forceinline__ void stage_param(T *shared, const T &param) {
  if (threadIdx.x == 0) *shared = param;
  __syncthreads();
}

__device__ __forceinline__ uint64_t warp_min_u64(uint64_t v) {
  for (int o = 16; o > 0; o >>= 1) {
    uint64_t const w = __shfl_down_sync(0xFFFFFFFFu, v, o);
    v = w < v ? w : v;
  }
  return v;
}

__device__ __forceinline__ uint64_t warp_max_u64(uint64_t v) {
  for (int o = 16; o > 0; o >>= 1) {
    uint64_t const w = __shfl_down_sync(0xFFFFFFFFu, v, o);
    v = w > v ? w : v;
  }
  return v;
}

/*
 * Tiles: a block takes GB_TILE consecutive rows at a time and thread t holds rows
 * base + t + j * GB_BLOCK (j < GB_ROWS_PER_THREAD), loaded before any is used. One row per
 * thread and round trip left the row kernels at about half the copy bandwidth; eight
 * independent loads in flight per thread reach it. Bit j of a row set is row j's.
 */
#define GB_ROWS_PER_THREAD 8
#define GB_TILE (GB_BLOCK * GB_ROWS_PER_THREAD)

/* The rows of a tile below n. */
__device__ __forceinline__ uint32_t tile_rows(int64_t first, int64_t n) {
  int64_t const left = n - first; /* rows from `first` on; row j is first + j * GB_BLOCK */
  if (left <= 0) return 0;
  if (left > (int64_t)(GB_ROWS_PER_THREAD - 1) * GB_BLOCK) return (1u << GB_ROWS_PER_THREAD) - 1;
  return (1u << (uint32_t)((left + GB_BLOCK - 1) / GB_BLOCK)) - 1;
}

/* The rows of `in` that are valid in r. */
__device__ __forceinline__ uint32_t tile_valid(const gcol_detail_reader &r, int64_t first,
                                               uint32_t in) {
  if (r.mask == NULL) return in;
  uint32_t ok = 0;
#pragma unroll
  for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
    if (((in >> j) & 1u) != 0 && gcol_bit_is_set(r.mask, r.mask_offset + first + j * GB_BLOCK)) {
      ok |= 1u << j;
    }
  }
  return ok;
}

/* A tile's elements of a column of T, zero-extended (0 outside `in`); read-only: __ldg. */
template <typename T>
__device__ __forceinline__ void tile_raw(const void *data, int64_t first, uint32_t in,
                                         uint64_t (&bits)[GB_ROWS_PER_THREAD]) {
  const T *p = (const T *)data + first;
#pragma unroll
  for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
    bits[j] = ((in >> j) & 1u) != 0 ? (uint64_t)__ldg(p + j * GB_BLOCK) : 0;
  }
}

/* A tile's elements of r as stored, zero-extended (0 outside `in`); tile_widen finishes them.
 * The width test sits outside the row loop so the loads issue together. */
__device__ __forceinline__ void tile_load_raw(const gcol_detail_reader &r, int64_t first,
                                              uint32_t in, uint64_t (&bits)[GB_ROWS_PER_THREAD]) {
  if (r.width == 8) {
    tile_raw<unsigned long long>(r.data, first, in, bits);
  } else if (r.width == 4) {
    tile_raw<unsigned int>(r.data, first, in, bits);
  } else if (r.width == 2) {
    tile_raw<unsigned short>(r.data, first, in, bits);
  } else {
    tile_raw<unsigned char>(r.data, first, in, bits);
  }
}

/* Raw elements of r widened as gcol_detail_reader_bits (integers), floats to their double's
 * bits. */
__device__ __forceinline__ void tile_widen(const gcol_detail_reader &r,
                                           uint64_t (&bits)[GB_ROWS_PER_THREAD]) {
  int32_t const width = r.width, kind = r.kind;
  if (width == 8) return;
  int const shift = 64 - 8 * width;
#pragma unroll
  for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
    uint64_t const x = bits[j];
    if (kind == GCOL_DETAIL_KIND_SIGNED) {
      bits[j] = (uint64_t)((int64_t)(x << shift) >> shift);
    } else if (kind == GCOL_DETAIL_KIND_BOOL) {
      bits[j] = x != 0 ? 1u : 0u;
    } else if (kind == GCOL_DETAIL_KIND_FLOAT) {
      bits[j] = gcol_detail_f64_bits((double)__uint_as_float((uint32_t)x));
    }
  }
}

/* tile_load_raw and tile_widen. */
__device__ __forceinline__ void tile_load(const gcol_detail_reader &r, int64_t first, uint32_t in,
                                          uint64_t (&bits)[GB_ROWS_PER_THREAD]) {
  tile_load_raw(r, first, in, bits);
  tile_widen(r, bits);
}

/* gcol_detail_reader_key and gcol_detail_reader_f64 of an element loaded by tile_load. */
__device__ __forceinline__ uint64_t key_of(int32_t kind, uint64_t bits) {
  if (kind == GCOL_DETAIL_KIND_FLOAT) {
    return gcol_detail_key_from_f64(gcol_detail_f64_from_bits(bits));
  }
  return kind == GCOL_DETAIL_KIND_SIGNED ? bits ^ GCOL_DETAIL_SIGN64 : bits;
}

__device__ __forceinline__ double f64_of(int32_t kind, uint64_t bits) {
  if (kind == GCOL_DETAIL_KIND_FLOAT) return gcol_detail_f64_from_bits(bits);
  return kind == GCOL_DETAIL_KIND_SIGNED ? (double)(int64_t)bits : (double)bits;
}

/* stats[3k] = min key, stats[3k+1] = max key, stats[3k+2] = 1 if a null was seen. Each block
 * reduces its rows first, so one thread per block updates the three words. */
__global__ void __launch_bounds__(GB_BLOCK)
    key_range_smem_kernel(direct_keys dk_param, int64_t n, unsigned long long *stats) {
  __shared__ direct_keys dk;
  __shared__ uint64_t part[3][GB_BLOCK / 32];
  stage_param(&dk, dk_param);
  int const lane = (int)(threadIdx.x & 31u), warp = (int)(threadIdx.x >> 5);
  for (int32_t k = 0; k < dk.num_keys; ++k) {
    gcol_detail_reader const &r = dk.key[k];
    /* order keys of the integer kinds (direct keys are never floats) */
    uint64_t const flip = r.kind == GCOL_DETAIL_KIND_SIGNED ? GCOL_DETAIL_SIGN64 : 0;
    uint64_t lo = ~0ull, hi = 0, nulls = 0;
    for (int64_t base = (int64_t)blockIdx.x * GB_TILE; base < n;
         base += (int64_t)gridDim.x * GB_TILE) {
      int64_t const first = base + threadIdx.x;
      uint32_t const in = tile_rows(first, n);
      uint64_t bits[GB_ROWS_PER_THREAD];
      tile_load(r, first, in, bits);
      uint32_t const ok = tile_valid(r, first, in);
      nulls |= in & ~ok;
#pragma unroll
      for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
        bool const use = ((ok >> j) & 1u) != 0;
        uint64_t const v = bits[j] ^ flip;
        lo = use && v < lo ? v : lo;
        hi = use && v > hi ? v : hi;
      }
    }
    lo = warp_min_u64(lo);
    hi = warp_max_u64(hi);
    nulls = warp_max_u64(nulls != 0 ? 1u : 0u);
    if (lane == 0) {
      part[0][warp] = lo;
      part[1][warp] = hi;
      part[2][warp] = nulls;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int w = 1; w < GB_BLOCK / 32; ++w) {
        lo = part[0][w] < lo ? part[0][w] : lo;
        hi = part[1][w] > hi ? part[1][w] : hi;
        nulls |= part[2][w];
      }
      if (lo != ~0ull) atomicMin(&stats[3 * k], (unsigned long long)lo);
      if (hi != 0) atomicMax(&stats[3 * k + 1], (unsigned long long)hi);
      if (nulls != 0) atomicMax(&stats[3 * k + 2], 1ull);
    }
    __syncthreads(); /* part is reused by the next key */
  }
}

/* Hash path: each row's slot (or -1 when dropped), the representative row of each slot. */
__global__ void hash_insert_kernel(gcol_detail_hash_table t, const gcol_detail_row_column *keys,
                                   int32_t num_keys, bool drop_nulls, int64_t n, int64_t *row_slot,
                                   long long *rep, int *overflow) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t slot = -1;
    if (!drop_nulls || !gcol_detail_row_has_null(keys, num_keys, i)) {
      gcol_detail_row_matcher const m = {keys, keys, num_keys, true, i};
      bool inserted = false;
      slot =
          gcol_detail_hash_insert_unique(t, gcol_detail_row_hash(keys, num_keys, i), &m, &inserted);
      if (slot < 0) {
        *overflow = 1;
      } else if (inserted) {
        rep[slot] = (long long)i;
      }
    }
    row_slot[i] = slot;
  }
}

__global__ void packed_insert_kernel(gcol_detail_hash_table t, const gcol_detail_row_column *keys,
                                     int64_t n, int64_t *row_slot, long long *rep, int *overflow) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool inserted = false;
    int64_t const slot = gcol_detail_packed_insert(t, gcol_detail_row_bits(&keys[0], i), &inserted);
    if (slot < 0) {
      *overflow = 1;
    } else if (inserted || slot == t.capacity) {
      rep[slot] = (long long)i; /* the EMPTY-pattern group: any of its rows will do */
    }
    row_slot[i] = slot;
  }
}

__global__ void iota_kernel(int64_t *p, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) { p[i] = i; }
}

/* flags[s] = 1 when rep[s] >= 0 (hash) or count[s] > 0 (direct); flags[space] = 0. */
__global__ void occupied_kernel(const long long *rep, const unsigned long long *count,
                                int64_t space, int64_t *flags) {
  GCOL_DETAIL_GRID_LOOP(s, space + 1) {
    bool occupied = false;
    if (s < space) occupied = rep != NULL ? rep[s] >= 0 : count[s] > 0;
    flags[s] = occupied ? 1 : 0;
  }
}

/* Hash path: row slots become dense ids, representatives are listed per dense id. */
__global__ void slot_to_dense_kernel(int64_t *row_slot, const int64_t *dense, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const s = row_slot[i];
    row_slot[i] = s >= 0 ? dense[s] : -1;
  }
}

__global__ void dense_rep_kernel(const long long *rep, const int64_t *dense, int64_t space,
                                 int64_t *group_rep) {
  GCOL_DETAIL_GRID_LOOP(s, space) {
    if (rep[s] >= 0) group_rep[dense[s]] = rep[s];
  }
}

/* ------------------------------------------------------------------ accumulators */

enum acc_op {
  ACC_COUNT_ALL = 0, /* always accumulator 0: rows per id (occupancy, COUNT_ALL, sizes) */
  ACC_COUNT_VALID,
  ACC_SUM_U64,
  ACC_SUMSQ_U64,
  ACC_PROD_U64,
  ACC_SUM_F64,
  ACC_SUMSQ_F64,
  ACC_PROD_F64,
  ACC_MIN_KEY,
  ACC_MAX_KEY,
  ACC_ANY,
  ACC_ALL, /* max of "is zero": all = !acc */
  /* second pass: read first-pass accumulators ref0 / ref1 */
  ACC_M2,      /* sum of (x - sum[ref0] / count[ref1])^2 */
  ACC_ARG_KEY, /* smallest row whose key equals key[ref0] */
  /* merge of partial moments: value = mean, aux = count */
  ACC_MERGE_N,    /* sum of counts */
  ACC_MERGE_WSUM, /* sum of count * mean */
  ACC_MERGE_M2    /* sum of m2 + count * (mean - wsum[ref0] / n[ref1])^2; value = m2 */
};

typedef struct acc_desc {
  int32_t op;
  int32_t value; /* index into the launch's readers */
  int32_t aux;   /* a second reader (merge: the counts) */
  int32_t aux2;  /* a third reader (merge of M2: the means) */
  int32_t ref0;  /* first-pass accumulators (global) */
  int32_t ref1;
} acc_desc;

/* One pass over the rows for up to GB_MAX_ACCS accumulators. target[a] is the global
 * accumulator of position a, or -1 for a local-only count (the shared kernel's position 0
 * tells which ids a block touched; only one launch merges it into accumulator 0). */
typedef struct acc_launch {
  int32_t num_accs;
  int32_t target[GB_MAX_ACCS];
  acc_desc acc[GB_MAX_ACCS];
  gcol_detail_reader values[GB_MAX_VALUES];
} acc_launch;

__host__ __device__ uint64_t acc_identity(int32_t op) {
  switch (op) {
    case ACC_PROD_U64:
      return 1u;
    case ACC_PROD_F64:
      return 0x3FF0000000000000ull; /* 1.0 */
    case ACC_MIN_KEY:
      return ~0ull;
    case ACC_ARG_KEY:
      return (uint64_t)INT64_MAX;
    default:
      return 0u;
  }
}

__device__ __forceinline__ double as_f64(uint64_t b) { return __longlong_as_double((long long)b); }
__device__ __forceinline__ uint64_t f64_bits(double x) { return (uint64_t)__double_as_longlong(x); }

/* Combines contribution v into word w (shared or global memory). */
__device__ __forceinline__ void acc_apply(int32_t op, unsigned long long *w, uint64_t v) {
  switch (op) {
    case ACC_SUM_F64:
    case ACC_SUMSQ_F64:
    case ACC_M2:
    case ACC_MERGE_WSUM:
    case ACC_MERGE_M2:
      atomicAdd((double *)w, as_f64(v));
      break;
    case ACC_PROD_U64: {
      unsigned long long old = *w, assumed;
      do {
        assumed = old;
        old = atomicCAS(w, assumed, assumed * v);
      } while (old != assumed);
      break;
    }
    case ACC_PROD_F64: {
      unsigned long long old = *w, assumed;
      do {
        assumed = old;
        old = atomicCAS(w, assumed, f64_bits(as_f64(assumed) * as_f64(v)));
      } while (old != assumed);
      break;
    }
    case ACC_MIN_KEY:
    case ACC_ARG_KEY:
      atomicMin(w, (unsigned long long)v);
      break;
    case ACC_MAX_KEY:
    case ACC_ANY:
    case ACC_ALL:
      atomicMax(w, (unsigned long long)v);
      break;
    default: /* counts, integer sums */
      atomicAdd(w, (unsigned long long)v);
      break;
  }
}

/* The contribution of row i of group g to accumulator d; false when it contributes none. */
__device__ __forceinline__ bool acc_contribution(const acc_desc &d, const acc_launch &L, int64_t i,
                                                 int64_t g, const unsigned long long *global,
                                                 int64_t space, uint64_t *v) {
  if (d.op == ACC_COUNT_ALL) {
    *v = 1;
    return true;
  }
  gcol_detail_reader const r = L.values[d.value];
  if (!gcol_detail_reader_valid(r, i)) return false;
  switch (d.op) {
    case ACC_COUNT_VALID:
      *v = 1;
      return true;
    case ACC_SUM_U64:
    case ACC_PROD_U64:
      *v = gcol_detail_reader_bits(r, i);
      return true;
    case ACC_SUMSQ_U64: {
      uint64_t const b = gcol_detail_reader_bits(r, i);
      *v = b * b;
      return true;
    }
    case ACC_SUM_F64:
    case ACC_PROD_F64:
      *v = f64_bits(gcol_detail_reader_f64(r, i));
      return true;
    case ACC_SUMSQ_F64: {
      double const x = gcol_detail_reader_f64(r, i);
      *v = f64_bits(x * x);
      return true;
    }
    case ACC_MIN_KEY:
    case ACC_MAX_KEY:
      *v = gcol_detail_reader_key(r, i);
      return true;
    case ACC_ANY:
      *v = gcol_detail_reader_nonzero(r, i) ? 1u : 0u;
      return true;
    case ACC_ALL:
      *v = gcol_detail_reader_nonzero(r, i) ? 0u : 1u;
      return true;
    case ACC_M2: {
      double const sum = as_f64(global[d.ref0 * space + g]);
      double const count = (double)global[d.ref1 * space + g];
      double const dev = gcol_detail_reader_f64(r, i) - sum / count;
      *v = f64_bits(dev * dev);
      return true;
    }
    case ACC_ARG_KEY:
      if (gcol_detail_reader_key(r, i) != global[d.ref0 * space + g]) return false;
      *v = (uint64_t)i;
      return true;
    case ACC_MERGE_N:
    case ACC_MERGE_WSUM:
    case ACC_MERGE_M2: {
      int64_t const count = (int64_t)gcol_detail_reader_bits(L.values[d.aux], i);
      if (count <= 0) return false;
      double const x = gcol_detail_reader_f64(r, i);
      if (d.op == ACC_MERGE_N) {
        *v = (uint64_t)count;
      } else if (d.op == ACC_MERGE_WSUM) {
        *v = f64_bits((double)count * x);
      } else {
        /* value = m2 (reader r), the partial's mean is reader aux2 */
        double const mean_i = gcol_detail_reader_f64(L.values[d.aux2], i);
        double const mean = as_f64(global[d.ref0 * space + g]) / (double)global[d.ref1 * space + g];
        double const dev = mean_i - mean;
        *v = f64_bits(x + (double)count * dev * dev);
      }
      return true;
    }
    default:
      return false;
  }
}

/* Accumulates every row into global accumulators. */
__global__ void accumulate_global_smem_kernel(gid_source src_param, acc_launch L_param, int64_t n,
                                              unsigned long long *global, int64_t space) {
  __shared__ gid_source src;
  __shared__ acc_launch L;
  stage_param(&src, src_param);
  stage_param(&L, L_param);
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const g = gid_of(src, i);
    if (g < 0) continue;
    for (int32_t a = 0; a < L.num_accs; ++a) {
      uint64_t v = 0;
      if (L.target[a] < 0) continue;
      if (acc_contribution(L.acc[a], L, i, g, global, space, &v)) {
        acc_apply(L.acc[a].op, &global[(int64_t)L.target[a] * space + g], v);
      }
    }
  }
}

/* Sets the block's shared accumulators to their operators' identities (counts: 0, both
 * 32-bit halves, as accumulate_few_smem_kernel reads them). */
__device__ __forceinline__ void init_block_accs(unsigned long long *smem, const acc_launch &L,
                                                int64_t space) {
  for (int32_t a = 0; a < L.num_accs; ++a) {
    uint64_t const id = acc_identity(L.acc[a].op);
    for (int64_t s = threadIdx.x; s < space; s += blockDim.x) smem[a * space + s] = id;
  }
}

/* Few groups: per-block accumulators in shared memory, merged into global at the end.
 * Position 0 of the launch is a COUNT_ALL, which tells which ids the block touched. */
__global__ void accumulate_smem_kernel(gid_source src_param, acc_launch L_param, int64_t n,
                                       unsigned long long *global, int64_t space) {
  extern __shared__ unsigned long long smem[];
  __shared__ gid_source src;
  __shared__ acc_launch L;
  stage_param(&src, src_param);
  stage_param(&L, L_param);
  init_block_accs(smem, L, space);
  __syncthreads();
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const g = gid_of(src, i);
    if (g < 0) continue;
    for (int32_t a = 0; a < L.num_accs; ++a) {
      uint64_t v = 0;
      if (acc_contribution(L.acc[a], L, i, g, global, space, &v)) {
        acc_apply(L.acc[a].op, &smem[a * space + g], v);
      }
    }
  }
  __syncthreads();
  for (int64_t s = threadIdx.x; s < space; s += blockDim.x) {
    if (smem[s] == 0) continue; /* accumulator 0 counts this block's rows of id s */
    for (int32_t a = 0; a < L.num_accs; ++a) {
      if (L.target[a] < 0) continue;
      acc_apply(L.acc[a].op, &global[(int64_t)L.target[a] * space + s], smem[a * space + s]);
    }
  }
}

/* The group ids of a tile's rows (below 2^31: the shared-memory space); returns the rows
 * that have one (gid_of's -1: a null key dropped). */
__device__ __forceinline__ uint32_t tile_groups(const gid_source &src, int64_t first, uint32_t in,
                                                int32_t (&g)[GB_ROWS_PER_THREAD]) {
  if (src.row_gid != NULL) {
    uint64_t bits[GB_ROWS_PER_THREAD];
    uint32_t rows = 0;
    tile_raw<unsigned long long>(src.row_gid, first, in, bits);
#pragma unroll
    for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
      g[j] = (int32_t)bits[j];
      rows |= ((in >> j) & 1u) != 0 && (int64_t)bits[j] >= 0 ? 1u << j : 0u;
    }
    return rows;
  }
  uint32_t rows = in;
#pragma unroll
  for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) g[j] = 0;
  for (int32_t k = 0; k < src.dk.num_keys; ++k) {
    gcol_detail_reader const &r = src.dk.key[k];
    uint64_t bits[GB_ROWS_PER_THREAD];
    tile_load(r, first, in, bits);
    uint32_t const ok = tile_valid(r, first, in);
    uint64_t const flip = r.kind == GCOL_DETAIL_KIND_SIGNED ? GCOL_DETAIL_SIGN64 : 0;
    uint64_t const min = src.dk.min[k];
    uint32_t const null_digit = (uint32_t)src.dk.radix[k] - 1u;
    uint32_t const stride = (uint32_t)src.dk.stride[k];
    if (src.dk.drop_nulls) rows &= ok;
#pragma unroll
    for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
      uint32_t const digit =
          ((ok >> j) & 1u) != 0 ? (uint32_t)((bits[j] ^ flip) - min) : null_digit;
      g[j] += (int32_t)(digit * stride);
    }
  }
  return rows;
}

/* Adds 1 to the 32-bit count of each row's group. */
__device__ __forceinline__ void tile_count(unsigned int *count,
                                           const int32_t (&g)[GB_ROWS_PER_THREAD], uint32_t rows) {
#pragma unroll
  for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
    if (((rows >> j) & 1u) != 0) atomicAdd(count + g[j], 1u);
  }
}

/* A wrapping 64-bit add as two native 32-bit shared atomics (64-bit ones are CAS loops): the
 * low half's atomic returns the old value, so its carry is known and added to the high half. */
__device__ __forceinline__ void smem_add_u64(unsigned long long *w, uint64_t v) {
  unsigned int *half = (unsigned int *)w; /* little-endian: [0] low, [1] high */
  unsigned int const lo = (unsigned int)v;
  unsigned int const old = atomicAdd(&half[0], lo);
  unsigned int const hi = (unsigned int)(v >> 32) + ((unsigned int)(old + lo) < lo ? 1u : 0u);
  if (hi != 0) atomicAdd(&half[1], hi);
}

/* The ops of accumulate_few_smem_kernel. */
bool few_groups_op(int32_t op) {
  return op == ACC_COUNT_ALL || op == ACC_COUNT_VALID || op == ACC_SUM_U64 || op == ACC_SUM_F64 ||
         op == ACC_MIN_KEY || op == ACC_MAX_KEY;
}

/*
 * accumulate_smem_kernel for first-pass launches of counts, sums, minima and maxima only
 * (few_groups_op), the common case; position 0 is the COUNT_ALL. Each thread loads a tile of rows
 * (keys and the first value column together, then any other value column once) before it uses any,
 * and the switch on the operator runs once per tile and position rather than per row. Counts are
 * 32-bit in shared memory (the host checks that a block's rows fit), integer sums use smem_add_u64,
 * and a minimum or maximum reads its word first and skips the atomic when the row cannot change it
 * (almost always after a group's first rows). Float sums remain a CAS loop (sm_90 has no shared f64
 * add); their order of additions differs from the generic kernel's, so they may differ in the last
 * bits, as between runs. At most 64 registers (79 unbounded), so 4 blocks fit an SM: 8 rows x 1024
 * threads keep enough loads in flight.
 */
__global__ void __launch_bounds__(GB_BLOCK, 4)
    accumulate_few_smem_kernel(gid_source src_param, acc_launch L_param, int64_t n,
                               unsigned long long *global, int64_t space) {
  extern __shared__ unsigned long long smem[];
  __shared__ gid_source src;
  __shared__ acc_launch L;
  stage_param(&src, src_param);
  stage_param(&L, L_param);
  init_block_accs(smem, L, space);
  /* the first value column read: its loads fly with the keys', one round trip per tile */
  int32_t prefetch = -1;
  for (int32_t a = L.num_accs - 1; a > 0; --a) {
    if (L.acc[a].op != ACC_COUNT_ALL && L.acc[a].op != ACC_COUNT_VALID) prefetch = L.acc[a].value;
  }
  __syncthreads();
  for (int64_t base = (int64_t)blockIdx.x * GB_TILE; base < n;
       base += (int64_t)gridDim.x * GB_TILE) {
    int64_t const first = base + threadIdx.x;
    uint32_t const in = tile_rows(first, n);
    int32_t loaded = prefetch;
    uint64_t bits[GB_ROWS_PER_THREAD];
    if (loaded >= 0) tile_load_raw(L.values[loaded], first, in, bits);
    int32_t g[GB_ROWS_PER_THREAD];
    uint32_t const rows = tile_groups(src, first, in, g);
    tile_count((unsigned int *)smem, g, rows); /* position 0: COUNT_ALL */
    uint32_t ok = 0;
    if (loaded >= 0) {
      tile_widen(L.values[loaded], bits);
      ok = tile_valid(L.values[loaded], first, rows);
    }
    for (int32_t a = 1; a < L.num_accs; ++a) {
      acc_desc const &d = L.acc[a];
      unsigned long long *w = smem + a * space;
      if (d.op == ACC_COUNT_ALL || d.op == ACC_COUNT_VALID) {
        uint32_t const counted = d.op == ACC_COUNT_ALL ? rows
                                 : d.value == loaded   ? ok
                                                       : tile_valid(L.values[d.value], first, rows);
        tile_count((unsigned int *)w, g, counted);
        continue;
      }
      gcol_detail_reader const &r = L.values[d.value];
      if (d.value != loaded) {
        tile_load(r, first, rows, bits);
        ok = tile_valid(r, first, rows);
        loaded = d.value;
      }
      int32_t const kind = r.kind;
      switch (d.op) {
        case ACC_SUM_U64:
#pragma unroll
          for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
            if (((ok >> j) & 1u) != 0) smem_add_u64(w + g[j], bits[j]);
          }
          break;
        case ACC_SUM_F64:
#pragma unroll
          for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
            if (((ok >> j) & 1u) != 0) atomicAdd((double *)(w + g[j]), f64_of(kind, bits[j]));
          }
          break;
        case ACC_MIN_KEY:
#pragma unroll
          for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
            uint64_t const v = key_of(kind, bits[j]);
            if (((ok >> j) & 1u) != 0 && v < *(volatile unsigned long long *)(w + g[j])) {
              atomicMin(w + g[j], (unsigned long long)v);
            }
          }
          break;
        default: /* ACC_MAX_KEY */
#pragma unroll
          for (int j = 0; j < GB_ROWS_PER_THREAD; ++j) {
            uint64_t const v = key_of(kind, bits[j]);
            if (((ok >> j) & 1u) != 0 && v > *(volatile unsigned long long *)(w + g[j])) {
              atomicMax(w + g[j], (unsigned long long)v);
            }
          }
          break;
      }
    }
  }
  __syncthreads();
  for (int64_t s = threadIdx.x; s < space; s += GB_BLOCK) {
    if (((const unsigned int *)smem)[s] == 0) continue; /* no row of this block in id s */
    for (int32_t a = 0; a < L.num_accs; ++a) {
      if (L.target[a] < 0) continue;
      int32_t const op = L.acc[a].op;
      unsigned long long *out = &global[(int64_t)L.target[a] * space + s];
      if (op == ACC_COUNT_ALL || op == ACC_COUNT_VALID) {
        unsigned int const c = ((const unsigned int *)(smem + a * space))[s];
        if (c != 0) atomicAdd(out, (unsigned long long)c);
      } else {
        acc_apply(op, out, smem[a * space + s]);
      }
    }
  }
}

__global__ void init_acc_kernel(unsigned long long *acc, int64_t space, uint64_t identity) {
  GCOL_DETAIL_GRID_LOOP(s, space) { acc[s] = identity; }
}

/* ------------------------------------------------------------------ finishing */

enum fin_kind {
  FIN_COUNT = 0, /* a0 = the count accumulator */
  FIN_U64,       /* finish_u64(plan, a0, count a1) */
  FIN_F64,       /* finish_f64(plan, a0, count a1) */
  FIN_MINMAX,    /* storage of key a0 when count a1 > 0 */
  FIN_MOMENTS,   /* finish_moments(plan, {a1, sum a0, m2 a2}) */
  FIN_M2,        /* m2 a2 when count a1 > 0 (NaN when the sum a0 is not finite) */
  FIN_INDEX,     /* row a0 when count a1 > 0 */
  FIN_MERGE_MEAN /* wsum a0 / n a1 */
};

typedef struct fin_desc {
  int32_t kind;
  int32_t counter; /* index of its null counter */
  int32_t a0, a1, a2;
  gcol_detail_reduce_plan plan;
  void *data;
  uint32_t *mask; /* NULL: never null */
} fin_desc;

#define GB_MAX_FIN 16

typedef struct fin_launch {
  int32_t num;
  fin_desc f[GB_MAX_FIN];
} fin_launch;

__device__ __forceinline__ bool finish_one(const fin_desc &f, const unsigned long long *acc,
                                           int64_t space, int64_t s, uint64_t *bits) {
  uint64_t const a0 = acc[f.a0 * space + s];
  uint64_t const a1 = acc[f.a1 * space + s];
  switch (f.kind) {
    case FIN_COUNT:
      *bits = a0;
      return true;
    case FIN_U64:
      return gcol_detail_finish_u64(f.plan, a0, (int64_t)a1, bits);
    case FIN_F64:
      return gcol_detail_finish_f64(f.plan, as_f64(a0), (int64_t)a1, bits);
    case FIN_MINMAX:
      if (a1 == 0) return false;
      *bits = gcol_detail_storage_from_key(a0, f.plan.in_kind, f.plan.out_width);
      return true;
    case FIN_MOMENTS: {
      double const m2 = f.a2 >= 0 ? as_f64(acc[f.a2 * space + s]) : 0.0;
      return gcol_detail_finish_moments(f.plan,
                                        gcol_detail_moments_make((double)a1, as_f64(a0), m2), bits);
    }
    case FIN_M2: {
      if (a1 == 0) return false;
      double const sum = as_f64(a0);
      double const m2 = as_f64(acc[f.a2 * space + s]);
      *bits = f64_bits(isfinite(sum) ? m2 : sum - sum);
      return true;
    }
    case FIN_INDEX:
      if (a1 == 0) return false;
      *bits = a0;
      return true;
    case FIN_MERGE_MEAN:
      if (a1 == 0) return false;
      *bits = f64_bits(as_f64(a0) / (double)a1);
      return true;
    default:
      return false;
  }
}

/* Writes result row dense[s] (or s) of every output for each occupied id s. */
__global__ void finish_smem_kernel(fin_launch F_param, const unsigned long long *acc, int64_t space,
                                   const int64_t *dense, unsigned long long *null_counts) {
  __shared__ fin_launch F;
  stage_param(&F, F_param);
  GCOL_DETAIL_GRID_LOOP(s, space) {
    if (acc[s] == 0) continue; /* accumulator 0: no row in this id */
    int64_t const d = dense != NULL ? dense[s] : s;
    for (int32_t k = 0; k < F.num; ++k) {
      fin_desc const &f = F.f[k];
      uint64_t bits = 0;
      bool const valid = finish_one(f, acc, space, s, &bits);
      gcol_detail_store_bits(f.data, d, f.plan.out_width, valid ? bits : 0);
      if (f.mask == NULL) continue;
      if (valid) {
        atomicOr(&f.mask[gcol_bit_word_index(d)], 1u << gcol_bit_in_word(d));
      } else {
        atomicAdd(&null_counts[f.counter], 1ull);
      }
    }
  }
}

/* Direct path: writes the key columns of each occupied id from its digits. */
typedef struct key_out {
  int32_t num;
  void *data[GB_MAX_DIRECT_KEYS];
  uint32_t *mask[GB_MAX_DIRECT_KEYS];
  int32_t width[GB_MAX_DIRECT_KEYS];
} key_out;

__global__ void direct_keys_smem_kernel(direct_keys dk_param, key_out out_param,
                                        const unsigned long long *count, const int64_t *dense,
                                        int64_t space, unsigned long long *null_counts) {
  __shared__ direct_keys dk;
  __shared__ key_out out;
  stage_param(&dk, dk_param);
  stage_param(&out, out_param);
  GCOL_DETAIL_GRID_LOOP(s, space) {
    if (count[s] == 0) continue;
    int64_t const d = dense[s];
    for (int32_t k = 0; k < dk.num_keys; ++k) {
      uint64_t const digit = ((uint64_t)s / dk.stride[k]) % dk.radix[k];
      bool const is_null = dk.null_digit[k] && digit == dk.radix[k] - 1;
      uint64_t const bits =
          is_null ? 0
                  : gcol_detail_storage_from_key(dk.min[k] + digit, dk.key[k].kind, out.width[k]);
      gcol_detail_store_bits(out.data[k], d, out.width[k], bits);
      if (out.mask[k] == NULL) continue;
      if (is_null) {
        atomicAdd(&null_counts[k], 1ull);
      } else {
        atomicOr(&out.mask[k][gcol_bit_word_index(d)], 1u << gcol_bit_in_word(d));
      }
    }
  }
}

/* ------------------------------------------------------------------ order-based */

/* Per-row id in dense space (sort path; the direct path's ids go through `dense`). */
__global__ void dense_gid_smem_kernel(gid_source src_param, const int64_t *dense, int64_t n,
                                      int64_t *out) {
  __shared__ gid_source src;
  stage_param(&src, src_param);
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t g = gid_of(src, i);
    if (g >= 0 && dense != NULL) g = dense[g];
    out[i] = g;
  }
}

/* Compacts accumulator `a` of the occupied ids into a dense array. */
__global__ void compact_acc_kernel(const unsigned long long *acc, int64_t space, int32_t a,
                                   const int64_t *dense, int64_t *out) {
  GCOL_DETAIL_GRID_LOOP(s, space) {
    if (acc[s] == 0) continue;
    out[dense != NULL ? dense[s] : s] = (int64_t)acc[a * space + s];
  }
}

/* Sort keys: mode 0 the value's order key; 1: group; 2: group * 2 + null. Rows without a
 * group sort after every group. */
__global__ void sort_key_kernel(int32_t mode, gcol_detail_reader r, const int64_t *gid,
                                const int64_t *rows, int64_t num_groups, int64_t n,
                                uint64_t *keys) {
  GCOL_DETAIL_GRID_LOOP(p, n) {
    int64_t const i = rows[p];
    if (mode == 0) {
      keys[p] = gcol_detail_reader_valid(r, i) ? gcol_detail_reader_key(r, i) : 0;
      continue;
    }
    int64_t const g = gid[i];
    uint64_t const group = g < 0 ? (uint64_t)num_groups : (uint64_t)g;
    keys[p] = mode == 1 ? group : 2 * group + (gcol_detail_reader_valid(r, i) ? 0u : 1u);
  }
}

/* Quantile of each group from the sorted value keys of its valid rows. */
__global__ void quantile_kernel(const uint64_t *sorted_keys, const int64_t *offsets,
                                const int64_t *valid_count, int64_t num_groups, double q,
                                int32_t interp, int32_t kind, int32_t in_width, int32_t out_width,
                                void *out, uint32_t *mask, unsigned long long *nulls) {
  GCOL_DETAIL_GRID_LOOP(d, num_groups) {
    int64_t const v = valid_count[d];
    uint64_t bits = 0;
    if (v > 0) {
      bits = gcol_detail_quantile_bits(sorted_keys + offsets[d], v, q, interp, kind, in_width);
      atomicOr(&mask[gcol_bit_word_index(d)], 1u << gcol_bit_in_word(d));
    } else {
      atomicAdd(nulls, 1ull);
    }
    gcol_detail_store_bits(out, d, out_width, bits);
  }
}

/* Value keys of the sorted rows (valid rows' order keys). */
__global__ void gather_keys_kernel(gcol_detail_reader r, const int64_t *rows, int64_t n,
                                   uint64_t *out) {
  GCOL_DETAIL_GRID_LOOP(p, n) {
    int64_t const i = rows[p];
    out[p] = gcol_detail_reader_valid(r, i) ? gcol_detail_reader_key(r, i) : 0;
  }
}

/* Equal values for NUNIQUE: floats by value with NaN == NaN (-0.0 == 0.0), others by key. */
__device__ __forceinline__ bool same_value(uint64_t a, uint64_t b, int32_t kind) {
  if (kind != GCOL_DETAIL_KIND_FLOAT) return a == b;
  double const x = gcol_detail_f64_from_key(a), y = gcol_detail_f64_from_key(b);
  return x == y || (x != x && y != y);
}

/* One thread per sorted position (order 2: group * 2 + null keys); counts the first
 * position of each run of equal valid values of a group. */
__global__ void nunique_kernel(const uint64_t *sorted_group_keys, const uint64_t *value_keys,
                               int64_t total, int32_t kind, unsigned long long *counts) {
  GCOL_DETAIL_GRID_LOOP(p, total) {
    uint64_t const gk = sorted_group_keys[p];
    if ((gk & 1u) != 0) continue; /* null */
    bool const starts = p == 0 || sorted_group_keys[p - 1] != gk ||
                        !same_value(value_keys[p - 1], value_keys[p], kind);
    if (starts) atomicAdd(&counts[gk >> 1], 1ull);
  }
}

__global__ void nunique_finish_kernel(const unsigned long long *counts, const int64_t *all,
                                      const int64_t *valid, bool include_nulls, int64_t g,
                                      int64_t *out) {
  GCOL_DETAIL_GRID_LOOP(d, g) {
    out[d] = (int64_t)counts[d] + (include_nulls && all[d] > valid[d] ? 1 : 0);
  }
}

/* NTH_ELEMENT: the source row of each group's n-th element, or -1. */
__global__ void nth_kernel(const int64_t *sorted_rows, const int64_t *offsets, const int64_t *sizes,
                           int64_t num_groups, int64_t nth, int64_t *map) {
  GCOL_DETAIL_GRID_LOOP(d, num_groups) {
    int64_t const m = sizes[d];
    int64_t const k = nth >= 0 ? nth : m + nth;
    map[d] = k >= 0 && k < m ? sorted_rows[offsets[d] + k] : -1;
  }
}

/* COLLECT_LIST: the first sizes[d] rows of each group, packed at list_offsets[d]. */
__global__ void collect_map_kernel(const uint64_t *sorted_group_keys, int32_t shift,
                                   const int64_t *sorted_rows, const int64_t *offsets,
                                   const int64_t *sizes, const int64_t *list_offsets,
                                   int64_t num_groups, int64_t total, int64_t *map) {
  GCOL_DETAIL_GRID_LOOP(p, total) {
    uint64_t const d = sorted_group_keys[p] >> shift;
    if (d >= (uint64_t)num_groups) continue;
    int64_t const r = p - offsets[d];
    if (r < sizes[d]) map[list_offsets[d] + r] = sorted_rows[p];
  }
}

/* ------------------------------------------------------------------ sorted groups */

typedef struct order_col {
  gcol_detail_reader reader;  /* fixed-width <= 8 bytes: order keys */
  gcol_detail_row_column row; /* STRING and DECIMAL128 */
  int32_t type;               /* 0 reader, 1 string, 2 decimal128 */
} order_col;

typedef struct rep_less {
  const order_col *cols;
  int32_t num;
  const int64_t *rep;
  __device__ bool operator()(const int64_t &ga, const int64_t &gb) const {
    int64_t const a = rep[ga], b = rep[gb];
    for (int32_t k = 0; k < num; ++k) {
      order_col const &c = cols[k];
      bool const va = gcol_detail_row_valid(&c.row, a), vb = gcol_detail_row_valid(&c.row, b);
      if (va != vb) return va; /* nulls last */
      if (!va) continue;
      if (c.type == 0) {
        uint64_t const x = gcol_detail_reader_key(c.reader, a),
                       y = gcol_detail_reader_key(c.reader, b);
        if (x != y) return x < y;
      } else if (c.type == 1) {
        gcol_string_ref const x = gcol_strings_view_get(c.row.strings, a);
        gcol_string_ref const y = gcol_strings_view_get(c.row.strings, b);
        int64_t const m = x.size < y.size ? x.size : y.size;
        for (int64_t j = 0; j < m; ++j) {
          unsigned char const cx = (unsigned char)x.data[j], cy = (unsigned char)y.data[j];
          if (cx != cy) return cx < cy;
        }
        if (x.size != y.size) return x.size < y.size;
      } else {
        const uint64_t *p = (const uint64_t *)c.row.data + 2 * a;
        const uint64_t *q = (const uint64_t *)c.row.data + 2 * b;
        uint64_t const hx = p[1] ^ GCOL_DETAIL_SIGN64, hy = q[1] ^ GCOL_DETAIL_SIGN64;
        if (hx != hy) return hx < hy;
        if (p[0] != q[0]) return p[0] < q[0];
      }
    }
    return false;
  }
} rep_less;

__global__ void compose_kernel(const int64_t *outer, const int64_t *inner, int64_t n,
                               int64_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, n) { out[i] = inner[outer[i]]; }
}

/* ------------------------------------------------------------------ host helpers */

unsigned int grid_for(int64_t n) { return gcol_detail_grid_size(n, GB_BLOCK); }

/* Blocks for a tiled kernel over n rows: at most one resident wave of `kernel` with `smem`
 * dynamic bytes (per_sm, from the occupancy, capped at 8 per SM). */
template <typename K>
gcol_status tile_grid(int64_t n, K kernel, size_t smem, unsigned int *blocks) {
  gcol_status status = GCOL_OK;
  int device = 0, sms = 1, per_sm = 1;
  GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&device));
  GCOL_DETAIL_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GCOL_DETAIL_CUDA_TRY(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, GB_BLOCK, smem));
  if (per_sm < 1) per_sm = 1;
  if (per_sm > 8) per_sm = 8;
  {
    int64_t const tiles = (n + GB_TILE - 1) / GB_TILE;
    int64_t const wave = (int64_t)sms * per_sm;
    *blocks = (unsigned int)(tiles < 1 ? 1 : tiles < wave ? tiles : wave);
  }
done:
  return status;
}

/* Stable sort of (keys, rows) pairs by the low `bits` bits of the keys, in place. */
gcol_status sort_pairs(uint64_t *keys, int64_t *rows, int64_t n, int bits, cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL, *keys_out = NULL, *rows_out = NULL;
  size_t bytes = 0;
  if (bits < 1) bits = 1;
  GCOL_DETAIL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(NULL, bytes, (const uint64_t *)keys,
                                                       (uint64_t *)NULL, (const int64_t *)rows,
                                                       (int64_t *)NULL, n, 0, bits, stream));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(bytes, (gcol_stream)stream, &temp));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * 8u, (gcol_stream)stream, NULL, &keys_out));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * 8u, (gcol_stream)stream, NULL, &rows_out));
  GCOL_DETAIL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(
      temp->data, bytes, (const uint64_t *)keys, (uint64_t *)keys_out->data, (const int64_t *)rows,
      (int64_t *)rows_out->data, n, 0, bits, stream));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(keys, keys_out->data, (size_t)n * 8u, cudaMemcpyDeviceToDevice, stream));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(rows, rows_out->data, (size_t)n * 8u, cudaMemcpyDeviceToDevice, stream));
done:
  gcol_buffer_free(temp);
  gcol_buffer_free(keys_out);
  gcol_buffer_free(rows_out);
  return status;
}

int bits_for(uint64_t max_value) {
  int b = 1;
  while (b < 64 && (max_value >> b) != 0) ++b;
  return b;
}

/* An INT64 column view over device int64 values (a gather map). */
gcol_column_view i64_view(const int64_t *p, int64_t n) {
  return gcol_column_view_make(gcol_data_type_make(GCOL_INT64), n, p, NULL, 0);
}

gcol_status gather_column(gcol_column_view source, const int64_t *map, int64_t n, bool nullify,
                          gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_detail_gather_map m;
  GCOL_DETAIL_TRY(gcol_detail_gather_map_make(i64_view(map, n), source.size, false, nullify, &m));
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_column(source, m, stream, mr, out));
done:
  return status;
}

/* ------------------------------------------------------------------ the plan */

typedef struct acc_entry {
  int32_t op;
  int32_t request; /* value column (-1: none) */
  int32_t ref0, ref1;
  int32_t aux, aux2; /* merge: the requests of the counts and the means */
} acc_entry;

typedef struct gb_plan {
  int32_t num_accs;
  acc_entry accs[256];
} gb_plan;

/* The accumulator (op, request, refs), added when new. -1 when the plan is full. */
int32_t plan_acc(gb_plan *p, int32_t op, int32_t request, int32_t ref0, int32_t ref1,
                 int32_t aux = -1, int32_t aux2 = -1) {
  for (int32_t a = 0; a < p->num_accs; ++a) {
    acc_entry const &e = p->accs[a];
    if (e.op == op && e.request == request && e.ref0 == ref0 && e.ref1 == ref1 && e.aux == aux &&
        e.aux2 == aux2) {
      return a;
    }
  }
  if (p->num_accs >= 256 || ref0 < -1 || ref1 < -1) return -1;
  acc_entry e = {op, request, ref0, ref1, aux, aux2};
  p->accs[p->num_accs] = e;
  return p->num_accs++;
}

bool is_second_pass(int32_t op) { return op == ACC_M2 || op == ACC_ARG_KEY || op == ACC_MERGE_M2; }

bool is_order_kind(int32_t kind) {
  return kind == GCOL_GROUPBY_MEDIAN || kind == GCOL_GROUPBY_QUANTILE ||
         kind == GCOL_GROUPBY_NUNIQUE || kind == GCOL_GROUPBY_NTH_ELEMENT ||
         kind == GCOL_GROUPBY_COLLECT_LIST;
}

/* Everything one groupby call holds; freed by state_free. */
typedef struct gb_state {
  gcol_table_view keys;
  const gcol_groupby_request *requests;
  int32_t num_requests;
  gcol_groupby_options opt;
  cudaStream_t stream;
  gcol_mr *mr;
  int64_t n;
  /* group ids */
  bool direct;
  gid_source src;
  int64_t space;
  int64_t num_groups;
  gcol_buffer *row_gid;   /* hash: dense id per row */
  gcol_buffer *group_rep; /* hash: representative row per dense id */
  gcol_buffer *dense;     /* direct: id -> dense id (space + 1 entries) */
  gcol_buffer *key_cols;  /* hash: flat key descriptors */
  /* accumulation */
  gb_plan plan;
  gcol_buffer *acc;            /* num_accs * space words */
  gcol_detail_reader *readers; /* per request (host) */
  /* order-based */
  gcol_buffer *dense_gid;    /* per-row dense id */
  gcol_buffer *group_all;    /* rows per group */
  gcol_buffer *group_offset; /* exclusive scan of group_all (num_groups + 1) */
  gcol_buffer *counters;     /* null counters of the outputs */
} gb_state;

void state_free(gb_state *s) {
  gcol_buffer_free(s->row_gid);
  gcol_buffer_free(s->group_rep);
  gcol_buffer_free(s->dense);
  gcol_buffer_free(s->key_cols);
  gcol_buffer_free(s->acc);
  gcol_buffer_free(s->dense_gid);
  gcol_buffer_free(s->group_all);
  gcol_buffer_free(s->group_offset);
  gcol_buffer_free(s->counters);
  free(s->readers);
}

/* ------------------------------------------------------------------ step 1: group ids */

bool direct_candidate(gcol_table_view keys) {
  if (keys.num_columns > GB_MAX_DIRECT_KEYS) return false;
  for (int32_t k = 0; k < keys.num_columns; ++k) {
    gcol_type_id const id = keys.columns[k].type.id;
    int32_t const kind = gcol_detail_kind_of(id);
    if (kind < 0 || kind == GCOL_DETAIL_KIND_FLOAT || gcol_type_size(id) > 8) return false;
  }
  return true;
}

/* Tries the direct path: min/max of each key (synchronizes) and the product of the ranges. */
gcol_status try_direct(gb_state *s, bool *taken) {
  gcol_status status = GCOL_OK;
  gcol_buffer *stats = NULL;
  unsigned long long host[3 * GB_MAX_DIRECT_KEYS];
  unsigned int blocks = 1;
  direct_keys dk;
  *taken = false;
  memset(&dk, 0, sizeof dk);
  if (s->n == 0 || !direct_candidate(s->keys)) return GCOL_OK;
  dk.num_keys = s->keys.num_columns;
  dk.drop_nulls = s->opt.drop_null_keys;
  for (int32_t k = 0; k < dk.num_keys; ++k) {
    dk.key[k] = gcol_detail_reader_make(s->keys.columns[k]);
    host[3 * k] = ~0ull;
    host[3 * k + 1] = 0;
    host[3 * k + 2] = 0;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof host, (gcol_stream)s->stream, NULL, &stats));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(stats->data, host, sizeof(host[0]) * 3 * dk.num_keys,
                                       cudaMemcpyHostToDevice, s->stream));
  /* One resident wave: the blocks' partial results meet in three words (one warp per 32
   * rows made those atomics serialize: about 6 ms per key column at 2^27 rows on an H200). */
  GCOL_DETAIL_TRY(tile_grid(s->n, key_range_smem_kernel, 0, &blocks));
  key_range_smem_kernel<<<blocks, GB_BLOCK, 0, s->stream>>>(dk, s->n,
                                                            (unsigned long long *)stats->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host, stats->data, sizeof(host[0]) * 3 * dk.num_keys,
                                       cudaMemcpyDeviceToHost, s->stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s->stream));
  {
    /* the space stays within the rows (and a floor for tiny inputs) and 2^26 ids */
    uint64_t const limit = (uint64_t)(s->n < ((int64_t)1 << 25) ? 2 * s->n + 4096 : (1 << 26));
    uint64_t space = 1;
    for (int32_t k = 0; k < dk.num_keys; ++k) {
      uint64_t const lo = host[3 * k], hi = host[3 * k + 1];
      bool const any_valid = lo <= hi;
      if (any_valid && hi - lo >= limit) goto done;
      uint64_t range = any_valid ? hi - lo + 1 : 0;
      dk.min[k] = any_valid ? lo : 0;
      dk.null_digit[k] = host[3 * k + 2] != 0 && !dk.drop_nulls;
      if (dk.null_digit[k]) ++range;
      dk.radix[k] = range < 1 ? 1 : range;
      if (space * dk.radix[k] > limit) goto done;
      space *= dk.radix[k];
    }
    uint64_t stride = 1;
    for (int32_t k = dk.num_keys - 1; k >= 0; --k) {
      dk.stride[k] = stride;
      stride *= dk.radix[k];
    }
    s->src.row_gid = NULL;
    s->src.dk = dk;
    s->space = (int64_t)space;
    s->direct = true;
    *taken = true;
  }
done:
  gcol_buffer_free(stats);
  return status;
}

gcol_status hash_groups(gb_state *s) {
  gcol_status status = GCOL_OK;
  gcol_buffer *slots = NULL, *rep = NULL, *dense = NULL, *overflow = NULL;
  int host_overflow = 0;
  int64_t num_groups = 0;
  bool packed = false;
  int64_t const n = s->n;
  int32_t *indices = NULL;
  gcol_detail_hash_table t;
  int32_t const num_keys = s->keys.num_columns;
  indices = (int32_t *)calloc((size_t)num_keys, sizeof(int32_t));
  GCOL_DETAIL_CHECK(indices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                    (int)num_keys);
  for (int32_t k = 0; k < num_keys; ++k) indices[k] = k;
  GCOL_DETAIL_TRY(gcol_detail_row_columns_make(s->keys, indices, num_keys, true, false,
                                               (gcol_stream)s->stream, &s->key_cols));
  if (num_keys == 1 && gcol_type_is_fixed_width(s->keys.columns[0].type.id) &&
      gcol_type_size(s->keys.columns[0].type.id) <= 8) {
    int64_t nulls = 0;
    GCOL_DETAIL_TRY(
        gcol_column_view_null_count(s->keys.columns[0], (gcol_stream)s->stream, &nulls));
    packed = nulls == 0;
  }
  GCOL_DETAIL_TRY(gcol_detail_hash_table_create(n, (gcol_stream)s->stream, &slots, &t));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(t.capacity + 1) * 8u, (gcol_stream)s->stream, NULL, &rep));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * 8u, (gcol_stream)s->stream, NULL, &s->row_gid));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int), (gcol_stream)s->stream, NULL, &overflow));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(overflow->data, 0, sizeof(int), s->stream));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemsetAsync(rep->data, 0xFF, (size_t)(t.capacity + 1) * 8u, s->stream)); /* -1 */
  if (packed) {
    packed_insert_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(
        t, (const gcol_detail_row_column *)s->key_cols->data, n, (int64_t *)s->row_gid->data,
        (long long *)rep->data, (int *)overflow->data);
  } else {
    hash_insert_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(
        t, (const gcol_detail_row_column *)s->key_cols->data, num_keys, s->opt.drop_null_keys, n,
        (int64_t *)s->row_gid->data, (long long *)rep->data, (int *)overflow->data);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  /* The slots are no longer needed. The occupancy flags become dense ids in place (one
   * array of capacity words instead of two: the peak of this path is rep, row_gid and it). */
  gcol_buffer_free(slots);
  slots = NULL;
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(t.capacity + 2) * 8u, (gcol_stream)s->stream, NULL, &dense));
  occupied_kernel<<<grid_for(t.capacity + 2), GB_BLOCK, 0, s->stream>>>(
      (const long long *)rep->data, NULL, t.capacity + 1, (int64_t *)dense->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)dense->data,
                                                (int64_t *)dense->data, t.capacity + 2,
                                                (gcol_stream)s->stream));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&num_groups, (const int64_t *)dense->data + t.capacity + 1,
                                       sizeof num_groups, cudaMemcpyDeviceToHost, s->stream));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&host_overflow, overflow->data, sizeof host_overflow,
                                       cudaMemcpyDeviceToHost, s->stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s->stream));
  GCOL_DETAIL_CHECK(host_overflow == 0, GCOL_ERROR_OVERFLOW,
                    "hash table of %lld slots overflowed for %lld rows", (long long)t.capacity,
                    (long long)n);
  slot_to_dense_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>((int64_t *)s->row_gid->data,
                                                                (const int64_t *)dense->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(num_groups > 0 ? num_groups : 1) * 8u,
                                     (gcol_stream)s->stream, NULL, &s->group_rep));
  dense_rep_kernel<<<grid_for(t.capacity + 1), GB_BLOCK, 0, s->stream>>>(
      (const long long *)rep->data, (const int64_t *)dense->data, t.capacity + 1,
      (int64_t *)s->group_rep->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  s->src.row_gid = (const int64_t *)s->row_gid->data;
  s->space = num_groups;
  s->num_groups = num_groups;
done:
  free(indices);
  gcol_buffer_free(slots);
  gcol_buffer_free(rep);
  gcol_buffer_free(dense);
  gcol_buffer_free(overflow);
  return status;
}

/* ------------------------------------------------------------------ step 2: plan + atomics */

/* Adds the accumulators of one aggregation; the finish descriptor is completed by the
 * caller. Returns false for order-based kinds (no accumulator). */
gcol_status plan_agg(gb_state *s, int32_t r, const gcol_groupby_agg *agg, bool has_nulls,
                     fin_desc *f) {
  gcol_status status = GCOL_OK;
  gb_plan *p = &s->plan;
  gcol_column_view const values = s->requests[r].values;
  bool const is_float = gcol_type_is_floating(values.type.id);
  int32_t count = 0, a0 = 0, a2 = -1;
  int32_t kind = FIN_U64;
  GCOL_DETAIL_CHECK(p->num_accs <= 250, GCOL_ERROR_UNSUPPORTED,
                    "too many aggregations in one groupby (at most 250 accumulators)");
  if (has_nulls) count = plan_acc(p, ACC_COUNT_VALID, r, -1, -1);
  switch (agg->kind) {
    case GCOL_GROUPBY_COUNT_ALL:
      kind = FIN_COUNT;
      a0 = 0;
      break;
    case GCOL_GROUPBY_COUNT_VALID:
      kind = FIN_COUNT;
      a0 = count;
      break;
    case GCOL_GROUPBY_SUM:
      a0 = plan_acc(p, is_float ? ACC_SUM_F64 : ACC_SUM_U64, r, -1, -1, -1);
      kind = is_float ? FIN_F64 : FIN_U64;
      break;
    case GCOL_GROUPBY_SUM_OF_SQUARES:
      a0 = plan_acc(p, is_float ? ACC_SUMSQ_F64 : ACC_SUMSQ_U64, r, -1, -1, -1);
      kind = is_float ? FIN_F64 : FIN_U64;
      break;
    case GCOL_GROUPBY_PRODUCT:
      a0 = plan_acc(p, is_float ? ACC_PROD_F64 : ACC_PROD_U64, r, -1, -1, -1);
      kind = is_float ? FIN_F64 : FIN_U64;
      break;
    case GCOL_GROUPBY_MIN:
    case GCOL_GROUPBY_MAX:
      a0 = plan_acc(p, agg->kind == GCOL_GROUPBY_MIN ? ACC_MIN_KEY : ACC_MAX_KEY, r, -1, -1, -1);
      kind = FIN_MINMAX;
      break;
    case GCOL_GROUPBY_ANY:
    case GCOL_GROUPBY_ALL:
      a0 = plan_acc(p, agg->kind == GCOL_GROUPBY_ANY ? ACC_ANY : ACC_ALL, r, -1, -1, -1);
      kind = FIN_U64;
      break;
    case GCOL_GROUPBY_ARGMIN:
    case GCOL_GROUPBY_ARGMAX: {
      int32_t const key =
          plan_acc(p, agg->kind == GCOL_GROUPBY_ARGMIN ? ACC_MIN_KEY : ACC_MAX_KEY, r, -1, -1, -1);
      a0 = plan_acc(p, ACC_ARG_KEY, r, key, -1, -1);
      kind = FIN_INDEX;
      break;
    }
    case GCOL_GROUPBY_MEAN:
    case GCOL_GROUPBY_VARIANCE:
    case GCOL_GROUPBY_STD:
    case GCOL_GROUPBY_M2:
      a0 = plan_acc(p, ACC_SUM_F64, r, -1, -1, -1);
      if (agg->kind != GCOL_GROUPBY_MEAN) a2 = plan_acc(p, ACC_M2, r, a0, count, -1);
      kind = agg->kind == GCOL_GROUPBY_M2 ? FIN_M2 : FIN_MOMENTS;
      break;
    default:
      break;
  }
  f->kind = kind;
  f->a0 = a0;
  f->a1 = count;
  f->a2 = a2;
done:
  return status;
}

/* The reader slot of request r in a launch (added when missing); -1 when the launch is full. */
int32_t launch_slot(int32_t *reqs, int32_t *num, int32_t r) {
  for (int32_t q = 0; q < *num; ++q) {
    if (reqs[q] == r) return q;
  }
  if (*num >= GB_MAX_VALUES) return -1;
  reqs[*num] = r;
  return (*num)++;
}

/* Runs the accumulators of one pass (first or second) in launches of GB_MAX_ACCS. */
gcol_status run_pass(gb_state *s, bool second) {
  gcol_status status = GCOL_OK;
  unsigned long long *acc = (unsigned long long *)s->acc->data;
  int device = 0, sms = 1, per_sm = 1;
  int32_t idx[256];
  int32_t num = 0, pos = 0;
  GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&device));
  GCOL_DETAIL_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  for (int32_t a = 0; a < s->plan.num_accs; ++a) {
    if (is_second_pass(s->plan.accs[a].op) == second) idx[num++] = a;
  }
  while (pos < num) {
    acc_launch L;
    int32_t reqs[GB_MAX_VALUES];
    int32_t num_reqs = 0;
    memset(&L, 0, sizeof L);
    if (!second) {
      /* position 0: the row count; it updates accumulator 0 in the first launch only */
      L.acc[0].op = ACC_COUNT_ALL;
      L.target[0] = idx[pos] == 0 ? 0 : -1;
      if (idx[pos] == 0) ++pos;
      L.num_accs = 1;
    }
    while (pos < num && L.num_accs < GB_MAX_ACCS) {
      acc_entry const &e = s->plan.accs[idx[pos]];
      int32_t tmp[GB_MAX_VALUES];
      int32_t tmp_num = num_reqs;
      memcpy(tmp, reqs, sizeof(int32_t) * (size_t)num_reqs);
      int32_t const v = e.request >= 0 ? launch_slot(tmp, &tmp_num, e.request) : 0;
      int32_t const x = e.aux >= 0 ? launch_slot(tmp, &tmp_num, e.aux) : 0;
      int32_t const y = e.aux2 >= 0 ? launch_slot(tmp, &tmp_num, e.aux2) : 0;
      if (v < 0 || x < 0 || y < 0) break;
      memcpy(reqs, tmp, sizeof(int32_t) * (size_t)tmp_num);
      num_reqs = tmp_num;
      acc_desc d;
      d.op = e.op;
      d.value = v;
      d.aux = x;
      d.aux2 = y;
      d.ref0 = e.ref0;
      d.ref1 = e.ref1;
      L.target[L.num_accs] = idx[pos];
      L.acc[L.num_accs++] = d;
      ++pos;
    }
    for (int32_t q = 0; q < num_reqs; ++q) L.values[q] = s->readers[reqs[q]];
    size_t const smem = (size_t)L.num_accs * (size_t)s->space * 8u;
    bool const shared = !second && s->space <= GB_SHARED_MAX_SPACE && smem <= GB_SHARED_MAX_BYTES;
    bool few = shared;
    unsigned int few_blocks = 1;
    for (int32_t a = 0; a < L.num_accs; ++a) few = few && few_groups_op(L.acc[a].op);
    if (few) {
      /* opted in as accumulate_smem_kernel below */
      GCOL_DETAIL_CUDA_TRY(cudaFuncSetAttribute(accumulate_few_smem_kernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                (int)GB_SHARED_MAX_BYTES));
      GCOL_DETAIL_TRY(tile_grid(s->n, accumulate_few_smem_kernel, smem, &few_blocks));
      /* its counts are 32-bit: a block takes at most n / blocks + GB_TILE rows */
      few = s->n / few_blocks < ((int64_t)1 << 31);
    }
    if (few) {
      accumulate_few_smem_kernel<<<few_blocks, GB_BLOCK, smem, s->stream>>>(s->src, L, s->n, acc,
                                                                            s->space);
    } else if (shared) {
      /* Opt in always, to the largest size ever asked: the kernel's static shared memory
       * counts against the 48 KiB default too (a launch just under 48 KiB of dynamic
       * memory failed), and one constant value is race-free between threads. */
      GCOL_DETAIL_CUDA_TRY(cudaFuncSetAttribute(accumulate_smem_kernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                (int)GB_SHARED_MAX_BYTES));
      GCOL_DETAIL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, accumulate_smem_kernel, GB_BLOCK, smem));
      if (per_sm < 1) per_sm = 1;
      if (per_sm > 8) per_sm = 8;
      unsigned int blocks = grid_for(s->n);
      if (blocks > (unsigned int)(sms * per_sm)) blocks = (unsigned int)(sms * per_sm);
      accumulate_smem_kernel<<<blocks, GB_BLOCK, smem, s->stream>>>(s->src, L, s->n, acc, s->space);
    } else {
      accumulate_global_smem_kernel<<<grid_for(s->n), GB_BLOCK, 0, s->stream>>>(s->src, L, s->n,
                                                                                acc, s->space);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

gcol_status init_accs(gb_state *s) {
  gcol_status status = GCOL_OK;
  size_t const words = (size_t)s->plan.num_accs * (size_t)(s->space > 0 ? s->space : 1);
  GCOL_DETAIL_TRY(gcol_buffer_create(words * 8u, (gcol_stream)s->stream, NULL, &s->acc));
  if (s->space == 0) goto done;
  for (int32_t a = 0; a < s->plan.num_accs; ++a) {
    init_acc_kernel<<<grid_for(s->space), GB_BLOCK, 0, s->stream>>>(
        (unsigned long long *)s->acc->data + (size_t)a * (size_t)s->space, s->space,
        acc_identity(s->plan.accs[a].op));
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

/* Direct path: dense ids of the occupied ids and the number of groups (synchronizes). */
gcol_status direct_dense(gb_state *s) {
  gcol_status status = GCOL_OK;
  gcol_buffer *flags = NULL;
  int64_t groups = 0;
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(s->space + 1) * 8u, (gcol_stream)s->stream, NULL, &flags));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(s->space + 1) * 8u, (gcol_stream)s->stream, NULL, &s->dense));
  occupied_kernel<<<grid_for(s->space + 1), GB_BLOCK, 0, s->stream>>>(
      NULL, (const unsigned long long *)s->acc->data, s->space, (int64_t *)flags->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan((const int64_t *)flags->data, (int64_t *)s->dense->data,
                                         s->space, &groups, 1, (gcol_stream)s->stream));
  s->num_groups = groups;
done:
  gcol_buffer_free(flags);
  return status;
}

/* ------------------------------------------------------------------ step 3: order-based */

/* Per-row dense ids, rows per group and group offsets (once per call). */
gcol_status order_setup(gb_state *s) {
  gcol_status status = GCOL_OK;
  int64_t const g = s->num_groups;
  const int64_t *dense = s->direct ? (const int64_t *)s->dense->data : NULL;
  if (s->dense_gid != NULL) return GCOL_OK;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(s->n > 0 ? s->n : 1) * 8u, (gcol_stream)s->stream,
                                     NULL, &s->dense_gid));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(g + 1) * 8u, (gcol_stream)s->stream, NULL, &s->group_all));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(g + 1) * 8u, (gcol_stream)s->stream, NULL, &s->group_offset));
  if (s->n > 0) {
    dense_gid_smem_kernel<<<grid_for(s->n), GB_BLOCK, 0, s->stream>>>(
        s->src, dense, s->n, (int64_t *)s->dense_gid->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(s->group_all->data, 0, (size_t)(g + 1) * 8u, s->stream));
  if (s->space > 0) {
    compact_acc_kernel<<<grid_for(s->space), GB_BLOCK, 0, s->stream>>>(
        (const unsigned long long *)s->acc->data, s->space, 0, dense,
        (int64_t *)s->group_all->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)s->group_all->data,
                                                (int64_t *)s->group_offset->data, g + 1,
                                                (gcol_stream)s->stream));
done:
  return status;
}

/* Rows sorted for request r: mode 1 by group (input order within a group), 2 by (group,
 * null) (valid rows first, input order), 3 by (group, null, value). keys/rows: n each. */
gcol_status sorted_rows(gb_state *s, int32_t r, int32_t mode, uint64_t *keys, int64_t *rows) {
  gcol_status status = GCOL_OK;
  int64_t const n = s->n;
  gcol_detail_reader const reader = s->readers[r];
  const int64_t *gid = (const int64_t *)s->dense_gid->data;
  int const group_bits = bits_for(2 * (uint64_t)s->num_groups + 1);
  iota_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(rows, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  if (mode == 3) {
    sort_key_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(0, reader, gid, rows, s->num_groups, n,
                                                             keys);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(sort_pairs(keys, rows, n, 64, s->stream));
  }
  sort_key_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(mode == 1 ? 1 : 2, reader, gid, rows,
                                                           s->num_groups, n, keys);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(sort_pairs(keys, rows, n, group_bits, s->stream));
done:
  return status;
}

/* A column of per-group counts compacted from accumulator a (INT64, device temp). */
gcol_status compact_counts(gb_state *s, int32_t a, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  int64_t const g = s->num_groups;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(g + 1) * 8u, (gcol_stream)s->stream, NULL, out));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync((*out)->data, 0, (size_t)(g + 1) * 8u, s->stream));
  if (s->space == 0) goto done;
  compact_acc_kernel<<<grid_for(s->space), GB_BLOCK, 0, s->stream>>>(
      (const unsigned long long *)s->acc->data, s->space, a,
      s->direct ? (const int64_t *)s->dense->data : NULL, (int64_t *)(*out)->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* One order-based aggregation of request r into *out (num_groups rows). count_acc: the
 * valid-count accumulator of the request. */
gcol_status order_agg(gb_state *s, int32_t r, const gcol_groupby_agg *agg, int32_t count_acc,
                      gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *keys = NULL, *rows = NULL, *valid = NULL, *vkeys = NULL, *map = NULL, *counts = NULL,
              *loff = NULL, *nulls = NULL;
  gcol_column *col = NULL, *offsets = NULL, *child = NULL;
  gcol_column_view const values = s->requests[r].values;
  int64_t const n = s->n, g = s->num_groups;
  gcol_stream const st = (gcol_stream)s->stream;
  gcol_data_type out_type;
  int32_t mode = 3;
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_groupby_output_type(values.type, agg, &out_type));
  if (agg->kind == GCOL_GROUPBY_NTH_ELEMENT || agg->kind == GCOL_GROUPBY_COLLECT_LIST) {
    mode = agg->include_nulls ? 1 : 2;
  }
  GCOL_DETAIL_TRY(order_setup(s));
  GCOL_DETAIL_TRY(compact_counts(s, count_acc, &valid));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, st, NULL, &keys));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, st, NULL, &rows));
  if (n > 0) {
    GCOL_DETAIL_TRY(sorted_rows(s, r, mode, (uint64_t *)keys->data, (int64_t *)rows->data));
  }
  switch (agg->kind) {
    case GCOL_GROUPBY_MEDIAN:
    case GCOL_GROUPBY_QUANTILE: {
      unsigned long long host_nulls = 0;
      double const q = agg->kind == GCOL_GROUPBY_MEDIAN ? 0.5 : agg->q;
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, st, NULL, &vkeys));
      GCOL_DETAIL_TRY(gcol_buffer_create(8u, st, NULL, &nulls));
      GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(nulls->data, 0, 8u, s->stream));
      GCOL_DETAIL_TRY(gcol_column_create(out_type, g, GCOL_MASK_ALL_NULL, st, s->mr, &col));
      if (g > 0) {
        gather_keys_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(
            s->readers[r], (const int64_t *)rows->data, n, (uint64_t *)vkeys->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
        quantile_kernel<<<grid_for(g), GB_BLOCK, 0, s->stream>>>(
            (const uint64_t *)vkeys->data, (const int64_t *)s->group_offset->data,
            (const int64_t *)valid->data, g, q, (int32_t)agg->interp,
            gcol_detail_kind_of(values.type.id), (int32_t)gcol_type_size(values.type.id),
            (int32_t)gcol_type_size(out_type.id), col->data->data, (uint32_t *)col->null_mask->data,
            (unsigned long long *)nulls->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
      GCOL_DETAIL_CUDA_TRY(
          cudaMemcpyAsync(&host_nulls, nulls->data, 8u, cudaMemcpyDeviceToHost, s->stream));
      GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s->stream));
      if (host_nulls == 0) {
        GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, NULL, 0));
      } else {
        GCOL_DETAIL_TRY(gcol_column_set_null_count(col, (int64_t)host_nulls));
      }
      break;
    }
    case GCOL_GROUPBY_NUNIQUE: {
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n > 0 ? n : 1) * 8u, st, NULL, &vkeys));
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(g + 1) * 8u, st, NULL, &counts));
      GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counts->data, 0, (size_t)(g + 1) * 8u, s->stream));
      GCOL_DETAIL_TRY(gcol_column_create(out_type, g, GCOL_MASK_UNALLOCATED, st, s->mr, &col));
      if (g > 0) {
        gather_keys_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(
            s->readers[r], (const int64_t *)rows->data, n, (uint64_t *)vkeys->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
        /* positions past the grouped rows carry group key >= 2g: never counted */
        nunique_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(
            (const uint64_t *)keys->data, (const uint64_t *)vkeys->data, n,
            gcol_detail_kind_of(values.type.id), (unsigned long long *)counts->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
        nunique_finish_kernel<<<grid_for(g), GB_BLOCK, 0, s->stream>>>(
            (const unsigned long long *)counts->data, (const int64_t *)s->group_all->data,
            (const int64_t *)valid->data, agg->include_nulls, g, (int64_t *)col->data->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
      break;
    }
    case GCOL_GROUPBY_NTH_ELEMENT: {
      const int64_t *sizes =
          (const int64_t *)(agg->include_nulls ? s->group_all->data : valid->data);
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(g + 1) * 8u, st, NULL, &map));
      if (g > 0) {
        nth_kernel<<<grid_for(g), GB_BLOCK, 0, s->stream>>>((const int64_t *)rows->data,
                                                            (const int64_t *)s->group_offset->data,
                                                            sizes, g, agg->n, (int64_t *)map->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
      GCOL_DETAIL_TRY(gather_column(values, (const int64_t *)map->data, g, true, st, s->mr, &col));
      break;
    }
    case GCOL_GROUPBY_COLLECT_LIST: {
      const int64_t *sizes =
          (const int64_t *)(agg->include_nulls ? s->group_all->data : valid->data);
      int64_t total = 0;
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(g + 1) * 8u, st, NULL, &loff));
      GCOL_DETAIL_TRY(gcol_detail_sizes_scan(sizes, (int64_t *)loff->data, g, &total, 1, st));
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(total > 0 ? total : 1) * 8u, st, NULL, &map));
      if (total > 0) {
        collect_map_kernel<<<grid_for(n), GB_BLOCK, 0, s->stream>>>(
            (const uint64_t *)keys->data, mode == 1 ? 0 : 1, (const int64_t *)rows->data,
            (const int64_t *)s->group_offset->data, sizes, (const int64_t *)loff->data, g, n,
            (int64_t *)map->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
      GCOL_DETAIL_TRY(
          gather_column(values, (const int64_t *)map->data, total, false, st, s->mr, &child));
      GCOL_DETAIL_TRY(gcol_detail_offsets_column((const int64_t *)loff->data, g + 1,
                                                 gcol_detail_offsets_type(total), st, s->mr,
                                                 &offsets));
      GCOL_DETAIL_TRY(gcol_column_make_list(g, offsets, child, NULL, 0, &col));
      offsets = NULL;
      child = NULL;
      break;
    }
    default:
      GCOL_DETAIL_FAIL(GCOL_ERROR_INTERNAL, "aggregation %d is not order-based", (int)agg->kind);
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(keys);
  gcol_buffer_free(rows);
  gcol_buffer_free(valid);
  gcol_buffer_free(vkeys);
  gcol_buffer_free(map);
  gcol_buffer_free(counts);
  gcol_buffer_free(loff);
  gcol_buffer_free(nulls);
  gcol_column_free(col);
  gcol_column_free(offsets);
  gcol_column_free(child);
  return status;
}

/* ------------------------------------------------------------------ outputs */

/* Sets each output's null count from the counters (or drops a mask without nulls). */
gcol_status settle_masks(gcol_column **cols, int32_t num, const unsigned long long *host) {
  gcol_status status = GCOL_OK;
  for (int32_t k = 0; k < num; ++k) {
    if (cols[k] == NULL || cols[k]->null_mask == NULL) continue;
    if (host[k] == 0) {
      GCOL_DETAIL_TRY(gcol_column_set_null_mask(cols[k], NULL, 0));
    } else {
      GCOL_DETAIL_TRY(gcol_column_set_null_count(cols[k], (int64_t)host[k]));
    }
  }
done:
  return status;
}

/* Direct path: the key table decoded from the ids. */
gcol_status direct_key_table(gb_state *s, gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_column *cols[GB_MAX_DIRECT_KEYS] = {NULL, NULL, NULL, NULL};
  gcol_buffer *counters = NULL;
  unsigned long long host[GB_MAX_DIRECT_KEYS] = {0, 0, 0, 0};
  int32_t const nk = s->keys.num_columns;
  key_out ko;
  memset(&ko, 0, sizeof ko);
  ko.num = nk;
  for (int32_t k = 0; k < nk; ++k) {
    gcol_data_type const type = s->keys.columns[k].type;
    GCOL_DETAIL_TRY(gcol_column_create(
        type, s->num_groups, s->src.dk.null_digit[k] ? GCOL_MASK_ALL_NULL : GCOL_MASK_UNALLOCATED,
        (gcol_stream)s->stream, s->mr, &cols[k]));
    ko.data[k] = cols[k]->data != NULL ? cols[k]->data->data : NULL;
    ko.mask[k] = cols[k]->null_mask != NULL ? (uint32_t *)cols[k]->null_mask->data : NULL;
    ko.width[k] = (int32_t)gcol_type_size(type.id);
  }
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof host, (gcol_stream)s->stream, NULL, &counters));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counters->data, 0, sizeof host, s->stream));
  if (s->num_groups > 0) {
    direct_keys_smem_kernel<<<grid_for(s->space), GB_BLOCK, 0, s->stream>>>(
        s->src.dk, ko, (const unsigned long long *)s->acc->data, (const int64_t *)s->dense->data,
        s->space, (unsigned long long *)counters->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(host, counters->data, sizeof host, cudaMemcpyDeviceToHost, s->stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s->stream));
  GCOL_DETAIL_TRY(settle_masks(cols, nk, host));
  GCOL_DETAIL_TRY(gcol_table_make(cols, nk, out));
  for (int32_t k = 0; k < nk; ++k) cols[k] = NULL;
done:
  for (int32_t k = 0; k < nk; ++k) gcol_column_free(cols[k]);
  gcol_buffer_free(counters);
  return status;
}

gcol_status gather_table(gcol_table_view source, const int64_t *map, int64_t n, gcol_stream stream,
                         gcol_mr *mr, gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_detail_gather_map m;
  GCOL_DETAIL_TRY(gcol_detail_gather_map_make(i64_view(map, n), source.num_rows, false, false, &m));
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_table(source, m, stream, mr, out));
done:
  return status;
}

/* Hash path with sort_keys: the permutation of the groups into key order. */
gcol_status sort_groups(gb_state *s, gcol_buffer **perm) {
  gcol_status status = GCOL_OK;
  gcol_buffer *cols = NULL, *temp = NULL;
  order_col *host = NULL;
  int32_t const nk = s->keys.num_columns;
  int64_t const g = s->num_groups;
  size_t bytes = 0;
  *perm = NULL;
  host = (order_col *)calloc((size_t)nk, sizeof *host);
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys", (int)nk);
  {
    /* the flat row descriptors (validity, strings, 16-byte data) come from the hash path */
    gcol_detail_row_column *rows = (gcol_detail_row_column *)calloc((size_t)nk, sizeof *rows);
    GCOL_DETAIL_CHECK(rows != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                      (int)nk);
    cudaError_t const e = cudaMemcpyAsync(rows, s->key_cols->data, (size_t)nk * sizeof *rows,
                                          cudaMemcpyDeviceToHost, s->stream);
    cudaError_t const e2 = e == cudaSuccess ? cudaStreamSynchronize(s->stream) : e;
    for (int32_t k = 0; k < nk; ++k) {
      gcol_column_view const c = s->keys.columns[k];
      host[k].row = rows[k];
      host[k].type = c.type.id == GCOL_STRING ? 1 : c.type.id == GCOL_DECIMAL128 ? 2 : 0;
      if (host[k].type == 0) host[k].reader = gcol_detail_reader_make(c);
    }
    free(rows);
    GCOL_DETAIL_CUDA_TRY(e2);
  }
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(host, (size_t)nk * sizeof *host, (gcol_stream)s->stream,
                                          NULL, &cols));
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(g > 0 ? g : 1) * 8u, (gcol_stream)s->stream, NULL, perm));
  if (g > 0) {
    rep_less const less = {(const order_col *)cols->data, nk, (const int64_t *)s->group_rep->data};
    iota_kernel<<<grid_for(g), GB_BLOCK, 0, s->stream>>>((int64_t *)(*perm)->data, g);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(
        cub::DeviceMergeSort::SortKeys(NULL, bytes, (int64_t *)(*perm)->data, g, less, s->stream));
    GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(bytes, (gcol_stream)s->stream, &temp));
    GCOL_DETAIL_CUDA_TRY(cub::DeviceMergeSort::SortKeys(temp->data, bytes, (int64_t *)(*perm)->data,
                                                        g, less, s->stream));
  }
done:
  free(host);
  gcol_buffer_free(cols);
  gcol_buffer_free(temp);
  if (status != GCOL_OK) {
    gcol_buffer_free(*perm);
    *perm = NULL;
  }
  return status;
}

/* ------------------------------------------------------------------ the call */

gcol_status groupby_run(gb_state *s, gcol_groupby_result *res, bool merge_m2) {
  gcol_status status = GCOL_OK;
  gcol_stream const st = (gcol_stream)s->stream;
  int32_t const nr = s->num_requests;
  int32_t num_out = res->num_columns;
  fin_desc *fins = NULL;
  int32_t *count_acc = NULL;
  unsigned long long *host_counts = NULL;
  gcol_buffer *perm = NULL, *keymap = NULL;
  bool taken = false;
  fins = (fin_desc *)calloc((size_t)(num_out > 0 ? num_out : 1), sizeof *fins);
  count_acc = (int32_t *)calloc((size_t)(nr > 0 ? nr : 1), sizeof *count_acc);
  host_counts =
      (unsigned long long *)calloc((size_t)(num_out > 0 ? num_out : 1), sizeof *host_counts);
  s->readers = (gcol_detail_reader *)calloc((size_t)(nr > 0 ? nr : 1), sizeof *s->readers);
  GCOL_DETAIL_CHECK(fins != NULL && count_acc != NULL && host_counts != NULL && s->readers != NULL,
                    GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d outputs", (int)num_out);
  /* step 1 */
  GCOL_DETAIL_TRY(try_direct(s, &taken));
  if (!taken && s->n > 0) GCOL_DETAIL_TRY(hash_groups(s));
  /* plan */
  s->plan.num_accs = 1;
  s->plan.accs[0].op = ACC_COUNT_ALL;
  s->plan.accs[0].request = -1;
  s->plan.accs[0].ref0 = s->plan.accs[0].ref1 = -1;
  s->plan.accs[0].aux = s->plan.accs[0].aux2 = -1;
  for (int32_t r = 0; r < nr; ++r) {
    int64_t nulls = 0;
    gcol_column_view const values = s->requests[r].values;
    s->readers[r] = gcol_detail_reader_make(values);
    if (values.null_mask != NULL) {
      GCOL_DETAIL_TRY(gcol_column_view_null_count(values, st, &nulls));
    }
    if (nulls == 0) s->readers[r].mask = NULL;
    count_acc[r] = nulls > 0 ? plan_acc(&s->plan, ACC_COUNT_VALID, r, -1, -1, -1) : 0;
  }
  if (merge_m2) {
    /* requests: 0 counts, 1 means, 2 m2 (see gcol_groupby_merge_m2) */
    int32_t const nn = plan_acc(&s->plan, ACC_MERGE_N, 1, -1, -1, 0);
    int32_t const ws = plan_acc(&s->plan, ACC_MERGE_WSUM, 1, -1, -1, 0);
    int32_t const m2 = plan_acc(&s->plan, ACC_MERGE_M2, 2, ws, nn, 0, 1);
    fin_desc f;
    memset(&f, 0, sizeof f);
    f.kind = FIN_COUNT;
    f.a0 = nn;
    f.a1 = nn;
    f.a2 = -1;
    f.plan.out_width = 8;
    fins[0] = f;
    f.kind = FIN_MERGE_MEAN;
    f.a0 = ws;
    fins[1] = f;
    f.kind = FIN_M2;
    f.a0 = ws; /* the weighted sum: its finiteness decides NaN as for M2 */
    f.a2 = m2;
    fins[2] = f;
  } else {
    int32_t o = 0;
    for (int32_t r = 0; r < nr; ++r) {
      for (int32_t a = 0; a < s->requests[r].num_aggs; ++a, ++o) {
        gcol_groupby_agg const *agg = &s->requests[r].aggs[a];
        gcol_data_type out_type;
        GCOL_DETAIL_TRY(gcol_groupby_output_type(s->requests[r].values.type, agg, &out_type));
        if (is_order_kind(agg->kind)) {
          fins[o].kind = -1;
          continue;
        }
        GCOL_DETAIL_TRY(plan_agg(s, r, agg, count_acc[r] != 0, &fins[o]));
        fins[o].plan = gcol_detail_reduce_plan_make(
            s->requests[r].values.type.id,
            agg->kind == GCOL_GROUPBY_M2 ? (int32_t)GCOL_REDUCE_VARIANCE : (int32_t)agg->kind,
            out_type.id, agg->ddof);
      }
    }
  }
  /* step 2 */
  GCOL_DETAIL_TRY(init_accs(s));
  if (s->n > 0 && s->space > 0) {
    GCOL_DETAIL_TRY(run_pass(s, false));
    GCOL_DETAIL_TRY(run_pass(s, true));
  }
  if (s->direct) GCOL_DETAIL_TRY(direct_dense(s));
  /* outputs of the atomic aggregations */
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(num_out > 0 ? num_out : 1) * 8u, st, NULL, &s->counters));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemsetAsync(s->counters->data, 0, (size_t)(num_out > 0 ? num_out : 1) * 8u, s->stream));
  {
    fin_launch F;
    memset(&F, 0, sizeof F);
    for (int32_t o = 0; o < num_out; ++o) {
      if (fins[o].kind < 0) continue;
      gcol_data_type type = gcol_data_type_make(GCOL_INT64);
      if (merge_m2) {
        type = gcol_data_type_make(o == 0 ? GCOL_INT64 : GCOL_FLOAT64);
      } else {
        int32_t rr = 0, aa = o;
        while (aa >= s->requests[rr].num_aggs) aa -= s->requests[rr++].num_aggs;
        GCOL_DETAIL_TRY(gcol_groupby_output_type(s->requests[rr].values.type,
                                                 &s->requests[rr].aggs[aa], &type));
      }
      bool const never_null = fins[o].kind == FIN_COUNT;
      GCOL_DETAIL_TRY(gcol_column_create(type, s->num_groups,
                                         never_null ? GCOL_MASK_UNALLOCATED : GCOL_MASK_ALL_NULL,
                                         st, s->mr, &res->columns[o]));
      fins[o].data = res->columns[o]->data != NULL ? res->columns[o]->data->data : NULL;
      fins[o].mask = never_null || res->columns[o]->null_mask == NULL
                         ? NULL
                         : (uint32_t *)res->columns[o]->null_mask->data;
      fins[o].plan.out_width = (int32_t)gcol_type_size(type.id);
      fins[o].counter = o;
      F.f[F.num++] = fins[o];
      bool last = true;
      for (int32_t k = o + 1; k < num_out; ++k) last = last && fins[k].kind < 0;
      if (F.num == GB_MAX_FIN || last) {
        if (s->num_groups > 0) {
          finish_smem_kernel<<<grid_for(s->space), GB_BLOCK, 0, s->stream>>>(
              F, (const unsigned long long *)s->acc->data, s->space,
              s->direct ? (const int64_t *)s->dense->data : NULL,
              (unsigned long long *)s->counters->data);
          GCOL_DETAIL_CUDA_CHECK_LAUNCH();
        }
        F.num = 0;
      }
    }
  }
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host_counts, s->counters->data,
                                       (size_t)(num_out > 0 ? num_out : 1) * 8u,
                                       cudaMemcpyDeviceToHost, s->stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s->stream));
  GCOL_DETAIL_TRY(settle_masks(res->columns, num_out, host_counts));
  /* step 3 */
  if (!merge_m2) {
    int32_t o = 0;
    for (int32_t r = 0; r < nr; ++r) {
      for (int32_t a = 0; a < s->requests[r].num_aggs; ++a, ++o) {
        if (fins[o].kind >= 0) continue;
        GCOL_DETAIL_TRY(order_agg(s, r, &s->requests[r].aggs[a], count_acc[r], &res->columns[o]));
      }
    }
  }
  /* keys */
  if (s->direct) {
    GCOL_DETAIL_TRY(direct_key_table(s, &res->keys));
  } else if (s->n == 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create(8u, st, NULL, &keymap));
    GCOL_DETAIL_TRY(gather_table(s->keys, (const int64_t *)keymap->data, 0, st, s->mr, &res->keys));
  } else if (!s->opt.sort_keys) {
    GCOL_DETAIL_TRY(gather_table(s->keys, (const int64_t *)s->group_rep->data, s->num_groups, st,
                                 s->mr, &res->keys));
  } else {
    int64_t const g = s->num_groups;
    GCOL_DETAIL_TRY(sort_groups(s, &perm));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(g > 0 ? g : 1) * 8u, st, NULL, &keymap));
    if (g > 0) {
      compose_kernel<<<grid_for(g), GB_BLOCK, 0, s->stream>>>((const int64_t *)perm->data,
                                                              (const int64_t *)s->group_rep->data,
                                                              g, (int64_t *)keymap->data);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
    GCOL_DETAIL_TRY(gather_table(s->keys, (const int64_t *)keymap->data, g, st, s->mr, &res->keys));
    for (int32_t o = 0; o < num_out; ++o) {
      gcol_column *sorted = NULL;
      GCOL_DETAIL_TRY(gather_column(gcol_column_get_view(res->columns[o]),
                                    (const int64_t *)perm->data, g, false, st, s->mr, &sorted));
      gcol_column_free(res->columns[o]);
      res->columns[o] = sorted;
    }
  }
done:
  free(fins);
  free(count_acc);
  free(host_counts);
  gcol_buffer_free(perm);
  gcol_buffer_free(keymap);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_groupby_aggregate(gcol_table_view keys,
                                              const gcol_groupby_request *requests,
                                              int32_t num_requests,
                                              const gcol_groupby_options *options,
                                              gcol_groupby_result **out, gcol_stream stream,
                                              gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_groupby_result *res = NULL;
  gb_state *s = NULL;
  int32_t num_out = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_groupby_aggregate");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_groupby_check_args(keys, requests, num_requests));
  for (int32_t r = 0; r < num_requests; ++r) {
    GCOL_DETAIL_CHECK(num_out <= INT32_MAX - requests[r].num_aggs, GCOL_ERROR_OVERFLOW,
                      "more than %d aggregations", (int)INT32_MAX);
    num_out += requests[r].num_aggs;
  }
  s = (gb_state *)calloc(1, sizeof *s);
  GCOL_DETAIL_CHECK(s != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the groupby state");
  GCOL_DETAIL_TRY(gcol_detail_groupby_result_alloc(num_out, &res));
  s->keys = keys;
  s->requests = requests;
  s->num_requests = num_requests;
  if (options != NULL) s->opt = *options;
  s->stream = (cudaStream_t)stream;
  s->mr = mr;
  s->n = keys.num_rows;
  GCOL_DETAIL_TRY(groupby_run(s, res, false));
  *out = res;
  res = NULL;
done:
  if (s != NULL) state_free(s);
  free(s);
  gcol_groupby_result_free(res);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_groupby_merge_m2(gcol_table_view keys, gcol_column_view count,
                                             gcol_column_view mean, gcol_column_view m2,
                                             const gcol_groupby_options *options,
                                             gcol_groupby_result **out, gcol_stream stream,
                                             gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_groupby_result *res = NULL;
  gb_state *s = NULL;
  gcol_groupby_request req[3];
  GCOL_DETAIL_NVTX_PUSH("gcol_groupby_merge_m2");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(count.type.id == GCOL_INT64, GCOL_ERROR_TYPE_MISMATCH, "count is %s, not INT64",
                    gcol_type_name(count.type.id));
  GCOL_DETAIL_CHECK(mean.type.id == GCOL_FLOAT64, GCOL_ERROR_TYPE_MISMATCH,
                    "mean is %s, not FLOAT64", gcol_type_name(mean.type.id));
  GCOL_DETAIL_CHECK(m2.type.id == GCOL_FLOAT64, GCOL_ERROR_TYPE_MISMATCH, "m2 is %s, not FLOAT64",
                    gcol_type_name(m2.type.id));
  memset(req, 0, sizeof req);
  req[0].values = count;
  req[1].values = mean;
  req[2].values = m2;
  GCOL_DETAIL_TRY(gcol_detail_groupby_check_args(keys, req, 3));
  s = (gb_state *)calloc(1, sizeof *s);
  GCOL_DETAIL_CHECK(s != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the groupby state");
  GCOL_DETAIL_TRY(gcol_detail_groupby_result_alloc(3, &res));
  s->keys = keys;
  s->requests = req;
  s->num_requests = 3;
  if (options != NULL) s->opt = *options;
  s->stream = (cudaStream_t)stream;
  s->mr = mr;
  s->n = keys.num_rows;
  GCOL_DETAIL_TRY(groupby_run(s, res, true));
  *out = res;
  res = NULL;
done:
  if (s != NULL) state_free(s);
  free(s);
  gcol_groupby_result_free(res);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
