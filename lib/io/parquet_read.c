/* Parquet reading on the host: page headers, the read plan of each column (its chunks' bytes
 * and a table of pages), a host decode of a plan (tests, fuzzer) and the public read
 * functions, which hand each plan to the GPU decode (kernels/io/parquet_decode.cu). */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/bitmask.h"
#include "gcol/copying.h"
#include "gcol/expression.h"
#include "gcol/filtering.h"
#include "internal/column.h"
#include "internal/error.h"
#include "internal/expression.h"
#include "internal/log.h"
#include "internal/nvtx.h"
#include "internal/parquet.h"
#include "internal/parquet_nested.h"
#include "internal/thrift.h"

/* ---- names for messages ---- */

static const char *encoding_name(int32_t e) {
  static const char *const names[] = {
      "PLAIN",          "GROUP_VAR_INT",       "PLAIN_DICTIONARY",        "RLE",
      "BIT_PACKED",     "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
      "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  return e >= 0 && e < (int32_t)(sizeof names / sizeof names[0]) ? names[e] : "unknown";
}

static const char *physical_name(int32_t t) {
  static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                      "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return t >= 0 && t < (int32_t)(sizeof names / sizeof names[0]) ? names[t] : "unknown";
}

const char *gcol_detail_parquet_page_error(int code) {
  switch (code) {
    case GCOL_DETAIL_PQ_E_OK:
      return "no error";
    case GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED:
      return "the definition levels end before the page's values";
    case GCOL_DETAIL_PQ_E_LEVEL_RANGE:
      return "a definition level exceeds the column's maximum";
    case GCOL_DETAIL_PQ_E_BIT_WIDTH:
      return "the dictionary indices' bit width exceeds 32";
    case GCOL_DETAIL_PQ_E_VALUES_TRUNCATED:
      return "the values end before the page's non-null rows";
    case GCOL_DETAIL_PQ_E_DICT_INDEX:
      return "a dictionary index is past the dictionary";
    case GCOL_DETAIL_PQ_E_DICT_TRUNCATED:
      return "the dictionary page holds fewer values than it announces";
    case GCOL_DETAIL_PQ_E_NO_DICT:
      return "a dictionary-encoded page without a dictionary page";
    case GCOL_DETAIL_PQ_E_DELTA_HEADER:
      return "a DELTA_BINARY_PACKED block header or bit width out of range";
    case GCOL_DETAIL_PQ_E_LEVELS_LENGTH:
      return "the definition levels' length prefix is missing or runs past the page";
    case GCOL_DETAIL_PQ_E_DECOMPRESS:
      return "nvCOMP could not decompress the page on the GPU (corrupt data? options.untrusted "
             "decompresses on the host, which checks its input)";
    case GCOL_DETAIL_PQ_E_DECOMPRESS_SIZE:
      return "the page decompressed on the GPU to another size than its header says";
    case GCOL_DETAIL_PQ_E_REFUSED:
      return "data refused before nvCOMP: not a valid stream of its codec (options.untrusted "
             "decompresses on the host and says where)";
    case GCOL_DETAIL_PQ_E_REFUSED_SIZE:
      return "data refused before nvCOMP: it decompresses to another size than its header says";
    case GCOL_DETAIL_PQ_E_REP_TRUNCATED:
      return "the repetition levels end before the page's values";
    case GCOL_DETAIL_PQ_E_REP_RANGE:
      return "a repetition level exceeds the column's maximum";
    case GCOL_DETAIL_PQ_E_REP_LENGTH:
      return "the repetition levels' length prefix is missing or runs past the page";
    default:
      return "unknown page error";
  }
}

/* ---- page headers ---- */

typedef struct ph_ctx {
  gcol_detail_thrift_reader *r;
  gcol_detail_pq_page_header *h;
} ph_ctx;

static bool ph_i32(gcol_detail_thrift_reader *r, uint8_t t, int32_t *v) {
  return gcol_detail_thrift_i32(r, t, v);
}

/* DataPageHeader (v1), DictionaryPageHeader and DataPageHeaderV2 fields. */
static bool ph_body(gcol_detail_thrift_reader *r, int32_t kind, gcol_detail_pq_page_header *h) {
  if (!gcol_detail_thrift_struct_begin(r)) return false;
  int16_t id = 0;
  uint8_t t = 0;
  while (gcol_detail_thrift_field(r, &id, &t) && t != GCOL_DETAIL_THRIFT_STOP) {
    bool ok = true;
    if (kind == GCOL_DETAIL_PQ_PAGE_DATA) {
      ok = id == 1   ? ph_i32(r, t, &h->num_values)
           : id == 2 ? ph_i32(r, t, &h->encoding)
           : id == 3 ? ph_i32(r, t, &h->def_encoding)
           : id == 4 ? ph_i32(r, t, &h->rep_encoding)
                     : gcol_detail_thrift_skip(r, t);
    } else if (kind == GCOL_DETAIL_PQ_PAGE_DICTIONARY) {
      ok = id == 1   ? ph_i32(r, t, &h->num_values)
           : id == 2 ? ph_i32(r, t, &h->encoding)
                     : gcol_detail_thrift_skip(r, t);
    } else {
      ok = id == 1   ? ph_i32(r, t, &h->num_values)
           : id == 2 ? ph_i32(r, t, &h->num_nulls)
           : id == 3 ? ph_i32(r, t, &h->num_rows)
           : id == 4 ? ph_i32(r, t, &h->encoding)
           : id == 5 ? ph_i32(r, t, &h->def_length)
           : id == 6 ? ph_i32(r, t, &h->rep_length)
           : id == 7 ? gcol_detail_thrift_bool(r, t, false, &h->is_compressed)
                     : gcol_detail_thrift_skip(r, t);
    }
    if (!ok) return false;
  }
  return !r->failed && gcol_detail_thrift_struct_end(r);
}

bool gcol_detail_parquet_parse_page_header(const uint8_t *p, int64_t size,
                                           gcol_detail_pq_page_header *out, int64_t *header_size,
                                           char *error, int error_size) {
  gcol_detail_thrift_reader r;
  memset(out, 0, sizeof *out);
  out->type = -1;
  out->uncompressed_size = -1;
  out->compressed_size = -1;
  out->encoding = -1;
  out->def_encoding = GCOL_DETAIL_PQ_ENC_RLE;
  out->rep_encoding = GCOL_DETAIL_PQ_ENC_RLE;
  out->is_compressed = true;
  gcol_detail_thrift_reader_init(&r, p, size < 0 ? 0 : (size_t)size);
  bool ok = gcol_detail_thrift_struct_begin(&r);
  int16_t id = 0;
  uint8_t t = 0;
  while (ok && gcol_detail_thrift_field(&r, &id, &t) && t != GCOL_DETAIL_THRIFT_STOP) {
    switch (id) {
      case 1:
        ok = ph_i32(&r, t, &out->type);
        break;
      case 2:
        ok = ph_i32(&r, t, &out->uncompressed_size);
        break;
      case 3:
        ok = ph_i32(&r, t, &out->compressed_size);
        break;
      case 5:
      case 7:
      case 8: {
        int32_t const kind = id == 5   ? GCOL_DETAIL_PQ_PAGE_DATA
                             : id == 7 ? GCOL_DETAIL_PQ_PAGE_DICTIONARY
                                       : GCOL_DETAIL_PQ_PAGE_DATA_V2;
        if (t != GCOL_DETAIL_THRIFT_STRUCT) {
          ok = gcol_detail_thrift_fail(&r, "expected a struct");
        } else if (out->type != kind) {
          ok = gcol_detail_thrift_skip(&r, t); /* a header for another page type: ignored */
        } else {
          ok = ph_body(&r, kind, out);
          out->has_body = ok;
        }
        break;
      }
      default:
        ok = gcol_detail_thrift_skip(&r, t);
        break;
    }
  }
  ok = ok && !r.failed && gcol_detail_thrift_struct_end(&r);
  if (!ok) {
    snprintf(error, (size_t)error_size, "invalid page header: %s", r.error);
    return false;
  }
  if (out->type < 0 || out->compressed_size < 0 || out->uncompressed_size < 0) {
    snprintf(error, (size_t)error_size, "page header without a type or sizes");
    return false;
  }
  *header_size = (int64_t)gcol_detail_thrift_consumed(&r);
  return true;
}

/* ---- plan ---- */

void gcol_detail_parquet_plan_free(gcol_detail_pq_column_plan *plan) {
  if (plan == NULL) return;
  free(plan->bytes);
  free(plan->pages);
  free(plan->page_where);
  free(plan->dicts);
  free(plan->dict_where);
  free(plan->segments);
  free(plan->jobs);
  free(plan->covered);
  free(plan->rep_levels);
  free(plan->def_levels);
  free(plan->chunk_first);
  memset(plan, 0, sizeof *plan);
}

/* Grows two arrays of `capacity` entries (`a_elem` and `b_elem` bytes each) to hold `need`. */
static bool grow2(void **a, size_t a_elem, void **b, size_t b_elem, int32_t *capacity,
                  int32_t need) {
  if (need <= *capacity) return true;
  int64_t cap = *capacity < 8 ? 8 : (int64_t)*capacity * 2;
  if (cap < need) cap = need;
  if (cap > INT32_MAX) cap = INT32_MAX;
  void *pa = realloc(*a, (size_t)cap * a_elem);
  if (pa == NULL) return false;
  *a = pa;
  void *pb = realloc(*b, (size_t)cap * b_elem);
  if (pb == NULL) return false; /* *a is larger, *capacity unchanged: still consistent */
  *b = pb;
  *capacity = (int32_t)cap;
  return true;
}

typedef struct plan_ctx {
  const gcol_parquet_metadata *md;
  gcol_detail_pq_column_plan *plan;
  const gcol_parquet_column_info *info;
  int32_t page_cap;
  int32_t dict_cap;
  int64_t bytes_cap;   /* plan->bytes' allocation (plan->owned_bytes are used) */
  int32_t codec;       /* the chunk's */
  const uint8_t *data; /* the file as a host buffer whose chunks are borrowed, or NULL */
  const gcol_detail_pq_window *window; /* else its chunks already read (borrowed), or NULL */
  uint32_t gpu_codecs; /* codecs whose pages nvCOMP decompresses on the GPU */
  const gcol_detail_nvcomp *nvcomp;
  bool raw_borrowed;  /* the chunk being scanned lies in `data` (its pages can be borrowed) */
  const uint8_t *raw; /* the chunk being scanned */
  int64_t raw_at;     /* its plan offset when it was added whole (nvCOMP input), or -1 */
  /* page skipping (kept non-NULL): the kept read rows, the chunk being scanned (its page
   * index) and the read row of its first row */
  const gcol_detail_pq_row_range *kept;
  int64_t num_kept;
  const gcol_detail_pq_chunk *chunk;
  int64_t read_row;
  /* DELTA_BYTE_ARRAY pages of the chunk being scanned, transcoded (levels, then PLAIN values)
   * into `side`, appended to the plan's bytes after the chunk (flush_transcoded) */
  uint8_t *side;
  int64_t side_size;
  int64_t side_cap;
  struct transcoded *pending;
  int32_t num_pending;
  int32_t pending_cap;
  int32_t levels; /* a nested leaf's: LEVELS_* */
} plan_ctx;

/* What planning does with a nested leaf's levels. */
enum {
  LEVELS_NONE = 0, /* a flat column */
  LEVELS_HOST = 1, /* decoded into the plan (plan->has_levels): every page on the host */
  LEVELS_GPU = 2,  /* left in the pages for the GPU decode (plan->levels_on_gpu) */
};

/* A page transcoded into plan_ctx.side: its levels [at, at + levels), then its values up to
 * at + size; `begin` is where the page's bytes were in the byte space. */
typedef struct transcoded {
  int32_t page; /* in plan->pages */
  int64_t begin;
  int64_t at;
  int64_t levels;
  int64_t size;
} transcoded;

#define PAGE_FAIL(code, ...)                                                                 \
  do {                                                                                       \
    char detail_[256];                                                                       \
    snprintf(detail_, sizeof detail_, __VA_ARGS__);                                          \
    return gcol_detail_error((code), __func__, "%s: row group %d, column '%s', page %d: %s", \
                             c->md->name, g, c->info->name, page_no, detail_);               \
  } while (0)

/* Returns GCOL_ERROR_OUT_OF_MEMORY for `bytes` host bytes a page needs, naming it. */
#define PAGE_OUT_OF_MEMORY(bytes)                                                                  \
  do {                                                                                             \
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__,                                   \
                             "%s: row group %d, column '%s', page %d: cannot allocate %lld bytes", \
                             c->md->name, g, c->info->name, page_no, (long long)(bytes));          \
  } while (0)

/* Makes room for `more` bytes after plan->owned_bytes. */
static bool reserve_bytes(plan_ctx *c, int64_t more) {
  gcol_detail_pq_column_plan *plan = c->plan;
  int64_t const need = plan->owned_bytes + more;
  if (need <= c->bytes_cap) return true;
  int64_t cap = c->bytes_cap < 4096 ? 4096 : c->bytes_cap * 2;
  if (cap < need) cap = need;
  uint8_t *p = (uint8_t *)realloc(plan->bytes, (size_t)cap);
  if (p == NULL) return false;
  plan->bytes = p;
  c->bytes_cap = cap;
  return true;
}

/* A new last segment of `size` bytes at the end of the plan's byte space (the caller sets
 * its source), growing the array; NULL when out of host memory. */
static gcol_detail_pq_segment *new_segment(gcol_detail_pq_column_plan *plan, int64_t size) {
  if (plan->num_segments == plan->segment_cap) {
    int32_t const cap = plan->segment_cap < 8 ? 8 : plan->segment_cap * 2;
    void *p = realloc(plan->segments, (size_t)cap * sizeof *plan->segments);
    if (p == NULL) return NULL;
    plan->segments = (gcol_detail_pq_segment *)p;
    plan->segment_cap = cap;
  }
  gcol_detail_pq_segment *seg = &plan->segments[plan->num_segments++];
  seg->begin = plan->num_bytes;
  seg->size = size;
  return seg;
}

/* Appends `size` bytes found at src (or plan->bytes + owned) to the plan's byte space,
 * extending the last segment when both sides continue it. */
static bool add_segment(plan_ctx *c, int64_t size, const uint8_t *src, int64_t owned) {
  gcol_detail_pq_column_plan *plan = c->plan;
  gcol_detail_pq_segment *last =
      plan->num_segments > 0 ? &plan->segments[plan->num_segments - 1] : NULL;
  if (last != NULL && last->begin + last->size == plan->num_bytes &&
      (src != NULL ? last->src != NULL && last->src + last->size == src
                   : last->src == NULL && last->owned >= 0 && last->owned + last->size == owned)) {
    last->size += size;
  } else {
    gcol_detail_pq_segment *seg = new_segment(plan, size);
    if (seg == NULL) return false;
    seg->src = src;
    seg->owned = owned;
  }
  plan->num_bytes += size;
  if (src == NULL) plan->owned_bytes = owned + size;
  return true;
}

/* Appends `size` bytes written on the device (a job's output) to the plan's byte space. */
static bool add_device_segment(plan_ctx *c, int64_t size) {
  gcol_detail_pq_column_plan *plan = c->plan;
  gcol_detail_pq_segment *seg = new_segment(plan, size);
  if (seg == NULL) return false;
  seg->src = NULL;
  seg->owned = -1;
  plan->num_bytes += size;
  return true;
}

