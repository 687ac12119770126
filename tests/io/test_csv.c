/*
 * GPU tests of the CSV reader and writer (include/gcol/io/csv.h): random CSV text (quoted fields
 * with delimiters, doubled quotes and newlines, CRLF, empty lines) read at chunk sizes that put
 * chunk boundaries everywhere and compared with the sequential reference parser
 * (csv_reference.c); inference; every option; byte ranges that tile the input; ragged rows and
 * unterminated quotes as errors naming the row; the writer read back (numbers bit for bit, and
 * byte for byte as printf writes them); allocation failures.
 * pyarrow's reader is compared by test_csv_python.py (suite clients).
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv_reference.h"
#include "gcol/cast.h"
#include "gcol/io/csv.h"
#include "gcol/io/staging.h"
#include "internal/csv.h"
#include "test_util.h"

/* Column `c` of `t` (STRING) must hold the reference's values of rows [first, first + n). */
static void check_strings(gcol_column_view v, const csv_ref *ref, int64_t first, int64_t c) {
  gcol_host_strings *hs = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(v, NULL, &hs));
  for (int64_t i = 0; i < v.size; ++i) {
    const csv_ref_field *f = &ref->rows[first + i].fields[c];
    int64_t const len = hs->offsets[i + 1] - hs->offsets[i];
    bool const is_null = f->size == 0; /* the default null value is the empty one */
    if (hs->valid[i] == is_null)
      fail_msg("row %lld column %lld: valid %d", (long long)i, (long long)c, hs->valid[i]);
    if (!is_null && (len != f->size || memcmp(hs->chars + hs->offsets[i], f->value, (size_t)len))) {
      fail_msg("row %lld column %lld: value differs", (long long)i, (long long)c);
    }
  }
  gcol_host_strings_free(hs);
}

/* Random CSV of `rows` rows of `cols` fields, every field a string. */
static char *random_csv(gcol_test_rng *rng, int64_t rows, int cols, int64_t *size) {
  static const char *pieces[] = {"a",        "bc",         "1", "x y",  "\"q,\"",
                                 "\"l\nl\"", "\"d\"\"q\"", "",  "\"\"", "zz"};
  size_t cap = 64, n = 0;
  char *s = malloc(cap);
  for (int64_t r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const char *p = pieces[gcol_test_rng_range(rng, 0, 9)];
      const char *sep =
          c + 1 < cols ? "," : (gcol_test_rng_range(rng, 0, 3) == 0 ? "\r\n\n" : "\n");
      size_t const need = strlen(p) + strlen(sep);
      while (n + need + 1 > cap) s = realloc(s, cap *= 2);
      memcpy(s + n, p, strlen(p));
      n += strlen(p);
      memcpy(s + n, sep, strlen(sep));
      n += strlen(sep);
    }
  }
  *size = (int64_t)n;
  return s;
}

static gcol_csv_read_options strings_options(int cols, gcol_data_type *types) {
  gcol_csv_read_options o;
  gcol_csv_read_options_init(&o);
  o.has_header = false;
  for (int c = 0; c < cols; ++c) types[c] = gcol_data_type_make(GCOL_STRING);
  o.column_types = types;
  o.num_column_types = cols;
  return o;
}

static void test_random_text_at_every_chunk_size(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(7);
  static const int64_t chunks[] = {1, 2, 3, 7, 64, 1000, GCOL_DETAIL_CSV_CHUNK};
  for (size_t si = 0; si < gcol_test_num_sizes; ++si) {
    int64_t const rows = gcol_test_cap(gcol_test_sizes[si] > 3000 ? 3000 : gcol_test_sizes[si]);
    int const cols = (int)gcol_test_rng_range(&rng, 1, 4);
    int64_t size;
    char *text = random_csv(&rng, rows, cols, &size);
    csv_ref ref;
    csv_ref_parse((const uint8_t *)text, size, ',', '"', -1, -1, &ref);
    /* (a one-column row of an empty field is an empty line: skipped by both) */
    gcol_data_type types[4];
    gcol_csv_read_options o = strings_options(cols, types);
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; ++k) {
      if (!gcol_test_keep_combination(si + k)) continue;
      gcol_table *t = NULL;
      GCOL_TEST_OK(gcol_detail_csv_read(text, size, &o, chunks[k], &t, NULL, NULL, NULL));
      assert_int_equal(t->num_columns, cols);
      assert_int_equal(t->num_rows, ref.num_rows);
      for (int c = 0; c < cols; ++c) check_strings(gcol_table_get_view(t).columns[c], &ref, 0, c);
      gcol_table_free(t);
    }
    csv_ref_free(&ref);
    free(text);
  }
}

