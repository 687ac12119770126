/*
 * Host tests of predicate pushdown (gcol_parquet_metadata_filter_row_groups_expression() and
 * the checks of gcol_parquet_read_options::filter, no GPU): row groups of files written by
 * tests/io/parquet_builder.c with known min, max and null counts, judged by comparisons with
 * the literal on either side, NOT/AND/OR (propagating and Kleene), IS_NULL/IS_VALID, null
 * literals, all-null chunks, chunks without statistics, unsigned columns, NaN in floats and
 * widening casts; bad input; and a seeded property test (GCOL_TEST_SEED replays): random
 * small files and random predicates, where a row group holding a row that satisfies the
 * predicate (by a row-by-row reference evaluator) is never dropped, and a single range
 * comparison keeps exactly the groups with a matching row. The page index: its metadata API
 * (pages, first rows, min/max/null counts against the rows written, read from a source in
 * one coalesced read, a buffer and a file), corrupt index bytes (each lie of the builder and
 * random bytes: a clear status, the metadata unchanged), the row ranges of a group judged
 * page by page (gcol_detail_pq_filter_pages) on known data, and the same seeded property:
 * no matching row lies outside the kept ranges. Page skipping: the range helpers (overlap,
 * row map) at their edges, the kept read rows of a read (gcol_detail_pq_kept_rows), and
 * column plans made with them (gcol_detail_parquet_plan_column_kept) decoded on the host
 * against plans of every page, on known files and random ones.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expression/expression_program.h"
#include "gcol/expression.h"
#include "gcol/io/parquet.h"
#include "gcol/scalar.h"
#include "internal/parquet.h"
#include "parquet_builder.h"
#include "test_util.h"

/* ------------------------------------------------------------------ building expressions */

static pqb_column column_of(const char *name, int32_t physical) {
  pqb_column c;
  memset(&c, 0, sizeof c);
  c.name = name;
  c.physical = physical;
  c.converted_type = -1;
  c.page_version = 1;
  return c;
}

static int32_t col(gcol_expression *e, int32_t column) {
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, column, &id));
  return id;
}

static int32_t add_scalar(gcol_expression *e, gcol_scalar *s) {
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_literal(e, s, &id));
  gcol_scalar_free(s);
  return id;
}

static int32_t lit_int(gcol_expression *e, gcol_type_id type, int64_t v) {
  gcol_scalar *s = NULL;
  if (gcol_type_is_unsigned_integral(type)) {
    GCOL_TEST_OK(gcol_scalar_create_uint(gcol_data_type_make(type), (uint64_t)v, &s));
  } else {
    GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(type), v, &s));
  }
  return add_scalar(e, s);
}

static int32_t lit_float(gcol_expression *e, gcol_type_id type, double v) {
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_float(gcol_data_type_make(type), v, &s));
  return add_scalar(e, s);
}

static int32_t lit_null(gcol_expression *e, gcol_type_id type) {
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(type), &s));
  return add_scalar(e, s);
}

static int32_t bin(gcol_expression *e, gcol_expression_op op, int32_t a, int32_t b) {
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_binary(e, op, a, b, &id));
  return id;
}

static int32_t un(gcol_expression *e, gcol_expression_op op, int32_t a) {
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_unary(e, op, a, &id));
  return id;
}

/* The kept row groups as a bit set (at most 32 groups). */
static uint32_t kept(const gcol_parquet_metadata *md, const gcol_expression *e, int32_t root) {
  int32_t groups[32];
  int32_t n = -1;
  assert_true(gcol_parquet_metadata_num_row_groups(md) <= 32);
  GCOL_TEST_OK(gcol_parquet_metadata_filter_row_groups_expression(md, e, root, groups, &n));
  uint32_t bits = 0;
  for (int32_t i = 0; i < n; ++i) {
    if (i > 0) assert_true(groups[i] > groups[i - 1]); /* ascending */
    bits |= 1u << groups[i];
  }
  return bits;
}

#define EXPECT_KEPT(md, e, root, want)                                                           \
  do {                                                                                           \
    uint32_t const got_ = kept((md), (e), (root));                                               \
    if (got_ != (uint32_t)(want))                                                                \
      fail_msg("line %d: kept 0x%x, expected 0x%x", __LINE__, (unsigned)got_, (unsigned)(want)); \
  } while (0)

/* Builds `f` into *bytes (free it) and returns its metadata (free it). */
static gcol_parquet_metadata *built_metadata(const pqb_file *f, uint8_t **bytes) {
  int64_t size = 0;
  *bytes = pqb_build(f, &size);
  assert_non_null(*bytes);
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(*bytes, size, &md));
  return md;
}

/* ------------------------------------------------------------------ known statistics */

enum { ROWS = 100, GROUP = 25 }; /* four row groups: 0-24, 25-49, 50-74, 75-99 */

typedef struct known_file {
  int64_t seq[ROWS], big[ROWS], u32[ROWS], flags[ROWS];
  double reals[ROWS];
  uint8_t some_null[ROWS];
  const char *text[ROWS];
  pqb_column c[8];
  uint8_t *bytes;
  gcol_parquet_metadata *md;
} known_file;

/* Columns: 0 seq INT64 0..99; 1 u64 2^63 + i (UINT64); 2 u32 (UINT32, 4e9 in group 3);
 * 3 opt INT64 = seq, all null in group 1, null on odd rows of group 2; 4 nostats INT64 = seq
 * without statistics; 5 real DOUBLE i/2, NaN first in group 2 (NaN min and max) and inside
 * group 3; 6 flag BOOLEAN, true only in group 3; 7 text BYTE_ARRAY. */
static known_file *make_known(void) {
  known_file *k = (known_file *)calloc(1, sizeof *k);
  assert_non_null(k);
  static const char *words[] = {"apple", "pear", "fig", "kiwi"};
  for (int i = 0; i < ROWS; ++i) {
    k->seq[i] = i;
    k->big[i] = (int64_t)((UINT64_C(1) << 63) + (uint64_t)i);
    k->u32[i] = i >= 75 ? 4000000000LL + i : i;
    k->flags[i] = i >= 75;
    k->reals[i] = i * 0.5;
    k->some_null[i] = !((i >= 25 && i < 50) || (i >= 50 && i < 75 && (i & 1)));
    k->text[i] = words[i / GROUP];
  }
  k->reals[50] = NAN;
  k->reals[80] = NAN;
  k->c[0] = column_of("seq", GCOL_PARQUET_INT64);
  k->c[0].ints = k->seq;
  k->c[1] = column_of("u64", GCOL_PARQUET_INT64);
  k->c[1].ints = k->big;
  k->c[1].logical = GCOL_PARQUET_LOGICAL_INTEGER;
  k->c[1].bit_width = 64;
  k->c[2] = column_of("u32", GCOL_PARQUET_INT32);
  k->c[2].ints = k->u32;
  k->c[2].logical = GCOL_PARQUET_LOGICAL_INTEGER;
  k->c[2].bit_width = 32;
  k->c[3] = column_of("opt", GCOL_PARQUET_INT64);
  k->c[3].ints = k->seq;
  k->c[3].optional = true;
  k->c[3].valid = k->some_null;
  k->c[4] = column_of("nostats", GCOL_PARQUET_INT64);
  k->c[4].ints = k->seq;
  k->c[4].no_statistics = true;
  k->c[5] = column_of("real", GCOL_PARQUET_DOUBLE);
  k->c[5].reals = k->reals;
  k->c[6] = column_of("flag", GCOL_PARQUET_BOOLEAN);
  k->c[6].ints = k->flags;
  k->c[7] = column_of("text", GCOL_PARQUET_BYTE_ARRAY);
  k->c[7].strings = k->text;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 8;
  f.columns = k->c;
  f.num_rows = ROWS;
  f.rows_per_group = GROUP;
  int64_t size = 0;
  k->bytes = pqb_build(&f, &size);
  assert_non_null(k->bytes);
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(k->bytes, size, &k->md));
  assert_int_equal(gcol_parquet_metadata_num_row_groups(k->md), 4);
  return k;
}

static void free_known(known_file *k) {
  gcol_parquet_metadata_free(k->md);
  free(k->bytes);
  free(k);
}

static void test_comparisons_both_orders(void **state) {
  (void)state;
  known_file *k = make_known();
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int32_t const seq = col(e, 0), l60 = lit_int(e, GCOL_INT64, 60);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_GREATER, seq, l60), 0xC);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS, l60, seq), 0xC); /* 60 < seq */
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_GREATER_EQUAL, l60, seq), 0x7);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS_EQUAL, seq, lit_int(e, GCOL_INT64, 49)), 0x3);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS, seq, lit_int(e, GCOL_INT64, 50)), 0x3);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_EQUAL, seq, lit_int(e, GCOL_INT64, 25)), 0x2);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_EQUAL, lit_int(e, GCOL_INT64, 24), seq), 0x1);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_EQUAL, seq, lit_int(e, GCOL_INT64, -1)), 0x0);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NOT_EQUAL, seq, lit_int(e, GCOL_INT64, 3)), 0xF);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NULL_EQUALS, seq, lit_int(e, GCOL_INT64, 99)), 0x8);
  /* unsigned: 2^63 + 60 is above 2^63 + 49, not a negative number */
  int32_t const u64 = col(e, 1);
  int64_t const b60 = (int64_t)((UINT64_C(1) << 63) + 60);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_GREATER, u64, lit_int(e, GCOL_UINT64, b60)), 0xC);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS, u64, lit_int(e, GCOL_UINT64, 5)), 0x0);
  int32_t const u32 = col(e, 2);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_GREATER, u32, lit_int(e, GCOL_UINT32, 3000000000LL)), 0x8);
  /* column against column: intervals overlap everywhere */
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS, seq, col(e, 0)), 0xF);
  /* casts that keep order: seq as a double, u32 as uint64 */
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_cast(e, seq, gcol_data_type_make(GCOL_FLOAT64), &id));
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_GREATER, id, lit_float(e, GCOL_FLOAT64, 60.5)), 0xC);
  GCOL_TEST_OK(gcol_expression_add_cast(e, u32, gcol_data_type_make(GCOL_UINT64), &id));
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS, id, lit_int(e, GCOL_UINT64, 10)), 0x1);
  /* a narrowing cast wraps: no interval, every group kept */
  GCOL_TEST_OK(gcol_expression_add_cast(e, seq, gcol_data_type_make(GCOL_INT8), &id));
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_GREATER, id, lit_int(e, GCOL_INT8, 100)), 0xF);
  /* arithmetic: unknown */
  int32_t const sum = bin(e, GCOL_EXPR_ADD, seq, lit_int(e, GCOL_INT64, 1));
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_GREATER, sum, lit_int(e, GCOL_INT64, 1000)), 0xF);
  gcol_expression_free(e);
  free_known(k);
}

