/*
 * Host tests (no GPU needed) of filtering.h, filling.h and null_ops.h: every argument check
 * that must fail before any device memory is touched gives its specific status, a message
 * naming the argument, and leaves the output NULL. The device pointers here are fake and
 * never dereferenced: a check that let them through would crash the test.
 */
#include "test_util.h"

#include <math.h>

#include "filtering/tile_mask.h"
#include "filtering_reference.h"
#include "gcol/bitmask.h"
#include "gcol/bits.h"
#include "gcol/filling.h"
#include "gcol/filtering.h"
#include "gcol/null_ops.h"

/* A fake device address: any access to it faults. */
#define FAKE_PTR ((const void *)(uintptr_t)0x10)

static gcol_column_view fake_view(gcol_type_id id, int64_t size) {
  return gcol_column_view_make(gcol_data_type_make(id), size, FAKE_PTR, NULL, 0);
}

static void expect_message(const char *needle) {
  if (strstr(gcol_last_error(), needle) == NULL) {
    fail_msg("message \"%s\" does not name \"%s\"", gcol_last_error(), needle);
  }
}

static void test_apply_boolean_mask_checks(void **state) {
  (void)state;
  gcol_column_view data = fake_view(GCOL_INT64, 10);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&data, 1, &t));
  gcol_table *out = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_apply_boolean_mask(t, fake_view(GCOL_INT8, 10), &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("boolean_mask");
  assert_null(out);
  out = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_apply_boolean_mask(t, fake_view(GCOL_BOOL8, 9), &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  expect_message("9");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_apply_boolean_mask(t, fake_view(GCOL_BOOL8, 10), NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("out");
  gcol_column_view bad = fake_view(GCOL_INT64, 10);
  bad.offset = -1;
  GCOL_TEST_STATUS(gcol_apply_boolean_mask(t, bad, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
}

static void test_drop_checks(void **state) {
  (void)state;
  gcol_column_view cols[2] = {fake_view(GCOL_INT32, 10), fake_view(GCOL_FLOAT32, 10)};
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(cols, 2, &t));
  gcol_table *out = (gcol_table *)(uintptr_t)1;
  int32_t const keys[2] = {0, 1}, bad_keys[2] = {0, 2};
  GCOL_TEST_STATUS(gcol_drop_nulls(t, keys, 2, 3, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("keep_threshold");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_drop_nulls(t, keys, 2, -1, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("keep_threshold");
  GCOL_TEST_STATUS(gcol_drop_nulls(t, bad_keys, 2, 1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("keys[1]");
  GCOL_TEST_STATUS(gcol_drop_nulls(t, NULL, 2, 1, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("keys");
  GCOL_TEST_STATUS(gcol_drop_nulls(t, keys, 0, 0, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("num_keys");
  GCOL_TEST_STATUS(gcol_drop_nans(t, keys, 2, 1, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  expect_message("int32");
  assert_null(out);
}

static void test_distinct_checks(void **state) {
  (void)state;
  /* a LIST column: offsets child and values child */
  gcol_column_view children[2] = {fake_view(GCOL_INT32, 11), fake_view(GCOL_INT64, 20)};
  gcol_column_view list = gcol_column_view_make(gcol_data_type_make(GCOL_LIST), 10, NULL, NULL, 0);
  list.num_children = 2;
  list.children = children;
  gcol_column_view cols[2] = {fake_view(GCOL_INT32, 10), list};
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(cols, 2, &t));
  gcol_table *out = (gcol_table *)(uintptr_t)1;
  int32_t const k0 = 0, k1 = 1, k9 = 9;
  GCOL_TEST_STATUS(gcol_distinct(t, &k9, 1, GCOL_KEEP_ANY, GCOL_NULLS_EQUAL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("keys[0]");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_distinct(t, &k1, 1, GCOL_KEEP_ANY, GCOL_NULLS_EQUAL, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("list");
  GCOL_TEST_STATUS(
      gcol_unique(t, &k0, 1, (gcol_duplicate_keep)4, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("keep");
  GCOL_TEST_STATUS(gcol_unique(t, &k0, 1, GCOL_KEEP_LAST, (gcol_null_equality)2, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("nulls");
  GCOL_TEST_STATUS(gcol_distinct(t, &k0, 0, GCOL_KEEP_LAST, GCOL_NULLS_EQUAL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_distinct(t, &k0, 1, GCOL_KEEP_LAST, GCOL_NULLS_EQUAL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  int64_t count = -1;
  GCOL_TEST_STATUS(gcol_distinct_count(t, GCOL_NULLS_EQUAL, &count, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_distinct_count(t, GCOL_NULLS_EQUAL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_table_view empty;
  empty.num_columns = 0;
  empty.num_rows = 0;
  empty.columns = NULL;
  GCOL_TEST_STATUS(gcol_distinct_count(empty, GCOL_NULLS_EQUAL, &count, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
}

static void test_filling_checks(void **state) {
  (void)state;
  gcol_scalar *i32 = NULL, *i64 = NULL, *null64 = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 1, &i32));
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), 1, &i64));
  GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_INT64), &null64));
  gcol_column_view const v = fake_view(GCOL_INT64, 10);
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_fill(v, 0, 3, i32, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  expect_message("value");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_fill(v, 4, 3, i64, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("range");
  GCOL_TEST_STATUS(gcol_fill(v, 0, 11, i64, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_fill(fake_view(GCOL_STRUCT, 0), 0, 0, i64, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  gcol_mutable_column_view mv;
  memset(&mv, 0, sizeof mv);
  mv.type = gcol_data_type_make(GCOL_INT64);
  mv.size = 10;
  mv.data = (void *)(uintptr_t)0x10;
  GCOL_TEST_STATUS(gcol_fill_in_place_view(&mv, 0, 3, null64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("null mask");
  /* An empty range is a no-op: a null value needs no mask there (and nothing is launched). */
  GCOL_TEST_OK(gcol_fill_in_place_view(&mv, 3, 3, null64, NULL));
  assert_int_equal(mv.null_count, 0);
  GCOL_TEST_STATUS(gcol_fill_in_place_view(&mv, -1, 3, i64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_fill_in_place_view(&mv, 0, 3, i32, NULL), GCOL_ERROR_TYPE_MISMATCH);
  /* The column form checks the same before it takes a mutable view (which would copy a
   * shared buffer): a column struct without buffers is never read on these paths. */
  gcol_column col;
  memset(&col, 0, sizeof col);
  col.type = gcol_data_type_make(GCOL_INT64);
  col.size = 10;
  GCOL_TEST_STATUS(gcol_fill_in_place(&col, 0, 3, null64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("null mask");
  assert_non_null(strstr(gcol_last_error(), "gcol_fill_in_place:"));
  GCOL_TEST_OK(gcol_fill_in_place(&col, 3, 3, null64, NULL)); /* empty: a no-op */
  assert_int_equal(col.null_count, 0);
  GCOL_TEST_STATUS(gcol_fill_in_place(&col, 0, 11, i64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_fill_in_place(&col, 0, 3, i32, NULL), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_fill_in_place(NULL, 0, 3, i64, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  col.type = gcol_data_type_make(GCOL_STRING);
  GCOL_TEST_STATUS(gcol_fill_in_place(&col, 0, 3, i64, NULL), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_sequence(-2, i64, i64, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("size");
  GCOL_TEST_STATUS(gcol_sequence(2, i64, i32, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  expect_message("step");
  GCOL_TEST_STATUS(gcol_sequence(2, null64, i64, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("init");
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&v, 1, &t));
  gcol_table *tout = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_repeat_scalar(t, -3, &tout, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("count");
  assert_null(tout);
  GCOL_TEST_STATUS(gcol_repeat_scalar(t, INT64_MAX / 5, &tout, NULL, NULL), GCOL_ERROR_OVERFLOW);
  GCOL_TEST_STATUS(gcol_repeat(t, fake_view(GCOL_FLOAT32, 10), &tout, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("counts");
  GCOL_TEST_STATUS(gcol_repeat(t, fake_view(GCOL_INT32, 9), &tout, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  assert_null(out);
  assert_null(tout);
  gcol_scalar_free(i32);
  gcol_scalar_free(i64);
  gcol_scalar_free(null64);
}

static void test_null_ops_checks(void **state) {
  (void)state;
  gcol_column_view const v = fake_view(GCOL_INT64, 10);
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_is_nan(v, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  expect_message("FLOAT");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_is_null(v, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_is_valid(v, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_replace_nulls(v, fake_view(GCOL_INT32, 10), &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("replacement");
  GCOL_TEST_STATUS(gcol_replace_nulls(v, fake_view(GCOL_INT64, 3), &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_replace_nulls_scalar(v, NULL, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("replacement");
  GCOL_TEST_STATUS(gcol_replace_nulls_policy(v, (gcol_replace_policy)3, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("policy");
  /* LIST and STRUCT are accepted by the column and policy variants (GPU tests); a scalar
   * cannot be nested, and DICTIONARY32 is refused by all three. */
  gcol_scalar *i64 = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), 7, &i64));
  GCOL_TEST_STATUS(gcol_replace_nulls_scalar(fake_view(GCOL_STRUCT, 5), i64, &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  expect_message("scalar cannot be a LIST or STRUCT");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_replace_nulls_scalar(fake_view(GCOL_LIST, 0), i64, &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  expect_message("LIST");
  gcol_scalar_free(i64);
  GCOL_TEST_STATUS(gcol_replace_nulls_policy(fake_view(GCOL_DICTIONARY32, 0),
                                             GCOL_REPLACE_PRECEDING, &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  expect_message("DICTIONARY32");
  GCOL_TEST_STATUS(gcol_replace_nulls(fake_view(GCOL_DICTIONARY32, 0),
                                      fake_view(GCOL_DICTIONARY32, 0), &out, NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  expect_message("DICTIONARY32");
  /* nested inputs still get the type and size checks before any device work */
  GCOL_TEST_STATUS(gcol_replace_nulls(fake_view(GCOL_STRUCT, 10), v, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("replacement");
  GCOL_TEST_STATUS(
      gcol_replace_nulls(fake_view(GCOL_STRUCT, 10), fake_view(GCOL_STRUCT, 4), &out, NULL, NULL),
      GCOL_ERROR_SIZE_MISMATCH);
  expect_message("replacement");
  GCOL_TEST_STATUS(gcol_replace_nulls_policy(fake_view(GCOL_STRUCT, 0), (gcol_replace_policy)9,
                                             &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("policy");
  assert_null(out);
  gcol_buffer *mask = (gcol_buffer *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_bools_to_mask(v, &mask, NULL, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  expect_message("BOOL8");
  assert_null(mask);
  GCOL_TEST_STATUS(gcol_mask_to_bools(NULL, 0, 5, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("out");
  GCOL_TEST_STATUS(gcol_mask_to_bools(NULL, 6, 5, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("range");
  GCOL_TEST_STATUS(gcol_mask_to_bools((const uint32_t *)FAKE_PTR, 6, 5, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("range");
  assert_null(out);
}

/* The host reference itself, on hand-computed examples (the GPU tests trust it). */
static void test_reference_hand_examples(void **state) {
  (void)state;
  double const v[8] = {1.0, -0.0, 0.0, NAN, 1.0, -NAN, 2.0, 2.0};
  uint8_t valid[8] = {1, 1, 1, 1, 1, 1, 0, 0};
  ref_column c;
  memset(&c, 0, sizeof c);
  c.type = gcol_data_type_make(GCOL_FLOAT64);
  c.size = 8;
  c.width = 8;
  c.values = (uint8_t *)(uintptr_t)v;
  c.valid = valid;
  const ref_column *keys[1] = {&c};
  int64_t idx[8], group[8];
  /* groups: {0,4} {1,2} {3,5} {6,7 (nulls)} */
  int64_t const first[] = {0, 1, 3, 6};
  int64_t const last[] = {2, 4, 5, 7};
  assert_int_equal(ref_distinct_indices(keys, 1, 0, 8, GCOL_KEEP_FIRST, true, idx, group), 4);
  assert_memory_equal(idx, first, sizeof first);
  assert_int_equal(ref_distinct_indices(keys, 1, 0, 8, GCOL_KEEP_LAST, true, idx, group), 4);
  assert_memory_equal(idx, last, sizeof last);
  assert_int_equal(ref_distinct_indices(keys, 1, 0, 8, GCOL_KEEP_NONE, true, idx, group), 0);
  /* unequal nulls: rows 6 and 7 are unique */
  int64_t const none_unequal[] = {6, 7};
  assert_int_equal(ref_distinct_indices(keys, 1, 0, 8, GCOL_KEEP_NONE, false, idx, group), 2);
  assert_memory_equal(idx, none_unequal, sizeof none_unequal);
  /* consecutive runs: [0] [1,2] [3] [4] [5] [6,7] */
  int64_t const runs_first[] = {0, 1, 3, 4, 5, 6};
  int64_t const runs_none[] = {0, 3, 4, 5};
  assert_int_equal(ref_unique_indices(keys, 1, 0, 8, GCOL_KEEP_FIRST, true, idx), 6);
  assert_memory_equal(idx, runs_first, sizeof runs_first);
  assert_int_equal(ref_unique_indices(keys, 1, 0, 8, GCOL_KEEP_NONE, true, idx), 4);
  assert_memory_equal(idx, runs_none, sizeof runs_none);
  /* slice from row 2: drop_nulls and drop_nans */
  assert_int_equal(ref_drop_nulls_indices(keys, 1, 2, 6, 1, idx), 4);
  assert_int_equal(ref_drop_nans_indices(keys, 1, 2, 6, 1, idx), 4); /* nulls are not NaN */
  int64_t const not_nan[] = {0, 2, 4, 5};
  assert_memory_equal(idx, not_nan, sizeof not_nan);
}

/* ---- the tiled select's mask words (kernels/filtering/tile_mask.h) ---- */

/* Kept rows of a tile: the edges (none, one, a word +- 1, a whole tile) or any count. */
static int tile_kept_count(gcol_test_rng *rng) {
  static const int edges[] = {0, 0, 1, 2, 31, 32, 33, 63, 64, 65, 2047, 2048};
  uint64_t const r = gcol_test_rng_next(rng);
  if (r % 3 != 0) return edges[(r / 3) % (sizeof edges / sizeof edges[0])];
  return (int)((r / 3) % 2049);
}

/* One tile as pass 2 writes it: tile word j packs lanes 0..31 (one ballot); a word wholly
 * inside the tile's rows is stored and must be touched by no other tile; the others are
 * ORed in. owner[w] is 1 for a stored word, 2 for a word some tile ORed bits into. */
static void write_tile_words(const uint8_t *valid, int64_t base, int count, uint32_t *mask,
                             int64_t mask_words, uint8_t *owner, int64_t *valid_rows) {
  int const words = gcol_detail_tile_mask_words(base, count);
  for (int j = 0; j < words; ++j) {
    uint32_t word = 0;
    for (int lane = 0; lane < 32; ++lane) {
      int const p = gcol_detail_tile_mask_position(base, j, lane);
      if (p >= 0 && p < count && valid[base + p]) word |= 1u << lane;
    }
    int64_t const w = base / 32 + j;
    assert_true(w < mask_words);
    *valid_rows += gcol_popcount32(word);
    if (gcol_detail_tile_mask_word_whole(base, count, j)) {
      if (owner[w] != 0)
        fail_msg("word %lld stored by a tile, also written by another", (long long)w);
      owner[w] = 1;
      mask[w] = word;
    } else if (word != 0) {
      if (owner[w] == 1) fail_msg("word %lld ORed into, but a tile owns it", (long long)w);
      owner[w] = 2;
      mask[w] |= word;
    }
  }
}

/* Random tiles (zero and full ones included), their kept rows at exclusive-scan offsets,
 * written in a scrambled order into a zeroed mask: every bit as set one by one, nothing past
 * the last row, and the valid rows counted once. */
static void test_tile_mask_words(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(420);
  enum { MAX_TILES = 12 };
  for (int round = 0; round < 400; ++round) {
    int const num_tiles = 1 + (int)(gcol_test_rng_next(&rng) % MAX_TILES);
    int counts[MAX_TILES];
    int64_t bases[MAX_TILES + 1];
    bases[0] = 0;
    for (int t = 0; t < num_tiles; ++t) {
      counts[t] = tile_kept_count(&rng);
      bases[t + 1] = bases[t] + counts[t];
    }
    int64_t const total = bases[num_tiles];
    int64_t const mask_words = (int64_t)gcol_bitmask_allocation_size(total) / 4;
    uint8_t *valid = (uint8_t *)calloc((size_t)total + 1, 1);
    uint32_t *want = (uint32_t *)calloc((size_t)mask_words + 1, 4);
    uint32_t *got = (uint32_t *)calloc((size_t)mask_words + 1, 4);
    uint8_t *owner = (uint8_t *)calloc((size_t)mask_words + 1, 1);
    int const density = round % 4; /* all null, all valid, random, mostly valid */
    int64_t want_valid = 0, got_valid = 0;
    for (int64_t i = 0; i < total; ++i) {
      uint64_t const r = gcol_test_rng_next(&rng);
      valid[i] = (uint8_t)(density == 0   ? 0
                           : density == 1 ? 1
                           : density == 2 ? r % 2
                                          : r % 16 != 0);
      if (valid[i]) want[i / 32] |= 1u << (i % 32);
      want_valid += valid[i];
    }
    int order[MAX_TILES]; /* a random order of the tiles (blocks run in any order) */
    for (int t = 0; t < num_tiles; ++t) order[t] = t;
    for (int t = num_tiles - 1; t > 0; --t) {
      int const u = (int)(gcol_test_rng_next(&rng) % (uint64_t)(t + 1));
      int const swap = order[t];
      order[t] = order[u];
      order[u] = swap;
    }
    for (int k = 0; k < num_tiles; ++k) {
      int const t = order[k];
      write_tile_words(valid, bases[t], counts[t], got, mask_words, owner, &got_valid);
    }
    for (int64_t w = 0; w < mask_words; ++w) {
      if (got[w] != want[w]) {
        fail_msg("round %d: word %lld is %08x, expected %08x (%d tiles, %lld rows)", round,
                 (long long)w, got[w], want[w], num_tiles, (long long)total);
      }
    }
    assert_int_equal(got_valid, want_valid);
    free(valid);
    free(want);
    free(got);
    free(owner);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_apply_boolean_mask_checks),
      cmocka_unit_test(test_drop_checks),
      cmocka_unit_test(test_distinct_checks),
      cmocka_unit_test(test_filling_checks),
      cmocka_unit_test(test_null_ops_checks),
      cmocka_unit_test(test_reference_hand_examples),
      cmocka_unit_test(test_tile_mask_words),
  };
  return GCOL_TEST_RUN("filtering_host", tests);
}
