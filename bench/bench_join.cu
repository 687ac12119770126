/*
 * Joins (issue 10), data as in shared/peers/README.md. Each timed call is gcol_join (build the
 * hash of the right keys, probe with the left keys, gather maps out), as libcudf's join calls
 * build and probe. libcudf's figures are references from the same kind of H200, not the same
 * run; the peer script (bench/peers) measures them in the same call when it is installed.
 *   inner/left/left_semi_join_i64_10Mx100M  build 10M unique int64 (0, 3, 6, ...), probe 100M
 *                                           uniform in [0, 30M)
 *   inner_join_i64_sparse_10Mx100M          the same keys through splitmix64's bijective mix:
 *                                           10M unique keys spread over 64 bits, so the build
 *                                           is a hash map of 2^25 slots (512 MiB, far beyond
 *                                           L2) rather than the direct layout; 1/3 match.
 *                                           gcol's choice (AUTO: radix partitions where
 *                                           radix_plan.h's rule says so; the note names it)
 *   inner_join_i64_sparse_10Mx100M_one_table  the same join forced through one table; its
 *                                           peer is the AUTO row
 *   inner_join_i64_sparse_10Mx100M_radix    the same join forced through radix partitions
 *   inner_join_i64_sparse_100Mx100M_one_table, _radix  100M unique build keys (a 4 GiB map)
 *                                           x 100M probe keys over 64 bits, each way
 *                                           (bits by the L2); its peer is the one-table row
 *   inner_join_i32_100Kx10M                 build 100K unique int32, probe 10M each matching once
 *   inner_join_i32_10Mx10M_dup              both sides 10M int32 uniform in [0, 10M)
 *   inner_join_str_1Mx10M                   build 1M unique strings of 8..24 bytes, probe 10M
 *                                           drawn from them
 *   inner_join_i64_dup10K                   build 1M rows = 100 keys x 10K duplicates, probe
 *                                           1M rows of those keys: 10^10 output rows, of which
 *                                           one batch of 2^28 is made (build, size, batch). Its
 *                                           peer is the unique-key join 100Kx10M scaled to
 *                                           the same output rows: the issue's "no cliff" asks
 *                                           for a ratio >= 0.5.
 *   sort_merge_join_i64_10Mx100M            the inner join above with the probe sorted first:
 *                                           gcol_sort_merge_join against gcol_join (hash) of
 *                                           the same sorted sides
 * Each row also records gcol's peak device memory for one call (statistics resource).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "gcol/join.h"
#include "gcol/sorting.h"

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
  int64_t batch; /* > 0: build, then only output rows [0, batch) of the probe */
  bool merge;    /* gcol_sort_merge_join (both sides sorted) instead of gcol_join */
  const gcol_join_options *options; /* hash joins: NULL for the defaults */
  cudaStream_t stream;
};

void create_hash(context *c, gcol_join_hash **h) {
  GCOL_BENCH_CHECK(gcol_join_hash_create_with_options(c->right, GCOL_NULLS_EQUAL, c->options, h,
                                                      (gcol_stream)c->stream));
}

void run_batch(context *c) {
  gcol_join_hash *h = NULL;
  gcol_column *l = NULL, *r = NULL;
  create_hash(c, &h);
  GCOL_BENCH_CHECK(
      gcol_join_hash_probe(h, c->left, c->kind, 0, c->batch, &l, &r, (gcol_stream)c->stream, NULL));
  gcol_column_free(l);
  gcol_column_free(r);
  gcol_join_hash_free(h);
}

void run_build(void *p) {
  context *c = (context *)p;
  gcol_join_hash *h = NULL;
  create_hash(c, &h);
  gcol_join_hash_free(h);
}

void run_gcol(void *p) {
  context *c = (context *)p;
  gcol_column *l = NULL, *r = NULL;
  if (c->batch > 0) {
    run_batch(c);
    return;
  }
  bool const pairs = c->kind != GCOL_JOIN_LEFT_SEMI && c->kind != GCOL_JOIN_LEFT_ANTI;
  if (c->merge) {
    GCOL_BENCH_CHECK(gcol_sort_merge_join(c->left, c->right, NULL, NULL, c->kind, GCOL_NULLS_EQUAL,
                                          &l, pairs ? &r : NULL, (gcol_stream)c->stream, NULL));
    gcol_column_free(l);
    gcol_column_free(r);
    return;
  }
  GCOL_BENCH_CHECK(gcol_join_with_options(c->left, c->right, c->kind, GCOL_NULLS_EQUAL, c->options,
                                          &l, pairs ? &r : NULL, (gcol_stream)c->stream, NULL));
  gcol_column_free(l);
  gcol_column_free(r);
}

/* keys[i] = splitmix64's finalizer of keys[i]: a bijection of 64-bit words, so unique keys
 * stay unique and equal ones equal, spread over the whole range. */
__global__ void scramble(int64_t *keys, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t z = (uint64_t)keys[i] + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    keys[i] = (int64_t)(z ^ (z >> 31));
  }
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

