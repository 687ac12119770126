/* Benchmark harness implementation: see bench_util.h. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "bench_util.h"

int gcol_bench_reps(void) {
  const char *env = getenv("GCOL_BENCH_REPS");
  int reps = env != NULL ? atoi(env) : 20;
  return reps < 10 ? 10 : reps;
}

/* Writes a buffer larger than the L2 so that inputs do not stay cached between runs. */
static void flush_l2(gcol_stream stream) {
  static void *scratch = NULL;
  static size_t scratch_bytes = 0;
  if (scratch == NULL) {
    int device = 0, l2 = 0;
    GCOL_BENCH_CHECK(cudaGetDevice(&device));
    GCOL_BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    scratch_bytes = (size_t)(l2 > 0 ? l2 : (64 << 20)) * 2;
    GCOL_BENCH_CHECK(cudaMalloc(&scratch, scratch_bytes));
  }
  GCOL_BENCH_CHECK(cudaMemsetAsync(scratch, 0x5a, scratch_bytes, (cudaStream_t)stream));
}

double gcol_bench_time_ms(void (*fn)(void *ctx), void *ctx, gcol_stream stream) {
  cudaStream_t const s = (cudaStream_t)stream;
  for (int i = 0; i < 3; ++i) fn(ctx);
  GCOL_BENCH_CHECK(cudaStreamSynchronize(s));
  int const reps = gcol_bench_reps();
  float *times = (float *)malloc(sizeof(float) * (size_t)reps);
  cudaEvent_t start, stop;
  GCOL_BENCH_CHECK(cudaEventCreate(&start));
  GCOL_BENCH_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < reps; ++i) {
    flush_l2(stream);
    GCOL_BENCH_CHECK(cudaEventRecord(start, s));
    fn(ctx);
    GCOL_BENCH_CHECK(cudaEventRecord(stop, s));
    GCOL_BENCH_CHECK(cudaEventSynchronize(stop));
    GCOL_BENCH_CHECK(cudaEventElapsedTime(&times[i], start, stop));
  }
  GCOL_BENCH_CHECK(cudaGetLastError());
  std::sort(times, times + reps);
  double const median =
      reps % 2 ? times[reps / 2] : 0.5 * ((double)times[reps / 2 - 1] + times[reps / 2]);
  free(times);
  GCOL_BENCH_CHECK(cudaEventDestroy(start));
  GCOL_BENCH_CHECK(cudaEventDestroy(stop));
  return median;
}

typedef struct copy_ctx {
  void *dst;
  const void *src;
  size_t bytes;
  cudaStream_t stream;
} copy_ctx;

static void run_copy(void *p) {
  copy_ctx *c = (copy_ctx *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, c->stream));
}

double gcol_bench_copy_bandwidth(gcol_stream stream) {
  static double bandwidth = 0;
  if (bandwidth > 0) return bandwidth;
  size_t const bytes = (size_t)1 << 30; /* 1 GiB each way */
  copy_ctx c;
  void *a = NULL, *b = NULL;
  GCOL_BENCH_CHECK(cudaMalloc(&a, bytes));
  GCOL_BENCH_CHECK(cudaMalloc(&b, bytes));
  gcol_bench_fill_random(a, bytes, 7, stream);
  c.dst = b;
  c.src = a;
  c.bytes = bytes;
  c.stream = (cudaStream_t)stream;
  double const ms = gcol_bench_time_ms(run_copy, &c, stream);
  bandwidth = 2.0 * (double)bytes / (ms * 1e-3);
  GCOL_BENCH_CHECK(cudaFree(a));
  GCOL_BENCH_CHECK(cudaFree(b));
  return bandwidth;
}

static __global__ void fill_random_kernel(uint64_t *words, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    words[i] = z ^ (z >> 31);
  }
}

void gcol_bench_fill_random(void *device_ptr, size_t bytes, uint64_t seed, gcol_stream stream) {
  size_t const words = bytes / 8;
  if (words > 0) {
    fill_random_kernel<<<1024, 256, 0, (cudaStream_t)stream>>>((uint64_t *)device_ptr, words, seed);
    GCOL_BENCH_CHECK(cudaGetLastError());
  }
  size_t const tail = bytes - words * 8;
  if (tail > 0) {
    uint64_t value = seed * 0x9E3779B97F4A7C15ull + 1;
    GCOL_BENCH_CHECK(cudaMemcpyAsync((char *)device_ptr + words * 8, &value, tail,
                                     cudaMemcpyHostToDevice, (cudaStream_t)stream));
  }
  GCOL_BENCH_CHECK(cudaStreamSynchronize((cudaStream_t)stream));
}

