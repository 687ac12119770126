/*
 * Literal search (strings/find.h): one kernel, a thread per string, running the per-string
 * functions of search_ops.h; the operation is a uniform switch. `contains` of one target
 * scans the chars instead, a block per tile of rows, 16 aligned bytes per thread and step
 * (coalesced for any row length; a match finds its row among the tile's staged offsets). `contains`
 * of a target per row, `find` and `rfind` (a scalar target or one per row) give each string a warp
 * instead when the rows average 64 bytes or more (libcudf switches near the same length): the lanes
 * take 32 consecutive start positions at a time; contains stops at the first window with a hit,
 * find/rfind also ballot the character boundaries of the window to count characters
 * (search_ops.h: a boundary is decided from at most 3 bytes back). count_matches (its
 * non-overlapping rule is sequential) and starts/ends_with (one comparison) stay a thread
 * per string. The comparison is a plain loop (faster than Boyer-Moore or KMP for these
 * lengths in libcudf's trials).
 */
#include <algorithm>

#include "common.cuh"
#include "gcol/string_view.h"
#include "gcol/strings/find.h"
#include "strings/search_ops.h"
#include "strings/strings_common.h"

typedef enum search_op {
  SEARCH_FIND = 0,
  SEARCH_RFIND,
  SEARCH_CONTAINS,
  SEARCH_STARTS_WITH,
  SEARCH_ENDS_WITH,
  SEARCH_COUNT
} search_op;

/* The target of row i: the scalar's bytes, or row i of a targets column. */
typedef struct search_target {
  const char *data; /* scalar bytes (device) */
  int64_t size;
  gcol_strings_view column; /* per-row targets when per_row */
  bool per_row;
} search_target;

static __host__ __device__ bool op_is_int32(search_op op) {
  return op == SEARCH_FIND || op == SEARCH_RFIND || op == SEARCH_COUNT;
}

/* Null rows (input or target) get 0. */
static __global__ void gcol_detail_search_kernel(gcol_strings_view s, search_target target, int op,
                                                 int64_t start, int64_t stop, void *out) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    bool valid = gcol_strings_view_is_valid(s, i);
    gcol_string_ref t = gcol_string_ref_make(target.data, target.size);
    if (target.per_row) {
      valid = valid && gcol_strings_view_is_valid(target.column, i);
      if (valid) t = gcol_strings_view_get(target.column, i);
    }
    int64_t value = 0;
    if (valid) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      switch (op) {
        case SEARCH_FIND:
        case SEARCH_RFIND:
          value = gcol_detail_string_find(r.data, r.size, t.data, t.size, start, stop,
                                          op == SEARCH_RFIND);
          break;
        case SEARCH_CONTAINS:
          value = gcol_detail_string_contains(r.data, r.size, t.data, t.size);
          break;
        case SEARCH_STARTS_WITH:
          value = gcol_detail_string_starts_with(r.data, r.size, t.data, t.size);
          break;
        case SEARCH_ENDS_WITH:
          value = gcol_detail_string_ends_with(r.data, r.size, t.data, t.size);
          break;
        default:
          value = gcol_detail_string_count(r.data, r.size, t.data, t.size);
          break;
      }
    }
    if (op_is_int32((search_op)op)) {
      ((int32_t *)out)[i] = (int32_t)value;
    } else {
      ((uint8_t *)out)[i] = (uint8_t)value;
    }
  }
}

/* contains, a warp per string: the lanes try 32 consecutive start positions at a time and
 * the warp stops at the first window with a hit. Null rows (input or target) get 0. */
static __global__ void gcol_detail_contains_warp_kernel(gcol_strings_view s, search_target target,
                                                        uint8_t *out) {
  unsigned const lane = threadIdx.x & 31u;
  int64_t const warps = gcol_detail_grid_stride() >> 5;
  for (int64_t i = gcol_detail_thread_index() >> 5; i < s.size; i += warps) {
    bool valid = gcol_strings_view_is_valid(s, i);
    gcol_string_ref t = gcol_string_ref_make(target.data, target.size);
    if (target.per_row) {
      valid = valid && gcol_strings_view_is_valid(target.column, i);
      if (valid) t = gcol_strings_view_get(target.column, i);
    }
    bool found = valid && t.size == 0;
    if (valid && t.size > 0) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      char const first = t.data[0];
      for (int64_t base = 0; base + t.size <= r.size && !found; base += 32) {
        int64_t const p = base + lane;
        bool const hit = p + t.size <= r.size && r.data[p] == first &&
                         gcol_detail_bytes_at(r.data, p + 1, t.data + 1, t.size - 1);
        found = __any_sync(0xFFFFFFFFu, hit) != 0;
      }
    }
    if (lane == 0) out[i] = (uint8_t)found;
  }
}

