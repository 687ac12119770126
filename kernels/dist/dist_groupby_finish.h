/* The last steps of a distributed VARIANCE, STD or MEAN (dist_groupby_finish.cu). */
#ifndef GCOL_KERNELS_DIST_GROUPBY_FINISH_H
#define GCOL_KERNELS_DIST_GROUPBY_FINISH_H

#include <stdbool.h>

#include "gcol/column.h"
#include "gcol/memory.h"
#include "gcol/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = m2[i] / (count[i] - ddof) (its square root with take_sqrt), null where the
 * divisor is <= 0 or m2 is null. count: INT64 without nulls; m2: FLOAT64. */
gcol_status gcol_detail_dist_variance(gcol_column_view count, gcol_column_view m2, int32_t ddof,
                                      bool take_sqrt, gcol_column **out, gcol_stream stream,
                                      gcol_mr *mr);

/* out[i] = sum[i] / count[i] as FLOAT64, null where count[i] is 0 (a MEAN merged as a sum
 * and a count). sum: INT64, UINT64 or FLOAT64 (its nulls are groups whose count is 0);
 * count: INT64 (a null count counts as 0). */
gcol_status gcol_detail_dist_mean(gcol_column_view sum, gcol_column_view count, gcol_column **out,
                                  gcol_stream stream, gcol_mr *mr);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_DIST_GROUPBY_FINISH_H */
