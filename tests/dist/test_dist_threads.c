/* dist.h without MPI: gcol_dist_comm_create_all() over every visible GPU of this process, one
 * thread per rank, control messages through NCCL. A groupby and a gather over the ranks equal
 * the single-GPU groupby; a failure on one rank reaches every rank. Needs 2 or more GPUs (the
 * test SKIPs otherwise). */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/dist.h"
#include "gcol/groupby.h"
#include "gcol/sorting.h"
#include "test_util.h"

#define MAX_RANKS 8
#define ROWS 40000
#define KEYS 500

static int32_t ranks = 0;
static gcol_dist_comm *comms[MAX_RANKS];

typedef struct rank_work {
  int32_t rank;
  bool fail_here;         /* pass a NULL table on this rank */
  gcol_status groupby_st; /* what gcol_dist_groupby returned */
  gcol_status make_st;    /* what gcol_dist_table_make returned */
  gcol_table *gathered;   /* rank 0: the groupby result */
} rank_work;

/* keys i % KEYS, values i, rows [begin, end) */
static gcol_table *rows(int64_t begin, int64_t end) {
  int64_t const n = end - begin;
  int64_t *k = malloc((size_t)n * 8), *v = malloc((size_t)n * 8);
  for (int64_t i = 0; i < n; ++i) {
    k[i] = (begin + i) % KEYS;
    v[i] = begin + i;
  }
  gcol_column *cols[2] = {NULL, NULL};
  gcol_table *t = NULL;
  if (gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, k, NULL, NULL, NULL,
                                   &cols[0]) == GCOL_OK &&
      gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, v, NULL, NULL, NULL,
                                   &cols[1]) == GCOL_OK) {
    (void)gcol_table_make(cols, 2, &t);
  }
  free(k);
  free(v);
  return t;
}

static void *run_rank(void *p) {
  rank_work *w = (rank_work *)p;
  int32_t const r = w->rank;
  (void)cudaSetDevice(r);
  gcol_table *local =
      w->fail_here ? NULL : rows((int64_t)ROWS * r / ranks, (int64_t)ROWS * (r + 1) / ranks);
  gcol_dist_table *t = NULL, *g = NULL;
  w->make_st = gcol_dist_table_make(comms[r], local, &t, NULL);
  if (w->make_st != GCOL_OK) {
    gcol_table_free(local);
    return NULL;
  }
  int32_t const key = 0;
  gcol_dist_agg const aggs[2] = {{1, gcol_groupby_agg_make(GCOL_GROUPBY_SUM)},
                                 {1, gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_ALL)}};
  w->groupby_st = gcol_dist_groupby(comms[r], t, &key, 1, aggs, 2, NULL, &g, NULL, NULL);
  if (w->groupby_st == GCOL_OK) {
    gcol_status const st = gcol_dist_gather(comms[r], g, 0, &w->gathered, NULL, NULL);
    if (st != GCOL_OK) w->groupby_st = st;
  }
  gcol_dist_table_free(g);
  gcol_dist_table_free(t);
  return NULL;
}

static void run_all(rank_work *work) {
  pthread_t threads[MAX_RANKS];
  for (int32_t r = 0; r < ranks; ++r) {
    work[r].rank = r;
    assert_int_equal(pthread_create(&threads[r], NULL, run_rank, &work[r]), 0);
  }
  for (int32_t r = 0; r < ranks; ++r) pthread_join(threads[r], NULL);
}

static void groupby_over_threads_equals_one_gpu(void **state) {
  (void)state;
  rank_work work[MAX_RANKS];
  memset(work, 0, sizeof work);
  run_all(work);
  for (int32_t r = 0; r < ranks; ++r) {
    assert_int_equal(work[r].make_st, GCOL_OK);
    assert_int_equal(work[r].groupby_st, GCOL_OK);
    assert_true(r == 0 ? work[r].gathered != NULL : work[r].gathered == NULL);
  }
  (void)cudaSetDevice(0);
  gcol_table *sorted = NULL;
  gcol_table_view const g = gcol_table_get_view(work[0].gathered);
  GCOL_TEST_OK(gcol_sort_by_key(g, (gcol_table_view){1, g.num_rows, g.columns}, NULL, NULL, &sorted,
                                NULL, NULL));
  assert_int_equal(sorted->num_rows, KEYS);
  int64_t key[KEYS], sum[KEYS], count[KEYS];
  gcol_table_view const s = gcol_table_get_view(sorted);
  GCOL_TEST_OK(gcol_column_copy_to_host(s.columns[0], key, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(s.columns[1], sum, NULL, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(s.columns[2], count, NULL, NULL));
  for (int64_t k = 0; k < KEYS; ++k) {
    /* rows k, k + KEYS, ...: ROWS / KEYS of them, summing to count * k + KEYS * count * (count - 1)
     * / 2 */
    int64_t const c = ROWS / KEYS;
    assert_int_equal(key[k], k);
    assert_int_equal(count[k], c);
    assert_int_equal(sum[k], c * k + (int64_t)KEYS * c * (c - 1) / 2);
  }
  gcol_table_free(sorted);
  gcol_table_free(work[0].gathered);
}

static void a_failing_rank_fails_every_rank(void **state) {
  (void)state;
  rank_work work[MAX_RANKS];
  memset(work, 0, sizeof work);
  work[ranks - 1].fail_here = true;
  run_all(work);
  for (int32_t r = 0; r < ranks; ++r) {
    assert_int_equal(work[r].make_st,
                     r == ranks - 1 ? GCOL_ERROR_INVALID_ARGUMENT : GCOL_ERROR_PEER);
  }
}

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2 || !gcol_dist_nccl_available()) {
    printf("1..0 # SKIP needs 2 or more GPUs and NCCL\n");
    return 0;
  }
  ranks = devices < MAX_RANKS ? devices : MAX_RANKS;
  if (gcol_dist_comm_create_all(ranks, NULL, comms) != GCOL_OK) {
    printf("Bail out! gcol_dist_comm_create_all: %s\n", gcol_last_error());
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(groupby_over_threads_equals_one_gpu),
      cmocka_unit_test(a_failing_rank_fails_every_rank),
  };
  int const failed = GCOL_TEST_RUN("dist_threads", tests);
  for (int32_t r = 0; r < ranks; ++r) gcol_dist_comm_free(comms[r]);
  return failed;
}
