/* DLPack 1.x: fixed-width columns without nulls as 1-D tensors over their own memory, a
 * table of equal-typed columns copied into a column-major 2-D tensor, and 1-D tensors
 * imported as column views (strided ones gathered into a new buffer). */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "internal/error.h"
#include "internal/interop.h"
#include "internal/nvtx.h"
#include "internal/spill.h"

/* What a tensor gcol hands out keeps: shape, strides, the owner or the copy, the tensor. */
typedef struct dl_context {
  int64_t shape[2];
  int64_t strides[2];
  void (*release_owner)(void *owner);
  void *owner;
  gcol_buffer *copy;
  DLManagedTensorVersioned versioned;
  DLManagedTensor unversioned;
} dl_context;

static void context_free(dl_context *c) {
  if (c->release_owner != NULL) c->release_owner(c->owner);
  gcol_buffer_free(c->copy);
  free(c);
}

static void delete_versioned(DLManagedTensorVersioned *self) {
  context_free((dl_context *)self->manager_ctx);
}

static void delete_unversioned(DLManagedTensor *self) {
  context_free((dl_context *)self->manager_ctx);
}

/* The DLPack type of a fixed-width gcol type (its storage for dates, durations, decimals). */
static gcol_status dtype_of(gcol_data_type type, DLDataType *out) {
  gcol_type_id const storage = gcol_type_storage_id(type.id);
  GCOL_DETAIL_REQUIRE(gcol_type_is_fixed_width(type.id) && storage != GCOL_DECIMAL128,
                      GCOL_ERROR_TYPE_MISMATCH, "%s has no DLPack type",
                      gcol_type_name(type.id));
  out->code = type.id == GCOL_BOOL8                    ? (uint8_t)kDLBool
              : gcol_type_is_floating(storage)         ? (uint8_t)kDLFloat
              : gcol_type_is_unsigned_integral(storage) ? (uint8_t)kDLUInt
                                                       : (uint8_t)kDLInt;
  out->bits = (uint8_t)(8 * gcol_type_size(type.id));
  out->lanes = 1;
  return GCOL_OK;
}

/* The DLPack device of a pointer (the current device for NULL). */
static gcol_status device_of(const void *p, DLDevice *out) {
  gcol_status status = GCOL_OK;
  int device = 0;
  GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&device));
  out->device_type = kDLCUDA;
  out->device_id = device;
  if (p != NULL) {
    struct cudaPointerAttributes attr;
    GCOL_DETAIL_CUDA_TRY(cudaPointerGetAttributes(&attr, p));
    GCOL_DETAIL_CHECK(attr.type != cudaMemoryTypeUnregistered, GCOL_ERROR_UNSUPPORTED,
                      "the column's data at %p is not CUDA memory", p);
    out->device_type = attr.type == cudaMemoryTypeManaged ? kDLCUDAManaged
                       : attr.type == cudaMemoryTypeHost  ? kDLCUDAHost
                                                          : kDLCUDA;
    out->device_id = attr.device;
  }
done:
  return status;
}

