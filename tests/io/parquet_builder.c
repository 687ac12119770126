/* Test Parquet writer (parquet_builder.h) on lib/internal/thrift.h. */
#include "parquet_builder.h"

#include <stdlib.h>
#include <string.h>

#include "gcol/io/parquet.h"
#include "internal/parquet.h"
#include "internal/thrift.h"

typedef gcol_detail_thrift_writer tw;

/* ---- RLE / bit-packed hybrid ---- */

static void put_le(tw *w, uint64_t v, int bytes) {
  uint8_t b[8];
  for (int i = 0; i < bytes; ++i) b[i] = (uint8_t)(v >> (8 * i));
  gcol_detail_thrift_write_bytes(w, b, (size_t)bytes);
}

static void rle_encode(tw *w, const uint32_t *v, int64_t n, int bw) {
  gcol_detail_parquet_rle_encode(w, v, n, bw);
}

int64_t pqb_rle_encode(const uint32_t *values, int64_t n, int bit_width, uint8_t **out) {
  tw w;
  gcol_detail_thrift_writer_init(&w);
  rle_encode(&w, values, n, bit_width);
  *out = w.data;
  return (int64_t)w.size;
}

/* ---- values ---- */

/* Row `row`'s bytes of a column of raw FIXED_LEN_BYTE_ARRAY values. */
static const uint8_t *fixed_value(const pqb_column *c, int64_t row) {
  return c->fixed + row * (c->type_length > 0 ? c->type_length : 0);
}

/* Raw fixed-length values compared as unsigned bytes (the order of binary statistics). */
static int compare_fixed(const pqb_column *c, int64_t a, int64_t b) {
  return c->type_length > 0 ? memcmp(fixed_value(c, a), fixed_value(c, b), (size_t)c->type_length)
                            : 0;
}

static bool equal_value(const pqb_column *c, int64_t a, int64_t b) {
  if (c->physical == GCOL_PARQUET_BYTE_ARRAY) return strcmp(c->strings[a], c->strings[b]) == 0;
  if (c->fixed != NULL) return compare_fixed(c, a, b) == 0;
  if (c->physical == GCOL_PARQUET_FLOAT || c->physical == GCOL_PARQUET_DOUBLE) {
    return memcmp(&c->reals[a], &c->reals[b], sizeof(double)) == 0;
  }
  return c->ints[a] == c->ints[b];
}

