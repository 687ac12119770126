/*
 * GPU tests of the strings conversions (include/gcol/strings/convert.h): every operation
 * against the per-row functions of convert_ops.h run on the host (which the host suite checks
 * against Python's answers) on TESTING.md's strings axes: sizes, slices whose first offset is
 * not 0, every validity pattern, "" vs null vs "\0", hex-like, %-escaped, multi-byte and
 * invalid bytes, INT64 offsets forced (input and output) by
 * gcol_set_large_offsets_threshold(); integer, BOOL8 and decimal inputs of every width,
 * sliced, with nulls; allocation failure at every point.
 */
#include "test_util.h"

#include "gcol/cast.h"
#include "gcol/strings/convert.h"
#include "strings/convert_ops.h"
#include "strings_test_data.h"

static const char *const pieces[] = {
    "0x",       "0X",           "0",    "1",    "7",   "f", "F", "a", "9",  "true",
    "%",        "%2",           "%41",  "%e9",  "%zz", " ", "/", "~", "-",  "+",
    "\xc3\xa9", "\xe2\x82\xac", "\x80", "\xff", "\0",  ".", "5", "e", "e-", "E+1"};
#define NUM_PIECES ((int64_t)(sizeof pieces / sizeof pieces[0]))

static host_strings make_strings(gcol_test_rng *rng, int64_t n, int64_t max_len,
                                 gcol_test_validity validity) {
  strings_recipe const recipe = {pieces, NUM_PIECES, 0, max_len, 0, false, true};
  return strings_random(rng, n, &recipe, validity);
}

/* ---------------------------------------------------------------- string inputs */

typedef enum s_op {
  S_TO_BOOLEANS = 0,   /* true_string "true" */
  S_TO_BOOLEANS_EMPTY, /* true_string "" */
  S_IS_HEX,
  S_HEX_INT8,
  S_HEX_INT16,
  S_HEX_INT32,
  S_HEX_INT64,
  S_HEX_UINT8,
  S_HEX_UINT16,
  S_HEX_UINT32,
  S_HEX_UINT64,
  S_URL_ENCODE,
  S_URL_DECODE,
  S_DEC32,  /* to_decimals, DECIMAL32 scale -2 */
  S_DEC64,  /* DECIMAL64 scale 1 */
  S_DEC128, /* DECIMAL128 scale -6 */
  NUM_S_OPS
} s_op;

static const char *const s_op_names[] = {
    "to_booleans", "to_booleans \"\"", "is_hex",     "hex int8",   "hex int16",  "hex int32",
    "hex int64",   "hex uint8",        "hex uint16", "hex uint32", "hex uint64", "url_encode",
    "url_decode",  "decimal32",        "decimal64",  "decimal128"};

static const gcol_data_type dec_types[] = {
    {GCOL_DECIMAL32, -2}, {GCOL_DECIMAL64, 1}, {GCOL_DECIMAL128, -6}};

static const gcol_type_id hex_types[] = {GCOL_INT8,  GCOL_INT16,  GCOL_INT32,  GCOL_INT64,
                                         GCOL_UINT8, GCOL_UINT16, GCOL_UINT32, GCOL_UINT64};

static gcol_status run_s_op(s_op op, gcol_column_view v, gcol_column **out) {
  gcol_scalar *word = NULL;
  gcol_status st = GCOL_OK;
  switch (op) {
    case S_TO_BOOLEANS:
    case S_TO_BOOLEANS_EMPTY:
      st = gcol_scalar_create_cstring(op == S_TO_BOOLEANS ? "true" : "", &word);
      if (st == GCOL_OK) st = gcol_strings_to_booleans(v, word, out, NULL, NULL);
      gcol_scalar_free(word);
      return st;
    case S_IS_HEX:
      return gcol_strings_is_hex(v, out, NULL, NULL);
    case S_URL_ENCODE:
      return gcol_strings_url_encode(v, out, NULL, NULL);
    case S_URL_DECODE:
      return gcol_strings_url_decode(v, out, NULL, NULL);
    case S_DEC32:
    case S_DEC64:
    case S_DEC128:
      return gcol_strings_to_decimals(v, dec_types[op - S_DEC32], out, NULL, NULL);
    default:
      return gcol_strings_hex_to_integers(v, gcol_data_type_make(hex_types[op - S_HEX_INT8]), out,
                                          NULL, NULL);
  }
}

