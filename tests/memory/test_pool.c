/*
 * The pool's bookkeeping over a host upstream (no GPU needed): alignment, reuse,
 * coalescing, fragmentation, growth, exhaustion, stream preference, a seeded model check,
 * concurrent threads, and destroy returning every block to the upstream.
 */
#include <pthread.h>

#include "test_util.h"

#define KIB ((size_t)1024)

/* Two fake streams: a host-upstream pool only uses them as labels, never calls CUDA. */
#define STREAM_A ((gcol_stream)(uintptr_t)0x1000)
#define STREAM_B ((gcol_stream)(uintptr_t)0x2000)

/* host -> statistics (counts what the pool takes from its upstream) -> pool */
typedef struct pool_fixture {
  gcol_mr *host;
  gcol_mr *upstream_stats;
  gcol_mr *pool;
} pool_fixture;

static pool_fixture fixture_open(size_t initial_bytes, size_t maximum_bytes) {
  pool_fixture f = {NULL, NULL, NULL};
  GCOL_TEST_OK(gcol_mr_host_create(&f.host));
  GCOL_TEST_OK(gcol_mr_statistics_create(f.host, &f.upstream_stats));
  GCOL_TEST_OK(gcol_mr_pool_create(f.upstream_stats, initial_bytes, maximum_bytes, &f.pool));
  return f;
}

static gcol_mr_statistics upstream_counters(const pool_fixture *f) {
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(f->upstream_stats, &s));
  return s;
}

/* Destroys the pool and checks that every upstream byte came back. */
static void fixture_close(pool_fixture *f) {
  gcol_mr_destroy(f->pool);
  gcol_mr_statistics s = upstream_counters(f);
  assert_int_equal(s.current_bytes, 0);
  assert_int_equal(s.current_allocations, 0);
  gcol_mr_destroy(f->upstream_stats);
  gcol_mr_destroy(f->host);
}

static gcol_mr_pool_info info_of(gcol_mr *pool) {
  gcol_mr_pool_info info;
  GCOL_TEST_OK(gcol_mr_pool_get_info(pool, &info));
  assert_int_equal(info.held_bytes, info.used_bytes + info.free_bytes);
  assert_true(info.largest_free <= info.free_bytes);
  assert_true((info.free_bytes == 0) == (info.free_pieces == 0));
  return info;
}

static void *pool_get(gcol_mr *pool, size_t bytes, gcol_stream stream) {
  void *p = NULL;
  GCOL_TEST_OK(gcol_mr_allocate(pool, &p, bytes, stream));
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % GCOL_MR_ALIGNMENT, 0);
  return p;
}

/* Counts WARN messages through the log sink. */
static int warn_count;
static void count_warnings(gcol_log_level level, const char *message, void *user) {
  (void)message;
  (void)user;
  if (level == GCOL_LOG_WARN) ++warn_count;
}

/* ------------------------------------------------------------------------------------- */

static void pool_allocations_are_aligned_and_writable(void **state) {
  (void)state;
  pool_fixture f = fixture_open(0, 0);
  static const size_t sizes[] = {1, 2, 7, 255, 256, 257, 511, 1000, 4095, 4097, 65537};
  void *ptrs[sizeof sizes / sizeof sizes[0]];
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    ptrs[i] = pool_get(f.pool, sizes[i], NULL);
    memset(ptrs[i], (int)i + 1, sizes[i]);
  }
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    const unsigned char *bytes = (const unsigned char *)ptrs[i];
    for (size_t k = 0; k < sizes[i]; ++k) assert_int_equal(bytes[k], (int)i + 1);
    gcol_mr_deallocate(f.pool, ptrs[i], sizes[i], NULL);
  }
  assert_int_equal(info_of(f.pool).used_bytes, 0);
  fixture_close(&f);
}

static void pool_zero_bytes_gives_null(void **state) {
  (void)state;
  pool_fixture f = fixture_open(0, 0);
  void *p = (void *)&f;
  GCOL_TEST_OK(gcol_mr_allocate(f.pool, &p, 0, NULL));
  assert_null(p);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.held_bytes, 0);
  assert_int_equal(info.upstream_blocks, 0);
  gcol_mr_deallocate(f.pool, NULL, 0, NULL); /* no-op */
  fixture_close(&f);
}

static void pool_initial_block_is_rounded_and_free(void **state) {
  (void)state;
  pool_fixture f = fixture_open(5000, 0);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.held_bytes, 5120);
  assert_int_equal(info.used_bytes, 0);
  assert_int_equal(info.free_pieces, 1);
  assert_int_equal(info.largest_free, 5120);
  assert_int_equal(info.upstream_blocks, 1);
  assert_int_equal(upstream_counters(&f).total_allocations, 1);
  assert_int_equal(f.pool->kind, GCOL_MEMORY_HOST);
  fixture_close(&f);
}

