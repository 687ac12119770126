/* Public sorting entry points: orders, sorted copies, sort by key, segmented, top-k. */
#include "common.cuh"
#include "detail/gather.h"
#include "gcol/sorting.h"
#include "sort/sort_internal.h"

/* keys[i] = normalized word of key column row i (the single-word fast path's keys). */
template <typename K>
static __global__ void fast_keys_kernel(gcol_detail_key_column column, K *keys, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) { keys[i] = (K)gcol_detail_key_word(&column, i, 0); }
}

/*
 * sort_by_key with one nullable-free fixed-width key of <= 64 bits and one 4-byte payload
 * without nulls: the payload rides through the radix sort as its value. An ascending
 * 4-byte signed key (INT32, TIMESTAMP_DAYS, DURATION_DAYS, DECIMAL32) goes to CUB as it is
 * stored, which is exactly cub::DeviceRadixSort::SortPairs; other keys first get one
 * normalizing pass into a scratch copy.
 */
static bool fast_path_applies(gcol_table_view values, gcol_table_view keys,
                              const gcol_detail_key_column *key) {
  if (keys.num_columns != 1 || values.num_columns != 1) return false;
  gcol_column_view const v = values.columns[0];
  return keys.num_rows <= INT32_MAX && key->null_mask == NULL &&
         key->kind != GCOL_DETAIL_KEY_STRING && key->kind != GCOL_DETAIL_KEY_INT128 &&
         gcol_type_size(v.type.id) == 4 && (v.null_mask == NULL || v.null_count == 0);
}

/* CUB orders these keys itself (it flips the sign bit in registers): no normalized copy. */
static bool key_is_native_i32(const gcol_detail_key_column *key) {
  return key->kind == GCOL_DETAIL_KEY_SINT && key->width == 4 && !key->descending;
}

/* Points b->keys[0] at the keys CUB reads: the column itself, or a normalized copy in
 * *normalized (allocated here). b->keys[1] must be set already. */
static gcol_status fast_input_keys(gcol_detail_key_column key, int64_t n,
                                   gcol_detail_radix_buffers *b, gcol_buffer **normalized,
                                   gcol_stream stream) {
  gcol_status status = GCOL_OK;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  if (key_is_native_i32(&key)) {
    b->keys[0] = (void *)key.data; /* only read: the sort does not overwrite */
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)b->key_bytes * (size_t)n, stream, NULL, normalized));
  b->keys[0] = (*normalized)->data;
  if (b->key_bytes == 4) {
    fast_keys_kernel<uint32_t>
        <<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(key, (uint32_t *)b->keys[0], n);
  } else {
    fast_keys_kernel<uint64_t>
        <<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(key, (uint64_t *)b->keys[0], n);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

static gcol_status sort_by_key_fast(gcol_column_view value, gcol_detail_key_column key, int64_t n,
                                    gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *normalized = NULL, *sorted_keys = NULL;
  gcol_column *result = NULL;
  gcol_detail_radix_buffers b;
  memset(&b, 0, sizeof b);
  b.key_bytes = key.width <= 4 ? 4 : 8;
  b.value_bytes = 4;
  b.overwrite = false; /* the keys and payload are inputs: read them, never write them */
  /* CUB writes the sorted keys somewhere even though only the payload is wanted */
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)b.key_bytes * (size_t)n, stream, NULL, &sorted_keys));
  b.keys[1] = sorted_keys->data;
  GCOL_DETAIL_TRY(fast_input_keys(key, n, &b, &normalized, stream));
  GCOL_DETAIL_TRY(gcol_column_create(value.type, n, GCOL_MASK_UNALLOCATED, stream, mr, &result));
  b.values[0] = (void *)((const uint32_t *)value.data + value.offset);
  b.values[1] = result->data->data;
  if (key_is_native_i32(&key)) {
    GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs_i32(&b, n, stream));
  } else {
    GCOL_DETAIL_TRY(
        gcol_detail_radix_sort_pairs(&b, n, gcol_detail_key_bits(key.kind, key.width), stream));
  }
  *out = result;
  result = NULL;