/* A 1-D tensor over the column's rows, in a new context. */
static gcol_status make_column_tensor(gcol_column_view column, void (*release_owner)(void *),
                                      void *owner, gcol_stream stream, dl_context **out) {
  gcol_status status = GCOL_OK;
  dl_context *c = NULL;
  DLTensor t;
  int64_t nulls = 0;
  memset(&t, 0, sizeof t);
  GCOL_DETAIL_TRY(gcol_column_view_validate(column, "column"));
  GCOL_DETAIL_TRY(dtype_of(column.type, &t.dtype));
  GCOL_DETAIL_TRY(gcol_column_view_null_count(column, stream, &nulls));
  GCOL_DETAIL_CHECK(nulls == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "column has %lld nulls, which DLPack cannot carry", (long long)nulls);
  GCOL_DETAIL_TRY(device_of(column.data, &t.device));
  c = (dl_context *)calloc(1, sizeof *c);
  GCOL_DETAIL_CHECK(c != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a tensor");
  c->shape[0] = column.size;
  c->strides[0] = 1;
  t.data = (void *)column.data;
  t.ndim = 1;
  t.shape = c->shape;
  t.strides = c->strides;
  t.byte_offset = (uint64_t)column.offset * gcol_type_size(column.type.id);
  c->versioned.dl_tensor = t;
  c->unversioned.dl_tensor = t;
  c->release_owner = release_owner; /* set last: a failure leaves the owner alone */
  c->owner = owner;
  *out = c;
done:
  return status;
}

static gcol_status dlpack_export_column(gcol_column_view column, void (*release_owner)(void *owner),
                                        void *owner, DLManagedTensorVersioned **out,
                                        gcol_stream stream) {
  gcol_status status = GCOL_OK;
  dl_context *c = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(make_column_tensor(column, release_owner, owner, stream, &c));
  c->versioned.version.major = DLPACK_MAJOR_VERSION;
  c->versioned.version.minor = DLPACK_MINOR_VERSION;
  c->versioned.manager_ctx = c;
  c->versioned.deleter = delete_versioned;
  *out = &c->versioned;
done:
  return status;
}

gcol_status gcol_dlpack_export_column(gcol_column_view column, void (*release_owner)(void *owner),
                                      void *owner, DLManagedTensorVersioned **out,
                                      gcol_stream stream) {
  GCOL_DETAIL_NVTX_PUSH("gcol_dlpack_export_column");
  gcol_status const status = dlpack_export_column(column, release_owner, owner, out, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status dlpack_export_column_unversioned(gcol_column_view column,
                                                    void (*release_owner)(void *owner), void *owner,
                                                    DLManagedTensor **out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  dl_context *c = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(make_column_tensor(column, release_owner, owner, stream, &c));
  c->unversioned.manager_ctx = c;
  c->unversioned.deleter = delete_unversioned;
  *out = &c->unversioned;
done:
  return status;
}

gcol_status gcol_dlpack_export_column_unversioned(gcol_column_view column,
                                                  void (*release_owner)(void *owner), void *owner,
                                                  DLManagedTensor **out, gcol_stream stream) {
  GCOL_DETAIL_NVTX_PUSH("gcol_dlpack_export_column_unversioned");
  gcol_status const status =
      dlpack_export_column_unversioned(column, release_owner, owner, out, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Every column of the table has the first one's type and no nulls. */
static gcol_status check_table_columns(gcol_table_view table, gcol_stream stream) {
  GCOL_DETAIL_REQUIRE(table.num_columns > 0 && table.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "a 2-D tensor needs at least one column");
  DLDataType dtype;
  for (int32_t i = 0; i < table.num_columns; ++i) {
    gcol_column_view const col = table.columns[i];
    int64_t nulls = 0;
    GCOL_DETAIL_TRY_RETURN(gcol_column_view_validate(col, "table column"));
    GCOL_DETAIL_REQUIRE(gcol_data_type_equal(col.type, table.columns[0].type),
                        GCOL_ERROR_TYPE_MISMATCH, "column %d is %s, column 0 is %s", (int)i,
                        gcol_type_name(col.type.id), gcol_type_name(table.columns[0].type.id));
    GCOL_DETAIL_TRY_RETURN(dtype_of(col.type, &dtype));
    GCOL_DETAIL_TRY_RETURN(gcol_column_view_null_count(col, stream, &nulls));
    GCOL_DETAIL_REQUIRE(nulls == 0, GCOL_ERROR_INVALID_ARGUMENT, "column %d has %lld nulls",
                        (int)i, (long long)nulls);
  }
  return GCOL_OK;
}

gcol_status gcol_dlpack_export_table(gcol_table_view table, DLManagedTensorVersioned **out,
                                     gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  dl_context *c = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_dlpack_export_table");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(check_table_columns(table, stream));
  size_t const width = gcol_type_size(table.columns[0].type.id);
  uint64_t const column_bytes = (uint64_t)table.num_rows * width;
  GCOL_DETAIL_CHECK(column_bytes <= SIZE_MAX / (uint64_t)table.num_columns, GCOL_ERROR_OVERFLOW,
                    "%lld rows x %d columns overflow", (long long)table.num_rows,
                    (int)table.num_columns);
  c = (dl_context *)calloc(1, sizeof *c);
  GCOL_DETAIL_CHECK(c != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a tensor");
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)column_bytes * (size_t)table.num_columns, stream, mr, &c->copy));
  for (int32_t i = 0; i < table.num_columns && column_bytes > 0; ++i) {
    gcol_column_view const col = table.columns[i];
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync((char *)c->copy->data + (size_t)column_bytes * (size_t)i,
                                         (const char *)col.data + col.offset * (int64_t)width,
                                         (size_t)column_bytes, cudaMemcpyDeviceToDevice,
                                         (cudaStream_t)stream));
  }
  DLTensor *t = &c->versioned.dl_tensor;
  GCOL_DETAIL_TRY(dtype_of(table.columns[0].type, &t->dtype));
  GCOL_DETAIL_TRY(device_of(c->copy->data, &t->device));
  c->shape[0] = table.num_rows;
  c->shape[1] = table.num_columns;
  c->strides[0] = 1;
  c->strides[1] = table.num_rows;
  t->data = c->copy->data;
  t->ndim = 2;
  t->shape = c->shape;
  t->strides = c->strides;
  c->versioned.version.major = DLPACK_MAJOR_VERSION;
  c->versioned.version.minor = DLPACK_MINOR_VERSION;
  c->versioned.flags = DLPACK_FLAG_BITMASK_IS_COPIED;
  c->versioned.manager_ctx = c;
  c->versioned.deleter = delete_versioned;
  /* The consumer reads the copy until it calls the deleter: never spilled under it. */
  GCOL_DETAIL_TRY(gcol_detail_spill_expose_outlasting(&c->copy, 1, stream));
  *out = &c->versioned;
  c = NULL;
done:
  if (c != NULL) context_free(c);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- import ---- */

/* The gcol type of a DLPack type, or UNSUPPORTED. */
static gcol_status type_of(DLDataType d, gcol_data_type *out) {
  static const gcol_type_id ints[4] = {GCOL_INT8, GCOL_INT16, GCOL_INT32, GCOL_INT64};
  static const gcol_type_id uints[4] = {GCOL_UINT8, GCOL_UINT16, GCOL_UINT32, GCOL_UINT64};
  int const log = d.bits == 8 ? 0 : d.bits == 16 ? 1 : d.bits == 32 ? 2 : d.bits == 64 ? 3 : -1;
  GCOL_DETAIL_REQUIRE(d.lanes == 1, GCOL_ERROR_UNSUPPORTED, "DLPack type with %d lanes",
                      (int)d.lanes);
  if (d.code == kDLInt && log >= 0) {
    *out = gcol_data_type_make(ints[log]);
  } else if (d.code == kDLUInt && log >= 0) {
    *out = gcol_data_type_make(uints[log]);
  } else if (d.code == kDLFloat && (d.bits == 32 || d.bits == 64)) {
    *out = gcol_data_type_make(d.bits == 32 ? GCOL_FLOAT32 : GCOL_FLOAT64);
  } else if (d.code == kDLBool && d.bits == 8) {
    *out = gcol_data_type_make(GCOL_BOOL8);
  } else {
    return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__,
                             "DLPack type code %d of %d bits is not supported", (int)d.code,
                             (int)d.bits);
  }
  return GCOL_OK;
}

static gcol_status check_tensor_device(DLDevice d) {
  gcol_status status = GCOL_OK;
  int device = 0;
  GCOL_DETAIL_CHECK(d.device_type == kDLCUDA || d.device_type == kDLCUDAHost ||
                        d.device_type == kDLCUDAManaged,
                    GCOL_ERROR_UNSUPPORTED,
                    "DLPack device type %d is not CUDA (2), CUDA host (3) or managed (13)",
                    (int)d.device_type);
  if (d.device_type == kDLCUDA) {
    GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&device));
    GCOL_DETAIL_CHECK(d.device_id == device, GCOL_ERROR_UNSUPPORTED,
                      "the tensor is on device %d, the current device is %d", (int)d.device_id,
                      device);
  }
done:
  return status;
}

