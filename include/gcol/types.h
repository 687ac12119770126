/**
 * @file types.h
 * @ingroup gcol_core
 * @brief The gcol type system: type ids (the libcudf set), data types with decimal scale,
 *        sizes, traits, printable names and the X-macro type lists that generate typed code.
 *
 * Adding a type is one line in ::GCOL_TYPE_ID_LIST (and, if fixed-width, its storage in
 * ::GCOL_STORAGE_TYPE_LIST).
 *
 * @code
 * gcol_data_type price = gcol_data_type_decimal(GCOL_DECIMAL64, -2); // cents
 * size_t width = gcol_type_size(price.id);                            // 8
 * bool fixed = gcol_type_is_fixed_width(price.id);                     // true
 * @endcode
 */
#ifndef GCOL_TYPES_H
#define GCOL_TYPES_H

/** @addtogroup gcol_core
 *  @{ */

#include "gcol/config.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief 128-bit two's-complement integer storage of ::GCOL_DECIMAL128 values
 *        (little-endian halves, as in Arrow).
 */
typedef struct gcol_int128 {
  uint64_t lo; /**< Low 64 bits. */
  int64_t hi;  /**< High 64 bits, carrying the sign. */
} gcol_int128;

/**
 * @brief Every type id with its byte width (0 for non-fixed-width types) and its name.
 *
 * `X(NAME, SIZE, STRING)`; `GCOL_##NAME` is the enumerator.
 */
#define GCOL_TYPE_ID_LIST(X)                                    \
  X(EMPTY, 0, "empty")                                          \
  X(INT8, 1, "int8")                                            \
  X(INT16, 2, "int16")                                          \
  X(INT32, 4, "int32")                                          \
  X(INT64, 8, "int64")                                          \
  X(UINT8, 1, "uint8")                                          \
  X(UINT16, 2, "uint16")                                        \
  X(UINT32, 4, "uint32")                                        \
  X(UINT64, 8, "uint64")                                        \
  X(FLOAT32, 4, "float32")                                      \
  X(FLOAT64, 8, "float64")                                      \
  X(BOOL8, 1, "bool8")                                          \
  X(TIMESTAMP_DAYS, 4, "timestamp[D]")                          \
  X(TIMESTAMP_SECONDS, 8, "timestamp[s]")                       \
  X(TIMESTAMP_MILLISECONDS, 8, "timestamp[ms]")                 \
  X(TIMESTAMP_MICROSECONDS, 8, "timestamp[us]")                 \
  X(TIMESTAMP_NANOSECONDS, 8, "timestamp[ns]")                  \
  X(DURATION_DAYS, 4, "duration[D]")                            \
  X(DURATION_SECONDS, 8, "duration[s]")                         \
  X(DURATION_MILLISECONDS, 8, "duration[ms]")                   \
  X(DURATION_MICROSECONDS, 8, "duration[us]")                   \
  X(DURATION_NANOSECONDS, 8, "duration[ns]")                    \
  X(DECIMAL32, 4, "decimal32")                                  \
  X(DECIMAL64, 8, "decimal64")                                  \
  X(DECIMAL128, 16, "decimal128")                               \
  X(STRING, 0, "string")                                        \
  X(LIST, 0, "list")                                            \
  X(STRUCT, 0, "struct")                                        \
  X(DICTIONARY32, 0, "dictionary32")

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_TYPE_ENUMERATOR(NAME, SIZE, STRING) GCOL_##NAME,
/** @endcond */

/** @brief Identifies a column's logical type. Values follow ::GCOL_TYPE_ID_LIST. */
typedef enum gcol_type_id {
  GCOL_TYPE_ID_LIST(GCOL_DETAIL_TYPE_ENUMERATOR)
  GCOL_NUM_TYPE_IDS /**< Number of type ids; not a type. */
} gcol_type_id;

/**
 * @brief Fixed-width storage types: `X(SUFFIX, CTYPE)`. Typed views, accessors and device
 *        primitives are generated once per entry; timestamps, durations and decimals use
 *        the entry of their storage type (see gcol_type_storage_suffix()).
 */
