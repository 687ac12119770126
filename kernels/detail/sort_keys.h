/*
 * Order-preserving key normalization and row comparison, shared by the sort, rank and
 * search kernels and the sort-merge join (in the shared layer so every area may use it). Plain C with GCOL_HD_INLINE bodies, so the host suite tests the exact
 * code the kernels run.
 *
 * A key value becomes an unsigned word whose unsigned order is the value order:
 * - signed integers (and timestamps, durations, DECIMAL32/64): the sign bit flipped;
 * - floats: NaN made one canonical positive NaN, -0.0 made +0.0, then negative values
 *   inverted and positive values given the sign bit: -Inf < ... < -0 == +0 < ... < +Inf < NaN;
 * - BOOL8: 0 or 1 (any non-zero byte is true);
 * - DECIMAL128: two words, the high one with the sign bit flipped;
 * - STRING: the first 8 bytes big-endian, zero padded (a prefix: ties need a full compare);
 * - descending: the word inverted within its bit width.
 * Nulls are not normalized: their validity is a separate 1-bit field (see sort.cu).
 */
#ifndef GCOL_KERNELS_DETAIL_SORT_KEYS_H
#define GCOL_KERNELS_DETAIL_SORT_KEYS_H

#include <string.h>

#include "gcol/bits.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/indexalator.h"
#include "gcol/sorting.h"
#include "gcol/string_view.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/* How a key column's values normalize. */
typedef enum gcol_detail_key_kind {
  GCOL_DETAIL_KEY_UINT = 0,   /* unsigned integers */
  GCOL_DETAIL_KEY_SINT = 1,   /* signed integers, timestamps, durations, DECIMAL32/64 */
  GCOL_DETAIL_KEY_FLOAT = 2,  /* FLOAT32, FLOAT64 */
  GCOL_DETAIL_KEY_BOOL = 3,   /* BOOL8 */
  GCOL_DETAIL_KEY_INT128 = 4, /* DECIMAL128 */
  GCOL_DETAIL_KEY_STRING = 5  /* STRING */
} gcol_detail_key_kind;

/* One key column, flattened for kernels (passed by value). */
typedef struct gcol_detail_key_column {
  const void *data;          /* element 0 of the view (offset applied); STRING: chars */
  const uint32_t *null_mask; /* NULL: all valid */
  int64_t mask_offset;       /* bit of row 0 in null_mask */
  gcol_offsetalator offsets; /* STRING: positioned at row 0 */
  int32_t kind;              /* gcol_detail_key_kind */
  int32_t width;             /* bytes per value (fixed-width kinds) */
  bool descending;
  bool nulls_before; /* nulls first in the output */
} gcol_detail_key_column;

/* Up to GCOL_MAX_COMPARE_COLUMNS key columns, passed by value into kernels. */
typedef struct gcol_detail_key_table {
  int32_t num_columns;
  gcol_detail_key_column columns[GCOL_MAX_COMPARE_COLUMNS];
} gcol_detail_key_table;

/* Bits of one normalized word of a column kind (BOOL8 needs one). */
GCOL_HD_INLINE int gcol_detail_key_bits(int32_t kind, int32_t width) {
  if (kind == GCOL_DETAIL_KEY_BOOL) return 1;
  if (kind == GCOL_DETAIL_KEY_INT128 || kind == GCOL_DETAIL_KEY_STRING) return 64;
  return width * 8;
}

/* A mask of the low `bits` bits (1..64). */
GCOL_HD_INLINE uint64_t gcol_detail_low_bits64(int bits) {
  return bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1u);
}

/* The raw bytes of a fixed-width value of `width` bytes, zero-extended. */
GCOL_HD_INLINE uint64_t gcol_detail_load_raw(const void *data, int32_t width, int64_t row) {
  switch (width) {
    case 1:
      return ((const uint8_t *)data)[row];
    case 2:
      return ((const uint16_t *)data)[row];
    case 4:
      return ((const uint32_t *)data)[row];
    default:
      return ((const uint64_t *)data)[row];
  }
}

