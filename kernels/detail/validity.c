/* The output validity of element-wise operations that keep their input's nulls. */
#include "detail/validity.h"

#include "gcol/bitmask.h"
#include "internal/error.h"

gcol_status gcol_detail_copy_validity(gcol_column_view input, gcol_stream stream, gcol_mr *mr,
                                      gcol_buffer **mask, int64_t *null_count) {
  gcol_status status = GCOL_OK;
  *mask = NULL;
  *null_count = 0;
  if (input.null_mask == NULL || input.size == 0) goto done;
  GCOL_DETAIL_TRY(gcol_column_view_null_count(input, stream, null_count));
  GCOL_DETAIL_TRY(gcol_bitmask_copy(input.null_mask, input.offset, input.offset + input.size,
                                    stream, mr, mask));
done:
  return status;
}
