/**
 * @file table.h
 * @ingroup gcol_core
 * @brief Tables: ordered sets of columns of equal size, owning (`gcol_table`) and
 *        non-owning (`gcol_table_view`).
 *
 * @code
 * gcol_column_view cols[2] = {gcol_column_get_view(a), gcol_column_get_view(b)};
 * gcol_table_view t;
 * gcol_status st = gcol_table_view_make(cols, 2, &t); // checks the sizes agree
 * @endcode
 */
#ifndef GCOL_TABLE_H
#define GCOL_TABLE_H

/** @addtogroup gcol_core
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief A non-owning view of columns of equal size; `columns` is a host array. */
typedef struct gcol_table_view {
  int32_t num_columns;             /**< Number of columns. */
  int64_t num_rows;                /**< Rows of every column (0 when there are none). */
  const gcol_column_view *columns; /**< Host array of @p num_columns views. */
} gcol_table_view;

/** @brief An owning table: owns its columns. */
typedef struct gcol_table {
  int32_t num_columns;   /**< Number of columns. */
  int64_t num_rows;      /**< Rows of every column. */
  gcol_column **columns; /**< Owned columns. */
  /** Storage of their views: filled by gcol_table_get_view() and gcol_table_acquire_view()
   *  (zeroed until then; a view pins or exposes a spillable buffer, so making a table
   *  takes none). Read views through those calls. */
  gcol_column_view *views;
} gcol_table;

/**
 * @brief Makes a table view over @p num_columns views (the array is referenced, not
 *        copied: keep it alive).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL arrays, negative count),
 *         ::GCOL_ERROR_SIZE_MISMATCH (sizes differ; the message names the column).
 */
gcol_status gcol_table_view_make(const gcol_column_view *columns, int32_t num_columns,
                                 gcol_table_view *out);

/**
 * @brief Selects columns by index into @p storage (host array of @p num_indices views) and
 *        makes @p out a view over it. Indices may repeat.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT for an index out of range.
 */
gcol_status gcol_table_view_select(gcol_table_view view, const int32_t *indices,
                                   int32_t num_indices, gcol_column_view *storage,
                                   gcol_table_view *out);

/**
 * @brief Zero-copy slice of every column to rows `[begin, end)`, written into @p storage
 *        (host array of `view.num_columns` views).
 */
gcol_status gcol_table_view_slice(gcol_table_view view, int64_t begin, int64_t end,
                                  gcol_column_view *storage, gcol_table_view *out);

/**
 * @brief Makes a table that owns @p columns (all of one size; the array is copied). On
 *        failure the caller still owns the columns.
 */
gcol_status gcol_table_make(gcol_column **columns, int32_t num_columns, gcol_table **out);

/**
 * @brief The view of an owning table (valid while the table lives): its columns'
 *        gcol_column_get_view() (with spilling on, spilled buffers come back and are pinned
 *        to the running scope, or exposed outside any scope; see gcol/spill.h).
 */
gcol_table_view gcol_table_get_view(const gcol_table *table);

/**
 * @brief gcol_table_get_view() with a status and a stream: every column through
 *        gcol_column_acquire_view() on @p stream.
 * @param[in] table The table.
 * @param[in] stream Stream the view will be used on.
 * @param[out] out The view; zeroed on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers),
 *         ::GCOL_ERROR_OUT_OF_MEMORY (a spilled buffer cannot come back), CUDA status.
 */
gcol_status gcol_table_acquire_view(const gcol_table *table, gcol_stream stream,
                                    gcol_table_view *out);

/**
 * @brief Deep-copies every column of @p view into a new table (see gcol_column_copy()).
 */
gcol_status gcol_table_copy(gcol_table_view view, gcol_stream stream, gcol_mr *mr,
                            gcol_table **out);

/**
 * @brief A shallow copy of @p table: every column copied with gcol_column_copy_shallow()
 *        (the buffers are shared, not copied, except exposed ones). A read access.
 * @param[in] table The table.
 * @param[in] stream Stream of the copies of exposed buffers.
 * @param[out] out The new table; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_table_copy_shallow(const gcol_table *table, gcol_stream stream, gcol_table **out);

/**
 * @brief Takes the columns out of @p table and frees the table struct: the caller owns
 *        the returned array (free it with `free()`) and each column.
 * @param[in] table The table (freed by the call).
 * @param[out] out_columns The columns (NULL when there are none).
 * @param[out] out_num_columns Their number.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT for a NULL pointer.
 */
gcol_status gcol_table_release(gcol_table *table, gcol_column ***out_columns,
                               int32_t *out_num_columns);

/** @brief Frees a table and its columns. NULL is a no-op. */
void gcol_table_free(gcol_table *table);

/**
 * @brief A column in host memory: fixed-width values, or the bytes and offsets of a STRING
 *        column, and the validity as one byte per row.
 */
typedef struct gcol_host_column {
  gcol_data_type type; /**< The column's type (fixed width or STRING). */
  int64_t size;        /**< Rows. */
  void *data;          /**< Fixed width: `size` values of the type's storage (see
                            gcol_type_storage_id()); STRING: the bytes of all rows. */
  int64_t *offsets;    /**< STRING: `size + 1` byte offsets into @p data (0 first in what
                            gcol_table_copy_to_host() makes; any start on input); else NULL. */
  uint8_t *valid;      /**< NULL (no nulls), or `size` bytes: non-zero = valid. */
} gcol_host_column;

