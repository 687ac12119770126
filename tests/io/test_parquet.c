/*
 * GPU tests of the Parquet reader (include/gcol/io/parquet.h): files written by
 * parquet_builder.c (every type the reader takes, nulls, PLAIN and dictionary values, data
 * pages v1 and v2, several row groups and pages) read from a buffer, a file and a callback
 * source into tables and compared value by value with the data written; column projection by
 * index and name, row-group selection; empty and all-null columns; errors found on the GPU
 * (a page whose levels end early) and on the host; allocation failures; the block-per-page
 * decoders at sizes that cross their run batches, shared-memory stages and tiles (pages of
 * thousands of runs, all-null, no-null and one-row pages, > 65536-row dictionary pages, 100 KB
 * strings, a pinned source) and their errors. Pages decompressed by nvCOMP (when it is found:
 * GCOL_NVCOMP_PATH; GCOL_TEST_REQUIRE_NVCOMP=1 fails instead of skipping without it) against
 * the host path (options.untrusted), and pages whose header lies about their size. Reads
 * with a filter: row groups pruned by statistics, and pages skipped by the page index
 * (columns of different page sizes, nulls, strings, chosen row groups, an unreadable index)
 * against reading every row then gcol_filter_expression, with the data pages decoded counted
 * (gcol_detail_parquet_read_pages) and allocation failures. The files pyarrow writes are
 * checked by test_parquet_python.py (suite clients).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "gcol/expression.h"
#include "gcol/io/parquet.h"
#include "gcol/io/staging.h"
#include "gcol/scalar.h"
#include "internal/parquet.h"
#include "internal/staging.h"
#include "parquet_cases.h"
#include "parquet_nested_fixture.h"
#include "test_util.h"

/* Column `view` must hold rows[0..n) of column `c` (a row index into the data). */
static void check_column(gcol_column_view view, const pqb_column *c, gcol_type_id id,
                         const int64_t *rows, int64_t n) {
  assert_int_equal(view.type.id, id);
  assert_int_equal(view.size, n);
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) nulls += c->valid != NULL && !c->valid[rows[i]];
  if (c->optional && view.null_mask != NULL) {
    assert_int_equal(view.null_count, nulls);
  } else {
    /* no mask: no nulls (an optional column copied out of a row range may lose its mask
     * when the range has no null; test_read_every_type checks that whole reads keep it) */
    assert_int_equal(nulls, 0);
  }
  if (!c->optional) assert_null(view.null_mask);
  if (id == GCOL_STRING) {
    gcol_host_strings *hs = NULL;
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(view, NULL, &hs));
    for (int64_t i = 0; i < n; ++i) {
      bool const v = c->valid == NULL || c->valid[rows[i]];
      assert_int_equal(hs->valid[i], v);
      int64_t const len = hs->offsets[i + 1] - hs->offsets[i];
      if (!v) {
        assert_int_equal(len, 0);
        continue;
      }
      const char *want = c->strings[rows[i]];
      if (len != (int64_t)strlen(want) || memcmp(hs->chars + hs->offsets[i], want, (size_t)len)) {
        fail_msg("column %s row %lld: string differs", c->name, (long long)i);
      }
    }
    gcol_host_strings_free(hs);
    return;
  }
  size_t const width = gcol_type_size(id);
  uint8_t *values = (uint8_t *)malloc((size_t)(n > 0 ? n : 1) * width);
  uint8_t *valid = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
  GCOL_TEST_OK(gcol_column_copy_to_host(view, values, valid, NULL));
  for (int64_t i = 0; i < n; ++i) {
    int64_t const r = rows[i];
    bool const v = c->valid == NULL || c->valid[r];
    if (valid[i] != v) fail_msg("column %s row %lld: valid %d", c->name, (long long)i, valid[i]);
    if (!v) continue;
    const uint8_t *p = values + (size_t)i * width;
    bool same = false;
    if (c->physical == GCOL_PARQUET_FLOAT) {
      float f;
      memcpy(&f, p, 4);
      same = f == (float)c->reals[r];
    } else if (c->physical == GCOL_PARQUET_DOUBLE) {
      double d;
      memcpy(&d, p, 8);
      same = d == c->reals[r];
    } else {
      int64_t x = 0;
      switch (width) {
        case 1: {
          int8_t y;
          memcpy(&y, p, 1);
          x = id == GCOL_BOOL8 ? (uint8_t)y : y;
          break;
        }
        case 2: {
          int16_t y;
          memcpy(&y, p, 2);
          x = y;
          break;
        }
        case 4: {
          int32_t y;
          memcpy(&y, p, 4);
          x = y;
          break;
        }
        default:
          memcpy(&x, p, 8);
          break;
      }
      same = x == c->ints[r];
      if (width == 16) { /* DECIMAL128: the high word is the sign */
        int64_t high = 0;
        memcpy(&high, p + 8, 8);
        same = same && high == (c->ints[r] < 0 ? -1 : 0);
      }
    }
    if (!same) fail_msg("column %s row %lld: value differs", c->name, (long long)i);
  }
  free(values);
  free(valid);
}

static const gcol_type_id expected_ids[NUM_COLS] = {GCOL_INT32,
                                                    GCOL_INT32,
                                                    GCOL_INT64,
                                                    GCOL_FLOAT64,
                                                    GCOL_FLOAT32,
                                                    GCOL_BOOL8,
                                                    GCOL_STRING,
                                                    GCOL_TIMESTAMP_DAYS,
                                                    GCOL_TIMESTAMP_MICROSECONDS,
                                                    GCOL_INT8,
                                                    GCOL_TIMESTAMP_MILLISECONDS,
                                                    GCOL_DECIMAL64,
                                                    GCOL_DECIMAL128,
                                                    GCOL_TIMESTAMP_NANOSECONDS};

/* Rows of the chosen row groups, in order. */
static int64_t rows_of(const int32_t *groups, int32_t num_groups, int64_t per_group,
                       int64_t *rows) {
  int64_t n = 0;
  for (int32_t g = 0; g < num_groups; ++g) {
    int64_t const r0 = groups[g] * per_group;
    int64_t const r1 = r0 + per_group < ROWS ? r0 + per_group : ROWS;
    for (int64_t r = r0; r < r1; ++r) rows[n++] = r;
  }
  return n;
}

static void test_read_every_type(void **state) {
  (void)state;
  make_data(11);
  int64_t const per_groups[] = {250, 1000};
  static int64_t rows[ROWS];
  for (int variant = 0; variant < 10; ++variant) {
    for (int gi = 0; gi < 2; ++gi) {
      pqb_column cols[NUM_COLS];
      int64_t size = 0;
      uint8_t *file = build(variant, per_groups[gi], &size, cols);
      gcol_table *t = NULL;
      GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL));
      gcol_table_view const v = gcol_table_get_view(t);
      assert_int_equal(v.num_columns, NUM_COLS);
      int32_t all[4] = {0, 1, 2, 3};
      int64_t const n = rows_of(all, (int32_t)((ROWS + per_groups[gi] - 1) / per_groups[gi]),
                                per_groups[gi], rows);
      for (int k = 0; k < NUM_COLS; ++k) {
        check_column(v.columns[k], &cols[k], expected_ids[k], rows, n);
        gcol_test_assert_null_count_consistent(v.columns[k]);
        if (cols[k].optional) assert_non_null(v.columns[k].null_mask);
      }
      assert_int_equal(v.columns[11].type.scale, -2);
      gcol_table_free(t);
      free(file);
    }
  }
}

/* DELTA_BYTE_ARRAY strings (transcoded to PLAIN on the host while planning) with shared
 * prefixes, empty and long values and nulls, pages v1 and v2, several pages and row groups,
 * uncompressed (borrowed chunk) and ZSTD; and a corrupt page refused with the page named. */
static void test_read_delta_byte_array(void **state) {
  (void)state;
  enum { N = 3000 };
  static char store[N][64];
  static const char *strings[N];
  static uint8_t valid[N];
  static int64_t rows[N];
  for (int i = 0; i < N; ++i) {
    int const kind = (i / 40) % 3;
    if (kind == 0) snprintf(store[i], 64, "shared/prefix/%d/%d", i / 7, i);
    if (kind == 1) snprintf(store[i], 64, "%s", i % 2 ? "" : "same");
    if (kind == 2) memset(store[i], 'a' + i % 26, (size_t)(i % 63));
    strings[i] = store[i];
    valid[i] = i % 13 != 4;
    rows[i] = i;
  }
  for (int v2 = 0; v2 < 2; ++v2) {
    for (int zstd = 0; zstd < 2; ++zstd) {
      if (zstd && !gcol_detail_pq_codec_available(GCOL_PARQUET_ZSTD)) continue;
      pqb_column c = col_base("s", GCOL_PARQUET_BYTE_ARRAY);
      c.strings = strings;
      c.logical = GCOL_PARQUET_LOGICAL_STRING;
      c.optional = true;
      c.valid = valid;
      c.delta_byte_array = true;
      c.page_version = v2 ? 2 : 1;
      c.rows_per_page = 450;
      c.codec = zstd ? GCOL_PARQUET_ZSTD : 0;
      pqb_file f = pqb_one_column(&c, N);
      f.rows_per_group = 1000;
      int64_t size = 0;
      uint8_t *file = pqb_build(&f, &size);
      assert_non_null(file);
      gcol_table *t = NULL;
      GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL));
      gcol_table_view const v = gcol_table_get_view(t);
      check_column(v.columns[0], &c, GCOL_STRING, rows, N);
      gcol_table_free(t);
      free(file);
    }
  }
  pqb_column c = col_base("s", GCOL_PARQUET_BYTE_ARRAY);
  c.strings = strings;
  c.delta_byte_array = true;
  c.rows_per_page = 450;
  c.lie_delta_byte_array = PQB_DBA_PREFIX_TOO_LONG;
  pqb_file f = pqb_one_column(&c, N);
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  gcol_table *t = NULL;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "column 's', page 0: DELTA_BYTE_ARRAY"));
  free(file);
}

/* Column `view` must hold rows[0..n) of FLBA column `c` (make_flba_columns) as type `id`:
 * each row's type_length bytes (STRING) or the float32 bits of its half (FLOAT32), and its
 * nulls. Bits, not floats, are compared: the NaNs must keep theirs. */
static void check_flba_column(gcol_column_view view, const pqb_column *c, gcol_type_id id,
                              const int64_t *rows, int64_t n) {
  int64_t const width = c->type_length;
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) nulls += c->valid != NULL && !c->valid[rows[i]];
  assert_int_equal(view.type.id, id);
  assert_int_equal(view.size, n);
  if (c->optional && view.null_mask != NULL) {
    assert_int_equal(view.null_count, nulls);
  } else {
    assert_int_equal(nulls, 0);
  }
  uint8_t *valid = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
  uint32_t *bits = (uint32_t *)malloc((size_t)(n > 0 ? n : 1) * 4);
  gcol_host_strings *hs = NULL;
  if (id == GCOL_STRING) {
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(view, NULL, &hs));
    memcpy(valid, hs->valid, (size_t)n);
  } else {
    GCOL_TEST_OK(gcol_column_copy_to_host(view, bits, valid, NULL));
  }
  for (int64_t i = 0; i < n; ++i) {
    bool const v = c->valid == NULL || c->valid[rows[i]];
    if (valid[i] != v) fail_msg("column %s row %lld: valid %d", c->name, (long long)i, valid[i]);
    const uint8_t *want = c->fixed + rows[i] * width;
    if (id == GCOL_STRING) {
      int64_t const len = hs->offsets[i + 1] - hs->offsets[i];
      assert_int_equal(len, v ? width : 0);
      if (v && memcmp(hs->chars + hs->offsets[i], want, (size_t)width) != 0) {
        fail_msg("column %s row %lld: bytes differ", c->name, (long long)i);
      }
    } else if (v && bits[i] != half_reference((uint16_t)(want[0] | want[1] << 8))) {
      fail_msg("column %s row %lld: %08x for half %02x%02x", c->name, (long long)i, bits[i],
               want[1], want[0]);
    }
  }
  gcol_host_strings_free(hs);
  free(valid);
  free(bits);
}

/* Reads a file of make_flba_columns with `opt` and checks every column it returns (the
 * columns `picked` of the file's, rows[0, n) of the data). */
static void read_flba(const uint8_t *file, int64_t size, const gcol_parquet_read_options *opt,
                      const pqb_column *cols, const int32_t *picked, int32_t num_picked,
                      const int64_t *rows, int64_t n) {
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, opt, &t, NULL, NULL));
  gcol_table_view const v = gcol_table_get_view(t);
  assert_int_equal(v.num_columns, num_picked);
  for (int32_t i = 0; i < num_picked; ++i) {
    int32_t const k = picked[i];
    check_flba_column(v.columns[i], &cols[k], flba_type_id(k), rows, n);
    gcol_test_assert_null_count_consistent(v.columns[i]);
  }
  gcol_table_free(t);
}

/* Expects reading column 0 of a one-column file to fail with `expected`, `needle` in the
 * message, and no table. */
static void expect_read_error(const pqb_column *c, gcol_status expected, const char *needle) {
  pqb_file f = pqb_one_column(c, ROWS / 2);
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  assert_non_null(file);
  gcol_table *t = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL), expected);
  assert_null(t);
  if (strstr(gcol_last_error(), needle) == NULL) {
    fail_msg("'%s' not in: %s", needle, gcol_last_error());
  }
  free(file);
}

/* FIXED_LEN_BYTE_ARRAY binary (16 and 3 bytes) and UUIDs read as STRING, FLOAT16 as FLOAT32
 * (zeros, subnormals, infinities, NaNs), with nulls: PLAIN, dictionary, DELTA_BYTE_ARRAY and
 * BYTE_STREAM_SPLIT pages, v1 and v2, one or several row groups, uncompressed and compressed
 * (host path, and nvCOMP when it is found), projected, chosen row groups and a row range; pages
 * too short for their values and lengths the format forbids refused with the column named. */
static void test_read_flba(void **state) {
  (void)state;
  make_flba_data(43);
  static int64_t rows[ROWS];
  int32_t const all[FLBA_COLS] = {0, 1, 2, 3};
  int32_t const codecs[] = {0, GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD};
  for (int variant = 0; variant < FLBA_VARIANTS; ++variant) {
    for (int ci = 0; ci < 3; ++ci) {
      if (codecs[ci] != 0 && !gcol_detail_pq_codec_available(codecs[ci])) continue;
      for (int64_t per_group = 250; per_group <= ROWS; per_group *= 4) {
        pqb_column cols[FLBA_COLS];
        int64_t size = 0;
        uint8_t *file = build_flba(variant, codecs[ci], per_group, &size, cols);
        int32_t const groups[] = {0, 1, 2, 3};
        int64_t const n = rows_of(groups, (int32_t)(ROWS / per_group), per_group, rows);
        gcol_parquet_read_options opt;
        gcol_parquet_read_options_init(&opt);
        for (int untrusted = 0; untrusted < 2; ++untrusted) { /* nvCOMP, when found, or not */
          opt.untrusted = untrusted != 0;
          read_flba(file, size, &opt, cols, all, FLBA_COLS, rows, n);
        }
        /* by name, two of them, in another order; then row groups 3 and 1 */
        gcol_parquet_read_options_init(&opt);
        const char *const names[] = {"half", "uuid"};
        int32_t const picked[] = {3, 1};
        opt.column_names = names;
        opt.num_column_names = 2;
        read_flba(file, size, &opt, cols, picked, 2, rows, n);
        if (per_group == 250) {
          int32_t const some[] = {3, 1};
          opt.row_groups = some;
          opt.num_row_groups = 2;
          int64_t const m = rows_of(some, 2, per_group, rows);
          read_flba(file, size, &opt, cols, picked, 2, rows, m);
        }
        /* a row range across pages and groups */
        gcol_parquet_read_options_init(&opt);
        opt.skip_rows = 123;
        opt.num_rows = 456;
        for (int64_t i = 0; i < 456; ++i) rows[i] = 123 + i;
        read_flba(file, size, &opt, cols, all, FLBA_COLS, rows, 456);
        free(file);
      }
    }
  }
  /* the schema says 17 bytes, the page holds values of 16: found by the page pass (PLAIN,
   * dictionary) or while planning (split); one page, so that the page named is certain */
  pqb_column c = col_base("x", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c.type_length = 16;
  c.fixed = pq_flba.uuid;
  c.optional = true;
  c.valid = pq_flba.valid;
  c.lie_type_length = 17;
  expect_read_error(&c, GCOL_ERROR_INVALID_ARGUMENT,
                    "column 'x', page 0: the values end before the page's non-null rows");
  c.dictionary = true;
  expect_read_error(&c, GCOL_ERROR_INVALID_ARGUMENT,
                    "column 'x', page 0: the dictionary page holds fewer values");
  c.dictionary = false;
  c.split = true;
  expect_read_error(&c, GCOL_ERROR_INVALID_ARGUMENT, "column 'x', page 0: BYTE_STREAM_SPLIT");
  c.split = false;
  c.lie_type_length = 0;
  c.type_length = 0;
  expect_read_error(&c, GCOL_ERROR_INVALID_ARGUMENT,
                    "column 'x': FIXED_LEN_BYTE_ARRAY of type length 0");
  c.type_length = 4;
  c.logical = GCOL_PARQUET_LOGICAL_FLOAT16;
  expect_read_error(&c, GCOL_ERROR_INVALID_ARGUMENT, "column 'x': FLOAT16 of type length 4");
  c.type_length = 12;
  c.logical = GCOL_PARQUET_LOGICAL_NONE;
  c.converted_type = GCOL_DETAIL_PQ_CT_INTERVAL;
  expect_read_error(&c, GCOL_ERROR_UNSUPPORTED, "column 'x': INTERVAL");
}

/* Pages compressed by each codec whose library is here (decompressed on the host, decoded
 * on the GPU): the same columns. */
static void test_read_compressed(void **state) {
  (void)state;
  make_data(12);
  static int64_t rows[ROWS];
  int32_t const codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD, GCOL_PARQUET_GZIP,
                            GCOL_PARQUET_LZ4_RAW};
  for (int ci = 0; ci < 4; ++ci) {
    if (!gcol_detail_pq_codec_available(codecs[ci])) {
      print_message("# SKIP codec %s: %s not found\n", gcol_detail_pq_codec_name(codecs[ci]),
                    gcol_detail_pq_codec_library(codecs[ci]));
      continue;
    }
    for (int variant = 0; variant < 10; ++variant) {
      pqb_column cols[NUM_COLS];
      make_columns(cols, variant);
      for (int k = 0; k < NUM_COLS; ++k) cols[k].codec = codecs[ci];
      pqb_file f;
      memset(&f, 0, sizeof f);
      f.num_columns = NUM_COLS;
      f.columns = cols;
      f.num_rows = ROWS;
      f.rows_per_group = 250;
      int64_t size = 0;
      uint8_t *file = pqb_build(&f, &size);
      assert_non_null(file);
      gcol_table *t = NULL;
      GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL));
      gcol_table_view const v = gcol_table_get_view(t);
      assert_int_equal(v.num_columns, NUM_COLS);
      int32_t all[4] = {0, 1, 2, 3};
      int64_t const n = rows_of(all, 4, 250, rows);
      for (int k = 0; k < NUM_COLS; ++k) {
        check_column(v.columns[k], &cols[k], expected_ids[k], rows, n);
      }
      gcol_table_free(t);
      free(file);
    }
  }
}

