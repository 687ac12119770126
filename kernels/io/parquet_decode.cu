/*
 * Parquet pages decoded on the GPU (the plans come from lib/io/parquet_read.c), all the
 * columns of a read together:
 *
 *   0. upload: every column's bytes and page tables in one device buffer; bytes borrowed from
 *      a page-locked source buffer are copied from where they are, the rest (decompressed
 *      pages, pageable sources, the tables) gathered once into one staging buffer (pinned
 *      from 1 MiB: below that, page-locking costs more than it saves). The layout and the
 *      copies are host code (lib/io/parquet_upload.c), replayed by the host tests.
 *   1. page pass, a block per page (dictionary pages likewise): definition levels, then the
 *      values' own stream; in a read with nested leaves, every column's pages in one launch
 *      and a leaf's repetition levels in a second block per page. RLE/bit-packed hybrid
 *      streams (levels, dictionary indices, RLE booleans): thread 0 reads only the run
 *      headers, a batch of them into shared memory (a bit-packed run is skipped by its byte
 *      count), then the block expands the batch's values in parallel (each value unpacked by
 *      its index); levels become a valid byte and a slot (index among the page's non-null
 *      values) by a block-wide exclusive sum. A nested leaf's repetition and definition
 *      levels are also written out, a byte per entry, for
 *      kernels/io/parquet_nested.cu (its "rows" are level entries). PLAIN byte
 *      arrays: the page is staged through shared memory in chunks, the block tabulates where
 *      a value starting at each position would end and squares that into jumps of 16 values,
 *      thread 0 finds a checkpoint every 16 values and a thread per checkpoint walks them, the
 *      block then writing the positions coalesced. DELTA encodings keep
 *      the serial decoders of lib/internal/parquet.h on thread 0. A page error is one word
 *      per column (the first failing page wins); one synchronization reads the errors and the
 *      pages' valid counts for every column. FIXED_LEN_BYTE_ARRAY values (PLAIN or dictionary
 *      entries, no lengths) only get their bounds checked: the row passes compute where each
 *      lies.
 *   2. row passes, a block per (page, tile of rows), so no row searches for its page:
 *      fixed-width values at the output width, or string sizes -> offsets (the shared
 *      exclusive sum; a second synchronization reads every string column's total) -> chars
 *      (a warp per 32 rows); the null mask packed from the valid bytes with warp ballots.
 *
 * The decoders stay in bounds for corrupt input as the host-tested ones do: a run's count is
 * what its bytes hold (gcol_detail_pq_rle_run), a byte array's length is checked against its
 * page's end; errors are the same codes at the same first failing value.
 */
#include <cuda_runtime.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "gcol/bitmask.h"
#include "gcol/device/block.cuh"
#include "gcol/io/staging.h"
#include "internal/parquet.h"
#include "internal/pq_walk.h"

