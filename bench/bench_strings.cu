/*
 * Strings benchmarks (issue 12), on the data of bench/peers/libcudf_peer.py (random 'a'..'z'
 * bytes, lengths uniform in the range, target "qz"):
 *   strings_contains_short  gcol_strings_contains, 2^24 rows of 8..32 bytes, literal target
 *                           (thread per string); libcudf 26.10 on an H200: 0.661 ms.
 *   strings_contains_long   the same, 2^20 rows of 200..1800 bytes (~1 GB of chars; warp
 *                           per string); libcudf: 1.89 ms.
 *   strings_upper           gcol_strings_convert_case(UPPER), 2^24 rows of 8..32 bytes (the
 *                           all-ASCII path); libcudf: 4.01 ms.
 * The in-run peer is a device-to-device copy of the bytes the operation must move (chars and
 * offsets, plus its output): the floor. The note carries the chars GB/s and libcudf's
 * reference figure (run bench/peers/libcudf_peer.py sort_strings in the same device call for
 * a same-run libcudf figure). Each benchmark first checks a sample of rows against a plain
 * host computation. GCOL_BENCH_ROWS scales the row counts (2^24 and 2^20 by default).
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gcol/strings/case.h"
#include "gcol/strings/find.h"

namespace {

__global__ void letters_from_random(uint8_t *chars, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    chars[i] = (uint8_t)('a' + chars[i] % 26u);
  }
}

struct strings_data {
  int64_t n;
  int64_t bytes;
  int32_t *offsets; /* device */
  char *chars;      /* device */
  int32_t *host_offsets;
  gcol_column_view offsets_view;
  gcol_column_view view;
};

void make_strings(int64_t n, int lo, int hi, uint64_t seed, cudaStream_t stream, strings_data *d) {
  d->n = n;
  d->host_offsets = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  uint64_t state = seed;
  d->host_offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    d->host_offsets[i + 1] = d->host_offsets[i] + lo + (int32_t)((state >> 33) % (uint64_t)(hi - lo + 1));
  }
  d->bytes = d->host_offsets[n];
  GCOL_BENCH_CHECK(cudaMalloc(&d->offsets, (size_t)(n + 1) * sizeof(int32_t)));
  GCOL_BENCH_CHECK(cudaMalloc(&d->chars, (size_t)d->bytes));
  GCOL_BENCH_CHECK(cudaMemcpyAsync(d->offsets, d->host_offsets, (size_t)(n + 1) * sizeof(int32_t),
                                   cudaMemcpyHostToDevice, stream));
  gcol_bench_fill_random(d->chars, (size_t)d->bytes, seed, (gcol_stream)stream);
  letters_from_random<<<4096, 256, 0, stream>>>((uint8_t *)d->chars, d->bytes);
  GCOL_BENCH_CHECK(cudaGetLastError());
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  d->offsets_view = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), n + 1, d->offsets, NULL, 0);
  d->view = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), n, d->chars, NULL, 0);
  d->view.children = &d->offsets_view;
  d->view.num_children = 1;
}

void free_strings(strings_data *d) {
  GCOL_BENCH_CHECK(cudaFree(d->offsets));
  GCOL_BENCH_CHECK(cudaFree(d->chars));
  free(d->host_offsets);
}

/* The first `rows` rows' chars on the host. */
char *host_chars(const strings_data *d, int64_t rows) {
  size_t const bytes = (size_t)d->host_offsets[rows];
  char *h = (char *)malloc(bytes + 1);
  GCOL_BENCH_CHECK(cudaMemcpy(h, d->chars, bytes, cudaMemcpyDeviceToHost));
  return h;
}

struct context {
  const strings_data *d;
  gcol_scalar *target;
  cudaStream_t stream;
  void *copy_dst;
  const void *copy_src;
  size_t copy_bytes;
};

void run_contains(void *p) {
  context *c = (context *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_strings_contains(c->d->view, c->target, &out, (gcol_stream)c->stream, NULL));
  gcol_column_free(out);
}

void run_upper(void *p) {
  context *c = (context *)p;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(
      gcol_strings_convert_case(c->d->view, GCOL_CASE_UPPER, &out, (gcol_stream)c->stream, NULL));
  gcol_column_free(out);
}

/* The peer: one device-to-device copy of the bytes the operation moves. */
void run_copy(void *p) {
  context *c = (context *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->copy_dst, c->copy_src, c->copy_bytes,
                                   cudaMemcpyDeviceToDevice, c->stream));
}

void check_contains(const strings_data *d, gcol_scalar *target, cudaStream_t stream) {
  int64_t const rows = d->n < 100000 ? d->n : 100000;
  gcol_column *out = NULL;
  GCOL_BENCH_CHECK(gcol_strings_contains(d->view, target, &out, (gcol_stream)stream, NULL));
  uint8_t *got = (uint8_t *)malloc((size_t)d->n);
  GCOL_BENCH_CHECK(gcol_column_copy_to_host(gcol_column_get_view(out), got, NULL, (gcol_stream)stream));
  char *h = host_chars(d, rows);
  int64_t hits = 0;
  for (int64_t i = 0; i < rows; ++i) {
    bool want = false;
    for (int32_t p = d->host_offsets[i]; p + 1 < d->host_offsets[i + 1]; ++p) {
      if (h[p] == 'q' && h[p + 1] == 'z') want = true;
    }
    hits += want;
    if (got[i] != (uint8_t)want) {
      fprintf(stderr, "contains: row %lld is %d, want %d\n", (long long)i, got[i], (int)want);
      exit(1);
    }
  }
  if (hits == 0) {
    fprintf(stderr, "contains: no row of the sample holds the target; the check proves nothing\n");
    exit(1);
  }
  free(h);
  free(got);
  gcol_column_free(out);
}