/* ---- nvCOMP (pages decompressed on the GPU) ---- */

/* Whether nvCOMP was found (GCOL_NVCOMP_PATH, or libnvcomp.so.6/.5 on the loader's path);
 * says why not and skips, or fails when GCOL_TEST_REQUIRE_NVCOMP=1. */
static bool nvcomp_here(int32_t codec) {
  const gcol_detail_nvcomp *lib = gcol_detail_nvcomp_get();
  const char *need = getenv("GCOL_TEST_REQUIRE_NVCOMP");
  bool const required = need != NULL && strcmp(need, "1") == 0;
  if ((lib->codecs >> codec & 1u) != 0) return true;
  if (required) fail_msg("nvCOMP for %s required: %s", gcol_detail_pq_codec_name(codec), lib->why);
  print_message("# SKIP nvCOMP %s: %s\n", gcol_detail_pq_codec_name(codec),
                lib->codecs == 0 ? lib->why : "no batched decompressor for it");
  return false;
}

/* The file of make_columns(variant) with every page compressed by `codec`. */
static uint8_t *build_codec(int variant, int32_t codec, int64_t rows_per_group, int64_t *size,
                            pqb_column *cols) {
  make_columns(cols, variant);
  for (int k = 0; k < NUM_COLS; ++k) cols[k].codec = codec;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = NUM_COLS;
  f.columns = cols;
  f.num_rows = ROWS;
  f.rows_per_group = rows_per_group;
  uint8_t *file = pqb_build(&f, size);
  assert_non_null(file);
  return file;
}

/* Reads a buffer (with `options`) and checks every column against the data written; returns
 * the pages nvCOMP was given for it. */
static int64_t read_and_check(const void *file, int64_t size, const pqb_column *cols,
                              int64_t rows_per_group, const gcol_parquet_read_options *options) {
  static int64_t rows[ROWS];
  int32_t const all[] = {0, 1, 2, 3};
  int32_t const groups = (int32_t)((ROWS + rows_per_group - 1) / rows_per_group);
  int64_t const n = rows_of(all, groups, rows_per_group, rows);
  int64_t const before = gcol_detail_parquet_nvcomp_pages();
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, options, &t, NULL, NULL));
  int64_t const pages = gcol_detail_parquet_nvcomp_pages() - before;
  gcol_table_view const v = gcol_table_get_view(t);
  assert_int_equal(v.num_columns, NUM_COLS);
  for (int k = 0; k < NUM_COLS; ++k) {
    check_column(v.columns[k], &cols[k], expected_ids[k], rows, n);
    gcol_test_assert_null_count_consistent(v.columns[k]);
  }
  gcol_table_free(t);
  return pages;
}

/* Every codec both ways: nvCOMP on the GPU (the default when it is found) and the host
 * libraries (options.untrusted), each checked against the data written; data pages v1 and
 * v2, nulls, dictionaries, 1 and 4 row groups; a page-locked buffer and a file (chunks copied
 * on the host, not borrowed). */
static void test_read_compressed_nvcomp(void **state) {
  (void)state;
  make_data(21);
  int32_t const codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD, GCOL_PARQUET_GZIP,
                            GCOL_PARQUET_LZ4_RAW};
  gcol_parquet_read_options untrusted;
  gcol_parquet_read_options_init(&untrusted);
  untrusted.untrusted = true;
  for (int ci = 0; ci < 4; ++ci) {
    int32_t const codec = codecs[ci];
    if (!gcol_detail_pq_codec_available(codec)) { /* the files are written with it */
      print_message("# SKIP codec %s: %s not found\n", gcol_detail_pq_codec_name(codec),
                    gcol_detail_pq_codec_library(codec));
      continue;
    }
    if (!nvcomp_here(codec)) continue;
    for (int variant = 0; variant < 10; ++variant) {
      int64_t const per_groups[] = {250, 1000};
      for (int gi = 0; gi < 2; ++gi) {
        pqb_column cols[NUM_COLS];
        int64_t size = 0;
        uint8_t *file = build_codec(variant, codec, per_groups[gi], &size, cols);
        assert_true(read_and_check(file, size, cols, per_groups[gi], NULL) > 0);
        assert_int_equal(read_and_check(file, size, cols, per_groups[gi], &untrusted), 0);
        if (variant == 0 && gi == 0) {
          void *pinned = NULL;
          assert_int_equal(cudaHostAlloc(&pinned, (size_t)size, cudaHostAllocDefault), cudaSuccess);
          memcpy(pinned, file, (size_t)size);
          assert_true(read_and_check(pinned, size, cols, 250, NULL) > 0);
          assert_int_equal(cudaFreeHost(pinned), cudaSuccess);
          char path[] = "/tmp/gcol_parquet_nvcomp_XXXXXX";
          int fd = mkstemp(path);
          assert_true(fd >= 0);
          assert_int_equal(write(fd, file, (size_t)size), size);
          close(fd);
          static int64_t rows[ROWS];
          int32_t const all[] = {0, 1, 2, 3};
          int64_t const n = rows_of(all, 4, 250, rows);
          int64_t const before = gcol_detail_parquet_nvcomp_pages();
          gcol_table *t = NULL;
          GCOL_TEST_OK(gcol_parquet_read_file(path, NULL, &t, NULL, NULL));
          assert_true(gcol_detail_parquet_nvcomp_pages() > before);
          gcol_table_view const v = gcol_table_get_view(t);
          for (int k = 0; k < NUM_COLS; ++k) {
            check_column(v.columns[k], &cols[k], expected_ids[k], rows, n);
          }
          gcol_table_free(t);
          unlink(path);
        }
        free(file);
      }
    }
    /* v2 pages whose values are not compressed, and optional columns of nulls only */
    static uint8_t none[ROWS];
    for (int variant = 0; variant < 2; ++variant) {
      pqb_column cols[NUM_COLS];
      make_columns(cols, 1);
      for (int k = 0; k < NUM_COLS; ++k) {
        cols[k].codec = codec;
        cols[k].v2_uncompressed = variant == 0;
        if (variant == 1 && cols[k].optional) cols[k].valid = none;
      }
      pqb_file f;
      memset(&f, 0, sizeof f);
      f.num_columns = NUM_COLS;
      f.columns = cols;
      f.num_rows = ROWS;
      f.rows_per_group = 250;
      int64_t size = 0;
      uint8_t *file = pqb_build(&f, &size);
      assert_non_null(file);
      read_and_check(file, size, cols, 250, NULL);
      read_and_check(file, size, cols, 250, &untrusted);
      free(file);
    }
  }
}

static int64_t page_body(const uint8_t *file, int64_t size, int p, gcol_detail_pq_page_header *h);

/* Pages whose header announces another size than their (valid) compressed data holds: GZIP
 * pages go to nvCOMP, the check on the device reports the first such page of the column;
 * SNAPPY and LZ4_RAW pages are walked on the GPU before nvCOMP and refused there, nvCOMP
 * never called; the host path (options.untrusted) refuses the same file. Smaller outputs
 * than the data are given to nvCOMP for GZIP only, whose documentation says an overflow sets
 * the page's status. Garbage pages: test_garbage_pages_before_nvcomp. */
static void test_corrupt_pages_nvcomp(void **state) {
  (void)state;
  make_data(22);
  int32_t const codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_GZIP, GCOL_PARQUET_LZ4_RAW};
  gcol_parquet_read_options untrusted;
  gcol_parquet_read_options_init(&untrusted);
  untrusted.untrusted = true;
  for (int ci = 0; ci < 3; ++ci) {
    int32_t const codec = codecs[ci];
    if (!gcol_detail_pq_codec_available(codec) || !nvcomp_here(codec)) continue;
    int32_t const lies[] = {8, -8};
    for (int li = 0; li < 2; ++li) {
      for (int version = 1; version <= 2; ++version) {
        pqb_column c = col_base("x", GCOL_PARQUET_INT64);
        c.ints = pq_data.big;
        c.optional = true;
        c.valid = pq_data.valid;
        c.rows_per_page = 100;
        c.codec = codec;
        c.page_version = version;
        c.lie_uncompressed_size = lies[li];
        pqb_file f;
        memset(&f, 0, sizeof f);
        f.num_columns = 1;
        f.columns = &c;
        f.num_rows = ROWS;
        int64_t size = 0;
        uint8_t *file = pqb_build(&f, &size);
        assert_non_null(file);
        gcol_table *t = NULL;
        int64_t const before = gcol_detail_parquet_nvcomp_pages();
        GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                         GCOL_ERROR_INVALID_ARGUMENT);
        assert_null(t);
        const char *e = gcol_last_error();
        if (codec == GCOL_PARQUET_GZIP) {
          assert_true(gcol_detail_parquet_nvcomp_pages() > before);
        } else { /* walked before nvCOMP: refused before it runs */
          assert_int_equal(gcol_detail_parquet_nvcomp_pages(), before);
          assert_non_null(strstr(e, "refused before nvCOMP"));
        }
        assert_non_null(strstr(e, "column 'x', page "));
        if (strstr(e, "another size") == NULL && strstr(e, "nvCOMP could not") == NULL &&
            strstr(e, "refused before nvCOMP") == NULL) {
          fail_msg("%s, lie %d, v%d: %s", gcol_detail_pq_codec_name(codec), lies[li], version, e);
        }
        if (lies[li] > 0) assert_non_null(strstr(e, "another size"));
        GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &untrusted, &t, NULL, NULL),
                         GCOL_ERROR_INVALID_ARGUMENT);
        assert_null(t);
        assert_non_null(strstr(gcol_last_error(), "column 'x', page 0"));
        free(file);
      }
    }
  }
}

/* A page of garbage (page 2's compressed bytes overwritten with 0xff), LZ4_RAW and SNAPPY:
 * refused with the page named, on the default path (walked on the GPU before nvCOMP when it
 * is found, so nvCOMP never gets it: clean under compute-sanitizer memcheck, the context
 * usable after) and on the host path (options.untrusted); then a valid read on the same
 * context. Runs with and without nvCOMP. */
static void test_garbage_pages_before_nvcomp(void **state) {
  (void)state;
  make_data(23);
  gcol_parquet_read_options untrusted;
  gcol_parquet_read_options_init(&untrusted);
  untrusted.untrusted = true;
  int32_t const codecs[] = {GCOL_PARQUET_LZ4_RAW, GCOL_PARQUET_SNAPPY};
  for (int ci = 0; ci < 2; ++ci) {
    int32_t const codec = codecs[ci];
    if (!gcol_detail_pq_codec_available(codec)) continue; /* the file is written with it */
    bool const gpu = (gcol_detail_nvcomp_get()->codecs >> codec & 1u) != 0;
    pqb_column c = col_base("x", GCOL_PARQUET_INT64);
    c.ints = pq_data.big;
    c.rows_per_page = 100;
    c.codec = codec;
    pqb_file f = pqb_one_column(&c, ROWS);
    int64_t size = 0;
    uint8_t *file = pqb_build(&f, &size);
    assert_non_null(file);
    gcol_detail_pq_page_header h;
    int64_t const body = page_body(file, size, 2, &h);
    memset(file + body, 0xff, (size_t)h.compressed_size);
    gcol_table *t = NULL;
    int64_t const before = gcol_detail_parquet_nvcomp_pages();
    GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(t);
    assert_non_null(strstr(gcol_last_error(), "column 'x', page 2: "));
    if (gpu) assert_non_null(strstr(gcol_last_error(), "refused before nvCOMP"));
    assert_int_equal(gcol_detail_parquet_nvcomp_pages(), before);
    GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &untrusted, &t, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(t);
    assert_non_null(strstr(gcol_last_error(), "column 'x', page 2: "));
    free(file);
    file = pqb_build(&f, &size); /* the same file intact: read, the context still usable */
    GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL));
    static int64_t rows[ROWS];
    for (int64_t i = 0; i < ROWS; ++i) rows[i] = i;
    check_column(gcol_table_get_view(t).columns[0], &c, GCOL_INT64, rows, ROWS);
    gcol_table_free(t);
    free(file);
  }
}

static void test_projection_and_row_groups(void **state) {
  (void)state;
  make_data(12);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build(3, 250, &size, cols);
  static int64_t rows[ROWS];

  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  int32_t const idx[] = {6, 0, 6};
  opt.columns = idx;
  opt.num_columns = 3;
  int32_t const groups[] = {3, 1};
  opt.row_groups = groups;
  opt.num_row_groups = 2;
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL));
  gcol_table_view v = gcol_table_get_view(t);
  int64_t n = rows_of(groups, 2, 250, rows);
  assert_int_equal(v.num_columns, 3);
  check_column(v.columns[0], &cols[6], GCOL_STRING, rows, n);
  check_column(v.columns[1], &cols[0], GCOL_INT32, rows, n);
  check_column(v.columns[2], &cols[6], GCOL_STRING, rows, n);
  gcol_table_free(t);

  gcol_parquet_read_options_init(&opt);
  const char *const names[] = {"flag", "f64", "ts_us"};
  opt.column_names = names;
  opt.num_column_names = 3;
  t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL));
  v = gcol_table_get_view(t);
  int32_t const all[] = {0, 1, 2, 3};
  n = rows_of(all, 4, 250, rows);
  check_column(v.columns[0], &cols[5], GCOL_BOOL8, rows, n);
  check_column(v.columns[1], &cols[3], GCOL_FLOAT64, rows, n);
  check_column(v.columns[2], &cols[8], GCOL_TIMESTAMP_MICROSECONDS, rows, n);
  gcol_table_free(t);

  /* row ranges: across row groups, to the end, past the end, within chosen row groups */
  {
    int64_t const ranges[][2] = {{300, 100}, {990, 0}, {0, 1}, {249, 2}, {5000, 7}, {0, 0}};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; ++r) {
      for (int chosen = 0; chosen < 2; ++chosen) {
        gcol_parquet_read_options_init(&opt);
        opt.skip_rows = ranges[r][0];
        opt.num_rows = ranges[r][1];
        int32_t const some[] = {2, 0, 3};
        if (chosen) {
          opt.row_groups = some;
          opt.num_row_groups = 3;
        }
        int32_t const every[] = {0, 1, 2, 3};
        int64_t const all_rows = rows_of(chosen ? some : every, chosen ? 3 : 4, 250, rows);
        int64_t const begin = opt.skip_rows < all_rows ? opt.skip_rows : all_rows;
        int64_t const end =
            opt.num_rows > 0 && opt.num_rows < all_rows - begin ? begin + opt.num_rows : all_rows;
        t = NULL;
        GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL));
        v = gcol_table_get_view(t);
        for (int k = 0; k < NUM_COLS; ++k) {
          check_column(v.columns[k], &cols[k], expected_ids[k], rows + begin, end - begin);
        }
        gcol_table_free(t);
      }
    }
    gcol_parquet_read_options_init(&opt);
    opt.skip_rows = -1;
    t = NULL;
    GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(t);
  }

  /* no row group: every column empty */
  int32_t const none[] = {0};
  gcol_parquet_read_options_init(&opt);
  opt.row_groups = none;
  opt.num_row_groups = 0;
  t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL));
  v = gcol_table_get_view(t);
  assert_int_equal(v.num_columns, NUM_COLS);
  for (int k = 0; k < NUM_COLS; ++k) assert_int_equal(v.columns[k].size, 0);
  gcol_table_free(t);

  /* bad options: the status, a message, no table */
  gcol_parquet_read_options_init(&opt);
  const char *const unknown[] = {"nope"};
  opt.column_names = unknown;
  opt.num_column_names = 1;
  t = NULL;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "nope"));
  assert_non_null(strstr(gcol_last_error(), "gcol_parquet_read_buffer"));
  gcol_parquet_read_options_init(&opt);
  int32_t const far[] = {4};
  opt.row_groups = far;
  opt.num_row_groups = 1;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_parquet_read_options_init(&opt);
  int32_t const neg[] = {-1};
  opt.columns = neg;
  opt.num_columns = 1;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(NULL, size, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  free(file);
}

