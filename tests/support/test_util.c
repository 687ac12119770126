/* Test support: see test_util.h. */
#include "test_util.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <time.h>

static void limit_sizes(void);

bool gcol_test_has_device(void) {
  int count = 0;
  cudaError_t const err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) (void)cudaGetLastError();
  return err == cudaSuccess && count > 0;
}

/*
 * GCOL_TEST_SHARD=k/n runs tests k, k + n, k + 2n, ... of the group (0 <= k < n): meson
 * registers a long program n times (tests/meson.build) so its parts run in parallel lanes.
 * Returns false, with a message, on a malformed value or a shard without tests.
 */
static bool shard_of(const char *name, size_t count, size_t *k, size_t *n) {
  char const *env = getenv("GCOL_TEST_SHARD");
  char tail = 0;
  unsigned long a = 0, b = 1;
  *k = 0;
  *n = 1;
  if (env == NULL || env[0] == '\0') return true;
  if (sscanf(env, "%lu/%lu%c", &a, &b, &tail) != 2 || b == 0 || a >= b || a >= count) {
    fprintf(stderr, "%s: GCOL_TEST_SHARD=%s is not k/n with 0 <= k < n and k < %zu tests\n", name,
            env, count);
    return false;
  }
  *k = a;
  *n = b;
  return true;
}

int gcol_test_run(const char *name, const struct CMUnitTest *tests, size_t count) {
  size_t k = 0, n = 1, picked = 0;
  struct CMUnitTest *shard = NULL;
  int failures = 0;
  cmocka_set_message_output(CM_OUTPUT_TAP);
  if (!shard_of(name, count, &k, &n)) return 1;
  (void)gcol_test_seed(); /* printed once, before the results */
  limit_sizes();
  if (n == 1) return _cmocka_run_group_tests(name, tests, count, NULL, NULL);
  shard = malloc(count * sizeof *shard);
  if (shard == NULL) return 1;
  for (size_t i = k; i < count; i += n) shard[picked++] = tests[i];
  failures = _cmocka_run_group_tests(name, shard, picked, NULL, NULL);
  free(shard);
  return failures;
}

int gcol_test_run_gpu(const char *name, const struct CMUnitTest *tests, size_t count) {
  if (!gcol_test_has_device()) {
    printf("1..0 # SKIP no CUDA device\n");
    return 0;
  }
  return gcol_test_run(name, tests, count);
}

/* The address of a slot encodes its part: slot [n][k] is part k of n (GCOL_TEST_GPU_PART). */
char gcol_test_part_slots[9][8];

bool gcol_test_in_part(void **state, size_t i) {
  uintptr_t const slot = state != NULL ? (uintptr_t)*state : 0;
  uintptr_t const first = (uintptr_t)&gcol_test_part_slots[0][0];
  if (slot < first || slot >= first + sizeof gcol_test_part_slots) return true;
  size_t const at = (size_t)(slot - first), n = at / 8, k = at % 8;
  return n == 0 || i % n == k;
}

/* Every other iteration of this part (i / n alternates within part k), so each part halves
 * its own share instead of one part keeping all its iterations and another none. */
bool gcol_test_in_sparse_part(void **state, size_t i) {
  uintptr_t const slot = state != NULL ? (uintptr_t)*state : 0;
  uintptr_t const first = (uintptr_t)&gcol_test_part_slots[0][0];
  size_t n = 1;
  if (slot >= first && slot < first + sizeof gcol_test_part_slots) n = (size_t)(slot - first) / 8;
  if (n == 0) n = 1;
  return gcol_test_in_part(state, i) && gcol_test_keep_combination(i / n);
}

/* ---- statistics resource around each GPU test ---- */

static gcol_mr *base_mr = NULL;  /* async or cuda pass-through, created once */
static gcol_mr *stats_mr = NULL; /* per test */
static double test_started = 0;  /* seconds at the test's set-up */

