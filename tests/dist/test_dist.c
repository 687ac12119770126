/* GPU tests of dist.h, run with 2 and 4 ranks (`mpirun -np N`), on one GPU with the MPI
 * transport or one GPU per rank with NCCL (GCOL_DIST_TRANSPORT=nccl): every distributed
 * operation equals the single-GPU operation on the same data. Every rank builds its slice of
 * one global table (rows [r N / ranks, (r + 1) N / ranks)); rank 0 builds the whole table,
 * runs the single-GPU operation, gathers the distributed result and compares. Checks of
 * statuses run on every rank (the statuses are agreed on); comparisons run on rank 0 after
 * the test's last collective, so an assertion never leaves another rank waiting. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcol/copying.h"
#include "gcol/dist.h"
#include "gcol/hashing.h"
#include "gcol/sorting.h"
#include "test_util.h"

static gcol_dist_comm *comm = NULL;
static int32_t me = 0, ranks = 1;

static bool everywhere(bool ok) {
  int mine = ok, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

/* ---- the global table: row i's values are functions of i ---- */

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Columns: 0 k1 INT32 in [0, keys) (null every 11th), 1 k2 STRING "s0".."s6", 2 v INT64
 * (null every 13th), 3 f FLOAT64 small integers (null every 17th), 4 id INT64 = i + salt. */
static gcol_table *make_rows(int64_t begin, int64_t end, int32_t keys, uint64_t salt) {
  int64_t const n = end - begin;
  size_t const m = (size_t)(n > 0 ? n : 1);
  int32_t *k1 = malloc(m * 4);
  int64_t *v = malloc(m * 8), *id = malloc(m * 8), *lengths = malloc(m * 8);
  double *f = malloc(m * 8);
  uint8_t *k1v = malloc(m), *vv = malloc(m), *fv = malloc(m);
  char(*text)[4] = malloc(m * 4);
  const char **strs = malloc(m * sizeof *strs);
  assert_true(k1 && v && id && lengths && f && k1v && vv && fv && text && strs);
  for (int64_t r = 0; r < n; ++r) {
    uint64_t const i = (uint64_t)(begin + r) + salt;
    uint64_t const h = mix(i);
    k1[r] = (int32_t)(h % (uint64_t)keys);
    k1v[r] = i % 11 != 0;
    snprintf(text[r], 4, "s%d", (int)((h >> 20) % 7));
    strs[r] = text[r];
    lengths[r] = 2;
    v[r] = (int64_t)((h >> 32) % 1000) - 500;
    vv[r] = i % 13 != 0;
    f[r] = (double)((h >> 44) % 100);
    fv[r] = i % 17 != 0;
    id[r] = (int64_t)i;
  }
  gcol_column *cols[5] = {NULL};
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, k1, k1v, NULL, NULL,
                                            &cols[0]));
  GCOL_TEST_OK(gcol_column_create_strings_from_host(n, strs, lengths, NULL, NULL, &cols[1]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, v, vv, NULL, NULL,
                                            &cols[2]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), n, f, fv, NULL, NULL,
                                            &cols[3]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, id, NULL, NULL,
                                            NULL, &cols[4]));
  gcol_table *t = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 5, &t));
  free(k1), free(v), free(id), free(lengths), free(f), free(k1v), free(vv), free(fv), free(text);
  free(strs);
  return t;
}

/* Columns 0, 2, 3, 4 of make_rows() (no STRING): a table the direct exchange takes. */
static gcol_table *make_rows_no_strings(int64_t begin, int64_t end, int32_t keys, uint64_t salt) {
  gcol_table *all = make_rows(begin, end, keys, salt), *fixed = NULL;
  int32_t const keep[4] = {0, 2, 3, 4};
  gcol_column_view storage[4];
  gcol_table_view view;
  GCOL_TEST_OK(gcol_table_view_select(gcol_table_get_view(all), keep, 4, storage, &view));
  GCOL_TEST_OK(gcol_table_copy(view, NULL, NULL, &fixed));
  gcol_table_free(all);
  return fixed;
}

static int64_t global_rows(void) { return gcol_test_cap(20000); }

/* This rank's slice of the global table of `rows` rows, as a distributed table. */
static gcol_dist_table *dist_table_of(gcol_table *local, int64_t rows) {
  gcol_dist_table *t = NULL;
  GCOL_TEST_OK(gcol_dist_table_make(comm, local, &t, NULL));
  assert_int_equal(t->global_rows, rows);
  return t;
}

