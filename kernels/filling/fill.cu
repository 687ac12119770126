/*
 * Filling: fill a range in place (by storage width) or into a copy (STRING through a
 * two-source row map), sequence (integers by width in modular arithmetic, floats with
 * explicit roundings), and repeat (a row map from a scan of the counts, then a gather of
 * every column, nested ones included).
 */
#include <cub/device/device_scan.cuh>

#include "filtering/row_map.cuh"
#include "gcol/filling.h"
#include "gcol/indexalator.h"
#include "internal/column.h"

static gcol_status fill_view_in_place(gcol_mutable_column_view *destination, int64_t begin,
                                      int64_t end, const gcol_scalar *value, gcol_stream stream);

namespace {

struct alignas(16) word128 {
  uint64_t lo, hi;
};

template <typename T>
__global__ void fill_value_kernel(T *data, int64_t n, T value) {
  GCOL_DETAIL_GRID_LOOP(i, n) { data[i] = value; }
}

template <typename T>
void launch_fill(void *data, int64_t n, const void *value, cudaStream_t s) {
  T v;
  memcpy(&v, value, sizeof v);
  fill_value_kernel<T>
      <<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
          (T *)data, n, v);
}

void launch_fill_width(size_t width, void *data, int64_t n, const void *value, cudaStream_t s) {
  switch (width) {
    case 1:
      launch_fill<uint8_t>(data, n, value, s);
      break;
    case 2:
      launch_fill<uint16_t>(data, n, value, s);
      break;
    case 4:
      launch_fill<uint32_t>(data, n, value, s);
      break;
    case 8:
      launch_fill<uint64_t>(data, n, value, s);
      break;
    default:
      launch_fill<word128>(data, n, value, s);
      break;
  }
}

/* Integers: init + i * step modulo 2^(8 * sizeof(T)); the low bits of a uint64 product are
 * those of the narrow one, so signed and unsigned types share these four kernels. */
template <typename T>
__global__ void sequence_int_kernel(T *out, int64_t n, uint64_t init, uint64_t step) {
  GCOL_DETAIL_GRID_LOOP(i, n) { out[i] = (T)(init + (uint64_t)i * step); }
}

__device__ __forceinline__ float mul_add_rn(float i, float step, float init) {
  return __fadd_rn(init, __fmul_rn(i, step));
}
__device__ __forceinline__ double mul_add_rn(double i, double step, double init) {
  return __dadd_rn(init, __dmul_rn(i, step));
}

template <typename T>
__global__ void sequence_float_kernel(T *out, int64_t n, T init, T step) {
  GCOL_DETAIL_GRID_LOOP(i, n) { out[i] = mul_add_rn((T)i, step, init); }
}

/* Row map of an out-of-place fill: rows in [begin, end) from B row 0 (or null), others A. */
__global__ void fill_map_kernel(int64_t n, int64_t begin, int64_t end, bool value_valid,
                                int64_t *map) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool const inside = i >= begin && i < end;
    map[i] = !inside ? i : (value_valid ? gcol_detail_map_from_b(0) : GCOL_DETAIL_MAP_NULL);
  }
}

/* Counts as int64, flagging negative ones and ones above the per-row limit. */
__global__ void read_counts_kernel(gcol_indexalator counts, int64_t n, int64_t limit, int64_t *out,
                                   int *bad) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const c = gcol_indexalator_get(counts, i);
    bool const is_unsigned_big = !counts.is_signed && counts.width == 8 && c < 0;
    if (c < 0 && !is_unsigned_big) atomicOr(bad, 1);
    if (is_unsigned_big || c > limit) atomicOr(bad, 2);
    out[i] = c;
  }
}

/* Output row j comes from the first input row whose inclusive end offset exceeds j. */
__global__ void repeat_map_kernel(const int64_t *ends, int64_t n, int64_t total, int64_t *map) {
  GCOL_DETAIL_GRID_LOOP(j, total) {
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
      int64_t const mid = lo + (hi - lo) / 2;
      if (ends[mid] > j) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    map[j] = lo;
  }
}

__global__ void repeat_scalar_map_kernel(int64_t total, int64_t count, int64_t *map) {
  GCOL_DETAIL_GRID_LOOP(j, total) { map[j] = j / count; }
}

gcol_status check_range(int64_t size, int64_t begin, int64_t end) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(begin >= 0 && begin <= end && end <= size, GCOL_ERROR_INVALID_ARGUMENT,
                    "range [%lld, %lld) is outside the %lld rows", (long long)begin, (long long)end,
                    (long long)size);
done:
  return status;
}

gcol_status check_value(gcol_data_type type, const gcol_scalar *value) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(value);
  GCOL_DETAIL_CHECK(gcol_data_type_equal(type, value->type), GCOL_ERROR_TYPE_MISMATCH,
                    "value is %s (scale %d), the column %s (scale %d)",
                    gcol_type_name(value->type.id), (int)value->type.scale, gcol_type_name(type.id),
                    (int)type.scale);