static void test_logic_and_nulls(void **state) {
  (void)state;
  known_file *k = make_known();
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int32_t const seq = col(e, 0);
  int32_t const lt10 = bin(e, GCOL_EXPR_LESS, seq, lit_int(e, GCOL_INT64, 10));
  int32_t const gt90 = bin(e, GCOL_EXPR_GREATER, seq, lit_int(e, GCOL_INT64, 90));
  int32_t const ge30 = bin(e, GCOL_EXPR_GREATER_EQUAL, seq, lit_int(e, GCOL_INT64, 30));
  int32_t const lt40 = bin(e, GCOL_EXPR_LESS, seq, lit_int(e, GCOL_INT64, 40));
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LOGICAL_OR, lt10, gt90), 0x9);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NULL_LOGICAL_OR, lt10, gt90), 0x9);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LOGICAL_AND, ge30, lt40), 0x2);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NULL_LOGICAL_AND, ge30, lt40), 0x2);
  /* NOT: seq >= 30 may be false in groups 0 and 1 only */
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_NOT, ge30), 0x3);
  /* NOT (seq < 10 OR seq > 90) holds somewhere in every group */
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_NOT, bin(e, GCOL_EXPR_LOGICAL_OR, lt10, gt90)), 0xF);
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_NOT, un(e, GCOL_EXPR_NOT, lt10)), 0x1);
  /* null literals: a comparison is null, so are NOT of it and AND with it */
  int32_t const vs_null = bin(e, GCOL_EXPR_EQUAL, seq, lit_null(e, GCOL_INT64));
  EXPECT_KEPT(k->md, e, vs_null, 0x0);
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_NOT, vs_null), 0x0);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LOGICAL_OR, vs_null, gt90), 0x0); /* null OR x: null */
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NULL_LOGICAL_OR, vs_null, gt90), 0x8);
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_IS_NULL, vs_null), 0xF);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NULL_EQUALS, seq, lit_null(e, GCOL_INT64)), 0x0);
  /* nulls of column 3: none in group 0, all in group 1, some in group 2 */
  int32_t const opt = col(e, 3);
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_IS_NULL, opt), 0x6);
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_IS_VALID, opt), 0xD);
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_IS_NULL, seq), 0x0);
  int32_t const opt_any = bin(e, GCOL_EXPR_GREATER_EQUAL, opt, lit_int(e, GCOL_INT64, INT64_MIN));
  EXPECT_KEPT(k->md, e, opt_any, 0xD); /* an all-null chunk satisfies no comparison */
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_NOT, opt_any), 0x0);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NULL_EQUALS, opt, lit_null(e, GCOL_INT64)), 0x6);
  /* Kleene: (opt > 1000) OR NOT(seq < 10) is true where seq >= 10 */
  int32_t const big = bin(e, GCOL_EXPR_GREATER, opt, lit_int(e, GCOL_INT64, 1000));
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NULL_LOGICAL_OR, big, un(e, GCOL_EXPR_NOT, lt10)), 0xF);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NULL_LOGICAL_AND, big, lt10), 0x0);
  /* IS_NULL of an all-null chunk's comparison */
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_IS_NULL, big), 0x6);
  /* no statistics: kept */
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS, col(e, 4), lit_int(e, GCOL_INT64, -5)), 0xF);
  /* a BOOL8 column and literals as predicates */
  EXPECT_KEPT(k->md, e, col(e, 6), 0x8);
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_NOT, col(e, 6)), 0x7);
  EXPECT_KEPT(k->md, e, lit_int(e, GCOL_BOOL8, 1), 0xF);
  EXPECT_KEPT(k->md, e, lit_int(e, GCOL_BOOL8, 0), 0x0);
  EXPECT_KEPT(k->md, e, lit_null(e, GCOL_BOOL8), 0x0);
  gcol_expression_free(e);
  free_known(k);
}

static void test_floats_and_nan(void **state) {
  (void)state;
  known_file *k = make_known();
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int32_t const real = col(e, 5); /* i / 2; group 2's statistics are NaN */
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_GREATER, real, lit_float(e, GCOL_FLOAT64, 40.0)), 0xC);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS, real, lit_float(e, GCOL_FLOAT64, 5.0)), 0x5);
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_EQUAL, real, lit_float(e, GCOL_FLOAT64, 12.5)), 0x6);
  /* NaN is unequal to everything: != and NOT keep every group */
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_NOT_EQUAL, real, lit_float(e, GCOL_FLOAT64, 0.0)), 0xF);
  int32_t const lt100 = bin(e, GCOL_EXPR_LESS, real, lit_float(e, GCOL_FLOAT64, 100.0));
  EXPECT_KEPT(k->md, e, un(e, GCOL_EXPR_NOT, lt100), 0xF);
  /* a NaN literal: comparisons are unknown, kept */
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS, real, lit_float(e, GCOL_FLOAT64, NAN)), 0xF);
  /* a float literal against a float cast of an integer column */
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_cast(e, col(e, 0), gcol_data_type_make(GCOL_FLOAT32), &id));
  EXPECT_KEPT(k->md, e, bin(e, GCOL_EXPR_LESS_EQUAL, id, lit_float(e, GCOL_FLOAT32, 24.0)), 0x1);
  gcol_expression_free(e);
  free_known(k);
}

/* The little-endian IEEE 754 half of an integer multiple of 0.5 in (-1024, 1024). */
static void put_half(double v, uint8_t *out) {
  uint16_t h = 0;
  if (v != 0) {
    double a = fabs(v);
    int e = 0;
    while (a >= 2.0) {
      a /= 2;
      ++e;
    }
    while (a < 1.0) {
      a *= 2;
      --e;
    }
    h = (uint16_t)((v < 0 ? 0x8000 : 0) | (e + 15) << 10 | (int)lround((a - 1.0) * 1024));
  }
  out[0] = (uint8_t)(h & 0xff);
  out[1] = (uint8_t)(h >> 8);
}

/* Types whose statistics compare as integers in the column's own type: DATE, DECIMAL (scale
 * matched by the literal's type), INT8, FLOAT; FLOAT16 as numbers (its negative halves would
 * sort wrongly as bytes); FIXED_LEN_BYTE_ARRAY decimals of 5 and 12 bytes as their unscaled
 * integers (negative ones too). */
static void test_other_types(void **state) {
  (void)state;
  static int64_t days[ROWS], cents[ROWS], small[ROWS];
  static double halves[ROWS];
  static uint8_t half_bytes[ROWS * 2];
  for (int i = 0; i < ROWS; ++i) {
    days[i] = 19000 + i;
    cents[i] = i * 100; /* i.00 */
    small[i] = i - 50;
    halves[i] = i * 0.5;
    put_half((i - 50) * 0.5, half_bytes + 2 * i); /* -25 .. 24.5 */
  }
  pqb_column c[7];
  c[0] = column_of("date", GCOL_PARQUET_INT32);
  c[0].logical = GCOL_PARQUET_LOGICAL_DATE;
  c[0].ints = days;
  c[1] = column_of("price", GCOL_PARQUET_INT64);
  c[1].logical = GCOL_PARQUET_LOGICAL_DECIMAL;
  c[1].precision = 18;
  c[1].scale = 2;
  c[1].ints = cents;
  c[2] = column_of("i8", GCOL_PARQUET_INT32);
  c[2].logical = GCOL_PARQUET_LOGICAL_INTEGER;
  c[2].bit_width = 8;
  c[2].is_signed = true;
  c[2].ints = small;
  c[3] = column_of("f32", GCOL_PARQUET_FLOAT);
  c[3].reals = halves;
  c[4] = column_of("flba", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[4].type_length = 5;
  c[4].logical = GCOL_PARQUET_LOGICAL_DECIMAL;
  c[4].precision = 10;
  c[4].ints = small;
  c[5] = column_of("f16", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[5].type_length = 2;
  c[5].logical = GCOL_PARQUET_LOGICAL_FLOAT16;
  c[5].fixed = half_bytes;
  c[6] = column_of("flba12", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[6].type_length = 12;
  c[6].logical = GCOL_PARQUET_LOGICAL_DECIMAL;
  c[6].precision = 18;
  c[6].scale = 2;
  c[6].ints = cents;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 7;
  f.columns = c;
  f.num_rows = ROWS;
  f.rows_per_group = GROUP;
  uint8_t *bytes = NULL;
  gcol_parquet_metadata *md = built_metadata(&f, &bytes);
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_TIMESTAMP_DAYS), 19060, &s));
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_GREATER, col(e, 0), add_scalar(e, s)), 0xC);
  s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_decimal(GCOL_DECIMAL64, -2), 2450, &s));
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_LESS_EQUAL, col(e, 1), add_scalar(e, s)), 0x1); /* 24.50 */
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_LESS, col(e, 2), lit_int(e, GCOL_INT8, -30)), 0x1);
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_GREATER, col(e, 2), lit_int(e, GCOL_INT8, 30)), 0x8);
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 3), lit_float(e, GCOL_FLOAT32, 37.5)),
              0x8);
  gcol_parquet_statistics st;
  s = NULL; /* FIXED_LEN_BYTE_ARRAY decimals: -50 .. 49 in 5 bytes, 0.00 .. 99.00 in 12 */
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_decimal(GCOL_DECIMAL64, 0), -1000, &s));
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_LESS, col(e, 4), add_scalar(e, s)), 0x0);
  s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_decimal(GCOL_DECIMAL64, 0), -30, &s));
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_LESS, col(e, 4), add_scalar(e, s)), 0x1);
  s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_decimal(GCOL_DECIMAL64, -2), 7400, &s));
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 6), add_scalar(e, s)), 0xC);
  GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 0, 4, &st));
  assert_true(st.has_integer_min_max && st.min_i64 == -50 && st.max_i64 == -26);
  GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 3, 6, &st));
  assert_true(st.has_integer_min_max && st.min_i64 == 7500 && st.max_i64 == 9900);
  /* FLOAT16, read as FLOAT32: group 0 holds -25 .. -13, group 3 12.5 .. 24.5 */
  GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 0, 5, &st));
  assert_true(st.has_float_min_max);
  assert_true(st.min_f64 == -25.0 && st.max_f64 == -13.0);
  GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 3, 5, &st));
  assert_true(st.min_f64 == 12.5 && st.max_f64 == 24.5);
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_LESS, col(e, 5), lit_float(e, GCOL_FLOAT32, -20.0f)), 0x1);
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_GREATER, col(e, 5), lit_float(e, GCOL_FLOAT32, 12.0f)), 0x8);
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_EQUAL, col(e, 5), lit_float(e, GCOL_FLOAT32, 0.0f)), 0x4);
  gcol_expression_free(e);
  gcol_parquet_metadata_free(md);
  free(bytes);
}

/* 16-byte decimal statistics at the edges of int64: INT64_MIN and INT64_MAX decode exactly
 * (bytes above the last 8 all sign), 2^63 and 2^70 (beyond int64, which a precision of 18
 * cannot hold: a lying file; one by its sign bit, one by a top byte) stay undecoded and their
 * groups are kept. */
static void test_decimal_statistics_edges(void **state) {
  (void)state;
  static uint8_t edge[2 * 16], over[2 * 16], huge[2 * 16];
  memset(edge, 0, sizeof edge);
  memset(over, 0, sizeof over);
  memset(huge, 0, sizeof huge);
  memset(edge, 0xff, 8); /* INT64_MIN: 8 sign bytes, then 0x80 00 .. 00 */
  edge[8] = 0x80;
  memset(edge + 16 + 9, 0xff, 7); /* INT64_MAX: 8 zero bytes, then 0x7f ff .. ff */
  edge[16 + 8] = 0x7f;
  over[8] = over[16 + 8] = 0x80; /* 2^63 and 2^63 + 1: the top 8 bytes zero, the next sign set */
  over[16 + 15] = 1;
  huge[7] = huge[16 + 7] = 0x40; /* 2^70 and 2^70 + 1: a top byte not a sign byte */
  huge[16 + 15] = 1;
  pqb_column c[3];
  c[0] = column_of("edge", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[1] = column_of("over", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[2] = column_of("huge", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[0].fixed = edge;
  c[1].fixed = over;
  c[2].fixed = huge;
  for (int k = 0; k < 3; ++k) {
    c[k].type_length = 16;
    c[k].logical = GCOL_PARQUET_LOGICAL_DECIMAL;
    c[k].precision = 18;
  }
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 3;
  f.columns = c;
  f.num_rows = 2;
  f.rows_per_group = 2;
  uint8_t *bytes = NULL;
  gcol_parquet_metadata *md = built_metadata(&f, &bytes);
  gcol_parquet_statistics st;
  GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 0, 0, &st));
  /* the builder orders raw bytes: min is INT64_MAX's, max INT64_MIN's (an inverted pair) */
  assert_true(st.has_min_max && st.has_integer_min_max);
  assert_true(st.min_i64 == INT64_MAX && st.max_i64 == INT64_MIN);
  for (int32_t k = 1; k < 3; ++k) {
    GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 0, k, &st));
    assert_true(st.has_min_max && !st.has_integer_min_max);
  }
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  gcol_scalar *lit = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_decimal(GCOL_DECIMAL64, 0), 0, &lit));
  int32_t const zero = add_scalar(e, lit);
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_EQUAL, col(e, 0), zero), 0x1); /* inverted: kept */
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_EQUAL, col(e, 1), zero), 0x1); /* undecoded: kept */
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_EQUAL, col(e, 2), zero), 0x1);
  gcol_expression_free(e);
  gcol_parquet_metadata_free(md);
  free(bytes);
}

