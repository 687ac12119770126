/* Columns and views: structure, validation, zero-copy slicing, assembly and freeing.
 * Nothing here touches device memory except through gcol_bitmask_* for null counts. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/column.h"
#include "internal/column.h"
#include "internal/error.h"
#include "internal/nvtx.h"
#include "internal/spill.h"

/* The view storage an owning object keeps (a column's child_views, a table's views) is
 * refreshed by every get_view on a const object, so two threads may refresh it at once: a
 * slot is written only when its view changed, under one of a few locks picked by the owner's
 * address. For an object nobody changes, only the first refresh writes, and the lock orders it
 * before every later reader (docs/design.md, "Threads"). No lock is held while a view is
 * computed (it may bring a spilled buffer back, under the spill manager's own lock). */
#define VIEW_LOCKS 64
static pthread_mutex_t view_locks[VIEW_LOCKS];
static pthread_once_t view_locks_once = PTHREAD_ONCE_INIT;

static void view_locks_init(void) {
  for (int i = 0; i < VIEW_LOCKS; ++i) pthread_mutex_init(&view_locks[i], NULL);
}

static bool views_equal(const gcol_column_view *a, const gcol_column_view *b) {
  return a->type.id == b->type.id && a->type.scale == b->type.scale && a->size == b->size &&
         a->offset == b->offset && a->data == b->data && a->null_mask == b->null_mask &&
         a->null_count == b->null_count && a->num_children == b->num_children &&
         a->children == b->children;
}

void gcol_detail_view_store(const void *owner, gcol_column_view *slot,
                            const gcol_column_view *fresh) {
  pthread_once(&view_locks_once, view_locks_init);
  pthread_mutex_t *const lock = &view_locks[((uintptr_t)owner >> 4) % VIEW_LOCKS];
  pthread_mutex_lock(lock);
  if (!views_equal(slot, fresh)) *slot = *fresh;
  pthread_mutex_unlock(lock);
}

/* A buffer's pointer for a view: a spillable buffer is brought back first and pinned or
 * exposed (lib/spill.c); NULL when that fails. */
static const void *buffer_pointer(gcol_buffer *buffer, gcol_detail_spill_access access,
                                  gcol_stream stream, bool sync, gcol_status *status) {
  if (buffer == NULL) return NULL;
  gcol_status const st = gcol_detail_spill_acquire(buffer, access, stream, sync);
  if (st == GCOL_OK) return buffer->data;
  if (*status == GCOL_OK) *status = st;
  return NULL;
}

/* The view of a column, its children's views refreshed (so they follow changes to the
 * children); every buffer goes through `access`. On failure the pointers of the buffers
 * that could not come back are NULL and the first status is returned. */
static gcol_status view_of(const gcol_column *column, gcol_detail_spill_access access,
                           gcol_stream stream, bool sync, gcol_column_view *v) {
  gcol_status status = GCOL_OK;
  memset(v, 0, sizeof *v);
  if (column == NULL) return GCOL_OK;
  for (int32_t i = 0; i < column->num_children; ++i) {
    gcol_column_view child;
    gcol_status const st = view_of(column->children[i], access, stream, sync, &child);
    if (status == GCOL_OK) status = st;
    gcol_detail_view_store(column, &column->child_views[i], &child);
  }
  v->type = column->type;
  v->size = column->size;
  v->offset = 0;
  v->data = buffer_pointer(column->data, access, stream, sync, &status);
  v->null_mask = (const uint32_t *)buffer_pointer(column->null_mask, access, stream, sync, &status);
  v->null_count = column->null_mask != NULL ? column->null_count : 0;
  v->num_children = column->num_children;
  v->children = column->child_views;
  if (column->type.id == GCOL_DICTIONARY32 && column->num_children > 0) {
    /* A dictionary's validity is its indices' validity. */
    v->null_mask = column->child_views[GCOL_DICTIONARY_INDICES_CHILD].null_mask;
    v->null_count = column->child_views[GCOL_DICTIONARY_INDICES_CHILD].null_count;
  }
  return status;
}

gcol_column_view gcol_column_get_view(const gcol_column *column) {
  gcol_column_view v;
  /* Without a stream to order it on, a buffer that comes back is copied and waited for. */
  (void)view_of(column, GCOL_DETAIL_SPILL_VIEW, NULL, true, &v);
  return v;
}

