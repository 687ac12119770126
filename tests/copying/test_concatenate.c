/*
 * GPU tests of gcol_concatenate, gcol_concatenate_tables, gcol_slice_copy and
 * gcol_split_copy against the plain-C reference: every kind, sliced inputs at every offset
 * (masks at arbitrary bit offsets, strings whose first offset is not 0), mixed validity,
 * empty inputs, the INT32 -> INT64 offsets switch at the threshold, and fault injection;
 * gcol_detail_concatenate_owned (whole columns gcol owns, nothing read back) against the same
 * reference.
 */
#include "copying_reference.h"
#include "internal/column.h"

/* Concatenates `num` random columns of one kind, each sliced at its own offset and with its
 * own validity pattern, and checks against the reference. */
static void check_concat(gcol_test_rng *rng, hkind kind, gcol_type_id fixed, int num,
                         int64_t max_rows, const char *what) {
  hcol *parts[8];
  gcol_column *owners[8];
  gcol_column_view views[8];
  for (int j = 0; j < num; ++j) {
    int64_t const rows = gcol_test_rng_range(rng, 0, max_rows);
    gcol_test_validity const p =
        (gcol_test_validity)gcol_test_rng_range(rng, 0, GCOL_TEST_NUM_VALIDITY - 1);
    parts[j] = hcol_random(rng, kind, fixed, rows, p);
    if (j > 0 && kind == HK_FIXED) parts[j]->type = parts[0]->type;
    int64_t const offset =
        gcol_test_offsets[gcol_test_rng_range(rng, 0, (int64_t)gcol_test_num_offsets - 1)];
    views[j] = hcol_to_device_sliced(parts[j], offset, j % 2 == 1, rng, &owners[j]);
  }
  hcol *expected = hcol_concat(parts, num);
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_concatenate(views, num, &out, NULL, NULL));
  char context[128];
  snprintf(context, sizeof context, "%s: concatenate %d columns", what, num);
  hcol_assert_device_equal(expected, gcol_column_get_view(out), context);
  gcol_column_free(out);
  hcol_free(expected);
  for (int j = 0; j < num; ++j) {
    gcol_column_free(owners[j]);
    hcol_free(parts[j]);
  }
}

static void test_concatenate_every_fixed_type(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(301);
  for (size_t t = 0; t < hcol_num_fixed_types; ++t) {
    for (int num = 1; num <= 8; num += 3) {
      check_concat(&rng, HK_FIXED, hcol_fixed_types[t], num, 140,
                   gcol_type_name(hcol_fixed_types[t]));
    }
  }
}

static void test_concatenate_nested_kinds(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(302);
  for (int k = HK_STRING; k < HK_NUM_KINDS; ++k) {
    for (int trial = 0; trial < 12; ++trial) {
      check_concat(&rng, (hkind)k, GCOL_EMPTY, 1 + trial % 8, trial < 6 ? 40 : 300,
                   hkind_name((hkind)k));
    }
  }
}

static void test_concatenate_large(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(303);
  check_concat(&rng, HK_FIXED, GCOL_INT64, 3, 600000, "~1e6 int64");
  check_concat(&rng, HK_STRING, GCOL_EMPTY, 3, gcol_test_cap(200000), "strings");
}

/* All inputs empty: an empty column of the type. */
static void test_concatenate_empty_inputs(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(304);
  for (int k = HK_FIXED; k < HK_NUM_KINDS; ++k) {
    hcol *empty = hcol_random(&rng, (hkind)k, GCOL_INT16, 0, GCOL_TEST_NO_MASK);
    gcol_column *c = hcol_to_device(empty, false, NULL);
    gcol_column_view views[3] = {gcol_column_get_view(c), gcol_column_get_view(c),
                                 gcol_column_get_view(c)};
    gcol_column *out = NULL;
    GCOL_TEST_OK(gcol_concatenate(views, 3, &out, NULL, NULL));
    assert_int_equal(out->size, 0);
    assert_int_equal(out->type.id, empty->type.id);
    gcol_column_free(out);
    gcol_column_free(c);
    hcol_free(empty);
  }
}

