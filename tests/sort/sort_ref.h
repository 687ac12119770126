/*
 * Host reference for sorting and searching tests: an independent row comparator written
 * from the documented order (not from the normalized keys), a stable qsort with it, rank,
 * bounds, and random key generators with the edge values of TESTING.md.
 */
#ifndef GCOL_TESTS_SORT_REF_H
#define GCOL_TESTS_SORT_REF_H

#include "test_util.h"

/* One key column in host memory. */
typedef struct ref_column {
  gcol_data_type type;
  int64_t size;
  const void *data;           /* fixed-width: `size` values in storage */
  const uint8_t *valid;       /* NULL: all valid */
  const char *const *strings; /* STRING: `size` pointers (NULL entries for nulls) */
  const int64_t *lengths;     /* STRING: byte lengths */
  gcol_order order;
  gcol_null_order null_order;
} ref_column;

/* Compares valid values a and b of one column, ascending: <0, 0, >0. */
int ref_compare_values(const ref_column *c, int64_t a, int64_t b);

/* Compares rows a and b of `cols` in output order (orders and null orders applied). */
int ref_compare_rows(const ref_column *cols, int32_t num_cols, int64_t a, int64_t b);

/* Compares row a of `left` with row b of `right` (same shapes). */
int ref_compare_rows2(const ref_column *left, int64_t a, const ref_column *right, int64_t b,
                      int32_t num_cols);

/* perm[0..n) = the stable sorted order (qsort with the row index as the last key). */
void ref_stable_order(const ref_column *cols, int32_t num_cols, int64_t n, int64_t *perm);

/* Fills `n` random values of `type` (storage) into data: a small range (ties) mixed with the
 * type's MIN, MAX and, for floats, NaN, -NaN, +-0, +-Inf, subnormals. */
void ref_fill_values(gcol_test_rng *rng, gcol_data_type type, void *data, int64_t n);

/* Storage bytes of one value of a fixed-width type. */
size_t ref_value_size(gcol_type_id id);

/* Reads an index column element (INT32 or INT64 host data). */
int64_t ref_index_at(const void *data, gcol_type_id type, int64_t i);

#endif /* GCOL_TESTS_SORT_REF_H */
