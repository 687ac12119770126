/* NUNIQUE: the number of distinct values of one column, through distinct_count's hash table
 * (filtering), so that both count with the same equality. */
#include "gcol/filtering.h"
#include "gcol/reduction.h"
#include "internal/error.h"
#include "internal/nvtx.h"

gcol_status gcol_reduce_nunique(gcol_column_view input, bool include_nulls, int64_t *out,
                                gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_table_view keys;
  int64_t distinct = 0, nulls = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_reduce_nunique");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = 0;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_CHECK(gcol_type_is_fixed_width(input.type.id) || input.type.id == GCOL_STRING,
                    GCOL_ERROR_TYPE_MISMATCH, "nunique takes fixed-width or STRING columns, not %s",
                    gcol_type_name(input.type.id));
  if (input.size > 0) {
    GCOL_DETAIL_TRY(gcol_table_view_make(&input, 1, &keys));
    GCOL_DETAIL_TRY(gcol_distinct_count(keys, GCOL_NULLS_EQUAL, &distinct, stream));
    /* With nulls equal, all nulls form one distinct value: drop it when nulls are excluded. */
    GCOL_DETAIL_TRY(gcol_column_view_null_count(input, stream, &nulls));
    if (!include_nulls && nulls > 0) --distinct;
  }
  *out = distinct;
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
