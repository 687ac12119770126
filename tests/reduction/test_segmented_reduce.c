/*
 * gcol_segmented_reduce on the GPU: every op (but argmin/argmax, rejected) x every fixed-width
 * type, random segment lengths (empty segments included) over INT32 and INT64 offsets, both
 * sliced, every validity pattern, each segment checked against the host reference of its
 * rows (empty or all-null segments must be null, counts 0); clamping of out-of-range offsets;
 * zero segments; offsets with nulls rejected; a failure at every allocation. Tolerances as
 * test_reduce.c.
 */
#include "reduction_reference.h"

static const gcol_type_id seg_types[] = {
    GCOL_INT8,  GCOL_INT16, GCOL_INT32, GCOL_INT64, GCOL_UINT8, GCOL_UINT16, GCOL_UINT32,
    GCOL_UINT64, GCOL_FLOAT32, GCOL_FLOAT64, GCOL_BOOL8, GCOL_TIMESTAMP_DAYS,
    GCOL_TIMESTAMP_NANOSECONDS, GCOL_DURATION_DAYS, GCOL_DURATION_MICROSECONDS,
    GCOL_DECIMAL32, GCOL_DECIMAL64, GCOL_DECIMAL128};
#define NUM_SEG_TYPES (sizeof seg_types / sizeof seg_types[0])

static gcol_data_type make_type(gcol_type_id id) {
  return gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, 3) : gcol_data_type_make(id);
}

/* Random non-decreasing offsets from 0 to `rows` (num_segments + 1 of them). */
static int64_t *random_offsets(gcol_test_rng *rng, int64_t rows, int64_t num_segments) {
  int64_t *offsets = (int64_t *)malloc((size_t)(num_segments + 1) * sizeof *offsets);
  for (int64_t s = 0; s <= num_segments; ++s) offsets[s] = gcol_test_rng_range(rng, 0, rows);
  /* sort (insertion; small) then pin the ends */
  for (int64_t i = 1; i <= num_segments; ++i) {
    for (int64_t j = i; j > 0 && offsets[j - 1] > offsets[j]; --j) {
      int64_t const t = offsets[j];
      offsets[j] = offsets[j - 1];
      offsets[j - 1] = t;
    }
  }
  offsets[0] = 0;
  offsets[num_segments] = rows;
  return offsets;
}

/* A device offsets column of `type` holding `pad` junk rows then the offsets; returns the view
 * of the offsets (sliced past the junk). */
static gcol_column *offsets_to_device(const int64_t *offsets, int64_t count, gcol_type_id type,
                                      int64_t pad, gcol_column_view *view) {
  int64_t const total = count + pad;
  void *data = malloc((size_t)(total > 0 ? total : 1) * 8);
  for (int64_t i = 0; i < total; ++i) {
    int64_t const v = i < pad ? -777 : offsets[i - pad];
    if (type == GCOL_INT32) ((int32_t *)data)[i] = (int32_t)v;
    else ((int64_t *)data)[i] = v;
  }
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(type), total, data, NULL, NULL, NULL, &col));
  free(data);
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), pad, total, view));
  return col;
}

/* Runs op over the segments and checks every row against the reference of its rows. */
static void check_segments(const ref_column *host, gcol_column_view input,
                           const int64_t *offsets, gcol_column_view offsets_view,
                           int64_t num_segments, gcol_reduce_op op, const char *where) {
  char context[256];
  snprintf(context, sizeof context, "%s: segmented %s of %s, %lld segments", where,
           gcol_reduce_op_name(op), gcol_type_name(host->type.id), (long long)num_segments);
  gcol_data_type out_type;
  gcol_status rule = gcol_reduce_output_type(host->type, op, &out_type);
  if (rule == GCOL_OK && (op == GCOL_REDUCE_ARGMIN || op == GCOL_REDUCE_ARGMAX)) {
    rule = GCOL_ERROR_UNSUPPORTED;
  }
  gcol_column *out = NULL;
  gcol_status const st = gcol_segmented_reduce(input, offsets_view, op, NULL, &out, NULL, NULL);
  if (rule != GCOL_OK) {
    if (st != rule) fail_msg("%s: %s, expected %s", context, gcol_status_string(st), gcol_status_string(rule));
    assert_null(out);
    return;
  }
  if (st != GCOL_OK) fail_msg("%s: %s (%s)", context, gcol_status_string(st), gcol_last_error());
  assert_true(gcol_data_type_equal(out->type, out_type));
  assert_int_equal(out->size, num_segments);
  gcol_test_assert_null_count_consistent(gcol_column_get_view(out));
  size_t const w = gcol_type_size(out_type.id);
  unsigned char *values = (unsigned char *)malloc((size_t)(num_segments + 1) * w);
  uint8_t *valid = (uint8_t *)malloc((size_t)num_segments + 1);
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), values, valid, NULL));
  for (int64_t s = 0; s < num_segments; ++s) {
    ref_column const rows = ref_column_window(host, offsets[s], offsets[s + 1] - offsets[s]);
    ref_check_result(ref_reduce(&rows, op, 1), valid[s] != 0, ref_bits_at(values, s, w), out_type,
                     context, s);
  }
  free(values);
  free(valid);
  gcol_column_free(out);
}

