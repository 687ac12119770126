/* Owning untyped buffers over reference-counted, copy-on-write storage.
 *
 * A gcol_buffer is one holder's handle; its storage (the allocation, its resource and
 * stream, an atomic count of the buffers over it and the exposed flag) is shared by shallow
 * copies. Invariants: a buffer's data/size/mr/stream equal its storage's; an exposed storage
 * has exactly one buffer (exposing makes the buffer unique first, and a shallow copy of an
 * exposed storage copies it), so the flag never has to be read together with the count.
 * Copies of host-memory storage (GCOL_MEMORY_HOST, the CPU tests' resource) are memcpy, so
 * the bookkeeping runs without a GPU.
 *
 * Spillable storages (made while spilling is on, lib/spill.c) move between device and host:
 * every access that hands out or uses their pointer goes through gcol_detail_spill_acquire
 * first (it brings the bytes back and pins or exposes them), and their `data` is read under
 * the manager's lock. Nothing changes for the others. */
#include <cuda_runtime_api.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/buffer.h"
#include "internal/buffer.h"
#include "internal/error.h"
#include "internal/nvtx.h"
#include "internal/spill.h"

/* Process-wide counters of gcol_buffer_statistics (monotonic, relaxed: statistics only). */
static atomic_ullong stat_shared_copies;
static atomic_ullong stat_write_copies;
static atomic_ullong stat_exposed_copies;
static atomic_ullong stat_copied_bytes;

static gcol_status storage_create(size_t size, gcol_mr *mr, gcol_stream stream,
                                  gcol_buffer_storage **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer_storage *s = (gcol_buffer_storage *)calloc(1, sizeof *s);
  GCOL_DETAIL_CHECK(s != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a buffer's storage");
  atomic_init(&s->refs, 1);
  atomic_init(&s->exposed, false);
  s->mr = mr;
  s->stream = stream;
  s->size = size;
  gcol_detail_spill_manager *const manager = gcol_detail_spill_prepare(mr, size);
  GCOL_DETAIL_TRY(gcol_mr_allocate(mr, &s->data, size, stream));
  if (manager != NULL) {
    status = gcol_detail_spill_register(manager, s);
    if (status != GCOL_OK) {
      gcol_mr_deallocate(mr, s->data, size, stream);
      goto done;
    }
  }
  *out = s;
  s = NULL;
done:
  free(s);
  return status;
}

void gcol_detail_storage_destroy(gcol_buffer_storage *s) {
  gcol_mr_deallocate(s->mr, s->data, s->size, s->stream);
  free(s);
}

/* Drops one reference; the last frees the allocation on the storage's stream (or, for a
 * storage a spill scope pins, the scope's end does). */
static void storage_unref(gcol_buffer_storage *s) {
  if (s == NULL) return;
  if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1) return;
  if (s->spill != NULL && !gcol_detail_spill_forget(s)) return;
  gcol_detail_storage_destroy(s);
}

static void point_at(gcol_buffer *buffer, gcol_buffer_storage *s) {
  buffer->storage = s;
  buffer->data = s->spill != NULL ? gcol_detail_spill_data(s) : s->data;
  buffer->size = s->size;
  buffer->mr = s->mr;
  buffer->stream = s->stream;
}

/* Makes `waiter` wait for the work submitted to `signaler` so far (no-op on one stream). */
static gcol_status stream_wait(gcol_stream waiter, gcol_stream signaler) {
  gcol_status status = GCOL_OK;
  cudaEvent_t event = NULL;
  if (waiter == signaler) return GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  GCOL_DETAIL_CUDA_TRY(cudaEventRecord(event, (cudaStream_t)signaler));
  GCOL_DETAIL_CUDA_TRY(cudaStreamWaitEvent((cudaStream_t)waiter, event, 0));
done:
  if (event != NULL) cudaEventDestroy(event);
  return status;
}

/* A new storage holding a copy of `s`'s bytes, from s's resource, allocated and copied on
 * `stream`. On device memory the copy waits for the work on s's stream (which wrote the
 * bytes), and s's stream waits for the copy (so that its free, by whichever holder drops
 * the last reference, follows the copy's read). Counted in `counter`. */
