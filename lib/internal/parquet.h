/*
 * Parquet internals shared by lib/io/ (footer, page headers, the read plan) and kernels/io/
 * (the GPU decode): the parsed footer, a column's read plan (its bytes and a table of pages),
 * and the per-page decoders. The decoders are inline host+device functions over a byte range
 * they never leave, so the kernels run exactly the code that the host tests and the fuzzer
 * run on the CPU.
 */
#ifndef GCOL_INTERNAL_PARQUET_H
#define GCOL_INTERNAL_PARQUET_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gcol/bits.h"
#include "gcol/config.h"
#include "gcol/io/parquet.h"
#include "gcol/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parquet.thrift numbers ---- */
enum {
  GCOL_DETAIL_PQ_REQUIRED = 0,
  GCOL_DETAIL_PQ_OPTIONAL = 1,
  GCOL_DETAIL_PQ_REPEATED = 2,
};
enum {
  GCOL_DETAIL_PQ_ENC_PLAIN = 0,
  GCOL_DETAIL_PQ_ENC_PLAIN_DICTIONARY = 2,
  GCOL_DETAIL_PQ_ENC_RLE = 3,
  GCOL_DETAIL_PQ_ENC_BIT_PACKED = 4,
  GCOL_DETAIL_PQ_ENC_DELTA_BINARY_PACKED = 5,
  GCOL_DETAIL_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
  GCOL_DETAIL_PQ_ENC_DELTA_BYTE_ARRAY = 7,
  GCOL_DETAIL_PQ_ENC_RLE_DICTIONARY = 8,
  GCOL_DETAIL_PQ_ENC_BYTE_STREAM_SPLIT = 9,
};
enum {
  GCOL_DETAIL_PQ_PAGE_DATA = 0,
  GCOL_DETAIL_PQ_PAGE_INDEX = 1,
  GCOL_DETAIL_PQ_PAGE_DICTIONARY = 2,
  GCOL_DETAIL_PQ_PAGE_DATA_V2 = 3,
};
/* ConvertedType (legacy logical annotations). */
enum {
  GCOL_DETAIL_PQ_CT_UTF8 = 0,
  GCOL_DETAIL_PQ_CT_MAP = 1,
  GCOL_DETAIL_PQ_CT_MAP_KEY_VALUE = 2,
  GCOL_DETAIL_PQ_CT_LIST = 3,
  GCOL_DETAIL_PQ_CT_ENUM = 4,
  GCOL_DETAIL_PQ_CT_DECIMAL = 5,
  GCOL_DETAIL_PQ_CT_DATE = 6,
  GCOL_DETAIL_PQ_CT_TIME_MILLIS = 7,
  GCOL_DETAIL_PQ_CT_TIME_MICROS = 8,
  GCOL_DETAIL_PQ_CT_TIMESTAMP_MILLIS = 9,
  GCOL_DETAIL_PQ_CT_TIMESTAMP_MICROS = 10,
  GCOL_DETAIL_PQ_CT_UINT_8 = 11,
  GCOL_DETAIL_PQ_CT_UINT_16 = 12,
  GCOL_DETAIL_PQ_CT_UINT_32 = 13,
  GCOL_DETAIL_PQ_CT_UINT_64 = 14,
  GCOL_DETAIL_PQ_CT_INT_8 = 15,
  GCOL_DETAIL_PQ_CT_INT_16 = 16,
  GCOL_DETAIL_PQ_CT_INT_32 = 17,
  GCOL_DETAIL_PQ_CT_INT_64 = 18,
  GCOL_DETAIL_PQ_CT_JSON = 19,
  GCOL_DETAIL_PQ_CT_BSON = 20,
  GCOL_DETAIL_PQ_CT_INTERVAL = 21,
};

/* Limits on what a footer may announce (beyond them the file is refused as corrupt or
 * unsupported rather than allocated for). */
#define GCOL_DETAIL_PQ_MAX_FOOTER (INT64_C(1) << 30)
#define GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH 64

/* ---- the parsed footer ---- */

typedef struct gcol_detail_pq_schema {
  char *name;
  bool has_type;
  int32_t type;
  int32_t type_length;
  int32_t repetition; /* -1 when absent (the root) */
  int32_t num_children;
  int32_t converted_type; /* -1 when absent */
  int32_t scale;
  int32_t precision;
  int32_t logical; /* gcol_parquet_logical_type */
  int32_t time_unit;
  bool adjusted_to_utc;
  int32_t bit_width;
  bool is_signed;
} gcol_detail_pq_schema;

/* One data page of a chunk's page index: its OffsetIndex entry and, with a ColumnIndex, its
 * statistics as a statistics record (num_values = the page's rows; min/max point into the
 * index bytes kept by the metadata), so that the pushdown judges pages as it judges chunks. */
typedef struct gcol_detail_pq_index_page {
  int64_t offset;          /* of its header in the file */
  int32_t compressed_size; /* header included */
  int64_t first_row;       /* within the row group */
  int64_t num_rows;
  bool null_page; /* ColumnIndex: every value null */
  gcol_parquet_statistics stats;
} gcol_detail_pq_index_page;

typedef struct gcol_detail_pq_chunk {
  bool has_meta_data;
  int32_t physical_type;
  int64_t data_page_offset;
  int64_t dictionary_page_offset; /* -1 when absent */
  bool has_file_path;             /* data in another file: not read */
  int64_t path_depth;             /* entries of path_in_schema */
  gcol_parquet_statistics stats;
  /* page index: where the footer says it lies (-1, 0 when absent) ... */
  int64_t offset_index_offset;
  int32_t offset_index_length;
  int64_t column_index_offset;
  int32_t column_index_length;
  /* ... and, once read (gcol_detail_pq_read_page_index), its pages (NULL without an
   * OffsetIndex) and whether a ColumnIndex gave them statistics */
  int32_t num_pages;
  gcol_detail_pq_index_page *pages;
  bool has_page_statistics;
  int32_t boundary_order;
} gcol_detail_pq_chunk;

typedef struct gcol_detail_pq_row_group {
  int64_t num_rows;
  int32_t num_chunks;
  gcol_detail_pq_chunk *chunks;
} gcol_detail_pq_row_group;

typedef struct gcol_detail_pq_alloc gcol_detail_pq_alloc;

/* keep[g] (num_row_groups entries) = whether row group g may hold a row where the BOOL8
 * predicate under `root` is true, its column references being the file's leaf columns
 * (lib/io/parquet_pushdown.c). */
gcol_status gcol_detail_pq_filter_groups(const gcol_parquet_metadata *md,
                                         const gcol_expression *expr, int32_t root, bool *keep);

/* A range [begin, end) of rows of a row group. */
typedef struct gcol_detail_pq_row_range {
  int64_t begin;
  int64_t end;
} gcol_detail_pq_row_range;

/* The rows of row group `row_group` that may hold a row where the BOOL8 predicate under `root`
 * is true, judged from its page index (lib/io/parquet_pushdown.c): the group is cut at every
 * page boundary of every referenced column whose pages have statistics, and each segment is
 * judged with, for each column, the statistics of the page covering it (columns without page
 * statistics, or a page index not read: the chunk's). *ranges (malloc'd, free() it; NULL when
 * none) receives the kept segments, adjacent ones merged, ascending; *num_ranges their count.
 * A row outside them never satisfies the predicate. The reader skips the pages outside them
 * (gcol_detail_pq_kept_rows). */
gcol_status gcol_detail_pq_filter_pages(const gcol_parquet_metadata *md,
                                        const gcol_expression *expr, int32_t root,
                                        int32_t row_group, gcol_detail_pq_row_range **ranges,
                                        int64_t *num_ranges);

/* ---- page skipping (lib/io/parquet_pushdown.c): the read rows a filter keeps ----
 *
 * "Read rows" number the rows of the row groups a read decodes, across them, in the order
 * read: row r of the i-th group read is read row (rows of groups 0..i-1) + r. */

/* The filter's kept rows over row_groups[0, *num_row_groups) (in the order read), from
 * gcol_detail_pq_filter_pages: the groups with no kept row are dropped from row_groups
 * (*num_row_groups updated, order kept) and *kept (malloc'd, free() it; NULL when none)
 * receives the kept ranges of the groups left, in read rows of those groups, ascending,
 * adjacent ones merged (across groups too); *num_kept their count. */
gcol_status gcol_detail_pq_kept_rows(const gcol_parquet_metadata *md, const gcol_expression *expr,
                                     int32_t root, int32_t *row_groups, int32_t *num_row_groups,
                                     gcol_detail_pq_row_range **kept, int64_t *num_kept);

/* Whether [begin, end) shares a row with one of ranges[0, n) (ascending, disjoint). An empty
 * [begin, end) shares none. */
bool gcol_detail_pq_rows_overlap(const gcol_detail_pq_row_range *ranges, int64_t n, int64_t begin,
                                 int64_t end);

/* The rows of ranges[0, n) (ascending, disjoint): their count. */
int64_t gcol_detail_pq_rows_count(const gcol_detail_pq_row_range *ranges, int64_t n);

/* The gather map from a column decoded over the `covered` read rows (ascending, disjoint; its
 * row i is the i-th covered row) to the `kept` read rows: map[j] = the position among the
 * covered rows of the j-th kept row (map has gcol_detail_pq_rows_count(kept) entries). False
 * when a kept row is not covered (map then partly written). */
bool gcol_detail_pq_row_map(const gcol_detail_pq_row_range *covered, int64_t num_covered,
                            const gcol_detail_pq_row_range *kept, int64_t num_kept, int64_t *map);

struct gcol_parquet_metadata {
  gcol_detail_pq_alloc *allocs; /* everything below, freed together */
  char name[160];               /* the file's name in messages */
  int64_t file_size;
  uint8_t *footer; /* the footer's bytes (statistics point into them) */
  int64_t footer_size;
  int32_t version;
  int64_t num_rows;
  char *created_by;
  int32_t num_schema;
  gcol_detail_pq_schema *schema;
  int32_t num_leaves;
  gcol_parquet_column_info *leaves;
  int32_t num_row_groups;
  gcol_detail_pq_row_group *row_groups;
  /* each leaf's legacy ConvertedType (-1: none), for what the public info does not say (a
   * FIXED_LEN_BYTE_ARRAY INTERVAL has no logical type) */
  int32_t *leaf_converted;
  int32_t num_key_values;
  char **keys;
  int64_t *key_sizes;
  char **values;
  int64_t *value_sizes;
  bool page_index_read; /* gcol_detail_pq_read_page_index succeeded */
};

/* A file being read: a source and its name for messages. */
typedef struct gcol_detail_pq_file {
  gcol_parquet_source source;
  const char *name;
  bool concurrent; /* its reads may run on several threads at once (a path's: pread) */
  /* chunks already in host memory (gcol_detail_pq_window_load), which plans borrow instead
   * of reading; or NULL */
  const struct gcol_detail_pq_window *window;
} gcol_detail_pq_file;

/* The first byte of a column chunk (its dictionary page's, when that comes first). */
static inline int64_t gcol_detail_pq_chunk_start(const gcol_detail_pq_chunk *ch) {
  return ch->dictionary_page_offset > 0 && ch->dictionary_page_offset < ch->data_page_offset
             ? ch->dictionary_page_offset
             : ch->data_page_offset;
}

/* File bytes [begin, end), at `at` in a window. */
typedef struct gcol_detail_pq_range {
  int64_t begin;
  int64_t end;
  int64_t at;
} gcol_detail_pq_range;

/* Column chunks of a read in page-locked host memory from the staging resource
 * (include/gcol/io/staging.h): the chunks' byte ranges, sorted and merged across small gaps,
 * packed one after another in `bytes` (so a projection's window holds only its columns). */
typedef struct gcol_detail_pq_window {
  uint8_t *bytes;
  int64_t size;
  gcol_detail_pq_range *ranges; /* sorted by file offset */
  int64_t num_ranges;
  gcol_mr *mr;
} gcol_detail_pq_window;

/* The window's copy of file bytes [start, start + size), or NULL where it holds not all. */
const uint8_t *gcol_detail_pq_window_find(const gcol_detail_pq_window *window, int64_t start,
                                          int64_t size);

