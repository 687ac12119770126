/*
 * What regex.cu shares with regex_split.cu: the compiled program copied to the device, and
 * the grid of a VM kernel, capped so that the VM scratch of its threads (a slice each,
 * gcol_detail_regex_scratch_ints words) stays under GCOL_DETAIL_REGEX_SCRATCH_BUDGET bytes;
 * such a kernel walks its rows grid-stride.
 */
#ifndef GCOL_KERNELS_STRINGS_REGEX_DEVICE_H
#define GCOL_KERNELS_STRINGS_REGEX_DEVICE_H

#include "gcol/buffer.h"
#include "gcol/status.h"
#include "strings/regex_match.h"

GCOL_EXTERN_C_BEGIN

/* The VM scratch of all running threads stays under this many bytes. */
#define GCOL_DETAIL_REGEX_SCRATCH_BUDGET ((int64_t)256 << 20)

/* The program of re in a new temporary device buffer *buf; *prog points into it. */
gcol_status gcol_detail_regex_to_device(const gcol_regex *re, gcol_stream stream, gcol_buffer **buf,
                                        gcol_detail_regex_prog *prog);

/* Blocks of GCOL_DETAIL_BLOCK_SIZE threads for n rows whose VM scratch is `words` each (0
 * when n is 0). */
int64_t gcol_detail_regex_blocks(int64_t n, int64_t words);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_REGEX_DEVICE_H */
