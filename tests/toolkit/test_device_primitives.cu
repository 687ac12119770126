/* GPU tests of the gcol/device headers and of the host+device headers run on the device: warp and
 * block reductions and scans, the block's grid-wide count, atomics under contention and atomic mask
 * bits for every storage type, and hashes computed on the device equal to the host values. */
#include <cuda_runtime.h>
#include <math.h>

#include "gcol/device/atomics.cuh"
#include "gcol/device/block.cuh"
#include "gcol/device/warp.cuh"
#include "gcol/hash.h"
#include "gcol/typed_view.h"
#include "gcol/utf8.h"

/* cmocka.h declares no extern "C" of its own: include it as C before test_util.h does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}
#include "test_util.h"

#define CUDA_OK(call)                                                              \
  do {                                                                             \
    cudaError_t e = (call);                                                        \
    if (e != cudaSuccess) fail_msg("%s: %s", #call, cudaGetErrorString(e));        \
  } while (0)

/* Device buffers through the default (statistics) resource, so leaks fail the test. */
static void *dev_alloc(size_t bytes, gcol_buffer **buf) {
  GCOL_TEST_OK(gcol_buffer_create(bytes, NULL, NULL, buf));
  return (*buf)->data;
}

/* Host reference operators, the semantics of gcol/device/ops.cuh. */
#define REF_INT_OPS(T, U)                                                          \
  static T ref_sum(T a, T b) { return (T)(U)((U)a + (U)b); }                       \
  static T ref_min(T a, T b) { return b < a ? b : a; }                             \
  static T ref_max(T a, T b) { return a < b ? b : a; }                             \
  static bool same(T a, T b) { return a == b; }                                    \
  static void random_value(gcol_test_rng *rng, T *v) { gcol_test_rng_fill(rng, v, sizeof *v); } \
  static void set_nan_or_zero(T *v) { *v = 0; }
REF_INT_OPS(int8_t, uint8_t)
REF_INT_OPS(int16_t, uint16_t)
REF_INT_OPS(int32_t, uint32_t)
REF_INT_OPS(int64_t, uint64_t)
REF_INT_OPS(uint8_t, uint8_t)
REF_INT_OPS(uint16_t, uint16_t)
REF_INT_OPS(uint32_t, uint32_t)
REF_INT_OPS(uint64_t, uint64_t)

/* Floats: small integers (sums exact in any order) plus ±0, ±Inf, NaN now and then. */
#define REF_FLOAT_OPS(T, FMIN, FMAX)                                                \
  static T ref_sum(T a, T b) { return a + b; }                                     \
  static T ref_min(T a, T b) { return FMIN(a, b); }                                \
  static T ref_max(T a, T b) { return FMAX(a, b); }                                \
  static bool same(T a, T b) { return a == b || (a != a && b != b); }              \
  static void set_nan_or_zero(T *v) { *v = (T)NAN; }                               \
  static void random_value(gcol_test_rng *rng, T *v) {                             \
    int64_t const r = gcol_test_rng_range(rng, 0, 999);                            \
    if (r == 0) *v = (T)NAN;                                                       \
    else if (r == 1) *v = (T)INFINITY;                                             \
    else if (r == 2) *v = (T)-INFINITY;                                            \
    else if (r == 3) *v = (T)-0.0;                                                 \
    else *v = (T)gcol_test_rng_range(rng, -1000, 1000);                            \
  }
REF_FLOAT_OPS(float, fminf, fmaxf)
REF_FLOAT_OPS(double, fmin, fmax)

static const int block_sizes[] = {32, 256, 1024};
enum { NUM_BLOCKS = 3 };

/* Per type: a kernel writing every warp and block result, and a host check. Results per
 * thread: [0] warp incl sum, [1] warp incl min, [2] warp incl max, [3] warp excl sum,
 * [4] block incl sum, [5] block incl min, [6] block incl max, [7] block excl sum,
 * [8] warp reduce sum, [9] min, [10] max, [11] block reduce sum, [12] min, [13] max,
 * [14] warp excl total, [15] block excl total. Flags: any/all of warp and block. */
