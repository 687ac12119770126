/*
 * GPU tests of include/gcol/interop.h: every type through the device interface (zero-copy:
 * the imported views point at the exported buffers; BOOL8 converted both ways), the host
 * interface (copies) and back, sliced at the offsets of TESTING.md with every validity
 * pattern; hand-made host arrays (bits at odd offsets, sliced strings, date64, dictionaries)
 * imported and checked value by value; both stream interfaces in chunks; DLPack export,
 * import (zero-copy and strided) and the 2-D table copy; the owner and producer releases
 * counted to exactly once; allocation failures of the converting paths; the host export's one
 * block kept by moved children after their parent's release, and its allocation failing.
 */
#include <cuda_runtime_api.h>
#include <string.h>

#include "arrow_fake.h"
#include "gcol/interop.h"
#include "test_util.h"

static int owner_releases;
static void count_owner(void *owner) {
  (void)owner;
  ++owner_releases;
}

/* ------------------------------------------------------------------ column builders */

/* A random fixed-width column (BOOL8 as 0/1, the rest random bytes) with a validity pattern. */
static gcol_column *random_fixed(gcol_test_rng *rng, gcol_data_type type, int64_t n,
                                 gcol_test_validity pattern) {
  size_t const width = gcol_type_size(type.id);
  uint8_t *data = (uint8_t *)malloc((size_t)n * width + 1);
  uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
  gcol_test_rng_fill(rng, data, (size_t)n * width);
  if (type.id == GCOL_BOOL8) {
    for (int64_t i = 0; i < n; ++i) data[i] &= 1u;
  }
  gcol_test_fill_valid(rng, pattern, valid, n);
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(type, n, data, pattern == GCOL_TEST_NO_MASK ? NULL : valid,
                                            NULL, NULL, &col));
  free(data);
  free(valid);
  return col;
}

static gcol_column *random_strings(gcol_test_rng *rng, int64_t n, gcol_test_validity pattern) {
  char **strings = (char **)calloc((size_t)n + 1, sizeof *strings);
  uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
  gcol_test_fill_valid(rng, pattern, valid, n);
  for (int64_t i = 0; i < n; ++i) {
    if (!valid[i]) continue;
    int64_t const len = gcol_test_rng_range(rng, 0, 12);
    strings[i] = (char *)calloc((size_t)len + 1, 1);
    for (int64_t j = 0; j < len; ++j) strings[i][j] = (char)('a' + gcol_test_rng_range(rng, 0, 25));
  }
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(n, (const char *const *)strings, NULL, NULL, NULL, &col));
  for (int64_t i = 0; i < n; ++i) free(strings[i]);
  free(strings);
  free(valid);
  return col;
}

/* A LIST of INT32 values, each row 0..3 values. */
static gcol_column *random_list(gcol_test_rng *rng, int64_t n, gcol_test_validity pattern) {
  int64_t *offsets = (int64_t *)malloc(sizeof *offsets * (size_t)(n + 1));
  offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + gcol_test_rng_range(rng, 0, 3);
  gcol_column *off = NULL, *values = NULL, *mask_source = NULL, *list = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n + 1, offsets, NULL,
                                            NULL, NULL, &off));
  values = random_fixed(rng, gcol_data_type_make(GCOL_INT32), offsets[n], GCOL_TEST_RANDOM_NULLS);
  mask_source = random_fixed(rng, gcol_data_type_make(GCOL_INT8), n, pattern);
  gcol_buffer *mask = mask_source->null_mask;
  int64_t const nulls = mask_source->null_count;
  mask_source->null_mask = NULL;
  gcol_column_free(mask_source);
  GCOL_TEST_OK(gcol_column_make_list(n, off, values, mask, nulls, &list));
  free(offsets);
  return list;
}

static gcol_column *random_struct(gcol_test_rng *rng, int64_t n, gcol_test_validity pattern) {
  gcol_column *fields[3] = {random_fixed(rng, gcol_data_type_make(GCOL_FLOAT64), n, GCOL_TEST_RANDOM_NULLS),
                            random_strings(rng, n, GCOL_TEST_RANDOM_NULLS),
                            random_fixed(rng, gcol_data_type_make(GCOL_BOOL8), n, GCOL_TEST_FIRST_NULL)};
  gcol_column *mask_source = random_fixed(rng, gcol_data_type_make(GCOL_INT8), n, pattern);
  gcol_buffer *mask = mask_source->null_mask;
  int64_t const nulls = mask_source->null_count;
  mask_source->null_mask = NULL;
  gcol_column_free(mask_source);
  gcol_column *s = NULL;
  GCOL_TEST_OK(gcol_column_make_struct(n, fields, 3, mask, nulls, &s));
  return s;
}

static const gcol_data_type *every_fixed_type(size_t *count) {
  static gcol_data_type types[24];
  static const gcol_type_id ids[] = {
      GCOL_INT8, GCOL_INT16, GCOL_INT32, GCOL_INT64, GCOL_UINT8, GCOL_UINT16, GCOL_UINT32,
      GCOL_UINT64, GCOL_FLOAT32, GCOL_FLOAT64, GCOL_BOOL8, GCOL_TIMESTAMP_DAYS,
      GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_MILLISECONDS, GCOL_TIMESTAMP_MICROSECONDS,
      GCOL_TIMESTAMP_NANOSECONDS, GCOL_DURATION_SECONDS, GCOL_DURATION_MILLISECONDS,
      GCOL_DURATION_MICROSECONDS, GCOL_DURATION_NANOSECONDS};
  size_t n = 0;
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; ++i) types[n++] = gcol_data_type_make(ids[i]);
  types[n++] = gcol_data_type_decimal(GCOL_DECIMAL32, -2);
  types[n++] = gcol_data_type_decimal(GCOL_DECIMAL64, 3);
  types[n++] = gcol_data_type_decimal(GCOL_DECIMAL128, -10);
  *count = n;
  return types;
}

