/* Output-type rules of reductions and quantiles (host only: tested without a GPU). */
#include "gcol/reduction.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static const char *const reduce_op_names[GCOL_REDUCE_NUM_OPS] = {
    "sum",  "product",  "min", "max",            "any",         "all",       "mean",
    "variance", "std", "sum_of_squares", "count_valid", "count_all", "argmin", "argmax"};

const char *gcol_reduce_op_name(gcol_reduce_op op) {
  if ((int)op < 0 || op >= GCOL_REDUCE_NUM_OPS) return "invalid";
  return reduce_op_names[op];
}

static bool is_min_max_type(gcol_type_id id) {
  return (gcol_type_is_fixed_width(id) && id != GCOL_DECIMAL128) || id == GCOL_STRING;
}

/* The type of an integer or float sum, product or sum of squares. */
static gcol_data_type arithmetic_type(gcol_data_type input) {
  if (gcol_type_is_signed_integral(input.id)) return gcol_data_type_make(GCOL_INT64);
  if (gcol_type_is_unsigned_integral(input.id)) return gcol_data_type_make(GCOL_UINT64);
  return input;
}

static bool is_int_or_float(gcol_type_id id) {
  return gcol_type_is_integral(id) || gcol_type_is_floating(id);
}

/* Sets *out and returns true when (input, op) is accepted; else returns false. */
static bool reduce_type_rule(gcol_data_type input, gcol_reduce_op op, gcol_data_type *out) {
  gcol_type_id const id = input.id;
  switch (op) {
    case GCOL_REDUCE_SUM:
      if (is_int_or_float(id) || gcol_type_is_duration(id)) {
        *out = arithmetic_type(input);
        return true;
      }
      if (id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64) {
        *out = gcol_data_type_decimal(GCOL_DECIMAL64, input.scale);
        return true;
      }
      return false;
    case GCOL_REDUCE_PRODUCT:
    case GCOL_REDUCE_SUM_OF_SQUARES:
      if (!is_int_or_float(id)) return false;
      *out = arithmetic_type(input);
      return true;
    case GCOL_REDUCE_MIN:
    case GCOL_REDUCE_MAX:
      if (!is_min_max_type(id)) return false;
      *out = input;
      return true;
    case GCOL_REDUCE_ANY:
    case GCOL_REDUCE_ALL:
      if (!gcol_type_is_numeric(id)) return false;
      *out = gcol_data_type_make(GCOL_BOOL8);
      return true;
    case GCOL_REDUCE_MEAN:
    case GCOL_REDUCE_VARIANCE:
    case GCOL_REDUCE_STD:
      if (!is_int_or_float(id)) return false;
      *out = gcol_data_type_make(GCOL_FLOAT64);
      return true;
    case GCOL_REDUCE_COUNT_VALID:
    case GCOL_REDUCE_COUNT_ALL:
      *out = gcol_data_type_make(GCOL_INT64);
      return true;
    case GCOL_REDUCE_ARGMIN:
    case GCOL_REDUCE_ARGMAX:
      if (!is_min_max_type(id)) return false;
      *out = gcol_data_type_make(GCOL_INT64);
      return true;
    default:
      return false;
  }
}

/* Decimal ops that make sense but are not implemented (rather than meaningless pairs). */
static bool is_unsupported_decimal(gcol_type_id id, gcol_reduce_op op) {
  if (id == GCOL_DECIMAL128) return op != GCOL_REDUCE_COUNT_VALID && op != GCOL_REDUCE_COUNT_ALL;
  if (id != GCOL_DECIMAL32 && id != GCOL_DECIMAL64) return false;
  return op == GCOL_REDUCE_PRODUCT || op == GCOL_REDUCE_MEAN || op == GCOL_REDUCE_VARIANCE ||
         op == GCOL_REDUCE_STD || op == GCOL_REDUCE_SUM_OF_SQUARES;
}

static gcol_status reduce_output_type(gcol_data_type input, gcol_reduce_op op,
                                      gcol_data_type *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE((int)op >= 0 && op < GCOL_REDUCE_NUM_OPS, GCOL_ERROR_INVALID_ARGUMENT,
                      "op is out of range (%d)", (int)op);
  GCOL_DETAIL_REQUIRE(gcol_type_id_is_valid(input.id), GCOL_ERROR_INVALID_ARGUMENT,
                      "input type id is out of range (%d)", (int)input.id);
  GCOL_DETAIL_REQUIRE(!is_unsupported_decimal(input.id, op), GCOL_ERROR_UNSUPPORTED,
                      "reduction %s of %s is not supported", gcol_reduce_op_name(op),
                      gcol_type_name(input.id));
  gcol_data_type result = input;
  GCOL_DETAIL_REQUIRE(reduce_type_rule(input, op, &result), GCOL_ERROR_TYPE_MISMATCH,
                      "reduction %s does not apply to type %s", gcol_reduce_op_name(op),
                      gcol_type_name(input.id));
  *out = result;
  return GCOL_OK;
}

gcol_status gcol_reduce_output_type(gcol_data_type input, gcol_reduce_op op, gcol_data_type *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_reduce_output_type");
  gcol_status const status = reduce_output_type(input, op, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status quantile_output_type(gcol_data_type input, gcol_interpolation interp,
                                        gcol_data_type *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE((int)interp >= GCOL_INTERPOLATION_LINEAR &&
                          interp <= GCOL_INTERPOLATION_NEAREST,
                      GCOL_ERROR_INVALID_ARGUMENT, "interp is out of range (%d)", (int)interp);
  GCOL_DETAIL_REQUIRE(gcol_type_id_is_valid(input.id), GCOL_ERROR_INVALID_ARGUMENT,
                      "input type id is out of range (%d)", (int)input.id);
  gcol_type_id const id = input.id;
  bool const interpolates =
      interp == GCOL_INTERPOLATION_LINEAR || interp == GCOL_INTERPOLATION_MIDPOINT;
  bool const exact_only = gcol_type_is_timestamp(id) || gcol_type_is_duration(id) ||
                          gcol_type_is_decimal(id);
  GCOL_DETAIL_REQUIRE(id != GCOL_DECIMAL128 && !(exact_only && interpolates),
                      GCOL_ERROR_UNSUPPORTED,
                      "quantile of %s with interpolation %d is not supported",
                      gcol_type_name(id), (int)interp);
  GCOL_DETAIL_REQUIRE(is_int_or_float(id) || exact_only, GCOL_ERROR_TYPE_MISMATCH,
                      "quantile does not apply to type %s", gcol_type_name(id));
  *out = interpolates ? gcol_data_type_make(GCOL_FLOAT64) : input;
  return GCOL_OK;
}

gcol_status gcol_quantile_output_type(gcol_data_type input, gcol_interpolation interp,
                                      gcol_data_type *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_quantile_output_type");
  gcol_status const status = quantile_output_type(input, interp, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
