/*
 * Large suite: gather, boolean-mask filter and concatenate beyond 2^31 rows (int8 data, so
 * the rows fit), and a strings concatenation whose chars pass 2^31 bytes (INT64 offsets).
 * Every result is checked row by row on the host. Needs ~40 GB of device memory and ~16 GB
 * of host memory; skips (TAP SKIP) with less device memory.
 */
#include <cuda_runtime_api.h>
#include <string.h>

#include "gcol/copying.h"
#include "gcol/filling.h"
#include "gcol/filtering.h"
#include "test_util.h"

static int64_t const beyond_2_31 = ((int64_t)1 << 31) + 4099;

/* A random INT8 device column of n rows, and its host copy in *host. */
static gcol_column *random_int8(gcol_test_rng *rng, int64_t n, int8_t **host) {
  gcol_column *col = NULL;
  *host = (int8_t *)malloc((size_t)n);
  assert_non_null(*host);
  gcol_test_rng_fill(rng, *host, (size_t)n);
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT8), n, *host, NULL,
                                            NULL, NULL, &col));
  return col;
}

/* Copies an INT8 view back to the host (caller frees). */
static int8_t *int8_to_host(gcol_column_view v) {
  int8_t *host = (int8_t *)malloc((size_t)(v.size > 0 ? v.size : 1));
  assert_non_null(host);
  GCOL_TEST_OK(gcol_column_copy_to_host(v, host, NULL, NULL));
  return host;
}

/* Gather by an INT64 map that reverses the rows: out[i] = in[n - 1 - i]. */
static void test_gather_int8_beyond_2_31_rows(void **state) {
  (void)state;
  int64_t const n = beyond_2_31;
  gcol_test_rng rng = gcol_test_rng_make(51);
  int8_t *host = NULL;
  gcol_column *col = random_int8(&rng, n, &host);
  gcol_scalar *init = NULL, *step = NULL;
  gcol_column *map = NULL;
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), n - 1, &init));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), -1, &step));
  GCOL_TEST_OK(gcol_sequence(n, init, step, &map, NULL, NULL));
  gcol_column_view const v = gcol_column_get_view(col);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&v, 1, &t));
  GCOL_TEST_OK(gcol_gather(t, gcol_column_get_view(map), GCOL_OUT_OF_BOUNDS_CHECK,
                           GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &out, NULL, NULL));
  gcol_column_free(map);
  gcol_column_free(col);
  gcol_column_view const r = gcol_table_get_view(out).columns[0];
  assert_int_equal(r.size, n);
  int8_t *got = int8_to_host(r);
  for (int64_t i = 0; i < n; ++i) {
    if (got[i] != host[n - 1 - i]) fail_msg("gather row %lld differs", (long long)i);
  }
  free(got);
  free(host);
  gcol_table_free(out);
  gcol_scalar_free(init);
  gcol_scalar_free(step);
}

/* A filter that keeps 15 of every 16 rows of 2^31 + 2^28 rows: the output passes 2^31 too. */
static void test_filter_int8_beyond_2_31_rows(void **state) {
  (void)state;
  int64_t const n = ((int64_t)1 << 31) + ((int64_t)1 << 28) + 4099;
  gcol_test_rng rng = gcol_test_rng_make(52);
  int8_t *host = NULL;
  gcol_column *col = random_int8(&rng, n, &host);
  uint8_t *keep = (uint8_t *)malloc((size_t)n);
  assert_non_null(keep);
  gcol_test_rng_fill(&rng, keep, (size_t)n);
  for (int64_t i = 0; i < n; ++i) keep[i] = (uint8_t)((keep[i] & 15) != 0);
  gcol_column *mask = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), n, keep, NULL, NULL,
                                            NULL, &mask));
  gcol_column_view const v = gcol_column_get_view(col);
  gcol_table_view t;
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_table_view_make(&v, 1, &t));
  GCOL_TEST_OK(gcol_apply_boolean_mask(t, gcol_column_get_view(mask), &out, NULL, NULL));
  gcol_column_free(mask);
  gcol_column_free(col);
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) kept += keep[i];
  assert_true(kept > ((int64_t)1 << 31));
  gcol_column_view const r = gcol_table_get_view(out).columns[0];
  assert_int_equal(r.size, kept);
  int8_t *got = int8_to_host(r);
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    if (got[j] != host[i]) fail_msg("filter output row %lld (input %lld) differs", (long long)j,
                                    (long long)i);
    ++j;
  }
  free(got);
  free(keep);
  free(host);
  gcol_table_free(out);
}