/* A FLOAT16 value (little-endian half) as a float: statistics order halves by number. */
static float half_at(const pqb_column *c, int64_t row) {
  const uint8_t *p = fixed_value(c, row);
  uint32_t const bits = gcol_detail_pq_half_to_float_bits((uint16_t)(p[0] | p[1] << 8));
  float f = 0;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static int compare_value(const pqb_column *c, int64_t a, int64_t b) {
  if (c->physical == GCOL_PARQUET_BYTE_ARRAY) return strcmp(c->strings[a], c->strings[b]);
  if (c->fixed != NULL && c->logical == GCOL_PARQUET_LOGICAL_FLOAT16 && c->type_length == 2) {
    return half_at(c, a) < half_at(c, b) ? -1 : half_at(c, a) > half_at(c, b);
  }
  if (c->fixed != NULL) return compare_fixed(c, a, b);
  if (c->physical == GCOL_PARQUET_FLOAT || c->physical == GCOL_PARQUET_DOUBLE) {
    return c->reals[a] < c->reals[b] ? -1 : c->reals[a] > c->reals[b];
  }
  if (c->logical == GCOL_PARQUET_LOGICAL_INTEGER && !c->is_signed && !c->signed_statistics) {
    return (uint64_t)c->ints[a] < (uint64_t)c->ints[b]
               ? -1
               : (uint64_t)c->ints[a] > (uint64_t)c->ints[b];
  }
  return c->ints[a] < c->ints[b] ? -1 : c->ints[a] > c->ints[b];
}

/* PLAIN encoding of value `row` (booleans handled by the caller). */
static void plain_value(tw *w, const pqb_column *c, int64_t row, bool length_prefix) {
  switch (c->physical) {
    case GCOL_PARQUET_INT32:
      put_le(w, (uint64_t)(uint32_t)(int32_t)c->ints[row], 4);
      break;
    case GCOL_PARQUET_INT64:
      put_le(w, (uint64_t)c->ints[row], 8);
      break;
    case GCOL_PARQUET_FLOAT: {
      float const f = (float)c->reals[row];
      uint32_t bits;
      memcpy(&bits, &f, 4);
      put_le(w, bits, 4);
      break;
    }
    case GCOL_PARQUET_DOUBLE: {
      uint64_t bits;
      memcpy(&bits, &c->reals[row], 8);
      put_le(w, bits, 8);
      break;
    }
    case GCOL_PARQUET_INT96: { /* nanoseconds of the day, Julian day */
      int64_t const ns = c->ints[row], per_day = INT64_C(86400000000000);
      int64_t days = ns / per_day;
      if (ns % per_day < 0) --days;
      put_le(w, (uint64_t)ns - (uint64_t)days * (uint64_t)per_day, 8); /* unsigned: no overflow */
      put_le(w, (uint64_t)(uint32_t)(days + 2440588), 4);
      break;
    }
    case GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY: { /* raw bytes, or big-endian sign-extended */
      if (c->fixed != NULL) {
        if (c->type_length > 0) {
          gcol_detail_thrift_write_bytes(w, fixed_value(c, row), (size_t)c->type_length);
        }
        break;
      }
      uint8_t b[16];
      for (int i = 0; i < c->type_length; ++i) {
        int const shift = 8 * (c->type_length - 1 - i);
        b[i] = shift >= 64 ? (c->ints[row] < 0 ? 0xff : 0) : (uint8_t)(c->ints[row] >> shift);
      }
      gcol_detail_thrift_write_bytes(w, b, (size_t)c->type_length);
      break;
    }
    case GCOL_PARQUET_BYTE_ARRAY: {
      size_t const n = strlen(c->strings[row]);
      if (length_prefix) put_le(w, n, 4);
      gcol_detail_thrift_write_bytes(w, c->strings[row], n);
      break;
    }
    default:
      break;
  }
}

/* PLAIN values of rows (booleans bit-packed). */
static void plain_values(tw *w, const pqb_column *c, const int64_t *rows, int64_t n) {
  if (c->physical == GCOL_PARQUET_BOOLEAN) {
    uint8_t *bits = (uint8_t *)calloc((size_t)(n + 7) / 8 + 1, 1);
    for (int64_t i = 0; i < n; ++i) {
      if (c->ints[rows[i]]) bits[i / 8] |= (uint8_t)(1u << (i % 8));
    }
    gcol_detail_thrift_write_bytes(w, bits, (size_t)(n + 7) / 8);
    free(bits);
    return;
  }
  for (int64_t i = 0; i < n; ++i) plain_value(w, c, rows[i], true);
}

/* DELTA_BINARY_PACKED of the rows' values: blocks of 128 deltas in 4 miniblocks of 32. */
static void delta_encode(tw *w, const int64_t *vals, int64_t n) {
  gcol_detail_thrift_write_varint(w, 128);
  gcol_detail_thrift_write_varint(w, 4);
  gcol_detail_thrift_write_varint(w, (uint64_t)n);
  gcol_detail_thrift_write_i64(w, n > 0 ? vals[0] : 0);
  uint64_t prev = n > 0 ? (uint64_t)vals[0] : 0;
  for (int64_t i = 1; i < n;) {
    int64_t const cnt = n - i < 128 ? n - i : 128;
    uint64_t d[128];
    for (int64_t j = 0; j < cnt; ++j) {
      uint64_t const cur = (uint64_t)vals[i + j];
      d[j] = cur - prev;
      prev = cur;
    }
    int64_t mn = (int64_t)d[0];
    for (int64_t j = 1; j < cnt; ++j) mn = (int64_t)d[j] < mn ? (int64_t)d[j] : mn;
    gcol_detail_thrift_write_i64(w, mn);
    uint8_t widths[4] = {0, 0, 0, 0};
    for (int m = 0; m < 4; ++m) {
      for (int64_t j = m * 32; j < cnt && j < m * 32 + 32; ++j) {
        uint64_t const x = d[j] - (uint64_t)mn;
        int bw = 0;
        while (bw < 64 && (x >> bw) != 0) ++bw;
        widths[m] = (uint8_t)(bw > widths[m] ? bw : widths[m]);
      }
    }
    gcol_detail_thrift_write_bytes(w, widths, 4);
    for (int m = 0; m < 4 && m * 32 < cnt; ++m) {
      uint8_t packed[32 * 8];
      memset(packed, 0, sizeof packed);
      int const bw = widths[m];
      for (int64_t j = 0; j < 32; ++j) {
        int64_t const at = m * 32 + j;
        uint64_t const x = at < cnt ? d[at] - (uint64_t)mn : 0;
        for (int b = 0; b < bw; ++b) {
          if ((x >> b) & 1) packed[(j * bw + b) / 8] |= (uint8_t)(1u << ((j * bw + b) % 8));
        }
      }
      gcol_detail_thrift_write_bytes(w, packed, (size_t)(32 * bw / 8));
    }
    i += cnt;
  }
}

/* DELTA_BINARY_PACKED of the rows' integers, or DELTA_LENGTH_BYTE_ARRAY of their strings. */
static void delta_values(tw *w, const pqb_column *c, const int64_t *rows, int64_t n) {
  int64_t *x = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *x);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = c->strings != NULL ? (int64_t)strlen(c->strings[rows[i]]) : c->ints[rows[i]];
  }
  delta_encode(w, x, n);
  if (c->strings != NULL) {
    for (int64_t i = 0; i < n; ++i) {
      gcol_detail_thrift_write_bytes(w, c->strings[rows[i]], (size_t)x[i]);
    }
  }
  free(x);
}

/* DELTA_BYTE_ARRAY of the rows' values (their PLAIN bytes without a length prefix), each's
 * prefix shared with the value before it, the lengths as DELTA_BINARY_PACKED; then the lie. */
