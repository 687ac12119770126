/* The spill manager (gcol/spill.h): one per device, never freed once made (storages point
 * at it), so that no buffer outlives its manager.
 *
 * A spillable storage has a record. Its state changes under the manager's mutex; moving
 * its bytes (allocating, copying, waiting) happens outside the mutex, so that an allocation
 * may itself spill (the spill resource) or wait on a pool. While a thread moves a record it
 * is `busy`: nobody else moves, pins or frees it (they wait on `moved`), and it is in no
 * list. The LRU list holds exactly the records that may spill: on the device, not busy,
 * unpinned, unexposed, alive; its head is the least recently used (made, or unpinned).
 *
 * Pins are entries in a pin list: the thread's running operation's (op_pins, released when
 * the outermost public function returns, lib/status.c), or a scope's. A record counts its
 * pins; its last unpin puts it back in the LRU list, or frees it when its last buffer went
 * while it was pinned (`dead`).
 *
 * Host-memory storages (GCOL_MEMORY_HOST) are spillable only into a GCOL_MEMORY_HOST host
 * resource, moved with memcpy and no CUDA call: the host tests run the manager that way. */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "gcol/spill.h"
#include "internal/buffer.h"
#include "internal/error.h"
#include "internal/log.h"
#include "internal/nvtx.h"
#include "internal/spill.h"

#define GCOL_DETAIL_SPILL_MAX_DEVICES 64

typedef struct pin_list {
  gcol_detail_spill_record **items;
  size_t count;
  size_t capacity;
} pin_list;

struct gcol_spill_scope {
  pin_list pins;
  gcol_spill_scope *parent;
};

struct gcol_detail_spill_record {
  gcol_detail_spill_manager *m;
  gcol_buffer_storage *s;
  gcol_detail_spill_record *prev, *next; /* LRU list */
  gcol_detail_spill_record *victim_next; /* a spill's batch */
  bool in_lru, spilled, busy, exposed, dead;
  int64_t pins;
  const pin_list *last_pinner; /* skips repeated pins of one list */
  void *host;                  /* the bytes while spilled */
  gcol_mr *host_mr;            /* where they came from */
};

struct gcol_detail_spill_manager {
  pthread_mutex_t lock;
  pthread_cond_t moved; /* a busy record became free */
  int device;
  bool enabled;
  gcol_spill_options options;
  gcol_mr *pinned, *pool; /* the own host pool, made at the first spill that needs it */
  cudaStream_t stream;    /* copies, made at the first device spill */
  bool stream_made;
  gcol_detail_spill_record *head, *tail;
  int64_t moving; /* busy records */
  gcol_spill_statistics stats;
};

static gcol_detail_spill_manager *managers[GCOL_DETAIL_SPILL_MAX_DEVICES];
static pthread_mutex_t managers_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool any_manager; /* a manager exists: otherwise prepare costs one load */

static _Thread_local gcol_spill_scope *current_scope;
static _Thread_local pin_list op_pins;

/* ------------------------------------------------------------------------------------- */
/* Configuration                                                                         */
/* ------------------------------------------------------------------------------------- */

bool gcol_detail_spill_parse_bytes(const char *text, size_t *out) {
  if (text == NULL || *text < '0' || *text > '9') return false;
  uint64_t value = 0;
  for (; *text >= '0' && *text <= '9'; ++text) {
    if (value > (UINT64_MAX - 9) / 10) return false;
    value = value * 10 + (uint64_t)(*text - '0');
  }
  static const char units[] = "kmgt";
  const char *unit = *text != '\0' ? strchr(units, *text | 0x20) : NULL;
  if (*text != '\0' && unit == NULL) return false;
  if (unit != NULL) {
    int const shift = 10 * (int)(unit - units + 1);
    if (value > (UINT64_MAX >> shift)) return false;
    value <<= shift;
    ++text;
    if ((*text | 0x20) == 'i') ++text;
    if ((*text | 0x20) == 'b') ++text;
  }
  if (*text != '\0' || value > SIZE_MAX) return false;
  *out = (size_t)value;
  return true;
}

int gcol_detail_spill_parse_switch(const char *text) {
  static const char *const on[] = {"on", "1", "true", "yes"};
  static const char *const off[] = {"off", "0", "false", "no"};
  if (text == NULL) return -1;
  for (int i = 0; i < 4; ++i) {
    if (strcasecmp(text, on[i]) == 0) return 1;
    if (strcasecmp(text, off[i]) == 0) return 0;
  }
  return -1;
}

/* GCOL_SPILL and GCOL_SPILL_DEVICE_LIMIT, applied to a manager when it is made. */
static void apply_environment(gcol_detail_spill_manager *m) {
  const char *const on = getenv("GCOL_SPILL");
  const char *const limit = getenv("GCOL_SPILL_DEVICE_LIMIT");
  int const sw = on != NULL ? gcol_detail_spill_parse_switch(on) : 0;
  if (sw < 0) GCOL_DETAIL_LOG(GCOL_LOG_WARN, "GCOL_SPILL=%s is not on or off: ignored", on);
  m->enabled = sw == 1;
  if (limit != NULL && !gcol_detail_spill_parse_bytes(limit, &m->options.device_limit)) {
    GCOL_DETAIL_LOG(GCOL_LOG_WARN, "GCOL_SPILL_DEVICE_LIMIT=%s is not a byte count: ignored",
                    limit);
  }
  if (m->enabled) {
    GCOL_DETAIL_LOG(GCOL_LOG_DEBUG, "spill: on for device %d from the environment (limit %zu)",
                    m->device, m->options.device_limit);
  }
}