static void run_random_case(gcol_test_rng *rng, gcol_type_id id, int64_t rows, int64_t num_segments,
                            int64_t input_offset, gcol_type_id offsets_type,
                            gcol_test_validity pattern, const char *where) {
  ref_column host = ref_column_random(rng, make_type(id), rows + input_offset, pattern);
  gcol_column *col = ref_column_to_device(&host);
  gcol_column_view input;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), input_offset, input_offset + rows, &input));
  ref_column const window = ref_column_window(&host, input_offset, rows);
  int64_t *offsets = random_offsets(rng, rows, num_segments);
  gcol_column_view offsets_view;
  gcol_column *offsets_col = offsets_to_device(offsets, num_segments + 1, offsets_type, 3, &offsets_view);
  char context[160];
  snprintf(context, sizeof context, "%s, %s, %s offsets, input offset %lld", where,
           gcol_test_validity_name(pattern), gcol_type_name(offsets_type), (long long)input_offset);
  for (int op = 0; op < GCOL_REDUCE_NUM_OPS; ++op) {
    check_segments(&window, input, offsets, offsets_view, num_segments, (gcol_reduce_op)op, context);
  }
  gcol_column_free(offsets_col);
  gcol_column_free(col);
  free(offsets);
  ref_column_free(&host);
}

static void test_segmented_every_type(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6101);
  for (size_t t = 0; t < NUM_SEG_TYPES; ++t) {
    run_random_case(&rng, seg_types[t], 3000, 97, 0, GCOL_INT32, GCOL_TEST_RANDOM_NULLS, "types");
    run_random_case(&rng, seg_types[t], 1000, 10, 33, GCOL_INT64, GCOL_TEST_NO_MASK, "types");
  }
}

static void test_segmented_validity_and_shapes(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6102);
  for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
    run_random_case(&rng, GCOL_INT32, 700, 40, 5, GCOL_INT64, (gcol_test_validity)p, "validity");
    run_random_case(&rng, GCOL_FLOAT64, 700, 40, 65, GCOL_INT32, (gcol_test_validity)p, "validity");
  }
  /* many tiny segments, one huge segment, segments over an empty input */
  /* under the tools a tenth: 1500 segments (a block each) over 2000 rows, still many empty and
   * one-row segments and far more segments than a block has threads */
  run_random_case(&rng, GCOL_INT64, gcol_test_if_sparse(20000, 2000),
                  gcol_test_if_sparse(15000, 1500), 1, GCOL_INT32, GCOL_TEST_RANDOM_NULLS, "tiny");
  run_random_case(&rng, GCOL_FLOAT32, gcol_test_cap(300007), 1, 7, GCOL_INT64, GCOL_TEST_RANDOM_NULLS, "huge");
  run_random_case(&rng, GCOL_UINT16, 0, 5, 0, GCOL_INT32, GCOL_TEST_RANDOM_NULLS, "empty input");
}

