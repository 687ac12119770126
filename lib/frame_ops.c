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

/* ---- row operations: the table operation's result under the input's names ---- */

/* Makes `*out` a frame over `*table` named as `like`'s columns, in order. Takes the table
 * either way: it is the new frame's on success and freed on failure; `*table` is NULL after. */
static gcol_status frame_named_like(const gcol_frame *like, gcol_table **table, gcol_frame **out) {
  gcol_status status = GCOL_OK;
  int32_t const count = gcol_frame_num_columns(like);
  gcol_name *names = (gcol_name *)calloc((size_t)(count > 0 ? count : 1), sizeof *names);
  GCOL_DETAIL_CHECK(names != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d names",
                    (int)count);
  GCOL_DETAIL_CHECK((*table)->num_columns == count, GCOL_ERROR_INVALID_ARGUMENT,
                    "the operation gave %d columns for %d names", (int)(*table)->num_columns,
                    (int)count);
  for (int32_t i = 0; i < count; ++i) names[i] = name_of(like, i);
  GCOL_DETAIL_TRY(gcol_frame_make(*table, names, count, gcol_frame_num_levels(like), out));
  *table = NULL;
done:
  gcol_table_free(*table);
  *table = NULL;
  free(names);
  return status;
}

/* The view of the columns named by `names` (indices into a new array, views into a new
 * storage array; both the caller's to free). */
static gcol_status select_named(const gcol_frame *frame, const gcol_name *names, int32_t count,
                                int32_t **indices, gcol_column_view **storage,
                                gcol_table_view *out) {
  gcol_status const status = lookup(frame, names, count, indices);
  if (status != GCOL_OK) return status;
  *storage = (gcol_column_view *)malloc(sizeof **storage * (size_t)(count > 0 ? count : 1));
  GCOL_DETAIL_REQUIRE(*storage != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d views",
                      (int)count);
  return gcol_table_view_select(gcol_frame_get_view(frame), *indices, count, *storage, out);
}

static gcol_status frame_sort(const gcol_frame *frame, const gcol_name *by, int32_t num_by,
                              const gcol_order *order, const gcol_null_order *null_order,
                              gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;
  gcol_column_view *storage = NULL;
  gcol_table *table = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(frame != NULL && by != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                    frame == NULL ? "frame" : "by");
  GCOL_DETAIL_CHECK(num_by >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_by is %d (at least 1)",
                    (int)num_by);
  gcol_table_view keys;
  GCOL_DETAIL_TRY(select_named(frame, by, num_by, &indices, &storage, &keys));
  GCOL_DETAIL_TRY(gcol_stable_sort_by_key(gcol_frame_get_view(frame), keys, order, null_order,
                                          &table, stream, mr));
  GCOL_DETAIL_TRY(frame_named_like(frame, &table, out));
done:
  gcol_table_free(table);
  free(storage);
  free(indices);
  return status;
}