static void delta_byte_array_values(tw *w, const pqb_column *c, const int64_t *rows, int64_t n) {
  int64_t *prefix = (int64_t *)malloc((size_t)(n + 1) * sizeof *prefix);
  int64_t *suffix = (int64_t *)malloc((size_t)(n + 1) * sizeof *suffix);
  tw bytes, suffixes;
  gcol_detail_thrift_writer_init(&bytes);
  gcol_detail_thrift_writer_init(&suffixes);
  int64_t prev_at = 0, prev_len = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t const at = (int64_t)bytes.size;
    plain_value(&bytes, c, rows[i], false);
    int64_t const len = (int64_t)bytes.size - at;
    int64_t p = 0;
    while (p < len && p < prev_len && bytes.data[prev_at + p] == bytes.data[at + p]) ++p;
    prefix[i] = p;
    suffix[i] = len - p;
    gcol_detail_thrift_write_bytes(&suffixes, bytes.data + at + p, (size_t)(len - p));
    prev_at = at;
    prev_len = len;
  }
  int64_t np = n, ns = n;
  int64_t const last = n - 1;
  switch (c->lie_delta_byte_array) {
    case PQB_DBA_PREFIX_TOO_LONG:
      if (n >= 2) prefix[last] = suffix[last - 1] + prefix[last - 1] + 1;
      break;
    case PQB_DBA_NEGATIVE_PREFIX:
      if (n >= 1) prefix[last] = -1;
      break;
    case PQB_DBA_NEGATIVE_SUFFIX:
      if (n >= 1) suffix[last] = -1;
      break;
    case PQB_DBA_PREFIX_COUNT:
      prefix[np++] = 0;
      break;
    case PQB_DBA_SUFFIX_COUNT:
      if (ns > 0) --ns;
      break;
    case PQB_DBA_SUFFIX_PAST_END:
      if (n >= 1) suffix[last] += 1000;
      break;
    case PQB_DBA_HUGE_SUFFIX:
      if (n >= 1) suffix[last] = INT64_C(1) << 40;
      break;
    default:
      break;
  }
  delta_encode(w, prefix, np);
  size_t const cut = w->size;
  delta_encode(w, suffix, ns);
  if (c->lie_delta_byte_array == PQB_DBA_CUT) {
    w->size = cut + 3;
  } else {
    gcol_detail_thrift_write_bytes(w, suffixes.data, suffixes.size);
  }
  gcol_detail_thrift_writer_free(&bytes);
  gcol_detail_thrift_writer_free(&suffixes);
  free(prefix);
  free(suffix);
}

static bool is_valid(const pqb_column *c, int64_t row) {
  return c->valid == NULL || c->valid[row] != 0;
}

/* ---- thrift structs ---- */

static void write_page_header(tw *w, int32_t type, int32_t uncompressed, int32_t compressed,
                              int32_t num_values, int32_t encoding, int32_t num_nulls,
                              int32_t def_len, bool is_compressed) {
  gcol_detail_thrift_write_struct_begin(w);
  gcol_detail_thrift_write_i32_field(w, 1, type);
  gcol_detail_thrift_write_i32_field(w, 2, uncompressed);
  gcol_detail_thrift_write_i32_field(w, 3, compressed);
  int16_t const id = type == GCOL_DETAIL_PQ_PAGE_DATA         ? 5
                     : type == GCOL_DETAIL_PQ_PAGE_DICTIONARY ? 7
                                                              : 8;
  gcol_detail_thrift_write_field(w, id, GCOL_DETAIL_THRIFT_STRUCT);
  gcol_detail_thrift_write_struct_begin(w);
  gcol_detail_thrift_write_i32_field(w, 1, num_values);
  if (type == GCOL_DETAIL_PQ_PAGE_DATA) {
    gcol_detail_thrift_write_i32_field(w, 2, encoding);
    gcol_detail_thrift_write_i32_field(w, 3, GCOL_DETAIL_PQ_ENC_RLE);
    gcol_detail_thrift_write_i32_field(w, 4, GCOL_DETAIL_PQ_ENC_RLE);
  } else if (type == GCOL_DETAIL_PQ_PAGE_DICTIONARY) {
    gcol_detail_thrift_write_i32_field(w, 2, encoding);
  } else {
    gcol_detail_thrift_write_i32_field(w, 2, num_nulls);
    gcol_detail_thrift_write_i32_field(w, 3, num_values);
    gcol_detail_thrift_write_i32_field(w, 4, encoding);
    gcol_detail_thrift_write_i32_field(w, 5, def_len);
    gcol_detail_thrift_write_i32_field(w, 6, 0);
    gcol_detail_thrift_write_bool_field(w, 7, is_compressed);
  }
  gcol_detail_thrift_write_struct_end(w);
  gcol_detail_thrift_write_struct_end(w);
}

/* Writes a page: its header, then `raw` (v2 levels, never compressed) and `body` compressed
 * with the column's codec (through the reader's dlopen'd libraries; out->failed when the
 * library is missing). The header's uncompressed size is off by c->lie_uncompressed_size. */