static void copy_i64(gcol_column_view v, int64_t *out, uint8_t *valid) {
  GCOL_TEST_OK(gcol_column_copy_to_host(v, out, valid, NULL));
}

static void test_inference_and_names(void **state) {
  (void)state;
  const char *text = "\xef\xbb\xbfi,f,b,s,n\n1,1.5,true,x,\n-2,,FALSE,\"y,z\",\n,3,,\"\",\n";
  gcol_table *t = NULL;
  gcol_csv_names *names = NULL;
  GCOL_TEST_OK(gcol_csv_read_buffer(text, (int64_t)strlen(text), NULL, &t, &names, NULL, NULL));
  assert_int_equal(names->num_names, 5);
  assert_string_equal(names->names[0], "i");
  assert_string_equal(names->names[3], "s");
  assert_int_equal(gcol_table_get_view(t).columns[0].type.id, GCOL_INT64);
  assert_int_equal(gcol_table_get_view(t).columns[1].type.id, GCOL_FLOAT64);
  assert_int_equal(gcol_table_get_view(t).columns[2].type.id, GCOL_BOOL8);
  assert_int_equal(gcol_table_get_view(t).columns[3].type.id, GCOL_STRING);
  assert_int_equal(gcol_table_get_view(t).columns[4].type.id, GCOL_STRING); /* all null */
  assert_int_equal(gcol_table_get_view(t).columns[4].null_count, 3);
  int64_t iv[3];
  uint8_t valid[3];
  copy_i64(gcol_table_get_view(t).columns[0], iv, valid);
  assert_int_equal(iv[0], 1);
  assert_int_equal(iv[1], -2);
  assert_int_equal(valid[2], 0);
  double fv[3];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(t).columns[1], fv, valid, NULL));
  assert_true(fv[0] == 1.5 && valid[1] == 0 && fv[2] == 3.0);
  uint8_t bv[3];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(t).columns[2], bv, valid, NULL));
  assert_true(bv[0] == 1 && bv[1] == 0 && valid[0] && valid[1] && !valid[2]);
  gcol_host_strings *hs = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_table_get_view(t).columns[3], NULL, &hs));
  assert_memory_equal(hs->chars + hs->offsets[1], "y,z", 3);
  assert_int_equal(hs->valid[2], 0); /* "" quoted is still the null value */
  gcol_host_strings_free(hs);
  gcol_csv_names_free(names);
  gcol_table_free(t);
}

