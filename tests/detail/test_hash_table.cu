/*
 * GPU tests of the shared row engine layer (kernels/detail): the row operators (hash and
 * equality over INT64 + FLOAT64 + STRING keys with nulls, -0.0 / NaN, sliced columns) and the
 * device hash table as a set (insert_unique: one slot per group) and as a multimap (insert,
 * count_matches, retrieve_matches), checked against brute-force host equality; and bounded
 * probing: a table too small for its rows reports overflow instead of looping.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <string.h>

#include "detail/hash_table.cuh"
#include "gcol/column.h"

/* cmocka.h declares no extern "C" of its own: include it as C before test_util.h does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}
#include "test_util.h"

#define CUDA_OK(call)                                                       \
  do {                                                                      \
    cudaError_t e = (call);                                                 \
    if (e != cudaSuccess) fail_msg("%s: %s", #call, cudaGetErrorString(e)); \
  } while (0)

/* Host keys: int64 in [0, range), a double from a small set (with -0.0, 0.0, NaNs) and a
 * string from a small pool; each column with its own nulls. */
typedef struct host_keys {
  int64_t n;
  int64_t *i64;
  double *f64;
  const char **str;
  int64_t *str_len;
  uint8_t *valid[3];
} host_keys;

static const char *const pool[] = {"", "a", "ab", "\xF0\x9F\x98\x80", "zz", "a\0b"};
static const int64_t pool_len[] = {0, 1, 2, 4, 2, 3};

static host_keys make_keys(gcol_test_rng *rng, int64_t n, int64_t range) {
  static const double doubles[] = {1.5, -0.0, 0.0, NAN, -NAN, 2.25};
  host_keys k;
  k.n = n;
  size_t const rows = (size_t)(n > 0 ? n : 1);
  k.i64 = (int64_t *)malloc(rows * sizeof(int64_t));
  k.f64 = (double *)malloc(rows * sizeof(double));
  k.str = (const char **)malloc(rows * sizeof(char *));
  k.str_len = (int64_t *)malloc(rows * sizeof(int64_t));
  for (int c = 0; c < 3; ++c) k.valid[c] = (uint8_t *)malloc(rows);
  for (int64_t i = 0; i < n; ++i) {
    k.i64[i] = gcol_test_rng_range(rng, 0, range - 1);
    k.f64[i] = doubles[gcol_test_rng_range(rng, 0, 5)];
    int64_t const s = gcol_test_rng_range(rng, 0, 5);
    k.str[i] = pool[s];
    k.str_len[i] = pool_len[s];
    for (int c = 0; c < 3; ++c) k.valid[c][i] = gcol_test_rng_range(rng, 0, 9) != 0;
  }
  return k;
}

static void free_keys(host_keys *k) {
  free(k->i64);
  free(k->f64);
  free(k->str);
  free(k->str_len);
  for (int c = 0; c < 3; ++c) free(k->valid[c]);
}

static bool doubles_equal(double a, double b) {
  if (a != a) return b != b;
  return a == b; /* -0.0 == 0.0 */
}

/* The row operators' equality, on the host. */
static bool host_rows_equal(const host_keys *a, int64_t i, const host_keys *b, int64_t j,
                            bool nulls_equal) {
  for (int c = 0; c < 3; ++c) {
    bool const va = a->valid[c][i] != 0, vb = b->valid[c][j] != 0;
    if (va != vb) return false;
    if (!va) {
      if (!nulls_equal) return false;
      continue;
    }
    bool eq = false;
    if (c == 0) eq = a->i64[i] == b->i64[j];
    if (c == 1) eq = doubles_equal(a->f64[i], b->f64[j]);
    if (c == 2) {
      eq = a->str_len[i] == b->str_len[j] && memcmp(a->str[i], b->str[j], (size_t)a->str_len[i]) == 0;
    }
    if (!eq) return false;
  }
  return true;
}

/* Device columns of the keys, each with `pad` extra leading rows, viewed as a slice. */
typedef struct device_keys {
  gcol_column *cols[3];
  gcol_column_view views[3];
  gcol_buffer *flat;
} device_keys;

