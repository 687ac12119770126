/*
 * Expression benchmarks (issue 15), each with its peer measured in the same run on the
 * same data:
 *   filter_expr_3terms   gcol_filter_expression of `a > 20 AND b != 7 AND c < 0.5` over
 *                        2^27 rows (a int64 in [0, 40), b int32 in [0, 10), c float64 in
 *                        [0, 1): about 22% kept), all three columns returned; peer: gcol's
 *                        three binary operations with scalars, two LOGICAL_AND (no nulls
 *                        here: the null-propagating AND gives the same mask and makes no
 *                        null mask) and gcol_apply_boolean_mask (goal >= 2x faster).
 *   compute_expr_arith   gcol_compute_column of `(a * b + c) / d` in float64 over 2^27 rows;
 *                        peer: a handwritten CUDA kernel of the same expression into a
 *                        buffer allocated once (goal ratio >= 0.8). gcol allocates its
 *                        output on every call, as a caller would.
 * Both sides are checked against each other before timing. Rows: GCOL_BENCH_ROWS. Each row
 * records gcol's peak device memory for one call. libcudf's compute_column (+
 * apply_boolean_mask) runs from bench/peers/libcudf_peer.py (group `expression`) on the
 * same shapes.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>

#include "bench_util.h"
#include "gcol/binaryop.h"
#include "gcol/expression.h"
#include "gcol/filtering.h"

namespace {

/* Random bits into the benchmark's value ranges. */
__global__ void shape_inputs(int64_t *a, int32_t *b, double *c, double *d0, double *d1, double *d2,
                             double *d3, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    a[i] = (int64_t)((uint64_t)a[i] % 40u);
    b[i] = (int32_t)((uint32_t)b[i] % 10u);
    double *f[5] = {c, d0, d1, d2, d3};
    for (int k = 0; k < 5; ++k) {
      uint64_t bits;
      memcpy(&bits, &f[k][i], 8);
      double const u = (double)(bits >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
      f[k][i] = k == 0 ? u : 1.0 + u;                                       /* d's in [1, 2) */
    }
  }
}

__global__ void arith_peer_kernel(const double *__restrict__ a, const double *__restrict__ b,
                                  const double *__restrict__ c, const double *__restrict__ d,
                                  double *__restrict__ out, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    out[i] = (a[i] * b[i] + c[i]) / d[i];
  }
}

/* Counts rows where x and y differ by more than 1e-12 relative (the peer may fuse a * b + c). */
__global__ void count_differences(const double *x, const double *y, int64_t n,
                                  unsigned long long *count) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    if (fabs(x[i] - y[i]) > 1e-12 * fabs(y[i])) atomicAdd(count, 1ull);
  }
}

struct filter_context {
  gcol_table_view input;
  gcol_expression *expr;
  int32_t root;
  gcol_scalar *k20, *k7, *khalf;
  cudaStream_t stream;
};

void run_filter_gcol(void *p) {
  filter_context *c = (filter_context *)p;
  gcol_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_filter_expression(c->input, c->expr, c->root, &out, c->stream, NULL));
  gcol_table_free(out);
}

/* The peer: three binary operations, two ANDs, one boolean mask. */
gcol_table *filter_by_binary_ops(filter_context *c) {
  gcol_data_type const b8 = gcol_data_type_make(GCOL_BOOL8);
  gcol_column *t1 = NULL, *t2 = NULL, *t3 = NULL, *t12 = NULL, *mask = NULL;
  gcol_table *out = NULL;
  gcol_stream const s = (gcol_stream)c->stream;
  GCOL_BENCH_CHECK(gcol_binary_operation_column_scalar(c->input.columns[0], c->k20,
                                                       GCOL_BINARY_GREATER, b8, &t1, s, NULL));
  GCOL_BENCH_CHECK(gcol_binary_operation_column_scalar(c->input.columns[1], c->k7,
                                                       GCOL_BINARY_NOT_EQUAL, b8, &t2, s, NULL));
  GCOL_BENCH_CHECK(gcol_binary_operation_column_scalar(c->input.columns[2], c->khalf,
                                                       GCOL_BINARY_LESS, b8, &t3, s, NULL));
  GCOL_BENCH_CHECK(gcol_binary_operation(gcol_column_get_view(t1), gcol_column_get_view(t2),
                                         GCOL_BINARY_LOGICAL_AND, b8, &t12, s, NULL));
  GCOL_BENCH_CHECK(gcol_binary_operation(gcol_column_get_view(t12), gcol_column_get_view(t3),
                                         GCOL_BINARY_LOGICAL_AND, b8, &mask, s, NULL));
  GCOL_BENCH_CHECK(gcol_apply_boolean_mask(c->input, gcol_column_get_view(mask), &out, s, NULL));
  gcol_column_free(t1);
  gcol_column_free(t2);
  gcol_column_free(t3);
  gcol_column_free(t12);
  gcol_column_free(mask);
  return out;
}

