/**
 * @file typed_view.h
 * @ingroup gcol_views
 * @brief Typed column views for custom kernels, generated for every fixed-width storage
 *        type (::GCOL_STORAGE_TYPE_LIST) plus `d128` (::gcol_int128, DECIMAL128); host and
 *        device. Also unit conversion of timestamp and duration ticks.
 *
 * @code
 * __global__ void scale(gcol_f64_view in, gcol_f64_mutable_view out, double k) {
 *   int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
 *   if (i >= in.size) return;
 *   if (gcol_f64_view_is_valid(in, i)) gcol_f64_mutable_view_set(out, i, k * gcol_f64_view_get(in, i));
 * }
 * // host:
 * gcol_f64_view in;
 * gcol_f64_mutable_view out;
 * gcol_mutable_column_view bv;
 * if (gcol_f64_view_make(gcol_column_get_view(a), &in) != GCOL_OK) ...;   // wrong type
 * if (gcol_column_get_mutable_view(b, stream, &bv) != GCOL_OK) ...;      // write access
 * if (gcol_f64_mutable_view_make(bv, &out) != GCOL_OK) ...;
 * scale<<<blocks, 256, 0, stream>>>(in, out, 2.0);
 * @endcode
 *
 * Every family below exists once per suffix `SFX` with element type `T` (each generated name,
 * suffix by suffix, is listed in @ref generated_names):
 * `i8 int8_t, i16 int16_t, i32 int32_t, i64 int64_t, u8 uint8_t, u16 uint16_t, u32 uint32_t,
 * u64 uint64_t, f32 float, f64 double, b8 uint8_t, d128 gcol_int128`. A view accepts the
 * types stored as `T`: i32 accepts INT32, TIMESTAMP_DAYS, DURATION_DAYS and DECIMAL32; i64
 * accepts INT64, the other timestamps and durations and DECIMAL64; b8 accepts BOOL8 only,
 * u8 UINT8 only; d128 DECIMAL128 only.
 *
 * Read-only view (`data` points at row 0, the column's offset already applied; row i's
 * validity is bit `mask_offset + i` of `null_mask`, which may be NULL):
 * @code
 * typedef struct { const T *data; const uint32_t *null_mask; int64_t mask_offset; int64_t size; } gcol_SFX_view;
 * typedef struct { T value; bool valid; } gcol_SFX_pair;
 * gcol_status   gcol_SFX_view_make(gcol_column_view v, gcol_SFX_view *out);       // host
 * bool          gcol_SFX_view_accepts(gcol_type_id id);
 * gcol_SFX_view gcol_SFX_view_wrap(const T *data, const uint32_t *null_mask, int64_t mask_offset, int64_t size);
 * T             gcol_SFX_view_get(gcol_SFX_view v, int64_t i);      // value bytes, also under a null
 * bool          gcol_SFX_view_is_valid(gcol_SFX_view v, int64_t i);
 * gcol_SFX_pair gcol_SFX_view_get_pair(gcol_SFX_view v, int64_t i);
 * @endcode
 * Mutable view (same layout with writable pointers):
 * @code
 * gcol_status   gcol_SFX_mutable_view_make(gcol_mutable_column_view v, gcol_SFX_mutable_view *out);
 * gcol_SFX_mutable_view gcol_SFX_mutable_view_wrap(T *data, uint32_t *null_mask, int64_t mask_offset, int64_t size);
 * gcol_SFX_view gcol_SFX_mutable_view_to_view(gcol_SFX_mutable_view v);
 * T             gcol_SFX_mutable_view_get(gcol_SFX_mutable_view v, int64_t i);
 * bool          gcol_SFX_mutable_view_is_valid(gcol_SFX_mutable_view v, int64_t i);
 * gcol_SFX_pair gcol_SFX_mutable_view_get_pair(gcol_SFX_mutable_view v, int64_t i);
 * void          gcol_SFX_mutable_view_set(gcol_SFX_mutable_view v, int64_t i, T value); // value only
 * void          gcol_SFX_mutable_view_set_null(gcol_SFX_mutable_view v, int64_t i);     // no-op without a mask
 * void          gcol_SFX_mutable_view_set_valid(gcol_SFX_mutable_view v, int64_t i);    // no-op without a mask
 * void          gcol_SFX_mutable_view_set_pair(gcol_SFX_mutable_view v, int64_t i, gcol_SFX_pair p);
 * @endcode
 * set_null, set_valid and set_pair change a mask word non-atomically: when threads share
 * a mask word (32 consecutive rows), use the `_atomic` variants of gcol/device/atomics.cuh,
 * or give each warp whole words. The `_make` constructors return ::GCOL_OK,
 * ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, negative size or offset, NULL data with rows)
 * or ::GCOL_ERROR_TYPE_MISMATCH (the column's type is not stored as `T`); being header-only
 * they record no gcol_last_error() message, and @p out is left untouched on failure.
 */
