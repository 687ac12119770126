/*
 * Parquet benchmark (part 1: uncompressed PLAIN files; the issue's snappy/ZSTD rows against
 * libcudf come with compression):
 *
 *   parquet_read_plain   2^24 rows of int64, float64, int32 (random nulls) and strings of 8..24
 *                        bytes, written by gcol's writer (PLAIN, uncompressed, row groups of
 *                        2^20 rows), read from pinned host memory into a table. Peer: one
 *                        cudaMemcpyAsync of the file's bytes from the same pinned memory to the
 *                        device (the floor of any reader of a file in host memory).
 *   parquet_write_plain  the same table written to host memory (pages encoded on the GPU,
 *                        headers and bodies copied once into the malloc'd file). Peer:
 *                        cudaMemcpyAsync of the table's bytes device to pinned host.
 *   parquet_write_dict_adaptive / _always  the same with options.dictionary ADAPTIVE (random
 *                        values: distinct counted, every chunk PLAIN) and ALWAYS (every chunk
 *                        but a boolean's dictionary-encoded, dictionaries as large as chunks).
 *
 * Each row also prints GB/s of file bytes and of decoded (column) bytes. The reader scans page
 * headers on the host (no copy of a buffer's uncompressed chunks), copies all the columns'
 * chunks to the device at once (from the pinned file directly, the page tables through one
 * staging buffer), decodes a page per block (run headers by one thread, values
 * expanded by the block; byte-array lengths walked in shared memory) and synchronizes twice
 * per read (page errors and valid counts; string totals).
 *
 *   parquet_read_snappy  the same table written by gcol's writer with SNAPPY (data pages v1 of
 *   parquet_read_zstd    64Ki rows, no dictionary; the issue's pyarrow files are the _pyarrow
 *                        rows below), read from pinned memory: pages decompressed by nvCOMP on
 *                        the GPU (found at run time: GCOL_NVCOMP_PATH, see docs/design.md)
 *                        against the same read with options.untrusted (the host libraries).
 *                        Without nvCOMP both columns time the host path.
 *
 * Issue 14's rows, on files others wrote, when GCOL_BENCH_PARQUET_DIR names the DIR of
 * `bench/data/make_io_files.py DIR` (pyarrow: 2^27 rows of int64, float64, int32 in [0, 1000)
 * dictionary-encoded, strings of 8..32 letters; row groups of 2^20, pyarrow's pages):
 *
 *   parquet_read_snappy_pyarrow  DIR/io_snappy.parquet from pinned memory, default options
 *   parquet_read_zstd_pyarrow    (nvCOMP when found); with GCOL_BENCH_PARQUET_HOST_PATH set,
 *                                against the same read with options.untrusted (pages
 *                                decompressed by the host libraries, one thread: minutes at
 *                                2^27 rows). The note gives file and decoded GB and GB/s, and
 *                                whether nvCOMP was found.
 *   parquet_write_snappy_pyarrow the table read from the snappy file written by gcol with
 *                                SNAPPY to host memory, against the D2H copy of its bytes.
 *   ..._pyarrow_path             each of the three reads from the file's path instead, its
 *                                bytes in the page cache (gcol_parquet_read_file).
 *   parquet_read_nested_pyarrow  DIR/io_nested.parquet (make_io_files.py --only nested: 2^25
 *                                rows of list<int64> and struct<int32, float64>, nulls at
 *                                every level, SNAPPY), as the reads above; "files-nested" only.
 *
 * libcudf reads and writes the same files in `bench/peers/libcudf_peer.py io_files` and
 * `io_nested` (same row names, same variable).
 *
 * Usage: bench_parquet [scale_shift | files | files-read | files-write | files-nested]  (a positive
 * shift divides the 2^24 rows by 2^shift; "files" runs only the three rows on
 * GCOL_BENCH_PARQUET_DIR, "files-read" / "files-write" only its reads / its write: at 2^27 rows the
 * host-path peers and gcol's snappy write, compressed on one host thread, take minutes, more than
 * one device call of 10 minutes may hold with the default GCOL_BENCH_REPS).
 * GCOL_BENCH_PARQUET_FILE, when set, names a file that receives gcol's file (the peer script
 * reads it with libcudf too: row parquet_read_plain_gcol_file), and FILE.snappy / FILE.zstd
 * the compressed ones (rows parquet_read_snappy / parquet_read_zstd of the peer script).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gcol/io/parquet.h"
#include "internal/parquet.h" /* gcol_detail_nvcomp_get: the only way to ask what was found */

