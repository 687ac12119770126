/*
 * GPU tests of include/gcol/partitioning.h against a host reference (the partition of each
 * row from the host row hash of tests/hashing/hashing_reference.c, the map, or round robin;
 * then a stable counting sort): offsets exact, rows compared one by one (a row-id column
 * shows the order; payload of strings, fixed-width, LIST and STRUCT columns with nulls, the
 * nested ones checked against gcol_gather by the expected order). Partition counts
 * 1, 2, 7, 256, more than the rows, and above the shared-memory limit (global counters);
 * sizes across several 8192-row tiles; slices; map types INT8/INT32/UINT64; bad map
 * entries; allocation failures.
 */
#include "../hashing/hashing_reference.h"
#include "gcol/copying.h"
#include "gcol/partitioning.h"

#define NUM_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Expected output order (indices into the slice) and offsets from per-row partitions. */
static void reference_order(const int64_t *pid, int64_t n, int32_t num_partitions, int64_t *idx,
                            int64_t *offsets) {
  for (int32_t p = 0; p <= num_partitions; ++p) offsets[p] = 0;
  for (int64_t i = 0; i < n; ++i) offsets[pid[i] + 1]++;
  for (int32_t p = 0; p < num_partitions; ++p) offsets[p + 1] += offsets[p];
  int64_t *next = (int64_t *)malloc(((size_t)num_partitions + 1) * sizeof(int64_t));
  memcpy(next, offsets, ((size_t)num_partitions + 1) * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) idx[next[pid[i]]++] = i;
  free(next);
}

/* Checks a partitioned table: columns are data[0..num_data) then the row ids. */
static void check_result(gcol_table *out, const int64_t *got_offsets, const ref_column *const *data,
                         int32_t num_data, int64_t off, int64_t n, const int64_t *pid,
                         int32_t num_partitions) {
  int64_t *idx = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  int64_t *offsets = (int64_t *)malloc(((size_t)num_partitions + 1) * sizeof(int64_t));
  reference_order(pid, n, num_partitions, idx, offsets);
  for (int32_t p = 0; p <= num_partitions; ++p) {
    if (got_offsets[p] != offsets[p]) {
      fail_msg("offset %d of %d partitions (n %lld): got %lld, want %lld", (int)p,
               (int)num_partitions, (long long)n, (long long)got_offsets[p], (long long)offsets[p]);
    }
  }
  gcol_table_view const r = gcol_table_get_view(out);
  assert_int_equal(r.num_columns, num_data + 1);
  assert_int_equal(r.num_rows, n);
  int64_t *ids = ref_read_i64(r.columns[num_data]);
  for (int64_t j = 0; j < n; ++j) {
    if (ids[j] - off != idx[j]) {
      fail_msg("output row %lld is input row %lld, want %lld (%d partitions, n %lld)", (long long)j,
               (long long)(ids[j] - off), (long long)idx[j], (int)num_partitions, (long long)n);
    }
  }
  free(ids);
  for (int32_t k = 0; k < num_data; ++k) ref_assert_rows(r.columns[k], data[k], off, idx, n);
  free(idx);
  free(offsets);
}

/* Device copies of data columns + a row-id column, sliced to [off, off + n). */
typedef struct device_table {
  gcol_column *cols[8];
  gcol_column_view views[8];
  int32_t num;
  gcol_table_view table;
} device_table;

static void device_table_make(const ref_column *const *data, int32_t num_data,
                              const ref_column *ids, int64_t off, int64_t n, device_table *t) {
  memset(t, 0, sizeof *t);
  t->num = num_data + 1;
  for (int32_t k = 0; k < t->num; ++k) {
    ref_column_to_device(k < num_data ? data[k] : ids, &t->cols[k]);
    t->views[k] = ref_slice(gcol_column_get_view(t->cols[k]), off, off + n);
  }
  GCOL_TEST_OK(gcol_table_view_make(t->views, t->num, &t->table));
}

static void device_table_free(device_table *t) {
  for (int32_t k = 0; k < t->num; ++k) gcol_column_free(t->cols[k]);
}

