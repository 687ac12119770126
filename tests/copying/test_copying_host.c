/*
 * Copying tests that run on the CPU: the host+device inline helpers of the engines (map
 * resolution, scatter targets, concatenated mask words) against plain-C references, the
 * reference code itself on known answers, and every argument check that fails before any
 * device work (the views point at host memory that must never be read).
 */
#include "copying_reference.h"
#include "copying/copying_internal.h"

/* ------------------------------------------------------------------ map resolution */

/* Writes `values` into an array of index type `id` (little-endian truncation). */
static void *pack_indices(gcol_type_id id, const int64_t *values, int64_t n) {
  size_t const w = gcol_type_size(id);
  unsigned char *raw = (unsigned char *)calloc((size_t)n + 1, w);
  for (int64_t i = 0; i < n; ++i) memcpy(raw + i * w, &values[i], w);
  return raw;
}

static void test_resolve_every_index_type(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(101);
  int64_t const rows = 100;
  for (size_t t = 0; t < hcol_num_index_types; ++t) {
    gcol_type_id const id = hcol_index_types[t];
    bool const is_signed = gcol_type_is_signed_integral(id);
    int64_t values[64];
    for (int i = 0; i < 64; ++i) {
      values[i] = is_signed ? gcol_test_rng_range(&rng, -rows - 20, rows + 20)
                            : gcol_test_rng_range(&rng, 0, rows + 20);
    }
    void *raw = pack_indices(id, values, 64);
    gcol_column_view view = gcol_column_view_make(gcol_data_type_make(id), 64, raw, NULL, 0);
    for (int wrap = 0; wrap < 2; ++wrap) {
      for (int nullify = 0; nullify < 2; ++nullify) {
        gcol_detail_gather_map map;
        memset(&map, 0, sizeof map);
        GCOL_TEST_OK(gcol_indexalator_make(view, &map.indices));
        map.size = 64;
        map.source_rows = rows;
        map.wrap_negative = wrap;
        map.nullify = nullify;
        for (int i = 0; i < 64; ++i) {
          int64_t expect = values[i];
          if (wrap && expect < 0) expect += rows;
          bool const in_range = expect >= 0 && expect < rows;
          if (nullify && !in_range) expect = -1;
          int64_t const got = gcol_detail_gather_map_resolve(map, i);
          if (got != expect) {
            fail_msg("%s index %lld wrap %d nullify %d: resolved %lld, expected %lld",
                     gcol_type_name(id), (long long)values[i], wrap, nullify, (long long)got,
                     (long long)expect);
          }
          assert_int_equal(gcol_detail_gather_map_entry_in_range(map, i), in_range);
        }
      }
    }
    free(raw);
  }
}

static void test_resolve_null_entries_and_uint64_wrap(void **state) {
  (void)state;
  uint64_t raw[4] = {UINT64_MAX, 3, 0, UINT64_MAX - 9}; /* -1, 3, 0, -10 when wrapped */
  uint32_t mask[1] = {0xFFFFFFFDu};                     /* entry 1 null */
  gcol_column_view view = gcol_column_view_make(gcol_data_type_make(GCOL_UINT64), 4, raw, mask, 1);
  gcol_detail_gather_map map;
  memset(&map, 0, sizeof map);
  GCOL_TEST_OK(gcol_indexalator_make(view, &map.indices));
  map.null_mask = mask;
  map.size = 4;
  map.source_rows = 5;
  map.wrap_negative = true;
  map.nullify = true;
  assert_int_equal(gcol_detail_gather_map_resolve(map, 0), 4);  /* -1 wraps to the last */
  assert_int_equal(gcol_detail_gather_map_resolve(map, 1), -1); /* null entry */
  assert_int_equal(gcol_detail_gather_map_resolve(map, 2), 0);
  assert_int_equal(gcol_detail_gather_map_resolve(map, 3), -1); /* -10 + 5 still < 0 */
  assert_true(gcol_detail_gather_map_entry_in_range(map, 1));   /* nulls are never bad */
  assert_false(gcol_detail_gather_map_entry_in_range(map, 3));
  map.mask_offset = 1; /* now entry 0 reads bit 1: null */
  assert_int_equal(gcol_detail_gather_map_resolve(map, 0), -1);
}