/* The column of a 1-D tensor: its own memory when contiguous and aligned, else a copy. */
static gcol_status import_tensor(const DLTensor *t, gcol_imported *imp, gcol_stream stream,
                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_data_type type = gcol_data_type_make(GCOL_EMPTY);
  gcol_buffer *copy = NULL;
  GCOL_DETAIL_CHECK(t->ndim == 1, GCOL_ERROR_UNSUPPORTED, "a %d-D tensor (gcol takes 1-D)",
                    (int)t->ndim);
  GCOL_DETAIL_CHECK(t->shape != NULL && t->shape[0] >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "the tensor's shape is missing or negative");
  GCOL_DETAIL_TRY(type_of(t->dtype, &type));
  GCOL_DETAIL_TRY(check_tensor_device(t->device));
  int64_t const n = t->shape[0];
  int64_t const stride = t->strides == NULL || n <= 1 ? 1 : t->strides[0];
  size_t const width = gcol_type_size(type.id);
  const char *first = (const char *)t->data + t->byte_offset;
  GCOL_DETAIL_CHECK(n == 0 || t->data != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "the tensor's data is NULL for %lld rows", (long long)n);
  bool const aligned = (uintptr_t)first % width == 0;
  if (n > 0 && (stride != 1 || !aligned)) {
    GCOL_DETAIL_CHECK(aligned, GCOL_ERROR_UNSUPPORTED, "a strided tensor at %p is not %zu-byte aligned",
                      (const void *)first, width);
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * width, stream, mr, &copy));
    GCOL_DETAIL_TRY(gcol_detail_interop_strided_copy(first, stride, n, (int32_t)width, copy->data, stream));
    first = (const char *)copy->data;
    status = gcol_detail_imported_keep(imp, copy);
    copy = NULL;
    GCOL_DETAIL_TRY(status);
  }
  imp->column = gcol_column_view_make(type, n, n > 0 ? first : NULL, NULL, 0);
  imp->table.num_columns = 1;
  imp->table.num_rows = n;
  imp->table.columns = &imp->column;
