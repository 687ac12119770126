/*
 * Sorting and searching benchmarks (issue 5), each against its peer in the same run:
 *   sort_by_key_i32      int32 keys + int32 payload, 2^27  vs cub SortPairs(u32 flipped, u32)
 *   sorted_order_i64     int64 keys, 2^27, index output    vs cub SortPairs(u64, i32 iota)
 *   sorted_order_i64_general  the same keys by the general path (the split sort off)
 *                        vs cub SortPairs(u64, i32 iota): the path before the split sort
 *   sorted_order_i64_narrow   int64 keys in [0, 2^30), 2^27 vs the general path
 *   sorted_order_i64_half_shared  half the keys in one hi word (one run of 2^26 rows for
 *                        the fix-up's long-run sort), 2^27 vs the general path
 *   sorted_order_f64_desc     float64 keys (random bits: NaNs too), descending, 2^27
 *                        vs the general path
 *   sorted_order_i32_i64 (int32, int64) keys, 2^27         vs gcol sorted_order_i64
 *   sort_strings         2^24 ASCII strings of 8..32 bytes vs cub SortPairs(u64 prefix, u32)
 *   sort_strings_common_prefix  2^24 strings: a shared 16-byte prefix, then 8..24 ASCII
 *                        bytes (issue 12); libcudf's figure from bench/peers/libcudf_peer.py
 *   lower_bound_i64      2^24 needles, sorted 2^27 haystack vs a plain binary-search kernel
 * GCOL_BENCH_SCALE=k divides the row counts by 2^k (quick runs on small GPUs).
 */
#include <cuda_runtime.h>
#include <stdlib.h>

#include <cub/device/device_radix_sort.cuh>

#include "bench_util.h"

/* kernels/sort/sort_internal.h (libgcol.a): the fewest rows of the split sort of one 64-bit
 * key; INT64_MAX turns it off (the general path), for the rows that compare the two. */
extern "C" int64_t gcol_detail_set_split_sort_min_rows(int64_t rows);

static int64_t scaled(int log2_rows) {
  const char *env = getenv("GCOL_BENCH_SCALE");
  int const shift = env != NULL ? atoi(env) : 0;
  return (int64_t)1 << (log2_rows - shift);
}

static __global__ void flip_i32_kernel(const int32_t *in, uint32_t *out, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    out[i] = (uint32_t)in[i] ^ 0x80000000u;
  }
}

static __global__ void iota_i32_kernel(int32_t *out, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    out[i] = (int32_t)i;
  }
}

/* ---- peers: CUB radix sort pairs with preallocated buffers ---- */

template <typename K>
struct cub_pairs_ctx {
  const K *keys_in;
  K *keys_out;
  const int32_t *values_in;
  int32_t *values_out;
  void *temp;
  size_t temp_bytes;
  int n;
  cudaStream_t stream;
};

template <typename K>
static void run_cub_pairs(void *p) {
  cub_pairs_ctx<K> *c = (cub_pairs_ctx<K> *)p;
  GCOL_BENCH_CHECK(cub::DeviceRadixSort::SortPairs(c->temp, c->temp_bytes, c->keys_in, c->keys_out,
                                                   c->values_in, c->values_out, c->n, 0,
                                                   (int)sizeof(K) * 8, c->stream));
}

template <typename K>
static double time_cub_pairs(const K *keys, const int32_t *values, int64_t n, cudaStream_t s) {
  cub_pairs_ctx<K> c;
  c.keys_in = keys;
  c.values_in = values;
  c.n = (int)n;
  c.stream = s;
  c.temp = NULL;
  c.temp_bytes = 0;
  GCOL_BENCH_CHECK(cudaMalloc(&c.keys_out, sizeof(K) * (size_t)n));
  GCOL_BENCH_CHECK(cudaMalloc(&c.values_out, sizeof(int32_t) * (size_t)n));
  GCOL_BENCH_CHECK(cub::DeviceRadixSort::SortPairs(NULL, c.temp_bytes, c.keys_in, c.keys_out,
                                                   c.values_in, c.values_out, c.n, 0,
                                                   (int)sizeof(K) * 8, s));
  GCOL_BENCH_CHECK(cudaMalloc(&c.temp, c.temp_bytes));
  double const ms = gcol_bench_time_ms(run_cub_pairs<K>, &c, (gcol_stream)s);
  GCOL_BENCH_CHECK(cudaFree(c.keys_out));
  GCOL_BENCH_CHECK(cudaFree(c.values_out));
  GCOL_BENCH_CHECK(cudaFree(c.temp));
  return ms;
}

