/* A stand-in for libnvcomp for the loader's host tests (test_parquet_nvcomp_host.c): its
 * version is GCOL_FAKE_NVCOMP_VERSION (default 5300); it has SNAPPY's three entry points
 * (alignments 1), ZSTD's with an input alignment of 512 (more than gcol plans for), GZIP's
 * without DecompressAsync, and nothing for LZ4. Only the host-side calls do anything. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t version;
  uint32_t cudart_version;
} props;
typedef struct {
  size_t input, output, temp;
} aligns;
typedef struct {
  int32_t backend;
  char rest[60];
} opts;

int nvcompGetProperties(props *p);
int nvcompBatchedSnappyDecompressGetRequiredAlignments(opts o, aligns *a);
int nvcompBatchedSnappyDecompressGetTempSizeAsync(size_t n, size_t most, opts o, size_t *temp,
                                                  size_t total);
int nvcompBatchedSnappyDecompressAsync(void);
int nvcompBatchedZstdDecompressGetRequiredAlignments(opts o, aligns *a);
int nvcompBatchedZstdDecompressGetTempSizeAsync(size_t n, size_t most, opts o, size_t *temp,
                                                size_t total);
int nvcompBatchedZstdDecompressAsync(void);
int nvcompBatchedGzipDecompressGetRequiredAlignments(opts o, aligns *a);
int nvcompBatchedGzipDecompressGetTempSizeAsync(size_t n, size_t most, opts o, size_t *temp,
                                                size_t total);

int nvcompGetProperties(props *p) {
  const char *v = getenv("GCOL_FAKE_NVCOMP_VERSION");
  if (p == NULL) return 10;
  p->version = v != NULL ? (uint32_t)atoi(v) : 5300u;
  p->cudart_version = 13030u;
  return 0;
}

static int set(aligns *a, size_t input, opts o) {
  if (o.backend != 2) return 10; /* gcol asks for the CUDA backend */
  for (size_t i = 0; i < sizeof o.rest; ++i) {
    if (o.rest[i] != 0) return 10; /* unused bytes must be zero */
  }
  a->input = input;
  a->output = 1;
  a->temp = 1;
  return 0;
}

int nvcompBatchedSnappyDecompressGetRequiredAlignments(opts o, aligns *a) { return set(a, 1, o); }
int nvcompBatchedSnappyDecompressGetTempSizeAsync(size_t n, size_t most, opts o, size_t *temp,
                                                  size_t total) {
  (void)o;
  *temp = n + most + total; /* checks that the arguments arrive in order */
  return 0;
}
int nvcompBatchedSnappyDecompressAsync(void) { return 0; }
int nvcompBatchedZstdDecompressGetRequiredAlignments(opts o, aligns *a) { return set(a, 512, o); }
int nvcompBatchedZstdDecompressGetTempSizeAsync(size_t n, size_t most, opts o, size_t *temp,
                                                size_t total) {
  (void)n;
  (void)most;
  (void)o;
  (void)total;
  *temp = 0;
  return 0;
}
int nvcompBatchedZstdDecompressAsync(void) { return 0; }
int nvcompBatchedGzipDecompressGetRequiredAlignments(opts o, aligns *a) { return set(a, 1, o); }
int nvcompBatchedGzipDecompressGetTempSizeAsync(size_t n, size_t most, opts o, size_t *temp,
                                                size_t total) {
  return nvcompBatchedZstdDecompressGetTempSizeAsync(n, most, o, temp, total); /* none either */
}
