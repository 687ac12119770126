/* Predicate pushdown: which row groups may hold a row where an expression is true, from the
 * column chunks' statistics alone (include/gcol/io/parquet.h). Each chunk's statistics become
 * bounds of its column (internal/expression.h), and the expression area judges the tree. */
#include <math.h>
#include <stdlib.h>

#include "internal/error.h"
#include "internal/expression.h"
#include "internal/nvtx.h"
#include "internal/parquet.h"

/* The interval of a chunk's valid values, in the order of the column's gcol type. */
static void chunk_range(const gcol_parquet_column_info *info, const gcol_parquet_statistics *st,
                        gcol_detail_expr_bounds *b) {
  if (st->has_integer_min_max) {
    b->has_range = true;
    b->lo.kind = b->hi.kind = gcol_type_is_unsigned_integral(info->type.id) ? 1 : 0;
    b->lo.i = st->min_i64;
    b->hi.i = st->max_i64;
  } else if (st->has_float_min_max) {
    b->may_nan = true; /* writers leave NaN out of min and max */
    if (isnan(st->min_f64) || isnan(st->max_f64)) return;
    b->has_range = true;
    b->lo.kind = b->hi.kind = 2;
    b->lo.f = st->min_f64;
    b->hi.f = st->max_f64;
  }
}

static gcol_detail_expr_bounds chunk_bounds(const gcol_parquet_column_info *info,
                                            const gcol_parquet_statistics *st) {
  gcol_detail_expr_bounds b;
  memset(&b, 0, sizeof b);
  b.may_valid = true;
  b.may_null = info->nullable;
  if (st->has_null_count) {
    b.may_null = st->null_count > 0;
    b.may_valid = st->null_count < st->num_values; /* every value null: none valid */
  }
  if (b.may_valid) chunk_range(info, st, &b);
  /* min above max: statistics in another order (the deprecated min/max fields of a legacy
   * writer are signed even for unsigned columns, and mixed signs invert them): no interval */
  if (b.has_range && gcol_detail_bound_compare(b.lo, b.hi) > 0) b.has_range = false;
  return b;
}

gcol_status gcol_detail_pq_filter_groups(const gcol_parquet_metadata *md,
                                         const gcol_expression *expr, int32_t root, bool *keep) {
  gcol_status status = GCOL_OK;
  gcol_data_type *types = NULL;
  gcol_detail_expr_bounds *bounds = NULL;
  GCOL_DETAIL_CHECK(md != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_CHECK(expr != NULL, GCOL_ERROR_INVALID_ARGUMENT, "the filter expression is NULL");
  size_t const n = (size_t)(md->num_leaves > 0 ? md->num_leaves : 1);
  types = (gcol_data_type *)malloc(n * sizeof *types);
  bounds = (gcol_detail_expr_bounds *)malloc(n * sizeof *bounds);
  GCOL_DETAIL_CHECK(types != NULL && bounds != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t i = 0; i < md->num_leaves; ++i) types[i] = md->leaves[i].type;
  gcol_data_type out;
  /* checks the root, the column indices, the operand types and the limits */
  GCOL_DETAIL_TRY(gcol_expression_output_type(expr, root, types, md->num_leaves, NULL, 0, &out));
  GCOL_DETAIL_CHECK(out.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "the filter's root (node %d) is %s, not bool8", root, gcol_type_name(out.id));
  for (int32_t g = 0; g < md->num_row_groups; ++g) {
    for (int32_t i = 0; i < md->num_leaves; ++i) {
      bounds[i] = chunk_bounds(&md->leaves[i], &md->row_groups[g].chunks[i].stats);
    }
    keep[g] = gcol_detail_expr_may_be_true(expr, root, types, bounds);
  }
done:
  free(types);
  free(bounds);
  return status;
}

static gcol_status filter_row_groups_expression(const gcol_parquet_metadata *metadata,
                                                const gcol_expression *expr, int32_t root,
                                                int32_t *row_groups, int32_t *num_row_groups) {
  gcol_status status = GCOL_OK;
  bool *keep = NULL;
  GCOL_DETAIL_CHECK(metadata != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_CHECK(row_groups != NULL && num_row_groups != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "row_groups or num_row_groups is NULL");
  keep = (bool *)malloc((size_t)(metadata->num_row_groups > 0 ? metadata->num_row_groups : 1));
  GCOL_DETAIL_CHECK(keep != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(gcol_detail_pq_filter_groups(metadata, expr, root, keep));
  *num_row_groups = 0;
  for (int32_t g = 0; g < metadata->num_row_groups; ++g) {
    if (keep[g]) row_groups[(*num_row_groups)++] = g;
  }
done:
  free(keep);
  return status;
}

gcol_status gcol_parquet_metadata_filter_row_groups_expression(
    const gcol_parquet_metadata *metadata, const gcol_expression *expr, int32_t root,
    int32_t *row_groups, int32_t *num_row_groups) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_filter_row_groups_expression");
  gcol_status const status =
      filter_row_groups_expression(metadata, expr, root, row_groups, num_row_groups);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
