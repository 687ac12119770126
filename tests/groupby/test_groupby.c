/*
 * GPU tests of gcol_groupby_aggregate and gcol_groupby_merge_m2 against the host reference:
 * rows grouped on the host (groupby_reference.c), each group's values reduced with the
 * reductions' independent reference. Output rows are matched to reference groups by key
 * (the output is sorted on the host first; with sort_keys it must already be sorted).
 * Axes: gcol_test_sizes, slice offsets, null keys (kept and dropped) and null values, key
 * types on the direct, packed and general hash paths (ints, floats with -0.0 and NaN,
 * strings with 1- to 4-byte UTF-8, two key columns), one group, groups of one row, every
 * aggregation (27 in one call), merge of partial M2, allocation failures.
 */
#include <math.h>

#include "groupby_reference.h"

static char *copy_string(const char *s) {
  size_t const len = strlen(s);
  char *p = (char *)malloc(len + 1);
  memcpy(p, s, len + 1);
  return p;
}

/* ------------------------------------------------------------------ key data */

enum {
  KEY_INT32_SMALL,
  KEY_INT64_SPREAD,
  KEY_FLOAT64,
  KEY_STRING,
  KEY_INT32_STRING,
  KEY_INT32_INT64,
  KEY_ONE_GROUP,
  KEY_UNIQUE,
  NUM_KEY_CASES
};

static const char *const key_case_names[NUM_KEY_CASES] = {
    "int32 small range", "int64 spread", "float64 -0/NaN", "string utf8",
    "int32+string",      "int32+int64",  "one group",      "unique keys"};

static const char *const words[] = {"",
                                    "a",
                                    "\xc3\xa9",
                                    "\xe6\x97\xa5\xe6\x9c\xac",
                                    "\xf0\x9f\x98\x80",
                                    "a\xf0\x9f\x98\x80",
                                    "\xf4\x8f\xbf\xbf",
                                    "ab",
                                    "b"};

/* A host key column of n rows and its device copy. */
typedef struct key_col {
  gb_key host;
  void *data;
  char **str;
  uint8_t *valid;
  gcol_column *device;
} key_col;

static void key_col_free(key_col *k, int64_t n) {
  if (k->str != NULL) {
    for (int64_t i = 0; i < n; ++i) free(k->str[i]);
  }
  free(k->str);
  free(k->data);
  free(k->valid);
  gcol_column_free(k->device);
}

static void make_key(key_col *k, gcol_type_id type, int64_t n, gcol_test_rng *rng, int64_t range,
                     bool nulls, int which) {
  memset(k, 0, sizeof *k);
  k->host.type = type;
  if (nulls) {
    k->valid = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
    gcol_test_fill_valid(rng, GCOL_TEST_RANDOM_NULLS, k->valid, n);
  }
  if (type == GCOL_STRING) {
    k->str = (char **)calloc((size_t)(n > 0 ? n : 1), sizeof(char *));
    const char **ptrs = (const char **)calloc((size_t)(n > 0 ? n : 1), sizeof(char *));
    for (int64_t i = 0; i < n; ++i) {
      char buf[64];
      int64_t const r = gcol_test_rng_range(rng, 0, range);
      size_t const nw = sizeof words / sizeof words[0];
      snprintf(buf, sizeof buf, "%s%s", words[r % (int64_t)nw],
               r >= (int64_t)nw ? "\xc3\xa9x" : "");
      if (r >= (int64_t)nw)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%lld", (long long)(r / (int64_t)nw));
      k->str[i] = copy_string(buf);
      ptrs[i] = k->valid == NULL || k->valid[i] ? k->str[i] : NULL;
    }
    GCOL_TEST_OK(gcol_column_create_strings_from_host(n, ptrs, NULL, NULL, NULL, &k->device));
    free(ptrs);
  } else {
    size_t const w = gcol_type_size(type);
    k->data = malloc((size_t)(n > 0 ? n : 1) * w);
    for (int64_t i = 0; i < n; ++i) {
      int64_t const r = gcol_test_rng_range(rng, 0, range);
      if (type == GCOL_INT32) {
        ((int32_t *)k->data)[i] = which == KEY_ONE_GROUP ? 7 : (int32_t)(r - 5);
      } else if (type == GCOL_INT64) {
        ((int64_t *)k->data)[i] = which == KEY_UNIQUE ? 3 * i - 100
                                  : which == KEY_INT64_SPREAD
                                      ? (int64_t)((uint64_t)r * 0x9E3779B97F4A7C15ull)
                                      : r + ((int64_t)1 << 40);
      } else {
        static const double special[8] = {0.0, -0.0, NAN, -NAN, 1.5, -INFINITY, INFINITY, 2.25};
        ((double *)k->data)[i] = r < 8 ? special[r] : (double)r * 0.5;
      }
    }
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(type), n, k->data, k->valid, NULL,
                                              NULL, &k->device));
  }
  k->host.data = k->data;
  k->host.str = k->str;
  k->host.valid = k->valid;
}

/* Keys of one case: nk columns. */
static int make_keys(int which, int64_t n, gcol_test_rng *rng, bool nulls, key_col *k) {
  int64_t const range = 1 + n / 4;
  switch (which) {
    case KEY_INT32_SMALL:
      make_key(&k[0], GCOL_INT32, n, rng, range, nulls, which);
      return 1;
    case KEY_INT64_SPREAD:
      make_key(&k[0], GCOL_INT64, n, rng, range, nulls, which);
      return 1;
    case KEY_FLOAT64:
      make_key(&k[0], GCOL_FLOAT64, n, rng, 11, nulls, which);
      return 1;
    case KEY_STRING:
      make_key(&k[0], GCOL_STRING, n, rng, range, nulls, which);
      return 1;
    case KEY_INT32_STRING:
      make_key(&k[0], GCOL_INT32, n, rng, 3, nulls, which);
      make_key(&k[1], GCOL_STRING, n, rng, 12, false, which);
      return 2;
    case KEY_INT32_INT64:
      make_key(&k[0], GCOL_INT32, n, rng, 6, nulls, which);
      make_key(&k[1], GCOL_INT64, n, rng, 9, nulls, which);
      return 2;
    case KEY_ONE_GROUP:
      make_key(&k[0], GCOL_INT32, n, rng, 0, false, which);
      return 1;
    default:
      make_key(&k[0], GCOL_INT64, n, rng, 0, nulls, which);
      return 1;
  }
}

