/* Host tests: types and traits, bit helpers, view slicing/splitting/validation, table
 * views, column assembly checks, scalars. Nothing here needs a GPU. */
#include "test_util.h"

static void type_sizes_and_names(void **state) {
  (void)state;
  assert_int_equal(gcol_type_size(GCOL_INT8), 1);
  assert_int_equal(gcol_type_size(GCOL_FLOAT64), 8);
  assert_int_equal(gcol_type_size(GCOL_TIMESTAMP_DAYS), 4);
  assert_int_equal(gcol_type_size(GCOL_DECIMAL128), 16);
  assert_int_equal(gcol_type_size(GCOL_STRING), 0);
  assert_int_equal(gcol_type_size((gcol_type_id)-1), 0);
  assert_int_equal(sizeof(gcol_int128), 16);
  for (int id = 0; id < GCOL_NUM_TYPE_IDS; ++id) {
    gcol_type_id parsed;
    GCOL_TEST_OK(gcol_type_from_name(gcol_type_name((gcol_type_id)id), &parsed));
    assert_int_equal(parsed, id);
  }
  assert_string_equal(gcol_type_name(GCOL_NUM_TYPE_IDS), "invalid");
  gcol_type_id parsed;
  GCOL_TEST_STATUS(gcol_type_from_name("int33", &parsed), GCOL_ERROR_INVALID_ARGUMENT);
}

static void type_traits_partition_the_types(void **state) {
  (void)state;
  for (int i = 0; i < GCOL_NUM_TYPE_IDS; ++i) {
    gcol_type_id const id = (gcol_type_id)i;
    int const classes = gcol_type_is_integral(id) + gcol_type_is_floating(id) + (id == GCOL_BOOL8) +
                        gcol_type_is_timestamp(id) + gcol_type_is_duration(id) +
                        gcol_type_is_decimal(id) + (id == GCOL_STRING) + gcol_type_is_nested(id) +
                        (id == GCOL_DICTIONARY32) + (id == GCOL_EMPTY);
    assert_int_equal(classes, 1);
    assert_int_equal(gcol_type_is_fixed_width(id), gcol_type_size(id) > 0);
    if (gcol_type_is_fixed_width(id)) {
      gcol_type_id const storage = gcol_type_storage_id(id);
      assert_int_equal(gcol_type_size(storage), gcol_type_size(id));
    }
  }
  assert_true(gcol_type_is_signed_integral(GCOL_INT16));
  assert_false(gcol_type_is_signed_integral(GCOL_UINT16));
  assert_int_equal(gcol_type_storage_id(GCOL_TIMESTAMP_MILLISECONDS), GCOL_INT64);
  assert_int_equal(gcol_type_storage_id(GCOL_DECIMAL32), GCOL_INT32);
  assert_int_equal(gcol_type_storage_id(GCOL_BOOL8), GCOL_UINT8);
  assert_int_equal(gcol_type_ticks_per_second(GCOL_DURATION_MICROSECONDS), 1000000);
}

static void data_type_format_and_equality(void **state) {
  (void)state;
  char buf[64];
  gcol_data_type const d = gcol_data_type_decimal(GCOL_DECIMAL64, -2);
  assert_int_equal(gcol_data_type_format(d, buf, sizeof buf), (int)strlen("decimal64(scale=-2)"));
  assert_string_equal(buf, "decimal64(scale=-2)");
  assert_true(gcol_data_type_equal(d, gcol_data_type_decimal(GCOL_DECIMAL64, -2)));
  assert_false(gcol_data_type_equal(d, gcol_data_type_decimal(GCOL_DECIMAL64, -3)));
  gcol_data_type_format(gcol_data_type_make(GCOL_TIMESTAMP_NANOSECONDS), buf, sizeof buf);
  assert_string_equal(buf, "timestamp[ns]");
}

