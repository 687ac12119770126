/*
 * GPU tests of the spill manager (gcol/spill.h): a chain of sort, filter, join and groupby
 * over data three times a 64 MiB device cap completes with spilling on (through the spill
 * resource, and through the manager's device limit) and equals both a host reference and
 * the run without a cap, while with spilling off it fails cleanly with out of memory; scopes
 * pin (nothing spills under them), views outside scopes expose, a spill waits for the work
 * on the buffer's stream, host allocation failures while spilling and device failures while
 * bringing back lose and leak nothing, and threads on their own streams spill and bring back
 * at once. The bookkeeping alone is tested on the CPU by tests/spill/test_spill_host.c.
 */
#include <cuda_runtime_api.h>
#include <pthread.h>

#include "test_util.h"

#define MiB ((size_t)1 << 20)

/* ---- the manager around a test ---- */

static gcol_spill_statistics stats_now(void) {
  gcol_spill_statistics s;
  GCOL_TEST_OK(gcol_spill_statistics_get(&s));
  return s;
}

static void enable(size_t device_limit, gcol_mr *host_mr) {
  gcol_spill_options options;
  gcol_spill_options_init(&options);
  options.device_limit = device_limit;
  options.host_mr = host_mr;
  GCOL_TEST_OK(gcol_spill_enable(&options));
}

/* An INT64 column of `n` rows, row i = first + 7 i (never all zero). */
static gcol_column *iota_column(int64_t n, int64_t first, gcol_stream stream) {
  int64_t *values = (int64_t *)malloc(sizeof *values * (size_t)n);
  for (int64_t i = 0; i < n; ++i) values[i] = first + 7 * i;
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, values, NULL,
                                            stream, NULL, &col));
  free(values);
  return col;
}

/* Checks an iota column's rows through a view taken in a scope (so nothing is exposed). */
static void assert_iota(const gcol_column *col, int64_t first, gcol_stream stream) {
  int64_t const n = col->size;
  int64_t *got = (int64_t *)malloc(sizeof *got * (size_t)n);
  gcol_spill_scope *scope = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_acquire_view(col, stream, &v));
  GCOL_TEST_OK(gcol_column_copy_to_host(v, got, NULL, stream));
  GCOL_TEST_OK(gcol_spill_scope_end(scope, stream));
  for (int64_t i = 0; i < n; ++i) {
    if (got[i] != first + 7 * i)
      fail_msg("row %lld is %lld, not %lld", (long long)i, (long long)got[i],
               (long long)(first + 7 * i));
  }
  free(got);
}

/* ---- the workload: 24 chunks of (key, value) rows, three times the cap in all ---- */

#define CHUNKS 24
/* 2^19 rows: 8 MiB a chunk, 192 MiB in all, a 64 MiB cap. Under the sanitizers
 * (GCOL_TEST_MAX_SIZE) 2^16 rows: 24 MiB in all, an 8 MiB cap, the same proportions. */
#define CHUNK_ROWS chunk_rows()
#define GROUPS 4096
#define THRESHOLD 600000
#define CAP ((size_t)CHUNKS * (size_t)CHUNK_ROWS * 16 / 3)

static int64_t chunk_rows(void) {
  static int64_t rows = 0; /* read once: the loops below ask for it per row */
  if (rows == 0) {
    int64_t const capped = gcol_test_cap((int64_t)1 << 19);
    rows = capped > ((int64_t)1 << 16) ? capped : (int64_t)1 << 16;
  }
  return rows;
}

typedef struct workload {
  int64_t *keys[CHUNKS];
  int64_t *values[CHUNKS];
  int64_t dim_keys[GROUPS];
  int64_t dim_weights[GROUPS];
  int64_t dim_rows;
} workload;

/* Per key: sum of the kept values, of the joined weights, and the count of kept rows. */
typedef struct totals {
  int64_t sum_value[GROUPS];
  int64_t sum_weight[GROUPS];
  int64_t count[GROUPS];
} totals;

