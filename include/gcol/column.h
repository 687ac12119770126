/**
 * @file column.h
 * @ingroup gcol_core
 * @brief Columns (owning) and column views (non-owning), Arrow-compatible.
 *
 * A column has a data type, a size (rows), an offset (for zero-copy slices), a data buffer,
 * an optional null mask (bit `offset + i` is row i's validity), a null count and children:
 * - fixed-width: data holds `size` values starting at element `offset`;
 * - STRING: data holds the UTF-8 chars; child 0 is the offsets column (INT32, or INT64
 *   when the chars reach 2^31 bytes) with `offset + size + 1` readable entries;
 *   row i spans chars `[offsets[offset+i], offsets[offset+i+1])`;
 * - LIST: child 0 is the offsets column, child 1 the values column (indexed by offsets);
 * - STRUCT: one child per field, each indexed by `offset + i` (children have the parent's
 *   size plus its offset at least);
 * - DICTIONARY32: child 0 the indices (INT32, indexed by `offset + i`), child 1 the keys.
 *
 * Views are plain structs passed by value, also into kernels (a view's `children` pointer
 * is host memory: kernels take the flat views of the children they need).
 *
 * Copy on write: a column's buffers may be shared with shallow copies
 * (gcol_column_copy_shallow(), gcol_table_copy_shallow()). Reads never copy:
 * gcol_column_get_view() and every operation that takes a ::gcol_column_view. Writes copy a
 * shared buffer first: gcol_column_get_mutable_view(), gcol_column_make_mutable(), and so
 * everything that writes through one (gcol_fill_in_place()). Code that keeps a
 * column's pointers for writing elsewhere calls gcol_column_expose() first.
 *
 * Spilling (gcol/spill.h): views and write accesses bring spilled buffers back and pin them
 * to the open scope, or expose them when no scope is open.
 *
 * @code
 * int64_t values[4] = {1, 2, 3, 4};
 * uint8_t valid[4] = {1, 0, 1, 1};
 * gcol_column *col = NULL;
 * gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 4, values, valid,
 *                              stream, NULL, &col);
 * gcol_column_view middle;
 * gcol_column_view_slice(gcol_column_get_view(col), 1, 3, &middle);  // rows 1..2, no copy
 * gcol_column_free(col);
 * @endcode
 */
#ifndef GCOL_COLUMN_H
#define GCOL_COLUMN_H

/** @addtogroup gcol_core
 *  @{ */

#include "gcol/bitmask.h"
#include "gcol/bits.h"
#include "gcol/buffer.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief Null count of a view whose nulls were not counted (after a slice). */
#define GCOL_UNKNOWN_NULL_COUNT (-1)

/** @brief Child index of the offsets column of STRING and LIST columns. */
#define GCOL_OFFSETS_CHILD 0
/** @brief Child index of the values column of a LIST column. */
#define GCOL_LIST_VALUES_CHILD 1
/** @brief Child index of the indices column of a DICTIONARY32 column. */
#define GCOL_DICTIONARY_INDICES_CHILD 0
/** @brief Child index of the keys column of a DICTIONARY32 column. */
#define GCOL_DICTIONARY_KEYS_CHILD 1

/** @brief A read-only, non-owning view of a column in device memory. */
typedef struct gcol_column_view {
  gcol_data_type type;                      /**< Element type. */
  int64_t size;                             /**< Number of rows. */
  int64_t offset;                           /**< First row within data, mask and children. */
  const void *data;                         /**< Device data (chars for STRING); may be NULL. */
  const uint32_t *null_mask;                /**< Device null mask, or NULL: all valid. */
  int64_t null_count;                       /**< Nulls, or ::GCOL_UNKNOWN_NULL_COUNT. */
  int32_t num_children;                     /**< Number of children. */
  const struct gcol_column_view *children;  /**< Host array of child views. */
} gcol_column_view;

/** @brief A writable, non-owning view of the top level of a column in device memory. */
typedef struct gcol_mutable_column_view {
  gcol_data_type type; /**< Element type. */
  int64_t size;        /**< Number of rows. */
  int64_t offset;      /**< First row within data and mask. */
  void *data;          /**< Device data. */
  uint32_t *null_mask; /**< Device null mask, or NULL. */
  int64_t null_count;  /**< Nulls, or ::GCOL_UNKNOWN_NULL_COUNT. */
} gcol_mutable_column_view;

