/* Host tests of gcol/indexalator.h and the strings view of gcol/string_view.h over host
 * arrays: every integer type and slice offset through the indexalator, INT32/INT64 index
 * and offsets writers, the offsetalator (parent and child offsets), and their errors. */
#include "gcol/indexalator.h"
#include "gcol/string_view.h"
#include "test_util.h"

static const int64_t offsets_axis[] = {0, 1, 3, 5, 7, 31, 33, 63, 65};

/* Reference: element i of an integer array of type id, as int64 (UINT64 wraps). */
static int64_t ref_index(gcol_type_id id, const void *data, int64_t i) {
  switch (id) {
    case GCOL_INT8: return ((const int8_t *)data)[i];
    case GCOL_INT16: return ((const int16_t *)data)[i];
    case GCOL_INT32: return ((const int32_t *)data)[i];
    case GCOL_INT64: return ((const int64_t *)data)[i];
    case GCOL_UINT8: return ((const uint8_t *)data)[i];
    case GCOL_UINT16: return ((const uint16_t *)data)[i];
    case GCOL_UINT32: return ((const uint32_t *)data)[i];
    case GCOL_UINT64: return (int64_t)((const uint64_t *)data)[i];
    default: fail_msg("not an integer type"); return 0;
  }
}

static void indexalator_reads_every_integer_type_at_every_offset(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(61);
  for (int id = GCOL_INT8; id <= GCOL_UINT64; ++id) {
    size_t const width = gcol_type_size((gcol_type_id)id);
    for (size_t oi = 0; oi < sizeof offsets_axis / sizeof offsets_axis[0]; ++oi) {
      int64_t const off = offsets_axis[oi];
      int64_t const n = 100;
      uint8_t *data = malloc(width * (size_t)(n + off));
      assert_non_null(data);
      gcol_test_rng_fill(&rng, data, width * (size_t)(n + off));
      /* Extremes at the first two rows: MIN and MAX of the type. */
      memset(data + width * (size_t)off, 0xFF, width); /* -1 or UINT_MAX */
      memset(data + width * (size_t)(off + 1), 0x00, width);
      data[width * (size_t)(off + 1) + width - 1] = 0x80; /* MIN (signed) or 2^(bits-1) */
      gcol_column_view v = gcol_column_view_make(gcol_data_type_make((gcol_type_id)id), n, data, NULL, 0);
      v.offset = off;
      gcol_indexalator it;
      GCOL_TEST_OK(gcol_indexalator_make(v, &it));
      assert_int_equal(it.width, (int)width);
      assert_int_equal(it.is_signed, gcol_type_is_signed_integral((gcol_type_id)id));
      for (int64_t i = 0; i < n; ++i) {
        assert_int_equal(gcol_indexalator_get(it, i), ref_index((gcol_type_id)id, data, off + i));
      }
      free(data);
    }
  }
  /* Spot values: UINT64 above INT64_MAX wraps, INT8 -128 sign-extends, UINT8 255 does not. */
  uint64_t big = 0xFFFFFFFFFFFFFFFFull;
  int8_t neg = -128;
  uint8_t u = 255;
  gcol_indexalator it;
  GCOL_TEST_OK(gcol_indexalator_make(gcol_column_view_make(gcol_data_type_make(GCOL_UINT64), 1, &big, NULL, 0), &it));
  assert_int_equal(gcol_indexalator_get(it, 0), -1);
  GCOL_TEST_OK(gcol_indexalator_make(gcol_column_view_make(gcol_data_type_make(GCOL_INT8), 1, &neg, NULL, 0), &it));
  assert_int_equal(gcol_indexalator_get(it, 0), -128);
  GCOL_TEST_OK(gcol_indexalator_make(gcol_column_view_make(gcol_data_type_make(GCOL_UINT8), 1, &u, NULL, 0), &it));
  assert_int_equal(gcol_indexalator_get(it, 0), 255);
}

