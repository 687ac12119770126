/*
 * Memory resources on a GPU: every CUDA-backed resource allocates, is written on a stream
 * and read back; alignment; a pool over the async resource used from two streams;
 * statistics over async; absurd sizes give out-of-memory and leave the resource usable.
 * Reports SKIP without a device.
 */
#include <cuda_runtime_api.h>

#include "test_util.h"

#define MIB ((size_t)1 << 20)

#define CUDA_OK(call)                                                         \
  do {                                                                        \
    cudaError_t cuda_ok_err = (call);                                         \
    if (cuda_ok_err != cudaSuccess) fail_msg("%s -> %s", #call, cudaGetErrorName(cuda_ok_err)); \
  } while (0)

static cudaStream_t make_stream(void) {
  cudaStream_t s = NULL;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return s;
}

/* Fills `bytes` at ptr with `value` on the stream, copies them back and checks each byte. */
static void memset_and_check(void *ptr, size_t bytes, int value, cudaStream_t stream) {
  unsigned char *host = (unsigned char *)malloc(bytes);
  assert_non_null(host);
  memset(host, ~value & 0xff, bytes);
  CUDA_OK(cudaMemsetAsync(ptr, value, bytes, stream));
  CUDA_OK(cudaMemcpyAsync(host, ptr, bytes, cudaMemcpyDefault, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  for (size_t i = 0; i < bytes; ++i) {
    if (host[i] != (unsigned char)value) fail_msg("byte %zu is %d, expected %d", i, host[i], value);
  }
  free(host);
}

typedef gcol_status (*create_fn)(gcol_mr **);

static void round_trip(create_fn create, bool host_visible) {
  cudaStream_t stream = make_stream();
  gcol_mr *mr = NULL;
  GCOL_TEST_OK(create(&mr));
  static const size_t sizes[] = {1, 255, 257, 4097, 3 * MIB + 5};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    void *p = NULL;
    GCOL_TEST_OK(gcol_mr_allocate(mr, &p, sizes[i], (gcol_stream)stream));
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % GCOL_MR_ALIGNMENT, 0);
    memset_and_check(p, sizes[i], 0x40 + (int)i, stream);
    if (host_visible) {
      assert_int_equal(((unsigned char *)p)[sizes[i] - 1], 0x40 + (int)i);
      memset(p, 0x11, sizes[i]); /* plain host writes work too */
      memset_and_check(p, sizes[i], 0x22, stream);
    }
    gcol_mr_deallocate(mr, p, sizes[i], (gcol_stream)stream);
  }
  void *p = (void *)&p;
  GCOL_TEST_OK(gcol_mr_allocate(mr, &p, 0, (gcol_stream)stream));
  assert_null(p);
  CUDA_OK(cudaStreamSynchronize(stream));
  gcol_mr_destroy(mr);
  CUDA_OK(cudaStreamDestroy(stream));
}

static void async_round_trip(void **state) {
  (void)state;
  round_trip(gcol_mr_async_create, false);
}

static void cuda_round_trip(void **state) {
  (void)state;
  round_trip(gcol_mr_cuda_create, false);
}

static void pinned_round_trip(void **state) {
  (void)state;
  round_trip(gcol_mr_pinned_create, true);
}

static void managed_round_trip(void **state) {
  (void)state;
  round_trip(gcol_mr_managed_create, true);
}

/* Many live allocations of odd sizes from each resource: every one 256-byte aligned. */
static void allocations_are_aligned(void **state) {
  (void)state;
  create_fn const creates[] = {gcol_mr_async_create, gcol_mr_cuda_create,
                               gcol_mr_pinned_create, gcol_mr_managed_create};
  enum { N = 64 };
  for (size_t c = 0; c < sizeof creates / sizeof creates[0]; ++c) {
    gcol_mr *mr = NULL;
    GCOL_TEST_OK(creates[c](&mr));
    void *ptrs[N];
    for (int i = 0; i < N; ++i) {
      GCOL_TEST_OK(gcol_mr_allocate(mr, &ptrs[i], (size_t)(i * 37 + 1), NULL));
      if ((uintptr_t)ptrs[i] % GCOL_MR_ALIGNMENT != 0) {
        fail_msg("%s: %p is not aligned", mr->name, ptrs[i]);
      }
    }
    for (int i = 0; i < N; ++i) gcol_mr_deallocate(mr, ptrs[i], (size_t)(i * 37 + 1), NULL);
    CUDA_OK(cudaDeviceSynchronize());
    gcol_mr_destroy(mr);
  }
}

/* The default resource (the test's statistics resource over async) serves NULL mr. */
static void default_resource_allocates(void **state) {
  (void)state;
  int64_t const before = gcol_test_live_bytes();
  void *p = NULL;
  GCOL_TEST_OK(gcol_mr_allocate(NULL, &p, MIB, NULL));
  assert_int_equal(gcol_test_live_bytes(), before + (int64_t)MIB);
  memset_and_check(p, MIB, 0x5c, NULL);
  gcol_mr_deallocate(NULL, p, MIB, NULL);
  assert_int_equal(gcol_test_live_bytes(), before);
}

/*
 * A piece freed on s1 after a long write there, reused on s2: the pool must wait for s1,
 * or s1's late write would land over s2's.
 */
static void pool_reuses_across_streams_in_order(void **state) {
  (void)state;
  size_t const big = 256 * MIB;
  cudaStream_t s1 = make_stream(), s2 = make_stream();
  gcol_mr *async = NULL, *stats = NULL, *pool = NULL;
  GCOL_TEST_OK(gcol_mr_async_create(&async));
  GCOL_TEST_OK(gcol_mr_statistics_create(async, &stats));
  GCOL_TEST_OK(gcol_mr_pool_create(stats, big + MIB, 0, &pool));
  assert_int_equal(pool->kind, GCOL_MEMORY_DEVICE);
  for (int round = 0; round < 4; ++round) {
    void *a = NULL;
    GCOL_TEST_OK(gcol_mr_allocate(pool, &a, big, (gcol_stream)s1));
    for (int k = 0; k < 8; ++k) CUDA_OK(cudaMemsetAsync(a, 0x10 + k, big, s1));
    gcol_mr_deallocate(pool, a, big, (gcol_stream)s1);
    void *b = NULL;
    GCOL_TEST_OK(gcol_mr_allocate(pool, &b, big, (gcol_stream)s2));
    assert_ptr_equal(a, b); /* the same memory, handed over in stream order */
    memset_and_check(b, big, 0x77, s2);
    gcol_mr_deallocate(pool, b, big, (gcol_stream)s2);
  }
  /* Same-stream reuse needs no wait and also gives the same piece back. */
  void *c = NULL, *d = NULL;
  GCOL_TEST_OK(gcol_mr_allocate(pool, &c, MIB, (gcol_stream)s1));
  gcol_mr_deallocate(pool, c, MIB, (gcol_stream)s1);
  GCOL_TEST_OK(gcol_mr_allocate(pool, &d, MIB, (gcol_stream)s1));
  assert_ptr_equal(c, d);
  memset_and_check(d, MIB, 0x31, s1);
  gcol_mr_deallocate(pool, d, MIB, (gcol_stream)s1);
  gcol_mr_pool_info info;
  GCOL_TEST_OK(gcol_mr_pool_get_info(pool, &info));
  assert_int_equal(info.used_bytes, 0);
  assert_int_equal(info.upstream_blocks, 1);
  /* Streams may go before the pool: it waits on its own events, not on them. */
  CUDA_OK(cudaStreamDestroy(s1));
  CUDA_OK(cudaStreamDestroy(s2));
  gcol_mr_destroy(pool);
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &s));
  assert_int_equal(s.current_bytes, 0);
  gcol_mr_destroy(stats);
  gcol_mr_destroy(async);
}