/* Reference: bit i of a byte-per-bit array. */
static void bits_count_and_extract_at_every_offset(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(11);
  uint32_t mask[8];
  gcol_test_rng_fill(&rng, mask, sizeof mask);
  uint8_t bits[256];
  for (int i = 0; i < 256; ++i) bits[i] = (mask[i / 32] >> (i % 32)) & 1;
  for (int64_t begin = 0; begin <= 100; ++begin) {
    for (int64_t end = begin; end <= begin + 100 && end <= 256; end += 7) {
      int64_t expected = 0;
      for (int64_t i = begin; i < end; ++i) expected += bits[i];
      assert_int_equal(gcol_bits_count_set_range(mask, begin, end), expected);
      if (end > begin) {
        uint32_t const w = gcol_bits_extract_word(mask, begin, end);
        for (int64_t k = 0; k < 32; ++k) {
          uint32_t const want = begin + k < end ? bits[begin + k] : 0;
          assert_int_equal((w >> k) & 1, want);
        }
      }
    }
  }
}

static void bits_set_clear_assign(void **state) {
  (void)state;
  uint32_t mask[3] = {0, 0, 0};
  gcol_bit_set(mask, 0);
  gcol_bit_set(mask, 31);
  gcol_bit_set(mask, 32);
  gcol_bit_set(mask, 95);
  assert_int_equal(mask[0], 0x80000001u);
  assert_int_equal(mask[1], 1u);
  assert_int_equal(mask[2], 0x80000000u);
  gcol_bit_clear(mask, 31);
  gcol_bit_assign(mask, 33, true);
  gcol_bit_assign(mask, 32, false);
  assert_int_equal(mask[0], 1u);
  assert_int_equal(mask[1], 2u);
  assert_true(gcol_bit_is_set(mask, 33));
  assert_true(gcol_bit_is_set_or_null_mask(NULL, 12345));
  assert_int_equal(gcol_bit_num_words(0), 0);
  assert_int_equal(gcol_bit_num_words(33), 2);
  assert_int_equal(gcol_bits_funnel_shift_right(0x80000000u, 1u, 31), 3u);
  assert_int_equal(gcol_popcount32(0xF0F0F0F0u), 16);
}

static void bitmask_allocation_is_padded_to_64_bytes(void **state) {
  (void)state;
  assert_int_equal(gcol_bitmask_allocation_size(0), 0);
  assert_int_equal(gcol_bitmask_allocation_size(-5), 0);
  assert_int_equal(gcol_bitmask_allocation_size(1), 64);
  assert_int_equal(gcol_bitmask_allocation_size(512), 64);
  assert_int_equal(gcol_bitmask_allocation_size(513), 128);
  assert_int_equal(gcol_bitmask_allocation_size((int64_t)1 << 33), ((int64_t)1 << 33) / 8);
}

static gcol_column_view fake_view(gcol_type_id id, int64_t size) {
  static int64_t storage[1];
  static uint32_t mask[1];
  return gcol_column_view_make(gcol_data_type_make(id), size, storage, mask, 3);
}

