/*
 * Null operations: is_null / is_valid / is_nan, replace_nulls (column, scalar, preceding or
 * following), and BOOL8 <-> null mask. The replacements build a row map (row_map.cuh) and
 * gather from two sources, so fixed-width and STRING share one path; preceding/following
 * find each row's source with one max-scan of "last valid row index". LIST and STRUCT reuse
 * the copying module instead: copy_if_else on the validity (column variant) and gather of an
 * index column built from the same scan (policy variant).
 */
#include <stdlib.h>

#include <cuda/functional>

#include <cub/device/device_scan.cuh>

#include "filtering/row_map.cuh"
#include "gcol/copying.h"
#include "gcol/device/block.cuh"
#include "gcol/indexalator.h"
#include "gcol/null_ops.h"
#include "internal/column.h"

namespace {

__global__ void validity_to_bools_kernel(const uint32_t *mask, int64_t offset, int64_t n,
                                         bool want_valid, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool const valid = gcol_bit_is_set_or_null_mask(mask, offset + i);
    out[i] = (valid == want_valid) ? 1 : 0;
  }
}

template <typename T>
__global__ void is_nan_kernel(const T *in, const uint32_t *mask, int64_t offset, int64_t n,
                              uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    T const v = in[i];
    out[i] = (v != v && gcol_bit_is_set_or_null_mask(mask, offset + i)) ? 1 : 0;
  }
}

/* Row i from A when valid there, else row i (or row 0 for a scalar) of B. */
__global__ void replace_map_kernel(const uint32_t *mask, int64_t offset, int64_t n,
                                   bool b_is_scalar, int64_t *map) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool const valid = gcol_bit_is_set_or_null_mask(mask, offset + i);
    map[i] = valid ? i : gcol_detail_map_from_b(b_is_scalar ? 0 : i);
  }
}

/*
 * Scan input for preceding/following: position k holds its row index when valid, else -1,
 * with positions reversed for FOLLOWING so that one max-scan serves both directions.
 */
__global__ void last_valid_seed_kernel(const uint32_t *mask, int64_t offset, int64_t n,
                                       bool reverse, int64_t *seed) {
  GCOL_DETAIL_GRID_LOOP(k, n) {
    int64_t const row = reverse ? n - 1 - k : k;
    seed[k] = gcol_bit_is_set_or_null_mask(mask, offset + row) ? k : -1;
  }
}

/* Turns the scanned positions back into a row map (-1 stays a null row). */
__global__ void last_valid_to_map_kernel(const int64_t *scanned, int64_t n, bool reverse,
                                         int64_t *map) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const k = reverse ? n - 1 - i : i;
    int64_t const found = scanned[k];
    map[i] = found < 0 ? GCOL_DETAIL_MAP_NULL : (reverse ? n - 1 - found : found);
  }
}

/*
 * As last_valid_to_map_kernel, but writes gather indices for gcol_gather: "no valid row"
 * becomes n, out of range, which GCOL_OUT_OF_BOUNDS_NULLIFY turns into a null row.
 */
__global__ void last_valid_to_index_kernel(const int64_t *scanned, int64_t n, bool reverse,
                                           gcol_index_writer index) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const k = reverse ? n - 1 - i : i;
    int64_t const found = scanned[k];
    gcol_index_writer_set(index, i, found < 0 ? n : (reverse ? n - 1 - found : found));
  }
}

/* One mask word per warp from ballots; the loop covers n rounded up to 32. */
__global__ void bools_to_mask_smem_kernel(const uint8_t *bools, const uint32_t *mask,
                                          int64_t offset, int64_t n, uint32_t *out,
                                          unsigned long long *set_count) {
  int64_t const padded = (n + 31) & ~(int64_t)31;
  unsigned int set = 0;
  GCOL_DETAIL_GRID_LOOP(i, padded) {
    bool const bit = i < n && bools[i] != 0 && gcol_bit_is_set_or_null_mask(mask, offset + i);
    uint32_t const word = __ballot_sync(0xFFFFFFFFu, bit);
    if ((threadIdx.x & 31) == 0) {
      out[i >> 5] = word;
      set += (unsigned int)__popc(word);
    }
  }
  gcol_block_add_count(set_count, set);
}

__global__ void mask_to_bools_kernel(const uint32_t *mask, int64_t begin, int64_t n, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, n) { out[i] = gcol_bit_is_set(mask, begin + i) ? 1 : 0; }
}