static void pool_reuses_freed_piece(void **state) {
  (void)state;
  pool_fixture f = fixture_open(64 * KIB, 0);
  void *a = pool_get(f.pool, 1000, NULL);
  assert_int_equal(info_of(f.pool).used_bytes, 1024);
  gcol_mr_deallocate(f.pool, a, 1000, NULL);
  void *b = pool_get(f.pool, 1000, NULL);
  assert_ptr_equal(a, b);
  gcol_mr_deallocate(f.pool, b, 1000, NULL);
  assert_int_equal(upstream_counters(&f).total_allocations, 1);
  assert_int_equal(info_of(f.pool).upstream_blocks, 1);
  fixture_close(&f);
}

/* Holes of 2 KiB, 1 KiB and a large tail: a 1 KiB request takes the 1 KiB hole. */
static void pool_best_fit_takes_the_smallest_piece(void **state) {
  (void)state;
  pool_fixture f = fixture_open(16 * KIB, 0);
  void *wide = pool_get(f.pool, 2 * KIB, NULL);
  void *wall1 = pool_get(f.pool, 256, NULL);
  void *narrow = pool_get(f.pool, KIB, NULL);
  void *wall2 = pool_get(f.pool, 256, NULL);
  gcol_mr_deallocate(f.pool, wide, 2 * KIB, NULL);
  gcol_mr_deallocate(f.pool, narrow, KIB, NULL);
  assert_int_equal(info_of(f.pool).free_pieces, 3);
  void *p = pool_get(f.pool, 700, NULL);
  assert_ptr_equal(p, narrow);
  void *q = pool_get(f.pool, 1500, NULL);
  assert_ptr_equal(q, wide);
  gcol_mr_deallocate(f.pool, p, 700, NULL);
  gcol_mr_deallocate(f.pool, q, 1500, NULL);
  gcol_mr_deallocate(f.pool, wall1, 256, NULL);
  gcol_mr_deallocate(f.pool, wall2, 256, NULL);
  assert_int_equal(info_of(f.pool).free_pieces, 1);
  fixture_close(&f);
}

/* Frees three neighbours in every order: the block ends as one free piece each time. */
static void pool_coalesces_in_every_order(void **state) {
  (void)state;
  static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  pool_fixture f = fixture_open(3 * KIB, 0);
  for (int o = 0; o < 6; ++o) {
    void *p[3];
    for (int i = 0; i < 3; ++i) p[i] = pool_get(f.pool, KIB, NULL);
    gcol_mr_pool_info full = info_of(f.pool);
    assert_int_equal(full.free_pieces, 0);
    assert_int_equal(full.largest_free, 0);
    /* Neighbours in address order, whatever order they were handed out in. */
    assert_true((char *)p[1] == (char *)p[0] + KIB || (char *)p[0] == (char *)p[1] + KIB ||
                (char *)p[2] == (char *)p[0] + KIB || (char *)p[0] == (char *)p[2] + KIB);
    for (int k = 0; k < 3; ++k) gcol_mr_deallocate(f.pool, p[orders[o][k]], KIB, NULL);
    gcol_mr_pool_info info = info_of(f.pool);
    assert_int_equal(info.free_pieces, 1);
    assert_int_equal(info.largest_free, 3 * KIB);
    assert_int_equal(info.used_bytes, 0);
  }
  assert_int_equal(info_of(f.pool).upstream_blocks, 1);
  fixture_close(&f);
}

/* Freeing the middle of three leaves a hole; freeing a neighbour merges into it. */
static void pool_coalescing_step_by_step(void **state) {
  (void)state;
  pool_fixture f = fixture_open(4 * KIB, 0);
  char *a = (char *)pool_get(f.pool, KIB, NULL);
  char *b = (char *)pool_get(f.pool, KIB, NULL);
  char *c = (char *)pool_get(f.pool, KIB, NULL);
  assert_ptr_equal(b, a + KIB);
  assert_ptr_equal(c, b + KIB);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 1); /* the tail */
  assert_int_equal(info.largest_free, KIB);
  gcol_mr_deallocate(f.pool, b, KIB, NULL);
  info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 2);
  assert_int_equal(info.largest_free, KIB);
  gcol_mr_deallocate(f.pool, c, KIB, NULL); /* joins b and the tail */
  info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 1);
  assert_int_equal(info.largest_free, 3 * KIB);
  gcol_mr_deallocate(f.pool, a, KIB, NULL);
  info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 1);
  assert_int_equal(info.largest_free, 4 * KIB);
  fixture_close(&f);
}