static void slice_moves_offset_and_forgets_null_count(void **state) {
  (void)state;
  gcol_column_view const v = fake_view(GCOL_INT64, 100);
  gcol_column_view s;
  GCOL_TEST_OK(gcol_column_view_slice(v, 10, 40, &s));
  assert_int_equal(s.offset, 10);
  assert_int_equal(s.size, 30);
  assert_int_equal(s.null_count, GCOL_UNKNOWN_NULL_COUNT);
  gcol_column_view ss;
  GCOL_TEST_OK(gcol_column_view_slice(s, 5, 5, &ss)); /* empty slice of a slice */
  assert_int_equal(ss.offset, 15);
  assert_int_equal(ss.size, 0);
  assert_int_equal(ss.null_count, 0);
  GCOL_TEST_OK(gcol_column_view_slice(v, 0, 100, &s));
  assert_int_equal(s.null_count, 3);
  GCOL_TEST_OK(gcol_column_view_slice(v, 100, 100, &s)); /* zero-length at the end */
  GCOL_TEST_STATUS(gcol_column_view_slice(v, 50, 101, &s), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_view_slice(v, -1, 5, &s), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_view_slice(v, 6, 5, &s), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_view_slice(v, 0, 5, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_column_view nomask = v;
  nomask.null_mask = NULL;
  nomask.null_count = 0;
  GCOL_TEST_OK(gcol_column_view_slice(nomask, 3, 9, &s));
  assert_int_equal(s.null_count, 0);
}

static void split_covers_every_row(void **state) {
  (void)state;
  gcol_column_view const v = fake_view(GCOL_INT32, 50);
  int64_t const splits[] = {0, 10, 10, 49};
  gcol_column_view parts[5];
  GCOL_TEST_OK(gcol_column_view_split(v, splits, 4, parts));
  int64_t const sizes[] = {0, 10, 0, 39, 1};
  int64_t offset = 0;
  for (int i = 0; i < 5; ++i) {
    assert_int_equal(parts[i].size, sizes[i]);
    assert_int_equal(parts[i].offset, offset);
    offset += sizes[i];
  }
  int64_t const bad[] = {10, 5};
  GCOL_TEST_STATUS(gcol_column_view_split(v, bad, 2, parts), GCOL_ERROR_INVALID_ARGUMENT);
  int64_t const past[] = {51};
  GCOL_TEST_STATUS(gcol_column_view_split(v, past, 1, parts), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_OK(gcol_column_view_split(v, NULL, 0, parts));
  assert_int_equal(parts[0].size, 50);
}

static void validate_rejects_bad_views(void **state) {
  (void)state;
  gcol_column_view v = fake_view(GCOL_INT32, 10);
  GCOL_TEST_OK(gcol_column_view_validate(v, "v"));
  v.size = -1;
  GCOL_TEST_STATUS(gcol_column_view_validate(v, "lhs"), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "lhs"));
  v = fake_view(GCOL_INT32, 10);
  v.data = NULL;
  GCOL_TEST_STATUS(gcol_column_view_validate(v, "v"), GCOL_ERROR_INVALID_ARGUMENT);
  v = fake_view(GCOL_INT32, 10);
  v.null_count = 11;
  GCOL_TEST_STATUS(gcol_column_view_validate(v, "v"), GCOL_ERROR_INVALID_ARGUMENT);
  v = fake_view(GCOL_INT32, 10);
  v.null_mask = NULL;
  v.null_count = 2;
  GCOL_TEST_STATUS(gcol_column_view_validate(v, "v"), GCOL_ERROR_INVALID_ARGUMENT);
  v = fake_view(GCOL_INT32, 10);
  v.type.id = (gcol_type_id)77;
  GCOL_TEST_STATUS(gcol_column_view_validate(v, "v"), GCOL_ERROR_INVALID_ARGUMENT);
  /* A STRING view needs an offsets child with offset + size + 1 rows. */
  gcol_column_view s = fake_view(GCOL_STRING, 4);
  GCOL_TEST_STATUS(gcol_column_view_validate(s, "s"), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_column_view offsets = fake_view(GCOL_INT32, 5);
  s.num_children = 1;
  s.children = &offsets;
  GCOL_TEST_OK(gcol_column_view_validate(s, "s"));
  s.offset = 1;
  GCOL_TEST_STATUS(gcol_column_view_validate(s, "s"), GCOL_ERROR_INVALID_ARGUMENT);
  offsets.type.id = GCOL_FLOAT32;
  s.offset = 0;
  GCOL_TEST_STATUS(gcol_column_view_validate(s, "s"), GCOL_ERROR_TYPE_MISMATCH);
}

static void table_views_check_sizes_and_select(void **state) {
  (void)state;
  gcol_column_view cols[3] = {fake_view(GCOL_INT32, 7), fake_view(GCOL_FLOAT64, 7),
                              fake_view(GCOL_INT8, 7)};
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(cols, 3, &t));
  assert_int_equal(t.num_rows, 7);
  gcol_column_view storage[2];
  gcol_table_view sel;
  int32_t const idx[2] = {2, 0};
  GCOL_TEST_OK(gcol_table_view_select(t, idx, 2, storage, &sel));
  assert_int_equal(sel.num_columns, 2);
  assert_int_equal(sel.columns[0].type.id, GCOL_INT8);
  int32_t const bad[1] = {3};
  GCOL_TEST_STATUS(gcol_table_view_select(t, bad, 1, storage, &sel), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_column_view sliced[3];
  gcol_table_view st;
  GCOL_TEST_OK(gcol_table_view_slice(t, 2, 5, sliced, &st));
  assert_int_equal(st.num_rows, 3);
  assert_int_equal(st.columns[1].offset, 2);
  cols[1].size = 6;
  GCOL_TEST_STATUS(gcol_table_view_make(cols, 3, &t), GCOL_ERROR_SIZE_MISMATCH);
  assert_non_null(strstr(gcol_last_error(), "column 1"));
  GCOL_TEST_OK(gcol_table_view_make(NULL, 0, &t));
  assert_int_equal(t.num_rows, 0);
}

static void column_make_checks_layout_without_allocating(void **state) {
  (void)state;
  gcol_column *col = (gcol_column *)0x1;
  /* Empty fixed-width column: no buffers needed. */
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT64), 0, NULL, NULL, 0, NULL, 0, &col));
  gcol_column_view const v = gcol_column_get_view(col);
  assert_int_equal(v.size, 0);
  assert_null(v.data);
  gcol_column_free(col);
  col = (gcol_column *)0x1;
  GCOL_TEST_STATUS(gcol_column_make(gcol_data_type_make(GCOL_INT64), 3, NULL, NULL, 0, NULL, 0, &col),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(col);
  GCOL_TEST_STATUS(gcol_column_make(gcol_data_type_make(GCOL_INT64), -1, NULL, NULL, 0, NULL, 0, &col),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_make(gcol_data_type_make(GCOL_INT64), 0, NULL, NULL, 1, NULL, 0, &col),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_make(gcol_data_type_make(GCOL_INT64), 0, NULL, NULL, 0, NULL, 1, &col),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_make_strings(0, NULL, NULL, NULL, 0, &col), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_column_free(NULL); /* no-op */
}

static void nested_columns_own_children(void **state) {
  (void)state;
  gcol_column *a = NULL, *b = NULL, *s = NULL;
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT32), 0, NULL, NULL, 0, NULL, 0, &a));
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_FLOAT32), 0, NULL, NULL, 0, NULL, 0, &b));
  gcol_column *fields[2] = {a, b};
  GCOL_TEST_OK(gcol_column_make_struct(0, fields, 2, NULL, 0, &s));
  gcol_column_view const v = gcol_column_get_view(s);
  assert_int_equal(v.num_children, 2);
  assert_int_equal(v.children[1].type.id, GCOL_FLOAT32);
  gcol_column *list_offsets = NULL, *values = NULL, *list = NULL;
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT32), 0, NULL, NULL, 0, NULL, 0, &list_offsets));
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT8), 0, NULL, NULL, 0, NULL, 0, &values));
  GCOL_TEST_OK(gcol_column_make_list(0, list_offsets, values, NULL, 0, &list));
  gcol_column *bad = NULL;
  GCOL_TEST_STATUS(gcol_column_make_list(3, list_offsets, values, NULL, 0, &bad), GCOL_ERROR_SIZE_MISMATCH);
  gcol_column_free(s); /* frees a and b too (valgrind/ASan would see a leak or double free) */
  gcol_column_free(list);
}