/* ------------------------------------------------------------------ round trips */

/* Device export then import of `v`: equal, zero-copy where the layouts agree, owner once. */
static void device_round_trip(gcol_column_view v) {
  struct ArrowSchema s;
  struct ArrowDeviceArray a;
  gcol_imported *imp = NULL;
  cudaStream_t other = NULL;
  owner_releases = 0;
  GCOL_TEST_OK(gcol_arrow_schema_export_column(v, NULL, &s));
  GCOL_TEST_OK(gcol_arrow_device_export_column(v, count_owner, NULL, &a, NULL, NULL));
  assert_int_equal(a.device_type, ARROW_DEVICE_CUDA);
  assert_non_null(a.sync_event);
  assert_int_equal(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
  GCOL_TEST_OK(gcol_arrow_device_import_column(&s, &a, other, NULL, &imp));
  gcol_column_view const got = gcol_imported_column(imp);
  if (v.type.id != GCOL_BOOL8 && gcol_type_is_fixed_width(v.type.id)) {
    assert_ptr_equal(got.data, v.data); /* zero-copy */
    assert_int_equal(got.offset, v.offset);
  }
  assert_int_equal(cudaStreamSynchronize(other), cudaSuccess);
  gcol_test_assert_columns_equal(v, got);
  gcol_imported_free(imp);
  assert_int_equal(owner_releases, 1);
  assert_int_equal(cudaStreamDestroy(other), cudaSuccess);
}

/* Host export then host import of `v`: equal, field names kept. */
static void host_round_trip(gcol_column_view v, gcol_mr *host_mr) {
  struct ArrowSchema s;
  struct ArrowArray a;
  gcol_column *back = NULL;
  gcol_arrow_field *field = NULL;
  gcol_arrow_field const name = {"values", NULL, 0, 0, NULL};
  GCOL_TEST_OK(gcol_arrow_schema_export_column(v, &name, &s));
  GCOL_TEST_OK(gcol_arrow_export_column(v, &a, NULL, host_mr));
  assert_int_equal(a.offset, 0);
  assert_int_equal(a.length, v.size);
  GCOL_TEST_OK(gcol_arrow_import_column(&s, &a, NULL, NULL, &back, &field));
  assert_null(a.release);
  assert_string_equal(field->name, "values");
  gcol_test_assert_columns_equal(v, gcol_column_get_view(back));
  gcol_arrow_field_free(field);
  gcol_column_free(back);
}

/* Both round trips of `col` whole and sliced at every test offset. */
static void round_trips(gcol_column *col) {
  gcol_column_view const whole = gcol_column_get_view(col);
  device_round_trip(whole);
  host_round_trip(whole, NULL);
  for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
    int64_t const begin = gcol_test_offsets[o];
    if (begin > whole.size) continue;
    gcol_column_view slice;
    GCOL_TEST_OK(gcol_column_view_slice(whole, begin, whole.size - (whole.size - begin) / 3, &slice));
    device_round_trip(slice);
    host_round_trip(slice, NULL);
  }
}

static void test_every_fixed_type_round_trips(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1301);
  size_t count = 0;
  const gcol_data_type *types = every_fixed_type(&count);
  int64_t const sizes[] = {0, 1, 7, 33, 65, 129, 1000};
  for (size_t t = 0; t < count; ++t) {
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      gcol_test_validity const p = (gcol_test_validity)(s % GCOL_TEST_NUM_VALIDITY);
      gcol_column *col = random_fixed(&rng, types[t], sizes[s], p);
      round_trips(col);
      gcol_column_free(col);
    }
  }
}

static void test_nested_round_trips(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1302);
  int64_t const sizes[] = {0, 1, 9, 70, 300};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
      gcol_column *cols[3] = {random_strings(&rng, sizes[s], (gcol_test_validity)p),
                              random_list(&rng, sizes[s], (gcol_test_validity)p),
                              random_struct(&rng, sizes[s], (gcol_test_validity)p)};
      for (int c = 0; c < 3; ++c) {
        round_trips(cols[c]);
        gcol_column_free(cols[c]);
      }
    }
  }
  /* INT64 string offsets (large_utf8) through both interfaces. */
  int64_t const previous = gcol_set_large_offsets_threshold(1);
  gcol_column *large = random_strings(&rng, 50, GCOL_TEST_RANDOM_NULLS);
  gcol_set_large_offsets_threshold(previous);
  assert_int_equal(gcol_column_get_view(large).children[0].type.id, GCOL_INT64);
  struct ArrowSchema schema;
  GCOL_TEST_OK(gcol_arrow_schema_export_column(gcol_column_get_view(large), NULL, &schema));
  assert_string_equal(schema.format, "U");
  schema.release(&schema);
  round_trips(large);
  gcol_column_free(large);
}

