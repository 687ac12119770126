/* Parquet writer (include/gcol/io/parquet.h): data pages v1, PLAIN values (or, per column
 * chunk as options->dictionary decides, a dictionary page and RLE_DICTIONARY indices) with
 * RLE/bit-packed definition levels, min/max/null-count statistics per column chunk.
 *
 * The pages are encoded on the GPU (kernels/io/parquet_encode.cu): the device counts each
 * page's nulls and bytes and each chunk's statistics; the host lays the file out from those
 * counts (page headers, offsets) and, uncompressed, sizes the output once and has the device
 * write headers and bodies in file order, copied to it in one transfer; with options->codec
 * the bodies come back in pieces through pinned staging and are compressed page by page by
 * host threads (lib/io/parquet_codec.c), then copied into an output sized once or written to
 * the file as they complete. The footer is written here by lib/io/thrift.c. The host encoder
 * (gcol_detail_parquet_write_host, PLAIN only) stays as the reference of values and
 * statistics the tests compare with. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gcol/version.h"
#include "internal/error.h"
#include "internal/nvtx.h"
#include "internal/parquet.h"
#include "internal/thrift.h"

typedef gcol_detail_thrift_writer tw;

/* Rows per data page: pages stay far below Parquet's 2^31-byte page limit for fixed-width
 * types; string pages are checked. */
#define ROWS_PER_PAGE GCOL_DETAIL_PQ_ROWS_PER_PAGE
#define DEFAULT_ROW_GROUP_ROWS (1 << 20)

static void put_le(tw *w, uint64_t v, int bytes) {
  uint8_t b[8];
  for (int i = 0; i < bytes; ++i) b[i] = (uint8_t)(v >> (8 * i));
  gcol_detail_thrift_write_bytes(w, b, (size_t)bytes);
}

void gcol_detail_parquet_rle_encode(struct gcol_detail_thrift_writer *w, const uint32_t *v,
                                    int64_t n, int bw) {
  int64_t i = 0;
  while (i < n && !w->failed) {
    int64_t run = 1;
    while (i + run < n && v[i + run] == v[i]) ++run;
    if (run >= 8) {
      gcol_detail_thrift_write_varint(w, (uint64_t)run << 1);
      put_le(w, v[i], (bw + 7) / 8);
      i += run;
      continue;
    }
    /* bit-packed groups of 8 until a run of 8 starts at a group's end, or the end */
    int64_t j = i;
    for (;;) {
      j = j + 8 < n ? j + 8 : n;
      if (j >= n || j - i >= 8 * 63) break;
      int64_t r = 1;
      while (j + r < n && v[j + r] == v[j]) ++r;
      if (r >= 8) break;
    }
    int64_t const groups = (j - i + 7) / 8;
    gcol_detail_thrift_write_varint(w, ((uint64_t)groups << 1) | 1);
    int64_t const bytes = groups * bw;
    uint8_t packed[8 * 63 * 4]; /* at most 63 groups of 8 values of 32 bits */
    memset(packed, 0, (size_t)bytes);
    for (int64_t k = 0; k < groups * 8; ++k) {
      uint64_t const x = i + k < j ? v[i + k] : 0;
      int64_t const bit = k * bw;
      for (int b = 0; b < bw; ++b) {
        if ((x >> b) & 1) packed[(bit + b) / 8] |= (uint8_t)(1u << ((bit + b) % 8));
      }
    }
    gcol_detail_thrift_write_bytes(w, packed, (size_t)bytes);
    i = j;
  }
}

void gcol_parquet_write_options_init(gcol_parquet_write_options *options) {
  if (options != NULL) memset(options, 0, sizeof *options);
}

/* ---- what each gcol type becomes ---- */

typedef struct type_map {
  int32_t physical;
  int32_t logical; /* 0: none */
  int32_t time_unit;
  int32_t bit_width;
  bool is_signed;
  int32_t precision;
} type_map;

static bool map_type(gcol_data_type t, type_map *m) {
  memset(m, 0, sizeof *m);
  m->physical = GCOL_PARQUET_INT32;
  switch (t.id) {
    case GCOL_INT8:
    case GCOL_INT16:
    case GCOL_UINT8:
    case GCOL_UINT16:
    case GCOL_UINT32:
      m->logical = GCOL_PARQUET_LOGICAL_INTEGER;
      m->bit_width = (int32_t)gcol_type_size(t.id) * 8;
      m->is_signed = t.id == GCOL_INT8 || t.id == GCOL_INT16;
      return true;
    case GCOL_INT32:
      return true;
    case GCOL_INT64:
      m->physical = GCOL_PARQUET_INT64;
      return true;
    case GCOL_UINT64:
      m->physical = GCOL_PARQUET_INT64;
      m->logical = GCOL_PARQUET_LOGICAL_INTEGER;
      m->bit_width = 64;
      return true;
    case GCOL_FLOAT32:
      m->physical = GCOL_PARQUET_FLOAT;
      return true;
    case GCOL_FLOAT64:
      m->physical = GCOL_PARQUET_DOUBLE;
      return true;
    case GCOL_BOOL8:
      m->physical = GCOL_PARQUET_BOOLEAN;
      return true;
    case GCOL_TIMESTAMP_DAYS:
      m->logical = GCOL_PARQUET_LOGICAL_DATE;
      return true;
    case GCOL_TIMESTAMP_MILLISECONDS:
    case GCOL_TIMESTAMP_MICROSECONDS:
    case GCOL_TIMESTAMP_NANOSECONDS:
      m->physical = GCOL_PARQUET_INT64;
      m->logical = GCOL_PARQUET_LOGICAL_TIMESTAMP;
      m->time_unit = t.id == GCOL_TIMESTAMP_MILLISECONDS   ? GCOL_PARQUET_UNIT_MILLIS
                     : t.id == GCOL_TIMESTAMP_MICROSECONDS ? GCOL_PARQUET_UNIT_MICROS
                                                           : GCOL_PARQUET_UNIT_NANOS;
      return true;
    case GCOL_DECIMAL32:
    case GCOL_DECIMAL64:
      if (t.scale > 0) return false; /* Parquet's scale is >= 0 */
      m->physical = t.id == GCOL_DECIMAL32 ? GCOL_PARQUET_INT32 : GCOL_PARQUET_INT64;
      m->logical = GCOL_PARQUET_LOGICAL_DECIMAL;
      m->precision = t.id == GCOL_DECIMAL32 ? 9 : 18;
      return -t.scale <= m->precision;
    case GCOL_STRING:
      m->physical = GCOL_PARQUET_BYTE_ARRAY;
      m->logical = GCOL_PARQUET_LOGICAL_STRING;
      return true;
    default:
      return false;
  }
}

/* ---- values ---- */

static bool row_valid(const gcol_detail_pq_host_column *c, int64_t row) {
  return c->valid == NULL || c->valid[row] != 0;
}

/* The value of a fixed-width row as the physical type's bits (sign- or zero-extended). */
static uint64_t fixed_bits(const gcol_detail_pq_host_column *c, int64_t row) {
  size_t const w = gcol_type_size(c->type.id);
  const uint8_t *p = (const uint8_t *)c->data + (size_t)row * w;
  uint64_t v = 0;
  for (size_t i = 0; i < w; ++i) v |= (uint64_t)p[i] << (8 * i);
  bool const is_signed = c->type.id == GCOL_INT8 || c->type.id == GCOL_INT16;
  if (is_signed && w < 4) {
    int const shift = 64 - 8 * (int)w;
    v = (uint64_t)((int64_t)(v << shift) >> shift);
  }
  return v;
}

/* -1, 0, 1 comparing rows a and b of a column (statistics order of its logical type). */
static int compare_rows(const gcol_detail_pq_host_column *c, int64_t a, int64_t b) {
  gcol_type_id const id = c->type.id;
  if (id == GCOL_STRING) {
    int64_t const la = c->offsets[a + 1] - c->offsets[a], lb = c->offsets[b + 1] - c->offsets[b];
    int64_t const n = la < lb ? la : lb;
    int const r = n > 0 ? memcmp(c->chars + c->offsets[a], c->chars + c->offsets[b], (size_t)n) : 0;
    return r != 0 ? (r < 0 ? -1 : 1) : (la < lb ? -1 : la > lb);
  }
  uint64_t const x = fixed_bits(c, a), y = fixed_bits(c, b);
  if (id == GCOL_FLOAT32 || id == GCOL_FLOAT64) {
    double dx, dy;
    if (id == GCOL_FLOAT32) {
      float fx, fy;
      uint32_t const bx = (uint32_t)x, by = (uint32_t)y;
      memcpy(&fx, &bx, 4);
      memcpy(&fy, &by, 4);
      dx = fx;
      dy = fy;
    } else {
      memcpy(&dx, &x, 8);
      memcpy(&dy, &y, 8);
    }
    return dx < dy ? -1 : dx > dy;
  }
  bool const is_unsigned = id == GCOL_UINT8 || id == GCOL_UINT16 || id == GCOL_UINT32 ||
                           id == GCOL_UINT64 || id == GCOL_BOOL8;
  if (is_unsigned) return x < y ? -1 : x > y;
  int64_t sx = (int64_t)x, sy = (int64_t)y;
  if (gcol_type_size(id) == 4) {
    sx = (int32_t)(uint32_t)x;
    sy = (int32_t)(uint32_t)y;
  }
  return sx < sy ? -1 : sx > sy;
}

static bool is_nan_row(const gcol_detail_pq_host_column *c, int64_t row) {
  if (c->type.id == GCOL_FLOAT32) {
    float f;
    memcpy(&f, (const uint8_t *)c->data + row * 4, 4);
    return isnan(f);
  }
  if (c->type.id == GCOL_FLOAT64) {
    double d;
    memcpy(&d, (const uint8_t *)c->data + row * 8, 8);
    return isnan(d);
  }
  return false;
}