/* ---- gcol runs ---- */

typedef struct order_ctx {
  gcol_table_view keys;
  gcol_stream stream;
} order_ctx;

static void run_sorted_order(void *p) {
  order_ctx *c = (order_ctx *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_sorted_order(c->keys, NULL, NULL, &out, c->stream, NULL));
  gcol_column_free(out);
}

typedef struct by_order_ctx {
  gcol_table_view keys;
  gcol_order order;
  gcol_stream stream;
} by_order_ctx;

static void run_sorted_order_by(void *p) {
  by_order_ctx *c = (by_order_ctx *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_stable_sorted_order(c->keys, &c->order, NULL, &out, c->stream, NULL));
  gcol_column_free(out);
}

typedef struct by_key_ctx {
  gcol_table_view values, keys;
  gcol_stream stream;
} by_key_ctx;

static void run_sort_by_key(void *p) {
  by_key_ctx *c = (by_key_ctx *)p;
  gcol_table *out = NULL;
  GCOL_BENCH_CHECK(gcol_sort_by_key(c->values, c->keys, NULL, NULL, &out, c->stream, NULL));
  gcol_table_free(out);
}

static gcol_column *random_column(gcol_type_id id, int64_t n, uint64_t seed, gcol_stream s) {
  gcol_column *col = NULL;
  GCOL_BENCH_CHECK(
      gcol_column_create(gcol_data_type_make(id), n, GCOL_MASK_UNALLOCATED, s, NULL, &col));
  gcol_bench_fill_random(col->data->data, gcol_type_size(id) * (size_t)n, seed, s);
  return col;
}

static void bench_sort_by_key_i32(cudaStream_t s) {
  int64_t const n = scaled(27);
  gcol_column *keys = random_column(GCOL_INT32, n, 1, (gcol_stream)s);
  gcol_column *vals = random_column(GCOL_INT32, n, 2, (gcol_stream)s);
  gcol_column_view kv = gcol_column_get_view(keys), vv = gcol_column_get_view(vals);
  by_key_ctx c;
  uint32_t *flipped = NULL;
  GCOL_BENCH_CHECK(gcol_table_view_make(&kv, 1, &c.keys));
  GCOL_BENCH_CHECK(gcol_table_view_make(&vv, 1, &c.values));
  c.stream = (gcol_stream)s;
  GCOL_BENCH_CHECK(cudaMalloc(&flipped, sizeof(uint32_t) * (size_t)n));
  flip_i32_kernel<<<1024, 256, 0, s>>>((const int32_t *)kv.data, flipped, n);
  gcol_bench_result r = {
      "sort_by_key_i32", "int32 keys, int32 payload", n, 0, "cub SortPairs u32/u32", 0, 0};
  r.gcol_ms = gcol_bench_time_ms(run_sort_by_key, &c, (gcol_stream)s);
  r.peer_ms = time_cub_pairs<uint32_t>(flipped, (const int32_t *)vv.data, n, s);
  r.bytes = 12.0 * (double)n; /* keys and payload read, payload written */
  gcol_bench_report(&r);
  GCOL_BENCH_CHECK(cudaFree(flipped));
  gcol_column_free(keys);
  gcol_column_free(vals);
}

/* gcol's sorted order of keys64 (split sort on, or off: the general path) against CUB's
 * SortPairs of the same words; returns gcol's time. */
