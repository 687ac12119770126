/* Thrift compact protocol reader and writer (lib/internal/thrift.h). */
#include "internal/thrift.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reader ---- */

void gcol_detail_thrift_reader_init(gcol_detail_thrift_reader *r, const void *data, size_t size) {
  memset(r, 0, sizeof *r);
  r->begin = (const uint8_t *)data;
  r->p = r->begin;
  r->end = r->begin + (data == NULL ? 0 : size);
}

size_t gcol_detail_thrift_consumed(const gcol_detail_thrift_reader *r) {
  return (size_t)(r->p - r->begin);
}

bool gcol_detail_thrift_fail(gcol_detail_thrift_reader *r, const char *message) {
  if (!r->failed) {
    r->failed = true;
    snprintf(r->error, sizeof r->error, "%s at byte %zu", message, gcol_detail_thrift_consumed(r));
  }
  return false;
}

static bool read_byte(gcol_detail_thrift_reader *r, uint8_t *b) {
  if (r->failed) return false;
  if (r->p >= r->end) return gcol_detail_thrift_fail(r, "truncated Thrift data");
  *b = *r->p++;
  return true;
}

static bool read_varint(gcol_detail_thrift_reader *r, uint64_t *v) {
  uint64_t x = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    uint8_t b = 0;
    if (!read_byte(r, &b)) return false;
    if (shift == 63 && (b & 0x7e) != 0)
      return gcol_detail_thrift_fail(r, "varint overflows 64 bits");
    x |= (uint64_t)(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *v = x;
      return true;
    }
  }
  return gcol_detail_thrift_fail(r, "varint longer than 10 bytes");
}

static int64_t unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

static bool read_zigzag(gcol_detail_thrift_reader *r, int64_t *v) {
  uint64_t u = 0;
  if (!read_varint(r, &u)) return false;
  *v = unzigzag(u);
  return true;
}

bool gcol_detail_thrift_struct_begin(gcol_detail_thrift_reader *r) {
  if (r->failed) return false;
  if (r->depth >= GCOL_DETAIL_THRIFT_MAX_DEPTH) {
    return gcol_detail_thrift_fail(r, "Thrift structs nested too deeply");
  }
  r->last_id[++r->depth] = 0;
  return true;
}

bool gcol_detail_thrift_struct_end(gcol_detail_thrift_reader *r) {
  if (r->failed) return false;
  if (r->depth > 0) --r->depth;
  return true;
}

bool gcol_detail_thrift_field(gcol_detail_thrift_reader *r, int16_t *id, uint8_t *type) {
  uint8_t b = 0;
  if (!read_byte(r, &b)) return false;
  uint8_t const t = b & 0x0f;
  if (t == GCOL_DETAIL_THRIFT_STOP) {
    if (b != 0) return gcol_detail_thrift_fail(r, "invalid Thrift field header");
    *type = t;
    return true;
  }
  if (t > GCOL_DETAIL_THRIFT_STRUCT) return gcol_detail_thrift_fail(r, "invalid Thrift type");
  int64_t field_id = 0;
  if ((b >> 4) != 0) {
    field_id = (int64_t)r->last_id[r->depth] + (b >> 4);
  } else if (!read_zigzag(r, &field_id)) {
    return false;
  }
  if (field_id < -32768 || field_id > 32767) {
    return gcol_detail_thrift_fail(r, "Thrift field id out of range");
  }
  r->last_id[r->depth] = (int16_t)field_id;
  *id = (int16_t)field_id;
  *type = t;
  if (t == GCOL_DETAIL_THRIFT_TRUE || t == GCOL_DETAIL_THRIFT_FALSE) {
    r->bool_value = t == GCOL_DETAIL_THRIFT_TRUE;
  }
  return true;
}

bool gcol_detail_thrift_bool(gcol_detail_thrift_reader *r, uint8_t type, bool in_list, bool *v) {
  if (r->failed) return false;
  if (in_list) {
    uint8_t b = 0;
    if (!read_byte(r, &b)) return false;
    if (b > 2) return gcol_detail_thrift_fail(r, "invalid Thrift boolean");
    *v = b == 1;
    return true;
  }
  if (type != GCOL_DETAIL_THRIFT_TRUE && type != GCOL_DETAIL_THRIFT_FALSE) {
    return gcol_detail_thrift_fail(r, "expected a Thrift boolean");
  }
  *v = r->bool_value;
  return true;
}

