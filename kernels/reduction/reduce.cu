/*
 * Whole-column reductions to a host scalar (gcol_reduce). Every family runs one
 * cub::DeviceReduce::Reduce over a transform iterator (row index -> accumulator value, nulls
 * -> identity); no-null 64-bit integer and double sums call cub::DeviceReduce::Sum on the
 * raw pointer, the same code as the peer. The accumulator comes back with one
 * device-to-host copy and is finished (decoded, divided, rounded) on the host by the same
 * functions the segmented kernels use on the device.
 */
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common.cuh"
#include "gcol/reduction.h"
#include "gcol/scalar.h"
#include "gcol/string_view.h"
#include "detail/aggregate_ops.cuh"

/* Bytes kept before CUB's temporary storage for the result (keeps it 256-byte aligned). */
#define GCOL_DETAIL_RESULT_SLOT 256

/* Runs one device-wide reduction and copies its result to *host_result (synchronizes). */
template <class InputIt, class Op, class Acc>
static gcol_status reduce_to_host(InputIt input, int64_t n, Op op, Acc init, Acc *host_result,
                                  cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *scratch = NULL;
  size_t temp_bytes = 0;
  GCOL_DETAIL_CUDA_TRY(
      cub::DeviceReduce::Reduce(NULL, temp_bytes, input, (Acc *)NULL, n, op, init, stream));
  GCOL_DETAIL_TRY(gcol_buffer_create(GCOL_DETAIL_RESULT_SLOT + temp_bytes, stream, NULL, &scratch));
  {
    Acc *device_result = (Acc *)scratch->data;
    void *temp = (char *)scratch->data + GCOL_DETAIL_RESULT_SLOT;
    GCOL_DETAIL_CUDA_TRY(
        cub::DeviceReduce::Reduce(temp, temp_bytes, input, device_result, n, op, init, stream));
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host_result, device_result, sizeof(Acc),
                                         cudaMemcpyDeviceToHost, stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(stream));
  }
done:
  gcol_buffer_free(scratch);
  return status;
}

/* The no-null fast path: cub::DeviceReduce::Sum over the raw column (as the peer does). */
template <class T>
static gcol_status sum_raw_to_host(const T *data, int64_t n, T *host_result,
                                   cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *scratch = NULL;
  size_t temp_bytes = 0;
  GCOL_DETAIL_CUDA_TRY(cub::DeviceReduce::Sum(NULL, temp_bytes, data, (T *)NULL, n, stream));
  GCOL_DETAIL_TRY(gcol_buffer_create(GCOL_DETAIL_RESULT_SLOT + temp_bytes, stream, NULL, &scratch));
  {
    T *device_result = (T *)scratch->data;
    void *temp = (char *)scratch->data + GCOL_DETAIL_RESULT_SLOT;
    GCOL_DETAIL_CUDA_TRY(cub::DeviceReduce::Sum(temp, temp_bytes, data, device_result, n, stream));
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(host_result, device_result, sizeof(T), cudaMemcpyDeviceToHost, stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(stream));
  }
done:
  gcol_buffer_free(scratch);
  return status;
}

template <class Row>
static thrust::transform_iterator<Row, thrust::counting_iterator<int64_t>> rows_of(Row row) {
  return thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), row);
}

/* Integer sums, products and min/max/any/all: one uint64 accumulator. */
static gcol_status reduce_u64(gcol_detail_reduce_plan plan, gcol_detail_reader reader, int64_t n,
                              uint64_t *acc, cudaStream_t stream) {
  if (plan.family == GCOL_DETAIL_FAMILY_U64_PLUS && plan.map_mode == GCOL_DETAIL_MAP_BITS &&
      reader.mask == NULL && reader.width == 8) {
    /* Wrapping addition is the same for signed and unsigned 64-bit words. */
    return sum_raw_to_host((const uint64_t *)reader.data, n, acc, stream);
  }
  gcol_detail_row_u64 row;
  row.reader = reader;
  row.mode = plan.map_mode;
  row.identity = gcol_detail_u64_identity(plan.family);
  switch (plan.family) {
    case GCOL_DETAIL_FAMILY_U64_PLUS:
      return reduce_to_host(rows_of(row), n, gcol_detail_plus_u64(), (uint64_t)0, acc, stream);
    case GCOL_DETAIL_FAMILY_U64_TIMES:
      return reduce_to_host(rows_of(row), n, gcol_detail_times_u64(), (uint64_t)1, acc, stream);
    default:
      return reduce_to_host(rows_of(row), n, gcol_detail_max_u64(), (uint64_t)0, acc, stream);
  }
}