static int read_cb(void *user, int64_t offset, int64_t length, void *dst) {
  memcpy(dst, (const uint8_t *)user + offset, (size_t)length);
  return 0;
}

static int failing_cb(void *user, int64_t offset, int64_t length, void *dst) {
  if (offset > 4 && length > 8) return 1; /* the magic and tail reads work, the footer fails */
  memcpy(dst, (const uint8_t *)user + offset, (size_t)length);
  return 0;
}

static void test_read_file_and_source(void **state) {
  (void)state;
  make_data(13);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build(1, 400, &size, cols);
  static int64_t rows[ROWS];
  int32_t const all[] = {0, 1, 2};
  int64_t const n = rows_of(all, 3, 400, rows);

  char path[] = "/tmp/gcol_parquet_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, file, (size_t)size), size);
  close(fd);
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_file(path, NULL, &t, NULL, NULL));
  gcol_table_view v = gcol_table_get_view(t);
  for (int k = 0; k < NUM_COLS; ++k) check_column(v.columns[k], &cols[k], expected_ids[k], rows, n);
  gcol_table_free(t);
  unlink(path);
  t = NULL;
  GCOL_TEST_STATUS(gcol_parquet_read_file(path, NULL, &t, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);

  gcol_parquet_source src = {size, read_cb, file, "my storage"};
  GCOL_TEST_OK(gcol_parquet_read_source(&src, NULL, &t, NULL, NULL));
  v = gcol_table_get_view(t);
  for (int k = 0; k < NUM_COLS; ++k) check_column(v.columns[k], &cols[k], expected_ids[k], rows, n);
  gcol_table_free(t);

  src.read = failing_cb;
  t = NULL;
  GCOL_TEST_STATUS(gcol_parquet_read_source(&src, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "my storage"));
  free(file);
}

static void test_empty_and_all_null(void **state) {
  (void)state;
  make_data(14);
  static uint8_t none[ROWS];
  memset(none, 0, sizeof none);
  pqb_column c[3];
  c[0] = col_base("nothing", GCOL_PARQUET_INT64);
  c[0].ints = pq_data.big;
  c[0].optional = true;
  c[0].valid = none;
  c[0].dictionary = true;
  c[1] = col_base("no_strings", GCOL_PARQUET_BYTE_ARRAY);
  c[1].strings = pq_data.strings;
  c[1].optional = true;
  c[1].valid = none;
  c[1].page_version = 2;
  c[2] = col_base("empty_strings", GCOL_PARQUET_BYTE_ARRAY);
  static const char *empties[ROWS];
  for (int i = 0; i < ROWS; ++i) empties[i] = "";
  c[2].strings = empties;
  c[2].dictionary = true;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 3;
  f.columns = c;
  f.num_rows = ROWS;
  f.rows_per_group = 300;
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL));
  gcol_table_view v = gcol_table_get_view(t);
  static int64_t rows[ROWS];
  for (int64_t i = 0; i < ROWS; ++i) rows[i] = i;
  check_column(v.columns[0], &c[0], GCOL_INT64, rows, ROWS);
  check_column(v.columns[1], &c[1], GCOL_STRING, rows, ROWS);
  check_column(v.columns[2], &c[2], GCOL_STRING, rows, ROWS);
  assert_int_equal(v.columns[0].null_count, ROWS);
  gcol_table_free(t);
  free(file);

  /* a file of no rows */
  f.num_rows = 0;
  file = pqb_build(&f, &size);
  t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL));
  v = gcol_table_get_view(t);
  assert_int_equal(v.num_columns, 3);
  assert_int_equal(v.columns[1].size, 0);
  assert_int_equal(v.columns[1].type.id, GCOL_STRING);
  gcol_table_free(t);
  free(file);
}

/* The byte offset of page `p`'s body (after its header) in the first chunk. */
static int64_t page_body(const uint8_t *file, int64_t size, int p, gcol_detail_pq_page_header *h) {
  int64_t pos = 4;
  for (int k = 0;; ++k) {
    int64_t hs = 0;
    char err[128];
    assert_true(gcol_detail_parquet_parse_page_header(file + pos, size - pos, h, &hs, err, 128));
    if (k == p) return pos + hs;
    pos += hs + h->compressed_size;
  }
}

static void test_corrupt_pages_on_the_gpu(void **state) {
  (void)state;
  make_data(15);
  pqb_column c = col_base("x", GCOL_PARQUET_INT64);
  c.ints = pq_data.big;
  c.optional = true;
  c.valid = pq_data.valid;
  c.rows_per_page = 100;
  pqb_file f = pqb_one_column(&c, ROWS);
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  gcol_detail_pq_page_header h;
  int64_t const body = page_body(file, size, 2, &h);
  /* page 2's definition levels claim 1 byte: the planner accepts it (it fits), the levels
   * kernel runs out of levels */
  file[body] = 1;
  file[body + 1] = file[body + 2] = file[body + 3] = 0;
  gcol_table *t = NULL;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "page 2"));
  assert_non_null(strstr(gcol_last_error(), "definition levels"));
  free(file);

  /* a dictionary index past the dictionary: the bit width byte raised to 8 with 1-byte RLE
   * values makes indices of up to 255 from a dictionary of few entries */
  c.dictionary = true;
  c.ints = pq_data.small; /* 46 distinct values: 6-bit indices */
  file = pqb_build(&f, &size);
  int64_t const data_body = page_body(file, size, 1, &h); /* page 0 is the dictionary */
  int64_t const values =
      data_body + 4 + (int64_t)((uint32_t)file[data_body] | (uint32_t)file[data_body + 1] << 8);
  /* replace the indices by one RLE run of the value 200 (width 8) and its first value fails */
  file[values] = 8;
  file[values + 1] = (uint8_t)(50 << 1); /* one-byte header: 50 times... */
  file[values + 2] = 200;
  t = NULL;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "page 1"));
  assert_non_null(strstr(gcol_last_error(), "dictionary index"));
  free(file);

  /* a codec gcol does not read: unsupported, named */
  c.dictionary = false;
  c.lie_codec = GCOL_PARQUET_BROTLI;
  file = pqb_build(&f, &size);
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_non_null(strstr(gcol_last_error(), "BROTLI"));
  free(file);
}

/* A table made on the GPU, written by gcol, read back by gcol: the same columns. */
static void test_write_and_read_back(void **state) {
  (void)state;
  make_data(17);
  enum { K = 8 };
  gcol_type_id const ids[K] = {GCOL_INT16,          GCOL_UINT64,    GCOL_FLOAT64,
                               GCOL_BOOL8,          GCOL_DECIMAL32, GCOL_TIMESTAMP_MILLISECONDS,
                               GCOL_TIMESTAMP_DAYS, GCOL_STRING};
  static int16_t i16[ROWS];
  static uint8_t b8[ROWS];
  static int32_t i32[ROWS];
  static const char *strs[ROWS];
  for (int i = 0; i < ROWS; ++i) {
    i16[i] = (int16_t)pq_data.ints[i];
    b8[i] = (uint8_t)pq_data.bools[i];
    i32[i] = (int32_t)(pq_data.ints[i] % 1000000);
    strs[i] = pq_data.valid[i] ? pq_data.strings[i] : NULL;
  }
  const void *datas[K] = {i16, pq_data.big, pq_data.reals, b8, i32, pq_data.big, i32, NULL};
  gcol_column *cols[K];
  gcol_column_view views[K];
  for (int k = 0; k < K; ++k) {
    gcol_data_type const t = ids[k] == GCOL_DECIMAL32 ? gcol_data_type_decimal(GCOL_DECIMAL32, -4)
                                                      : gcol_data_type_make(ids[k]);
    if (ids[k] == GCOL_STRING) {
      GCOL_TEST_OK(gcol_column_create_strings_from_host(ROWS, strs, NULL, NULL, NULL, &cols[k]));
    } else {
      GCOL_TEST_OK(gcol_column_create_from_host(t, ROWS, datas[k], k % 2 ? pq_data.valid : NULL,
                                                NULL, NULL, &cols[k]));
    }
    views[k] = gcol_column_get_view(cols[k]);
  }
  gcol_table_view table;
  GCOL_TEST_OK(gcol_table_view_make(views, K, &table));
  const char *const names[K] = {"a", "b", "c", "d", "e", "f", "g", "h"};
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.column_names = names;
  opt.row_group_rows = 333;
  void *file = NULL;
  int64_t size = 0;
  GCOL_TEST_OK(gcol_parquet_write_buffer(table, &opt, &file, &size, NULL));
  gcol_table *back = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &back, NULL, NULL));
  gcol_table_view const bv = gcol_table_get_view(back);
  assert_int_equal(bv.num_columns, K);
  for (int k = 0; k < K; ++k) gcol_test_assert_columns_equal(bv.columns[k], views[k]);
  gcol_table_free(back);
  gcol_parquet_buffer_free(file);

  /* through a file, a slice */
  gcol_column_view sliced[K];
  gcol_table_view part;
  GCOL_TEST_OK(gcol_table_view_slice(table, 33, 777, sliced, &part));
  char path[] = "/tmp/gcol_parquet_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  GCOL_TEST_OK(gcol_parquet_write_file(part, NULL, path, NULL));
  back = NULL;
  GCOL_TEST_OK(gcol_parquet_read_file(path, NULL, &back, NULL, NULL));
  unlink(path);
  gcol_table_view const pv = gcol_table_get_view(back);
  for (int k = 0; k < K; ++k) gcol_test_assert_columns_equal(pv.columns[k], part.columns[k]);
  gcol_table_free(back);

  /* a type the writer does not take */
  gcol_column *dur = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_DURATION_SECONDS), ROWS,
                                            pq_data.big, NULL, NULL, NULL, &dur));
  gcol_column_view const dv = gcol_column_get_view(dur);
  gcol_table_view one;
  GCOL_TEST_OK(gcol_table_view_make(&dv, 1, &one));
  file = NULL;
  GCOL_TEST_STATUS(gcol_parquet_write_buffer(one, NULL, &file, &size, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(file);
  gcol_column_free(dur);
  for (int k = 0; k < K; ++k) gcol_column_free(cols[k]);
}

/* ---- the parallel page decoders: sizes that cross their blocks, batches and stages ---- */

enum { BIG = 150000 };

typedef struct big_data {
  int64_t ints[BIG];
  int64_t codes[BIG];
  int64_t bits[BIG];
  uint8_t valid[BIG];
  uint8_t valid2[BIG];
  const char *dict_strings[BIG];
  const char *plain_strings[BIG];
  char plain_store[BIG][44];
  char dict_store[300][24];
} big_data;

static uint64_t next_random(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Page 0 (rows [0, 70000)): RLE runs of 8..13 rows, then random bits (bit-packed runs);
 * page 1: all null; page 2 (the second row group): no null. Every row bound divided by
 * `div` (1, or 10 under the tools: test_parallel_big_pages). */
static void make_big(big_data *d, int64_t div) {
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int64_t run = 0;
  int run_len = 8;
  uint8_t v = 1;
  for (int k = 0; k < 300; ++k) {
    int const len = k == 7 ? 0 : 1 + k % 20; /* one empty dictionary string */
    for (int j = 0; j < len; ++j) d->dict_store[k][j] = (char)('a' + (k + j) % 26);
    d->dict_store[k][len] = 0;
  }
  for (int64_t i = 0; i < BIG; ++i) {
    uint64_t const r = next_random(&x);
    d->ints[i] = i * 7 - 3;
    /* RLE runs of 9 indices and of 10 booleans (thousands a page), then bit-packed ones */
    d->codes[i] = i < 60000 / div ? (i / 9) % 1000 : (int64_t)(r % 1000);
    d->bits[i] = i < 50000 / div ? (i / 10) % 2 : (int64_t)(r >> 40) & 1;
    if (i < 40000 / div) {
      if (run == run_len) {
        v ^= 1;
        run = 0;
        run_len = 8 + (int)(i % 6);
      }
      ++run;
      d->valid[i] = v;
    } else if (i < 70000 / div) {
      d->valid[i] = (r >> 20) & 1;
    } else {
      d->valid[i] = i >= 140000 / div;
    }
    d->valid2[i] = (r >> 30) % 10 != 0;
    d->dict_strings[i] = d->dict_store[(r >> 8) % 300];
    int const len = (int)((r >> 12) % 41); /* 0..40 bytes, some empty */
    for (int j = 0; j < len; ++j) d->plain_store[i][j] = (char)('A' + (i + j) % 50);
    d->plain_store[i][len] = 0;
    d->plain_strings[i] = d->plain_store[i];
  }
}

static void check_all(gcol_table_view v, const pqb_column *c, int ncols, const int64_t *rows,
                      int64_t n) {
  static const gcol_type_id ids[] = {GCOL_INT64, GCOL_STRING, GCOL_INT32, GCOL_BOOL8, GCOL_STRING};
  assert_int_equal(v.num_columns, ncols);
  for (int k = 0; k < ncols; ++k) check_column(v.columns[k], &c[k], ids[k], rows, n);
}

/* Levels with thousands of RLE runs per page (more than a batch), random levels (bit-packed
 * runs), an all-null and a no-null page; dictionary strings and integers (bit-packed indices)
 * in pages of more than 65536 rows; RLE booleans; PLAIN strings of 0..40 bytes; five columns
 * in one read, then a row group and a row range across pages. */
static void test_parallel_big_pages(void **state) {
  (void)state;
  big_data *d = (big_data *)malloc(sizeof *d);
  assert_non_null(d);
  /* under the tools every row count a tenth (15000 rows, pages of 6600..10000): the reader's
   * bounds are kept, nothing of it depends on 65536 rows: levels runs of 8..13 rows over 4000
   * rows (~380 runs), 666 index runs and 500 boolean runs (more than a batch of
   * GCOL_DETAIL_PQ_RUNS = 256), pages past a levels tile (2048) and a row tile (kTile 1024),
   * plain strings of ~84 KB in page 0 (ten 8192-byte stages), two row groups, an all-null page;
   * the file (~200 KB) is staged unpinned, the 1 MiB pinned staging is read by the writer tests */
  int64_t const div = gcol_test_if_sparse(1, 10);
  int64_t const big = BIG / div;
  make_big(d, div);
  pqb_column c[5];
  c[0] = col_base("levels", GCOL_PARQUET_INT64);
  c[0].ints = d->ints;
  c[0].optional = true;
  c[0].valid = d->valid;
  c[0].rows_per_page = 70000 / div;
  c[1] = col_base("dict_strings", GCOL_PARQUET_BYTE_ARRAY);
  c[1].strings = d->dict_strings;
  c[1].optional = true;
  c[1].valid = d->valid2;
  c[1].dictionary = true;
  c[1].rows_per_page = 100000 / div;
  c[2] = col_base("dict_ints", GCOL_PARQUET_INT32);
  c[2].ints = d->codes;
  c[2].dictionary = true;
  c[2].rows_per_page = 90000 / div;
  c[3] = col_base("bools", GCOL_PARQUET_BOOLEAN);
  c[3].ints = d->bits;
  c[3].optional = true;
  c[3].valid = d->valid2;
  c[3].rle_booleans = true;
  c[3].page_version = 2;
  c[3].rows_per_page = 66000 / div;
  c[4] = col_base("plain_strings", GCOL_PARQUET_BYTE_ARRAY);
  c[4].strings = d->plain_strings;
  c[4].optional = true;
  c[4].valid = d->valid;
  c[4].rows_per_page = 70000 / div;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 5;
  f.columns = c;
  f.num_rows = big;
  f.rows_per_group = 140000 / div;
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  assert_non_null(file);
  int64_t *rows = (int64_t *)malloc(BIG * sizeof *rows);
  assert_non_null(rows);
  for (int64_t i = 0; i < BIG; ++i) rows[i] = i;

  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL));
  check_all(gcol_table_get_view(t), c, 5, rows, big);
  gcol_table_free(t);

  /* the second row group only */
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  int32_t const second[] = {1};
  opt.row_groups = second;
  opt.num_row_groups = 1;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL));
  check_all(gcol_table_get_view(t), c, 5, rows + 140000 / div, big - 140000 / div);
  gcol_table_free(t);

  /* a row range across pages and row groups */
  gcol_parquet_read_options_init(&opt);
  opt.skip_rows = 70000 / div - 10;
  opt.num_rows = 70000 / div + 20;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, &opt, &t, NULL, NULL));
  check_all(gcol_table_get_view(t), c, 5, rows + 70000 / div - 10, 70000 / div + 20);
  gcol_table_free(t);

  /* the same from a page-locked copy of the file: its chunks go to the device directly */
  void *pinned = NULL;
  assert_int_equal(cudaHostAlloc(&pinned, (size_t)size, cudaHostAllocDefault), cudaSuccess);
  memcpy(pinned, file, (size_t)size);
  GCOL_TEST_OK(gcol_parquet_read_buffer(pinned, size, NULL, &t, NULL, NULL));
  check_all(gcol_table_get_view(t), c, 5, rows, big);
  gcol_table_free(t);
  assert_int_equal(cudaFreeHost(pinned), cudaSuccess);
  free(rows);
  free(file);
  free(d);
}

