/*
 * GPU tests of include/gcol/join.h against a host nested-loop reference: every join kind on
 * keys of several types (duplicates on both sides, nulls equal and unequal, floats with
 * -0.0 / NaN, strings, several key columns), sliced inputs, empty sides, batches equal to the
 * whole probe, the exact probe size, the joined table, cross join, bad input and allocation
 * failures. The radix-partitioned hash join (gcol_join_options) is forced on the same cases
 * with 1 to 256 partitions, its order checked (exactly, for packed keys), and on a few million
 * rows of keys spread over 64 bits against the counts their construction gives.
 *
 * Left and right rows are two slices of one host table (left [off, off + nl), right
 * [off + nl, off + nl + nr)), so the reference compares them with ref_rows_equal and the
 * right side is always a slice with an offset.
 */
#include <stdlib.h>
#include <string.h>

#include "../filtering/filtering_reference.h"
#include "gcol/hash.h"
#include "gcol/join.h"
#include "gcol/probe.h"
#include "join/radix_plan.h"
#include "test_util.h"

#define NUM_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_KEYS 3

typedef struct pair {
  int64_t l, r;
} pair;

static int pair_cmp(const void *a, const void *b) {
  const pair *x = (const pair *)a, *y = (const pair *)b;
  if (x->l != y->l) return x->l < y->l ? -1 : 1;
  if (x->r != y->r) return x->r < y->r ? -1 : 1;
  return 0;
}

/* A map column (INT32 or INT64, no nulls) as int64 host values. */
static int64_t *read_map(const gcol_column *c) {
  gcol_column_view const v = gcol_column_get_view(c);
  int64_t *out = (int64_t *)malloc((size_t)(v.size > 0 ? v.size : 1) * sizeof(int64_t));
  assert_null(v.null_mask);
  if (v.type.id == GCOL_INT64) {
    GCOL_TEST_OK(gcol_column_copy_to_host(v, out, NULL, NULL));
  } else {
    assert_int_equal(v.type.id, GCOL_INT32);
    int32_t *tmp = (int32_t *)malloc((size_t)(v.size > 0 ? v.size : 1) * sizeof(int32_t));
    GCOL_TEST_OK(gcol_column_copy_to_host(v, tmp, NULL, NULL));
    for (int64_t i = 0; i < v.size; ++i) out[i] = tmp[i];
    free(tmp);
  }
  return out;
}

/* The expected pairs of a join (r = -1 for semi / anti), unsorted; returns the count. */
static int64_t reference_pairs(const ref_column *const *keys, int32_t num_keys, int64_t off,
                               int64_t nl, int64_t nr, gcol_join_kind kind, bool nulls_equal,
                               pair **out) {
  int64_t cap = 16, count = 0;
  pair *p = (pair *)malloc((size_t)cap * sizeof *p);
  bool *right_matched = (bool *)calloc((size_t)(nr > 0 ? nr : 1), sizeof(bool));
#define PUSH(L, R)                                     \
  do {                                                 \
    if (count == cap) {                                \
      cap *= 2;                                        \
      p = (pair *)realloc(p, (size_t)cap * sizeof *p); \
    }                                                  \
    p[count].l = (L);                                  \
    p[count].r = (R);                                  \
    ++count;                                           \
  } while (0)
  for (int64_t i = 0; i < nl; ++i) {
    int64_t matches = 0;
    for (int64_t j = 0; j < nr; ++j) {
      if (!ref_rows_equal(keys, num_keys, nulls_equal, off + i, off + nl + j)) continue;
      ++matches;
      right_matched[j] = true;
      if (kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL) PUSH(i, j);
    }
    if (matches == 0 && (kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL)) PUSH(i, -1);
    if ((matches > 0 && kind == GCOL_JOIN_LEFT_SEMI) ||
        (matches == 0 && kind == GCOL_JOIN_LEFT_ANTI)) {
      PUSH(i, -1);
    }
  }
  if (kind == GCOL_JOIN_FULL) {
    for (int64_t j = 0; j < nr; ++j) {
      if (!right_matched[j]) PUSH(-1, j);
    }
  }
#undef PUSH
  free(right_matched);
  *out = p;
  return count;
}

static bool has_right(gcol_join_kind kind) {
  return kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL;
}

/* Host pairs of two device maps (right NULL: -1). */
static pair *maps_to_pairs(const gcol_column *left, const gcol_column *right, int64_t *count) {
  int64_t const n = left->size;
  int64_t *l = read_map(left);
  int64_t *r = right != NULL ? read_map(right) : NULL;
  pair *p = (pair *)malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
  for (int64_t k = 0; k < n; ++k) {
    p[k].l = l[k];
    p[k].r = r != NULL ? r[k] : -1;
  }
  free(l);
  free(r);
  *count = n;
  return p;
}

static void assert_same_pairs(pair *got, int64_t ng, pair *want, int64_t nw, const char *what) {
  qsort(got, (size_t)ng, sizeof *got, pair_cmp);
  qsort(want, (size_t)nw, sizeof *want, pair_cmp);
  if (ng != nw) fail_msg("%s: %lld output rows, want %lld", what, (long long)ng, (long long)nw);
  for (int64_t k = 0; k < ng; ++k) {
    if (got[k].l != want[k].l || got[k].r != want[k].r) {
      fail_msg("%s: sorted pair %lld is (%lld, %lld), want (%lld, %lld)", what, (long long)k,
               (long long)got[k].l, (long long)got[k].r, (long long)want[k].l,
               (long long)want[k].r);
    }
  }
}

typedef struct join_case {
  gcol_type_id types[MAX_KEYS];
  int32_t num_keys;
  int pool; /* distinct values per key column (small: many duplicates) */
  gcol_test_validity validity;
} join_case;

/* The options check_columns builds with (NULL: gcol_join_hash_create()), and for packed keys
 * under forced radix bits each left row's place in the partitioned order (NULL: unchecked). */
static const gcol_join_options *g_options;
static const int64_t *g_radix_rank;

static gcol_join_options options_of(gcol_join_algorithm algorithm, int32_t radix_bits) {
  gcol_join_options o;
  memset(&o, 0, sizeof o);
  o.algorithm = algorithm;
  o.radix_bits = radix_bits;
  return o;
}

/* The documented order of a probe's output: the left rows' groups (one group on one table,
 * `parts` partitions and the group of rows that match nothing on radix partitions), each
 * ascending, a row's matches together; so at most `parts` descents. With g_radix_rank the
 * exact order of the groups. Then a full join's right-only rows (left -1). */
static void check_order(const pair *p, int64_t n, int32_t parts, const char *what) {
  int64_t descents = 0, prev = -1;
  bool tail = false;
  for (int64_t k = 0; k < n; ++k) {
    if (p[k].l < 0) {
      tail = true;
      continue;
    }
    if (tail) fail_msg("%s: left row %lld after the right-only rows", what, (long long)p[k].l);
    if (prev >= 0 && p[k].l != prev) {
      descents += p[k].l < prev;
      if (g_radix_rank != NULL && g_radix_rank[p[k].l] <= g_radix_rank[prev]) {
        fail_msg("%s: left row %lld after %lld, not in partition order", what, (long long)p[k].l,
                 (long long)prev);
      }
    }
    prev = p[k].l;
  }
  if (descents > parts) {
    fail_msg("%s: %lld descents of the left rows, at most %d groups", what, (long long)descents,
             (int)parts + 1);
  }
}

static void check_columns(ref_column *cols, const join_case *jc, int64_t nl, int64_t nr,
                          int64_t off);

/* One case: every kind, both null options, the whole probe and batches. */
static void check_case(gcol_test_rng *rng, const join_case *jc, int64_t nl, int64_t nr,
                       int64_t off) {
  ref_column cols[MAX_KEYS];
  for (int32_t k = 0; k < jc->num_keys; ++k) {
    cols[k] = ref_column_random(rng, gcol_data_type_make(jc->types[k]), off + nl + nr,
                                k == 0 ? jc->validity : GCOL_TEST_NO_MASK, jc->pool);
  }
  check_columns(cols, jc, nl, nr, off);
}

/* The key columns `cols` (rows [off, off + nl) probe, [off + nl, off + nl + nr) build) joined
 * every way; frees them. */
