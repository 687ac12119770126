/*
 * Scans (gcol_scan): cub::DeviceScan over a transform iterator (row -> 64-bit accumulator
 * value, nulls -> identity) into a tabulate output iterator that writes each result in the
 * output's storage width. Integer sums and products run in uint64 (wrapping arithmetic
 * truncated to the width equals the narrow arithmetic), min and max on order-preserving
 * keys (min as the max of complemented keys), floats in double. The no-null 64-bit integer
 * sum calls cub::DeviceScan::InclusiveSum/ExclusiveSum on raw pointers, as the peer does.
 */
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common.cuh"
#include "gcol/bitmask.h"
#include "gcol/scan.h"
#include "detail/aggregate_ops.cuh"

/* What a scan accumulates and how it writes: computed on the host from op and type. */
typedef struct scan_plan {
  int32_t family;   /* gcol_detail_family: U64_PLUS, U64_TIMES, U64_MAX, F64_PLUS, F64_TIMES */
  int32_t map_mode; /* gcol_detail_map_mode */
  int32_t kind;     /* gcol_detail_kind of the input (and output) */
  int32_t width;    /* bytes of the input (and output) */
  uint64_t identity_u64;
  double identity_f64;
} scan_plan;

static scan_plan scan_plan_make(gcol_type_id id, gcol_scan_op op) {
  scan_plan p;
  bool const is_float = gcol_type_is_floating(id);
  p.kind = gcol_detail_kind_of(id);
  p.width = (int32_t)gcol_type_size(id);
  p.identity_f64 = 0.0;
  p.identity_u64 = 0;
  switch (op) {
    case GCOL_SCAN_SUM:
      p.family = is_float ? GCOL_DETAIL_FAMILY_F64_PLUS : GCOL_DETAIL_FAMILY_U64_PLUS;
      p.map_mode = is_float ? GCOL_DETAIL_MAP_VALUE : GCOL_DETAIL_MAP_BITS;
      break;
    case GCOL_SCAN_PRODUCT:
      p.family = is_float ? GCOL_DETAIL_FAMILY_F64_TIMES : GCOL_DETAIL_FAMILY_U64_TIMES;
      p.map_mode = is_float ? GCOL_DETAIL_MAP_VALUE : GCOL_DETAIL_MAP_BITS;
      p.identity_f64 = 1.0;
      p.identity_u64 = 1;
      break;
    case GCOL_SCAN_MIN: /* max of ~key; its identity is ~(key of the type's largest value) */
      p.family = GCOL_DETAIL_FAMILY_U64_MAX;
      p.map_mode = GCOL_DETAIL_MAP_KEY_COMPLEMENT;
      p.identity_u64 = ~gcol_detail_key_of_extreme(p.kind, p.width, true);
      break;
    default: /* MAX */
      p.family = GCOL_DETAIL_FAMILY_U64_MAX;
      p.map_mode = GCOL_DETAIL_MAP_KEY;
      p.identity_u64 = gcol_detail_key_of_extreme(p.kind, p.width, false);
      break;
  }
  return p;
}

/* Writes a uint64 accumulator as element i of the output. */
typedef struct write_u64 {
  void *data;
  int32_t map_mode;
  int32_t kind;
  int32_t width;
  __host__ __device__ void operator()(ptrdiff_t i, uint64_t acc) const {
    uint64_t bits = acc;
    if (map_mode == GCOL_DETAIL_MAP_KEY) bits = gcol_detail_storage_from_key(acc, kind, width);
    if (map_mode == GCOL_DETAIL_MAP_KEY_COMPLEMENT) {
      bits = gcol_detail_storage_from_key(~acc, kind, width);
    }
    gcol_detail_store_bits(data, (int64_t)i, width, bits);
  }
} write_u64;

/* Writes a double accumulator as a float or double element. Sums add +0.0 first: a sum
 * starts from the identity +0.0 (scan.h), and +0.0 + x differs from x only for x = -0.0,
 * which a running sum that starts from +0.0 never is. CUB's inclusive scan starts from
 * x[0] instead (a lone -0.0 would stay -0.0), so this one addition gives exactly the
 * documented result; products need nothing (1.0 * x == x). */
typedef struct write_f64 {
  void *data;
  int32_t width;
  bool plus_zero;
  __host__ __device__ void operator()(ptrdiff_t i, double acc) const {
    double const value = plus_zero ? acc + 0.0 : acc;
    gcol_detail_store_bits(data, (int64_t)i, width, gcol_detail_storage_from_f64(value, width));
  }
} write_f64;

