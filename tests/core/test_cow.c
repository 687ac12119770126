/* GPU tests of copy on write (gcol/buffer.h): shallow copies of device columns and their
 * slices never see a write to another holder (made through a mutable view, on the same or
 * another thread and stream), exposed columns are copied by later shallow copies, and the
 * counters of gcol_buffer_statistics count exactly the device copies the design makes.
 * The bookkeeping itself is tested on the CPU by tests/core/test_buffers.c. */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <string.h>

#include "test_util.h"

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

/* An INT64 column of n random rows (never all zero), nulls by pattern; host copies out. */
static gcol_column *random_column(gcol_test_rng *rng, int64_t n, gcol_test_validity pattern,
                                  int64_t *values, uint8_t *valid) {
  gcol_column *col = NULL;
  for (int64_t i = 0; i < n; ++i) values[i] = (int64_t)(gcol_test_rng_next(rng) | 1u);
  gcol_test_fill_valid(rng, pattern, valid, n);
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, values,
                                            pattern == GCOL_TEST_NO_MASK ? NULL : valid, NULL, NULL,
                                            &col));
  return col;
}

/* Bytes the column's buffers hold (what a write access to a shared top level copies). */
static int64_t top_level_bytes(const gcol_column *col) {
  return (col->data != NULL ? (int64_t)col->data->size : 0) +
         (col->null_mask != NULL ? (int64_t)col->null_mask->size : 0);
}

static int64_t buffers_with_bytes(const gcol_column *col) {
  return (col->data != NULL && col->data->size > 0) +
         (col->null_mask != NULL && col->null_mask->size > 0);
}

static void shallow_copies_and_slices_never_see_a_write(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(161);
  gcol_test_validity const patterns[] = {GCOL_TEST_NO_MASK, GCOL_TEST_RANDOM_NULLS};
  gcol_scalar *value = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), -7, &value));
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    for (size_t p = 0; p < 2; ++p) {
      int64_t const n = gcol_test_cap(gcol_test_sizes[s]);
      int64_t *values = (int64_t *)malloc(sizeof *values * (size_t)(n + 1));
      int64_t *expected = (int64_t *)malloc(sizeof *expected * (size_t)(n + 1));
      uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
      uint8_t *expected_valid = (uint8_t *)malloc((size_t)n + 1);
      gcol_column *a = random_column(&rng, n, patterns[p], values, valid);
      gcol_column *b = NULL, *c = NULL;
      const uint8_t *a_valid = patterns[p] == GCOL_TEST_NO_MASK ? NULL : valid;
      gcol_buffer_statistics t0 = mark();
      GCOL_TEST_OK(gcol_column_copy_shallow(a, NULL, &b));
      GCOL_TEST_OK(gcol_column_copy_shallow(b, NULL, &c)); /* a copy of a copy */
      assert_counts(since(t0), 2 * (1 + (a->null_mask != NULL)), 0, 0, 0);
      gcol_column_view const va = gcol_column_get_view(a);
      assert_ptr_equal(gcol_column_get_view(c).data, va.data);
      /* slices of the copies, taken before the write, read the shared rows */
      int64_t const off = n / 3;
      gcol_column_view slice_c;
      GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(c), off, n, &slice_c));
      /* write rows [n/4, 3n/4) of b, through its mutable view */
      t0 = mark();
      gcol_mutable_column_view mv;
      GCOL_TEST_OK(gcol_column_get_mutable_view(b, NULL, &mv));
      assert_counts(since(t0), 0, buffers_with_bytes(a), 0, top_level_bytes(a));
      GCOL_TEST_OK(gcol_fill_in_place_view(&mv, n / 4, 3 * n / 4, value, NULL));
      GCOL_TEST_OK(gcol_column_set_null_count(b, mv.null_count));
      memcpy(expected, values, sizeof *values * (size_t)n);
      memcpy(expected_valid, valid, (size_t)n);
      for (int64_t i = n / 4; i < 3 * n / 4; ++i) {
        expected[i] = -7;
        expected_valid[i] = 1;
      }
      gcol_test_assert_column_equals_host(gcol_column_get_view(b), expected,
                                          a_valid != NULL ? expected_valid : NULL, n);
      gcol_test_assert_column_equals_host(gcol_column_get_view(a), values, a_valid, n);
      gcol_test_assert_column_equals_host(gcol_column_get_view(c), values, a_valid, n);
      gcol_test_assert_column_equals_host(slice_c, values + off,
                                          a_valid != NULL ? valid + off : NULL, n - off);
      gcol_test_assert_null_count_consistent(gcol_column_get_view(b));
      /* a and c still share; writing c now copies, writing a after that does not */
      t0 = mark();
      GCOL_TEST_OK(gcol_column_get_mutable_view(c, NULL, &mv));
      GCOL_TEST_OK(gcol_column_get_mutable_view(a, NULL, &mv));
      assert_counts(since(t0), 0, buffers_with_bytes(a), 0, top_level_bytes(a));
      gcol_column_free(a); /* in any order */
      gcol_column_free(c);
      gcol_test_assert_column_equals_host(gcol_column_get_view(b), expected,
                                          a_valid != NULL ? expected_valid : NULL, n);
      gcol_column_free(b);
      free(values);
      free(expected);
      free(valid);
      free(expected_valid);
    }
  }
  gcol_scalar_free(value);
}