bool gcol_detail_thrift_i64(gcol_detail_thrift_reader *r, uint8_t type, int64_t *v) {
  if (r->failed) return false;
  if (type == GCOL_DETAIL_THRIFT_I8) {
    uint8_t b = 0;
    if (!read_byte(r, &b)) return false;
    *v = (int8_t)b;
    return true;
  }
  if (type != GCOL_DETAIL_THRIFT_I16 && type != GCOL_DETAIL_THRIFT_I32 &&
      type != GCOL_DETAIL_THRIFT_I64) {
    return gcol_detail_thrift_fail(r, "expected a Thrift integer");
  }
  int64_t x = 0;
  if (!read_zigzag(r, &x)) return false;
  if ((type == GCOL_DETAIL_THRIFT_I16 && (x < INT16_MIN || x > INT16_MAX)) ||
      (type == GCOL_DETAIL_THRIFT_I32 && (x < INT32_MIN || x > INT32_MAX))) {
    return gcol_detail_thrift_fail(r, "Thrift integer out of its type's range");
  }
  *v = x;
  return true;
}

bool gcol_detail_thrift_i32(gcol_detail_thrift_reader *r, uint8_t type, int32_t *v) {
  int64_t x = 0;
  if (!gcol_detail_thrift_i64(r, type, &x)) return false;
  if (x < INT32_MIN || x > INT32_MAX)
    return gcol_detail_thrift_fail(r, "expected a 32-bit integer");
  *v = (int32_t)x;
  return true;
}

bool gcol_detail_thrift_double(gcol_detail_thrift_reader *r, uint8_t type, double *v) {
  if (r->failed) return false;
  if (type != GCOL_DETAIL_THRIFT_DOUBLE) return gcol_detail_thrift_fail(r, "expected a double");
  if (r->end - r->p < 8) return gcol_detail_thrift_fail(r, "truncated Thrift double");
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= (uint64_t)r->p[i] << (8 * i);
  r->p += 8;
  memcpy(v, &bits, sizeof *v);
  return true;
}

bool gcol_detail_thrift_binary(gcol_detail_thrift_reader *r, uint8_t type, const uint8_t **data,
                               int64_t *size) {
  if (r->failed) return false;
  if (type != GCOL_DETAIL_THRIFT_BINARY) return gcol_detail_thrift_fail(r, "expected a binary");
  uint64_t n = 0;
  if (!read_varint(r, &n)) return false;
  if (n > (uint64_t)(r->end - r->p)) {
    return gcol_detail_thrift_fail(r, "Thrift binary longer than the remaining data");
  }
  *data = r->p;
  *size = (int64_t)n;
  r->p += n;
  return true;
}

bool gcol_detail_thrift_list(gcol_detail_thrift_reader *r, uint8_t type, uint8_t *elem_type,
                             int64_t *count) {
  if (r->failed) return false;
  if (type != GCOL_DETAIL_THRIFT_LIST && type != GCOL_DETAIL_THRIFT_SET) {
    return gcol_detail_thrift_fail(r, "expected a list");
  }
  uint8_t b = 0;
  if (!read_byte(r, &b)) return false;
  uint64_t n = b >> 4;
  if (n == 15 && !read_varint(r, &n)) return false;
  uint8_t const t = b & 0x0f;
  if (t == GCOL_DETAIL_THRIFT_STOP || t > GCOL_DETAIL_THRIFT_STRUCT) {
    return gcol_detail_thrift_fail(r, "invalid Thrift list element type");
  }
  if (n > (uint64_t)(r->end - r->p)) {
    return gcol_detail_thrift_fail(r, "Thrift list count exceeds the remaining data");
  }
  /* Elements of type TRUE are booleans too (some writers use 1 for bool lists). */
  *elem_type = t == GCOL_DETAIL_THRIFT_FALSE ? GCOL_DETAIL_THRIFT_TRUE : t;
  *count = (int64_t)n;
  return true;
}

static bool skip_value(gcol_detail_thrift_reader *r, uint8_t type, bool in_list);

static bool skip_struct(gcol_detail_thrift_reader *r) {
  if (!gcol_detail_thrift_struct_begin(r)) return false;
  int16_t id;
  uint8_t t = 0;
  while (gcol_detail_thrift_field(r, &id, &t) && t != GCOL_DETAIL_THRIFT_STOP) {
    if (!skip_value(r, t, false)) return false;
  }
  return gcol_detail_thrift_struct_end(r);
}

