/*
 * GPU tests of gcol/search.h against the host reference: lower and upper bounds of needle
 * rows in sorted haystacks (multi-column, orders, null orders, strings, slices), contains
 * with nulls and float edge values, and the stable merge of sorted tables.
 */
#include "sort_test_data.h"

/* Sorts a test column's host rows and device rows the same way: returns the sorted table
 * (device) and the host reference of its rows through `perm`. */
static gcol_table *sorted_copy(gcol_table_view keys, const gcol_order *o,
                               const gcol_null_order *no) {
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_stable_sort(keys, o, no, &out, NULL, NULL));
  return out;
}

/* Reference bound: first haystack position (in sorted order `perm`) whose row compares
 * >= (lower) or > (upper) the needle. */
static int64_t ref_bound(const ref_column *hay, const int64_t *perm, int64_t hay_rows,
                         const ref_column *ndl, int64_t needle, int32_t ncols, bool upper) {
  for (int64_t p = 0; p < hay_rows; ++p) {
    int const cmp = ref_compare_rows2(hay, perm[p], ndl, needle, ncols);
    if (upper ? cmp > 0 : cmp >= 0) return p;
  }
  return hay_rows;
}

static void test_bounds(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(31);
  gcol_type_id const ids[] = {GCOL_INT64, GCOL_FLOAT32, GCOL_STRING, GCOL_DECIMAL128, GCOL_BOOL8};
  int64_t const hay_sizes[] = {0, 1, 63, 1000};
  for (size_t s = 0; s < sizeof hay_sizes / sizeof hay_sizes[0]; ++s) {
    for (int combo = 0; combo < 8; ++combo) {
      int32_t const ncols = 1 + combo % 2;
      int64_t const hn = hay_sizes[s], nn = 257;
      test_column hay[2], ndl[2];
      gcol_column_view hv[2], nv[2];
      ref_column hr[2], nr[2];
      gcol_order orders[2];
      gcol_null_order nulls[2];
      gcol_table_view ht, nt;
      gcol_table *sorted = NULL;
      gcol_column *lower = NULL, *upper = NULL;
      int64_t *perm = (int64_t *)malloc(sizeof(int64_t) * ((size_t)hn + 1));
      for (int32_t c = 0; c < ncols; ++c) {
        gcol_type_id const id = ids[(c + combo) % 5];
        gcol_data_type const type =
            gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, 3) : gcol_data_type_make(id);
        orders[c] = (gcol_order)((combo >> 1) & 1);
        nulls[c] = (gcol_null_order)((combo >> 2) & 1);
        test_column_make(&rng, type, hn, 1, GCOL_TEST_RANDOM_NULLS, orders[c], nulls[c], &hay[c]);
        test_column_make(&rng, type, nn, 33, GCOL_TEST_RANDOM_NULLS, orders[c], nulls[c], &ndl[c]);
        hv[c] = hay[c].view;
        nv[c] = ndl[c].view;
        hr[c] = hay[c].ref;
        nr[c] = ndl[c].ref;
      }
      GCOL_TEST_OK(gcol_table_view_make(hv, ncols, &ht));
      GCOL_TEST_OK(gcol_table_view_make(nv, ncols, &nt));
      sorted = sorted_copy(ht, orders, nulls);
      ref_stable_order(hr, ncols, hn, perm);
      GCOL_TEST_OK(
          gcol_lower_bound(gcol_table_get_view(sorted), nt, orders, nulls, &lower, NULL, NULL));
      GCOL_TEST_OK(
          gcol_upper_bound(gcol_table_get_view(sorted), nt, orders, nulls, &upper, NULL, NULL));
      {
        int64_t *lo = copy_indices(gcol_column_get_view(lower));
        int64_t *up = copy_indices(gcol_column_get_view(upper));
        for (int64_t i = 0; i < nn; ++i) {
          assert_int_equal(lo[i], ref_bound(hr, perm, hn, nr, i, ncols, false));
          assert_int_equal(up[i], ref_bound(hr, perm, hn, nr, i, ncols, true));
        }
        free(lo);
        free(up);
      }
      gcol_column_free(lower);
      gcol_column_free(upper);
      gcol_table_free(sorted);
      free(perm);
      for (int32_t c = 0; c < ncols; ++c) {
        test_column_free(&hay[c]);
        test_column_free(&ndl[c]);
      }
    }
  }
}

