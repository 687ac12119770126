/*
 * scatter and scatter_scalars for every type, as a gather: each target column is placed
 * beside its source rows (a temporary concatenation), and a map over the target rows reads
 * either the target row itself or the source row scattered onto it. All columns share one
 * map, so when an index repeats every column takes the same source row.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.cuh"
#include "copying/copying_internal.h"
#include "gcol/copying.h"

/* map[t] = t: every target row keeps its value unless a scatter writes it. */
static __global__ void identity_map_kernel(int64_t *__restrict__ map, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(t, n) { map[t] = t; }
}

/* map[target row of indices[k]] = target_rows + (single_row ? 0 : k). Null and
 * out-of-range indices are skipped. */
static __global__ void scatter_map_kernel(gcol_detail_gather_map indices, int64_t target_rows,
                                          bool single_row, int64_t *__restrict__ map) {
  GCOL_DETAIL_GRID_LOOP(k, indices.size) {
    if (indices.null_mask != NULL && !gcol_bit_is_set(indices.null_mask, indices.mask_offset + k)) {
      continue;
    }
    int64_t const t =
        gcol_detail_scatter_target_row(gcol_indexalator_get(indices.indices, k), target_rows);
    if (t >= 0) map[t] = target_rows + (single_row ? 0 : k);
  }
}

/* Checks the scatter map: integer, well formed, and (CHECK) every index within the target. */
static gcol_status check_indices(gcol_column_view indices, int64_t target_rows,
                                 gcol_out_of_bounds_policy policy, const char *what,
                                 gcol_stream stream, gcol_detail_gather_map *out) {
  GCOL_DETAIL_REQUIRE(policy >= GCOL_OUT_OF_BOUNDS_DONT_CHECK && policy <= GCOL_OUT_OF_BOUNDS_CHECK,
                      GCOL_ERROR_INVALID_ARGUMENT, "policy has no meaning (%d)", (int)policy);
  GCOL_DETAIL_REQUIRE(gcol_type_is_integral(indices.type.id), GCOL_ERROR_TYPE_MISMATCH,
                      "%s must have an integer type, not %s", what,
                      gcol_type_name(indices.type.id));
  gcol_status st = gcol_column_view_validate(indices, what);
  if (st != GCOL_OK) return st;
  st = gcol_detail_gather_map_make(indices, target_rows, true, false, out);
  if (st != GCOL_OK || policy != GCOL_OUT_OF_BOUNDS_CHECK) return st;
  return gcol_detail_gather_map_check(*out, what, stream);
}

/* Gathers target rows and scattered rows: `sides[c]` holds column c's rows to scatter. */
static gcol_status scatter_impl(gcol_table_view target, const gcol_column_view *sides,
                                gcol_detail_gather_map indices, bool single_row, gcol_table **out,
                                gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int32_t const num_columns = target.num_columns;
  int64_t const n = target.num_rows;
  gcol_column **both =
      (gcol_column **)calloc(num_columns > 0 ? (size_t)num_columns : 1, sizeof *both);
  gcol_column_view *both_views =
      (gcol_column_view *)calloc(num_columns > 0 ? (size_t)num_columns : 1, sizeof *both_views);
  gcol_column *map_col = NULL;
  gcol_detail_gather_map map;
  gcol_table_view combined;
  GCOL_DETAIL_CHECK(both != NULL && both_views != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d columns", (int)num_columns);
  for (int32_t c = 0; c < num_columns; ++c) {
    gcol_column_view pair[2] = {target.columns[c], sides[c]};
    GCOL_DETAIL_TRY(gcol_detail_concatenate(pair, 2, stream, NULL, &both[c]));
    both_views[c] = gcol_column_get_view(both[c]);
  }
  combined.num_columns = num_columns;
  combined.num_rows = num_columns > 0 ? both_views[0].size : 0;
  combined.columns = both_views;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT64), n, GCOL_MASK_UNALLOCATED,
                                     stream, NULL, &map_col));
  if (n > 0) {
    cudaStream_t const s = (cudaStream_t)stream;
    int64_t *const map_data = (int64_t *)map_col->data->data;
    identity_map_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                          0, s>>>(map_data, n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    if (indices.size > 0) {
      scatter_map_kernel<<<gcol_detail_grid_size(indices.size, GCOL_DETAIL_BLOCK_SIZE),
                           GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(indices, n, single_row, map_data);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
  }
  GCOL_DETAIL_TRY(gcol_detail_gather_map_make(gcol_column_get_view(map_col), combined.num_rows,
                                              false, false, &map));
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_table(combined, map, stream, mr, out));
done:
  if (both != NULL) {
    for (int32_t c = 0; c < num_columns; ++c) gcol_column_free(both[c]);
    free(both);
  }
  free(both_views);
  gcol_column_free(map_col);
  return status;
}

