/*
 * GPU tests of the shared sizes -> offsets pass (kernels/detail/scan.h): the offsets and the
 * total against a host exclusive sum, the caller's words read back after the total, INT32 or
 * INT64 offsets on either side of the threshold (forced small with
 * gcol_set_large_offsets_threshold()), no rows, a total past INT64_MAX, bad word counts, and
 * every allocation failing in turn with nothing leaked.
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "detail/scan.h"
#include "gcol/indexalator.h"
#include "test_util.h"

#define CUDA_OK(call)                                                       \
  do {                                                                      \
    cudaError_t e = (call);                                                 \
    if (e != cudaSuccess) fail_msg("%s: %s", #call, cudaGetErrorString(e)); \
  } while (0)

/* n random sizes in [0, most] (at least one element of storage). */
static int64_t *random_sizes(uint64_t salt, int64_t n, int64_t most) {
  gcol_test_rng rng = gcol_test_rng_make(salt);
  int64_t *sizes = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) sizes[i] = gcol_test_rng_range(&rng, 0, most);
  return sizes;
}

/* A sizes buffer of n rows and `words` words holding host sizes[0, n). */
static gcol_buffer *upload_sizes(const int64_t *sizes, int64_t n, int32_t words) {
  gcol_buffer *buf = NULL;
  GCOL_TEST_OK(gcol_detail_sizes_create(n, words, NULL, &buf));
  if (n > 0) {
    CUDA_OK(cudaMemcpy(buf->data, sizes, (size_t)n * sizeof(int64_t), cudaMemcpyHostToDevice));
  }
  return buf;
}

/* Asserts that the offsets column is of `type` and holds the exclusive sum of sizes[0, n). */
static void expect_offsets(const gcol_column *offsets, gcol_type_id type, const int64_t *sizes,
                           int64_t n) {
  size_t const width = type == GCOL_INT32 ? 4 : 8;
  unsigned char *host = (unsigned char *)malloc((size_t)(n + 1) * width);
  int64_t sum = 0;
  assert_int_equal(offsets->type.id, type);
  assert_int_equal(offsets->size, n + 1);
  CUDA_OK(cudaMemcpy(host, offsets->data->data, (size_t)(n + 1) * width, cudaMemcpyDeviceToHost));
  for (int64_t i = 0; i <= n; ++i) {
    int64_t got = 0;
    if (type == GCOL_INT32) {
      int32_t v = 0;
      memcpy(&v, host + (size_t)i * 4, 4);
      got = v;
    } else {
      memcpy(&got, host + (size_t)i * 8, 8);
    }
    if (got != sum)
      fail_msg("offset %lld is %lld, expected %lld", (long long)i, (long long)got, (long long)sum);
    if (i < n) sum += sizes[i];
  }
  free(host);
}

static void test_offsets_and_words_read_back(void **state) {
  (void)state;
  int64_t const n = 1000;
  int64_t *sizes = random_sizes(1, n, 50);
  int64_t const word = 7; /* what a caller's kernel would raise after the total */
  int64_t tail[2] = {-1, -1}, expected = 0, scanned_last = 0;
  gcol_buffer *buf = upload_sizes(sizes, n, 2);
  gcol_column *offsets = NULL;
  for (int64_t i = 0; i < n; ++i) expected += sizes[i];
  CUDA_OK(cudaMemcpy((int64_t *)buf->data + n + 1, &word, sizeof word, cudaMemcpyHostToDevice));
  GCOL_TEST_OK(
      gcol_detail_offsets_from_sizes((int64_t *)buf->data, n, tail, 2, NULL, NULL, &offsets));
  assert_int_equal(tail[0], expected);
  assert_int_equal(tail[1], word);
  expect_offsets(offsets, GCOL_INT32, sizes, n);
  /* the sizes hold the int64 offsets for the caller's write pass */
  CUDA_OK(cudaMemcpy(&scanned_last, (int64_t *)buf->data + n - 1, sizeof scanned_last,
                     cudaMemcpyDeviceToHost));
  assert_int_equal(scanned_last, expected - sizes[n - 1]);
  gcol_column_free(offsets);
  gcol_buffer_free(buf);
  free(sizes);
}

/* INT32 up to the threshold, INT64 one byte past it. */
static void test_threshold_picks_the_offsets_type(void **state) {
  (void)state;
  int64_t const n = 300;
  int64_t *sizes = random_sizes(2, n, 9);
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += sizes[i];
  int64_t const previous = gcol_set_large_offsets_threshold(total);
  for (int k = 0; k < 2; ++k) {
    gcol_type_id const type = k == 0 ? GCOL_INT32 : GCOL_INT64;
    int64_t got = -1;
    gcol_buffer *buf = upload_sizes(sizes, n, 1);
    gcol_column *offsets = NULL;
    gcol_set_large_offsets_threshold(k == 0 ? total : total - 1);
    GCOL_TEST_OK(
        gcol_detail_offsets_from_sizes((int64_t *)buf->data, n, &got, 1, NULL, NULL, &offsets));
    assert_int_equal(got, total);
    expect_offsets(offsets, type, sizes, n);
    gcol_column_free(offsets);
    gcol_buffer_free(buf);
  }
  gcol_set_large_offsets_threshold(previous);
  free(sizes);
}

static void test_no_rows(void **state) {
  (void)state;
  int64_t tail[3] = {-1, -1, -1};
  gcol_buffer *buf = upload_sizes(NULL, 0, 3);
  gcol_column *offsets = NULL;
  GCOL_TEST_OK(
      gcol_detail_offsets_from_sizes((int64_t *)buf->data, 0, tail, 3, NULL, NULL, &offsets));
  assert_int_equal(tail[0], 0);
  assert_int_equal(tail[1], 0);
  assert_int_equal(tail[2], 0);
  expect_offsets(offsets, GCOL_INT32, NULL, 0);
  gcol_column_free(offsets);
  gcol_buffer_free(buf);
}

