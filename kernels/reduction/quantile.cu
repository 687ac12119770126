/*
 * Quantiles (gcol_quantiles, gcol_quantile). The valid values are turned into
 * order-preserving uint64 keys (nulls into the largest key), sorted once with
 * cub::DeviceRadixSort::SortKeys (one instantiation for every input type), and each q is
 * read from the first `valid` sorted keys. Why nulls may share the largest key with valid
 * values (UINT64_MAX, or NaN): sorted keys are decoded by value, not by origin, so the
 * first `valid` positions hold exactly the sorted valid values whatever ties with nulls.
 */
#include <cub/device/device_radix_sort.cuh>

#include "common.cuh"
#include "gcol/reduction.h"
#include "gcol/scalar.h"
#include "detail/aggregate.h"

static __global__ void make_keys_kernel(gcol_detail_reader reader, int64_t n, uint64_t *keys) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    keys[i] = gcol_detail_reader_valid(reader, i) ? gcol_detail_reader_key(reader, i) : ~0ull;
  }
}

static __global__ void select_kernel(const uint64_t *sorted_keys, int64_t valid,
                                     const double *q, int64_t num_q, int32_t interp, int32_t kind,
                                     int32_t in_width, int32_t out_width, void *out) {
  GCOL_DETAIL_GRID_LOOP(j, num_q) {
    uint64_t const bits = gcol_detail_quantile_bits(sorted_keys, valid, q[j], interp, kind, in_width);
    gcol_detail_store_bits(out, j, out_width, bits);
  }
}

/* Byte offsets of the pieces carved from one scratch allocation (256-byte aligned). */
typedef struct quantile_scratch {
  size_t keys_in, keys_out, q, temp, total, temp_bytes;
} quantile_scratch;

static size_t align_up(size_t bytes) { return (bytes + 255) / 256 * 256; }

static gcol_status plan_scratch(int64_t n, int64_t num_q, cudaStream_t stream,
                                quantile_scratch *s) {
  gcol_status status = GCOL_OK;
  size_t temp_bytes = 0;
  GCOL_DETAIL_CUDA_TRY(cub::DeviceRadixSort::SortKeys(NULL, temp_bytes, (const uint64_t *)NULL,
                                                      (uint64_t *)NULL, n, 0, 64, stream));
  s->temp_bytes = temp_bytes;
  s->keys_in = 0;
  s->keys_out = align_up((size_t)n * sizeof(uint64_t));
  s->q = s->keys_out + align_up((size_t)n * sizeof(uint64_t));
  s->temp = s->q + align_up((size_t)num_q * sizeof(double));
  s->total = s->temp + temp_bytes;
done:
  return status;
}

/* Sorts the keys and writes the num_q results into out_data (valid > 0). */
static gcol_status compute_quantiles(gcol_column_view input, int64_t valid, const double *q,
                                     int64_t num_q, gcol_interpolation interp,
                                     gcol_data_type out_type, void *out_data,
                                     cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *scratch = NULL;
  quantile_scratch s;
  memset(&s, 0, sizeof s);
  int64_t const n = input.size;
  gcol_detail_reader reader = gcol_detail_reader_make(input);
  if (input.null_count == 0) reader.mask = NULL;
  GCOL_DETAIL_TRY(plan_scratch(n, num_q, stream, &s));
  GCOL_DETAIL_TRY(gcol_buffer_create(s.total, stream, NULL, &scratch));
  {
    char *base = (char *)scratch->data;
    uint64_t *keys_in = (uint64_t *)(base + s.keys_in);
    uint64_t *keys_out = (uint64_t *)(base + s.keys_out);
    double *device_q = (double *)(base + s.q);
    size_t temp_bytes = s.temp_bytes;
    make_keys_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                       stream>>>(reader, n, keys_in);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(cub::DeviceRadixSort::SortKeys(base + s.temp, temp_bytes, keys_in,
                                                        keys_out, n, 0, 64, stream));
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(device_q, q, (size_t)num_q * sizeof(double),
                                         cudaMemcpyHostToDevice, stream));
    select_kernel<<<gcol_detail_grid_size(num_q, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                    0, stream>>>(keys_out, valid, device_q, num_q, (int32_t)interp,
                                 gcol_detail_kind_of(input.type.id),
                                 (int32_t)gcol_type_size(input.type.id),
                                 (int32_t)gcol_type_size(out_type.id), out_data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  gcol_buffer_free(scratch); /* stream-ordered: freed after the kernels that use it */
  return status;
}

static gcol_status check_quantile_args(gcol_column_view input, const double *q, int64_t num_q,
                                       gcol_interpolation interp, gcol_data_type *out_type) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(num_q >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_q is negative (%lld)",
                    (long long)num_q);
  GCOL_DETAIL_CHECK(q != NULL || num_q == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "q is NULL with num_q %lld", (long long)num_q);
  for (int64_t j = 0; j < num_q; ++j) {
    GCOL_DETAIL_CHECK(q[j] >= 0.0 && q[j] <= 1.0, GCOL_ERROR_INVALID_ARGUMENT,
                      "q[%lld] = %g is not in [0, 1]", (long long)j, q[j]);
  }
  GCOL_DETAIL_TRY(gcol_quantile_output_type(input.type, interp, out_type));
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
done:
  return status;
}

extern "C" gcol_status gcol_quantiles(gcol_column_view input, const double *q, int64_t num_q,
                                      gcol_interpolation interp, gcol_column **out,
                                      gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *column = NULL;
  gcol_data_type out_type = gcol_data_type_make(GCOL_EMPTY);
  int64_t null_count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_quantiles");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_quantile_args(input, q, num_q, interp, &out_type));
  GCOL_DETAIL_TRY(gcol_column_view_null_count(input, stream, &null_count));
  input.null_count = null_count;
  {
    int64_t const valid = input.size - null_count;
    GCOL_DETAIL_TRY(gcol_column_create(out_type, num_q,
                                       valid == 0 && num_q > 0 ? GCOL_MASK_ALL_NULL
                                                               : GCOL_MASK_UNALLOCATED,
                                       stream, mr, &column));
    if (valid > 0 && num_q > 0) {
      GCOL_DETAIL_TRY(compute_quantiles(input, valid, q, num_q, interp, out_type,
                                        column->data->data, (cudaStream_t)stream));
    }
  }
done:
  if (status == GCOL_OK) {
    *out = column;
  } else {
    gcol_column_free(column);
  }
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_quantile(gcol_column_view input, double q, gcol_interpolation interp,
                                     gcol_scalar **out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_column *column = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_quantile");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_quantiles(input, &q, 1, interp, &column, stream, NULL));
  if (column->null_count > 0) {
    GCOL_DETAIL_TRY(gcol_scalar_create_null(column->type, out));
  } else {
    gcol_scalar_value value;
    memset(&value, 0, sizeof value);
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&value, column->data->data, gcol_type_size(column->type.id),
                                         cudaMemcpyDeviceToHost, (cudaStream_t)stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
    GCOL_DETAIL_TRY(gcol_scalar_create_from_storage(column->type, &value, out));
  }
done:
  gcol_column_free(column);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
