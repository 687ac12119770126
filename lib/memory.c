/*
 * Memory resources: the dispatching entry points (gcol_mr_allocate/deallocate/destroy), the
 * per-device default resource, and the built-in resources over the CUDA runtime (async,
 * cudaMalloc, pinned, managed) and over the C heap (host, which makes no CUDA call at all so
 * that CPU-only tests can use it).
 */
#include <cuda_runtime_api.h>
#include <stdatomic.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gcol/memory.h"
#include "internal/error.h"
#include "internal/log.h"
#include "internal/nvtx.h"

/* Devices with their own default slot; a device beyond this uses the built-in resource. */
#define GCOL_DETAIL_MR_MAX_DEVICES 64

/* ------------------------------------------------------------------------------------- */
/* Sizes                                                                                 */
/* ------------------------------------------------------------------------------------- */

/* Rounds up to a multiple of GCOL_MR_ALIGNMENT; false if that does not fit in size_t. */
static bool round_to_alignment(size_t bytes, size_t *rounded) {
  if (bytes > SIZE_MAX - (GCOL_MR_ALIGNMENT - 1)) return false;
  *rounded = (bytes + (GCOL_MR_ALIGNMENT - 1)) & ~(size_t)(GCOL_MR_ALIGNMENT - 1);
  return true;
}

static bool is_aligned(const void *ptr) {
  return (uintptr_t)ptr % GCOL_MR_ALIGNMENT == 0;
}

static gcol_status size_too_large(const gcol_mr *self, size_t bytes) {
  return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_mr_allocate",
                           "%s resource: %zu bytes cannot be allocated (size overflow)",
                           self->name, bytes);
}

/* ------------------------------------------------------------------------------------- */
/* Resources over the CUDA runtime                                                       */
/* ------------------------------------------------------------------------------------- */

/*
 * Completes a CUDA allocation: maps a CUDA error to a status with a message naming the
 * resource, the call and the size; and returns memory that breaks GCOL_MR_ALIGNMENT (CUDA
 * documents at least 256 bytes for cudaMalloc, and gives no number for the others, so it is
 * checked rather than assumed).
 */
static gcol_status finish_cuda_allocation(gcol_mr *self, cudaError_t err, void *ptr,
                                          size_t bytes, gcol_stream stream, const char *call,
                                          void **out) {
  if (err != cudaSuccess) {
    char what[192];
    snprintf(what, sizeof what, "%s resource: %s of %zu bytes", self->name, call, bytes);
    return gcol_detail_cuda_error((int)err, "gcol_mr_allocate", what);
  }
  if (!is_aligned(ptr)) {
    self->deallocate(self, ptr, bytes, stream);
    return gcol_detail_error(GCOL_ERROR_INTERNAL, "gcol_mr_allocate",
                             "%s resource: %s returned %p, not aligned to %d bytes", self->name,
                             call, ptr, GCOL_MR_ALIGNMENT);
  }
  *out = ptr;
  return GCOL_OK;
}

/* Logs (and records as the thread's last error) a failed free: deallocate returns nothing. */
static void report_cuda_free(gcol_mr *self, cudaError_t err, void *ptr, const char *call) {
  if (err == cudaSuccess) return;
  char what[192];
  snprintf(what, sizeof what, "%s resource: %s(%p)", self->name, call, ptr);
  (void)gcol_detail_cuda_error((int)err, "gcol_mr_deallocate", what);
}

/* gcol's own stream-ordered pool per device, shared by every async resource and never
 * destroyed. Its release threshold is raised so freed memory stays mapped for reuse: with
 * the driver's default (0) every synchronization hands memory back and the next large
 * allocation re-maps it, which can cost more than the operation itself. A pool of our own
 * leaves the device's default pool, which other code in the process may use, untouched. */
#define GCOL_DETAIL_MAX_POOL_DEVICES 64
static _Atomic(cudaMemPool_t) async_pools[GCOL_DETAIL_MAX_POOL_DEVICES];