done:
  return status;
}

/* Out-of-place fill of a fixed-width column: a compacted copy, then a fill in place. */
gcol_status fill_fixed_copy(gcol_column_view input, int64_t begin, int64_t end,
                            const gcol_scalar *value, gcol_column **out, gcol_stream stream,
                            gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  gcol_mutable_column_view mv;
  GCOL_DETAIL_TRY(gcol_column_copy(input, stream, mr, &col));
  /* Only a non-empty null range needs a mask (a 0-row mask has no storage anyway). */
  if (!value->is_valid && end > begin && col->null_mask == NULL) {
    GCOL_DETAIL_TRY(gcol_bitmask_create(col->size, GCOL_MASK_ALL_VALID, stream, mr, &mask));
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, 0));
    mask = NULL;
  }
  mv = gcol_detail_new_column_mutable_view(col);
  GCOL_DETAIL_TRY(fill_view_in_place(&mv, begin, end, value, stream));
  GCOL_DETAIL_TRY(gcol_column_set_null_count(col, mv.null_count));
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(col);
  return status;
}

/* Out-of-place fill of a STRING column: gather from the input and the one-row value. */
gcol_status fill_strings_copy(gcol_column_view input, int64_t begin, int64_t end,
                              const gcol_scalar *value, gcol_column **out, gcol_stream stream,
                              gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *b = NULL;
  gcol_buffer *map = NULL;
  gcol_column_view bv;
  const char *chars = value->string_data != NULL ? value->string_data : "";
  int64_t const len = value->is_valid ? value->string_size : 0;
  int64_t const n = input.size;
  GCOL_DETAIL_TRY(gcol_column_create_strings_from_host(1, &chars, &len, stream, NULL, &b));
  bv = gcol_column_get_view(b);
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int64_t), stream, NULL, &map));
  fill_map_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                    (cudaStream_t)stream>>>(n, begin, end, value->is_valid, (int64_t *)map->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_gather_column(input, &bv, (const int64_t *)map->data, n,
                                            !value->is_valid && end > begin, stream, mr, out));
done:
  gcol_buffer_free(map);
  gcol_column_free(b);
  return status;
}

gcol_status launch_sequence(gcol_column *col, const gcol_scalar *init, const gcol_scalar *step,
                            cudaStream_t s) {
  gcol_status status = GCOL_OK;
  int64_t const n = col->size;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  void *data = col->data->data;
  uint64_t a = 0, b = 0;
  size_t const width = gcol_type_size(col->type.id);
  if (col->type.id == GCOL_FLOAT32) {
    sequence_float_kernel<float><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (float *)data, n, init->value.f32, step->value.f32);
  } else if (col->type.id == GCOL_FLOAT64) {
    sequence_float_kernel<double><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (double *)data, n, init->value.f64, step->value.f64);
  } else {
    memcpy(&a, gcol_scalar_get_storage(init), width);
    memcpy(&b, gcol_scalar_get_storage(step), width);
    switch (width) {
      case 1:
        sequence_int_kernel<uint8_t>
            <<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>((uint8_t *)data, n, a, b);
        break;
      case 2:
        sequence_int_kernel<uint16_t>
            <<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>((uint16_t *)data, n, a, b);
        break;
      case 4:
        sequence_int_kernel<uint32_t>
            <<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>((uint32_t *)data, n, a, b);
        break;
      default:
        sequence_int_kernel<uint64_t>
            <<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>((uint64_t *)data, n, a, b);
        break;
    }
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* The inclusive end offsets of each row's repetitions, and their total (synchronizes). */
gcol_status repeat_offsets(gcol_column_view counts, int64_t n, gcol_stream stream,
                           gcol_buffer **out_ends, int64_t *out_total) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL, *bad = NULL;
  gcol_indexalator it;
  size_t temp_bytes = 0;
  int host_bad = 0;
  int64_t *ends = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const limit = INT64_MAX / n;
  GCOL_DETAIL_TRY(gcol_indexalator_make(counts, &it));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * sizeof(int64_t), stream, NULL, out_ends));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int), stream, NULL, &bad));
  ends = (int64_t *)(*out_ends)->data;
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(bad->data, 0, sizeof(int), s));
  read_counts_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                       s>>>(it, n, limit, ends, (int *)bad->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::InclusiveSum(NULL, temp_bytes, ends, ends, n, s));
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::InclusiveSum(temp->data, temp_bytes, ends, ends, n, s));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(&host_bad, bad->data, sizeof host_bad, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(out_total, ends + n - 1, sizeof(int64_t), cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  GCOL_DETAIL_CHECK((host_bad & 1) == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "counts has a negative value");
  GCOL_DETAIL_CHECK((host_bad & 2) == 0, GCOL_ERROR_OVERFLOW,
                    "counts has a value above %lld: the total could pass INT64_MAX",
                    (long long)limit);
done:
  gcol_buffer_free(temp);
  gcol_buffer_free(bad);
  if (status != GCOL_OK) {
    gcol_buffer_free(*out_ends);
    *out_ends = NULL;
  }
  return status;
}

}  // namespace

