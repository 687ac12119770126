/**
 * @file interop.h
 * @ingroup gcol_interop
 * @brief Interop through the standard C ABIs: the Arrow C Data Interface (host, copies), the
 *        Arrow C Device Data Interface (CUDA, zero-copy), the Arrow C Stream interfaces (a
 *        table in chunks) and DLPack 1.x (fixed-width columns as tensors).
 *
 * The ABI structs are defined here as their specifications publish them, each under its
 * canonical guard (`ARROW_C_DATA_INTERFACE`, `ARROW_C_DEVICE_DATA_INTERFACE`,
 * `ARROW_C_STREAM_INTERFACE`, `ARROW_C_DEVICE_STREAM_INTERFACE`, `DLPACK_DLPACK_H_`), so they
 * coexist with a user's own copies of them or with `dlpack.h`.
 *
 * Ownership, in one rule: **an import consumes what it is given** (the producer's release or
 * deleter runs exactly once, on success when gcol frees the import, on failure before the
 * call returns), and **an export hands over structs that the consumer releases** (their
 * release runs the owner callback given to the export once every exported piece is
 * released).
 *
 * Types (gcol <-> Arrow format): INT8..UINT64 (`c s i l C S I L`), FLOAT32/64 (`f g`),
 * BOOL8 <-> `b` (Arrow's bit-packed booleans: converted by a kernel both ways, so a BOOL8
 * column is the one fixed-width type that is copied), TIMESTAMP_DAYS <-> date32 `tdD`,
 * TIMESTAMP_{SECONDS..NANOSECONDS} <-> `ts{s,m,u,n}:TZ` (time zone kept in
 * ::gcol_arrow_field), date64 `tdm` -> TIMESTAMP_MILLISECONDS (import only),
 * DURATION_{SECONDS..NANOSECONDS} <-> `tD{s,m,u,n}` (DURATION_DAYS has no Arrow type),
 * DECIMAL32/64/128 <-> `d:P,S,32`, `d:P,S,64`, `d:P,S` (Arrow's scale is gcol's negated;
 * the precision is kept in ::gcol_arrow_field), STRING <-> utf8 `u` (INT32 offsets) and
 * large_utf8 `U` (INT64 offsets) (utf8_view `vu` imports as STRING too: a copy), LIST <->
 * `+l` / `+L`, STRUCT <-> `+s`, DICTIONARY32 <->
 * a dictionary-encoded array with int32 indices (imports take indices of any integer type and
 * convert them to INT32: a copy of the indices), EMPTY <-> null `n`. Anything else is
 * ::GCOL_ERROR_UNSUPPORTED on import.
 *
 * Export a column to pyarrow (device, zero-copy):
 * @code
 * struct ArrowSchema schema;
 * struct ArrowDeviceArray array;
 * gcol_arrow_schema_export_column(gcol_column_get_view(col), NULL, &schema);
 * gcol_arrow_device_export_owned_column(col, &array, stream, NULL);  // col now belongs to array
 * // ... hand &schema and &array to the consumer, which calls their release callbacks ...
 * @endcode
 *
 * Import a table from a producer (device, zero-copy):
 * @code
 * gcol_imported *imp = NULL;
 * if (gcol_arrow_device_import_table(&schema, &array, stream, NULL, &imp) == GCOL_OK) {
 *   gcol_table_view t = gcol_imported_table(imp);  // views over the producer's buffers
 *   // ... gcol operations on t ...
 *   gcol_imported_free(imp);                        // runs the producer's release, once
 * }
 * @endcode
 */
#ifndef GCOL_INTEROP_H
#define GCOL_INTEROP_H

/** @addtogroup gcol_interop
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/* ------------------------------------------------------------------------------------------ */
/* The Arrow C Data Interface (as published by Apache Arrow)                                   */
/* ------------------------------------------------------------------------------------------ */

#ifndef ARROW_C_DATA_INTERFACE
/** @brief Canonical guard of the Arrow C Data Interface definitions. */
#define ARROW_C_DATA_INTERFACE