namespace {

constexpr int kBlock = 256;  /* threads of the page and row passes */
constexpr int kItems = 8;    /* consecutive rows per thread in a levels tile */
constexpr int kStage = 4096; /* page bytes staged per step of a byte-array walk */
static_assert(kStage <= GCOL_DETAIL_PQ_NEXT_MAX_STAGE, "a stage position fits the tables");
constexpr int kWalk = kStage / 4; /* most values walked per step (a value takes >= 4 bytes) */
constexpr int kTile = 1024;       /* rows per block of a row pass */
constexpr int64_t kPinnedStaging = 1 << 20; /* staging bytes worth page-locking */

/* One column's device arrays for the passes. */
struct col_args {
  const uint8_t *bytes;
  const gcol_detail_pq_page *pages;
  const gcol_detail_pq_dict *dicts;
  int32_t num_pages;
  int32_t num_dicts;
  int32_t physical_type;
  int32_t type_length;
  gcol_type_id type_id; /* the column's: what a FIXED_LEN_BYTE_ARRAY value becomes */
  int32_t max_def;
  uint8_t *valid; /* NULL when max_def is 0: every row valid, slot = row in page */
  int32_t *slot;
  int32_t *index; /* dictionary indices, RLE booleans */
  int64_t *pos;   /* byte-array positions; DELTA values */
  int32_t *len;
  int64_t *dpos; /* dictionary byte arrays */
  int32_t *dlen;
  int64_t *num_valid; /* per page */
  unsigned long long *error;
  /* a nested leaf's levels written out (plan->levels_on_gpu), a byte per entry; else NULL */
  uint8_t *rep_out; /* NULL also when max_rep is 0 */
  uint8_t *def_out;
  int32_t max_rep;
};

/* error word: code << 32 | is_dict << 31 | index */
__device__ void record_error(unsigned long long *error, int code, bool is_dict, int64_t index) {
  unsigned long long const word = ((unsigned long long)code << 32) |
                                  (is_dict ? (1ull << 31) : 0ull) |
                                  ((unsigned long long)index & 0x7fffffffull);
  atomicCAS(error, 0ull, word);
}

/* A page's first error: the failing value (or row) and its code, the lowest value winning. */
constexpr int kCodeBits = 5;
static_assert(GCOL_DETAIL_PQ_E_REP_LENGTH < (1 << kCodeBits), "a page error code fits its bits");
__device__ void note_error(unsigned long long *first, int64_t at, int code) {
  atomicMin(first, ((unsigned long long)at << kCodeBits) | (unsigned long long)code);
}

/* ---- hybrid streams: run headers in batches, values expanded by the block ---- */

typedef gcol_detail_pq_runs runs_smem;

__device__ void runs_begin(runs_smem &s, int64_t at) {
  if (threadIdx.x == 0) gcol_detail_pq_runs_begin(&s, at);
}

/* Definition levels of a page into valid bytes and slots (every row written); returns the
 * valid count through *nvalid, errors through first_error. */
__device__ void levels_block(const col_args &a, const gcol_detail_pq_page &pg, runs_smem &s,
                             unsigned long long *first_error, int64_t *nvalid) {
  int const bw = gcol_detail_pq_bit_width((uint32_t)a.max_def);
  uint8_t *valid = a.valid + pg.first_row;
  int32_t *slot = a.slot + pg.first_row;
  int64_t carry = 0;
  int64_t row0 = 0;
  runs_begin(s, pg.def_begin);
  __syncthreads();
  while (row0 < pg.num_rows) {
    if (threadIdx.x == 0) gcol_detail_pq_runs_fill(&s, a.bytes, pg.def_end, bw, pg.num_rows);
    __syncthreads();
    int64_t end = s.first[s.n] < pg.num_rows ? s.first[s.n] : pg.num_rows;
    bool const has_values = end > row0;
    if (!has_values) { /* the stream ended: the rest are rows without a level */
      if (threadIdx.x == 0) note_error(first_error, row0, GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED);
      end = pg.num_rows;
    }
    for (int64_t t0 = row0; t0 < end; t0 += (int64_t)kBlock * kItems) {
      int64_t const mine = t0 + (int64_t)threadIdx.x * kItems;
      uint8_t v[kItems];
      int32_t count = 0;
      int32_t r = has_values && mine < end ? gcol_detail_pq_runs_find(&s, mine) : 0;
      for (int j = 0; j < kItems; ++j) {
        int64_t const i = mine + j;
        v[j] = 0;
        if (i >= end || !has_values) continue;
        while (r + 1 < s.n && s.first[r + 1] <= i) ++r;
        uint32_t const level = gcol_detail_pq_runs_value(&s, a.bytes, bw, r, i);
        if (level > (uint32_t)a.max_def) note_error(first_error, i, GCOL_DETAIL_PQ_E_LEVEL_RANGE);
        if (a.def_out != NULL) a.def_out[pg.first_row + i] = (uint8_t)level;
        v[j] = level == (uint32_t)a.max_def;
        count += v[j];
      }
      int32_t total = 0;
      int32_t k = (int32_t)carry + gcol_block_exclusive_sum_i32(count, &total);
      for (int j = 0; j < kItems; ++j) {
        int64_t const i = mine + j;
        if (i >= end) break;
        valid[i] = v[j];
        slot[i] = k;
        k += v[j];
      }
      carry += total;
    }
    row0 = end;
    __syncthreads(); /* the batch is read before thread 0 refills it */
  }
  *nvalid = carry;
}

/* `count` values of a hybrid stream into out[0, count): a value >= limit (when limit >= 0)
 * is error `over`, a stream ending first `cut` (dictionary indices against the dictionary's
 * size, a nested leaf's repetition levels against max_rep + 1). */
template <typename T>
__device__ void hybrid_block(const uint8_t *bytes, int64_t begin, int64_t end, int bw,
                             int64_t count, int64_t limit, int over, int cut, T *out, runs_smem &s,
                             unsigned long long *first_error) {
  int64_t i0 = 0;
  runs_begin(s, begin);
  __syncthreads();
  while (i0 < count) {
    if (threadIdx.x == 0) gcol_detail_pq_runs_fill(&s, bytes, end, bw, count);
    __syncthreads();
    int64_t const stop = s.first[s.n] < count ? s.first[s.n] : count;
    if (stop <= i0) {
      if (threadIdx.x == 0) note_error(first_error, i0, cut);
      break; /* uniform: every thread read the same stop */
    }
    for (int64_t i = i0 + threadIdx.x; i < stop; i += kBlock) {
      uint32_t const v =
          gcol_detail_pq_runs_value(&s, bytes, bw, gcol_detail_pq_runs_find(&s, i), i);
      if (limit >= 0 && (int64_t)v >= limit) note_error(first_error, i, over);
      out[i] = (T)v;
    }
    i0 = stop;
    __syncthreads();
  }
}

/* ---- PLAIN byte arrays: lengths walked in shared memory ---- */

/* The walk of a stage: a table of where the value at each position ends (`next`), squared
 * kHopLevels times into the position kHop values on, which thread 0 follows to a checkpoint
 * every kHop values; then a thread per checkpoint walks its kHop values with `next`, the last
 * one the rest of the stage (gcol_detail_pq_walk_step: the lengths it cannot take from the
 * table, and the failures). Thread 0 alone walking every value took ~5 ms per 1 MiB page of
 * pyarrow's strings (~24 bytes a value; an H200, session 18), and a page's blocks cannot share
 * the work. */
constexpr int kHopLevels = 4;
constexpr int kHop = 1 << kHopLevels;

struct walk_smem {
  uint8_t stage[kStage];
  uint16_t next[kStage + 1]; /* entry p: gcol_detail_pq_walk_next_entry; entry kStage NONE */
  uint16_t jump[2][kStage + 1];
  uint16_t check[kWalk / kHop + 1];
  uint32_t off[kWalk]; /* value start - begin */
  int32_t len[kWalk];
  int64_t at;
  int32_t m;
  int32_t num_checks;
  bool fail;
};

/* gcol_detail_pq_walk_byte_arrays by a block: pos/len of `count` values in [begin, end);
 * false (in every thread) when they do not fit. */
__device__ bool walk_block(const uint8_t *bytes, int64_t begin, int64_t end, int64_t count,
                           int64_t *pos, int32_t *len, walk_smem &s) {
  int64_t k = 0;
  if (threadIdx.x == 0) {
    s.at = begin;
    s.fail = false;
  }
  __syncthreads();
  while (k < count) {
    int64_t const base = s.at;
    int64_t const stop = end - base < kStage ? end : base + kStage;
    int const staged = (int)(stop - base);
    for (int b = threadIdx.x; b < staged; b += kBlock) s.stage[b] = bytes[base + b];
    __syncthreads();
    for (int p = threadIdx.x; p <= staged; p += kBlock) {
      s.next[p] = gcol_detail_pq_walk_next_entry(s.stage, staged, p);
    }
    __syncthreads();
    const uint16_t *from = s.next;
    for (int level = 0; level < kHopLevels; ++level) {
      uint16_t *to = s.jump[level % 2];
      for (int p = threadIdx.x; p <= staged; p += kBlock) {
        to[p] = gcol_detail_pq_walk_square(from, p);
      }
      __syncthreads();
      from = to;
    }
    int64_t const limit = count - k < kWalk ? count - k : kWalk;
    if (threadIdx.x == 0) {
      s.num_checks = gcol_detail_pq_walk_checkpoints(from, 0, limit, kHop, s.check);
    }
    __syncthreads();
    int32_t const checks = s.num_checks;
    if ((int32_t)threadIdx.x < checks) {
      int64_t const first = (int64_t)threadIdx.x * kHop;
      bool const last = (int32_t)threadIdx.x == checks - 1;
      int64_t const want = last ? limit - first : kHop;
      int64_t at = base + s.check[threadIdx.x];
      bool fail = false;
      int32_t const m =
          gcol_detail_pq_walk_step(s.stage, s.next, base, stop, end, begin, want, (int32_t)want,
                                   s.off + first, s.len + first, &at, &fail);
      if (last) {
        s.m = (int32_t)first + m;
        s.at = at;
        s.fail = fail;
      }
    }
    __syncthreads();
    int32_t const m = s.m;
    for (int32_t j = threadIdx.x; j < m; j += kBlock) {
      pos[k + j] = begin + s.off[j];
      len[k + j] = s.len[j];
    }
    k += m;
    bool const fail = s.fail;
    __syncthreads(); /* s is read before the next step writes it */
    if (fail) return false;
  }
  return true;
}

union page_smem {
  runs_smem runs;
  walk_smem walk;
};

/* Dictionary pages, a block each: byte-array positions, or a bounds check. */
__global__ void __launch_bounds__(kBlock) dict_smem_kernel(col_args a) {
  __shared__ walk_smem s;
  gcol_detail_pq_dict const d = a.dicts[blockIdx.x];
  bool ok;
  if (a.physical_type == GCOL_PARQUET_BYTE_ARRAY) {
    ok = walk_block(a.bytes, d.begin, d.end, d.num_values, a.dpos + d.first_entry,
                    a.dlen + d.first_entry, s);
  } else {
    ok = gcol_detail_pq_plain_fits(a.physical_type, a.type_length, d.begin, d.end, d.num_values);
  }
  if (!ok && threadIdx.x == 0) {
    record_error(a.error, GCOL_DETAIL_PQ_E_DICT_TRUNCATED, true, blockIdx.x);
  }
}

/* The values' stream of a page with nvalid non-null values (levels decoded). */
__device__ void values_block(const col_args &a, gcol_detail_pq_page pg, int64_t nvalid,
                             page_smem &s, unsigned long long *first_error) {
  int64_t const k0 = pg.first_row;
  if (pg.encoding == GCOL_DETAIL_PQ_VALUES_PLAIN && a.physical_type == GCOL_PARQUET_BYTE_ARRAY) {
    if (!walk_block(a.bytes, pg.values_begin, pg.values_end, nvalid, a.pos + k0, a.len + k0,
                    s.walk) &&
        threadIdx.x == 0) {
      note_error(first_error, 0, GCOL_DETAIL_PQ_E_VALUES_TRUNCATED);
    }
    return;
  }
  if (pg.encoding == GCOL_DETAIL_PQ_VALUES_DICT || pg.encoding == GCOL_DETAIL_PQ_VALUES_RLE_BOOL) {
    bool const dict = pg.encoding == GCOL_DETAIL_PQ_VALUES_DICT;
    if (dict && (pg.dict < 0 || nvalid == 0)) { /* the serial decoder's checks, in its order */
      if (pg.dict < 0 && threadIdx.x == 0) note_error(first_error, 0, GCOL_DETAIL_PQ_E_NO_DICT);
      return;
    }
    int64_t begin = pg.values_begin;
    int64_t end = pg.values_end;
    int bw = 1;
    if (dict) {
      if (end - begin < 1) {
        if (threadIdx.x == 0) note_error(first_error, 0, GCOL_DETAIL_PQ_E_VALUES_TRUNCATED);
        return;
      }
      bw = a.bytes[begin++];
      if (bw > 32) {
        if (threadIdx.x == 0) note_error(first_error, 0, GCOL_DETAIL_PQ_E_BIT_WIDTH);
        return;
      }
    } else {
      if (end - begin < 4) {
        if (threadIdx.x == 0) note_error(first_error, 0, GCOL_DETAIL_PQ_E_VALUES_TRUNCATED);
        return;
      }
      const uint8_t *q = a.bytes + begin;
      uint32_t const n =
          (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
      begin += 4;
      if ((uint64_t)n > (uint64_t)(end - begin)) {
        if (threadIdx.x == 0) note_error(first_error, 0, GCOL_DETAIL_PQ_E_VALUES_TRUNCATED);
        return;
      }
      end = begin + n;
    }
    int64_t const dict_size = dict ? a.dicts[pg.dict].num_values : -1;
    hybrid_block(a.bytes, begin, end, bw, nvalid, dict_size, GCOL_DETAIL_PQ_E_DICT_INDEX,
                 GCOL_DETAIL_PQ_E_VALUES_TRUNCATED, a.index + k0, s.runs, first_error);
    return;
  }
  if (threadIdx.x == 0) { /* PLAIN fixed width, BYTE_STREAM_SPLIT checks; DELTA serially */
    int const code = gcol_detail_pq_decode_values(
        a.bytes, pg, a.physical_type, a.type_length, nvalid, 0, NULL,
        a.pos == NULL ? NULL : a.pos + k0, a.len == NULL ? NULL : a.len + k0);
    if (code != GCOL_DETAIL_PQ_E_OK) note_error(first_error, 0, code);
  }
}

/* A page's repetition levels, written out (a nested leaf's block of its own). */
__device__ void repetition_block(const col_args &a, const gcol_detail_pq_page &pg, runs_smem &s,
                                 unsigned long long *first_error) {
  hybrid_block(a.bytes, pg.rep_begin, pg.rep_end, gcol_detail_pq_bit_width((uint32_t)a.max_rep),
               pg.num_rows, (int64_t)a.max_rep + 1, GCOL_DETAIL_PQ_E_REP_RANGE,
               GCOL_DETAIL_PQ_E_REP_TRUNCATED, a.rep_out + pg.first_row, s, first_error);
}

/* Block `block` of column a's page pass. Without kSplit, a block per page takes its
 * repetition levels (a nested leaf's), then its definition levels, then its values. With
 * kSplit, a nested leaf's repetition levels have a second block per page (blocks num_pages and
 * on): its two level streams are independent, and a block walks a stream's run headers
 * serially (the list leaf's page pass took ~2 ms per batch of pyarrow's nested file, an H200,
 * session 22). A page's error is the lowest failing entry of its block; with both of a page's
 * blocks failing, the first to record its error wins, as between pages. */
template <bool kSplit>
__device__ void page_block(const col_args &a, int32_t block, page_smem &s,
                           unsigned long long &first_error) {
  int32_t const page = kSplit ? block % a.num_pages : block;
  bool const repetition = kSplit && block >= a.num_pages;
  gcol_detail_pq_page const pg = a.pages[page];
  if (threadIdx.x == 0) first_error = ULLONG_MAX;
  __syncthreads();
  int64_t nvalid = pg.num_rows;
  if (repetition || (!kSplit && a.rep_out != NULL)) {
    repetition_block(a, pg, s.runs, &first_error);
    __syncthreads(); /* the runs are read before the definition levels refill them */
  }
  if (!repetition) {
    if (a.max_def > 0) levels_block(a, pg, s.runs, &first_error, &nvalid);
    __syncthreads();
    bool const levels_ok = first_error == ULLONG_MAX;
    __syncthreads(); /* every thread has read it before values_block may change it */
    if (levels_ok) values_block(a, pg, nvalid, s, &first_error);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    bool const ok = first_error == ULLONG_MAX;
    if (!repetition) a.num_valid[page] = ok ? nvalid : 0;
    if (!ok) record_error(a.error, (int)(first_error & ((1u << kCodeBits) - 1)), false, page);
  }
}

/* Blocks of column a's page pass when split. */
int64_t split_blocks(const col_args &a) {
  return (int64_t)a.num_pages * (a.rep_out != NULL ? 2 : 1);
}

/* One column's data pages, a block each. (Without the repetition levels' code, this kernel
 * took 64 registers instead of 48.) */
__global__ void __launch_bounds__(kBlock) pages_smem_kernel(col_args a) {
  __shared__ page_smem s;
  __shared__ unsigned long long first_error;
  page_block<false>(a, (int32_t)blockIdx.x, s, first_error);
}

/* The data pages of up to kMergedColumns columns of a nested read in one launch, so that its
 * leaves wait on their slowest page once rather than one after another (the two struct leaves
 * of pyarrow's nested file waited ~0.5 ms each behind the list leaf, an H200, session 22).
 * Column c has blocks [first_block[c], first_block[c + 1]). Flat reads keep a launch per
 * column: merged, their reads took 142-147 ms against 136.5 (SNAPPY) and 124-128 against 121
 * (ZSTD) in the same call, with the column's arguments read from shared memory and 62
 * registers (48 with a bound and spills) where a launch per column has them in constant memory
 * at 48. */
constexpr int kMergedColumns = 16;
struct merged_pages {
  col_args cols[kMergedColumns];
  int32_t first_block[kMergedColumns + 1];
  int32_t num_columns;
};
static_assert(sizeof(merged_pages) <= 4096, "the launch's arguments fit a kernel's parameters");

__global__ void __launch_bounds__(kBlock)
    merged_pages_smem_kernel(const __grid_constant__ merged_pages m) {
  __shared__ page_smem s;
  __shared__ unsigned long long first_error;
  __shared__ col_args a; /* the block's column: indexing m.cols took more registers */
  int c = 0;
  while (c + 1 < m.num_columns && (int32_t)blockIdx.x >= m.first_block[c + 1]) ++c;
  if (threadIdx.x == 0) a = m.cols[c];
  __syncthreads();
  page_block<true>(a, (int32_t)blockIdx.x - m.first_block[c], s, first_error);
}

/* ---- row passes: a block per (page, tile), tiles strided over gridDim.y ---- */

__global__ void fixed_kernel(col_args a, int out_width, uint8_t *out) {
  /* kTile rows per block step: each thread takes every kBlock-th */
  gcol_detail_pq_page const pg = a.pages[blockIdx.x];
  int64_t const nvalid = a.num_valid[blockIdx.x];
  for (int64_t t = (int64_t)blockIdx.y * kTile; t < pg.num_rows; t += (int64_t)gridDim.y * kTile) {
    for (int64_t local = t + threadIdx.x; local < t + kTile && local < pg.num_rows;
         local += kBlock) {
      int64_t const row = pg.first_row + local;
      uint64_t v = 0, hi = 0;
      if (a.valid == NULL || a.valid[row]) {
        int64_t const k = a.slot == NULL ? local : a.slot[row];
        if (a.physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY) { /* PLAIN or dict */
          bool const plain = pg.encoding == GCOL_DETAIL_PQ_VALUES_PLAIN;
          gcol_detail_pq_flba_fixed_value(a.bytes, plain ? pg.values_begin : a.dicts[pg.dict].begin,
                                          plain ? k : a.index[pg.first_row + k], a.type_length,
                                          a.type_id, &v, &hi);
        } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_PLAIN) {
          v = gcol_detail_pq_plain_value(a.bytes, pg.values_begin, k, a.physical_type);
        } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_RLE_BOOL) {
          v = (uint64_t)a.index[pg.first_row + k];
        } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_SPLIT) {
          v = gcol_detail_pq_split_value(a.bytes, pg.values_begin, k, nvalid, a.physical_type);
        } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_DELTA) {
          v = (uint64_t)a.pos[pg.first_row + k]; /* the output width keeps the low bytes */
        } else {
          v = gcol_detail_pq_plain_value(a.bytes, a.dicts[pg.dict].begin, a.index[pg.first_row + k],
                                         a.physical_type);
        }
      }
      uint8_t *dst = out + row * out_width;
      if (out_width == 8) {
        *(uint64_t *)dst = v; /* columns are allocated aligned to their width */
      } else if (out_width == 4) {
        *(uint32_t *)dst = (uint32_t)v;
      } else {
        for (int b = 0; b < out_width; ++b) dst[b] = (uint8_t)((b < 8 ? v : hi) >> (8 * (b % 8)));
      }
    }
  }
}

