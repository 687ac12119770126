/*
 * Host test of the Parquet writer's orchestration (lib/io/parquet_write.c: page table,
 * layout, page headers, statistics, compressed pages, footer) without a GPU: the four entry
 * points of kernels/io/parquet_encode.cu are replaced here by a serial stand-in over host
 * memory that runs the same per-row helpers (lib/internal/parquet.h) and checks what the
 * writer asks (every output byte written, places inside the output). gcol_parquet_write_buffer
 * is then called on views of host arrays and its files compared with the host encoder's:
 * the same bytes where both write levels alike, else the same statistics and the same values
 * decoded by the host page decoders. The compressed path's pieces (staging slots filled by
 * encode_fetch) run with tiny slots, any number of threads, into buffers and files, and with
 * the stand-in's staging or copies failing on request. Dictionary encoding: the stand-in
 * builds each chunk's dictionary its own way (sorting the chunk's rows, where the device
 * hashes them) and packs indices with the same helpers; files written with dictionaries are
 * checked page header by page header and decoded value by value against the host encoder's
 * PLAIN file. The index packing (gcol_detail_pq_dict_indices_header, _bitpack_byte) and the
 * host hybrid encoder are checked against the reader's RLE/bit-packed decoder.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcol/io/parquet.h"
#include "internal/parquet.h"
#include "internal/thrift.h"
#include "test_util.h"

/* ---- the stand-in encoder ---- */

struct gcol_detail_pq_encoder {
  gcol_detail_pq_wcol *cols;
  int32_t num_columns;
  gcol_detail_pq_wpage *pages;
  int32_t num_pages;
  int32_t num_chunks;
  int32_t *chunk_pages;
  gcol_detail_pq_wstats *stats;
  uint8_t *out; /* encode_pages' output */
  int64_t out_size;
  uint8_t *stage; /* encode_stage's slots */
  int32_t slots;
  int64_t slot_bytes;
};

/* Failures on request: encode_stage refuses; the copy numbered fail_fetch (from 1) fails. */
static bool fail_stage;
static int fail_fetch;
static int fetches; /* copies since the last reset */

void gcol_detail_parquet_encoder_free(gcol_detail_pq_encoder *enc) {
  if (enc == NULL) return;
  free(enc->out);
  free(enc->stage);
  free(enc->cols);
  free(enc->pages);
  free(enc->chunk_pages);
  free(enc->stats);
  free(enc);
}

gcol_status gcol_detail_parquet_encode_plan(const gcol_detail_pq_wcol *cols, int32_t num_columns,
                                            const gcol_detail_pq_wpage *pages, int32_t num_pages,
                                            const int32_t *chunk_pages, int32_t num_chunks,
                                            gcol_detail_pq_wpage_info *info,
                                            gcol_detail_pq_wstats *stats, gcol_stream stream,
                                            gcol_detail_pq_encoder **out) {
  (void)stream;
  assert_true(num_columns > 0 && num_pages > 0 && num_chunks > 0);
  assert_int_equal(chunk_pages[0], 0);
  assert_int_equal(chunk_pages[num_chunks], num_pages);
  gcol_detail_pq_encoder *enc = (gcol_detail_pq_encoder *)calloc(1, sizeof *enc);
  assert_non_null(enc);
  enc->cols = (gcol_detail_pq_wcol *)malloc((size_t)num_columns * sizeof *cols);
  enc->pages = (gcol_detail_pq_wpage *)malloc((size_t)num_pages * sizeof *pages);
  enc->stats = (gcol_detail_pq_wstats *)malloc((size_t)num_columns * num_chunks * sizeof *stats);
  memcpy(enc->cols, cols, (size_t)num_columns * sizeof *cols);
  memcpy(enc->pages, pages, (size_t)num_pages * sizeof *pages);
  enc->chunk_pages = (int32_t *)malloc((size_t)(num_chunks + 1) * sizeof *chunk_pages);
  assert_non_null(enc->chunk_pages);
  memcpy(enc->chunk_pages, chunk_pages, (size_t)(num_chunks + 1) * sizeof *chunk_pages);
  enc->num_columns = num_columns;
  enc->num_pages = num_pages;
  enc->num_chunks = num_chunks;
  for (int32_t k = 0; k < num_columns; ++k) {
    const gcol_detail_pq_wcol *c = &cols[k];
    for (int32_t g = 0; g < num_chunks; ++g) {
      gcol_detail_pq_wstats s = {0, -1, -1, 0, 0};
      for (int32_t p = chunk_pages[g]; p < chunk_pages[g + 1]; ++p) {
        assert_true(p == 0 || pages[p].begin == pages[p - 1].end);
        int64_t nulls = 0, bytes = 0;
        for (int64_t r = pages[p].end - 1; r >= pages[p].begin; --r) { /* any order */
          if (!gcol_detail_pq_w_valid(c, r)) {
            ++nulls;
            continue;
          }
          if (c->kind == GCOL_DETAIL_PQ_W_STRING) bytes += gcol_detail_pq_w_count(c, r);
          if (gcol_detail_pq_w_is_nan(c, r)) continue;
          s.min_row = gcol_detail_pq_w_pick(c, s.min_row, r, -1);
          s.max_row = gcol_detail_pq_w_pick(c, s.max_row, r, 1);
        }
        gcol_detail_pq_wpage_info *in = &info[(int64_t)k * num_pages + p];
        in->nulls = nulls;
        in->value_bytes =
            gcol_detail_pq_w_value_bytes(c, pages[p].end - pages[p].begin - nulls, bytes);
        s.nulls += nulls;
      }
      s.min_size = gcol_detail_pq_w_stat_size(c, s.min_row);
      s.max_size = gcol_detail_pq_w_stat_size(c, s.max_row);
      stats[(int64_t)k * num_chunks + g] = s;
      enc->stats[(int64_t)k * num_chunks + g] = s;
    }
  }
  *out = enc;
  return GCOL_OK;
}

gcol_status gcol_detail_parquet_encode_stats(gcol_detail_pq_encoder *enc, const int64_t *stat_at,
                                             int64_t stats_size, uint8_t *host_stats) {
  memset(host_stats, 0xa5, (size_t)stats_size);
  int64_t written = 0;
  for (int64_t i = 0; i < (int64_t)enc->num_columns * enc->num_chunks; ++i) {
    const gcol_detail_pq_wcol *c = &enc->cols[i / enc->num_chunks];
    gcol_detail_pq_wstats const s = enc->stats[i];
    assert_true(stat_at[i] >= 0 && stat_at[i] + s.min_size + s.max_size <= stats_size);
    if (s.min_row >= 0) gcol_detail_pq_w_put_stat(c, s.min_row, host_stats + stat_at[i]);
    if (s.max_row >= 0)
      gcol_detail_pq_w_put_stat(c, s.max_row, host_stats + stat_at[i] + s.min_size);
    written += s.min_size + s.max_size;
  }
  assert_int_equal(written, stats_size);
  return GCOL_OK;
}

/* ---- the stand-in's dictionaries: a chunk's rows sorted, not hashed ---- */

/* A chunk's dictionary: its entries (first rows, ascending) and each row's index. */
typedef struct stand_in_dict {
  int64_t begin;
  int64_t *entries;
  int64_t distinct;
  int64_t bytes;   /* PLAIN */
  uint32_t *index; /* [row - begin]; valid rows only */
} stand_in_dict;

static const gcol_detail_pq_wcol *sorted_column; /* qsort's comparator reads it */

