/*
 * The coalescing pool: sub-allocates 256-byte-aligned pieces, best fit, from blocks taken
 * from any upstream resource.
 *
 * Data structure (simple on purpose): an array of blocks; each block holds a sorted array
 * of pieces that tile it exactly, used and free. Free pieces remember the stream they were
 * freed on. Every operation runs under one mutex.
 *
 * Stream order: a piece freed on stream s is reusable at once by work on s. Handing it to
 * another stream first waits for s to pass the free. The pool records one CUDA event per
 * stream at each free and waits on that event (not on the stream itself), so a stream may
 * be destroyed while the pool still remembers it. A pool whose upstream is host memory
 * makes no CUDA call at all: its bookkeeping is the same and is testable on the CPU.
 *
 * Free neighbours freed on the same stream merge at once. Neighbours freed on different
 * streams merge only when no piece fits a request (after waiting for their streams), so
 * frees never block on other streams.
 */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/memory.h"
#include "internal/error.h"
#include "internal/log.h"
#include "internal/nvtx.h"

typedef struct pool_piece {
  char *ptr;
  size_t size;
  gcol_stream stream; /* free piece: the stream it was freed on (or its block taken on) */
  bool used;
} pool_piece;

typedef struct pool_block {
  char *base;
  size_t size;
  pool_piece *pieces; /* sorted by address, tiling [base, base + size) */
  int64_t count;
  int64_t capacity;
} pool_block;

typedef struct pool_stream_event {
  gcol_stream stream;
  cudaEvent_t event; /* recorded on `stream` at each free there */
} pool_stream_event;

typedef struct pool_state {
  gcol_mr self;
  gcol_mr *upstream;
  size_t maximum_bytes; /* 0: no maximum */
  bool uses_cuda;       /* false over a host upstream: no event, no wait */
  pthread_mutex_t lock;
  pool_block *blocks;
  int64_t num_blocks;
  int64_t block_capacity;
  pool_stream_event *events;
  int64_t num_events;
  int64_t event_capacity;
  size_t held_bytes;
  size_t used_bytes;
} pool_state;

static gcol_status pool_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream);
static void pool_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream);
static void pool_destroy(gcol_mr *self);

static bool round_to_alignment(size_t bytes, size_t *rounded) {
  if (bytes > SIZE_MAX - (GCOL_MR_ALIGNMENT - 1)) return false;
  *rounded = (bytes + (GCOL_MR_ALIGNMENT - 1)) & ~(size_t)(GCOL_MR_ALIGNMENT - 1);
  return true;
}

/* Grows an array of `elem` bytes per item to hold at least `need` items. */
static bool reserve(void **items, int64_t *capacity, int64_t need, size_t elem) {
  if (need <= *capacity) return true;
  int64_t grown = *capacity < 8 ? 8 : *capacity * 2;
  while (grown < need) grown *= 2;
  void *moved = realloc(*items, (size_t)grown * elem);
  if (moved == NULL) return false;
  *items = moved;
  *capacity = grown;
  return true;
}

/* ------------------------------------------------------------------------------------- */
/* Stream order: one event per stream                                                    */
/* ------------------------------------------------------------------------------------- */

static pool_stream_event *find_event(pool_state *pool, gcol_stream stream) {
  for (int64_t i = 0; i < pool->num_events; ++i) {
    if (pool->events[i].stream == stream) return &pool->events[i];
  }
  return NULL;
}

/* Marks "everything enqueued on `stream` so far" with the stream's event. */
static gcol_status record_stream(pool_state *pool, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaEvent_t event = NULL;
  if (!pool->uses_cuda) return GCOL_OK;
  pool_stream_event *entry = find_event(pool, stream);
  if (entry == NULL) {
    GCOL_DETAIL_CHECK(reserve((void **)&pool->events, &pool->event_capacity,
                              pool->num_events + 1, sizeof *pool->events),
                      GCOL_ERROR_OUT_OF_MEMORY, "pool: cannot grow its table of streams");
    GCOL_DETAIL_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    entry = &pool->events[pool->num_events++];
    entry->stream = stream;
    entry->event = event;
  }
  GCOL_DETAIL_CUDA_TRY(cudaEventRecord(entry->event, (cudaStream_t)stream));
done:
  return status;
}

