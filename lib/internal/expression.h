/*
 * Expression helpers for lib/ (the Parquet reader's predicate pushdown), defined in
 * kernels/expression/expression_bounds.c: what an expression may be over rows of which only
 * bounds are known (min, max, whether nulls occur), and the tree's column references.
 */
#ifndef GCOL_INTERNAL_EXPRESSION_H
#define GCOL_INTERNAL_EXPRESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "gcol/expression.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A bound or a constant, of one of three orders. */
typedef struct gcol_detail_bound_value {
  int kind; /* 0 signed, 1 unsigned (the bits of i), 2 double */
  int64_t i;
  double f;
} gcol_detail_bound_value;

/* -1, 0, 1: a compared with b (of the same kind; a NaN compares equal to everything). */
static inline int gcol_detail_bound_compare(gcol_detail_bound_value a, gcol_detail_bound_value b) {
  if (a.kind == 2) return a.f < b.f ? -1 : a.f > b.f;
  if (a.kind == 1) return (uint64_t)a.i < (uint64_t)b.i ? -1 : (uint64_t)a.i > (uint64_t)b.i;
  return a.i < b.i ? -1 : a.i > b.i;
}

/* What a column's values over some rows may be. */
typedef struct gcol_detail_expr_bounds {
  bool may_valid; /* some value may be valid */
  bool may_null;  /* some value may be null */
  bool has_range; /* the valid values lie in [lo, hi] (NaN aside, when may_nan), in the order
                     of the column's type: kind 1 for unsigned, 2 for floats, else 0 */
  bool may_nan;   /* a float column whose values may hold NaN (no interval holds it) */
  gcol_detail_bound_value lo, hi;
} gcol_detail_expr_bounds;

/* Whether the BOOL8 predicate under `root` (already type-checked against `types`) may be true
 * for some row whose columns lie within `columns` (one entry per column of the left table). */
bool gcol_detail_expr_may_be_true(const gcol_expression *expr, int32_t root,
                                  const gcol_data_type *types,
                                  const gcol_detail_expr_bounds *columns);

/* used[c] = true for every column c of the left table referenced under `root` (checked). */
gcol_status gcol_detail_expr_columns_used(const gcol_expression *expr, int32_t root, bool *used);

/* A copy of `expr` whose column references under `root` (checked) read column map[c] instead
 * of c; free it with gcol_expression_free(). */
gcol_status gcol_detail_expr_remap_columns(const gcol_expression *expr, int32_t root,
                                           const int32_t *map, gcol_expression **out);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_EXPRESSION_H */