gcol_status validity_to_bools(gcol_column_view input, bool want_valid, gcol_column **out,
                              gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_BOOL8), input.size,
                                     GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (input.size > 0) {
    validity_to_bools_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                               GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        input.null_mask, input.offset, input.size, want_valid, (uint8_t *)col->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}

bool is_nested(gcol_type_id id) { return id == GCOL_LIST || id == GCOL_STRUCT; }

/*
 * Common checks of the replace functions; true in *copy_only when no row is null. LIST and
 * STRUCT pass only when allow_nested (not for a scalar replacement: scalars cannot be
 * nested); DICTIONARY32 never (gather and copy_if_else do not take dictionaries).
 */
gcol_status check_replace_input(gcol_column_view input, bool allow_nested, gcol_column **out,
                                bool *copy_only) {
  gcol_status status = GCOL_OK;
  gcol_type_id const id = input.type.id;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_CHECK(allow_nested || !is_nested(id), GCOL_ERROR_UNSUPPORTED,
                    "replace_nulls_scalar of a %s input: only fixed-width and STRING inputs "
                    "(a scalar cannot be a LIST or STRUCT; use gcol_replace_nulls with a column)",
                    gcol_type_name(id));
  GCOL_DETAIL_CHECK(gcol_type_is_fixed_width(id) || id == GCOL_STRING || is_nested(id),
                    GCOL_ERROR_UNSUPPORTED,
                    "replace_nulls of a %s input: only fixed-width, STRING, LIST and STRUCT "
                    "(DICTIONARY32 is not supported by gather or copy_if_else)",
                    gcol_type_name(id));
  *copy_only = input.null_mask == NULL || input.null_count == 0 || input.size == 0;
done:
  return status;
}

/* Gathers input (A) and b (B) through a map built by replace_map_kernel. */
gcol_status replace_from(gcol_column_view input, gcol_column_view b, bool b_is_scalar,
                         gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *map = NULL;
  int64_t const n = input.size;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int64_t), stream, NULL, &map));
  replace_map_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                       (cudaStream_t)stream>>>(input.null_mask, input.offset, n, b_is_scalar,
                                               (int64_t *)map->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_detail_gather_column(input, &b, (const int64_t *)map->data, n, false, stream, mr, out));
done:
  gcol_buffer_free(map);
  return status;
}

/* LIST / STRUCT: row i of input where valid there, else row i of replacement. */
gcol_status replace_nested_from(gcol_column_view input, gcol_column_view replacement,
                                gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *valid = NULL;
  GCOL_DETAIL_TRY(gcol_is_valid(input, &valid, stream, NULL));
  GCOL_DETAIL_TRY(
      gcol_copy_if_else(input, replacement, gcol_column_get_view(valid), out, stream, mr));
done:
  gcol_column_free(valid);
  return status;
}

/*
 * Max-scan of last_valid_seed_kernel's output: seed position k then holds the nearest
 * valid position at or before k (-1 when none). The caller frees *seed.
 */
gcol_status scan_last_valid(gcol_column_view input, bool reverse, gcol_stream stream,
                            gcol_buffer **seed) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t temp_bytes = 0;
  int64_t const n = input.size;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int64_t), stream, NULL, seed));
  last_valid_seed_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                           0, s>>>(input.null_mask, input.offset, n, reverse,
                                   (int64_t *)(*seed)->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::InclusiveScan(NULL, temp_bytes, (int64_t *)(*seed)->data,
                                                      (int64_t *)(*seed)->data,
                                                      cuda::maximum<int64_t>{}, n, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(
      cub::DeviceScan::InclusiveScan(temp->data, temp_bytes, (int64_t *)(*seed)->data,
                                     (int64_t *)(*seed)->data, cuda::maximum<int64_t>{}, n, s));
done:
  gcol_buffer_free(temp);
  return status;
}

/* Fixed-width / STRING: the scanned positions as a row map, then one gather. */
gcol_status fill_flat_from_scan(gcol_column_view input, const int64_t *scanned, bool reverse,
                                gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *map = NULL;
  int64_t const n = input.size;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int64_t), stream, NULL, &map));
  last_valid_to_map_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                             GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      scanned, n, reverse, (int64_t *)map->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_detail_gather_column(input, NULL, (const int64_t *)map->data, n, true, stream, mr, out));
done:
  gcol_buffer_free(map);
  return status;
}