/* Reads the chunks of leaves `columns` in row groups `groups` of `file` into a window, on up
 * to `readers` threads when the file takes concurrent reads (point a file's `window` at it to
 * plan from it). Where the window cannot be had (chunk extents outside the file, no staging
 * memory, a read failing) `out->bytes` stays NULL, and the read goes on without it (its
 * errors then come from where they always did): never an error of its own. */
void gcol_detail_pq_window_load(const gcol_detail_pq_file *file, const gcol_parquet_metadata *md,
                                const int32_t *columns, int32_t num_columns, const int32_t *groups,
                                int32_t num_groups, int32_t readers, gcol_stream stream,
                                gcol_detail_pq_window *out);

/* Reads bytes [begin, end) of `file` to dst (dst[0] is byte `begin`) in 4 MiB reads on up to
 * `readers` threads (one unless the file takes concurrent reads); false if a read failed. */
bool gcol_detail_pq_read_range(const gcol_detail_pq_file *file, int64_t begin, int64_t end,
                               uint8_t *dst, int32_t readers);

/* Threads to read a window with when `sharing` windows load at once: the host's cores shared,
 * 1 to 16 (pread from the page cache: ~4.5 GB/s a thread, 33 GB/s on 16, an H200's host,
 * session 25). */
int32_t gcol_detail_pq_window_readers(int32_t sharing);

/* Gives the window's memory back, after the work on `stream` (the copies out of it). */
void gcol_detail_pq_window_free(gcol_detail_pq_window *window, gcol_stream stream);

/* The windows of a batched read (batch b: groups[bounds[b], bounds[b + 1])) loaded ahead in
 * file order by one thread, with every reader on one batch at a time, so that the first
 * batch's bytes come first and the bus never waits for a later batch's; at most `max_live`
 * windows loaded and not released. Batches after the first failing one (`failed`, the read's
 * atomic) get none. NULL where no thread can start (each batch then loads its own). */
typedef struct gcol_detail_pq_prefetch gcol_detail_pq_prefetch;
gcol_detail_pq_prefetch *gcol_detail_pq_prefetch_start(
    const gcol_detail_pq_file *file, const gcol_parquet_metadata *md, const int32_t *columns,
    int32_t num_columns, const int32_t *groups, const int32_t *bounds, int32_t num_batches,
    int32_t max_live, const int32_t *failed, int device, gcol_stream stream);
/* Waits for batch b's window and takes it (bytes NULL: none, the batch reads without). */
void gcol_detail_pq_prefetch_take(gcol_detail_pq_prefetch *p, int32_t batch,
                                  gcol_detail_pq_window *out);
/* Gives a taken window back after the work on `stream`, letting the next one load. */
void gcol_detail_pq_prefetch_release(gcol_detail_pq_prefetch *p, gcol_detail_pq_window *window,
                                     gcol_stream stream);
/* Stops the loader, waits for it, and frees the windows never taken. NULL: a no-op. */
void gcol_detail_pq_prefetch_finish(gcol_detail_pq_prefetch *p);

/* Parses a footer (the bytes between the data and the last 8 bytes) of a file of
 * `file_size` bytes into `out`. Errors are raised (gcol_detail_error) naming `name`. */
gcol_status gcol_detail_parquet_parse_footer(const uint8_t *footer, int64_t footer_size,
                                             int64_t file_size, const char *name,
                                             gcol_parquet_metadata **out);

/* Reads the tail and the footer through `file`, then parses it. */
gcol_status gcol_detail_parquet_read_metadata(const gcol_detail_pq_file *file,
                                              gcol_parquet_metadata **out);

/* Sources over a host buffer and over a path (a descriptor read with pread, so concurrently;
 * closed by gcol_detail_pq_file_close). */
void gcol_detail_pq_file_from_buffer(const void *data, int64_t size, gcol_detail_pq_file *out,
                                     const void **state);
gcol_status gcol_detail_pq_file_open(const char *path, gcol_detail_pq_file *out);
/* A user's source, checked (a read callback, a size >= 0), named "source" without a name. */
gcol_status gcol_detail_pq_file_from_source(const gcol_parquet_source *source,
                                            gcol_detail_pq_file *out);
void gcol_detail_pq_file_close(gcol_detail_pq_file *file);

/* Reads and parses the page index (ColumnIndex, OffsetIndex) of every chunk whose footer entry
 * points to one, through `file` (the file `md` was read from: its size must match). All or
 * nothing: on failure `md` is as before. A second call does nothing. Errors name the row group
 * and column (GCOL_ERROR_INVALID_ARGUMENT for corrupt or misplaced index bytes). */
gcol_status gcol_detail_pq_read_page_index(gcol_parquet_metadata *md,
                                           const gcol_detail_pq_file *file);

/* ---- page headers ---- */

typedef struct gcol_detail_pq_page_header {
  int32_t type;
  int32_t uncompressed_size;
  int32_t compressed_size;
  int32_t num_values; /* data and dictionary pages */
  int32_t encoding;
  int32_t def_encoding; /* v1 */
  int32_t rep_encoding; /* v1 */
  int32_t num_nulls;    /* v2 */
  int32_t num_rows;     /* v2 */
  int32_t def_length;   /* v2 */
  int32_t rep_length;   /* v2 */
  bool is_compressed;   /* v2 (default true) */
  bool has_body;        /* the header for its type was present */
} gcol_detail_pq_page_header;

/* Parses one page header from [p, p + size); *header_size receives its bytes. On failure
 * returns false with a message in `error`. */
bool gcol_detail_parquet_parse_page_header(const uint8_t *p, int64_t size,
                                           gcol_detail_pq_page_header *out, int64_t *header_size,
                                           char *error, int error_size);

/* ---- page codecs (lib/io/parquet_codec.c): host libraries opened with dlopen ---- */

/* No page decompresses to more than this (1 GiB), whatever its header says. */
#define GCOL_DETAIL_PQ_MAX_PAGE_BYTES ((int64_t)1 << 30)

enum {
  GCOL_DETAIL_PQ_CODEC_OK = 0,
  GCOL_DETAIL_PQ_CODEC_UNSUPPORTED = 1, /* LZO, BROTLI, LZ4 (Hadoop framing), unknown */
  GCOL_DETAIL_PQ_CODEC_MISSING = 2,     /* its shared library is not installed */
  GCOL_DETAIL_PQ_CODEC_CORRUPT = 3,     /* the library refused the data */
  GCOL_DETAIL_PQ_CODEC_SIZE = 4,        /* it decompressed to another size than announced */
};

/* The codec's parquet.thrift name, and the soname of its library (NULL: none). */
const char *gcol_detail_pq_codec_name(int32_t codec);
const char *gcol_detail_pq_codec_library(int32_t codec);

/* Whether pages of `codec` can be decompressed here (loads its library on first use;
 * thread-safe). UNCOMPRESSED is always available. */
bool gcol_detail_pq_codec_available(int32_t codec);

/* Tests: makes `codec`'s library look missing (hide true) or present again. */
void gcol_detail_pq_codec_hide(int32_t codec, bool hide);

/* The most bytes that `size` compressed bytes of `codec` may decompress to, by the format's
 * largest ratio (ZSTD: the frame's content size when its header has one), capped at
 * GCOL_DETAIL_PQ_MAX_PAGE_BYTES: a page header announcing more is refused before any
 * allocation. */
int64_t gcol_detail_pq_max_decompressed(int32_t codec, const uint8_t *src, int64_t size);

/* Decompresses [src, src + src_size) into exactly dst_size bytes at dst. Returns a
 * GCOL_DETAIL_PQ_CODEC_* code; on failure a message in `error` ("SNAPPY needs libsnappy.so.1,
 * not found", "ZSTD data is corrupt (...)", "... decompresses to N bytes, the page header
 * says M"). Never writes outside dst. */
int gcol_detail_pq_decompress(int32_t codec, const uint8_t *src, int64_t src_size, uint8_t *dst,
                              int64_t dst_size, char *error, int error_size);

/* Checks a page's compressed bytes before nvCOMP decompresses them on the GPU, whose
 * decoders assume valid input (a corrupt block can make them write past their output):
 * LZ4_RAW and SNAPPY are walked element by element without decompressing (lengths, every
 * match's offset within what is already written, LZ4's end-of-block rules, which its fast
 * decoders rely on) and must decompress to exactly `dst_size` bytes. GZIP and ZSTD cannot be
 * checked short of decompressing them: true (see docs/design.md). Returns whether the data
 * may go to nvCOMP; if not, why in `error` ("decompresses to another size ...", "a match
 * offset ..."). */
bool gcol_detail_pq_check_for_gpu(int32_t codec, const uint8_t *src, int64_t src_size,
                                  int64_t dst_size, char *error, int error_size);

/* Compression (the writer, tests): the bound of the compressed size of `size` bytes, and the
 * compressed size written into dst (-1: library missing or failure). */
int64_t gcol_detail_pq_compress_bound(int32_t codec, int64_t size);
int64_t gcol_detail_pq_compress(int32_t codec, const uint8_t *src, int64_t size, uint8_t *dst,
                                int64_t capacity);

/* ---- nvCOMP (lib/io/parquet_nvcomp.c): GPU decompression, opened with dlopen ---- */

/* Codec numbers below this can have an nvCOMP decompressor (LZ4_RAW is 7). */
#define GCOL_DETAIL_NVCOMP_CODECS 8

/* Functions stored as one type and cast back to their prototypes (parquet_nvcomp.c). */
typedef void (*gcol_detail_nvcomp_fn)(void);

/* An opened nvCOMP: the codecs it decompresses (bit per Parquet codec), the alignments of the
 * input and output chunks each needs (nvCOMP 5.3: 1, but ZSTD's temporary memory 8 and
 * Deflate's input 4), its version (major * 1000 + minor * 100 + patch), the
 * file opened and, when it decompresses nothing, why. */
typedef struct gcol_detail_nvcomp {
  uint32_t codecs;
  int32_t version;
  int32_t in_alignment[GCOL_DETAIL_NVCOMP_CODECS];
  int32_t out_alignment[GCOL_DETAIL_NVCOMP_CODECS];
  gcol_detail_nvcomp_fn temp_fn[GCOL_DETAIL_NVCOMP_CODECS];
  gcol_detail_nvcomp_fn decompress_fn[GCOL_DETAIL_NVCOMP_CODECS];
  char file[512];
  char why[640];
} gcol_detail_nvcomp;

/* Opens nvCOMP as the reader does, from `path` (GCOL_NVCOMP_PATH: a file, or a directory
 * holding libnvcomp.so.6 or .5; NULL or "": the loader's search path) unless `mode`
 * (GCOL_NVCOMP) is "off" or "0". Never fails: lib->codecs is 0 when nothing is usable. */
void gcol_detail_nvcomp_open(const char *path, const char *mode, gcol_detail_nvcomp *lib);

/* The process's nvCOMP, opened from the environment on first use (thread-safe). */
const gcol_detail_nvcomp *gcol_detail_nvcomp_get(void);

/* nvcompBatched<codec>DecompressGetTempSizeAsync (host only) and DecompressAsync on `stream`
 * (a cudaStream_t), with default options. Return nvCOMP's status (0: success; -1: the codec
 * has no decompressor in `lib`). */
int gcol_detail_nvcomp_temp_size(const gcol_detail_nvcomp *lib, int32_t codec, size_t num_chunks,
                                 size_t max_chunk, size_t total, size_t *temp_size);
int gcol_detail_nvcomp_decompress(const gcol_detail_nvcomp *lib, int32_t codec,
                                  const void *const *in, const size_t *in_bytes,
                                  const size_t *out_capacity, size_t *out_bytes, size_t num_chunks,
                                  void *temp_space, size_t temp_bytes, void *const *out,
                                  int *statuses, void *stream);

/* ---- the read plan of one column ---- */