/** @brief Schema flag: dictionary indices are ordered. */
#define ARROW_FLAG_DICTIONARY_ORDERED 1
/** @brief Schema flag: the field is nullable. */
#define ARROW_FLAG_NULLABLE 2
/** @brief Schema flag: map keys are sorted. */
#define ARROW_FLAG_MAP_KEYS_SORTED 4

/** @brief An Arrow type description (Arrow C Data Interface). */
struct ArrowSchema {
  const char *format;              /**< Type format string (`"i"`, `"+s"`, `"tsu:UTC"`). */
  const char *name;                /**< Field name, or NULL. */
  const char *metadata;            /**< Binary key-value metadata, or NULL. */
  int64_t flags;                   /**< ARROW_FLAG_* bits. */
  int64_t n_children;              /**< Number of children. */
  struct ArrowSchema **children;   /**< The children. */
  struct ArrowSchema *dictionary;  /**< Value type of a dictionary-encoded field, or NULL. */
  void (*release)(struct ArrowSchema *); /**< Release callback; NULL once released. */
  void *private_data;              /**< The producer's own data. */
};

/** @brief Arrow array data (Arrow C Data Interface). */
struct ArrowArray {
  int64_t length;                  /**< Logical length. */
  int64_t null_count;              /**< Nulls, or -1 when not computed. */
  int64_t offset;                  /**< Logical offset into every buffer (in items). */
  int64_t n_buffers;               /**< Number of buffers. */
  int64_t n_children;              /**< Number of children. */
  const void **buffers;            /**< The buffers (validity first). */
  struct ArrowArray **children;    /**< The children. */
  struct ArrowArray *dictionary;   /**< Dictionary values, or NULL. */
  void (*release)(struct ArrowArray *); /**< Release callback; NULL once released. */
  void *private_data;              /**< The producer's own data. */
};
#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_DEVICE_DATA_INTERFACE
/** @brief Canonical guard of the Arrow C Device Data Interface definitions. */
#define ARROW_C_DEVICE_DATA_INTERFACE

/** @brief Where an ArrowDeviceArray's buffers live (DLPack's device type values). */
typedef int32_t ArrowDeviceType;

/** @brief CPU memory. */
#define ARROW_DEVICE_CPU 1
/** @brief CUDA device memory. */
#define ARROW_DEVICE_CUDA 2
/** @brief Pinned host memory from cudaMallocHost. */
#define ARROW_DEVICE_CUDA_HOST 3
/** @brief OpenCL device memory. */
#define ARROW_DEVICE_OPENCL 4
/** @brief Vulkan buffer. */
#define ARROW_DEVICE_VULKAN 7
/** @brief Apple Metal memory. */
#define ARROW_DEVICE_METAL 8
/** @brief Verilog simulator buffer. */
#define ARROW_DEVICE_VPI 9
/** @brief ROCm device memory. */
#define ARROW_DEVICE_ROCM 10
/** @brief Pinned host memory from hipMallocHost. */
#define ARROW_DEVICE_ROCM_HOST 11
/** @brief Reserved for extension devices. */
#define ARROW_DEVICE_EXT_DEV 12
/** @brief CUDA managed memory from cudaMallocManaged. */
#define ARROW_DEVICE_CUDA_MANAGED 13
/** @brief oneAPI unified shared memory. */
#define ARROW_DEVICE_ONEAPI 14
/** @brief WebGPU buffer. */
#define ARROW_DEVICE_WEBGPU 15
/** @brief Qualcomm Hexagon DSP memory. */
#define ARROW_DEVICE_HEXAGON 16

/** @brief An ArrowArray whose buffers live on a device (Arrow C Device Data Interface). */
struct ArrowDeviceArray {
  struct ArrowArray array;     /**< The array; its buffers are device pointers. */
  int64_t device_id;           /**< The device's id (the CUDA ordinal). */
  ArrowDeviceType device_type; /**< ARROW_DEVICE_*. */
  void *sync_event;            /**< For CUDA a `cudaEvent_t *` to wait on before reading, or
                                    NULL. */
  int64_t reserved[3];         /**< Zero. */
};
#endif /* ARROW_C_DEVICE_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
/** @brief Canonical guard of the Arrow C Stream Interface definitions. */
#define ARROW_C_STREAM_INTERFACE

