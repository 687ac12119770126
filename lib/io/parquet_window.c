/* A read's column chunks read from a path or a source into page-locked host memory at once
 * (gcol_detail_pq_window_load): the plans then borrow them as they would a pinned buffer's, and
 * the upload copies them to the device at the link's speed. Without it each chunk was read on
 * one thread at a time into malloc'd memory, copied again into the plan, and copied a third
 * time into staging page-locked for every batch (cudaMallocHost, ~0.6 ms per MiB): pyarrow's
 * 5.4 GB SNAPPY file took 5.9 s from the page cache on an H200, libcudf 0.31 s. */
#define _POSIX_C_SOURCE 200809L

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcol/io/staging.h"
#include "internal/error.h"
#include "internal/parquet.h"

/* Byte ranges closer than this are read as one (the gap read too). */
#define WINDOW_GAP ((int64_t)1 << 20)
/* A reader's task: at most this many bytes (one pread). */
#define WINDOW_TASK ((int64_t)4 << 20)
#define WINDOW_MAX_READERS 16

typedef struct window_reads {
  const gcol_detail_pq_file *file;
  uint8_t *bytes;
  const gcol_detail_pq_range *tasks; /* file bytes [begin, end) to bytes + at */
  int64_t num_tasks;
  int64_t next;   /* the next task (atomic) */
  int32_t failed; /* a read failed (atomic) */
} window_reads;

static int compare_ranges(const void *a, const void *b) {
  int64_t const x = ((const gcol_detail_pq_range *)a)->begin;
  int64_t const y = ((const gcol_detail_pq_range *)b)->begin;
  return x < y ? -1 : x > y;
}

/* Cuts ranges into reads of at most WINDOW_TASK bytes; NULL when out of host memory. */
static gcol_detail_pq_range *cut_tasks(const gcol_detail_pq_range *ranges, int64_t n,
                                       int64_t *num_tasks) {
  int64_t pieces = 0;
  for (int64_t i = 0; i < n; ++i) {
    pieces += (ranges[i].end - ranges[i].begin + WINDOW_TASK - 1) / WINDOW_TASK;
  }
  gcol_detail_pq_range *tasks =
      (gcol_detail_pq_range *)malloc((size_t)(pieces > 0 ? pieces : 1) * sizeof *tasks);
  if (tasks == NULL) return NULL;
  *num_tasks = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t at = ranges[i].begin; at < ranges[i].end; at += WINDOW_TASK) {
      int64_t const end = at + WINDOW_TASK < ranges[i].end ? at + WINDOW_TASK : ranges[i].end;
      tasks[(*num_tasks)++] =
          (gcol_detail_pq_range){at, end, ranges[i].at + (at - ranges[i].begin)};
    }
  }
  return tasks;
}

/* The chunks' ranges, sorted, merged across small gaps and packed (`at`); false where a
 * chunk's extent is outside the file (the plans report it) or out of host memory. */
static bool window_ranges(const gcol_parquet_metadata *md, const int32_t *columns,
                          int32_t num_columns, const int32_t *groups, int32_t num_groups,
                          gcol_detail_pq_range **out, int64_t *num_ranges, int64_t *size) {
  int64_t const n = (int64_t)num_columns * num_groups;
  gcol_detail_pq_range *ranges =
      (gcol_detail_pq_range *)malloc((size_t)(n > 0 ? n : 1) * sizeof *ranges);
  if (ranges == NULL) return false;
  int64_t k = 0;
  for (int32_t i = 0; i < num_groups; ++i) {
    for (int32_t c = 0; c < num_columns; ++c) {
      const gcol_detail_pq_chunk *ch = &md->row_groups[groups[i]].chunks[columns[c]];
      int64_t const start = gcol_detail_pq_chunk_start(ch), bytes = ch->stats.compressed_size;
      if (ch->has_file_path || start < 0 || bytes < 0 || bytes > md->file_size - start) {
        free(ranges);
        return false;
      }
      if (bytes > 0) ranges[k++] = (gcol_detail_pq_range){start, start + bytes, 0};
    }
  }
  qsort(ranges, (size_t)k, sizeof *ranges, compare_ranges);
  int64_t merged = 0;
  *size = 0;
  for (int64_t i = 0; i < k; ++i) {
    if (merged > 0 && ranges[i].begin <= ranges[merged - 1].end + WINDOW_GAP) {
      if (ranges[i].end > ranges[merged - 1].end) ranges[merged - 1].end = ranges[i].end;
    } else {
      ranges[merged++] = ranges[i];
    }
  }
  for (int64_t i = 0; i < merged; ++i) {
    ranges[i].at = *size;
    *size += ranges[i].end - ranges[i].begin;
  }
  *out = ranges;
  *num_ranges = merged;
  return true;
}