static void check_columns(ref_column *cols, const join_case *jc, int64_t nl, int64_t nr,
                          int64_t off) {
  int64_t const total = off + nl + nr;
  const ref_column *keys[MAX_KEYS];
  gcol_column *d[MAX_KEYS];
  gcol_column_view lv[MAX_KEYS], rv[MAX_KEYS];
  for (int32_t k = 0; k < jc->num_keys; ++k) {
    keys[k] = &cols[k];
    ref_column_to_device(&cols[k], &d[k]);
    lv[k] = ref_slice(gcol_column_get_view(d[k]), off, off + nl);
    rv[k] = ref_slice(gcol_column_get_view(d[k]), off + nl, total);
  }
  gcol_table_view left, right;
  GCOL_TEST_OK(gcol_table_view_make(lv, jc->num_keys, &left));
  GCOL_TEST_OK(gcol_table_view_make(rv, jc->num_keys, &right));
  static const gcol_join_kind kinds[] = {GCOL_JOIN_INNER, GCOL_JOIN_LEFT, GCOL_JOIN_FULL,
                                         GCOL_JOIN_LEFT_SEMI, GCOL_JOIN_LEFT_ANTI};
  for (int ne = 0; ne < 2; ++ne) {
    gcol_null_equality const nulls = ne ? GCOL_NULLS_UNEQUAL : GCOL_NULLS_EQUAL;
    gcol_join_hash *h = NULL;
    if (g_options != NULL) {
      GCOL_TEST_OK(gcol_join_hash_create_with_options(right, nulls, g_options, &h, NULL));
    } else {
      GCOL_TEST_OK(gcol_join_hash_create(right, nulls, &h, NULL));
    }
    assert_int_equal(gcol_join_hash_build_rows(h), nr);
    /* forced radix: always partitioned; one table (and AUTO on maps this small): never */
    int32_t const parts = gcol_join_hash_probe_partitions(h, nl);
    if (g_options != NULL && g_options->algorithm == GCOL_JOIN_ALGORITHM_RADIX) {
      int32_t const bits = g_options->radix_bits;
      assert_true(parts >= 1 && parts <= (bits > 0 ? 1 << bits : 1 << GCOL_JOIN_RADIX_MAX_BITS));
    } else {
      assert_int_equal(parts, 0);
    }
    for (size_t q = 0; q < NUM_OF(kinds); ++q) {
      gcol_join_kind const kind = kinds[q];
      char what[200];
      snprintf(what, sizeof what,
               "%s key0 x%d, nl %lld nr %lld off %lld, kind %d, nulls %d, algorithm %d bits %d",
               gcol_type_name(jc->types[0]), (int)jc->num_keys, (long long)nl, (long long)nr,
               (long long)off, (int)kind, ne, g_options != NULL ? (int)g_options->algorithm : 0,
               g_options != NULL ? (int)g_options->radix_bits : 0);
      pair *want = NULL;
      int64_t const nw =
          reference_pairs(keys, jc->num_keys, off, nl, nr, kind, nulls == GCOL_NULLS_EQUAL, &want);
      int64_t size = -1;
      GCOL_TEST_OK(gcol_join_hash_probe_size(h, left, kind, &size, NULL));
      assert_int_equal(size, nw);
      gcol_column *lm = NULL, *rm = NULL;
      GCOL_TEST_OK(gcol_join_hash_probe(h, left, kind, 0, -1, &lm, &rm, NULL, NULL));
      assert_int_equal(lm->type.id, GCOL_INT32);
      assert_true(has_right(kind) == (rm != NULL));
      int64_t ng = 0;
      pair *whole = maps_to_pairs(lm, rm, &ng);
      /* batches (of one row while that takes few calls; of a 16th and a third of the output,
       * which split the matches of a repeated key), concatenated: the whole output in order.
       * Inner (runs split) and full (the right-only tail) joins, nulls equal: the other
       * kinds place rows by the same code. */
      /* under the tools one-row batches up to 12 output rows and a fifth instead of a 16th:
       * batches still start and end inside a repeated key's run and in the full join's
       * right-only tail, in 10 probe calls instead of up to 69 (each probes every left row) */
      int64_t const batches[] = {nw <= gcol_test_if_sparse(48, 12) ? 1 : 0,
                                 nw / gcol_test_if_sparse(16, 5) + 1, nw / 3 + 1};
      bool const batched = ne == 0 && (kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_FULL);
      for (size_t b = 0; batched && b < NUM_OF(batches); ++b) {
        if (batches[b] == 0) continue;
        int64_t at = 0;
        for (int64_t first = 0; first < nw; first += batches[b]) {
          gcol_column *bl = NULL, *br = NULL;
          GCOL_TEST_OK(
              gcol_join_hash_probe(h, left, kind, first, batches[b], &bl, &br, NULL, NULL));
          int64_t nb = 0;
          pair *part = maps_to_pairs(bl, br, &nb);
          assert_int_equal(nb, first + batches[b] <= nw ? batches[b] : nw - first);
          for (int64_t k = 0; k < nb; ++k, ++at) {
            if (part[k].l != whole[at].l || part[k].r != whole[at].r) {
              fail_msg("%s: batch of %lld, output row %lld differs from the whole probe", what,
                       (long long)batches[b], (long long)at);
            }
          }
          free(part);
          gcol_column_free(bl);
          gcol_column_free(br);
        }
        assert_int_equal(at, nw);
      }
      /* the documented order: left rows ascending on one table, grouped by partition on
       * radix partitions (full join's right-only rows last) */
      check_order(whole, ng, parts, what);
      assert_same_pairs(whole, ng, want, nw, what);
      free(whole);
      free(want);
      gcol_column_free(lm);
      gcol_column_free(rm);
    }
    gcol_join_hash_free(h);
  }
  for (int32_t k = 0; k < jc->num_keys; ++k) {
    gcol_column_free(d[k]);
    ref_column_free(&cols[k]);
  }
}

static const join_case kind_cases[] = {
    {{GCOL_INT32}, 1, 7, GCOL_TEST_RANDOM_NULLS},
    {{GCOL_INT64}, 1, 0, GCOL_TEST_NO_MASK}, /* random bits: few matches */
    {{GCOL_INT64}, 1, 50, GCOL_TEST_RANDOM_NULLS},
    {{GCOL_FLOAT64}, 1, 9, GCOL_TEST_RANDOM_NULLS}, /* pool with NaN, -0.0 */
    {{GCOL_FLOAT32}, 1, 0, GCOL_TEST_NO_MASK},
    {{GCOL_STRING}, 1, 11, GCOL_TEST_RANDOM_NULLS},
    {{GCOL_BOOL8}, 1, 2, GCOL_TEST_RANDOM_NULLS},
    {{GCOL_DECIMAL128}, 1, 5, GCOL_TEST_FIRST_NULL},
    {{GCOL_TIMESTAMP_MILLISECONDS}, 1, 13, GCOL_TEST_LAST_NULL},
    {{GCOL_INT32, GCOL_STRING}, 2, 4, GCOL_TEST_RANDOM_NULLS},
    {{GCOL_INT16, GCOL_FLOAT64, GCOL_STRING}, 3, 3, GCOL_TEST_ALL_NULL},
    /* unique build keys (the one-slot path): packed with a null only on the probe side
     * (FIRST_NULL at offset 0), strings, two columns */
    {{GCOL_INT32}, 1, 0, GCOL_TEST_FIRST_NULL},
    {{GCOL_STRING}, 1, 0, GCOL_TEST_NO_MASK},
    {{GCOL_INT64, GCOL_INT32}, 2, 0, GCOL_TEST_RANDOM_NULLS},
    {{GCOL_UINT64}, 1, 40, GCOL_TEST_NO_MASK}, /* packed with duplicates */
};

static void test_join_kinds(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1401);
  const join_case *const cases = kind_cases;
  /* the last size spans several probe tiles (2048 rows) */
  static const int64_t sizes[][2] = {{0, 0},   {0, 5},     {6, 0},      {1, 1},
                                     {33, 17}, {257, 100}, {700, 1200}, {4500, 200}};
  for (size_t c = 0; c < NUM_OF(kind_cases); ++c) {
    if (!gcol_test_in_part(state, (size_t)c)) continue;
    for (size_t s = 0; s < NUM_OF(sizes); ++s) {
      if (!gcol_test_keep_combination(c + s)) continue;
      int64_t const off = (int64_t)((c + s) % 3) * 33;
      check_case(&rng, &cases[c], sizes[s][0], sizes[s][1], off);
    }
  }
}

/* Integer keys indexed by value (a dense range, signed, at the type's ends): unique build
 * keys, probe keys in and out of the range with nulls; then the same keys repeated. */