static void table_owns_and_releases_columns(void **state) {
  (void)state;
  gcol_column *cols[2] = {NULL, NULL};
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT32), 0, NULL, NULL, 0, NULL, 0, &cols[0]));
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT64), 0, NULL, NULL, 0, NULL, 0, &cols[1]));
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 2, &t));
  gcol_table_view const tv = gcol_table_get_view(t);
  assert_int_equal(tv.num_columns, 2);
  assert_int_equal(tv.columns[1].type.id, GCOL_INT64);
  gcol_column **back = NULL;
  int32_t n = 0;
  GCOL_TEST_OK(gcol_table_release(t, &back, &n));
  assert_int_equal(n, 2);
  gcol_table *t2 = NULL;
  GCOL_TEST_OK(gcol_table_make(back, 2, &t2));
  free(back);
  gcol_table_free(t2);
  gcol_table *bad = NULL;
  gcol_column *null_col[1] = {NULL};
  GCOL_TEST_STATUS(gcol_table_make(null_col, 1, &bad), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(bad);
}

static void scalars_store_and_read_values(void **state) {
  (void)state;
  gcol_scalar *s = NULL;
  int64_t v = 0;
  double d = 0;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT16), -300, &s));
  GCOL_TEST_OK(gcol_scalar_get_int(s, &v));
  assert_int_equal(v, -300);
  assert_int_equal(*(const int16_t *)gcol_scalar_get_storage(s), -300);
  gcol_scalar_free(s);
  GCOL_TEST_STATUS(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT8), 128, &s), GCOL_ERROR_OVERFLOW);
  assert_null(s);
  GCOL_TEST_STATUS(gcol_scalar_create_int(gcol_data_type_make(GCOL_UINT32), -1, &s), GCOL_ERROR_OVERFLOW);
  GCOL_TEST_STATUS(gcol_scalar_create_int(gcol_data_type_make(GCOL_FLOAT32), 1, &s), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_OK(gcol_scalar_create_uint(gcol_data_type_make(GCOL_UINT64), UINT64_MAX, &s));
  GCOL_TEST_STATUS(gcol_scalar_get_int(s, &v), GCOL_ERROR_OVERFLOW);
  GCOL_TEST_OK(gcol_scalar_get_float(s, &d));
  assert_true(d > 1.8e19);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_float(gcol_data_type_make(GCOL_FLOAT32), 0.1, &s));
  assert_true(s->value.f32 == 0.1f);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_TIMESTAMP_MILLISECONDS), -5, &s));
  assert_int_equal(s->value.i64, -5);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_BOOL8), 7, &s));
  assert_int_equal(s->value.u8, 1);
  gcol_scalar_free(s);
}