/* Values by their bits (strings bytewise), then rows ascending. */
static int compare_by_bits(const void *pa, const void *pb) {
  int64_t const a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  const gcol_detail_pq_wcol *c = sorted_column;
  int r = 0;
  if (c->kind == GCOL_DETAIL_PQ_W_STRING) {
    gcol_string_ref const x = gcol_strings_view_get(c->strings, a);
    gcol_string_ref const y = gcol_strings_view_get(c->strings, b);
    int64_t const n = x.size < y.size ? x.size : y.size;
    r = n > 0 ? memcmp(x.data, y.data, (size_t)n) : 0;
    if (r == 0) r = x.size < y.size ? -1 : x.size > y.size;
  } else {
    uint64_t const x = gcol_detail_pq_w_bits(c, a), y = gcol_detail_pq_w_bits(c, b);
    r = x < y ? -1 : x > y;
  }
  return r != 0 ? r : (a < b ? -1 : a > b);
}

static int compare_rows_ascending(const void *pa, const void *pb) {
  int64_t const a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return a < b ? -1 : a > b;
}

/* The dictionary of column c's rows [begin, end): entries in first-row order. */
static void stand_in_dictionary(const gcol_detail_pq_wcol *c, int64_t begin, int64_t end,
                                stand_in_dict *d) {
  int64_t *sorted = (int64_t *)malloc((size_t)(end - begin + 1) * sizeof *sorted);
  int64_t *run_first = (int64_t *)malloc((size_t)(end - begin + 1) * sizeof *run_first);
  d->begin = begin;
  d->entries = (int64_t *)malloc((size_t)(end - begin + 1) * sizeof *d->entries);
  d->index = (uint32_t *)calloc((size_t)(end - begin + 1), sizeof *d->index);
  assert_true(sorted != NULL && run_first != NULL && d->entries != NULL && d->index != NULL);
  int64_t n = 0;
  for (int64_t r = begin; r < end; ++r) {
    if (gcol_detail_pq_w_valid(c, r)) sorted[n++] = r;
  }
  sorted_column = c;
  qsort(sorted, (size_t)n, sizeof *sorted, compare_by_bits);
  d->distinct = 0;
  d->bytes = 0;
  for (int64_t i = 0; i < n; ++i) { /* a run of equal values starts at its first row */
    bool fresh = i == 0;
    if (i > 0) {
      int64_t a = sorted[i - 1], b = sorted[i];
      if (c->kind == GCOL_DETAIL_PQ_W_STRING) {
        gcol_string_ref const x = gcol_strings_view_get(c->strings, a);
        gcol_string_ref const y = gcol_strings_view_get(c->strings, b);
        fresh = x.size != y.size || (x.size > 0 && memcmp(x.data, y.data, (size_t)x.size) != 0);
      } else {
        fresh = gcol_detail_pq_w_bits(c, a) != gcol_detail_pq_w_bits(c, b);
      }
    }
    run_first[i] = fresh ? sorted[i] : run_first[i - 1];
    if (fresh) {
      d->entries[d->distinct++] = sorted[i];
      d->bytes +=
          c->kind == GCOL_DETAIL_PQ_W_STRING ? gcol_detail_pq_w_count(c, sorted[i]) : c->out_width;
    }
  }
  qsort(d->entries, (size_t)d->distinct, sizeof *d->entries, compare_rows_ascending);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t *at = (const int64_t *)bsearch(&run_first[i], d->entries, (size_t)d->distinct,
                                                 sizeof *d->entries, compare_rows_ascending);
    assert_non_null(at);
    d->index[sorted[i] - begin] = (uint32_t)(at - d->entries);
  }
  free(sorted);
  free(run_first);
}

static void stand_in_dict_free(stand_in_dict *d) {
  free(d->entries);
  free(d->index);
}

/* Chunk g's rows. */
static void chunk_rows(const gcol_detail_pq_encoder *enc, int32_t g, int64_t *begin, int64_t *end) {
  *begin = enc->pages[enc->chunk_pages[g]].begin;
  *end = enc->pages[enc->chunk_pages[g + 1] - 1].end;
}

gcol_status gcol_detail_parquet_encode_dict(gcol_detail_pq_encoder *enc, const bool *want,
                                            gcol_detail_pq_wdict *dicts) {
  for (int32_t k = 0; k < enc->num_columns; ++k) {
    for (int32_t g = 0; g < enc->num_chunks; ++g) {
      gcol_detail_pq_wdict *d = &dicts[(int64_t)k * enc->num_chunks + g];
      d->distinct = d->bytes = 0;
      if (!want[k]) continue;
      assert_int_not_equal(enc->cols[k].kind, GCOL_DETAIL_PQ_W_BOOL);
      int64_t begin = 0, end = 0;
      stand_in_dict sd;
      chunk_rows(enc, g, &begin, &end);
      stand_in_dictionary(&enc->cols[k], begin, end, &sd);
      d->distinct = sd.distinct;
      d->bytes = sd.bytes;
      stand_in_dict_free(&sd);
    }
  }
  return GCOL_OK;
}

/* Chunk g's dictionary page of column c at `place`, its header too where placed. */
static void stand_in_dict_page(const gcol_detail_pq_wcol *c, const stand_in_dict *sd,
                               gcol_detail_pq_wdict_place place, const uint8_t *headers,
                               int64_t header_bytes, int64_t out_size, uint8_t *out) {
  assert_true(place.body_at >= 0 && place.body_at + sd->bytes <= out_size);
  if (place.header_size > 0) {
    assert_true(place.header_src >= 0 && place.header_src + place.header_size <= header_bytes);
    assert_true(place.header_at >= 0 && place.header_at + place.header_size <= out_size);
    memcpy(out + place.header_at, headers + place.header_src, (size_t)place.header_size);
  }
  int64_t slot = 0;
  for (int64_t i = 0; i < sd->distinct; ++i) {
    gcol_detail_pq_w_put_value(c, sd->entries[i], sd->entries[i] + 1, slot, out + place.body_at);
    slot += c->kind == GCOL_DETAIL_PQ_W_STRING ? gcol_detail_pq_w_count(c, sd->entries[i]) : 1;
  }
}

/* A dictionary-encoded page's indices at `dst` (value_bytes of them). */
static void stand_in_indices(const gcol_detail_pq_wcol *c, const stand_in_dict *sd, int bits,
                             int64_t begin, int64_t end, int64_t value_bytes, uint8_t *dst) {
  uint32_t *v = (uint32_t *)malloc((size_t)(end - begin + 1) * sizeof *v);
  assert_non_null(v);
  int64_t n = 0;
  for (int64_t r = begin; r < end; ++r) {
    if (gcol_detail_pq_w_valid(c, r)) v[n++] = sd->index[r - sd->begin];
  }
  assert_int_equal(value_bytes, gcol_detail_pq_dict_indices_size(n, bits));
  int const hs = gcol_detail_pq_dict_indices_header(n, bits, dst);
  for (int64_t j = 0; j < (n + 7) / 8 * bits; ++j) {
    dst[hs + j] = gcol_detail_pq_bitpack_byte(v, n, bits, j);
  }
  free(v);
}

