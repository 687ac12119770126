/*
 * distinct_i64_1M (issue 9): gcol_distinct (keep any) of 2^27 int64 keys uniform in
 * [0, 2^20), the hash-table path with packed keys. Peer in the same run: the sort-based
 * distinct of CUB (DeviceRadixSort::SortKeys over all 64 bits, then DeviceSelect::Unique),
 * into buffers allocated once outside the timed region. The issue's other peer, libcudf
 * (shared/peers), runs from Python in the same device call when it has been installed.
 * The row counts of both are checked to agree. Rows: GCOL_BENCH_ROWS.
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include "bench_util.h"
#include "gcol/filtering.h"

namespace {

__global__ void keys_in_range(int64_t *keys, int64_t n, int64_t range) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    keys[i] = (int64_t)((uint64_t)keys[i] % (uint64_t)range);
  }
}

struct context {
  gcol_table_view input;
  cudaStream_t stream;
  const uint64_t *keys;
  uint64_t *sorted, *unique;
  int64_t *count;
  void *temp;
  size_t sort_bytes, unique_bytes;
  int64_t n;
};

void run_gcol(void *p) {
  context *c = (context *)p;
  gcol_table *out = NULL;
  int32_t const key = 0;
  GCOL_BENCH_CHECK(
      gcol_distinct(c->input, &key, 1, GCOL_KEEP_ANY, GCOL_NULLS_EQUAL, &out, c->stream, NULL));
  gcol_table_free(out);
}

void run_peer(void *p) {
  context *c = (context *)p;
  size_t bytes = c->sort_bytes;
  GCOL_BENCH_CHECK(cub::DeviceRadixSort::SortKeys(c->temp, bytes, c->keys, c->sorted, c->n, 0, 64,
                                                  c->stream));
  bytes = c->unique_bytes;
  GCOL_BENCH_CHECK(
      cub::DeviceSelect::Unique(c->temp, bytes, c->sorted, c->unique, c->count, c->n, c->stream));
}

}  // namespace

int main(void) {
  const char *rows_env = getenv("GCOL_BENCH_ROWS");
  int64_t const n = rows_env != NULL ? atoll(rows_env) : ((int64_t)1 << 27);
  int64_t const range = (int64_t)1 << 20;
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  context c = {};
  c.n = n;
  c.stream = stream;
  int64_t *keys = NULL;
  GCOL_BENCH_CHECK(cudaMalloc(&keys, (size_t)n * sizeof(int64_t)));
  gcol_bench_fill_random(keys, (size_t)n * sizeof(int64_t), 91, (gcol_stream)stream);
  keys_in_range<<<4096, 256, 0, stream>>>(keys, n, range);
  GCOL_BENCH_CHECK(cudaGetLastError());
  c.keys = (const uint64_t *)keys;
  GCOL_BENCH_CHECK(cudaMalloc(&c.sorted, (size_t)n * sizeof(uint64_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&c.unique, (size_t)n * sizeof(uint64_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&c.count, sizeof(int64_t)));
  GCOL_BENCH_CHECK(cub::DeviceRadixSort::SortKeys(NULL, c.sort_bytes, c.keys, c.sorted, n, 0, 64,
                                                  stream));
  GCOL_BENCH_CHECK(
      cub::DeviceSelect::Unique(NULL, c.unique_bytes, c.sorted, c.unique, c.count, n, stream));
  GCOL_BENCH_CHECK(cudaMalloc(&c.temp, c.sort_bytes > c.unique_bytes ? c.sort_bytes : c.unique_bytes));
  gcol_column_view const col = gcol_column_view_make(gcol_data_type_make(GCOL_INT64), n, keys, NULL, 0);
  GCOL_BENCH_CHECK(gcol_table_view_make(&col, 1, &c.input));

  /* Both find the same number of distinct keys. */
  gcol_table *out = NULL;
  int32_t const key = 0;
  int64_t peer_count = 0;
  GCOL_BENCH_CHECK(
      gcol_distinct(c.input, &key, 1, GCOL_KEEP_ANY, GCOL_NULLS_EQUAL, &out, stream, NULL));
  run_peer(&c);
  GCOL_BENCH_CHECK(cudaMemcpyAsync(&peer_count, c.count, sizeof peer_count, cudaMemcpyDeviceToHost,
                                   stream));
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  if (out->num_rows != peer_count) {
    fprintf(stderr, "gcol found %lld distinct keys, CUB %lld\n", (long long)out->num_rows,
            (long long)peer_count);
    exit(1);
  }
  gcol_table_free(out);

  gcol_bench_print_header();
  gcol_bench_result r = {};
  r.bench = "distinct_i64_1M";
  r.types = "int64 in [0, 2^20), keep any";
  r.rows = n;
  r.peer = "cub SortKeys u64 + DeviceSelect::Unique";
  r.gcol_ms = gcol_bench_time_ms(run_gcol, &c, (gcol_stream)stream);
  r.peer_ms = gcol_bench_time_ms(run_peer, &c, (gcol_stream)stream);
  r.bytes = (double)n * sizeof(int64_t) + (double)peer_count * sizeof(int64_t);
  gcol_bench_report(&r);

  GCOL_BENCH_CHECK(cudaFree(c.temp));
  GCOL_BENCH_CHECK(cudaFree(c.count));
  GCOL_BENCH_CHECK(cudaFree(c.unique));
  GCOL_BENCH_CHECK(cudaFree(c.sorted));
  GCOL_BENCH_CHECK(cudaFree(keys));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
