/*
 * gcol_cast() (cast.h): the fixed-width conversions in one kernel whose path (cast_plan.h)
 * is a uniform run-time switch, reading and writing through the width/kind-erased element
 * access of binaryop/element_io.cuh; strings go to cast_strings.cu.
 */
#include <math.h>

#include "detail/element_io.cuh"
#include "cast/cast_internal.h"
#include "detail/civil.h"
#include "gcol/bitmask.h"
#include "gcol/cast.h"
#include "gcol/strings/convert.h"
#include "detail/validity.h"

typedef struct gcol_detail_cast_args {
  gcol_detail_operand in;
  gcol_detail_result out;
  gcol_detail_cast_plan plan;
  bool to_unsigned;
  bool to_bool;
  int64_t size;
  uint32_t *mask;
  int32_t mask_mode;
} gcol_detail_cast_args;

/* An integral double with |x| < 2^127 as int128, exactly. */
static __device__ gcol_detail_i128 gcol_detail_double_to_i128(double x) {
  double const a = fabs(x);
  double const hi = floor(a * 0x1p-64);
  double const lo = a - hi * 0x1p64;
  gcol_detail_u128 const u = ((gcol_detail_u128)(uint64_t)hi << 64) | (uint64_t)lo;
  return x < 0 ? -(gcol_detail_i128)u : (gcol_detail_i128)u;
}

static __device__ bool gcol_detail_cast_int(const gcol_detail_cast_args &a, int64_t i) {
  int64_t v = gcol_detail_operand_get<int64_t>(a.in, i);
  if (a.plan.unit_multiply != 1) v = (int64_t)((uint64_t)v * (uint64_t)a.plan.unit_multiply);
  if (a.plan.unit_divide != 1) {
    v = a.plan.unit_floor ? gcol_detail_floor_div(v, a.plan.unit_divide) : v / a.plan.unit_divide;
  }
  gcol_detail_store(a.out, i, v);
  return true;
}

static __device__ bool gcol_detail_cast_float_to_int(const gcol_detail_cast_args &a, int64_t i) {
  double const d = gcol_detail_operand_get<double>(a.in, i);
  if (a.to_bool) {
    gcol_detail_store(a.out, i, d);
    return true;
  }
  double const t = trunc(d);
  bool const ok = t >= a.plan.lower && t < a.plan.upper_exclusive; /* false for NaN */
  if (!ok) return false;
  if (a.to_unsigned) {
    gcol_detail_store(a.out, i, (uint64_t)t);
  } else {
    gcol_detail_store(a.out, i, (int64_t)t);
  }
  return true;
}

static __device__ bool gcol_detail_cast_rescale(const gcol_detail_cast_args &a, int64_t i) {
  gcol_detail_i128 v = gcol_detail_operand_get<gcol_detail_i128>(a.in, i);
  gcol_detail_i128 const m =
      (gcol_detail_i128)(((gcol_detail_u128)a.plan.pow10.hi << 64) | a.plan.pow10.lo);
  v = a.plan.pow10_divides ? v / m : (gcol_detail_i128)((gcol_detail_u128)v * (gcol_detail_u128)m);
  gcol_detail_store(a.out, i, v);
  return true;
}

static __device__ bool gcol_detail_cast_float_to_decimal(const gcol_detail_cast_args &a, int64_t i) {
  double const d = gcol_detail_operand_get<double>(a.in, i);
  double const x = round(a.plan.pow10_double_divides ? d / a.plan.pow10_double
                                                     : d * a.plan.pow10_double);
  if (!(x >= a.plan.lower && x < a.plan.upper_exclusive)) return false;
  gcol_detail_store(a.out, i, gcol_detail_double_to_i128(x));
  return true;
}