/* Byte range of a row's string (0 length for nulls). */
__device__ void string_of(const col_args &a, const gcol_detail_pq_page &pg, int64_t local,
                          int64_t *begin, int64_t *size) {
  int64_t const row = pg.first_row + local;
  *begin = 0;
  *size = 0;
  if (a.valid != NULL && !a.valid[row]) return;
  int64_t const k = pg.first_row + (a.slot == NULL ? local : a.slot[row]);
  if (a.physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY) { /* PLAIN or dict, no lengths */
    bool const plain = pg.encoding != GCOL_DETAIL_PQ_VALUES_DICT;
    *begin = gcol_detail_pq_flba_at(plain ? pg.values_begin : a.dicts[pg.dict].begin,
                                    plain ? k - pg.first_row : a.index[k], a.type_length);
    *size = a.type_length;
  } else if (pg.encoding != GCOL_DETAIL_PQ_VALUES_DICT) { /* PLAIN, DELTA_LENGTH_BYTE_ARRAY */
    *begin = a.pos[k];
    *size = a.len[k];
  } else {
    int64_t const e = a.dicts[pg.dict].first_entry + a.index[k];
    *begin = a.dpos[e];
    *size = a.dlen[e];
  }
}

__global__ void string_sizes_kernel(col_args a, int64_t *sizes) {
  gcol_detail_pq_page const pg = a.pages[blockIdx.x];
  for (int64_t local = (int64_t)blockIdx.y * kBlock + threadIdx.x; local < pg.num_rows;
       local += (int64_t)gridDim.y * kBlock) {
    int64_t begin, size;
    string_of(a, pg, local, &begin, &size);
    sizes[pg.first_row + local] = size;
  }
}

