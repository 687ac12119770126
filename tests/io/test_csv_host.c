/*
 * Host tests of the CSV reader's and writer's shared logic (lib/internal/csv.h), which the kernels
 * run as they are: the automaton, chunk transition functions composed on the CPU against one
 * sequential pass, rows and fields against the independent reference parser of csv_reference.c,
 * field values (quotes, doubled quotes, escapes), null/true/false matching, timestamps parsed and
 * formatted, the writer's quoting, options validation, and a seeded fuzzer over random bytes from
 * a CSV-heavy alphabet at many chunk sizes.
 */
#include <string.h>

#include "csv_reference.h"
#include "gcol/io/csv.h"
#include "internal/csv.h"
#include "test_util.h"

static gcol_detail_csv_dialect dialect(int escape, int comment) {
  return gcol_detail_csv_dialect_make(',', '"', (char)escape, (char)comment);
}

static void assert_same_function(const gcol_detail_csv_chunk *a, const gcol_detail_csv_chunk *b) {
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    assert_int_equal(a->rows[s], b->rows[s]);
    assert_int_equal(a->end_state[s], b->end_state[s]);
  }
}

/* The reader's kernels scan pieces through byte tables and compose a chunk from them (a tree
 * for the chunk, a scan for the row starts): the table scan, and the pieces composed left to
 * right and in a tree of pairs, equal the chunk's own function. */
static void check_pieces(gcol_detail_csv_dialect d, const uint8_t *b, int64_t begin, int64_t end,
                         const gcol_detail_csv_chunk *whole) {
  enum { PIECES = 8 };
  uint32_t next[256];
  bool begins[256];
  for (int c = 0; c < 256; ++c) next[c] = gcol_detail_csv_byte_transitions(d, c, &begins[c]);
  gcol_detail_csv_chunk by_table;
  gcol_detail_csv_scan_chunk_table(next, begins, b, begin, end, &by_table);
  assert_same_function(&by_table, whole);
  int64_t const piece = (end - begin + PIECES - 1) / PIECES;
  gcol_detail_csv_chunk fn[PIECES], prefix;
  gcol_detail_csv_chunk_identity(&prefix);
  for (int p = 0; p < PIECES; ++p) {
    int64_t const pb = begin + piece * p < end ? begin + piece * p : end;
    int64_t const pe = pb + piece < end ? pb + piece : end;
    gcol_detail_csv_scan_chunk(d, b, pb, pe, &fn[p]);
    if (pe - pb <= GCOL_DETAIL_CSV_PIECE_MAX) { /* kept between the kernels as a piece */
      gcol_detail_csv_chunk back;
      gcol_detail_csv_piece_unpack(gcol_detail_csv_piece_pack(&fn[p]), &back);
      assert_same_function(&back, &fn[p]);
    }
    gcol_detail_csv_chunk_then(&prefix, &fn[p], &prefix);
  }
  assert_same_function(&prefix, whole);
  for (int stride = 1; stride < PIECES; stride *= 2) {
    for (int p = 0; p + stride < PIECES; p += 2 * stride) {
      gcol_detail_csv_chunk_then(&fn[p], &fn[p + stride], &fn[p]);
    }
  }
  assert_same_function(&fn[0], whole);
}

/* Row starts of bytes[0, n) found through chunks of `chunk` bytes (composed as the reader does). */
static int64_t chunked_row_starts(gcol_detail_csv_dialect d, const uint8_t *b, int64_t n,
                                  int64_t chunk, int64_t *starts, int *final_state) {
  int64_t const nc = (n + chunk - 1) / chunk;
  gcol_detail_csv_chunk *chunks = malloc((size_t)(nc + 1) * sizeof *chunks);
  uint8_t *state = malloc((size_t)(nc + 1));
  int64_t *first = malloc((size_t)(nc + 1) * sizeof *first);
  for (int64_t k = 0; k < nc; ++k) {
    int64_t const e = (k + 1) * chunk < n ? (k + 1) * chunk : n;
    gcol_detail_csv_scan_chunk(d, b, k * chunk, e, &chunks[k]);
    check_pieces(d, b, k * chunk, e, &chunks[k]);
  }
  *final_state = GCOL_DETAIL_CSV_START;
  int64_t const rows = gcol_detail_csv_compose(chunks, nc, final_state, state, first);
  for (int64_t k = 0; k < nc; ++k) {
    int64_t const e = (k + 1) * chunk < n ? (k + 1) * chunk : n;
    int64_t const got = gcol_detail_csv_chunk_row_starts(d, b, k * chunk, e, state[k],
                                                         starts + first[k]);
    assert_int_equal(got, chunks[k].rows[state[k]]);
  }
  free(chunks);
  free(state);
  free(first);
  return rows;
}

