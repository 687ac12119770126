/*
 * Copy-on-write buffers on the CPU: buffers, columns and tables over a host memory resource
 * (wrapped in a statistics adaptor, so every test ends with nothing allocated). Copies of
 * host storage are memcpy, so the reference counts, the copies a write or an exposure makes,
 * the counters of gcol_buffer_statistics, the threads and the failing allocations are all
 * checked without a GPU; tests/core/test_cow.c runs the same rules on device memory.
 */
#include <pthread.h>

#include "test_util.h"

static gcol_mr *host_mr = NULL;
static gcol_mr *stats = NULL;

static int host_setup(void **state) {
  (void)state;
  GCOL_TEST_OK(gcol_mr_host_create(&host_mr));
  GCOL_TEST_OK(gcol_mr_statistics_create(host_mr, &stats));
  gcol_clear_last_error();
  return 0;
}

static int64_t live_bytes(void) {
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &s));
  return s.current_bytes;
}

static int host_teardown(void **state) {
  (void)state;
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &s));
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host_mr);
  stats = host_mr = NULL;
  if (s.current_bytes != 0 || s.current_allocations != 0)
    fail_msg("%lld bytes in %lld allocations still live", (long long)s.current_bytes,
             (long long)s.current_allocations);
  return 0;
}

#define HOST_TEST(fn) cmocka_unit_test_setup_teardown(fn, host_setup, host_teardown)

/* Differences of the process-wide counters across a test's steps. */
typedef struct counts {
  int64_t shared, write, exposed, bytes;
} counts;

static gcol_buffer_statistics mark(void) {
  gcol_buffer_statistics s;
  gcol_buffer_statistics_get(&s);
  return s;
}

static counts since(gcol_buffer_statistics before) {
  gcol_buffer_statistics now = mark();
  counts c = {(int64_t)(now.shared_copies - before.shared_copies),
              (int64_t)(now.write_copies - before.write_copies),
              (int64_t)(now.exposed_copies - before.exposed_copies),
              (int64_t)(now.copied_bytes - before.copied_bytes)};
  return c;
}

static void assert_counts(counts c, int64_t shared, int64_t write, int64_t exposed, int64_t bytes) {
  if (c.shared != shared || c.write != write || c.exposed != exposed || c.bytes != bytes)
    fail_msg("copies: shared %lld write %lld exposed %lld bytes %lld, expected %lld %lld %lld %lld",
             (long long)c.shared, (long long)c.write, (long long)c.exposed, (long long)c.bytes,
             (long long)shared, (long long)write, (long long)exposed, (long long)bytes);
}

/* A host buffer of n int32 values tag * 1000 + i. */
static gcol_buffer *host_buffer(gcol_mr *mr, int64_t n, int32_t tag) {
  gcol_buffer *b = NULL;
  GCOL_TEST_OK(gcol_buffer_create((size_t)n * 4, NULL, mr, &b));
  for (int64_t i = 0; i < n; ++i) ((int32_t *)b->data)[i] = tag * 1000 + (int32_t)i;
  return b;
}

static void assert_tagged(const void *data, int64_t n, int32_t tag) {
  for (int64_t i = 0; i < n; ++i) {
    int32_t const got = ((const int32_t *)data)[i];
    if (got != tag * 1000 + (int32_t)i)
      fail_msg("row %lld holds %d, expected %d", (long long)i, got, tag * 1000 + (int)i);
  }
}

static void fill_tag(void *data, int64_t n, int32_t tag) {
  for (int64_t i = 0; i < n; ++i) ((int32_t *)data)[i] = tag * 1000 + (int32_t)i;
}

static void assert_error_mentions(const char *text) {
  if (strstr(gcol_last_error(), text) == NULL)
    fail_msg("the message \"%s\" does not mention \"%s\"", gcol_last_error(), text);
}

/* ---- buffers ---- */