/* The expected text of a url op for row s (malloc'ed, *len bytes). */
static char *url_expected(s_op op, const char *s, int64_t n, int64_t *len) {
  gcol_detail_sink count = gcol_detail_sink_make(NULL);
  if (op == S_URL_ENCODE)
    gcol_detail_url_encode_row(s, n, &count);
  else
    gcol_detail_url_decode_row(s, n, &count);
  char *out = (char *)malloc((size_t)count.size + 1);
  gcol_detail_sink k = gcol_detail_sink_make(out);
  if (op == S_URL_ENCODE)
    gcol_detail_url_encode_row(s, n, &k);
  else
    gcol_detail_url_decode_row(s, n, &k);
  *len = k.size;
  return out;
}

/* Rows [h_begin, h_begin + v.size) of h are v's; masked: h's validity applies. */
static void check_s_op(s_op op, const host_strings *h, int64_t h_begin, gcol_column_view v,
                       bool masked, bool wide, const char *what) {
  int64_t const n = v.size;
  gcol_column *out = NULL;
  int64_t const previous = gcol_set_large_offsets_threshold(wide ? 1 : INT32_MAX);
  gcol_status const st = run_s_op(op, v, &out);
  gcol_set_large_offsets_threshold(previous);
  GCOL_TEST_OK(st);
  assert_int_equal(out->size, n);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
  if (op == S_URL_ENCODE || op == S_URL_DECODE) {
    gcol_host_strings *hs = NULL;
    assert_int_equal(out->type.id, GCOL_STRING);
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
    for (int64_t i = 0; i < n; ++i) {
      int64_t len = 0, wn = 0;
      const char *s = strings_row(h, h_begin + i, &len);
      bool const valid = !masked || h->valid[h_begin + i];
      int64_t const gn = hs->offsets[i + 1] - hs->offsets[i];
      if ((hs->valid[i] != 0) != valid)
        fail_msg("%s (%s): row %lld validity", s_op_names[op], what, (long long)i);
      if (!valid) {
        assert_int_equal(gn, 0);
        continue;
      }
      char *want = url_expected(op, s, len, &wn);
      if (gn != wn || memcmp(hs->chars + hs->offsets[i], want, (size_t)wn) != 0) {
        fail_msg("%s (%s): row %lld has %lld bytes, want %lld", s_op_names[op], what, (long long)i,
                 (long long)gn, (long long)wn);
      }
      free(want);
    }
    if (n > 0 && hs->offsets[n] > 1) {
      assert_int_equal(out->children[0]->type.id, wide ? GCOL_INT64 : GCOL_INT32);
    }
    gcol_host_strings_free(hs);
    gcol_column_free(out);
    return;
  }
  int const width = (int)gcol_type_size(out->type.id);
  uint8_t *data = (uint8_t *)malloc((size_t)(n + 1) * 16);
  uint8_t *got_valid = (uint8_t *)malloc((size_t)n + 1);
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), data, got_valid, NULL));
  for (int64_t i = 0; i < n; ++i) {
    int64_t len = 0;
    const char *s = strings_row(h, h_begin + i, &len);
    bool valid = !masked || h->valid[h_begin + i];
    uint64_t want = 0, got = 0;
    memcpy(&got, data + i * width, (size_t)(width < 8 ? width : 8)); /* little-endian */
    if (op >= S_DEC32) {
      gcol_detail_dec_i128 w = 0, g = 0;
      valid =
          valid && gcol_detail_parse_decimal(s, len, dec_types[op - S_DEC32].scale, 8 * width, &w);
      if (width == 4) g = *(const int32_t *)(data + i * 4);
      if (width == 8) g = *(const int64_t *)(data + i * 8);
      if (width == 16) memcpy(&g, data + i * 16, 16); /* little-endian halves */
      if ((got_valid[i] != 0) != valid || (valid && g != w)) {
        fail_msg("%s (%s): row %lld is %lld (valid %d), want %lld (valid %d)", s_op_names[op], what,
                 (long long)i, (long long)g, got_valid[i], (long long)w, valid);
      }
      continue;
    }
    if (op == S_TO_BOOLEANS || op == S_TO_BOOLEANS_EMPTY) {
      want = gcol_detail_bytes_equal(s, len, "true", op == S_TO_BOOLEANS ? 4 : 0);
    } else if (op == S_IS_HEX) {
      want = gcol_detail_is_hex(s, len);
    } else {
      valid = valid && gcol_detail_hex_parse(s, len, 8 * width, &want);
    }
    if ((got_valid[i] != 0) != valid || (valid && got != want)) {
      fail_msg("%s (%s): row %lld is %llu (valid %d), want %llu (valid %d)", s_op_names[op], what,
               (long long)i, (unsigned long long)got, got_valid[i], (unsigned long long)want,
               valid);
    }
  }
  free(data);
  free(got_valid);
  gcol_column_free(out);
}

