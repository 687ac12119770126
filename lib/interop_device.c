/* Arrow C Device Data Interface: zero-copy export (ArrowArray nodes over gcol's buffers,
 * kept alive by a shared, reference-counted holder) and zero-copy import (gcol views over
 * the producer's buffers, owned by a gcol_imported). */
#include <cuda_runtime_api.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/bitmask.h"
#include "gcol/cast.h"
#include "internal/column.h"
#include "internal/error.h"
#include "internal/interop.h"
#include "internal/nvtx.h"
#include "internal/spill.h"

/* ---- export ---- */

/* What every node of one export shares: the owner, converted buffers and the sync event.
 * Each node holds a reference, so children moved out by the consumer keep it alive. */
typedef struct export_holder {
  atomic_int_fast64_t refs;
  void (*release_owner)(void *owner);
  void *owner;
  gcol_buffer **buffers;
  int32_t num_buffers;
  int32_t capacity;
  bool has_event;
  cudaEvent_t event;
} export_holder;

static void holder_unref(export_holder *h) {
  if (atomic_fetch_sub(&h->refs, 1) != 1) return;
  if (h->has_event) cudaEventDestroy(h->event);
  for (int32_t i = 0; i < h->num_buffers; ++i) gcol_buffer_free(h->buffers[i]);
  if (h->release_owner != NULL) h->release_owner(h->owner);
  free(h->buffers);
  free(h);
}

static gcol_status holder_keep(export_holder *h, gcol_buffer *buffer) {
  /* The exported array points into it until the consumer releases it: never spilled. */
  gcol_status const exposed =
      gcol_detail_spill_acquire(buffer, GCOL_DETAIL_SPILL_EXPOSE, buffer->stream, false);
  if (exposed != GCOL_OK) {
    gcol_buffer_free(buffer);
    return exposed;
  }
  if (h->num_buffers == h->capacity) {
    int32_t const cap = h->capacity == 0 ? 4 : h->capacity * 2;
    gcol_buffer **b = (gcol_buffer **)realloc(h->buffers, sizeof *b * (size_t)cap);
    if (b == NULL) {
      gcol_buffer_free(buffer);
      return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot keep a buffer");
    }
    h->buffers = b;
    h->capacity = cap;
  }
  h->buffers[h->num_buffers++] = buffer;
  return GCOL_OK;
}

typedef struct export_node {
  export_holder *holder;
  const void *buffers[3];
  gcol_detail_arrow_children kids;
  struct ArrowArray dictionary;
} export_node;

static void export_node_release(struct ArrowArray *a) {
  export_node *node = (export_node *)a->private_data;
  for (int64_t i = 0; i < a->n_children; ++i) gcol_detail_arrow_array_release(a->children[i]);
  gcol_detail_arrow_array_release(a->dictionary);
  export_holder *h = node->holder;
  gcol_detail_arrow_children_free(&node->kids);
  free(node);
  a->release = NULL;
  holder_unref(h);
}

/* A node with n (not yet built) children; releasing `out` is safe from here on. */
static gcol_status node_make(export_holder *h, int64_t n, struct ArrowArray *out,
                             export_node **out_node) {
  export_node *node = (export_node *)calloc(1, sizeof *node);
  if (node == NULL || !gcol_detail_arrow_children_alloc(n, &node->kids)) {
    free(node);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot allocate an array");
  }
  node->holder = h;
  atomic_fetch_add(&h->refs, 1);
  memset(out, 0, sizeof *out);
  out->n_children = n;
  out->children = node->kids.ptrs;
  out->buffers = node->buffers;
  out->release = export_node_release;
  out->private_data = node;
  *out_node = node;
  return GCOL_OK;
}

/* The offsets of a STRING or LIST view as Arrow wants them: the child's own offset applied
 * to the pointer (the parent's stays Arrow's offset). NULL without an offsets child. */