const char *const LIBCUDF = "libcudf 26.10 H200 2026-11-23 (reference, not same run)";

/* Times one join; returns gcol's milliseconds. `key_bytes`: bytes of a key row. */
double report(const char *name, const char *types, context *c, int64_t out_rows, double peer_ms,
              const char *peer, double key_bytes) {
  gcol_bench_result r = {};
  r.bench = name;
  r.types = types;
  r.rows = c->left.num_rows;
  r.peer = peer;
  r.gcol_ms = gcol_bench_time_ms(run_gcol, c, (gcol_stream)c->stream);
  r.peer_ms = peer_ms;
  r.bytes = (double)(c->left.num_rows + c->right.num_rows) * key_bytes + (double)out_rows * 8.0;
  char note[64];
  snprintf(note, sizeof note, "of which the build %.4f ms",
           gcol_bench_time_ms(run_build, c, (gcol_stream)c->stream));
  gcol_bench_report_more(&r, gcol_bench_peak_bytes(run_gcol, c, (gcol_stream)c->stream), note);
  fprintf(stderr, "  %s: %s\n", name, note);
  return r.gcol_ms;
}

/* Output rows of one join (for the bytes column). */
int64_t output_rows(context *c) {
  gcol_join_hash *h = NULL;
  int64_t n = 0;
  create_hash(c, &h);
  GCOL_BENCH_CHECK(gcol_join_hash_probe_size(h, c->left, c->kind, &n, (gcol_stream)c->stream));
  gcol_join_hash_free(h);
  return c->batch > 0 && c->batch < n ? c->batch : n;
}

/* The join of c forced through one table (peer: peer_ms) and then through radix partitions
 * (peer: the one-table time), rows NAME_one_table and NAME_radix. */
void one_table_and_radix(context *c, const char *name, const char *types, int64_t out_rows,
                         double peer_ms, const char *peer) {
  gcol_join_options one_table = {}, radix = {};
  one_table.algorithm = GCOL_JOIN_ALGORITHM_ONE_TABLE;
  radix.algorithm = GCOL_JOIN_ALGORITHM_RADIX;
  char bench[96], what[128];
  snprintf(bench, sizeof bench, "%s_one_table", name);
  snprintf(what, sizeof what, "%s, keys over 64 bits, one table", types);
  c->options = &one_table;
  double const one_table_ms = report(bench, what, c, out_rows, peer_ms, peer, 8);
  snprintf(bench, sizeof bench, "%s_radix", name);
  snprintf(what, sizeof what, "%s, keys over 64 bits, radix partitions", types);
  c->options = &radix;
  report(bench, what, c, out_rows, one_table_ms, "gcol one table (forced), same run", 8);
  c->options = NULL;
}

}  // namespace

