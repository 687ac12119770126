/* Parquet footer: FileMetaData parsed from Thrift compact bytes, checked, and the public
 * metadata API (include/gcol/io/parquet.h). */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal/error.h"
#include "internal/expression.h"
#include "internal/nvtx.h"
#include "internal/parquet.h"
#include "internal/thrift.h"

/* ---- allocations owned by the metadata ---- */

struct gcol_detail_pq_alloc {
  gcol_detail_pq_alloc *next;
  /* followed by the bytes */
};

static void *md_alloc(gcol_parquet_metadata *md, size_t size) {
  if (size > SIZE_MAX - sizeof(gcol_detail_pq_alloc) - 16) return NULL;
  gcol_detail_pq_alloc *a = (gcol_detail_pq_alloc *)calloc(1, sizeof *a + size + 16);
  if (a == NULL) return NULL;
  a->next = md->allocs;
  md->allocs = a;
  /* 16-byte alignment past the header */
  return (void *)((uint8_t *)a + sizeof *a + (16 - sizeof *a % 16) % 16);
}

static void *md_array(gcol_parquet_metadata *md, int64_t count, size_t elem) {
  if (count < 0 || (uint64_t)count > SIZE_MAX / 2 / (elem == 0 ? 1 : elem)) return NULL;
  return md_alloc(md, (size_t)count * elem + 1);
}

/* A NUL-terminated copy of n bytes. */
static char *md_string(gcol_parquet_metadata *md, const uint8_t *p, int64_t n) {
  char *s = (char *)md_array(md, n + 1, 1);
  if (s != NULL && n > 0) memcpy(s, p, (size_t)n);
  return s;
}

void gcol_parquet_metadata_free(gcol_parquet_metadata *metadata) {
  if (metadata == NULL) return;
  gcol_detail_pq_alloc *a = metadata->allocs;
  while (a != NULL) {
    gcol_detail_pq_alloc *next = a->next;
    free(a);
    a = next;
  }
  free(metadata);
}

/* ---- parsing ---- */

typedef struct parse_ctx {
  gcol_detail_thrift_reader r;
  gcol_parquet_metadata *md;
  bool oom;
  char what[96]; /* where the parser is, for messages */
} parse_ctx;

static bool fail(parse_ctx *c, const char *message) {
  return gcol_detail_thrift_fail(&c->r, message);
}

/* The header of a list of structs, and a new array for its *n elements of `elem` bytes, or
 * NULL after failing the parse: not structs, a second such list (`existing` already set),
 * more than INT32_MAX elements, no memory. */
static void *struct_list(parse_ctx *c, uint8_t type, const void *existing, size_t elem, int64_t *n,
                         const char *not_structs, const char *twice, const char *too_many) {
  uint8_t et = 0;
  const char *problem = NULL;
  void *array = NULL;
  if (!gcol_detail_thrift_list(&c->r, type, &et, n)) return NULL;
  if (et != GCOL_DETAIL_THRIFT_STRUCT) {
    problem = not_structs;
  } else if (existing != NULL) {
    problem = twice;
  } else if (*n > INT32_MAX) {
    problem = too_many;
  } else {
    array = md_array(c->md, *n, elem);
    if (array == NULL) {
      c->oom = true;
      problem = "out of memory";
    }
  }
  if (problem != NULL) fail(c, problem);
  return array;
}

static bool parse_i32(parse_ctx *c, uint8_t t, int32_t *v) {
  return gcol_detail_thrift_i32(&c->r, t, v);
}
static bool parse_i64(parse_ctx *c, uint8_t t, int64_t *v) {
  return gcol_detail_thrift_i64(&c->r, t, v);
}

/* Loops over a struct's fields with `body` handling (id, type); unknown fields skipped. */
typedef bool (*field_fn)(parse_ctx *c, int16_t id, uint8_t type, void *arg);

static bool parse_struct(parse_ctx *c, field_fn fn, void *arg) {
  if (!gcol_detail_thrift_struct_begin(&c->r)) return false;
  int16_t id = 0;
  uint8_t type = 0;
  while (gcol_detail_thrift_field(&c->r, &id, &type) && type != GCOL_DETAIL_THRIFT_STOP) {
    if (!fn(c, id, type, arg)) return false;
  }
  if (c->r.failed) return false;
  return gcol_detail_thrift_struct_end(&c->r);
}

static bool skip(parse_ctx *c, uint8_t type) { return gcol_detail_thrift_skip(&c->r, type); }

/* Reads a struct-typed field, failing when the type is not STRUCT. */
static bool parse_struct_field(parse_ctx *c, uint8_t type, field_fn fn, void *arg) {
  if (type != GCOL_DETAIL_THRIFT_STRUCT) return fail(c, "expected a struct");
  return parse_struct(c, fn, arg);
}

/* Empty-struct union members (LogicalType's kinds, TimeUnit). */
typedef struct union_arg {
  int32_t member;
  void *inner;
  field_fn inner_fn;
} union_arg;

static bool union_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  union_arg *u = (union_arg *)arg;
  if (type != GCOL_DETAIL_THRIFT_STRUCT) return skip(c, type);
  if (u->member != 0) return fail(c, "a Thrift union with two members");
  u->member = id;
  if (u->inner_fn != NULL) return parse_struct(c, u->inner_fn, u->inner);
  return skip(c, type);
}

static bool time_unit_field(parse_ctx *c, uint8_t type, int32_t *unit) {
  union_arg u = {0, NULL, NULL};
  if (!parse_struct_field(c, type, union_field, &u)) return false;
  if (u.member < 1 || u.member > 3) return fail(c, "unknown time unit");
  *unit = u.member;
  return true;
}

/* Fields of the logical type's member struct (DECIMAL, TIME, TIMESTAMP, INTEGER). */
typedef struct logical_inner {
  gcol_detail_pq_schema *s;
  int32_t kind;
} logical_inner;

static bool logical_inner_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  logical_inner *li = (logical_inner *)arg;
  gcol_detail_pq_schema *s = li->s;
  switch (li->kind) {
    case GCOL_PARQUET_LOGICAL_DECIMAL:
      if (id == 1) return parse_i32(c, type, &s->scale);
      if (id == 2) return parse_i32(c, type, &s->precision);
      break;
    case GCOL_PARQUET_LOGICAL_TIME:
    case GCOL_PARQUET_LOGICAL_TIMESTAMP:
      if (id == 1) return gcol_detail_thrift_bool(&c->r, type, false, &s->adjusted_to_utc);
      if (id == 2) return time_unit_field(c, type, &s->time_unit);
      break;
    case GCOL_PARQUET_LOGICAL_INTEGER:
      if (id == 1) return parse_i32(c, type, &s->bit_width);
      if (id == 2) return gcol_detail_thrift_bool(&c->r, type, false, &s->is_signed);
      break;
    default:
      break;
  }
  return skip(c, type);
}

typedef struct logical_arg {
  gcol_detail_pq_schema *s;
  int32_t member;
} logical_arg;

static bool logical_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  logical_arg *la = (logical_arg *)arg;
  if (type != GCOL_DETAIL_THRIFT_STRUCT) return skip(c, type);
  if (la->member != 0) return fail(c, "a logical type with two members");
  la->member = id;
  logical_inner li = {la->s, id};
  return parse_struct(c, logical_inner_field, &li);
}

static bool schema_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  gcol_detail_pq_schema *s = (gcol_detail_pq_schema *)arg;
  switch (id) {
    case 1:
      s->has_type = true;
      return parse_i32(c, type, &s->type);
    case 2:
      return parse_i32(c, type, &s->type_length);
    case 3:
      return parse_i32(c, type, &s->repetition);
    case 4: {
      const uint8_t *p = NULL;
      int64_t n = 0;
      if (!gcol_detail_thrift_binary(&c->r, type, &p, &n)) return false;
      s->name = md_string(c->md, p, n);
      if (s->name == NULL) c->oom = true;
      return s->name != NULL || fail(c, "out of memory");
    }
    case 5:
      return parse_i32(c, type, &s->num_children);
    case 6:
      return parse_i32(c, type, &s->converted_type);
    case 7:
      return parse_i32(c, type, &s->scale);
    case 8:
      return parse_i32(c, type, &s->precision);
    case 10: {
      logical_arg la = {s, 0};
      if (!parse_struct_field(c, type, logical_field, &la)) return false;
      s->logical = la.member;
      return true;
    }
    default:
      return skip(c, type);
  }
}

static bool statistics_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  gcol_parquet_statistics *st = (gcol_parquet_statistics *)arg;
  const uint8_t *p = NULL;
  int64_t n = 0;
  switch (id) {
    case 1: /* deprecated max: used only when max_value is absent */
    case 5:
      if (!gcol_detail_thrift_binary(&c->r, type, &p, &n)) return false;
      if (id == 5 || st->max == NULL) {
        st->max = p;
        st->max_size = n;
      }
      return true;
    case 2:
    case 6:
      if (!gcol_detail_thrift_binary(&c->r, type, &p, &n)) return false;
      if (id == 6 || st->min == NULL) {
        st->min = p;
        st->min_size = n;
      }
      return true;
    case 3:
      st->has_null_count = true;
      return parse_i64(c, type, &st->null_count);
    default:
      return skip(c, type);
  }
}

