/* Type names and parsing. */
#include <stdio.h>
#include <string.h>

#include "gcol/types.h"
#include "internal/error.h"
#include "internal/nvtx.h"

#define GCOL_DETAIL_TYPE_NAME(NAME, SIZE, STRING) STRING,
static const char *const type_names[] = {GCOL_TYPE_ID_LIST(GCOL_DETAIL_TYPE_NAME)};

const char *gcol_type_name(gcol_type_id id) {
  if (!gcol_type_id_is_valid(id)) return "invalid";
  return type_names[id];
}

static gcol_status type_from_name(const char *name, gcol_type_id *out) {
  if (name == NULL || out == NULL) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "%s is NULL",
                             name == NULL ? "name" : "out");
  }
  for (int id = 0; id < GCOL_NUM_TYPE_IDS; ++id) {
    if (strcmp(name, type_names[id]) == 0) {
      *out = (gcol_type_id)id;
      return GCOL_OK;
    }
  }
  return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "unknown type name '%s'",
                           name);
}

gcol_status gcol_type_from_name(const char *name, gcol_type_id *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_type_from_name");
  gcol_status const status = type_from_name(name, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

int gcol_data_type_format(gcol_data_type type, char *buf, size_t size) {
  if (gcol_type_is_decimal(type.id)) {
    return snprintf(buf, size, "%s(scale=%d)", gcol_type_name(type.id), (int)type.scale);
  }
  return snprintf(buf, size, "%s", gcol_type_name(type.id));
}
