/* Shared by cast.cu (fixed-width conversions) and cast_strings.cu (strings <-> numbers). */
#ifndef GCOL_KERNELS_CAST_INTERNAL_H
#define GCOL_KERNELS_CAST_INTERNAL_H

#include "cast/cast_plan.h"
#include "gcol/column.h"

#ifdef __cplusplus
extern "C" {
#endif

/* STRING -> integer or float; unparsable rows become null. */
gcol_status gcol_detail_cast_strings_to_number(gcol_column_view input, gcol_data_type to,
                                               gcol_column **out, gcol_stream stream,
                                               gcol_mr *mr);

/* Integer or float -> STRING (two phases: sizes, exclusive scan, fill). */
gcol_status gcol_detail_cast_number_to_strings(gcol_column_view input, gcol_column **out,
                                               gcol_stream stream, gcol_mr *mr);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_CAST_INTERNAL_H */