static bool column_meta_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  gcol_detail_pq_chunk *ch = (gcol_detail_pq_chunk *)arg;
  int32_t v = 0;
  switch (id) {
    case 1:
      return parse_i32(c, type, &ch->physical_type);
    case 3: {
      uint8_t et = 0;
      int64_t n = 0;
      if (!gcol_detail_thrift_list(&c->r, type, &et, &n)) return false;
      ch->path_depth = n;
      for (int64_t i = 0; i < n; ++i) {
        if (!gcol_detail_thrift_skip(&c->r, et)) return false;
      }
      return true;
    }
    case 4:
      if (!parse_i32(c, type, &v)) return false;
      ch->stats.codec = (gcol_parquet_codec)v;
      if (v < 0 || v > GCOL_PARQUET_LZ4_RAW) return fail(c, "unknown compression codec");
      return true;
    case 5:
      return parse_i64(c, type, &ch->stats.num_values);
    case 6:
      return parse_i64(c, type, &ch->stats.uncompressed_size);
    case 7:
      return parse_i64(c, type, &ch->stats.compressed_size);
    case 9:
      return parse_i64(c, type, &ch->data_page_offset);
    case 11:
      return parse_i64(c, type, &ch->dictionary_page_offset);
    case 12:
      return parse_struct_field(c, type, statistics_field, &ch->stats);
    default:
      return skip(c, type);
  }
}

static bool chunk_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  gcol_detail_pq_chunk *ch = (gcol_detail_pq_chunk *)arg;
  switch (id) {
    case 1:
      ch->has_file_path = true;
      return skip(c, type);
    case 3:
      ch->has_meta_data = true;
      return parse_struct_field(c, type, column_meta_field, ch);
    case 4:
      return parse_i64(c, type, &ch->offset_index_offset);
    case 5:
      return parse_i32(c, type, &ch->offset_index_length);
    case 6:
      return parse_i64(c, type, &ch->column_index_offset);
    case 7:
      return parse_i32(c, type, &ch->column_index_length);
    default:
      return skip(c, type);
  }
}

static bool row_group_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  gcol_detail_pq_row_group *rg = (gcol_detail_pq_row_group *)arg;
  switch (id) {
    case 1: {
      int64_t n = 0;
      rg->chunks = (gcol_detail_pq_chunk *)struct_list(
          c, type, rg->chunks, sizeof *rg->chunks, &n, "column chunks are not structs",
          "two column chunk lists", "too many column chunks");
      if (rg->chunks == NULL) return false;
      rg->num_chunks = (int32_t)n;
      for (int64_t i = 0; i < n; ++i) {
        rg->chunks[i].dictionary_page_offset = -1;
        rg->chunks[i].physical_type = -1;
        rg->chunks[i].offset_index_offset = -1;
        rg->chunks[i].column_index_offset = -1;
        if (!parse_struct(c, chunk_field, &rg->chunks[i])) return false;
      }
      return true;
    }
    case 3:
      return parse_i64(c, type, &rg->num_rows);
    default:
      return skip(c, type);
  }
}

static bool key_value_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  int64_t const i = *(int64_t *)arg;
  gcol_parquet_metadata *md = c->md;
  const uint8_t *p = NULL;
  int64_t n = 0;
  if (id != 1 && id != 2) return skip(c, type);
  if (!gcol_detail_thrift_binary(&c->r, type, &p, &n)) return false;
  char *s = md_string(md, p, n);
  if (s == NULL) {
    c->oom = true;
    return fail(c, "out of memory");
  }
  if (id == 1) {
    md->keys[i] = s;
    md->key_sizes[i] = n;
  } else {
    md->values[i] = s;
    md->value_sizes[i] = n;
  }
  return true;
}

static bool file_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  gcol_parquet_metadata *md = (gcol_parquet_metadata *)arg;
  int64_t n = 0;
  switch (id) {
    case 1:
      return parse_i32(c, type, &md->version);
    case 2:
      md->schema = (gcol_detail_pq_schema *)struct_list(c, type, md->schema, sizeof *md->schema, &n,
                                                        "schema elements are not structs",
                                                        "two schemas", "too many schema elements");
      if (md->schema == NULL) return false;
      md->num_schema = (int32_t)n;
      for (int64_t i = 0; i < n; ++i) {
        gcol_detail_pq_schema *s = &md->schema[i];
        s->repetition = -1;
        s->converted_type = -1;
        snprintf(c->what, sizeof c->what, "schema element %lld", (long long)i);
        if (!parse_struct(c, schema_field, s)) return false;
      }
      return true;
    case 3:
      return parse_i64(c, type, &md->num_rows);
    case 4:
      md->row_groups = (gcol_detail_pq_row_group *)struct_list(
          c, type, md->row_groups, sizeof *md->row_groups, &n, "row groups are not structs",
          "two row group lists", "too many row groups");
      if (md->row_groups == NULL) return false;
      md->num_row_groups = (int32_t)n;
      for (int64_t i = 0; i < n; ++i) {
        snprintf(c->what, sizeof c->what, "row group %lld", (long long)i);
        if (!parse_struct(c, row_group_field, &md->row_groups[i])) return false;
      }
      return true;
    case 5:
      md->keys = (char **)struct_list(c, type, md->keys, sizeof *md->keys, &n,
                                      "key-value pairs are not structs", "two key-value lists",
                                      "too many key-value pairs");
      if (md->keys == NULL) return false;
      md->values = (char **)md_array(md, n, sizeof *md->values);
      md->key_sizes = (int64_t *)md_array(md, n, sizeof *md->key_sizes);
      md->value_sizes = (int64_t *)md_array(md, n, sizeof *md->value_sizes);
      if (md->values == NULL || md->key_sizes == NULL || md->value_sizes == NULL) {
        c->oom = true;
        return fail(c, "out of memory");
      }
      md->num_key_values = (int32_t)n;
      for (int64_t i = 0; i < n; ++i) {
        snprintf(c->what, sizeof c->what, "key-value pair %lld", (long long)i);
        if (!parse_struct(c, key_value_field, &i)) return false;
        if (md->keys[i] == NULL) return fail(c, "a key-value pair without a key");
      }
      return true;
    case 6: {
      const uint8_t *p = NULL;
      if (!gcol_detail_thrift_binary(&c->r, type, &p, &n)) return false;
      md->created_by = md_string(md, p, n);
      if (md->created_by == NULL) {
        c->oom = true;
        return fail(c, "out of memory");
      }
      return true;
    }
    default:
      snprintf(c->what, sizeof c->what, "field %d of FileMetaData", id);
      return skip(c, type);
  }
}

/* ---- schema -> leaves ---- */

/* The gcol type of a FIXED_LEN_BYTE_ARRAY leaf: decimals of up to 16 big-endian bytes, as
 * wide as their precision needs; FLOAT16 widened to FLOAT32 (gcol has no half type, and every
 * half is exactly a float); bytes without a logical type and UUIDs as binary strings, as
 * BYTE_ARRAY binary is read. EMPTY (not read) for a length the format forbids (below 1, a
 * FLOAT16 not of 2 bytes, a UUID not of 16), INTERVAL and any other annotation. */
static gcol_data_type flba_type(const gcol_detail_pq_schema *s) {
  gcol_data_type t = gcol_data_type_make(GCOL_EMPTY);
  int32_t const lg = s->logical;
  if (s->type_length < 1) return t;
  if (lg == GCOL_PARQUET_LOGICAL_DECIMAL && s->type_length <= 16 && s->precision >= 1 &&
      s->precision <= 38) {
    t = gcol_data_type_decimal(s->precision <= 9    ? GCOL_DECIMAL32
                               : s->precision <= 18 ? GCOL_DECIMAL64
                                                    : GCOL_DECIMAL128,
                               -s->scale);
  } else if (lg == GCOL_PARQUET_LOGICAL_FLOAT16 && s->type_length == 2) {
    t.id = GCOL_FLOAT32;
  } else if ((lg == GCOL_PARQUET_LOGICAL_NONE && s->converted_type != GCOL_DETAIL_PQ_CT_INTERVAL) ||
             (lg == GCOL_PARQUET_LOGICAL_UUID && s->type_length == 16)) {
    t.id = GCOL_STRING;
  }
  return t;
}