static workload *workload_make(void) {
  workload *w = (workload *)calloc(1, sizeof *w);
  gcol_test_rng rng = gcol_test_rng_make(1601);
  for (int c = 0; c < CHUNKS; ++c) {
    w->keys[c] = (int64_t *)malloc(sizeof(int64_t) * (size_t)CHUNK_ROWS);
    w->values[c] = (int64_t *)malloc(sizeof(int64_t) * (size_t)CHUNK_ROWS);
    for (int64_t i = 0; i < CHUNK_ROWS; ++i) {
      w->keys[c][i] = gcol_test_rng_range(&rng, 0, GROUPS - 1);
      w->values[c][i] = gcol_test_rng_range(&rng, 1, 999999);
    }
  }
  /* The dimension: every key but the multiples of 7 (so the inner join drops rows). */
  for (int64_t k = 0; k < GROUPS; ++k) {
    if (k % 7 == 0) continue;
    w->dim_keys[w->dim_rows] = k;
    w->dim_weights[w->dim_rows] = 3 * k + 1;
    ++w->dim_rows;
  }
  return w;
}

static void workload_free(workload *w) {
  for (int c = 0; c < CHUNKS; ++c) {
    free(w->keys[c]);
    free(w->values[c]);
  }
  free(w);
}

static void reference(const workload *w, totals *out) {
  memset(out, 0, sizeof *out);
  for (int c = 0; c < CHUNKS; ++c) {
    for (int64_t i = 0; i < CHUNK_ROWS; ++i) {
      int64_t const k = w->keys[c][i], v = w->values[c][i];
      if (v >= THRESHOLD || k % 7 == 0) continue;
      out->sum_value[k] += v;
      out->sum_weight[k] += 3 * k + 1;
      out->count[k] += 1;
    }
  }
}

static gcol_status two_column_table(int64_t n, const int64_t *a, const int64_t *b,
                                    gcol_table **out) {
  gcol_column *cols[2] = {NULL, NULL};
  gcol_data_type const i64 = gcol_data_type_make(GCOL_INT64);
  gcol_status status = gcol_column_create_from_host(i64, n, a, NULL, NULL, NULL, &cols[0]);
  if (status == GCOL_OK)
    status = gcol_column_create_from_host(i64, n, b, NULL, NULL, NULL, &cols[1]);
  if (status == GCOL_OK) status = gcol_table_make(cols, 2, out);
  if (status != GCOL_OK) {
    gcol_column_free(cols[0]);
    gcol_column_free(cols[1]);
  }
  return status;
}

/* One step of the chain over a chunk: `input` in, a new table out. */
typedef gcol_status (*step_fn)(gcol_table_view input, gcol_table_view dim, gcol_table **out);

static gcol_status sort_step(gcol_table_view input, gcol_table_view dim, gcol_table **out) {
  (void)dim;
  int32_t const key = 0;
  gcol_column_view storage[1];
  gcol_table_view keys;
  gcol_status status = gcol_table_view_select(input, &key, 1, storage, &keys);
  if (status != GCOL_OK) return status;
  return gcol_stable_sort_by_key(input, keys, NULL, NULL, out, NULL, NULL);
}

static gcol_status filter_step(gcol_table_view input, gcol_table_view dim, gcol_table **out) {
  (void)dim;
  gcol_scalar *threshold = NULL;
  gcol_column *mask = NULL;
  gcol_status status =
      gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), THRESHOLD, &threshold);
  if (status == GCOL_OK) {
    status =
        gcol_binary_operation_column_scalar(input.columns[1], threshold, GCOL_BINARY_LESS,
                                            gcol_data_type_make(GCOL_BOOL8), &mask, NULL, NULL);
  }
  gcol_column_view mask_view;
  if (status == GCOL_OK) status = gcol_column_acquire_view(mask, NULL, &mask_view);
  if (status == GCOL_OK) status = gcol_apply_boolean_mask(input, mask_view, out, NULL, NULL);
  gcol_column_free(mask);
  gcol_scalar_free(threshold);
  return status;
}

