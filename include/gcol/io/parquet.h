/**
 * @file parquet.h
 * @ingroup gcol_parquet
 * @brief Apache Parquet files: the footer's metadata (schema, row groups, statistics,
 *        key-value pairs) parsed on the host, and a reader of flat columns whose pages are
 *        decoded on the GPU.
 *
 * A file comes from a path, a host buffer or a ::gcol_parquet_source (a callback that reads
 * byte ranges, so a pipeline can feed its own storage).
 *
 * @code
 * gcol_parquet_metadata *md = NULL;
 * gcol_parquet_metadata_read_file("data.parquet", &md);
 * int32_t rg = gcol_parquet_metadata_num_row_groups(md);
 * gcol_parquet_statistics st;
 * gcol_parquet_metadata_statistics(md, 0, 0, &st);   // row group 0, leaf column 0
 * gcol_parquet_metadata_free(md);
 *
 * gcol_parquet_read_options opt;
 * gcol_parquet_read_options_init(&opt);
 * const char *names[] = {"price", "name"};
 * opt.column_names = names;
 * opt.num_column_names = 2;
 * gcol_table *t = NULL;
 * gcol_parquet_read_file("data.parquet", &opt, &t, stream, NULL);
 * @endcode
 *
 * What this part reads: flat and nested columns. A default read returns one column per
 * top-level field: a group is a STRUCT, a LIST group (3 levels, or the legacy 2-level forms)
 * or a repeated field a LIST, a MAP a LIST of STRUCT<key, value>, at any depth (a struct was
 * returned as its flat leaves before). gcol_parquet_read_options::column_names may name a
 * top-level field or a dotted path to a group or leaf outside lists (a leaf read flat, null
 * where a struct above is null); gcol_parquet_read_options::columns are leaf indices, each
 * read flat, or, for a leaf inside a list, its whole top-level column. Nested columns' pages
 * are decompressed on the host (never by nvCOMP) and their levels decoded there; reads that
 * hold one skip no pages by the page index. Column chunks UNCOMPRESSED or
 * compressed with SNAPPY, ZSTD, GZIP or LZ4_RAW (see Compression below), data pages v1 and v2,
 * PLAIN and dictionary (PLAIN_DICTIONARY, RLE_DICTIONARY) values, DELTA_BINARY_PACKED integers,
 * DELTA_LENGTH_BYTE_ARRAY strings, DELTA_BYTE_ARRAY byte arrays (BYTE_ARRAY and
 * FIXED_LEN_BYTE_ARRAY), BYTE_STREAM_SPLIT floats, integers and FIXED_LEN_BYTE_ARRAY, RLE
 * booleans, RLE/bit-packed definition levels; physical types BOOLEAN, INT32, INT64, INT96
 * (legacy timestamps), FLOAT, DOUBLE, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (decimals, FLOAT16,
 * UUID, and bytes without a logical type). Anything else (LZO, BROTLI and Hadoop LZ4 chunks,
 * FIXED_LEN_BYTE_ARRAY INTERVAL) gives ::GCOL_ERROR_UNSUPPORTED with a message
 * that names the file, the row group, the column and, for pages, the page.
 *
 * Types: BOOLEAN -> BOOL8; INT32 -> INT32, or INT8/INT16/UINT8/UINT16/UINT32 (INTEGER
 * logical type), TIMESTAMP_DAYS (DATE), DECIMAL32 (DECIMAL, scale negated: gcol's value is
 * `unscaled * 10^scale`), DURATION_MILLISECONDS (TIME in milliseconds); INT64 -> INT64,
 * UINT64, TIMESTAMP_MILLISECONDS/MICROSECONDS/NANOSECONDS (TIMESTAMP), DECIMAL64,
 * DURATION_MICROSECONDS/NANOSECONDS (TIME); INT96 -> TIMESTAMP_NANOSECONDS; FLOAT -> FLOAT32;
 * DOUBLE -> FLOAT64; BYTE_ARRAY -> STRING (binary too); FIXED_LEN_BYTE_ARRAY DECIMAL of up to 16
 * bytes -> DECIMAL32/64/128 by its precision (<= 9, <= 18, <= 38); FIXED_LEN_BYTE_ARRAY FLOAT16
 * (2 bytes) -> FLOAT32 (gcol has no half type; every half converts exactly: subnormals,
 * infinities, -0, NaNs with their payload); FIXED_LEN_BYTE_ARRAY without a logical type, or
 * UUID (16 bytes) -> STRING, each value its type_length bytes (binary, as BYTE_ARRAY binary is
 * read). A FIXED_LEN_BYTE_ARRAY whose length the format forbids (below 1, FLOAT16 not 2, UUID
 * not 16) gives ::GCOL_ERROR_INVALID_ARGUMENT naming the column; INTERVAL gives
 * ::GCOL_ERROR_UNSUPPORTED naming it.
 *
 * Compression: SNAPPY, ZSTD, GZIP and LZ4_RAW pages are decompressed on the GPU by nvCOMP when
 * it is found at run time: `GCOL_NVCOMP_PATH` names the library file or its directory
 * (libnvcomp.so.6, then libnvcomp.so.5, nvCOMP 5.x or 6.x), else the loader's search path is
 * tried for those names; `GCOL_NVCOMP=off` never uses it. All the compressed pages of a read
 * go to the device with the rest of its bytes and are decompressed in one batched call per
 * codec; their statuses and sizes are checked on the device and read with the page errors
 * (a failed page gives ::GCOL_ERROR_INVALID_ARGUMENT naming it). nvCOMP's decoders assume
 * valid input, so gcol_parquet_read_options::untrusted sends a file that may be corrupt to
 * the host path instead. The host path (without nvCOMP, or untrusted): pages are
 * decompressed before their bytes go to the GPU, by the
 * distribution's shared libraries, opened with dlopen on first use (once, thread-safe):
 * libsnappy.so.1 (SNAPPY), libzstd.so.1 (ZSTD), libz.so.1 (GZIP) and liblz4.so.1 (LZ4_RAW).
 * gcol neither builds nor links against any of these libraries: a host library that is not
 * installed makes only its codec fail on the host path, with ::GCOL_ERROR_UNSUPPORTED and a
 * message naming the page and the library ("... page 0: SNAPPY needs libsnappy.so.1, not
 * found"). A page whose data is corrupt or decompresses to another size than its header says,
 * or whose header announces more than its compressed bytes can hold (or over 1 GiB), gives
 * ::GCOL_ERROR_INVALID_ARGUMENT. In data pages v2 only the values are compressed (the levels
 * never are), and not at all when the header says so.
 *
 * Writing: gcol_parquet_write_file() / gcol_parquet_write_buffer() (PLAIN, or dictionary
 * encoding as gcol_parquet_write_options::dictionary asks; UNCOMPRESSED unless
 * gcol_parquet_write_options::codec says otherwise; with statistics and nulls), read back by
 * pyarrow.
 *
 * Bad input (wrong magic bytes, a truncated file, a footer or page header that is not valid
 * Thrift or points outside the file, sizes that disagree): ::GCOL_ERROR_INVALID_ARGUMENT and
 * a message saying which file, row group, column and page; never a read outside the input.
 */
