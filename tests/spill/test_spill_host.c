/*
 * The spill manager on the CPU: buffers from a host-memory resource stand for device
 * buffers, spilled into another host resource with memcpy (a GCOL_MEMORY_HOST host_mr makes
 * them spillable, gcol/spill.h), so the LRU order, pinning by scopes and by operations,
 * exposure, the device limit, the spill resource, the accounting, copy on write of spilled
 * buffers, failures on both sides and threads are checked without a GPU. Both resources are
 * statistics adaptors: every test ends with nothing allocated on either side.
 * tests/spill/test_spill.c runs the manager on a GPU.
 */
#include <pthread.h>

#include "internal/nvtx.h"
#include "internal/spill.h"
#include "test_util.h"

static gcol_mr *host = NULL;       /* the C heap */
static gcol_mr *device = NULL;     /* statistics: the buffers' "device" memory */
static gcol_mr *spilled_to = NULL; /* statistics: where spilled bytes go */
static gcol_spill_statistics base; /* the manager's counters when the test began */

static int64_t live(gcol_mr *mr) {
  gcol_mr_statistics s;
  GCOL_TEST_OK(gcol_mr_statistics_get(mr, &s));
  return s.current_bytes;
}

static void enable(size_t device_limit, gcol_mr *host_mr) {
  gcol_spill_options options;
  gcol_spill_options_init(&options);
  options.device_limit = device_limit;
  options.host_mr = host_mr;
  GCOL_TEST_OK(gcol_spill_enable(&options));
}

static int setup(void **state) {
  (void)state;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &device));
  GCOL_TEST_OK(gcol_mr_statistics_create(host, &spilled_to));
  enable(0, spilled_to);
  GCOL_TEST_OK(gcol_spill_statistics_get(&base));
  gcol_clear_last_error();
  return 0;
}

static int teardown(void **state) {
  (void)state;
  int64_t const left_device = live(device), left_host = live(spilled_to);
  GCOL_TEST_OK(gcol_spill_disable());
  gcol_spill_statistics now;
  GCOL_TEST_OK(gcol_spill_statistics_get(&now));
  gcol_mr_destroy(device);
  gcol_mr_destroy(spilled_to);
  gcol_mr_destroy(host);
  device = spilled_to = host = NULL;
  if (left_device != 0 || left_host != 0)
    fail_msg("%lld device and %lld host bytes still allocated", (long long)left_device,
             (long long)left_host);
  if (now.buffers != base.buffers || now.host_bytes != 0)
    fail_msg("the manager still counts %lld buffers (%lld before), %lld host bytes",
             (long long)now.buffers, (long long)base.buffers, (long long)now.host_bytes);
  return 0;
}

#define SPILL_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

static gcol_spill_statistics since_base(void) {
  gcol_spill_statistics s;
  GCOL_TEST_OK(gcol_spill_statistics_get(&s));
  s.spills -= base.spills;
  s.spilled_bytes -= base.spilled_bytes;
  s.unspills -= base.unspills;
  s.unspilled_bytes -= base.unspilled_bytes;
  s.exposed -= base.exposed;
  s.failed_spills -= base.failed_spills;
  s.failed_unspills -= base.failed_unspills;
  return s;
}

/* A buffer of `size` bytes, every byte `fill` (written at once: nothing spills between). */
static gcol_buffer *filled(size_t size, int fill, gcol_mr *mr) {
  gcol_buffer *b = NULL;
  GCOL_TEST_OK(gcol_buffer_create(size, NULL, mr, &b));
  memset(b->data, fill, size);
  return b;
}

/* Brings `b` back inside a scope and checks every byte. */
static void assert_bytes(gcol_buffer *b, int fill) {
  gcol_spill_scope *scope = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
  GCOL_TEST_OK(gcol_buffer_make_mutable(b, NULL)); /* not shared: no copy, just back */
  assert_false(gcol_buffer_is_spilled(b));
  const unsigned char *p = (const unsigned char *)b->data;
  for (size_t i = 0; i < b->size; ++i) {
    if (p[i] != (unsigned char)fill) fail_msg("byte %zu is %d, not %d", i, p[i], fill);
  }
  GCOL_TEST_OK(gcol_spill_scope_end(scope, NULL));
}