/* ------------------------------------------------------------------------------------- */
/* Managers                                                                              */
/* ------------------------------------------------------------------------------------- */

/* The current device (device 0 where there is none, as the default resource does). */
static int current_device(void) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return device;
}

static gcol_detail_spill_manager *manager_make(int device) {
  gcol_detail_spill_manager *m = (gcol_detail_spill_manager *)calloc(1, sizeof *m);
  if (m == NULL) return NULL;
  if (pthread_mutex_init(&m->lock, NULL) != 0) {
    free(m);
    return NULL;
  }
  if (pthread_cond_init(&m->moved, NULL) != 0) {
    pthread_mutex_destroy(&m->lock);
    free(m);
    return NULL;
  }
  m->device = device;
  gcol_spill_options_init(&m->options);
  apply_environment(m);
  return m;
}

/* The current device's manager, made at the first call (NULL: out of host memory, or a
 * device beyond the table). */
static gcol_detail_spill_manager *manager_get(void) {
  int const device = current_device();
  if (device < 0 || device >= GCOL_DETAIL_SPILL_MAX_DEVICES) return NULL;
  pthread_mutex_lock(&managers_lock);
  if (managers[device] == NULL) managers[device] = manager_make(device);
  gcol_detail_spill_manager *const m = managers[device];
  if (m != NULL) atomic_store(&any_manager, true);
  pthread_mutex_unlock(&managers_lock);
  return m;
}

/* The environment may turn spilling on: read it once, at the first buffer of the process. */
static pthread_once_t environment_once = PTHREAD_ONCE_INIT;
static void read_environment(void) {
  const char *const on = getenv("GCOL_SPILL");
  if (on != NULL && gcol_detail_spill_parse_switch(on) == 1) (void)manager_get();
}

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bool on_host(const gcol_detail_spill_record *r) {
  return r->s->mr->kind == GCOL_MEMORY_HOST;
}

/* The copy stream, made once (under the lock). */
static gcol_status manager_stream(gcol_detail_spill_manager *m, cudaStream_t *out) {
  gcol_status status = GCOL_OK;
  pthread_mutex_lock(&m->lock);
  if (!m->stream_made) {
    GCOL_DETAIL_CUDA_TRY(cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking));
    m->stream_made = true;
  }
  *out = m->stream;
done:
  pthread_mutex_unlock(&m->lock);
  return status;
}

/* Where spilled bytes go: the options' resource, else the own pinned pool, made once
 * (outside the lock: making a pool calls the resources' public entry points). */
static gcol_status manager_host_mr(gcol_detail_spill_manager *m, gcol_mr **out) {
  gcol_status status = GCOL_OK;
  gcol_mr *pinned = NULL, *pool = NULL;
  pthread_mutex_lock(&m->lock);
  *out = m->options.host_mr != NULL ? m->options.host_mr : m->pool;
  size_t const initial = m->options.host_pool_initial;
  pthread_mutex_unlock(&m->lock);
  if (*out != NULL) return GCOL_OK;
  GCOL_DETAIL_TRY(gcol_mr_pinned_create(&pinned));
  GCOL_DETAIL_TRY(gcol_mr_pool_create(pinned, initial, 0, &pool));
  pthread_mutex_lock(&m->lock);
  if (m->pool == NULL) {
    m->pool = pool;
    m->pinned = pinned;
    pool = pinned = NULL;
  }
  *out = m->pool;
  pthread_mutex_unlock(&m->lock);
done:
  gcol_mr_destroy(pool); /* another thread made one first */
  gcol_mr_destroy(pinned);
  return status;
}

/* ------------------------------------------------------------------------------------- */
/* The LRU list and the accounting (under the lock)                                      */
/* ------------------------------------------------------------------------------------- */

static void lru_remove(gcol_detail_spill_record *r) {
  if (!r->in_lru) return;
  gcol_detail_spill_manager *m = r->m;
  if (r->prev != NULL)
    r->prev->next = r->next;
  else
    m->head = r->next;
  if (r->next != NULL)
    r->next->prev = r->prev;
  else
    m->tail = r->prev;
  r->prev = r->next = NULL;
  r->in_lru = false;
  m->stats.spillable_bytes -= (int64_t)r->s->size;
}

/* Inserts r after `prev` (NULL: as the least recently used). */
static void lru_insert_after(gcol_detail_spill_record *r, gcol_detail_spill_record *prev) {
  gcol_detail_spill_manager *m = r->m;
  r->prev = prev;
  r->next = prev != NULL ? prev->next : m->head;
  if (r->next != NULL) {
    r->next->prev = r;
  } else {
    m->tail = r;
  }
  if (prev != NULL) {
    prev->next = r;
  } else {
    m->head = r;
  }
  r->in_lru = true;
  m->stats.spillable_bytes += (int64_t)r->s->size;
}

/* True when nothing keeps r from spilling: in the LRU list it belongs. */
static bool may_spill(const gcol_detail_spill_record *r) {
  return r->pins == 0 && !r->busy && !r->spilled && !r->exposed && !r->dead;
}

/* Puts a record that nobody holds any more back as the most recently used. */
static void settle(gcol_detail_spill_record *r) {
  if (may_spill(r) && !r->in_lru) lru_insert_after(r, r->m->tail);
}

static void expose_locked(gcol_detail_spill_record *r) {
  if (r->exposed) return;
  gcol_detail_spill_manager *m = r->m;
  lru_remove(r);
  r->exposed = true;
  m->stats.exposed += 1;
  m->stats.exposed_bytes += (int64_t)r->s->size;
  m->stats.device_bytes -= (int64_t)r->s->size;
  GCOL_DETAIL_LOG(GCOL_LOG_DEBUG, "spill: %zu bytes at %p exposed (never spill again)", r->s->size,
                  r->s->data);
}

