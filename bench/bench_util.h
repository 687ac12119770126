/*
 * Benchmark harness (BENCHMARKING.md): CUDA-event timing, median of repeated runs with the
 * L2 flushed before each, the device-to-device copy bandwidth as the floor, random device
 * data, and one table row plus one JSON line per result.
 *
 * JSON lines go to the file named by GCOL_BENCH_JSON (appended), or stdout; the commit is
 * read from GCOL_COMMIT. Usage:
 *
 *   static void run_gcol(void *ctx) { ... one call of the operation ... }
 *   static void run_peer(void *ctx) { ... the peer on the same data ... }
 *   gcol_bench_result r = {.bench = "gather_i64_random", .rows = n, .peer = "plain gather"};
 *   r.gcol_ms = gcol_bench_time_ms(run_gcol, &ctx, stream);
 *   r.peer_ms = gcol_bench_time_ms(run_peer, &ctx, stream);
 *   r.bytes = bytes_moved;                    // for GB/s and the floor
 *   gcol_bench_report(&r);
 */
#ifndef GCOL_BENCH_UTIL_H
#define GCOL_BENCH_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gcol_bench_result {
  const char *bench; /* name, e.g. "gather_i64_random" */
  const char *types; /* e.g. "int64" */
  int64_t rows;
  double gcol_ms;
  const char *peer; /* what the peer is */
  double peer_ms;
  double bytes; /* bytes the operation must move (inputs once, outputs once); 0 if n/a */
} gcol_bench_result;

/* Exits with a message if a CUDA call or gcol status failed (benchmarks only). */
#define GCOL_BENCH_CHECK(expr)                                                                 \
  do {                                                                                         \
    int gcol_bench_rc = (int)(expr);                                                           \
    if (gcol_bench_rc != 0) {                                                                  \
      fprintf(stderr, "%s:%d: %s failed (%d): %s\n", __FILE__, __LINE__, #expr, gcol_bench_rc, \
              gcol_last_error());                                                              \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

/* Number of timed repetitions (GCOL_BENCH_REPS, default 20) and warm-ups (3). */
int gcol_bench_reps(void);

/* Median milliseconds of fn(ctx) on `stream`, after warm-ups, L2 flushed before each run. */
double gcol_bench_time_ms(void (*fn)(void *ctx), void *ctx, gcol_stream stream);

/* Measured device-to-device copy bandwidth in bytes/s (read + write), cached per process. */
double gcol_bench_copy_bandwidth(gcol_stream stream);

/* Fills `bytes` of device memory with random bits from `seed` (never zeros). */
void gcol_bench_fill_random(void *device_ptr, size_t bytes, uint64_t seed, gcol_stream stream);

/* k[i] = (uint64_t)k[i] % range, in place (random bits to keys in [0, range)). */
void gcol_bench_keys_in_range(int64_t *k, int64_t n, uint64_t range, gcol_stream stream);

/* k[i] = first + i. */
void gcol_bench_iota_i64(int64_t *k, int64_t n, int64_t first, gcol_stream stream);

/* Random bits in v turned into doubles that are integers in [0, range). */
void gcol_bench_small_doubles(double *v, int64_t n, uint64_t range, gcol_stream stream);

/* Peak device bytes allocated through gcol's default resource during one fn(ctx) (a
 * statistics resource over the current default, installed for the call). */
double gcol_bench_peak_bytes(void (*fn)(void *ctx), void *ctx, gcol_stream stream);

/* A STRING column whose row i spells keys[i] in base 26 ('a'..'z'), padded to 8..24 bytes
 * (8 + keys[i] % 17): equal keys give equal strings. Device buffers are owned by the struct. */
typedef struct gcol_bench_strings {
  int32_t *offsets;
  char *chars;
  gcol_column_view offsets_view;
  gcol_column_view view; /* its child points at offsets_view: keep the struct in place */
} gcol_bench_strings;

void gcol_bench_strings_make(const int64_t *keys, int64_t n, gcol_stream stream,
                             gcol_bench_strings *out);
void gcol_bench_strings_free(gcol_bench_strings *s);

/* Reads the whole file at `path` into page-locked host memory (cudaMallocHost: free with
 * cudaFreeHost), as the I/O benchmarks read "a file already in host memory". False, with a
 * message on stderr, when it cannot be opened or read. */
bool gcol_bench_read_file_pinned(const char *path, void **data, int64_t *size);

/* Prints a table row and writes a JSON line with ratio = peer_ms / gcol_ms, GB/s and floor. */
void gcol_bench_report(const gcol_bench_result *result);

/* As gcol_bench_report, with gcol's peak device bytes in one call (0: not measured) and a
 * note the figure needs to be read right (NULL: none) in the JSON line. */
void gcol_bench_report_more(const gcol_bench_result *result, double peak_bytes, const char *note);

/* Prints the table header. */
void gcol_bench_print_header(void);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_BENCH_UTIL_H */
