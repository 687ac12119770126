/* Weak scaling of the distributed join, groupby and shuffle (dist.h), run under
 * `mpirun -np N` with one rank per GPU and the NCCL transport (GCOL_DIST_TRANSPORT=mpi for
 * the staged path). Each rank holds the same amount of data whatever N, so the time per GPU
 * should stay near the 1-rank time (goal: within 1.5x). Also the all-to-all of the shuffle's
 * transport against a plain NCCL grouped send/receive of the same bytes (nccl-tests'
 * alltoall pattern; goal: ratio >= 0.8).
 *
 *   dist_join_i64      left 100M x right 10M rows per rank (int64 key + int64 payload; left
 *                      keys uniform over every rank's right keys), inner join, shuffled
 *   dist_groupby_i64   2^27 rows per rank, int64 keys in [0, 1M), float64 values: SUM, MEAN
 *   dist_shuffle_i64   the join's left table shuffled on its key
 *   dist_shuffle_right_i64, dist_join_local_i64: the right side's shuffle and the local join
 *                      of the shuffled sides (where dist_join_i64's time goes)
 *   dist_join_broadcast_i64  the same join with the right side broadcast to every rank
 *   dist_join_broadcast_local_i64  its local part alone: gcol_join_tables() of the rank's
 *                      left rows against every rank's right rows, made in place (keys
 *                      0..N*10M-1, as the broadcast gathers them): the rest of the broadcast
 *                      join's time is its allgather
 *   dist_join_auto_i64  the same join as gcol_dist_join chooses by default (by the bytes
 *                      each rank receives, docs/design.md; a comment line says which)
 *   dist_alltoall      gcol's device exchange vs raw NCCL send/recv, 64 MiB to each peer
 * Times: 300 ms of warm-up calls; then each rank synchronizes, a barrier, the operation, a
 * barrier; the slowest rank's time, median of GCOL_BENCH_REPS (default 5). One JSON line per figure with GCOL_BENCH_JSON. */
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gcol/dist.h"
#include "gcol/join.h"
#include "internal/dist.h"

static int me = 0, ranks = 1;
static gcol_dist_comm *comm = NULL;
static cudaStream_t stream;

static gcol_column *column(gcol_type_id id, int64_t n) {
  gcol_column *c = NULL;
  GCOL_BENCH_CHECK(gcol_column_create(gcol_data_type_make(id), n, GCOL_MASK_UNALLOCATED,
                                      (gcol_stream)stream, NULL, &c));
  return c;
}

/* A two-column local table: keys (random in [0, range) or, with range 0, first..first+n-1)
 * and an int64 or float64 payload. */
static gcol_table *local_two_columns(int64_t n, uint64_t range, int64_t first,
                                     gcol_type_id payload, uint64_t seed) {
  gcol_column *cols[2] = {column(GCOL_INT64, n), column(payload, n)};
  int64_t *k = (int64_t *)cols[0]->data->data;
  if (range > 0) {
    gcol_bench_fill_random(k, (size_t)n * 8, seed, (gcol_stream)stream);
    gcol_bench_keys_in_range(k, n, range, (gcol_stream)stream);
  } else {
    gcol_bench_iota_i64(k, n, first, (gcol_stream)stream);
  }
  gcol_bench_fill_random(cols[1]->data->data, (size_t)n * 8, seed + 1, (gcol_stream)stream);
  if (payload == GCOL_FLOAT64) { /* small integers as doubles: sums exact in any order */
    gcol_bench_small_doubles((double *)cols[1]->data->data, n, 1000, (gcol_stream)stream);
  }
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  gcol_table *t = NULL;
  GCOL_BENCH_CHECK(gcol_table_make(cols, 2, &t));
  return t;
}

/* The same as this rank's part of a distributed table. */
static gcol_dist_table *two_columns(int64_t n, uint64_t range, int64_t first, gcol_type_id payload,
                                    uint64_t seed) {
  gcol_dist_table *d = NULL;
  GCOL_BENCH_CHECK(gcol_dist_table_make(comm, local_two_columns(n, range, first, payload, seed),
                                        &d, (gcol_stream)stream));
  return d;
}