/* The checks of both in-place fills, before anything is written or copied. */
static gcol_status check_fill_in_place(gcol_data_type type, int64_t size, int64_t begin,
                                       int64_t end, const gcol_scalar *value, bool has_mask) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(gcol_type_size(type.id) != 0, GCOL_ERROR_TYPE_MISMATCH,
                    "destination must be fixed-width to fill in place, not %s",
                    gcol_type_name(type.id));
  GCOL_DETAIL_TRY(check_value(type, value));
  GCOL_DETAIL_TRY(check_range(size, begin, end));
  /* An empty range changes nothing, so it needs no mask even for a null value. */
  GCOL_DETAIL_CHECK(end == begin || value->is_valid || has_mask, GCOL_ERROR_INVALID_ARGUMENT,
                    "value is null but destination has no null mask (range [%lld, %lld))",
                    (long long)begin, (long long)end);
done:
  return status;
}

static gcol_status fill_view_in_place(gcol_mutable_column_view *destination, int64_t begin,
                                      int64_t end, const gcol_scalar *value, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t old_nulls = 0;
  size_t width = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(destination);
  GCOL_DETAIL_TRY(check_fill_in_place(destination->type, destination->size, begin, end, value,
                                      destination->null_mask != NULL));
  width = gcol_type_size(destination->type.id);
  GCOL_DETAIL_CHECK(destination->data != NULL || destination->size == 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "destination->data is NULL");
  if (end == begin) goto done;
  if (value->is_valid) {
    launch_fill_width(width,
                      (char *)destination->data + (destination->offset + begin) * (int64_t)width,
                      end - begin, gcol_scalar_get_storage(value), (cudaStream_t)stream);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (destination->null_mask == NULL) goto done;
  GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits(destination->null_mask, destination->offset + begin,
                                                destination->offset + end, stream, &old_nulls));
  GCOL_DETAIL_TRY(gcol_bitmask_set_range(destination->null_mask, destination->offset + begin,
                                         destination->offset + end, value->is_valid, stream));
  if (destination->null_count != GCOL_UNKNOWN_NULL_COUNT) {
    destination->null_count += (value->is_valid ? 0 : end - begin) - old_nulls;
  }
done:
  return status;
}

