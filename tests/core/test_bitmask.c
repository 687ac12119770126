/* GPU tests of null-mask creation, counting, copying at offsets, AND/OR and set_range,
 * against host bit arithmetic on random masks. */
#include <cuda_runtime_api.h>

#include "test_util.h"

/* Random device mask of `bits` bits (allocation-sized), mirrored on the host. */
static uint32_t *random_device_mask(gcol_test_rng *rng, int64_t bits, uint32_t **host_out) {
  size_t const bytes = gcol_bitmask_allocation_size(bits) + 64;
  uint32_t *host = (uint32_t *)malloc(bytes);
  gcol_test_rng_fill(rng, host, bytes);
  uint32_t *dev = NULL;
  assert_int_equal(cudaMalloc((void **)&dev, bytes), cudaSuccess);
  assert_int_equal(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), cudaSuccess);
  *host_out = host;
  return dev;
}

static uint32_t *mask_to_host(const gcol_buffer *mask) {
  uint32_t *host = (uint32_t *)malloc(mask->size > 0 ? mask->size : 4);
  assert_int_equal(cudaMemcpy(host, mask->data, mask->size, cudaMemcpyDeviceToHost), cudaSuccess);
  return host;
}

static void assert_padding_zero(const uint32_t *words, size_t bytes, int64_t bits) {
  for (int64_t b = bits; b < (int64_t)bytes * 8; ++b) {
    if (gcol_bit_is_set(words, b)) fail_msg("padding bit %lld is set (%lld rows)", (long long)b, (long long)bits);
  }
}

static void create_in_every_state(void **state) {
  (void)state;
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    int64_t const n = gcol_test_sizes[s];
    for (int st = GCOL_MASK_UNALLOCATED; st <= GCOL_MASK_ALL_NULL; ++st) {
      gcol_buffer *mask = NULL;
      GCOL_TEST_OK(gcol_bitmask_create(n, (gcol_mask_state)st, NULL, NULL, &mask));
      if (st == GCOL_MASK_UNALLOCATED || n == 0) {
        if (st == GCOL_MASK_UNALLOCATED) assert_null(mask);
        gcol_buffer_free(mask);
        continue;
      }
      assert_int_equal(mask->size, gcol_bitmask_allocation_size(n));
      assert_int_equal((uintptr_t)mask->data % 64, 0);
      uint32_t *host = mask_to_host(mask);
      assert_padding_zero(host, mask->size, n);
      if (st != GCOL_MASK_UNINITIALIZED) {
        int64_t expected_set = st == GCOL_MASK_ALL_VALID ? n : 0;
        assert_int_equal(gcol_bits_count_set_range(host, 0, n), expected_set);
        int64_t count = -1;
        GCOL_TEST_OK(gcol_bitmask_count_set_bits((const uint32_t *)mask->data, 0, n, NULL, &count));
        assert_int_equal(count, expected_set);
      }
      free(host);
      gcol_buffer_free(mask);
    }
  }
}