extern "C" gcol_status gcol_scatter(gcol_table_view source, gcol_column_view scatter_map,
                                    gcol_table_view target, gcol_out_of_bounds_policy policy,
                                    gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_gather_map indices;
  GCOL_DETAIL_NVTX_PUSH("gcol_scatter");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(source, "source"));
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(target, "target"));
  GCOL_DETAIL_CHECK(source.num_columns == target.num_columns, GCOL_ERROR_SIZE_MISMATCH,
                    "source has %d columns, target %d", (int)source.num_columns,
                    (int)target.num_columns);
  for (int32_t c = 0; c < source.num_columns; ++c) {
    GCOL_DETAIL_CHECK(gcol_detail_types_match(source.columns[c], target.columns[c]),
                      GCOL_ERROR_TYPE_MISMATCH,
                      "source column %d (%s) and target column %d (%s) "
                      "types differ",
                      (int)c, gcol_type_name(source.columns[c].type.id), (int)c,
                      gcol_type_name(target.columns[c].type.id));
  }
  GCOL_DETAIL_CHECK(scatter_map.size == source.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                    "scatter_map has %lld rows, source %lld", (long long)scatter_map.size,
                    (long long)source.num_rows);
  GCOL_DETAIL_TRY(
      check_indices(scatter_map, target.num_rows, policy, "scatter_map", stream, &indices));
  GCOL_DETAIL_TRY(scatter_impl(target, source.columns, indices, false, out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_scatter_scalars(const gcol_scalar *const *scalars, int32_t num_scalars,
                                            gcol_column_view indices, gcol_table_view target,
                                            gcol_out_of_bounds_policy policy, gcol_table **out,
                                            gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_gather_map map;
  gcol_column **values = NULL;
  gcol_column_view *value_views = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_scatter_scalars");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(target, "target"));
  GCOL_DETAIL_CHECK(num_scalars == target.num_columns, GCOL_ERROR_SIZE_MISMATCH,
                    "%d scalars for %d target columns", (int)num_scalars, (int)target.num_columns);
  GCOL_DETAIL_CHECK(num_scalars == 0 || scalars != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "scalars is NULL");
  for (int32_t c = 0; c < num_scalars; ++c) {
    char what[32];
    snprintf(what, sizeof what, "scalars[%d]", (int)c);
    GCOL_DETAIL_TRY(gcol_detail_check_scalar_like(scalars[c], target.columns[c], what));
  }
  GCOL_DETAIL_TRY(check_indices(indices, target.num_rows, policy, "indices", stream, &map));
  values = (gcol_column **)calloc(num_scalars > 0 ? (size_t)num_scalars : 1, sizeof *values);
  value_views =
      (gcol_column_view *)calloc(num_scalars > 0 ? (size_t)num_scalars : 1, sizeof *value_views);
  GCOL_DETAIL_CHECK(values != NULL && value_views != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d scalars", (int)num_scalars);
  for (int32_t c = 0; c < num_scalars; ++c) {
    GCOL_DETAIL_TRY(gcol_detail_scalar_column(scalars[c], 1, stream, NULL, &values[c]));
    value_views[c] = gcol_column_get_view(values[c]);
  }
  GCOL_DETAIL_TRY(scatter_impl(target, value_views, map, true, out, stream, mr));
done:
  if (values != NULL) {
    for (int32_t c = 0; c < num_scalars; ++c) gcol_column_free(values[c]);
    free(values);
  }
  free(value_views);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
