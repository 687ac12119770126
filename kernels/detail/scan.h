/*
 * The exclusive sum of int64 counts, the scan every "count, then write" pass of gcol needs
 * (one CUB instantiation for all of them: the CI machine compiles it once).
 */
#ifndef GCOL_KERNELS_DETAIL_SCAN_H
#define GCOL_KERNELS_DETAIL_SCAN_H

#include "gcol/buffer.h"
#include "gcol/config.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/* out[i] = in[0] + ... + in[i - 1] for i in [0, n) on @p stream (in == out allowed);
 * temporaries from the default resource. */
gcol_status gcol_detail_exclusive_sum_i64(const int64_t *in, int64_t *out, int64_t n,
                                          gcol_stream stream);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_DETAIL_SCAN_H */
