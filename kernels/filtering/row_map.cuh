/*
 * Internal building blocks shared by filtering, filling and null_ops: row maps (which input
 * row each output row takes), the stream compaction that turns per-row keep flags into a
 * row map, the gather that materializes any column type through a row map, and the flat
 * key-column descriptors with their device-side row hashing and equality.
 *
 * A row map is a device array of int64 entries, one per output row:
 *   m >= 0                        row m of source A;
 *   m == GCOL_DETAIL_MAP_NULL     a null output row;
 *   m <= -2                       row (-2 - m) of source B (fixed-width and STRING only).
 * Computing the map once and then copying each column keeps the per-type code in one place
 * (gather_rows.cu), and lets lists and structs recurse.
 */
#ifndef GCOL_KERNELS_FILTERING_ROW_MAP_CUH
#define GCOL_KERNELS_FILTERING_ROW_MAP_CUH

#include "common.cuh"
#include "detail/compaction.h"
#include "detail/row_operators.cuh"
#include "gcol/string_view.h"
#include "gcol/table.h"

/* A null output row. */
#define GCOL_DETAIL_MAP_NULL ((int64_t)-1)

/* The map entry that takes row r of source B. */
static __host__ __device__ __forceinline__ int64_t gcol_detail_map_from_b(int64_t r) {
  return -2 - r;
}

/* Where a row-map entry points. */
static __host__ __device__ __forceinline__ bool gcol_detail_map_is_b(int64_t m) { return m <= -2; }
static __host__ __device__ __forceinline__ int64_t gcol_detail_map_b_row(int64_t m) {
  return -2 - m;
}

/*
 * Gathers @p view (source A) and, for entries <= -2, @p b (source B, same type; may be NULL)
 * through the device row map @p map of @p size entries into a new column from @p mr.
 * @p map_may_null says whether the map holds GCOL_DETAIL_MAP_NULL entries (then the output
 * gets a mask even if the sources have none). Synchronizes @p stream (null counts, sizes).
 * Fixed-width, STRING, LIST and STRUCT (LIST and STRUCT from A only); DICTIONARY32 gives
 * GCOL_ERROR_UNSUPPORTED.
 */
extern "C" gcol_status gcol_detail_gather_column(gcol_column_view view, const gcol_column_view *b,
                                                 const int64_t *map, int64_t size,
                                                 bool map_may_null, gcol_stream stream, gcol_mr *mr,
                                                 gcol_column **out);

/* Gathers every column of @p input through @p map (source A only) into a new table. */
extern "C" gcol_status gcol_detail_gather_table(gcol_table_view input, const int64_t *map,
                                                int64_t size, bool map_may_null, gcol_stream stream,
                                                gcol_mr *mr, gcol_table **out);

#endif /* GCOL_KERNELS_FILTERING_ROW_MAP_CUH */
