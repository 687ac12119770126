/* Conversion rules of gcol_cast(): see cast.h and cast_plan.h. */
#include "cast/cast_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/error.h"
#include "internal/nvtx.h"

static gcol_status reject(gcol_status status, gcol_data_type from, gcol_data_type to,
                          const char *why) {
  char f[48], t[48];
  gcol_data_type_format(from, f, sizeof f);
  gcol_data_type_format(to, t, sizeof t);
  return gcol_detail_error(status, "gcol_cast", "cannot cast %s to %s: %s", f, t, why);
}

#define REJECT(status_code, why) return reject((status_code), from, to, (why))

static bool is_int_like(gcol_type_id id) {
  return gcol_type_is_integral(id) || id == GCOL_BOOL8 || gcol_type_is_timestamp(id) ||
         gcol_type_is_duration(id);
}

/* The correctly rounded 10^k as a double (strtod rounds correctly). */
static double pow10_double(int k) {
  char text[16];
  snprintf(text, sizeof text, "1e%d", k);
  return strtod(text, NULL);
}

/* Bounds of the truncated values that fit an integer of `bits` bits. */
static void integer_bounds(int bits, bool is_unsigned, double *lower, double *upper_exclusive) {
  *lower = is_unsigned ? 0.0 : -ldexp(1.0, bits - 1);
  *upper_exclusive = ldexp(1.0, is_unsigned ? bits : bits - 1);
}

static gcol_status plan_int_like(gcol_data_type from, gcol_data_type to, gcol_detail_cast_plan *p) {
  bool const from_ticks = gcol_type_is_timestamp(from.id) || gcol_type_is_duration(from.id);
  bool const to_ticks = gcol_type_is_timestamp(to.id) || gcol_type_is_duration(to.id);
  if (from_ticks && to_ticks) {
    bool const same_kind = gcol_type_is_timestamp(from.id) == gcol_type_is_timestamp(to.id);
    if (!same_kind) REJECT(GCOL_ERROR_TYPE_MISMATCH, "timestamps and durations do not mix");
    int64_t const fns = gcol_detail_time_unit_ns(from.id), tns = gcol_detail_time_unit_ns(to.id);
    if (fns > tns) p->unit_multiply = fns / tns;
    if (fns < tns) p->unit_divide = tns / fns;
    p->unit_floor = gcol_type_is_timestamp(from.id);
  } else if ((from_ticks && to.id == GCOL_BOOL8) || (to_ticks && from.id == GCOL_BOOL8)) {
    REJECT(GCOL_ERROR_TYPE_MISMATCH, "bool8 and time types do not mix");
  }
  p->path = GCOL_DETAIL_CAST_INT_TO_INT;
  return GCOL_OK;
}

static gcol_status plan_rescale(gcol_data_type from, gcol_data_type to, gcol_detail_cast_plan *p) {
  int32_t const fs = gcol_type_is_decimal(from.id) ? from.scale : 0;
  int32_t const ts = gcol_type_is_decimal(to.id) ? to.scale : 0;
  int64_t const diff = (int64_t)fs - ts;
  if (diff > 38 || diff < -38) REJECT(GCOL_ERROR_UNSUPPORTED, "the scales differ by more than 38");
  p->path = GCOL_DETAIL_CAST_DECIMAL_RESCALE;
  p->pow10 = gcol_detail_pow10_multiplier((int32_t)(diff < 0 ? -diff : diff));
  p->pow10_divides = diff < 0;
  return GCOL_OK;
}

static gcol_status plan_from_float(gcol_data_type from, gcol_data_type to,
                                   gcol_detail_cast_plan *p) {
  if (gcol_type_is_floating(to.id)) {
    p->path = GCOL_DETAIL_CAST_FLOAT_TO_FLOAT;
  } else if (gcol_type_is_integral(to.id) || to.id == GCOL_BOOL8) {
    p->path = GCOL_DETAIL_CAST_FLOAT_TO_INT;
    p->can_make_nulls = to.id != GCOL_BOOL8;
    integer_bounds((int)gcol_type_size(to.id) * 8, gcol_type_is_unsigned_integral(to.id),
                   &p->lower, &p->upper_exclusive);
  } else if (gcol_type_is_decimal(to.id)) {
    if (to.scale > 308 || to.scale < -308) REJECT(GCOL_ERROR_UNSUPPORTED, "scale beyond +-308");
    p->path = GCOL_DETAIL_CAST_FLOAT_TO_DECIMAL;
    p->can_make_nulls = true;
    p->pow10_double = pow10_double(to.scale < 0 ? -to.scale : to.scale);
    p->pow10_double_divides = to.scale > 0;
    integer_bounds((int)gcol_type_size(to.id) * 8, false, &p->lower, &p->upper_exclusive);
  } else {
    REJECT(GCOL_ERROR_TYPE_MISMATCH, "floats convert to numbers, decimals and strings");
  }
  return GCOL_OK;
}