/* A warp per 32 rows: each lane finds one row's string and where it goes, then the warp copies
 * the rows one after another, a lane per byte (a longer string in rounds of 32), loading a
 * group of rows before storing them so that the loads are in flight together. A warp per row
 * took ~8 ms per 1 GiB batch of pyarrow's file (an H200, session 18's trace): each row waited
 * on its page, slot, position and offset loads in turn. */
constexpr int kCharsGroup = 8; /* rows loaded before they are stored */

__global__ void string_chars_kernel(col_args a, const int64_t *offsets, uint8_t *chars) {
  gcol_detail_pq_page const pg = a.pages[blockIdx.x];
  int const lane = threadIdx.x % 32;
  int64_t const stride = (int64_t)gridDim.y * kBlock;
  for (int64_t first = (int64_t)blockIdx.y * kBlock + threadIdx.x / 32 * 32; first < pg.num_rows;
       first += stride) {
    int64_t const local = first + lane;
    int64_t begin = 0, size = 0, dst = 0;
    if (local < pg.num_rows) {
      string_of(a, pg, local, &begin, &size);
      dst = offsets[pg.first_row + local];
    }
    for (int r0 = 0; r0 < 32; r0 += kCharsGroup) {
      uint8_t v[kCharsGroup];
      int64_t from[kCharsGroup], to[kCharsGroup];
      int32_t n[kCharsGroup];
#pragma unroll
      for (int r = 0; r < kCharsGroup; ++r) {
        from[r] = __shfl_sync(0xffffffffu, begin, r0 + r);
        to[r] = __shfl_sync(0xffffffffu, dst, r0 + r);
        n[r] = __shfl_sync(0xffffffffu, (int32_t)size, r0 + r); /* a string is < 2^31 bytes */
        v[r] = lane < n[r] ? a.bytes[from[r] + lane] : 0;
      }
#pragma unroll
      for (int r = 0; r < kCharsGroup; ++r) {
        if (lane < n[r]) chars[to[r] + lane] = v[r];
        for (int64_t b = lane + 32; b < n[r]; b += 32) chars[to[r] + b] = a.bytes[from[r] + b];
      }
    }
  }
}

/* 32 rows' valid bytes per word, by ballot. */
__global__ void pack_mask_kernel(const uint8_t *valid, int64_t n, uint32_t *mask) {
  int64_t const padded = gcol_bit_num_words(n) * (int64_t)32;
  for (int64_t row = gcol_detail_thread_index(); row < padded; row += gcol_detail_grid_stride()) {
    uint32_t const word = __ballot_sync(0xffffffffu, row < n && valid[row] != 0);
    if (threadIdx.x % 32 == 0) mask[row / 32] = word;
  }
}

/* ---- pages decompressed by nvCOMP ---- */

/* Which column and page a job is, for its error word. */
struct job_meta {
  int32_t column;
  int32_t where; /* bit 31: a dictionary page; the rest its index */
};

/* A thread per job: nvCOMP's status and the size it produced, against the page header's. */
__global__ void check_jobs_kernel(const int *statuses, const size_t *actual, const size_t *expected,
                                  const job_meta *meta, int64_t n, unsigned long long *errors) {
  int64_t const j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  int const code = statuses[j] != 0           ? GCOL_DETAIL_PQ_E_DECOMPRESS
                   : actual[j] != expected[j] ? GCOL_DETAIL_PQ_E_DECOMPRESS_SIZE
                                              : GCOL_DETAIL_PQ_E_OK;
  if (code == GCOL_DETAIL_PQ_E_OK) return;
  job_meta const m = meta[j];
  record_error(errors + m.column, code, m.where < 0, m.where & 0x7fffffff);
}

/* A page that did not walk, in its column's error word (read before nvCOMP runs at all). */
__device__ void record_walk(gcol_detail_pq_walk w, const job_meta *meta, int64_t j,
                            unsigned long long *errors) {
  if (w.code == GCOL_DETAIL_PQ_WALK_OK) return;
  job_meta const m = meta[j];
  int const code = gcol_detail_pq_walk_is_size(w.code) ? GCOL_DETAIL_PQ_E_REFUSED_SIZE
                                                       : GCOL_DETAIL_PQ_E_REFUSED;
  record_error(errors + m.column, code, m.where < 0, m.where & 0x7fffffff);
}

/* A warp per LZ4_RAW job, its first lane walking the compressed bytes (lib/internal/pq_walk.h)
 * before nvCOMP, whose kernels trust their input, may get them. A walk is serial and branchy:
 * with a thread per job, 32 pages shared a warp's divergent paths (session 16); a warp each,
 * every page walks on its own. */
__global__ void walk_lz4_kernel(const uint8_t *const *in, const size_t *in_sizes,
                                const size_t *out_sizes, const job_meta *meta, int64_t n,
                                unsigned long long *errors) {
  int64_t const j = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (j >= n || threadIdx.x % 32 != 0) return;
  record_walk(gcol_detail_pq_walk_lz4(in[j], (int64_t)in_sizes[j], (int64_t)out_sizes[j]), meta, j,
              errors);
}

/* SNAPPY: a block per job, walking it by windows (pq_walk.h, "the GPU's SNAPPY walk"): the
 * window's bytes and tables in shared memory, the tables squared kSnappyLevels times, thread 0
 * finding a checkpoint every 16 elements, a thread per checkpoint checking its elements. One
 * lane walking a page (~90 cycles per element, each waiting on the one before) took ~16 ms per
 * 1 MiB page of pyarrow's strings file (an H200, session 18), and the last batch's walk was
 * most of what is left of a read after its last copy. A table followed by one lane alone was
 * slower still (~20 ms): it kept one dependent load per element. */
constexpr int kSnappyWindow = 2048;
/* 256 threads: a window's tables take half the steps per thread. The last batch's walk of
 * pyarrow's SNAPPY file took 11.2 ms at 128 (its unsnap 7.4, an H200 trace, session 22); the
 * read went 139.3-140.3 -> 136.9-137.3 ms in the same call, where hops of 8 (kSnappyLevels 3)
 * gave no more (136.7-137.6). */
constexpr int kSnappyThreads = 256;
constexpr int kSnappyLevels = 4;
constexpr int kSnappyHop = 1 << kSnappyLevels;
constexpr int kSnappyChecks = kSnappyWindow / 2 / kSnappyHop + 1; /* an element takes >= 2 bytes */
static_assert(kSnappyChecks <= kSnappyThreads, "a thread per checkpoint");
static_assert(kSnappyWindow <= GCOL_DETAIL_PQ_SNAPPY_WINDOW_MAX, "positions and sums fit 16 bits");

struct snappy_smem {
  uint8_t bytes[kSnappyWindow];
  uint16_t next[kSnappyWindow + 1];
  uint16_t wrote[kSnappyWindow + 1];
  uint32_t need[kSnappyWindow + 1];
  uint16_t jump[2][kSnappyWindow + 1];
  uint16_t jump_wrote[2][kSnappyWindow + 1];
  uint16_t check[kSnappyChecks];
  int64_t check_op[kSnappyChecks];
  gcol_detail_pq_walk found[kSnappyChecks];
  bool has[kSnappyChecks];
  gcol_detail_pq_snappy_walker at; /* the next window's start */
  gcol_detail_pq_snappy_walker last;
  gcol_detail_pq_walk w;
  int32_t checks;
  bool done;
};

