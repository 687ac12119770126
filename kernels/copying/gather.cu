/* gcol_gather and gcol_reverse (include/gcol/copying.h) over the one gather engine. */
#include "common.cuh"
#include "copying/copying_internal.h"
#include "detail/gather_kernels.cuh"
#include "gcol/copying.h"
#include "gcol/table.h"
#include "internal/column.h"

/* ---------------------------------------------------------------- public */

extern "C" gcol_status gcol_gather(gcol_table_view source, gcol_column_view gather_map,
                                   gcol_out_of_bounds_policy policy,
                                   gcol_negative_index_policy negative, gcol_table **out,
                                   gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_gather_map map;
  GCOL_DETAIL_NVTX_PUSH("gcol_gather");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(policy >= GCOL_OUT_OF_BOUNDS_DONT_CHECK && policy <= GCOL_OUT_OF_BOUNDS_CHECK,
                    GCOL_ERROR_INVALID_ARGUMENT, "policy has no meaning (%d)", (int)policy);
  GCOL_DETAIL_CHECK(
      negative == GCOL_NEGATIVE_INDEX_NOT_ALLOWED || negative == GCOL_NEGATIVE_INDEX_WRAP,
      GCOL_ERROR_INVALID_ARGUMENT, "negative has no meaning (%d)", (int)negative);
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(source, "source"));
  GCOL_DETAIL_CHECK(gcol_type_is_integral(gather_map.type.id), GCOL_ERROR_TYPE_MISMATCH,
                    "gather_map must have an integer type, not %s",
                    gcol_type_name(gather_map.type.id));
  GCOL_DETAIL_TRY(gcol_column_view_validate(gather_map, "gather_map"));
  GCOL_DETAIL_TRY(gcol_detail_gather_map_make(gather_map, source.num_rows,
                                              negative == GCOL_NEGATIVE_INDEX_WRAP,
                                              policy == GCOL_OUT_OF_BOUNDS_NULLIFY, &map));
  if (policy == GCOL_OUT_OF_BOUNDS_CHECK) {
    GCOL_DETAIL_TRY(gcol_detail_gather_map_check(map, "gather_map", stream));
  }
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_table(source, map, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_reverse(gcol_table_view source, gcol_table **out, gcol_stream stream,
                                    gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *indices = NULL;
  gcol_detail_gather_map map;
  int64_t const n = source.num_rows;
  GCOL_DETAIL_NVTX_PUSH("gcol_reverse");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(source, "source"));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(gcol_index_type_for(n)), n,
                                     GCOL_MASK_UNALLOCATED, stream, NULL, &indices));
  if (n > 0) {
    gcol_index_writer writer;
    GCOL_DETAIL_TRY(gcol_index_writer_make(gcol_detail_new_column_mutable_view(indices), &writer));
    gcol_detail_reverse_map_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                     GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(writer, n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(
      gcol_detail_gather_map_make(gcol_column_get_view(indices), n, false, false, &map));
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_table(source, map, stream, mr, out));
done:
  gcol_column_free(indices);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