static void parses_configuration(void **state) {
  (void)state;
  size_t v = 0;
  assert_true(gcol_detail_spill_parse_bytes("0", &v) && v == 0);
  assert_true(gcol_detail_spill_parse_bytes("67108864", &v) && v == 67108864u);
  assert_true(gcol_detail_spill_parse_bytes("64M", &v) && v == 64u << 20);
  assert_true(gcol_detail_spill_parse_bytes("64MiB", &v) && v == 64u << 20);
  assert_true(gcol_detail_spill_parse_bytes("2g", &v) && v == (size_t)2 << 30);
  assert_true(gcol_detail_spill_parse_bytes("3kb", &v) && v == 3072u);
  v = 7;
  assert_false(gcol_detail_spill_parse_bytes("", &v));
  assert_false(gcol_detail_spill_parse_bytes("-1", &v));
  assert_false(gcol_detail_spill_parse_bytes("12x", &v));
  assert_false(gcol_detail_spill_parse_bytes("1MiBs", &v));
  assert_false(gcol_detail_spill_parse_bytes("99999999999999999999", &v));
  assert_false(gcol_detail_spill_parse_bytes("16777216T", &v)); /* 2^64: overflows */
  assert_false(gcol_detail_spill_parse_bytes(NULL, &v));
  assert_int_equal(v, 7); /* untouched on failure */
  assert_int_equal(gcol_detail_spill_parse_switch("on"), 1);
  assert_int_equal(gcol_detail_spill_parse_switch("TRUE"), 1);
  assert_int_equal(gcol_detail_spill_parse_switch("1"), 1);
  assert_int_equal(gcol_detail_spill_parse_switch("Off"), 0);
  assert_int_equal(gcol_detail_spill_parse_switch("no"), 0);
  assert_int_equal(gcol_detail_spill_parse_switch("maybe"), -1);
  assert_int_equal(gcol_detail_spill_parse_switch(NULL), -1);
}