static void write_page(tw *out, const pqb_column *c, int32_t type, const tw *raw, const tw *body,
                       int32_t num_values, int32_t encoding, int32_t num_nulls) {
  size_t const raw_size = raw != NULL ? raw->size : 0;
  const uint8_t *packed = body->data;
  int64_t packed_size = (int64_t)body->size;
  uint8_t *buffer = NULL;
  bool const compress =
      c->codec > 0 && !(type == GCOL_DETAIL_PQ_PAGE_DATA_V2 && c->v2_uncompressed);
  if (compress) {
    int64_t const bound = gcol_detail_pq_compress_bound(c->codec, (int64_t)body->size);
    buffer = bound >= 0 ? (uint8_t *)malloc((size_t)bound + 1) : NULL;
    packed_size = buffer != NULL ? gcol_detail_pq_compress(c->codec, body->data,
                                                           (int64_t)body->size, buffer, bound)
                                 : -1;
    if (packed_size < 0) {
      out->failed = true;
      free(buffer);
      return;
    }
    packed = buffer;
  }
  int32_t const unpacked = (int32_t)(raw_size + body->size) + c->lie_uncompressed_size;
  write_page_header(out, type, unpacked, (int32_t)(raw_size + (size_t)packed_size), num_values,
                    encoding, num_nulls, (int32_t)raw_size, compress);
  if (raw != NULL) gcol_detail_thrift_write_bytes(out, raw->data, raw->size);
  gcol_detail_thrift_write_bytes(out, packed, (size_t)packed_size);
  free(buffer);
}

typedef struct page_info {
  int64_t offset;
  int64_t size;
  int64_t first_row; /* within the group */
  int64_t nulls;
  int64_t min_row; /* -1: every row null */
  int64_t max_row;
} page_info;

typedef struct chunk_info {
  int64_t start;
  int64_t size;
  int64_t data_page_offset;
  int64_t dict_offset;
  int64_t nulls;
  int64_t min_row;
  int64_t max_row;
  int64_t num_pages;
  page_info *pages; /* data pages */
  int64_t column_index_offset, column_index_length;
  int64_t offset_index_offset, offset_index_length;
} chunk_info;