#ifndef GCOL_IO_PARQUET_H
#define GCOL_IO_PARQUET_H

/** @addtogroup gcol_parquet
 *  @{ */

#include <stdbool.h>
#include <stdint.h>

#include "gcol/config.h"
#include "gcol/expression.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief Parquet's physical types (the numbers of parquet.thrift's `Type`). */
typedef enum gcol_parquet_physical_type {
  GCOL_PARQUET_BOOLEAN = 0,             /**< One bit per value. */
  GCOL_PARQUET_INT32 = 1,               /**< 32-bit integers. */
  GCOL_PARQUET_INT64 = 2,               /**< 64-bit integers. */
  GCOL_PARQUET_INT96 = 3,               /**< Legacy 96-bit timestamps (read as nanoseconds). */
  GCOL_PARQUET_FLOAT = 4,               /**< IEEE 754 binary32. */
  GCOL_PARQUET_DOUBLE = 5,              /**< IEEE 754 binary64. */
  GCOL_PARQUET_BYTE_ARRAY = 6,          /**< Variable-length bytes. */
  GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY = 7 /**< Fixed-length bytes (decimals, FLOAT16, UUID,
                                             binary; not INTERVAL). */
} gcol_parquet_physical_type;

/** @brief Parquet's logical types (the field ids of parquet.thrift's `LogicalType` union;
 *         ::GCOL_PARQUET_LOGICAL_NONE when the column has none). A file that carries only a
 *         legacy `ConvertedType` is mapped to the equivalent logical type. */
typedef enum gcol_parquet_logical_type {
  GCOL_PARQUET_LOGICAL_NONE = 0,      /**< No logical type. */
  GCOL_PARQUET_LOGICAL_STRING = 1,    /**< UTF-8 text. */
  GCOL_PARQUET_LOGICAL_MAP = 2,       /**< A map group. */
  GCOL_PARQUET_LOGICAL_LIST = 3,      /**< A list group. */
  GCOL_PARQUET_LOGICAL_ENUM = 4,      /**< An enum as text. */
  GCOL_PARQUET_LOGICAL_DECIMAL = 5,   /**< Decimal: see decimal_precision, decimal_scale. */
  GCOL_PARQUET_LOGICAL_DATE = 6,      /**< Days since the epoch. */
  GCOL_PARQUET_LOGICAL_TIME = 7,      /**< Time of day: see time_unit. */
  GCOL_PARQUET_LOGICAL_TIMESTAMP = 8, /**< Instant or local time: see time_unit. */
  GCOL_PARQUET_LOGICAL_INTEGER = 10,  /**< Integer: see bit_width, is_signed. */
  GCOL_PARQUET_LOGICAL_UNKNOWN = 11,  /**< Always null. */
  GCOL_PARQUET_LOGICAL_JSON = 12,     /**< JSON text. */
  GCOL_PARQUET_LOGICAL_BSON = 13,     /**< BSON bytes. */
  GCOL_PARQUET_LOGICAL_UUID = 14,     /**< 16-byte UUID. */
  GCOL_PARQUET_LOGICAL_FLOAT16 = 15   /**< Half-precision float. */
} gcol_parquet_logical_type;