__global__ void __launch_bounds__(kSnappyThreads)
    walk_snappy_smem_kernel(const uint8_t *const *in, const size_t *in_sizes,
                            const size_t *out_sizes, const job_meta *meta,
                            unsigned long long *errors) {
  __shared__ snappy_smem sm;
  int64_t const j = blockIdx.x;
  const uint8_t *src = in[j];
  int64_t const size = (int64_t)in_sizes[j], out = (int64_t)out_sizes[j];
  int const t = threadIdx.x;
  if (t == 0) {
    sm.at.ip = 0;
    sm.at.op = 0;
    sm.w = gcol_detail_pq_snappy_prefix(src, size, out, &sm.at.ip);
    sm.done = sm.w.code != GCOL_DETAIL_PQ_WALK_OK;
  }
  __syncthreads();
  while (!sm.done) {
    int64_t const lo = sm.at.ip;
    int64_t const hi = size - lo < kSnappyWindow ? size : lo + kSnappyWindow;
    int const len = (int)(hi - lo);
    for (int b = t; b < len; b += kSnappyThreads) sm.bytes[b] = src[lo + b];
    __syncthreads();
    for (int p = t; p <= len; p += kSnappyThreads) {
      gcol_detail_pq_snappy_entry(sm.bytes, len, p, sm.next, sm.wrote, sm.need);
    }
    __syncthreads();
    const uint16_t *from = sm.next, *from_wrote = sm.wrote;
    for (int level = 0; level < kSnappyLevels; ++level) {
      for (int p = t; p <= len; p += kSnappyThreads) {
        gcol_detail_pq_snappy_square(from, from_wrote, p, sm.jump[level % 2],
                                     sm.jump_wrote[level % 2]);
      }
      __syncthreads();
      from = sm.jump[level % 2];
      from_wrote = sm.jump_wrote[level % 2];
    }
    if (t == 0) {
      sm.checks = gcol_detail_pq_snappy_checkpoints(from, from_wrote, sm.at.op, kSnappyChecks,
                                                    sm.check, sm.check_op);
    }
    __syncthreads();
    int32_t const checks = sm.checks;
    if (t < checks) {
      gcol_detail_pq_snappy_walker mine = {lo + sm.check[t], sm.check_op[t]};
      gcol_detail_pq_walk w;
      sm.has[t] =
          gcol_detail_pq_snappy_walk_from(src, size, out, lo, hi, sm.next, sm.wrote, sm.need,
                                          t < checks - 1 ? kSnappyHop : -1, &mine, &w);
      sm.found[t] = w;
      if (t == checks - 1) sm.last = mine;
    }
    __syncthreads();
    if (t == 0) { /* the first checkpoint in order with a finding gives the walk's */
      for (int32_t k = 0; k < checks && !sm.done; ++k) {
        if (!sm.has[k]) continue;
        sm.w = sm.found[k];
        sm.done = true;
      }
      if (!sm.done) sm.at = sm.last;
    }
    __syncthreads();
  }
  if (t == 0) record_walk(sm.w, meta, j, errors);
}

/* A thread per page of a column: the levels' length of v1 pages decompressed by nvCOMP. */
__global__ void place_levels_kernel(const uint8_t *bytes, gcol_detail_pq_page *pages, int32_t n,
                                    unsigned long long *error) {
  int32_t const p = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
  if (p >= n) return;
  gcol_detail_pq_page pg = pages[p];
  if (!pg.def_pending) return;
  int const code = gcol_detail_pq_place_levels(bytes, &pg);
  pages[p] = pg;
  if (code != GCOL_DETAIL_PQ_E_OK) record_error(error, code, false, p);
}

/* Row-pass grid: a block per page in x, tiles in y (strided past 1024). */
dim3 rows_grid(const gcol_detail_pq_column_plan *plan, int tile) {
  int64_t most = 0;
  for (int32_t p = 0; p < plan->num_pages; ++p) {
    if (plan->pages[p].num_rows > most) most = plan->pages[p].num_rows;
  }
  int64_t tiles = (most + tile - 1) / tile;
  if (tiles < 1) tiles = 1;
  if (tiles > 1024) tiles = 1024;
  return dim3((unsigned)plan->num_pages, (unsigned)tiles, 1);
}

/* A temporary of `count` entries of `elem` bytes (at least one byte). */
gcol_status temp(int64_t count, size_t elem, gcol_stream stream, gcol_buffer **out) {
  return gcol_buffer_create((size_t)(count > 0 ? count : 1) * elem, stream, NULL, out);
}