static bool skip_value(gcol_detail_thrift_reader *r, uint8_t type, bool in_list) {
  if (r->failed) return false;
  switch (type) {
    case GCOL_DETAIL_THRIFT_TRUE:
    case GCOL_DETAIL_THRIFT_FALSE: {
      bool b = 0;
      return gcol_detail_thrift_bool(r, type, in_list, &b);
    }
    case GCOL_DETAIL_THRIFT_I8:
    case GCOL_DETAIL_THRIFT_I16:
    case GCOL_DETAIL_THRIFT_I32:
    case GCOL_DETAIL_THRIFT_I64: {
      int64_t x = 0;
      return gcol_detail_thrift_i64(r, type, &x);
    }
    case GCOL_DETAIL_THRIFT_DOUBLE: {
      double d = 0;
      return gcol_detail_thrift_double(r, type, &d);
    }
    case GCOL_DETAIL_THRIFT_BINARY: {
      const uint8_t *p = NULL;
      int64_t n = 0;
      return gcol_detail_thrift_binary(r, type, &p, &n);
    }
    case GCOL_DETAIL_THRIFT_STRUCT:
      return skip_struct(r);
    case GCOL_DETAIL_THRIFT_LIST:
    case GCOL_DETAIL_THRIFT_SET: {
      uint8_t et = 0;
      int64_t n = 0;
      if (!gcol_detail_thrift_list(r, type, &et, &n)) return false;
      if (r->depth >= GCOL_DETAIL_THRIFT_MAX_DEPTH) {
        return gcol_detail_thrift_fail(r, "Thrift values nested too deeply");
      }
      ++r->depth;
      r->last_id[r->depth] = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (!skip_value(r, et, true)) return false;
      }
      --r->depth;
      return true;
    }
    case GCOL_DETAIL_THRIFT_MAP: {
      uint64_t n = 0;
      if (!read_varint(r, &n)) return false;
      if (n == 0) return true;
      uint8_t kv = 0;
      if (!read_byte(r, &kv)) return false;
      if (n > (uint64_t)(r->end - r->p)) {
        return gcol_detail_thrift_fail(r, "Thrift map count exceeds the remaining data");
      }
      uint8_t const kt = kv >> 4, vt = kv & 0x0f;
      if (kt == 0 || kt > GCOL_DETAIL_THRIFT_STRUCT || vt == 0 || vt > GCOL_DETAIL_THRIFT_STRUCT) {
        return gcol_detail_thrift_fail(r, "invalid Thrift map types");
      }
      if (r->depth >= GCOL_DETAIL_THRIFT_MAX_DEPTH) {
        return gcol_detail_thrift_fail(r, "Thrift values nested too deeply");
      }
      ++r->depth;
      r->last_id[r->depth] = 0;
      for (uint64_t i = 0; i < n; ++i) {
        if (!skip_value(r, kt, true) || !skip_value(r, vt, true)) return false;
      }
      --r->depth;
      return true;
    }
    default:
      return gcol_detail_thrift_fail(r, "invalid Thrift type");
  }
}

bool gcol_detail_thrift_skip(gcol_detail_thrift_reader *r, uint8_t type) {
  return skip_value(r, type, false);
}

/* ---- writer ---- */

void gcol_detail_thrift_writer_init(gcol_detail_thrift_writer *w) { memset(w, 0, sizeof *w); }

void gcol_detail_thrift_writer_free(gcol_detail_thrift_writer *w) {
  free(w->data);
  memset(w, 0, sizeof *w);
}

void gcol_detail_thrift_write_bytes(gcol_detail_thrift_writer *w, const void *p, size_t n) {
  if (w->failed || n == 0) return;
  if (n > SIZE_MAX / 2 - w->size) {
    w->failed = true;
    return;
  }
  if (w->size + n > w->capacity) {
    size_t cap = w->capacity < 256 ? 256 : w->capacity;
    while (cap < w->size + n) cap *= 2;
    uint8_t *grown = (uint8_t *)realloc(w->data, cap);
    if (grown == NULL) {
      w->failed = true;
      return;
    }
    w->data = grown;
    w->capacity = cap;
  }
  memcpy(w->data + w->size, p, n);
  w->size += n;
}

