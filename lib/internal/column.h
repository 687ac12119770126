/*
 * Internal column helpers shared by lib/ and kernels/.
 */
#ifndef GCOL_INTERNAL_COLUMN_H
#define GCOL_INTERNAL_COLUMN_H

#include "gcol/column.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The mutable view of the top level of a column that the calling function has just created
 * (gcol_column_create and the like) and not yet shared: its buffers are unique, so this is
 * gcol_column_get_mutable_view without the copy-on-write check, usable in an expression and
 * unable to fail. Anything else, a column that came from the caller above all, goes through
 * gcol_column_get_mutable_view (docs/design.md, "Copy on write"). */
gcol_mutable_column_view gcol_detail_new_column_mutable_view(gcol_column *column);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_COLUMN_H */