/* One pass of the device's writes over `fill`. */
static void stand_in_write(const gcol_detail_pq_encoder *enc, const gcol_detail_pq_wplace *place,
                           const gcol_detail_pq_wpage_info *info,
                           const gcol_detail_pq_wdict_place *dict_place, const uint8_t *headers,
                           int64_t header_bytes, int64_t out_size, uint8_t fill, uint8_t *out) {
  memset(out, fill, (size_t)out_size);
  for (int32_t k = 0; k < enc->num_columns; ++k) {
    const gcol_detail_pq_wcol *c = &enc->cols[k];
    stand_in_dict sd;
    int bits = 0;
    memset(&sd, 0, sizeof sd);
    for (int32_t p = 0, g = -1; p < enc->num_pages; ++p) {
      if (g < 0 || p == enc->chunk_pages[g + 1]) { /* a chunk starts: its dictionary first */
        ++g;
        stand_in_dict_free(&sd);
        memset(&sd, 0, sizeof sd);
        gcol_detail_pq_wdict_place const d = dict_place != NULL
                                                 ? dict_place[(int64_t)k * enc->num_chunks + g]
                                                 : (gcol_detail_pq_wdict_place){0, 0, 0, 0, 0};
        bits = d.bit_width;
        if (bits > 0) {
          int64_t begin = 0, end = 0;
          chunk_rows(enc, g, &begin, &end);
          stand_in_dictionary(c, begin, end, &sd);
          assert_int_equal(bits, gcol_detail_pq_dict_bit_width(sd.distinct));
          stand_in_dict_page(c, &sd, d, headers, header_bytes, out_size, out);
        }
      }
      int64_t const i = (int64_t)k * enc->num_pages + p;
      gcol_detail_pq_wplace const w = place[i];
      int64_t const begin = enc->pages[p].begin, end = enc->pages[p].end, rows = end - begin;
      int64_t const body = w.levels_size + info[i].value_bytes;
      assert_true(w.body_at >= 0 && w.body_at + body <= out_size);
      assert_int_equal(w.levels_size,
                       c->optional ? gcol_detail_pq_levels_size(rows, info[i].nulls) : 0);
      if (w.header_size > 0) {
        assert_true(w.header_src >= 0 && w.header_src + w.header_size <= header_bytes);
        assert_true(w.header_at >= 0 && w.header_at + w.header_size <= out_size);
        memcpy(out + w.header_at, headers + w.header_src, (size_t)w.header_size);
      }
      uint8_t *dst = out + w.body_at;
      if (c->optional) {
        int const hs = gcol_detail_pq_levels_header(rows, info[i].nulls, dst);
        if (info[i].nulls != 0 && info[i].nulls != rows) {
          for (int64_t j = 0; j < (rows + 7) / 8; ++j) {
            dst[hs + j] = gcol_detail_pq_w_levels_byte(c, begin, rows, j);
          }
        }
      }
      if (bits > 0) {
        stand_in_indices(c, &sd, bits, begin, end, info[i].value_bytes, dst + w.levels_size);
        continue;
      }
      int64_t slot = 0;
      for (int64_t r = begin; r < end; ++r) {
        if (!gcol_detail_pq_w_valid(c, r)) continue;
        gcol_detail_pq_w_put_value(c, r, end, slot, dst + w.levels_size);
        slot += gcol_detail_pq_w_count(c, r);
      }
    }
    stand_in_dict_free(&sd);
  }
}

gcol_status gcol_detail_parquet_encode_write(gcol_detail_pq_encoder *enc,
                                             const gcol_detail_pq_wplace *place,
                                             const gcol_detail_pq_wpage_info *info,
                                             const gcol_detail_pq_wdict_place *dict_place,
                                             const uint8_t *headers, int64_t header_bytes,
                                             int64_t out_size, uint8_t *host_out) {
  uint8_t *other = (uint8_t *)malloc((size_t)(out_size > 0 ? out_size : 1));
  assert_non_null(other);
  stand_in_write(enc, place, info, dict_place, headers, header_bytes, out_size, 0x11, host_out);
  stand_in_write(enc, place, info, dict_place, headers, header_bytes, out_size, 0xee, other);
  assert_memory_equal(host_out, other, (size_t)out_size); /* every byte written */
  free(other);
  return GCOL_OK;
}

gcol_status gcol_detail_parquet_encode_pages(gcol_detail_pq_encoder *enc,
                                             const gcol_detail_pq_wplace *place,
                                             const gcol_detail_pq_wpage_info *info,
                                             const gcol_detail_pq_wdict_place *dict_place,
                                             const uint8_t *headers, int64_t header_bytes,
                                             int64_t out_size) {
  assert_null(enc->out);
  enc->out = (uint8_t *)malloc((size_t)(out_size > 0 ? out_size : 1));
  assert_non_null(enc->out);
  enc->out_size = out_size;
  return gcol_detail_parquet_encode_write(enc, place, info, dict_place, headers, header_bytes,
                                          out_size, enc->out);
}

gcol_status gcol_detail_parquet_encode_stage(gcol_detail_pq_encoder *enc, int32_t slots,
                                             int64_t slot_bytes, uint8_t **slot) {
  assert_null(enc->stage);
  assert_true(slots > 0 && slot_bytes > 0);
  if (fail_stage) return GCOL_ERROR_OUT_OF_MEMORY;
  enc->stage = (uint8_t *)malloc((size_t)slots * (size_t)slot_bytes);
  assert_non_null(enc->stage);
  enc->slots = slots;
  enc->slot_bytes = slot_bytes;
  for (int32_t i = 0; i < slots; ++i) slot[i] = enc->stage + (size_t)i * (size_t)slot_bytes;
  return GCOL_OK;
}

gcol_status gcol_detail_parquet_encode_fetch(gcol_detail_pq_encoder *enc, int64_t begin,
                                             int64_t size, uint8_t *host) {
  assert_non_null(enc->out);
  assert_true(begin >= 0 && size > 0 && begin + size <= enc->out_size);
  int64_t const at = host - enc->stage;
  assert_true(at >= 0 && at % enc->slot_bytes == 0 && at / enc->slot_bytes < enc->slots);
  assert_true(size <= enc->slot_bytes);
  if (++fetches == fail_fetch) return GCOL_ERROR_CUDA;
  memset(host, 0xcd, (size_t)enc->slot_bytes); /* stale bytes of the slot's last piece gone */
  memcpy(host, enc->out + begin, (size_t)size);
  return GCOL_OK;
}

/* ---- columns in host memory, seen as device views ---- */

typedef struct hcol {
  gcol_column_view view;
  gcol_column_view child; /* STRING: offsets */
  void *data;
  uint32_t *mask;
  int32_t *offsets;
} hcol;

enum { H_NONE, H_SOME, H_ALL_NULL, H_ALL_VALID };

/* `n` rows of type `id` starting at row `skew` of their arrays. */
static void hcol_make(hcol *c, gcol_type_id id, int64_t n, int nulls, int64_t skew,
                      gcol_test_rng *rng) {
  int64_t const all = n + skew;
  memset(c, 0, sizeof *c);
  c->mask = (uint32_t *)calloc((size_t)(all / 32 + 2), 4);
  assert_non_null(c->mask);
  int64_t null_count = 0;
  for (int64_t i = 0; i < all; ++i) {
    bool const v = nulls == H_ALL_NULL ? false
                   : nulls == H_SOME   ? (i / 100) % 9 != 4 && gcol_test_rng_range(rng, 0, 2)
                                       : true;
    if (v) c->mask[i / 32] |= 1u << (i % 32);
    if (!v && i >= skew) ++null_count;
  }
  c->view.type = gcol_data_type_make(id);
  if (id == GCOL_DECIMAL32) c->view.type = gcol_data_type_decimal(GCOL_DECIMAL32, -2);
  c->view.size = n;
  c->view.offset = skew;
  c->view.null_mask = nulls == H_NONE ? NULL : c->mask;
  c->view.null_count = nulls == H_NONE ? 0 : null_count;
  if (id == GCOL_STRING) {
    c->offsets = (int32_t *)malloc((size_t)(all + 1) * 4);
    char *chars = (char *)malloc((size_t)all * 9 + 1);
    assert_non_null(c->offsets);
    assert_non_null(chars);
    int32_t at = 0;
    for (int64_t i = 0; i < all; ++i) {
      c->offsets[i] = at;
      int64_t const len = gcol_test_rng_range(rng, 0, 8);
      for (int64_t b = 0; b < len; ++b) chars[at++] = (char)gcol_test_rng_range(rng, 0, 255);
    }
    c->offsets[all] = at;
    c->data = chars;
    c->view.data = chars;
    c->child.type = gcol_data_type_make(GCOL_INT32);
    c->child.size = all + 1;
    c->child.data = c->offsets;
    c->view.num_children = 1;
    c->view.children = &c->child;
    return;
  }
  size_t const width = gcol_type_size(id);
  uint8_t *data = (uint8_t *)malloc((size_t)all * width + 8);
  assert_non_null(data);
  gcol_test_rng_fill(rng, data, (size_t)all * width);
  for (int64_t i = 0; i < all; ++i) {
    uint64_t const r = gcol_test_rng_next(rng);
    double const d = r % 7 == 0 ? NAN : r % 11 == 0 ? -0.0 : (double)(int64_t)(r % 999) - 499;
    float const f = (float)d;
    if (id == GCOL_BOOL8) data[i] = (uint8_t)(r % 2);
    if (id == GCOL_FLOAT32) memcpy(data + i * 4, &f, 4);
    if (id == GCOL_FLOAT64) memcpy(data + i * 8, &d, 8);
  }
  c->data = data;
  c->view.data = data;
}