/* Statistics of an unsigned column in signed order (legacy writers): where signs mix, min is
 * above max, and the group is kept rather than judged by an inverted interval. */
static void test_inverted_statistics(void **state) {
  (void)state;
  int64_t vals[4] = {1, (int64_t)((UINT64_C(1) << 63) + 20), 3, 4};
  pqb_column c = column_of("u", GCOL_PARQUET_INT64);
  c.logical = GCOL_PARQUET_LOGICAL_INTEGER;
  c.bit_width = 64;
  c.ints = vals;
  c.signed_statistics = true;
  pqb_file f = pqb_one_column(&c, 4);
  f.rows_per_group = 2; /* {1, 2^63 + 20} inverted, {3, 4} in order */
  uint8_t *bytes = NULL;
  gcol_parquet_metadata *md = built_metadata(&f, &bytes);
  gcol_parquet_statistics st;
  GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 0, 0, &st));
  assert_true((uint64_t)st.min_i64 > (uint64_t)st.max_i64);
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int64_t const above = (int64_t)((UINT64_C(1) << 63) + 10);
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_GREATER, col(e, 0), lit_int(e, GCOL_UINT64, above)), 0x1);
  EXPECT_KEPT(md, e, bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_UINT64, 2)), 0x1);
  /* the single-comparison filter keeps it too */
  int32_t groups[2];
  int32_t n = 0;
  GCOL_TEST_OK(
      gcol_parquet_metadata_filter_row_groups(md, 0, GCOL_PARQUET_GREATER, above, groups, &n));
  assert_int_equal(n, 1);
  assert_int_equal(groups[0], 0);
  gcol_expression_free(e);
  gcol_parquet_metadata_free(md);
  free(bytes);
}

