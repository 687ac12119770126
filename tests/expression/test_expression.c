/*
 * GPU tests of expression.h: gcol_compute_column and gcol_filter_expression against the
 * host tree reference (expression_reference.c) on random trees from a seed over random
 * tables with nulls, NaN, +-0.0, +-Inf and integer MIN/MAX; columns sliced at the offsets of
 * TESTING.md; tables without nulls (the kernel that tracks no validity); the sizes axis;
 * empty tables; allocation failure at every allocation point with nothing leaked.
 * Conditional and mixed joins (equality keys, nulls equal or not, plus the predicate) against
 * a nested loop over the pair table, in the documented order.
 * String predicates (comparisons, LIKE, IS_NULL over STRING columns and literals) on tables
 * with STRING columns: sliced, with INT32 and INT64 offsets (the large-offsets threshold
 * lowered), with and without nulls, in compute_column, filter_expression and conditional
 * joins.
 */
#include "test_util.h"

#include <math.h>

#include "expression_reference.h"
#include "gcol/expression.h"

/* The device copy of a reference table, each column made with @p offset extra leading rows
 * and sliced past them (so views have offset != 0 when @p offset > 0). */
typedef struct device_table {
  gcol_column *owned[EXPR_REF_MAX_COLUMNS];
  gcol_column_view views[EXPR_REF_MAX_COLUMNS];
  gcol_table_view view;
} device_table;

/* A STRING column of @p t on the device with @p offset leading rows ("###" or null), sliced
 * past them (its offsets then start past 0). */
static void device_strings_make(const expr_ref_table *t, int32_t c, int64_t offset,
                                device_table *d) {
  const expr_ref_string *v = (const expr_ref_string *)t->data[c];
  int64_t const total = t->rows + offset;
  const char **ptrs = (const char **)malloc((size_t)(total > 0 ? total : 1) * sizeof *ptrs);
  int64_t *lengths = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof *lengths);
  assert_true(ptrs != NULL && lengths != NULL);
  for (int64_t r = 0; r < total; ++r) {
    if (r < offset) {
      ptrs[r] = (t->valid[c] != NULL && (r & 1) == 0) ? NULL : "###";
      lengths[r] = 3;
    } else {
      bool const ok = t->valid[c] == NULL || t->valid[c][r - offset];
      ptrs[r] = ok ? (v[r - offset].size > 0 ? v[r - offset].data : "") : NULL;
      lengths[r] = ok ? v[r - offset].size : 0;
    }
  }
  GCOL_TEST_OK(
      gcol_column_create_strings_from_host(total, ptrs, lengths, NULL, NULL, &d->owned[c]));
  GCOL_TEST_OK(
      gcol_column_view_slice(gcol_column_get_view(d->owned[c]), offset, total, &d->views[c]));
  free(ptrs);
  free(lengths);
}

static void device_table_make(const expr_ref_table *t, int64_t offset, device_table *d) {
  memset(d, 0, sizeof *d);
  for (int32_t c = 0; c < t->num_columns; ++c) {
    if (t->types[c].id == GCOL_STRING) {
      device_strings_make(t, c, offset, d);
      continue;
    }
    size_t const w = gcol_type_size(t->types[c].id);
    int64_t const total = t->rows + offset;
    char *data = (char *)malloc((size_t)(total > 0 ? total : 1) * w);
    uint8_t *valid = NULL;
    assert_non_null(data);
    memset(data, 0x5A, (size_t)offset * w);
    memcpy(data + offset * (int64_t)w, t->data[c], (size_t)t->rows * w);
    if (t->valid[c] != NULL) {
      valid = (uint8_t *)malloc((size_t)(total > 0 ? total : 1));
      assert_non_null(valid);
      for (int64_t r = 0; r < offset; ++r) valid[r] = (uint8_t)(r & 1);
      memcpy(valid + offset, t->valid[c], (size_t)t->rows);
    }
    GCOL_TEST_OK(
        gcol_column_create_from_host(t->types[c], total, data, valid, NULL, NULL, &d->owned[c]));
    GCOL_TEST_OK(
        gcol_column_view_slice(gcol_column_get_view(d->owned[c]), offset, total, &d->views[c]));
    free(data);
    free(valid);
  }
  GCOL_TEST_OK(gcol_table_view_make(d->views, t->num_columns, &d->view));
  d->view.num_rows = t->rows;
}

static void device_table_free(device_table *d) {
  for (int c = 0; c < EXPR_REF_MAX_COLUMNS; ++c) gcol_column_free(d->owned[c]);
}

/* Copies a device column to the host: values and validity bytes. */
static void to_host(gcol_column_view v, void **values, uint8_t **valid) {
  size_t const w = gcol_type_size(v.type.id);
  *values = malloc((size_t)(v.size > 0 ? v.size : 1) * w);
  *valid = (uint8_t *)malloc((size_t)(v.size > 0 ? v.size : 1));
  assert_true(*values != NULL && *valid != NULL);
  GCOL_TEST_OK(gcol_column_copy_to_host(v, *values, *valid, NULL));
}

/* compute_column of @p root over @p t at @p offset, against the reference. */
static void check_compute(const expr_ref_tree *tree, int32_t root, const expr_ref_table *t,
                          int64_t offset, const char *what) {
  device_table d;
  gcol_column *out = NULL;
  gcol_data_type const type = tree->nodes[root].type;
  size_t const w = gcol_type_size(type.id);
  void *ref = malloc((size_t)(t->rows + 1) * w), *got = NULL;
  uint8_t *ref_ok = (uint8_t *)malloc((size_t)t->rows + 1), *ok = NULL;
  assert_true(ref != NULL && ref_ok != NULL);
  expr_ref_eval(tree, root, t, ref, ref_ok);
  device_table_make(t, offset, &d);
  GCOL_TEST_OK(gcol_compute_column(d.view, tree->expr, root, &out, NULL, NULL));
  gcol_column_view const v = gcol_column_get_view(out);
  assert_int_equal(v.size, t->rows);
  assert_int_equal(v.type.id, type.id);
  assert_int_equal(v.offset, 0);
  gcol_test_assert_null_count_consistent(v);
  to_host(v, &got, &ok);
  expr_ref_assert_equal(type, t->rows, got, ok, ref, ref_ok, what);
  free(got);
  free(ok);
  free(ref);
  free(ref_ok);
  gcol_column_free(out);
  device_table_free(&d);
}

