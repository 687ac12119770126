/*
 * Copying benchmarks (issue 4), each against its peer in the same run on the same data:
 *
 *   gather_i64_random          int64, 2^26 rows, random int32 indices; peer: a plain one-line
 *                              gather kernel (goal ratio >= 0.90)
 *   gather_i64_random_nullify  the same under GCOL_OUT_OF_BOUNDS_NULLIFY (builds a mask and
 *                              counts its nulls: one synchronization); same peer
 *   concatenate_i64            8 columns of 2^24 int64 into one; peer: one cudaMemcpyAsync of
 *                              the same bytes (goal >= 0.80)
 *   gather_strings             2^24 strings of random length 0..32, random int32 indices;
 *                              peer: the plain gather of 2^24 int64; also prints chars GB/s
 *   gather_strings_8_32        the same with lengths 8..32 (libcudf_peer.py's data)
 *
 * gcol and its peer get the same inputs: an INT32 map, GCOL_OUT_OF_BOUNDS_DONT_CHECK and
 * GCOL_NEGATIVE_INDEX_NOT_ALLOWED, so gcol_gather launches exactly one kernel (the peer's
 * loop behind a uniform switch on the index type) after one pool allocation of its output;
 * concatenate without nulls is one cudaMemcpyAsync per input, no kernel, no synchronization.
 *
 * Usage: bench_copying [scale_shift]  (a positive shift divides every size by 2^shift, for
 * quick runs). GCOL_BENCH_REPS and GCOL_BENCH_JSON as in bench_util.h.
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "bench_util.h"
#include "gcol/copying.h"

static __global__ void plain_gather_kernel(const int64_t *__restrict__ src,
                                           const int32_t *__restrict__ idx,
                                           int64_t *__restrict__ dst, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    dst[i] = src[idx[i]];
  }
}

static __global__ void indices_mod_kernel(int32_t *idx, int64_t n, int64_t bound) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    idx[i] = (int32_t)((uint32_t)idx[i] % (uint64_t)bound);
  }
}

static unsigned int grid_for(int64_t n) {
  int64_t blocks = (n + 255) / 256;
  return (unsigned int)(blocks > (1 << 20) ? (1 << 20) : (blocks < 1 ? 1 : blocks));
}

/* A device INT32 column of n random indices into [0, bound). */
static gcol_column *random_indices(int64_t n, int64_t bound, uint64_t seed, gcol_stream stream) {
  gcol_column *col = NULL;
  GCOL_BENCH_CHECK(gcol_column_create(gcol_data_type_make(GCOL_INT32), n, GCOL_MASK_UNALLOCATED,
                                      stream, NULL, &col));
  gcol_bench_fill_random(col->data->data, (size_t)n * 4, seed, stream);
  indices_mod_kernel<<<grid_for(n), 256, 0, (cudaStream_t)stream>>>((int32_t *)col->data->data, n,
                                                                    bound);
  GCOL_BENCH_CHECK(cudaGetLastError());
  return col;
}

static gcol_column *random_int64(int64_t n, uint64_t seed, gcol_stream stream) {
  gcol_column *col = NULL;
  GCOL_BENCH_CHECK(gcol_column_create(gcol_data_type_make(GCOL_INT64), n, GCOL_MASK_UNALLOCATED,
                                      stream, NULL, &col));
  gcol_bench_fill_random(col->data->data, (size_t)n * 8, seed, stream);
  return col;
}

/* ------------------------------------------------------------------ gather */

typedef struct gather_ctx {
  gcol_table_view table;
  gcol_column_view map;
  gcol_out_of_bounds_policy policy;
  const int64_t *src;
  const int32_t *idx;
  int64_t *dst;
  int64_t n;
  gcol_stream stream;
} gather_ctx;

static void run_gcol_gather(void *p) {
  gather_ctx *c = (gather_ctx *)p;
  gcol_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_gather(c->table, c->map, c->policy, GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &out,
                               c->stream, NULL));
  gcol_table_free(out);
}

static void run_plain_gather(void *p) {
  gather_ctx *c = (gather_ctx *)p;
  plain_gather_kernel<<<grid_for(c->n), 256, 0, (cudaStream_t)c->stream>>>(c->src, c->idx, c->dst,
                                                                           c->n);
}

static void bench_gather_i64(int64_t n, gcol_stream stream) {
  gcol_column *src = random_int64(n, 11, stream);
  gcol_column *map = random_indices(n, n, 12, stream);
  gcol_column *dst = random_int64(n, 13, stream);
  gcol_column_view const sv = gcol_column_get_view(src);
  gather_ctx c;
  GCOL_BENCH_CHECK(gcol_table_view_make(&sv, 1, &c.table));
  c.map = gcol_column_get_view(map);
  c.src = (const int64_t *)src->data->data;
  c.idx = (const int32_t *)map->data->data;
  c.dst = (int64_t *)dst->data->data;
  c.n = n;
  c.stream = stream;
  double const peer_ms = gcol_bench_time_ms(run_plain_gather, &c, stream);
  gcol_out_of_bounds_policy const policies[2] = {GCOL_OUT_OF_BOUNDS_DONT_CHECK,
                                                 GCOL_OUT_OF_BOUNDS_NULLIFY};
  const char *const names[2] = {"gather_i64_random", "gather_i64_random_nullify"};
  for (int p = 0; p < 2; ++p) {
    c.policy = policies[p];
    gcol_bench_result r;
    r.bench = names[p];
    r.types = "int64 by int32";
    r.rows = n;
    r.peer = "plain gather kernel";
    r.gcol_ms = gcol_bench_time_ms(run_gcol_gather, &c, stream);
    r.peer_ms = peer_ms;
    r.bytes = (double)n * (8 + 4 + 8);
    gcol_bench_report(&r);
  }
  gcol_column_free(src);
  gcol_column_free(map);
  gcol_column_free(dst);
}