/* Out of place: the sizes stay, the offsets go to another buffer. */
static void test_scan_out_of_place(void **state) {
  (void)state;
  int64_t const n = 70000; /* more than one CUB tile */
  int64_t *sizes = random_sizes(3, n, 1000);
  int64_t *host = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  int64_t total = -1, sum = 0;
  gcol_buffer *in = upload_sizes(sizes, n, 1), *out = NULL;
  GCOL_TEST_OK(gcol_buffer_create((size_t)(n + 1) * sizeof(int64_t), NULL, NULL, &out));
  GCOL_TEST_OK(
      gcol_detail_sizes_scan((const int64_t *)in->data, (int64_t *)out->data, n, &total, 1, NULL));
  CUDA_OK(cudaMemcpy(host, out->data, (size_t)(n + 1) * sizeof(int64_t), cudaMemcpyDeviceToHost));
  for (int64_t i = 0; i <= n; ++i) {
    if (host[i] != sum)
      fail_msg("offset %lld is %lld, expected %lld", (long long)i, (long long)host[i],
               (long long)sum);
    if (i < n) sum += sizes[i];
  }
  assert_int_equal(total, sum);
  CUDA_OK(cudaMemcpy(host, in->data, (size_t)n * sizeof(int64_t), cudaMemcpyDeviceToHost));
  assert_memory_equal(host, sizes, (size_t)n * sizeof(int64_t));
  gcol_buffer_free(in);
  gcol_buffer_free(out);
  free(host);
  free(sizes);
}

/* A total past INT64_MAX wraps negative: overflow, no offsets made. */
static void test_total_past_int64_max(void **state) {
  (void)state;
  int64_t const sizes[2] = {INT64_MAX, 1};
  int64_t total = 0;
  gcol_buffer *buf = upload_sizes(sizes, 2, 1);
  gcol_column *offsets = NULL;
  GCOL_TEST_STATUS(
      gcol_detail_offsets_from_sizes((int64_t *)buf->data, 2, &total, 1, NULL, NULL, &offsets),
      GCOL_ERROR_OVERFLOW);
  assert_null(offsets);
  gcol_buffer_free(buf);
}

static void test_bad_word_counts(void **state) {
  (void)state;
  gcol_buffer *buf = NULL;
  int64_t tail[GCOL_DETAIL_SIZES_WORDS_MAX + 1];
  GCOL_TEST_STATUS(gcol_detail_sizes_create(4, 0, NULL, &buf), GCOL_ERROR_INTERNAL);
  assert_null(buf);
  GCOL_TEST_STATUS(gcol_detail_sizes_create(4, GCOL_DETAIL_SIZES_WORDS_MAX + 1, NULL, &buf),
                   GCOL_ERROR_INTERNAL);
  assert_null(buf);
  buf = upload_sizes(NULL, 0, 1);
  GCOL_TEST_STATUS(gcol_detail_sizes_scan((const int64_t *)buf->data, (int64_t *)buf->data, 0, tail,
                                          GCOL_DETAIL_SIZES_WORDS_MAX + 1, NULL),
                   GCOL_ERROR_INTERNAL);
  gcol_buffer_free(buf);
}

typedef struct fault_ctx {
  const int64_t *sizes;
  int64_t n;
  gcol_column *offsets;
} fault_ctx;

/* The whole pass as a caller runs it, every allocation from the default resource. */
static gcol_status fault_op(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_buffer *buf = NULL;
  int64_t tail[2] = {0, 0};
  gcol_status st = gcol_detail_sizes_create(c->n, 2, NULL, &buf);
  if (st != GCOL_OK) return st;
  CUDA_OK(cudaMemcpy(buf->data, c->sizes, (size_t)c->n * sizeof(int64_t), cudaMemcpyHostToDevice));
  st = gcol_detail_offsets_from_sizes((int64_t *)buf->data, c->n, tail, 2, NULL, NULL, &c->offsets);
  gcol_buffer_free(buf);
  return st;
}

static void fault_cleanup(void *p) {
  fault_ctx *c = (fault_ctx *)p;
  gcol_column_free(c->offsets);
  c->offsets = NULL;
}

static void test_allocation_failures_leak_nothing(void **state) {
  (void)state;
  int64_t const n = 5000;
  int64_t *sizes = random_sizes(4, n, 20);
  for (int wide = 0; wide < 2; ++wide) {
    int64_t const previous = gcol_set_large_offsets_threshold(wide ? 1 : INT32_MAX);
    fault_ctx c = {sizes, n, NULL};
    /* the sizes, CUB's temporary, the offsets column */
    assert_true(gcol_test_check_allocation_failures(fault_op, fault_cleanup, &c) >= 3);
    gcol_set_large_offsets_threshold(previous);
  }
  free(sizes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_offsets_and_words_read_back),
      GCOL_TEST_GPU(test_threshold_picks_the_offsets_type),
      GCOL_TEST_GPU(test_no_rows),
      GCOL_TEST_GPU(test_scan_out_of_place),
      GCOL_TEST_GPU(test_total_past_int64_max),
      GCOL_TEST_GPU(test_bad_word_counts),
      GCOL_TEST_GPU(test_allocation_failures_leak_nothing),
  };
  return GCOL_TEST_RUN_GPU("detail_offsets", tests);
}
