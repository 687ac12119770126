/*
 * The exclusive sum of int64 counts, the scan every "count, then write" pass of gcol needs
 * (one CUB instantiation for all of them: the CI machine compiles it once), and the one
 * "sizes -> offsets" pass built on it (docs/design.md, "Offsets"): a kernel of the caller
 * writes each row's size into a buffer of gcol_detail_sizes_create(), and
 * gcol_detail_offsets_from_sizes() scans it in place, reads the total back and makes the
 * offsets column (or gcol_detail_sizes_scan() does the first two, for a caller that makes
 * no offsets column or writes it fused into its own kernel).
 */
#ifndef GCOL_KERNELS_DETAIL_SCAN_H
#define GCOL_KERNELS_DETAIL_SCAN_H

#include "gcol/buffer.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/* out[i] = in[0] + ... + in[i - 1] for i in [0, n) on @p stream (in == out allowed);
 * temporaries from the default resource. */
gcol_status gcol_detail_exclusive_sum_i64(const int64_t *in, int64_t *out, int64_t n,
                                          gcol_stream stream);

/* The most words gcol_detail_sizes_scan() reads back: the total and two of the caller's. */
#define GCOL_DETAIL_SIZES_WORDS_MAX 3

/* A sizes buffer of an n-row output: n + words int64 (1 <= words <= the max) from the
 * default resource, sizes[n, n + words) zeroed. The caller's kernel writes sizes[0, n);
 * sizes[n] becomes the total; the words after it are the caller's own (an overflow flag, a
 * null count, a maximum: raised by the same kernel, so no pass is added to read them). */
gcol_status gcol_detail_sizes_create(int64_t n, int32_t words, gcol_stream stream,
                                     gcol_buffer **out);

/* offsets[0, n] = the exclusive sum of sizes[0, n) (offsets[n] the total; in place
 * allowed), then offsets[n, n + words) read back into tail[0, words) in one copy and one
 * synchronization: tail[0] is the total. Overflow when the total passes INT64_MAX (the sum
 * wrapped negative). n == 0 gives the one offset 0. */
gcol_status gcol_detail_sizes_scan(const int64_t *sizes, int64_t *offsets, int64_t n, int64_t *tail,
                                   int32_t words, gcol_stream stream);

/* gcol_detail_sizes_scan() in place, then *offsets: n + 1 offsets from mr, INT32 up to
 * gcol_large_offsets_threshold() total bytes (values) and INT64 above. sizes keeps the
 * int64 offsets for the caller's write pass. Nothing is left allocated on failure. */
gcol_status gcol_detail_offsets_from_sizes(int64_t *sizes, int64_t n, int64_t *tail, int32_t words,
                                           gcol_stream stream, gcol_mr *mr, gcol_column **offsets);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_DETAIL_SCAN_H */