/* Exactly at the threshold the offsets stay INT32; one byte over they become INT64. */
static void test_concatenate_offsets_threshold(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(305);
  for (int k = HK_STRING; k <= HK_LIST_STRING; ++k) {
    hcol *parts[3];
    gcol_column *owners[3];
    gcol_column_view views[3];
    for (int j = 0; j < 3; ++j) {
      parts[j] = hcol_random(&rng, (hkind)k, GCOL_EMPTY, 100, GCOL_TEST_RANDOM_NULLS);
      views[j] = hcol_to_device_sliced(parts[j], 7, false, &rng, &owners[j]);
    }
    hcol *expected = hcol_concat(parts, 3);
    int64_t const total = expected->offsets[expected->size];
    for (int over = 0; over < 2; ++over) {
      int64_t const previous = gcol_set_large_offsets_threshold(over ? total - 1 : total);
      gcol_column *out = NULL;
      gcol_status const st = gcol_concatenate(views, 3, &out, NULL, NULL);
      gcol_set_large_offsets_threshold(previous);
      GCOL_TEST_OK(st);
      assert_int_equal(out->children[GCOL_OFFSETS_CHILD]->type.id, over ? GCOL_INT64 : GCOL_INT32);
      hcol_assert_device_equal(expected, gcol_column_get_view(out),
                               over ? "INT64 offsets" : "INT32 offsets");
      gcol_column_free(out);
    }
    hcol_free(expected);
    for (int j = 0; j < 3; ++j) {
      gcol_column_free(owners[j]);
      hcol_free(parts[j]);
    }
  }
}

static void test_concatenate_tables(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(306);
  hcol *cols[3][2];
  gcol_column *dev[3][2];
  gcol_column_view views[3][2];
  gcol_table_view tables[3];
  for (int t = 0; t < 3; ++t) {
    int64_t const rows = gcol_test_rng_range(&rng, 0, 100);
    cols[t][0] = hcol_random(&rng, HK_FIXED, GCOL_FLOAT64, rows, GCOL_TEST_RANDOM_NULLS);
    cols[t][1] = hcol_random(&rng, HK_STRUCT, GCOL_EMPTY, rows, GCOL_TEST_LAST_NULL);
    for (int c = 0; c < 2; ++c) {
      dev[t][c] = hcol_to_device(cols[t][c], false, NULL);
      views[t][c] = gcol_column_get_view(dev[t][c]);
    }
    GCOL_TEST_OK(gcol_table_view_make(views[t], 2, &tables[t]));
  }
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_concatenate_tables(tables, 3, &out, NULL, NULL));
  for (int c = 0; c < 2; ++c) {
    hcol *parts[3] = {cols[0][c], cols[1][c], cols[2][c]};
    hcol *expected = hcol_concat(parts, 3);
    hcol_assert_device_equal(expected, gcol_table_get_view(out).columns[c], "table column");
    hcol_free(expected);
  }
  gcol_table_free(out);
  /* A column type that differs between tables. */
  gcol_column_view swapped[2] = {views[1][1], views[1][0]};
  gcol_table_view bad[2] = {tables[0], {2, tables[1].num_rows, swapped}};
  GCOL_TEST_STATUS(gcol_concatenate_tables(bad, 2, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  for (int t = 0; t < 3; ++t) {
    for (int c = 0; c < 2; ++c) {
      gcol_column_free(dev[t][c]);
      hcol_free(cols[t][c]);
    }
  }
}

static void test_split_and_slice_copies(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(307);
  hcol *a = hcol_random(&rng, HK_LIST_STRING, GCOL_EMPTY, 200, GCOL_TEST_RANDOM_NULLS);
  hcol *b = hcol_random(&rng, HK_FIXED, GCOL_BOOL8, 200, GCOL_TEST_FIRST_NULL);
  gcol_column *oa = NULL, *ob = NULL;
  gcol_column_view views[2] = {hcol_to_device_sliced(a, 65, false, &rng, &oa),
                               hcol_to_device_sliced(b, 3, false, &rng, &ob)};
  gcol_table_view table;
  GCOL_TEST_OK(gcol_table_view_make(views, 2, &table));
  int64_t const splits[4] = {0, 33, 33, 150};
  gcol_table *pieces[5];
  GCOL_TEST_OK(gcol_split_copy(table, splits, 4, pieces, NULL, NULL));
  int64_t const bounds[10] = {0, 0, 0, 33, 33, 33, 33, 150, 150, 200};
  for (int k = 0; k < 5; ++k) {
    hcol *ea = hcol_slice(a, bounds[2 * k], bounds[2 * k + 1]);
    hcol *eb = hcol_slice(b, bounds[2 * k], bounds[2 * k + 1]);
    hcol_assert_device_equal(ea, gcol_table_get_view(pieces[k]).columns[0], "split list<string>");
    hcol_assert_device_equal(eb, gcol_table_get_view(pieces[k]).columns[1], "split bool8");
    hcol_free(ea);
    hcol_free(eb);
    gcol_table_free(pieces[k]);
  }
  int64_t const ranges[6] = {5, 7, 199, 200, 1, 199};
  GCOL_TEST_OK(gcol_slice_copy(table, ranges, 3, pieces, NULL, NULL));
  for (int k = 0; k < 3; ++k) {
    hcol *ea = hcol_slice(a, ranges[2 * k], ranges[2 * k + 1]);
    hcol_assert_device_equal(ea, gcol_table_get_view(pieces[k]).columns[0], "slice list<string>");
    hcol_free(ea);
    gcol_table_free(pieces[k]);
  }
  gcol_column_free(oa);
  gcol_column_free(ob);
  hcol_free(a);
  hcol_free(b);
}

typedef struct fault_ctx {
  const gcol_column_view *views;
  int num;
} fault_ctx;

static gcol_status run_concat(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column *out = (gcol_column *)c;
  gcol_status const st = gcol_concatenate(c->views, c->num, &out, NULL, NULL);
  if (st != GCOL_OK && out != NULL) fail_msg("failed concatenate left an output");
  gcol_column_free(out);
  return st;
}

static void test_concatenate_fail_every_allocation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(308);
  for (int k = HK_FIXED; k < HK_NUM_KINDS; ++k) {
    hcol *parts[3];
    gcol_column *owners[3];
    gcol_column_view views[3];
    for (int j = 0; j < 3; ++j) {
      parts[j] = hcol_random(&rng, (hkind)k, GCOL_INT32, 90, GCOL_TEST_RANDOM_NULLS);
      views[j] = hcol_to_device_sliced(parts[j], 1 + 2 * j, false, &rng, &owners[j]);
    }
    fault_ctx ctx = {views, 3};
    int const failures = hcol_fail_nth_loop(run_concat, &ctx, hkind_name((hkind)k));
    assert_true(failures >= 2);
    for (int j = 0; j < 3; ++j) {
      gcol_column_free(owners[j]);
      hcol_free(parts[j]);
    }
  }
}