/* Leaves a gap in the byte space up to the next multiple of `align` after `ahead` bytes. */
static void align_bytes(plan_ctx *c, int64_t ahead, int64_t align) {
  int64_t const at = c->plan->num_bytes + ahead;
  c->plan->num_bytes = (at + align - 1) / align * align - ahead;
}

/* Copies `size` host bytes into plan->bytes as the next piece of the byte space. */
static bool add_owned(plan_ctx *c, const uint8_t *src, int64_t size) {
  gcol_detail_pq_column_plan *plan = c->plan;
  if (size <= 0) return true;
  if (!reserve_bytes(c, size)) return false;
  memcpy(plan->bytes + plan->owned_bytes, src, (size_t)size);
  return add_segment(c, size, NULL, plan->owned_bytes);
}

/* Leaves the compressed body of page `h` (its levels, for v2, copied as they are) for nvCOMP:
 * the compressed bytes and the page's place both aligned for the codec, and a job. */
static gcol_status place_page_gpu(plan_ctx *c, const gcol_detail_pq_page_header *h,
                                  const uint8_t *src, int64_t levels, int64_t *begin,
                                  int64_t *end) {
  gcol_detail_pq_column_plan *plan = c->plan;
  int64_t const align = c->nvcomp->out_alignment[c->codec];
  int64_t const packed = h->compressed_size - levels;
  int64_t const unpacked = h->uncompressed_size - levels;
  gcol_detail_pq_job job;
  bool ok = true;
  if (plan->num_jobs == plan->job_cap) {
    int32_t const cap = plan->job_cap < 8 ? 8 : plan->job_cap * 2;
    void *p = realloc(plan->jobs, (size_t)cap * sizeof *plan->jobs);
    if (p == NULL) return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
    plan->jobs = (gcol_detail_pq_job *)p;
    plan->job_cap = cap;
  }
  job.src_size = packed;
  if (c->raw_at >= 0) { /* the whole chunk is in the byte space */
    job.src = c->raw_at + (int64_t)(src + levels - c->raw);
  } else {
    align_bytes(c, 0, c->nvcomp->in_alignment[c->codec]);
    job.src = plan->num_bytes;
    ok = c->raw_borrowed ? add_segment(c, packed, src + levels, 0)
                         : add_owned(c, src + levels, packed);
  }
  align_bytes(c, levels, align);
  *begin = plan->num_bytes;
  ok = ok && add_owned(c, src, levels);
  job.dst = plan->num_bytes;
  job.dst_size = unpacked;
  ok = ok && add_device_segment(c, unpacked);
  if (!ok) return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  *end = plan->num_bytes;
  job.codec = c->codec;
  job.where = h->type == GCOL_DETAIL_PQ_PAGE_DICTIONARY ? (int32_t)(plan->num_dicts | INT32_MIN)
                                                        : plan->num_pages;
  plan->jobs[plan->num_jobs++] = job;
  return GCOL_OK;
}

/* Whether data pages of `encoding` are rewritten as PLAIN on the host while planning (their
 * values decompressed there, never by nvCOMP): DELTA_BYTE_ARRAY, and BYTE_STREAM_SPLIT of
 * FIXED_LEN_BYTE_ARRAY values. */
static bool transcoded_on_host(const plan_ctx *c, int32_t encoding) {
  return encoding == GCOL_DETAIL_PQ_ENC_DELTA_BYTE_ARRAY ||
         (encoding == GCOL_DETAIL_PQ_ENC_BYTE_STREAM_SPLIT &&
          c->info->physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
}

/* Places the body of page `h` (its h->compressed_size bytes at src) in plan->bytes and gives
 * its range there: in place at plan offset `in_place` for an UNCOMPRESSED chunk, else
 * decompressed into bytes appended after plan->num_bytes (a v2 data page's levels copied as
 * they are, its values decompressed unless the header says they are not compressed). */
static gcol_status place_page(plan_ctx *c, int32_t g, int32_t page_no,
                              const gcol_detail_pq_page_header *h, const uint8_t *src,
                              int64_t in_place, int64_t *begin, int64_t *end,
                              const uint8_t **host) {
  gcol_detail_pq_column_plan *plan = c->plan;
  char const *const codec = gcol_detail_pq_codec_name(c->codec);
  if (c->codec == GCOL_PARQUET_UNCOMPRESSED) {
    if (h->compressed_size != h->uncompressed_size) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "uncompressed chunk with compressed size %d != uncompressed size %d",
                h->compressed_size, h->uncompressed_size);
    }
    *begin = in_place;
    *end = in_place + h->compressed_size;
    *host = src;
    return GCOL_OK;
  }
  int64_t levels = 0;
  bool compressed = true;
  if (h->type == GCOL_DETAIL_PQ_PAGE_DATA_V2 && h->has_body) {
    levels = (int64_t)h->def_length + h->rep_length;
    if (h->def_length < 0 || h->rep_length < 0 || levels > h->compressed_size ||
        levels > h->uncompressed_size) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "level lengths %d (repetition) + %d (definition) exceed the page's %d bytes (%d "
                "uncompressed)",
                h->rep_length, h->def_length, h->compressed_size, h->uncompressed_size);
    }
    compressed = h->is_compressed;
  }
  if (!compressed && h->compressed_size != h->uncompressed_size) {
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
              "a page marked not compressed with compressed size %d != uncompressed size %d",
              h->compressed_size, h->uncompressed_size);
  }
  int64_t const packed = h->compressed_size - levels;
  int64_t const unpacked = h->uncompressed_size - levels;
  /* pages transcoded on the host are decompressed there */
  bool const host_values =
      (h->type == GCOL_DETAIL_PQ_PAGE_DATA || h->type == GCOL_DETAIL_PQ_PAGE_DATA_V2) &&
      transcoded_on_host(c, h->encoding);
  bool const gpu = compressed && unpacked > 0 && packed > 0 && c->codec >= 0 &&
                   c->codec < GCOL_DETAIL_NVCOMP_CODECS && (c->gpu_codecs >> c->codec & 1u) != 0 &&
                   !host_values;
  if (compressed && unpacked > 0) {
    if (!gpu && !gcol_detail_pq_codec_available(c->codec)) {
      char const *lib = gcol_detail_pq_codec_library(c->codec);
      if (lib == NULL) PAGE_FAIL(GCOL_ERROR_UNSUPPORTED, "codec %s is not supported", codec);
      PAGE_FAIL(GCOL_ERROR_UNSUPPORTED, "%s needs %s, not found", codec, lib);
    }
    int64_t const most = gcol_detail_pq_max_decompressed(c->codec, src + levels, packed);
    if (unpacked > most) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "the header's uncompressed size %d is more than %lld compressed %s bytes can hold "
                "(at most %lld)",
                h->uncompressed_size, (long long)packed, codec, (long long)most);
    }
  }
  if (gpu) {
    /* LZ4_RAW and SNAPPY pages are walked on the GPU before nvCOMP gets them
     * (kernels/io/parquet_decode.cu, run_jobs) */
    *host = NULL; /* its bytes exist on the device only */
    return place_page_gpu(c, h, src, levels, begin, end);
  }
  if (!reserve_bytes(c, h->uncompressed_size)) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__,
                             "%s: row group %d, column '%s', page %d: cannot allocate %d bytes",
                             c->md->name, g, c->info->name, page_no, h->uncompressed_size);
  }
  uint8_t *dst = plan->bytes + plan->owned_bytes;
  if (levels > 0) memcpy(dst, src, (size_t)levels);
  if (!compressed) {
    memcpy(dst + levels, src + levels, (size_t)packed);
  } else if (unpacked > 0 || packed > 0) {
    char error[192];
    int const r = gcol_detail_pq_decompress(c->codec, src + levels, packed, dst + levels, unpacked,
                                            error, (int)sizeof error);
    if (r != GCOL_DETAIL_PQ_CODEC_OK) {
      PAGE_FAIL(r == GCOL_DETAIL_PQ_CODEC_MISSING || r == GCOL_DETAIL_PQ_CODEC_UNSUPPORTED
                    ? GCOL_ERROR_UNSUPPORTED
                    : GCOL_ERROR_INVALID_ARGUMENT,
                "%s", error);
    }
  }
  *begin = plan->num_bytes;
  *end = plan->num_bytes + h->uncompressed_size;
  *host = dst;
  if (!add_segment(c, h->uncompressed_size, NULL, plan->owned_bytes)) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  }
  return GCOL_OK;
}

/* ---- page skipping ---- */

/* Appends read rows [begin, end) to plan->covered, merged with the last range when adjacent. */
static bool add_covered(gcol_detail_pq_column_plan *plan, int64_t begin, int64_t end) {
  if (plan->num_covered > 0 && plan->covered[plan->num_covered - 1].end == begin) {
    plan->covered[plan->num_covered - 1].end = end;
    return true;
  }
  if (plan->num_covered == plan->covered_cap) {
    int64_t const cap = plan->covered_cap < 8 ? 8 : plan->covered_cap * 2;
    void *p = realloc(plan->covered, (size_t)cap * sizeof *plan->covered);
    if (p == NULL) return false;
    plan->covered = (gcol_detail_pq_row_range *)p;
    plan->covered_cap = cap;
  }
  plan->covered[plan->num_covered].begin = begin;
  plan->covered[plan->num_covered].end = end;
  ++plan->num_covered;
  return true;
}

/* With page skipping, whether data page `h` (the chunk's data page number `data_page`, its
 * first row at chunk row `row`) is left out: none of its rows is kept. The chunk's page index
 * must agree with the page first, since the kept rows were judged by it. A page whose header
 * is invalid is not left out: planning it reports the error. */
static gcol_status skip_data_page(plan_ctx *c, int32_t g, int32_t page_no, int32_t data_page,
                                  const gcol_detail_pq_page_header *h, int64_t row,
                                  int64_t chunk_values, bool *skip) {
  *skip = false;
  if (c->kept == NULL || !h->has_body || h->num_values < 0 || h->num_values > chunk_values - row) {
    return GCOL_OK;
  }
  const gcol_detail_pq_chunk *ch = c->chunk;
  if (ch->pages != NULL) {
    if (data_page >= ch->num_pages) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "the page index lists %d data pages, the chunk more",
                ch->num_pages);
    }
    const gcol_detail_pq_index_page *ip = &ch->pages[data_page];
    if (ip->first_row != row || ip->num_rows != h->num_values) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "the page index says rows [%lld, +%lld), the page's header [%lld, +%d)",
                (long long)ip->first_row, (long long)ip->num_rows, (long long)row, h->num_values);
    }
  }
  int64_t const begin = c->read_row + row;
  *skip = !gcol_detail_pq_rows_overlap(c->kept, c->num_kept, begin, begin + h->num_values);
  return GCOL_OK;
}

/* With page skipping, whether the chunk's page index listed as many data pages as it holds. */
static gcol_status check_index_pages(plan_ctx *c, int32_t g, int32_t page_no, int32_t data_pages) {
  if (c->kept == NULL || c->chunk->pages == NULL || c->chunk->num_pages == data_pages) {
    return GCOL_OK;
  }
  PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "the page index lists %d data pages, the chunk %d",
            c->chunk->num_pages, data_pages);
}

/* ---- DELTA_BYTE_ARRAY, transcoded on the host ---- */

/* Why on the host: each value is the previous one's prefix plus a suffix, a chain a GPU decoder
 * would walk serially anyway (as the DELTA decoders do on thread 0), and a page rewritten as
 * PLAIN here needs no new kernel: the page decoders see a PLAIN page. */

/* Non-null values of page `pg` (its levels at `levels`, pg->def_begin in the byte space). */
static gcol_status count_valid(plan_ctx *c, int32_t g, int32_t page_no, const uint8_t *levels,
                               const gcol_detail_pq_page *pg, int64_t *num_valid) {
  int32_t const max_def = c->info->max_definition_level;
  *num_valid = pg->num_rows;
  if (max_def == 0) return GCOL_OK;
  gcol_detail_pq_rle r;
  gcol_detail_pq_rle_init(&r, levels, levels + (pg->def_end - pg->def_begin),
                          gcol_detail_pq_bit_width((uint32_t)max_def));
  int64_t k = 0;
  for (int64_t i = 0; i < pg->num_rows; ++i) {
    uint32_t level;
    int code = GCOL_DETAIL_PQ_E_OK;
    if (!gcol_detail_pq_rle_next(&r, &level)) code = GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED;
    if (code == GCOL_DETAIL_PQ_E_OK && level > (uint32_t)max_def) {
      code = GCOL_DETAIL_PQ_E_LEVEL_RANGE;
    }
    if (code != GCOL_DETAIL_PQ_E_OK) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "%s", gcol_detail_parquet_page_error(code));
    }
    k += level == (uint32_t)max_def;
  }
  *num_valid = k;
  return GCOL_OK;
}

/* The `count` lengths of one of a DELTA_BYTE_ARRAY page's length streams (`what`), a
 * DELTA_BINARY_PACKED stream at [*at, end) of the values `v`, into out; *at moves past it. */
static gcol_status delta_lengths(plan_ctx *c, int32_t g, int32_t page_no, const char *what,
                                 const uint8_t *v, int64_t *at, int64_t end, int64_t count,
                                 uint64_t *out) {
  const uint8_t *p = v + *at;
  uint64_t block = 0, minis = 0, total = 0;
  if (!gcol_detail_pq_uleb(&p, v + end, &block) || !gcol_detail_pq_uleb(&p, v + end, &minis) ||
      !gcol_detail_pq_uleb(&p, v + end, &total)) {
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
              "DELTA_BYTE_ARRAY: the %s lengths' header runs past the page", what);
  }
  if (total != (uint64_t)count) {
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
              "DELTA_BYTE_ARRAY: %llu %s lengths for the page's %lld non-null values",
              (unsigned long long)total, what, (long long)count);
  }
  int const code = gcol_detail_pq_decode_delta(v, *at, end, count, out, at);
  if (code != GCOL_DETAIL_PQ_E_OK) {
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "DELTA_BYTE_ARRAY: the %s lengths: %s", what,
              gcol_detail_parquet_page_error(code));
  }
  return GCOL_OK;
}

/* Checks length `x` of value `i` (a 64-bit word of a DELTA stream of INT32 lengths). */
static gcol_status check_length(plan_ctx *c, int32_t g, int32_t page_no, const char *what,
                                int64_t i, uint64_t x) {
  if ((int64_t)x < 0) {
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
              "DELTA_BYTE_ARRAY: value %lld's %s length is negative (%lld)", (long long)i, what,
              (long long)(int64_t)x);
  }
  if (x > (uint64_t)INT32_MAX) {
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
              "DELTA_BYTE_ARRAY: value %lld's %s length %llu overflows a 32-bit length",
              (long long)i, what, (unsigned long long)x);
  }
  return GCOL_OK;
}

/* Room in c->pending for one more transcoded page. */
static bool reserve_pending(plan_ctx *c) {
  if (c->num_pending < c->pending_cap) return true;
  int32_t const cap = c->pending_cap < 8 ? 8 : c->pending_cap * 2;
  void *p = realloc(c->pending, (size_t)cap * sizeof *c->pending);
  if (p == NULL) return false;
  c->pending = (transcoded *)p;
  c->pending_cap = cap;
  return true;
}

/* Records the page just written at c->side + c->side_size (`levels` bytes of levels, then its
 * values, `size` bytes in all; its own bytes began at plan offset `begin`) as the plan's next
 * page, for flush_transcoded. c->pending has room (reserve_pending). */
static void add_pending(plan_ctx *c, int64_t begin, int64_t levels, int64_t size) {
  transcoded *t = &c->pending[c->num_pending++];
  t->page = c->plan->num_pages;
  t->begin = begin;
  t->at = c->side_size;
  t->levels = levels;
  t->size = size;
  c->side_size += size;
}

