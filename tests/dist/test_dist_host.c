/* Host tests of dist.h, run under `mpirun -np 4` without a GPU: the MPI control plane
 * (allreduce, allgather, host exchange, error agreement) and the plans every distributed
 * operation uses (sample and splitter rows, receive layouts, range bounds). Only rank 0 prints;
 * every check is agreed over the ranks before it is asserted, so a failure on one rank fails
 * the test everywhere and no rank is left waiting in a collective. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcol/dist.h"
#include "internal/dist.h"
#include "test_util.h"

static gcol_dist_comm *comm = NULL;

/* true when `ok` holds on every rank */
static bool everywhere(bool ok) {
  int mine = ok, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

static void communicator_knows_its_place(void **state) {
  (void)state;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  assert_true(everywhere(gcol_dist_comm_rank(comm) == rank && gcol_dist_comm_size(comm) == size &&
                         gcol_dist_comm_transport(comm) == GCOL_DIST_TRANSPORT_MPI));
  assert_int_equal(gcol_dist_comm_rank(NULL), 0);
  assert_int_equal(gcol_dist_comm_size(NULL), 0);
}

static void allreduce_and_allgather(void **state) {
  (void)state;
  int32_t const me = gcol_dist_comm_rank(comm), n = gcol_dist_comm_size(comm);
  int64_t v[3] = {me + 1, me * 10, -me};
  int64_t mx[1] = {me * 7};
  int64_t mn[1] = {100 - me};
  assert_int_equal(gcol_detail_dist_allreduce_i64(comm, v, 3, GCOL_DETAIL_DIST_SUM), GCOL_OK);
  assert_int_equal(gcol_detail_dist_allreduce_i64(comm, mx, 1, GCOL_DETAIL_DIST_MAX), GCOL_OK);
  assert_int_equal(gcol_detail_dist_allreduce_i64(comm, mn, 1, GCOL_DETAIL_DIST_MIN), GCOL_OK);
  int64_t const sum = (int64_t)n * (n + 1) / 2;
  bool ok = v[0] == sum && v[1] == 10 * (sum - n) && v[2] == -(sum - n) && mx[0] == 7 * (n - 1) &&
            mn[0] == 100 - (n - 1);
  int64_t mine[2] = {me, (int64_t)me * me};
  int64_t *all = (int64_t *)malloc(2 * (size_t)n * sizeof *all);
  assert_non_null(all);
  assert_int_equal(gcol_detail_dist_allgather_i64(comm, mine, 2, all), GCOL_OK);
  for (int32_t r = 0; r < n; ++r) ok = ok && all[2 * r] == r && all[2 * r + 1] == (int64_t)r * r;
  free(all);
  assert_true(everywhere(ok));
}

/* Rank s sends (s + 1) * (d + 1) bytes of value (s * 16 + d) to rank d, itself included;
 * zero-byte parts to the next rank test the skipped messages. */
static void host_exchange_delivers_every_part(void **state) {
  (void)state;
  int32_t const me = gcol_dist_comm_rank(comm), n = gcol_dist_comm_size(comm);
  int64_t *send_sizes = (int64_t *)calloc((size_t)n, sizeof *send_sizes);
  int64_t *recv_sizes = (int64_t *)calloc((size_t)n, sizeof *recv_sizes);
  void **send = (void **)calloc((size_t)n, sizeof *send);
  void **recv = (void **)calloc((size_t)n, sizeof *recv);
  assert_true(send_sizes && recv_sizes && send && recv);
  for (int32_t p = 0; p < n; ++p) {
    bool const empty_to = p == (me + 1) % n && n > 1;
    bool const empty_from = me == (p + 1) % n && n > 1;
    send_sizes[p] = empty_to ? 0 : (me + 1) * (p + 1);
    recv_sizes[p] = empty_from ? 0 : (p + 1) * (me + 1);
    send[p] = malloc((size_t)send_sizes[p] + 1);
    recv[p] = malloc((size_t)recv_sizes[p] + 1);
    memset(send[p], me * 16 + p, (size_t)send_sizes[p]);
  }
  assert_int_equal(
      gcol_detail_dist_exchange_host(comm, (const void *const *)send, send_sizes, recv, recv_sizes),
      GCOL_OK);
  bool ok = true;
  for (int32_t p = 0; p < n; ++p) {
    for (int64_t i = 0; i < recv_sizes[p]; ++i) {
      ok = ok && ((unsigned char *)recv[p])[i] == (unsigned char)(p * 16 + me);
    }
    free(send[p]);
    free(recv[p]);
  }
  free(send);
  free(recv);
  free(send_sizes);
  free(recv_sizes);
  assert_true(everywhere(ok));
}

/* A rank that failed makes every rank fail: itself with its status, the others with PEER. */
static void errors_are_agreed_on(void **state) {
  (void)state;
  int32_t const me = gcol_dist_comm_rank(comm), n = gcol_dist_comm_size(comm);
  assert_int_equal(gcol_dist_agree(comm, GCOL_OK), GCOL_OK);
  gcol_status const mine = me == n - 1 ? GCOL_ERROR_OUT_OF_MEMORY : GCOL_OK;
  gcol_status const got = gcol_dist_agree(comm, mine);
  bool const ok =
      me == n - 1 ? got == GCOL_ERROR_OUT_OF_MEMORY : got == (n > 1 ? GCOL_ERROR_PEER : GCOL_OK);
  bool const named = me == n - 1 || n == 1 || strstr(gcol_last_error(), "another rank") != NULL;
  assert_true(everywhere(ok && named));
  assert_int_equal(gcol_dist_agree(NULL, GCOL_OK), GCOL_ERROR_INVALID_ARGUMENT);
}

static void bad_creation_arguments(void **state) {
  (void)state;
  gcol_dist_comm *c = NULL;
  MPI_Comm world = MPI_COMM_WORLD;
  assert_int_equal(gcol_dist_comm_create_mpi(NULL, GCOL_DIST_TRANSPORT_MPI, &c),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_dist_comm_create_mpi(&world, (gcol_dist_transport)7, &c),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(c);
  assert_int_equal(gcol_dist_comm_create_mpi(&world, GCOL_DIST_TRANSPORT_MPI, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  uint8_t id[GCOL_DIST_UNIQUE_ID_BYTES];
  assert_int_equal(gcol_dist_comm_create_nccl(id, 0, 0, &c), GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_dist_comm_create_nccl(id, 2, 2, &c), GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_dist_comm_create_all(0, NULL, &c), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_dist_comm_free(NULL);
}

static void sample_and_splitter_rows(void **state) {
  (void)state;
  int64_t pos[8];
  gcol_detail_dist_sample_rows(100, 4, pos); /* middles of 4 runs of 25 */
  assert_int_equal(pos[0], 12);
  assert_int_equal(pos[1], 37);
  assert_int_equal(pos[2], 62);
  assert_int_equal(pos[3], 87);
  gcol_detail_dist_sample_rows(3, 3, pos);
  assert_int_equal(pos[0], 0);
  assert_int_equal(pos[1], 1);
  assert_int_equal(pos[2], 2);
  /* huge row counts: no overflow, still ascending and in range */
  int64_t const big = INT64_MAX / 2;
  gcol_detail_dist_sample_rows(big, 8, pos);
  for (int i = 0; i < 8; ++i) {
    assert_true(pos[i] >= 0 && pos[i] < big);
    if (i > 0) assert_true(pos[i] > pos[i - 1]);
  }
  gcol_detail_dist_splitter_rows(256, 4, pos);
  assert_int_equal(pos[0], 64);
  assert_int_equal(pos[1], 128);
  assert_int_equal(pos[2], 192);
  gcol_detail_dist_splitter_rows(2, 4, pos); /* fewer samples than ranks */
  assert_int_equal(pos[0], 0);
  assert_int_equal(pos[1], 1);
  assert_int_equal(pos[2], 1);
}

static void layouts_and_bounds(void **state) {
  (void)state;
  int64_t const sizes[4] = {10, 0, 256, 1};
  int64_t off[4], total = 0;
  assert_int_equal(gcol_detail_dist_layout(sizes, 4, off, &total), GCOL_OK);
  assert_int_equal(off[0], 0);
  assert_int_equal(off[1], 256);
  assert_int_equal(off[2], 256);
  assert_int_equal(off[3], 512);
  assert_int_equal(total, 513);
  int64_t const huge[2] = {INT64_MAX - 10, 100};
  assert_int_equal(gcol_detail_dist_layout(huge, 2, off, &total), GCOL_ERROR_OVERFLOW);
  int64_t const positions[3] = {5, 3, 50}; /* out of order and past the end: clamped */
  int64_t bounds[5];
  gcol_detail_dist_bounds(positions, 4, 20, bounds);
  assert_int_equal(bounds[0], 0);
  assert_int_equal(bounds[1], 5);
  assert_int_equal(bounds[2], 5);
  assert_int_equal(bounds[3], 20);
  assert_int_equal(bounds[4], 20);
}

/* The join's choice under GCOL_DIST_BROADCAST_AUTO: R(n - 1) < L, R at most the cap. */
static void broadcast_pays_by_bytes(void **state) {
  (void)state;
  int64_t const left = 1600000000, right = 160000000; /* per rank: the benchmark's sides */
  assert_false(gcol_detail_dist_broadcast_pays(left, right, 1));
  assert_true(gcol_detail_dist_broadcast_pays(2 * left, 2 * right, 2));
  assert_true(gcol_detail_dist_broadcast_pays(4 * left, 4 * right, 4));
  assert_false(gcol_detail_dist_broadcast_pays(8 * left, 8 * right, 8)); /* 1.28 GB: the cap */
  assert_true(gcol_detail_dist_broadcast_pays(10000, 1000, 10));           /* 9000 < 10000 */
  assert_false(gcol_detail_dist_broadcast_pays(11000, 1100, 11));          /* 11000, not less */
  int64_t const cap = GCOL_DIST_BROADCAST_AUTO_MAX_BYTES;
  assert_true(gcol_detail_dist_broadcast_pays(INT64_MAX, cap, INT32_MAX));
  assert_false(gcol_detail_dist_broadcast_pays(INT64_MAX, cap + 1, 2));
  assert_false(gcol_detail_dist_broadcast_pays(-1, 0, 2));
  assert_false(gcol_detail_dist_broadcast_pays(100, -1, 2));
  assert_true(gcol_detail_dist_broadcast_pays(1, 0, 2)); /* an empty right side */
  assert_false(gcol_detail_dist_broadcast_pays(0, 0, 2)); /* nothing to save */
}

int main(int argc, char **argv) {
  alarm(60); /* a rank left waiting in a collective ends the run (see test_dist.c) */
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0 && freopen("/dev/null", "w", stdout) == NULL) return 1;
  MPI_Comm world = MPI_COMM_WORLD;
  if (gcol_dist_comm_create_mpi(&world, GCOL_DIST_TRANSPORT_MPI, &comm) != GCOL_OK) {
    fprintf(stderr, "cannot create the communicator: %s\n", gcol_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(communicator_knows_its_place),
      cmocka_unit_test(allreduce_and_allgather),
      cmocka_unit_test(host_exchange_delivers_every_part),
      cmocka_unit_test(errors_are_agreed_on),
      cmocka_unit_test(bad_creation_arguments),
      cmocka_unit_test(sample_and_splitter_rows),
      cmocka_unit_test(layouts_and_bounds),
      cmocka_unit_test(broadcast_pays_by_bytes),
  };
  int const failed = GCOL_TEST_RUN("dist_host", tests);
  gcol_dist_comm_free(comm);
  MPI_Finalize();
  return failed;
}