/* Waits until `stream` has passed its last recorded free: its pieces are then safe for all. */
static gcol_status wait_for_stream(pool_state *pool, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  if (!pool->uses_cuda) return GCOL_OK;
  pool_stream_event *entry = find_event(pool, stream);
  if (entry != NULL) GCOL_DETAIL_CUDA_TRY(cudaEventSynchronize(entry->event));
done:
  return status;
}

/* ------------------------------------------------------------------------------------- */
/* Pieces                                                                                */
/* ------------------------------------------------------------------------------------- */

static void remove_piece(pool_block *block, int64_t index) {
  memmove(&block->pieces[index], &block->pieces[index + 1],
          (size_t)(block->count - index - 1) * sizeof *block->pieces);
  --block->count;
}

/* Joins piece index + 1 into piece index (both free). */
static void merge_with_next(pool_block *block, int64_t index) {
  block->pieces[index].size += block->pieces[index + 1].size;
  remove_piece(block, index + 1);
}

typedef struct piece_ref {
  int64_t block;
  int64_t index;
} piece_ref;

/*
 * Best fit: the smallest free piece of at least `size` bytes, preferring pieces freed on
 * `stream` (reusable without waiting). Returns false if none fits.
 */
static bool find_best_fit(const pool_state *pool, size_t size, gcol_stream stream,
                          piece_ref *found) {
  bool have = false, have_same = false;
  size_t best = 0;
  for (int64_t b = 0; b < pool->num_blocks; ++b) {
    const pool_block *block = &pool->blocks[b];
    for (int64_t i = 0; i < block->count; ++i) {
      const pool_piece *piece = &block->pieces[i];
      if (piece->used || piece->size < size) continue;
      bool const same = piece->stream == stream;
      if (have_same && !same) continue;
      if (!have || (same && !have_same) || piece->size < best) {
        have = true;
        have_same = have_same || same;
        best = piece->size;
        found->block = b;
        found->index = i;
      }
    }
  }
  return have;
}

/* Takes `size` bytes from the front of a free piece, splitting off the rest. */
static gcol_status take_piece(pool_state *pool, piece_ref ref, size_t size, gcol_stream stream,
                              void **out) {
  gcol_status status = GCOL_OK;
  pool_block *block = &pool->blocks[ref.block];
  pool_piece *piece = &block->pieces[ref.index];
  if (piece->stream != stream) GCOL_DETAIL_TRY(wait_for_stream(pool, piece->stream));
  if (piece->size > size) {
    GCOL_DETAIL_CHECK(reserve((void **)&block->pieces, &block->capacity, block->count + 1,
                              sizeof *block->pieces),
                      GCOL_ERROR_OUT_OF_MEMORY, "pool: cannot grow a block's piece list");
    piece = &block->pieces[ref.index]; /* the array may have moved */
    memmove(&block->pieces[ref.index + 2], &block->pieces[ref.index + 1],
            (size_t)(block->count - ref.index - 1) * sizeof *block->pieces);
    ++block->count;
    pool_piece rest = {piece->ptr + size, piece->size - size, piece->stream, false};
    block->pieces[ref.index + 1] = rest;
    piece->size = size;
  }
  piece->used = true;
  piece->stream = stream;
  pool->used_bytes += size;
  *out = piece->ptr;
done:
  return status;
}

/*
 * Merges every run of free neighbours (left apart because they were freed on different
 * streams), after waiting for those streams. The slow path before growing the pool.
 */
static gcol_status merge_across_streams(pool_state *pool, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  for (int64_t b = 0; b < pool->num_blocks; ++b) {
    pool_block *block = &pool->blocks[b];
    for (int64_t i = 0; i + 1 < block->count; ++i) {
      if (block->pieces[i].used || block->pieces[i + 1].used) continue;
      GCOL_DETAIL_TRY(wait_for_stream(pool, block->pieces[i].stream));
      while (i + 1 < block->count && !block->pieces[i + 1].used) {
        GCOL_DETAIL_TRY(wait_for_stream(pool, block->pieces[i + 1].stream));
        merge_with_next(block, i);
      }
      block->pieces[i].stream = stream; /* its streams are all done: safe everywhere */
    }
  }
done:
  return status;
}

/* ------------------------------------------------------------------------------------- */
/* Blocks                                                                                */
/* ------------------------------------------------------------------------------------- */