static void indexalator_rejects_non_integer_types(void **state) {
  (void)state;
  int64_t x = 0;
  gcol_indexalator it;
  for (int id = 0; id < GCOL_NUM_TYPE_IDS; ++id) {
    if (gcol_type_is_integral((gcol_type_id)id)) continue;
    gcol_clear_last_error();
    GCOL_TEST_STATUS(gcol_indexalator_make(gcol_column_view_make(gcol_data_type_make((gcol_type_id)id), 1, &x, NULL, 0), &it),
                     GCOL_ERROR_TYPE_MISMATCH);
  }
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_indexalator_make(gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 1, &x, NULL, 0), NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

static gcol_mutable_column_view mutable_view(gcol_type_id id, int64_t size, int64_t offset, void *data) {
  gcol_mutable_column_view v;
  v.type = gcol_data_type_make(id);
  v.size = size;
  v.offset = offset;
  v.data = data;
  v.null_mask = NULL;
  v.null_count = 0;
  return v;
}

static void index_writer_writes_int32_and_int64_at_offsets(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(62);
  for (size_t oi = 0; oi < sizeof offsets_axis / sizeof offsets_axis[0]; ++oi) {
    int64_t const off = offsets_axis[oi];
    int32_t i32[200];
    int64_t i64[200];
    memset(i32, 0xAB, sizeof i32);
    memset(i64, 0xAB, sizeof i64);
    gcol_index_writer w32;
    gcol_index_writer w64;
    GCOL_TEST_OK(gcol_index_writer_make(mutable_view(GCOL_INT32, 100, off, i32), &w32));
    GCOL_TEST_OK(gcol_index_writer_make(mutable_view(GCOL_INT64, 100, off, i64), &w64));
    for (int64_t i = 0; i < 100; ++i) {
      int64_t const v = gcol_test_rng_range(&rng, INT32_MIN, INT32_MAX);
      gcol_index_writer_set(w32, i, v);
      gcol_index_writer_set(w64, i, v * 3);
      assert_int_equal(i32[off + i], v);
      assert_int_equal(i64[off + i], v * 3);
    }
    if (off > 0) assert_int_equal((uint32_t)i32[off - 1], 0xABABABABu); /* before the slice */
    assert_int_equal((uint32_t)i32[off + 100], 0xABABABABu);            /* after it */
  }
  int64_t x;
  gcol_index_writer w;
  static const gcol_type_id bad[] = {GCOL_INT8, GCOL_INT16, GCOL_UINT32, GCOL_UINT64, GCOL_FLOAT64, GCOL_STRING};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    gcol_clear_last_error();
    GCOL_TEST_STATUS(gcol_index_writer_make(mutable_view(bad[i], 1, 0, &x), &w), GCOL_ERROR_TYPE_MISMATCH);
  }
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_index_writer_make(mutable_view(GCOL_INT32, 1, 0, &x), NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_index_type_for(0), GCOL_INT32);
  assert_int_equal(gcol_index_type_for(INT32_MAX), GCOL_INT32);
  assert_int_equal(gcol_index_type_for((int64_t)INT32_MAX + 1), GCOL_INT64);
  assert_int_equal(gcol_offsets_type_for_threshold(10, 10), GCOL_INT32);
  assert_int_equal(gcol_offsets_type_for_threshold(11, 10), GCOL_INT64);
}