/* LIST / STRUCT: the scanned positions as an INT32/INT64 index column, then gcol_gather. */
gcol_status fill_nested_from_scan(gcol_column_view input, const int64_t *scanned, bool reverse,
                                  gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *index = NULL;
  gcol_table *gathered = NULL;
  gcol_column **columns = NULL;
  int32_t num_columns = 0;
  gcol_table_view source;
  gcol_index_writer writer;
  int64_t const n = input.size;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(gcol_index_type_for(n)), n,
                                     GCOL_MASK_UNALLOCATED, stream, NULL, &index));
  GCOL_DETAIL_TRY(gcol_index_writer_make(gcol_detail_new_column_mutable_view(index), &writer));
  last_valid_to_index_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                               GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(scanned, n,
                                                                                  reverse, writer);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_table_view_make(&input, 1, &source));
  GCOL_DETAIL_TRY(gcol_gather(source, gcol_column_get_view(index), GCOL_OUT_OF_BOUNDS_NULLIFY,
                              GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &gathered, stream, mr));
  GCOL_DETAIL_TRY(gcol_table_release(gathered, &columns, &num_columns));
  gathered = NULL;
  *out = columns[0];
done:
  free(columns);
  gcol_table_free(gathered);
  gcol_column_free(index);
  return status;
}

/* A one-row device column holding a valid scalar (temporary, default resource). */
gcol_status scalar_to_column(const gcol_scalar *s, gcol_stream stream, gcol_column **out) {
  if (s->type.id == GCOL_STRING) {
    const char *data = s->string_data != NULL ? s->string_data : "";
    int64_t const len = s->string_size;
    return gcol_column_create_strings_from_host(1, &data, &len, stream, NULL, out);
  }
  return gcol_column_create_from_host(s->type, 1, gcol_scalar_get_storage(s), NULL, stream, NULL,
                                      out);
}

}  // namespace