/** @brief Units of TIME and TIMESTAMP logical types. */
typedef enum gcol_parquet_time_unit {
  GCOL_PARQUET_UNIT_NONE = 0,   /**< Not a time type. */
  GCOL_PARQUET_UNIT_MILLIS = 1, /**< Milliseconds. */
  GCOL_PARQUET_UNIT_MICROS = 2, /**< Microseconds. */
  GCOL_PARQUET_UNIT_NANOS = 3   /**< Nanoseconds. */
} gcol_parquet_time_unit;

/** @brief Compression codecs (parquet.thrift's `CompressionCodec`). */
typedef enum gcol_parquet_codec {
  GCOL_PARQUET_UNCOMPRESSED = 0, /**< No compression. */
  GCOL_PARQUET_SNAPPY = 1,       /**< Snappy: read and written (libsnappy.so.1). */
  GCOL_PARQUET_GZIP = 2,         /**< Gzip: read and written (libz.so.1). */
  GCOL_PARQUET_LZO = 3,          /**< LZO: not read. */
  GCOL_PARQUET_BROTLI = 4,       /**< Brotli: not read. */
  GCOL_PARQUET_LZ4 = 5,          /**< Hadoop LZ4 (deprecated): not read. */
  GCOL_PARQUET_ZSTD = 6,         /**< Zstandard: read and written (libzstd.so.1). */
  GCOL_PARQUET_LZ4_RAW = 7       /**< Raw LZ4 block: read and written (liblz4.so.1). */
} gcol_parquet_codec;

/**
 * @brief A file as byte ranges read on request, for storage gcol cannot open itself.
 *
 * gcol reads the footer first (the last 8 bytes, then the footer), then the byte ranges of
 * the column chunks it needs, in reads of at most 4 MiB into page-locked staging memory
 * (include/gcol/io/staging.h); chunks less than 1 MiB apart are read together with the gap
 * between them, and where such a read fails the chunks are asked for again one by one (the
 * error then names the chunk). Ranges asked for always lie within [0, size).
 */
typedef struct gcol_parquet_source {
  /** Bytes in the file. */
  int64_t size;
  /** Copies @p length bytes at @p offset into @p dst; returns 0 on success, anything else
   *  is reported as a failed read (::GCOL_ERROR_INVALID_ARGUMENT). A large read may call it
   *  from a thread gcol starts for the call as well as the caller's, never two calls at once
   *  and never after the read returns. */
  int (*read)(void *user, int64_t offset, int64_t length, void *dst);
  /** Passed to @p read. */
  void *user;
  /** Name used in messages (a path or URL), or NULL for "source". Not copied: it must live
   *  as long as the call. */
  const char *name;
} gcol_parquet_source;

/** @brief A parsed footer (opaque). Free with gcol_parquet_metadata_free(). */
typedef struct gcol_parquet_metadata gcol_parquet_metadata;

/** @brief One leaf column of the schema, as gcol reads it. Strings point into the metadata
 *         and live until it is freed. */
typedef struct gcol_parquet_column_info {
  const char *name;                         /**< Dotted path from the root ("a.b"). */
  gcol_parquet_physical_type physical_type; /**< Physical type. */
  int32_t type_length;                      /**< Bytes of FIXED_LEN_BYTE_ARRAY, else 0. */
  gcol_parquet_logical_type logical_type;   /**< Logical type, or NONE. */
  gcol_parquet_time_unit time_unit;         /**< Unit of TIME/TIMESTAMP, else NONE. */
  bool adjusted_to_utc;                     /**< TIME/TIMESTAMP: an instant (UTC). */
  int32_t bit_width;                        /**< INTEGER: 8, 16, 32 or 64, else 0. */
  bool is_signed;                           /**< INTEGER: signed. */
  int32_t decimal_precision;                /**< DECIMAL: digits, else 0. */
  int32_t decimal_scale;                    /**< DECIMAL: Parquet's scale (digits after the
                                                 point), else 0. */
  bool nullable;                            /**< Some level on the path is optional. */
  int32_t max_definition_level;             /**< Max definition level. */
  int32_t max_repetition_level;             /**< Max repetition level (0: not in a list). */
  /** The gcol type the reader produces, or ::GCOL_EMPTY when the reader cannot read the
   *  column (see the file's description; also a FIXED_LEN_BYTE_ARRAY of a length the format
   *  forbids). */
  gcol_data_type type;
} gcol_parquet_column_info;

/** @brief One column chunk's metadata and statistics (row group, leaf column). Pointers
 *         point into the metadata and live until it is freed. */
typedef struct gcol_parquet_statistics {
  gcol_parquet_codec codec;  /**< The chunk's compression codec. */
  int64_t num_values;        /**< Values (levels) in the chunk. */
  int64_t compressed_size;   /**< Bytes in the file. */
  int64_t uncompressed_size; /**< Bytes after decompression. */
  bool has_null_count;       /**< The writer recorded the null count. */
  int64_t null_count;        /**< Nulls in the chunk, when has_null_count. */
  bool has_min_max;          /**< The writer recorded min and max. */
  const uint8_t *min;        /**< Min, PLAIN-encoded (no length prefix for BYTE_ARRAY). */
  int64_t min_size;          /**< Bytes of min. */
  const uint8_t *max;        /**< Max, PLAIN-encoded. */
  int64_t max_size;          /**< Bytes of max. */
  bool has_integer_min_max;  /**< min_i64/max_i64 hold the decoded values (BOOLEAN,
                                  INT32, INT64; unsigned INTEGERs as their bits;
                                  FIXED_LEN_BYTE_ARRAY decimals of precision <= 18 as
                                  their unscaled integers). */
  int64_t min_i64;           /**< Decoded min of an integer-like column. */
  int64_t max_i64;           /**< Decoded max of an integer-like column. */
  bool has_float_min_max;    /**< min_f64/max_f64 hold the decoded values. */
  double min_f64;            /**< Decoded min of FLOAT/DOUBLE/FLOAT16. */
  double max_f64;            /**< Decoded max of FLOAT/DOUBLE/FLOAT16. */
} gcol_parquet_statistics;

