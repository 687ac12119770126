/* Host-resident scalars. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/scalar.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static gcol_status scalar_alloc(gcol_data_type type, bool valid, gcol_scalar **out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  GCOL_DETAIL_REQUIRE(gcol_type_id_is_valid(type.id), GCOL_ERROR_INVALID_ARGUMENT,
                      "invalid type id %d", (int)type.id);
  GCOL_DETAIL_REQUIRE(gcol_type_is_fixed_width(type.id) || type.id == GCOL_STRING,
                      GCOL_ERROR_TYPE_MISMATCH, "scalars of type %s are not supported",
                      gcol_type_name(type.id));
  gcol_scalar *s = (gcol_scalar *)calloc(1, sizeof *s);
  GCOL_DETAIL_REQUIRE(s != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  s->type = type;
  s->is_valid = valid;
  *out = s;
  return GCOL_OK;
}

/* Stores v in the storage of an integer-like type, checking the range. */
static gcol_status store_int(gcol_scalar *s, int64_t v) {
  gcol_type_id const storage = gcol_type_storage_id(s->type.id);
  bool fits = true;
  switch (storage) {
    case GCOL_INT8: fits = v >= INT8_MIN && v <= INT8_MAX; s->value.i8 = (int8_t)v; break;
    case GCOL_INT16: fits = v >= INT16_MIN && v <= INT16_MAX; s->value.i16 = (int16_t)v; break;
    case GCOL_INT32: fits = v >= INT32_MIN && v <= INT32_MAX; s->value.i32 = (int32_t)v; break;
    case GCOL_INT64: s->value.i64 = v; break;
    case GCOL_UINT8: fits = v >= 0 && v <= UINT8_MAX; s->value.u8 = (uint8_t)v; break;
    case GCOL_UINT16: fits = v >= 0 && v <= UINT16_MAX; s->value.u16 = (uint16_t)v; break;
    case GCOL_UINT32: fits = v >= 0 && v <= (int64_t)UINT32_MAX; s->value.u32 = (uint32_t)v; break;
    case GCOL_UINT64: fits = v >= 0; s->value.u64 = (uint64_t)v; break;
    case GCOL_DECIMAL128:
      s->value.i128.lo = (uint64_t)v;
      s->value.i128.hi = v < 0 ? -1 : 0;
      break;
    default:
      return gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, __func__,
                               "%s is not an integer-like type", gcol_type_name(s->type.id));
  }
  GCOL_DETAIL_REQUIRE(fits, GCOL_ERROR_OVERFLOW, "%lld does not fit %s", (long long)v,
                      gcol_type_name(s->type.id));
  if (s->type.id == GCOL_BOOL8) s->value.u8 = v != 0;
  return GCOL_OK;
}

static gcol_status scalar_create_int(gcol_data_type type, int64_t value, gcol_scalar **out) {
  gcol_scalar *s = NULL;
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  gcol_status status = scalar_alloc(type, true, &s);
  if (status != GCOL_OK) return status;
  if (gcol_type_is_floating(type.id) || type.id == GCOL_STRING) {
    status = gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, __func__,
                               "%s scalar from an integer: use gcol_scalar_create_%s",
                               gcol_type_name(type.id), type.id == GCOL_STRING ? "string" : "float");
  } else if (type.id == GCOL_BOOL8) {
    s->value.u8 = value != 0;
  } else {
    status = store_int(s, value);
  }
  if (status != GCOL_OK) {
    free(s);
    return status;
  }
  *out = s;
  return GCOL_OK;
}

