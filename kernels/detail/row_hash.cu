/*
 * Host side of the published row hashes (row_hash.cuh): flat column descriptors.
 */
#include <stdlib.h>
#include <string.h>

#include "detail/row_hash.cuh"

namespace {

gcol_status fill_hash_column(gcol_column_view c, int32_t index, gcol_detail_hash_column *k) {
  gcol_status status = GCOL_OK;
  gcol_type_id const id = c.type.id;
  size_t const width = gcol_type_size(id);
  memset(k, 0, sizeof *k);
  GCOL_DETAIL_CHECK(width != 0 || id == GCOL_STRING, GCOL_ERROR_UNSUPPORTED,
                    "column %d is %s: only fixed-width and STRING columns can be hashed",
                    (int)index, gcol_type_name(id));
  k->id = (int32_t)id;
  k->width = (int32_t)width;
  k->null_mask = c.null_mask;
  k->mask_offset = c.offset;
  if (width != 0 && c.data != NULL) k->data = (const char *)c.data + c.offset * (int64_t)width;
  if (id == GCOL_STRING) GCOL_DETAIL_TRY(gcol_strings_view_make(c, &k->strings));
done:
  return status;
}

}  // namespace

extern "C" gcol_status gcol_detail_hash_columns_make(gcol_table_view input, const int32_t *keys,
                                                     int32_t num_keys, gcol_stream stream,
                                                     gcol_buffer **out, int32_t *out_count) {
  gcol_status status = GCOL_OK;
  gcol_detail_hash_column *host = NULL;
  int32_t const n = keys == NULL ? input.num_columns : num_keys;
  *out = NULL;
  *out_count = 0;
  GCOL_DETAIL_CHECK(n >= 1, GCOL_ERROR_INVALID_ARGUMENT, "%s is %d, needs >= 1",
                    keys == NULL ? "the number of columns" : "num_keys", (int)n);
  host = (gcol_detail_hash_column *)calloc((size_t)n, sizeof *host);
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d columns",
                    (int)n);
  for (int32_t k = 0; k < n; ++k) {
    int32_t const index = keys == NULL ? k : keys[k];
    GCOL_DETAIL_CHECK(index >= 0 && index < input.num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                      "key column %d is %d, outside the %d columns of input", (int)k, (int)index,
                      (int)input.num_columns);
    GCOL_DETAIL_TRY(fill_hash_column(input.columns[index], index, &host[k]));
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof *host, stream, NULL, out));
  /* From pageable memory: the copy has been staged when the call returns. */
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync((*out)->data, host, (size_t)n * sizeof *host,
                                       cudaMemcpyHostToDevice, (cudaStream_t)stream));
  *out_count = n;
done:
  free(host);
  if (status != GCOL_OK) {
    gcol_buffer_free(*out);
    *out = NULL;
  }
  return status;
}