static bool reserve_side(plan_ctx *c, int64_t more) {
  int64_t const need = c->side_size + more;
  if (need <= c->side_cap) return true;
  int64_t cap = c->side_cap < 4096 ? 4096 : c->side_cap * 2;
  if (cap < need) cap = need;
  uint8_t *p = (uint8_t *)realloc(c->side, (size_t)cap);
  if (p == NULL) return false;
  c->side = p;
  c->side_cap = cap;
  return true;
}

/* Writes page `pg` (its bytes at `host`, plan offset `begin`, `n` non-null values) into
 * c->side as its levels followed by its values in PLAIN, with `prefix` and `suffix` room for
 * n lengths each, and records it in c->pending. */
static gcol_status transcode_values(plan_ctx *c, int32_t g, int32_t page_no, const uint8_t *host,
                                    int64_t begin, const gcol_detail_pq_page *pg, int64_t n,
                                    uint64_t *prefix, uint64_t *suffix) {
  bool const flba = c->info->physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY;
  const uint8_t *v = host + (pg->values_begin - begin);
  int64_t const size = pg->values_end - pg->values_begin;
  int64_t const levels = pg->values_begin - begin;
  int64_t at = 0;
  if (n > 0 || size > 0) { /* a page of nulls may hold no values at all */
    gcol_status st = delta_lengths(c, g, page_no, "prefix", v, &at, size, n, prefix);
    if (st == GCOL_OK) st = delta_lengths(c, g, page_no, "suffix", v, &at, size, n, suffix);
    if (st != GCOL_OK) return st;
  }
  int64_t const bytes_at = at;
  int64_t prev = 0;
  int64_t left = size - at;
  int64_t out = 0;
  for (int64_t i = 0; i < n; ++i) {
    gcol_status st = check_length(c, g, page_no, "prefix", i, prefix[i]);
    if (st == GCOL_OK) st = check_length(c, g, page_no, "suffix", i, suffix[i]);
    if (st != GCOL_OK) return st;
    int64_t const p = (int64_t)prefix[i];
    int64_t const s = (int64_t)suffix[i];
    if (p > prev) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "DELTA_BYTE_ARRAY: value %lld's prefix of %lld bytes is longer than the previous "
                "value (%lld bytes)",
                (long long)i, (long long)p, (long long)prev);
    }
    if (s > left) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "DELTA_BYTE_ARRAY: value %lld's suffix of %lld bytes runs past the page's end "
                "(%lld bytes left)",
                (long long)i, (long long)s, (long long)left);
    }
    left -= s;
    int64_t const len = p + s;
    if (len > INT32_MAX) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "DELTA_BYTE_ARRAY: value %lld of %lld bytes overflows a 32-bit length",
                (long long)i, (long long)len);
    }
    if (flba && len != c->info->type_length) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "DELTA_BYTE_ARRAY: value %lld of %lld bytes in a FIXED_LEN_BYTE_ARRAY of %d",
                (long long)i, (long long)len, c->info->type_length);
    }
    out += (flba ? 0 : 4) + len;
    if (out > GCOL_DETAIL_PQ_MAX_PAGE_BYTES) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "DELTA_BYTE_ARRAY: the values expand to more than %lld bytes",
                (long long)GCOL_DETAIL_PQ_MAX_PAGE_BYTES);
    }
    prev = len;
  }
  if (!reserve_side(c, levels + out)) {
    PAGE_OUT_OF_MEMORY(levels + out);
  }
  uint8_t *dst = c->side + c->side_size;
  if (levels > 0) memcpy(dst, host, (size_t)levels);
  dst += levels;
  const uint8_t *src = v + bytes_at;
  const uint8_t *last = dst; /* the previous value's bytes */
  for (int64_t i = 0; i < n; ++i) {
    int64_t const p = (int64_t)prefix[i];
    int64_t const s = (int64_t)suffix[i];
    if (!flba) {
      uint32_t const len = (uint32_t)(p + s);
      for (int b = 0; b < 4; ++b) *dst++ = (uint8_t)(len >> (8 * b));
    }
    if (p > 0) memcpy(dst, last, (size_t)p);
    if (s > 0) memcpy(dst + p, src, (size_t)s);
    src += s;
    last = dst;
    dst += p + s;
  }
  add_pending(c, begin, levels, levels + out);
  return GCOL_OK;
}

/* Transcodes DELTA_BYTE_ARRAY data page `pg` (to become plan->pages[plan->num_pages]; its
 * bytes at `host`, plan offset `begin`) into c->side: its levels as they are, then its values
 * in PLAIN. flush_transcoded moves it into the plan after the chunk. */
static gcol_status transcode_page(plan_ctx *c, int32_t g, int32_t page_no, const uint8_t *host,
                                  int64_t begin, const gcol_detail_pq_page *pg) {
  if (host == NULL) { /* place_page keeps these pages on the host */
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "DELTA_BYTE_ARRAY page not on the host");
  }
  int64_t n = 0;
  gcol_status st = count_valid(c, g, page_no, host + (pg->def_begin - begin), pg, &n);
  if (st != GCOL_OK) return st;
  if (!reserve_pending(c)) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  }
  uint64_t *lengths = (uint64_t *)malloc((size_t)(n > 0 ? 2 * n : 1) * sizeof *lengths);
  if (lengths == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__,
                             "%s: row group %d, column '%s', page %d: cannot allocate the lengths "
                             "of %lld values",
                             c->md->name, g, c->info->name, page_no, (long long)n);
  }
  st = transcode_values(c, g, page_no, host, begin, pg, n, lengths, lengths + n);
  free(lengths);
  return st;
}

/* ---- BYTE_STREAM_SPLIT of FIXED_LEN_BYTE_ARRAY, joined on the host ---- */

/* Why on the host: joined, such a page is a PLAIN one, whose values of any length the page
 * decoders and the string and decimal passes read in place; the strided reads stay out of
 * the kernels. Writers use this encoding for these columns only when asked to, so the copy
 * is rare. */

/* Rewrites BYTE_STREAM_SPLIT data page `pg` of a FIXED_LEN_BYTE_ARRAY column (to become
 * plan->pages[plan->num_pages]; its bytes at `host`, plan offset `begin`) into c->side: its
 * levels as they are, then its values joined back into PLAIN (byte b of value i is byte i of
 * stream b, a stream holding one byte of each non-null value). flush_transcoded moves it into
 * the plan after the chunk. */
static gcol_status join_split_page(plan_ctx *c, int32_t g, int32_t page_no, const uint8_t *host,
                                   int64_t begin, const gcol_detail_pq_page *pg) {
  if (host == NULL) { /* place_page keeps these pages on the host */
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "BYTE_STREAM_SPLIT page not on the host");
  }
  int64_t n = 0;
  gcol_status const st = count_valid(c, g, page_no, host + (pg->def_begin - begin), pg, &n);
  if (st != GCOL_OK) return st;
  int64_t const width = c->info->type_length; /* >= 1: the column's type is not EMPTY */
  int64_t const size = pg->values_end - pg->values_begin;
  int64_t const levels = pg->values_begin - begin;
  if (n > size / width) {
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
              "BYTE_STREAM_SPLIT: %lld values of %lld bytes need %lld bytes, the page holds %lld",
              (long long)n, (long long)width, (long long)(n * width), (long long)size);
  }
  if (!reserve_pending(c) || !reserve_side(c, levels + n * width)) {
    PAGE_OUT_OF_MEMORY(levels + n * width);
  }
  uint8_t *dst = c->side + c->side_size;
  if (levels > 0) memcpy(dst, host, (size_t)levels);
  const uint8_t *streams = host + levels;
  for (int64_t i = 0; i < n; ++i) {
    uint8_t *value = dst + levels + i * width;
    for (int64_t b = 0; b < width; ++b) value[b] = streams[b * n + i];
  }
  add_pending(c, begin, levels, levels + n * width);
  return GCOL_OK;
}

/* Appends the pages transcoded while scanning a chunk to the plan's bytes (after the chunk,
 * whose own bytes stay where they are) and points their pages there. */
static bool flush_transcoded(plan_ctx *c) {
  gcol_detail_pq_column_plan *plan = c->plan;
  if (c->num_pending == 0) return true;
  int64_t const base = plan->num_bytes;
  if (!add_owned(c, c->side, c->side_size)) return false;
  for (int32_t i = 0; i < c->num_pending; ++i) {
    transcoded const t = c->pending[i];
    gcol_detail_pq_page *pg = &plan->pages[t.page];
    int64_t const at = base + t.at;
    pg->rep_begin = at + (pg->rep_begin - t.begin);
    pg->rep_end = at + (pg->rep_end - t.begin);
    pg->def_begin = at + (pg->def_begin - t.begin);
    pg->def_end = at + (pg->def_end - t.begin);
    pg->values_begin = at + t.levels;
    pg->values_end = at + t.size;
  }
  c->num_pending = 0;
  c->side_size = 0;
  return true;
}

/* A nested leaf's page `pg` (its bytes at `host`, plan offset `begin`; repetition levels at
 * [rep_begin, rep_end)): its levels decoded into plan->rep_levels / def_levels at the plan's
 * next entries. Why the host: the offsets and null masks of the lists and structs above are
 * built from them on the host (lib/io/parquet_nested.c), and the page is here already. */
static gcol_status decode_page_levels(plan_ctx *c, int32_t g, int32_t page_no,
                                      const uint8_t *host, int64_t begin, int64_t rep_begin,
                                      int64_t rep_end, const gcol_detail_pq_page *pg) {
  gcol_detail_pq_column_plan *plan = c->plan;
  int64_t const need = plan->num_rows + pg->num_rows;
  if (need > plan->levels_cap) {
    int64_t cap = plan->levels_cap > 0 ? plan->levels_cap : 1024;
    while (cap < need) cap *= 2;
    uint8_t *d = (uint8_t *)realloc(plan->def_levels, (size_t)cap);
    if (d == NULL) PAGE_OUT_OF_MEMORY(cap);
    plan->def_levels = d;
    if (c->info->max_repetition_level > 0) {
      uint8_t *r = (uint8_t *)realloc(plan->rep_levels, (size_t)cap);
      if (r == NULL) PAGE_OUT_OF_MEMORY(cap);
      plan->rep_levels = r;
    }
    plan->levels_cap = cap;
  }
  int32_t const max_rep = c->info->max_repetition_level;
  int32_t const max_def = c->info->max_definition_level;
  if (max_rep > 0) {
    int const code = gcol_detail_pqn_decode_levels(host + (rep_begin - begin),
                                                   host + (rep_end - begin), max_rep, pg->num_rows,
                                                   plan->rep_levels + plan->num_rows);
    if (code != GCOL_DETAIL_PQ_E_OK) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "repetition levels: %s",
                code == GCOL_DETAIL_PQ_E_LEVEL_RANGE ? "a level above the max repetition level"
                                                     : "fewer levels than values");
    }
  }
  int const code = gcol_detail_pqn_decode_levels(host + (pg->def_begin - begin),
                                                 host + (pg->def_end - begin), max_def,
                                                 pg->num_rows, plan->def_levels + plan->num_rows);
  if (code != GCOL_DETAIL_PQ_E_OK) {
    PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "definition levels: %s",
              gcol_detail_parquet_page_error(code));
  }
  return GCOL_OK;
}

/* Scans the pages of one chunk whose `size` bytes are at `raw`: plan->bytes + in_place for an
 * UNCOMPRESSED chunk (its pages stay where they are), a scratch buffer otherwise. Each data
 * page planned takes the plan's next rows (plan->num_rows grows); with page skipping, those
 * that hold no kept row are passed over (their bytes neither decompressed nor decoded). */