/* Neighbours freed on two streams merge when a request needs them joined. */
static void pool_merges_pieces_of_two_streams(void **state) {
  (void)state;
  cudaStream_t s1 = make_stream(), s2 = make_stream();
  gcol_mr *async = NULL, *pool = NULL;
  GCOL_TEST_OK(gcol_mr_async_create(&async));
  GCOL_TEST_OK(gcol_mr_pool_create(async, 2 * MIB, 0, &pool));
  void *a = NULL, *b = NULL, *whole = NULL;
  GCOL_TEST_OK(gcol_mr_allocate(pool, &a, MIB, (gcol_stream)s1));
  GCOL_TEST_OK(gcol_mr_allocate(pool, &b, MIB, (gcol_stream)s2));
  CUDA_OK(cudaMemsetAsync(a, 1, MIB, s1));
  CUDA_OK(cudaMemsetAsync(b, 2, MIB, s2));
  gcol_mr_deallocate(pool, a, MIB, (gcol_stream)s1);
  gcol_mr_deallocate(pool, b, MIB, (gcol_stream)s2);
  GCOL_TEST_OK(gcol_mr_allocate(pool, &whole, 2 * MIB, (gcol_stream)s1));
  gcol_mr_pool_info info;
  GCOL_TEST_OK(gcol_mr_pool_get_info(pool, &info));
  assert_int_equal(info.upstream_blocks, 1);
  memset_and_check(whole, 2 * MIB, 3, s1);
  gcol_mr_deallocate(pool, whole, 2 * MIB, (gcol_stream)s1);
  gcol_mr_destroy(pool);
  gcol_mr_destroy(async);
  CUDA_OK(cudaStreamDestroy(s1));
  CUDA_OK(cudaStreamDestroy(s2));
}

