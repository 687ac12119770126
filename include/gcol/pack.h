/**
 * @file pack.h
 * @ingroup gcol_pack
 * @brief Contiguous pack / unpack of a table: one device buffer plus a small host metadata
 *        blob, the unit that spilling, files and shuffles move.
 *
 * @code
 * gcol_packed_table *packed = NULL;
 * gcol_pack(table, &packed, stream, NULL);            // one device buffer + host metadata
 * gcol_unpacked_table *u = NULL;
 * gcol_unpack(packed->metadata, packed->metadata_size, packed->data->data,
 *             packed->data->size, &u);                 // zero-copy views, host only
 * use(u->table);
 * gcol_unpacked_table_free(u);                         // before the memory it views
 * gcol_packed_table_free(packed);
 * @endcode
 *
 * Metadata format (version 1; every integer little-endian as the host writes it, so the
 * blob is read back by hosts of the same endianness):
 * - a 64-byte header: magic "GCPK" (uint32 0x4B504347), version (uint32, 1), header size
 *   (uint32, 64), node size (uint32, 64), number of top-level columns (int32), alignment
 *   (uint32, ::GCOL_PACK_ALIGNMENT), number of nodes (int64), rows (int64), data size (int64,
 *   the bytes of the device buffer), 16 reserved bytes (zero);
 * - then one 64-byte node per column and child column, depth-first pre-order (a node, then
 *   its children): type id (int32), decimal scale (int32), number of children (int32), flags
 *   (int32, bit 0: has a null mask), rows (int64), null count (int64), data offset and data
 *   size in bytes (int64 each), mask offset and mask size in bytes (int64 each).
 *
 * Layout of the device buffer: every non-empty buffer (fixed-width values, string chars,
 * offsets, null masks) starts at a multiple of ::GCOL_PACK_ALIGNMENT bytes. A packed column
 * holds exactly its rows: a slice is packed with its offsets rebased to start at 0 and its
 * null mask re-aligned to bit 0 (padding bits zero, mask size rounded up to 64 bytes). STRING
 * has one child, its offsets (INT32 or INT64 as in the input, rows + 1 values); LIST has the
 * offsets and the values child; STRUCT has one child per field (no data of its own).
 */
#ifndef GCOL_PACK_H
#define GCOL_PACK_H

/** @addtogroup gcol_pack
 *  @{ */

#include "gcol/buffer.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief Byte alignment of every buffer inside a packed device buffer. */
#define GCOL_PACK_ALIGNMENT 256

/** @brief Magic number of a packed metadata blob ("GCPK" in memory on little-endian hosts). */
#define GCOL_PACK_MAGIC 0x4B504347u

/** @brief Magic number of serialized packed-table bytes ("GCPS"). */
#define GCOL_PACK_SERIAL_MAGIC 0x53504347u

/** @brief Version of the metadata and serialized formats written by this library. */
#define GCOL_PACK_VERSION 1u

/** @brief Bytes of the metadata header (and of the serialized header's prefix). */
#define GCOL_PACK_HEADER_SIZE 64

/** @brief Bytes of one column node in the metadata. */
#define GCOL_PACK_NODE_SIZE 64

/** @brief Bytes of the header of serialized bytes, before the metadata and the data. */
#define GCOL_PACK_SERIAL_HEADER_SIZE 32

/** @brief Deepest nesting of columns accepted by gcol_unpack() (the top level is depth 1). */
#define GCOL_PACK_MAX_DEPTH 64

/** @brief A packed table: one owned device buffer and an owned host metadata blob. */
typedef struct gcol_packed_table {
  gcol_buffer *data;    /**< Device buffer holding every column buffer (never NULL). */
  uint8_t *metadata;    /**< Host metadata blob (malloc'ed), see the file documentation. */
  size_t metadata_size; /**< Bytes of @p metadata. */
} gcol_packed_table;

/** @brief Zero-copy views of a packed table, owning only the host arrays of views. */
typedef struct gcol_unpacked_table {
  gcol_table_view table;   /**< The table; its columns point into the device memory given. */
  gcol_column_view *views; /**< Every column and child view (top-level columns first). */
  int64_t num_views;       /**< Entries of @p views. */
} gcol_unpacked_table;

/**
 * @brief Packs a table (every layout but DICTIONARY32, sliced or not) into one contiguous
 *        device buffer allocated from @p mr plus a host metadata blob.
 * @param[in] input The table; each column's size must equal @p input.num_rows.
 * @param[out] out The packed table (NULL on failure); free with gcol_packed_table_free().
 * @param[in] stream Stream of the copies.
 * @param[in] mr Resource of the device buffer (NULL: the default); temporaries come from the
 *        default resource.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointer, malformed view),
 *         ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32), ::GCOL_ERROR_OVERFLOW (sizes beyond
 *         INT64_MAX), ::GCOL_ERROR_OUT_OF_MEMORY, ::GCOL_ERROR_CUDA.
 * @note The copies are asynchronous on @p stream. The host synchronizes with @p stream once
 *       per nesting level that holds STRING or LIST columns (to read their first and last
 *       offsets, which size the chars and values), and once more when some column with a
 *       mask has ::GCOL_UNKNOWN_NULL_COUNT (such as a slice): its nulls are counted by the
 *       mask copy. A table of fixed-width columns with known null counts packs without
 *       synchronizing. The input must stay alive until the copies on @p stream complete.
 */