gcol_status gcol_frame_sort(const gcol_frame *frame, const gcol_name *by, int32_t num_by,
                            const gcol_order *order, const gcol_null_order *null_order,
                            gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_sort");
  gcol_status const status = frame_sort(frame, by, num_by, order, null_order, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status frame_apply_boolean_mask(const gcol_frame *frame, gcol_column_view mask,
                                            gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *table = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_TRY(gcol_apply_boolean_mask(gcol_frame_get_view(frame), mask, &table, stream, mr));
  GCOL_DETAIL_TRY(frame_named_like(frame, &table, out));
done:
  gcol_table_free(table);
  return status;
}

gcol_status gcol_frame_apply_boolean_mask(const gcol_frame *frame, gcol_column_view boolean_mask,
                                          gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_apply_boolean_mask");
  gcol_status const status = frame_apply_boolean_mask(frame, boolean_mask, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Writes "('a', 'b')" (at most size bytes) for messages. */
static const char *name_text(gcol_name name, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int32_t l = 0; l < name.num_levels && used + 1 < size; ++l) {
    int const n = snprintf(buf + used, size - used, "%s'%s'%s", l == 0 ? "(" : ", ", name.levels[l],
                           l + 1 == name.num_levels ? ")" : "");
    if (n < 0) break;
    used += (size_t)n;
  }
  return buf;
}

/* Writes "int64", or "decimal64 (scale -2)" for decimals, for messages. */
static const char *type_text(gcol_data_type type, char *buf, size_t size) {
  if (type.scale != 0) {
    snprintf(buf, size, "%s (scale %d)", gcol_type_name(type.id), (int)type.scale);
  } else {
    snprintf(buf, size, "%s", gcol_type_name(type.id));
  }
  return buf;
}

static gcol_status frame_filter(const gcol_frame *frame, gcol_name mask, gcol_frame **out,
                                gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int32_t index = -1;
  char text[256];
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_TRY(gcol_frame_indices(frame, &mask, 1, &index));
  gcol_data_type const type = gcol_frame_get_column(frame, index)->type;
  GCOL_DETAIL_CHECK(type.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "the mask column %s is %s, not bool8", name_text(mask, text, sizeof text),
                    gcol_type_name(type.id));
  gcol_table_view const view = gcol_frame_get_view(frame);
  GCOL_DETAIL_TRY(frame_apply_boolean_mask(frame, view.columns[index], out, stream, mr));
done:
  return status;
}

gcol_status gcol_frame_filter(const gcol_frame *frame, gcol_name mask, gcol_frame **out,
                              gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_filter");
  gcol_status const status = frame_filter(frame, mask, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status frame_distinct(const gcol_frame *frame, const gcol_name *subset,
                                  int32_t num_subset, gcol_duplicate_keep keep,
                                  gcol_null_equality nulls, gcol_frame **out, gcol_stream stream,
                                  gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int32_t *keys = NULL;
  gcol_table *table = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_CHECK(num_subset >= 0 && (subset != NULL || num_subset == 0),
                    GCOL_ERROR_INVALID_ARGUMENT, "%s",
                    num_subset < 0 ? "num_subset is negative" : "subset is NULL");
  int32_t num_keys = num_subset;
  if (num_subset > 0) {
    GCOL_DETAIL_TRY(lookup(frame, subset, num_subset, &keys));
  } else { /* every column */
    num_keys = gcol_frame_num_columns(frame);
    GCOL_DETAIL_CHECK(num_keys > 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "the frame has no columns, so no key to compare rows by");
    keys = (int32_t *)malloc(sizeof *keys * (size_t)num_keys);
    GCOL_DETAIL_CHECK(keys != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                      (int)num_keys);
    for (int32_t i = 0; i < num_keys; ++i) keys[i] = i;
  }
  GCOL_DETAIL_TRY(
      gcol_distinct(gcol_frame_get_view(frame), keys, num_keys, keep, nulls, &table, stream, mr));
  GCOL_DETAIL_TRY(frame_named_like(frame, &table, out));
done:
  gcol_table_free(table);
  free(keys);
  return status;
}

gcol_status gcol_frame_distinct(const gcol_frame *frame, const gcol_name *subset,
                                int32_t num_subset, gcol_duplicate_keep keep,
                                gcol_null_equality nulls, gcol_frame **out, gcol_stream stream,
                                gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_distinct");
  gcol_status const status =
      frame_distinct(frame, subset, num_subset, keep, nulls, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status frame_gather(const gcol_frame *frame, gcol_column_view gather_map,
                                gcol_out_of_bounds_policy policy,
                                gcol_negative_index_policy negative, gcol_frame **out,
                                gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *table = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_TRY(
      gcol_gather(gcol_frame_get_view(frame), gather_map, policy, negative, &table, stream, mr));
  GCOL_DETAIL_TRY(frame_named_like(frame, &table, out));
done:
  gcol_table_free(table);
  return status;
}

gcol_status gcol_frame_gather(const gcol_frame *frame, gcol_column_view gather_map,
                              gcol_out_of_bounds_policy policy, gcol_negative_index_policy negative,
                              gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_gather");
  gcol_status const status = frame_gather(frame, gather_map, policy, negative, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status frame_slice(const gcol_frame *frame, int64_t begin, int64_t end,
                               gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view *storage = NULL;
  gcol_table *table = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  int64_t const rows = gcol_frame_num_rows(frame);
  GCOL_DETAIL_CHECK(begin >= 0 && begin <= end && end <= rows, GCOL_ERROR_INVALID_ARGUMENT,
                    "rows [%lld, %lld) are not within the frame's %lld rows", (long long)begin,
                    (long long)end, (long long)rows);
  int32_t const count = gcol_frame_num_columns(frame);
  storage = (gcol_column_view *)malloc(sizeof *storage * (size_t)(count > 0 ? count : 1));
  GCOL_DETAIL_CHECK(storage != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d views",
                    (int)count);
  gcol_table_view rows_view;
  GCOL_DETAIL_TRY(
      gcol_table_view_slice(gcol_frame_get_view(frame), begin, end, storage, &rows_view));
  GCOL_DETAIL_TRY(gcol_table_copy(rows_view, stream, mr, &table));
  GCOL_DETAIL_TRY(frame_named_like(frame, &table, out));
done:
  gcol_table_free(table);
  free(storage);
  return status;
}

gcol_status gcol_frame_slice(const gcol_frame *frame, int64_t begin, int64_t end, gcol_frame **out,
                             gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_slice");
  gcol_status const status = frame_slice(frame, begin, end, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_frame_head(const gcol_frame *frame, int64_t n, gcol_frame **out,
                            gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_head");
  int64_t const rows = gcol_frame_num_rows(frame); /* 0 for NULL, refused by the slice */
  int64_t const end = n >= 0 ? (n < rows ? n : rows) : (n > -rows ? rows + n : 0);
  gcol_status const status = frame_slice(frame, 0, end, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status frame_concatenate(const gcol_frame *const *frames, int32_t num_frames,
                                     gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;          /* num_frames * count: frame f's column of name c */
  gcol_column_view *storage = NULL; /* num_frames * count views in the first one's order */
  gcol_table_view *tables = NULL;   /* num_frames */
  gcol_name *names = NULL;          /* count: the first frame's names */
  gcol_table *table = NULL;
  char text[256];
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frames);
  GCOL_DETAIL_CHECK(num_frames >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_frames is %d (at least 1)",
                    (int)num_frames);
  for (int32_t f = 0; f < num_frames; ++f) {
    GCOL_DETAIL_CHECK(frames[f] != NULL, GCOL_ERROR_INVALID_ARGUMENT, "frames[%d] is NULL", (int)f);
  }
  const gcol_frame *const first = frames[0];
  int32_t const count = gcol_frame_num_columns(first), levels = gcol_frame_num_levels(first);
  for (int32_t f = 1; f < num_frames; ++f) {
    GCOL_DETAIL_CHECK(gcol_frame_num_levels(frames[f]) == levels, GCOL_ERROR_INVALID_ARGUMENT,
                      "frames[%d]'s names have %d levels, frames[0]'s %d", (int)f,
                      (int)gcol_frame_num_levels(frames[f]), (int)levels);
    GCOL_DETAIL_CHECK(gcol_frame_num_columns(frames[f]) == count, GCOL_ERROR_INVALID_ARGUMENT,
                      "frames[%d] has %d columns, frames[0] %d: the names must match", (int)f,
                      (int)gcol_frame_num_columns(frames[f]), (int)count);
  }
  size_t const n = (size_t)(count > 0 ? count : 1);
  indices = (int32_t *)malloc(sizeof *indices * n * (size_t)num_frames);
  storage = (gcol_column_view *)malloc(sizeof *storage * n * (size_t)num_frames);
  tables = (gcol_table_view *)malloc(sizeof *tables * (size_t)num_frames);
  names = (gcol_name *)malloc(sizeof *names * n);
  GCOL_DETAIL_CHECK(indices != NULL && storage != NULL && tables != NULL && names != NULL,
                    GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d frames of %d columns",
                    (int)num_frames, (int)count);
  for (int32_t c = 0; c < count; ++c) names[c] = name_of(first, c);
  for (int32_t f = 0; f < num_frames; ++f) {
    int32_t *const own = indices + (size_t)f * n;
    for (int32_t c = 0; c < count; ++c) {
      GCOL_DETAIL_TRY(gcol_frame_find(frames[f], names[c], &own[c]));
      GCOL_DETAIL_CHECK(own[c] >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                        "frames[%d] has no column named %s, as frames[0] has: the names must "
                        "match",
                        (int)f, name_text(names[c], text, sizeof text));
      gcol_data_type const want = gcol_frame_get_column(first, c)->type;
      gcol_data_type const got = gcol_frame_get_column(frames[f], own[c])->type;
      char got_text[64], want_text[64];
      GCOL_DETAIL_CHECK(gcol_data_type_equal(got, want), GCOL_ERROR_TYPE_MISMATCH,
                        "column %s is %s in frames[%d], %s in frames[0]",
                        name_text(names[c], text, sizeof text),
                        type_text(got, got_text, sizeof got_text), (int)f,
                        type_text(want, want_text, sizeof want_text));
    }
  }
  /* views only once every name and type matched (a view may bring spilled buffers back) */
  for (int32_t f = 0; f < num_frames; ++f) {
    int32_t *const own = indices + (size_t)f * n;
    gcol_table_view const view = gcol_frame_get_view(frames[f]);
    GCOL_DETAIL_TRY(gcol_table_view_select(view, own, count, storage + (size_t)f * n, &tables[f]));
  }
  GCOL_DETAIL_TRY(gcol_concatenate_tables(tables, num_frames, &table, stream, mr));
  GCOL_DETAIL_TRY(frame_named_like(first, &table, out));
done:
  gcol_table_free(table);
  free(names);
  free(tables);
  free(storage);
  free(indices);
  return status;
}

gcol_status gcol_frame_concatenate(const gcol_frame *const *frames, int32_t num_frames,
                                   gcol_frame **out, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_concatenate");
  gcol_status const status = frame_concatenate(frames, num_frames, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