const uint8_t *gcol_detail_pq_window_find(const gcol_detail_pq_window *window, int64_t start,
                                          int64_t size) {
  int64_t lo = 0, hi = window->num_ranges; /* the last range beginning at or before start */
  while (hi - lo > 1) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (window->ranges[mid].begin <= start) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  if (window->num_ranges == 0 || size < 0) return NULL;
  const gcol_detail_pq_range *r = &window->ranges[lo];
  if (start < r->begin || start > r->end || size > r->end - start) return NULL;
  return window->bytes + r->at + (start - r->begin);
}

static void *window_reader(void *arg) {
  window_reads *w = (window_reads *)arg;
  for (;;) {
    int64_t const t = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED);
    if (t >= w->num_tasks || __atomic_load_n(&w->failed, __ATOMIC_RELAXED) != 0) break;
    const gcol_detail_pq_range *r = &w->tasks[t];
    if (w->file->source.read(w->file->source.user, r->begin, r->end - r->begin, w->bytes + r->at) !=
        0) {
      __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    }
  }
  return NULL;
}

/* Runs the reads on this thread and up to readers - 1 more; false if one failed. */
static bool run_reads(window_reads *w, int32_t readers) {
  pthread_t threads[WINDOW_MAX_READERS];
  bool started[WINDOW_MAX_READERS] = {false};
  if (readers > WINDOW_MAX_READERS) readers = WINDOW_MAX_READERS;
  if (readers > w->num_tasks) readers = (int32_t)w->num_tasks;
  for (int32_t i = 1; i < readers; ++i) {
    started[i] = pthread_create(&threads[i], NULL, window_reader, w) == 0;
  }
  (void)window_reader(w);
  for (int32_t i = 1; i < readers; ++i) {
    if (started[i]) pthread_join(threads[i], NULL);
  }
  return __atomic_load_n(&w->failed, __ATOMIC_RELAXED) == 0;
}

bool gcol_detail_pq_read_range(const gcol_detail_pq_file *file, int64_t begin, int64_t end,
                               uint8_t *dst, int32_t readers) {
  gcol_detail_pq_range const whole = {begin, end > begin ? end : begin, 0};
  int64_t num_tasks = 0;
  gcol_detail_pq_range *tasks = cut_tasks(&whole, 1, &num_tasks);
  if (tasks == NULL) return false;
  window_reads w = {file, dst, tasks, num_tasks, 0, 0};
  bool const ok = run_reads(&w, file->concurrent ? readers : 1);
  free(tasks);
  return ok;
}

int32_t gcol_detail_pq_window_readers(int32_t sharing) {
  long const cores = sysconf(_SC_NPROCESSORS_ONLN);
  long const each = cores > 0 && sharing > 0 ? cores / sharing : 1;
  return (int32_t)(each < 1 ? 1 : each > WINDOW_MAX_READERS ? WINDOW_MAX_READERS : each);
}

void gcol_detail_pq_window_load(const gcol_detail_pq_file *file, const gcol_parquet_metadata *md,
                                const int32_t *columns, int32_t num_columns, const int32_t *groups,
                                int32_t num_groups, int32_t readers, gcol_stream stream,
                                gcol_detail_pq_window *out) {
  gcol_detail_pq_range *tasks = NULL;
  int64_t num_tasks = 0;
  memset(out, 0, sizeof *out);
  if (file->source.read == NULL || !window_ranges(md, columns, num_columns, groups, num_groups,
                                                  &out->ranges, &out->num_ranges, &out->size)) {
    return;
  }
  void *bytes = NULL;
  out->mr = gcol_io_get_staging_mr();
  tasks = out->size > 0 ? cut_tasks(out->ranges, out->num_ranges, &num_tasks) : NULL;
  if (tasks == NULL || out->mr == NULL ||
      gcol_mr_allocate(out->mr, &bytes, (size_t)out->size, stream) != GCOL_OK) {
    gcol_clear_last_error(); /* no staging memory: the read goes on without a window */
    free(tasks);
    free(out->ranges);
    memset(out, 0, sizeof *out);
    return;
  }
  out->bytes = (uint8_t *)bytes;
  window_reads w = {file, out->bytes, tasks, num_tasks, 0, 0};
  bool const ok = run_reads(&w, file->concurrent ? readers : 1);
  free(tasks);
  if (!ok) gcol_detail_pq_window_free(out, stream); /* the plans read again, naming it */
}

void gcol_detail_pq_window_free(gcol_detail_pq_window *window, gcol_stream stream) {
  if (window->bytes != NULL) {
    gcol_mr_deallocate(window->mr, window->bytes, (size_t)window->size, stream);
  }
  free(window->ranges);
  memset(window, 0, sizeof *window);
}

/* ---- batches' windows loaded ahead, in file order ---- */

