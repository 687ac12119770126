/**
 * @file scalar.h
 * @ingroup gcol_core
 * @brief Scalars: one value of any fixed-width type or a string, with validity.
 *
 * Scalars live in host memory: operations pass their values to kernels as arguments, which
 * costs no device allocation or copy (libcudf keeps them on the device and pays a copy to
 * read one). gcol_scalar_get_storage() gives the value's bytes in the type's storage.
 *
 * @code
 * gcol_scalar *five = NULL;
 * gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 5, &five);
 * int64_t v = 0;
 * gcol_scalar_get_int(five, &v);   // 5
 * gcol_scalar_free(five);
 * @endcode
 */
#ifndef GCOL_SCALAR_H
#define GCOL_SCALAR_H

/** @addtogroup gcol_core
 *  @{ */

#include "gcol/config.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief The value of a fixed-width scalar in its storage type. */
typedef union gcol_scalar_value {
  int8_t i8;        /**< INT8. */
  int16_t i16;      /**< INT16. */
  int32_t i32;      /**< INT32, TIMESTAMP_DAYS, DURATION_DAYS, DECIMAL32. */
  int64_t i64;      /**< INT64, other timestamps and durations, DECIMAL64. */
  uint8_t u8;       /**< UINT8, BOOL8. */
  uint16_t u16;     /**< UINT16. */
  uint32_t u32;     /**< UINT32. */
  uint64_t u64;     /**< UINT64. */
  float f32;        /**< FLOAT32. */
  double f64;       /**< FLOAT64. */
  gcol_int128 i128; /**< DECIMAL128. */
} gcol_scalar_value;

/** @brief An owning scalar in host memory. */
typedef struct gcol_scalar {
  gcol_data_type type;     /**< The type (fixed-width or STRING). */
  bool is_valid;           /**< False for a null scalar. */
  gcol_scalar_value value; /**< Fixed-width value (zero when null). */
  char *string_data;       /**< STRING bytes (owned; NUL-terminated for convenience). */
  int64_t string_size;     /**< STRING length in bytes (excluding the added NUL). */
} gcol_scalar;

/**
 * @brief A valid integer-like scalar (integers, BOOL8, timestamps, durations; decimals
 *        take @p value as the unscaled integer).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL out),
 *         ::GCOL_ERROR_TYPE_MISMATCH (float or non-fixed-width type),
 *         ::GCOL_ERROR_OVERFLOW (@p value does not fit the storage type).
 */
gcol_status gcol_scalar_create_int(gcol_data_type type, int64_t value, gcol_scalar **out);

/** @brief A valid UINT64 (or other unsigned) scalar from an unsigned value. */
gcol_status gcol_scalar_create_uint(gcol_data_type type, uint64_t value, gcol_scalar **out);

/** @brief A valid FLOAT32 or FLOAT64 scalar (FLOAT32 rounds @p value to float). */
gcol_status gcol_scalar_create_float(gcol_data_type type, double value, gcol_scalar **out);

/** @brief A valid DECIMAL32/64/128 scalar of unscaled value @p value (scale in @p type). */
gcol_status gcol_scalar_create_decimal(gcol_data_type type, gcol_int128 value,
                                       gcol_scalar **out);

/** @brief A valid STRING scalar copying @p size bytes of @p data (may hold NUL bytes). */
gcol_status gcol_scalar_create_string(const char *data, int64_t size, gcol_scalar **out);

/** @brief A null scalar of any fixed-width type or STRING. */
gcol_status gcol_scalar_create_null(gcol_data_type type, gcol_scalar **out);

/**
 * @brief A valid fixed-width scalar from the value's bytes in storage (`gcol_type_size()`
 *        bytes at @p storage).
 */
gcol_status gcol_scalar_create_from_storage(gcol_data_type type, const void *storage,
                                            gcol_scalar **out);

/** @brief Copies a scalar. */
gcol_status gcol_scalar_copy(const gcol_scalar *scalar, gcol_scalar **out);

/**
 * @brief Reads an integer-like scalar widened to int64 (decimals: the unscaled value, if it
 *        fits).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (null scalar or NULL pointer),
 *         ::GCOL_ERROR_TYPE_MISMATCH, ::GCOL_ERROR_OVERFLOW (UINT64 above INT64_MAX,
 *         DECIMAL128 out of range).
 */
gcol_status gcol_scalar_get_int(const gcol_scalar *scalar, int64_t *out);

/** @brief Reads a numeric scalar as double. */
gcol_status gcol_scalar_get_float(const gcol_scalar *scalar, double *out);

/**
 * @brief Reads an integer-like scalar as gcol_scalar_get_int() does, where a null scalar is
 *        an answer rather than an error: @p valid false, @p out 0, ::GCOL_OK.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (a NULL pointer),
 *         ::GCOL_ERROR_TYPE_MISMATCH (not integer-like, null or not), ::GCOL_ERROR_OVERFLOW
 *         (as gcol_scalar_get_int()).
 */
gcol_status gcol_scalar_read_int(const gcol_scalar *scalar, int64_t *out, bool *valid);

/**
 * @brief Reads a numeric scalar as double (as gcol_scalar_get_float()); a null scalar gives
 *        @p valid false, @p out 0 and ::GCOL_OK.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (a NULL pointer),
 *         ::GCOL_ERROR_TYPE_MISMATCH (not numeric, null or not).
 */
gcol_status gcol_scalar_read_float(const gcol_scalar *scalar, double *out, bool *valid);

/**
 * @brief A STRING scalar's bytes: @p data points into the scalar (NUL-terminated, valid until
 *        it is freed), @p size bytes; a null scalar gives @p valid false, NULL and 0.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (a NULL pointer),
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING).
 */
gcol_status gcol_scalar_read_string(const gcol_scalar *scalar, const char **data, int64_t *size,
                                    bool *valid);

/** @brief A valid STRING scalar of the NUL-terminated @p text (without the NUL). */
gcol_status gcol_scalar_create_cstring(const char *text, gcol_scalar **out);

/** @brief The bytes of a fixed-width scalar's value in its storage type; NULL otherwise. */
const void *gcol_scalar_get_storage(const gcol_scalar *scalar);

/** @brief Frees a scalar. NULL is a no-op. */
void gcol_scalar_free(gcol_scalar *scalar);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_SCALAR_H */
