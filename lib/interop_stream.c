/* Arrow C Stream Interfaces: a table handed over in chunks of rows, copied to the host per
 * chunk (ArrowArrayStream) or exported zero-copy per chunk (ArrowDeviceArrayStream). */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/error.h"
#include "internal/interop.h"
#include "internal/nvtx.h"

/* The caller's owner, released once the stream and every chunk that uses it are released. */
typedef struct shared_owner {
  atomic_int_fast64_t refs;
  void (*release)(void *owner);
  void *owner;
} shared_owner;

static void shared_unref(void *p) {
  shared_owner *s = (shared_owner *)p;
  if (atomic_fetch_sub(&s->refs, 1) != 1) return;
  if (s->release != NULL) s->release(s->owner);
  free(s);
}

typedef struct stream_state {
  gcol_detail_arena arena;   /* columns, slice storage, fields */
  gcol_column_view *columns;
  gcol_column_view *slice;
  gcol_table_view table;
  gcol_arrow_field *fields;
  int64_t chunk_rows;
  int64_t next_row;
  gcol_stream stream;
  gcol_mr *mr;
  shared_owner *owner;
  char error[512];
} stream_state;

/* errno codes of the stream interface from a status, keeping gcol's message. */
static int stream_error(stream_state *s, gcol_status st) {
  if (st == GCOL_OK) return 0;
  snprintf(s->error, sizeof s->error, "%s: %s", gcol_status_string(st), gcol_last_error());
  return st == GCOL_ERROR_OUT_OF_MEMORY ? ENOMEM : st == GCOL_ERROR_INVALID_ARGUMENT ? EINVAL : EIO;
}

/* The next chunk's rows as a table view, or false at the end. */
static bool next_slice(stream_state *s, gcol_table_view *out) {
  if (s->next_row >= s->table.num_rows) return false;
  int64_t const end = s->table.num_rows - s->next_row < s->chunk_rows ? s->table.num_rows
                                                                      : s->next_row + s->chunk_rows;
  gcol_table_view_slice(s->table, s->next_row, end, s->slice, out);
  s->next_row = end;
  return true;
}

static void state_free(stream_state *s) {
  if (s == NULL) return;
  if (s->owner != NULL) shared_unref(s->owner);
  gcol_detail_arena_free(&s->arena);
  free(s);
}

/* ---- host stream ---- */

static int host_get_schema(struct ArrowArrayStream *self, struct ArrowSchema *out) {
  stream_state *s = (stream_state *)self->private_data;
  return stream_error(s, gcol_arrow_schema_export_table(s->table, s->fields, out));
}

static int host_get_next(struct ArrowArrayStream *self, struct ArrowArray *out) {
  stream_state *s = (stream_state *)self->private_data;
  gcol_table_view chunk;
  if (!next_slice(s, &chunk)) {
    memset(out, 0, sizeof *out); /* released: the end */
    return 0;
  }
  return stream_error(s, gcol_arrow_export_table(chunk, out, s->stream, s->mr));
}

static const char *host_get_last_error(struct ArrowArrayStream *self) {
  return ((stream_state *)self->private_data)->error;
}

static void host_release(struct ArrowArrayStream *self) {
  state_free((stream_state *)self->private_data);
  self->release = NULL;
}

/* ---- device stream ---- */

static int device_get_schema(struct ArrowDeviceArrayStream *self, struct ArrowSchema *out) {
  stream_state *s = (stream_state *)self->private_data;
  return stream_error(s, gcol_arrow_schema_export_table(s->table, s->fields, out));
}

static int device_get_next(struct ArrowDeviceArrayStream *self, struct ArrowDeviceArray *out) {
  stream_state *s = (stream_state *)self->private_data;
  gcol_table_view chunk;
  if (!next_slice(s, &chunk)) {
    memset(out, 0, sizeof *out);
    return 0;
  }
  atomic_fetch_add(&s->owner->refs, 1); /* the chunk's reference */
  gcol_status const st =
      gcol_arrow_device_export_table(chunk, shared_unref, s->owner, out, s->stream, s->mr);
  if (st != GCOL_OK) shared_unref(s->owner);
  return stream_error(s, st);
}

static const char *device_get_last_error(struct ArrowDeviceArrayStream *self) {
  return ((stream_state *)self->private_data)->error;
}

static void device_release(struct ArrowDeviceArrayStream *self) {
  state_free((stream_state *)self->private_data);
  self->release = NULL;
}

/* ---- creation ---- */

