/* Distributed groupby: local pre-aggregation, a shuffle of the partial results on the keys,
 * and a merge on each rank (sums of sums and counts, minima of minima, maxima of maxima,
 * Chan's formula for count/mean/M2, from which VARIANCE, STD and M2 follow; MEAN of FLOAT64
 * and of integers up to 32 bits as a sum and a count, which cost a fraction of the moments). */
#include <stdlib.h>
#include <string.h>

#include "dist/dist_common.h"
#include "dist/dist_groupby_finish.h"
#include "gcol/groupby.h"
#include "internal/error.h"
#include "internal/nvtx.h"

/* How an aggregation travels: ONE partial merged by one aggregation (SUM, MIN, MAX, the
 * counts), SUM_COUNT (a MEAN as a sum and a count: exact and cheap where the sum's type holds
 * it) or MOMENTS (count, mean, M2 merged by Chan's formula: VARIANCE, STD, M2, other MEANs). */
typedef enum partial_form { FORM_ONE, FORM_SUM_COUNT, FORM_MOMENTS } partial_form;

/* A MEAN as a sum and a count where that sum is what the one-GPU MEAN accumulates or exact:
 * FLOAT64, and integers of up to 32 bits (summed in 64). FLOAT32 sums stay FLOAT32 and wider
 * integers may overflow: those take the moments. */
static bool mean_by_sum(gcol_type_id id) {
  return id == GCOL_FLOAT64 || id == GCOL_INT8 || id == GCOL_INT16 || id == GCOL_INT32 ||
         id == GCOL_UINT8 || id == GCOL_UINT16 || id == GCOL_UINT32;
}

/* MEAN, VARIANCE, STD and M2: the aggregations Chan's formula can merge. */
static bool is_moment(gcol_groupby_agg_kind k) {
  return k == GCOL_GROUPBY_MEAN || k == GCOL_GROUPBY_VARIANCE || k == GCOL_GROUPBY_STD ||
         k == GCOL_GROUPBY_M2;
}

static partial_form form_of(gcol_groupby_agg_kind k, gcol_type_id values) {
  if (k == GCOL_GROUPBY_MEAN && mean_by_sum(values)) return FORM_SUM_COUNT;
  return is_moment(k) ? FORM_MOMENTS : FORM_ONE;
}

/* How a partial of a one-column aggregation merges. */
static gcol_groupby_agg_kind merge_kind(gcol_groupby_agg_kind k) {
  return k == GCOL_GROUPBY_MIN || k == GCOL_GROUPBY_MAX ? k : GCOL_GROUPBY_SUM;
}

typedef struct groupby_plan {
  int32_t num_partials;
  gcol_groupby_agg *partial_aggs;     /* one per partial */
  gcol_groupby_request *partial_reqs; /* one per partial, over the input's columns */
  partial_form *forms;                /* per aggregation */
  int32_t *first_partial;             /* per aggregation: its first partial */
  int32_t *first_merge;               /* per aggregation: its first merge (ONE, SUM_COUNT) */
  gcol_groupby_agg *merge_aggs;       /* per partial of ONE and SUM_COUNT aggregations */
  gcol_groupby_request *merge_reqs;
  int32_t num_merges;
  int32_t num_moments;
  gcol_groupby_result *merged;   /* the ONE and SUM_COUNT partials merged */
  gcol_groupby_result **moments; /* per aggregation: its count/mean/M2 merge, or NULL */
  gcol_column **columns;         /* the output's columns */
} groupby_plan;

static void plan_free(groupby_plan *p, int32_t num_aggs, int32_t num_columns) {
  for (int32_t i = 0; p->moments != NULL && i < num_aggs; ++i)
    gcol_groupby_result_free(p->moments[i]);
  for (int32_t c = 0; p->columns != NULL && c < num_columns; ++c) gcol_column_free(p->columns[c]);
  gcol_groupby_result_free(p->merged);
  free(p->partial_aggs);
  free(p->partial_reqs);
  free(p->forms);
  free(p->first_partial);
  free(p->first_merge);
  free(p->merge_aggs);
  free(p->merge_reqs);
  free(p->moments);
  free(p->columns);
}