static bool list_push(pin_list *list, gcol_detail_spill_record *r) {
  if (list->count == list->capacity) {
    size_t const capacity = list->capacity == 0 ? 16 : 2 * list->capacity;
    void *items = realloc(list->items, capacity * sizeof *list->items);
    if (items == NULL) return false;
    list->items = (gcol_detail_spill_record **)items;
    list->capacity = capacity;
  }
  list->items[list->count++] = r;
  return true;
}

/* Pins r to `list`; false when the list cannot grow (r unchanged). */
static bool pin_locked(gcol_detail_spill_record *r, pin_list *list) {
  if (r->last_pinner == list) return true;
  if (!list_push(list, r)) return false;
  lru_remove(r);
  r->pins += 1;
  r->last_pinner = list;
  return true;
}

/* One pin fewer; true when r must now be freed (its last buffer went while pinned). */
static bool unpin_locked(gcol_detail_spill_record *r, const pin_list *list) {
  r->pins -= 1;
  if (r->last_pinner == list) r->last_pinner = NULL;
  if (r->pins > 0) return false;
  if (r->dead) return true;
  settle(r);
  return false;
}

/* The pin list a view taken now goes to: the running operation's, else the open scope's. */
static pin_list *current_pins(void) {
  if (gcol_detail_api_depth() > 0) return &op_pins;
  return current_scope != NULL ? &current_scope->pins : NULL;
}

/* ------------------------------------------------------------------------------------- */
/* Spilling                                                                              */
/* ------------------------------------------------------------------------------------- */

/* Takes least recently used records worth `want` bytes out of the LRU list (busy). */
static gcol_detail_spill_record *pick_victims(gcol_detail_spill_manager *m, size_t want,
                                              size_t *picked) {
  gcol_detail_spill_record *first = NULL, **link = &first;
  *picked = 0;
  while (m->enabled && *picked < want && m->head != NULL) {
    gcol_detail_spill_record *r = m->head;
    lru_remove(r);
    r->busy = true;
    m->moving += 1;
    *picked += r->s->size;
    *link = r;
    link = &r->victim_next;
  }
  *link = NULL;
  return first;
}

/* Copies one victim's bytes out, after the work on its stream (and the scopes' streams,
 * which its stream waits for). The host memory is r->host on success. */
static gcol_status copy_out(gcol_detail_spill_record *r, gcol_mr *host_mr, cudaStream_t stream,
                            cudaEvent_t event) {
  gcol_status status = GCOL_OK;
  void *host = NULL;
  gcol_buffer_storage *const s = r->s;
  GCOL_DETAIL_TRY(gcol_mr_allocate(host_mr, &host, s->size, (gcol_stream)stream));
  if (on_host(r)) {
    memcpy(host, s->data, s->size);
  } else {
    GCOL_DETAIL_CUDA_TRY(cudaEventRecord(event, (cudaStream_t)s->stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamWaitEvent(stream, event, 0));
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(host, s->data, s->size, cudaMemcpyDeviceToHost, stream));
  }
  r->host = host;
  r->host_mr = host_mr;
  host = NULL;
done:
  if (host != NULL) gcol_mr_deallocate(host_mr, host, s->size, (gcol_stream)stream);
  return status;
}

/* CUDA resources of a batch: none when every victim lives in host memory. */
static gcol_status batch_begin(gcol_detail_spill_manager *m, gcol_detail_spill_record *victims,
                               cudaStream_t *stream, cudaEvent_t *event) {
  gcol_status status = GCOL_OK;
  *stream = NULL;
  *event = NULL;
  bool device = false;
  for (gcol_detail_spill_record *r = victims; r != NULL; r = r->victim_next) {
    device = device || !on_host(r);
  }
  if (!device) return GCOL_OK;
  GCOL_DETAIL_TRY(manager_stream(m, stream));
  GCOL_DETAIL_CUDA_TRY(cudaEventCreateWithFlags(event, cudaEventDisableTiming));
done:
  return status;
}

/* Frees the device memory of the victims copied out, after the copies, and waits until the
 * frees have happened, so that the allocation that asked for room can have it. If the
 * copies cannot be waited for, they count as failed: host copies freed, devices kept. */
static gcol_status batch_finish(gcol_detail_spill_record *victims, cudaStream_t stream) {
  cudaError_t err = stream != NULL ? cudaStreamSynchronize(stream) : cudaSuccess;
  for (gcol_detail_spill_record *r = victims; r != NULL; r = r->victim_next) {
    if (r->host == NULL) continue;
    if (err != cudaSuccess) {
      gcol_mr_deallocate(r->host_mr, r->host, r->s->size, (gcol_stream)stream);
      r->host = NULL;
      continue;
    }
    gcol_mr_deallocate(r->s->mr, r->s->data, r->s->size, (gcol_stream)stream);
  }
  if (err == cudaSuccess && stream != NULL) err = cudaStreamSynchronize(stream);
  if (err == cudaSuccess) return GCOL_OK;
  return gcol_detail_cuda_error((int)err, "gcol_spill_now", "waiting for the spill's copies");
}

