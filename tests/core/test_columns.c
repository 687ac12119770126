/* GPU tests of columns: host round trips for every fixed-width type, slices at unaligned
 * offsets, null counts, strings, deep copies of every layout, and fault tests. */
#include <cuda_runtime_api.h>
#include <string.h>

#include "test_util.h"

#define FOR_EACH_FIXED_TYPE(id) for (int id = 0; id < GCOL_NUM_TYPE_IDS; ++id) if (gcol_type_is_fixed_width((gcol_type_id)id))

static gcol_column *random_column(gcol_test_rng *rng, gcol_data_type type, int64_t n,
                                  gcol_test_validity pattern, void **values_out, uint8_t **valid_out) {
  size_t const width = gcol_type_size(type.id);
  void *values = malloc((size_t)n * width + 1);
  uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
  gcol_test_rng_fill(rng, values, (size_t)n * width);
  gcol_test_fill_valid(rng, pattern, valid, n);
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(type, n, values, pattern == GCOL_TEST_NO_MASK ? NULL : valid,
                                            NULL, NULL, &col));
  *values_out = values;
  *valid_out = valid;
  return col;
}

static void round_trip_every_type_size_and_validity(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(31);
  FOR_EACH_FIXED_TYPE(id) {
    gcol_data_type const type = gcol_data_type_decimal((gcol_type_id)id, gcol_type_is_decimal((gcol_type_id)id) ? -2 : 0);
    for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
      for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
        int64_t const n = gcol_test_sizes[s];
        void *values = NULL;
        uint8_t *valid = NULL;
        gcol_column *col = random_column(&rng, type, n, (gcol_test_validity)p, &values, &valid);
        gcol_column_view const v = gcol_column_get_view(col);
        assert_true(gcol_data_type_equal(v.type, type));
        gcol_test_assert_column_equals_host(v, values, p == GCOL_TEST_NO_MASK ? NULL : valid, n);
        gcol_test_assert_null_count_consistent(v);
        if (p == GCOL_TEST_NO_MASK) assert_null(v.null_mask);
        gcol_column_free(col);
        free(values);
        free(valid);
      }
    }
  }
}

static void slices_read_the_right_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(32);
  gcol_data_type const types[] = {gcol_data_type_make(GCOL_INT8), gcol_data_type_make(GCOL_FLOAT64),
                                  gcol_data_type_decimal(GCOL_DECIMAL128, 3)};
  for (size_t t = 0; t < 3; ++t) {
    int64_t const n = 1000;
    void *values = NULL;
    uint8_t *valid = NULL;
    gcol_column *col = random_column(&rng, types[t], n, GCOL_TEST_RANDOM_NULLS, &values, &valid);
    size_t const width = gcol_type_size(types[t].id);
    for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
      int64_t const off = gcol_test_offsets[o];
      int64_t const len = n - off - 2 * (int64_t)o;
      gcol_column_view s, ss;
      GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), off, off + len, &s));
      gcol_test_assert_column_equals_host(s, (char *)values + off * (int64_t)width, valid + off, len);
      int64_t nulls = -1, expected = 0;
      GCOL_TEST_OK(gcol_column_view_null_count(s, NULL, &nulls));
      for (int64_t i = off; i < off + len; ++i) expected += !valid[i];
      assert_int_equal(nulls, expected);
      /* a slice of a slice */
      GCOL_TEST_OK(gcol_column_view_slice(s, 1, len / 2, &ss));
      gcol_test_assert_column_equals_host(ss, (char *)values + (off + 1) * (int64_t)width, valid + off + 1,
                                          len / 2 - 1);
      /* deep copy of the slice: offset 0, same rows, known null count */
      gcol_column *copy = NULL;
      GCOL_TEST_OK(gcol_column_copy(s, NULL, NULL, &copy));
      gcol_column_view const cv = gcol_column_get_view(copy);
      assert_int_equal(cv.offset, 0);
      assert_int_equal(cv.null_count, expected);
      gcol_test_assert_columns_equal(cv, s);
      gcol_column_free(copy);
    }
    gcol_column_free(col);
    free(values);
    free(valid);
  }
}