/** @brief A stream of arrays of one schema (Arrow C Stream Interface). */
struct ArrowArrayStream {
  /** @brief Writes the schema of every chunk; 0 or an errno code. */
  int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
  /** @brief Writes the next chunk (a released array at the end); 0 or an errno code. */
  int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
  /** @brief The last error's description, or NULL. */
  const char *(*get_last_error)(struct ArrowArrayStream *);
  /** @brief Release callback; NULL once released. */
  void (*release)(struct ArrowArrayStream *);
  void *private_data; /**< The producer's own data. */
};
#endif /* ARROW_C_STREAM_INTERFACE */

#ifndef ARROW_C_DEVICE_STREAM_INTERFACE
/** @brief Canonical guard of the Arrow C Device Stream Interface definitions. */
#define ARROW_C_DEVICE_STREAM_INTERFACE

/** @brief A stream of device arrays of one schema (Arrow C Device Data Interface). */
struct ArrowDeviceArrayStream {
  ArrowDeviceType device_type; /**< The device type of every chunk. */
  /** @brief Writes the schema of every chunk; 0 or an errno code. */
  int (*get_schema)(struct ArrowDeviceArrayStream *, struct ArrowSchema *out);
  /** @brief Writes the next chunk (a released array at the end); 0 or an errno code. */
  int (*get_next)(struct ArrowDeviceArrayStream *, struct ArrowDeviceArray *out);
  /** @brief The last error's description, or NULL. */
  const char *(*get_last_error)(struct ArrowDeviceArrayStream *);
  /** @brief Release callback; NULL once released. */
  void (*release)(struct ArrowDeviceArrayStream *);
  void *private_data; /**< The producer's own data. */
};
#endif /* ARROW_C_DEVICE_STREAM_INTERFACE */

/* ------------------------------------------------------------------------------------------ */
/* DLPack 1.1 (as published by the DLPack project)                                             */
/* ------------------------------------------------------------------------------------------ */

#ifndef DLPACK_DLPACK_H_
/** @brief The include guard of `dlpack.h`: defining it keeps a later `dlpack.h` out. */
#define DLPACK_DLPACK_H_

#ifdef __cplusplus
/** @brief Linkage of DLPack declarations. */
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif
/** @brief Export attribute of DLPack declarations (none here). */
#define DLPACK_DLL
/** @brief DLPack major version of these definitions. */
#define DLPACK_MAJOR_VERSION 1
/** @brief DLPack minor version of these definitions. */
#define DLPACK_MINOR_VERSION 1

/** @brief Tensor flag: the consumer must not write the data. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/** @brief Tensor flag: the producer copied the data for this tensor. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
/** @brief Tensor flag: sub-byte types are padded to whole bytes. */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

/** @brief A DLPack ABI version. */
typedef struct {
  uint32_t major; /**< Major version (ABI breaks). */
  uint32_t minor; /**< Minor version. */
} DLPackVersion;

/** @brief Where a tensor lives. */
typedef enum {
  kDLCPU = 1,          /**< CPU memory. */
  kDLCUDA = 2,         /**< CUDA device memory. */
  kDLCUDAHost = 3,     /**< Pinned host memory (cudaMallocHost). */
  kDLOpenCL = 4,       /**< OpenCL. */
  kDLVulkan = 7,       /**< Vulkan. */
  kDLMetal = 8,        /**< Metal. */
  kDLVPI = 9,          /**< Verilog simulator. */
  kDLROCM = 10,        /**< ROCm. */
  kDLROCMHost = 11,    /**< Pinned host memory (hipMallocHost). */
  kDLExtDev = 12,      /**< Extension devices. */
  kDLCUDAManaged = 13, /**< CUDA managed memory. */
  kDLOneAPI = 14,      /**< oneAPI. */
  kDLWebGPU = 15,      /**< WebGPU. */
  kDLHexagon = 16,     /**< Hexagon DSP. */
  kDLMAIA = 17         /**< Microsoft MAIA. */
} DLDeviceType;