static void upload_keys(const host_keys *k, int64_t pad, device_keys *d) {
  int64_t const rows = k->n + pad;
  size_t const sz = (size_t)(rows > 0 ? rows : 1);
  int64_t *i64 = (int64_t *)calloc(sz, sizeof(int64_t));
  double *f64 = (double *)calloc(sz, sizeof(double));
  const char **str = (const char **)calloc(sz, sizeof(char *));
  int64_t *len = (int64_t *)calloc(sz, sizeof(int64_t));
  uint8_t *valid[2];
  for (int c = 0; c < 2; ++c) valid[c] = (uint8_t *)calloc(sz, 1);
  for (int64_t i = 0; i < pad; ++i) str[i] = "pad";
  for (int64_t i = 0; i < pad; ++i) len[i] = 3;
  for (int64_t i = 0; i < k->n; ++i) {
    i64[pad + i] = k->i64[i];
    f64[pad + i] = k->f64[i];
    valid[0][pad + i] = k->valid[0][i];
    valid[1][pad + i] = k->valid[1][i];
    str[pad + i] = k->valid[2][i] ? k->str[i] : NULL;
    len[pad + i] = k->str_len[i];
  }
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), rows, i64, valid[0],
                                            NULL, NULL, &d->cols[0]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), rows, f64, valid[1],
                                            NULL, NULL, &d->cols[1]));
  GCOL_TEST_OK(gcol_column_create_strings_from_host(rows, str, len, NULL, NULL, &d->cols[2]));
  for (int c = 0; c < 3; ++c) {
    GCOL_TEST_OK(
        gcol_column_view_slice(gcol_column_get_view(d->cols[c]), pad, rows, &d->views[c]));
  }
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(d->views, 3, &t));
  int32_t const keys[3] = {0, 1, 2};
  GCOL_TEST_OK(gcol_detail_row_columns_make(t, keys, 3, true, false, NULL, &d->flat));
  free(i64);
  free(f64);
  free(str);
  free(len);
  free(valid[0]);
  free(valid[1]);
}

static void free_device_keys(device_keys *d) {
  for (int c = 0; c < 3; ++c) gcol_column_free(d->cols[c]);
  gcol_buffer_free(d->flat);
}

static const gcol_detail_row_column *flat(const device_keys *d) {
  return (const gcol_detail_row_column *)d->flat->data;
}

__global__ void set_insert_kernel(gcol_detail_hash_table t, const gcol_detail_row_column *keys,
                                  bool nulls_equal, int64_t n, int64_t *slot_of,
                                  unsigned long long *inserted, int *overflow) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    gcol_detail_row_matcher const m = {keys, keys, 3, nulls_equal, i};
    bool ins = false;
    int64_t const slot =
        gcol_detail_hash_insert_unique(t, gcol_detail_row_hash(keys, 3, i), &m, &ins);
    if (slot < 0) *overflow = 1;
    if (ins) atomicAdd(inserted, 1ull);
    slot_of[i] = slot;
  }
}

__global__ void multimap_insert_kernel(gcol_detail_hash_table t,
                                       const gcol_detail_row_column *keys, int64_t n,
                                       int *overflow) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    if (!gcol_detail_hash_insert(t, gcol_detail_row_hash(keys, 3, i), i)) *overflow = 1;
  }
}

__global__ void probe_kernel(gcol_detail_hash_table t, const gcol_detail_row_column *build,
                             const gcol_detail_row_column *probe, bool nulls_equal, int64_t n,
                             int64_t *counts, int64_t *first_match, int64_t *found) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    gcol_detail_row_matcher const m = {build, probe, 3, nulls_equal, i};
    uint64_t const h = gcol_detail_row_hash(probe, 3, i);
    counts[i] = gcol_detail_hash_count_matches(t, h, &m);
    int64_t row = -1;
    int64_t const total = gcol_detail_hash_retrieve_matches(t, h, &m, &row, 1);
    first_match[i] = total > 0 ? row : -1;
    int64_t const slot = gcol_detail_hash_find(t, h, &m);
    found[i] = slot < 0 ? -1 : (int64_t)t.slots[slot];
  }
}

static int64_t *download_i64(const int64_t *dev, int64_t n) {
  int64_t *host = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  if (n > 0) CUDA_OK(cudaMemcpy(host, dev, (size_t)n * sizeof(int64_t), cudaMemcpyDeviceToHost));
  return host;
}