static gcol_status join_step(gcol_table_view input, gcol_table_view dim, gcol_table **out) {
  int32_t const on = 0;
  return gcol_join_tables(input, &on, dim, &on, 1, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, true, out,
                          NULL, NULL);
}

/* Runs a step in a scope (its views pinned) and replaces *table by the result. */
static gcol_status run_step(step_fn fn, gcol_table **table, const gcol_table *dim) {
  gcol_spill_scope *scope = NULL;
  gcol_table_view in, dv;
  gcol_table *out = NULL;
  memset(&dv, 0, sizeof dv);
  gcol_status status = gcol_spill_scope_begin(&scope);
  if (status != GCOL_OK) return status;
  status = gcol_table_acquire_view(*table, NULL, &in);
  if (status == GCOL_OK && dim != NULL) status = gcol_table_acquire_view(dim, NULL, &dv);
  if (status == GCOL_OK) status = fn(in, dv, &out);
  gcol_status const ended = gcol_spill_scope_end(scope, NULL);
  if (status == GCOL_OK) status = ended;
  if (status != GCOL_OK) {
    gcol_table_free(out);
    return status;
  }
  gcol_table_free(*table);
  *table = out;
  return GCOL_OK;
}

/* Copies one result column (INT64) to the host, in a scope. */
static gcol_status column_to_host(const gcol_column *col, int64_t *out) {
  gcol_spill_scope *scope = NULL;
  gcol_column_view v;
  gcol_status status = gcol_spill_scope_begin(&scope);
  if (status != GCOL_OK) return status;
  status = gcol_column_acquire_view(col, NULL, &v);
  if (status == GCOL_OK && v.type.id != GCOL_INT64) status = GCOL_ERROR_TYPE_MISMATCH;
  if (status == GCOL_OK) status = gcol_column_copy_to_host(v, out, NULL, NULL);
  gcol_status const ended = gcol_spill_scope_end(scope, NULL);
  return status != GCOL_OK ? status : ended;
}

/* Groups a joined chunk (key, value, weight) by key and adds its sums into `totals`. */
static gcol_status groupby_into(const gcol_table *table, totals *sums) {
  gcol_groupby_agg const value_aggs[2] = {gcol_groupby_agg_make(GCOL_GROUPBY_SUM),
                                          gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_ALL)};
  gcol_groupby_agg const weight_aggs[1] = {gcol_groupby_agg_make(GCOL_GROUPBY_SUM)};
  gcol_groupby_options const options = {false, true};
  gcol_groupby_result *res = NULL;
  gcol_spill_scope *scope = NULL;
  gcol_table_view v;
  int64_t *host = (int64_t *)malloc(sizeof(int64_t) * 4 * GROUPS);
  gcol_status status = host != NULL ? gcol_spill_scope_begin(&scope) : GCOL_ERROR_OUT_OF_MEMORY;
  if (status != GCOL_OK) goto done;
  status = gcol_table_acquire_view(table, NULL, &v);
  if (status == GCOL_OK) {
    int32_t const key = 0;
    gcol_column_view storage[1];
    gcol_table_view keys;
    gcol_groupby_request const requests[2] = {{v.columns[1], value_aggs, 2},
                                              {v.columns[2], weight_aggs, 1}};
    status = gcol_table_view_select(v, &key, 1, storage, &keys);
    if (status == GCOL_OK)
      status = gcol_groupby_aggregate(keys, requests, 2, &options, &res, NULL, NULL);
  }
  gcol_status const ended = gcol_spill_scope_end(scope, NULL);
  if (status == GCOL_OK) status = ended;
  if (status != GCOL_OK) goto done;
  int64_t const groups = res->keys->num_rows;
  status = groups <= GROUPS ? column_to_host(res->keys->columns[0], host) : GCOL_ERROR_OVERFLOW;
  for (int i = 0; i < 3 && status == GCOL_OK; ++i) {
    status = column_to_host(res->columns[i], host + (i + 1) * GROUPS);
  }
  for (int64_t g = 0; status == GCOL_OK && g < groups; ++g) {
    int64_t const k = host[g];
    if (k < 0 || k >= GROUPS) {
      status = GCOL_ERROR_INTERNAL;
      break;
    }
    sums->sum_value[k] += host[GROUPS + g];
    sums->count[k] += host[2 * GROUPS + g];
    sums->sum_weight[k] += host[3 * GROUPS + g];
  }
