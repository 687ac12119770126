/*
 * Errors name the public function the user called (docs/design.md, "Errors and logging"):
 * bad input to public functions of every area fails before any device work with the
 * expected status, gcol_last_error() starts with "<function>: ", and the thread is outside
 * gcol again afterwards (every return path popped the entry). Views point at fake device
 * memory: a check that let bad input through would fault. scripts/check-api-names checks
 * the entry of every public function statically; this checks what the user reads.
 */
#include "test_util.h"

#include <stdint.h>
#include <string.h>

#include "gcol/gcol.h"
#include "internal/nvtx.h"

#define FAKE_PTR ((const void *)(uintptr_t)0x10)

static gcol_column_view fake_view(gcol_type_id type, int64_t size) {
  return gcol_column_view_make(gcol_data_type_make(type), size, FAKE_PTR, NULL, 0);
}

static gcol_table_view fake_table(const gcol_column_view *columns, int32_t num_columns) {
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(columns, num_columns, &t));
  return t;
}

/* fn(...) fails with `expected`, its message starts with "fn: " and no entry is left open. */
#define EXPECT_NAMED(expected, fn, ...)                                         \
  do {                                                                          \
    gcol_clear_last_error();                                                    \
    GCOL_TEST_STATUS(fn(__VA_ARGS__), (expected));                              \
    expect_prefix(#fn);                                                         \
    if (gcol_detail_api_depth() != 0) fail_msg("%s left the API entered", #fn); \
  } while (0)

static void expect_prefix(const char *name) {
  const char *const message = gcol_last_error();
  size_t const n = strlen(name);
  if (strncmp(message, name, n) != 0 || message[n] != ':') {
    fail_msg("the message of %s does not start with \"%s:\": \"%s\"", name, name, message);
  }
}

static void test_column_and_table(void **state) {
  (void)state;
  gcol_column_view const v10 = fake_view(GCOL_INT32, 10);
  gcol_column_view const cols[2] = {v10, fake_view(GCOL_INT32, 7)};
  gcol_column_view bad = v10;
  bad.size = -1;
  gcol_column_view sliced;
  gcol_table_view tv;
  int32_t const out_of_range = 3;
  gcol_column_view storage[1];
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_create, gcol_data_type_make(GCOL_INT32), 10,
               GCOL_MASK_UNALLOCATED, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_allocate_like, v10, 4,
               GCOL_MASK_UNALLOCATED, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_view_slice, v10, 5, 2, &sliced);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_view_validate, bad, "input");
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_view_null_count, v10, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_acquire_view, NULL, NULL, &sliced);
  EXPECT_NAMED(GCOL_ERROR_SIZE_MISMATCH, gcol_table_view_make, cols, 2, &tv);
  tv = fake_table(cols, 1);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_table_view_select, tv, &out_of_range, 1, storage,
               &tv);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_table_make, NULL, 1, NULL);
  /* one host-column form for both kinds: refused before any copy */
  gcol_column *col = NULL;
  gcol_host_column host = {gcol_data_type_make(GCOL_LIST), 0, NULL, NULL, NULL};
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_copy_to_host_column, v10, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_create_from_host_column, NULL, NULL, NULL,
               &col);
  EXPECT_NAMED(GCOL_ERROR_UNSUPPORTED, gcol_column_create_from_host_column, &host, NULL, NULL,
               &col);
  assert_non_null(strstr(gcol_last_error(), "host is "));
  host.type = gcol_data_type_make(GCOL_STRING);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_create_from_host_column, &host, NULL, NULL,
               &col);
  assert_null(col);
}

static void test_copying_filtering(void **state) {
  (void)state;
  gcol_column_view const v10 = fake_view(GCOL_INT32, 10);
  gcol_table_view const t = fake_table(&v10, 1);
  gcol_table *tout = NULL;
  gcol_column *out = NULL;
  gcol_scalar *scalar = NULL;
  int32_t const key = 0;
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_gather, t, fake_view(GCOL_FLOAT32, 4),
               GCOL_OUT_OF_BOUNDS_NULLIFY, GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &tout, NULL, NULL);
  /* the column form wraps gcol_gather: the message names the form the user called */
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_column_gather, v10, fake_view(GCOL_FLOAT32, 4),
               GCOL_OUT_OF_BOUNDS_NULLIFY, GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_reverse, t, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_concatenate, NULL, 2, &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_SIZE_MISMATCH, gcol_copy_if_else, v10, fake_view(GCOL_INT32, 7),
               fake_view(GCOL_BOOL8, 10), &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_get_element, v10, 10, &scalar, NULL);
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_apply_boolean_mask, t, fake_view(GCOL_INT8, 10),
               &tout, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_SIZE_MISMATCH, gcol_column_apply_boolean_mask, v10,
               fake_view(GCOL_BOOL8, 9), &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_drop_nulls, t, NULL, 1, 1, &tout, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_distinct, t, &key, 1, GCOL_KEEP_ANY,
               GCOL_NULLS_EQUAL, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_sequence, 4, NULL, NULL, &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_is_null, v10, NULL, NULL, NULL);
}

