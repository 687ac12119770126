/*
 * A custom kernel over gcol columns: out = a * b + c for three nullable FLOAT64 columns,
 * read and written through typed views; a row is null when any input is null.
 *
 * Build with the examples option (meson setup build -Dexamples=true); run ./custom_kernel.
 * It builds its inputs on the host, runs the kernel, copies the result back and checks it
 * against the same computation on the host: exit status 0 when they agree. Output is TAP,
 * so the test suite can run it; without a GPU it reports a skip.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "gcol/gcol.h"
#include "gcol/typed_view.h"

/* One thread per row; a row is valid when all three inputs are. */
__global__ void fused_multiply_add(gcol_f64_view a, gcol_f64_view b, gcol_f64_view c,
                                   gcol_f64_mutable_view out) {
  int64_t const i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  bool const in_range = i < out.size;
  bool const valid = in_range && gcol_f64_view_is_valid(a, i) && gcol_f64_view_is_valid(b, i) &&
                     gcol_f64_view_is_valid(c, i);
  /* Every row's validity bit is written, valid or null (the mask starts uninitialized):
   * the warp gathers its 32 rows' bits with a ballot and one lane stores the whole word.
   * That needs the warp's rows to be one mask word: blockDim is a multiple of 32 and a
   * fresh column's mask starts at bit 0. Rows past the end get 0 bits (padding). */
  unsigned int const bits = __ballot_sync(0xFFFFFFFFu, valid);
  if (!in_range) return;
  /* Null rows get a value too (zero): every byte a column hands out is defined, so copies
   * and later kernels never read uninitialized memory (compute-sanitizer's initcheck). */
  double const value = valid ? gcol_f64_view_get(a, i) * gcol_f64_view_get(b, i) +
                                   gcol_f64_view_get(c, i)
                             : 0.0;
  gcol_f64_mutable_view_set(out, i, value);
  if ((threadIdx.x & 31) == 0 && out.null_mask != NULL) {
    out.null_mask[gcol_bit_word_index(out.mask_offset + i)] = bits;
  }
}

#define CHECK(expr)                                                                         \
  do {                                                                                      \
    gcol_status st_ = (expr);                                                               \
    if (st_ != GCOL_OK) {                                                                   \
      printf("not ok 1 - %s: %s (%s)\n", #expr, gcol_status_string(st_), gcol_last_error()); \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

/* Host inputs with some nulls in each column. The values keep a*b+c exact in double, so
 * the device (which may fuse it into one FMA) and the host agree bit for bit. */
static void make_inputs(int64_t n, double *v[3], uint8_t *valid[3]) {
  for (int64_t i = 0; i < n; ++i) {
    v[0][i] = (double)(i % 1000) * 0.5;
    v[1][i] = (double)((i * 7) % 113) - 50.0;
    v[2][i] = (double)(i % 17) * 1.25;
    valid[0][i] = (uint8_t)(i % 5 != 0);
    valid[1][i] = (uint8_t)(i % 7 != 3);
    valid[2][i] = (uint8_t)(i % 11 != 1);
  }
}

static int run(int64_t n) {
  double *host[3];
  uint8_t *host_valid[3];
  for (int k = 0; k < 3; ++k) {
    host[k] = (double *)malloc(sizeof(double) * (size_t)n);
    host_valid[k] = (uint8_t *)malloc((size_t)n);
  }
  double *result = (double *)malloc(sizeof(double) * (size_t)n);
  uint8_t *result_valid = (uint8_t *)malloc((size_t)n);
  make_inputs(n, host, host_valid);

  gcol_stream const stream = NULL;
  gcol_column *cols[3] = {NULL, NULL, NULL};
  gcol_column *out = NULL;
  gcol_data_type const f64 = gcol_data_type_make(GCOL_FLOAT64);
  for (int k = 0; k < 3; ++k) {
    CHECK(gcol_column_create_from_host(f64, n, host[k], host_valid[k], stream, NULL, &cols[k]));
  }
  CHECK(gcol_column_create(f64, n, GCOL_MASK_UNINITIALIZED, stream, NULL, &out));

  /* Checked constructors: a column of another type would give GCOL_ERROR_TYPE_MISMATCH. */
  gcol_f64_view a, b, c;
  gcol_f64_mutable_view o;
  gcol_mutable_column_view out_view; /* write access (copies buffers a shallow copy shares) */
  CHECK(gcol_f64_view_make(gcol_column_get_view(cols[0]), &a));
  CHECK(gcol_f64_view_make(gcol_column_get_view(cols[1]), &b));
  CHECK(gcol_f64_view_make(gcol_column_get_view(cols[2]), &c));
  CHECK(gcol_column_get_mutable_view(out, stream, &out_view));
  CHECK(gcol_f64_mutable_view_make(out_view, &o));
  if (o.mask_offset % 32 != 0) { /* the kernel writes whole mask words */
    printf("not ok 1 - output mask not word-aligned\n");
    return 1;
  }
  if (n > 0) { /* never launch zero blocks */
    fused_multiply_add<<<(unsigned int)((n + 255) / 256), 256, 0, stream>>>(a, b, c, o);
    if (cudaGetLastError() != cudaSuccess) {
      printf("not ok 1 - kernel launch failed\n");
      return 1;
    }
  }

  /* The null count of the new mask, counted on the device, then the values to the host. */
  int64_t nulls = 0;
  CHECK(gcol_bitmask_count_unset_bits(o.null_mask, 0, n, stream, &nulls));
  CHECK(gcol_column_set_null_count(out, nulls));
  CHECK(gcol_column_copy_to_host(gcol_column_get_view(out), result, result_valid, stream));

  int64_t mismatches = 0;
  int64_t expected_nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool const valid = host_valid[0][i] && host_valid[1][i] && host_valid[2][i];
    expected_nulls += !valid;
    if ((result_valid[i] != 0) != valid) ++mismatches;
    else if (valid && result[i] != host[0][i] * host[1][i] + host[2][i]) ++mismatches;
  }
  if (nulls != expected_nulls) ++mismatches;

  for (int k = 0; k < 3; ++k) {
    gcol_column_free(cols[k]);
    free(host[k]);
    free(host_valid[k]);
  }
  gcol_column_free(out);
  free(result);
  free(result_valid);
  if (mismatches != 0) {
    printf("# %lld rows differ from the host result (n = %lld)\n", (long long)mismatches, (long long)n);
    return 1;
  }
  return 0;
}

int main(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    printf("1..0 # SKIP no CUDA device\n");
    return 0;
  }
  printf("1..1\n");
  static const int64_t sizes[] = {0, 1, 31, 257, 1000003};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    if (run(sizes[s]) != 0) {
      printf("not ok 1 - custom_kernel a*b+c (n = %lld)\n", (long long)sizes[s]);
      return 1;
    }
  }
  printf("ok 1 - custom_kernel a*b+c matches the host\n");
  return 0;
}