done:
  gcol_groupby_result_free(res);
  free(host);
  return status;
}

/* Loads the chunks (192 MiB), then sorts, filters and joins each, then groups each into
 * `out`. Every intermediate stays alive until the next step replaces it, so the device
 * holds far more than the cap along the way. */
static gcol_status run_chain(const workload *w, totals *out) {
  gcol_table *chunks[CHUNKS] = {NULL};
  gcol_table *dim = NULL;
  step_fn const steps[3] = {sort_step, filter_step, join_step};
  memset(out, 0, sizeof *out);
  gcol_status status = two_column_table(w->dim_rows, w->dim_keys, w->dim_weights, &dim);
  for (int c = 0; status == GCOL_OK && c < CHUNKS; ++c) {
    status = two_column_table(CHUNK_ROWS, w->keys[c], w->values[c], &chunks[c]);
  }
  for (int s = 0; s < 3; ++s) {
    for (int c = 0; status == GCOL_OK && c < CHUNKS; ++c) {
      status = run_step(steps[s], &chunks[c], s == 2 ? dim : NULL);
    }
  }
  for (int c = 0; status == GCOL_OK && c < CHUNKS; ++c) status = groupby_into(chunks[c], out);
  for (int c = 0; c < CHUNKS; ++c) gcol_table_free(chunks[c]);
  gcol_table_free(dim);
  return status;
}

static void assert_totals_equal(const totals *got, const totals *want, const char *what) {
  for (int64_t k = 0; k < GROUPS; ++k) {
    if (got->sum_value[k] != want->sum_value[k] || got->count[k] != want->count[k] ||
        got->sum_weight[k] != want->sum_weight[k])
      fail_msg("%s: key %lld: sum %lld count %lld weight %lld, expected %lld %lld %lld", what,
               (long long)k, (long long)got->sum_value[k], (long long)got->count[k],
               (long long)got->sum_weight[k], (long long)want->sum_value[k],
               (long long)want->count[k], (long long)want->sum_weight[k]);
  }
}

