/*
 * SQL LIKE (strings/like.h): the pattern compiled on the host (like_pattern.c) and copied
 * to the device; a thread per string runs gcol_detail_like_match (like_match.h).
 */
#include <stdlib.h>

#include "common.cuh"
#include "detail/like_match.h"
#include "gcol/string_view.h"
#include "gcol/strings/like.h"
#include "strings/strings_common.h"

static __global__ void gcol_detail_like_kernel(gcol_strings_view s, const int32_t *items,
                                               int64_t count, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    bool match = false;
    if (gcol_strings_view_is_valid(s, i)) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      match = gcol_detail_like_match(r.data, r.size, items, count);
    }
    out[i] = (uint8_t)match;
  }
}

extern "C" gcol_status gcol_strings_like(gcol_column_view input, const gcol_scalar *pattern,
                                         const char *escape_character, gcol_column **out,
                                         gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *items_dev = NULL;
  int32_t *items = NULL;
  int64_t count = 0, size = 0;
  const char *text = NULL;
  gcol_strings_view s;
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_like");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(pattern, "pattern", &text, &size));
  items = (int32_t *)malloc((size_t)(size > 0 ? size : 1) * sizeof(int32_t));
  GCOL_DETAIL_CHECK(items != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for a pattern of %lld bytes", (long long)size);
  GCOL_DETAIL_TRY(gcol_detail_like_compile(text, size, escape_character, items, &count));
  GCOL_DETAIL_TRY(gcol_detail_strings_fixed_output(input, NULL, GCOL_BOOL8, stream, mr, &col));
  if (input.size > 0) {
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    GCOL_DETAIL_TRY(gcol_detail_strings_to_device(items, count * (int64_t)sizeof(int32_t), stream,
                                                  &items_dev));
    gcol_detail_like_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                              GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        s, (const int32_t *)items_dev->data, count, (uint8_t *)col->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  free(items);
  gcol_buffer_free(items_dev);
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