static void writes_after_exposure_reach_no_later_copy(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(162);
  int64_t const n = 1000;
  int64_t values[1000];
  uint8_t valid[1000];
  gcol_column *a = random_column(&rng, n, GCOL_TEST_RANDOM_NULLS, values, valid);
  gcol_column *b = NULL, *c = NULL;
  GCOL_TEST_OK(gcol_column_copy_shallow(a, NULL, &b));
  /* exposing b (shared with a) copies it first, so a never sees writes through b's pointers */
  gcol_buffer_statistics t0 = mark();
  GCOL_TEST_OK(gcol_column_expose(b, NULL));
  assert_counts(since(t0), 0, 2, 0, top_level_bytes(a));
  assert_true(gcol_buffer_is_exposed(b->data));
  assert_true(gcol_buffer_is_exposed(b->null_mask));
  /* a shallow copy of the exposed b copies both buffers */
  t0 = mark();
  GCOL_TEST_OK(gcol_column_copy_shallow(b, NULL, &c));
  assert_counts(since(t0), 0, 0, 2, top_level_bytes(a));
  assert_false(gcol_buffer_is_exposed(c->data));
  /* write every byte of b behind gcol's back */
  assert_int_equal(cudaMemsetAsync(b->data->data, 0x5a, b->data->size, NULL), cudaSuccess);
  int64_t got[1000];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(b), got, NULL, NULL));
  for (int64_t i = 0; i < n; ++i) assert_int_equal(got[i], 0x5a5a5a5a5a5a5a5all);
  gcol_test_assert_column_equals_host(gcol_column_get_view(a), values, valid, n);
  gcol_test_assert_column_equals_host(gcol_column_get_view(c), values, valid, n);
  gcol_column_free(a);
  gcol_column_free(b);
  gcol_column_free(c);
}

static void nested_columns_copy_every_buffer_on_make_mutable(void **state) {
  (void)state;
  const char *strings[5] = {"alpha", NULL, "", "\xf4\x8f\xbf\xbf", "omega"};
  gcol_column *a = NULL, *b = NULL;
  GCOL_TEST_OK(gcol_column_create_strings_from_host(5, strings, NULL, NULL, NULL, &a));
  GCOL_TEST_OK(gcol_column_copy_shallow(a, NULL, &b));
  assert_ptr_equal(b->children[0]->data->data, a->children[0]->data->data);
  int64_t const bytes = top_level_bytes(a) + top_level_bytes(a->children[0]);
  gcol_buffer_statistics const t0 = mark();
  GCOL_TEST_OK(gcol_column_make_mutable(b, NULL));
  assert_counts(since(t0), 0, 3, 0, bytes); /* chars, mask, offsets */
  assert_ptr_not_equal(b->children[0]->data->data, a->children[0]->data->data);
  gcol_test_assert_columns_equal(gcol_column_get_view(a), gcol_column_get_view(b));
  /* overwrite b's chars: a keeps its strings */
  assert_int_equal(cudaMemsetAsync(b->data->data, 'z', b->data->size, NULL), cudaSuccess);
  gcol_host_strings *h = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(gcol_column_get_view(a), NULL, &h));
  assert_memory_equal(h->chars, "alpha\xf4\x8f\xbf\xbfomega", 14);
  gcol_host_strings_free(h);
  gcol_column_free(a);
  gcol_column_free(b);
}

/* Threads, each on its own stream, take shallow copies of one column at once and fill them
 * with their own value; every write copies (the source keeps its reference), each thread
 * reads back only its value, and the source is unchanged. cmocka is not thread-safe: the
 * threads only record what went wrong. */
#define NUM_THREADS 6
#define THREAD_ROUNDS 4

typedef struct thread_ctx {
  const gcol_column *source;
  int64_t n;
  int64_t value;
  gcol_status status;
  int64_t bad_rows;
  int cuda_error;
} thread_ctx;

static void *thread_main(void *arg) {
  thread_ctx *ctx = (thread_ctx *)arg;
  cudaStream_t stream = NULL;
  gcol_scalar *value = NULL;
  int64_t *got = (int64_t *)malloc(sizeof *got * (size_t)ctx->n);
  uint8_t *got_valid = (uint8_t *)malloc((size_t)ctx->n);
  ctx->cuda_error = cudaStreamCreate(&stream);
  if (ctx->cuda_error != cudaSuccess || got == NULL || got_valid == NULL) goto done;
  ctx->status = gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), ctx->value, &value);
  for (int r = 0; r < THREAD_ROUNDS && ctx->status == GCOL_OK; ++r) {
    gcol_column *mine = NULL;
    ctx->status = gcol_column_copy_shallow(ctx->source, (gcol_stream)stream, &mine);
    /* the column form: copy on write of the shared buffers, the fill, the null count */
    if (ctx->status == GCOL_OK)
      ctx->status = gcol_fill_in_place(mine, 0, ctx->n, value, (gcol_stream)stream);
    if (ctx->status == GCOL_OK)
      ctx->status =
          gcol_column_copy_to_host(gcol_column_get_view(mine), got, got_valid, (gcol_stream)stream);
    for (int64_t i = 0; ctx->status == GCOL_OK && i < ctx->n; ++i) {
      ctx->bad_rows += got[i] != ctx->value || !got_valid[i];
    }
    gcol_column_free(mine); /* stream-ordered on `stream`, before it is destroyed */
  }