static void test_options(void **state) {
  (void)state;
  const char *text =
      "junk "
      "line\n#comment,\"\nx;y;z\r\nNA;1;yes\r\n\"a;b\";2;no\r\n#c\r\n\r\nq;-;yes\r\nr;4;no\r\n";
  const char *nulls[] = {"NA", "-"}, *trues[] = {"yes"}, *falses[] = {"no"};
  gcol_data_type types[3] = {gcol_data_type_make(GCOL_STRING), gcol_data_type_make(GCOL_INT32),
                             gcol_data_type_make(GCOL_EMPTY)};
  gcol_csv_read_options o;
  gcol_csv_read_options_init(&o);
  o.delimiter = ';';
  o.comment = '#';
  o.skip_rows = 1;
  o.null_values = nulls;
  o.num_null_values = 2;
  o.true_values = trues;
  o.num_true_values = 1;
  o.false_values = falses;
  o.num_false_values = 1;
  o.column_types = types;
  o.num_column_types = 3;
  o.max_rows = 3;
  gcol_table *t = NULL;
  gcol_csv_names *names = NULL;
  GCOL_TEST_OK(gcol_csv_read_buffer(text, (int64_t)strlen(text), &o, &t, &names, NULL, NULL));
  assert_string_equal(names->names[2], "z");
  assert_int_equal(t->num_rows, 3);
  assert_int_equal(gcol_table_get_view(t).columns[1].type.id, GCOL_INT32);
  assert_int_equal(gcol_table_get_view(t).columns[2].type.id, GCOL_BOOL8);
  int32_t iv[3];
  uint8_t valid[3];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(t).columns[1], iv, valid, NULL));
  assert_true(iv[0] == 1 && iv[1] == 2 && !valid[2]);
  gcol_host_strings *hs = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_table_get_view(t).columns[0], NULL, &hs));
  assert_int_equal(hs->valid[0], 0);
  assert_memory_equal(hs->chars + hs->offsets[1], "a;b", 3);
  gcol_host_strings_free(hs);
  gcol_csv_names_free(names);
  gcol_table_free(t);

  /* no header, names given, a TIMESTAMP column */
  const char *text2 = "2020-01-02,1\n1969-12-31 23:59:59.5,2\n";
  const char *given[] = {"when", "k"};
  gcol_data_type ts[2] = {gcol_data_type_make(GCOL_TIMESTAMP_MILLISECONDS),
                          gcol_data_type_make(GCOL_EMPTY)};
  gcol_csv_read_options_init(&o);
  o.has_header = false;
  o.column_names = given;
  o.num_column_names = 2;
  o.column_types = ts;
  o.num_column_types = 2;
  GCOL_TEST_OK(gcol_csv_read_buffer(text2, (int64_t)strlen(text2), &o, &t, &names, NULL, NULL));
  assert_string_equal(names->names[0], "when");
  int64_t tv[2];
  copy_i64(gcol_table_get_view(t).columns[0], tv, valid);
  assert_int_equal(tv[0], 18263LL * 86400000LL);
  assert_int_equal(tv[1], -500);
  gcol_csv_names_free(names);
  gcol_table_free(t);
}

/* Integer and float columns are parsed straight from their fields: every type, quoted values
 * (doubled quotes, an escape), null values, values that do not parse or overflow, and one
 * quoted value too long to unquote in place (its column goes through strings), each column
 * equal to reading it as STRING and then gcol_cast(). */
static void test_numbers_from_fields(void **state) {
  (void)state;
  static const gcol_type_id ids[] = {GCOL_INT8,   GCOL_INT16,  GCOL_INT32,   GCOL_INT64,
                                     GCOL_UINT8,  GCOL_UINT32, GCOL_UINT64,  GCOL_FLOAT32,
                                     GCOL_FLOAT64};
  enum { TYPES = sizeof ids / sizeof ids[0], ROWS = 12 };
  static const char *const cells[ROWS] = {
      "42",  "\"-7\"", "300",  "NA",    "",       "\"1\"\"2\"", "1e3",
      "0.5", " 12",    "-0",   "99999999999999999999", "x\\1"};
  char text[8192];
  size_t n = 0;
  for (int r = 0; r < ROWS + 1; ++r) {
    for (int c = 0; c < TYPES + 1; ++c) {
      const char *cell = cells[(r + c) % ROWS];
      char long_cell[200];
      if (r == ROWS) { /* a last row: columns 3 and TYPES - 1 get a quoted value of 150 digits */
        cell = "5";
        if (c == TYPES - 1 || c == 3) {
          memset(long_cell, '0', sizeof long_cell);
          long_cell[0] = '"';
          long_cell[150] = '1';
          long_cell[151] = '"';
          long_cell[152] = '\0';
          cell = long_cell;
        }
      }
      n += (size_t)snprintf(text + n, sizeof text - n, "%s%s", c > 0 ? "," : "", cell);
    }
    text[n++] = '\n';
  }
  gcol_data_type typed[TYPES + 1], strings[TYPES + 1];
  for (int c = 0; c < TYPES + 1; ++c) {
    typed[c] = gcol_data_type_make(c < TYPES ? ids[c] : GCOL_INT64);
    strings[c] = gcol_data_type_make(GCOL_STRING);
  }
  const char *nulls[] = {"NA"};
  gcol_csv_read_options o;
  gcol_csv_read_options_init(&o);
  o.has_header = false;
  o.escape = '\\';
  o.null_values = nulls;
  o.num_null_values = 1;
  o.num_column_types = TYPES + 1;
  gcol_table *got = NULL, *as_text = NULL;
  o.column_types = typed;
  GCOL_TEST_OK(gcol_csv_read_buffer(text, (int64_t)n, &o, &got, NULL, NULL, NULL));
  o.column_types = strings;
  GCOL_TEST_OK(gcol_csv_read_buffer(text, (int64_t)n, &o, &as_text, NULL, NULL, NULL));
  gcol_table_view const g = gcol_table_get_view(got), t = gcol_table_get_view(as_text);
  for (int c = 0; c < TYPES + 1; ++c) {
    gcol_column *want = NULL;
    GCOL_TEST_OK(gcol_cast(t.columns[c], typed[c], &want, NULL, NULL));
    gcol_test_assert_columns_equal(gcol_column_get_view(want), g.columns[c]);
    gcol_column_free(want);
  }
  gcol_table_free(got);
  gcol_table_free(as_text);
}