#ifndef GCOL_TYPED_VIEW_H
#define GCOL_TYPED_VIEW_H

/** @addtogroup gcol_views
 *  @{ */

#include "gcol/bits.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/status.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief Every typed-view suffix: ::GCOL_STORAGE_TYPE_LIST plus `d128` (DECIMAL128). */
#define GCOL_TYPED_VIEW_LIST(X) \
  GCOL_STORAGE_TYPE_LIST(X)     \
  X(d128, gcol_int128)

/** @cond GCOL_DETAIL */
/* The storage id each suffix accepts (compared with gcol_detail_view_storage_id()). */
#define GCOL_DETAIL_STORAGE_ID_i8 GCOL_INT8
#define GCOL_DETAIL_STORAGE_ID_i16 GCOL_INT16
#define GCOL_DETAIL_STORAGE_ID_i32 GCOL_INT32
#define GCOL_DETAIL_STORAGE_ID_i64 GCOL_INT64
#define GCOL_DETAIL_STORAGE_ID_u8 GCOL_UINT8
#define GCOL_DETAIL_STORAGE_ID_u16 GCOL_UINT16
#define GCOL_DETAIL_STORAGE_ID_u32 GCOL_UINT32
#define GCOL_DETAIL_STORAGE_ID_u64 GCOL_UINT64
#define GCOL_DETAIL_STORAGE_ID_f32 GCOL_FLOAT32
#define GCOL_DETAIL_STORAGE_ID_f64 GCOL_FLOAT64
#define GCOL_DETAIL_STORAGE_ID_b8 GCOL_BOOL8
#define GCOL_DETAIL_STORAGE_ID_d128 GCOL_DECIMAL128

/* Storage id of a type for view matching: as gcol_type_storage_id(), except that BOOL8
 * keeps its own id (b8 and u8 views are distinct). */
GCOL_HD_INLINE gcol_type_id gcol_detail_view_storage_id(gcol_type_id id) {
  return id == GCOL_BOOL8 ? GCOL_BOOL8 : gcol_type_storage_id(id);
}

/* Shared checks of the _make constructors: sizes, offsets, data present. */
GCOL_HD_INLINE gcol_status gcol_detail_view_check(const void *out, gcol_type_id id,
                                                  gcol_type_id accepted, int64_t size,
                                                  int64_t offset, const void *data) {
  if (out == NULL || size < 0 || offset < 0) return GCOL_ERROR_INVALID_ARGUMENT;
  if (gcol_detail_view_storage_id(id) != accepted) return GCOL_ERROR_TYPE_MISMATCH;
  if (data == NULL && size > 0) return GCOL_ERROR_INVALID_ARGUMENT;
  return GCOL_OK;
}

/* Generator pieces: TYPE declares the structs, READ the read-only functions, WRITE the
 * mutable ones, MAKE the checked constructors. */
#define GCOL_DETAIL_TYPED_VIEW_TYPE(SFX, T)                                            \
  typedef struct gcol_##SFX##_view {                                                   \
    const T *data;                                                                     \
    const uint32_t *null_mask;                                                         \
    int64_t mask_offset;                                                               \
    int64_t size;                                                                      \
  } gcol_##SFX##_view;                                                                 \
  typedef struct gcol_##SFX##_mutable_view {                                           \
    T *data;                                                                           \
    uint32_t *null_mask;                                                               \
    int64_t mask_offset;                                                               \
    int64_t size;                                                                      \
  } gcol_##SFX##_mutable_view;                                                         \
  typedef struct gcol_##SFX##_pair {                                                   \
    T value;                                                                           \
    bool valid;                                                                        \
  } gcol_##SFX##_pair;