static gcol_dist_table *dist_rows(int64_t rows, int32_t keys, uint64_t salt) {
  return dist_table_of(make_rows(rows * me / ranks, rows * (me + 1) / ranks, keys, salt), rows);
}

static gcol_dist_table *dist_rows_no_strings(int64_t rows, int32_t keys, uint64_t salt) {
  return dist_table_of(make_rows_no_strings(rows * me / ranks, rows * (me + 1) / ranks, keys, salt),
                       rows);
}

/* ---- comparisons (rank 0) ---- */

/* The table sorted by every column, so that row order does not matter. */
static gcol_table *sorted_all(gcol_table_view t) {
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_sort(t, NULL, NULL, &out, NULL, NULL));
  return out;
}

static void assert_tables_equal(gcol_table_view a, gcol_table_view b) {
  assert_int_equal(a.num_columns, b.num_columns);
  assert_int_equal(a.num_rows, b.num_rows);
  for (int32_t c = 0; c < a.num_columns; ++c)
    gcol_test_assert_columns_equal(a.columns[c], b.columns[c]);
}

/* FLOAT64 columns equal within a relative 1e-9 (sums merged in another order). */
static void assert_close(gcol_column_view a, gcol_column_view b) {
  assert_int_equal(a.size, b.size);
  size_t const m = (size_t)(a.size > 0 ? a.size : 1);
  double *x = malloc(m * 8), *y = malloc(m * 8);
  uint8_t *xv = malloc(m), *yv = malloc(m);
  GCOL_TEST_OK(gcol_column_copy_to_host(a, x, xv, NULL));
  GCOL_TEST_OK(gcol_column_copy_to_host(b, y, yv, NULL));
  for (int64_t i = 0; i < a.size; ++i) {
    bool const av = a.null_mask == NULL || xv[i], bv = b.null_mask == NULL || yv[i];
    assert_int_equal(av, bv);
    if (av) assert_true(fabs(x[i] - y[i]) <= 1e-9 * fmax(1.0, fabs(x[i])));
  }
  free(x), free(y), free(xv), free(yv);
}

/* The distributed table gathered on rank 0 (NULL elsewhere). */
static gcol_table *gathered(const gcol_dist_table *t) {
  gcol_table *all = NULL;
  GCOL_TEST_OK(gcol_dist_gather(comm, t, 0, &all, NULL, NULL));
  assert_true(me == 0 ? all != NULL : all == NULL);
  return all;
}

/* ---- tests ---- */

static void gather_orders_rows_by_rank(void **state) {
  (void)state;
  int64_t const n = global_rows();
  gcol_dist_table *t = dist_rows(n, 100, 0);
  gcol_table *last = NULL;
  GCOL_TEST_OK(gcol_dist_gather(comm, t, ranks - 1, &last, NULL, NULL));
  assert_true(everywhere(me == ranks - 1 ? last != NULL : last == NULL));
  if (me == ranks - 1) {
    gcol_table *whole = make_rows(0, n, 100, 0);
    assert_tables_equal(gcol_table_get_view(last), gcol_table_get_view(whole));
    gcol_table_free(whole);
  }
  gcol_table_free(last);
  gcol_dist_table_free(t);
}

static void shuffle_places_equal_keys_together(void **state) {
  (void)state;
  int64_t const n = global_rows();
  gcol_dist_table *t = dist_rows(n, 50, 0), *s = NULL;
  int32_t const keys[2] = {0, 1};
  GCOL_TEST_OK(gcol_dist_shuffle(comm, t, keys, 2, &s, NULL, NULL));
  assert_int_equal(s->partitioning, GCOL_DIST_PARTITION_HASH);
  assert_int_equal(s->global_rows, n);
  /* every local row hashes to this rank */
  gcol_table_view const v = gcol_table_get_view(s->local);
  gcol_table_view kv = {2, v.num_rows, v.columns};
  gcol_column *h = NULL;
  GCOL_TEST_OK(gcol_hash(kv, GCOL_HASH_MURMUR3_32, 0, &h, NULL, NULL));
  size_t const m = (size_t)(v.num_rows > 0 ? v.num_rows : 1);
  uint32_t *hh = malloc(m * 4);
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(h), hh, NULL, NULL));
  bool ok = true;
  for (int64_t i = 0; i < v.num_rows; ++i) ok = ok && (int32_t)(hh[i] % (uint32_t)ranks) == me;
  free(hh);
  gcol_column_free(h);
  /* shuffling again on the same keys moves nothing */
  gcol_dist_table *again = NULL;
  GCOL_TEST_OK(gcol_dist_shuffle(comm, s, keys, 2, &again, NULL, NULL));
  ok = ok && again->local->num_rows == s->local->num_rows;
  assert_true(everywhere(ok));
  gcol_table *all = gathered(s);
  if (me == 0) {
    gcol_table *whole = make_rows(0, n, 50, 0);
    gcol_table *a = sorted_all(gcol_table_get_view(all)),
               *b = sorted_all(gcol_table_get_view(whole));
    assert_tables_equal(gcol_table_get_view(a), gcol_table_get_view(b));
    gcol_table_free(a), gcol_table_free(b), gcol_table_free(whole);
  }
  gcol_table_free(all);
  gcol_dist_table_free(again);
  gcol_dist_table_free(s);
  gcol_dist_table_free(t);
}

