/*
 * Adaptors over any upstream resource: statistics (counters and a table of live
 * allocations for leak reports), a limit on the bytes in use, and fail-on-Nth allocation
 * for fault tests. Adaptors never destroy their upstream and make no CUDA call themselves.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "gcol/memory.h"
#include "internal/error.h"
#include "internal/log.h"
#include "internal/nvtx.h"

static const char *name_of(const gcol_mr *mr) {
  return mr->name != NULL ? mr->name : "user";
}

/* The checks every adaptor's create function makes; sets *out to NULL first. */
static gcol_status check_adaptor_arguments(gcol_mr *upstream, gcol_mr **out, const char *func) {
  if (out == NULL) return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, func, "out is NULL");
  *out = NULL;
  if (upstream == NULL) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, func, "upstream is NULL");
  }
  if (upstream->allocate == NULL || upstream->deallocate == NULL) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, func,
                             "upstream (%s) has a NULL allocate or deallocate function",
                             name_of(upstream));
  }
  return GCOL_OK;
}

/* ------------------------------------------------------------------------------------- */
/* Live allocations: an open-addressing table ptr -> size (linear probing)               */
/* ------------------------------------------------------------------------------------- */

typedef struct live_entry {
  void *ptr; /* NULL: empty slot */
  size_t size;
} live_entry;

typedef struct live_table {
  live_entry *slots;
  size_t capacity; /* a power of two, or 0 */
  size_t count;
} live_table;

static size_t slot_of(const void *ptr, size_t capacity) {
  uint64_t h = (uint64_t)(uintptr_t)ptr;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return (size_t)h & (capacity - 1);
}

static void live_put(live_table *table, void *ptr, size_t size) {
  size_t i = slot_of(ptr, table->capacity);
  while (table->slots[i].ptr != NULL) i = (i + 1) & (table->capacity - 1);
  table->slots[i] = (live_entry){ptr, size};
  ++table->count;
}

/* Keeps the load at most one half. */
static bool live_reserve(live_table *table) {
  if ((table->count + 1) * 2 <= table->capacity) return true;
  size_t const capacity = table->capacity == 0 ? 64 : table->capacity * 2;
  live_entry *slots = (live_entry *)calloc(capacity, sizeof *slots);
  if (slots == NULL) return false;
  live_table grown = {slots, capacity, 0};
  for (size_t i = 0; i < table->capacity; ++i) {
    if (table->slots[i].ptr != NULL) live_put(&grown, table->slots[i].ptr, table->slots[i].size);
  }
  free(table->slots);
  *table = grown;
  return true;
}

/* Removes ptr and gives its size; false if it is not there. Backward-shift deletion. */
static bool live_take(live_table *table, const void *ptr, size_t *size) {
  if (table->capacity == 0) return false;
  size_t const mask = table->capacity - 1;
  size_t i = slot_of(ptr, table->capacity);
  while (table->slots[i].ptr != ptr) {
    if (table->slots[i].ptr == NULL) return false;
    i = (i + 1) & mask;
  }
  *size = table->slots[i].size;
  size_t hole = i;
  for (size_t j = (i + 1) & mask; table->slots[j].ptr != NULL; j = (j + 1) & mask) {
    size_t const home = slot_of(table->slots[j].ptr, table->capacity);
    /* Move j into the hole unless its home lies cyclically in (hole, j]. */
    bool const stays = (hole <= j) ? (hole < home && home <= j) : (hole < home || home <= j);
    if (!stays) {
      table->slots[hole] = table->slots[j];
      hole = j;
    }
  }
  table->slots[hole].ptr = NULL;
  --table->count;
  return true;
}

/* ------------------------------------------------------------------------------------- */
/* Statistics                                                                            */
/* ------------------------------------------------------------------------------------- */

typedef struct statistics_state {
  gcol_mr self;
  gcol_mr *upstream;
  pthread_mutex_t lock;
  gcol_mr_statistics counters;
  live_table live;
} statistics_state;

static gcol_status statistics_allocate(gcol_mr *self, void **out, size_t bytes,
                                       gcol_stream stream) {
  statistics_state *stats = (statistics_state *)self->state;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  void *ptr = NULL;
  gcol_status status = gcol_mr_allocate(stats->upstream, &ptr, bytes, stream);
  pthread_mutex_lock(&stats->lock);
  gcol_mr_statistics *c = &stats->counters;
  if (status == GCOL_OK && !live_reserve(&stats->live)) {
    status = GCOL_ERROR_OUT_OF_MEMORY; /* message raised below, outside the lock */
  } else if (status == GCOL_OK) {
    live_put(&stats->live, ptr, bytes);
    c->current_bytes += (int64_t)bytes;
    c->total_bytes += (int64_t)bytes;
    if (c->current_bytes > c->peak_bytes) c->peak_bytes = c->current_bytes;
    ++c->current_allocations;
    ++c->total_allocations;
    if (c->current_allocations > c->peak_allocations) c->peak_allocations = c->current_allocations;
    *out = ptr;
  }
  if (status != GCOL_OK) ++c->failed_allocations;
  pthread_mutex_unlock(&stats->lock);
  if (status != GCOL_OK && ptr != NULL) {
    gcol_mr_deallocate(stats->upstream, ptr, bytes, stream);
    status = gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_mr_allocate",
                               "statistics: cannot grow its table of live allocations");
  }
  return status;
}