#define GCOL_STORAGE_TYPE_LIST(X) \
  X(i8, int8_t)                   \
  X(i16, int16_t)                 \
  X(i32, int32_t)                 \
  X(i64, int64_t)                 \
  X(u8, uint8_t)                  \
  X(u16, uint16_t)                \
  X(u32, uint32_t)                \
  X(u64, uint64_t)                \
  X(f32, float)                   \
  X(f64, double)                  \
  X(b8, uint8_t)

/**
 * @brief A data type: the id, plus the decimal scale for DECIMAL32/64/128.
 *
 * A decimal value is `unscaled * 10^scale` (a negative scale gives digits after the point).
 * The scale is 0 for every other type.
 */
typedef struct gcol_data_type {
  gcol_type_id id; /**< The type id. */
  int32_t scale;   /**< Decimal scale; 0 for non-decimal types. */
} gcol_data_type;

/** @brief A non-decimal data type of id @p id (scale 0). */
GCOL_HD_INLINE gcol_data_type gcol_data_type_make(gcol_type_id id) {
  gcol_data_type t;
  t.id = id;
  t.scale = 0;
  return t;
}

/** @brief A decimal data type of id @p id and @p scale. */
GCOL_HD_INLINE gcol_data_type gcol_data_type_decimal(gcol_type_id id, int32_t scale) {
  gcol_data_type t;
  t.id = id;
  t.scale = scale;
  return t;
}

/** @brief True when @p a and @p b have the same id and scale. */
GCOL_HD_INLINE bool gcol_data_type_equal(gcol_data_type a, gcol_data_type b) {
  return a.id == b.id && a.scale == b.scale;
}

/** @brief True for a valid type id. */
GCOL_HD_INLINE bool gcol_type_id_is_valid(gcol_type_id id) {
  return (int)id >= 0 && id < GCOL_NUM_TYPE_IDS;
}

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_TYPE_SIZE_CASE(NAME, SIZE, STRING) \
  case GCOL_##NAME:                                   \
    return (SIZE);
/** @endcond */

/** @brief Byte width of a fixed-width type; 0 for STRING, LIST, STRUCT, DICTIONARY32, EMPTY
 *         and invalid ids. */
GCOL_HD_INLINE size_t gcol_type_size(gcol_type_id id) {
  switch (id) {
    GCOL_TYPE_ID_LIST(GCOL_DETAIL_TYPE_SIZE_CASE)
    default:
      return 0;
  }
}

/** @brief True for signed and unsigned integer types (not BOOL8). */
GCOL_HD_INLINE bool gcol_type_is_integral(gcol_type_id id) {
  return id >= GCOL_INT8 && id <= GCOL_UINT64;
}

/** @brief True for signed integer types. */
GCOL_HD_INLINE bool gcol_type_is_signed_integral(gcol_type_id id) {
  return id >= GCOL_INT8 && id <= GCOL_INT64;
}

/** @brief True for unsigned integer types. */
GCOL_HD_INLINE bool gcol_type_is_unsigned_integral(gcol_type_id id) {
  return id >= GCOL_UINT8 && id <= GCOL_UINT64;
}

/** @brief True for FLOAT32 and FLOAT64. */
GCOL_HD_INLINE bool gcol_type_is_floating(gcol_type_id id) {
  return id == GCOL_FLOAT32 || id == GCOL_FLOAT64;
}

/** @brief True for integers, floats and BOOL8 (the types arithmetic accepts). */
GCOL_HD_INLINE bool gcol_type_is_numeric(gcol_type_id id) {
  return gcol_type_is_integral(id) || gcol_type_is_floating(id) || id == GCOL_BOOL8;
}

/** @brief True for the five timestamp types. */
GCOL_HD_INLINE bool gcol_type_is_timestamp(gcol_type_id id) {
  return id >= GCOL_TIMESTAMP_DAYS && id <= GCOL_TIMESTAMP_NANOSECONDS;
}

