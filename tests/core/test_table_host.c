/*
 * Whole tables to and from host memory (table.h): a table of every kind of column (INT64
 * with nulls, FLOAT32 without a mask, BOOL8, DECIMAL128, STRING with nulls and empty rows)
 * round-trips through gcol_table_create_from_host and gcol_table_copy_to_host at each size,
 * sliced views copy only their rows, host string offsets may start anywhere, and bad input
 * gets a status and a message. The same columns one at a time through the host-column form
 * (gcol_column_copy_to_host_column, gcol_column_create_from_host_column) and the host row
 * accessors.
 */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

enum { NUM_COLUMNS = 5 };

/* A host table of n rows, from the rng; strings row i is "s<i>" or empty every 7th row. */
static gcol_host_table *host_table_make(gcol_test_rng *rng, int64_t n) {
  gcol_host_table *t = (gcol_host_table *)calloc(1, sizeof *t);
  t->num_columns = NUM_COLUMNS;
  t->num_rows = n;
  t->columns = (gcol_host_column *)calloc(NUM_COLUMNS, sizeof *t->columns);
  gcol_type_id const ids[4] = {GCOL_INT64, GCOL_FLOAT32, GCOL_BOOL8, GCOL_DECIMAL128};
  size_t const rows = n > 0 ? (size_t)n : 1;
  for (int c = 0; c < 4; ++c) {
    gcol_host_column *col = &t->columns[c];
    col->type = ids[c] == GCOL_DECIMAL128 ? gcol_data_type_decimal(GCOL_DECIMAL128, -3)
                                          : gcol_data_type_make(ids[c]);
    col->size = n;
    size_t const w = gcol_type_size(ids[c]);
    col->data = malloc(rows * w);
    gcol_test_rng_fill(rng, col->data, (size_t)n * w);
    if (ids[c] == GCOL_BOOL8) {
      for (int64_t i = 0; i < n; ++i) ((uint8_t *)col->data)[i] &= 1;
    }
    if (c != 1) { /* FLOAT32 has no mask */
      col->valid = (uint8_t *)malloc(rows);
      gcol_test_fill_valid(rng, (gcol_test_validity)(c == 0 ? GCOL_TEST_RANDOM_NULLS
                                                            : GCOL_TEST_ALL_VALID),
                           col->valid, n);
    }
  }
  gcol_host_column *s = &t->columns[4];
  s->type = gcol_data_type_make(GCOL_STRING);
  s->size = n;
  s->offsets = (int64_t *)malloc((rows + 1) * sizeof *s->offsets);
  s->valid = (uint8_t *)malloc(rows);
  gcol_test_fill_valid(rng, GCOL_TEST_RANDOM_NULLS, s->valid, n);
  s->data = malloc(rows * 24 + 8);
  int64_t at = 5; /* offsets need not start at 0: the first 5 bytes are not a row's */
  memcpy(s->data, "skip!", 5);
  for (int64_t i = 0; i < n; ++i) {
    s->offsets[i] = at;
    if (i % 7 != 3) at += snprintf((char *)s->data + at, 24, "s%lld", (long long)i);
  }
  s->offsets[n] = at;
  return t;
}

static void host_table_free_made(gcol_host_table *t) {
  gcol_host_table_free(t); /* the same layout as gcol_table_copy_to_host's */
}

/* Rows [first, first + count) of `want` equal `got` (valid rows; validity). */
static void assert_host_rows_equal(const gcol_host_table *want, int64_t first,
                                   const gcol_host_table *got) {
  assert_int_equal(got->num_columns, want->num_columns);
  for (int c = 0; c < want->num_columns; ++c) {
    const gcol_host_column *w = &want->columns[c], *g = &got->columns[c];
    assert_int_equal(g->type.id, w->type.id);
    assert_int_equal(g->type.scale, w->type.scale);
    assert_int_equal(g->size, got->num_rows);
    if (w->valid == NULL) assert_null(g->valid);
    for (int64_t i = 0; i < g->size; ++i) {
      bool const wv = w->valid == NULL || w->valid[first + i];
      bool const gv = g->valid == NULL || g->valid[i];
      if (wv != gv) fail_msg("column %d row %lld: validity %d, want %d", c, (long long)i, gv, wv);
      if (!wv) continue;
      if (w->type.id == GCOL_STRING) {
        int64_t const wl = w->offsets[first + i + 1] - w->offsets[first + i];
        int64_t const gl = g->offsets[i + 1] - g->offsets[i];
        assert_int_equal(gl, wl);
        assert_memory_equal((const char *)g->data + g->offsets[i],
                            (const char *)w->data + w->offsets[first + i], (size_t)wl);
      } else {
        size_t const sz = gcol_type_size(w->type.id);
        assert_memory_equal((const char *)g->data + (size_t)i * sz,
                            (const char *)w->data + (size_t)(first + i) * sz, sz);
      }
    }
    if (w->type.id == GCOL_STRING) assert_int_equal(g->offsets[0], 0);
  }
}