/* filter_expression of BOOL8 @p root over @p t at @p offset: every column of the kept rows
 * against the reference's selection. */
static void check_filter(const expr_ref_tree *tree, int32_t root, const expr_ref_table *t,
                         int64_t offset, const char *what) {
  device_table d;
  gcol_table *kept = NULL;
  uint8_t *flags = (uint8_t *)malloc((size_t)t->rows + 1),
          *flags_ok = (uint8_t *)malloc((size_t)t->rows + 1);
  int64_t count = 0;
  assert_true(flags != NULL && flags_ok != NULL);
  expr_ref_eval(tree, root, t, flags, flags_ok);
  for (int64_t r = 0; r < t->rows; ++r) count += flags_ok[r] && flags[r];
  device_table_make(t, offset, &d);
  GCOL_TEST_OK(gcol_filter_expression(d.view, tree->expr, root, &kept, NULL, NULL));
  gcol_table_view const kv = gcol_table_get_view(kept);
  assert_int_equal(kv.num_columns, t->num_columns);
  assert_int_equal(kv.num_rows, count);
  for (int32_t c = 0; c < t->num_columns; ++c) {
    if (t->types[c].id == GCOL_STRING) { /* the kept rows' strings, nulls included */
      const expr_ref_string *v = (const expr_ref_string *)t->data[c];
      gcol_host_strings *hs = NULL;
      int64_t k = 0;
      GCOL_TEST_OK(gcol_column_strings_copy_to_host(kv.columns[c], NULL, &hs));
      assert_int_equal(hs->size, count);
      for (int64_t r = 0; r < t->rows; ++r) {
        if (!(flags_ok[r] && flags[r])) continue;
        int64_t len = 0;
        const char *got = gcol_host_strings_get(hs, k, &len);
        bool const ok = t->valid[c] == NULL || t->valid[c][r];
        if ((got != NULL) != ok)
          fail_msg("%s, kept column %d row %lld: validity", what, c, (long long)k);
        if (ok) {
          assert_int_equal(len, v[r].size);
          if (len > 0) assert_memory_equal(got, v[r].data, (size_t)len);
        }
        ++k;
      }
      gcol_host_strings_free(hs);
      continue;
    }
    size_t const w = gcol_type_size(t->types[c].id);
    char *exp = (char *)malloc((size_t)(count + 1) * w);
    uint8_t *exp_ok = (uint8_t *)malloc((size_t)count + 1);
    void *got = NULL;
    uint8_t *ok = NULL;
    int64_t k = 0;
    assert_true(exp != NULL && exp_ok != NULL);
    for (int64_t r = 0; r < t->rows; ++r) {
      if (!(flags_ok[r] && flags[r])) continue;
      memcpy(exp + k * (int64_t)w, (const char *)t->data[c] + r * (int64_t)w, w);
      exp_ok[k++] = t->valid[c] == NULL ? 1 : t->valid[c][r];
    }
    to_host(kv.columns[c], &got, &ok);
    char col_what[128];
    snprintf(col_what, sizeof col_what, "%s, kept column %d", what, (int)c);
    expr_ref_assert_equal(t->types[c], count, got, ok, exp, exp_ok, col_what);
    free(got);
    free(ok);
    free(exp);
    free(exp_ok);
  }
  gcol_table_free(kept);
  device_table_free(&d);
  free(flags);
  free(flags_ok);
}

/* Every masked column all null (TESTING.md's all-null pattern; Kleene logic then decides). */
static void all_null(expr_ref_table *t) {
  for (int32_t c = 0; c < t->num_columns; ++c) {
    if (t->valid[c] != NULL) memset(t->valid[c], 0, (size_t)t->rows);
  }
}

static void drop_masks(expr_ref_table *t) {
  for (int32_t c = 0; c < t->num_columns; ++c) {
    free(t->valid[c]);
    t->valid[c] = NULL;
  }
}

/* Random trees of every result type, random tables with and without nulls, sliced. */
static void test_compute_random_trees(void **state) {
  for (int round = 0; round < 120; ++round) {
    if (!gcol_test_in_part(state, (size_t)round)) continue;
    gcol_test_rng rng = gcol_test_rng_make(0xE2000 + (uint64_t)round); /* a round alone replays */
    expr_ref_table t;
    int64_t const rows = gcol_test_cap(gcol_test_rng_range(&rng, 0, 3000));
    int64_t const offset = gcol_test_offsets[(size_t)round % gcol_test_num_offsets];
    expr_ref_table_random(&t, rows, &rng);
    if (round % 4 == 3) drop_masks(&t); /* the no-validity kernel, unless an op makes nulls */
    if (round % 8 == 1) all_null(&t);
    expr_ref_tree *tree = expr_ref_tree_create();
    gcol_data_type const want = expr_ref_random_type(&rng);
    int32_t const root =
        expr_ref_random(tree, &t, &rng, want, (int)gcol_test_rng_range(&rng, 1, 7));
    char what[96];
    snprintf(what, sizeof what, "round %d (%d nodes, %s, %lld rows, offset %lld)", round,
             (int)tree->count, gcol_type_name(want.id), (long long)rows, (long long)offset);
    check_compute(tree, root, &t, offset, what);
    expr_ref_tree_free(tree);
    expr_ref_table_free(&t);
  }
}

static void test_filter_random_predicates(void **state) {
  for (int round = 0; round < 60; ++round) {
    if (!gcol_test_in_part(state, (size_t)round)) continue;
    gcol_test_rng rng = gcol_test_rng_make(0xE3000 + (uint64_t)round);
    expr_ref_table t;
    int64_t const rows = gcol_test_cap(gcol_test_rng_range(&rng, 0, 3000));
    int64_t const offset = gcol_test_offsets[(size_t)round % gcol_test_num_offsets];
    expr_ref_table_random(&t, rows, &rng);
    if (round % 3 == 2) drop_masks(&t);
    if (round % 6 == 1) all_null(&t);
    expr_ref_tree *tree = expr_ref_tree_create();
    int32_t const root = expr_ref_random(tree, &t, &rng, gcol_data_type_make(GCOL_BOOL8),
                                         (int)gcol_test_rng_range(&rng, 2, 6));
    char what[96];
    snprintf(what, sizeof what, "round %d (%d nodes, %lld rows, offset %lld)", round,
             (int)tree->count, (long long)rows, (long long)offset);
    check_filter(tree, root, &t, offset, what);
    expr_ref_tree_free(tree);
    expr_ref_table_free(&t);
  }
}