static gcol_status check_aggs(const gcol_dist_table *input, const gcol_dist_agg *aggs,
                              int32_t num_aggs) {
  GCOL_DETAIL_REQUIRE(num_aggs >= 0 && (num_aggs == 0 || aggs != NULL), GCOL_ERROR_INVALID_ARGUMENT,
                      "%d aggregations at %p", num_aggs, (const void *)aggs);
  for (int32_t i = 0; i < num_aggs; ++i) {
    gcol_groupby_agg_kind const k = aggs[i].agg.kind;
    GCOL_DETAIL_REQUIRE(aggs[i].column >= 0 && aggs[i].column < input->local->num_columns,
                        GCOL_ERROR_INVALID_ARGUMENT, "aggregation %d: column %d of %d", i,
                        aggs[i].column, input->local->num_columns);
    GCOL_DETAIL_REQUIRE(k == GCOL_GROUPBY_SUM || k == GCOL_GROUPBY_MIN || k == GCOL_GROUPBY_MAX ||
                            k == GCOL_GROUPBY_COUNT_VALID || k == GCOL_GROUPBY_COUNT_ALL ||
                            is_moment(k),
                        GCOL_ERROR_UNSUPPORTED,
                        "aggregation %d: %s is not distributed yet (SUM, MIN, MAX, COUNT_VALID, "
                        "COUNT_ALL, MEAN, VARIANCE, STD, M2 are)",
                        i, gcol_groupby_agg_name(k));
    gcol_data_type t;
    gcol_status const st =
        gcol_groupby_output_type(input->local->columns[aggs[i].column]->type, &aggs[i].agg, &t);
    if (st != GCOL_OK) return st;
  }
  return GCOL_OK;
}

/* Adds partial `kind` over `values` and, unless NONE, the aggregation that merges it. */
static void add_partial(groupby_plan *p, gcol_column_view values, gcol_groupby_agg agg,
                        bool merged) {
  p->partial_aggs[p->num_partials] = agg;
  p->partial_reqs[p->num_partials] =
      (gcol_groupby_request){values, &p->partial_aggs[p->num_partials], 1};
  p->num_partials += 1;
  if (merged) p->merge_aggs[p->num_merges++] = gcol_groupby_agg_make(merge_kind(agg.kind));
}

/* The partial aggregations and the merges of the ONE and SUM_COUNT ones. */
static gcol_status make_plan(const gcol_dist_table *input, const gcol_dist_agg *aggs,
                             int32_t num_aggs, groupby_plan *p) {
  size_t const n = (size_t)(num_aggs > 0 ? num_aggs : 1);
  p->partial_aggs = (gcol_groupby_agg *)calloc(3 * n, sizeof *p->partial_aggs);
  p->partial_reqs = (gcol_groupby_request *)calloc(3 * n, sizeof *p->partial_reqs);
  p->forms = (partial_form *)calloc(n, sizeof *p->forms);
  p->first_partial = (int32_t *)calloc(n, sizeof *p->first_partial);
  p->first_merge = (int32_t *)calloc(n, sizeof *p->first_merge);
  p->merge_aggs = (gcol_groupby_agg *)calloc(2 * n, sizeof *p->merge_aggs);
  p->merge_reqs = (gcol_groupby_request *)calloc(2 * n, sizeof *p->merge_reqs);
  p->moments = (gcol_groupby_result **)calloc(n, sizeof *p->moments);
  p->columns = (gcol_column **)calloc(n + GCOL_DIST_MAX_KEYS, sizeof *p->columns);
  if (p->partial_aggs == NULL || p->partial_reqs == NULL || p->forms == NULL ||
      p->first_partial == NULL || p->first_merge == NULL || p->merge_aggs == NULL ||
      p->merge_reqs == NULL || p->moments == NULL || p->columns == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_dist_groupby", "out of memory");
  }
  for (int32_t i = 0; i < num_aggs; ++i) {
    gcol_column_view const values = gcol_table_get_view(input->local).columns[aggs[i].column];
    p->forms[i] = form_of(aggs[i].agg.kind, values.type.id);
    p->first_partial[i] = p->num_partials;
    p->first_merge[i] = p->num_merges;
    switch (p->forms[i]) {
      case FORM_ONE:
        add_partial(p, values, aggs[i].agg, true);
        break;
      case FORM_SUM_COUNT:
        add_partial(p, values, gcol_groupby_agg_make(GCOL_GROUPBY_SUM), true);
        add_partial(p, values, gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_VALID), true);
        break;
      case FORM_MOMENTS:
        add_partial(p, values, gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_VALID), false);
        add_partial(p, values, gcol_groupby_agg_make(GCOL_GROUPBY_MEAN), false);
        add_partial(p, values, gcol_groupby_agg_make(GCOL_GROUPBY_M2), false);
        ++p->num_moments;
        break;
    }
  }
  return GCOL_OK;
}