static void tables_round_trip_through_host(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4101);
  for (size_t k = 0; k < gcol_test_num_sizes; ++k) {
    int64_t const n = gcol_test_sizes[k];
    gcol_host_table *host = host_table_make(&rng, n);
    gcol_table *table = NULL;
    GCOL_TEST_OK(gcol_table_create_from_host(host, NULL, NULL, &table));
    assert_int_equal(table->num_rows, n);
    gcol_host_table *back = NULL;
    GCOL_TEST_OK(gcol_table_copy_to_host(gcol_table_get_view(table), NULL, &back));
    assert_int_equal(back->num_rows, n);
    assert_host_rows_equal(host, 0, back);
    gcol_host_table_free(back);
    /* a slice copies its rows only */
    int64_t const off = n > 2 ? n / 3 : 0, len = n > 2 ? n / 2 : n;
    gcol_column_view storage[NUM_COLUMNS];
    gcol_table_view sliced;
    GCOL_TEST_OK(gcol_table_view_slice(gcol_table_get_view(table), off, off + len, storage,
                                       &sliced));
    GCOL_TEST_OK(gcol_table_copy_to_host(sliced, NULL, &back));
    assert_int_equal(back->num_rows, len);
    assert_host_rows_equal(host, off, back);
    gcol_host_table_free(back);
    gcol_table_free(table);
    host_table_free_made(host);
  }
}

/* One column at a time, fixed width and STRING alike: gcol_column_create_from_host_column and
 * gcol_column_copy_to_host_column round-trip each column of the host table (slices too), the
 * string rows read back through gcol_host_column_string and, from the older strings form,
 * gcol_host_strings_get. */
static void columns_round_trip_through_host_columns(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4103);
  for (size_t k = 0; k < gcol_test_num_sizes; ++k) {
    int64_t const n = gcol_test_sizes[k];
    gcol_host_table *host = host_table_make(&rng, n);
    for (int c = 0; c < NUM_COLUMNS; ++c) {
      gcol_column *col = NULL;
      GCOL_TEST_OK(gcol_column_create_from_host_column(&host->columns[c], NULL, NULL, &col));
      int64_t const off = n > 2 ? n / 3 : 0, len = n > 2 ? n / 2 : n;
      gcol_column_view sliced;
      GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), off, off + len, &sliced));
      for (int pass = 0; pass < 2; ++pass) {
        int64_t const first = pass == 0 ? 0 : off;
        gcol_column_view const v = pass == 0 ? gcol_column_get_view(col) : sliced;
        gcol_host_column *back = NULL;
        GCOL_TEST_OK(gcol_column_copy_to_host_column(v, NULL, &back));
        /* compare through the table checker: one-column host tables over the same arrays */
        gcol_host_table want = {1, n, &host->columns[c]};
        gcol_host_table got = {1, v.size, back};
        assert_host_rows_equal(&want, first, &got);
        if (back->type.id == GCOL_STRING) {
          gcol_host_strings *hs = NULL;
          GCOL_TEST_OK(gcol_column_strings_copy_to_host(v, NULL, &hs));
          for (int64_t i = 0; i < v.size; ++i) {
            int64_t want_len = 0, got_len = -1, old_len = -1;
            const gcol_host_column *w = &host->columns[c];
            const char *const got_row = gcol_host_column_string(back, i, &got_len);
            const char *const old_row = gcol_host_strings_get(hs, i, &old_len);
            const char *const want_row = gcol_host_column_string(w, first + i, &want_len);
            assert_int_equal(got_row == NULL, want_row == NULL);
            assert_int_equal(old_row == NULL, want_row == NULL);
            assert_int_equal(got_len, want_len);
            assert_int_equal(old_len, want_len);
            if (want_row != NULL) {
              assert_memory_equal(got_row, want_row, (size_t)want_len);
              assert_memory_equal(old_row, want_row, (size_t)want_len);
            }
          }
          gcol_host_strings_free(hs);
        } else {
          int64_t len_out = -1;
          assert_null(gcol_host_column_string(back, 0, &len_out));
        }
        gcol_host_column_free(back);
      }
      gcol_column_free(col);
    }
    host_table_free_made(host);
  }
}

static void bad_tables_are_refused(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4102);
  gcol_host_table *host = host_table_make(&rng, 10);
  gcol_table *table = NULL;
  gcol_host_table *back = NULL;
  GCOL_TEST_STATUS(gcol_table_create_from_host(NULL, NULL, NULL, &table),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_table_create_from_host(host, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  host->columns[2].size = 9;
  GCOL_TEST_STATUS(gcol_table_create_from_host(host, NULL, NULL, &table),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "gcol_table_create_from_host"));
  assert_non_null(strstr(gcol_last_error(), "column 2"));
  host->columns[2].size = 10;
  int64_t *offsets = host->columns[4].offsets;
  host->columns[4].offsets = NULL;
  GCOL_TEST_STATUS(gcol_table_create_from_host(host, NULL, NULL, &table),
                   GCOL_ERROR_INVALID_ARGUMENT);
  host->columns[4].offsets = offsets;
  host->columns[3].type = gcol_data_type_make(GCOL_LIST);
  GCOL_TEST_STATUS(gcol_table_create_from_host(host, NULL, NULL, &table),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(table); /* the columns made before the failure were freed (teardown checks) */
  host->columns[3].type = gcol_data_type_decimal(GCOL_DECIMAL128, -3);
  GCOL_TEST_OK(gcol_table_create_from_host(host, NULL, NULL, &table));
  GCOL_TEST_STATUS(gcol_table_copy_to_host(gcol_table_get_view(table), NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_table_view v = gcol_table_get_view(table);
  v.columns = NULL;
  GCOL_TEST_STATUS(gcol_table_copy_to_host(v, NULL, &back), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(back);
  gcol_table_free(table);
  host_table_free_made(host);
  gcol_host_table_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(tables_round_trip_through_host),
      GCOL_TEST_GPU(columns_round_trip_through_host_columns),
      GCOL_TEST_GPU(bad_tables_are_refused),
  };
  return GCOL_TEST_RUN_GPU("table_host", tests);
}