static double bench_sorted_order_vs_cub(cudaStream_t s, gcol_column *keys64, const char *bench,
                                        bool split) {
  int64_t const n = keys64->size;
  gcol_column_view kv = gcol_column_get_view(keys64);
  order_ctx c;
  int32_t *iota = NULL;
  uint64_t *flipped = NULL;
  GCOL_BENCH_CHECK(gcol_table_view_make(&kv, 1, &c.keys));
  c.stream = (gcol_stream)s;
  GCOL_BENCH_CHECK(cudaMalloc(&iota, sizeof(int32_t) * (size_t)n));
  iota_i32_kernel<<<1024, 256, 0, s>>>(iota, n);
  /* the peer sorts the same 64-bit words as uint64 (the same work as the signed order) */
  GCOL_BENCH_CHECK(cudaMalloc(&flipped, sizeof(uint64_t) * (size_t)n));
  GCOL_BENCH_CHECK(
      cudaMemcpyAsync(flipped, kv.data, sizeof(uint64_t) * (size_t)n, cudaMemcpyDeviceToDevice, s));
  gcol_bench_result r = {bench, "int64", n, 0, "cub SortPairs u64/i32", 0, 0};
  int64_t const min_rows = split ? 0 : gcol_detail_set_split_sort_min_rows(INT64_MAX);
  r.gcol_ms = gcol_bench_time_ms(run_sorted_order, &c, (gcol_stream)s);
  if (!split) gcol_detail_set_split_sort_min_rows(min_rows);
  r.peer_ms = time_cub_pairs<uint64_t>(flipped, iota, n, s);
  r.bytes = 12.0 * (double)n;
  gcol_bench_report(&r);
  GCOL_BENCH_CHECK(cudaFree(iota));
  GCOL_BENCH_CHECK(cudaFree(flipped));
  return r.gcol_ms;
}

/* Shapes of int64 keys from random bits: 1 = [0, 2^30), 2 = even rows in one hi word. */
static __global__ void shape_i64_kernel(int64_t *v, int64_t n, int shape) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t const x = (uint64_t)v[i];
    if (shape == 1) v[i] = (int64_t)(x & 0x3FFFFFFFull);
    if (shape == 2 && i % 2 == 0) v[i] = (int64_t)(0x12345678AB000000ull + x % 1000000u);
  }
}

/* One key sorted by the split sort (gcol) and by the general path (peer) on the same data. */
static void bench_split_vs_general(cudaStream_t s, const char *bench, const char *types,
                                   gcol_type_id id, int shape, gcol_order order) {
  int64_t const n = scaled(27);
  gcol_column *keys = random_column(id, n, 8 + (uint64_t)shape, (gcol_stream)s);
  gcol_column_view kv = gcol_column_get_view(keys);
  by_order_ctx c;
  if (shape != 0) {
    shape_i64_kernel<<<1024, 256, 0, s>>>((int64_t *)keys->data->data, n, shape);
  }
  GCOL_BENCH_CHECK(gcol_table_view_make(&kv, 1, &c.keys));
  c.order = order;
  c.stream = (gcol_stream)s;
  gcol_bench_result r = {bench, types, n, 0, "gcol general path (split sort off)", 0, 0};
  r.gcol_ms = gcol_bench_time_ms(run_sorted_order_by, &c, (gcol_stream)s);
  int64_t const min_rows = gcol_detail_set_split_sort_min_rows(INT64_MAX);
  r.peer_ms = gcol_bench_time_ms(run_sorted_order_by, &c, (gcol_stream)s);
  gcol_detail_set_split_sort_min_rows(min_rows);
  r.bytes = 12.0 * (double)n;
  gcol_bench_report(&r);
  gcol_column_free(keys);
}

static void bench_sorted_order_i32_i64(cudaStream_t s, gcol_column *keys64, double i64_ms) {
  int64_t const n = keys64->size;
  gcol_column *keys32 = random_column(GCOL_INT32, n, 4, (gcol_stream)s);
  gcol_column_view cols[2] = {gcol_column_get_view(keys32), gcol_column_get_view(keys64)};
  order_ctx c;
  GCOL_BENCH_CHECK(gcol_table_view_make(cols, 2, &c.keys));
  c.stream = (gcol_stream)s;
  gcol_bench_result r = {"sorted_order_i32_i64",  "int32, int64", n, 0,
                         "gcol sorted_order_i64", i64_ms,         0};
  r.gcol_ms = gcol_bench_time_ms(run_sorted_order, &c, (gcol_stream)s);
  r.bytes = 16.0 * (double)n;
  gcol_bench_report(&r);
  gcol_column_free(keys32);
}

/* ---- strings ---- */

static __global__ void ascii_kernel(unsigned char *chars, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    chars[i] = (unsigned char)(33 + chars[i] % 94); /* printable ASCII */
  }
}

static __global__ void prefix_kernel(const char *chars, const int32_t *offsets, uint64_t *keys,
                                     int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t w = 0;
    int32_t const b = offsets[i], len = offsets[i + 1] - b;
    for (int k = 0; k < 8; ++k) w = (w << 8) | (k < len ? (unsigned char)chars[b + k] : 0u);
    keys[i] = w;
  }
}