/* Spilled victims become host-resident; the others go back to the head of the list. */
static void batch_settle(gcol_detail_spill_manager *m, gcol_detail_spill_record *victims,
                         size_t *spilled) {
  gcol_detail_spill_record *kept = NULL; /* the last one put back: they keep their turns */
  pthread_mutex_lock(&m->lock);
  for (gcol_detail_spill_record *r = victims, *next = NULL; r != NULL; r = next) {
    next = r->victim_next;
    r->busy = false;
    m->moving -= 1;
    if (r->host != NULL) {
      r->spilled = true;
      r->s->data = NULL;
      *spilled += r->s->size;
      m->stats.spills += 1;
      m->stats.spilled_bytes += r->s->size;
      m->stats.device_bytes -= (int64_t)r->s->size;
      m->stats.host_bytes += (int64_t)r->s->size;
    } else {
      if (may_spill(r)) {
        lru_insert_after(r, kept); /* at the front, in their order: they keep their turns */
        kept = r;
      }
    }
  }
  pthread_cond_broadcast(&m->moved);
  pthread_mutex_unlock(&m->lock);
}

/* One batch: spills about `want` bytes (what the LRU list gives). */
static gcol_status spill_batch(gcol_detail_spill_manager *m, size_t want, size_t *spilled) {
  gcol_status status = GCOL_OK;
  size_t picked = 0, failed = 0;
  cudaStream_t stream = NULL;
  cudaEvent_t event = NULL;
  gcol_mr *host_mr = NULL;
  double const start = seconds_now();
  *spilled = 0;
  pthread_mutex_lock(&m->lock);
  gcol_detail_spill_record *const victims = pick_victims(m, want, &picked);
  pthread_mutex_unlock(&m->lock);
  if (victims == NULL) return GCOL_OK;
  status = manager_host_mr(m, &host_mr);
  if (status == GCOL_OK) status = batch_begin(m, victims, &stream, &event);
  for (gcol_detail_spill_record *r = victims; status == GCOL_OK && r != NULL; r = r->victim_next) {
    status = copy_out(r, host_mr, stream, event);
  }
  gcol_status const finished = batch_finish(victims, stream);
  if (status == GCOL_OK) status = finished;
  failed = status != GCOL_OK; /* the buffer whose spill failed, and those after it, stay */
  if (event != NULL) cudaEventDestroy(event);
  batch_settle(m, victims, spilled);
  double const seconds = seconds_now() - start;
  pthread_mutex_lock(&m->lock);
  m->stats.spill_seconds += seconds;
  m->stats.failed_spills += failed;
  pthread_mutex_unlock(&m->lock);
  GCOL_DETAIL_LOG(GCOL_LOG_DEBUG,
                  "spill: device %d: %zu of %zu bytes asked for spilled to host in %.3f ms%s",
                  m->device, *spilled, want, 1e3 * seconds,
                  failed > 0 ? " (some failed: they stay on the device)" : "");
  return status;
}

/* Spills until `want` bytes went or nothing more can. */
static gcol_status spill_bytes(gcol_detail_spill_manager *m, size_t want, size_t *spilled) {
  gcol_status status = GCOL_OK;
  *spilled = 0;
  while (*spilled < want) {
    size_t got = 0;
    status = spill_batch(m, want - *spilled, &got);
    *spilled += got;
    if (status != GCOL_OK || got == 0) break;
  }
  return status;
}

/* Before `size` more bytes become spillable device bytes: spills down to the limit. */
static void honour_limit(gcol_detail_spill_manager *m, size_t size) {
  pthread_mutex_lock(&m->lock);
  size_t const limit = m->enabled ? m->options.device_limit : 0;
  int64_t const after = m->stats.device_bytes + (int64_t)size;
  pthread_mutex_unlock(&m->lock);
  if (limit == 0 || after <= (int64_t)limit) return;
  size_t spilled = 0;
  /* Best effort: a failure leaves the buffers where they are, and the allocation decides. */
  (void)spill_bytes(m, (size_t)after - limit, &spilled);
}

/* ------------------------------------------------------------------------------------- */
/* Bringing back                                                                         */
/* ------------------------------------------------------------------------------------- */

/* Copies a busy, spilled record back (no lock held). On failure it stays spilled. */
static gcol_status copy_in(gcol_detail_spill_record *r, gcol_stream stream, bool sync) {
  gcol_status status = GCOL_OK;
  gcol_buffer_storage *const s = r->s;
  gcol_detail_spill_manager *const m = r->m;
  void *device = NULL;
  cudaStream_t copy = (cudaStream_t)stream;
  if (!on_host(r) && sync) GCOL_DETAIL_TRY(manager_stream(m, &copy));
  honour_limit(m, s->size);
  status = gcol_mr_allocate(s->mr, &device, s->size, (gcol_stream)copy);
  GCOL_DETAIL_CHECK(status == GCOL_OK, status,
                    "cannot bring %zu spilled bytes back to the device (%s resource): the "
                    "buffer stays in host memory",
                    s->size, s->mr->name != NULL ? s->mr->name : "user");
  if (on_host(r)) {
    memcpy(device, r->host, s->size);
  } else {
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(device, r->host, s->size, cudaMemcpyHostToDevice, copy));
    if (sync) GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(copy));
  }
  gcol_mr_deallocate(r->host_mr, r->host, s->size, (gcol_stream)copy);
  r->host = NULL;
  s->data = device;
  device = NULL;
done:
  if (device != NULL) gcol_mr_deallocate(s->mr, device, s->size, (gcol_stream)copy);
  return status;
}

/* Waits until nobody moves r (under the lock). */
static void wait_idle(gcol_detail_spill_record *r) {
  while (r->busy) pthread_cond_wait(&r->m->moved, &r->m->lock);
}