static void check_hash_partition_case(gcol_test_rng *rng, int64_t n, int64_t off,
                                      int32_t num_partitions, gcol_hash_function fn,
                                      int32_t num_keys) {
  int64_t const total = n + off;
  ref_column data[3] = {
      ref_column_random(rng, gcol_data_type_make(GCOL_INT64), total, GCOL_TEST_RANDOM_NULLS, 50),
      ref_column_random(rng, gcol_data_type_make(GCOL_STRING), total, GCOL_TEST_RANDOM_NULLS, 0),
      ref_column_random(rng, gcol_data_type_make(GCOL_FLOAT32), total, GCOL_TEST_LAST_NULL, 0)};
  ref_column ids = ref_column_row_ids(total);
  const ref_column *cols[3] = {&data[0], &data[1], &data[2]};
  /* keys: column 0, then 1 (two keys), then 2 (three keys) */
  int32_t const keys[3] = {0, 1, 2};
  uint64_t const seed = gcol_test_rng_next(rng);
  int64_t *pid = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t const h = ref_row_hash(cols, num_keys, off + i, fn, seed);
    pid[i] = (int64_t)(h % (uint64_t)num_partitions);
  }
  device_table t;
  device_table_make(cols, 3, &ids, off, n, &t);
  gcol_table *out = NULL;
  int64_t *offsets = (int64_t *)malloc(((size_t)num_partitions + 1) * sizeof(int64_t));
  GCOL_TEST_OK(gcol_hash_partition(t.table, keys, num_keys, num_partitions, fn, seed, &out, offsets,
                                   NULL, NULL));
  check_result(out, offsets, cols, 3, off, n, pid, num_partitions);
  gcol_table_free(out);
  device_table_free(&t);
  free(offsets);
  free(pid);
  for (int k = 0; k < 3; ++k) ref_column_free(&data[k]);
  ref_column_free(&ids);
}

static void test_hash_partition(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1201);
  static const int64_t sizes[] = {0, 1, 33, 257, 4097, 20000};
  static const int64_t offsets[] = {0, 3, 65};
  static const int32_t parts[] = {1, 2, 7, 256, 3000};
  static const gcol_hash_function fns[] = {GCOL_HASH_MURMUR3_32, GCOL_HASH_MURMUR3_32_SPARK,
                                           GCOL_HASH_XXHASH64};
  for (size_t s = 0; s < NUM_OF(sizes); ++s) {
    for (size_t p = 0; p < NUM_OF(parts); ++p) {
      for (size_t f = 0; f < NUM_OF(fns); ++f) {
        check_hash_partition_case(&rng, sizes[s], offsets[(s + p + f) % NUM_OF(offsets)], parts[p],
                                  fns[f], (int32_t)(1 + (s + f) % 3));
      }
    }
  }
  check_hash_partition_case(&rng, gcol_test_cap(300001), 7, 256, GCOL_HASH_MURMUR3_32, 1);
  check_hash_partition_case(&rng, 20000, 3, 5000, GCOL_HASH_XXHASH64, 2); /* the warp path */
}

/* The map column of the partitions pid (values in range), of type id. */
static ref_column map_column(gcol_test_rng *rng, gcol_type_id id, const int64_t *pid, int64_t n) {
  ref_column m = ref_column_random(rng, gcol_data_type_make(id), n, GCOL_TEST_NO_MASK, 0);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t const v = (uint64_t)pid[i];
    memcpy(m.values + (size_t)i * m.width, &v, m.width); /* little-endian */
  }
  return m;
}