void run_filter_peer(void *p) { gcol_table_free(filter_by_binary_ops((filter_context *)p)); }

void bench_filter(int64_t n, cudaStream_t stream, const int64_t *a, const int32_t *b,
                  const double *c) {
  filter_context ctx = {};
  gcol_column_view cols[3] = {
      gcol_column_view_make(gcol_data_type_make(GCOL_INT64), n, a, NULL, 0),
      gcol_column_view_make(gcol_data_type_make(GCOL_INT32), n, b, NULL, 0),
      gcol_column_view_make(gcol_data_type_make(GCOL_FLOAT64), n, c, NULL, 0)};
  GCOL_BENCH_CHECK(gcol_table_view_make(cols, 3, &ctx.input));
  ctx.stream = stream;
  GCOL_BENCH_CHECK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), 20, &ctx.k20));
  GCOL_BENCH_CHECK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 7, &ctx.k7));
  GCOL_BENCH_CHECK(gcol_scalar_create_float(gcol_data_type_make(GCOL_FLOAT64), 0.5, &ctx.khalf));
  int32_t na, nb, nc, l20, l7, lhalf, t1, t2, t3, t12;
  GCOL_BENCH_CHECK(gcol_expression_create(&ctx.expr));
  GCOL_BENCH_CHECK(gcol_expression_add_column(ctx.expr, GCOL_EXPRESSION_LEFT, 0, &na));
  GCOL_BENCH_CHECK(gcol_expression_add_column(ctx.expr, GCOL_EXPRESSION_LEFT, 1, &nb));
  GCOL_BENCH_CHECK(gcol_expression_add_column(ctx.expr, GCOL_EXPRESSION_LEFT, 2, &nc));
  GCOL_BENCH_CHECK(gcol_expression_add_literal(ctx.expr, ctx.k20, &l20));
  GCOL_BENCH_CHECK(gcol_expression_add_literal(ctx.expr, ctx.k7, &l7));
  GCOL_BENCH_CHECK(gcol_expression_add_literal(ctx.expr, ctx.khalf, &lhalf));
  GCOL_BENCH_CHECK(gcol_expression_add_binary(ctx.expr, GCOL_EXPR_GREATER, na, l20, &t1));
  GCOL_BENCH_CHECK(gcol_expression_add_binary(ctx.expr, GCOL_EXPR_NOT_EQUAL, nb, l7, &t2));
  GCOL_BENCH_CHECK(gcol_expression_add_binary(ctx.expr, GCOL_EXPR_LESS, nc, lhalf, &t3));
  GCOL_BENCH_CHECK(gcol_expression_add_binary(ctx.expr, GCOL_EXPR_NULL_LOGICAL_AND, t1, t2, &t12));
  GCOL_BENCH_CHECK(
      gcol_expression_add_binary(ctx.expr, GCOL_EXPR_NULL_LOGICAL_AND, t12, t3, &ctx.root));

  /* both sides keep the same rows (the same first column, bit for bit) */
  gcol_table *mine = NULL, *theirs = filter_by_binary_ops(&ctx);
  GCOL_BENCH_CHECK(gcol_filter_expression(ctx.input, ctx.expr, ctx.root, &mine, stream, NULL));
  int64_t const kept = mine->num_rows;
  if (kept != theirs->num_rows || kept == 0 || kept == n) {
    fprintf(stderr, "filter_expr_3terms: kept %lld rows, the binary ops %lld\n", (long long)kept,
            (long long)theirs->num_rows);
    exit(1);
  }
  {
    int64_t *h1 = (int64_t *)malloc((size_t)kept * 8), *h2 = (int64_t *)malloc((size_t)kept * 8);
    GCOL_BENCH_CHECK(h1 == NULL || h2 == NULL);
    GCOL_BENCH_CHECK(cudaMemcpy(h1, mine->columns[0]->data->data, (size_t)kept * 8,
                                cudaMemcpyDeviceToHost));
    GCOL_BENCH_CHECK(cudaMemcpy(h2, theirs->columns[0]->data->data, (size_t)kept * 8,
                                cudaMemcpyDeviceToHost));
    if (memcmp(h1, h2, (size_t)kept * 8) != 0) {
      fprintf(stderr, "filter_expr_3terms: the kept rows differ from the binary ops'\n");
      exit(1);
    }
    free(h1);
    free(h2);
  }
  gcol_table_free(mine);
  gcol_table_free(theirs);

  gcol_bench_result r = {};
  r.bench = "filter_expr_3terms";
  r.types = "int64,int32,float64";
  r.rows = n;
  r.peer = "gcol 3 binary ops + 2 ANDs + apply_boolean_mask";
  r.gcol_ms = gcol_bench_time_ms(run_filter_gcol, &ctx, (gcol_stream)stream);
  r.peer_ms = gcol_bench_time_ms(run_filter_peer, &ctx, (gcol_stream)stream);
  r.bytes = (double)n * 20.0 + (double)kept * 20.0;
  gcol_bench_report_more(&r, gcol_bench_peak_bytes(run_filter_gcol, &ctx, (gcol_stream)stream),
                         NULL);
  gcol_expression_free(ctx.expr);
  gcol_scalar_free(ctx.k20);
  gcol_scalar_free(ctx.k7);
  gcol_scalar_free(ctx.khalf);
}

