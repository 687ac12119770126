/**
 * @file accessors.h
 * @ingroup gcol_views
 * @brief Accessors (C's iterators) over typed views, for host and device code: pair
 *        (value, validity), validity, and null-replacement (the value, or a replacement
 *        for null rows). Generated for every suffix of ::GCOL_TYPED_VIEW_LIST. The index
 *        and offset normalizers are in gcol/indexalator.h.
 *
 * @code
 * // sum of a nullable int64 column, nulls counted as 0:
 * __global__ void sum(gcol_i64_replace_nulls_accessor a, int64_t n, unsigned long long *out) {
 *   int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
 *   if (i < n) atomicAdd(out, (unsigned long long)gcol_i64_replace_nulls_accessor_get(a, i));
 * }
 * // host: sum<<<b, 256>>>(gcol_i64_replace_nulls_accessor_make(view, 0), view.size, d_out);
 * @endcode
 *
 * For every suffix `SFX` with element type `T` (see gcol/typed_view.h):
 * @code
 * typedef struct { gcol_SFX_view view; } gcol_SFX_pair_accessor;
 * gcol_SFX_pair_accessor gcol_SFX_pair_accessor_make(gcol_SFX_view v);
 * gcol_SFX_pair          gcol_SFX_pair_accessor_get(gcol_SFX_pair_accessor a, int64_t i);
 *
 * typedef struct { gcol_SFX_view view; T replacement; } gcol_SFX_replace_nulls_accessor;
 * gcol_SFX_replace_nulls_accessor gcol_SFX_replace_nulls_accessor_make(gcol_SFX_view v, T replacement);
 * T                      gcol_SFX_replace_nulls_accessor_get(gcol_SFX_replace_nulls_accessor a, int64_t i);
 *
 * gcol_validity_accessor gcol_SFX_validity_accessor_make(gcol_SFX_view v);
 * @endcode
 */
#ifndef GCOL_ACCESSORS_H
#define GCOL_ACCESSORS_H

/** @addtogroup gcol_views
 *  @{ */

#include "gcol/bits.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/typed_view.h"

GCOL_EXTERN_C_BEGIN

/** @brief Reads row validity from a mask at an offset; type-independent. */
typedef struct gcol_validity_accessor {
  const uint32_t *null_mask; /**< The mask, or NULL (every row valid). */
  int64_t mask_offset;       /**< Bit of row 0. */
} gcol_validity_accessor;

/** @brief A validity accessor over @p null_mask (may be NULL) starting at bit @p mask_offset. */
GCOL_HD_INLINE gcol_validity_accessor gcol_validity_accessor_make(const uint32_t *null_mask,
                                                                  int64_t mask_offset) {
  gcol_validity_accessor a;
  a.null_mask = null_mask;
  a.mask_offset = mask_offset;
  return a;
}

/** @brief A validity accessor over any column view (its offset applied). */
GCOL_HD_INLINE gcol_validity_accessor gcol_validity_accessor_from_column(gcol_column_view v) {
  return gcol_validity_accessor_make(v.null_mask, v.offset);
}

/** @brief True if row @p i is valid. */
GCOL_HD_INLINE bool gcol_validity_accessor_get(gcol_validity_accessor a, int64_t i) {
  return gcol_bit_is_set_or_null_mask(a.null_mask, a.mask_offset + i);
}

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_ACCESSOR_TYPE(SFX, T)                                              \
  typedef struct gcol_##SFX##_pair_accessor {                                          \
    gcol_##SFX##_view view;                                                            \
  } gcol_##SFX##_pair_accessor;                                                        \
  typedef struct gcol_##SFX##_replace_nulls_accessor {                                 \
    gcol_##SFX##_view view;                                                            \
    T replacement;                                                                     \
  } gcol_##SFX##_replace_nulls_accessor;

#define GCOL_DETAIL_ACCESSOR_IMPL(SFX, T)                                              \
  GCOL_HD_INLINE gcol_##SFX##_pair_accessor gcol_##SFX##_pair_accessor_make(           \
      gcol_##SFX##_view v) {                                                           \
    gcol_##SFX##_pair_accessor a;                                                      \
    a.view = (v);                                                                      \
    return a;                                                                          \
  }                                                                                    \
  GCOL_HD_INLINE gcol_##SFX##_pair gcol_##SFX##_pair_accessor_get(                     \
      gcol_##SFX##_pair_accessor a, int64_t i) {                                       \
    return gcol_##SFX##_view_get_pair(a.view, (i));                                    \
  }                                                                                    \
  GCOL_HD_INLINE gcol_##SFX##_replace_nulls_accessor                                   \
      gcol_##SFX##_replace_nulls_accessor_make(gcol_##SFX##_view v, T replacement) {   \
    gcol_##SFX##_replace_nulls_accessor a;                                             \
    a.view = (v);                                                                      \
    a.replacement = (replacement);                                                     \
    return a;                                                                          \
  }                                                                                    \
  GCOL_HD_INLINE T gcol_##SFX##_replace_nulls_accessor_get(                            \
      gcol_##SFX##_replace_nulls_accessor a, int64_t i) {                              \
    return gcol_##SFX##_view_is_valid(a.view, (i)) ? a.view.data[(i)] : a.replacement; \
  }                                                                                    \
  GCOL_HD_INLINE gcol_validity_accessor gcol_##SFX##_validity_accessor_make(           \
      gcol_##SFX##_view v) {                                                           \
    return gcol_validity_accessor_make(v.null_mask, v.mask_offset);                    \
  }
/** @endcond */

/** @brief Generates the accessor family for a typed view suffix @p SFX of type @p T. */
#define GCOL_ACCESSORS_DEFINE(SFX, T) \
  GCOL_DETAIL_ACCESSOR_TYPE(SFX, T)   \
  GCOL_DETAIL_ACCESSOR_IMPL(SFX, T)

/** @cond GCOL_DETAIL */
GCOL_TYPED_VIEW_LIST(GCOL_ACCESSORS_DEFINE)
/** @endcond */

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_ACCESSORS_H */