/* The first 16 bytes of every row become "0123456789abcdef" (rows have at least 16). */
static __global__ void common_prefix_kernel(char *chars, const int32_t *offsets, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    for (int k = 0; k < 16; ++k) chars[offsets[i] + k] = "0123456789abcdef"[k];
  }
}

/* 2^24 rows of 8..32 printable ASCII bytes, or with `common_prefix` a shared 16-byte prefix
 * followed by 8..24 random bytes (every row ties on the first 8 bytes: the comparison sort
 * of the ties does all the work). */
static void bench_sort_strings(cudaStream_t s, bool common_prefix) {
  int64_t const n = scaled(24);
  int32_t *offsets = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n + 1));
  uint64_t state = 12345;
  gcol_column *offs = NULL, *strings = NULL;
  gcol_buffer *chars = NULL;
  offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    offsets[i + 1] = offsets[i] + (common_prefix ? 24 + (int32_t)((state >> 33) % 17)
                                                 : 8 + (int32_t)((state >> 33) % 25));
  }
  GCOL_BENCH_CHECK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n + 1, offsets,
                                                NULL, (gcol_stream)s, NULL, &offs));
  GCOL_BENCH_CHECK(gcol_buffer_create((size_t)offsets[n], (gcol_stream)s, NULL, &chars));
  gcol_bench_fill_random(chars->data, (size_t)offsets[n], 5, (gcol_stream)s);
  ascii_kernel<<<1024, 256, 0, s>>>((unsigned char *)chars->data, offsets[n]);
  if (common_prefix) {
    common_prefix_kernel<<<1024, 256, 0, s>>>((char *)chars->data,
                                              (const int32_t *)offs->data->data, n);
  }
  GCOL_BENCH_CHECK(gcol_column_make_strings(n, offs, chars, NULL, 0, &strings));
  gcol_column_view sv = gcol_column_get_view(strings);
  order_ctx c;
  uint64_t *prefixes = NULL;
  int32_t *iota = NULL;
  GCOL_BENCH_CHECK(gcol_table_view_make(&sv, 1, &c.keys));
  c.stream = (gcol_stream)s;
  GCOL_BENCH_CHECK(cudaMalloc(&prefixes, sizeof(uint64_t) * (size_t)n));
  GCOL_BENCH_CHECK(cudaMalloc(&iota, sizeof(int32_t) * (size_t)n));
  prefix_kernel<<<1024, 256, 0, s>>>((const char *)sv.data, (const int32_t *)sv.children[0].data,
                                     prefixes, n);
  iota_i32_kernel<<<1024, 256, 0, s>>>(iota, n);
  gcol_bench_result r = {
      "sort_strings", "string 8..32 B ASCII", n, 0, "cub SortPairs u64 prefix/u32", 0, 0};
  if (common_prefix) {
    /* libcudf's figure comes from the peer script; the CUB prefix sort would be trivial */
    r.bench = "sort_strings_common_prefix";
    r.types = "string 16 B shared prefix + 8..24 B ASCII";
    r.peer = "none here (libcudf: peer script)";
  }
  r.gcol_ms = gcol_bench_time_ms(run_sorted_order, &c, (gcol_stream)s);
  if (!common_prefix) r.peer_ms = time_cub_pairs<uint64_t>(prefixes, iota, n, s);
  r.bytes = (double)offsets[n] + 4.0 * (double)(n + 1) + 4.0 * (double)n;
  gcol_bench_report(&r);
  GCOL_BENCH_CHECK(cudaFree(prefixes));
  GCOL_BENCH_CHECK(cudaFree(iota));
  gcol_column_free(strings);
  free(offsets);
}

/* ---- lower_bound ---- */