/* Writes one column chunk of rows [r0, r1) at the end of `out`. */
static void write_chunk(tw *out, const pqb_column *c, int64_t r0, int64_t r1, chunk_info *info) {
  int64_t const n = r1 - r0;
  int64_t *dict_rows = NULL;
  int64_t num_dict = 0;
  uint32_t *indices = NULL;
  int64_t *rows = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *rows);
  info->start = (int64_t)out->size;
  info->dict_offset = -1;
  info->nulls = 0;
  info->min_row = info->max_row = -1;
  for (int64_t r = r0; r < r1; ++r) {
    if (!is_valid(c, r)) {
      ++info->nulls;
      continue;
    }
    if (info->min_row < 0 || compare_value(c, r, info->min_row) < 0) info->min_row = r;
    if (info->max_row < 0 || compare_value(c, r, info->max_row) > 0) info->max_row = r;
  }
  if (c->dictionary) {
    dict_rows = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *dict_rows);
    indices = (uint32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *indices);
    for (int64_t r = r0; r < r1; ++r) {
      if (!is_valid(c, r)) continue;
      int64_t k = 0;
      while (k < num_dict && !equal_value(c, dict_rows[k], r)) ++k;
      if (k == num_dict) dict_rows[num_dict++] = r;
      indices[r - r0] = (uint32_t)k;
    }
    tw body;
    gcol_detail_thrift_writer_init(&body);
    plain_values(&body, c, dict_rows, num_dict);
    info->dict_offset = (int64_t)out->size;
    write_page(out, c, GCOL_DETAIL_PQ_PAGE_DICTIONARY, NULL, &body, (int32_t)num_dict,
               GCOL_DETAIL_PQ_ENC_PLAIN, 0);
    gcol_detail_thrift_writer_free(&body);
  }
  info->data_page_offset = (int64_t)out->size;
  int64_t const per_page = c->rows_per_page > 0 ? c->rows_per_page : (n > 0 ? n : 1);
  info->pages = (page_info *)calloc((size_t)(n / per_page + 2), sizeof *info->pages);
  info->num_pages = 0;
  for (int64_t p0 = r0; p0 < r1 || (p0 == r0 && n == 0); p0 += per_page) {
    int64_t const p1 = p0 + per_page < r1 ? p0 + per_page : r1;
    int64_t const m = p1 - p0;
    page_info *pi = &info->pages[info->num_pages++];
    pi->offset = (int64_t)out->size;
    pi->first_row = p0 - r0;
    pi->min_row = pi->max_row = -1;
    for (int64_t r = p0; r < p1; ++r) {
      if (!is_valid(c, r)) {
        ++pi->nulls;
        continue;
      }
      if (pi->min_row < 0 || compare_value(c, r, pi->min_row) < 0) pi->min_row = r;
      if (pi->max_row < 0 || compare_value(c, r, pi->max_row) > 0) pi->max_row = r;
    }
    tw levels, values;
    gcol_detail_thrift_writer_init(&levels);
    gcol_detail_thrift_writer_init(&values);
    int64_t nvalid = 0;
    uint32_t *lv = (uint32_t *)malloc((size_t)(m > 0 ? m : 1) * sizeof *lv);
    uint32_t *idx = (uint32_t *)malloc((size_t)(m > 0 ? m : 1) * sizeof *idx);
    for (int64_t r = p0; r < p1; ++r) {
      lv[r - p0] = is_valid(c, r) ? 1u : 0u;
      if (is_valid(c, r)) {
        rows[nvalid] = r;
        if (indices != NULL) idx[nvalid] = indices[r - r0];
        ++nvalid;
      }
    }
    if (c->optional) rle_encode(&levels, lv, m, 1);
    int32_t encoding = GCOL_DETAIL_PQ_ENC_PLAIN;
    if (c->dictionary) {
      int bw = 0;
      while (bw < 32 && ((uint64_t)(num_dict > 0 ? num_dict - 1 : 0) >> bw) != 0) ++bw;
      uint8_t const b = (uint8_t)bw;
      gcol_detail_thrift_write_bytes(&values, &b, 1);
      rle_encode(&values, idx, nvalid, bw);
      encoding = c->page_version == 2 ? GCOL_DETAIL_PQ_ENC_RLE_DICTIONARY
                                      : GCOL_DETAIL_PQ_ENC_PLAIN_DICTIONARY;
    } else if (c->rle_booleans) {
      tw bits;
      gcol_detail_thrift_writer_init(&bits);
      for (int64_t i = 0; i < nvalid; ++i) idx[i] = c->ints[rows[i]] ? 1u : 0u;
      rle_encode(&bits, idx, nvalid, 1);
      put_le(&values, bits.size, 4);
      gcol_detail_thrift_write_bytes(&values, bits.data, bits.size);
      gcol_detail_thrift_writer_free(&bits);
      encoding = GCOL_DETAIL_PQ_ENC_RLE;
    } else if (c->delta) {
      delta_values(&values, c, rows, nvalid);
      encoding = c->strings != NULL ? GCOL_DETAIL_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY
                                    : GCOL_DETAIL_PQ_ENC_DELTA_BINARY_PACKED;
    } else if (c->delta_byte_array) {
      delta_byte_array_values(&values, c, rows, nvalid);
      encoding = GCOL_DETAIL_PQ_ENC_DELTA_BYTE_ARRAY;
    } else if (c->split) { /* PLAIN bytes, then byte b of every value in stream b */
      tw plain;
      gcol_detail_thrift_writer_init(&plain);
      plain_values(&plain, c, rows, nvalid);
      int64_t const w = nvalid > 0 ? (int64_t)plain.size / nvalid : 0;
      for (int64_t b = 0; b < w; ++b) {
        for (int64_t i = 0; i < nvalid; ++i) {
          gcol_detail_thrift_write_bytes(&values, plain.data + i * w + b, 1);
        }
      }
      gcol_detail_thrift_writer_free(&plain);
      encoding = GCOL_DETAIL_PQ_ENC_BYTE_STREAM_SPLIT;
    } else {
      plain_values(&values, c, rows, nvalid);
    }
    if (c->lie_encoding > 0) encoding = c->lie_encoding;
    if (c->page_version == 2) {
      write_page(out, c, GCOL_DETAIL_PQ_PAGE_DATA_V2, &levels, &values, (int32_t)m, encoding,
                 (int32_t)(m - nvalid));
    } else {
      tw body;
      gcol_detail_thrift_writer_init(&body);
      if (c->optional) {
        put_le(&body, levels.size, 4);
        gcol_detail_thrift_write_bytes(&body, levels.data, levels.size);
      }
      gcol_detail_thrift_write_bytes(&body, values.data, values.size);
      write_page(out, c, GCOL_DETAIL_PQ_PAGE_DATA, NULL, &body, (int32_t)m, encoding, 0);
      gcol_detail_thrift_writer_free(&body);
    }
    pi->size = (int64_t)out->size - pi->offset;
    gcol_detail_thrift_writer_free(&levels);
    gcol_detail_thrift_writer_free(&values);
    free(lv);
    free(idx);
    if (n == 0) break;
  }
  info->size = (int64_t)out->size - info->start;
  free(rows);
  free(dict_rows);
  free(indices);
}

static void write_stat_value(tw *w, int16_t id, const pqb_column *c, int64_t row) {
  tw v;
  gcol_detail_thrift_writer_init(&v);
  if (c->physical == GCOL_PARQUET_BOOLEAN) {
    uint8_t const b = c->ints[row] ? 1 : 0;
    gcol_detail_thrift_write_bytes(&v, &b, 1);
  } else {
    plain_value(&v, c, row, false);
  }
  gcol_detail_thrift_write_binary_field(w, id, v.data, (int64_t)v.size);
  gcol_detail_thrift_writer_free(&v);
}