static gcol_data_type type_of(const gcol_detail_pq_schema *s) {
  gcol_data_type t = gcol_data_type_make(GCOL_EMPTY);
  int32_t const lg = s->logical;
  switch (s->type) {
    case GCOL_PARQUET_BOOLEAN:
      t.id = GCOL_BOOL8;
      break;
    case GCOL_PARQUET_INT32:
      if (lg == GCOL_PARQUET_LOGICAL_NONE) {
        t.id = GCOL_INT32;
      } else if (lg == GCOL_PARQUET_LOGICAL_INTEGER) {
        t.id = s->bit_width == 8    ? (s->is_signed ? GCOL_INT8 : GCOL_UINT8)
               : s->bit_width == 16 ? (s->is_signed ? GCOL_INT16 : GCOL_UINT16)
               : s->bit_width == 32 ? (s->is_signed ? GCOL_INT32 : GCOL_UINT32)
                                    : GCOL_EMPTY;
      } else if (lg == GCOL_PARQUET_LOGICAL_DATE) {
        t.id = GCOL_TIMESTAMP_DAYS;
      } else if (lg == GCOL_PARQUET_LOGICAL_DECIMAL && s->precision <= 9) {
        t = gcol_data_type_decimal(GCOL_DECIMAL32, -s->scale);
      } else if (lg == GCOL_PARQUET_LOGICAL_TIME && s->time_unit == GCOL_PARQUET_UNIT_MILLIS) {
        t.id = GCOL_DURATION_MILLISECONDS;
      }
      break;
    case GCOL_PARQUET_INT64:
      if (lg == GCOL_PARQUET_LOGICAL_NONE) {
        t.id = GCOL_INT64;
      } else if (lg == GCOL_PARQUET_LOGICAL_INTEGER && s->bit_width == 64) {
        t.id = s->is_signed ? GCOL_INT64 : GCOL_UINT64;
      } else if (lg == GCOL_PARQUET_LOGICAL_TIMESTAMP) {
        t.id = s->time_unit == GCOL_PARQUET_UNIT_MILLIS   ? GCOL_TIMESTAMP_MILLISECONDS
               : s->time_unit == GCOL_PARQUET_UNIT_MICROS ? GCOL_TIMESTAMP_MICROSECONDS
                                                          : GCOL_TIMESTAMP_NANOSECONDS;
      } else if (lg == GCOL_PARQUET_LOGICAL_TIME) {
        t.id = s->time_unit == GCOL_PARQUET_UNIT_MICROS  ? GCOL_DURATION_MICROSECONDS
               : s->time_unit == GCOL_PARQUET_UNIT_NANOS ? GCOL_DURATION_NANOSECONDS
                                                         : GCOL_EMPTY;
      } else if (lg == GCOL_PARQUET_LOGICAL_DECIMAL && s->precision <= 18) {
        t = gcol_data_type_decimal(GCOL_DECIMAL64, -s->scale);
      }
      break;
    case GCOL_PARQUET_INT96: /* legacy timestamps (Impala, Spark): nanoseconds */
      t.id = GCOL_TIMESTAMP_NANOSECONDS;
      break;
    case GCOL_PARQUET_FLOAT:
      t.id = lg == GCOL_PARQUET_LOGICAL_NONE ? GCOL_FLOAT32 : GCOL_EMPTY;
      break;
    case GCOL_PARQUET_DOUBLE:
      t.id = lg == GCOL_PARQUET_LOGICAL_NONE ? GCOL_FLOAT64 : GCOL_EMPTY;
      break;
    case GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY:
      t = flba_type(s);
      break;
    case GCOL_PARQUET_BYTE_ARRAY:
      t.id = lg == GCOL_PARQUET_LOGICAL_NONE || lg == GCOL_PARQUET_LOGICAL_STRING ||
                     lg == GCOL_PARQUET_LOGICAL_ENUM || lg == GCOL_PARQUET_LOGICAL_JSON ||
                     lg == GCOL_PARQUET_LOGICAL_BSON
                 ? GCOL_STRING
                 : GCOL_EMPTY;
      break;
    default:
      break;
  }
  return t;
}

/* The logical type a legacy ConvertedType stands for, when the file has no LogicalType. */
static void logical_from_converted(gcol_detail_pq_schema *s) {
  if (s->logical != GCOL_PARQUET_LOGICAL_NONE || s->converted_type < 0) return;
  int32_t const ct = s->converted_type;
  switch (ct) {
    case GCOL_DETAIL_PQ_CT_UTF8:
      s->logical = GCOL_PARQUET_LOGICAL_STRING;
      break;
    case GCOL_DETAIL_PQ_CT_MAP:
    case GCOL_DETAIL_PQ_CT_MAP_KEY_VALUE:
      s->logical = GCOL_PARQUET_LOGICAL_MAP;
      break;
    case GCOL_DETAIL_PQ_CT_LIST:
      s->logical = GCOL_PARQUET_LOGICAL_LIST;
      break;
    case GCOL_DETAIL_PQ_CT_ENUM:
      s->logical = GCOL_PARQUET_LOGICAL_ENUM;
      break;
    case GCOL_DETAIL_PQ_CT_DECIMAL:
      s->logical = GCOL_PARQUET_LOGICAL_DECIMAL;
      break;
    case GCOL_DETAIL_PQ_CT_DATE:
      s->logical = GCOL_PARQUET_LOGICAL_DATE;
      break;
    case GCOL_DETAIL_PQ_CT_TIME_MILLIS:
    case GCOL_DETAIL_PQ_CT_TIME_MICROS:
      s->logical = GCOL_PARQUET_LOGICAL_TIME;
      s->time_unit =
          ct == GCOL_DETAIL_PQ_CT_TIME_MILLIS ? GCOL_PARQUET_UNIT_MILLIS : GCOL_PARQUET_UNIT_MICROS;
      s->adjusted_to_utc = true;
      break;
    case GCOL_DETAIL_PQ_CT_TIMESTAMP_MILLIS:
    case GCOL_DETAIL_PQ_CT_TIMESTAMP_MICROS:
      s->logical = GCOL_PARQUET_LOGICAL_TIMESTAMP;
      s->time_unit = ct == GCOL_DETAIL_PQ_CT_TIMESTAMP_MILLIS ? GCOL_PARQUET_UNIT_MILLIS
                                                              : GCOL_PARQUET_UNIT_MICROS;
      s->adjusted_to_utc = true;
      break;
    case GCOL_DETAIL_PQ_CT_JSON:
      s->logical = GCOL_PARQUET_LOGICAL_JSON;
      break;
    case GCOL_DETAIL_PQ_CT_BSON:
      s->logical = GCOL_PARQUET_LOGICAL_BSON;
      break;
    default:
      if (ct >= GCOL_DETAIL_PQ_CT_UINT_8 && ct <= GCOL_DETAIL_PQ_CT_INT_64) {
        int const k = ct - GCOL_DETAIL_PQ_CT_UINT_8; /* 0..3 unsigned, 4..7 signed */
        s->logical = GCOL_PARQUET_LOGICAL_INTEGER;
        s->bit_width = 8 << (k % 4);
        s->is_signed = k >= 4;
      }
      break;
  }
}

typedef struct walk_state {
  gcol_parquet_metadata *md;
  int32_t next;   /* next schema element */
  int32_t leaves; /* leaves found */
  bool count_only;
  char path[1024];
} walk_state;

/* Walks the children of a group (element `next - 1`), depth-first. */
static gcol_status walk(walk_state *w, int32_t num_children, int depth, int32_t def, int32_t rep,
                        size_t path_len) {
  gcol_parquet_metadata *md = w->md;
  if (depth > GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH) {
    return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__,
                             "%s: schema nested deeper than %d levels", md->name,
                             GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH);
  }
  for (int32_t k = 0; k < num_children; ++k) {
    if (w->next >= md->num_schema) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: corrupt footer: the schema's groups announce more children "
                               "than the %d schema elements",
                               md->name, md->num_schema);
    }
    int32_t const index = w->next++;
    gcol_detail_pq_schema *s = &md->schema[index];
    if (s->name == NULL) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: corrupt footer: schema element %d has no name", md->name,
                               index);
    }
    if (s->repetition < 0 || s->repetition > 2) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: corrupt footer: schema element %d ('%s') has repetition %d",
                               md->name, index, s->name, s->repetition);
    }
    int32_t const d = def + (s->repetition != GCOL_DETAIL_PQ_REQUIRED);
    int32_t const r = rep + (s->repetition == GCOL_DETAIL_PQ_REPEATED);
    size_t len = path_len;
    size_t const n = strlen(s->name);
    if (len + n + 2 <= sizeof w->path) {
      if (len > 0) w->path[len++] = '.';
      memcpy(w->path + len, s->name, n + 1);
      len += n;
    }
    if (s->num_children < 0) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: corrupt footer: schema element %d has %d children", md->name,
                               index, s->num_children);
    }
    if (s->num_children > 0) {
      gcol_status const st = walk(w, s->num_children, depth + 1, d, r, len);
      if (st != GCOL_OK) return st;
      continue;
    }
    if (!s->has_type || s->type < 0 || s->type > GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: corrupt footer: leaf '%s' has no valid physical type", md->name,
                               w->path);
    }
    if (!w->count_only) {
      logical_from_converted(s);
      gcol_parquet_column_info *info = &md->leaves[w->leaves];
      info->name = md_string(md, (const uint8_t *)w->path, (int64_t)strlen(w->path));
      if (info->name == NULL) {
        return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
      }
      info->physical_type = (gcol_parquet_physical_type)s->type;
      info->type_length = s->type == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY ? s->type_length : 0;
      info->logical_type = (gcol_parquet_logical_type)s->logical;
      info->time_unit = (gcol_parquet_time_unit)s->time_unit;
      info->adjusted_to_utc = s->adjusted_to_utc;
      info->bit_width = s->logical == GCOL_PARQUET_LOGICAL_INTEGER ? s->bit_width : 0;
      info->is_signed = s->logical == GCOL_PARQUET_LOGICAL_INTEGER && s->is_signed;
      info->decimal_precision = s->logical == GCOL_PARQUET_LOGICAL_DECIMAL ? s->precision : 0;
      info->decimal_scale = s->logical == GCOL_PARQUET_LOGICAL_DECIMAL ? s->scale : 0;
      info->nullable = d > 0;
      info->max_definition_level = d;
      info->max_repetition_level = r;
      info->type = type_of(s);
      md->leaf_converted[w->leaves] = s->converted_type;
    }
    ++w->leaves;
  }
  return GCOL_OK;
}