/* The benchmark's predicate a > 20 AND b != 7 AND c < 0.5 on every size of TESTING.md. */
static int32_t three_terms(expr_ref_tree *tree, const expr_ref_table *t, int32_t a, int32_t b,
                           int32_t c) {
  int32_t const t1 = expr_ref_binary(tree, GCOL_EXPR_GREATER, expr_ref_column(tree, t, a),
                                     expr_ref_literal_int(tree, t->types[a], 20));
  int32_t const t2 = expr_ref_binary(tree, GCOL_EXPR_NOT_EQUAL, expr_ref_column(tree, t, b),
                                     expr_ref_literal_int(tree, t->types[b], 7));
  int32_t const t3 = expr_ref_binary(tree, GCOL_EXPR_LESS, expr_ref_column(tree, t, c),
                                     expr_ref_literal_float(tree, t->types[c], 0.5));
  return expr_ref_binary(tree, GCOL_EXPR_NULL_LOGICAL_AND,
                         expr_ref_binary(tree, GCOL_EXPR_NULL_LOGICAL_AND, t1, t2), t3);
}

static void test_three_terms_sizes(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xE4);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    expr_ref_table t;
    expr_ref_table_random(&t, gcol_test_sizes[s], &rng);
    if (s % 2 == 0) drop_masks(&t);
    expr_ref_tree *tree = expr_ref_tree_create();
    int32_t const root = three_terms(tree, &t, 3 /* int64 */, 2 /* int32 */, 8 /* float64 */);
    char what[64];
    snprintf(what, sizeof what, "three terms, %lld rows", (long long)gcol_test_sizes[s]);
    check_filter(tree, root, &t, s % 3 == 0 ? 0 : 33, what);
    check_compute(tree, root, &t, s % 3 == 0 ? 0 : 33, what);
    expr_ref_tree_free(tree);
    expr_ref_table_free(&t);
  }
}

/* A one-column table without nulls: the filter hands its flags to apply_boolean_mask's
 * single-pass path; with a mask, to the general one. */
static void test_filter_one_column(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xEC);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    expr_ref_table t, one;
    expr_ref_table_random(&t, gcol_test_sizes[s], &rng);
    memset(&one, 0, sizeof one);
    one.num_columns = 1;
    one.rows = t.rows;
    one.types[0] = t.types[3]; /* int64 */
    one.data[0] = t.data[3];
    one.valid[0] = s % 3 == 2 ? t.valid[3] : NULL;
    expr_ref_tree *tree = expr_ref_tree_create();
    int32_t const a = expr_ref_column(tree, &one, 0);
    int32_t const root = expr_ref_binary(
        tree, GCOL_EXPR_NULL_LOGICAL_OR,
        expr_ref_binary(tree, GCOL_EXPR_GREATER, a, expr_ref_literal_int(tree, one.types[0], 3)),
        expr_ref_binary(tree, GCOL_EXPR_EQUAL, a, expr_ref_literal_int(tree, one.types[0], -1)));
    char what[64];
    snprintf(what, sizeof what, "one column, %lld rows", (long long)t.rows);
    check_filter(tree, root, &one, s % 2 == 0 ? 0 : 5, what);
    expr_ref_tree_free(tree);
    expr_ref_table_free(&t); /* `one` borrows t's arrays */
  }
}

/* (a * b + c) / d in float64 and a null literal: the mask exists and every row is null. */
static void test_arith_and_null_literal(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xE5);
  expr_ref_table t;
  expr_ref_table_random(&t, 1000, &rng);
  drop_masks(&t);
  expr_ref_tree *tree = expr_ref_tree_create();
  int32_t const a = expr_ref_column(tree, &t, 8), b = expr_ref_column(tree, &t, 14);
  int32_t const root = expr_ref_binary(
      tree, GCOL_EXPR_DIV,
      expr_ref_binary(tree, GCOL_EXPR_ADD, expr_ref_binary(tree, GCOL_EXPR_MUL, a, b), b), a);
  check_compute(tree, root, &t, 0, "(a * b + c) / d");
  int32_t const nul = expr_ref_binary(
      tree, GCOL_EXPR_ADD, a, expr_ref_literal_null(tree, gcol_data_type_make(GCOL_FLOAT64)));
  check_compute(tree, nul, &t, 5, "a + null");
  gcol_column *out = NULL;
  device_table d;
  device_table_make(&t, 0, &d);
  GCOL_TEST_OK(gcol_compute_column(d.view, tree->expr, nul, &out, NULL, NULL));
  assert_int_equal(out->null_count, 1000);
  gcol_column_free(out);
  GCOL_TEST_OK(gcol_compute_column(d.view, tree->expr, root, &out, NULL, NULL));
  assert_null(out->null_mask); /* no column has nulls and no op makes one: no mask */
  assert_int_equal(out->null_count, 0);
  gcol_column_free(out);
  device_table_free(&d);
  expr_ref_tree_free(tree);
  expr_ref_table_free(&t);
}

/* A program too large for the kernel parameter (127 steps): the device-buffer path. */
static void test_large_program(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xE8);
  expr_ref_table t;
  expr_ref_table_random(&t, 2000, &rng);
  expr_ref_tree *tree = expr_ref_tree_create();
  int32_t level[64];
  for (int k = 0; k < 64; ++k) {
    level[k] = k % 5 == 4 ? expr_ref_literal_float(tree, t.types[8], 0.25 * k)
                          : expr_ref_column(tree, &t, k % 2 == 0 ? 8 : 14);
  }
  for (int width = 64; width > 1; width /= 2) {
    for (int k = 0; k < width / 2; ++k) {
      level[k] = expr_ref_binary(tree, k % 3 == 0 ? GCOL_EXPR_SUB : GCOL_EXPR_ADD, level[2 * k],
                                 level[2 * k + 1]);
    }
  }
  check_compute(tree, level[0], &t, 7, "a sum of 64 leaves");
  int32_t const pred = expr_ref_binary(tree, GCOL_EXPR_LESS, level[0],
                                       expr_ref_literal_float(tree, t.types[8], 0.0));
  check_filter(tree, pred, &t, 0, "a sum of 64 leaves < 0");
  expr_ref_tree_free(tree);
  expr_ref_table_free(&t);
}

/* ---- conditional joins against a nested loop over the reference's pair table ---- */

