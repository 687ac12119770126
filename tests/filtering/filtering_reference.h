/*
 * Host reference code for the filtering, filling and null_ops tests: host columns
 * (fixed-width bytes or C strings, with validity), random generators that make duplicates
 * and the special float values, upload to the device, the expected kept-row indices of each
 * operation in plain C, and logical comparison of a device result with host rows.
 */
#ifndef GCOL_TESTS_FILTERING_REFERENCE_H
#define GCOL_TESTS_FILTERING_REFERENCE_H

#include "test_util.h"

#include "gcol/filling.h"
#include "gcol/filtering.h"
#include "gcol/null_ops.h"

/* A host column: fixed-width values as bytes, or strings; validity always present. */
typedef struct ref_column {
  gcol_data_type type;
  int64_t size;
  size_t width;    /* fixed-width bytes per value; 0 for STRING */
  uint8_t *values; /* size * width bytes */
  char **strs;     /* STRING: size pointers (never NULL; "" for nulls) */
  int64_t *lens;   /* STRING: byte lengths */
  uint8_t *valid;  /* size bytes, 1 = valid */
  bool has_mask;   /* upload with a null mask */
} ref_column;

/* Random column of n rows. `distinct_values` > 0 draws values from a pool of that many
 * (duplicates for distinct/unique); 0 draws random bits (floats include NaN, +-0, +-Inf,
 * MIN, MAX and subnormals). */
ref_column ref_column_random(gcol_test_rng *rng, gcol_data_type type, int64_t n,
                             gcol_test_validity validity, int distinct_values);
/* Column with row i = i (INT64, no mask): a row id column to see which rows were kept. */
ref_column ref_column_row_ids(int64_t n);
void ref_column_free(ref_column *c);

/* Uploads a host column (strings with lengths, so "\0" survives). */
void ref_column_to_device(const ref_column *c, gcol_column **out);

/* True if rows a and b of c are equal per the documented key equality. */
bool ref_values_equal(const ref_column *c, int64_t a, int64_t b);
bool ref_rows_equal(const ref_column *const *keys, int32_t num_keys, bool nulls_equal, int64_t a,
                    int64_t b);

/* Expected kept rows (ascending indices into [0, n) of a slice starting at `offset` of the
 * host columns). Each returns the count; idx must hold n entries. */
int64_t ref_mask_indices(const ref_column *mask, int64_t offset, int64_t n, int64_t *idx);
int64_t ref_drop_nulls_indices(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                               int64_t n, int64_t threshold, int64_t *idx);
int64_t ref_drop_nans_indices(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                              int64_t n, int64_t threshold, int64_t *idx);
/* For GCOL_KEEP_ANY the group ids are written (group[i] = group of row i, -1 for rows
 * unique by unequal nulls) so that any representative can be checked. */
int64_t ref_distinct_indices(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                             int64_t n, gcol_duplicate_keep keep, bool nulls_equal, int64_t *idx,
                             int64_t *group);
int64_t ref_unique_indices(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                           int64_t n, gcol_duplicate_keep keep, bool nulls_equal, int64_t *idx);

/* Asserts that device column `actual` holds rows src[offset + idx[j]] for j < count. */
void ref_assert_rows(gcol_column_view actual, const ref_column *src, int64_t offset,
                     const int64_t *idx, int64_t count);
/* Reads an INT64 device column without nulls into a new host array. */
int64_t *ref_read_i64(gcol_column_view v);

/* A slice helper that fails the test on error. */
gcol_column_view ref_slice(gcol_column_view v, int64_t begin, int64_t end);

#endif /* GCOL_TESTS_FILTERING_REFERENCE_H */