static void test_join_direct_keys(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1403);
  static const gcol_type_id types[] = {GCOL_INT32, GCOL_INT8, GCOL_INT64, GCOL_UINT16,
                                       GCOL_TIMESTAMP_SECONDS};
  int64_t const nl = gcol_test_cap(3000), nr = 200;
  for (size_t t = 0; t < NUM_OF(types); ++t) {
    for (int repeated = 0; repeated < 2; ++repeated) {
      gcol_type_id const id = types[t];
      join_case const jc = {{id}, 1, 0, GCOL_TEST_RANDOM_NULLS};
      ref_column c =
          ref_column_random(&rng, gcol_data_type_make(id), nl + nr, GCOL_TEST_NO_MASK, 0);
      size_t const w = c.width;
      /* the type's lowest values for int8 and uint16 (a range at the edge), else around 0 */
      int64_t const base = id == GCOL_INT8 ? -128 : id == GCOL_UINT16 ? 0 : -100;
      for (int64_t i = 0; i < nl + nr; ++i) {
        int64_t v;
        if (i >= nl) { /* build: base + a permutation of 0..nr-1 (each value twice if repeated) */
          int64_t const j = i - nl;
          v = base + (repeated ? (j * 37) % (nr / 2) : (j * 37) % nr);
        } else { /* probe: mostly in the range, some beyond it */
          v = base + (int64_t)(gcol_test_rng_next(&rng) % (uint64_t)(nr + 40)) - 20;
          if (id == GCOL_INT8 && v < -128) v = 127;
          if (id == GCOL_UINT16 && v < 0) v = 65535;
        }
        memcpy(c.values + (size_t)i * w, &v, w); /* little-endian: the low bytes */
        c.valid[i] = i >= nl || gcol_test_rng_next(&rng) % 7 != 0;
      }
      c.has_mask = true;
      check_columns(&c, &jc, nl, nr, 0);
    }
  }
}

/* Many duplicates on both sides (a key repeated more than a batch holds). */
static void test_join_duplicates(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1402);
  join_case const jc = {{GCOL_INT32}, 1, 2, GCOL_TEST_NO_MASK};
  check_case(&rng, &jc, gcol_test_cap(300), gcol_test_cap(400), 5);
  /* packed keys repeated on both sides, the probe over several tiles */
  join_case const packed = {{GCOL_INT64}, 1, 3, GCOL_TEST_NO_MASK};
  check_case(&rng, &packed, gcol_test_cap(4100), gcol_test_cap(60), 0);
}