/* Takes a block of `size` bytes from the upstream, as one free piece ordered on `stream`. */
static gcol_status add_block(pool_state *pool, size_t size, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  void *base = NULL;
  pool_piece *pieces = NULL;
  GCOL_DETAIL_CHECK(reserve((void **)&pool->blocks, &pool->block_capacity,
                            pool->num_blocks + 1, sizeof *pool->blocks),
                    GCOL_ERROR_OUT_OF_MEMORY, "pool: cannot grow its block list");
  pieces = (pool_piece *)malloc(8 * sizeof *pieces);
  GCOL_DETAIL_CHECK(pieces != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "pool: cannot allocate a block's piece list");
  GCOL_DETAIL_TRY(gcol_mr_allocate(pool->upstream, &base, size, stream));
  GCOL_DETAIL_CHECK((uintptr_t)base % GCOL_MR_ALIGNMENT == 0, GCOL_ERROR_UNSUPPORTED,
                    "pool: upstream '%s' returned %p, not aligned to %d bytes",
                    pool->upstream->name != NULL ? pool->upstream->name : "user", base,
                    GCOL_MR_ALIGNMENT);
  /* An upstream block is ordered on `stream` like memory freed there. */
  GCOL_DETAIL_TRY(record_stream(pool, stream));
  pieces[0] = (pool_piece){(char *)base, size, stream, false};
  pool->blocks[pool->num_blocks++] = (pool_block){(char *)base, size, pieces, 1, 8};
  pool->held_bytes += size;
  pieces = NULL;
  base = NULL;
  GCOL_DETAIL_LOG(GCOL_LOG_INFO, "pool %p: took a block of %zu bytes from '%s' (%zu held)",
                  (void *)&pool->self, size,
                  pool->upstream->name != NULL ? pool->upstream->name : "user",
                  pool->held_bytes);
done:
  if (base != NULL) gcol_mr_deallocate(pool->upstream, base, size, stream);
  free(pieces);
  return status;
}

static size_t largest_free_piece(const pool_state *pool) {
  size_t largest = 0;
  for (int64_t b = 0; b < pool->num_blocks; ++b) {
    for (int64_t i = 0; i < pool->blocks[b].count; ++i) {
      const pool_piece *piece = &pool->blocks[b].pieces[i];
      if (!piece->used && piece->size > largest) largest = piece->size;
    }
  }
  return largest;
}

/*
 * Grows the pool for a request of `size` bytes: a block of at least what the pool holds
 * (so that it doubles) and at least the request, capped at the maximum. If the upstream
 * cannot give the larger block, tries once more with just the request.
 */
static gcol_status grow(pool_state *pool, size_t size, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  size_t block = size > pool->held_bytes ? size : pool->held_bytes;
  if (pool->maximum_bytes != 0) {
    size_t const room = pool->held_bytes < pool->maximum_bytes
                            ? (pool->maximum_bytes - pool->held_bytes) &
                                  ~(size_t)(GCOL_MR_ALIGNMENT - 1)
                            : 0;
    GCOL_DETAIL_CHECK(size <= room, GCOL_ERROR_OUT_OF_MEMORY,
                      "pool: cannot allocate %zu bytes: it holds %zu of its maximum %zu bytes "
                      "and its largest free piece is %zu bytes",
                      size, pool->held_bytes, pool->maximum_bytes, largest_free_piece(pool));
    if (block > room) block = room;
  }
  status = add_block(pool, block, stream);
  if (status != GCOL_OK && block > size) {
    GCOL_DETAIL_LOG(GCOL_LOG_INFO, "pool %p: a block of %zu bytes failed; trying %zu",
                    (void *)&pool->self, block, size);
    status = add_block(pool, size, stream);
  }
done:
  return status;
}

/* ------------------------------------------------------------------------------------- */
/* Resource functions                                                                    */
/* ------------------------------------------------------------------------------------- */