done:
  gcol_column_free(result);
  gcol_buffer_free(normalized);
  gcol_buffer_free(sorted_keys);
  return status;
}

/* Shared body of every sort_by_key flavour. */
static gcol_status sort_by_key_impl(gcol_table_view values, gcol_table_view keys,
                                    const gcol_column_view *segment_offsets,
                                    const gcol_order *order, const gcol_null_order *null_order,
                                    const char *func, gcol_table **out, gcol_stream stream,
                                    gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *perm = NULL, *fast = NULL;
  gcol_detail_key_column key;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_table_view_check(values, "values"));
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(keys, order, null_order, "keys", NULL));
  GCOL_DETAIL_CHECK(values.num_rows == keys.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                    "%s: values has %lld rows, keys %lld", func, (long long)values.num_rows,
                    (long long)keys.num_rows);
  /* Every layout the gather engine takes, checked structurally (children too). */
  GCOL_DETAIL_TRY(gcol_detail_copying_check_table(values, "values"));
  GCOL_DETAIL_TRY(gcol_detail_key_column_make(
      keys.columns[0], order != NULL ? order[0] : GCOL_ORDER_ASCENDING,
      null_order != NULL ? null_order[0] : GCOL_NULLS_AFTER, "keys column 0", &key));
  if (segment_offsets == NULL && keys.num_rows > 0 && fast_path_applies(values, keys, &key)) {
    GCOL_DETAIL_TRY(sort_by_key_fast(values.columns[0], key, keys.num_rows, stream, mr, &fast));
    GCOL_DETAIL_TRY(gcol_table_make(&fast, 1, out));
    fast = NULL;
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_detail_sorted_order(keys, order, null_order, segment_offsets, func, &perm,
                                           stream, NULL));
  {
    gcol_column_view const pv = gcol_column_get_view(perm);
    GCOL_DETAIL_TRY(gcol_detail_sort_gather_table(
        values, pv.data, (int32_t)gcol_type_size(pv.type.id), pv.size, stream, mr, out));
  }
done:
  gcol_column_free(fast);
  gcol_column_free(perm);
  return status;
}

static gcol_status check_segment_offsets(gcol_column_view offsets, int64_t num_rows) {
  GCOL_DETAIL_REQUIRE(gcol_type_is_integral(offsets.type.id), GCOL_ERROR_TYPE_MISMATCH,
                      "segment_offsets must have an integer type, not %s",
                      gcol_type_name(offsets.type.id));
  GCOL_DETAIL_REQUIRE(
      offsets.size >= 0 && offsets.offset >= 0 && (offsets.size == 0 || offsets.data != NULL),
      GCOL_ERROR_INVALID_ARGUMENT, "segment_offsets is malformed (size %lld, offset %lld, data %p)",
      (long long)offsets.size, (long long)offsets.offset, offsets.data);
  GCOL_DETAIL_REQUIRE(offsets.null_mask == NULL || offsets.null_count == 0,
                      GCOL_ERROR_INVALID_ARGUMENT, "segment_offsets must not have nulls");
  GCOL_UNUSED(num_rows);
  return GCOL_OK;
}