gcol_status gcol_column_acquire_view(const gcol_column *column, gcol_stream stream,
                                     gcol_column_view *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  memset(out, 0, sizeof *out);
  GCOL_DETAIL_REQUIRE(column != NULL, GCOL_ERROR_INVALID_ARGUMENT, "column is NULL");
  gcol_status const status = view_of(column, GCOL_DETAIL_SPILL_VIEW, stream, false, out);
  if (status != GCOL_OK) memset(out, 0, sizeof *out);
  return status;
}

gcol_status gcol_detail_column_spill_expose(const gcol_column *column, gcol_stream stream) {
  gcol_column_view unused;
  return view_of(column, GCOL_DETAIL_SPILL_EXPOSE, stream, false, &unused);
}

gcol_status gcol_column_get_mutable_view(gcol_column *column, gcol_stream stream,
                                         gcol_mutable_column_view *out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  memset(out, 0, sizeof *out);
  GCOL_DETAIL_CHECK_NOT_NULL(column);
  if (column->data != NULL) GCOL_DETAIL_TRY(gcol_buffer_make_mutable(column->data, stream));
  if (column->null_mask != NULL) {
    GCOL_DETAIL_TRY(gcol_buffer_make_mutable(column->null_mask, stream));
  }
  *out = gcol_detail_new_column_mutable_view(column); /* now unique */
done:
  return status;
}

gcol_mutable_column_view gcol_detail_new_column_mutable_view(gcol_column *column) {
  gcol_mutable_column_view v;
  memset(&v, 0, sizeof v);
  if (column == NULL) return v;
  v.type = column->type;
  v.size = column->size;
  v.data = column->data != NULL ? column->data->data : NULL;
  v.null_mask = column->null_mask != NULL ? (uint32_t *)column->null_mask->data : NULL;
  v.null_count = v.null_mask != NULL ? column->null_count : 0;
  return v;
}

/* Applies a buffer's write access (make mutable or expose) to every buffer of a column. */
typedef gcol_status (*buffer_access)(gcol_buffer *buffer, gcol_stream stream);

static gcol_status expose_one(gcol_buffer *buffer, gcol_stream stream) {
  void *unused = NULL;
  return gcol_buffer_expose(buffer, stream, &unused);
}

static gcol_status for_each_buffer(gcol_column *column, buffer_access access, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  if (column->data != NULL) GCOL_DETAIL_TRY(access(column->data, stream));
  if (column->null_mask != NULL) GCOL_DETAIL_TRY(access(column->null_mask, stream));
  for (int32_t i = 0; i < column->num_children; ++i) {
    GCOL_DETAIL_TRY(for_each_buffer(column->children[i], access, stream));
  }
done:
  return status;
}

gcol_status gcol_column_make_mutable(gcol_column *column, gcol_stream stream) {
  GCOL_DETAIL_REQUIRE(column != NULL, GCOL_ERROR_INVALID_ARGUMENT, "column is NULL");
  return for_each_buffer(column, gcol_buffer_make_mutable, stream);
}

gcol_status gcol_column_expose(gcol_column *column, gcol_stream stream) {
  GCOL_DETAIL_REQUIRE(column != NULL, GCOL_ERROR_INVALID_ARGUMENT, "column is NULL");
  return for_each_buffer(column, expose_one, stream);
}

/* Checks the children a type needs; rows of the children are not read. */
static gcol_status validate_children(gcol_column_view v, const char *what) {
  int32_t const needed = v.type.id == GCOL_STRING                                   ? 1
                         : v.type.id == GCOL_LIST || v.type.id == GCOL_DICTIONARY32 ? 2
                                                                                    : -1;
  if (needed < 0) return GCOL_OK; /* fixed-width, STRUCT, EMPTY: any number of children */
  if (v.size == 0 && v.num_children == 0) return GCOL_OK;
  GCOL_DETAIL_REQUIRE(v.num_children >= needed && v.children != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: %s column of %lld rows needs %d children", what,
                      gcol_type_name(v.type.id), (long long)v.size, (int)needed);
  if (v.type.id != GCOL_DICTIONARY32) {
    gcol_type_id const off = v.children[GCOL_OFFSETS_CHILD].type.id;
    GCOL_DETAIL_REQUIRE(off == GCOL_INT32 || off == GCOL_INT64, GCOL_ERROR_TYPE_MISMATCH,
                        "%s: offsets must be INT32 or INT64, not %s", what, gcol_type_name(off));
    GCOL_DETAIL_REQUIRE(v.size == 0 || v.children[GCOL_OFFSETS_CHILD].size >= v.offset + v.size + 1,
                        GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: offsets child has %lld rows, needs offset + size + 1 = %lld", what,
                        (long long)v.children[GCOL_OFFSETS_CHILD].size,
                        (long long)(v.offset + v.size + 1));
  }
  return GCOL_OK;
}