/* Interleaved frees leave holes too small for a large request, which then grows the pool. */
static void pool_fragmentation_then_growth(void **state) {
  (void)state;
  pool_fixture f = fixture_open(16 * KIB, 0);
  void *p[16];
  for (int i = 0; i < 16; ++i) p[i] = pool_get(f.pool, KIB, NULL);
  for (int i = 0; i < 16; i += 2) gcol_mr_deallocate(f.pool, p[i], KIB, NULL);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 8);
  assert_int_equal(info.free_bytes, 8 * KIB);
  assert_int_equal(info.largest_free, KIB);
  void *big = pool_get(f.pool, 2 * KIB, NULL);
  info = info_of(f.pool);
  assert_int_equal(info.upstream_blocks, 2);
  assert_int_equal(info.held_bytes, 32 * KIB); /* the new block doubles the pool */
  for (int i = 0; i < 16; ++i) {
    assert_true((char *)big + 2 * KIB <= (char *)p[i] || (char *)big >= (char *)p[i] + KIB);
  }
  /* A hole is reused for a small request without growing. */
  void *small = pool_get(f.pool, KIB, NULL);
  assert_int_equal(info_of(f.pool).upstream_blocks, 2);
  gcol_mr_deallocate(f.pool, small, KIB, NULL);
  for (int i = 1; i < 16; i += 2) gcol_mr_deallocate(f.pool, p[i], KIB, NULL);
  gcol_mr_deallocate(f.pool, big, 2 * KIB, NULL);
  info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 2); /* one per block: blocks never merge */
  assert_int_equal(info.largest_free, 16 * KIB);
  assert_int_equal(info.used_bytes, 0);
  fixture_close(&f);
}

static void pool_growth_doubles(void **state) {
  (void)state;
  pool_fixture f = fixture_open(0, 0);
  void *a = pool_get(f.pool, 1000, NULL);
  assert_int_equal(info_of(f.pool).held_bytes, 1024);
  void *b = pool_get(f.pool, 1000, NULL);
  assert_int_equal(info_of(f.pool).held_bytes, 2048);
  void *c = pool_get(f.pool, 256, NULL);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.held_bytes, 4096);
  assert_int_equal(info.upstream_blocks, 3);
  assert_int_equal(info.used_bytes, 2304);
  void *d = pool_get(f.pool, 10000, NULL); /* the request is larger than the pool */
  info = info_of(f.pool);
  assert_int_equal(info.held_bytes, 4096 + 10240);
  gcol_mr_statistics s = upstream_counters(&f);
  assert_int_equal(s.total_allocations, 4);
  assert_int_equal(s.current_bytes, (int64_t)info.held_bytes);
  gcol_mr_deallocate(f.pool, a, 1000, NULL);
  gcol_mr_deallocate(f.pool, b, 1000, NULL);
  gcol_mr_deallocate(f.pool, c, 256, NULL);
  gcol_mr_deallocate(f.pool, d, 10000, NULL);
  fixture_close(&f);
}

static void pool_growth_is_capped_at_maximum(void **state) {
  (void)state;
  pool_fixture f = fixture_open(0, 3000);
  void *a = pool_get(f.pool, KIB, NULL);
  void *b = pool_get(f.pool, KIB, NULL);
  assert_int_equal(info_of(f.pool).held_bytes, 2048);
  void *c = pool_get(f.pool, 512, NULL); /* wants 2048 more, room for 768 (256-multiple) */
  assert_int_equal(info_of(f.pool).held_bytes, 2816);
  void *d = (void *)&f;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_allocate(f.pool, &d, KIB, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(d);
  assert_non_null(strstr(gcol_last_error(), "maximum"));
  d = pool_get(f.pool, 256, NULL); /* the rest of the capped block still serves */
  assert_int_equal(info_of(f.pool).held_bytes, 2816);
  gcol_mr_deallocate(f.pool, a, KIB, NULL);
  gcol_mr_deallocate(f.pool, b, KIB, NULL);
  gcol_mr_deallocate(f.pool, c, 512, NULL);
  gcol_mr_deallocate(f.pool, d, 256, NULL);
  fixture_close(&f);
}

static void pool_exhaustion_keeps_pool_usable(void **state) {
  (void)state;
  pool_fixture f = fixture_open(0, 4 * KIB);
  void *a = pool_get(f.pool, 4 * KIB, NULL);
  for (size_t bytes = 1; bytes <= 8 * KIB; bytes *= 4) {
    void *p = (void *)&f;
    gcol_clear_last_error();
    GCOL_TEST_STATUS(gcol_mr_allocate(f.pool, &p, bytes, NULL), GCOL_ERROR_OUT_OF_MEMORY);
    assert_null(p);
    assert_non_null(strstr(gcol_last_error(), "pool"));
    assert_non_null(strstr(gcol_last_error(), "4096"));
  }
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.held_bytes, 4 * KIB);
  assert_int_equal(info.used_bytes, 4 * KIB);
  gcol_mr_deallocate(f.pool, a, 4 * KIB, NULL);
  void *b = pool_get(f.pool, 2 * KIB, NULL);
  void *c = pool_get(f.pool, 2 * KIB, NULL);
  gcol_mr_deallocate(f.pool, b, 2 * KIB, NULL);
  gcol_mr_deallocate(f.pool, c, 2 * KIB, NULL);
  assert_int_equal(info_of(f.pool).upstream_blocks, 1);
  fixture_close(&f);
}

