/*
 * What the strings operations (include/gcol/strings/, kernels/strings/) share: argument
 * checks, the validity of a fixed-width output (the input's, AND the per-row targets'),
 * the check that every row fits an INT32 output, a target or pattern (or a few host
 * strings) copied to the device, and a null mask built from per-row validity bytes.
 */
#ifndef GCOL_KERNELS_STRINGS_STRINGS_COMMON_H
#define GCOL_KERNELS_STRINGS_STRINGS_COMMON_H

#include "gcol/buffer.h"
#include "gcol/column.h"
#include "gcol/scalar.h"
#include "gcol/string_view.h"

GCOL_EXTERN_C_BEGIN

/* Fails unless `view` is a well-formed STRING column view; `what` names the argument. */
gcol_status gcol_detail_strings_check(gcol_column_view view, const char *what);

/* The bytes of a valid STRING scalar (`what` names it): invalid argument when NULL or null,
 * type mismatch when not STRING. */
gcol_status gcol_detail_strings_scalar(const gcol_scalar *scalar, const char *what,
                                       const char **data, int64_t *size);

/* The validity of an output of input.size rows: the input's, AND `other`'s when `other` is not
 * NULL (a copy of the input's mask, or none; the AND counts its nulls: synchronizes). */
gcol_status gcol_detail_strings_output_mask(gcol_column_view input, const gcol_column_view *other,
                                            gcol_stream stream, gcol_mr *mr, gcol_buffer **mask,
                                            int64_t *null_count);

/* A fixed-width column of input.size rows of `type` whose mask is the input's validity
 * (AND the targets' when `targets` is not NULL); data uninitialized. */
gcol_status gcol_detail_strings_fixed_output(gcol_column_view input,
                                             const gcol_column_view *targets, gcol_type_id type,
                                             gcol_stream stream, gcol_mr *mr, gcol_column **out);

/* Fails with GCOL_ERROR_OVERFLOW when a row of `view` is longer than INT32_MAX bytes (only
 * possible, and only checked, with INT64 offsets; synchronizes then). */
gcol_status gcol_detail_strings_check_int32_rows(gcol_column_view view, gcol_stream stream);

/* gcol_detail_offsets_from_sizes (detail/scan.h) for a sizes kernel that raises a flag in
 * sizes[n + 1] (tail[1]; words >= 2) where a row of the n-row output would pass
 * INT64_MAX / (n + 1) bytes (then n + 1 rows cannot wrap the total): GCOL_ERROR_OVERFLOW
 * when it is set, checked before anything is allocated from mr. */
gcol_status gcol_detail_strings_offsets_limited(int64_t *sizes, int64_t n, int64_t *tail,
                                                int32_t words, gcol_stream stream, gcol_mr *mr,
                                                gcol_column **offsets);

/* `size` bytes of host memory copied into a new temporary device buffer (at least 1 byte). */
gcol_status gcol_detail_strings_to_device(const void *data, int64_t size, gcol_stream stream,
                                          gcol_buffer **out);

/* A zeroed unsigned int flag in a new temporary device buffer, for a kernel to set. */
gcol_status gcol_detail_strings_flag_create(gcol_stream stream, gcol_buffer **out);

/* Whether the flag was set (copies it back: synchronizes). */
gcol_status gcol_detail_strings_flag_read(const gcol_buffer *flag, gcol_stream stream, bool *set);

/* `count` host strings as a strings view over a new temporary device buffer (int64 offsets,
 * then the bytes; every row valid): scalars that kernels read as rows. */
gcol_status gcol_detail_strings_list_to_device(const char *const *strings, const int64_t *sizes,
                                               int32_t count, gcol_stream stream,
                                               gcol_buffer **buf, gcol_strings_view *out);

/* A null mask of n rows from `mr` whose bit i is valid[i] != 0 (device bytes); *mask NULL
 * when null_count (the zeros among valid, known by the caller) is 0. */
gcol_status gcol_detail_strings_flags_mask(const uint8_t *valid, int64_t n, int64_t null_count,
                                           gcol_stream stream, gcol_mr *mr, gcol_buffer **mask);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_STRINGS_COMMON_H */