static const void *offsets_pointer(gcol_column_view v) {
  if (v.num_children <= GCOL_OFFSETS_CHILD || v.children == NULL) return NULL;
  gcol_column_view const o = v.children[GCOL_OFFSETS_CHILD];
  if (o.data == NULL) return NULL;
  return (const char *)o.data + o.offset * (int64_t)gcol_type_size(o.type.id);
}

/* BOOL8 rows as Arrow bits at offset 0 (and the mask moved to offset 0 when sliced). */
static gcol_status export_bools(export_holder *h, gcol_column_view v, struct ArrowArray *out,
                                export_node *node, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *bits = NULL;
  gcol_buffer *mask = NULL;
  GCOL_DETAIL_TRY(gcol_buffer_create(gcol_bitmask_allocation_size(v.size), stream, mr, &bits));
  GCOL_DETAIL_TRY(gcol_detail_interop_pack_bools((const uint8_t *)v.data + v.offset, v.size,
                                                 (uint32_t *)bits->data, stream));
  if (v.null_mask != NULL && v.offset != 0) {
    GCOL_DETAIL_TRY(gcol_bitmask_copy(v.null_mask, v.offset, v.offset + v.size, stream, mr, &mask));
    node->buffers[0] = mask->data;
  }
  node->buffers[1] = bits->data;
  out->offset = 0;
  status = holder_keep(h, bits);
  bits = NULL;
  if (status == GCOL_OK && mask != NULL) status = holder_keep(h, mask);
  mask = NULL;
done:
  gcol_buffer_free(bits);
  gcol_buffer_free(mask);
  return status;
}

/* An 8-byte zeroed device buffer: the offsets of an empty STRING or LIST without any. */
static gcol_status export_empty_offsets(export_holder *h, export_node *node, gcol_stream stream,
                                        gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *zeros = NULL;
  GCOL_DETAIL_TRY(gcol_buffer_create(8, stream, mr, &zeros));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(zeros->data, 0, 8, (cudaStream_t)stream));
  node->buffers[1] = zeros->data;
  status = holder_keep(h, zeros);
  zeros = NULL;
done:
  gcol_buffer_free(zeros);
  return status;
}

static gcol_status build_node(export_holder *h, gcol_column_view v, struct ArrowArray *out,
                              gcol_stream stream, gcol_mr *mr);

/* Children of a node: list values, struct fields, dictionary keys. */
static gcol_status build_children(export_holder *h, gcol_column_view v, struct ArrowArray *out,
                                  export_node *node, gcol_stream stream, gcol_mr *mr) {
  for (int64_t i = 0; i < out->n_children; ++i) {
    gcol_column_view const child =
        v.type.id == GCOL_LIST ? v.children[GCOL_LIST_VALUES_CHILD] : v.children[i];
    GCOL_DETAIL_TRY_RETURN(build_node(h, child, &node->kids.arrays[i], stream, mr));
  }
  if (v.type.id == GCOL_DICTIONARY32) {
    GCOL_DETAIL_TRY_RETURN(
        build_node(h, v.children[GCOL_DICTIONARY_KEYS_CHILD], &node->dictionary, stream, mr));
    out->dictionary = &node->dictionary;
  }
  return GCOL_OK;
}

/* The buffers of one node by type. */
static gcol_status fill_buffers(export_holder *h, gcol_column_view v, struct ArrowArray *out,
                                export_node *node, gcol_stream stream, gcol_mr *mr) {
  gcol_type_id const id = v.type.id;
  node->buffers[0] = v.null_mask;
  if (id == GCOL_EMPTY) {
    out->n_buffers = 0;
    out->null_count = v.size;
  } else if (id == GCOL_BOOL8) {
    out->n_buffers = 2;
    return v.size == 0 ? GCOL_OK : export_bools(h, v, out, node, stream, mr);
  } else if (gcol_type_is_fixed_width(id)) {
    out->n_buffers = 2;
    node->buffers[1] = v.data;
  } else if (id == GCOL_STRING || id == GCOL_LIST) {
    out->n_buffers = id == GCOL_STRING ? 3 : 2;
    node->buffers[1] = offsets_pointer(v);
    node->buffers[2] = v.data;
    if (node->buffers[1] == NULL) return export_empty_offsets(h, node, stream, mr);
  } else if (id == GCOL_STRUCT) {
    out->n_buffers = 1;
  } else if (id == GCOL_DICTIONARY32) {
    gcol_column_view const idx = v.children[GCOL_DICTIONARY_INDICES_CHILD];
    out->n_buffers = 2;
    node->buffers[1] = idx.data == NULL ? NULL : (const int32_t *)idx.data + idx.offset;
  } else {
    return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__, "%s has no Arrow type",
                             gcol_type_name(id));
  }
  return GCOL_OK;
}

