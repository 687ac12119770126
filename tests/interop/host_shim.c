/*
 * gcol's host-side Arrow code for test_interop_pyarrow.py (suite host, loaded with ctypes):
 * the parts that need no GPU. Imports take CUDA_HOST device arrays over pyarrow's host
 * buffers zero-copy, exports build zero-copy trees over an import's views, and descriptions
 * of what gcol read come back as JSON. Entry points return a gcol_status (0 = GCOL_OK).
 * Built only with the tests.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/gcol.h"
#include "internal/interop.h"

const char *gcol_hshim_last_error(void);
const char *gcol_hshim_last_error(void) { return gcol_last_error(); }

const char *gcol_hshim_status_string(int status);
const char *gcol_hshim_status_string(int status) { return gcol_status_string((gcol_status)status); }

/* ------------------------------------------------------------------ JSON out */

typedef struct json_out {
  char *buf;
  size_t size;
  size_t used;
} json_out;

static void put(json_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(json_out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t const room = o->used < o->size ? o->size - o->used : 0;
  int const n = vsnprintf(room > 0 ? o->buf + o->used : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0) o->used += (size_t)n; /* past size: the caller sees the overflow */
}

/* A JSON string (names and time zones are plain here; quotes and backslashes escaped). */
static void put_string(json_out *o, const char *s) {
  if (s == NULL) {
    put(o, "null");
    return;
  }
  put(o, "\"");
  for (; *s != '\0'; ++s) {
    if (*s == '"' || *s == '\\') put(o, "\\");
    put(o, "%c", *s);
  }
  put(o, "\"");
}

static int finish(json_out *o) {
  if (o->used >= o->size) return (int)GCOL_ERROR_INVALID_ARGUMENT; /* buffer too small */
  return (int)GCOL_OK;
}

/* A view tree: type, scale, size, offset, null count, data and mask addresses, children. */
static void put_view(json_out *o, gcol_column_view v) {
  put(o, "{\"type\":\"%s\",\"scale\":%d,\"size\":%lld,\"offset\":%lld,\"null_count\":%lld,",
      gcol_type_name(v.type.id), (int)v.type.scale, (long long)v.size, (long long)v.offset,
      (long long)v.null_count);
  put(o, "\"data\":%llu,\"mask\":%llu,\"children\":[", (unsigned long long)(uintptr_t)v.data,
      (unsigned long long)(uintptr_t)v.null_mask);
  for (int32_t i = 0; i < v.num_children; ++i) {
    if (i > 0) put(o, ",");
    put_view(o, v.children[i]);
  }
  put(o, "]}");
}

static void put_field(json_out *o, const gcol_arrow_field *f) {
  put(o, "{\"name\":");
  put_string(o, f->name);
  put(o, ",\"timezone\":");
  put_string(o, f->timezone);
  put(o, ",\"precision\":%d,\"children\":[", (int)f->precision);
  for (int32_t i = 0; i < f->num_children; ++i) {
    if (i > 0) put(o, ",");
    put_field(o, &f->children[i]);
  }
  put(o, "]}");
}

/* A parsed Arrow type: gcol's type, Arrow's layout and widths, children. */
static void put_type(json_out *o, const gcol_detail_arrow_type *t) {
  put(o, "{\"type\":\"%s\",\"scale\":%d,\"layout\":%d,\"width\":%d,\"index_type\":\"%s\",",
      gcol_type_name(t->type.id), (int)t->type.scale, (int)t->layout, (int)t->width,
      t->layout == GCOL_DETAIL_ARROW_DICTIONARY ? gcol_type_name(t->index_type) : "");
  put(o, "\"children\":[");
  for (int32_t i = 0; i < t->num_children; ++i) {
    if (i > 0) put(o, ",");
    put_type(o, &t->children[i]);
  }
  put(o, "]}");
}

/* ------------------------------------------------------------------ import */

/* A device array (CUDA_HOST over pyarrow's host buffers, or whatever the test hands in)
 * imported zero-copy as a column, or as a table when as_table is set. Consumes both. */
int gcol_hshim_import(struct ArrowSchema *schema, struct ArrowDeviceArray *array, int as_table,
                      void **out);
int gcol_hshim_import(struct ArrowSchema *schema, struct ArrowDeviceArray *array, int as_table,
                      void **out) {
  gcol_imported *imp = NULL;
  gcol_status const st = as_table
                             ? gcol_arrow_device_import_table(schema, array, NULL, NULL, &imp)
                             : gcol_arrow_device_import_column(schema, array, NULL, NULL, &imp);
  *out = imp;
  return (int)st;
}

void gcol_hshim_imported_free(void *imported);
void gcol_hshim_imported_free(void *imported) { gcol_imported_free((gcol_imported *)imported); }

/* What an import reads, as JSON: {"column": view, "field": field, "rows", "columns"}. */
int gcol_hshim_describe(void *imported, char *buf, size_t size);
int gcol_hshim_describe(void *imported, char *buf, size_t size) {
  gcol_imported const *imp = (gcol_imported const *)imported;
  json_out o = {buf, size, 0};
  gcol_table_view const t = gcol_imported_table(imp);
  put(&o, "{\"rows\":%lld,\"columns\":%d,\"column\":", (long long)t.num_rows, (int)t.num_columns);
  put_view(&o, gcol_imported_column(imp));
  put(&o, ",\"field\":");
  put_field(&o, gcol_imported_field(imp));
  put(&o, "}");
  return finish(&o);
}

/* Schema and array parsed and checked as every import does first (host only, no buffer
 * read), described as JSON {"type": ..., "field": ...}; both released, as an import would. */
int gcol_hshim_parse(struct ArrowSchema *schema, struct ArrowArray *array, char *buf, size_t size);
int gcol_hshim_parse(struct ArrowSchema *schema, struct ArrowArray *array, char *buf, size_t size) {
  gcol_detail_arena arena;
  gcol_detail_arrow_type *type = NULL;
  gcol_arrow_field *field = NULL;
  memset(&arena, 0, sizeof arena);
  gcol_status st = gcol_detail_arrow_schema_parse(schema, &arena, &type, &field);
  if (st == GCOL_OK && array != NULL) st = gcol_detail_arrow_array_check(array, type, true);
  if (st == GCOL_OK) {
    json_out o = {buf, size, 0};
    put(&o, "{\"type\":");
    put_type(&o, type);
    put(&o, ",\"field\":");
    put_field(&o, field);
    put(&o, "}");
    st = (gcol_status)finish(&o);
  }
  gcol_detail_arrow_array_release(array);
  gcol_detail_arrow_schema_release(schema);
  gcol_detail_arena_free(&arena);
  return (int)st;
}

/* ------------------------------------------------------------------ export */

static int owner_releases;

/* How often an export handed back an import it had taken (once per export). */
int gcol_hshim_owner_releases(void);
int gcol_hshim_owner_releases(void) { return owner_releases; }

static void release_imported(void *imported) {
  ++owner_releases;
  gcol_imported_free((gcol_imported *)imported);
}

/* The import's views exported zero-copy (no CUDA call without BOOL8) with its field's
 * names, time zones and precisions; the array takes the import over, which then releases
 * the producer's array when the consumer releases this one. On failure the import is freed. */
int gcol_hshim_export(void *imported, int as_table, struct ArrowSchema *schema,
                      struct ArrowArray *array);
int gcol_hshim_export(void *imported, int as_table, struct ArrowSchema *schema,
                      struct ArrowArray *array) {
  gcol_imported *imp = (gcol_imported *)imported;
  gcol_column_view const v = gcol_imported_column(imp);
  gcol_table_view const t = gcol_imported_table(imp);
  const gcol_arrow_field *f = gcol_imported_field(imp);
  gcol_status st = as_table ? gcol_arrow_schema_export_table(t, f->children, schema)
                            : gcol_arrow_schema_export_column(v, f, schema);
  if (st == GCOL_OK) {
    st = gcol_detail_arrow_export_tree(v, as_table ? &t : NULL, release_imported, imp, false, array,
                                       NULL, NULL, NULL);
    if (st != GCOL_OK) schema->release(schema);
  }
  if (st != GCOL_OK) gcol_imported_free(imp);
  return (int)st;
}

/* Empty views of a parsed type tree, children allocated in `arena`. */
static bool views_of(const gcol_detail_arrow_type *t, gcol_detail_arena *arena,
                     gcol_column_view *out) {
  *out = gcol_column_view_make(t->type, 0, NULL, NULL, 0);
  bool const offsets = t->layout == GCOL_DETAIL_ARROW_STRING || t->layout == GCOL_DETAIL_ARROW_LIST;
  int32_t const n =
      t->layout == GCOL_DETAIL_ARROW_STRING ? 1
      : t->layout == GCOL_DETAIL_ARROW_LIST || t->layout == GCOL_DETAIL_ARROW_DICTIONARY
          ? 2
          : t->num_children;
  if (n == 0) return true;
  gcol_column_view *kids =
      (gcol_column_view *)gcol_detail_arena_alloc(arena, sizeof *kids * (size_t)n);
  if (kids == NULL) return false;
  out->num_children = n;
  out->children = kids;
  if (offsets || t->layout == GCOL_DETAIL_ARROW_DICTIONARY) { /* offsets or indices first */
    gcol_type_id const id = t->layout == GCOL_DETAIL_ARROW_DICTIONARY ? GCOL_INT32
                            : t->width == 8                           ? GCOL_INT64
                                                                      : GCOL_INT32;
    kids[0] = gcol_column_view_make(gcol_data_type_make(id), 0, NULL, NULL, 0);
    return n == 1 || views_of(&t->children[0], arena, &kids[1]);
  }
  for (int32_t i = 0; i < n; ++i) {
    if (!views_of(&t->children[i], arena, &kids[i])) return false;
  }
  return true;
}

/* A schema parsed by gcol and written back by gcol's schema export (types and fields
 * only: what gcol keeps of it). Consumes `in`. */
int gcol_hshim_schema_round_trip(struct ArrowSchema *in, struct ArrowSchema *out);
int gcol_hshim_schema_round_trip(struct ArrowSchema *in, struct ArrowSchema *out) {
  gcol_detail_arena arena;
  gcol_detail_arrow_type *type = NULL;
  gcol_arrow_field *field = NULL;
  gcol_column_view v;
  memset(&arena, 0, sizeof arena);
  gcol_status st = gcol_detail_arrow_schema_parse(in, &arena, &type, &field);
  if (st == GCOL_OK && !views_of(type, &arena, &v)) st = GCOL_ERROR_OUT_OF_MEMORY;
  if (st == GCOL_OK) st = gcol_arrow_schema_export_column(v, field, out);
  gcol_detail_arrow_schema_release(in);
  gcol_detail_arena_free(&arena);
  return (int)st;
}

/* The schema gcol writes for a type of its own, by gcol_type_name() (a field with a time
 * zone and a precision when they are given). */
int gcol_hshim_type_schema(const char *type_name, int scale, const char *timezone, int precision,
                           struct ArrowSchema *out);
int gcol_hshim_type_schema(const char *type_name, int scale, const char *timezone, int precision,
                           struct ArrowSchema *out) {
  gcol_type_id id;
  gcol_status const st = gcol_type_from_name(type_name, &id);
  if (st != GCOL_OK) return (int)st;
  gcol_data_type const type =
      gcol_type_is_decimal(id) ? gcol_data_type_decimal(id, scale) : gcol_data_type_make(id);
  gcol_arrow_field field = {NULL, timezone, precision, 0, NULL};
  return (int)gcol_arrow_schema_export_column(gcol_column_view_make(type, 0, NULL, NULL, 0), &field,
                                              out);
}