done:
  gcol_buffer_free(copy);
  return status;
}

static gcol_status dlpack_import_column(DLManagedTensorVersioned *tensor, gcol_stream stream,
                                        gcol_mr *mr, gcol_imported **out) {
  gcol_status status = GCOL_OK;
  gcol_imported *imp = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(tensor);
  GCOL_DETAIL_CHECK(tensor->version.major == 1, GCOL_ERROR_UNSUPPORTED,
                    "DLPack version %u.%u (gcol takes 1.x)", (unsigned)tensor->version.major,
                    (unsigned)tensor->version.minor);
  imp = gcol_detail_imported_create();
  GCOL_DETAIL_CHECK(imp != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate an import");
  imp->dlpack = tensor;
  tensor = NULL; /* the import's now: its deleter runs at gcol_imported_free */
  GCOL_DETAIL_TRY(import_tensor(&imp->dlpack->dl_tensor, imp, stream, mr));
  *out = imp;
  imp = NULL;
done:
  gcol_imported_free(imp);
  if (tensor != NULL && tensor->deleter != NULL) tensor->deleter(tensor);
  return status;
}

gcol_status gcol_dlpack_import_column(DLManagedTensorVersioned *tensor, gcol_stream stream,
                                      gcol_mr *mr, gcol_imported **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_dlpack_import_column");
  gcol_status const status = dlpack_import_column(tensor, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status dlpack_import_column_unversioned(DLManagedTensor *tensor, gcol_stream stream,
                                                    gcol_mr *mr, gcol_imported **out) {
  gcol_status status = GCOL_OK;
  gcol_imported *imp = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(tensor);
  imp = gcol_detail_imported_create();
  GCOL_DETAIL_CHECK(imp != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate an import");
  imp->dlpack_unversioned = tensor;
  tensor = NULL;
  GCOL_DETAIL_TRY(import_tensor(&imp->dlpack_unversioned->dl_tensor, imp, stream, mr));
  *out = imp;
  imp = NULL;
done:
  gcol_imported_free(imp);
  if (tensor != NULL && tensor->deleter != NULL) tensor->deleter(tensor);
  return status;
}

gcol_status gcol_dlpack_import_column_unversioned(DLManagedTensor *tensor, gcol_stream stream,
                                                  gcol_mr *mr, gcol_imported **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_dlpack_import_column_unversioned");
  gcol_status const status = dlpack_import_column_unversioned(tensor, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
