/* Predicate pushdown: which row groups may hold a row where an expression is true, from the
 * column chunks' statistics alone (include/gcol/io/parquet.h), and which rows of a row group,
 * from its page index (internal/parquet.h: the reader skips the pages outside them). Each
 * chunk's or page's statistics record becomes bounds of its column (internal/expression.h),
 * and the expression area judges the tree. */
#include <math.h>
#include <stdlib.h>

#include "internal/error.h"
#include "internal/expression.h"
#include "internal/nvtx.h"
#include "internal/parquet.h"

/* The interval of a chunk's (or page's) valid values, in the order of the column's gcol type. */
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

/* The bounds of a column over the rows of a statistics record: a chunk's, or a page's of the
 * page index (`all_null`: a ColumnIndex's null page). */
static gcol_detail_expr_bounds stats_bounds(const gcol_parquet_column_info *info,
                                            const gcol_parquet_statistics *st, bool all_null) {
  gcol_detail_expr_bounds b;
  memset(&b, 0, sizeof b);
  b.may_valid = true;
  b.may_null = info->nullable;
  if (st->has_null_count) {
    b.may_null = st->null_count > 0;
    b.may_valid = st->null_count < st->num_values; /* every value null: none valid */
  }
  if (all_null) {
    b.may_null = true;
    b.may_valid = false;
  }
  if (b.may_valid) chunk_range(info, st, &b);
  /* min above max: statistics in another order (the deprecated min/max fields of a legacy
   * writer are signed even for unsigned columns, and mixed signs invert them): no interval */
  if (b.has_range && gcol_detail_bound_compare(b.lo, b.hi) > 0) b.has_range = false;
  return b;
}

/* Checks the filter against the file's leaf columns and allocates their types (filled) and
 * bounds (one per leaf; free both). */