static void test_bad_input(void **state) {
  (void)state;
  known_file *k = make_known();
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int32_t groups[4];
  int32_t n = 0;
  int32_t const seq = col(e, 0);
  int32_t const ok = bin(e, GCOL_EXPR_GREATER, seq, lit_int(e, GCOL_INT64, 1));
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(k->md, e, seq, groups, &n),
                   GCOL_ERROR_TYPE_MISMATCH); /* root not BOOL8 */
  assert_non_null(strstr(gcol_last_error(), "not bool8"));
  int32_t const far = bin(e, GCOL_EXPR_GREATER, col(e, 8), lit_int(e, GCOL_INT64, 1));
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(k->md, e, far, groups, &n),
                   GCOL_ERROR_INVALID_ARGUMENT); /* column 8 of 8 */
  int32_t const mixed = bin(e, GCOL_EXPR_GREATER, seq, lit_int(e, GCOL_INT32, 1));
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(k->md, e, mixed, groups, &n),
                   GCOL_ERROR_TYPE_MISMATCH);
  int32_t const text = un(e, GCOL_EXPR_IS_NULL, col(e, 7));
  GCOL_TEST_OK(gcol_parquet_metadata_filter_row_groups_expression(k->md, e, text, groups, &n));
  assert_true(n >= 0 && n <= 4); /* strings are taken (no interval: only their nulls judge) */
  int32_t right = -1;
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_RIGHT, 0, &right));
  int32_t const r = bin(e, GCOL_EXPR_GREATER, right, lit_int(e, GCOL_INT64, 1));
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(k->md, e, r, groups, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(k->md, e, 999, groups, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(NULL, e, ok, groups, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(k->md, NULL, ok, groups, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(k->md, e, ok, NULL, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups_expression(k->md, e, ok, groups, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_expression_free(e);
  free_known(k);
}

/* The read option's checks of the filter itself, on a file's true size. */
static void test_read_option_checks(void **state) {
  (void)state;
  int64_t vals[4] = {1, 2, 3, 4};
  pqb_column c = column_of("x", GCOL_PARQUET_INT64);
  c.ints = vals;
  pqb_file f = pqb_one_column(&c, 4);
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int32_t const x = col(e, 0);
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  opt.filter = e;
  gcol_table *t = NULL;
  opt.filter_root = x; /* INT64 */
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(t);
  opt.filter_root = bin(e, GCOL_EXPR_LESS, col(e, 1), lit_int(e, GCOL_INT64, 0));
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT); /* leaf 1 of 1 */
  opt.filter_root = bin(e, GCOL_EXPR_LESS, x, lit_int(e, GCOL_INT64, 0));
  opt.num_rows = 2; /* a row range and a filter: refused */
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "skip_rows or num_rows"));
  opt.num_rows = 0;
  opt.skip_rows = 1;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  gcol_expression_free(e);
  free(file);
}

/* ------------------------------------------------------------------ property test */

/* Random columns: 0 INT64 in [-8, 8]; 1 UINT64 near 0 and 2^63; 2 DOUBLE in [-4, 4] by
 * halves with NaN; 3 BOOLEAN; 4 INT32 UINT32 near 0 and 2^32. Each column optional or not,
 * with or without statistics, with a null rate of 0, a third or all. */
enum { PCOLS = 5, PMAX_ROWS = 60 };

typedef struct pfile {
  int64_t ints[PCOLS][PMAX_ROWS];
  double reals[PMAX_ROWS];
  uint8_t valid[PCOLS][PMAX_ROWS];
  pqb_column c[PCOLS];
  int64_t rows, per_group;
} pfile;

static const gcol_type_id ptypes[PCOLS] = {GCOL_INT64, GCOL_UINT64, GCOL_FLOAT64, GCOL_BOOL8,
                                           GCOL_UINT32};

static int64_t random_int(gcol_test_rng *r, int32_t column) {
  static const uint64_t u64[] = {
      0, 1, 7, (UINT64_C(1) << 63) - 1, UINT64_C(1) << 63, (UINT64_C(1) << 63) + 3, UINT64_MAX};
  static const int64_t u32[] = {0, 1, 5, 2147483647LL, 2147483648LL, 4294967295LL};
  switch (column) {
    case 0:
      return gcol_test_rng_range(r, -8, 8);
    case 1:
      return (int64_t)u64[gcol_test_rng_range(r, 0, 6)];
    case 3:
      return gcol_test_rng_range(r, 0, 1);
    default:
      return u32[gcol_test_rng_range(r, 0, 5)];
  }
}

static double random_real(gcol_test_rng *r) {
  return gcol_test_rng_range(r, 0, 9) == 0 ? NAN : (double)gcol_test_rng_range(r, -8, 8) * 0.5;
}

static void make_pfile(gcol_test_rng *r, pfile *p) {
  static const char *names[PCOLS] = {"i64", "u64", "f64", "b", "u32"};
  static const int32_t physical[PCOLS] = {GCOL_PARQUET_INT64, GCOL_PARQUET_INT64,
                                          GCOL_PARQUET_DOUBLE, GCOL_PARQUET_BOOLEAN,
                                          GCOL_PARQUET_INT32};
  p->rows = gcol_test_rng_range(r, 1, PMAX_ROWS);
  p->per_group = gcol_test_rng_range(r, 1, 12);
  for (int32_t k = 0; k < PCOLS; ++k) {
    pqb_column *c = &p->c[k];
    *c = column_of(names[k], physical[k]);
    if (k == 1 || k == 4) {
      c->logical = GCOL_PARQUET_LOGICAL_INTEGER;
      c->bit_width = k == 1 ? 64 : 32;
    }
    c->ints = p->ints[k];
    c->reals = p->reals;
    c->optional = gcol_test_rng_range(r, 0, 2) > 0;
    c->no_statistics = gcol_test_rng_range(r, 0, 7) == 0;
    int64_t const null_rate = c->optional ? gcol_test_rng_range(r, 0, 3) : 0; /* in 4ths */
    for (int64_t i = 0; i < p->rows; ++i) {
      p->ints[k][i] = random_int(r, k);
      if (k == 2) p->reals[i] = random_real(r);
      p->valid[k][i] = !(null_rate == 3 || gcol_test_rng_range(r, 0, 3) < null_rate);
    }
    c->valid = c->optional ? p->valid[k] : NULL;
  }
}

/* The file of `p` (its bytes, to free) and its footer, parsed. */
static uint8_t *build_pfile(pfile *p, int64_t *size, gcol_parquet_metadata **md) {
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = PCOLS;
  f.columns = p->c;
  f.num_rows = p->rows;
  f.rows_per_group = p->per_group;
  uint8_t *bytes = pqb_build(&f, size);
  assert_non_null(bytes);
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(bytes, *size, md));
  return bytes;
}


/* 0 false, 1 true, 2 null; and for value nodes the value. */
typedef struct rvalue {
  int state;
  int kind; /* gcol_detail_expr_kind of the type */
  uint64_t bits;
} rvalue;

static rvalue reference(const pfile *p, const gcol_expression *e, int32_t id, int64_t row);

static int compare_rvalues(rvalue a, rvalue b, int *unordered) {
  *unordered = 0;
  if (a.kind == GCOL_DETAIL_EXPR_F64) {
    double const x = gcol_detail_f64_from_bits(a.bits), y = gcol_detail_f64_from_bits(b.bits);
    if (isnan(x) || isnan(y)) *unordered = 1;
    return x < y ? -1 : x > y;
  }
  if (a.kind == GCOL_DETAIL_EXPR_UNSIGNED) return a.bits < b.bits ? -1 : a.bits > b.bits;
  return (int64_t)a.bits < (int64_t)b.bits ? -1 : (int64_t)a.bits > (int64_t)b.bits;
}

static rvalue truth(int state) {
  rvalue v = {state, GCOL_DETAIL_EXPR_BOOL, state == 1};
  return v;
}

static rvalue reference_binary(const pfile *p, const gcol_expression *e,
                               const gcol_detail_expr_node *n, int64_t row) {
  rvalue const a = reference(p, e, n->lhs, row), b = reference(p, e, n->rhs, row);
  int const an = a.state == 2, bn = b.state == 2;
  int const at = a.state == 1, bt = b.state == 1, af = a.state == 0, bf = b.state == 0;
  switch (n->op) {
    case GCOL_EXPR_LOGICAL_AND:
      return truth(an || bn ? 2 : at && bt);
    case GCOL_EXPR_LOGICAL_OR:
      return truth(an || bn ? 2 : at || bt);
    case GCOL_EXPR_NULL_LOGICAL_AND:
      return truth(af || bf ? 0 : at && bt ? 1 : 2);
    case GCOL_EXPR_NULL_LOGICAL_OR:
      return truth(at || bt ? 1 : af && bf ? 0 : 2);
    case GCOL_EXPR_NULL_EQUALS: {
      if (an || bn) return truth(an && bn);
      int unordered = 0;
      int const c = compare_rvalues(a, b, &unordered);
      return truth(!unordered && c == 0);
    }
    default: {
      if (an || bn) return truth(2);
      int unordered = 0;
      int const c = compare_rvalues(a, b, &unordered);
      if (unordered) return truth(n->op == GCOL_EXPR_NOT_EQUAL);
      switch (n->op) {
        case GCOL_EXPR_EQUAL:
          return truth(c == 0);
        case GCOL_EXPR_NOT_EQUAL:
          return truth(c != 0);
        case GCOL_EXPR_LESS:
          return truth(c < 0);
        case GCOL_EXPR_LESS_EQUAL:
          return truth(c <= 0);
        case GCOL_EXPR_GREATER:
          return truth(c > 0);
        default:
          return truth(c >= 0);
      }
    }
  }
}

/* The predicate at one row, by gcol's rules (expression.h's Nulls). */
static rvalue reference(const pfile *p, const gcol_expression *e, int32_t id, int64_t row) {
  const gcol_detail_expr_node *n = &e->nodes[id];
  rvalue v = {1, 0, 0};
  switch (n->kind) {
    case GCOL_DETAIL_EXPR_NODE_COLUMN: {
      int32_t const k = n->column;
      v.kind = gcol_detail_expr_kind_of((int)ptypes[k]);
      if (!(p->c[k].valid == NULL || p->c[k].valid[row])) return truth(2);
      if (k == 2) {
        v.kind = GCOL_DETAIL_EXPR_F64;
        v.bits = gcol_detail_f64_bits(p->reals[row]);
      } else {
        v.bits = (uint64_t)p->ints[k][row];
      }
      if (k == 3) v.state = v.bits != 0;
      return v;
    }
    case GCOL_DETAIL_EXPR_NODE_LITERAL:
      v.kind = gcol_detail_expr_kind_of((int)n->type.id);
      if (v.kind == GCOL_DETAIL_EXPR_F32) v.kind = GCOL_DETAIL_EXPR_F64;
      v.bits = n->literal_bits;
      if (!n->literal_valid) return truth(2);
      if (n->type.id == GCOL_BOOL8) v.state = v.bits != 0;
      return v;
    case GCOL_DETAIL_EXPR_NODE_UNARY: {
      rvalue const a = reference(p, e, n->lhs, row);
      if (n->op == GCOL_EXPR_IS_NULL) return truth(a.state == 2);
      if (n->op == GCOL_EXPR_IS_VALID) return truth(a.state != 2);
      return truth(a.state == 2 ? 2 : !a.state); /* NOT */
    }
    default:
      return reference_binary(p, e, n, row);
  }
}

/* A literal of column k's type: one of its values, a near one, or sometimes null. */
static int32_t random_literal(gcol_test_rng *r, gcol_expression *e, const pfile *p, int32_t k) {
  if (gcol_test_rng_range(r, 0, 15) == 0) return lit_null(e, ptypes[k]);
  int64_t const row = gcol_test_rng_range(r, 0, p->rows - 1);
  if (k == 2) {
    double const v = gcol_test_rng_range(r, 0, 1) ? p->reals[row] : random_real(r);
    return lit_float(e, GCOL_FLOAT64, v);
  }
  int64_t v = gcol_test_rng_range(r, 0, 1) ? p->ints[k][row] : random_int(r, k);
  if (k != 3) v = (int64_t)((uint64_t)v + (uint64_t)gcol_test_rng_range(r, -1, 1));
  if (k == 4) v &= 0xffffffffLL;
  return lit_int(e, ptypes[k], k == 3 ? v & 1 : v);
}

static int32_t random_comparison(gcol_test_rng *r, gcol_expression *e, const pfile *p) {
  static const gcol_expression_op ops[] = {
      GCOL_EXPR_EQUAL,   GCOL_EXPR_NOT_EQUAL,     GCOL_EXPR_LESS,       GCOL_EXPR_LESS_EQUAL,
      GCOL_EXPR_GREATER, GCOL_EXPR_GREATER_EQUAL, GCOL_EXPR_NULL_EQUALS};
  int32_t const k = (int32_t)gcol_test_rng_range(r, 0, PCOLS - 1);
  gcol_expression_op const op = ops[gcol_test_rng_range(r, 0, 6)];
  int32_t const c = col(e, k);
  int32_t const other = gcol_test_rng_range(r, 0, 7) == 0 ? col(e, k) : random_literal(r, e, p, k);
  return gcol_test_rng_range(r, 0, 1) ? bin(e, op, c, other) : bin(e, op, other, c);
}

static int32_t random_predicate(gcol_test_rng *r, gcol_expression *e, const pfile *p, int depth) {
  static const gcol_expression_op logic[] = {GCOL_EXPR_LOGICAL_AND, GCOL_EXPR_LOGICAL_OR,
                                             GCOL_EXPR_NULL_LOGICAL_AND, GCOL_EXPR_NULL_LOGICAL_OR};
  int64_t const pick = gcol_test_rng_range(r, 0, depth > 0 ? 9 : 4);
  switch (pick) {
    case 0:
    case 1:
    case 2:
      return random_comparison(r, e, p);
    case 3: { /* of a column, a comparison or (deeper) any predicate: nulls made by logic */
      int64_t const what = gcol_test_rng_range(r, 0, depth > 0 ? 2 : 1);
      int32_t const operand = what == 0   ? col(e, (int32_t)gcol_test_rng_range(r, 0, PCOLS - 1))
                              : what == 1 ? random_comparison(r, e, p)
                                          : random_predicate(r, e, p, depth - 1);
      return un(e, gcol_test_rng_range(r, 0, 1) ? GCOL_EXPR_IS_NULL : GCOL_EXPR_IS_VALID, operand);
    }
    case 4:
      return col(e, 3); /* the BOOLEAN column itself */
    case 5:
    case 6:
      return un(e, GCOL_EXPR_NOT, random_predicate(r, e, p, depth - 1));
    default:
      return bin(e, logic[gcol_test_rng_range(r, 0, 3)], random_predicate(r, e, p, depth - 1),
                 random_predicate(r, e, p, depth - 1));
  }
}

static bool is_range_op(gcol_expression_op op) {
  return op == GCOL_EXPR_LESS || op == GCOL_EXPR_LESS_EQUAL || op == GCOL_EXPR_GREATER ||
         op == GCOL_EXPR_GREATER_EQUAL;
}

/* A single range comparison of an integer column with statistics and a valid literal: the
 * statistics decide exactly (min and max are values of the chunk). */
static bool decided_exactly(const pfile *p, const gcol_expression *e, int32_t root) {
  const gcol_detail_expr_node *n = &e->nodes[root];
  if (n->kind != GCOL_DETAIL_EXPR_NODE_BINARY || !is_range_op(n->op)) return false;
  const gcol_detail_expr_node *a = &e->nodes[n->lhs], *b = &e->nodes[n->rhs];
  const gcol_detail_expr_node *c = a->kind == GCOL_DETAIL_EXPR_NODE_COLUMN ? a : b;
  const gcol_detail_expr_node *l = a->kind == GCOL_DETAIL_EXPR_NODE_COLUMN ? b : a;
  if (c->kind != GCOL_DETAIL_EXPR_NODE_COLUMN || l->kind != GCOL_DETAIL_EXPR_NODE_LITERAL) {
    return false;
  }
  return c->column != 2 && !p->c[c->column].no_statistics && l->literal_valid;
}

static void test_property_no_matching_group_dropped(void **state) {
  (void)state;
  gcol_test_rng r = gcol_test_rng_make(0x70d0);
  static pfile p;
  int64_t dropped = 0, exact = 0;
  for (int round = 0; round < 300; ++round) {
    make_pfile(&r, &p);
    int64_t size = 0;
    gcol_parquet_metadata *md = NULL;
    uint8_t *bytes = build_pfile(&p, &size, &md);
    int32_t const groups = gcol_parquet_metadata_num_row_groups(md);
    bool keep[PMAX_ROWS];
    int32_t list[PMAX_ROWS];
    for (int q = 0; q < 20; ++q) {
      gcol_expression *e = NULL;
      GCOL_TEST_OK(gcol_expression_create(&e));
      int32_t const root = random_predicate(&r, e, &p, 3);
      int32_t n = -1;
      GCOL_TEST_OK(gcol_parquet_metadata_filter_row_groups_expression(md, e, root, list, &n));
      memset(keep, 0, sizeof keep);
      for (int32_t i = 0; i < n; ++i) keep[list[i]] = true;
      bool const exactly = decided_exactly(&p, e, root);
      for (int32_t g = 0; g < groups; ++g) {
        bool match = false;
        int64_t const end = (g + 1) * p.per_group < p.rows ? (g + 1) * p.per_group : p.rows;
        for (int64_t row = g * p.per_group; row < end && !match; ++row) {
          match = reference(&p, e, root, row).state == 1;
        }
        if (match && !keep[g]) {
          fail_msg("round %d query %d: row group %d holds a match but was dropped", round, q, g);
        }
        if (exactly && match != keep[g]) {
          fail_msg("round %d query %d: a range comparison kept %d for group %d (match %d)", round,
                   q, keep[g], g, match);
        }
        dropped += !keep[g];
        exact += exactly;
      }
      gcol_expression_free(e);
    }
    gcol_parquet_metadata_free(md);
    free(bytes);
  }
  /* the analysis prunes at all, and the exact case was exercised */
  assert_true(dropped > 1000);
  assert_true(exact > 100);
}

/* ------------------------------------------------------------------ page index */

/* Columns of 100 rows in groups of 60 and 40: 0 seq INT64 0..99, pages of 10; 1 seq7 INT64
 * 0..99, pages of 7; 2 opt INT64 = seq, null on rows 20-29 (a null page) and on multiples of
 * 3; 3 real DOUBLE i/4, pages of 16; 4 plain INT64 = seq without a page index; 5 loc INT64 =
 * seq, pages of 25, an OffsetIndex only. */
enum { PI_ROWS = 100, PI_GROUP = 60, PI_COLS = 6 };

typedef struct pi_file {
  int64_t seq[PI_ROWS];
  double reals[PI_ROWS];
  uint8_t valid[PI_ROWS];
  pqb_column c[PI_COLS];
  uint8_t *bytes;
  int64_t size;
  gcol_parquet_metadata *md;
} pi_file;

static pi_file *make_pi(int32_t lie_column, int32_t lie) {
  pi_file *k = (pi_file *)calloc(1, sizeof *k);
  assert_non_null(k);
  for (int i = 0; i < PI_ROWS; ++i) {
    k->seq[i] = i;
    k->reals[i] = i * 0.25;
    k->valid[i] = !((i >= 20 && i < 30) || i % 3 == 0);
  }
  static const char *names[PI_COLS] = {"seq", "seq7", "opt", "real", "plain", "loc"};
  static const int64_t pages[PI_COLS] = {10, 7, 10, 16, 10, 25};
  for (int32_t j = 0; j < PI_COLS; ++j) {
    k->c[j] = column_of(names[j], j == 3 ? GCOL_PARQUET_DOUBLE : GCOL_PARQUET_INT64);
    k->c[j].ints = k->seq;
    k->c[j].reals = k->reals;
    k->c[j].rows_per_page = pages[j];
    k->c[j].page_index = j != 4;
    k->c[j].no_column_index = j == 5;
  }
  k->c[2].optional = true;
  k->c[2].valid = k->valid;
  if (lie_column >= 0) k->c[lie_column].lie_page_index = lie;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = PI_COLS;
  f.columns = k->c;
  f.num_rows = PI_ROWS;
  f.rows_per_group = PI_GROUP;
  k->bytes = pqb_build(&f, &k->size);
  assert_non_null(k->bytes);
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(k->bytes, k->size, &k->md));
  return k;
}

static void free_pi(pi_file *k) {
  gcol_parquet_metadata_free(k->md);
  free(k->bytes);
  free(k);
}

typedef struct counting_source {
  const uint8_t *bytes;
  int reads;
} counting_source;