extern "C" gcol_status gcol_fill_in_place_view(gcol_mutable_column_view *destination, int64_t begin,
                                               int64_t end, const gcol_scalar *value,
                                               gcol_stream stream) {
  GCOL_DETAIL_NVTX_PUSH("gcol_fill_in_place_view");
  gcol_status const status = fill_view_in_place(destination, begin, end, value, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status fill_column_in_place(gcol_column *destination, int64_t begin, int64_t end,
                                        const gcol_scalar *value, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_mutable_column_view mv;
  GCOL_DETAIL_CHECK_NOT_NULL(destination);
  /* Checked before the mutable view, which would copy a shared buffer for nothing. */
  GCOL_DETAIL_TRY(check_fill_in_place(destination->type, destination->size, begin, end, value,
                                      destination->null_mask != NULL));
  if (end == begin) goto done;
  GCOL_DETAIL_TRY(gcol_column_get_mutable_view(destination, stream, &mv));
  GCOL_DETAIL_TRY(fill_view_in_place(&mv, begin, end, value, stream));
  GCOL_DETAIL_TRY(gcol_column_set_null_count(destination, mv.null_count));
done:
  return status;
}

extern "C" gcol_status gcol_fill_in_place(gcol_column *destination, int64_t begin, int64_t end,
                                          const gcol_scalar *value, gcol_stream stream) {
  GCOL_DETAIL_NVTX_PUSH("gcol_fill_in_place");
  gcol_status const status = fill_column_in_place(destination, begin, end, value, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_fill(gcol_column_view input, int64_t begin, int64_t end,
                                 const gcol_scalar *value, gcol_column **out, gcol_stream stream,
                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_fill");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_TRY(check_value(input.type, value));
  GCOL_DETAIL_TRY(check_range(input.size, begin, end));
  if (gcol_type_is_fixed_width(input.type.id)) {
    status = fill_fixed_copy(input, begin, end, value, out, stream, mr);
  } else if (input.type.id == GCOL_STRING) {
    status = input.size == 0 ? gcol_column_empty_like(input, stream, mr, out)
                             : fill_strings_copy(input, begin, end, value, out, stream, mr);
  } else {
    GCOL_DETAIL_FAIL(GCOL_ERROR_UNSUPPORTED, "fill of a %s column", gcol_type_name(input.type.id));
  }
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_sequence(int64_t size, const gcol_scalar *init, const gcol_scalar *step,
                                     gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_sequence");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(init);
  GCOL_DETAIL_CHECK_NOT_NULL(step);
  GCOL_DETAIL_CHECK(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                    (long long)size);
  GCOL_DETAIL_CHECK(gcol_type_is_integral(init->type.id) || gcol_type_is_floating(init->type.id),
                    GCOL_ERROR_TYPE_MISMATCH, "init is %s, not an integer or float type",
                    gcol_type_name(init->type.id));
  GCOL_DETAIL_CHECK(gcol_data_type_equal(init->type, step->type), GCOL_ERROR_TYPE_MISMATCH,
                    "step is %s, init %s", gcol_type_name(step->type.id),
                    gcol_type_name(init->type.id));
  GCOL_DETAIL_CHECK(init->is_valid, GCOL_ERROR_INVALID_ARGUMENT, "init is null");
  GCOL_DETAIL_CHECK(step->is_valid, GCOL_ERROR_INVALID_ARGUMENT, "step is null");
  GCOL_DETAIL_TRY(gcol_column_create(init->type, size, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (size > 0) GCOL_DETAIL_TRY(launch_sequence(col, init, step, (cudaStream_t)stream));
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_repeat(gcol_table_view input, gcol_column_view counts, gcol_table **out,
                                   gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *ends = NULL, *map = NULL;
  int64_t total = 0, count_nulls = 0;
  int64_t const n = input.num_rows;
  GCOL_DETAIL_NVTX_PUSH("gcol_repeat");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_validate_table(input, "input"));
  GCOL_DETAIL_TRY(gcol_column_view_validate(counts, "counts"));
  GCOL_DETAIL_CHECK(gcol_type_is_integral(counts.type.id), GCOL_ERROR_TYPE_MISMATCH,
                    "counts must have an integer type, not %s", gcol_type_name(counts.type.id));
  GCOL_DETAIL_CHECK(counts.size == n, GCOL_ERROR_SIZE_MISMATCH, "counts has %lld rows, input %lld",
                    (long long)counts.size, (long long)n);
  GCOL_DETAIL_TRY(gcol_column_view_null_count(counts, stream, &count_nulls));
  GCOL_DETAIL_CHECK(count_nulls == 0, GCOL_ERROR_INVALID_ARGUMENT, "counts has %lld nulls",
                    (long long)count_nulls);
  if (n > 0) GCOL_DETAIL_TRY(repeat_offsets(counts, n, stream, &ends, &total));
  GCOL_DETAIL_CHECK(total <= INT64_MAX / (int64_t)sizeof(int64_t), GCOL_ERROR_OVERFLOW,
                    "%lld output rows are too many for a row map", (long long)total);
  if (total > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total * sizeof(int64_t), stream, NULL, &map));
    repeat_map_kernel<<<gcol_detail_grid_size(total, GCOL_DETAIL_BLOCK_SIZE),
                        GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        (const int64_t *)ends->data, n, total, (int64_t *)map->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_gather_table(input, map == NULL ? NULL : (const int64_t *)map->data,
                                           total, false, stream, mr, out));
done:
  gcol_buffer_free(ends);
  gcol_buffer_free(map);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_repeat_scalar(gcol_table_view input, int64_t count, gcol_table **out,
                                          gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *map = NULL;
  int64_t total = 0;
  int64_t const n = input.num_rows;
  GCOL_DETAIL_NVTX_PUSH("gcol_repeat_scalar");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_validate_table(input, "input"));
  GCOL_DETAIL_CHECK(count >= 0, GCOL_ERROR_INVALID_ARGUMENT, "count is negative (%lld)",
                    (long long)count);
  GCOL_DETAIL_CHECK(count == 0 || n <= INT64_MAX / count, GCOL_ERROR_OVERFLOW,
                    "%lld rows repeated %lld times pass INT64_MAX", (long long)n, (long long)count);
  total = n * count;
  GCOL_DETAIL_CHECK(total <= INT64_MAX / (int64_t)sizeof(int64_t), GCOL_ERROR_OVERFLOW,
                    "%lld output rows are too many for a row map", (long long)total);
  if (total > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total * sizeof(int64_t), stream, NULL, &map));
    repeat_scalar_map_kernel<<<gcol_detail_grid_size(total, GCOL_DETAIL_BLOCK_SIZE),
                               GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        total, count, (int64_t *)map->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_gather_table(input, map == NULL ? NULL : (const int64_t *)map->data,
                                           total, false, stream, mr, out));
done:
  gcol_buffer_free(map);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