/* ------------------------------------------------------------------ downloaded results */

/* A downloaded key column (n rows). */
static void download_key(gcol_column_view v, key_col *out) {
  memset(out, 0, sizeof *out);
  out->host.type = v.type.id;
  out->valid = (uint8_t *)malloc((size_t)(v.size > 0 ? v.size : 1));
  if (v.type.id == GCOL_STRING) {
    gcol_host_strings *hs = NULL;
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(v, NULL, &hs));
    out->str = (char **)calloc((size_t)(v.size > 0 ? v.size : 1), sizeof(char *));
    for (int64_t i = 0; i < v.size; ++i) {
      int64_t const len = hs->offsets[i + 1] - hs->offsets[i];
      out->str[i] = (char *)malloc((size_t)len + 1);
      memcpy(out->str[i], hs->chars + hs->offsets[i], (size_t)len);
      out->str[i][len] = '\0';
      out->valid[i] = hs->valid[i];
    }
    gcol_host_strings_free(hs);
  } else {
    out->data = malloc((size_t)(v.size > 0 ? v.size : 1) * gcol_type_size(v.type.id));
    GCOL_TEST_OK(gcol_column_copy_to_host(v, out->data, out->valid, NULL));
  }
  out->host.data = out->data;
  out->host.str = out->str;
  out->host.valid = out->valid;
}

static ref_result exact(bool valid, uint64_t bits) {
  ref_result r;
  memset(&r, 0, sizeof r);
  r.valid = valid;
  r.exact = true;
  r.bits = bits;
  return r;
}

static bool same_float(long double a, long double b) { return a == b || (a != a && b != b); }

static int cmp_value(const void *pa, const void *pb) {
  long double const a = *(const long double *)pa, b = *(const long double *)pb;
  bool const na = a != a, nb = b != b;
  if (na || nb) return (int)na - (int)nb;
  return (a > b) - (a < b);
}

/* Expected NUNIQUE of a group (long double holds every 64-bit integer exactly). */
static int64_t ref_nunique(const ref_column *c, bool include_nulls) {
  long double *v = (long double *)malloc(sizeof(long double) * (size_t)(c->size + 1));
  int64_t m = 0, count = 0;
  bool any_null = false;
  for (int64_t i = 0; i < c->size; ++i) {
    if (ref_is_valid(c, i)) {
      v[m++] = ref_is_float(c->type.id)    ? ref_get_ld(c, i)
               : ref_is_signed(c->type.id) ? (long double)(int64_t)ref_get_bits(c, i)
                                           : (long double)ref_get_bits(c, i);
    } else {
      any_null = true;
    }
  }
  qsort(v, (size_t)m, sizeof(long double), cmp_value);
  for (int64_t i = 0; i < m; ++i) count += i == 0 || !same_float(v[i - 1], v[i]) ? 1 : 0;
  free(v);
  return count + (include_nulls && any_null ? 1 : 0);
}

/* Rows of a group an order-based aggregation sees (valid only unless include_nulls). */
static int64_t group_members(const ref_column *gv, bool include_nulls, int64_t *idx) {
  int64_t m = 0;
  for (int64_t i = 0; i < gv->size; ++i) {
    if (include_nulls || ref_is_valid(gv, i)) idx[m++] = i;
  }
  return m;
}

