/*
 * Groupby benchmarks (issue 11): 2^27 rows (GCOL_BENCH_ROWS), float64 values.
 *   groupby_sum_f64_1M    int64 keys uniform in [0, 2^20), SUM
 *   groupby_sum_f64_1K    int64 keys uniform in [0, 1000), SUM
 *   groupby_5aggs_f64_1M  SUM, MIN, MAX, COUNT_VALID, MEAN in one call
 *   groupby_5aggs_f64_1K  same, 1000 groups
 *   groupby_sum_2keys_1M  two int32 keys each uniform in [0, 1000), SUM
 *   groupby_sum_str_1M    STRING keys (2^24 rows, 2^20 distinct strings of 8..24 bytes), SUM
 *   groupby_median_f64_1K MEDIAN, 2^24 rows, 1000 groups (the sort-based path)
 * The peer is libcudf 26.10, which runs from Python (shared/peers/libcudf_peer.py), not in
 * this program: the `peer_ms` written here is libcudf's figure measured on an H200 on
 * 2026-11-23 (shared/peers/README.md), NOT a same-run measurement; the peer name says so.
 * Rows without a recorded libcudf figure have peer_ms 0. Bytes: keys and values read once.
 * Each row also records gcol's peak device memory for one call (statistics resource), which
 * the peer script records for libcudf (rmm's statistics adaptor).
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "bench_util.h"
#include "gcol/groupby.h"

namespace {

__global__ void ints_in_range(int64_t *keys, int64_t n, int64_t range) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    keys[i] = (int64_t)((uint64_t)keys[i] % (uint64_t)range);
  }
}

__global__ void i32_in_range(int32_t *keys, int64_t n, int32_t range) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    keys[i] = (int32_t)((uint32_t)keys[i] % (uint32_t)range);
  }
}

/* Doubles in [0, 1) from random bits (no NaN). */
__global__ void unit_doubles(double *v, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t const bits = ((const uint64_t *)v)[i];
    v[i] = (double)(bits >> 11) * (1.0 / 9007199254740992.0);
  }
}

struct context {
  gcol_table_view keys;
  gcol_groupby_request req;
  cudaStream_t stream;
};

void run_gcol(void *p) {
  context *c = (context *)p;
  gcol_groupby_result *out = NULL;
  GCOL_BENCH_CHECK(gcol_groupby_aggregate(c->keys, &c->req, 1, NULL, &out, c->stream, NULL));
  gcol_groupby_result_free(out);
}

void bench(const char *name, const char *types, context *c, int64_t n, double libcudf_ms,
           double bytes) {
  gcol_bench_result r = {};
  r.bench = name;
  r.types = types;
  r.rows = n;
  r.peer = libcudf_ms > 0 ? "libcudf 26.10 H200 2026-11-23 (reference, not same run)"
                          : "none (no recorded peer)";
  r.gcol_ms = gcol_bench_time_ms(run_gcol, c, (gcol_stream)c->stream);
  r.peer_ms = libcudf_ms;
  r.bytes = bytes;
  gcol_bench_report_more(&r, gcol_bench_peak_bytes(run_gcol, c, (gcol_stream)c->stream), NULL);
}

}  // namespace