static void test_byte_ranges_tile_the_input(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(9);
  int64_t size;
  char *text = random_csv(&rng, gcol_test_cap(40), 2, &size);
  csv_ref ref;
  csv_ref_parse((const uint8_t *)text, size, ',', '"', -1, -1, &ref);
  gcol_data_type types[2];
  gcol_csv_read_options o = strings_options(2, types);
  /* a range may start where the byte before it does not lie inside quotes (nor close them) */
  bool *safe = malloc((size_t)size + 1);
  int st = GCOL_DETAIL_CSV_START;
  safe[0] = true;
  for (int64_t i = 0; i < size; ++i) {
    bool b;
    st = gcol_detail_csv_step(gcol_detail_csv_dialect_make(',', '"', 0, 0), st, (uint8_t)text[i],
                              &b);
    safe[i + 1] = st != GCOL_DETAIL_CSV_QUOTED && st != GCOL_DETAIL_CSV_QEND;
  }
  for (int it = 0; it < 20; ++it) {
    int64_t cut1 = gcol_test_rng_range(&rng, 0, size);
    while (!safe[cut1]) ++cut1;
    int64_t cut2 = gcol_test_rng_range(&rng, cut1, size);
    while (!safe[cut2]) ++cut2;
    int64_t const cuts[4] = {0, cut1, cut2, size};
    int64_t row = 0;
    for (int k = 0; k < 3; ++k) {
      int64_t const begin = cuts[k];
      o.byte_range_offset = begin;
      o.byte_range_size = cuts[k + 1] - begin;
      if (o.byte_range_size == 0) continue;
      gcol_table *t = NULL;
      GCOL_TEST_OK(gcol_detail_csv_read(text, size, &o, 5, &t, NULL, NULL, NULL));
      for (int c = 0; c < 2; ++c) check_strings(gcol_table_get_view(t).columns[c], &ref, row, c);
      row += t->num_rows;
      gcol_table_free(t);
    }
    assert_int_equal(row, ref.num_rows);
  }
  /* ranges cut exactly at row starts always tile */
  o.byte_range_offset = ref.rows[ref.num_rows / 2].begin;
  o.byte_range_size = 0;
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_detail_csv_read(text, size, &o, 3, &t, NULL, NULL, NULL));
  assert_int_equal(t->num_rows, ref.num_rows - ref.num_rows / 2);
  check_strings(gcol_table_get_view(t).columns[0], &ref, ref.num_rows / 2, 0);
  gcol_table_free(t);
  csv_ref_free(&ref);
  free(safe);
  free(text);
}