static void create_and_like(void **state) {
  (void)state;
  gcol_column *col = NULL, *like = NULL, *empty = NULL;
  GCOL_TEST_OK(gcol_column_create(gcol_data_type_make(GCOL_INT32), 77, GCOL_MASK_ALL_NULL, NULL, NULL, &col));
  gcol_column_view v = gcol_column_get_view(col);
  assert_int_equal(v.null_count, 77);
  gcol_test_assert_null_count_consistent(v);
  GCOL_TEST_OK(gcol_column_allocate_like(v, 5, GCOL_MASK_ALL_VALID, NULL, NULL, &like));
  assert_int_equal(gcol_column_get_view(like).null_count, 0);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(like));
  GCOL_TEST_OK(gcol_column_empty_like(v, NULL, NULL, &empty));
  assert_int_equal(empty->size, 0);
  assert_int_equal(empty->type.id, GCOL_INT32);
  gcol_column_free(like);
  like = NULL;
  GCOL_TEST_STATUS(gcol_column_create(gcol_data_type_make(GCOL_STRING), 3, GCOL_MASK_UNALLOCATED, NULL, NULL, &like),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_column_create(gcol_data_type_make(GCOL_INT32), -3, GCOL_MASK_UNALLOCATED, NULL, NULL, &like),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(like);
  /* null mask replacement */
  gcol_buffer *mask = NULL;
  GCOL_TEST_OK(gcol_bitmask_create(77, GCOL_MASK_ALL_VALID, NULL, NULL, &mask));
  GCOL_TEST_OK(gcol_column_set_null_mask(col, mask, 0));
  gcol_test_assert_null_count_consistent(gcol_column_get_view(col));
  GCOL_TEST_STATUS(gcol_column_set_null_count(col, 78), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_OK(gcol_column_set_null_mask(col, NULL, 0));
  assert_null(gcol_column_get_view(col).null_mask);
  gcol_column_free(col);
  gcol_column_free(empty);
}

/* Strings of TESTING.md: "" vs null vs "\0", 1- to 4-byte UTF-8, a long string. */
static void strings_round_trip(void **state) {
  (void)state;
  static char long_string[70000];
  memset(long_string, 'q', sizeof long_string);
  const char *strs[] = {"", NULL, "\0", "a", "\xc3\xa9", "\xe2\x82\xac", "\xf4\x8f\xbf\xbf",
                        long_string, "tail"};
  int64_t const lens[] = {0, 0, 1, 1, 2, 3, 4, (int64_t)sizeof long_string, 4};
  int64_t const n = 9;
  for (int force64 = 0; force64 <= 1; ++force64) {
    int64_t const saved = gcol_set_large_offsets_threshold(force64 ? 10 : INT32_MAX);
    gcol_column *col = NULL;
    GCOL_TEST_OK(gcol_column_create_strings_from_host(n, strs, lens, NULL, NULL, &col));
    gcol_column_view const v = gcol_column_get_view(col);
    assert_int_equal(v.children[0].type.id, force64 ? GCOL_INT64 : GCOL_INT32);
    assert_int_equal(v.null_count, 1);
    gcol_host_strings *hs = NULL;
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(v, NULL, &hs));
    for (int64_t i = 0; i < n; ++i) {
      assert_int_equal(hs->valid[i], strs[i] != NULL);
      if (strs[i] == NULL) continue;
      assert_int_equal(hs->offsets[i + 1] - hs->offsets[i], lens[i]);
      assert_memory_equal(hs->chars + hs->offsets[i], strs[i], (size_t)lens[i]);
    }
    gcol_host_strings_free(hs);
    /* slice so that the first offset is not 0, then deep-copy it */
    for (int64_t off = 1; off < n; ++off) {
      gcol_column_view s;
      GCOL_TEST_OK(gcol_column_view_slice(v, off, n, &s));
      GCOL_TEST_OK(gcol_column_strings_copy_to_host(s, NULL, &hs));
      assert_int_equal(hs->offsets[0], 0);
      for (int64_t i = 0; i < s.size; ++i) {
        if (strs[off + i] == NULL) continue;
        assert_memory_equal(hs->chars + hs->offsets[i], strs[off + i], (size_t)lens[off + i]);
      }
      gcol_host_strings_free(hs);
      gcol_column *copy = NULL;
      GCOL_TEST_OK(gcol_column_copy(s, NULL, NULL, &copy));
      gcol_test_assert_columns_equal(gcol_column_get_view(copy), s);
      gcol_column_free(copy);
    }
    gcol_column_free(col);
    gcol_set_large_offsets_threshold(saved);
  }
}