static double seconds_now(void) {
  struct timespec ts;
  (void)timespec_get(&ts, TIME_UTC); /* C11; a wall clock is good enough here */
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

gcol_mr *gcol_test_stats_mr(void) { return stats_mr; }
gcol_mr *gcol_test_base_mr(void) { return base_mr; }

int64_t gcol_test_live_bytes(void) {
  gcol_mr_statistics s;
  if (stats_mr == NULL || gcol_mr_statistics_get(stats_mr, &s) != GCOL_OK) return -1;
  return s.current_bytes;
}

/* GCOL_TEST_TRACE_ALLOC=FILE: every allocation and free of the base resource appended to FILE
 * ("A|F pointer bytes stream thread"), to find who held an address a sanitizer names. */
typedef struct trace_state {
  gcol_mr *inner;
  FILE *log;
  pthread_mutex_t lock;
} trace_state;

static void trace_line(trace_state *t, char kind, const void *p, size_t bytes, gcol_stream s) {
  fprintf(t->log, "%c %p %zu %p %lu\n", kind, p, bytes, (void *)s, (unsigned long)pthread_self());
  fflush(t->log);
}

static gcol_status trace_allocate(gcol_mr *self, void **out, size_t bytes, gcol_stream s) {
  trace_state *t = (trace_state *)self->state;
  pthread_mutex_lock(&t->lock);
  gcol_status const st = t->inner->allocate(t->inner, out, bytes, s);
  if (st == GCOL_OK) trace_line(t, 'A', *out, bytes, s);
  pthread_mutex_unlock(&t->lock);
  return st;
}

static void trace_deallocate(gcol_mr *self, void *p, size_t bytes, gcol_stream s) {
  trace_state *t = (trace_state *)self->state;
  pthread_mutex_lock(&t->lock);
  if (p != NULL) trace_line(t, 'F', p, bytes, s);
  t->inner->deallocate(t->inner, p, bytes, s);
  pthread_mutex_unlock(&t->lock);
}

static gcol_mr *traced(gcol_mr *inner) {
  const char *path = getenv("GCOL_TEST_TRACE_ALLOC");
  if (path == NULL || path[0] == '\0') return inner;
  static trace_state t;
  static gcol_mr mr;
  t.inner = inner;
  t.log = fopen(path, "w");
  if (t.log == NULL) return inner;
  pthread_mutex_init(&t.lock, NULL);
  mr = *inner;
  mr.allocate = trace_allocate;
  mr.deallocate = trace_deallocate;
  mr.destroy = NULL;
  mr.state = &t;
  mr.name = "trace";
  return &mr;
}

int gcol_test_setup(void **state) {
  (void)state;
  test_started = seconds_now();
  if (base_mr == NULL) {
    const char *kind = getenv("GCOL_TEST_MR");
    gcol_status const st = (kind != NULL && strcmp(kind, "cuda") == 0)
                               ? gcol_mr_cuda_create(&base_mr)
                               : gcol_mr_async_create(&base_mr);
    if (st != GCOL_OK) {
      fprintf(stderr, "# cannot create the base resource: %s\n", gcol_last_error());
      return -1;
    }
    base_mr = traced(base_mr);
  }
  if (gcol_mr_statistics_create(base_mr, &stats_mr) != GCOL_OK) return -1;
  if (gcol_mr_set_default(stats_mr, NULL) != GCOL_OK) return -1;
  gcol_clear_last_error();
  return 0;
}

int gcol_test_teardown(void **state) {
  (void)state;
  int rc = 0;
  /* Frees are stream-ordered; the counters are updated at the call, so no sync needed,
   * but a sync surfaces asynchronous kernel faults in the test that caused them. */
  cudaError_t const err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    fprintf(stderr, "# CUDA error at teardown: %s\n", cudaGetErrorString(err));
    rc = -1;
  }
  int64_t const live = gcol_test_live_bytes();
  if (live != 0) {
    int64_t count = 0;
    (void)gcol_mr_statistics_report_leaks(stats_mr, &count);
    fprintf(stderr, "# leak: %lld bytes in %lld allocations still live\n", (long long)live,
            (long long)count);
    rc = -1;
  }
  (void)gcol_mr_set_default(NULL, NULL);
  gcol_mr_destroy(stats_mr);
  stats_mr = NULL;
  /* a TAP comment before the result line: the GPU check lists the slowest test cases */
  printf("# took %.2f s\n", seconds_now() - test_started);
  return rc;
}

/* Runs op with its n-th allocation failing; a failure must be OUT_OF_MEMORY and leak nothing.
 * Returns the op's status (GCOL_OK: it made fewer than n allocations; its outputs are freed). */