/* How a data page stores its values. */
enum {
  GCOL_DETAIL_PQ_VALUES_PLAIN = 0,
  GCOL_DETAIL_PQ_VALUES_DICT = 1,         /* bit width byte + RLE/bit-packed indices */
  GCOL_DETAIL_PQ_VALUES_RLE_BOOL = 2,     /* 4-byte length + RLE/bit-packed bits (width 1) */
  GCOL_DETAIL_PQ_VALUES_DELTA = 3,        /* DELTA_BINARY_PACKED (INT32, INT64) */
  GCOL_DETAIL_PQ_VALUES_SPLIT = 4,        /* BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64) */
  GCOL_DETAIL_PQ_VALUES_DELTA_LENGTH = 5, /* DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY) */
};

/* A data page, as byte ranges of the column's buffer. */
typedef struct gcol_detail_pq_page {
  int64_t first_row; /* output row of the page's first value */
  int64_t num_rows;  /* its levels (= rows: the column is flat) */
  int64_t def_begin; /* definition levels, RLE/bit-packed (empty when max_def is 0) */
  int64_t def_end;
  int64_t values_begin;
  int64_t values_end;
  int64_t rep_begin; /* repetition levels, RLE/bit-packed (a nested leaf's; else empty) */
  int64_t rep_end;
  int32_t encoding; /* GCOL_DETAIL_PQ_VALUES_* */
  int32_t dict;     /* its dictionary, or -1 */
  /* v1 page decompressed on the GPU: def_begin is the page's start and its levels' length
   * prefixes are read there after decompression (gcol_detail_pq_place_levels): the
   * repetition levels' first when rep_pending, then the definition levels' */
  int32_t def_pending;
  int32_t rep_pending;
} gcol_detail_pq_page;

/* A dictionary page: PLAIN values. */
typedef struct gcol_detail_pq_dict {
  int64_t begin;
  int64_t end;
  int64_t num_values;
  int64_t first_entry; /* of its entries in the column's dictionary entry table */
} gcol_detail_pq_dict;

/* Where a page is, for messages. */
typedef struct gcol_detail_pq_where {
  int32_t row_group;
  int32_t page; /* within its column chunk, dictionary page counted */
} gcol_detail_pq_where;

typedef struct gcol_detail_pq_column_plan {
  const char *name;
  gcol_data_type type;
  int32_t physical_type;
  int32_t type_length; /* FIXED_LEN_BYTE_ARRAY: bytes per value (BYTE_STREAM_SPLIT pages of
                          them are joined into PLAIN ones while planning) */
  int32_t max_def;
  uint8_t *bytes; /* host: the chunks of the column, concatenated */
  int64_t num_bytes;
  int64_t num_rows;
  int32_t num_pages;
  gcol_detail_pq_page *pages;
  gcol_detail_pq_where *page_where;
  int32_t num_dicts;
  gcol_detail_pq_dict *dicts;
  gcol_detail_pq_where *dict_where;
  int64_t num_dict_entries;
  bool has_delta; /* some page is DELTA_BINARY_PACKED: values decoded into 64-bit words */
  /* pqread: where the plan's byte space [0, num_bytes) lives on the host, in order */
  int32_t num_segments;
  int32_t segment_cap;
  struct gcol_detail_pq_segment *segments;
  int64_t owned_bytes; /* bytes used in plan->bytes (== num_bytes unless chunks are borrowed) */
  /* pages left for nvCOMP on the GPU (gcol_detail_parquet_plan_column_borrow's gpu_codecs) */
  int32_t num_jobs;
  int32_t job_cap;
  struct gcol_detail_pq_job *jobs;
  /* page skipping (gcol_detail_parquet_plan_column_kept): the read rows of the data pages
   * planned, ascending, adjacent ones merged; row i of the plan is the i-th of them. NULL
   * (and 0) when the plan was made without kept rows: every page, row i is read row i. */
  gcol_detail_pq_row_range *covered;
  int64_t num_covered;
  int64_t covered_cap;
  /* nested reads (gcol_detail_parquet_plan_column_levels): every data page's levels decoded
   * on the host while planning, one entry per value (plan->num_rows entries; the "rows" of
   * such a plan are level entries), rep_levels NULL when max_rep is 0; chunk_first[i] the
   * first entry of the i-th chunk planned (num_chunks + 1 entries). A plan made by
   * gcol_detail_parquet_plan_column_levels_gpu has levels_on_gpu instead: its pages keep their
   * levels for the GPU decode to write out (gcol_detail_parquet_decode_columns_levels),
   * rep_levels and def_levels stay NULL, chunk_first is filled the same. */
  bool has_levels;
  bool levels_on_gpu;
  int32_t max_rep;
  uint8_t *rep_levels;
  uint8_t *def_levels;
  int64_t levels_cap;
  int64_t *chunk_first;
  int32_t num_chunks;
} gcol_detail_pq_column_plan;

/* Reads the chunks of leaf `column` in the `row_groups` given (bytes into host memory), scans
 * their page headers and fills `plan`. Errors name the file, row group, column and page. */
gcol_status gcol_detail_parquet_plan_column(const gcol_detail_pq_file *file,
                                            const gcol_parquet_metadata *md, int32_t column,
                                            const int32_t *row_groups, int32_t num_row_groups,
                                            gcol_detail_pq_column_plan *plan);
void gcol_detail_parquet_plan_free(gcol_detail_pq_column_plan *plan);

/* ---- pqread: reading many columns at once, chunks borrowed from a host buffer ---- */

/* A piece of a plan's byte space: `size` bytes at plan offset `begin`, found at `src` (the
 * caller's buffer, borrowed) or, when src is NULL, at plan->bytes + owned. */
typedef struct gcol_detail_pq_segment {
  int64_t begin;
  int64_t size;
  const uint8_t *src;
  int64_t owned; /* -1: written on the device by a job (nothing is copied there) */
} gcol_detail_pq_segment;

/* A page decompressed on the GPU: `src_size` compressed bytes at plan offset `src` into the
 * `dst_size` bytes at plan offset `dst` (both aligned as the codec's nvCOMP asks: where the
 * input needs no alignment, `src` lies in its chunk, copied whole). `where`
 * names the page for errors: bit 31 set for a dictionary page, the rest its index in
 * plan->dicts or plan->pages. */
typedef struct gcol_detail_pq_job {
  int64_t src;
  int64_t src_size;
  int64_t dst;
  int64_t dst_size;
  int32_t codec;
  int32_t where;
} gcol_detail_pq_job;

/* gcol_detail_parquet_plan_column, but an UNCOMPRESSED chunk of a file that is the host buffer
 * `data` (non-NULL) is not copied: its segment points into `data` and plan->bytes holds only
 * decompressed pages (such a plan is for the GPU decode, not the host decode). Pages of the
 * codecs in the bit set `gpu_codecs` (those `nvcomp` decompresses, unless the file is not
 * trusted) are not decompressed: their compressed bytes become segments (borrowed from
 * `data` when it is given) and a job each says where nvCOMP writes them; v1 data pages of
 * such chunks read their levels' length on the device (def_pending). `nvcomp` gives the
 * alignments and may be NULL when gpu_codecs is 0. */
gcol_status gcol_detail_parquet_plan_column_borrow(
    const gcol_detail_pq_file *file, const uint8_t *data, const gcol_parquet_metadata *md,
    int32_t column, const int32_t *row_groups, int32_t num_row_groups, uint32_t gpu_codecs,
    const gcol_detail_nvcomp *nvcomp, gcol_detail_pq_column_plan *plan);

/* gcol_detail_parquet_plan_column_borrow, skipping pages: only the data pages whose rows share
 * one with kept[0, num_kept) (read rows of row_groups, ascending, disjoint;
 * gcol_detail_pq_kept_rows) are planned, by the rows their headers give (the dictionary page
 * always). plan->covered receives their read rows. A chunk whose page index was read must
 * agree with its pages (each data page's first row and rows; the same count): else
 * GCOL_ERROR_INVALID_ARGUMENT, since the kept rows were judged by that index. kept NULL:
 * every page, as gcol_detail_parquet_plan_column_borrow. Flat columns only (the reader reads
 * no other: a repeated column is GCOL_ERROR_UNSUPPORTED before any page). */
gcol_status gcol_detail_parquet_plan_column_kept(
    const gcol_detail_pq_file *file, const uint8_t *data, const gcol_parquet_metadata *md,
    int32_t column, const int32_t *row_groups, int32_t num_row_groups,
    const gcol_detail_pq_row_range *kept, int64_t num_kept, uint32_t gpu_codecs,
    const gcol_detail_nvcomp *nvcomp, gcol_detail_pq_column_plan *plan);

/* gcol_detail_parquet_plan_column_borrow for a leaf of a nested column: every page is
 * decompressed on the host (no nvCOMP job) and its repetition and definition levels are
 * decoded into plan->rep_levels / def_levels (levels out of range or cut short:
 * GCOL_ERROR_INVALID_ARGUMENT naming the row group, column and page); the chunks' value
 * counts are level counts, not rows. No page skipping. */
gcol_status gcol_detail_parquet_plan_column_levels(const gcol_detail_pq_file *file,
                                                   const uint8_t *data,
                                                   const gcol_parquet_metadata *md,
                                                   int32_t column, const int32_t *row_groups,
                                                   int32_t num_row_groups,
                                                   gcol_detail_pq_column_plan *plan);

/* gcol_detail_parquet_plan_column_levels, but the levels are left to the GPU: pages of the
 * codecs in `gpu_codecs` go to nvCOMP as in gcol_detail_parquet_plan_column_borrow (v1 pages
 * then read both levels' length prefixes on the device), and plan->levels_on_gpu is set
 * instead of has_levels. */
gcol_status gcol_detail_parquet_plan_column_levels_gpu(
    const gcol_detail_pq_file *file, const uint8_t *data, const gcol_parquet_metadata *md,
    int32_t column, const int32_t *row_groups, int32_t num_row_groups, uint32_t gpu_codecs,
    const gcol_detail_nvcomp *nvcomp, gcol_detail_pq_column_plan *plan);

/* Data pages the public reads of this process have handed to the GPU decode so far (tests:
 * page skipping decodes fewer). */
int64_t gcol_detail_parquet_read_pages(void);

/* Batched reads (parquet_read.c): a read of many row groups without page skipping is planned
 * and decoded in batches of consecutive row groups by four host threads, each on its own
 * stream, the uploads one after another in file order, so that the bus copies while earlier
 * batches decode; the columns' pieces are then concatenated. The target compressed bytes of
 * a batch: the value given to gcol_detail_parquet_set_batch_bytes (tests), else
 * GCOL_PARQUET_BATCH_BYTES from the environment when it is a positive number, else
 * GCOL_DETAIL_PQ_BATCH_BYTES. */
#define GCOL_DETAIL_PQ_BATCH_BYTES ((int64_t)1 << 30)
int64_t gcol_detail_parquet_batch_bytes(void);
/* Sets the target for the reads that follow, process-wide; 0 restores the default. */
void gcol_detail_parquet_set_batch_bytes(int64_t bytes);
/* The batches of groups[0, num_groups) read for columns[0, num_columns): consecutive groups
 * until a batch holds `target` compressed bytes; a read of at most two targets' worth in
 * batches of a sixth of it instead (not below GCOL_DETAIL_PQ_BATCH_FLOOR), so that its upload
 * still overlaps its decodes; a read of at most twice the batch size is not split. Writes
 * the group index each batch starts at to bounds[0, n) and num_groups to bounds[n] (bounds
 * has room for num_groups + 1), returns n; 1 means one batch (the read is not split). */
#define GCOL_DETAIL_PQ_BATCH_FLOOR ((int64_t)64 << 20)
int32_t gcol_detail_parquet_batches(const gcol_parquet_metadata *md, const int32_t *columns,
                                    int32_t num_columns, const int32_t *groups, int32_t num_groups,
                                    int64_t target, int32_t *bounds);

/* The codecs whose pages a read with `options` leaves to `nvcomp` (NULL: none): its codecs,
 * none when options->untrusted. */
uint32_t gcol_detail_parquet_gpu_codecs(const gcol_parquet_read_options *options,
                                        const gcol_detail_nvcomp *nvcomp);

/* Pages nvCOMP was asked to decompress by this process's reads so far (tests). */
int64_t gcol_detail_parquet_nvcomp_pages(void);

/* ---- the device buffer of a read (lib/io/parquet_upload.c) ---- */