static void strings_from_arrow_style_offsets(void **state) {
  (void)state;
  /* A sliced Arrow array: offsets start at 2, row 1 null, row 3 empty. */
  const char chars[] = "xxhello\xc3\xa9wide world";
  int64_t const offsets[5] = {2, 7, 9, 9, 19};
  uint8_t const valid[4] = {1, 0, 1, 1};
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host_offsets(4, chars, offsets, valid, NULL, NULL, &col));
  gcol_host_strings *hs = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(col), NULL, &hs));
  assert_int_equal(gcol_column_get_view(col).null_count, 1);
  assert_int_equal(hs->valid[1], 0);
  assert_int_equal(hs->offsets[1] - hs->offsets[0], 5);
  assert_memory_equal(hs->chars + hs->offsets[0], "hello", 5);
  assert_int_equal(hs->offsets[3] - hs->offsets[2], 0);
  assert_memory_equal(hs->chars + hs->offsets[3], "wide world", 10);
  gcol_host_strings_free(hs);
  gcol_column_free(col);
  int64_t const decreasing[3] = {0, 4, 3};
  GCOL_TEST_STATUS(gcol_column_create_strings_from_host_offsets(2, chars, decreasing, NULL, NULL, NULL, &col),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "row 1"));
  assert_null(col);
}

static void strings_all_empty_all_null_and_zero_rows(void **state) {
  (void)state;
  const char *empties[5] = {"", "", "", "", ""};
  const char *nulls[5] = {NULL, NULL, NULL, NULL, NULL};
  gcol_column *a = NULL, *b = NULL, *c = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(5, empties, NULL, NULL, NULL, &a));
  GCOL_TEST_OK(gcol_column_create_strings_from_host(5, nulls, NULL, NULL, NULL, &b));
  GCOL_TEST_OK(gcol_column_create_strings_from_host(0, NULL, NULL, NULL, NULL, &c));
  assert_int_equal(gcol_column_get_view(a).null_count, 0);
  assert_null(gcol_column_get_view(a).null_mask);
  assert_int_equal(gcol_column_get_view(b).null_count, 5);
  gcol_column *copy = NULL;
  GCOL_TEST_OK(gcol_column_copy(gcol_column_get_view(b), NULL, NULL, &copy));
  gcol_test_assert_columns_equal(gcol_column_get_view(copy), gcol_column_get_view(b));
  gcol_column_free(copy);
  GCOL_TEST_OK(gcol_column_copy(gcol_column_get_view(c), NULL, NULL, &copy));
  assert_int_equal(copy->size, 0);
  gcol_column_free(copy);
  gcol_column_free(a);
  gcol_column_free(b);
  gcol_column_free(c);
}

/* column.h, gcol_column_copy: a view with a mask keeps one in the copy even when no row is
 * null (nullable stays nullable, as libcudf's column copy); no mask, or 0 rows, gives none. */