/* Brings r back if it is spilled (called and returning with the lock held). */
static gcol_status ensure_resident(gcol_detail_spill_record *r, gcol_stream stream, bool sync) {
  gcol_detail_spill_manager *const m = r->m;
  wait_idle(r);
  if (!r->spilled) return GCOL_OK;
  r->busy = true;
  m->moving += 1;
  pthread_mutex_unlock(&m->lock);
  double const start = seconds_now();
  gcol_status const status = copy_in(r, stream, sync);
  double const seconds = seconds_now() - start;
  pthread_mutex_lock(&m->lock);
  r->busy = false;
  m->moving -= 1;
  m->stats.unspill_seconds += seconds;
  if (status == GCOL_OK) {
    r->spilled = false;
    m->stats.unspills += 1;
    m->stats.unspilled_bytes += r->s->size;
    m->stats.host_bytes -= (int64_t)r->s->size;
    m->stats.device_bytes += (int64_t)r->s->size;
    GCOL_DETAIL_LOG(GCOL_LOG_DEBUG, "spill: device %d: %zu bytes brought back in %.3f ms",
                    m->device, r->s->size, 1e3 * seconds);
  } else {
    m->stats.failed_unspills += 1;
  }
  pthread_cond_broadcast(&m->moved);
  return status;
}

/* Applies an access to a resident record (under the lock). */
static gcol_status hold_locked(gcol_detail_spill_record *r, gcol_detail_spill_access access,
                               pin_list *temporary) {
  pin_list *const pins = access == GCOL_DETAIL_SPILL_TEMPORARY ? temporary
                         : access == GCOL_DETAIL_SPILL_VIEW    ? current_pins()
                                                               : NULL;
  if (access == GCOL_DETAIL_SPILL_TEMPORARY) {
    lru_remove(r);
    r->pins += 1;
    return GCOL_OK;
  }
  if (pins == NULL) {
    expose_locked(r);
    return GCOL_OK;
  }
  if (!pin_locked(r, pins)) {
    settle(r);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__,
                             "cannot grow a spill scope's list of pinned buffers");
  }
  return GCOL_OK;
}

gcol_status gcol_detail_spill_acquire(gcol_buffer *buffer, gcol_detail_spill_access access,
                                      gcol_stream stream, bool sync) {
  gcol_buffer_storage *const s = buffer->storage;
  if (s == NULL || s->spill == NULL) return GCOL_OK;
  gcol_detail_spill_record *const r = s->spill;
  pthread_mutex_lock(&r->m->lock);
  gcol_status status = ensure_resident(r, stream, sync);
  if (status == GCOL_OK) status = hold_locked(r, access, NULL);
  if (status == GCOL_OK) buffer->data = s->data;
  if (status != GCOL_OK) settle(r);
  pthread_mutex_unlock(&r->m->lock);
  return status;
}

/* Makes `stream`'s work so far come before any later work on the storage's stream, where
 * spills (and the last free) wait. */
static void order_after(gcol_detail_spill_record *r, cudaEvent_t event) {
  if (event == NULL || on_host(r)) return;
  cudaError_t const err = cudaStreamWaitEvent((cudaStream_t)r->s->stream, event, 0);
  if (err != cudaSuccess) {
    (void)gcol_detail_cuda_error((int)err, "gcol_spill_scope_end", "cudaStreamWaitEvent");
  }
}

/* Frees a dead record's storage (its last buffer went while pinned). */
static void destroy_dead(gcol_detail_spill_record *r) {
  gcol_detail_spill_manager *const m = r->m;
  pthread_mutex_lock(&m->lock);
  m->stats.buffers -= 1;
  if (r->exposed) {
    m->stats.exposed_bytes -= (int64_t)r->s->size;
  } else {
    m->stats.device_bytes -= (int64_t)r->s->size;
  }
  pthread_mutex_unlock(&m->lock);
  gcol_buffer_storage *const s = r->s;
  s->spill = NULL;
  free(r);
  gcol_detail_storage_destroy(s);
}

void gcol_detail_spill_release_temporary(gcol_buffer_storage *s, gcol_stream stream) {
  if (s == NULL || s->spill == NULL) return;
  gcol_detail_spill_record *const r = s->spill;
  /* Unused: what ran under a temporary pin (a copy-on-write copy, the first write of a new
   * storage) ran on the storage's own stream or on one the storage's stream now waits for
   * (lib/buffer.c), and spills wait for the storage's stream. */
  GCOL_UNUSED(stream);
  pthread_mutex_lock(&r->m->lock);
  bool const destroy = unpin_locked(r, NULL);
  pthread_mutex_unlock(&r->m->lock);
  if (destroy) destroy_dead(r);
}

/* Unpins every entry of `list` (each record's own manager); `identity` is the list the
 * pins were made through (operation pins are moved out of op_pins first). */
static void release_list(pin_list *list, const pin_list *identity, cudaEvent_t event) {
  for (size_t i = 0; i < list->count; ++i) {
    gcol_detail_spill_record *const r = list->items[i];
    if (r == NULL) continue;
    order_after(r, event);
    pthread_mutex_lock(&r->m->lock);
    bool const destroy = unpin_locked(r, identity);
    pthread_mutex_unlock(&r->m->lock);
    if (destroy) destroy_dead(r);
  }
  list->count = 0;
}

gcol_status gcol_detail_spill_expose_outlasting(gcol_buffer *const *buffers, int count,
                                                gcol_stream stream) {
  if (gcol_detail_api_depth() > 1) return GCOL_OK;
  for (int i = 0; i < count; ++i) {
    if (buffers[i] == NULL) continue;
    gcol_status const status =
        gcol_detail_spill_acquire(buffers[i], GCOL_DETAIL_SPILL_EXPOSE, stream, false);
    if (status != GCOL_OK) return status;
  }
  return GCOL_OK;
}