/* The partial result as one table view: keys, then the partials (views into res). */
static gcol_status partial_view(const gcol_groupby_result *res, int32_t num_keys,
                                gcol_column_view *storage, gcol_table_view *out) {
  gcol_table_view const keys = gcol_table_get_view(res->keys);
  for (int32_t k = 0; k < num_keys; ++k) storage[k] = keys.columns[k];
  for (int32_t c = 0; c < res->num_columns; ++c) {
    storage[num_keys + c] = gcol_column_get_view(res->columns[c]);
  }
  return gcol_table_view_make(storage, num_keys + res->num_columns, out);
}

/* Merges the shuffled partials: one groupby for the ONE and SUM_COUNT partials, one
 * gcol_groupby_merge_m2() per moment; sorted keys align them when there are several. */
static gcol_status merge(groupby_plan *p, gcol_table_view shuffled, int32_t num_keys,
                         int32_t num_aggs, const gcol_groupby_options *options, gcol_stream stream,
                         gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_groupby_options opt = {false, false};
  if (options != NULL) opt = *options;
  int32_t const calls = (p->num_merges > 0 || p->num_moments == 0) + p->num_moments;
  if (calls > 1) opt.sort_keys = true;
  gcol_table_view const keys = {num_keys, shuffled.num_rows, shuffled.columns};
  for (int32_t i = 0; i < num_aggs; ++i) {
    if (p->forms[i] == FORM_MOMENTS) continue;
    int32_t const parts = p->forms[i] == FORM_SUM_COUNT ? 2 : 1;
    for (int32_t j = 0; j < parts; ++j) {
      int32_t const m = p->first_merge[i] + j;
      p->merge_reqs[m] = (gcol_groupby_request){
          shuffled.columns[num_keys + p->first_partial[i] + j], &p->merge_aggs[m], 1};
    }
  }
  if (p->num_merges > 0 || p->num_moments == 0) {
    GCOL_DETAIL_TRY(
        gcol_groupby_aggregate(keys, p->merge_reqs, p->num_merges, &opt, &p->merged, stream, mr));
  }
  for (int32_t i = 0; i < num_aggs; ++i) {
    if (p->forms[i] != FORM_MOMENTS) continue;
    const gcol_column_view *c = shuffled.columns + num_keys + p->first_partial[i];
    GCOL_DETAIL_TRY(
        gcol_groupby_merge_m2(keys, c[0], c[1], c[2], &opt, &p->moments[i], stream, mr));
  }
done:
  return status;
}

/* Moves a merged column out of its result. */
static gcol_column *take(gcol_column **slot) {
  gcol_column *c = *slot;
  *slot = NULL;
  return c;
}