static void test_scatter_target_row(void **state) {
  (void)state;
  assert_int_equal(gcol_detail_scatter_target_row(0, 10), 0);
  assert_int_equal(gcol_detail_scatter_target_row(9, 10), 9);
  assert_int_equal(gcol_detail_scatter_target_row(10, 10), -1);
  assert_int_equal(gcol_detail_scatter_target_row(-1, 10), 9);
  assert_int_equal(gcol_detail_scatter_target_row(-10, 10), 0);
  assert_int_equal(gcol_detail_scatter_target_row(-11, 10), -1);
  assert_int_equal(gcol_detail_scatter_target_row(INT64_MIN, 10), -1);
  assert_int_equal(gcol_detail_scatter_target_row(0, 0), -1);
}

/* ------------------------------------------------------------------ concatenated masks */

/* Random segments (some without a mask) at random source offsets; every output word from
 * the helper must equal the bit-by-bit copy, and bits past the end must be zero. */
static void test_mask_segments_words(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(102);
  for (int trial = 0; trial < 300; ++trial) {
    int const num = (int)gcol_test_rng_range(&rng, 1, 9);
    gcol_detail_mask_segment segs[9];
    uint32_t *masks[9];
    int64_t total = 0;
    for (int s = 0; s < num; ++s) {
      int64_t const length = gcol_test_rng_range(&rng, 1, trial % 3 == 0 ? 3 : 140);
      int64_t const src_begin =
          gcol_test_offsets[gcol_test_rng_range(&rng, 0, (int64_t)gcol_test_num_offsets - 1)];
      int64_t const words = gcol_bit_num_words(src_begin + length);
      masks[s] = (uint32_t *)calloc((size_t)words, 4);
      gcol_test_rng_fill(&rng, masks[s], (size_t)words * 4);
      segs[s].dst_begin = total;
      segs[s].length = length;
      segs[s].mask = gcol_test_rng_range(&rng, 0, 3) == 0 ? NULL : masks[s];
      segs[s].src_begin = src_begin;
      total += length;
    }
    for (int64_t w = 0; w < gcol_bit_num_words(total); ++w) {
      int64_t const first = gcol_detail_mask_segments_find(segs, num, w * 32);
      uint32_t const got = gcol_detail_mask_segments_word(segs, num, first, w, total);
      uint32_t expect = 0;
      for (int64_t b = w * 32; b < w * 32 + 32 && b < total; ++b) {
        int s = 0;
        while (segs[s].dst_begin + segs[s].length <= b) ++s;
        bool const bit = segs[s].mask == NULL ||
                         gcol_bit_is_set(segs[s].mask, segs[s].src_begin + (b - segs[s].dst_begin));
        if (bit) expect |= 1u << (b - w * 32);
      }
      if (got != expect) {
        fail_msg("trial %d word %lld: 0x%08x, expected 0x%08x", trial, (long long)w, got, expect);
      }
    }
    for (int s = 0; s < num; ++s) free(masks[s]);
  }
}

/* ------------------------------------------------------------------ chars copy */

/* One copy of `len` bytes from src to dst, by one thread or by 32 lanes. */
static void copy_by(char *dst, const char *src, int64_t len, bool warp) {
  if (!warp) {
    gcol_detail_copy_bytes(dst, src, len, 0, 1);
    return;
  }
  for (int lane = 0; lane < 32; ++lane) gcol_detail_copy_bytes(dst, src, len, lane, 32);
}

/* The word-wise copy of the strings gather, for every source and destination alignment and
 * lengths around the word and warp sizes: the bytes arrive, nothing outside the destination
 * range changes. The source sits at the very end of an exact-size allocation, so a read past
 * it is caught by the address sanitizer where the tests run under it. */