/** @brief A table in host memory (made by gcol_table_copy_to_host() or by the caller). */
typedef struct gcol_host_table {
  int32_t num_columns;       /**< Number of columns. */
  int64_t num_rows;          /**< Rows of every column. */
  gcol_host_column *columns; /**< @p num_columns columns. */
} gcol_host_table;

/**
 * @brief Copies every column of @p view to host memory (slices honoured, string offsets
 *        rebased to 0). A column with a null mask gets a `valid` array, one without gets
 *        NULL. Free the result with gcol_host_table_free().
 * @param[in] view The table (fixed-width and STRING columns).
 * @param[in] stream Stream of the copies.
 * @param[out] out The host table; NULL on failure.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, malformed views);
 *         ::GCOL_ERROR_UNSUPPORTED (a LIST, STRUCT or DICTIONARY32 column: the message names
 *         it); ::GCOL_ERROR_OUT_OF_MEMORY (host); a CUDA status.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_table_copy_to_host(gcol_table_view view, gcol_stream stream,
                                    gcol_host_table **out);

/** @brief Frees a host table made by gcol_table_copy_to_host(). NULL is a no-op. */
void gcol_host_table_free(gcol_host_table *table);

/**
 * @brief Copies one fixed-width or STRING column to host memory: the same form as a column
 *        of gcol_table_copy_to_host(), for both kinds (gcol allocates every array, the
 *        caller frees them all with gcol_host_column_free()). Slices are honoured, string
 *        offsets rebased to 0; a view with a null mask gets a `valid` array, one without
 *        gets NULL. Read rows with gcol_host_column_is_valid() and
 *        gcol_host_column_string().
 *
 * The older column forms differ by kind: gcol_column_copy_to_host() writes fixed-width rows
 * into the caller's arrays, gcol_column_strings_copy_to_host() allocates a
 * ::gcol_host_strings. This one and gcol_column_create_from_host_column() take and return
 * memory the same way whatever the type.
 * @param[in] view The column.
 * @param[in] stream Stream of the copies.
 * @param[out] out The host column; NULL on failure.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a malformed view);
 *         ::GCOL_ERROR_UNSUPPORTED (LIST, STRUCT, DICTIONARY32, EMPTY);
 *         ::GCOL_ERROR_OUT_OF_MEMORY (host); a CUDA status.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_column_copy_to_host_column(gcol_column_view view, gcol_stream stream,
                                            gcol_host_column **out);

/** @brief Frees a host column made by gcol_column_copy_to_host_column(). NULL is a no-op. */
void gcol_host_column_free(gcol_host_column *column);

/**
 * @brief Builds a device column from a host one (fixed width or STRING): the inverse of
 *        gcol_column_copy_to_host_column(), and what gcol_table_create_from_host() does per
 *        column. The host arrays stay the caller's.
 * @param[in] host The host column (`offsets` required for STRING, any first offset).
 * @param[in] stream Stream of the copies.
 * @param[in] mr Resource of the column's memory, or NULL for the default.
 * @param[out] out The column; NULL on failure.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, a STRING column without
 *         offsets); ::GCOL_ERROR_UNSUPPORTED (a type other than fixed width and STRING); as
 *         gcol_column_create_from_host() and gcol_column_create_strings_from_host_offsets()
 *         otherwise.
 * @note Synchronizes @p stream (the host arrays may be freed on return).
 */
gcol_status gcol_column_create_from_host_column(const gcol_host_column *host, gcol_stream stream,
                                                gcol_mr *mr, gcol_column **out);

/**
 * @brief Whether row @p row (0 <= row < size, unchecked) of a host column is valid.
 */
static inline bool gcol_host_column_is_valid(const gcol_host_column *column, int64_t row) {
  return column->valid == NULL || column->valid[row] != 0;
}

/**
 * @brief Row @p row (0 <= row < size, unchecked) of a STRING host column: its bytes (not
 *        NUL-terminated: print with `"%.*s"`) and their number.
 * @param[in] column A STRING host column (as gcol_column_copy_to_host_column() or
 *                   gcol_table_copy_to_host() make).
 * @param[in] row The row.
 * @param[out] length The row's byte length (0 for a null row); may be NULL.
 * @return The row's first byte; NULL for a null row, so that "" (a valid empty row: a
 *         non-NULL pointer, length 0) and null differ. NULL too if @p column is not STRING.
 */
static inline const char *gcol_host_column_string(const gcol_host_column *column, int64_t row,
                                                  int64_t *length) {
  if (length != NULL) *length = 0;
  if (column->type.id != GCOL_STRING || column->offsets == NULL) return NULL;
  if (!gcol_host_column_is_valid(column, row)) return NULL;
  if (length != NULL) *length = column->offsets[row + 1] - column->offsets[row];
  return column->data != NULL ? (const char *)column->data + column->offsets[row] : "";
}

/**
 * @brief Builds a device table from a host one (gcol_column_create_from_host() and
 *        gcol_column_create_strings_from_host_offsets() per column).
 * @param[in] host The host table: every column of `host->num_rows` rows.
 * @param[in] stream Stream of the copies.
 * @param[in] mr Resource of the table's memory, or NULL for the default.
 * @param[out] out The table; NULL on failure.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, a column whose size is
 *         not `num_rows`, a STRING column without offsets: the message names the column);
 *         ::GCOL_ERROR_UNSUPPORTED (a type other than fixed width and STRING); as the
 *         column calls otherwise.
 * @note Synchronizes @p stream (the host arrays may be freed on return).
 */
gcol_status gcol_table_create_from_host(const gcol_host_table *host, gcol_stream stream,
                                        gcol_mr *mr, gcol_table **out);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_TABLE_H */