static gcol_status build_leaves(gcol_parquet_metadata *md) {
  if (md->num_schema < 1) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "%s: corrupt footer: no schema",
                             md->name);
  }
  walk_state w;
  memset(&w, 0, sizeof w);
  w.md = md;
  for (int pass = 0; pass < 2; ++pass) {
    w.count_only = pass == 0;
    w.next = 1;
    w.leaves = 0;
    w.path[0] = '\0';
    gcol_status const st = walk(&w, md->schema[0].num_children, 1, 0, 0, 0);
    if (st != GCOL_OK) return st;
    if (w.next != md->num_schema) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: corrupt footer: the root announces fewer children than the "
                               "%d schema elements",
                               md->name, md->num_schema);
    }
    if (pass == 0) {
      md->leaves = (gcol_parquet_column_info *)md_array(md, w.leaves, sizeof *md->leaves);
      md->leaf_converted = (int32_t *)md_array(md, w.leaves, sizeof *md->leaf_converted);
      if (md->leaves == NULL || md->leaf_converted == NULL) {
        return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
      }
      md->num_leaves = w.leaves;
    }
  }
  return GCOL_OK;
}

static int64_t load_le(const uint8_t *p, int64_t n) {
  uint64_t v = 0;
  for (int64_t i = 0; i < n; ++i) v |= (uint64_t)p[i] << (8 * i);
  return (int64_t)v;
}

/* A FIXED_LEN_BYTE_ARRAY min or max as the column of gcol type `id` holds a value
 * (gcol_detail_pq_flba_fixed_value): a FLOAT16 as a double, exactly; a DECIMAL as int64 into
 * *i, false when its 128 bits are not an int64's sign extension (a file lying about its
 * precision). */
static double flba_half(const uint8_t *p) {
  uint64_t lo = 0, hi = 0;
  gcol_detail_pq_flba_fixed_value(p, 0, 0, 2, GCOL_FLOAT32, &lo, &hi);
  uint32_t const bits = (uint32_t)lo;
  float f = 0;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static bool flba_decimal_i64(const uint8_t *p, int32_t type_length, int64_t *i) {
  uint64_t lo = 0, hi = 0;
  gcol_detail_pq_flba_value(p, 0, 0, type_length, &lo, &hi);
  if (hi != ((lo >> 63) != 0 ? ~(uint64_t)0 : 0)) return false;
  *i = (int64_t)lo;
  return true;
}

/* Decodes min/max of fixed-width columns into the statistics' numeric fields (a chunk's, or
 * a page's from the page index). */
static void decode_statistics(const gcol_parquet_column_info *info, gcol_parquet_statistics *st) {
  st->has_min_max = st->min != NULL && st->max != NULL;
  if (!st->has_min_max) return;
  switch (info->physical_type) {
    case GCOL_PARQUET_BOOLEAN:
    case GCOL_PARQUET_INT32:
    case GCOL_PARQUET_INT64: {
      int64_t const w = info->physical_type == GCOL_PARQUET_INT64   ? 8
                        : info->physical_type == GCOL_PARQUET_INT32 ? 4
                                                                    : 1;
      if (st->min_size != w || st->max_size != w) return;
      st->min_i64 = load_le(st->min, w);
      st->max_i64 = load_le(st->max, w);
      if (w == 4) {
        bool const is_unsigned =
            info->logical_type == GCOL_PARQUET_LOGICAL_INTEGER && !info->is_signed;
        st->min_i64 = is_unsigned ? (int64_t)(uint32_t)st->min_i64 : (int64_t)(int32_t)st->min_i64;
        st->max_i64 = is_unsigned ? (int64_t)(uint32_t)st->max_i64 : (int64_t)(int32_t)st->max_i64;
      }
      if (w == 1) {
        st->min_i64 &= 1;
        st->max_i64 &= 1;
      }
      st->has_integer_min_max = true;
      break;
    }
    case GCOL_PARQUET_FLOAT:
      if (st->min_size == 4 && st->max_size == 4) {
        float a = 0, b = 0;
        memcpy(&a, st->min, 4);
        memcpy(&b, st->max, 4);
        st->min_f64 = a;
        st->max_f64 = b;
        st->has_float_min_max = true;
      }
      break;
    case GCOL_PARQUET_DOUBLE:
      if (st->min_size == 8 && st->max_size == 8) {
        memcpy(&st->min_f64, st->min, 8);
        memcpy(&st->max_f64, st->max, 8);
        st->has_float_min_max = true;
      }
      break;
    case GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY:
      /* FLOAT16 (read as FLOAT32): its halves widened exactly; decimals read as DECIMAL32 or
       * DECIMAL64: their unscaled integers, as INT32/INT64 decimals hold them; the others
       * (DECIMAL128, binary, UUID) stay undecoded */
      if (info->type.id == GCOL_FLOAT32 && st->min_size == 2 && st->max_size == 2) {
        st->min_f64 = flba_half(st->min);
        st->max_f64 = flba_half(st->max);
        st->has_float_min_max = true;
      } else if ((info->type.id == GCOL_DECIMAL32 || info->type.id == GCOL_DECIMAL64) &&
                 st->min_size == info->type_length && st->max_size == info->type_length &&
                 flba_decimal_i64(st->min, info->type_length, &st->min_i64) &&
                 flba_decimal_i64(st->max, info->type_length, &st->max_i64)) {
        st->has_integer_min_max = true;
      }
      break;
    default:
      break;
  }
}

/* Consistency of row groups and chunks with the schema and the file. */
static gcol_status check_row_groups(gcol_parquet_metadata *md) {
  int64_t rows = 0;
  int64_t const data_end = md->file_size - 8 - md->footer_size;
  if (md->num_rows < 0) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "%s: corrupt footer: %lld rows",
                             md->name, (long long)md->num_rows);
  }
  for (int32_t g = 0; g < md->num_row_groups; ++g) {
    gcol_detail_pq_row_group *rg = &md->row_groups[g];
    if (rg->num_rows < 0 || rg->num_rows > md->num_rows - rows) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: corrupt footer: row group %d has %lld rows, more than the "
                               "file's %lld",
                               md->name, g, (long long)rg->num_rows, (long long)md->num_rows);
    }
    rows += rg->num_rows;
    if (rg->num_chunks != md->num_leaves) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: corrupt footer: row group %d has %d column chunks for %d "
                               "leaf columns",
                               md->name, g, rg->num_chunks, md->num_leaves);
    }
    for (int32_t c = 0; c < rg->num_chunks; ++c) {
      gcol_detail_pq_chunk *ch = &rg->chunks[c];
      const gcol_parquet_column_info *info = &md->leaves[c];
      if (!ch->has_meta_data) {
        return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__,
                                 "%s: row group %d, column '%s': the chunk has no metadata "
                                 "(encrypted column?)",
                                 md->name, g, info->name);
      }
      if (ch->physical_type != (int32_t)info->physical_type) {
        return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                                 "%s: corrupt footer: row group %d, column '%s': chunk type %d, "
                                 "schema type %d",
                                 md->name, g, info->name, ch->physical_type,
                                 (int)info->physical_type);
      }
      int64_t const start =
          ch->dictionary_page_offset > 0 && ch->dictionary_page_offset < ch->data_page_offset
              ? ch->dictionary_page_offset
              : ch->data_page_offset;
      int64_t const size = ch->stats.compressed_size;
      if (ch->has_file_path) continue; /* refused when read */
      if (start < 4 || size < 0 || start > data_end || size > data_end - start ||
          ch->data_page_offset < start || ch->data_page_offset >= start + size ||
          ch->stats.num_values < 0 || ch->stats.uncompressed_size < 0) {
        return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                                 "%s: corrupt footer: row group %d, column '%s': chunk bytes "
                                 "[%lld, +%lld) (data page at %lld) outside the file's data "
                                 "[4, %lld)",
                                 md->name, g, info->name, (long long)start, (long long)size,
                                 (long long)ch->data_page_offset, (long long)data_end);
      }
      decode_statistics(info, &ch->stats);
    }
  }
  if (rows != md->num_rows) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                             "%s: corrupt footer: the row groups hold %lld rows, the file says "
                             "%lld",
                             md->name, (long long)rows, (long long)md->num_rows);
  }
  return GCOL_OK;
}