static gcol_status column_view_validate(gcol_column_view view, const char *what) {
  if (what == NULL) what = "column";
  GCOL_DETAIL_REQUIRE(gcol_type_id_is_valid(view.type.id), GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: invalid type id %d", what, (int)view.type.id);
  GCOL_DETAIL_REQUIRE(view.size >= 0 && view.offset >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: negative size (%lld) or offset (%lld)", what, (long long)view.size,
                      (long long)view.offset);
  GCOL_DETAIL_REQUIRE(view.num_children >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: negative number of children", what);
  GCOL_DETAIL_REQUIRE(view.null_count >= GCOL_UNKNOWN_NULL_COUNT && view.null_count <= view.size,
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: null count %lld out of range [-1, %lld]",
                      what, (long long)view.null_count, (long long)view.size);
  GCOL_DETAIL_REQUIRE(view.null_mask != NULL || view.null_count <= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: %lld nulls but no null mask", what, (long long)view.null_count);
  if (gcol_type_is_fixed_width(view.type.id)) {
    GCOL_DETAIL_REQUIRE(view.size == 0 || view.data != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: %lld rows of %s but data is NULL", what, (long long)view.size,
                        gcol_type_name(view.type.id));
  }
  return validate_children(view, what);
}

gcol_status gcol_column_view_validate(gcol_column_view view, const char *what) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_view_validate");
  gcol_status const status = column_view_validate(view, what);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_view_slice(gcol_column_view view, int64_t begin, int64_t end,
                                     gcol_column_view *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(begin >= 0 && begin <= end && end <= view.size, GCOL_ERROR_INVALID_ARGUMENT,
                      "slice [%lld, %lld) out of range for %lld rows", (long long)begin,
                      (long long)end, (long long)view.size);
  *out = view;
  out->offset = view.offset + begin;
  out->size = end - begin;
  if (view.null_mask == NULL || view.null_count == 0) {
    out->null_count = 0;
  } else if (begin == 0 && end == view.size) {
    out->null_count = view.null_count;
  } else {
    out->null_count = out->size == 0 ? 0 : GCOL_UNKNOWN_NULL_COUNT;
  }
  return GCOL_OK;
}

gcol_status gcol_column_view_slice(gcol_column_view view, int64_t begin, int64_t end,
                                   gcol_column_view *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_view_slice");
  gcol_status const status = column_view_slice(view, begin, end, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_view_split(gcol_column_view view, const int64_t *splits,
                                     int32_t num_splits, gcol_column_view *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(num_splits >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_splits is negative");
  GCOL_DETAIL_REQUIRE(splits != NULL || num_splits == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "splits is NULL");
  for (int32_t i = 0; i < num_splits; ++i) {
    int64_t const prev = i == 0 ? 0 : splits[i - 1];
    GCOL_DETAIL_REQUIRE(splits[i] >= prev && splits[i] <= view.size, GCOL_ERROR_INVALID_ARGUMENT,
                        "split %d (%lld) is below the previous one or past %lld rows", (int)i,
                        (long long)splits[i], (long long)view.size);
  }
  for (int32_t i = 0; i <= num_splits; ++i) {
    int64_t const begin = i == 0 ? 0 : splits[i - 1];
    int64_t const end = i == num_splits ? view.size : splits[i];
    gcol_status const st = gcol_column_view_slice(view, begin, end, &out[i]);
    if (st != GCOL_OK) return st;
  }
  return GCOL_OK;
}

gcol_status gcol_column_view_split(gcol_column_view view, const int64_t *splits, int32_t num_splits,
                                   gcol_column_view *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_view_split");
  gcol_status const status = column_view_split(view, splits, num_splits, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_view_null_count(gcol_column_view view, gcol_stream stream, int64_t *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  if (view.null_mask == NULL || view.size == 0) {
    *out = 0;
    return GCOL_OK;
  }
  if (view.null_count != GCOL_UNKNOWN_NULL_COUNT) {
    *out = view.null_count;
    return GCOL_OK;
  }
  return gcol_bitmask_count_unset_bits(view.null_mask, view.offset, view.offset + view.size, stream,
                                       out);
}

gcol_status gcol_column_view_null_count(gcol_column_view view, gcol_stream stream, int64_t *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_view_null_count");
  gcol_status const status = column_view_null_count(view, stream, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- owning columns ---- */

/* Checks that parts fit the type's layout before a column takes ownership of them. */
static gcol_status check_parts(gcol_data_type type, int64_t size, const gcol_buffer *data,
                               const gcol_buffer *null_mask, int64_t null_count,
                               gcol_column *const *children, int32_t num_children) {
  GCOL_DETAIL_REQUIRE(gcol_type_id_is_valid(type.id), GCOL_ERROR_INVALID_ARGUMENT,
                      "invalid type id %d", (int)type.id);
  GCOL_DETAIL_REQUIRE(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                      (long long)size);
  GCOL_DETAIL_REQUIRE(null_count >= 0 && null_count <= size, GCOL_ERROR_INVALID_ARGUMENT,
                      "null count %lld out of range for %lld rows", (long long)null_count,
                      (long long)size);
  GCOL_DETAIL_REQUIRE(null_mask != NULL || null_count == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%lld nulls but no null mask", (long long)null_count);
  GCOL_DETAIL_REQUIRE(null_mask == NULL || null_mask->size >= (size_t)gcol_bit_num_words(size) * 4,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "null mask of %zu bytes is too small for %lld rows",
                      null_mask == NULL ? (size_t)0 : null_mask->size, (long long)size);
  GCOL_DETAIL_REQUIRE(num_children >= 0 && (children != NULL || num_children == 0),
                      GCOL_ERROR_INVALID_ARGUMENT, "children is NULL for %d children",
                      (int)num_children);
  for (int32_t i = 0; i < num_children; ++i) {
    GCOL_DETAIL_REQUIRE(children[i] != NULL, GCOL_ERROR_INVALID_ARGUMENT, "child %d is NULL",
                        (int)i);
  }
  size_t const width = gcol_type_size(type.id);
  if (width > 0) {
    GCOL_DETAIL_REQUIRE(size == 0 || (data != NULL && data->size >= (size_t)size * width),
                        GCOL_ERROR_INVALID_ARGUMENT, "data buffer too small for %lld rows of %s",
                        (long long)size, gcol_type_name(type.id));
  }
  return GCOL_OK;
}

static gcol_status column_make(gcol_data_type type, int64_t size, gcol_buffer *data,
                               gcol_buffer *null_mask, int64_t null_count, gcol_column **children,
                               int32_t num_children, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_parts(type, size, data, null_mask, null_count, children, num_children));
  col = (gcol_column *)calloc(1, sizeof *col);
  GCOL_DETAIL_CHECK(col != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a column struct");
  if (num_children > 0) {
    col->children = (gcol_column **)calloc((size_t)num_children, sizeof *col->children);
    col->child_views = (gcol_column_view *)calloc((size_t)num_children, sizeof *col->child_views);
    GCOL_DETAIL_CHECK(col->children != NULL && col->child_views != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "cannot allocate %d children", (int)num_children);
    memcpy(col->children, children, sizeof *children * (size_t)num_children);
  }
  col->type = type;
  col->size = size;
  col->data = data;
  col->null_mask = null_mask;
  col->null_count = null_mask != NULL ? null_count : 0;
  col->num_children = num_children;
  *out = col;
  col = NULL;
done:
  if (col != NULL) {
    free(col->children);
    free(col->child_views);
    free(col);
  }
  return status;
}

gcol_status gcol_column_make(gcol_data_type type, int64_t size, gcol_buffer *data,
                             gcol_buffer *null_mask, int64_t null_count, gcol_column **children,
                             int32_t num_children, gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_make");
  gcol_status const status =
      column_make(type, size, data, null_mask, null_count, children, num_children, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_make_strings(int64_t size, gcol_column *offsets, gcol_buffer *chars,
                                       gcol_buffer *null_mask, int64_t null_count,
                                       gcol_column **out) {
  GCOL_DETAIL_REQUIRE(offsets != NULL, GCOL_ERROR_INVALID_ARGUMENT, "offsets is NULL");
  GCOL_DETAIL_REQUIRE(offsets->type.id == GCOL_INT32 || offsets->type.id == GCOL_INT64,
                      GCOL_ERROR_TYPE_MISMATCH, "offsets must be INT32 or INT64, not %s",
                      gcol_type_name(offsets->type.id));
  GCOL_DETAIL_REQUIRE(offsets->size == size + 1 || (size == 0 && offsets->size == 0),
                      GCOL_ERROR_SIZE_MISMATCH, "offsets have %lld rows for %lld strings",
                      (long long)offsets->size, (long long)size);
  return gcol_column_make(gcol_data_type_make(GCOL_STRING), size, chars, null_mask, null_count,
                          &offsets, 1, out);
}

gcol_status gcol_column_make_strings(int64_t size, gcol_column *offsets, gcol_buffer *chars,
                                     gcol_buffer *null_mask, int64_t null_count,
                                     gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_make_strings");
  gcol_status const status = column_make_strings(size, offsets, chars, null_mask, null_count, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_make_list(int64_t size, gcol_column *offsets, gcol_column *values,
                                    gcol_buffer *null_mask, int64_t null_count, gcol_column **out) {
  GCOL_DETAIL_REQUIRE(offsets != NULL && values != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                      offsets == NULL ? "offsets" : "values");
  GCOL_DETAIL_REQUIRE(offsets->type.id == GCOL_INT32 || offsets->type.id == GCOL_INT64,
                      GCOL_ERROR_TYPE_MISMATCH, "offsets must be INT32 or INT64, not %s",
                      gcol_type_name(offsets->type.id));
  GCOL_DETAIL_REQUIRE(offsets->size == size + 1 || (size == 0 && offsets->size == 0),
                      GCOL_ERROR_SIZE_MISMATCH, "offsets have %lld rows for %lld lists",
                      (long long)offsets->size, (long long)size);
  gcol_column *children[2] = {offsets, values};
  return gcol_column_make(gcol_data_type_make(GCOL_LIST), size, NULL, null_mask, null_count,
                          children, 2, out);
}

gcol_status gcol_column_make_list(int64_t size, gcol_column *offsets, gcol_column *values,
                                  gcol_buffer *null_mask, int64_t null_count, gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_make_list");
  gcol_status const status = column_make_list(size, offsets, values, null_mask, null_count, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_make_struct(int64_t size, gcol_column **fields, int32_t num_fields,
                                      gcol_buffer *null_mask, int64_t null_count,
                                      gcol_column **out) {
  for (int32_t i = 0; i < num_fields && fields != NULL; ++i) {
    GCOL_DETAIL_REQUIRE(fields[i] != NULL, GCOL_ERROR_INVALID_ARGUMENT, "field %d is NULL", (int)i);
    GCOL_DETAIL_REQUIRE(fields[i]->size == size, GCOL_ERROR_SIZE_MISMATCH,
                        "field %d has %lld rows, the struct %lld", (int)i,
                        (long long)fields[i]->size, (long long)size);
  }
  return gcol_column_make(gcol_data_type_make(GCOL_STRUCT), size, NULL, null_mask, null_count,
                          fields, num_fields, out);
}

gcol_status gcol_column_make_struct(int64_t size, gcol_column **fields, int32_t num_fields,
                                    gcol_buffer *null_mask, int64_t null_count, gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_make_struct");
  gcol_status const status =
      column_make_struct(size, fields, num_fields, null_mask, null_count, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_make_dictionary(gcol_column *indices, gcol_column *keys,
                                          gcol_column **out) {
  GCOL_DETAIL_REQUIRE(indices != NULL && keys != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                      indices == NULL ? "indices" : "keys");
  GCOL_DETAIL_REQUIRE(indices->type.id == GCOL_INT32, GCOL_ERROR_TYPE_MISMATCH,
                      "dictionary indices must be INT32, not %s", gcol_type_name(indices->type.id));
  gcol_column *children[2] = {indices, keys};
  /* The dictionary's validity is its indices' validity: share it by reference in views. */
  return gcol_column_make(gcol_data_type_make(GCOL_DICTIONARY32), indices->size, NULL, NULL, 0,
                          children, 2, out);
}

gcol_status gcol_column_make_dictionary(gcol_column *indices, gcol_column *keys,
                                        gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_make_dictionary");
  gcol_status const status = column_make_dictionary(indices, keys, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_set_null_mask(gcol_column *column, gcol_buffer *null_mask,
                                        int64_t null_count) {
  GCOL_DETAIL_REQUIRE(column != NULL, GCOL_ERROR_INVALID_ARGUMENT, "column is NULL");
  GCOL_DETAIL_REQUIRE(null_count >= 0 && null_count <= column->size, GCOL_ERROR_INVALID_ARGUMENT,
                      "null count %lld out of range for %lld rows", (long long)null_count,
                      (long long)column->size);
  GCOL_DETAIL_REQUIRE(null_mask != NULL || null_count == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%lld nulls but no null mask", (long long)null_count);
  GCOL_DETAIL_REQUIRE(
      null_mask == NULL || null_mask->size >= (size_t)gcol_bit_num_words(column->size) * 4,
      GCOL_ERROR_INVALID_ARGUMENT, "null mask too small for %lld rows", (long long)column->size);
  if (column->null_mask != null_mask) gcol_buffer_free(column->null_mask);
  column->null_mask = null_mask;
  column->null_count = null_count;
  return GCOL_OK;
}

gcol_status gcol_column_set_null_mask(gcol_column *column, gcol_buffer *null_mask,
                                      int64_t null_count) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_set_null_mask");
  gcol_status const status = column_set_null_mask(column, null_mask, null_count);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status column_set_null_count(gcol_column *column, int64_t null_count) {
  GCOL_DETAIL_REQUIRE(column != NULL, GCOL_ERROR_INVALID_ARGUMENT, "column is NULL");
  GCOL_DETAIL_REQUIRE(null_count >= 0 && null_count <= column->size, GCOL_ERROR_INVALID_ARGUMENT,
                      "null count %lld out of range for %lld rows", (long long)null_count,
                      (long long)column->size);
  GCOL_DETAIL_REQUIRE(column->null_mask != NULL || null_count == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%lld nulls but the column has no null mask", (long long)null_count);
  column->null_count = null_count;
  return GCOL_OK;
}

gcol_status gcol_column_set_null_count(gcol_column *column, int64_t null_count) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_set_null_count");
  gcol_status const status = column_set_null_count(column, null_count);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_column_free(gcol_column *column) {
  if (column == NULL) return;
  for (int32_t i = 0; i < column->num_children; ++i) gcol_column_free(column->children[i]);
  free(column->children);
  free(column->child_views);
  gcol_buffer_free(column->data);
  gcol_buffer_free(column->null_mask);
  free(column);
}

static gcol_status column_copy_shallow(const gcol_column *column, gcol_stream stream,
                                       gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *copy = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(column);
  copy = (gcol_column *)calloc(1, sizeof *copy);
  GCOL_DETAIL_CHECK(copy != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a column struct");
  copy->type = column->type;
  copy->size = column->size;
  copy->null_count = column->null_count;
  if (column->num_children > 0) {
    size_t const n = (size_t)column->num_children;
    copy->children = (gcol_column **)calloc(n, sizeof *copy->children);
    copy->child_views = (gcol_column_view *)calloc(n, sizeof *copy->child_views);
    GCOL_DETAIL_CHECK(copy->children != NULL && copy->child_views != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "cannot allocate %d children", (int)column->num_children);
    /* num_children counts the children made so far, so a failure frees exactly those */
    for (int32_t i = 0; i < column->num_children; ++i) {
      GCOL_DETAIL_TRY(gcol_column_copy_shallow(column->children[i], stream, &copy->children[i]));
      copy->num_children = i + 1;
    }
  }
  if (column->data != NULL) {
    GCOL_DETAIL_TRY(gcol_buffer_copy_shallow(column->data, stream, &copy->data));
  }
  if (column->null_mask != NULL) {
    GCOL_DETAIL_TRY(gcol_buffer_copy_shallow(column->null_mask, stream, &copy->null_mask));
  }
  *out = copy;
  copy = NULL;
done:
  gcol_column_free(copy);
  return status;
}

gcol_status gcol_column_copy_shallow(const gcol_column *column, gcol_stream stream,
                                     gcol_column **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_column_copy_shallow");
  gcol_status const status = column_copy_shallow(column, stream, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