static void a_chain_three_times_the_device_cap_completes_with_spilling(void **state) {
  (void)state;
  workload *w = workload_make();
  totals *want = (totals *)malloc(sizeof *want);
  totals *got = (totals *)malloc(sizeof *got);
  reference(w, want);
  /* without any cap or spilling: the plain result (not under the tools: the spilling runs
   * below run the same kernels on the same chunks and are checked against the same totals) */
  if (gcol_test_if_sparse(1, 0)) {
    GCOL_TEST_OK(run_chain(w, got));
    assert_totals_equal(got, want, "no cap");
  }
  /* under a 64 MiB cap, the spill resource spills on out of memory and retries */
  gcol_mr *limit = NULL, *spill = NULL;
  GCOL_TEST_OK(gcol_mr_limit_create(gcol_test_stats_mr(), CAP, &limit));
  GCOL_TEST_OK(gcol_mr_spill_create(limit, &spill));
  GCOL_TEST_OK(gcol_mr_set_default(spill, NULL));
  enable(0, NULL);
  gcol_spill_statistics const before = stats_now();
  GCOL_TEST_OK(run_chain(w, got));
  assert_totals_equal(got, want, "spilling under a 64 MiB cap");
  gcol_spill_statistics after = stats_now();
  assert_true(after.spills > before.spills);
  assert_true(after.unspills > before.unspills);
  /* everything past the cap spilled at least once while loading */
  assert_true(after.spilled_bytes - before.spilled_bytes >= 2 * CAP);
  assert_int_equal(after.failed_spills, before.failed_spills);
  assert_int_equal(after.host_bytes, 0);
  assert_int_equal(after.buffers, before.buffers);
  /* with spilling off, the same chain fails cleanly at the cap and leaks nothing */
  GCOL_TEST_OK(gcol_spill_disable());
  GCOL_TEST_STATUS(run_chain(w, got), GCOL_ERROR_OUT_OF_MEMORY);
  assert_int_equal(gcol_test_live_bytes(), 0);
  GCOL_TEST_OK(gcol_mr_set_default(gcol_test_stats_mr(), NULL));
  gcol_mr_destroy(spill);
  gcol_mr_destroy(limit);
  /* the manager's own device limit, without a cap: the same result, spilled on the way */
  enable(CAP, NULL);
  gcol_spill_statistics const soft = stats_now();
  GCOL_TEST_OK(run_chain(w, got));
  assert_totals_equal(got, want, "spilling at a 64 MiB device limit");
  after = stats_now();
  assert_true(after.spills > soft.spills);
  assert_int_equal(after.host_bytes, 0);
  GCOL_TEST_OK(gcol_spill_disable());
  free(want);
  free(got);
  workload_free(w);
}

/* ---- pinning, exposure, streams ---- */

static void nothing_spills_while_a_scope_pins_it(void **state) {
  (void)state;
  enable(0, NULL);
  int64_t const n = 1 << 20;
  gcol_column *cols[4];
  for (int i = 0; i < 4; ++i) cols[i] = iota_column(n, 1000 * i + 1, NULL);
  gcol_spill_scope *scope = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
  gcol_column_view pinned[2];
  GCOL_TEST_OK(gcol_column_acquire_view(cols[0], NULL, &pinned[0]));
  pinned[1] = gcol_column_get_view(cols[2]);
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 2 * (size_t)n * 8);
  assert_false(gcol_buffer_is_spilled(cols[0]->data));
  assert_true(gcol_buffer_is_spilled(cols[1]->data));
  assert_false(gcol_buffer_is_spilled(cols[2]->data));
  assert_true(gcol_buffer_is_spilled(cols[3]->data));
  /* the pinned views are still good: their memory never moved */
  int64_t *got = (int64_t *)malloc(sizeof *got * (size_t)n);
  GCOL_TEST_OK(gcol_column_copy_to_host(pinned[0], got, NULL, NULL));
  assert_int_equal(got[n - 1], 1 + 7 * (n - 1));
  GCOL_TEST_OK(gcol_column_copy_to_host(pinned[1], got, NULL, NULL));
  assert_int_equal(got[n - 1], 2001 + 7 * (n - 1));
  free(got);
  GCOL_TEST_OK(gcol_spill_scope_end(scope, NULL));
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 2 * (size_t)n * 8);
  for (int i = 0; i < 4; ++i) assert_iota(cols[i], 1000 * i + 1, NULL);
  for (int i = 0; i < 4; ++i) gcol_column_free(cols[i]);
  assert_int_equal(stats_now().host_bytes, 0);
  GCOL_TEST_OK(gcol_spill_disable());
}

