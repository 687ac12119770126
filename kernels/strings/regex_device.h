/*
 * What regex.cu shares with regex_split.cu: the compiled program copied to the device, and
 * the grid of a VM kernel, capped so that the VM scratch of its threads (a slice each,
 * gcol_detail_regex_scratch_ints words) stays under GCOL_DETAIL_REGEX_SCRATCH_BUDGET bytes;
 * such a kernel walks its rows grid-stride.
 */
#ifndef GCOL_KERNELS_STRINGS_REGEX_DEVICE_H
#define GCOL_KERNELS_STRINGS_REGEX_DEVICE_H

#include <stdbool.h>

#include "gcol/buffer.h"
#include "gcol/status.h"
#include "strings/regex_match.h"

GCOL_EXTERN_C_BEGIN

/* The VM scratch of all running threads stays under this many bytes. */
#define GCOL_DETAIL_REGEX_SCRATCH_BUDGET ((int64_t)256 << 20)

/* The program of re in a new temporary device buffer *buf; *prog points into it. */
gcol_status gcol_detail_regex_to_device(const gcol_regex *re, gcol_stream stream, gcol_buffer **buf,
                                        gcol_detail_regex_prog *prog);

/* Blocks of GCOL_DETAIL_BLOCK_SIZE threads for n rows whose VM scratch is `words` each in
 * the global scratch (0 when n is 0; words 0: a thread per row, the scratch being local). */
int64_t gcol_detail_regex_blocks(int64_t n, int64_t words);

/* The VM scratch of n rows needing `words` each: *local where it fits a local array, the
 * grid (*blocks), and otherwise the global buffer (*out; NULL when local). */
gcol_status gcol_detail_regex_scratch_make(int64_t n, int64_t words, gcol_stream stream,
                                           bool *local, int64_t *blocks, gcol_buffer **out);

/* Its data, or NULL for none. */
int32_t *gcol_detail_regex_scratch_data(const gcol_buffer *scratch);

/* Programs whose VM scratch fits this many words keep it in a local array of each thread:
 * the hardware interleaves local memory across a warp's threads, so their accesses to one
 * word coalesce and stay in L1. A slice of one global buffer per thread (the fallback) puts
 * a warp's words a slice apart: 32 sectors per access (measured on an H100: regex contains
 * 30x behind libcudf's, 2026-11-26). */
#define GCOL_DETAIL_REGEX_LOCAL_WORDS 256

GCOL_EXTERN_C_END

#ifdef __CUDACC__
/* In a VM kernel template <bool LOCAL>: `mine`, the thread's scratch (see above). */
#define GCOL_DETAIL_REGEX_MINE(LOCAL, scratch, words, tid)                       \
  int32_t gcol_detail_regex_local_[(LOCAL) ? GCOL_DETAIL_REGEX_LOCAL_WORDS : 1]; \
  int32_t *const mine = (LOCAL) ? gcol_detail_regex_local_ : (scratch) + (tid) * (words)

/* Launches kernel<true> (local scratch) or kernel<false> (the global scratch's slices),
 * with smem bytes of dynamic shared memory. */
#define GCOL_DETAIL_REGEX_LAUNCH_SMEM(local, kernel, blocks, smem, stream, ...)                    \
  do {                                                                                             \
    if (local) {                                                                                   \
      kernel<true><<<(unsigned)(blocks), GCOL_DETAIL_BLOCK_SIZE, (smem), (stream)>>>(__VA_ARGS__); \
    } else {                                                                                       \
      kernel<false>                                                                                \
          <<<(unsigned)(blocks), GCOL_DETAIL_BLOCK_SIZE, (smem), (stream)>>>(__VA_ARGS__);         \
    }                                                                                              \
  } while (0)

/* The same without shared memory. */
#define GCOL_DETAIL_REGEX_LAUNCH(local, kernel, blocks, stream, ...) \
  GCOL_DETAIL_REGEX_LAUNCH_SMEM(local, kernel, blocks, 0, stream, __VA_ARGS__)
#endif

#endif /* GCOL_KERNELS_STRINGS_REGEX_DEVICE_H */