/* contains of one target, over the chars instead of the rows. A block takes a tile of rows
 * (their offsets staged in shared memory) and scans the tile's chars, which are contiguous,
 * 16 aligned bytes per thread and step (one vector load inside the range, byte loads at its
 * two ends), so that enough bytes are in flight whatever the rows' lengths (a byte per thread
 * left the scan latency-bound at about 400 GB/s). A position holding the target's first two
 * bytes is a candidate: listed in shared memory during the scan, then compared in full by a
 * thread each, and a match marks its row (a binary search in the staged offsets: one in
 * global memory cost each match some 24 dependent loads) if it ends inside that row and the
 * row is valid. The tile zeroes its rows' outputs first; a row with several matches is
 * written 1 several times. A byte search, like the per-row one (for valid UTF-8 a byte match
 * is a character match). */
struct contains_tile {
  const int64_t *offsets; /* rows + 1 offsets of the tile, in shared memory */
  int rows;
  int64_t first_row;
};

__device__ __forceinline__ void contains_mark(gcol_strings_view s, contains_tile t, const char *p,
                                              const char *hi, const char *target,
                                              int64_t target_size, uint8_t *out) {
  if (p + target_size > hi || !gcol_detail_bytes_at(p, 1, target + 1, target_size - 1)) return;
  int64_t const at = p - s.chars;
  gcol_offsetalator const staged = {t.offsets, 8};
  int64_t const lo = gcol_detail_row_of_byte(staged, t.rows, at);
  if (at + target_size <= t.offsets[lo + 1] && gcol_strings_view_is_valid(s, t.first_row + lo)) {
    out[t.first_row + lo] = 1;
  }
}

/* The 16 bytes at `at` (16-byte aligned) as four words; bytes outside [lo, hi) read as
 * `outside`. */
__device__ __forceinline__ void load16(const char *at, const char *lo, const char *hi,
                                       uint32_t outside, uint32_t w[4]) {
  if (at >= lo && at + 16 <= hi) {
    uint4 const v = *(const uint4 *)at;
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    return;
  }
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    uint32_t const b = at + k >= lo && at + k < hi ? (unsigned char)at[k] : outside;
    if (k % 4 == 0) w[k / 4] = 0;
    w[k / 4] |= b << (8 * (k % 4));
  }
}

/* hits[q]: bit 7 of each byte of w[q] that equals the target's first byte and is followed by
 * its second (or is the piece's last byte: left to the full compare). Six integer operations
 * a word (the byte-wise zero test (v & 0x7f..) + 0x7f.. of "Bit Twiddling Hacks", exact: no
 * false positives) in place of two __vcmpeq4, which sm_90 emulates with several each (on an
 * H100 contains_short went 0.350 -> 0.326 ms by this alone). */
__device__ __forceinline__ void contains_candidates(const uint32_t w[4], uint32_t firsts,
                                                    uint32_t seconds, uint32_t second_mask,
                                                    uint32_t hits[4]) {
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    /* the next byte of each: the bytes 1..4 of w[q]:w[q + 1] (a funnel shift) */
    uint32_t const next = q < 3 ? __funnelshift_r(w[q], w[q < 3 ? q + 1 : q], 8) : w[q] >> 8;
    uint32_t const mask = q < 3 ? second_mask : second_mask & 0x00ffffffu;
    uint32_t const v = (w[q] ^ firsts) | ((next ^ seconds) & mask); /* 0 where both match */
    hits[q] = ~(((v & 0x7f7f7f7fu) + 0x7f7f7f7fu) | v) & 0x80808080u;
  }
}

/* Candidates a tile's scan collects in shared memory, then judges a thread each: judged where
 * they are found, each took its warp through the full compare and the row lookup with the
 * other lanes idle, which made most of the kernel's instructions (a 2-byte target in random
 * text: about 64 candidates per 2048-row tile). Past the list's end they are judged there. */
#define CONTAINS_CANDIDATES 1024