static void check_s_all(const host_strings *h, gcol_column_view view, int64_t begin, int64_t size,
                        int64_t h_begin, bool masked, const char *what) {
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_view_slice(view, begin, begin + size, &v));
  bool const wide = size > 0 && view.children[0].type.id == GCOL_INT64;
  for (int op = 0; op < NUM_S_OPS; ++op) check_s_op((s_op)op, h, h_begin, v, masked, wide, what);
}

static void run_dataset(gcol_test_rng *rng, int64_t n, int64_t max_len, gcol_test_validity validity,
                        int64_t begin, bool wide, const char *what) {
  host_strings h = make_strings(rng, n + begin + 2, max_len, validity);
  bool const masked = validity != GCOL_TEST_NO_MASK;
  gcol_column *col = strings_to_device(&h, wide, masked);
  char name[160];
  snprintf(name, sizeof name, "%s, %lld rows from %lld, %s, %s offsets", what, (long long)n,
           (long long)begin, gcol_test_validity_name(validity), wide ? "INT64" : "INT32");
  check_s_all(&h, gcol_column_get_view(col), begin, n, begin, masked, name);
  gcol_column_free(col);
  strings_free(&h);
}

/* ---------------------------------------------------------------- fixed-width inputs */

static const gcol_type_id int_types[] = {
    GCOL_INT8,   GCOL_INT16,  GCOL_INT32, GCOL_INT64,     GCOL_UINT8,     GCOL_UINT16,
    GCOL_UINT32, GCOL_UINT64, GCOL_BOOL8, GCOL_DECIMAL32, GCOL_DECIMAL64, GCOL_DECIMAL128};
static const int32_t fixed_scales[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, -3, 2, -20};

/* integers_to_hex (from_booleans for BOOL8, words "yes" / "") of rows [begin, begin + n) of
 * random values. */