static void test_contains(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(32);
  gcol_type_id const ids[] = {GCOL_INT8, GCOL_FLOAT64, GCOL_STRING, GCOL_UINT64, GCOL_DECIMAL64};
  int64_t const sizes[] = {0, 1, 100, 4097};
  for (size_t k = 0; k < sizeof ids / sizeof ids[0]; ++k) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
        test_column hay, ndl;
        gcol_column *out = NULL;
        int64_t const hn = sizes[s], nn = 129;
        uint8_t got[129], got_valid[129];
        test_column_make(&rng, gcol_data_type_make(ids[k]), hn, 5, (gcol_test_validity)v,
                         GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, &hay);
        test_column_make(&rng, gcol_data_type_make(ids[k]), nn, 3, GCOL_TEST_RANDOM_NULLS,
                         GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, &ndl);
        GCOL_TEST_OK(gcol_contains(hay.view, ndl.view, &out, NULL, NULL));
        assert_int_equal(gcol_column_get_view(out).type.id, GCOL_BOOL8);
        GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), got, got_valid, NULL));
        for (int64_t i = 0; i < nn; ++i) {
          bool const nvalid = ndl.ref.valid == NULL || ndl.ref.valid[i];
          assert_int_equal(got_valid[i], nvalid);
          if (!nvalid) continue;
          bool want = false;
          for (int64_t j = 0; j < hn && !want; ++j) {
            bool const hvalid = hay.ref.valid == NULL || hay.ref.valid[j];
            want = hvalid && ref_compare_rows2(&hay.ref, j, &ndl.ref, i, 1) == 0;
          }
          assert_int_equal(got[i] != 0, want);
        }
        gcol_column_free(out);
        test_column_free(&hay);
        test_column_free(&ndl);
      }
    }
  }
}

/* Three sorted tables (int32 key with nulls, string payload) merge stably: equal keys keep
 * table order, then row order. */
static void test_merge(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(33);
  int64_t const sizes[3] = {100, 0, 257};
  gcol_order const o = GCOL_ORDER_DESCENDING;
  gcol_null_order const no = GCOL_NULLS_BEFORE;
  test_column key[3];
  gcol_table *sorted[3] = {NULL, NULL, NULL};
  gcol_table_view inputs[3];
  gcol_column *tags[3] = {NULL, NULL, NULL};
  int64_t total = 0;
  int32_t key_col = 0;
  gcol_table *merged = NULL;
  for (int t = 0; t < 3; ++t) {
    int64_t const n = sizes[t];
    int32_t *tag = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1));
    gcol_column_view cols[2];
    gcol_table_view tv, kv;
    for (int64_t i = 0; i < n; ++i) tag[i] = (int32_t)(t * 100000 + i);
    test_column_make(&rng, gcol_data_type_make(GCOL_INT32), n, 0, GCOL_TEST_RANDOM_NULLS, o, no,
                     &key[t]);
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, tag, NULL, NULL,
                                              NULL, &tags[t]));
    cols[0] = key[t].view;
    cols[1] = gcol_column_get_view(tags[t]);
    GCOL_TEST_OK(gcol_table_view_make(cols, 2, &tv));
    GCOL_TEST_OK(gcol_table_view_make(cols, 1, &kv));
    GCOL_TEST_OK(gcol_stable_sort_by_key(tv, kv, &o, &no, &sorted[t], NULL, NULL));
    inputs[t] = gcol_table_get_view(sorted[t]);
    total += n;
    free(tag);
  }
  GCOL_TEST_OK(gcol_merge(inputs, 3, &key_col, 1, &o, &no, &merged, NULL, NULL));
  {
    gcol_table_view const mv = gcol_table_get_view(merged);
    int32_t *keys = (int32_t *)malloc(sizeof(int32_t) * (size_t)total);
    int32_t *tag = (int32_t *)malloc(sizeof(int32_t) * (size_t)total);
    uint8_t *valid = (uint8_t *)malloc((size_t)total);
    ref_column r = {gcol_data_type_make(GCOL_INT32), total, keys, valid, NULL, NULL, o, no};
    assert_int_equal(mv.num_rows, total);
    GCOL_TEST_OK(gcol_column_copy_to_host(mv.columns[0], keys, valid, NULL));
    GCOL_TEST_OK(gcol_column_copy_to_host(mv.columns[1], tag, NULL, NULL));
    for (int64_t i = 1; i < total; ++i) {
      int const cmp = ref_compare_rows(&r, 1, i - 1, i);
      assert_true(cmp <= 0);
      if (cmp == 0) assert_true(tag[i - 1] < tag[i]); /* stable: table, then row order */
    }
    /* every tagged row appears once, with its own key */
    for (int64_t i = 0; i < total; ++i) {
      int const t = tag[i] / 100000;
      int64_t const row = tag[i] % 100000;
      assert_true(t >= 0 && t < 3 && row < sizes[t]);
    }
    free(keys);
    free(tag);
    free(valid);
  }
  gcol_table_free(merged);
  for (int t = 0; t < 3; ++t) {
    gcol_table_free(sorted[t]);
    gcol_column_free(tags[t]);
    test_column_free(&key[t]);
  }
}

