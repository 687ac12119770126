/*
 * Cardinality estimates: how many distinct keys a column or table holds, from one read of
 * the keys (HyperLogLog, Flajolet et al. 2007, with linear counting for small counts), so a
 * hash table can be sized by its groups instead of its rows. A table for every row of 2^27
 * rows is 2 GiB of slots touched at random in DRAM; one for their 2^20 groups is 16 MiB and
 * stays in L2. The estimate only sizes: callers keep exact results by retrying with a table
 * for every row when the sized one overflows (its probes are bounded).
 *
 * 2^12 registers: a standard error of 1.04 / 64 = 1.6%, and 16 KiB of shared memory a block.
 * The register and rank of a hash, and the estimator, are host code too (the host suite
 * checks the estimator on known cardinalities without a GPU).
 */
#ifndef GCOL_KERNELS_DETAIL_CARDINALITY_H
#define GCOL_KERNELS_DETAIL_CARDINALITY_H

#include <stdbool.h>
#include <stdint.h>

#include "gcol/config.h"
#include "gcol/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCOL_DETAIL_HLL_BITS 12
#define GCOL_DETAIL_HLL_REGISTERS (1 << GCOL_DETAIL_HLL_BITS)

/* The register of a 64-bit hash: its top GCOL_DETAIL_HLL_BITS bits. */
GCOL_HD_INLINE uint32_t gcol_detail_hll_register(uint64_t hash) {
  return (uint32_t)(hash >> (64 - GCOL_DETAIL_HLL_BITS));
}

/* The rank of a hash: 1 + the leading zeros of its remaining 52 bits (1 to 53). A sentinel
 * bit below them keeps the count finite for a zero remainder. */
GCOL_HD_INLINE uint32_t gcol_detail_hll_rank(uint64_t hash) {
  uint64_t const rest =
      (hash << GCOL_DETAIL_HLL_BITS) | ((uint64_t)1 << (GCOL_DETAIL_HLL_BITS - 1));
#if defined(__CUDA_ARCH__)
  return (uint32_t)__clzll((long long)rest) + 1u;
#else
  return (uint32_t)__builtin_clzll(rest) + 1u;
#endif
}

/* The estimate from GCOL_DETAIL_HLL_REGISTERS registers, each the largest rank seen in it
 * (0: none): the raw harmonic-mean estimate, or linear counting over the empty registers
 * while the raw one is at most 2.5 x the registers (where the raw one is biased). Host. */
double gcol_detail_hll_estimate(const uint32_t *registers);

struct gcol_detail_row_column;

/*
 * Estimates the distinct rows among the @p n rows of @p keys (device descriptors,
 * gcol_detail_row_columns_make): @p packed hashes one fixed-width key of at most 8 bytes by
 * its normalized bits, otherwise the row hash (a null is one value). *out is the estimate
 * rounded, clamped to [1, n] (0 for no rows). One pass over the keys and a 16 KiB copy; synchronizes @p stream.
 */
gcol_status gcol_detail_estimate_distinct(const struct gcol_detail_row_column *keys,
                                          int32_t num_keys, bool packed, int64_t n,
                                          gcol_stream stream, int64_t *out);

/*
 * For tests (process-wide): an @p estimate >= 0 replaces what gcol_detail_estimate_distinct
 * returns (without reading the keys), so a test can make a caller's sized table too small and
 * reach its retry; -1 restores the estimates. Returns the previous value.
 */
int64_t gcol_detail_set_estimate_override(int64_t estimate);

/* The override in force (-1: none). Callers that skip estimating small inputs estimate
 * anyway while one is set, so tests reach their sized path at any size. */
int64_t gcol_detail_estimate_override(void);

/* Counts a sized table that overflowed and was retried (callers call it on each retry);
 * tests read the count to check that they reached the retry. */
void gcol_detail_note_estimate_miss(void);
int64_t gcol_detail_estimate_misses(void);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_DETAIL_CARDINALITY_H */