static void check_map_case(gcol_test_rng *rng, gcol_type_id map_type, int64_t n, int64_t off,
                           int32_t num_partitions) {
  int64_t const total = n + off;
  ref_column data[2] = {
      ref_column_random(rng, gcol_data_type_make(GCOL_STRING), total, GCOL_TEST_RANDOM_NULLS, 0),
      ref_column_random(rng, gcol_data_type_make(GCOL_DECIMAL128), total, GCOL_TEST_FIRST_NULL, 0)};
  ref_column ids = ref_column_row_ids(total);
  const ref_column *cols[2] = {&data[0], &data[1]};
  int64_t *pid_all = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
  for (int64_t i = 0; i < total; ++i) pid_all[i] = gcol_test_rng_range(rng, 0, num_partitions - 1);
  ref_column map = map_column(rng, map_type, pid_all, total);
  gcol_column *d_map = NULL;
  ref_column_to_device(&map, &d_map);
  device_table t;
  device_table_make(cols, 2, &ids, off, n, &t);
  gcol_table *out = NULL;
  int64_t *offsets = (int64_t *)malloc(((size_t)num_partitions + 1) * sizeof(int64_t));
  GCOL_TEST_OK(gcol_partition(t.table, ref_slice(gcol_column_get_view(d_map), off, off + n),
                              num_partitions, &out, offsets, NULL, NULL));
  check_result(out, offsets, cols, 2, off, n, pid_all + off, num_partitions);
  gcol_table_free(out);
  device_table_free(&t);
  gcol_column_free(d_map);
  free(offsets);
  free(pid_all);
  ref_column_free(&map);
  for (int k = 0; k < 2; ++k) ref_column_free(&data[k]);
  ref_column_free(&ids);
}

static void test_partition_map(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1202);
  static const gcol_type_id types[] = {GCOL_INT8, GCOL_INT32, GCOL_UINT64};
  static const int64_t sizes[] = {0, 1, 64, 1000, 17000};
  static const int32_t parts[] = {1, 2, 7, 100};
  for (size_t t = 0; t < NUM_OF(types); ++t) {
    for (size_t s = 0; s < NUM_OF(sizes); ++s) {
      for (size_t p = 0; p < NUM_OF(parts); ++p) {
        check_map_case(&rng, types[t], sizes[s], (int64_t)((s + p) % 3) * 33, parts[p]);
      }
    }
  }
  check_map_case(&rng, GCOL_INT32, 5000, 1, 1024); /* the most of the tiled path */
  check_map_case(&rng, GCOL_INT32, 9000, 1, 1025); /* the warp path */
}

/* Tables of fixed-width columns only (1 to 16 bytes, nulls and slices): the tiled path's
 * direct scatter up to 1024 partitions, the warp path and the gather engine above. */
static void check_fixed_width_case(gcol_test_rng *rng, int64_t n, int64_t off,
                                   int32_t num_partitions, bool by_hash) {
  static const gcol_type_id types[] = {GCOL_INT8,    GCOL_UINT32,  GCOL_FLOAT32,
                                       GCOL_INT64,   GCOL_BOOL8,   GCOL_DECIMAL128,
                                       GCOL_FLOAT64, GCOL_INT16};
  enum { NUM_DATA = sizeof types / sizeof types[0] - 1 }; /* device_table holds 8 columns */
  int64_t const total = n + off;
  ref_column data[NUM_DATA];
  const ref_column *cols[NUM_DATA];
  for (int k = 0; k < NUM_DATA; ++k) {
    data[k] = ref_column_random(rng, gcol_data_type_make(types[k]), total,
                                k % 2 ? GCOL_TEST_RANDOM_NULLS : GCOL_TEST_NO_MASK, 0);
    cols[k] = &data[k];
  }
  ref_column ids = ref_column_row_ids(total);
  int64_t *pid = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  int64_t *pid_all = (int64_t *)malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
  for (int64_t i = 0; i < total; ++i) pid_all[i] = gcol_test_rng_range(rng, 0, num_partitions - 1);
  /* INT64 or UINT32 with nulls (the hash's one-key paths of 8 and 4 bytes) */
  int32_t const key = total % 2 == 0 ? 3 : 1;
  uint64_t const seed = gcol_test_rng_next(rng);
  for (int64_t i = 0; i < n; ++i) {
    pid[i] = by_hash ? (int64_t)(ref_row_hash(&cols[key], 1, off + i, GCOL_HASH_MURMUR3_32, seed) %
                                 (uint64_t)num_partitions)
                     : pid_all[off + i];
  }
  ref_column map = map_column(rng, GCOL_INT32, pid_all, total);
  gcol_column *d_map = NULL;
  ref_column_to_device(&map, &d_map);
  device_table t;
  device_table_make(cols, NUM_DATA, &ids, off, n, &t);
  gcol_table *out = NULL;
  int64_t *offsets = (int64_t *)malloc(((size_t)num_partitions + 1) * sizeof(int64_t));
  if (by_hash) {
    GCOL_TEST_OK(gcol_hash_partition(t.table, &key, 1, num_partitions, GCOL_HASH_MURMUR3_32, seed,
                                     &out, offsets, NULL, NULL));
  } else {
    GCOL_TEST_OK(gcol_partition(t.table, ref_slice(gcol_column_get_view(d_map), off, off + n),
                                num_partitions, &out, offsets, NULL, NULL));
  }
  check_result(out, offsets, cols, NUM_DATA, off, n, pid, num_partitions);
  gcol_table_view const r = gcol_table_get_view(out);
  for (int k = 0; k < NUM_DATA; ++k) {
    int64_t nulls = 0;
    for (int64_t i = 0; i < n; ++i) nulls += data[k].valid != NULL && !data[k].valid[off + i];
    assert_int_equal(r.columns[k].null_count, nulls);
  }
  gcol_table_free(out);
  device_table_free(&t);
  gcol_column_free(d_map);
  free(offsets);
  free(pid);
  free(pid_all);
  ref_column_free(&map);
  for (int k = 0; k < NUM_DATA; ++k) ref_column_free(&data[k]);
  ref_column_free(&ids);
}

