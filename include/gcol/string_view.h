/**
 * @file string_view.h
 * @ingroup gcol_views
 * @brief Strings for custom kernels: a string reference (pointer + byte length) with
 *        comparison, and a flat strings-column view usable inside kernels. Host and device.
 *
 * @code
 * __global__ void lengths(gcol_strings_view s, int32_t *out) {
 *   int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
 *   if (i < s.size) out[i] = gcol_strings_view_is_valid(s, i)
 *                            ? (int32_t)gcol_strings_view_get(s, i).size : 0;
 * }
 * // host: gcol_strings_view s; gcol_strings_view_make(strings_column_view, &s);
 * @endcode
 */
#ifndef GCOL_STRING_VIEW_H
#define GCOL_STRING_VIEW_H

/** @addtogroup gcol_views
 *  @{ */

#include "gcol/bits.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/indexalator.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief A UTF-8 string in memory: @p size bytes at @p data (not NUL-terminated). */
typedef struct gcol_string_ref {
  const char *data; /**< First byte (may be NULL when size is 0). */
  int64_t size;     /**< Length in bytes. */
} gcol_string_ref;

/** @brief Makes a string reference. */
GCOL_HD_INLINE gcol_string_ref gcol_string_ref_make(const char *data, int64_t size) {
  gcol_string_ref r;
  r.data = data;
  r.size = size;
  return r;
}

/**
 * @brief Byte-wise comparison (UTF-8 code point order): negative, 0 or positive; a proper
 *        prefix sorts first.
 */
GCOL_HD_INLINE int gcol_string_ref_compare(gcol_string_ref a, gcol_string_ref b) {
  int64_t const n = a.size < b.size ? a.size : b.size;
  for (int64_t i = 0; i < n; ++i) {
    unsigned char const ca = (unsigned char)a.data[i];
    unsigned char const cb = (unsigned char)b.data[i];
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  return a.size < b.size ? -1 : (a.size > b.size ? 1 : 0);
}

/** @brief True if @p a and @p b hold the same bytes. */
GCOL_HD_INLINE bool gcol_string_ref_equal(gcol_string_ref a, gcol_string_ref b) {
  if (a.size != b.size) return false;
  for (int64_t i = 0; i < a.size; ++i) {
    if (a.data[i] != b.data[i]) return false;
  }
  return true;
}

/**
 * @brief A flat view of a STRING column for kernels: row i's bytes are
 *        `chars[offsets[i] .. offsets[i+1])`, its validity bit `mask_offset + i`.
 */
typedef struct gcol_strings_view {
  gcol_offsetalator offsets; /**< Offsets, positioned at the first row. */
  const char *chars;         /**< The chars buffer (offsets index into it). */
  const uint32_t *null_mask; /**< Null mask or NULL. */
  int64_t mask_offset;       /**< Bit of row 0 in null_mask (the column's offset). */
  int64_t size;              /**< Rows. */
} gcol_strings_view;

/**
 * @brief Makes a flat strings view of a STRING column view (offset honoured).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL out, missing offsets child while
 *         size > 0), ::GCOL_ERROR_TYPE_MISMATCH (not STRING).
 */
gcol_status gcol_strings_view_make(gcol_column_view view, gcol_strings_view *out);

/** @brief True if row @p i is valid. */
GCOL_HD_INLINE bool gcol_strings_view_is_valid(gcol_strings_view v, int64_t i) {
  return gcol_bit_is_set_or_null_mask(v.null_mask, v.mask_offset + i);
}

/** @brief Row @p i's bytes (for a null row: whatever its offsets span, usually empty). */
GCOL_HD_INLINE gcol_string_ref gcol_strings_view_get(gcol_strings_view v, int64_t i) {
  int64_t const begin = gcol_offsetalator_get(v.offsets, i);
  int64_t const end = gcol_offsetalator_get(v.offsets, i + 1);
  return gcol_string_ref_make(v.chars + begin, end - begin);
}

/** @brief Byte length of row @p i. */
GCOL_HD_INLINE int64_t gcol_strings_view_size_bytes(gcol_strings_view v, int64_t i) {
  return gcol_offsetalator_get(v.offsets, i + 1) - gcol_offsetalator_get(v.offsets, i);
}

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRING_VIEW_H */