#define GCOL_DETAIL_TYPED_VIEW_READ(SFX, T)                                            \
  GCOL_HD_INLINE gcol_##SFX##_view gcol_##SFX##_view_wrap(                             \
      const T *data, const uint32_t *null_mask, int64_t mask_offset, int64_t size) {   \
    gcol_##SFX##_view v;                                                               \
    v.data = (data);                                                                   \
    v.null_mask = (null_mask);                                                         \
    v.mask_offset = (mask_offset);                                                     \
    v.size = (size);                                                                   \
    return v;                                                                          \
  }                                                                                    \
  GCOL_HD_INLINE bool gcol_##SFX##_view_accepts(gcol_type_id id) {                     \
    return gcol_detail_view_storage_id(id) == GCOL_DETAIL_STORAGE_ID_##SFX;            \
  }                                                                                    \
  GCOL_HD_INLINE T gcol_##SFX##_view_get(gcol_##SFX##_view v, int64_t i) {             \
    return v.data[(i)];                                                                \
  }                                                                                    \
  GCOL_HD_INLINE bool gcol_##SFX##_view_is_valid(gcol_##SFX##_view v, int64_t i) {     \
    return gcol_bit_is_set_or_null_mask(v.null_mask, v.mask_offset + (i));             \
  }                                                                                    \
  GCOL_HD_INLINE gcol_##SFX##_pair gcol_##SFX##_view_get_pair(gcol_##SFX##_view v,     \
                                                              int64_t i) {             \
    gcol_##SFX##_pair p;                                                               \
    p.value = v.data[(i)];                                                             \
    p.valid = gcol_##SFX##_view_is_valid(v, (i));                                      \
    return p;                                                                          \
  }

#define GCOL_DETAIL_TYPED_VIEW_WRITE(SFX, T)                                           \
  GCOL_HD_INLINE gcol_##SFX##_mutable_view gcol_##SFX##_mutable_view_wrap(             \
      T *data, uint32_t *null_mask, int64_t mask_offset, int64_t size) {               \
    gcol_##SFX##_mutable_view v;                                                       \
    v.data = (data);                                                                   \
    v.null_mask = (null_mask);                                                         \
    v.mask_offset = (mask_offset);                                                     \
    v.size = (size);                                                                   \
    return v;                                                                          \
  }                                                                                    \
  GCOL_HD_INLINE gcol_##SFX##_view gcol_##SFX##_mutable_view_to_view(                  \
      gcol_##SFX##_mutable_view v) {                                                   \
    return gcol_##SFX##_view_wrap(v.data, v.null_mask, v.mask_offset, v.size);         \
  }                                                                                    \
  GCOL_HD_INLINE T gcol_##SFX##_mutable_view_get(gcol_##SFX##_mutable_view v,          \
                                                 int64_t i) {                          \
    return v.data[(i)];                                                                \
  }                                                                                    \
  GCOL_HD_INLINE bool gcol_##SFX##_mutable_view_is_valid(gcol_##SFX##_mutable_view v,  \
                                                         int64_t i) {                  \
    return gcol_bit_is_set_or_null_mask(v.null_mask, v.mask_offset + (i));             \
  }                                                                                    \
  GCOL_HD_INLINE gcol_##SFX##_pair gcol_##SFX##_mutable_view_get_pair(                 \
      gcol_##SFX##_mutable_view v, int64_t i) {                                        \
    return gcol_##SFX##_view_get_pair(gcol_##SFX##_mutable_view_to_view(v), (i));      \
  }                                                                                    \
  GCOL_HD_INLINE void gcol_##SFX##_mutable_view_set(gcol_##SFX##_mutable_view v,       \
                                                    int64_t i, T value) {              \
    v.data[(i)] = (value);                                                             \
  }                                                                                    \
  GCOL_HD_INLINE void gcol_##SFX##_mutable_view_set_null(gcol_##SFX##_mutable_view v,  \
                                                         int64_t i) {                  \
    if (v.null_mask != NULL) gcol_bit_clear(v.null_mask, v.mask_offset + (i));         \
  }                                                                                    \
  GCOL_HD_INLINE void gcol_##SFX##_mutable_view_set_valid(gcol_##SFX##_mutable_view v, \
                                                          int64_t i) {                 \
    if (v.null_mask != NULL) gcol_bit_set(v.null_mask, v.mask_offset + (i));           \
  }                                                                                    \
  GCOL_HD_INLINE void gcol_##SFX##_mutable_view_set_pair(gcol_##SFX##_mutable_view v,  \
                                                         int64_t i,                    \
                                                         gcol_##SFX##_pair p) {        \
    v.data[(i)] = p.value;                                                             \
    if (p.valid) {                                                                     \
      gcol_##SFX##_mutable_view_set_valid(v, (i));                                     \
    } else {                                                                           \
      gcol_##SFX##_mutable_view_set_null(v, (i));                                      \
    }                                                                                  \
  }