static void read_map(const gcol_column *map, int64_t *out) {
  gcol_column_view const v = gcol_column_get_view(map);
  assert_int_equal(v.type.id, GCOL_INT32); /* small tables: INT32 maps */
  int32_t *h = (int32_t *)malloc((size_t)(v.size + 1) * sizeof(int32_t));
  assert_non_null(h);
  GCOL_TEST_OK(gcol_column_copy_to_host(v, h, NULL, NULL));
  for (int64_t k = 0; k < v.size; ++k) out[k] = h[k];
  free(h);
}

/* The equality keys of a mixed join: INT32 key columns of each side (made by
 * keys_random), with the null equality; the device tables are sliced at their own offset. */
typedef struct join_keys {
  expr_ref_table left, right;
  gcol_null_equality nulls;
  int64_t offset;
} join_keys;

/* Whether left row i's keys equal right row j's (nulls equal each other only with
 * GCOL_NULLS_EQUAL). */
static bool keys_equal(const join_keys *k, int64_t i, int64_t j) {
  for (int32_t c = 0; c < k->left.num_columns; ++c) {
    bool const lv = k->left.valid[c] == NULL || k->left.valid[c][i];
    bool const rv = k->right.valid[c] == NULL || k->right.valid[c][j];
    if (!lv || !rv) {
      if (lv || rv || k->nulls != GCOL_NULLS_EQUAL) return false;
      continue;
    }
    if (((const int32_t *)k->left.data[c])[i] != ((const int32_t *)k->right.data[c])[j])
      return false;
  }
  return true;
}

/* @p columns INT32 key columns of @p rows rows, values in [0, range], about one null in
 * nine where @p nullable. */
static void keys_random(expr_ref_table *t, int64_t rows, int32_t columns, int32_t range,
                        bool nullable, gcol_test_rng *rng) {
  memset(t, 0, sizeof *t);
  t->num_columns = columns;
  t->rows = rows;
  for (int32_t c = 0; c < columns; ++c) {
    int32_t *v = (int32_t *)malloc((size_t)(rows + 1) * sizeof(int32_t));
    assert_non_null(v);
    t->types[c] = gcol_data_type_make(GCOL_INT32);
    for (int64_t r = 0; r < rows; ++r) v[r] = (int32_t)gcol_test_rng_range(rng, 0, range);
    t->data[c] = v;
    if (nullable) {
      t->valid[c] = (uint8_t *)malloc((size_t)(rows + 1));
      assert_non_null(t->valid[c]);
      for (int64_t r = 0; r < rows; ++r) t->valid[c][r] = gcol_test_rng_range(rng, 0, 8) != 0;
    }
  }
}

static void join_keys_free(join_keys *k) {
  expr_ref_table_free(&k->left);
  expr_ref_table_free(&k->right);
}

/* Checks gcol_conditional_join (@p keys NULL) or gcol_mixed_join (@p keys: pairs match when
 * their keys are equal too) against a nested loop over the pair table, in the documented
 * order. */
static void check_join_keys(const expr_ref_tree *tree, int32_t root, const expr_ref_table *left,
                            const expr_ref_table *right, const expr_ref_table *pairs,
                            const join_keys *keys, gcol_join_kind kind, int64_t loff, int64_t roff,
                            const char *what) {
  int64_t const nl = left->rows, nr = right->rows;
  uint8_t *flags = (uint8_t *)malloc((size_t)pairs->rows + 1);
  uint8_t *flags_ok = (uint8_t *)malloc((size_t)pairs->rows + 1);
  int64_t *exp_l = (int64_t *)malloc((size_t)(pairs->rows + nl + nr + 1) * sizeof(int64_t));
  int64_t *exp_r = (int64_t *)malloc((size_t)(pairs->rows + nl + nr + 1) * sizeof(int64_t));
  int64_t count = 0;
  assert_true(flags && flags_ok && exp_l && exp_r);
  expr_ref_eval(tree, root, pairs, flags, flags_ok);
  if (keys != NULL) { /* a pair with unequal keys does not match */
    for (int64_t p = 0; p < pairs->rows; ++p) {
      if (!keys_equal(keys, p / nr, p % nr)) flags_ok[p] = 0;
    }
  }
  for (int64_t i = 0; i < nl; ++i) {
    int64_t matches = 0;
    for (int64_t j = 0; j < nr; ++j) {
      if (!(flags_ok[i * nr + j] && flags[i * nr + j])) continue;
      ++matches;
      if (kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL) {
        exp_l[count] = i;
        exp_r[count++] = j;
      }
    }
    if ((kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL) && matches == 0) {
      exp_l[count] = i;
      exp_r[count++] = -1;
    }
    if ((kind == GCOL_JOIN_LEFT_SEMI && matches > 0) ||
        (kind == GCOL_JOIN_LEFT_ANTI && matches == 0)) {
      exp_l[count++] = i;
    }
  }
  if (kind == GCOL_JOIN_FULL) { /* then the right rows no left row matched, ascending */
    for (int64_t j = 0; j < nr; ++j) {
      bool matched = false;
      for (int64_t i = 0; i < nl && !matched; ++i)
        matched = flags_ok[i * nr + j] && flags[i * nr + j];
      if (!matched) {
        exp_l[count] = -1;
        exp_r[count++] = j;
      }
    }
  }
  device_table dl, dr;
  device_table_make(left, loff, &dl);
  device_table_make(right, roff, &dr);
  bool const pairs_out = kind != GCOL_JOIN_LEFT_SEMI && kind != GCOL_JOIN_LEFT_ANTI;
  gcol_column *lm = NULL, *rm = (gcol_column *)(uintptr_t)1;
  if (keys == NULL) {
    GCOL_TEST_OK(
        gcol_conditional_join(dl.view, dr.view, tree->expr, root, kind, &lm, &rm, NULL, NULL));
  } else {
    device_table kl, kr;
    device_table_make(&keys->left, keys->offset, &kl);
    device_table_make(&keys->right, keys->offset, &kr);
    GCOL_TEST_OK(gcol_mixed_join(kl.view, kr.view, keys->nulls, dl.view, dr.view, tree->expr, root,
                                 kind, &lm, &rm, NULL, NULL));
    device_table_free(&kl);
    device_table_free(&kr);
  }
  if (!pairs_out) assert_null(rm);
  if (lm->size != count) {
    fail_msg("%s, kind %d: %lld rows, expected %lld", what, (int)kind, (long long)lm->size,
             (long long)count);
  }
  int64_t *got = (int64_t *)malloc((size_t)(count + 1) * sizeof(int64_t));
  assert_non_null(got);
  read_map(lm, got);
  for (int64_t k = 0; k < count; ++k) {
    if (got[k] != exp_l[k])
      fail_msg("%s, kind %d: left_map[%lld] %lld, expected %lld", what, (int)kind, (long long)k,
               (long long)got[k], (long long)exp_l[k]);
  }
  if (pairs_out) {
    assert_int_equal(rm->size, count);
    read_map(rm, got);
    for (int64_t k = 0; k < count; ++k) {
      if (got[k] != exp_r[k])
        fail_msg("%s, kind %d: right_map[%lld] %lld, expected %lld", what, (int)kind, (long long)k,
                 (long long)got[k], (long long)exp_r[k]);
    }
  }
  free(got);
  gcol_column_free(lm);
  if (pairs_out) gcol_column_free(rm);
  device_table_free(&dl);
  device_table_free(&dr);
  free(flags);
  free(flags_ok);
  free(exp_l);
  free(exp_r);
}