static void write_schema_leaf(tw *w, const pqb_column *c) {
  gcol_detail_thrift_write_struct_begin(w);
  gcol_detail_thrift_write_i32_field(w, 1, c->physical);
  if (c->physical == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY) {
    gcol_detail_thrift_write_i32_field(
        w, 2, c->lie_type_length > 0 ? c->lie_type_length : c->type_length);
  }
  gcol_detail_thrift_write_i32_field(w, 3, c->optional ? 1 : 0);
  gcol_detail_thrift_write_binary_field(w, 4, c->name, (int64_t)strlen(c->name));
  if (c->converted_type >= 0) gcol_detail_thrift_write_i32_field(w, 6, c->converted_type);
  if (c->logical == GCOL_PARQUET_LOGICAL_DECIMAL || c->converted_type == 5) {
    gcol_detail_thrift_write_i32_field(w, 7, c->scale);
    gcol_detail_thrift_write_i32_field(w, 8, c->precision);
  }
  if (c->logical != 0 && c->converted_type < 0) {
    gcol_detail_thrift_write_field(w, 10, GCOL_DETAIL_THRIFT_STRUCT);
    gcol_detail_thrift_write_struct_begin(w);
    gcol_detail_thrift_write_field(w, (int16_t)c->logical, GCOL_DETAIL_THRIFT_STRUCT);
    gcol_detail_thrift_write_struct_begin(w);
    switch (c->logical) {
      case GCOL_PARQUET_LOGICAL_DECIMAL:
        gcol_detail_thrift_write_i32_field(w, 1, c->scale);
        gcol_detail_thrift_write_i32_field(w, 2, c->precision);
        break;
      case GCOL_PARQUET_LOGICAL_TIME:
      case GCOL_PARQUET_LOGICAL_TIMESTAMP:
        gcol_detail_thrift_write_bool_field(w, 1, true);
        gcol_detail_thrift_write_field(w, 2, GCOL_DETAIL_THRIFT_STRUCT);
        gcol_detail_thrift_write_struct_begin(w);
        gcol_detail_thrift_write_field(w, (int16_t)c->time_unit, GCOL_DETAIL_THRIFT_STRUCT);
        gcol_detail_thrift_write_struct_begin(w);
        gcol_detail_thrift_write_struct_end(w);
        gcol_detail_thrift_write_struct_end(w);
        break;
      case GCOL_PARQUET_LOGICAL_INTEGER:
        gcol_detail_thrift_write_field(w, 1, GCOL_DETAIL_THRIFT_I8);
        {
          uint8_t const b = (uint8_t)c->bit_width;
          gcol_detail_thrift_write_bytes(w, &b, 1);
        }
        gcol_detail_thrift_write_bool_field(w, 2, c->is_signed);
        break;
      default:
        break;
    }
    gcol_detail_thrift_write_struct_end(w);
    gcol_detail_thrift_write_struct_end(w);
  }
  gcol_detail_thrift_write_struct_end(w);
}

/* The page index of a chunk at the end of `out` (ColumnIndex unless c->no_column_index, then
 * OffsetIndex), with c->lie_page_index's lie. */
static void write_column_index(tw *out, const pqb_column *c, chunk_info *ci) {
  tw w;
  int64_t const n = ci->num_pages;
  gcol_detail_thrift_writer_init(&w);
  gcol_detail_thrift_write_struct_begin(&w);
  gcol_detail_thrift_write_list_field(&w, 1, GCOL_DETAIL_THRIFT_TRUE, n);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t const b = ci->pages[i].min_row < 0 ? 1 : 2; /* list booleans: 1 true, 2 false */
    gcol_detail_thrift_write_bytes(&w, &b, 1);
  }
  for (int16_t id = 2; id <= 3; ++id) {
    int64_t const m = id == 2 && c->lie_page_index == PQB_LIE_LIST_LENGTH ? n - 1 : n;
    gcol_detail_thrift_write_list_field(&w, id, GCOL_DETAIL_THRIFT_BINARY, m);
    for (int64_t i = 0; i < m; ++i) {
      int64_t const row = id == 2 ? ci->pages[i].min_row : ci->pages[i].max_row;
      tw v;
      gcol_detail_thrift_writer_init(&v);
      if (row >= 0 && c->physical == GCOL_PARQUET_BOOLEAN) {
        uint8_t const b = c->ints[row] ? 1 : 0;
        gcol_detail_thrift_write_bytes(&v, &b, 1);
      } else if (row >= 0) {
        plain_value(&v, c, row, false);
      }
      gcol_detail_thrift_write_binary(&w, v.data, (int64_t)v.size);
      gcol_detail_thrift_writer_free(&v);
    }
  }
  gcol_detail_thrift_write_i32_field(&w, 4, 0);
  gcol_detail_thrift_write_list_field(&w, 5, GCOL_DETAIL_THRIFT_I64, n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t const extra = i == 0 && c->lie_page_index == PQB_LIE_NULL_COUNT ? 1000000 : 0;
    gcol_detail_thrift_write_i64(&w, ci->pages[i].nulls + extra);
  }
  gcol_detail_thrift_write_struct_end(&w);
  ci->column_index_offset = (int64_t)out->size;
  ci->column_index_length = (int64_t)w.size;
  if (c->lie_page_index == PQB_LIE_COLUMN_INDEX_SHORT) ci->column_index_length -= 3;
  gcol_detail_thrift_write_bytes(out, w.data, w.size);
  out->failed = out->failed || w.failed;
  gcol_detail_thrift_writer_free(&w);
}