/** @brief A device: type and ordinal. */
typedef struct {
  DLDeviceType device_type; /**< The device type. */
  int32_t device_id;        /**< The device ordinal. */
} DLDevice;

/** @brief Type codes of ::DLDataType. */
typedef enum {
  kDLInt = 0U,             /**< Signed integer. */
  kDLUInt = 1U,            /**< Unsigned integer. */
  kDLFloat = 2U,           /**< IEEE floating point. */
  kDLOpaqueHandle = 3U,    /**< Opaque handle. */
  kDLBfloat = 4U,          /**< bfloat16. */
  kDLComplex = 5U,         /**< Complex. */
  kDLBool = 6U,            /**< Boolean. */
  kDLFloat8_e3m4 = 7U,     /**< FP8 e3m4. */
  kDLFloat8_e4m3 = 8U,     /**< FP8 e4m3. */
  kDLFloat8_e4m3b11fnuz = 9U, /**< FP8 e4m3b11fnuz. */
  kDLFloat8_e4m3fn = 10U,  /**< FP8 e4m3fn. */
  kDLFloat8_e4m3fnuz = 11U, /**< FP8 e4m3fnuz. */
  kDLFloat8_e5m2 = 12U,    /**< FP8 e5m2. */
  kDLFloat8_e5m2fnuz = 13U, /**< FP8 e5m2fnuz. */
  kDLFloat8_e8m0fnu = 14U, /**< FP8 e8m0fnu. */
  kDLFloat6_e2m3fn = 15U,  /**< FP6 e2m3fn. */
  kDLFloat6_e3m2fn = 16U,  /**< FP6 e3m2fn. */
  kDLFloat4_e2m1fn = 17U   /**< FP4 e2m1fn. */
} DLDataTypeCode;

/** @brief An element type: code, bits and lanes. */
typedef struct {
  uint8_t code;   /**< A ::DLDataTypeCode. */
  uint8_t bits;   /**< Bits per lane. */
  uint16_t lanes; /**< Lanes (1 for scalars). */
} DLDataType;

/** @brief A strided tensor. */
typedef struct {
  void *data;           /**< The data (with byte_offset: the first element). */
  DLDevice device;      /**< Where it lives. */
  int32_t ndim;         /**< Number of dimensions. */
  DLDataType dtype;     /**< Element type. */
  int64_t *shape;       /**< ndim extents. */
  int64_t *strides;     /**< ndim strides in elements, or NULL (compact row-major). */
  uint64_t byte_offset; /**< Bytes from data to the first element. */
} DLTensor;

/** @brief The unversioned (pre-1.0) managed tensor. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;  /**< The tensor. */
  void *manager_ctx;   /**< The producer's own data. */
  void (*deleter)(struct DLManagedTensor *self); /**< Called by the consumer once, or NULL. */
} DLManagedTensor;

/** @brief The versioned (1.x) managed tensor. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version; /**< The producer's DLPack version. */
  void *manager_ctx;     /**< The producer's own data. */
  void (*deleter)(struct DLManagedTensorVersioned *self); /**< Called once, or NULL. */
  uint64_t flags;        /**< DLPACK_FLAG_BITMASK_* bits. */
  DLTensor dl_tensor;    /**< The tensor. */
} DLManagedTensorVersioned;
#endif /* DLPACK_DLPACK_H_ */

/* ------------------------------------------------------------------------------------------ */
/* Field metadata and imported data                                                            */
/* ------------------------------------------------------------------------------------------ */

/**
 * @brief What an Arrow field has that a gcol type lacks: its name, a timestamp's time zone and
 *        a decimal's precision, with one entry per Arrow child (list: the values; struct: the
 *        fields; dictionary: the values).
 *
 * Exports take an optional field tree (NULL, or a missing child, means the defaults: struct
 * fields and table columns named by their index, `"item"` for list values, no time zone,
 * the decimal width's largest precision 9, 18 or 38); imports give one back.
 */
