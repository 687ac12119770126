/*
 * GPU tests of gcol_hash (include/gcol/hashing.h) against the host reference
 * (MD5 and SHA-256 as lowercase hex strings; the seed must not matter for them)
 * (hashing_reference.c): every function over every accepted type, the sizes, slice offsets
 * and validity patterns of TESTING.md, strings ("" vs null, "\0", long), multi-column tables
 * with mixed types, seeds; allocation failures.
 */
#include "hashing_reference.h"

static const gcol_hash_function fns[] = {GCOL_HASH_MURMUR3_32, GCOL_HASH_MURMUR3_32_SPARK,
                                         GCOL_HASH_XXHASH64, GCOL_HASH_MD5, GCOL_HASH_SHA256};
#define NUM_OF(a) (sizeof(a) / sizeof((a)[0]))

static gcol_data_type type_of(int id) {
  return gcol_type_is_decimal((gcol_type_id)id) ? gcol_data_type_decimal((gcol_type_id)id, -2)
                                                : gcol_data_type_make((gcol_type_id)id);
}

/* Hashes rows [off, off + n) of the host columns on the device and compares every row. */
static void check_hash(const ref_column *const *cols, int32_t num_cols, int64_t off, int64_t n,
                       gcol_hash_function fn, uint64_t seed) {
  gcol_column *dev[8] = {NULL};
  gcol_column_view views[8];
  for (int32_t k = 0; k < num_cols; ++k) {
    ref_column_to_device(cols[k], &dev[k]);
    views[k] = ref_slice(gcol_column_get_view(dev[k]), off, off + n);
  }
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(views, num_cols, &t));
  gcol_column *out = NULL;
  GCOL_TEST_OK(gcol_hash(t, fn, seed, &out, NULL, NULL));
  gcol_column_view const r = gcol_column_get_view(out);
  assert_int_equal(r.size, n);
  assert_int_equal(r.null_count, 0);
  assert_null(r.null_mask);
  if (fn == GCOL_HASH_MD5 || fn == GCOL_HASH_SHA256) {
    int64_t const w = fn == GCOL_HASH_MD5 ? 32 : 64;
    assert_int_equal(r.type.id, GCOL_STRING);
    gcol_host_strings *hs = NULL;
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(r, NULL, &hs));
    char want[65];
    for (int64_t i = 0; i < n; ++i) {
      ref_row_digest(cols, num_cols, off + i, fn, want);
      int64_t const len = hs->offsets[i + 1] - hs->offsets[i];
      if (!hs->valid[i] || len != w || memcmp(hs->chars + hs->offsets[i], want, (size_t)w) != 0) {
        fail_msg("fn %d, %d columns (first %s), row %lld of %lld at offset %lld: got %.*s, want %s",
                 (int)fn, (int)num_cols, gcol_type_name(cols[0]->type.id), (long long)i,
                 (long long)n, (long long)off, (int)len, hs->chars + hs->offsets[i], want);
      }
    }
    gcol_host_strings_free(hs);
    gcol_column_free(out);
    for (int32_t k = 0; k < num_cols; ++k) gcol_column_free(dev[k]);
    return;
  }
  gcol_type_id const expected_type = fn == GCOL_HASH_MURMUR3_32         ? GCOL_UINT32
                                     : fn == GCOL_HASH_MURMUR3_32_SPARK ? GCOL_INT32
                                                                        : GCOL_UINT64;
  assert_int_equal(r.type.id, expected_type);
  size_t const width = gcol_type_size(expected_type);
  uint8_t *got = (uint8_t *)malloc((size_t)(n > 0 ? n : 1) * width);
  GCOL_TEST_OK(gcol_column_copy_to_host(r, got, NULL, NULL));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t const want = ref_row_hash(cols, num_cols, off + i, fn, seed);
    uint64_t have = 0;
    if (width == 4) {
      uint32_t v;
      memcpy(&v, got + (size_t)i * 4, 4);
      have = v;
    } else {
      memcpy(&have, got + (size_t)i * 8, 8);
    }
    if (have != want) {
      fail_msg("fn %d, %d columns (first %s), row %lld of %lld at offset %lld: got %llx, want %llx",
               (int)fn, (int)num_cols, gcol_type_name(cols[0]->type.id), (long long)i, (long long)n,
               (long long)off, (unsigned long long)have, (unsigned long long)want);
    }
  }
  free(got);
  gcol_column_free(out);
  for (int32_t k = 0; k < num_cols; ++k) gcol_column_free(dev[k]);
}

static void check_one_column(gcol_test_rng *rng, gcol_data_type type, int64_t n, int64_t off,
                             gcol_test_validity v, gcol_hash_function fn, uint64_t seed) {
  ref_column c = ref_column_random(rng, type, n + off, v, 0);
  const ref_column *cols[1] = {&c};
  check_hash(cols, 1, off, n, fn, seed);
  ref_column_free(&c);
}

/* Every type, every function, every validity pattern, a few sizes and offsets. */
static void test_hash_every_type(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1101);
  static const int64_t sizes[] = {0, 1, 7, 33, 257, 1000};
  static const int64_t offsets[] = {0, 3, 33, 65};
  for (int id = GCOL_INT8; id <= GCOL_STRING; ++id) {
    if (!gcol_test_in_part(state, (size_t)id)) continue;
    for (size_t f = 0; f < NUM_OF(fns); ++f) {
      for (size_t s = 0; s < NUM_OF(sizes); ++s) {
        for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
          /* under the tools every other (function, size, validity): each type still runs
           * every function, size (257 and 1000 past a block) and validity */
          if (!gcol_test_keep_combination(f + s + (size_t)v)) continue;
          check_one_column(&rng, type_of(id), sizes[s], offsets[(s + (size_t)v) % NUM_OF(offsets)],
                           (gcol_test_validity)v, fns[f], gcol_test_rng_next(&rng));
        }
      }
    }
  }
}