#define COLLECTIVES(SFX, T)                                                                    \
  __global__ void collectives_smem_kernel_##SFX(const T *in, T *out, int *flags) {                  \
    int64_t const i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;                          \
    T const v = in[i];                                                                         \
    T *o = out + i * 16;                                                                       \
    o[0] = gcol_warp_inclusive_sum_##SFX(v);                                                   \
    o[1] = gcol_warp_inclusive_min_##SFX(v);                                                   \
    o[2] = gcol_warp_inclusive_max_##SFX(v);                                                   \
    o[3] = gcol_warp_exclusive_sum_##SFX(v, &o[14]);                                           \
    o[4] = gcol_block_inclusive_sum_##SFX(v);                                                  \
    o[5] = gcol_block_inclusive_min_##SFX(v);                                                  \
    o[6] = gcol_block_inclusive_max_##SFX(v);                                                  \
    o[7] = gcol_block_exclusive_sum_##SFX(v, &o[15]);                                          \
    o[8] = gcol_warp_reduce_sum_##SFX(v);                                                      \
    o[9] = gcol_warp_reduce_min_##SFX(v);                                                      \
    o[10] = gcol_warp_reduce_max_##SFX(v);                                                     \
    o[11] = gcol_block_reduce_sum_##SFX(v);                                                    \
    o[12] = gcol_block_reduce_min_##SFX(v);                                                    \
    o[13] = gcol_block_reduce_max_##SFX(v);                                                    \
    flags[i * 4 + 0] = gcol_warp_reduce_any_##SFX(v);                                          \
    flags[i * 4 + 1] = gcol_warp_reduce_all_##SFX(v);                                          \
    flags[i * 4 + 2] = gcol_block_reduce_any_##SFX(v);                                         \
    flags[i * 4 + 3] = gcol_block_reduce_all_##SFX(v);                                         \
  }                                                                                            \
  static void check_collectives_##SFX(const T *in, const T *out, const int *flags, int64_t n,  \
                                      int bs, int pattern) {                                   \
    for (int64_t g0 = 0; g0 < n; g0 += 32) check_group_##SFX(in, out, flags, g0, 32, 0, pattern); \
    for (int64_t g0 = 0; g0 < n; g0 += bs) check_group_##SFX(in, out, flags, g0, bs, 4, pattern); \
  }                                                                                            \
  static void collectives_##SFX(void **state) {                                                \
    (void)state;                                                                               \
    gcol_test_rng rng = gcol_test_rng_make(700 + sizeof(T));                                   \
    for (size_t b = 0; b < sizeof block_sizes / sizeof block_sizes[0]; ++b) {                  \
      for (int pattern = 0; pattern < 3; ++pattern) { /* random, all zero-ish, all non-zero */  \
        int const bs = block_sizes[b];                                                         \
        int64_t const n = (int64_t)bs * NUM_BLOCKS;                                            \
        T *in = (T *)malloc(sizeof(T) * n);                                                    \
        T *out = (T *)malloc(sizeof(T) * n * 16);                                              \
        int *flags = (int *)malloc(sizeof(int) * n * 4);                                       \
        for (int64_t i = 0; i < n; ++i) {                                                      \
          random_value(&rng, &in[i]);                                                          \
          if (pattern == 1) in[i] = (T)(i % 97 == 5 ? 1 : 0);                                  \
          if (pattern == 2 && !(in[i] != (T)0)) in[i] = (T)1;                                  \
        }                                                                                      \
        gcol_buffer *din, *dout, *dflags;                                                      \
        T *d_in = (T *)dev_alloc(sizeof(T) * n, &din);                                         \
        T *d_out = (T *)dev_alloc(sizeof(T) * n * 16, &dout);                                  \
        int *d_flags = (int *)dev_alloc(sizeof(int) * n * 4, &dflags);                         \
        CUDA_OK(cudaMemcpy(d_in, in, sizeof(T) * n, cudaMemcpyHostToDevice));                  \
        collectives_smem_kernel_##SFX<<<NUM_BLOCKS, bs>>>(d_in, d_out, d_flags);                    \
        CUDA_OK(cudaGetLastError());                                                           \
        CUDA_OK(cudaMemcpy(out, d_out, sizeof(T) * n * 16, cudaMemcpyDeviceToHost));           \
        CUDA_OK(cudaMemcpy(flags, d_flags, sizeof(int) * n * 4, cudaMemcpyDeviceToHost));      \
        check_collectives_##SFX(in, out, flags, n, bs, pattern);                               \
        gcol_buffer_free(din);                                                                 \
        gcol_buffer_free(dout);                                                                \
        gcol_buffer_free(dflags);                                                              \
        free(in);                                                                              \
        free(out);                                                                             \
        free(flags);                                                                           \
      }                                                                                        \
    }                                                                                          \
  }