/* One device-wide scan with the two-phase temporary storage call. */
template <class InputIt, class OutputIt, class Op, class Acc>
static gcol_status run_scan(InputIt input, OutputIt output, Op op, Acc init, bool exclusive,
                            int64_t n, cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t temp_bytes = 0;
  if (exclusive) {
    GCOL_DETAIL_CUDA_TRY(
        cub::DeviceScan::ExclusiveScan(NULL, temp_bytes, input, output, op, init, n, stream));
  } else {
    GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::InclusiveScan(NULL, temp_bytes, input, output, op, n, stream));
  }
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  if (exclusive) {
    GCOL_DETAIL_CUDA_TRY(
        cub::DeviceScan::ExclusiveScan(temp->data, temp_bytes, input, output, op, init, n, stream));
  } else {
    GCOL_DETAIL_CUDA_TRY(
        cub::DeviceScan::InclusiveScan(temp->data, temp_bytes, input, output, op, n, stream));
  }
done:
  gcol_buffer_free(temp); /* stream-ordered: after the scan */
  return status;
}

/* The no-null 64-bit integer sum: the peer's own calls on raw pointers. */
static gcol_status scan_sum_raw(const uint64_t *in, uint64_t *out, bool exclusive, int64_t n,
                                cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *temp = NULL;
  size_t temp_bytes = 0;
  if (exclusive) {
    GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, temp_bytes, in, out, n, stream));
  } else {
    GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::InclusiveSum(NULL, temp_bytes, in, out, n, stream));
  }
  GCOL_DETAIL_TRY(gcol_detail_cub_temp_create(temp_bytes, stream, &temp));
  if (exclusive) {
    GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp->data, temp_bytes, in, out, n, stream));
  } else {
    GCOL_DETAIL_CUDA_TRY(cub::DeviceScan::InclusiveSum(temp->data, temp_bytes, in, out, n, stream));
  }
done:
  gcol_buffer_free(temp);
  return status;
}

template <class Row>
static thrust::transform_iterator<Row, thrust::counting_iterator<int64_t>> rows_of(Row row) {
  return thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), row);
}

static gcol_status scan_values(scan_plan p, gcol_detail_reader reader, void *out, bool exclusive,
                               int64_t n, cudaStream_t stream) {
  if (p.family == GCOL_DETAIL_FAMILY_F64_PLUS || p.family == GCOL_DETAIL_FAMILY_F64_TIMES) {
    gcol_detail_row_f64 row = {reader, p.map_mode, p.identity_f64};
    write_f64 writer = {out, p.width, p.family == GCOL_DETAIL_FAMILY_F64_PLUS};
    auto output = thrust::make_tabulate_output_iterator(writer);
    if (p.family == GCOL_DETAIL_FAMILY_F64_TIMES) {
      return run_scan(rows_of(row), output, gcol_detail_times_f64(), p.identity_f64, exclusive, n,
                      stream);
    }
    return run_scan(rows_of(row), output, gcol_detail_plus_f64(), p.identity_f64, exclusive, n,
                    stream);
  }
  if (p.family == GCOL_DETAIL_FAMILY_U64_PLUS && reader.mask == NULL && p.width == 8) {
    return scan_sum_raw((const uint64_t *)reader.data, (uint64_t *)out, exclusive, n, stream);
  }
  /* nulls map to 0 (sum; max of keys, below every key of the type) or 1 (product) */
  gcol_detail_row_u64 row = {reader, p.map_mode, gcol_detail_u64_identity(p.family)};
  write_u64 writer = {out, p.map_mode, p.kind, p.width};
  auto output = thrust::make_tabulate_output_iterator(writer);
  switch (p.family) {
    case GCOL_DETAIL_FAMILY_U64_PLUS:
      return run_scan(rows_of(row), output, gcol_detail_plus_u64(), p.identity_u64, exclusive, n,
                      stream);
    case GCOL_DETAIL_FAMILY_U64_TIMES:
      return run_scan(rows_of(row), output, gcol_detail_times_u64(), p.identity_u64, exclusive, n,
                      stream);
    default:
      return run_scan(rows_of(row), output, gcol_detail_max_u64(), p.identity_u64, exclusive, n,
                      stream);
  }
}

/* Lowest row in [0, n) whose validity bit (at mask_offset + row) is unset. */
static __global__ void first_null_kernel(const uint32_t *mask, int64_t mask_offset, int64_t n,
                                         unsigned long long *first) {
  int64_t const words = gcol_bit_num_words(n);
  GCOL_DETAIL_GRID_LOOP(w, words) {
    int64_t const begin = mask_offset + w * 32;
    uint32_t const bits = gcol_bits_extract_word(mask, begin, mask_offset + n);
    int64_t const count = n - w * 32 < 32 ? n - w * 32 : 32;
    uint32_t const nulls = ~bits & gcol_bits_low_mask((int)count);
    if (nulls != 0) atomicMin(first, (unsigned long long)(w * 32 + __ffs((int)nulls) - 1));
  }
}

