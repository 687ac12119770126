/* Single-column forms of copying.h's table operations: a table view of the one column,
 * the table operation, and its one column handed out (no copy beyond the table form's). */
#include "gcol/copying.h"
#include "internal/column.h"
#include "internal/error.h"
#include "internal/nvtx.h"

gcol_status gcol_column_gather(gcol_column_view source, gcol_column_view gather_map,
                               gcol_out_of_bounds_policy policy,
                               gcol_negative_index_policy negative, gcol_column **out,
                               gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table_view table;
  gcol_table *result = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_gather");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(source, "source"));
  GCOL_DETAIL_TRY(gcol_table_view_make(&source, 1, &table));
  GCOL_DETAIL_TRY(gcol_gather(table, gather_map, policy, negative, &result, stream, mr));
  gcol_detail_table_take_column(result, out);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_column_reverse(gcol_column_view source, gcol_column **out, gcol_stream stream,
                                gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table_view table;
  gcol_table *result = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_reverse");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(source, "source"));
  GCOL_DETAIL_TRY(gcol_table_view_make(&source, 1, &table));
  GCOL_DETAIL_TRY(gcol_reverse(table, &result, stream, mr));
  gcol_detail_table_take_column(result, out);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