static void test_dictionary_round_trip(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1303);
  int32_t idx[6] = {2, 0, 1, 2, 2, 0};
  uint8_t valid[6] = {1, 1, 0, 1, 1, 1};
  gcol_column *indices = NULL, *dict = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 6, idx, valid, NULL,
                                            NULL, &indices));
  gcol_column *keys = random_strings(&rng, 3, GCOL_TEST_NO_MASK);
  GCOL_TEST_OK(gcol_column_make_dictionary(indices, keys, &dict));
  gcol_column_view const v = gcol_column_get_view(dict);
  struct ArrowSchema s;
  struct ArrowDeviceArray a;
  gcol_imported *imp = NULL;
  GCOL_TEST_OK(gcol_arrow_schema_export_column(v, NULL, &s));
  GCOL_TEST_OK(gcol_arrow_device_export_column(v, NULL, NULL, &a, NULL, NULL));
  GCOL_TEST_OK(gcol_arrow_device_import_column(&s, &a, NULL, NULL, &imp));
  gcol_column_view const got = gcol_imported_column(imp);
  assert_int_equal(got.type.id, GCOL_DICTIONARY32);
  gcol_test_assert_columns_equal(v.children[0], got.children[0]);
  gcol_test_assert_columns_equal(v.children[1], got.children[1]);
  gcol_imported_free(imp);
  /* Host: the indices keep the dictionary's validity; out-of-range indices are refused. */
  struct ArrowArray h;
  gcol_column *back = NULL;
  GCOL_TEST_OK(gcol_arrow_schema_export_column(v, NULL, &s));
  GCOL_TEST_OK(gcol_arrow_export_column(v, &h, NULL, NULL));
  GCOL_TEST_OK(gcol_arrow_import_column(&s, &h, NULL, NULL, &back, NULL));
  gcol_column_view const hv = gcol_column_get_view(back);
  gcol_test_assert_columns_equal(v.children[0], hv.children[0]);
  gcol_test_assert_columns_equal(v.children[1], hv.children[1]);
  gcol_column_free(back);
  GCOL_TEST_OK(gcol_arrow_schema_export_column(v, NULL, &s));
  GCOL_TEST_OK(gcol_arrow_export_column(v, &h, NULL, NULL));
  ((int32_t *)h.buffers[1])[0] = 3; /* a valid row pointing past the 3 keys */
  GCOL_TEST_STATUS(gcol_arrow_import_column(&s, &h, NULL, NULL, &back, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(back);
  gcol_column_free(dict);
}

/* Dictionaries with indices of every integer type (pandas' categoricals have int8, polars'
 * uint32): both imports give DICTIONARY32 with INT32 indices equal to the producer's, over a
 * sliced array with a null; the host import refuses an index past the keys. */
static void test_dictionary_index_types(void **state) {
  (void)state;
  static const char *const formats[] = {"c", "s", "i", "l", "C", "S", "I", "L"};
  static const int widths[] = {1, 2, 4, 8, 1, 2, 4, 8};
  static const int32_t want[7] = {2, 0, 1, 2, 1, 0, 2}; /* rows 1..7 of the array */
  static int32_t key_offsets[4] = {0, 1, 3, 6};
  static uint32_t valid = 0xFFu & ~(1u << 3); /* row 3 null (row 2 of the slice) */
  for (int f = 0; f < 8; ++f) {
    for (int device = 0; device < 2; ++device) {
      uint64_t raw[8] = {0};
      unsigned char *bytes = (unsigned char *)raw;
      int64_t const values[8] = {1, 2, 0, 1, 2, 1, 0, 2};
      for (int i = 0; i < 8; ++i) memcpy(bytes + i * widths[f], &values[i], (size_t)widths[f]);
      void *dev_idx = NULL, *dev_valid = NULL, *dev_offsets = NULL, *dev_chars = NULL;
      const void *idx = raw, *mask = &valid, *offs = key_offsets, *chars = "abbccc";
      if (device) { /* the device import reads device buffers */
        assert_int_equal(cudaMalloc(&dev_idx, 64), cudaSuccess);
        assert_int_equal(cudaMalloc(&dev_valid, 64), cudaSuccess);
        assert_int_equal(cudaMalloc(&dev_offsets, 64), cudaSuccess);
        assert_int_equal(cudaMalloc(&dev_chars, 64), cudaSuccess);
        assert_int_equal(cudaMemcpy(dev_idx, raw, 64, cudaMemcpyHostToDevice), cudaSuccess);
        assert_int_equal(cudaMemcpy(dev_valid, &valid, 4, cudaMemcpyHostToDevice), cudaSuccess);
        assert_int_equal(cudaMemcpy(dev_offsets, key_offsets, 16, cudaMemcpyHostToDevice),
                         cudaSuccess);
        assert_int_equal(cudaMemcpy(dev_chars, "abbccc", 6, cudaMemcpyHostToDevice), cudaSuccess);
        idx = dev_idx, mask = dev_valid, offs = dev_offsets, chars = dev_chars;
      }
      struct ArrowSchema *sn = fake_schema(formats[f], NULL, 0);
      sn->dictionary = fake_schema("u", NULL, 0);
      struct ArrowArray *an = fake_array(7, 1, 1, 2, mask, idx, NULL, 0);
      an->dictionary = fake_array(3, 0, 0, 3, NULL, offs, chars, 0);
      int schema_releases = 0, array_releases = 0;
      struct ArrowSchema s;
      struct ArrowArray a;
      fake_schema_top(sn, &schema_releases, &s);
      fake_array_top(an, &array_releases, &a);
      gcol_column *owned = NULL;
      gcol_imported *imp = NULL;
      gcol_column_view got;
      if (device) {
        struct ArrowDeviceArray da;
        memset(&da, 0, sizeof da);
        da.array = a;
        da.device_id = 0;
        da.device_type = ARROW_DEVICE_CUDA;
        GCOL_TEST_OK(gcol_arrow_device_import_column(&s, &da, NULL, NULL, &imp));
        got = gcol_imported_column(imp);
      } else {
        GCOL_TEST_OK(gcol_arrow_import_column(&s, &a, NULL, NULL, &owned, NULL));
        got = gcol_column_get_view(owned);
      }
      assert_int_equal(schema_releases, 1);
      assert_int_equal(got.type.id, GCOL_DICTIONARY32);
      assert_int_equal(got.size, 7);
      gcol_column_view indices = got.children[0];
      assert_int_equal(indices.type.id, GCOL_INT32);
      if (device) GCOL_TEST_OK(gcol_column_view_slice(indices, got.offset, got.offset + 7, &indices));
      int32_t host_idx[8];
      uint8_t host_valid[8];
      GCOL_TEST_OK(gcol_column_copy_to_host(indices, host_idx, host_valid, NULL));
      for (int i = 0; i < 7; ++i) {
        assert_int_equal(host_valid[i], i != 2);
        if (i != 2) assert_int_equal(host_idx[i], want[i]);
      }
      assert_int_equal(got.children[1].size, 3);
      gcol_imported_free(imp);
      gcol_column_free(owned);
      assert_int_equal(array_releases, 1);
      cudaFree(dev_idx), cudaFree(dev_valid), cudaFree(dev_offsets), cudaFree(dev_chars);
    }
  }
  /* the host import checks every valid index against the keys, whatever its type */
  int16_t const past[2] = {0, 3};
  static int32_t offsets[4] = {0, 1, 3, 6};
  struct ArrowSchema *sn = fake_schema("s", NULL, 0);
  sn->dictionary = fake_schema("u", NULL, 0);
  struct ArrowArray *an = fake_array(2, 0, 0, 2, NULL, past, NULL, 0);
  an->dictionary = fake_array(3, 0, 0, 3, NULL, offsets, "abbccc", 0);
  struct ArrowSchema s;
  struct ArrowArray a;
  int releases = 0;
  fake_schema_top(sn, &releases, &s);
  fake_array_top(an, &releases, &a);
  gcol_column *back = NULL;
  GCOL_TEST_STATUS(gcol_arrow_import_column(&s, &a, NULL, NULL, &back, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(back);
  assert_int_equal(releases, 2);
}

/* One utf8 view: inline up to 12 bytes, else (prefix, data buffer, offset). */
static void put_view(uint8_t *view, const char *text, int32_t buffer, int32_t offset) {
  int32_t const length = (int32_t)strlen(text);
  memset(view, 0, 16);
  memcpy(view, &length, 4);
  if (length <= 12) {
    memcpy(view + 4, text, (size_t)length);
  } else {
    memcpy(view + 4, text, 4);
    memcpy(view + 8, &buffer, 4);
    memcpy(view + 12, &offset, 4);
  }
}

/* Arrow utf8_view (`vu`, what polars hands over) imports as STRING through both imports: inline
 * and out-of-line strings in two data buffers, an empty string, a null row, a slice; a view
 * naming a data buffer the array lacks, or (host) bytes past its buffer, is refused. */
static void test_string_view_import(void **state) {
  (void)state;
  static const char *const rows[7] = {"skipped", "short", "exactly12byt",
                                      "this one is longer than twelve", NULL, "",
                                      "another long string in buffer one"};
  char data0[64] = "xyzthis one is longer than twelve";
  char data1[64] = "another long string in buffer one";
  int64_t const sizes[2] = {(int64_t)strlen(data0), (int64_t)strlen(data1)};
  uint8_t views[7 * 16];
  for (int i = 0; i < 7; ++i) {
    put_view(views + 16 * i, rows[i] != NULL ? rows[i] : "", i == 6 ? 1 : 0, i == 6 ? 0 : 3);
  }
  uint32_t const valid = 0x7Fu & ~(1u << 4);
  /* the expected column: rows 1..6 */
  char expect_chars[128];
  int64_t expect_offsets[7] = {0};
  uint8_t expect_valid[6];
  for (int i = 0; i < 6; ++i) {
    const char *r = rows[i + 1] != NULL ? rows[i + 1] : "";
    memcpy(expect_chars + expect_offsets[i], r, strlen(r));
    expect_offsets[i + 1] = expect_offsets[i] + (int64_t)strlen(r);
    expect_valid[i] = rows[i + 1] != NULL;
  }
  gcol_column *expect = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host_offsets(6, expect_chars, expect_offsets,
                                                           expect_valid, NULL, NULL, &expect));
  for (int bad = 0; bad < 3; ++bad) {
    for (int device = 0; device < 2; ++device) {
      uint8_t v[7 * 16];
      memcpy(v, views, sizeof v);
      if (bad == 1) put_view(v + 16 * 3, rows[3], 7, 3);         /* no data buffer 7 */
      if (bad == 2) put_view(v + 16 * 3, rows[3], 0, 9);         /* past data buffer 0 */
      if (bad == 2 && device) continue; /* the device import trusts the offsets (documented) */
      void *dv = NULL, *dm = NULL, *d0 = NULL, *d1 = NULL, *ds = NULL;
      const void *b[5] = {&valid, v, data0, data1, sizes};
      if (device) {
        assert_int_equal(cudaMalloc(&dv, sizeof v), cudaSuccess);
        assert_int_equal(cudaMalloc(&dm, 64), cudaSuccess);
        assert_int_equal(cudaMalloc(&d0, 64), cudaSuccess);
        assert_int_equal(cudaMalloc(&d1, 64), cudaSuccess);
        assert_int_equal(cudaMalloc(&ds, 64), cudaSuccess);
        assert_int_equal(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice), cudaSuccess);
        assert_int_equal(cudaMemcpy(dm, &valid, 4, cudaMemcpyHostToDevice), cudaSuccess);
        assert_int_equal(cudaMemcpy(d0, data0, 64, cudaMemcpyHostToDevice), cudaSuccess);
        assert_int_equal(cudaMemcpy(d1, data1, 64, cudaMemcpyHostToDevice), cudaSuccess);
        assert_int_equal(cudaMemcpy(ds, sizes, 16, cudaMemcpyHostToDevice), cudaSuccess);
        b[0] = dm, b[1] = dv, b[2] = d0, b[3] = d1, b[4] = ds;
      }
      struct ArrowArray *an = fake_array(6, 1, 1, 3, b[0], b[1], b[2], 0);
      an->n_buffers = 5; /* fake_array keeps three: give it the five of a view array */
      const void **five = (const void **)malloc(5 * sizeof *five);
      assert_non_null(five);
      for (int k = 0; k < 5; ++k) five[k] = b[k];
      free((void *)an->buffers);
      an->buffers = five;
      int releases = 0;
      struct ArrowSchema s;
      struct ArrowArray a;
      fake_schema_top(fake_schema("vu", NULL, 0), &releases, &s);
      fake_array_top(an, &releases, &a);
      gcol_status st;
      gcol_column *owned = NULL;
      gcol_imported *imp = NULL;
      if (device) {
        struct ArrowDeviceArray da;
        memset(&da, 0, sizeof da);
        da.array = a;
        da.device_type = ARROW_DEVICE_CUDA;
        st = gcol_arrow_device_import_column(&s, &da, NULL, NULL, &imp);
      } else {
        st = gcol_arrow_import_column(&s, &a, NULL, NULL, &owned, NULL);
      }
      if (bad) {
        assert_int_equal(st, GCOL_ERROR_INVALID_ARGUMENT);
        assert_null(imp);
        assert_null(owned);
      } else {
        GCOL_TEST_OK(st);
        gcol_column_view const got = device ? gcol_imported_column(imp) : gcol_column_get_view(owned);
        assert_int_equal(got.type.id, GCOL_STRING);
        gcol_test_assert_columns_equal(got, gcol_column_get_view(expect));
      }
      gcol_imported_free(imp);
      gcol_column_free(owned);
      assert_int_equal(releases, 2);
      cudaFree(dv), cudaFree(dm), cudaFree(d0), cudaFree(d1), cudaFree(ds);
    }
  }
  gcol_column_free(expect);
}

static void test_table_round_trips_and_pinned_host_memory(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1304);
  gcol_column *cols[3] = {random_fixed(&rng, gcol_data_type_make(GCOL_INT64), 100, GCOL_TEST_RANDOM_NULLS),
                          random_strings(&rng, 100, GCOL_TEST_LAST_NULL),
                          random_fixed(&rng, gcol_data_type_make(GCOL_BOOL8), 100, GCOL_TEST_NO_MASK)};
  gcol_table *table = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 3, &table));
  gcol_table_view const tv = gcol_table_get_view(table);
  gcol_arrow_field const names[3] = {{"a", NULL, 0, 0, NULL}, {"b", NULL, 0, 0, NULL},
                                     {"c", NULL, 0, 0, NULL}};
  gcol_mr *pinned = NULL;
  GCOL_TEST_OK(gcol_mr_pinned_create(&pinned));
  struct ArrowSchema s;
  struct ArrowArray h;
  gcol_table *back = NULL;
  gcol_arrow_field *fields = NULL;
  GCOL_TEST_OK(gcol_arrow_schema_export_table(tv, names, &s));
  GCOL_TEST_OK(gcol_arrow_export_table(tv, &h, NULL, pinned));
  GCOL_TEST_OK(gcol_arrow_import_table(&s, &h, NULL, NULL, &back, &fields));
  assert_string_equal(fields->children[2].name, "c");
  for (int i = 0; i < 3; ++i) {
    gcol_test_assert_columns_equal(tv.columns[i], gcol_table_get_view(back).columns[i]);
  }
  gcol_table_free(back);
  gcol_arrow_field_free(fields);
  gcol_mr_destroy(pinned);
  /* The device table export takes the table over; the import sees its columns. */
  struct ArrowDeviceArray a;
  gcol_imported *imp = NULL;
  GCOL_TEST_OK(gcol_arrow_schema_export_table(tv, names, &s));
  GCOL_TEST_OK(gcol_arrow_device_export_owned_table(table, &a, NULL, NULL));
  GCOL_TEST_OK(gcol_arrow_device_import_table(&s, &a, NULL, NULL, &imp));
  gcol_table_view const got = gcol_imported_table(imp);
  assert_int_equal(got.num_columns, 3);
  assert_int_equal(got.num_rows, 100);
  gcol_imported_free(imp); /* frees the table through the export's release */
}