/* Writes a file gcol wrote to GCOL_BENCH_PARQUET_FILE + suffix, when that is set: the peer
 * script reads the same bytes with libcudf. */
static void save_for_peer(const void *file, int64_t size, const char *suffix) {
  const char *base = getenv("GCOL_BENCH_PARQUET_FILE");
  if (base == NULL) return;
  char path[4096];
  snprintf(path, sizeof path, "%s%s", base, suffix);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(file, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "bench_parquet: could not write %s\n", path);
  }
  if (f != NULL) fclose(f);
}

typedef struct pq_ctx {
  gcol_table_view table;
  void *file; /* pinned copy of the file */
  int64_t file_size;
  void *device;
  void *host; /* pinned, table bytes */
  size_t table_bytes;
  gcol_stream stream;
  const gcol_parquet_read_options *options;        /* of run_read */
  const gcol_parquet_write_options *write_options; /* of run_write */
  const char *path;                                /* of run_read_path */
} pq_ctx;

static void run_read(void *p) {
  pq_ctx *c = (pq_ctx *)p;
  gcol_table *t = NULL;
  GCOL_BENCH_CHECK(
      gcol_parquet_read_buffer(c->file, c->file_size, c->options, &t, c->stream, NULL));
  gcol_table_free(t);
}

static void run_read_path(void *p) {
  pq_ctx *c = (pq_ctx *)p;
  gcol_table *t = NULL;
  GCOL_BENCH_CHECK(gcol_parquet_read_file(c->path, c->options, &t, c->stream, NULL));
  gcol_table_free(t);
}

static void run_h2d(void *p) {
  pq_ctx *c = (pq_ctx *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->device, c->file, (size_t)c->file_size, cudaMemcpyHostToDevice,
                                   (cudaStream_t)c->stream));
}

static void run_write(void *p) {
  pq_ctx *c = (pq_ctx *)p;
  void *data = NULL;
  int64_t size = 0;
  GCOL_BENCH_CHECK(gcol_parquet_write_buffer(c->table, c->write_options, &data, &size, c->stream));
  gcol_parquet_buffer_free(data);
}

static void run_d2h(void *p) {
  pq_ctx *c = (pq_ctx *)p;
  GCOL_BENCH_CHECK(cudaMemcpyAsync(c->host, c->device, c->table_bytes, cudaMemcpyDeviceToHost,
                                   (cudaStream_t)c->stream));
}

static gcol_column *random_fixed(gcol_type_id id, int64_t n, uint64_t seed, gcol_stream stream) {
  gcol_column *col = NULL;
  GCOL_BENCH_CHECK(
      gcol_column_create(gcol_data_type_make(id), n, GCOL_MASK_UNALLOCATED, stream, NULL, &col));
  gcol_bench_fill_random(col->data->data, (size_t)n * gcol_type_size(id), seed, stream);
  return col;
}