/* Float bits (32 or 64 wide) to an order-preserving word, -0 == +0, NaNs equal and last. */
GCOL_HD_INLINE uint64_t gcol_detail_normalize_float_bits(uint64_t bits, int32_t width) {
  int const nbits = width * 8;
  uint64_t const sign = (uint64_t)1 << (nbits - 1);
  uint64_t const exp_mask = width == 4 ? 0x7F800000ull : 0x7FF0000000000000ull;
  uint64_t const man_mask = width == 4 ? 0x007FFFFFull : 0x000FFFFFFFFFFFFFull;
  if ((bits & exp_mask) == exp_mask && (bits & man_mask) != 0) {
    bits = exp_mask | (man_mask & ~(man_mask >> 1)); /* the canonical quiet NaN */
  }
  if (bits == sign) bits = 0; /* -0.0 -> +0.0 */
  return (bits & sign) ? (~bits & gcol_detail_low_bits64(nbits)) : (bits | sign);
}

/* The ascending word of a fixed-width value from its raw bytes (word 0 only). */
GCOL_HD_INLINE uint64_t gcol_detail_normalize_raw(uint64_t raw, int32_t kind, int32_t width) {
  switch (kind) {
    case GCOL_DETAIL_KEY_SINT:
      return raw ^ ((uint64_t)1 << (width * 8 - 1));
    case GCOL_DETAIL_KEY_FLOAT:
      return gcol_detail_normalize_float_bits(raw, width);
    case GCOL_DETAIL_KEY_BOOL:
      return raw != 0 ? 1u : 0u;
    default:
      return raw;
  }
}

/* The first 8 bytes of a string, big-endian, zero padded. */
GCOL_HD_INLINE uint64_t gcol_detail_string_prefix(gcol_string_ref s) {
  uint64_t word = 0;
  int64_t const n = s.size < 8 ? s.size : 8;
  for (int64_t i = 0; i < 8; ++i) {
    uint64_t const byte = i < n ? (uint64_t)(unsigned char)s.data[i] : 0u;
    word = (word << 8) | byte;
  }
  return word;
}

/* Row `row` of a STRING key column. */
GCOL_HD_INLINE gcol_string_ref gcol_detail_key_string(const gcol_detail_key_column *c,
                                                      int64_t row) {
  int64_t const begin = gcol_offsetalator_get(c->offsets, row);
  int64_t const end = gcol_offsetalator_get(c->offsets, row + 1);
  return gcol_string_ref_make((const char *)c->data + begin, end - begin);
}

/* True if row `row` is valid. */
GCOL_HD_INLINE bool gcol_detail_key_is_valid(const gcol_detail_key_column *c, int64_t row) {
  return gcol_bit_is_set_or_null_mask(c->null_mask, c->mask_offset + row);
}

/*
 * Normalized word `word` (0: low or only word; 1: DECIMAL128's high word) of a valid row,
 * with the direction applied: comparing these words as unsigned gives the output order.
 */
GCOL_HD_INLINE uint64_t gcol_detail_key_word(const gcol_detail_key_column *c, int64_t row,
                                             int word) {
  uint64_t w;
  int const bits = gcol_detail_key_bits(c->kind, c->width);
  if (c->kind == GCOL_DETAIL_KEY_STRING) {
    w = gcol_detail_string_prefix(gcol_detail_key_string(c, row));
  } else if (c->kind == GCOL_DETAIL_KEY_INT128) {
    const uint64_t *v = (const uint64_t *)c->data + 2 * row;
    w = word == 0 ? v[0] : (v[1] ^ ((uint64_t)1 << 63));
  } else {
    w = gcol_detail_normalize_raw(gcol_detail_load_raw(c->data, c->width, row), c->kind, c->width);
  }
  return c->descending ? (~w & gcol_detail_low_bits64(bits)) : w;
}

/*
 * The word of a one-word fixed-width kind (UINT, SINT, FLOAT, BOOL), for kernels specialised
 * on one key column: SINT's sign flip and descending order's inversion are both XORs of the
 * word, so they fold into one mask (gcol_detail_key_flip) and SINT then normalizes as UINT
 * (gcol_detail_key_base_kind). For such a column, gcol_detail_key_word(c, row, 0) ==
 *   gcol_detail_key_word_fixed(raw, gcol_detail_key_base_kind(c->kind), c->width,
 *                              gcol_detail_key_flip(c->kind, c->width, c->descending))
 * (tests/join/test_join_host.c checks it for every such type and order).
 */