static void checks_its_arguments(void **state) {
  (void)state;
  gcol_mr *spill = (gcol_mr *)&spill; /* not NULL: must be reset */
  GCOL_TEST_STATUS(gcol_mr_spill_create(NULL, &spill), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(spill);
  GCOL_TEST_STATUS(gcol_mr_spill_create(device, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_mr broken = *device;
  broken.deallocate = NULL;
  GCOL_TEST_STATUS(gcol_mr_spill_create(&broken, &spill), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_spill_statistics_get(NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_spill_get_options(NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_column_acquire_view(NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_table_view tv;
  GCOL_TEST_STATUS(gcol_table_acquire_view(NULL, NULL, &tv), GCOL_ERROR_INVALID_ARGUMENT);
  assert_false(gcol_buffer_is_spilled(NULL));
  assert_false(gcol_buffer_is_spillable(NULL));
  size_t spilled = 1;
  GCOL_TEST_OK(gcol_spill_now(0, &spilled));
  assert_int_equal(spilled, 0);
}

static void spills_least_recently_used_first(void **state) {
  (void)state;
  gcol_buffer *b[4];
  for (int i = 0; i < 4; ++i) b[i] = filled(1000, 'a' + i, device);
  assert_true(gcol_buffer_is_spillable(b[0]));
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(1, &spilled));
  assert_int_equal(spilled, 1000);
  assert_true(gcol_buffer_is_spilled(b[0]));
  assert_false(gcol_buffer_is_spilled(b[1]));
  assert_int_equal(live(device), 3000);
  assert_int_equal(live(spilled_to), 1000);
  /* using b[1] (pinned, then unpinned) makes it the most recently used: b[2] goes next */
  assert_bytes(b[1], 'b');
  GCOL_TEST_OK(gcol_spill_now(1, &spilled));
  assert_true(gcol_buffer_is_spilled(b[2]));
  assert_false(gcol_buffer_is_spilled(b[1]));
  gcol_spill_statistics s = since_base();
  assert_int_equal(s.spills, 2);
  assert_int_equal(s.spilled_bytes, 2000);
  assert_int_equal(s.unspills, 0);
  assert_int_equal(s.host_bytes, 2000);
  assert_int_equal(s.spillable_bytes, 2000); /* b[1], b[3] */
  /* bringing back restores every byte */
  assert_bytes(b[0], 'a');
  assert_bytes(b[2], 'c');
  s = since_base();
  assert_int_equal(s.unspills, 2);
  assert_int_equal(s.unspilled_bytes, 2000);
  assert_int_equal(s.host_bytes, 0);
  assert_int_equal(live(spilled_to), 0);
  /* everything at once; freeing a spilled buffer frees its host copy */
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 4000);
  assert_int_equal(live(device), 0);
  for (int i = 0; i < 4; ++i) gcol_buffer_free(b[i]);
  assert_int_equal(live(spilled_to), 0);
}

static void scopes_pin_and_outside_views_expose(void **state) {
  (void)state;
  int64_t values[64];
  for (int i = 0; i < 64; ++i) values[i] = 3 * i + 1;
  gcol_buffer *data = filled(sizeof values, 0, device);
  memcpy(data->data, values, sizeof values);
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT64), 64, data, NULL, 0, NULL, 0, &col));
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_true(gcol_buffer_is_spilled(col->data));
  /* in a scope: back and pinned; nothing spills it until the scope ends */
  gcol_spill_scope *scope = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
  gcol_column_view v;
  GCOL_TEST_OK(gcol_column_acquire_view(col, NULL, &v));
  assert_memory_equal(v.data, values, sizeof values);
  assert_false(gcol_buffer_is_spillable(col->data));
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 0);
  assert_memory_equal(gcol_column_get_view(col).data, values, sizeof values);
  GCOL_TEST_OK(gcol_spill_scope_end(scope, NULL));
  assert_true(gcol_buffer_is_spillable(col->data));
  assert_int_equal(since_base().exposed, 0);
  /* outside any scope: exposed, never spilled again; copy on write does not copy */
  gcol_buffer_statistics cow0, cow1;
  gcol_buffer_statistics_get(&cow0);
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, sizeof values);
  v = gcol_column_get_view(col);
  assert_non_null(v.data);
  assert_memory_equal(v.data, values, sizeof values);
  assert_int_equal(since_base().exposed, 1);
  assert_int_equal(since_base().exposed_bytes, (int64_t)sizeof values);
  assert_false(gcol_buffer_is_spillable(col->data));
  assert_false(gcol_buffer_is_exposed(col->data)); /* the copy-on-write flag: a read */
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 0);
  gcol_buffer_statistics_get(&cow1);
  assert_int_equal(cow1.write_copies, cow0.write_copies);
  gcol_column_free(col);
  assert_int_equal(since_base().exposed_bytes, 0);
}

static void scopes_nest_and_end_in_order(void **state) {
  (void)state;
  gcol_buffer *a = filled(512, 1, device), *b = filled(512, 2, device);
  gcol_spill_scope *outer = NULL, *inner = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&outer));
  GCOL_TEST_OK(gcol_buffer_make_mutable(a, NULL));
  GCOL_TEST_OK(gcol_spill_scope_begin(&inner));
  GCOL_TEST_OK(gcol_buffer_make_mutable(b, NULL));
  GCOL_TEST_OK(gcol_buffer_make_mutable(b, NULL)); /* again: one pin */
  GCOL_TEST_STATUS(gcol_spill_scope_end(outer, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_spill_scope_end(NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_spill_scope_begin(NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_OK(gcol_spill_scope_end(inner, NULL));
  assert_true(gcol_buffer_is_spillable(b));
  assert_false(gcol_buffer_is_spillable(a));
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 512);
  assert_true(gcol_buffer_is_spilled(b));
  assert_false(gcol_buffer_is_spilled(a));
  GCOL_TEST_OK(gcol_spill_scope_end(outer, NULL));
  assert_true(gcol_buffer_is_spillable(a));
  gcol_buffer_free(a);
  gcol_buffer_free(b);
}

/* A buffer freed while a scope pins it lives until the scope ends. */
static void a_pinned_buffer_freed_in_a_scope_goes_at_its_end(void **state) {
  (void)state;
  gcol_buffer *a = filled(2048, 9, device);
  gcol_spill_scope *scope = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
  GCOL_TEST_OK(gcol_buffer_make_mutable(a, NULL));
  gcol_buffer_free(a);
  assert_int_equal(live(device), 2048);
  GCOL_TEST_OK(gcol_spill_scope_end(scope, NULL));
  assert_int_equal(live(device), 0);
}

/* A public operation pins what it makes until it returns; then it may spill. */
static void operations_pin_until_they_return(void **state) {
  (void)state;
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create(gcol_data_type_make(GCOL_INT32), 100, GCOL_MASK_UNALLOCATED, NULL,
                                  device, &col));
  assert_true(gcol_buffer_is_spillable(col->data));
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 400);
  gcol_column_free(col);
  assert_int_equal(live(spilled_to), 0);
}