static __global__ void gcol_detail_contains_chars_smem_kernel(gcol_strings_view s,
                                                              const char *target,
                                                              int64_t target_size,
                                                              int64_t rows_per_tile, uint8_t *out) {
  extern __shared__ int64_t staged_offsets[]; /* rows_per_tile + 1, then the candidates */
  __shared__ int num_candidates;
  uint32_t *const candidates = (uint32_t *)(staged_offsets + rows_per_tile + 1);
  unsigned char const first = (unsigned char)target[0];
  uint32_t const firsts = first * 0x01010101u;
  /* a candidate needs the target's first two bytes: the second is tested in registers (the
   * next byte of the piece; past its end, left to the full compare) */
  uint32_t const seconds = target_size > 1 ? (unsigned char)target[1] * 0x01010101u : 0u;
  uint32_t const second_mask = target_size > 1 ? 0xffffffffu : 0u;
  int64_t const tiles = (s.size + rows_per_tile - 1) / rows_per_tile;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    contains_tile t;
    t.first_row = tile * rows_per_tile;
    t.rows = (int)(s.size - t.first_row < rows_per_tile ? s.size - t.first_row : rows_per_tile);
    t.offsets = staged_offsets;
    __syncthreads(); /* the previous tile is done with the staged offsets and candidates */
    if (threadIdx.x == 0) num_candidates = 0;
    for (int i = (int)threadIdx.x; i <= t.rows; i += (int)blockDim.x) {
      staged_offsets[i] = gcol_offsetalator_get(s.offsets, t.first_row + i);
      if (i < t.rows) out[t.first_row + i] = 0; /* the tile's rows: before any mark (barrier) */
    }
    __syncthreads();
    const char *const lo = s.chars + staged_offsets[0];
    const char *const hi = s.chars + staged_offsets[t.rows];
    const char *const base = (const char *)((uintptr_t)lo & ~(uintptr_t)15);
    int64_t const step = 16 * (int64_t)blockDim.x;
    /* two pieces a step, both loads issued before either is searched */
    for (const char *at = base + 16 * (int64_t)threadIdx.x; at < hi; at += 2 * step) {
      uint32_t w[2][4];
      load16(at, lo, hi, first ^ 1u, w[0]);
      load16(at + step, lo, hi, first ^ 1u, w[1]);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t hits[4];
        contains_candidates(w[h], firsts, seconds, second_mask, hits);
        if ((hits[0] | hits[1] | hits[2] | hits[3]) == 0) continue; /* the common case */
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          while (hits[q] != 0) {
            int const k = (__ffs(hits[q]) - 1) / 8; /* the lowest candidate byte */
            hits[q] &= hits[q] - 1;
            const char *const p = at + h * step + 4 * q + k;
            int const slot = p - lo <= UINT32_MAX ? atomicAdd(&num_candidates, 1)
                                                  : CONTAINS_CANDIDATES;
            if (slot < CONTAINS_CANDIDATES) {
              candidates[slot] = (uint32_t)(p - lo);
            } else {
              contains_mark(s, t, p, hi, target, target_size, out);
            }
          }
        }
      }
    }
    __syncthreads();
    int const listed = min(num_candidates, CONTAINS_CANDIDATES);
    for (int i = (int)threadIdx.x; i < listed; i += (int)blockDim.x) {
      contains_mark(s, t, lo + candidates[i], hi, target, target_size, out);
    }
  }
}

/* find / rfind, a warp per string, window by window as gcol_detail_string_find_windows
 * (search_ops.h, checked on the CPU) does with its lanes in a loop: the boundary bits of 32
 * positions, their character indices, the candidate bits, then the fold. Null rows get 0. */
static __global__ void gcol_detail_find_warp_kernel(gcol_strings_view s, search_target target,
                                                    int64_t start, int64_t stop, bool reverse,
                                                    int32_t *out) {
  int const lane = (int)(threadIdx.x & 31u);
  int64_t const warps = gcol_detail_grid_stride() >> 5;
  for (int64_t i = gcol_detail_thread_index() >> 5; i < s.size; i += warps) {
    bool valid = gcol_strings_view_is_valid(s, i);
    gcol_string_ref t = gcol_string_ref_make(target.data, target.size);
    if (target.per_row) {
      valid = valid && gcol_strings_view_is_valid(target.column, i);
      if (valid) t = gcol_strings_view_get(target.column, i);
    }
    int64_t result = valid ? -1 : 0;
    if (valid) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      int64_t before = 0;
      for (int64_t base = 0; base <= r.size; base += 32) {
        int64_t const p = base + lane;
        bool const boundary = gcol_detail_is_char_boundary(r.data, r.size, p);
        uint32_t const boundaries = __ballot_sync(0xFFFFFFFFu, boundary);
        int64_t const ci = gcol_detail_window_char(boundaries, before, lane);
        bool const candidate = boundary && gcol_detail_find_candidate(r.data, r.size, t.data,
                                                                      t.size, p, ci, start, stop);
        uint32_t const candidates = __ballot_sync(0xFFFFFFFFu, candidate);
        if (gcol_detail_window_fold(boundaries, candidates, reverse, stop, &before, &result)) break;
      }
    }
    if (lane == 0) out[i] = (int32_t)result;
  }
}

