/*
 * Host reference of the groupby tests: key columns on the host, the row order of the API
 * (lexicographic; nulls last; floats with -0.0 == 0.0 and NaN last, all NaNs equal;
 * strings by bytes), grouping of rows (input order within a group) and each group's
 * values as a reduction reference column (tests/reduction/reduction_reference.h).
 */
#ifndef GCOL_TESTS_GROUPBY_REFERENCE_H
#define GCOL_TESTS_GROUPBY_REFERENCE_H

#include "../reduction/reduction_reference.h"

/* A host key column: fixed-width values (`data`) or NUL-terminated strings (`str`). */
typedef struct gb_key {
  gcol_type_id type;
  const void *data;
  char *const *str;
  const uint8_t *valid; /* NULL: all valid */
} gb_key;

/* <0, 0, >0: row i of a against row j of b over nk key columns. */
int gb_row_compare(const gb_key *a, int64_t i, const gb_key *b, int64_t j, int nk);
bool gb_row_has_null(const gb_key *k, int64_t i, int nk);

/* Groups in key order: group g is rows[offsets[g] .. offsets[g + 1]) in input order. */
typedef struct gb_groups {
  int64_t num_groups;
  int64_t *offsets;
  int64_t *rows;
} gb_groups;

gb_groups gb_group_rows(const gb_key *keys, int nk, int64_t n, bool drop_null_keys);
void gb_groups_free(gb_groups *g);

/* Group g's values (a copy; free with ref_column_free). */
ref_column gb_group_values(const ref_column *values, const gb_groups *groups, int64_t g);

/* The permutation that sorts n rows of the key columns (ties by row). */
int64_t *gb_sort_rows(const gb_key *keys, int nk, int64_t n);

#endif /* GCOL_TESTS_GROUPBY_REFERENCE_H */