/* ------------------------------------------------------------------ hand-made host arrays */

static void test_hand_made_host_arrays(void **state) {
  (void)state;
  /* Booleans at bit offset 3: rows 3..12 of the bits, validity at the same offset. */
  uint8_t const bits[2] = {0xA8u, 0x0Au}; /* bits 3..12: 1 0 1 0 1 0 1 0 1 0 */
  uint8_t const valid[2] = {0xF8u, 0x1Bu}; /* row 7 (bit 10) null */
  int releases = 0, schema_releases = 0;
  struct ArrowSchema s;
  struct ArrowArray a;
  gcol_column *col = NULL;
  fake_schema_top(fake_schema("b", NULL, 0), &schema_releases, &s);
  fake_array_top(fake_array(10, -1, 3, 2, valid, bits, NULL, 0), &releases, &a);
  GCOL_TEST_OK(gcol_arrow_import_column(&s, &a, NULL, NULL, &col, NULL));
  assert_int_equal(releases, 1);
  assert_int_equal(schema_releases, 1);
  uint8_t got[10], got_valid[10];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(col), got, got_valid, NULL));
  for (int i = 0; i < 10; ++i) {
    assert_int_equal(got_valid[i], i == 7 ? 0 : 1);
    if (i != 7) assert_int_equal(got[i], i % 2 == 0 ? 1 : 0);
  }
  assert_int_equal(col->null_count, 1);
  gcol_column_free(col);
  /* Strings sliced so that the first offset is not 0; date64 as timestamp[ms]. */
  int32_t const offsets[5] = {0, 2, 5, 5, 9};
  releases = schema_releases = 0;
  fake_schema_top(fake_schema("u", NULL, 0), &schema_releases, &s);
  fake_array_top(fake_array(2, 0, 2, 3, NULL, offsets, "abcdefghi", 0), &releases, &a);
  GCOL_TEST_OK(gcol_arrow_import_column(&s, &a, NULL, NULL, &col, NULL));
  gcol_host_strings *hs = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(col), NULL, &hs));
  assert_int_equal(hs->offsets[1], 0);
  assert_int_equal(hs->offsets[2], 4);
  assert_memory_equal(hs->chars, "fghi", 4);
  gcol_host_strings_free(hs);
  gcol_column_free(col);
  int64_t const ms[3] = {-86400000, 0, 1700000000000};
  fake_schema_top(fake_schema("tdm", NULL, 0), &schema_releases, &s);
  fake_array_top(fake_array(3, 0, 0, 2, NULL, ms, NULL, 0), &releases, &a);
  GCOL_TEST_OK(gcol_arrow_import_column(&s, &a, NULL, NULL, &col, NULL));
  assert_int_equal(col->type.id, GCOL_TIMESTAMP_MILLISECONDS);
  gcol_test_assert_column_equals_host(gcol_column_get_view(col), ms, NULL, 3);
  gcol_column_free(col);
  /* Decreasing offsets are refused, and the producer is still released once. */
  int32_t const bad[3] = {0, 4, 2};
  releases = schema_releases = 0;
  fake_schema_top(fake_schema("u", NULL, 0), &schema_releases, &s);
  fake_array_top(fake_array(2, 0, 0, 3, NULL, bad, "abcd", 0), &releases, &a);
  GCOL_TEST_STATUS(gcol_arrow_import_column(&s, &a, NULL, NULL, &col, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(col);
  assert_int_equal(releases, 1);
  assert_int_equal(schema_releases, 1);
}

/* ------------------------------------------------------------------ streams */

static void test_streams_in_chunks(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1305);
  gcol_column *cols[2] = {random_fixed(&rng, gcol_data_type_make(GCOL_INT32), 10, GCOL_TEST_RANDOM_NULLS),
                          random_strings(&rng, 10, GCOL_TEST_RANDOM_NULLS)};
  gcol_table *table = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 2, &table));
  gcol_table_view const tv = gcol_table_get_view(table);
  struct ArrowArrayStream hs;
  owner_releases = 0;
  GCOL_TEST_OK(gcol_arrow_stream_export_table(tv, NULL, 4, count_owner, NULL, &hs, NULL, NULL));
  int64_t row = 0;
  for (;;) {
    struct ArrowSchema s;
    struct ArrowArray a;
    assert_int_equal(hs.get_schema(&hs, &s), 0);
    assert_int_equal(hs.get_next(&hs, &a), 0);
    if (a.release == NULL) {
      s.release(&s);
      break;
    }
    gcol_table *chunk = NULL;
    GCOL_TEST_OK(gcol_arrow_import_table(&s, &a, NULL, NULL, &chunk, NULL));
    gcol_column_view storage[2];
    gcol_table_view expected;
    GCOL_TEST_OK(gcol_table_view_slice(tv, row, row + chunk->num_rows, storage, &expected));
    for (int i = 0; i < 2; ++i) {
      gcol_test_assert_columns_equal(expected.columns[i], gcol_table_get_view(chunk).columns[i]);
    }
    row += chunk->num_rows;
    gcol_table_free(chunk);
  }
  assert_int_equal(row, 10);
  hs.release(&hs);
  assert_int_equal(owner_releases, 1);
  /* Device stream: chunks outlive the stream; the owner goes with the last of them. */
  struct ArrowDeviceArrayStream ds;
  GCOL_TEST_OK(gcol_arrow_device_stream_export_table(tv, NULL, 3, count_owner, NULL, &ds, NULL, NULL));
  gcol_imported *chunks[5] = {NULL};
  int n = 0;
  for (;; ++n) {
    struct ArrowSchema s;
    struct ArrowDeviceArray a;
    assert_int_equal(ds.get_schema(&ds, &s), 0);
    assert_int_equal(ds.get_next(&ds, &a), 0);
    if (a.array.release == NULL) {
      s.release(&s);
      break;
    }
    GCOL_TEST_OK(gcol_arrow_device_import_table(&s, &a, NULL, NULL, &chunks[n]));
    assert_ptr_equal(gcol_imported_table(chunks[n]).columns[0].data, tv.columns[0].data);
  }
  assert_int_equal(n, 4);
  ds.release(&ds);
  assert_int_equal(owner_releases, 1);
  for (int i = 0; i < n; ++i) gcol_imported_free(chunks[i]);
  assert_int_equal(owner_releases, 2);
  gcol_table_free(table);
}

