/*
 * The conversion rules of gcol_cast() (cast.h), in plain C so that the host suite tests
 * them: which kernel path converts a pair, and its constants (unit ratio, power of ten,
 * bounds of the target).
 */
#ifndef GCOL_KERNELS_CAST_PLAN_H
#define GCOL_KERNELS_CAST_PLAN_H

#include "detail/element_kind.h"
#include "gcol/cast.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gcol_detail_cast_path {
  GCOL_DETAIL_CAST_COPY = 0,         /* same type */
  GCOL_DETAIL_CAST_INT_TO_INT,       /* integers, bool, ticks; optional unit ratio */
  GCOL_DETAIL_CAST_INT_TO_FLOAT,
  GCOL_DETAIL_CAST_FLOAT_TO_INT,     /* null outside the target (not for BOOL8) */
  GCOL_DETAIL_CAST_FLOAT_TO_FLOAT,
  GCOL_DETAIL_CAST_DECIMAL_RESCALE,  /* decimal/integer <-> decimal/integer in 128 bits */
  GCOL_DETAIL_CAST_DECIMAL_TO_FLOAT,
  GCOL_DETAIL_CAST_FLOAT_TO_DECIMAL, /* null when not finite or out of range */
  GCOL_DETAIL_CAST_STRING_TO_NUMBER, /* null when it does not parse */
  GCOL_DETAIL_CAST_NUMBER_TO_STRING,
  GCOL_DETAIL_CAST_STRING_TO_DECIMAL, /* gcol_strings_to_decimals (strings/convert.h) */
  GCOL_DETAIL_CAST_DECIMAL_TO_STRING  /* gcol_strings_from_decimals */
} gcol_detail_cast_path;

typedef struct gcol_detail_cast_plan {
  gcol_detail_cast_path path;
  int64_t unit_multiply;          /* INT_TO_INT: ticks * this ... */
  int64_t unit_divide;            /* ... / this */
  bool unit_floor;                /* divide rounding toward -inf (timestamps) */
  gcol_detail_multiplier pow10;   /* DECIMAL_RESCALE: 10^k */
  bool pow10_divides;             /* divide by pow10 rather than multiply */
  double pow10_double;            /* DECIMAL_TO_FLOAT, FLOAT_TO_DECIMAL: 10^k rounded */
  bool pow10_double_divides;
  double lower;                   /* FLOAT_TO_INT/DECIMAL: smallest valid truncated value */
  double upper_exclusive;         /* ... and the first invalid above */
  bool can_make_nulls;
} gcol_detail_cast_plan;

/* Fills *plan (when not NULL) or returns the status of gcol_cast_check_types(). */
gcol_status gcol_detail_cast_plan_make(gcol_data_type from, gcol_data_type to,
                                       gcol_detail_cast_plan *plan);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_CAST_PLAN_H */
