/* The last step of a distributed VARIANCE or STD (dist_groupby_finish.cu). */
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

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_DIST_GROUPBY_FINISH_H */