static gcol_status scan_chunk(plan_ctx *c, int32_t g, const uint8_t *raw, int64_t in_place,
                              int64_t size, int64_t chunk_values) {
  gcol_detail_pq_column_plan *plan = c->plan;
  int32_t const max_def = c->info->max_definition_level;
  int64_t pos = 0;
  int64_t values = 0;
  int32_t page_no = 0;
  int32_t data_pages = 0; /* seen, skipped or not */
  int32_t dict = -1;
  while (values < chunk_values) {
    if (pos >= size) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "the column chunk ends after %lld of its %lld values",
                (long long)values, (long long)chunk_values);
    }
    gcol_detail_pq_page_header h;
    int64_t header_size = 0;
    char error[192];
    if (!gcol_detail_parquet_parse_page_header(raw + pos, size - pos, &h, &header_size, error,
                                               (int)sizeof error)) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "%s (at chunk byte %lld)", error, (long long)pos);
    }
    int64_t const body = pos + header_size;
    if (h.compressed_size > size - body) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                "the page's %d bytes run past its column chunk (%lld bytes left)",
                h.compressed_size, (long long)(size - body));
    }
    bool const data_page =
        h.type == GCOL_DETAIL_PQ_PAGE_DATA || h.type == GCOL_DETAIL_PQ_PAGE_DATA_V2;
    bool skip = false;
    if (data_page) {
      gcol_status const st =
          skip_data_page(c, g, page_no, data_pages, &h, values, chunk_values, &skip);
      if (st != GCOL_OK) return st;
      ++data_pages;
    }
    if (skip) {
      values += h.num_values;
      pos = body + h.compressed_size;
      ++page_no;
      continue;
    }
    int64_t begin = 0;
    int64_t end = 0;
    const uint8_t *host = NULL; /* the page's bytes on the host */
    if (data_page || h.type == GCOL_DETAIL_PQ_PAGE_DICTIONARY) {
      gcol_status const st =
          place_page(c, g, page_no, &h, raw + body, in_place + body, &begin, &end, &host);
      if (st != GCOL_OK) return st;
    }
    if (h.type == GCOL_DETAIL_PQ_PAGE_DICTIONARY) {
      if (!h.has_body || h.num_values < 0) {
        PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "dictionary page without a valid header");
      }
      if (dict >= 0 || values > 0) {
        PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "a dictionary page after the chunk's first page");
      }
      if (h.encoding != GCOL_DETAIL_PQ_ENC_PLAIN &&
          h.encoding != GCOL_DETAIL_PQ_ENC_PLAIN_DICTIONARY) {
        PAGE_FAIL(GCOL_ERROR_UNSUPPORTED, "dictionary page encoding %s is not supported",
                  encoding_name(h.encoding));
      }
      if (!grow2((void **)&plan->dicts, sizeof *plan->dicts, (void **)&plan->dict_where,
                 sizeof *plan->dict_where, &c->dict_cap, plan->num_dicts + 1)) {
        return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
      }
      dict = plan->num_dicts++;
      gcol_detail_pq_dict *d = &plan->dicts[dict];
      d->begin = begin;
      d->end = end;
      d->num_values = h.num_values;
      d->first_entry = plan->num_dict_entries;
      plan->num_dict_entries += h.num_values;
      plan->dict_where[dict].row_group = g;
      plan->dict_where[dict].page = page_no;
    } else if (h.type == GCOL_DETAIL_PQ_PAGE_DATA || h.type == GCOL_DETAIL_PQ_PAGE_DATA_V2) {
      bool const v2 = h.type == GCOL_DETAIL_PQ_PAGE_DATA_V2;
      if (!h.has_body || h.num_values < 0) {
        PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "data page without a valid header");
      }
      if (h.num_values > chunk_values - values) {
        PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                  "the page's %d values exceed the chunk's remaining %lld", h.num_values,
                  (long long)(chunk_values - values));
      }
      gcol_detail_pq_page pg;
      memset(&pg, 0, sizeof pg);
      pg.first_row = plan->num_rows;
      pg.num_rows = h.num_values;
      pg.dict = dict;
      int32_t const max_rep = c->info->max_repetition_level;
      int64_t rep_begin = begin, rep_end = begin; /* repetition levels, nested leaves */
      if (c->levels == LEVELS_HOST && host == NULL) {
        PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "page of a nested column not on the host");
      }
      if (!v2) {
        if (max_rep > 0) {
          if (h.rep_encoding != GCOL_DETAIL_PQ_ENC_RLE) {
            PAGE_FAIL(GCOL_ERROR_UNSUPPORTED, "repetition level encoding %s is not supported",
                      encoding_name(h.rep_encoding));
          }
        }
        if (max_rep > 0 && host == NULL) {
          pg.rep_pending = 1; /* decompressed on the GPU: both lengths are read there */
        } else if (max_rep > 0) {
          if (end - begin < 4) {
            PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "no room for the repetition levels' length");
          }
          const uint8_t *q = host;
          int64_t const n = (int64_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                                      (uint32_t)q[3] << 24);
          if (n > end - begin - 4) {
            PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                      "repetition levels of %lld bytes in a page of %lld bytes", (long long)n,
                      (long long)(end - begin));
          }
          rep_begin = begin + 4;
          rep_end = begin + 4 + n;
        }
        pg.def_begin = pg.def_end = rep_end;
        if (max_def > 0) {
          if (h.def_encoding != GCOL_DETAIL_PQ_ENC_RLE) {
            PAGE_FAIL(GCOL_ERROR_UNSUPPORTED, "definition level encoding %s is not supported",
                      encoding_name(h.def_encoding));
          }
        }
        if (max_def > 0 && host == NULL) {
          pg.def_pending = 1; /* decompressed on the GPU: the length is read there */
        } else if (max_def > 0) {
          if (end - rep_end < 4) {
            PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "no room for the definition levels' length");
          }
          const uint8_t *q = host + (rep_end - begin);
          int64_t const n = (int64_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                                      (uint32_t)q[3] << 24);
          if (n > end - rep_end - 4) {
            PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                      "definition levels of %lld bytes in a page of %lld bytes", (long long)n,
                      (long long)(end - begin));
          }
          pg.def_begin = rep_end + 4;
          pg.def_end = rep_end + 4 + n;
        }
        pg.values_begin = pg.def_end;
      } else {
        if (h.def_length < 0 || h.rep_length < 0 ||
            (int64_t)h.def_length + h.rep_length > end - begin) {
          PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT,
                    "level lengths %d (repetition) + %d (definition) exceed the page's %lld bytes",
                    h.rep_length, h.def_length, (long long)(end - begin));
        }
        if (h.rep_length != 0 && max_rep == 0) {
          PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "repetition levels in a flat column");
        }
        if (max_rep == 0 && h.num_rows != h.num_values) {
          PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "%d rows and %d values in a flat column",
                    h.num_rows, h.num_values);
        }
        if (max_def == 0 && h.def_length != 0) {
          PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "definition levels in a required column");
        }
        rep_begin = begin;
        rep_end = begin + h.rep_length;
        pg.def_begin = begin + h.rep_length;
        pg.def_end = pg.def_begin + h.def_length;
        pg.values_begin = pg.def_end;
      }
      pg.values_end = end;
      pg.rep_begin = rep_begin;
      pg.rep_end = rep_end;
      if (c->levels == LEVELS_HOST) {
        gcol_status const st = decode_page_levels(c, g, page_no, host, begin, rep_begin, rep_end,
                                                  &pg);
        if (st != GCOL_OK) return st;
      }
      int32_t const enc = h.encoding;
      if (enc == GCOL_DETAIL_PQ_ENC_PLAIN) {
        pg.encoding = GCOL_DETAIL_PQ_VALUES_PLAIN;
      } else if (enc == GCOL_DETAIL_PQ_ENC_PLAIN_DICTIONARY ||
                 enc == GCOL_DETAIL_PQ_ENC_RLE_DICTIONARY) {
        if (dict < 0) {
          PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "a %s page in a chunk without a dictionary page",
                    encoding_name(enc));
        }
        pg.encoding = GCOL_DETAIL_PQ_VALUES_DICT;
      } else if (enc == GCOL_DETAIL_PQ_ENC_RLE && c->info->physical_type == GCOL_PARQUET_BOOLEAN) {
        pg.encoding = GCOL_DETAIL_PQ_VALUES_RLE_BOOL;
      } else if (enc == GCOL_DETAIL_PQ_ENC_DELTA_BINARY_PACKED &&
                 (c->info->physical_type == GCOL_PARQUET_INT32 ||
                  c->info->physical_type == GCOL_PARQUET_INT64)) {
        pg.encoding = GCOL_DETAIL_PQ_VALUES_DELTA;
        plan->has_delta = true;
      } else if (enc == GCOL_DETAIL_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY &&
                 c->info->physical_type == GCOL_PARQUET_BYTE_ARRAY) {
        pg.encoding = GCOL_DETAIL_PQ_VALUES_DELTA_LENGTH;
      } else if (enc == GCOL_DETAIL_PQ_ENC_DELTA_BYTE_ARRAY &&
                 (c->info->physical_type == GCOL_PARQUET_BYTE_ARRAY ||
                  c->info->physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY)) {
        gcol_status const st = transcode_page(c, g, page_no, host, begin, &pg);
        if (st != GCOL_OK) return st;
        pg.encoding = GCOL_DETAIL_PQ_VALUES_PLAIN; /* its bytes moved by flush_transcoded */
      } else if (enc == GCOL_DETAIL_PQ_ENC_BYTE_STREAM_SPLIT &&
                 c->info->physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY) {
        gcol_status const st = join_split_page(c, g, page_no, host, begin, &pg);
        if (st != GCOL_OK) return st;
        pg.encoding = GCOL_DETAIL_PQ_VALUES_PLAIN; /* its bytes moved by flush_transcoded */
      } else if (enc == GCOL_DETAIL_PQ_ENC_BYTE_STREAM_SPLIT &&
                 (c->info->physical_type == GCOL_PARQUET_FLOAT ||
                  c->info->physical_type == GCOL_PARQUET_DOUBLE ||
                  c->info->physical_type == GCOL_PARQUET_INT32 ||
                  c->info->physical_type == GCOL_PARQUET_INT64)) {
        pg.encoding = GCOL_DETAIL_PQ_VALUES_SPLIT;
      } else {
        PAGE_FAIL(GCOL_ERROR_UNSUPPORTED, "value encoding %s is not supported yet",
                  encoding_name(enc));
      }
      if (!grow2((void **)&plan->pages, sizeof *plan->pages, (void **)&plan->page_where,
                 sizeof *plan->page_where, &c->page_cap, plan->num_pages + 1)) {
        return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
      }
      plan->page_where[plan->num_pages].row_group = g;
      plan->page_where[plan->num_pages].page = page_no;
      plan->pages[plan->num_pages++] = pg;
      if (c->kept != NULL &&
          !add_covered(plan, c->read_row + values, c->read_row + values + h.num_values)) {
        return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
      }
      plan->num_rows += h.num_values;
      values += h.num_values;
    } else if (h.type != GCOL_DETAIL_PQ_PAGE_INDEX) {
      PAGE_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "unknown page type %d", h.type);
    }
    pos = body + h.compressed_size;
    ++page_no;
  }
  return check_index_pages(c, g, page_no, data_pages);
}

/* The host bytes of file range [start, start + size) the read already holds (the buffer's,
 * or the window's), or NULL. */
static const uint8_t *held_bytes(const plan_ctx *c, int64_t start, int64_t size) {
  if (start < 0 || size < 0 || size > c->md->file_size - start) return NULL;
  if (c->window != NULL) return gcol_detail_pq_window_find(c->window, start, size);
  return c->data != NULL ? c->data + start : NULL;
}

/* Whether an UNCOMPRESSED chunk at [start, start + size) is borrowed from what the read holds. */
static bool borrowed(const plan_ctx *c, const gcol_detail_pq_chunk *ch, int64_t start,
                     int64_t size) {
  return ch->stats.codec == GCOL_PARQUET_UNCOMPRESSED && held_bytes(c, start, size) != NULL;
}

static int64_t chunk_start(const gcol_detail_pq_chunk *ch) {
  return gcol_detail_pq_chunk_start(ch);
}

/* The error of reading leaf `column`, whose type the reader does not produce (EMPTY): the
 * most specific reason, a corrupt schema (a length the format forbids) before an unsupported
 * type. */
static gcol_status refuse_column(const gcol_parquet_metadata *md, int32_t column) {
  const gcol_parquet_column_info *info = &md->leaves[column];
  int32_t const length = info->type_length;
  bool const flba = info->physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY;
  if (flba && length < 1) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                             "%s: column '%s': FIXED_LEN_BYTE_ARRAY of type length %d (the format "
                             "needs at least 1 byte)",
                             md->name, info->name, length);
  }
  if (flba && info->logical_type == GCOL_PARQUET_LOGICAL_FLOAT16 && length != 2) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                             "%s: column '%s': FLOAT16 of type length %d (the format says 2)",
                             md->name, info->name, length);
  }
  if (flba && info->logical_type == GCOL_PARQUET_LOGICAL_UUID && length != 16) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                             "%s: column '%s': UUID of type length %d (the format says 16)",
                             md->name, info->name, length);
  }
  if (flba && md->leaf_converted[column] == GCOL_DETAIL_PQ_CT_INTERVAL) {
    return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__,
                             "%s: column '%s': INTERVAL (FIXED_LEN_BYTE_ARRAY of %d bytes: months, "
                             "days, milliseconds) is not read yet",
                             md->name, info->name, length);
  }
  return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__,
                           "%s: column '%s' of physical type %s (logical type %d) is not read yet",
                           md->name, info->name, physical_name(info->physical_type),
                           (int)info->logical_type);
}