static void shallow_copy_shares_until_the_last_free(void **state) {
  (void)state;
  gcol_buffer_statistics const t0 = mark();
  gcol_buffer *a = host_buffer(stats, 100, 1), *b = NULL, *c = NULL;
  int64_t const bytes = live_bytes();
  assert_int_equal(gcol_buffer_use_count(a), 1);
  assert_false(gcol_buffer_is_shared(a));
  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b));
  GCOL_TEST_OK(gcol_buffer_copy_shallow(b, NULL, &c));
  assert_ptr_equal(b->data, a->data);
  assert_ptr_equal(c->data, a->data);
  assert_ptr_equal(c->storage, a->storage);
  assert_int_equal(b->size, a->size);
  assert_ptr_equal(b->mr, a->mr);
  assert_int_equal(gcol_buffer_use_count(a), 3);
  assert_true(gcol_buffer_is_shared(c));
  assert_int_equal(live_bytes(), bytes); /* no device (here: resource) allocation */
  assert_counts(since(t0), 2, 0, 0, 0);
  gcol_buffer_free(a); /* the others keep the bytes */
  assert_int_equal(gcol_buffer_use_count(b), 2);
  assert_int_equal(live_bytes(), bytes);
  assert_tagged(c->data, 100, 1);
  gcol_buffer_free(c);
  assert_false(gcol_buffer_is_shared(b));
  assert_int_equal(live_bytes(), bytes);
  gcol_buffer_free(b); /* the last one frees the memory */
  assert_int_equal(live_bytes(), 0);
  assert_int_equal(gcol_buffer_use_count(NULL), 0);
  assert_false(gcol_buffer_is_shared(NULL));
  assert_false(gcol_buffer_is_exposed(NULL));
}

static void a_write_copies_only_a_shared_buffer(void **state) {
  (void)state;
  gcol_buffer *a = host_buffer(stats, 64, 2), *b = NULL;
  void *const original = a->data;
  gcol_buffer_statistics t0 = mark();
  GCOL_TEST_OK(gcol_buffer_make_mutable(a, NULL)); /* unique: no copy */
  assert_ptr_equal(a->data, original);
  assert_counts(since(t0), 0, 0, 0, 0);

  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b));
  t0 = mark();
  GCOL_TEST_OK(gcol_buffer_make_mutable(b, NULL)); /* shared: b gets its own copy */
  assert_counts(since(t0), 0, 1, 0, 64 * 4);
  assert_ptr_not_equal(b->data, a->data);
  assert_ptr_equal(a->data, original);
  assert_int_equal(gcol_buffer_use_count(a), 1);
  assert_int_equal(gcol_buffer_use_count(b), 1);
  assert_tagged(b->data, 64, 2); /* the copy holds the bytes */
  fill_tag(b->data, 64, 3);      /* and a write to it ... */
  assert_tagged(a->data, 64, 2); /* ... is not seen by the other holder */
  t0 = mark();
  GCOL_TEST_OK(gcol_buffer_make_mutable(a, NULL)); /* a is alone now: no copy */
  assert_ptr_equal(a->data, original);
  assert_counts(since(t0), 0, 0, 0, 0);
  gcol_buffer_free(a);
  gcol_buffer_free(b);
}

static void the_holder_that_writes_first_copies(void **state) {
  (void)state;
  /* a, b, c share; a writes (copies), then b writes (still shared with c: copies), then c
   * is alone and writes in place: two copies in all, each holder its own bytes. */
  gcol_buffer *a = host_buffer(stats, 10, 4), *b = NULL, *c = NULL;
  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b));
  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &c));
  void *const shared = a->data;
  gcol_buffer_statistics const t0 = mark();
  GCOL_TEST_OK(gcol_buffer_make_mutable(a, NULL));
  fill_tag(a->data, 10, 5);
  GCOL_TEST_OK(gcol_buffer_make_mutable(b, NULL));
  fill_tag(b->data, 10, 6);
  GCOL_TEST_OK(gcol_buffer_make_mutable(c, NULL));
  assert_ptr_equal(c->data, shared);
  assert_counts(since(t0), 0, 2, 0, 2 * 40);
  assert_tagged(a->data, 10, 5);
  assert_tagged(b->data, 10, 6);
  assert_tagged(c->data, 10, 4);
  gcol_buffer_free(a);
  gcol_buffer_free(b);
  gcol_buffer_free(c);
}