void gcol_bench_print_header(void) {
  printf("%-26s %12s %10s %-30s %10s %7s %9s %9s\n", "bench", "rows", "gcol ms", "peer", "peer ms",
         "ratio", "GB/s", "floor ms");
}

void gcol_bench_report(const gcol_bench_result *r) { gcol_bench_report_more(r, 0, NULL); }

void gcol_bench_report_more(const gcol_bench_result *r, double peak_bytes, const char *note) {
  int device = 0;
  cudaDeviceProp prop;
  memset(&prop, 0, sizeof prop);
  if (cudaGetDevice(&device) == cudaSuccess) (void)cudaGetDeviceProperties(&prop, device);
  double const bandwidth = gcol_bench_copy_bandwidth(NULL);
  double const floor_ms = r->bytes > 0 ? r->bytes / bandwidth * 1e3 : 0;
  double const gbps = r->bytes > 0 ? r->bytes / (r->gcol_ms * 1e-3) / 1e9 : 0;
  double const ratio = r->gcol_ms > 0 ? r->peer_ms / r->gcol_ms : 0;
  printf("%-26s %12lld %10.4f %-30s %10.4f %7.3f %9.1f %9.4f\n", r->bench, (long long)r->rows,
         r->gcol_ms, r->peer, r->peer_ms, ratio, gbps, floor_ms);
  const char *path = getenv("GCOL_BENCH_JSON");
  FILE *out = path != NULL ? fopen(path, "a") : stdout;
  if (out == NULL) out = stdout;
  const char *commit = getenv("GCOL_COMMIT");
  fprintf(out,
          "{\"bench\": \"%s\", \"gpu\": \"%s\", \"commit\": \"%s\", \"rows\": %lld, "
          "\"types\": \"%s\", \"gcol_ms\": %.5f, \"peer\": \"%s\", \"peer_ms\": %.5f, "
          "\"ratio\": %.4f, \"gbps\": %.2f, \"floor_ms\": %.5f, "
          "\"copy_bandwidth_tbps\": %.3f",
          r->bench, prop.name, commit != NULL ? commit : "unknown", (long long)r->rows,
          r->types != NULL ? r->types : "", r->gcol_ms, r->peer, r->peer_ms, ratio, gbps, floor_ms,
          bandwidth / 1e12);
  if (peak_bytes > 0) fprintf(out, ", \"peak_bytes\": %.0f", peak_bytes);
  if (note != NULL) fprintf(out, ", \"note\": \"%s\"", note);
  fprintf(out, "}\n");
  if (out != stdout) fclose(out);
}

bool gcol_bench_read_file_pinned(const char *path, void **data, int64_t *size) {
  *data = NULL;
  *size = 0;
  FILE *f = fopen(path, "rb");
  long end = -1;
  if (f != NULL && fseek(f, 0, SEEK_END) == 0) end = ftell(f);
  if (end < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "%s: cannot open or size it\n", path);
    if (f != NULL) fclose(f);
    return false;
  }
  GCOL_BENCH_CHECK(cudaMallocHost(data, end > 0 ? (size_t)end : 1));
  /* fread in pieces: one call of several GB may return short on some C libraries */
  size_t done = 0;
  while (done < (size_t)end) {
    size_t const want = std::min((size_t)end - done, (size_t)1 << 30);
    size_t const got = fread((char *)*data + done, 1, want, f);
    if (got == 0) break;
    done += got;
  }
  fclose(f);
  if (done != (size_t)end) {
    fprintf(stderr, "%s: read %zu of %ld bytes\n", path, done, end);
    GCOL_BENCH_CHECK(cudaFreeHost(*data));
    *data = NULL;
    return false;
  }
  *size = (int64_t)end;
  return true;
}

double gcol_bench_peak_bytes(void (*fn)(void *ctx), void *ctx, gcol_stream stream) {
  gcol_mr *previous = NULL, *stats = NULL;
  gcol_mr_statistics st;
  memset(&st, 0, sizeof st);
  GCOL_BENCH_CHECK(gcol_mr_statistics_create(gcol_mr_get_default(), &stats));
  GCOL_BENCH_CHECK(gcol_mr_set_default(stats, &previous));
  fn(ctx);
  GCOL_BENCH_CHECK(cudaStreamSynchronize((cudaStream_t)stream));
  GCOL_BENCH_CHECK(gcol_mr_statistics_get(stats, &st));
  GCOL_BENCH_CHECK(gcol_mr_set_default(previous, NULL));
  gcol_mr_destroy(stats);
  return (double)st.peak_bytes;
}