static void views_outside_scopes_expose_for_good(void **state) {
  (void)state;
  enable(0, NULL);
  int64_t const n = 100000;
  gcol_column *a = iota_column(n, 5, NULL), *b = iota_column(n, 9, NULL);
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_true(gcol_buffer_is_spilled(a->data));
  gcol_spill_statistics const before = stats_now();
  gcol_buffer_statistics cow0, cow1;
  gcol_buffer_statistics_get(&cow0);
  gcol_column_view const va = gcol_column_get_view(a); /* back, exposed: no copy on write */
  void *raw = NULL;
  GCOL_TEST_OK(gcol_buffer_expose(b->data, NULL, &raw)); /* a raw pointer: exposed */
  gcol_buffer_statistics_get(&cow1);
  assert_int_equal(cow1.write_copies, cow0.write_copies);
  assert_int_equal(stats_now().exposed - before.exposed, 2);
  assert_int_equal(stats_now().exposed_bytes - before.exposed_bytes, 2 * n * 8);
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 0);
  assert_false(gcol_buffer_is_spillable(a->data));
  assert_false(gcol_buffer_is_spilled(b->data));
  /* the pointers stay valid: write through one behind gcol's back, read both */
  assert_int_equal(cudaMemsetAsync(raw, 0x11, (size_t)n * 8, NULL), cudaSuccess);
  int64_t *got = (int64_t *)malloc(sizeof *got * (size_t)n);
  GCOL_TEST_OK(gcol_column_copy_to_host(va, got, NULL, NULL));
  assert_int_equal(got[n - 1], 5 + 7 * (n - 1));
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(b), got, NULL, NULL));
  assert_int_equal(got[0], 0x1111111111111111ll);
  free(got);
  gcol_column_free(a);
  gcol_column_free(b);
  GCOL_TEST_OK(gcol_spill_disable());
}

/* A spill waits for the work on the buffer's stream: a fill still running is copied out
 * whole. */
static void a_spill_waits_for_the_buffers_stream(void **state) {
  (void)state;
  enable(0, NULL);
  cudaStream_t stream = NULL;
  assert_int_equal(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  gcol_stream const s = (gcol_stream)stream;
  int64_t const n = gcol_test_cap(16 << 20); /* 128 MiB: the fill takes a while */
  gcol_column *col = NULL;
  GCOL_TEST_OK(
      gcol_column_create(gcol_data_type_make(GCOL_INT64), n, GCOL_MASK_UNALLOCATED, s, NULL, &col));
  for (int round = 0; round < 3; ++round) {
    gcol_scalar *value = NULL;
    GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), 424242 + round, &value));
    gcol_spill_scope *scope = NULL;
    GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
    GCOL_TEST_OK(gcol_fill_in_place(col, 0, n, value, s));
    gcol_scalar_free(value);
    GCOL_TEST_OK(gcol_spill_scope_end(scope, s)); /* no wait here: the fill may still run */
    size_t spilled = 0;
    GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
    assert_true(gcol_buffer_is_spilled(col->data));
    int64_t *got = (int64_t *)malloc(sizeof *got * (size_t)n);
    GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
    gcol_column_view v;
    GCOL_TEST_OK(gcol_column_acquire_view(col, s, &v));
    GCOL_TEST_OK(gcol_column_copy_to_host(v, got, NULL, s));
    GCOL_TEST_OK(gcol_spill_scope_end(scope, s));
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) bad += got[i] != 424242 + round;
    free(got);
    if (bad != 0) fail_msg("round %d: %lld rows not filled when spilled", round, (long long)bad);
  }
  gcol_column_free(col);
  assert_int_equal(cudaStreamSynchronize(stream), cudaSuccess);
  assert_int_equal(cudaStreamDestroy(stream), cudaSuccess);
  GCOL_TEST_OK(gcol_spill_disable());
}

/* ---- faults ---- */

