/*
 * Strings benchmarks (issue 12), on the data of bench/peers/libcudf_peer.py (random 'a'..'z'
 * bytes, lengths uniform in the range):
 *   strings_contains_short  gcol_strings_contains, 2^24 rows of 8..32 bytes, literal target
 *                           "qz" (thread per string); libcudf 26.10 on an H200: 0.661 ms.
 *   strings_contains_long   the same, 2^20 rows of 200..1800 bytes (~1 GB of chars; warp
 *                           per string); libcudf: 1.89 ms.
 *   strings_upper           gcol_strings_convert_case(UPPER), 2^24 rows of 8..32 bytes (the
 *                           all-ASCII path); libcudf: 4.01 ms.
 *   strings_regex_contains  gcol_strings_regex_contains, the 2^24 rows of 8..32 bytes,
 *                           pattern "[a-c]q+z" (libcudf: contains_re).
 *   strings_findall         gcol_strings_findall, the same rows, pattern "q[a-z]" (about 0.75
 *                           matches a row; libcudf: findall).
 *   strings_split_re_record gcol_strings_split_record_re, 2^24 rows of 8..32 bytes where each
 *                           byte is ',' or ';' with probability 1/8 (about 2.5 separators a
 *                           row), pattern "[,;]", every split (libcudf: split_record_re).
 *   strings_replace_re      gcol_strings_regex_replace, the 2^24 rows of 8..32 letters,
 *                           "q+" -> "Q", every match (libcudf: replace_re).
 * The in-run peer is a device-to-device copy of the bytes the operation must move (chars and
 * offsets, plus its output): the floor. The note carries the chars GB/s and, for the first
 * three rows, libcudf's reference figure; a same-run libcudf figure for every row comes from
 * `bench/peers/libcudf_peer.py sort_strings regex` in the same device call (the same names).
 * Each benchmark first checks a sample of rows against a plain host computation. A row whose
 * check or gcol call fails is skipped with a message (the others still run) and the program
 * exits non-zero. GCOL_BENCH_ROWS scales the row counts (2^24 and 2^20 by default).
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gcol/strings/case.h"
#include "gcol/strings/find.h"
#include "gcol/strings/regex.h"

namespace {

__global__ void letters_from_random(uint8_t *chars, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    chars[i] = (uint8_t)('a' + chars[i] % 26u);
  }
}

/* Turns each byte into ',' or ';' with probability 1/8 (a hash of its index and the seed). */
__global__ void add_separators(uint8_t *chars, int64_t n, uint64_t seed) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t z = seed + ((uint64_t)i + 1) * 0x9E3779B97F4A7C15ull; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    if ((z & 7u) == 0) chars[i] = (z & 8u) ? ',' : ';';
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
    d->host_offsets[i + 1] =
        d->host_offsets[i] + lo + (int32_t)((state >> 33) % (uint64_t)(hi - lo + 1));
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
  d->offsets_view =
      gcol_column_view_make(gcol_data_type_make(GCOL_INT32), n + 1, d->offsets, NULL, 0);
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
  gcol_regex *re;
  const char *replacement;
  cudaStream_t stream;
  void *copy_dst;
  const void *copy_src;
  size_t copy_bytes;
  size_t scratch_bytes;
  gcol_status status; /* the first failure of a timed call (GCOL_OK: none) */
  char error[256];
};

/* Records the first failure of a timed call instead of exiting: the row is then skipped and
 * the other rows still run. */
void record(context *c, gcol_status st, const char *what) {
  if (st != GCOL_OK && c->status == GCOL_OK) {
    c->status = st;
    snprintf(c->error, sizeof c->error, "%s: %s (%s)", what, gcol_status_string(st),
             gcol_last_error());
  }
}

void run_contains(void *p) {
  context *c = (context *)p;
  gcol_column *out = NULL;
  record(c, gcol_strings_contains(c->d->view, c->target, &out, (gcol_stream)c->stream, NULL),
         "gcol_strings_contains");
  gcol_column_free(out);
}

void run_upper(void *p) {
  context *c = (context *)p;
  gcol_column *out = NULL;
  record(c,
         gcol_strings_convert_case(c->d->view, GCOL_CASE_UPPER, &out, (gcol_stream)c->stream, NULL),
         "gcol_strings_convert_case");
  gcol_column_free(out);
}