static gcol_status allocate_locked(pool_state *pool, void **out, size_t bytes,
                                   gcol_stream stream) {
  gcol_status status = GCOL_OK;
  size_t size = 0;
  piece_ref ref = {0, 0};
  GCOL_DETAIL_CHECK(round_to_alignment(bytes, &size), GCOL_ERROR_OUT_OF_MEMORY,
                    "pool: %zu bytes cannot be allocated (size overflow)", bytes);
  if (!find_best_fit(pool, size, stream, &ref)) {
    GCOL_DETAIL_TRY(merge_across_streams(pool, stream));
    if (!find_best_fit(pool, size, stream, &ref)) {
      GCOL_DETAIL_TRY(grow(pool, size, stream));
      GCOL_DETAIL_CHECK(find_best_fit(pool, size, stream, &ref), GCOL_ERROR_INTERNAL,
                        "pool: no piece of %zu bytes after growing", size);
    }
  }
  GCOL_DETAIL_TRY(take_piece(pool, ref, size, stream, out));
done:
  return status;
}

static gcol_status pool_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  pool_state *pool = (pool_state *)self->state;
  *out = NULL;
  if (bytes == 0) return GCOL_OK;
  pthread_mutex_lock(&pool->lock);
  gcol_status status = allocate_locked(pool, out, bytes, stream);
  pthread_mutex_unlock(&pool->lock);
  if (status != GCOL_OK) *out = NULL;
  return status;
}

/* The block and piece of a pointer handed out by the pool; false if it is not one. */
static bool find_used_piece(const pool_state *pool, const char *ptr, piece_ref *found) {
  for (int64_t b = 0; b < pool->num_blocks; ++b) {
    const pool_block *block = &pool->blocks[b];
    if (ptr < block->base || ptr >= block->base + block->size) continue;
    int64_t lo = 0, hi = block->count - 1;
    while (lo <= hi) {
      int64_t const mid = lo + (hi - lo) / 2;
      if (block->pieces[mid].ptr == ptr) {
        found->block = b;
        found->index = mid;
        return block->pieces[mid].used;
      }
      if (block->pieces[mid].ptr < ptr) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return false;
  }
  return false;
}

static void deallocate_locked(pool_state *pool, void *ptr, size_t bytes, gcol_stream stream) {
  piece_ref ref = {0, 0};
  if (!find_used_piece(pool, (const char *)ptr, &ref)) {
    (void)gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_mr_deallocate",
                            "pool: %p (%zu bytes) is not an allocation of this pool", ptr,
                            bytes);
    return;
  }
  pool_block *block = &pool->blocks[ref.block];
  pool_piece *piece = &block->pieces[ref.index];
  size_t rounded = 0;
  if (!round_to_alignment(bytes, &rounded) || rounded != piece->size) {
    GCOL_DETAIL_LOG(GCOL_LOG_WARN, "pool: %p freed as %zu bytes but allocated as %zu", ptr,
                    bytes, piece->size);
  }
  pool->used_bytes -= piece->size;
  piece->used = false;
  piece->stream = stream;
  if (record_stream(pool, stream) != GCOL_OK) {
    /* Without the event nothing proves the stream passed the free: wait for it now. */
    if (pool->uses_cuda) (void)cudaStreamSynchronize((cudaStream_t)stream);
  }
  int64_t i = ref.index;
  if (i + 1 < block->count && !block->pieces[i + 1].used && block->pieces[i + 1].stream == stream)
    merge_with_next(block, i);
  if (i > 0 && !block->pieces[i - 1].used && block->pieces[i - 1].stream == stream)
    merge_with_next(block, i - 1);
}

static void pool_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  if (ptr == NULL) return;
  pool_state *pool = (pool_state *)self->state;
  pthread_mutex_lock(&pool->lock);
  deallocate_locked(pool, ptr, bytes, stream);
  pthread_mutex_unlock(&pool->lock);
}

/* Returns every block to the upstream once all streams the pool knows have passed. */
static void release_all(pool_state *pool) {
  for (int64_t e = 0; e < pool->num_events; ++e) {
    cudaError_t err = cudaEventSynchronize(pool->events[e].event);
    if (err != cudaSuccess) {
      (void)gcol_detail_cuda_error((int)err, "gcol_mr_destroy", "pool: cudaEventSynchronize");
    }
    (void)cudaEventDestroy(pool->events[e].event);
  }
  for (int64_t b = 0; b < pool->num_blocks; ++b) {
    gcol_mr_deallocate(pool->upstream, pool->blocks[b].base, pool->blocks[b].size, NULL);
    free(pool->blocks[b].pieces);
  }
  free(pool->blocks);
  free(pool->events);
}