/* gcol's rows and values of bytes[0, n) with chunks of `chunk`, against the reference. */
static void check_against_reference(const uint8_t *b, int64_t n, int escape, int comment,
                                    int64_t chunk) {
  gcol_detail_csv_dialect const d = dialect(escape, comment);
  csv_ref ref;
  csv_ref_parse(b, n, ',', '"', escape ? escape : -1, comment ? comment : -1, &ref);
  int64_t *starts = malloc((size_t)(n + 1) * sizeof *starts);
  int final_state;
  int64_t const rows = chunked_row_starts(d, b, n, chunk, starts, &final_state);
  if (rows != ref.num_rows) fail_msg("chunk %lld: %lld rows, reference %lld", (long long)chunk,
                                     (long long)rows, (long long)ref.num_rows);
  assert_int_equal(gcol_detail_csv_state_in_quotes(final_state), ref.open_quote);
  for (int64_t r = 0; r < rows; ++r) {
    assert_int_equal(starts[r], ref.rows[r].begin);
    int64_t begins[64], content_end;
    bool in_quotes;
    int64_t const fields =
        gcol_detail_csv_parse_row(d, b, starts[r], n, begins, 1, 64, &content_end, &in_quotes);
    assert_int_equal(fields, ref.rows[r].num_fields);
    assert_int_equal(in_quotes, ref.open_quote && r == rows - 1);
    for (int64_t k = 0; k < fields && k < 64; ++k) {
      int64_t const e = k + 1 < fields ? begins[k + 1] - 1 : content_end;
      int64_t const size = gcol_detail_csv_field_size(d, b, begins[k], e);
      assert_int_equal(size, ref.rows[r].fields[k].size);
      uint8_t *v = malloc((size_t)size + 1);
      assert_int_equal(gcol_detail_csv_field_copy(d, b, begins[k], e, v), size);
      assert_memory_equal(v, ref.rows[r].fields[k].value, (size_t)size);
      free(v);
    }
  }
  free(starts);
  csv_ref_free(&ref);
}

static void test_rows_and_fields(void **state) {
  (void)state;
  const char *cases[] = {
      "a,b\n1,2\n",
      "a,b\r\n1,2\r\n3,4",
      "\n\n a ,\"b,\nc\"\r\n\"x\"\"y\",\"\"\n",
      "\"open,\nnever closed",
      "#c,\"\n1,2\n#x\n3,\"#\"\n",
      "a\\,b,c\\\nd\n\"q\\\"q\",e\n",
      "\"ab\"cd\"e,f\n,,\n,\n",
      "",
      "\r",
      "x",
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int64_t const n = (int64_t)strlen(cases[i]);
    for (int64_t chunk = 1; chunk <= n + 1; ++chunk) {
      check_against_reference((const uint8_t *)cases[i], n, '\\', '#', chunk);
      check_against_reference((const uint8_t *)cases[i], n, 0, 0, chunk);
    }
  }
}

static void test_field_values(void **state) {
  (void)state;
  gcol_detail_csv_dialect const d = dialect('\\', 0);
  const char *f = "\"a\"\"b,\\\"c\"tail";
  uint8_t out[32];
  int64_t const n = gcol_detail_csv_field_copy(d, (const uint8_t *)f, 0, (int64_t)strlen(f), out);
  assert_int_equal(n, 10);
  assert_memory_equal(out, "a\"b,\"ctail", 10);
  const char *chars = "NAnull";
  int64_t offsets[3] = {0, 2, 6};
  gcol_detail_csv_list list = {chars, offsets, 2};
  assert_true(gcol_detail_csv_field_in(d, (const uint8_t *)"\"NA\"", 0, 4, list));
  assert_true(gcol_detail_csv_field_in(d, (const uint8_t *)"null", 0, 4, list));
  assert_false(gcol_detail_csv_field_in(d, (const uint8_t *)"nul", 0, 3, list));
  assert_false(gcol_detail_csv_field_in(d, (const uint8_t *)"NAN", 0, 3, list));
  int32_t k = -1;
  assert_true(gcol_detail_csv_bytes_in("null", 4, list, &k));
  assert_int_equal(k, 1);
}