static void hcol_free(hcol *c) {
  free(c->data);
  free(c->mask);
  free(c->offsets);
}

/* The host encoder's input for a view of host arrays (valid bytes into *valid). */
static void host_column(const hcol *c, const char *name, uint8_t **valid, int64_t **offsets,
                        gcol_detail_pq_host_column *out) {
  gcol_column_view const v = c->view;
  memset(out, 0, sizeof *out);
  out->name = name;
  out->type = v.type;
  *valid = NULL;
  *offsets = NULL;
  if (v.null_mask != NULL) {
    *valid = (uint8_t *)malloc((size_t)v.size + 1);
    for (int64_t i = 0; i < v.size; ++i) {
      (*valid)[i] = (uint8_t)((v.null_mask[(v.offset + i) / 32] >> ((v.offset + i) % 32)) & 1);
    }
    out->valid = *valid;
  }
  if (v.type.id == GCOL_STRING) {
    *offsets = (int64_t *)malloc((size_t)(v.size + 1) * 8);
    for (int64_t i = 0; i <= v.size; ++i) (*offsets)[i] = c->offsets[v.offset + i];
    out->offsets = *offsets;
    out->chars = (const char *)v.data;
  } else {
    out->data = (const uint8_t *)v.data + v.offset * (int64_t)gcol_type_size(v.type.id);
  }
}

/* Column k of a file decoded on the host: words, valid bytes, strings as (pos, len). */
typedef struct decoded {
  gcol_detail_pq_column_plan plan;
  uint64_t *values;
  int64_t *pos;
  int64_t *len;
  uint8_t *valid;
} decoded;

static void decode(const uint8_t *file, int64_t size, int32_t k, decoded *d) {
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
  int32_t *groups = (int32_t *)malloc((size_t)md->num_row_groups * 4 + 4);
  for (int32_t g = 0; g < md->num_row_groups; ++g) groups[g] = g;
  GCOL_TEST_OK(gcol_detail_parquet_plan_column(&src, md, k, groups, md->num_row_groups, &d->plan));
  int64_t const n = d->plan.num_rows;
  d->values = (uint64_t *)calloc((size_t)n + 1, 8);
  d->pos = (int64_t *)calloc((size_t)n + 1, 8);
  d->len = (int64_t *)calloc((size_t)n + 1, 8);
  d->valid = (uint8_t *)calloc((size_t)n + 1, 1);
  int32_t bad = 0;
  bool is_dict = false;
  assert_int_equal(gcol_detail_parquet_decode_column_host(&d->plan, d->values, NULL, d->pos, d->len,
                                                          d->valid, &bad, &is_dict),
                   0);
  free(groups);
  gcol_parquet_metadata_free(md);
}

static void decoded_free(decoded *d) {
  gcol_detail_parquet_plan_free(&d->plan);
  free(d->values);
  free(d->pos);
  free(d->len);
  free(d->valid);
}

/* The bytes of file `path` (malloc'd) into *size. */
static uint8_t *read_whole(const char *path, int64_t *size) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long const n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  uint8_t *bytes = (uint8_t *)malloc((size_t)n + 1);
  assert_non_null(bytes);
  assert_int_equal(fread(bytes, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *size = n;
  return bytes;
}

/* The writer's file of `cols` (with `knobs`, NULL: the public call) against the host
 * encoder's; with knobs, the file written to a path too, the same bytes. */
static void check_knobs(hcol *cols, int32_t num, const gcol_parquet_write_options *options,
                        const gcol_detail_pq_write_knobs *knobs, bool same_bytes) {
  gcol_column_view views[32];
  gcol_detail_pq_host_column hc[32];
  uint8_t *valids[32];
  int64_t *offs[32];
  char names[32][8];
  memset(views, 0, sizeof views);
  for (int32_t k = 0; k < num; ++k) {
    views[k] = cols[k].view;
    snprintf(names[k], sizeof names[k], "c%d", k);
    host_column(&cols[k], names[k], &valids[k], &offs[k], &hc[k]);
  }
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(views, num, &t));
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  if (options != NULL) opt = *options;
  void *mine = NULL;
  int64_t mine_size = 0;
  if (knobs == NULL) {
    GCOL_TEST_OK(gcol_parquet_write_buffer(t, options, &mine, &mine_size, NULL));
  } else {
    GCOL_TEST_OK(gcol_detail_parquet_write(t, options, knobs, NULL, &mine, &mine_size, NULL));
    char path[] = "/tmp/gcol_writer_host_XXXXXX";
    int const fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    GCOL_TEST_OK(gcol_detail_parquet_write(t, options, knobs, path, NULL, NULL, NULL));
    int64_t file_size = 0;
    uint8_t *file = read_whole(path, &file_size);
    remove(path);
    assert_int_equal(file_size, mine_size);
    assert_memory_equal(file, mine, (size_t)mine_size);
    free(file);
  }
  uint8_t *ref = NULL;
  int64_t ref_size = 0;
  int64_t const rows = num > 0 ? views[0].size : 0;
  GCOL_TEST_OK(gcol_detail_parquet_write_host(hc, num, rows, &opt, &ref, &ref_size));
  if (same_bytes) {
    assert_int_equal(mine_size, ref_size);
    assert_memory_equal(mine, ref, (size_t)ref_size);
  }
  gcol_parquet_metadata *ma = NULL, *mb = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(mine, mine_size, &ma));
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(ref, ref_size, &mb));
  assert_int_equal(gcol_parquet_metadata_num_rows(ma), rows);
  assert_int_equal(gcol_parquet_metadata_num_row_groups(ma),
                   gcol_parquet_metadata_num_row_groups(mb));
  for (int32_t g = 0; g < gcol_parquet_metadata_num_row_groups(ma); ++g) {
    for (int32_t k = 0; k < num; ++k) {
      gcol_parquet_statistics x, y;
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(ma, g, k, &x));
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(mb, g, k, &y));
      assert_int_equal(x.codec, y.codec);
      assert_int_equal(x.num_values, y.num_values);
      assert_int_equal(x.null_count, y.null_count);
      assert_int_equal(x.has_min_max, y.has_min_max);
      if (x.has_min_max) {
        assert_int_equal(x.min_size, y.min_size);
        assert_int_equal(x.max_size, y.max_size);
        assert_memory_equal(x.min, y.min, (size_t)x.min_size);
        assert_memory_equal(x.max, y.max, (size_t)x.max_size);
      }
    }
  }
  gcol_parquet_metadata_free(ma);
  gcol_parquet_metadata_free(mb);
  for (int32_t k = 0; k < num && rows > 0; ++k) {
    decoded a, b;
    decode((const uint8_t *)mine, mine_size, k, &a);
    decode(ref, ref_size, k, &b);
    assert_int_equal(a.plan.num_rows, rows);
    assert_int_equal(b.plan.num_rows, rows);
    assert_memory_equal(a.valid, b.valid, (size_t)rows);
    for (int64_t r = 0; r < rows; ++r) {
      if (!a.valid[r]) continue;
      if (views[k].type.id == GCOL_STRING) {
        assert_int_equal(a.len[r], b.len[r]);
        assert_memory_equal(a.plan.bytes + a.pos[r], b.plan.bytes + b.pos[r], (size_t)a.len[r]);
      } else {
        assert_int_equal(a.values[r], b.values[r]);
      }
    }
    decoded_free(&a);
    decoded_free(&b);
  }
  gcol_parquet_buffer_free(mine);
  free(ref);
  for (int32_t k = 0; k < num; ++k) {
    free(valids[k]);
    free(offs[k]);
  }
}

