/*
 * Row operators: hashing and equality of multi-column rows, written once for every area that
 * groups or matches rows (distinct, hash tables, joins, groupby).
 *
 * A key table is an array of flat column descriptors (gcol_detail_row_column) in device
 * memory, made by gcol_detail_row_columns_make(). The rules, one set for everything:
 *   - floats: -0.0 equals 0.0 and every NaN equals every other NaN (both hash alike);
 *   - fixed-width values (ints, bools, timestamps, durations, decimals incl. 128-bit)
 *     compare by their bytes;
 *   - strings compare by bytes ("" and null differ; null handling is the caller's option);
 *   - nulls: equal to each other only when `nulls_equal`; a null never equals a value.
 * Hashes are for hash tables inside gcol (fast mixing, not a published function): use
 * gcol_hash() for hashes that must match other systems.
 */
#ifndef GCOL_KERNELS_DETAIL_ROW_OPERATORS_CUH
#define GCOL_KERNELS_DETAIL_ROW_OPERATORS_CUH

#include "common.cuh"
#include "gcol/bits.h"
#include "gcol/hash.h"
#include "gcol/string_view.h"
#include "gcol/table.h"

/* How a key column's values are compared and hashed. */
typedef enum gcol_detail_row_kind {
  GCOL_DETAIL_ROW_BYTES = 0, /* fixed-width compared by bytes */
  GCOL_DETAIL_ROW_F32 = 1,   /* FLOAT32: -0.0 == 0.0, NaNs equal */
  GCOL_DETAIL_ROW_F64 = 2,   /* FLOAT64: likewise */
  GCOL_DETAIL_ROW_STRING = 3 /* STRING by bytes */
} gcol_detail_row_kind;

/* One key column, flattened for kernels. */
typedef struct gcol_detail_row_column {
  int32_t kind;              /* gcol_detail_row_kind */
  int32_t width;             /* bytes per value for fixed-width kinds */
  const void *data;          /* fixed-width: row 0 (offset applied) */
  const uint32_t *null_mask; /* or NULL */
  int64_t mask_offset;       /* bit of row 0 */
  gcol_strings_view strings; /* STRING kind only */
} gcol_detail_row_column;

/*
 * Validates @p keys (indices into @p input, each in range, at least one) and copies their
 * flat descriptors to a temporary device buffer (default resource). @p require_hashable
 * rejects nested and dictionary columns; @p floats_only rejects non-float columns.
 */
extern "C" gcol_status gcol_detail_row_columns_make(gcol_table_view input, const int32_t *keys,
                                                    int32_t num_keys, bool require_hashable,
                                                    bool floats_only, gcol_stream stream,
                                                    gcol_buffer **out);

/* True if row @p row of key column @p k is valid. */
static __device__ __forceinline__ bool gcol_detail_row_valid(const gcol_detail_row_column *k,
                                                             int64_t row) {
  return gcol_bit_is_set_or_null_mask(k->null_mask, k->mask_offset + row);
}

/* Float bits with -0.0 as 0.0 and every NaN as one quiet NaN. */
static __device__ __forceinline__ uint64_t gcol_detail_row_f32_bits(float v) {
  if (v != v) return 0x7FC00000u;
  return v == 0.0f ? 0u : gcol_float_bits(v);
}

static __device__ __forceinline__ uint64_t gcol_detail_row_f64_bits(double v) {
  if (v != v) return 0x7FF8000000000000ull;
  return v == 0.0 ? 0u : gcol_double_bits(v);
}

/* Fixed-width value bits (width <= 8), floats normalized (-0.0 -> 0.0, NaN -> one NaN). */
static __device__ __forceinline__ uint64_t gcol_detail_row_bits(const gcol_detail_row_column *k,
                                                                int64_t row) {
  switch (k->width) {
    case 1: return ((const uint8_t *)k->data)[row];
    case 2: return ((const uint16_t *)k->data)[row];
    case 4: {
      if (k->kind == GCOL_DETAIL_ROW_F32) {
        return gcol_detail_row_f32_bits(((const float *)k->data)[row]);
      }
      return ((const uint32_t *)k->data)[row];
    }
    default: {
      if (k->kind == GCOL_DETAIL_ROW_F64) {
        return gcol_detail_row_f64_bits(((const double *)k->data)[row]);
      }
      return ((const uint64_t *)k->data)[row];
    }
  }
}