static void check_join(const expr_ref_tree *tree, int32_t root, const expr_ref_table *left,
                       const expr_ref_table *right, const expr_ref_table *pairs,
                       gcol_join_kind kind, int64_t loff, int64_t roff, const char *what) {
  check_join_keys(tree, root, left, right, pairs, NULL, kind, loff, roff, what);
}

static void test_conditional_join_random(void **state) {
  static const int64_t sizes[] = {0, 1, 7, 33, 100, 257};
  static const gcol_join_kind kinds[] = {GCOL_JOIN_INNER, GCOL_JOIN_LEFT, GCOL_JOIN_FULL,
                                         GCOL_JOIN_LEFT_SEMI, GCOL_JOIN_LEFT_ANTI};
  for (int round = 0; round < 40; ++round) {
    if (!gcol_test_in_part(state, (size_t)round)) continue;
    /* under the tools rounds 0-3, 8-11, ...: every round % 4 (masks dropped at 3), % 2 and % 3
     * (the offsets 3 and 65) in each part, random sizes up to 257 (past a block) */
    if (!gcol_test_keep_combination((size_t)round / 4)) continue;
    gcol_test_rng rng = gcol_test_rng_make(0xEA000 + (uint64_t)round);
    expr_ref_table left, right, pairs;
    expr_ref_table_random(&left, sizes[gcol_test_rng_range(&rng, 0, 5)], &rng);
    expr_ref_table_random(&right, sizes[gcol_test_rng_range(&rng, 0, 5)], &rng);
    if (round % 4 == 3) {
      drop_masks(&left);
      drop_masks(&right);
    }
    expr_ref_table_pairs(&left, &right, &pairs);
    expr_ref_tree *tree = expr_ref_tree_create();
    tree->right_base = left.num_columns;
    int32_t const root = expr_ref_random(tree, &pairs, &rng, gcol_data_type_make(GCOL_BOOL8),
                                         (int)gcol_test_rng_range(&rng, 2, 5));
    char what[96];
    snprintf(what, sizeof what, "round %d (%d nodes, %lld x %lld rows)", round, (int)tree->count,
             (long long)left.rows, (long long)right.rows);
    for (size_t k = 0; k < 5; ++k) {
      check_join(tree, root, &left, &right, &pairs, kinds[k], round % 2 ? 3 : 0, round % 3 ? 0 : 65,
                 what);
    }
    expr_ref_tree_free(tree);
    expr_ref_table_free(&pairs);
    expr_ref_table_free(&left);
    expr_ref_table_free(&right);
  }
}

/* ---- strings ---- */

/* Random BOOL8 predicates over tables with STRING columns (comparisons, LIKE with and
 * without escapes, IS_NULL / IS_VALID, mixed with numeric ones) in compute_column and
 * filter_expression: the offsets of TESTING.md, INT64 offsets every third round, tables
 * without masks and all null. */
static void test_string_predicates(void **state) {
  int64_t const saved = gcol_large_offsets_threshold();
  for (int round = 0; round < 90; ++round) {
    if (!gcol_test_in_part(state, (size_t)round)) continue;
    gcol_test_rng rng = gcol_test_rng_make(0xE5000 + (uint64_t)round);
    expr_ref_table t;
    int64_t const rows = gcol_test_cap(gcol_test_rng_range(&rng, 0, 3000));
    int64_t const offset = gcol_test_offsets[(size_t)round % gcol_test_num_offsets];
    bool const wide = round % 3 == 1;
    gcol_set_large_offsets_threshold(wide ? 10 : saved); /* INT64 offsets past 10 bytes */
    expr_ref_table_random_strings(&t, rows, &rng);
    if (round % 4 == 3) drop_masks(&t);
    if (round % 8 == 1) all_null(&t);
    expr_ref_tree *tree = expr_ref_tree_create();
    int32_t const root = expr_ref_random(tree, &t, &rng, gcol_data_type_make(GCOL_BOOL8),
                                         (int)gcol_test_rng_range(&rng, 2, 6));
    char what[128];
    snprintf(what, sizeof what, "string round %d (%d nodes, %lld rows, offset %lld, %s offsets)",
             round, (int)tree->count, (long long)rows, (long long)offset, wide ? "int64" : "int32");
    if (round % 2 == 0) {
      check_compute(tree, root, &t, offset, what);
    } else {
      check_filter(tree, root, &t, offset, what);
    }
    expr_ref_tree_free(tree);
    expr_ref_table_free(&t);
  }
  gcol_set_large_offsets_threshold(saved);
}

/* Conditional joins by string predicates over both tables (left and right STRING columns,
 * literals, LIKE), every kind, sliced tables, INT64 offsets every other round. */