void gcol_detail_thrift_write_varint(gcol_detail_thrift_writer *w, uint64_t v) {
  uint8_t buf[10];
  size_t n = 0;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    buf[n++] = (uint8_t)(b | (v != 0 ? 0x80 : 0));
  } while (v != 0);
  gcol_detail_thrift_write_bytes(w, buf, n);
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

void gcol_detail_thrift_write_i32(gcol_detail_thrift_writer *w, int32_t v) {
  gcol_detail_thrift_write_varint(w, zigzag(v));
}

void gcol_detail_thrift_write_i64(gcol_detail_thrift_writer *w, int64_t v) {
  gcol_detail_thrift_write_varint(w, zigzag(v));
}

void gcol_detail_thrift_write_binary(gcol_detail_thrift_writer *w, const void *p, int64_t n) {
  gcol_detail_thrift_write_varint(w, (uint64_t)n);
  gcol_detail_thrift_write_bytes(w, p, (size_t)n);
}

void gcol_detail_thrift_write_field(gcol_detail_thrift_writer *w, int16_t id, uint8_t type) {
  int16_t const last = w->last_id[w->depth];
  if (id > last && id - last <= 15) {
    uint8_t const b = (uint8_t)(((id - last) << 4) | type);
    gcol_detail_thrift_write_bytes(w, &b, 1);
  } else {
    gcol_detail_thrift_write_bytes(w, &type, 1);
    gcol_detail_thrift_write_i64(w, id);
  }
  w->last_id[w->depth] = id;
}

void gcol_detail_thrift_write_i32_field(gcol_detail_thrift_writer *w, int16_t id, int32_t v) {
  gcol_detail_thrift_write_field(w, id, GCOL_DETAIL_THRIFT_I32);
  gcol_detail_thrift_write_i32(w, v);
}

void gcol_detail_thrift_write_i64_field(gcol_detail_thrift_writer *w, int16_t id, int64_t v) {
  gcol_detail_thrift_write_field(w, id, GCOL_DETAIL_THRIFT_I64);
  gcol_detail_thrift_write_i64(w, v);
}

void gcol_detail_thrift_write_double_field(gcol_detail_thrift_writer *w, int16_t id, double v) {
  gcol_detail_thrift_write_field(w, id, GCOL_DETAIL_THRIFT_DOUBLE);
  uint64_t bits = 0;
  memcpy(&bits, &v, sizeof bits);
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = (uint8_t)(bits >> (8 * i));
  gcol_detail_thrift_write_bytes(w, b, 8);
}

void gcol_detail_thrift_write_bool_field(gcol_detail_thrift_writer *w, int16_t id, bool v) {
  gcol_detail_thrift_write_field(w, id, v ? GCOL_DETAIL_THRIFT_TRUE : GCOL_DETAIL_THRIFT_FALSE);
}

void gcol_detail_thrift_write_binary_field(gcol_detail_thrift_writer *w, int16_t id, const void *p,
                                           int64_t n) {
  gcol_detail_thrift_write_field(w, id, GCOL_DETAIL_THRIFT_BINARY);
  gcol_detail_thrift_write_binary(w, p, n);
}

void gcol_detail_thrift_write_struct_begin(gcol_detail_thrift_writer *w) {
  if (w->depth >= GCOL_DETAIL_THRIFT_MAX_DEPTH) {
    w->failed = true;
    return;
  }
  w->last_id[++w->depth] = 0;
}

void gcol_detail_thrift_write_struct_end(gcol_detail_thrift_writer *w) {
  uint8_t const stop = 0;
  gcol_detail_thrift_write_bytes(w, &stop, 1);
  if (w->depth > 0) --w->depth;
}

void gcol_detail_thrift_write_list_field(gcol_detail_thrift_writer *w, int16_t id,
                                         uint8_t elem_type, int64_t count) {
  gcol_detail_thrift_write_field(w, id, GCOL_DETAIL_THRIFT_LIST);
  if (count < 15) {
    uint8_t const b = (uint8_t)((count << 4) | elem_type);
    gcol_detail_thrift_write_bytes(w, &b, 1);
  } else {
    uint8_t const b = (uint8_t)(0xf0 | elem_type);
    gcol_detail_thrift_write_bytes(w, &b, 1);
    gcol_detail_thrift_write_varint(w, (uint64_t)count);
  }
}