static int counting_read(void *user, int64_t offset, int64_t length, void *dst) {
  counting_source *s = (counting_source *)user;
  memcpy(dst, s->bytes + offset, (size_t)length);
  ++s->reads;
  return 0;
}

static int failing_read(void *user, int64_t offset, int64_t length, void *dst) {
  (void)user;
  (void)offset;
  (void)length;
  (void)dst;
  return 1;
}

/* Every page of every chunk against the rows it was written from. */
static void check_pi_pages(const pi_file *k) {
  for (int32_t g = 0; g < 2; ++g) {
    int64_t const g0 = g * PI_GROUP, rows = g == 0 ? PI_GROUP : PI_ROWS - PI_GROUP;
    for (int32_t j = 0; j < PI_COLS; ++j) {
      gcol_parquet_page_index_info info;
      GCOL_TEST_OK(gcol_parquet_metadata_page_index(k->md, g, j, &info));
      assert_true(info.read);
      assert_int_equal(info.has_offset_index, j != 4);
      assert_int_equal(info.has_column_index, j != 4 && j != 5);
      assert_int_equal(info.has_page_statistics, j != 4 && j != 5);
      assert_int_equal(info.boundary_order, GCOL_PARQUET_ORDER_UNORDERED);
      int32_t n = -1;
      GCOL_TEST_OK(gcol_parquet_metadata_num_pages(k->md, g, j, &n));
      assert_int_equal(n, info.num_pages);
      int64_t const per = k->c[j].rows_per_page;
      assert_int_equal(n, j == 4 ? 0 : (rows + per - 1) / per);
      gcol_parquet_statistics chunk;
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(k->md, g, j, &chunk));
      int64_t end_of_last = -1;
      for (int32_t p = 0; p < n; ++p) {
        gcol_parquet_page_statistics st;
        GCOL_TEST_OK(gcol_parquet_metadata_page_statistics(k->md, g, j, p, &st));
        int64_t const first = p * per, count = first + per < rows ? per : rows - first;
        assert_int_equal(st.first_row, first);
        assert_int_equal(st.num_rows, count);
        assert_true(st.compressed_size > 0);
        assert_true(st.offset > end_of_last - 1); /* pages in order, not overlapping */
        end_of_last = st.offset + st.compressed_size;
        assert_int_equal(st.has_statistics, j != 5);
        if (j == 5) {
          assert_false(st.has_min_max);
          assert_false(st.has_null_count);
          continue;
        }
        int64_t nulls = 0, lo = INT64_MAX, hi = INT64_MIN;
        for (int64_t r = g0 + first; r < g0 + first + count; ++r) {
          if (j == 2 && !k->valid[r]) {
            ++nulls;
            continue;
          }
          lo = r < lo ? r : lo;
          hi = r > hi ? r : hi;
        }
        assert_true(st.has_null_count);
        assert_int_equal(st.null_count, nulls);
        assert_int_equal(st.null_page, nulls == count);
        assert_int_equal(st.has_min_max, nulls < count);
        if (nulls == count) continue;
        assert_int_equal(st.min_size, 8);
        assert_int_equal(st.max_size, 8);
        if (j == 3) {
          assert_true(st.has_float_min_max);
          assert_true(st.min_f64 == lo * 0.25 && st.max_f64 == hi * 0.25);
        } else {
          assert_true(st.has_integer_min_max);
          assert_int_equal(st.min_i64, lo);
          assert_int_equal(st.max_i64, hi);
        }
      }
    }
  }
}

static void test_page_index_metadata(void **state) {
  (void)state;
  pi_file *k = make_pi(-1, 0);
  /* before it is read: where it lies is known, its pages are not */
  gcol_parquet_page_index_info info;
  GCOL_TEST_OK(gcol_parquet_metadata_page_index(k->md, 0, 0, &info));
  assert_true(info.has_offset_index && info.has_column_index && !info.read);
  assert_int_equal(info.num_pages, 0);
  int32_t n = -1;
  GCOL_TEST_STATUS(gcol_parquet_metadata_num_pages(k->md, 0, 0, &n), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "not been read"));
  gcol_parquet_page_statistics st;
  GCOL_TEST_STATUS(gcol_parquet_metadata_page_statistics(k->md, 0, 0, 0, &st),
                   GCOL_ERROR_INVALID_ARGUMENT);
  /* a source whose reads fail: a status, nothing read */
  gcol_parquet_source const broken = {k->size, failing_read, NULL, "broken"};
  GCOL_TEST_STATUS(gcol_parquet_metadata_read_page_index_source(k->md, &broken),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "reading the page index bytes"));
  GCOL_TEST_OK(gcol_parquet_metadata_page_index(k->md, 0, 0, &info));
  assert_false(info.read);
  /* through a source: the indexes lie together, so one read */
  counting_source cs = {k->bytes, 0};
  gcol_parquet_source src = {k->size, counting_read, &cs, "counted"};
  GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_source(k->md, &src));
  assert_int_equal(cs.reads, 1);
  check_pi_pages(k);
  GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_source(k->md, &src)); /* read already */
  assert_int_equal(cs.reads, 1);
  /* bad arguments */
  GCOL_TEST_STATUS(gcol_parquet_metadata_page_statistics(k->md, 0, 0, 6, &st),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_page_statistics(k->md, 0, 0, -1, &st),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_page_statistics(k->md, 2, 0, 0, &st),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_page_statistics(k->md, 0, PI_COLS, 0, &st),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_page_statistics(k->md, 0, 0, 0, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_num_pages(NULL, 0, 0, &n), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_page_index(k->md, 0, 0, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_read_page_index_buffer(NULL, k->bytes, k->size),
                   GCOL_ERROR_INVALID_ARGUMENT);
  free_pi(k);

  /* from a buffer, and from a file */
  k = make_pi(-1, 0);
  GCOL_TEST_STATUS(gcol_parquet_metadata_read_page_index_buffer(k->md, k->bytes, k->size - 1),
                   GCOL_ERROR_INVALID_ARGUMENT); /* not the same file */
  assert_non_null(strstr(gcol_last_error(), "not the same file"));
  GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_buffer(k->md, k->bytes, k->size));
  check_pi_pages(k);
  char path[] = "/tmp/gcol_page_index_XXXXXX";
  int const fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(k->bytes, 1, (size_t)k->size, f), (size_t)k->size);
  fclose(f);
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_file(path, &md));
  gcol_parquet_metadata_free(k->md);
  k->md = md;
  GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_file(k->md, path));
  check_pi_pages(k);
  remove(path);
  GCOL_TEST_STATUS(gcol_parquet_metadata_read_page_index_file(md, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  free_pi(k);

  /* a file without a page index: read, nothing found */
  int64_t vals[3] = {1, 2, 3};
  pqb_column c = column_of("x", GCOL_PARQUET_INT64);
  c.ints = vals;
  pqb_file const pf = pqb_one_column(&c, 3);
  int64_t size = 0;
  uint8_t *bytes = pqb_build(&pf, &size);
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(bytes, size, &md));
  GCOL_TEST_OK(gcol_parquet_metadata_page_index(md, 0, 0, &info));
  assert_false(info.has_offset_index || info.has_column_index || info.read);
  GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_buffer(md, bytes, size));
  GCOL_TEST_OK(gcol_parquet_metadata_num_pages(md, 0, 0, &n));
  assert_int_equal(n, 0);
  gcol_parquet_metadata_free(md);
  free(bytes);
}

/* Each lie of the builder: INVALID_ARGUMENT naming the row group and column, the metadata
 * left as it was (and still usable). Then random bytes of the index region: a status, never
 * a crash or a read outside the input. */
static void test_page_index_corrupt(void **state) {
  (void)state;
  static const struct {
    int lie;
    const char *says;
  } lies[] = {
      {PQB_LIE_OFFSET_INDEX_PAST_END, "outside the file's data"},
      {PQB_LIE_COLUMN_INDEX_SHORT, "ColumnIndex"},
      {PQB_LIE_PAGE_OUTSIDE_CHUNK, "outside its column chunk"},
      {PQB_LIE_FIRST_ROW, "row 0"},
      {PQB_LIE_LIST_LENGTH, "differs from the OffsetIndex"},
      {PQB_LIE_NULL_COUNT, "null count"},
      {PQB_LIE_ROWS_ORDER, "out of order"},
  };
  for (size_t i = 0; i < sizeof lies / sizeof lies[0]; ++i) {
    pi_file *k = make_pi(1, lies[i].lie);
    GCOL_TEST_STATUS(gcol_parquet_metadata_read_page_index_buffer(k->md, k->bytes, k->size),
                     GCOL_ERROR_INVALID_ARGUMENT);
    const char *msg = gcol_last_error();
    if (strstr(msg, lies[i].says) == NULL || strstr(msg, "row group 0, column 'seq7'") == NULL) {
      fail_msg("lie %d: message '%s'", lies[i].lie, msg);
    }
    gcol_parquet_page_index_info info;
    GCOL_TEST_OK(gcol_parquet_metadata_page_index(k->md, 0, 0, &info));
    assert_false(info.read);
    assert_int_equal(info.num_pages, 0);
    int32_t n = -1;
    GCOL_TEST_STATUS(gcol_parquet_metadata_num_pages(k->md, 0, 0, &n), GCOL_ERROR_INVALID_ARGUMENT);
    gcol_parquet_statistics chunk;
    GCOL_TEST_OK(gcol_parquet_metadata_statistics(k->md, 0, 1, &chunk));
    assert_int_equal(chunk.min_i64, 0);
    free_pi(k);
  }
  /* random corruption of the index bytes (between the last chunk and the footer) */
  pi_file *k = make_pi(-1, 0);
  int64_t lo = INT64_MAX, hi = 0;
  for (int32_t g = 0; g < 2; ++g) {
    for (int32_t j = 0; j < PI_COLS; ++j) {
      const gcol_detail_pq_chunk *ch = &k->md->row_groups[g].chunks[j];
      if (ch->column_index_offset >= 0 && ch->column_index_offset < lo)
        lo = ch->column_index_offset;
      if (ch->offset_index_offset >= 0 && ch->offset_index_offset < lo)
        lo = ch->offset_index_offset;
      int64_t const e1 = ch->column_index_offset + ch->column_index_length;
      int64_t const e2 = ch->offset_index_offset + ch->offset_index_length;
      hi = e1 > hi ? e1 : hi;
      hi = e2 > hi ? e2 : hi;
    }
  }
  assert_true(lo < hi && hi <= k->size);
  gcol_test_rng r = gcol_test_rng_make(0x91de);
  uint8_t *copy = (uint8_t *)malloc((size_t)k->size);
  assert_non_null(copy);
  int ok = 0, refused = 0;
  for (int round = 0; round < 1500; ++round) {
    memcpy(copy, k->bytes, (size_t)k->size);
    int64_t const flips = gcol_test_rng_range(&r, 1, 4);
    for (int64_t f = 0; f < flips; ++f) {
      copy[gcol_test_rng_range(&r, lo, hi - 1)] = (uint8_t)gcol_test_rng_range(&r, 0, 255);
    }
    gcol_parquet_metadata *md = NULL;
    GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(copy, k->size, &md)); /* footer untouched */
    gcol_status const st = gcol_parquet_metadata_read_page_index_buffer(md, copy, k->size);
    if (st == GCOL_OK) {
      ++ok;
      for (int32_t g = 0; g < 2; ++g) { /* what was accepted is consistent */
        int64_t const rows = gcol_parquet_metadata_row_group_num_rows(md, g);
        for (int32_t j = 0; j < PI_COLS; ++j) {
          int32_t n = 0;
          GCOL_TEST_OK(gcol_parquet_metadata_num_pages(md, g, j, &n));
          int64_t next = 0;
          for (int32_t p = 0; p < n; ++p) {
            gcol_parquet_page_statistics ps;
            GCOL_TEST_OK(gcol_parquet_metadata_page_statistics(md, g, j, p, &ps));
            assert_int_equal(ps.first_row, next);
            next += ps.num_rows;
          }
          if (n > 0) assert_int_equal(next, rows);
        }
      }
    } else {
      assert_int_equal(st, GCOL_ERROR_INVALID_ARGUMENT);
      assert_non_null(strstr(gcol_last_error(), "page index"));
      ++refused;
    }
    gcol_parquet_metadata_free(md);
  }
  assert_true(refused > 100);
  free(copy);
  free_pi(k);
}