/* The tiled select with nulls past 2^31: a column of 2^31 + 2^28 rows sliced at an odd row,
 * null every 7th row, nine rows in ten kept (so the output too is past 2^31 rows): validity
 * bits written and ORed at output bit offsets beyond 2^31, and the null count. */
static void test_filter_nulls_beyond_2_31_rows(void **state) {
  (void)state;
  int64_t const n = ((int64_t)1 << 31) + ((int64_t)1 << 28) + 4099, skip = 3;
  gcol_test_rng rng = gcol_test_rng_make(55);
  int8_t *host = NULL;
  uint8_t *valid = (uint8_t *)malloc((size_t)n), *keep = (uint8_t *)malloc((size_t)n);
  assert_non_null(valid);
  assert_non_null(keep);
  for (int64_t i = 0; i < n; ++i) valid[i] = (uint8_t)(i % 7 != 0);
  host = (int8_t *)malloc((size_t)n);
  assert_non_null(host);
  gcol_test_rng_fill(&rng, host, (size_t)n);
  gcol_test_rng_fill(&rng, keep, (size_t)n);
  for (int64_t i = 0; i < n; ++i) keep[i] = (uint8_t)((keep[i] & 7) != 0 || i % 5 == 0);
  gcol_column *col = NULL, *mask = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT8), n, host, valid, NULL,
                                            NULL, &col));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), n - skip,
                                            keep + skip, NULL, NULL, NULL, &mask));
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), skip, n, &v));
  gcol_table_view t;
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_table_view_make(&v, 1, &t));
  GCOL_TEST_OK(gcol_apply_boolean_mask(t, gcol_column_get_view(mask), &out, NULL, NULL));
  gcol_column_free(mask);
  gcol_column_free(col);
  int64_t kept = 0, nulls = 0;
  for (int64_t i = skip; i < n; ++i) {
    kept += keep[i];
    nulls += keep[i] && !valid[i];
  }
  assert_true(kept > ((int64_t)1 << 31));
  gcol_column_view const r = gcol_table_get_view(out).columns[0];
  assert_int_equal(r.size, kept);
  assert_int_equal(r.null_count, nulls);
  int8_t *got = (int8_t *)malloc((size_t)kept);
  uint8_t *got_valid = (uint8_t *)malloc((size_t)kept);
  assert_non_null(got);
  assert_non_null(got_valid);
  GCOL_TEST_OK(gcol_column_copy_to_host(r, got, got_valid, NULL));
  int64_t j = 0;
  for (int64_t i = skip; i < n; ++i) {
    if (!keep[i]) continue;
    if (got_valid[j] != valid[i] || (valid[i] && got[j] != host[i])) {
      fail_msg("filter output row %lld (input %lld) differs", (long long)j, (long long)i);
    }
    ++j;
  }
  free(got), free(got_valid), free(keep), free(valid), free(host);
  gcol_table_free(out);
}

/* Two int8 columns of just over 2^30 rows each, then one with itself sliced: > 2^31 rows. */
static void test_concatenate_int8_beyond_2_31_rows(void **state) {
  (void)state;
  int64_t const n0 = ((int64_t)1 << 30) + 2049, n1 = ((int64_t)1 << 30) + 4097;
  gcol_test_rng rng = gcol_test_rng_make(53);
  int8_t *h0 = NULL, *h1 = NULL;
  gcol_column *c0 = random_int8(&rng, n0, &h0);
  gcol_column *c1 = random_int8(&rng, n1, &h1);
  gcol_column_view parts[2] = {gcol_column_get_view(c0), gcol_column_get_view(c1)};
  GCOL_TEST_OK(gcol_column_view_slice(parts[1], 3, n1, &parts[1]));   /* not byte-aligned */
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_concatenate(parts, 2, &out, NULL, NULL));
  gcol_column_free(c0);
  gcol_column_free(c1);
  int64_t const total = n0 + n1 - 3;
  assert_true(total > ((int64_t)1 << 31));
  assert_int_equal(gcol_column_get_view(out).size, total);
  int8_t *got = int8_to_host(gcol_column_get_view(out));
  assert_int_equal(memcmp(got, h0, (size_t)n0), 0);
  assert_int_equal(memcmp(got + n0, h1 + 3, (size_t)(n1 - 3)), 0);
  free(got);
  free(h0);
  free(h1);
  gcol_column_free(out);
}