/* Fixed-width columns only (the direct shuffle): 0 k INT32 in [0, keys) (null every 11th),
 * 1 small INT8 (nulls every 5th on even ranks only), 2 f FLOAT64 (null every 17th), 3 id INT64
 * (nulls every 7th on odd ranks only): masks that some ranks have and others not. Rank 0 holds
 * no row when there are several ranks. */
static gcol_dist_table *dist_fixed_rows(int64_t rows, int32_t keys) {
  int64_t const begin = ranks == 1 ? 0 : me == 0 ? 0 : rows * (me - 1) / (ranks - 1);
  int64_t const end = ranks == 1 ? rows : me == 0 ? 0 : rows * me / (ranks - 1);
  int64_t const n = end - begin;
  size_t const m = (size_t)(n > 0 ? n : 1);
  int32_t *k = malloc(m * 4);
  int8_t *small = malloc(m);
  double *f = malloc(m * 8);
  int64_t *id = malloc(m * 8);
  uint8_t *kv = malloc(m), *sv = malloc(m), *fv = malloc(m), *iv = malloc(m);
  assert_true(k && small && f && id && kv && sv && fv && iv);
  for (int64_t r = 0; r < n; ++r) {
    uint64_t const i = (uint64_t)(begin + r), h = mix(i + 99);
    k[r] = (int32_t)(h % (uint64_t)keys);
    kv[r] = i % 11 != 0;
    small[r] = (int8_t)(h >> 40);
    sv[r] = me % 2 == 1 || i % 5 != 0;
    f[r] = (double)((h >> 44) % 100);
    fv[r] = i % 17 != 0;
    id[r] = (int64_t)i;
    iv[r] = me % 2 == 0 || i % 7 != 0;
  }
  gcol_column *cols[4] = {NULL};
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n, k, kv, NULL, NULL,
                                            &cols[0]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT8), n, small, sv, NULL,
                                            NULL, &cols[1]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), n, f, fv, NULL, NULL,
                                            &cols[2]));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n, id, iv, NULL, NULL,
                                            &cols[3]));
  free(k), free(small), free(f), free(id), free(kv), free(sv), free(fv), free(iv);
  gcol_table *local = NULL;
  GCOL_TEST_OK(gcol_table_make(cols, 4, &local));
  gcol_dist_table *t = NULL;
  GCOL_TEST_OK(gcol_dist_table_make(comm, local, &t, NULL));
  assert_int_equal(t->global_rows, rows);
  return t;
}

/* The direct shuffle (fixed-width columns) is a permutation of the input rows that puts each
 * row on the rank its key hashes to; a groupby over it (MEAN as sum and count) equals the
 * one-GPU groupby of the whole table. */