static void count_matches_host_at_any_range(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(21);
  int64_t const bits = 100003;
  uint32_t *host = NULL;
  uint32_t *dev = random_device_mask(&rng, bits, &host);
  for (int trial = 0; trial < 200; ++trial) {
    int64_t begin = gcol_test_rng_range(&rng, 0, bits);
    int64_t end = gcol_test_rng_range(&rng, begin, trial < 100 ? begin + 70 : bits);
    if (end > bits) end = bits;
    int64_t set = -1, unset = -1;
    GCOL_TEST_OK(gcol_bitmask_count_set_bits(dev, begin, end, NULL, &set));
    GCOL_TEST_OK(gcol_bitmask_count_unset_bits(dev, begin, end, NULL, &unset));
    int64_t const expected = gcol_bits_count_set_range(host, begin, end);
    assert_int_equal(set, expected);
    assert_int_equal(unset, (end - begin) - expected);
  }
  int64_t count = -1;
  GCOL_TEST_OK(gcol_bitmask_count_set_bits(NULL, 3, 10, NULL, &count));
  assert_int_equal(count, 7);
  GCOL_TEST_STATUS(gcol_bitmask_count_set_bits(dev, 5, 4, NULL, &count), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_bitmask_count_set_bits(dev, 0, 4, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  cudaFree(dev);
  free(host);
}

static void copy_realigns_any_offset(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(22);
  uint32_t *host = NULL;
  uint32_t *dev = random_device_mask(&rng, 5000, &host);
  for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
    for (size_t s = 0; s < gcol_test_num_sizes && gcol_test_sizes[s] <= 4000; ++s) {
      int64_t const begin = gcol_test_offsets[o], n = gcol_test_sizes[s];
      gcol_buffer *copy = NULL;
      GCOL_TEST_OK(gcol_bitmask_copy(dev, begin, begin + n, NULL, NULL, &copy));
      uint32_t *out = mask_to_host(copy);
      for (int64_t i = 0; i < n; ++i) {
        assert_int_equal(gcol_bit_is_set(out, i), gcol_bit_is_set(host, begin + i));
      }
      assert_padding_zero(out, copy->size, n);
      free(out);
      gcol_buffer_free(copy);
    }
  }
  cudaFree(dev);
  free(host);
}

static void and_or_combine_masks_at_their_offsets(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(23);
  uint32_t *ha = NULL, *hb = NULL, *hc = NULL;
  uint32_t *da = random_device_mask(&rng, 3000, &ha);
  uint32_t *db = random_device_mask(&rng, 3000, &hb);
  uint32_t *dc = random_device_mask(&rng, 3000, &hc);
  int64_t const n = 2900;
  const uint32_t *masks[4] = {da, NULL, db, dc};
  int64_t const offsets[4] = {3, 0, 33, 64};
  for (int is_and = 0; is_and <= 1; ++is_and) {
    gcol_buffer *out = NULL;
    int64_t nulls = -1;
    /* Without the NULL entry: AND/OR of three real masks. */
    const uint32_t *three[3] = {da, db, dc};
    int64_t const three_off[3] = {3, 33, 64};
    gcol_status const st = is_and ? gcol_bitmask_and(three, three_off, 3, n, NULL, NULL, &out, &nulls)
                                  : gcol_bitmask_or(three, three_off, 3, n, NULL, NULL, &out, &nulls);
    GCOL_TEST_OK(st);
    uint32_t *h = mask_to_host(out);
    int64_t expected_nulls = 0;
    for (int64_t i = 0; i < n; ++i) {
      bool const a = gcol_bit_is_set(ha, 3 + i), b = gcol_bit_is_set(hb, 33 + i),
                 c = gcol_bit_is_set(hc, 64 + i);
      bool const want = is_and ? (a && b && c) : (a || b || c);
      assert_int_equal(gcol_bit_is_set(h, i), want);
      expected_nulls += !want;
    }
    assert_int_equal(nulls, expected_nulls);
    assert_padding_zero(h, out->size, n);
    free(h);
    gcol_buffer_free(out);
  }
  /* A NULL mask is all-valid: AND skips it, OR gives no mask. */
  gcol_buffer *out = NULL;
  int64_t nulls = -1;
  GCOL_TEST_OK(gcol_bitmask_or(masks, offsets, 4, n, NULL, NULL, &out, &nulls));
  assert_null(out);
  assert_int_equal(nulls, 0);
  GCOL_TEST_OK(gcol_bitmask_and(masks, offsets, 4, n, NULL, NULL, &out, NULL));
  assert_non_null(out);
  gcol_buffer_free(out);
  const uint32_t *none[2] = {NULL, NULL};
  GCOL_TEST_OK(gcol_bitmask_and(none, offsets, 2, n, NULL, NULL, &out, &nulls));
  assert_null(out);
  int64_t const negative[1] = {-1};
  GCOL_TEST_STATUS(gcol_bitmask_and(masks, negative, 1, n, NULL, NULL, &out, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(ha);
  free(hb);
  free(hc);
}

static void set_range_touches_only_the_range(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(24);
  for (int trial = 0; trial < 50; ++trial) {
    uint32_t *host = NULL;
    uint32_t *dev = random_device_mask(&rng, 1000, &host);
    int64_t const begin = gcol_test_rng_range(&rng, 0, 900);
    int64_t const end = gcol_test_rng_range(&rng, begin, 1000);
    bool const valid = trial % 2;
    GCOL_TEST_OK(gcol_bitmask_set_range(dev, begin, end, valid, NULL));
    uint32_t *after = (uint32_t *)malloc(1024 / 8);
    assert_int_equal(cudaMemcpy(after, dev, 1024 / 8, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int64_t i = 0; i < 1024; ++i) {
      bool const want = (i >= begin && i < end) ? valid : gcol_bit_is_set(host, i);
      assert_int_equal(gcol_bit_is_set(after, i), want);
    }
    free(after);
    free(host);
    cudaFree(dev);
  }
  GCOL_TEST_STATUS(gcol_bitmask_set_range(NULL, 0, 5, true, NULL), GCOL_ERROR_INVALID_ARGUMENT);
}

typedef struct copy_ctx {
  const uint32_t *src;
  gcol_buffer *out;
} copy_ctx;

static gcol_status run_copy(void *p) {
  copy_ctx *c = (copy_ctx *)p;
  return gcol_bitmask_copy(c->src, 5, 700, NULL, NULL, &c->out);
}

static void free_copy(void *p) { gcol_buffer_free(((copy_ctx *)p)->out); }

static void allocation_failures_leak_nothing(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(25);
  uint32_t *host = NULL;
  uint32_t *dev = random_device_mask(&rng, 1000, &host);
  copy_ctx c = {dev, NULL};
  assert_true(gcol_test_check_allocation_failures(run_copy, free_copy, &c) >= 1);
  gcol_buffer *mask = NULL;
  GCOL_TEST_STATUS(gcol_bitmask_create(-1, GCOL_MASK_ALL_VALID, NULL, NULL, &mask), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_bitmask_create(5, (gcol_mask_state)9, NULL, NULL, &mask), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(mask);
  cudaFree(dev);
  free(host);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(create_in_every_state),
      GCOL_TEST_GPU(count_matches_host_at_any_range),
      GCOL_TEST_GPU(copy_realigns_any_offset),
      GCOL_TEST_GPU(and_or_combine_masks_at_their_offsets),
      GCOL_TEST_GPU(set_range_touches_only_the_range),
      GCOL_TEST_GPU(allocation_failures_leak_nothing),
  };
  return GCOL_TEST_RUN_GPU("bitmask", tests);
}