/**
 * @brief Reads and parses the footer of the file at @p path.
 * @param[in] path A file.
 * @param[out] out The metadata; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL arguments, unreadable file, not a
 *         Parquet file, a corrupt or inconsistent footer: the message says where),
 *         ::GCOL_ERROR_UNSUPPORTED (encrypted footers), ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_parquet_metadata_read_file(const char *path, gcol_parquet_metadata **out);

/**
 * @brief Parses the footer of a file held in host memory.
 * @param[in] data The whole file (not copied beyond the footer; may be freed on return).
 * @param[in] size Its bytes.
 * @param[out] out The metadata; NULL on failure.
 * @return As gcol_parquet_metadata_read_file().
 */
gcol_status gcol_parquet_metadata_read_buffer(const void *data, int64_t size,
                                              gcol_parquet_metadata **out);

/**
 * @brief Parses the footer of a file read through @p source.
 * @param[in] source The callbacks (copied: only needed during the call).
 * @param[out] out The metadata; NULL on failure.
 * @return As gcol_parquet_metadata_read_file().
 */
gcol_status gcol_parquet_metadata_read_source(const gcol_parquet_source *source,
                                              gcol_parquet_metadata **out);

/** @brief Frees metadata. NULL is a no-op. */
void gcol_parquet_metadata_free(gcol_parquet_metadata *metadata);

/** @brief Rows in the file (the footer's count). */
int64_t gcol_parquet_metadata_num_rows(const gcol_parquet_metadata *metadata);

/** @brief Row groups in the file. */
int32_t gcol_parquet_metadata_num_row_groups(const gcol_parquet_metadata *metadata);

/** @brief Rows in row group @p row_group, or -1 when it is out of range. */
int64_t gcol_parquet_metadata_row_group_num_rows(const gcol_parquet_metadata *metadata,
                                                 int32_t row_group);

/** @brief Leaf columns of the schema (the columns of the file's table when it is flat). */
int32_t gcol_parquet_metadata_num_columns(const gcol_parquet_metadata *metadata);

/** @brief The writer's name (`created_by`), or "" when absent. */
const char *gcol_parquet_metadata_created_by(const gcol_parquet_metadata *metadata);

/**
 * @brief Describes leaf column @p column.
 * @param[in] metadata The metadata.
 * @param[in] column A leaf index in [0, num_columns).
 * @param[out] out The description.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL, index out of range).
 */
gcol_status gcol_parquet_metadata_column(const gcol_parquet_metadata *metadata, int32_t column,
                                         gcol_parquet_column_info *out);

/**
 * @brief Finds a leaf column by its dotted name.
 * @param[in] metadata The metadata.
 * @param[in] name The name ("a" or "group.a").
 * @return The leaf index, or -1 when no column has that name.
 */
int32_t gcol_parquet_metadata_find_column(const gcol_parquet_metadata *metadata, const char *name);

/**
 * @brief The statistics of one column chunk.
 * @param[in] metadata The metadata.
 * @param[in] row_group A row group index.
 * @param[in] column A leaf index.
 * @param[out] out The statistics (flags say which were recorded).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL, indices out of range).
 */
gcol_status gcol_parquet_metadata_statistics(const gcol_parquet_metadata *metadata,
                                             int32_t row_group, int32_t column,
                                             gcol_parquet_statistics *out);

/** @brief Key-value pairs of the file's metadata (pyarrow stores its schema there). */
int32_t gcol_parquet_metadata_num_key_values(const gcol_parquet_metadata *metadata);

/**
 * @brief Key-value pair @p index. Strings are NUL-terminated copies that may also hold NUL
 *        bytes: the sizes say their lengths. A pair written without a value has
 *        `*value == NULL`.
 * @param[in] metadata The metadata.
 * @param[in] index In [0, num_key_values).
 * @param[out] key The key.
 * @param[out] key_size Bytes of the key, or NULL.
 * @param[out] value The value, or NULL when absent.
 * @param[out] value_size Bytes of the value, or NULL.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL, index out of range).
 */
gcol_status gcol_parquet_metadata_key_value(const gcol_parquet_metadata *metadata, int32_t index,
                                            const char **key, int64_t *key_size, const char **value,
                                            int64_t *value_size);

/**
 * @name Page index
 * The page index (parquet.thrift's ColumnIndex and OffsetIndex) describes each data page of a
 * column chunk: where it lies, its first row and, when the writer recorded them, its min, max,
 * null count and whether it holds only nulls (pyarrow writes it with `write_page_index=True`).
 * It lies outside the footer (between the last row group and the footer), so reading the
 * metadata does not read it: gcol_parquet_metadata_read_page_index_file(), _buffer() or
 * _source(), given the same file, read every chunk's index once (adjacent index bytes in one
 * read) and keep it in the metadata. Until then, and for chunks whose footer entry points to
 * no index, the page accessors say so. A corrupt index (bytes outside the file's data, not
 * valid Thrift, lists that disagree, pages outside their chunk or rows out of order) fails
 * the read with ::GCOL_ERROR_INVALID_ARGUMENT naming the row group and column, and leaves the
 * metadata as it was (the file stays readable without it). A read with
 * gcol_parquet_read_options::filter reads it itself to skip pages.
 * @{
 */