static void pool_destroy(gcol_mr *self) {
  pool_state *pool = (pool_state *)self->state;
  int64_t in_use = 0;
  for (int64_t b = 0; b < pool->num_blocks; ++b) {
    for (int64_t i = 0; i < pool->blocks[b].count; ++i) in_use += pool->blocks[b].pieces[i].used;
  }
  if (in_use > 0) {
    GCOL_DETAIL_LOG(GCOL_LOG_WARN,
                    "pool %p destroyed with %lld pieces (%zu bytes) still in use; their memory "
                    "goes back to the upstream",
                    (void *)self, (long long)in_use, pool->used_bytes);
  }
  release_all(pool);
  pthread_mutex_destroy(&pool->lock);
  free(pool);
}

/* ------------------------------------------------------------------------------------- */
/* Public functions                                                                      */
/* ------------------------------------------------------------------------------------- */

gcol_status gcol_mr_pool_create(gcol_mr *upstream, size_t initial_bytes, size_t maximum_bytes,
                                gcol_mr **out) {
  gcol_status status = GCOL_OK;
  pool_state *pool = NULL;
  size_t initial = 0;
  bool locked = false;
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_pool_create");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(upstream);
  GCOL_DETAIL_CHECK(upstream->allocate != NULL && upstream->deallocate != NULL,
                    GCOL_ERROR_INVALID_ARGUMENT,
                    "upstream has a NULL allocate or deallocate function");
  GCOL_DETAIL_CHECK(round_to_alignment(initial_bytes, &initial), GCOL_ERROR_INVALID_ARGUMENT,
                    "initial_bytes (%zu) is too large", initial_bytes);
  GCOL_DETAIL_CHECK(maximum_bytes == 0 || initial <= maximum_bytes, GCOL_ERROR_INVALID_ARGUMENT,
                    "initial_bytes (%zu, rounded to %zu) exceeds maximum_bytes (%zu)",
                    initial_bytes, initial, maximum_bytes);
  pool = (pool_state *)calloc(1, sizeof *pool);
  GCOL_DETAIL_CHECK(pool != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate the pool state");
  GCOL_DETAIL_CHECK(pthread_mutex_init(&pool->lock, NULL) == 0, GCOL_ERROR_INTERNAL,
                    "cannot initialize the pool's mutex");
  locked = true;
  pool->self = (gcol_mr){pool_allocate, pool_deallocate, pool_destroy, pool, upstream->kind,
                         "pool"};
  pool->upstream = upstream;
  pool->maximum_bytes = maximum_bytes;
  pool->uses_cuda = upstream->kind != GCOL_MEMORY_HOST;
  if (initial > 0) GCOL_DETAIL_TRY(add_block(pool, initial, NULL));
  *out = &pool->self;
done:
  if (status != GCOL_OK && pool != NULL) {
    if (locked) {
      release_all(pool);
      pthread_mutex_destroy(&pool->lock);
    }
    free(pool);
  }
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status mr_pool_get_info(gcol_mr *pool_mr, gcol_mr_pool_info *out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(pool_mr != NULL, GCOL_ERROR_INVALID_ARGUMENT, "pool is NULL");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CHECK(pool_mr->allocate == pool_allocate && pool_mr->state != NULL,
                    GCOL_ERROR_INVALID_ARGUMENT, "pool (%s resource) is not a pool",
                    pool_mr->name != NULL ? pool_mr->name : "user");
  pool_state *pool = (pool_state *)pool_mr->state;
  gcol_mr_pool_info info = {0, 0, 0, 0, 0, 0};
  pthread_mutex_lock(&pool->lock);
  info.held_bytes = pool->held_bytes;
  info.used_bytes = pool->used_bytes;
  info.free_bytes = pool->held_bytes - pool->used_bytes;
  info.upstream_blocks = pool->num_blocks;
  for (int64_t b = 0; b < pool->num_blocks; ++b) {
    for (int64_t i = 0; i < pool->blocks[b].count; ++i) {
      const pool_piece *piece = &pool->blocks[b].pieces[i];
      if (piece->used) continue;
      ++info.free_pieces;
      if (piece->size > info.largest_free) info.largest_free = piece->size;
    }
  }
  pthread_mutex_unlock(&pool->lock);
  *out = info;
done:
  return status;
}

gcol_status gcol_mr_pool_get_info(gcol_mr *pool_mr, gcol_mr_pool_info *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_pool_get_info");
  gcol_status const status = mr_pool_get_info(pool_mr, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