static void write_offset_index(tw *out, const pqb_column *c, chunk_info *ci, int64_t rows) {
  tw w;
  int64_t const n = ci->num_pages;
  gcol_detail_thrift_writer_init(&w);
  gcol_detail_thrift_write_struct_begin(&w);
  gcol_detail_thrift_write_list_field(&w, 1, GCOL_DETAIL_THRIFT_STRUCT, n);
  for (int64_t i = 0; i < n; ++i) {
    const page_info *p = &ci->pages[i];
    int64_t offset = p->offset, first = p->first_row;
    if (i == n - 1 && c->lie_page_index == PQB_LIE_PAGE_OUTSIDE_CHUNK) offset += ci->size;
    if (i == 0 && c->lie_page_index == PQB_LIE_FIRST_ROW) first = 1;
    if (i == n - 1 && n > 1 && c->lie_page_index == PQB_LIE_ROWS_ORDER) first = rows + 1;
    gcol_detail_thrift_write_struct_begin(&w);
    gcol_detail_thrift_write_i64_field(&w, 1, offset);
    gcol_detail_thrift_write_i32_field(&w, 2, (int32_t)p->size);
    gcol_detail_thrift_write_i64_field(&w, 3, first);
    gcol_detail_thrift_write_struct_end(&w);
  }
  gcol_detail_thrift_write_struct_end(&w);
  ci->offset_index_offset = (int64_t)out->size;
  ci->offset_index_length = (int64_t)w.size;
  if (c->lie_page_index == PQB_LIE_OFFSET_INDEX_PAST_END) ci->offset_index_offset += 1 << 30;
  gcol_detail_thrift_write_bytes(out, w.data, w.size);
  out->failed = out->failed || w.failed;
  gcol_detail_thrift_writer_free(&w);
}

pqb_file pqb_one_column(const pqb_column *column, int64_t rows) {
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 1;
  f.columns = column;
  f.num_rows = rows;
  return f;
}

