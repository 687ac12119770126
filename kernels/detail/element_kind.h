/*
 * How the bytes of a fixed-width element are interpreted: one enumeration for every area
 * (binary ops, casts, unary ops, reductions, scans, row operators). Plain C, so host code in
 * kernels/ (plans, reduction type rules) uses it too.
 */
#ifndef GCOL_KERNELS_DETAIL_ELEMENT_KIND_H
#define GCOL_KERNELS_DETAIL_ELEMENT_KIND_H

#include <stdint.h>

#include "gcol/types.h"

typedef enum gcol_detail_kind {
  GCOL_DETAIL_KIND_SIGNED = 0,   /* two's complement: ints, timestamps, durations, decimal32/64 */
  GCOL_DETAIL_KIND_UNSIGNED = 1, /* unsigned ints */
  GCOL_DETAIL_KIND_FLOAT = 2,    /* IEEE float (width 4) or double (width 8) */
  GCOL_DETAIL_KIND_BOOL = 3,     /* BOOL8: any non-zero byte is true, read as 1 */
  GCOL_DETAIL_KIND_INT128 = 4    /* decimal128 */
} gcol_detail_kind;

/* A multiplier applied to an element after loading: a time-unit ratio or 10^k. */
typedef struct gcol_detail_multiplier {
  uint64_t lo; /* low 64 bits of the (non-negative) 128-bit multiplier */
  uint64_t hi; /* high 64 bits */
} gcol_detail_multiplier;

#ifdef __cplusplus
extern "C" {
#endif

/* Nanoseconds of one tick of a timestamp or duration type (days: 86400e9); 0 otherwise. */
int64_t gcol_detail_time_unit_ns(gcol_type_id id);

/* 10^k as a 128-bit multiplier, 0 <= k <= 38. */
gcol_detail_multiplier gcol_detail_pow10_multiplier(int32_t k);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_DETAIL_ELEMENT_KIND_H */