static void test_sorting_search(void **state) {
  (void)state;
  gcol_column_view const v10 = fake_view(GCOL_INT32, 10);
  gcol_table_view const t = fake_table(&v10, 1);
  gcol_column *out = NULL;
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_sorted_order, t, NULL, NULL, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_sort, v10, GCOL_ORDER_ASCENDING,
               GCOL_NULLS_BEFORE, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_rank, v10, GCOL_RANK_MIN, GCOL_ORDER_ASCENDING,
               GCOL_RANK_NULLS_KEEP, false, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_lower_bound, t, t, NULL, NULL, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_contains, v10, fake_view(GCOL_FLOAT64, 3), &out, NULL,
               NULL);
}

static void test_operators(void **state) {
  (void)state;
  gcol_column_view const v10 = fake_view(GCOL_INT32, 10);
  gcol_data_type const i32 = gcol_data_type_make(GCOL_INT32);
  gcol_column *out = NULL;
  gcol_scalar *scalar = NULL;
  gcol_data_type type;
  /* the issue's own example: "gcol_binary_operation: lhs has 10 rows, rhs 7" */
  EXPECT_NAMED(GCOL_ERROR_SIZE_MISMATCH, gcol_binary_operation, v10, fake_view(GCOL_INT32, 7),
               GCOL_BINARY_ADD, i32, &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_binary_op_output_type, i32, i32, GCOL_BINARY_ADD,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_unary_operation, v10, GCOL_UNARY_SQRT, NULL, NULL,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_unary_op_check_type, i32, GCOL_UNARY_SQRT, &type);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_cast, v10, gcol_data_type_make(GCOL_INT64), NULL,
               NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_reduce, v10, GCOL_REDUCE_SUM, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_reduce_output_type, i32, GCOL_REDUCE_SUM, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_quantiles, v10, NULL, 2, GCOL_INTERPOLATION_LINEAR,
               &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scan, v10, GCOL_SCAN_SUM, GCOL_SCAN_INCLUSIVE,
               GCOL_SCAN_NULLS_EXCLUDE, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scan_output_type, i32, GCOL_SCAN_SUM, NULL);
  (void)scalar;
}

static void test_groupby_join_hashing(void **state) {
  (void)state;
  gcol_column_view const k8 = fake_view(GCOL_INT64, 8);
  gcol_table_view const keys = fake_table(&k8, 1);
  gcol_groupby_agg const sum = gcol_groupby_agg_make(GCOL_GROUPBY_SUM);
  gcol_groupby_request const req = {fake_view(GCOL_FLOAT64, 7), &sum, 1};
  gcol_groupby_result *res = NULL;
  gcol_data_type type;
  gcol_column *right = NULL;
  gcol_table *tout = NULL;
  int32_t const on = 0;
  int64_t offsets[4];
  EXPECT_NAMED(GCOL_ERROR_SIZE_MISMATCH, gcol_groupby_aggregate, keys, &req, 1, NULL, &res, NULL,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_groupby_output_type,
               gcol_data_type_make(GCOL_FLOAT64), NULL, &type);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_join, keys, keys, GCOL_JOIN_INNER,
               GCOL_NULLS_EQUAL, NULL, &right, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_join_tables, keys, NULL, keys, &on, 1,
               GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, false, &tout, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_hash, keys, GCOL_HASH_MURMUR3_32, 0, NULL, NULL,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_hash_partition, keys, &on, 1, 0,
               GCOL_HASH_MURMUR3_32, 0, &tout, offsets, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_partition, keys, fake_view(GCOL_FLOAT32, 8), 3, &tout,
               offsets, NULL, NULL);
}

static void test_strings_regex(void **state) {
  (void)state;
  gcol_column_view const ints = fake_view(GCOL_INT32, 4);
  gcol_column_view const empty =
      gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 0, NULL, NULL, 0);
  gcol_table_view const t = fake_table(&empty, 1);
  gcol_column *out = NULL;
  gcol_table *tout = NULL;
  gcol_regex *re = NULL;
  gcol_strings_view sv;
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_strings_contains, empty, NULL, &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_strings_count_characters, ints, &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_strings_split, empty, NULL, -1, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_strings_concatenate, t, NULL, NULL, NULL, NULL,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_strings_from_booleans, empty, NULL, NULL, NULL,
               NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_strings_view_make, ints, &sv);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_regex_compile, NULL, 0, 0, &re);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_regex_compile, "(a", -1, 0, &re);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_strings_regex_contains, empty, NULL, &out, NULL,
               NULL);
  (void)tout;
}