static void statistics_over_async(void **state) {
  (void)state;
  cudaStream_t stream = make_stream();
  gcol_mr *async = NULL, *stats = NULL;
  GCOL_TEST_OK(gcol_mr_async_create(&async));
  GCOL_TEST_OK(gcol_mr_statistics_create(async, &stats));
  assert_int_equal(stats->kind, GCOL_MEMORY_DEVICE);
  void *a = NULL, *b = NULL;
  GCOL_TEST_OK(gcol_mr_allocate(stats, &a, 1000, (gcol_stream)stream));
  GCOL_TEST_OK(gcol_mr_allocate(stats, &b, MIB, (gcol_stream)stream));
  memset_and_check(b, MIB, 0x3c, stream);
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &s));
  assert_int_equal(s.current_bytes, 1000 + (int64_t)MIB);
  assert_int_equal(s.total_allocations, 2);
  gcol_mr_deallocate(stats, a, 1000, (gcol_stream)stream);
  gcol_mr_deallocate(stats, b, MIB, (gcol_stream)stream);
  GCOL_TEST_OK(gcol_mr_statistics_get(stats, &s));
  assert_int_equal(s.current_bytes, 0);
  assert_int_equal(s.peak_bytes, 1000 + (int64_t)MIB);
  CUDA_OK(cudaStreamSynchronize(stream));
  gcol_mr_destroy(stats);
  gcol_mr_destroy(async);
  CUDA_OK(cudaStreamDestroy(stream));
}

/* An impossible size: out of memory, *out NULL, and the next allocation works. */
static void absurd_size_is_out_of_memory(void **state) {
  (void)state;
  create_fn const creates[] = {gcol_mr_async_create, gcol_mr_cuda_create,
                               gcol_mr_pinned_create, gcol_mr_managed_create};
  for (size_t c = 0; c < sizeof creates / sizeof creates[0]; ++c) {
    gcol_mr *mr = NULL;
    GCOL_TEST_OK(creates[c](&mr));
    void *p = (void *)&p;
    gcol_clear_last_error();
    GCOL_TEST_STATUS(gcol_mr_allocate(mr, &p, (size_t)1 << 60, NULL), GCOL_ERROR_OUT_OF_MEMORY);
    assert_null(p);
    assert_non_null(strstr(gcol_last_error(), mr->name));
    GCOL_TEST_OK(gcol_mr_allocate(mr, &p, MIB, NULL));
    memset_and_check(p, MIB, 0x19, NULL);
    gcol_mr_deallocate(mr, p, MIB, NULL);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaGetLastError()); /* no error state left behind */
    gcol_mr_destroy(mr);
  }
}

static void pool_over_async_absurd_size(void **state) {
  (void)state;
  gcol_mr *async = NULL, *pool = NULL;
  GCOL_TEST_OK(gcol_mr_async_create(&async));
  GCOL_TEST_OK(gcol_mr_pool_create(async, MIB, 0, &pool));
  void *p = (void *)&p;
  GCOL_TEST_STATUS(gcol_mr_allocate(pool, &p, (size_t)1 << 60, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(p);
  GCOL_TEST_OK(gcol_mr_allocate(pool, &p, MIB, NULL));
  memset_and_check(p, MIB, 0x2a, NULL);
  gcol_mr_deallocate(pool, p, MIB, NULL);
  gcol_mr_destroy(pool);
  gcol_mr_destroy(async);
}

int main(void) {
  /* lib/log.c reads GCOL_LOG_LEVEL lazily and then clears the thread's last error, which
   * wipes the message of the first error raised in the process: read it up front. */
  (void)gcol_log_get_level();
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(async_round_trip),
      GCOL_TEST_GPU(cuda_round_trip),
      GCOL_TEST_GPU(pinned_round_trip),
      GCOL_TEST_GPU(managed_round_trip),
      GCOL_TEST_GPU(allocations_are_aligned),
      GCOL_TEST_GPU(default_resource_allocates),
      GCOL_TEST_GPU(pool_reuses_across_streams_in_order),
      GCOL_TEST_GPU(pool_merges_pieces_of_two_streams),
      GCOL_TEST_GPU(statistics_over_async),
      GCOL_TEST_GPU(absurd_size_is_out_of_memory),
      GCOL_TEST_GPU(pool_over_async_absurd_size),
  };
  return GCOL_TEST_RUN_GPU("memory_gpu", tests);
}
