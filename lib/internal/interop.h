/*
 * Internal pieces of interop (include/gcol/interop.h) shared by lib/interop*.c and
 * kernels/interop/: an arena for bookkeeping that lives as long as an import or export, the
 * Arrow types parsed from a schema, the checks of an array against its type, and the
 * conversion kernels.
 */
#ifndef GCOL_INTERNAL_INTEROP_H
#define GCOL_INTERNAL_INTEROP_H

#include "gcol/interop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Propagates a failing status from a function without a `done` label. */
#define GCOL_DETAIL_TRY_RETURN(expr)              \
  do {                                            \
    gcol_status gcol_detail_st = (expr);          \
    if (gcol_detail_st != GCOL_OK) return gcol_detail_st; \
  } while (0)

/* Deepest nesting accepted on import: deeper schemas (or cyclic ones) are malformed. */
#define GCOL_DETAIL_ARROW_MAX_DEPTH 64

/* The children of an exported ArrowArray node: the arrays and the pointer array that
 * ArrowArray.children points at. */
typedef struct gcol_detail_arrow_children {
  struct ArrowArray **ptrs;
  struct ArrowArray *arrays;
} gcol_detail_arrow_children;

/* n zeroed children, ptrs[i] = &arrays[i] (both NULL for n == 0); false without host memory
 * (nothing left allocated). */
bool gcol_detail_arrow_children_alloc(int64_t n, gcol_detail_arrow_children *out);
void gcol_detail_arrow_children_free(gcol_detail_arrow_children *c);

/* Host allocations freed together (calloc'd blocks; NULL on failure). */
typedef struct gcol_detail_arena {
  void **blocks;
  size_t count;
  size_t capacity;
} gcol_detail_arena;

void *gcol_detail_arena_alloc(gcol_detail_arena *arena, size_t bytes);
char *gcol_detail_arena_strdup(gcol_detail_arena *arena, const char *s);
void gcol_detail_arena_free(gcol_detail_arena *arena);

/* How an Arrow type lays out its buffers. */
typedef enum gcol_detail_arrow_layout {
  GCOL_DETAIL_ARROW_NULL = 0, /* no buffers */
  GCOL_DETAIL_ARROW_FIXED,    /* validity, values */
  GCOL_DETAIL_ARROW_BOOL,     /* validity, bits */
  GCOL_DETAIL_ARROW_STRING,   /* validity, offsets, chars */
  GCOL_DETAIL_ARROW_LIST,     /* validity, offsets; one child */
  GCOL_DETAIL_ARROW_STRUCT,   /* validity; a child per field */
  GCOL_DETAIL_ARROW_DICTIONARY, /* validity, int32 indices; the dictionary */
  GCOL_DETAIL_ARROW_STRING_VIEW /* validity, 16-byte views, data buffers..., their sizes */
} gcol_detail_arrow_layout;

/* Arrow's utf8_view (`vu`): one 16-byte view per row, a little-endian int32 length first; up
 * to 12 bytes follow inline, a longer string keeps a 4-byte prefix, then the int32 index of
 * its data buffer and the int32 offset in it. Imports convert views to STRING (a copy). */
#define GCOL_DETAIL_ARROW_VIEW_INLINE 12

GCOL_HD_INLINE int32_t gcol_detail_arrow_view_i32(const uint8_t *p) {
  return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24);
}

/* A view's length and, when not inline, its data buffer and offset; false when malformed
 * (a negative length or offset, a buffer outside [0, buffers)). */
GCOL_HD_INLINE bool gcol_detail_arrow_view_decode(const uint8_t *view, int32_t buffers,
                                                  int32_t *length, int32_t *buffer,
                                                  int32_t *offset) {
  *length = gcol_detail_arrow_view_i32(view);
  *buffer = -1;
  *offset = 0;
  if (*length < 0) return false;
  if (*length <= GCOL_DETAIL_ARROW_VIEW_INLINE) return true;
  *buffer = gcol_detail_arrow_view_i32(view + 8);
  *offset = gcol_detail_arrow_view_i32(view + 12);
  return *buffer >= 0 && *buffer < buffers && *offset >= 0;
}

/* An Arrow type as gcol reads it; children: list values, struct fields, dictionary values. */
typedef struct gcol_detail_arrow_type {
  gcol_data_type type;
  gcol_detail_arrow_layout layout;
  int32_t width;        /* bytes of a fixed-width value; of an offset for STRING and LIST;
                           of an index for DICTIONARY */
  gcol_type_id index_type; /* DICTIONARY: the indices' integer type (gcol keeps INT32) */
  int32_t num_children;
  struct gcol_detail_arrow_type *children;
} gcol_detail_arrow_type;

/* Parses a schema (not released) into types and fields allocated in `arena`. */
gcol_status gcol_detail_arrow_schema_parse(const struct ArrowSchema *schema,
                                           gcol_detail_arena *arena,
                                           gcol_detail_arrow_type **out_type,
                                           gcol_arrow_field **out_field);