/* Float sums and products in double. */
static gcol_status reduce_f64(gcol_detail_reduce_plan plan, gcol_detail_reader reader, int64_t n,
                              double *acc, cudaStream_t stream) {
  bool const times = plan.family == GCOL_DETAIL_FAMILY_F64_TIMES;
  if (!times && plan.map_mode == GCOL_DETAIL_MAP_VALUE && reader.mask == NULL && reader.width == 8) {
    return sum_raw_to_host((const double *)reader.data, n, acc, stream);
  }
  gcol_detail_row_f64 row;
  row.reader = reader;
  row.mode = plan.map_mode;
  row.identity = times ? 1.0 : 0.0;
  if (times) return reduce_to_host(rows_of(row), n, gcol_detail_times_f64(), 1.0, acc, stream);
  return reduce_to_host(rows_of(row), n, gcol_detail_plus_f64(), 0.0, acc, stream);
}

/* Runs the plan's family and finishes the result into storage bits; *valid false: null. */
static gcol_status reduce_fixed_width(gcol_detail_reduce_plan plan, gcol_detail_reader reader,
                                      int64_t n, int64_t valid_count, uint64_t *bits, bool *valid,
                                      cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  switch (plan.family) {
    case GCOL_DETAIL_FAMILY_F64_PLUS:
    case GCOL_DETAIL_FAMILY_F64_TIMES: {
      double acc = 0;
      GCOL_DETAIL_TRY(reduce_f64(plan, reader, n, &acc, stream));
      *valid = gcol_detail_finish_f64(plan, acc, valid_count, bits);
      break;
    }
    case GCOL_DETAIL_FAMILY_MOMENTS: {
      gcol_detail_row_moments row;
      row.reader = reader;
      gcol_detail_moments acc = gcol_detail_moments_make(0, 0, 0);
      GCOL_DETAIL_TRY(reduce_to_host(rows_of(row), n, gcol_detail_merge_moments(),
                                     gcol_detail_moments_make(0, 0, 0), &acc, stream));
      *valid = gcol_detail_finish_moments(plan, acc, bits);
      break;
    }
    case GCOL_DETAIL_FAMILY_KEY_INDEX: {
      gcol_detail_row_key_index row;
      row.reader = reader;
      row.mode = plan.map_mode;
      gcol_detail_key_index init;
      init.key = 0;
      init.index = GCOL_DETAIL_NO_INDEX;
      gcol_detail_key_index acc = init;
      GCOL_DETAIL_TRY(reduce_to_host(rows_of(row), n, gcol_detail_max_key_index(), init, &acc,
                                     stream));
      *valid = acc.index != GCOL_DETAIL_NO_INDEX;
      *bits = (uint64_t)acc.index;
      break;
    }
    default: {
      uint64_t acc = 0;
      GCOL_DETAIL_TRY(reduce_u64(plan, reader, n, &acc, stream));
      *valid = gcol_detail_finish_u64(plan, acc, valid_count, bits);
      break;
    }
  }
done:
  return status;
}

/* Strings min/max/argmin/argmax: a reduction over row indices (-1 for nulls) that keeps the
 * smaller (or larger) string, the first row on ties. */
typedef struct string_row {
  gcol_strings_view strings;
  __host__ __device__ int64_t operator()(int64_t i) const {
    return gcol_strings_view_is_valid(strings, i) ? i : -1;
  }
} string_row;

typedef struct string_pick {
  gcol_strings_view strings;
  bool want_max;
  __host__ __device__ int64_t operator()(int64_t a, int64_t b) const {
    if (a < 0) return b;
    if (b < 0) return a;
    int const cmp = gcol_string_ref_compare(gcol_strings_view_get(strings, a),
                                            gcol_strings_view_get(strings, b));
    if (cmp == 0) return a < b ? a : b;
    return (cmp > 0) == want_max ? a : b;
  }
} string_pick;

/* Copies row `row` of a strings view to a new host STRING scalar (synchronizes). */
static gcol_status string_scalar_from_row(gcol_strings_view strings, int64_t row,
                                          gcol_scalar **out, cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  char *bytes = NULL;
  int64_t bounds[2] = {0, 0};
  size_t const width = (size_t)strings.offsets.width;
  for (int k = 0; k < 2; ++k) {
    int64_t value = 0; /* the low `width` bytes hold an INT32 offset (little-endian) */
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&value, (const char *)strings.offsets.data + (row + k) * width,
                                         width, cudaMemcpyDeviceToHost, stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(stream));
    bounds[k] = width == 4 ? (int64_t)(int32_t)value : value;
  }
  {
    int64_t const size = bounds[1] - bounds[0];
    bytes = (char *)malloc(size > 0 ? (size_t)size : 1);
    GCOL_DETAIL_CHECK(bytes != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %lld bytes",
                      (long long)size);
    if (size > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(bytes, strings.chars + bounds[0], (size_t)size,
                                           cudaMemcpyDeviceToHost, stream));
      GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(stream));
    }
    GCOL_DETAIL_TRY(gcol_scalar_create_string(bytes, size, out));
  }
