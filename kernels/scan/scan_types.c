/* Type rules of scans (host only: tested without a GPU). */
#include "gcol/scan.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static const char *const scan_op_names[GCOL_SCAN_NUM_OPS] = {"sum", "product", "min", "max"};

const char *gcol_scan_op_name(gcol_scan_op op) {
  if ((int)op < 0 || op >= GCOL_SCAN_NUM_OPS) return "invalid";
  return scan_op_names[op];
}

static bool is_int_or_float(gcol_type_id id) {
  return gcol_type_is_integral(id) || gcol_type_is_floating(id);
}

static bool scan_accepts(gcol_type_id id, gcol_scan_op op) {
  switch (op) {
    case GCOL_SCAN_SUM:
      return is_int_or_float(id) || gcol_type_is_duration(id) || id == GCOL_DECIMAL32 ||
             id == GCOL_DECIMAL64;
    case GCOL_SCAN_PRODUCT:
      return is_int_or_float(id);
    default: /* MIN, MAX */
      return is_int_or_float(id) || id == GCOL_BOOL8 || gcol_type_is_timestamp(id) ||
             gcol_type_is_duration(id) || id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64;
  }
}

/* Ops that make sense for the type but are not implemented. */
static bool scan_unsupported(gcol_type_id id, gcol_scan_op op) {
  if (id == GCOL_DECIMAL128 || id == GCOL_STRING) return true;
  return op == GCOL_SCAN_PRODUCT && (id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64);
}

static gcol_status scan_output_type(gcol_data_type input, gcol_scan_op op, gcol_data_type *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  GCOL_DETAIL_REQUIRE((int)op >= 0 && op < GCOL_SCAN_NUM_OPS, GCOL_ERROR_INVALID_ARGUMENT,
                      "op is out of range (%d)", (int)op);
  GCOL_DETAIL_REQUIRE(gcol_type_id_is_valid(input.id), GCOL_ERROR_INVALID_ARGUMENT,
                      "input type id is out of range (%d)", (int)input.id);
  GCOL_DETAIL_REQUIRE(!scan_unsupported(input.id, op), GCOL_ERROR_UNSUPPORTED,
                      "scan %s of %s is not supported", gcol_scan_op_name(op),
                      gcol_type_name(input.id));
  GCOL_DETAIL_REQUIRE(scan_accepts(input.id, op), GCOL_ERROR_TYPE_MISMATCH,
                      "scan %s does not apply to type %s", gcol_scan_op_name(op),
                      gcol_type_name(input.id));
  *out = input;
  return GCOL_OK;
}

gcol_status gcol_scan_output_type(gcol_data_type input, gcol_scan_op op, gcol_data_type *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scan_output_type");
  gcol_status const status = scan_output_type(input, op, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
