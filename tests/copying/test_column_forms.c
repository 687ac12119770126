/*
 * GPU tests of the single-column forms (gcol_column_gather, gcol_column_reverse,
 * gcol_column_apply_boolean_mask, gcol_column_distinct, gcol_column_sort): each gives the
 * column that its table form gives for a table of that column alone, on integers with
 * nulls, floats with -0.0 and NaN, strings with nulls and empty strings, and slices of
 * them (offset views, unknown null counts). SKIPs without a device.
 */
#include "test_util.h"

#include <math.h>

#include "gcol/copying.h"
#include "gcol/filtering.h"
#include "gcol/sorting.h"

enum { NUM_OWNED = 3, NUM_INPUTS = 6 };

typedef struct inputs {
  gcol_column *owned[NUM_OWNED];
  gcol_column_view views[NUM_INPUTS];
  const char *names[NUM_INPUTS];
} inputs;

static void make_inputs(inputs *in) {
  gcol_test_rng rng = gcol_test_rng_make(1901);
  int64_t const rows = 40;
  int32_t ints[40];
  double floats[40];
  uint8_t valid[40];
  const char *strings[40];
  static const char *const words[] = {"", "a", "ab", "\xc3\xa9t\xc3\xa9", "zz", "a"};
  for (int64_t i = 0; i < rows; ++i) {
    ints[i] = (int32_t)gcol_test_rng_range(&rng, -5, 5); /* many duplicates */
    floats[i] = i % 7 == 0 ? -0.0 : i % 11 == 0 ? NAN : (double)gcol_test_rng_range(&rng, -3, 3);
    valid[i] = gcol_test_rng_range(&rng, 0, 3) != 0;
    strings[i] = valid[i] ? words[gcol_test_rng_range(&rng, 0, 5)] : NULL;
  }
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), rows, ints, valid,
                                            NULL, NULL, &in->owned[0]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), rows, floats, valid,
                                            NULL, NULL, &in->owned[1]));
  GCOL_TEST_OK(
      gcol_column_create_strings_from_host(rows, strings, NULL, NULL, NULL, &in->owned[2]));
  for (int i = 0; i < NUM_OWNED; ++i) {
    in->views[i] = gcol_column_get_view(in->owned[i]);
    GCOL_TEST_OK(gcol_column_view_slice(in->views[i], 3, 3 + 29, &in->views[NUM_OWNED + i]));
  }
  static const char *const names[NUM_INPUTS] = {"int32",       "float64",       "string",
                                                "int32 slice", "float64 slice", "string slice"};
  for (int i = 0; i < NUM_INPUTS; ++i) in->names[i] = names[i];
}

static void free_inputs(inputs *in) {
  for (int i = 0; i < NUM_OWNED; ++i) gcol_column_free(in->owned[i]);
}

/* The column form's result equals the table form's one column; frees both. */
static void expect_same(const char *what, const char *input, gcol_column *column,
                        gcol_table *table) {
  if (column == NULL || table == NULL || table->num_columns != 1) {
    fail_msg("%s of %s: no column or no one-column table", what, input);
  }
  gcol_column_view const got = gcol_column_get_view(column);
  gcol_column_view const want = gcol_table_get_view(table).columns[0];
  assert_int_equal(got.type.id, want.type.id);
  assert_int_equal(got.size, want.size);
  gcol_test_assert_columns_equal(got, want);
  gcol_test_assert_null_count_consistent(got);
  gcol_column_free(column);
  gcol_table_free(table);
}