static void decimal_and_string_scalars(void **state) {
  (void)state;
  gcol_scalar *s = NULL, *c = NULL;
  gcol_int128 big = {0, 1}; /* 2^64 */
  GCOL_TEST_OK(gcol_scalar_create_decimal(gcol_data_type_decimal(GCOL_DECIMAL128, -3), big, &s));
  assert_int_equal(s->type.scale, -3);
  int64_t v = 0;
  GCOL_TEST_STATUS(gcol_scalar_get_int(s, &v), GCOL_ERROR_OVERFLOW);
  gcol_scalar_free(s);
  GCOL_TEST_STATUS(gcol_scalar_create_decimal(gcol_data_type_decimal(GCOL_DECIMAL64, 0), big, &s),
                   GCOL_ERROR_OVERFLOW);
  gcol_int128 minus_seven = {(uint64_t)-7, -1};
  GCOL_TEST_OK(gcol_scalar_create_decimal(gcol_data_type_decimal(GCOL_DECIMAL32, 2), minus_seven, &s));
  GCOL_TEST_OK(gcol_scalar_get_int(s, &v));
  assert_int_equal(v, -7);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_string("a\0b", 3, &s));
  assert_int_equal(s->string_size, 3);
  assert_memory_equal(s->string_data, "a\0b", 3);
  GCOL_TEST_OK(gcol_scalar_copy(s, &c));
  assert_memory_equal(c->string_data, "a\0b", 4);
  assert_null(gcol_scalar_get_storage(c));
  gcol_scalar_free(s);
  gcol_scalar_free(c);
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_STRING), &s));
  assert_false(s->is_valid);
  GCOL_TEST_STATUS(gcol_scalar_get_int(s, &v), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_scalar_free(s);
  GCOL_TEST_STATUS(gcol_scalar_create_null(gcol_data_type_make(GCOL_LIST), &s), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_scalar_create_string(NULL, 2, &s), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_scalar_free(NULL);
}

/* The read functions answer "null" with valid == false instead of an error, and still
 * check the type of a null scalar. */
static void scalar_reads_report_null(void **state) {
  (void)state;
  gcol_scalar *s = NULL;
  int64_t v = 7;
  double d = 7;
  const char *text = "x";
  int64_t size = 7;
  bool valid = true;
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_TIMESTAMP_SECONDS), &s));
  GCOL_TEST_OK(gcol_scalar_read_int(s, &v, &valid));
  assert_false(valid);
  assert_int_equal(v, 0);
  GCOL_TEST_STATUS(gcol_scalar_read_float(s, &d, &valid), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_scalar_read_string(s, &text, &size, &valid), GCOL_ERROR_TYPE_MISMATCH);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT16), -300, &s));
  GCOL_TEST_OK(gcol_scalar_read_int(s, &v, &valid));
  assert_true(valid);
  assert_int_equal(v, -300);
  GCOL_TEST_OK(gcol_scalar_read_float(s, &d, &valid));
  assert_true(valid);
  assert_true(d == -300.0);
  GCOL_TEST_STATUS(gcol_scalar_read_int(s, NULL, &valid), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_scalar_read_int(s, &v, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_uint(gcol_data_type_make(GCOL_UINT64), UINT64_MAX, &s));
  GCOL_TEST_STATUS(gcol_scalar_read_int(s, &v, &valid), GCOL_ERROR_OVERFLOW);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_FLOAT32), &s));
  GCOL_TEST_OK(gcol_scalar_read_float(s, &d, &valid));
  assert_false(valid);
  assert_true(d == 0.0);
  GCOL_TEST_STATUS(gcol_scalar_read_int(s, &v, &valid), GCOL_ERROR_TYPE_MISMATCH);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_STRING), &s));
  GCOL_TEST_OK(gcol_scalar_read_string(s, &text, &size, &valid));
  assert_false(valid);
  assert_null(text);
  assert_int_equal(size, 0);
  gcol_scalar_free(s);
  GCOL_TEST_OK(gcol_scalar_create_cstring("h\xc3\xa9llo", &s)); /* "héllo": 6 bytes */
  GCOL_TEST_OK(gcol_scalar_read_string(s, &text, &size, &valid));
  assert_true(valid);
  assert_int_equal(size, 6);
  assert_string_equal(text, "h\xc3\xa9llo");
  GCOL_TEST_STATUS(gcol_scalar_read_string(s, &text, NULL, &valid), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_scalar_free(s);
  GCOL_TEST_STATUS(gcol_scalar_create_cstring(NULL, &s), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(s);
  GCOL_TEST_OK(gcol_scalar_create_cstring("", &s));
  assert_int_equal(s->string_size, 0);
  gcol_scalar_free(s);
}

static void index_type_follows_row_count(void **state) {
  (void)state;
  assert_int_equal(gcol_index_type_for(0), GCOL_INT32);
  assert_int_equal(gcol_index_type_for(INT32_MAX), GCOL_INT32);
  assert_int_equal(gcol_index_type_for((int64_t)INT32_MAX + 1), GCOL_INT64);
  int64_t const saved = gcol_set_large_offsets_threshold(100);
  assert_int_equal(gcol_large_offsets_threshold(), 100);
  assert_int_equal(gcol_offsets_type_for_threshold(101, gcol_large_offsets_threshold()), GCOL_INT64);
  gcol_set_large_offsets_threshold(saved);
  assert_int_equal(gcol_large_offsets_threshold(), INT32_MAX);
}

/* gcol_bitmask_data types a mask buffer's words; NULL stays NULL (no mask). */
static void bitmask_data_types_the_words(void **state) {
  (void)state;
  uint32_t words[2] = {0x5u, 0};
  gcol_buffer b;
  memset(&b, 0, sizeof b);
  b.data = words;
  b.size = sizeof words;
  uint32_t *const typed = gcol_bitmask_data(&b);
  assert_ptr_equal(typed, words);
  assert_true(gcol_bit_is_set(typed, 2));
  assert_null(gcol_bitmask_data(NULL));
}

/* The host row accessors tell "" from null, need no NUL terminator and start at offsets[0]. */
static void host_string_rows_read_back(void **state) {
  (void)state;
  char chars[] = "xxabcdé"; /* bytes 0..1 are no row's: offsets need not start at 0 */
  int64_t offsets[5] = {2, 5, 5, 5, 8};
  uint8_t valid[4] = {1, 1, 0, 1};
  gcol_host_column c = {gcol_data_type_make(GCOL_STRING), 4, chars, offsets, valid};
  int64_t len = -1;
  const char *row = gcol_host_column_string(&c, 0, &len);
  assert_int_equal(len, 3);
  assert_memory_equal(row, "abc", 3);
  row = gcol_host_column_string(&c, 1, &len); /* "" is valid: not NULL */
  assert_non_null(row);
  assert_int_equal(len, 0);
  len = -1;
  assert_null(gcol_host_column_string(&c, 2, &len)); /* null */
  assert_int_equal(len, 0);
  assert_false(gcol_host_column_is_valid(&c, 2));
  assert_true(gcol_host_column_is_valid(&c, 3));
  row = gcol_host_column_string(&c, 3, NULL);
  assert_memory_equal(row, "dé", 3);
  c.valid = NULL; /* no validity: every row valid */
  assert_non_null(gcol_host_column_string(&c, 2, &len));
  assert_int_equal(len, 0);
  assert_true(gcol_host_column_is_valid(&c, 2));
  /* a column without chars (every row empty) still gives "" for its valid rows */
  int64_t empty_offsets[2] = {0, 0};
  gcol_host_column e = {gcol_data_type_make(GCOL_STRING), 1, NULL, empty_offsets, NULL};
  assert_non_null(gcol_host_column_string(&e, 0, &len));
  assert_int_equal(len, 0);
  /* not STRING: NULL */
  int64_t values[1] = {7};
  gcol_host_column f = {gcol_data_type_make(GCOL_INT64), 1, values, NULL, NULL};
  assert_null(gcol_host_column_string(&f, 0, &len));
  gcol_host_column_free(NULL);

  int64_t hs_offsets[4] = {0, 1, 1, 1};
  uint8_t hs_valid[3] = {1, 1, 0};
  char q[] = "q";
  gcol_host_strings hs = {3, hs_offsets, q, hs_valid};
  row = gcol_host_strings_get(&hs, 0, &len);
  assert_int_equal(len, 1);
  assert_memory_equal(row, "q", 1);
  assert_non_null(gcol_host_strings_get(&hs, 1, &len));
  assert_int_equal(len, 0);
  assert_null(gcol_host_strings_get(&hs, 2, &len));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(type_sizes_and_names),
      cmocka_unit_test(type_traits_partition_the_types),
      cmocka_unit_test(data_type_format_and_equality),
      cmocka_unit_test(bits_count_and_extract_at_every_offset),
      cmocka_unit_test(bits_set_clear_assign),
      cmocka_unit_test(bitmask_allocation_is_padded_to_64_bytes),
      cmocka_unit_test(slice_moves_offset_and_forgets_null_count),
      cmocka_unit_test(split_covers_every_row),
      cmocka_unit_test(validate_rejects_bad_views),
      cmocka_unit_test(table_views_check_sizes_and_select),
      cmocka_unit_test(column_make_checks_layout_without_allocating),
      cmocka_unit_test(nested_columns_own_children),
      cmocka_unit_test(table_owns_and_releases_columns),
      cmocka_unit_test(scalars_store_and_read_values),
      cmocka_unit_test(decimal_and_string_scalars),
      cmocka_unit_test(scalar_reads_report_null),
      cmocka_unit_test(index_type_follows_row_count),
      cmocka_unit_test(host_string_rows_read_back),
      cmocka_unit_test(bitmask_data_types_the_words),
  };
  return GCOL_TEST_RUN("types_views", tests);
}