/* The joined table: left columns, right columns without its key; nulls for missing rows. */
static void test_join_tables(void **state) {
  (void)state;
  int32_t const lk[] = {1, 2, 3, 4}, rk[] = {3, 4, 5, 5, 6};
  int64_t const lp[] = {10, 20, 30, 40};
  int64_t const rp[] = {300, 400, 500, 501, 600};
  gcol_column *l_key = NULL, *l_pay = NULL, *r_pay = NULL, *r_key = NULL;
  gcol_data_type const i32 = gcol_data_type_make(GCOL_INT32), i64 = gcol_data_type_make(GCOL_INT64);
  GCOL_TEST_OK(gcol_column_create_from_host(i32, 4, lk, NULL, NULL, NULL, &l_key));
  GCOL_TEST_OK(gcol_column_create_from_host(i64, 4, lp, NULL, NULL, NULL, &l_pay));
  GCOL_TEST_OK(gcol_column_create_from_host(i64, 5, rp, NULL, NULL, NULL, &r_pay));
  GCOL_TEST_OK(gcol_column_create_from_host(i32, 5, rk, NULL, NULL, NULL, &r_key));
  gcol_column_view lviews[2] = {gcol_column_get_view(l_key), gcol_column_get_view(l_pay)};
  gcol_column_view rviews[2] = {gcol_column_get_view(r_pay), gcol_column_get_view(r_key)};
  gcol_table_view left, right;
  GCOL_TEST_OK(gcol_table_view_make(lviews, 2, &left));
  GCOL_TEST_OK(gcol_table_view_make(rviews, 2, &right));
  int32_t const lon = 0, ron = 1;
  gcol_table *out = NULL;
  /* full join: 1,2 unmatched left; 3,4 match once; right 5 (twice) and 6 unmatched */
  GCOL_TEST_OK(gcol_join_tables(left, &lon, right, &ron, 1, GCOL_JOIN_FULL, GCOL_NULLS_EQUAL, true,
                                &out, NULL, NULL));
  gcol_table_view t = gcol_table_get_view(out);
  assert_int_equal(t.num_columns, 3);
  assert_int_equal(t.num_rows, 7);
  int64_t lpay[7], rpay[7];
  uint8_t lvalid[7], rvalid[7];
  GCOL_TEST_OK(gcol_column_copy_to_host(t.columns[1], lpay, lvalid, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(t.columns[2], rpay, rvalid, NULL));
  int64_t sum_pairs = 0;
  int nulls_left = 0, nulls_right = 0;
  for (int k = 0; k < 7; ++k) {
    nulls_left += !lvalid[k];
    nulls_right += !rvalid[k];
    if (lvalid[k] && rvalid[k]) sum_pairs += lpay[k] * 1000 + rpay[k];
  }
  assert_int_equal(nulls_left, 3);  /* 500, 501, 600 */
  assert_int_equal(nulls_right, 2); /* 10, 20 */
  assert_int_equal(sum_pairs, 30 * 1000 + 300 + 40 * 1000 + 400);
  gcol_table_free(out);
  /* semi join: left columns only */
  GCOL_TEST_OK(gcol_join_tables(left, &lon, right, &ron, 1, GCOL_JOIN_LEFT_SEMI, GCOL_NULLS_EQUAL,
                                true, &out, NULL, NULL));
  t = gcol_table_get_view(out);
  assert_int_equal(t.num_columns, 2);
  assert_int_equal(t.num_rows, 2);
  gcol_table_free(out);
  int32_t const bad = 2;
  GCOL_TEST_STATUS(gcol_join_tables(left, &bad, right, &ron, 1, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL,
                                    false, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_column_free(l_key);
  gcol_column_free(l_pay);
  gcol_column_free(r_pay);
  gcol_column_free(r_key);
}

static void test_cross_join(void **state) {
  (void)state;
  static const int64_t sizes[][2] = {{0, 3}, {3, 0}, {1, 1}, {3, 4}, {100, 70}};
  for (size_t s = 0; s < NUM_OF(sizes); ++s) {
    gcol_column *l = NULL, *r = NULL;
    GCOL_TEST_OK(gcol_cross_join(sizes[s][0], sizes[s][1], &l, &r, NULL, NULL));
    int64_t n = 0;
    pair *p = maps_to_pairs(l, r, &n);
    assert_int_equal(n, sizes[s][0] * sizes[s][1]);
    for (int64_t k = 0; k < n; ++k) {
      assert_int_equal(p[k].l, k / sizes[s][1]);
      assert_int_equal(p[k].r, k % sizes[s][1]);
    }
    free(p);
    gcol_column_free(l);
    gcol_column_free(r);
  }
  gcol_column *l = NULL, *r = NULL;
  GCOL_TEST_STATUS(gcol_cross_join((int64_t)1 << 40, (int64_t)1 << 30, &l, &r, NULL, NULL),
                   GCOL_ERROR_OVERFLOW);
  GCOL_TEST_STATUS(gcol_cross_join(-1, 3, &l, &r, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(l);
  assert_null(r);
}

/* ---------------------------------------------------------------- radix partitions */

/* Radix partitions forced on small inputs: the cases of test_join_kinds (every kind, key
 * type, null option, duplicates, batches, the exact size) with 1 (bits 0 on a map this
 * small: only the rows that match nothing split off), 2, 8 and 256 partitions, at offsets
 * that are not byte- or word-aligned; sizes crossing the partition pass's tiles (4096 rows)
 * and the probe's (2048). Then one table forced on the dense keys AUTO lays out directly. */
static void test_join_radix_kinds(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1430);
  static const int32_t bits[] = {0, 1, 3, GCOL_JOIN_RADIX_MAX_BITS};
  static const int64_t offsets[] = {0, 1, 5, 33, 65};
  static const int64_t sizes[][2] = {{0, 0},     {0, 5},      {6, 0},      {1, 1},     {33, 17},
                                     {257, 100}, {700, 1200}, {4500, 200}, {8200, 333}};
  for (size_t c = 0; c < NUM_OF(kind_cases); ++c) {
    if (!gcol_test_in_part(state, (size_t)c)) continue;
    for (size_t s = 0; s < NUM_OF(sizes); ++s) {
      if (!gcol_test_keep_combination(c + s)) continue;
      gcol_join_options const o =
          options_of(GCOL_JOIN_ALGORITHM_RADIX, bits[(c + s) % NUM_OF(bits)]);
      g_options = &o;
      check_case(&rng, &kind_cases[c], sizes[s][0], sizes[s][1],
                 offsets[(c + s) % NUM_OF(offsets)]);
      g_options = NULL;
    }
  }
  if (gcol_test_in_part(state, 0)) {
    gcol_join_options const one = options_of(GCOL_JOIN_ALGORITHM_ONE_TABLE, 5);
    join_case const dense = {{GCOL_INT32}, 1, 7, GCOL_TEST_RANDOM_NULLS};
    g_options = &one;
    check_case(&rng, &dense, 300, 200, 3);
    check_case(&rng, &kind_cases[5], 300, 200, 0); /* strings */
    g_options = NULL;
  }
}

/* Each left row's place in the partitioned order of a packed INT32 / INT64 key column (rows
 * [off, off + nl) probe, the build of nr rows without nulls): by the partition of
 * gcol_hash_mix64 of the key's bits under `bits` forced bits of a map for nr rows, rows with
 * a null key last, ascending within each group. */
static int64_t *radix_ranks(const ref_column *c, int64_t off, int64_t nl, int64_t nr, int bits) {
  int64_t const cap = gcol_probe_capacity_for(nr);
  int const b = gcol_detail_radix_bits(bits, cap, 0);
  uint32_t const parts = 1u << b;
  int const shift = gcol_detail_radix_shift(cap, b);
  uint32_t *bucket = (uint32_t *)malloc((size_t)(nl > 0 ? nl : 1) * sizeof *bucket);
  int64_t *rank = (int64_t *)malloc((size_t)(nl > 0 ? nl : 1) * sizeof *rank);
  int64_t *start = (int64_t *)calloc((size_t)parts + 2, sizeof *start);
  for (int64_t i = 0; i < nl; ++i) {
    uint64_t v = 0; /* the bits, zero-extended (little-endian) */
    memcpy(&v, c->values + (size_t)(off + i) * c->width, c->width);
    bucket[i] = c->valid[off + i]
                    ? gcol_detail_radix_partition(gcol_hash_mix64(v), (uint64_t)cap - 1u, shift)
                    : parts;
    start[bucket[i] + 1] += 1;
  }
  for (uint32_t p = 1; p <= parts + 1; ++p) start[p] += start[p - 1];
  for (int64_t i = 0; i < nl; ++i) rank[i] = start[bucket[i]]++;
  free(bucket);
  free(start);
  return rank;
}

/* Packed INT64 and INT32 keys with nulls only on the probe side (they match nothing: the last
 * group), duplicates on both sides (pool 40), all probe keys matching (pool 3) and random bits
 * (few matches), under 2, 16 and 256 partitions: every kind as in test_join_kinds, and the
 * exact partitioned order. */
static void test_join_radix_packed_order(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1431);
  static const gcol_type_id types[] = {GCOL_INT64, GCOL_INT32};
  static const int bits[] = {1, 4, GCOL_JOIN_RADIX_MAX_BITS};
  static const int pools[] = {40, 3, 0};
  int64_t const nl = gcol_test_cap(9000), nr = gcol_test_cap(1500), off = 3;
  size_t combination = 0;
  for (size_t t = 0; t < NUM_OF(types); ++t) {
    for (size_t b = 0; b < NUM_OF(bits); ++b) {
      for (size_t q = 0; q < NUM_OF(pools); ++q) {
        if (!gcol_test_keep_combination(combination++)) continue;
        join_case const jc = {{types[t]}, 1, pools[q], GCOL_TEST_NO_MASK};
        ref_column c = ref_column_random(&rng, gcol_data_type_make(types[t]), off + nl + nr,
                                         GCOL_TEST_NO_MASK, pools[q]);
        for (int64_t i = 0; i < off + nl + nr; ++i) {
          c.valid[i] = i >= off + nl || gcol_test_rng_next(&rng) % 9 != 0;
        }
        c.has_mask = true;
        int64_t *rank = radix_ranks(&c, off, nl, nr, bits[b]);
        gcol_join_options const o = options_of(GCOL_JOIN_ALGORITHM_RADIX, bits[b]);
        g_options = &o;
        g_radix_rank = rank;
        check_columns(&c, &jc, nl, nr, off);
        g_options = NULL;
        g_radix_rank = NULL;
        free(rank);
      }
    }
  }
}

/* Many duplicates on both sides under radix partitions (packed and strings with nulls), a
 * key repeated more than a batch holds, the probe over several tiles. */
static void test_join_radix_duplicates(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1432);
  gcol_join_options const o = options_of(GCOL_JOIN_ALGORITHM_RADIX, 2);
  join_case const packed = {{GCOL_INT32}, 1, 2, GCOL_TEST_NO_MASK};
  join_case const strings = {{GCOL_STRING}, 1, 3, GCOL_TEST_RANDOM_NULLS};
  g_options = &o;
  check_case(&rng, &packed, gcol_test_cap(300), gcol_test_cap(400), 5);
  check_case(&rng, &packed, gcol_test_cap(4100), gcol_test_cap(60), 0);
  check_case(&rng, &strings, gcol_test_cap(4100), gcol_test_cap(90), 7);
  g_options = NULL;
}

/* Key j of a side spread over 64 bits: the bijective gcol_hash_mix64 of j + 1. */
static int64_t spread_key(int64_t j) { return (int64_t)gcol_hash_mix64((uint64_t)j + 1u); }

/* One probe of the large test: its pairs are valid (draw[l] == r % distinct), distinct, and
 * as many as the construction gives; a full join's right-only rows are the undrawn ones. */
static void check_large(const gcol_column *lm, const gcol_column *rm, gcol_join_kind kind,
                        const int64_t *draw, int64_t nl, int64_t nr, int64_t distinct,
                        const char *what) {
  int64_t ng = 0, inner = 0, unmatched_left = 0, unmatched_right = 0;
  pair *got = maps_to_pairs(lm, rm, &ng);
  bool *drawn = (bool *)calloc((size_t)distinct, sizeof(bool));
  for (int64_t i = 0; i < nl; ++i) {
    if (draw[i] < distinct) {
      drawn[draw[i]] = true;
      inner += nr / distinct + (draw[i] < nr % distinct ? 1 : 0);
    } else {
      ++unmatched_left;
    }
  }
  for (int64_t j = 0; j < nr; ++j) unmatched_right += !drawn[j % distinct];
  int64_t const want = kind == GCOL_JOIN_INNER  ? inner
                       : kind == GCOL_JOIN_LEFT ? inner + unmatched_left
                       : kind == GCOL_JOIN_FULL ? inner + unmatched_left + unmatched_right
                                                : unmatched_left; /* anti */
  if (ng != want) fail_msg("%s: %lld rows, want %lld", what, (long long)ng, (long long)want);
  for (int64_t k = 0; k < ng; ++k) {
    int64_t const l = got[k].l, r = got[k].r;
    bool ok = l >= -1 && l < nl && r >= -1 && r < nr && (l >= 0 || r >= 0);
    if (ok && l >= 0 && r >= 0) ok = draw[l] == r % distinct;
    if (ok && l >= 0 && r < 0) ok = draw[l] >= distinct;
    if (ok && l < 0) ok = !drawn[r % distinct];
    if (!ok)
      fail_msg("%s: output row %lld is (%lld, %lld)", what, (long long)k, (long long)l,
               (long long)r);
  }
  qsort(got, (size_t)ng, sizeof *got, pair_cmp);
  for (int64_t k = 1; k < ng; ++k) {
    if (got[k].l == got[k - 1].l && got[k].r == got[k - 1].r) {
      fail_msg("%s: pair (%lld, %lld) twice", what, (long long)got[k].l, (long long)got[k].r);
    }
  }
  free(drawn);
  free(got);
}

/* A few million rows of keys spread over 64 bits (as the benchmark's sparse join), unique and
 * each repeated 4 times on the build side, radix partitions by the L2 and 64 of them: inner,
 * left, full and anti joins against the counts of the construction; batches of an inner join
 * of repeated keys equal the whole probe. */
static void test_join_radix_large(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1433);
  int64_t const nl = gcol_test_cap(3000000), nr = gcol_test_cap(1000000);
  static const gcol_join_kind kinds[] = {GCOL_JOIN_INNER, GCOL_JOIN_LEFT, GCOL_JOIN_FULL,
                                         GCOL_JOIN_LEFT_ANTI};
  int64_t *lk = (int64_t *)malloc((size_t)nl * sizeof *lk);
  int64_t *rk = (int64_t *)malloc((size_t)nr * sizeof *rk);
  int64_t *draw = (int64_t *)malloc((size_t)nl * sizeof *draw);
  for (int rep = 0; rep < 2; ++rep) {
    int64_t const distinct = rep == 0 ? nr : nr / 4;
    for (int64_t j = 0; j < nr; ++j) rk[j] = spread_key(j % distinct);
    for (int64_t i = 0; i < nl; ++i) {
      draw[i] = (int64_t)(gcol_test_rng_next(&rng) % (uint64_t)(2 * distinct));
      lk[i] = spread_key(draw[i]);
    }
    gcol_column *l = NULL, *r = NULL;
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), nl, lk, NULL, NULL,
                                              NULL, &l));
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), nr, rk, NULL, NULL,
                                              NULL, &r));
    gcol_column_view const lv = gcol_column_get_view(l), rv = gcol_column_get_view(r);
    gcol_table_view left, right;
    GCOL_TEST_OK(gcol_table_view_make(&lv, 1, &left));
    GCOL_TEST_OK(gcol_table_view_make(&rv, 1, &right));
    for (int b = 0; b < 2; ++b) {
      gcol_join_options const o = options_of(GCOL_JOIN_ALGORITHM_RADIX, b == 0 ? 0 : 6);
      gcol_join_hash *h = NULL;
      GCOL_TEST_OK(gcol_join_hash_create_with_options(right, GCOL_NULLS_EQUAL, &o, &h, NULL));
      assert_true(gcol_join_hash_probe_partitions(h, nl) >= 1);
      for (size_t q = 0; q < NUM_OF(kinds); ++q) {
        char what[96];
        snprintf(what, sizeof what, "large, %lld distinct, bits %d, kind %d", (long long)distinct,
                 b == 0 ? 0 : 6, (int)kinds[q]);
        gcol_column *lm = NULL, *rm = NULL;
        GCOL_TEST_OK(gcol_join_hash_probe(h, left, kinds[q], 0, -1, &lm, &rm, NULL, NULL));
        check_large(lm, rm, kinds[q], draw, nl, nr, distinct, what);
        if (kinds[q] == GCOL_JOIN_INNER && rep == 1 && b == 1) {
          int64_t nw = 0;
          pair *whole = maps_to_pairs(lm, rm, &nw);
          int64_t const batch = nw / 5 + 1;
          int64_t at = 0;
          for (int64_t first = 0; first < nw; first += batch) {
            gcol_column *bl = NULL, *br = NULL;
            GCOL_TEST_OK(
                gcol_join_hash_probe(h, left, kinds[q], first, batch, &bl, &br, NULL, NULL));
            int64_t nb = 0;
            pair *part = maps_to_pairs(bl, br, &nb);
            for (int64_t k = 0; k < nb; ++k, ++at) {
              if (part[k].l != whole[at].l || part[k].r != whole[at].r) {
                fail_msg("%s: batch output row %lld differs from the whole probe", what,
                         (long long)at);
              }
            }
            free(part);
            gcol_column_free(bl);
            gcol_column_free(br);
          }
          assert_int_equal(at, nw);
          free(whole);
        }
        gcol_column_free(lm);
        gcol_column_free(rm);
      }
      gcol_join_hash_free(h);
    }
    gcol_column_free(l);
    gcol_column_free(r);
  }
  free(lk);
  free(rk);
  free(draw);
}