static void check(hcol *cols, int32_t num, const gcol_parquet_write_options *options,
                  bool same_bytes) {
  check_knobs(cols, num, options, NULL, same_bytes);
}

static const int32_t codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD, GCOL_PARQUET_GZIP,
                                 GCOL_PARQUET_LZ4_RAW};
enum { CODECS = sizeof codecs / sizeof codecs[0] };

static const gcol_type_id every[] = {GCOL_INT8,
                                     GCOL_INT16,
                                     GCOL_INT32,
                                     GCOL_INT64,
                                     GCOL_UINT8,
                                     GCOL_UINT16,
                                     GCOL_UINT32,
                                     GCOL_UINT64,
                                     GCOL_FLOAT32,
                                     GCOL_FLOAT64,
                                     GCOL_BOOL8,
                                     GCOL_TIMESTAMP_DAYS,
                                     GCOL_TIMESTAMP_MICROSECONDS,
                                     GCOL_DECIMAL32,
                                     GCOL_STRING};
enum { EVERY = sizeof every / sizeof every[0] };

static void test_every_type_and_validity(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1407);
  int const validity[] = {H_NONE, H_ALL_VALID, H_ALL_NULL, H_SOME};
  for (size_t v = 0; v < sizeof validity / sizeof validity[0]; ++v) {
    hcol cols[EVERY];
    for (int k = 0; k < EVERY; ++k)
      hcol_make(&cols[k], every[k], 1000, validity[v], k * 7 % 40, &rng);
    gcol_parquet_write_options opt;
    gcol_parquet_write_options_init(&opt);
    opt.row_group_rows = 300;
    check(cols, EVERY, &opt, validity[v] != H_SOME);
    check(cols, EVERY, NULL, validity[v] != H_SOME);
    opt.row_group_rows = 3; /* pages of fewer than 8 rows: levels differ, values agree */
    check(cols, EVERY, &opt, validity[v] == H_NONE);
    for (int k = 0; k < EVERY; ++k) hcol_free(&cols[k]);
  }
}

static void test_pages_groups_codecs_empty(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1408);
  hcol cols[4];
  hcol_make(&cols[0], GCOL_INT32, 150001, H_SOME, 5, &rng);
  hcol_make(&cols[1], GCOL_STRING, 150001, H_SOME, 0, &rng);
  hcol_make(&cols[2], GCOL_BOOL8, 150001, H_SOME, 33, &rng);
  hcol_make(&cols[3], GCOL_FLOAT64, 150001, H_NONE, 0, &rng);
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  check(cols, 4, NULL, false);
  opt.row_group_rows = 100000;
  check(cols, 4, &opt, false);
  check(&cols[3], 1, &opt, true);
  for (int i = 0; i < CODECS; ++i) {
    if (!gcol_detail_pq_codec_available(codecs[i])) continue;
    opt.codec = (gcol_parquet_codec)codecs[i];
    check(cols, 4, &opt, false);
    check(&cols[3], 1, &opt, true);
  }
  for (int k = 0; k < 4; ++k) hcol_free(&cols[k]);
  /* no rows; no columns */
  hcol none[2];
  hcol_make(&none[0], GCOL_INT64, 0, H_SOME, 0, &rng);
  hcol_make(&none[1], GCOL_STRING, 0, H_NONE, 0, &rng);
  check(none, 2, NULL, true);
  check(none, 0, NULL, true);
  for (int k = 0; k < 2; ++k) hcol_free(&none[k]);
}

/* A type the writer does not take: refused before any encoding, no buffer. */
static void test_errors(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1409);
  hcol c;
  hcol_make(&c, GCOL_INT32, 10, H_NONE, 0, &rng);
  c.view.type = gcol_data_type_make(GCOL_DURATION_SECONDS);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&c.view, 1, &t));
  void *out = NULL;
  int64_t size = 0;
  GCOL_TEST_STATUS(gcol_parquet_write_buffer(t, NULL, &out, &size, NULL), GCOL_ERROR_UNSUPPORTED);
  assert_null(out);
  hcol_free(&c);
}

/* The compressed path's pieces: slots from one byte (a page a piece) to the whole table, the
 * caller alone or with threads, every codec, into buffers and files. Random values: a piece
 * or page stitched out of place, or read from a slot's stale bytes, changes the bytes. */
static void test_pieces(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1410);
  hcol cols[5];
  hcol_make(&cols[0], GCOL_INT64, 40001, H_NONE, 3, &rng);
  hcol_make(&cols[1], GCOL_STRING, 40001, H_ALL_VALID, 0, &rng);
  hcol_make(&cols[2], GCOL_FLOAT64, 40001, H_NONE, 0, &rng);
  hcol_make(&cols[3], GCOL_INT32, 40001, H_SOME, 7, &rng);
  hcol_make(&cols[4], GCOL_BOOL8, 40001, H_ALL_NULL, 1, &rng);
  int64_t const stages[] = {1, 5000, 30000, 1 << 20};
  int32_t const helpers[] = {-1, 1, 3, 0};
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.row_group_rows = 6000; /* 7 groups of 5 columns: 35 pages */
  for (int c = 0; c < CODECS; ++c) {
    if (!gcol_detail_pq_codec_available(codecs[c])) continue;
    opt.codec = (gcol_parquet_codec)codecs[c];
    for (size_t s = 0; s < sizeof stages / sizeof stages[0]; ++s) {
      gcol_detail_pq_write_knobs const knobs = {stages[s], helpers[s]};
      check_knobs(cols, 3, &opt, &knobs, true);
      check_knobs(&cols[3], 2, &opt, &knobs, false); /* some nulls: levels differ */
    }
    for (size_t h = 0; h < sizeof helpers / sizeof helpers[0]; ++h) {
      gcol_detail_pq_write_knobs const knobs = {1, helpers[h]};
      check_knobs(cols, 3, &opt, &knobs, true);
    }
  }
  for (int k = 0; k < 5; ++k) hcol_free(&cols[k]);
}

/* Tables of no rows, no columns and one row, with every codec, into buffers and files. */
static void test_pieces_small(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1411);
  hcol none[2], one[3];
  hcol_make(&none[0], GCOL_INT64, 0, H_SOME, 0, &rng);
  hcol_make(&none[1], GCOL_STRING, 0, H_NONE, 0, &rng);
  hcol_make(&one[0], GCOL_INT64, 1, H_NONE, 0, &rng);
  hcol_make(&one[1], GCOL_STRING, 1, H_NONE, 2, &rng);
  hcol_make(&one[2], GCOL_FLOAT32, 1, H_ALL_NULL, 0, &rng);
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  for (int c = 0; c < CODECS; ++c) {
    if (!gcol_detail_pq_codec_available(codecs[c])) continue;
    opt.codec = (gcol_parquet_codec)codecs[c];
    for (int32_t h = -1; h <= 1; ++h) {
      gcol_detail_pq_write_knobs const knobs = {1, h};
      check_knobs(none, 2, &opt, &knobs, true);
      check_knobs(none, 0, &opt, &knobs, true);
      check_knobs(one, 2, &opt, &knobs, true);
      check_knobs(one, 3, &opt, &knobs, false); /* levels of a page under 8 rows differ */
    }
  }
  for (int k = 0; k < 2; ++k) hcol_free(&none[k]);
  for (int k = 0; k < 3; ++k) hcol_free(&one[k]);
}