static void test_timestamps(void **state) {
  (void)state;
  int64_t t = 0;
  assert_true(gcol_detail_csv_parse_timestamp("1970-01-02", 10, 0, &t));
  assert_int_equal(t, 1);
  assert_true(gcol_detail_csv_parse_timestamp("2000-02-29T01:02:03.5Z", 22, 2, &t));
  assert_int_equal(t, 951786123500LL);
  assert_true(gcol_detail_csv_parse_timestamp("1969-12-31 23:59:59.123456789", 29, 4, &t));
  assert_int_equal(t, -876543211LL);
  assert_false(gcol_detail_csv_parse_timestamp("1900-02-29", 10, 0, &t));
  assert_false(gcol_detail_csv_parse_timestamp("2020-01-01 24:00", 16, 1, &t));
  assert_false(gcol_detail_csv_parse_timestamp("2020-1-01", 9, 0, &t));
  assert_false(gcol_detail_csv_parse_timestamp("2020-01-01x", 11, 0, &t));
  /* formatting, then parsing back, at every unit */
  gcol_test_rng rng = gcol_test_rng_make(41);
  for (int i = 0; i < 2000; ++i) {
    int const unit = (int)gcol_test_rng_range(&rng, 0, 4);
    int64_t const v = unit == 0 ? gcol_test_rng_range(&rng, -700000, 2900000)
                                : gcol_test_rng_range(&rng, -60000000000LL, 250000000000LL) *
                                      (unit == 1 ? 1 : unit == 2 ? 1000 : unit == 3 ? 1000000 : 1000000000) +
                                      gcol_test_rng_range(&rng, 0, unit == 1 ? 0 : 999);
    char buf[48];
    int const len = gcol_detail_csv_format_timestamp(v, unit, buf);
    assert_int_equal(gcol_detail_csv_format_timestamp(v, unit, NULL), len);
    int64_t back = 0;
    if (!gcol_detail_csv_parse_timestamp(buf, len, unit, &back) || back != v) {
      fail_msg("unit %d: %lld -> '%.*s' -> %lld", unit, (long long)v, len, buf, (long long)back);
    }
  }
  char buf[48];
  int const len = gcol_detail_csv_format_timestamp(-1, 2, buf);
  assert_int_equal(len, 23);
  assert_memory_equal(buf, "1969-12-31 23:59:59.999", 23);
}

static void test_writer_fields(void **state) {
  (void)state;
  gcol_detail_csv_dialect const d = gcol_detail_csv_dialect_make(',', '"', 0, 0);
  char out[32];
  struct { const char *in, *want; } cases[] = {
      {"abc", "abc"}, {"", "\"\""}, {"a,b", "\"a,b\""}, {"a\"b", "\"a\"\"b\""}, {"x\ny", "\"x\ny\""},
      {"\r", "\"\r\""}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int64_t const len = (int64_t)strlen(cases[i].in);
    int64_t const n = gcol_detail_csv_put_field(d, cases[i].in, len, out);
    assert_int_equal(n, gcol_detail_csv_put_field(d, cases[i].in, len, NULL));
    assert_int_equal(n, (int64_t)strlen(cases[i].want));
    assert_memory_equal(out, cases[i].want, (size_t)n);
    /* and what the reader reads back is the value */
    uint8_t back[32];
    int64_t content_end, begins[4];
    bool q;
    assert_int_equal(
        gcol_detail_csv_parse_row(d, (const uint8_t *)out, 0, n, begins, 1, 4, &content_end, &q), 1);
    assert_int_equal(gcol_detail_csv_field_copy(d, (const uint8_t *)out, 0, content_end, back), len);
    assert_memory_equal(back, cases[i].in, (size_t)len);
  }
  gcol_detail_csv_dialect const raw = gcol_detail_csv_dialect_make(',', 0, 0, 0);
  assert_int_equal(gcol_detail_csv_put_field(raw, "a,b", 3, out), 3);
}