gcol_status gcol_detail_parquet_parse_footer(const uint8_t *footer, int64_t footer_size,
                                             int64_t file_size, const char *name,
                                             gcol_parquet_metadata **out) {
  gcol_status status = GCOL_OK;
  parse_ctx c;
  gcol_parquet_metadata *md = (gcol_parquet_metadata *)calloc(1, sizeof *md);
  *out = NULL;
  GCOL_DETAIL_CHECK(md != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  snprintf(md->name, sizeof md->name, "%s", name != NULL ? name : "source");
  md->file_size = file_size;
  md->footer_size = footer_size;
  md->footer = (uint8_t *)md_array(md, footer_size, 1);
  GCOL_DETAIL_CHECK(md->footer != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "%s: cannot allocate %lld bytes for the footer", md->name,
                    (long long)footer_size);
  if (footer_size > 0) memcpy(md->footer, footer, (size_t)footer_size);
  memset(&c, 0, sizeof c);
  c.md = md;
  snprintf(c.what, sizeof c.what, "FileMetaData");
  gcol_detail_thrift_reader_init(&c.r, md->footer, (size_t)footer_size);
  if (!parse_struct(&c, file_field, md)) {
    GCOL_DETAIL_CHECK(!c.oom, GCOL_ERROR_OUT_OF_MEMORY, "%s: out of memory parsing the footer",
                      md->name);
    GCOL_DETAIL_FAIL(GCOL_ERROR_INVALID_ARGUMENT, "%s: corrupt footer (in %s): %s", md->name,
                     c.what, c.r.error);
  }
  GCOL_DETAIL_CHECK(md->schema != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s: corrupt footer: no schema", md->name);
  GCOL_DETAIL_TRY(build_leaves(md));
  GCOL_DETAIL_TRY(check_row_groups(md));
  *out = md;
  md = NULL;
done:
  gcol_parquet_metadata_free(md);
  return status;
}

/* ---- sources ---- */

static int buffer_read(void *user, int64_t offset, int64_t length, void *dst) {
  memcpy(dst, (const uint8_t *)user + offset, (size_t)length);
  return 0;
}

void gcol_detail_pq_file_from_buffer(const void *data, int64_t size, gcol_detail_pq_file *out,
                                     const void **state) {
  (void)state;
  memset(out, 0, sizeof *out);
  out->source.size = size;
  out->source.read = buffer_read;
  out->source.user = (void *)(uintptr_t)data;
  out->name = "buffer";
}

gcol_status gcol_detail_pq_file_from_source(const gcol_parquet_source *source,
                                            gcol_detail_pq_file *out) {
  gcol_status status = GCOL_OK;
  memset(out, 0, sizeof *out);
  GCOL_DETAIL_CHECK_NOT_NULL(source);
  GCOL_DETAIL_CHECK(source->read != NULL, GCOL_ERROR_INVALID_ARGUMENT, "source->read is NULL");
  GCOL_DETAIL_CHECK(source->size >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "source->size is negative (%lld)", (long long)source->size);
  out->source = *source;
  out->name = source->name != NULL ? source->name : "source";
done:
  return status;
}

static int file_read(void *user, int64_t offset, int64_t length, void *dst) {
  int const fd = (int)(intptr_t)user;
  uint8_t *out = (uint8_t *)dst;
  while (length > 0) {
    ssize_t const got = pread(fd, out, (size_t)length, (off_t)offset);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    out += got;
    offset += got;
    length -= got;
  }
  return 0;
}

gcol_status gcol_detail_pq_file_open(const char *path, gcol_detail_pq_file *out) {
  memset(out, 0, sizeof *out);
  int const fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "%s: cannot open: %s", path,
                             strerror(errno));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                             "%s: cannot tell its size (not a regular file)", path);
  }
  out->source.size = (int64_t)st.st_size;
  out->source.read = file_read;
  out->source.user = (void *)(intptr_t)fd;
  out->name = path;
  out->concurrent = true;
  return GCOL_OK;
}

void gcol_detail_pq_file_close(gcol_detail_pq_file *file) {
  if (file != NULL && file->source.read == file_read) {
    close((int)(intptr_t)file->source.user);
    file->source.read = NULL;
  }
}

gcol_status gcol_detail_parquet_read_metadata(const gcol_detail_pq_file *file,
                                              gcol_parquet_metadata **out) {
  gcol_status status = GCOL_OK;
  uint8_t tail[8];
  uint8_t *footer = NULL;
  int64_t const size = file->source.size;
  const char *name = file->name != NULL ? file->name : "source";
  *out = NULL;
  GCOL_DETAIL_CHECK(size >= 12, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s: not a Parquet file: %lld bytes, fewer than the 12 of an empty one", name,
                    (long long)size);
  GCOL_DETAIL_CHECK(file->source.read(file->source.user, 0, 4, tail) == 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "%s: reading bytes [0, 4) failed", name);
  GCOL_DETAIL_CHECK(memcmp(tail, "PAR1", 4) == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s: not a Parquet file: it does not start with PAR1", name);
  GCOL_DETAIL_CHECK(file->source.read(file->source.user, size - 8, 8, tail) == 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "%s: reading the last 8 bytes failed", name);
  GCOL_DETAIL_CHECK(memcmp(tail + 4, "PARE", 4) != 0, GCOL_ERROR_UNSUPPORTED,
                    "%s: the footer is encrypted (PARE), which gcol does not read", name);
  GCOL_DETAIL_CHECK(memcmp(tail + 4, "PAR1", 4) == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s: not a Parquet file or truncated: it does not end with PAR1", name);
  int64_t const footer_size = (int64_t)((uint32_t)tail[0] | (uint32_t)tail[1] << 8 |
                                        (uint32_t)tail[2] << 16 | (uint32_t)tail[3] << 24);
  GCOL_DETAIL_CHECK(
      footer_size > 0 && footer_size <= size - 12 && footer_size <= GCOL_DETAIL_PQ_MAX_FOOTER,
      GCOL_ERROR_INVALID_ARGUMENT,
      "%s: corrupt file: footer length %lld does not fit in its %lld bytes", name,
      (long long)footer_size, (long long)size);
  footer = (uint8_t *)malloc((size_t)footer_size);
  GCOL_DETAIL_CHECK(footer != NULL, GCOL_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
  GCOL_DETAIL_CHECK(
      file->source.read(file->source.user, size - 8 - footer_size, footer_size, footer) == 0,
      GCOL_ERROR_INVALID_ARGUMENT, "%s: reading the footer failed", name);
  GCOL_DETAIL_TRY(gcol_detail_parquet_parse_footer(footer, footer_size, size, name, out));
done:
  free(footer);
  return status;
}

/* ---- page index (ColumnIndex, OffsetIndex) ---- */

/* Index ranges at most this far apart are read together (the gap read and dropped). */
#define PAGE_INDEX_GAP ((int64_t)64 << 10)

static bool page_location_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  gcol_detail_pq_index_page *p = (gcol_detail_pq_index_page *)arg;
  switch (id) {
    case 1:
      return parse_i64(c, type, &p->offset);
    case 2:
      return parse_i32(c, type, &p->compressed_size);
    case 3:
      return parse_i64(c, type, &p->first_row);
    default:
      return skip(c, type);
  }
}

static bool offset_index_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  gcol_detail_pq_chunk *ch = (gcol_detail_pq_chunk *)arg;
  int64_t n = 0;
  if (id != 1) return skip(c, type);
  ch->pages = (gcol_detail_pq_index_page *)struct_list(c, type, ch->pages, sizeof *ch->pages, &n,
                                                       "page locations are not structs",
                                                       "two page location lists", "too many pages");
  if (ch->pages == NULL) return false;
  ch->num_pages = (int32_t)n;
  for (int64_t i = 0; i < n; ++i) {
    ch->pages[i].offset = ch->pages[i].first_row = -1; /* required: checked after */
    ch->pages[i].compressed_size = -1;
    if (!parse_struct(c, page_location_field, &ch->pages[i])) return false;
  }
  return true;
}

typedef struct column_index_arg {
  gcol_detail_pq_chunk *ch;
  unsigned seen; /* bit i: field i was read */
} column_index_arg;

static bool column_index_field(parse_ctx *c, int16_t id, uint8_t type, void *arg) {
  column_index_arg *a = (column_index_arg *)arg;
  gcol_detail_pq_chunk *ch = a->ch;
  uint8_t et = 0;
  int64_t n = 0;
  if (id < 1 || id > 5) return skip(c, type);
  if (a->seen & (1u << id)) return fail(c, "a field given twice");
  a->seen |= 1u << id;
  if (id == 4) return parse_i32(c, type, &ch->boundary_order);
  /* lists of one entry per page of the OffsetIndex */
  if (!gcol_detail_thrift_list(&c->r, type, &et, &n)) return false;
  if (n != ch->num_pages) return fail(c, "a list's length differs from the OffsetIndex's pages");
  for (int64_t i = 0; i < n; ++i) {
    gcol_detail_pq_index_page *p = &ch->pages[i];
    const uint8_t *bytes = NULL;
    int64_t size = 0;
    bool ok = true;
    switch (id) {
      case 1:
        ok = et == GCOL_DETAIL_THRIFT_TRUE ? gcol_detail_thrift_bool(&c->r, et, true, &p->null_page)
                                           : fail(c, "null_pages is not a list of booleans");
        break;
      case 2:
      case 3:
        ok = gcol_detail_thrift_binary(&c->r, et, &bytes, &size);
        if (id == 2) {
          p->stats.min = bytes;
          p->stats.min_size = size;
        } else {
          p->stats.max = bytes;
          p->stats.max_size = size;
        }
        break;
      default:
        ok = gcol_detail_thrift_i64(&c->r, et, &p->stats.null_count);
        p->stats.has_null_count = true;
        break;
    }
    if (!ok) return false;
  }
  return true;
}

/* Parses one index range of chunk (g, k) and checks it. */
static gcol_status parse_index(gcol_parquet_metadata *md, int32_t g, int32_t k, bool is_column,
                               const uint8_t *bytes, int64_t size) {
  gcol_detail_pq_row_group *rg = &md->row_groups[g];
  gcol_detail_pq_chunk *ch = &rg->chunks[k];
  const gcol_parquet_column_info *info = &md->leaves[k];
  const char *const what = is_column ? "ColumnIndex" : "OffsetIndex";
  parse_ctx c;
  memset(&c, 0, sizeof c);
  c.md = md;
  gcol_detail_thrift_reader_init(&c.r, bytes, (size_t)size);
  column_index_arg a = {ch, 0};
  bool const ok = is_column ? parse_struct(&c, column_index_field, &a)
                            : parse_struct(&c, offset_index_field, ch);
  if (!ok) {
    if (c.oom) return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                             "%s: corrupt page index: row group %d, column '%s': %s: %s", md->name,
                             g, info->name, what, c.r.error);
  }
  const char *bad = NULL;
  int32_t page = -1;
  if (!is_column) {
    /* rows from 0, in order, within the group; pages within the chunk's bytes */
    int64_t const start =
        ch->dictionary_page_offset > 0 && ch->dictionary_page_offset < ch->data_page_offset
            ? ch->dictionary_page_offset
            : ch->data_page_offset;
    int64_t const end = start + ch->stats.compressed_size; /* checked with the footer */
    if (ch->pages == NULL && rg->num_rows > 0) bad = "no page locations";
    for (int32_t i = 0; bad == NULL && i < ch->num_pages; ++i) {
      gcol_detail_pq_index_page *p = &ch->pages[i];
      int64_t const next = i + 1 < ch->num_pages ? ch->pages[i + 1].first_row : rg->num_rows;
      page = i;
      if (p->offset < 0 || p->compressed_size < 0 || p->first_row < 0) {
        bad = "a page location lacks a required field";
      } else if (i == 0 && p->first_row != 0) {
        bad = "the first page does not start at row 0";
      } else if (next < p->first_row || next > rg->num_rows) {
        bad = "first rows out of order or beyond the row group";
      } else if (!ch->has_file_path && (p->compressed_size == 0 || p->offset < start ||
                                        p->offset > end || p->compressed_size > end - p->offset)) {
        bad = "the page lies outside its column chunk's bytes";
      } else {
        p->num_rows = next - p->first_row;
        p->stats.num_values = p->num_rows; /* flat columns: a value per row */
        p->stats.codec = ch->stats.codec;
        p->stats.compressed_size = p->compressed_size;
      }
    }
  } else {
    if ((a.seen & 0x1e) != 0x1e) {
      bad = "a required field (null_pages, min_values, max_values, boundary_order) is missing";
    } else if (ch->boundary_order < 0 || ch->boundary_order > 2) {
      bad = "unknown boundary order";
    }
    for (int32_t i = 0; bad == NULL && i < ch->num_pages; ++i) {
      gcol_detail_pq_index_page *p = &ch->pages[i];
      page = i;
      if (p->stats.has_null_count &&
          (p->stats.null_count < 0 ||
           (info->max_repetition_level == 0 && p->stats.null_count > p->num_rows))) {
        bad = "a null count outside the page's rows";
        break;
      }
      if (p->null_page) { /* min and max are empty then */
        p->stats.min = p->stats.max = NULL;
        p->stats.min_size = p->stats.max_size = 0;
      }
      decode_statistics(info, &p->stats);
    }
    if (bad == NULL) ch->has_page_statistics = true;
  }
  if (bad != NULL) {
    char where[32] = "";
    if (page >= 0) snprintf(where, sizeof where, ", page %d", page);
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                             "%s: corrupt page index: row group %d, column '%s': %s%s: %s",
                             md->name, g, info->name, what, where, bad);
  }
  return GCOL_OK;
}