static void shuffle_fixed_width_in_place(void **state) {
  (void)state;
  int64_t const n = global_rows();
  gcol_dist_table *t = dist_fixed_rows(n, 500), *s = NULL, *g = NULL;
  int32_t const key = 0;
  GCOL_TEST_OK(gcol_dist_shuffle(comm, t, &key, 1, &s, NULL, NULL));
  gcol_table_view const v = gcol_table_get_view(s->local);
  gcol_column *h = NULL;
  GCOL_TEST_OK(gcol_hash((gcol_table_view){1, v.num_rows, v.columns}, GCOL_HASH_MURMUR3_32, 0, &h,
                         NULL, NULL));
  size_t const m = (size_t)(v.num_rows > 0 ? v.num_rows : 1);
  uint32_t *hh = malloc(m * 4);
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_column_get_view(h), hh, NULL, NULL));
  bool ok = true;
  for (int64_t i = 0; i < v.num_rows; ++i) ok = ok && (int32_t)(hh[i] % (uint32_t)ranks) == me;
  free(hh);
  gcol_column_free(h);
  assert_true(everywhere(ok));
  gcol_dist_agg aggs[5] = {{1, gcol_groupby_agg_make(GCOL_GROUPBY_MEAN)},
                           {2, gcol_groupby_agg_make(GCOL_GROUPBY_MEAN)},
                           {2, gcol_groupby_agg_make(GCOL_GROUPBY_SUM)},
                           {3, gcol_groupby_agg_make(GCOL_GROUPBY_COUNT_VALID)},
                           {2, gcol_groupby_agg_make(GCOL_GROUPBY_VARIANCE)}};
  GCOL_TEST_OK(gcol_dist_groupby(comm, t, &key, 1, aggs, 5, NULL, &g, NULL, NULL));
  gcol_table *input = gathered(t), *shuffled = gathered(s), *grouped = gathered(g);
  if (me == 0) {
    gcol_table *a = sorted_all(gcol_table_get_view(shuffled)),
               *b = sorted_all(gcol_table_get_view(input));
    assert_tables_equal(gcol_table_get_view(a), gcol_table_get_view(b));
    gcol_table_free(a), gcol_table_free(b);
    gcol_table_view const w = gcol_table_get_view(input);
    gcol_groupby_request req[5];
    for (int i = 0; i < 5; ++i)
      req[i] = (gcol_groupby_request){w.columns[aggs[i].column], &aggs[i].agg, 1};
    gcol_groupby_options const sorted = {false, true};
    gcol_groupby_result *expect = NULL;
    GCOL_TEST_OK(gcol_groupby_aggregate((gcol_table_view){1, w.num_rows, w.columns}, req, 5,
                                        &sorted, &expect, NULL, NULL));
    gcol_table_view const got = gcol_table_get_view(grouped);
    gcol_table *ordered = NULL;
    GCOL_TEST_OK(gcol_sort_by_key(got, (gcol_table_view){1, got.num_rows, got.columns}, NULL, NULL,
                                  &ordered, NULL, NULL));
    gcol_table_view const o = gcol_table_get_view(ordered);
    assert_int_equal(o.num_rows, expect->keys->num_rows);
    gcol_test_assert_columns_equal(o.columns[0], gcol_table_get_view(expect->keys).columns[0]);
    for (int i = 0; i < 5; ++i) {
      gcol_column_view const e = gcol_column_get_view(expect->columns[i]);
      assert_int_equal(o.columns[1 + i].type.id, e.type.id);
      if (e.type.id == GCOL_FLOAT64) {
        assert_close(o.columns[1 + i], e);
      } else {
        gcol_test_assert_columns_equal(o.columns[1 + i], e);
      }
    }
    gcol_table_free(ordered);
    gcol_groupby_result_free(expect);
  }
  gcol_table_free(input), gcol_table_free(shuffled), gcol_table_free(grouped);
  gcol_dist_table_free(g), gcol_dist_table_free(s), gcol_dist_table_free(t);
}

/* One join kind, shuffled or broadcast, against gcol_join_tables() of the whole tables (the
 * left one of n rows, the right one of m); returns the output's partitioning. */
static gcol_dist_partitioning check_join_on(gcol_join_kind kind, const int32_t *on,
                                            int32_t num_keys, bool drop_right_keys,
                                            int64_t broadcast_max_rows, int64_t n, int64_t m,
                                            bool fixed) {
  gcol_table *(*rows_of)(int64_t, int64_t, int32_t, uint64_t) =
      fixed ? make_rows_no_strings : make_rows;
  gcol_dist_table *left = fixed ? dist_rows_no_strings(n, 300, 0) : dist_rows(n, 300, 0);
  gcol_dist_table *right = fixed ? dist_rows_no_strings(m, 300, 7777) : dist_rows(m, 300, 7777);
  gcol_dist_table *j = NULL;
  gcol_dist_join_options opt;
  gcol_dist_join_options_init(&opt);
  opt.broadcast_max_rows = broadcast_max_rows;
  opt.drop_right_keys = drop_right_keys;
  GCOL_TEST_OK(gcol_dist_join(comm, left, on, right, on, num_keys, kind, GCOL_NULLS_EQUAL, &opt, &j,
                              NULL, NULL));
  gcol_table *all = gathered(j);
  if (me == 0) {
    gcol_table *l = rows_of(0, n, 300, 0), *r = rows_of(0, m, 300, 7777), *expect = NULL;
    GCOL_TEST_OK(gcol_join_tables(gcol_table_get_view(l), on, gcol_table_get_view(r), on, num_keys,
                                  kind, GCOL_NULLS_EQUAL, drop_right_keys, &expect, NULL, NULL));
    assert_int_equal(all->num_rows, j->global_rows);
    gcol_table *a = sorted_all(gcol_table_get_view(all)),
               *b = sorted_all(gcol_table_get_view(expect));
    assert_tables_equal(gcol_table_get_view(a), gcol_table_get_view(b));
    gcol_table_free(a), gcol_table_free(b), gcol_table_free(expect), gcol_table_free(l);
    gcol_table_free(r);
  }
  gcol_table_free(all);
  gcol_dist_partitioning const part = j->partitioning;
  gcol_dist_table_free(j);
  gcol_dist_table_free(left);
  gcol_dist_table_free(right);
  return part;
}