GCOL_HD_INLINE int32_t gcol_detail_key_base_kind(int32_t kind) {
  return kind == GCOL_DETAIL_KEY_SINT ? (int32_t)GCOL_DETAIL_KEY_UINT : kind;
}

GCOL_HD_INLINE uint64_t gcol_detail_key_flip(int32_t kind, int32_t width, bool descending) {
  uint64_t const sign = kind == GCOL_DETAIL_KEY_SINT ? (uint64_t)1 << (width * 8 - 1) : 0u;
  return descending ? sign ^ gcol_detail_low_bits64(gcol_detail_key_bits(kind, width)) : sign;
}

/* `raw` as gcol_detail_load_raw reads it; `base_kind` and `flip` as above. */
GCOL_HD_INLINE uint64_t gcol_detail_key_word_fixed(uint64_t raw, int32_t base_kind, int32_t width,
                                                   uint64_t flip) {
  return gcol_detail_normalize_raw(raw, base_kind, width) ^ flip;
}

/* Compares the values of two valid rows (of columns of one kind): <0, 0, >0 in output order. */
GCOL_HD_INLINE int gcol_detail_compare_key_values(const gcol_detail_key_column *a, int64_t ra,
                                                  const gcol_detail_key_column *b, int64_t rb) {
  if (a->kind == GCOL_DETAIL_KEY_STRING) {
    int const cmp =
        gcol_string_ref_compare(gcol_detail_key_string(a, ra), gcol_detail_key_string(b, rb));
    return a->descending ? -cmp : cmp;
  }
  if (a->kind == GCOL_DETAIL_KEY_INT128) {
    uint64_t const ha = gcol_detail_key_word(a, ra, 1), hb = gcol_detail_key_word(b, rb, 1);
    if (ha != hb) return ha < hb ? -1 : 1;
  }
  uint64_t const wa = gcol_detail_key_word(a, ra, 0), wb = gcol_detail_key_word(b, rb, 0);
  return wa < wb ? -1 : (wa > wb ? 1 : 0);
}

/* Compares row ra of column a with row rb of column b (same kind, same direction and null
 * order): nulls equal each other and sit where `nulls_before` says. */
GCOL_HD_INLINE int gcol_detail_compare_key_rows(const gcol_detail_key_column *a, int64_t ra,
                                                const gcol_detail_key_column *b, int64_t rb) {
  bool const va = gcol_detail_key_is_valid(a, ra), vb = gcol_detail_key_is_valid(b, rb);
  if (!va || !vb) {
    if (va == vb) return 0;
    return (!va) == a->nulls_before ? -1 : 1;
  }
  return gcol_detail_compare_key_values(a, ra, b, rb);
}

/* Compares row ra of table a with row rb of table b, column by column. */
GCOL_HD_INLINE int gcol_detail_compare_table_rows(const gcol_detail_key_table *a, int64_t ra,
                                                  const gcol_detail_key_table *b, int64_t rb) {
  for (int32_t c = 0; c < a->num_columns; ++c) {
    int const cmp = gcol_detail_compare_key_rows(&a->columns[c], ra, &b->columns[c], rb);
    if (cmp != 0) return cmp;
  }
  return 0;
}

/*
 * Host: checks a key view and flattens it. `what` names the argument in messages.
 * Returns GCOL_OK, INVALID_ARGUMENT (malformed view, bad enum), UNSUPPORTED (not sortable).
 */
gcol_status gcol_detail_key_column_make(gcol_column_view view, gcol_order order,
                                        gcol_null_order null_order, const char *what,
                                        gcol_detail_key_column *out);

/* Host: checks a key table (at least one column, equal sizes, orders valid) and flattens up
 * to GCOL_MAX_COMPARE_COLUMNS columns into `out` (which may be NULL to only check). */
gcol_status gcol_detail_key_table_make(gcol_table_view keys, const gcol_order *order,
                                       const gcol_null_order *null_order, const char *what,
                                       gcol_detail_key_table *out);

/* Host: checks that a table view's structure is sound (NULL column array, sizes). */
gcol_status gcol_detail_table_view_check(gcol_table_view table, const char *what);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_DETAIL_SORT_KEYS_H */