extern "C" gcol_status gcol_sorted_order(gcol_table_view keys, const gcol_order *order,
                                         const gcol_null_order *null_order, gcol_column **out,
                                         gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_sorted_order");
  status =
      gcol_detail_sorted_order(keys, order, null_order, NULL, "gcol_sorted_order", out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_stable_sorted_order(gcol_table_view keys, const gcol_order *order,
                                                const gcol_null_order *null_order,
                                                gcol_column **out, gcol_stream stream,
                                                gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_stable_sorted_order");
  status = gcol_detail_sorted_order(keys, order, null_order, NULL, "gcol_stable_sorted_order", out,
                                    stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_sort(gcol_table_view keys, const gcol_order *order,
                                 const gcol_null_order *null_order, gcol_table **out,
                                 gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_sort");
  status = sort_by_key_impl(keys, keys, NULL, order, null_order, "gcol_sort", out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_stable_sort(gcol_table_view keys, const gcol_order *order,
                                        const gcol_null_order *null_order, gcol_table **out,
                                        gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_stable_sort");
  status =
      sort_by_key_impl(keys, keys, NULL, order, null_order, "gcol_stable_sort", out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_sort_by_key(gcol_table_view values, gcol_table_view keys,
                                        const gcol_order *order, const gcol_null_order *null_order,
                                        gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_sort_by_key");
  status =
      sort_by_key_impl(values, keys, NULL, order, null_order, "gcol_sort_by_key", out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_stable_sort_by_key(gcol_table_view values, gcol_table_view keys,
                                               const gcol_order *order,
                                               const gcol_null_order *null_order, gcol_table **out,
                                               gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_stable_sort_by_key");
  status = sort_by_key_impl(values, keys, NULL, order, null_order, "gcol_stable_sort_by_key", out,
                            stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_segmented_sorted_order(
    gcol_table_view keys, gcol_column_view segment_offsets, const gcol_order *order,
    const gcol_null_order *null_order, gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_segmented_sorted_order");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_segment_offsets(segment_offsets, keys.num_rows));
  GCOL_DETAIL_TRY(gcol_detail_sorted_order(keys, order, null_order, &segment_offsets,
                                           "gcol_segmented_sorted_order", out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_segmented_sort_by_key(gcol_table_view values, gcol_table_view keys,
                                                  gcol_column_view segment_offsets,
                                                  const gcol_order *order,
                                                  const gcol_null_order *null_order,
                                                  gcol_table **out, gcol_stream stream,
                                                  gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_segmented_sort_by_key");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_segment_offsets(segment_offsets, keys.num_rows));
  GCOL_DETAIL_TRY(sort_by_key_impl(values, keys, &segment_offsets, order, null_order,
                                   "gcol_segmented_sort_by_key", out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* The stable order of one column, nulls last; the first min(k, n) indices in *perm_out. */
static gcol_status top_k_perm(gcol_column_view column, int64_t k, gcol_order order,
                              gcol_column **perm_out, int64_t *taken, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_table_view keys;
  gcol_null_order const nulls = GCOL_NULLS_AFTER;
  GCOL_DETAIL_CHECK(k >= 0, GCOL_ERROR_INVALID_ARGUMENT, "k is negative (%lld)", (long long)k);
  keys.num_columns = 1;
  keys.num_rows = column.size;
  keys.columns = &column;
  GCOL_DETAIL_TRY(
      gcol_detail_sorted_order(keys, &order, &nulls, NULL, "gcol_top_k", perm_out, stream, NULL));
  *taken = k < column.size ? k : column.size;
done:
  return status;
}

extern "C" gcol_status gcol_top_k(gcol_column_view column, int64_t k, gcol_order order,
                                  gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *perm = NULL;
  int64_t taken = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_top_k");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(top_k_perm(column, k, order, &perm, &taken, stream));
  {
    gcol_column_view const pv = gcol_column_get_view(perm);
    GCOL_DETAIL_TRY(gcol_detail_sort_gather(
        &column, 1, NULL, pv.data, (int32_t)gcol_type_size(pv.type.id), taken,
        taken == column.size ? column.null_count : -1, stream, mr, out));
  }
done:
  gcol_column_free(perm);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_top_k_order(gcol_column_view column, int64_t k, gcol_order order,
                                        gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *perm = NULL, *result = NULL;
  int64_t taken = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_top_k_order");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(top_k_perm(column, k, order, &perm, &taken, stream));
  {
    gcol_column_view const pv = gcol_column_get_view(perm);
    size_t const width = gcol_type_size(pv.type.id);
    GCOL_DETAIL_TRY(gcol_column_create(pv.type, taken, GCOL_MASK_UNALLOCATED, stream, mr, &result));
    if (taken > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(result->data->data, pv.data, width * (size_t)taken,
                                           cudaMemcpyDeviceToDevice, (cudaStream_t)stream));
    }
  }
  *out = result;
  result = NULL;
done:
  gcol_column_free(result);
  gcol_column_free(perm);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
