/* The test files shared by the Parquet host and GPU tests: ROWS rows of random data and
 * NUM_COLS columns of every type the reader takes, written by parquet_builder.c. */
#ifndef GCOL_TESTS_PARQUET_CASES_H
#define GCOL_TESTS_PARQUET_CASES_H

#include "parquet_builder.h"

#define ROWS 1000
enum { NUM_COLS = 14 };

typedef struct test_data {
  int64_t ints[ROWS];
  int64_t small[ROWS];
  int64_t bools[ROWS];
  int64_t big[ROWS];
  double reals[ROWS];
  const char *strings[ROWS];
  char string_store[ROWS][24];
  uint8_t valid[ROWS];
} test_data;

extern test_data pq_data;

/* Fills `pq_data` from the run's seed and `salt`; row 0 is null, the last row valid. */
void make_data(uint64_t salt);
/* A column description with defaults (required, page v1, no logical type). */
pqb_column col_base(const char *name, int32_t physical);
/* The NUM_COLS columns; variant bit 0: data page v2 (and RLE booleans), bit 1: dictionary,
 * bit 2: DELTA_BINARY_PACKED integers, DELTA_LENGTH_BYTE_ARRAY strings and BYTE_STREAM_SPLIT
 * floats (instead of dictionary), bit 3: DELTA_BYTE_ARRAY strings and decimals of
 * FIXED_LEN_BYTE_ARRAY (unless dictionary or delta). */
void make_columns(pqb_column *c, int variant);
/* The file of make_columns(variant) with `rows_per_group`; fails the test if it cannot. */
uint8_t *build(int variant, int64_t rows_per_group, int64_t *size, pqb_column *cols);

#endif