static int cmp_double(const void *a, const void *b) {
  double const x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median over reps of the slowest rank's time of fn(ctx), after a warm-up. */
static double time_ms(void (*fn)(void *), void *ctx) {
  int const reps = gcol_bench_reps();
  double *t = (double *)malloc(sizeof(double) * (size_t)reps);
  /* warm-up: at least 300 ms of calls (rank 0's clock decides for all: the calls are
   * collective), so that clocks and memory pools have settled before the first timed call */
  double const warm_from = MPI_Wtime();
  for (int more = 1; more;) {
    fn(ctx);
    GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
    more = MPI_Wtime() - warm_from < 0.3;
    MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  for (int r = 0; r < reps; ++r) {
    GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
    MPI_Barrier(MPI_COMM_WORLD);
    double const t0 = MPI_Wtime();
    fn(ctx);
    GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
    double mine = (MPI_Wtime() - t0) * 1e3, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    t[r] = slowest;
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  double const median = t[reps / 2];
  free(t);
  return median;
}

static void report(const char *bench, int64_t rows, double ms, const char *peer, double peer_ms,
                   double bytes) {
  if (me != 0) return;
  char name[96];
  snprintf(name, sizeof name, "%s_%dgpu", bench, ranks);
  gcol_bench_result r;
  memset(&r, 0, sizeof r);
  r.bench = name;
  r.rows = rows;
  r.gcol_ms = ms;
  r.peer = peer;
  r.peer_ms = peer_ms;
  r.bytes = bytes;
  gcol_bench_report(&r);
}

typedef struct join_ctx {
  gcol_dist_table *left, *right;
  int64_t out_rows;
  int64_t broadcast_max_rows;
  gcol_dist_partitioning out_partitioning; /* HASH: shuffled; NONE: the right side broadcast */
  gcol_dist_table *left_hashed, *right_hashed; /* for the local join alone */
  gcol_table *right_all; /* every rank's right rows, for the broadcast's local join alone */
} join_ctx;

static void run_join(void *p) {
  join_ctx *c = (join_ctx *)p;
  int32_t const on = 0;
  gcol_dist_join_options opt;
  gcol_dist_join_options_init(&opt);
  opt.broadcast_max_rows = c->broadcast_max_rows; /* 0: shuffled, what scales */
  gcol_dist_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_dist_join(comm, c->left, &on, c->right, &on, 1, GCOL_JOIN_INNER,
                                  GCOL_NULLS_EQUAL, &opt, &out, (gcol_stream)stream, NULL));
  c->out_rows = out->global_rows;
  c->out_partitioning = out->partitioning;
  gcol_dist_table_free(out);
}

static void run_shuffle(void *p) {
  join_ctx *c = (join_ctx *)p;
  int32_t const on = 0;
  gcol_dist_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_dist_shuffle(comm, c->left, &on, 1, &out, (gcol_stream)stream, NULL));
  gcol_dist_table_free(out);
}

static void run_shuffle_right(void *p) {
  join_ctx *c = (join_ctx *)p;
  int32_t const on = 0;
  gcol_dist_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_dist_shuffle(comm, c->right, &on, 1, &out, (gcol_stream)stream, NULL));
  gcol_dist_table_free(out);
}

/* The shuffled join's local part alone: gcol_join_tables() on sides shuffled beforehand. */
static void run_local_join(void *p) {
  join_ctx *c = (join_ctx *)p;
  int32_t const on = 0;
  gcol_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_join_tables(
      gcol_table_get_view(c->left_hashed->local), &on, gcol_table_get_view(c->right_hashed->local),
      &on, 1, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, false, &out, (gcol_stream)stream, NULL));
  gcol_table_free(out);
}