/* The hash of a null element: any fixed value that is unlikely for real data. */
#define GCOL_DETAIL_ROW_NULL_HASH 0x5BD1E9955BD1E995ull

/* Hash of one element (valid or not). */
static __device__ __forceinline__ uint64_t gcol_detail_row_element_hash(
    const gcol_detail_row_column *k, int64_t row) {
  if (!gcol_detail_row_valid(k, row)) return GCOL_DETAIL_ROW_NULL_HASH;
  if (k->kind == GCOL_DETAIL_ROW_STRING) {
    gcol_string_ref const s = gcol_strings_view_get(k->strings, row);
    return gcol_xxhash64(s.data, s.size, 0);
  }
  if (k->width == 16) {
    const uint64_t *p = (const uint64_t *)k->data + 2 * row;
    return gcol_hash_combine64(gcol_hash_u64(p[0], 0), gcol_hash_u64(p[1], 0));
  }
  return gcol_hash_u64(gcol_detail_row_bits(k, row), 0);
}

/* Hash of a whole row of @p num_keys key columns. */
static __device__ __forceinline__ uint64_t gcol_detail_row_hash(const gcol_detail_row_column *keys,
                                                                int32_t num_keys, int64_t row) {
  uint64_t h = 0;
  for (int32_t k = 0; k < num_keys; ++k) {
    h = gcol_hash_combine64(h, gcol_detail_row_element_hash(&keys[k], row));
  }
  return h;
}

/* Values (both valid) of row @p a of column @p ka and row @p b of column @p kb are equal.
 * The two columns have the same kind and width (same key types on both sides). */
static __device__ __forceinline__ bool gcol_detail_row_values_equal(
    const gcol_detail_row_column *ka, int64_t a, const gcol_detail_row_column *kb, int64_t b) {
  if (ka->kind == GCOL_DETAIL_ROW_STRING) {
    return gcol_string_ref_equal(gcol_strings_view_get(ka->strings, a),
                                 gcol_strings_view_get(kb->strings, b));
  }
  if (ka->width == 16) {
    const uint64_t *p = (const uint64_t *)ka->data + 2 * a;
    const uint64_t *q = (const uint64_t *)kb->data + 2 * b;
    return p[0] == q[0] && p[1] == q[1];
  }
  return gcol_detail_row_bits(ka, a) == gcol_detail_row_bits(kb, b);
}

/* Row @p a of key table @p ka equals row @p b of key table @p kb (same key types). */
static __device__ __forceinline__ bool gcol_detail_rows_equal(const gcol_detail_row_column *ka,
                                                              int64_t a,
                                                              const gcol_detail_row_column *kb,
                                                              int64_t b, int32_t num_keys,
                                                              bool nulls_equal) {
  for (int32_t k = 0; k < num_keys; ++k) {
    bool const va = gcol_detail_row_valid(&ka[k], a);
    bool const vb = gcol_detail_row_valid(&kb[k], b);
    if (va != vb) return false;
    if (!va) {
      if (!nulls_equal) return false;
      continue;
    }
    if (!gcol_detail_row_values_equal(&ka[k], a, &kb[k], b)) return false;
  }
  return true;
}

/* Row @p row holds a null in at least one key column. */
static __device__ __forceinline__ bool gcol_detail_row_has_null(const gcol_detail_row_column *keys,
                                                                int32_t num_keys, int64_t row) {
  for (int32_t k = 0; k < num_keys; ++k) {
    if (!gcol_detail_row_valid(&keys[k], row)) return true;
  }
  return false;
}

#endif /* GCOL_KERNELS_DETAIL_ROW_OPERATORS_CUH */