/* PLAIN strings longer than the walk's shared-memory stage (100 KB), empty strings and nulls
 * in pages of 16 rows; an integer column of one-row pages. */
static void test_parallel_long_strings_and_tiny_pages(void **state) {
  (void)state;
  enum { N = 40, LONG = 100000 };
  static const char *strs[N];
  static int64_t ints[N];
  static uint8_t valid[N], valid2[N];
  char *store = (char *)malloc((size_t)N * (LONG + 1));
  assert_non_null(store);
  for (int i = 0; i < N; ++i) {
    char *s = store + (size_t)i * (LONG + 1);
    int const len = i % 4 == 0 ? LONG - i : i % 4 == 1 ? 0 : 1 + i;
    for (int j = 0; j < len; ++j) s[j] = (char)('a' + (i * 7 + j) % 26);
    s[len] = 0;
    strs[i] = s;
    valid[i] = i % 4 != 2;
    ints[i] = 1000 - i;
    valid2[i] = i % 3 != 0;
  }
  pqb_column c[2];
  c[0] = col_base("long", GCOL_PARQUET_BYTE_ARRAY);
  c[0].strings = strs;
  c[0].optional = true;
  c[0].valid = valid;
  c[0].rows_per_page = 16;
  c[1] = col_base("one_row_pages", GCOL_PARQUET_INT32);
  c[1].ints = ints;
  c[1].optional = true;
  c[1].valid = valid2;
  c[1].rows_per_page = 1;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 2;
  f.columns = c;
  f.num_rows = N;
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  assert_non_null(file);
  int64_t rows[N];
  for (int64_t i = 0; i < N; ++i) rows[i] = i;
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL));
  gcol_table_view v = gcol_table_get_view(t);
  check_column(v.columns[0], &c[0], GCOL_STRING, rows, N);
  check_column(v.columns[1], &c[1], GCOL_INT32, rows, N);
  gcol_table_free(t);
  free(file);
  free(store);
}

/* Errors of the parallel decoders: a PLAIN byte array whose length runs past its page (page
 * 1 of a column in pages of 300), a dictionary entry whose length runs past the dictionary
 * page; each named with its page. */
static void test_parallel_corrupt_strings(void **state) {
  (void)state;
  make_data(17);
  pqb_column c = col_base("s", GCOL_PARQUET_BYTE_ARRAY);
  c.strings = pq_data.strings;
  c.rows_per_page = 300;
  pqb_file f = pqb_one_column(&c, ROWS);
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  gcol_detail_pq_page_header h;
  int64_t body = page_body(file, size, 1, &h); /* a required column: the values start there */
  file[body + 3] = 0x7f;                       /* the first length becomes > 2 GB */
  gcol_table *t = NULL;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "page 1"));
  assert_non_null(strstr(gcol_last_error(), "values end"));
  free(file);

  c.dictionary = true;
  file = pqb_build(&f, &size);
  body = page_body(file, size, 0, &h); /* the dictionary page */
  file[body + 3] = 0x7f;
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "page 0"));
  assert_non_null(strstr(gcol_last_error(), "dictionary page holds fewer"));
  free(file);
}

typedef struct alloc_ctx {
  const uint8_t *file;
  int64_t size;
  gcol_table *table;
} alloc_ctx;

static gcol_status read_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  return gcol_parquet_read_buffer(c->file, c->size, NULL, &c->table, NULL, NULL);
}

static void read_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_table_free(c->table);
  c->table = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  make_data(16);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build(2, 500, &size, cols);
  alloc_ctx c = {file, size, NULL};
  int const points = gcol_test_check_allocation_failures(read_op, read_cleanup, &c);
  assert_true(points > NUM_COLS);
  free(file);
}

/* The same with pages left to nvCOMP (its temporary memory and the job table allocated too). */
static void test_allocation_failures_nvcomp(void **state) {
  (void)state;
  if (!gcol_detail_pq_codec_available(GCOL_PARQUET_SNAPPY) || !nvcomp_here(GCOL_PARQUET_SNAPPY)) {
    return;
  }
  make_data(23);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build_codec(2, GCOL_PARQUET_SNAPPY, 500, &size, cols);
  alloc_ctx c = {file, size, NULL};
  int64_t const before = gcol_detail_parquet_nvcomp_pages();
  int const points = gcol_test_check_allocation_failures(read_op, read_cleanup, &c);
  assert_true(points > NUM_COLS);
  assert_true(gcol_detail_parquet_nvcomp_pages() > before);
  free(file);
}

/* ==== batched reads (issue 14): row groups read in batches, the pieces concatenated ==== */

/* The batches a read of `opt`'s columns (all without) and groups would be split into at
 * `target` bytes (gcol_detail_parquet_batches over the whole file's row groups). */
static int32_t batches_of(const uint8_t *file, int64_t size, int64_t target) {
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  int32_t const n = md->num_row_groups;
  int32_t *groups = (int32_t *)malloc((size_t)(n + 1) * sizeof *groups);
  int32_t *columns = (int32_t *)malloc((size_t)(md->num_leaves + 1) * sizeof *columns);
  int32_t *bounds = (int32_t *)malloc((size_t)(n + 2) * sizeof *bounds);
  assert_true(groups != NULL && columns != NULL && bounds != NULL);
  for (int32_t g = 0; g < n; ++g) groups[g] = g;
  for (int32_t k = 0; k < md->num_leaves; ++k) columns[k] = k;
  int32_t const batches =
      gcol_detail_parquet_batches(md, columns, md->num_leaves, groups, n, target, bounds);
  assert_int_equal(bounds[0], 0);
  assert_int_equal(bounds[batches], n);
  for (int32_t b = 0; b < batches; ++b) assert_true(bounds[b] < bounds[b + 1]);
  free(groups);
  free(columns);
  free(bounds);
  gcol_parquet_metadata_free(md);
  return batches;
}

/* Two reads' tables are the same: types, sizes, masks (present or not), null counts, string
 * offsets' widths and values. */
static void assert_tables_same(gcol_table_view a, gcol_table_view b) {
  assert_int_equal(a.num_columns, b.num_columns);
  for (int32_t k = 0; k < a.num_columns; ++k) {
    gcol_column_view const x = a.columns[k], y = b.columns[k];
    assert_int_equal(x.type.id, y.type.id);
    assert_int_equal(x.type.scale, y.type.scale);
    assert_int_equal(x.size, y.size);
    assert_int_equal(x.null_mask != NULL, y.null_mask != NULL);
    int64_t nx = 0, ny = 0;
    GCOL_TEST_OK(gcol_column_view_null_count(x, NULL, &nx));
    GCOL_TEST_OK(gcol_column_view_null_count(y, NULL, &ny));
    assert_int_equal(nx, ny);
    assert_int_equal(x.num_children, y.num_children);
    for (int32_t c = 0; c < x.num_children; ++c) {
      assert_int_equal(x.children[c].type.id, y.children[c].type.id);
    }
    gcol_test_assert_columns_equal(x, y);
    gcol_test_assert_null_count_consistent(y);
  }
}

/* Reads a buffer (or, with `source`, through a callback: the workers' reads serialized) with
 * `opt` whole and in batches of `target` bytes: the same status and message, or the same
 * table. */
/* How a test reads a file: from its buffer, through a gcol_parquet_source over it, or from a
 * path it was written to (their chunks then read into staging memory first). */
enum { READ_BUFFER = 0, READ_SOURCE = 1, READ_PATH = 2 };

/* Writes `size` bytes to a new file; its path in path[PATH_MAX_TEST]. */
#define PATH_MAX_TEST 64
static void write_temp(const uint8_t *file, int64_t size, char *path) {
  snprintf(path, PATH_MAX_TEST, "/tmp/gcol_parquet_XXXXXX");
  int const fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, file, (size_t)size), size);
  close(fd);
}

static gcol_status read_as(int how, const uint8_t *file, int64_t size, const char *path,
                           const gcol_parquet_read_options *opt, gcol_table **out) {
  gcol_parquet_source src;
  memset(&src, 0, sizeof src);
  src.size = size;
  src.read = read_cb;
  src.user = (void *)file;
  return how == READ_SOURCE ? gcol_parquet_read_source(&src, opt, out, NULL, NULL)
         : how == READ_PATH ? gcol_parquet_read_file(path, opt, out, NULL, NULL)
                            : gcol_parquet_read_buffer(file, size, opt, out, NULL, NULL);
}

/* The read `how` in batches of `target` bytes against the same read whole: the same status
 * and message, or the same table; a source's or a path's also against the buffer's. */
static void expect_batched_as_whole(const uint8_t *file, int64_t size,
                                    const gcol_parquet_read_options *opt, int64_t target, int how) {
  char path[PATH_MAX_TEST] = "";
  if (how == READ_PATH) write_temp(file, size, path);
  gcol_table *whole = NULL, *batched = NULL, *buffer = NULL;
  char message[1024];
  gcol_detail_parquet_set_batch_bytes(INT64_MAX / 4); /* never split */
  gcol_status const s_whole = read_as(how, file, size, path, opt, &whole);
  snprintf(message, sizeof message, "%s", gcol_last_error());
  gcol_detail_parquet_set_batch_bytes(target);
  gcol_status const s_batched = read_as(how, file, size, path, opt, &batched);
  gcol_detail_parquet_set_batch_bytes(0);
  assert_int_equal(s_batched, s_whole);
  if (s_whole != GCOL_OK) {
    assert_null(batched);
    assert_string_equal(gcol_last_error(), message);
  } else {
    assert_tables_same(gcol_table_get_view(whole), gcol_table_get_view(batched));
    if (how != READ_BUFFER) {
      GCOL_TEST_OK(read_as(READ_BUFFER, file, size, path, opt, &buffer));
      assert_tables_same(gcol_table_get_view(buffer), gcol_table_get_view(batched));
    }
  }
  if (how == READ_PATH) unlink(path);
  gcol_table_free(whole);
  gcol_table_free(batched);
  gcol_table_free(buffer);
}

/* Every variant of the test columns (every type, nulls, strings, dictionary pages, DELTA
 * encodings, pages v2) in 10 row groups, read in batches of 1 row group and of about a
 * quarter of the file: whole reads, projections, row group selections and row ranges that
 * start and end inside batches. */
static void test_read_in_batches(void **state) {
  (void)state;
  make_data(41);
  int32_t const projection[] = {13, 0, 5, 9, 2};
  int32_t const some_groups[] = {1, 2, 5, 6, 7, 9};
  int32_t const reversed_groups[] = {8, 3, 0};
  for (int variant = 0; variant < 8; ++variant) {
    pqb_column cols[NUM_COLS];
    int64_t size = 0;
    uint8_t *file = build(variant, 100, &size, cols);
    int64_t const targets[] = {1, size / 8};
    assert_int_equal(batches_of(file, size, 1), 10);
    assert_true(batches_of(file, size, size / 8) >= 2);
    assert_int_equal(batches_of(file, size, size), 1); /* under two batches' worth: whole */
    for (int ti = 0; ti < 2; ++ti) {
      gcol_parquet_read_options opt;
      gcol_parquet_read_options_init(&opt);
      expect_batched_as_whole(file, size, &opt, targets[ti], READ_BUFFER);
      if (variant == 0) expect_batched_as_whole(file, size, &opt, targets[ti], READ_SOURCE);
      if (variant <= 1) expect_batched_as_whole(file, size, &opt, targets[ti], READ_PATH);
      opt.columns = projection;
      opt.num_columns = 5;
      expect_batched_as_whole(file, size, &opt, targets[ti], READ_BUFFER);
      if (variant == 1) expect_batched_as_whole(file, size, &opt, targets[ti], READ_PATH);
      opt.row_groups = some_groups;
      opt.num_row_groups = 6;
      expect_batched_as_whole(file, size, &opt, targets[ti], READ_BUFFER);
      opt.row_groups = reversed_groups;
      opt.num_row_groups = 3;
      expect_batched_as_whole(file, size, &opt, targets[ti], READ_BUFFER);
      opt.row_groups = NULL;
      opt.num_row_groups = 0;
      opt.columns = NULL;
      opt.num_columns = 0;
      int64_t const ranges[][2] = {{150, 530}, {0, 250}, {950, 0}, {199, 2}, {1, 998}, {999, 1}};
      for (int r = 0; r < 6; ++r) {
        opt.skip_rows = ranges[r][0];
        opt.num_rows = ranges[r][1];
        expect_batched_as_whole(file, size, &opt, targets[ti], READ_BUFFER);
      }
    }
    free(file);
  }
}

/* Pages of each codec decompressed on the host (untrusted) and, where nvCOMP is found, on the
 * GPU, read in batches as whole. */
static void test_read_in_batches_compressed(void **state) {
  (void)state;
  make_data(42);
  int32_t const codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD, GCOL_PARQUET_GZIP,
                            GCOL_PARQUET_LZ4_RAW};
  for (int ci = 0; ci < 4; ++ci) {
    if (!gcol_detail_pq_codec_available(codecs[ci])) continue;
    for (int variant = 0; variant < 8; variant += 3) {
      pqb_column cols[NUM_COLS];
      int64_t size = 0;
      uint8_t *file = build_codec(variant, codecs[ci], 100, &size, cols);
      gcol_parquet_read_options opt;
      gcol_parquet_read_options_init(&opt);
      opt.untrusted = true;
      expect_batched_as_whole(file, size, &opt, 1, READ_BUFFER);
      opt.skip_rows = 333;
      opt.num_rows = 444;
      expect_batched_as_whole(file, size, &opt, size / 3, READ_BUFFER);
      opt.untrusted = false;
      expect_batched_as_whole(file, size, &opt, 1, READ_BUFFER);
      expect_batched_as_whole(file, size, &opt, 1, READ_PATH);
      opt.skip_rows = opt.num_rows = 0;
      expect_batched_as_whole(file, size, &opt, size / 3, READ_PATH);
      expect_batched_as_whole(file, size, &opt, size / 3, READ_SOURCE);
      free(file);
    }
  }
}

/* A corrupt page in a later batch: the same status and message as the whole read (the row
 * group and page named), nothing left allocated (the teardown checks), and a valid batched
 * read after it. */
static void test_read_in_batches_corrupt(void **state) {
  (void)state;
  make_data(43);
  pqb_column c = col_base("x", GCOL_PARQUET_INT64);
  c.ints = pq_data.big;
  c.optional = true;
  c.valid = pq_data.valid;
  c.rows_per_page = 100;
  pqb_file f = pqb_one_column(&c, ROWS);
  f.rows_per_group = 200; /* 5 row groups of 2 pages */
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  assert_non_null(file);
  expect_batched_as_whole(file, size, NULL, 1, READ_BUFFER);
  gcol_detail_pq_page_header h;
  int64_t const body = page_body(file, size, 7, &h); /* row group 3's second page */
  file[body] = 1; /* its definition levels claim 1 byte: the levels kernel runs out */
  file[body + 1] = file[body + 2] = file[body + 3] = 0;
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  expect_batched_as_whole(file, size, &opt, 1, READ_BUFFER);
  expect_batched_as_whole(file, size, &opt, 1, READ_SOURCE);
  expect_batched_as_whole(file, size, &opt, 1, READ_PATH);
  gcol_table *t = NULL;
  gcol_detail_parquet_set_batch_bytes(1);
  GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_detail_parquet_set_batch_bytes(0);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "row group 3"));
  assert_non_null(strstr(gcol_last_error(), "gcol_parquet_read_buffer"));
  /* a range that ends before the corrupt group reads */
  opt.num_rows = 600;
  expect_batched_as_whole(file, size, &opt, 1, READ_BUFFER);
  /* a header that runs past its chunk: a planning error of a later batch */
  free(file);
  file = pqb_build(&f, &size);
  file[page_body(file, size, 5, &h) - 2] ^= 0x5a; /* inside row group 2's second header */
  expect_batched_as_whole(file, size, &opt, 1, READ_BUFFER);
  expect_batched_as_whole(file, size, &opt, 1, READ_PATH);
  opt.num_rows = 0;
  expect_batched_as_whole(file, size, &opt, 1, READ_BUFFER);
  free(file);
}

/* Allocation failures of a batched read: each fails with out of memory, nothing left. */
static void test_allocation_failures_batched(void **state) {
  (void)state;
  make_data(44);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build(2, 250, &size, cols);
  alloc_ctx c = {file, size, NULL};
  gcol_detail_parquet_set_batch_bytes(1);
  int const points = gcol_test_check_allocation_failures(read_op, read_cleanup, &c);
  gcol_detail_parquet_set_batch_bytes(0);
  assert_true(points > NUM_COLS * 4);
  free(file);
}

/* ==== GPU writer tests (issue 14): the GPU encoder against the host one ==== */

/* A device column copied to the host as the host encoder takes it. */
static void wt_host_column(gcol_column_view v, const char *name, gcol_detail_pq_host_column *c) {
  memset(c, 0, sizeof *c);
  c->name = name;
  c->type = v.type;
  if (v.type.id == GCOL_STRING) {
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(v, NULL, &c->strings));
    c->offsets = c->strings->offsets;
    c->chars = c->strings->chars;
    c->valid = v.null_mask != NULL ? c->strings->valid : NULL;
    return;
  }
  size_t const n = (size_t)(v.size > 0 ? v.size : 1);
  void *data = malloc(n * gcol_type_size(v.type.id));
  uint8_t *valid = v.null_mask != NULL ? (uint8_t *)malloc(n) : NULL;
  assert_non_null(data);
  GCOL_TEST_OK(gcol_column_copy_to_host(v, data, valid, NULL));
  c->data = data;
  c->valid = valid;
}