struct arith_context {
  gcol_table_view input;
  gcol_expression *expr;
  int32_t root;
  const double *a, *b, *c, *d;
  double *peer_out;
  int64_t n;
  cudaStream_t stream;
};

void run_arith_gcol(void *p) {
  arith_context *c = (arith_context *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_compute_column(c->input, c->expr, c->root, &out, c->stream, NULL));
  gcol_column_free(out);
}

void run_arith_peer(void *p) {
  arith_context *c = (arith_context *)p;
  int64_t const blocks64 = (c->n + 255) / 256;
  unsigned int const blocks = (unsigned int)(blocks64 < 65536 * 4 ? blocks64 : 65536 * 4);
  arith_peer_kernel<<<blocks, 256, 0, c->stream>>>(c->a, c->b, c->c, c->d, c->peer_out, c->n);
  GCOL_BENCH_CHECK(cudaGetLastError());
}

void bench_arith(int64_t n, cudaStream_t stream, const double *a, const double *b, const double *c,
                 const double *d) {
  arith_context ctx = {};
  gcol_data_type const f64 = gcol_data_type_make(GCOL_FLOAT64);
  gcol_column_view cols[4] = {gcol_column_view_make(f64, n, a, NULL, 0),
                              gcol_column_view_make(f64, n, b, NULL, 0),
                              gcol_column_view_make(f64, n, c, NULL, 0),
                              gcol_column_view_make(f64, n, d, NULL, 0)};
  GCOL_BENCH_CHECK(gcol_table_view_make(cols, 4, &ctx.input));
  ctx.a = a;
  ctx.b = b;
  ctx.c = c;
  ctx.d = d;
  ctx.n = n;
  ctx.stream = stream;
  GCOL_BENCH_CHECK(cudaMalloc(&ctx.peer_out, (size_t)n * sizeof(double)));
  int32_t na, nb, nc, nd, mul, add;
  GCOL_BENCH_CHECK(gcol_expression_create(&ctx.expr));
  GCOL_BENCH_CHECK(gcol_expression_add_column(ctx.expr, GCOL_EXPRESSION_LEFT, 0, &na));
  GCOL_BENCH_CHECK(gcol_expression_add_column(ctx.expr, GCOL_EXPRESSION_LEFT, 1, &nb));
  GCOL_BENCH_CHECK(gcol_expression_add_column(ctx.expr, GCOL_EXPRESSION_LEFT, 2, &nc));
  GCOL_BENCH_CHECK(gcol_expression_add_column(ctx.expr, GCOL_EXPRESSION_LEFT, 3, &nd));
  GCOL_BENCH_CHECK(gcol_expression_add_binary(ctx.expr, GCOL_EXPR_MUL, na, nb, &mul));
  GCOL_BENCH_CHECK(gcol_expression_add_binary(ctx.expr, GCOL_EXPR_ADD, mul, nc, &add));
  GCOL_BENCH_CHECK(gcol_expression_add_binary(ctx.expr, GCOL_EXPR_DIV, add, nd, &ctx.root));

  gcol_column *mine = NULL;
  unsigned long long *count = NULL, host_count = 0;
  GCOL_BENCH_CHECK(gcol_compute_column(ctx.input, ctx.expr, ctx.root, &mine, stream, NULL));
  run_arith_peer(&ctx);
  GCOL_BENCH_CHECK(cudaMalloc(&count, sizeof *count));
  GCOL_BENCH_CHECK(cudaMemsetAsync(count, 0, sizeof *count, stream));
  count_differences<<<4096, 256, 0, stream>>>((const double *)mine->data->data, ctx.peer_out, n,
                                              count);
  GCOL_BENCH_CHECK(cudaGetLastError());
  GCOL_BENCH_CHECK(
      cudaMemcpyAsync(&host_count, count, sizeof host_count, cudaMemcpyDeviceToHost, stream));
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  if (host_count != 0 || mine->null_mask != NULL) {
    fprintf(stderr, "compute_expr_arith: %llu rows differ from the handwritten kernel's\n",
            host_count);
    exit(1);
  }
  GCOL_BENCH_CHECK(cudaFree(count));
  gcol_column_free(mine);

  gcol_bench_result r = {};
  r.bench = "compute_expr_arith";
  r.types = "float64";
  r.rows = n;
  r.peer = "handwritten CUDA kernel";
  r.gcol_ms = gcol_bench_time_ms(run_arith_gcol, &ctx, (gcol_stream)stream);
  r.peer_ms = gcol_bench_time_ms(run_arith_peer, &ctx, (gcol_stream)stream);
  r.bytes = (double)n * 40.0;
  gcol_bench_report_more(&r, gcol_bench_peak_bytes(run_arith_gcol, &ctx, (gcol_stream)stream),
                         NULL);
  gcol_expression_free(ctx.expr);
  GCOL_BENCH_CHECK(cudaFree(ctx.peer_out));
}

}  // namespace