/* When the upstream refuses the doubled block, the pool asks for just the request. */
static void pool_growth_falls_back_to_request(void **state) {
  (void)state;
  gcol_mr *host = NULL, *limit = NULL, *pool = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_limit_create(host, 3 * KIB, &limit));
  GCOL_TEST_OK(gcol_mr_pool_create(limit, 0, 0, &pool));
  void *a = pool_get(pool, KIB, NULL);
  void *b = pool_get(pool, KIB, NULL);
  void *c = pool_get(pool, 256, NULL); /* a 2 KiB block is refused; 256 bytes are not */
  gcol_mr_pool_info info = info_of(pool);
  assert_int_equal(info.held_bytes, 2 * KIB + 256);
  assert_int_equal(info.upstream_blocks, 3);
  void *d = (void *)&info;
  GCOL_TEST_STATUS(gcol_mr_allocate(pool, &d, KIB, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(d);
  gcol_mr_deallocate(pool, a, KIB, NULL);
  gcol_mr_deallocate(pool, b, KIB, NULL);
  gcol_mr_deallocate(pool, c, 256, NULL);
  gcol_mr_destroy(pool);
  gcol_mr_destroy(limit);
  gcol_mr_destroy(host);
}

static void pool_absurd_size_is_out_of_memory(void **state) {
  (void)state;
  pool_fixture f = fixture_open(KIB, 0);
  static const size_t sizes[] = {SIZE_MAX, SIZE_MAX - 255, SIZE_MAX / 2, (size_t)1 << 60};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    void *p = (void *)&f;
    gcol_clear_last_error();
    GCOL_TEST_STATUS(gcol_mr_allocate(f.pool, &p, sizes[i], NULL), GCOL_ERROR_OUT_OF_MEMORY);
    assert_null(p);
  }
  assert_int_equal(info_of(f.pool).held_bytes, KIB);
  void *q = pool_get(f.pool, KIB, NULL);
  gcol_mr_deallocate(f.pool, q, KIB, NULL);
  fixture_close(&f);
}

static void pool_create_rejects_bad_arguments(void **state) {
  (void)state;
  gcol_mr *host = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  gcol_mr *pool = (gcol_mr *)host;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_pool_create(NULL, 0, 0, &pool), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(pool);
  assert_non_null(strstr(gcol_last_error(), "upstream"));
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_pool_create(host, 0, 0, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "out"));
  pool = host;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_pool_create(host, 8 * KIB, 4 * KIB, &pool),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(pool);
  assert_non_null(strstr(gcol_last_error(), "maximum_bytes"));
  gcol_mr broken = *host;
  broken.allocate = NULL;
  GCOL_TEST_STATUS(gcol_mr_pool_create(&broken, 0, 0, &pool), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(pool);
  gcol_mr_destroy(host);
}

/* An initial block the upstream cannot give fails creation and leaks nothing. */
static void pool_create_fails_cleanly_when_upstream_fails(void **state) {
  (void)state;
  gcol_mr *host = NULL, *stats = NULL, *fail = NULL, *pool = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &stats));
  GCOL_TEST_OK(gcol_mr_fail_nth_create(stats, 1, &fail));
  pool = host;
  GCOL_TEST_STATUS(gcol_mr_pool_create(fail, 4 * KIB, 0, &pool), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(pool);
  GCOL_TEST_OK(gcol_mr_pool_create(fail, 4 * KIB, 0, &pool)); /* the 2nd request passes */
  assert_int_equal(info_of(pool).held_bytes, 4 * KIB);
  gcol_mr_destroy(pool);
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &s));
  assert_int_equal(s.current_bytes, 0);
  assert_int_equal(s.total_allocations, 1);
  gcol_mr_destroy(fail);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(host);
}