/* Key counts or types differing, bad kind, first out of range, NULL outputs. */
/* ---------------------------------------------------------------- sort-merge join */

/* The documented order of a sort-merge join: pairs with a left row by (left, right), then
 * the unmatched right rows (left -1) ascending. */
static int merge_order_cmp(const void *a, const void *b) {
  const pair *x = (const pair *)a, *y = (const pair *)b;
  if ((x->l < 0) != (y->l < 0)) return x->l < 0 ? 1 : -1;
  return pair_cmp(a, b);
}

/* Sorted copy of the rows [begin, end) of columns d (one order per column), and for each
 * original row its row in the copy. */
static gcol_table *sorted_side(gcol_column *const *d, int32_t nk, int64_t begin, int64_t end,
                               const gcol_order *order, const gcol_null_order *nulls,
                               int64_t **where) {
  gcol_column_view v[MAX_KEYS];
  for (int32_t k = 0; k < nk; ++k) v[k] = ref_slice(gcol_column_get_view(d[k]), begin, end);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(v, nk, &t));
  gcol_column *perm = NULL;
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_stable_sorted_order(t, order, nulls, &perm, NULL, NULL));
  GCOL_TEST_OK(gcol_gather(t, gcol_column_get_view(perm), GCOL_OUT_OF_BOUNDS_DONT_CHECK,
                           GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &out, NULL, NULL));
  int64_t *p = read_map(perm);
  *where = (int64_t *)malloc((size_t)(end - begin + 1) * sizeof(int64_t));
  for (int64_t i = 0; i < end - begin; ++i) (*where)[p[i]] = i;
  free(p);
  gcol_column_free(perm);
  return out;
}

/* The sorted rows of sorted_side as the slice [pad, pad + rows) of a table whose rows
 * around it break the order (the sorted side's last row `pad` times before it, its first
 * `pad` times after it): a join that reads outside its slice sees unsorted keys. pad 0 (or no
 * row): the table of sorted_side itself. */
typedef struct merge_side {
  gcol_table *table;
  gcol_column_view columns[MAX_KEYS];
  gcol_table_view view;
} merge_side;

static void merge_side_make(gcol_column *const *d, int32_t nk, int64_t begin, int64_t end,
                            const gcol_order *order, const gcol_null_order *nulls, int64_t pad,
                            merge_side *out, int64_t **where) {
  int64_t const n = end - begin;
  gcol_table *sorted = sorted_side(d, nk, begin, end, order, nulls, where);
  if (pad == 0 || n == 0) {
    out->table = sorted;
    out->view = gcol_table_get_view(sorted);
    return;
  }
  int64_t *map = (int64_t *)malloc((size_t)(n + 2 * pad) * sizeof(int64_t));
  for (int64_t k = 0; k < pad; ++k) {
    map[k] = n - 1;
    map[pad + n + k] = 0;
  }
  for (int64_t i = 0; i < n; ++i) map[pad + i] = i;
  gcol_column *m = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n + 2 * pad, map, NULL,
                                            NULL, NULL, &m));
  GCOL_TEST_OK(gcol_gather(gcol_table_get_view(sorted), gcol_column_get_view(m),
                           GCOL_OUT_OF_BOUNDS_DONT_CHECK, GCOL_NEGATIVE_INDEX_NOT_ALLOWED,
                           &out->table, NULL, NULL));
  gcol_table_view const whole = gcol_table_get_view(out->table);
  for (int32_t k = 0; k < nk; ++k) out->columns[k] = ref_slice(whole.columns[k], pad, pad + n);
  GCOL_TEST_OK(gcol_table_view_make(out->columns, nk, &out->view));
  gcol_column_free(m);
  gcol_table_free(sorted);
  free(map);
}

static void check_merge_columns(ref_column *cols, const join_case *jc, int64_t nl, int64_t nr,
                                int64_t off, int salt, int64_t pad);

/* Every kind and null option of gcol_sort_merge_join on the sorted sides of one case,
 * against the nested-loop reference mapped to sorted rows, in the documented order. */
static void check_merge_case(gcol_test_rng *rng, const join_case *jc, int64_t nl, int64_t nr,
                             int64_t off, int salt) {
  ref_column cols[MAX_KEYS];
  for (int32_t k = 0; k < jc->num_keys; ++k) {
    cols[k] = ref_column_random(rng, gcol_data_type_make(jc->types[k]), off + nl + nr,
                                k == 0 ? jc->validity : GCOL_TEST_NO_MASK, jc->pool);
  }
  check_merge_columns(cols, jc, nl, nr, off, salt, 0);
}

/* The key columns `cols` (rows [off, off + nl) left, [off + nl, off + nl + nr) right) sorted
 * in the orders `salt` picks (merge_side_make with `pad`) and joined every way; frees them. */
