/*
 * Segmented reductions (gcol_segmented_reduce): one thread block per segment, grid-stride
 * over segments. Each thread folds its rows with the same row maps and operators as the
 * whole-column reduction (nulls give the identity), cub::BlockReduce combines the block,
 * and thread 0 finishes the value with the shared finish functions and sets the validity
 * bit. The offsets are clamped to [0, rows] so bad offsets never read out of bounds.
 */
#include <cub/block/block_reduce.cuh>

#include "common.cuh"
#include "gcol/indexalator.h"
#include "gcol/reduction.h"
#include "detail/aggregate_ops.cuh"

#define SEGMENT_BLOCK 256

/* Counts: the value comes from the valid-row count, not from the rows. */
typedef struct row_zero {
  __host__ __device__ uint64_t operator()(int64_t) const { return 0; }
} row_zero;

typedef struct segment_output {
  void *data;                    /* output values */
  uint32_t *mask;                /* output mask (all null at start), or NULL for counts */
  unsigned long long *nulls;     /* device counter of null segments */
  gcol_detail_reduce_plan plan;
} segment_output;

static __device__ bool finish_segment(gcol_detail_reduce_plan p, uint64_t acc, int64_t valid,
                                      int64_t rows, uint64_t *bits) {
  if (p.op == GCOL_REDUCE_COUNT_VALID || p.op == GCOL_REDUCE_COUNT_ALL) {
    *bits = (uint64_t)(p.op == GCOL_REDUCE_COUNT_VALID ? valid : rows);
    return true;
  }
  return gcol_detail_finish_u64(p, acc, valid, bits);
}

static __device__ bool finish_segment(gcol_detail_reduce_plan p, double acc, int64_t valid,
                                      int64_t, uint64_t *bits) {
  return gcol_detail_finish_f64(p, acc, valid, bits);
}

static __device__ bool finish_segment(gcol_detail_reduce_plan p, gcol_detail_moments acc,
                                      int64_t, int64_t, uint64_t *bits) {
  return gcol_detail_finish_moments(p, acc, bits);
}

static __device__ void write_segment(segment_output out, int64_t segment, bool valid,
                                     uint64_t bits) {
  /* A null segment's value is written too (zero): every byte gcol hands out is defined. */
  gcol_detail_store_bits(out.data, segment, out.plan.out_width, valid ? bits : 0);
  if (valid) {
    if (out.mask != NULL) {
      atomicOr(&out.mask[gcol_bit_word_index(segment)], 1u << gcol_bit_in_word(segment));
    }
  } else {
    atomicAdd(out.nulls, 1ull);
  }
}

static __device__ int64_t clamp_offset(int64_t value, int64_t lo, int64_t hi) {
  return value < lo ? lo : (value > hi ? hi : value);
}

template <class Row, class Op, class Acc>
static __global__ void segmented_reduce_smem_kernel(gcol_detail_reader reader, Row row, Op op,
                                               Acc identity, gcol_offsetalator offsets,
                                               int64_t num_segments, int64_t num_rows,
                                               segment_output out) {
  typedef cub::BlockReduce<Acc, SEGMENT_BLOCK> AccReduce;
  typedef cub::BlockReduce<int64_t, SEGMENT_BLOCK> CountReduce;
  __shared__ union {
    typename AccReduce::TempStorage acc;
    typename CountReduce::TempStorage count;
  } temp;
  for (int64_t segment = blockIdx.x; segment < num_segments; segment += gridDim.x) {
    int64_t const begin = clamp_offset(gcol_offsetalator_get(offsets, segment), 0, num_rows);
    int64_t const end = clamp_offset(gcol_offsetalator_get(offsets, segment + 1), begin, num_rows);
    Acc acc = identity;
    int64_t valid = 0;
    for (int64_t i = begin + threadIdx.x; i < end; i += SEGMENT_BLOCK) {
      acc = op(acc, row(i));
      valid += gcol_detail_reader_valid(reader, i) ? 1 : 0;
    }
    Acc const total = AccReduce(temp.acc).Reduce(acc, op);
    __syncthreads();
    int64_t const total_valid = CountReduce(temp.count).Sum(valid);
    __syncthreads();
    if (threadIdx.x == 0) {
      uint64_t bits = 0;
      bool const is_valid = finish_segment(out.plan, total, total_valid, end - begin, &bits);
      write_segment(out, segment, is_valid, bits);
    }
  }
}