static cudaError_t async_pool_for_current_device(cudaMemPool_t *out) {
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return err;
  if (device < 0 || device >= GCOL_DETAIL_MAX_POOL_DEVICES) return cudaErrorInvalidDevice;
  cudaMemPool_t pool = atomic_load(&async_pools[device]);
  if (pool != NULL) {
    *out = pool;
    return cudaSuccess;
  }
  struct cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  err = cudaMemPoolCreate(&pool, &props);
  if (err != cudaSuccess) return err;
  uint64_t threshold = UINT64_MAX;
  err = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  if (err != cudaSuccess) {
    (void)cudaMemPoolDestroy(pool);
    return err;
  }
  cudaMemPool_t expected = NULL;
  if (!atomic_compare_exchange_strong(&async_pools[device], &expected, pool)) {
    (void)cudaMemPoolDestroy(pool); /* another thread won the race: use its pool */
    pool = expected;
  }
  *out = pool;
  return cudaSuccess;
}

static gcol_status async_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  size_t rounded = 0;
  void *ptr = NULL;
  cudaMemPool_t pool = NULL;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  /* Whole 256-byte multiples, so that the driver's pool packs allocations on that grid. */
  if (!round_to_alignment(bytes, &rounded)) return size_too_large(self, bytes);
  cudaError_t err = async_pool_for_current_device(&pool);
  if (err == cudaSuccess) err = cudaMallocFromPoolAsync(&ptr, rounded, pool, (cudaStream_t)stream);
  return finish_cuda_allocation(self, err, ptr, rounded, stream, "cudaMallocFromPoolAsync", out);
}

static void async_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  GCOL_UNUSED(bytes);
  if (ptr == NULL) return;
  report_cuda_free(self, cudaFreeAsync(ptr, (cudaStream_t)stream), ptr, "cudaFreeAsync");
}

static gcol_status cuda_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  void *ptr = NULL;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  cudaError_t err = cudaMalloc(&ptr, bytes);
  return finish_cuda_allocation(self, err, ptr, bytes, stream, "cudaMalloc", out);
}

/*
 * cudaFree and cudaFreeHost are not stream-ordered, and CUDA 13 documents only that they "may"
 * synchronize. gcol frees temporaries right after launching the work that reads them (the
 * resource contract in gcol/memory.h allows it), so without a synchronization here memory
 * still in use on `stream` could be handed at once to another thread's allocation (batched
 * Parquet reads free and allocate on four threads at a time). The stream is synchronized
 * first; the free itself would usually wait for the device anyway.
 */
static void sync_before_free(gcol_mr *self, void *ptr, gcol_stream stream) {
  report_cuda_free(self, cudaStreamSynchronize((cudaStream_t)stream), ptr,
                   "cudaStreamSynchronize (before the free)");
}

static void cuda_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  GCOL_UNUSED(bytes);
  if (ptr == NULL) return;
  sync_before_free(self, ptr, stream);
  report_cuda_free(self, cudaFree(ptr), ptr, "cudaFree");
}

static gcol_status pinned_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  void *ptr = NULL;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  cudaError_t err = cudaMallocHost(&ptr, bytes);
  return finish_cuda_allocation(self, err, ptr, bytes, stream, "cudaMallocHost", out);
}

static void pinned_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  GCOL_UNUSED(bytes);
  if (ptr == NULL) return;
  sync_before_free(self, ptr, stream);
  report_cuda_free(self, cudaFreeHost(ptr), ptr, "cudaFreeHost");
}

static gcol_status managed_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  void *ptr = NULL;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  cudaError_t err = cudaMallocManaged(&ptr, bytes, cudaMemAttachGlobal);
  return finish_cuda_allocation(self, err, ptr, bytes, stream, "cudaMallocManaged", out);
}

static void managed_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  GCOL_UNUSED(bytes);
  if (ptr == NULL) return;
  sync_before_free(self, ptr, stream);
  report_cuda_free(self, cudaFree(ptr), ptr, "cudaFree");
}

/* ------------------------------------------------------------------------------------- */
/* Host resource: the C heap, no CUDA call                                               */
/* ------------------------------------------------------------------------------------- */