static void check_agg(const gcol_groupby_agg *agg, gcol_column *out, const ref_column *values,
                      const gb_groups *groups, const int64_t *perm, const char *ctx) {
  gcol_column_view const v = gcol_column_get_view(out);
  int64_t const g = groups->num_groups;
  char where[300];
  assert_int_equal(v.size, g);
  gcol_test_assert_null_count_consistent(v);
  if (agg->kind == GCOL_GROUPBY_COLLECT_LIST) {
    gcol_column_view const offs = v.children[GCOL_OFFSETS_CHILD];
    gcol_column_view const child = v.children[GCOL_LIST_VALUES_CHILD];
    int64_t *o64 = (int64_t *)malloc(sizeof(int64_t) * (size_t)(g + 1));
    size_t const w = gcol_type_size(child.type.id);
    unsigned char *cdata = (unsigned char *)malloc((size_t)(child.size + 1) * w);
    uint8_t *cvalid = (uint8_t *)malloc((size_t)(child.size + 1));
    assert_int_equal(out->null_count, 0);
    if (offs.type.id == GCOL_INT32) {
      int32_t *o32 = (int32_t *)malloc(sizeof(int32_t) * (size_t)(g + 1));
      GCOL_TEST_OK(gcol_column_copy_to_host(offs, o32, NULL, NULL));
      for (int64_t i = 0; i <= g; ++i) o64[i] = o32[i];
      free(o32);
    } else {
      GCOL_TEST_OK(gcol_column_copy_to_host(offs, o64, NULL, NULL));
    }
    GCOL_TEST_OK(gcol_column_copy_to_host(child, cdata, cvalid, NULL));
    for (int64_t j = 0; j < g; ++j) {
      ref_column gv = gb_group_values(values, groups, j);
      int64_t *idx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(gv.size + 1));
      int64_t const m = group_members(&gv, agg->include_nulls, idx);
      int64_t const row = perm[j];
      snprintf(where, sizeof where, "%s collect_list group %lld", ctx, (long long)j);
      if (o64[row + 1] - o64[row] != m)
        fail_msg("%s: %lld elements, expected %lld", where, (long long)(o64[row + 1] - o64[row]),
                 (long long)m);
      for (int64_t e = 0; e < m; ++e) {
        int64_t const p = o64[row] + e;
        ref_check_result(exact(ref_is_valid(&gv, idx[e]), ref_storage_bits(&gv, idx[e])),
                         cvalid[p] != 0, ref_bits_at(cdata, p, w), child.type, where, e);
      }
      free(idx);
      ref_column_free(&gv);
    }
    free(o64);
    free(cdata);
    free(cvalid);
    return;
  }
  size_t const w = gcol_type_size(v.type.id);
  unsigned char *data = (unsigned char *)malloc((size_t)(g + 1) * w);
  uint8_t *valid = (uint8_t *)malloc((size_t)(g + 1));
  GCOL_TEST_OK(gcol_column_copy_to_host(v, data, valid, NULL));
  for (int64_t j = 0; j < g; ++j) {
    ref_column gv = gb_group_values(values, groups, j);
    int64_t const row = perm[j];
    ref_result e;
    snprintf(where, sizeof where, "%s %s group %lld", ctx, gcol_groupby_agg_name(agg->kind),
             (long long)j);
    if ((int)agg->kind < GCOL_REDUCE_NUM_OPS) {
      e = ref_reduce(&gv, (gcol_reduce_op)agg->kind, agg->ddof);
      if (e.valid && (agg->kind == GCOL_GROUPBY_ARGMIN || agg->kind == GCOL_GROUPBY_ARGMAX)) {
        e.bits = (uint64_t)groups->rows[groups->offsets[j] + (int64_t)e.bits];
      }
    } else if (agg->kind == GCOL_GROUPBY_MEDIAN || agg->kind == GCOL_GROUPBY_QUANTILE) {
      e = ref_quantile(&gv, agg->kind == GCOL_GROUPBY_MEDIAN ? 0.5 : agg->q, agg->interp);
    } else if (agg->kind == GCOL_GROUPBY_M2) {
      int64_t nv = 0;
      for (int64_t i = 0; i < gv.size; ++i) nv += ref_is_valid(&gv, i) ? 1 : 0;
      e = ref_reduce(&gv, GCOL_REDUCE_VARIANCE, 0);
      e.value *= (long double)nv;
      e.tolerance *= (long double)(nv > 0 ? nv : 1);
    } else if (agg->kind == GCOL_GROUPBY_NUNIQUE) {
      e = exact(true, (uint64_t)ref_nunique(&gv, agg->include_nulls));
    } else { /* NTH_ELEMENT */
      int64_t *idx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(gv.size + 1));
      int64_t const m = group_members(&gv, agg->include_nulls, idx);
      int64_t const k = agg->n >= 0 ? agg->n : m + agg->n;
      bool const in = k >= 0 && k < m;
      e = exact(in && ref_is_valid(&gv, idx[k]), in ? ref_storage_bits(&gv, idx[k]) : 0);
      free(idx);
    }
    ref_check_result(e, valid[row] != 0, ref_bits_at(data, row, w), v.type, where, -1);
    ref_column_free(&gv);
  }
  free(data);
  free(valid);
}

/* The aggregations checked in every call. */
static int all_aggs(gcol_groupby_agg *a) {
  int n = 0;
  for (int k = 0; k < GCOL_REDUCE_NUM_OPS; ++k)
    a[n++] = gcol_groupby_agg_make((gcol_groupby_agg_kind)k);
  a[7].ddof = 1; /* VARIANCE */
  a[8].ddof = 0; /* STD */
  a[n++] = gcol_groupby_agg_make(GCOL_GROUPBY_MEDIAN);
  static const gcol_interpolation interps[4] = {
      GCOL_INTERPOLATION_LOWER, GCOL_INTERPOLATION_NEAREST, GCOL_INTERPOLATION_MIDPOINT,
      GCOL_INTERPOLATION_HIGHER};
  static const double qs[4] = {0.25, 0.9, 0.3, 0.7};
  for (int k = 0; k < 4; ++k) {
    a[n] = gcol_groupby_agg_make(GCOL_GROUPBY_QUANTILE);
    a[n].q = qs[k];
    a[n++].interp = interps[k];
  }
  a[n] = gcol_groupby_agg_make(GCOL_GROUPBY_NUNIQUE);
  a[n++].include_nulls = true;
  a[n++] = gcol_groupby_agg_make(GCOL_GROUPBY_NUNIQUE);
  a[n++] = gcol_groupby_agg_make(GCOL_GROUPBY_NTH_ELEMENT);
  a[n] = gcol_groupby_agg_make(GCOL_GROUPBY_NTH_ELEMENT);
  a[n].n = -1;
  a[n++].include_nulls = true;
  a[n] = gcol_groupby_agg_make(GCOL_GROUPBY_NTH_ELEMENT);
  a[n++].n = 2;
  a[n] = gcol_groupby_agg_make(GCOL_GROUPBY_COLLECT_LIST);
  a[n++].include_nulls = true;
  a[n++] = gcol_groupby_agg_make(GCOL_GROUPBY_COLLECT_LIST);
  a[n++] = gcol_groupby_agg_make(GCOL_GROUPBY_M2);
  return n;
}

