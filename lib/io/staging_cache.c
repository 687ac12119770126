/* The built-in staging resource (include/gcol/io/staging.h): page-locked blocks kept between
 * reads, handed out whole, best fit. Every free of staging memory comes after the host has
 * seen the copies out of it finish (the readers synchronize first), so the cache keeps no
 * stream order: no events, no table of streams (a gcol_mr_pool kept an event for every
 * stream it saw a free on, four new ones per batched read), and no device of its own
 * (page-locked memory serves every device under unified addressing). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal/error.h"
#include "internal/staging.h"

typedef struct cache_block {
  void *ptr;
  size_t size;
  bool used;
} cache_block;

typedef struct staging_cache {
  gcol_mr *upstream;
  size_t limit;
  size_t held;
  size_t used;
  cache_block *blocks;
  int64_t num_blocks;
  int64_t capacity;
  pthread_mutex_t lock;
} staging_cache;

/* Blocks are whole multiples of this (a batch's window varies by a few MiB between batches;
 * rounded, the next batch's fits the last one's block). */
#define CACHE_GRAIN ((size_t)2 << 20)

/* The smallest free block that holds `bytes` and is not more than twice as large, or -1. */
static int64_t best_fit(const staging_cache *c, size_t bytes) {
  int64_t best = -1;
  for (int64_t i = 0; i < c->num_blocks; ++i) {
    const cache_block *b = &c->blocks[i];
    if (b->used || b->size < bytes || b->size / 2 > bytes) continue;
    if (best < 0 || b->size < c->blocks[best].size) best = i;
  }
  return best;
}

/* Gives free blocks back to the upstream, largest first, until `need` more bytes fit. */
static void evict(staging_cache *c, size_t need) {
  while (c->held + need > c->limit) {
    int64_t largest = -1;
    for (int64_t i = 0; i < c->num_blocks; ++i) {
      if (!c->blocks[i].used && (largest < 0 || c->blocks[i].size > c->blocks[largest].size)) {
        largest = i;
      }
    }
    if (largest < 0) return;
    gcol_mr_deallocate(c->upstream, c->blocks[largest].ptr, c->blocks[largest].size, NULL);
    c->held -= c->blocks[largest].size;
    c->blocks[largest] = c->blocks[--c->num_blocks];
  }
}

static gcol_status cache_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  staging_cache *c = (staging_cache *)self->state;
  gcol_status status = GCOL_OK;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  size_t const size = (bytes + CACHE_GRAIN - 1) / CACHE_GRAIN * CACHE_GRAIN;
  pthread_mutex_lock(&c->lock);
  int64_t const fit = best_fit(c, size);
  if (fit >= 0) {
    c->blocks[fit].used = true;
    c->used += c->blocks[fit].size;
    *out = c->blocks[fit].ptr;
    goto done;
  }
  GCOL_DETAIL_CHECK(size >= bytes && size <= c->limit, GCOL_ERROR_OUT_OF_MEMORY,
                    "staging cache: %zu bytes, more than its limit of %zu", bytes, c->limit);
  evict(c, size);
  GCOL_DETAIL_CHECK(c->held + size <= c->limit, GCOL_ERROR_OUT_OF_MEMORY,
                    "staging cache: %zu bytes: %zu of its %zu are in use", bytes, c->used,
                    c->limit);
  if (c->num_blocks == c->capacity) {
    int64_t const cap = c->capacity < 8 ? 8 : 2 * c->capacity;
    cache_block *grown = (cache_block *)realloc(c->blocks, (size_t)cap * sizeof *grown);
    GCOL_DETAIL_CHECK(grown != NULL, GCOL_ERROR_OUT_OF_MEMORY, "staging cache: out of memory");
    c->blocks = grown;
    c->capacity = cap;
  }
  void *ptr = NULL;
  GCOL_DETAIL_TRY(gcol_mr_allocate(c->upstream, &ptr, size, stream));
  c->blocks[c->num_blocks++] = (cache_block){ptr, size, true};
  c->held += size;
  c->used += size;
  *out = ptr;
done:
  pthread_mutex_unlock(&c->lock);
  return status;
}

static void cache_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  staging_cache *c = (staging_cache *)self->state;
  (void)bytes;
  (void)stream; /* the copies out of it are finished: see the top of this file */
  if (ptr == NULL) return;
  pthread_mutex_lock(&c->lock);
  int64_t i = 0;
  while (i < c->num_blocks && c->blocks[i].ptr != ptr) ++i;
  if (i < c->num_blocks && c->blocks[i].used) {
    c->blocks[i].used = false;
    c->used -= c->blocks[i].size;
  } else {
    (void)gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_mr_deallocate",
                            "staging cache: %p is not a block in use", ptr);
  }
  pthread_mutex_unlock(&c->lock);
}

static void cache_destroy(gcol_mr *self) {
  staging_cache *c = (staging_cache *)self->state;
  for (int64_t i = 0; i < c->num_blocks; ++i) {
    gcol_mr_deallocate(c->upstream, c->blocks[i].ptr, c->blocks[i].size, NULL);
  }
  pthread_mutex_destroy(&c->lock);
  free(c->blocks);
  free(c);
  free(self);
}

gcol_status gcol_detail_staging_cache_create(gcol_mr *upstream, size_t limit, gcol_mr **out) {
  *out = NULL;
  staging_cache *c = (staging_cache *)calloc(1, sizeof *c);
  gcol_mr *mr = (gcol_mr *)calloc(1, sizeof *mr);
  if (c == NULL || mr == NULL || pthread_mutex_init(&c->lock, NULL) != 0) {
    free(c);
    free(mr);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  }
  c->upstream = upstream;
  c->limit = limit;
  *mr = (gcol_mr){cache_allocate, cache_deallocate, cache_destroy, c, upstream->kind, "staging"};
  *out = mr;
  return GCOL_OK;
}

void gcol_detail_staging_cache_info(gcol_mr *cache, size_t *held, size_t *used, int64_t *blocks) {
  staging_cache *c = (staging_cache *)cache->state;
  pthread_mutex_lock(&c->lock);
  *held = c->held;
  *used = c->used;
  *blocks = c->num_blocks;
  pthread_mutex_unlock(&c->lock);
}
