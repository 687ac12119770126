/*
 * Memory resources on the CPU: the host resource, the dispatching entry points, the
 * statistics / limit / fail-on-Nth adaptors, argument checks, and the per-device default
 * (slot 0 when there is no GPU).
 */
#include <cuda_runtime_api.h>
#include <pthread.h>

#include "test_util.h"

/* Counts WARN messages through the log sink. */
static int warn_count;
static void count_warnings(gcol_log_level level, const char *message, void *user) {
  (void)message;
  (void)user;
  if (level == GCOL_LOG_WARN) ++warn_count;
}

/* Runs with WARN messages counted into warn_count (the suite's level is "off"). */
static gcol_log_level begin_counting_warnings(void) {
  gcol_log_level const level = gcol_log_get_level();
  warn_count = 0;
  gcol_log_set_sink(count_warnings, NULL);
  gcol_log_set_level(GCOL_LOG_WARN);
  return level;
}

static void end_counting_warnings(gcol_log_level level) {
  gcol_log_set_level(level);
  gcol_log_set_sink(NULL, NULL);
}

static gcol_mr_statistics counters(gcol_mr *stats) {
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &s));
  return s;
}

static void *get(gcol_mr *mr, size_t bytes) {
  void *p = NULL;
  GCOL_TEST_OK(gcol_mr_allocate(mr, &p, bytes, NULL));
  assert_non_null(p);
  return p;
}

/* ------------------------------------------------------------------------------------- */
/* Host resource and dispatch                                                            */
/* ------------------------------------------------------------------------------------- */

static void host_allocations_are_aligned_and_writable(void **state) {
  (void)state;
  gcol_mr *host = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  assert_int_equal(host->kind, GCOL_MEMORY_HOST);
  assert_string_equal(host->name, "host");
  for (size_t bytes = 1; bytes < 70000; bytes = bytes * 3 + 1) {
    unsigned char *p = (unsigned char *)get(host, bytes);
    assert_int_equal((uintptr_t)p % GCOL_MR_ALIGNMENT, 0);
    memset(p, 0x5a, bytes);
    assert_int_equal(p[bytes - 1], 0x5a);
    gcol_mr_deallocate(host, p, bytes, NULL);
  }
  gcol_mr_destroy(host);
}

static void host_zero_bytes_gives_null(void **state) {
  (void)state;
  gcol_mr *host = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  void *p = (void *)&host;
  GCOL_TEST_OK(gcol_mr_allocate(host, &p, 0, NULL));
  assert_null(p);
  p = (void *)&host;
  GCOL_TEST_OK(host->allocate(host, &p, 0, NULL)); /* directly, not through the dispatcher */
  assert_null(p);
  gcol_mr_deallocate(host, NULL, 0, NULL);
  gcol_mr_destroy(host);
}

static void host_absurd_size_is_out_of_memory(void **state) {
  (void)state;
  gcol_mr *host = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  static const size_t sizes[] = {SIZE_MAX, SIZE_MAX - 100, (size_t)1 << 62};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    void *p = (void *)&host;
    gcol_clear_last_error();
    GCOL_TEST_STATUS(gcol_mr_allocate(host, &p, sizes[i], NULL), GCOL_ERROR_OUT_OF_MEMORY);
    assert_null(p);
    assert_non_null(strstr(gcol_last_error(), "host"));
  }
  gcol_mr_deallocate(host, get(host, 1), 1, NULL); /* still works */
  gcol_mr_destroy(host);
}

static void allocate_rejects_null_out(void **state) {
  (void)state;
  gcol_mr *host = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_allocate(host, NULL, 16, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "out"));
  gcol_mr_destroy(host);
}

static void null_pointers_and_resources_are_no_ops(void **state) {
  (void)state;
  gcol_mr_destroy(NULL);
  gcol_mr *host = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  gcol_mr_deallocate(host, NULL, 100, NULL);
  gcol_mr_destroy(host);
}