void run_regex_contains(void *p) {
  context *c = (context *)p;
  gcol_column *out = NULL;
  record(c, gcol_strings_regex_contains(c->d->view, c->re, &out, (gcol_stream)c->stream, NULL),
         "gcol_strings_regex_contains");
  gcol_column_free(out);
}

void run_findall(void *p) {
  context *c = (context *)p;
  gcol_column *out = NULL;
  record(c, gcol_strings_findall(c->d->view, c->re, &out, (gcol_stream)c->stream, NULL),
         "gcol_strings_findall");
  gcol_column_free(out);
}

void run_split_record_re(void *p) {
  context *c = (context *)p;
  gcol_column *out = NULL;
  record(c, gcol_strings_split_record_re(c->d->view, c->re, -1, &out, (gcol_stream)c->stream, NULL),
         "gcol_strings_split_record_re");
  gcol_column_free(out);
}

void run_replace_re(void *p) {
  context *c = (context *)p;
  gcol_column *out = NULL;
  record(c,
         gcol_strings_regex_replace(c->d->view, c->re, c->replacement, -1, -1, &out,
                                    (gcol_stream)c->stream, NULL),
         "gcol_strings_regex_replace");
  gcol_column_free(out);
}

/* The peer: one device-to-device copy of the bytes the operation moves. */
void run_copy(void *p) {
  context *c = (context *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->copy_dst, c->copy_src, c->copy_bytes,
                                   cudaMemcpyDeviceToDevice, c->stream));
}

/* Entry i of an INT32 or INT64 offsets view (its offset honoured), read from the device. */
int64_t read_offset(gcol_column_view offsets, int64_t i, cudaStream_t stream) {
  size_t const width = offsets.type.id == GCOL_INT64 ? 8 : 4;
  const char *at = (const char *)offsets.data + (size_t)(offsets.offset + i) * width;
  int64_t v64 = 0;
  int32_t v32 = 0;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(width == 8 ? (void *)&v64 : (void *)&v32, at, width,
                                   cudaMemcpyDeviceToHost, stream));
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  return width == 8 ? v64 : v32;
}

/* Entries [0, count) of an INT32 or INT64 offsets view, widened, on the host (malloc). */
int64_t *host_offsets_of(gcol_column_view offsets, int64_t count, cudaStream_t stream) {
  size_t const width = offsets.type.id == GCOL_INT64 ? 8 : 4;
  void *raw = malloc((size_t)count * width);
  int64_t *out = (int64_t *)malloc((size_t)count * sizeof(int64_t));
  GCOL_BENCH_CHECK(cudaMemcpyAsync(raw, (const char *)offsets.data + (size_t)offsets.offset * width,
                                   (size_t)count * width, cudaMemcpyDeviceToHost, stream));
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  for (int64_t i = 0; i < count; ++i) {
    out[i] = width == 8 ? ((const int64_t *)raw)[i] : ((const int32_t *)raw)[i];
  }
  free(raw);
  return out;
}

/* Bytes of an unsliced output column: data, offsets and chars (null masks left out). */
double output_bytes(gcol_column_view v, cudaStream_t stream) {
  if (v.type.id == GCOL_STRING || v.type.id == GCOL_LIST) {
    gcol_column_view const offsets = v.children[GCOL_OFFSETS_CHILD];
    double const offsets_bytes = (double)(v.size + 1) * (offsets.type.id == GCOL_INT64 ? 8 : 4);
    if (v.type.id == GCOL_STRING) {
      return offsets_bytes +
             (double)(read_offset(offsets, v.size, stream) - read_offset(offsets, 0, stream));
    }
    return offsets_bytes + output_bytes(v.children[GCOL_LIST_VALUES_CHILD], stream);
  }
  return (double)v.size * (double)gcol_type_size(v.type.id);
}