static gcol_status plan_from_decimal(gcol_data_type from, gcol_data_type to,
                                     gcol_detail_cast_plan *p) {
  if (gcol_type_is_decimal(to.id) || gcol_type_is_integral(to.id)) return plan_rescale(from, to, p);
  if (gcol_type_is_floating(to.id)) {
    if (from.scale > 308 || from.scale < -308) REJECT(GCOL_ERROR_UNSUPPORTED, "scale beyond +-308");
    p->path = GCOL_DETAIL_CAST_DECIMAL_TO_FLOAT;
    p->pow10_double = pow10_double(from.scale < 0 ? -from.scale : from.scale);
    p->pow10_double_divides = from.scale < 0;
    return GCOL_OK;
  }
  REJECT(GCOL_ERROR_TYPE_MISMATCH, "decimals convert to decimals, integers and floats");
}

gcol_status gcol_detail_cast_plan_make(gcol_data_type from, gcol_data_type to,
                                       gcol_detail_cast_plan *plan) {
  gcol_detail_cast_plan p;
  gcol_status status = GCOL_OK;
  if (!gcol_type_id_is_valid(from.id) || !gcol_type_id_is_valid(to.id)) {
    REJECT(GCOL_ERROR_INVALID_ARGUMENT, "invalid type id");
  }
  memset(&p, 0, sizeof p);
  p.unit_multiply = 1;
  p.unit_divide = 1;
  p.pow10.lo = 1;
  p.pow10_double = 1.0;
  bool const from_ok = gcol_type_is_fixed_width(from.id) || from.id == GCOL_STRING;
  bool const to_ok = gcol_type_is_fixed_width(to.id) || to.id == GCOL_STRING;
  if (!from_ok || !to_ok) {
    REJECT(GCOL_ERROR_UNSUPPORTED, "nested, dictionary and empty types are not supported");
  }
  if (gcol_data_type_equal(from, to)) {
    p.path = GCOL_DETAIL_CAST_COPY;
  } else if (from.id == GCOL_STRING && gcol_type_is_decimal(to.id)) {
    p.path = GCOL_DETAIL_CAST_STRING_TO_DECIMAL;
    p.can_make_nulls = true;
  } else if (gcol_type_is_decimal(from.id) && to.id == GCOL_STRING) {
    p.path = GCOL_DETAIL_CAST_DECIMAL_TO_STRING;
  } else if (from.id == GCOL_STRING) {
    if (!gcol_type_is_integral(to.id) && !gcol_type_is_floating(to.id)) {
      REJECT(GCOL_ERROR_UNSUPPORTED, "strings convert to integers, floats and decimals only");
    }
    p.path = GCOL_DETAIL_CAST_STRING_TO_NUMBER;
    p.can_make_nulls = true;
  } else if (to.id == GCOL_STRING) {
    if (!gcol_type_is_integral(from.id) && !gcol_type_is_floating(from.id)) {
      REJECT(GCOL_ERROR_UNSUPPORTED, "only integers, floats and decimals convert to strings");
    }
    p.path = GCOL_DETAIL_CAST_NUMBER_TO_STRING;
  } else if (gcol_type_is_floating(from.id)) {
    status = plan_from_float(from, to, &p);
  } else if (gcol_type_is_decimal(from.id)) {
    status = plan_from_decimal(from, to, &p);
  } else if (gcol_type_is_decimal(to.id)) {
    if (!gcol_type_is_integral(from.id)) {
      REJECT(GCOL_ERROR_TYPE_MISMATCH, "only integers and floats convert to decimals");
    }
    status = plan_rescale(from, to, &p);
  } else if (gcol_type_is_floating(to.id)) {
    if (!gcol_type_is_integral(from.id) && from.id != GCOL_BOOL8) {
      REJECT(GCOL_ERROR_TYPE_MISMATCH, "time types do not convert to floats");
    }
    p.path = GCOL_DETAIL_CAST_INT_TO_FLOAT;
  } else if (is_int_like(from.id) && is_int_like(to.id)) {
    status = plan_int_like(from, to, &p);
  } else {
    REJECT(GCOL_ERROR_TYPE_MISMATCH, "no conversion between these types");
  }
  if (status == GCOL_OK && plan != NULL) *plan = p;
  return status;
}

static gcol_status cast_check_types(gcol_data_type from, gcol_data_type to) {
  return gcol_detail_cast_plan_make(from, to, NULL);
}

gcol_status gcol_cast_check_types(gcol_data_type from, gcol_data_type to) {
  GCOL_DETAIL_NVTX_PUSH("gcol_cast_check_types");
  gcol_status const status = cast_check_types(from, to);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
