/*
 * CSV benchmark, on the data of bench/peers/libcudf_peer.py's csv group:
 *
 *   csv_read   2^22 rows of int64 (full range), float64 (uniform in [0, 1), written with 17
 *              digits), strings of 8..24 letters and bool, written by gcol_csv_write_buffer
 *              (header c0..c3, commas, "\n"), kept in pinned host memory and read back by
 *              gcol_csv_read_buffer with the four types given. Peer: one cudaMemcpyAsync of the
 *              text from the same pinned memory to the device (the floor of any reader of text
 *              in host memory).
 *   csv_write  the same table written by gcol_csv_write_buffer to host memory. Peer:
 *              cudaMemcpyAsync of the text's bytes from the device to pinned memory (the floor
 *              of a writer that formats on the GPU).
 *
 * The read is checked against the table written (every int64, double, bit for bit, and bool;
 * the strings of the first 100000 rows), which checks the writer too. A row that fails is
 * skipped with a message (the other still runs) and the program exits non-zero.
 *
 * GCOL_BENCH_ROWS sets the rows (default 2^22). GCOL_BENCH_CSV_FILE, when set, names a file
 * that receives the text, so that `bench/peers/libcudf_peer.py csv` (run with the same
 * variable) reads and writes the same bytes.
 *
 * Issue 14's row, on text others wrote, when GCOL_BENCH_CSV_INPUT names a file (DIR/io.csv of
 * `bench/data/make_io_files.py DIR`: about 4 GB of pyarrow's CSV, a header row, then int64,
 * float64, int32 and strings of 8..32 letters in double quotes):
 *
 *   csv_read_pyarrow_file_path  the same from the file's path (page cache), gcol_csv_read_file.
 *   csv_read_pyarrow_file  that text, read into pinned memory first, read by
 *                          gcol_csv_read_buffer with the header row and the four types given
 *                          (as `bench/peers/libcudf_peer.py io_files` has libcudf read it,
 *                          same row name). Peer: the H2D copy of the text. Not checked value
 *                          by value (the table it came from is pyarrow's): the read must
 *                          succeed with four columns.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gcol/io/csv.h"

typedef struct csv_ctx {
  gcol_table_view table;
  gcol_csv_read_options options;
  void *text; /* pinned copy of the text */
  int64_t text_size;
  void *device; /* text_size bytes */
  void *host;   /* pinned, text_size bytes */
  gcol_stream stream;
  const char *path;   /* of run_read_path */
  gcol_status status; /* the first failure of a timed call (GCOL_OK: none) */
  char error[256];
} csv_ctx;

static void record(csv_ctx *c, gcol_status st, const char *what) {
  if (st != GCOL_OK && c->status == GCOL_OK) {
    c->status = st;
    snprintf(c->error, sizeof c->error, "%s: %s (%s)", what, gcol_status_string(st),
             gcol_last_error());
  }
}

static void run_read(void *p) {
  csv_ctx *c = (csv_ctx *)p;
  gcol_table *t = NULL;
  record(c, gcol_csv_read_buffer(c->text, c->text_size, &c->options, &t, NULL, c->stream, NULL),
         "gcol_csv_read_buffer");
  gcol_table_free(t);
}

static void run_read_path(void *p) {
  csv_ctx *c = (csv_ctx *)p;
  gcol_table *t = NULL;
  record(c, gcol_csv_read_file(c->path, &c->options, &t, NULL, c->stream, NULL),
         "gcol_csv_read_file");
  gcol_table_free(t);
}

static void run_h2d(void *p) {
  csv_ctx *c = (csv_ctx *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->device, c->text, (size_t)c->text_size, cudaMemcpyHostToDevice,
                                   (cudaStream_t)c->stream));
}

static void run_write(void *p) {
  csv_ctx *c = (csv_ctx *)p;
  void *data = NULL;
  int64_t size = 0;
  record(c, gcol_csv_write_buffer(c->table, NULL, &data, &size, c->stream),
         "gcol_csv_write_buffer");
  gcol_csv_buffer_free(data);
}

static void run_d2h(void *p) {
  csv_ctx *c = (csv_ctx *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->host, c->device, (size_t)c->text_size, cudaMemcpyDeviceToHost,
                                   (cudaStream_t)c->stream));
}

/* Random bits to doubles uniform in [0, 1) (53 bits). */
static __global__ void unit_doubles(double *v, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    uint64_t bits;
    memcpy(&bits, &v[i], 8);
    v[i] = (double)(bits >> 11) * (1.0 / 9007199254740992.0);
  }
}

/* Random bytes to 0 or 1. */
static __global__ void bools_from_random(uint8_t *b, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    b[i] = (uint8_t)(b[i] & 1u);
  }
}