static void bench_parquet(int64_t n, gcol_stream stream) {
  gcol_column *cols[3];
  cols[0] = random_fixed(GCOL_INT64, n, 51, stream);
  cols[1] = random_fixed(GCOL_FLOAT64, n, 52, stream);
  cols[2] = random_fixed(GCOL_INT32, n, 53, stream);
  /* floats: random bits include NaNs, which the writer's statistics skip: fine */
  gcol_buffer *mask = NULL;
  int64_t nulls = 0;
  GCOL_BENCH_CHECK(gcol_bitmask_create(n, GCOL_MASK_ALL_VALID, stream, NULL, &mask));
  gcol_bench_fill_random(mask->data, (size_t)gcol_bit_num_words(n) * 4, 54, stream);
  GCOL_BENCH_CHECK(
      gcol_bitmask_count_unset_bits((const uint32_t *)mask->data, 0, n, stream, &nulls));
  GCOL_BENCH_CHECK(gcol_column_set_null_mask(cols[2], mask, nulls));
  int64_t *keys = NULL;
  GCOL_BENCH_CHECK(cudaMalloc(&keys, (size_t)n * 8));
  gcol_bench_fill_random(keys, (size_t)n * 8, 55, stream);
  gcol_bench_strings strings;
  gcol_bench_strings_make(keys, n, stream, &strings);
  gcol_column_view views[4];
  for (int j = 0; j < 3; ++j) views[j] = gcol_column_get_view(cols[j]);
  views[3] = strings.view;
  pq_ctx c;
  memset(&c, 0, sizeof c);
  c.stream = stream;
  GCOL_BENCH_CHECK(gcol_table_view_make(views, 4, &c.table));

  void *file = NULL;
  GCOL_BENCH_CHECK(gcol_parquet_write_buffer(c.table, NULL, &file, &c.file_size, stream));
  GCOL_BENCH_CHECK(cudaMallocHost(&c.file, (size_t)c.file_size));
  memcpy(c.file, file, (size_t)c.file_size);
  gcol_parquet_buffer_free(file);
  save_for_peer(c.file, c.file_size, "");
  int32_t last = 0;
  GCOL_BENCH_CHECK(cudaMemcpy(&last, strings.offsets + n, 4, cudaMemcpyDeviceToHost));
  c.table_bytes = (size_t)n * (8 + 8 + 4 + 4) + (size_t)last + (size_t)gcol_bit_num_words(n) * 4;
  size_t const big = c.table_bytes > (size_t)c.file_size ? c.table_bytes : (size_t)c.file_size;
  GCOL_BENCH_CHECK(cudaMalloc(&c.device, big));
  GCOL_BENCH_CHECK(cudaMallocHost(&c.host, big));
  gcol_bench_fill_random(c.device, big, 56, stream);

  char note[256];
  gcol_bench_result r;
  r.types = "int64, float64, int32 nullable, string[8..24]";
  r.rows = n;
  r.bytes = 0; /* host <-> device: the D2D floor does not apply */

  r.bench = "parquet_read_plain";
  r.peer = "H2D copy of the file from pinned memory";
  r.gcol_ms = gcol_bench_time_ms(run_read, &c, stream);
  r.peer_ms = gcol_bench_time_ms(run_h2d, &c, stream);
  snprintf(note, sizeof note, "file %.3f GB, decoded %.3f GB: %.2f GB/s of file, %.2f GB/s decoded",
           (double)c.file_size / 1e9, (double)c.table_bytes / 1e9,
           (double)c.file_size / 1e6 / r.gcol_ms, (double)c.table_bytes / 1e6 / r.gcol_ms);
  gcol_bench_report_more(&r, 0, note);
  printf("%s: %s\n", r.bench, note);

  r.bench = "parquet_write_plain";
  r.peer = "D2H copy of the table's bytes to pinned memory";
  r.gcol_ms = gcol_bench_time_ms(run_write, &c, stream);
  r.peer_ms = gcol_bench_time_ms(run_d2h, &c, stream);
  snprintf(note, sizeof note, "file %.3f GB: %.2f GB/s of file written", (double)c.file_size / 1e9,
           (double)c.file_size / 1e6 / r.gcol_ms);
  gcol_bench_report_more(&r, 0, note);
  printf("%s: %s\n", r.bench, note);

  /* the same write with dictionaries: random values, so ADAPTIVE counts every chunk's distinct
   * values and falls back to PLAIN (the cost of deciding), ALWAYS encodes every chunk but with
   * a dictionary as large as the chunk (the dictionary path's worst case) */
  gcol_parquet_dictionary const policies[] = {GCOL_PARQUET_DICTIONARY_ADAPTIVE,
                                              GCOL_PARQUET_DICTIONARY_ALWAYS};
  const char *const dict_names[] = {"parquet_write_dict_adaptive", "parquet_write_dict_always"};
  for (int k = 0; k < 2; ++k) {
    gcol_parquet_write_options dict_options;
    gcol_parquet_write_options_init(&dict_options);
    dict_options.dictionary = policies[k];
    c.write_options = &dict_options;
    r.bench = dict_names[k];
    r.gcol_ms = gcol_bench_time_ms(run_write, &c, stream);
    r.peer_ms = gcol_bench_time_ms(run_d2h, &c, stream);
    snprintf(note, sizeof note, "PLAIN file %.3f GB: %.2f GB/s of it", (double)c.file_size / 1e9,
             (double)c.file_size / 1e6 / r.gcol_ms);
    gcol_bench_report_more(&r, 0, note);
    printf("%s: %s\n", r.bench, note);
    c.write_options = NULL;
  }

  GCOL_BENCH_CHECK(cudaFreeHost(c.file));
  c.file = NULL;

  /* the same table compressed (gcol's writer, pages compressed on the host): read with
   * nvCOMP on the GPU when it is found, against the host path (options.untrusted) */
  gcol_parquet_codec const codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD};
  const char *const names[] = {"parquet_read_snappy", "parquet_read_zstd"};
  const char *const suffixes[] = {".snappy", ".zstd"};
  gcol_parquet_read_options host_path;
  gcol_parquet_read_options_init(&host_path);
  host_path.untrusted = true;
  for (int k = 0; k < 2; ++k) {
    gcol_parquet_write_options wopt;
    gcol_parquet_write_options_init(&wopt);
    wopt.codec = codecs[k];
    gcol_status const st = gcol_parquet_write_buffer(c.table, &wopt, &file, &c.file_size, stream);
    if (st != GCOL_OK) { /* the host library that compresses is missing */
      printf("%s: skipped (%s)\n", names[k], gcol_last_error());
      continue;
    }
    GCOL_BENCH_CHECK(cudaMallocHost(&c.file, (size_t)c.file_size));
    memcpy(c.file, file, (size_t)c.file_size);
    gcol_parquet_buffer_free(file);
    save_for_peer(c.file, c.file_size, suffixes[k]);
    r.bench = names[k];
    r.peer = "gcol with pages decompressed on the host (options.untrusted)";
    c.options = NULL;
    r.gcol_ms = gcol_bench_time_ms(run_read, &c, stream);
    c.options = &host_path;
    r.peer_ms = gcol_bench_time_ms(run_read, &c, stream);
    c.options = NULL;
    snprintf(note, sizeof note,
             "file %.3f GB, decoded %.3f GB: %.2f GB/s of file, %.2f GB/s decoded (%s)",
             (double)c.file_size / 1e9, (double)c.table_bytes / 1e9,
             (double)c.file_size / 1e6 / r.gcol_ms, (double)c.table_bytes / 1e6 / r.gcol_ms,
             getenv("GCOL_NVCOMP") != NULL ? "GCOL_NVCOMP set" : "nvCOMP if found");
    gcol_bench_report_more(&r, 0, note);
    printf("%s: %s\n", r.bench, note);
    GCOL_BENCH_CHECK(cudaFreeHost(c.file));
    c.file = NULL;
  }
  GCOL_BENCH_CHECK(cudaFreeHost(c.host));
  GCOL_BENCH_CHECK(cudaFree(c.device));
  GCOL_BENCH_CHECK(cudaFree(keys));
  gcol_bench_strings_free(&strings);
  for (int j = 0; j < 3; ++j) gcol_column_free(cols[j]);
}

