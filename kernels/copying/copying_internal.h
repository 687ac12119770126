/*
 * Internal interface of the copying area (include/gcol/copying.h) over the one gather
 * engine (detail/gather.h): scatter targets, concatenated masks, the concatenation engine
 * (copy_range and shift with a value fill are concatenations of slices) and scalar columns
 * (fills, scalar sides).
 */
#ifndef GCOL_KERNELS_COPYING_INTERNAL_H
#define GCOL_KERNELS_COPYING_INTERNAL_H

#include "detail/gather.h"
#include "gcol/scalar.h"

GCOL_EXTERN_C_BEGIN

/* The destination row of a scatter index (negative wraps), or -1 when out of range. */
GCOL_HD_INLINE int64_t gcol_detail_scatter_target_row(int64_t index, int64_t target_rows) {
  if (index < 0) index += target_rows;
  return (index >= 0 && index < target_rows) ? index : -1;
}

/* One piece of a concatenated null mask: `length` bits written from output bit
 * `dst_begin`, read from `mask` at bit `src_begin` (NULL mask: all valid). */
typedef struct gcol_detail_mask_segment {
  int64_t dst_begin;
  int64_t length;
  const uint32_t *mask;
  int64_t src_begin;
} gcol_detail_mask_segment;

/* Output word `word` of a mask made of `num_segments` segments sorted by dst_begin,
 * covering [0, num_bits) without gaps; bits past num_bits are zero. `first` is the index of
 * the first segment that overlaps the word (found by binary search on the device). */
GCOL_HD_INLINE uint32_t gcol_detail_mask_segments_word(const gcol_detail_mask_segment *segs,
                                                       int64_t num_segments, int64_t first,
                                                       int64_t word, int64_t num_bits) {
  int64_t const word_begin = word * 32;
  int64_t const word_end = word_begin + 32 < num_bits ? word_begin + 32 : num_bits;
  uint32_t out = 0;
  for (int64_t s = first; s < num_segments && segs[s].dst_begin < word_end; ++s) {
    int64_t const seg_end = segs[s].dst_begin + segs[s].length;
    int64_t const a = segs[s].dst_begin > word_begin ? segs[s].dst_begin : word_begin;
    int64_t const b = seg_end < word_end ? seg_end : word_end;
    if (b <= a) continue;
    uint32_t bits;
    if (segs[s].mask == NULL) {
      bits = gcol_bits_low_mask((int)(b - a));
    } else {
      int64_t const src = segs[s].src_begin + (a - segs[s].dst_begin);
      bits = gcol_bits_extract_word(segs[s].mask, src, src + (b - a));
    }
    out |= bits << (uint32_t)(a - word_begin);
  }
  return out;
}

/* The null mask of the columns' concatenation (only their masks, offsets, sizes and null
 * counts are read, never their data), or NULL when no input holds a null; the null count is
 * counted from the mask written, so an input's count need only be nonzero where it may hold
 * nulls (an unknown count is counted first: a synchronization). */
gcol_status gcol_detail_concat_masks(const gcol_column_view *columns, int32_t num_columns,
                                     int64_t total_rows, gcol_stream stream, gcol_mr *mr,
                                     gcol_buffer **out_mask, int64_t *out_null_count);

/* The first segment whose end lies past bit `bit` (segments sorted, non-empty ones
 * contiguous): a binary search. */
GCOL_HD_INLINE int64_t gcol_detail_mask_segments_find(const gcol_detail_mask_segment *segs,
                                                      int64_t num_segments, int64_t bit) {
  int64_t lo = 0, hi = num_segments;
  while (lo < hi) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (segs[mid].dst_begin + segs[mid].length <= bit) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Concatenates views of one type (checked by the caller). */
gcol_status gcol_detail_concatenate(const gcol_column_view *columns, int32_t num_columns,
                                    gcol_stream stream, gcol_mr *mr, gcol_column **out);

/* A column of `rows` copies of a fixed-width or STRING scalar (a null scalar gives null
 * rows). */
gcol_status gcol_detail_scalar_column(const gcol_scalar *scalar, int64_t rows, gcol_stream stream,
                                      gcol_mr *mr, gcol_column **out);

/* Checks that a scalar can fill a column like `like`: not NULL, same type. */
gcol_status gcol_detail_check_scalar_like(const gcol_scalar *scalar, gcol_column_view like,
                                          const char *what);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_COPYING_INTERNAL_H */