typedef struct gcol_arrow_field {
  const char *name;                         /**< Field name, or NULL for the default. */
  const char *timezone;                     /**< Timestamp time zone, or NULL (naive). */
  int32_t precision;                        /**< Decimal precision, or 0 for the default. */
  int32_t num_children;                     /**< Entries in @p children. */
  const struct gcol_arrow_field *children;  /**< Fields of the children, or NULL. */
} gcol_arrow_field;

/**
 * @brief Imported data: gcol views over memory that a producer (Arrow, DLPack) owns, and
 *        what keeps it alive. Opaque; read it with gcol_imported_column(),
 *        gcol_imported_table() and gcol_imported_field(), free it with gcol_imported_free().
 */
typedef struct gcol_imported gcol_imported;

/**
 * @brief The imported column (for a table import: a STRUCT column whose fields are the
 *        table's columns). Valid until gcol_imported_free().
 */
gcol_column_view gcol_imported_column(const gcol_imported *imported);

/**
 * @brief The imported table: the fields of an imported struct array or record batch, or a
 *        table of the one imported column otherwise. Valid until gcol_imported_free().
 */
gcol_table_view gcol_imported_table(const gcol_imported *imported);

/**
 * @brief The Arrow field of the import (names, time zones, precisions; for a table its
 *        children are the columns' fields), or NULL for a DLPack import. Valid until
 *        gcol_imported_free().
 */
const gcol_arrow_field *gcol_imported_field(const gcol_imported *imported);

/**
 * @brief Frees an import: gcol's bookkeeping and converted buffers, then the producer's
 *        release (or deleter), exactly once. NULL is a no-op.
 * @note The views must no longer be in use by queued work that the producer's memory could
 *       be reused under: synchronize the streams that read them first.
 */
void gcol_imported_free(gcol_imported *imported);

/* ------------------------------------------------------------------------------------------ */
/* Arrow schemas                                                                               */
/* ------------------------------------------------------------------------------------------ */

/**
 * @brief Describes a column as an ArrowSchema (no device access).
 * @param[in] column The column (its type and, for STRING and LIST, its offsets' width).
 * @param[in] field Name, time zone, precision and children's fields, or NULL for defaults.
 * @param[out] out The schema, released by the consumer. Untouched on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a malformed view),
 *         ::GCOL_ERROR_UNSUPPORTED (DURATION_DAYS), ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_arrow_schema_export_column(gcol_column_view column,
                                            const gcol_arrow_field *field,
                                            struct ArrowSchema *out);

/**
 * @brief Describes a table as a struct ArrowSchema (a record batch's schema).
 * @param[in] table The table.
 * @param[in] fields NULL, or `table.num_columns` fields of the columns.
 * @param[out] out The schema, released by the consumer. Untouched on failure.
 * @return As gcol_arrow_schema_export_column().
 */
gcol_status gcol_arrow_schema_export_table(gcol_table_view table, const gcol_arrow_field *fields,
                                           struct ArrowSchema *out);

/* ------------------------------------------------------------------------------------------ */
/* Arrow C Device Data Interface: zero-copy                                                    */
/* ------------------------------------------------------------------------------------------ */

/**
 * @brief Exports a column as a CUDA ArrowDeviceArray without copying: the array's buffers
 *        are the view's (a slice keeps its offset as Arrow's offset; gcol's null mask is an
 *        Arrow validity bitmap as it is). BOOL8 is the exception: its bytes are packed into
 *        a new bit buffer from @p mr (and a sliced mask copied to offset 0).
 * @param[in] column The column; its memory must stay valid until the owner release runs.
 * @param[in] release_owner Called once with @p owner when the array and every child moved
 *            out of it are released (from the thread that releases the last one), or NULL.
 * @param[in] owner What keeps @p column's memory alive (e.g. a gcol_column).
 * @param[out] out The array (device type ARROW_DEVICE_CUDA, the current device, a sync event
 *             recorded on @p stream). Untouched on failure.
 * @param[in] stream The stream the column was written on.
 * @param[in] mr Resource of converted BOOL8 buffers, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a malformed view),
 *         ::GCOL_ERROR_UNSUPPORTED (DURATION_DAYS), ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note On failure @p release_owner is not called: the caller still owns @p owner. The
 *       consumer must wait on the sync event before reading, and release the array only once
 *       its own work on the data is done (the memory may then be reused on @p stream).
 */