static void test_io_interop_pack(void **state) {
  (void)state;
  gcol_column_view const v10 = fake_view(GCOL_INT32, 10);
  gcol_table_view const t = fake_table(&v10, 1);
  gcol_table *tout = NULL;
  gcol_column *out = NULL;
  gcol_parquet_metadata *md = NULL;
  gcol_unpacked_table *unpacked = NULL;
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_csv_read_file, NULL, NULL, &tout, NULL, NULL,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_csv_write_file, t, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_parquet_read_file, NULL, NULL, &tout, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_parquet_metadata_read_file, NULL, &md);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_parquet_metadata_read_page_index_file, NULL,
               "x.parquet");
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_parquet_metadata_read_page_index_buffer, NULL,
               FAKE_PTR, 12);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_parquet_metadata_read_page_index_source, NULL,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_parquet_metadata_page_index, NULL, 0, 0, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_parquet_metadata_num_pages, NULL, 0, 0, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_parquet_metadata_page_statistics, NULL, 0, 0, 0,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_arrow_export_column, v10, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_arrow_import_column, NULL, NULL, NULL, NULL, &out,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_dlpack_export_column, v10, NULL, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_pack, t, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_unpack, NULL, 0, NULL, 0, &unpacked);
}

static void test_core_spill_frame(void **state) {
  (void)state;
  gcol_type_id id;
  gcol_log_level level;
  gcol_scalar *scalar = NULL;
  int64_t value = 0;
  gcol_name name;
  gcol_frame *frame = NULL;
  gcol_indexalator ix;
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_type_from_name, "no_such_type", &id);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_log_level_parse, NULL, &level);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_mr_host_create, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_buffer_create, 16, NULL, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_scalar_create_int, gcol_data_type_make(GCOL_FLOAT32),
               1, &scalar);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_get_int, NULL, &value);
  /* every constructor refuses a NULL output (create_int and create_string crashed) */
  gcol_data_type const i32 = gcol_data_type_make(GCOL_INT32);
  gcol_int128 const one = {1, 0};
  int32_t const storage = 7;
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_int, i32, 1, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_uint, i32, 1, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_uint,
               gcol_data_type_make(GCOL_UINT64), 1, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_float,
               gcol_data_type_make(GCOL_FLOAT64), 1.0, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_decimal,
               gcol_data_type_decimal(GCOL_DECIMAL64, 2), one, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_decimal,
               gcol_data_type_decimal(GCOL_DECIMAL128, 2), one, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_string, "ab", 2, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_cstring, "ab", NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_null, i32, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_scalar_create_from_storage, i32, &storage, NULL);
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_indexalator_make, fake_view(GCOL_FLOAT32, 4), &ix);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_expression_create, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_spill_get_options, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_spill_statistics_get, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_spill_scope_begin, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_make, NULL, NULL, 0, 1, &frame);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_get_name, NULL, 0, &name);
  const char *const a_level[] = {"a"};
  gcol_name const a = gcol_name_make(a_level, 1);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_select_prefix, NULL, a, NULL, &frame);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_sort, NULL, &a, 1, NULL, NULL, &frame, NULL,
               NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_apply_boolean_mask, NULL,
               fake_view(GCOL_BOOL8, 4), &frame, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_filter, NULL, a, &frame, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_distinct, NULL, NULL, 0, GCOL_KEEP_FIRST,
               GCOL_NULLS_EQUAL, &frame, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_gather, NULL, fake_view(GCOL_INT32, 4),
               GCOL_OUT_OF_BOUNDS_CHECK, GCOL_NEGATIVE_INDEX_WRAP, &frame, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_slice, NULL, 0, 0, &frame, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_head, NULL, 1, &frame, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_frame_concatenate, NULL, 1, &frame, NULL, NULL);
  (void)scalar;
}

/* After a failure inside a nested public call, the next call names itself, not the last. */
static void test_names_do_not_stick(void **state) {
  (void)state;
  gcol_column_view const v10 = fake_view(GCOL_INT32, 10);
  gcol_column *out = NULL;
  EXPECT_NAMED(GCOL_ERROR_TYPE_MISMATCH, gcol_column_gather, v10, fake_view(GCOL_FLOAT32, 4),
               GCOL_OUT_OF_BOUNDS_NULLIFY, GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &out, NULL, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_reduce_output_type,
               gcol_data_type_make(GCOL_INT32), GCOL_REDUCE_SUM, NULL);
  EXPECT_NAMED(GCOL_ERROR_INVALID_ARGUMENT, gcol_column_allocate_like, v10, 4,
               GCOL_MASK_UNALLOCATED, NULL, NULL, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_column_and_table),     cmocka_unit_test(test_copying_filtering),
      cmocka_unit_test(test_sorting_search),       cmocka_unit_test(test_operators),
      cmocka_unit_test(test_groupby_join_hashing), cmocka_unit_test(test_strings_regex),
      cmocka_unit_test(test_io_interop_pack),      cmocka_unit_test(test_core_spill_frame),
      cmocka_unit_test(test_names_do_not_stick),
  };
  return GCOL_TEST_RUN("api_errors", tests);
}