static gcol_dist_partitioning check_join_tables(gcol_join_kind kind, int32_t num_keys,
                                                int64_t broadcast_max_rows, int64_t n, int64_t m,
                                                bool fixed) {
  int32_t const on[2] = {0, 1};
  return check_join_on(kind, on, num_keys, false, broadcast_max_rows, n, m, fixed);
}

static gcol_dist_partitioning check_join_sizes(gcol_join_kind kind, int32_t num_keys,
                                               int64_t broadcast_max_rows, int64_t n, int64_t m) {
  return check_join_tables(kind, num_keys, broadcast_max_rows, n, m, false);
}

static void check_join(gcol_join_kind kind, int32_t num_keys, int64_t broadcast_max_rows) {
  int64_t const n = global_rows();
  check_join_sizes(kind, num_keys, broadcast_max_rows, n, n / 4);
}

/* The default (GCOL_DIST_BROADCAST_AUTO) broadcasts when R(ranks - 1) < L in bytes: a right
 * side of a quarter of the left one's rows (same columns) at 2 to 4 ranks; a right side four
 * times the left one's is shuffled. The output says which: the left table's partitioning
 * (NONE) after a broadcast, HASH after a shuffle. */
static void join_chooses_by_bytes(void **state) {
  (void)state;
  int64_t const n = global_rows();
  for (int k = GCOL_JOIN_INNER; k <= GCOL_JOIN_LEFT_ANTI; ++k) {
    gcol_dist_partitioning const small_right =
        check_join_sizes((gcol_join_kind)k, 2, GCOL_DIST_BROADCAST_AUTO, n, n / 4);
    gcol_dist_partitioning const large_right =
        check_join_sizes((gcol_join_kind)k, 2, GCOL_DIST_BROADCAST_AUTO, n / 4, n);
    bool const broadcastable = k != GCOL_JOIN_FULL && ranks > 1 && ranks <= 4;
    gcol_dist_partitioning const after_shuffle =
        k == GCOL_JOIN_FULL ? GCOL_DIST_PARTITION_NONE : GCOL_DIST_PARTITION_HASH;
    assert_int_equal(small_right, broadcastable ? GCOL_DIST_PARTITION_NONE : after_shuffle);
    assert_int_equal(large_right, after_shuffle);
  }
}

static void join_every_kind_shuffled(void **state) {
  (void)state;
  for (int k = GCOL_JOIN_INNER; k <= GCOL_JOIN_LEFT_ANTI; ++k) {
    check_join((gcol_join_kind)k, 1, 0);
    check_join((gcol_join_kind)k, 2, 0);
  }
}

static void join_broadcasts_a_small_right_side(void **state) {
  (void)state;
  int64_t const n = global_rows();
  for (int k = GCOL_JOIN_INNER; k <= GCOL_JOIN_LEFT_ANTI; ++k) {
    check_join((gcol_join_kind)k, 2, INT64_MAX); /* FULL still shuffles */
    /* fixed-width sides: the right one gathered by the direct exchange, masks spliced */
    gcol_dist_partitioning const part =
        check_join_tables((gcol_join_kind)k, 2, INT64_MAX, n, n / 4, true);
    bool const broadcast = k != GCOL_JOIN_FULL && ranks > 1;
    assert_int_equal(part, broadcast || k == GCOL_JOIN_FULL ? GCOL_DIST_PARTITION_NONE
                                                            : GCOL_DIST_PARTITION_HASH);
  }
}

/* A broadcast gathers the right keys first and its other columns on a side stream: keys that
 * are not the first columns, in another order than the table's, kept or dropped. */