void gcol_detail_spill_operation_end(void) {
  if (op_pins.count == 0) return;
  /* Moved out first: freeing a dead storage calls the resources, whose own public entry
   * points end an "operation" again on this thread. */
  pin_list local = op_pins;
  memset(&op_pins, 0, sizeof op_pins);
  release_list(&local, &op_pins, NULL);
  if (op_pins.items == NULL) {
    op_pins = local; /* keep the array for the next operation */
  } else {
    free(local.items);
  }
}

/* ------------------------------------------------------------------------------------- */
/* Registration and the end of a storage                                                 */
/* ------------------------------------------------------------------------------------- */

static bool spillable_kind(const gcol_detail_spill_manager *m, const gcol_mr *mr) {
  if (mr->kind == GCOL_MEMORY_DEVICE) return true;
  return mr->kind == GCOL_MEMORY_HOST && m->options.host_mr != NULL &&
         m->options.host_mr->kind == GCOL_MEMORY_HOST;
}

gcol_detail_spill_manager *gcol_detail_spill_prepare(gcol_mr *mr, size_t size) {
  pthread_once(&environment_once, read_environment);
  if (!atomic_load(&any_manager) || size == 0) return NULL;
  gcol_detail_spill_manager *const m = manager_get();
  if (m == NULL) return NULL;
  pthread_mutex_lock(&m->lock);
  bool const managed = m->enabled && spillable_kind(m, mr);
  pthread_mutex_unlock(&m->lock);
  if (!managed) return NULL;
  honour_limit(m, size);
  return m;
}

gcol_status gcol_detail_spill_register(gcol_detail_spill_manager *m, gcol_buffer_storage *s) {
  gcol_detail_spill_record *r = (gcol_detail_spill_record *)calloc(1, sizeof *r);
  GCOL_DETAIL_REQUIRE(r != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "cannot allocate a spillable buffer's record");
  r->m = m;
  r->s = s;
  pin_list *const pins = current_pins();
  pthread_mutex_lock(&m->lock);
  if (pins != NULL && !pin_locked(r, pins)) {
    pthread_mutex_unlock(&m->lock);
    free(r);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__,
                             "cannot grow a spill scope's list of pinned buffers");
  }
  s->spill = r;
  m->stats.buffers += 1;
  m->stats.device_bytes += (int64_t)s->size;
  settle(r);
  pthread_mutex_unlock(&m->lock);
  return GCOL_OK;
}

void *gcol_detail_spill_data(gcol_buffer_storage *s) {
  if (s->spill == NULL) return s->data;
  gcol_detail_spill_manager *const m = s->spill->m;
  pthread_mutex_lock(&m->lock);
  void *const data = s->data;
  pthread_mutex_unlock(&m->lock);
  return data;
}

/* Drops this thread's operation pins of r (its buffers are all gone, so the running
 * operation no longer uses it). */
static void drop_own_op_pins(gcol_detail_spill_record *r) {
  /* From the end: temporaries mostly go in the reverse order they came, and trailing holes
   * are trimmed, so an operation with many temporaries keeps a short list. */
  for (size_t i = op_pins.count; i-- > 0 && r->pins > 0;) {
    if (op_pins.items[i] != r) continue;
    op_pins.items[i] = NULL;
    r->pins -= 1;
  }
  while (op_pins.count > 0 && op_pins.items[op_pins.count - 1] == NULL) --op_pins.count;
  if (r->last_pinner == &op_pins) r->last_pinner = NULL;
}

/* Forgets a record with no pins (under the lock); returns its host copy to free. */
static void unlink_locked(gcol_detail_spill_record *r) {
  gcol_detail_spill_manager *const m = r->m;
  lru_remove(r);
  m->stats.buffers -= 1;
  if (r->spilled) {
    m->stats.host_bytes -= (int64_t)r->s->size;
  } else if (r->exposed) {
    m->stats.exposed_bytes -= (int64_t)r->s->size;
  } else {
    m->stats.device_bytes -= (int64_t)r->s->size;
  }
  r->s->spill = NULL;
}

bool gcol_detail_spill_forget(gcol_buffer_storage *s) {
  gcol_detail_spill_record *const r = s->spill;
  if (r == NULL) return true;
  gcol_detail_spill_manager *const m = r->m;
  pthread_mutex_lock(&m->lock);
  wait_idle(r);
  drop_own_op_pins(r);
  if (r->pins > 0) {
    r->dead = true; /* the last unpin frees it */
    pthread_mutex_unlock(&m->lock);
    return false;
  }
  unlink_locked(r);
  pthread_mutex_unlock(&m->lock);
  if (r->host != NULL) gcol_mr_deallocate(r->host_mr, r->host, s->size, s->stream);
  free(r);
  return true;
}

gcol_status gcol_detail_spill_detach(gcol_buffer_storage *s) {
  gcol_detail_spill_record *const r = s->spill;
  if (r == NULL) return GCOL_OK;
  gcol_detail_spill_manager *const m = r->m;
  pthread_mutex_lock(&m->lock);
  gcol_status status = ensure_resident(r, s->stream, true);
  if (status == GCOL_OK && r->pins > 0) {
    status = gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, "gcol_buffer_release",
                               "the buffer is pinned by an open spill scope");
  }
  if (status == GCOL_OK) unlink_locked(r);
  pthread_mutex_unlock(&m->lock);
  if (status == GCOL_OK) free(r);
  return status;
}

/* ------------------------------------------------------------------------------------- */
/* Public API                                                                            */
/* ------------------------------------------------------------------------------------- */

void gcol_spill_options_init(gcol_spill_options *options) {
  if (options != NULL) memset(options, 0, sizeof *options);
}

