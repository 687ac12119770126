/* Helpers of the compute-operation GPU tests: see ops_support.h. */
#include "ops_support.h"

#include <float.h>
#include <math.h>

static void put_bytes(ops_host_col *c, int64_t i, const void *v) {
  size_t const w = gcol_type_size(c->type.id);
  memcpy(c->data + (size_t)i * w, v, w);
}

/* A special value of the type, by index, as storage bytes; false when none is left. */
static bool special_value(gcol_type_id id, int k, unsigned char *out) {
  size_t const w = gcol_type_size(id);
  if (id == GCOL_FLOAT32) {
    static const float f[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN,
                              FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MAX, -FLT_MAX, 0.5f};
    if (k >= (int)(sizeof f / sizeof f[0])) return false;
    memcpy(out, &f[k], 4);
    return true;
  }
  if (id == GCOL_FLOAT64) {
    static const double d[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN,
                               DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MAX, -DBL_MAX, 0.5};
    if (k >= (int)(sizeof d / sizeof d[0])) return false;
    memcpy(out, &d[k], 8);
    return true;
  }
  if (id == GCOL_BOOL8) {
    if (k > 1) return false;
    out[0] = (unsigned char)k;
    return true;
  }
  bool const is_unsigned = gcol_type_is_unsigned_integral(id);
  uint64_t const bits = w * 8;
  uint64_t const umax = bits == 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1);
  uint64_t v;
  switch (k) {
    case 0: v = 0; break;
    case 1: v = 1; break;
    case 2: v = umax; break; /* -1 for signed */
    case 3: v = is_unsigned ? umax - 1 : (umax >> 1); break; /* MAX */
    case 4: v = is_unsigned ? 2 : ((umax >> 1) + 1); break;  /* MIN */
    case 5: v = 2; break;
    default: return false;
  }
  memset(out, 0, w);
  memcpy(out, &v, w < 8 ? w : 8); /* little-endian low bytes */
  if (w == 16 && k == 2) memset(out, 0xFF, 16);
  return true;
}

ops_host_col ops_host_random(gcol_test_rng *rng, gcol_data_type type, int64_t n,
                             gcol_test_validity pattern) {
  ops_host_col c;
  size_t const w = gcol_type_size(type.id);
  c.type = type;
  c.size = n;
  c.data = (unsigned char *)malloc((size_t)(n > 0 ? n : 1) * w);
  c.valid = NULL;
  gcol_test_rng_fill(rng, c.data, (size_t)n * w);
  for (int64_t i = 0; i < n; ++i) {
    unsigned char buf[16];
    int64_t const pick = gcol_test_rng_range(rng, 0, 15);
    if (pick < 14 && special_value(type.id, (int)pick, buf)) {
      if (gcol_test_rng_range(rng, 0, 2) == 0) put_bytes(&c, i, buf);
    } else if (type.id == GCOL_FLOAT32) {
      float f = (float)((gcol_test_rng_double(rng) - 0.5) * pow(10.0, (double)gcol_test_rng_range(rng, -8, 8)));
      put_bytes(&c, i, &f);
    } else if (type.id == GCOL_FLOAT64) {
      double d = (gcol_test_rng_double(rng) - 0.5) * pow(10.0, (double)gcol_test_rng_range(rng, -12, 12));
      put_bytes(&c, i, &d);
    } else if (gcol_type_is_integral(type.id) && gcol_test_rng_range(rng, 0, 1) == 0) {
      int64_t small = gcol_test_rng_range(rng, -100, 100);
      put_bytes(&c, i, &small); /* low bytes of a small value */
    }
    if (type.id == GCOL_BOOL8) c.data[i] = (unsigned char)(c.data[i] & 1);
  }
  if (pattern != GCOL_TEST_NO_MASK) {
    c.valid = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
    gcol_test_fill_valid(rng, pattern, c.valid, n);
  }
  return c;
}

void ops_host_free(ops_host_col *c) {
  free(c->data);
  free(c->valid);
  c->data = NULL;
  c->valid = NULL;
}

int64_t ops_get_i64(const ops_host_col *c, int64_t i) {
  size_t const w = gcol_type_size(c->type.id);
  const unsigned char *p = c->data + (size_t)i * w;
  switch (w) {
    case 1: { int8_t v; memcpy(&v, p, 1); return v; }
    case 2: { int16_t v; memcpy(&v, p, 2); return v; }
    case 4: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
  }
}