/* The output's columns: the keys (from the first merge), then each aggregation's result. */
static gcol_status finish(groupby_plan *p, int32_t num_keys, const gcol_dist_agg *aggs,
                          int32_t num_aggs, gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_groupby_result *with_keys = p->merged;
  for (int32_t i = 0; with_keys == NULL && i < num_aggs; ++i) with_keys = p->moments[i];
  for (int32_t k = 0; k < num_keys; ++k) p->columns[k] = take(&with_keys->keys->columns[k]);
  for (int32_t i = 0; i < num_aggs; ++i) {
    gcol_column **slot = &p->columns[num_keys + i];
    gcol_groupby_agg_kind const k = aggs[i].agg.kind;
    gcol_column **merged = p->merged != NULL ? p->merged->columns + p->first_merge[i] : NULL;
    if (p->forms[i] == FORM_ONE) {
      *slot = take(&merged[0]);
    } else if (p->forms[i] == FORM_SUM_COUNT) {
      GCOL_DETAIL_TRY(gcol_detail_dist_mean(gcol_column_get_view(merged[0]),
                                            gcol_column_get_view(merged[1]), slot, stream, mr));
    } else if (k == GCOL_GROUPBY_MEAN || k == GCOL_GROUPBY_M2) {
      *slot = take(&p->moments[i]->columns[k == GCOL_GROUPBY_MEAN ? 1 : 2]);
    } else {
      GCOL_DETAIL_TRY(gcol_detail_dist_variance(gcol_column_get_view(p->moments[i]->columns[0]),
                                                gcol_column_get_view(p->moments[i]->columns[2]),
                                                aggs[i].agg.ddof, k == GCOL_GROUPBY_STD, slot,
                                                stream, mr));
    }
  }
  GCOL_DETAIL_TRY(gcol_table_make(p->columns, num_keys + num_aggs, out));
  memset(p->columns, 0, (size_t)(num_keys + num_aggs) * sizeof *p->columns); /* the table's */
done:
  return status;
}

/* Keys then one column per aggregation, from a plain local groupby (input hashed already). */
static gcol_status aggregate_in_place(const gcol_dist_table *input, const int32_t *keys,
                                      int32_t num_keys, const gcol_dist_agg *aggs, int32_t num_aggs,
                                      const gcol_groupby_options *options, gcol_table **out,
                                      gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view storage[GCOL_DIST_MAX_KEYS];
  gcol_table_view key_view;
  groupby_plan p;
  memset(&p, 0, sizeof p);
  GCOL_DETAIL_TRY(make_plan(input, aggs, num_aggs, &p)); /* for its arrays */
  gcol_table_view const all = gcol_table_get_view(input->local);
  GCOL_DETAIL_TRY(gcol_table_view_select(all, keys, num_keys, storage, &key_view));
  for (int32_t i = 0; i < num_aggs; ++i) {
    p.merge_aggs[i] = aggs[i].agg;
    p.merge_reqs[i] = (gcol_groupby_request){all.columns[aggs[i].column], &p.merge_aggs[i], 1};
  }
  GCOL_DETAIL_TRY(
      gcol_groupby_aggregate(key_view, p.merge_reqs, num_aggs, options, &p.merged, stream, mr));
  for (int32_t k = 0; k < num_keys; ++k) {
    p.columns[k] = p.merged->keys->columns[k];
    p.merged->keys->columns[k] = NULL;
  }
  for (int32_t i = 0; i < num_aggs; ++i) {
    p.columns[num_keys + i] = p.merged->columns[i];
    p.merged->columns[i] = NULL;
  }
  GCOL_DETAIL_TRY(gcol_table_make(p.columns, num_keys + num_aggs, out));
  memset(p.columns, 0, (size_t)(num_keys + num_aggs) * sizeof *p.columns);
done:
  plan_free(&p, num_aggs, num_keys + num_aggs);
  return status;
}

