/*
 * Binary operation benchmark (issue 6):
 *   binary_add_i64: gcol_binary_operation(ADD) of two random int64 columns of 2^27 rows, no
 *     nulls, INT64 output; peer: cudaMemcpyAsync moving the same 24 bytes per row (a copy of
 *     3/2 of one column's bytes: 12 read + 12 written per row), timed in the same run.
 * gcol allocates its output in every call, as a user's call would; the output comes from a
 * pool resource so that the measurement is of the kernel and not of the driver mapping
 * 1 GiB each time (a pipeline that cares uses a pool as well).
 * Rows: GCOL_BENCH_ROWS (default 2^27).
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "bench_util.h"

typedef struct bench_ctx {
  gcol_column_view lhs;
  gcol_column_view rhs;
  gcol_mr *mr;
  cudaStream_t stream;
  void *copy_dst;
  const void *copy_src;
  size_t copy_bytes;
} bench_ctx;

static void run_gcol_add(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_binary_operation(c->lhs, c->rhs, GCOL_BINARY_ADD,
                                         gcol_data_type_make(GCOL_INT64), &out,
                                         (gcol_stream)c->stream, c->mr));
  gcol_column_free(out);
}

static void run_copy_peer(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->copy_dst, c->copy_src, c->copy_bytes,
                                   cudaMemcpyDeviceToDevice, c->stream));
}

/* Checks a sample of rows against the host sum, so the figure is of a correct result. */
static void check_sample(const bench_ctx *c, int64_t n) {
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_binary_operation(c->lhs, c->rhs, GCOL_BINARY_ADD,
                                         gcol_data_type_make(GCOL_INT64), &out,
                                         (gcol_stream)c->stream, c->mr));
  int64_t const rows[4] = {0, n / 3, n / 2, n - 1};
  for (int k = 0; k < 4; ++k) {
    int64_t a = 0, b = 0, r = 0;
    int64_t const i = rows[k];
    GCOL_BENCH_CHECK(cudaMemcpy(&a, (const int64_t *)c->lhs.data + i, 8, cudaMemcpyDeviceToHost));
    GCOL_BENCH_CHECK(cudaMemcpy(&b, (const int64_t *)c->rhs.data + i, 8, cudaMemcpyDeviceToHost));
    GCOL_BENCH_CHECK(cudaMemcpy(&r, (const int64_t *)out->data->data + i, 8, cudaMemcpyDeviceToHost));
    if ((uint64_t)r != (uint64_t)a + (uint64_t)b) {
      fprintf(stderr, "binary_add_i64: wrong sum at row %lld\n", (long long)i);
      exit(1);
    }
  }
  gcol_column_free(out);
}

int main(void) {
  const char *env = getenv("GCOL_BENCH_ROWS");
  int64_t const n = env != NULL ? atoll(env) : ((int64_t)1 << 27);
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  gcol_stream const gs = (gcol_stream)stream;
  gcol_column *lhs = NULL, *rhs = NULL;
  gcol_data_type const i64 = gcol_data_type_make(GCOL_INT64);
  GCOL_BENCH_CHECK(gcol_column_create(i64, n, GCOL_MASK_UNALLOCATED, gs, NULL, &lhs));
  GCOL_BENCH_CHECK(gcol_column_create(i64, n, GCOL_MASK_UNALLOCATED, gs, NULL, &rhs));
  gcol_bench_fill_random(lhs->data->data, (size_t)n * 8, 11, gs);
  gcol_bench_fill_random(rhs->data->data, (size_t)n * 8, 12, gs);
  bench_ctx c;
  c.lhs = gcol_column_get_view(lhs);
  c.rhs = gcol_column_get_view(rhs);
  c.stream = stream;
  c.mr = NULL;
  GCOL_BENCH_CHECK(gcol_mr_pool_create(gcol_mr_get_default(), (size_t)n * 8 + (1u << 20), 0, &c.mr));
  /* Peer: 3/2 of one column's bytes copied = 24 bytes moved per row. */
  c.copy_bytes = (size_t)n * 8 * 3 / 2;
  GCOL_BENCH_CHECK(cudaMalloc(&c.copy_dst, c.copy_bytes));
  GCOL_BENCH_CHECK(cudaMalloc((void **)&c.copy_src, c.copy_bytes));
  gcol_bench_fill_random((void *)c.copy_src, c.copy_bytes, 13, gs);
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  check_sample(&c, n);

  gcol_bench_print_header();
  gcol_bench_result r;
  r.bench = "binary_add_i64";
  r.types = "int64+int64->int64";
  r.rows = n;
  r.peer = "cudaMemcpyAsync 24 B/row";
  r.gcol_ms = gcol_bench_time_ms(run_gcol_add, &c, gs);
  r.peer_ms = gcol_bench_time_ms(run_copy_peer, &c, gs);
  r.bytes = 24.0 * (double)n;
  gcol_bench_report(&r);

  GCOL_BENCH_CHECK(cudaFree(c.copy_dst));
  GCOL_BENCH_CHECK(cudaFree((void *)c.copy_src));
  gcol_mr_destroy(c.mr);
  gcol_column_free(lhs);
  gcol_column_free(rhs);
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