static void join_broadcast_puts_right_columns_back_in_order(void **state) {
  (void)state;
  int64_t const n = global_rows();
  int32_t const on[2] = {2, 0}; /* INT64 v, then INT32 k1 */
  for (int k = GCOL_JOIN_INNER; k <= GCOL_JOIN_LEFT_ANTI; ++k) {
    if (k == GCOL_JOIN_FULL) continue;
    for (int drop = 0; drop < 2; ++drop) {
      check_join_on((gcol_join_kind)k, on, 2, drop, INT64_MAX, n, n / 4, false);
      check_join_on((gcol_join_kind)k, on + 1, 1, drop, INT64_MAX, n / 8, n / 8, true);
    }
  }
}

static void groupby_merges_partials(void **state) {
  (void)state;
  int64_t const n = global_rows();
  gcol_dist_table *t = dist_rows(n, 200, 0), *g = NULL, *s = NULL, *g2 = NULL;
  int32_t const keys[2] = {0, 1};
  gcol_groupby_agg_kind const kinds[9] = {
      GCOL_GROUPBY_SUM,         GCOL_GROUPBY_MIN,       GCOL_GROUPBY_MAX,
      GCOL_GROUPBY_COUNT_VALID, GCOL_GROUPBY_COUNT_ALL, GCOL_GROUPBY_MEAN,
      GCOL_GROUPBY_VARIANCE,    GCOL_GROUPBY_STD,       GCOL_GROUPBY_M2};
  int32_t const value_col[9] = {2, 2, 3, 3, 2, 2, 3, 2, 3};
  gcol_dist_agg aggs[9];
  for (int i = 0; i < 9; ++i) {
    aggs[i].column = value_col[i];
    aggs[i].agg = gcol_groupby_agg_make(kinds[i]);
  }
  aggs[6].agg.ddof = 0;
  GCOL_TEST_OK(gcol_dist_groupby(comm, t, keys, 2, aggs, 9, NULL, &g, NULL, NULL));
  /* the same on a table already hashed on the keys: aggregated in place */
  GCOL_TEST_OK(gcol_dist_shuffle(comm, t, keys, 2, &s, NULL, NULL));
  GCOL_TEST_OK(gcol_dist_groupby(comm, s, keys, 2, aggs, 9, NULL, &g2, NULL, NULL));
  assert_true(everywhere(g->local->num_columns == 11 && g2->global_rows == g->global_rows));
  gcol_table *all = gathered(g), *all2 = gathered(g2);
  if (me == 0) {
    gcol_table *whole = make_rows(0, n, 200, 0);
    gcol_table_view const w = gcol_table_get_view(whole);
    gcol_groupby_request req[9];
    for (int i = 0; i < 9; ++i)
      req[i] = (gcol_groupby_request){w.columns[value_col[i]], &aggs[i].agg, 1};
    gcol_groupby_options const sorted = {false, true};
    gcol_groupby_result *expect = NULL;
    GCOL_TEST_OK(gcol_groupby_aggregate((gcol_table_view){2, w.num_rows, w.columns}, req, 9,
                                        &sorted, &expect, NULL, NULL));
    for (int pass = 0; pass < 2; ++pass) {
      gcol_table_view const got = gcol_table_get_view(pass == 0 ? all : all2);
      gcol_table *ordered = NULL;
      GCOL_TEST_OK(gcol_sort_by_key(got, (gcol_table_view){2, got.num_rows, got.columns}, NULL,
                                    NULL, &ordered, NULL, NULL));
      gcol_table_view const o = gcol_table_get_view(ordered);
      assert_int_equal(o.num_rows, expect->keys->num_rows);
      for (int c = 0; c < 2; ++c)
        gcol_test_assert_columns_equal(o.columns[c], gcol_table_get_view(expect->keys).columns[c]);
      for (int i = 0; i < 9; ++i) {
        gcol_column_view const e = gcol_column_get_view(expect->columns[i]);
        if (e.type.id == GCOL_FLOAT64) {
          assert_close(o.columns[2 + i], e);
        } else {
          gcol_test_assert_columns_equal(o.columns[2 + i], e);
        }
      }
      gcol_table_free(ordered);
    }
    gcol_groupby_result_free(expect);
    gcol_table_free(whole);
  }
  gcol_table_free(all), gcol_table_free(all2);
  gcol_dist_table_free(g), gcol_dist_table_free(g2), gcol_dist_table_free(s),
      gcol_dist_table_free(t);
}