uint64_t ops_get_u64(const ops_host_col *c, int64_t i) {
  size_t const w = gcol_type_size(c->type.id);
  uint64_t v = 0;
  memcpy(&v, c->data + (size_t)i * w, w < 8 ? w : 8);
  return v;
}

double ops_get_f64(const ops_host_col *c, int64_t i) {
  if (c->type.id == GCOL_FLOAT32) {
    float f;
    memcpy(&f, c->data + (size_t)i * 4, 4);
    return f;
  }
  if (c->type.id == GCOL_FLOAT64) {
    double d;
    memcpy(&d, c->data + (size_t)i * 8, 8);
    return d;
  }
  if (gcol_type_is_unsigned_integral(c->type.id) || c->type.id == GCOL_BOOL8) {
    return (double)ops_get_u64(c, i);
  }
  return (double)ops_get_i64(c, i);
}

bool ops_is_valid(const ops_host_col *c, int64_t i) { return c->valid == NULL || c->valid[i] != 0; }

gcol_column *ops_upload(const ops_host_col *c, int64_t offset, gcol_column_view *view) {
  size_t const w = gcol_type_size(c->type.id);
  int64_t const total = c->size + offset;
  unsigned char *data = (unsigned char *)malloc((size_t)(total > 0 ? total : 1) * w);
  uint8_t *valid = c->valid != NULL ? (uint8_t *)malloc((size_t)(total > 0 ? total : 1)) : NULL;
  memset(data, 0xA5, (size_t)offset * w); /* garbage in front */
  memcpy(data + (size_t)offset * w, c->data, (size_t)c->size * w);
  if (valid != NULL) {
    for (int64_t i = 0; i < offset; ++i) valid[i] = (uint8_t)(i & 1);
    memcpy(valid + offset, c->valid, (size_t)c->size);
  }
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(c->type, total, data, valid, NULL, NULL, &col));
  free(data);
  free(valid);
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(col), offset, total, view));
  return col;
}

void ops_download(gcol_column_view v, unsigned char **data, uint8_t **valid) {
  size_t const w = gcol_type_size(v.type.id);
  *data = (unsigned char *)malloc((size_t)(v.size > 0 ? v.size : 1) * w);
  *valid = (uint8_t *)malloc((size_t)(v.size > 0 ? v.size : 1));
  GCOL_TEST_OK(gcol_column_copy_to_host(v, *data, *valid, NULL));
  gcol_test_assert_null_count_consistent(v);
}

int64_t ops_ulp_f64(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) ? 0 : INT64_MAX;
  if (a == b) return 0;
  int64_t ia, ib;
  memcpy(&ia, &a, 8);
  memcpy(&ib, &b, 8);
  if (ia < 0) ia = INT64_MIN - ia;
  if (ib < 0) ib = INT64_MIN - ib;
  return ia > ib ? ia - ib : ib - ia;
}

int64_t ops_ulp_f32(float a, float b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) ? 0 : INT64_MAX;
  if (a == b) return 0;
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  int64_t const la = ia < 0 ? (int64_t)INT32_MIN - ia : ia;
  int64_t const lb = ib < 0 ? (int64_t)INT32_MIN - ib : ib;
  return la > lb ? la - lb : lb - la;
}

/* Adapter from a call with an output column to the shared fault-test helper, which frees
 * the succeeding run's output before destroying the fail-on-Nth resource it came from. */
typedef struct fail_nth_adapter {
  ops_alloc_call call;
  void *ctx;
  gcol_column *out;
} fail_nth_adapter;

static gcol_status fail_nth_op(void *p) {
  fail_nth_adapter *a = (fail_nth_adapter *)p;
  a->out = (gcol_column *)(uintptr_t)0x1; /* must be overwritten with NULL on failure */
  gcol_status const st = a->call(a->ctx, &a->out);
  if (st != GCOL_OK && a->out != NULL) {
    fail_msg("%s left *out non-NULL", gcol_status_string(st));
  }
  return st;
}

static void fail_nth_cleanup(void *p) {
  fail_nth_adapter *a = (fail_nth_adapter *)p;
  gcol_column_free(a->out);
  a->out = NULL;
}

int64_t ops_fail_nth_loop(ops_alloc_call call, void *ctx) {
  fail_nth_adapter a = {call, ctx, NULL};
  /* The helper returns the allocation points seen (N - 1); callers count N. */
  return (int64_t)gcol_test_check_allocation_failures(fail_nth_op, fail_nth_cleanup, &a) + 1;
}
