/*
 * Pack benchmark, against its peer in the same run:
 *
 *   pack_table   2^26 rows of 4 columns: int64, int32 with random nulls (null count known),
 *                float64, strings of 8..32 random bytes (INT32 offsets); packed into one
 *                buffer. Peer: one cudaMemcpyAsync device-to-device of the same total bytes
 *                (goal ratio >= 0.70).
 *
 * gcol_pack reads the strings' first and last offsets (one small kernel, one
 * synchronization), then issues one cudaMemcpyAsync per large buffer (values, offsets,
 * chars) and one kernel for the null mask, into one allocation from the default resource.
 * Unpack is host-only (no device work) and is not timed here.
 *
 * Usage: bench_pack [scale_shift]  (a positive shift divides the rows by 2^shift).
 * GCOL_BENCH_REPS and GCOL_BENCH_JSON as in bench_util.h.
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "bench_util.h"
#include "gcol/pack.h"

static gcol_column *random_fixed(gcol_type_id id, int64_t n, uint64_t seed, gcol_stream stream) {
  gcol_column *col = NULL;
  GCOL_BENCH_CHECK(
      gcol_column_create(gcol_data_type_make(id), n, GCOL_MASK_UNALLOCATED, stream, NULL, &col));
  gcol_bench_fill_random(col->data->data, (size_t)n * gcol_type_size(id), seed, stream);
  return col;
}

/* An int32 column with random bits as its mask (about half null), its null count set. */
static gcol_column *random_nullable_int32(int64_t n, uint64_t seed, gcol_stream stream) {
  gcol_column *col = random_fixed(GCOL_INT32, n, seed, stream);
  gcol_buffer *mask = NULL;
  int64_t nulls = 0;
  GCOL_BENCH_CHECK(gcol_bitmask_create(n, GCOL_MASK_ALL_VALID, stream, NULL, &mask));
  gcol_bench_fill_random(mask->data, (size_t)gcol_bit_num_words(n) * 4, seed + 1, stream);
  GCOL_BENCH_CHECK(
      gcol_bitmask_count_unset_bits((const uint32_t *)mask->data, 0, n, stream, &nulls));
  GCOL_BENCH_CHECK(gcol_column_set_null_mask(col, mask, nulls));
  return col;
}

/* A strings column of n rows of 8..32 random bytes. */
static gcol_column *random_strings(int64_t n, gcol_stream stream, int64_t *total_chars) {
  int32_t *offsets = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1));
  uint64_t state = 0x9E3779B97F4A7C15ull;
  offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    offsets[i + 1] = offsets[i] + 8 + (int32_t)(state % 25);
  }
  *total_chars = offsets[n];
  gcol_column *offsets_col = NULL, *out = NULL;
  gcol_buffer *chars = NULL;
  GCOL_BENCH_CHECK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n + 1, offsets,
                                                NULL, stream, NULL, &offsets_col));
  GCOL_BENCH_CHECK(gcol_buffer_create((size_t)*total_chars, stream, NULL, &chars));
  gcol_bench_fill_random(chars->data, (size_t)*total_chars, 31, stream);
  GCOL_BENCH_CHECK(gcol_column_make_strings(n, offsets_col, chars, NULL, 0, &out));
  free(offsets);
  return out;
}

typedef struct pack_ctx {
  gcol_table_view table;
  void *src;
  void *dst;
  size_t bytes;
  gcol_stream stream;
} pack_ctx;

static void run_gcol_pack(void *p) {
  pack_ctx *c = (pack_ctx *)p;
  gcol_packed_table *packed = NULL;
  GCOL_BENCH_CHECK(gcol_pack(c->table, &packed, c->stream, NULL));
  gcol_packed_table_free(packed);
}

static void run_memcpy(void *p) {
  pack_ctx *c = (pack_ctx *)p;
  GCOL_BENCH_CHECK(
      cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, (cudaStream_t)c->stream));
}

static void bench_pack_table(int64_t n, gcol_stream stream) {
  int64_t total_chars = 0;
  gcol_column *cols[4];
  cols[0] = random_fixed(GCOL_INT64, n, 41, stream);
  cols[1] = random_nullable_int32(n, 42, stream);
  cols[2] = random_fixed(GCOL_FLOAT64, n, 43, stream);
  cols[3] = random_strings(n, stream, &total_chars);
  gcol_column_view views[4];
  for (int j = 0; j < 4; ++j) views[j] = gcol_column_get_view(cols[j]);
  pack_ctx c;
  GCOL_BENCH_CHECK(gcol_table_view_make(views, 4, &c.table));
  c.stream = stream;
  /* The packed size, as the peer's byte count. */
  gcol_packed_table *packed = NULL;
  GCOL_BENCH_CHECK(gcol_pack(c.table, &packed, stream, NULL));
  c.bytes = packed->data->size;
  gcol_packed_table_free(packed);
  GCOL_BENCH_CHECK(cudaMalloc(&c.src, c.bytes));
  GCOL_BENCH_CHECK(cudaMalloc(&c.dst, c.bytes));
  gcol_bench_fill_random(c.src, c.bytes, 44, stream);
  gcol_bench_result r;
  r.bench = "pack_table";
  r.types = "int64, int32 nullable, float64, string[8..32]";
  r.rows = n;
  r.peer = "copy of the same bytes";
  r.gcol_ms = gcol_bench_time_ms(run_gcol_pack, &c, stream);
  r.peer_ms = gcol_bench_time_ms(run_memcpy, &c, stream);
  r.bytes = 2.0 * (double)c.bytes; /* read once, written once */
  gcol_bench_report(&r);
  printf("pack_table: %.3f GB packed (%.3f GB of chars)\n", (double)c.bytes / 1e9,
         (double)total_chars / 1e9);
  GCOL_BENCH_CHECK(cudaFree(c.src));
  GCOL_BENCH_CHECK(cudaFree(c.dst));
  for (int j = 0; j < 4; ++j) gcol_column_free(cols[j]);
}

int main(int argc, char **argv) {
  int const shift = argc > 1 ? atoi(argv[1]) : 0;
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  gcol_stream const s = (gcol_stream)stream;
  gcol_bench_print_header();
  bench_pack_table((int64_t)1 << (26 - shift), s);
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