static void copy_keeps_an_all_valid_mask(void **state) {
  (void)state;
  int64_t const values[5] = {1, 2, 3, 4, 5};
  uint8_t const all_valid[5] = {1, 1, 1, 1, 1};
  gcol_data_type const i64 = gcol_data_type_make(GCOL_INT64);
  const char *const strings[3] = {"a", "", "c"};
  gcol_column *masked = NULL, *plain = NULL, *str = NULL, *copy = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(i64, 5, values, all_valid, NULL, NULL, &masked));
  GCOL_TEST_OK(gcol_column_create_from_host(i64, 5, values, NULL, NULL, NULL, &plain));
  assert_non_null(masked->null_mask);
  assert_int_equal(masked->null_count, 0);
  GCOL_TEST_OK(gcol_column_copy(gcol_column_get_view(masked), NULL, NULL, &copy));
  assert_non_null(copy->null_mask);
  assert_int_equal(copy->null_count, 0);
  gcol_test_assert_column_equals_host(gcol_column_get_view(copy), values, all_valid, 5);
  gcol_column_free(copy);
  gcol_column_view s; /* a slice at a bit offset: the mask is copied re-aligned */
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(masked), 1, 4, &s));
  GCOL_TEST_OK(gcol_column_copy(s, NULL, NULL, &copy));
  assert_non_null(copy->null_mask);
  assert_int_equal(copy->null_count, 0);
  gcol_test_assert_column_equals_host(gcol_column_get_view(copy), values + 1, all_valid, 3);
  gcol_column_free(copy);
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(masked), 2, 2, &s));
  GCOL_TEST_OK(gcol_column_copy(s, NULL, NULL, &copy));
  assert_null(copy->null_mask);
  gcol_column_free(copy);
  GCOL_TEST_OK(gcol_column_copy(gcol_column_get_view(plain), NULL, NULL, &copy));
  assert_null(copy->null_mask);
  gcol_column_free(copy);
  /* STRING: the same rule */
  GCOL_TEST_OK(gcol_column_create_strings_from_host(3, strings, NULL, NULL, NULL, &str));
  gcol_buffer *mask = NULL;
  GCOL_TEST_OK(gcol_bitmask_create(3, GCOL_MASK_ALL_VALID, NULL, NULL, &mask));
  GCOL_TEST_OK(gcol_column_set_null_mask(str, mask, 0));
  GCOL_TEST_OK(gcol_column_copy(gcol_column_get_view(str), NULL, NULL, &copy));
  assert_non_null(copy->null_mask);
  assert_int_equal(copy->null_count, 0);
  gcol_test_assert_columns_equal(gcol_column_get_view(copy), gcol_column_get_view(str));
  gcol_column_free(copy);
  gcol_column_free(str);
  gcol_column_free(plain);
  gcol_column_free(masked);
}

/* list<int32>: [[1,2], null, [], [3], [4,5,6]] */
static gcol_column *make_list(void) {
  int32_t const offsets[6] = {0, 2, 2, 2, 3, 6};
  int32_t const values[6] = {1, 2, 3, 4, 5, 6};
  uint8_t const valid[5] = {1, 0, 1, 1, 1};
  gcol_column *off = NULL, *val = NULL, *list = NULL, *tmp = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 6, offsets, NULL, NULL, NULL, &off));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 6, values, NULL, NULL, NULL, &val));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT8), 5, valid, valid, NULL, NULL, &tmp));
  gcol_buffer *mask = tmp->null_mask;
  tmp->null_mask = NULL;
  GCOL_TEST_OK(gcol_column_make_list(5, off, val, mask, 1, &list));
  gcol_column_free(tmp);
  return list;
}