static void check_merge_columns(ref_column *cols, const join_case *jc, int64_t nl, int64_t nr,
                                int64_t off, int salt, int64_t pad) {
  int64_t const total = off + nl + nr;
  const ref_column *keys[MAX_KEYS];
  gcol_column *d[MAX_KEYS];
  gcol_order order[MAX_KEYS];
  gcol_null_order nulls[MAX_KEYS];
  for (int32_t k = 0; k < jc->num_keys; ++k) {
    keys[k] = &cols[k];
    ref_column_to_device(&cols[k], &d[k]);
    order[k] = (gcol_order)((salt + k) % 2);
    nulls[k] = (gcol_null_order)((salt / 2 + k) % 2);
  }
  int64_t *wl = NULL, *wr = NULL;
  merge_side ml, mr;
  merge_side_make(d, jc->num_keys, off, off + nl, order, nulls, pad, &ml, &wl);
  merge_side_make(d, jc->num_keys, off + nl, total, order, nulls, pad, &mr, &wr);
  static const gcol_join_kind kinds[] = {GCOL_JOIN_INNER, GCOL_JOIN_LEFT, GCOL_JOIN_FULL,
                                         GCOL_JOIN_LEFT_SEMI, GCOL_JOIN_LEFT_ANTI};
  for (int ne = 0; ne < 2; ++ne) {
    for (size_t q = 0; q < NUM_OF(kinds); ++q) {
      gcol_join_kind const kind = kinds[q];
      char what[160];
      snprintf(what, sizeof what,
               "merge %s key0 x%d, nl %lld nr %lld off %lld pad %lld salt %d, kind %d, nulls %d",
               gcol_type_name(jc->types[0]), (int)jc->num_keys, (long long)nl, (long long)nr,
               (long long)off, (long long)pad, salt, (int)kind, ne);
      pair *want = NULL;
      int64_t const nw = reference_pairs(keys, jc->num_keys, off, nl, nr, kind, ne == 0, &want);
      for (int64_t k = 0; k < nw; ++k) {
        if (want[k].l >= 0) want[k].l = wl[want[k].l];
        if (want[k].r >= 0) want[k].r = wr[want[k].r];
      }
      qsort(want, (size_t)nw, sizeof *want, merge_order_cmp);
      gcol_column *lm = NULL, *rm = NULL;
      GCOL_TEST_OK(gcol_sort_merge_join(ml.view, mr.view, order, nulls, kind,
                                        ne ? GCOL_NULLS_UNEQUAL : GCOL_NULLS_EQUAL, &lm, &rm, NULL,
                                        NULL));
      assert_int_equal(lm->type.id, GCOL_INT32);
      assert_true(has_right(kind) == (rm != NULL));
      int64_t ng = 0;
      pair *got = maps_to_pairs(lm, rm, &ng);
      if (ng != nw) fail_msg("%s: %lld output rows, want %lld", what, (long long)ng, (long long)nw);
      for (int64_t k = 0; k < ng; ++k) {
        if (got[k].l != want[k].l || got[k].r != want[k].r) {
          fail_msg("%s: output row %lld is (%lld, %lld), want (%lld, %lld)", what, (long long)k,
                   (long long)got[k].l, (long long)got[k].r, (long long)want[k].l,
                   (long long)want[k].r);
        }
      }
      free(got);
      free(want);
      gcol_column_free(lm);
      gcol_column_free(rm);
    }
  }
  gcol_table_free(ml.table);
  gcol_table_free(mr.table);
  free(wl);
  free(wr);
  for (int32_t k = 0; k < jc->num_keys; ++k) {
    gcol_column_free(d[k]);
    ref_column_free(&cols[k]);
  }
}

static void test_sort_merge_join(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1408);
  static const join_case cases[] = {
      {{GCOL_INT64}, 1, 50, GCOL_TEST_RANDOM_NULLS},
      {{GCOL_INT32}, 1, 0, GCOL_TEST_NO_MASK},        /* random bits: few matches */
      {{GCOL_FLOAT64}, 1, 9, GCOL_TEST_RANDOM_NULLS}, /* pool with NaN, -0.0 */
      {{GCOL_STRING}, 1, 11, GCOL_TEST_RANDOM_NULLS},
      {{GCOL_BOOL8}, 1, 2, GCOL_TEST_FIRST_NULL},
      {{GCOL_DECIMAL128}, 1, 5, GCOL_TEST_LAST_NULL},
      {{GCOL_INT32, GCOL_STRING}, 2, 4, GCOL_TEST_RANDOM_NULLS},
      {{GCOL_INT16, GCOL_FLOAT64, GCOL_STRING}, 3, 3, GCOL_TEST_ALL_NULL},
  };
  static const int64_t sizes[][2] = {{0, 0},   {0, 5},     {6, 0},     {1, 1},
                                     {33, 17}, {257, 100}, {700, 1200}};
  for (size_t c = 0; c < NUM_OF(cases); ++c) {
    for (size_t s = 0; s < NUM_OF(sizes); ++s) {
      if (!gcol_test_keep_combination(c + s)) continue;
      int64_t const off = (int64_t)((c + s) % 3) * 33;
      check_merge_case(&rng, &cases[c], sizes[s][0], sizes[s][1], off, (int)(c + s));
    }
  }
}

/* The sort-merge join's fast path (one fixed-width key column, no null on either side) on
 * every type it takes: no mask or a mask without nulls, both orders, every kind and null
 * option, sides that are slices of larger tables, sizes over several tiles of 2048 rows,
 * random keys (few matches) or a pool (duplicates on both sides), empty sides. */
static void test_sort_merge_join_fast_types(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(1411);
  static const gcol_type_id types[] = {GCOL_INT8,
                                       GCOL_INT16,
                                       GCOL_INT32,
                                       GCOL_INT64,
                                       GCOL_UINT8,
                                       GCOL_UINT16,
                                       GCOL_UINT32,
                                       GCOL_UINT64,
                                       GCOL_FLOAT32,
                                       GCOL_FLOAT64,
                                       GCOL_BOOL8,
                                       GCOL_TIMESTAMP_DAYS,
                                       GCOL_TIMESTAMP_NANOSECONDS,
                                       GCOL_DURATION_SECONDS,
                                       GCOL_DECIMAL32,
                                       GCOL_DECIMAL64};
  static const int64_t sizes[][2] = {{0, 0},   {0, 9},     {7, 0},      {1, 1},
                                     {33, 17}, {257, 100}, {2049, 700}, {4500, 300}};
  static const int pools[] = {0, 3, 40, 1000};
  for (size_t t = 0; t < NUM_OF(types); ++t) {
    if (!gcol_test_in_part(state, t)) continue;
    for (size_t s = 0; s < NUM_OF(sizes); ++s) {
      if (!gcol_test_keep_combination(t + s)) continue;
      size_t const c = t + s;
      join_case const jc = {{types[t]},
                            1,
                            pools[c % NUM_OF(pools)],
                            c % 2 == 0 ? GCOL_TEST_NO_MASK : GCOL_TEST_ALL_VALID};
      int64_t const nl = gcol_test_cap(sizes[s][0]), nr = gcol_test_cap(sizes[s][1]);
      ref_column col =
          ref_column_random(&rng, gcol_data_type_make(types[t]), 5 + nl + nr, jc.validity, jc.pool);
      int64_t const pad = gcol_test_offsets[c % gcol_test_num_offsets];
      check_merge_columns(&col, &jc, nl, nr, 5, (int)c, pad);
    }
  }
}

/* Key i of a fixed-width column of type INT32 or INT64 set to v. */
static void set_key(ref_column *c, int64_t i, int64_t v) {
  memcpy(c->values + (size_t)i * c->width, &v, c->width);
}

/* Fast path shapes: a tile whose window of right rows is larger than shared memory holds (its
 * searches read the column) and whose output takes several blocks (a key matching thousands
 * of rows); many tiles each with more output rows than needles; few left rows among many
 * right rows (a full join's right-only rows over several tiles). INT64 and INT32 keys (their
 * windows hold 4096 and 8192 rows), every kind. */