/* Runs one groupby of aggs[0..na) over rows [off, off + n) and checks keys and results. */
static void run_aggs(int which, int64_t n, int64_t off, bool key_nulls, gcol_test_validity vpat,
                     gcol_type_id vtype, gcol_groupby_options opt, const gcol_groupby_agg *aggs,
                     int na, gcol_test_rng *rng) {
  int64_t const total = n + off;
  key_col k[2];
  int const nk = make_keys(which, total, rng, key_nulls, k);
  ref_column values = ref_column_random(rng, gcol_data_type_make(vtype), total, vpat);
  if (vtype == GCOL_FLOAT64 && total > 3) { /* -0.0, 0.0 and NaN among the values */
    ((double *)values.data)[0] = -0.0;
    ((double *)values.data)[1] = 0.0;
    ((double *)values.data)[total / 2] = NAN;
  }
  gcol_column *dvalues = ref_column_to_device(&values);
  gcol_column_view kv[2];
  gb_key hk[2];
  for (int c = 0; c < nk; ++c) {
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(k[c].device), off, total, &kv[c]));
    hk[c] = k[c].host;
    if (hk[c].data != NULL)
      hk[c].data = (const char *)hk[c].data + off * (int64_t)gcol_type_size(hk[c].type);
    if (hk[c].str != NULL) hk[c].str += off;
    if (hk[c].valid != NULL) hk[c].valid += off;
  }
  gcol_table_view keys;
  GCOL_TEST_OK(gcol_table_view_make(kv, nk, &keys));
  ref_column const hv = ref_column_window(&values, off, n);
  gcol_groupby_request req;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(dvalues), off, total, &req.values));
  req.aggs = aggs;
  req.num_aggs = na;
  gcol_groupby_result *res = NULL;
  char ctx[200];
  snprintf(ctx, sizeof ctx, "%s n=%lld off=%lld keynulls=%d drop=%d sort=%d %s %s",
           key_case_names[which], (long long)n, (long long)off, key_nulls, opt.drop_null_keys,
           opt.sort_keys, gcol_type_name(vtype), gcol_test_validity_name(vpat));
  GCOL_TEST_OK(gcol_groupby_aggregate(keys, &req, 1, &opt, &res, NULL, NULL));
  gb_groups groups = gb_group_rows(hk, nk, n, opt.drop_null_keys);
  if (res->keys->num_rows != groups.num_groups) {
    fail_msg("%s: %lld groups, expected %lld", ctx, (long long)res->keys->num_rows,
             (long long)groups.num_groups);
  }
  assert_int_equal(res->num_columns, na);
  /* match output rows to reference groups by key */
  key_col ok[2];
  gb_key ohk[2];
  for (int c = 0; c < nk; ++c) {
    download_key(gcol_table_get_view(res->keys).columns[c], &ok[c]);
    ohk[c] = ok[c].host;
  }
  int64_t *perm = gb_sort_rows(ohk, nk, groups.num_groups);
  for (int64_t j = 0; j < groups.num_groups; ++j) {
    if (opt.sort_keys && perm[j] != j)
      fail_msg("%s: output not sorted at row %lld", ctx, (long long)j);
    if (j > 0 && gb_row_compare(ohk, perm[j - 1], ohk, perm[j], nk) == 0) {
      fail_msg("%s: two output groups with equal keys", ctx);
    }
    if (gb_row_compare(hk, groups.rows[groups.offsets[j]], ohk, perm[j], nk) != 0) {
      fail_msg("%s: group %lld has other keys than the reference", ctx, (long long)j);
    }
  }
  for (int a = 0; a < na; ++a) check_agg(&aggs[a], res->columns[a], &hv, &groups, perm, ctx);
  free(perm);
  for (int c = 0; c < nk; ++c) {
    key_col_free(&ok[c], groups.num_groups);
    key_col_free(&k[c], total);
  }
  gb_groups_free(&groups);
  gcol_groupby_result_free(res);
  gcol_column_free(dvalues);
  ref_column_free(&values);
}

/* run_aggs with every aggregation. */
static void run_case(int which, int64_t n, int64_t off, bool key_nulls, gcol_test_validity vpat,
                     gcol_type_id vtype, gcol_groupby_options opt, gcol_test_rng *rng) {
  gcol_groupby_agg aggs[40];
  int const na = all_aggs(aggs);
  run_aggs(which, n, off, key_nulls, vpat, vtype, opt, aggs, na, rng);
}

/* Every aggregation over the size list on key path `which` (one test per path, so the
 * suite's shards run them in parallel). */
static void every_aggregation_on_key_path(int which, void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1101 + (uint64_t)which);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    if (!gcol_test_in_part(state, s)) continue;
    int const iter = which * (int)gcol_test_num_sizes + (int)s;
    int64_t const n = gcol_test_sizes[s] > 70000 ? gcol_test_cap(70000) : gcol_test_sizes[s];
    if (n != gcol_test_sizes[s] && s + 1 < gcol_test_num_sizes) continue;
    gcol_groupby_options opt;
    opt.drop_null_keys = (iter & 1) != 0;
    opt.sort_keys = (iter & 2) != 0;
    int64_t const off = gcol_test_offsets[(size_t)iter % gcol_test_num_offsets];
    bool const key_nulls = which != KEY_ONE_GROUP && (iter % 3) != 0;
    gcol_test_validity const vpat = (gcol_test_validity)(iter % GCOL_TEST_NUM_VALIDITY);
    run_case(which, n, off, key_nulls, vpat, (iter & 4) != 0 ? GCOL_FLOAT64 : GCOL_INT32, opt,
             &rng);
  }
}

#define KEY_PATH_TEST(which)                            \
  static void every_aggregation_##which(void **state) { \
    every_aggregation_on_key_path(which, state);        \
  }