template <class Row, class Op, class Acc>
static gcol_status launch(gcol_detail_reader reader, Row row, Op op, Acc identity,
                          gcol_offsetalator offsets, int64_t num_segments, int64_t num_rows,
                          segment_output out, cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  unsigned int const grid = gcol_detail_grid_size(num_segments, 1);
  segmented_reduce_smem_kernel<<<grid, SEGMENT_BLOCK, 0, stream>>>(
      reader, row, op, identity, offsets, num_segments, num_rows, out);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* Picks the row map, operator and accumulator of the plan's family. */
static gcol_status launch_family(gcol_detail_reader reader, gcol_offsetalator offsets,
                                 int64_t num_segments, int64_t num_rows, segment_output out,
                                 cudaStream_t stream) {
  gcol_detail_reduce_plan const p = out.plan;
  switch (p.family) {
    case GCOL_DETAIL_FAMILY_COUNT:
      return launch(reader, row_zero(), gcol_detail_plus_u64(), (uint64_t)0, offsets,
                    num_segments, num_rows, out, stream);
    case GCOL_DETAIL_FAMILY_F64_PLUS:
    case GCOL_DETAIL_FAMILY_F64_TIMES: {
      bool const times = p.family == GCOL_DETAIL_FAMILY_F64_TIMES;
      gcol_detail_row_f64 row = {reader, p.map_mode, times ? 1.0 : 0.0};
      if (times) {
        return launch(reader, row, gcol_detail_times_f64(), 1.0, offsets, num_segments, num_rows,
                      out, stream);
      }
      return launch(reader, row, gcol_detail_plus_f64(), 0.0, offsets, num_segments, num_rows,
                    out, stream);
    }
    case GCOL_DETAIL_FAMILY_MOMENTS: {
      gcol_detail_row_moments row = {reader};
      return launch(reader, row, gcol_detail_merge_moments(), gcol_detail_moments_make(0, 0, 0),
                    offsets, num_segments, num_rows, out, stream);
    }
    default: {
      gcol_detail_row_u64 row = {reader, p.map_mode, gcol_detail_u64_identity(p.family)};
      if (p.family == GCOL_DETAIL_FAMILY_U64_PLUS) {
        return launch(reader, row, gcol_detail_plus_u64(), row.identity, offsets, num_segments,
                      num_rows, out, stream);
      }
      if (p.family == GCOL_DETAIL_FAMILY_U64_TIMES) {
        return launch(reader, row, gcol_detail_times_u64(), row.identity, offsets, num_segments,
                      num_rows, out, stream);
      }
      return launch(reader, row, gcol_detail_max_u64(), row.identity, offsets, num_segments,
                    num_rows, out, stream);
    }
  }
}

static gcol_status check_segmented_args(gcol_column_view input, gcol_column_view offsets,
                                        gcol_reduce_op op, const gcol_reduce_options *options,
                                        gcol_stream stream, gcol_data_type *out_type) {
  gcol_status status = GCOL_OK;
  int64_t offset_nulls = 0;
  GCOL_DETAIL_CHECK(options == NULL || options->ddof >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "options->ddof is negative (%d)", options == NULL ? 0 : (int)options->ddof);
  GCOL_DETAIL_TRY(gcol_reduce_output_type(input.type, op, out_type));
  GCOL_DETAIL_CHECK(op != GCOL_REDUCE_ARGMIN && op != GCOL_REDUCE_ARGMAX,
                    GCOL_ERROR_UNSUPPORTED, "segmented reduction %s is not supported",
                    gcol_reduce_op_name(op));
  GCOL_DETAIL_CHECK(gcol_type_is_fixed_width(input.type.id) || op == GCOL_REDUCE_COUNT_VALID ||
                        op == GCOL_REDUCE_COUNT_ALL,
                    GCOL_ERROR_UNSUPPORTED, "segmented reduction %s of %s is not supported",
                    gcol_reduce_op_name(op), gcol_type_name(input.type.id));
  GCOL_DETAIL_CHECK(offsets.type.id == GCOL_INT32 || offsets.type.id == GCOL_INT64,
                    GCOL_ERROR_TYPE_MISMATCH, "offsets must be INT32 or INT64, not %s",
                    gcol_type_name(offsets.type.id));
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_TRY(gcol_column_view_validate(offsets, "offsets"));
  GCOL_DETAIL_TRY(gcol_column_view_null_count(offsets, stream, &offset_nulls));
  GCOL_DETAIL_CHECK(offset_nulls == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "offsets has %lld nulls; segment bounds cannot be null",
                    (long long)offset_nulls);
done:
  return status;
}

/* Runs the kernel into `column` (mask all null at start, or none for counts) and sets its
 * null count (dropping the mask when no segment is null). */
static gcol_status fill_segments(gcol_column_view input, gcol_column_view offsets,
                                 gcol_detail_reduce_plan plan, gcol_column *column,
                                 int64_t num_segments, cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *counter = NULL;
  unsigned long long nulls = 0;
  gcol_offsetalator offs;
  offs.width = (int32_t)gcol_type_size(offsets.type.id);
  offs.data = (const char *)offsets.data + offsets.offset * (int64_t)offs.width;
  gcol_detail_reader reader = gcol_detail_reader_make(input);
  if (input.null_count == 0) reader.mask = NULL;
  segment_output out;
  out.data = column->data->data;
  out.mask = column->null_mask == NULL ? NULL : (uint32_t *)column->null_mask->data;
  out.plan = plan;
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof nulls, stream, NULL, &counter));
  out.nulls = (unsigned long long *)counter->data;
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(out.nulls, 0, sizeof nulls, stream));
  GCOL_DETAIL_TRY(launch_family(reader, offs, num_segments, input.size, out, stream));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(&nulls, out.nulls, sizeof nulls, cudaMemcpyDeviceToHost, stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(stream));
  if (nulls == 0 && column->null_mask != NULL) {
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(column, NULL, 0));
  } else if (column->null_mask != NULL) {
    GCOL_DETAIL_TRY(gcol_column_set_null_count(column, (int64_t)nulls));
  }