/* ---- the issue's rows on pyarrow's files (GCOL_BENCH_PARQUET_DIR) ---- */

/* gcol_bench_report_more writes the note into a JSON string as it is: no quotes, backslashes
 * or control bytes (a dlerror message in nvCOMP's "why" could hold them). */
static void json_safe(char *s) {
  for (; *s != '\0'; ++s) {
    if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20) *s = '\'';
  }
}

/* The decoded bytes of a column read whole: values, string and list offsets, string chars,
 * null masks, a list's or struct's children. */
static double column_bytes(gcol_column_view v, gcol_stream stream) {
  double bytes = v.null_mask != NULL ? (double)gcol_bit_num_words(v.size) * 4 : 0;
  if (v.type.id == GCOL_STRUCT) {
    for (int32_t k = 0; k < v.num_children; ++k) bytes += column_bytes(v.children[k], stream);
    return bytes;
  }
  if (v.type.id != GCOL_STRING && v.type.id != GCOL_LIST) {
    return bytes + (double)v.size * (double)gcol_type_size(v.type.id);
  }
  size_t const width = gcol_type_size(v.children[0].type.id); /* INT32, or INT64 past 2^31 */
  bytes += (double)(v.size + 1) * (double)width;
  if (v.type.id == GCOL_LIST) return bytes + column_bytes(v.children[1], stream);
  int64_t begin = 0, end = 0;
  GCOL_BENCH_CHECK(gcol_strings_view_chars_range(v, stream, &begin, &end));
  return bytes + (double)(end - begin);
}