/* Set: one slot per group of equal rows; the group count equals the host's. */
static void check_set(gcol_test_rng *rng, int64_t n, int64_t pad, bool nulls_equal) {
  host_keys k = make_keys(rng, n, 7);
  device_keys d;
  upload_keys(&k, pad, &d);
  gcol_buffer *storage = NULL, *slots = NULL, *counters = NULL;
  gcol_detail_hash_table t;
  GCOL_TEST_OK(gcol_detail_hash_table_create(n, NULL, &storage, &t));
  GCOL_TEST_OK(gcol_buffer_create((size_t)(n > 0 ? n : 1) * sizeof(int64_t), NULL, NULL, &slots));
  GCOL_TEST_OK(gcol_buffer_create(16, NULL, NULL, &counters));
  CUDA_OK(cudaMemset(counters->data, 0, 16));
  unsigned long long *inserted = (unsigned long long *)counters->data;
  int *overflow = (int *)((char *)counters->data + 8);
  if (n > 0) {
    set_insert_kernel<<<gcol_detail_grid_size(n, 128), 128>>>(t, flat(&d), nulls_equal, n,
                                                             (int64_t *)slots->data, inserted,
                                                             overflow);
    CUDA_OK(cudaGetLastError());
  }
  unsigned long long host_counters[2] = {0, 0};
  CUDA_OK(cudaMemcpy(host_counters, counters->data, 16, cudaMemcpyDeviceToHost));
  assert_int_equal((int)(host_counters[1] & 0xFFFFFFFFu), 0);
  int64_t *slot_of = download_i64((const int64_t *)slots->data, n);
  /* Host groups: the first row equal to each row; rows are in one slot iff equal. */
  int64_t groups = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t first = i;
    for (int64_t j = 0; j < i; ++j) {
      if (host_rows_equal(&k, j, &k, i, nulls_equal)) {
        first = j;
        break;
      }
    }
    if (first == i) ++groups;
    assert_true(slot_of[i] >= 0);
    if (slot_of[i] != slot_of[first]) {
      fail_msg("n=%lld row %lld: slot %lld, its first equal row %lld: slot %lld", (long long)n,
               (long long)i, (long long)slot_of[i], (long long)first, (long long)slot_of[first]);
    }
  }
  assert_int_equal((int64_t)host_counters[0], groups);
  free(slot_of);
  gcol_buffer_free(storage);
  gcol_buffer_free(slots);
  gcol_buffer_free(counters);
  free_device_keys(&d);
  free_keys(&k);
}

/* Multimap: every probe row's number of equal build rows, one of them and find(). */
static void check_multimap(gcol_test_rng *rng, int64_t nb, int64_t np, int64_t pad,
                           bool nulls_equal) {
  host_keys b = make_keys(rng, nb, 5), p = make_keys(rng, np, 6);
  device_keys db, dp;
  upload_keys(&b, pad, &db);
  upload_keys(&p, pad + 2, &dp);
  gcol_buffer *storage = NULL, *out = NULL, *flag = NULL;
  gcol_detail_hash_table t;
  GCOL_TEST_OK(gcol_detail_hash_table_create(nb, NULL, &storage, &t));
  GCOL_TEST_OK(gcol_buffer_create((size_t)(3 * (np > 0 ? np : 1)) * sizeof(int64_t), NULL, NULL,
                                  &out));
  GCOL_TEST_OK(gcol_buffer_create(sizeof(int), NULL, NULL, &flag));
  CUDA_OK(cudaMemset(flag->data, 0, sizeof(int)));
  int64_t *counts_d = (int64_t *)out->data;
  int64_t *first_d = counts_d + (np > 0 ? np : 1), *found_d = first_d + (np > 0 ? np : 1);
  if (nb > 0) {
    multimap_insert_kernel<<<gcol_detail_grid_size(nb, 128), 128>>>(t, flat(&db), nb,
                                                                   (int *)flag->data);
    CUDA_OK(cudaGetLastError());
  }
  if (np > 0) {
    probe_kernel<<<gcol_detail_grid_size(np, 128), 128>>>(t, flat(&db), flat(&dp), nulls_equal,
                                                         np, counts_d, first_d, found_d);
    CUDA_OK(cudaGetLastError());
  }
  int overflow = 0;
  CUDA_OK(cudaMemcpy(&overflow, flag->data, sizeof overflow, cudaMemcpyDeviceToHost));
  assert_int_equal(overflow, 0);
  int64_t *counts = download_i64(counts_d, np), *first = download_i64(first_d, np);
  int64_t *found = download_i64(found_d, np);
  for (int64_t i = 0; i < np; ++i) {
    int64_t expected = 0;
    for (int64_t j = 0; j < nb; ++j) expected += host_rows_equal(&b, j, &p, i, nulls_equal);
    if (counts[i] != expected) {
      fail_msg("nb=%lld np=%lld probe row %lld: %lld matches, expected %lld", (long long)nb,
               (long long)np, (long long)i, (long long)counts[i], (long long)expected);
    }
    if (expected > 0) {
      assert_true(first[i] >= 0 && first[i] < nb);
      assert_true(host_rows_equal(&b, first[i], &p, i, nulls_equal));
      assert_true(found[i] >= 0 && found[i] < nb);
      assert_true(host_rows_equal(&b, found[i], &p, i, nulls_equal));
    } else {
      assert_int_equal(first[i], -1);
      assert_int_equal(found[i], -1);
    }
  }
  free(counts);
  free(first);
  free(found);
  gcol_buffer_free(storage);
  gcol_buffer_free(out);
  gcol_buffer_free(flag);
  free_device_keys(&db);
  free_device_keys(&dp);
  free_keys(&b);
  free_keys(&p);
}