/* Checks a BOOL8 output against want(row chars, length) on the first 100000 rows. */
bool check_bool_rows(const strings_data *d, gcol_column *out, const char *name,
                     bool (*want_fn)(const char *, int32_t), cudaStream_t stream) {
  int64_t const rows = d->n < 100000 ? d->n : 100000;
  uint8_t *got = (uint8_t *)malloc((size_t)d->n);
  GCOL_BENCH_CHECK(
      gcol_column_copy_to_host(gcol_column_get_view(out), got, NULL, (gcol_stream)stream));
  char *h = host_chars(d, rows);
  int64_t hits = 0;
  bool ok = true;
  for (int64_t i = 0; ok && i < rows; ++i) {
    int32_t const b = d->host_offsets[i];
    bool const want = want_fn(h + b, d->host_offsets[i + 1] - b);
    hits += want;
    if (got[i] != (uint8_t)want) {
      fprintf(stderr, "%s: row %lld is %d, want %d\n", name, (long long)i, got[i], (int)want);
      ok = false;
    }
  }
  if (ok && hits == 0) {
    fprintf(stderr, "%s: no row of the sample matches; the check proves nothing\n", name);
    ok = false;
  }
  free(h);
  free(got);
  return ok;
}

bool has_qz(const char *s, int32_t len) {
  for (int32_t p = 0; p + 1 < len; ++p) {
    if (s[p] == 'q' && s[p + 1] == 'z') return true;
  }
  return false;
}

/* "[a-c]q+z" anywhere in the row. */
bool has_acqz(const char *s, int32_t len) {
  for (int32_t p = 0; p < len; ++p) {
    if (s[p] < 'a' || s[p] > 'c') continue;
    int32_t j = p + 1;
    while (j < len && s[j] == 'q') ++j;
    if (j > p + 1 && j < len && s[j] == 'z') return true;
  }
  return false;
}

bool check_contains(const strings_data *d, gcol_scalar *target, cudaStream_t stream) {
  gcol_column *out = NULL;
  gcol_status const st = gcol_strings_contains(d->view, target, &out, (gcol_stream)stream, NULL);
  if (st != GCOL_OK) {
    fprintf(stderr, "contains: %s (%s)\n", gcol_status_string(st), gcol_last_error());
    return false;
  }
  bool const ok = check_bool_rows(d, out, "contains", has_qz, stream);
  gcol_column_free(out);
  return ok;
}

bool check_regex_contains(const strings_data *d, const gcol_regex *re, cudaStream_t stream) {
  gcol_column *out = NULL;
  gcol_status const st = gcol_strings_regex_contains(d->view, re, &out, (gcol_stream)stream, NULL);
  if (st != GCOL_OK) {
    fprintf(stderr, "regex_contains: %s (%s)\n", gcol_status_string(st), gcol_last_error());
    return false;
  }
  bool const ok = check_bool_rows(d, out, "regex_contains", has_acqz, stream);
  gcol_column_free(out);
  return ok;
}

/* Compares a STRING output's first rows (a host copy of a slice) with want(row) on the host. */
typedef int32_t (*expect_fn)(const char *row, int32_t len, char *out); /* bytes written */

bool check_string_rows(const strings_data *d, gcol_column *out, const char *name, expect_fn expect,
                       cudaStream_t stream) {
  int64_t const rows = d->n < 100000 ? d->n : 100000;
  gcol_column_view sample;
  gcol_host_strings *hs = NULL;
  GCOL_BENCH_CHECK(gcol_column_view_slice(gcol_column_get_view(out), 0, rows, &sample));
  GCOL_BENCH_CHECK(gcol_column_strings_copy_to_host(sample, (gcol_stream)stream, &hs));
  char *h = host_chars(d, rows);
  char *want = (char *)malloc(64 * 1024);
  bool ok = true;
  for (int64_t i = 0; ok && i < rows; ++i) {
    int32_t const b = d->host_offsets[i];
    int32_t const len = expect(h + b, d->host_offsets[i + 1] - b, want);
    int64_t const got_len = hs->offsets[i + 1] - hs->offsets[i];
    ok = hs->valid[i] && got_len == len &&
         memcmp(hs->chars + hs->offsets[i], want, (size_t)len) == 0;
    if (!ok) fprintf(stderr, "%s: row %lld differs\n", name, (long long)i);
  }
  free(want);
  free(h);
  gcol_host_strings_free(hs);
  return ok;
}

int32_t expect_upper(const char *s, int32_t len, char *out) {
  for (int32_t k = 0; k < len; ++k) out[k] = (char)(s[k] - 32);
  return len;
}