static void lists_structs_and_dictionaries_deep_copy(void **state) {
  (void)state;
  gcol_column *list = make_list();
  gcol_column_view const lv = gcol_column_get_view(list);
  for (int64_t off = 0; off < 5; ++off) {
    gcol_column_view s;
    GCOL_TEST_OK(gcol_column_view_slice(lv, off, 5, &s));
    gcol_column *copy = NULL;
    GCOL_TEST_OK(gcol_column_copy(s, NULL, NULL, &copy));
    gcol_column_view const cv = gcol_column_get_view(copy);
    gcol_test_assert_columns_equal(cv, s);
    /* the copy holds only the values its rows use */
    int32_t const used[5] = {6, 4, 4, 4, 3};
    assert_int_equal(cv.children[GCOL_LIST_VALUES_CHILD].size, used[off]);
    gcol_column_free(copy);
  }
  /* struct {int64, list} with its own nulls */
  int64_t const ints[5] = {10, 20, 30, 40, 50};
  uint8_t const valid[5] = {1, 1, 0, 1, 1};
  gcol_column *field = NULL, *st = NULL, *maskcol = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 5, ints, NULL, NULL, NULL, &field));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT8), 5, valid, valid, NULL, NULL, &maskcol));
  gcol_buffer *mask = maskcol->null_mask;
  maskcol->null_mask = NULL;
  gcol_column *fields[2] = {field, list};
  GCOL_TEST_OK(gcol_column_make_struct(5, fields, 2, mask, 1, &st));
  gcol_column_free(maskcol);
  gcol_column_view s;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(st), 1, 4, &s));
  gcol_column *copy = NULL;
  GCOL_TEST_OK(gcol_column_copy(s, NULL, NULL, &copy));
  gcol_test_assert_columns_equal(gcol_column_get_view(copy), s);
  assert_int_equal(gcol_column_get_view(copy).null_count, 1);
  gcol_column_free(copy);
  gcol_column_free(st);
  /* dictionary: indices with a null, keys strings */
  int32_t const idx[4] = {1, 0, 1, 1};
  uint8_t const ivalid[4] = {1, 1, 0, 1};
  const char *keys_s[2] = {"apple", "pear"};
  gcol_column *indices = NULL, *keys = NULL, *dict = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 4, idx, ivalid, NULL, NULL, &indices));
  GCOL_TEST_OK(gcol_column_create_strings_from_host(2, keys_s, NULL, NULL, NULL, &keys));
  GCOL_TEST_OK(gcol_column_make_dictionary(indices, keys, &dict));
  gcol_column_view const dv = gcol_column_get_view(dict);
  assert_int_equal(dv.null_count, 1);
  GCOL_TEST_OK(gcol_column_view_slice(dv, 1, 4, &s));
  GCOL_TEST_OK(gcol_column_copy(s, NULL, NULL, &copy));
  gcol_column_view const cdv = gcol_column_get_view(copy);
  assert_int_equal(cdv.size, 3);
  assert_int_equal(cdv.null_count, 1);
  int32_t got[3];
  uint8_t gvalid[3];
  GCOL_TEST_OK(gcol_column_copy_to_host(cdv.children[0], got, gvalid, NULL));
  assert_int_equal(got[0], 0);
  assert_int_equal(gvalid[1], 0);
  assert_int_equal(got[2], 1);
  gcol_column_free(copy);
  gcol_column_free(dict);
}

static void table_copy_and_views(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(36);
  void *v1 = NULL, *v2 = NULL;
  uint8_t *m1 = NULL, *m2 = NULL;
  gcol_column *cols[2];
  cols[0] = random_column(&rng, gcol_data_type_make(GCOL_INT16), 300, GCOL_TEST_RANDOM_NULLS, &v1, &m1);
  cols[1] = random_column(&rng, gcol_data_type_make(GCOL_FLOAT32), 300, GCOL_TEST_NO_MASK, &v2, &m2);
  gcol_table *t = NULL, *copy = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 2, &t));
  gcol_column_view storage[2];
  gcol_table_view sliced;
  GCOL_TEST_OK(gcol_table_view_slice(gcol_table_get_view(t), 33, 200, storage, &sliced));
  GCOL_TEST_OK(gcol_table_copy(sliced, NULL, NULL, &copy));
  gcol_table_view const cv = gcol_table_get_view(copy);
  assert_int_equal(cv.num_rows, 167);
  for (int c = 0; c < 2; ++c) gcol_test_assert_columns_equal(cv.columns[c], sliced.columns[c]);
  gcol_table_free(copy);
  gcol_table_free(t);
  free(v1);
  free(v2);
  free(m1);
  free(m2);
}

typedef struct op_ctx {
  gcol_column *input;
  gcol_column_view view;
  gcol_column *out;
} op_ctx;

