/*
 * Unary operations (unaryop.h): one kernel per compute type (double for math, int64 for
 * signed integers and durations, uint64 for unsigned and bit inversion, int128 for
 * decimals), the operator a uniform run-time switch, the input read through the
 * width/kind-erased loader of binaryop/element_io.cuh. is_null / is_valid / is_nan write
 * BOOL8 without a mask.
 */
#include <math.h>

#include "detail/element_io.cuh"
#include "gcol/bitmask.h"
#include "gcol/unaryop.h"
#include "detail/validity.h"

static __device__ double gcol_detail_unary_math(int op, double x) {
  switch (op) {
    case GCOL_UNARY_SIN: return sin(x);
    case GCOL_UNARY_COS: return cos(x);
    case GCOL_UNARY_TAN: return tan(x);
    case GCOL_UNARY_ARCSIN: return asin(x);
    case GCOL_UNARY_ARCCOS: return acos(x);
    case GCOL_UNARY_ARCTAN: return atan(x);
    case GCOL_UNARY_SINH: return sinh(x);
    case GCOL_UNARY_COSH: return cosh(x);
    case GCOL_UNARY_TANH: return tanh(x);
    case GCOL_UNARY_ARCSINH: return asinh(x);
    case GCOL_UNARY_ARCCOSH: return acosh(x);
    case GCOL_UNARY_ARCTANH: return atanh(x);
    case GCOL_UNARY_EXP: return exp(x);
    case GCOL_UNARY_LOG: return log(x);
    case GCOL_UNARY_SQRT: return sqrt(x);
    case GCOL_UNARY_CBRT: return cbrt(x);
    case GCOL_UNARY_CEIL: return ceil(x);
    case GCOL_UNARY_FLOOR: return floor(x);
    case GCOL_UNARY_RINT: return rint(x);
    case GCOL_UNARY_ABS: return fabs(x);
    case GCOL_UNARY_NEGATE: return -x;
    default: return x == 0.0 ? 1.0 : 0.0; /* NOT */
  }
}

template <typename C, typename U>
static __device__ C gcol_detail_unary_int(int op, C x) {
  switch (op) {
    case GCOL_UNARY_ABS: return gcol_detail_is_negative(x) ? (C)((U)0 - (U)x) : x;
    case GCOL_UNARY_NEGATE: return (C)((U)0 - (U)x);
    case GCOL_UNARY_BIT_INVERT: return (C)~(U)x;
    default: return x == 0 ? (C)1 : (C)0; /* NOT */
  }
}

static __device__ __forceinline__ double gcol_detail_unary_apply(int op, double x) {
  return gcol_detail_unary_math(op, x);
}
static __device__ __forceinline__ int64_t gcol_detail_unary_apply(int op, int64_t x) {
  return gcol_detail_unary_int<int64_t, uint64_t>(op, x);
}
static __device__ __forceinline__ uint64_t gcol_detail_unary_apply(int op, uint64_t x) {
  /* ABS of an unsigned value is itself; NEGATE is rejected for unsigned types. */
  return op == GCOL_UNARY_ABS ? x : gcol_detail_unary_int<uint64_t, uint64_t>(op, x);
}
static __device__ __forceinline__ gcol_detail_i128 gcol_detail_unary_apply(int op, gcol_detail_i128 x) {
  return gcol_detail_unary_int<gcol_detail_i128, gcol_detail_u128>(op, x);
}

template <typename C>
__global__ void gcol_detail_unary_kernel(gcol_detail_operand in, gcol_detail_result out, int op,
                                         int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    gcol_detail_store(out, i, gcol_detail_unary_apply(op, gcol_detail_operand_get<C>(in, i)));
  }
}

static gcol_status launch_unary(gcol_detail_operand in, gcol_detail_result res, int op,
                                int64_t n, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  switch (in.kind) {
    case GCOL_DETAIL_KIND_FLOAT:
      gcol_detail_unary_kernel<double><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(in, res, op, n);
      break;
    case GCOL_DETAIL_KIND_INT128:
      gcol_detail_unary_kernel<gcol_detail_i128>
          <<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(in, res, op, n);
      break;
    case GCOL_DETAIL_KIND_SIGNED:
      gcol_detail_unary_kernel<int64_t><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(in, res, op, n);
      break;
    default:
      gcol_detail_unary_kernel<uint64_t><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(in, res, op, n);
      break;
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

extern "C" gcol_status gcol_unary_operation(gcol_column_view input, gcol_unary_op op,
                                            gcol_column **out, gcol_stream stream,
                                            gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  gcol_data_type out_type;
  GCOL_DETAIL_NVTX_PUSH("gcol_unary_operation");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_TRY(gcol_unary_op_check_type(input.type, op, &out_type));
  /* !x of a bool is its logical not: ~ would turn 0/1 into 0xFF/0xFE. */
  if (input.type.id == GCOL_BOOL8 && op == GCOL_UNARY_BIT_INVERT) op = GCOL_UNARY_NOT;
  GCOL_DETAIL_TRY(gcol_detail_copy_validity(input, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_create(out_type, input.size, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (input.size > 0) {
    gcol_detail_multiplier const one = {1, 0};
    gcol_detail_result res;
    res.data = col->data->data;
    res.kind = gcol_detail_element_kind_of(out_type.id);
    res.width = (int32_t)gcol_type_size(out_type.id);
    GCOL_DETAIL_TRY(launch_unary(gcol_detail_operand_of_column(input, one), res, op, input.size,
                                 stream));
  }
  if (mask != NULL) {
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
    mask = NULL;
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

