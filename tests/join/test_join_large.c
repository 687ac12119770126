/*
 * Large suite: an inner join with more than 2^31 output rows (46341 x 46341 rows of one key),
 * whole and in batches: the exact size, the maps' type and sampled rows (left row i owns
 * output rows [i * nr, (i + 1) * nr), each of its matches a distinct right row). Needs
 * ~40 GiB of device memory; skips (TAP SKIP) with less. A radix-partitioned join of more than
 * 2^31 probe rows (INT64 maps, positions' rows int64) needs ~50 GiB and skips with less.
 */
#include <cuda_runtime_api.h>
#include <string.h>

#include "gcol/filling.h"
#include "gcol/join.h"
#include "test_util.h"

static int64_t const side = 46341; /* side * side > 2^31 */

/* Element k of an INT32 map. */
static int64_t map_at(const gcol_column *m, int64_t k) {
  int32_t v = 0;
  gcol_column_view s;
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(m), k, k + 1, &s));
  GCOL_TEST_OK(gcol_column_copy_to_host(s, &v, NULL, NULL));
  return v;
}

static void test_inner_join_beyond_2_31_rows(void **state) {
  (void)state;
  gcol_scalar *seven = NULL, *zero = NULL;
  gcol_column *keys = NULL, *l = NULL, *r = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 7, &seven));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 0, &zero));
  GCOL_TEST_OK(gcol_sequence(side, seven, zero, &keys, NULL, NULL)); /* every key 7 */
  gcol_column_view const v = gcol_column_get_view(keys);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&v, 1, &t));
  gcol_join_hash *h = NULL;
  GCOL_TEST_OK(gcol_join_hash_create(t, GCOL_NULLS_EQUAL, &h, NULL));
  int64_t size = 0;
  GCOL_TEST_OK(gcol_join_hash_probe_size(h, t, GCOL_JOIN_INNER, &size, NULL));
  assert_int_equal(size, side * side);
  assert_true(size > ((int64_t)1 << 31));
  GCOL_TEST_OK(gcol_join_hash_probe(h, t, GCOL_JOIN_INNER, 0, -1, &l, &r, NULL, NULL));
  assert_int_equal(l->size, size);
  assert_int_equal(l->type.id, GCOL_INT32); /* rows fit in int32, the output does not */
  gcol_test_rng rng = gcol_test_rng_make(1410);
  for (int s = 0; s < 64; ++s) {
    int64_t const k = s == 0 ? size - 1 : gcol_test_rng_range(&rng, 0, size - 1);
    assert_int_equal(map_at(l, k), k / side);
    int64_t const rr = map_at(r, k);
    assert_true(rr >= 0 && rr < side);
  }
  gcol_column_free(l);
  gcol_column_free(r);
  /* batches of 2^30 rows: sizes add up, and the last batch's tail is the last left row */
  int64_t const batch = (int64_t)1 << 30;
  int64_t covered = 0;
  for (int64_t first = 0; first < size; first += batch) {
    GCOL_TEST_OK(gcol_join_hash_probe(h, t, GCOL_JOIN_INNER, first, batch, &l, &r, NULL, NULL));
    int64_t const n = first + batch <= size ? batch : size - first;
    assert_int_equal(l->size, n);
    assert_int_equal(map_at(l, 0), first / side);
    assert_int_equal(map_at(l, n - 1), (first + n - 1) / side);
    covered += n;
    gcol_column_free(l);
    gcol_column_free(r);
  }
  assert_int_equal(covered, size);
  gcol_join_hash_free(h);
  gcol_column_free(keys);
  gcol_scalar_free(seven);
  gcol_scalar_free(zero);
}

/* Radix partitions with INT64 maps: 2^31 + 5 INT8 probe keys, all 0 but four rows (two of
 * them beyond 2^31), against build keys {1, 2, 3}: the four pairs of an inner join and the
 * four rows of a semi join, INT64. */
static void test_radix_join_int64_maps(void **state) {
  (void)state;
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess || free_bytes < ((size_t)50 << 30)) {
    skip();
  }
  int64_t const n = ((int64_t)1 << 31) + 5;
  static const int8_t build_keys[] = {1, 2, 3};
  static const int8_t probe_keys[] = {1, 2, 3, 2};
  int64_t const rows[] = {0, INT32_MAX, (int64_t)1 << 31, n - 1};
  int64_t const want_right[] = {0, 1, 2, 1};
  int8_t *probe = NULL, *build = NULL;
  assert_int_equal(cudaMalloc((void **)&probe, (size_t)n), cudaSuccess);
  assert_int_equal(cudaMalloc((void **)&build, sizeof build_keys), cudaSuccess);
  assert_int_equal(cudaMemset(probe, 0, (size_t)n), cudaSuccess);
  for (int k = 0; k < 4; ++k) {
    assert_int_equal(cudaMemcpy(probe + rows[k], &probe_keys[k], 1, cudaMemcpyHostToDevice),
                     cudaSuccess);
  }
  assert_int_equal(cudaMemcpy(build, build_keys, sizeof build_keys, cudaMemcpyHostToDevice),
                   cudaSuccess);
  gcol_column_view const pv =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT8), n, probe, NULL, 0);
  gcol_column_view const bv =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT8), 3, build, NULL, 0);
  gcol_table_view pt, bt;
  GCOL_TEST_OK(gcol_table_view_make(&pv, 1, &pt));
  GCOL_TEST_OK(gcol_table_view_make(&bv, 1, &bt));
  gcol_join_options options;
  memset(&options, 0, sizeof options);
  options.algorithm = GCOL_JOIN_ALGORITHM_RADIX;
  options.radix_bits = 3;
  for (int semi = 0; semi < 2; ++semi) {
    gcol_column *l = NULL, *r = NULL;
    GCOL_TEST_OK(gcol_join_with_options(pt, bt, semi ? GCOL_JOIN_LEFT_SEMI : GCOL_JOIN_INNER,
                                        GCOL_NULLS_EQUAL, &options, &l, &r, NULL, NULL));
    assert_int_equal(l->type.id, GCOL_INT64);
    assert_int_equal(l->size, 4);
    int64_t got_l[4], got_r[4];
    GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(l), got_l, NULL, NULL));
    if (!semi) {
      assert_int_equal(r->type.id, GCOL_INT64);
      GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(r), got_r, NULL, NULL));
    }
    for (int k = 0; k < 4; ++k) { /* grouped by partition: find each expected row */
      int found = -1;
      for (int j = 0; j < 4; ++j) found = got_l[j] == rows[k] ? j : found;
      assert_true(found >= 0);
      if (!semi) assert_int_equal(got_r[found], want_right[k]);
    }
    gcol_column_free(l);
    gcol_column_free(r);
  }
  assert_int_equal(cudaFree(probe), cudaSuccess);
  assert_int_equal(cudaFree(build), cudaSuccess);
}

int main(void) {
  size_t free_bytes = 0, total_bytes = 0;
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_inner_join_beyond_2_31_rows),
      GCOL_TEST_GPU(test_radix_join_int64_maps),
  };
  if (gcol_test_has_device() && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess &&
      free_bytes < ((size_t)40 << 30)) {
    printf("1..0 # SKIP needs 40 GiB of free device memory, %zu MiB free\n", free_bytes >> 20);
    return 0;
  }
  return GCOL_TEST_RUN_GPU("join_large", tests);
}
