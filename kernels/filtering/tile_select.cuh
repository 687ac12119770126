/*
 * The tiled select (tile_select.cu): gcol_apply_boolean_mask over a table of fixed-width
 * columns, nulls included, without a row map.
 */
#ifndef GCOL_KERNELS_FILTERING_TILE_SELECT_CUH
#define GCOL_KERNELS_FILTERING_TILE_SELECT_CUH

#include "common.cuh"
#include "gcol/table.h"

/* True when gcol_detail_tile_select() takes @p input: at least one column, every column
 * fixed-width (1, 2, 4, 8 or 16 bytes). */
extern "C" bool gcol_detail_tile_select_applies(gcol_table_view input);

/*
 * Keeps the rows of @p input (at least one row) whose byte in @p flags is non-zero and, when
 * @p flag_mask is not NULL, whose bit `flag_mask_offset + i` of it is set (a null flag keeps
 * nothing), as gcol_detail_select_rows(). Outputs have exactly the kept rows; a column that
 * may have nulls (gcol_column_view_may_have_nulls) gets a mask and its exact null count, the
 * others none. Synchronizes @p stream twice (the kept total; the null counts, only when some
 * column has a mask and a row is kept).
 */
extern "C" gcol_status gcol_detail_tile_select(gcol_table_view input, const uint8_t *flags,
                                               const uint32_t *flag_mask, int64_t flag_mask_offset,
                                               gcol_stream stream, gcol_mr *mr, gcol_table **out);

#endif /* GCOL_KERNELS_FILTERING_TILE_SELECT_CUH */
