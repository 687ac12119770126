/*
 * Where the tiled select (tile_select.cu) writes a tile's validity bits.
 *
 * The kept rows of a tile go to output rows [base, base + count): output bits base .. base
 * + count - 1 of a mask that starts zeroed. The tile packs them into 32-bit words counted
 * from word base / 32 ("tile word" j is mask word base / 32 + j), so tile position p (the
 * p-th kept row of the tile) is bit shift + p of the tile words, shift = base % 32. A word
 * that lies wholly inside [base, base + count) belongs to this tile alone and is stored; the
 * first and last words may hold bits of the neighbouring tiles (a tile with no kept rows
 * touches nothing) and are ORed in. Host and device code, so that the host suite checks this
 * arithmetic against a bit-by-bit reference (tests/filtering/test_filtering_host.c).
 */
#ifndef GCOL_KERNELS_FILTERING_TILE_MASK_H
#define GCOL_KERNELS_FILTERING_TILE_MASK_H

#include <stdbool.h>
#include <stdint.h>

#include "gcol/config.h"

/* Bit of the first kept row within tile word 0. */
GCOL_HD_INLINE int gcol_detail_tile_mask_shift(int64_t base) { return (int)(base & 31); }

/* Tile words that hold the tile's bits (0 when count is 0). */
GCOL_HD_INLINE int gcol_detail_tile_mask_words(int64_t base, int count) {
  return count == 0 ? 0 : (gcol_detail_tile_mask_shift(base) + count + 31) >> 5;
}

/* Tile position whose bit is bit @p lane of tile word @p j; outside [0, count) when that
 * bit belongs to another tile (or to no row). */
GCOL_HD_INLINE int gcol_detail_tile_mask_position(int64_t base, int j, int lane) {
  return 32 * j + lane - gcol_detail_tile_mask_shift(base);
}

/* True when tile word @p j holds only this tile's bits: a plain store is safe. */
GCOL_HD_INLINE bool gcol_detail_tile_mask_word_whole(int64_t base, int count, int j) {
  int const shift = gcol_detail_tile_mask_shift(base);
  return 32 * j >= shift && 32 * j + 32 <= shift + count;
}

#endif /* GCOL_KERNELS_FILTERING_TILE_MASK_H */