/**
 * @brief An owning column: its buffers and children belong to it and are freed by
 *        gcol_column_free() (a buffer shared with a shallow copy loses one reference; its
 *        memory goes with the last). Read it through gcol_column_get_view(); write it
 *        through gcol_column_get_mutable_view().
 */
typedef struct gcol_column {
  gcol_data_type type;             /**< Element type. */
  int64_t size;                    /**< Number of rows. */
  int64_t null_count;              /**< Number of nulls (always known). */
  gcol_buffer *data;               /**< Data (chars for STRING), or NULL. */
  gcol_buffer *null_mask;          /**< Null mask, or NULL. */
  int32_t num_children;            /**< Number of children. */
  struct gcol_column **children;   /**< Owned children. */
  gcol_column_view *child_views;   /**< Views of the children, kept in step with them. */
} gcol_column;

/**
 * @brief Wraps existing device memory as a view (no copy, no check). For nested types set
 *        `num_children` and `children` afterwards.
 */
GCOL_HD_INLINE gcol_column_view gcol_column_view_make(gcol_data_type type, int64_t size,
                                                      const void *data,
                                                      const uint32_t *null_mask,
                                                      int64_t null_count) {
  gcol_column_view v;
  v.type = type;
  v.size = size;
  v.offset = 0;
  v.data = data;
  v.null_mask = null_mask;
  v.null_count = null_mask == NULL ? 0 : null_count;
  v.num_children = 0;
  v.children = NULL;
  return v;
}

/** @brief True if row @p row of @p view is valid (reads the mask: device code, or host
 *         code over host memory). */
GCOL_HD_INLINE bool gcol_column_view_is_valid(gcol_column_view view, int64_t row) {
  return gcol_bit_is_set_or_null_mask(view.null_mask, view.offset + row);
}

/** @brief True if the view has a null mask. */
GCOL_HD_INLINE bool gcol_column_view_is_nullable(gcol_column_view view) {
  return view.null_mask != NULL;
}

/** @brief True if the view may have nulls (a mask, and a null count that is not 0). */
GCOL_HD_INLINE bool gcol_column_view_may_have_nulls(gcol_column_view view) {
  return view.null_mask != NULL && view.null_count != 0;
}

/** @brief A read-only view of a mutable view. */
GCOL_HD_INLINE gcol_column_view gcol_mutable_column_view_to_view(gcol_mutable_column_view v) {
  gcol_column_view r = gcol_column_view_make(v.type, v.size, v.data, v.null_mask, v.null_count);
  r.offset = v.offset;
  return r;
}

/**
 * @brief The view of an owning column (valid while the column lives). A read access: never
 *        copies (copy on write).
 *
 * With spilling on (gcol/spill.h), spilled buffers of the column are brought back first
 * (copied on the spill manager's stream, waited for), then pinned to the running scope, or
 * exposed (never spill again) when no scope is open. If a buffer cannot come back (no
 * device memory), its pointer in the view is NULL and gcol_last_error() says why (an
 * operation given that view fails its checks): use gcol_column_acquire_view() to get the
 * status.
 */
gcol_column_view gcol_column_get_view(const gcol_column *column);

/**
 * @brief gcol_column_get_view() with a status and a stream: spilled buffers come back by
 *        copies on @p stream (not waited for: use the view on @p stream), then are pinned to
 *        the running scope, or exposed when no scope is open (gcol/spill.h).
 * @param[in] column The column.
 * @param[in] stream Stream the view will be used on.
 * @param[out] out The view; zeroed on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers),
 *         ::GCOL_ERROR_OUT_OF_MEMORY (a spilled buffer cannot come back: it stays spilled,
 *         nothing is lost; those that came back stay pinned or exposed), CUDA status.
 */
gcol_status gcol_column_acquire_view(const gcol_column *column, gcol_stream stream,
                                     gcol_column_view *out);

/**
 * @brief Write access: the mutable view of the top level of an owning column (data and null
 *        mask), after making those two buffers the column's own (gcol_buffer_make_mutable():
 *        a buffer shared with a shallow copy is copied first, so no other holder sees the
 *        writes).
 * @param[in,out] column The column.
 * @param[in] stream Stream of any copy; write through the view on this stream.
 * @param[out] out The view, valid for writes until the column is shallow-copied, changed
 *             or freed (keep a pointer longer only through gcol_column_expose()).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status. On failure @p out is zeroed.
 * @note Children are not made unique: use gcol_column_make_mutable() before writing into
 *       them through a read view.
 */