/* A STRING view over host arrays: parent offset `off`, offsets child with its own offset. */
static void offsetalator_and_strings_view_for_both_widths(void **state) {
  (void)state;
  static const char chars[] = "abcdefghijklmnopqrstuvwxyz";
  /* 9 rows of lengths 0,1,2,3,0,4,5,0,1 -> offsets 0..16. */
  static const int64_t offs[] = {0, 0, 1, 3, 6, 6, 10, 15, 15, 16};
  int32_t offs32[12];
  int64_t offs64[12];
  for (int child_off = 0; child_off <= 2; ++child_off) {
    for (int i = 0; i < 10; ++i) {
      offs32[i + child_off] = (int32_t)offs[i];
      offs64[i + child_off] = offs[i];
    }
    for (int width = 4; width <= 8; width += 4) {
      gcol_column_view child = gcol_column_view_make(gcol_data_type_make(width == 4 ? GCOL_INT32 : GCOL_INT64), 10 - 0,
                                                     width == 4 ? (const void *)offs32 : (const void *)offs64, NULL, 0);
      child.offset = child_off;
      for (int64_t off = 0; off <= 3; ++off) {
        uint32_t mask[1] = {0xFFFFFFEFu}; /* row 4 (bit 4) null */
        gcol_column_view s = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 9 - off, chars, mask, 1);
        s.offset = off;
        s.num_children = 1;
        s.children = &child;
        gcol_offsetalator oa;
        GCOL_TEST_OK(gcol_offsetalator_make(s, &oa));
        assert_int_equal(oa.width, width);
        for (int64_t i = 0; i <= 9 - off; ++i) assert_int_equal(gcol_offsetalator_get(oa, i), offs[off + i]);
        gcol_strings_view sv;
        GCOL_TEST_OK(gcol_strings_view_make(s, &sv));
        assert_int_equal(sv.size, 9 - off);
        for (int64_t i = 0; i < sv.size; ++i) {
          gcol_string_ref const r = gcol_strings_view_get(sv, i);
          assert_int_equal(r.size, offs[off + i + 1] - offs[off + i]);
          assert_ptr_equal(r.data, chars + offs[off + i]);
          assert_int_equal(gcol_strings_view_size_bytes(sv, i), r.size);
          assert_int_equal(gcol_strings_view_is_valid(sv, i), off + i != 4);
        }
        /* The writer round-trips through the same width. */
        int64_t out64[10];
        int32_t out32[10];
        gcol_offsets_writer ow;
        ow.width = width;
        ow.data = width == 4 ? (void *)out32 : (void *)out64;
        for (int i = 0; i < 10; ++i) gcol_offsets_writer_set(ow, i, offs[i] + 1000);
        gcol_offsetalator back;
        back.width = width;
        back.data = ow.data;
        for (int i = 0; i < 10; ++i) assert_int_equal(gcol_offsetalator_get(back, i), offs[i] + 1000);
      }
    }
  }
}

static void offsetalator_errors(void **state) {
  (void)state;
  int32_t offs[2] = {0, 0};
  float bad_offs[2] = {0, 0};
  gcol_column_view child = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 2, offs, NULL, 0);
  gcol_column_view fchild = gcol_column_view_make(gcol_data_type_make(GCOL_FLOAT32), 2, bad_offs, NULL, 0);
  gcol_column_view s = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 1, "", NULL, 0);
  gcol_offsetalator oa;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_offsetalator_make(s, &oa), GCOL_ERROR_INVALID_ARGUMENT); /* no child */
  s.num_children = 1;
  s.children = &fchild;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_offsetalator_make(s, &oa), GCOL_ERROR_TYPE_MISMATCH);
  s.children = &child;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_offsetalator_make(s, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_column_view i = s;
  i.type = gcol_data_type_make(GCOL_INT32);
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_offsetalator_make(i, &oa), GCOL_ERROR_TYPE_MISMATCH);
  gcol_column_view l = s;
  l.type = gcol_data_type_make(GCOL_LIST);
  GCOL_TEST_OK(gcol_offsetalator_make(l, &oa));
  gcol_strings_view sv;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_strings_view_make(i, &sv), GCOL_ERROR_TYPE_MISMATCH);
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_strings_view_make(s, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  /* An empty STRING column without offsets is fine. */
  gcol_column_view empty = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 0, NULL, NULL, 0);
  GCOL_TEST_OK(gcol_strings_view_make(empty, &sv));
  assert_int_equal(sv.size, 0);
}

static void large_offsets_threshold_is_settable(void **state) {
  (void)state;
  int64_t const before = gcol_large_offsets_threshold();
  assert_int_equal(before, INT32_MAX);
  assert_int_equal(gcol_set_large_offsets_threshold(100), before);
  assert_int_equal(gcol_large_offsets_threshold(), 100);
  assert_int_equal(gcol_set_large_offsets_threshold(0), 100); /* <= 0 restores the default */
  assert_int_equal(gcol_large_offsets_threshold(), INT32_MAX);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(indexalator_reads_every_integer_type_at_every_offset),
      cmocka_unit_test(indexalator_rejects_non_integer_types),
      cmocka_unit_test(index_writer_writes_int32_and_int64_at_offsets),
      cmocka_unit_test(offsetalator_and_strings_view_for_both_widths),
      cmocka_unit_test(offsetalator_errors),
      cmocka_unit_test(large_offsets_threshold_is_settable),
  };
  return GCOL_TEST_RUN("toolkit_indexalator", tests);
}