/** @brief The order of a chunk's page min/max values (parquet.thrift's `BoundaryOrder`). */
typedef enum gcol_parquet_boundary_order {
  GCOL_PARQUET_ORDER_UNORDERED = 0, /**< No order known. */
  GCOL_PARQUET_ORDER_ASCENDING = 1, /**< Mins and maxes ascend page by page. */
  GCOL_PARQUET_ORDER_DESCENDING = 2 /**< Mins and maxes descend page by page. */
} gcol_parquet_boundary_order;

/** @brief What the page index of one column chunk holds. */
typedef struct gcol_parquet_page_index_info {
  bool has_offset_index;    /**< The footer points to the chunk's OffsetIndex (page locations). */
  bool has_column_index;    /**< The footer points to the chunk's ColumnIndex (page statistics). */
  bool read;                /**< The metadata's page index has been read. */
  int32_t num_pages;        /**< Data pages in the OffsetIndex once read, else 0. */
  bool has_page_statistics; /**< Once read: the pages carry a ColumnIndex's statistics. */
  gcol_parquet_boundary_order boundary_order; /**< The ColumnIndex's order, else UNORDERED. */
} gcol_parquet_page_index_info;

/** @brief One data page of a column chunk, from its page index. Pointers point into the
 *         metadata and live until it is freed. */
typedef struct gcol_parquet_page_statistics {
  int64_t first_row;        /**< Its first row, counted from the start of its row group. */
  int64_t num_rows;         /**< Its rows (up to the next page's first row or the group's end). */
  int64_t offset;           /**< Offset of its page header in the file. */
  int32_t compressed_size;  /**< Its bytes in the file, header included. */
  bool has_statistics;      /**< The chunk has a ColumnIndex: the fields below were recorded. */
  bool null_page;           /**< Every value of the page is null (no min or max then). */
  bool has_null_count;      /**< The writer recorded the page's null count. */
  int64_t null_count;       /**< Nulls in the page, when has_null_count. */
  bool has_min_max;         /**< min and max were recorded (never for a null page). */
  const uint8_t *min;       /**< Min, PLAIN-encoded (no length prefix for BYTE_ARRAY; writers
                                 may truncate byte arrays). */
  int64_t min_size;         /**< Bytes of min. */
  const uint8_t *max;       /**< Max, PLAIN-encoded. */
  int64_t max_size;         /**< Bytes of max. */
  bool has_integer_min_max; /**< min_i64/max_i64 hold the decoded values, as in
                                 ::gcol_parquet_statistics. */
  int64_t min_i64;          /**< Decoded min of an integer-like column. */
  int64_t max_i64;          /**< Decoded max of an integer-like column. */
  bool has_float_min_max;   /**< min_f64/max_f64 hold the decoded values. */
  double min_f64;           /**< Decoded min of FLOAT/DOUBLE/FLOAT16. */
  double max_f64;           /**< Decoded max of FLOAT/DOUBLE/FLOAT16. */
} gcol_parquet_page_statistics;

/**
 * @brief Reads the page index of the file at @p path (the file @p metadata was read from)
 *        into @p metadata. Does nothing when it was read already.
 * @param[in,out] metadata The metadata (not to be used by another thread during the call).
 * @param[in] path The file.
 * @return ::GCOL_OK (also when no chunk has a page index); ::GCOL_ERROR_INVALID_ARGUMENT (NULL
 *         arguments, an unreadable file, a file of another size than the metadata's, a corrupt
 *         page index: the message names the row group and column);
 *         ::GCOL_ERROR_OUT_OF_MEMORY. On failure the metadata is unchanged.
 */
gcol_status gcol_parquet_metadata_read_page_index_file(gcol_parquet_metadata *metadata,
                                                       const char *path);

/** @brief As gcol_parquet_metadata_read_page_index_file(), from the whole file in host memory
 *         (the statistics are copied: @p data may be freed on return). */
gcol_status gcol_parquet_metadata_read_page_index_buffer(gcol_parquet_metadata *metadata,
                                                         const void *data, int64_t size);

/** @brief As gcol_parquet_metadata_read_page_index_file(), through @p source (only needed
 *         during the call). */
gcol_status gcol_parquet_metadata_read_page_index_source(gcol_parquet_metadata *metadata,
                                                         const gcol_parquet_source *source);

/**
 * @brief What the page index of one column chunk holds (callable before it is read: then
 *        only has_offset_index and has_column_index are set).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL, indices out of range).
 */
gcol_status gcol_parquet_metadata_page_index(const gcol_parquet_metadata *metadata,
                                             int32_t row_group, int32_t column,
                                             gcol_parquet_page_index_info *out);

/**
 * @brief Data pages of one column chunk, from its OffsetIndex (0 when it has none).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL, indices out of range, the page
 *         index not read yet).
 */