/* Where one column's byte space and tables lie in the device buffer. */
typedef struct gcol_detail_pq_at {
  int64_t bytes;
  int64_t pages;
  int64_t dicts;
} gcol_detail_pq_at;

/* Lays out the device buffer of `n` plans: every column's bytes, then each column's page and
 * dictionary tables, then `job_bytes` at *jobs_at (16-byte aligned). Returns its size. */
int64_t gcol_detail_pq_layout(const gcol_detail_pq_column_plan *plans, int32_t n, int64_t job_bytes,
                              gcol_detail_pq_at *at, int64_t *jobs_at);

/* Copies `size` host bytes at `src` to offset `dev` of the device buffer (0, or an error code
 * the caller understands: a cudaError_t on the GPU). */
typedef int (*gcol_detail_pq_copy_fn)(void *user, int64_t dev, const void *src, int64_t size);

/* The staging bytes gcol_detail_pq_upload needs (with `jobs_size` bytes of job table). */
int64_t gcol_detail_pq_staged_bytes(const gcol_detail_pq_column_plan *plans, int32_t n, bool pinned,
                                    int64_t jobs_size);

/* Fills the device buffer laid out at `at`: each column's segments (borrowed ones straight
 * from the source when `pinned`, the rest gathered in `staging` and copied in runs), page and
 * dictionary tables, then the `jobs_size` bytes of `jobs` at `jobs_at`, by `copy` in order.
 * Returns 0 or copy's first error. */
int gcol_detail_pq_upload(const gcol_detail_pq_column_plan *plans, int32_t n, bool pinned,
                          const gcol_detail_pq_at *at, const void *jobs, int64_t jobs_size,
                          int64_t jobs_at, uint8_t *staging, gcol_detail_pq_copy_fn copy,
                          void *user);

/* Decodes planned columns on the GPU with their bytes gathered in one device buffer and a
 * constant number of synchronizations; `borrowed`: the host buffer the plans borrow from (or
 * NULL), copied to the device straight from where it is when it is page-locked. */
gcol_status gcol_detail_parquet_decode_columns(const gcol_detail_pq_column_plan *plans,
                                               int32_t num_plans, const void *borrowed,
                                               const char *file_name, gcol_stream stream,
                                               gcol_mr *mr, gcol_column **out);

/* The order of a batched read's uploads (one copy after another in file order, so that the
 * first batch's bytes arrive first while the later batches' decodes overlap them): the upload
 * waits for `after` (a cudaEvent_t recorded after the previous batch's copies, or NULL), then
 * records `done` after its own copies and sets *issued (atomically) once it has. */
typedef struct gcol_detail_pq_upload_order {
  void *after;
  void *done;
  int32_t *issued;
} gcol_detail_pq_upload_order;

/* gcol_detail_parquet_decode_columns_levels with its upload in that order (NULL: none). */
gcol_status gcol_detail_parquet_decode_columns_ordered(const gcol_detail_pq_column_plan *plans,
                                                       int32_t num_plans, const void *borrowed,
                                                       const char *file_name, gcol_stream stream,
                                                       gcol_mr *mr, gcol_column **out,
                                                       const gcol_detail_pq_upload_order *order,
                                                       gcol_buffer **levels);

/* gcol_detail_parquet_decode_columns, also writing out the levels of the plans with
 * levels_on_gpu: levels[2 * c] receives plan c's repetition levels (NULL when max_rep is 0)
 * and levels[2 * c + 1] its definition levels, a byte per entry (num_rows), on the default
 * resource; NULL for the other plans. Levels above their maximum, or fewer than the values,
 * fail the read as the other page errors do (row group, column and page named). */
gcol_status gcol_detail_parquet_decode_columns_levels(const gcol_detail_pq_column_plan *plans,
                                                      int32_t num_plans, const void *borrowed,
                                                      const char *file_name, gcol_stream stream,
                                                      gcol_mr *mr, gcol_column **out,
                                                      gcol_buffer **levels);
/* ---- end pqread ---- */

/* Decodes a planned column on the GPU (kernels/io/parquet_decode.cu). */
gcol_status gcol_detail_parquet_decode_column(const gcol_detail_pq_column_plan *plan,
                                              const char *file_name, gcol_stream stream,
                                              gcol_mr *mr, gcol_column **out);

/* Decodes a planned column on the host (the same per-page functions, for tests and the
 * fuzzer): values as 64-bit words (fixed-width: the physical value, INT32 sign-extended;
 * FIXED_LEN_BYTE_ARRAY decimals: the low word, the high word in values_hi unless it is NULL;
 * FLOAT16: the bits of its float32) or string ranges into plan->bytes (FIXED_LEN_BYTE_ARRAY
 * binary and UUID too), and valid bytes. Arrays have plan->num_rows entries.
 * Returns 0 or the first page error (GCOL_DETAIL_PQ_E_*), with *bad_page its page (or
 * dictionary, see *bad_is_dict). */
int gcol_detail_parquet_decode_column_host(const gcol_detail_pq_column_plan *plan, uint64_t *values,
                                           uint64_t *values_hi, int64_t *string_pos,
                                           int64_t *string_len, uint8_t *valid, int32_t *bad_page,
                                           bool *bad_is_dict);

/* Names a page error. */
const char *gcol_detail_parquet_page_error(int code);

/* ---- writer ---- */

/* A column in host memory, as the writer takes it. */
typedef struct gcol_detail_pq_host_column {
  const char *name;
  char *owned_name; /* freed with the column (a generated name) */
  gcol_data_type type;
  const void *data;           /* fixed width: size values of the type's storage */
  const uint8_t *valid;       /* NULL: no mask (a REQUIRED column); else 1 valid, 0 null */
  const int64_t *offsets;     /* STRING: size + 1 offsets into chars */
  const char *chars;          /* STRING */
  gcol_host_strings *strings; /* STRING: the copy owning offsets, chars and valid */
} gcol_detail_pq_host_column;

/* Appends the RLE/bit-packed hybrid encoding of n values of bw bits. */
struct gcol_detail_thrift_writer;
void gcol_detail_parquet_rle_encode(struct gcol_detail_thrift_writer *w, const uint32_t *v,
                                    int64_t n, int bw);

/* Writes host columns of num_rows rows as a Parquet file into a malloc'd buffer. */
gcol_status gcol_detail_parquet_write_host(const gcol_detail_pq_host_column *cols,
                                           int32_t num_columns, int64_t num_rows,
                                           const gcol_parquet_write_options *options, uint8_t **out,
                                           int64_t *size);

/* ==== GPU writer (kernels/io/parquet_encode.cu; lib/io/parquet_write.c drives it) ==== */

/* Rows per data page of the writer (both encoders): pages stay far below Parquet's 2^31-byte
 * limit for fixed-width types; string pages are checked. */
#define GCOL_DETAIL_PQ_ROWS_PER_PAGE 65536

/* How the encoder reads a column and orders it for statistics. */
enum {
  GCOL_DETAIL_PQ_W_FIXED = 0,  /* `width` storage bytes -> `out_width` PLAIN bytes */
  GCOL_DETAIL_PQ_W_BOOL = 1,   /* one byte -> one bit-packed bit */
  GCOL_DETAIL_PQ_W_STRING = 2, /* 4-byte length + bytes */
};
enum {
  GCOL_DETAIL_PQ_ORDER_SIGNED = 0, /* the PLAIN bits as a signed integer of out_width bytes */
  GCOL_DETAIL_PQ_ORDER_UNSIGNED = 1,
  GCOL_DETAIL_PQ_ORDER_FLOAT = 2, /* NaN skipped */
  GCOL_DETAIL_PQ_ORDER_BYTES = 3, /* strings: bytewise, a prefix first */
};

/* A column as the encoder reads it (device pointers; row 0 is the view's first row). */
typedef struct gcol_detail_pq_wcol {
  int32_t kind;
  int32_t order;
  int32_t width;        /* FIXED: storage bytes (1, 2, 4, 8) */
  int32_t out_width;    /* FIXED: PLAIN bytes (4, 8) */
  bool sign_extend;     /* FIXED: INT8/INT16 widen with their sign */
  bool optional;        /* definition levels written (the column has a mask) */
  const uint8_t *data;  /* FIXED, BOOL */
  const uint32_t *mask; /* NULL: all valid */
  int64_t mask_offset;
  gcol_strings_view strings; /* STRING */
} gcol_detail_pq_wcol;

/* A page's rows (the same pages for every column; a row group's pages are consecutive). */
typedef struct gcol_detail_pq_wpage {
  int64_t begin;
  int64_t end;
} gcol_detail_pq_wpage;

/* What the device found in one page of one column. */
typedef struct gcol_detail_pq_wpage_info {
  int64_t nulls;
  int64_t value_bytes; /* the PLAIN values (strings with their prefixes) */
} gcol_detail_pq_wpage_info;

/* Statistics of one column chunk: rows of its min and max (-1: none, all null or NaN) and
 * the bytes of their PLAIN values (no length prefix). */
typedef struct gcol_detail_pq_wstats {
  int64_t nulls;
  int64_t min_row;
  int64_t max_row;
  int64_t min_size;
  int64_t max_size;
} gcol_detail_pq_wstats;

/* Where the encoder writes one page of one column in its device output (offsets in bytes);
 * header_size 0: no header (the host writes it, e.g. after compressing). */
typedef struct gcol_detail_pq_wplace {
  int64_t header_at;  /* in the output */
  int64_t header_src; /* in the uploaded header bytes */
  int64_t header_size;
  int64_t body_at;     /* in the output: levels, then values */
  int64_t levels_size; /* gcol_detail_pq_levels_size() */
} gcol_detail_pq_wplace;