static gcol_status build_node(export_holder *h, gcol_column_view v, struct ArrowArray *out,
                              gcol_stream stream, gcol_mr *mr) {
  export_node *node = NULL;
  int64_t const n = v.type.id == GCOL_LIST ? 1 : v.type.id == GCOL_STRUCT ? v.num_children : 0;
  GCOL_DETAIL_REQUIRE(v.type.id != GCOL_DURATION_DAYS, GCOL_ERROR_UNSUPPORTED,
                      "duration[D] has no Arrow type");
  GCOL_DETAIL_TRY_RETURN(node_make(h, n, out, &node));
  out->length = v.size;
  out->offset = v.offset;
  out->null_count = v.null_mask == NULL ? 0 : v.null_count;
  gcol_status st = fill_buffers(h, v, out, node, stream, mr);
  if (st == GCOL_OK) st = build_children(h, v, out, node, stream, mr);
  if (st != GCOL_OK) out->release(out);
  return st;
}

/* A table as a struct view (the columns are its fields). */
static gcol_column_view table_as_struct(gcol_table_view t) {
  gcol_column_view v = gcol_column_view_make(gcol_data_type_make(GCOL_STRUCT), t.num_rows, NULL,
                                             NULL, 0);
  v.num_children = t.num_columns;
  v.children = t.columns;
  return v;
}

gcol_status gcol_detail_arrow_export_tree(gcol_column_view column, const gcol_table_view *table,
                                          void (*release_owner)(void *owner), void *owner,
                                          bool with_event, struct ArrowArray *out,
                                          void **out_event, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  struct ArrowArray result;
  export_holder *h = NULL;
  result.release = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  if (table != NULL) {
    GCOL_DETAIL_CHECK(table->num_columns >= 0 && (table->columns != NULL || table->num_columns == 0),
                      GCOL_ERROR_INVALID_ARGUMENT, "table has no column array");
    column = table_as_struct(*table);
  }
  GCOL_DETAIL_TRY(gcol_column_view_validate(column, table != NULL ? "table" : "column"));
  h = (export_holder *)calloc(1, sizeof *h);
  GCOL_DETAIL_CHECK(h != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate an export");
  atomic_init(&h->refs, 1); /* this function's own reference, dropped at the end */
  GCOL_DETAIL_TRY(build_node(h, column, &result, stream, mr));
  if (with_event) {
    GCOL_DETAIL_CUDA_TRY(cudaEventCreateWithFlags(&h->event, cudaEventDisableTiming));
    h->has_event = true;
    GCOL_DETAIL_CUDA_TRY(cudaEventRecord(h->event, (cudaStream_t)stream));
    *out_event = &h->event;
  }
  h->release_owner = release_owner; /* only now: a failed export leaves the owner alone */
  h->owner = owner;
  *out = result;
  result.release = NULL;
done:
  if (result.release != NULL) result.release(&result);
  if (h != NULL) holder_unref(h);
  return status;
}

/* Column or table export with the event and the device. */
static gcol_status device_export(gcol_column_view column, const gcol_table_view *table,
                                 void (*release_owner)(void *owner), void *owner,
                                 struct ArrowDeviceArray *out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  struct ArrowDeviceArray result;
  int device = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_export");
  memset(&result, 0, sizeof result);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&device));
  GCOL_DETAIL_TRY(gcol_detail_arrow_export_tree(column, table, release_owner, owner, true,
                                                &result.array, &result.sync_event, stream, mr));
  result.device_id = device;
  result.device_type = ARROW_DEVICE_CUDA;
  *out = result;
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_device_export_column(gcol_column_view column,
                                              void (*release_owner)(void *owner), void *owner,
                                              struct ArrowDeviceArray *out, gcol_stream stream,
                                              gcol_mr *mr) {
  return device_export(column, NULL, release_owner, owner, out, stream, mr);
}