static void test_partition_fixed_width(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1207);
  static const int64_t sizes[] = {1, 31, 33, 1000, 8193, 40000};
  static const int32_t parts[] = {1, 2, 33, 256, 1024, 1025, 3000};
  for (size_t s = 0; s < NUM_OF(sizes); ++s) {
    for (size_t p = 0; p < NUM_OF(parts); ++p) {
      int64_t const n = gcol_test_cap(sizes[s]), off = (int64_t)((s + p) % 3) * 31;
      check_fixed_width_case(&rng, n, off, parts[p], (s + p) % 2 == 0);
    }
  }
}

/* A null entry, a negative value, a value == num_partitions, UINT64 above INT64_MAX: each
 * gives INVALID_ARGUMENT with no output (the teardown checks that nothing is left). */
static void test_partition_map_bad_entries(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1203);
  int64_t const n = 1000;
  ref_column data =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), n, GCOL_TEST_RANDOM_NULLS, 0);
  gcol_column *d_data = NULL;
  ref_column_to_device(&data, &d_data);
  gcol_column_view const dv = gcol_column_get_view(d_data);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&dv, 1, &t));
  int64_t *pid = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) pid[i] = i % 5;
  for (int c = 0; c < 4; ++c) {
    ref_column map = map_column(&rng, c == 3 ? GCOL_UINT64 : GCOL_INT32, pid, n);
    int64_t const bad = 1 + 311 * c;
    if (c == 0) {
      map.has_mask = true;
      map.valid[bad] = 0;
    } else if (c == 1) {
      int32_t const v = -1;
      memcpy(map.values + bad * 4, &v, 4);
    } else if (c == 2) {
      int32_t const v = 5;
      memcpy(map.values + bad * 4, &v, 4);
    } else {
      uint64_t const v = 0x8000000000000001ull;
      memcpy(map.values + bad * 8, &v, 8);
    }
    gcol_column *d_map = NULL;
    ref_column_to_device(&map, &d_map);
    gcol_table *out = NULL;
    int64_t offsets[6];
    GCOL_TEST_STATUS(gcol_partition(t, gcol_column_get_view(d_map), 5, &out, offsets, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(out);
    gcol_column_free(d_map);
    ref_column_free(&map);
  }
  /* map size differs from the table's */
  ref_column small = map_column(&rng, GCOL_INT32, pid, n - 1);
  gcol_column *d_small = NULL;
  ref_column_to_device(&small, &d_small);
  gcol_table *out = NULL;
  int64_t offsets[6];
  GCOL_TEST_STATUS(gcol_partition(t, gcol_column_get_view(d_small), 5, &out, offsets, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_null(out);
  gcol_column_free(d_small);
  ref_column_free(&small);
  free(pid);
  gcol_column_free(d_data);
  ref_column_free(&data);
}

static void test_round_robin_partition(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1204);
  static const int64_t sizes[] = {0, 1, 7, 129, 10000};
  static const int32_t parts[] = {1, 3, 256, 20000};
  for (size_t s = 0; s < NUM_OF(sizes); ++s) {
    for (size_t p = 0; p < NUM_OF(parts); ++p) {
      int64_t const n = sizes[s], off = (int64_t)(s % 2) * 5;
      int32_t const np = parts[p];
      int32_t const start = (int32_t)gcol_test_rng_range(&rng, 0, np - 1);
      ref_column data = ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), n + off,
                                          GCOL_TEST_RANDOM_NULLS, 0);
      ref_column ids = ref_column_row_ids(n + off);
      const ref_column *cols[1] = {&data};
      int64_t *pid = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
      for (int64_t i = 0; i < n; ++i) pid[i] = (i + start) % np;
      device_table t;
      device_table_make(cols, 1, &ids, off, n, &t);
      gcol_table *out = NULL;
      int64_t *offsets = (int64_t *)malloc(((size_t)np + 1) * sizeof(int64_t));
      GCOL_TEST_OK(gcol_round_robin_partition(t.table, np, start, &out, offsets, NULL, NULL));
      check_result(out, offsets, cols, 1, off, n, pid, np);
      gcol_table_free(out);
      device_table_free(&t);
      free(offsets);
      free(pid);
      ref_column_free(&data);
      ref_column_free(&ids);
    }
  }
}