static gcol_column *random_fixed(gcol_type_id id, int64_t n, uint64_t seed, gcol_stream stream) {
  gcol_column *col = NULL;
  GCOL_BENCH_CHECK(
      gcol_column_create(gcol_data_type_make(id), n, GCOL_MASK_UNALLOCATED, stream, NULL, &col));
  gcol_bench_fill_random(col->data->data, (size_t)n * gcol_type_size(id), seed, stream);
  return col;
}

/* Compares the table read back with the one written; false (with a message) on a difference. */
static bool check_read(const csv_ctx *c, gcol_stream stream) {
  gcol_table *t = NULL;
  gcol_status const st =
      gcol_csv_read_buffer(c->text, c->text_size, &c->options, &t, NULL, stream, NULL);
  if (st != GCOL_OK) {
    fprintf(stderr, "csv_read: %s (%s)\n", gcol_status_string(st), gcol_last_error());
    return false;
  }
  gcol_table_view const got = gcol_table_get_view(t);
  int64_t const n = c->table.num_rows;
  bool ok = got.num_columns == 4 && got.num_rows == n;
  if (!ok) {
    fprintf(stderr, "csv_read: %d columns of %lld rows, want 4 of %lld\n", got.num_columns,
            (long long)got.num_rows, (long long)n);
  }
  for (int j = 0; ok && j < 4; ++j) {
    ok = got.columns[j].type.id == c->table.columns[j].type.id;
    if (!ok) fprintf(stderr, "csv_read: column %d has another type\n", j);
  }
  if (ok) {
    /* every value exactly: doubles too, bit for bit (17 digits, parsed correctly rounded) */
    int64_t *want = (int64_t *)malloc((size_t)n * 8), *have = (int64_t *)malloc((size_t)n * 8);
    for (int j = 0; ok && j < 4; ++j) {
      if (j == 2) continue; /* strings below */
      GCOL_BENCH_CHECK(gcol_column_copy_to_host(c->table.columns[j], want, NULL, stream));
      GCOL_BENCH_CHECK(gcol_column_copy_to_host(got.columns[j], have, NULL, stream));
      for (int64_t i = 0; ok && i < n; ++i) {
        if (j <= 1) {
          ok = want[i] == have[i]; /* int64, and the doubles' bits */
        } else {
          ok = (((const uint8_t *)want)[i] != 0) == (((const uint8_t *)have)[i] != 0);
        }
        if (!ok) fprintf(stderr, "csv_read: column %d row %lld differs\n", j, (long long)i);
      }
    }
    free(want);
    free(have);
  }
  if (ok) {
    int64_t const rows = n < 100000 ? n : 100000;
    gcol_column_view a, b;
    gcol_host_strings *ha = NULL, *hb = NULL;
    GCOL_BENCH_CHECK(gcol_column_view_slice(c->table.columns[2], 0, rows, &a));
    GCOL_BENCH_CHECK(gcol_column_view_slice(got.columns[2], 0, rows, &b));
    GCOL_BENCH_CHECK(gcol_column_strings_copy_to_host(a, stream, &ha));
    GCOL_BENCH_CHECK(gcol_column_strings_copy_to_host(b, stream, &hb));
    for (int64_t i = 0; ok && i < rows; ++i) {
      int64_t const len = ha->offsets[i + 1] - ha->offsets[i];
      ok = hb->valid[i] && hb->offsets[i + 1] - hb->offsets[i] == len &&
           memcmp(ha->chars + ha->offsets[i], hb->chars + hb->offsets[i], (size_t)len) == 0;
      if (!ok) fprintf(stderr, "csv_read: string row %lld differs\n", (long long)i);
    }
    gcol_host_strings_free(ha);
    gcol_host_strings_free(hb);
  }
  gcol_table_free(t);
  return ok;
}

/* Times gcol's call (after one call that must succeed) and the peer; false on failure. */
static bool time_row(gcol_bench_result *r, void (*fn)(void *), void (*peer)(void *), csv_ctx *c) {
  c->status = GCOL_OK;
  c->error[0] = '\0';
  fn(c);
  GCOL_BENCH_CHECK(cudaStreamSynchronize((cudaStream_t)c->stream));
  if (c->status == GCOL_OK) r->gcol_ms = gcol_bench_time_ms(fn, c, c->stream);
  if (c->status != GCOL_OK) {
    fprintf(stderr, "%s: skipped: %s\n", r->bench, c->error);
    return false;
  }
  r->peer_ms = gcol_bench_time_ms(peer, c, c->stream);
  return true;
}