static double table_bytes(gcol_table_view t, gcol_stream stream) {
  double bytes = 0;
  for (int32_t j = 0; j < t.num_columns; ++j) bytes += column_bytes(t.columns[j], stream);
  return bytes;
}

/* Whether the reader's default path decompresses `codec` with nvCOMP, in words for the note
 * (without it, both columns of the read rows time the host libraries). */
static void nvcomp_words(gcol_parquet_codec codec, char *out, size_t size) {
  const gcol_detail_nvcomp *lib = gcol_detail_nvcomp_get();
  const char *file = strrchr(lib->file, '/');
  file = file != NULL ? file + 1 : lib->file;
  if ((lib->codecs >> (unsigned)codec & 1u) != 0) {
    snprintf(out, size, "nvCOMP %d.%d.%d found (%s)", lib->version / 1000, lib->version / 100 % 10,
             lib->version % 100, file);
  } else if (lib->codecs != 0) {
    snprintf(out, size, "nvCOMP %d.%d.%d found without this codec: host path on both sides",
             lib->version / 1000, lib->version / 100 % 10, lib->version % 100);
  } else {
    snprintf(out, size, "nvCOMP not found (%s): host path on both sides", lib->why);
  }
  json_safe(out);
}

/* Reads DIR/NAME into pinned memory (c->file) and reads it once with the default options,
 * which must succeed before anything is timed; *out gets that table. False, with a message,
 * when the file is missing or the read fails. */
static bool load_file(const char *dir, const char *name, pq_ctx *c, gcol_table **out) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (!gcol_bench_read_file_pinned(path, &c->file, &c->file_size)) return false;
  gcol_status const st =
      gcol_parquet_read_buffer(c->file, c->file_size, NULL, out, c->stream, NULL);
  if (st != GCOL_OK) {
    fprintf(stderr, "%s: %s (%s)\n", path, gcol_status_string(st), gcol_last_error());
    GCOL_BENCH_CHECK(cudaFreeHost(c->file));
    c->file = NULL;
    return false;
  }
  return true;
}

/* parquet_read_{snappy,zstd}_pyarrow: the default read (nvCOMP when found) against the same
 * read with options.untrusted (pages decompressed by the host libraries), as the rows on
 * gcol's own compressed files. */
