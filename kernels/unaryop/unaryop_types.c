/* Type rules of unary operations (unaryop.h), host C so that the host suite tests them. */
#include "gcol/unaryop.h"

#include <stdio.h>

#include "internal/error.h"
#include "internal/nvtx.h"

#define GCOL_DETAIL_UNARY_OP_NAME(NAME, STRING) STRING,
static const char *const unary_op_names[] = {GCOL_UNARY_OP_LIST(GCOL_DETAIL_UNARY_OP_NAME)};

const char *gcol_unary_op_name(gcol_unary_op op) {
  if ((int)op < 0 || op >= GCOL_NUM_UNARY_OPS) return "invalid";
  return unary_op_names[op];
}

static bool accepts(gcol_type_id id, gcol_unary_op op) {
  if (op <= GCOL_UNARY_RINT) return gcol_type_is_floating(id);
  switch (op) {
    case GCOL_UNARY_ABS:
      return gcol_type_is_integral(id) || gcol_type_is_floating(id) || gcol_type_is_duration(id) ||
             gcol_type_is_decimal(id);
    case GCOL_UNARY_NEGATE:
      return gcol_type_is_signed_integral(id) || gcol_type_is_floating(id) ||
             gcol_type_is_duration(id) || gcol_type_is_decimal(id);
    case GCOL_UNARY_BIT_INVERT: return gcol_type_is_integral(id) || id == GCOL_BOOL8;
    default: return gcol_type_is_numeric(id); /* NOT */
  }
}

static gcol_status unary_op_check_type(gcol_data_type type, gcol_unary_op op,
                                       gcol_data_type *output) {
  if ((int)op < 0 || op >= GCOL_NUM_UNARY_OPS) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_unary_operation",
                             "op %d is not a unary operator", (int)op);
  }
  if (!gcol_type_id_is_valid(type.id)) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_unary_operation",
                             "invalid type id %d", (int)type.id);
  }
  if (!accepts(type.id, op)) {
    char name[48];
    gcol_data_type_format(type, name, sizeof name);
    return gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, "gcol_unary_operation",
                             "%s does not accept %s", gcol_unary_op_name(op), name);
  }
  if (output != NULL) *output = op == GCOL_UNARY_NOT ? gcol_data_type_make(GCOL_BOOL8) : type;
  return GCOL_OK;
}

gcol_status gcol_unary_op_check_type(gcol_data_type type, gcol_unary_op op,
                                     gcol_data_type *output) {
  GCOL_DETAIL_NVTX_PUSH("gcol_unary_op_check_type");
  gcol_status const status = unary_op_check_type(type, op, output);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
