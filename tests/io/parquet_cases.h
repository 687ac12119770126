/* The test files shared by the Parquet host and GPU tests: ROWS rows of random data and
 * NUM_COLS columns of every type the reader takes, written by parquet_builder.c. */
#ifndef GCOL_TESTS_PARQUET_CASES_H
#define GCOL_TESTS_PARQUET_CASES_H

#include "gcol/types.h"
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

/* FIXED_LEN_BYTE_ARRAY columns read as something else than decimals: binary of 16 and 3
 * bytes (no logical type: strings), UUIDs (strings) and FLOAT16 (FLOAT32). */
enum { FLBA_COLS = 4, FLBA_VARIANTS = 8 };

typedef struct flba_data {
  uint8_t bin16[ROWS * 16]; /* repeats from a small pool (dictionaries), zero bytes included */
  uint8_t uuid[ROWS * 16];
  uint8_t bin3[ROWS * 3];
  uint8_t half[ROWS * 2]; /* little-endian IEEE halves: zeros, subnormals, infinities, NaNs,
                             the extremes first, then random bits */
  uint8_t valid[ROWS];    /* row 0 null, the last row valid */
} flba_data;

extern flba_data pq_flba;

/* Fills `pq_flba` from the run's seed and `salt`. */
void make_flba_data(uint64_t salt);
/* The FLBA_COLS columns "bin16" (optional), "uuid" (optional), "bin3" (required), "half"
 * (optional) over pq_flba; variant % 4: 0 PLAIN, 1 dictionary, 2 DELTA_BYTE_ARRAY, 3
 * BYTE_STREAM_SPLIT; variant / 4: data pages v2. Pages of 97 + 10 k rows. */
void make_flba_columns(pqb_column *c, int variant);
/* The file of make_flba_columns(variant) (into cols, ROWS rows in groups of rows_per_group),
 * pages compressed by `codec` (0: none); *size its bytes (malloc'd). */
uint8_t *build_flba(int variant, int32_t codec, int64_t rows_per_group, int64_t *size,
                    pqb_column *cols);
/* The type gcol reads column k of make_flba_columns as. */
gcol_type_id flba_type_id(int32_t k);
/* The float32 bits of IEEE half `h`, computed apart from the reader (through double; NaNs keep
 * their sign and payload). */
uint32_t half_reference(uint16_t h);

#endif