static void pool_get_info_rejects_other_resources(void **state) {
  (void)state;
  pool_fixture f = fixture_open(0, 0);
  gcol_mr_pool_info info;
  gcol_clear_last_error();
  GCOL_TEST_STATUS(gcol_mr_pool_get_info(f.host, &info), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "not a pool"));
  GCOL_TEST_STATUS(gcol_mr_pool_get_info(f.upstream_stats, &info), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mr_pool_get_info(NULL, &info), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mr_pool_get_info(f.pool, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_mr_statistics s;
  GCOL_TEST_STATUS(gcol_mr_statistics_get(f.pool, &s), GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gcol_mr_fail_nth_count(f.pool), -1);
  fixture_close(&f);
}

/* A pointer the pool never gave, or one freed twice, is reported and changes nothing. */
static void pool_ignores_foreign_and_double_frees(void **state) {
  (void)state;
  pool_fixture f = fixture_open(4 * KIB, 0);
  char *a = (char *)pool_get(f.pool, KIB, NULL);
  char *b = (char *)pool_get(f.pool, KIB, NULL);
  gcol_mr_pool_info before = info_of(f.pool);
  int outside = 0;
  gcol_clear_last_error();
  gcol_mr_deallocate(f.pool, &outside, sizeof outside, NULL);
  assert_non_null(strstr(gcol_last_error(), "not an allocation"));
  gcol_clear_last_error();
  gcol_mr_deallocate(f.pool, a + 256, 256, NULL); /* inside a piece, not its start */
  assert_non_null(strstr(gcol_last_error(), "not an allocation"));
  gcol_mr_pool_info after = info_of(f.pool);
  assert_memory_equal(&before, &after, sizeof before);
  gcol_mr_deallocate(f.pool, a, KIB, NULL);
  gcol_clear_last_error();
  gcol_mr_deallocate(f.pool, a, KIB, NULL);
  assert_non_null(strstr(gcol_last_error(), "not an allocation"));
  assert_int_equal(info_of(f.pool).used_bytes, KIB);
  gcol_mr_deallocate(f.pool, b, KIB, NULL);
  assert_int_equal(info_of(f.pool).used_bytes, 0);
  fixture_close(&f);
}

/* Freeing with a size other than the one asked for is logged (WARN) and still frees. */
static void pool_warns_when_freed_size_differs(void **state) {
  (void)state;
  pool_fixture f = fixture_open(4 * KIB, 0);
  void *a = pool_get(f.pool, 1000, NULL);
  void *b = pool_get(f.pool, 1000, NULL);
  gcol_log_level const level = gcol_log_get_level();
  warn_count = 0;
  gcol_log_set_sink(count_warnings, NULL);
  gcol_log_set_level(GCOL_LOG_WARN);
  gcol_mr_deallocate(f.pool, a, 1024, NULL); /* same rounded size: no warning */
  int const after_same = warn_count;
  gcol_mr_deallocate(f.pool, b, 3000, NULL);
  gcol_log_set_level(level);
  gcol_log_set_sink(NULL, NULL);
  assert_int_equal(after_same, 0);
  assert_int_equal(warn_count, 1);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.used_bytes, 0);
  assert_int_equal(info.free_pieces, 1);
  fixture_close(&f);
}

/* A request takes a piece freed on its own stream before a better fit from another. */
static void pool_prefers_pieces_freed_on_the_same_stream(void **state) {
  (void)state;
  pool_fixture f = fixture_open(4 * KIB, 0);
  void *a = pool_get(f.pool, KIB, STREAM_A);
  void *b = pool_get(f.pool, KIB, STREAM_A);
  void *c = pool_get(f.pool, 2 * KIB, STREAM_A);
  gcol_mr_deallocate(f.pool, a, KIB, STREAM_A);
  gcol_mr_deallocate(f.pool, c, 2 * KIB, STREAM_B);
  assert_int_equal(info_of(f.pool).free_pieces, 2);
  void *on_b = pool_get(f.pool, KIB, STREAM_B); /* a fits exactly, but c was freed on B */
  assert_ptr_equal(on_b, c);
  void *on_a = pool_get(f.pool, KIB, STREAM_A);
  assert_ptr_equal(on_a, a);
  void *rest = pool_get(f.pool, KIB, STREAM_A); /* only c's second half is left: taken */
  assert_ptr_equal(rest, (char *)c + KIB);
  assert_int_equal(info_of(f.pool).upstream_blocks, 1);
  gcol_mr_deallocate(f.pool, on_a, KIB, STREAM_A);
  gcol_mr_deallocate(f.pool, on_b, KIB, STREAM_A);
  gcol_mr_deallocate(f.pool, rest, KIB, STREAM_A);
  gcol_mr_deallocate(f.pool, b, KIB, STREAM_A);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 1);
  assert_int_equal(info.largest_free, 4 * KIB);
  fixture_close(&f);
}