/* Bytes of an unsigned LEB128 varint. */
GCOL_HD_INLINE int gcol_detail_pq_varint_size(uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

/* The definition levels of a page of `rows` rows (max_def 1) with `nulls` nulls: a 4-byte
 * length, then one RLE run when every row is valid or every row null, else one bit-packed run
 * of ceil(rows / 8) groups (the zero bits past `rows` are padding). Returns the header bytes
 * (prefix + run header, + the RLE value) written to `out` (unless NULL), at most 16; the
 * bit-packed bytes follow them. */
GCOL_HD_INLINE int gcol_detail_pq_levels_header(int64_t rows, int64_t nulls, uint8_t *out) {
  bool const rle = nulls == 0 || nulls == rows;
  int64_t const groups = (rows + 7) / 8;
  uint64_t const run = rle ? (uint64_t)rows << 1 : ((uint64_t)groups << 1) | 1;
  int const vs = gcol_detail_pq_varint_size(run);
  int64_t const body = vs + (rle ? 1 : groups);
  if (out != NULL) {
    for (int i = 0; i < 4; ++i) out[i] = (uint8_t)((uint64_t)body >> (8 * i));
    uint64_t v = run;
    for (int i = 0; i < vs; ++i, v >>= 7)
      out[4 + i] = (uint8_t)((v & 0x7f) | (i + 1 < vs ? 0x80 : 0));
    if (rle) out[4 + vs] = nulls == 0 ? 1 : 0;
  }
  return 4 + vs + (rle ? 1 : 0);
}

/* All the bytes of a page's definition levels (prefix included). */
GCOL_HD_INLINE int64_t gcol_detail_pq_levels_size(int64_t rows, int64_t nulls) {
  bool const rle = nulls == 0 || nulls == rows;
  return gcol_detail_pq_levels_header(rows, nulls, NULL) + (rle ? 0 : (rows + 7) / 8);
}

/* ---- dictionary encoding (both encoders and the host tests) ---- */

/* Per (column, chunk), what the device found for a dictionary: its distinct non-null values
 * and the bytes of their PLAIN encoding (the dictionary page's body before compression). */
typedef struct gcol_detail_pq_wdict {
  int64_t distinct;
  int64_t bytes;
} gcol_detail_pq_wdict;

/* Where the encoder writes a chunk's dictionary page (bit_width 0: the chunk is PLAIN and has
 * none). Its data pages then hold levels, the bit width byte and one bit-packed run of the
 * indices of their non-null rows. */
typedef struct gcol_detail_pq_wdict_place {
  int64_t header_at; /* as gcol_detail_pq_wplace */
  int64_t header_src;
  int64_t header_size;
  int64_t body_at;
  int32_t bit_width;
} gcol_detail_pq_wdict_place;

/* Bits of an index into a dictionary of `distinct` values: ceil(log2(distinct)), at least 1
 * (as Arrow writes it: some readers mishandle width 0). */
GCOL_HD_INLINE int gcol_detail_pq_dict_bit_width(int64_t distinct) {
  int bits = 1;
  while (bits < 32 && ((int64_t)1 << bits) < distinct) ++bits;
  return bits;
}

/* The header of `n` dictionary indices of `bit_width` bits: the bit width byte, then (n > 0)
 * the varint header of one bit-packed run of ceil(n / 8) groups. Returns its bytes (at most
 * 11), written to `out` unless NULL; ceil(n / 8) * bit_width packed bytes follow it. */
GCOL_HD_INLINE int gcol_detail_pq_dict_indices_header(int64_t n, int bit_width, uint8_t *out) {
  if (out != NULL) out[0] = (uint8_t)bit_width;
  if (n == 0) return 1;
  uint64_t v = ((uint64_t)((n + 7) / 8) << 1) | 1;
  int const vs = gcol_detail_pq_varint_size(v);
  for (int i = 0; out != NULL && i < vs; ++i, v >>= 7) {
    out[1 + i] = (uint8_t)((v & 0x7f) | (i + 1 < vs ? 0x80 : 0));
  }
  return 1 + vs;
}

/* All the bytes of `n` dictionary indices of `bit_width` bits (header included). */
GCOL_HD_INLINE int64_t gcol_detail_pq_dict_indices_size(int64_t n, int bit_width) {
  return gcol_detail_pq_dict_indices_header(n, bit_width, NULL) + (n + 7) / 8 * bit_width;
}

/* Byte j of the bit-packed run of v[0, n), `bit_width` bits each, least significant bit
 * first, zero past n: one byte per thread, so a page's indices are packed in parallel. */
GCOL_HD_INLINE uint8_t gcol_detail_pq_bitpack_byte(const uint32_t *v, int64_t n, int bit_width,
                                                   int64_t j) {
  uint32_t byte = 0;
  int64_t const first_bit = 8 * j;
  for (int64_t i = bit_width > 0 ? first_bit / bit_width : n; i < n; ++i) {
    int64_t const at = i * bit_width - first_bit; /* the value's first bit within the byte */
    if (at >= 8) break;
    uint64_t const x = (uint64_t)v[i];
    byte |= (uint32_t)(at >= 0 ? x << at : x >> -at) & 0xffu;
  }
  return (uint8_t)byte;
}

/* ---- per-row encoding, shared by the kernels and the host tests ---- */

GCOL_HD_INLINE bool gcol_detail_pq_w_valid(const gcol_detail_pq_wcol *c, int64_t r) {
  return gcol_bit_is_set_or_null_mask(c->mask, c->mask_offset + r);
}

/* A fixed-width (or BOOL) row as the physical type's bits, INT8/INT16 sign-extended (the host
 * encoder's fixed_bits). */
GCOL_HD_INLINE uint64_t gcol_detail_pq_w_bits(const gcol_detail_pq_wcol *c, int64_t r) {
  switch (c->width) {
    case 1: {
      uint8_t const v = c->data[r];
      return c->sign_extend ? (uint64_t)(int64_t)(int8_t)v : v;
    }
    case 2: {
      uint16_t const v = ((const uint16_t *)c->data)[r];
      return c->sign_extend ? (uint64_t)(int64_t)(int16_t)v : v;
    }
    case 4:
      return ((const uint32_t *)c->data)[r];
    default:
      return ((const uint64_t *)c->data)[r];
  }
}

/* FLOAT order: the bits of a float (width 4) or double as a double. */
GCOL_HD_INLINE double gcol_detail_pq_w_real(const gcol_detail_pq_wcol *c, uint64_t bits) {
  if (c->width == 4) {
    uint32_t const b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    return (double)f;
  }
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

/* NaN rows take no part in min and max. */
GCOL_HD_INLINE bool gcol_detail_pq_w_is_nan(const gcol_detail_pq_wcol *c, int64_t r) {
  if (c->order != GCOL_DETAIL_PQ_ORDER_FLOAT) return false;
  double const d = gcol_detail_pq_w_real(c, gcol_detail_pq_w_bits(c, r));
  return d != d;
}

/* -1, 0, 1 comparing rows a and b (the host encoder's compare_rows). */
GCOL_HD_INLINE int gcol_detail_pq_w_compare(const gcol_detail_pq_wcol *c, int64_t a, int64_t b) {
  if (c->kind == GCOL_DETAIL_PQ_W_STRING) {
    gcol_string_ref const x = gcol_strings_view_get(c->strings, a);
    gcol_string_ref const y = gcol_strings_view_get(c->strings, b);
    int64_t const n = x.size < y.size ? x.size : y.size;
    for (int64_t i = 0; i < n; ++i) {
      uint8_t const p = (uint8_t)x.data[i], q = (uint8_t)y.data[i];
      if (p != q) return p < q ? -1 : 1;
    }
    return x.size < y.size ? -1 : x.size > y.size;
  }
  uint64_t const x = gcol_detail_pq_w_bits(c, a), y = gcol_detail_pq_w_bits(c, b);
  if (c->order == GCOL_DETAIL_PQ_ORDER_FLOAT) {
    double const dx = gcol_detail_pq_w_real(c, x), dy = gcol_detail_pq_w_real(c, y);
    return dx < dy ? -1 : dx > dy;
  }
  if (c->order == GCOL_DETAIL_PQ_ORDER_UNSIGNED) return x < y ? -1 : x > y;
  int64_t sx = (int64_t)x, sy = (int64_t)y;
  if (c->out_width == 4) {
    sx = (int32_t)(uint32_t)x;
    sy = (int32_t)(uint32_t)y;
  }
  return sx < sy ? -1 : sx > sy;
}

/* The min (want -1) or max (want 1) of two candidate rows (-1: none); equal values keep the
 * first row, so any order of reduction picks the row the host encoder picks. */
GCOL_HD_INLINE int64_t gcol_detail_pq_w_pick(const gcol_detail_pq_wcol *c, int64_t a, int64_t b,
                                             int want) {
  if (a < 0) return b;
  if (b < 0) return a;
  int const r = gcol_detail_pq_w_compare(c, b, a);
  if (r == want || (r == 0 && b < a)) return b;
  return a;
}

/* Bytes of the PLAIN value of `row` in the statistics (no length prefix; 0: no row). */
GCOL_HD_INLINE int64_t gcol_detail_pq_w_stat_size(const gcol_detail_pq_wcol *c, int64_t row) {
  if (row < 0) return 0;
  if (c->kind == GCOL_DETAIL_PQ_W_STRING) return gcol_strings_view_size_bytes(c->strings, row);
  return c->kind == GCOL_DETAIL_PQ_W_BOOL ? 1 : c->out_width;
}

/* What a valid row adds to its page's values: PLAIN bytes (STRING: with the prefix), or 1
 * (the other kinds, counted in values). */
GCOL_HD_INLINE int64_t gcol_detail_pq_w_count(const gcol_detail_pq_wcol *c, int64_t r) {
  return c->kind == GCOL_DETAIL_PQ_W_STRING ? 4 + gcol_strings_view_size_bytes(c->strings, r) : 1;
}

/* The values bytes of a page with `valid` valid rows (`string_bytes`: their counts summed). */
GCOL_HD_INLINE int64_t gcol_detail_pq_w_value_bytes(const gcol_detail_pq_wcol *c, int64_t valid,
                                                    int64_t string_bytes) {
  return c->kind == GCOL_DETAIL_PQ_W_STRING ? string_bytes
         : c->kind == GCOL_DETAIL_PQ_W_BOOL ? (valid + 7) / 8
                                            : valid * c->out_width;
}

GCOL_HD_INLINE void gcol_detail_pq_w_put_le(uint8_t *dst, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) dst[i] = (uint8_t)(v >> (8 * i));
}

/* Valid row r of a page ending at `end`, the `slot`-th valid row of its page (STRING: at byte
 * `slot`), writes its PLAIN value into the page's values at `dst`. BOOL: the row of every 8th
 * slot packs the byte of itself and the next 7 valid rows. */
GCOL_HD_INLINE void gcol_detail_pq_w_put_value(const gcol_detail_pq_wcol *c, int64_t r, int64_t end,
                                               int64_t slot, uint8_t *dst) {
  if (c->kind == GCOL_DETAIL_PQ_W_STRING) {
    gcol_string_ref const s = gcol_strings_view_get(c->strings, r);
    gcol_detail_pq_w_put_le(dst + slot, (uint64_t)s.size, 4);
    for (int64_t i = 0; i < s.size; ++i) dst[slot + 4 + i] = (uint8_t)s.data[i];
  } else if (c->kind == GCOL_DETAIL_PQ_W_FIXED) {
    gcol_detail_pq_w_put_le(dst + slot * c->out_width, gcol_detail_pq_w_bits(c, r), c->out_width);
  } else if (slot % 8 == 0) {
    uint8_t byte = 0;
    int bit = 0;
    for (int64_t q = r; q < end && bit < 8; ++q) {
      if (!gcol_detail_pq_w_valid(c, q)) continue;
      if (c->data[q] != 0) byte |= (uint8_t)(1u << bit);
      ++bit;
    }
    dst[slot / 8] = byte;
  }
}

/* Byte j of the bit-packed definition levels of the `rows` rows from `begin`. */
GCOL_HD_INLINE uint8_t gcol_detail_pq_w_levels_byte(const gcol_detail_pq_wcol *c, int64_t begin,
                                                    int64_t rows, int64_t j) {
  uint8_t byte = 0;
  for (int b = 0; b < 8 && 8 * j + b < rows; ++b) {
    if (gcol_detail_pq_w_valid(c, begin + 8 * j + b)) byte |= (uint8_t)(1u << b);
  }
  return byte;
}

/* The statistics value of `row` (gcol_detail_pq_w_stat_size bytes). */
GCOL_HD_INLINE void gcol_detail_pq_w_put_stat(const gcol_detail_pq_wcol *c, int64_t row,
                                              uint8_t *dst) {
  if (c->kind == GCOL_DETAIL_PQ_W_STRING) {
    gcol_string_ref const s = gcol_strings_view_get(c->strings, row);
    for (int64_t i = 0; i < s.size; ++i) dst[i] = (uint8_t)s.data[i];
  } else if (c->kind == GCOL_DETAIL_PQ_W_BOOL) {
    dst[0] = c->data[row] != 0;
  } else {
    gcol_detail_pq_w_put_le(dst, gcol_detail_pq_w_bits(c, row), c->out_width);
  }
}

/* A column's encoder state on the device (kernels/io/parquet_encode.cu). */
typedef struct gcol_detail_pq_encoder gcol_detail_pq_encoder;

/* Counts what the pages of each column hold and its chunks' statistics (chunk g holds pages
 * [chunk_pages[g], chunk_pages[g + 1])). Fills the host arrays info[k * num_pages + p] and
 * stats[k * num_chunks + g]; synchronizes `stream`. The encoder keeps the page table. */
gcol_status gcol_detail_parquet_encode_plan(const gcol_detail_pq_wcol *cols, int32_t num_columns,
                                            const gcol_detail_pq_wpage *pages, int32_t num_pages,
                                            const int32_t *chunk_pages, int32_t num_chunks,
                                            gcol_detail_pq_wpage_info *info,
                                            gcol_detail_pq_wstats *stats, gcol_stream stream,
                                            gcol_detail_pq_encoder **out);

/* Dictionaries of the columns with want[k]: dicts[k * num_chunks + g] gets chunk g's
 * distinct non-null values and the bytes of their PLAIN encoding (zeros where !want[k]).
 * Values are distinct by their bits (-0.0 and 0.0 differ, as do NaNs of other payloads); the
 * dictionary lists them in the order of their first row. Synchronizes. */
gcol_status gcol_detail_parquet_encode_dict(gcol_detail_pq_encoder *enc, const bool *want,
                                            gcol_detail_pq_wdict *dicts);

/* The chunks' min and max values (no length prefix) into `host_stats` (stats_size bytes):
 * chunk (k, g)'s min at stat_at[k * num_chunks + g], its max right after. Synchronizes. */
gcol_status gcol_detail_parquet_encode_stats(gcol_detail_pq_encoder *enc, const int64_t *stat_at,
                                             int64_t stats_size, uint8_t *host_stats);

/* Writes every page of every column (info from the plan) into a device buffer of `out_size`
 * bytes at the places given (place[k * num_pages + p]; every byte of the buffer belongs to a
 * header or a body), the headers from `headers` (host, header_bytes), and copies it to
 * `host_out`. dict_place[k * num_chunks + g] (NULL: no dictionaries) places chunk g's
 * dictionary page, whose data pages then hold indices (their info's value_bytes counts
 * them). Synchronizes. */
gcol_status gcol_detail_parquet_encode_write(gcol_detail_pq_encoder *enc,
                                             const gcol_detail_pq_wplace *place,
                                             const gcol_detail_pq_wpage_info *info,
                                             const gcol_detail_pq_wdict_place *dict_place,
                                             const uint8_t *headers, int64_t header_bytes,
                                             int64_t out_size, uint8_t *host_out);

/* gcol_detail_parquet_encode_write without the copy: the output stays on the device, kept by
 * the encoder (until encoder_free or the next call) for gcol_detail_parquet_encode_fetch.
 * Queued on the encoder's stream; does not synchronize. */
gcol_status gcol_detail_parquet_encode_pages(gcol_detail_pq_encoder *enc,
                                             const gcol_detail_pq_wplace *place,
                                             const gcol_detail_pq_wpage_info *info,
                                             const gcol_detail_pq_wdict_place *dict_place,
                                             const uint8_t *headers, int64_t header_bytes,
                                             int64_t out_size);

/* Host staging owned by the encoder (freed by encoder_free): `slots` buffers of slot_bytes
 * each into slot[0, slots), pinned where the driver allows (else pageable). Once per encoder. */
gcol_status gcol_detail_parquet_encode_stage(gcol_detail_pq_encoder *enc, int32_t slots,
                                             int64_t slot_bytes, uint8_t **slot);

/* Bytes [begin, begin + size) of encode_pages' output into `host` (a staging slot): one
 * device-to-host copy, waited for without spinning. */
gcol_status gcol_detail_parquet_encode_fetch(gcol_detail_pq_encoder *enc, int64_t begin,
                                             int64_t size, uint8_t *host);

void gcol_detail_parquet_encoder_free(gcol_detail_pq_encoder *enc);

/* Knobs of the writer's compressed path, for the tests (0: the default). */
typedef struct gcol_detail_pq_write_knobs {
  int64_t stage_bytes; /* bytes of each staging slot (a larger page gets a slot its size) */
  int32_t helpers;     /* compressing threads besides the caller; -1: none, the caller alone */
} gcol_detail_pq_write_knobs;

/* gcol_parquet_write_buffer (path NULL: *out and *size set) or gcol_parquet_write_file (to
 * `path`) with `knobs` (NULL: the defaults). */
gcol_status gcol_detail_parquet_write(gcol_table_view table,
                                      const gcol_parquet_write_options *options,
                                      const gcol_detail_pq_write_knobs *knobs, const char *path,
                                      void **out, int64_t *size, gcol_stream stream);

/* ==== end of the GPU writer's block ==== */

/* ---- per-page decoders (host and device) ---- */

enum {
  GCOL_DETAIL_PQ_E_OK = 0,
  GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED = 1, /* fewer definition levels than values */
  GCOL_DETAIL_PQ_E_LEVEL_RANGE = 2,      /* a level above the max definition level */
  GCOL_DETAIL_PQ_E_BIT_WIDTH = 3,        /* dictionary index bit width above 32 */
  GCOL_DETAIL_PQ_E_VALUES_TRUNCATED = 4, /* values past the end of the page */
  GCOL_DETAIL_PQ_E_DICT_INDEX = 5,       /* a dictionary index past the dictionary */
  GCOL_DETAIL_PQ_E_DICT_TRUNCATED = 6,   /* dictionary values past the end of its page */
  GCOL_DETAIL_PQ_E_NO_DICT = 7,          /* dictionary-encoded page without a dictionary */
  GCOL_DETAIL_PQ_E_DELTA_HEADER = 8,     /* a DELTA_BINARY_PACKED header or width out of range */
  GCOL_DETAIL_PQ_E_LEVELS_LENGTH = 9,    /* v1 levels' length prefix missing or past the page */
  GCOL_DETAIL_PQ_E_DECOMPRESS = 10,      /* nvCOMP refused the page's compressed bytes */
  GCOL_DETAIL_PQ_E_DECOMPRESS_SIZE = 11, /* it decompressed to another size than the header's */
  GCOL_DETAIL_PQ_E_REFUSED = 12,         /* LZ4_RAW / SNAPPY bytes that do not walk (pq_walk.h) */
  GCOL_DETAIL_PQ_E_REFUSED_SIZE = 13,    /* ... that walk to another size than the header's */
  GCOL_DETAIL_PQ_E_REP_TRUNCATED = 14,   /* fewer repetition levels than values */
  GCOL_DETAIL_PQ_E_REP_RANGE = 15,       /* a level above the max repetition level */
  GCOL_DETAIL_PQ_E_REP_LENGTH = 16,      /* v1 repetition levels' length prefix missing or past
                                            the page */
};

/* A data page v1 decompressed on the GPU (page->def_pending): its definition levels' 4-byte
 * length prefix is read where the host reads it when it decompresses, and the level and value
 * ranges set from it (on failure they are left empty, so the decoders stay in the page). */
GCOL_HD_INLINE int gcol_detail_pq_place_levels(const uint8_t *bytes, gcol_detail_pq_page *pg) {
  if (!pg->def_pending) return GCOL_DETAIL_PQ_E_OK;
  int64_t begin = pg->def_begin;
  int64_t const end = pg->values_end;
  pg->def_pending = 0;
  pg->def_end = begin;
  pg->values_begin = begin;
  if (pg->rep_pending) { /* [length][repetition levels] first */
    pg->rep_pending = 0;
    pg->rep_begin = pg->rep_end = begin;
    if (end - begin < 4) return GCOL_DETAIL_PQ_E_REP_LENGTH;
    const uint8_t *r = bytes + begin;
    int64_t const n = (int64_t)((uint32_t)r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16 |
                                (uint32_t)r[3] << 24);
    if (n > end - begin - 4) return GCOL_DETAIL_PQ_E_REP_LENGTH;
    pg->rep_begin = begin + 4;
    pg->rep_end = begin + 4 + n;
    begin = pg->rep_end;
    pg->def_begin = pg->def_end = pg->values_begin = begin;
  }
  if (end - begin < 4) return GCOL_DETAIL_PQ_E_LEVELS_LENGTH;
  const uint8_t *q = bytes + begin;
  int64_t const n =
      (int64_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24);
  if (n > end - begin - 4) return GCOL_DETAIL_PQ_E_LEVELS_LENGTH;
  pg->def_begin = begin + 4;
  pg->def_end = begin + 4 + n;
  pg->values_begin = pg->def_end;
  return GCOL_DETAIL_PQ_E_OK;
}

/* Reader of an RLE/bit-packed hybrid stream of `bit_width`-bit values in [p, end). */
typedef struct gcol_detail_pq_rle {
  const uint8_t *p;
  const uint8_t *end;
  int bit_width;
  int64_t left;       /* values left in the current run */
  bool packed;        /* current run is bit-packed */
  uint32_t value;     /* RLE run's value */
  const uint8_t *run; /* bit-packed run's first byte */
  int64_t run_bytes;  /* bytes of it inside the stream */
  int64_t index;      /* next value's index within the packed run */
} gcol_detail_pq_rle;

GCOL_HD_INLINE void gcol_detail_pq_rle_init(gcol_detail_pq_rle *r, const uint8_t *p,
                                            const uint8_t *end, int bit_width) {
  r->p = p;
  r->end = end;
  r->bit_width = bit_width;
  r->left = 0;
  r->packed = false;
  r->value = 0;
  r->run = p;
  r->run_bytes = 0;
  r->index = 0;
}

/* Next value; false when the stream ends or is malformed. */
GCOL_HD_INLINE bool gcol_detail_pq_rle_next(gcol_detail_pq_rle *r, uint32_t *out) {
  while (r->left == 0) {
    uint64_t header = 0;
    int shift = 0;
    for (;;) {
      if (r->p >= r->end || shift > 35) return false;
      uint8_t const b = *r->p++;
      header |= (uint64_t)(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    if (header & 1) {
      int64_t const groups = (int64_t)(header >> 1);
      int64_t const avail = (int64_t)(r->end - r->p);
      int64_t const need = groups * r->bit_width;
      r->packed = true;
      r->left = groups * 8;
      r->run = r->p;
      r->run_bytes = need < avail ? need : avail; /* a short last run is read while it lasts */
      r->index = 0;
      r->p += r->run_bytes;
    } else {
      int const nbytes = (r->bit_width + 7) / 8;
      if ((int64_t)(r->end - r->p) < nbytes) return false;
      uint32_t v = 0;
      for (int i = 0; i < nbytes; ++i) v |= (uint32_t)r->p[i] << (8 * i);
      r->p += nbytes;
      r->packed = false;
      r->value = v;
      r->left = (int64_t)(header >> 1);
    }
  }
  if (r->packed) {
    int64_t const bit = r->index * r->bit_width;
    int64_t const last = bit + r->bit_width; /* one past the value's last bit */
    if ((last + 7) / 8 > r->run_bytes) return false;
    uint64_t v = 0;
    int got = 0;
    for (int64_t byte = bit / 8; byte * 8 < last; ++byte) {
      v |= (uint64_t)r->run[byte] << got;
      got += 8;
    }
    v >>= bit % 8;
    *out = r->bit_width == 32 ? (uint32_t)v : (uint32_t)(v & ((1ull << r->bit_width) - 1));
    ++r->index;
  } else {
    *out = r->value;
  }
  --r->left;
  return true;
}

/* ---- pqread: the hybrid stream run by run, for decoders that expand runs in parallel ---- */

/* One run of an RLE/bit-packed hybrid stream. */
typedef struct gcol_detail_pq_run {
  int64_t count;  /* values it yields as gcol_detail_pq_rle_next would (0: none) */
  int64_t offset; /* packed: the byte offset of its bits */
  uint32_t value; /* RLE: its value */
  bool packed;
  bool last; /* a packed run cut by the stream's end: the stream yields nothing after it */
} gcol_detail_pq_run;

/* Reads the run whose header is at bytes[*at] in a stream ending at bytes[end] and moves *at
 * past it; false where gcol_detail_pq_rle_next would fail on it (no header or RLE value). A
 * bit-packed run of g groups is skipped by g * bit_width bytes. */
GCOL_HD_INLINE bool gcol_detail_pq_rle_run(const uint8_t *bytes, int64_t *at, int64_t end,
                                           int bit_width, gcol_detail_pq_run *out) {
  int64_t p = *at;
  uint64_t header = 0;
  int shift = 0;
  for (;;) {
    if (p >= end || shift > 35) return false;
    uint8_t const b = bytes[p++];
    header |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
    if ((b & 0x80) == 0) break;
  }
  out->offset = p;
  out->value = 0;
  out->last = false;
  if (header & 1) {
    int64_t const groups = (int64_t)(header >> 1);
    int64_t const avail = end - p;
    int64_t const need = groups * bit_width;
    int64_t const run_bytes = need < avail ? need : avail;
    int64_t const full = groups * 8;
    int64_t const fit = bit_width == 0 ? full : run_bytes * 8 / bit_width;
    out->packed = true;
    out->count = fit < full ? fit : full; /* value i needs bits up to (i + 1) * bit_width */
    out->last = out->count < full;
    p += run_bytes;
  } else {
    int const nbytes = (bit_width + 7) / 8;
    if (end - p < nbytes) return false;
    uint32_t v = 0;
    for (int i = 0; i < nbytes; ++i) v |= (uint32_t)bytes[p + i] << (8 * i);
    p += nbytes;
    out->packed = false;
    out->value = v;
    out->count = (int64_t)(header >> 1);
  }
  *at = p;
  return true;
}

/* Value `index` of a bit-packed run whose bits start at `run` (gcol_detail_pq_rle_run's
 * count bounds index, so every byte read is inside the run). */
GCOL_HD_INLINE uint32_t gcol_detail_pq_unpack(const uint8_t *run, int64_t index, int bit_width) {
  if (bit_width == 0) return 0;
  int64_t const bit = index * bit_width;
  int64_t const last = bit + bit_width;
  uint64_t v = 0;
  int got = 0;
  for (int64_t byte = bit / 8; byte * 8 < last; ++byte) {
    v |= (uint64_t)run[byte] << got;
    got += 8;
  }
  v >>= bit % 8;
  return bit_width == 32 ? (uint32_t)v : (uint32_t)(v & ((1ull << bit_width) - 1));
}

/* A batch of runs read by one thread for a block to expand (kernels/io/parquet_decode.cu
 * keeps it in shared memory; the host tests drive it the same way). */
#define GCOL_DETAIL_PQ_RUNS 256
typedef struct gcol_detail_pq_runs {
  int64_t first[GCOL_DETAIL_PQ_RUNS + 1]; /* value index of each run; first[n] ends the batch */
  int64_t data[GCOL_DETAIL_PQ_RUNS];      /* packed: offset of its bits; RLE: its value */
  bool packed[GCOL_DETAIL_PQ_RUNS];
  int32_t n;
  int64_t at;      /* next header */
  int64_t covered; /* values of the runs read so far */
  bool done;       /* the stream yields no more values */
} gcol_detail_pq_runs;

GCOL_HD_INLINE void gcol_detail_pq_runs_begin(gcol_detail_pq_runs *s, int64_t at) {
  s->at = at;
  s->covered = 0;
  s->done = false;
}

/* The next batch: runs up to `count` values (fewer when the stream ends; zero-count runs are
 * left out, so first[] increases strictly). */
GCOL_HD_INLINE void gcol_detail_pq_runs_fill(gcol_detail_pq_runs *s, const uint8_t *bytes,
                                             int64_t end, int bit_width, int64_t count) {
  int32_t n = 0;
  s->first[0] = s->covered;
  while (n < GCOL_DETAIL_PQ_RUNS && s->covered < count && !s->done) {
    gcol_detail_pq_run r;
    if (!gcol_detail_pq_rle_run(bytes, &s->at, end, bit_width, &r)) {
      s->done = true;
      break;
    }
    if (r.count > 0) {
      s->data[n] = r.packed ? r.offset : (int64_t)r.value;
      s->packed[n] = r.packed;
      s->first[n] = s->covered;
      s->covered += r.count;
      ++n;
    }
    if (r.last) s->done = true;
  }
  s->first[n] = s->covered;
  s->n = n;
}

/* The run of the batch holding value i (first[0] <= i < first[n]). */
GCOL_HD_INLINE int32_t gcol_detail_pq_runs_find(const gcol_detail_pq_runs *s, int64_t i) {
  int32_t lo = 0, hi = s->n - 1;
  while (lo < hi) {
    int32_t const mid = lo + (hi - lo + 1) / 2;
    if (s->first[mid] <= i) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/* Value i, in run r of the batch. */
GCOL_HD_INLINE uint32_t gcol_detail_pq_runs_value(const gcol_detail_pq_runs *s,
                                                  const uint8_t *bytes, int bit_width, int32_t r,
                                                  int64_t i) {
  if (!s->packed[r]) return (uint32_t)s->data[r];
  return gcol_detail_pq_unpack(bytes + s->data[r], i - s->first[r], bit_width);
}

/* The next table of a stage of `len` bytes (a byte-array walk's shortcut, filled in parallel):
 * for a value whose length starts at stage position p, the position after the value, when its
 * length and its bytes both lie in the stage; GCOL_DETAIL_PQ_NEXT_NONE otherwise. */
#define GCOL_DETAIL_PQ_NEXT_NONE 0xffffu
#define GCOL_DETAIL_PQ_NEXT_MAX_STAGE 0xfffe /* a position after a value fits below NONE */

GCOL_HD_INLINE uint16_t gcol_detail_pq_walk_next_entry(const uint8_t *stage, int64_t len,
                                                       int64_t p) {
  if (len - p < 4) return GCOL_DETAIL_PQ_NEXT_NONE;
  const uint8_t *q = stage + p;
  uint32_t const n =
      (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
  uint64_t const after = (uint64_t)p + 4 + n;
  return after <= (uint64_t)len ? (uint16_t)after : (uint16_t)GCOL_DETAIL_PQ_NEXT_NONE;
}

/* A squaring of a stage's jump table (entry p: the position `h` values after p, or NONE; the
 * entry at the stage's length NONE): the position 2h values after p. */
GCOL_HD_INLINE uint16_t gcol_detail_pq_walk_square(const uint16_t *jump, int64_t p) {
  uint16_t const q = jump[p];
  return q == GCOL_DETAIL_PQ_NEXT_NONE ? q : jump[q];
}

/* Checkpoints of a stage's walk: check[0] = start, then every `hop` values (the jump table of
 * `hop` values) while the table reaches and fewer than `limit` values lie before; returns how
 * many. Walks from the checkpoints, in parallel, together make the walk from `start`. */
GCOL_HD_INLINE int32_t gcol_detail_pq_walk_checkpoints(const uint16_t *jump, uint16_t start,
                                                       int64_t limit, int32_t hop,
                                                       uint16_t *check) {
  int32_t n = 1;
  check[0] = start;
  while ((int64_t)n * hop < limit) {
    uint16_t const q = jump[check[n - 1]];
    if (q == GCOL_DETAIL_PQ_NEXT_NONE) break;
    check[n++] = q;
  }
  return n;
}

/* One step of a byte-array walk over staged bytes: stage[0, stop - base) holds bytes[base,
 * stop) of values that end by `end`; from *at (>= base) reads up to `most` values (`left` are
 * wanted), their offsets from `begin` into off[] and lengths into len[]. Stops where a length
 * is not staged (*fail when the stage reached `end`) or runs past `end` (*fail). Returns the
 * values read; *at moves past them. With the stage's next table (or NULL), a value wholly in
 * the stage costs one dependent load of it (the GPU's walk) instead of its length's four bytes;
 * the others read their lengths from the stage. */
GCOL_HD_INLINE int32_t gcol_detail_pq_walk_step(const uint8_t *stage, const uint16_t *next,
                                                int64_t base, int64_t stop, int64_t end,
                                                int64_t begin, int64_t left, int32_t most,
                                                uint32_t *off, int32_t *len, int64_t *at,
                                                bool *fail) {
  int64_t p = *at;
  int32_t m = 0;
  while (m < most && m < left) {
    if (stop - p < 4) {
      if (stop == end) *fail = true;
      break;
    }
    uint32_t const after = next != NULL ? next[p - base] : GCOL_DETAIL_PQ_NEXT_NONE;
    uint32_t n;
    if (after != GCOL_DETAIL_PQ_NEXT_NONE) {
      n = after - (uint32_t)(p - base) - 4;
    } else {
      const uint8_t *q = stage + (p - base);
      n = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    }
    p += 4;
    if ((uint64_t)n > (uint64_t)(end - p)) {
      *fail = true;
      break;
    }
    off[m] = (uint32_t)(p - begin);
    len[m] = (int32_t)n;
    p += n;
    ++m;
  }
  *at = p;
  return m;
}
/* ---- end pqread ---- */

/* Bits needed for values up to `max`. */
GCOL_HD_INLINE int gcol_detail_pq_bit_width(uint32_t max) {
  int w = 0;
  while (w < 32 && (max >> w) != 0) ++w;
  return w;
}

/* Definition levels of a page: valid[i] (0/1) and slot[i] (the value index among the page's
 * valid rows) for its rows; *num_valid. */
GCOL_HD_INLINE int gcol_detail_pq_decode_levels(const uint8_t *bytes, gcol_detail_pq_page page,
                                                int32_t max_def, uint8_t *valid, int32_t *slot,
                                                int64_t *num_valid) {
  int64_t k = 0;
  if (max_def == 0) {
    for (int64_t i = 0; i < page.num_rows; ++i) {
      valid[i] = 1;
      slot[i] = (int32_t)i;
    }
    *num_valid = page.num_rows;
    return GCOL_DETAIL_PQ_E_OK;
  }
  gcol_detail_pq_rle r;
  gcol_detail_pq_rle_init(&r, bytes + page.def_begin, bytes + page.def_end,
                          gcol_detail_pq_bit_width((uint32_t)max_def));
  for (int64_t i = 0; i < page.num_rows; ++i) {
    uint32_t level;
    if (!gcol_detail_pq_rle_next(&r, &level)) return GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED;
    if (level > (uint32_t)max_def) return GCOL_DETAIL_PQ_E_LEVEL_RANGE;
    valid[i] = level == (uint32_t)max_def;
    slot[i] = (int32_t)k;
    k += valid[i];
  }
  *num_valid = k;
  return GCOL_DETAIL_PQ_E_OK;
}

/* Bytes of one PLAIN value of a fixed-width physical type (BOOLEAN: 0, it is bit-packed;
 * FIXED_LEN_BYTE_ARRAY: its type length). */
GCOL_HD_INLINE int gcol_detail_pq_plain_width(int32_t physical_type, int32_t type_length) {
  return physical_type == GCOL_PARQUET_INT32 || physical_type == GCOL_PARQUET_FLOAT    ? 4
         : physical_type == GCOL_PARQUET_INT64 || physical_type == GCOL_PARQUET_DOUBLE ? 8
         : physical_type == GCOL_PARQUET_INT96                                         ? 12
         : physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY                          ? type_length
                                                                                       : 0;
}

/* Reads `count` length-prefixed BYTE_ARRAY values in [begin, end): pos/len of each. */
GCOL_HD_INLINE bool gcol_detail_pq_walk_byte_arrays(const uint8_t *bytes, int64_t begin,
                                                    int64_t end, int64_t count, int64_t *pos,
                                                    int32_t *len) {
  int64_t at = begin;
  for (int64_t i = 0; i < count; ++i) {
    if (end - at < 4) return false;
    uint32_t const n = (uint32_t)bytes[at] | (uint32_t)bytes[at + 1] << 8 |
                       (uint32_t)bytes[at + 2] << 16 | (uint32_t)bytes[at + 3] << 24;
    at += 4;
    if ((uint64_t)n > (uint64_t)(end - at)) return false;
    pos[i] = at;
    len[i] = (int32_t)n;
    at += n;
  }
  return true;
}

/* Checks that a PLAIN run of `count` fixed-width values (or bits) fits in [begin, end). */
GCOL_HD_INLINE bool gcol_detail_pq_plain_fits(int32_t physical_type, int32_t type_length,
                                              int64_t begin, int64_t end, int64_t count) {
  int const w = gcol_detail_pq_plain_width(physical_type, type_length);
  int64_t const need = w == 0 ? (count + 7) / 8 : count * w;
  return need <= end - begin;
}

/* An unsigned LEB128 varint of at most 64 bits from [*p, end). */
GCOL_HD_INLINE bool gcol_detail_pq_uleb(const uint8_t **p, const uint8_t *end, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*p >= end) return false;
    uint8_t const b = *(*p)++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}

/* DELTA_BINARY_PACKED: the first `count` values in [begin, end) as 64-bit words (INT32
 * values in their low 32 bits; the sums wrap, as the encoders' do); *stop (unless NULL) gets
 * the offset after the last miniblock read (where DELTA_LENGTH_BYTE_ARRAY's bytes start). */
GCOL_HD_INLINE int gcol_detail_pq_decode_delta(const uint8_t *bytes, int64_t begin, int64_t end,
                                               int64_t count, uint64_t *out, int64_t *stop) {
  const uint8_t *p = bytes + begin;
  const uint8_t *const e = bytes + end;
  uint64_t block, minis, total, first;
  if (!gcol_detail_pq_uleb(&p, e, &block) || !gcol_detail_pq_uleb(&p, e, &minis) ||
      !gcol_detail_pq_uleb(&p, e, &total) || !gcol_detail_pq_uleb(&p, e, &first)) {
    return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
  }
  if (block == 0 || block > (1u << 20) || block % 128 != 0 || minis == 0 || minis > block ||
      block % minis != 0 || (block / minis) % 32 != 0) {
    return GCOL_DETAIL_PQ_E_DELTA_HEADER;
  }
  if (total < (uint64_t)count) return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
  if (stop != NULL) *stop = (int64_t)(p - bytes);
  if (count == 0) return GCOL_DETAIL_PQ_E_OK;
  int64_t const per_mini = (int64_t)(block / minis);
  uint64_t v = (first >> 1) ^ (0 - (first & 1));
  out[0] = v;
  int64_t i = 1;
  while (i < count) {
    uint64_t zmin;
    if (!gcol_detail_pq_uleb(&p, e, &zmin)) return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
    uint64_t const min_delta = (zmin >> 1) ^ (0 - (zmin & 1));
    if ((uint64_t)(e - p) < minis) return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
    const uint8_t *const widths = p;
    p += minis;
    for (uint64_t m = 0; m < minis && i < count; ++m) {
      int const bw = widths[m];
      if (bw > 64) return GCOL_DETAIL_PQ_E_DELTA_HEADER;
      int64_t const avail = (int64_t)(e - p);
      for (int64_t j = 0; j < per_mini && i < count; ++j, ++i) {
        int64_t const bit = j * bw;
        if ((bit + bw + 7) / 8 > avail) return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
        uint64_t x = 0;
        for (int got = 0; got < bw;) {
          int64_t const at = bit + got;
          int const off = (int)(at % 8);
          int const take = 8 - off < bw - got ? 8 - off : bw - got;
          x |= (uint64_t)((p[at / 8] >> off) & ((1u << take) - 1)) << got;
          got += take;
        }
        v += min_delta + x;
        out[i] = v;
      }
      int64_t const full = per_mini * bw / 8;
      p += full < avail ? full : avail;
    }
  }
  if (stop != NULL) *stop = (int64_t)(p - bytes);
  return GCOL_DETAIL_PQ_E_OK;
}

/* The values of a data page with `num_valid` non-null values: for DICT pages the indices
 * (checked against `dict_size`), for RLE_BOOL the bits, into index[0, num_valid); for PLAIN
 * BYTE_ARRAY the positions and lengths; for DELTA the values into pos (as 64-bit words); for
 * PLAIN fixed width a bounds check. */
GCOL_HD_INLINE int gcol_detail_pq_decode_values(const uint8_t *bytes, gcol_detail_pq_page page,
                                                int32_t physical_type, int32_t type_length,
                                                int64_t num_valid, int64_t dict_size,
                                                int32_t *index, int64_t *pos, int32_t *len) {
  if (page.encoding == GCOL_DETAIL_PQ_VALUES_PLAIN) {
    if (physical_type == GCOL_PARQUET_BYTE_ARRAY) {
      return gcol_detail_pq_walk_byte_arrays(bytes, page.values_begin, page.values_end, num_valid,
                                             pos, len)
                 ? GCOL_DETAIL_PQ_E_OK
                 : GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
    }
    return gcol_detail_pq_plain_fits(physical_type, type_length, page.values_begin, page.values_end,
                                     num_valid)
               ? GCOL_DETAIL_PQ_E_OK
               : GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
  }
  if (page.encoding == GCOL_DETAIL_PQ_VALUES_DELTA) {
    return gcol_detail_pq_decode_delta(bytes, page.values_begin, page.values_end, num_valid,
                                       (uint64_t *)pos, NULL);
  }
  if (page.encoding == GCOL_DETAIL_PQ_VALUES_DELTA_LENGTH) { /* lengths, then the bytes */
    int64_t at = 0;
    int const code = gcol_detail_pq_decode_delta(bytes, page.values_begin, page.values_end,
                                                 num_valid, (uint64_t *)pos, &at);
    if (code != GCOL_DETAIL_PQ_E_OK) return code;
    for (int64_t i = 0; i < num_valid; ++i) {
      uint64_t const n = (uint64_t)pos[i];
      if (n > (uint64_t)(page.values_end - at) || n > INT32_MAX) {
        return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
      }
      pos[i] = at;
      len[i] = (int32_t)n;
      at += (int64_t)n;
    }
    return GCOL_DETAIL_PQ_E_OK;
  }
  if (page.encoding == GCOL_DETAIL_PQ_VALUES_SPLIT) { /* the row pass reads it in place */
    return gcol_detail_pq_plain_fits(physical_type, type_length, page.values_begin, page.values_end,
                                     num_valid)
               ? GCOL_DETAIL_PQ_E_OK
               : GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
  }
  int64_t begin = page.values_begin;
  int bit_width = 1;
  if (page.encoding == GCOL_DETAIL_PQ_VALUES_DICT) {
    if (page.dict < 0) return GCOL_DETAIL_PQ_E_NO_DICT;
    if (num_valid == 0) return GCOL_DETAIL_PQ_E_OK; /* an all-null page may hold no byte */
    if (page.values_end - begin < 1) return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
    bit_width = bytes[begin++];
    if (bit_width > 32) return GCOL_DETAIL_PQ_E_BIT_WIDTH;
  } else {
    if (page.values_end - begin < 4) return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
    uint32_t const n = (uint32_t)bytes[begin] | (uint32_t)bytes[begin + 1] << 8 |
                       (uint32_t)bytes[begin + 2] << 16 | (uint32_t)bytes[begin + 3] << 24;
    begin += 4;
    if ((uint64_t)n > (uint64_t)(page.values_end - begin)) {
      return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
    }
    page.values_end = begin + n;
  }
  gcol_detail_pq_rle r;
  gcol_detail_pq_rle_init(&r, bytes + begin, bytes + page.values_end, bit_width);
  for (int64_t i = 0; i < num_valid; ++i) {
    uint32_t v;
    if (!gcol_detail_pq_rle_next(&r, &v)) return GCOL_DETAIL_PQ_E_VALUES_TRUNCATED;
    if (page.encoding == GCOL_DETAIL_PQ_VALUES_DICT && (int64_t)v >= dict_size) {
      return GCOL_DETAIL_PQ_E_DICT_INDEX;
    }
    index[i] = (int32_t)v;
  }
  return GCOL_DETAIL_PQ_E_OK;
}

/* The entries of a dictionary page: positions and lengths (BYTE_ARRAY), or a bounds check. */
GCOL_HD_INLINE int gcol_detail_pq_decode_dict(const uint8_t *bytes, gcol_detail_pq_dict dict,
                                              int32_t physical_type, int32_t type_length,
                                              int64_t *pos, int32_t *len) {
  if (physical_type == GCOL_PARQUET_BYTE_ARRAY) {
    return gcol_detail_pq_walk_byte_arrays(bytes, dict.begin, dict.end, dict.num_values, pos, len)
               ? GCOL_DETAIL_PQ_E_OK
               : GCOL_DETAIL_PQ_E_DICT_TRUNCATED;
  }
  return gcol_detail_pq_plain_fits(physical_type, type_length, dict.begin, dict.end,
                                   dict.num_values)
             ? GCOL_DETAIL_PQ_E_OK
             : GCOL_DETAIL_PQ_E_DICT_TRUNCATED;
}

/* PLAIN value `k` of a fixed-width physical type at `begin` (checked by the decoders above),
 * as the bits of a 64-bit word (sign-extended INT32). */
GCOL_HD_INLINE uint64_t gcol_detail_pq_plain_value(const uint8_t *bytes, int64_t begin, int64_t k,
                                                   int32_t physical_type) {
  if (physical_type == GCOL_PARQUET_BOOLEAN) {
    return (bytes[begin + k / 8] >> (k % 8)) & 1u;
  }
  int const w = gcol_detail_pq_plain_width(physical_type, 0);
  const uint8_t *p = bytes + begin + k * w;
  uint64_t v = 0;
  for (int i = 0; i < (w < 8 ? w : 8); ++i) v |= (uint64_t)p[i] << (8 * i);
  if (physical_type == GCOL_PARQUET_INT32) v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
  if (physical_type == GCOL_PARQUET_INT96) { /* nanoseconds of the day, then a Julian day */
    uint32_t const day =
        (uint32_t)p[8] | (uint32_t)p[9] << 8 | (uint32_t)p[10] << 16 | (uint32_t)p[11] << 24;
    v += (uint64_t)((int64_t)day - 2440588) * UINT64_C(86400000000000); /* wraps like int64 */
  }
  return v;
}

/* BYTE_STREAM_SPLIT value `k` of `count` values at `begin` (byte b of every value in stream b
 * of `count` bytes; checked by the decoders above), as gcol_detail_pq_plain_value gives it. */
GCOL_HD_INLINE uint64_t gcol_detail_pq_split_value(const uint8_t *bytes, int64_t begin, int64_t k,
                                                   int64_t count, int32_t physical_type) {
  int const w = gcol_detail_pq_plain_width(physical_type, 0);
  uint64_t v = 0;
  for (int b = 0; b < w; ++b) v |= (uint64_t)bytes[begin + b * count + k] << (8 * b);
  if (physical_type == GCOL_PARQUET_INT32) v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
  return v;
}

/* FIXED_LEN_BYTE_ARRAY value `k` of `type_length` (1..16) big-endian two's-complement bytes
 * (a DECIMAL), sign-extended to 128 bits. */
GCOL_HD_INLINE void gcol_detail_pq_flba_value(const uint8_t *bytes, int64_t begin, int64_t k,
                                              int32_t type_length, uint64_t *lo, uint64_t *hi) {
  const uint8_t *p = bytes + begin + k * type_length;
  uint64_t l = p[0] & 0x80 ? ~0ull : 0, h = l; /* the sign fills what the bytes do not */
  for (int32_t i = 0; i < type_length; ++i) {
    h = (h << 8) | (l >> 56);
    l = (l << 8) | p[i];
  }
  *lo = l;
  *hi = h;
}

/* The bits of the float32 equal to IEEE 754 half `h`: every half is exactly a float (a
 * subnormal half becomes a normal float; infinities keep their sign, NaNs their payload). */
GCOL_HD_INLINE uint32_t gcol_detail_pq_half_to_float_bits(uint16_t h) {
  uint32_t const sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t const exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return sign | 0x7f800000u | mantissa << 13;
  if (exponent != 0) return sign | (exponent + 112) << 23 | mantissa << 13; /* 127 - 15 */
  if (mantissa == 0) return sign;
  /* subnormal: mantissa * 2^-24, normalized by shifting its top bit into the hidden bit */
  uint32_t shifts = 0;
  while ((mantissa & 0x400u) == 0) {
    mantissa <<= 1;
    ++shifts;
  }
  return sign | (113 - shifts) << 23 | (mantissa & 0x3ffu) << 13;
}

/* FIXED_LEN_BYTE_ARRAY value `k` of the values at `begin` (one after another, PLAIN or a
 * dictionary page) as the fixed-width column of gcol type `id` holds it: a FLOAT16 (2
 * little-endian bytes) as the bits of its float32, else a DECIMAL sign-extended to 128 bits. */
GCOL_HD_INLINE void gcol_detail_pq_flba_fixed_value(const uint8_t *bytes, int64_t begin, int64_t k,
                                                    int32_t type_length, gcol_type_id id,
                                                    uint64_t *lo, uint64_t *hi) {
  if (id == GCOL_FLOAT32) {
    const uint8_t *p = bytes + begin + k * 2;
    *lo = gcol_detail_pq_half_to_float_bits((uint16_t)(p[0] | p[1] << 8));
    *hi = 0;
    return;
  }
  gcol_detail_pq_flba_value(bytes, begin, k, type_length, lo, hi);
}

/* Where FIXED_LEN_BYTE_ARRAY value `k` of the values at `begin` starts, read as a string:
 * values lie one after another, `type_length` bytes each, without a length prefix (PLAIN and
 * dictionary pages), so a string column of them needs no walk of lengths. */
GCOL_HD_INLINE int64_t gcol_detail_pq_flba_at(int64_t begin, int64_t k, int32_t type_length) {
  return begin + k * (int64_t)type_length;
}

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_PARQUET_H */