static gcol_status run_strings_from_host(void *p) {
  op_ctx *c = (op_ctx *)p;
  const char *strs[4] = {"x", NULL, "yy", ""};
  return gcol_column_create_strings_from_host(4, strs, NULL, NULL, NULL, &c->out);
}

static gcol_status run_copy(void *p) {
  op_ctx *c = (op_ctx *)p;
  return gcol_column_copy(c->view, NULL, NULL, &c->out);
}

static void free_out(void *p) {
  op_ctx *c = (op_ctx *)p;
  gcol_column_free(c->out);
  c->out = NULL;
}

static void allocation_failures_leak_nothing(void **state) {
  (void)state;
  op_ctx c;
  memset(&c, 0, sizeof c);
  assert_true(gcol_test_check_allocation_failures(run_strings_from_host, free_out, &c) >= 3);
  c.input = make_list();
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(c.input), 1, 5, &c.view));
  assert_true(gcol_test_check_allocation_failures(run_copy, free_out, &c) >= 3);
  gcol_column_free(c.input);
  const char *strs[3] = {"abc", NULL, "de"};
  GCOL_TEST_OK(gcol_column_create_strings_from_host(3, strs, NULL, NULL, NULL, &c.input));
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(c.input), 1, 3, &c.view));
  assert_true(gcol_test_check_allocation_failures(run_copy, free_out, &c) >= 3);
  gcol_column_free(c.input);
}

static void bad_arguments_are_rejected(void **state) {
  (void)state;
  gcol_column *col = NULL;
  int32_t values[2] = {1, 2};
  GCOL_TEST_STATUS(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 2, NULL, NULL, NULL, NULL, &col),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_create_from_host(gcol_data_type_make(GCOL_LIST), 2, values, NULL, NULL, NULL, &col),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 2, values, NULL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_create_strings_from_host(-1, NULL, NULL, NULL, NULL, &col),
                   GCOL_ERROR_INVALID_ARGUMENT);
  int64_t const bad_len[1] = {-2};
  const char *one[1] = {"x"};
  GCOL_TEST_STATUS(gcol_column_create_strings_from_host(1, one, bad_len, NULL, NULL, &col),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(col);
  gcol_host_strings *hs = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 2, values, NULL, NULL, NULL, &col));
  GCOL_TEST_STATUS(gcol_column_strings_copy_to_host(gcol_column_get_view(col), NULL, &hs), GCOL_ERROR_TYPE_MISMATCH);
  gcol_column_free(col);
  /* a STRING view whose offsets decrease in the middle (the total does not): rejected */
  int32_t const offsets[5] = {0, 3, 1, 4, 6};
  gcol_column *offs = NULL, *chars = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 5, offsets, NULL, NULL, NULL, &offs));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT8), 6, "abcdef", NULL, NULL, NULL, &chars));
  gcol_column_view child = gcol_column_get_view(offs);
  gcol_column_view bad = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 4, chars->data->data, NULL, 0);
  bad.num_children = 1;
  bad.children = &child;
  GCOL_TEST_STATUS(gcol_column_strings_copy_to_host(bad, NULL, &hs), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(hs);
  assert_non_null(strstr(gcol_last_error(), "row 1"));
  gcol_column_free(offs);
  gcol_column_free(chars);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(round_trip_every_type_size_and_validity),
      GCOL_TEST_GPU(slices_read_the_right_rows),
      GCOL_TEST_GPU(create_and_like),
      GCOL_TEST_GPU(strings_round_trip),
      GCOL_TEST_GPU(strings_from_arrow_style_offsets),
      GCOL_TEST_GPU(strings_all_empty_all_null_and_zero_rows),
      GCOL_TEST_GPU(copy_keeps_an_all_valid_mask),
      GCOL_TEST_GPU(lists_structs_and_dictionaries_deep_copy),
      GCOL_TEST_GPU(table_copy_and_views),
      GCOL_TEST_GPU(allocation_failures_leak_nothing),
      GCOL_TEST_GPU(bad_arguments_are_rejected),
  };
  return GCOL_TEST_RUN_GPU("columns", tests);
}