done:
  gcol_buffer_free(counter);
  return status;
}

extern "C" gcol_status gcol_segmented_reduce(gcol_column_view input, gcol_column_view offsets,
                                             gcol_reduce_op op, const gcol_reduce_options *options,
                                             gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *column = NULL;
  gcol_data_type out_type = gcol_data_type_make(GCOL_EMPTY);
  int64_t null_count = 0;
  int64_t num_segments = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_segmented_reduce");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_segmented_args(input, offsets, op, options, stream, &out_type));
  num_segments = offsets.size > 0 ? offsets.size - 1 : 0;
  if (num_segments == 0) {
    GCOL_DETAIL_TRY(gcol_column_create(out_type, 0, GCOL_MASK_UNALLOCATED, stream, mr, &column));
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_column_view_null_count(input, stream, &null_count));
  input.null_count = null_count;
  {
    bool const is_count = op == GCOL_REDUCE_COUNT_VALID || op == GCOL_REDUCE_COUNT_ALL;
    gcol_detail_reduce_plan const plan = gcol_detail_reduce_plan_make(
        input.type.id, (int32_t)op, out_type.id, options == NULL ? 1 : options->ddof);
    GCOL_DETAIL_TRY(gcol_column_create(out_type, num_segments,
                                       is_count ? GCOL_MASK_UNALLOCATED : GCOL_MASK_ALL_NULL,
                                       stream, mr, &column));
    GCOL_DETAIL_TRY(fill_segments(input, offsets, plan, column, num_segments, (cudaStream_t)stream));
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