static int bench_csv(int64_t n, gcol_stream stream) {
  gcol_column *cols[3];
  cols[0] = random_fixed(GCOL_INT64, n, 61, stream);
  cols[1] = random_fixed(GCOL_FLOAT64, n, 62, stream);
  cols[2] = random_fixed(GCOL_BOOL8, n, 63, stream);
  unit_doubles<<<1024, 256, 0, (cudaStream_t)stream>>>((double *)cols[1]->data->data, n);
  GCOL_BENCH_CHECK(cudaGetLastError());
  bools_from_random<<<1024, 256, 0, (cudaStream_t)stream>>>((uint8_t *)cols[2]->data->data, n);
  GCOL_BENCH_CHECK(cudaGetLastError());
  int64_t *keys = NULL;
  GCOL_BENCH_CHECK(cudaMalloc(&keys, (size_t)n * 8));
  gcol_bench_fill_random(keys, (size_t)n * 8, 64, stream);
  gcol_bench_strings strings;
  gcol_bench_strings_make(keys, n, stream, &strings);
  GCOL_BENCH_CHECK(cudaStreamSynchronize((cudaStream_t)stream));
  gcol_column_view views[4];
  views[0] = gcol_column_get_view(cols[0]);
  views[1] = gcol_column_get_view(cols[1]);
  views[2] = strings.view;
  views[3] = gcol_column_get_view(cols[2]);
  csv_ctx c;
  memset(&c, 0, sizeof c);
  c.stream = stream;
  GCOL_BENCH_CHECK(gcol_table_view_make(views, 4, &c.table));
  gcol_data_type const types[4] = {
      gcol_data_type_make(GCOL_INT64), gcol_data_type_make(GCOL_FLOAT64),
      gcol_data_type_make(GCOL_STRING), gcol_data_type_make(GCOL_BOOL8)};
  gcol_csv_read_options_init(&c.options);
  c.options.column_types = types;
  c.options.num_column_types = 4;

  int failed = 0;
  void *text = NULL;
  gcol_status const st = gcol_csv_write_buffer(c.table, NULL, &text, &c.text_size, stream);
  if (st != GCOL_OK) {
    fprintf(stderr, "csv_read, csv_write: not measured: gcol_csv_write_buffer: %s (%s)\n",
            gcol_status_string(st), gcol_last_error());
    failed = 2;
  } else {
    GCOL_BENCH_CHECK(cudaMallocHost(&c.text, (size_t)c.text_size));
    memcpy(c.text, text, (size_t)c.text_size);
    gcol_csv_buffer_free(text);
    const char *path = getenv("GCOL_BENCH_CSV_FILE");
    if (path != NULL) {
      FILE *f = fopen(path, "wb");
      if (f == NULL || fwrite(c.text, 1, (size_t)c.text_size, f) != (size_t)c.text_size) {
        fprintf(stderr, "bench_csv: could not write %s (the peer script will make its own)\n",
                path);
      }
      if (f != NULL) fclose(f);
    }
    GCOL_BENCH_CHECK(cudaMalloc(&c.device, (size_t)c.text_size));
    GCOL_BENCH_CHECK(cudaMallocHost(&c.host, (size_t)c.text_size));
    gcol_bench_fill_random(c.device, (size_t)c.text_size, 65, stream);
    int32_t last = 0;
    GCOL_BENCH_CHECK(cudaMemcpy(&last, strings.offsets + n, 4, cudaMemcpyDeviceToHost));
    double const table_bytes = (double)n * (8 + 8 + 4 + 1) + 4 + (double)last;

    char note[256];
    gcol_bench_result r;
    memset(&r, 0, sizeof r);
    r.types = "int64, float64, string[8..24], bool8";
    r.rows = n;
    r.bytes = 0; /* host <-> device: the D2D floor does not apply */

    r.bench = "csv_read";
    r.peer = "H2D copy of the text from pinned memory";
    if (check_read(&c, stream) && time_row(&r, run_read, run_h2d, &c)) {
      snprintf(note, sizeof note,
               "text %.3f GB, table %.3f GB: %.2f GB/s of text; types given; libcudf: "
               "bench/peers/libcudf_peer.py csv",
               (double)c.text_size / 1e9, table_bytes / 1e9, (double)c.text_size / 1e6 / r.gcol_ms);
      gcol_bench_report_more(&r, 0, note);
    } else {
      fprintf(stderr, "csv_read: not measured\n");
      ++failed;
    }

    r.bench = "csv_write";
    r.peer = "D2H copy of the text to pinned memory";
    if (time_row(&r, run_write, run_d2h, &c)) {
      snprintf(note, sizeof note,
               "text %.3f GB: %.2f GB/s of text written; libcudf: bench/peers/libcudf_peer.py csv",
               (double)c.text_size / 1e9, (double)c.text_size / 1e6 / r.gcol_ms);
      gcol_bench_report_more(&r, 0, note);
    } else {
      fprintf(stderr, "csv_write: not measured\n");
      ++failed;
    }
    GCOL_BENCH_CHECK(cudaFreeHost(c.text));
    GCOL_BENCH_CHECK(cudaFreeHost(c.host));
    GCOL_BENCH_CHECK(cudaFree(c.device));
  }
  GCOL_BENCH_CHECK(cudaFree(keys));
  gcol_bench_strings_free(&strings);
  for (int j = 0; j < 3; ++j) gcol_column_free(cols[j]);
  return failed;
}