static void statistics_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  if (ptr == NULL) return;
  statistics_state *stats = (statistics_state *)self->state;
  size_t size = 0;
  pthread_mutex_lock(&stats->lock);
  bool const known = live_take(&stats->live, ptr, &size);
  if (known) {
    stats->counters.current_bytes -= (int64_t)size;
    --stats->counters.current_allocations;
  }
  pthread_mutex_unlock(&stats->lock);
  if (!known) {
    (void)gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_mr_deallocate",
                            "statistics: %p (%zu bytes) was not allocated through it", ptr,
                            bytes);
  } else if (size != bytes) {
    GCOL_DETAIL_LOG(GCOL_LOG_WARN, "statistics: %p freed as %zu bytes but allocated as %zu",
                    ptr, bytes, size);
  }
  gcol_mr_deallocate(stats->upstream, ptr, bytes, stream);
}

static void statistics_destroy(gcol_mr *self) {
  statistics_state *stats = (statistics_state *)self->state;
  if (stats->live.count > 0) {
    GCOL_DETAIL_LOG(GCOL_LOG_WARN,
                    "statistics resource %p destroyed with %zu live allocations (%lld bytes)",
                    (void *)self, stats->live.count, (long long)stats->counters.current_bytes);
  }
  free(stats->live.slots);
  pthread_mutex_destroy(&stats->lock);
  free(stats);
}

gcol_status gcol_mr_statistics_create(gcol_mr *upstream, gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_statistics_create");
  gcol_status status = check_adaptor_arguments(upstream, out, __func__);
  statistics_state *stats = NULL;
  if (status != GCOL_OK) goto done;
  stats = (statistics_state *)calloc(1, sizeof *stats);
  GCOL_DETAIL_CHECK(stats != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "cannot allocate the statistics state");
  GCOL_DETAIL_CHECK(pthread_mutex_init(&stats->lock, NULL) == 0, GCOL_ERROR_INTERNAL,
                    "cannot initialize the statistics mutex");
  stats->self = (gcol_mr){statistics_allocate, statistics_deallocate, statistics_destroy, stats,
                          upstream->kind, "statistics"};
  stats->upstream = upstream;
  *out = &stats->self;
  stats = NULL;
done:
  free(stats);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static statistics_state *as_statistics(gcol_mr *mr) {
  return (mr != NULL && mr->allocate == statistics_allocate) ? (statistics_state *)mr->state
                                                              : NULL;
}

static gcol_status mr_statistics_get(gcol_mr *mr, gcol_mr_statistics *out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(mr);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  statistics_state *stats = as_statistics(mr);
  GCOL_DETAIL_CHECK(stats != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "mr (%s resource) is not a statistics resource", name_of(mr));
  pthread_mutex_lock(&stats->lock);
  *out = stats->counters;
  pthread_mutex_unlock(&stats->lock);
done:
  return status;
}

gcol_status gcol_mr_statistics_get(gcol_mr *mr, gcol_mr_statistics *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_statistics_get");
  gcol_status const status = mr_statistics_get(mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status mr_statistics_report_leaks(gcol_mr *mr, int64_t *out_live) {
  gcol_status status = GCOL_OK;
  if (out_live != NULL) *out_live = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(mr);
  statistics_state *stats = as_statistics(mr);
  GCOL_DETAIL_CHECK(stats != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "mr (%s resource) is not a statistics resource", name_of(mr));
  pthread_mutex_lock(&stats->lock);
  for (size_t i = 0; i < stats->live.capacity; ++i) {
    const live_entry *entry = &stats->live.slots[i];
    if (entry->ptr == NULL) continue;
    GCOL_DETAIL_LOG(GCOL_LOG_WARN, "statistics resource %p: %zu bytes at %p still allocated",
                    (void *)mr, entry->size, entry->ptr);
  }
  if (out_live != NULL) *out_live = (int64_t)stats->live.count;
  pthread_mutex_unlock(&stats->lock);
done:
  return status;
}

gcol_status gcol_mr_statistics_report_leaks(gcol_mr *mr, int64_t *out_live) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_statistics_report_leaks");
  gcol_status const status = mr_statistics_report_leaks(mr, out_live);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ------------------------------------------------------------------------------------- */
/* Limit                                                                                 */
/* ------------------------------------------------------------------------------------- */

typedef struct limit_state {
  gcol_mr self;
  gcol_mr *upstream;
  size_t limit_bytes;
  pthread_mutex_t lock;
  size_t current_bytes; /* bytes asked for and not yet freed */
} limit_state;

static gcol_status limit_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  limit_state *limit = (limit_state *)self->state;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  /* Reserve first, so that concurrent requests cannot pass the limit together. */
  pthread_mutex_lock(&limit->lock);
  size_t const in_use = limit->current_bytes;
  bool const fits = bytes <= limit->limit_bytes && in_use <= limit->limit_bytes - bytes;
  if (fits) limit->current_bytes += bytes;
  pthread_mutex_unlock(&limit->lock);
  if (!fits) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_mr_allocate",
                             "limit: %zu bytes would exceed the limit of %zu bytes (%zu in use)",
                             bytes, limit->limit_bytes, in_use);
  }
  gcol_status status = gcol_mr_allocate(limit->upstream, out, bytes, stream);
  if (status != GCOL_OK) {
    pthread_mutex_lock(&limit->lock);
    limit->current_bytes -= bytes;
    pthread_mutex_unlock(&limit->lock);
  }
  return status;
}