/* The state both streams share: a copy of the column views and the fields. */
static gcol_status state_make(gcol_table_view table, const gcol_arrow_field *fields,
                              int64_t chunk_rows, void (*release_owner)(void *owner), void *owner,
                              gcol_stream stream, gcol_mr *mr, stream_state **out) {
  gcol_status status = GCOL_OK;
  stream_state *s = NULL;
  GCOL_DETAIL_CHECK(chunk_rows > 0, GCOL_ERROR_INVALID_ARGUMENT, "chunk_rows is %lld",
                    (long long)chunk_rows);
  GCOL_DETAIL_CHECK(table.num_columns >= 0 && (table.columns != NULL || table.num_columns == 0),
                    GCOL_ERROR_INVALID_ARGUMENT, "table has no column array");
  for (int32_t i = 0; i < table.num_columns; ++i) {
    GCOL_DETAIL_TRY(gcol_column_view_validate(table.columns[i], "table column"));
  }
  s = (stream_state *)calloc(1, sizeof *s);
  GCOL_DETAIL_CHECK(s != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a stream");
  size_t const bytes = sizeof(gcol_column_view) * (size_t)table.num_columns;
  s->columns = (gcol_column_view *)gcol_detail_arena_alloc(&s->arena, bytes);
  s->slice = (gcol_column_view *)gcol_detail_arena_alloc(&s->arena, bytes);
  s->fields = gcol_detail_arrow_fields_copy(fields, table.num_columns, &s->arena);
  s->owner = (shared_owner *)calloc(1, sizeof *s->owner);
  GCOL_DETAIL_CHECK(s->columns != NULL && s->slice != NULL && s->owner != NULL &&
                        (fields == NULL || table.num_columns == 0 || s->fields != NULL),
                    GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a stream");
  if (bytes > 0) memcpy(s->columns, table.columns, bytes);
  s->table = table;
  s->table.columns = s->columns;
  s->chunk_rows = chunk_rows;
  s->stream = stream;
  s->mr = mr;
  atomic_init(&s->owner->refs, 1);
  *out = s;
  s->owner->release = release_owner; /* only on success: a failure leaves the owner alone */
  s->owner->owner = owner;
  s = NULL;
done:
  state_free(s);
  return status;
}

static gcol_status arrow_stream_export_table(gcol_table_view table, const gcol_arrow_field *fields,
                                             int64_t chunk_rows, void (*release_owner)(void *owner),
                                             void *owner, struct ArrowArrayStream *out,
                                             gcol_stream stream, gcol_mr *host_mr) {
  stream_state *s = NULL;
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(host_mr == NULL || host_mr->kind != GCOL_MEMORY_DEVICE,
                      GCOL_ERROR_INVALID_ARGUMENT, "host_mr allocates device memory");
  GCOL_DETAIL_TRY_RETURN(
      state_make(table, fields, chunk_rows, release_owner, owner, stream, host_mr, &s));
  out->get_schema = host_get_schema;
  out->get_next = host_get_next;
  out->get_last_error = host_get_last_error;
  out->release = host_release;
  out->private_data = s;
  return GCOL_OK;
}

gcol_status gcol_arrow_stream_export_table(gcol_table_view table, const gcol_arrow_field *fields,
                                           int64_t chunk_rows, void (*release_owner)(void *owner),
                                           void *owner, struct ArrowArrayStream *out,
                                           gcol_stream stream, gcol_mr *host_mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_stream_export_table");
  gcol_status const status = arrow_stream_export_table(table, fields, chunk_rows, release_owner,
                                                       owner, out, stream, host_mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_device_stream_export_table(gcol_table_view table,
                                                    const gcol_arrow_field *fields,
                                                    int64_t chunk_rows,
                                                    void (*release_owner)(void *owner), void *owner,
                                                    struct ArrowDeviceArrayStream *out,
                                                    gcol_stream stream, gcol_mr *mr) {
  stream_state *s = NULL;
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_TRY_RETURN(state_make(table, fields, chunk_rows, release_owner, owner, stream, mr, &s));
  out->device_type = ARROW_DEVICE_CUDA;
  out->get_schema = device_get_schema;
  out->get_next = device_get_next;
  out->get_last_error = device_get_last_error;
  out->release = device_release;
  out->private_data = s;
  return GCOL_OK;
}

gcol_status gcol_arrow_device_stream_export_table(gcol_table_view table,
                                                  const gcol_arrow_field *fields,
                                                  int64_t chunk_rows,
                                                  void (*release_owner)(void *owner), void *owner,
                                                  struct ArrowDeviceArrayStream *out,
                                                  gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_stream_export_table");
  gcol_status const status = arrow_device_stream_export_table(
      table, fields, chunk_rows, release_owner, owner, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