static void time_file_read(const char *bench, const char *types, gcol_parquet_codec codec,
                           pq_ctx *c, int64_t rows, double decoded) {
  gcol_parquet_read_options host_path;
  gcol_parquet_read_options_init(&host_path);
  host_path.untrusted = true;
  gcol_bench_result r;
  memset(&r, 0, sizeof r);
  r.bench = bench;
  r.types = types;
  r.rows = rows;
  c->options = NULL;
  r.gcol_ms = gcol_bench_time_ms(run_read, c, c->stream);
  /* the host path takes minutes at 2^27 rows: timed on request only */
  bool const host = getenv("GCOL_BENCH_PARQUET_HOST_PATH") != NULL;
  r.peer = host ? "gcol with pages decompressed on the host (options.untrusted)" : "-";
  if (host) {
    c->options = &host_path;
    r.peer_ms = gcol_bench_time_ms(run_read, c, c->stream);
    c->options = NULL;
  }
  char nvcomp[768], note[1024];
  nvcomp_words(codec, nvcomp, sizeof nvcomp);
  snprintf(note, sizeof note,
           "pyarrow's file %.3f GB, decoded %.3f GB: %.2f GB/s of file, %.2f GB/s decoded; "
           "host path %.2f GB/s of file; %s; libcudf: bench/peers/libcudf_peer.py io_files",
           (double)c->file_size / 1e9, decoded / 1e9, (double)c->file_size / 1e6 / r.gcol_ms,
           decoded / 1e6 / r.gcol_ms, host ? (double)c->file_size / 1e6 / r.peer_ms : 0.0,
           nvcomp);
  gcol_bench_report_more(&r, 0, note);
  printf("%s: %s\n", r.bench, note);
}

/* parquet_read_{snappy,zstd}_pyarrow_path: the same file read from its path, its bytes in the
 * page cache (read just before), default options; the peer is libcudf's read of the path. */
static void time_path_read(const char *bench, const char *types, pq_ctx *c, int64_t rows,
                           double decoded) {
  gcol_bench_result r;
  memset(&r, 0, sizeof r);
  char name[128];
  snprintf(name, sizeof name, "%s_path", bench);
  r.bench = name;
  r.types = types;
  r.rows = rows;
  r.peer = "-";
  c->options = NULL;
  r.gcol_ms = gcol_bench_time_ms(run_read_path, c, c->stream);
  char note[512];
  snprintf(note, sizeof note,
           "pyarrow's file %.3f GB from its path (page cache), decoded %.3f GB: %.2f GB/s of "
           "file, %.2f GB/s decoded; libcudf: bench/peers/libcudf_peer.py io_files",
           (double)c->file_size / 1e9, decoded / 1e9, (double)c->file_size / 1e6 / r.gcol_ms,
           decoded / 1e6 / r.gcol_ms);
  gcol_bench_report_more(&r, 0, note);
  printf("%s: %s\n", r.bench, note);
}

/* parquet_write_snappy_pyarrow: the table read from pyarrow's snappy file written by gcol with
 * SNAPPY (pages encoded on the GPU, compressed on the host) to host memory, against the D2H
 * copy of as many bytes as the table holds. */
static void time_file_write(const gcol_table *t, double decoded, gcol_stream stream) {
  pq_ctx c;
  memset(&c, 0, sizeof c);
  c.stream = stream;
  c.table = gcol_table_get_view(t);
  gcol_parquet_write_options wopt;
  gcol_parquet_write_options_init(&wopt);
  wopt.codec = GCOL_PARQUET_SNAPPY;
  c.write_options = &wopt;
  void *file = NULL;
  gcol_status const st = gcol_parquet_write_buffer(c.table, &wopt, &file, &c.file_size, stream);
  if (st != GCOL_OK) {
    printf("parquet_write_snappy_pyarrow: skipped (%s)\n", gcol_last_error());
    return;
  }
  gcol_parquet_buffer_free(file);
  c.table_bytes = (size_t)decoded;
  GCOL_BENCH_CHECK(cudaMalloc(&c.device, c.table_bytes));
  GCOL_BENCH_CHECK(cudaMallocHost(&c.host, c.table_bytes));
  gcol_bench_fill_random(c.device, c.table_bytes, 57, stream);
  gcol_bench_result r;
  memset(&r, 0, sizeof r);
  r.bench = "parquet_write_snappy_pyarrow";
  r.types = "int64, float64, int32, string[8..32] (read from pyarrow's snappy file)";
  r.rows = c.table.num_rows;
  r.peer = "D2H copy of the table's bytes to pinned memory";
  r.gcol_ms = gcol_bench_time_ms(run_write, &c, stream);
  r.peer_ms = gcol_bench_time_ms(run_d2h, &c, stream);
  char note[512];
  snprintf(note, sizeof note,
           "gcol's file %.3f GB (PLAIN, SNAPPY, row groups of 2^20), table %.3f GB: %.2f GB/s of "
           "file written, %.2f GB/s of table; libcudf: bench/peers/libcudf_peer.py io_files",
           (double)c.file_size / 1e9, decoded / 1e9, (double)c.file_size / 1e6 / r.gcol_ms,
           decoded / 1e6 / r.gcol_ms);
  gcol_bench_report_more(&r, 0, note);
  printf("%s: %s\n", r.bench, note);
  GCOL_BENCH_CHECK(cudaFreeHost(c.host));
  GCOL_BENCH_CHECK(cudaFree(c.device));
}