static void test_copy_bytes_every_alignment(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(103);
  for (int warp = 0; warp < 2; ++warp) {
    for (int64_t len = 0; len <= 300; len += len < 80 ? 1 : 37) {
      for (int sm = 0; sm < 4; ++sm) {
        for (int dm = 0; dm < 4; ++dm) {
          char *sbuf = (char *)malloc((size_t)(sm + len) + (sm + len == 0));
          char *dbuf = (char *)malloc((size_t)(dm + len + 8));
          assert_non_null(sbuf);
          assert_non_null(dbuf);
          gcol_test_rng_fill(&rng, sbuf, (size_t)(sm + len));
          memset(dbuf, 0xAB, (size_t)(dm + len + 8));
          copy_by(dbuf + dm, sbuf + sm, len, warp != 0);
          for (int64_t k = 0; k < dm + len + 8; ++k) {
            bool const inside = k >= dm && k < dm + len;
            unsigned char const want = inside ? (unsigned char)sbuf[sm + k - dm] : 0xABu;
            if ((unsigned char)dbuf[k] != want) {
              fail_msg("%s, len %lld, src +%d, dst +%d: byte %lld is 0x%02x, expected 0x%02x",
                       warp ? "warp" : "thread", (long long)len, sm, dm, (long long)(k - dm),
                       (unsigned char)dbuf[k], want);
            }
          }
          free(sbuf);
          free(dbuf);
        }
      }
    }
  }
}

/* ------------------------------------------------------------------ the reference itself */

static void test_reference_gather_and_concat(void **state) {
  (void)state;
  const char *strings[4] = {"ab", NULL, "", "\xF4\x8F\xBF\xBF"};
  hcol *s = hcol_strings(4, strings, NULL);
  int64_t rows[5] = {3, -1, 0, 1, 3};
  hcol *g = hcol_gather(s, rows, 5);
  assert_int_equal(g->size, 5);
  assert_int_equal(g->offsets[5], 4 + 0 + 2 + 0 + 4);
  assert_false(hcol_is_valid(g, 1));
  assert_false(hcol_is_valid(g, 3));
  assert_memory_equal(g->chars + g->offsets[2], "ab", 2);
  hcol *parts[2] = {s, g};
  hcol *c = hcol_concat(parts, 2);
  assert_int_equal(c->size, 9);
  assert_int_equal(c->offsets[9], 6 + 10);
  hcol *tail = hcol_slice(c, 4, 9);
  hcol_assert_equal(g, tail, "slice of the concatenation");
  hcol_free(tail);
  hcol_free(c);
  hcol_free(g);
  hcol_free(s);
}

/* ------------------------------------------------------------------ argument checks */

static int64_t host_words[64]; /* stands in for device memory: never read */

static gcol_column_view fake_view(gcol_type_id id, int64_t size) {
  return gcol_column_view_make(gcol_data_type_make(id), size, host_words, NULL, 0);
}