static gcol_status plan_column(const gcol_detail_pq_file *file, const uint8_t *data,
                               const gcol_parquet_metadata *md, int32_t column,
                               const int32_t *row_groups, int32_t num_row_groups,
                               const gcol_detail_pq_row_range *kept, int64_t num_kept,
                               uint32_t gpu_codecs, const gcol_detail_nvcomp *nvcomp,
                               int32_t levels, gcol_detail_pq_column_plan *plan) {
  gcol_status status = GCOL_OK;
  plan_ctx c;
  uint8_t *scratch = NULL; /* a compressed chunk's bytes */
  int64_t scratch_size = 0;
  memset(plan, 0, sizeof *plan);
  memset(&c, 0, sizeof c);
  c.md = md;
  c.plan = plan;
  c.data = data;
  c.window = file->window;
  c.gpu_codecs = nvcomp != NULL ? gpu_codecs : 0;
  c.nvcomp = nvcomp;
  c.info = &md->leaves[column];
  c.kept = kept;
  c.num_kept = num_kept;
  c.levels = levels;
  const gcol_parquet_column_info *info = c.info;
  plan->has_levels = levels == LEVELS_HOST;
  plan->levels_on_gpu = levels == LEVELS_GPU;
  plan->max_rep = c.info->max_repetition_level;
  plan->name = info->name;
  plan->type = info->type;
  plan->physical_type = info->physical_type;
  plan->type_length = info->type_length;
  plan->max_def = info->max_definition_level;
  if (info->type.id == GCOL_EMPTY) {
    status = refuse_column(md, column);
    goto done;
  }
  /* chunk extents (checked against the file by the footer parser) */
  int64_t total = 0;
  for (int32_t i = 0; i < num_row_groups; ++i) {
    int32_t const g = row_groups[i];
    const gcol_detail_pq_chunk *ch = &md->row_groups[g].chunks[column];
    GCOL_DETAIL_CHECK(!ch->has_file_path, GCOL_ERROR_UNSUPPORTED,
                      "%s: row group %d, column '%s': the chunk is in another file", md->name, g,
                      info->name);
    GCOL_DETAIL_CHECK(ch->stats.codec == GCOL_PARQUET_UNCOMPRESSED ||
                          gcol_detail_pq_codec_library(ch->stats.codec) != NULL,
                      GCOL_ERROR_UNSUPPORTED,
                      "%s: row group %d, column '%s': codec %s is not supported (UNCOMPRESSED, "
                      "SNAPPY, GZIP, ZSTD and LZ4_RAW are read)",
                      md->name, g, info->name, gcol_detail_pq_codec_name(ch->stats.codec));
    GCOL_DETAIL_CHECK(info->max_repetition_level > 0 || ch->stats.num_values == md->row_groups[g].num_rows,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: row group %d, column '%s': %lld values in a flat column of a row group "
                      "of %lld rows",
                      md->name, g, info->name, (long long)ch->stats.num_values,
                      (long long)md->row_groups[g].num_rows);
    if (!borrowed(&c, ch, chunk_start(ch), ch->stats.compressed_size)) {
      total += ch->stats.compressed_size;
    }
  }
  GCOL_DETAIL_CHECK(
      levels != LEVELS_NONE || info->max_repetition_level == 0, GCOL_ERROR_UNSUPPORTED,
      "%s: column '%s' lies inside a list (it is read with its list)", md->name, info->name);
  if (levels != LEVELS_NONE) {
    plan->chunk_first =
        (int64_t *)malloc((size_t)(num_row_groups + 1) * sizeof *plan->chunk_first);
    GCOL_DETAIL_CHECK(plan->chunk_first != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    plan->chunk_first[0] = 0;
  }
  /* the file's bytes to start with; compressed chunks grow it page by page */
  GCOL_DETAIL_CHECK(reserve_bytes(&c, total > 0 ? total : 1), GCOL_ERROR_OUT_OF_MEMORY,
                    "%s: cannot allocate %lld host bytes for column '%s'", md->name,
                    (long long)total, info->name);
  for (int32_t i = 0; i < num_row_groups; ++i) {
    int32_t const g = row_groups[i];
    const gcol_detail_pq_chunk *ch = &md->row_groups[g].chunks[column];
    int64_t const start = chunk_start(ch);
    int64_t const size = ch->stats.compressed_size;
    c.codec = ch->stats.codec;
    bool const in_place = c.codec == GCOL_PARQUET_UNCOMPRESSED;
    const uint8_t *const held = held_bytes(&c, start, size); /* read already, or NULL */
    bool const borrow = in_place && held != NULL;
    bool const gpu_chunk =
        c.codec >= 0 && c.codec < GCOL_DETAIL_NVCOMP_CODECS && (c.gpu_codecs >> c.codec & 1u) != 0;
    /* a chunk left for nvCOMP in the caller's buffer: its pages borrowed from there */
    c.raw_borrowed = gpu_chunk && held != NULL;
    const uint8_t *raw = NULL;
    if (borrow || c.raw_borrowed) {
      raw = held; /* read in place, copied to the device from there */
    } else if (in_place) {
      GCOL_DETAIL_CHECK(reserve_bytes(&c, size), GCOL_ERROR_OUT_OF_MEMORY,
                        "%s: cannot allocate %lld host bytes for column '%s'", md->name,
                        (long long)(plan->owned_bytes + size), info->name);
      raw = plan->bytes + plan->owned_bytes;
    } else {
      if (size > scratch_size) {
        free(scratch);
        scratch = (uint8_t *)malloc((size_t)size);
        scratch_size = scratch != NULL ? size : 0;
        GCOL_DETAIL_CHECK(scratch != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                          "%s: cannot allocate %lld host bytes for a chunk of column '%s'",
                          md->name, (long long)size, info->name);
      }
      raw = scratch;
      /* room for the chunk's decompressed pages as the footer says, up to 8 times its file
       * bytes (a hint: pages grow the buffer as they need, each checked on its own) */
      int64_t const hint = gpu_chunk ? size
                           : ch->stats.uncompressed_size < size * 8 + 4096
                               ? ch->stats.uncompressed_size
                               : size * 8 + 4096;
      GCOL_DETAIL_CHECK(reserve_bytes(&c, hint), GCOL_ERROR_OUT_OF_MEMORY,
                        "%s: cannot allocate %lld host bytes for column '%s'", md->name,
                        (long long)(plan->owned_bytes + hint), info->name);
    }
    if (size > 0 && !borrow && !c.raw_borrowed) {
      GCOL_DETAIL_CHECK(file->source.read(file->source.user, start, size, (void *)raw) == 0,
                        GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: row group %d, column '%s': reading bytes [%lld, +%lld) failed",
                        md->name, g, info->name, (long long)start, (long long)size);
    }
    c.raw = raw;
    c.raw_at = -1;
    if (gpu_chunk && c.nvcomp->in_alignment[c.codec] == 1 && size > 0) {
      /* nvCOMP takes its input anywhere: the chunk goes to the device whole, as an
       * uncompressed one does, and the jobs read their pages where they are in it */
      c.raw_at = plan->num_bytes;
      GCOL_DETAIL_CHECK(c.raw_borrowed ? add_segment(&c, size, raw, 0) : add_owned(&c, raw, size),
                        GCOL_ERROR_OUT_OF_MEMORY,
                        "%s: cannot allocate %lld host bytes for column '%s'", md->name,
                        (long long)(plan->owned_bytes + size), info->name);
    }
    int64_t const base = plan->num_bytes;
    c.chunk = ch;
    GCOL_DETAIL_TRY(scan_chunk(&c, g, raw, in_place ? base : -1, size, ch->stats.num_values));
    if (in_place) {
      GCOL_DETAIL_CHECK(add_segment(&c, size, borrow ? raw : NULL, plan->owned_bytes),
                        GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    GCOL_DETAIL_CHECK(flush_transcoded(&c), GCOL_ERROR_OUT_OF_MEMORY,
                      "%s: cannot allocate %lld host bytes for column '%s'", md->name,
                      (long long)(plan->owned_bytes + c.side_size), info->name);
    c.read_row += ch->stats.num_values;
    if (levels != LEVELS_NONE) plan->chunk_first[++plan->num_chunks] = plan->num_rows;
  }
done:
  free(scratch);
  free(c.side);
  free(c.pending);
  if (status != GCOL_OK) gcol_detail_parquet_plan_free(plan);
  return status;
}

gcol_status gcol_detail_parquet_plan_column(const gcol_detail_pq_file *file,
                                            const gcol_parquet_metadata *md, int32_t column,
                                            const int32_t *row_groups, int32_t num_row_groups,
                                            gcol_detail_pq_column_plan *plan) {
  return plan_column(file, NULL, md, column, row_groups, num_row_groups, NULL, 0, 0, NULL,
                     LEVELS_NONE, plan);
}

gcol_status gcol_detail_parquet_plan_column_borrow(
    const gcol_detail_pq_file *file, const uint8_t *data, const gcol_parquet_metadata *md,
    int32_t column, const int32_t *row_groups, int32_t num_row_groups, uint32_t gpu_codecs,
    const gcol_detail_nvcomp *nvcomp, gcol_detail_pq_column_plan *plan) {
  return plan_column(file, data, md, column, row_groups, num_row_groups, NULL, 0, gpu_codecs,
                     nvcomp, LEVELS_NONE, plan);
}

gcol_status gcol_detail_parquet_plan_column_levels(const gcol_detail_pq_file *file,
                                                   const uint8_t *data,
                                                   const gcol_parquet_metadata *md,
                                                   int32_t column, const int32_t *row_groups,
                                                   int32_t num_row_groups,
                                                   gcol_detail_pq_column_plan *plan) {
  return plan_column(file, data, md, column, row_groups, num_row_groups, NULL, 0, 0, NULL,
                     LEVELS_HOST, plan);
}

gcol_status gcol_detail_parquet_plan_column_levels_gpu(
    const gcol_detail_pq_file *file, const uint8_t *data, const gcol_parquet_metadata *md,
    int32_t column, const int32_t *row_groups, int32_t num_row_groups, uint32_t gpu_codecs,
    const gcol_detail_nvcomp *nvcomp, gcol_detail_pq_column_plan *plan) {
  return plan_column(file, data, md, column, row_groups, num_row_groups, NULL, 0, gpu_codecs,
                     nvcomp, LEVELS_GPU, plan);
}

gcol_status gcol_detail_parquet_plan_column_kept(
    const gcol_detail_pq_file *file, const uint8_t *data, const gcol_parquet_metadata *md,
    int32_t column, const int32_t *row_groups, int32_t num_row_groups,
    const gcol_detail_pq_row_range *kept, int64_t num_kept, uint32_t gpu_codecs,
    const gcol_detail_nvcomp *nvcomp, gcol_detail_pq_column_plan *plan) {
  return plan_column(file, data, md, column, row_groups, num_row_groups, kept, num_kept, gpu_codecs,
                     nvcomp, LEVELS_NONE, plan);
}

/* ---- host decode (tests, fuzzer) ---- */

/* Row `row` of a FIXED_LEN_BYTE_ARRAY column from value `k` of the values at `begin`: its
 * string's range (binary, UUID) or its fixed-width value (FLOAT16, DECIMAL). */
static void flba_row(const gcol_detail_pq_column_plan *plan, int64_t begin, int64_t k, int64_t row,
                     uint64_t *values, uint64_t *values_hi, int64_t *string_pos,
                     int64_t *string_len) {
  if (plan->type.id == GCOL_STRING) {
    string_pos[row] = gcol_detail_pq_flba_at(begin, k, plan->type_length);
    string_len[row] = plan->type_length;
    return;
  }
  uint64_t hi = 0;
  gcol_detail_pq_flba_fixed_value(plan->bytes, begin, k, plan->type_length, plan->type.id,
                                  &values[row], &hi);
  if (values_hi != NULL) values_hi[row] = hi;
}

int gcol_detail_parquet_decode_column_host(const gcol_detail_pq_column_plan *plan, uint64_t *values,
                                           uint64_t *values_hi, int64_t *string_pos,
                                           int64_t *string_len, uint8_t *valid, int32_t *bad_page,
                                           bool *bad_is_dict) {
  int code = GCOL_DETAIL_PQ_E_OK;
  int64_t const n = plan->num_rows;
  int64_t const e = plan->num_dict_entries;
  int32_t *slot = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *slot);
  int32_t *index = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *index);
  int64_t *pos = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *pos);
  int32_t *len = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *len);
  int64_t *dpos = (int64_t *)malloc((size_t)(e > 0 ? e : 1) * sizeof *dpos);
  int32_t *dlen = (int32_t *)malloc((size_t)(e > 0 ? e : 1) * sizeof *dlen);
  *bad_page = -1;
  *bad_is_dict = false;
  if (!slot || !index || !pos || !len || !dpos || !dlen) {
    code = -1;
    goto done;
  }
  for (int32_t d = 0; d < plan->num_dicts && code == 0; ++d) {
    gcol_detail_pq_dict const dict = plan->dicts[d];
    code = gcol_detail_pq_decode_dict(plan->bytes, dict, plan->physical_type, plan->type_length,
                                      dpos + dict.first_entry, dlen + dict.first_entry);
    if (code != 0) {
      *bad_page = d;
      *bad_is_dict = true;
    }
  }
  for (int32_t p = 0; p < plan->num_pages && code == 0; ++p) {
    gcol_detail_pq_page const pg = plan->pages[p];
    int64_t nvalid = 0;
    code = gcol_detail_pq_decode_levels(plan->bytes, pg, plan->max_def, valid + pg.first_row,
                                        slot + pg.first_row, &nvalid);
    if (code == 0) {
      int64_t const dict_size = pg.dict >= 0 ? plan->dicts[pg.dict].num_values : 0;
      code = gcol_detail_pq_decode_values(plan->bytes, pg, plan->physical_type, plan->type_length,
                                          nvalid, dict_size, index + pg.first_row,
                                          pos + pg.first_row, len + pg.first_row);
    }
    if (code != 0) {
      *bad_page = p;
      break;
    }
    for (int64_t i = 0; i < pg.num_rows; ++i) {
      int64_t const row = pg.first_row + i;
      values[row] = 0;
      if (values_hi != NULL) values_hi[row] = 0;
      string_pos[row] = 0;
      string_len[row] = 0;
      if (!valid[row]) continue;
      int64_t const k = slot[row];
      if (pg.encoding == GCOL_DETAIL_PQ_VALUES_DELTA_LENGTH) {
        string_pos[row] = pos[pg.first_row + k];
        string_len[row] = len[pg.first_row + k];
      } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_PLAIN) {
        if (plan->physical_type == GCOL_PARQUET_BYTE_ARRAY) {
          string_pos[row] = pos[pg.first_row + k];
          string_len[row] = len[pg.first_row + k];
        } else if (plan->physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY) {
          flba_row(plan, pg.values_begin, k, row, values, values_hi, string_pos, string_len);
        } else {
          values[row] =
              gcol_detail_pq_plain_value(plan->bytes, pg.values_begin, k, plan->physical_type);
        }
      } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_RLE_BOOL) {
        values[row] = (uint64_t)index[pg.first_row + k];
      } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_SPLIT) {
        values[row] = gcol_detail_pq_split_value(plan->bytes, pg.values_begin, k, nvalid,
                                                 plan->physical_type);
      } else if (pg.encoding == GCOL_DETAIL_PQ_VALUES_DELTA) {
        uint64_t const x = (uint64_t)pos[pg.first_row + k];
        values[row] =
            plan->physical_type == GCOL_PARQUET_INT32 ? (uint64_t)(int64_t)(int32_t)(uint32_t)x : x;
      } else {
        gcol_detail_pq_dict const dict = plan->dicts[pg.dict];
        int64_t const entry = index[pg.first_row + k];
        if (plan->physical_type == GCOL_PARQUET_BYTE_ARRAY) {
          string_pos[row] = dpos[dict.first_entry + entry];
          string_len[row] = dlen[dict.first_entry + entry];
        } else if (plan->physical_type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY) {
          flba_row(plan, dict.begin, entry, row, values, values_hi, string_pos, string_len);
        } else {
          values[row] =
              gcol_detail_pq_plain_value(plan->bytes, dict.begin, entry, plan->physical_type);
        }
      }
    }
  }
done:
  free(slot);
  free(index);
  free(pos);
  free(len);
  free(dpos);
  free(dlen);
  return code;
}

/* ---- public read ---- */

void gcol_parquet_read_options_init(gcol_parquet_read_options *options) {
  if (options != NULL) memset(options, 0, sizeof *options);
}

uint32_t gcol_detail_parquet_gpu_codecs(const gcol_parquet_read_options *options,
                                        const gcol_detail_nvcomp *nvcomp) {
  /* nvCOMP's decoders assume valid input (its documentation: a corrupt buffer is undefined
   * behaviour, whatever the codec): a file not trusted goes to the host libraries */
  if (nvcomp == NULL || (options != NULL && options->untrusted)) return 0;
  return nvcomp->codecs;
}

/* ---- the filter ---- */

