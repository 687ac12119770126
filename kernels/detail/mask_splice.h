/*
 * Null masks spliced from pieces (kernels/detail/mask_splice.cu): the mask of a
 * concatenation (copying) and of a shuffle's received parts (dist), each output word made
 * from the pieces' bits at any offsets by one kernel, the nulls counted on the way.
 */
#ifndef GCOL_KERNELS_DETAIL_MASK_SPLICE_H
#define GCOL_KERNELS_DETAIL_MASK_SPLICE_H

#include "gcol/bits.h"
#include "gcol/buffer.h"
#include "gcol/column.h"
#include "gcol/config.h"

GCOL_EXTERN_C_BEGIN

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

/* The same where the inputs' null counts are exact (columns gcol made, whose counts are
 * always known): their sum is the count, and nothing synchronizes. */
gcol_status gcol_detail_concat_masks_exact(const gcol_column_view *columns, int32_t num_columns,
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

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_DETAIL_MASK_SPLICE_H */