static void limit_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  if (ptr == NULL) return;
  limit_state *limit = (limit_state *)self->state;
  pthread_mutex_lock(&limit->lock);
  limit->current_bytes -= bytes <= limit->current_bytes ? bytes : limit->current_bytes;
  pthread_mutex_unlock(&limit->lock);
  gcol_mr_deallocate(limit->upstream, ptr, bytes, stream);
}

static void limit_destroy(gcol_mr *self) {
  limit_state *limit = (limit_state *)self->state;
  pthread_mutex_destroy(&limit->lock);
  free(limit);
}

gcol_status gcol_mr_limit_create(gcol_mr *upstream, size_t limit_bytes, gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_limit_create");
  gcol_status status = check_adaptor_arguments(upstream, out, __func__);
  limit_state *limit = NULL;
  if (status != GCOL_OK) goto done;
  limit = (limit_state *)calloc(1, sizeof *limit);
  GCOL_DETAIL_CHECK(limit != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate the limit state");
  GCOL_DETAIL_CHECK(pthread_mutex_init(&limit->lock, NULL) == 0, GCOL_ERROR_INTERNAL,
                    "cannot initialize the limit mutex");
  limit->self =
      (gcol_mr){limit_allocate, limit_deallocate, limit_destroy, limit, upstream->kind, "limit"};
  limit->upstream = upstream;
  limit->limit_bytes = limit_bytes;
  *out = &limit->self;
  limit = NULL;
done:
  free(limit);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ------------------------------------------------------------------------------------- */
/* Fail on the Nth allocation                                                            */
/* ------------------------------------------------------------------------------------- */

typedef struct fail_nth_state {
  gcol_mr self;
  gcol_mr *upstream;
  int64_t n; /* 0: never fail */
  _Atomic int64_t count;
} fail_nth_state;

static gcol_status fail_nth_allocate(gcol_mr *self, void **out, size_t bytes,
                                     gcol_stream stream) {
  fail_nth_state *fail = (fail_nth_state *)self->state;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  int64_t const request = atomic_fetch_add(&fail->count, 1) + 1;
  if (request == fail->n) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_mr_allocate",
                             "fail_nth: request #%lld (%zu bytes) fails on purpose",
                             (long long)request, bytes);
  }
  return gcol_mr_allocate(fail->upstream, out, bytes, stream);
}

static void fail_nth_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  fail_nth_state *fail = (fail_nth_state *)self->state;
  gcol_mr_deallocate(fail->upstream, ptr, bytes, stream);
}

static void fail_nth_destroy(gcol_mr *self) { free(self->state); }

gcol_status gcol_mr_fail_nth_create(gcol_mr *upstream, int64_t n, gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_fail_nth_create");
  gcol_status status = check_adaptor_arguments(upstream, out, __func__);
  fail_nth_state *fail = NULL;
  if (status != GCOL_OK) goto done;
  GCOL_DETAIL_CHECK(n >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "n is negative (%lld); requests count from 1, and 0 never fails",
                    (long long)n);
  fail = (fail_nth_state *)calloc(1, sizeof *fail);
  GCOL_DETAIL_CHECK(fail != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "cannot allocate the fail_nth state");
  fail->self = (gcol_mr){fail_nth_allocate, fail_nth_deallocate, fail_nth_destroy, fail,
                         upstream->kind, "fail_nth"};
  fail->upstream = upstream;
  fail->n = n;
  atomic_init(&fail->count, 0);
  *out = &fail->self;
  fail = NULL;
done:
  free(fail);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

int64_t gcol_mr_fail_nth_count(gcol_mr *mr) {
  if (mr == NULL || mr->allocate != fail_nth_allocate) {
    (void)gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                            "mr (%s) is not a fail_nth resource",
                            mr == NULL ? "NULL" : name_of(mr));
    return -1;
  }
  return atomic_load(&((fail_nth_state *)mr->state)->count);
}