int main(void) {
  const char *rows_env = getenv("GCOL_BENCH_ROWS");
  int64_t const n = rows_env != NULL ? atoll(rows_env) : ((int64_t)1 << 27);
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  int64_t *a = NULL;
  int32_t *b = NULL;
  double *c = NULL, *d[4] = {NULL, NULL, NULL, NULL};
  GCOL_BENCH_CHECK(cudaMalloc(&a, (size_t)n * sizeof(int64_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&b, (size_t)n * sizeof(int32_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&c, (size_t)n * sizeof(double)));
  for (int k = 0; k < 4; ++k) GCOL_BENCH_CHECK(cudaMalloc(&d[k], (size_t)n * sizeof(double)));
  gcol_bench_fill_random(a, (size_t)n * sizeof(int64_t), 51, (gcol_stream)stream);
  gcol_bench_fill_random(b, (size_t)n * sizeof(int32_t), 52, (gcol_stream)stream);
  gcol_bench_fill_random(c, (size_t)n * sizeof(double), 53, (gcol_stream)stream);
  for (int k = 0; k < 4; ++k) {
    gcol_bench_fill_random(d[k], (size_t)n * sizeof(double), 54 + (uint64_t)k, (gcol_stream)stream);
  }
  shape_inputs<<<4096, 256, 0, stream>>>(a, b, c, d[0], d[1], d[2], d[3], n);
  GCOL_BENCH_CHECK(cudaGetLastError());
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));

  gcol_bench_print_header();
  bench_filter(n, stream, a, b, c);
  bench_arith(n, stream, d[0], d[1], d[2], d[3]);

  for (int k = 0; k < 4; ++k) GCOL_BENCH_CHECK(cudaFree(d[k]));
  GCOL_BENCH_CHECK(cudaFree(c));
  GCOL_BENCH_CHECK(cudaFree(b));
  GCOL_BENCH_CHECK(cudaFree(a));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