static void test_bad_input_names_the_row(void **state) {
  (void)state;
  gcol_table *t = NULL;
  const char *ragged = "a,b\n1,2\n3\n4,5\n";
  GCOL_TEST_STATUS(
      gcol_csv_read_buffer(ragged, (int64_t)strlen(ragged), NULL, &t, NULL, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "row 1 (byte offset 8) has 1 fields, expected 2"));
  assert_null(t);
  const char *open = "a,b\n1,2\n\"3,4\n5,6\n";
  GCOL_TEST_STATUS(gcol_csv_read_buffer(open, (int64_t)strlen(open), NULL, &t, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "row 1"));
  assert_non_null(strstr(gcol_last_error(), "unterminated quote"));
  const char *header = "\"a,b\n";
  GCOL_TEST_STATUS(
      gcol_csv_read_buffer(header, (int64_t)strlen(header), NULL, &t, NULL, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  /* random bytes: a status, never a crash */
  gcol_test_rng rng = gcol_test_rng_make(11);
  /* under the tools 40 inputs, each still of 0..127 bytes over chunks of 4 (the same kernels
   * and error paths): one read is ~0.4 s under racecheck, 200 of them 86 s */
  int const inputs = (int)gcol_test_if_sparse(200, 40);
  for (int it = 0; it < inputs; ++it) {
    char buf[128];
    int64_t const n = gcol_test_rng_range(&rng, 0, 127);
    for (int64_t i = 0; i < n; ++i) buf[i] = "a,\"\n\r#"[gcol_test_rng_range(&rng, 0, 5)];
    gcol_status const st = gcol_detail_csv_read(buf, n, NULL, 4, &t, NULL, NULL, NULL);
    assert_true(st == GCOL_OK || st == GCOL_ERROR_INVALID_ARGUMENT);
    gcol_table_free(t);
    t = NULL;
  }
  /* empty input: an empty table */
  GCOL_TEST_OK(gcol_csv_read_buffer("", 0, NULL, &t, NULL, NULL, NULL));
  assert_int_equal(t->num_columns, 0);
  gcol_table_free(t);
}

static void test_write_and_read_back(void **state) {
  (void)state;
  const char *text =
      "i,f,b,s,t\n1,0.1,true,\"a,\"\"b\"\"\nc\",2020-01-02\n,-1e300,false,,\n"
      "-9223372036854775808,,,\"\",1969-12-31\n";
  gcol_data_type types[5] = {gcol_data_type_make(GCOL_EMPTY), gcol_data_type_make(GCOL_EMPTY),
                             gcol_data_type_make(GCOL_EMPTY), gcol_data_type_make(GCOL_STRING),
                             gcol_data_type_make(GCOL_TIMESTAMP_DAYS)};
  gcol_csv_read_options o;
  gcol_csv_read_options_init(&o);
  o.column_types = types;
  o.num_column_types = 5;
  gcol_table *t = NULL, *back = NULL;
  GCOL_TEST_OK(gcol_csv_read_buffer(text, (int64_t)strlen(text), &o, &t, NULL, NULL, NULL));
  const char *names[] = {"i", "f", "b", "s", "t"};
  for (int crlf = 0; crlf < 2; ++crlf) {
    gcol_csv_write_options w;
    gcol_csv_write_options_init(&w);
    w.column_names = names;
    w.line_terminator = crlf ? "\r\n" : "\n";
    void *out = NULL;
    int64_t size = 0;
    GCOL_TEST_OK(gcol_csv_write_buffer(gcol_table_get_view(t), &w, &out, &size, NULL));
    GCOL_TEST_OK(gcol_csv_read_buffer(out, size, &o, &back, NULL, NULL, NULL));
    assert_int_equal(back->num_rows, 3);
    for (int c = 0; c < 5; ++c)
      gcol_test_assert_columns_equal(gcol_table_get_view(t).columns[c],
                                     gcol_table_get_view(back).columns[c]);
    gcol_table_free(back);
    back = NULL;
    gcol_csv_buffer_free(out);
  }
  gcol_table_free(t);
}

/* A random finite double: every exponent, uniform [0, 1) (the benchmark's), subnormals. */
static double random_double(gcol_test_rng *rng, int64_t i) {
  double x;
  uint64_t bits = gcol_test_rng_next(rng);
  switch (i % 4) {
    case 0: return gcol_test_rng_double(rng);
    case 1: bits &= 0x800FFFFFFFFFFFFFull; break; /* subnormal (or zero) */
    default: break;
  }
  memcpy(&x, &bits, sizeof x);
  return isfinite(x) ? x : 1.0 / (double)(i + 1);
}

/* Rows of random doubles, floats and integers (with nulls, and +-inf) written, then read back
 * with their types: the text equals printf's %.17g / %.9g / %lld (the bytes gcol_cast made before
 * the row kernel formatted numbers itself), and every value reads back to the same bits, as
 * through gcol_cast to STRING and back. Enough rows for the staged copy out (> 16 MiB). */
static void test_numbers_round_trip_bit_exact(void **state) {
  (void)state;
  int64_t const n = 400000;
  gcol_test_rng rng = gcol_test_rng_make(801);
  double *d = (double *)malloc((size_t)n * sizeof *d), *d_back = (double *)malloc((size_t)n * sizeof *d);
  float *f = (float *)malloc((size_t)n * sizeof *f), *f_back = (float *)malloc((size_t)n * sizeof *f);
  int64_t *i64 = (int64_t *)malloc((size_t)n * sizeof *i64), *i_back = (int64_t *)malloc((size_t)n * sizeof *i64);
  uint8_t *valid = (uint8_t *)malloc((size_t)n), *v_back = (uint8_t *)malloc((size_t)n);
  char *want = (char *)malloc((size_t)n * 64 + 64);
  assert_non_null(d && d_back && f && f_back && i64 && i_back && valid && v_back && want);
  int64_t w = (int64_t)snprintf(want, 64, "d,f,i\n");
  for (int64_t r = 0; r < n; ++r) {
    d[r] = r == 7 ? INFINITY : r == 8 ? -INFINITY : random_double(&rng, r);
    uint32_t const fb = (uint32_t)gcol_test_rng_next(&rng);
    memcpy(&f[r], &fb, sizeof fb);
    if (!isfinite(f[r])) f[r] = (float)r;
    i64[r] = (int64_t)gcol_test_rng_next(&rng) >> (r % 64);
    valid[r] = r % 11 != 5;
    if (valid[r]) {
      w += snprintf(want + w, 64, "%.17g,%.9g,%lld\n", d[r], (double)f[r], (long long)i64[r]);
    } else {
      w += snprintf(want + w, 64, ",,\n");
    }
  }
  gcol_column *cols[3] = {NULL, NULL, NULL};
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), n, d, valid, NULL, NULL, &cols[0]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT32), n, f, valid, NULL, NULL, &cols[1]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, i64, valid, NULL, NULL, &cols[2]));
  gcol_table *t = NULL, *back = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 3, &t));
  const char *names[] = {"d", "f", "i"};
  gcol_csv_write_options wo;
  gcol_csv_write_options_init(&wo);
  wo.column_names = names;
  void *text = NULL;
  int64_t size = 0;
  GCOL_TEST_OK(gcol_csv_write_buffer(gcol_table_get_view(t), &wo, &text, &size, NULL));
  assert_int_equal(size, w);
  assert_memory_equal(text, want, (size_t)w);
  gcol_data_type types[3] = {gcol_data_type_make(GCOL_FLOAT64), gcol_data_type_make(GCOL_FLOAT32),
                             gcol_data_type_make(GCOL_INT64)};
  gcol_csv_read_options ro;
  gcol_csv_read_options_init(&ro);
  ro.column_types = types;
  ro.num_column_types = 3;
  GCOL_TEST_OK(gcol_csv_read_buffer(text, size, &ro, &back, NULL, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(back).columns[0], d_back, v_back, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(back).columns[1], f_back, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(back).columns[2], i_back, NULL, NULL));
  for (int64_t r = 0; r < n; ++r) {
    if ((v_back[r] != 0) != (valid[r] != 0)) fail_msg("row %lld: validity", (long long)r);
    if (!valid[r]) continue;
    if (memcmp(&d_back[r], &d[r], sizeof d[r]) != 0) {
      fail_msg("row %lld: double %a read back as %a", (long long)r, d[r], d_back[r]);
    }
    if (memcmp(&f_back[r], &f[r], sizeof f[r]) != 0) {
      fail_msg("row %lld: float %a read back as %a", (long long)r, (double)f[r], (double)f_back[r]);
    }
    if (i_back[r] != i64[r]) fail_msg("row %lld: int64", (long long)r);
  }
  /* the same through gcol_cast: FLOAT64/FLOAT32 -> STRING -> back */
  for (int c = 0; c < 2; ++c) {
    gcol_column *str = NULL, *num = NULL;
    gcol_column_view const v = gcol_table_get_view(t).columns[c];
    GCOL_TEST_OK(gcol_cast(v, gcol_data_type_make(GCOL_STRING), &str, NULL, NULL));
    GCOL_TEST_OK(gcol_cast(gcol_column_get_view(str), v.type, &num, NULL, NULL));
    gcol_test_assert_columns_equal(v, gcol_column_get_view(num));
    GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(num), c == 0 ? (void *)d_back : (void *)f_back, NULL, NULL));
    for (int64_t r = 0; r < n; ++r) {
      if (valid[r] && (c == 0 ? memcmp(&d_back[r], &d[r], 8) : memcmp(&f_back[r], &f[r], 4)) != 0) {
        fail_msg("row %lld: gcol_cast round trip of column %d", (long long)r, c);
      }
    }
    gcol_column_free(str);
    gcol_column_free(num);
  }
  gcol_csv_buffer_free(text);
  gcol_table_free(back);
  gcol_table_free(t);
  free(d); free(d_back); free(f); free(f_back); free(i64); free(i_back); free(valid); free(v_back);
  free(want);
}

