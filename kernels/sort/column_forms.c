/* Single-column form of sorting.h's table sort: a table view of the one column, the stable
 * sort, and its one column handed out (no copy beyond the table form's). */
#include "gcol/sorting.h"
#include "internal/column.h"
#include "internal/error.h"
#include "internal/nvtx.h"

gcol_status gcol_column_sort(gcol_column_view input, gcol_order order, gcol_null_order null_order,
                             gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table_view table;
  gcol_table *result = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_sort");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_TRY(gcol_table_view_make(&input, 1, &table));
  GCOL_DETAIL_TRY(gcol_stable_sort(table, &order, &null_order, &result, stream, mr));
  gcol_detail_table_take_column(result, out);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