static void an_exposed_buffer_is_never_shared_again(void **state) {
  (void)state;
  gcol_buffer *a = host_buffer(stats, 32, 7), *b = NULL, *c = NULL;
  void *ptr = NULL;
  gcol_buffer_statistics t0 = mark();
  GCOL_TEST_OK(gcol_buffer_expose(a, NULL, &ptr)); /* unique: no copy */
  assert_ptr_equal(ptr, a->data);
  assert_true(gcol_buffer_is_exposed(a));
  assert_counts(since(t0), 0, 0, 0, 0);
  t0 = mark();
  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b)); /* exposed: copied */
  assert_counts(since(t0), 0, 0, 1, 32 * 4);
  assert_ptr_not_equal(b->data, a->data);
  assert_false(gcol_buffer_is_shared(a));
  assert_false(gcol_buffer_is_exposed(b)); /* the copy is gcol's alone */
  assert_tagged(b->data, 32, 7);
  fill_tag(ptr, 32, 8); /* written behind gcol's back: the copy does not see it */
  assert_tagged(b->data, 32, 7);
  /* the copy shares as usual */
  t0 = mark();
  GCOL_TEST_OK(gcol_buffer_copy_shallow(b, NULL, &c));
  assert_ptr_equal(c->data, b->data);
  assert_counts(since(t0), 1, 0, 0, 0);
  gcol_buffer_free(a);
  gcol_buffer_free(b);
  gcol_buffer_free(c);
}

static void exposing_a_shared_buffer_copies_it_first(void **state) {
  (void)state;
  gcol_buffer *a = host_buffer(stats, 16, 9), *b = NULL;
  void *ptr = NULL;
  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b));
  gcol_buffer_statistics const t0 = mark();
  GCOL_TEST_OK(gcol_buffer_expose(b, NULL, &ptr));
  assert_counts(since(t0), 0, 1, 0, 16 * 4);
  assert_ptr_not_equal(ptr, a->data);
  assert_true(gcol_buffer_is_exposed(b));
  assert_false(gcol_buffer_is_exposed(a));
  fill_tag(ptr, 16, 10);
  assert_tagged(a->data, 16, 9);
  GCOL_TEST_OK(gcol_buffer_expose(b, NULL, &ptr)); /* again: same pointer, no copy */
  assert_ptr_equal(ptr, b->data);
  assert_counts(since(t0), 0, 1, 0, 16 * 4);
  gcol_buffer_free(a);
  gcol_buffer_free(b);
}

static void empty_buffers_share_and_copy_nothing(void **state) {
  (void)state;
  gcol_buffer *a = NULL, *b = NULL, *c = NULL;
  void *ptr = (void *)&a;
  GCOL_TEST_OK(gcol_buffer_create(0, NULL, stats, &a));
  assert_null(a->data);
  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b));
  gcol_buffer_statistics const t0 = mark();
  GCOL_TEST_OK(gcol_buffer_make_mutable(b, NULL));
  GCOL_TEST_OK(gcol_buffer_expose(b, NULL, &ptr));
  assert_null(ptr);
  GCOL_TEST_OK(gcol_buffer_copy_shallow(b, NULL, &c));
  assert_null(c->data);
  assert_counts(since(t0), 0, 0, 0, 0); /* no bytes, no copies counted */
  gcol_buffer_free(a);
  gcol_buffer_free(b);
  gcol_buffer_free(c);
}

static void release_hands_over_only_an_unshared_allocation(void **state) {
  (void)state;
  gcol_buffer *a = host_buffer(stats, 8, 11), *b = NULL;
  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b));
  gcol_clear_last_error();
  assert_null(gcol_buffer_release(b)); /* shared: refused, b unchanged */
  assert_non_null(strstr(gcol_last_error(), "shared by 2 buffers"));
  assert_int_equal(gcol_buffer_use_count(b), 2);
  GCOL_TEST_OK(gcol_buffer_make_mutable(b, NULL));
  size_t const size = b->size;
  gcol_stream const stream = b->stream;
  void *const data = gcol_buffer_release(b); /* unique: the caller owns it now */
  assert_non_null(data);
  assert_tagged(data, 8, 11);
  gcol_mr_deallocate(stats, data, size, stream);
  gcol_buffer_free(a);
  assert_null(gcol_buffer_release(NULL));
  gcol_buffer_free(NULL);
}

