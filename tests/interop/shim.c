/*
 * A small shared library over gcol's interop for the python test (test_interop_python.py,
 * loaded with ctypes): entry points with plain pointer arguments that return a gcol_status
 * (0 = GCOL_OK) and keep gcol's objects behind opaque handles. Built only with the tests.
 */
#include <stdlib.h>

#include "gcol/gcol.h"

/* The last error of the calling thread: "STATUS: message". */
const char *gcol_shim_last_error(void);
const char *gcol_shim_last_error(void) { return gcol_last_error(); }

static void free_column(void *column) { gcol_column_free((gcol_column *)column); }
static void free_imported(void *imported) { gcol_imported_free((gcol_imported *)imported); }

/* A host (pyarrow) array copied into a new gcol column on the GPU; the field kept with it. */
typedef struct shim_column {
  gcol_column *column;
  gcol_arrow_field *field;
} shim_column;

int gcol_shim_import_host(struct ArrowSchema *schema, struct ArrowArray *array, void **out);
int gcol_shim_import_host(struct ArrowSchema *schema, struct ArrowArray *array, void **out) {
  shim_column *c = (shim_column *)calloc(1, sizeof *c);
  gcol_status const st = gcol_arrow_import_column(schema, array, NULL, NULL, &c->column, &c->field);
  if (st != GCOL_OK) {
    free(c);
    c = NULL;
  }
  *out = c;
  return (int)st;
}

void gcol_shim_column_free(void *handle);
void gcol_shim_column_free(void *handle) {
  shim_column *c = (shim_column *)handle;
  if (c == NULL) return;
  gcol_column_free(c->column);
  gcol_arrow_field_free(c->field);
  free(c);
}

/* The column exported zero-copy as a CUDA device array (the handle must outlive it). */
int gcol_shim_export_device(void *handle, struct ArrowSchema *schema, struct ArrowDeviceArray *array);
int gcol_shim_export_device(void *handle, struct ArrowSchema *schema, struct ArrowDeviceArray *array) {
  shim_column *c = (shim_column *)handle;
  gcol_column_view const v = gcol_column_get_view(c->column);
  gcol_status st = gcol_arrow_schema_export_column(v, c->field, schema);
  if (st == GCOL_OK) st = gcol_arrow_device_export_column(v, NULL, NULL, array, NULL, NULL);
  if (st != GCOL_OK && schema->release != NULL) schema->release(schema);
  return (int)st;
}

/* A device array imported zero-copy. */
int gcol_shim_import_device(struct ArrowSchema *schema, struct ArrowDeviceArray *array, void **out);
int gcol_shim_import_device(struct ArrowSchema *schema, struct ArrowDeviceArray *array, void **out) {
  gcol_imported *imp = NULL;
  gcol_status const st = gcol_arrow_device_import_column(schema, array, NULL, NULL, &imp);
  *out = imp;
  return (int)st;
}

void gcol_shim_imported_free(void *imported);
void gcol_shim_imported_free(void *imported) { gcol_imported_free((gcol_imported *)imported); }

/* The imported column copied to a host array, with the import's field (names, time zones). */
int gcol_shim_imported_export_host(void *imported, struct ArrowSchema *schema, struct ArrowArray *array);
int gcol_shim_imported_export_host(void *imported, struct ArrowSchema *schema, struct ArrowArray *array) {
  gcol_imported *imp = (gcol_imported *)imported;
  gcol_column_view const v = gcol_imported_column(imp);
  gcol_status st = gcol_arrow_schema_export_column(v, gcol_imported_field(imp), schema);
  if (st == GCOL_OK) st = gcol_arrow_export_column(v, array, NULL, NULL);
  if (st != GCOL_OK && schema->release != NULL) schema->release(schema);
  return (int)st;
}

/* The imported column as a DLPack tensor that takes the import over (zero-copy). */
int gcol_shim_imported_to_dlpack(void *imported, int versioned, void **out);
int gcol_shim_imported_to_dlpack(void *imported, int versioned, void **out) {
  gcol_imported *imp = (gcol_imported *)imported;
  gcol_column_view const v = gcol_imported_column(imp);
  if (versioned) {
    return (int)gcol_dlpack_export_column(v, free_imported, imp, (DLManagedTensorVersioned **)out, NULL);
  }
  return (int)gcol_dlpack_export_column_unversioned(v, free_imported, imp, (DLManagedTensor **)out, NULL);
}

/* The column as a DLPack tensor that takes the handle over (zero-copy). */
int gcol_shim_column_to_dlpack(void *handle, int versioned, void **out);
int gcol_shim_column_to_dlpack(void *handle, int versioned, void **out) {
  shim_column *c = (shim_column *)handle;
  gcol_column *col = c->column;
  gcol_arrow_field_free(c->field);
  free(c);
  gcol_status const st = versioned
      ? gcol_dlpack_export_column(gcol_column_get_view(col), free_column, col, (DLManagedTensorVersioned **)out, NULL)
      : gcol_dlpack_export_column_unversioned(gcol_column_get_view(col), free_column, col, (DLManagedTensor **)out, NULL);
  if (st != GCOL_OK) gcol_column_free(col);
  return (int)st;
}

/* A DLPack tensor imported (zero-copy unless strided); the import runs its deleter. */
int gcol_shim_dlpack_import(void *tensor, int versioned, void **out);
int gcol_shim_dlpack_import(void *tensor, int versioned, void **out) {
  gcol_imported *imp = NULL;
  gcol_status const st = versioned
      ? gcol_dlpack_import_column((DLManagedTensorVersioned *)tensor, NULL, NULL, &imp)
      : gcol_dlpack_import_column_unversioned((DLManagedTensor *)tensor, NULL, NULL, &imp);
  *out = imp;
  return (int)st;
}

/* The address of an import's first row (to check zero-copy from python). */
uintptr_t gcol_shim_imported_address(void *imported);
uintptr_t gcol_shim_imported_address(void *imported) {
  gcol_column_view const v = gcol_imported_column((gcol_imported *)imported);
  return (uintptr_t)((const char *)v.data + v.offset * (int64_t)gcol_type_size(v.type.id));
}

/* Runs a tensor's deleter (a capsule that no consumer took). */
void gcol_shim_dlpack_delete(void *tensor, int versioned);
void gcol_shim_dlpack_delete(void *tensor, int versioned) {
  if (versioned) {
    DLManagedTensorVersioned *t = (DLManagedTensorVersioned *)tensor;
    if (t->deleter != NULL) t->deleter(t);
  } else {
    DLManagedTensor *t = (DLManagedTensor *)tensor;
    if (t->deleter != NULL) t->deleter(t);
  }
}