/* Checks one warp (base 0) or block (base 4) group of `size` threads starting at g0. */
#define CHECK_GROUP(SFX, T)                                                                    \
  static void check_group_##SFX(const T *in, const T *out, const int *flags, int64_t g0,       \
                                int size, int base, int pattern) {                             \
    T s = in[g0], mn = in[g0], mx = in[g0], ex = (T)0;                                         \
    bool any = false, all = true;                                                              \
    for (int k = 0; k < size; ++k) {                                                           \
      T const v = in[g0 + k];                                                                  \
      any = any || v != (T)0;                                                                  \
      all = all && v != (T)0;                                                                  \
      if (k > 0) {                                                                             \
        s = ref_sum(s, v);                                                                     \
        mn = ref_min(mn, v);                                                                   \
        mx = ref_max(mx, v);                                                                   \
      }                                                                                        \
      const T *o = out + (g0 + k) * 16;                                                        \
      if (!same(o[base + 0], s) || !same(o[base + 1], mn) || !same(o[base + 2], mx) ||         \
          !same(o[base + 3], ex)) {                                                            \
        fail_msg(#SFX " %s scan, group %lld size %d pattern %d, thread %d", base ? "block" : "warp", \
                 (long long)g0, size, pattern, k);                                             \
      }                                                                                        \
      ex = ref_sum(ex, v);                                                                     \
    }                                                                                          \
    int const red = base == 0 ? 8 : 11;                                                        \
    for (int k = 0; k < size; ++k) {                                                           \
      const T *o = out + (g0 + k) * 16;                                                        \
      if (!same(o[red], s) || !same(o[red + 1], mn) || !same(o[red + 2], mx) ||                \
          !same(o[base == 0 ? 14 : 15], s)) {                                                  \
        fail_msg(#SFX " %s reduce, group %lld size %d pattern %d, thread %d", base ? "block" : "warp", \
                 (long long)g0, size, pattern, k);                                             \
      }                                                                                        \
      int const f = base == 0 ? 0 : 2;                                                         \
      assert_int_equal(flags[(g0 + k) * 4 + f], any);                                          \
      assert_int_equal(flags[(g0 + k) * 4 + f + 1], all);                                      \
    }                                                                                          \
  }

GCOL_STORAGE_TYPE_LIST(CHECK_GROUP)
GCOL_STORAGE_TYPE_LIST(COLLECTIVES)

/* Atomics: n threads hit K adjacent slots (8/16-bit slots share 32-bit words). Values
 * stay small for floats so sums are exact whatever the order. */
enum { ATOMIC_THREADS = 1 << 16, ATOMIC_SLOTS = 7 };