static void wt_host_free(gcol_detail_pq_host_column *c) {
  if (c->strings != NULL) {
    gcol_host_strings_free(c->strings);
  } else {
    free((void *)c->data);
    free((void *)c->valid);
  }
}

/* Both files hold the same row groups, null counts, min and max (and values, read back). */
static void wt_same_meta(const void *a, int64_t a_size, const void *b, int64_t b_size) {
  gcol_parquet_metadata *ma = NULL, *mb = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(a, a_size, &ma));
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(b, b_size, &mb));
  int32_t const groups = gcol_parquet_metadata_num_row_groups(ma);
  assert_int_equal(groups, gcol_parquet_metadata_num_row_groups(mb));
  int32_t const cols = gcol_parquet_metadata_num_columns(ma);
  assert_int_equal(cols, gcol_parquet_metadata_num_columns(mb));
  for (int32_t g = 0; g < groups; ++g) {
    for (int32_t k = 0; k < cols; ++k) {
      gcol_parquet_statistics x, y;
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(ma, g, k, &x));
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(mb, g, k, &y));
      assert_int_equal(x.codec, y.codec);
      assert_int_equal(x.num_values, y.num_values);
      assert_int_equal(x.has_null_count, y.has_null_count);
      assert_int_equal(x.null_count, y.null_count);
      assert_int_equal(x.has_min_max, y.has_min_max);
      if (!x.has_min_max) continue;
      assert_int_equal(x.min_size, y.min_size);
      assert_int_equal(x.max_size, y.max_size);
      assert_memory_equal(x.min, y.min, (size_t)x.min_size);
      assert_memory_equal(x.max, y.max, (size_t)x.max_size);
    }
  }
  gcol_parquet_metadata_free(ma);
  gcol_parquet_metadata_free(mb);
}

/* Writes `t` with the GPU writer and with the host encoder: the same bytes when `same_bytes`
 * (every page of a nullable column all valid or all null, and of 8 rows or more: the encoders
 * write levels alike), else the same statistics; read back, the same columns as `t`. */
static void wt_check(gcol_table_view t, const gcol_parquet_write_options *options,
                     bool same_bytes) {
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  if (options != NULL) opt = *options;
  void *gpu = NULL;
  int64_t gpu_size = 0;
  GCOL_TEST_OK(gcol_parquet_write_buffer(t, options, &gpu, &gpu_size, NULL));
  int64_t const rows = t.num_columns > 0 ? t.columns[0].size : 0;
  gcol_detail_pq_host_column *hc = (gcol_detail_pq_host_column *)calloc(
      (size_t)(t.num_columns > 0 ? t.num_columns : 1), sizeof *hc);
  char(*names)[16] = (char(*)[16])calloc((size_t)(t.num_columns > 0 ? t.num_columns : 1), 16);
  assert_non_null(hc);
  assert_non_null(names);
  for (int32_t k = 0; k < t.num_columns; ++k) {
    snprintf(names[k], 16, "c%d", k);
    wt_host_column(t.columns[k], opt.column_names != NULL ? opt.column_names[k] : names[k], &hc[k]);
  }
  uint8_t *host = NULL;
  int64_t host_size = 0;
  GCOL_TEST_OK(gcol_detail_parquet_write_host(hc, t.num_columns, rows, &opt, &host, &host_size));
  if (same_bytes) {
    assert_int_equal(gpu_size, host_size);
    assert_memory_equal(gpu, host, (size_t)host_size);
  }
  wt_same_meta(gpu, gpu_size, host, host_size);
  if (t.num_columns > 0) { /* as the host encoder's file reads, and as `t` where types agree */
    gcol_table *back = NULL, *ref = NULL;
    GCOL_TEST_OK(gcol_parquet_read_buffer(gpu, gpu_size, NULL, &back, NULL, NULL));
    GCOL_TEST_OK(gcol_parquet_read_buffer(host, host_size, NULL, &ref, NULL, NULL));
    gcol_table_view const bv = gcol_table_get_view(back);
    gcol_table_view const rv = gcol_table_get_view(ref);
    assert_int_equal(bv.num_columns, t.num_columns);
    for (int32_t k = 0; k < t.num_columns; ++k) {
      gcol_test_assert_columns_equal(bv.columns[k], rv.columns[k]);
      if (gcol_data_type_equal(bv.columns[k].type, t.columns[k].type)) {
        gcol_test_assert_columns_equal(bv.columns[k], t.columns[k]);
      }
    }
    gcol_table_free(back);
    gcol_table_free(ref);
  }
  for (int32_t k = 0; k < t.num_columns; ++k) wt_host_free(&hc[k]);
  free(hc);
  free(names);
  free(host);
  gcol_parquet_buffer_free(gpu);
}

enum { WT_TYPES = 18 };
static const gcol_type_id wt_ids[WT_TYPES] = {GCOL_INT8,
                                              GCOL_INT16,
                                              GCOL_INT32,
                                              GCOL_INT64,
                                              GCOL_UINT8,
                                              GCOL_UINT16,
                                              GCOL_UINT32,
                                              GCOL_UINT64,
                                              GCOL_FLOAT32,
                                              GCOL_FLOAT64,
                                              GCOL_BOOL8,
                                              GCOL_TIMESTAMP_DAYS,
                                              GCOL_TIMESTAMP_MILLISECONDS,
                                              GCOL_TIMESTAMP_MICROSECONDS,
                                              GCOL_TIMESTAMP_NANOSECONDS,
                                              GCOL_DECIMAL32,
                                              GCOL_DECIMAL64,
                                              GCOL_STRING};

/* Validity of the test tables: no mask, a mask of all valid, all null, random nulls (with an
 * all-null stretch), or random nulls with the first 20000 rows null. */
enum { WT_NO_MASK, WT_ALL_VALID, WT_ALL_NULL, WT_SOME, WT_HEAD_NULL };

/* Rows of the values wt_column makes (0: every row its own random value; d > 0: row i the
 * value of row i % d, for dictionaries that pay). */
static int64_t wt_distinct;

/* A column of `n` random rows of type `id` (floats with NaN, -0.0 and 0.0; strings of 0..12
 * bytes of any value, empty ones too), repeating as wt_distinct says. */
static gcol_column *wt_column(gcol_type_id id, int64_t n, int validity, gcol_test_rng *rng) {
  size_t const m = (size_t)(n > 0 ? n : 1);
  uint8_t *valid = (uint8_t *)malloc(m);
  assert_non_null(valid);
  for (int64_t i = 0; i < n; ++i) {
    valid[i] = validity == WT_ALL_NULL ? 0
               : validity == WT_SOME   ? (i / 64) % 7 == 3 ? 0 : gcol_test_rng_range(rng, 0, 3) != 0
               : validity == WT_HEAD_NULL ? i >= 20000 && gcol_test_rng_range(rng, 0, 1)
                                          : 1;
  }
  const uint8_t *mask = validity == WT_NO_MASK ? NULL : valid;
  gcol_column *col = NULL;
  if (id == GCOL_STRING) {
    char **strs = (char **)calloc(m, sizeof *strs);
    int64_t *lens = (int64_t *)calloc(m, sizeof *lens);
    assert_non_null(strs);
    assert_non_null(lens);
    for (int64_t i = 0; i < n; ++i) {
      lens[i] = gcol_test_rng_range(rng, 0, 12);
      strs[i] = (char *)malloc(13);
      gcol_test_rng_fill(rng, strs[i], 13);
      if (wt_distinct > 0 && i >= wt_distinct) {
        lens[i] = lens[i % wt_distinct];
        memcpy(strs[i], strs[i % wt_distinct], 13);
      }
    }
    for (int64_t i = 0; i < n; ++i) { /* nulls once every value is made (rows repeat others) */
      if (mask != NULL && !mask[i]) {
        free(strs[i]);
        strs[i] = NULL;
      }
    }
    GCOL_TEST_OK(
        gcol_column_create_strings_from_host(n, (const char *const *)strs, lens, NULL, NULL, &col));
    for (int64_t i = 0; i < n; ++i) free(strs[i]);
    free(strs);
    free(lens);
  } else {
    size_t const w = gcol_type_size(id);
    uint8_t *data = (uint8_t *)malloc(m * w);
    assert_non_null(data);
    gcol_test_rng_fill(rng, data, m * w);
    for (int64_t i = 0; i < n; ++i) {
      uint64_t const r = gcol_test_rng_next(rng);
      if (id == GCOL_BOOL8) data[i] = (uint8_t)(r & 1);
      if (id == GCOL_FLOAT32) {
        float const f = r % 11 == 0   ? NAN
                        : r % 13 == 0 ? -0.0f
                        : r % 17 == 0 ? 0.0f
                                      : (float)((int64_t)(r % 2001) - 1000) / 8;
        memcpy(data + i * 4, &f, 4);
      }
      if (id == GCOL_FLOAT64) {
        double const d = r % 11 == 0   ? NAN
                         : r % 13 == 0 ? -0.0
                         : r % 17 == 0 ? 0.0
                                       : (double)((int64_t)(r % 20001) - 10000) / 16;
        memcpy(data + i * 8, &d, 8);
      }
      if (wt_distinct > 0 && i >= wt_distinct) {
        memcpy(data + i * w, data + (i % wt_distinct) * w, w);
      }
    }
    gcol_data_type t = gcol_data_type_make(id);
    if (id == GCOL_DECIMAL32) t = gcol_data_type_decimal(GCOL_DECIMAL32, -2);
    if (id == GCOL_DECIMAL64) t = gcol_data_type_decimal(GCOL_DECIMAL64, -5);
    GCOL_TEST_OK(gcol_column_create_from_host(t, n, data, mask, NULL, NULL, &col));
    free(data);
  }
  free(valid);
  return col;
}

/* WT_TYPES columns of `n` rows with one validity. */
static void wt_table(int64_t n, int validity, gcol_test_rng *rng, gcol_column **cols,
                     gcol_column_view *views, gcol_table_view *t) {
  for (int k = 0; k < WT_TYPES; ++k) {
    cols[k] = wt_column(wt_ids[k], n, validity, rng);
    views[k] = gcol_column_get_view(cols[k]);
  }
  GCOL_TEST_OK(gcol_table_view_make(views, WT_TYPES, t));
}

static void wt_free(gcol_column **cols, int n) {
  for (int k = 0; k < n; ++k) gcol_column_free(cols[k]);
}

/* Every type, each validity, chunks of one page and a short last one. */
static void test_gpu_write_every_type(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1401);
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.row_group_rows = 300;
  for (int validity = WT_NO_MASK; validity <= WT_SOME; ++validity) {
    gcol_column *cols[WT_TYPES];
    gcol_column_view views[WT_TYPES];
    gcol_table_view t;
    wt_table(1000, validity, &rng, cols, views, &t);
    wt_check(t, &opt, validity != WT_SOME);
    wt_check(t, NULL, validity != WT_SOME);
    wt_free(cols, WT_TYPES);
  }
}

/* Slices (offsets off a mask word's start), a one-row slice, and an empty one. */
static void test_gpu_write_slices(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1402);
  gcol_column *cols[WT_TYPES];
  gcol_column_view views[WT_TYPES];
  gcol_table_view t;
  wt_table(1000, WT_SOME, &rng, cols, views, &t);
  int64_t const cuts[][2] = {{37, 911}, {1, 2}, {999, 1000}, {64, 64}, {5, 77}};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; ++i) {
    gcol_column_view sliced[WT_TYPES];
    gcol_table_view part;
    GCOL_TEST_OK(gcol_table_view_slice(t, cuts[i][0], cuts[i][1], sliced, &part));
    gcol_parquet_write_options opt;
    gcol_parquet_write_options_init(&opt);
    opt.row_group_rows = 50;
    wt_check(part, &opt, false);
    wt_check(part, NULL, false);
  }
  wt_free(cols, WT_TYPES);
}

/* More rows than a page and than a row group: full, partial and all-null pages. */
static void test_gpu_write_pages_and_groups(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1403);
  gcol_type_id const ids[] = {GCOL_INT32, GCOL_STRING, GCOL_BOOL8, GCOL_FLOAT64, GCOL_INT8};
  int const validity[] = {WT_SOME, WT_HEAD_NULL, WT_SOME, WT_NO_MASK, WT_ALL_VALID};
  enum { K = 5 };
  /* under the tools 70001 rows in groups of 66000 (pages 65536, 464 and 4001: a group of two
   * pages, then a second group; the uniform pages none under 8 rows) and of 65539 (a last page
   * of 3 rows): the same shapes as 150001 rows in groups of 100000 and 131075 */
  int64_t const n = gcol_test_if_sparse(150001, 70001);
  gcol_column *cols[K];
  gcol_column_view views[K];
  for (int k = 0; k < K; ++k) {
    cols[k] = wt_column(ids[k], n, validity[k], &rng);
    views[k] = gcol_column_get_view(cols[k]);
  }
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(views, K, &t));
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.row_group_rows = gcol_test_if_sparse(100000, 66000);
  wt_check(t, &opt, false);
  /* the default options (one group of several pages) not under the tools: the same kernels as
   * the group of two pages above, the options being host code */
  if (gcol_test_if_sparse(1, 0)) wt_check(t, NULL, false);
  /* no mixed page, none under 8 rows: the same bytes as the host encoder */
  gcol_table_view uniform;
  gcol_column_view const two[2] = {views[3], views[4]};
  GCOL_TEST_OK(gcol_table_view_make(two, 2, &uniform));
  wt_check(uniform, &opt, true);
  opt.row_group_rows = gcol_test_if_sparse(65536 * 2, 65536) + 3; /* a last page of 3 rows */
  wt_check(t, &opt, false);
  wt_free(cols, K);
}

/* No columns, and columns of no rows. */
static void test_gpu_write_empty(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1404);
  gcol_table_view none;
  gcol_column_view nothing[1];
  memset(nothing, 0, sizeof nothing);
  GCOL_TEST_OK(gcol_table_view_make(nothing, 0, &none));
  wt_check(none, NULL, true);
  gcol_column *cols[WT_TYPES];
  gcol_column_view views[WT_TYPES];
  gcol_table_view t;
  wt_table(0, WT_SOME, &rng, cols, views, &t);
  wt_check(t, NULL, true);
  wt_free(cols, WT_TYPES);
}

/* Every codec the host has: the same bytes as the host encoder compressing the same pages. */
static void test_gpu_write_compressed(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1405);
  int32_t const codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD, GCOL_PARQUET_GZIP,
                            GCOL_PARQUET_LZ4_RAW};
  gcol_column *cols[WT_TYPES];
  gcol_column_view views[WT_TYPES];
  gcol_table_view t;
  wt_table(70000, WT_ALL_VALID, &rng, cols, views, &t);
  gcol_column *some[WT_TYPES];
  gcol_column_view some_views[WT_TYPES];
  gcol_table_view st;
  wt_table(3000, WT_SOME, &rng, some, some_views, &st);
  bool big_done = false;
  for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; ++i) {
    if (!gcol_detail_pq_codec_available(codecs[i])) continue;
    gcol_parquet_write_options opt;
    gcol_parquet_write_options_init(&opt);
    opt.codec = (gcol_parquet_codec)codecs[i];
    /* under the tools the 70000 rows (two pages a chunk) with the first codec only: the GPU
     * encodes the same bodies for every codec (compression is host code), and every codec
     * still writes and reads back the 3000 rows below (three groups) */
    if (!big_done || gcol_test_if_sparse(1, 0)) wt_check(t, &opt, true);
    big_done = true;
    opt.row_group_rows = 1000;
    wt_check(st, &opt, false);
  }
  wt_free(cols, WT_TYPES);
  wt_free(some, WT_TYPES);
}

/* Chunks of a file with a dictionary page (before their first data page). */
static int64_t wt_dictionary_chunks(const void *file, int64_t size) {
  gcol_parquet_metadata *md = NULL;
  int64_t n = 0;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  for (int32_t g = 0; g < md->num_row_groups; ++g) {
    for (int32_t k = 0; k < md->row_groups[g].num_chunks; ++k) {
      const gcol_detail_pq_chunk *ch = &md->row_groups[g].chunks[k];
      if (ch->dictionary_page_offset < 0) continue;
      assert_true(ch->dictionary_page_offset < ch->data_page_offset);
      ++n;
    }
  }
  gcol_parquet_metadata_free(md);
  return n;
}

/* wt_check with dictionaries (against the host encoder's PLAIN file, read back value by value
 * by gcol's reader); the file written twice the same (a dictionary's order does not depend on
 * which thread won its slot). Returns its dictionary-encoded chunks. */
static int64_t wt_check_dictionary(gcol_table_view t, const gcol_parquet_write_options *options) {
  wt_check(t, options, false);
  void *a = NULL, *b = NULL;
  int64_t a_size = 0, b_size = 0;
  GCOL_TEST_OK(gcol_parquet_write_buffer(t, options, &a, &a_size, NULL));
  GCOL_TEST_OK(gcol_parquet_write_buffer(t, options, &b, &b_size, NULL));
  assert_int_equal(a_size, b_size);
  assert_memory_equal(a, b, (size_t)a_size);
  int64_t const n = wt_dictionary_chunks(a, a_size);
  gcol_parquet_buffer_free(a);
  gcol_parquet_buffer_free(b);
  return n;
}