/* Checks an array against its type on the host, reading no buffer. `device` adds the
 * alignment checks of zero-copy views. */
gcol_status gcol_detail_arrow_array_check(const struct ArrowArray *array,
                                          const gcol_detail_arrow_type *type, bool device);

/* The default precision of a decimal type (its largest). */
int32_t gcol_detail_decimal_max_precision(gcol_type_id id);

/* A deep copy of `count` fields into `arena` (NULL stays NULL). */
gcol_arrow_field *gcol_detail_arrow_fields_copy(const gcol_arrow_field *fields, int32_t count,
                                                gcol_detail_arena *arena);

/* Copies a field tree into one allocation freed by gcol_arrow_field_free(). */
gcol_status gcol_detail_arrow_field_hand_out(const gcol_arrow_field *field,
                                             gcol_arrow_field **out);

/* Releases an ArrowSchema / ArrowArray if it is not NULL and not released. */
void gcol_detail_arrow_schema_release(struct ArrowSchema *schema);
void gcol_detail_arrow_array_release(struct ArrowArray *array);

/* Exports a column (or, when `table` is not NULL, a table as a struct) as an ArrowArray tree
 * over the view's buffers. With `with_event`, records a CUDA event on `stream` after any
 * conversion and sets *out_event to the `cudaEvent_t *` the array keeps; without, makes no
 * CUDA call unless BOOL8 columns need packing (what host tests run over host memory). */
gcol_status gcol_detail_arrow_export_tree(gcol_column_view column, const gcol_table_view *table,
                                          void (*release_owner)(void *owner), void *owner,
                                          bool with_event, struct ArrowArray *out,
                                          void **out_event, gcol_stream stream, gcol_mr *mr);

/* The import of a checked array as views (no device call unless bools need unpacking).
 * Takes the array (moved) and the arena (moved) in every case. */
gcol_status gcol_detail_arrow_import_views(struct ArrowArray *array,
                                           const gcol_detail_arrow_type *type,
                                           gcol_arrow_field *field, gcol_detail_arena *arena,
                                           bool as_table, gcol_stream stream, gcol_mr *mr,
                                           gcol_imported **out);

/* What an import holds: the views, the fields, converted buffers, and the producer's
 * structure whose release (or deleter) gcol_imported_free() runs. */
struct gcol_imported {
  gcol_column_view column;
  gcol_table_view table;
  gcol_arrow_field *field;
  gcol_detail_arena arena;           /* views, child arrays, fields, strings */
  gcol_buffer **buffers;             /* converted data, freed first */
  int32_t num_buffers;
  int32_t buffer_capacity;
  struct ArrowArray array;           /* the producer's array (release NULL when none) */
  DLManagedTensorVersioned *dlpack;  /* the producer's tensors, or NULL */
  DLManagedTensor *dlpack_unversioned;
};

/* A new, empty import (NULL on allocation failure). */
gcol_imported *gcol_detail_imported_create(void);
/* Hands `buffer` to the import (freed with it); on failure frees it. */
gcol_status gcol_detail_imported_keep(gcol_imported *imported, gcol_buffer *buffer);

/* ---- kernels (kernels/interop/interop.cu) ---- */

/* bits[i] = bytes[i] != 0 for i < n, into a bitmask of gcol_bitmask_allocation_size(n)
 * bytes, padding zeroed. */
gcol_status gcol_detail_interop_pack_bools(const uint8_t *bytes, int64_t n, uint32_t *bits,
                                           gcol_stream stream);

/* bytes[i] = bit (bit_offset + i) of bits, for i < n (bits read bytewise: any alignment). */
gcol_status gcol_detail_interop_unpack_bools(const uint8_t *bits, int64_t bit_offset, int64_t n,
                                             uint8_t *bytes, gcol_stream stream);

/* A STRING column (no mask) from n utf8 views of the device (views[0] is the first row's),
 * whose longer strings live in the `buffers` device data buffers (a host array). Malformed
 * views of valid rows (mask bit mask_offset + i; NULL mask: all valid) give
 * GCOL_ERROR_INVALID_ARGUMENT; null rows become empty. Synchronizes once (the total). */
gcol_status gcol_detail_interop_string_views(const uint8_t *views, const uint32_t *mask,
                                             int64_t mask_offset, int64_t n,
                                             const char *const *buffers, int32_t num_buffers,
                                             gcol_stream stream, gcol_mr *mr, gcol_column **out);

/* dst[i] = src[i * stride] for i < n, elements of `width` bytes (1, 2, 4, 8). */
gcol_status gcol_detail_interop_strided_copy(const void *src, int64_t stride, int64_t n,
                                             int32_t width, void *dst, gcol_stream stream);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_INTEROP_H */