static gcol_status host_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  size_t rounded = 0;
  GCOL_UNUSED(stream);
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  /* C11 aligned_alloc wants the size to be a multiple of the alignment. */
  if (!round_to_alignment(bytes, &rounded)) return size_too_large(self, bytes);
  void *ptr = aligned_alloc(GCOL_MR_ALIGNMENT, rounded);
  if (ptr == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_mr_allocate",
                             "%s resource: aligned_alloc of %zu bytes failed", self->name,
                             rounded);
  }
  *out = ptr;
  return GCOL_OK;
}

static void host_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  GCOL_UNUSED(self);
  GCOL_UNUSED(bytes);
  GCOL_UNUSED(stream);
  free(ptr);
}

/* ------------------------------------------------------------------------------------- */
/* Creation                                                                              */
/* ------------------------------------------------------------------------------------- */

static void destroy_builtin(gcol_mr *self) { free(self); }

static const gcol_mr async_prototype = {async_allocate, async_deallocate, destroy_builtin,
                                        NULL, GCOL_MEMORY_DEVICE, "async"};
static const gcol_mr cuda_prototype = {cuda_allocate, cuda_deallocate, destroy_builtin,
                                       NULL, GCOL_MEMORY_DEVICE, "cuda"};
static const gcol_mr pinned_prototype = {pinned_allocate, pinned_deallocate, destroy_builtin,
                                         NULL, GCOL_MEMORY_PINNED, "pinned"};
static const gcol_mr managed_prototype = {managed_allocate, managed_deallocate,
                                          destroy_builtin, NULL, GCOL_MEMORY_MANAGED,
                                          "managed"};
static const gcol_mr host_prototype = {host_allocate, host_deallocate, destroy_builtin, NULL,
                                       GCOL_MEMORY_HOST, "host"};

/* The default of every device until set otherwise; never freed (destroy is NULL). */
static gcol_mr builtin_default = {async_allocate, async_deallocate, NULL, NULL,
                                  GCOL_MEMORY_DEVICE, "async"};

/* A heap copy of a prototype: the resource struct itself, no other state. */
static gcol_status create_from_prototype(const gcol_mr *prototype, gcol_mr **out,
                                         const char *func) {
  if (out == NULL) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, func, "out is NULL");
  }
  *out = NULL;
  gcol_mr *mr = (gcol_mr *)malloc(sizeof *mr);
  if (mr == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, func,
                             "cannot allocate the %s resource struct", prototype->name);
  }
  *mr = *prototype;
  *out = mr;
  return GCOL_OK;
}

static gcol_status mr_async_create(gcol_mr **out) {
  return create_from_prototype(&async_prototype, out, __func__);
}

