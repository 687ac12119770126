/*
 * Stream compaction of per-row keep flags into a row map, and the selection of a table's
 * rows by such flags: shared by filtering (apply_boolean_mask, drop_nulls, drop_nans) and
 * expressions (filter_expression). The declarations live in the shared layer; the
 * definitions are still in kernels/filtering/select.cu (with its tile kernels), to move
 * here with the row map (scripts/layers-baseline.txt).
 */
#ifndef GCOL_KERNELS_DETAIL_COMPACTION_H
#define GCOL_KERNELS_DETAIL_COMPACTION_H

#include <stdint.h>

#include "gcol/buffer.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Stream compaction of keep flags: @p flags holds @p size bytes (non-zero keeps the row);
 * if @p flag_mask is not NULL, a row whose bit `flag_mask_offset + i` is unset is dropped.
 * Writes the kept row indices in ascending order into a new temporary buffer (default
 * resource) and their number into @p out_count (host). Synchronizes @p stream.
 * *out_map is NULL when nothing is kept.
 */
gcol_status gcol_detail_flags_to_map(const uint8_t *flags, const uint32_t *flag_mask,
                                     int64_t flag_mask_offset, int64_t size, gcol_stream stream,
                                     gcol_buffer **out_map, int64_t *out_count);

/* Keeps the rows of @p input whose flag is set (as gcol_detail_flags_to_map()): a table of
 * fixed-width columns through filtering's tiled select (no row map; nulls included), any
 * other through a row map and the gather engine. Synchronizes @p stream. */
gcol_status gcol_detail_select_rows(gcol_table_view input, const uint8_t *flags,
                                    const uint32_t *flag_mask, int64_t flag_mask_offset,
                                    gcol_stream stream, gcol_mr *mr, gcol_table **out);

/* Counts the non-zero bytes of @p flags[0, size) on the device; synchronizes @p stream. */
gcol_status gcol_detail_count_flags(const uint8_t *flags, int64_t size, gcol_stream stream,
                                    int64_t *out_count);

/*
 * Checks a table view: column count and pointers, each column's structure, equal sizes, no
 * DICTIONARY32 (GCOL_ERROR_UNSUPPORTED). Messages name @p what.
 */
gcol_status gcol_detail_validate_table(gcol_table_view input, const char *what);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_DETAIL_COMPACTION_H */