static __global__ void plain_lower_bound_kernel(const int64_t *hay, int64_t hay_rows,
                                                const int64_t *needles, int32_t *out, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    int64_t lo = 0, hi = hay_rows;
    int64_t const v = needles[i];
    while (lo < hi) {
      int64_t const mid = lo + (hi - lo) / 2;
      if (hay[mid] < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    out[i] = (int32_t)lo;
  }
}

typedef struct bound_ctx {
  gcol_table_view hay, needles;
  const int64_t *hay_data, *needle_data;
  int32_t *out;
  int64_t hay_rows, n;
  gcol_stream stream;
} bound_ctx;

static void run_lower_bound(void *p) {
  bound_ctx *c = (bound_ctx *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_lower_bound(c->hay, c->needles, NULL, NULL, &out, c->stream, NULL));
  gcol_column_free(out);
}

static void run_plain_lower_bound(void *p) {
  bound_ctx *c = (bound_ctx *)p;
  plain_lower_bound_kernel<<<(unsigned)((c->n + 255) / 256), 256, 0, (cudaStream_t)c->stream>>>(
      c->hay_data, c->hay_rows, c->needle_data, c->out, c->n);
}

static void bench_lower_bound_i64(cudaStream_t s) {
  int64_t const hn = scaled(27), nn = scaled(24);
  gcol_column *hay_raw = random_column(GCOL_INT64, hn, 6, (gcol_stream)s);
  gcol_column *needles = random_column(GCOL_INT64, nn, 7, (gcol_stream)s);
  gcol_column_view hv = gcol_column_get_view(hay_raw), nv = gcol_column_get_view(needles);
  gcol_table_view ht;
  gcol_table *sorted = NULL;
  bound_ctx c;
  GCOL_BENCH_CHECK(gcol_table_view_make(&hv, 1, &ht));
  GCOL_BENCH_CHECK(gcol_sort(ht, NULL, NULL, &sorted, (gcol_stream)s, NULL));
  c.hay = gcol_table_get_view(sorted);
  GCOL_BENCH_CHECK(gcol_table_view_make(&nv, 1, &c.needles));
  c.hay_data = (const int64_t *)c.hay.columns[0].data;
  c.needle_data = (const int64_t *)nv.data;
  c.hay_rows = hn;
  c.n = nn;
  c.stream = (gcol_stream)s;
  GCOL_BENCH_CHECK(cudaMalloc(&c.out, sizeof(int32_t) * (size_t)nn));
  gcol_bench_result r = {"lower_bound_i64", "int64", nn, 0, "plain binary-search kernel", 0, 0};
  r.gcol_ms = gcol_bench_time_ms(run_lower_bound, &c, (gcol_stream)s);
  r.peer_ms = gcol_bench_time_ms(run_plain_lower_bound, &c, (gcol_stream)s);
  r.bytes = 12.0 * (double)nn;
  gcol_bench_report(&r);
  GCOL_BENCH_CHECK(cudaFree(c.out));
  gcol_table_free(sorted);
  gcol_column_free(hay_raw);
  gcol_column_free(needles);
}

int main(void) {
  cudaStream_t s;
  cudaMemPool_t pool;
  uint64_t threshold = UINT64_MAX;
  int device = 0;
  GCOL_BENCH_CHECK(cudaStreamCreate(&s));
  /* keep freed memory in the async pool, as a caller's pool would (the peers preallocate) */
  GCOL_BENCH_CHECK(cudaGetDevice(&device));
  GCOL_BENCH_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  GCOL_BENCH_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  gcol_bench_print_header();
  bench_sort_by_key_i32(s);
  {
    gcol_column *keys64 = random_column(GCOL_INT64, scaled(27), 3, (gcol_stream)s);
    double const i64_ms = bench_sorted_order_vs_cub(s, keys64, "sorted_order_i64", true);
    /* the general path over the same keys (the split sort turned off) */
    bench_sorted_order_vs_cub(s, keys64, "sorted_order_i64_general", false);
    bench_sorted_order_i32_i64(s, keys64, i64_ms);
    gcol_column_free(keys64);
  }
  bench_split_vs_general(s, "sorted_order_i64_narrow", "int64 in [0, 2^30)", GCOL_INT64, 1,
                         GCOL_ORDER_ASCENDING);
  bench_split_vs_general(s, "sorted_order_i64_half_shared", "int64, half in one hi word",
                         GCOL_INT64, 2, GCOL_ORDER_ASCENDING);
  bench_split_vs_general(s, "sorted_order_f64_desc", "float64 descending", GCOL_FLOAT64, 0,
                         GCOL_ORDER_DESCENDING);
  bench_sort_strings(s, false);
  bench_sort_strings(s, true);
  bench_lower_bound_i64(s);
  GCOL_BENCH_CHECK(cudaStreamDestroy(s));
  return 0;
}