int main(void) {
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  gcol_bench_print_header();
  context c = {};
  c.stream = stream;
  void *a = NULL, *b = NULL;
  double unique_ms = 0;
  int64_t unique_rows = 1;
  gcol_column_view ra, lb;
  {
    ra = make_keys<int64_t>(10000000, true, 3, 0, stream, &a);
    lb = make_keys<int64_t>(100000000, false, 30000000, 101, stream, &b);
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    c.kind = GCOL_JOIN_INNER;
    report("inner_join_i64_10Mx100M", "int64 10M unique x 100M", &c, output_rows(&c), 7.89, LIBCUDF,
           8);
    c.kind = GCOL_JOIN_LEFT;
    report("left_join_i64_10Mx100M", "int64 10M unique x 100M", &c, output_rows(&c), 8.16, LIBCUDF,
           8);
    c.kind = GCOL_JOIN_LEFT_SEMI;
    report("left_semi_join_i64_10Mx100M", "int64 10M unique x 100M", &c, output_rows(&c), 4.79,
           LIBCUDF, 8);
    /* the same join on sorted sides (the build keys are sorted already): sort-merge against
     * the hash join of the same sorted data */
    gcol_table *sorted_probe = NULL;
    GCOL_BENCH_CHECK(gcol_sort(c.left, NULL, NULL, &sorted_probe, (gcol_stream)stream, NULL));
    c.left = gcol_table_get_view(sorted_probe);
    c.kind = GCOL_JOIN_INNER;
    double const hash_sorted = gcol_bench_time_ms(run_gcol, &c, (gcol_stream)stream);
    c.merge = true;
    report("sort_merge_join_i64_10Mx100M", "int64 10M unique x 100M, both sorted", &c,
           output_rows(&c), hash_sorted, "gcol_join on the same sorted sides", 8);
    c.merge = false;
    gcol_table_free(sorted_probe);
    /* the same keys scrambled: a hash map beyond L2 instead of the direct layout */
    scramble<<<4096, 256, 0, stream>>>((int64_t *)a, ra.size);
    scramble<<<4096, 256, 0, stream>>>((int64_t *)b, lb.size);
    GCOL_BENCH_CHECK(cudaGetLastError());
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    int64_t const sparse_rows = output_rows(&c);
    double const auto_ms =
        report("inner_join_i64_sparse_10Mx100M", "int64 10M unique x 100M, keys over 64 bits", &c,
               sparse_rows, 0, "libcudf_peer.py joins (same keys)", 8);
    {
      gcol_join_hash *h = NULL;
      create_hash(&c, &h);
      fprintf(stderr,
              "  inner_join_i64_sparse_10Mx100M: AUTO probes in %d radix partitions"
              " (0: one table)\n",
              (int)gcol_join_hash_probe_partitions(h, lb.size));
      gcol_join_hash_free(h);
    }
    one_table_and_radix(&c, "inner_join_i64_sparse_10Mx100M", "int64 10M unique x 100M", sparse_rows,
                        auto_ms, "gcol AUTO (the row above), same run");
    GCOL_BENCH_CHECK(cudaFree(a));
    GCOL_BENCH_CHECK(cudaFree(b));
    /* a map of 2^28 slots (4 GiB, ~70x the L2): one table against radix partitions where
     * the map is far larger still */
    ra = make_keys<int64_t>(100000000, true, 3, 0, stream, &a);
    lb = make_keys<int64_t>(100000000, false, 300000000, 105, stream, &b);
    scramble<<<4096, 256, 0, stream>>>((int64_t *)a, ra.size);
    scramble<<<4096, 256, 0, stream>>>((int64_t *)b, lb.size);
    GCOL_BENCH_CHECK(cudaGetLastError());
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    one_table_and_radix(&c, "inner_join_i64_sparse_100Mx100M", "int64 100M unique x 100M",
                        output_rows(&c), 0, "-");
    GCOL_BENCH_CHECK(cudaFree(a));
    GCOL_BENCH_CHECK(cudaFree(b));
  }
  {
    ra = make_keys<int32_t>(100000, true, 1, 0, stream, &a);
    lb = make_keys<int32_t>(10000000, false, 100000, 102, stream, &b);
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    c.kind = GCOL_JOIN_INNER;
    unique_rows = output_rows(&c);
    unique_ms = report("inner_join_i32_100Kx10M", "int32 100K unique x 10M", &c, unique_rows, 0.80,
                       LIBCUDF, 4);
    GCOL_BENCH_CHECK(cudaFree(a));
    GCOL_BENCH_CHECK(cudaFree(b));
  }
  {
    ra = make_keys<int32_t>(10000000, false, 10000000, 103, stream, &a);
    lb = make_keys<int32_t>(10000000, false, 10000000, 104, stream, &b);
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    c.kind = GCOL_JOIN_INNER;
    report("inner_join_i32_10Mx10M_dup", "int32 10M x 10M in [0, 10M)", &c, output_rows(&c), 2.61,
           LIBCUDF, 4);
    GCOL_BENCH_CHECK(cudaFree(a));
    GCOL_BENCH_CHECK(cudaFree(b));
  }
  {
    /* strings: keys 0..1M-1 on the build side, 10M draws on the probe side */
    void *build = NULL, *probe = NULL;
    (void)make_keys<int64_t>(1000000, true, 1, 0, stream, &build);
    (void)make_keys<int64_t>(10000000, false, 1000000, 105, stream, &probe);
    gcol_bench_strings bs, ps;
    gcol_bench_strings_make((const int64_t *)build, 1000000, (gcol_stream)stream, &bs);
    gcol_bench_strings_make((const int64_t *)probe, 10000000, (gcol_stream)stream, &ps);
    GCOL_BENCH_CHECK(gcol_table_view_make(&bs.view, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&ps.view, 1, &c.left));
    c.kind = GCOL_JOIN_INNER;
    report("inner_join_str_1Mx10M", "string 8..24 B, 1M unique x 10M", &c, output_rows(&c), 3.17,
           LIBCUDF, 20);
    gcol_bench_strings_free(&bs);
    gcol_bench_strings_free(&ps);
    GCOL_BENCH_CHECK(cudaFree(build));
    GCOL_BENCH_CHECK(cudaFree(probe));
  }
  {
    /* 100 keys x 10K duplicates on both sides: one batch of 2^28 of the 10^10 rows */
    ra = make_keys<int64_t>(1000000, false, 100, 106, stream, &a);
    lb = make_keys<int64_t>(1000000, false, 100, 107, stream, &b);
    GCOL_BENCH_CHECK(gcol_table_view_make(&ra, 1, &c.right));
    GCOL_BENCH_CHECK(gcol_table_view_make(&lb, 1, &c.left));
    c.kind = GCOL_JOIN_INNER;
    c.batch = (int64_t)1 << 28;
    report("inner_join_i64_dup10K", "int64 100 keys x 10K dups, batch 2^28", &c, c.batch,
           unique_ms / (double)unique_rows * (double)c.batch,
           "gcol inner_join_i32_100Kx10M per output row", 8);
    c.batch = 0;
    GCOL_BENCH_CHECK(cudaFree(a));
    GCOL_BENCH_CHECK(cudaFree(b));
  }
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