static gcol_status check_filter(const gcol_parquet_metadata *md, const gcol_expression *expr,
                                int32_t root, gcol_data_type **types,
                                gcol_detail_expr_bounds **bounds) {
  gcol_status status = GCOL_OK;
  *types = NULL;
  *bounds = NULL;
  GCOL_DETAIL_CHECK(md != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_CHECK(expr != NULL, GCOL_ERROR_INVALID_ARGUMENT, "the filter expression is NULL");
  size_t const n = (size_t)(md->num_leaves > 0 ? md->num_leaves : 1);
  *types = (gcol_data_type *)malloc(n * sizeof **types);
  *bounds = (gcol_detail_expr_bounds *)calloc(n, sizeof **bounds);
  GCOL_DETAIL_CHECK(*types != NULL && *bounds != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t i = 0; i < md->num_leaves; ++i) (*types)[i] = md->leaves[i].type;
  gcol_data_type out;
  /* checks the root, the column indices, the operand types and the limits */
  GCOL_DETAIL_TRY(gcol_expression_output_type(expr, root, *types, md->num_leaves, NULL, 0, &out));
  GCOL_DETAIL_CHECK(out.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "the filter's root (node %d) is %s, not bool8", root, gcol_type_name(out.id));
done:
  if (status != GCOL_OK) {
    free(*types);
    free(*bounds);
    *types = NULL;
    *bounds = NULL;
  }
  return status;
}

/* Whether row group g may hold a match, by its chunks' statistics (bounds: scratch). */
static bool group_may_match(const gcol_parquet_metadata *md, const gcol_expression *expr,
                            int32_t root, const gcol_data_type *types,
                            gcol_detail_expr_bounds *bounds, int32_t g) {
  for (int32_t i = 0; i < md->num_leaves; ++i) {
    bounds[i] = stats_bounds(&md->leaves[i], &md->row_groups[g].chunks[i].stats, false);
  }
  return gcol_detail_expr_may_be_true(expr, root, types, bounds);
}

gcol_status gcol_detail_pq_filter_groups(const gcol_parquet_metadata *md,
                                         const gcol_expression *expr, int32_t root, bool *keep) {
  gcol_status status = GCOL_OK;
  gcol_data_type *types = NULL;
  gcol_detail_expr_bounds *bounds = NULL;
  GCOL_DETAIL_TRY(check_filter(md, expr, root, &types, &bounds));
  for (int32_t g = 0; g < md->num_row_groups; ++g) {
    keep[g] = group_may_match(md, expr, root, types, bounds, g);
  }
done:
  free(types);
  free(bounds);
  return status;
}

static int row_order(const void *a, const void *b) {
  int64_t const x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

gcol_status gcol_detail_pq_filter_pages(const gcol_parquet_metadata *md,
                                        const gcol_expression *expr, int32_t root,
                                        int32_t row_group, gcol_detail_pq_row_range **ranges,
                                        int64_t *num_ranges) {
  gcol_status status = GCOL_OK;
  gcol_data_type *types = NULL;
  gcol_detail_expr_bounds *bounds = NULL;
  bool *used = NULL;
  int32_t *paged = NULL; /* referenced columns with page statistics */
  int32_t *at = NULL;    /* for each of them, the page covering the current segment */
  int64_t *cuts = NULL;
  gcol_detail_pq_row_range *out = NULL;
  int64_t count = 0;
  GCOL_DETAIL_CHECK(ranges != NULL && num_ranges != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "ranges or num_ranges is NULL");
  *ranges = NULL;
  *num_ranges = 0;
  GCOL_DETAIL_TRY(check_filter(md, expr, root, &types, &bounds));
  GCOL_DETAIL_CHECK(row_group >= 0 && row_group < md->num_row_groups, GCOL_ERROR_INVALID_ARGUMENT,
                    "row_group %d is outside the %d row groups", row_group, md->num_row_groups);
  const gcol_detail_pq_row_group *rg = &md->row_groups[row_group];
  /* the chunks' statistics first: every column's bounds over the whole group */
  if (rg->num_rows == 0 || !group_may_match(md, expr, root, types, bounds, row_group)) goto done;
  size_t const n = (size_t)(md->num_leaves > 0 ? md->num_leaves : 1);
  used = (bool *)calloc(n, sizeof *used);
  paged = (int32_t *)malloc(n * sizeof *paged);
  at = (int32_t *)calloc(n, sizeof *at);
  GCOL_DETAIL_CHECK(used != NULL && paged != NULL && at != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "out of memory");
  GCOL_DETAIL_TRY(gcol_detail_expr_columns_used(expr, root, used));
  int32_t num_paged = 0;
  int64_t num_cuts = 2; /* 0 and the group's end */
  for (int32_t i = 0; i < md->num_leaves; ++i) {
    const gcol_detail_pq_chunk *ch = &rg->chunks[i];
    if (!used[i] || !ch->has_page_statistics || ch->num_pages == 0) continue;
    paged[num_paged++] = i;
    num_cuts += ch->num_pages;
  }
  /* the group cut at every page boundary of those columns */
  cuts = (int64_t *)malloc((size_t)num_cuts * sizeof *cuts);
  out = (gcol_detail_pq_row_range *)malloc((size_t)num_cuts * sizeof *out);
  GCOL_DETAIL_CHECK(cuts != NULL && out != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  int64_t m = 0;
  cuts[m++] = 0;
  cuts[m++] = rg->num_rows;
  for (int32_t j = 0; j < num_paged; ++j) {
    const gcol_detail_pq_chunk *ch = &rg->chunks[paged[j]];
    for (int32_t p = 0; p < ch->num_pages; ++p) cuts[m++] = ch->pages[p].first_row;
  }
  qsort(cuts, (size_t)m, sizeof *cuts, row_order);
  /* each segment [cuts[s], cuts[s + 1]) judged with the pages covering it (first rows ascend
   * from 0 and end by the group's rows: checked when the index was read) */
  for (int64_t s = 0; s + 1 < m; ++s) {
    int64_t const begin = cuts[s], end = cuts[s + 1];
    if (begin == end) continue;
    for (int32_t j = 0; j < num_paged; ++j) {
      int32_t const c = paged[j];
      const gcol_detail_pq_chunk *ch = &rg->chunks[c];
      while (at[j] + 1 < ch->num_pages && ch->pages[at[j] + 1].first_row <= begin) ++at[j];
      const gcol_detail_pq_index_page *p = &ch->pages[at[j]];
      bounds[c] = stats_bounds(&md->leaves[c], &p->stats, p->null_page);
    }
    if (!gcol_detail_expr_may_be_true(expr, root, types, bounds)) continue;
    if (count > 0 && out[count - 1].end == begin) {
      out[count - 1].end = end;
    } else {
      out[count].begin = begin;
      out[count].end = end;
      ++count;
    }
  }
done:
  if (status == GCOL_OK && count > 0) {
    *ranges = out;
    *num_ranges = count;
    out = NULL;
  }
  free(out);
  free(cuts);
  free(at);
  free(paged);
  free(used);
  free(types);
  free(bounds);
  return status;
}

/* Appends [begin, end) to ranges[0, *n) (room for it), merged with the last when adjacent. */
static void append_range(gcol_detail_pq_row_range *ranges, int64_t *n, int64_t begin, int64_t end) {
  if (*n > 0 && ranges[*n - 1].end == begin) {
    ranges[*n - 1].end = end;
    return;
  }
  ranges[*n].begin = begin;
  ranges[*n].end = end;
  ++*n;
}

/* Appends group_ranges[0, n) shifted by `base` to *kept (of *cap entries, grown). */
static bool append_group_ranges(const gcol_detail_pq_row_range *group_ranges, int64_t n,
                                int64_t base, gcol_detail_pq_row_range **kept, int64_t *num_kept,
                                int64_t *cap) {
  if (*num_kept + n > *cap) {
    int64_t const want = *cap * 2 > *num_kept + n ? *cap * 2 : *num_kept + n;
    void *p = realloc(*kept, (size_t)want * sizeof **kept);
    if (p == NULL) return false;
    *kept = (gcol_detail_pq_row_range *)p;
    *cap = want;
  }
  for (int64_t i = 0; i < n; ++i) {
    append_range(*kept, num_kept, base + group_ranges[i].begin, base + group_ranges[i].end);
  }
  return true;
}

gcol_status gcol_detail_pq_kept_rows(const gcol_parquet_metadata *md, const gcol_expression *expr,
                                     int32_t root, int32_t *row_groups, int32_t *num_row_groups,
                                     gcol_detail_pq_row_range **kept, int64_t *num_kept) {
  gcol_status status = GCOL_OK;
  gcol_detail_pq_row_range *group_ranges = NULL;
  gcol_detail_pq_row_range *out = NULL;
  int64_t count = 0, cap = 0;
  int64_t base = 0; /* read row of the next kept group's first row */
  int32_t groups_left = 0;
  *kept = NULL;
  *num_kept = 0;
  for (int32_t i = 0; i < *num_row_groups; ++i) {
    int32_t const g = row_groups[i];
    int64_t n = 0;
    free(group_ranges);
    group_ranges = NULL;
    GCOL_DETAIL_TRY(gcol_detail_pq_filter_pages(md, expr, root, g, &group_ranges, &n));
    if (n == 0) continue; /* no kept row: the group is not read */
    GCOL_DETAIL_CHECK(append_group_ranges(group_ranges, n, base, &out, &count, &cap),
                      GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    row_groups[groups_left++] = g;
    base += md->row_groups[g].num_rows;
  }
  *num_row_groups = groups_left;
  *kept = out;
  *num_kept = count;
  out = NULL;
done:
  free(out);
  free(group_ranges);
  return status;
}

bool gcol_detail_pq_rows_overlap(const gcol_detail_pq_row_range *ranges, int64_t n, int64_t begin,
                                 int64_t end) {
  if (begin >= end) return false;
  /* the first range ending after begin: binary search (the ranges ascend) */
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (ranges[mid].end <= begin) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < n && ranges[lo].begin < end;
}

int64_t gcol_detail_pq_rows_count(const gcol_detail_pq_row_range *ranges, int64_t n) {
  int64_t rows = 0;
  for (int64_t i = 0; i < n; ++i) rows += ranges[i].end - ranges[i].begin;
  return rows;
}

bool gcol_detail_pq_row_map(const gcol_detail_pq_row_range *covered, int64_t num_covered,
                            const gcol_detail_pq_row_range *kept, int64_t num_kept, int64_t *map) {
  int64_t c = 0;      /* the covered range holding (or after) the current kept row */
  int64_t before = 0; /* covered rows before covered[c] */
  int64_t j = 0;
  for (int64_t k = 0; k < num_kept; ++k) {
    for (int64_t row = kept[k].begin; row < kept[k].end; ++row) {
      while (c < num_covered && covered[c].end <= row) {
        before += covered[c].end - covered[c].begin;
        ++c;
      }
      if (c == num_covered || covered[c].begin > row) return false;
      map[j++] = before + (row - covered[c].begin);
    }
  }
  return true;
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