static void sort_ranges_rows_over_ranks(void **state) {
  (void)state;
  int64_t const n = global_rows();
  gcol_dist_table *t = dist_rows(n, 1000, 0), *s = NULL;
  /* k1 descending with nulls first, then id ascending (unique: one right answer) */
  int32_t const keys[2] = {0, 4};
  gcol_order const order[2] = {GCOL_ORDER_DESCENDING, GCOL_ORDER_ASCENDING};
  gcol_null_order const nulls[2] = {GCOL_NULLS_BEFORE, GCOL_NULLS_AFTER};
  GCOL_TEST_OK(gcol_dist_sort(comm, t, keys, 2, order, nulls, &s, NULL, NULL));
  assert_int_equal(s->partitioning, GCOL_DIST_PARTITION_RANGE);
  /* each rank got a share near the mean (regular samples of well-spread keys) */
  bool const balanced = ranks == 1 || s->local->num_rows < 2 * n / ranks + 64;
  assert_true(everywhere(balanced));
  gcol_table *all = gathered(s);
  if (me == 0) {
    gcol_table *whole = make_rows(0, n, 1000, 0), *expect = NULL;
    gcol_table_view const w = gcol_table_get_view(whole);
    gcol_column_view kv[2] = {w.columns[0], w.columns[4]};
    GCOL_TEST_OK(
        gcol_sort_by_key(w, (gcol_table_view){2, n, kv}, order, nulls, &expect, NULL, NULL));
    assert_tables_equal(gcol_table_get_view(all), gcol_table_get_view(expect));
    gcol_table_free(expect), gcol_table_free(whole);
  }
  gcol_table_free(all);
  gcol_dist_table_free(s), gcol_dist_table_free(t);
}