gcol_status gcol_parquet_metadata_num_pages(const gcol_parquet_metadata *metadata,
                                            int32_t row_group, int32_t column, int32_t *num_pages);

/**
 * @brief Data page @p page of one column chunk: rows and location (OffsetIndex) and, with a
 *        ColumnIndex, statistics.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL, indices out of range, the page
 *         index not read yet).
 */
gcol_status gcol_parquet_metadata_page_statistics(const gcol_parquet_metadata *metadata,
                                                  int32_t row_group, int32_t column, int32_t page,
                                                  gcol_parquet_page_statistics *out);

/** @} */

/** @brief Comparisons of a column with a constant, for gcol_parquet_metadata_filter_row_groups().
 */
typedef enum gcol_parquet_compare {
  GCOL_PARQUET_EQUAL = 0,        /**< column == value */
  GCOL_PARQUET_LESS = 1,         /**< column < value */
  GCOL_PARQUET_LESS_EQUAL = 2,   /**< column <= value */
  GCOL_PARQUET_GREATER = 3,      /**< column > value */
  GCOL_PARQUET_GREATER_EQUAL = 4 /**< column >= value */
} gcol_parquet_compare;

/**
 * @brief The row groups that may hold a row where `column op value` holds: those whose
 *        statistics do not exclude it (row groups without statistics are kept; a chunk whose
 *        every value is null is dropped). Pass the result as gcol_parquet_read_options's
 *        row_groups to read only them.
 *
 * Integer-like columns (BOOLEAN, INT32, INT64 physical types, unsigned ones compared as
 * unsigned) compare with @p value exactly; FLOAT and DOUBLE columns compare with
 * `(double)value`. Other columns keep every row group, and so do statistics whose min is
 * above their max (a legacy writer's signed order on an unsigned column).
 *
 * @param[in] metadata The metadata.
 * @param[in] column A leaf index.
 * @param[in] op The comparison.
 * @param[in] value The constant (for unsigned 64-bit columns, its bits as uint64).
 * @param[out] row_groups At least gcol_parquet_metadata_num_row_groups() entries: the kept
 *                        row groups, ascending.
 * @param[out] num_row_groups How many were kept.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL, column or op out of range).
 */
gcol_status gcol_parquet_metadata_filter_row_groups(const gcol_parquet_metadata *metadata,
                                                    int32_t column, gcol_parquet_compare op,
                                                    int64_t value, int32_t *row_groups,
                                                    int32_t *num_row_groups);

/** @brief As gcol_parquet_metadata_filter_row_groups() with a floating-point constant
 *         (integer columns compare their min and max as doubles). */
gcol_status gcol_parquet_metadata_filter_row_groups_f64(const gcol_parquet_metadata *metadata,
                                                        int32_t column, gcol_parquet_compare op,
                                                        double value, int32_t *row_groups,
                                                        int32_t *num_row_groups);

/**
 * @brief The row groups that may hold a row where the BOOL8 predicate under @p root is
 *        true, judged from the column chunks' statistics alone (predicate pushdown).
 *
 * The predicate's column references (::GCOL_EXPRESSION_LEFT) are the file's leaf columns
 * (indices of gcol_parquet_metadata_column()), with the types the reader gives them; it is
 * type-checked as gcol_expression_output_type() does. Each row group is judged by a
 * three-valued analysis: every node's values over the group's rows are over-approximated by
 * whether it may be true, false or null and, for numbers, by an interval [min, max]; a group
 * is dropped only when the root cannot be true, so a dropped group never holds a matching
 * row (a kept one may hold none). What narrows the answer:
 * - comparisons (EQUAL .. GREATER_EQUAL, NULL_EQUALS) of columns, literals and widening
 *   casts of them (to a float type, or to an integer type holding every source value), in
 *   either order: the chunks' min and max (integer-like columns in the order of their gcol
 *   type, unsigned ones unsigned; FLOAT and DOUBLE as doubles, a NaN min or max ignored and a
 *   NaN value always possible) against the literal; two columns compare interval to
 *   interval;
 * - nulls: a comparison with a null literal, or over a chunk whose values are all null, is
 *   never true (gcol's expressions give null there, and a filter drops null); IS_NULL and
 *   IS_VALID by the chunk's null count (no null count: a nullable column may hold nulls);
 * - NOT, LOGICAL_AND/OR (nulls propagate) and NULL_LOGICAL_AND/OR (Kleene), by what their
 *   operands may be (NOT of "may be true or false" stays both); a BOOL8 column by its min
 *   and max.
 * Anything else (arithmetic, chunks without statistics, statistics whose min is above their
 * max, INT96, FIXED_LEN_BYTE_ARRAY decimals and FLOAT16) may be anything, which keeps the
 * group. STRING columns cannot be referenced: expressions do not take them yet.
 *
 * @param[in] metadata The metadata.
 * @param[in] expr The expression (not modified).
 * @param[in] root A node of type BOOL8.
 * @param[out] row_groups At least gcol_parquet_metadata_num_row_groups() entries: the kept
 *                        row groups, ascending.
 * @param[out] num_row_groups How many were kept.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, @p root not a node, a
 *         column reference outside the leaf columns, a right-table reference);
 *         ::GCOL_ERROR_TYPE_MISMATCH (the root is not BOOL8, operand types differ);
 *         ::GCOL_ERROR_UNSUPPORTED (a referenced column of a type expressions do not take,
 *         such as STRING); ::GCOL_ERROR_OUT_OF_MEMORY.
 * @note Host only; row groups only, by the chunks' statistics (even when the page index has
 *       been read). A read with gcol_parquet_read_options::filter also skips pages by the
 *       page index.
 */