/* Neighbours freed on different streams stay apart until a request needs them joined. */
static void pool_merges_across_streams_on_demand(void **state) {
  (void)state;
  pool_fixture f = fixture_open(2 * KIB, 0);
  void *a = pool_get(f.pool, KIB, STREAM_A);
  void *b = pool_get(f.pool, KIB, STREAM_A);
  gcol_mr_deallocate(f.pool, a, KIB, STREAM_A);
  gcol_mr_deallocate(f.pool, b, KIB, STREAM_B);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 2);
  assert_int_equal(info.largest_free, KIB);
  void *whole = pool_get(f.pool, 2 * KIB, STREAM_A);
  assert_ptr_equal(whole, a);
  info = info_of(f.pool);
  assert_int_equal(info.upstream_blocks, 1);
  assert_int_equal(info.free_pieces, 0);
  gcol_mr_deallocate(f.pool, whole, 2 * KIB, STREAM_B);
  info = info_of(f.pool);
  assert_int_equal(info.free_pieces, 1);
  assert_int_equal(info.largest_free, 2 * KIB);
  fixture_close(&f);
}

/* ------------------------------------------------------------------------------------- */
/* Random sequences against a host model                                                 */
/* ------------------------------------------------------------------------------------- */

typedef struct live_allocation {
  unsigned char *ptr;
  size_t bytes;
  unsigned char tag;
} live_allocation;

static size_t rounded(size_t bytes) { return (bytes + 255) / 256 * 256; }

static int by_address(const void *l, const void *r) {
  const live_allocation *a = (const live_allocation *)l, *b = (const live_allocation *)r;
  return a->ptr < b->ptr ? -1 : (a->ptr > b->ptr ? 1 : 0);
}

/* The pool's info agrees with the model, and no two live allocations overlap. */
static void check_against_model(gcol_mr *pool, live_allocation *live, size_t count) {
  gcol_mr_pool_info info = info_of(pool);
  size_t used = 0;
  for (size_t i = 0; i < count; ++i) used += rounded(live[i].bytes);
  assert_int_equal(info.used_bytes, used);
  live_allocation *sorted = (live_allocation *)malloc((count + 1) * sizeof *sorted);
  assert_non_null(sorted);
  memcpy(sorted, live, count * sizeof *sorted);
  qsort(sorted, count, sizeof *sorted, by_address);
  for (size_t i = 1; i < count; ++i) {
    assert_true(sorted[i - 1].ptr + rounded(sorted[i - 1].bytes) <= sorted[i].ptr);
  }
  free(sorted);
}

static void check_pattern(const live_allocation *a) {
  for (size_t k = 0; k < a->bytes; k += 61) assert_int_equal(a->ptr[k], a->tag);
  assert_int_equal(a->ptr[a->bytes - 1], a->tag);
}

static void pool_random_sequences_match_model(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0x9001);
  enum { MAX_LIVE = 200, STEPS = 6000 };
  live_allocation live[MAX_LIVE];
  size_t count = 0;
  pool_fixture f = fixture_open(16 * KIB, 0);
  for (int step = 0; step < STEPS; ++step) {
    bool const grow = count == 0 || (count < MAX_LIVE && gcol_test_rng_range(&rng, 0, 99) < 55);
    if (grow) {
      size_t bytes = (size_t)gcol_test_rng_range(&rng, 1, 3000);
      if (gcol_test_rng_range(&rng, 0, 19) == 0) {
        bytes = (size_t)gcol_test_rng_range(&rng, 1, 200000); /* now and then a large one */
      }
      live_allocation a = {(unsigned char *)pool_get(f.pool, bytes, NULL), bytes,
                           (unsigned char)gcol_test_rng_range(&rng, 1, 255)};
      memset(a.ptr, a.tag, bytes);
      live[count++] = a;
    } else {
      size_t const victim = (size_t)gcol_test_rng_range(&rng, 0, (int64_t)count - 1);
      check_pattern(&live[victim]);
      gcol_mr_deallocate(f.pool, live[victim].ptr, live[victim].bytes, NULL);
      live[victim] = live[--count];
    }
    if (step % 97 == 0) check_against_model(f.pool, live, count);
  }
  check_against_model(f.pool, live, count);
  while (count > 0) {
    check_pattern(&live[count - 1]);
    gcol_mr_deallocate(f.pool, live[count - 1].ptr, live[count - 1].bytes, NULL);
    --count;
  }
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.used_bytes, 0);
  assert_int_equal(info.free_pieces, info.upstream_blocks); /* fully coalesced */
  fixture_close(&f);
}