static void test_string_conditional_join(void **state) {
  static const int64_t sizes[] = {0, 1, 7, 33, 100, 257};
  static const gcol_join_kind kinds[] = {GCOL_JOIN_INNER, GCOL_JOIN_LEFT, GCOL_JOIN_FULL,
                                         GCOL_JOIN_LEFT_SEMI, GCOL_JOIN_LEFT_ANTI};
  int64_t const saved = gcol_large_offsets_threshold();
  for (int round = 0; round < 30; ++round) {
    if (!gcol_test_in_part(state, (size_t)round)) continue;
    gcol_test_rng rng = gcol_test_rng_make(0xE6000 + (uint64_t)round);
    expr_ref_table left, right, pairs;
    gcol_set_large_offsets_threshold(round % 2 ? 10 : saved);
    expr_ref_table_random_strings(&left, sizes[gcol_test_rng_range(&rng, 0, 5)], &rng);
    expr_ref_table_random_strings(&right, sizes[gcol_test_rng_range(&rng, 0, 5)], &rng);
    if (round % 4 == 3) {
      drop_masks(&left);
      drop_masks(&right);
    }
    expr_ref_table_pairs(&left, &right, &pairs);
    expr_ref_tree *tree = expr_ref_tree_create();
    tree->right_base = left.num_columns;
    int32_t const root = expr_ref_random(tree, &pairs, &rng, gcol_data_type_make(GCOL_BOOL8),
                                         (int)gcol_test_rng_range(&rng, 2, 5));
    char what[96];
    snprintf(what, sizeof what, "string round %d (%d nodes, %lld x %lld rows)", round,
             (int)tree->count, (long long)left.rows, (long long)right.rows);
    for (size_t k = 0; k < 5; ++k) {
      check_join(tree, root, &left, &right, &pairs, kinds[k], round % 2 ? 3 : 0, round % 3 ? 0 : 65,
                 what);
    }
    expr_ref_tree_free(tree);
    expr_ref_table_free(&pairs);
    expr_ref_table_free(&left);
    expr_ref_table_free(&right);
  }
  gcol_set_large_offsets_threshold(saved);
}

/* A range join: left.a (int64) between right.lo and right.hi, by hand. */
static void test_conditional_join_range(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xEB);
  expr_ref_table left, right, pairs;
  expr_ref_table_random(&left, 300, &rng);
  expr_ref_table_random(&right, 40, &rng);
  expr_ref_table_pairs(&left, &right, &pairs);
  expr_ref_tree *tree = expr_ref_tree_create();
  tree->right_base = left.num_columns;
  int32_t const a = expr_ref_column(tree, &pairs, 3); /* left int64 */
  int32_t const lo = expr_ref_column(tree, &pairs, 16 + 3);
  int32_t const hi = expr_ref_binary(
      tree, GCOL_EXPR_ADD, lo, expr_ref_literal_int(tree, gcol_data_type_make(GCOL_INT64), 10));
  int32_t const root = expr_ref_binary(tree, GCOL_EXPR_NULL_LOGICAL_AND,
                                       expr_ref_binary(tree, GCOL_EXPR_GREATER_EQUAL, a, lo),
                                       expr_ref_binary(tree, GCOL_EXPR_LESS, a, hi));
  check_join(tree, root, &left, &right, &pairs, GCOL_JOIN_INNER, 0, 0, "range join");
  check_join(tree, root, &left, &right, &pairs, GCOL_JOIN_LEFT, 1, 7, "range join");
  check_join(tree, root, &left, &right, &pairs, GCOL_JOIN_LEFT_ANTI, 0, 0, "range join");
  check_join(tree, root, &left, &right, &pairs, GCOL_JOIN_FULL, 3, 0, "range join");
  expr_ref_tree_free(tree);
  expr_ref_table_free(&pairs);
  expr_ref_table_free(&left);
  expr_ref_table_free(&right);
}

/* Mixed joins: random keys (1 or 2 columns, with and without nulls, both null equalities)
 * and random predicates over random tables of a few sizes, sliced, every kind. */
static void test_mixed_join_random(void **state) {
  static const int64_t sizes[] = {0, 1, 7, 33, 100, 257};
  static const gcol_join_kind kinds[] = {GCOL_JOIN_INNER, GCOL_JOIN_LEFT, GCOL_JOIN_FULL,
                                         GCOL_JOIN_LEFT_SEMI, GCOL_JOIN_LEFT_ANTI};
  for (int round = 0; round < 40; ++round) {
    if (!gcol_test_in_part(state, (size_t)round)) continue;
    gcol_test_rng rng = gcol_test_rng_make(0xEC000 + (uint64_t)round);
    expr_ref_table left, right, pairs;
    join_keys keys;
    expr_ref_table_random(&left, sizes[gcol_test_rng_range(&rng, 0, 5)], &rng);
    expr_ref_table_random(&right, sizes[gcol_test_rng_range(&rng, 0, 5)], &rng);
    if (round % 4 == 3) {
      drop_masks(&left);
      drop_masks(&right);
    }
    int32_t const num_keys = round % 3 == 2 ? 2 : 1;
    int32_t const range = (int32_t)gcol_test_rng_range(&rng, 1, 9);
    keys_random(&keys.left, left.rows, num_keys, range, round % 5 != 4, &rng);
    keys_random(&keys.right, right.rows, num_keys, range, round % 5 != 4, &rng);
    keys.nulls = round % 2 ? GCOL_NULLS_UNEQUAL : GCOL_NULLS_EQUAL;
    keys.offset = round % 3 ? 5 : 0;
    expr_ref_table_pairs(&left, &right, &pairs);
    expr_ref_tree *tree = expr_ref_tree_create();
    tree->right_base = left.num_columns;
    int32_t const root = expr_ref_random(tree, &pairs, &rng, gcol_data_type_make(GCOL_BOOL8),
                                         (int)gcol_test_rng_range(&rng, 2, 5));
    char what[128];
    snprintf(what, sizeof what, "mixed round %d (%d nodes, %d keys, %lld x %lld rows)", round,
             (int)tree->count, (int)num_keys, (long long)left.rows, (long long)right.rows);
    for (size_t k = 0; k < 5; ++k) {
      check_join_keys(tree, root, &left, &right, &pairs, &keys, kinds[k], round % 2 ? 3 : 0,
                      round % 4 ? 0 : 65, what);
    }
    expr_ref_tree_free(tree);
    join_keys_free(&keys);
    expr_ref_table_free(&pairs);
    expr_ref_table_free(&left);
    expr_ref_table_free(&right);
  }
}

/* A mixed join of an equality key and a range (left.a in [right.lo, right.lo + 10)), with
 * many candidates per left row (4 key values). */
