/*
 * spill_roundtrip: 2 GiB of columns (32 x 64 MiB) spilled to pinned host memory by the spill
 * manager (gcol_spill_now) and brought back (gcol_table_acquire_view on the stream, in a
 * scope), against cudaMemcpyAsync of the same bytes to a pinned buffer and back. The
 * manager's pinned pool is reserved once at its first spill (host_pool_initial), as a user
 * who spills often would; the warm-up runs take it. Goal (issue 16): ratio >= 0.85.
 *
 * Usage: bench_spill [shift]   (2 GiB >> shift)
 */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define NUM_COLUMNS 32

typedef struct spill_ctx {
  gcol_table *table;
  gcol_stream stream;
  void *pinned;              /* the peer's host buffer */
  void *device[NUM_COLUMNS]; /* the peer's device buffers */
  size_t column_bytes;
} spill_ctx;

/* Spills every column, then brings them all back on the stream. */
static void run_spill(void *arg) {
  spill_ctx *c = (spill_ctx *)arg;
  size_t spilled = 0;
  GCOL_BENCH_CHECK(gcol_spill_now(SIZE_MAX, &spilled));
  if (spilled != NUM_COLUMNS * c->column_bytes) {
    fprintf(stderr, "spilled %zu bytes, expected %zu\n", spilled, NUM_COLUMNS * c->column_bytes);
    exit(1);
  }
  gcol_spill_scope *scope = NULL;
  gcol_table_view view;
  GCOL_BENCH_CHECK(gcol_spill_scope_begin(&scope));
  GCOL_BENCH_CHECK(gcol_table_acquire_view(c->table, c->stream, &view));
  GCOL_BENCH_CHECK(gcol_spill_scope_end(scope, c->stream));
}

/* The same bytes to pinned memory and back with cudaMemcpyAsync. */
static void run_copies(void *arg) {
  spill_ctx *c = (spill_ctx *)arg;
  cudaStream_t const s = (cudaStream_t)c->stream;
  for (int i = 0; i < NUM_COLUMNS; ++i) {
    GCOL_BENCH_CHECK(cudaMemcpyAsync((char *)c->pinned + i * c->column_bytes, c->device[i],
                                     c->column_bytes, cudaMemcpyDeviceToHost, s));
  }
  for (int i = 0; i < NUM_COLUMNS; ++i) {
    GCOL_BENCH_CHECK(cudaMemcpyAsync(c->device[i], (char *)c->pinned + i * c->column_bytes,
                                     c->column_bytes, cudaMemcpyHostToDevice, s));
  }
}

/* The first bytes of every column, to check the round trips changed nothing. */
static void sample(spill_ctx *c, uint64_t *out) {
  gcol_spill_scope *scope = NULL;
  gcol_table_view view;
  GCOL_BENCH_CHECK(gcol_spill_scope_begin(&scope));
  GCOL_BENCH_CHECK(gcol_table_acquire_view(c->table, c->stream, &view));
  for (int i = 0; i < NUM_COLUMNS; ++i) {
    GCOL_BENCH_CHECK(cudaMemcpyAsync(&out[2 * i], view.columns[i].data, 8, cudaMemcpyDeviceToHost,
                                     (cudaStream_t)c->stream));
    GCOL_BENCH_CHECK(cudaMemcpyAsync(&out[2 * i + 1],
                                     (const char *)view.columns[i].data + c->column_bytes - 8, 8,
                                     cudaMemcpyDeviceToHost, (cudaStream_t)c->stream));
  }
  GCOL_BENCH_CHECK(cudaStreamSynchronize((cudaStream_t)c->stream));
  GCOL_BENCH_CHECK(gcol_spill_scope_end(scope, c->stream));
}