/* Staging refused, or the n-th copy failing (first, middle, last): the status comes back, no
 * buffer, no file left behind. */
static void test_pieces_fail(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1412);
  hcol cols[2];
  hcol_make(&cols[0], GCOL_INT64, 20000, H_NONE, 0, &rng);
  hcol_make(&cols[1], GCOL_STRING, 20000, H_SOME, 0, &rng);
  gcol_column_view views[2] = {cols[0].view, cols[1].view};
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(views, 2, &t));
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.row_group_rows = 2000; /* 20 pieces of one page each with one-byte slots */
  int32_t codec = -1;
  for (int c = 0; c < CODECS && codec < 0; ++c) {
    if (gcol_detail_pq_codec_available(codecs[c])) codec = codecs[c];
  }
  if (codec < 0) skip();
  opt.codec = (gcol_parquet_codec)codec;
  char path[] = "/tmp/gcol_writer_fail_XXXXXX";
  int const fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  for (int32_t h = -1; h <= 2; ++h) {
    gcol_detail_pq_write_knobs const knobs = {1, h};
    void *out = NULL;
    int64_t size = -1;
    fail_stage = true;
    GCOL_TEST_STATUS(gcol_detail_parquet_write(t, &opt, &knobs, NULL, &out, &size, NULL),
                     GCOL_ERROR_OUT_OF_MEMORY);
    assert_null(out);
    GCOL_TEST_STATUS(gcol_detail_parquet_write(t, &opt, &knobs, path, NULL, NULL, NULL),
                     GCOL_ERROR_OUT_OF_MEMORY);
    assert_int_not_equal(access(path, F_OK), 0);
    fail_stage = false;
    int const at[] = {1, 7, 20};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; ++i) {
      fetches = 0;
      fail_fetch = at[i];
      GCOL_TEST_STATUS(gcol_detail_parquet_write(t, &opt, &knobs, NULL, &out, &size, NULL),
                       GCOL_ERROR_CUDA);
      assert_null(out);
      fetches = 0;
      GCOL_TEST_STATUS(gcol_detail_parquet_write(t, &opt, &knobs, path, NULL, NULL, NULL),
                       GCOL_ERROR_CUDA);
      assert_int_not_equal(access(path, F_OK), 0);
    }
    fail_fetch = 0;
    fetches = 0;
    GCOL_TEST_OK(gcol_detail_parquet_write(t, &opt, &knobs, NULL, &out, &size, NULL));
    assert_int_equal(fetches, 20);
    gcol_parquet_buffer_free(out);
  }
  /* a path that cannot be opened: refused before any encoding */
  fetches = 0;
  GCOL_TEST_STATUS(gcol_parquet_write_file(t, &opt, "/nonexistent-dir/x.parquet", NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(fetches, 0);
  for (int k = 0; k < 2; ++k) hcol_free(&cols[k]);
}

/* ---- dictionary encoding ---- */

/* Column c made to repeat: row i takes row (i % distinct)'s value (its validity stays). */
static void hcol_repeat(hcol *c, int64_t distinct) {
  int64_t const all = c->view.offset + c->view.size;
  if (c->view.type.id != GCOL_STRING) {
    size_t const w = gcol_type_size(c->view.type.id);
    uint8_t *data = (uint8_t *)c->data;
    for (int64_t i = distinct; i < all; ++i) memcpy(data + i * w, data + (i % distinct) * w, w);
    return;
  }
  const char *old = (const char *)c->data;
  int32_t *offsets = (int32_t *)malloc((size_t)(all + 1) * 4);
  char *chars = (char *)malloc((size_t)c->offsets[all] + (size_t)all * 9 + 1);
  assert_true(offsets != NULL && chars != NULL);
  int32_t at = 0;
  for (int64_t i = 0; i < all; ++i) {
    int64_t const from = i < distinct ? i : i % distinct;
    int32_t const len = c->offsets[from + 1] - c->offsets[from];
    offsets[i] = at;
    memcpy(chars + at, old + c->offsets[from], (size_t)len);
    at += len;
  }
  offsets[all] = at;
  free(c->data);
  free(c->offsets);
  c->data = chars;
  c->view.data = chars;
  c->offsets = offsets;
  c->child.data = offsets;
}

static const decoded *distinct_strings; /* qsort's comparator reads it */

static int compare_decoded_strings(const void *pa, const void *pb) {
  int64_t const a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  const decoded *d = distinct_strings;
  int64_t const n = d->len[a] < d->len[b] ? d->len[a] : d->len[b];
  int const r = n > 0 ? memcmp(d->plan.bytes + d->pos[a], d->plan.bytes + d->pos[b], (size_t)n) : 0;
  return r != 0 ? r : (d->len[a] < d->len[b] ? -1 : d->len[a] > d->len[b]);
}

static int compare_u64(const void *pa, const void *pb) {
  uint64_t const a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
  return a < b ? -1 : a > b;
}

/* Distinct values by bits among the valid rows [r0, r1) of a decoded column, *bytes their PLAIN
 * bytes (`width` each, 0: strings with their prefixes); returns the valid rows. */
static int64_t count_distinct(const decoded *d, int64_t width, int64_t r0, int64_t r1,
                              int64_t *distinct, int64_t *bytes) {
  uint64_t *keys = (uint64_t *)malloc((size_t)(r1 - r0 + 1) * 8);
  assert_non_null(keys);
  int64_t n = 0;
  for (int64_t r = r0; r < r1; ++r) {
    if (d->valid[r]) keys[n++] = width > 0 ? d->values[r] : (uint64_t)r;
  }
  distinct_strings = d;
  qsort(keys, (size_t)n, 8, width > 0 ? compare_u64 : compare_decoded_strings);
  *distinct = *bytes = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool const fresh = i == 0 || (width > 0 ? compare_u64(&keys[i - 1], &keys[i])
                                            : compare_decoded_strings(&keys[i - 1], &keys[i])) != 0;
    if (!fresh) continue;
    ++*distinct;
    *bytes += width > 0 ? width : 4 + d->len[keys[i]];
  }
  free(keys);
  return n;
}

/* The page header at `offset` of a file. */
static gcol_detail_pq_page_header page_header_at(const uint8_t *file, int64_t size,
                                                 int64_t offset) {
  gcol_detail_pq_page_header h;
  int64_t header_size = 0;
  char error[128];
  assert_true(offset >= 4 && offset < size);
  assert_true(gcol_detail_parquet_parse_page_header(file + offset, size - offset, &h, &header_size,
                                                    error, sizeof error));
  return h;
}

/* Bytes of a PLAIN value of a physical type (0: BYTE_ARRAY, -1: BOOLEAN). */
static int64_t plain_width(int32_t physical) {
  switch (physical) {
    case GCOL_PARQUET_INT32:
    case GCOL_PARQUET_FLOAT:
      return 4;
    case GCOL_PARQUET_BYTE_ARRAY:
      return 0;
    case GCOL_PARQUET_BOOLEAN:
      return -1;
    default:
      return 8;
  }
}

/* Whether the policy dictionary-encodes a chunk (the rule of gcol_parquet_dictionary). */
static bool expect_dictionary(gcol_parquet_dictionary policy, int64_t width, int64_t valid,
                              int64_t distinct, int64_t bytes) {
  if (policy == GCOL_PARQUET_DICTIONARY_OFF || width < 0 || valid == 0) return false;
  if (policy == GCOL_PARQUET_DICTIONARY_ALWAYS) return true;
  return distinct <= valid / 2 && bytes <= (1 << 20);
}

/* The dictionary layout of `file` (written with `policy`) against the values of `ref` (the
 * host encoder's PLAIN file of the same table): per chunk, a dictionary page exactly where the
 * rule says, before the data pages, of the chunk's distinct values, its data pages of
 * RLE_DICTIONARY indices; else PLAIN data pages and no dictionary offset. Returns the
 * dictionary-encoded chunks. */
