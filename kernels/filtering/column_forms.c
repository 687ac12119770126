/* Single-column forms of filtering.h's table operations: a table view of the one column,
 * the table operation, and its one column handed out (no copy beyond the table form's). */
#include "gcol/filtering.h"
#include "internal/column.h"
#include "internal/error.h"
#include "internal/nvtx.h"

gcol_status gcol_column_apply_boolean_mask(gcol_column_view input, gcol_column_view boolean_mask,
                                           gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table_view table;
  gcol_table *result = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_apply_boolean_mask");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_TRY(gcol_table_view_make(&input, 1, &table));
  GCOL_DETAIL_TRY(gcol_apply_boolean_mask(table, boolean_mask, &result, stream, mr));
  gcol_detail_table_take_column(result, out);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_column_distinct(gcol_column_view input, gcol_duplicate_keep keep,
                                 gcol_null_equality nulls, gcol_column **out, gcol_stream stream,
                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table_view table;
  gcol_table *result = NULL;
  int32_t const key = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_distinct");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_TRY(gcol_table_view_make(&input, 1, &table));
  GCOL_DETAIL_TRY(gcol_distinct(table, &key, 1, keep, nulls, &result, stream, mr));
  gcol_detail_table_take_column(result, out);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