namespace {

__global__ void string_sizes(const int64_t *keys, int64_t n, int32_t *sizes) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    sizes[i] = (int32_t)(8 + (uint64_t)keys[i] % 17); /* any key, negative too */
  }
}

__global__ void string_chars(const int64_t *keys, const int32_t *offsets, int64_t n, char *chars) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t k = (uint64_t)keys[i];
    int32_t const begin = offsets[i], len = offsets[i + 1] - begin;
    for (int32_t j = len - 1; j >= 0; --j) {
      chars[begin + j] = (char)('a' + k % 26);
      k /= 26;
    }
  }
}

}  // namespace

void gcol_bench_strings_make(const int64_t *keys, int64_t n, gcol_stream stream,
                             gcol_bench_strings *out) {
  cudaStream_t const s = (cudaStream_t)stream;
  int32_t *h = (int32_t *)malloc((size_t)(n + 1) * 4);
  int32_t total = 0;
  memset(out, 0, sizeof *out);
  GCOL_BENCH_CHECK(h == NULL);
  GCOL_BENCH_CHECK(cudaMalloc(&out->offsets, (size_t)(n + 1) * 4));
  string_sizes<<<4096, 256, 0, s>>>(keys, n, out->offsets);
  GCOL_BENCH_CHECK(cudaGetLastError());
  /* exclusive scan of the sizes on the host (set-up only, at most 2^31 bytes) */
  GCOL_BENCH_CHECK(cudaMemcpyAsync(h, out->offsets, (size_t)n * 4, cudaMemcpyDeviceToHost, s));
  GCOL_BENCH_CHECK(cudaStreamSynchronize(s));
  for (int64_t i = 0; i < n; ++i) {
    int32_t const size = h[i];
    h[i] = total;
    total += size;
  }
  h[n] = total;
  GCOL_BENCH_CHECK(cudaMemcpy(out->offsets, h, (size_t)(n + 1) * 4, cudaMemcpyHostToDevice));
  free(h);
  GCOL_BENCH_CHECK(cudaMalloc(&out->chars, (size_t)total));
  string_chars<<<4096, 256, 0, s>>>(keys, out->offsets, n, out->chars);
  GCOL_BENCH_CHECK(cudaGetLastError());
  out->offsets_view =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT32), n + 1, out->offsets, NULL, 0);
  out->view = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), n, out->chars, NULL, 0);
  out->view.num_children = 1;
  out->view.children = &out->offsets_view;
}

void gcol_bench_strings_free(gcol_bench_strings *s) {
  GCOL_BENCH_CHECK(cudaFree(s->offsets));
  GCOL_BENCH_CHECK(cudaFree(s->chars));
  memset(s, 0, sizeof *s);
}

namespace {

__global__ void keys_in_range_kernel(int64_t *k, int64_t n, uint64_t range) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    k[i] = (int64_t)((uint64_t)k[i] % range);
  }
}

__global__ void iota_kernel(int64_t *k, int64_t n, int64_t first) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    k[i] = first + i;
  }
}

__global__ void small_doubles_kernel(double *v, int64_t n, uint64_t range) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t bits;
    memcpy(&bits, &v[i], 8);
    v[i] = (double)(bits % range);
  }
}

}  // namespace

void gcol_bench_keys_in_range(int64_t *k, int64_t n, uint64_t range, gcol_stream stream) {
  keys_in_range_kernel<<<1024, 256, 0, (cudaStream_t)stream>>>(k, n, range);
  GCOL_BENCH_CHECK(cudaGetLastError());
}

void gcol_bench_iota_i64(int64_t *k, int64_t n, int64_t first, gcol_stream stream) {
  iota_kernel<<<1024, 256, 0, (cudaStream_t)stream>>>(k, n, first);
  GCOL_BENCH_CHECK(cudaGetLastError());
}

void gcol_bench_small_doubles(double *v, int64_t n, uint64_t range, gcol_stream stream) {
  small_doubles_kernel<<<1024, 256, 0, (cudaStream_t)stream>>>(v, n, range);
  GCOL_BENCH_CHECK(cudaGetLastError());
}