static void test_mixed_join_range(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xED);
  expr_ref_table left, right, pairs;
  join_keys keys;
  expr_ref_table_random(&left, 300, &rng);
  expr_ref_table_random(&right, 40, &rng);
  keys_random(&keys.left, left.rows, 1, 4, true, &rng);
  keys_random(&keys.right, right.rows, 1, 4, true, &rng);
  keys.nulls = GCOL_NULLS_EQUAL;
  keys.offset = 2;
  expr_ref_table_pairs(&left, &right, &pairs);
  expr_ref_tree *tree = expr_ref_tree_create();
  tree->right_base = left.num_columns;
  int32_t const a = expr_ref_column(tree, &pairs, 3); /* left int64 */
  int32_t const lo = expr_ref_column(tree, &pairs, 16 + 3);
  int32_t const hi = expr_ref_binary(
      tree, GCOL_EXPR_ADD, lo, expr_ref_literal_int(tree, gcol_data_type_make(GCOL_INT64), 10));
  int32_t const root = expr_ref_binary(tree, GCOL_EXPR_NULL_LOGICAL_AND,
                                       expr_ref_binary(tree, GCOL_EXPR_GREATER_EQUAL, a, lo),
                                       expr_ref_binary(tree, GCOL_EXPR_LESS, a, hi));
  check_join_keys(tree, root, &left, &right, &pairs, &keys, GCOL_JOIN_INNER, 0, 0, "mixed range");
  check_join_keys(tree, root, &left, &right, &pairs, &keys, GCOL_JOIN_LEFT, 1, 7, "mixed range");
  check_join_keys(tree, root, &left, &right, &pairs, &keys, GCOL_JOIN_LEFT_SEMI, 0, 3,
                  "mixed range");
  check_join_keys(tree, root, &left, &right, &pairs, &keys, GCOL_JOIN_LEFT_ANTI, 0, 0,
                  "mixed range");
  keys.nulls = GCOL_NULLS_UNEQUAL;
  check_join_keys(tree, root, &left, &right, &pairs, &keys, GCOL_JOIN_FULL, 3, 0, "mixed range");
  expr_ref_tree_free(tree);
  join_keys_free(&keys);
  expr_ref_table_free(&pairs);
  expr_ref_table_free(&left);
  expr_ref_table_free(&right);
}

