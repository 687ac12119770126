/* Joins and groupby over frames (include/gcol/frame_ops.h): columns found by name, the table
 * operation run on the frames' views, the result named by the header's rules. Host
 * bookkeeping around gcol_join_tables() and gcol_groupby_aggregate(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/frame_ops.h"
#include "internal/error.h"
#include "internal/nvtx.h"

/* ---- names of a result ---- */

/* `count` names of `levels` levels: levels borrowed from the input frames, except a last
 * level made here (owned[i]), freed with the list after gcol_frame_make copied them. */
typedef struct name_list {
  int32_t count, levels;
  const char **strings; /* count * levels */
  char **owned;         /* count */
  gcol_name *names;     /* count */
} name_list;

static void name_list_free(name_list *l) {
  for (int32_t i = 0; l->owned != NULL && i < l->count; ++i) free(l->owned[i]);
  free(l->owned);
  free(l->strings);
  free(l->names);
  memset(l, 0, sizeof *l);
}

static gcol_status name_list_init(name_list *l, int32_t count, int32_t levels) {
  size_t const n = count > 0 ? (size_t)count : 1;
  l->count = count;
  l->levels = levels;
  l->strings = (const char **)calloc(n * (size_t)levels, sizeof *l->strings);
  l->owned = (char **)calloc(n, sizeof *l->owned);
  l->names = (gcol_name *)calloc(n, sizeof *l->names);
  if (l->strings == NULL || l->owned == NULL || l->names == NULL) {
    name_list_free(l);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "no host memory for %d names",
                             (int)count);
  }
  return GCOL_OK;
}

/* Name i: `source` with its last level replaced by `last` (NULL: kept), then `suffix`
 * (NULL: none) appended to it. */