static void test_set_groups_equal_rows(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(901);
  static const int64_t sizes[] = {0, 1, 2, 33, 257, 1000};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    for (int nulls = 0; nulls < 2; ++nulls) {
      check_set(&rng, sizes[s], gcol_test_offsets[s % gcol_test_num_offsets], nulls != 0);
    }
  }
}

static void test_multimap_counts_and_retrieves_matches(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(902);
  static const int64_t sizes[][2] = {{0, 5}, {5, 0}, {1, 1}, {33, 65}, {257, 129}, {1000, 700}};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    for (int nulls = 0; nulls < 2; ++nulls) {
      check_multimap(&rng, sizes[s][0], sizes[s][1], gcol_test_offsets[(s + 3) % gcol_test_num_offsets],
                     nulls != 0);
    }
  }
}

/* A table of 8 slots given 20 distinct rows: inserts past the 8th report overflow. */
static void test_overflow_is_reported_not_looped(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(903);
  host_keys k = make_keys(&rng, 20, 1000000);
  for (int64_t i = 0; i < 20; ++i) {
    k.i64[i] = i; /* all distinct, all valid */
    k.valid[0][i] = 1;
  }
  device_keys d;
  upload_keys(&k, 0, &d);
  gcol_buffer *storage = NULL, *counters = NULL, *slots = NULL;
  gcol_detail_hash_table t;
  GCOL_TEST_OK(gcol_detail_hash_table_create(4, NULL, &storage, &t)); /* 8 slots */
  assert_int_equal(t.capacity, 8);
  GCOL_TEST_OK(gcol_buffer_create(16, NULL, NULL, &counters));
  GCOL_TEST_OK(gcol_buffer_create(20 * sizeof(int64_t), NULL, NULL, &slots));
  CUDA_OK(cudaMemset(counters->data, 0, 16));
  set_insert_kernel<<<1, 32>>>(t, flat(&d), true, 20, (int64_t *)slots->data,
                               (unsigned long long *)counters->data,
                               (int *)((char *)counters->data + 8));
  CUDA_OK(cudaGetLastError());
  unsigned long long host_counters[2] = {0, 0};
  CUDA_OK(cudaMemcpy(host_counters, counters->data, 16, cudaMemcpyDeviceToHost));
  assert_int_equal(host_counters[0], 8);
  assert_int_equal((int)(host_counters[1] & 0xFFFFFFFFu), 1);
  gcol_buffer_free(storage);
  gcol_buffer_free(counters);
  gcol_buffer_free(slots);
  free_device_keys(&d);
  free_keys(&k);
}

static void test_bad_arguments(void **state) {
  (void)state;
  gcol_buffer *storage = NULL, *flatk = NULL;
  gcol_detail_hash_table t;
  assert_int_equal(gcol_detail_hash_table_create((int64_t)1 << 62, NULL, &storage, &t),
                   GCOL_ERROR_OVERFLOW);
  assert_null(storage);
  gcol_column *c = NULL;
  int64_t v = 1;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 1, &v, NULL, NULL,
                                            NULL, &c));
  gcol_column_view const view = gcol_column_get_view(c);
  gcol_table_view tv;
  GCOL_TEST_OK(gcol_table_view_make(&view, 1, &tv));
  int32_t const bad[1] = {1};
  assert_int_equal(gcol_detail_row_columns_make(tv, bad, 1, true, false, NULL, &flatk),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(flatk);
  assert_int_equal(gcol_detail_row_columns_make(tv, bad, 0, true, false, NULL, &flatk),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_column_free(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_set_groups_equal_rows),
      GCOL_TEST_GPU(test_multimap_counts_and_retrieves_matches),
      GCOL_TEST_GPU(test_overflow_is_reported_not_looped),
      GCOL_TEST_GPU(test_bad_arguments),
  };
  return GCOL_TEST_RUN_GPU("detail_hash_table", tests);
}