static void check_fixed(gcol_test_rng *rng, gcol_type_id type, int32_t scale, int64_t n,
                        int64_t begin, gcol_test_validity validity, bool wide) {
  int const width = (int)gcol_type_size(type);
  bool const decimal = type == GCOL_DECIMAL32 || type == GCOL_DECIMAL64 || type == GCOL_DECIMAL128;
  int64_t const total = n + begin + 2;
  uint8_t *values = (uint8_t *)malloc((size_t)total * 16);
  uint8_t *valid = (uint8_t *)malloc((size_t)total);
  for (int64_t i = 0; i < total; ++i) {
    uint64_t v = gcol_test_rng_next(rng) >> gcol_test_rng_range(rng, 0, 63);
    if (gcol_test_rng_range(rng, 0, 7) == 0) v = 0;
    if (type == GCOL_BOOL8) v = (uint64_t)gcol_test_rng_range(rng, 0, 2);
    uint64_t const high = width == 16 ? gcol_test_rng_next(rng) : 0;
    memcpy(values + i * width, &v, (size_t)(width < 8 ? width : 8)); /* little-endian */
    if (width == 16) memcpy(values + i * width + 8, &high, 8);
  }
  gcol_test_fill_valid(rng, validity, valid, total);
  bool const masked = validity != GCOL_TEST_NO_MASK;
  gcol_column *col = NULL, *out = NULL;
  gcol_scalar *yes = NULL, *empty = NULL;
  GCOL_TEST_OK(gcol_scalar_create_cstring("yes", &yes));
  GCOL_TEST_OK(gcol_scalar_create_cstring("", &empty));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_decimal(type, scale), total, values,
                                            masked ? valid : NULL, NULL, NULL, &col));
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), begin, begin + n, &v));
  int64_t const previous = gcol_set_large_offsets_threshold(wide ? 1 : INT32_MAX);
  gcol_status const st = type == GCOL_BOOL8
                             ? gcol_strings_from_booleans(v, yes, empty, &out, NULL, NULL)
                         : decimal ? gcol_strings_from_decimals(v, &out, NULL, NULL)
                                   : gcol_strings_integers_to_hex(v, &out, NULL, NULL);
  gcol_set_large_offsets_threshold(previous);
  GCOL_TEST_OK(st);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
  gcol_host_strings *hs = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(out), NULL, &hs));
  for (int64_t i = 0; i < n; ++i) {
    int64_t const r = begin + i;
    bool const ok = !masked || valid[r];
    uint64_t bits = 0;
    memcpy(&bits, values + r * width, (size_t)(width < 8 ? width : 8));
    char *want = (char *)malloc(64); /* not an array: gcc sees the sink's saturation */
    int64_t wn = 0;
    if (decimal) {
      gcol_detail_dec_i128 d = 0;
      if (width == 4) d = *(const int32_t *)(values + r * 4);
      if (width == 8) d = *(const int64_t *)(values + r * 8);
      if (width == 16) memcpy(&d, values + r * 16, 16);
      gcol_detail_sink k = gcol_detail_sink_make(want);
      gcol_detail_decimal_to_text(d, scale, &k);
      wn = k.size;
    } else if (type == GCOL_BOOL8) {
      wn = bits != 0 ? 3 : 0;
      memcpy(want, "yes", 3);
    } else {
      gcol_detail_sink k = gcol_detail_sink_make(want);
      gcol_detail_to_hex_row(bits, width, &k);
      wn = k.size;
    }
    int64_t const gn = hs->offsets[i + 1] - hs->offsets[i];
    if ((hs->valid[i] != 0) != ok || (!ok && gn != 0) ||
        (ok && (gn != wn || memcmp(hs->chars + hs->offsets[i], want, (size_t)wn) != 0))) {
      fail_msg("%s row %lld of %lld from %lld: %lld bytes (valid %d), want %lld (valid %d)",
               gcol_type_name(type), (long long)i, (long long)n, (long long)begin, (long long)gn,
               hs->valid[i], (long long)wn, ok);
    }
    free(want);
  }
  if (n > 0 && hs->offsets[n] > 1) {
    assert_int_equal(out->children[0]->type.id, wide ? GCOL_INT64 : GCOL_INT32);
  }
  gcol_host_strings_free(hs);
  gcol_column_free(out);
  gcol_column_free(col);
  gcol_scalar_free(yes);
  gcol_scalar_free(empty);
  free(values);
  free(valid);
}

/* ---------------------------------------------------------------- tests */

static const int64_t sizes[] = {0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 257};
#define NUM_SIZES (sizeof sizes / sizeof sizes[0])

static void test_sizes(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(4410);
  for (size_t k = 0; k < NUM_SIZES; ++k) {
    if (!gcol_test_in_sparse_part(state, k)) continue; /* halved under the tools */
    run_dataset(&rng, sizes[k], 12, GCOL_TEST_RANDOM_NULLS, 0, false, "short");
    run_dataset(&rng, sizes[k], 40, GCOL_TEST_RANDOM_NULLS, 0, false, "long");
  }
  if (gcol_test_in_part(state, NUM_SIZES)) {
    run_dataset(&rng, gcol_test_cap(3001), 16, GCOL_TEST_NO_MASK, 0, false, "large");
  }
}

static void run_slices_validity(void **state, uint64_t salt, bool wide) {
  gcol_test_rng rng = gcol_test_rng_make(salt);
  static const int64_t begins[] = {1, 3, 33, 65};
  for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
    for (size_t b = 0; b < sizeof begins / sizeof begins[0]; ++b) {
      if (!gcol_test_in_part(state, (size_t)v * 4 + b)) continue;
      if (!gcol_test_keep_combination((size_t)v + b)) continue;
      run_dataset(&rng, 129, 14, (gcol_test_validity)v, begins[b], wide, "sliced");
    }
  }
}