/* ------------------------------------------------------------------------------------- */
/* Threads                                                                               */
/* ------------------------------------------------------------------------------------- */

typedef struct thread_job {
  gcol_mr *pool;
  uint64_t salt;
  gcol_stream stream; /* every allocation and free of the thread is ordered on it */
  int failures; /* checked on the main thread: cmocka asserts are not thread-safe */
} thread_job;

static void *churn(void *arg) {
  thread_job *job = (thread_job *)arg;
  gcol_test_rng rng = gcol_test_rng_make(job->salt);
  enum { SLOTS = 64, STEPS = 4000 };
  live_allocation slots[SLOTS];
  memset(slots, 0, sizeof slots);
  for (int step = 0; step < STEPS; ++step) {
    live_allocation *s = &slots[gcol_test_rng_range(&rng, 0, SLOTS - 1)];
    if (s->ptr != NULL) {
      for (size_t k = 0; k < s->bytes; ++k) job->failures += s->ptr[k] != s->tag;
      gcol_mr_deallocate(job->pool, s->ptr, s->bytes, job->stream);
      s->ptr = NULL;
    } else {
      size_t const bytes = (size_t)gcol_test_rng_range(&rng, 1, 4096);
      void *p = NULL;
      if (gcol_mr_allocate(job->pool, &p, bytes, job->stream) != GCOL_OK || p == NULL ||
          (uintptr_t)p % GCOL_MR_ALIGNMENT != 0) {
        ++job->failures;
        continue;
      }
      *s = (live_allocation){(unsigned char *)p, bytes,
                             (unsigned char)(1 + (job->salt * 31 + (uint64_t)step) % 255)};
      memset(s->ptr, s->tag, bytes);
    }
  }
  for (int i = 0; i < SLOTS; ++i) {
    if (slots[i].ptr == NULL) continue;
    for (size_t k = 0; k < slots[i].bytes; ++k) job->failures += slots[i].ptr[k] != slots[i].tag;
    gcol_mr_deallocate(job->pool, slots[i].ptr, slots[i].bytes, job->stream);
  }
  return NULL;
}

static void pool_concurrent_threads_never_overlap(void **state) {
  (void)state;
  enum { THREADS = 4 };
  pool_fixture f = fixture_open(64 * KIB, 0);
  pthread_t threads[THREADS];
  thread_job jobs[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    jobs[t] = (thread_job){f.pool, 0x7000 + (uint64_t)t, NULL, 0};
    assert_int_equal(pthread_create(&threads[t], NULL, churn, &jobs[t]), 0);
  }
  for (int t = 0; t < THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  for (int t = 0; t < THREADS; ++t) assert_int_equal(jobs[t].failures, 0);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.used_bytes, 0);
  assert_int_equal(info.free_pieces, info.upstream_blocks);
  fixture_close(&f);
}

/* Each thread on its own stream: free neighbours of different threads stay apart until a
 * request that fits nowhere merges them all (before growing the pool for it). */