/* Bad input: a clear status, the outputs NULL. */
static void test_mixed_join_bad_input(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xEE);
  expr_ref_table left, right, pairs, kother;
  join_keys keys;
  expr_ref_table_random(&left, 20, &rng);
  expr_ref_table_random(&right, 10, &rng);
  keys_random(&keys.left, 20, 1, 4, false, &rng);
  keys_random(&keys.right, 10, 1, 4, false, &rng);
  keys_random(&kother, 20, 1, 4, false, &rng);
  kother.types[0] = gcol_data_type_make(GCOL_UINT32); /* same width, another type */
  expr_ref_table_pairs(&left, &right, &pairs);
  expr_ref_tree *tree = expr_ref_tree_create();
  tree->right_base = left.num_columns;
  int32_t const a = expr_ref_column(tree, &pairs, 3);
  int32_t const b = expr_ref_column(tree, &pairs, 16 + 3);
  int32_t const pred = expr_ref_binary(tree, GCOL_EXPR_LESS, a, b);
  int32_t const sum = expr_ref_binary(tree, GCOL_EXPR_ADD, a, b); /* INT64, not BOOL8 */
  device_table dl, dr, kl, kr, ku;
  device_table_make(&left, 0, &dl);
  device_table_make(&right, 0, &dr);
  device_table_make(&keys.left, 0, &kl);
  device_table_make(&keys.right, 0, &kr);
  device_table_make(&kother, 0, &ku);
  gcol_column *lm = NULL, *rm = NULL;
  /* the right conditional table has 10 rows, the left keys 20 */
  assert_int_equal(gcol_mixed_join(kl.view, kr.view, GCOL_NULLS_EQUAL, dr.view, dr.view, tree->expr,
                                   pred, GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_null(lm);
  assert_null(rm);
  assert_int_equal(gcol_mixed_join(kl.view, kr.view, GCOL_NULLS_EQUAL, dl.view, dl.view, tree->expr,
                                   pred, GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_int_equal(gcol_mixed_join(ku.view, kr.view, GCOL_NULLS_EQUAL, dl.view, dr.view, tree->expr,
                                   pred, GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_int_equal(gcol_mixed_join(kl.view, kr.view, GCOL_NULLS_EQUAL, dl.view, dr.view, tree->expr,
                                   sum, GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_int_equal(gcol_mixed_join(kl.view, kr.view, GCOL_NULLS_EQUAL, dl.view, dr.view, tree->expr,
                                   pred, (gcol_join_kind)9, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_mixed_join(kl.view, kr.view, GCOL_NULLS_EQUAL, dl.view, dr.view, tree->expr,
                                   pred, GCOL_JOIN_INNER, &lm, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_mixed_join(kl.view, kr.view, GCOL_NULLS_EQUAL, dl.view, dr.view, NULL, pred,
                                   GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_mixed_join(kl.view, kr.view, GCOL_NULLS_EQUAL, dl.view, dr.view, tree->expr,
                                   pred, GCOL_JOIN_INNER, NULL, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_mixed_join(kl.view, kr.view, (gcol_null_equality)7, dl.view, dr.view,
                                   tree->expr, pred, GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(lm);
  assert_null(rm);
  device_table_free(&dl);
  device_table_free(&dr);
  device_table_free(&kl);
  device_table_free(&kr);
  device_table_free(&ku);
  expr_ref_tree_free(tree);
  join_keys_free(&keys);
  expr_ref_table_free(&kother);
  expr_ref_table_free(&pairs);
  expr_ref_table_free(&left);
  expr_ref_table_free(&right);
}

static void test_empty_table(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xE6);
  expr_ref_table t;
  expr_ref_table_random(&t, 0, &rng);
  expr_ref_tree *tree = expr_ref_tree_create();
  int32_t const root = three_terms(tree, &t, 3, 2, 8);
  device_table d;
  device_table_make(&t, 0, &d);
  gcol_column *out = NULL;
  gcol_table *kept = NULL;
  GCOL_TEST_OK(gcol_compute_column(d.view, tree->expr, root, &out, NULL, NULL));
  assert_int_equal(out->size, 0);
  assert_int_equal(out->type.id, GCOL_BOOL8);
  GCOL_TEST_OK(gcol_filter_expression(d.view, tree->expr, root, &kept, NULL, NULL));
  assert_int_equal(gcol_table_get_view(kept).num_rows, 0);
  assert_int_equal(gcol_table_get_view(kept).num_columns, t.num_columns);
  gcol_column_free(out);
  gcol_table_free(kept);
  device_table_free(&d);
  expr_ref_tree_free(tree);
  expr_ref_table_free(&t);
}

typedef struct alloc_ctx {
  gcol_table_view input;
  gcol_table_view right;
  gcol_table_view left_keys, right_keys;
  gcol_join_kind kind;
  gcol_column *right_map;
  const gcol_expression *expr;
  int32_t root;
  int op;
  gcol_column *col;
  gcol_table *table;
} alloc_ctx;

static gcol_status alloc_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  if (c->op == 0) return gcol_compute_column(c->input, c->expr, c->root, &c->col, NULL, NULL);
  if (c->op == 2) {
    return gcol_conditional_join(c->input, c->right, c->expr, c->root, GCOL_JOIN_FULL, &c->col,
                                 &c->right_map, NULL, NULL);
  }
  if (c->op == 3) {
    return gcol_mixed_join(c->left_keys, c->right_keys, GCOL_NULLS_EQUAL, c->input, c->right,
                           c->expr, c->root, c->kind, &c->col, &c->right_map, NULL, NULL);
  }
  return gcol_filter_expression(c->input, c->expr, c->root, &c->table, NULL, NULL);
}

static void alloc_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_column_free(c->col);
  gcol_column_free(c->right_map);
  gcol_table_free(c->table);
  c->right_map = NULL;
  c->col = NULL;
  c->table = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xE7);
  expr_ref_table t;
  expr_ref_table_random(&t, 5000, &rng);
  expr_ref_tree *tree = expr_ref_tree_create();
  int32_t const root = three_terms(tree, &t, 3, 2, 8);
  device_table d;
  device_table_make(&t, 3, &d);
  alloc_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.input = d.view;
  ctx.expr = tree->expr;
  ctx.root = root;
  for (int op = 0; op < 2; ++op) {
    ctx.op = op;
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  }
  /* a conditional join of the table with a slice of itself by the same predicate (left
   * references only: every left row either matches every right row or none) */
  device_table small;
  expr_ref_table t2;
  expr_ref_table_random(&t2, 50, &rng);
  device_table_make(&t2, 0, &small);
  ctx.right = small.view;
  ctx.op = 2;
  assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  /* a mixed join of the same tables on random keys, every kind */
  expr_ref_table klt, krt;
  device_table kl, kr;
  keys_random(&klt, t.rows, 1, 8, true, &rng);
  keys_random(&krt, t2.rows, 1, 8, true, &rng);
  device_table_make(&klt, 1, &kl);
  device_table_make(&krt, 0, &kr);
  ctx.left_keys = kl.view;
  ctx.right_keys = kr.view;
  ctx.op = 3;
  for (int kind = GCOL_JOIN_INNER; kind <= GCOL_JOIN_LEFT_ANTI; ++kind) {
    ctx.kind = (gcol_join_kind)kind;
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  }
  device_table_free(&kl);
  device_table_free(&kr);
  expr_ref_table_free(&klt);
  expr_ref_table_free(&krt);
  device_table_free(&small);
  expr_ref_table_free(&t2);
  device_table_free(&d);
  expr_ref_tree_free(tree);
  expr_ref_table_free(&t);
}

/* Allocation failure at every point of the string paths (the constants' block, string
 * columns' descriptors): compute, filter, a conditional join and a mixed join, each kind,
 * by `col16 LIKE "a%!%" ESCAPE "!" OR col17 >= "ab"` (the left table's columns only). */
static void test_string_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xE8);
  expr_ref_table t, t2, klt, krt;
  expr_ref_table_random_strings(&t, 2000, &rng);
  expr_ref_table_random_strings(&t2, 40, &rng);
  expr_ref_tree *tree = expr_ref_tree_create();
  int32_t const like = expr_ref_like(tree, expr_ref_column(tree, &t, 16), "a%!%", 4, "!", false);
  int32_t const cmp = expr_ref_binary(tree, GCOL_EXPR_GREATER_EQUAL, expr_ref_column(tree, &t, 17),
                                      expr_ref_literal_string(tree, "ab", 2));
  int32_t const root = expr_ref_binary(tree, GCOL_EXPR_NULL_LOGICAL_OR, like, cmp);
  device_table d, small, kl, kr;
  device_table_make(&t, 5, &d);
  device_table_make(&t2, 0, &small);
  alloc_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.input = d.view;
  ctx.right = small.view;
  ctx.expr = tree->expr;
  ctx.root = root;
  for (int op = 0; op < 3; ++op) {
    ctx.op = op;
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  }
  keys_random(&klt, t.rows, 1, 8, true, &rng);
  keys_random(&krt, t2.rows, 1, 8, true, &rng);
  device_table_make(&klt, 0, &kl);
  device_table_make(&krt, 0, &kr);
  ctx.left_keys = kl.view;
  ctx.right_keys = kr.view;
  ctx.op = 3;
  for (int kind = GCOL_JOIN_INNER; kind <= GCOL_JOIN_LEFT_ANTI; ++kind) {
    ctx.kind = (gcol_join_kind)kind;
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  }
  device_table_free(&kl);
  device_table_free(&kr);
  expr_ref_table_free(&klt);
  expr_ref_table_free(&krt);
  device_table_free(&small);
  device_table_free(&d);
  expr_ref_tree_free(tree);
  expr_ref_table_free(&t2);
  expr_ref_table_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_compute_random_trees, 0, 2),
      GCOL_TEST_GPU_PART(test_compute_random_trees, 1, 2),
      GCOL_TEST_GPU_PART(test_filter_random_predicates, 0, 2),
      GCOL_TEST_GPU_PART(test_filter_random_predicates, 1, 2),
      GCOL_TEST_GPU(test_three_terms_sizes),
      GCOL_TEST_GPU(test_arith_and_null_literal),
      GCOL_TEST_GPU(test_large_program),
      GCOL_TEST_GPU(test_filter_one_column),
      GCOL_TEST_GPU_PART(test_conditional_join_random, 0, 2),
      GCOL_TEST_GPU_PART(test_conditional_join_random, 1, 2),
      GCOL_TEST_GPU(test_conditional_join_range),
      GCOL_TEST_GPU_PART(test_string_predicates, 0, 2),
      GCOL_TEST_GPU_PART(test_string_predicates, 1, 2),
      GCOL_TEST_GPU(test_string_conditional_join),
      GCOL_TEST_GPU_PART(test_mixed_join_random, 0, 2),
      GCOL_TEST_GPU_PART(test_mixed_join_random, 1, 2),
      GCOL_TEST_GPU(test_mixed_join_range),
      GCOL_TEST_GPU(test_mixed_join_bad_input),
      GCOL_TEST_GPU(test_empty_table),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_string_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("expression", tests);
}