static gcol_status search(gcol_column_view input, const gcol_scalar *target_scalar,
                          const gcol_column_view *targets, search_op op, int64_t start,
                          int64_t stop, gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *target_buf = NULL;
  search_target target;
  gcol_strings_view s;
  const char *target_host = NULL;
  int64_t target_size = 0;
  cudaStream_t const st = (cudaStream_t)stream;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  memset(&target, 0, sizeof target);
  if (targets != NULL) {
    GCOL_DETAIL_TRY(gcol_detail_strings_check(*targets, "targets"));
    GCOL_DETAIL_CHECK(targets->size == input.size, GCOL_ERROR_SIZE_MISMATCH,
                      "targets has %lld rows, input %lld", (long long)targets->size,
                      (long long)input.size);
  } else {
    GCOL_DETAIL_TRY(
        gcol_detail_strings_scalar(target_scalar, "target", &target_host, &target_size));
  }
  GCOL_DETAIL_CHECK(start >= 0, GCOL_ERROR_INVALID_ARGUMENT, "start is %lld, below 0",
                    (long long)start);
  GCOL_DETAIL_CHECK(stop >= -1, GCOL_ERROR_INVALID_ARGUMENT,
                    "stop is %lld: -1 (to the end) or a position >= 0", (long long)stop);
  if (op_is_int32(op)) GCOL_DETAIL_TRY(gcol_detail_strings_check_int32_rows(input, stream));
  GCOL_DETAIL_TRY(gcol_detail_strings_fixed_output(
      input, targets, op_is_int32(op) ? GCOL_INT32 : GCOL_BOOL8, stream, mr, &col));
  if (input.size == 0) goto finish;
  GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
  if (targets != NULL) {
    target.per_row = true;
    GCOL_DETAIL_TRY(gcol_strings_view_make(*targets, &target.column));
  } else {
    GCOL_DETAIL_TRY(gcol_detail_strings_to_device(target_host, target_size, stream, &target_buf));
    target.data = (const char *)target_buf->data;
    target.size = target_size;
  }
  if (op == SEARCH_CONTAINS || op == SEARCH_FIND || op == SEARCH_RFIND) {
    int64_t begin = 0, end = 0;
    GCOL_DETAIL_TRY(gcol_strings_view_chars_range(input, stream, &begin, &end));
    if (op == SEARCH_CONTAINS && targets == NULL && target.size > 0) {
      /* one target: a pass over the chars, whatever the rows' lengths; each tile zeroes its
       * rows' outputs before it marks any (no separate memset pass) */
      if (end == begin) {
        GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(col->data->data, 0, (size_t)input.size, st));
      } else {
        /* tiles of about 64 KiB of chars (32 to 2048 rows), a few waves of blocks */
        int64_t const average = (end - begin) / input.size + 1;
        int64_t rows_per_tile = 2048;
        while (rows_per_tile > 32 && rows_per_tile * average > 65536) rows_per_tile /= 2;
        int64_t const tiles = (input.size + rows_per_tile - 1) / rows_per_tile;
        unsigned int const grid = (unsigned int)std::min<int64_t>(tiles, 4096);
        size_t const smem = (size_t)(rows_per_tile + 1) * sizeof(int64_t) +
                            CONTAINS_CANDIDATES * sizeof(uint32_t);
        gcol_detail_contains_chars_smem_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, smem, st>>>(
            s, target.data, target.size, rows_per_tile, (uint8_t *)col->data->data);
        GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      }
      goto finish;
    }
    if ((end - begin) >= 64 * input.size) {
      unsigned int const grid = gcol_detail_grid_size(input.size * 32, GCOL_DETAIL_BLOCK_SIZE);
      if (op == SEARCH_CONTAINS) {
        gcol_detail_contains_warp_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(
            s, target, (uint8_t *)col->data->data);
      } else {
        gcol_detail_find_warp_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(
            s, target, start, stop, op == SEARCH_RFIND, (int32_t *)col->data->data);
      }
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
      goto finish;
    }
  }
  gcol_detail_search_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                              GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, target, (int)op, start, stop,
                                                               col->data->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
