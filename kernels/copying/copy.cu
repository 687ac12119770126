/* Deep copy of a column view of any type into a new column at offset 0: fixed-width data
 * copied from the slice, masks re-aligned, string and list offsets rebased to start at 0,
 * children copied recursively over the rows they cover. */
#include <stdlib.h>

#include "common.cuh"
#include "gcol/bitmask.h"
#include "gcol/column.h"
#include "gcol/indexalator.h"

/* out[i] = in[i] - base for i in [0, n]: rebases offsets of a slice. */
static __global__ void rebase_offsets_kernel(gcol_offsetalator in, gcol_offsets_writer out,
                                             int64_t n) {
  int64_t const base = gcol_offsetalator_get(in, 0);
  GCOL_DETAIL_GRID_LOOP(i, n + 1) { gcol_offsets_writer_set(out, i, gcol_offsetalator_get(in, i) - base); }
}

/* The view's mask copied to offset 0 (NULL when it has none), with its null count. */
static gcol_status copy_mask(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                             gcol_buffer **out, int64_t *null_count) {
  gcol_status status = GCOL_OK;
  *out = NULL;
  *null_count = 0;
  if (view.null_mask == NULL || view.size == 0) return GCOL_OK;
  GCOL_DETAIL_TRY(gcol_bitmask_copy(view.null_mask, view.offset, view.offset + view.size, stream,
                                    mr, out));
  GCOL_DETAIL_TRY(gcol_column_view_null_count(view, stream, null_count));
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*out);
    *out = NULL;
  }
  return status;
}

static gcol_status copy_fixed_width(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                                    gcol_buffer **out) {
  size_t const width = gcol_type_size(view.type.id);
  return gcol_buffer_create_copy((const char *)view.data + view.offset * (int64_t)width,
                                 (size_t)view.size * width, stream, mr, out);
}

/* Rebased offsets of a STRING/LIST view as a new column; [first, last) is the child range. */
static gcol_status copy_offsets(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                                gcol_column **out, int64_t *first, int64_t *last) {
  gcol_status status = GCOL_OK;
  gcol_offsetalator in;
  gcol_column *offsets = NULL;
  GCOL_DETAIL_TRY(gcol_strings_view_chars_range(view, stream, first, last));
  GCOL_DETAIL_TRY(gcol_offsetalator_make(view, &in));
  {
    gcol_type_id const type =
        gcol_offsets_type_for_threshold(*last - *first, gcol_large_offsets_threshold());
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(type), view.size + 1,
                                       GCOL_MASK_UNALLOCATED, stream, mr, &offsets));
    gcol_offsets_writer w;
    w.data = offsets->data->data;
    w.width = (int32_t)gcol_type_size(type);
    rebase_offsets_kernel<<<gcol_detail_grid_size(view.size + 1, GCOL_DETAIL_BLOCK_SIZE),
                            GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(in, w, view.size);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = offsets;
  offsets = NULL;
done:
  gcol_column_free(offsets);
  return status;
}

/* Copies the children of a nested view: the rows each child covers for this slice. */
static gcol_status copy_children(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                                 gcol_column **children, gcol_buffer **data) {
  gcol_status status = GCOL_OK;
  int64_t first = 0, last = 0;
  gcol_column_view child;
  switch (view.type.id) {
    case GCOL_STRING:
      GCOL_DETAIL_TRY(copy_offsets(view, stream, mr, &children[0], &first, &last));
      GCOL_DETAIL_TRY(gcol_buffer_create_copy((const char *)view.data + first,
                                              (size_t)(last - first), stream, mr, data));
      break;
    case GCOL_LIST:
      GCOL_DETAIL_TRY(copy_offsets(view, stream, mr, &children[0], &first, &last));
      GCOL_DETAIL_TRY(gcol_column_view_slice(view.children[GCOL_LIST_VALUES_CHILD], first, last,
                                             &child));
      GCOL_DETAIL_TRY(gcol_column_copy(child, stream, mr, &children[1]));
      break;
    case GCOL_DICTIONARY32:
      GCOL_DETAIL_TRY(gcol_column_view_slice(view.children[GCOL_DICTIONARY_INDICES_CHILD],
                                             view.offset, view.offset + view.size, &child));
      GCOL_DETAIL_TRY(gcol_column_copy(child, stream, mr, &children[0]));
      GCOL_DETAIL_TRY(gcol_column_copy(view.children[GCOL_DICTIONARY_KEYS_CHILD], stream, mr,
                                       &children[1]));
      break;
    default: /* STRUCT and any other parent: children row-aligned with the parent */
      for (int32_t i = 0; i < view.num_children; ++i) {
        GCOL_DETAIL_TRY(gcol_column_view_slice(view.children[i], view.offset,
                                               view.offset + view.size, &child));
        GCOL_DETAIL_TRY(gcol_column_copy(child, stream, mr, &children[i]));
      }
      break;
  }
done:
  return status;
}

extern "C" gcol_status gcol_column_copy(gcol_column_view view, gcol_stream stream, gcol_mr *mr,
                                        gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *data = NULL;
  gcol_buffer *mask = NULL;
  gcol_column **children = NULL;
  int32_t num_children = 0;
  int64_t null_count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_column_copy");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(view, "view"));
  if (view.size == 0) {
    GCOL_DETAIL_TRY(gcol_column_empty_like(view, stream, mr, out));
    goto done;
  }
  if (gcol_type_is_fixed_width(view.type.id)) {
    GCOL_DETAIL_TRY(copy_fixed_width(view, stream, mr, &data));
  } else if (view.num_children > 0) {
    num_children = view.num_children;
    children = (gcol_column **)calloc((size_t)num_children, sizeof *children);
    GCOL_DETAIL_CHECK(children != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
    GCOL_DETAIL_TRY(copy_children(view, stream, mr, children, &data));
  }
  /* A dictionary's validity lives in its indices, copied with them. */
  if (view.type.id != GCOL_DICTIONARY32) {
    GCOL_DETAIL_TRY(copy_mask(view, stream, mr, &mask, &null_count));
  }
  GCOL_DETAIL_TRY(gcol_column_make(view.type, view.size, data, mask, null_count, children,
                                   num_children, out));
  data = NULL;
  mask = NULL;
  num_children = 0; /* owned by *out now */
done:
  for (int32_t i = 0; i < num_children; ++i) gcol_column_free(children[i]);
  free(children);
  gcol_buffer_free(data);
  gcol_buffer_free(mask);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