typedef struct search_fault_ctx {
  test_column hay, ndl;
  int op;                  /* 0 contains, 1 lower_bound, 2 merge */
  gcol_table *merge_in[2]; /* sorted copies of hay and ndl: merge needs sorted inputs */
  gcol_column *column;
  gcol_table *table;
} search_fault_ctx;

static gcol_status search_fault_op(void *p) {
  search_fault_ctx *c = (search_fault_ctx *)p;
  gcol_table_view tables[2];
  int32_t const key = 0;
  GCOL_TEST_OK(gcol_table_view_make(&c->hay.view, 1, &tables[0]));
  GCOL_TEST_OK(gcol_table_view_make(&c->ndl.view, 1, &tables[1]));
  if (c->op == 2) {
    tables[0] = gcol_table_get_view(c->merge_in[0]);
    tables[1] = gcol_table_get_view(c->merge_in[1]);
  }
  if (c->op == 0) return gcol_contains(c->hay.view, c->ndl.view, &c->column, NULL, NULL);
  if (c->op == 1) {
    return gcol_lower_bound(tables[0], tables[1], NULL, NULL, &c->column, NULL, NULL);
  }
  return gcol_merge(tables, 2, &key, 1, NULL, NULL, &c->table, NULL, NULL);
}

static void search_fault_cleanup(void *p) {
  search_fault_ctx *c = (search_fault_ctx *)p;
  gcol_column_free(c->column);
  gcol_table_free(c->table);
  c->column = NULL;
  c->table = NULL;
}

/* Every allocation of contains, lower_bound and merge fails once: OUT_OF_MEMORY, no
 * output, nothing leaked. */
static void test_search_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(34);
  search_fault_ctx c;
  memset(&c, 0, sizeof c);
  test_column_make(&rng, gcol_data_type_make(GCOL_STRING), 500, 1, GCOL_TEST_RANDOM_NULLS,
                   GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, &c.hay);
  test_column_make(&rng, gcol_data_type_make(GCOL_STRING), 50, 2, GCOL_TEST_RANDOM_NULLS,
                   GCOL_ORDER_ASCENDING, GCOL_NULLS_AFTER, &c.ndl);
  for (int t = 0; t < 2; ++t) {
    gcol_table_view in;
    GCOL_TEST_OK(gcol_table_view_make(t == 0 ? &c.hay.view : &c.ndl.view, 1, &in));
    GCOL_TEST_OK(gcol_stable_sort(in, NULL, NULL, &c.merge_in[t], NULL, NULL));
  }
  for (c.op = 0; c.op < 3; ++c.op) {
    assert_true(gcol_test_check_allocation_failures(search_fault_op, search_fault_cleanup, &c) >=
                1);
    assert_null(c.column);
    assert_null(c.table);
  }
  gcol_table_free(c.merge_in[0]);
  gcol_table_free(c.merge_in[1]);
  test_column_free(&c.hay);
  test_column_free(&c.ndl);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_bounds),
      GCOL_TEST_GPU(test_contains),
      GCOL_TEST_GPU(test_merge),
      GCOL_TEST_GPU(test_search_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("search", tests);
}