/* re.sub("q+", "Q", row) */
int32_t expect_replace_q(const char *s, int32_t len, char *out) {
  int32_t n = 0;
  for (int32_t p = 0; p < len;) {
    if (s[p] == 'q') {
      out[n++] = 'Q';
      while (p < len && s[p] == 'q') ++p;
    } else {
      out[n++] = s[p++];
    }
  }
  return n;
}

bool check_upper(const strings_data *d, cudaStream_t stream) {
  gcol_column *out = NULL;
  gcol_status const st =
      gcol_strings_convert_case(d->view, GCOL_CASE_UPPER, &out, (gcol_stream)stream, NULL);
  if (st != GCOL_OK) {
    fprintf(stderr, "upper: %s (%s)\n", gcol_status_string(st), gcol_last_error());
    return false;
  }
  bool const ok = check_string_rows(d, out, "upper", expect_upper, stream);
  gcol_column_free(out);
  return ok;
}

bool check_replace(const strings_data *d, const gcol_regex *re, const char *replacement,
                   cudaStream_t stream, double *out_bytes) {
  gcol_column *out = NULL;
  gcol_status const st =
      gcol_strings_regex_replace(d->view, re, replacement, -1, -1, &out, (gcol_stream)stream, NULL);
  if (st != GCOL_OK) {
    fprintf(stderr, "replace_re: %s (%s)\n", gcol_status_string(st), gcol_last_error());
    return false;
  }
  bool const ok = check_string_rows(d, out, "replace_re", expect_replace_q, stream);
  if (ok) *out_bytes = output_bytes(gcol_column_get_view(out), stream);
  gcol_column_free(out);
  return ok;
}

/* The pieces of a row, as (begin, length) pairs into it; returns how many. */
typedef int32_t (*pieces_fn)(const char *row, int32_t len, int32_t *begin, int32_t *length);

/* re.findall("q[a-z]", row): non-overlapping, left to right. */
int32_t pieces_findall_q(const char *s, int32_t len, int32_t *begin, int32_t *length) {
  int32_t k = 0;
  for (int32_t p = 0; p < len;) {
    if (s[p] == 'q' && p + 1 < len && s[p + 1] >= 'a' && s[p + 1] <= 'z') {
      begin[k] = p;
      length[k++] = 2;
      p += 2;
    } else {
      ++p;
    }
  }
  return k;
}

/* re.split("[,;]", row) */
int32_t pieces_split_sep(const char *s, int32_t len, int32_t *begin, int32_t *length) {
  int32_t k = 0, start = 0;
  for (int32_t p = 0; p < len; ++p) {
    if (s[p] == ',' || s[p] == ';') {
      begin[k] = start;
      length[k++] = p - start;
      start = p + 1;
    }
  }
  begin[k] = start;
  length[k++] = len - start;
  return k;
}

/* Checks a LIST of STRING output's first rows against pieces(row) on the host. */
bool check_list_rows(const strings_data *d, gcol_column *out, const char *name, pieces_fn pieces,
                     int64_t trivial_total, cudaStream_t stream) {
  int64_t const rows = d->n < 100000 ? d->n : 100000;
  gcol_column_view const v = gcol_column_get_view(out);
  if (v.type.id != GCOL_LIST || v.num_children != 2) {
    fprintf(stderr, "%s: the output is not a LIST column\n", name);
    return false;
  }
  int64_t *lists = host_offsets_of(v.children[GCOL_OFFSETS_CHILD], rows + 1, stream);
  gcol_column_view values;
  gcol_host_strings *hs = NULL;
  GCOL_BENCH_CHECK(
      gcol_column_view_slice(v.children[GCOL_LIST_VALUES_CHILD], lists[0], lists[rows], &values));
  GCOL_BENCH_CHECK(gcol_column_strings_copy_to_host(values, (gcol_stream)stream, &hs));
  char *h = host_chars(d, rows);
  int32_t begin[64], length[64];
  int64_t total = 0;
  bool ok = true;
  for (int64_t i = 0; ok && i < rows; ++i) {
    int32_t const b = d->host_offsets[i];
    int32_t const k = pieces(h + b, d->host_offsets[i + 1] - b, begin, length);
    total += k;
    ok = lists[i + 1] - lists[i] == k;
    for (int32_t j = 0; ok && j < k; ++j) {
      int64_t const at = lists[i] - lists[0] + j;
      ok = hs->offsets[at + 1] - hs->offsets[at] == length[j] &&
           memcmp(hs->chars + hs->offsets[at], h + b + begin[j], (size_t)length[j]) == 0;
    }
    if (!ok) fprintf(stderr, "%s: row %lld differs\n", name, (long long)i);
  }
  if (ok && total == trivial_total) { /* no match in the sample */
    fprintf(stderr, "%s: the sample has no match; the check proves little\n", name);
    ok = false;
  }
  free(h);
  free(lists);
  gcol_host_strings_free(hs);
  return ok;
}