gcol_status gcol_column_get_mutable_view(gcol_column *column, gcol_stream stream,
                                         gcol_mutable_column_view *out);

/**
 * @brief Write access to the whole column: makes every buffer of @p column and of its
 *        children its own (gcol_buffer_make_mutable()), so that the pointers of its read
 *        view may be written on @p stream until the column is shallow-copied again.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p column),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status. On failure some buffers may already have
 *         their own copies (the values are unchanged either way).
 */
gcol_status gcol_column_make_mutable(gcol_column *column, gcol_stream stream);

/**
 * @brief Exposes every buffer of @p column and of its children (gcol_buffer_expose()):
 *        their pointers (as in gcol_column_get_view()) may then be kept and written by other
 *        code, on any stream, while the column lives, and no shallow copy ever shares them.
 *        Call it before handing a column's memory to code that may write it (a DLPack
 *        consumer, a user kernel that keeps the pointers).
 * @return As gcol_column_make_mutable().
 */
gcol_status gcol_column_expose(gcol_column *column, gcol_stream stream);

/**
 * @brief A shallow copy of @p column: a new column (and children) over the same buffers,
 *        each shared through gcol_buffer_copy_shallow() (no device copy, except for exposed
 *        buffers, which are copied). Either column may be freed first; a write access to
 *        either copies the buffers it writes.
 * @param[in] column The column (its buffers' counts go up; nothing else changes).
 * @param[in] stream Stream of the copies of exposed buffers.
 * @param[out] out The copy; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_column_copy_shallow(const gcol_column *column, gcol_stream stream,
                                     gcol_column **out);

/**
 * @brief Checks a view's structure without reading device memory: type id, sizes and
 *        offsets not negative, data present where rows need it, children as the type needs.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT or ::GCOL_ERROR_TYPE_MISMATCH with a
 *         message naming @p what (the argument's name).
 */
gcol_status gcol_column_view_validate(gcol_column_view view, const char *what);

/**
 * @brief A zero-copy view of rows `[begin, end)` of @p view (0 <= begin <= end <= size).
 *        The null count becomes ::GCOL_UNKNOWN_NULL_COUNT unless it was 0.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT for bad bounds or NULL @p out.
 */
gcol_status gcol_column_view_slice(gcol_column_view view, int64_t begin, int64_t end,
                                   gcol_column_view *out);

/**
 * @brief Zero-copy split of @p view at @p num_splits ascending row indices into
 *        `num_splits + 1` views written to @p out.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT for descending or out-of-range splits.
 */
gcol_status gcol_column_view_split(gcol_column_view view, const int64_t *splits,
                                   int32_t num_splits, gcol_column_view *out);

/**
 * @brief The number of nulls in @p view, counting the mask on the device if the view's
 *        null count is unknown. Synchronizes @p stream only in that case.
 */
gcol_status gcol_column_view_null_count(gcol_column_view view, gcol_stream stream,
                                        int64_t *out);

/**
 * @brief The byte range of a STRING view's rows in its chars, read from the offsets child
 *        (synchronizes @p stream).
 */
gcol_status gcol_strings_view_chars_range(gcol_column_view view, gcol_stream stream,
                                          int64_t *begin, int64_t *end);

/**
 * @brief Allocates a fixed-width column of @p size rows with uninitialized data (zeroed
 *        when @p mask_state is ::GCOL_MASK_ALL_NULL, so that no undefined byte lies under
 *        its nulls).
 * @param[in] type A fixed-width type.
 * @param[in] size Rows (>= 0).
 * @param[in] mask_state How the null mask starts (its null count is set to match;
 *                       ::GCOL_MASK_UNINITIALIZED sets 0: set it with
 *                       gcol_column_set_null_count()).
 * @param[in] stream Stream of the allocations.
 * @param[in] mr Resource of the column's memory, or NULL for the default.
 * @param[out] out The column; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH (not fixed
 *         width), ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_column_create(gcol_data_type type, int64_t size, gcol_mask_state mask_state,
                               gcol_stream stream, gcol_mr *mr, gcol_column **out);

/**
 * @brief Builds a fixed-width column from host arrays.
 * @param[in] type A fixed-width type.
 * @param[in] size Rows (>= 0).
 * @param[in] data `size` values of the type's storage (see gcol_type_storage_id()).
 * @param[in] valid NULL (no mask), or `size` bytes: non-zero = valid.
 * @param[in] stream Stream of the copies.
 * @param[in] mr Resource of the column's memory, or NULL for the default.
 * @param[out] out The column; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH,
 *         ::GCOL_ERROR_OVERFLOW, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream (the host arrays may be freed on return).
 */