gcol_status gcol_parquet_metadata_filter_row_groups_expression(
    const gcol_parquet_metadata *metadata, const gcol_expression *expr, int32_t root,
    int32_t *row_groups, int32_t *num_row_groups);

/** @brief What to read. Start from gcol_parquet_read_options_init(). */
typedef struct gcol_parquet_read_options {
  /** Leaf column indices to read, in output order (a leaf inside a list reads its whole
   *  top-level column), or NULL for every top-level field. */
  const int32_t *columns;
  /** Entries of @p columns. */
  int32_t num_columns;
  /** Names to read, in output order (used when @p columns is NULL): a top-level field, or a
   *  dotted path to a group or leaf not inside a list; or NULL. */
  const char *const *column_names;
  /** Entries of @p column_names. */
  int32_t num_column_names;
  /** Row groups to read, in output order, or NULL for all. */
  const int32_t *row_groups;
  /** Entries of @p row_groups. */
  int32_t num_row_groups;
  /** Rows to skip at the start of the rows read (those of the chosen row groups, in order). */
  int64_t skip_rows;
  /** Rows to read after them, or 0 for all the rest. Row groups wholly outside the range are
   *  not read. Of the others, only the data pages holding a row of the range are decoded
   *  (every page when the read is split into batches or holds a nested column), and the
   *  range is copied out of them. */
  int64_t num_rows;
  /** The file may be corrupt or hostile: compressed pages are decompressed on the host by
   *  libraries that check their input (libsnappy, libzstd, zlib, liblz4), never by nvCOMP
   *  on the GPU, whose decoders assume valid input (a corrupt page can make them read or
   *  write out of bounds rather than fail). false (the default): pages of the codecs that
   *  nvCOMP decompresses go to the GPU when nvCOMP is found at run time (see
   *  `GCOL_NVCOMP_PATH` and `GCOL_NVCOMP=off` in docs/design.md), the host otherwise. */
  bool untrusted;
  /** A BOOL8 predicate, or NULL (the default): only the rows where it is true are returned
   *  (false and null drop the row, as gcol_filter_expression()). Its column references are
   *  the file's leaf columns, read for the predicate whether selected or not (only the
   *  selected ones are returned). Row groups whose statistics exclude a match
   *  (gcol_parquet_metadata_filter_row_groups_expression()) are not read; of
   *  @p row_groups, when given, only those that may match are read, in their order. When
   *  the file has a page index (an OffsetIndex; pyarrow's `write_page_index=True`), the
   *  reader reads it and, within the groups kept, decodes only the data pages that hold rows
   *  whose page statistics may match (a group with none is not read): the result is the same
   *  as without it, which is never needed (a file without an index, or whose index is corrupt,
   *  reads every page of the groups kept). An index that disagrees with the pages' headers
   *  fails the read (::GCOL_ERROR_INVALID_ARGUMENT). Not copied: it must live as long as the
   *  call. Cannot be combined with @p skip_rows or @p num_rows
   *  (::GCOL_ERROR_INVALID_ARGUMENT). */
  const gcol_expression *filter;
  /** The predicate's root node, when @p filter is set. */
  int32_t filter_root;
} gcol_parquet_read_options;

/** @brief Options that read every row of every column of every row group. */
void gcol_parquet_read_options_init(gcol_parquet_read_options *options);

/**
 * @brief Reads columns of a Parquet file into a table on the GPU.
 *
 * The column chunks are read with `pread` on up to 16 threads into page-locked staging
 * memory (include/gcol/io/staging.h), a batch of row groups ahead of the one being decoded,
 * and copied to the device from there.
 * @param[in] path A file (a regular file: its size is taken once, when it is opened).
 * @param[in] options What to read, or NULL for everything.
 * @param[out] out The table, one column per requested column; NULL on failure.
 * @param[in] stream Stream of the copies and kernels.
 * @param[in] mr Resource of the table's memory, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (bad options, an unknown column name, a
 *         corrupt file: the message names the file, row group, column and page),
 *         ::GCOL_ERROR_UNSUPPORTED (a codec, encoding or type this part does not read),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream (it reads the file on the host, and each column's null
 *       count and string size from the device).
 */
gcol_status gcol_parquet_read_file(const char *path, const gcol_parquet_read_options *options,
                                   gcol_table **out, gcol_stream stream, gcol_mr *mr);

/** @brief As gcol_parquet_read_file(), from a whole file in host memory. */
gcol_status gcol_parquet_read_buffer(const void *data, int64_t size,
                                     const gcol_parquet_read_options *options, gcol_table **out,
                                     gcol_stream stream, gcol_mr *mr);

/** @brief As gcol_parquet_read_file(), from a ::gcol_parquet_source. */
gcol_status gcol_parquet_read_source(const gcol_parquet_source *source,
                                     const gcol_parquet_read_options *options, gcol_table **out,
                                     gcol_stream stream, gcol_mr *mr);