static void test_options(void **state) {
  (void)state;
  gcol_csv_read_options o;
  gcol_csv_read_options_init(&o);
  GCOL_TEST_OK(gcol_detail_csv_check_read_options(&o));
  assert_int_equal(o.delimiter, ',');
  assert_int_equal(o.max_rows, -1);
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(NULL), GCOL_ERROR_INVALID_ARGUMENT);
  o.delimiter = '\n';
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(&o), GCOL_ERROR_INVALID_ARGUMENT);
  o.delimiter = '"';
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(&o), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "quote"));
  gcol_csv_read_options_init(&o);
  o.escape = '"';
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(&o), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_csv_read_options_init(&o);
  o.skip_rows = -1;
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(&o), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_csv_read_options_init(&o);
  o.max_rows = -2;
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(&o), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_csv_read_options_init(&o);
  o.byte_range_size = -5;
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(&o), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_csv_read_options_init(&o);
  o.num_null_values = 2;
  const char *nulls[] = {"NA", NULL};
  o.null_values = nulls;
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(&o), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "null_values[1]"));
  gcol_csv_read_options_init(&o);
  gcol_data_type types[2] = {gcol_data_type_make(GCOL_INT32), gcol_data_type_make(GCOL_LIST)};
  o.column_types = types;
  o.num_column_types = 2;
  GCOL_TEST_STATUS(gcol_detail_csv_check_read_options(&o), GCOL_ERROR_UNSUPPORTED);
  types[1] = gcol_data_type_make(GCOL_EMPTY);
  GCOL_TEST_OK(gcol_detail_csv_check_read_options(&o));

  gcol_csv_write_options w;
  gcol_csv_write_options_init(&w);
  GCOL_TEST_OK(gcol_detail_csv_check_write_options(&w));
  w.line_terminator = "\r";
  GCOL_TEST_STATUS(gcol_detail_csv_check_write_options(&w), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_csv_write_options_init(&w);
  w.null_value = NULL;
  GCOL_TEST_STATUS(gcol_detail_csv_check_write_options(&w), GCOL_ERROR_INVALID_ARGUMENT);
  /* read arguments checked before any GPU work */
  gcol_table *t = NULL;
  GCOL_TEST_STATUS(gcol_csv_read_buffer(NULL, 4, NULL, &t, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_csv_read_buffer("a", -1, NULL, &t, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_csv_read_file("/nonexistent/x.csv", NULL, &t, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "/nonexistent/x.csv"));
  assert_null(t);
}

/* Random bytes from an alphabet of the special bytes: chunked == sequential == reference. */
static void test_fuzz(void **state) {
  (void)state;
  static const char alphabet[] = "ab,,\"\"\n\r\\#  ";
  gcol_test_rng rng = gcol_test_rng_make(1414);
  for (int it = 0; it < 3000; ++it) {
    int64_t const n = gcol_test_rng_range(&rng, 0, 200);
    uint8_t *b = malloc((size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; ++i) {
      b[i] = gcol_test_rng_range(&rng, 0, 9) == 0
                 ? (uint8_t)gcol_test_rng_next(&rng)
                 : (uint8_t)alphabet[gcol_test_rng_range(&rng, 0, (int64_t)sizeof alphabet - 2)];
    }
    int const escape = gcol_test_rng_range(&rng, 0, 1) ? '\\' : 0;
    int const comment = gcol_test_rng_range(&rng, 0, 1) ? '#' : 0;
    int64_t const chunk = gcol_test_rng_range(&rng, 1, 70);
    check_against_reference(b, n, escape, comment, chunk);
    free(b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rows_and_fields), cmocka_unit_test(test_field_values),
      cmocka_unit_test(test_timestamps),      cmocka_unit_test(test_writer_fields),
      cmocka_unit_test(test_options),         cmocka_unit_test(test_fuzz),
  };
  return GCOL_TEST_RUN("csv_host", tests);
}