static void test_gather_matches_table_form(void **state) {
  (void)state;
  inputs in;
  make_inputs(&in);
  gcol_test_rng rng = gcol_test_rng_make(1902);
  for (int i = 0; i < NUM_INPUTS; ++i) {
    int64_t const rows = in.views[i].size;
    int32_t map[25];
    uint8_t map_valid[25];
    for (int j = 0; j < 25; ++j) {
      map[j] = (int32_t)gcol_test_rng_range(&rng, -rows - 2, rows + 2); /* some out of range */
      map_valid[j] = j % 9 != 4;
    }
    gcol_column *map_col = NULL;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 25, map, map_valid,
                                              NULL, NULL, &map_col));
    gcol_table_view table;
    GCOL_TEST_OK(gcol_table_view_make(&in.views[i], 1, &table));
    gcol_column *column = NULL;
    gcol_table *tab = NULL;
    GCOL_TEST_OK(gcol_column_gather(in.views[i], gcol_column_get_view(map_col),
                                    GCOL_OUT_OF_BOUNDS_NULLIFY, GCOL_NEGATIVE_INDEX_WRAP, &column,
                                    NULL, NULL));
    GCOL_TEST_OK(gcol_gather(table, gcol_column_get_view(map_col), GCOL_OUT_OF_BOUNDS_NULLIFY,
                             GCOL_NEGATIVE_INDEX_WRAP, &tab, NULL, NULL));
    expect_same("gather", in.names[i], column, tab);
    gcol_column_free(map_col);
  }
  free_inputs(&in);
}

static void test_reverse_matches_table_form(void **state) {
  (void)state;
  inputs in;
  make_inputs(&in);
  for (int i = 0; i < NUM_INPUTS; ++i) {
    gcol_table_view table;
    GCOL_TEST_OK(gcol_table_view_make(&in.views[i], 1, &table));
    gcol_column *column = NULL;
    gcol_table *tab = NULL;
    GCOL_TEST_OK(gcol_column_reverse(in.views[i], &column, NULL, NULL));
    GCOL_TEST_OK(gcol_reverse(table, &tab, NULL, NULL));
    expect_same("reverse", in.names[i], column, tab);
  }
  free_inputs(&in);
}

static void test_apply_boolean_mask_matches_table_form(void **state) {
  (void)state;
  inputs in;
  make_inputs(&in);
  gcol_test_rng rng = gcol_test_rng_make(1903);
  for (int i = 0; i < NUM_INPUTS; ++i) {
    int64_t const rows = in.views[i].size;
    uint8_t keep[40], keep_valid[40];
    for (int64_t j = 0; j < rows; ++j) {
      keep[j] = (uint8_t)gcol_test_rng_range(&rng, 0, 1);
      keep_valid[j] = j % 5 != 2;
    }
    gcol_column *mask = NULL;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), rows, keep,
                                              i % 2 == 0 ? keep_valid : NULL, NULL, NULL, &mask));
    gcol_table_view table;
    GCOL_TEST_OK(gcol_table_view_make(&in.views[i], 1, &table));
    gcol_column *column = NULL;
    gcol_table *tab = NULL;
    GCOL_TEST_OK(gcol_column_apply_boolean_mask(in.views[i], gcol_column_get_view(mask), &column,
                                                NULL, NULL));
    GCOL_TEST_OK(gcol_apply_boolean_mask(table, gcol_column_get_view(mask), &tab, NULL, NULL));
    expect_same("apply_boolean_mask", in.names[i], column, tab);
    gcol_column_free(mask);
  }
  free_inputs(&in);
}