struct gcol_detail_pq_prefetch {
  gcol_detail_pq_file file; /* the read's (its window never set) */
  const gcol_parquet_metadata *md;
  const int32_t *columns;
  int32_t num_columns;
  const int32_t *groups;
  const int32_t *bounds;
  int32_t num_batches;
  int32_t max_live;
  const int32_t *failed; /* the read's first failing batch (atomic) */
  int device;
  gcol_stream stream;
  gcol_detail_pq_window *windows; /* batch b's, until taken */
  bool *ready;                    /* batch b's window loaded (or none will be) */
  int32_t live;                   /* windows loaded and not yet released */
  bool stop;                      /* the read is over: load nothing more */
  pthread_mutex_t lock;
  pthread_cond_t changed;
  pthread_t loader;
};

/* The loader: each batch's window in turn, all readers on it, while fewer than max_live are
 * loaded and not released; batches after a failing one get none. */
static void *prefetch_main(void *arg) {
  gcol_detail_pq_prefetch *p = (gcol_detail_pq_prefetch *)arg;
  (void)cudaSetDevice(p->device); /* the staging pool's events and page-locking */
  int32_t const readers = gcol_detail_pq_window_readers(1);
  for (int32_t b = 0; b < p->num_batches; ++b) {
    pthread_mutex_lock(&p->lock);
    while (p->live >= p->max_live && !p->stop) pthread_cond_wait(&p->changed, &p->lock);
    bool const skip = p->stop || __atomic_load_n(p->failed, __ATOMIC_RELAXED) < b;
    pthread_mutex_unlock(&p->lock);
    gcol_detail_pq_window window;
    memset(&window, 0, sizeof window);
    if (!skip) {
      gcol_detail_pq_window_load(&p->file, p->md, p->columns, p->num_columns,
                                 p->groups + p->bounds[b], p->bounds[b + 1] - p->bounds[b], readers,
                                 p->stream, &window);
    }
    pthread_mutex_lock(&p->lock);
    p->windows[b] = window;
    if (window.bytes != NULL) ++p->live;
    p->ready[b] = true;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
  }
  return NULL;
}

gcol_detail_pq_prefetch *gcol_detail_pq_prefetch_start(
    const gcol_detail_pq_file *file, const gcol_parquet_metadata *md, const int32_t *columns,
    int32_t num_columns, const int32_t *groups, const int32_t *bounds, int32_t num_batches,
    int32_t max_live, const int32_t *failed, int device, gcol_stream stream) {
  gcol_detail_pq_prefetch *p = (gcol_detail_pq_prefetch *)calloc(1, sizeof *p);
  if (p == NULL) return NULL;
  p->file = *file;
  p->file.window = NULL;
  p->md = md;
  p->columns = columns;
  p->num_columns = num_columns;
  p->groups = groups;
  p->bounds = bounds;
  p->num_batches = num_batches;
  p->max_live = max_live > 0 ? max_live : 1;
  p->failed = failed;
  p->device = device;
  p->stream = stream;
  p->windows = (gcol_detail_pq_window *)calloc((size_t)num_batches, sizeof *p->windows);
  p->ready = (bool *)calloc((size_t)num_batches, sizeof *p->ready);
  bool const made = p->windows != NULL && p->ready != NULL;
  bool const locked = made && pthread_mutex_init(&p->lock, NULL) == 0;
  bool const cond = locked && pthread_cond_init(&p->changed, NULL) == 0;
  if (cond && pthread_create(&p->loader, NULL, prefetch_main, p) == 0) return p;
  if (cond) pthread_cond_destroy(&p->changed);
  if (locked) pthread_mutex_destroy(&p->lock);
  free(p->windows);
  free(p->ready);
  free(p);
  return NULL; /* the workers load their own windows */
}

void gcol_detail_pq_prefetch_take(gcol_detail_pq_prefetch *p, int32_t batch,
                                  gcol_detail_pq_window *out) {
  pthread_mutex_lock(&p->lock);
  while (!p->ready[batch]) pthread_cond_wait(&p->changed, &p->lock);
  *out = p->windows[batch];
  memset(&p->windows[batch], 0, sizeof p->windows[batch]);
  pthread_mutex_unlock(&p->lock);
}

void gcol_detail_pq_prefetch_release(gcol_detail_pq_prefetch *p, gcol_detail_pq_window *window,
                                     gcol_stream stream) {
  if (window->bytes == NULL) return;
  gcol_detail_pq_window_free(window, stream);
  pthread_mutex_lock(&p->lock);
  --p->live;
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->lock);
}

void gcol_detail_pq_prefetch_finish(gcol_detail_pq_prefetch *p) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->lock);
  p->stop = true;
  pthread_cond_broadcast(&p->changed);
  pthread_mutex_unlock(&p->lock);
  pthread_join(p->loader, NULL);
  for (int32_t b = 0; b < p->num_batches; ++b) { /* loaded, never taken (a failed read) */
    gcol_detail_pq_window_free(&p->windows[b], p->stream);
  }
  pthread_cond_destroy(&p->changed);
  pthread_mutex_destroy(&p->lock);
  free(p->windows);
  free(p->ready);
  free(p);
}