/* LIST and STRUCT payload (nulls inside) through all three functions, checked against
 * gcol_gather of the same table by the expected row order. */
static void test_partition_nested_payload(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1206);
  int64_t const n = 3000;
  int32_t const np = 7;
  /* LIST<INT32>: row i holds i % 4 values */
  int32_t *list_offsets = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  list_offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) list_offsets[i + 1] = list_offsets[i] + (int32_t)(i % 4);
  int64_t const num_values = list_offsets[n];
  ref_column values = ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), num_values,
                                        GCOL_TEST_RANDOM_NULLS, 0);
  gcol_column *d_offsets = NULL, *d_values = NULL, *d_list = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n + 1, list_offsets,
                                            NULL, NULL, NULL, &d_offsets));
  ref_column_to_device(&values, &d_values);
  GCOL_TEST_OK(gcol_column_make_list(n, d_offsets, d_values, NULL, 0, &d_list));
  /* STRUCT<INT64, STRING> */
  ref_column f0 =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), n, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column f1 =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), n, GCOL_TEST_RANDOM_NULLS, 0);
  gcol_column *fields[2] = {NULL, NULL}, *d_struct = NULL, *d_key = NULL;
  ref_column_to_device(&f0, &fields[0]);
  ref_column_to_device(&f1, &fields[1]);
  GCOL_TEST_OK(gcol_column_make_struct(n, fields, 2, NULL, 0, &d_struct));
  ref_column key =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), n, GCOL_TEST_NO_MASK, 0);
  ref_column_to_device(&key, &d_key);
  ref_column map =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT16), n, GCOL_TEST_NO_MASK, 0);
  int64_t *pid = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) {
    int16_t const v = (int16_t)gcol_test_rng_range(&rng, 0, np - 1);
    memcpy(map.values + i * 2, &v, 2);
  }
  gcol_column *d_map = NULL;
  ref_column_to_device(&map, &d_map);
  gcol_column_view const views[3] = {gcol_column_get_view(d_key), gcol_column_get_view(d_list),
                                     gcol_column_get_view(d_struct)};
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(views, 3, &t));
  const ref_column *key_cols[1] = {&key};
  int64_t *idx = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  int64_t offsets[8], want_offsets[8];
  for (int which = 0; which < 3; ++which) {
    gcol_table *out = NULL;
    int32_t const key_index = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (which == 0) {
        pid[i] = (int64_t)(ref_row_hash(key_cols, 1, i, GCOL_HASH_XXHASH64, 5) % (uint64_t)np);
      } else if (which == 1) {
        int16_t v;
        memcpy(&v, map.values + i * 2, 2);
        pid[i] = v;
      } else {
        pid[i] = (i + 3) % np;
      }
    }
    if (which == 0) {
      GCOL_TEST_OK(gcol_hash_partition(t, &key_index, 1, np, GCOL_HASH_XXHASH64, 5, &out, offsets,
                                       NULL, NULL));
    } else if (which == 1) {
      GCOL_TEST_OK(gcol_partition(t, gcol_column_get_view(d_map), np, &out, offsets, NULL, NULL));
    } else {
      GCOL_TEST_OK(gcol_round_robin_partition(t, np, 3, &out, offsets, NULL, NULL));
    }
    reference_order(pid, n, np, idx, want_offsets);
    assert_memory_equal(offsets, want_offsets, sizeof(int64_t) * (size_t)(np + 1));
    gcol_column *d_idx = NULL;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, idx, NULL, NULL,
                                              NULL, &d_idx));
    gcol_table *expected = NULL;
    GCOL_TEST_OK(gcol_gather(t, gcol_column_get_view(d_idx), GCOL_OUT_OF_BOUNDS_DONT_CHECK,
                             GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &expected, NULL, NULL));
    gcol_table_view const got = gcol_table_get_view(out);
    gcol_table_view const want = gcol_table_get_view(expected);
    for (int32_t k = 0; k < 3; ++k) gcol_test_assert_columns_equal(got.columns[k], want.columns[k]);
    gcol_table_free(expected);
    gcol_table_free(out);
    gcol_column_free(d_idx);
  }
  free(idx);
  free(pid);
  free(list_offsets);
  gcol_column_free(d_list);
  gcol_column_free(d_struct);
  gcol_column_free(d_key);
  gcol_column_free(d_map);
  ref_column_free(&values);
  ref_column_free(&f0);
  ref_column_free(&f1);
  ref_column_free(&key);
  ref_column_free(&map);
}