bool check_findall(const strings_data *d, const gcol_regex *re, cudaStream_t stream,
                   double *out_bytes) {
  gcol_column *out = NULL;
  gcol_status const st = gcol_strings_findall(d->view, re, &out, (gcol_stream)stream, NULL);
  if (st != GCOL_OK) {
    fprintf(stderr, "findall: %s (%s)\n", gcol_status_string(st), gcol_last_error());
    return false;
  }
  bool const ok = check_list_rows(d, out, "findall", pieces_findall_q, 0, stream);
  if (ok) *out_bytes = output_bytes(gcol_column_get_view(out), stream);
  gcol_column_free(out);
  return ok;
}

bool check_split(const strings_data *d, const gcol_regex *re, cudaStream_t stream,
                 double *out_bytes) {
  gcol_column *out = NULL;
  gcol_status const st =
      gcol_strings_split_record_re(d->view, re, -1, &out, (gcol_stream)stream, NULL);
  if (st != GCOL_OK) {
    fprintf(stderr, "split_record_re: %s (%s)\n", gcol_status_string(st), gcol_last_error());
    return false;
  }
  bool const ok = check_list_rows(d, out, "split_record_re", pieces_split_sep,
                                  d->n < 100000 ? d->n : 100000, stream);
  if (ok) *out_bytes = output_bytes(gcol_column_get_view(out), stream);
  gcol_column_free(out);
  return ok;
}

/* Times one row; false (with a message) when gcol's call failed. libcudf_ms <= 0: no
 * recorded libcudf figure (the peer script gives the same-run one). */
bool bench(const char *name, const strings_data *d, void (*fn)(void *), context *c,
           double out_bytes, double libcudf_ms) {
  double const in_bytes = (double)d->bytes + (double)(d->n + 1) * 4;
  double const moved = in_bytes + out_bytes;
  c->copy_bytes = (size_t)(moved / 2);
  if (c->copy_bytes > c->scratch_bytes) c->copy_bytes = c->scratch_bytes;
  c->status = GCOL_OK;
  c->error[0] = '\0';
  fn(c); /* one call first: a failing operation skips the row before the timing */
  GCOL_BENCH_CHECK(cudaStreamSynchronize(c->stream));
  gcol_bench_result r = {};
  r.bench = name;
  r.types = "string";
  r.rows = d->n;
  r.peer = "d2d copy of the bytes moved";
  if (c->status == GCOL_OK) r.gcol_ms = gcol_bench_time_ms(fn, c, (gcol_stream)c->stream);
  if (c->status != GCOL_OK) {
    fprintf(stderr, "%s: skipped: %s\n", name, c->error);
    return false;
  }
  r.peer_ms = gcol_bench_time_ms(run_copy, c, (gcol_stream)c->stream);
  r.bytes = moved;
  char note[200];
  if (libcudf_ms > 0) {
    snprintf(
        note, sizeof note,
        "chars %.1f GB/s; libcudf 26.10 on an H200 (reference, not this run): %.3f ms, ratio %.2f",
        (double)d->bytes / (r.gcol_ms * 1e6), libcudf_ms, libcudf_ms / r.gcol_ms);
  } else {
    snprintf(
        note, sizeof note,
        "chars %.1f GB/s; output %.3f GB; libcudf: bench/peers/libcudf_peer.py regex, same name",
        (double)d->bytes / (r.gcol_ms * 1e6), out_bytes / 1e9);
  }
  gcol_bench_report_more(&r, 0, note);
  return true;
}