/* The kept row ranges of a group as a string "[a,b)[c,d)". */
static const char *page_ranges(const gcol_parquet_metadata *md, const gcol_expression *e,
                               int32_t root, int32_t g) {
  static char text[512];
  gcol_detail_pq_row_range *ranges = NULL;
  int64_t n = -1;
  GCOL_TEST_OK(gcol_detail_pq_filter_pages(md, e, root, g, &ranges, &n));
  text[0] = '\0';
  for (int64_t i = 0; i < n; ++i) {
    size_t const len = strlen(text);
    snprintf(text + len, sizeof text - len, "[%lld,%lld)", (long long)ranges[i].begin,
             (long long)ranges[i].end);
  }
  free(ranges);
  return text;
}

#define EXPECT_RANGES(md, e, root, g, want)                                    \
  do {                                                                         \
    const char *got_ = page_ranges((md), (e), (root), (g));                    \
    if (strcmp(got_, (want)) != 0)                                             \
      fail_msg("line %d: ranges '%s', expected '%s'", __LINE__, got_, (want)); \
  } while (0)

static void test_page_ranges_known(void **state) {
  (void)state;
  pi_file *k = make_pi(-1, 0);
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  /* 35 <= seq < 52: seq's pages of 10 */
  int32_t const range = bin(e, GCOL_EXPR_LOGICAL_AND,
                            bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 35)),
                            bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_INT64, 52)));
  /* before the page index is read: the chunks' statistics only */
  EXPECT_RANGES(k->md, e, range, 0, "[0,60)");
  EXPECT_RANGES(k->md, e, range, 1, ""); /* rows 60-99: excluded by the chunk */
  GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_buffer(k->md, k->bytes, k->size));
  EXPECT_RANGES(k->md, e, range, 0, "[30,60)");
  EXPECT_RANGES(k->md, e, range, 1, "");
  /* seq >= 35 AND seq7 < 50: cut at both columns' pages (7: 49 is in [49,56)) */
  int32_t const two = bin(e, GCOL_EXPR_LOGICAL_AND,
                          bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 35)),
                          bin(e, GCOL_EXPR_LESS, col(e, 1), lit_int(e, GCOL_INT64, 50)));
  EXPECT_RANGES(k->md, e, two, 0, "[30,56)");
  /* OR: either column's pages */
  int32_t const either =
      bin(e, GCOL_EXPR_LOGICAL_OR, bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_INT64, 5)),
          bin(e, GCOL_EXPR_EQUAL, col(e, 1), lit_int(e, GCOL_INT64, 43)));
  EXPECT_RANGES(k->md, e, either, 0, "[0,10)[42,49)");
  /* group 1's rows are 60..99 (first rows count from the group's start) */
  int32_t const late = bin(e, GCOL_EXPR_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 77));
  EXPECT_RANGES(k->md, e, late, 0, "");
  EXPECT_RANGES(k->md, e, late, 1, "[10,20)");
  /* nulls: IS_NULL(opt) keeps the pages with nulls, IS_VALID all but the null page */
  int32_t const isnull = un(e, GCOL_EXPR_IS_NULL, col(e, 2));
  EXPECT_RANGES(k->md, e, isnull, 0, "[0,60)");
  int32_t const isvalid = un(e, GCOL_EXPR_IS_VALID, col(e, 2));
  EXPECT_RANGES(k->md, e, isvalid, 0, "[0,20)[30,60)");
  int32_t const opt_low = bin(e, GCOL_EXPR_LESS, col(e, 2), lit_int(e, GCOL_INT64, 32));
  EXPECT_RANGES(k->md, e, opt_low, 0, "[0,20)[30,40)");
  /* floats: real = i/4 in pages of 16 */
  int32_t const real = bin(e, GCOL_EXPR_GREATER, col(e, 3), lit_float(e, GCOL_FLOAT64, 12.0));
  EXPECT_RANGES(k->md, e, real, 0, "[48,60)");
  /* a column without page statistics: its chunk's (plain, loc) */
  int32_t const plain = bin(e, GCOL_EXPR_EQUAL, col(e, 4), lit_int(e, GCOL_INT64, 3));
  EXPECT_RANGES(k->md, e, plain, 0, "[0,60)");
  int32_t const loc = bin(e, GCOL_EXPR_EQUAL, col(e, 5), lit_int(e, GCOL_INT64, 3));
  EXPECT_RANGES(k->md, e, loc, 0, "[0,60)");
  int32_t const mix = bin(e, GCOL_EXPR_LOGICAL_AND, plain, late);
  EXPECT_RANGES(k->md, e, mix, 1, ""); /* plain = 3 excluded by group 1's chunk */
  /* bad input */
  gcol_detail_pq_row_range *ranges = NULL;
  int64_t n = 0;
  GCOL_TEST_STATUS(gcol_detail_pq_filter_pages(k->md, e, range, 2, &ranges, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_detail_pq_filter_pages(k->md, e, col(e, 0), 0, &ranges, &n),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_detail_pq_filter_pages(k->md, e, range, 0, NULL, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_detail_pq_filter_pages(NULL, e, range, 0, &ranges, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_expression_free(e);
  free_pi(k);
}

/* Random files with a page index (random pages per column, some without a ColumnIndex) and
 * random predicates: no row where the predicate holds lies outside the kept ranges, and a
 * single range comparison of an integer column keeps exactly its pages holding a match. */
static void test_property_page_ranges(void **state) {
  (void)state;
  gcol_test_rng r = gcol_test_rng_make(0x9a9e);
  static pfile p;
  int64_t dropped_rows = 0, exact = 0;
  for (int round = 0; round < 200; ++round) {
    make_pfile(&r, &p);
    for (int32_t k = 0; k < PCOLS; ++k) {
      p.c[k].page_index = true;
      p.c[k].no_column_index = gcol_test_rng_range(&r, 0, 5) == 0;
      p.c[k].rows_per_page = gcol_test_rng_range(&r, 1, 6);
    }
    p.per_group = gcol_test_rng_range(&r, 1, 30);
    int64_t size = 0;
    gcol_parquet_metadata *md = NULL;
    uint8_t *bytes = build_pfile(&p, &size, &md);
    GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_buffer(md, bytes, size));
    int32_t const groups = gcol_parquet_metadata_num_row_groups(md);
    for (int q = 0; q < 20; ++q) {
      gcol_expression *e = NULL;
      GCOL_TEST_OK(gcol_expression_create(&e));
      int32_t const root = random_predicate(&r, e, &p, 3);
      bool const exactly = decided_exactly(&p, e, root);
      for (int32_t g = 0; g < groups; ++g) {
        int64_t const g0 = g * p.per_group;
        int64_t const rows = gcol_parquet_metadata_row_group_num_rows(md, g);
        gcol_detail_pq_row_range *ranges = NULL;
        int64_t n = -1;
        GCOL_TEST_OK(gcol_detail_pq_filter_pages(md, e, root, g, &ranges, &n));
        bool kept[PMAX_ROWS];
        memset(kept, 0, sizeof kept);
        for (int64_t i = 0; i < n; ++i) {
          assert_true(ranges[i].begin < ranges[i].end && ranges[i].end <= rows);
          if (i > 0) assert_true(ranges[i].begin > ranges[i - 1].end); /* merged, ascending */
          for (int64_t row = ranges[i].begin; row < ranges[i].end; ++row) kept[row] = true;
        }
        free(ranges);
        for (int64_t row = 0; row < rows; ++row) {
          bool const match = reference(&p, e, root, g0 + row).state == 1;
          if (match && !kept[row]) {
            fail_msg(
                "round %d query %d: row %lld of group %d matches but lies outside the "
                "kept ranges",
                round, q, (long long)row, g);
          }
          dropped_rows += !kept[row];
        }
        if (!exactly) continue;
        /* one column: its pages are the segments, and each is kept iff it holds a match */
        int32_t const k = e->nodes[e->nodes[root].lhs].kind == GCOL_DETAIL_EXPR_NODE_COLUMN
                              ? e->nodes[e->nodes[root].lhs].column
                              : e->nodes[e->nodes[root].rhs].column;
        if (p.c[k].no_column_index) continue;
        int32_t pages = 0;
        GCOL_TEST_OK(gcol_parquet_metadata_num_pages(md, g, k, &pages));
        for (int32_t pg = 0; pg < pages; ++pg) {
          gcol_parquet_page_statistics ps;
          GCOL_TEST_OK(gcol_parquet_metadata_page_statistics(md, g, k, pg, &ps));
          bool match = false;
          for (int64_t row = ps.first_row; row < ps.first_row + ps.num_rows; ++row) {
            match = match || reference(&p, e, root, g0 + row).state == 1;
          }
          if (match != kept[ps.first_row]) {
            fail_msg("round %d query %d: group %d page %d kept %d, match %d", round, q, g, pg,
                     kept[ps.first_row], match);
          }
          ++exact;
        }
      }
      gcol_expression_free(e);
    }
    gcol_parquet_metadata_free(md);
    free(bytes);
  }
  assert_true(dropped_rows > 10000);
  assert_true(exact > 300);
}

/* ------------------------------------------------------------------ page skipping */

static void test_row_range_helpers(void **state) {
  (void)state;
  gcol_detail_pq_row_range const r[] = {{0, 10}, {20, 25}, {40, 41}};
  /* overlap: inside, across an end, touching without sharing, empty, no ranges */
  assert_true(gcol_detail_pq_rows_overlap(r, 3, 5, 6));
  assert_true(gcol_detail_pq_rows_overlap(r, 3, 9, 20));
  assert_true(gcol_detail_pq_rows_overlap(r, 3, 15, 21));
  assert_true(gcol_detail_pq_rows_overlap(r, 3, 24, 100));
  assert_true(gcol_detail_pq_rows_overlap(r, 3, 40, 41));
  assert_true(gcol_detail_pq_rows_overlap(r, 3, -5, 1));
  assert_false(gcol_detail_pq_rows_overlap(r, 3, 10, 20));
  assert_false(gcol_detail_pq_rows_overlap(r, 3, 25, 40));
  assert_false(gcol_detail_pq_rows_overlap(r, 3, 41, 50));
  assert_false(gcol_detail_pq_rows_overlap(r, 3, 5, 5)); /* a page of 0 rows */
  assert_false(gcol_detail_pq_rows_overlap(r, 3, 20, 20));
  assert_false(gcol_detail_pq_rows_overlap(r, 0, 0, 100));
  assert_int_equal(gcol_detail_pq_rows_count(r, 3), 16);
  assert_int_equal(gcol_detail_pq_rows_count(r, 0), 0);
  /* the map: covered [0,10)[20,25)[40,41) (16 rows), kept [3,5)[20,21)[40,41) */
  gcol_detail_pq_row_range const k[] = {{3, 5}, {20, 21}, {40, 41}};
  int64_t map[16];
  assert_true(gcol_detail_pq_row_map(r, 3, k, 3, map));
  assert_int_equal(map[0], 3);
  assert_int_equal(map[1], 4);
  assert_int_equal(map[2], 10);
  assert_int_equal(map[3], 15);
  /* covered == kept: the identity */
  assert_true(gcol_detail_pq_row_map(r, 3, r, 3, map));
  for (int64_t i = 0; i < 16; ++i) assert_int_equal(map[i], i);
  /* no kept row: nothing written */
  map[0] = -7;
  assert_true(gcol_detail_pq_row_map(r, 3, NULL, 0, map));
  assert_int_equal(map[0], -7);
  /* a kept row outside the covered rows: refused (between, after, before) */
  gcol_detail_pq_row_range const gap[] = {{9, 11}};
  gcol_detail_pq_row_range const after[] = {{41, 42}};
  gcol_detail_pq_row_range const before[] = {{-1, 0}};
  assert_false(gcol_detail_pq_row_map(r, 3, gap, 1, map));
  assert_false(gcol_detail_pq_row_map(r, 3, after, 1, map));
  assert_false(gcol_detail_pq_row_map(r, 3, before, 1, map));
  assert_false(gcol_detail_pq_row_map(NULL, 0, k, 1, map));
}

/* gcol_detail_pq_kept_rows of `groups` as "groups 0,1: [a,b)...". */
static const char *kept_text(const gcol_parquet_metadata *md, const gcol_expression *e,
                             int32_t root, const int32_t *groups, int32_t num_groups) {
  static char text[512];
  int32_t left[8];
  memcpy(left, groups, (size_t)num_groups * sizeof *left);
  gcol_detail_pq_row_range *kept = NULL;
  int64_t n = -1;
  GCOL_TEST_OK(gcol_detail_pq_kept_rows(md, e, root, left, &num_groups, &kept, &n));
  if (n == 0) assert_null(kept);
  snprintf(text, sizeof text, "groups");
  for (int32_t i = 0; i < num_groups; ++i) {
    size_t const len = strlen(text);
    snprintf(text + len, sizeof text - len, "%s%d", i == 0 ? " " : ",", left[i]);
  }
  size_t const len = strlen(text);
  snprintf(text + len, sizeof text - len, ":");
  for (int64_t i = 0; i < n; ++i) {
    size_t const l = strlen(text);
    snprintf(text + l, sizeof text - l, " [%lld,%lld)", (long long)kept[i].begin,
             (long long)kept[i].end);
  }
  free(kept);
  return text;
}

#define EXPECT_KEPT_ROWS(md, e, root, groups, n, want)                       \
  do {                                                                       \
    const char *got_ = kept_text((md), (e), (root), (groups), (n));          \
    if (strcmp(got_, (want)) != 0)                                           \
      fail_msg("line %d: kept '%s', expected '%s'", __LINE__, got_, (want)); \
  } while (0)

/* The kept read rows of pi_file (groups of 60 and 40 rows): groups with none dropped, the
 * others numbered in the order read, ranges merged across a group boundary. */
static void test_kept_rows_known(void **state) {
  (void)state;
  pi_file *k = make_pi(-1, 0);
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int32_t const both[] = {0, 1}, reversed[] = {1, 0};
  int32_t const range = bin(e, GCOL_EXPR_LOGICAL_AND,
                            bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 35)),
                            bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_INT64, 52)));
  /* no page index read yet: whole groups, by the chunks' statistics */
  EXPECT_KEPT_ROWS(k->md, e, range, both, 2, "groups 0: [0,60)");
  GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_buffer(k->md, k->bytes, k->size));
  EXPECT_KEPT_ROWS(k->md, e, range, both, 2, "groups 0: [30,60)");
  /* group 0 dropped: group 1's rows are read rows 0.. */
  int32_t const late = bin(e, GCOL_EXPR_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 77));
  EXPECT_KEPT_ROWS(k->md, e, late, both, 2, "groups 1: [10,20)");
  /* across the groups' boundary (55 <= seq < 65): one range, at group 0's end and group 1's
   * start; read in the other order, two ranges */
  int32_t const cross = bin(e, GCOL_EXPR_LOGICAL_AND,
                            bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 55)),
                            bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_INT64, 65)));
  EXPECT_KEPT_ROWS(k->md, e, cross, both, 2, "groups 0,1: [50,70)");
  EXPECT_KEPT_ROWS(k->md, e, cross, reversed, 2, "groups 1,0: [0,10) [90,100)");
  /* every row, no row, no group */
  int32_t const all = bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 0));
  EXPECT_KEPT_ROWS(k->md, e, all, both, 2, "groups 0,1: [0,100)");
  int32_t const none = bin(e, GCOL_EXPR_GREATER, col(e, 0), lit_int(e, GCOL_INT64, 1000));
  EXPECT_KEPT_ROWS(k->md, e, none, both, 2, "groups:");
  EXPECT_KEPT_ROWS(k->md, e, all, both, 0, "groups:");
  /* the last rows of the file only (seq >= 95: the last page of 10 of group 1) */
  int32_t const tail = bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 95));
  EXPECT_KEPT_ROWS(k->md, e, tail, both, 2, "groups 1: [30,40)");
  /* a bad filter is reported */
  int32_t groups[] = {0, 1}, num = 2;
  gcol_detail_pq_row_range *kept = NULL;
  int64_t n = 0;
  GCOL_TEST_STATUS(gcol_detail_pq_kept_rows(k->md, e, col(e, 0), groups, &num, &kept, &n),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(kept);
  gcol_expression_free(e);
  free_pi(k);
}