static int64_t check_dictionary_layout(const uint8_t *file, int64_t size, const uint8_t *ref,
                                       int64_t ref_size, int32_t num,
                                       gcol_parquet_dictionary policy) {
  gcol_parquet_metadata *md = NULL;
  int64_t encoded = 0;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  for (int32_t k = 0; k < num && md->num_rows > 0; ++k) {
    decoded d;
    decode(ref, ref_size, k, &d);
    int64_t r0 = 0;
    for (int32_t g = 0; g < md->num_row_groups; ++g) {
      const gcol_detail_pq_chunk *ch = &md->row_groups[g].chunks[k];
      int64_t const r1 = r0 + md->row_groups[g].num_rows;
      int64_t const width = plain_width(ch->physical_type);
      int64_t distinct = 0, bytes = 0;
      int64_t const valid = width >= 0 ? count_distinct(&d, width, r0, r1, &distinct, &bytes) : 0;
      gcol_detail_pq_page_header const data = page_header_at(file, size, ch->data_page_offset);
      assert_int_equal(data.type, GCOL_DETAIL_PQ_PAGE_DATA);
      if (expect_dictionary(policy, width, valid, distinct, bytes)) {
        assert_true(ch->dictionary_page_offset >= 4 &&
                    ch->dictionary_page_offset < ch->data_page_offset);
        gcol_detail_pq_page_header const dict =
            page_header_at(file, size, ch->dictionary_page_offset);
        assert_int_equal(dict.type, GCOL_DETAIL_PQ_PAGE_DICTIONARY);
        assert_int_equal(dict.encoding, GCOL_DETAIL_PQ_ENC_PLAIN);
        assert_int_equal(dict.num_values, distinct);
        assert_int_equal(dict.uncompressed_size, bytes);
        assert_int_equal(data.encoding, GCOL_DETAIL_PQ_ENC_RLE_DICTIONARY);
        ++encoded;
      } else {
        assert_int_equal(ch->dictionary_page_offset, -1);
        assert_int_equal(data.encoding, GCOL_DETAIL_PQ_ENC_PLAIN);
      }
      r0 = r1;
    }
    decoded_free(&d);
  }
  gcol_parquet_metadata_free(md);
  return encoded;
}

/* check_knobs (values and statistics against the host encoder's PLAIN file; with knobs, the
 * file path too) and the dictionary layout; returns the dictionary-encoded chunks. */
static int64_t check_dictionary(hcol *cols, int32_t num, const gcol_parquet_write_options *options,
                                const gcol_detail_pq_write_knobs *knobs) {
  check_knobs(cols, num, options, knobs, false);
  gcol_column_view views[32];
  gcol_detail_pq_host_column hc[32];
  uint8_t *valids[32];
  int64_t *offs[32];
  char names[32][8];
  for (int32_t k = 0; k < num; ++k) {
    views[k] = cols[k].view;
    snprintf(names[k], sizeof names[k], "c%d", k);
    host_column(&cols[k], names[k], &valids[k], &offs[k], &hc[k]);
  }
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(views, num, &t));
  void *mine = NULL;
  int64_t mine_size = 0;
  uint8_t *ref = NULL;
  int64_t ref_size = 0;
  GCOL_TEST_OK(gcol_parquet_write_buffer(t, options, &mine, &mine_size, NULL));
  GCOL_TEST_OK(gcol_detail_parquet_write_host(hc, num, num > 0 ? views[0].size : 0, options, &ref,
                                              &ref_size));
  int64_t const encoded = check_dictionary_layout((const uint8_t *)mine, mine_size, ref, ref_size,
                                                  num, options->dictionary);
  gcol_parquet_buffer_free(mine);
  free(ref);
  for (int32_t k = 0; k < num; ++k) {
    free(valids[k]);
    free(offs[k]);
  }
  return encoded;
}

/* The indices' packing (one bit-packed run) and the host hybrid encoder (runs and packed
 * groups) decoded by the reader's RLE/bit-packed decoder: every width 0..32, lengths around
 * the 8-value groups and the 63-group runs, random values and runs. */
static void test_index_packing_decodes(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1413);
  int64_t const lengths[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 503, 504, 505, 1000, 4099};
  uint32_t *v = (uint32_t *)malloc(4099 * sizeof *v);
  uint8_t *packed = (uint8_t *)malloc(20000);
  assert_true(v != NULL && packed != NULL);
  for (int bits = 0; bits <= 32; ++bits) {
    uint64_t const mask = bits == 32 ? 0xffffffffu : ((uint64_t)1 << bits) - 1;
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; ++l) {
      for (int seed = 0; seed < 3; ++seed) {
        int64_t const n = lengths[l];
        for (int64_t i = 0; i < n; ++i) { /* seed 0: random; 1, 2: runs of random lengths */
          bool const repeat = seed > 0 && i > 0 && gcol_test_rng_range(&rng, 0, 9) < 8;
          v[i] = repeat ? v[i - 1] : (uint32_t)(gcol_test_rng_next(&rng) & mask);
          if (seed == 2 && i % 100 == 0) v[i] = (uint32_t)mask; /* the largest value */
        }
        int const hs = gcol_detail_pq_dict_indices_header(n, bits, packed);
        int64_t const size = gcol_detail_pq_dict_indices_size(n, bits);
        assert_true(size <= 20000);
        for (int64_t j = 0; j < (n + 7) / 8 * bits; ++j) {
          packed[hs + j] = gcol_detail_pq_bitpack_byte(v, n, bits, j);
        }
        assert_int_equal(packed[0], bits);
        gcol_detail_pq_rle r;
        gcol_detail_pq_rle_init(&r, packed + 1, packed + size, bits);
        for (int64_t i = 0; i < n; ++i) {
          uint32_t got = 0;
          assert_true(gcol_detail_pq_rle_next(&r, &got));
          if (got != v[i])
            fail_msg("width %d, n %lld, value %lld: %u != %u", bits, (long long)n, (long long)i,
                     got, v[i]);
        }
        for (int64_t i = n; i < (n + 7) / 8 * 8; ++i) { /* the padding reads as zeros */
          uint32_t got = 1;
          assert_true(gcol_detail_pq_rle_next(&r, &got));
          assert_int_equal(got, 0);
        }
        gcol_detail_thrift_writer w;
        gcol_detail_thrift_writer_init(&w);
        gcol_detail_parquet_rle_encode(&w, v, n, bits);
        assert_false(w.failed);
        gcol_detail_pq_rle_init(&r, w.data, w.data + w.size, bits);
        for (int64_t i = 0; i < n; ++i) {
          uint32_t got = 0;
          assert_true(gcol_detail_pq_rle_next(&r, &got));
          assert_int_equal(got, v[i]);
        }
        gcol_detail_thrift_writer_free(&w);
      }
    }
  }
  free(v);
  free(packed);
}

/* Every type and validity, groups of 300 and 3 rows, low and high cardinality, both
 * policies: values, statistics and the layout. */
static void test_dictionary_every_type(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1414);
  int const validity[] = {H_NONE, H_ALL_VALID, H_ALL_NULL, H_SOME};
  gcol_parquet_dictionary const policies[] = {GCOL_PARQUET_DICTIONARY_ADAPTIVE,
                                              GCOL_PARQUET_DICTIONARY_ALWAYS};
  int64_t encoded = 0;
  for (size_t v = 0; v < sizeof validity / sizeof validity[0]; ++v) {
    for (int few = 0; few < 2; ++few) {
      hcol cols[EVERY];
      for (int k = 0; k < EVERY; ++k) {
        hcol_make(&cols[k], every[k], 1000, validity[v], k * 7 % 40, &rng);
        if (few) hcol_repeat(&cols[k], 3 + k * 5);
      }
      for (size_t p = 0; p < 2; ++p) {
        gcol_parquet_write_options opt;
        gcol_parquet_write_options_init(&opt);
        opt.dictionary = policies[p];
        opt.row_group_rows = 300;
        encoded += check_dictionary(cols, EVERY, &opt, NULL);
        opt.row_group_rows = 3;
        encoded += check_dictionary(cols, EVERY, &opt, NULL);
      }
      for (int k = 0; k < EVERY; ++k) hcol_free(&cols[k]);
    }
  }
  assert_true(encoded > 0);
}