#define ATOMICS(SFX, T)                                                                        \
  __global__ void atomics_kernel_##SFX(const T *in, T *sum, T *mn, T *mx, int64_t n) {         \
    int64_t const i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;                          \
    if (i >= n) return;                                                                        \
    int const slot = (int)(i % ATOMIC_SLOTS);                                                  \
    gcol_atomic_add_##SFX(&sum[slot], in[i]);                                                  \
    gcol_atomic_min_##SFX(&mn[slot], in[i]);                                                   \
    gcol_atomic_max_##SFX(&mx[slot], in[i]);                                                   \
  }                                                                                            \
  static void atomics_##SFX(void **state) {                                                    \
    (void)state;                                                                               \
    gcol_test_rng rng = gcol_test_rng_make(800 + sizeof(T));                                   \
    int64_t const n = ATOMIC_THREADS;                                                          \
    T *in = (T *)malloc(sizeof(T) * n);                                                        \
    T init[3][8], want[3][8], got[3][8];                                                       \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      random_value(&rng, &in[i]);                                                              \
      if (!same(in[i], in[i])) in[i] = (T)3; /* NaN would make float sums order-free but min/max too easy */ \
    }                                                                                          \
    for (int k = 0; k < 3; ++k)                                                                \
      for (int s = 0; s < 8; ++s) {                                                            \
        random_value(&rng, &init[k][s]);                                                       \
        want[k][s] = init[k][s];                                                               \
      }                                                                                        \
    set_nan_or_zero(&init[1][2]); /* floats: a NaN in memory is replaced by min/max */       \
    want[1][2] = init[1][2];                                                                   \
    for (int64_t i = 0; i < n; ++i) {                                                          \
      int const s = (int)(i % ATOMIC_SLOTS);                                                   \
      want[0][s] = ref_sum(want[0][s], in[i]);                                                 \
      want[1][s] = ref_min(want[1][s], in[i]);                                                 \
      want[2][s] = ref_max(want[2][s], in[i]);                                                 \
    }                                                                                          \
    gcol_buffer *din, *dacc;                                                                   \
    T *d_in = (T *)dev_alloc(sizeof(T) * n, &din);                                             \
    T *d_acc = (T *)dev_alloc(sizeof init, &dacc);                                             \
    CUDA_OK(cudaMemcpy(d_in, in, sizeof(T) * n, cudaMemcpyHostToDevice));                      \
    CUDA_OK(cudaMemcpy(d_acc, init, sizeof init, cudaMemcpyHostToDevice));                     \
    atomics_kernel_##SFX<<<(unsigned)((n + 255) / 256), 256>>>(d_in, d_acc, d_acc + 8, d_acc + 16, n); \
    CUDA_OK(cudaGetLastError());                                                               \
    CUDA_OK(cudaMemcpy(got, d_acc, sizeof got, cudaMemcpyDeviceToHost));                       \
    for (int k = 0; k < 3; ++k)                                                                \
      for (int s = 0; s < 8; ++s) /* slot 7 is untouched: neighbours preserved */              \
        if (!same(got[k][s], want[k][s])) fail_msg(#SFX " atomic op %d slot %d differs", k, s); \
    gcol_buffer_free(din);                                                                     \
    gcol_buffer_free(dacc);                                                                    \
    free(in);                                                                                  \
  }

GCOL_STORAGE_TYPE_LIST(ATOMICS)

/* Every bit is set by two threads and cleared by two others: exactly one of each pair sees
 * the old value change. The i32 view's atomic validity setters run on an offset mask. */
__global__ void mask_bits_kernel(uint32_t *mask, int64_t bits, int *first_set, gcol_i32_mutable_view v) {
  int64_t const i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= 2 * bits) return;
  int64_t const bit = i % bits;
  if (!gcol_atomic_bit_set(mask, bit)) atomicAdd(&first_set[bit], 1);
  if (bit % 3 == 0) gcol_i32_mutable_view_set_null_atomic(v, bit);
  if (bit % 3 == 1) gcol_i32_mutable_view_set_valid_atomic(v, bit);
}

__global__ void mask_clear_kernel(uint32_t *mask, int64_t bits, int *first_clear) {
  int64_t const i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= 2 * bits) return;
  if (gcol_atomic_bit_assign(mask, i % bits, false)) atomicAdd(&first_clear[i % bits], 1);
}