/** @brief True for the five duration types. */
GCOL_HD_INLINE bool gcol_type_is_duration(gcol_type_id id) {
  return id >= GCOL_DURATION_DAYS && id <= GCOL_DURATION_NANOSECONDS;
}

/** @brief True for DECIMAL32, DECIMAL64 and DECIMAL128. */
GCOL_HD_INLINE bool gcol_type_is_decimal(gcol_type_id id) {
  return id >= GCOL_DECIMAL32 && id <= GCOL_DECIMAL128;
}

/** @brief True for types stored as one fixed-size value a row. */
GCOL_HD_INLINE bool gcol_type_is_fixed_width(gcol_type_id id) {
  return gcol_type_size(id) != 0;
}

/** @brief True for LIST and STRUCT. */
GCOL_HD_INLINE bool gcol_type_is_nested(gcol_type_id id) {
  return id == GCOL_LIST || id == GCOL_STRUCT;
}

/** @brief True for types whose values compare by order (everything but LIST, STRUCT,
 *         DICTIONARY32 and EMPTY). */
GCOL_HD_INLINE bool gcol_type_is_orderable(gcol_type_id id) {
  return gcol_type_is_fixed_width(id) || id == GCOL_STRING;
}

/**
 * @brief The id of the plain integer or float type that stores @p id: INT32 for
 *        TIMESTAMP_DAYS, DURATION_DAYS and DECIMAL32, INT64 for the other timestamps,
 *        durations and DECIMAL64, UINT8 for BOOL8, the id itself for numeric types;
 *        DECIMAL128 for DECIMAL128 (stored as ::gcol_int128), EMPTY for others.
 */
GCOL_HD_INLINE gcol_type_id gcol_type_storage_id(gcol_type_id id) {
  if (gcol_type_is_integral(id) || gcol_type_is_floating(id)) return id;
  switch (id) {
    case GCOL_BOOL8: return GCOL_UINT8;
    case GCOL_TIMESTAMP_DAYS:
    case GCOL_DURATION_DAYS:
    case GCOL_DECIMAL32: return GCOL_INT32;
    case GCOL_DECIMAL128: return GCOL_DECIMAL128;
    default: break;
  }
  if (gcol_type_is_timestamp(id) || gcol_type_is_duration(id) || id == GCOL_DECIMAL64) {
    return GCOL_INT64;
  }
  return GCOL_EMPTY;
}

/** @brief The number of ticks of a timestamp or duration unit in one second
 *         (days: 0, meaning 86400 seconds a tick); 0 for other types. */
GCOL_HD_INLINE int64_t gcol_type_ticks_per_second(gcol_type_id id) {
  switch (id) {
    case GCOL_TIMESTAMP_SECONDS:
    case GCOL_DURATION_SECONDS: return 1;
    case GCOL_TIMESTAMP_MILLISECONDS:
    case GCOL_DURATION_MILLISECONDS: return 1000;
    case GCOL_TIMESTAMP_MICROSECONDS:
    case GCOL_DURATION_MICROSECONDS: return 1000000;
    case GCOL_TIMESTAMP_NANOSECONDS:
    case GCOL_DURATION_NANOSECONDS: return 1000000000;
    default: return 0;
  }
}

/**
 * @brief The type's printable name (`"int32"`, `"timestamp[ms]"`); `"invalid"` for
 *        out-of-range ids.
 */
const char *gcol_type_name(gcol_type_id id);

/**
 * @brief Parses a name printed by gcol_type_name().
 * @param[in] name The name.
 * @param[out] out The id.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT for an unknown name or NULL pointer.
 */
gcol_status gcol_type_from_name(const char *name, gcol_type_id *out);

/**
 * @brief Writes a data type's description (`"decimal64(scale=-2)"`) into @p buf.
 * @return The number of characters that the full description needs, as snprintf.
 */
int gcol_data_type_format(gcol_data_type type, char *buf, size_t size);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_TYPES_H */
