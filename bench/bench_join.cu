/*
 * Joins (issue 10), data as in shared/peers/README.md. Each timed call is gcol_join (build the
 * hash of the right keys, probe with the left keys, gather maps out), as libcudf's join calls
 * build and probe. libcudf's figures are references from the same kind of H200, not the same
 * run; the peer script (bench/peers) measures them in the same call when it is installed.
 *   inner/left/left_semi_join_i64_10Mx100M  build 10M unique int64 (0, 3, 6, ...), probe 100M
 *                                           uniform in [0, 30M)
 *   inner_join_i32_100Kx10M                 build 100K unique int32, probe 10M each matching once
 *   inner_join_i32_10Mx10M_dup              both sides 10M int32 uniform in [0, 10M)
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "bench_util.h"
#include "gcol/join.h"

namespace {

/* keys[i] = i * step (int64 or int32). */
template <typename T>
__global__ void arithmetic(T *keys, int64_t n, int64_t step) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    keys[i] = (T)(i * step);
  }
}

/* keys[i] = random bits of keys[i] mod range. */
template <typename T>
__global__ void in_range(T *keys, int64_t n, int64_t range) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    keys[i] = (T)((uint64_t)(uint32_t)keys[i] % (uint64_t)range);
  }
}

struct context {
  gcol_table_view left, right;
  gcol_join_kind kind;
  cudaStream_t stream;
};

void run_gcol(void *p) {
  context *c = (context *)p;
  gcol_column *l = NULL, *r = NULL;
  bool const pairs = c->kind != GCOL_JOIN_LEFT_SEMI && c->kind != GCOL_JOIN_LEFT_ANTI;
  GCOL_BENCH_CHECK(gcol_join(c->left, c->right, c->kind, GCOL_NULLS_EQUAL, &l, pairs ? &r : NULL,
                             (gcol_stream)c->stream, NULL));
  gcol_column_free(l);
  gcol_column_free(r);
}

template <typename T>
gcol_column_view make_keys(int64_t n, bool unique, int64_t step_or_range, uint64_t seed,
                           cudaStream_t stream, void **storage) {
  GCOL_BENCH_CHECK(cudaMalloc(storage, (size_t)n * sizeof(T)));
  T *keys = (T *)*storage;
  if (unique) {
    arithmetic<T><<<4096, 256, 0, stream>>>(keys, n, step_or_range);
  } else {
    gcol_bench_fill_random(keys, (size_t)n * sizeof(T), seed, (gcol_stream)stream);
    in_range<T><<<4096, 256, 0, stream>>>(keys, n, step_or_range);
  }
  GCOL_BENCH_CHECK(cudaGetLastError());
  return gcol_column_view_make(gcol_data_type_make(sizeof(T) == 8 ? GCOL_INT64 : GCOL_INT32), n,
                               keys, NULL, 0);
}

void report(const char *name, const char *types, context *c, int64_t out_rows, double libcudf_ms) {
  gcol_bench_result r = {};
  r.bench = name;
  r.types = types;
  r.rows = c->left.num_rows;
  r.peer = "libcudf 26.10 H200 2026-11-23 (reference, not same run)";
  r.gcol_ms = gcol_bench_time_ms(run_gcol, c, (gcol_stream)c->stream);
  r.peer_ms = libcudf_ms;
  r.bytes = (double)(c->left.num_rows + c->right.num_rows) * 8.0 + (double)out_rows * 8.0;
  gcol_bench_report(&r);
}

/* Output rows of one join (for the bytes column). */
int64_t output_rows(context *c) {
  gcol_join_hash *h = NULL;
  int64_t n = 0;
  GCOL_BENCH_CHECK(gcol_join_hash_create(c->right, GCOL_NULLS_EQUAL, &h, (gcol_stream)c->stream));
  GCOL_BENCH_CHECK(gcol_join_hash_probe_size(h, c->left, c->kind, &n, (gcol_stream)c->stream));
  gcol_join_hash_free(h);
  return n;
}

}  // namespace

int main(void) {
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  gcol_bench_print_header();
  context c = {};
  c.stream = stream;
  void *a = NULL, *b = NULL;
  gcol_column_view ra, lb;
  {
    ra = make_keys<int64_t>(10000000, true, 3, 0, stream, &a);
    lb = make_keys<int64_t>(100000000, false, 30000000, 101, stream, &b);
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    c.kind = GCOL_JOIN_INNER;
    report("inner_join_i64_10Mx100M", "int64 10M unique x 100M", &c, output_rows(&c), 7.89);
    c.kind = GCOL_JOIN_LEFT;
    report("left_join_i64_10Mx100M", "int64 10M unique x 100M", &c, output_rows(&c), 8.16);
    c.kind = GCOL_JOIN_LEFT_SEMI;
    report("left_semi_join_i64_10Mx100M", "int64 10M unique x 100M", &c, output_rows(&c), 4.79);
    GCOL_BENCH_CHECK(cudaFree(a));
    GCOL_BENCH_CHECK(cudaFree(b));
  }
  {
    ra = make_keys<int32_t>(100000, true, 1, 0, stream, &a);
    lb = make_keys<int32_t>(10000000, false, 100000, 102, stream, &b);
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    c.kind = GCOL_JOIN_INNER;
    report("inner_join_i32_100Kx10M", "int32 100K unique x 10M", &c, output_rows(&c), 0.80);
    GCOL_BENCH_CHECK(cudaFree(a));
    GCOL_BENCH_CHECK(cudaFree(b));
  }
  {
    ra = make_keys<int32_t>(10000000, false, 10000000, 103, stream, &a);
    lb = make_keys<int32_t>(10000000, false, 10000000, 104, stream, &b);
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    c.kind = GCOL_JOIN_INNER;
    report("inner_join_i32_10Mx10M_dup", "int32 10M x 10M in [0, 10M)", &c, output_rows(&c), 2.61);
    GCOL_BENCH_CHECK(cudaFree(a));
    GCOL_BENCH_CHECK(cudaFree(b));
  }
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
