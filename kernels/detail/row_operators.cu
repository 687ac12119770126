/*
 * Host side of the row operators and the hash table: flat key descriptors for kernels, and
 * table allocation (see row_operators.cuh and hash_table.cuh).
 */
#include <stdlib.h>
#include <string.h>

#include "detail/hash_table.cuh"

namespace {

gcol_status fill_row_column(gcol_column_view c, int32_t index, bool require_hashable,
                            bool floats_only, gcol_detail_row_column *k) {
  gcol_status status = GCOL_OK;
  gcol_type_id const id = c.type.id;
  size_t const width = gcol_type_size(id);
  memset(k, 0, sizeof *k);
  k->null_mask = c.null_mask;
  k->mask_offset = c.offset;
  k->width = (int32_t)width;
  GCOL_DETAIL_CHECK(!floats_only || gcol_type_is_floating(id), GCOL_ERROR_TYPE_MISMATCH,
                    "key column %d is %s, not FLOAT32 or FLOAT64", (int)index, gcol_type_name(id));
  GCOL_DETAIL_CHECK(!require_hashable || width != 0 || id == GCOL_STRING, GCOL_ERROR_TYPE_MISMATCH,
                    "key column %d is %s: keys must be fixed-width or STRING", (int)index,
                    gcol_type_name(id));
  k->kind = id == GCOL_FLOAT32   ? GCOL_DETAIL_ROW_F32
            : id == GCOL_FLOAT64 ? GCOL_DETAIL_ROW_F64
            : id == GCOL_STRING  ? GCOL_DETAIL_ROW_STRING
                                 : GCOL_DETAIL_ROW_BYTES;
  if (width != 0 && c.data != NULL) k->data = (const char *)c.data + c.offset * (int64_t)width;
  if (id == GCOL_STRING) GCOL_DETAIL_TRY(gcol_strings_view_make(c, &k->strings));
done:
  return status;
}

}  // namespace

extern "C" gcol_status gcol_detail_row_columns_make(gcol_table_view input, const int32_t *keys,
                                                    int32_t num_keys, bool require_hashable,
                                                    bool floats_only, gcol_stream stream,
                                                    gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_detail_row_column *host = NULL;
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(keys);
  GCOL_DETAIL_CHECK(num_keys >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_keys is %d, needs >= 1",
                    (int)num_keys);
  host = (gcol_detail_row_column *)calloc((size_t)num_keys, sizeof *host);
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d keys",
                    (int)num_keys);
  for (int32_t k = 0; k < num_keys; ++k) {
    GCOL_DETAIL_CHECK(keys[k] >= 0 && keys[k] < input.num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                      "keys[%d] is %d, outside the %d columns of input", (int)k, (int)keys[k],
                      (int)input.num_columns);
    GCOL_DETAIL_TRY(
        fill_row_column(input.columns[keys[k]], keys[k], require_hashable, floats_only, &host[k]));
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)num_keys * sizeof *host, stream, NULL, out));
  /* From pageable memory: the copy has been staged when the call returns. */
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync((*out)->data, host, (size_t)num_keys * sizeof *host,
                                       cudaMemcpyHostToDevice, (cudaStream_t)stream));
done:
  free(host);
  if (status != GCOL_OK) {
    gcol_buffer_free(*out);
    *out = NULL;
  }
  return status;
}

extern "C" gcol_status gcol_detail_hash_table_create(int64_t rows, gcol_stream stream,
                                                     gcol_buffer **storage,
                                                     gcol_detail_hash_table *out) {
  gcol_status status = GCOL_OK;
  int64_t const capacity = gcol_probe_capacity_for(rows);
  *storage = NULL;
  GCOL_DETAIL_CHECK(capacity > 0 && capacity <= ((int64_t)1 << 58), GCOL_ERROR_OVERFLOW,
                    "a hash table for %lld rows is too large", (long long)rows);
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)capacity * sizeof(long long), stream, NULL, storage));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync((*storage)->data, 0xFF, (size_t)capacity * sizeof(long long),
                                       (cudaStream_t)stream)); /* every slot EMPTY (-1) */
  out->slots = (long long *)(*storage)->data;
  out->capacity = capacity;
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*storage);
    *storage = NULL;
  }
  return status;
}

extern "C" gcol_status gcol_detail_hash_map_create(int64_t rows, bool tagged, gcol_stream stream,
                                                   gcol_buffer **storage,
                                                   gcol_detail_hash_map *out) {
  gcol_status status = GCOL_OK;
  int64_t const capacity = gcol_probe_capacity_for(rows);
  size_t bytes = 0;
  *storage = NULL;
  GCOL_DETAIL_CHECK(capacity > 0 && capacity <= ((int64_t)1 << 56), GCOL_ERROR_OVERFLOW,
                    "a hash map for %lld rows is too large", (long long)rows);
  bytes = (size_t)(capacity + 1) * 2u * sizeof(unsigned long long);
  GCOL_DETAIL_TRY(gcol_buffer_create(bytes, stream, NULL, storage));
  /* every key word and value EMPTY (all ones) */
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync((*storage)->data, 0xFF, bytes, (cudaStream_t)stream));
  out->slots = (unsigned long long *)(*storage)->data;
  out->capacity = capacity;
  out->tagged = tagged;
done:
  if (status != GCOL_OK) {
    gcol_buffer_free(*storage);
    *storage = NULL;
  }
  return status;
}