finish:
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(target_buf);
  gcol_column_free(col);
  return status;
}

#define GCOL_DETAIL_SEARCH_SCALAR(name, op, start, stop)                                          \
  GCOL_DETAIL_NVTX_PUSH(#name);                                                                   \
  gcol_status const status = search(input, target, NULL, (op), (start), (stop), out, stream, mr); \
  GCOL_DETAIL_NVTX_POP();                                                                         \
  return status

#define GCOL_DETAIL_SEARCH_COLUMN(name, op, start, stop)                     \
  GCOL_DETAIL_NVTX_PUSH(#name);                                              \
  gcol_status const status =                                                 \
      search(input, NULL, &targets, (op), (start), (stop), out, stream, mr); \
  GCOL_DETAIL_NVTX_POP();                                                    \
  return status

extern "C" gcol_status gcol_strings_find(gcol_column_view input, const gcol_scalar *target,
                                         int64_t start, int64_t stop, gcol_column **out,
                                         gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_SCALAR(gcol_strings_find, SEARCH_FIND, start, stop);
}

extern "C" gcol_status gcol_strings_rfind(gcol_column_view input, const gcol_scalar *target,
                                          int64_t start, int64_t stop, gcol_column **out,
                                          gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_SCALAR(gcol_strings_rfind, SEARCH_RFIND, start, stop);
}

extern "C" gcol_status gcol_strings_find_column(gcol_column_view input, gcol_column_view targets,
                                                int64_t start, int64_t stop, gcol_column **out,
                                                gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_COLUMN(gcol_strings_find_column, SEARCH_FIND, start, stop);
}

extern "C" gcol_status gcol_strings_rfind_column(gcol_column_view input, gcol_column_view targets,
                                                 int64_t start, int64_t stop, gcol_column **out,
                                                 gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_COLUMN(gcol_strings_rfind_column, SEARCH_RFIND, start, stop);
}

extern "C" gcol_status gcol_strings_contains(gcol_column_view input, const gcol_scalar *target,
                                             gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_SCALAR(gcol_strings_contains, SEARCH_CONTAINS, 0, -1);
}

extern "C" gcol_status gcol_strings_starts_with(gcol_column_view input, const gcol_scalar *target,
                                                gcol_column **out, gcol_stream stream,
                                                gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_SCALAR(gcol_strings_starts_with, SEARCH_STARTS_WITH, 0, -1);
}

extern "C" gcol_status gcol_strings_ends_with(gcol_column_view input, const gcol_scalar *target,
                                              gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_SCALAR(gcol_strings_ends_with, SEARCH_ENDS_WITH, 0, -1);
}

extern "C" gcol_status gcol_strings_count_matches(gcol_column_view input, const gcol_scalar *target,
                                                  gcol_column **out, gcol_stream stream,
                                                  gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_SCALAR(gcol_strings_count_matches, SEARCH_COUNT, 0, -1);
}

extern "C" gcol_status gcol_strings_contains_column(gcol_column_view input,
                                                    gcol_column_view targets, gcol_column **out,
                                                    gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_COLUMN(gcol_strings_contains_column, SEARCH_CONTAINS, 0, -1);
}

extern "C" gcol_status gcol_strings_starts_with_column(gcol_column_view input,
                                                       gcol_column_view targets, gcol_column **out,
                                                       gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_COLUMN(gcol_strings_starts_with_column, SEARCH_STARTS_WITH, 0, -1);
}

extern "C" gcol_status gcol_strings_ends_with_column(gcol_column_view input,
                                                     gcol_column_view targets, gcol_column **out,
                                                     gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_COLUMN(gcol_strings_ends_with_column, SEARCH_ENDS_WITH, 0, -1);
}

extern "C" gcol_status gcol_strings_count_matches_column(gcol_column_view input,
                                                         gcol_column_view targets,
                                                         gcol_column **out, gcol_stream stream,
                                                         gcol_mr *mr) {
  GCOL_DETAIL_SEARCH_COLUMN(gcol_strings_count_matches_column, SEARCH_COUNT, 0, -1);
}
