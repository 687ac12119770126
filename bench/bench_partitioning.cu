/*
 * Partitioning and row hashing benchmarks, each against its peer in the same run on the same
 * data:
 *
 *   hash_partition_i64_256   2^27 rows (int64 key + int64 payload) into 256 partitions by
 *                            MurmurHash3 of the key; peer: one cudaMemcpyAsync of the same
 *                            bytes (2 x 8 bytes a row; goal ratio >= 0.33)
 *   hash_murmur3_i64         gcol_hash of 2^27 int64 (UINT32 out); peer: a copy of the
 *                            input bytes
 *
 * Usage: bench_partitioning [scale_shift]  (a positive shift divides every size by 2^shift).
 * GCOL_BENCH_REPS and GCOL_BENCH_JSON as in bench_util.h.
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "bench_util.h"
#include "gcol/hashing.h"
#include "gcol/partitioning.h"

static gcol_column *random_int64(int64_t n, uint64_t seed, gcol_stream stream) {
  gcol_column *col = NULL;
  GCOL_BENCH_CHECK(gcol_column_create(gcol_data_type_make(GCOL_INT64), n, GCOL_MASK_UNALLOCATED,
                                      stream, NULL, &col));
  gcol_bench_fill_random(col->data->data, (size_t)n * 8, seed, stream);
  return col;
}

typedef struct bench_ctx {
  gcol_table_view table;
  int64_t *offsets;
  const void *src;
  void *dst;
  size_t bytes;
  gcol_stream stream;
} bench_ctx;

static void run_hash_partition(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  gcol_table *out = NULL;
  int32_t const key = 0;
  GCOL_BENCH_CHECK(gcol_hash_partition(c->table, &key, 1, 256, GCOL_HASH_MURMUR3_32, 0, &out,
                                       c->offsets, c->stream, NULL));
  gcol_table_free(out);
}

static void run_hash(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_hash(c->table, GCOL_HASH_MURMUR3_32, 0, &out, c->stream, NULL));
  gcol_column_free(out);
}

static void run_copy(void *p) {
  bench_ctx *c = (bench_ctx *)p;
  GCOL_BENCH_CHECK(
      cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, (cudaStream_t)c->stream));
}

static void bench_hash_partition(int64_t n, gcol_stream stream) {
  gcol_column *key = random_int64(n, 31, stream);
  gcol_column *payload = random_int64(n, 32, stream);
  gcol_column *flat = random_int64(2 * n, 33, stream);
  gcol_column *dst = random_int64(2 * n, 34, stream);
  gcol_column_view const views[2] = {gcol_column_get_view(key), gcol_column_get_view(payload)};
  int64_t offsets[257];
  bench_ctx c;
  GCOL_BENCH_CHECK(gcol_table_view_make(views, 2, &c.table));
  c.offsets = offsets;
  c.src = flat->data->data;
  c.dst = dst->data->data;
  c.bytes = (size_t)n * 16;
  c.stream = stream;
  gcol_bench_result r;
  r.bench = "hash_partition_i64_256";
  r.types = "int64 key + int64 payload";
  r.rows = n;
  r.peer = "copy of the same bytes";
  r.gcol_ms = gcol_bench_time_ms(run_hash_partition, &c, stream);
  r.peer_ms = gcol_bench_time_ms(run_copy, &c, stream);
  r.bytes = (double)n * 32; /* read 16 bytes a row, write 16 */
  gcol_bench_report(&r);
  gcol_column_free(key);
  gcol_column_free(payload);
  gcol_column_free(flat);
  gcol_column_free(dst);
}

static void bench_hash_murmur3(int64_t n, gcol_stream stream) {
  gcol_column *key = random_int64(n, 41, stream);
  gcol_column *dst = random_int64(n, 42, stream);
  gcol_column_view const view = gcol_column_get_view(key);
  bench_ctx c;
  GCOL_BENCH_CHECK(gcol_table_view_make(&view, 1, &c.table));
  c.offsets = NULL;
  c.src = key->data->data;
  c.dst = dst->data->data;
  c.bytes = (size_t)n * 8;
  c.stream = stream;
  gcol_bench_result r;
  r.bench = "hash_murmur3_i64";
  r.types = "int64";
  r.rows = n;
  r.peer = "copy of the input bytes";
  r.gcol_ms = gcol_bench_time_ms(run_hash, &c, stream);
  r.peer_ms = gcol_bench_time_ms(run_copy, &c, stream);
  r.bytes = (double)n * 12; /* read 8 bytes a row, write 4 */
  gcol_bench_report(&r);
  gcol_column_free(key);
  gcol_column_free(dst);
}

int main(int argc, char **argv) {
  int const shift = argc > 1 ? atoi(argv[1]) : 0;
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  gcol_stream const s = (gcol_stream)stream;
  gcol_bench_print_header();
  bench_hash_partition((int64_t)1 << (27 - shift), s);
  bench_hash_murmur3((int64_t)1 << (27 - shift), s);
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
