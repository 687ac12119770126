/*
 * Filtering benchmarks (issue 4), each with its peer measured in the same run on the same
 * data:
 *   filter_i64_50pct        gcol_apply_boolean_mask, int64, 2^27 rows, 50% random flags;
 *                           peer cub::DeviceSelect::Flagged (goal ratio >= 0.90).
 *                           The peer writes into buffers allocated once, outside the
 *                           timed region; gcol allocates its exact-size output on every
 *                           call (from the default pool resource), as a caller would.
 *   filter_i64_nulls_50pct  the same with a null mask on the data, every row valid but
 *                           the null count unknown (so the mask is read and a mask is
 *                           written): the tiled select with validity (issue 9, goal ratio
 *                           >= 0.80); same peer, which moves no mask.
 *   filter_i64_random_nulls_50pct  the same with random nulls (about half); for
 *                           information.
 * Rows can be changed with GCOL_BENCH_ROWS.
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include <cub/device/device_select.cuh>

#include "bench_util.h"
#include "gcol/filtering.h"

namespace {

/* Turns random bytes into 0/1 flags (about half set). */
__global__ void flags_from_random(uint8_t *flags, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    flags[i] = flags[i] & 1u;
  }
}

/* Sets *differs when a and b differ anywhere in their n values. */
__global__ void compare_values(const int64_t *a, const int64_t *b, int64_t n, int *differs) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    if (a[i] != b[i]) *differs = 1;
  }
}

struct context {
  gcol_table_view input;
  gcol_column_view mask;
  cudaStream_t stream;
  /* peer */
  const int64_t *data;
  const uint8_t *flags;
  size_t peer_temp_bytes; /* CUB's temporary size, rounded up to 256: the count follows */
  int64_t *peer_selected; /* host; when not NULL, the peer reads its count back into it */
  void *peer_out;         /* n rows: a caller of CUB has no count before it runs */
  void *peer_temp;        /* CUB's temporaries followed by the count */
  int64_t n;
};

void run_gcol(void *p) {
  context *c = (context *)p;
  gcol_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_apply_boolean_mask(c->input, c->mask, &out, c->stream, NULL));
  gcol_table_free(out);
}

/* The issue's peer: cub::DeviceSelect::Flagged alone, into buffers allocated once outside
 * the timed region (so the peer pays no allocation; gcol pays for its exact-size output). */
void run_peer(void *p) {
  context *c = (context *)p;
  int64_t *count = (int64_t *)((char *)c->peer_temp + c->peer_temp_bytes);
  size_t cub_bytes = c->peer_temp_bytes;
  GCOL_BENCH_CHECK(cub::DeviceSelect::Flagged(c->peer_temp, cub_bytes, c->data, c->flags,
                                              (int64_t *)c->peer_out, count, c->n, c->stream));
  if (c->peer_selected != NULL) {
    GCOL_BENCH_CHECK(cudaMemcpyAsync(c->peer_selected, count, sizeof(int64_t),
                                     cudaMemcpyDeviceToHost, c->stream));
    GCOL_BENCH_CHECK(cudaStreamSynchronize(c->stream));
  }
}