/* csv_read_pyarrow_file_path: the same read from the file's path, its bytes in the page cache
 * (gcol_csv_read_file); the peer is libcudf's read of the path. 1 on failure, else 0. */
static int time_path_read(const gcol_bench_result *pinned, csv_ctx *c, const char *path) {
  gcol_bench_result r = *pinned;
  r.bench = "csv_read_pyarrow_file_path";
  r.peer = "-";
  r.peer_ms = 0;
  c->path = path;
  c->status = GCOL_OK;
  r.gcol_ms = gcol_bench_time_ms(run_read_path, c, c->stream);
  if (c->status != GCOL_OK) {
    fprintf(stderr, "%s: skipped: %s\n", r.bench, c->error);
    return 1;
  }
  char note[256];
  snprintf(note, sizeof note,
           "text %.3f GB from its path (page cache): %.2f GB/s of text; header row, types "
           "given; libcudf: bench/peers/libcudf_peer.py io_files",
           (double)c->text_size / 1e9, (double)c->text_size / 1e6 / r.gcol_ms);
  gcol_bench_report_more(&r, 0, note);
  return 0;
}

/* csv_read_pyarrow_file: the text at `path` (bench/data/make_io_files.py's io.csv: a header,
 * then int64, float64, int32 and quoted strings), read from pinned memory with the header row
 * and the four types given, as libcudf_peer.py's io_files group reads it. Returns 1 on
 * failure (with a message), else 0. */
static int bench_csv_input(const char *path, gcol_stream stream) {
  csv_ctx c;
  memset(&c, 0, sizeof c);
  c.stream = stream;
  gcol_data_type const types[4] = {
      gcol_data_type_make(GCOL_INT64), gcol_data_type_make(GCOL_FLOAT64),
      gcol_data_type_make(GCOL_INT32), gcol_data_type_make(GCOL_STRING)};
  gcol_csv_read_options_init(&c.options); /* has_header: true */
  c.options.column_types = types;
  c.options.num_column_types = 4;
  if (!gcol_bench_read_file_pinned(path, &c.text, &c.text_size)) {
    fprintf(stderr, "csv_read_pyarrow_file: not measured\n");
    return 1;
  }
  /* one read first, for the rows in the report (and a clear message if the text is not the
   * expected four columns) */
  gcol_table *t = NULL;
  gcol_status const st =
      gcol_csv_read_buffer(c.text, c.text_size, &c.options, &t, NULL, stream, NULL);
  int failed = 0;
  gcol_bench_result r;
  memset(&r, 0, sizeof r);
  r.bench = "csv_read_pyarrow_file";
  r.types = "int64, float64, int32, string[8..32] quoted (pyarrow's text)";
  r.peer = "H2D copy of the text from pinned memory";
  r.rows = t != NULL ? t->num_rows : 0;
  gcol_table_free(t);
  if (st != GCOL_OK) {
    fprintf(stderr, "csv_read_pyarrow_file: %s: %s (%s)\n", path, gcol_status_string(st),
            gcol_last_error());
    failed = 1;
  } else {
    GCOL_BENCH_CHECK(cudaMalloc(&c.device, (size_t)c.text_size));
    if (time_row(&r, run_read, run_h2d, &c)) {
      char note[256];
      snprintf(note, sizeof note,
               "text %.3f GB: %.2f GB/s of text; header row, types given; libcudf: "
               "bench/peers/libcudf_peer.py io_files",
               (double)c.text_size / 1e9, (double)c.text_size / 1e6 / r.gcol_ms);
      gcol_bench_report_more(&r, 0, note);
      failed += time_path_read(&r, &c, path);
    } else {
      failed = 1;
    }
    GCOL_BENCH_CHECK(cudaFree(c.device));
  }
  if (failed) fprintf(stderr, "csv_read_pyarrow_file: not measured\n");
  GCOL_BENCH_CHECK(cudaFreeHost(c.text));
  return failed;
}

int main(void) {
  const char *rows_env = getenv("GCOL_BENCH_ROWS");
  int64_t const n = rows_env != NULL ? atoll(rows_env) : ((int64_t)1 << 22);
  const char *input = getenv("GCOL_BENCH_CSV_INPUT");
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  gcol_bench_print_header();
  int failed = bench_csv(n, (gcol_stream)stream);
  if (input != NULL && input[0] != '\0') failed += bench_csv_input(input, (gcol_stream)stream);
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  if (failed > 0) fprintf(stderr, "bench_csv: %d rows failed\n", failed);
  return failed > 0 ? 1 : 0;
}
