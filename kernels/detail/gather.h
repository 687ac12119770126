/*
 * The one gather engine of gcol (kernels/detail/gather.cu): every layout (fixed-width,
 * STRING, LIST, STRUCT, nested) moved by a gather map of any integer type, with the
 * out-of-bounds policies. Copying, filtering, sort and the partitioning use it; the resolved
 * map and the byte-copy helpers are host + device inline, unit-tested on the CPU by gcc.
 */
#ifndef GCOL_KERNELS_DETAIL_GATHER_H
#define GCOL_KERNELS_DETAIL_GATHER_H

#include <string.h>

#include "gcol/bits.h"
#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/indexalator.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/* A gather map as the kernels read it: output row i reads source row resolve(map, i), or
 * is null when that is negative. */
typedef struct gcol_detail_gather_map {
  gcol_indexalator indices;  /* the map's values (offset applied) */
  const uint32_t *null_mask; /* the map's own mask, or NULL */
  int64_t mask_offset;       /* bit of entry 0 in null_mask */
  int64_t size;              /* entries = output rows */
  int64_t source_rows;       /* rows of the source the indices address */
  bool wrap_negative;        /* i < 0 reads source_rows + i */
  bool nullify;              /* out-of-range entries resolve to -1 (null row) */
} gcol_detail_gather_map;

/* The source row of output row i, or -1 for a null output row (a null map entry, or an
 * out-of-range index when nullify is set). Without nullify an out-of-range index is
 * returned as is: the caller promised it does not happen. */
GCOL_HD_INLINE int64_t gcol_detail_gather_map_resolve(gcol_detail_gather_map map, int64_t i) {
  if (map.null_mask != NULL && !gcol_bit_is_set(map.null_mask, map.mask_offset + i)) return -1;
  int64_t row = gcol_indexalator_get(map.indices, i);
  if (map.wrap_negative && row < 0) row += map.source_rows;
  if (map.nullify && (row < 0 || row >= map.source_rows)) return -1;
  return row;
}

/* True when entry i is null or its index (wrapped when asked) is within the source. */
GCOL_HD_INLINE bool gcol_detail_gather_map_entry_in_range(gcol_detail_gather_map map, int64_t i) {
  if (map.null_mask != NULL && !gcol_bit_is_set(map.null_mask, map.mask_offset + i)) return true;
  int64_t row = gcol_indexalator_get(map.indices, i);
  if (map.wrap_negative && row < 0) row += map.source_rows;
  return row >= 0 && row < map.source_rows;
}

/* Aligned 4-byte load and store (memcpy on the host, where the bytes are a char array). */
GCOL_HD_INLINE uint32_t gcol_detail_load_word(const uint32_t *p) {
#ifdef __CUDA_ARCH__
  return *p;
#else
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
#endif
}

GCOL_HD_INLINE void gcol_detail_store_word(uint32_t *p, uint32_t v) {
#ifdef __CUDA_ARCH__
  *p = v;
#else
  memcpy(p, &v, sizeof v);
#endif
}

/* The low word of (hi:lo) >> shift, shift < 32. */
GCOL_HD_INLINE uint32_t gcol_detail_funnel_shift_right(uint32_t lo, uint32_t hi, unsigned shift) {
#ifdef __CUDA_ARCH__
  return __funnelshift_r(lo, hi, shift);
#else
  return (uint32_t)((((uint64_t)hi << 32) | lo) >> shift);
#endif
}

/* Copies `len` bytes from src to dst, the lanes `first`, `first + step`, ... sharing the work
 * (one thread: 0, 1). dst is written in aligned 4-byte words, single bytes only at its
 * unaligned ends (so writers of neighbouring ranges never share a word), and src is read in
 * aligned words shifted into place. Every word read holds a byte of [src, src + len): the
 * first may start up to 3 bytes before src, inside the same allocation since allocations
 * start 4-byte aligned; a word that would run past src + len is read byte by byte. */
GCOL_HD_INLINE void gcol_detail_copy_bytes(char *dst, const char *src, int64_t len, int first,
                                           int step) {
  int64_t head = (int64_t)((4u - ((uintptr_t)dst & 3u)) & 3u);
  if (head > len) head = len;
  for (int64_t k = first; k < head; k += step) dst[k] = src[k];
  int64_t const words = (len - head) >> 2;
  const unsigned char *const s = (const unsigned char *)src + head;
  unsigned const misalign = (unsigned)((uintptr_t)s & 3u);
  const uint32_t *const sw = (const uint32_t *)(const void *)(s - misalign);
  uint32_t *const dw = (uint32_t *)(void *)(dst + head);
  for (int64_t w = first; w < words; w += step) {
    uint32_t const lo = gcol_detail_load_word(sw + w);
    uint32_t hi = 0;
    if (misalign != 0) {
      if (head + 4 * w + 8 - (int64_t)misalign <= len) {
        hi = gcol_detail_load_word(sw + w + 1);
      } else {
        const unsigned char *const hb = (const unsigned char *)(const void *)(sw + w + 1);
        for (unsigned b = 0; b < misalign; ++b) hi |= (uint32_t)hb[b] << (8u * b);
      }
    }
    gcol_detail_store_word(dw + w, gcol_detail_funnel_shift_right(lo, hi, 8u * misalign));
  }
  for (int64_t k = head + 4 * words + first; k < len; k += step) dst[k] = src[k];
}

/* The offsets type of a STRING/LIST output of `total` chars (values). */
static inline gcol_type_id gcol_detail_offsets_type(int64_t total) {
  return gcol_offsets_type_for_threshold(total, gcol_large_offsets_threshold());
}

/* True when two views have the same type, recursively through LIST values and STRUCT
 * fields. */
bool gcol_detail_types_match(gcol_column_view a, gcol_column_view b);

/* Checks that a view is a type the copying engines take (not EMPTY, not DICTIONARY32,
 * recursively) and structurally valid; `what` names the argument. */
gcol_status gcol_detail_copying_check_view(gcol_column_view view, const char *what);

/* Checks every column of a table view (as gcol_detail_copying_check_view) and that each
 * has `num_rows` rows. */
gcol_status gcol_detail_copying_check_table(gcol_table_view view, const char *what);

/* Gathers one column (all supported types, recursively) by `map`. */
gcol_status gcol_detail_copying_gather_column(gcol_column_view source, gcol_detail_gather_map map,
                                              gcol_stream stream, gcol_mr *mr, gcol_column **out);

/* Gathers every column of `source` by `map`. */
gcol_status gcol_detail_copying_gather_table(gcol_table_view source, gcol_detail_gather_map map,
                                             gcol_stream stream, gcol_mr *mr, gcol_table **out);

/* Makes the resolved-map description of an integer map column. */
gcol_status gcol_detail_gather_map_make(gcol_column_view indices, int64_t source_rows,
                                        bool wrap_negative, bool nullify,
                                        gcol_detail_gather_map *out);

/* Fails with GCOL_ERROR_INVALID_ARGUMENT if a non-null entry of `map` is out of range
 * (synchronizes). `what` names the map argument. */
gcol_status gcol_detail_gather_map_check(gcol_detail_gather_map map, const char *what,
                                         gcol_stream stream);

/* Writes `count` int64 offsets (device) as a new INT32 or INT64 column from `mr`. */
gcol_status gcol_detail_offsets_column(const int64_t *offsets64, int64_t count, gcol_type_id type,
                                       gcol_stream stream, gcol_mr *mr, gcol_column **out);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_DETAIL_GATHER_H */
