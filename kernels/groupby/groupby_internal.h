/*
 * Internal to kernels/groupby: the host-side argument checks (groupby_types.c, plain C so
 * that the host suite runs them without a GPU) shared by the CUDA entry points.
 */
#ifndef GCOL_KERNELS_GROUPBY_INTERNAL_H
#define GCOL_KERNELS_GROUPBY_INTERNAL_H

#include "gcol/groupby.h"

GCOL_EXTERN_C_BEGIN

/* Checks keys and requests without touching the device: at least one key column, key
 * types, views, row counts, and every aggregation's type and parameters. */
gcol_status gcol_detail_groupby_check_args(gcol_table_view keys,
                                           const gcol_groupby_request *requests,
                                           int32_t num_requests);

/* A result with its column array allocated (num_columns NULL columns, no keys). */
gcol_status gcol_detail_groupby_result_alloc(int32_t num_columns, gcol_groupby_result **out);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_GROUPBY_INTERNAL_H */