static void atomic_mask_bits(void **state) {
  (void)state;
  int64_t const bits = 4099;
  int64_t const off = 3;
  size_t const words = (size_t)gcol_bit_num_words(bits + off);
  gcol_buffer *dmask, *dfirst, *dview;
  uint32_t *d_mask = (uint32_t *)dev_alloc(words * 4, &dmask);
  int *d_first = (int *)dev_alloc(sizeof(int) * bits, &dfirst);
  uint32_t *d_vmask = (uint32_t *)dev_alloc(words * 4, &dview);
  uint32_t *h = (uint32_t *)malloc(words * 4);
  int *first = (int *)malloc(sizeof(int) * bits);
  gcol_test_rng rng = gcol_test_rng_make(901);
  gcol_test_rng_fill(&rng, h, words * 4);
  CUDA_OK(cudaMemcpy(d_vmask, h, words * 4, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(d_mask, 0, words * 4));
  CUDA_OK(cudaMemset(d_first, 0, sizeof(int) * bits));
  gcol_i32_mutable_view v = gcol_i32_mutable_view_wrap(NULL, d_vmask, off, bits);
  mask_bits_kernel<<<(unsigned)((2 * bits + 255) / 256), 256>>>(d_mask, bits, d_first, v);
  CUDA_OK(cudaGetLastError());
  uint32_t *after = (uint32_t *)malloc(words * 4);
  CUDA_OK(cudaMemcpy(first, d_first, sizeof(int) * bits, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(after, d_mask, words * 4, cudaMemcpyDeviceToHost));
  for (int64_t b = 0; b < bits; ++b) {
    assert_int_equal(first[b], 1);
    assert_true(gcol_bit_is_set(after, b));
  }
  CUDA_OK(cudaMemcpy(after, d_vmask, words * 4, cudaMemcpyDeviceToHost));
  for (int64_t b = 0; b < bits + off; ++b) {
    bool want = gcol_bit_is_set(h, b);
    if (b >= off && (b - off) % 3 == 0) want = false;
    if (b >= off && (b - off) % 3 == 1) want = true;
    assert_int_equal(gcol_bit_is_set(after, b), want);
  }
  /* Clearing: every bit cleared by two threads, exactly one sees it set. */
  CUDA_OK(cudaMemset(d_first, 0, sizeof(int) * bits));
  mask_clear_kernel<<<(unsigned)((2 * bits + 255) / 256), 256>>>(d_mask, bits, d_first);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaMemcpy(first, d_first, sizeof(int) * bits, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(after, d_mask, words * 4, cudaMemcpyDeviceToHost));
  for (int64_t b = 0; b < bits; ++b) {
    assert_int_equal(first[b], 1);
    assert_false(gcol_bit_is_set(after, b));
  }
  free(h);
  free(first);
  free(after);
  gcol_buffer_free(dmask);
  gcol_buffer_free(dfirst);
  gcol_buffer_free(dview);
}

/* gcol_block_add_count: every thread's values summed into one 64-bit counter, in 1-D and 2-D
 * blocks (thread 0 by linear index adds), a sum past 32 bits; all zeros leave it as it was. */
__global__ void block_count_smem_kernel(const uint32_t *in, int64_t n, unsigned long long *count) {
  unsigned const threads = blockDim.x * blockDim.y;
  int64_t const tid = threadIdx.y * (int64_t)blockDim.x + threadIdx.x;
  uint64_t mine = 0;
  for (int64_t i = blockIdx.x * (int64_t)threads + tid; i < n; i += (int64_t)gridDim.x * threads) {
    mine += in[i];
  }
  gcol_block_add_count(count, mine);
}

static void block_add_count(void **state) {
  (void)state;
  int64_t const n = 100003;
  gcol_buffer *din, *dcount;
  uint32_t *d_in = (uint32_t *)dev_alloc(sizeof(uint32_t) * n, &din);
  unsigned long long *d_count =
      (unsigned long long *)dev_alloc(sizeof(unsigned long long), &dcount);
  uint32_t *h = (uint32_t *)malloc(sizeof(uint32_t) * n);
  gcol_test_rng rng = gcol_test_rng_make(907);
  gcol_test_rng_fill(&rng, h, sizeof(uint32_t) * n);
  unsigned long long want = 0;
  for (int64_t i = 0; i < n; ++i) want += h[i];
  assert_true(want > UINT32_MAX);
  CUDA_OK(cudaMemcpy(d_in, h, sizeof(uint32_t) * n, cudaMemcpyHostToDevice));
  dim3 const shapes[3] = {dim3(256), dim3(32, 4), dim3(64, 16)};
  for (int k = 0; k < 3; ++k) {
    for (int zeros = 0; zeros < 2; ++zeros) {
      unsigned long long got = 7;
      CUDA_OK(cudaMemcpy(d_count, &got, sizeof got, cudaMemcpyHostToDevice));
      if (zeros) CUDA_OK(cudaMemset(d_in, 0, sizeof(uint32_t) * n));
      block_count_smem_kernel<<<37, shapes[k]>>>(d_in, n, d_count);
      CUDA_OK(cudaGetLastError());
      CUDA_OK(cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost));
      assert_true(got == (zeros ? 7ull : want + 7));
    }
    CUDA_OK(cudaMemcpy(d_in, h, sizeof(uint32_t) * n, cudaMemcpyHostToDevice));
  }
  free(h);
  gcol_buffer_free(din);
  gcol_buffer_free(dcount);
}

/* Hashes on the device at every alignment 0..7 and length 0..300. */
enum { HASH_LENGTHS = 301, HASH_SHIFTS = 8 };

__global__ void hash_kernel(const unsigned char *bytes, uint32_t *m, uint64_t *x, uint64_t *typed,
                            const double *doubles, int num_doubles) {
  int64_t const t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (t < HASH_LENGTHS * HASH_SHIFTS) {
    int64_t const len = t / HASH_SHIFTS;
    int const shift = (int)(t % HASH_SHIFTS);
    m[t] = gcol_murmur3_32(bytes + shift, len, 0x9747B28Cu);
    x[t] = gcol_xxhash64(bytes + shift, len, 2654435761u);
  }
  if (t < num_doubles) {
    double const d = doubles[t];
    typed[t * 4 + 0] = gcol_hash_f64(d, 5);
    typed[t * 4 + 1] = gcol_hash_f32((float)d, 5);
    typed[t * 4 + 2] = gcol_hash_u64((uint64_t)(int64_t)d, 5);
    typed[t * 4 + 3] = gcol_string_ref_hash(gcol_string_ref_make((const char *)bytes, t), 1) +
                       (uint64_t)gcol_string_ref_char_count(gcol_string_ref_make((const char *)bytes, t));
  }
}

static void device_hashes_equal_host_hashes(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(902);
  unsigned char bytes[HASH_LENGTHS + HASH_SHIFTS];
  gcol_test_rng_fill(&rng, bytes, sizeof bytes);
  double const doubles[] = {0.0, -0.0, NAN, -NAN, INFINITY, -INFINITY, 1.5, -2.0, 1e300, 5e-324, 42.0};
  int const nd = (int)(sizeof doubles / sizeof doubles[0]);
  int const total = HASH_LENGTHS * HASH_SHIFTS;
  gcol_buffer *db, *dm, *dx, *dt, *dd;
  unsigned char *d_bytes = (unsigned char *)dev_alloc(sizeof bytes, &db);
  uint32_t *d_m = (uint32_t *)dev_alloc(sizeof(uint32_t) * total, &dm);
  uint64_t *d_x = (uint64_t *)dev_alloc(sizeof(uint64_t) * total, &dx);
  uint64_t *d_t = (uint64_t *)dev_alloc(sizeof(uint64_t) * 4 * nd, &dt);
  double *d_d = (double *)dev_alloc(sizeof doubles, &dd);
  CUDA_OK(cudaMemcpy(d_bytes, bytes, sizeof bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_d, doubles, sizeof doubles, cudaMemcpyHostToDevice));
  hash_kernel<<<(total + 255) / 256, 256>>>(d_bytes, d_m, d_x, d_t, d_d, nd);
  CUDA_OK(cudaGetLastError());
  uint32_t *m = (uint32_t *)malloc(sizeof(uint32_t) * total);
  uint64_t *x = (uint64_t *)malloc(sizeof(uint64_t) * total);
  uint64_t typed[4 * 16];
  CUDA_OK(cudaMemcpy(m, d_m, sizeof(uint32_t) * total, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(x, d_x, sizeof(uint64_t) * total, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(typed, d_t, sizeof(uint64_t) * 4 * nd, cudaMemcpyDeviceToHost));
  for (int t = 0; t < total; ++t) {
    int64_t const len = t / HASH_SHIFTS;
    int const shift = t % HASH_SHIFTS;
    assert_int_equal(m[t], gcol_murmur3_32(bytes + shift, len, 0x9747B28Cu));
    assert_true(x[t] == gcol_xxhash64(bytes + shift, len, 2654435761u));
  }
  for (int t = 0; t < nd; ++t) {
    double const d = doubles[t];
    assert_true(typed[t * 4 + 0] == gcol_hash_f64(d, 5));
    assert_true(typed[t * 4 + 1] == gcol_hash_f32((float)d, 5));
    if (isfinite(d) && fabs(d) < 1e18) assert_true(typed[t * 4 + 2] == gcol_hash_u64((uint64_t)(int64_t)d, 5));
    gcol_string_ref const s = gcol_string_ref_make((const char *)bytes, t);
    assert_true(typed[t * 4 + 3] == gcol_string_ref_hash(s, 1) + (uint64_t)gcol_string_ref_char_count(s));
  }
  /* Device equal to host, and host equal to the published vector for "Hello, world!". */
  assert_int_equal(gcol_murmur3_32("Hello, world!", 13, 0x9747B28Cu), 0x24884CBAu);
  free(m);
  free(x);
  gcol_buffer_free(db);
  gcol_buffer_free(dm);
  gcol_buffer_free(dx);
  gcol_buffer_free(dt);
  gcol_buffer_free(dd);
}

/* 255 threads add 1 to one element (its neighbours in the same word left alone): the
 * returned old values must be exactly 0..254, each once, for every type. */
enum { ADD_THREADS = 255 };

#define ATOMIC_OLD_VALUES(SFX, T)                                                              \
  __global__ void atomic_old_kernel_##SFX(T *target, T *olds) {                                \
    olds[threadIdx.x] = gcol_atomic_add_##SFX(&target[1], (T)1);                               \
  }                                                                                            \
  static void atomic_add_returns_old_values_##SFX(void **state) {                              \
    (void)state;                                                                               \
    T host_target[4] = {(T)7, (T)0, (T)9, (T)5};                                               \
    T olds[ADD_THREADS];                                                                       \
    gcol_buffer *dt, *dold;                                                                    \
    T *d_target = (T *)dev_alloc(sizeof host_target, &dt);                                     \
    T *d_olds = (T *)dev_alloc(sizeof olds, &dold);                                            \
    CUDA_OK(cudaMemcpy(d_target, host_target, sizeof host_target, cudaMemcpyHostToDevice));    \
    atomic_old_kernel_##SFX<<<1, ADD_THREADS>>>(d_target, d_olds);                             \
    CUDA_OK(cudaGetLastError());                                                               \
    CUDA_OK(cudaMemcpy(olds, d_olds, sizeof olds, cudaMemcpyDeviceToHost));                    \
    CUDA_OK(cudaMemcpy(host_target, d_target, sizeof host_target, cudaMemcpyDeviceToHost));    \
    int seen[ADD_THREADS] = {0};                                                               \
    for (int k = 0; k < ADD_THREADS; ++k) {                                                    \
      int64_t v = (int64_t)olds[k];                                                            \
      if (v < 0) v += 256; /* int8 wraps past 127 */                                           \
      if (v < 0 || v >= ADD_THREADS || seen[v]) fail_msg(#SFX " old value %lld repeated or out of range", (long long)v); \
      seen[v] = 1;                                                                             \
    }                                                                                          \
    assert_true(same(host_target[1], (T)ADD_THREADS));                                         \
    assert_true(same(host_target[0], (T)7) && same(host_target[2], (T)9) && same(host_target[3], (T)5)); \
    gcol_buffer_free(dt);                                                                      \
    gcol_buffer_free(dold);                                                                    \
  }

GCOL_STORAGE_TYPE_LIST(ATOMIC_OLD_VALUES)

/* Typed views inside a kernel, over columns built on the host and sliced at unaligned
 * offsets: each thread copies its row's pair out, which must equal the host data. */
#define VIEW_ON_DEVICE(SFX, T)                                                                 \
  __global__ void view_kernel_##SFX(gcol_##SFX##_view v, T *values, uint8_t *valid) {          \
    int64_t const i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;                          \
    if (i >= v.size) return;                                                                   \
    gcol_##SFX##_pair const p = gcol_##SFX##_view_get_pair(v, i);                              \
    values[i] = p.value;                                                                       \
    valid[i] = p.valid ? 1 : 0;                                                                \
  }                                                                                            \
  static void typed_view_on_device_##SFX(void **state) {                                       \
    (void)state;                                                                               \
    gcol_test_rng rng = gcol_test_rng_make(950 + sizeof(T));                                   \
    int64_t const n = 1000;                                                                    \
    T *data = (T *)malloc(sizeof(T) * n);                                                      \
    uint8_t *valid = (uint8_t *)malloc((size_t)n);                                             \
    T *got = (T *)malloc(sizeof(T) * n);                                                       \
    uint8_t *got_valid = (uint8_t *)malloc((size_t)n);                                         \
    for (int64_t i = 0; i < n; ++i) random_value(&rng, &data[i]);                              \
    gcol_test_fill_valid(&rng, GCOL_TEST_RANDOM_NULLS, valid, n);                              \
    gcol_column *col = NULL;                                                                   \
    gcol_type_id const id = GCOL_DETAIL_STORAGE_ID_##SFX;                                      \
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(id), n, data, valid, NULL, NULL, &col)); \
    gcol_buffer *dv, *dvalid;                                                                  \
    T *d_values = (T *)dev_alloc(sizeof(T) * n, &dv);                                          \
    uint8_t *d_valid = (uint8_t *)dev_alloc((size_t)n, &dvalid);                               \
    for (size_t oi = 0; oi < gcol_test_num_offsets; ++oi) {                                    \
      int64_t const off = gcol_test_offsets[oi];                                               \
      gcol_column_view slice;                                                                  \
      GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), off, n, &slice));         \
      gcol_##SFX##_view v;                                                                     \
      GCOL_TEST_OK(gcol_##SFX##_view_make(slice, &v));                                         \
      int64_t const m = n - off;                                                               \
      view_kernel_##SFX<<<(unsigned)((m + 255) / 256), 256>>>(v, d_values, d_valid);           \
      CUDA_OK(cudaGetLastError());                                                             \
      CUDA_OK(cudaMemcpy(got, d_values, sizeof(T) * m, cudaMemcpyDeviceToHost));               \
      CUDA_OK(cudaMemcpy(got_valid, d_valid, (size_t)m, cudaMemcpyDeviceToHost));              \
      for (int64_t i = 0; i < m; ++i) {                                                        \
        assert_int_equal(got_valid[i], valid[off + i] != 0);                                   \
        if (valid[off + i]) assert_memory_equal(&got[i], &data[off + i], sizeof(T));           \
      }                                                                                        \
    }                                                                                          \
    gcol_buffer_free(dv);                                                                      \
    gcol_buffer_free(dvalid);                                                                  \
    gcol_column_free(col);                                                                     \
    free(data);                                                                                \
    free(valid);                                                                               \
    free(got);                                                                                 \
    free(got_valid);                                                                           \
  }

GCOL_STORAGE_TYPE_LIST(VIEW_ON_DEVICE)

#define COLLECTIVES_ENTRY(SFX, T) GCOL_TEST_GPU(collectives_##SFX),
#define ATOMICS_ENTRY(SFX, T) GCOL_TEST_GPU(atomics_##SFX),
#define ATOMIC_OLD_ENTRY(SFX, T) GCOL_TEST_GPU(atomic_add_returns_old_values_##SFX),
#define VIEW_ON_DEVICE_ENTRY(SFX, T) GCOL_TEST_GPU(typed_view_on_device_##SFX),

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_STORAGE_TYPE_LIST(COLLECTIVES_ENTRY) GCOL_STORAGE_TYPE_LIST(ATOMICS_ENTRY)
          GCOL_STORAGE_TYPE_LIST(ATOMIC_OLD_ENTRY) GCOL_STORAGE_TYPE_LIST(VIEW_ON_DEVICE_ENTRY)
              GCOL_TEST_GPU(block_add_count),
      GCOL_TEST_GPU(atomic_mask_bits),
      GCOL_TEST_GPU(device_hashes_equal_host_hashes),
  };
  return GCOL_TEST_RUN_GPU("toolkit_device", tests);
}