static void bad_arguments_are_refused_with_a_message(void **state) {
  (void)state;
  gcol_buffer *a = host_buffer(stats, 4, 12), *b = a;
  void *ptr = a;
  GCOL_TEST_STATUS(gcol_buffer_copy_shallow(NULL, NULL, &b), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(b);
  assert_error_mentions("buffer is NULL");
  GCOL_TEST_STATUS(gcol_buffer_copy_shallow(a, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("out is NULL");
  GCOL_TEST_STATUS(gcol_buffer_make_mutable(NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_error_mentions("gcol_buffer_make_mutable");
  GCOL_TEST_STATUS(gcol_buffer_expose(NULL, NULL, &ptr), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(ptr);
  GCOL_TEST_STATUS(gcol_buffer_expose(a, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_false(gcol_buffer_is_exposed(a));
  gcol_buffer_statistics_get(NULL); /* a no-op */
  gcol_buffer_free(a);
}

/* A failing allocation in a write or in the copy of an exposed buffer: out of memory, the
 * buffers as they were (still shared, same bytes), nothing leaked. */
static void failed_copies_change_nothing_and_leak_nothing(void **state) {
  (void)state;
  int failures = 0;
  for (int64_t n = 1; n < 20; ++n) {
    gcol_mr *failing = NULL;
    gcol_buffer *a = NULL, *b = NULL, *c = NULL, *d = NULL;
    void *ptr = NULL;
    GCOL_TEST_OK(gcol_mr_fail_nth_create(stats, n, &failing));
    gcol_status st = gcol_buffer_create(40, NULL, failing, &a); /* allocation 1 */
    if (st == GCOL_OK) {
      fill_tag(a->data, 10, 13);
      GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b)); /* shares: no allocation */
      int64_t const before = live_bytes();
      st = gcol_buffer_make_mutable(b, NULL); /* allocation 2 */
      if (st != GCOL_OK) {
        assert_ptr_equal(b->data, a->data);
        assert_int_equal(gcol_buffer_use_count(a), 2);
        assert_int_equal(live_bytes(), before);
      } else {
        st = gcol_buffer_expose(b, NULL, &ptr); /* unique: no allocation */
        assert_int_equal(st, GCOL_OK);
        st = gcol_buffer_copy_shallow(b, NULL, &c); /* exposed: allocation 3 */
        if (st != GCOL_OK) {
          assert_null(c);
          assert_int_equal(live_bytes(), before + 40);
        } else {
          GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &d));
        }
      }
    }
    if (st != GCOL_OK) {
      if (st != GCOL_ERROR_OUT_OF_MEMORY)
        fail_msg("allocation %lld failing gave %s", (long long)n, gcol_status_string(st));
      ++failures;
    }
    if (a != NULL) assert_tagged(a->data, 10, 13);
    gcol_buffer_free(a);
    gcol_buffer_free(b);
    gcol_buffer_free(c);
    gcol_buffer_free(d);
    gcol_mr_destroy(failing);
    assert_int_equal(live_bytes(), 0);
    if (st == GCOL_OK) break;
  }
  assert_int_equal(failures, 3);
}

/* Threads take shallow copies of one shared buffer at once (reading the same buffer struct
 * is allowed), then each writes its own copy: every write copies exactly once (the source
 * keeps its reference throughout), no thread sees another's bytes, the source is unchanged,
 * and the counts go back to 1. */
#define NUM_THREADS 8
#define THREAD_ROWS 4096
#define THREAD_ROUNDS 20

typedef struct thread_ctx {
  const gcol_buffer *source;
  int32_t tag;
  gcol_status status;
  int bad_rows;
} thread_ctx;

static void *thread_main(void *arg) {
  thread_ctx *ctx = (thread_ctx *)arg;
  for (int r = 0; r < THREAD_ROUNDS && ctx->status == GCOL_OK; ++r) {
    gcol_buffer *mine = NULL, *peer = NULL;
    ctx->status = gcol_buffer_copy_shallow(ctx->source, NULL, &mine);
    if (ctx->status == GCOL_OK) ctx->status = gcol_buffer_copy_shallow(mine, NULL, &peer);
    if (ctx->status == GCOL_OK) ctx->status = gcol_buffer_make_mutable(mine, NULL);
    if (ctx->status == GCOL_OK) {
      fill_tag(mine->data, THREAD_ROWS, ctx->tag);
      for (int64_t i = 0; i < THREAD_ROWS; ++i) {
        ctx->bad_rows += ((int32_t *)mine->data)[i] != ctx->tag * 1000 + (int32_t)i;
        ctx->bad_rows += ((int32_t *)peer->data)[i] != 1000 + (int32_t)i; /* the source's */
      }
    }
    gcol_buffer_free(peer);
    gcol_buffer_free(mine);
  }
  return NULL;
}

static void copies_across_threads_never_see_each_others_writes(void **state) {
  (void)state;
  gcol_buffer *source = host_buffer(stats, THREAD_ROWS, 1);
  pthread_t threads[NUM_THREADS];
  thread_ctx ctx[NUM_THREADS];
  gcol_buffer_statistics const t0 = mark();
  for (int t = 0; t < NUM_THREADS; ++t) {
    ctx[t].source = source;
    ctx[t].tag = 100 + t;
    ctx[t].status = GCOL_OK;
    ctx[t].bad_rows = 0;
    assert_int_equal(pthread_create(&threads[t], NULL, thread_main, &ctx[t]), 0);
  }
  for (int t = 0; t < NUM_THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  for (int t = 0; t < NUM_THREADS; ++t) {
    if (ctx[t].status != GCOL_OK) fail_msg("thread %d: %s", t, gcol_status_string(ctx[t].status));
    if (ctx[t].bad_rows != 0) fail_msg("thread %d saw %d wrong rows", t, ctx[t].bad_rows);
  }
  int64_t const copies = NUM_THREADS * THREAD_ROUNDS;
  assert_counts(since(t0), 2 * copies, copies, 0, copies * THREAD_ROWS * 4);
  assert_int_equal(gcol_buffer_use_count(source), 1);
  assert_tagged(source->data, THREAD_ROWS, 1);
  gcol_buffer_free(source);
}

/* ---- columns and tables ---- */

/* An INT32 column of n rows (tag * 1000 + i) with a mask of all valid rows, in host memory. */
static gcol_column *host_column(gcol_mr *mr, int64_t n, int32_t tag) {
  gcol_buffer *mask = NULL;
  gcol_column *col = NULL;
  gcol_buffer *data = host_buffer(mr, n, tag);
  size_t const mask_bytes = gcol_bitmask_allocation_size(n);
  GCOL_TEST_OK(gcol_buffer_create(mask_bytes, NULL, mr, &mask));
  memset(mask->data, 0xff, mask_bytes);
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT32), n, data, mask, 0, NULL, 0, &col));
  return col;
}

/* A STRING column of n rows "a", "a", ... over host memory: offsets child and chars. */
static gcol_column *host_strings(gcol_mr *mr, int64_t n) {
  gcol_buffer *chars = NULL;
  gcol_column *offsets = NULL, *col = NULL;
  GCOL_TEST_OK(gcol_buffer_create((size_t)n, NULL, mr, &chars));
  memset(chars->data, 'a', (size_t)n);
  gcol_buffer *off = NULL;
  GCOL_TEST_OK(gcol_buffer_create((size_t)(n + 1) * 4, NULL, mr, &off));
  for (int64_t i = 0; i <= n; ++i) ((int32_t *)off->data)[i] = (int32_t)i;
  GCOL_TEST_OK(
      gcol_column_make(gcol_data_type_make(GCOL_INT32), n + 1, off, NULL, 0, NULL, 0, &offsets));
  GCOL_TEST_OK(gcol_column_make_strings(n, offsets, chars, NULL, 0, &col));
  return col;
}

static void column_shallow_copy_shares_and_a_mutable_view_copies(void **state) {
  (void)state;
  gcol_column *a = host_column(stats, 100, 1), *b = NULL;
  int64_t const bytes = live_bytes();
  gcol_buffer_statistics t0 = mark();
  GCOL_TEST_OK(gcol_column_copy_shallow(a, NULL, &b));
  assert_counts(since(t0), 2, 0, 0, 0);
  assert_int_equal(live_bytes(), bytes);
  gcol_column_view const va = gcol_column_get_view(a), vb = gcol_column_get_view(b);
  assert_ptr_equal(vb.data, va.data); /* a read: the same memory */
  assert_ptr_equal(vb.null_mask, va.null_mask);
  assert_int_equal(vb.size, 100);
  assert_int_equal(vb.null_count, 0);
  /* a slice of the copy reads the parent's memory too */
  gcol_column_view slice;
  GCOL_TEST_OK(gcol_column_view_slice(vb, 10, 20, &slice));
  assert_ptr_equal(slice.data, va.data);
  /* a write access to the copy copies its data and mask, once */
  t0 = mark();
  gcol_mutable_column_view mv;
  GCOL_TEST_OK(gcol_column_get_mutable_view(b, NULL, &mv));
  size_t const mask_bytes = gcol_bitmask_allocation_size(100);
  assert_counts(since(t0), 0, 2, 0, 400 + (int64_t)mask_bytes);
  assert_ptr_not_equal(mv.data, va.data);
  assert_ptr_not_equal(mv.null_mask, va.null_mask);
  fill_tag(mv.data, 100, 2);
  mv.null_mask[0] = 0; /* rows 0..31 null in the copy */
  assert_tagged(gcol_column_get_view(a).data, 100, 1);
  assert_int_equal(((const uint32_t *)gcol_column_get_view(a).null_mask)[0], 0xffffffffu);
  /* the old slice still reads the original's rows */
  assert_int_equal(((const int32_t *)slice.data)[slice.offset], 1010);
  /* another write access finds both unique: no copy */
  t0 = mark();
  GCOL_TEST_OK(gcol_column_get_mutable_view(b, NULL, &mv));
  GCOL_TEST_OK(gcol_column_get_mutable_view(a, NULL, &mv));
  assert_counts(since(t0), 0, 0, 0, 0);
  gcol_column_free(a);
  gcol_column_free(b);
}

static void nested_columns_share_every_buffer(void **state) {
  (void)state;
  gcol_column *a = host_strings(stats, 50), *b = NULL;
  gcol_buffer_statistics t0 = mark();
  GCOL_TEST_OK(gcol_column_copy_shallow(a, NULL, &b));
  assert_counts(since(t0), 2, 0, 0, 0); /* chars and the offsets child's data */
  assert_int_equal(b->num_children, 1);
  assert_ptr_equal(b->children[0]->data->data, a->children[0]->data->data);
  assert_ptr_equal(b->data->data, a->data->data);
  /* the mutable view covers the top level only: the chars */
  gcol_mutable_column_view mv;
  t0 = mark();
  GCOL_TEST_OK(gcol_column_get_mutable_view(b, NULL, &mv));
  assert_counts(since(t0), 0, 1, 0, 50);
  assert_true(gcol_buffer_is_shared(b->children[0]->data));
  /* make_mutable covers the children */
  GCOL_TEST_OK(gcol_column_make_mutable(b, NULL));
  assert_counts(since(t0), 0, 2, 0, 50 + 51 * 4);
  assert_false(gcol_buffer_is_shared(a->children[0]->data));
  ((int32_t *)b->children[0]->data->data)[1] = 0;
  memset(b->data->data, 'b', 50);
  assert_int_equal(((const int32_t *)a->children[0]->data->data)[1], 1);
  assert_int_equal(((const char *)a->data->data)[0], 'a');
  /* expose the copy: both its buffers, without copying (unique already) */
  t0 = mark();
  GCOL_TEST_OK(gcol_column_expose(b, NULL));
  assert_true(gcol_buffer_is_exposed(b->data));
  assert_true(gcol_buffer_is_exposed(b->children[0]->data));
  assert_counts(since(t0), 0, 0, 0, 0);
  gcol_column *c = NULL; /* a shallow copy of an exposed column copies both */
  GCOL_TEST_OK(gcol_column_copy_shallow(b, NULL, &c));
  assert_counts(since(t0), 0, 0, 2, 50 + 51 * 4);
  assert_ptr_not_equal(c->data->data, b->data->data);
  assert_int_equal(((const char *)c->data->data)[49], 'b');
  gcol_column_free(a);
  gcol_column_free(b);
  gcol_column_free(c);
}

static void column_calls_refuse_bad_arguments(void **state) {
  (void)state;
  gcol_column *a = host_column(stats, 4, 1), *b = a;
  gcol_mutable_column_view mv;
  GCOL_TEST_STATUS(gcol_column_copy_shallow(NULL, NULL, &b), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(b);
  assert_error_mentions("column is NULL");
  GCOL_TEST_STATUS(gcol_column_copy_shallow(a, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_get_mutable_view(NULL, NULL, &mv), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(mv.data);
  GCOL_TEST_STATUS(gcol_column_get_mutable_view(a, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_make_mutable(NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_expose(NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_table *t = NULL;
  GCOL_TEST_STATUS(gcol_table_copy_shallow(NULL, NULL, &t), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(t);
  gcol_column_free(a);
}

/* Shallow copies of a table whose columns are exposed (so the copy allocates), with each
 * allocation failing in turn: out of memory, no output, nothing leaked. The copies come
 * from each buffer's own resource, so the columns are made through the failing one (four
 * allocations) and the copy's allocations are the 5th and later. */
static void failed_shallow_copies_leak_nothing(void **state) {
  (void)state;
  int failures = 0;
  for (int64_t n = 1; n < 20; ++n) {
    gcol_mr *failing = NULL;
    gcol_table *t = NULL, *copy = NULL;
    GCOL_TEST_OK(gcol_mr_fail_nth_create(stats, 4 + n, &failing));
    gcol_column *cols[2] = {host_column(failing, 40, 1), host_strings(failing, 40)};
    GCOL_TEST_OK(gcol_column_expose(cols[0], NULL));
    GCOL_TEST_OK(gcol_column_expose(cols[1], NULL));
    GCOL_TEST_OK(gcol_table_make(cols, 2, &t));
    int64_t const before = live_bytes();
    copy = t; /* must be cleared on failure */
    gcol_status const st = gcol_table_copy_shallow(t, NULL, &copy);
    if (st == GCOL_OK) {
      assert_int_equal(copy->num_columns, 2);
      assert_tagged(copy->columns[0]->data->data, 40, 1);
      assert_int_equal(gcol_mr_fail_nth_count(failing), 8);
    } else {
      assert_int_equal(st, GCOL_ERROR_OUT_OF_MEMORY);
      assert_null(copy);
      assert_int_equal(live_bytes(), before);
      ++failures;
    }
    gcol_table_free(copy);
    gcol_table_free(t);
    gcol_mr_destroy(failing);
    assert_int_equal(live_bytes(), 0);
    if (st == GCOL_OK) break;
  }
  assert_int_equal(failures, 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      HOST_TEST(shallow_copy_shares_until_the_last_free),
      HOST_TEST(a_write_copies_only_a_shared_buffer),
      HOST_TEST(the_holder_that_writes_first_copies),
      HOST_TEST(an_exposed_buffer_is_never_shared_again),
      HOST_TEST(exposing_a_shared_buffer_copies_it_first),
      HOST_TEST(empty_buffers_share_and_copy_nothing),
      HOST_TEST(release_hands_over_only_an_unshared_allocation),
      HOST_TEST(bad_arguments_are_refused_with_a_message),
      HOST_TEST(failed_copies_change_nothing_and_leak_nothing),
      HOST_TEST(copies_across_threads_never_see_each_others_writes),
      HOST_TEST(column_shallow_copy_shares_and_a_mutable_view_copies),
      HOST_TEST(nested_columns_share_every_buffer),
      HOST_TEST(column_calls_refuse_bad_arguments),
      HOST_TEST(failed_shallow_copies_leak_nothing),
  };
  return GCOL_TEST_RUN("buffers", tests);
}