static void pool_concurrent_threads_on_distinct_streams(void **state) {
  (void)state;
  enum { THREADS = 4 };
  pool_fixture f = fixture_open(64 * KIB, 0);
  pthread_t threads[THREADS];
  thread_job jobs[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    jobs[t] = (thread_job){f.pool, 0x7100 + (uint64_t)t, (gcol_stream)(uintptr_t)(0x1000 * (t + 1)),
                           0};
    assert_int_equal(pthread_create(&threads[t], NULL, churn, &jobs[t]), 0);
  }
  for (int t = 0; t < THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  for (int t = 0; t < THREADS; ++t) assert_int_equal(jobs[t].failures, 0);
  gcol_mr_pool_info info = info_of(f.pool);
  assert_int_equal(info.used_bytes, 0);
  int64_t const blocks = info.upstream_blocks;
  size_t const beyond = info.held_bytes + 256;
  void *whole = pool_get(f.pool, beyond, STREAM_A);
  info = info_of(f.pool);
  assert_int_equal(info.upstream_blocks, blocks + 1);
  assert_int_equal(info.free_pieces, blocks); /* each old block is one piece again */
  gcol_mr_deallocate(f.pool, whole, beyond, STREAM_A);
  fixture_close(&f);
}

/* ------------------------------------------------------------------------------------- */
/* Destroy                                                                               */
/* ------------------------------------------------------------------------------------- */

static void pool_destroy_returns_every_block(void **state) {
  (void)state;
  pool_fixture f = fixture_open(KIB, 0);
  void *p[5];
  for (int i = 0; i < 5; ++i) p[i] = pool_get(f.pool, (size_t)(i + 1) * KIB, NULL);
  for (int i = 0; i < 5; ++i) gcol_mr_deallocate(f.pool, p[i], (size_t)(i + 1) * KIB, NULL);
  gcol_mr_statistics s = upstream_counters(&f);
  assert_true(s.current_allocations > 1);
  assert_int_equal(s.current_bytes, (int64_t)info_of(f.pool).held_bytes);
  fixture_close(&f); /* checks current_bytes == 0 after destroy */
}

/* Pieces still in use at destroy: a WARN, and their memory still goes back. */
static void pool_destroy_with_pieces_in_use_warns(void **state) {
  (void)state;
  pool_fixture f = fixture_open(0, 0);
  (void)pool_get(f.pool, 300, NULL);
  (void)pool_get(f.pool, 5000, NULL);
  gcol_log_level const level = gcol_log_get_level();
  warn_count = 0;
  gcol_log_set_sink(count_warnings, NULL);
  gcol_log_set_level(GCOL_LOG_WARN);
  gcol_mr *pool = f.pool;
  gcol_mr_destroy(pool);
  gcol_log_set_level(level);
  gcol_log_set_sink(NULL, NULL);
  assert_int_equal(warn_count, 1);
  gcol_mr_statistics s = upstream_counters(&f);
  assert_int_equal(s.current_bytes, 0);
  gcol_mr_destroy(f.upstream_stats);
  gcol_mr_destroy(f.host);
}

/* A pool over a pool: the inner pool is an ordinary upstream. */
static void pool_over_pool(void **state) {
  (void)state;
  pool_fixture f = fixture_open(64 * KIB, 0);
  gcol_mr *inner = NULL;
  GCOL_TEST_OK(gcol_mr_pool_create(f.pool, 8 * KIB, 24 * KIB, &inner));
  assert_int_equal(info_of(f.pool).used_bytes, 8 * KIB);
  void *a = pool_get(inner, 12 * KIB, NULL);
  assert_int_equal(info_of(inner).held_bytes, 20 * KIB);
  assert_int_equal(info_of(f.pool).used_bytes, 20 * KIB);
  void *b = (void *)&f;
  GCOL_TEST_STATUS(gcol_mr_allocate(inner, &b, 12 * KIB, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(b);
  gcol_mr_deallocate(inner, a, 12 * KIB, NULL);
  gcol_mr_destroy(inner);
  assert_int_equal(info_of(f.pool).used_bytes, 0);
  fixture_close(&f);
}

int main(void) {
  /* lib/log.c reads GCOL_LOG_LEVEL lazily and then clears the thread's last error, which
   * wipes the message of the first error raised in the process: read it up front. */
  (void)gcol_log_get_level();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pool_allocations_are_aligned_and_writable),
      cmocka_unit_test(pool_zero_bytes_gives_null),
      cmocka_unit_test(pool_initial_block_is_rounded_and_free),
      cmocka_unit_test(pool_reuses_freed_piece),
      cmocka_unit_test(pool_best_fit_takes_the_smallest_piece),
      cmocka_unit_test(pool_coalesces_in_every_order),
      cmocka_unit_test(pool_coalescing_step_by_step),
      cmocka_unit_test(pool_fragmentation_then_growth),
      cmocka_unit_test(pool_growth_doubles),
      cmocka_unit_test(pool_growth_is_capped_at_maximum),
      cmocka_unit_test(pool_exhaustion_keeps_pool_usable),
      cmocka_unit_test(pool_growth_falls_back_to_request),
      cmocka_unit_test(pool_absurd_size_is_out_of_memory),
      cmocka_unit_test(pool_create_rejects_bad_arguments),
      cmocka_unit_test(pool_create_fails_cleanly_when_upstream_fails),
      cmocka_unit_test(pool_get_info_rejects_other_resources),
      cmocka_unit_test(pool_ignores_foreign_and_double_frees),
      cmocka_unit_test(pool_warns_when_freed_size_differs),
      cmocka_unit_test(pool_prefers_pieces_freed_on_the_same_stream),
      cmocka_unit_test(pool_merges_across_streams_on_demand),
      cmocka_unit_test(pool_random_sequences_match_model),
      cmocka_unit_test(pool_concurrent_threads_never_overlap),
      cmocka_unit_test(pool_concurrent_threads_on_distinct_streams),
      cmocka_unit_test(pool_destroy_returns_every_block),
      cmocka_unit_test(pool_destroy_with_pieces_in_use_warns),
      cmocka_unit_test(pool_over_pool),
  };
  return GCOL_TEST_RUN("memory_pool", tests);
}