int skip(const char *name) {
  fprintf(stderr, "%s: not measured\n", name);
  return 1;
}

/* Compiles a pattern; NULL (with a message) on failure. */
gcol_regex *compile(const char *pattern) {
  gcol_regex *re = NULL;
  gcol_status const st = gcol_regex_compile(pattern, -1, GCOL_REGEX_DEFAULT, &re);
  if (st != GCOL_OK) {
    fprintf(stderr, "regex \"%s\": %s (%s)\n", pattern, gcol_status_string(st), gcol_last_error());
    return NULL;
  }
  return re;
}

}  // namespace

int main(void) {
  const char *rows_env = getenv("GCOL_BENCH_ROWS");
  int64_t const short_rows = rows_env != NULL ? atoll(rows_env) : ((int64_t)1 << 24);
  int64_t const long_rows = rows_env != NULL ? atoll(rows_env) / 16 : ((int64_t)1 << 20);
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreate(&stream));
  gcol_bench_print_header();

  strings_data shorts = {}, longs = {}, separated = {};
  make_strings(short_rows, 8, 32, 5, stream, &shorts);
  make_strings(long_rows, 200, 1800, 9, stream, &longs);
  make_strings(short_rows, 8, 32, 7, stream, &separated);
  add_separators<<<4096, 256, 0, stream>>>((uint8_t *)separated.chars, separated.bytes, 77);
  GCOL_BENCH_CHECK(cudaGetLastError());
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
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
  c.scratch_bytes = scratch;
  GCOL_BENCH_CHECK(gcol_scalar_create_cstring("qz", &c.target));
  int failed = 0;

  c.d = &shorts;
  if (!check_contains(&shorts, c.target, stream) ||
      !bench("strings_contains_short", &shorts, run_contains, &c, (double)shorts.n, 0.661)) {
    failed += skip("strings_contains_short");
  }

  c.d = &longs;
  if (!check_contains(&longs, c.target, stream) ||
      !bench("strings_contains_long", &longs, run_contains, &c, (double)longs.n, 1.89)) {
    failed += skip("strings_contains_long");
  }

  c.d = &shorts;
  if (!check_upper(&shorts, stream) ||
      !bench("strings_upper", &shorts, run_upper, &c,
             (double)shorts.bytes + (double)(shorts.n + 1) * 4, 4.01)) {
    failed += skip("strings_upper");
  }

  /* Regular expressions: the same short rows (the separated ones for the split). */
  c.re = compile("[a-c]q+z");
  if (c.re == NULL || !check_regex_contains(&shorts, c.re, stream) ||
      !bench("strings_regex_contains", &shorts, run_regex_contains, &c, (double)shorts.n, 0)) {
    failed += skip("strings_regex_contains");
  }
  gcol_regex_free(c.re);

  double out_bytes = 0;
  c.re = compile("q[a-z]");
  if (c.re == NULL || !check_findall(&shorts, c.re, stream, &out_bytes) ||
      !bench("strings_findall", &shorts, run_findall, &c, out_bytes, 0)) {
    failed += skip("strings_findall");
  }
  gcol_regex_free(c.re);

  c.re = compile("[,;]");
  c.d = &separated;
  if (c.re == NULL || !check_split(&separated, c.re, stream, &out_bytes) ||
      !bench("strings_split_re_record", &separated, run_split_record_re, &c, out_bytes, 0)) {
    failed += skip("strings_split_re_record");
  }
  gcol_regex_free(c.re);

  c.re = compile("q+");
  c.replacement = "Q";
  c.d = &shorts;
  if (c.re == NULL || !check_replace(&shorts, c.re, c.replacement, stream, &out_bytes) ||
      !bench("strings_replace_re", &shorts, run_replace_re, &c, out_bytes, 0)) {
    failed += skip("strings_replace_re");
  }
  gcol_regex_free(c.re);

  gcol_scalar_free(c.target);
  GCOL_BENCH_CHECK(cudaFree(scratch_a));
  GCOL_BENCH_CHECK(cudaFree(scratch_b));
  free_strings(&shorts);
  free_strings(&longs);
  free_strings(&separated);
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  if (failed > 0) fprintf(stderr, "bench_strings: %d rows failed\n", failed);
  return failed > 0 ? 1 : 0;
}