/* The sizes and offsets axes on INT64 and STRING, and one large capped case. */
static void test_hash_sizes_offsets(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1102);
  gcol_data_type const types[2] = {gcol_data_type_make(GCOL_INT64),
                                   gcol_data_type_make(GCOL_STRING)};
  for (int t = 0; t < 2; ++t) {
    for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
      for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
        if (t == 1 && gcol_test_sizes[s] > 5000 && o > 2) continue;
        gcol_hash_function const fn = fns[(s + o) % NUM_OF(fns)];
        check_one_column(&rng, types[t], gcol_test_sizes[s], gcol_test_offsets[o],
                         o % 2 ? GCOL_TEST_RANDOM_NULLS : GCOL_TEST_NO_MASK, fn, 42);
      }
    }
  }
  for (size_t f = 0; f < NUM_OF(fns); ++f) {
    check_one_column(&rng, types[0], gcol_test_cap(1000003), 7, GCOL_TEST_RANDOM_NULLS, fns[f], 0);
  }
}

/* Strings: "" vs null vs "\0", all lengths 0..70 (every tail length), one > 64 KiB. */
static void test_hash_strings_edge_cases(void **state) {
  (void)state;
  int64_t const n = 80;
  ref_column c;
  memset(&c, 0, sizeof c);
  c.type = gcol_data_type_make(GCOL_STRING);
  c.size = n;
  c.strs = (char **)calloc((size_t)n, sizeof(char *));
  c.lens = (int64_t *)calloc((size_t)n, sizeof(int64_t));
  c.valid = (uint8_t *)malloc((size_t)n);
  c.has_mask = true;
  gcol_test_rng rng = gcol_test_rng_make(1103);
  for (int64_t i = 0; i < n; ++i) {
    int64_t const len = i < 72 ? i : (i == 79 ? 70000 : 1);
    c.lens[i] = len;
    c.strs[i] = (char *)malloc((size_t)len + 1);
    for (int64_t b = 0; b < len; ++b) c.strs[i][b] = (char)(gcol_test_rng_next(&rng) | 0x80u);
    c.strs[i][len] = '\0';
    c.valid[i] = 1;
  }
  c.strs[72][0] = '\0'; /* "\0" */
  c.valid[73] = 0;      /* null next to "" rows */
  c.lens[73] = 0;
  c.strs[74][0] = 'a';
  const ref_column *cols[1] = {&c};
  for (size_t f = 0; f < NUM_OF(fns); ++f) {
    check_hash(cols, 1, 0, n, fns[f], 42);
    check_hash(cols, 1, 5, n - 5, fns[f], 7);
  }
  ref_column_free(&c);
}

/* Tables of several columns of mixed types, nulls in each. */
static void test_hash_multi_column(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1104);
  static const gcol_type_id ids[] = {GCOL_INT8,  GCOL_STRING, GCOL_FLOAT64, GCOL_DECIMAL128,
                                     GCOL_BOOL8, GCOL_UINT16, GCOL_FLOAT32, GCOL_INT64};
  static const int64_t sizes[] = {1, 64, 1000, 4097};
  for (size_t s = 0; s < NUM_OF(sizes); ++s) {
    for (int32_t num = 2; num <= 8; num += 3) {
      ref_column c[8];
      const ref_column *cols[8];
      int64_t const off = (int64_t)s * 31 % 66;
      for (int32_t k = 0; k < num; ++k) {
        c[k] = ref_column_random(&rng, type_of(ids[(k + (int32_t)s) % 8]), sizes[s] + off,
                                 (gcol_test_validity)((k + 2) % GCOL_TEST_NUM_VALIDITY), 0);
        cols[k] = &c[k];
      }
      for (size_t f = 0; f < NUM_OF(fns); ++f) check_hash(cols, num, off, sizes[s], fns[f], 42);
      for (int32_t k = 0; k < num; ++k) ref_column_free(&c[k]);
    }
  }
}

typedef struct alloc_ctx {
  gcol_table_view table;
  gcol_hash_function fn;
  gcol_column *out;
} alloc_ctx;

static gcol_status alloc_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  return gcol_hash(c->table, c->fn, 1, &c->out, NULL, NULL);
}

static void alloc_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_column_free(c->out);
  c->out = NULL;
}

static void test_hash_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1105);
  ref_column a =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), 300, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column b =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), 300, GCOL_TEST_RANDOM_NULLS, 0);
  gcol_column *da = NULL, *db = NULL;
  ref_column_to_device(&a, &da);
  ref_column_to_device(&b, &db);
  gcol_column_view views[2] = {gcol_column_get_view(da), gcol_column_get_view(db)};
  alloc_ctx c;
  memset(&c, 0, sizeof c);
  GCOL_TEST_OK(gcol_table_view_make(views, 2, &c.table));
  for (size_t f = 0; f < NUM_OF(fns); ++f) {
    c.fn = fns[f];
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &c) >= 2);
  }
  gcol_column_free(da);
  gcol_column_free(db);
  ref_column_free(&a);
  ref_column_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_hash_every_type, 0, 2),
      GCOL_TEST_GPU_PART(test_hash_every_type, 1, 2),
      GCOL_TEST_GPU(test_hash_sizes_offsets),
      GCOL_TEST_GPU(test_hash_strings_edge_cases),  GCOL_TEST_GPU(test_hash_multi_column),
      GCOL_TEST_GPU(test_hash_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("hashing", tests);
}