static gcol_status manager_or_error(gcol_detail_spill_manager **out, const char *func) {
  *out = manager_get();
  if (*out != NULL) return GCOL_OK;
  int const device = current_device();
  if (device >= GCOL_DETAIL_SPILL_MAX_DEVICES) {
    return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, func,
                             "device %d: spilling supports devices 0 to %d", device,
                             GCOL_DETAIL_SPILL_MAX_DEVICES - 1);
  }
  return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, func, "cannot allocate the spill manager");
}

static gcol_status spill_enable(const gcol_spill_options *options) {
  gcol_detail_spill_manager *m = NULL;
  gcol_status const status = manager_or_error(&m, __func__);
  if (status != GCOL_OK) return status;
  gcol_spill_options defaults;
  gcol_spill_options_init(&defaults);
  pthread_mutex_lock(&m->lock);
  m->options = options != NULL ? *options : defaults;
  m->enabled = true;
  pthread_mutex_unlock(&m->lock);
  GCOL_DETAIL_LOG(GCOL_LOG_DEBUG, "spill: on for device %d (limit %zu, host resource %s)",
                  m->device, m->options.device_limit,
                  m->options.host_mr != NULL ? "the caller's" : "own pinned pool");
  return GCOL_OK;
}

gcol_status gcol_spill_enable(const gcol_spill_options *options) {
  GCOL_DETAIL_NVTX_PUSH("gcol_spill_enable");
  gcol_status const status = spill_enable(options);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status spill_disable(void) {
  gcol_detail_spill_manager *m = NULL;
  gcol_status const status = manager_or_error(&m, __func__);
  if (status != GCOL_OK) return status;
  gcol_mr *pool = NULL, *pinned = NULL;
  pthread_mutex_lock(&m->lock);
  m->enabled = false;
  /* Nothing spilled and nothing moving: no storage holds or is taking the own pinned pool,
   * so give its blocks back (kept, they would outlive the process as pinned host memory). */
  if (m->stats.host_bytes == 0 && m->moving == 0) {
    pool = m->pool;
    pinned = m->pinned;
    m->pool = m->pinned = NULL;
  }
  pthread_mutex_unlock(&m->lock);
  gcol_mr_destroy(pool);
  gcol_mr_destroy(pinned);
  GCOL_DETAIL_LOG(GCOL_LOG_DEBUG, "spill: off for device %d", m->device);
  return GCOL_OK;
}

gcol_status gcol_spill_disable(void) {
  GCOL_DETAIL_NVTX_PUSH("gcol_spill_disable");
  gcol_status const status = spill_disable();
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status spill_get_options(gcol_spill_options *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  gcol_spill_options_init(out);
  pthread_once(&environment_once, read_environment);
  gcol_detail_spill_manager *m = NULL;
  gcol_status const status = manager_or_error(&m, __func__);
  if (status != GCOL_OK) return status;
  pthread_mutex_lock(&m->lock);
  *out = m->options;
  pthread_mutex_unlock(&m->lock);
  return GCOL_OK;
}

gcol_status gcol_spill_get_options(gcol_spill_options *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_spill_get_options");
  gcol_status const status = spill_get_options(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

bool gcol_spill_is_enabled(void) {
  pthread_once(&environment_once, read_environment);
  if (!atomic_load(&any_manager)) return false;
  gcol_detail_spill_manager *const m = manager_get();
  if (m == NULL) return false;
  pthread_mutex_lock(&m->lock);
  bool const enabled = m->enabled;
  pthread_mutex_unlock(&m->lock);
  return enabled;
}

static gcol_status spill_set_device_limit(size_t bytes) {
  gcol_detail_spill_manager *m = NULL;
  gcol_status status = manager_or_error(&m, __func__);
  if (status != GCOL_OK) return status;
  pthread_mutex_lock(&m->lock);
  bool const enabled = m->enabled;
  if (enabled) m->options.device_limit = bytes;
  int64_t const over = m->stats.device_bytes - (int64_t)bytes;
  pthread_mutex_unlock(&m->lock);
  if (!enabled) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                             "spilling is off for device %d: call gcol_spill_enable first",
                             m->device);
  }
  size_t spilled = 0;
  if (bytes > 0 && over > 0) status = spill_bytes(m, (size_t)over, &spilled);
  return status;
}

gcol_status gcol_spill_set_device_limit(size_t bytes) {
  GCOL_DETAIL_NVTX_PUSH("gcol_spill_set_device_limit");
  gcol_status const status = spill_set_device_limit(bytes);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status spill_now(size_t bytes, size_t *out_spilled) {
  gcol_detail_spill_manager *m = NULL;
  size_t spilled = 0;
  if (out_spilled != NULL) *out_spilled = 0;
  gcol_status status = manager_or_error(&m, __func__);
  if (status == GCOL_OK) status = spill_bytes(m, bytes, &spilled);
  if (out_spilled != NULL) *out_spilled = spilled;
  return status;
}

gcol_status gcol_spill_now(size_t bytes, size_t *out_spilled) {
  GCOL_DETAIL_NVTX_PUSH("gcol_spill_now");
  gcol_status const status = spill_now(bytes, out_spilled);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status spill_statistics_get(gcol_spill_statistics *out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  memset(out, 0, sizeof *out);
  if (!atomic_load(&any_manager)) return GCOL_OK;
  gcol_detail_spill_manager *m = NULL;
  gcol_status const status = manager_or_error(&m, __func__);
  if (status != GCOL_OK) return status;
  pthread_mutex_lock(&m->lock);
  *out = m->stats;
  pthread_mutex_unlock(&m->lock);
  return GCOL_OK;
}

gcol_status gcol_spill_statistics_get(gcol_spill_statistics *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_spill_statistics_get");
  gcol_status const status = spill_statistics_get(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status spill_scope_begin(gcol_spill_scope **out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  gcol_spill_scope *scope = (gcol_spill_scope *)calloc(1, sizeof *scope);
  GCOL_DETAIL_REQUIRE(scope != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a spill scope");
  scope->parent = current_scope;
  current_scope = scope;
  *out = scope;
  return GCOL_OK;
}

gcol_status gcol_spill_scope_begin(gcol_spill_scope **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_spill_scope_begin");
  gcol_status const status = spill_scope_begin(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status spill_scope_end(gcol_spill_scope *scope, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaEvent_t event = NULL;
  GCOL_DETAIL_REQUIRE(scope != NULL, GCOL_ERROR_INVALID_ARGUMENT, "scope is NULL");
  GCOL_DETAIL_REQUIRE(scope == current_scope, GCOL_ERROR_INVALID_ARGUMENT,
                      "scope %p is not this thread's innermost scope", (void *)scope);
  bool device = false;
  for (size_t i = 0; i < scope->pins.count; ++i) device = device || !on_host(scope->pins.items[i]);
  if (device) {
    cudaError_t err = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
    if (err == cudaSuccess) err = cudaEventRecord(event, (cudaStream_t)stream);
    if (err != cudaSuccess) {
      status = gcol_detail_cuda_error((int)err, __func__, "recording the scope's end");
      if (event != NULL) cudaEventDestroy(event);
      event = NULL;
      (void)cudaStreamSynchronize((cudaStream_t)stream); /* order by waiting instead */
    }
  }
  release_list(&scope->pins, &scope->pins, event);
  if (event != NULL) cudaEventDestroy(event);
  current_scope = scope->parent;
  free(scope->pins.items);
  free(scope);
  return status;
}

gcol_status gcol_spill_scope_end(gcol_spill_scope *scope, gcol_stream stream) {
  GCOL_DETAIL_NVTX_PUSH("gcol_spill_scope_end");
  gcol_status const status = spill_scope_end(scope, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

bool gcol_buffer_is_spilled(const gcol_buffer *buffer) {
  if (buffer == NULL || buffer->storage == NULL || buffer->storage->spill == NULL) return false;
  gcol_detail_spill_record *const r = buffer->storage->spill;
  pthread_mutex_lock(&r->m->lock);
  bool const spilled = r->spilled;
  pthread_mutex_unlock(&r->m->lock);
  return spilled;
}

bool gcol_buffer_is_spillable(const gcol_buffer *buffer) {
  if (buffer == NULL || buffer->storage == NULL || buffer->storage->spill == NULL) return false;
  gcol_detail_spill_record *const r = buffer->storage->spill;
  pthread_mutex_lock(&r->m->lock);
  bool const spillable = !r->exposed && r->pins == 0;
  pthread_mutex_unlock(&r->m->lock);
  return spillable;
}

/* ------------------------------------------------------------------------------------- */
/* The spill resource                                                                    */
/* ------------------------------------------------------------------------------------- */

typedef struct spill_mr_state {
  gcol_mr self;
  gcol_mr *upstream;
} spill_mr_state;

/* After a failed allocation: spills and retries until it fits or nothing more can spill. */
static gcol_status spill_mr_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  spill_mr_state *const state = (spill_mr_state *)self->state;
  gcol_status status = gcol_mr_allocate(state->upstream, out, bytes, stream);
  if (status != GCOL_ERROR_OUT_OF_MEMORY) return status;
  gcol_detail_spill_manager *const m = manager_get();
  size_t total = 0;
  while (m != NULL && status == GCOL_ERROR_OUT_OF_MEMORY) {
    size_t spilled = 0;
    gcol_status const spill_status = spill_bytes(m, bytes, &spilled);
    total += spilled;
    if (spilled == 0) break;
    status = gcol_mr_allocate(state->upstream, out, bytes, stream);
    if (spill_status != GCOL_OK && status != GCOL_OK) break;
  }
  if (status != GCOL_ERROR_OUT_OF_MEMORY || m == NULL) return status;
  gcol_spill_statistics s;
  pthread_mutex_lock(&m->lock);
  s = m->stats;
  pthread_mutex_unlock(&m->lock);
  return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_mr_allocate",
                           "spill: %zu bytes do not fit after spilling %zu bytes; nothing more "
                           "can spill (%lld spillable bytes on the device pinned, %lld exposed)",
                           bytes, total, (long long)(s.device_bytes - s.spillable_bytes),
                           (long long)s.exposed_bytes);
}

static void spill_mr_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  spill_mr_state *const state = (spill_mr_state *)self->state;
  gcol_mr_deallocate(state->upstream, ptr, bytes, stream);
}

static void spill_mr_destroy(gcol_mr *self) { free(self->state); }

static gcol_status mr_spill_create(gcol_mr *upstream, gcol_mr **out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  GCOL_DETAIL_REQUIRE(upstream != NULL, GCOL_ERROR_INVALID_ARGUMENT, "upstream is NULL");
  GCOL_DETAIL_REQUIRE(upstream->allocate != NULL && upstream->deallocate != NULL,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "upstream has a NULL allocate or deallocate function");
  spill_mr_state *state = (spill_mr_state *)calloc(1, sizeof *state);
  GCOL_DETAIL_REQUIRE(state != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "cannot allocate the spill resource");
  state->self = (gcol_mr){
      spill_mr_allocate, spill_mr_deallocate, spill_mr_destroy, state, upstream->kind, "spill"};
  state->upstream = upstream;
  *out = &state->self;
  return GCOL_OK;
}

gcol_status gcol_mr_spill_create(gcol_mr *upstream, gcol_mr **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_mr_spill_create");
  gcol_status const status = mr_spill_create(upstream, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