KEY_PATH_TEST(KEY_INT32_SMALL)
KEY_PATH_TEST(KEY_INT64_SPREAD)
KEY_PATH_TEST(KEY_FLOAT64)
KEY_PATH_TEST(KEY_STRING)
KEY_PATH_TEST(KEY_INT32_STRING)
KEY_PATH_TEST(KEY_INT32_INT64)
KEY_PATH_TEST(KEY_ONE_GROUP)
KEY_PATH_TEST(KEY_UNIQUE)

/* Every key path x option x value type at 300 rows; the key paths spread over the parts,
 * and under the sanitizers every other combination runs (its slowest case there). */
static void every_option_on_small_inputs(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1102);
  static const gcol_type_id vtypes[4] = {GCOL_INT32, GCOL_FLOAT64, GCOL_INT64, GCOL_FLOAT32};
  for (int which = 0; which < NUM_KEY_CASES; ++which) {
    if (!gcol_test_in_part(state, (size_t)which)) continue;
    for (int o = 0; o < 4; ++o) {
      for (int t = 0; t < 4; ++t) {
        if (!gcol_test_keep_combination((size_t)(which + o + t))) continue;
        gcol_groupby_options opt = {(o & 1) != 0, (o & 2) != 0};
        run_case(which, 300, 33, which != KEY_ONE_GROUP, GCOL_TEST_RANDOM_NULLS, vtypes[t], opt,
                 &rng);
      }
    }
  }
}

/* Counts, sums, minima, maxima and means alone: launches of only these run the few-groups
 * kernel (accumulate_few_smem_kernel), which reads each width and kind itself, counts in 32 bits
 * and adds integers in halves (the planted extremes make sums carry and wrap). Sizes cross
 * its tiles of 2048 rows; offsets make unaligned slices of data and masks. In four parts;
 * under the sanitizers every other small case runs. */
static void counts_sums_minima_maxima_alone(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1104);
  static const gcol_type_id vtypes[] = {GCOL_INT8,    GCOL_INT16,   GCOL_INT32,  GCOL_INT64,
                                        GCOL_UINT8,   GCOL_UINT16,  GCOL_UINT32, GCOL_UINT64,
                                        GCOL_FLOAT32, GCOL_FLOAT64, GCOL_BOOL8};
  static const gcol_groupby_agg_kind kinds[] = {GCOL_GROUPBY_COUNT_ALL, GCOL_GROUPBY_COUNT_VALID,
                                                GCOL_GROUPBY_SUM,       GCOL_GROUPBY_MIN,
                                                GCOL_GROUPBY_MAX,       GCOL_GROUPBY_MEAN};
  static const int64_t sizes[] = {1, 300, 2049, 6000};
  int iter = 0;
  for (int which = 0; which < NUM_KEY_CASES; ++which) {
    for (size_t t = 0; t < sizeof vtypes / sizeof vtypes[0]; ++t) {
      gcol_groupby_agg aggs[6];
      int na = 0;
      for (size_t a = 0; a < sizeof kinds / sizeof kinds[0]; ++a) {
        gcol_data_type out;
        aggs[na] = gcol_groupby_agg_make(kinds[a]);
        if (gcol_groupby_output_type(gcol_data_type_make(vtypes[t]), &aggs[na], &out) == GCOL_OK)
          ++na;
      }
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s, ++iter) {
        if (!gcol_test_in_sparse_part(state, (size_t)iter)) continue;
        gcol_groupby_options const opt = {(iter & 1) != 0, (iter & 2) != 0};
        int64_t const off = gcol_test_offsets[(size_t)iter % gcol_test_num_offsets];
        bool const key_nulls = which != KEY_ONE_GROUP && (iter % 3) != 0;
        gcol_test_validity const vpat = (gcol_test_validity)(iter % GCOL_TEST_NUM_VALIDITY);
        run_aggs(which, sizes[s], off, key_nulls, vpat, vtypes[t], opt, aggs, na, &rng);
      }
    }
  }
  /* more tiles than one wave of blocks holds: each block takes several */
  gcol_groupby_agg aggs[6];
  for (size_t a = 0; a < 6; ++a) aggs[a] = gcol_groupby_agg_make(kinds[a]);
  gcol_groupby_options const opt = {false, true};
  if (gcol_test_in_part(state, (size_t)iter)) {
    run_aggs(KEY_INT32_INT64, gcol_test_cap((1 << 21) + 77), 3, true, GCOL_TEST_RANDOM_NULLS,
             GCOL_FLOAT64, opt, aggs, 6, &rng);
  }
  if (gcol_test_in_part(state, (size_t)iter + 1)) {
    run_aggs(KEY_FLOAT64, gcol_test_cap((1 << 21) + 77), 0, false, GCOL_TEST_NO_MASK, GCOL_INT64,
             opt, aggs, 6, &rng);
  }
}

