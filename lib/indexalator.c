/* Construction of index and offset readers and writers (their accessors are inline). */
#include <stdatomic.h>

#include "gcol/indexalator.h"
#include "gcol/string_view.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static _Atomic int64_t large_offsets_threshold = INT32_MAX;

static gcol_status indexalator_make(gcol_column_view view, gcol_indexalator *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(gcol_type_is_integral(view.type.id), GCOL_ERROR_TYPE_MISMATCH,
                      "index column must have an integer type, not %s",
                      gcol_type_name(view.type.id));
  out->width = (int32_t)gcol_type_size(view.type.id);
  out->is_signed = gcol_type_is_signed_integral(view.type.id);
  out->data = view.data == NULL ? NULL
                                : (const char *)view.data + view.offset * (int64_t)out->width;
  return GCOL_OK;
}

gcol_status gcol_indexalator_make(gcol_column_view view, gcol_indexalator *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_indexalator_make");
  gcol_status const status = indexalator_make(view, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status index_writer_make(gcol_mutable_column_view view, gcol_index_writer *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(view.type.id == GCOL_INT32 || view.type.id == GCOL_INT64,
                      GCOL_ERROR_TYPE_MISMATCH, "index output must be INT32 or INT64, not %s",
                      gcol_type_name(view.type.id));
  out->width = (int32_t)gcol_type_size(view.type.id);
  out->data = view.data == NULL ? NULL : (char *)view.data + view.offset * (int64_t)out->width;
  return GCOL_OK;
}

gcol_status gcol_index_writer_make(gcol_mutable_column_view view, gcol_index_writer *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_index_writer_make");
  gcol_status const status = index_writer_make(view, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status offsetalator_make(gcol_column_view view, gcol_offsetalator *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(view.type.id == GCOL_STRING || view.type.id == GCOL_LIST,
                      GCOL_ERROR_TYPE_MISMATCH, "offsets need a STRING or LIST column, not %s",
                      gcol_type_name(view.type.id));
  GCOL_DETAIL_REQUIRE(view.num_children > GCOL_OFFSETS_CHILD && view.children != NULL,
                      GCOL_ERROR_INVALID_ARGUMENT, "%s column has no offsets child",
                      gcol_type_name(view.type.id));
  gcol_column_view const offsets = view.children[GCOL_OFFSETS_CHILD];
  GCOL_DETAIL_REQUIRE(offsets.type.id == GCOL_INT32 || offsets.type.id == GCOL_INT64,
                      GCOL_ERROR_TYPE_MISMATCH, "offsets must be INT32 or INT64, not %s",
                      gcol_type_name(offsets.type.id));
  out->width = (int32_t)gcol_type_size(offsets.type.id);
  out->data = offsets.data == NULL
                  ? NULL
                  : (const char *)offsets.data + (offsets.offset + view.offset) * (int64_t)out->width;
  return GCOL_OK;
}

gcol_status gcol_offsetalator_make(gcol_column_view view, gcol_offsetalator *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_offsetalator_make");
  gcol_status const status = offsetalator_make(view, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

int64_t gcol_large_offsets_threshold(void) { return atomic_load(&large_offsets_threshold); }

int64_t gcol_set_large_offsets_threshold(int64_t bytes) {
  if (bytes <= 0) bytes = INT32_MAX;
  return atomic_exchange(&large_offsets_threshold, bytes);
}

static gcol_status strings_view_make(gcol_column_view view, gcol_strings_view *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE(view.type.id == GCOL_STRING, GCOL_ERROR_TYPE_MISMATCH,
                      "expected a STRING column, not %s", gcol_type_name(view.type.id));
  out->chars = (const char *)view.data;
  out->null_mask = view.null_mask;
  out->mask_offset = view.offset;
  out->size = view.size;
  out->offsets.data = NULL;
  out->offsets.width = 4;
  if (view.size == 0 && (view.num_children == 0 || view.children[0].data == NULL)) {
    return GCOL_OK; /* an empty column may have no offsets at all */
  }
  return gcol_offsetalator_make(view, &out->offsets);
}

gcol_status gcol_strings_view_make(gcol_column_view view, gcol_strings_view *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_view_make");
  gcol_status const status = strings_view_make(view, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