static gcol_status find_first_null(gcol_column_view input, cudaStream_t stream, int64_t *first) {
  gcol_status status = GCOL_OK;
  gcol_buffer *slot = NULL;
  unsigned long long host_first = 0;
  int64_t const words = gcol_bit_num_words(input.size);
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof host_first, stream, NULL, &slot));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(slot->data, 0xFF, sizeof host_first, stream));
  first_null_kernel<<<gcol_detail_grid_size(words, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                      0, stream>>>(input.null_mask, input.offset, input.size,
                                   (unsigned long long *)slot->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&host_first, slot->data, sizeof host_first,
                                       cudaMemcpyDeviceToHost, stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(stream));
  *first = host_first > (unsigned long long)input.size ? input.size : (int64_t)host_first;
done:
  gcol_buffer_free(slot);
  return status;
}

/* Gives `column` the output mask of the null policy (input has nulls). */
static gcol_status set_output_mask(gcol_column_view input, gcol_scan_nulls nulls,
                                   gcol_column *column, cudaStream_t stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  int64_t null_count = input.null_count;
  if (nulls == GCOL_SCAN_NULLS_EXCLUDE) {
    GCOL_DETAIL_TRY(gcol_bitmask_copy(input.null_mask, input.offset, input.offset + input.size,
                                      stream, mr, &mask));
  } else {
    int64_t first = 0;
    GCOL_DETAIL_TRY(find_first_null(input, stream, &first));
    null_count = input.size - first;
    GCOL_DETAIL_TRY(gcol_bitmask_create(input.size, GCOL_MASK_ALL_VALID, stream, mr, &mask));
    GCOL_DETAIL_TRY(gcol_bitmask_set_range((uint32_t *)mask->data, first, input.size, false, stream));
  }
  GCOL_DETAIL_TRY(gcol_column_set_null_mask(column, mask, null_count));
  mask = NULL; /* owned by the column now */
done:
  gcol_buffer_free(mask);
  return status;
}

static gcol_status check_scan_args(gcol_column_view input, gcol_scan_op op, gcol_scan_type type,
                                   gcol_scan_nulls nulls, gcol_data_type *out_type) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(type == GCOL_SCAN_INCLUSIVE || type == GCOL_SCAN_EXCLUSIVE,
                    GCOL_ERROR_INVALID_ARGUMENT, "type is not a gcol_scan_type (%d)", (int)type);
  GCOL_DETAIL_CHECK(nulls == GCOL_SCAN_NULLS_EXCLUDE || nulls == GCOL_SCAN_NULLS_INCLUDE,
                    GCOL_ERROR_INVALID_ARGUMENT, "nulls is not a gcol_scan_nulls (%d)",
                    (int)nulls);
  GCOL_DETAIL_TRY(gcol_scan_output_type(input.type, op, out_type));
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
done:
  return status;
}

extern "C" gcol_status gcol_scan(gcol_column_view input, gcol_scan_op op, gcol_scan_type type,
                                 gcol_scan_nulls nulls, gcol_column **out, gcol_stream stream,
                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_column *column = NULL;
  gcol_data_type out_type = gcol_data_type_make(GCOL_EMPTY);
  int64_t null_count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_scan");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_scan_args(input, op, type, nulls, &out_type));
  GCOL_DETAIL_TRY(gcol_column_create(out_type, input.size, GCOL_MASK_UNALLOCATED, stream, mr,
                                     &column));
  if (input.size == 0) goto done;
  GCOL_DETAIL_TRY(gcol_column_view_null_count(input, stream, &null_count));
  input.null_count = null_count;
  {
    gcol_detail_reader reader = gcol_detail_reader_make(input);
    if (null_count == 0) reader.mask = NULL;
    GCOL_DETAIL_TRY(scan_values(scan_plan_make(input.type.id, op), reader, column->data->data,
                                type == GCOL_SCAN_EXCLUSIVE, input.size, s));
  }
  if (null_count > 0) GCOL_DETAIL_TRY(set_output_mask(input, nulls, column, s, mr));
done:
  if (status == GCOL_OK) {
    *out = column;
  } else {
    gcol_column_free(column);
  }
  GCOL_DETAIL_NVTX_POP();
  return status;
}