static __device__ bool gcol_detail_cast_one(const gcol_detail_cast_args &a, int64_t i) {
  switch (a.plan.path) {
    case GCOL_DETAIL_CAST_INT_TO_INT: return gcol_detail_cast_int(a, i);
    case GCOL_DETAIL_CAST_INT_TO_FLOAT:
      if (a.in.kind == GCOL_DETAIL_KIND_UNSIGNED) {
        gcol_detail_store(a.out, i, gcol_detail_operand_get<uint64_t>(a.in, i));
      } else {
        gcol_detail_store(a.out, i, gcol_detail_operand_get<int64_t>(a.in, i));
      }
      return true;
    case GCOL_DETAIL_CAST_FLOAT_TO_INT: return gcol_detail_cast_float_to_int(a, i);
    case GCOL_DETAIL_CAST_FLOAT_TO_FLOAT:
      gcol_detail_store(a.out, i, gcol_detail_operand_get<double>(a.in, i));
      return true;
    case GCOL_DETAIL_CAST_DECIMAL_RESCALE: return gcol_detail_cast_rescale(a, i);
    case GCOL_DETAIL_CAST_DECIMAL_TO_FLOAT: {
      double const d = (double)gcol_detail_operand_get<gcol_detail_i128>(a.in, i);
      gcol_detail_store(a.out, i, a.plan.pow10_double_divides ? d / a.plan.pow10_double
                                                              : d * a.plan.pow10_double);
      return true;
    }
    default: return gcol_detail_cast_float_to_decimal(a, i);
  }
}

__global__ void gcol_detail_cast_kernel(gcol_detail_cast_args a) {
  GCOL_DETAIL_WARP_LOOP(word, i, a.size) {
    bool const valid = i < a.size && gcol_detail_cast_one(a, i);
    /* A value that does not convert becomes null; its bytes are written too (zero). */
    if (i < a.size && !valid) gcol_detail_store(a.out, i, (int64_t)0);
    gcol_detail_warp_mask_update(a.mask, a.mask_mode, word, valid);
  }
}

static gcol_status cast_fixed_width(gcol_column_view input, gcol_data_type to,
                                    const gcol_detail_cast_plan *plan, gcol_column **out,
                                    gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  gcol_detail_cast_args a;
  memset(&a, 0, sizeof a);
  GCOL_DETAIL_TRY(gcol_detail_copy_validity(input, stream, mr, &mask, &null_count));
  if (plan->can_make_nulls && input.size > 0) {
    if (mask == NULL) {
      GCOL_DETAIL_TRY(gcol_bitmask_create(input.size, GCOL_MASK_ALL_VALID, stream, mr, &mask));
    }
    a.mask_mode = GCOL_DETAIL_MASK_AND;
  }
  GCOL_DETAIL_TRY(gcol_column_create(to, input.size, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (input.size > 0) {
    gcol_detail_multiplier const one = {1, 0};
    a.in = gcol_detail_operand_of_column(input, one);
    a.out.data = col->data->data;
    a.out.kind = gcol_detail_element_kind_of(to.id);
    a.out.width = (int32_t)gcol_type_size(to.id);
    a.plan = *plan;
    a.to_unsigned = gcol_type_is_unsigned_integral(to.id);
    a.to_bool = to.id == GCOL_BOOL8;
    a.size = input.size;
    a.mask = mask == NULL ? NULL : (uint32_t *)mask->data;
    unsigned int const grid = gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE);
    gcol_detail_cast_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(a);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    if (a.mask_mode != GCOL_DETAIL_MASK_NONE) {
      GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits(a.mask, 0, input.size, stream, &null_count));
    }
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
  return status;
}

extern "C" gcol_status gcol_cast(gcol_column_view input, gcol_data_type to, gcol_column **out,
                                 gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_cast_plan plan;
  GCOL_DETAIL_NVTX_PUSH("gcol_cast");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_cast_plan_make(input.type, to, &plan));
  switch (plan.path) {
    case GCOL_DETAIL_CAST_COPY: GCOL_DETAIL_TRY(gcol_column_copy(input, stream, mr, out)); break;
    case GCOL_DETAIL_CAST_STRING_TO_NUMBER:
      GCOL_DETAIL_TRY(gcol_detail_cast_strings_to_number(input, to, out, stream, mr));
      break;
    case GCOL_DETAIL_CAST_NUMBER_TO_STRING:
      GCOL_DETAIL_TRY(gcol_detail_cast_number_to_strings(input, out, stream, mr));
      break;
    case GCOL_DETAIL_CAST_STRING_TO_DECIMAL:
      GCOL_DETAIL_TRY(gcol_strings_to_decimals(input, to, out, stream, mr));
      break;
    case GCOL_DETAIL_CAST_DECIMAL_TO_STRING:
      GCOL_DETAIL_TRY(gcol_strings_from_decimals(input, out, stream, mr));
      break;
    default: GCOL_DETAIL_TRY(cast_fixed_width(input, to, &plan, out, stream, mr)); break;
  }
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