/* Drops from groups[0, *num_groups) the row groups whose statistics exclude a match. */
static gcol_status prune_groups(const gcol_parquet_metadata *md, const gcol_expression *filter,
                                int32_t root, int32_t *groups, int32_t *num_groups) {
  gcol_status status = GCOL_OK;
  bool *keep = (bool *)malloc((size_t)(md->num_row_groups > 0 ? md->num_row_groups : 1));
  GCOL_DETAIL_CHECK(keep != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(gcol_detail_pq_filter_groups(md, filter, root, keep));
  int32_t kept = 0;
  for (int32_t i = 0; i < *num_groups; ++i) {
    if (keep[groups[i]]) groups[kept++] = groups[i];
  }
  *num_groups = kept;
done:
  free(keep);
  return status;
}

/* Appends to columns[0, *num_read) the leaves the filter reads that are not there yet
 * (columns has room for every leaf more) and gives the filter with its references renumbered
 * to positions in columns (freed with gcol_expression_free()). */
static gcol_status filter_columns(const gcol_parquet_metadata *md, const gcol_expression *filter,
                                  int32_t root, int32_t *columns, int32_t *num_read,
                                  const int32_t *flat_at, int32_t num_selected,
                                  gcol_expression **out) {
  gcol_status status = GCOL_OK;
  size_t const n = (size_t)(md->num_leaves > 0 ? md->num_leaves : 1);
  bool *used = (bool *)calloc(n, sizeof *used);
  int32_t *map = (int32_t *)malloc(n * sizeof *map);
  GCOL_DETAIL_CHECK(used != NULL && map != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(gcol_detail_expr_columns_used(filter, root, used));
  /* table positions: the selections, then the filter's leaves not selected flat */
  int32_t next = num_selected;
  for (int32_t leaf = 0; leaf < md->num_leaves; ++leaf) {
    if (!used[leaf]) continue;
    GCOL_DETAIL_CHECK(md->leaves[leaf].max_repetition_level == 0, GCOL_ERROR_UNSUPPORTED,
                      "%s: the filter references column '%s', inside a list", md->name,
                      md->leaves[leaf].name);
    int32_t at = 0;
    while (at < num_selected && flat_at[at] != leaf) ++at;
    if (at == num_selected) {
      columns[(*num_read)++] = leaf;
      at = next++;
    }
    map[leaf] = at;
  }
  GCOL_DETAIL_TRY(gcol_detail_expr_remap_columns(filter, root, map, out));
done:
  free(used);
  free(map);
  return status;
}

/* The rows of all (the columns read) where the filter is true, of its first `num_columns`
 * columns. */
static gcol_status apply_filter(gcol_table_view all, int32_t num_columns,
                                const gcol_expression *filter, int32_t root, gcol_table **out,
                                gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *mask = NULL;
  gcol_table_view selected;
  GCOL_DETAIL_TRY(gcol_compute_column(all, filter, root, &mask, stream, NULL));
  GCOL_DETAIL_TRY(gcol_table_view_make(all.columns, num_columns, &selected));
  GCOL_DETAIL_TRY(gcol_apply_boolean_mask(selected, gcol_column_get_view(mask), out, stream, mr));
done:
  gcol_column_free(mask);
  return status;
}

/* ---- page skipping under the filter ---- */

static int64_t read_pages; /* gcol_detail_parquet_read_pages (atomic builtins) */

int64_t gcol_detail_parquet_read_pages(void) {
  return __atomic_load_n(&read_pages, __ATOMIC_RELAXED);
}

/* Whether the footer points to an OffsetIndex for a chunk of groups[0, num_groups). */
static bool has_offset_index(const gcol_parquet_metadata *md, const int32_t *groups,
                             int32_t num_groups) {
  for (int32_t i = 0; i < num_groups; ++i) {
    const gcol_detail_pq_row_group *rg = &md->row_groups[groups[i]];
    for (int32_t k = 0; k < rg->num_chunks; ++k) {
      if (rg->chunks[k].offset_index_offset >= 0 && rg->chunks[k].offset_index_length > 0) {
        return true;
      }
    }
  }
  return false;
}

/* The read rows of groups[0, *num_groups) that the filter (over the file's leaves) may keep,
 * by the page index, the groups with none dropped (gcol_detail_pq_kept_rows). *kept is NULL
 * (every page is read) when no chunk has an OffsetIndex, when the index cannot be read (the
 * file then reads as it would without one: the index only ever narrows the pages read), or
 * when every row of the groups left is kept. */
static gcol_status plan_page_skipping(const gcol_detail_pq_file *file, gcol_parquet_metadata *md,
                                      const gcol_expression *filter, int32_t root, int32_t *groups,
                                      int32_t *num_groups, gcol_detail_pq_row_range **kept,
                                      int64_t *num_kept) {
  *kept = NULL;
  *num_kept = 0;
  if (!has_offset_index(md, groups, *num_groups)) return GCOL_OK;
  gcol_status status = gcol_detail_pq_read_page_index(md, file);
  if (status == GCOL_ERROR_OUT_OF_MEMORY) return status;
  if (status != GCOL_OK) {
    GCOL_DETAIL_LOG(GCOL_LOG_WARN, "parquet: %s: page index not used: %s", md->name,
                    gcol_last_error());
    return GCOL_OK;
  }
  status = gcol_detail_pq_kept_rows(md, filter, root, groups, num_groups, kept, num_kept);
  if (status != GCOL_OK) return status;
  int64_t rows = 0;
  for (int32_t i = 0; i < *num_groups; ++i) rows += md->row_groups[groups[i]].num_rows;
  if (*num_kept == 1 && (*kept)[0].begin == 0 && (*kept)[0].end == rows) {
    free(*kept); /* nothing to skip */
    *kept = NULL;
    *num_kept = 0;
  }
  return GCOL_OK;
}

/* A row range read whole (not in batches) decodes only the pages holding its rows: *kept
 * becomes the one range [*local_skip, *local_skip + *take) of the rows of groups[0, n) (the
 * page headers tell each page's rows: no page index is needed), and *local_skip / *take are
 * cleared, the columns then holding exactly the range. Left alone when the range is empty or
 * is every row of the groups (nothing to skip). Why: a few rows of a large row group decoded
 * every page of it, then copied the few rows out. */
static gcol_status plan_range_skipping(const gcol_parquet_metadata *md, const int32_t *groups,
                                       int32_t n, int64_t *local_skip, int64_t *take,
                                       gcol_detail_pq_row_range **kept, int64_t *num_kept) {
  int64_t rows = 0;
  for (int32_t i = 0; i < n; ++i) rows += md->row_groups[groups[i]].num_rows;
  int64_t const begin = *local_skip < rows ? *local_skip : rows;
  int64_t const end = *take > 0 && *take < rows - begin ? begin + *take : rows;
  if (begin >= end || (begin == 0 && end == rows)) return GCOL_OK;
  *kept = (gcol_detail_pq_row_range *)malloc(sizeof **kept);
  if (*kept == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  }
  (*kept)[0].begin = begin;
  (*kept)[0].end = end;
  *num_kept = 1;
  *local_skip = 0;
  *take = -1;
  return GCOL_OK;
}

/* Whether a plan's pages cover exactly the kept rows (its column needs no gather). */
static bool covers_only_kept(const gcol_detail_pq_column_plan *plan,
                             const gcol_detail_pq_row_range *kept, int64_t num_kept) {
  if (plan->num_covered != num_kept) return false;
  for (int64_t i = 0; i < num_kept; ++i) {
    if (plan->covered[i].begin != kept[i].begin || plan->covered[i].end != kept[i].end) {
      return false;
    }
  }
  return true;
}

/* Brings *column, decoded over plan->covered, to the kept rows: its row j becomes the j-th
 * kept row (a gather by a host-built map, or a slice copied when one kept range lies in one
 * run of pages; the decoded column is freed). Pages of different columns end at different
 * rows, so each column covers its own superset of the kept rows. */
static gcol_status gather_kept_rows(const gcol_detail_pq_column_plan *plan,
                                    const gcol_detail_pq_row_range *kept, int64_t num_kept,
                                    const char *file_name, gcol_column **column, gcol_stream stream,
                                    gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *map_column = NULL;
  gcol_column *gathered = NULL;
  int64_t *map = NULL;
  int64_t const rows = gcol_detail_pq_rows_count(kept, num_kept);
  if (num_kept == 1 && plan->num_covered == 1 && plan->covered[0].begin <= kept[0].begin &&
      kept[0].end <= plan->covered[0].end) {
    /* one range inside one run of pages (a row range): a slice, copied; no map to upload */
    gcol_column_view part;
    int64_t const from = kept[0].begin - plan->covered[0].begin;
    GCOL_DETAIL_TRY(gcol_column_view_slice(gcol_column_get_view(*column), from, from + rows, &part));
    GCOL_DETAIL_TRY(gcol_column_copy(part, stream, mr, &gathered));
    gcol_column_free(*column);
    *column = gathered;
    gathered = NULL;
    goto done;
  }
  map = (int64_t *)malloc((size_t)(rows > 0 ? rows : 1) * sizeof *map);
  GCOL_DETAIL_CHECK(map != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_CHECK(gcol_detail_pq_row_map(plan->covered, plan->num_covered, kept, num_kept, map),
                    GCOL_ERROR_INTERNAL, "%s: column '%s': a kept row lies in no page planned",
                    file_name, plan->name);
  GCOL_DETAIL_TRY(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), rows, map, NULL,
                                               stream, NULL, &map_column));
  GCOL_DETAIL_TRY(gcol_column_gather(
      gcol_column_get_view(*column), gcol_column_get_view(map_column),
      GCOL_OUT_OF_BOUNDS_DONT_CHECK, GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &gathered, stream, mr));
  gcol_column_free(*column);
  *column = gathered;
  gathered = NULL;
done:
  free(map);
  gcol_column_free(map_column);
  return status;
}

/* The nested selections of a read (or of a batch): selection k is node sel_node[k] (-1: a flat
 * leaf) over the plans from sel_plan[k], decoded into outputs with their levels. Every nested
 * selection's levels are checked first, then each is assembled into the output of its first
 * plan (its leaves' outputs are taken) with `mr`. */
static gcol_status assemble_nested(const gcol_parquet_metadata *md,
                                   const gcol_detail_pqn_tree *tree, const int32_t *sel_node,
                                   const int32_t *sel_plan, int32_t num_selected,
                                   const gcol_detail_pq_column_plan *plans,
                                   const gcol_detail_pqn_levels *levels, const int32_t *groups,
                                   int32_t num_groups, gcol_column **outputs, gcol_stream stream,
                                   gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  for (int32_t k = 0; k < num_selected; ++k) {
    int32_t const p = sel_plan[k];
    if (sel_node[k] < 0) continue;
    GCOL_DETAIL_TRY(gcol_detail_pqn_check_plans_gpu(md, tree, sel_node[k], plans + p, levels + p,
                                                    groups, num_groups, stream));
  }
  for (int32_t k = 0; k < num_selected; ++k) {
    int32_t const p = sel_plan[k];
    gcol_column *col = NULL;
    if (sel_node[k] < 0) continue;
    GCOL_DETAIL_TRY(gcol_detail_pqn_assemble_gpu(tree, sel_node[k], plans + p, levels + p,
                                                 outputs + p, md->name, stream, mr, &col));
    outputs[p] = col;
  }
done:
  return status;
}

/* ---- batched reads: planning and upload of one batch overlap the decode of another ---- */

static int64_t batch_bytes_override; /* gcol_detail_parquet_set_batch_bytes (atomic builtins) */

void gcol_detail_parquet_set_batch_bytes(int64_t bytes) {
  __atomic_store_n(&batch_bytes_override, bytes > 0 ? bytes : 0, __ATOMIC_RELAXED);
}

/* The target set by a test or the environment, 0 when none is */
static int64_t batch_bytes_set(void) {
  int64_t const set = __atomic_load_n(&batch_bytes_override, __ATOMIC_RELAXED);
  if (set > 0) return set;
  const char *env = getenv("GCOL_PARQUET_BATCH_BYTES");
  if (env != NULL && *env != '\0') {
    char *end = NULL;
    long long const v = strtoll(env, &end, 10);
    if (end != NULL && *end == '\0' && v > 0) return (int64_t)v;
  }
  return 0;
}

int64_t gcol_detail_parquet_batch_bytes(void) {
  int64_t const set = batch_bytes_set();
  return set > 0 ? set : GCOL_DETAIL_PQ_BATCH_BYTES;
}

/* Why batches: a whole read uploads every page before decoding any, so the bus copy (98 ms of
 * the 246 ms of pyarrow's 5.4 GB SNAPPY file on an H200) and the host's planning wait for
 * each other and for the decode. Batches of consecutive row groups of about `target`
 * compressed bytes (those of the columns read) let one batch's planning and upload run while
 * another decodes. A batch is a few hundred MiB so that the fixed costs of a decode (its 2-3
 * synchronizations, launches, the pieces' concatenation) stay small beside its bytes; reads
 * under about two batches' worth are not split (nothing to overlap that pays for them). */
int32_t gcol_detail_parquet_batches(const gcol_parquet_metadata *md, const int32_t *columns,
                                    int32_t num_columns, const int32_t *groups,
                                    int32_t num_groups, int64_t target, int32_t *bounds) {
  int64_t total = 0;
  bounds[0] = 0;
  if (num_groups < 2 || num_columns < 1 || target <= 0) {
    bounds[1] = num_groups;
    return 1;
  }
  for (int32_t i = 0; i < num_groups; ++i) {
    const gcol_detail_pq_row_group *rg = &md->row_groups[groups[i]];
    for (int32_t k = 0; k < num_columns; ++k) total += rg->chunks[columns[k]].stats.compressed_size;
  }
  if (total <= 2 * target) { /* a read the target would leave whole: in sixths */
    int64_t const sixth =
        total / 6 > GCOL_DETAIL_PQ_BATCH_FLOOR ? total / 6 : GCOL_DETAIL_PQ_BATCH_FLOOR;
    if (sixth < target) target = sixth;
  }
  int32_t n = 1;
  if (total > 2 * target) {
    int64_t bytes = 0;
    for (int32_t i = 0; i + 1 < num_groups; ++i) {
      const gcol_detail_pq_row_group *rg = &md->row_groups[groups[i]];
      for (int32_t k = 0; k < num_columns; ++k) {
        bytes += rg->chunks[columns[k]].stats.compressed_size;
      }
      if (bytes >= target) { /* the batch ends after group i */
        bounds[n++] = i + 1;
        bytes = 0;
      }
    }
  }
  bounds[n] = num_groups;
  return n;
}

#define BATCH_MESSAGE_SIZE 1024
/* Four: with two, a worker uploaded its next batch only after decoding its last, and the bus
 * stood idle while both decoded (~65 of 185 ms of pyarrow's SNAPPY file, an H200, session 18);
 * the uploads now go one after another in file order (gcol_detail_pq_upload_order) while up
 * to three batches decode. */
#define BATCH_WORKERS 4

/* What the workers of a batched read share. Read-only but for the atomics and each batch's
 * own slots (its pieces, status and message), which one worker writes before the join. */
typedef struct batch_run {
  const gcol_detail_pq_file *file;
  const uint8_t *data;
  const gcol_parquet_metadata *md;
  const int32_t *columns;
  int32_t num_read;
  /* nested selections: with_levels[i] for plan i (a leaf planned with its levels); selection
   * k as assemble_nested takes it. Each batch assembles its nested columns into the piece of
   * their first plan (the others' pieces stay NULL). */
  const bool *with_levels;
  const gcol_detail_pqn_tree *tree;
  const int32_t *sel_node;
  const int32_t *sel_plan;
  int32_t num_selected;
  const int32_t *groups; /* the groups read */
  const int32_t *bounds; /* batch b: groups[bounds[b], bounds[b + 1]) */
  int32_t num_batches;
  uint32_t gpu_codecs;
  const gcol_detail_nvcomp *nvcomp;
  int device;
  const char *api; /* the public function called, for messages */
  gcol_column **pieces;  /* batch b, column i: pieces[b * num_read + i] */
  cudaEvent_t *uploaded; /* batch b's copies issued (recorded on its stream) */
  int32_t *issued;       /* batch b's event recorded, or never will be (atomic) */
  gcol_status *statuses;
  char *messages; /* BATCH_MESSAGE_SIZE per batch */
  gcol_detail_pq_prefetch *prefetch; /* a path's or a source's windows, or NULL */
  int32_t next;   /* the next batch to take (atomic) */
  int32_t failed; /* the first failing batch so far, or num_batches (atomic) */
} batch_run;

/* Plans every column read over groups from `file` (with its window, when it has one), for a
 * batch or for a whole read: a nested leaf (with_levels[i]) with its levels decoded on the
 * GPU, a flat column with only the pages that hold kept rows (kept NULL: every page). Counts
 * the pages (gcol_detail_parquet_read_pages). */
static gcol_status plan_read(const batch_run *r, const gcol_detail_pq_file *file,
                             const int32_t *groups, int32_t num_groups,
                             const gcol_detail_pq_row_range *kept, int64_t num_kept,
                             gcol_detail_pq_column_plan *plans) {
  for (int32_t i = 0; i < r->num_read; ++i) {
    gcol_status const status = r->with_levels != NULL && r->with_levels[i]
                                   ? gcol_detail_parquet_plan_column_levels_gpu(
                                         file, r->data, r->md, r->columns[i], groups, num_groups,
                                         r->gpu_codecs, r->nvcomp, &plans[i])
                                   : gcol_detail_parquet_plan_column_kept(
                                         file, r->data, r->md, r->columns[i], groups, num_groups,
                                         kept, num_kept, r->gpu_codecs, r->nvcomp, &plans[i]);
    if (status != GCOL_OK) return status;
    __atomic_fetch_add(&read_pages, (int64_t)plans[i].num_pages, __ATOMIC_RELAXED);
  }
  return GCOL_OK;
}

typedef struct batch_worker {
  batch_run *run;
  cudaStream_t stream;
  pthread_t thread;
  bool started;
} batch_worker;

/* Waits until batch b's upload is issued (or will never be): its event can then be waited on. */
static void wait_issued(const batch_run *r, int32_t b) {
  while (__atomic_load_n(&r->issued[b], __ATOMIC_ACQUIRE) == 0) sched_yield();
}

/* Plans and decodes batch b into its pieces on `stream` (the default resource: the pieces
 * are temporaries), its upload after batch b - 1's; nested selections assembled. */
static gcol_status decode_batch(const batch_run *r, int32_t b, cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  int32_t const n = r->num_read;
  const int32_t *groups = r->groups + r->bounds[b];
  int32_t const num_groups = r->bounds[b + 1] - r->bounds[b];
  gcol_column **pieces = r->pieces + (size_t)b * (size_t)n;
  gcol_detail_pq_upload_order const order = {b > 0 ? (void *)r->uploaded[b - 1] : NULL,
                                             (void *)r->uploaded[b], &r->issued[b]};
  gcol_detail_pq_column_plan *plans =
      (gcol_detail_pq_column_plan *)calloc((size_t)(n > 0 ? n : 1), sizeof *plans);
  gcol_buffer **levels = (gcol_buffer **)calloc((size_t)(2 * n + 2), sizeof *levels);
  gcol_detail_pqn_levels *level_ptrs =
      (gcol_detail_pqn_levels *)calloc((size_t)(n + 1), sizeof *level_ptrs);
  gcol_detail_pq_file file = *r->file; /* with this batch's window, when it has one */
  gcol_detail_pq_window window;
  memset(&window, 0, sizeof window);
  GCOL_DETAIL_CHECK(plans != NULL && levels != NULL && level_ptrs != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "out of memory");
  GCOL_DETAIL_CUDA_TRY(cudaSetDevice(r->device)); /* the current device is per thread */
  if (r->prefetch != NULL) { /* a path's or a source's chunks, read ahead in file order */
    gcol_detail_pq_prefetch_take(r->prefetch, b, &window);
  } else if (r->data == NULL) { /* read into staging memory here */
    gcol_detail_pq_window_load(&file, r->md, r->columns, n, groups, num_groups,
                               gcol_detail_pq_window_readers(BATCH_WORKERS), (gcol_stream)stream,
                               &window);
  }
  if (window.bytes != NULL) file.window = &window;
  GCOL_DETAIL_TRY(plan_read(r, &file, groups, num_groups, NULL, 0, plans));
  if (b > 0) wait_issued(r, b - 1);
  GCOL_DETAIL_TRY(gcol_detail_parquet_decode_columns_ordered(
      plans, n, window.bytes != NULL ? window.bytes : r->data, r->md->name, (gcol_stream)stream,
      NULL, pieces, &order, levels));
  gcol_detail_pqn_levels_of(levels, n, level_ptrs);
  GCOL_DETAIL_TRY(assemble_nested(r->md, r->tree, r->sel_node, r->sel_plan, r->num_selected, plans,
                                  level_ptrs, groups, num_groups, pieces, (gcol_stream)stream,
                                  NULL));
done:
  __atomic_store_n(&r->issued[b], 1, __ATOMIC_RELEASE); /* failed before its upload: none */
  if (r->prefetch != NULL) {
    gcol_detail_pq_prefetch_release(r->prefetch, &window, (gcol_stream)stream);
  } else {
    gcol_detail_pq_window_free(&window, (gcol_stream)stream);
  }
  if (plans != NULL) {
    for (int32_t i = 0; i < n; ++i) gcol_detail_parquet_plan_free(&plans[i]);
  }
  for (int32_t i = 0; levels != NULL && i < 2 * n; ++i) gcol_buffer_free(levels[i]);
  free(levels);
  free(level_ptrs);
  free(plans);
  return status;
}

/* Takes batches in file order until none is left or an earlier one has failed (a later
 * batch's error is never reported: the first failing batch in file order wins). */
static void *batch_worker_main(void *arg) {
  batch_worker *w = (batch_worker *)arg;
  batch_run *r = w->run;
  /* this thread's share of the call: its messages name the public function, and the spill
   * pins its operations take are released when it leaves */
  GCOL_DETAIL_NVTX_PUSH(r->api);
  for (;;) {
    int32_t const b = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
    if (b >= r->num_batches) break;
    if (b > __atomic_load_n(&r->failed, __ATOMIC_RELAXED)) { /* a later batch waits on none */
      __atomic_store_n(&r->issued[b], 1, __ATOMIC_RELEASE);
      break;
    }
    gcol_clear_last_error();
    gcol_status const status = decode_batch(r, b, w->stream);
    if (status == GCOL_OK) continue;
    r->statuses[b] = status;
    snprintf(r->messages + (size_t)b * BATCH_MESSAGE_SIZE, BATCH_MESSAGE_SIZE, "%s",
             gcol_last_error());
    int32_t seen = __atomic_load_n(&r->failed, __ATOMIC_RELAXED);
    while (b < seen && !__atomic_compare_exchange_n(&r->failed, &seen, b, false,
                                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
  }
  GCOL_DETAIL_NVTX_POP();
  return NULL;
}

/* Makes `waiter` wait for the work submitted to `signaler` so far. */
static gcol_status stream_after(cudaStream_t waiter, cudaStream_t signaler, cudaEvent_t event) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(cudaEventRecord(event, signaler));
  GCOL_DETAIL_CUDA_TRY(cudaStreamWaitEvent(waiter, event, 0));
done:
  return status;
}

/* Serializes a file's reads: the workers plan at the same time, and a FILE* or a user's
 * callback is not known to take two reads at once. */
typedef struct locked_source {
  gcol_parquet_source inner;
  pthread_mutex_t lock;
} locked_source;

static int locked_read(void *user, int64_t offset, int64_t length, void *dst) {
  locked_source *l = (locked_source *)user;
  pthread_mutex_lock(&l->lock);
  int const rc = l->inner.read(l->inner.user, offset, length, dst);
  pthread_mutex_unlock(&l->lock);
  return rc;
}

/* Concatenates column i's pieces into outputs[i] on `stream` with `mr`; a column whose pieces
 * have null masks keeps one even without nulls, as the whole read's does (gcol_concatenate
 * leaves it out). The pieces are the decoder's, whole, so nothing is read back and nothing
 * synchronizes: the outputs are allocated while the last batch still decodes. Through
 * gcol_concatenate, the read of the string offsets waited for the GPU to finish, and only
 * then was the 2.68 GB of chars of pyarrow's SNAPPY file allocated (5.1 ms, the pool mapping
 * new memory; session 22's trace, an H200). */
static gcol_status concatenate_pieces(gcol_column **pieces, int32_t num_pieces, gcol_column **out,
                                      cudaStream_t stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  GCOL_DETAIL_TRY(gcol_detail_concatenate_owned(pieces, num_pieces, (gcol_stream)stream, mr, out));
  if (pieces[0]->null_mask != NULL && (*out)->null_mask == NULL) {
    GCOL_DETAIL_TRY(
        gcol_bitmask_create((*out)->size, GCOL_MASK_ALL_VALID, (gcol_stream)stream, mr, &mask));
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(*out, mask, 0));
    mask = NULL;
  }
done:
  gcol_buffer_free(mask);
  if (status != GCOL_OK) {
    gcol_column_free(*out);
    *out = NULL;
  }
  return status;
}

/* Reads columns[0, num_read) of groups[bounds[0], bounds[num_batches]) in batches into
 * outputs (as gcol_detail_parquet_decode_columns would give for the whole range), the
 * calling thread one worker and threads it starts the others, each on its own stream ordered
 * after `stream`; `stream` waits for all of them at the end. On failure, the first failing
 * batch's status and message. */
static gcol_status read_batches(batch_run *run, gcol_column **outputs, cudaStream_t stream,
                                gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  batch_worker workers[BATCH_WORKERS];
  cudaEvent_t event = NULL;
  locked_source locked;
  gcol_detail_pq_file file;
  bool lock_made = false;
  gcol_column **column_pieces = NULL;
  int32_t const B = run->num_batches, C = run->num_read;
  memset(workers, 0, sizeof workers);
  run->pieces = (gcol_column **)calloc((size_t)B * (size_t)C, sizeof *run->pieces);
  run->statuses = (gcol_status *)calloc((size_t)B, sizeof *run->statuses);
  run->messages = (char *)calloc((size_t)B, BATCH_MESSAGE_SIZE);
  run->uploaded = (cudaEvent_t *)calloc((size_t)B, sizeof *run->uploaded);
  run->issued = (int32_t *)calloc((size_t)B, sizeof *run->issued);
  column_pieces = (gcol_column **)malloc((size_t)B * sizeof *column_pieces);
  GCOL_DETAIL_CHECK(run->pieces != NULL && run->statuses != NULL && run->messages != NULL &&
                        run->uploaded != NULL && run->issued != NULL && column_pieces != NULL,
                    GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t b = 0; b < B; ++b) {
    GCOL_DETAIL_CUDA_TRY(cudaEventCreateWithFlags(&run->uploaded[b], cudaEventDisableTiming));
  }
  run->next = 0;
  run->failed = B;
  run->api = gcol_detail_api_name() != NULL ? gcol_detail_api_name() : "gcol_parquet_read";
  GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&run->device));
  if (run->data == NULL && !run->file->concurrent) { /* a buffer's or a path's: no lock */
    GCOL_DETAIL_CHECK(pthread_mutex_init(&locked.lock, NULL) == 0, GCOL_ERROR_INTERNAL,
                      "pthread_mutex_init failed");
    lock_made = true;
    locked.inner = run->file->source;
    file = *run->file;
    file.source.read = locked_read;
    file.source.user = &locked;
    run->file = &file;
  }
  GCOL_DETAIL_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  for (int32_t w = 0; w < BATCH_WORKERS; ++w) {
    workers[w].run = run;
    GCOL_DETAIL_CUDA_TRY(cudaStreamCreateWithFlags(&workers[w].stream, cudaStreamNonBlocking));
    GCOL_DETAIL_TRY(stream_after(workers[w].stream, stream, event));
  }
  if (run->data == NULL) {
    run->prefetch = gcol_detail_pq_prefetch_start(run->file, run->md, run->columns, C, run->groups,
                                                  run->bounds, B, BATCH_WORKERS, &run->failed,
                                                  run->device, (gcol_stream)stream);
  }
  /* worker 0 is this thread; without a second thread this one takes every batch */
  for (int32_t w = 1; w < BATCH_WORKERS; ++w) {
    workers[w].started =
        pthread_create(&workers[w].thread, NULL, batch_worker_main, &workers[w]) == 0;
  }
  (void)batch_worker_main(&workers[0]);
  for (int32_t w = 1; w < BATCH_WORKERS; ++w) {
    if (workers[w].started) pthread_join(workers[w].thread, NULL);
    workers[w].started = false;
  }
  gcol_detail_pq_prefetch_finish(run->prefetch);
  run->prefetch = NULL;
  if (run->failed < B) {
    status = run->statuses[run->failed];
    gcol_detail_set_last_error(run->messages + (size_t)run->failed * BATCH_MESSAGE_SIZE);
    goto done;
  }
  for (int32_t w = 0; w < BATCH_WORKERS; ++w) {
    GCOL_DETAIL_TRY(stream_after(stream, workers[w].stream, event));
  }
  for (int32_t i = 0; i < C; ++i) {
    if (run->pieces[i] == NULL) continue; /* a nested column's leaf: assembled into another */
    for (int32_t b = 0; b < B; ++b) column_pieces[b] = run->pieces[(size_t)b * (size_t)C + i];
    GCOL_DETAIL_TRY(concatenate_pieces(column_pieces, B, &outputs[i], stream, mr));
    /* column i's pieces go now (peak memory: the pieces and one column more), freed on the
     * streams they were made on, after the concatenation read them */
    for (int32_t w = 0; w < BATCH_WORKERS; ++w) {
      GCOL_DETAIL_TRY(stream_after(workers[w].stream, stream, event));
    }
    for (int32_t b = 0; b < B; ++b) {
      gcol_column_free(run->pieces[(size_t)b * (size_t)C + i]);
      run->pieces[(size_t)b * (size_t)C + i] = NULL;
    }
  }