static void test_distinct_matches_table_form(void **state) {
  (void)state;
  inputs in;
  make_inputs(&in);
  static const gcol_duplicate_keep keeps[] = {GCOL_KEEP_FIRST, GCOL_KEEP_LAST, GCOL_KEEP_ANY,
                                              GCOL_KEEP_NONE};
  int32_t const key = 0;
  for (int i = 0; i < NUM_INPUTS; ++i) {
    for (int k = 0; k < 4; ++k) {
      for (int nulls = 0; nulls < 2; ++nulls) {
        gcol_null_equality const eq = nulls ? GCOL_NULLS_UNEQUAL : GCOL_NULLS_EQUAL;
        gcol_table_view table;
        GCOL_TEST_OK(gcol_table_view_make(&in.views[i], 1, &table));
        gcol_column *column = NULL;
        gcol_table *tab = NULL;
        GCOL_TEST_OK(gcol_column_distinct(in.views[i], keeps[k], eq, &column, NULL, NULL));
        GCOL_TEST_OK(gcol_distinct(table, &key, 1, keeps[k], eq, &tab, NULL, NULL));
        if (keeps[k] == GCOL_KEEP_ANY) {
          /* Any row of a group: the two calls may keep different ones (-0.0 or 0.0, and
           * so at different places), so only the number of groups must agree. */
          assert_int_equal(column->size, tab->num_rows);
          gcol_column_free(column);
          gcol_table_free(tab);
          continue;
        }
        expect_same("distinct", in.names[i], column, tab);
      }
    }
  }
  free_inputs(&in);
}

static void test_sort_matches_table_form(void **state) {
  (void)state;
  inputs in;
  make_inputs(&in);
  for (int i = 0; i < NUM_INPUTS; ++i) {
    for (int o = 0; o < 2; ++o) {
      for (int n = 0; n < 2; ++n) {
        gcol_order const order = o ? GCOL_ORDER_DESCENDING : GCOL_ORDER_ASCENDING;
        gcol_null_order const null_order = n ? GCOL_NULLS_BEFORE : GCOL_NULLS_AFTER;
        gcol_table_view table;
        GCOL_TEST_OK(gcol_table_view_make(&in.views[i], 1, &table));
        gcol_column *column = NULL;
        gcol_table *tab = NULL;
        GCOL_TEST_OK(gcol_column_sort(in.views[i], order, null_order, &column, NULL, NULL));
        GCOL_TEST_OK(gcol_stable_sort(table, &order, &null_order, &tab, NULL, NULL));
        expect_same("sort", in.names[i], column, tab);
      }
    }
  }
  free_inputs(&in);
}

/* Empty input: an empty column of the input's type, as the table forms give. */
static void test_empty_inputs(void **state) {
  (void)state;
  inputs in;
  make_inputs(&in);
  for (int i = 0; i < NUM_OWNED; ++i) {
    gcol_column_view empty;
    GCOL_TEST_OK(gcol_column_view_slice(in.views[i], 5, 5, &empty));
    gcol_column *outs[4] = {NULL, NULL, NULL, NULL};
    GCOL_TEST_OK(gcol_column_reverse(empty, &outs[0], NULL, NULL));
    GCOL_TEST_OK(
        gcol_column_distinct(empty, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &outs[1], NULL, NULL));
    GCOL_TEST_OK(
        gcol_column_sort(empty, GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, &outs[2], NULL, NULL));
    gcol_column_view empty_map; /* INT32, no rows */
    GCOL_TEST_OK(gcol_column_view_slice(in.views[0], 5, 5, &empty_map));
    GCOL_TEST_OK(gcol_column_gather(in.views[i], empty_map, GCOL_OUT_OF_BOUNDS_NULLIFY,
                                    GCOL_NEGATIVE_INDEX_WRAP, &outs[3], NULL, NULL));
    for (int k = 0; k < 4; ++k) {
      assert_non_null(outs[k]);
      assert_int_equal(outs[k]->type.id, in.views[i].type.id);
      assert_int_equal(outs[k]->size, 0);
      gcol_column_free(outs[k]);
    }
  }
  free_inputs(&in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_gather_matches_table_form),
      GCOL_TEST_GPU(test_reverse_matches_table_form),
      GCOL_TEST_GPU(test_apply_boolean_mask_matches_table_form),
      GCOL_TEST_GPU(test_distinct_matches_table_form),
      GCOL_TEST_GPU(test_sort_matches_table_form),
      GCOL_TEST_GPU(test_empty_inputs),
  };
  return GCOL_TEST_RUN_GPU("column_forms", tests);
}