static void test_slices_validity(void **state) { run_slices_validity(state, 4411, false); }

static void test_slices_validity_int64_offsets(void **state) {
  run_slices_validity(state, 4412, true);
}

static void test_special_rows(void **state) {
  (void)state;
  /* "" vs null vs "\0", prefixes alone, escapes cut short, widths at their limits */
  const char *const rows[] = {"",
                              NULL,
                              "\0",
                              "0x",
                              "0xff",
                              "FF",
                              "%",
                              "%4",
                              "%41",
                              "true",
                              "TRUE",
                              "ffffffffffffffff",
                              "10000000000000000",
                              "a b",
                              "\xc3\xa9",
                              "0x0000000000000000000001",
                              ""};
  int64_t const lens[] = {0, 0, 1, 2, 4, 2, 1, 2, 3, 4, 4, 16, 17, 3, 2, 24, 0};
  int64_t const n = (int64_t)(sizeof lens / sizeof lens[0]);
  host_strings h = strings_rows(rows, lens, n);
  for (int wide = 0; wide < 2; ++wide) {
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    gcol_column_view slice;
    check_s_all(&h, gcol_column_get_view(col), 0, n, 0, true, "special rows");
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 2, n - 1, &slice));
    check_s_all(&h, slice, 1, 6, 3, true, "slice of a slice");
    check_s_all(&h, gcol_column_get_view(col), n, 0, n, true, "zero-length slice at the end");
    gcol_column_free(col);
  }
  strings_free(&h);
  gcol_test_rng rng = gcol_test_rng_make(4413);
  run_dataset(&rng, 300, 6, GCOL_TEST_ALL_NULL, 5, false, "all null");
}

static void test_integer_inputs(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(4414);
  size_t const num_types = sizeof int_types / sizeof int_types[0];
  for (size_t t = 0; t < num_types; ++t) {
    if (!gcol_test_in_part(state, t)) continue;
    for (size_t k = 0; k < NUM_SIZES; ++k) {
      check_fixed(&rng, int_types[t], fixed_scales[t], sizes[k], 0, GCOL_TEST_RANDOM_NULLS, false);
    }
    for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
      check_fixed(&rng, int_types[t], fixed_scales[t], 129, 1 + 32 * (v % 3), (gcol_test_validity)v,
                  v % 2 == 1);
    }
  }
}

/* gcol_cast between STRING and decimals is these functions. */
static void test_cast_decimals(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4417);
  host_strings h = make_strings(&rng, 300, 12, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = strings_to_device(&h, true, true);
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 5, 290, &v));
  for (size_t t = 0; t < sizeof dec_types / sizeof dec_types[0]; ++t) {
    gcol_column *a = NULL, *b = NULL, *ta = NULL, *tb = NULL;
    GCOL_TEST_OK(gcol_cast(v, dec_types[t], &a, NULL, NULL));
    GCOL_TEST_OK(gcol_strings_to_decimals(v, dec_types[t], &b, NULL, NULL));
    gcol_test_assert_columns_equal(gcol_column_get_view(a), gcol_column_get_view(b));
    GCOL_TEST_OK(
        gcol_cast(gcol_column_get_view(a), gcol_data_type_make(GCOL_STRING), &ta, NULL, NULL));
    GCOL_TEST_OK(gcol_strings_from_decimals(gcol_column_get_view(b), &tb, NULL, NULL));
    gcol_test_assert_columns_equal(gcol_column_get_view(ta), gcol_column_get_view(tb));
    gcol_column_free(a);
    gcol_column_free(b);
    gcol_column_free(ta);
    gcol_column_free(tb);
  }
  gcol_column_free(col);
  strings_free(&h);
}