done:
  gcol_detail_pq_prefetch_finish(run->prefetch);
  run->prefetch = NULL;
  if (run->pieces != NULL) {
    /* pieces left (a failure): after what may still read them on `stream` */
    for (int32_t w = 0; w < BATCH_WORKERS && event != NULL; ++w) {
      if (workers[w].stream != NULL) (void)stream_after(workers[w].stream, stream, event);
    }
    for (size_t k = 0; k < (size_t)B * (size_t)C; ++k) gcol_column_free(run->pieces[k]);
  }
  for (int32_t w = 0; w < BATCH_WORKERS; ++w) {
    if (workers[w].stream == NULL) continue;
    /* `stream` waits for everything of the read, frees included */
    if (event != NULL) (void)stream_after(stream, workers[w].stream, event);
    (void)cudaStreamDestroy(workers[w].stream);
  }
  if (event != NULL) (void)cudaEventDestroy(event);
  if (lock_made) pthread_mutex_destroy(&locked.lock);
  if (status != GCOL_OK) {
    for (int32_t i = 0; i < C; ++i) {
      gcol_column_free(outputs[i]);
      outputs[i] = NULL;
    }
  }
  for (int32_t b = 0; run->uploaded != NULL && b < B; ++b) {
    if (run->uploaded[b] != NULL) (void)cudaEventDestroy(run->uploaded[b]);
  }
  free(run->pieces);
  free(run->statuses);
  free(run->messages);
  free(run->uploaded);
  free(run->issued);
  free(column_pieces);
  run->pieces = NULL;
  run->statuses = NULL;
  run->messages = NULL;
  run->uploaded = NULL;
  run->issued = NULL;
  return status;
}

static gcol_status check_read_options(const gcol_parquet_read_options *opt) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(opt->num_columns >= 0 && opt->num_column_names >= 0 && opt->num_row_groups >= 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "options hold a negative count");
  GCOL_DETAIL_CHECK(opt->skip_rows >= 0 && opt->num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "options->skip_rows (%lld) or num_rows (%lld) is negative",
                    (long long)opt->skip_rows, (long long)opt->num_rows);
  GCOL_DETAIL_CHECK(opt->columns != NULL || opt->num_columns == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "options->columns is NULL with num_columns %d", opt->num_columns);
  GCOL_DETAIL_CHECK(opt->column_names != NULL || opt->num_column_names == 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "options->column_names is NULL with %d names",
                    opt->num_column_names);
  GCOL_DETAIL_CHECK(opt->row_groups != NULL || opt->num_row_groups == 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "options->row_groups is NULL with %d groups",
                    opt->num_row_groups);
  GCOL_DETAIL_CHECK(opt->filter == NULL || (opt->skip_rows == 0 && opt->num_rows == 0),
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "options->filter cannot be combined with skip_rows or num_rows");
done:
  return status;
}

/* What a read decodes. Selection i: sel_node[i] a nested column's tree node, or -1 for the
 * flat leaf flat_at[i]; sel_plan[i] its first plan. The plans: the leaves columns[0, num_read),
 * the selections' first (num_selected_plans, with_levels[k] for a nested column's leaf), then
 * the filter's; room for `capacity` of them. */
typedef struct read_columns {
  gcol_detail_pqn_tree tree;
  int32_t num_columns;
  int32_t *sel_node;
  int32_t *flat_at;
  int32_t *sel_plan;
  bool nested; /* some selection is */
  int32_t *columns;
  bool *with_levels; /* false past the selections' plans */
  int32_t num_read;
  int32_t num_selected_plans;
  int32_t capacity;
} read_columns;

static void read_columns_free(read_columns *rc) {
  free(rc->sel_node);
  free(rc->flat_at);
  free(rc->sel_plan);
  free(rc->columns);
  free(rc->with_levels);
  gcol_detail_pqn_free(&rc->tree);
}

/* Selection i's tree node: an index is a leaf (its top-level column whole where it lies inside
 * a list); a name a schema path (not inside a list); by default the i-th top-level field. */
static gcol_status selected_node(const gcol_parquet_metadata *md, const gcol_detail_pqn_tree *tree,
                                 const gcol_parquet_read_options *opt, int32_t i, int32_t *node) {
  gcol_status status = GCOL_OK;
  if (opt->columns != NULL) {
    int32_t const leaf = opt->columns[i];
    GCOL_DETAIL_CHECK(leaf >= 0 && leaf < md->num_leaves, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: options->columns[%d] is %d, outside the file's %d columns", md->name, i,
                      leaf, md->num_leaves);
    *node = tree->leaf_node[leaf];
    if (gcol_detail_pqn_in_list(tree, *node)) *node = gcol_detail_pqn_root_of_leaf(tree, leaf);
  } else if (opt->column_names != NULL) {
    GCOL_DETAIL_CHECK(opt->column_names[i] != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "options->column_names[%d] is NULL", i);
    *node = gcol_detail_pqn_find(md, tree, opt->column_names[i]);
    GCOL_DETAIL_CHECK(*node >= 0, GCOL_ERROR_INVALID_ARGUMENT, "%s: no column named '%s'", md->name,
                      opt->column_names[i]);
    GCOL_DETAIL_CHECK(!gcol_detail_pqn_in_list(tree, *node), GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: column '%s' lies inside a list: select the list", md->name,
                      opt->column_names[i]);
  } else {
    *node = tree->roots[i];
  }
done:
  return status;
}