static gcol_status storage_copy(const gcol_buffer_storage *s, gcol_stream stream,
                                atomic_ullong *counter, gcol_buffer_storage **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer_storage *fresh = NULL;
  bool pinned = false;
  gcol_buffer handle = {NULL, 0, NULL, NULL, NULL};
  GCOL_DETAIL_TRY(storage_create(s->size, s->mr, stream, &fresh));
  /* A new spillable storage outside any scope could spill before it is written. */
  handle.storage = fresh;
  GCOL_DETAIL_TRY(gcol_detail_spill_acquire(&handle, GCOL_DETAIL_SPILL_TEMPORARY, stream, false));
  pinned = true;
  if (s->size > 0) {
    if (s->mr->kind == GCOL_MEMORY_HOST) {
      memcpy(fresh->data, s->data, s->size);
    } else {
      GCOL_DETAIL_TRY(stream_wait(stream, s->stream));
      GCOL_DETAIL_CUDA_TRY(
          cudaMemcpyAsync(fresh->data, s->data, s->size, cudaMemcpyDefault, (cudaStream_t)stream));
      GCOL_DETAIL_TRY(stream_wait(s->stream, stream));
    }
  }
  if (s->size > 0) { /* an empty storage has no bytes to copy: not counted */
    atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&stat_copied_bytes, (unsigned long long)s->size,
                              memory_order_relaxed);
  }
  *out = fresh;
done:
  if (pinned) gcol_detail_spill_release_temporary(*out != NULL ? *out : fresh, stream);
  if (*out == NULL) storage_unref(fresh);
  return status;
}