static void test_sort_merge_join_fast_runs(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1412);
  static const gcol_type_id types[] = {GCOL_INT64, GCOL_INT32};
  for (size_t t = 0; t < NUM_OF(types); ++t) {
    join_case const jc = {{types[t]}, 1, 0, GCOL_TEST_NO_MASK};
    gcol_data_type const type = gcol_data_type_make(types[t]);
    for (int shape = 0; shape < 3; ++shape) {
      /* 0: 60 left rows of 3 keys, 9000 right rows of which 8500 hold the first key;
       * 1: 5000 left and 40 right rows of 5 keys; 2: 300 left, 20000 right rows in [0, 50000) */
      int64_t const nl = shape == 0 ? 60 : shape == 1 ? 5000 : 300;
      int64_t const nr = gcol_test_cap(shape == 0 ? 9000 : shape == 1 ? 40 : 20000);
      ref_column col = ref_column_random(&rng, type, nl + nr, GCOL_TEST_NO_MASK, 0);
      for (int64_t i = 0; i < nl + nr; ++i) {
        uint64_t const r = gcol_test_rng_next(&rng);
        int64_t v;
        if (shape == 0) {
          v = i >= nl && i - nl < nr * 17 / 18 ? 7 : 7 + 2 * (int64_t)(r % 3);
        } else if (shape == 1) {
          v = (int64_t)(r % 5) - 2;
        } else {
          v = (int64_t)(r % 50000) - 25000;
        }
        set_key(&col, i, v);
      }
      check_merge_columns(&col, &jc, nl, nr, 0, shape + (int)t, shape == 1 ? 3 : 0);
    }
  }
}

/* Fast path: a side out of order at one place only (within a thread's 8 rows, between two
 * threads' rows, between tiles, at the last row), left or right, in the kinds whose passes
 * differ (inner and semi check the right side by a pass of their own, full by counting its
 * right-only rows), ascending and descending: the error naming the side, no output, nothing
 * leaked; the same keys in order join. */
static void test_sort_merge_join_fast_unsorted(void **state) {
  (void)state;
  int64_t const n = 5000;
  static const int64_t swaps[] = {0, 6, 7, 2047, 4095, 4998};
  static const gcol_join_kind kinds[] = {GCOL_JOIN_INNER, GCOL_JOIN_FULL, GCOL_JOIN_LEFT_SEMI};
  int64_t *v = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  for (int o = 0; o < 2; ++o) {
    gcol_order const order = (gcol_order)o;
    for (size_t w = 0; w < NUM_OF(swaps); ++w) {
      /* distinct keys in the order given, then rows swaps[w] and swaps[w] + 1 exchanged */
      for (int64_t i = 0; i < n; ++i) v[i] = o == 0 ? 2 * i : 2 * (n - i);
      gcol_column *sorted = NULL, *unsorted = NULL;
      GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, v, NULL, NULL,
                                                NULL, &sorted));
      int64_t const x = v[swaps[w]];
      v[swaps[w]] = v[swaps[w] + 1];
      v[swaps[w] + 1] = x;
      GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, v, NULL, NULL,
                                                NULL, &unsorted));
      gcol_column_view const sv = gcol_column_get_view(sorted), uv = gcol_column_get_view(unsorted);
      gcol_table_view ts, tu;
      GCOL_TEST_OK(gcol_table_view_make(&sv, 1, &ts));
      GCOL_TEST_OK(gcol_table_view_make(&uv, 1, &tu));
      int64_t const live = gcol_test_live_bytes();
      for (size_t q = 0; q < NUM_OF(kinds); ++q) {
        for (int side = 0; side < 2; ++side) {
          gcol_column *lm = NULL, *rm = NULL;
          GCOL_TEST_STATUS(
              gcol_sort_merge_join(side == 0 ? tu : ts, side == 0 ? ts : tu, &order, NULL, kinds[q],
                                   GCOL_NULLS_EQUAL, &lm, &rm, NULL, NULL),
              GCOL_ERROR_INVALID_ARGUMENT);
          assert_non_null(strstr(gcol_last_error(), side == 0 ? "left_keys" : "right_keys"));
          assert_null(lm);
          assert_null(rm);
          assert_int_equal(gcol_test_live_bytes(), live);
        }
        /* in order: each row matches itself */
        gcol_column *lm = NULL, *rm = NULL;
        GCOL_TEST_OK(gcol_sort_merge_join(ts, ts, &order, NULL, kinds[q], GCOL_NULLS_EQUAL, &lm,
                                          &rm, NULL, NULL));
        int64_t ng = 0;
        pair *got = maps_to_pairs(lm, rm, &ng);
        assert_int_equal(ng, n);
        for (int64_t k = 0; k < ng; ++k) {
          assert_int_equal(got[k].l, k);
          assert_int_equal(got[k].r, kinds[q] == GCOL_JOIN_LEFT_SEMI ? -1 : k);
        }
        free(got);
        gcol_column_free(lm);
        gcol_column_free(rm);
      }
      gcol_column_free(sorted);
      gcol_column_free(unsorted);
    }
  }
  free(v);
}