bool is_pinned(const void *p) {
  cudaPointerAttributes attr;
  if (p == NULL) return false;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError(); /* older runtimes fail on pageable pointers */
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

/* One column's decode state. */
struct col_state {
  col_args a;
  gcol_detail_pq_at at; /* in the device buffer */
  gcol_buffer *valid, *slot, *index, *pos, *len, *dpos, *dlen, *sizes;
  gcol_buffer *rep_out, *def_out; /* a nested leaf's levels, handed to the caller */
  int64_t total_chars;
};

void free_state(col_state *c) {
  gcol_buffer_free(c->valid);
  gcol_buffer_free(c->slot);
  gcol_buffer_free(c->index);
  gcol_buffer_free(c->pos);
  gcol_buffer_free(c->len);
  gcol_buffer_free(c->dpos);
  gcol_buffer_free(c->dlen);
  gcol_buffer_free(c->sizes);
  gcol_buffer_free(c->rep_out);
  gcol_buffer_free(c->def_out);
}

/* The device side of gcol_detail_pq_upload: copies in order on the read's stream. */
struct copy_target {
  uint8_t *device;
  cudaStream_t s;
};

int copy_to_device(void *user, int64_t dev, const void *src, int64_t size) {
  copy_target const *t = (const copy_target *)user;
  return (int)cudaMemcpyAsync(t->device + dev, src, (size_t)size, cudaMemcpyHostToDevice, t->s);
}

/* One column's page pass prepared: its temporaries and arguments, its dictionary pages'
 * kernel launched (launch_page_pass then takes its data pages with the others'). */
gcol_status prepare_pages(const gcol_detail_pq_column_plan *p, col_state *c, uint8_t *device,
                          int64_t *num_valid, unsigned long long *error, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t const n = p->num_rows;
  bool const is_string = p->type.id == GCOL_STRING;
  /* strings of FIXED_LEN_BYTE_ARRAY have no lengths to walk: string_of computes them */
  bool const byte_arrays = is_string && p->physical_type == GCOL_PARQUET_BYTE_ARRAY;
  bool needs_index = false;
  for (int32_t i = 0; i < p->num_pages; ++i) {
    needs_index |= p->pages[i].encoding == GCOL_DETAIL_PQ_VALUES_DICT ||
                   p->pages[i].encoding == GCOL_DETAIL_PQ_VALUES_RLE_BOOL;
  }
  col_args *a = &c->a;
  a->bytes = device + c->at.bytes;
  a->pages = (const gcol_detail_pq_page *)(device + c->at.pages);
  a->dicts = (const gcol_detail_pq_dict *)(device + c->at.dicts);
  a->num_pages = p->num_pages;
  a->num_dicts = p->num_dicts;
  a->physical_type = p->physical_type;
  a->type_length = p->type_length;
  a->type_id = p->type.id;
  a->max_def = p->max_def;
  a->num_valid = num_valid;
  a->error = error;
  if (p->max_def > 0) {
    GCOL_DETAIL_TRY(temp(n, 1, stream, &c->valid));
    GCOL_DETAIL_TRY(temp(n, sizeof(int32_t), stream, &c->slot));
    a->valid = (uint8_t *)c->valid->data;
    a->slot = (int32_t *)c->slot->data;
  }
  if (p->levels_on_gpu) {
    a->max_rep = p->max_rep;
    if (p->max_rep > 0) {
      GCOL_DETAIL_TRY(temp(n, 1, stream, &c->rep_out));
      a->rep_out = (uint8_t *)c->rep_out->data;
    }
    GCOL_DETAIL_TRY(temp(n, 1, stream, &c->def_out));
    a->def_out = (uint8_t *)c->def_out->data;
    if (p->max_def == 0) { /* a required leaf under required structs: no levels to decode */
      GCOL_DETAIL_CUDA_TRY(
          cudaMemsetAsync(a->def_out, 0, (size_t)(n > 0 ? n : 1), (cudaStream_t)stream));
    }
  }
  if (needs_index) {
    GCOL_DETAIL_TRY(temp(n, sizeof(int32_t), stream, &c->index));
    a->index = (int32_t *)c->index->data;
  }
  if (byte_arrays || p->has_delta) {
    GCOL_DETAIL_TRY(temp(n, sizeof(int64_t), stream, &c->pos));
    a->pos = (int64_t *)c->pos->data;
  }
  if (byte_arrays) {
    GCOL_DETAIL_TRY(temp(n, sizeof(int32_t), stream, &c->len));
    GCOL_DETAIL_TRY(temp(p->num_dict_entries, sizeof(int64_t), stream, &c->dpos));
    GCOL_DETAIL_TRY(temp(p->num_dict_entries, sizeof(int32_t), stream, &c->dlen));
    a->len = (int32_t *)c->len->data;
    a->dpos = (int64_t *)c->dpos->data;
    a->dlen = (int32_t *)c->dlen->data;
  }
  if (p->num_dicts > 0) {
    dict_smem_kernel<<<(unsigned)p->num_dicts, kBlock, 0, (cudaStream_t)stream>>>(*a);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

/* The data pages of cols[0, C) (prepared): a launch per column, or per kMergedColumns columns
 * when the read has a nested leaf (merged_pages). */
gcol_status launch_page_pass(const col_state *cols, int32_t C, cudaStream_t s) {
  gcol_status status = GCOL_OK;
  merged_pages m;
  bool nested = false;
  for (int32_t c = 0; c < C; ++c) nested |= cols[c].a.rep_out != NULL;
  for (int32_t c0 = 0; c0 < C && nested; c0 += kMergedColumns) {
    memset(&m, 0, sizeof m);
    int64_t blocks = 0;
    for (int32_t c = c0; c < C && c < c0 + kMergedColumns; ++c) {
      if (cols[c].a.num_pages == 0) continue;
      m.cols[m.num_columns] = cols[c].a;
      m.first_block[m.num_columns++] = (int32_t)blocks;
      blocks += split_blocks(cols[c].a);
    }
    m.first_block[m.num_columns] = (int32_t)blocks;
    GCOL_DETAIL_CHECK(blocks <= INT32_MAX, GCOL_ERROR_UNSUPPORTED,
                      "more than 2^31 - 1 blocks of pages in one launch");
    if (blocks == 0) continue;
    merged_pages_smem_kernel<<<(unsigned)blocks, kBlock, 0, s>>>(m);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  for (int32_t c = 0; c < C && !nested; ++c) {
    if (cols[c].a.num_pages == 0) continue;
    pages_smem_kernel<<<(unsigned)cols[c].a.num_pages, kBlock, 0, s>>>(cols[c].a);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

/* The row pass of a fixed-width column into a new column. */
gcol_status fixed_column(const gcol_detail_pq_column_plan *p, const col_state *c,
                         gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_column_create(p->type, p->num_rows, GCOL_MASK_UNALLOCATED, stream, mr, out));
  if (p->num_rows > 0 && p->num_pages > 0) {
    fixed_kernel<<<rows_grid(p, kTile), kBlock, 0, (cudaStream_t)stream>>>(
        c->a, (int)gcol_type_size(p->type.id), (uint8_t *)(*out)->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

/* String sizes, their exclusive sum, and its total copied to *total_at (device). */
gcol_status string_sizes(const gcol_detail_pq_column_plan *p, col_state *c, int64_t *total_at,
                         gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t const n = p->num_rows;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t *sizes = NULL;
  GCOL_DETAIL_TRY(temp(n + 1, sizeof(int64_t), stream, &c->sizes));
  sizes = (int64_t *)c->sizes->data;
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(sizes + n, 0, sizeof(int64_t), s));
  if (n > 0 && p->num_pages > 0) {
    string_sizes_kernel<<<rows_grid(p, kBlock), kBlock, 0, s>>>(c->a, sizes);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64(sizes, sizes, n + 1, stream));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(total_at, sizes + n, sizeof(int64_t), cudaMemcpyDeviceToDevice, s));
done:
  return status;
}

gcol_status string_column(const gcol_detail_pq_column_plan *p, col_state *c, gcol_stream stream,
                          gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *offsets = NULL;
  gcol_buffer *chars = NULL;
  int64_t const n = p->num_rows;
  int64_t const total = c->total_chars;
  const int64_t *sizes = (const int64_t *)c->sizes->data;
  GCOL_DETAIL_TRY(gcol_detail_offsets_column(sizes, n + 1, gcol_detail_offsets_type(total), stream,
                                             mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  if (n > 0 && total > 0 && p->num_pages > 0) {
    string_chars_kernel<<<rows_grid(p, kBlock), kBlock, 0, (cudaStream_t)stream>>>(
        c->a, sizes, (uint8_t *)chars->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, NULL, 0, out));
  offsets = NULL;
  chars = NULL;
done:
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  return status;
}

gcol_status set_mask(const gcol_detail_pq_column_plan *p, const col_state *c, int64_t valid_rows,
                     gcol_stream stream, gcol_mr *mr, gcol_column *col) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  int64_t const n = p->num_rows;
  GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_ALL_NULL, stream, mr, &mask));
  if (n > 0) {
    int64_t const threads = gcol_bit_num_words(n) * 32;
    pack_mask_kernel<<<gcol_detail_grid_size(threads, kBlock), kBlock, 0, (cudaStream_t)stream>>>(
        c->a.valid, n, (uint32_t *)mask->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, n - valid_rows));
  mask = NULL;
done:
  gcol_buffer_free(mask);
  return status;
}

int64_t nvcomp_pages; /* gcol_detail_parquet_nvcomp_pages (atomic builtins) */

/* The nvCOMP batch of a read: every job of every column, grouped by codec, as the arrays
 * nvCOMP takes (pointers into the device buffer), built on the host and uploaded with the
 * pages; `actual` and `statuses` are written by nvCOMP. */
struct job_table {
  int64_t n;
  int64_t at; /* in the device buffer: in, out, in_sizes, out_sizes, meta (uploaded), actual,
                 statuses */
  int64_t first[GCOL_DETAIL_NVCOMP_CODECS], count[GCOL_DETAIL_NVCOMP_CODECS];
  size_t largest[GCOL_DETAIL_NVCOMP_CODECS], total[GCOL_DETAIL_NVCOMP_CODECS];
  uint64_t *host; /* the uploaded part: 5 words per job */
};

int64_t job_table_bytes(int64_t n) { return n * (5 * 8 + 8 + 4); }

/* Fills t->host once the device buffer's address is known. */
gcol_status job_table_fill(const gcol_detail_pq_column_plan *plans, int32_t C,
                           const col_state *cols, uint8_t *device, job_table *t) {
  gcol_status status = GCOL_OK;
  int64_t const n = t->n;
  int64_t k = 0;
  t->host = (uint64_t *)malloc((size_t)(n > 0 ? n : 1) * 5 * sizeof(uint64_t));
  GCOL_DETAIL_CHECK(t->host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t codec = 0; codec < GCOL_DETAIL_NVCOMP_CODECS; ++codec) {
    t->first[codec] = k;
    t->largest[codec] = 0;
    t->total[codec] = 0;
    for (int32_t c = 0; c < C; ++c) {
      for (int32_t j = 0; j < plans[c].num_jobs; ++j) {
        gcol_detail_pq_job const job = plans[c].jobs[j];
        if (job.codec != codec) continue;
        uint8_t *const bytes = device + cols[c].at.bytes;
        t->host[k] = (uint64_t)(uintptr_t)(bytes + job.src);
        t->host[n + k] = (uint64_t)(uintptr_t)(bytes + job.dst);
        t->host[2 * n + k] = (uint64_t)job.src_size;
        t->host[3 * n + k] = (uint64_t)job.dst_size;
        job_meta const m = {c, job.where};
        memcpy(&t->host[4 * n + k], &m, sizeof m);
        if ((size_t)job.dst_size > t->largest[codec]) t->largest[codec] = (size_t)job.dst_size;
        t->total[codec] += (size_t)job.dst_size;
        ++k;
      }
    }
    t->count[codec] = k - t->first[codec];
  }
done:
  return status;
}

/* The LZ4_RAW and SNAPPY jobs walked on the GPU; *refused when one does not walk (its column's
 * error word says which page; nvCOMP then gets no job). One synchronization. */
gcol_status walk_jobs(int32_t C, const job_table *t, void **in, const size_t *in_sizes,
                      const size_t *out_sizes, const job_meta *meta, unsigned long long *errors,
                      cudaStream_t s, bool *refused) {
  gcol_status status = GCOL_OK;
  unsigned long long *words = NULL;
  bool any = false;
  *refused = false;
  int32_t const walked[] = {GCOL_PARQUET_LZ4_RAW, GCOL_PARQUET_SNAPPY};
  for (int32_t codec : walked) {
    if (t->count[codec] == 0) continue;
    int64_t const f = t->first[codec];
    const uint8_t *const *pages = (const uint8_t *const *)(in + f);
    if (codec == GCOL_PARQUET_SNAPPY) {
      walk_snappy_smem_kernel<<<(unsigned)t->count[codec], kSnappyThreads, 0, s>>>(
          pages, in_sizes + f, out_sizes + f, meta + f, errors);
    } else {
      walk_lz4_kernel<<<gcol_detail_grid_size(t->count[codec] * 32, kBlock), kBlock, 0, s>>>(
          pages, in_sizes + f, out_sizes + f, meta + f, t->count[codec], errors);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    any = true;
  }
  if (!any) return GCOL_OK;
  words = (unsigned long long *)malloc((size_t)(C > 0 ? C : 1) * sizeof *words);
  GCOL_DETAIL_CHECK(words != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(words, errors, (size_t)C * sizeof *words, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  for (int32_t c = 0; c < C; ++c) *refused = *refused || words[c] != 0;
done:
  free(words);
  return status;
}

/* nvCOMP's batched decompression of every job, one call per codec, then their statuses and
 * sizes checked on the device into the columns' error words (read by the first
 * synchronization, with the page errors), then the v1 pages' levels placed. LZ4_RAW and
 * SNAPPY jobs are walked first: with one refused, *refused is set and nothing else runs. */
gcol_status run_jobs(const gcol_detail_pq_column_plan *plans, int32_t C, const col_state *cols,
                     uint8_t *device, const job_table *t, unsigned long long *errors,
                     gcol_stream stream, gcol_buffer **temp, bool *refused) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  const gcol_detail_nvcomp *lib = gcol_detail_nvcomp_get();
  int64_t const n = t->n;
  void **in = (void **)(device + t->at);
  void **out = in + n;
  size_t *in_sizes = (size_t *)(out + n);
  size_t *out_sizes = in_sizes + n;
  job_meta *meta = (job_meta *)(out_sizes + n);
  size_t *actual = (size_t *)(meta + n);
  int *statuses = (int *)(actual + n);
  size_t temp_bytes = 0;
  GCOL_DETAIL_TRY(walk_jobs(C, t, in, in_sizes, out_sizes, meta, errors, s, refused));
  if (*refused) return GCOL_OK;
  for (int32_t codec = 0; codec < GCOL_DETAIL_NVCOMP_CODECS; ++codec) {
    if (t->count[codec] == 0) continue;
    size_t need = 0;
    int const r = gcol_detail_nvcomp_temp_size(lib, codec, (size_t)t->count[codec],
                                               t->largest[codec], t->total[codec], &need);
    GCOL_DETAIL_CHECK(r == 0, GCOL_ERROR_CUDA,
                      "nvCOMP (%s) could not size the temporary memory of %lld %s pages (status "
                      "%d)",
                      lib->file, (long long)t->count[codec], gcol_detail_pq_codec_name(codec), r);
    if (need > temp_bytes) temp_bytes = need;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create(temp_bytes > 0 ? temp_bytes : 1, stream, NULL, temp));
  /* nvCOMP 5.3's ZSTD kernel also reads words of its temporary memory before writing them
   * (initcheck, reading a file gcol wrote with ZSTD): zeroed like the page buffer */
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync((*temp)->data, 0, temp_bytes > 0 ? temp_bytes : 1, s));
  for (int32_t codec = 0; codec < GCOL_DETAIL_NVCOMP_CODECS; ++codec) {
    if (t->count[codec] == 0) continue;
    int64_t const f = t->first[codec];
    int const r = gcol_detail_nvcomp_decompress(lib, codec, (const void *const *)(in + f),
                                                in_sizes + f, out_sizes + f, actual + f,
                                                (size_t)t->count[codec], (*temp)->data, temp_bytes,
                                                (void *const *)(out + f), statuses + f, (void *)s);
    GCOL_DETAIL_CHECK(r == 0, GCOL_ERROR_CUDA,
                      "nvCOMP (%s) did not start decompressing %lld %s pages (status %d)",
                      lib->file, (long long)t->count[codec], gcol_detail_pq_codec_name(codec), r);
  }
  __atomic_fetch_add(&nvcomp_pages, n, __ATOMIC_RELAXED);
  check_jobs_kernel<<<gcol_detail_grid_size(n, kBlock), kBlock, 0, s>>>(statuses, actual, out_sizes,
                                                                        meta, n, errors);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  for (int32_t c = 0; c < C; ++c) {
    const gcol_detail_pq_column_plan *p = &plans[c];
    bool pending = false;
    for (int32_t i = 0; i < p->num_pages && !pending; ++i) pending = p->pages[i].def_pending != 0;
    if (!pending) continue;
    place_levels_kernel<<<gcol_detail_grid_size(p->num_pages, kBlock), kBlock, 0, s>>>(
        device + cols[c].at.bytes, (gcol_detail_pq_page *)(device + cols[c].at.pages), p->num_pages,
        errors + c);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

/* gcol_detail_parquet_decode_columns_ordered and _levels: levels NULL or as _levels gives. */
gcol_status decode_all(const gcol_detail_pq_column_plan *plans, int32_t num_plans,
                       const void *borrowed, const char *file_name, gcol_stream stream, gcol_mr *mr,
                       gcol_column **out, const gcol_detail_pq_upload_order *order,
                       gcol_buffer **levels) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  int32_t const C = num_plans;
  col_state *cols = (col_state *)calloc((size_t)(C > 0 ? C : 1), sizeof *cols);
  gcol_buffer *d_all = NULL, *d_small = NULL, *d_temp = NULL;
  gcol_detail_pq_at *at = NULL;
  job_table jobs;
  memset(&jobs, 0, sizeof jobs);
  uint8_t *staging = NULL;
  bool staging_pinned = false;
  int64_t staging_size = 0;
  gcol_mr *const staging_mr = gcol_io_get_staging_mr();
  int64_t *h_small = NULL;
  bool copies_pending = false;
  int64_t total = 0, pages_total = 0, small = 0;
  for (int32_t c = 0; c < C; ++c) out[c] = NULL;
  for (int32_t c = 0; levels != NULL && c < 2 * C; ++c) levels[c] = NULL;
  bool const pinned = is_pinned(borrowed);
  GCOL_DETAIL_CHECK(cols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  /* layout: every column's bytes, then its page and dictionary tables, then the jobs */
  for (int32_t c = 0; c < C; ++c) {
    pages_total += plans[c].num_pages;
    jobs.n += plans[c].num_jobs;
  }
  at = (gcol_detail_pq_at *)malloc((size_t)(C > 0 ? C : 1) * sizeof *at);
  GCOL_DETAIL_CHECK(at != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  total = gcol_detail_pq_layout(plans, C, job_table_bytes(jobs.n), at, &jobs.at);
  for (int32_t c = 0; c < C; ++c) cols[c].at = at[c];
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(total > 0 ? total : 1), stream, NULL, &d_all));
  if (jobs.n > 0) {
    /* nvCOMP's kernels read words of this buffer that nothing wrote (initcheck, nvCOMP 5.3:
     * around its pages or its outputs; ZSTD's first, and with the buffer zeroed for ZSTD only
     * the other codecs' too, session 18); zeroed first (one memset at device bandwidth, ~1.3
     * ms per 1 GiB batch on an H200) so that no byte read is undefined */
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_all->data, 0, (size_t)(total > 0 ? total : 1), s));
  }
  GCOL_DETAIL_TRY(job_table_fill(plans, C, cols, (uint8_t *)d_all->data, &jobs));
  {
    int64_t const jobs_size = jobs.n * 5 * 8;
    int64_t const staged = gcol_detail_pq_staged_bytes(plans, C, pinned, jobs_size);
    /* page-locking costs more than it saves below a few pages (the page tables of a pinned
     * source): a small staging buffer stays pageable */
    if (staged >= kPinnedStaging && staging_mr != NULL && staging_mr->kind == GCOL_MEMORY_PINNED) {
      /* from the staging resource, kept between reads: page-locking anew took ~0.6 ms per
       * MiB (cudaHostAlloc, an H200's host, session 25) */
      void *p = NULL;
      staging_pinned = gcol_mr_allocate(staging_mr, &p, (size_t)staged, stream) == GCOL_OK;
      if (staging_pinned) {
        staging = (uint8_t *)p;
        staging_size = staged;
      } else { /* no pinned memory that large: pageable staging, slower, works */
        gcol_clear_last_error();
      }
    }
    if (staged > 0 && !staging_pinned) {
      staging = (uint8_t *)malloc((size_t)staged);
      GCOL_DETAIL_CHECK(staging != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    copies_pending = true;
    copy_target target = {(uint8_t *)d_all->data, s};
    if (order != NULL && order->after != NULL) {
      GCOL_DETAIL_CUDA_TRY(cudaStreamWaitEvent(s, (cudaEvent_t)order->after, 0));
    }
    GCOL_DETAIL_CUDA_TRY((cudaError_t)gcol_detail_pq_upload(
        plans, C, pinned, at, jobs.host, jobs_size, jobs.at, staging, copy_to_device, &target));
    if (order != NULL) {
      GCOL_DETAIL_CUDA_TRY(cudaEventRecord((cudaEvent_t)order->done, s));
      __atomic_store_n(order->issued, 1, __ATOMIC_RELEASE);
    }
  }
  /* one small device array: C error words, then every page's valid count, then C totals */
  small = C + pages_total + C;
  GCOL_DETAIL_TRY(temp(small, sizeof(int64_t), stream, &d_small));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(d_small->data, 0, (size_t)(small > 0 ? small : 1) * 8, s));
  h_small = (int64_t *)malloc((size_t)(small > 0 ? small : 1) * sizeof *h_small);
  GCOL_DETAIL_CHECK(h_small != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  {
    int64_t *dsm = (int64_t *)d_small->data;
    int64_t page_at = C;
    bool refused = false; /* a page nvCOMP must not get: its column's error word says which */
    if (jobs.n > 0) {
      GCOL_DETAIL_TRY(run_jobs(plans, C, cols, (uint8_t *)d_all->data, &jobs,
                               (unsigned long long *)dsm, stream, &d_temp, &refused));
    }
    for (int32_t c = 0; c < C && !refused; ++c) {
      GCOL_DETAIL_TRY(prepare_pages(&plans[c], &cols[c], (uint8_t *)d_all->data, dsm + page_at,
                                    (unsigned long long *)(dsm + c), stream));
      page_at += plans[c].num_pages;
    }
    if (!refused) GCOL_DETAIL_TRY(launch_page_pass(cols, C, s));
    /* the page errors and valid counts of every column, before any row pass trusts them */
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(h_small, dsm, (size_t)(C + pages_total) * 8, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    copies_pending = false;
    for (int32_t c = 0; c < C; ++c) {
      unsigned long long const word = (unsigned long long)h_small[c];
      if (word == 0) continue;
      const gcol_detail_pq_column_plan *p = &plans[c];
      int const code = (int)(word >> 32);
      bool const is_dict = (word >> 31) & 1;
      int32_t const index = (int32_t)(word & 0x7fffffff);
      const gcol_detail_pq_where w = is_dict ? p->dict_where[index] : p->page_where[index];
      GCOL_DETAIL_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "%s: row group %d, column '%s', page %d: %s",
                       file_name, w.row_group, p->name, w.page,
                       gcol_detail_parquet_page_error(code));
    }
    /* fixed-width columns now; string columns' sizes, then one read of their totals */
    bool any_string = false;
    for (int32_t c = 0; c < C; ++c) {
      if (plans[c].type.id == GCOL_STRING) {
        GCOL_DETAIL_TRY(string_sizes(&plans[c], &cols[c], dsm + C + pages_total + c, stream));
        any_string = true;
      } else {
        GCOL_DETAIL_TRY(fixed_column(&plans[c], &cols[c], stream, mr, &out[c]));
      }
    }
    if (any_string) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(h_small + C + pages_total, dsm + C + pages_total,
                                           (size_t)C * 8, cudaMemcpyDeviceToHost, s));
      GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    }
    page_at = C;
    for (int32_t c = 0; c < C; ++c) {
      const gcol_detail_pq_column_plan *p = &plans[c];
      if (p->type.id == GCOL_STRING) {
        cols[c].total_chars = h_small[C + pages_total + c];
        GCOL_DETAIL_TRY(string_column(p, &cols[c], stream, mr, &out[c]));
      }
      if (p->max_def > 0) {
        int64_t valid_rows = 0;
        for (int32_t i = 0; i < p->num_pages; ++i) valid_rows += h_small[page_at + i];
        GCOL_DETAIL_TRY(set_mask(p, &cols[c], valid_rows, stream, mr, out[c]));
      }
      page_at += p->num_pages;
    }
    for (int32_t c = 0; levels != NULL && c < C; ++c) {
      levels[2 * c] = cols[c].rep_out;
      levels[2 * c + 1] = cols[c].def_out;
      cols[c].rep_out = cols[c].def_out = NULL;
    }
  }
done:
  if (copies_pending) (void)cudaStreamSynchronize(s); /* the staging buffer is still read */
  if (staging_pinned) {
    gcol_mr_deallocate(staging_mr, staging, (size_t)staging_size, stream);
  } else {
    free(staging);
  }
  if (status != GCOL_OK) {
    for (int32_t c = 0; c < C; ++c) {
      gcol_column_free(out[c]);
      out[c] = NULL;
    }
  }
  if (cols != NULL) {
    for (int32_t c = 0; c < C; ++c) free_state(&cols[c]);
  }
  free(cols);
  free(at);
  free(h_small);
  gcol_buffer_free(d_all);
  gcol_buffer_free(d_small);
  gcol_buffer_free(d_temp);
  free(jobs.host);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_detail_parquet_decode_columns_ordered(
    const gcol_detail_pq_column_plan *plans, int32_t num_plans, const void *borrowed,
    const char *file_name, gcol_stream stream, gcol_mr *mr, gcol_column **out,
    const gcol_detail_pq_upload_order *order, gcol_buffer **levels) {
  return decode_all(plans, num_plans, borrowed, file_name, stream, mr, out, order, levels);
}

extern "C" gcol_status gcol_detail_parquet_decode_columns_levels(
    const gcol_detail_pq_column_plan *plans, int32_t num_plans, const void *borrowed,
    const char *file_name, gcol_stream stream, gcol_mr *mr, gcol_column **out,
    gcol_buffer **levels) {
  return decode_all(plans, num_plans, borrowed, file_name, stream, mr, out, NULL, levels);
}

extern "C" gcol_status gcol_detail_parquet_decode_columns(const gcol_detail_pq_column_plan *plans,
                                                          int32_t num_plans, const void *borrowed,
                                                          const char *file_name, gcol_stream stream,
                                                          gcol_mr *mr, gcol_column **out) {
  return decode_all(plans, num_plans, borrowed, file_name, stream, mr, out, NULL, NULL);
}

extern "C" int64_t gcol_detail_parquet_nvcomp_pages(void) {
  return __atomic_load_n(&nvcomp_pages, __ATOMIC_RELAXED);
}

extern "C" gcol_status gcol_detail_parquet_decode_column(const gcol_detail_pq_column_plan *plan,
                                                         const char *file_name, gcol_stream stream,
                                                         gcol_mr *mr, gcol_column **out) {
  return gcol_detail_parquet_decode_columns(plan, 1, NULL, file_name, stream, mr, out);
}
