/*
 * Joining the strings of one output row, host and device: what the kernels of combine.cu
 * run per row (a thread per row), unit-tested on the CPU against
 * tests/strings/strings_reference.c.
 *
 * Each function writes through the sink of edit_ops.h (NULL buffer: count only; sizes
 * saturate) and returns whether the row is valid: false as soon as a null item meets no
 * replacement. The write pass only runs valid rows, so a row is never half written.
 */
#ifndef GCOL_KERNELS_STRINGS_COMBINE_OPS_H
#define GCOL_KERNELS_STRINGS_COMBINE_OPS_H

#include <stdint.h>

#include "gcol/config.h"
#include "gcol/string_view.h"
#include "strings/edit_ops.h"

GCOL_EXTERN_C_BEGIN

/* The null replacement of a join: `valid` false when there is none. */
typedef struct gcol_detail_narep {
  gcol_string_ref text;
  bool valid;
} gcol_detail_narep;

/* Puts item k of a join (sep before every item but the first); false when the item is null
 * and there is no replacement. */
GCOL_HD_INLINE bool gcol_detail_join_put(gcol_strings_view items, int64_t row, int64_t k,
                                         gcol_string_ref sep, gcol_detail_narep narep,
                                         gcol_detail_sink *out) {
  gcol_string_ref item = narep.text;
  if (gcol_strings_view_is_valid(items, row)) {
    item = gcol_strings_view_get(items, row);
  } else if (!narep.valid) {
    return false;
  }
  if (k > 0) gcol_detail_sink_put(out, sep.data, sep.size);
  gcol_detail_sink_put(out, item.data, item.size);
  return true;
}

/* Row `row` of columns[0..count) joined by sep: gcol_strings_concatenate(). */
GCOL_HD_INLINE bool gcol_detail_concat_row(const gcol_strings_view *columns, int32_t count,
                                           int64_t row, gcol_string_ref sep,
                                           gcol_detail_narep narep, gcol_detail_sink *out) {
  for (int32_t c = 0; c < count; ++c) {
    if (!gcol_detail_join_put(columns[c], row, c, sep, narep, out)) return false;
  }
  return true;
}

/* Rows [first, last) of values joined by sep: one list of gcol_strings_join_lists(). */
GCOL_HD_INLINE bool gcol_detail_join_range(gcol_strings_view values, int64_t first, int64_t last,
                                           gcol_string_ref sep, gcol_detail_narep narep,
                                           gcol_detail_sink *out) {
  for (int64_t r = first; r < last; ++r) {
    if (!gcol_detail_join_put(values, r, r - first, sep, narep, out)) return false;
  }
  return true;
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_COMBINE_OPS_H */