static gcol_status buffer_create(size_t size, gcol_stream stream, gcol_mr *mr, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *buffer = NULL;
  gcol_buffer_storage *s = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  buffer = (gcol_buffer *)calloc(1, sizeof *buffer);
  GCOL_DETAIL_CHECK(buffer != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a buffer struct");
  GCOL_DETAIL_TRY(storage_create(size, mr != NULL ? mr : gcol_mr_get_default(), stream, &s));
  point_at(buffer, s);
  *out = buffer;
  buffer = NULL;
done:
  free(buffer);
  return status;
}

gcol_status gcol_buffer_create(size_t size, gcol_stream stream, gcol_mr *mr, gcol_buffer **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_buffer_create");
  gcol_status const status = buffer_create(size, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status buffer_create_copy(const void *src, size_t size, gcol_stream stream, gcol_mr *mr,
                                      gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *buffer = NULL;
  bool pinned = false;
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  GCOL_DETAIL_CHECK(src != NULL || size == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "src is NULL but size is %zu", size);
  GCOL_DETAIL_TRY(gcol_buffer_create(size, stream, mr, &buffer));
  /* Spillable and outside any scope, it could spill before the copy: pinned meanwhile. */
  GCOL_DETAIL_TRY(gcol_detail_spill_acquire(buffer, GCOL_DETAIL_SPILL_TEMPORARY, stream, false));
  pinned = true;
  if (size > 0) {
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(buffer->data, src, size, cudaMemcpyDefault,
                                         (cudaStream_t)stream));
  }
  *out = buffer;
done:
  if (pinned) gcol_detail_spill_release_temporary(buffer->storage, stream);
  if (*out == NULL) gcol_buffer_free(buffer);
  return status;
}

gcol_status gcol_buffer_create_copy(const void *src, size_t size, gcol_stream stream, gcol_mr *mr,
                                    gcol_buffer **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_buffer_create_copy");
  gcol_status const status = buffer_create_copy(src, size, stream, mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status buffer_copy_shallow(const gcol_buffer *buffer, gcol_stream stream,
                                       gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *copy = NULL;
  gcol_buffer_storage *s = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(buffer);
  GCOL_DETAIL_CHECK(buffer->storage != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "buffer has no storage (not made by gcol_buffer_create)");
  copy = (gcol_buffer *)calloc(1, sizeof *copy);
  GCOL_DETAIL_CHECK(copy != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a buffer struct");
  if (atomic_load_explicit(&buffer->storage->exposed, memory_order_acquire)) {
    GCOL_DETAIL_TRY(storage_copy(buffer->storage, stream, &stat_exposed_copies, &s));
  } else {
    s = buffer->storage;
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&stat_shared_copies, 1, memory_order_relaxed);
  }
  point_at(copy, s);
  *out = copy;
  copy = NULL;
done:
  free(copy);
  return status;
}

gcol_status gcol_buffer_copy_shallow(const gcol_buffer *buffer, gcol_stream stream,
                                     gcol_buffer **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_buffer_copy_shallow");
  gcol_status const status = buffer_copy_shallow(buffer, stream, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* The copy a write access makes of a shared storage; a spillable source is pinned (and
 * brought back) while it is read. */
static gcol_status copy_for_write(gcol_buffer *buffer, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer_storage *const old = buffer->storage;
  gcol_buffer_storage *fresh = NULL;
  GCOL_DETAIL_TRY(gcol_detail_spill_acquire(buffer, GCOL_DETAIL_SPILL_TEMPORARY, stream, false));
  status = storage_copy(old, stream, &stat_write_copies, &fresh);
  gcol_detail_spill_release_temporary(old, stream);
  if (status != GCOL_OK) goto done;
  storage_unref(old);
  point_at(buffer, fresh);
done:
  return status;
}

gcol_status gcol_buffer_make_mutable(gcol_buffer *buffer, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(buffer);
  if (buffer->storage == NULL) goto done; /* a struct gcol did not make: nothing to share */
  if (atomic_load_explicit(&buffer->storage->refs, memory_order_acquire) != 1) {
    GCOL_DETAIL_TRY(copy_for_write(buffer, stream));
  }
  /* The caller writes through buffer->data next: keep the bytes on the device. */
  GCOL_DETAIL_TRY(gcol_detail_spill_acquire(buffer, GCOL_DETAIL_SPILL_VIEW, stream, false));
done:
  return status;
}

gcol_status gcol_buffer_expose(gcol_buffer *buffer, gcol_stream stream, void **out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(buffer);
  GCOL_DETAIL_TRY(gcol_buffer_make_mutable(buffer, stream));
  GCOL_DETAIL_TRY(gcol_detail_spill_acquire(buffer, GCOL_DETAIL_SPILL_EXPOSE, stream, false));
  if (buffer->storage != NULL) {
    atomic_store_explicit(&buffer->storage->exposed, true, memory_order_release);
  }
  *out = buffer->data;
done:
  return status;
}

bool gcol_buffer_is_shared(const gcol_buffer *buffer) { return gcol_buffer_use_count(buffer) > 1; }

bool gcol_buffer_is_exposed(const gcol_buffer *buffer) {
  return buffer != NULL && buffer->storage != NULL &&
         atomic_load_explicit(&buffer->storage->exposed, memory_order_acquire);
}

int64_t gcol_buffer_use_count(const gcol_buffer *buffer) {
  if (buffer == NULL) return 0;
  if (buffer->storage == NULL) return 1;
  return (int64_t)atomic_load_explicit(&buffer->storage->refs, memory_order_acquire);
}

void gcol_buffer_statistics_get(gcol_buffer_statistics *out) {
  if (out == NULL) return;
  out->shared_copies = atomic_load_explicit(&stat_shared_copies, memory_order_relaxed);
  out->write_copies = atomic_load_explicit(&stat_write_copies, memory_order_relaxed);
  out->exposed_copies = atomic_load_explicit(&stat_exposed_copies, memory_order_relaxed);
  out->copied_bytes = atomic_load_explicit(&stat_copied_bytes, memory_order_relaxed);
}

void gcol_buffer_free(gcol_buffer *buffer) {
  if (buffer == NULL) return;
  if (buffer->storage != NULL) {
    storage_unref(buffer->storage);
  } else {
    gcol_mr_deallocate(buffer->mr, buffer->data, buffer->size, buffer->stream);
  }
  free(buffer);
}

void *gcol_buffer_release(gcol_buffer *buffer) {
  if (buffer == NULL) return NULL;
  int64_t const uses = gcol_buffer_use_count(buffer);
  if (uses > 1) {
    gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                      "the buffer's storage is shared by %lld buffers: call "
                      "gcol_buffer_make_mutable() first",
                      (long long)uses);
    return NULL;
  }
  if (buffer->storage != NULL && gcol_detail_spill_detach(buffer->storage) != GCOL_OK) {
    return NULL; /* pinned, or cannot come back: the message says which */
  }
  void *data = buffer->storage != NULL ? buffer->storage->data : buffer->data;
  free(buffer->storage);
  free(buffer);
  return data;
}