/* PLAIN bytes of one value (strings without their length prefix when `prefix` is false). */
static void plain_value(tw *w, const gcol_detail_pq_host_column *c, int32_t physical, int64_t row,
                        bool prefix) {
  if (physical == GCOL_PARQUET_BYTE_ARRAY) {
    int64_t const n = c->offsets[row + 1] - c->offsets[row];
    if (prefix) put_le(w, (uint64_t)n, 4);
    gcol_detail_thrift_write_bytes(w, c->chars + c->offsets[row], (size_t)n);
  } else if (physical == GCOL_PARQUET_BOOLEAN) {
    put_le(w, fixed_bits(c, row) != 0, 1);
  } else {
    put_le(w, fixed_bits(c, row),
           physical == GCOL_PARQUET_INT64 || physical == GCOL_PARQUET_DOUBLE ? 8 : 4);
  }
}

typedef struct chunk_meta {
  int64_t start;
  int64_t dict_at;           /* the dictionary page's offset in the file; -1: none (PLAIN) */
  int64_t data_at;           /* the first data page's */
  int64_t size;              /* in the file */
  int64_t uncompressed_size; /* with page bodies uncompressed */
  int64_t nulls;
  int64_t min_row; /* host encoder */
  int64_t max_row;
  int64_t min_at; /* min and max values' bytes in the statistics bytes; size -1: absent */
  int64_t min_size;
  int64_t max_at;
  int64_t max_size;
} chunk_meta;

/* What a page's header says besides its sizes. */
typedef struct page_kind {
  int64_t values;       /* a data page's rows, a dictionary page's entries */
  bool dictionary_page; /* else a data page v1 */
  bool indices;         /* a data page of RLE_DICTIONARY indices (else PLAIN values) */
} page_kind;

static page_kind data_page(int64_t rows, bool indices) {
  page_kind const k = {rows, false, indices};
  return k;
}

/* A page header (data page v1 or dictionary page), `body` bytes before compression. */
static void write_page_header(tw *out, page_kind kind, int64_t body, int64_t page_size) {
  gcol_detail_thrift_write_struct_begin(out); /* PageHeader */
  gcol_detail_thrift_write_i32_field(
      out, 1, kind.dictionary_page ? GCOL_DETAIL_PQ_PAGE_DICTIONARY : GCOL_DETAIL_PQ_PAGE_DATA);
  gcol_detail_thrift_write_i32_field(out, 2, (int32_t)body);
  gcol_detail_thrift_write_i32_field(out, 3, (int32_t)page_size);
  if (kind.dictionary_page) {
    gcol_detail_thrift_write_field(out, 7, GCOL_DETAIL_THRIFT_STRUCT);
    gcol_detail_thrift_write_struct_begin(out); /* DictionaryPageHeader */
    gcol_detail_thrift_write_i32_field(out, 1, (int32_t)kind.values);
    gcol_detail_thrift_write_i32_field(out, 2, GCOL_DETAIL_PQ_ENC_PLAIN);
    gcol_detail_thrift_write_struct_end(out);
    gcol_detail_thrift_write_struct_end(out);
    return;
  }
  gcol_detail_thrift_write_field(out, 5, GCOL_DETAIL_THRIFT_STRUCT);
  gcol_detail_thrift_write_struct_begin(out); /* DataPageHeader */
  gcol_detail_thrift_write_i32_field(out, 1, (int32_t)kind.values);
  gcol_detail_thrift_write_i32_field(
      out, 2, kind.indices ? GCOL_DETAIL_PQ_ENC_RLE_DICTIONARY : GCOL_DETAIL_PQ_ENC_PLAIN);
  gcol_detail_thrift_write_i32_field(out, 3, GCOL_DETAIL_PQ_ENC_RLE);
  gcol_detail_thrift_write_i32_field(out, 4, GCOL_DETAIL_PQ_ENC_RLE);
  gcol_detail_thrift_write_struct_end(out);
  gcol_detail_thrift_write_struct_end(out);
}

