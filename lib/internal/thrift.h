/*
 * Thrift compact protocol on the host (Parquet's footer and page headers): a bounds-checked
 * reader with a nesting-depth limit, and a writer into a growing buffer.
 *
 * Reader: every call returns false on failure and records a message in `error` (the first
 * failure wins; later calls keep failing). A struct's fields are read as
 *
 *   int16_t id = 0; uint8_t type;
 *   if (!gcol_detail_thrift_struct_begin(r)) ...
 *   while (gcol_detail_thrift_field(r, &id, &type) && type != GCOL_DETAIL_THRIFT_STOP) {
 *     switch (id) { case 1: gcol_detail_thrift_i32(r, type, &x); break; ...
 *                   default: gcol_detail_thrift_skip(r, type); }
 *   }
 *   gcol_detail_thrift_struct_end(r);
 *
 * Limits: nesting depth GCOL_DETAIL_THRIFT_MAX_DEPTH; a list or map may not announce more
 * elements than bytes remain (every element takes at least one byte), so a lying count can
 * never make a caller allocate more than the input's size of elements.
 */
#ifndef GCOL_INTERNAL_THRIFT_H
#define GCOL_INTERNAL_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compact protocol type codes. */
enum {
  GCOL_DETAIL_THRIFT_STOP = 0,
  GCOL_DETAIL_THRIFT_TRUE = 1,
  GCOL_DETAIL_THRIFT_FALSE = 2,
  GCOL_DETAIL_THRIFT_I8 = 3,
  GCOL_DETAIL_THRIFT_I16 = 4,
  GCOL_DETAIL_THRIFT_I32 = 5,
  GCOL_DETAIL_THRIFT_I64 = 6,
  GCOL_DETAIL_THRIFT_DOUBLE = 7,
  GCOL_DETAIL_THRIFT_BINARY = 8,
  GCOL_DETAIL_THRIFT_LIST = 9,
  GCOL_DETAIL_THRIFT_SET = 10,
  GCOL_DETAIL_THRIFT_MAP = 11,
  GCOL_DETAIL_THRIFT_STRUCT = 12
};

#define GCOL_DETAIL_THRIFT_MAX_DEPTH 64

typedef struct gcol_detail_thrift_reader {
  const uint8_t *begin;
  const uint8_t *p;
  const uint8_t *end;
  int depth;
  int16_t last_id[GCOL_DETAIL_THRIFT_MAX_DEPTH + 1]; /* field-id deltas per open struct */
  bool bool_value; /* a boolean field's value rides in its field header */
  bool failed;
  char error[128];
} gcol_detail_thrift_reader;

void gcol_detail_thrift_reader_init(gcol_detail_thrift_reader *r, const void *data, size_t size);
/* Bytes consumed so far. */
size_t gcol_detail_thrift_consumed(const gcol_detail_thrift_reader *r);
/* Records a failure (e.g. a field of the wrong type) unless one is recorded already. */
bool gcol_detail_thrift_fail(gcol_detail_thrift_reader *r, const char *message);

bool gcol_detail_thrift_struct_begin(gcol_detail_thrift_reader *r);
bool gcol_detail_thrift_struct_end(gcol_detail_thrift_reader *r);
/* Next field header of the open struct: *type is STOP at its end. */
bool gcol_detail_thrift_field(gcol_detail_thrift_reader *r, int16_t *id, uint8_t *type);

/* Values of a field (type = its field type) or of a list element (type = the element type).
 * Integers accept any narrower integer type and check the range. */
bool gcol_detail_thrift_bool(gcol_detail_thrift_reader *r, uint8_t type, bool in_list, bool *v);
bool gcol_detail_thrift_i32(gcol_detail_thrift_reader *r, uint8_t type, int32_t *v);
bool gcol_detail_thrift_i64(gcol_detail_thrift_reader *r, uint8_t type, int64_t *v);
bool gcol_detail_thrift_double(gcol_detail_thrift_reader *r, uint8_t type, double *v);
/* A binary/string: *data points into the input, *size bytes. */
bool gcol_detail_thrift_binary(gcol_detail_thrift_reader *r, uint8_t type, const uint8_t **data,
                               int64_t *size);
/* A list (or set) header: element type and count. */
bool gcol_detail_thrift_list(gcol_detail_thrift_reader *r, uint8_t type, uint8_t *elem_type,
                             int64_t *count);
/* Skips a value of any type (nesting counted against the depth limit). */
bool gcol_detail_thrift_skip(gcol_detail_thrift_reader *r, uint8_t type);

/* ---- writer ---- */

typedef struct gcol_detail_thrift_writer {
  uint8_t *data;
  size_t size;
  size_t capacity;
  int depth;
  int16_t last_id[GCOL_DETAIL_THRIFT_MAX_DEPTH + 1];
  bool failed; /* out of memory or too deep: the buffer is then incomplete */
} gcol_detail_thrift_writer;

void gcol_detail_thrift_writer_init(gcol_detail_thrift_writer *w);
void gcol_detail_thrift_writer_free(gcol_detail_thrift_writer *w);
void gcol_detail_thrift_write_bytes(gcol_detail_thrift_writer *w, const void *p, size_t n);
/* Field header of `type` (for a bool field use write_bool_field). */
void gcol_detail_thrift_write_field(gcol_detail_thrift_writer *w, int16_t id, uint8_t type);
void gcol_detail_thrift_write_i32_field(gcol_detail_thrift_writer *w, int16_t id, int32_t v);
void gcol_detail_thrift_write_i64_field(gcol_detail_thrift_writer *w, int16_t id, int64_t v);
void gcol_detail_thrift_write_double_field(gcol_detail_thrift_writer *w, int16_t id, double v);
void gcol_detail_thrift_write_bool_field(gcol_detail_thrift_writer *w, int16_t id, bool v);
void gcol_detail_thrift_write_binary_field(gcol_detail_thrift_writer *w, int16_t id, const void *p,
                                           int64_t n);
/* Opens a struct value: a struct field (after write_field(id, STRUCT)), a list element or
 * the top level; closed by write_struct_end (which writes STOP). */
void gcol_detail_thrift_write_struct_begin(gcol_detail_thrift_writer *w);
void gcol_detail_thrift_write_struct_end(gcol_detail_thrift_writer *w);
/* A list field's header: the elements follow (write_i32/i64/binary/struct_begin...). */
void gcol_detail_thrift_write_list_field(gcol_detail_thrift_writer *w, int16_t id,
                                         uint8_t elem_type, int64_t count);
/* Bare values (list elements). */
void gcol_detail_thrift_write_varint(gcol_detail_thrift_writer *w, uint64_t v);
void gcol_detail_thrift_write_i32(gcol_detail_thrift_writer *w, int32_t v);
void gcol_detail_thrift_write_i64(gcol_detail_thrift_writer *w, int64_t v);
void gcol_detail_thrift_write_binary(gcol_detail_thrift_writer *w, const void *p, int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_THRIFT_H */