gcol_status gcol_arrow_device_export_column(gcol_column_view column,
                                            void (*release_owner)(void *owner), void *owner,
                                            struct ArrowDeviceArray *out, gcol_stream stream,
                                            gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_export_column");
  gcol_status const status =
      arrow_device_export_column(column, release_owner, owner, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_device_export_table(gcol_table_view table,
                                             void (*release_owner)(void *owner), void *owner,
                                             struct ArrowDeviceArray *out, gcol_stream stream,
                                             gcol_mr *mr) {
  gcol_column_view unused;
  memset(&unused, 0, sizeof unused);
  return device_export(unused, &table, release_owner, owner, out, stream, mr);
}

gcol_status gcol_arrow_device_export_table(gcol_table_view table,
                                           void (*release_owner)(void *owner), void *owner,
                                           struct ArrowDeviceArray *out, gcol_stream stream,
                                           gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_export_table");
  gcol_status const status =
      arrow_device_export_table(table, release_owner, owner, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static void free_column(void *column) { gcol_column_free((gcol_column *)column); }
static void free_table(void *table) { gcol_table_free((gcol_table *)table); }

static gcol_status arrow_device_export_owned_column(gcol_column *column,
                                                    struct ArrowDeviceArray *out,
                                                    gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_REQUIRE(column != NULL, GCOL_ERROR_INVALID_ARGUMENT, "column is NULL");
  /* The consumer reads the buffers until it releases the array: never spilled. */
  gcol_status const status = gcol_detail_column_spill_expose(column, stream);
  if (status != GCOL_OK) return status;
  return device_export(gcol_column_get_view(column), NULL, free_column, column, out, stream, mr);
}

gcol_status gcol_arrow_device_export_owned_column(gcol_column *column, struct ArrowDeviceArray *out,
                                                  gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_export_owned_column");
  gcol_status const status = arrow_device_export_owned_column(column, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_device_export_owned_table(gcol_table *table, struct ArrowDeviceArray *out,
                                                   gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_REQUIRE(table != NULL, GCOL_ERROR_INVALID_ARGUMENT, "table is NULL");
  for (int32_t i = 0; i < table->num_columns; ++i) {
    gcol_status const status = gcol_detail_column_spill_expose(table->columns[i], stream);
    if (status != GCOL_OK) return status;
  }
  gcol_table_view const view = gcol_table_get_view(table);
  gcol_column_view unused;
  memset(&unused, 0, sizeof unused);
  return device_export(unused, &view, free_table, table, out, stream, mr);
}

gcol_status gcol_arrow_device_export_owned_table(gcol_table *table, struct ArrowDeviceArray *out,
                                                 gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_export_owned_table");
  gcol_status const status = arrow_device_export_owned_table(table, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- imported data ---- */

gcol_imported *gcol_detail_imported_create(void) {
  return (gcol_imported *)calloc(1, sizeof(gcol_imported));
}

gcol_status gcol_detail_imported_keep(gcol_imported *imp, gcol_buffer *buffer) {
  /* The imported views point into it for as long as they live: never spilled. */
  gcol_status const exposed =
      gcol_detail_spill_acquire(buffer, GCOL_DETAIL_SPILL_EXPOSE, buffer->stream, false);
  if (exposed != GCOL_OK) {
    gcol_buffer_free(buffer);
    return exposed;
  }
  if (imp->num_buffers == imp->buffer_capacity) {
    int32_t const cap = imp->buffer_capacity == 0 ? 4 : imp->buffer_capacity * 2;
    gcol_buffer **b = (gcol_buffer **)realloc(imp->buffers, sizeof *b * (size_t)cap);
    if (b == NULL) {
      gcol_buffer_free(buffer);
      return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot keep a buffer");
    }
    imp->buffers = b;
    imp->buffer_capacity = cap;
  }
  imp->buffers[imp->num_buffers++] = buffer;
  return GCOL_OK;
}

gcol_column_view gcol_imported_column(const gcol_imported *imported) {
  gcol_column_view v;
  memset(&v, 0, sizeof v);
  return imported != NULL ? imported->column : v;
}

gcol_table_view gcol_imported_table(const gcol_imported *imported) {
  gcol_table_view t;
  memset(&t, 0, sizeof t);
  return imported != NULL ? imported->table : t;
}

const gcol_arrow_field *gcol_imported_field(const gcol_imported *imported) {
  return imported != NULL ? imported->field : NULL;
}

void gcol_imported_free(gcol_imported *imported) {
  if (imported == NULL) return;
  for (int32_t i = 0; i < imported->num_buffers; ++i) gcol_buffer_free(imported->buffers[i]);
  free(imported->buffers);
  gcol_detail_arrow_array_release(&imported->array);
  if (imported->dlpack != NULL && imported->dlpack->deleter != NULL) {
    imported->dlpack->deleter(imported->dlpack);
  }
  if (imported->dlpack_unversioned != NULL && imported->dlpack_unversioned->deleter != NULL) {
    imported->dlpack_unversioned->deleter(imported->dlpack_unversioned);
  }
  gcol_detail_arena_free(&imported->arena);
  free(imported);
}

/* ---- import: views over the producer's buffers ---- */

/* An offsets child view over an Arrow offsets buffer (empty without one). */
static gcol_column_view offsets_view(const struct ArrowArray *a, int32_t width) {
  gcol_column_view o = gcol_column_view_make(
      gcol_data_type_make(width == 8 ? GCOL_INT64 : GCOL_INT32),
      a->buffers[1] == NULL ? 0 : a->offset + a->length + 1, a->buffers[1], NULL, 0);
  return o;
}

/* BOOL8 bytes unpacked from Arrow bits (rows [offset, offset + length) at offset 0). */
static gcol_status import_bools(gcol_imported *imp, const struct ArrowArray *a,
                                gcol_column_view *v, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *bytes = NULL;
  gcol_buffer *mask = NULL;
  if (a->length == 0) return GCOL_OK;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)a->length, stream, mr, &bytes));
  GCOL_DETAIL_TRY(gcol_detail_interop_unpack_bools((const uint8_t *)a->buffers[1], a->offset,
                                                   a->length, (uint8_t *)bytes->data, stream));
  if (a->buffers[0] != NULL && a->offset != 0) {
    GCOL_DETAIL_TRY(gcol_bitmask_copy((const uint32_t *)a->buffers[0], a->offset,
                                      a->offset + a->length, stream, mr, &mask));
    v->null_mask = (const uint32_t *)mask->data;
  }
  v->data = bytes->data;
  v->offset = 0;
  status = gcol_detail_imported_keep(imp, bytes);
  bytes = NULL;
  if (status == GCOL_OK && mask != NULL) status = gcol_detail_imported_keep(imp, mask);
  mask = NULL;
done:
  gcol_buffer_free(bytes);
  gcol_buffer_free(mask);
  return status;
}

static gcol_status make_view(gcol_imported *imp, const struct ArrowArray *a,
                             const gcol_detail_arrow_type *t, gcol_column_view *v,
                             gcol_stream stream, gcol_mr *mr);

/* utf8 views converted to a STRING column at offset 0 (a copy) whose offsets and chars the
 * import keeps; the mask moved to offset 0 when sliced, as for bools. Views are read on the
 * device, their data buffers' sizes (the last buffer) are not: like string offsets, the
 * views' offsets into the data buffers are trusted (their buffer indices are checked). */
static gcol_status import_string_views(gcol_imported *imp, const struct ArrowArray *a,
                                       gcol_column_view *v, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  const uint32_t *bits = (const uint32_t *)a->buffers[0];
  gcol_column_view *offsets =
      (gcol_column_view *)gcol_detail_arena_alloc(&imp->arena, sizeof *offsets);
  GCOL_DETAIL_CHECK(offsets != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a view");
  GCOL_DETAIL_TRY(gcol_detail_interop_string_views(
      (const uint8_t *)a->buffers[1] + 16 * a->offset, bits, a->offset, a->length,
      (const char *const *)(a->buffers + 2), (int32_t)(a->n_buffers - 3), stream, mr, &col));
  if (bits != NULL && a->offset != 0) {
    GCOL_DETAIL_TRY(
        gcol_bitmask_copy(bits, a->offset, a->offset + a->length, stream, mr, &mask));
    v->null_mask = (const uint32_t *)mask->data;
  }
  *offsets = gcol_column_get_view(col->children[0]);
  v->data = col->data != NULL ? col->data->data : NULL;
  v->offset = 0;
  v->num_children = 1;
  v->children = offsets;
  /* the buffers go to the import (each kept, or freed by the keep that fails) */
  gcol_buffer *const parts[3] = {col->data, col->children[0]->data, mask};
  col->data = NULL;
  col->children[0]->data = NULL;
  mask = NULL;
  for (int i = 0; i < 3; ++i) {
    if (parts[i] == NULL) continue;
    gcol_status const kept = gcol_detail_imported_keep(imp, parts[i]);
    if (status == GCOL_OK) status = kept;
  }
done:
  gcol_column_free(col);
  gcol_buffer_free(mask);
  return status;
}

/* A dictionary's indices as INT32 (gcol's DICTIONARY32), over the producer's rows [0, offset
 * + length) with its validity: a view of its buffer, or indices of another integer type cast
 * into a kept buffer (a copy; pandas' categoricals come with int8 indices, polars' with
 * uint32). */
static gcol_status dictionary_indices(gcol_imported *imp, const struct ArrowArray *a,
                                      const gcol_detail_arrow_type *t, gcol_column_view *out,
                                      gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *cast = NULL;
  int64_t const rows = a->offset + a->length;
  const void *data = a->buffers[1];
  if (t->index_type != GCOL_INT32 && rows > 0) {
    gcol_column_view const raw =
        gcol_column_view_make(gcol_data_type_make(t->index_type), rows, a->buffers[1], NULL, 0);
    GCOL_DETAIL_TRY(gcol_cast(raw, gcol_data_type_make(GCOL_INT32), &cast, stream, mr));
    GCOL_DETAIL_TRY(gcol_detail_imported_keep(imp, cast->data));
    data = cast->data->data;
    cast->data = NULL; /* the import's now */
  }
  *out = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), rows, data,
                               (const uint32_t *)a->buffers[0],
                               a->offset == 0 ? a->null_count : GCOL_UNKNOWN_NULL_COUNT);
done:
  gcol_column_free(cast);
  return status;
}

/* Child views: offsets (strings, lists), list values, struct fields, dictionary parts. */
static gcol_status make_children(gcol_imported *imp, const struct ArrowArray *a,
                                 const gcol_detail_arrow_type *t, gcol_column_view *v,
                                 gcol_stream stream, gcol_mr *mr) {
  int32_t const n = t->layout == GCOL_DETAIL_ARROW_STRING ? 1
                    : t->layout == GCOL_DETAIL_ARROW_STRUCT ? t->num_children
                    : t->layout == GCOL_DETAIL_ARROW_LIST || t->layout == GCOL_DETAIL_ARROW_DICTIONARY
                        ? 2
                        : 0;
  if (n == 0) return GCOL_OK;
  gcol_column_view *children =
      (gcol_column_view *)gcol_detail_arena_alloc(&imp->arena, sizeof *children * (size_t)n);
  GCOL_DETAIL_REQUIRE(children != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate %d views", (int)n);
  v->num_children = n;
  v->children = children;
  if (t->layout == GCOL_DETAIL_ARROW_STRUCT) {
    for (int32_t i = 0; i < n; ++i) {
      GCOL_DETAIL_TRY_RETURN(make_view(imp, a->children[i], &t->children[i], &children[i], stream, mr));
    }
  } else if (t->layout == GCOL_DETAIL_ARROW_DICTIONARY) {
    GCOL_DETAIL_TRY_RETURN(dictionary_indices(imp, a, t, &children[0], stream, mr));
    return make_view(imp, a->dictionary, &t->children[0], &children[1], stream, mr);
  } else {
    children[0] = offsets_view(a, t->width);
    if (t->layout == GCOL_DETAIL_ARROW_LIST) {
      return make_view(imp, a->children[0], &t->children[0], &children[1], stream, mr);
    }
  }
  return GCOL_OK;
}

static gcol_status make_view(gcol_imported *imp, const struct ArrowArray *a,
                             const gcol_detail_arrow_type *t, gcol_column_view *v,
                             gcol_stream stream, gcol_mr *mr) {
  bool const has_buffers = t->layout != GCOL_DETAIL_ARROW_NULL && a->n_buffers > 0;
  const uint32_t *mask = has_buffers ? (const uint32_t *)a->buffers[0] : NULL;
  *v = gcol_column_view_make(t->type, a->length, NULL, mask,
                             a->null_count < 0 ? GCOL_UNKNOWN_NULL_COUNT : a->null_count);
  v->offset = a->offset;
  if (t->layout == GCOL_DETAIL_ARROW_FIXED) v->data = a->buffers[1];
  if (t->layout == GCOL_DETAIL_ARROW_STRING) v->data = a->buffers[2];
  if (t->layout == GCOL_DETAIL_ARROW_BOOL) GCOL_DETAIL_TRY_RETURN(import_bools(imp, a, v, stream, mr));
  if (t->layout == GCOL_DETAIL_ARROW_STRING_VIEW) return import_string_views(imp, a, v, stream, mr);
  return make_children(imp, a, t, v, stream, mr);
}

/* The table of a struct view: its fields, sliced by the struct's offset. */
static gcol_status make_table(gcol_imported *imp) {
  gcol_column_view const s = imp->column;
  int32_t const n = s.type.id == GCOL_STRUCT ? s.num_children : 1;
  gcol_column_view *cols =
      (gcol_column_view *)gcol_detail_arena_alloc(&imp->arena, sizeof *cols * (size_t)n);
  GCOL_DETAIL_REQUIRE(cols != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate %d views", (int)n);
  for (int32_t i = 0; i < n; ++i) {
    if (s.type.id != GCOL_STRUCT) {
      cols[i] = s;
    } else {
      GCOL_DETAIL_TRY_RETURN(gcol_column_view_slice(s.children[i], s.offset, s.offset + s.size, &cols[i]));
    }
  }
  imp->table.num_columns = n;
  imp->table.num_rows = s.size;
  imp->table.columns = cols;
  return GCOL_OK;
}

gcol_status gcol_detail_arrow_import_views(struct ArrowArray *array,
                                           const gcol_detail_arrow_type *type,
                                           gcol_arrow_field *field, gcol_detail_arena *arena,
                                           bool as_table, gcol_stream stream, gcol_mr *mr,
                                           gcol_imported **out) {
  gcol_status status = GCOL_OK;
  gcol_imported *imp = gcol_detail_imported_create();
  if (imp == NULL) {
    gcol_detail_arrow_array_release(array);
    gcol_detail_arena_free(arena);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot allocate an import");
  }
  imp->arena = *arena; /* moved: the types and fields live as long as the import */
  memset(arena, 0, sizeof *arena);
  imp->array = *array;
  array->release = NULL;
  imp->field = field;
  GCOL_DETAIL_CHECK(!as_table || type->layout == GCOL_DETAIL_ARROW_STRUCT,
                    GCOL_ERROR_INVALID_ARGUMENT, "a table needs a struct array, not %s",
                    gcol_type_name(type->type.id));
  GCOL_DETAIL_CHECK(!as_table || imp->array.buffers[0] == NULL || imp->array.null_count == 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "a table's struct array has %lld nulls",
                    (long long)imp->array.null_count);
  GCOL_DETAIL_TRY(make_view(imp, &imp->array, type, &imp->column, stream, mr));
  GCOL_DETAIL_TRY(make_table(imp));
  *out = imp;
  imp = NULL;
done:
  gcol_imported_free(imp);
  return status;
}

/* The device of an array gcol can read, waited on by stream. */
static gcol_status accept_device(const struct ArrowDeviceArray *a, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int device = 0;
  ArrowDeviceType const type = a->device_type;
  GCOL_DETAIL_CHECK(type == ARROW_DEVICE_CUDA || type == ARROW_DEVICE_CUDA_HOST ||
                        type == ARROW_DEVICE_CUDA_MANAGED,
                    GCOL_ERROR_UNSUPPORTED,
                    "device type %d is not CUDA (2), CUDA_HOST (3) or CUDA_MANAGED (13)%s",
                    (int)type, type == ARROW_DEVICE_CPU ? ": import host arrays with gcol_arrow_import_*" : "");
  if (type == ARROW_DEVICE_CUDA) {
    GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&device));
    GCOL_DETAIL_CHECK(a->device_id == device, GCOL_ERROR_UNSUPPORTED,
                      "the array is on device %lld, the current device is %d",
                      (long long)a->device_id, device);
  }
  if (a->sync_event != NULL) {
    GCOL_DETAIL_CUDA_TRY(cudaStreamWaitEvent((cudaStream_t)stream, *(cudaEvent_t *)a->sync_event, 0));
  }
done:
  return status;
}

static gcol_status device_import(struct ArrowSchema *schema, struct ArrowDeviceArray *array,
                                 bool as_table, gcol_stream stream, gcol_mr *mr,
                                 gcol_imported **out) {
  gcol_status status = GCOL_OK;
  gcol_detail_arena arena;
  gcol_detail_arrow_type *type = NULL;
  gcol_arrow_field *field = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_import");
  memset(&arena, 0, sizeof arena);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(schema);
  GCOL_DETAIL_CHECK_NOT_NULL(array);
  GCOL_DETAIL_TRY(gcol_detail_arrow_schema_parse(schema, &arena, &type, &field));
  GCOL_DETAIL_TRY(gcol_detail_arrow_array_check(&array->array, type, true));
  GCOL_DETAIL_TRY(accept_device(array, stream));
  status = gcol_detail_arrow_import_views(&array->array, type, field, &arena, as_table, stream,
                                          mr, out);
done:
  if (array != NULL) gcol_detail_arrow_array_release(&array->array); /* moved on success */
  gcol_detail_arrow_schema_release(schema);
  gcol_detail_arena_free(&arena);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_device_import_column(struct ArrowSchema *schema,
                                              struct ArrowDeviceArray *array, gcol_stream stream,
                                              gcol_mr *mr, gcol_imported **out) {
  return device_import(schema, array, false, stream, mr, out);
}

gcol_status gcol_arrow_device_import_column(struct ArrowSchema *schema,
                                            struct ArrowDeviceArray *array, gcol_stream stream,
                                            gcol_mr *mr, gcol_imported **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_import_column");
  gcol_status const status = arrow_device_import_column(schema, array, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_device_import_table(struct ArrowSchema *schema,
                                             struct ArrowDeviceArray *array, gcol_stream stream,
                                             gcol_mr *mr, gcol_imported **out) {
  return device_import(schema, array, true, stream, mr, out);
}

gcol_status gcol_arrow_device_import_table(struct ArrowSchema *schema,
                                           struct ArrowDeviceArray *array, gcol_stream stream,
                                           gcol_mr *mr, gcol_imported **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_device_import_table");
  gcol_status const status = arrow_device_import_table(schema, array, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