/* A column's rows decoded on the host from a plan. */
typedef struct host_rows {
  gcol_detail_pq_column_plan plan;
  uint64_t *values;
  uint64_t *values_hi;
  int64_t *pos;
  int64_t *len;
  uint8_t *valid;
} host_rows;

/* Plans column `k` of groups[0, n) (kept NULL: every page) and decodes it on the host. */
static void plan_and_decode(const uint8_t *bytes, int64_t size, const gcol_parquet_metadata *md,
                            int32_t k, const int32_t *groups, int32_t n,
                            const gcol_detail_pq_row_range *kept, int64_t num_kept,
                            host_rows *out) {
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(bytes, size, &src, NULL);
  memset(out, 0, sizeof *out);
  GCOL_TEST_OK(gcol_detail_parquet_plan_column_kept(&src, NULL, md, k, groups, n, kept, num_kept, 0,
                                                    NULL, &out->plan));
  size_t const rows = (size_t)out->plan.num_rows + 1;
  out->values = (uint64_t *)malloc(rows * 8);
  out->values_hi = (uint64_t *)malloc(rows * 8);
  out->pos = (int64_t *)malloc(rows * 8);
  out->len = (int64_t *)malloc(rows * 8);
  out->valid = (uint8_t *)malloc(rows);
  assert_true(out->values && out->values_hi && out->pos && out->len && out->valid);
  int32_t bad = 0;
  bool is_dict = false;
  int const code = gcol_detail_parquet_decode_column_host(
      &out->plan, out->values, out->values_hi, out->pos, out->len, out->valid, &bad, &is_dict);
  if (code != 0) fail_msg("column %d: %s (page %d)", k, gcol_detail_parquet_page_error(code), bad);
}

static void free_host_rows(host_rows *h) {
  gcol_detail_parquet_plan_free(&h->plan);
  free(h->values);
  free(h->values_hi);
  free(h->pos);
  free(h->len);
  free(h->valid);
}

/* The kept rows of `skipped` (through the row map) against the same read rows of `whole`
 * (every page decoded): validity, values, strings' bytes. */
static void expect_kept_rows_equal(const host_rows *whole, const host_rows *skipped,
                                   const gcol_detail_pq_row_range *kept, int64_t num_kept,
                                   int32_t k) {
  int64_t const n = gcol_detail_pq_rows_count(kept, num_kept);
  int64_t *map = (int64_t *)malloc((size_t)(n + 1) * sizeof *map);
  assert_non_null(map);
  assert_true(gcol_detail_pq_row_map(skipped->plan.covered, skipped->plan.num_covered, kept,
                                     num_kept, map));
  int64_t j = 0;
  for (int64_t r = 0; r < num_kept; ++r) {
    for (int64_t row = kept[r].begin; row < kept[r].end; ++row, ++j) {
      int64_t const at = map[j];
      assert_true(at >= 0 && at < skipped->plan.num_rows);
      if (whole->valid[row] != skipped->valid[at]) {
        fail_msg("column %d read row %lld: valid %d, every page decoded %d", k, (long long)row,
                 skipped->valid[at], whole->valid[row]);
      }
      if (!whole->valid[row]) continue;
      if (whole->plan.physical_type == GCOL_PARQUET_BYTE_ARRAY) {
        assert_int_equal(whole->len[row], skipped->len[at]);
        assert_memory_equal(whole->plan.bytes + whole->pos[row],
                            skipped->plan.bytes + skipped->pos[at], (size_t)whole->len[row]);
      } else if (whole->values[row] != skipped->values[at]) {
        fail_msg("column %d read row %lld: value differs", k, (long long)row);
      }
    }
  }
  free(map);
}

/* 200 rows in groups of 70, 70, 60: 0 key INT64 = row, pages of 10; 1 s STRING (PLAIN, null on
 * every 5th row) pages of 7; 2 d STRING (dictionary) pages of 13, no page index; 3 v DOUBLE
 * data pages v2 of 16, compressed when a codec is found; 4 x INT32 DELTA_BINARY_PACKED pages
 * of 9, an OffsetIndex only. */
enum { SK_ROWS = 200, SK_GROUP = 70, SK_COLS = 5 };

typedef struct skip_file {
  int64_t key[SK_ROWS];
  double reals[SK_ROWS];
  uint8_t valid[SK_ROWS];
  const char *strings[SK_ROWS];
  char text[SK_ROWS][16];
  pqb_column c[SK_COLS];
  uint8_t *bytes;
  int64_t size;
  gcol_parquet_metadata *md;
} skip_file;

static skip_file *make_skip_file(void) {
  skip_file *f = (skip_file *)calloc(1, sizeof *f);
  assert_non_null(f);
  for (int i = 0; i < SK_ROWS; ++i) {
    f->key[i] = i;
    f->reals[i] = i * 0.5 - 7;
    f->valid[i] = i % 5 != 0;
    snprintf(f->text[i], sizeof f->text[i], "w%d", i * 37 % 101);
    f->strings[i] = f->text[i];
  }
  static const char *names[SK_COLS] = {"key", "s", "d", "v", "x"};
  static const int32_t physical[SK_COLS] = {GCOL_PARQUET_INT64, GCOL_PARQUET_BYTE_ARRAY,
                                            GCOL_PARQUET_BYTE_ARRAY, GCOL_PARQUET_DOUBLE,
                                            GCOL_PARQUET_INT32};
  static const int64_t pages[SK_COLS] = {10, 7, 13, 16, 9};
  for (int32_t j = 0; j < SK_COLS; ++j) {
    f->c[j] = column_of(names[j], physical[j]);
    if (physical[j] == GCOL_PARQUET_BYTE_ARRAY) {
      f->c[j].strings = f->strings;
    } else {
      f->c[j].ints = f->key;
      f->c[j].reals = f->reals;
    }
    f->c[j].rows_per_page = pages[j];
    f->c[j].page_index = j != 2;
  }
  f->c[1].optional = true;
  f->c[1].valid = f->valid;
  f->c[2].dictionary = true;
  f->c[3].page_version = 2;
  if (gcol_detail_pq_codec_available(GCOL_PARQUET_SNAPPY)) f->c[3].codec = GCOL_PARQUET_SNAPPY;
  f->c[4].delta = true;
  f->c[4].no_column_index = true;
  pqb_file pf;
  memset(&pf, 0, sizeof pf);
  pf.num_columns = SK_COLS;
  pf.columns = f->c;
  pf.num_rows = SK_ROWS;
  pf.rows_per_group = SK_GROUP;
  f->bytes = pqb_build(&pf, &f->size);
  assert_non_null(f->bytes);
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(f->bytes, f->size, &f->md));
  GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_buffer(f->md, f->bytes, f->size));
  return f;
}