/* ------------------------------------------------------------------ DLPack */

static int deleter_calls;
static void count_deleter(DLManagedTensor *self) {
  (void)self;
  ++deleter_calls;
}

static void test_dlpack(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1306);
  gcol_column *col = random_fixed(&rng, gcol_data_type_make(GCOL_FLOAT32), 100, GCOL_TEST_ALL_VALID);
  gcol_column_view slice;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 5, 50, &slice));
  DLManagedTensorVersioned *t = NULL;
  owner_releases = 0;
  GCOL_TEST_OK(gcol_dlpack_export_column(slice, count_owner, NULL, &t, NULL));
  assert_int_equal(t->version.major, 1);
  assert_int_equal(t->dl_tensor.device.device_type, kDLCUDA);
  assert_int_equal(t->dl_tensor.dtype.code, kDLFloat);
  assert_int_equal(t->dl_tensor.dtype.bits, 32);
  assert_int_equal(t->dl_tensor.shape[0], 45);
  assert_int_equal(t->dl_tensor.byte_offset, 20);
  gcol_imported *imp = NULL;
  GCOL_TEST_OK(gcol_dlpack_import_column(t, NULL, NULL, &imp));
  gcol_column_view const got = gcol_imported_column(imp);
  assert_ptr_equal((const float *)got.data, (const float *)slice.data + 5); /* zero-copy */
  gcol_test_assert_columns_equal(slice, got);
  assert_int_equal(owner_releases, 0);
  gcol_imported_free(imp);
  assert_int_equal(owner_releases, 1);
  /* Strided (every other row) and unversioned: gathered into a copy, deleter once. */
  DLManagedTensor strided;
  int64_t shape[1] = {50}, strides[1] = {2};
  memset(&strided, 0, sizeof strided);
  strided.dl_tensor.data = (void *)gcol_column_get_view(col).data;
  strided.dl_tensor.device.device_type = kDLCUDA;
  assert_int_equal(cudaGetDevice(&strided.dl_tensor.device.device_id), cudaSuccess);
  strided.dl_tensor.ndim = 1;
  strided.dl_tensor.dtype.code = kDLFloat;
  strided.dl_tensor.dtype.bits = 32;
  strided.dl_tensor.dtype.lanes = 1;
  strided.dl_tensor.shape = shape;
  strided.dl_tensor.strides = strides;
  strided.deleter = count_deleter;
  deleter_calls = 0;
  GCOL_TEST_OK(gcol_dlpack_import_column_unversioned(&strided, NULL, NULL, &imp));
  float host[100], got_host[50];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(col), host, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_imported_column(imp), got_host, NULL, NULL));
  for (int i = 0; i < 50; ++i) assert_memory_equal(&got_host[i], &host[2 * i], sizeof(float));
  gcol_imported_free(imp);
  assert_int_equal(deleter_calls, 1);
  /* Refusals still delete: a 2-D tensor, a CPU tensor. */
  strided.dl_tensor.ndim = 2;
  GCOL_TEST_STATUS(gcol_dlpack_import_column_unversioned(&strided, NULL, NULL, &imp),
                   GCOL_ERROR_UNSUPPORTED);
  strided.dl_tensor.ndim = 1;
  strided.dl_tensor.device.device_type = kDLCPU;
  GCOL_TEST_STATUS(gcol_dlpack_import_column_unversioned(&strided, NULL, NULL, &imp),
                   GCOL_ERROR_UNSUPPORTED);
  assert_int_equal(deleter_calls, 3);
  /* Nulls cannot go; a table of equal types becomes a column-major 2-D copy. */
  gcol_column *with_nulls = random_fixed(&rng, gcol_data_type_make(GCOL_INT64), 10, GCOL_TEST_FIRST_NULL);
  GCOL_TEST_STATUS(gcol_dlpack_export_column(gcol_column_get_view(with_nulls), NULL, NULL, &t, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  gcol_column_free(with_nulls);
  gcol_column *second = random_fixed(&rng, gcol_data_type_make(GCOL_FLOAT32), 100, GCOL_TEST_NO_MASK);
  gcol_column_view const pair[2] = {gcol_column_get_view(col), gcol_column_get_view(second)};
  gcol_table_view tv;
  GCOL_TEST_OK(gcol_table_view_make(pair, 2, &tv));
  GCOL_TEST_OK(gcol_dlpack_export_table(tv, &t, NULL, NULL));
  assert_int_equal(t->dl_tensor.ndim, 2);
  assert_int_equal(t->dl_tensor.strides[1], 100);
  float both[200];
  assert_int_equal(cudaMemcpy(both, t->dl_tensor.data, sizeof both, cudaMemcpyDeviceToHost), cudaSuccess);
  assert_memory_equal(both, host, sizeof host);
  t->deleter(t);
  gcol_column_free(second);
  gcol_column_free(col);
}

/* ------------------------------------------------------------------ allocation failures */

typedef struct fault_ctx {
  gcol_column_view view;
  struct ArrowDeviceArray out;
} fault_ctx;

static gcol_status export_bools_op(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  return gcol_arrow_device_export_column(c->view, NULL, NULL, &c->out, NULL, NULL);
}

static void export_bools_cleanup(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  c->out.array.release(&c->out.array);
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1307);
  gcol_column *col = random_fixed(&rng, gcol_data_type_make(GCOL_BOOL8), 200, GCOL_TEST_RANDOM_NULLS);
  fault_ctx c;
  memset(&c, 0, sizeof c);
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 33, 190, &c.view));
  int const points = gcol_test_check_allocation_failures(export_bools_op, export_bools_cleanup, &c);
  assert_true(points >= 2); /* at least the bits and the re-based mask */
  gcol_column_free(col);
}