gcol_status gcol_mr_async_create(gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_async_create");
  gcol_status const status = mr_async_create(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status mr_cuda_create(gcol_mr **out) {
  return create_from_prototype(&cuda_prototype, out, __func__);
}

gcol_status gcol_mr_cuda_create(gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_cuda_create");
  gcol_status const status = mr_cuda_create(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status mr_pinned_create(gcol_mr **out) {
  return create_from_prototype(&pinned_prototype, out, __func__);
}

gcol_status gcol_mr_pinned_create(gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_pinned_create");
  gcol_status const status = mr_pinned_create(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status mr_managed_create(gcol_mr **out) {
  return create_from_prototype(&managed_prototype, out, __func__);
}

gcol_status gcol_mr_managed_create(gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_managed_create");
  gcol_status const status = mr_managed_create(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status mr_host_create(gcol_mr **out) {
  return create_from_prototype(&host_prototype, out, __func__);
}

gcol_status gcol_mr_host_create(gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_host_create");
  gcol_status const status = mr_host_create(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ------------------------------------------------------------------------------------- */
/* Per-device default                                                                    */
/* ------------------------------------------------------------------------------------- */

/* NULL in a slot means the built-in resource. Static atomics start as NULL. */
static _Atomic(gcol_mr *) default_slots[GCOL_DETAIL_MR_MAX_DEVICES];

/*
 * The slot of the current device: cudaGetDevice's answer, or slot 0 where it fails (no
 * GPU, no driver), so that the default can be read and set on a CPU-only machine. -1 for
 * a device number beyond the table.
 */
static int current_slot(void) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError(); /* leave no error state behind for the caller */
    return 0;
  }
  return (device >= 0 && device < GCOL_DETAIL_MR_MAX_DEVICES) ? device : -1;
}

gcol_mr *gcol_mr_get_default(void) {
  int const slot = current_slot();
  gcol_mr *mr = slot >= 0 ? atomic_load(&default_slots[slot]) : NULL;
  return mr != NULL ? mr : &builtin_default;
}

static gcol_status mr_set_default(gcol_mr *mr, gcol_mr **previous) {
  gcol_status status = GCOL_OK;
  if (previous != NULL) *previous = NULL;
  int const slot = current_slot();
  GCOL_DETAIL_CHECK(slot >= 0, GCOL_ERROR_UNSUPPORTED,
                    "the current device number is %d or more; only %d devices have a "
                    "settable default resource",
                    GCOL_DETAIL_MR_MAX_DEVICES, GCOL_DETAIL_MR_MAX_DEVICES);
  GCOL_DETAIL_CHECK(mr == NULL || (mr->allocate != NULL && mr->deallocate != NULL),
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "mr has a NULL allocate or deallocate function");
  gcol_mr *const stored = (mr == &builtin_default) ? NULL : mr;
  gcol_mr *const old = atomic_exchange(&default_slots[slot], stored);
  if (previous != NULL) *previous = old != NULL ? old : &builtin_default;
done:
  return status;
}

gcol_status gcol_mr_set_default(gcol_mr *mr, gcol_mr **previous) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_set_default");
  gcol_status const status = mr_set_default(mr, previous);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* A destroyed default would leave a dangling pointer: put the built-in back and say so. */
static void forget_default(gcol_mr *mr) {
  for (int slot = 0; slot < GCOL_DETAIL_MR_MAX_DEVICES; ++slot) {
    gcol_mr *expected = mr;
    if (atomic_compare_exchange_strong(&default_slots[slot], &expected, NULL)) {
      GCOL_DETAIL_LOG(GCOL_LOG_WARN,
                      "gcol_mr_destroy: the %s resource %p was the default of device %d; "
                      "the built-in resource is the default again",
                      mr->name != NULL ? mr->name : "user", (void *)mr, slot);
    }
  }
}

/* ------------------------------------------------------------------------------------- */
/* Dispatch                                                                              */
/* ------------------------------------------------------------------------------------- */

gcol_status gcol_mr_allocate(gcol_mr *mr, void **out, size_t bytes, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_allocate");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  if (mr == NULL) mr = gcol_mr_get_default();
  GCOL_DETAIL_CHECK(mr->allocate != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "mr (%s) has a NULL allocate function", mr->name != NULL ? mr->name : "user");
  if (bytes == 0) goto done;
  status = mr->allocate(mr, out, bytes, stream);
  if (status != GCOL_OK) *out = NULL; /* whatever a user resource left there */
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_mr_deallocate(gcol_mr *mr, void *ptr, size_t bytes, gcol_stream stream) {
  if (ptr == NULL) return;
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_deallocate");
  if (mr == NULL) mr = gcol_mr_get_default();
  if (mr->deallocate != NULL) {
    mr->deallocate(mr, ptr, bytes, stream);
  } else {
    (void)gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                            "mr (%s) has a NULL deallocate function; %p is not freed",
                            mr->name != NULL ? mr->name : "user", ptr);
  }
  GCOL_DETAIL_NVTX_POP();
}

void gcol_mr_destroy(gcol_mr *mr) {
  if (mr == NULL || mr == &builtin_default) return;
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_destroy");
  forget_default(mr);
  if (mr->destroy != NULL) mr->destroy(mr);
  GCOL_DETAIL_NVTX_POP();
}

int gcol_device_count(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError(); /* clear what can be cleared: no GPU is an answer */
    return 0;
  }
  return count;
}