typedef struct index_range {
  int64_t offset;
  int64_t length;
  int32_t group;
  int32_t column;
  bool is_column;
  const uint8_t *bytes; /* once read */
} index_range;

static int range_order(const void *a, const void *b) {
  const index_range *x = (const index_range *)a, *y = (const index_range *)b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return (int)y->is_column - (int)x->is_column; /* stable enough: distinct kinds first */
}

static gcol_status read_page_index(gcol_parquet_metadata *md, const gcol_detail_pq_file *file) {
  gcol_status status = GCOL_OK;
  index_range *ranges = NULL;
  int64_t n = 0;
  int64_t const data_end = md->file_size - 8 - md->footer_size;
  GCOL_DETAIL_CHECK(file->source.size == md->file_size, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s: the file has %lld bytes, the metadata's %lld: not the same file",
                    file->name, (long long)file->source.size, (long long)md->file_size);
  ranges = (index_range *)malloc(
      (size_t)(2 * (int64_t)md->num_row_groups * (md->num_leaves > 0 ? md->num_leaves : 1) + 1) *
      sizeof *ranges);
  GCOL_DETAIL_CHECK(ranges != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t g = 0; g < md->num_row_groups; ++g) {
    for (int32_t k = 0; k < md->row_groups[g].num_chunks; ++k) {
      const gcol_detail_pq_chunk *ch = &md->row_groups[g].chunks[k];
      if (ch->offset_index_offset < 0 && ch->offset_index_length == 0) continue;
      for (int kind = 0; kind < 2; ++kind) {
        int64_t const off = kind ? ch->column_index_offset : ch->offset_index_offset;
        int64_t const len = kind ? ch->column_index_length : ch->offset_index_length;
        if (kind && off < 0 && len == 0) continue; /* no ColumnIndex: pages without statistics */
        GCOL_DETAIL_CHECK(
            off >= 4 && len > 0 && off <= data_end && len <= data_end - off,
            GCOL_ERROR_INVALID_ARGUMENT,
            "%s: corrupt page index: row group %d, column '%s': %s bytes [%lld, +%lld) outside "
            "the file's data [4, %lld)",
            md->name, g, md->leaves[k].name, kind ? "ColumnIndex" : "OffsetIndex", (long long)off,
            (long long)len, (long long)data_end);
        index_range const r = {off, len, g, k, kind == 1, NULL};
        ranges[n++] = r;
      }
    }
  }
  qsort(ranges, (size_t)n, sizeof *ranges, range_order);
  /* coalesced reads: each run of ranges with gaps under PAGE_INDEX_GAP in one buffer */
  for (int64_t i = 0; i < n;) {
    int64_t const begin = ranges[i].offset;
    int64_t end = begin + ranges[i].length;
    int64_t j = i + 1;
    while (j < n && ranges[j].offset - end <= PAGE_INDEX_GAP) {
      int64_t const e = ranges[j].offset + ranges[j].length;
      end = e > end ? e : end;
      ++j;
    }
    uint8_t *buffer = (uint8_t *)md_array(md, end - begin, 1);
    GCOL_DETAIL_CHECK(buffer != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "%s: cannot allocate %lld bytes for the page index", md->name,
                      (long long)(end - begin));
    GCOL_DETAIL_CHECK(file->source.read(file->source.user, begin, end - begin, buffer) == 0,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: reading the page index bytes [%lld, %lld) failed", md->name,
                      (long long)begin, (long long)end);
    for (; i < j; ++i) ranges[i].bytes = buffer + (ranges[i].offset - begin);
  }
  /* every OffsetIndex first (a ColumnIndex's lists are checked against its page count) */
  for (int pass = 0; pass < 2; ++pass) {
    for (int64_t i = 0; i < n; ++i) {
      if ((int)ranges[i].is_column != pass) continue;
      GCOL_DETAIL_TRY(parse_index(md, ranges[i].group, ranges[i].column, ranges[i].is_column,
                                  ranges[i].bytes, ranges[i].length));
    }
  }
done:
  free(ranges);
  return status;
}