/* The broadcast join's local part alone: the rank's left rows against all right rows. */
static void run_broadcast_local(void *p) {
  join_ctx *c = (join_ctx *)p;
  int32_t const on = 0;
  gcol_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_join_tables(gcol_table_get_view(c->left->local), &on,
                                    gcol_table_get_view(c->right_all), &on, 1, GCOL_JOIN_INNER,
                                    GCOL_NULLS_EQUAL, false, &out, (gcol_stream)stream, NULL));
  gcol_table_free(out);
}

typedef struct groupby_ctx {
  gcol_dist_table *t;
} groupby_ctx;

static void run_groupby(void *p) {
  groupby_ctx *c = (groupby_ctx *)p;
  int32_t const key = 0;
  gcol_dist_agg const aggs[2] = {{1, gcol_groupby_agg_make(GCOL_GROUPBY_SUM)},
                                 {1, gcol_groupby_agg_make(GCOL_GROUPBY_MEAN)}};
  gcol_dist_table *out = NULL;
  GCOL_BENCH_CHECK(
      gcol_dist_groupby(comm, c->t, &key, 1, aggs, 2, NULL, &out, (gcol_stream)stream, NULL));
  gcol_dist_table_free(out);
}

typedef struct a2a_ctx {
  void *send, *recv;
  int64_t per_peer;
  ncclComm_t nccl;
} a2a_ctx;

static void a2a_setup(a2a_ctx *c, int64_t *sizes, void **sends, void **recvs) {
  for (int p = 0; p < ranks; ++p) {
    sizes[p] = c->per_peer;
    sends[p] = (char *)c->send + (size_t)p * (size_t)c->per_peer;
    recvs[p] = (char *)c->recv + (size_t)p * (size_t)c->per_peer;
  }
}

static void run_gcol_a2a(void *p) {
  a2a_ctx *c = (a2a_ctx *)p;
  int64_t sizes[64];
  void *sends[64], *recvs[64];
  a2a_setup(c, sizes, sends, recvs);
  GCOL_BENCH_CHECK(gcol_detail_dist_exchange_device(comm, (const void *const *)sends, sizes, recvs,
                                                    sizes, (gcol_stream)stream));
}

