/*
 * Test support shared by every suite: cmocka set-up with TAP output, GPU detection and
 * SKIP, seeded random generators (GCOL_TEST_SEED replays a run), a statistics memory
 * resource installed as the default around every test to catch leaks, the standard input
 * axes of TESTING.md, and logical column comparison.
 */
#ifndef GCOL_TEST_UTIL_H
#define GCOL_TEST_UTIL_H

/* cmocka needs these first; it declares nothing extern "C" itself (for .cu tests). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
#include <cmocka.h>
#ifdef __cplusplus
}
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fails the test with the status name and gcol's message unless expr gives GCOL_OK. */
#define GCOL_TEST_OK(expr)                                                               \
  do {                                                                                   \
    gcol_status gcol_test_st = (expr);                                                   \
    if (gcol_test_st != GCOL_OK)                                                         \
      fail_msg("%s -> %s: %s", #expr, gcol_status_string(gcol_test_st), gcol_last_error()); \
  } while (0)

/* Fails unless expr gives exactly `expected`, and the message is not empty. */
#define GCOL_TEST_STATUS(expr, expected)                                                 \
  do {                                                                                   \
    gcol_status gcol_test_st = (expr);                                                   \
    if (gcol_test_st != (expected))                                                      \
      fail_msg("%s -> %s, expected %s (%s)", #expr, gcol_status_string(gcol_test_st),    \
               gcol_status_string(expected), gcol_last_error());                        \
    if ((expected) != GCOL_OK && gcol_last_error()[0] == '\0')                           \
      fail_msg("%s -> %s without a message", #expr, gcol_status_string(gcol_test_st));   \
  } while (0)

/* True when a CUDA device can be used. */
bool gcol_test_has_device(void);

/* Runs a group with TAP output; host suites. Returns the number of failures. */
int gcol_test_run(const char *name, const struct CMUnitTest *tests, size_t count);

/* As gcol_test_run, but prints "1..0 # SKIP no CUDA device" and returns 0 without one. */
int gcol_test_run_gpu(const char *name, const struct CMUnitTest *tests, size_t count);

#define GCOL_TEST_RUN(name, tests) gcol_test_run((name), (tests), sizeof(tests) / sizeof((tests)[0]))
#define GCOL_TEST_RUN_GPU(name, tests) \
  gcol_test_run_gpu((name), (tests), sizeof(tests) / sizeof((tests)[0]))

/*
 * Per-test set-up and tear-down for GPU tests: installs a statistics resource (over the
 * async resource, or the pass-through cudaMalloc one when GCOL_TEST_MR=cuda, as under
 * compute-sanitizer) as the default, and fails the test if any byte is still allocated
 * through it at the end. Use cmocka_unit_test_setup_teardown(fn, gcol_test_setup,
 * gcol_test_teardown), or GCOL_TEST_GPU(fn).
 */
int gcol_test_setup(void **state);
int gcol_test_teardown(void **state);
#define GCOL_TEST_GPU(fn) cmocka_unit_test_setup_teardown(fn, gcol_test_setup, gcol_test_teardown)

/*
 * A heavy GPU test as several test cases: GCOL_TEST_GPU_PART(fn, k, n) registers part k of n
 * (0 <= k < n <= 8), named fn_k; inside fn, gcol_test_in_part(state, i) is true for the
 * loop iterations i of this part (i % n == k), and always true for a test registered whole.
 * The parts go to different shards (GCOL_TEST_SHARD), so under the sanitizers one test case
 * no longer sets the wall time of the GPU check alone.
 */
extern char gcol_test_part_slots[9][8];
bool gcol_test_in_part(void **state, size_t i);
/* gcol_test_in_part, and under GCOL_TEST_SIZES=sparse (the sanitizers) every other one of the
 * part's iterations: for loops over a test's own size list, which the sparse sizes do not
 * reach. */
bool gcol_test_in_sparse_part(void **state, size_t i);
#define GCOL_TEST_GPU_PART(fn, k, n)                                                  \
  {#fn "_" #k, fn, gcol_test_setup, gcol_test_teardown, &gcol_test_part_slots[n][k]}

/* The statistics resource installed by gcol_test_setup (the default during a test). */
gcol_mr *gcol_test_stats_mr(void);
/* Its upstream (what the statistics resource wraps); use to build fail-on-Nth resources. */
gcol_mr *gcol_test_base_mr(void);
/* Bytes currently allocated through the statistics resource. */
int64_t gcol_test_live_bytes(void);

/*
 * Fault test of TESTING.md: runs op(ctx) with a fail-on-Nth resource (over the statistics
 * resource) as the default, for N = 1, 2, ... until op succeeds. Every failing run must
 * return GCOL_ERROR_OUT_OF_MEMORY and leave the live bytes as before the call; the
 * succeeding run's outputs are freed by cleanup(ctx). Returns the number of allocation
 * points seen (N - 1). op must take its memory from the default resource (mr NULL).
 * GCOL_TEST_FAULTS=sparse (set by scripts/gpu-check for the tools that look at kernels, not
 * at leaks) fails only the first two, the last and about six allocations between.
 */
int gcol_test_check_allocation_failures(gcol_status (*op)(void *ctx), void (*cleanup)(void *ctx),
                                        void *ctx);

/* The run's seed: GCOL_TEST_SEED if set, else from the clock; printed once as "# seed: N". */
uint64_t gcol_test_seed(void);

/* A small deterministic generator (splitmix64). */
typedef struct gcol_test_rng {
  uint64_t state;
} gcol_test_rng;

/* A generator from the run's seed mixed with `salt` (use a different salt per test). */
gcol_test_rng gcol_test_rng_make(uint64_t salt);
uint64_t gcol_test_rng_next(gcol_test_rng *rng);
/* Uniform in [lo, hi] (inclusive). */
int64_t gcol_test_rng_range(gcol_test_rng *rng, int64_t lo, int64_t hi);
/* Uniform in [0, 1). */
double gcol_test_rng_double(gcol_test_rng *rng);
/* Fills `bytes` with random bytes. */
void gcol_test_rng_fill(gcol_test_rng *rng, void *bytes, size_t size);

/* Validity patterns of TESTING.md. */
typedef enum gcol_test_validity {
  GCOL_TEST_NO_MASK = 0,   /* no mask at all: valid pointer NULL */
  GCOL_TEST_ALL_VALID,     /* a mask with no nulls */
  GCOL_TEST_RANDOM_NULLS,  /* about a third null */
  GCOL_TEST_FIRST_NULL,
  GCOL_TEST_LAST_NULL,
  GCOL_TEST_ALL_NULL,
  GCOL_TEST_NUM_VALIDITY
} gcol_test_validity;

/* Fills valid[0..n) by pattern (GCOL_TEST_NO_MASK fills all valid; callers pass NULL). */
void gcol_test_fill_valid(gcol_test_rng *rng, gcol_test_validity pattern, uint8_t *valid,
                          int64_t n);
const char *gcol_test_validity_name(gcol_test_validity pattern);

/* The sizes of TESTING.md (0, 1, 2, 7, ... 129, 255, 256, 257, and a few larger ones),
 * ascending. GCOL_TEST_MAX_SIZE=N (set under compute-sanitizer, which is slow) drops the
 * sizes above N; GCOL_TEST_SIZES=sparse keeps sizes that end in a byte, a mask word, past a
 * warp and past a block (scripts/gpu-check, all tools but memcheck): both apply when the group
 * starts. */
extern const int64_t *gcol_test_sizes;
extern size_t gcol_test_num_sizes;
/* Under GCOL_TEST_SIZES=sparse, true for every other i (pass a sum of a cross product's loop
 * indices, so each value of each loop still runs); otherwise always true. */
bool gcol_test_keep_combination(size_t i);
/* n, or GCOL_TEST_MAX_SIZE where that is smaller: the single large cases of a test run at
 * the capped size under the sanitizers too, so a whole check stays within its time. */
int64_t gcol_test_cap(int64_t n);
/* full, or under_tools under GCOL_TEST_SIZES=sparse (the sanitizers): for a test's own counts
 * whose work grows fast, e.g. the number of rows over 64 KiB, which one thread each walks. */
int64_t gcol_test_if_sparse(int64_t full, int64_t under_tools);
/* Slice offsets: 0, 1, 3, 5, 7, 31, 33, 63, 65. */
extern const int64_t gcol_test_offsets[];
extern const size_t gcol_test_num_offsets;

/*
 * Asserts that a device view equals host expectations logically: same size, same validity
 * per row, same value bytes for valid rows (nulls equal whatever lies under them).
 * `expected_valid` NULL means all valid. Fixed-width types only.
 */
void gcol_test_assert_column_equals_host(gcol_column_view actual, const void *expected,
                                         const uint8_t *expected_valid, int64_t size);

/* Asserts two device views are logically equal (fixed-width, STRING, LIST, STRUCT). */
void gcol_test_assert_columns_equal(gcol_column_view a, gcol_column_view b);

/* Asserts the view's null count (if known) matches its mask, counted on the host. */
void gcol_test_assert_null_count_consistent(gcol_column_view view);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_TEST_UTIL_H */