/* Strings whose rows fill a block's shared tile or overflow it (256 rows of 200..400 bytes
 * go straight to global memory) or mix both, with delimiters, quotes and newlines to quote and
 * nulls: written and read back equal. */
static void test_long_and_short_rows_write_and_read_back(void **state) {
  (void)state;
  int64_t const n = 3000;
  static const char alphabet[] = "0123456789xy,\"\n";
  gcol_test_rng rng = gcol_test_rng_make(802);
  char **values = (char **)calloc((size_t)n, sizeof *values);
  assert_non_null(values);
  for (int64_t r = 0; r < n; ++r) {
    if (r % 13 == 0) continue; /* null */
    int64_t const len = r < 256 ? gcol_test_rng_range(&rng, 5, 20)
                        : r < 512 ? gcol_test_rng_range(&rng, 200, 400)
                                  : gcol_test_rng_range(&rng, 5, 300);
    values[r] = (char *)malloc((size_t)len + 1);
    assert_non_null(values[r]);
    for (int64_t k = 0; k < len; ++k) {
      values[r][k] = alphabet[gcol_test_rng_next(&rng) % (sizeof alphabet - 1)];
    }
    values[r][len] = '\0';
  }
  /* a row number first: a null string alone would write a blank line, which readers skip */
  int32_t *row = (int32_t *)malloc(sizeof *row * (size_t)n);
  assert_non_null(row);
  for (int64_t r = 0; r < n; ++r) row[r] = (int32_t)r;
  gcol_column *cols[2] = {NULL, NULL};
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, row, NULL, NULL,
                                            NULL, &cols[0]));
  free(row);
  GCOL_TEST_OK(gcol_column_create_strings_from_host(n, (const char *const *)values, NULL, NULL,
                                                    NULL, &cols[1]));
  gcol_table *t = NULL, *back = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 2, &t));
  void *text = NULL;
  int64_t size = 0;
  GCOL_TEST_OK(gcol_csv_write_buffer(gcol_table_get_view(t), NULL, &text, &size, NULL));
  gcol_data_type types[2] = {gcol_data_type_make(GCOL_INT32), gcol_data_type_make(GCOL_STRING)};
  gcol_csv_read_options ro;
  gcol_csv_read_options_init(&ro);
  ro.column_types = types;
  ro.num_column_types = 2;
  GCOL_TEST_OK(gcol_csv_read_buffer(text, size, &ro, &back, NULL, NULL, NULL));
  assert_int_equal(back->num_rows, n);
  for (int c = 0; c < 2; ++c) {
    gcol_test_assert_columns_equal(gcol_table_get_view(t).columns[c],
                                   gcol_table_get_view(back).columns[c]);
  }
  gcol_csv_buffer_free(text);
  gcol_table_free(back);
  gcol_table_free(t);
  for (int64_t r = 0; r < n; ++r) free(values[r]);
  free(values);
}