/* 2^20 strings of 1201 bytes, concatenated with themselves: 2.5e9 chars, INT64 offsets. */
static void test_concatenate_strings_beyond_2_31_chars(void **state) {
  (void)state;
  int64_t const rows = (int64_t)1 << 20, len = 1201;
  int64_t const bytes = rows * len;
  gcol_test_rng rng = gcol_test_rng_make(54);
  char *chars = (char *)malloc((size_t)bytes);
  int64_t *offsets = (int64_t *)malloc((size_t)(rows + 1) * sizeof(int64_t));
  assert_non_null(chars);
  assert_non_null(offsets);
  gcol_test_rng_fill(&rng, chars, (size_t)bytes);
  for (int64_t i = 0; i <= rows; ++i) offsets[i] = i * len;
  gcol_column *col = NULL, *out = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host_offsets(rows, chars, offsets, NULL, NULL, NULL,
                                                            &col));
  gcol_column_view const parts[2] = {gcol_column_get_view(col), gcol_column_get_view(col)};
  GCOL_TEST_OK(gcol_concatenate(parts, 2, &out, NULL, NULL));
  gcol_column_free(col);
  gcol_column_view const r = gcol_column_get_view(out);
  assert_int_equal(r.size, 2 * rows);
  gcol_column_view const offs = r.children[GCOL_OFFSETS_CHILD];
  assert_int_equal(offs.type.id, GCOL_INT64);
  int64_t *got_offsets = (int64_t *)malloc((size_t)(2 * rows + 1) * sizeof(int64_t));
  char *got = (char *)malloc((size_t)(2 * bytes));
  assert_non_null(got_offsets);
  assert_non_null(got);
  assert_int_equal(cudaMemcpy(got_offsets, (const int64_t *)offs.data + offs.offset,
                              (size_t)(2 * rows + 1) * sizeof(int64_t), cudaMemcpyDeviceToHost),
                   cudaSuccess);
  assert_int_equal(cudaMemcpy(got, r.data, (size_t)(2 * bytes), cudaMemcpyDeviceToHost),
                   cudaSuccess);
  for (int64_t i = 0; i <= 2 * rows; ++i) {
    if (got_offsets[i] != i * len) fail_msg("offset %lld is %lld", (long long)i,
                                            (long long)got_offsets[i]);
  }
  assert_int_equal(memcmp(got, chars, (size_t)bytes), 0);
  assert_int_equal(memcmp(got + bytes, chars, (size_t)bytes), 0);
  free(got);
  free(got_offsets);
  free(chars);
  free(offsets);
  gcol_column_free(out);
}

int main(void) {
  size_t free_bytes = 0, total_bytes = 0;
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_gather_int8_beyond_2_31_rows),
      GCOL_TEST_GPU(test_filter_int8_beyond_2_31_rows),
      GCOL_TEST_GPU(test_filter_nulls_beyond_2_31_rows),
      GCOL_TEST_GPU(test_concatenate_int8_beyond_2_31_rows),
      GCOL_TEST_GPU(test_concatenate_strings_beyond_2_31_chars),
  };
  if (gcol_test_has_device() && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess &&
      free_bytes < ((size_t)40 << 30)) {
    printf("1..0 # SKIP needs 40 GiB of free device memory, %zu MiB free\n", free_bytes >> 20);
    return 0;
  }
  return GCOL_TEST_RUN_GPU("copying_large", tests);
}