/* Several requests, and keys only (no request). */
static void several_requests_and_no_request(void **state) {
  (void)state;
  int32_t const k[6] = {3, 1, 3, 2, 1, 3};
  int64_t const a[6] = {10, 20, 30, 40, 50, 60};
  double const b[6] = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0};
  gcol_column *ck = NULL, *ca = NULL, *cb = NULL;
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 6, k, NULL, NULL, NULL, &ck));
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 6, a, NULL, NULL, NULL, &ca));
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), 6, b, NULL, NULL, NULL, &cb));
  gcol_column_view const kv = gcol_column_get_view(ck);
  gcol_table_view keys;
  GCOL_TEST_OK(gcol_table_view_make(&kv, 1, &keys));
  gcol_groupby_agg const sum = gcol_groupby_agg_make(GCOL_GROUPBY_SUM);
  gcol_groupby_agg const two[2] = {gcol_groupby_agg_make(GCOL_GROUPBY_MAX),
                                   gcol_groupby_agg_make(GCOL_GROUPBY_MEAN)};
  gcol_groupby_request req[2] = {{gcol_column_get_view(ca), &sum, 1},
                                 {gcol_column_get_view(cb), two, 2}};
  gcol_groupby_options const opt = {false, true};
  gcol_groupby_result *res = NULL;
  GCOL_TEST_OK(gcol_groupby_aggregate(keys, req, 2, &opt, &res, NULL, NULL));
  int32_t const want_k[3] = {1, 2, 3};
  int64_t const want_sum[3] = {70, 40, 100};
  double const want_max[3] = {5.0, 4.0, 6.0}, want_mean[3] = {3.5, 4.0, 10.0 / 3.0};
  assert_int_equal(res->num_columns, 3);
  gcol_test_assert_column_equals_host(gcol_table_get_view(res->keys).columns[0], want_k, NULL, 3);
  gcol_test_assert_column_equals_host(gcol_column_get_view(res->columns[0]), want_sum, NULL, 3);
  gcol_test_assert_column_equals_host(gcol_column_get_view(res->columns[1]), want_max, NULL, 3);
  gcol_test_assert_column_equals_host(gcol_column_get_view(res->columns[2]), want_mean, NULL, 3);
  gcol_groupby_result_free(res);
  res = NULL;
  GCOL_TEST_OK(gcol_groupby_aggregate(keys, NULL, 0, &opt, &res, NULL, NULL));
  assert_int_equal(res->num_columns, 0);
  gcol_test_assert_column_equals_host(gcol_table_get_view(res->keys).columns[0], want_k, NULL, 3);
  gcol_groupby_result_free(res);
  gcol_column_free(ck);
  gcol_column_free(ca);
  gcol_column_free(cb);
}

/* Sixteen accumulators over key ranges of 320..384: the shared-memory kernel's dynamic memory
 * (16 x range x 8 bytes) crosses 48 KiB, where its static shared memory had made launches
 * just under the line fail (found by the distributed groupby at 1000 rows). */
static void shared_memory_sizes_near_48_kib(void **state) {
  (void)state;
  enum { VALUES = 15 };
  int64_t const most = 384, n = 3 * most;
  int32_t *k = (int32_t *)malloc((size_t)n * sizeof *k);
  int64_t *v = (int64_t *)malloc((size_t)n * sizeof *v), *want = (int64_t *)malloc(most * 8);
  int32_t *want_k = (int32_t *)malloc(most * sizeof *want_k);
  assert_true(k && v && want && want_k);
  gcol_groupby_agg const sum = gcol_groupby_agg_make(GCOL_GROUPBY_SUM);
  gcol_groupby_options const opt = {false, true};
  for (int64_t range = 320; range <= most; ++range) {
    /* under the tools every other range (256-byte steps; 384 = 48 KiB kept): the kernel's
     * static shared memory (acc_launch, over 700 bytes) puts several ranges just under it */
    if (!gcol_test_keep_combination((size_t)range)) continue;
    int64_t const rows = 3 * range;
    gcol_column *ck = NULL, *cv[VALUES] = {NULL};
    gcol_groupby_request req[VALUES];
    for (int64_t i = 0; i < rows; ++i) k[i] = (int32_t)(i % range);
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), rows, k, NULL, NULL,
                                              NULL, &ck));
    for (int j = 0; j < VALUES; ++j) {
      for (int64_t i = 0; i < rows; ++i) v[i] = i + j;
      GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), rows, v, NULL,
                                                NULL, NULL, &cv[j]));
      req[j] = (gcol_groupby_request){gcol_column_get_view(cv[j]), &sum, 1};
    }
    gcol_column_view const kv = gcol_column_get_view(ck);
    gcol_table_view keys;
    GCOL_TEST_OK(gcol_table_view_make(&kv, 1, &keys));
    gcol_groupby_result *res = NULL;
    GCOL_TEST_OK(gcol_groupby_aggregate(keys, req, VALUES, &opt, &res, NULL, NULL));
    for (int64_t g = 0; g < range; ++g) want_k[g] = (int32_t)g;
    gcol_test_assert_column_equals_host(gcol_table_get_view(res->keys).columns[0], want_k, NULL,
                                        range);
    for (int j = 0; j < VALUES; ++j) {
      for (int64_t g = 0; g < range; ++g) want[g] = 3 * g + 3 * range + 3 * j;
      gcol_test_assert_column_equals_host(gcol_column_get_view(res->columns[j]), want, NULL, range);
      gcol_column_free(cv[j]);
    }
    gcol_groupby_result_free(res);
    gcol_column_free(ck);
  }
  free(k), free(v), free(want), free(want_k);
}