#define GCOL_DETAIL_TYPED_VIEW_MAKE(SFX, T)                                            \
  static inline gcol_status gcol_##SFX##_view_make(gcol_column_view c,                 \
                                                   gcol_##SFX##_view *out) {           \
    gcol_status const st = gcol_detail_view_check(                                     \
        out, c.type.id, GCOL_DETAIL_STORAGE_ID_##SFX, c.size, c.offset, c.data);       \
    if (st != GCOL_OK) return st;                                                      \
    *out = gcol_##SFX##_view_wrap(c.data == NULL ? NULL : (const T *)c.data + c.offset, \
                                  c.null_mask, c.offset, c.size);                      \
    return GCOL_OK;                                                                    \
  }                                                                                    \
  static inline gcol_status gcol_##SFX##_mutable_view_make(gcol_mutable_column_view c, \
                                                           gcol_##SFX##_mutable_view *out) { \
    gcol_status const st = gcol_detail_view_check(                                     \
        out, c.type.id, GCOL_DETAIL_STORAGE_ID_##SFX, c.size, c.offset, c.data);       \
    if (st != GCOL_OK) return st;                                                      \
    *out = gcol_##SFX##_mutable_view_wrap(c.data == NULL ? NULL : (T *)c.data + c.offset, \
                                          c.null_mask, c.offset, c.size);              \
    return GCOL_OK;                                                                    \
  }
/** @endcond */

/**
 * @brief Generates the whole typed-view family for suffix @p SFX and element type @p T
 *        (the caller names the instantiation; used below for ::GCOL_TYPED_VIEW_LIST).
 */
#define GCOL_TYPED_VIEW_DEFINE(SFX, T)  \
  GCOL_DETAIL_TYPED_VIEW_TYPE(SFX, T)   \
  GCOL_DETAIL_TYPED_VIEW_READ(SFX, T)   \
  GCOL_DETAIL_TYPED_VIEW_WRITE(SFX, T)  \
  GCOL_DETAIL_TYPED_VIEW_MAKE(SFX, T)

/** @cond GCOL_DETAIL */
GCOL_TYPED_VIEW_LIST(GCOL_TYPED_VIEW_DEFINE)

/* Ticks of each time unit in one day. */
GCOL_HD_INLINE int64_t gcol_detail_ticks_per_day(gcol_type_id id) {
  if (id == GCOL_TIMESTAMP_DAYS || id == GCOL_DURATION_DAYS) return 1;
  int64_t const per_second = gcol_type_ticks_per_second(id);
  return per_second * 86400;
}
/** @endcond */

/**
 * @brief Converts @p ticks of timestamp or duration type @p from into the unit of @p to
 *        (e.g. TIMESTAMP_MILLISECONDS to TIMESTAMP_SECONDS). Coarser units round toward
 *        negative infinity (-1 ms is second -1), so a timestamp lands in the unit that
 *        contains it.
 * @param[in] ticks The value in @p from's unit.
 * @param[in] from A timestamp or duration type.
 * @param[in] to A timestamp or duration type.
 * @param[out] out The converted value (untouched on failure).
 * @return false if a type is not a timestamp or duration, or the result overflows int64.
 */
GCOL_HD_INLINE bool gcol_ticks_convert(int64_t ticks, gcol_type_id from, gcol_type_id to,
                                       int64_t *out) {
  int64_t const f = gcol_detail_ticks_per_day(from);
  int64_t const t = gcol_detail_ticks_per_day(to);
  if (f == 0 || t == 0) return false;
  if (t >= f) {
    int64_t const factor = t / f;
    if (ticks > INT64_MAX / factor || ticks < INT64_MIN / factor) return false;
    *out = ticks * factor;
    return true;
  }
  int64_t const factor = f / t;
  int64_t q = ticks / factor;
  if (ticks % factor != 0 && ticks < 0) q -= 1;
  *out = q;
  return true;
}

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_TYPED_VIEW_H */