static void bad_input_fails_on_every_rank(void **state) {
  (void)state;
  gcol_dist_table *t = dist_rows(1000, 10, 0), *out = NULL;
  int32_t const bad[1] = {9};
  assert_int_equal(gcol_dist_shuffle(comm, t, bad, 1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  int32_t const string_on[1] = {1}, int_on[1] = {0};
  assert_int_equal(gcol_dist_join(comm, t, int_on, t, string_on, 1, GCOL_JOIN_INNER,
                                  GCOL_NULLS_EQUAL, NULL, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  gcol_dist_join_options bad_options;
  gcol_dist_join_options_init(&bad_options);
  bad_options.broadcast_max_rows = -2;
  assert_int_equal(gcol_dist_join(comm, t, int_on, t, int_on, 1, GCOL_JOIN_INNER,
                                  GCOL_NULLS_EQUAL, &bad_options, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_dist_agg const median = {2, gcol_groupby_agg_make(GCOL_GROUPBY_MEDIAN)};
  assert_int_equal(gcol_dist_groupby(comm, t, int_on, 1, &median, 1, NULL, &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_int_equal(gcol_dist_gather(comm, t, ranks, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  /* one rank without a table: it says so, the others hear of a failed peer */
  gcol_table *local = me == ranks - 1 ? NULL : make_rows(0, 10, 10, 0);
  gcol_status const st = gcol_dist_table_make(comm, local, &out, NULL);
  gcol_status const expected = me == ranks - 1 ? GCOL_ERROR_INVALID_ARGUMENT : GCOL_ERROR_PEER;
  assert_true(
      everywhere(st == (ranks == 1 ? GCOL_ERROR_INVALID_ARGUMENT : expected) && out == NULL));
  gcol_table_free(local);
  gcol_dist_table_free(t);
}

/* Allocation failures on the last rank during a shuffle of t: every rank fails (that one
 * with OUT_OF_MEMORY, the others with PEER), nothing leaks anywhere, and once the failing
 * allocation lies past the shuffle's last one, it succeeds everywhere. */
static void shuffle_fails_alike(const gcol_dist_table *t) {
  int32_t const keys[1] = {0};
  bool ok = true;
  for (int64_t nth = 1;; ++nth) {
    gcol_mr *failing = NULL;
    if (me == ranks - 1) {
      GCOL_TEST_OK(gcol_mr_fail_nth_create(gcol_test_stats_mr(), nth, &failing));
      GCOL_TEST_OK(gcol_mr_set_default(failing, NULL));
    }
    int64_t const live = gcol_test_live_bytes();
    gcol_dist_table *out = NULL;
    gcol_status const st = gcol_dist_shuffle(comm, t, keys, 1, &out, NULL, NULL);
    /* the output's buffers remember the failing resource: free them before it goes */
    gcol_dist_table_free(out);
    if (me == ranks - 1) {
      GCOL_TEST_OK(gcol_mr_set_default(gcol_test_stats_mr(), NULL));
      gcol_mr_destroy(failing);
    }
    if (st == GCOL_OK) break;
    ok = ok && out == NULL && gcol_test_live_bytes() == live &&
         st == (me == ranks - 1 ? GCOL_ERROR_OUT_OF_MEMORY : GCOL_ERROR_PEER);
    if (nth > 200) {
      ok = false;
      break;
    }
  }
  assert_true(everywhere(ok));
}

/* The packed exchange (a table with strings) and the direct one (fixed-width columns). */
static void allocation_failures_on_one_rank(void **state) {
  (void)state;
  gcol_dist_table *packed = dist_rows(gcol_test_cap(3000), 40, 0);
  gcol_dist_table *direct = dist_fixed_rows(gcol_test_cap(3000), 40);
  shuffle_fails_alike(packed);
  shuffle_fails_alike(direct);
  gcol_dist_table_free(packed);
  gcol_dist_table_free(direct);
}

int main(int argc, char **argv) {
  /* A rank whose test case aborts (a failed assertion, a signal) skips that case's last
   * collectives while the others wait in them: the alarm ends such a run (mpirun then stops
   * every rank) instead of leaving it to the harness's timeout. Under the sanitizers
   * (scripts/gpu-check sets GCOL_TEST_MR) everything is many times slower. */
  alarm(getenv("GCOL_TEST_MR") != NULL ? 2400 : 240);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (me != 0 && freopen("/dev/null", "w", stdout) == NULL) return 1;
  int failed = 0;
  if (!everywhere(gcol_test_has_device())) {
    printf("1..0 # SKIP no CUDA device\n");
  } else {
    int devices = 1;
    (void)cudaGetDeviceCount(&devices);
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    (void)cudaSetDevice((local != NULL ? atoi(local) : me) % devices);
    /* mpi (default), nccl (NCCL data, MPI control) or nccl-id (NCCL only: the communicator
     * from a unique id that MPI merely carries, so gcol's control messages go through NCCL) */
    const char *which = getenv("GCOL_DIST_TRANSPORT");
    bool const nccl_only = which != NULL && strcmp(which, "nccl-id") == 0;
    gcol_dist_transport const transport = which != NULL && strncmp(which, "nccl", 4) == 0
                                              ? GCOL_DIST_TRANSPORT_NCCL
                                              : GCOL_DIST_TRANSPORT_MPI;
    gcol_status made = GCOL_OK;
    if (nccl_only) {
      uint8_t id[GCOL_DIST_UNIQUE_ID_BYTES] = {0};
      if (me == 0) made = gcol_dist_nccl_unique_id(id);
      MPI_Bcast(id, GCOL_DIST_UNIQUE_ID_BYTES, MPI_BYTE, 0, MPI_COMM_WORLD);
      if (made == GCOL_OK) made = gcol_dist_comm_create_nccl(id, ranks, me, &comm);
    } else {
      MPI_Comm world = MPI_COMM_WORLD;
      made = gcol_dist_comm_create_mpi(&world, transport, &comm);
    }
    if (made != GCOL_OK) {
      fprintf(stderr, "cannot create the communicator: %s\n", gcol_last_error());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    printf("# %d ranks, transport %s%s\n", ranks,
           transport == GCOL_DIST_TRANSPORT_NCCL ? "NCCL" : "MPI",
           nccl_only ? " (control messages over NCCL too)" : "");
    const struct CMUnitTest tests[] = {
        GCOL_TEST_GPU(gather_orders_rows_by_rank),
        GCOL_TEST_GPU(shuffle_places_equal_keys_together),
        GCOL_TEST_GPU(shuffle_fixed_width_in_place),
        GCOL_TEST_GPU(join_every_kind_shuffled),
        GCOL_TEST_GPU(join_broadcasts_a_small_right_side),
        GCOL_TEST_GPU(join_broadcast_puts_right_columns_back_in_order),
        GCOL_TEST_GPU(join_chooses_by_bytes),
        GCOL_TEST_GPU(groupby_merges_partials),
        GCOL_TEST_GPU(sort_ranges_rows_over_ranks),
        GCOL_TEST_GPU(bad_input_fails_on_every_rank),
        GCOL_TEST_GPU(allocation_failures_on_one_rank),
    };
    failed = GCOL_TEST_RUN("dist", tests);
    gcol_dist_comm_free(comm);
  }
  MPI_Finalize();
  return failed;
}
