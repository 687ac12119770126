/*
 * Interop (issue 13): the zero-copy Arrow C Device Data round trip and the host export.
 *
 *   export_import_table    a table of 8 columns (int64, float64, int32, timestamp[us]; two
 *                          with nulls) exported as an ArrowDeviceArray with its schema and
 *                          imported back as gcol views, then both released: 2^26 rows,
 *                          against the same at 2^16 rows (a zero-copy path costs the same
 *                          whatever the rows: ratio near 1; goal well under 1 ms)
 *   arrow_host_export      the same 2^26-row table copied into a host Arrow array (buffers
 *                          from a pool over pinned memory, so the pages are locked once),
 *                          against cudaMemcpyAsync of the same bytes into pinned memory
 *                          (goal ratio >= 0.8)
 * Times: CUDA events on the stream around each call, median after warm-ups (bench_util).
 */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gcol/interop.h"

#define NUM_COLUMNS 8

typedef struct interop_ctx {
  gcol_table *table;
  gcol_stream stream;
  gcol_mr *host_pool; /* pinned, pooled: the host export's buffers */
  void *pinned;       /* the peer's host buffer */
  size_t bytes;       /* the table's data and mask bytes */
} interop_ctx;

static gcol_table *make_table(int64_t rows, gcol_stream stream, size_t *bytes) {
  gcol_type_id const ids[NUM_COLUMNS] = {
      GCOL_INT64,   GCOL_FLOAT64, GCOL_INT32, GCOL_INT64,
      GCOL_FLOAT64, GCOL_INT32,   GCOL_INT64, GCOL_TIMESTAMP_MICROSECONDS};
  gcol_column *cols[NUM_COLUMNS];
  *bytes = 0;
  for (int c = 0; c < NUM_COLUMNS; ++c) {
    gcol_mask_state const mask = c < 2 ? GCOL_MASK_ALL_VALID : GCOL_MASK_UNALLOCATED;
    GCOL_BENCH_CHECK(
        gcol_column_create(gcol_data_type_make(ids[c]), rows, mask, stream, NULL, &cols[c]));
    size_t const data = (size_t)rows * gcol_type_size(ids[c]);
    gcol_bench_fill_random(cols[c]->data->data, data, 7 + (uint64_t)c, stream);
    *bytes += data + (c < 2 ? (size_t)(rows + 7) / 8 : 0);
  }
  GCOL_BENCH_CHECK(cudaStreamSynchronize((cudaStream_t)stream));
  gcol_table *t = NULL;
  GCOL_BENCH_CHECK(gcol_table_make(cols, NUM_COLUMNS, &t));
  return t;
}

/* Export (device, zero-copy), import, release both. */
static void run_round_trip(void *arg) {
  interop_ctx *c = (interop_ctx *)arg;
  gcol_table_view const v = gcol_table_get_view(c->table);
  struct ArrowSchema schema;
  struct ArrowDeviceArray array;
  GCOL_BENCH_CHECK(gcol_arrow_schema_export_table(v, NULL, &schema));
  GCOL_BENCH_CHECK(gcol_arrow_device_export_table(v, NULL, NULL, &array, c->stream, NULL));
  gcol_imported *imported = NULL;
  GCOL_BENCH_CHECK(gcol_arrow_device_import_table(&schema, &array, c->stream, NULL, &imported));
  if (gcol_imported_table(imported).num_rows != v.num_rows) {
    fprintf(stderr, "the import has %lld rows, not %lld\n",
            (long long)gcol_imported_table(imported).num_rows, (long long)v.num_rows);
    exit(1);
  }
  gcol_imported_free(imported);
}

static void run_host_export(void *arg) {
  interop_ctx *c = (interop_ctx *)arg;
  struct ArrowArray array;
  GCOL_BENCH_CHECK(
      gcol_arrow_export_table(gcol_table_get_view(c->table), &array, c->stream, c->host_pool));
  array.release(&array);
}

/* The peer: the table's buffers copied into one pinned buffer. */
static void run_copies(void *arg) {
  interop_ctx *c = (interop_ctx *)arg;
  gcol_table_view const v = gcol_table_get_view(c->table);
  size_t at = 0;
  for (int i = 0; i < v.num_columns; ++i) {
    size_t const data = (size_t)v.num_rows * gcol_type_size(v.columns[i].type.id);
    GCOL_BENCH_CHECK(cudaMemcpyAsync((char *)c->pinned + at, v.columns[i].data, data,
                                     cudaMemcpyDeviceToHost, (cudaStream_t)c->stream));
    at += data;
    if (v.columns[i].null_mask != NULL) {
      size_t const mask = (size_t)(v.num_rows + 7) / 8;
      GCOL_BENCH_CHECK(cudaMemcpyAsync((char *)c->pinned + at, v.columns[i].null_mask, mask,
                                       cudaMemcpyDeviceToHost, (cudaStream_t)c->stream));
      at += mask;
    }
  }
}

int main(int argc, char **argv) {
  int const shift = argc > 1 ? atoi(argv[1]) : 0;
  int64_t const rows = ((int64_t)1 << 26) >> shift, small_rows = (int64_t)1 << 16;
  cudaStream_t s;
  GCOL_BENCH_CHECK(cudaStreamCreate(&s));
  interop_ctx big, small;
  memset(&big, 0, sizeof big);
  memset(&small, 0, sizeof small);
  big.stream = small.stream = (gcol_stream)s;
  big.table = make_table(rows, big.stream, &big.bytes);
  small.table = make_table(small_rows, small.stream, &small.bytes);
  gcol_bench_print_header();

  double const trip = gcol_bench_time_ms(run_round_trip, &big, big.stream);
  double const trip_small = gcol_bench_time_ms(run_round_trip, &small, small.stream);
  gcol_bench_result r = {"export_import_table",   "8 columns", rows, trip,
                         "the same at 2^16 rows", trip_small,  0};
  gcol_bench_report(&r);

  gcol_mr *pinned = NULL;
  GCOL_BENCH_CHECK(gcol_mr_pinned_create(&pinned));
  GCOL_BENCH_CHECK(gcol_mr_pool_create(pinned, 0, 0, &big.host_pool));
  GCOL_BENCH_CHECK(cudaMallocHost(&big.pinned, big.bytes));
  double const host = gcol_bench_time_ms(run_host_export, &big, big.stream);
  double const copies = gcol_bench_time_ms(run_copies, &big, big.stream);
  gcol_bench_result h = {
      "arrow_host_export", "8 columns", rows, host, "cudaMemcpyAsync D2H pinned", copies,
      (double)big.bytes};
  gcol_bench_report(&h);

  GCOL_BENCH_CHECK(cudaFreeHost(big.pinned));
  gcol_table_free(big.table);
  gcol_table_free(small.table);
  gcol_mr_destroy(big.host_pool);
  gcol_mr_destroy(pinned);
  GCOL_BENCH_CHECK(cudaStreamDestroy(s));
  return 0;
}