static gcol_status fail_at(gcol_status (*op)(void *ctx), void (*cleanup)(void *ctx), void *ctx,
                           int64_t n) {
  gcol_mr *failing = NULL;
  GCOL_TEST_OK(gcol_mr_fail_nth_create(stats_mr, n, &failing));
  GCOL_TEST_OK(gcol_mr_set_default(failing, NULL));
  int64_t const before = gcol_test_live_bytes();
  gcol_status const st = op(ctx);
  if (cudaDeviceSynchronize() != cudaSuccess)
    fail_msg("CUDA error after allocation %lld", (long long)n);
  GCOL_TEST_OK(gcol_mr_set_default(stats_mr, NULL));
  if (st == GCOL_OK) cleanup(ctx); /* the outputs still refer to `failing`: free them first */
  gcol_mr_destroy(failing);
  if (st != GCOL_OK && st != GCOL_ERROR_OUT_OF_MEMORY) {
    fail_msg("allocation %lld failing gave %s (%s), expected GCOL_ERROR_OUT_OF_MEMORY",
             (long long)n, gcol_status_string(st), gcol_last_error());
  }
  if (st != GCOL_OK && gcol_test_live_bytes() != before) {
    fail_msg("allocation %lld failing leaked %lld bytes", (long long)n,
             (long long)(gcol_test_live_bytes() - before));
  }
  return st;
}

/* GCOL_TEST_FAULTS=sparse (all sanitizer tools but memcheck): counts the op's allocations in one clean
 * run, then fails the first two, the last and about six between. Those tools look at the
 * kernels, which every failing point runs again on the same data; memcheck (leaks on every
 * error path) and the plain run fail every allocation in turn. */
static int sparse_allocation_failures(gcol_status (*op)(void *ctx), void (*cleanup)(void *ctx),
                                      void *ctx) {
  gcol_mr_statistics s0, s1;
  GCOL_TEST_OK(gcol_mr_statistics_get(stats_mr, &s0));
  GCOL_TEST_OK(op(ctx));
  GCOL_TEST_OK(gcol_mr_statistics_get(stats_mr, &s1));
  cleanup(ctx);
  int64_t const count = s1.total_allocations - s0.total_allocations;
  int64_t const step = count / 6 > 1 ? count / 6 : 1;
  for (int64_t n = 1; n <= count; ++n) {
    if (n > 2 && n != count && n % step != 0) continue;
    if (fail_at(op, cleanup, ctx, n) == GCOL_OK) return (int)(n - 1); /* as below */
  }
  return (int)count;
}

int gcol_test_check_allocation_failures(gcol_status (*op)(void *ctx), void (*cleanup)(void *ctx),
                                        void *ctx) {
  char const *faults = getenv("GCOL_TEST_FAULTS");
  if (faults != NULL && strcmp(faults, "sparse") == 0)
    return sparse_allocation_failures(op, cleanup, ctx);
  for (int64_t n = 1; n < 10000; ++n) {
    if (fail_at(op, cleanup, ctx, n) == GCOL_OK) return (int)(n - 1);
  }
  fail_msg("%s", "the operation never succeeded");
  return -1;
}

/* ---- seeds and random numbers ---- */

uint64_t gcol_test_seed(void) {
  static uint64_t seed = 0;
  static bool initialized = false;
  if (!initialized) {
    const char *env = getenv("GCOL_TEST_SEED");
    seed = env != NULL ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
    initialized = true;
    printf("# seed: %llu (replay with GCOL_TEST_SEED=%llu)\n", (unsigned long long)seed,
           (unsigned long long)seed);
  }
  return seed;
}

gcol_test_rng gcol_test_rng_make(uint64_t salt) {
  gcol_test_rng rng;
  rng.state = gcol_test_seed() ^ (salt * 0xD1B54A32D192ED03ull);
  return rng;
}