/* count, mean and M2 of partitions merged == those of the whole. */
static void partitions_merged_equal_the_whole(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1103);
  for (int which = 0; which < NUM_KEY_CASES; ++which) {
    int64_t const n = 5000;
    key_col k[2];
    int const nk = make_keys(which, n, &rng, true, k);
    ref_column values =
        ref_column_random(&rng, gcol_data_type_make(GCOL_FLOAT64), n, GCOL_TEST_RANDOM_NULLS);
    gcol_column *dv = ref_column_to_device(&values);
    gcol_groupby_agg const aggs[3] = {gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_VALID),
                                      gcol_groupby_agg_make(GCOL_GROUPBY_MEAN),
                                      gcol_groupby_agg_make(GCOL_GROUPBY_M2)};
    gcol_groupby_options const opt = {false, true};
    /* the whole */
    gcol_column_view kv[2];
    for (int c = 0; c < nk; ++c) kv[c] = gcol_column_get_view(k[c].device);
    gcol_table_view keys;
    GCOL_TEST_OK(gcol_table_view_make(kv, nk, &keys));
    gcol_groupby_request req = {gcol_column_get_view(dv), aggs, 3};
    gcol_groupby_result *whole = NULL;
    GCOL_TEST_OK(gcol_groupby_aggregate(keys, &req, 1, &opt, &whole, NULL, NULL));
    /* three partitions, their partial results concatenated through the host */
    int64_t const cuts[4] = {0, 1234, 1235, n};
    gcol_groupby_result *parts[3] = {NULL, NULL, NULL};
    int64_t total = 0;
    for (int p = 0; p < 3; ++p) {
      gcol_column_view pk[2];
      for (int c = 0; c < nk; ++c)
        GCOL_TEST_OK(gcol_column_view_slice(kv[c], cuts[p], cuts[p + 1], &pk[c]));
      gcol_table_view ptab;
      GCOL_TEST_OK(gcol_table_view_make(pk, nk, &ptab));
      gcol_groupby_request preq = req;
      GCOL_TEST_OK(gcol_column_view_slice(req.values, cuts[p], cuts[p + 1], &preq.values));
      GCOL_TEST_OK(gcol_groupby_aggregate(ptab, &preq, 1, &opt, &parts[p], NULL, NULL));
      total += parts[p]->keys->num_rows;
    }
    /* concatenate partial keys and moments on the host, upload */
    key_col ck[2];
    int64_t *cnt = (int64_t *)malloc(sizeof(int64_t) * (size_t)total);
    double *mean = (double *)malloc(sizeof(double) * (size_t)total);
    double *m2 = (double *)malloc(sizeof(double) * (size_t)total);
    uint8_t *mv = (uint8_t *)malloc((size_t)total), *m2v = (uint8_t *)malloc((size_t)total);
    gcol_column *dk[2] = {NULL, NULL};
    for (int c = 0; c < nk; ++c) {
      memset(&ck[c], 0, sizeof ck[c]);
      gcol_type_id const t = k[c].host.type;
      size_t const w = gcol_type_size(t);
      char **strs = t == GCOL_STRING ? (char **)calloc((size_t)total, sizeof(char *)) : NULL;
      unsigned char *data = t == GCOL_STRING ? NULL : (unsigned char *)malloc((size_t)total * w);
      uint8_t *valid = (uint8_t *)malloc((size_t)total);
      int64_t at = 0;
      for (int p = 0; p < 3; ++p) {
        key_col one;
        download_key(gcol_table_get_view(parts[p]->keys).columns[c], &one);
        int64_t const rows = parts[p]->keys->num_rows;
        for (int64_t i = 0; i < rows; ++i) {
          valid[at + i] = one.valid[i];
          if (strs != NULL) strs[at + i] = one.valid[i] ? copy_string(one.str[i]) : NULL;
        }
        if (data != NULL) memcpy(data + (size_t)at * w, one.data, (size_t)rows * w);
        at += rows;
        key_col_free(&one, rows);
      }
      if (strs != NULL) {
        GCOL_TEST_OK(gcol_column_create_strings_from_host(total, (const char *const *)strs, NULL,
                                                          NULL, NULL, &dk[c]));
        for (int64_t i = 0; i < total; ++i) free(strs[i]);
        free(strs);
      } else {
        GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(t), total, data, valid, NULL,
                                                  NULL, &dk[c]));
        free(data);
      }
      free(valid);
    }
    int64_t at = 0;
    for (int p = 0; p < 3; ++p) {
      int64_t const rows = parts[p]->keys->num_rows;
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(parts[p]->columns[0]), cnt + at,
                                            NULL, NULL));
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(parts[p]->columns[1]), mean + at,
                                            mv + at, NULL));
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(parts[p]->columns[2]), m2 + at,
                                            m2v + at, NULL));
      at += rows;
    }
    gcol_column *dc = NULL, *dm = NULL, *dm2 = NULL;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), total, cnt, NULL,
                                              NULL, NULL, &dc));
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), total, mean, mv,
                                              NULL, NULL, &dm));
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), total, m2, m2v,
                                              NULL, NULL, &dm2));
    gcol_column_view mk[2];
    for (int c = 0; c < nk; ++c) mk[c] = gcol_column_get_view(dk[c]);
    gcol_table_view mkeys;
    GCOL_TEST_OK(gcol_table_view_make(mk, nk, &mkeys));
    gcol_groupby_result *merged = NULL;
    GCOL_TEST_OK(gcol_groupby_merge_m2(mkeys, gcol_column_get_view(dc), gcol_column_get_view(dm),
                                       gcol_column_get_view(dm2), &opt, &merged, NULL, NULL));
    /* same groups in the same (sorted) order, same moments within rounding */
    int64_t const g = whole->keys->num_rows;
    assert_int_equal(merged->keys->num_rows, g);
    {
      /* equal keys (by the groupby's equality: -0.0 and 0.0, or two NaNs, may differ in bits) */
      key_col mk_host[2], wk_host[2];
      gb_key mh[2], wh[2];
      for (int c = 0; c < nk; ++c) {
        download_key(gcol_table_get_view(merged->keys).columns[c], &mk_host[c]);
        download_key(gcol_table_get_view(whole->keys).columns[c], &wk_host[c]);
        mh[c] = mk_host[c].host;
        wh[c] = wk_host[c].host;
      }
      for (int64_t j = 0; j < g; ++j) {
        if (gb_row_compare(mh, j, wh, j, nk) != 0) {
          fail_msg("%s: merged group %lld has other keys", key_case_names[which], (long long)j);
        }
      }
      for (int c = 0; c < nk; ++c) {
        key_col_free(&mk_host[c], g);
        key_col_free(&wk_host[c], g);
      }
    }
    gcol_test_assert_columns_equal(gcol_column_get_view(merged->columns[0]),
                                   gcol_column_get_view(whole->columns[0]));
    double *a = (double *)malloc(sizeof(double) * (size_t)(g + 1)),
           *b = (double *)malloc(sizeof(double) * (size_t)(g + 1));
    uint8_t *av = (uint8_t *)malloc((size_t)(g + 1)), *bv = (uint8_t *)malloc((size_t)(g + 1));
    for (int col = 1; col <= 2; ++col) {
      GCOL_TEST_OK(
          gcol_column_copy_to_host(gcol_column_get_view(merged->columns[col]), a, av, NULL));
      GCOL_TEST_OK(
          gcol_column_copy_to_host(gcol_column_get_view(whole->columns[col]), b, bv, NULL));
      for (int64_t j = 0; j < g; ++j) {
        assert_int_equal(av[j], bv[j]);
        if (av[j] && fabs(a[j] - b[j]) > 1e-9 * (1.0 + fabs(b[j]))) {
          fail_msg("%s column %d group %lld: merged %.17g, whole %.17g", key_case_names[which], col,
                   (long long)j, a[j], b[j]);
        }
      }
    }
    free(a);
    free(b);
    free(av);
    free(bv);
    free(cnt);
    free(mean);
    free(m2);
    free(mv);
    free(m2v);
    gcol_groupby_result_free(merged);
    gcol_column_free(dc);
    gcol_column_free(dm);
    gcol_column_free(dm2);
    for (int c = 0; c < nk; ++c) {
      gcol_column_free(dk[c]);
      key_col_free(&k[c], n);
    }
    for (int p = 0; p < 3; ++p) gcol_groupby_result_free(parts[p]);
    gcol_groupby_result_free(whole);
    gcol_column_free(dv);
    ref_column_free(&values);
  }
}

