/* Test data of the strings GPU tests: host strings (chars, int64 offsets, validity bytes)
 * drawn at random from a list of pieces or given row by row, and their device columns with
 * INT32 or INT64 offsets, and the checks of their outputs. Shared by the strings GPU tests,
 * which differ only in the pieces and lengths they draw. */
#ifndef GCOL_TESTS_STRINGS_TEST_DATA_H
#define GCOL_TESTS_STRINGS_TEST_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "gcol/column.h"
#include "test_util.h"

typedef struct host_strings {
  int64_t n;
  char *chars;
  int64_t *offsets; /* n + 1 */
  uint8_t *valid;   /* n */
} host_strings;

/* How random rows are drawn. A piece "\0" (an empty C string) stands for one NUL byte. */
typedef struct strings_recipe {
  const char *const *pieces; /* drawn uniformly */
  int64_t num_pieces;
  int64_t min_len, max_len; /* bytes a row reaches at least (its last piece may pass max_len) */
  int64_t huge_every;       /* > 0: row i with i % huge_every == 1 gets 65537..70000 bytes */
  bool one_byte;            /* only one-byte pieces, rows of 0 or 1 byte, no special rows */
  bool nul_rows;            /* about one row in 20 is exactly "\0" */
} strings_recipe;

/* n rows by the recipe (besides it, about one row in 16 is ""), validity by the pattern. */
host_strings strings_random(gcol_test_rng *rng, int64_t n, const strings_recipe *recipe,
                            gcol_test_validity validity);

/* Rows given literally (NULL: a null row; lens count embedded NULs). */
host_strings strings_rows(const char *const *rows, const int64_t *lens, int64_t n);

void strings_free(host_strings *h);

/* Appends bytes to the row being built, row h->n (its end is offsets[h->n + 1]); *cap is the
 * capacity of h->chars, grown as needed. */
void strings_append(host_strings *h, int64_t *cap, const char *bytes, size_t len);

/* Row i's bytes and length (also for null rows: their bytes as drawn). */
const char *strings_row(const host_strings *h, int64_t i, int64_t *len);

/* The device column of h (its validity when with_mask); INT64 offsets when wide, asserted
 * where the valid rows hold more than one byte (the builder keeps valid rows' bytes only). */
gcol_column *strings_to_device(const host_strings *h, bool wide, bool with_mask);

/* Row i of h, or NULL when it is null (masked data only). */
const char *strings_masked_row(const host_strings *h, bool masked, int64_t i, int64_t *len);

/* Rows of an INT32 or INT64 offsets view as int64. */
void strings_offsets_to_host(gcol_column_view offsets, int64_t *out);

/* The validity of a LIST column's rows. */
void strings_list_validity(const gcol_column *list, uint8_t *valid);

/* Asserts a STRING output's row i (copied to the host): null when want is NULL, else want's
 * bytes; op and what name the call and the data in the failure. */
void strings_expect_row(const gcol_host_strings *hs, int64_t i, const char *want, int64_t wn,
                        const char *op, const char *what);

/* Asserts a split's table of columns: max(most, 1) STRING columns of n rows, column j of row
 * i holding piece j of the row (bytes [ranges[i][2j], ranges[i][2j+1]) of rows[i]) where the
 * row has counts[i] > j pieces, else null; op and what name the call and the data. */
void strings_expect_pieces_table(const gcol_table *out, int64_t n, int64_t most,
                                 const int64_t *counts, const char *const *rows,
                                 const int64_t *const *ranges, const char *op, const char *what);

#endif /* GCOL_TESTS_STRINGS_TEST_DATA_H */