/* The two reads (`reads`), and the write of the table read from the snappy file (`write`);
 * `nested`: only the read of the nested file. */
static void bench_pyarrow_files(const char *dir, bool reads, bool write, bool nested,
                                gcol_stream stream) {
  static const char *const files[] = {"io_snappy.parquet", "io_zstd.parquet", "io_nested.parquet"};
  static const char *const benches[] = {"parquet_read_snappy_pyarrow", "parquet_read_zstd_pyarrow",
                                        "parquet_read_nested_pyarrow"};
  static const char *const types[] = {
      "int64, float64, int32 dictionary, string[8..32] (pyarrow)",
      "int64, float64, int32 dictionary, string[8..32] (pyarrow)",
      "list<int64> (0..7, nulls), struct<int32, float64> (nulls) (pyarrow)"};
  gcol_parquet_codec const codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD, GCOL_PARQUET_SNAPPY};
  for (int k = nested ? 2 : 0; k < (nested ? 3 : reads ? 2 : 1); ++k) {
    pq_ctx c;
    memset(&c, 0, sizeof c);
    c.stream = stream;
    gcol_table *t = NULL;
    if (!load_file(dir, files[k], &c, &t)) {
      if (reads) printf("%s: skipped (see stderr)\n", benches[k]);
      if (write && k == 0) printf("parquet_write_snappy_pyarrow: skipped (no table read)\n");
      continue;
    }
    double const decoded = table_bytes(gcol_table_get_view(t), stream);
    if (reads) time_file_read(benches[k], types[k], codecs[k], &c, t->num_rows, decoded);
    GCOL_BENCH_CHECK(cudaFreeHost(c.file));
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, files[k]);
    c.path = path;
    if (reads) time_path_read(benches[k], types[k], &c, t->num_rows, decoded);
    if (write && k == 0) time_file_write(t, decoded, stream);
    gcol_table_free(t);
  }
}

int main(int argc, char **argv) {
  /* "files", "files-read", "files-write": only (some of) the rows on GCOL_BENCH_PARQUET_DIR's
   * files. At 2^27 rows the host-path peers and gcol's snappy write (compressed on one host
   * thread) take minutes each: one device call of 10 minutes may not hold them all. */
  const char *const arg = argc > 1 ? argv[1] : "";
  bool const files_only = strncmp(arg, "files", 5) == 0;
  bool const nested = strcmp(arg, "files-nested") == 0;
  bool const do_reads = strcmp(arg, "files-write") != 0;
  bool const do_write = strcmp(arg, "files-read") != 0 && !nested;
  int const shift = files_only ? 0 : atoi(arg);
  const char *dir = getenv("GCOL_BENCH_PARQUET_DIR");
  bool const with_files = dir != NULL && dir[0] != '\0';
  if (files_only && !with_files) {
    fprintf(stderr, "bench_parquet %s: set GCOL_BENCH_PARQUET_DIR (make_io_files.py's DIR)\n", arg);
    return 1;
  }
  cudaStream_t stream;
  GCOL_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  gcol_stream const s = (gcol_stream)stream;
  gcol_bench_print_header();
  if (!files_only) bench_parquet((int64_t)1 << (24 - shift), s);
  if (with_files) bench_pyarrow_files(dir, do_reads, do_write, nested, s);
  GCOL_BENCH_CHECK(cudaStreamSynchronize(stream));
  GCOL_BENCH_CHECK(cudaStreamDestroy(stream));
  return 0;
}
