/* The device buffer of a Parquet read (kernels/io/parquet_decode.cu): where each column's
 * bytes and tables go, and the host-to-device copies that fill it. Host code with the copy
 * itself a callback, so the host tests replay a read's uploads into host memory and check
 * every byte the GPU would see (tests/io/test_parquet_host.c). */
#include <string.h>

#include "internal/parquet.h"

/* A staged run bridges gaps up to this many bytes inside a column's byte space: the alignment
 * padding before nvCOMP's inputs and outputs, and outputs up to this size, which nvCOMP
 * writes after the upload (one copy instead of one per page). */
#define GAP_FILL 256

static int64_t align_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

int64_t gcol_detail_pq_layout(const gcol_detail_pq_column_plan *plans, int32_t n, int64_t job_bytes,
                              gcol_detail_pq_at *at, int64_t *jobs_at) {
  int64_t total = 0;
  for (int32_t c = 0; c < n; ++c) {
    at[c].bytes = total;
    total = align_up(total + plans[c].num_bytes, 16);
  }
  for (int32_t c = 0; c < n; ++c) {
    at[c].pages = total;
    total =
        align_up(total + (int64_t)plans[c].num_pages * (int64_t)sizeof(gcol_detail_pq_page), 16);
    at[c].dicts = total;
    total =
        align_up(total + (int64_t)plans[c].num_dicts * (int64_t)sizeof(gcol_detail_pq_dict), 16);
  }
  *jobs_at = total;
  return align_up(total + job_bytes, 16);
}

int64_t gcol_detail_pq_staged_bytes(const gcol_detail_pq_column_plan *plans, int32_t n, bool pinned,
                                    int64_t jobs_size) {
  int64_t total = jobs_size;
  for (int32_t c = 0; c < n; ++c) {
    const gcol_detail_pq_column_plan *p = &plans[c];
    for (int32_t i = 0; i < p->num_segments; ++i) {
      gcol_detail_pq_segment const g = p->segments[i];
      if (g.src == NULL && g.owned < 0) continue;               /* written by nvCOMP */
      if (g.src == NULL || !pinned) total += g.size + GAP_FILL; /* a bridged gap before it */
    }
    total += (int64_t)p->num_pages * (int64_t)sizeof(gcol_detail_pq_page) +
             (int64_t)p->num_dicts * (int64_t)sizeof(gcol_detail_pq_dict);
  }
  return total;
}

/* Copies of host pieces: from page-locked memory directly, the rest gathered into the
 * staging buffer and copied in runs that are contiguous on both sides. */
typedef struct uploader {
  uint8_t *staging;
  int64_t staged;  /* staging bytes used */
  int64_t run_dev; /* the pending staged run */
  int64_t run_src;
  int64_t run_size;
  gcol_detail_pq_copy_fn copy;
  void *user;
} uploader;

static int flush(uploader *u) {
  int e = 0;
  if (u->run_size > 0) e = u->copy(u->user, u->run_dev, u->staging + u->run_src, u->run_size);
  u->run_size = 0;
  return e;
}

/* `bridge`: the gap between the pending run and `dev` may be copied over with zeros, because
 * nothing else is there (padding) or what is there is written after the upload (nvCOMP's
 * outputs). Only a column's own byte space is known so: the layout puts other columns' bytes
 * and tables between a column's bytes and its tables, and those are uploaded earlier or
 * later than this run (bridging them once zeroed a column's page table). */
static int put(uploader *u, int64_t dev, const void *src, int64_t size, bool direct, bool bridge) {
  if (size <= 0) return 0;
  if (direct) {
    int const e = flush(u); /* the pending run first: the copies stay in order */
    if (e != 0) return e;
    return u->copy(u->user, dev, src, size);
  }
  int64_t const gap = dev - (u->run_dev + u->run_size);
  if (u->run_size > 0 && bridge && gap > 0 && gap <= GAP_FILL) {
    memset(u->staging + u->staged, 0, (size_t)gap);
    u->staged += gap;
    u->run_size += gap;
  } else if (u->run_size > 0 && gap != 0) {
    int const e = flush(u);
    if (e != 0) return e;
  }
  if (u->run_size == 0) {
    u->run_dev = dev;
    u->run_src = u->staged;
  }
  memcpy(u->staging + u->staged, src, (size_t)size);
  u->staged += size;
  u->run_size += size;
  return 0;
}

/* One column: its byte space (bridging its own gaps), then its page and dictionary tables. */
static int upload_column(uploader *u, const gcol_detail_pq_column_plan *p, gcol_detail_pq_at at,
                         bool pinned) {
  int e = 0;
  for (int32_t i = 0; i < p->num_segments && e == 0; ++i) {
    gcol_detail_pq_segment const g = p->segments[i];
    if (g.src == NULL && g.owned < 0) continue; /* written by nvCOMP */
    const uint8_t *src = g.src != NULL ? g.src : p->bytes + g.owned;
    e = put(u, at.bytes + g.begin, src, g.size, g.src != NULL && pinned, true);
  }
  if (e == 0) {
    e = put(u, at.pages, p->pages, (int64_t)p->num_pages * (int64_t)sizeof(gcol_detail_pq_page),
            false, false);
  }
  if (e == 0) {
    e = put(u, at.dicts, p->dicts, (int64_t)p->num_dicts * (int64_t)sizeof(gcol_detail_pq_dict),
            false, false);
  }
  return e;
}

int gcol_detail_pq_upload(const gcol_detail_pq_column_plan *plans, int32_t n, bool pinned,
                          const gcol_detail_pq_at *at, const void *jobs, int64_t jobs_size,
                          int64_t jobs_at, uint8_t *staging, gcol_detail_pq_copy_fn copy,
                          void *user) {
  uploader u = {staging, 0, 0, 0, 0, copy, user};
  int e = 0;
  for (int32_t c = 0; c < n && e == 0; ++c) {
    e = flush(&u); /* a column's first piece never bridges from the previous column */
    if (e == 0) e = upload_column(&u, &plans[c], at[c], pinned);
  }
  if (e == 0) e = put(&u, jobs_at, jobs, jobs_size, false, false);
  if (e == 0) e = flush(&u);
  return e;
}