gcol_status gcol_column_create_from_host(gcol_data_type type, int64_t size, const void *data,
                                         const uint8_t *valid, gcol_stream stream, gcol_mr *mr,
                                         gcol_column **out);

/**
 * @brief Copies a fixed-width view's rows (offset honoured) to host arrays the caller
 *        provides. gcol_column_copy_to_host_column() (table.h) is the form that takes and
 *        returns memory the same way for fixed-width and STRING columns.
 * @param[in] view The column.
 * @param[out] data `size` values (values under nulls are whatever the column holds).
 * @param[out] valid NULL, or `size` bytes receiving 1 (valid) or 0 (null).
 * @param[in] stream Stream of the copies.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH, CUDA status.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_column_copy_to_host(gcol_column_view view, void *data, uint8_t *valid,
                                     gcol_stream stream);

/**
 * @brief Builds a STRING column from host C strings.
 * @param[in] size Rows.
 * @param[in] strings `size` pointers; a NULL entry is a null row.
 * @param[in] lengths NULL (the strings are NUL-terminated), or `size` byte lengths (then
 *                    strings may hold NUL bytes).
 * @param[in] stream Stream of the copies.
 * @param[in] mr Resource of the column's memory, or NULL for the default.
 * @param[out] out The column; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_OVERFLOW,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note INT64 offsets are used when the chars exceed gcol_large_offsets_threshold() bytes.
 *       Synchronizes @p stream.
 */
gcol_status gcol_column_create_strings_from_host(int64_t size, const char *const *strings,
                                                 const int64_t *lengths, gcol_stream stream,
                                                 gcol_mr *mr, gcol_column **out);

/**
 * @brief Builds a STRING column from Arrow-style host buffers: the bytes of all rows in
 *        @p chars, and @p size + 1 non-decreasing byte @p offsets into them (offsets[0] may
 *        be non-zero, as in a sliced Arrow array).
 * @param[in] size Rows (>= 0).
 * @param[in] chars The bytes (may be NULL when every row is empty).
 * @param[in] offsets `size + 1` offsets; row i spans `chars[offsets[i] .. offsets[i+1])`.
 * @param[in] valid NULL (no nulls), or `size` bytes: non-zero = valid.
 * @param[in] stream Stream of the copies.
 * @param[in] mr Resource of the column's memory, or NULL for the default.
 * @param[out] out The column (offsets rebased to start at 0); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, negative or decreasing
 *         offsets; the message names the row), ::GCOL_ERROR_OVERFLOW,
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_column_create_strings_from_host_offsets(int64_t size, const char *chars,
                                                         const int64_t *offsets,
                                                         const uint8_t *valid, gcol_stream stream,
                                                         gcol_mr *mr, gcol_column **out);

/** @brief A STRING column copied to host memory (offsets rebased to start at 0). */
typedef struct gcol_host_strings {
  int64_t size;     /**< Rows. */
  int64_t *offsets; /**< size + 1 byte offsets into chars, offsets[0] == 0. */
  char *chars;      /**< The bytes (not NUL-terminated). */
  uint8_t *valid;   /**< size bytes: 1 valid, 0 null. */
} gcol_host_strings;

/**
 * @brief Copies a STRING view (offset honoured) to host arrays that gcol allocates (free
 *        them with gcol_host_strings_free(); rows through gcol_host_strings_get()).
 *        gcol_column_copy_to_host_column() (table.h) is the form shared with fixed-width
 *        columns. Synchronizes @p stream.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed view, offsets that
 *         decrease: the message names the row), ::GCOL_ERROR_TYPE_MISMATCH (not STRING),
 *         ::GCOL_ERROR_OUT_OF_MEMORY (host), a CUDA status.
 */
gcol_status gcol_column_strings_copy_to_host(gcol_column_view view, gcol_stream stream,
                                             gcol_host_strings **out);

/**
 * @brief Row @p row (0 <= row < size, unchecked) of a host strings copy: its bytes (not
 *        NUL-terminated: print with `"%.*s"`) and their number.
 * @param[in] strings What gcol_column_strings_copy_to_host() made.
 * @param[in] row The row.
 * @param[out] length The row's byte length (0 for a null row); may be NULL.
 * @return The row's first byte; NULL for a null row, so that "" (a valid empty row: a
 *         non-NULL pointer, length 0) and null differ.
 */