int main(void) {
  const char *rows_env = getenv("GCOL_BENCH_ROWS");
  int64_t const n = rows_env != NULL ? atoll(rows_env) : ((int64_t)1 << 27);
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  int64_t *k1m = NULL, *k1k = NULL;
  int32_t *ka = NULL, *kb = NULL;
  double *values = NULL;
  GCOL_BENCH_CHECK(cudaMalloc(&k1m, (size_t)n * 8));
  GCOL_BENCH_CHECK(cudaMalloc(&k1k, (size_t)n * 8));
  GCOL_BENCH_CHECK(cudaMalloc(&ka, (size_t)n * 4));
  GCOL_BENCH_CHECK(cudaMalloc(&kb, (size_t)n * 4));
  GCOL_BENCH_CHECK(cudaMalloc(&values, (size_t)n * 8));
  gcol_bench_fill_random(k1m, (size_t)n * 8, 111, (gcol_stream)stream);
  gcol_bench_fill_random(k1k, (size_t)n * 8, 112, (gcol_stream)stream);
  gcol_bench_fill_random(ka, (size_t)n * 4, 113, (gcol_stream)stream);
  gcol_bench_fill_random(kb, (size_t)n * 4, 114, (gcol_stream)stream);
  gcol_bench_fill_random(values, (size_t)n * 8, 115, (gcol_stream)stream);
  ints_in_range<<<4096, 256, 0, stream>>>(k1m, n, (int64_t)1 << 20);
  ints_in_range<<<4096, 256, 0, stream>>>(k1k, n, 1000);
  i32_in_range<<<4096, 256, 0, stream>>>(ka, n, 1000);
  i32_in_range<<<4096, 256, 0, stream>>>(kb, n, 1000);
  unit_doubles<<<4096, 256, 0, stream>>>(values, n);
  GCOL_BENCH_CHECK(cudaGetLastError());

  gcol_data_type const i64 = gcol_data_type_make(GCOL_INT64);
  gcol_data_type const i32 = gcol_data_type_make(GCOL_INT32);
  gcol_column_view const v =
      gcol_column_view_make(gcol_data_type_make(GCOL_FLOAT64), n, values, NULL, 0);
  gcol_column_view const c1m = gcol_column_view_make(i64, n, k1m, NULL, 0);
  gcol_column_view const c1k = gcol_column_view_make(i64, n, k1k, NULL, 0);
  gcol_column_view const two[2] = {gcol_column_view_make(i32, n, ka, NULL, 0),
                                   gcol_column_view_make(i32, n, kb, NULL, 0)};
  gcol_groupby_agg const sum = gcol_groupby_agg_make(GCOL_GROUPBY_SUM);
  gcol_groupby_agg const five[5] = {
      gcol_groupby_agg_make(GCOL_GROUPBY_SUM), gcol_groupby_agg_make(GCOL_GROUPBY_MIN),
      gcol_groupby_agg_make(GCOL_GROUPBY_MAX), gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_VALID),
      gcol_groupby_agg_make(GCOL_GROUPBY_MEAN)};
  context c = {};
  c.stream = stream;
  c.req.values = v;
  double const bytes16 = (double)n * 16;

  gcol_bench_print_header();
  GCOL_BENCH_CHECK(gcol_table_view_make(&c1m, 1, &c.keys));
  c.req.aggs = &sum;
  c.req.num_aggs = 1;
  bench("groupby_sum_f64_1M", "int64 keys in [0,2^20), float64", &c, n, 12.79, bytes16);
  c.req.aggs = five;
  c.req.num_aggs = 5;
  bench("groupby_5aggs_f64_1M", "sum,min,max,count,mean", &c, n, 29.20, bytes16);
  GCOL_BENCH_CHECK(gcol_table_view_make(&c1k, 1, &c.keys));
  c.req.aggs = &sum;
  c.req.num_aggs = 1;
  bench("groupby_sum_f64_1K", "int64 keys in [0,1000), float64", &c, n, 7.72, bytes16);
  c.req.aggs = five;
  c.req.num_aggs = 5;
  bench("groupby_5aggs_f64_1K", "sum,min,max,count,mean", &c, n, 60.58, bytes16);
  GCOL_BENCH_CHECK(gcol_table_view_make(two, 2, &c.keys));
  c.req.aggs = &sum;
  c.req.num_aggs = 1;
  bench("groupby_sum_2keys_1M", "2 x int32 in [0,1000), float64", &c, n, 16.09, (double)n * 16);

  /* strings keys: 2^24 rows, keys drawn from 2^20 values */
  int64_t const ns = n < ((int64_t)1 << 24) ? n : ((int64_t)1 << 24);
  gcol_bench_strings str;
  gcol_bench_strings_make(k1m, ns, (gcol_stream)stream, &str);
  GCOL_BENCH_CHECK(gcol_table_view_make(&str.view, 1, &c.keys));
  c.req.values = gcol_column_view_make(gcol_data_type_make(GCOL_FLOAT64), ns, values, NULL, 0);
  bench("groupby_sum_str_1M", "string keys 8..24 B, 2^20 distinct", &c, ns, 0,
        (double)ns * 28 /* ~16 B of chars, 4 of offset, 8 of value a row */);

  /* median over 1000 groups, 2^24 rows */
  gcol_column_view const c1k_s = gcol_column_view_make(i64, ns, k1k, NULL, 0);
  GCOL_BENCH_CHECK(gcol_table_view_make(&c1k_s, 1, &c.keys));
  gcol_groupby_agg const median = gcol_groupby_agg_make(GCOL_GROUPBY_MEDIAN);
  c.req.aggs = &median;
  bench("groupby_median_f64_1K", "int64 keys in [0,1000), float64", &c, ns, 0, (double)ns * 16);

  gcol_bench_strings_free(&str);
  GCOL_BENCH_CHECK(cudaFree(values));
  GCOL_BENCH_CHECK(cudaFree(kb));
  GCOL_BENCH_CHECK(cudaFree(ka));
  GCOL_BENCH_CHECK(cudaFree(k1k));
  GCOL_BENCH_CHECK(cudaFree(k1m));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