/* ------------------------------------------------------------------ host export ownership */

static int64_t live_allocations(gcol_mr *stats) {
  gcol_mr_statistics st;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &st));
  return st.current_allocations;
}

/* A child moved out of a host export, imported (which releases it): equal to v. */
static void import_moved(gcol_column_view v, struct ArrowArray *moved) {
  struct ArrowSchema s;
  gcol_column *back = NULL;
  GCOL_TEST_OK(gcol_arrow_schema_export_column(v, NULL, &s));
  GCOL_TEST_OK(gcol_arrow_import_column(&s, moved, NULL, NULL, &back, NULL));
  assert_null(moved->release);
  gcol_test_assert_columns_equal(v, gcol_column_get_view(back));
  gcol_column_free(back);
}

/* One block from the host resource for the whole export; children moved out keep it after
 * the parent's release, released in either order; the last release frees it. */
static void test_host_export_moved_children(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1308);
  gcol_mr *pinned = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_pinned_create(&pinned));
  GCOL_TEST_OK(gcol_mr_statistics_create(pinned, &stats));
  for (int order = 0; order < 2; ++order) {
    gcol_column *cols[3] = {
        random_fixed(&rng, gcol_data_type_make(GCOL_INT64), 301, GCOL_TEST_RANDOM_NULLS),
        random_strings(&rng, 301, GCOL_TEST_RANDOM_NULLS),
        random_list(&rng, 301, GCOL_TEST_RANDOM_NULLS)};
    gcol_table *table = NULL;
    GCOL_TEST_OK(gcol_table_make(cols, 3, &table));
    gcol_table_view const tv = gcol_table_get_view(table);
    struct ArrowArray h, moved[2];
    GCOL_TEST_OK(gcol_arrow_export_table(tv, &h, NULL, stats));
    assert_int_equal(live_allocations(stats), 1);
    for (int i = 0; i < 2; ++i) { /* move fields 1 and 2 out, as the C Data Interface allows */
      moved[i] = *h.children[i + 1];
      h.children[i + 1]->release = NULL;
    }
    h.release(&h); /* releases field 0 only */
    assert_null(h.release);
    assert_int_equal(live_allocations(stats), 1);
    int const first = order == 0 ? 0 : 1;
    import_moved(tv.columns[first + 1], &moved[first]);
    assert_int_equal(live_allocations(stats), 1);
    import_moved(tv.columns[2 - first], &moved[1 - first]);
    assert_int_equal(live_allocations(stats), 0);
    gcol_table_free(table);
  }
  gcol_mr_destroy(stats);
  gcol_mr_destroy(pinned);
}