static inline const char *gcol_host_strings_get(const gcol_host_strings *strings, int64_t row,
                                                int64_t *length) {
  if (length != NULL) *length = 0;
  if (strings->valid != NULL && strings->valid[row] == 0) return NULL;
  if (length != NULL) *length = strings->offsets[row + 1] - strings->offsets[row];
  return strings->chars != NULL ? strings->chars + strings->offsets[row] : "";
}

/** @brief Frees a ::gcol_host_strings. NULL is a no-op. */
void gcol_host_strings_free(gcol_host_strings *strings);

/**
 * @brief Assembles a column from parts, taking ownership of @p data, @p null_mask and
 *        @p children on success only (on failure the caller still owns them).
 * @param[in] type The column's type.
 * @param[in] size Rows (>= 0).
 * @param[in] data Data buffer (chars for STRING), or NULL when no rows need one.
 * @param[in] null_mask Null mask covering @p size bits, or NULL.
 * @param[in] children Host array of @p num_children owned columns (copied; may be NULL when
 *                     @p num_children is 0).
 * @param[in] num_children Number of children.
 * @param[in] null_count Nulls in the mask (0 without a mask).
 * @param[out] out The column; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (layout does not match the type),
 *         ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_column_make(gcol_data_type type, int64_t size, gcol_buffer *data,
                             gcol_buffer *null_mask, int64_t null_count, gcol_column **children,
                             int32_t num_children, gcol_column **out);

/** @brief Assembles a STRING column from an offsets column (INT32/INT64, size + 1 rows) and
 *         chars; ownership as gcol_column_make(). */
gcol_status gcol_column_make_strings(int64_t size, gcol_column *offsets, gcol_buffer *chars,
                                     gcol_buffer *null_mask, int64_t null_count,
                                     gcol_column **out);

/** @brief Assembles a LIST column from offsets (size + 1 rows) and values; ownership as
 *         gcol_column_make(). */
gcol_status gcol_column_make_list(int64_t size, gcol_column *offsets, gcol_column *values,
                                  gcol_buffer *null_mask, int64_t null_count,
                                  gcol_column **out);

/** @brief Assembles a STRUCT column from fields of @p size rows each; ownership as
 *         gcol_column_make(). */
gcol_status gcol_column_make_struct(int64_t size, gcol_column **fields, int32_t num_fields,
                                    gcol_buffer *null_mask, int64_t null_count,
                                    gcol_column **out);

/** @brief Assembles a DICTIONARY32 column from INT32 indices and keys; the null mask is the
 *         indices' own. Ownership as gcol_column_make(). */
gcol_status gcol_column_make_dictionary(gcol_column *indices, gcol_column *keys,
                                        gcol_column **out);

/**
 * @brief Deep copy of a view of any type: the result starts at offset 0 (slices are
 *        compacted: masks re-aligned, string and list offsets rebased). Stream-ordered;
 *        synchronizes @p stream only to count nulls of a view whose count is unknown, and to
 *        read the extent of string and list slices.
 *
 * A view with a null mask gives a copy with a mask even when no row is null (a nullable
 * column stays nullable, as libcudf's column copy); a view without one, or of 0 rows, gives
 * a copy without one.
 */
gcol_status gcol_column_copy(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                             gcol_column **out);

/** @brief A column of 0 rows of the same type (nested types get empty children). */
gcol_status gcol_column_empty_like(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                                   gcol_column **out);

/** @brief A fixed-width column of @p size rows of the same type, data uninitialized. */
gcol_status gcol_column_allocate_like(gcol_column_view view, int64_t size,
                                      gcol_mask_state mask_state, gcol_stream stream,
                                      gcol_mr *mr, gcol_column **out);

/**
 * @brief Replaces a column's null mask (taking ownership of @p null_mask, which may be NULL)
 *        and sets its null count. The old mask is freed (gcol_buffer_free(): a mask shared
 *        with a shallow copy stays with the copy). Writes nothing into any buffer.
 */
gcol_status gcol_column_set_null_mask(gcol_column *column, gcol_buffer *null_mask,
                                      int64_t null_count);

/** @brief Sets the null count after writing a mask in place (0 <= count <= size). */
gcol_status gcol_column_set_null_count(gcol_column *column, int64_t null_count);

/** @brief Frees a column, its buffers and its children. NULL is a no-op. */
void gcol_column_free(gcol_column *column);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_COLUMN_H */