extern "C" gcol_status gcol_is_null(gcol_column_view input, gcol_column **out, gcol_stream stream,
                                    gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_is_null");
  status = validity_to_bools(input, false, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_is_valid(gcol_column_view input, gcol_column **out, gcol_stream stream,
                                     gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_is_valid");
  status = validity_to_bools(input, true, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_is_nan(gcol_column_view input, gcol_column **out, gcol_stream stream,
                                   gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  int64_t const n = input.size;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_NVTX_PUSH("gcol_is_nan");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_CHECK(gcol_type_is_floating(input.type.id), GCOL_ERROR_TYPE_MISMATCH,
                    "input must be FLOAT32 or FLOAT64, not %s", gcol_type_name(input.type.id));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_BOOL8), n, GCOL_MASK_UNALLOCATED,
                                     stream, mr, &col));
  if (n > 0) {
    if (input.type.id == GCOL_FLOAT32) {
      is_nan_kernel<float><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
          (const float *)input.data + input.offset, input.null_mask, input.offset, n,
          (uint8_t *)col->data->data);
    } else {
      is_nan_kernel<double><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
          (const double *)input.data + input.offset, input.null_mask, input.offset, n,
          (uint8_t *)col->data->data);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_replace_nulls(gcol_column_view input, gcol_column_view replacement,
                                          gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  bool copy_only = false;
  GCOL_DETAIL_NVTX_PUSH("gcol_replace_nulls");
  GCOL_DETAIL_TRY(check_replace_input(input, true, out, &copy_only));
  GCOL_DETAIL_TRY(gcol_column_view_validate(replacement, "replacement"));
  GCOL_DETAIL_CHECK(gcol_data_type_equal(input.type, replacement.type), GCOL_ERROR_TYPE_MISMATCH,
                    "replacement is %s (scale %d), input %s (scale %d)",
                    gcol_type_name(replacement.type.id), (int)replacement.type.scale,
                    gcol_type_name(input.type.id), (int)input.type.scale);
  GCOL_DETAIL_CHECK(replacement.size == input.size, GCOL_ERROR_SIZE_MISMATCH,
                    "replacement has %lld rows, input %lld", (long long)replacement.size,
                    (long long)input.size);
  if (copy_only) {
    status = gcol_column_copy(input, stream, mr, out);
  } else if (is_nested(input.type.id)) {
    status = replace_nested_from(input, replacement, out, stream, mr);
  } else {
    status = replace_from(input, replacement, false, out, stream, mr);
  }
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_replace_nulls_scalar(gcol_column_view input,
                                                 const gcol_scalar *replacement, gcol_column **out,
                                                 gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  bool copy_only = false;
  gcol_column *b = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_replace_nulls_scalar");
  GCOL_DETAIL_TRY(check_replace_input(input, false, out, &copy_only));
  GCOL_DETAIL_CHECK_NOT_NULL(replacement);
  GCOL_DETAIL_CHECK(gcol_data_type_equal(input.type, replacement->type), GCOL_ERROR_TYPE_MISMATCH,
                    "replacement is %s (scale %d), input %s (scale %d)",
                    gcol_type_name(replacement->type.id), (int)replacement->type.scale,
                    gcol_type_name(input.type.id), (int)input.type.scale);
  if (copy_only || !replacement->is_valid) {
    status = gcol_column_copy(input, stream, mr, out);
    goto done;
  }
  GCOL_DETAIL_TRY(scalar_to_column(replacement, stream, &b));
  GCOL_DETAIL_TRY(replace_from(input, gcol_column_get_view(b), true, out, stream, mr));
done:
  gcol_column_free(b);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_replace_nulls_policy(gcol_column_view input, gcol_replace_policy policy,
                                                 gcol_column **out, gcol_stream stream,
                                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  bool copy_only = false;
  gcol_buffer *seed = NULL;
  bool const reverse = policy == GCOL_REPLACE_FOLLOWING;
  GCOL_DETAIL_NVTX_PUSH("gcol_replace_nulls_policy");
  GCOL_DETAIL_TRY(check_replace_input(input, true, out, &copy_only));
  GCOL_DETAIL_CHECK(policy == GCOL_REPLACE_PRECEDING || policy == GCOL_REPLACE_FOLLOWING,
                    GCOL_ERROR_INVALID_ARGUMENT, "policy is %d, not a gcol_replace_policy",
                    (int)policy);
  if (copy_only) {
    status = gcol_column_copy(input, stream, mr, out);
    goto done;
  }
  GCOL_DETAIL_TRY(scan_last_valid(input, reverse, stream, &seed));
  if (is_nested(input.type.id)) {
    status = fill_nested_from_scan(input, (const int64_t *)seed->data, reverse, out, stream, mr);
  } else {
    status = fill_flat_from_scan(input, (const int64_t *)seed->data, reverse, out, stream, mr);
  }
done:
  gcol_buffer_free(seed);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_bools_to_mask(gcol_column_view input, gcol_buffer **out_mask,
                                          int64_t *out_null_count, gcol_stream stream,
                                          gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *counter = NULL;
  unsigned long long set = 0;
  int64_t const n = input.size;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_NVTX_PUSH("gcol_bools_to_mask");
  GCOL_DETAIL_CHECK_NOT_NULL(out_mask);
  *out_mask = NULL;
  if (out_null_count != NULL) *out_null_count = 0;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_CHECK(input.type.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "input must be BOOL8, not %s", gcol_type_name(input.type.id));
  if (n == 0) goto done;
  GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_UNINITIALIZED, stream, mr, out_mask));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(unsigned long long), stream, NULL, &counter));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counter->data, 0, sizeof(unsigned long long), s));
  bools_to_mask_smem_kernel<<<gcol_detail_grid_size((n + 31) & ~(int64_t)31,
                                                    GCOL_DETAIL_BLOCK_SIZE),
                              GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      (const uint8_t *)input.data + input.offset, input.null_mask, input.offset, n,
      (uint32_t *)(*out_mask)->data, (unsigned long long *)counter->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  if (out_null_count != NULL) {
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(&set, counter->data, sizeof set, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    *out_null_count = n - (int64_t)set;
  }
done:
  gcol_buffer_free(counter);
  if (status != GCOL_OK) {
    gcol_buffer_free(*out_mask);
    *out_mask = NULL;
  }
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_mask_to_bools(const uint32_t *mask, int64_t begin, int64_t end,
                                          gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_mask_to_bools");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(begin >= 0 && end >= begin, GCOL_ERROR_INVALID_ARGUMENT,
                    "bad bit range: begin %lld, end %lld", (long long)begin, (long long)end);
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_BOOL8), end - begin,
                                     GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (end > begin && mask == NULL) { /* no mask: every row valid, as in a view */
    GCOL_DETAIL_CUDA_TRY(
        cudaMemsetAsync(col->data->data, 1, (size_t)(end - begin), (cudaStream_t)stream));
  } else if (end > begin) {
    mask_to_bools_kernel<<<gcol_detail_grid_size(end - begin, GCOL_DETAIL_BLOCK_SIZE),
                           GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        mask, begin, end - begin, (uint8_t *)col->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