/* Dictionaries: every type and validity, values repeating or not, both policies; every chunk
 * but BOOL8's and all-null ones encoded under ALWAYS. */
static void test_gpu_write_dictionary(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1418);
  for (int validity = WT_NO_MASK; validity <= WT_SOME; ++validity) {
    for (int64_t distinct = 0; distinct <= 7; distinct += 7) {
      gcol_column *cols[WT_TYPES];
      gcol_column_view views[WT_TYPES];
      gcol_table_view t;
      wt_distinct = distinct;
      wt_table(1000, validity, &rng, cols, views, &t);
      wt_distinct = 0;
      gcol_parquet_write_options opt;
      gcol_parquet_write_options_init(&opt);
      opt.row_group_rows = 300;
      opt.dictionary = GCOL_PARQUET_DICTIONARY_ALWAYS;
      int64_t const always = wt_check_dictionary(t, &opt);
      assert_int_equal(always, validity == WT_ALL_NULL ? 0 : 4 * (WT_TYPES - 1));
      opt.dictionary = GCOL_PARQUET_DICTIONARY_ADAPTIVE;
      int64_t const adaptive = wt_check_dictionary(t, &opt);
      if (distinct > 0 && validity != WT_ALL_NULL) assert_int_equal(adaptive, always);
      wt_free(cols, WT_TYPES);
    }
  }
}

/* Dictionaries of slices (offsets off a mask word's start, strings whose first offset is not
 * 0), pages and groups, every codec. */
static void test_gpu_write_dictionary_slices_codecs(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1419);
  gcol_column *cols[WT_TYPES];
  gcol_column_view views[WT_TYPES];
  gcol_table_view t;
  wt_distinct = 5;
  wt_table(1000, WT_SOME, &rng, cols, views, &t);
  wt_distinct = 0;
  int64_t const cuts[][2] = {{37, 911}, {1, 2}, {999, 1000}, {64, 64}, {5, 77}};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; ++i) {
    gcol_column_view sliced[WT_TYPES];
    gcol_table_view part;
    GCOL_TEST_OK(gcol_table_view_slice(t, cuts[i][0], cuts[i][1], sliced, &part));
    gcol_parquet_write_options opt;
    gcol_parquet_write_options_init(&opt);
    opt.row_group_rows = 50;
    opt.dictionary = GCOL_PARQUET_DICTIONARY_ADAPTIVE;
    int64_t const n = wt_check_dictionary(part, &opt);
    if (cuts[i][1] - cuts[i][0] >= 50) assert_true(n > 0);
  }
  wt_free(cols, WT_TYPES);
  gcol_type_id const ids[] = {GCOL_INT32, GCOL_STRING, GCOL_FLOAT64, GCOL_INT64};
  int const validity[] = {WT_SOME, WT_HEAD_NULL, WT_NO_MASK, WT_ALL_VALID};
  int64_t const distinct[] = {1000, 0, 300, 1};
  int64_t const n = gcol_test_if_sparse(150001, 70001);
  gcol_column *big[4];
  gcol_column_view big_views[4];
  for (int k = 0; k < 4; ++k) {
    wt_distinct = distinct[k];
    big[k] = wt_column(ids[k], n, validity[k], &rng);
    big_views[k] = gcol_column_get_view(big[k]);
  }
  wt_distinct = 0;
  gcol_table_view bt;
  GCOL_TEST_OK(gcol_table_view_make(big_views, 4, &bt));
  int32_t const codecs[] = {GCOL_PARQUET_UNCOMPRESSED, GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD,
                            GCOL_PARQUET_GZIP, GCOL_PARQUET_LZ4_RAW};
  for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; ++i) {
    if (!gcol_detail_pq_codec_available(codecs[i])) continue;
    gcol_parquet_write_options opt;
    gcol_parquet_write_options_init(&opt);
    opt.codec = (gcol_parquet_codec)codecs[i];
    opt.row_group_rows = gcol_test_if_sparse(100000, 66000);
    opt.dictionary = GCOL_PARQUET_DICTIONARY_ADAPTIVE; /* the random strings stay PLAIN */
    assert_int_equal(wt_check_dictionary(bt, &opt), 2 * 3);
    if (i > 0 && gcol_test_if_sparse(0, 1)) break; /* under the tools: one codec */
  }
  wt_free(big, 4);
}

/* ==== end of the GPU writer tests ==== */

/* ==== predicate pushdown (issue 15) ==== */

enum { FR = 1000, FG = 100 }; /* rows, rows per group: ten groups */

typedef struct filter_file {
  int64_t a[FR];
  double b[FR];
  uint8_t b_valid[FR];
  const char *s[FR];
  pqb_column c[3];
  uint8_t *bytes;
  int64_t size;
} filter_file;

/* a INT64 = row; b DOUBLE = row / 4, null on every 7th row; s STRING. */
static filter_file *make_filter_file(void) {
  static const char *words[] = {"zero", "one", "two", "three", "four"};
  filter_file *f = (filter_file *)calloc(1, sizeof *f);
  assert_non_null(f);
  for (int i = 0; i < FR; ++i) {
    f->a[i] = i;
    f->b[i] = i * 0.25;
    f->b_valid[i] = i % 7 != 0;
    f->s[i] = words[i % 5];
  }
  f->c[0] = col_base("a", GCOL_PARQUET_INT64);
  f->c[0].ints = f->a;
  f->c[1] = col_base("b", GCOL_PARQUET_DOUBLE);
  f->c[1].reals = f->b;
  f->c[1].optional = true;
  f->c[1].valid = f->b_valid;
  f->c[2] = col_base("s", GCOL_PARQUET_BYTE_ARRAY);
  f->c[2].strings = f->s;
  pqb_file pf;
  memset(&pf, 0, sizeof pf);
  pf.num_columns = 3;
  pf.columns = f->c;
  pf.num_rows = FR;
  pf.rows_per_group = FG;
  f->bytes = pqb_build(&pf, &f->size);
  assert_non_null(f->bytes);
  return f;
}

static int32_t fx_col(gcol_expression *e, int32_t c) {
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, c, &id));
  return id;
}

static int32_t fx_lit(gcol_expression *e, gcol_type_id type, double v, bool valid) {
  gcol_scalar *s = NULL;
  if (!valid) {
    GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(type), &s));
  } else if (type == GCOL_FLOAT64) {
    GCOL_TEST_OK(gcol_scalar_create_float(gcol_data_type_make(type), v, &s));
  } else {
    GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(type), (int64_t)v, &s));
  }
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_literal(e, s, &id));
  gcol_scalar_free(s);
  return id;
}

static int32_t fx_bin(gcol_expression *e, gcol_expression_op op, int32_t a, int32_t b) {
  int32_t id = -1;
  GCOL_TEST_OK(gcol_expression_add_binary(e, op, a, b, &id));
  return id;
}

/* Reads with `opt` (its filter set) and checks the output: `num_columns` columns, leaves
 * `leaves`, holding exactly rows[0..n). */
static void expect_filtered(const filter_file *f, const gcol_parquet_read_options *opt,
                            const int32_t *leaves, int32_t num_columns, const int64_t *rows,
                            int64_t n) {
  static const gcol_type_id ids[3] = {GCOL_INT64, GCOL_FLOAT64, GCOL_STRING};
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, opt, &t, NULL, NULL));
  gcol_table_view const v = gcol_table_get_view(t);
  assert_int_equal(v.num_columns, num_columns);
  for (int32_t i = 0; i < num_columns; ++i) {
    check_column(v.columns[i], &f->c[leaves[i]], ids[leaves[i]], rows, n);
  }
  gcol_table_free(t);
}

static void test_read_with_filter(void **state) {
  (void)state;
  filter_file *f = make_filter_file();
  static int64_t rows[FR];
  int64_t n = 0;
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int32_t const a = fx_col(e, 0), b = fx_col(e, 1);
  /* 250 <= a AND a < 420: every column */
  int32_t const range = fx_bin(e, GCOL_EXPR_NULL_LOGICAL_AND,
                               fx_bin(e, GCOL_EXPR_LESS_EQUAL, fx_lit(e, GCOL_INT64, 250, true), a),
                               fx_bin(e, GCOL_EXPR_LESS, a, fx_lit(e, GCOL_INT64, 420, true)));
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  opt.filter = e;
  opt.filter_root = range;
  for (n = 0; n < 170; ++n) rows[n] = 250 + n;
  int32_t const all[] = {0, 1, 2};
  expect_filtered(f, &opt, all, 3, rows, n);
  /* the same rows as reading everything, then gcol_filter_expression */
  {
    gcol_table *whole = NULL, *want = NULL, *got = NULL;
    GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, NULL, &whole, NULL, NULL));
    GCOL_TEST_OK(gcol_filter_expression(gcol_table_get_view(whole), e, range, &want, NULL, NULL));
    GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, &opt, &got, NULL, NULL));
    gcol_table_view const wv = gcol_table_get_view(want), gv = gcol_table_get_view(got);
    assert_int_equal(wv.num_columns, gv.num_columns);
    for (int32_t i = 0; i < wv.num_columns; ++i) {
      gcol_test_assert_columns_equal(wv.columns[i], gv.columns[i]);
    }
    gcol_table_free(whole);
    gcol_table_free(want);
    gcol_table_free(got);
  }
  /* the filter's column alone (one fixed-width column without nulls: the single-pass mask) */
  int32_t const only_a[] = {0};
  opt.columns = only_a;
  opt.num_columns = 1;
  expect_filtered(f, &opt, only_a, 1, rows, n);
  /* selected columns without the filter's: it is read, used and dropped */
  int32_t const sb[] = {2, 1};
  opt.columns = sb;
  opt.num_columns = 2;
  expect_filtered(f, &opt, sb, 2, rows, n);
  /* by name, the filter's column selected twice */
  const char *const names[] = {"a", "s", "a"};
  opt.columns = NULL;
  opt.num_columns = 0;
  opt.column_names = names;
  opt.num_column_names = 3;
  int32_t const asa[] = {0, 2, 0};
  expect_filtered(f, &opt, asa, 3, rows, n);
  opt.column_names = NULL;
  opt.num_column_names = 0;
  /* chosen row groups, out of order: 5 cannot match (a < 350), 3 then 2 are read */
  int32_t const groups[] = {5, 3, 2};
  opt.row_groups = groups;
  opt.num_row_groups = 3;
  opt.filter_root = fx_bin(e, GCOL_EXPR_LESS, a, fx_lit(e, GCOL_INT64, 350, true));
  for (n = 0; n < 50; ++n) rows[n] = 300 + n;
  for (int64_t i = 0; i < 100; ++i) rows[n++] = 200 + i;
  expect_filtered(f, &opt, all, 3, rows, n);
  opt.row_groups = NULL;
  opt.num_row_groups = 0;
  /* b > 200 OR b IS NULL (Kleene): nulls of b in every group, values above 200 at the end */
  int32_t is_null = -1;
  GCOL_TEST_OK(gcol_expression_add_unary(e, GCOL_EXPR_IS_NULL, b, &is_null));
  opt.filter_root =
      fx_bin(e, GCOL_EXPR_NULL_LOGICAL_OR,
             fx_bin(e, GCOL_EXPR_GREATER, b, fx_lit(e, GCOL_FLOAT64, 200.0, true)), is_null);
  n = 0;
  for (int64_t i = 0; i < FR; ++i) {
    if (!f->b_valid[i] || f->b[i] > 200.0) rows[n++] = i;
  }
  int32_t const only_s[] = {2};
  opt.columns = only_s;
  opt.num_columns = 1;
  expect_filtered(f, &opt, only_s, 1, rows, n);
  /* nothing matches: every group dropped, empty columns of the right types */
  opt.columns = NULL;
  opt.num_columns = 0;
  opt.filter_root = fx_bin(e, GCOL_EXPR_GREATER, a, fx_lit(e, GCOL_INT64, 5000, true));
  expect_filtered(f, &opt, all, 3, rows, 0);
  /* a null literal: the comparison is null everywhere */
  opt.filter_root = fx_bin(e, GCOL_EXPR_EQUAL, a, fx_lit(e, GCOL_INT64, 0, false));
  expect_filtered(f, &opt, all, 3, rows, 0);
  /* a group kept by its statistics but with no matching row: 101 < a < 102 */
  opt.filter_root = fx_bin(e, GCOL_EXPR_LOGICAL_AND,
                           fx_bin(e, GCOL_EXPR_GREATER, a, fx_lit(e, GCOL_INT64, 101, true)),
                           fx_bin(e, GCOL_EXPR_LESS, a, fx_lit(e, GCOL_INT64, 102, true)));
  expect_filtered(f, &opt, all, 3, rows, 0);
  gcol_expression_free(e);
  free(f->bytes);
  free(f);
}

/* ---- page skipping by the page index ---- */

enum { SR = 1000, SG = 100, SCOLS = 4 }; /* rows, rows per group: ten groups */

typedef struct skip_file {
  int64_t a[SR];
  double b[SR];
  uint8_t b_valid[SR];
  uint8_t t_valid[SR];
  const char *s[SR];
  const char *t[SR];
  char text[SR][12];
  pqb_column c[SCOLS];
  uint8_t *bytes;
  int64_t size;
} skip_file;

/* a INT64 = row, pages of 10; b DOUBLE = row / 4, null on every 7th row, pages of 7; s STRING
 * (dictionary) pages of 13; t STRING (PLAIN, null on every 3rd row) pages of 16 without a page
 * index; every other column with a ColumnIndex and an OffsetIndex (`lie`: a PQB_LIE_* of a's
 * page index, 0 none). Page boundaries differ from column to column. */
static skip_file *make_skip_file(int32_t lie) {
  static const char *words[] = {"zero", "one", "two", "three", "four"};
  skip_file *f = (skip_file *)calloc(1, sizeof *f);
  assert_non_null(f);
  for (int i = 0; i < SR; ++i) {
    f->a[i] = i;
    f->b[i] = i * 0.25;
    f->b_valid[i] = i % 7 != 0;
    f->t_valid[i] = i % 3 != 0;
    snprintf(f->text[i], sizeof f->text[i], "%s%d", words[i % 5], i % 17);
    f->s[i] = words[i % 5];
    f->t[i] = f->text[i];
  }
  static const int64_t pages[SCOLS] = {10, 7, 13, 16};
  f->c[0] = col_base("a", GCOL_PARQUET_INT64);
  f->c[0].ints = f->a;
  f->c[1] = col_base("b", GCOL_PARQUET_DOUBLE);
  f->c[1].reals = f->b;
  f->c[1].optional = true;
  f->c[1].valid = f->b_valid;
  f->c[2] = col_base("s", GCOL_PARQUET_BYTE_ARRAY);
  f->c[2].strings = f->s;
  f->c[2].dictionary = true;
  f->c[3] = col_base("t", GCOL_PARQUET_BYTE_ARRAY);
  f->c[3].strings = f->t;
  f->c[3].optional = true;
  f->c[3].valid = f->t_valid;
  for (int32_t k = 0; k < SCOLS; ++k) {
    f->c[k].rows_per_page = pages[k];
    f->c[k].page_index = k != 3;
  }
  f->c[0].lie_page_index = lie;
  pqb_file pf;
  memset(&pf, 0, sizeof pf);
  pf.num_columns = SCOLS;
  pf.columns = f->c;
  pf.num_rows = SR;
  pf.rows_per_group = SG;
  f->bytes = pqb_build(&pf, &f->size);
  assert_non_null(f->bytes);
  return f;
}

/* Reads with `opt` (page skipping where the filter allows) and compares with reading every
 * row of the same row groups, then gcol_filter_expression (no page index used): the same
 * columns, rows, values, nulls and strings. Returns the data pages the read decoded. */
static int64_t expect_as_filtered_after(const skip_file *f, const gcol_parquet_read_options *opt) {
  gcol_parquet_read_options plain = *opt;
  plain.filter = NULL;
  plain.filter_root = 0;
  plain.columns = NULL;
  plain.num_columns = 0;
  gcol_table *whole = NULL, *want = NULL, *got = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, &plain, &whole, NULL, NULL));
  GCOL_TEST_OK(gcol_filter_expression(gcol_table_get_view(whole), opt->filter, opt->filter_root,
                                      &want, NULL, NULL));
  int64_t const before = gcol_detail_parquet_read_pages();
  GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, opt, &got, NULL, NULL));
  int64_t const pages = gcol_detail_parquet_read_pages() - before;
  gcol_table_view const wv = gcol_table_get_view(want), gv = gcol_table_get_view(got);
  int32_t const n = opt->columns != NULL ? opt->num_columns : wv.num_columns;
  assert_int_equal(gv.num_columns, n);
  for (int32_t i = 0; i < n; ++i) {
    int32_t const leaf = opt->columns != NULL ? opt->columns[i] : i;
    gcol_test_assert_columns_equal(wv.columns[leaf], gv.columns[i]);
    gcol_test_assert_null_count_consistent(gv.columns[i]);
  }
  gcol_table_free(whole);
  gcol_table_free(want);
  gcol_table_free(got);
  return pages;
}

/* Data pages of every column of the whole file. */
static int64_t pages_of_whole_file(const skip_file *f) {
  int64_t const before = gcol_detail_parquet_read_pages();
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, NULL, &t, NULL, NULL));
  gcol_table_free(t);
  return gcol_detail_parquet_read_pages() - before;
}