uint8_t *pqb_build(const pqb_file *f, int64_t *size) {
  tw out, meta;
  gcol_detail_thrift_writer_init(&out);
  gcol_detail_thrift_writer_init(&meta);
  gcol_detail_thrift_write_bytes(&out, "PAR1", 4);
  int64_t const per_group =
      f->rows_per_group > 0 ? f->rows_per_group : (f->num_rows > 0 ? f->num_rows : 1);
  int64_t const groups = f->num_rows == 0 ? 0 : (f->num_rows + per_group - 1) / per_group;
  chunk_info *chunks = (chunk_info *)calloc((size_t)(groups * f->num_columns + 1), sizeof *chunks);
  for (int64_t g = 0; g < groups; ++g) {
    int64_t const r0 = g * per_group;
    int64_t const r1 = r0 + per_group < f->num_rows ? r0 + per_group : f->num_rows;
    for (int32_t k = 0; k < f->num_columns; ++k) {
      write_chunk(&out, &f->columns[k], r0, r1, &chunks[g * f->num_columns + k]);
    }
  }
  /* page indexes: every ColumnIndex, then every OffsetIndex (as parquet-cpp places them) */
  for (int kind = 0; kind < 2; ++kind) {
    for (int64_t g = 0; g < groups; ++g) {
      int64_t const r0 = g * per_group;
      int64_t const r1 = r0 + per_group < f->num_rows ? r0 + per_group : f->num_rows;
      for (int32_t k = 0; k < f->num_columns; ++k) {
        const pqb_column *c = &f->columns[k];
        chunk_info *ci = &chunks[g * f->num_columns + k];
        if (!c->page_index) continue;
        if (kind == 0 && !c->no_column_index) write_column_index(&out, c, ci);
        if (kind == 1) write_offset_index(&out, c, ci, r1 - r0);
      }
    }
  }
  /* FileMetaData */
  gcol_detail_thrift_write_struct_begin(&meta);
  gcol_detail_thrift_write_i32_field(&meta, 1, 1);
  gcol_detail_thrift_write_list_field(&meta, 2, GCOL_DETAIL_THRIFT_STRUCT, f->num_columns + 1);
  gcol_detail_thrift_write_struct_begin(&meta);
  gcol_detail_thrift_write_binary_field(&meta, 4, "schema", 6);
  gcol_detail_thrift_write_i32_field(&meta, 5, f->num_columns);
  gcol_detail_thrift_write_struct_end(&meta);
  for (int32_t k = 0; k < f->num_columns; ++k) write_schema_leaf(&meta, &f->columns[k]);
  gcol_detail_thrift_write_i64_field(&meta, 3, f->lie_num_rows > 0 ? f->lie_num_rows : f->num_rows);
  gcol_detail_thrift_write_list_field(&meta, 4, GCOL_DETAIL_THRIFT_STRUCT, groups);
  for (int64_t g = 0; g < groups; ++g) {
    int64_t const r0 = g * per_group;
    int64_t const r1 = r0 + per_group < f->num_rows ? r0 + per_group : f->num_rows;
    int64_t bytes = 0;
    gcol_detail_thrift_write_struct_begin(&meta);
    gcol_detail_thrift_write_list_field(&meta, 1, GCOL_DETAIL_THRIFT_STRUCT, f->num_columns);
    for (int32_t k = 0; k < f->num_columns; ++k) {
      const pqb_column *c = &f->columns[k];
      const chunk_info *ci = &chunks[g * f->num_columns + k];
      bytes += ci->size;
      gcol_detail_thrift_write_struct_begin(&meta); /* ColumnChunk */
      gcol_detail_thrift_write_i64_field(&meta, 2, ci->start);
      gcol_detail_thrift_write_field(&meta, 3, GCOL_DETAIL_THRIFT_STRUCT);
      gcol_detail_thrift_write_struct_begin(&meta); /* ColumnMetaData */
      gcol_detail_thrift_write_i32_field(&meta, 1, c->physical);
      gcol_detail_thrift_write_list_field(&meta, 2, GCOL_DETAIL_THRIFT_I32, 2);
      gcol_detail_thrift_write_i32(&meta, GCOL_DETAIL_PQ_ENC_PLAIN);
      gcol_detail_thrift_write_i32(&meta, GCOL_DETAIL_PQ_ENC_RLE);
      gcol_detail_thrift_write_list_field(&meta, 3, GCOL_DETAIL_THRIFT_BINARY, 1);
      gcol_detail_thrift_write_binary(&meta, c->name, (int64_t)strlen(c->name));
      gcol_detail_thrift_write_i32_field(&meta, 4, c->lie_codec > 0 ? c->lie_codec : c->codec);
      gcol_detail_thrift_write_i64_field(&meta, 5, r1 - r0);
      gcol_detail_thrift_write_i64_field(&meta, 6, ci->size);
      gcol_detail_thrift_write_i64_field(&meta, 7, ci->size);
      gcol_detail_thrift_write_i64_field(&meta, 9, ci->data_page_offset);
      if (ci->dict_offset >= 0) gcol_detail_thrift_write_i64_field(&meta, 11, ci->dict_offset);
      if (!c->no_statistics) {
        gcol_detail_thrift_write_field(&meta, 12, GCOL_DETAIL_THRIFT_STRUCT);
        gcol_detail_thrift_write_struct_begin(&meta); /* Statistics */
        gcol_detail_thrift_write_i64_field(&meta, 3, ci->nulls);
        if (ci->max_row >= 0) write_stat_value(&meta, 5, c, ci->max_row);
        if (ci->min_row >= 0) write_stat_value(&meta, 6, c, ci->min_row);
        gcol_detail_thrift_write_struct_end(&meta);
      }
      gcol_detail_thrift_write_struct_end(&meta); /* ColumnMetaData */
      if (c->page_index) {
        gcol_detail_thrift_write_i64_field(&meta, 4, ci->offset_index_offset);
        gcol_detail_thrift_write_i32_field(&meta, 5, (int32_t)ci->offset_index_length);
        if (!c->no_column_index) {
          gcol_detail_thrift_write_i64_field(&meta, 6, ci->column_index_offset);
          gcol_detail_thrift_write_i32_field(&meta, 7, (int32_t)ci->column_index_length);
        }
      }
      gcol_detail_thrift_write_struct_end(&meta); /* ColumnChunk */
    }
    gcol_detail_thrift_write_i64_field(&meta, 2, bytes);
    gcol_detail_thrift_write_i64_field(&meta, 3, r1 - r0);
    gcol_detail_thrift_write_struct_end(&meta);
  }
  if (f->num_key_values > 0) {
    gcol_detail_thrift_write_list_field(&meta, 5, GCOL_DETAIL_THRIFT_STRUCT, f->num_key_values);
    for (int32_t i = 0; i < f->num_key_values; ++i) {
      gcol_detail_thrift_write_struct_begin(&meta);
      gcol_detail_thrift_write_binary_field(&meta, 1, f->keys[i], (int64_t)strlen(f->keys[i]));
      if (f->values[i] != NULL) {
        gcol_detail_thrift_write_binary_field(&meta, 2, f->values[i],
                                              (int64_t)strlen(f->values[i]));
      }
      gcol_detail_thrift_write_struct_end(&meta);
    }
  }
  gcol_detail_thrift_write_binary_field(&meta, 6, "gcol test builder", 17);
  gcol_detail_thrift_write_struct_end(&meta);
  gcol_detail_thrift_write_bytes(&out, meta.data, meta.size);
  put_le(&out, meta.size, 4);
  gcol_detail_thrift_write_bytes(&out, "PAR1", 4);
  for (int64_t i = 0; i < groups * f->num_columns; ++i) free(chunks[i].pages);
  free(chunks);
  bool const failed = out.failed || meta.failed;
  gcol_detail_thrift_writer_free(&meta);
  if (failed) {
    gcol_detail_thrift_writer_free(&out);
    return NULL;
  }
  *size = (int64_t)out.size;
  return out.data;
}