/* The same through the internal entry points: nested operations pin until the outermost
 * returns, and a temporary freed inside an operation goes at once, not at its end. */
static void operation_pins_end_with_the_outermost_and_drop_freed_temporaries(void **state) {
  (void)state;
  gcol_detail_api_enter("outer");
  gcol_buffer *kept = filled(300, 1, device);
  gcol_buffer *temporary = filled(700, 2, device);
  assert_false(gcol_buffer_is_spillable(kept));
  gcol_buffer_free(temporary);
  assert_int_equal(live(device), 300);
  gcol_detail_api_enter("inner");
  gcol_buffer *inner = filled(100, 3, device);
  gcol_detail_api_leave();
  assert_false(gcol_buffer_is_spillable(inner)); /* the outer operation still runs */
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 0);
  gcol_detail_api_leave();
  assert_true(gcol_buffer_is_spillable(kept));
  assert_true(gcol_buffer_is_spillable(inner));
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 400);
  gcol_buffer_free(kept);
  gcol_buffer_free(inner);
}

static void the_device_limit_spills_before_a_new_buffer(void **state) {
  (void)state;
  enable(2500, spilled_to);
  gcol_buffer *a = filled(1000, 'a', device), *b = filled(1000, 'b', device);
  assert_false(gcol_buffer_is_spilled(a));
  gcol_buffer *c = filled(1000, 'c', device); /* 3000 > 2500: a goes first */
  assert_true(gcol_buffer_is_spilled(a));
  assert_false(gcol_buffer_is_spilled(b));
  assert_int_equal(since_base().device_bytes, 2000);
  /* bringing a back makes room the same way: b goes */
  assert_bytes(a, 'a');
  assert_true(gcol_buffer_is_spilled(b));
  /* a lower limit spills at once */
  GCOL_TEST_OK(gcol_spill_set_device_limit(1000));
  assert_int_equal(since_base().device_bytes, 1000);
  assert_true(gcol_buffer_is_spilled(c));
  GCOL_TEST_OK(gcol_spill_set_device_limit(0));
  gcol_buffer_free(a);
  gcol_buffer_free(b);
  gcol_buffer_free(c);
  GCOL_TEST_OK(gcol_spill_disable());
  GCOL_TEST_STATUS(gcol_spill_set_device_limit(10), GCOL_ERROR_INVALID_ARGUMENT);
  enable(0, spilled_to);
}