uint64_t gcol_test_rng_next(gcol_test_rng *rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int64_t gcol_test_rng_range(gcol_test_rng *rng, int64_t lo, int64_t hi) {
  uint64_t const span = (uint64_t)hi - (uint64_t)lo + 1;
  if (span == 0) return (int64_t)gcol_test_rng_next(rng); /* the full 64-bit range */
  return (int64_t)((uint64_t)lo + gcol_test_rng_next(rng) % span);
}

double gcol_test_rng_double(gcol_test_rng *rng) {
  return (double)(gcol_test_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

void gcol_test_rng_fill(gcol_test_rng *rng, void *bytes, size_t size) {
  unsigned char *p = (unsigned char *)bytes;
  for (size_t i = 0; i < size; i += 8) {
    uint64_t const r = gcol_test_rng_next(rng);
    size_t const n = size - i < 8 ? size - i : 8;
    memcpy(p + i, &r, n);
  }
}

void gcol_test_fill_valid(gcol_test_rng *rng, gcol_test_validity pattern, uint8_t *valid,
                          int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    switch (pattern) {
      case GCOL_TEST_RANDOM_NULLS:
        valid[i] = gcol_test_rng_next(rng) % 3 != 0;
        break;
      case GCOL_TEST_FIRST_NULL:
        valid[i] = i != 0;
        break;
      case GCOL_TEST_LAST_NULL:
        valid[i] = i != n - 1;
        break;
      case GCOL_TEST_ALL_NULL:
        valid[i] = 0;
        break;
      default:
        valid[i] = 1;
        break;
    }
  }
}

const char *gcol_test_validity_name(gcol_test_validity pattern) {
  static const char *const names[] = {"no mask",    "all valid", "random nulls",
                                      "first null", "last null", "all null"};
  return (int)pattern >= 0 && pattern < GCOL_TEST_NUM_VALIDITY ? names[pattern] : "unknown";
}

static const int64_t every_size[] = {0,  1,   2,   7,   8,   9,   31,  32,   33,   63,    64,
                                     65, 127, 128, 129, 255, 256, 257, 1000, 4097, 65537, 100003};
/* Sizes that end inside a byte, inside and at the end of a mask word, past a warp and past
 * a block, for the tools whose findings depend on such shapes rather than on every size
 * (initcheck, synccheck, racecheck: scripts/gpu-check); memcheck keeps every size. */
static const int64_t sparse_sizes[] = {0,   1,   7,    33,   64,    129,
                                       257, 1000, 4097, 65537, 100003};
const int64_t *gcol_test_sizes = every_size;
size_t gcol_test_num_sizes = sizeof every_size / sizeof every_size[0];

int64_t gcol_test_cap(int64_t n) {
  const char *env = getenv("GCOL_TEST_MAX_SIZE");
  if (env == NULL) return n;
  int64_t const max = strtoll(env, NULL, 10);
  return max > 0 && max < n ? max : n;
}

static bool sparse_mode = false; /* GCOL_TEST_SIZES=sparse */

bool gcol_test_keep_combination(size_t i) { return !sparse_mode || i % 2 == 0; }

int64_t gcol_test_if_sparse(int64_t full, int64_t under_tools) {
  return sparse_mode ? under_tools : full;
}

/* Applies GCOL_TEST_SIZES=sparse and GCOL_TEST_MAX_SIZE to the size list. */
static void limit_sizes(void) {
  const char *sparse = getenv("GCOL_TEST_SIZES");
  if (sparse != NULL && strcmp(sparse, "sparse") == 0) {
    sparse_mode = true;
    gcol_test_sizes = sparse_sizes;
    gcol_test_num_sizes = sizeof sparse_sizes / sizeof sparse_sizes[0];
    printf("# GCOL_TEST_SIZES=sparse: %zu sizes\n", gcol_test_num_sizes);
  }
  const char *env = getenv("GCOL_TEST_MAX_SIZE");
  if (env == NULL) return;
  int64_t const max = strtoll(env, NULL, 10);
  size_t n = 0;
  while (n < gcol_test_num_sizes && gcol_test_sizes[n] <= max) ++n;
  gcol_test_num_sizes = n;
  printf("# GCOL_TEST_MAX_SIZE=%lld: sizes up to %lld\n", (long long)max,
         (long long)(n > 0 ? gcol_test_sizes[n - 1] : 0));
}
const int64_t gcol_test_offsets[] = {0, 1, 3, 5, 7, 31, 33, 63, 65};
const size_t gcol_test_num_offsets = sizeof gcol_test_offsets / sizeof gcol_test_offsets[0];