/* Compresses a page body with `codec` into *packed (grown as needed); *page_size its bytes. */
static gcol_status compress_page(const char *name, int32_t codec, const uint8_t *body,
                                 int64_t body_size, uint8_t **packed, int64_t *packed_cap,
                                 int64_t *page_size) {
  gcol_status status = GCOL_OK;
  int64_t const bound = gcol_detail_pq_compress_bound(codec, body_size);
  GCOL_DETAIL_CHECK(bound >= 0 && bound <= INT32_MAX, GCOL_ERROR_OVERFLOW,
                    "column '%s': a page of %lld bytes is too large to compress with %s", name,
                    (long long)body_size, gcol_detail_pq_codec_name(codec));
  if (bound > *packed_cap) {
    free(*packed);
    *packed = (uint8_t *)malloc((size_t)(bound > 0 ? bound : 1));
    *packed_cap = *packed != NULL ? bound : 0;
    GCOL_DETAIL_CHECK(*packed != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  *page_size = gcol_detail_pq_compress(codec, body, body_size, *packed, bound);
  GCOL_DETAIL_CHECK(*page_size >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "column '%s': %s compression of a page of %lld bytes failed", name,
                    gcol_detail_pq_codec_name(codec), (long long)body_size);
done:
  return status;
}

/* Appends one page (header, then the body compressed unless codec is UNCOMPRESSED);
 * *uncompressed grows by the header and the body. */
static gcol_status append_page(tw *out, const char *name, int32_t codec, int64_t rows,
                               const uint8_t *body, int64_t body_size, uint8_t **packed,
                               int64_t *packed_cap, int64_t *uncompressed) {
  gcol_status status = GCOL_OK;
  const uint8_t *page = body;
  int64_t page_size = body_size;
  if (codec != GCOL_PARQUET_UNCOMPRESSED) {
    GCOL_DETAIL_TRY(compress_page(name, codec, body, body_size, packed, packed_cap, &page_size));
    page = *packed;
  }
  size_t const header_begin = out->size;
  write_page_header(out, data_page(rows, false), body_size, page_size);
  *uncompressed += (int64_t)(out->size - header_begin) + body_size;
  gcol_detail_thrift_write_bytes(out, page, (size_t)page_size);
done:
  return status;
}

/* One column chunk of rows [r0, r1) appended to `out` (host encoder). */
static gcol_status write_chunk(tw *out, const gcol_detail_pq_host_column *c, const type_map *m,
                               bool optional, int32_t codec, int64_t r0, int64_t r1,
                               chunk_meta *meta) {
  gcol_status status = GCOL_OK;
  uint32_t *levels = NULL;
  uint8_t *packed = NULL; /* a compressed page body */
  int64_t packed_cap = 0;
  tw body;
  gcol_detail_thrift_writer_init(&body);
  meta->start = (int64_t)out->size;
  meta->dict_at = -1;
  meta->data_at = meta->start;
  meta->uncompressed_size = 0;
  meta->nulls = 0;
  meta->min_row = meta->max_row = -1;
  for (int64_t r = r0; r < r1; ++r) {
    if (!row_valid(c, r)) {
      ++meta->nulls;
    } else if (!is_nan_row(c, r)) {
      if (meta->min_row < 0 || compare_rows(c, r, meta->min_row) < 0) meta->min_row = r;
      if (meta->max_row < 0 || compare_rows(c, r, meta->max_row) > 0) meta->max_row = r;
    }
  }
  levels = (uint32_t *)malloc(ROWS_PER_PAGE * sizeof *levels);
  GCOL_DETAIL_CHECK(levels != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int64_t p0 = r0; p0 < r1; p0 += ROWS_PER_PAGE) {
    int64_t const p1 = p0 + ROWS_PER_PAGE < r1 ? p0 + ROWS_PER_PAGE : r1;
    body.size = 0;
    if (optional) {
      tw lv;
      gcol_detail_thrift_writer_init(&lv);
      for (int64_t r = p0; r < p1; ++r) levels[r - p0] = row_valid(c, r) ? 1u : 0u;
      gcol_detail_parquet_rle_encode(&lv, levels, p1 - p0, 1);
      put_le(&body, lv.size, 4);
      gcol_detail_thrift_write_bytes(&body, lv.data, lv.size);
      bool const failed = lv.failed;
      gcol_detail_thrift_writer_free(&lv);
      GCOL_DETAIL_CHECK(!failed, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (m->physical == GCOL_PARQUET_BOOLEAN) {
      uint8_t byte = 0;
      int nbits = 0;
      for (int64_t r = p0; r < p1; ++r) {
        if (!row_valid(c, r)) continue;
        if (fixed_bits(c, r) != 0) byte |= (uint8_t)(1u << nbits);
        if (++nbits == 8) {
          gcol_detail_thrift_write_bytes(&body, &byte, 1);
          byte = 0;
          nbits = 0;
        }
      }
      if (nbits > 0) gcol_detail_thrift_write_bytes(&body, &byte, 1);
    } else {
      for (int64_t r = p0; r < p1; ++r) {
        if (row_valid(c, r)) plain_value(&body, c, m->physical, r, true);
      }
    }
    GCOL_DETAIL_CHECK(!body.failed, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    GCOL_DETAIL_CHECK(body.size <= INT32_MAX, GCOL_ERROR_OVERFLOW,
                      "column '%s': a page of %zu bytes exceeds Parquet's 2^31 - 1", c->name,
                      body.size);
    GCOL_DETAIL_TRY(append_page(out, c->name, codec, p1 - p0, body.data, (int64_t)body.size,
                                &packed, &packed_cap, &meta->uncompressed_size));
  }
  GCOL_DETAIL_CHECK(!out->failed, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  meta->size = (int64_t)out->size - meta->start;
done:
  free(levels);
  free(packed);
  gcol_detail_thrift_writer_free(&body);
  return status;
}

static void write_schema_leaf(tw *w, const char *name, const type_map *m, bool optional,
                              int32_t scale) {
  gcol_detail_thrift_write_struct_begin(w);
  gcol_detail_thrift_write_i32_field(w, 1, m->physical);
  gcol_detail_thrift_write_i32_field(w, 3,
                                     optional ? GCOL_DETAIL_PQ_OPTIONAL : GCOL_DETAIL_PQ_REQUIRED);
  gcol_detail_thrift_write_binary_field(w, 4, name, (int64_t)strlen(name));
  /* the legacy annotations too, for readers that know only them */
  int32_t converted = -1;
  if (m->logical == GCOL_PARQUET_LOGICAL_STRING) converted = GCOL_DETAIL_PQ_CT_UTF8;
  if (m->logical == GCOL_PARQUET_LOGICAL_DATE) converted = GCOL_DETAIL_PQ_CT_DATE;
  if (m->logical == GCOL_PARQUET_LOGICAL_DECIMAL) converted = GCOL_DETAIL_PQ_CT_DECIMAL;
  if (m->logical == GCOL_PARQUET_LOGICAL_INTEGER) {
    int const k = m->bit_width == 8 ? 0 : m->bit_width == 16 ? 1 : m->bit_width == 32 ? 2 : 3;
    converted = (m->is_signed ? GCOL_DETAIL_PQ_CT_INT_8 : GCOL_DETAIL_PQ_CT_UINT_8) + k;
  }
  /* timestamps: gcol's have no time zone (isAdjustedToUTC false), which no converted type
   * expresses */
  if (converted >= 0) gcol_detail_thrift_write_i32_field(w, 6, converted);
  if (m->logical == GCOL_PARQUET_LOGICAL_DECIMAL) {
    gcol_detail_thrift_write_i32_field(w, 7, -scale);
    gcol_detail_thrift_write_i32_field(w, 8, m->precision);
  }
  if (m->logical != 0) {
    gcol_detail_thrift_write_field(w, 10, GCOL_DETAIL_THRIFT_STRUCT);
    gcol_detail_thrift_write_struct_begin(w);
    gcol_detail_thrift_write_field(w, (int16_t)m->logical, GCOL_DETAIL_THRIFT_STRUCT);
    gcol_detail_thrift_write_struct_begin(w);
    if (m->logical == GCOL_PARQUET_LOGICAL_DECIMAL) {
      gcol_detail_thrift_write_i32_field(w, 1, -scale);
      gcol_detail_thrift_write_i32_field(w, 2, m->precision);
    } else if (m->logical == GCOL_PARQUET_LOGICAL_TIMESTAMP) {
      gcol_detail_thrift_write_bool_field(w, 1, false);
      gcol_detail_thrift_write_field(w, 2, GCOL_DETAIL_THRIFT_STRUCT);
      gcol_detail_thrift_write_struct_begin(w);
      gcol_detail_thrift_write_field(w, (int16_t)m->time_unit, GCOL_DETAIL_THRIFT_STRUCT);
      gcol_detail_thrift_write_struct_begin(w);
      gcol_detail_thrift_write_struct_end(w);
      gcol_detail_thrift_write_struct_end(w);
    } else if (m->logical == GCOL_PARQUET_LOGICAL_INTEGER) {
      gcol_detail_thrift_write_field(w, 1, GCOL_DETAIL_THRIFT_I8);
      uint8_t const b = (uint8_t)m->bit_width;
      gcol_detail_thrift_write_bytes(w, &b, 1);
      gcol_detail_thrift_write_bool_field(w, 2, m->is_signed);
    }
    gcol_detail_thrift_write_struct_end(w);
    gcol_detail_thrift_write_struct_end(w);
  }
  gcol_detail_thrift_write_struct_end(w);
}

/* What the footer says of a column. */
typedef struct footer_col {
  const char *name;
  type_map map;
  bool optional;
  int32_t scale;
} footer_col;

/* The file's layout and what its footer says. */
typedef struct file_plan {
  int32_t num_columns;
  int64_t num_rows;
  int64_t per_group;
  int64_t groups;
  int32_t codec;
  footer_col *cols;
  chunk_meta *chunks;   /* [g * num_columns + k] */
  const uint8_t *stats; /* the chunks' min and max values */
} file_plan;

static void write_column_chunk_meta(tw *meta, const file_plan *f, int64_t g, int32_t k) {
  const footer_col *c = &f->cols[k];
  const chunk_meta *cm = &f->chunks[g * f->num_columns + k];
  int64_t const r0 = g * f->per_group;
  int64_t const r1 = r0 + f->per_group < f->num_rows ? r0 + f->per_group : f->num_rows;
  gcol_detail_thrift_write_struct_begin(meta); /* ColumnChunk */
  gcol_detail_thrift_write_i64_field(meta, 2, cm->start);
  gcol_detail_thrift_write_field(meta, 3, GCOL_DETAIL_THRIFT_STRUCT);
  gcol_detail_thrift_write_struct_begin(meta); /* ColumnMetaData */
  bool const dictionary = cm->dict_at >= 0;
  gcol_detail_thrift_write_i32_field(meta, 1, c->map.physical);
  /* as pyarrow lists them: PLAIN (values or the dictionary), RLE (levels), RLE_DICTIONARY */
  gcol_detail_thrift_write_list_field(meta, 2, GCOL_DETAIL_THRIFT_I32, dictionary ? 3 : 2);
  gcol_detail_thrift_write_i32(meta, GCOL_DETAIL_PQ_ENC_PLAIN);
  gcol_detail_thrift_write_i32(meta, GCOL_DETAIL_PQ_ENC_RLE);
  if (dictionary) gcol_detail_thrift_write_i32(meta, GCOL_DETAIL_PQ_ENC_RLE_DICTIONARY);
  gcol_detail_thrift_write_list_field(meta, 3, GCOL_DETAIL_THRIFT_BINARY, 1);
  gcol_detail_thrift_write_binary(meta, c->name, (int64_t)strlen(c->name));
  gcol_detail_thrift_write_i32_field(meta, 4, f->codec);
  gcol_detail_thrift_write_i64_field(meta, 5, r1 - r0);
  gcol_detail_thrift_write_i64_field(meta, 6, cm->uncompressed_size);
  gcol_detail_thrift_write_i64_field(meta, 7, cm->size);
  gcol_detail_thrift_write_i64_field(meta, 9, cm->data_at);
  if (dictionary) gcol_detail_thrift_write_i64_field(meta, 11, cm->dict_at);
  gcol_detail_thrift_write_field(meta, 12, GCOL_DETAIL_THRIFT_STRUCT);
  gcol_detail_thrift_write_struct_begin(meta); /* Statistics */
  gcol_detail_thrift_write_i64_field(meta, 3, cm->nulls);
  if (cm->max_size >= 0) {
    gcol_detail_thrift_write_binary_field(meta, 5, f->stats + cm->max_at, cm->max_size);
  }
  if (cm->min_size >= 0) {
    gcol_detail_thrift_write_binary_field(meta, 6, f->stats + cm->min_at, cm->min_size);
  }
  gcol_detail_thrift_write_struct_end(meta);
  gcol_detail_thrift_write_struct_end(meta); /* ColumnMetaData */
  gcol_detail_thrift_write_struct_end(meta); /* ColumnChunk */
}

/* The FileMetaData of a file laid out by `f`. */
static void write_file_meta(tw *meta, const file_plan *f,
                            const gcol_parquet_write_options *options) {
  int32_t const num_columns = f->num_columns;
  gcol_detail_thrift_write_struct_begin(meta);
  gcol_detail_thrift_write_i32_field(meta, 1, 2);
  gcol_detail_thrift_write_list_field(meta, 2, GCOL_DETAIL_THRIFT_STRUCT, num_columns + 1);
  gcol_detail_thrift_write_struct_begin(meta);
  gcol_detail_thrift_write_binary_field(meta, 4, "schema", 6);
  gcol_detail_thrift_write_i32_field(meta, 5, num_columns);
  gcol_detail_thrift_write_struct_end(meta);
  for (int32_t k = 0; k < num_columns; ++k) {
    write_schema_leaf(meta, f->cols[k].name, &f->cols[k].map, f->cols[k].optional,
                      f->cols[k].scale);
  }
  gcol_detail_thrift_write_i64_field(meta, 3, f->num_rows);
  gcol_detail_thrift_write_list_field(meta, 4, GCOL_DETAIL_THRIFT_STRUCT, f->groups);
  for (int64_t g = 0; g < f->groups; ++g) {
    int64_t const r0 = g * f->per_group;
    int64_t const r1 = r0 + f->per_group < f->num_rows ? r0 + f->per_group : f->num_rows;
    int64_t bytes = 0;
    int64_t uncompressed_bytes = 0;
    gcol_detail_thrift_write_struct_begin(meta);
    gcol_detail_thrift_write_list_field(meta, 1, GCOL_DETAIL_THRIFT_STRUCT, num_columns);
    for (int32_t k = 0; k < num_columns; ++k) {
      bytes += f->chunks[g * num_columns + k].size;
      uncompressed_bytes += f->chunks[g * num_columns + k].uncompressed_size;
      write_column_chunk_meta(meta, f, g, k);
    }
    gcol_detail_thrift_write_i64_field(meta, 2, uncompressed_bytes);
    gcol_detail_thrift_write_i64_field(meta, 3, r1 - r0);
    gcol_detail_thrift_write_i64_field(meta, 6, bytes);
    gcol_detail_thrift_write_struct_end(meta);
  }
  if (options->num_key_values > 0) {
    gcol_detail_thrift_write_list_field(meta, 5, GCOL_DETAIL_THRIFT_STRUCT,
                                        options->num_key_values);
    for (int32_t i = 0; i < options->num_key_values; ++i) {
      gcol_detail_thrift_write_struct_begin(meta);
      gcol_detail_thrift_write_binary_field(meta, 1, options->keys[i],
                                            (int64_t)strlen(options->keys[i]));
      if (options->values[i] != NULL) {
        gcol_detail_thrift_write_binary_field(meta, 2, options->values[i],
                                              (int64_t)strlen(options->values[i]));
      }
      gcol_detail_thrift_write_struct_end(meta);
    }
  }
  /* "NAME version X.Y.Z", the form readers parse to decide which writers to trust */
  static const char created_by[] = "gcol version " GCOL_VERSION_STRING;
  gcol_detail_thrift_write_binary_field(meta, 6, created_by, (int64_t)strlen(created_by));
  /* column orders: TYPE_DEFINED_ORDER for every leaf, without which readers ignore
   * min_value/max_value */
  gcol_detail_thrift_write_list_field(meta, 7, GCOL_DETAIL_THRIFT_STRUCT, num_columns);
  for (int32_t k = 0; k < num_columns; ++k) {
    gcol_detail_thrift_write_struct_begin(meta);
    gcol_detail_thrift_write_field(meta, 1, GCOL_DETAIL_THRIFT_STRUCT);
    gcol_detail_thrift_write_struct_begin(meta);
    gcol_detail_thrift_write_struct_end(meta);
    gcol_detail_thrift_write_struct_end(meta);
  }
  gcol_detail_thrift_write_struct_end(meta);
}

/* The footer (FileMetaData, its length, the magic) appended to `file`. */
static gcol_status write_footer(tw *file, const file_plan *f,
                                const gcol_parquet_write_options *options) {
  gcol_status status = GCOL_OK;
  tw meta;
  gcol_detail_thrift_writer_init(&meta);
  write_file_meta(&meta, f, options);
  GCOL_DETAIL_CHECK(!meta.failed, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_CHECK(meta.size <= UINT32_MAX, GCOL_ERROR_OVERFLOW, "a footer of %zu bytes",
                    meta.size);
  gcol_detail_thrift_write_bytes(file, meta.data, meta.size);
  put_le(file, meta.size, 4);
  gcol_detail_thrift_write_bytes(file, "PAR1", 4);
  GCOL_DETAIL_CHECK(!file->failed, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
done:
  gcol_detail_thrift_writer_free(&meta);
  return status;
}

/* Checks the codec and the row group size; fills f's sizes and allocates its arrays. */
static gcol_status plan_file(int32_t num_columns, int64_t num_rows,
                             const gcol_parquet_write_options *options, file_plan *f) {
  gcol_status status = GCOL_OK;
  memset(f, 0, sizeof *f);
  f->num_columns = num_columns;
  f->num_rows = num_rows;
  f->per_group = options->row_group_rows > 0 ? options->row_group_rows : DEFAULT_ROW_GROUP_ROWS;
  f->groups = (num_rows + f->per_group - 1) / f->per_group;
  f->codec = options->codec;
  GCOL_DETAIL_CHECK(f->groups <= INT32_MAX, GCOL_ERROR_OVERFLOW, "%lld row groups",
                    (long long)f->groups);
  f->cols = (footer_col *)calloc((size_t)(num_columns > 0 ? num_columns : 1), sizeof *f->cols);
  f->chunks = (chunk_meta *)calloc((size_t)(f->groups * num_columns + 1), sizeof *f->chunks);
  GCOL_DETAIL_CHECK(f->cols != NULL && f->chunks != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "out of memory");
  int32_t const codec = f->codec;
  GCOL_DETAIL_CHECK(codec == GCOL_PARQUET_UNCOMPRESSED || codec == GCOL_PARQUET_SNAPPY ||
                        codec == GCOL_PARQUET_ZSTD || codec == GCOL_PARQUET_GZIP ||
                        codec == GCOL_PARQUET_LZ4_RAW,
                    GCOL_ERROR_UNSUPPORTED,
                    "options->codec %d (%s): the writer compresses with SNAPPY, ZSTD, GZIP or "
                    "LZ4_RAW",
                    (int)codec, gcol_detail_pq_codec_name(codec));
  GCOL_DETAIL_CHECK(gcol_detail_pq_codec_available(codec), GCOL_ERROR_UNSUPPORTED,
                    "options->codec %s needs %s, not found", gcol_detail_pq_codec_name(codec),
                    gcol_detail_pq_codec_library(codec));
done:
  return status;
}

static void file_plan_free(file_plan *f) {
  free(f->cols);
  free(f->chunks);
}

/* The host encoder: kept as the reference of the GPU one (tests, parquet_dump). */
gcol_status gcol_detail_parquet_write_host(const gcol_detail_pq_host_column *cols,
                                           int32_t num_columns, int64_t num_rows,
                                           const gcol_parquet_write_options *options, uint8_t **out,
                                           int64_t *size) {
  gcol_status status = GCOL_OK;
  tw file, stats;
  file_plan f;
  gcol_detail_thrift_writer_init(&file);
  gcol_detail_thrift_writer_init(&stats);
  *out = NULL;
  GCOL_DETAIL_TRY(plan_file(num_columns, num_rows, options, &f));
  for (int32_t k = 0; k < num_columns; ++k) {
    GCOL_DETAIL_CHECK(map_type(cols[k].type, &f.cols[k].map), GCOL_ERROR_UNSUPPORTED,
                      "column %d ('%s') of type %s cannot be written to Parquet yet", k,
                      cols[k].name, gcol_type_name(cols[k].type.id));
    f.cols[k].name = cols[k].name;
    f.cols[k].optional = cols[k].valid != NULL;
    f.cols[k].scale = cols[k].type.scale;
  }
  gcol_detail_thrift_write_bytes(&file, "PAR1", 4);
  for (int64_t g = 0; g < f.groups; ++g) {
    int64_t const r0 = g * f.per_group;
    int64_t const r1 = r0 + f.per_group < num_rows ? r0 + f.per_group : num_rows;
    for (int32_t k = 0; k < num_columns; ++k) {
      chunk_meta *cm = &f.chunks[g * num_columns + k];
      int32_t const physical = f.cols[k].map.physical;
      GCOL_DETAIL_TRY(
          write_chunk(&file, &cols[k], &f.cols[k].map, f.cols[k].optional, f.codec, r0, r1, cm));
      cm->min_size = cm->max_size = -1;
      if (cm->min_row >= 0) {
        cm->min_at = (int64_t)stats.size;
        plain_value(&stats, &cols[k], physical, cm->min_row, false);
        cm->min_size = (int64_t)stats.size - cm->min_at;
      }
      if (cm->max_row >= 0) {
        cm->max_at = (int64_t)stats.size;
        plain_value(&stats, &cols[k], physical, cm->max_row, false);
        cm->max_size = (int64_t)stats.size - cm->max_at;
      }
    }
  }
  GCOL_DETAIL_CHECK(!stats.failed, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  f.stats = stats.data;
  GCOL_DETAIL_TRY(write_footer(&file, &f, options));
  *out = file.data;
  *size = (int64_t)file.size;
  file.data = NULL;
done:
  gcol_detail_thrift_writer_free(&file);
  gcol_detail_thrift_writer_free(&stats);
  file_plan_free(&f);
  return status;
}

/* ---- public: a table on the GPU, encoded there ---- */

/* How the GPU encoder reads column view v (offset applied). */
static gcol_status make_wcol(gcol_column_view v, const type_map *m, gcol_detail_pq_wcol *w) {
  gcol_status status = GCOL_OK;
  gcol_type_id const id = v.type.id;
  memset(w, 0, sizeof *w);
  w->optional = v.null_mask != NULL;
  w->mask = v.null_mask;
  w->mask_offset = v.offset;
  if (id == GCOL_STRING) {
    w->kind = GCOL_DETAIL_PQ_W_STRING;
    w->order = GCOL_DETAIL_PQ_ORDER_BYTES;
    if (v.size > 0) GCOL_DETAIL_TRY(gcol_strings_view_make(v, &w->strings));
    return GCOL_OK;
  }
  w->width = (int32_t)gcol_type_size(id);
  w->data = v.data != NULL ? (const uint8_t *)v.data + v.offset * w->width : NULL;
  if (id == GCOL_BOOL8) {
    w->kind = GCOL_DETAIL_PQ_W_BOOL;
    w->order = GCOL_DETAIL_PQ_ORDER_UNSIGNED;
    return GCOL_OK;
  }
  w->kind = GCOL_DETAIL_PQ_W_FIXED;
  w->out_width = m->physical == GCOL_PARQUET_INT64 || m->physical == GCOL_PARQUET_DOUBLE ? 8 : 4;
  w->sign_extend = id == GCOL_INT8 || id == GCOL_INT16;
  bool const is_unsigned =
      id == GCOL_UINT8 || id == GCOL_UINT16 || id == GCOL_UINT32 || id == GCOL_UINT64;
  w->order = id == GCOL_FLOAT32 || id == GCOL_FLOAT64 ? GCOL_DETAIL_PQ_ORDER_FLOAT
             : is_unsigned                            ? GCOL_DETAIL_PQ_ORDER_UNSIGNED
                                                      : GCOL_DETAIL_PQ_ORDER_SIGNED;
done:
  return status;
}

/* The device encoder's arrays and what the host lays out from them. */
typedef struct gpu_write {
  gcol_detail_pq_wcol *wcols;
  gcol_detail_pq_wpage *pages;
  int32_t num_pages;
  int32_t *chunk_pages; /* [groups + 1] */
  gcol_detail_pq_wpage_info *info;
  gcol_detail_pq_wstats *wstats;
  gcol_detail_pq_wplace *place;
  int64_t *stat_at;
  uint8_t *stats;
  gcol_detail_pq_wdict *dicts;            /* [k * groups + g]; NULL: dictionaries off */
  gcol_detail_pq_wdict_place *dict_place; /* likewise; bit_width 0: that chunk is PLAIN */
  gcol_detail_pq_encoder *enc;
} gpu_write;

static void gpu_write_free(gpu_write *w) {
  free(w->wcols);
  free(w->pages);
  free(w->chunk_pages);
  free(w->info);
  free(w->wstats);
  free(w->place);
  free(w->stat_at);
  free(w->stats);
  free(w->dicts);
  free(w->dict_place);
  gcol_detail_parquet_encoder_free(w->enc);
}

/* The pages of every row group (ROWS_PER_PAGE rows, the last of a group shorter). */
static gcol_status make_pages(const file_plan *f, gpu_write *w) {
  gcol_status status = GCOL_OK;
  int64_t n = 0;
  for (int64_t g = 0; g < f->groups; ++g) {
    int64_t const rows = g + 1 < f->groups ? f->per_group : f->num_rows - g * f->per_group;
    n += (rows + ROWS_PER_PAGE - 1) / ROWS_PER_PAGE;
  }
  GCOL_DETAIL_CHECK(n <= INT32_MAX / (f->num_columns > 0 ? f->num_columns : 1), GCOL_ERROR_OVERFLOW,
                    "%lld pages", (long long)n);
  w->pages = (gcol_detail_pq_wpage *)malloc((size_t)n * sizeof *w->pages);
  w->chunk_pages = (int32_t *)malloc((size_t)(f->groups + 1) * sizeof *w->chunk_pages);
  GCOL_DETAIL_CHECK(w->pages != NULL && w->chunk_pages != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "out of memory");
  n = 0;
  for (int64_t g = 0; g < f->groups; ++g) {
    int64_t const r0 = g * f->per_group;
    int64_t const r1 = r0 + f->per_group < f->num_rows ? r0 + f->per_group : f->num_rows;
    w->chunk_pages[g] = (int32_t)n;
    for (int64_t p0 = r0; p0 < r1; p0 += ROWS_PER_PAGE) {
      w->pages[n].begin = p0;
      w->pages[n].end = p0 + ROWS_PER_PAGE < r1 ? p0 + ROWS_PER_PAGE : r1;
      ++n;
    }
  }
  w->chunk_pages[f->groups] = (int32_t)n;
  w->num_pages = (int32_t)n;
done:
  return status;
}

/* Chunks' statistics from the device: null counts, then their min and max values. */
static gcol_status fetch_stats(file_plan *f, gpu_write *w) {
  gcol_status status = GCOL_OK;
  int64_t const cells = f->groups * f->num_columns;
  int64_t at = 0;
  w->stat_at = (int64_t *)malloc((size_t)cells * sizeof *w->stat_at);
  GCOL_DETAIL_CHECK(w->stat_at != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t k = 0; k < f->num_columns; ++k) {
    for (int64_t g = 0; g < f->groups; ++g) {
      gcol_detail_pq_wstats const s = w->wstats[k * f->groups + g];
      chunk_meta *cm = &f->chunks[g * f->num_columns + k];
      cm->nulls = s.nulls;
      w->stat_at[k * f->groups + g] = at;
      cm->min_at = at;
      cm->min_size = s.min_row >= 0 ? s.min_size : -1;
      cm->max_at = at + s.min_size;
      cm->max_size = s.max_row >= 0 ? s.max_size : -1;
      at += (s.min_row >= 0 ? s.min_size : 0) + (s.max_row >= 0 ? s.max_size : 0);
    }
  }
  w->stats = (uint8_t *)malloc((size_t)(at > 0 ? at : 1));
  GCOL_DETAIL_CHECK(w->stats != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(gcol_detail_parquet_encode_stats(w->enc, w->stat_at, at, w->stats));
  f->stats = w->stats;
done:
  return status;
}

/* Dictionary pages at most this large (PLAIN bytes) pay under the ADAPTIVE policy: a page a
 * reader holds whole while it decodes the chunk, as pyarrow's default limit. */
#define ADAPTIVE_DICTIONARY_BYTES ((int64_t)1 << 20)

/* Whether a chunk of `valid` non-null values with dictionary `d` is dictionary-encoded. */
static bool dictionary_chosen(gcol_parquet_dictionary policy, int64_t valid,
                              gcol_detail_pq_wdict d) {
  if (policy == GCOL_PARQUET_DICTIONARY_OFF || valid == 0 || d.bytes > INT32_MAX) return false;
  if (policy == GCOL_PARQUET_DICTIONARY_ALWAYS) return true;
  return d.distinct <= valid / 2 && d.bytes <= ADAPTIVE_DICTIONARY_BYTES;
}

/* The chunk (column k, group g) whose dictionary page w places, or NULL when it is PLAIN. */
static const gcol_detail_pq_wdict_place *chunk_dict(const file_plan *f, const gpu_write *w,
                                                    int64_t g, int32_t k) {
  if (w->dict_place == NULL) return NULL;
  const gcol_detail_pq_wdict_place *d = &w->dict_place[(int64_t)k * f->groups + g];
  return d->bit_width > 0 ? d : NULL;
}

/* Per chunk, dictionary or PLAIN (options->dictionary): the device counts the distinct values
 * of every column that may take one (BOOL8 never does); a chunk that takes one gets its bit
 * width and its pages' value_bytes become the bytes of their indices. */
static gcol_status choose_dictionaries(const file_plan *f, gpu_write *w,
                                       gcol_parquet_dictionary policy) {
  gcol_status status = GCOL_OK;
  bool *want = NULL;
  bool any = false;
  int64_t const cells = f->groups * f->num_columns;
  if (policy == GCOL_PARQUET_DICTIONARY_OFF) return GCOL_OK;
  want = (bool *)calloc((size_t)f->num_columns, sizeof *want);
  GCOL_DETAIL_CHECK(want != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t k = 0; k < f->num_columns; ++k) {
    want[k] = w->wcols[k].kind != GCOL_DETAIL_PQ_W_BOOL;
    any = any || want[k];
  }
  if (!any) goto done;
  w->dicts = (gcol_detail_pq_wdict *)calloc((size_t)cells, sizeof *w->dicts);
  w->dict_place = (gcol_detail_pq_wdict_place *)calloc((size_t)cells, sizeof *w->dict_place);
  GCOL_DETAIL_CHECK(w->dicts != NULL && w->dict_place != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "out of memory");
  GCOL_DETAIL_TRY(gcol_detail_parquet_encode_dict(w->enc, want, w->dicts));
  for (int32_t k = 0; k < f->num_columns; ++k) {
    for (int64_t g = 0; g < f->groups && want[k]; ++g) {
      int64_t const i = (int64_t)k * f->groups + g;
      int32_t const p0 = w->chunk_pages[g], p1 = w->chunk_pages[g + 1];
      int64_t const valid = w->pages[p1 - 1].end - w->pages[p0].begin - w->wstats[i].nulls;
      if (!dictionary_chosen(policy, valid, w->dicts[i])) continue;
      int const bits = gcol_detail_pq_dict_bit_width(w->dicts[i].distinct);
      w->dict_place[i].bit_width = bits;
      for (int32_t p = p0; p < p1; ++p) {
        gcol_detail_pq_wpage_info *in = &w->info[(int64_t)k * w->num_pages + p];
        int64_t const rows = w->pages[p].end - w->pages[p].begin;
        in->value_bytes = gcol_detail_pq_dict_indices_size(rows - in->nulls, bits);
      }
    }
  }
done:
  free(want);
  return status;
}

/* Places every page: in file order (row group, column, page), each header (uncompressed: into
 * `headers`) then its body; compressed, the bodies alone, back to back. *out_size gets the
 * bytes the device writes; the chunks' offsets assume the file's 4-byte magic before them. */
static gcol_status place_pages(file_plan *f, gpu_write *w, tw *headers, int64_t *out_size) {
  gcol_status status = GCOL_OK;
  bool const plain = f->codec == GCOL_PARQUET_UNCOMPRESSED;
  int64_t at = 0;
  w->place = (gcol_detail_pq_wplace *)calloc((size_t)f->num_columns * (size_t)w->num_pages,
                                             sizeof *w->place);
  GCOL_DETAIL_CHECK(w->place != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int64_t g = 0; g < f->groups; ++g) {
    for (int32_t k = 0; k < f->num_columns; ++k) {
      chunk_meta *cm = &f->chunks[g * f->num_columns + k];
      gcol_detail_pq_wdict_place *dict =
          chunk_dict(f, w, g, k) != NULL ? &w->dict_place[(int64_t)k * f->groups + g] : NULL;
      cm->start = 4 + at;
      cm->dict_at = dict != NULL ? cm->start : -1;
      cm->uncompressed_size = 0;
      if (dict != NULL) {
        int64_t const bytes = w->dicts[(int64_t)k * f->groups + g].bytes;
        if (plain) {
          page_kind const kind = {w->dicts[(int64_t)k * f->groups + g].distinct, true, false};
          dict->header_src = (int64_t)headers->size;
          write_page_header(headers, kind, bytes, bytes);
          dict->header_size = (int64_t)headers->size - dict->header_src;
          dict->header_at = at;
          at += dict->header_size;
          cm->uncompressed_size += dict->header_size;
        }
        dict->body_at = at;
        at += bytes;
        cm->uncompressed_size += bytes;
      }
      cm->data_at = 4 + at;
      for (int32_t p = w->chunk_pages[g]; p < w->chunk_pages[g + 1]; ++p) {
        int64_t const i = (int64_t)k * w->num_pages + p;
        gcol_detail_pq_wpage_info const in = w->info[i];
        int64_t const rows = w->pages[p].end - w->pages[p].begin;
        gcol_detail_pq_wplace *pl = &w->place[i];
        pl->levels_size = f->cols[k].optional ? gcol_detail_pq_levels_size(rows, in.nulls) : 0;
        int64_t const body = pl->levels_size + in.value_bytes;
        GCOL_DETAIL_CHECK(body <= INT32_MAX, GCOL_ERROR_OVERFLOW,
                          "column '%s': a page of %lld bytes exceeds Parquet's 2^31 - 1",
                          f->cols[k].name, (long long)body);
        if (plain) {
          pl->header_src = (int64_t)headers->size;
          write_page_header(headers, data_page(rows, dict != NULL), body, body);
          pl->header_size = (int64_t)headers->size - pl->header_src;
          pl->header_at = at;
          at += pl->header_size;
          cm->uncompressed_size += pl->header_size;
        }
        pl->body_at = at;
        at += body;
        cm->uncompressed_size += body;
      }
      cm->size = 4 + at - cm->start;
    }
  }
  GCOL_DETAIL_CHECK(!headers->failed, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  *out_size = at;
done:
  return status;
}

/* ---- compressed files: pages brought back in pieces, compressed by host threads ---- */

enum { PACK_OK = 0, PACK_TOO_LARGE, PACK_NO_MEMORY, PACK_FAILED };
enum { PACK_MAX_THREADS = 32 };
enum { STAGE_SLOTS = 2 };
/* Bytes of each staging slot: a piece's copy (a few ms over PCIe) hides behind the
 * compression of the piece before it (tens of ms on 16 cores). */
#define DEFAULT_STAGE_BYTES ((int64_t)64 << 20)
/* Bytes of a thread's arena block (its compressed pages, back to back). */
#define ARENA_BLOCK_BYTES ((int64_t)64 << 20)
/* Room kept before a compressed body for its page header (at most 41 bytes). */
#define HEADER_ROOM 64

/* Host memory freed with free(): large sizes start on a 2 MiB boundary and ask for huge pages,
 * so that first touches (the copies into it, the real cost of fresh memory) fault 512 times
 * less often. Advice only: the kernel may refuse. */
static void *big_alloc(size_t size) {
  size_t const huge = (size_t)2 << 20;
  if (size < 8 * huge) return malloc(size > 0 ? size : 1);
  size_t const rounded = (size + huge - 1) / huge * huge;
  void *p = aligned_alloc(huge, rounded);
#ifdef MADV_HUGEPAGE
  if (p != NULL) (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

/* A block of a thread's arena; the bytes follow the struct. */
typedef struct arena_block {
  struct arena_block *next;
  int64_t used;
  int64_t cap;
} arena_block;

static uint8_t *arena_bytes(arena_block *b) { return (uint8_t *)(b + 1); }

/* Room for `bytes` at the end of *arena (a new block when the last has too little). */
static uint8_t *arena_room(arena_block **arena, int64_t bytes) {
  if (*arena != NULL && (*arena)->cap - (*arena)->used >= bytes) {
    return arena_bytes(*arena) + (*arena)->used;
  }
  int64_t const cap = bytes > ARENA_BLOCK_BYTES ? bytes : ARENA_BLOCK_BYTES;
  arena_block *b = (arena_block *)big_alloc(sizeof *b + (size_t)cap);
  if (b == NULL) return NULL;
  b->next = *arena;
  b->used = 0;
  b->cap = cap;
  *arena = b;
  return arena_bytes(b);
}

static void arena_free(arena_block *b) {
  while (b != NULL) {
    arena_block *const next = b->next;
    free(b);
    b = next;
  }
}

/* One page in file order: its body on the device, then its header and compressed body (in a
 * thread's arena), or why there are none. */
typedef struct packed_page {
  page_kind kind;
  int64_t body_at; /* in the device output */
  int64_t body_size;
  int32_t column;
  int32_t slot; /* the staging slot holding its body */
  int failure;  /* PACK_* */
  bool done;
  uint8_t *data; /* header, then the compressed body */
  int64_t header_size;
  int64_t size; /* of the compressed body */
  int64_t file_at;
} packed_page;

/* Pages [first, end) in file order, device bytes [at, at + bytes): one staging slot's fill. */
typedef struct piece {
  int64_t first;
  int64_t end;
  int64_t at;
  int64_t bytes;
} piece;

/* What the calling thread and the compressing threads share. The caller copies piece q into
 * slot q % STAGE_SLOTS once the slot's previous piece is compressed, and publishes its pages;
 * the threads take published pages in file order. */
typedef struct pack_job {
  packed_page *pages;
  int64_t n;
  int32_t codec;
  uint8_t *slot[STAGE_SLOTS];
  int64_t slot_at[STAGE_SLOTS]; /* device offset of the slot's first byte */
  pthread_mutex_t mu;
  pthread_cond_t ready;      /* to the threads: pages published, a failure, or the end */
  pthread_cond_t progress;   /* to the caller: a page done */
  int64_t next;              /* the next page a thread takes */
  int64_t published;         /* pages [0, published) are staged */
  int64_t left[STAGE_SLOTS]; /* pages of the slot's piece not done */
  bool closed;               /* nothing more will be published */
  bool failed;               /* a page failed or the caller did: take no more pages */
  uint8_t *out;              /* the copy phase's output */
  atomic_llong next_copy;
} pack_job;

/* A compressing thread: its arena and its page header scratch. */
typedef struct pack_thread {
  pack_job *job;
  arena_block *arena;
  tw header;
  bool wait; /* false: return once no page is published (the caller compressing alone) */
} pack_thread;

/* Compresses page pg (its body at `body`) into t's arena, its header right before it. */
static int pack_one(pack_thread *t, const uint8_t *body, packed_page *pg) {
  int32_t const codec = t->job->codec;
  int64_t const bound = gcol_detail_pq_compress_bound(codec, pg->body_size);
  if (bound < 0 || bound > INT32_MAX) return PACK_TOO_LARGE;
  uint8_t *room = arena_room(&t->arena, HEADER_ROOM + bound);
  if (room == NULL) return PACK_NO_MEMORY;
  pg->size = gcol_detail_pq_compress(codec, body, pg->body_size, room + HEADER_ROOM, bound);
  if (pg->size < 0) return PACK_FAILED;
  t->header.size = 0;
  write_page_header(&t->header, pg->kind, pg->body_size, pg->size);
  if (t->header.failed || t->header.size > HEADER_ROOM) return PACK_NO_MEMORY;
  pg->header_size = (int64_t)t->header.size;
  pg->data = room + HEADER_ROOM - pg->header_size;
  memcpy(pg->data, t->header.data, t->header.size);
  t->arena->used += (HEADER_ROOM + pg->size + 63) / 64 * 64; /* the next body 64-aligned */
  return PACK_OK;
}

static void *pack_worker(void *arg) {
  pack_thread *t = (pack_thread *)arg;
  pack_job *j = t->job;
  pthread_mutex_lock(&j->mu);
  for (;;) {
    while (t->wait && j->next >= j->published && !j->closed && !j->failed) {
      pthread_cond_wait(&j->ready, &j->mu);
    }
    if (j->failed || j->next >= j->published) break;
    packed_page *pg = &j->pages[j->next++];
    pthread_mutex_unlock(&j->mu);
    int32_t const s = pg->slot; /* the slot is refilled only once this page is done */
    int const failure = pack_one(t, j->slot[s] + (pg->body_at - j->slot_at[s]), pg);
    pthread_mutex_lock(&j->mu);
    pg->failure = failure;
    pg->done = true;
    --j->left[s];
    if (failure != PACK_OK) {
      j->failed = true;
      pthread_cond_broadcast(&j->ready);
    }
    pthread_cond_signal(&j->progress);
  }
  pthread_mutex_unlock(&j->mu);
  return NULL;
}

/* Stops the threads: no page is taken after this. */
static void pack_stop(pack_job *j) {
  pthread_mutex_lock(&j->mu);
  j->failed = true;
  pthread_cond_broadcast(&j->ready);
  pthread_mutex_unlock(&j->mu);
}

/* A page that could not be compressed, in words. */
static gcol_status pack_failure(const char *name, int32_t codec, const packed_page *pg) {
  if (pg->failure == PACK_NO_MEMORY) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_parquet_write", "out of memory");
  }
  if (pg->failure == PACK_TOO_LARGE) {
    return gcol_detail_error(GCOL_ERROR_OVERFLOW, "gcol_parquet_write",
                             "column '%s': a page of %lld bytes is too large to compress with %s",
                             name, (long long)pg->body_size, gcol_detail_pq_codec_name(codec));
  }
  return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_parquet_write",
                           "column '%s': %s compression of a page of %lld bytes failed", name,
                           gcol_detail_pq_codec_name(codec), (long long)pg->body_size);
}

/* Where a file streamed to goes, and how far it got (pages [0, flushed) written). */
typedef struct file_sink {
  FILE *fp;
  const char *path;
  int64_t flushed;
  bool streamed; /* the whole file went to fp (else the caller writes the buffer) */
} file_sink;

static gcol_status sink_write(file_sink *sink, const void *bytes, int64_t size) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(size == 0 || fwrite(bytes, 1, (size_t)size, sink->fp) == (size_t)size,
                    GCOL_ERROR_INVALID_ARGUMENT, "%s: writing %lld bytes failed", sink->path,
                    (long long)size);
done:
  return status;
}

/* Writes the pages done since the last call, in file order, up to the first not done. */
static gcol_status sink_flush(pack_job *j, file_sink *sink) {
  gcol_status status = GCOL_OK;
  pthread_mutex_lock(&j->mu);
  int64_t end = sink->flushed;
  while (end < j->published && j->pages[end].done && j->pages[end].failure == PACK_OK) ++end;
  pthread_mutex_unlock(&j->mu);
  for (; sink->flushed < end; ++sink->flushed) {
    packed_page const *pg = &j->pages[sink->flushed];
    GCOL_DETAIL_TRY(sink_write(sink, pg->data, pg->header_size + pg->size));
  }
done:
  return status;
}

/* The caller's part: every piece copied into its slot once the slot is free, its pages
 * published; with a sink, pages written while it waits. `self`: the caller as a compressing
 * thread where no other started. Returns with the job closed. */
static gcol_status pack_feed(pack_job *j, gcol_detail_pq_encoder *enc, const piece *pieces,
                             int64_t num_pieces, pack_thread *self, file_sink *sink) {
  gcol_status status = GCOL_OK;
  for (int64_t q = 0; q < num_pieces; ++q) {
    int32_t const s = (int32_t)(q % STAGE_SLOTS);
    bool stop = false;
    pthread_mutex_lock(&j->mu);
    while (j->left[s] > 0 && !j->failed) {
      if (sink != NULL && sink->flushed < j->published && j->pages[sink->flushed].done) {
        pthread_mutex_unlock(&j->mu);
        status = sink_flush(j, sink);
        pthread_mutex_lock(&j->mu);
        if (status != GCOL_OK) break;
        continue;
      }
      pthread_cond_wait(&j->progress, &j->mu);
    }
    stop = j->failed || status != GCOL_OK;
    pthread_mutex_unlock(&j->mu);
    if (stop) break;
    GCOL_DETAIL_TRY(
        gcol_detail_parquet_encode_fetch(enc, pieces[q].at, pieces[q].bytes, j->slot[s]));
    pthread_mutex_lock(&j->mu);
    j->slot_at[s] = pieces[q].at;
    for (int64_t i = pieces[q].first; i < pieces[q].end; ++i) j->pages[i].slot = s;
    j->left[s] = pieces[q].end - pieces[q].first;
    j->published = pieces[q].end;
    pthread_cond_broadcast(&j->ready);
    pthread_mutex_unlock(&j->mu);
    if (self != NULL) pack_worker(self);
  }
done:
  if (status != GCOL_OK) pack_stop(j);
  pthread_mutex_lock(&j->mu);
  j->closed = true;
  pthread_cond_broadcast(&j->ready);
  pthread_mutex_unlock(&j->mu);
  return status;
}

static void *copy_worker(void *arg) {
  pack_job *j = (pack_job *)arg;
  for (int64_t i = atomic_fetch_add(&j->next_copy, 1); i < j->n;
       i = atomic_fetch_add(&j->next_copy, 1)) {
    packed_page const *pg = &j->pages[i];
    memcpy(j->out + pg->file_at, pg->data, (size_t)(pg->header_size + pg->size));
  }
  return NULL;
}

/* Threads besides the caller: knobs->helpers, else one per core (the caller mostly waits on
 * copies), within PACK_MAX_THREADS in all and no more than pages. */
static int64_t pack_helpers(const gcol_detail_pq_write_knobs *knobs, int64_t n) {
  int64_t helpers = knobs->helpers;
  if (helpers == 0) {
    long const cores = sysconf(_SC_NPROCESSORS_ONLN);
    helpers = cores > 1 ? cores : 1;
  }
  if (helpers < 0) helpers = 0;
  if (helpers > PACK_MAX_THREADS - 1) helpers = PACK_MAX_THREADS - 1;
  if (helpers > n) helpers = n;
  return helpers;
}

/* Dictionary pages of the file (one per dictionary-encoded chunk). */
static int64_t dict_pages(const file_plan *f, const gpu_write *w) {
  int64_t n = 0;
  for (int64_t g = 0; g < f->groups; ++g) {
    for (int32_t k = 0; k < f->num_columns; ++k) n += chunk_dict(f, w, g, k) != NULL;
  }
  return n;
}

/* The pages in file order and the pieces they come back in (a piece: consecutive pages of at
 * most stage_bytes, or one larger page); *slot_bytes the largest piece. */
static gcol_status plan_pieces(const file_plan *f, const gpu_write *w, int64_t stage_bytes,
                               packed_page *pages, piece **out, int64_t *num_pieces,
                               int64_t *slot_bytes) {
  gcol_status status = GCOL_OK;
  int64_t count = 0, np = 0;
  piece *pieces = NULL;
  *slot_bytes = 0;
  for (int64_t g = 0; g < f->groups; ++g) { /* file order: groups, columns, pages */
    for (int32_t k = 0; k < f->num_columns; ++k) {
      const gcol_detail_pq_wdict_place *dict = chunk_dict(f, w, g, k);
      if (dict != NULL) { /* the chunk's dictionary page first */
        gcol_detail_pq_wdict const d = w->dicts[(int64_t)k * f->groups + g];
        packed_page *pg = &pages[count++];
        pg->kind.values = d.distinct;
        pg->kind.dictionary_page = true;
        pg->body_at = dict->body_at;
        pg->body_size = d.bytes;
        pg->column = k;
      }
      for (int32_t p = w->chunk_pages[g]; p < w->chunk_pages[g + 1]; ++p) {
        int64_t const i = (int64_t)k * w->num_pages + p;
        packed_page *pg = &pages[count++];
        pg->kind = data_page(w->pages[p].end - w->pages[p].begin, dict != NULL);
        pg->body_at = w->place[i].body_at;
        pg->body_size = w->place[i].levels_size + w->info[i].value_bytes;
        pg->column = k;
      }
    }
  }
  pieces = (piece *)malloc((size_t)count * sizeof *pieces);
  GCOL_DETAIL_CHECK(pieces != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int64_t i = 0; i < count; ++i) {
    piece *last = np > 0 ? &pieces[np - 1] : NULL;
    if (last == NULL || last->bytes + pages[i].body_size > stage_bytes) {
      last = &pieces[np++];
      last->first = i;
      last->at = pages[i].body_at;
      last->bytes = 0;
    }
    last->end = i + 1;
    last->bytes = pages[i].body_at + pages[i].body_size - last->at; /* bodies back to back */
    if (last->bytes > *slot_bytes) *slot_bytes = last->bytes;
  }
  *out = pieces;
  pieces = NULL;
  *num_pieces = np;
done:
  free(pieces);
  return status;
}

/* Compressed files: the page bodies (on the device, back to back in file order) brought back
 * piece by piece through pinned staging and compressed by host threads, each page with its
 * header into the thread's arena; then the chunks' offsets and sizes set, and either (sink
 * NULL) the output sized once and filled by the threads, "PAR1" and footer included, into
 * *file, or the pages written to the sink as they completed. */
static gcol_status assemble_compressed(file_plan *f, const gpu_write *w,
                                       const gcol_parquet_write_options *options,
                                       const gcol_detail_pq_write_knobs *knobs, file_sink *sink,
                                       tw *file) {
  gcol_status status = GCOL_OK;
  int64_t const n = (int64_t)f->num_columns * w->num_pages + dict_pages(f, w); /* every page */
  packed_page *pages = (packed_page *)calloc((size_t)n, sizeof *pages);
  pack_thread *threads = (pack_thread *)calloc(PACK_MAX_THREADS, sizeof *threads);
  pthread_t ids[PACK_MAX_THREADS];
  piece *pieces = NULL;
  int64_t num_pieces = 0, slot_bytes = 0, started = 0;
  uint8_t *out = NULL;
  tw tail;
  pack_job j;
  bool job_made = false;
  gcol_detail_thrift_writer_init(&tail);
  GCOL_DETAIL_CHECK(pages != NULL && threads != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int t = 0; t < PACK_MAX_THREADS; ++t) gcol_detail_thrift_writer_init(&threads[t].header);
  int64_t const stage_bytes = knobs->stage_bytes > 0 ? knobs->stage_bytes : DEFAULT_STAGE_BYTES;
  GCOL_DETAIL_TRY(plan_pieces(f, w, stage_bytes, pages, &pieces, &num_pieces, &slot_bytes));
  if (sink != NULL) {
    sink->streamed = true;
    GCOL_DETAIL_TRY(sink_write(sink, "PAR1", 4));
  }
  memset(&j, 0, sizeof j);
  j.pages = pages;
  j.n = n;
  j.codec = f->codec;
  atomic_init(&j.next_copy, 0);
  int32_t const slots = num_pieces < STAGE_SLOTS ? (int32_t)num_pieces : STAGE_SLOTS;
  GCOL_DETAIL_TRY(gcol_detail_parquet_encode_stage(w->enc, slots, slot_bytes, j.slot));
  for (int32_t s = slots; s < STAGE_SLOTS; ++s) j.slot[s] = j.slot[0]; /* never filled */
  GCOL_DETAIL_CHECK(pthread_mutex_init(&j.mu, NULL) == 0, GCOL_ERROR_OUT_OF_MEMORY,
                    "out of memory");
  if (pthread_cond_init(&j.ready, NULL) != 0) {
    pthread_mutex_destroy(&j.mu);
    GCOL_DETAIL_FAIL(GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  if (pthread_cond_init(&j.progress, NULL) != 0) {
    pthread_cond_destroy(&j.ready);
    pthread_mutex_destroy(&j.mu);
    GCOL_DETAIL_FAIL(GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  job_made = true;
  int64_t const helpers = pack_helpers(knobs, n);
  for (int64_t t = 0; t <= helpers; ++t) {
    threads[t].job = &j;
    threads[t].wait = t < helpers;
  }
  /* threads[helpers]: the caller, compressing only where no thread started */
  while (started < helpers &&
         pthread_create(&ids[started], NULL, pack_worker, &threads[started]) == 0) {
    ++started;
  }
  gcol_status const fed =
      pack_feed(&j, w->enc, pieces, num_pieces, started == 0 ? &threads[helpers] : NULL, sink);
  for (int64_t t = 0; t < started; ++t) pthread_join(ids[t], NULL);
  started = 0;
  for (int64_t i = 0; i < n && pages[i].done; ++i) { /* the first failure in file order */
    GCOL_DETAIL_TRY(pages[i].failure == PACK_OK
                        ? GCOL_OK
                        : pack_failure(f->cols[pages[i].column].name, f->codec, &pages[i]));
  }
  GCOL_DETAIL_TRY(fed);
  {
    int64_t at = 4, count = 0;
    for (int64_t g = 0; g < f->groups; ++g) {
      for (int32_t k = 0; k < f->num_columns; ++k) {
        chunk_meta *cm = &f->chunks[g * f->num_columns + k];
        bool const dictionary = chunk_dict(f, w, g, k) != NULL;
        cm->start = at;
        cm->dict_at = dictionary ? at : -1;
        cm->uncompressed_size = 0;
        int32_t const first = w->chunk_pages[g] - (dictionary ? 1 : 0);
        for (int32_t p = first; p < w->chunk_pages[g + 1]; ++p) {
          packed_page *const pg = &pages[count++];
          if (p == w->chunk_pages[g]) cm->data_at = at;
          pg->file_at = at;
          at += pg->header_size + pg->size;
          cm->uncompressed_size += pg->header_size + pg->body_size;
        }
        cm->size = at - cm->start;
      }
    }
    GCOL_DETAIL_TRY(write_footer(&tail, f, options));
    if (sink != NULL) {
      GCOL_DETAIL_TRY(sink_flush(&j, sink));
      GCOL_DETAIL_CHECK(sink->flushed == n, GCOL_ERROR_INVALID_ARGUMENT, "%s: pages left unwritten",
                        sink->path);
      GCOL_DETAIL_TRY(sink_write(sink, tail.data, (int64_t)tail.size));
      goto done;
    }
    size_t const total = (size_t)at + tail.size;
    out = (uint8_t *)big_alloc(total);
    GCOL_DETAIL_CHECK(out != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory (%zu bytes)", total);
    memcpy(out, "PAR1", 4);
    memcpy(out + at, tail.data, tail.size);
    j.out = out;
    int64_t const copiers = helpers < n - 1 ? helpers : n - 1;
    while (started < copiers && pthread_create(&ids[started], NULL, copy_worker, &j) == 0) {
      ++started;
    }
    copy_worker(&j);
    for (int64_t t = 0; t < started; ++t) pthread_join(ids[t], NULL);
    started = 0;
    gcol_detail_thrift_writer_free(file);
    file->data = out;
    file->size = file->capacity = total;
    out = NULL;
  }
done:
  free(out);
  if (job_made) {
    pthread_cond_destroy(&j.progress);
    pthread_cond_destroy(&j.ready);
    pthread_mutex_destroy(&j.mu);
  }
  for (int t = 0; threads != NULL && t < PACK_MAX_THREADS; ++t) {
    arena_free(threads[t].arena);
    gcol_detail_thrift_writer_free(&threads[t].header);
  }
  gcol_detail_thrift_writer_free(&tail);
  free(threads);
  free(pieces);
  free(pages);
  return status;
}

/* Encodes the pages on the GPU and writes the file into `file` (empty on entry). */
static gcol_status write_gpu(gcol_table_view table, file_plan *f,
                             const gcol_parquet_write_options *options,
                             const gcol_detail_pq_write_knobs *knobs, file_sink *sink, tw *file,
                             gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gpu_write w;
  tw headers;
  int64_t out_size = 0;
  bool footer_written = false;
  memset(&w, 0, sizeof w);
  gcol_detail_thrift_writer_init(&headers);
  gcol_detail_thrift_write_bytes(file, "PAR1", 4);
  if (f->groups > 0 && f->num_columns > 0) {
    int64_t const cells = f->groups * f->num_columns;
    w.wcols = (gcol_detail_pq_wcol *)calloc((size_t)f->num_columns, sizeof *w.wcols);
    GCOL_DETAIL_CHECK(w.wcols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    for (int32_t k = 0; k < f->num_columns; ++k) {
      GCOL_DETAIL_TRY(make_wcol(table.columns[k], &f->cols[k].map, &w.wcols[k]));
    }
    GCOL_DETAIL_TRY(make_pages(f, &w));
    w.info = (gcol_detail_pq_wpage_info *)malloc((size_t)f->num_columns * (size_t)w.num_pages *
                                                 sizeof *w.info);
    w.wstats = (gcol_detail_pq_wstats *)malloc((size_t)cells * sizeof *w.wstats);
    GCOL_DETAIL_CHECK(w.info != NULL && w.wstats != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "out of memory");
    GCOL_DETAIL_TRY(gcol_detail_parquet_encode_plan(w.wcols, f->num_columns, w.pages, w.num_pages,
                                                    w.chunk_pages, (int32_t)f->groups, w.info,
                                                    w.wstats, stream, &w.enc));
    GCOL_DETAIL_TRY(fetch_stats(f, &w));
    GCOL_DETAIL_TRY(choose_dictionaries(f, &w, options->dictionary));
    GCOL_DETAIL_TRY(place_pages(f, &w, &headers, &out_size));
    if (f->codec == GCOL_PARQUET_UNCOMPRESSED) {
      /* the file's exact size known: one allocation, the pages copied straight into it */
      tw meta;
      gcol_detail_thrift_writer_init(&meta);
      write_file_meta(&meta, f, options);
      size_t const total = 4 + (size_t)out_size + meta.size + 8;
      gcol_detail_thrift_writer_free(&meta);
      uint8_t *grown = (uint8_t *)realloc(file->data, total);
      GCOL_DETAIL_CHECK(grown != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory (%zu bytes)",
                        total);
      file->data = grown;
      file->capacity = total;
      GCOL_DETAIL_TRY(gcol_detail_parquet_encode_write(w.enc, w.place, w.info, w.dict_place,
                                                       headers.data, (int64_t)headers.size,
                                                       out_size, file->data + 4));
      file->size = 4 + (size_t)out_size;
    } else {
      GCOL_DETAIL_TRY(gcol_detail_parquet_encode_pages(w.enc, w.place, w.info, w.dict_place, NULL,
                                                       0, out_size));
      GCOL_DETAIL_TRY(assemble_compressed(f, &w, options, knobs, sink, file));
      footer_written = true;
    }
  }
  if (!footer_written) GCOL_DETAIL_TRY(write_footer(file, f, options));
done:
  gcol_detail_thrift_writer_free(&headers);
  gpu_write_free(&w);
  return status;
}

gcol_status gcol_detail_parquet_write(gcol_table_view table,
                                      const gcol_parquet_write_options *options,
                                      const gcol_detail_pq_write_knobs *knobs, const char *path,
                                      void **out, int64_t *size, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  file_plan f;
  tw file;
  char **owned_names = NULL;
  gcol_parquet_write_options opt;
  gcol_detail_pq_write_knobs const defaults = {0, 0};
  file_sink sink = {NULL, path, 0, false};
  bool opened = false;
  memset(&f, 0, sizeof f);
  gcol_detail_thrift_writer_init(&file);
  gcol_parquet_write_options_init(&opt);
  if (options != NULL) opt = *options;
  GCOL_DETAIL_CHECK(table.num_columns >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "table.num_columns is negative");
  GCOL_DETAIL_CHECK(opt.row_group_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "options->row_group_rows is negative (%lld)", (long long)opt.row_group_rows);
  GCOL_DETAIL_CHECK(opt.dictionary >= GCOL_PARQUET_DICTIONARY_OFF &&
                        opt.dictionary <= GCOL_PARQUET_DICTIONARY_ALWAYS,
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "options->dictionary %d: OFF (0), ADAPTIVE (1) or ALWAYS (2)",
                    (int)opt.dictionary);
  GCOL_DETAIL_CHECK(opt.num_key_values >= 0 &&
                        (opt.num_key_values == 0 || (opt.keys != NULL && opt.values != NULL)),
                    GCOL_ERROR_INVALID_ARGUMENT, "options: %d key-value pairs without arrays",
                    opt.num_key_values);
  for (int32_t i = 0; i < opt.num_key_values; ++i) {
    GCOL_DETAIL_CHECK(opt.keys[i] != NULL, GCOL_ERROR_INVALID_ARGUMENT, "options->keys[%d] is NULL",
                      i);
  }
  int64_t const rows = table.num_columns > 0 ? table.columns[0].size : 0;
  owned_names =
      (char **)calloc((size_t)(table.num_columns > 0 ? table.num_columns : 1), sizeof *owned_names);
  GCOL_DETAIL_CHECK(owned_names != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t k = 0; k < table.num_columns; ++k) {
    gcol_column_view const v = table.columns[k];
    type_map m;
    GCOL_DETAIL_CHECK(v.size == rows, GCOL_ERROR_SIZE_MISMATCH,
                      "column %d has %lld rows, column 0 %lld", k, (long long)v.size,
                      (long long)rows);
    GCOL_DETAIL_CHECK(map_type(v.type, &m), GCOL_ERROR_UNSUPPORTED,
                      "column %d of type %s cannot be written to Parquet yet", k,
                      gcol_type_name(v.type.id));
    if (opt.column_names != NULL) {
      GCOL_DETAIL_CHECK(opt.column_names[k] != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                        "options->column_names[%d] is NULL", k);
    }
  }
  GCOL_DETAIL_TRY(plan_file(table.num_columns, rows, &opt, &f));
  for (int32_t k = 0; k < table.num_columns; ++k) {
    gcol_column_view const v = table.columns[k];
    map_type(v.type, &f.cols[k].map);
    f.cols[k].optional = v.null_mask != NULL;
    f.cols[k].scale = v.type.scale;
    if (opt.column_names != NULL) {
      f.cols[k].name = opt.column_names[k];
    } else {
      owned_names[k] = (char *)malloc(16);
      GCOL_DETAIL_CHECK(owned_names[k] != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
      snprintf(owned_names[k], 16, "c%d", k);
      f.cols[k].name = owned_names[k];
    }
  }
  if (path != NULL) {
    /* opened once the table is known writable; a compressed file is written as its pages
     * complete */
    sink.fp = fopen(path, "wb");
    GCOL_DETAIL_CHECK(sink.fp != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s: cannot open for writing",
                      path);
    opened = true;
  }
  GCOL_DETAIL_TRY(write_gpu(table, &f, &opt, knobs != NULL ? knobs : &defaults,
                            sink.fp != NULL && f.codec != GCOL_PARQUET_UNCOMPRESSED ? &sink : NULL,
                            &file, stream));
  if (path == NULL) {
    *out = file.data;
    *size = (int64_t)file.size;
    file.data = NULL;
  } else {
    if (!sink.streamed) GCOL_DETAIL_TRY(sink_write(&sink, file.data, (int64_t)file.size));
    int const closed = fclose(sink.fp);
    sink.fp = NULL;
    GCOL_DETAIL_CHECK(closed == 0, GCOL_ERROR_INVALID_ARGUMENT, "%s: closing failed", path);
  }
done:
  if (sink.fp != NULL) fclose(sink.fp);
  if (opened && status != GCOL_OK) remove(path); /* no partial file */
  gcol_detail_thrift_writer_free(&file);
  if (owned_names != NULL) {
    for (int32_t k = 0; k < table.num_columns; ++k) free(owned_names[k]);
  }
  free(owned_names);
  file_plan_free(&f);
  return status;
}

gcol_status gcol_parquet_write_buffer(gcol_table_view table,
                                      const gcol_parquet_write_options *options, void **data,
                                      int64_t *size, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_write_buffer");
  GCOL_DETAIL_CHECK_NOT_NULL(data);
  *data = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(size);
  *size = 0;
  GCOL_DETAIL_TRY(gcol_detail_parquet_write(table, options, NULL, NULL, data, size, stream));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_parquet_buffer_free(void *data) { free(data); }

gcol_status gcol_parquet_write_file(gcol_table_view table,
                                    const gcol_parquet_write_options *options, const char *path,
                                    gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_write_file");
  GCOL_DETAIL_CHECK_NOT_NULL(path);
  GCOL_DETAIL_TRY(gcol_detail_parquet_write(table, options, NULL, path, NULL, NULL, stream));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