/* The selections and their plans (a leaf read flat, also one inside structs: null where they
 * are; a group or list nested, every leaf of it), room left for the filter's leaves. */
static gcol_status select_columns(const gcol_parquet_metadata *md,
                                  const gcol_parquet_read_options *opt, read_columns *rc) {
  gcol_status status = GCOL_OK;
  gcol_detail_pqn_tree *tree = &rc->tree;
  GCOL_DETAIL_TRY(gcol_detail_pqn_build(md, tree));
  int32_t const n = opt->columns != NULL        ? opt->num_columns
                    : opt->column_names != NULL ? opt->num_column_names
                                                : tree->num_roots;
  rc->num_columns = n;
  rc->sel_node = (int32_t *)malloc((size_t)(n + 1) * sizeof *rc->sel_node);
  rc->flat_at = (int32_t *)malloc((size_t)(n + 1) * sizeof *rc->flat_at);
  rc->sel_plan = (int32_t *)malloc((size_t)(n + 1) * sizeof *rc->sel_plan);
  GCOL_DETAIL_CHECK(rc->sel_node != NULL && rc->flat_at != NULL && rc->sel_plan != NULL,
                    GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  int64_t num_plans = md->num_leaves; /* the filter's */
  for (int32_t i = 0; i < n; ++i) {
    int32_t node = -1;
    GCOL_DETAIL_TRY(selected_node(md, tree, opt, i, &node));
    bool const flat =
        tree->nodes[node].kind == GCOL_DETAIL_PQN_LEAF && !gcol_detail_pqn_in_list(tree, node);
    rc->sel_node[i] = flat ? -1 : node;
    rc->flat_at[i] = flat ? tree->nodes[node].leaf : -1;
    num_plans += flat ? 1 : tree->nodes[node].num_leaves;
    rc->nested = rc->nested || !flat;
  }
  GCOL_DETAIL_CHECK(num_plans < INT32_MAX, GCOL_ERROR_OVERFLOW, "%s: too many columns selected",
                    md->name);
  rc->capacity = (int32_t)num_plans;
  rc->columns = (int32_t *)malloc((size_t)(num_plans + 1) * sizeof *rc->columns);
  rc->with_levels = (bool *)calloc((size_t)(num_plans + 1), sizeof *rc->with_levels);
  GCOL_DETAIL_CHECK(rc->columns != NULL && rc->with_levels != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "out of memory");
  for (int32_t i = 0; i < n; ++i) {
    rc->sel_plan[i] = rc->num_read;
    if (rc->sel_node[i] < 0) {
      rc->columns[rc->num_read++] = rc->flat_at[i];
      continue;
    }
    const gcol_detail_pqn_node *node = &tree->nodes[rc->sel_node[i]];
    for (int32_t k = 0; k < node->num_leaves; ++k) {
      rc->with_levels[rc->num_read] = true;
      rc->columns[rc->num_read++] = node->first_leaf + k;
    }
  }
  rc->num_selected_plans = rc->num_read;
done:
  return status;
}

/* The row groups read: the options' (checked) or every one. */
static gcol_status select_groups(const gcol_parquet_metadata *md,
                                 const gcol_parquet_read_options *opt, int32_t **groups,
                                 int32_t *num_groups) {
  gcol_status status = GCOL_OK;
  int32_t const n = opt->row_groups != NULL ? opt->num_row_groups : md->num_row_groups;
  *num_groups = n;
  *groups = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof **groups);
  GCOL_DETAIL_CHECK(*groups != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t i = 0; i < n; ++i) {
    int32_t const g = opt->row_groups != NULL ? opt->row_groups[i] : i;
    GCOL_DETAIL_CHECK(g >= 0 && g < md->num_row_groups, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: options->row_groups[%d] is %d, outside the file's %d row groups",
                      md->name, i, g, md->num_row_groups);
    (*groups)[i] = g;
  }
done:
  return status;
}

/* The row range's groups: groups[first_group, last_group) are read (those wholly before or
 * after the range are not), then rows [local_skip, local_skip + take) of them kept (take -1:
 * no range asked). */
typedef struct row_window {
  int64_t first_group, last_group, local_skip, take;
} row_window;

static row_window window_of(const gcol_parquet_metadata *md, const int32_t *groups,
                            int32_t num_groups, int64_t skip_rows, int64_t num_rows) {
  row_window w = {0, num_groups, 0, -1};
  if (skip_rows == 0 && num_rows == 0) return w;
  int64_t before = 0;
  w.first_group = num_groups;
  for (int32_t i = 0; i < num_groups; ++i) {
    int64_t const rows = md->row_groups[groups[i]].num_rows;
    if (w.first_group == num_groups && before + rows > skip_rows) {
      w.first_group = i;
      w.local_skip = skip_rows - before;
    }
    before += rows;
    if (num_rows > 0 && w.first_group < num_groups && before >= skip_rows + num_rows) {
      w.last_group = i + 1;
      break;
    }
  }
  if (w.first_group > w.last_group) w.first_group = w.last_group;
  w.take = num_rows;
  return w;
}

/* The table returned from the one read (taken): the filter applied, or rows [local_skip,
 * local_skip + take) of it compacted (a copy) where they are not all of it. */
static gcol_status finish_table(gcol_table **table, int32_t num_columns,
                                const gcol_expression *filter, int32_t filter_root, row_window w,
                                gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view *slices = NULL;
  gcol_table_view const all = gcol_table_get_view(*table);
  if (filter != NULL) {
    GCOL_DETAIL_TRY(apply_filter(all, num_columns, filter, filter_root, out, stream, mr));
    goto done;
  }
  int64_t const rows = num_columns > 0 ? all.columns[0].size : 0;
  int64_t const begin = w.local_skip < rows ? w.local_skip : rows;
  int64_t const end = w.take > 0 && w.take < rows - begin ? begin + w.take : rows;
  if (begin == 0 && end == rows) {
    *out = *table;
    *table = NULL;
    goto done;
  }
  slices = (gcol_column_view *)malloc((size_t)(num_columns > 0 ? num_columns : 1) * sizeof *slices);
  GCOL_DETAIL_CHECK(slices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  gcol_table_view part;
  GCOL_DETAIL_TRY(gcol_table_view_slice(all, begin, end, slices, &part));
  GCOL_DETAIL_TRY(gcol_table_copy(part, stream, mr, out));
done:
  free(slices);
  return status;
}

/* `data`: the file as a host buffer (its uncompressed chunks are not copied on the host), or
 * NULL. */
static gcol_status read_table(const gcol_detail_pq_file *file, const uint8_t *data,
                              const gcol_parquet_read_options *options, gcol_table **out,
                              gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_parquet_metadata *md = NULL;
  read_columns rc;
  memset(&rc, 0, sizeof rc);
  int32_t *groups = NULL;
  int32_t num_groups = 0;
  gcol_column **outputs = NULL;
  gcol_table *table = NULL;
  gcol_detail_pq_column_plan *plans = NULL;
  gcol_expression *filter = NULL;        /* opt.filter over the columns read */
  gcol_detail_pq_row_range *kept = NULL; /* page skipping: the read rows kept, or NULL */
  int64_t num_kept = 0;
  int32_t *bounds = NULL;      /* batched reads: where each batch starts in the groups read */
  gcol_buffer **levels = NULL; /* per plan: its levels decoded on the GPU (rep, def) or NULL */
  gcol_detail_pqn_levels *level_ptrs = NULL;
  gcol_column **final = NULL; /* the table's columns: the selections, then the filter's */
  int32_t num_final = 0;
  gcol_parquet_read_options opt;
  gcol_parquet_read_options_init(&opt);
  if (options != NULL) opt = *options;
  gcol_detail_pq_file read_file = *file; /* with the whole read's window, when it has one */
  gcol_detail_pq_window window;
  memset(&window, 0, sizeof window);
  GCOL_DETAIL_TRY(check_read_options(&opt));
  GCOL_DETAIL_TRY(gcol_detail_parquet_read_metadata(file, &md));
  GCOL_DETAIL_TRY(select_columns(md, &opt, &rc));
  size_t const capacity = (size_t)rc.capacity + 1;
  levels = (gcol_buffer **)calloc(2 * capacity, sizeof *levels);
  level_ptrs = (gcol_detail_pqn_levels *)calloc(capacity, sizeof *level_ptrs);
  outputs = (gcol_column **)calloc(capacity, sizeof *outputs);
  final = (gcol_column **)calloc((size_t)(rc.num_columns + md->num_leaves + 1), sizeof *final);
  GCOL_DETAIL_CHECK(levels != NULL && level_ptrs != NULL && outputs != NULL && final != NULL,
                    GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(select_groups(md, &opt, &groups, &num_groups));
  if (opt.filter != NULL) {
    GCOL_DETAIL_TRY(prune_groups(md, opt.filter, opt.filter_root, groups, &num_groups));
    if (rc.num_columns > 0) {
      GCOL_DETAIL_TRY(filter_columns(md, opt.filter, opt.filter_root, rc.columns, &rc.num_read,
                                     rc.flat_at, rc.num_columns, &filter));
      if (!rc.nested) { /* nested columns are decoded whole (see docs/design.md) */
        GCOL_DETAIL_TRY(plan_page_skipping(file, md, opt.filter, opt.filter_root, groups,
                                           &num_groups, &kept, &num_kept));
      }
    }
  }
  row_window w = window_of(md, groups, num_groups, opt.skip_rows, opt.num_rows);
  /* every column planned first, then decoded together (one copy, few synchronizations); a
   * large read in batches of row groups, each so (read_batches) */
  int32_t const num_read = rc.num_read;
  plans =
      (gcol_detail_pq_column_plan *)calloc((size_t)(num_read > 0 ? num_read : 1), sizeof *plans);
  GCOL_DETAIL_CHECK(plans != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  {
    const gcol_detail_nvcomp *nvcomp = opt.untrusted ? NULL : gcol_detail_nvcomp_get();
    const int32_t *read_groups = groups + w.first_group;
    int32_t const range = (int32_t)(w.last_group - w.first_group);
    int32_t num_batches = 1;
    /* page skipping reads whole; nested columns are checked and assembled per batch (their
     * levels are checked chunk by chunk, and a chunk lies in one batch) */
    if (kept == NULL && num_read > 0 && range >= 2) {
      bounds = (int32_t *)malloc((size_t)(range + 1) * sizeof *bounds);
      GCOL_DETAIL_CHECK(bounds != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
      num_batches = gcol_detail_parquet_batches(md, rc.columns, num_read, read_groups, range,
                                                gcol_detail_parquet_batch_bytes(), bounds);
    }
    if (num_batches == 1 && kept == NULL && !rc.nested && w.take != -1) {
      GCOL_DETAIL_TRY(
          plan_range_skipping(md, read_groups, range, &w.local_skip, &w.take, &kept, &num_kept));
    }
    batch_run run;
    memset(&run, 0, sizeof run);
    run.file = &read_file;
    run.data = data;
    run.md = md;
    run.columns = rc.columns;
    run.num_read = num_read;
    run.groups = read_groups;
    run.bounds = bounds;
    run.num_batches = num_batches;
    run.gpu_codecs = gcol_detail_parquet_gpu_codecs(&opt, nvcomp);
    run.nvcomp = nvcomp;
    run.with_levels = rc.with_levels;
    run.tree = &rc.tree;
    run.sel_node = rc.sel_node;
    run.sel_plan = rc.sel_plan;
    run.num_selected = rc.num_columns;
    if (num_batches > 1) {
      GCOL_DETAIL_TRY(read_batches(&run, outputs, (cudaStream_t)stream, mr));
    } else {
      if (data == NULL) { /* a path's or a source's chunks: read into staging memory first */
        gcol_detail_pq_window_load(&read_file, md, rc.columns, num_read, read_groups, range,
                                   gcol_detail_pq_window_readers(1), stream, &window);
        if (window.bytes != NULL) read_file.window = &window;
      }
      GCOL_DETAIL_TRY(plan_read(&run, &read_file, read_groups, range, kept, num_kept, plans));
      GCOL_DETAIL_TRY(gcol_detail_parquet_decode_columns_levels(
          plans, num_read, window.bytes != NULL ? window.bytes : data, md->name, stream, mr,
          outputs, levels));
      gcol_detail_pqn_levels_of(levels, num_read, level_ptrs);
      GCOL_DETAIL_TRY(assemble_nested(md, &rc.tree, rc.sel_node, rc.sel_plan, rc.num_columns, plans,
                                      level_ptrs, read_groups, range, outputs, stream, mr));
    }
  }
  for (int32_t i = 0; kept != NULL && i < num_read; ++i) {
    if (covers_only_kept(&plans[i], kept, num_kept)) continue;
    GCOL_DETAIL_TRY(gather_kept_rows(&plans[i], kept, num_kept, md->name, &outputs[i], stream, mr));
  }
  /* the table: each selection (a flat leaf, or a nested column assembled from its leaves),
   * then the filter's leaves */
  for (int32_t i = 0; i < rc.num_columns; ++i) {
    final[num_final++] = outputs[rc.sel_plan[i]];
    outputs[rc.sel_plan[i]] = NULL;
  }
  for (int32_t i = rc.num_selected_plans; i < num_read; ++i) {
    final[num_final++] = outputs[i];
    outputs[i] = NULL;
  }
  GCOL_DETAIL_TRY(gcol_table_make(final, num_final, &table));
  for (int32_t i = 0; i < num_final; ++i) final[i] = NULL;
  GCOL_DETAIL_TRY(
      finish_table(&table, rc.num_columns, filter, opt.filter_root, w, out, stream, mr));
done:
  gcol_detail_pq_window_free(&window, stream);
  gcol_table_free(table);
  gcol_expression_free(filter);
  free(kept);
  for (int32_t i = 0; plans != NULL && i < rc.num_read; ++i)
    gcol_detail_parquet_plan_free(&plans[i]);
  free(plans);
  for (int32_t i = 0; outputs != NULL && i < rc.num_read; ++i) gcol_column_free(outputs[i]);
  free(outputs);
  for (int32_t i = 0; final != NULL && i < num_final; ++i) gcol_column_free(final[i]);
  free(final);
  for (int32_t i = 0; levels != NULL && i < 2 * rc.num_read; ++i) gcol_buffer_free(levels[i]);
  free(levels);
  free(level_ptrs);
  read_columns_free(&rc);
  free(groups);
  free(bounds);
  gcol_parquet_metadata_free(md);
  return status;
}

gcol_status gcol_parquet_read_source(const gcol_parquet_source *source,
                                     const gcol_parquet_read_options *options, gcol_table **out,
                                     gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_read_source");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  gcol_detail_pq_file file;
  GCOL_DETAIL_TRY(gcol_detail_pq_file_from_source(source, &file));
  GCOL_DETAIL_TRY(read_table(&file, NULL, options, out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_parquet_read_buffer(const void *data, int64_t size,
                                     const gcol_parquet_read_options *options, gcol_table **out,
                                     gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_read_buffer");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(data);
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  gcol_detail_pq_file file;
  gcol_detail_pq_file_from_buffer(data, size, &file, NULL);
  GCOL_DETAIL_TRY(read_table(&file, (const uint8_t *)data, options, out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_parquet_read_file(const char *path, const gcol_parquet_read_options *options,
                                   gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_pq_file file;
  memset(&file, 0, sizeof file);
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_read_file");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(path);
  GCOL_DETAIL_TRY(gcol_detail_pq_file_open(path, &file));
  GCOL_DETAIL_TRY(read_table(&file, NULL, options, out, stream, mr));
done:
  gcol_detail_pq_file_close(&file);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