/* Several pages and groups, sliced columns, every codec, the compressed path's pieces with
 * tiny slots and threads. */
static void test_dictionary_pages_codecs(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1415);
  hcol cols[5];
  hcol_make(&cols[0], GCOL_INT32, 150001, H_SOME, 5, &rng);
  hcol_make(&cols[1], GCOL_STRING, 150001, H_SOME, 3, &rng);
  hcol_make(&cols[2], GCOL_FLOAT64, 150001, H_NONE, 0, &rng);
  hcol_make(&cols[3], GCOL_INT64, 150001, H_ALL_VALID, 1, &rng);
  hcol_make(&cols[4], GCOL_BOOL8, 150001, H_SOME, 0, &rng);
  hcol_repeat(&cols[0], 1000);
  hcol_repeat(&cols[1], 70000); /* distinct in a group of 100000, not in one of 50000 */
  hcol_repeat(&cols[3], 1);
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.dictionary = GCOL_PARQUET_DICTIONARY_ADAPTIVE;
  assert_true(check_dictionary(cols, 5, &opt, NULL) > 0);
  opt.row_group_rows = 100000;
  assert_true(check_dictionary(cols, 5, &opt, NULL) > 0);
  opt.dictionary = GCOL_PARQUET_DICTIONARY_ALWAYS;
  opt.row_group_rows = 50000;
  assert_true(check_dictionary(cols, 5, &opt, NULL) > 0);
  for (int i = 0; i < CODECS; ++i) {
    if (!gcol_detail_pq_codec_available(codecs[i])) continue;
    opt.codec = (gcol_parquet_codec)codecs[i];
    opt.dictionary = (gcol_parquet_dictionary)(1 + i % 2);
    gcol_detail_pq_write_knobs const knobs[] = {{1, -1}, {30000, 2}, {0, 0}};
    for (size_t n = 0; n < sizeof knobs / sizeof knobs[0]; ++n) {
      assert_true(check_dictionary(cols, 5, &opt, &knobs[n]) > 0);
    }
  }
  for (int k = 0; k < 5; ++k) hcol_free(&cols[k]);
}

/* The dictionary page of a chunk (group g, column k) of a file written by `opt`: true when
 * present. */
static bool chunk_has_dictionary(hcol *cols, int32_t num, const gcol_parquet_write_options *opt,
                                 int32_t g, int32_t k) {
  gcol_column_view views[8];
  for (int32_t i = 0; i < num; ++i) views[i] = cols[i].view;
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(views, num, &t));
  void *file = NULL;
  int64_t size = 0;
  GCOL_TEST_OK(gcol_parquet_write_buffer(t, opt, &file, &size, NULL));
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  bool const has = md->row_groups[g].chunks[k].dictionary_page_offset >= 0;
  gcol_parquet_metadata_free(md);
  gcol_parquet_buffer_free(file);
  return has;
}

/* The policy's rule chunk by chunk: ADAPTIVE keeps the chunks whose values repeat (at most
 * half distinct, a dictionary page of at most 1 MiB), ALWAYS every chunk with a value; BOOL8
 * and all-null chunks stay PLAIN; OFF (zeroed options) writes no dictionary. */
static void test_dictionary_policy(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1416);
  hcol cols[4];
  hcol_make(&cols[0], GCOL_INT32, 40, H_NONE, 0, &rng);
  int32_t *ints = (int32_t *)cols[0].data;
  for (int i = 0; i < 40; ++i) { /* group 0: 10 of 20 distinct; group 1: 11 of 20 */
    ints[i] = i < 20 ? i % 10 : 100 + (i - 20) % 11;
  }
  hcol_make(&cols[1], GCOL_BOOL8, 40, H_NONE, 0, &rng);
  hcol_make(&cols[2], GCOL_INT64, 40, H_SOME, 0, &rng);
  for (int i = 0; i < 20; ++i) cols[2].mask[i / 32] &= ~(1u << (i % 32)); /* group 0 all null */
  cols[2].view.null_count = -1;
  hcol_make(&cols[3], GCOL_STRING, 40, H_NONE, 0, &rng);
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.row_group_rows = 20;
  for (int32_t k = 0; k < 4; ++k) assert_false(chunk_has_dictionary(cols, 4, &opt, 0, k));
  opt.dictionary = GCOL_PARQUET_DICTIONARY_ADAPTIVE;
  assert_true(chunk_has_dictionary(cols, 4, &opt, 0, 0));
  assert_false(chunk_has_dictionary(cols, 4, &opt, 1, 0)); /* 11 distinct of 20 */
  assert_false(chunk_has_dictionary(cols, 4, &opt, 0, 1));
  assert_false(chunk_has_dictionary(cols, 4, &opt, 0, 2));
  opt.dictionary = GCOL_PARQUET_DICTIONARY_ALWAYS;
  assert_true(chunk_has_dictionary(cols, 4, &opt, 1, 0));
  assert_false(chunk_has_dictionary(cols, 4, &opt, 0, 1)); /* BOOL8 */
  assert_false(chunk_has_dictionary(cols, 4, &opt, 0, 2)); /* all null */
  assert_true(chunk_has_dictionary(cols, 4, &opt, 1, 2));
  for (int k = 0; k < 4; ++k) hcol_free(&cols[k]);
  /* 80 strings of 30000 bytes, 40 values twice each: half distinct, but a dictionary page
   * over 1 MiB */
  hcol big;
  hcol_make(&big, GCOL_STRING, 80, H_NONE, 0, &rng);
  char *chars = (char *)malloc(80 * 30000);
  assert_non_null(chars);
  for (int i = 0; i <= 80; ++i) big.offsets[i] = i * 30000;
  for (int i = 0; i < 80 * 30000; ++i) chars[i] = (char)(i / 30000 % 40 + i % 7);
  free(big.data);
  big.data = chars;
  big.view.data = chars;
  opt.row_group_rows = 0;
  opt.dictionary = GCOL_PARQUET_DICTIONARY_ADAPTIVE;
  assert_false(chunk_has_dictionary(&big, 1, &opt, 0, 0));
  opt.dictionary = GCOL_PARQUET_DICTIONARY_ALWAYS;
  assert_true(chunk_has_dictionary(&big, 1, &opt, 0, 0));
  hcol_free(&big);
}

/* A policy that does not exist: refused, no buffer. */
static void test_dictionary_option_errors(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1417);
  hcol c;
  hcol_make(&c, GCOL_INT32, 10, H_NONE, 0, &rng);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&c.view, 1, &t));
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.dictionary = (gcol_parquet_dictionary)3;
  void *out = NULL;
  int64_t size = 0;
  GCOL_TEST_STATUS(gcol_parquet_write_buffer(t, &opt, &out, &size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  hcol_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_type_and_validity),
      cmocka_unit_test(test_pages_groups_codecs_empty),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_pieces),
      cmocka_unit_test(test_pieces_small),
      cmocka_unit_test(test_pieces_fail),
      cmocka_unit_test(test_index_packing_decodes),
      cmocka_unit_test(test_dictionary_every_type),
      cmocka_unit_test(test_dictionary_pages_codecs),
      cmocka_unit_test(test_dictionary_policy),
      cmocka_unit_test(test_dictionary_option_errors),
  };
  return GCOL_TEST_RUN("parquet_writer_host", tests);
}