static int32_t fx_range(gcol_expression *e, int32_t column, int64_t lo, int64_t hi) {
  return fx_bin(e, GCOL_EXPR_LOGICAL_AND,
                fx_bin(e, GCOL_EXPR_GREATER_EQUAL, column, fx_lit(e, GCOL_INT64, (double)lo, true)),
                fx_bin(e, GCOL_EXPR_LESS, column, fx_lit(e, GCOL_INT64, (double)hi, true)));
}

static void test_read_skipping_pages(void **state) {
  (void)state;
  skip_file *f = make_skip_file(0);
  int64_t const all_pages = pages_of_whole_file(f);
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  int32_t const a = fx_col(e, 0), b = fx_col(e, 1), s = fx_col(e, 2);
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  opt.filter = e;
  /* 250 <= a < 420: two groups and a part, pages of 7, 13 and 16 crossing the range's ends */
  opt.filter_root = fx_range(e, a, 255, 423);
  int64_t const some = expect_as_filtered_after(f, &opt);
  /* kept [250, 430) by a's pages: 75 of the 400 pages (a 18, b 28, s 16, t 13) */
  assert_true(some > 0 && some * 4 < all_pages);
  /* exactly the rows 255..422 (none outside the kept rows), read back value by value */
  {
    static int64_t rows[SR];
    int64_t n = 0;
    for (int64_t r = 255; r < 423; ++r) rows[n++] = r;
    gcol_table *t = NULL;
    GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, &opt, &t, NULL, NULL));
    gcol_table_view const v = gcol_table_get_view(t);
    static const gcol_type_id ids[SCOLS] = {GCOL_INT64, GCOL_FLOAT64, GCOL_STRING, GCOL_STRING};
    for (int32_t k = 0; k < SCOLS; ++k) check_column(v.columns[k], &f->c[k], ids[k], rows, n);
    gcol_table_free(t);
  }
  /* none: a group kept by its chunk statistics, no page (a > 1000 is outside every group;
   * 101 < a < 102 inside group 1's chunk range but in no row) */
  opt.filter_root = fx_bin(e, GCOL_EXPR_GREATER, a, fx_lit(e, GCOL_INT64, 5000, true));
  assert_int_equal(expect_as_filtered_after(f, &opt), 0);
  opt.filter_root = fx_bin(e, GCOL_EXPR_LOGICAL_AND,
                           fx_bin(e, GCOL_EXPR_GREATER, a, fx_lit(e, GCOL_INT64, 101, true)),
                           fx_bin(e, GCOL_EXPR_LESS, a, fx_lit(e, GCOL_INT64, 102, true)));
  assert_true(expect_as_filtered_after(f, &opt) < all_pages / 10);
  /* all: nothing skipped */
  opt.filter_root = fx_bin(e, GCOL_EXPR_GREATER_EQUAL, a, fx_lit(e, GCOL_INT64, 0, true));
  assert_int_equal(expect_as_filtered_after(f, &opt), all_pages);
  /* across a group boundary and at the file's end; one row */
  opt.filter_root = fx_bin(e, GCOL_EXPR_LOGICAL_OR, fx_range(e, a, 95, 105),
                           fx_bin(e, GCOL_EXPR_GREATER_EQUAL, a, fx_lit(e, GCOL_INT64, 995, true)));
  assert_true(expect_as_filtered_after(f, &opt) < all_pages / 5);
  /* row 437 (group 4, rows 30..39 of it kept by a's page): a's page [30, 40), b's [28, 35)
   * and [35, 42), s's [26, 39) and [39, 52), t's [16, 32) and [32, 48): 7 data pages (the
   * dictionary page is not counted) */
  opt.filter_root = fx_bin(e, GCOL_EXPR_EQUAL, a, fx_lit(e, GCOL_INT64, 437, true));
  assert_int_equal(expect_as_filtered_after(f, &opt), 7);
  /* nulls: b > 200 OR b IS NULL keeps every page of b (nulls everywhere) */
  int32_t is_null = -1;
  GCOL_TEST_OK(gcol_expression_add_unary(e, GCOL_EXPR_IS_NULL, b, &is_null));
  opt.filter_root =
      fx_bin(e, GCOL_EXPR_NULL_LOGICAL_OR,
             fx_bin(e, GCOL_EXPR_GREATER, b, fx_lit(e, GCOL_FLOAT64, 200.0, true)), is_null);
  expect_as_filtered_after(f, &opt);
  /* b < 30 (nulls dropped by the comparison): b's pages to row 119 */
  opt.filter_root = fx_bin(e, GCOL_EXPR_LESS, b, fx_lit(e, GCOL_FLOAT64, 30.0, true));
  assert_true(expect_as_filtered_after(f, &opt) < all_pages / 4);
  /* a string predicate: s = "two" AND a in [600, 650) */
  gcol_scalar *two = NULL;
  GCOL_TEST_OK(gcol_scalar_create_string("two", 3, &two));
  int32_t two_id = -1;
  GCOL_TEST_OK(gcol_expression_add_literal(e, two, &two_id));
  gcol_scalar_free(two);
  opt.filter_root = fx_bin(e, GCOL_EXPR_LOGICAL_AND, fx_bin(e, GCOL_EXPR_EQUAL, s, two_id),
                           fx_range(e, a, 600, 650));
  assert_true(expect_as_filtered_after(f, &opt) < all_pages / 5);
  /* selected columns without the filter's, in another order; the filter's selected twice */
  opt.filter_root = fx_range(e, a, 333, 512);
  int32_t const picked[] = {3, 1};
  opt.columns = picked;
  opt.num_columns = 2;
  expect_as_filtered_after(f, &opt);
  int32_t const twice[] = {0, 2, 0};
  opt.columns = twice;
  opt.num_columns = 3;
  expect_as_filtered_after(f, &opt);
  opt.columns = NULL;
  opt.num_columns = 0;
  /* chosen row groups, out of order: read rows numbered in that order */
  int32_t const groups[] = {5, 3, 4, 2};
  opt.row_groups = groups;
  opt.num_row_groups = 4;
  assert_true(expect_as_filtered_after(f, &opt) < all_pages / 4);
  opt.filter_root =
      fx_bin(e, GCOL_EXPR_LOGICAL_OR, fx_range(e, a, 395, 405), fx_range(e, a, 295, 305));
  expect_as_filtered_after(f, &opt);
  opt.row_groups = NULL;
  opt.num_row_groups = 0;
  /* the same read from a path (a FILE source: the page index read through it) */
  {
    opt.filter_root = fx_range(e, a, 255, 423);
    gcol_table *from_buffer = NULL, *from_file = NULL;
    GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, &opt, &from_buffer, NULL, NULL));
    char path[] = "/tmp/gcol_pageskip_XXXXXX";
    int const fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, f->bytes, (size_t)f->size), f->size);
    close(fd);
    GCOL_TEST_OK(gcol_parquet_read_file(path, &opt, &from_file, NULL, NULL));
    unlink(path);
    gcol_table_view const x = gcol_table_get_view(from_buffer), y = gcol_table_get_view(from_file);
    for (int32_t k = 0; k < SCOLS; ++k) gcol_test_assert_columns_equal(x.columns[k], y.columns[k]);
    gcol_table_free(from_buffer);
    gcol_table_free(from_file);
  }
  gcol_expression_free(e);
  free(f->bytes);
  free(f);
}

/* Data pages of the skip file's columns, over the rows of num_groups of its row groups read
 * one after another, that hold a row of [lo, hi) (pages of 10, 7, 13 and 16 rows, each group
 * of SG rows starting a page). */
static int64_t pages_holding(int32_t num_groups, int64_t lo, int64_t hi) {
  static const int64_t rows_per_page[SCOLS] = {10, 7, 13, 16};
  int64_t n = 0;
  for (int32_t i = 0; i < num_groups; ++i) {
    for (int32_t k = 0; k < SCOLS; ++k) {
      for (int64_t first = 0; first < SG; first += rows_per_page[k]) {
        int64_t const last = first + rows_per_page[k] < SG ? first + rows_per_page[k] : SG;
        if ((int64_t)i * SG + first < hi && lo < (int64_t)i * SG + last) ++n;
      }
    }
  }
  return n;
}

/* A row range read whole decodes only the pages that hold its rows (no page index needed: the
 * skip file's column t has none), and its rows equal the whole read's: inside a page, across
 * pages and row groups, at their edges, to the end, past the end, empty, and over chosen row
 * groups out of file order. */
static void test_read_range_skipping_pages(void **state) {
  (void)state;
  skip_file *f = make_skip_file(0);
  int32_t const every[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  int32_t const chosen[] = {7, 2, 4};
  int64_t const ranges[][2] = {{0, 1},     {5, 3},     {95, 10}, {99, 1},   {130, 1},
                               {100, 100}, {250, 600}, {993, 0}, {0, 999},  {1, 0},
                               {999, 5},   {1000, 3},  {0, 0},   {150, 20}, {290, 0}};
  for (int c = 0; c < 2; ++c) {
    const int32_t *groups = c ? chosen : every;
    int32_t const num_groups = c ? 3 : 10;
    int64_t const all_rows = (int64_t)num_groups * SG;
    gcol_parquet_read_options opt;
    gcol_parquet_read_options_init(&opt);
    opt.row_groups = groups;
    opt.num_row_groups = num_groups;
    gcol_table *whole = NULL;
    GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, &opt, &whole, NULL, NULL));
    gcol_table_view const wv = gcol_table_get_view(whole);
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; ++r) {
      opt.skip_rows = ranges[r][0];
      opt.num_rows = ranges[r][1];
      int64_t const begin = opt.skip_rows < all_rows ? opt.skip_rows : all_rows;
      int64_t const end =
          opt.num_rows > 0 && opt.num_rows < all_rows - begin ? begin + opt.num_rows : all_rows;
      gcol_table *got = NULL;
      int64_t const before = gcol_detail_parquet_read_pages();
      GCOL_TEST_OK(gcol_parquet_read_buffer(f->bytes, f->size, &opt, &got, NULL, NULL));
      int64_t const pages = gcol_detail_parquet_read_pages() - before;
      gcol_table_view const gv = gcol_table_get_view(got);
      assert_int_equal(gv.num_columns, SCOLS);
      for (int32_t k = 0; k < SCOLS; ++k) {
        gcol_column_view part;
        GCOL_TEST_OK(gcol_column_view_slice(wv.columns[k], begin, end, &part));
        gcol_test_assert_columns_equal(part, gv.columns[k]);
        gcol_test_assert_null_count_consistent(gv.columns[k]);
      }
      if (begin < end) { /* an empty range reads no page of the groups it lies past */
        assert_int_equal(pages, pages_holding(num_groups, begin, end));
      }
      gcol_table_free(got);
    }
    gcol_table_free(whole);
  }
  free(f->bytes);
  free(f);
}

/* A page index that cannot be read (a's first row past its group's end) is not used: the
 * read decodes every page of the kept groups, with the same result. */
static void test_read_skipping_bad_index(void **state) {
  (void)state;
  skip_file *good = make_skip_file(0);
  skip_file *bad = make_skip_file(PQB_LIE_ROWS_ORDER);
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  opt.filter = e;
  opt.filter_root = fx_range(e, fx_col(e, 0), 255, 423);
  int64_t const skipping = expect_as_filtered_after(good, &opt);
  int64_t const whole_groups = expect_as_filtered_after(bad, &opt);
  assert_true(skipping < whole_groups);
  gcol_expression_free(e);
  free(good->bytes);
  free(good);
  free(bad->bytes);
  free(bad);
}

typedef struct skip_alloc_ctx {
  const skip_file *f;
  const gcol_parquet_read_options *opt;
  gcol_table *table;
} skip_alloc_ctx;

static gcol_status skip_read_op(void *p) {
  skip_alloc_ctx *c = (skip_alloc_ctx *)p;
  return gcol_parquet_read_buffer(c->f->bytes, c->f->size, c->opt, &c->table, NULL, NULL);
}

static void skip_read_cleanup(void *p) {
  skip_alloc_ctx *c = (skip_alloc_ctx *)p;
  gcol_table_free(c->table);
  c->table = NULL;
}

/* Allocation failure at every point of a read that skips pages and gathers the kept rows. */
static void test_allocation_failures_skipping(void **state) {
  (void)state;
  skip_file *f = make_skip_file(0);
  gcol_expression *e = NULL;
  GCOL_TEST_OK(gcol_expression_create(&e));
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  opt.filter = e;
  opt.filter_root = fx_range(e, fx_col(e, 0), 255, 423);
  skip_alloc_ctx c = {f, &opt, NULL};
  int const points = gcol_test_check_allocation_failures(skip_read_op, skip_read_cleanup, &c);
  assert_true(points > SCOLS);
  gcol_expression_free(e);
  free(f->bytes);
  free(f);
}

/* ==== end of the predicate pushdown tests ==== */

/* ---- nested columns (a pyarrow file, tests/io/parquet_nested_fixture.h) ---- */

/* The validity of every row of a view (any type) on the host. */
static void nested_valid(gcol_column_view v, uint8_t *valid) {
  gcol_column *b = NULL;
  assert_int_equal(gcol_is_valid(v, &b, NULL, NULL), GCOL_OK);
  assert_int_equal(gcol_column_copy_to_host(gcol_column_get_view(b), valid, NULL, NULL), GCOL_OK);
  gcol_column_free(b);
}

/* A LIST view's offsets (INT32, the slice honoured) on the host, and its validity. */
static void expect_list(gcol_column_view v, int64_t size, const int32_t *offsets,
                        const uint8_t *valid) {
  assert_int_equal(v.type.id, GCOL_LIST);
  assert_int_equal(v.size, size);
  gcol_column_view off = v.children[0];
  assert_int_equal(off.type.id, GCOL_INT32);
  off.offset += v.offset;
  off.size = size + 1;
  int32_t got[16];
  assert_int_equal(gcol_column_copy_to_host(off, got, NULL, NULL), GCOL_OK);
  for (int64_t i = 0; i <= size; ++i) assert_int_equal(got[i] - got[0], offsets[i]);
  uint8_t gv[16];
  nested_valid(v, gv);
  for (int64_t i = 0; i < size; ++i) assert_int_equal(gv[i] != 0, valid[i]);
}

/* Values [first, first + n) of a fixed-width view (nulls as INT32_MIN). */
static void expect_values(gcol_column_view v, int64_t first, int64_t n, const int32_t *want) {
  int64_t vals[16];
  uint8_t ok[16];
  gcol_column_view part = v;
  part.offset += first;
  part.size = n;
  size_t const w = gcol_type_size(v.type.id);
  uint8_t raw[16 * 8];
  assert_int_equal(gcol_column_copy_to_host(part, raw, ok, NULL), GCOL_OK);
  for (int64_t i = 0; i < n; ++i) {
    vals[i] = w == 2 ? *(int16_t *)(raw + i * 2) : *(int32_t *)(raw + i * 4);
    if (want[i] == INT32_MIN) {
      assert_int_equal(ok[i], 0);
    } else {
      assert_int_equal(ok[i], 1);
      assert_int_equal(vals[i], want[i]);
    }
  }
}

#define NUL INT32_MIN

/* The fixture's column l, list<int16>, and s.a. */
static const int32_t lo[] = {0, 2, 2, 2, 4, 5, 8};
static const uint8_t lv[] = {1, 0, 1, 1, 1, 1};
static const int32_t a[] = {1, NUL, NUL, 4, 5, 6};

/* The whole fixture table read from `file` (any of the fixture's encodings) with `opt`. */
static void expect_nested_table(const uint8_t *file, size_t size,
                                const gcol_parquet_read_options *opt) {
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, (int64_t)size, opt, &t, NULL, NULL));
  gcol_table_view tv = gcol_table_get_view(t);
  assert_int_equal(tv.num_columns, 2);
  expect_list(tv.columns[0], 6, lo, lv);
  gcol_column_view const li = tv.columns[0].children[1];
  assert_int_equal(li.type.id, GCOL_INT16);
  static const int32_t lvals[] = {1, 2, NUL, 3, 4, 5, 6, 7};
  expect_values(li, 0, 8, lvals);
  /* s: struct<a: int32, l: list<int32>> */
  gcol_column_view const s = tv.columns[1];
  assert_int_equal(s.type.id, GCOL_STRUCT);
  assert_int_equal(s.num_children, 2);
  assert_int_equal(s.null_count, 1);
  uint8_t sv[6];
  nested_valid(s, sv);
  static const uint8_t want_sv[] = {1, 0, 1, 1, 1, 1};
  assert_memory_equal(sv, want_sv, 6);
  expect_values(s.children[0], 0, 6, a);
  static const int32_t slo[] = {0, 1, 1, 1, 1, 3, 4};
  static const uint8_t slv[] = {1, 0, 0, 1, 1, 1};
  expect_list(s.children[1], 6, slo, slv);
  static const int32_t sl[] = {10, 11, 12, NUL};
  expect_values(s.children[1].children[1], 0, 4, sl);
  gcol_table_free(t);
}

/* Rows 2..4 of the fixture table read from `file`: a row range across row groups and lists. */
static void expect_nested_range(const uint8_t *file, size_t size) {
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  opt.skip_rows = 2;
  opt.num_rows = 3;
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, (int64_t)size, &opt, &t, NULL, NULL));
  gcol_table_view const tv = gcol_table_get_view(t);
  static const int32_t ro[] = {0, 0, 2, 3};
  static const uint8_t rv[] = {1, 1, 1};
  expect_list(tv.columns[0], 3, ro, rv);
  gcol_column_view const rl = tv.columns[0];
  int32_t first = 0;
  gcol_column_view o0 = rl.children[0];
  o0.offset += rl.offset;
  o0.size = 1;
  assert_int_equal(gcol_column_copy_to_host(o0, &first, NULL, NULL), GCOL_OK);
  static const int32_t rvals[] = {NUL, 3, 4};
  expect_values(rl.children[1], first, 3, rvals);
  assert_int_equal(tv.columns[1].size, 3);
  gcol_table_free(t);
}

