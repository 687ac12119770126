/*
 * The outputs of every split (split.cu) and of regex findall and split (regex_split.cu),
 * built from the pieces of all rows held as one STRING column (the values; row i's pieces
 * are values [places[i], places[i + 1]), places being int64 device offsets of n + 1 rows):
 * the LIST form (split_record) and the table form (split), implemented in split.cu.
 */
#ifndef GCOL_KERNELS_STRINGS_SPLIT_PIECES_H
#define GCOL_KERNELS_STRINGS_SPLIT_PIECES_H

#include "gcol/column.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/* A LIST column of input.size rows whose row i is the pieces of row i, null where the input
 * row is null; offsets INT32 or INT64 by the number of values. On success the list owns
 * *values (set to NULL); on failure the caller still owns it. */
gcol_status gcol_detail_split_list(gcol_column_view input, const int64_t *places,
                                   gcol_column **values, gcol_stream stream, gcol_mr *mr,
                                   gcol_column **out);

/* A table of `most` columns (at least one) of n rows: column j holds each row's piece j,
 * null where a row has fewer pieces (a gather of the values). Overflow when `most` passes
 * INT32_MAX. */
gcol_status gcol_detail_split_table(gcol_column_view values, const int64_t *places, int64_t n,
                                    int64_t most, gcol_stream stream, gcol_mr *mr,
                                    gcol_table **out);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_SPLIT_PIECES_H */