static void test_gather_rejects_bad_arguments(void **state) {
  (void)state;
  gcol_column_view cols[2] = {fake_view(GCOL_INT64, 8), fake_view(GCOL_INT32, 8)};
  gcol_table_view source = {2, 8, cols};
  gcol_table *out = (gcol_table *)host_words;
  GCOL_TEST_STATUS(gcol_gather(source, fake_view(GCOL_FLOAT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                               GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "gather_map"));
  GCOL_TEST_STATUS(gcol_gather(source, fake_view(GCOL_BOOL8, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                               GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_gather(source, fake_view(GCOL_INT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                               GCOL_NEGATIVE_INDEX_WRAP, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_gather(source, fake_view(GCOL_INT32, 4), (gcol_out_of_bounds_policy)7,
                               GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "policy"));
  GCOL_TEST_STATUS(gcol_gather(source, fake_view(GCOL_INT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                               (gcol_negative_index_policy)3, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  cols[1].size = 7; /* a column shorter than the table */
  GCOL_TEST_STATUS(gcol_gather(source, fake_view(GCOL_INT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                               GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  cols[1] = fake_view(GCOL_DICTIONARY32, 8); /* no children: malformed, or unsupported */
  gcol_status const st = gcol_gather(source, fake_view(GCOL_INT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                                     GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL);
  if (st != GCOL_ERROR_UNSUPPORTED && st != GCOL_ERROR_INVALID_ARGUMENT) {
    fail_msg("gather of a DICTIONARY32 column: %s", gcol_status_string(st));
  }
  assert_null(out);
  gcol_table_view broken = {2, 8, NULL};
  GCOL_TEST_STATUS(gcol_gather(broken, fake_view(GCOL_INT32, 4), GCOL_OUT_OF_BOUNDS_NULLIFY,
                               GCOL_NEGATIVE_INDEX_WRAP, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_reverse(broken, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_reverse(source, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
}

static void test_scatter_rejects_bad_arguments(void **state) {
  (void)state;
  gcol_column_view src_cols[2] = {fake_view(GCOL_INT64, 4), fake_view(GCOL_INT32, 4)};
  gcol_column_view dst_cols[2] = {fake_view(GCOL_INT64, 8), fake_view(GCOL_INT16, 8)};
  gcol_table_view source = {2, 4, src_cols};
  gcol_table_view target = {2, 8, dst_cols};
  gcol_table *out = (gcol_table *)host_words;
  GCOL_TEST_STATUS(gcol_scatter(source, fake_view(GCOL_INT32, 4), target,
                                GCOL_OUT_OF_BOUNDS_DONT_CHECK, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "column 1"));
  dst_cols[1] = fake_view(GCOL_INT32, 8);
  GCOL_TEST_STATUS(gcol_scatter(source, fake_view(GCOL_INT32, 3), target,
                                GCOL_OUT_OF_BOUNDS_DONT_CHECK, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_scatter(source, fake_view(GCOL_FLOAT64, 4), target,
                                GCOL_OUT_OF_BOUNDS_DONT_CHECK, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  target.num_columns = 1;
  GCOL_TEST_STATUS(gcol_scatter(source, fake_view(GCOL_INT32, 4), target,
                                GCOL_OUT_OF_BOUNDS_DONT_CHECK, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  target.num_columns = 2;
  GCOL_TEST_STATUS(gcol_scatter(source, fake_view(GCOL_INT32, 4), target,
                                (gcol_out_of_bounds_policy)-1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), 5, &s));
  const gcol_scalar *scalars[2] = {s, s}; /* the second is INT64 for an INT32 column */
  GCOL_TEST_STATUS(gcol_scatter_scalars(scalars, 2, fake_view(GCOL_INT32, 2), target,
                                        GCOL_OUT_OF_BOUNDS_DONT_CHECK, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(gcol_scatter_scalars(scalars, 1, fake_view(GCOL_INT32, 2), target,
                                        GCOL_OUT_OF_BOUNDS_DONT_CHECK, &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_scatter_scalars(NULL, 2, fake_view(GCOL_INT32, 2), target,
                                        GCOL_OUT_OF_BOUNDS_DONT_CHECK, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_scalar_free(s);
}

static void test_concatenate_rejects_bad_arguments(void **state) {
  (void)state;
  gcol_column_view cols[3] = {fake_view(GCOL_INT64, 4), fake_view(GCOL_INT64, 2),
                              fake_view(GCOL_UINT64, 3)};
  gcol_column *out = (gcol_column *)host_words;
  GCOL_TEST_STATUS(gcol_concatenate(cols, 3, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "columns[2]"));
  GCOL_TEST_STATUS(gcol_concatenate(NULL, 3, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_concatenate(cols, 0, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_concatenate(cols, 2, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  cols[2] =
      gcol_column_view_make(gcol_data_type_decimal(GCOL_DECIMAL64, -2), 3, host_words, NULL, 0);
  cols[1] =
      gcol_column_view_make(gcol_data_type_decimal(GCOL_DECIMAL64, -3), 3, host_words, NULL, 0);
  GCOL_TEST_STATUS(gcol_concatenate(cols + 1, 2, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  gcol_table *tout = (gcol_table *)host_words;
  gcol_column_view a[2] = {fake_view(GCOL_INT8, 2), fake_view(GCOL_INT8, 2)};
  gcol_table_view tables[2] = {{2, 2, a}, {1, 2, a}};
  GCOL_TEST_STATUS(gcol_concatenate_tables(tables, 2, &tout, NULL, NULL), GCOL_ERROR_SIZE_MISMATCH);
  assert_null(tout);
  GCOL_TEST_STATUS(gcol_concatenate_tables(NULL, 2, &tout, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_table *pieces[3] = {(gcol_table *)host_words, (gcol_table *)host_words,
                           (gcol_table *)host_words};
  int64_t bounds[4] = {0, 1, 2, 1};
  GCOL_TEST_STATUS(gcol_slice_copy(tables[0], bounds, 2, pieces, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(pieces[0]);
  assert_null(pieces[1]);
  int64_t splits[2] = {2, 1};
  GCOL_TEST_STATUS(gcol_split_copy(tables[0], splits, 2, pieces, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(pieces[2]);
  int64_t too_far[1] = {3};
  GCOL_TEST_STATUS(gcol_split_copy(tables[0], too_far, 1, pieces, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

static void test_copy_if_else_rejects_bad_arguments(void **state) {
  (void)state;
  gcol_column *out = (gcol_column *)host_words;
  gcol_column_view const lhs = fake_view(GCOL_INT32, 8), rhs = fake_view(GCOL_INT32, 8);
  GCOL_TEST_STATUS(gcol_copy_if_else(lhs, rhs, fake_view(GCOL_INT8, 8), &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "BOOL8"));
  GCOL_TEST_STATUS(gcol_copy_if_else(lhs, rhs, fake_view(GCOL_BOOL8, 7), &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_copy_if_else(lhs, fake_view(GCOL_FLOAT32, 8), fake_view(GCOL_BOOL8, 8),
                                     &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(
      gcol_copy_if_else_column_scalar(lhs, NULL, fake_view(GCOL_BOOL8, 8), &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_string("x", 1, &s));
  GCOL_TEST_STATUS(
      gcol_copy_if_else_scalar_column(s, rhs, fake_view(GCOL_BOOL8, 8), &out, NULL, NULL),
      GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_shift(lhs, 1, s, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  gcol_scalar_free(s);
  GCOL_TEST_STATUS(gcol_shift(lhs, 1, NULL, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_copy_range(lhs, 2, 1, rhs, 0, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_copy_range(lhs, 0, 9, rhs, 0, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_copy_range(lhs, 0, 4, rhs, 5, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "target_begin"));
  GCOL_TEST_STATUS(gcol_copy_range(fake_view(GCOL_INT64, 8), 0, 4, rhs, 0, &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
}

static void test_get_element_rejects_bad_arguments(void **state) {
  (void)state;
  gcol_scalar *out = (gcol_scalar *)host_words;
  GCOL_TEST_STATUS(gcol_get_element(fake_view(GCOL_INT32, 8), 8, &out, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  GCOL_TEST_STATUS(gcol_get_element(fake_view(GCOL_INT32, 8), -1, &out, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_get_element(fake_view(GCOL_INT32, 8), 0, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resolve_every_index_type),
      cmocka_unit_test(test_resolve_null_entries_and_uint64_wrap),
      cmocka_unit_test(test_scatter_target_row),
      cmocka_unit_test(test_mask_segments_words),
      cmocka_unit_test(test_copy_bytes_every_alignment),
      cmocka_unit_test(test_reference_gather_and_concat),
      cmocka_unit_test(test_gather_rejects_bad_arguments),
      cmocka_unit_test(test_scatter_rejects_bad_arguments),
      cmocka_unit_test(test_concatenate_rejects_bad_arguments),
      cmocka_unit_test(test_copy_if_else_rejects_bad_arguments),
      cmocka_unit_test(test_get_element_rejects_bad_arguments),
  };
  return GCOL_TEST_RUN("copying_host", tests);
}