gcol_status gcol_arrow_device_export_column(gcol_column_view column,
                                            void (*release_owner)(void *owner), void *owner,
                                            struct ArrowDeviceArray *out, gcol_stream stream,
                                            gcol_mr *mr);

/**
 * @brief Exports a table as a CUDA struct ArrowDeviceArray (a record batch) without copying,
 *        as gcol_arrow_device_export_column().
 */
gcol_status gcol_arrow_device_export_table(gcol_table_view table,
                                           void (*release_owner)(void *owner), void *owner,
                                           struct ArrowDeviceArray *out, gcol_stream stream,
                                           gcol_mr *mr);

/**
 * @brief gcol_arrow_device_export_column() of an owning column that the array takes over: on
 *        success @p column belongs to @p out (freed when the consumer releases it); on
 *        failure it stays the caller's.
 */
gcol_status gcol_arrow_device_export_owned_column(gcol_column *column,
                                                  struct ArrowDeviceArray *out,
                                                  gcol_stream stream, gcol_mr *mr);

/**
 * @brief gcol_arrow_device_export_table() of an owning table that the array takes over, as
 *        gcol_arrow_device_export_owned_column().
 */
gcol_status gcol_arrow_device_export_owned_table(gcol_table *table, struct ArrowDeviceArray *out,
                                                 gcol_stream stream, gcol_mr *mr);

/**
 * @brief Imports an ArrowDeviceArray as gcol views over its buffers, without copying (bool
 *        arrays are unpacked into BOOL8 bytes from @p mr).
 *
 * The schema and the array are checked first, on the host: format strings, child and buffer
 * counts, NULL buffers where rows need them, lengths, offsets and null counts, children long
 * enough for their parent, buffer alignment (gcol reads data at its natural alignment and
 * masks as 32-bit words). Device memory is not read, so the values of string and list
 * offsets are trusted. @p stream waits on the array's sync event.
 * @param[in,out] schema The array's type; consumed (released) in every case.
 * @param[in,out] array The array (ARROW_DEVICE_CUDA on the current device, CUDA_HOST or
 *                CUDA_MANAGED); consumed: moved into @p out on success, released on failure.
 * @param[in] stream The stream gcol will read the data on.
 * @param[in] mr Resource of converted buffers, or NULL for the default.
 * @param[out] out The import; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, an already released
 *         struct, a malformed schema or array: the message names the field path),
 *         ::GCOL_ERROR_UNSUPPORTED (a type, device or alignment gcol does not take),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note gcol kernels may read masks and data in whole words past the last row: Arrow's
 *       recommended 64-byte padding (which Arrow C++, pyarrow and libcudf follow) covers it.
 */
gcol_status gcol_arrow_device_import_column(struct ArrowSchema *schema,
                                            struct ArrowDeviceArray *array, gcol_stream stream,
                                            gcol_mr *mr, gcol_imported **out);

/**
 * @brief Imports a struct ArrowDeviceArray (a record batch) as a table, as
 *        gcol_arrow_device_import_column(). The top-level struct must have no nulls.
 */
gcol_status gcol_arrow_device_import_table(struct ArrowSchema *schema,
                                           struct ArrowDeviceArray *array, gcol_stream stream,
                                           gcol_mr *mr, gcol_imported **out);

/* ------------------------------------------------------------------------------------------ */
/* Arrow C Data Interface: host copies                                                         */
/* ------------------------------------------------------------------------------------------ */