typedef struct alloc_ctx {
  gcol_table_view table;
  gcol_column_view map;
  int which;
  gcol_table *out;
  int64_t offsets[8];
} alloc_ctx;

static gcol_status alloc_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  int32_t const key = 0;
  switch (c->which) {
    case 0:
      return gcol_hash_partition(c->table, &key, 1, 7, GCOL_HASH_MURMUR3_32, 0, &c->out, c->offsets,
                                 NULL, NULL);
    case 1:
      return gcol_partition(c->table, c->map, 7, &c->out, c->offsets, NULL, NULL);
    default:
      return gcol_round_robin_partition(c->table, 7, 2, &c->out, c->offsets, NULL, NULL);
  }
}

static void alloc_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_table_free(c->out);
  c->out = NULL;
}

static void test_partition_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1205);
  int64_t const n = 500;
  ref_column a =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), n, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column b =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), n, GCOL_TEST_RANDOM_NULLS, 0);
  int64_t pid[500];
  for (int64_t i = 0; i < n; ++i) pid[i] = (i * 7919) % 7;
  ref_column m = map_column(&rng, GCOL_INT16, pid, n);
  gcol_column *da = NULL, *db = NULL, *dm = NULL;
  ref_column_to_device(&a, &da);
  ref_column_to_device(&b, &db);
  ref_column_to_device(&m, &dm);
  gcol_column_view views[2] = {gcol_column_get_view(da), gcol_column_get_view(db)};
  alloc_ctx c;
  memset(&c, 0, sizeof c);
  GCOL_TEST_OK(gcol_table_view_make(views, 2, &c.table));
  c.map = gcol_column_get_view(dm);
  for (c.which = 0; c.which < 3; ++c.which) {
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &c) >= 3);
  }
  /* Fixed-width only (the direct scatter): the INT64 column alone. */
  GCOL_TEST_OK(gcol_table_view_make(views, 1, &c.table));
  for (c.which = 0; c.which < 3; ++c.which) {
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &c) >= 3);
  }
  gcol_column_free(da);
  gcol_column_free(db);
  gcol_column_free(dm);
  ref_column_free(&a);
  ref_column_free(&b);
  ref_column_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_hash_partition),
      GCOL_TEST_GPU(test_partition_map),
      GCOL_TEST_GPU(test_partition_map_bad_entries),
      GCOL_TEST_GPU(test_partition_fixed_width),
      GCOL_TEST_GPU(test_round_robin_partition),
      GCOL_TEST_GPU(test_partition_nested_payload),
      GCOL_TEST_GPU(test_partition_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("partitioning", tests);
}