static void run_nccl_a2a(void *p) {
  a2a_ctx *c = (a2a_ctx *)p;
  ncclGroupStart();
  for (int q = 0; q < ranks; ++q) {
    ncclSend((char *)c->send + (size_t)q * c->per_peer, (size_t)c->per_peer, ncclUint8, q, c->nccl,
             stream);
    ncclRecv((char *)c->recv + (size_t)q * c->per_peer, (size_t)c->per_peer, ncclUint8, q, c->nccl,
             stream);
  }
  ncclGroupEnd();
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int devices = 1;
  GCOL_BENCH_CHECK(cudaGetDeviceCount(&devices));
  const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  GCOL_BENCH_CHECK(cudaSetDevice((local != NULL ? atoi(local) : me) % devices));
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  const char *which = getenv("GCOL_DIST_TRANSPORT");
  bool const use_mpi = which != NULL && strcmp(which, "mpi") == 0;
  MPI_Comm world = MPI_COMM_WORLD;
  GCOL_BENCH_CHECK(gcol_dist_comm_create_mpi(
      &world, use_mpi ? GCOL_DIST_TRANSPORT_MPI : GCOL_DIST_TRANSPORT_NCCL, &comm));
  if (me == 0)
    printf("# %d ranks, %d GPUs visible, transport %s\n", ranks, devices, use_mpi ? "MPI" : "NCCL");
  double const scale = getenv("GCOL_BENCH_SCALE") != NULL ? atof(getenv("GCOL_BENCH_SCALE")) : 1.0;

  {
    int64_t const nl = (int64_t)(100e6 * scale), nr = (int64_t)(10e6 * scale);
    join_ctx c;
    c.right = two_columns(nr, 0, nr * me, GCOL_INT64, 11 + me);
    c.left = two_columns(nl, (uint64_t)(nr * ranks), 0, GCOL_INT64, 101 + 7 * me);
    c.broadcast_max_rows = 0;
    double const join_ms = time_ms(run_join, &c);
    report("dist_join_i64", nl, join_ms, "-", 0, (double)(nl + nr) * 16);
    double const shuffle_ms = time_ms(run_shuffle, &c);
    report("dist_shuffle_i64", nl, shuffle_ms, "-", 0, (double)nl * 16);
    /* where the shuffled join's time goes: the right side's shuffle and the local join */
    report("dist_shuffle_right_i64", nr, time_ms(run_shuffle_right, &c), "-", 0, (double)nr * 16);
    int32_t const on = 0;
    GCOL_BENCH_CHECK(
        gcol_dist_shuffle(comm, c.left, &on, 1, &c.left_hashed, (gcol_stream)stream, NULL));
    GCOL_BENCH_CHECK(
        gcol_dist_shuffle(comm, c.right, &on, 1, &c.right_hashed, (gcol_stream)stream, NULL));
    report("dist_join_local_i64", nl, time_ms(run_local_join, &c), "-", 0, (double)(nl + nr) * 16);
    gcol_dist_table_free(c.left_hashed);
    gcol_dist_table_free(c.right_hashed);
    /* the small side broadcast instead (every rank builds on all right rows) */
    c.broadcast_max_rows = INT64_MAX;
    report("dist_join_broadcast_i64", nl, time_ms(run_join, &c), "-", 0, (double)(nl + nr) * 16);
    /* every rank's right rows as the broadcast gathers them: keys 0..nr*ranks-1 */
    c.right_all = local_two_columns(nr * ranks, 0, 0, GCOL_INT64, 12);
    report("dist_join_broadcast_local_i64", nl, time_ms(run_broadcast_local, &c), "-", 0,
           (double)(nl + nr * ranks) * 16);
    gcol_table_free(c.right_all);
    /* what gcol_dist_join chooses by default (the bytes each rank receives) */
    c.broadcast_max_rows = GCOL_DIST_BROADCAST_AUTO;
    double const auto_ms = time_ms(run_join, &c);
    report("dist_join_auto_i64", nl, auto_ms, "-", 0, (double)(nl + nr) * 16);
    if (me == 0) {
      printf("# dist_join_auto_i64 at %d ranks: %s\n", ranks,
             c.out_partitioning == GCOL_DIST_PARTITION_HASH ? "shuffled" : "broadcast");
    }
    gcol_dist_table_free(c.left);
    gcol_dist_table_free(c.right);
  }
  {
    int64_t const n = (int64_t)((double)((int64_t)1 << 27) * scale);
    groupby_ctx g;
    g.t = two_columns(n, 1000000, 0, GCOL_FLOAT64, 303 + me);
    report("dist_groupby_i64", n, time_ms(run_groupby, &g), "-", 0, (double)n * 16);
    gcol_dist_table_free(g.t);
  }
  if (!use_mpi && ranks <= 64) {
    a2a_ctx a;
    a.per_peer = (int64_t)64 << 20;
    GCOL_BENCH_CHECK(cudaMalloc(&a.send, (size_t)a.per_peer * ranks));
    GCOL_BENCH_CHECK(cudaMalloc(&a.recv, (size_t)a.per_peer * ranks));
    ncclUniqueId id;
    if (me == 0) ncclGetUniqueId(&id);
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (ncclCommInitRank(&a.nccl, ranks, id, me) != ncclSuccess) {
      fprintf(stderr, "ncclCommInitRank failed\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double const gcol_ms = time_ms(run_gcol_a2a, &a);
    double const nccl_ms = time_ms(run_nccl_a2a, &a);
    report("dist_alltoall", 0, gcol_ms, "ncclSend/ncclRecv", nccl_ms,
           (double)a.per_peer * ranks * 2);
    ncclCommDestroy(a.nccl);
    cudaFree(a.send);
    cudaFree(a.recv);
  }
  gcol_dist_comm_free(comm);
  MPI_Finalize();
  return 0;
}