/**
 * @brief Copies a column into a host ArrowArray (offset 0; masks and string/list offsets
 *        rebased to the slice).
 * @param[in] column The column.
 * @param[out] out The array, released by the consumer. Untouched on failure.
 * @param[in] stream The stream of the copies.
 * @param[in] host_mr A host-accessible resource (pinned memory copies fastest: a pool over
 *            pinned memory locks the pages once) the buffers come from, in one allocation
 *            freed when the array and every child moved out of it are released; it must
 *            outlive them. NULL: one 64-byte aligned `aligned_alloc` (pageable).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a malformed view, a device
 *         @p host_mr), ::GCOL_ERROR_UNSUPPORTED, ::GCOL_ERROR_OUT_OF_MEMORY (also when
 *         @p host_mr refuses the block: no fallback), CUDA status.
 * @note Synchronizes @p stream once, plus once per level of list nesting (a list's offsets
 *       size its values).
 */
gcol_status gcol_arrow_export_column(gcol_column_view column, struct ArrowArray *out,
                                     gcol_stream stream, gcol_mr *host_mr);

/** @brief Copies a table into a host struct ArrowArray (a record batch), as
 *         gcol_arrow_export_column(). */
gcol_status gcol_arrow_export_table(gcol_table_view table, struct ArrowArray *out,
                                    gcol_stream stream, gcol_mr *host_mr);

/**
 * @brief Copies a host ArrowArray into a new gcol column, checking it completely first (as
 *        gcol_arrow_device_import_column(), and also that offsets ascend within their
 *        buffers and dictionary indices are in range).
 * @param[in,out] schema The type; consumed (released) in every case.
 * @param[in,out] array The array; consumed (released once its data is copied, or on failure).
 * @param[in] stream The stream of the copies.
 * @param[in] mr Resource of the column's memory, or NULL for the default.
 * @param[out] out The column; NULL on failure.
 * @param[out] out_field NULL, or receives the field tree (names, time zones, precisions), to
 *             be freed with gcol_arrow_field_free().
 * @return As gcol_arrow_device_import_column().
 * @note Synchronizes @p stream.
 */
gcol_status gcol_arrow_import_column(struct ArrowSchema *schema, struct ArrowArray *array,
                                     gcol_stream stream, gcol_mr *mr, gcol_column **out,
                                     gcol_arrow_field **out_field);

/** @brief Copies a host struct ArrowArray (a record batch) into a new table, as
 *         gcol_arrow_import_column(). */
gcol_status gcol_arrow_import_table(struct ArrowSchema *schema, struct ArrowArray *array,
                                    gcol_stream stream, gcol_mr *mr, gcol_table **out,
                                    gcol_arrow_field **out_field);

/** @brief Frees a field tree returned by an import. NULL is a no-op. */
void gcol_arrow_field_free(gcol_arrow_field *field);

/* ------------------------------------------------------------------------------------------ */
/* Arrow C Stream Interfaces: a table in chunks                                                */
/* ------------------------------------------------------------------------------------------ */

/**
 * @brief A host ArrowArrayStream over a table in chunks of @p chunk_rows rows: each
 *        `get_next` copies the next slice to the host (as gcol_arrow_export_table()).
 * @param[in] table The table; its memory must stay valid until the owner release runs.
 * @param[in] fields NULL, or `table.num_columns` fields (copied).
 * @param[in] chunk_rows Rows per chunk (> 0).
 * @param[in] release_owner Called once with @p owner when the stream is released, or NULL.
 * @param[in] owner What keeps the table's memory alive.
 * @param[out] out The stream. Untouched on failure.
 * @param[in] stream The CUDA stream of the copies (used from the consumer's thread).
 * @param[in] host_mr As gcol_arrow_export_column().
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_UNSUPPORTED,
 *         ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_arrow_stream_export_table(gcol_table_view table, const gcol_arrow_field *fields,
                                           int64_t chunk_rows, void (*release_owner)(void *owner),
                                           void *owner, struct ArrowArrayStream *out,
                                           gcol_stream stream, gcol_mr *host_mr);

/**
 * @brief A CUDA ArrowDeviceArrayStream over a table in chunks of @p chunk_rows rows: each
 *        `get_next` exports the next slice without copying (as
 *        gcol_arrow_device_export_table()). @p release_owner runs once the stream and every
 *        chunk it gave are released.
 */