static void test_read_nested(void **state) {
  (void)state;
  expect_nested_table(nested_fixture, sizeof nested_fixture, NULL);
  expect_nested_range(nested_fixture, sizeof nested_fixture);
  /* in batches of a row group each: every batch checks and assembles its own pieces */
  gcol_detail_parquet_set_batch_bytes(1);
  expect_nested_table(nested_fixture, sizeof nested_fixture, NULL);
  expect_nested_range(nested_fixture, sizeof nested_fixture);
  gcol_detail_parquet_set_batch_bytes(0);
  gcol_table *t = NULL;
  gcol_table_view tv;
  gcol_parquet_read_options opt;

  /* projection: by name (the struct, the list inside it), by a leaf index inside a list (its
   * whole top-level column), a leaf of a struct by index or dotted name (flat, as before);
   * nothing inside a list by name */
  const char *names[] = {"s.l", "s"};
  gcol_parquet_read_options_init(&opt);
  opt.column_names = names;
  opt.num_column_names = 2;
  opt.row_groups = (const int32_t[]){1};
  opt.num_row_groups = 1;
  assert_int_equal(gcol_parquet_read_buffer(nested_fixture, sizeof nested_fixture, &opt, &t, NULL,
                                            NULL),
                   GCOL_OK);
  tv = gcol_table_get_view(t);
  assert_int_equal(tv.num_columns, 2);
  static const int32_t go[] = {0, 0, 2, 3};
  static const uint8_t gv[] = {1, 1, 1};
  expect_list(tv.columns[0], 3, go, gv);
  assert_int_equal(tv.columns[1].type.id, GCOL_STRUCT);
  assert_int_equal(tv.columns[1].size, 3);
  gcol_table_free(t);
  gcol_parquet_metadata *md = NULL;
  assert_int_equal(gcol_parquet_metadata_read_buffer(nested_fixture, sizeof nested_fixture, &md),
                   GCOL_OK);
  int32_t const leaf_a = gcol_parquet_metadata_find_column(md, "s.a");
  int32_t const leaf_l = gcol_parquet_metadata_find_column(md, "l.list.element");
  assert_true(leaf_a >= 0 && leaf_l >= 0);
  gcol_parquet_metadata_free(md);
  int32_t const cols[] = {leaf_l, leaf_a};
  gcol_parquet_read_options_init(&opt);
  opt.columns = cols;
  opt.num_columns = 2;
  assert_int_equal(gcol_parquet_read_buffer(nested_fixture, sizeof nested_fixture, &opt, &t, NULL,
                                            NULL),
                   GCOL_OK);
  tv = gcol_table_get_view(t);
  expect_list(tv.columns[0], 6, lo, lv);
  assert_int_equal(tv.columns[1].type.id, GCOL_INT32);
  expect_values(tv.columns[1], 0, 6, a);
  gcol_table_free(t);
  const char *inside[] = {"l.list.element"};
  gcol_parquet_read_options_init(&opt);
  opt.column_names = inside;
  opt.num_column_names = 1;
  assert_int_equal(gcol_parquet_read_buffer(nested_fixture, sizeof nested_fixture, &opt, &t, NULL,
                                            NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "inside a list"));
}

/* A corrupt repetition level stream: the page named, no output. */
static void test_read_nested_corrupt(void **state) {
  (void)state;
  uint8_t *bytes = (uint8_t *)malloc(sizeof nested_fixture);
  assert_non_null(bytes);
  /* the first data page of column l: after "PAR1" its header, then the body's 4-byte
   * repetition levels length: made to claim more than the page holds */
  memcpy(bytes, nested_fixture, sizeof nested_fixture);
  gcol_detail_pq_page_header h;
  int64_t header = 0;
  char error[128];
  assert_true(gcol_detail_parquet_parse_page_header(bytes + 4, (int64_t)sizeof nested_fixture - 4,
                                                    &h, &header, error, (int)sizeof error));
  uint8_t *len = bytes + 4 + header;
  len[0] = 0xff;
  len[1] = 0xff;
  gcol_table *t = NULL;
  assert_int_equal(gcol_parquet_read_buffer(bytes, sizeof nested_fixture, NULL, &t, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), "row group 0, column 'l.list.element', page 0"));
  /* levels that decode but break the rules, checked on the GPU across the chunk: the page's
   * repetition levels (0, 1, 0, 0: [1, 2], null, []) are one bit-packed group */
  uint8_t *rep = len + 4;
  assert_int_equal(rep[0], 0x03);
  assert_int_equal(rep[1], 0x02);
  static const struct {
    uint8_t bits;
    const char *says;
  } bad[] = {
      {0x03, "level entry 0 (repetition 1, definition 3) does not start a row"},
      {0x06, "level entry 2 (repetition 1, definition 0) continues a list that does not exist"},
      {0x00, "row group 0, column 'l.list.element': its levels hold 4 rows, the row group 3"},
  };
  for (int k = 0; k < 6; ++k) { /* whole, then in batches of a row group */
    gcol_detail_parquet_set_batch_bytes(k < 3 ? 0 : 1);
    memcpy(bytes, nested_fixture, sizeof nested_fixture);
    rep[1] = bad[k % 3].bits;
    assert_int_equal(gcol_parquet_read_buffer(bytes, sizeof nested_fixture, NULL, &t, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(t);
    if (strstr(gcol_last_error(), bad[k % 3].says) == NULL) fail_msg("%s", gcol_last_error());
    if (k % 3 < 2) {
      assert_non_null(strstr(gcol_last_error(), "row group 0, column 'l.list.element', page 0"));
    }
  }
  gcol_detail_parquet_set_batch_bytes(0);
  free(bytes);
}

/* The fixture compressed: decompressed on the host (untrusted) and by nvCOMP, whose nested
 * pages keep their levels for the GPU (v1: both length prefixes read there); and in data
 * pages v2, whose levels are stored apart. */
static void test_read_nested_nvcomp(void **state) {
  (void)state;
  struct {
    const uint8_t *file;
    size_t size;
    int32_t codec;
    int64_t nvcomp_pages; /* 2 row groups x 3 leaves, a data page each, if compressed */
  } const files[] = {
      {nested_fixture_snappy, sizeof nested_fixture_snappy, GCOL_PARQUET_SNAPPY, 6},
      {nested_fixture_zstd, sizeof nested_fixture_zstd, GCOL_PARQUET_ZSTD, 6},
      {nested_fixture_v2, sizeof nested_fixture_v2, GCOL_PARQUET_ZSTD, 0},
  };
  gcol_parquet_read_options untrusted;
  gcol_parquet_read_options_init(&untrusted);
  untrusted.untrusted = true;
  for (int f = 0; f < 3; ++f) {
    if (gcol_detail_pq_codec_available(files[f].codec)) {
      int64_t const before = gcol_detail_parquet_nvcomp_pages();
      expect_nested_table(files[f].file, files[f].size, &untrusted);
      assert_int_equal(gcol_detail_parquet_nvcomp_pages(), before);
    }
    if (files[f].nvcomp_pages > 0 && !nvcomp_here(files[f].codec)) continue;
    int64_t const before = gcol_detail_parquet_nvcomp_pages();
    expect_nested_table(files[f].file, files[f].size, NULL);
    assert_int_equal(gcol_detail_parquet_nvcomp_pages() - before, files[f].nvcomp_pages);
    expect_nested_range(files[f].file, files[f].size);
    gcol_detail_parquet_set_batch_bytes(1); /* a batch per row group */
    expect_nested_table(files[f].file, files[f].size, NULL);
    gcol_detail_parquet_set_batch_bytes(0);
  }
}

/* Corrupt levels in pages nvCOMP decompresses: the GPU finds them, the page named. */
static void test_read_nested_corrupt_nvcomp(void **state) {
  (void)state;
  gcol_detail_pq_page_header h;
  int64_t header = 0;
  char error[128];
  gcol_table *t = NULL;
  if (nvcomp_here(GCOL_PARQUET_SNAPPY)) {
    /* SNAPPY v1: the page's first literal holds the repetition levels' length prefix */
    uint8_t *bytes = (uint8_t *)malloc(sizeof nested_fixture_snappy);
    assert_non_null(bytes);
    memcpy(bytes, nested_fixture_snappy, sizeof nested_fixture_snappy);
    assert_true(gcol_detail_parquet_parse_page_header(bytes + 4,
                                                      (int64_t)sizeof nested_fixture_snappy - 4, &h,
                                                      &header, error, (int)sizeof error));
    uint8_t *body = bytes + 4 + header;
    int at = 0;
    while (body[at] & 0x80) ++at; /* the uncompressed length's varint */
    uint8_t const tag = body[++at];
    assert_int_equal(tag & 3, 0);     /* a literal */
    assert_true((tag >> 2) + 1 >= 4); /* of at least the 4 bytes of the length */
    body[at + 1] = 0xff;
    body[at + 2] = 0xff;
    assert_int_equal(
        gcol_parquet_read_buffer(bytes, sizeof nested_fixture_snappy, NULL, &t, NULL, NULL),
        GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(t);
    assert_non_null(strstr(gcol_last_error(), "row group 0, column 'l.list.element', page 0"));
    assert_non_null(strstr(gcol_last_error(), "repetition levels' length prefix"));
    free(bytes);
  }
  {
    /* v2: the repetition levels (stored apart) made a run header that never ends */
    uint8_t *bytes = (uint8_t *)malloc(sizeof nested_fixture_v2);
    assert_non_null(bytes);
    memcpy(bytes, nested_fixture_v2, sizeof nested_fixture_v2);
    assert_true(gcol_detail_parquet_parse_page_header(
        bytes + 4, (int64_t)sizeof nested_fixture_v2 - 4, &h, &header, error, (int)sizeof error));
    assert_int_equal(h.type, GCOL_DETAIL_PQ_PAGE_DATA_V2);
    assert_true(h.rep_length > 0);
    memset(bytes + 4 + header, 0x80, (size_t)h.rep_length);
    assert_int_equal(
        gcol_parquet_read_buffer(bytes, sizeof nested_fixture_v2, NULL, &t, NULL, NULL),
        GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(t);
    assert_non_null(strstr(gcol_last_error(), "row group 0, column 'l.list.element', page 0"));
    assert_non_null(strstr(gcol_last_error(), "repetition levels end before"));
    free(bytes);
  }
}

/* A source whose first read of the file's data (after the footer's) fails once. */
typedef struct flaky_source {
  const uint8_t *file;
  int64_t data_end; /* where the footer starts */
  int failures;     /* left to give */
} flaky_source;

static int flaky_cb(void *user, int64_t offset, int64_t length, void *dst) {
  flaky_source *f = (flaky_source *)user;
  if (offset >= 4 && offset < f->data_end && f->failures > 0) {
    --f->failures;
    return 1;
  }
  memcpy(dst, f->file + offset, (size_t)length);
  return 0;
}

/* Reads that go through the staging resource (include/gcol/io/staging.h), whole and in
 * batches, from a path and from a source: with the built-in cache (it keeps what it took until
 * released), with a resource that refuses every request (no window: the chunks are read as
 * before), with pageable memory, and with a source whose window read fails (read again chunk
 * by chunk): every table equal to the buffer's read. */
static void test_read_staging(void **state) {
  (void)state;
  make_data(45);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build(1, 400, &size, cols);
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  gcol_mr *previous = NULL, *pinned = NULL, *refusing = NULL, *host = NULL;
  GCOL_TEST_OK(gcol_io_set_staging_mr(NULL, &previous));
  assert_null(previous);
  gcol_io_staging_release();
  expect_batched_as_whole(file, size, &opt, size / 4, READ_PATH);
  size_t held = 0, used = 0;
  int64_t blocks = 0;
  gcol_detail_staging_cache_info(gcol_io_get_staging_mr(), &held, &used, &blocks);
  assert_true(held > 0); /* kept for the next read */
  assert_int_equal(used, 0);
  int64_t const kept = blocks;
  for (int k = 0; k < 3; ++k) expect_batched_as_whole(file, size, &opt, size / 4, READ_SOURCE);
  gcol_detail_staging_cache_info(gcol_io_get_staging_mr(), &held, &used, &blocks);
  assert_true(blocks <= kept + 1); /* reused, not grown read after read */
  gcol_io_staging_release();
  gcol_detail_staging_cache_info(gcol_io_get_staging_mr(), &held, &used, &blocks);
  assert_int_equal(held, 0);

  GCOL_TEST_OK(gcol_mr_pinned_create(&pinned));
  GCOL_TEST_OK(gcol_mr_limit_create(pinned, 1, &refusing));
  GCOL_TEST_OK(gcol_io_set_staging_mr(refusing, NULL));
  expect_batched_as_whole(file, size, &opt, size / 4, READ_PATH);
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_io_set_staging_mr(host, &previous));
  assert_ptr_equal(previous, refusing);
  expect_batched_as_whole(file, size, &opt, size / 4, READ_PATH);
  expect_batched_as_whole(file, size, &opt, size / 4, READ_SOURCE);
  GCOL_TEST_OK(gcol_io_set_staging_mr(NULL, &previous));
  assert_ptr_equal(previous, host);
  assert_true(gcol_io_get_staging_mr() != host);

  gcol_table *expected = NULL, *t = NULL;
  GCOL_TEST_OK(gcol_parquet_read_buffer(file, size, NULL, &expected, NULL, NULL));
  int64_t const footer = (int64_t)file[size - 8] | (int64_t)file[size - 7] << 8 |
                         (int64_t)file[size - 6] << 16 | (int64_t)file[size - 5] << 24;
  flaky_source flaky = {file, size - 8 - footer, 1};
  gcol_parquet_source src = {size, flaky_cb, &flaky, "flaky"};
  for (int batched = 0; batched < 2; ++batched) {
    flaky.failures = 1;
    gcol_detail_parquet_set_batch_bytes(batched ? size / 4 : INT64_MAX / 4);
    GCOL_TEST_OK(gcol_parquet_read_source(&src, NULL, &t, NULL, NULL));
    gcol_detail_parquet_set_batch_bytes(0);
    assert_int_equal(flaky.failures, 0); /* the window's read failed, and was done again */
    assert_tables_same(gcol_table_get_view(expected), gcol_table_get_view(t));
    gcol_table_free(t);
    t = NULL;
  }
  gcol_table_free(expected);
  gcol_io_staging_release();
  gcol_mr_destroy(host);
  gcol_mr_destroy(refusing);
  gcol_mr_destroy(pinned);
  free(file);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_read_every_type),
      GCOL_TEST_GPU(test_read_delta_byte_array),
      GCOL_TEST_GPU(test_read_flba),
      GCOL_TEST_GPU(test_projection_and_row_groups),
      GCOL_TEST_GPU(test_read_file_and_source),
      GCOL_TEST_GPU(test_empty_and_all_null),
      GCOL_TEST_GPU(test_corrupt_pages_on_the_gpu),
      GCOL_TEST_GPU(test_write_and_read_back),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_read_compressed),
      GCOL_TEST_GPU(test_read_compressed_nvcomp),
      GCOL_TEST_GPU(test_corrupt_pages_nvcomp),
      GCOL_TEST_GPU(test_garbage_pages_before_nvcomp),
      GCOL_TEST_GPU(test_allocation_failures_nvcomp),
      GCOL_TEST_GPU(test_read_in_batches),
      GCOL_TEST_GPU(test_read_in_batches_compressed),
      GCOL_TEST_GPU(test_read_in_batches_corrupt),
      GCOL_TEST_GPU(test_allocation_failures_batched),
      /* GPU writer (issue 14) */
      GCOL_TEST_GPU(test_gpu_write_every_type),
      GCOL_TEST_GPU(test_gpu_write_slices),
      GCOL_TEST_GPU(test_gpu_write_pages_and_groups),
      GCOL_TEST_GPU(test_gpu_write_empty),
      GCOL_TEST_GPU(test_gpu_write_compressed),
      GCOL_TEST_GPU(test_gpu_write_dictionary),
      GCOL_TEST_GPU(test_gpu_write_dictionary_slices_codecs),
      /* parallel reader (issue 14) */
      GCOL_TEST_GPU(test_parallel_big_pages),
      GCOL_TEST_GPU(test_parallel_long_strings_and_tiny_pages),
      GCOL_TEST_GPU(test_parallel_corrupt_strings),
      /* predicate pushdown (issue 15) */
      GCOL_TEST_GPU(test_read_with_filter),
      GCOL_TEST_GPU(test_read_skipping_pages),
      GCOL_TEST_GPU(test_read_skipping_bad_index),
      GCOL_TEST_GPU(test_read_range_skipping_pages),
      GCOL_TEST_GPU(test_allocation_failures_skipping),
      GCOL_TEST_GPU(test_read_nested),
      GCOL_TEST_GPU(test_read_nested_corrupt),
      GCOL_TEST_GPU(test_read_nested_nvcomp),
      GCOL_TEST_GPU(test_read_nested_corrupt_nvcomp),
      GCOL_TEST_GPU(test_read_staging),
  };
  return GCOL_TEST_RUN_GPU("parquet", tests);
}
