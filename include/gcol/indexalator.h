/**
 * @file indexalator.h
 * @ingroup gcol_views
 * @brief Index normalization: read any integer index column as int64 (the indexalator),
 *        write INT32 or INT64 index outputs through one writer, and read/write INT32 or
 *        INT64 offsets as int64 (the offsetalator). Host and device.
 *
 * One kernel instantiation serves every index type: the width is a run-time field, and the
 * branch on it is uniform across a warp, so it costs next to nothing.
 *
 * @code
 * __global__ void gather_i64(gcol_indexalator map, const int64_t *src, int64_t *dst, int64_t n) {
 *   int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
 *   if (i < n) dst[i] = src[gcol_indexalator_get(map, i)];
 * }
 * // host: gcol_indexalator map; gcol_indexalator_make(index_view, &map);  // any integer type
 * @endcode
 */
#ifndef GCOL_INDEXALATOR_H
#define GCOL_INDEXALATOR_H

/** @addtogroup gcol_views
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief Reads element i of an integer column of any width and signedness as int64. */
typedef struct gcol_indexalator {
  const void *data; /**< Element 0 (the view's offset already applied). */
  int32_t width;    /**< Bytes per element: 1, 2, 4 or 8. */
  bool is_signed;   /**< Signed or unsigned elements. */
} gcol_indexalator;

/**
 * @brief Makes an indexalator over an integer view (offset applied; nulls not consulted).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL out),
 *         ::GCOL_ERROR_TYPE_MISMATCH (not an integer type; the message names the type).
 */
gcol_status gcol_indexalator_make(gcol_column_view view, gcol_indexalator *out);

/** @brief Element @p i as int64 (UINT64 values above INT64_MAX wrap to negative). */
GCOL_HD_INLINE int64_t gcol_indexalator_get(gcol_indexalator it, int64_t i) {
  if (it.is_signed) {
    switch (it.width) {
      case 1: return ((const int8_t *)it.data)[i];
      case 2: return ((const int16_t *)it.data)[i];
      case 4: return ((const int32_t *)it.data)[i];
      default: return ((const int64_t *)it.data)[i];
    }
  }
  switch (it.width) {
    case 1: return ((const uint8_t *)it.data)[i];
    case 2: return ((const uint16_t *)it.data)[i];
    case 4: return ((const uint32_t *)it.data)[i];
    default: return (int64_t)((const uint64_t *)it.data)[i];
  }
}

/** @brief Writes int64 values into an INT32 or INT64 index output. */
typedef struct gcol_index_writer {
  void *data;    /**< Element 0. */
  int32_t width; /**< 4 (INT32) or 8 (INT64). */
} gcol_index_writer;

/** @brief Writes @p value at @p i (truncated to INT32 when width is 4). */
GCOL_HD_INLINE void gcol_index_writer_set(gcol_index_writer w, int64_t i, int64_t value) {
  if (w.width == 4) {
    ((int32_t *)w.data)[i] = (int32_t)value;
  } else {
    ((int64_t *)w.data)[i] = value;
  }
}

/**
 * @brief The index type for outputs addressing @p num_rows rows: INT32 when every index
 *        fits (num_rows <= INT32_MAX), INT64 otherwise.
 */
GCOL_HD_INLINE gcol_type_id gcol_index_type_for(int64_t num_rows) {
  return num_rows <= (int64_t)INT32_MAX ? GCOL_INT32 : GCOL_INT64;
}

/**
 * @brief Makes a writer over a mutable INT32 or INT64 view (offset applied).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_TYPE_MISMATCH.
 */
gcol_status gcol_index_writer_make(gcol_mutable_column_view view, gcol_index_writer *out);

/** @brief Reads INT32 or INT64 offsets (strings, lists) as int64. */
typedef struct gcol_offsetalator {
  const void *data; /**< Offset 0 of the view (its row offset applied). */
  int32_t width;    /**< 4 or 8. */
} gcol_offsetalator;

/** @brief Offset @p i as int64. */
GCOL_HD_INLINE int64_t gcol_offsetalator_get(gcol_offsetalator it, int64_t i) {
  return it.width == 4 ? (int64_t)((const int32_t *)it.data)[i] : ((const int64_t *)it.data)[i];
}

/**
 * @brief An offsetalator over the offsets child of a STRING or LIST view, positioned at the
 *        view's first row (so get(0) is the first row's start and get(size) the last row's
 *        end).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (no offsets child),
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING/LIST, or offsets not INT32/INT64).
 */
gcol_status gcol_offsetalator_make(gcol_column_view view, gcol_offsetalator *out);

/** @brief Writes int64 offsets into an INT32 or INT64 offsets buffer. */
typedef struct gcol_offsets_writer {
  void *data;    /**< Offset 0. */
  int32_t width; /**< 4 or 8. */
} gcol_offsets_writer;

/** @brief Writes @p value at @p i. */
GCOL_HD_INLINE void gcol_offsets_writer_set(gcol_offsets_writer w, int64_t i, int64_t value) {
  if (w.width == 4) {
    ((int32_t *)w.data)[i] = (int32_t)value;
  } else {
    ((int64_t *)w.data)[i] = value;
  }
}

/**
 * @brief Bytes above which STRING and LIST outputs switch from INT32 to INT64 offsets.
 *        Default INT32_MAX; tests lower it (gcol_set_large_offsets_threshold()) to force the
 *        INT64 path on small data.
 */
int64_t gcol_large_offsets_threshold(void);

/** @brief Sets the threshold (> 0; process-wide; for tests). Returns the previous value. */
int64_t gcol_set_large_offsets_threshold(int64_t bytes);

/** @brief The offsets type for an output of @p total elements (chars or list values). */
GCOL_HD_INLINE gcol_type_id gcol_offsets_type_for_threshold(int64_t total, int64_t threshold) {
  return total <= threshold ? GCOL_INT32 : GCOL_INT64;
}

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_INDEXALATOR_H */