static void the_spill_resource_spills_and_retries(void **state) {
  (void)state;
  gcol_mr *limit = NULL, *spill = NULL;
  GCOL_TEST_OK(gcol_mr_limit_create(device, 3000, &limit));
  GCOL_TEST_OK(gcol_mr_spill_create(limit, &spill));
  gcol_buffer *a = filled(1000, 'a', spill), *b = filled(1000, 'b', spill),
              *c = filled(1000, 'c', spill);
  gcol_buffer *d = filled(1500, 'd', spill); /* a and b spill to make room */
  assert_true(gcol_buffer_is_spilled(a));
  assert_true(gcol_buffer_is_spilled(b));
  assert_false(gcol_buffer_is_spilled(c));
  /* with everything pinned, nothing can make room: a clear out of memory */
  gcol_spill_scope *scope = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
  GCOL_TEST_OK(gcol_buffer_make_mutable(c, NULL));
  GCOL_TEST_OK(gcol_buffer_make_mutable(d, NULL));
  gcol_buffer *e = NULL;
  GCOL_TEST_STATUS(gcol_buffer_create(1000, NULL, spill, &e), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(e);
  assert_non_null(strstr(gcol_last_error(), "nothing more can spill"));
  /* bringing a back needs room too: it fails, and a stays safely spilled */
  GCOL_TEST_STATUS(gcol_buffer_make_mutable(a, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_true(gcol_buffer_is_spilled(a));
  GCOL_TEST_OK(gcol_spill_scope_end(scope, NULL));
  assert_bytes(a, 'a'); /* now c spills for it */
  assert_bytes(b, 'b');
  assert_bytes(c, 'c');
  assert_bytes(d, 'd');
  gcol_buffer_free(a);
  gcol_buffer_free(b);
  gcol_buffer_free(c);
  gcol_buffer_free(d);
  gcol_mr_destroy(spill);
  gcol_mr_destroy(limit);
}

static void spilled_buffers_share_and_copy_on_write(void **state) {
  (void)state;
  gcol_buffer *a = filled(4096, 'x', device), *b = NULL;
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  GCOL_TEST_OK(gcol_buffer_copy_shallow(a, NULL, &b)); /* shares, stays spilled */
  assert_true(gcol_buffer_is_spilled(b));
  assert_int_equal(gcol_buffer_use_count(a), 2);
  assert_int_equal(since_base().unspills, 0);
  gcol_spill_scope *scope = NULL;
  GCOL_TEST_OK(gcol_spill_scope_begin(&scope));
  GCOL_TEST_OK(gcol_buffer_make_mutable(b, NULL)); /* a comes back to be copied */
  memset(b->data, 'y', 4096);
  GCOL_TEST_OK(gcol_spill_scope_end(scope, NULL));
  assert_int_equal(gcol_buffer_use_count(a), 1);
  assert_true(gcol_buffer_is_spillable(a)); /* the copy's pin ended */
  assert_bytes(a, 'x');
  assert_bytes(b, 'y');
  /* release hands out a spilled buffer's bytes after bringing them back */
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  void *raw = gcol_buffer_release(a);
  assert_non_null(raw);
  assert_int_equal(((unsigned char *)raw)[4095], 'x');
  gcol_mr_deallocate(device, raw, 4096, NULL);
  gcol_buffer_free(b);
}

static void host_allocation_failure_keeps_the_buffer_on_the_device(void **state) {
  (void)state;
  gcol_mr *failing = NULL;
  GCOL_TEST_OK(gcol_mr_fail_nth_create(spilled_to, 2, &failing));
  enable(0, failing);
  gcol_buffer *a = filled(1000, 'a', device), *b = filled(1000, 'b', device);
  size_t spilled = 0;
  GCOL_TEST_STATUS(gcol_spill_now(SIZE_MAX, &spilled), GCOL_ERROR_OUT_OF_MEMORY);
  assert_int_equal(spilled, 1000); /* a went, b's host allocation failed */
  assert_true(gcol_buffer_is_spilled(a));
  assert_false(gcol_buffer_is_spilled(b));
  assert_true(gcol_buffer_is_spillable(b));
  assert_int_equal(since_base().failed_spills, 1);
  assert_int_equal(live(device), 1000);
  assert_bytes(a, 'a');
  assert_bytes(b, 'b');
  gcol_buffer_free(a);
  gcol_buffer_free(b);
  enable(0, spilled_to);
  gcol_mr_destroy(failing);
}

static void device_allocation_failure_keeps_the_buffer_spilled(void **state) {
  (void)state;
  gcol_mr *failing = NULL;
  GCOL_TEST_OK(gcol_mr_fail_nth_create(device, 2, &failing)); /* 1: made, 2: brought back */
  gcol_buffer *a = filled(1000, 'a', failing);
  size_t spilled = 0;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_make(gcol_data_type_make(GCOL_INT8), 1000, a, NULL, 0, NULL, 0, &col));
  gcol_column_view v;
  GCOL_TEST_STATUS(gcol_column_acquire_view(col, NULL, &v), GCOL_ERROR_OUT_OF_MEMORY);
  assert_non_null(strstr(gcol_last_error(), "stays in host memory"));
  assert_null(v.data);
  assert_true(gcol_buffer_is_spilled(col->data));
  assert_int_equal(since_base().failed_unspills, 1);
  assert_int_equal(live(spilled_to), 1000);
  /* nothing lost: the next try brings it back */
  assert_bytes(col->data, 'a');
  gcol_column_free(col);
  gcol_mr_destroy(failing);
}

static void nothing_spills_while_off(void **state) {
  (void)state;
  GCOL_TEST_OK(gcol_spill_disable());
  assert_false(gcol_spill_is_enabled());
  gcol_buffer *a = filled(100, 1, device); /* made while off: never spillable */
  enable(0, spilled_to);
  assert_true(gcol_spill_is_enabled());
  gcol_buffer *b = filled(100, 2, device);
  GCOL_TEST_OK(gcol_spill_disable());
  size_t spilled = 1;
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 0);
  enable(0, spilled_to);
  GCOL_TEST_OK(gcol_spill_now(SIZE_MAX, &spilled));
  assert_int_equal(spilled, 100);
  assert_false(gcol_buffer_is_spillable(a));
  assert_false(gcol_buffer_is_spilled(a));
  assert_true(gcol_buffer_is_spilled(b));
  gcol_buffer_free(a);
  gcol_buffer_free(b);
}

/* Threads make, spill, bring back and check their own buffers while others spill theirs.
 * cmocka is not thread-safe: threads only count what went wrong. */
#define NUM_THREADS 4
#define ROUNDS 50

typedef struct thread_ctx {
  int id;
  int errors;
} thread_ctx;

static void *thread_main(void *arg) {
  thread_ctx *ctx = (thread_ctx *)arg;
  for (int r = 0; r < ROUNDS; ++r) {
    gcol_buffer *b = NULL;
    int const fill = (ctx->id * 31 + r) & 0xff;
    if (gcol_buffer_create(777, NULL, device, &b) != GCOL_OK) {
      ++ctx->errors;
      continue;
    }
    gcol_spill_scope *scope = NULL;
    ctx->errors += gcol_spill_scope_begin(&scope) != GCOL_OK;
    ctx->errors += gcol_buffer_make_mutable(b, NULL) != GCOL_OK;
    memset(b->data, fill, 777);
    ctx->errors += gcol_spill_scope_end(scope, NULL) != GCOL_OK;
    size_t spilled = 0;
    ctx->errors += gcol_spill_now(1000, &spilled) != GCOL_OK;
    ctx->errors += gcol_spill_scope_begin(&scope) != GCOL_OK;
    ctx->errors += gcol_buffer_make_mutable(b, NULL) != GCOL_OK;
    for (int i = 0; i < 777; ++i) ctx->errors += ((unsigned char *)b->data)[i] != fill;
    ctx->errors += gcol_spill_scope_end(scope, NULL) != GCOL_OK;
    gcol_buffer_free(b);
  }
  return NULL;
}

static void threads_spill_and_bring_back_at_once(void **state) {
  (void)state;
  pthread_t threads[NUM_THREADS];
  thread_ctx ctx[NUM_THREADS];
  for (int t = 0; t < NUM_THREADS; ++t) {
    ctx[t] = (thread_ctx){t, 0};
    assert_int_equal(pthread_create(&threads[t], NULL, thread_main, &ctx[t]), 0);
  }
  for (int t = 0; t < NUM_THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  for (int t = 0; t < NUM_THREADS; ++t) {
    if (ctx[t].errors != 0) fail_msg("thread %d: %d errors", t, ctx[t].errors);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      SPILL_TEST(parses_configuration),
      SPILL_TEST(checks_its_arguments),
      SPILL_TEST(spills_least_recently_used_first),
      SPILL_TEST(scopes_pin_and_outside_views_expose),
      SPILL_TEST(scopes_nest_and_end_in_order),
      SPILL_TEST(a_pinned_buffer_freed_in_a_scope_goes_at_its_end),
      SPILL_TEST(operations_pin_until_they_return),
      SPILL_TEST(operation_pins_end_with_the_outermost_and_drop_freed_temporaries),
      SPILL_TEST(the_device_limit_spills_before_a_new_buffer),
      SPILL_TEST(the_spill_resource_spills_and_retries),
      SPILL_TEST(spilled_buffers_share_and_copy_on_write),
      SPILL_TEST(host_allocation_failure_keeps_the_buffer_on_the_device),
      SPILL_TEST(device_allocation_failure_keeps_the_buffer_spilled),
      SPILL_TEST(nothing_spills_while_off),
      SPILL_TEST(threads_spill_and_bring_back_at_once),
  };
  return GCOL_TEST_RUN("spill_host", tests);
}