done:
  gcol_scalar_free(value);
  if (stream != NULL) {
    int const sync = cudaStreamSynchronize(stream);
    if (ctx->cuda_error == cudaSuccess) ctx->cuda_error = sync;
    cudaStreamDestroy(stream);
  }
  free(got);
  free(got_valid);
  return NULL;
}

static void copies_across_threads_and_streams(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(163);
  int64_t const n = gcol_test_cap(100000);
  int64_t *values = (int64_t *)malloc(sizeof *values * (size_t)n);
  uint8_t *valid = (uint8_t *)malloc((size_t)n);
  gcol_column *source = random_column(&rng, n, GCOL_TEST_RANDOM_NULLS, values, valid);
  pthread_t threads[NUM_THREADS];
  thread_ctx ctx[NUM_THREADS];
  gcol_buffer_statistics const t0 = mark();
  for (int t = 0; t < NUM_THREADS; ++t) {
    memset(&ctx[t], 0, sizeof ctx[t]);
    ctx[t].source = source;
    ctx[t].n = n;
    ctx[t].value = 1000 + t;
    assert_int_equal(pthread_create(&threads[t], NULL, thread_main, &ctx[t]), 0);
  }
  for (int t = 0; t < NUM_THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  for (int t = 0; t < NUM_THREADS; ++t) {
    if (ctx[t].status != GCOL_OK) fail_msg("thread %d: %s", t, gcol_status_string(ctx[t].status));
    if (ctx[t].cuda_error != 0) fail_msg("thread %d: CUDA error %d", t, ctx[t].cuda_error);
    if (ctx[t].bad_rows != 0)
      fail_msg("thread %d read %lld wrong rows", t, (long long)ctx[t].bad_rows);
  }
  int64_t const copies = NUM_THREADS * THREAD_ROUNDS;
  assert_counts(since(t0), 2 * copies, 2 * copies, 0, copies * top_level_bytes(source));
  assert_int_equal(gcol_buffer_use_count(source->data), 1);
  gcol_test_assert_column_equals_host(gcol_column_get_view(source), values, valid, n);
  gcol_column_free(source);
  free(values);
  free(valid);
}

/* Allocation failures in the copy a write makes (from the buffer's own resource, here the
 * failing default the column was made with): out of memory, nothing leaked. */
typedef struct fault_ctx {
  gcol_column *a, *b;
} fault_ctx;

static gcol_status write_a_shallow_copy(void *arg) {
  fault_ctx *ctx = (fault_ctx *)arg;
  gcol_status status = GCOL_OK;
  int64_t values[100];
  uint8_t valid[100];
  gcol_mutable_column_view mv;
  for (int i = 0; i < 100; ++i) {
    values[i] = 3 * i + 1;
    valid[i] = i % 3 != 0;
  }
  ctx->a = ctx->b = NULL;
  status = gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 100, values, valid, NULL,
                                        NULL, &ctx->a);
  if (status == GCOL_OK) status = gcol_column_copy_shallow(ctx->a, NULL, &ctx->b);
  if (status == GCOL_OK) status = gcol_column_get_mutable_view(ctx->b, NULL, &mv);
  if (status == GCOL_OK && !gcol_buffer_is_shared(ctx->a->data)) return GCOL_OK;
  if (status == GCOL_OK) status = GCOL_ERROR_INVALID_ARGUMENT; /* still shared: wrong */
  gcol_column_free(ctx->a);
  gcol_column_free(ctx->b);
  return status;
}

static void free_fault_ctx(void *arg) {
  fault_ctx *ctx = (fault_ctx *)arg;
  gcol_column_free(ctx->a);
  gcol_column_free(ctx->b);
}

static void failed_write_copies_leak_nothing(void **state) {
  (void)state;
  fault_ctx ctx;
  int const points =
      gcol_test_check_allocation_failures(write_a_shallow_copy, free_fault_ctx, &ctx);
  assert_int_equal(points, 4); /* the column's data and mask, then their copies */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(shallow_copies_and_slices_never_see_a_write),
      GCOL_TEST_GPU(writes_after_exposure_reach_no_later_copy),
      GCOL_TEST_GPU(nested_columns_copy_every_buffer_on_make_mutable),
      GCOL_TEST_GPU(copies_across_threads_and_streams),
      GCOL_TEST_GPU(failed_write_copies_leak_nothing),
  };
  return GCOL_TEST_RUN_GPU("cow", tests);
}
