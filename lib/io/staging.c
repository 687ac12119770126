/* The page-locked host memory readers read files into (include/gcol/io/staging.h): a
 * resource set by the user, or a cache over cudaMallocHost made at its first use and kept
 * (lib/io/staging_cache.c),
 * because page-locking costs about 0.6 ms per MiB (an H200's host, session 25), far more
 * than the copy it speeds up. */
#include "gcol/io/staging.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal/error.h"
#include "internal/nvtx.h"
#include "internal/staging.h"

/* The built-in cache holds at most a quarter of the host's memory, and this. */
#define STAGING_MAX_BYTES ((size_t)8 << 30)

static pthread_mutex_t staging_lock = PTHREAD_MUTEX_INITIALIZER;
static gcol_mr *user_mr;    /* set by gcol_io_set_staging_mr, or NULL */
static gcol_mr *pinned_mr;  /* page-locked memory (cudaMallocHost) */
static gcol_mr upstream_mr; /* the built-in cache's upstream: pinned_mr, and the exit hook */
static gcol_mr *builtin_mr; /* the built-in cache, made at its first use */
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static void release_at_exit(void) { gcol_io_staging_release(); }

/* The cache's memory goes back at exit (a leak checker sees none), registered once the first
 * block is page-locked: CUDA is initialized by then and its own teardown, registered before
 * this, runs after it. */
static void register_exit_hook(void) { (void)atexit(release_at_exit); }

static gcol_status upstream_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  gcol_status const status = gcol_mr_allocate((gcol_mr *)self->state, out, bytes, stream);
  if (status == GCOL_OK && *out != NULL) pthread_once(&exit_once, register_exit_hook);
  return status;
}

static void upstream_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  gcol_mr_deallocate((gcol_mr *)self->state, ptr, bytes, stream);
}

static size_t staging_limit(void) {
  long const pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  size_t limit = STAGING_MAX_BYTES;
  if (pages > 0 && page > 0 && (size_t)pages / 4 < limit / (size_t)page) {
    limit = (size_t)pages / 4 * (size_t)page;
  }
  return limit;
}

/* Makes the built-in cache; under staging_lock. */
static gcol_mr *make_builtin(void) {
  if (builtin_mr != NULL) return builtin_mr;
  if (gcol_mr_pinned_create(&pinned_mr) != GCOL_OK) return NULL;
  upstream_mr = (gcol_mr){upstream_allocate, upstream_deallocate, NULL,
                          pinned_mr,         GCOL_MEMORY_PINNED,  "staging"};
  if (gcol_detail_staging_cache_create(&upstream_mr, staging_limit(), &builtin_mr) != GCOL_OK) {
    gcol_mr_destroy(pinned_mr);
    pinned_mr = NULL;
  }
  return builtin_mr;
}

gcol_mr *gcol_io_get_staging_mr(void) {
  pthread_mutex_lock(&staging_lock);
  gcol_mr *const mr = user_mr != NULL ? user_mr : make_builtin();
  pthread_mutex_unlock(&staging_lock);
  return mr;
}

static gcol_status set_staging_mr(gcol_mr *mr, gcol_mr **previous) {
  if (previous != NULL) *previous = NULL;
  if (mr != NULL && (mr->allocate == NULL || mr->deallocate == NULL)) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_io_set_staging_mr",
                             "the resource lacks allocate or deallocate");
  }
  pthread_mutex_lock(&staging_lock);
  if (previous != NULL) *previous = user_mr;
  user_mr = mr;
  pthread_mutex_unlock(&staging_lock);
  return GCOL_OK;
}

gcol_status gcol_io_set_staging_mr(gcol_mr *mr, gcol_mr **previous) {
  GCOL_DETAIL_NVTX_PUSH("gcol_io_set_staging_mr");
  gcol_status const status = set_staging_mr(mr, previous);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_io_staging_release(void) {
  pthread_mutex_lock(&staging_lock);
  gcol_mr_destroy(builtin_mr); /* the cache returns its blocks to the upstream */
  gcol_mr_destroy(pinned_mr);
  builtin_mr = pinned_mr = NULL;
  pthread_mutex_unlock(&staging_lock);
}