void check_upper(const strings_data *d, cudaStream_t stream) {
  int64_t const rows = d->n < 100000 ? d->n : 100000;
  gcol_column *out = NULL;
  gcol_column_view sample;
  gcol_host_strings *hs = NULL;
  GCOL_BENCH_CHECK(gcol_strings_convert_case(d->view, GCOL_CASE_UPPER, &out, (gcol_stream)stream, NULL));
  GCOL_BENCH_CHECK(gcol_column_view_slice(gcol_column_get_view(out), 0, rows, &sample));
  GCOL_BENCH_CHECK(gcol_column_strings_copy_to_host(sample, (gcol_stream)stream, &hs));
  char *h = host_chars(d, rows);
  for (int64_t i = 0; i < rows; ++i) {
    int64_t const len = d->host_offsets[i + 1] - d->host_offsets[i];
    bool ok = hs->offsets[i + 1] - hs->offsets[i] == len;
    for (int64_t k = 0; ok && k < len; ++k) {
      ok = hs->chars[hs->offsets[i] + k] == h[d->host_offsets[i] + k] - 32;
    }
    if (!ok) {
      fprintf(stderr, "upper: row %lld differs\n", (long long)i);
      exit(1);
    }
  }
  free(h);
  gcol_host_strings_free(hs);
  gcol_column_free(out);
}

void bench(const char *name, const strings_data *d, void (*fn)(void *), context *c,
           double out_bytes, double libcudf_ms) {
  double const in_bytes = (double)d->bytes + (double)(d->n + 1) * 4;
  double const moved = in_bytes + out_bytes;
  c->copy_bytes = (size_t)(moved / 2);
  gcol_bench_result r = {};
  r.bench = name;
  r.types = "string";
  r.rows = d->n;
  r.peer = "d2d copy of the bytes moved";
  r.gcol_ms = gcol_bench_time_ms(fn, c, (gcol_stream)c->stream);
  r.peer_ms = gcol_bench_time_ms(run_copy, c, (gcol_stream)c->stream);
  r.bytes = moved;
  char note[200];
  snprintf(note, sizeof note, "chars %.1f GB/s; libcudf 26.10 on an H200 (reference, not this run): %.3f ms, ratio %.2f",
           (double)d->bytes / (r.gcol_ms * 1e6), libcudf_ms, libcudf_ms / r.gcol_ms);
  gcol_bench_report_more(&r, 0, note);
}

}  // namespace

int main(void) {
  const char *rows_env = getenv("GCOL_BENCH_ROWS");
  int64_t const short_rows = rows_env != NULL ? atoll(rows_env) : ((int64_t)1 << 24);
  int64_t const long_rows = rows_env != NULL ? atoll(rows_env) / 16 : ((int64_t)1 << 20);
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  gcol_bench_print_header();

  strings_data shorts = {}, longs = {};
  make_strings(short_rows, 8, 32, 5, stream, &shorts);
  make_strings(long_rows, 200, 1800, 9, stream, &longs);
  size_t const scratch = (size_t)(longs.bytes > shorts.bytes ? longs.bytes : shorts.bytes) * 2 +
                         (size_t)(short_rows + 1) * 8;
  void *scratch_a = NULL, *scratch_b = NULL;
  GCOL_BENCH_CHECK(cudaMalloc(&scratch_a, scratch));
  GCOL_BENCH_CHECK(cudaMalloc(&scratch_b, scratch));
  GCOL_BENCH_CHECK(cudaMemset(scratch_a, 1, scratch));

  context c = {};
  c.stream = stream;
  c.copy_src = scratch_a;
  c.copy_dst = scratch_b;
  GCOL_BENCH_CHECK(gcol_scalar_create_cstring("qz", &c.target));

  check_contains(&shorts, c.target, stream);
  c.d = &shorts;
  bench("strings_contains_short", &shorts, run_contains, &c, (double)shorts.n, 0.661);

  check_contains(&longs, c.target, stream);
  c.d = &longs;
  bench("strings_contains_long", &longs, run_contains, &c, (double)longs.n, 1.89);

  check_upper(&shorts, stream);
  c.d = &shorts;
  bench("strings_upper", &shorts, run_upper, &c, (double)shorts.bytes + (double)(shorts.n + 1) * 4,
        4.01);

  gcol_scalar_free(c.target);
  GCOL_BENCH_CHECK(cudaFree(scratch_a));
  GCOL_BENCH_CHECK(cudaFree(scratch_b));
  free_strings(&shorts);
  free_strings(&longs);
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