typedef struct fault_ctx {
  gcol_table_view keys;
  gcol_groupby_request req;
  gcol_groupby_options opt;
  gcol_groupby_result *out;
} fault_ctx;

static gcol_status fault_run(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  return gcol_groupby_aggregate(c->keys, &c->req, 1, &c->opt, &c->out, NULL, NULL);
}

static void fault_cleanup(void *p) {
  gcol_groupby_result_free(((fault_ctx *)p)->out);
  ((fault_ctx *)p)->out = NULL;
}

static void allocation_failures_leak_nothing(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1104);
  gcol_groupby_agg aggs[40];
  int const na = all_aggs(aggs);
  int const cases[3] = {KEY_INT32_SMALL, KEY_STRING, KEY_INT64_SPREAD};
  for (int c = 0; c < 3; ++c) {
    if (!gcol_test_in_part(state, (size_t)c)) continue;
    for (int sorted = 0; sorted <= 1; ++sorted) {
      key_col k[2];
      int const nk = make_keys(cases[c], 200, &rng, true, k);
      ref_column values =
          ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), 200, GCOL_TEST_RANDOM_NULLS);
      gcol_column *dv = ref_column_to_device(&values);
      gcol_column_view kv[2];
      for (int j = 0; j < nk; ++j) kv[j] = gcol_column_get_view(k[j].device);
      fault_ctx ctx;
      memset(&ctx, 0, sizeof ctx);
      GCOL_TEST_OK(gcol_table_view_make(kv, nk, &ctx.keys));
      ctx.req.values = gcol_column_get_view(dv);
      ctx.req.aggs = aggs;
      ctx.req.num_aggs = na;
      ctx.opt.sort_keys = sorted != 0;
      assert_true(gcol_test_check_allocation_failures(fault_run, fault_cleanup, &ctx) >= 5);
      gcol_column_free(dv);
      ref_column_free(&values);
      for (int j = 0; j < nk; ++j) key_col_free(&k[j], 200);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(every_aggregation_KEY_INT32_SMALL),
      GCOL_TEST_GPU(every_aggregation_KEY_INT64_SPREAD),
      GCOL_TEST_GPU(every_aggregation_KEY_FLOAT64),
      GCOL_TEST_GPU(every_aggregation_KEY_STRING),
      GCOL_TEST_GPU(every_aggregation_KEY_INT32_STRING),
      GCOL_TEST_GPU_PART(every_aggregation_KEY_INT32_INT64, 0, 2),
      GCOL_TEST_GPU_PART(every_aggregation_KEY_INT32_INT64, 1, 2),
      GCOL_TEST_GPU(every_aggregation_KEY_ONE_GROUP),
      GCOL_TEST_GPU(every_aggregation_KEY_UNIQUE),
      GCOL_TEST_GPU_PART(every_option_on_small_inputs, 0, 4),
      GCOL_TEST_GPU_PART(every_option_on_small_inputs, 1, 4),
      GCOL_TEST_GPU_PART(every_option_on_small_inputs, 2, 4),
      GCOL_TEST_GPU_PART(every_option_on_small_inputs, 3, 4),
      GCOL_TEST_GPU_PART(counts_sums_minima_maxima_alone, 0, 4),
      GCOL_TEST_GPU_PART(counts_sums_minima_maxima_alone, 1, 4),
      GCOL_TEST_GPU_PART(counts_sums_minima_maxima_alone, 2, 4),
      GCOL_TEST_GPU_PART(counts_sums_minima_maxima_alone, 3, 4),
      GCOL_TEST_GPU(several_requests_and_no_request),
      GCOL_TEST_GPU(shared_memory_sizes_near_48_kib),
      GCOL_TEST_GPU(partitions_merged_equal_the_whole),
      GCOL_TEST_GPU_PART(allocation_failures_leak_nothing, 0, 3),
      GCOL_TEST_GPU_PART(allocation_failures_leak_nothing, 1, 3),
      GCOL_TEST_GPU_PART(allocation_failures_leak_nothing, 2, 3),
  };
  return GCOL_TEST_RUN_GPU("groupby", tests);
}