/* The block's allocation failing: GCOL_ERROR_OUT_OF_MEMORY, the output untouched, nothing
 * left allocated; the export makes exactly one allocation from the resource. */
static void test_host_export_block_failure(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1309);
  gcol_mr *pinned = NULL, *stats = NULL, *failing = NULL;
  GCOL_TEST_OK(gcol_mr_pinned_create(&pinned));
  GCOL_TEST_OK(gcol_mr_statistics_create(pinned, &stats));
  gcol_column *col = random_list(&rng, 200, GCOL_TEST_RANDOM_NULLS);
  gcol_column_view slice;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 33, 190, &slice));
  struct ArrowArray h;
  memset(&h, 0, sizeof h);
  GCOL_TEST_OK(gcol_mr_fail_nth_create(stats, 1, &failing));
  GCOL_TEST_STATUS(gcol_arrow_export_column(slice, &h, NULL, failing), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(h.release);
  assert_int_equal(live_allocations(stats), 0);
  gcol_mr_destroy(failing);
  GCOL_TEST_OK(gcol_mr_fail_nth_create(stats, 2, &failing));
  GCOL_TEST_OK(gcol_arrow_export_column(slice, &h, NULL, failing));
  assert_int_equal(live_allocations(stats), 1);
  h.release(&h);
  assert_int_equal(live_allocations(stats), 0);
  gcol_mr_destroy(failing);
  gcol_column_free(col);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(pinned);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_every_fixed_type_round_trips),
      GCOL_TEST_GPU(test_nested_round_trips),
      GCOL_TEST_GPU(test_dictionary_round_trip),
      GCOL_TEST_GPU(test_dictionary_index_types),
      GCOL_TEST_GPU(test_string_view_import),
      GCOL_TEST_GPU(test_table_round_trips_and_pinned_host_memory),
      GCOL_TEST_GPU(test_hand_made_host_arrays),
      GCOL_TEST_GPU(test_streams_in_chunks),
      GCOL_TEST_GPU(test_dlpack),
      GCOL_TEST_GPU(test_allocation_failures),
      GCOL_TEST_GPU(test_host_export_moved_children),
      GCOL_TEST_GPU(test_host_export_block_failure),
  };
  return GCOL_TEST_RUN_GPU("interop", tests);
}