static void test_segmented_counts_of_strings(void **state) {
  (void)state;
  const char *const strs[] = {"a", NULL, "", "bcd", NULL, NULL, "e"};
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(7, strs, NULL, NULL, NULL, &col));
  int64_t const offsets[] = {0, 2, 2, 6, 7};
  gcol_column_view offsets_view;
  gcol_column *offsets_col = offsets_to_device(offsets, 5, GCOL_INT64, 0, &offsets_view);
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_segmented_reduce(gcol_column_get_view(col), offsets_view, GCOL_REDUCE_COUNT_VALID,
                                     NULL, &out, NULL, NULL));
  int64_t counts[4];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), counts, NULL, NULL));
  int64_t const expected[4] = {1, 0, 2, 1};
  assert_memory_equal(counts, expected, sizeof counts);
  assert_int_equal(out->null_count, 0);
  gcol_column_free(out);
  GCOL_TEST_STATUS(gcol_segmented_reduce(gcol_column_get_view(col), offsets_view, GCOL_REDUCE_MAX,
                                         NULL, &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(out);
  gcol_column_free(offsets_col);
  gcol_column_free(col);
}

static void test_segmented_clamps_offsets(void **state) {
  (void)state;
  int32_t const values[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  ref_column host = {gcol_data_type_make(GCOL_INT32), 10, (unsigned char *)values, NULL};
  gcol_column *col = ref_column_to_device(&host);
  int64_t const offsets[] = {-5, 3, 100, 2};
  gcol_column_view offsets_view;
  gcol_column *offsets_col = offsets_to_device(offsets, 4, GCOL_INT64, 0, &offsets_view);
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_segmented_reduce(gcol_column_get_view(col), offsets_view, GCOL_REDUCE_SUM, NULL,
                                     &out, NULL, NULL));
  int64_t sums[3];
  uint8_t valid[3];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(out), sums, valid, NULL));
  /* [0,3) = 6, [3,10) = 49, [10,10) empty: null (a decreasing bound clamps to empty) */
  assert_true(valid[0] && sums[0] == 6);
  assert_true(valid[1] && sums[1] == 49);
  assert_false(valid[2]);
  assert_int_equal(out->null_count, 1);
  gcol_column_free(out);
  gcol_column_free(offsets_col);
  gcol_column_free(col);
}

static void test_segmented_zero_segments_and_bad_offsets(void **state) {
  (void)state;
  int64_t const one[] = {0};
  gcol_column_view offsets_view;
  gcol_column *offsets_col = offsets_to_device(one, 1, GCOL_INT32, 0, &offsets_view);
  int32_t const values[3] = {1, 2, 3};
  ref_column host = {gcol_data_type_make(GCOL_INT32), 3, (unsigned char *)values, NULL};
  gcol_column *col = ref_column_to_device(&host);
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_segmented_reduce(gcol_column_get_view(col), offsets_view, GCOL_REDUCE_MAX, NULL,
                                     &out, NULL, NULL));
  assert_int_equal(out->size, 0);
  assert_int_equal(out->type.id, GCOL_INT32);
  gcol_column_free(out);
  gcol_column_free(offsets_col);
  /* offsets with a null */
  int64_t const bounds[3] = {0, 1, 3};
  uint8_t const bounds_valid[3] = {1, 0, 1};
  gcol_column *nullable = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 3, bounds, bounds_valid,
                                            NULL, NULL, &nullable));
  GCOL_TEST_STATUS(gcol_segmented_reduce(gcol_column_get_view(col), gcol_column_get_view(nullable),
                                         GCOL_REDUCE_SUM, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "offsets"));
  gcol_column_free(nullable);
  gcol_column_free(col);
}

typedef struct fault_ctx {
  gcol_column_view input, offsets;
  gcol_reduce_op op;
} fault_ctx;

static gcol_status run_segmented(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column *out = (gcol_column *)&out;
  gcol_status const st = gcol_segmented_reduce(c->input, c->offsets, c->op, NULL, &out, NULL, NULL);
  if (st != GCOL_OK) assert_null(out);
  else gcol_column_free(out);
  return st;
}

static void test_segmented_fail_every_allocation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(6103);
  ref_column host = ref_column_random(&rng, make_type(GCOL_FLOAT64), 5000, GCOL_TEST_RANDOM_NULLS);
  gcol_column *col = ref_column_to_device(&host);
  int64_t *offsets = random_offsets(&rng, 4990, 50);
  fault_ctx ctx;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), 10, 5000, &ctx.input));
  gcol_column *offsets_col = offsets_to_device(offsets, 51, GCOL_INT32, 1, &ctx.offsets);
  static const gcol_reduce_op ops[] = {GCOL_REDUCE_SUM, GCOL_REDUCE_STD, GCOL_REDUCE_COUNT_ALL,
                                       GCOL_REDUCE_MIN};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
    ctx.op = ops[k];
    assert_true(ref_fail_nth_loop(run_segmented, &ctx, gcol_reduce_op_name(ops[k])) >= 2);
  }
  gcol_column_free(offsets_col);
  gcol_column_free(col);
  free(offsets);
  ref_column_free(&host);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_segmented_every_type),
      GCOL_TEST_GPU(test_segmented_validity_and_shapes),
      GCOL_TEST_GPU(test_segmented_counts_of_strings),
      GCOL_TEST_GPU(test_segmented_clamps_offsets),
      GCOL_TEST_GPU(test_segmented_zero_segments_and_bad_offsets),
      GCOL_TEST_GPU(test_segmented_fail_every_allocation),
  };
  return GCOL_TEST_RUN_GPU("reduction_segmented", tests);
}
