/*
 * Reduction and scan benchmarks (issue 6), each with its CUB peer measured in the same run
 * on the same data:
 *   reduce_sum_i64: gcol_reduce(SUM) of 2^27 random int64, no nulls. The issue's peer is
 *     cub::DeviceReduce::Sum; gcol_reduce returns a host scalar, so the like-for-like peer
 *     is the device-only DeviceReduce::Sum followed by the same device-to-host copy of its
 *     one 8-byte result (and the synchronization that copy needs), which is what a user of
 *     CUB pays to read the value and exactly the extra work gcol does. One row.
 *   scan_sum_i64: gcol_scan(SUM, INCLUSIVE) of 2^27 int64; peer
 *     cub::DeviceScan::InclusiveSum into a preallocated output (gcol allocates its output
 *     column and temporaries in every call, from its pool).
 * Rows: GCOL_BENCH_ROWS (default 2^27). gcol's default resource is its own per-device pool,
 * which keeps freed memory mapped, so its per-call allocations cost what a pool costs.
 */
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

typedef struct bench_ctx {
  gcol_column_view input;
  int64_t n;
  cudaStream_t stream;
  void *temp;
  size_t temp_bytes;
  int64_t *device_result;
  int64_t host_result;
  int64_t *scan_out;
} bench_ctx;

static void run_gcol_reduce(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  gcol_scalar *sum = NULL;
  GCOL_BENCH_CHECK(gcol_reduce(c->input, GCOL_REDUCE_SUM, NULL, &sum, (gcol_stream)c->stream));
  c->host_result = sum->value.i64;
  gcol_scalar_free(sum);
}

static void run_cub_reduce_device(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  GCOL_BENCH_CHECK(cub::DeviceReduce::Sum(c->temp, c->temp_bytes, (const int64_t *)c->input.data,
                                          c->device_result, c->n, c->stream));
}

/* The peer: the device-only reduction plus the copy of its one value to the host. */
static void run_cub_reduce_to_host(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  run_cub_reduce_device(p);
  GCOL_BENCH_CHECK(cudaMemcpyAsync(&c->host_result, c->device_result, sizeof(int64_t),
                                   cudaMemcpyDeviceToHost, c->stream));
  GCOL_BENCH_CHECK(cudaStreamSynchronize(c->stream));
}

static void run_gcol_scan(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_scan(c->input, GCOL_SCAN_SUM, GCOL_SCAN_INCLUSIVE,
                             GCOL_SCAN_NULLS_EXCLUDE, &out, (gcol_stream)c->stream, NULL));
  gcol_column_free(out);
}

static void run_cub_scan(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  GCOL_BENCH_CHECK(cub::DeviceScan::InclusiveSum(c->temp, c->temp_bytes,
                                                 (const int64_t *)c->input.data, c->scan_out, c->n,
                                                 c->stream));
}

/* Checks that gcol and CUB agree before timing (a benchmark of a wrong result is void). */
static void check_reduce_agrees(bench_ctx *c) {
  run_cub_reduce_to_host(c);
  int64_t const expected = c->host_result;
  run_gcol_reduce(c);
  if (c->host_result != expected) {
    fprintf(stderr, "reduce_sum_i64: gcol %lld != cub %lld\n", (long long)c->host_result,
            (long long)expected);
    exit(1);
  }
}

int main(void) {
  const char *rows_env = getenv("GCOL_BENCH_ROWS");
  int64_t const n = rows_env != NULL ? atoll(rows_env) : ((int64_t)1 << 27);
  bench_ctx c;
  memset(&c, 0, sizeof c);
  c.n = n;
  GCOL_BENCH_CHECK(cudaStreamCreate(&c.stream));
  gcol_column *input = NULL;
  GCOL_BENCH_CHECK(gcol_column_create(gcol_data_type_make(GCOL_INT64), n, GCOL_MASK_UNALLOCATED,
                                      (gcol_stream)c.stream, NULL, &input));
  gcol_bench_fill_random(input->data->data, (size_t)n * sizeof(int64_t), 42, (gcol_stream)c.stream);
  c.input = gcol_column_get_view(input);

  size_t reduce_bytes = 0, scan_bytes = 0;
  GCOL_BENCH_CHECK(cub::DeviceReduce::Sum(NULL, reduce_bytes, (const int64_t *)c.input.data,
                                          (int64_t *)NULL, n, c.stream));
  GCOL_BENCH_CHECK(cub::DeviceScan::InclusiveSum(NULL, scan_bytes, (const int64_t *)c.input.data,
                                                 (int64_t *)NULL, n, c.stream));
  c.temp_bytes = reduce_bytes > scan_bytes ? reduce_bytes : scan_bytes;
  GCOL_BENCH_CHECK(cudaMalloc(&c.temp, c.temp_bytes));
  GCOL_BENCH_CHECK(cudaMalloc((void **)&c.device_result, sizeof(int64_t)));
  GCOL_BENCH_CHECK(cudaMalloc((void **)&c.scan_out, (size_t)n * sizeof(int64_t)));
  check_reduce_agrees(&c);

  gcol_bench_print_header();
  gcol_bench_result r;
  memset(&r, 0, sizeof r);
  r.bench = "reduce_sum_i64";
  r.types = "int64";
  r.rows = n;
  r.bytes = (double)n * sizeof(int64_t);
  r.peer = "cub::DeviceReduce::Sum + D2H copy of the result (like-for-like)";
  r.gcol_ms = gcol_bench_time_ms(run_gcol_reduce, &c, (gcol_stream)c.stream);
  r.peer_ms = gcol_bench_time_ms(run_cub_reduce_to_host, &c, (gcol_stream)c.stream);
  gcol_bench_report(&r);

  r.bench = "scan_sum_i64";
  r.bytes = 2.0 * (double)n * sizeof(int64_t);
  r.peer = "cub::DeviceScan::InclusiveSum";
  r.gcol_ms = gcol_bench_time_ms(run_gcol_scan, &c, (gcol_stream)c.stream);
  r.peer_ms = gcol_bench_time_ms(run_cub_scan, &c, (gcol_stream)c.stream);
  gcol_bench_report(&r);

  GCOL_BENCH_CHECK(cudaFree(c.temp));
  GCOL_BENCH_CHECK(cudaFree(c.device_result));
  GCOL_BENCH_CHECK(cudaFree(c.scan_out));
  gcol_column_free(input);
  GCOL_BENCH_CHECK(cudaStreamDestroy(c.stream));
  return 0;
}