void check_against_peer(context *c, int64_t selected) {
  gcol_table *out = NULL;
  int64_t *expected = NULL, *count = NULL;
  int *differs = NULL, host_differs = 0;
  void *temp = NULL;
  size_t temp_bytes = c->peer_temp_bytes;
  GCOL_BENCH_CHECK(gcol_apply_boolean_mask(c->input, c->mask, &out, c->stream, NULL));
  if (out->num_rows != selected) {
    fprintf(stderr, "gcol kept %lld rows, CUB %lld\n", (long long)out->num_rows,
            (long long)selected);
    exit(1);
  }
  GCOL_BENCH_CHECK(cudaMalloc(&expected, (size_t)c->n * sizeof(int64_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&count, sizeof(int64_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&differs, sizeof(int)));
  GCOL_BENCH_CHECK(cudaMalloc(&temp, temp_bytes));
  GCOL_BENCH_CHECK(cudaMemsetAsync(differs, 0, sizeof(int), c->stream));
  GCOL_BENCH_CHECK(cub::DeviceSelect::Flagged(temp, temp_bytes, c->data, c->flags, expected, count,
                                              c->n, c->stream));
  compare_values<<<4096, 256, 0, c->stream>>>((const int64_t *)out->columns[0]->data->data,
                                              expected, selected, differs);
  GCOL_BENCH_CHECK(cudaGetLastError());
  GCOL_BENCH_CHECK(
      cudaMemcpyAsync(&host_differs, differs, sizeof(int), cudaMemcpyDeviceToHost, c->stream));
  GCOL_BENCH_CHECK(cudaStreamSynchronize(c->stream));
  if (host_differs != 0) {
    fprintf(stderr, "gcol kept other values than CUB\n");
    exit(1);
  }
  GCOL_BENCH_CHECK(cudaFree(temp));
  GCOL_BENCH_CHECK(cudaFree(differs));
  GCOL_BENCH_CHECK(cudaFree(count));
  GCOL_BENCH_CHECK(cudaFree(expected));
  gcol_table_free(out);
}

int64_t count_selected(context *c) {
  int64_t count = 0;
  c->peer_selected = &count;
  run_peer(c);
  c->peer_selected = NULL;
  return count;
}

void bench_one(const char *name, context *c, const uint32_t *null_mask) {
  gcol_column_view col = gcol_column_view_make(gcol_data_type_make(GCOL_INT64), c->n, c->data,
                                               null_mask, GCOL_UNKNOWN_NULL_COUNT);
  gcol_table_view input;
  GCOL_BENCH_CHECK(gcol_table_view_make(&col, 1, &input));
  c->input = input;
  int64_t const selected = count_selected(c);
  check_against_peer(c, selected);
  gcol_bench_result r = {};
  r.bench = name;
  r.types = "int64";
  r.rows = c->n;
  r.peer = "cub::DeviceSelect::Flagged";
  r.gcol_ms = gcol_bench_time_ms(run_gcol, c, (gcol_stream)c->stream);
  r.peer_ms = gcol_bench_time_ms(run_peer, c, (gcol_stream)c->stream);
  r.bytes = (double)c->n * (sizeof(int64_t) + 1) + (double)selected * sizeof(int64_t);
  gcol_bench_report(&r);
}

}  // namespace

int main(void) {
  const char *rows_env = getenv("GCOL_BENCH_ROWS");
  int64_t const n = rows_env != NULL ? atoll(rows_env) : ((int64_t)1 << 27);
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  context c = {};
  c.n = n;
  c.stream = stream;
  int64_t *data = NULL;
  uint8_t *flags = NULL;
  uint32_t *null_mask = NULL, *random_nulls = NULL;
  size_t const mask_bytes = gcol_bitmask_allocation_size(n);
  GCOL_BENCH_CHECK(cudaMalloc(&data, (size_t)n * sizeof(int64_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&flags, (size_t)n));
  GCOL_BENCH_CHECK(cudaMalloc(&null_mask, mask_bytes));
  GCOL_BENCH_CHECK(cudaMalloc(&random_nulls, mask_bytes));
  gcol_bench_fill_random(data, (size_t)n * sizeof(int64_t), 42, (gcol_stream)stream);
  gcol_bench_fill_random(flags, (size_t)n, 43, (gcol_stream)stream);
  /* All valid but present: the mask forces the general path without changing the result. */
  GCOL_BENCH_CHECK(cudaMemsetAsync(null_mask, 0xFF, mask_bytes, stream));
  gcol_bench_fill_random(random_nulls, mask_bytes, 44, (gcol_stream)stream);
  flags_from_random<<<4096, 256, 0, stream>>>(flags, n);
  GCOL_BENCH_CHECK(cudaGetLastError());
  c.data = data;
  c.flags = flags;
  c.mask = gcol_column_view_make(gcol_data_type_make(GCOL_BOOL8), n, flags, NULL, 0);
  GCOL_BENCH_CHECK(cub::DeviceSelect::Flagged(NULL, c.peer_temp_bytes, c.data, c.flags,
                                              (int64_t *)NULL, (int64_t *)NULL, n, stream));
  c.peer_temp_bytes = (c.peer_temp_bytes + 255) & ~(size_t)255;
  GCOL_BENCH_CHECK(cudaMalloc(&c.peer_out, (size_t)n * sizeof(int64_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&c.peer_temp, c.peer_temp_bytes + sizeof(int64_t)));

  gcol_bench_print_header();
  bench_one("filter_i64_50pct", &c, NULL);
  bench_one("filter_i64_nulls_50pct", &c, null_mask);
  bench_one("filter_i64_random_nulls_50pct", &c, random_nulls);

  GCOL_BENCH_CHECK(cudaFree(c.peer_temp));
  GCOL_BENCH_CHECK(cudaFree(c.peer_out));
  GCOL_BENCH_CHECK(cudaFree(random_nulls));
  GCOL_BENCH_CHECK(cudaFree(null_mask));
  GCOL_BENCH_CHECK(cudaFree(flags));
  GCOL_BENCH_CHECK(cudaFree(data));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