static void host_allocation_failure_while_spilling_keeps_the_buffer(void **state) {
  (void)state;
  gcol_mr *pinned = NULL, *failing = NULL;
  GCOL_TEST_OK(gcol_mr_pinned_create(&pinned));
  GCOL_TEST_OK(gcol_mr_fail_nth_create(pinned, 2, &failing));
  enable(0, failing);
  gcol_column *a = iota_column(50000, 3, NULL), *b = iota_column(50000, 4, NULL);
  gcol_spill_statistics const before = stats_now();
  int64_t const live = gcol_test_live_bytes();
  size_t spilled = 0;
  GCOL_TEST_STATUS(gcol_spill_now(SIZE_MAX, &spilled), GCOL_ERROR_OUT_OF_MEMORY);
  assert_int_equal(spilled, 50000 * 8); /* a went; b's host allocation failed */
  assert_true(gcol_buffer_is_spilled(a->data));
  assert_false(gcol_buffer_is_spilled(b->data));
  assert_true(gcol_buffer_is_spillable(b->data));
  assert_int_equal(stats_now().failed_spills - before.failed_spills, 1);
  assert_int_equal(gcol_test_live_bytes(), live - 50000 * 8);
  assert_iota(a, 3, NULL);
  assert_iota(b, 4, NULL);
  gcol_column_free(a);
  gcol_column_free(b);
  assert_int_equal(stats_now().host_bytes, 0);
  GCOL_TEST_OK(gcol_spill_disable());
  gcol_mr_destroy(failing);
  gcol_mr_destroy(pinned);
}

static void device_failure_while_bringing_back_loses_nothing(void **state) {
  (void)state;
  enable(0, NULL);
  gcol_mr *failing = NULL;
  /* request 1 makes the column's data, request 2 is its way back */
  GCOL_TEST_OK(gcol_mr_fail_nth_create(gcol_test_stats_mr(), 2, &failing));
  int64_t values[1000];
  for (int i = 0; i < 1000; ++i) values[i] = 11 * i + 2;
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 1000, values, NULL,
                                            NULL, failing, &col));
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(gcol_test_live_bytes(), 0);
  gcol_spill_statistics const before = stats_now();
  gcol_spill_scope *scope = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
  gcol_column_view v;
  GCOL_TEST_STATUS(gcol_column_acquire_view(col, NULL, &v), GCOL_ERROR_OUT_OF_MEMORY);
  assert_non_null(strstr(gcol_last_error(), "stays in host memory"));
  assert_null(v.data);
  assert_true(gcol_buffer_is_spilled(col->data));
  assert_int_equal(stats_now().failed_unspills - before.failed_unspills, 1);
  assert_int_equal(gcol_test_live_bytes(), 0);
  /* the next try works and every value is there */
  GCOL_TEST_OK(gcol_column_acquire_view(col, NULL, &v));
  int64_t got[1000];
  GCOL_TEST_OK(gcol_column_copy_to_host(v, got, NULL, NULL));
  assert_memory_equal(got, values, sizeof values);
  GCOL_TEST_OK(gcol_spill_scope_end(scope, NULL));
  gcol_column_free(col);
  assert_int_equal(stats_now().host_bytes, 0);
  gcol_mr_destroy(failing);
  GCOL_TEST_OK(gcol_spill_disable());
}

/* ---- threads ---- */

#define NUM_THREADS 4
#define THREAD_COLUMNS 8
#define THREAD_ROWS ((int64_t)1 << 17) /* 1 MiB per column */

typedef struct thread_ctx {
  int id;
  gcol_status status;
  int64_t bad_rows;
} thread_ctx;

/* Makes columns on its own stream (a device limit spills others' as it goes), then reads
 * each back in a scope, twice, with explicit spills in between. */