gcol_status gcol_pack(gcol_table_view input, gcol_packed_table **out, gcol_stream stream,
                      gcol_mr *mr);

/**
 * @brief Frees a packed table: its device buffer (stream-ordered on the stream it was
 *        allocated on) and its metadata. NULL-safe.
 * @param[in] packed The packed table, or NULL.
 */
void gcol_packed_table_free(gcol_packed_table *packed);

/**
 * @brief Views of a packed table in device memory, from its metadata: no copy, no kernel,
 *        no synchronization.
 * @param[in] metadata The metadata blob (host memory).
 * @param[in] metadata_size Its bytes.
 * @param[in] data Device memory holding the packed buffer (not necessarily owned by a
 *        ::gcol_packed_table: it may have been received over a network). Must be aligned to
 *        16 bytes; may be NULL only when the metadata needs no data.
 * @param[in] data_size Bytes available at @p data (at least the data size in the metadata).
 * @param[out] out The views (NULL on failure); free with gcol_unpacked_table_free().
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointer, or metadata that is
 *         truncated, of another version, or inconsistent), ::GCOL_ERROR_OUT_OF_MEMORY (host).
 * @note Validated on the host, completely: magic, version, header and node sizes, exact blob
 *       size, counts, type ids and scales, children count and types per layout (STRING: one
 *       INT32/INT64 offsets child of rows + 1 values without nulls; LIST: offsets and values;
 *       STRUCT: fields of the struct's rows; fixed-width: none), sizes and null counts in
 *       range, every buffer's offset aligned and its extent within the data size (computed
 *       without overflow), data sizes matching rows times width, mask sizes covering the
 *       rows, top-level rows equal, nesting depth at most ::GCOL_PACK_MAX_DEPTH. Trusted (they
 *       live in device memory, which unpack does not read): the offset values (ascending,
 *       starting at 0, ending at the chars bytes or the values' rows) and that null counts
 *       match the mask bits. The views borrow @p data: free @p out before that memory.
 */
gcol_status gcol_unpack(const uint8_t *metadata, size_t metadata_size, const void *data,
                        size_t data_size, gcol_unpacked_table **out);

/**
 * @brief Frees the host arrays of an unpacked table (not the device memory it views).
 *        NULL-safe.
 * @param[in] unpacked The unpacked table, or NULL.
 */
void gcol_unpacked_table_free(gcol_unpacked_table *unpacked);

/**
 * @brief Serializes a packed table into one host byte array: a 32-byte header (magic
 *        ::GCOL_PACK_SERIAL_MAGIC, version, reserved, metadata size, data size as uint32,
 *        uint32, uint64, uint64, uint64), the metadata, then the device data.
 * @param[in] packed The packed table (its metadata is validated as by gcol_unpack()).
 * @param[out] bytes The array (malloc'ed: the caller frees it with free()); NULL on failure.
 * @param[out] size Its bytes (0 on failure).
 * @param[in] stream Stream of the device-to-host copy.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointer, invalid metadata),
 *         ::GCOL_ERROR_OVERFLOW, ::GCOL_ERROR_OUT_OF_MEMORY (host), ::GCOL_ERROR_CUDA.
 * @note Synchronizes @p stream (the data is in @p bytes on return).
 */
gcol_status gcol_packed_table_serialize(const gcol_packed_table *packed, uint8_t **bytes,
                                        size_t *size, gcol_stream stream);

/**
 * @brief Rebuilds a packed table from serialized bytes: the metadata is validated as by
 *        gcol_unpack(), the data copied into a new device buffer from @p mr.
 * @param[in] bytes The serialized bytes (host memory).
 * @param[in] size Their length: exactly the header, metadata and data sizes they announce.
 * @param[out] out The packed table (NULL on failure); free with gcol_packed_table_free().
 * @param[in] stream Stream of the host-to-device copy.
 * @param[in] mr Resource of the device buffer (NULL: the default).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointer, truncated or corrupted
 *         bytes), ::GCOL_ERROR_OUT_OF_MEMORY, ::GCOL_ERROR_CUDA.
 * @note The copy is asynchronous on @p stream; @p bytes may be freed once this returns
 *       (a copy from pageable memory stages the source before returning).
 */
gcol_status gcol_packed_table_deserialize(const uint8_t *bytes, size_t size,
                                          gcol_packed_table **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_PACK_H */