/* Bad arguments on device data: the specific status, nothing leaked, then a valid call. */
static void test_bad_input(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4415);
  host_strings h = make_strings(&rng, 20, 10, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = strings_to_device(&h, false, true);
  gcol_column_view const v = gcol_column_get_view(col);
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  int64_t const live = gcol_test_live_bytes();
  GCOL_TEST_STATUS(gcol_strings_integers_to_hex(v, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(
      gcol_strings_hex_to_integers(v, gcol_data_type_make(GCOL_FLOAT32), &out, NULL, NULL),
      GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  assert_int_equal(gcol_test_live_bytes(), live);
  GCOL_TEST_OK(gcol_strings_url_encode(v, &out, NULL, NULL));
  gcol_column_free(out);
  gcol_column_free(col);
  strings_free(&h);
}

/* ---------------------------------------------------------------- faults */

typedef struct fault_ctx {
  gcol_column_view strings, ints, bools;
  gcol_column_view decs;
  int op; /* s_op, then NUM_S_OPS: integers_to_hex, + 1: from_booleans, + 2: from_decimals */
  gcol_scalar *yes;
  gcol_column *out;
} fault_ctx;

static gcol_status fault_op(void *ctx) {
  fault_ctx *c = (fault_ctx *)ctx;
  c->out = NULL;
  if (c->op < NUM_S_OPS) return run_s_op((s_op)c->op, c->strings, &c->out);
  if (c->op == NUM_S_OPS) return gcol_strings_integers_to_hex(c->ints, &c->out, NULL, NULL);
  if (c->op == NUM_S_OPS + 2) return gcol_strings_from_decimals(c->decs, &c->out, NULL, NULL);
  return gcol_strings_from_booleans(c->bools, c->yes, c->yes, &c->out, NULL, NULL);
}

static void fault_cleanup(void *ctx) {
  fault_ctx *c = (fault_ctx *)ctx;
  gcol_column_free(c->out);
  c->out = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(4416);
  int64_t values[200];
  uint8_t valid[200];
  for (int i = 0; i < 200; ++i) values[i] = (int64_t)gcol_test_rng_next(&rng);
  gcol_test_fill_valid(&rng, GCOL_TEST_RANDOM_NULLS, valid, 200);
  gcol_column *ints = NULL, *bools = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 200, values, valid,
                                            NULL, NULL, &ints));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), 200, valid, valid,
                                            NULL, NULL, &bools));
  gcol_column *decs = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_decimal(GCOL_DECIMAL128, -5), 100,
                                            values, valid, NULL, NULL, &decs));
  for (int wide = 0; wide < 2; ++wide) {
    host_strings h = make_strings(&rng, 200, 14, GCOL_TEST_RANDOM_NULLS);
    gcol_column *col = strings_to_device(&h, wide != 0, true);
    fault_ctx c;
    memset(&c, 0, sizeof c);
    GCOL_TEST_OK(gcol_scalar_create_cstring("yes", &c.yes));
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 3, 197, &c.strings));
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(ints), 3, 197, &c.ints));
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(bools), 3, 197, &c.bools));
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(decs), 3, 97, &c.decs));
    for (c.op = 0; c.op < NUM_S_OPS + 3; ++c.op) {
      assert_true(gcol_test_check_allocation_failures(fault_op, fault_cleanup, &c) > 0);
    }
    gcol_scalar_free(c.yes);
    gcol_column_free(col);
    strings_free(&h);
  }
  gcol_column_free(ints);
  gcol_column_free(bools);
  gcol_column_free(decs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_sizes, 0, 2),
      GCOL_TEST_GPU_PART(test_sizes, 1, 2),
      GCOL_TEST_GPU_PART(test_slices_validity, 0, 2),
      GCOL_TEST_GPU_PART(test_slices_validity, 1, 2),
      GCOL_TEST_GPU_PART(test_slices_validity_int64_offsets, 0, 2),
      GCOL_TEST_GPU_PART(test_slices_validity_int64_offsets, 1, 2),
      GCOL_TEST_GPU(test_special_rows),
      GCOL_TEST_GPU_PART(test_integer_inputs, 0, 2),
      GCOL_TEST_GPU_PART(test_integer_inputs, 1, 2),
      GCOL_TEST_GPU(test_cast_decimals),
      GCOL_TEST_GPU(test_bad_input),
      GCOL_TEST_GPU(test_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("strings_convert", tests);
}