static void free_skip_file(skip_file *f) {
  gcol_parquet_metadata_free(f->md);
  free(f->bytes);
  free(f);
}

/* The kept rows of `root` over every group, then each column planned with and without them:
 * fewer pages where rows are skipped, covered rows holding the kept ones, the same values. */
static void check_skipping(skip_file *f, const gcol_expression *e, int32_t root,
                           int32_t *pages_skipped) {
  int32_t groups[3] = {0, 1, 2}, num_groups = 3;
  gcol_detail_pq_row_range *kept = NULL;
  int64_t num_kept = 0;
  GCOL_TEST_OK(gcol_detail_pq_kept_rows(f->md, e, root, groups, &num_groups, &kept, &num_kept));
  for (int32_t k = 0; k < SK_COLS; ++k) {
    host_rows whole, skipped;
    plan_and_decode(f->bytes, f->size, f->md, k, groups, num_groups, NULL, 0, &whole);
    plan_and_decode(f->bytes, f->size, f->md, k, groups, num_groups, kept, num_kept, &skipped);
    assert_null(whole.plan.covered);
    assert_true(skipped.plan.num_pages <= whole.plan.num_pages);
    assert_int_equal(skipped.plan.num_dicts, whole.plan.num_dicts); /* always read */
    assert_int_equal(gcol_detail_pq_rows_count(skipped.plan.covered, skipped.plan.num_covered),
                     skipped.plan.num_rows);
    *pages_skipped += whole.plan.num_pages - skipped.plan.num_pages;
    expect_kept_rows_equal(&whole, &skipped, kept, num_kept, k);
    free_host_rows(&whole);
    free_host_rows(&skipped);
  }
  free(kept);
}

static void test_plan_skips_pages(void **state) {
  (void)state;
  skip_file *f = make_skip_file();
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  /* 35 <= key < 52: group 0 only, key's pages [30,60) */
  int32_t const range = bin(e, GCOL_EXPR_LOGICAL_AND,
                            bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 35)),
                            bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_INT64, 52)));
  int32_t groups[3] = {0, 1, 2}, num_groups = 3;
  gcol_detail_pq_row_range *kept = NULL;
  int64_t num_kept = 0;
  GCOL_TEST_OK(gcol_detail_pq_kept_rows(f->md, e, range, groups, &num_groups, &kept, &num_kept));
  assert_int_equal(num_groups, 1);
  assert_int_equal(num_kept, 1);
  assert_int_equal(kept[0].begin, 30);
  assert_int_equal(kept[0].end, 60);
  /* key: 3 pages of 10; s: pages of 7 from [28,35) to [56,63); d (no page index: its
   * headers place its pages): [26,39) to [52,65); v: [16,32) to [48,64); x: [27,36) to
   * [54,63) */
  static const int64_t want_pages[SK_COLS] = {3, 5, 3, 3, 4};
  static const int64_t want_begin[SK_COLS] = {30, 28, 26, 16, 27};
  static const int64_t want_end[SK_COLS] = {60, 63, 65, 64, 63};
  for (int32_t k = 0; k < SK_COLS; ++k) {
    host_rows h;
    plan_and_decode(f->bytes, f->size, f->md, k, groups, num_groups, kept, num_kept, &h);
    assert_int_equal(h.plan.num_pages, want_pages[k]);
    assert_int_equal(h.plan.num_covered, 1);
    assert_int_equal(h.plan.covered[0].begin, want_begin[k]);
    assert_int_equal(h.plan.covered[0].end, want_end[k]);
    assert_int_equal(h.plan.num_rows, want_end[k] - want_begin[k]);
    if (k == 0) { /* key = read row */
      for (int64_t i = 0; i < h.plan.num_rows; ++i) assert_int_equal(h.values[i], 30 + i);
    }
    free_host_rows(&h);
  }
  free(kept);
  /* every kind of filter against the whole decode */
  int32_t skipped = 0;
  check_skipping(f, e, range, &skipped);
  assert_true(skipped > 0);
  /* across group boundaries, two groups: 65 <= key < 75 OR key >= 195 */
  int32_t const cross =
      bin(e, GCOL_EXPR_LOGICAL_OR,
          bin(e, GCOL_EXPR_LOGICAL_AND,
              bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 65)),
              bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_INT64, 75))),
          bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 195)));
  check_skipping(f, e, cross, &skipped);
  /* every row kept, none kept */
  check_skipping(f, e, bin(e, GCOL_EXPR_GREATER_EQUAL, col(e, 0), lit_int(e, GCOL_INT64, 0)),
                 &skipped);
  check_skipping(f, e, bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_INT64, 0)), &skipped);
  /* a string comparison AND a range of key (the strings' pages judged by their chunk) */
  gcol_scalar *w5 = NULL;
  GCOL_TEST_OK(gcol_scalar_create_string("w5", 2, &w5));
  check_skipping(
      f, e,
      bin(e, GCOL_EXPR_LOGICAL_AND, bin(e, GCOL_EXPR_EQUAL, col(e, 1), add_scalar(e, w5)),
          bin(e, GCOL_EXPR_LESS, col(e, 0), lit_int(e, GCOL_INT64, 100))),
      &skipped);
  /* the doubles' pages (data pages v2, compressed) */
  check_skipping(f, e, bin(e, GCOL_EXPR_LESS, col(e, 3), lit_float(e, GCOL_FLOAT64, 3.0)),
                 &skipped);
  gcol_expression_free(e);
  free_skip_file(f);
}

/* A page index that disagrees with the pages is refused when pages are skipped by it (the
 * kept rows were judged by it), and ignored when every page is read. */
static void test_plan_index_disagrees(void **state) {
  (void)state;
  skip_file *f = make_skip_file();
  int32_t const groups[] = {0};
  gcol_detail_pq_row_range const kept[] = {{30, 40}};
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(f->bytes, f->size, &src, NULL);
  gcol_detail_pq_chunk *ch = &f->md->row_groups[0].chunks[0];
  gcol_detail_pq_column_plan plan;
  /* a page's first row one off */
  ch->pages[2].first_row += 1;
  GCOL_TEST_STATUS(gcol_detail_parquet_plan_column_kept(&src, NULL, f->md, 0, groups, 1, kept, 1, 0,
                                                        NULL, &plan),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "page index says rows"));
  GCOL_TEST_OK(gcol_detail_parquet_plan_column(&src, f->md, 0, groups, 1, &plan));
  gcol_detail_parquet_plan_free(&plan);
  ch->pages[2].first_row -= 1;
  /* a page fewer in the index */
  ch->num_pages -= 1;
  GCOL_TEST_STATUS(gcol_detail_parquet_plan_column_kept(&src, NULL, f->md, 0, groups, 1, kept, 1, 0,
                                                        NULL, &plan),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "lists 6 data pages"));
  ch->num_pages += 1;
  GCOL_TEST_OK(gcol_detail_parquet_plan_column_kept(&src, NULL, f->md, 0, groups, 1, kept, 1, 0,
                                                    NULL, &plan));
  assert_int_equal(plan.num_pages, 1);
  gcol_detail_parquet_plan_free(&plan);
  free_skip_file(f);
}

/* Random files with a page index (random pages, some chunks without a ColumnIndex) and random
 * predicates: every column planned with the kept rows decodes, at every kept row, what the
 * whole decode holds there, and no row where the predicate holds is outside the kept rows. */
static void test_property_page_skipping(void **state) {
  (void)state;
  gcol_test_rng r = gcol_test_rng_make(0x5c1b);
  static pfile p;
  int32_t pages_skipped = 0;
  for (int round = 0; round < 60; ++round) {
    make_pfile(&r, &p);
    for (int32_t k = 0; k < PCOLS; ++k) {
      p.c[k].page_index = gcol_test_rng_range(&r, 0, 4) > 0;
      p.c[k].no_column_index = gcol_test_rng_range(&r, 0, 5) == 0;
      p.c[k].rows_per_page = gcol_test_rng_range(&r, 1, 6);
      p.c[k].page_version = (int32_t)gcol_test_rng_range(&r, 1, 2);
    }
    p.per_group = gcol_test_rng_range(&r, 1, 30);
    int64_t size = 0;
    gcol_parquet_metadata *md = NULL;
    uint8_t *bytes = build_pfile(&p, &size, &md);
    GCOL_TEST_OK(gcol_parquet_metadata_read_page_index_buffer(md, bytes, size));
    for (int q = 0; q < 8; ++q) {
      gcol_expression *e = NULL;
      GCOL_TEST_OK(gcol_expression_create(&e));
      int32_t const root = random_predicate(&r, e, &p, 3);
      int32_t groups[PMAX_ROWS], num_groups = md->num_row_groups;
      for (int32_t g = 0; g < num_groups; ++g) groups[g] = g;
      gcol_detail_pq_row_range *kept = NULL;
      int64_t num_kept = 0;
      GCOL_TEST_OK(gcol_detail_pq_kept_rows(md, e, root, groups, &num_groups, &kept, &num_kept));
      /* every matching row of the file lies in a kept range of its group */
      int64_t base = 0;
      int32_t next = 0;
      for (int32_t g = 0; g < md->num_row_groups; ++g) {
        bool const read = next < num_groups && groups[next] == g;
        for (int64_t row = 0; row < md->row_groups[g].num_rows; ++row) {
          bool const match = reference(&p, e, root, g * p.per_group + row).state == 1;
          if (match &&
              !(read && gcol_detail_pq_rows_overlap(kept, num_kept, base + row, base + row + 1))) {
            fail_msg("round %d query %d: row %lld of group %d matches but is not kept", round, q,
                     (long long)row, g);
          }
        }
        if (read) {
          base += md->row_groups[g].num_rows;
          ++next;
        }
      }
      for (int32_t k = 0; k < PCOLS && num_groups > 0; ++k) {
        host_rows whole, skipped;
        plan_and_decode(bytes, size, md, k, groups, num_groups, NULL, 0, &whole);
        plan_and_decode(bytes, size, md, k, groups, num_groups, kept, num_kept, &skipped);
        pages_skipped += whole.plan.num_pages - skipped.plan.num_pages;
        expect_kept_rows_equal(&whole, &skipped, kept, num_kept, k);
        free_host_rows(&whole);
        free_host_rows(&skipped);
      }
      free(kept);
      gcol_expression_free(e);
    }
    gcol_parquet_metadata_free(md);
    free(bytes);
  }
  assert_true(pages_skipped > 100);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_comparisons_both_orders),
      cmocka_unit_test(test_logic_and_nulls),
      cmocka_unit_test(test_floats_and_nan),
      cmocka_unit_test(test_other_types),
      cmocka_unit_test(test_decimal_statistics_edges),
      cmocka_unit_test(test_inverted_statistics),
      cmocka_unit_test(test_bad_input),
      cmocka_unit_test(test_read_option_checks),
      cmocka_unit_test(test_property_no_matching_group_dropped),
      cmocka_unit_test(test_page_index_metadata),
      cmocka_unit_test(test_page_index_corrupt),
      cmocka_unit_test(test_page_ranges_known),
      cmocka_unit_test(test_property_page_ranges),
      cmocka_unit_test(test_row_range_helpers),
      cmocka_unit_test(test_kept_rows_known),
      cmocka_unit_test(test_plan_skips_pages),
      cmocka_unit_test(test_plan_index_disagrees),
      cmocka_unit_test(test_property_page_skipping),
  };
  return GCOL_TEST_RUN("parquet_pushdown_host", tests);
}