static gcol_status name_list_set(name_list *l, int32_t i, gcol_name source, const char *last,
                                 const char *suffix) {
  const char **levels = l->strings + (size_t)i * (size_t)l->levels;
  for (int32_t k = 0; k < l->levels; ++k) levels[k] = source.levels[k];
  if (last != NULL || suffix != NULL) {
    const char *const base = last != NULL ? last : source.levels[l->levels - 1];
    const char *const tail = suffix != NULL ? suffix : "";
    size_t const size = strlen(base) + strlen(tail) + 1;
    char *made = (char *)malloc(size);
    GCOL_DETAIL_REQUIRE(made != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for a name");
    memcpy(made, base, strlen(base));
    memcpy(made + strlen(base), tail, strlen(tail) + 1);
    l->owned[i] = made;
    levels[l->levels - 1] = made;
  }
  l->names[i] = gcol_name_make(levels, l->levels);
  return GCOL_OK;
}

static bool names_equal(gcol_name a, gcol_name b) {
  if (a.num_levels != b.num_levels) return false;
  for (int32_t k = 0; k < a.num_levels; ++k) {
    if (strcmp(a.levels[k], b.levels[k]) != 0) return false;
  }
  return true;
}

/* The name of column `index` of a frame (checked by the caller's lookups). */
static gcol_name name_of(const gcol_frame *frame, int32_t index) {
  gcol_name name;
  memset(&name, 0, sizeof name);
  (void)gcol_frame_get_name(frame, index, &name);
  return name;
}

/* The indices of `count` names, into a new array. */
static gcol_status lookup(const gcol_frame *frame, const gcol_name *names, int32_t count,
                          int32_t **out) {
  *out = (int32_t *)malloc(sizeof **out * (size_t)(count > 0 ? count : 1));
  GCOL_DETAIL_REQUIRE(*out != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d indices",
                      (int)count);
  return gcol_frame_indices(frame, names, count, *out);
}

/* ---- join ---- */

void gcol_frame_join_options_init(gcol_frame_join_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->nulls = GCOL_NULLS_EQUAL;
  options->keep_right_keys = false;
  options->left_suffix = "_x";
  options->right_suffix = "_y";
}

static bool contains(const int32_t *indices, int32_t count, int32_t value) {
  for (int32_t i = 0; i < count; ++i) {
    if (indices[i] == value) return true;
  }
  return false;
}

/* The result's names: left columns, then the kept right ones, suffixed where they collide. */
static gcol_status join_names(const gcol_frame *left, const gcol_frame *right, const bool *kept,
                              const gcol_frame_join_options *o, name_list *names) {
  int32_t const nl = gcol_frame_num_columns(left), nr = gcol_frame_num_columns(right);
  int32_t out = 0;
  for (int32_t i = 0; i < nl; ++i) {
    bool collides = false;
    for (int32_t j = 0; j < nr && !collides; ++j) {
      collides = kept[j] && names_equal(name_of(left, i), name_of(right, j));
    }
    gcol_status const status =
        name_list_set(names, out++, name_of(left, i), NULL, collides ? o->left_suffix : NULL);
    if (status != GCOL_OK) return status;
  }
  for (int32_t j = 0; j < nr; ++j) {
    if (!kept[j]) continue;
    bool collides = false;
    for (int32_t i = 0; i < nl && !collides; ++i) {
      collides = names_equal(name_of(left, i), name_of(right, j));
    }
    gcol_status const status =
        name_list_set(names, out++, name_of(right, j), NULL, collides ? o->right_suffix : NULL);
    if (status != GCOL_OK) return status;
  }
  return GCOL_OK;
}

static gcol_status frame_join(const gcol_frame *left, const gcol_name *left_on,
                              const gcol_frame *right, const gcol_name *right_on, int32_t num_keys,
                              gcol_join_kind kind, const gcol_frame_join_options *options,
                              gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int32_t *li = NULL, *ri = NULL;
  bool *kept = NULL;
  gcol_table *table = NULL;
  name_list names;
  memset(&names, 0, sizeof names);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(left != NULL && right != NULL && left_on != NULL && right_on != NULL,
                    GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                    left == NULL    ? "left"
                    : right == NULL ? "right"
                    : left_on == NULL ? "left_on"
                                      : "right_on");
  GCOL_DETAIL_CHECK(num_keys >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_keys is %d (at least 1)",
                    (int)num_keys);
  gcol_frame_join_options o;
  gcol_frame_join_options_init(&o);
  if (options != NULL) o = *options;
  GCOL_DETAIL_CHECK(o.left_suffix != NULL && o.right_suffix != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "the %s suffix is NULL", o.left_suffix == NULL ? "left" : "right");
  GCOL_DETAIL_CHECK(strcmp(o.left_suffix, o.right_suffix) != 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "the left and right suffixes are both \"%s\"", o.left_suffix);
  int32_t const levels = gcol_frame_num_levels(left);
  GCOL_DETAIL_CHECK(levels == gcol_frame_num_levels(right), GCOL_ERROR_INVALID_ARGUMENT,
                    "the left frame's names have %d levels, the right frame's %d", (int)levels,
                    (int)gcol_frame_num_levels(right));
  GCOL_DETAIL_TRY(lookup(left, left_on, num_keys, &li));
  GCOL_DETAIL_TRY(lookup(right, right_on, num_keys, &ri));
  GCOL_DETAIL_TRY(gcol_join_tables(gcol_frame_get_view(left), li, gcol_frame_get_view(right), ri,
                                   num_keys, kind, o.nulls, !o.keep_right_keys, &table, stream,
                                   mr));
  int32_t const nr = gcol_frame_num_columns(right);
  bool const left_only = kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI;
  kept = (bool *)calloc((size_t)(nr > 0 ? nr : 1), sizeof *kept);
  GCOL_DETAIL_CHECK(kept != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  int32_t count = gcol_frame_num_columns(left);
  for (int32_t j = 0; j < nr; ++j) {
    kept[j] = !left_only && (o.keep_right_keys || !contains(ri, num_keys, j));
    count += kept[j];
  }
  GCOL_DETAIL_CHECK(count == table->num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                    "the join gave %d columns where %d names were expected",
                    (int)table->num_columns, (int)count);
  GCOL_DETAIL_TRY(name_list_init(&names, count, levels));
  GCOL_DETAIL_TRY(join_names(left, right, kept, &o, &names));
  GCOL_DETAIL_TRY(gcol_frame_make(table, names.names, count, levels, out));
  table = NULL;
done:
  gcol_table_free(table);
  name_list_free(&names);
  free(kept);
  free(li);
  free(ri);
  return status;
}

gcol_status gcol_frame_join(const gcol_frame *left, const gcol_name *left_on,
                            const gcol_frame *right, const gcol_name *right_on, int32_t num_keys,
                            gcol_join_kind kind, const gcol_frame_join_options *options,
                            gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_join");
  gcol_status const status =
      frame_join(left, left_on, right, right_on, num_keys, kind, options, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- groupby ---- */

/* One request per distinct value column, in order of first use; request_of[a] and
 * position[a] place aggregation a among the result's columns. */
typedef struct agg_plan {
  int32_t num_requests;
  gcol_groupby_request *requests;
  gcol_groupby_agg *aggs;   /* the requests' aggregations, request by request */
  int32_t *result_column;   /* per aggregation: its column in the groupby result */
} agg_plan;

static void agg_plan_free(agg_plan *p) {
  free(p->requests);
  free(p->aggs);
  free(p->result_column);
  memset(p, 0, sizeof *p);
}

static gcol_status agg_plan_make(gcol_table_view view, const int32_t *value_index,
                                 const gcol_frame_agg *aggs, int32_t num_aggs, agg_plan *p) {
  size_t const n = num_aggs > 0 ? (size_t)num_aggs : 1;
  int32_t *request_of = (int32_t *)malloc(n * sizeof *request_of);
  p->requests = (gcol_groupby_request *)calloc(n, sizeof *p->requests);
  p->aggs = (gcol_groupby_agg *)malloc(n * sizeof *p->aggs);
  p->result_column = (int32_t *)malloc(n * sizeof *p->result_column);
  if (request_of == NULL || p->requests == NULL || p->aggs == NULL || p->result_column == NULL) {
    free(request_of);
    agg_plan_free(p);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "no host memory");
  }
  int32_t *first = p->result_column; /* first aggregation of each request, for now */
  for (int32_t a = 0; a < num_aggs; ++a) {
    int32_t r = 0;
    while (r < p->num_requests && value_index[first[r]] != value_index[a]) ++r;
    if (r == p->num_requests) first[p->num_requests++] = a;
    request_of[a] = r;
  }
  int32_t placed = 0; /* the requests' aggregations side by side, request by request */
  for (int32_t r = 0; r < p->num_requests; ++r) {
    p->requests[r].values = view.columns[value_index[first[r]]];
    p->requests[r].aggs = p->aggs + placed;
    for (int32_t a = 0; a < num_aggs; ++a) {
      if (request_of[a] == r) p->aggs[placed++] = aggs[a].agg;
    }
    p->requests[r].num_aggs = (int32_t)(placed - (p->requests[r].aggs - p->aggs));
  }
  for (int32_t a = 0; a < num_aggs; ++a) { /* result column: earlier requests, then order */
    int32_t column = 0;
    for (int32_t r = 0; r < request_of[a]; ++r) column += p->requests[r].num_aggs;
    for (int32_t b = 0; b < a; ++b) column += request_of[b] == request_of[a];
    p->result_column[a] = column;
  }
  free(request_of);
  return GCOL_OK;
}

/* The result frame: the key columns, then the aggregations' columns in the order given
 * (taken out of `result`). */
static gcol_status groupby_frame(const gcol_frame *frame, const int32_t *key_index,
                                 int32_t num_keys, const int32_t *value_index,
                                 const gcol_frame_agg *aggs, int32_t num_aggs,
                                 const agg_plan *plan, gcol_groupby_result *result,
                                 gcol_frame **out) {
  gcol_status status = GCOL_OK;
  gcol_column **keys = NULL, **columns = NULL;
  gcol_table *table = NULL;
  int32_t num_key_columns = 0;
  int32_t const levels = gcol_frame_num_levels(frame), count = num_keys + num_aggs;
  name_list names;
  memset(&names, 0, sizeof names);
  GCOL_DETAIL_TRY(name_list_init(&names, count, levels));
  for (int32_t k = 0; k < num_keys; ++k) {
    GCOL_DETAIL_TRY(name_list_set(&names, k, name_of(frame, key_index[k]), NULL, NULL));
  }
  for (int32_t a = 0; a < num_aggs; ++a) {
    char suffix[64];
    snprintf(suffix, sizeof suffix, "_%s", gcol_groupby_agg_name(aggs[a].agg.kind));
    GCOL_DETAIL_TRY(name_list_set(&names, num_keys + a, name_of(frame, value_index[a]),
                                  aggs[a].name, aggs[a].name != NULL ? NULL : suffix));
  }
  columns = (gcol_column **)calloc((size_t)count, sizeof *columns);
  GCOL_DETAIL_CHECK(columns != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  GCOL_DETAIL_TRY(gcol_table_release(result->keys, &keys, &num_key_columns));
  result->keys = NULL;
  for (int32_t k = 0; k < num_key_columns; ++k) columns[k] = keys[k];
  for (int32_t a = 0; a < num_aggs; ++a) {
    columns[num_keys + a] = result->columns[plan->result_column[a]];
    result->columns[plan->result_column[a]] = NULL;
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, count, &table));
  for (int32_t c = 0; c < count; ++c) columns[c] = NULL; /* the table's now */
  GCOL_DETAIL_TRY(gcol_frame_make(table, names.names, count, levels, out));
  table = NULL;
done:
  for (int32_t c = 0; columns != NULL && c < count; ++c) gcol_column_free(columns[c]);
  free(columns);
  free(keys);
  gcol_table_free(table);
  name_list_free(&names);
  return status;
}

static gcol_status frame_groupby(const gcol_frame *frame, const gcol_name *keys, int32_t num_keys,
                                 const gcol_frame_agg *aggs, int32_t num_aggs,
                                 const gcol_groupby_options *options, gcol_frame **out,
                                 gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int32_t *key_index = NULL, *value_index = NULL;
  gcol_name *value_names = NULL;
  gcol_column_view *key_storage = NULL;
  gcol_groupby_result *result = NULL;
  agg_plan plan;
  memset(&plan, 0, sizeof plan);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(frame != NULL && keys != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                    frame == NULL ? "frame" : "keys");
  GCOL_DETAIL_CHECK(num_keys >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_keys is %d (at least 1)",
                    (int)num_keys);
  GCOL_DETAIL_CHECK(num_aggs >= 0 && (aggs != NULL || num_aggs == 0), GCOL_ERROR_INVALID_ARGUMENT,
                    "%s", num_aggs < 0 ? "num_aggs is negative" : "aggs is NULL");
  GCOL_DETAIL_TRY(lookup(frame, keys, num_keys, &key_index));
  value_names = (gcol_name *)malloc(sizeof *value_names * (size_t)(num_aggs > 0 ? num_aggs : 1));
  GCOL_DETAIL_CHECK(value_names != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  for (int32_t a = 0; a < num_aggs; ++a) value_names[a] = aggs[a].column;
  GCOL_DETAIL_TRY(lookup(frame, value_names, num_aggs, &value_index));
  gcol_table_view const view = gcol_frame_get_view(frame);
  key_storage = (gcol_column_view *)malloc(sizeof *key_storage * (size_t)num_keys);
  GCOL_DETAIL_CHECK(key_storage != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory");
  gcol_table_view key_view;
  GCOL_DETAIL_TRY(gcol_table_view_select(view, key_index, num_keys, key_storage, &key_view));
  GCOL_DETAIL_TRY(agg_plan_make(view, value_index, aggs, num_aggs, &plan));
  GCOL_DETAIL_TRY(gcol_groupby_aggregate(key_view, plan.requests, plan.num_requests, options,
                                         &result, stream, mr));
  GCOL_DETAIL_TRY(groupby_frame(frame, key_index, num_keys, value_index, aggs, num_aggs, &plan,
                                result, out));
done:
  gcol_groupby_result_free(result);
  agg_plan_free(&plan);
  free(key_storage);
  free(value_names);
  free(value_index);
  free(key_index);
  return status;
}

gcol_status gcol_frame_groupby(const gcol_frame *frame, const gcol_name *keys, int32_t num_keys,
                               const gcol_frame_agg *aggs, int32_t num_aggs,
                               const gcol_groupby_options *options, gcol_frame **out,
                               gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_groupby");
  gcol_status const status =
      frame_groupby(frame, keys, num_keys, aggs, num_aggs, options, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