static void create_functions_reject_null_out(void **state) {
  (void)state;
  gcol_status (*const creates[])(gcol_mr **) = {gcol_mr_async_create, gcol_mr_cuda_create,
                                                gcol_mr_pinned_create, gcol_mr_managed_create,
                                                gcol_mr_host_create};
  for (size_t i = 0; i < sizeof creates / sizeof creates[0]; ++i) {
    gcol_clear_last_error();
    GCOL_TEST_STATUS(creates[i](NULL), GCOL_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(gcol_last_error(), "out"));
  }
}

/* Creating a CUDA resource makes no CUDA call, so it works (and frees) on any machine. */
static void builtin_resources_have_kind_and_name(void **state) {
  (void)state;
  struct {
    gcol_status (*create)(gcol_mr **);
    gcol_memory_kind kind;
    const char *name;
  } const expected[] = {{gcol_mr_async_create, GCOL_MEMORY_DEVICE, "async"},
                        {gcol_mr_cuda_create, GCOL_MEMORY_DEVICE, "cuda"},
                        {gcol_mr_pinned_create, GCOL_MEMORY_PINNED, "pinned"},
                        {gcol_mr_managed_create, GCOL_MEMORY_MANAGED, "managed"},
                        {gcol_mr_host_create, GCOL_MEMORY_HOST, "host"}};
  for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
    gcol_mr *mr = NULL;
    GCOL_TEST_OK(expected[i].create(&mr));
    assert_non_null(mr);
    assert_int_equal(mr->kind, expected[i].kind);
    assert_string_equal(mr->name, expected[i].name);
    assert_non_null(mr->allocate);
    assert_non_null(mr->deallocate);
    assert_non_null(mr->destroy);
    gcol_mr_destroy(mr);
  }
}

/* A user resource: counts calls, and leaves garbage in *out when it fails. */
typedef struct user_counts {
  int allocations;
  int deallocations;
  bool fail;
} user_counts;

static gcol_status user_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream stream) {
  (void)stream;
  user_counts *counts = (user_counts *)self->state;
  ++counts->allocations;
  if (counts->fail) {
    *out = (void *)counts;
    return GCOL_ERROR_OUT_OF_MEMORY;
  }
  *out = aligned_alloc(GCOL_MR_ALIGNMENT, (bytes + 255) / 256 * 256);
  return *out != NULL ? GCOL_OK : GCOL_ERROR_OUT_OF_MEMORY;
}

static void user_deallocate(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream) {
  (void)bytes;
  (void)stream;
  ++((user_counts *)self->state)->deallocations;
  free(ptr);
}