typedef struct fault_ctx {
  const char *text;
  gcol_table *t;
} fault_ctx;

static gcol_status read_op(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  return gcol_detail_csv_read(c->text, (int64_t)strlen(c->text), NULL, 8, &c->t, NULL, NULL, NULL);
}

static void read_cleanup(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_table_free(c->t);
  c->t = NULL;
}

/* gcol_csv_read_file: the text read into staging memory (include/gcol/io/staging.h) on several
 * threads, and, where none can be had (a resource that refuses, pageable memory), into
 * malloc'd memory as before: the same table as the reference parser's every time. */
static void test_read_file(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(11);
  int const cols = 3;
  int64_t size = 0;
  char *text = random_csv(&rng, gcol_test_cap(1 << 20), cols, &size); /* ~10 MB: 4 MiB reads */
  csv_ref ref;
  csv_ref_parse((const uint8_t *)text, size, ',', '"', -1, -1, &ref);
  char path[] = "/tmp/gcol_csv_XXXXXX";
  int const fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, (size_t)size), size);
  close(fd);
  gcol_data_type types[3];
  gcol_csv_read_options o = strings_options(cols, types);
  gcol_mr *pinned = NULL, *refusing = NULL, *host = NULL;
  GCOL_TEST_OK(gcol_mr_pinned_create(&pinned));
  GCOL_TEST_OK(gcol_mr_limit_create(pinned, 1, &refusing));
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  gcol_mr *const staging[] = {NULL, refusing, host};
  for (int k = 0; k < 3; ++k) {
    GCOL_TEST_OK(gcol_io_set_staging_mr(staging[k], NULL));
    gcol_table *t = NULL;
    GCOL_TEST_OK(gcol_csv_read_file(path, &o, &t, NULL, NULL, NULL));
    assert_int_equal(t->num_columns, cols);
    assert_int_equal(t->num_rows, ref.num_rows);
    for (int c = 0; c < cols; ++c) check_strings(gcol_table_get_view(t).columns[c], &ref, 0, c);
    gcol_table_free(t);
  }
  GCOL_TEST_OK(gcol_io_set_staging_mr(NULL, NULL));
  gcol_io_staging_release();
  unlink(path);
  gcol_table *t = NULL;
  GCOL_TEST_STATUS(gcol_csv_read_file(path, &o, &t, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  assert_non_null(strstr(gcol_last_error(), path));
  gcol_mr_destroy(host);
  gcol_mr_destroy(refusing);
  gcol_mr_destroy(pinned);
  csv_ref_free(&ref);
  free(text);
}

static void test_allocation_failures(void **state) {
  (void)state;
  fault_ctx c = {"a,b,c\n1,x,true\n\"2\",\"y\nz\",false\n,,\n", NULL};
  assert_true(gcol_test_check_allocation_failures(read_op, read_cleanup, &c) > 10);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_random_text_at_every_chunk_size),
      GCOL_TEST_GPU(test_inference_and_names),
      GCOL_TEST_GPU(test_options),
      GCOL_TEST_GPU(test_numbers_from_fields),
      GCOL_TEST_GPU(test_byte_ranges_tile_the_input),
      GCOL_TEST_GPU(test_bad_input_names_the_row),
      GCOL_TEST_GPU(test_write_and_read_back),
      GCOL_TEST_GPU(test_numbers_round_trip_bit_exact),
      GCOL_TEST_GPU(test_long_and_short_rows_write_and_read_back),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_read_file),
  };
  return GCOL_TEST_RUN_GPU("csv", tests);
}