/* Unsorted sides, mismatched keys, bad kinds: a clear status, no output, nothing leaked. */
static void test_sort_merge_join_bad_input(void **state) {
  (void)state;
  int64_t const unsorted[] = {3, 1, 2}, sorted[] = {1, 2, 3};
  int32_t const narrow[] = {1, 2, 3};
  gcol_column *u = NULL, *s = NULL, *n32 = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 3, unsorted, NULL,
                                            NULL, NULL, &u));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 3, sorted, NULL, NULL,
                                            NULL, &s));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 3, narrow, NULL, NULL,
                                            NULL, &n32));
  gcol_column_view const uv = gcol_column_get_view(u), sv = gcol_column_get_view(s),
                         nv = gcol_column_get_view(n32);
  gcol_table_view tu, ts, tn, none;
  GCOL_TEST_OK(gcol_table_view_make(&uv, 1, &tu));
  GCOL_TEST_OK(gcol_table_view_make(&sv, 1, &ts));
  GCOL_TEST_OK(gcol_table_view_make(&nv, 1, &tn));
  memset(&none, 0, sizeof none);
  int64_t const live = gcol_test_live_bytes();
  gcol_column *lm = NULL, *rm = NULL;
  GCOL_TEST_STATUS(gcol_sort_merge_join(tu, ts, NULL, NULL, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, &lm,
                                        &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT); /* left not sorted */
  GCOL_TEST_STATUS(gcol_sort_merge_join(ts, tu, NULL, NULL, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, &lm,
                                        &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT); /* right not sorted */
  GCOL_TEST_STATUS(gcol_sort_merge_join(ts, tn, NULL, NULL, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, &lm,
                                        &rm, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_sort_merge_join(ts, none, NULL, NULL, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL,
                                        &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_sort_merge_join(ts, ts, NULL, NULL, (gcol_join_kind)9, GCOL_NULLS_EQUAL,
                                        &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_sort_merge_join(ts, ts, NULL, NULL, GCOL_JOIN_INNER, (gcol_null_equality)7,
                                        &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_sort_merge_join(ts, ts, NULL, NULL, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, &lm,
                                        NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT); /* right_map needed */
  assert_null(lm);
  assert_null(rm);
  assert_int_equal(gcol_test_live_bytes(), live);
  /* semi: right_map set to NULL */
  rm = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_OK(gcol_sort_merge_join(ts, ts, NULL, NULL, GCOL_JOIN_LEFT_SEMI, GCOL_NULLS_EQUAL, &lm,
                                    &rm, NULL, NULL));
  assert_null(rm);
  assert_int_equal(lm->size, 3);
  gcol_column_free(lm);
  gcol_column_free(u);
  gcol_column_free(s);
  gcol_column_free(n32);
}

static void test_join_bad_input(void **state) {
  (void)state;
  int32_t const a[] = {1, 2, 3};
  int64_t const b[] = {1, 2, 3};
  gcol_column *ca = NULL, *cb = NULL;
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 3, a, NULL, NULL, NULL, &ca));
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 3, b, NULL, NULL, NULL, &cb));
  gcol_column_view const va = gcol_column_get_view(ca), vb = gcol_column_get_view(cb);
  gcol_column_view two[2] = {va, va};
  gcol_table_view ta, tb, t2;
  GCOL_TEST_OK(gcol_table_view_make(&va, 1, &ta));
  GCOL_TEST_OK(gcol_table_view_make(&vb, 1, &tb));
  GCOL_TEST_OK(gcol_table_view_make(two, 2, &t2));
  gcol_column *l = NULL, *r = NULL;
  GCOL_TEST_STATUS(gcol_join(ta, tb, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, &l, &r, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_join(ta, t2, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, &l, &r, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_join(ta, ta, (gcol_join_kind)9, GCOL_NULLS_EQUAL, &l, &r, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_join(ta, ta, GCOL_JOIN_INNER, GCOL_NULLS_EQUAL, &l, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(l);
  gcol_join_hash *h = NULL;
  GCOL_TEST_OK(gcol_join_hash_create(ta, GCOL_NULLS_EQUAL, &h, NULL));
  GCOL_TEST_STATUS(gcol_join_hash_probe(h, ta, GCOL_JOIN_INNER, 4, -1, &l, &r, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT); /* 3 output rows */
  GCOL_TEST_STATUS(gcol_join_hash_probe(h, ta, GCOL_JOIN_INNER, -1, -1, &l, &r, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_OK(gcol_join_hash_probe(h, ta, GCOL_JOIN_INNER, 3, -1, &l, &r, NULL, NULL));
  assert_int_equal(l->size, 0);
  gcol_column_free(l);
  gcol_column_free(r);
  gcol_join_hash_free(h);
  gcol_table_view empty;
  memset(&empty, 0, sizeof empty);
  GCOL_TEST_STATUS(gcol_join_hash_create(empty, GCOL_NULLS_EQUAL, &h, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(h);
  gcol_column_free(ca);
  gcol_column_free(cb);
}

typedef struct alloc_ctx {
  gcol_join_options options; /* of which 4 and 5 */
  gcol_table_view left, right;
  gcol_table_view sorted_left, sorted_right; /* for the sort-merge join */
  gcol_table_view fixed_left, fixed_right;   /* for its fast path: INT64 keys, no nulls */
  int which;
  gcol_column *l, *r;
  gcol_table *t;
} alloc_ctx;

static gcol_status alloc_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  int32_t const on = 0;
  if (c->which == 0) {
    return gcol_join(c->left, c->right, GCOL_JOIN_FULL, GCOL_NULLS_EQUAL, &c->l, &c->r, NULL, NULL);
  }
  if (c->which == 2) {
    return gcol_sort_merge_join(c->sorted_left, c->sorted_right, NULL, NULL, GCOL_JOIN_FULL,
                                GCOL_NULLS_UNEQUAL, &c->l, &c->r, NULL, NULL);
  }
  if (c->which == 3) {
    return gcol_sort_merge_join(c->fixed_left, c->fixed_right, NULL, NULL, GCOL_JOIN_FULL,
                                GCOL_NULLS_EQUAL, &c->l, &c->r, NULL, NULL);
  }
  if (c->which == 4) { /* radix, strings with nulls: the no-match group on both sides */
    return gcol_join_with_options(c->left, c->right, GCOL_JOIN_FULL, GCOL_NULLS_UNEQUAL,
                                  &c->options, &c->l, &c->r, NULL, NULL);
  }
  if (c->which == 5) { /* radix, packed keys with duplicates (runs) */
    return gcol_join_with_options(c->fixed_left, c->fixed_right, GCOL_JOIN_FULL, GCOL_NULLS_EQUAL,
                                  &c->options, &c->l, &c->r, NULL, NULL);
  }
  return gcol_join_tables(c->left, &on, c->right, &on, 1, GCOL_JOIN_LEFT, GCOL_NULLS_UNEQUAL, false,
                          &c->t, NULL, NULL);
}

static void alloc_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_column_free(c->l);
  gcol_column_free(c->r);
  gcol_table_free(c->t);
  c->l = c->r = NULL;
  c->t = NULL;
}

static void test_join_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1403);
  ref_column k =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), 300, GCOL_TEST_RANDOM_NULLS, 20);
  gcol_column *d = NULL;
  ref_column_to_device(&k, &d);
  gcol_column_view const lv = ref_slice(gcol_column_get_view(d), 0, 100);
  gcol_column_view const rv = ref_slice(gcol_column_get_view(d), 100, 300);
  alloc_ctx c;
  memset(&c, 0, sizeof c);
  GCOL_TEST_OK(gcol_table_view_make(&lv, 1, &c.left));
  GCOL_TEST_OK(gcol_table_view_make(&rv, 1, &c.right));
  int64_t *wl = NULL, *wr = NULL;
  gcol_table *sl = sorted_side(&d, 1, 0, 100, NULL, NULL, &wl);
  gcol_table *sr = sorted_side(&d, 1, 100, 300, NULL, NULL, &wr);
  c.sorted_left = gcol_table_get_view(sl);
  c.sorted_right = gcol_table_get_view(sr);
  for (c.which = 0; c.which < 3; ++c.which) {
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &c) >= 5);
  }
  gcol_table_free(sl);
  gcol_table_free(sr);
  free(wl);
  free(wr);
  gcol_column_free(d);
  ref_column_free(&k);
}

/* Allocation failures of the sort-merge join's fast path (a full join: both passes, sides
 * over several tiles). */
static void test_sort_merge_join_fast_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1413);
  ref_column k =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), 7000, GCOL_TEST_NO_MASK, 3000);
  gcol_column *d = NULL;
  ref_column_to_device(&k, &d);
  alloc_ctx c;
  memset(&c, 0, sizeof c);
  int64_t *wl = NULL, *wr = NULL;
  gcol_table *sl = sorted_side(&d, 1, 0, 3000, NULL, NULL, &wl);
  gcol_table *sr = sorted_side(&d, 1, 3000, 7000, NULL, NULL, &wr);
  c.fixed_left = gcol_table_get_view(sl);
  c.fixed_right = gcol_table_get_view(sr);
  c.which = 3;
  assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &c) >= 5);
  gcol_table_free(sl);
  gcol_table_free(sr);
  free(wl);
  free(wr);
  gcol_column_free(d);
  ref_column_free(&k);
}

/* Allocation failures of forced radix joins (the build's and the probe's partition passes,
 * strings and packed keys over several tiles): OUT_OF_MEMORY at each one, nothing leaked. */
static void test_join_radix_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1434);
  ref_column k =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), 300, GCOL_TEST_RANDOM_NULLS, 20);
  ref_column f =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), 9000, GCOL_TEST_NO_MASK, 2500);
  gcol_column *d = NULL, *e = NULL;
  ref_column_to_device(&k, &d);
  ref_column_to_device(&f, &e);
  gcol_column_view const lv = ref_slice(gcol_column_get_view(d), 0, 100);
  gcol_column_view const rv = ref_slice(gcol_column_get_view(d), 100, 300);
  gcol_column_view const flv = ref_slice(gcol_column_get_view(e), 1, 5001);
  gcol_column_view const frv = ref_slice(gcol_column_get_view(e), 5001, 9000);
  alloc_ctx c;
  memset(&c, 0, sizeof c);
  GCOL_TEST_OK(gcol_table_view_make(&lv, 1, &c.left));
  GCOL_TEST_OK(gcol_table_view_make(&rv, 1, &c.right));
  GCOL_TEST_OK(gcol_table_view_make(&flv, 1, &c.fixed_left));
  GCOL_TEST_OK(gcol_table_view_make(&frv, 1, &c.fixed_right));
  c.options = options_of(GCOL_JOIN_ALGORITHM_RADIX, 3);
  for (c.which = 4; c.which < 6; ++c.which) {
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &c) >= 8);
  }
  gcol_column_free(d);
  gcol_column_free(e);
  ref_column_free(&k);
  ref_column_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_join_kinds, 0, 4),
      GCOL_TEST_GPU_PART(test_join_kinds, 1, 4),
      GCOL_TEST_GPU_PART(test_join_kinds, 2, 4),
      GCOL_TEST_GPU_PART(test_join_kinds, 3, 4),
      GCOL_TEST_GPU(test_join_direct_keys),
      GCOL_TEST_GPU(test_join_duplicates),
      GCOL_TEST_GPU(test_join_tables),
      GCOL_TEST_GPU(test_cross_join),
      GCOL_TEST_GPU(test_join_bad_input),
      GCOL_TEST_GPU(test_sort_merge_join),
      GCOL_TEST_GPU(test_sort_merge_join_bad_input),
      GCOL_TEST_GPU_PART(test_sort_merge_join_fast_types, 0, 2),
      GCOL_TEST_GPU_PART(test_sort_merge_join_fast_types, 1, 2),
      GCOL_TEST_GPU(test_sort_merge_join_fast_runs),
      GCOL_TEST_GPU(test_sort_merge_join_fast_unsorted),
      GCOL_TEST_GPU(test_join_allocation_failures),
      GCOL_TEST_GPU(test_sort_merge_join_fast_allocation_failures),
      GCOL_TEST_GPU_PART(test_join_radix_kinds, 0, 4),
      GCOL_TEST_GPU_PART(test_join_radix_kinds, 1, 4),
      GCOL_TEST_GPU_PART(test_join_radix_kinds, 2, 4),
      GCOL_TEST_GPU_PART(test_join_radix_kinds, 3, 4),
      GCOL_TEST_GPU(test_join_radix_packed_order),
      GCOL_TEST_GPU(test_join_radix_duplicates),
      GCOL_TEST_GPU(test_join_radix_large),
      GCOL_TEST_GPU(test_join_radix_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("join", tests);
}