/* ------------------------------------------------------------------ concatenate */

typedef struct concat_ctx {
  gcol_column_view views[8];
  const void *flat;
  void *dst;
  size_t bytes;
  gcol_stream stream;
} concat_ctx;

static void run_gcol_concat(void *p) {
  concat_ctx *c = (concat_ctx *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_concatenate(c->views, 8, &out, c->stream, NULL));
  gcol_column_free(out);
}

static void run_memcpy(void *p) {
  concat_ctx *c = (concat_ctx *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->dst, c->flat, c->bytes, cudaMemcpyDeviceToDevice,
                                   (cudaStream_t)c->stream));
}

static void bench_concatenate_i64(int64_t per_column, gcol_stream stream) {
  gcol_column *cols[8];
  concat_ctx c;
  for (int j = 0; j < 8; ++j) {
    cols[j] = random_int64(per_column, 100 + (uint64_t)j, stream);
    c.views[j] = gcol_column_get_view(cols[j]);
  }
  gcol_column *flat = random_int64(per_column * 8, 21, stream);
  gcol_column *dst = random_int64(per_column * 8, 22, stream);
  c.flat = flat->data->data;
  c.dst = dst->data->data;
  c.bytes = (size_t)per_column * 8 * 8;
  c.stream = stream;
  gcol_bench_result r;
  r.bench = "concatenate_i64";
  r.types = "8 x int64";
  r.rows = per_column * 8;
  r.peer = "cudaMemcpyAsync same bytes";
  r.gcol_ms = gcol_bench_time_ms(run_gcol_concat, &c, stream);
  r.peer_ms = gcol_bench_time_ms(run_memcpy, &c, stream);
  r.bytes = 2.0 * (double)c.bytes;
  gcol_bench_report(&r);
  for (int j = 0; j < 8; ++j) gcol_column_free(cols[j]);
  gcol_column_free(flat);
  gcol_column_free(dst);
}

/* ------------------------------------------------------------------ gather strings */

/* A strings column of n rows of random length lo..hi (random bytes). */
static gcol_column *random_strings(int64_t n, int32_t lo, int32_t hi, gcol_stream stream,
                                   int64_t *total_chars) {
  int32_t *offsets = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1));
  uint64_t state = 0x9E3779B97F4A7C15ull;
  offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    offsets[i + 1] = offsets[i] + lo + (int32_t)(state % (uint64_t)(hi - lo + 1));
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

static void bench_gather_strings(const char *name, int64_t n, int32_t lo, int32_t hi,
                                 gcol_stream stream) {
  int64_t total_chars = 0;
  gcol_column *strings = random_strings(n, lo, hi, stream, &total_chars);
  gcol_column *map = random_indices(n, n, 32, stream);
  gcol_column *src64 = random_int64(n, 33, stream);
  gcol_column *dst64 = random_int64(n, 34, stream);
  gcol_column_view const sv = gcol_column_get_view(strings);
  gather_ctx c;
  GCOL_BENCH_CHECK(gcol_table_view_make(&sv, 1, &c.table));
  c.map = gcol_column_get_view(map);
  c.policy = GCOL_OUT_OF_BOUNDS_DONT_CHECK;
  c.src = (const int64_t *)src64->data->data;
  c.idx = (const int32_t *)map->data->data;
  c.dst = (int64_t *)dst64->data->data;
  c.n = n;
  c.stream = stream;
  gcol_bench_result r;
  char types[48];
  snprintf(types, sizeof types, "string[%d..%d] by int32", (int)lo, (int)hi);
  r.bench = name;
  r.types = types;
  r.rows = n;
  r.peer = "plain gather of int64";
  r.gcol_ms = gcol_bench_time_ms(run_gcol_gather, &c, stream);
  r.peer_ms = gcol_bench_time_ms(run_plain_gather, &c, stream);
  /* Map once, source offsets twice (start and end), chars read and written (the gathered
   * chars have the same expected size as the source's), output offsets once. */
  r.bytes = (double)n * (4 + 8 + 4) + 2.0 * (double)total_chars;
  gcol_bench_report(&r);
  printf("%s chars: %.1f GB/s (%.3f GB of chars read + written in %.4f ms)\n", name,
         2.0 * (double)total_chars / (r.gcol_ms * 1e-3) / 1e9, 2.0 * (double)total_chars / 1e9,
         r.gcol_ms);
  gcol_column_free(strings);
  gcol_column_free(map);
  gcol_column_free(src64);
  gcol_column_free(dst64);
}

int main(int argc, char **argv) {
  int const shift = argc > 1 ? atoi(argv[1]) : 0;
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  gcol_stream const s = (gcol_stream)stream;
  gcol_bench_print_header();
  bench_gather_i64((int64_t)1 << (26 - shift), s);
  bench_concatenate_i64((int64_t)1 << (24 - shift), s);
  bench_gather_strings("gather_strings", (int64_t)1 << (24 - shift), 0, 32, s);
  /* libcudf's reference data (shared/peers: 8..32 bytes) */
  bench_gather_strings("gather_strings_8_32", (int64_t)1 << (24 - shift), 8, 32, s);
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
