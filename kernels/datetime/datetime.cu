/* Datetime field extraction (datetime.h): one kernel, the unit and the field run-time. */
#include "detail/element_io.cuh"
#include "detail/civil.h"
#include "gcol/datetime.h"
#include "detail/validity.h"

__global__ void gcol_detail_datetime_kernel(gcol_detail_operand in, int16_t *out,
                                            int64_t ns_per_tick, int component, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const ticks = gcol_detail_raw_signed(in.data, in.width, i);
    out[i] = (int16_t)gcol_detail_datetime_field(ticks, ns_per_tick, component);
  }
}

extern "C" gcol_status gcol_datetime_extract(gcol_column_view input,
                                             gcol_datetime_component component,
                                             gcol_column **out, gcol_stream stream,
                                             gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_datetime_extract");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_CHECK(gcol_type_is_timestamp(input.type.id), GCOL_ERROR_TYPE_MISMATCH,
                    "input must be a timestamp, not %s", gcol_type_name(input.type.id));
  GCOL_DETAIL_CHECK((int)component >= 0 && component < GCOL_NUM_DATETIME_COMPONENTS,
                    GCOL_ERROR_INVALID_ARGUMENT, "component %d is not a datetime field",
                    (int)component);
  GCOL_DETAIL_TRY(gcol_detail_copy_validity(input, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT16), input.size,
                                     GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (input.size > 0) {
    gcol_detail_multiplier const one = {1, 0};
    unsigned int const grid = gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE);
    gcol_detail_datetime_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(
        gcol_detail_operand_of_column(input, one), (int16_t *)col->data->data,
        gcol_detail_time_unit_ns(input.type.id), (int)component, input.size);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (mask != NULL) {
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
    mask = NULL;
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