/* Whole owned columns (as a batched Parquet read's pieces are) concatenated without reading
 * their offsets back: every kind, empty pieces and pieces of empty strings or lists among
 * them, masks and exact null counts. */
static void test_concatenate_owned(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(306);
  for (int k = HK_FIXED; k < HK_NUM_KINDS; ++k) {
    for (int trial = 0; trial < 8; ++trial) {
      int const num = 1 + trial % 5;
      hcol *parts[5];
      gcol_column *pieces[5];
      for (int j = 0; j < num; ++j) {
        int64_t const rows = (trial + j) % 3 == 0 ? 0 : gcol_test_rng_range(&rng, 1, 300);
        gcol_test_validity const v =
            (gcol_test_validity)gcol_test_rng_range(&rng, 0, GCOL_TEST_NUM_VALIDITY - 1);
        parts[j] = hcol_random(&rng, (hkind)k, GCOL_INT64, rows, v);
        if (j > 0 && k == HK_FIXED) parts[j]->type = parts[0]->type;
        pieces[j] = hcol_to_device(parts[j], trial % 2 == 1, NULL);
      }
      hcol *expected = hcol_concat(parts, num);
      gcol_column *out = NULL;
      GCOL_TEST_OK(gcol_detail_concatenate_owned(pieces, num, NULL, NULL, &out));
      char context[128];
      snprintf(context, sizeof context, "%s: %d owned pieces", hkind_name((hkind)k), num);
      hcol_assert_device_equal(expected, gcol_column_get_view(out), context);
      int64_t nulls = 0;
      for (int64_t i = 0; i < expected->size; ++i) nulls += hcol_is_valid(expected, i) ? 0 : 1;
      assert_int_equal(out->null_count, nulls);
      gcol_column_free(out);
      hcol_free(expected);
      for (int j = 0; j < num; ++j) {
        gcol_column_free(pieces[j]);
        hcol_free(parts[j]);
      }
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_concatenate_every_fixed_type),
      GCOL_TEST_GPU(test_concatenate_nested_kinds),
      GCOL_TEST_GPU(test_concatenate_large),
      GCOL_TEST_GPU(test_concatenate_empty_inputs),
      GCOL_TEST_GPU(test_concatenate_offsets_threshold),
      GCOL_TEST_GPU(test_concatenate_tables),
      GCOL_TEST_GPU(test_split_and_slice_copies),
      GCOL_TEST_GPU(test_concatenate_fail_every_allocation),
      GCOL_TEST_GPU(test_concatenate_owned),
  };
  return GCOL_TEST_RUN_GPU("copying_concatenate", tests);
}