done:
  free(bytes);
  return status;
}

static gcol_status reduce_strings(gcol_column_view input, gcol_reduce_op op, gcol_scalar **out,
                                  cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  gcol_strings_view strings;
  GCOL_DETAIL_TRY(gcol_strings_view_make(input, &strings));
  if (input.null_count == 0) strings.null_mask = NULL;
  {
    string_row row;
    row.strings = strings;
    string_pick pick;
    pick.strings = strings;
    pick.want_max = op == GCOL_REDUCE_MAX || op == GCOL_REDUCE_ARGMAX;
    int64_t best = -1;
    GCOL_DETAIL_TRY(reduce_to_host(rows_of(row), input.size, pick, (int64_t)-1, &best, stream));
    GCOL_DETAIL_CHECK(best >= 0 && best < input.size, GCOL_ERROR_INTERNAL,
                      "strings reduction found no row (%lld) among valid rows", (long long)best);
    if (op == GCOL_REDUCE_ARGMIN || op == GCOL_REDUCE_ARGMAX) {
      GCOL_DETAIL_TRY(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), best, out));
    } else {
      GCOL_DETAIL_TRY(string_scalar_from_row(strings, best, out, stream));
    }
  }
done:
  return status;
}

/* The scalar of a fixed-width result: storage bits of out_type, or null. */
static gcol_status scalar_from_bits(gcol_data_type out_type, bool valid, uint64_t bits,
                                    gcol_scalar **out) {
  if (!valid) return gcol_scalar_create_null(out_type, out);
  gcol_scalar_value value;
  memset(&value, 0, sizeof value);
  memcpy(&value, &bits, gcol_type_size(out_type.id)); /* little-endian: the low bytes */
  return gcol_scalar_create_from_storage(out_type, &value, out);
}

static gcol_status check_reduce_args(gcol_column_view input, gcol_reduce_op op,
                                     const gcol_reduce_options *options, gcol_data_type *out_type) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(options == NULL || options->ddof >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "options->ddof is negative (%d)", options == NULL ? 0 : (int)options->ddof);
  GCOL_DETAIL_TRY(gcol_reduce_output_type(input.type, op, out_type)); /* the specific error first */
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
done:
  return status;
}

extern "C" gcol_status gcol_reduce(gcol_column_view input, gcol_reduce_op op,
                                   const gcol_reduce_options *options, gcol_scalar **out,
                                   gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_data_type out_type = gcol_data_type_make(GCOL_EMPTY);
  int64_t null_count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_reduce");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_reduce_args(input, op, options, &out_type));
  if (op == GCOL_REDUCE_COUNT_ALL) {
    GCOL_DETAIL_TRY(gcol_scalar_create_int(out_type, input.size, out));
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_column_view_null_count(input, stream, &null_count));
  input.null_count = null_count;
  if (op == GCOL_REDUCE_COUNT_VALID) {
    GCOL_DETAIL_TRY(gcol_scalar_create_int(out_type, input.size - null_count, out));
    goto done;
  }
  if (input.size - null_count == 0) { /* nothing valid: a null result, no kernel */
    GCOL_DETAIL_TRY(gcol_scalar_create_null(out_type, out));
    goto done;
  }
  if (input.type.id == GCOL_STRING) {
    GCOL_DETAIL_TRY(reduce_strings(input, op, out, s));
    goto done;
  }
  {
    gcol_detail_reduce_plan const plan = gcol_detail_reduce_plan_make(
        input.type.id, (int32_t)op, out_type.id, options == NULL ? 1 : options->ddof);
    gcol_detail_reader reader = gcol_detail_reader_make(input);
    if (null_count == 0) reader.mask = NULL; /* the no-null path checks no bit */
    uint64_t bits = 0;
    bool valid = false;
    GCOL_DETAIL_TRY(
        reduce_fixed_width(plan, reader, input.size, input.size - null_count, &bits, &valid, s));
    GCOL_DETAIL_TRY(scalar_from_bits(out_type, valid, bits, out));
  }
done:
  if (status != GCOL_OK && out != NULL && *out != NULL) {
    gcol_scalar_free(*out);
    *out = NULL;
  }
  GCOL_DETAIL_NVTX_POP();
  return status;
}