gcol_status gcol_detail_pq_read_page_index(gcol_parquet_metadata *md,
                                           const gcol_detail_pq_file *file) {
  if (md->page_index_read) return GCOL_OK;
  gcol_detail_pq_alloc *const mark = md->allocs;
  gcol_status const status = read_page_index(md, file);
  if (status == GCOL_OK) {
    md->page_index_read = true;
    return GCOL_OK;
  }
  /* all or nothing: forget what was parsed and free what was allocated since */
  for (int32_t g = 0; g < md->num_row_groups; ++g) {
    for (int32_t k = 0; k < md->row_groups[g].num_chunks; ++k) {
      gcol_detail_pq_chunk *ch = &md->row_groups[g].chunks[k];
      ch->pages = NULL;
      ch->num_pages = 0;
      ch->has_page_statistics = false;
      ch->boundary_order = 0;
    }
  }
  while (md->allocs != mark) {
    gcol_detail_pq_alloc *const next = md->allocs->next;
    free(md->allocs);
    md->allocs = next;
  }
  return status;
}

/* ---- public API ---- */

gcol_status gcol_parquet_metadata_read_source(const gcol_parquet_source *source,
                                              gcol_parquet_metadata **out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_read_source");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  gcol_detail_pq_file file;
  GCOL_DETAIL_TRY(gcol_detail_pq_file_from_source(source, &file));
  GCOL_DETAIL_TRY(gcol_detail_parquet_read_metadata(&file, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_parquet_metadata_read_buffer(const void *data, int64_t size,
                                              gcol_parquet_metadata **out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_read_buffer");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(data);
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  gcol_detail_pq_file file;
  gcol_detail_pq_file_from_buffer(data, size, &file, NULL);
  GCOL_DETAIL_TRY(gcol_detail_parquet_read_metadata(&file, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_parquet_metadata_read_file(const char *path, gcol_parquet_metadata **out) {
  gcol_status status = GCOL_OK;
  gcol_detail_pq_file file;
  memset(&file, 0, sizeof file);
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_read_file");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(path);
  GCOL_DETAIL_TRY(gcol_detail_pq_file_open(path, &file));
  GCOL_DETAIL_TRY(gcol_detail_parquet_read_metadata(&file, out));
done:
  gcol_detail_pq_file_close(&file);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

int64_t gcol_parquet_metadata_num_rows(const gcol_parquet_metadata *metadata) {
  return metadata == NULL ? 0 : metadata->num_rows;
}

int32_t gcol_parquet_metadata_num_row_groups(const gcol_parquet_metadata *metadata) {
  return metadata == NULL ? 0 : metadata->num_row_groups;
}

int64_t gcol_parquet_metadata_row_group_num_rows(const gcol_parquet_metadata *metadata,
                                                 int32_t row_group) {
  if (metadata == NULL || row_group < 0 || row_group >= metadata->num_row_groups) return -1;
  return metadata->row_groups[row_group].num_rows;
}

int32_t gcol_parquet_metadata_num_columns(const gcol_parquet_metadata *metadata) {
  return metadata == NULL ? 0 : metadata->num_leaves;
}

const char *gcol_parquet_metadata_created_by(const gcol_parquet_metadata *metadata) {
  return metadata == NULL || metadata->created_by == NULL ? "" : metadata->created_by;
}

static gcol_status parquet_metadata_column(const gcol_parquet_metadata *metadata, int32_t column,
                                           gcol_parquet_column_info *out) {
  GCOL_DETAIL_REQUIRE(metadata != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(column >= 0 && column < metadata->num_leaves, GCOL_ERROR_INVALID_ARGUMENT,
                      "column %d is outside the %d columns", column, metadata->num_leaves);
  *out = metadata->leaves[column];
  return GCOL_OK;
}

gcol_status gcol_parquet_metadata_column(const gcol_parquet_metadata *metadata, int32_t column,
                                         gcol_parquet_column_info *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_column");
  gcol_status const status = parquet_metadata_column(metadata, column, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

int32_t gcol_parquet_metadata_find_column(const gcol_parquet_metadata *metadata, const char *name) {
  if (metadata == NULL || name == NULL) return -1;
  for (int32_t i = 0; i < metadata->num_leaves; ++i) {
    if (strcmp(metadata->leaves[i].name, name) == 0) return i;
  }
  return -1;
}

static gcol_status parquet_metadata_statistics(const gcol_parquet_metadata *metadata,
                                               int32_t row_group, int32_t column,
                                               gcol_parquet_statistics *out) {
  GCOL_DETAIL_REQUIRE(metadata != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(row_group >= 0 && row_group < metadata->num_row_groups,
                      GCOL_ERROR_INVALID_ARGUMENT, "row_group %d is outside the %d row groups",
                      row_group, metadata->num_row_groups);
  GCOL_DETAIL_REQUIRE(column >= 0 && column < metadata->num_leaves, GCOL_ERROR_INVALID_ARGUMENT,
                      "column %d is outside the %d columns", column, metadata->num_leaves);
  *out = metadata->row_groups[row_group].chunks[column].stats;
  return GCOL_OK;
}

gcol_status gcol_parquet_metadata_statistics(const gcol_parquet_metadata *metadata,
                                             int32_t row_group, int32_t column,
                                             gcol_parquet_statistics *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_statistics");
  gcol_status const status = parquet_metadata_statistics(metadata, row_group, column, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status read_page_index_of(gcol_parquet_metadata *metadata,
                                      const gcol_detail_pq_file *file) {
  GCOL_DETAIL_REQUIRE(metadata != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  return gcol_detail_pq_read_page_index(metadata, file);
}

gcol_status gcol_parquet_metadata_read_page_index_file(gcol_parquet_metadata *metadata,
                                                       const char *path) {
  gcol_status status = GCOL_OK;
  gcol_detail_pq_file file;
  memset(&file, 0, sizeof file);
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_read_page_index_file");
  GCOL_DETAIL_CHECK_NOT_NULL(metadata);
  GCOL_DETAIL_CHECK_NOT_NULL(path);
  if (!metadata->page_index_read) GCOL_DETAIL_TRY(gcol_detail_pq_file_open(path, &file));
  GCOL_DETAIL_TRY(read_page_index_of(metadata, &file));
done:
  gcol_detail_pq_file_close(&file);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_parquet_metadata_read_page_index_buffer(gcol_parquet_metadata *metadata,
                                                         const void *data, int64_t size) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_read_page_index_buffer");
  GCOL_DETAIL_CHECK_NOT_NULL(metadata);
  GCOL_DETAIL_CHECK_NOT_NULL(data);
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  gcol_detail_pq_file file;
  gcol_detail_pq_file_from_buffer(data, size, &file, NULL);
  GCOL_DETAIL_TRY(read_page_index_of(metadata, &file));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_parquet_metadata_read_page_index_source(gcol_parquet_metadata *metadata,
                                                         const gcol_parquet_source *source) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_read_page_index_source");
  GCOL_DETAIL_CHECK_NOT_NULL(metadata);
  gcol_detail_pq_file file;
  GCOL_DETAIL_TRY(gcol_detail_pq_file_from_source(source, &file));
  GCOL_DETAIL_TRY(read_page_index_of(metadata, &file));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* The chunk (row_group, column), checked. */
static gcol_status find_chunk(const gcol_parquet_metadata *metadata, int32_t row_group,
                              int32_t column, const void *out, const gcol_detail_pq_chunk **ch) {
  GCOL_DETAIL_REQUIRE(metadata != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(row_group >= 0 && row_group < metadata->num_row_groups,
                      GCOL_ERROR_INVALID_ARGUMENT, "row_group %d is outside the %d row groups",
                      row_group, metadata->num_row_groups);
  GCOL_DETAIL_REQUIRE(column >= 0 && column < metadata->num_leaves, GCOL_ERROR_INVALID_ARGUMENT,
                      "column %d is outside the %d columns", column, metadata->num_leaves);
  *ch = &metadata->row_groups[row_group].chunks[column];
  return GCOL_OK;
}

static gcol_status parquet_metadata_page_index(const gcol_parquet_metadata *metadata,
                                               int32_t row_group, int32_t column,
                                               gcol_parquet_page_index_info *out) {
  const gcol_detail_pq_chunk *ch = NULL;
  gcol_status const status = find_chunk(metadata, row_group, column, out, &ch);
  if (status != GCOL_OK) return status;
  memset(out, 0, sizeof *out);
  out->has_offset_index = ch->offset_index_offset >= 0 || ch->offset_index_length != 0;
  out->has_column_index = ch->column_index_offset >= 0 || ch->column_index_length != 0;
  out->read = metadata->page_index_read;
  out->num_pages = ch->num_pages;
  out->has_page_statistics = ch->has_page_statistics;
  out->boundary_order = (gcol_parquet_boundary_order)ch->boundary_order;
  return GCOL_OK;
}

gcol_status gcol_parquet_metadata_page_index(const gcol_parquet_metadata *metadata,
                                             int32_t row_group, int32_t column,
                                             gcol_parquet_page_index_info *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_page_index");
  gcol_status const status = parquet_metadata_page_index(metadata, row_group, column, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status parquet_metadata_num_pages(const gcol_parquet_metadata *metadata,
                                              int32_t row_group, int32_t column,
                                              int32_t *num_pages) {
  const gcol_detail_pq_chunk *ch = NULL;
  gcol_status const status = find_chunk(metadata, row_group, column, num_pages, &ch);
  if (status != GCOL_OK) return status;
  GCOL_DETAIL_REQUIRE(metadata->page_index_read, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: the page index has not been read (gcol_parquet_metadata_read_page_"
                      "index_file/buffer/source)",
                      metadata->name);
  *num_pages = ch->num_pages;
  return GCOL_OK;
}

gcol_status gcol_parquet_metadata_num_pages(const gcol_parquet_metadata *metadata,
                                            int32_t row_group, int32_t column, int32_t *num_pages) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_num_pages");
  gcol_status const status = parquet_metadata_num_pages(metadata, row_group, column, num_pages);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status parquet_metadata_page_statistics(const gcol_parquet_metadata *metadata,
                                                    int32_t row_group, int32_t column, int32_t page,
                                                    gcol_parquet_page_statistics *out) {
  int32_t n = 0;
  gcol_status const status = parquet_metadata_num_pages(metadata, row_group, column, &n);
  if (status != GCOL_OK) return status;
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(page >= 0 && page < n, GCOL_ERROR_INVALID_ARGUMENT,
                      "page %d is outside the %d pages of row group %d, column %d", page, n,
                      row_group, column);
  const gcol_detail_pq_chunk *ch = &metadata->row_groups[row_group].chunks[column];
  const gcol_detail_pq_index_page *p = &ch->pages[page];
  memset(out, 0, sizeof *out);
  out->first_row = p->first_row;
  out->num_rows = p->num_rows;
  out->offset = p->offset;
  out->compressed_size = p->compressed_size;
  if (!ch->has_page_statistics) return GCOL_OK;
  out->has_statistics = true;
  out->null_page = p->null_page;
  out->has_null_count = p->stats.has_null_count;
  out->null_count = p->stats.null_count;
  out->has_min_max = p->stats.has_min_max;
  out->min = p->stats.min;
  out->min_size = p->stats.min_size;
  out->max = p->stats.max;
  out->max_size = p->stats.max_size;
  out->has_integer_min_max = p->stats.has_integer_min_max;
  out->min_i64 = p->stats.min_i64;
  out->max_i64 = p->stats.max_i64;
  out->has_float_min_max = p->stats.has_float_min_max;
  out->min_f64 = p->stats.min_f64;
  out->max_f64 = p->stats.max_f64;
  return GCOL_OK;
}

gcol_status gcol_parquet_metadata_page_statistics(const gcol_parquet_metadata *metadata,
                                                  int32_t row_group, int32_t column, int32_t page,
                                                  gcol_parquet_page_statistics *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_page_statistics");
  gcol_status const status =
      parquet_metadata_page_statistics(metadata, row_group, column, page, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

int32_t gcol_parquet_metadata_num_key_values(const gcol_parquet_metadata *metadata) {
  return metadata == NULL ? 0 : metadata->num_key_values;
}

static gcol_status parquet_metadata_key_value(const gcol_parquet_metadata *metadata, int32_t index,
                                              const char **key, int64_t *key_size,
                                              const char **value, int64_t *value_size) {
  GCOL_DETAIL_REQUIRE(metadata != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_REQUIRE(key != NULL, GCOL_ERROR_INVALID_ARGUMENT, "key is NULL");
  GCOL_DETAIL_REQUIRE(value != NULL, GCOL_ERROR_INVALID_ARGUMENT, "value is NULL");
  GCOL_DETAIL_REQUIRE(index >= 0 && index < metadata->num_key_values, GCOL_ERROR_INVALID_ARGUMENT,
                      "index %d is outside the %d key-value pairs", index,
                      metadata->num_key_values);
  *key = metadata->keys[index];
  *value = metadata->values[index];
  if (key_size != NULL) *key_size = metadata->key_sizes[index];
  if (value_size != NULL) *value_size = metadata->value_sizes[index];
  return GCOL_OK;
}

gcol_status gcol_parquet_metadata_key_value(const gcol_parquet_metadata *metadata, int32_t index,
                                            const char **key, int64_t *key_size, const char **value,
                                            int64_t *value_size) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_key_value");
  gcol_status const status =
      parquet_metadata_key_value(metadata, index, key, key_size, value, value_size);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- row groups by statistics ---- */

/* The comparison is shared with the expression pushdown (internal/expression.h). */
typedef gcol_detail_bound_value stat_value;

/* Whether [lo, hi] may hold x with `x op v` true. */
static bool may_match(stat_value lo, stat_value hi, gcol_parquet_compare op, stat_value v) {
  switch (op) {
    case GCOL_PARQUET_EQUAL:
      return gcol_detail_bound_compare(lo, v) <= 0 && gcol_detail_bound_compare(hi, v) >= 0;
    case GCOL_PARQUET_LESS:
      return gcol_detail_bound_compare(lo, v) < 0;
    case GCOL_PARQUET_LESS_EQUAL:
      return gcol_detail_bound_compare(lo, v) <= 0;
    case GCOL_PARQUET_GREATER:
      return gcol_detail_bound_compare(hi, v) > 0;
    default:
      return gcol_detail_bound_compare(hi, v) >= 0;
  }
}

static gcol_status filter_row_groups(const gcol_parquet_metadata *md, int32_t column,
                                     gcol_parquet_compare op, bool is_float, int64_t iv, double fv,
                                     int32_t *out, int32_t *count) {
  GCOL_DETAIL_REQUIRE(md != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_REQUIRE(out != NULL && count != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "row_groups or num_row_groups is NULL");
  GCOL_DETAIL_REQUIRE(column >= 0 && column < md->num_leaves, GCOL_ERROR_INVALID_ARGUMENT,
                      "column %d is outside the %d columns", column, md->num_leaves);
  GCOL_DETAIL_REQUIRE(op >= GCOL_PARQUET_EQUAL && op <= GCOL_PARQUET_GREATER_EQUAL,
                      GCOL_ERROR_INVALID_ARGUMENT, "op %d is not a gcol_parquet_compare", (int)op);
  const gcol_parquet_column_info *info = &md->leaves[column];
  bool const is_unsigned = info->logical_type == GCOL_PARQUET_LOGICAL_INTEGER && !info->is_signed &&
                           info->bit_width == 64;
  *count = 0;
  for (int32_t g = 0; g < md->num_row_groups; ++g) {
    const gcol_parquet_statistics *st = &md->row_groups[g].chunks[column].stats;
    bool keep = true;
    if (st->has_null_count && st->num_values > 0 && st->null_count == st->num_values) {
      keep = false; /* only nulls: no comparison holds */
    } else if (st->has_integer_min_max || st->has_float_min_max) {
      stat_value lo = {0, 0, 0.0}, hi = {0, 0, 0.0}, v = {0, 0, 0.0};
      if (st->has_float_min_max || is_float) {
        lo.kind = hi.kind = v.kind = 2;
        lo.f = st->has_float_min_max ? st->min_f64
               : is_unsigned         ? (double)(uint64_t)st->min_i64
                                     : (double)st->min_i64;
        hi.f = st->has_float_min_max ? st->max_f64
               : is_unsigned         ? (double)(uint64_t)st->max_i64
                                     : (double)st->max_i64;
        v.f = is_float ? fv : is_unsigned ? (double)(uint64_t)iv : (double)iv;
      } else {
        lo.kind = hi.kind = v.kind = is_unsigned ? 1 : 0;
        lo.i = st->min_i64;
        hi.i = st->max_i64;
        v.i = iv;
      }
      /* min above max: another order (legacy signed statistics of an unsigned column) */
      keep = gcol_detail_bound_compare(lo, hi) > 0 || may_match(lo, hi, op, v);
    }
    if (keep) out[(*count)++] = g;
  }
  return GCOL_OK;
}

static gcol_status parquet_metadata_filter_row_groups(const gcol_parquet_metadata *metadata,
                                                      int32_t column, gcol_parquet_compare op,
                                                      int64_t value, int32_t *row_groups,
                                                      int32_t *num_row_groups) {
  return filter_row_groups(metadata, column, op, false, value, 0.0, row_groups, num_row_groups);
}

gcol_status gcol_parquet_metadata_filter_row_groups(const gcol_parquet_metadata *metadata,
                                                    int32_t column, gcol_parquet_compare op,
                                                    int64_t value, int32_t *row_groups,
                                                    int32_t *num_row_groups) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_filter_row_groups");
  gcol_status const status =
      parquet_metadata_filter_row_groups(metadata, column, op, value, row_groups, num_row_groups);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status parquet_metadata_filter_row_groups_f64(const gcol_parquet_metadata *metadata,
                                                          int32_t column, gcol_parquet_compare op,
                                                          double value, int32_t *row_groups,
                                                          int32_t *num_row_groups) {
  return filter_row_groups(metadata, column, op, true, 0, value, row_groups, num_row_groups);
}

gcol_status gcol_parquet_metadata_filter_row_groups_f64(const gcol_parquet_metadata *metadata,
                                                        int32_t column, gcol_parquet_compare op,
                                                        double value, int32_t *row_groups,
                                                        int32_t *num_row_groups) {
  GCOL_DETAIL_NVTX_PUSH("gcol_parquet_metadata_filter_row_groups_f64");
  gcol_status const status = parquet_metadata_filter_row_groups_f64(metadata, column, op, value,
                                                                    row_groups, num_row_groups);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