static void make_table(spill_ctx *c) {
  gcol_column *cols[NUM_COLUMNS];
  int64_t const rows = (int64_t)(c->column_bytes / 8);
  for (int i = 0; i < NUM_COLUMNS; ++i) {
    gcol_mutable_column_view mv;
    GCOL_BENCH_CHECK(gcol_column_create(gcol_data_type_make(GCOL_INT64), rows,
                                        GCOL_MASK_UNALLOCATED, c->stream, NULL, &cols[i]));
    gcol_spill_scope *scope = NULL;
    GCOL_BENCH_CHECK(gcol_spill_scope_begin(&scope));
    GCOL_BENCH_CHECK(gcol_column_get_mutable_view(cols[i], c->stream, &mv));
    gcol_bench_fill_random(mv.data, c->column_bytes, 1600 + (uint64_t)i, c->stream);
    GCOL_BENCH_CHECK(gcol_spill_scope_end(scope, c->stream));
  }
  GCOL_BENCH_CHECK(gcol_table_make(cols, NUM_COLUMNS, &c->table));
}

int main(int argc, char **argv) {
  int const shift = argc > 1 ? atoi(argv[1]) : 0;
  spill_ctx c;
  memset(&c, 0, sizeof c);
  c.column_bytes = ((size_t)64 << 20) >> shift;
  size_t const total = NUM_COLUMNS * c.column_bytes;
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  c.stream = (gcol_stream)stream;
  gcol_spill_options options;
  gcol_spill_options_init(&options);
  options.host_pool_initial = total; /* one pinned block, taken at the first spill */
  GCOL_BENCH_CHECK(gcol_spill_enable(&options));
  make_table(&c);
  GCOL_BENCH_CHECK(cudaMallocHost(&c.pinned, total));
  for (int i = 0; i < NUM_COLUMNS; ++i) {
    GCOL_BENCH_CHECK(cudaMalloc(&c.device[i], c.column_bytes));
    gcol_bench_fill_random(c.device[i], c.column_bytes, 1700 + (uint64_t)i, c.stream);
  }
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  uint64_t before[2 * NUM_COLUMNS], after[2 * NUM_COLUMNS];
  sample(&c, before);

  gcol_bench_print_header();
  gcol_bench_result r;
  memset(&r, 0, sizeof r);
  r.bench = "spill_roundtrip";
  r.types = "int64";
  r.rows = (int64_t)(total / 8);
  r.peer = "cudaMemcpyAsync D2H+H2D pinned";
  r.gcol_ms = gcol_bench_time_ms(run_spill, &c, c.stream);
  r.peer_ms = gcol_bench_time_ms(run_copies, &c, c.stream);
  char note[160];
  snprintf(note, sizeof note, "%zu MiB each way in %d columns; gcol %.1f GB/s, peer %.1f GB/s",
           total >> 20, NUM_COLUMNS, 2.0 * (double)total / (r.gcol_ms * 1e6),
           2.0 * (double)total / (r.peer_ms * 1e6));
  gcol_bench_report_more(&r, 0, note);
  printf("# %s\n", note);

  sample(&c, after);
  if (memcmp(before, after, sizeof before) != 0) {
    fprintf(stderr, "spill_roundtrip: the columns changed across the round trips\n");
    return 1;
  }
  gcol_spill_statistics st;
  GCOL_BENCH_CHECK(gcol_spill_statistics_get(&st));
  printf("# spills %llu (%.1f GiB, %.3f s), unspills %llu (%.1f GiB, %.3f s)\n",
         (unsigned long long)st.spills, (double)st.spilled_bytes / (1 << 30), st.spill_seconds,
         (unsigned long long)st.unspills, (double)st.unspilled_bytes / (1 << 30),
         st.unspill_seconds);
  gcol_table_free(c.table);
  for (int i = 0; i < NUM_COLUMNS; ++i) GCOL_BENCH_CHECK(cudaFree(c.device[i]));
  GCOL_BENCH_CHECK(cudaFreeHost(c.pinned));
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  GCOL_BENCH_CHECK(gcol_spill_disable());
  return 0;
}