static void user_resources_go_through_the_dispatcher(void **state) {
  (void)state;
  user_counts counts = {0, 0, false};
  gcol_mr user = {user_allocate, user_deallocate, NULL, &counts, GCOL_MEMORY_HOST, "user"};
  void *p = (void *)&counts;
  GCOL_TEST_OK(gcol_mr_allocate(&user, &p, 0, NULL)); /* 0 bytes never reaches it */
  assert_null(p);
  assert_int_equal(counts.allocations, 0);
  p = get(&user, 10);
  gcol_mr_deallocate(&user, p, 10, NULL);
  assert_int_equal(counts.allocations, 1);
  assert_int_equal(counts.deallocations, 1);
  counts.fail = true;
  GCOL_TEST_STATUS(gcol_mr_allocate(&user, &p, 10, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(p); /* the dispatcher clears what the resource left */
  gcol_mr_destroy(&user); /* destroy is NULL: nothing happens */
  gcol_mr broken = {NULL, user_deallocate, NULL, &counts, GCOL_MEMORY_HOST, "broken"};
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_allocate(&broken, &p, 10, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(p);
  assert_non_null(strstr(gcol_last_error(), "broken"));
}

/* ------------------------------------------------------------------------------------- */
/* Statistics                                                                            */
/* ------------------------------------------------------------------------------------- */

static void statistics_counts_current_peak_and_total(void **state) {
  (void)state;
  gcol_mr *host = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  assert_string_equal(stats->name, "statistics");
  assert_int_equal(stats->kind, GCOL_MEMORY_HOST);
  gcol_mr_statistics s = counters(stats);
  assert_int_equal(s.current_bytes + s.peak_bytes + s.total_bytes + s.total_allocations, 0);
  void *a = get(stats, 100);
  void *b = get(stats, 300);
  s = counters(stats);
  assert_int_equal(s.current_bytes, 400);
  assert_int_equal(s.peak_bytes, 400);
  assert_int_equal(s.current_allocations, 2);
  gcol_mr_deallocate(stats, a, 100, NULL);
  void *c = get(stats, 50);
  s = counters(stats);
  assert_int_equal(s.current_bytes, 350);
  assert_int_equal(s.peak_bytes, 400);
  assert_int_equal(s.total_bytes, 450);
  assert_int_equal(s.current_allocations, 2);
  assert_int_equal(s.peak_allocations, 2);
  assert_int_equal(s.total_allocations, 3);
  assert_int_equal(s.failed_allocations, 0);
  gcol_mr_deallocate(stats, b, 300, NULL);
  gcol_mr_deallocate(stats, c, 50, NULL);
  s = counters(stats);
  assert_int_equal(s.current_bytes, 0);
  assert_int_equal(s.current_allocations, 0);
  assert_int_equal(s.peak_bytes, 400);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

static void statistics_counts_failures_not_zero_sizes(void **state) {
  (void)state;
  gcol_mr *host = NULL, *limit = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_limit_create(host, 1000, &limit));
  GCOL_TEST_OK(gcol_mr_statistics_create(limit, &stats));
  void *p = (void *)&p;
  GCOL_TEST_OK(gcol_mr_allocate(stats, &p, 0, NULL));
  assert_null(p);
  GCOL_TEST_STATUS(gcol_mr_allocate(stats, &p, 2000, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(p);
  GCOL_TEST_STATUS(gcol_mr_allocate(stats, &p, 1001, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  gcol_mr_statistics s = counters(stats);
  assert_int_equal(s.failed_allocations, 2);
  assert_int_equal(s.total_allocations, 0);
  assert_int_equal(s.current_bytes, 0);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(limit);
  gcol_mr_destroy(host);
}

/* Many live allocations: the table of live pointers grows and shrinks correctly. */
static void statistics_tracks_many_live_allocations(void **state) {
  (void)state;
  enum { N = 3000 };
  gcol_mr *host = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  void **ptrs = (void **)calloc(N, sizeof *ptrs);
  assert_non_null(ptrs);
  int64_t expected = 0;
  for (int i = 0; i < N; ++i) {
    ptrs[i] = get(stats, (size_t)(i % 17) + 1);
    expected += i % 17 + 1;
  }
  assert_int_equal(counters(stats).current_bytes, expected);
  /* Free in a scrambled order (odd stride) to exercise deletion inside probe chains. */
  for (int k = 0; k < N; ++k) {
    int const i = (int)(((int64_t)k * 1237) % N);
    gcol_mr_deallocate(stats, ptrs[i], (size_t)(i % 17) + 1, NULL);
    expected -= i % 17 + 1;
    if (k % 500 == 0) assert_int_equal(counters(stats).current_bytes, expected);
  }
  gcol_mr_statistics s = counters(stats);
  assert_int_equal(s.current_bytes, 0);
  assert_int_equal(s.current_allocations, 0);
  assert_int_equal(s.peak_allocations, N);
  int64_t live = -1;
  GCOL_TEST_OK(gcol_mr_statistics_report_leaks(stats, &live));
  assert_int_equal(live, 0);
  free(ptrs);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

static void statistics_reports_each_leak(void **state) {
  (void)state;
  gcol_mr *host = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  void *a = get(stats, 10), *b = get(stats, 20), *c = get(stats, 30);
  gcol_mr_deallocate(stats, b, 20, NULL);
  gcol_log_level const level = begin_counting_warnings();
  int64_t live = -1;
  GCOL_TEST_OK(gcol_mr_statistics_report_leaks(stats, &live));
  end_counting_warnings(level);
  assert_int_equal(live, 2);
  assert_int_equal(warn_count, 2);
  GCOL_TEST_OK(gcol_mr_statistics_report_leaks(stats, NULL)); /* out_live may be NULL */
  gcol_mr_deallocate(stats, a, 10, NULL);
  gcol_mr_deallocate(stats, c, 30, NULL);
  GCOL_TEST_OK(gcol_mr_statistics_report_leaks(stats, &live));
  assert_int_equal(live, 0);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

static void statistics_reports_unknown_pointers(void **state) {
  (void)state;
  gcol_mr *host = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  void *a = get(stats, 64);
  void *foreign = get(host, 64); /* straight from the upstream */
  gcol_clear_last_error();
  gcol_mr_deallocate(stats, foreign, 64, NULL); /* passed on to the upstream, not counted */
  assert_non_null(strstr(gcol_last_error(), "not allocated through it"));
  gcol_mr_statistics s = counters(stats);
  assert_int_equal(s.current_bytes, 64);
  assert_int_equal(s.current_allocations, 1);
  gcol_mr_deallocate(stats, a, 64, NULL);
  assert_int_equal(counters(stats).current_bytes, 0);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

typedef struct stats_job {
  gcol_mr *mr;
  uint64_t salt;
  int64_t allocations;
  int failures;
} stats_job;

static void *stats_churn(void *arg) {
  stats_job *job = (stats_job *)arg;
  gcol_test_rng rng = gcol_test_rng_make(job->salt);
  void *held[32] = {NULL};
  size_t sizes[32] = {0};
  for (int step = 0; step < 5000; ++step) {
    int const i = (int)gcol_test_rng_range(&rng, 0, 31);
    if (held[i] != NULL) {
      gcol_mr_deallocate(job->mr, held[i], sizes[i], NULL);
      held[i] = NULL;
    } else {
      sizes[i] = (size_t)gcol_test_rng_range(&rng, 1, 1000);
      if (gcol_mr_allocate(job->mr, &held[i], sizes[i], NULL) != GCOL_OK) ++job->failures;
      job->allocations += held[i] != NULL;
    }
  }
  for (int i = 0; i < 32; ++i) gcol_mr_deallocate(job->mr, held[i], sizes[i], NULL);
  return NULL;
}

static void statistics_is_thread_safe(void **state) {
  (void)state;
  enum { THREADS = 4 };
  gcol_mr *host = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  pthread_t threads[THREADS];
  stats_job jobs[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    jobs[t] = (stats_job){stats, 0x5100 + (uint64_t)t, 0, 0};
    assert_int_equal(pthread_create(&threads[t], NULL, stats_churn, &jobs[t]), 0);
  }
  int64_t total = 0;
  for (int t = 0; t < THREADS; ++t) {
    assert_int_equal(pthread_join(threads[t], NULL), 0);
    assert_int_equal(jobs[t].failures, 0);
    total += jobs[t].allocations;
  }
  gcol_mr_statistics s = counters(stats);
  assert_int_equal(s.total_allocations, total);
  assert_int_equal(s.current_bytes, 0);
  assert_int_equal(s.current_allocations, 0);
  assert_true(s.peak_allocations >= 1 && s.peak_allocations <= THREADS * 32);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

static void statistics_rejects_other_resources(void **state) {
  (void)state;
  gcol_mr *host = NULL, *limit = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_limit_create(host, 100, &limit));
  gcol_mr_statistics s;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_statistics_get(host, &s), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "not a statistics resource"));
  GCOL_TEST_STATUS(gcol_mr_statistics_get(limit, &s), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mr_statistics_get(NULL, &s), GCOL_ERROR_INVALID_ARGUMENT);
  int64_t live = 7;
  GCOL_TEST_STATUS(gcol_mr_statistics_report_leaks(host, &live), GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(live, 0);
  GCOL_TEST_STATUS(gcol_mr_statistics_report_leaks(NULL, &live), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_mr *stats = NULL;
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  GCOL_TEST_STATUS(gcol_mr_statistics_get(stats, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(limit);
  gcol_mr_destroy(host);
}

/* ------------------------------------------------------------------------------------- */
/* Limit                                                                                 */
/* ------------------------------------------------------------------------------------- */

static void limit_fails_past_the_limit_only(void **state) {
  (void)state;
  gcol_mr *host = NULL, *limit = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_limit_create(host, 1000, &limit));
  assert_string_equal(limit->name, "limit");
  void *a = get(limit, 600);
  void *b = get(limit, 400); /* exactly at the limit */
  void *c = (void *)&c;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_allocate(limit, &c, 1, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(c);
  assert_non_null(strstr(gcol_last_error(), "limit of 1000 bytes"));
  gcol_mr_deallocate(limit, a, 600, NULL);
  c = get(limit, 600);
  GCOL_TEST_STATUS(gcol_mr_allocate(limit, &a, SIZE_MAX, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(a);
  gcol_mr_deallocate(limit, b, 400, NULL);
  gcol_mr_deallocate(limit, c, 600, NULL);
  a = get(limit, 1000);
  gcol_mr_deallocate(limit, a, 1000, NULL);
  gcol_mr_destroy(limit);
  gcol_mr_destroy(host);
}

/* A failed upstream allocation gives its reservation back. */
static void limit_releases_reservation_when_upstream_fails(void **state) {
  (void)state;
  gcol_mr *host = NULL, *fail = NULL, *limit = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_fail_nth_create(host, 1, &fail));
  GCOL_TEST_OK(gcol_mr_limit_create(fail, 1000, &limit));
  void *p = NULL;
  GCOL_TEST_STATUS(gcol_mr_allocate(limit, &p, 1000, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  p = get(limit, 1000); /* would fail if the first 1000 bytes were still counted */
  gcol_mr_deallocate(limit, p, 1000, NULL);
  gcol_mr_destroy(limit);
  gcol_mr_destroy(fail);
  gcol_mr_destroy(host);
}

/* ------------------------------------------------------------------------------------- */
/* Fail on the Nth                                                                       */
/* ------------------------------------------------------------------------------------- */

static void fail_nth_fails_exactly_the_nth(void **state) {
  (void)state;
  gcol_mr *host = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  for (int64_t n = 1; n <= 6; ++n) {
    gcol_mr *fail = NULL;
    GCOL_TEST_OK(gcol_mr_fail_nth_create(stats, n, &fail));
    assert_string_equal(fail->name, "fail_nth");
    assert_int_equal(gcol_mr_fail_nth_count(fail), 0);
    void *ptrs[6] = {NULL};
    for (int64_t i = 1; i <= 6; ++i) {
      void *p = (void *)&p;
      gcol_status st = gcol_mr_allocate(fail, &p, (size_t)(i * 8), NULL);
      if (i == n) {
        assert_int_equal(st, GCOL_ERROR_OUT_OF_MEMORY);
        assert_null(p);
        assert_non_null(strstr(gcol_last_error(), "fail_nth"));
      } else {
        assert_int_equal(st, GCOL_OK);
        assert_non_null(p);
      }
      void *empty = (void *)&p; /* empty requests do not count */
      GCOL_TEST_OK(gcol_mr_allocate(fail, &empty, 0, NULL));
      assert_null(empty);
      ptrs[i - 1] = p;
    }
    assert_int_equal(gcol_mr_fail_nth_count(fail), 6);
    for (int i = 0; i < 6; ++i) gcol_mr_deallocate(fail, ptrs[i], (size_t)(i + 1) * 8, NULL);
    gcol_mr_destroy(fail);
  }
  gcol_mr_statistics s = counters(stats);
  assert_int_equal(s.total_allocations, 6 * 5);
  assert_int_equal(s.current_bytes, 0);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

static void fail_nth_zero_never_fails_negative_rejected(void **state) {
  (void)state;
  gcol_mr *host = NULL, *fail = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_fail_nth_create(host, 0, &fail));
  for (int i = 0; i < 100; ++i) gcol_mr_deallocate(fail, get(fail, 1), 1, NULL);
  assert_int_equal(gcol_mr_fail_nth_count(fail), 100);
  gcol_mr_destroy(fail);
  fail = host;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_fail_nth_create(host, -1, &fail), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(fail);
  assert_non_null(strstr(gcol_last_error(), "n is negative"));
  gcol_mr_destroy(host);
}

static void fail_nth_count_rejects_other_resources(void **state) {
  (void)state;
  gcol_mr *host = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  gcol_clear_last_error();
  assert_int_equal(gcol_mr_fail_nth_count(host), -1);
  assert_non_null(strstr(gcol_last_error(), "not a fail_nth resource"));
  assert_int_equal(gcol_mr_fail_nth_count(stats), -1);
  assert_int_equal(gcol_mr_fail_nth_count(NULL), -1);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

/* The fault-test loop of DEVELOPING.md over a two-allocation "operation". */
static gcol_status two_allocations(gcol_mr *mr, void **out) {
  void *tmp = NULL;
  *out = NULL;
  gcol_status status = gcol_mr_allocate(mr, &tmp, 100, NULL);
  if (status == GCOL_OK) status = gcol_mr_allocate(mr, out, 200, NULL);
  gcol_mr_deallocate(mr, tmp, 100, NULL);
  return status;
}

static void fail_nth_loop_finds_every_allocation_point(void **state) {
  (void)state;
  gcol_mr *host = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  int64_t n = 1;
  for (;; ++n) {
    gcol_mr *fail = NULL;
    GCOL_TEST_OK(gcol_mr_fail_nth_create(stats, n, &fail));
    void *out = NULL;
    gcol_status const st = two_allocations(fail, &out);
    gcol_mr_deallocate(fail, out, 200, NULL);
    gcol_mr_destroy(fail);
    assert_int_equal(counters(stats).current_bytes, 0);
    if (st == GCOL_OK) break;
    assert_int_equal(st, GCOL_ERROR_OUT_OF_MEMORY);
    assert_null(out);
  }
  assert_int_equal(n, 3);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

/* ------------------------------------------------------------------------------------- */
/* Adaptors in general                                                                   */
/* ------------------------------------------------------------------------------------- */

static void adaptors_reject_null_arguments(void **state) {
  (void)state;
  gcol_mr *host = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  gcol_mr broken = *host;
  broken.deallocate = NULL;
  gcol_mr *out = host;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_statistics_create(NULL, &out), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "upstream"));
  GCOL_TEST_STATUS(gcol_mr_statistics_create(host, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mr_statistics_create(&broken, &out), GCOL_ERROR_INVALID_ARGUMENT);
  out = host;
  GCOL_TEST_STATUS(gcol_mr_limit_create(NULL, 10, &out), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_mr_limit_create(host, 10, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mr_limit_create(&broken, 10, &out), GCOL_ERROR_INVALID_ARGUMENT);
  out = host;
  GCOL_TEST_STATUS(gcol_mr_fail_nth_create(NULL, 1, &out), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_mr_fail_nth_create(host, 1, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mr_fail_nth_create(&broken, 1, &out), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_mr_destroy(host);
}

/* Destroying a chain top-down leaves each upstream working and its counters intact. */
static void adaptors_never_destroy_their_upstream(void **state) {
  (void)state;
  gcol_mr *host = NULL, *stats = NULL, *limit = NULL, *fail = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  GCOL_TEST_OK(gcol_mr_limit_create(stats, 1 << 20, &limit));
  GCOL_TEST_OK(gcol_mr_fail_nth_create(limit, 0, &fail));
  assert_int_equal(fail->kind, GCOL_MEMORY_HOST);
  void *p = get(fail, 128);
  gcol_mr_deallocate(fail, p, 128, NULL);
  gcol_mr_destroy(fail);
  p = get(limit, 64);
  gcol_mr_deallocate(limit, p, 64, NULL);
  gcol_mr_destroy(limit);
  gcol_mr_statistics s = counters(stats);
  assert_int_equal(s.total_allocations, 2);
  assert_int_equal(s.total_bytes, 192);
  assert_int_equal(s.current_bytes, 0);
  gcol_mr_destroy(stats);
  p = get(host, 32);
  gcol_mr_deallocate(host, p, 32, NULL);
  gcol_mr_destroy(host);
}

/* ------------------------------------------------------------------------------------- */
/* Default resource                                                                      */
/* ------------------------------------------------------------------------------------- */

static void default_get_set_restore(void **state) {
  (void)state;
  gcol_mr *const builtin = gcol_mr_get_default();
  assert_non_null(builtin);
  assert_int_equal(builtin->kind, GCOL_MEMORY_DEVICE);
  assert_ptr_equal(gcol_mr_get_default(), builtin); /* stable */
  gcol_mr *host = NULL, *stats = NULL, *previous = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  GCOL_TEST_OK(gcol_mr_set_default(stats, &previous));
  assert_ptr_equal(previous, builtin);
  assert_ptr_equal(gcol_mr_get_default(), stats);
  /* NULL mr means the default, for allocate and deallocate alike. */
  void *p = get(NULL, 500);
  assert_int_equal(counters(stats).current_bytes, 500);
  gcol_mr_deallocate(NULL, p, 500, NULL);
  assert_int_equal(counters(stats).current_bytes, 0);
  assert_int_equal(counters(stats).total_allocations, 1);
  GCOL_TEST_OK(gcol_mr_set_default(NULL, &previous));
  assert_ptr_equal(previous, stats);
  assert_ptr_equal(gcol_mr_get_default(), builtin);
  GCOL_TEST_OK(gcol_mr_set_default(builtin, NULL)); /* setting the built-in is a restore */
  assert_ptr_equal(gcol_mr_get_default(), builtin);
  gcol_mr_destroy(builtin); /* never freed: a no-op */
  assert_ptr_equal(gcol_mr_get_default(), builtin);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

static void default_set_rejects_incomplete_resource(void **state) {
  (void)state;
  gcol_mr *const before = gcol_mr_get_default();
  gcol_mr broken = {NULL, NULL, NULL, NULL, GCOL_MEMORY_HOST, "broken"};
  gcol_mr *previous = &broken;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_set_default(&broken, &previous), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(previous);
  assert_ptr_equal(gcol_mr_get_default(), before);
}

/* Destroying the current default puts the built-in back instead of leaving it dangling. */
static void default_destroyed_resource_is_forgotten(void **state) {
  (void)state;
  gcol_mr *const builtin = gcol_mr_get_default();
  gcol_mr *host = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_set_default(host, NULL));
  gcol_log_level const level = begin_counting_warnings();
  gcol_mr_destroy(host);
  end_counting_warnings(level);
  assert_int_equal(warn_count, 1);
  assert_ptr_equal(gcol_mr_get_default(), builtin);
}

typedef struct default_job {
  gcol_mr *mine;
  gcol_mr *const *allowed;
  int allowed_count;
  int failures;
} default_job;

static void *swap_defaults(void *arg) {
  default_job *job = (default_job *)arg;
  for (int step = 0; step < 20000; ++step) {
    gcol_mr *previous = NULL;
    if (gcol_mr_set_default(step % 3 == 0 ? NULL : job->mine, &previous) != GCOL_OK) {
      ++job->failures;
    }
    gcol_mr *seen = gcol_mr_get_default();
    bool ok_prev = false, ok_seen = false;
    for (int i = 0; i < job->allowed_count; ++i) {
      ok_prev = ok_prev || previous == job->allowed[i];
      ok_seen = ok_seen || seen == job->allowed[i];
    }
    job->failures += !ok_prev + !ok_seen;
  }
  return NULL;
}

static void default_is_thread_safe(void **state) {
  (void)state;
  enum { THREADS = 4 };
  gcol_mr *resources[THREADS + 1];
  resources[THREADS] = gcol_mr_get_default();
  for (int t = 0; t < THREADS; ++t) GCOL_TEST_OK(gcol_mr_host_create(&resources[t]));
  pthread_t threads[THREADS];
  default_job jobs[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    jobs[t] = (default_job){resources[t], resources, THREADS + 1, 0};
    assert_int_equal(pthread_create(&threads[t], NULL, swap_defaults, &jobs[t]), 0);
  }
  for (int t = 0; t < THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  for (int t = 0; t < THREADS; ++t) assert_int_equal(jobs[t].failures, 0);
  GCOL_TEST_OK(gcol_mr_set_default(NULL, NULL));
  assert_ptr_equal(gcol_mr_get_default(), resources[THREADS]);
  for (int t = 0; t < THREADS; ++t) gcol_mr_destroy(resources[t]);
}

/* The device count agrees with the runtime (0 without a GPU) and with the tests' own check. */
static void device_count_matches_the_runtime(void **state) {
  (void)state;
  int runtime = 0;
  if (cudaGetDeviceCount(&runtime) != cudaSuccess) runtime = 0;
  (void)cudaGetLastError();
  int const count = gcol_device_count();
  assert_int_equal(count, runtime);
  assert_true(count >= 0);
  assert_int_equal(gcol_test_has_device() ? 1 : 0, count > 0 ? 1 : 0);
}

int main(void) {
  /* lib/log.c reads GCOL_LOG_LEVEL lazily and then clears the thread's last error, which
   * wipes the message of the first error raised in the process: read it up front. */
  (void)gcol_log_get_level();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_count_matches_the_runtime),
      cmocka_unit_test(host_allocations_are_aligned_and_writable),
      cmocka_unit_test(host_zero_bytes_gives_null),
      cmocka_unit_test(host_absurd_size_is_out_of_memory),
      cmocka_unit_test(allocate_rejects_null_out),
      cmocka_unit_test(null_pointers_and_resources_are_no_ops),
      cmocka_unit_test(create_functions_reject_null_out),
      cmocka_unit_test(builtin_resources_have_kind_and_name),
      cmocka_unit_test(user_resources_go_through_the_dispatcher),
      cmocka_unit_test(statistics_counts_current_peak_and_total),
      cmocka_unit_test(statistics_counts_failures_not_zero_sizes),
      cmocka_unit_test(statistics_tracks_many_live_allocations),
      cmocka_unit_test(statistics_reports_each_leak),
      cmocka_unit_test(statistics_reports_unknown_pointers),
      cmocka_unit_test(statistics_is_thread_safe),
      cmocka_unit_test(statistics_rejects_other_resources),
      cmocka_unit_test(limit_fails_past_the_limit_only),
      cmocka_unit_test(limit_releases_reservation_when_upstream_fails),
      cmocka_unit_test(fail_nth_fails_exactly_the_nth),
      cmocka_unit_test(fail_nth_zero_never_fails_negative_rejected),
      cmocka_unit_test(fail_nth_count_rejects_other_resources),
      cmocka_unit_test(fail_nth_loop_finds_every_allocation_point),
      cmocka_unit_test(adaptors_reject_null_arguments),
      cmocka_unit_test(adaptors_never_destroy_their_upstream),
      cmocka_unit_test(default_get_set_restore),
      cmocka_unit_test(default_set_rejects_incomplete_resource),
      cmocka_unit_test(default_destroyed_resource_is_forgotten),
      cmocka_unit_test(default_is_thread_safe),
  };
  return GCOL_TEST_RUN("memory", tests);
}