/**
 * @brief When the writer dictionary-encodes a column chunk (a row group's part of a column).
 *
 * A dictionary-encoded chunk starts with a dictionary page (its distinct non-null values,
 * PLAIN, in the order of their first row, compressed like the data pages), and its data pages
 * hold the definition levels as usual, then RLE_DICTIONARY indices of the non-null rows (a
 * bit width byte, then the RLE/bit-packed hybrid). Values are distinct by their bits: -0.0
 * and 0.0 are two entries, as are NaNs of other payloads. BOOL8 columns and chunks without a
 * non-null value stay PLAIN.
 */
typedef enum gcol_parquet_dictionary {
  /** PLAIN only (the default). */
  GCOL_PARQUET_DICTIONARY_OFF = 0,
  /** A chunk is dictionary-encoded when it repeats values enough to gain: at most half its
   *  non-null values distinct and a dictionary page of at most 1 MiB (PLAIN bytes, before
   *  compression); else PLAIN. */
  GCOL_PARQUET_DICTIONARY_ADAPTIVE = 1,
  /** Every chunk with a non-null value is dictionary-encoded, whatever its distinct count
   *  (a dictionary page must stay under 2^31 bytes). */
  GCOL_PARQUET_DICTIONARY_ALWAYS = 2
} gcol_parquet_dictionary;

/** @brief How to write. Start from gcol_parquet_write_options_init(). */
typedef struct gcol_parquet_write_options {
  /** One name per column, or NULL for "c0", "c1", ... (not copied). */
  const char *const *column_names;
  /** Rows per row group; 0 for 2^20. */
  int64_t row_group_rows;
  /** Keys of the file's key-value metadata (NUL-terminated), or NULL. */
  const char *const *keys;
  /** Values, one per key (NULL: a key without a value), or NULL. */
  const char *const *values;
  /** Entries of @p keys and @p values. */
  int32_t num_key_values;
  /** Page compression: ::GCOL_PARQUET_UNCOMPRESSED (the default), ::GCOL_PARQUET_SNAPPY,
   *  ::GCOL_PARQUET_ZSTD (level 3), ::GCOL_PARQUET_GZIP or ::GCOL_PARQUET_LZ4_RAW, compressed
   *  on the host by the codec's shared library, opened at run time (see the file's notes). */
  gcol_parquet_codec codec;
  /** Dictionary encoding: ::GCOL_PARQUET_DICTIONARY_OFF (the default),
   * ::GCOL_PARQUET_DICTIONARY_ADAPTIVE or ::GCOL_PARQUET_DICTIONARY_ALWAYS (see
   * ::gcol_parquet_dictionary). */
  gcol_parquet_dictionary dictionary;
} gcol_parquet_write_options;

/** @brief Options that write columns "c0", "c1", ... in row groups of 2^20 rows,
 *         UNCOMPRESSED, PLAIN (no dictionary). */
void gcol_parquet_write_options_init(gcol_parquet_write_options *options);

/**
 * @brief Writes a table as a Parquet file in host memory.
 *
 * This part writes PLAIN values in data pages v1 (or, as options->dictionary asks, a
 * dictionary page and RLE_DICTIONARY indices per column chunk), compressed by options->codec
 * (default UNCOMPRESSED), with RLE definition levels
 * (columns with a null mask are OPTIONAL, the others REQUIRED) and min/max/null-count
 * statistics per column chunk (NaN left out of min and max). Types: INT8..UINT64 (INTEGER
 * logical types), FLOAT32/64, BOOL8, TIMESTAMP_DAYS (DATE), TIMESTAMP_MILLISECONDS/
 * MICROSECONDS/NANOSECONDS (TIMESTAMP, not adjusted to UTC), DECIMAL32/64 (INT32/INT64
 * DECIMAL of precision 9/18), STRING (BYTE_ARRAY, STRING). Others give
 * ::GCOL_ERROR_UNSUPPORTED.
 *
 * @param[in] table The columns (all of one size).
 * @param[in] options Names, row group size, key-value pairs, codec, dictionary policy; NULL
 *            for the defaults.
 * @param[out] data The file (free with gcol_parquet_buffer_free()); NULL on failure.
 * @param[out] size Its bytes.
 * @param[in] stream Stream of the copies to the host.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (also an unknown options->dictionary),
 *         ::GCOL_ERROR_SIZE_MISMATCH,
 *         ::GCOL_ERROR_UNSUPPORTED (also a codec the writer does not write, or whose library is
 *         not installed), ::GCOL_ERROR_OVERFLOW (a page over 2^31 - 1 bytes),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream. Pages are encoded on the GPU; compression (options->codec)
 *       runs on the host.
 */
gcol_status gcol_parquet_write_buffer(gcol_table_view table,
                                      const gcol_parquet_write_options *options, void **data,
                                      int64_t *size, gcol_stream stream);

/** @brief Frees a buffer of gcol_parquet_write_buffer(). NULL is a no-op. */
void gcol_parquet_buffer_free(void *data);

/**
 * @brief As gcol_parquet_write_buffer(), into the file at @p path (created or truncated).
 * @return As gcol_parquet_write_buffer(); ::GCOL_ERROR_INVALID_ARGUMENT also when the file
 *         cannot be written (the message names it).
 */
gcol_status gcol_parquet_write_file(gcol_table_view table,
                                    const gcol_parquet_write_options *options, const char *path,
                                    gcol_stream stream);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_IO_PARQUET_H */