gcol_status gcol_scalar_create_int(gcol_data_type type, int64_t value, gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_create_int");
  gcol_status const status = scalar_create_int(type, value, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_create_uint(gcol_data_type type, uint64_t value, gcol_scalar **out) {
  if (type.id == GCOL_UINT64) {
    gcol_status const status = scalar_alloc(type, true, out);
    if (status == GCOL_OK) (*out)->value.u64 = value;
    return status;
  }
  if (value > (uint64_t)INT64_MAX) {
    if (out != NULL) *out = NULL;
    return gcol_detail_error(GCOL_ERROR_OVERFLOW, __func__, "%llu does not fit %s",
                             (unsigned long long)value, gcol_type_name(type.id));
  }
  return gcol_scalar_create_int(type, (int64_t)value, out);
}

gcol_status gcol_scalar_create_uint(gcol_data_type type, uint64_t value, gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_create_uint");
  gcol_status const status = scalar_create_uint(type, value, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_create_float(gcol_data_type type, double value, gcol_scalar **out) {
  if (out != NULL) *out = NULL;
  GCOL_DETAIL_REQUIRE(gcol_type_is_floating(type.id), GCOL_ERROR_TYPE_MISMATCH,
                      "expected FLOAT32 or FLOAT64, not %s", gcol_type_name(type.id));
  gcol_status const status = scalar_alloc(type, true, out);
  if (status != GCOL_OK) return status;
  if (type.id == GCOL_FLOAT32) {
    (*out)->value.f32 = (float)value;
  } else {
    (*out)->value.f64 = value;
  }
  return GCOL_OK;
}

gcol_status gcol_scalar_create_float(gcol_data_type type, double value, gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_create_float");
  gcol_status const status = scalar_create_float(type, value, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_create_decimal(gcol_data_type type, gcol_int128 value,
                                         gcol_scalar **out) {
  if (out != NULL) *out = NULL;
  GCOL_DETAIL_REQUIRE(gcol_type_is_decimal(type.id), GCOL_ERROR_TYPE_MISMATCH,
                      "expected a decimal type, not %s", gcol_type_name(type.id));
  if (type.id != GCOL_DECIMAL128) {
    /* The value must be the sign extension of its low 64 bits. */
    bool const is_int64 = (value.hi == 0 && (int64_t)value.lo >= 0) ||
                          (value.hi == -1 && (int64_t)value.lo < 0);
    GCOL_DETAIL_REQUIRE(is_int64, GCOL_ERROR_OVERFLOW, "value does not fit %s",
                        gcol_type_name(type.id));
    return gcol_scalar_create_int(type, (int64_t)value.lo, out);
  }
  gcol_status const status = scalar_alloc(type, true, out);
  if (status == GCOL_OK) (*out)->value.i128 = value;
  return status;
}

gcol_status gcol_scalar_create_decimal(gcol_data_type type, gcol_int128 value, gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_create_decimal");
  gcol_status const status = scalar_create_decimal(type, value, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_create_string(const char *data, int64_t size, gcol_scalar **out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  GCOL_DETAIL_REQUIRE(size >= 0, GCOL_ERROR_INVALID_ARGUMENT, "size is negative (%lld)",
                      (long long)size);
  GCOL_DETAIL_REQUIRE(data != NULL || size == 0, GCOL_ERROR_INVALID_ARGUMENT, "data is NULL");
  gcol_scalar *s = NULL;
  gcol_status const status = scalar_alloc(gcol_data_type_make(GCOL_STRING), true, &s);
  if (status != GCOL_OK) return status;
  s->string_data = (char *)malloc((size_t)size + 1);
  if (s->string_data == NULL) {
    free(s);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "host allocation failed");
  }
  if (size > 0) memcpy(s->string_data, data, (size_t)size);
  s->string_data[size] = '\0';
  s->string_size = size;
  *out = s;
  return GCOL_OK;
}

gcol_status gcol_scalar_create_string(const char *data, int64_t size, gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_create_string");
  gcol_status const status = scalar_create_string(data, size, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_create_null(gcol_data_type type, gcol_scalar **out) {
  return scalar_alloc(type, false, out);
}

gcol_status gcol_scalar_create_null(gcol_data_type type, gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_create_null");
  gcol_status const status = scalar_create_null(type, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_create_from_storage(gcol_data_type type, const void *storage,
                                              gcol_scalar **out) {
  if (out != NULL) *out = NULL;
  GCOL_DETAIL_REQUIRE(storage != NULL, GCOL_ERROR_INVALID_ARGUMENT, "storage is NULL");
  GCOL_DETAIL_REQUIRE(gcol_type_is_fixed_width(type.id), GCOL_ERROR_TYPE_MISMATCH,
                      "expected a fixed-width type, not %s", gcol_type_name(type.id));
  gcol_status const status = scalar_alloc(type, true, out);
  if (status == GCOL_OK) memcpy(&(*out)->value, storage, gcol_type_size(type.id));
  return status;
}

gcol_status gcol_scalar_create_from_storage(gcol_data_type type, const void *storage,
                                            gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_create_from_storage");
  gcol_status const status = scalar_create_from_storage(type, storage, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_copy(const gcol_scalar *scalar, gcol_scalar **out) {
  if (out != NULL) *out = NULL;
  GCOL_DETAIL_REQUIRE(scalar != NULL, GCOL_ERROR_INVALID_ARGUMENT, "scalar is NULL");
  if (scalar->type.id == GCOL_STRING && scalar->is_valid) {
    return gcol_scalar_create_string(scalar->string_data, scalar->string_size, out);
  }
  gcol_status const status = scalar_alloc(scalar->type, scalar->is_valid, out);
  if (status == GCOL_OK) (*out)->value = scalar->value;
  return status;
}

gcol_status gcol_scalar_copy(const gcol_scalar *scalar, gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_copy");
  gcol_status const status = scalar_copy(scalar, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status require_readable(const gcol_scalar *scalar, const void *out) {
  GCOL_DETAIL_REQUIRE(scalar != NULL && out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                      scalar == NULL ? "scalar" : "out");
  GCOL_DETAIL_REQUIRE(scalar->is_valid, GCOL_ERROR_INVALID_ARGUMENT, "the %s scalar is null",
                      gcol_type_name(scalar->type.id));
  return GCOL_OK;
}

static gcol_status scalar_get_int(const gcol_scalar *scalar, int64_t *out) {
  gcol_status const status = require_readable(scalar, out);
  if (status != GCOL_OK) return status;
  switch (gcol_type_storage_id(scalar->type.id)) {
    case GCOL_INT8: *out = scalar->value.i8; return GCOL_OK;
    case GCOL_INT16: *out = scalar->value.i16; return GCOL_OK;
    case GCOL_INT32: *out = scalar->value.i32; return GCOL_OK;
    case GCOL_INT64: *out = scalar->value.i64; return GCOL_OK;
    case GCOL_UINT8: *out = scalar->value.u8; return GCOL_OK;
    case GCOL_UINT16: *out = scalar->value.u16; return GCOL_OK;
    case GCOL_UINT32: *out = scalar->value.u32; return GCOL_OK;
    case GCOL_UINT64:
      GCOL_DETAIL_REQUIRE(scalar->value.u64 <= (uint64_t)INT64_MAX, GCOL_ERROR_OVERFLOW,
                          "%llu does not fit int64", (unsigned long long)scalar->value.u64);
      *out = (int64_t)scalar->value.u64;
      return GCOL_OK;
    case GCOL_DECIMAL128: {
      gcol_int128 const v = scalar->value.i128;
      bool const fits = (v.hi == 0 && (int64_t)v.lo >= 0) || (v.hi == -1 && (int64_t)v.lo < 0);
      GCOL_DETAIL_REQUIRE(fits, GCOL_ERROR_OVERFLOW, "decimal128 value does not fit int64");
      *out = (int64_t)v.lo;
      return GCOL_OK;
    }
    default:
      return gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, __func__,
                               "%s scalar is not integer-like", gcol_type_name(scalar->type.id));
  }
}

gcol_status gcol_scalar_get_int(const gcol_scalar *scalar, int64_t *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_get_int");
  gcol_status const status = scalar_get_int(scalar, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_get_float(const gcol_scalar *scalar, double *out) {
  gcol_status status = require_readable(scalar, out);
  if (status != GCOL_OK) return status;
  if (scalar->type.id == GCOL_FLOAT32) {
    *out = scalar->value.f32;
    return GCOL_OK;
  }
  if (scalar->type.id == GCOL_FLOAT64) {
    *out = scalar->value.f64;
    return GCOL_OK;
  }
  GCOL_DETAIL_REQUIRE(gcol_type_is_numeric(scalar->type.id), GCOL_ERROR_TYPE_MISMATCH,
                      "%s scalar is not numeric", gcol_type_name(scalar->type.id));
  if (scalar->type.id == GCOL_UINT64) {
    *out = (double)scalar->value.u64;
    return GCOL_OK;
  }
  int64_t v = 0;
  status = gcol_scalar_get_int(scalar, &v);
  if (status == GCOL_OK) *out = (double)v;
  return status;
}

gcol_status gcol_scalar_get_float(const gcol_scalar *scalar, double *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_get_float");
  gcol_status const status = scalar_get_float(scalar, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Integers, BOOL8, timestamps, durations and decimals: what gcol_scalar_get_int reads. */
static bool int_like(gcol_type_id id) {
  gcol_type_id const storage = gcol_type_storage_id(id);
  return (storage >= GCOL_INT8 && storage <= GCOL_UINT64) || storage == GCOL_DECIMAL128;
}

/* The pointer checks and the type check of the read functions, null scalars included. */
static gcol_status check_read(const gcol_scalar *scalar, const void *out, const bool *valid,
                              bool type_ok, const char *what, const char *func) {
  if (scalar == NULL || out == NULL || valid == NULL) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, func, "%s is NULL",
                             scalar == NULL ? "scalar" : out == NULL ? "out" : "valid");
  }
  if (!type_ok) {
    return gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, func, "%s scalar is not %s",
                             gcol_type_name(scalar->type.id), what);
  }
  return GCOL_OK;
}

static gcol_status scalar_read_int(const gcol_scalar *scalar, int64_t *out, bool *valid) {
  gcol_status const status = check_read(scalar, out, valid,
                                         scalar != NULL && int_like(scalar->type.id),
                                         "integer-like", __func__);
  if (status != GCOL_OK) return status;
  *out = 0;
  *valid = scalar->is_valid;
  return scalar->is_valid ? gcol_scalar_get_int(scalar, out) : GCOL_OK;
}

gcol_status gcol_scalar_read_int(const gcol_scalar *scalar, int64_t *out, bool *valid) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_read_int");
  gcol_status const status = scalar_read_int(scalar, out, valid);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_read_float(const gcol_scalar *scalar, double *out, bool *valid) {
  gcol_status const status = check_read(scalar, out, valid,
                                         scalar != NULL && gcol_type_is_numeric(scalar->type.id),
                                         "numeric", __func__);
  if (status != GCOL_OK) return status;
  *out = 0;
  *valid = scalar->is_valid;
  return scalar->is_valid ? gcol_scalar_get_float(scalar, out) : GCOL_OK;
}

gcol_status gcol_scalar_read_float(const gcol_scalar *scalar, double *out, bool *valid) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_read_float");
  gcol_status const status = scalar_read_float(scalar, out, valid);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_read_string(const gcol_scalar *scalar, const char **data, int64_t *size,
                                      bool *valid) {
  gcol_status const status = check_read(scalar, data, valid,
                                         scalar != NULL && scalar->type.id == GCOL_STRING,
                                         "a string", __func__);
  if (status != GCOL_OK) return status;
  GCOL_DETAIL_REQUIRE(size != NULL, GCOL_ERROR_INVALID_ARGUMENT, "size is NULL");
  *valid = scalar->is_valid;
  *data = scalar->is_valid ? scalar->string_data : NULL;
  *size = scalar->is_valid ? scalar->string_size : 0;
  return GCOL_OK;
}

gcol_status gcol_scalar_read_string(const gcol_scalar *scalar, const char **data, int64_t *size,
                                    bool *valid) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_read_string");
  gcol_status const status = scalar_read_string(scalar, data, size, valid);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status scalar_create_cstring(const char *text, gcol_scalar **out) {
  if (out != NULL) *out = NULL;
  GCOL_DETAIL_REQUIRE(text != NULL, GCOL_ERROR_INVALID_ARGUMENT, "text is NULL");
  return gcol_scalar_create_string(text, (int64_t)strlen(text), out);
}

gcol_status gcol_scalar_create_cstring(const char *text, gcol_scalar **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_scalar_create_cstring");
  gcol_status const status = scalar_create_cstring(text, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

const void *gcol_scalar_get_storage(const gcol_scalar *scalar) {
  if (scalar == NULL || !gcol_type_is_fixed_width(scalar->type.id)) return NULL;
  return &scalar->value;
}

void gcol_scalar_free(gcol_scalar *scalar) {
  if (scalar == NULL) return;
  free(scalar->string_data);
  free(scalar);
}
