/* A join and a groupby over several GPUs (dist.h), on generated data:
 *
 *   mpirun -np 2 build/examples/distributed_join            # one rank per GPU, NCCL
 *   GCOL_DIST_TRANSPORT=mpi mpirun -np 4 build/examples/distributed_join   # ranks may share a GPU
 *
 * Each rank makes its own orders (customer id, amount) and its own customers (id, region);
 * the orders are joined with the customers on the customer id (shuffling both tables over the
 * ranks), the amounts summed per region, and the result gathered and printed on rank 0.
 * Every call is collective: all ranks make the same calls in the same order. */
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/dist.h"
#include "gcol/gcol.h"

#define CHECK(call)                                                 \
  do {                                                              \
    gcol_status st_ = (call);                                       \
    if (st_ != GCOL_OK) {                                           \
      fprintf(stderr, "%s failed: %s\n", #call, gcol_last_error()); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                 \
    }                                                               \
  } while (0)

/* A table of two INT64 columns from host arrays. */
static gcol_table *two_int64(const int64_t *a, const int64_t *b, int64_t n) {
  gcol_column *cols[2] = {NULL, NULL};
  CHECK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, a, NULL, NULL, NULL,
                                     &cols[0]));
  CHECK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, b, NULL, NULL, NULL,
                                     &cols[1]));
  gcol_table *t = NULL;
  CHECK(gcol_table_make(cols, 2, &t));
  return t;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1, devices = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    if (rank == 0) printf("distributed_join: no GPU on this machine, nothing to do\n");
    MPI_Finalize();
    return 0;
  }
  cudaSetDevice(rank % devices);
  const char *which = getenv("GCOL_DIST_TRANSPORT");
  gcol_dist_transport transport = GCOL_DIST_TRANSPORT_NCCL;
  if ((which != NULL && strcmp(which, "mpi") == 0) || !gcol_dist_nccl_available() ||
      ranks > devices) {
    transport = GCOL_DIST_TRANSPORT_MPI; /* ranks share GPUs, or no NCCL in this build */
  }
  MPI_Comm world = MPI_COMM_WORLD;
  gcol_dist_comm *comm = NULL;
  CHECK(gcol_dist_comm_create_mpi(&world, transport, &comm));

  /* this rank's data: 1M orders over 100k customers, and its tenth of the customers */
  int64_t const orders = 1000000, customers = 100000, mine = customers / ranks;
  int64_t *cust = malloc(sizeof(int64_t) * orders), *amount = malloc(sizeof(int64_t) * orders);
  int64_t *id = malloc(sizeof(int64_t) * mine), *region = malloc(sizeof(int64_t) * mine);
  uint64_t x = 12345 + (uint64_t)rank;
  for (int64_t i = 0; i < orders; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    cust[i] = (int64_t)((x >> 33) % (uint64_t)(mine * ranks));
    amount[i] = (int64_t)((x >> 13) % 100);
  }
  for (int64_t i = 0; i < mine; ++i) {
    id[i] = rank * mine + i;
    region[i] = id[i] % 5;
  }
  gcol_dist_table *order_t = NULL, *customer_t = NULL, *joined = NULL, *sums = NULL;
  CHECK(gcol_dist_table_make(comm, two_int64(cust, amount, orders), &order_t, NULL));
  CHECK(gcol_dist_table_make(comm, two_int64(id, region, mine), &customer_t, NULL));

  /* orders x customers on the customer id: (cust, amount, id, region) */
  int32_t const on = 0;
  CHECK(gcol_dist_join(comm, order_t, &on, customer_t, &on, 1, GCOL_JOIN_INNER, GCOL_NULLS_UNEQUAL,
                       NULL, &joined, NULL, NULL));
  /* total amount and orders per region */
  int32_t const region_col = 3;
  gcol_dist_agg const aggs[2] = {{1, gcol_groupby_agg_make(GCOL_GROUPBY_SUM)},
                                 {1, gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_ALL)}};
  CHECK(gcol_dist_groupby(comm, joined, &region_col, 1, aggs, 2, NULL, &sums, NULL, NULL));
  gcol_table *all = NULL;
  CHECK(gcol_dist_gather(comm, sums, 0, &all, NULL, NULL));
  if (rank == 0) {
    int64_t r[8], s[8], c[8];
    gcol_table_view v = gcol_table_get_view(all);
    CHECK(gcol_column_copy_to_host(v.columns[0], r, NULL, NULL));
    CHECK(gcol_column_copy_to_host(v.columns[1], s, NULL, NULL));
    CHECK(gcol_column_copy_to_host(v.columns[2], c, NULL, NULL));
    printf("%d ranks (%s): %lld orders joined; per region:\n", ranks,
           transport == GCOL_DIST_TRANSPORT_NCCL ? "NCCL" : "MPI", (long long)joined->global_rows);
    for (int64_t i = 0; i < v.num_rows && i < 8; ++i) {
      printf("  region %lld: %lld orders, amount %lld\n", (long long)r[i], (long long)c[i],
             (long long)s[i]);
    }
  }
  gcol_table_free(all);
  gcol_dist_table_free(sums);
  gcol_dist_table_free(joined);
  gcol_dist_table_free(order_t);
  gcol_dist_table_free(customer_t);
  gcol_dist_comm_free(comm);
  free(cust), free(amount), free(id), free(region);
  MPI_Finalize();
  return 0;
}