/* Pre-aggregates, shuffles the partials, merges. */
static gcol_status aggregate_shuffled(gcol_dist_comm *comm, gcol_status local,
                                      const gcol_dist_table *input, const int32_t *keys,
                                      int32_t num_keys, const gcol_dist_agg *aggs, int32_t num_aggs,
                                      const gcol_groupby_options *options, gcol_table **out,
                                      gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  groupby_plan p;
  gcol_groupby_result *partial = NULL;
  gcol_table *shuffled = NULL;
  gcol_column_view *storage = NULL;
  gcol_column_view key_storage[GCOL_DIST_MAX_KEYS];
  gcol_table_view key_view, partial_table = {0, 0, NULL};
  int32_t positions[GCOL_DIST_MAX_KEYS];
  memset(&p, 0, sizeof p);
  for (int32_t k = 0; k < num_keys && local == GCOL_OK; ++k) positions[k] = k;
  if (local == GCOL_OK) local = make_plan(input, aggs, num_aggs, &p);
  if (local == GCOL_OK) {
    storage = (gcol_column_view *)calloc((size_t)(num_keys + p.num_partials), sizeof *storage);
    if (storage == NULL)
      local = gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  }
  if (local == GCOL_OK) {
    local = gcol_table_view_select(gcol_table_get_view(input->local), keys, num_keys, key_storage,
                                   &key_view);
  }
  if (local == GCOL_OK) {
    local = gcol_groupby_aggregate(key_view, p.partial_reqs, p.num_partials, options, &partial,
                                   stream, NULL);
  }
  if (local == GCOL_OK) local = partial_view(partial, num_keys, storage, &partial_table);
  GCOL_DETAIL_TRY(gcol_detail_dist_shuffle_view(comm, local, partial_table, positions, num_keys,
                                                &shuffled, stream, NULL));
  gcol_groupby_result_free(partial); /* the partials travelled: free them early */
  partial = NULL;
  local = merge(&p, gcol_table_get_view(shuffled), num_keys, num_aggs, options, stream, mr);
  if (local == GCOL_OK) local = finish(&p, num_keys, aggs, num_aggs, out, stream, mr);
  status = local;
done:
  gcol_groupby_result_free(partial);
  gcol_table_free(shuffled);
  free(storage);
  plan_free(&p, num_aggs, num_keys + num_aggs);
  return status;
}

gcol_status gcol_dist_groupby(gcol_dist_comm *comm, const gcol_dist_table *input,
                              const int32_t *key_columns, int32_t num_keys,
                              const gcol_dist_agg *aggs, int32_t num_aggs,
                              const gcol_groupby_options *options, gcol_dist_table **out,
                              gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *local_out = NULL;
  int32_t positions[GCOL_DIST_MAX_KEYS];
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_groupby");
  GCOL_DETAIL_CHECK_NOT_NULL(comm);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  gcol_status local = gcol_detail_dist_check_table(input, "input", key_columns, num_keys);
  if (local == GCOL_OK) local = check_aggs(input, aggs, num_aggs);
  if (local == GCOL_OK && gcol_detail_dist_hashed_on(comm, input, key_columns, num_keys)) {
    local = aggregate_in_place(input, key_columns, num_keys, aggs, num_aggs, options, &local_out,
                               stream, mr);
  } else {
    /* every rank takes this branch (the partitioning is global), so the collectives match */
    local = aggregate_shuffled(comm, local, input, key_columns, num_keys, aggs, num_aggs, options,
                               &local_out, stream, mr);
  }
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
  int64_t rows = local_out->num_rows;
  GCOL_DETAIL_TRY(gcol_detail_dist_allreduce_i64(comm, &rows, 1, GCOL_DETAIL_DIST_SUM));
  for (int32_t k = 0; k < num_keys; ++k) positions[k] = k;
  local = gcol_detail_dist_table_wrap(local_out, rows, GCOL_DIST_PARTITION_HASH, positions,
                                      num_keys, out);
  if (local == GCOL_OK) local_out = NULL;
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
done:
  if (status != GCOL_OK && out != NULL) {
    gcol_dist_table_free(*out);
    *out = NULL;
  }
  gcol_table_free(local_out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