gcol_status gcol_arrow_device_stream_export_table(gcol_table_view table,
                                                  const gcol_arrow_field *fields,
                                                  int64_t chunk_rows,
                                                  void (*release_owner)(void *owner), void *owner,
                                                  struct ArrowDeviceArrayStream *out,
                                                  gcol_stream stream, gcol_mr *mr);

/* ------------------------------------------------------------------------------------------ */
/* DLPack                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/**
 * @brief Exports a fixed-width column without nulls as a 1-D DLPack tensor, without copying
 *        (integers, floats, BOOL8 as kDLBool; timestamps, durations and DECIMAL32/64 as their
 *        integer storage).
 * @param[in] column The column (a mask is allowed if it has no null).
 * @param[in] release_owner Called once with @p owner by the tensor's deleter, or NULL.
 * @param[in] owner What keeps the column's memory alive.
 * @param[out] out The tensor (kDLCUDA, the current device), to be deleted by the consumer;
 *             NULL on failure.
 * @param[in] stream The stream the column was written on: the consumer must be ordered after
 *            it (DLPack's `__dlpack__(stream=...)` protocol is the caller's to honour).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, a column with nulls),
 *         ::GCOL_ERROR_TYPE_MISMATCH (not fixed width, DECIMAL128), ::GCOL_ERROR_OUT_OF_MEMORY,
 *         CUDA status.
 * @note Synchronizes @p stream only to count the nulls of a slice whose count is unknown.
 */
gcol_status gcol_dlpack_export_column(gcol_column_view column, void (*release_owner)(void *owner),
                                      void *owner, DLManagedTensorVersioned **out,
                                      gcol_stream stream);

/** @brief gcol_dlpack_export_column() into the unversioned DLManagedTensor. */
gcol_status gcol_dlpack_export_column_unversioned(gcol_column_view column,
                                                  void (*release_owner)(void *owner), void *owner,
                                                  DLManagedTensor **out, gcol_stream stream);

/**
 * @brief Copies a table of equal-typed fixed-width columns without nulls into a 2-D tensor
 *        of shape (rows, columns), column-major (strides 1 and rows).
 * @param[in] table The table (at least one column).
 * @param[out] out The tensor, which owns its copy; NULL on failure.
 * @param[in] stream The stream of the copies; the consumer must be ordered after it.
 * @param[in] mr Resource of the copy, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH (columns of
 *         different or unsupported types), ::GCOL_ERROR_OVERFLOW, ::GCOL_ERROR_OUT_OF_MEMORY,
 *         CUDA status.
 */
gcol_status gcol_dlpack_export_table(gcol_table_view table, DLManagedTensorVersioned **out,
                                     gcol_stream stream, gcol_mr *mr);

/**
 * @brief Imports a 1-D DLPack tensor as a column: zero-copy when its stride is 1 (or absent),
 *        copied into memory from @p mr otherwise (the deleter then still runs at
 *        gcol_imported_free()). kDLBool of 8 bits becomes BOOL8.
 * @param[in,out] tensor The tensor (kDLCUDA on the current device, kDLCUDAHost or
 *                kDLCUDAManaged; version 1.x); consumed: its deleter runs exactly once, at
 *                gcol_imported_free() or on failure.
 * @param[in] stream The stream of a strided copy; the producer's work on the tensor must be
 *            ordered before it.
 * @param[in] mr Resource of a strided copy, or NULL for the default.
 * @param[out] out The import; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, negative shape),
 *         ::GCOL_ERROR_UNSUPPORTED (version, device, dimensions, lanes, data type,
 *         alignment), ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_dlpack_import_column(DLManagedTensorVersioned *tensor, gcol_stream stream,
                                      gcol_mr *mr, gcol_imported **out);

/** @brief gcol_dlpack_import_column() of an unversioned DLManagedTensor. */
gcol_status gcol_dlpack_import_column_unversioned(DLManagedTensor *tensor, gcol_stream stream,
                                                  gcol_mr *mr, gcol_imported **out);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_INTEROP_H */