static void *thread_main(void *arg) {
  thread_ctx *ctx = (thread_ctx *)arg;
  cudaStream_t stream = NULL;
  gcol_column *cols[THREAD_COLUMNS] = {NULL};
  int64_t *values = (int64_t *)malloc(sizeof *values * (size_t)THREAD_ROWS);
  int64_t *got = (int64_t *)malloc(sizeof *got * (size_t)THREAD_ROWS);
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    ctx->status = GCOL_ERROR_CUDA;
    goto done;
  }
  gcol_stream const s = (gcol_stream)stream;
  for (int c = 0; c < THREAD_COLUMNS && ctx->status == GCOL_OK; ++c) {
    for (int64_t i = 0; i < THREAD_ROWS; ++i) values[i] = (ctx->id * 100 + c) * 1000003ll + i;
    ctx->status = gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), THREAD_ROWS, values,
                                               NULL, s, NULL, &cols[c]);
  }
  for (int round = 0; round < 2 && ctx->status == GCOL_OK; ++round) {
    size_t spilled = 0;
    ctx->status = gcol_spill_now(4 * MiB, &spilled);
    for (int c = 0; c < THREAD_COLUMNS && ctx->status == GCOL_OK; ++c) {
      gcol_spill_scope *scope = NULL;
      gcol_column_view v;
      ctx->status = gcol_spill_scope_begin(&scope);
      if (ctx->status != GCOL_OK) break;
      ctx->status = gcol_column_acquire_view(cols[c], s, &v);
      if (ctx->status == GCOL_OK) ctx->status = gcol_column_copy_to_host(v, got, NULL, s);
      gcol_status const ended = gcol_spill_scope_end(scope, s);
      if (ctx->status == GCOL_OK) ctx->status = ended;
      for (int64_t i = 0; ctx->status == GCOL_OK && i < THREAD_ROWS; ++i) {
        ctx->bad_rows += got[i] != (ctx->id * 100 + c) * 1000003ll + i;
      }
    }
  }
done:
  for (int c = 0; c < THREAD_COLUMNS; ++c) gcol_column_free(cols[c]);
  if (stream != NULL) {
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
  }
  free(values);
  free(got);
  return NULL;
}

static void threads_spill_and_bring_back_on_their_streams(void **state) {
  (void)state;
  enable(6 * MiB, NULL); /* far below the 32 MiB the threads make */
  gcol_spill_statistics const before = stats_now();
  pthread_t threads[NUM_THREADS];
  thread_ctx ctx[NUM_THREADS];
  for (int t = 0; t < NUM_THREADS; ++t) {
    ctx[t] = (thread_ctx){t, GCOL_OK, 0};
    assert_int_equal(pthread_create(&threads[t], NULL, thread_main, &ctx[t]), 0);
  }
  for (int t = 0; t < NUM_THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  for (int t = 0; t < NUM_THREADS; ++t) {
    if (ctx[t].status != GCOL_OK) fail_msg("thread %d: %s", t, gcol_status_string(ctx[t].status));
    if (ctx[t].bad_rows != 0) fail_msg("thread %d: %lld wrong rows", t, (long long)ctx[t].bad_rows);
  }
  gcol_spill_statistics const after = stats_now();
  /* 32 MiB made under a 6 MiB limit: most columns spilled at least once, and came back */
  assert_true(after.spills - before.spills >= NUM_THREADS * THREAD_COLUMNS / 2);
  assert_true(after.unspills - before.unspills >= NUM_THREADS * THREAD_COLUMNS / 2);
  assert_int_equal(after.host_bytes, 0);
  assert_int_equal(after.buffers, before.buffers);
  GCOL_TEST_OK(gcol_spill_disable());
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(a_chain_three_times_the_device_cap_completes_with_spilling),
      GCOL_TEST_GPU(nothing_spills_while_a_scope_pins_it),
      GCOL_TEST_GPU(views_outside_scopes_expose_for_good),
      GCOL_TEST_GPU(a_spill_waits_for_the_buffers_stream),
      GCOL_TEST_GPU(host_allocation_failure_while_spilling_keeps_the_buffer),
      GCOL_TEST_GPU(device_failure_while_bringing_back_loses_nothing),
      GCOL_TEST_GPU(threads_spill_and_bring_back_on_their_streams),
  };
  return GCOL_TEST_RUN_GPU("spill", tests);
}
