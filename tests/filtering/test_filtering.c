/*
 * GPU tests of include/gcol/filtering.h against the host reference (filtering_reference.c):
 * apply_boolean_mask (every fixed-width type, strings, lists, structs; the tiled select of
 * fixed-width tables, nulls included, at word and tile edges, and the row-map path of the
 * others), drop_nulls, drop_nans, distinct (every keep mode, both null equalities,
 * multi-column keys, floats), unique, distinct_count; bad input; allocation failures.
 *
 * Every input table carries a row-id column (INT64, row i = i of the slice's parent), so the
 * output tells which rows were kept; the other columns are then checked row by row.
 */
#include <cuda_runtime_api.h>
#include <math.h>

#include "detail/cardinality.h"
#include "filtering_reference.h"

static const int64_t few_sizes[] = {0, 1, 33, 257, 4097};
static const int64_t few_offsets[] = {0, 3, 65};
#define NUM_FEW(a) (sizeof(a) / sizeof((a)[0]))

/* Row ids of the output (minus the slice offset) must equal the expected indices. */
static void assert_row_ids(gcol_column_view ids, int64_t offset, const int64_t *idx,
                           int64_t count) {
  if (ids.size != count) {
    fail_msg("kept %lld rows, expected %lld", (long long)ids.size, (long long)count);
  }
  int64_t *got = ref_read_i64(ids);
  for (int64_t j = 0; j < count; ++j) {
    if (got[j] - offset != idx[j]) {
      fail_msg("output row %lld is input row %lld, expected %lld", (long long)j,
               (long long)(got[j] - offset), (long long)idx[j]);
    }
  }
  free(got);
}

/* Rows [off, off + n) of data (+ row ids unless alone) masked by the same rows of flags. */
static void run_mask_case(const ref_column *data, const ref_column *flags, int64_t n, int64_t off,
                          bool alone) {
  int64_t const total = n + off;
  ref_column ids = ref_column_row_ids(total);
  gcol_column *d_data = NULL, *d_flags = NULL, *d_ids = NULL;
  ref_column_to_device(data, &d_data);
  ref_column_to_device(flags, &d_flags);
  ref_column_to_device(&ids, &d_ids);
  gcol_column_view cols[2] = {ref_slice(gcol_column_get_view(d_data), off, off + n),
                              ref_slice(gcol_column_get_view(d_ids), off, off + n)};
  gcol_table_view input;
  GCOL_TEST_OK(gcol_table_view_make(cols, alone ? 1 : 2, &input));
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_apply_boolean_mask(
      input, ref_slice(gcol_column_get_view(d_flags), off, off + n), &out, NULL, NULL));
  int64_t *idx = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  int64_t const count = ref_mask_indices(flags, off, n, idx);
  gcol_table_view const result = gcol_table_get_view(out);
  assert_int_equal(result.num_columns, alone ? 1 : 2);
  if (!alone) assert_row_ids(result.columns[1], off, idx, count);
  ref_assert_rows(result.columns[0], data, off, idx, count);
  free(idx);
  gcol_table_free(out);
  gcol_column_free(d_data);
  gcol_column_free(d_flags);
  gcol_column_free(d_ids);
  ref_column_free(&ids);
}

/* One apply_boolean_mask case: data (+ row ids unless alone) masked by random flags. */
static void check_mask_case(gcol_test_rng *rng, gcol_data_type type, int64_t n, int64_t off,
                            gcol_test_validity data_validity, gcol_test_validity mask_validity,
                            bool alone) {
  int64_t const total = n + off;
  ref_column data = ref_column_random(rng, type, total, data_validity, 0);
  ref_column flags =
      ref_column_random(rng, gcol_data_type_make(GCOL_BOOL8), total, mask_validity, 0);
  run_mask_case(&data, &flags, n, off, alone);
  ref_column_free(&data);
  ref_column_free(&flags);
}

/* Flag byte of row i for a density pattern: none, all (any non-zero byte is true), sparse,
 * dense, runs of 40, random bytes (about 1 in 256 zero). */
static uint8_t flag_byte(gcol_test_rng *rng, int pattern, int64_t i) {
  uint64_t const r = gcol_test_rng_next(rng);
  switch (pattern) {
    case 0:
      return 0;
    case 1:
      return (uint8_t)(1 + r % 255);
    case 2:
      return r % 64 == 0 ? 1 : 0;
    case 3:
      return r % 64 != 0 ? 1 : 0;
    case 4:
      return (i / 40) % 2 == 0 ? 1 : 0;
    default:
      return (uint8_t)r;
  }
}

/* The tiled select without masks (one column, no nulls) of every storage width at tile edges
 * (2048-row tiles, counted two per block: odd and even tile counts) and at every flag
 * density. */
static void test_apply_boolean_mask_fast_path_densities(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(405);
  static const gcol_type_id types[] = {GCOL_INT8, GCOL_INT16, GCOL_INT32, GCOL_INT64};
  static const int64_t sizes[] = {2047, 2048, 2049, 4096, 6145, 10000};
  static const int64_t offsets[] = {0, 1, 7, 33};
  for (size_t t = 0; t < NUM_FEW(types); ++t) {
    for (size_t s = 0; s < NUM_FEW(sizes); ++s) {
      for (int pattern = 0; pattern < 6; ++pattern) {
        int64_t const off = offsets[(s + (size_t)pattern) % NUM_FEW(offsets)];
        int64_t const total = sizes[s] + off;
        ref_column data =
            ref_column_random(&rng, gcol_data_type_make(types[t]), total, GCOL_TEST_NO_MASK, 0);
        ref_column flags =
            ref_column_random(&rng, gcol_data_type_make(GCOL_BOOL8), total, GCOL_TEST_NO_MASK, 0);
        for (int64_t i = 0; i < total; ++i) flags.values[i] = flag_byte(&rng, pattern, i);
        run_mask_case(&data, &flags, sizes[s], off, true);
        ref_column_free(&data);
        ref_column_free(&flags);
      }
    }
  }
}

static void test_apply_boolean_mask_every_fixed_type(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(401);
  for (int id = GCOL_INT8; id <= GCOL_DECIMAL128; ++id) {
    if (!gcol_test_in_part(state, (size_t)id)) continue;
    gcol_data_type const type = gcol_type_is_decimal((gcol_type_id)id)
                                    ? gcol_data_type_decimal((gcol_type_id)id, -2)
                                    : gcol_data_type_make((gcol_type_id)id);
    for (size_t s = 0; s < NUM_FEW(few_sizes); ++s) {
      for (size_t o = 0; o < NUM_FEW(few_offsets); ++o) {
        for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
          size_t const c = s + o + (size_t)v;
          if (!gcol_test_keep_combination(c)) continue;
          /* under the tools one of the two calls, alternating with c / 2: each type still
           * takes both at every size (4097: three tiles), offset and validity */
          bool const both = gcol_test_if_sparse(1, 0) != 0;
          if (both || (c / 2) % 2 == 0) {
            check_mask_case(&rng, type, few_sizes[s], few_offsets[o], (gcol_test_validity)v,
                            v % 2 == 0 ? GCOL_TEST_NO_MASK : GCOL_TEST_RANDOM_NULLS, false);
          }
          if (both || (c / 2) % 2 == 1) {
            check_mask_case(&rng, type, few_sizes[s], few_offsets[o], (gcol_test_validity)v,
                            GCOL_TEST_ALL_VALID, true);
          }
        }
      }
    }
  }
}

static void test_apply_boolean_mask_int64_sizes_offsets(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(402);
  gcol_data_type const i64 = gcol_data_type_make(GCOL_INT64);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
      check_mask_case(&rng, i64, gcol_test_sizes[s], gcol_test_offsets[o], GCOL_TEST_NO_MASK,
                      GCOL_TEST_NO_MASK, true); /* no masks */
      check_mask_case(&rng, i64, gcol_test_sizes[s], gcol_test_offsets[o], GCOL_TEST_RANDOM_NULLS,
                      GCOL_TEST_RANDOM_NULLS, false);
    }
  }
  check_mask_case(&rng, i64, gcol_test_cap(1000003), 7, GCOL_TEST_NO_MASK, GCOL_TEST_NO_MASK, true);
  check_mask_case(&rng, i64, gcol_test_cap(1000003), 33, GCOL_TEST_RANDOM_NULLS, GCOL_TEST_ALL_VALID, false);
}

/* ---- the tiled select with nulls (kernels/filtering/tile_select.cu) ---- */

/* No bit past the last row of a result's mask may be set: the tiles' words are ORed into a
 * zeroed mask, and the last word is shared with no later tile. */
static void assert_mask_tail_clear(gcol_column_view v) {
  if (v.null_mask == NULL || v.size % 32 == 0) return;
  uint32_t last = 0;
  assert_int_equal(cudaMemcpy(&last, v.null_mask + (v.offset + v.size - 1) / 32, sizeof last,
                              cudaMemcpyDeviceToHost),
                   cudaSuccess);
  uint32_t const tail = ~0u << ((v.offset + v.size) % 32);
  if ((last & tail) != 0) fail_msg("mask bits past row %lld are set", (long long)v.size);
}

/* Flag of row i for a tile pattern: 0..5 as flag_byte(); 6: whole 2048-row tiles alternately
 * all kept and none kept (counted from the slice's parent, so tiles with no kept row sit
 * between full ones at every offset); 7: one row kept per tile, at a different lane. */
static uint8_t tile_flag_byte(gcol_test_rng *rng, int pattern, int64_t i) {
  if (pattern == 6) return (uint8_t)((i / 2048) % 2 == 0 ? 1 : 0);
  if (pattern == 7) return (uint8_t)(i % 2048 == (i / 2048) % 97 ? 1 : 0);
  return flag_byte(rng, pattern, i);
}

typedef struct tiled_case {
  gcol_data_type type;
  int64_t n, off;
  gcol_test_validity data_validity; /* of the data column */
  gcol_test_validity flag_validity; /* of the boolean mask */
  int pattern;                      /* tile_flag_byte() */
  bool unknown_counts; /* views' null counts unknown: masks are carried even without nulls */
  bool alone;          /* the data column alone, else with a row-id and a nullable INT16 */
} tiled_case;

/* Rows [off, off + n) of the data (and its companions) masked by the same rows of flags;
 * every column compared with the reference, masks present exactly when the input may have
 * nulls, null counts exact, no bit set past the last row. */
static void run_tiled_case(gcol_test_rng *rng, const tiled_case *tc) {
  int64_t const total = tc->n + tc->off;
  ref_column data = ref_column_random(rng, tc->type, total, tc->data_validity, 0);
  ref_column other =
      ref_column_random(rng, gcol_data_type_make(GCOL_INT16), total, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column flags =
      ref_column_random(rng, gcol_data_type_make(GCOL_BOOL8), total, tc->flag_validity, 0);
  for (int64_t i = 0; i < total; ++i) flags.values[i] = tile_flag_byte(rng, tc->pattern, i);
  ref_column ids = ref_column_row_ids(total);
  gcol_column *d_data = NULL, *d_other = NULL, *d_flags = NULL, *d_ids = NULL;
  ref_column_to_device(&data, &d_data);
  ref_column_to_device(&other, &d_other);
  ref_column_to_device(&flags, &d_flags);
  ref_column_to_device(&ids, &d_ids);
  int64_t const lo = tc->off, hi = tc->off + tc->n;
  gcol_column_view cols[3] = {ref_slice(gcol_column_get_view(d_data), lo, hi),
                              ref_slice(gcol_column_get_view(d_ids), lo, hi),
                              ref_slice(gcol_column_get_view(d_other), lo, hi)};
  gcol_column_view mask = ref_slice(gcol_column_get_view(d_flags), lo, hi);
  if (tc->unknown_counts) {
    for (int c = 0; c < 3; ++c) {
      if (cols[c].null_mask != NULL) cols[c].null_count = GCOL_UNKNOWN_NULL_COUNT;
    }
    if (mask.null_mask != NULL) mask.null_count = GCOL_UNKNOWN_NULL_COUNT;
  }
  bool const data_masked = gcol_column_view_may_have_nulls(cols[0]);
  gcol_table_view input;
  GCOL_TEST_OK(gcol_table_view_make(cols, tc->alone ? 1 : 3, &input));
  gcol_table *out = NULL;
  GCOL_TEST_OK(gcol_apply_boolean_mask(input, mask, &out, NULL, NULL));
  int64_t *idx = (int64_t *)malloc((size_t)(tc->n > 0 ? tc->n : 1) * sizeof(int64_t));
  int64_t const count = ref_mask_indices(&flags, tc->off, tc->n, idx);
  gcol_table_view const result = gcol_table_get_view(out);
  assert_int_equal(result.num_columns, tc->alone ? 1 : 3);
  if (count > 0) assert_int_equal(result.columns[0].null_mask != NULL, data_masked);
  ref_assert_rows(result.columns[0], &data, tc->off, idx, count);
  assert_mask_tail_clear(result.columns[0]);
  if (!tc->alone) {
    assert_row_ids(result.columns[1], tc->off, idx, count);
    assert_null(result.columns[1].null_mask);
    ref_assert_rows(result.columns[2], &other, tc->off, idx, count);
    assert_mask_tail_clear(result.columns[2]);
  }
  free(idx);
  gcol_table_free(out);
  gcol_column_free(d_data);
  gcol_column_free(d_other);
  gcol_column_free(d_flags);
  gcol_column_free(d_ids);
  ref_column_free(&data);
  ref_column_free(&other);
  ref_column_free(&flags);
  ref_column_free(&ids);
}

/* Every storage width (1, 2, 4, 8, 16 bytes) with nulls, at sizes around words and tiles,
 * offsets that are not byte- or word-aligned, every validity pattern of the data (a mask
 * without nulls read as unknown included), flags with and without nulls, and tile patterns
 * with tiles that keep nothing, everything or one row. Split in parts by width. */
static void test_apply_boolean_mask_tiled_nulls(void **state) {
  static const gcol_type_id types[] = {GCOL_INT8, GCOL_INT16, GCOL_INT32, GCOL_INT64,
                                       GCOL_DECIMAL128};
  static const int64_t sizes[] = {1,    2,    31,   32,   33,   63,   64,    65,   2047,
                                  2048, 2049, 4095, 4096, 4097, 6145, 10000, 20481};
  static const int64_t offsets[] = {0, 1, 3, 5, 7, 31, 33, 63, 65};
  for (size_t t = 0; t < NUM_FEW(types); ++t) {
    if (!gcol_test_in_part(state, t)) continue;
    gcol_test_rng rng = gcol_test_rng_make(420 + t);
    gcol_data_type const type = types[t] == GCOL_DECIMAL128
                                    ? gcol_data_type_decimal(GCOL_DECIMAL128, -3)
                                    : gcol_data_type_make(types[t]);
    size_t k = 0;
    for (size_t s = 0; s < NUM_FEW(sizes); ++s) {
      for (int pattern = 0; pattern < 8; ++pattern, ++k) {
        tiled_case tc;
        tc.type = type;
        tc.n = sizes[s];
        tc.off = offsets[k % NUM_FEW(offsets)];
        tc.data_validity = (gcol_test_validity)(1 + k % (GCOL_TEST_NUM_VALIDITY - 1));
        tc.flag_validity = k % 3 == 0 ? GCOL_TEST_RANDOM_NULLS : GCOL_TEST_NO_MASK;
        tc.pattern = pattern;
        tc.unknown_counts = k % 2 == 0;
        tc.alone = k % 4 < 2;
        run_tiled_case(&rng, &tc);
      }
    }
  }
}

/* Corners one by one: all null, a mask without nulls (known and unknown counts), flags all
 * null, no row kept, every row kept, a slice of a slice, on INT64 around a tile. */
static void test_apply_boolean_mask_tiled_corners(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(430);
  static const int64_t sizes[] = {1, 32, 33, 2048, 2049, 4096 + 33};
  static const int64_t offsets[] = {0, 1, 31, 33, 65};
  tiled_case tc;
  tc.type = gcol_data_type_make(GCOL_INT64);
  for (size_t s = 0; s < NUM_FEW(sizes); ++s) {
    for (size_t o = 0; o < NUM_FEW(offsets); ++o) {
      tc.n = sizes[s];
      tc.off = offsets[o];
      tc.alone = o % 2 == 0;
      tc.flag_validity = GCOL_TEST_NO_MASK;
      tc.pattern = 1; /* every row kept */
      tc.unknown_counts = true;
      tc.data_validity = GCOL_TEST_ALL_NULL;
      run_tiled_case(&rng, &tc);
      tc.data_validity = GCOL_TEST_ALL_VALID; /* the mask is read, no row is null */
      run_tiled_case(&rng, &tc);
      tc.unknown_counts = false; /* known 0 nulls: no output mask */
      run_tiled_case(&rng, &tc);
      tc.pattern = 0; /* no row kept */
      tc.unknown_counts = true;
      tc.data_validity = GCOL_TEST_RANDOM_NULLS;
      run_tiled_case(&rng, &tc);
      tc.pattern = 1; /* every flag null: nothing kept */
      tc.flag_validity = GCOL_TEST_ALL_NULL;
      run_tiled_case(&rng, &tc);
      tc.flag_validity = GCOL_TEST_FIRST_NULL;
      tc.data_validity = GCOL_TEST_LAST_NULL;
      run_tiled_case(&rng, &tc);
    }
  }
}

static void test_apply_boolean_mask_strings(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(403);
  gcol_data_type const str = gcol_data_type_make(GCOL_STRING);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    for (size_t o = 0; o < NUM_FEW(few_offsets); ++o) {
      for (int v = 0; v < GCOL_TEST_NUM_VALIDITY; ++v) {
        if (gcol_test_sizes[s] > 5000 && v > 2) continue;
        check_mask_case(&rng, str, gcol_test_sizes[s], few_offsets[o], (gcol_test_validity)v,
                        GCOL_TEST_RANDOM_NULLS, false);
      }
    }
  }
}

/* The INT64 offsets path on small data: threshold lowered, result offsets must be INT64. */
static void test_apply_boolean_mask_strings_int64_offsets(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(404);
  int64_t const previous = gcol_set_large_offsets_threshold(1);
  int64_t const n = 300, off = 5;
  ref_column data =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), n + off, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column flags =
      ref_column_random(&rng, gcol_data_type_make(GCOL_BOOL8), n + off, GCOL_TEST_NO_MASK, 0);
  gcol_column *d_data = NULL, *d_flags = NULL;
  ref_column_to_device(&data, &d_data);
  ref_column_to_device(&flags, &d_flags);
  gcol_column_view col = ref_slice(gcol_column_get_view(d_data), off, off + n);
  gcol_table_view input;
  GCOL_TEST_OK(gcol_table_view_make(&col, 1, &input));
  gcol_table *out = NULL;
  gcol_status const st = gcol_apply_boolean_mask(
      input, ref_slice(gcol_column_get_view(d_flags), off, off + n), &out, NULL, NULL);
  gcol_set_large_offsets_threshold(previous);
  GCOL_TEST_OK(st);
  int64_t idx[300];
  int64_t const count = ref_mask_indices(&flags, off, n, idx);
  gcol_column_view const r = gcol_table_get_view(out).columns[0];
  if (count > 0) assert_int_equal(r.children[GCOL_OFFSETS_CHILD].type.id, GCOL_INT64);
  ref_assert_rows(r, &data, off, idx, count);
  gcol_table_free(out);
  gcol_column_free(d_data);
  gcol_column_free(d_flags);
  ref_column_free(&data);
  ref_column_free(&flags);
}

/* Reads any INT32/INT64 offsets view as int64. */
static int64_t *read_offsets(gcol_column_view offsets) {
  int64_t *out = (int64_t *)malloc((size_t)offsets.size * sizeof(int64_t));
  if (offsets.type.id == GCOL_INT64) {
    GCOL_TEST_OK(gcol_column_copy_to_host(offsets, out, NULL, NULL));
  } else {
    int32_t *tmp = (int32_t *)malloc((size_t)offsets.size * sizeof(int32_t));
    GCOL_TEST_OK(gcol_column_copy_to_host(offsets, tmp, NULL, NULL));
    for (int64_t i = 0; i < offsets.size; ++i) out[i] = tmp[i];
    free(tmp);
  }
  return out;
}

/* LIST<INT64> and STRUCT<INT32, STRING> rows through apply_boolean_mask and drop_nulls. */
static void test_filter_lists_and_structs(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(405);
  int64_t const n = 1000, off = 33;
  int64_t const total = n + off;
  /* list: row i has i % 5 values */
  int32_t *list_offsets = (int32_t *)malloc((size_t)(total + 1) * sizeof(int32_t));
  list_offsets[0] = 0;
  for (int64_t i = 0; i < total; ++i) list_offsets[i + 1] = list_offsets[i] + (int32_t)(i % 5);
  ref_column values = ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), list_offsets[total],
                                        GCOL_TEST_RANDOM_NULLS, 0);
  ref_column list_valid =
      ref_column_random(&rng, gcol_data_type_make(GCOL_BOOL8), total, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column f0 =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), total, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column f1 =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), total, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column flags =
      ref_column_random(&rng, gcol_data_type_make(GCOL_BOOL8), total, GCOL_TEST_RANDOM_NULLS, 0);
  gcol_column *d_offsets = NULL, *d_values = NULL, *d_list = NULL, *d_f0 = NULL, *d_f1 = NULL;
  gcol_column *d_struct = NULL, *d_flags = NULL;
  gcol_buffer *list_mask = NULL;
  int64_t list_nulls = 0;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), total + 1,
                                            list_offsets, NULL, NULL, NULL, &d_offsets));
  ref_column_to_device(&values, &d_values);
  ref_column_to_device(&flags, &d_flags);
  {
    gcol_column *bools = NULL;
    ref_column plain = list_valid;
    plain.has_mask = false;
    for (int64_t i = 0; i < total; ++i) plain.values[i] = list_valid.valid[i];
    ref_column_to_device(&plain, &bools);
    GCOL_TEST_OK(
        gcol_bools_to_mask(gcol_column_get_view(bools), &list_mask, &list_nulls, NULL, NULL));
    gcol_column_free(bools);
  }
  GCOL_TEST_OK(gcol_column_make_list(total, d_offsets, d_values, list_mask, list_nulls, &d_list));
  ref_column_to_device(&f0, &d_f0);
  ref_column_to_device(&f1, &d_f1);
  gcol_column *fields[2] = {d_f0, d_f1};
  GCOL_TEST_OK(gcol_column_make_struct(total, fields, 2, NULL, 0, &d_struct));

  gcol_column_view cols[2] = {ref_slice(gcol_column_get_view(d_list), off, off + n),
                              ref_slice(gcol_column_get_view(d_struct), off, off + n)};
  gcol_table_view input;
  GCOL_TEST_OK(gcol_table_view_make(cols, 2, &input));
  int64_t *idx = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  for (int pass = 0; pass < 2; ++pass) {
    gcol_table *out = NULL;
    int64_t count = 0;
    if (pass == 0) {
      GCOL_TEST_OK(gcol_apply_boolean_mask(
          input, ref_slice(gcol_column_get_view(d_flags), off, off + n), &out, NULL, NULL));
      count = ref_mask_indices(&flags, off, n, idx);
    } else {
      int32_t const keys[1] = {0};
      const ref_column *key_refs[1] = {&list_valid};
      GCOL_TEST_OK(gcol_drop_nulls(input, keys, 1, 1, &out, NULL, NULL));
      count = ref_drop_nulls_indices(key_refs, 1, off, n, 1, idx);
    }
    gcol_table_view const r = gcol_table_get_view(out);
    gcol_column_view const list = r.columns[0];
    assert_int_equal(list.size, count);
    /* list validity, sizes and values */
    gcol_column *valid_col = NULL;
    GCOL_TEST_OK(gcol_is_valid(list, &valid_col, NULL, NULL));
    uint8_t *got_valid = (uint8_t *)malloc((size_t)(count > 0 ? count : 1));
    if (count > 0)
      GCOL_TEST_OK(
          gcol_column_copy_to_host(gcol_column_get_view(valid_col), got_valid, NULL, NULL));
    /* 1000 rows with random flags: an empty result would mean a broken generator */
    assert_true(count > 0);
    int64_t *offs = read_offsets(list.children[GCOL_OFFSETS_CHILD]);
    assert_int_equal(list.children[GCOL_OFFSETS_CHILD].size, count + 1);
    int64_t *value_idx =
        (int64_t *)malloc((size_t)(offs[count] > 0 ? offs[count] : 1) * sizeof(int64_t));
    for (int64_t j = 0; j < count; ++j) {
      int64_t const row = off + idx[j];
      assert_int_equal(got_valid[j], list_valid.valid[row]);
      int64_t const len = list_valid.valid[row] ? row % 5 : 0;
      assert_int_equal(offs[j + 1] - offs[j], len);
      for (int64_t k = 0; k < len; ++k) value_idx[offs[j] + k] = list_offsets[row] + k;
    }
    ref_assert_rows(ref_slice(list.children[GCOL_LIST_VALUES_CHILD], 0, offs[count]), &values, 0,
                    value_idx, offs[count]);
    /* struct fields */
    gcol_column_view const st = r.columns[1];
    assert_int_equal(st.size, count);
    ref_assert_rows(st.children[0], &f0, off, idx, count);
    ref_assert_rows(st.children[1], &f1, off, idx, count);
    free(offs);
    free(value_idx);
    free(got_valid);
    gcol_column_free(valid_col);
    gcol_table_free(out);
  }
  free(idx);
  free(list_offsets);
  gcol_column_free(d_list);
  gcol_column_free(d_struct);
  gcol_column_free(d_flags);
  ref_column_free(&values);
  ref_column_free(&list_valid);
  ref_column_free(&f0);
  ref_column_free(&f1);
  ref_column_free(&flags);
}

/* drop_nulls / drop_nans over three key columns, every threshold. */
static void check_drop(gcol_test_rng *rng, bool nans, int64_t n, int64_t off) {
  int64_t const total = n + off;
  gcol_data_type const t0 = gcol_data_type_make(nans ? GCOL_FLOAT32 : GCOL_INT32);
  gcol_data_type const t1 = gcol_data_type_make(nans ? GCOL_FLOAT64 : GCOL_STRING);
  ref_column c0 = ref_column_random(rng, t0, total, GCOL_TEST_RANDOM_NULLS, nans ? 3 : 0);
  ref_column c1 = ref_column_random(rng, t1, total, GCOL_TEST_RANDOM_NULLS, nans ? 3 : 0);
  ref_column c2 = ref_column_random(rng, t0, total, GCOL_TEST_NO_MASK, nans ? 3 : 0);
  ref_column ids = ref_column_row_ids(total);
  gcol_column *d[4] = {NULL, NULL, NULL, NULL};
  ref_column_to_device(&c0, &d[0]);
  ref_column_to_device(&c1, &d[1]);
  ref_column_to_device(&c2, &d[2]);
  ref_column_to_device(&ids, &d[3]);
  gcol_column_view cols[4];
  for (int c = 0; c < 4; ++c) cols[c] = ref_slice(gcol_column_get_view(d[c]), off, off + n);
  gcol_table_view input;
  GCOL_TEST_OK(gcol_table_view_make(cols, 4, &input));
  int32_t const keys[3] = {0, 1, 2};
  const ref_column *key_refs[3] = {&c0, &c1, &c2};
  int64_t *idx = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  for (int32_t nk = 1; nk <= 3; ++nk) {
    for (int64_t thr = 0; thr <= nk; ++thr) {
      gcol_table *out = NULL;
      int64_t count;
      if (nans) {
        GCOL_TEST_OK(gcol_drop_nans(input, keys, nk, thr, &out, NULL, NULL));
        count = ref_drop_nans_indices(key_refs, nk, off, n, thr, idx);
      } else {
        GCOL_TEST_OK(gcol_drop_nulls(input, keys, nk, thr, &out, NULL, NULL));
        count = ref_drop_nulls_indices(key_refs, nk, off, n, thr, idx);
      }
      gcol_table_view const r = gcol_table_get_view(out);
      assert_row_ids(r.columns[3], off, idx, count);
      ref_assert_rows(r.columns[0], &c0, off, idx, count);
      ref_assert_rows(r.columns[1], &c1, off, idx, count);
      gcol_table_free(out);
    }
  }
  free(idx);
  for (int c = 0; c < 4; ++c) gcol_column_free(d[c]);
  ref_column_free(&c0);
  ref_column_free(&c1);
  ref_column_free(&c2);
  ref_column_free(&ids);
}

static void test_drop_nulls(void **state) {
  gcol_test_rng rng = gcol_test_rng_make(406);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    if (!gcol_test_in_part(state, (size_t)s)) continue;
    check_drop(&rng, false, gcol_test_sizes[s], gcol_test_offsets[s % gcol_test_num_offsets]);
  }
}

static void test_drop_nans(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(407);
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    check_drop(&rng, true, gcol_test_sizes[s], gcol_test_offsets[s % gcol_test_num_offsets]);
  }
}

/* distinct or unique on the given key columns (+ row ids), checked against the reference. */
static void check_dedupe(ref_column *const *key_cols, int32_t num_keys, int64_t n, int64_t off,
                         bool consecutive) {
  int64_t const total = n + off;
  ref_column ids = ref_column_row_ids(total);
  gcol_column *d[17];
  gcol_column_view cols[17];
  int32_t keys[16];
  const ref_column *key_refs[16];
  for (int32_t k = 0; k < num_keys; ++k) {
    ref_column_to_device(key_cols[k], &d[k]);
    cols[k] = ref_slice(gcol_column_get_view(d[k]), off, off + n);
    keys[k] = k;
    key_refs[k] = key_cols[k];
  }
  ref_column_to_device(&ids, &d[num_keys]);
  cols[num_keys] = ref_slice(gcol_column_get_view(d[num_keys]), off, off + n);
  gcol_table_view input;
  GCOL_TEST_OK(gcol_table_view_make(cols, num_keys + 1, &input));
  int64_t *idx = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  int64_t *group = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  for (int nulls = 0; nulls < 2; ++nulls) {
    bool const nulls_equal = nulls == GCOL_NULLS_EQUAL;
    for (int keep = GCOL_KEEP_ANY; keep <= GCOL_KEEP_NONE; ++keep) {
      gcol_table *out = NULL;
      int64_t count;
      if (consecutive) {
        GCOL_TEST_OK(gcol_unique(input, keys, num_keys, (gcol_duplicate_keep)keep,
                                 (gcol_null_equality)nulls, &out, NULL, NULL));
        count = ref_unique_indices(key_refs, num_keys, off, n, (gcol_duplicate_keep)keep,
                                   nulls_equal, idx);
      } else {
        GCOL_TEST_OK(gcol_distinct(input, keys, num_keys, (gcol_duplicate_keep)keep,
                                   (gcol_null_equality)nulls, &out, NULL, NULL));
        count = ref_distinct_indices(key_refs, num_keys, off, n, (gcol_duplicate_keep)keep,
                                     nulls_equal, idx, group);
      }
      gcol_table_view const r = gcol_table_get_view(out);
      gcol_column_view const got_ids = r.columns[num_keys];
      if (!consecutive && keep == GCOL_KEEP_ANY) {
        /* any representative: ascending, one per group, every group present */
        assert_int_equal(got_ids.size, count);
        int64_t *got = ref_read_i64(got_ids);
        uint8_t *seen = (uint8_t *)calloc((size_t)(n > 0 ? n : 1), 1);
        for (int64_t j = 0; j < count; ++j) {
          int64_t const row = got[j] - off;
          assert_true(row >= 0 && row < n);
          if (j > 0) assert_true(got[j] > got[j - 1]);
          int64_t const g = group[row];
          if (g >= 0) {
            assert_int_equal(seen[g], 0);
            seen[g] = 1;
          }
          idx[j] = row;
        }
        free(seen);
        free(got);
      } else {
        assert_row_ids(got_ids, off, idx, count);
      }
      for (int32_t k = 0; k < num_keys; ++k)
        ref_assert_rows(r.columns[k], key_cols[k], off, idx, count);
      gcol_table_free(out);
    }
    if (!consecutive) {
      /* distinct_count: the number of groups (+ rows unique by unequal nulls) */
      int64_t expected = ref_distinct_indices(key_refs, num_keys, off, n, GCOL_KEEP_FIRST,
                                              nulls_equal, idx, group);
      gcol_table_view keys_only;
      GCOL_TEST_OK(gcol_table_view_make(cols, num_keys, &keys_only));
      int64_t got = -1;
      GCOL_TEST_OK(gcol_distinct_count(keys_only, (gcol_null_equality)nulls, &got, NULL));
      assert_int_equal(got, expected);
    }
  }
  free(idx);
  free(group);
  for (int32_t k = 0; k <= num_keys; ++k) gcol_column_free(d[k]);
  ref_column_free(&ids);
}

static void dedupe_suite(bool consecutive, uint64_t salt) {
  gcol_test_rng rng = gcol_test_rng_make(salt);
  /* one key of every fixed-width type, from a small pool of values */
  for (int id = GCOL_INT8; id <= GCOL_DECIMAL128; ++id) {
    for (size_t s = 0; s < NUM_FEW(few_sizes); ++s) {
      /* under the tools every other (type, size): each type keeps 257 or 4097 rows (past a
       * block), each size (with its validity and offset) runs for half the types */
      if (!gcol_test_keep_combination((size_t)id + s)) continue;
      int64_t const n = few_sizes[s], off = few_offsets[s % NUM_FEW(few_offsets)];
      ref_column key = ref_column_random(&rng, gcol_data_type_make((gcol_type_id)id), n + off,
                                         (gcol_test_validity)(s % GCOL_TEST_NUM_VALIDITY), 4);
      ref_column *keys[1] = {&key};
      check_dedupe(keys, 1, n, off, consecutive);
      ref_column_free(&key);
    }
  }
  /* multi-column keys: INT32 + STRING + FLOAT64 (with NaN, +-0) */
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    int64_t const n = gcol_test_sizes[s], off = gcol_test_offsets[s % gcol_test_num_offsets];
    ref_column a = ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), n + off,
                                     GCOL_TEST_RANDOM_NULLS, 3);
    ref_column b = ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), n + off,
                                     (gcol_test_validity)(s % GCOL_TEST_NUM_VALIDITY), 4);
    ref_column c =
        ref_column_random(&rng, gcol_data_type_make(GCOL_FLOAT64), n + off, GCOL_TEST_NO_MASK, 3);
    ref_column *keys[3] = {&a, &b, &c};
    check_dedupe(keys, 3, n, off, consecutive);
    ref_column_free(&a);
    ref_column_free(&b);
    ref_column_free(&c);
  }
}

static void test_distinct(void **state) {
  (void)state;
  dedupe_suite(false, 408);
  /* ~1e6 rows, many groups: long probe chains and many CAS races */
  gcol_test_rng rng = gcol_test_rng_make(411);
  int64_t const n = gcol_test_cap(1000003);
  ref_column key = ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), n + 5,
                                     GCOL_TEST_RANDOM_NULLS, 100000);
  ref_column *keys[1] = {&key};
  check_dedupe(keys, 1, n, 5, false);
  ref_column_free(&key);
}

/* A packed key column of n + off rows from `distinct` values 1..distinct, no nulls, with
 * every `minus_every`-th row set to -1 (all ones: the bits of the table's EMPTY slot; 0 for
 * none, 1 for every row). */
static ref_column packed_keys(gcol_test_rng *rng, gcol_type_id id, int64_t total, int distinct,
                              int64_t minus_every) {
  ref_column key =
      ref_column_random(rng, gcol_data_type_make(id), total, GCOL_TEST_NO_MASK, distinct);
  for (int64_t i = 0; minus_every > 0 && i < total; ++i) {
    if (i % minus_every == 0) memset(key.values + (size_t)i * key.width, 0xFF, key.width);
  }
  return key;
}

/* Packed keys whose bits equal the EMPTY pattern (INT64 -1, UINT64 max) have their group
 * outside the table: every keep, next to other keys and alone, small and past the size
 * where distinct estimates its table. */
static void test_distinct_empty_pattern_keys(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(412);
  static const int64_t sizes[] = {1, 2, 33, 4097, 40000};
  static const int64_t minus_every[] = {1, 3, 1000};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    for (size_t m = 0; m < sizeof minus_every / sizeof minus_every[0]; ++m) {
      int64_t const n = sizes[s], off = gcol_test_offsets[(s + m) % gcol_test_num_offsets];
      gcol_type_id const id = m == 1 ? GCOL_UINT64 : GCOL_INT64;
      ref_column key = packed_keys(&rng, id, n + off, 50, minus_every[m]);
      ref_column *keys[1] = {&key};
      check_dedupe(keys, 1, n, off, false);
      ref_column_free(&key);
    }
  }
}

/* Past 2^15 rows the table is sized by the estimated distinct keys: few and many groups,
 * packed keys (INT64, FLOAT64 with NaN and +-0, INT32) and row keys with nulls. */
static void test_distinct_sized_tables(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(413);
  static const int distincts[] = {1, 7, 3000, 60000};
  for (size_t d = 0; d < sizeof distincts / sizeof distincts[0]; ++d) {
    int64_t const n = gcol_test_cap(100003), off = gcol_test_offsets[d % gcol_test_num_offsets];
    gcol_type_id const id = d == 1 ? GCOL_FLOAT64 : d == 2 ? GCOL_INT32 : GCOL_INT64;
    ref_column key = packed_keys(&rng, id, n + off, distincts[d], 0);
    ref_column *keys[1] = {&key};
    check_dedupe(keys, 1, n, off, false);
    ref_column_free(&key);
  }
  int64_t const n = gcol_test_cap(70001);
  ref_column a =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), n + 3, GCOL_TEST_RANDOM_NULLS, 300);
  ref_column b =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), n + 3, GCOL_TEST_NO_MASK, 100);
  ref_column *keys[2] = {&a, &b};
  check_dedupe(keys, 2, n, 3, false);
  ref_column_free(&a);
  ref_column_free(&b);
}

/* A table sized by a far too low estimate (the test override) overflows its bounded probes:
 * distinct retries with a table for every row and is still exact, on packed keys (with -1)
 * and on row keys. */
static void test_distinct_estimate_retry(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(414);
  int64_t const misses = gcol_detail_estimate_misses();
  int64_t const previous = gcol_detail_set_estimate_override(1);
  ref_column key = packed_keys(&rng, GCOL_INT64, 5000 + 5, 1000, 7);
  ref_column *packed[1] = {&key};
  check_dedupe(packed, 1, 5000, 5, false);
  ref_column a = ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), 3000 + 1,
                                   GCOL_TEST_RANDOM_NULLS, 500);
  ref_column b =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), 3000 + 1, GCOL_TEST_NO_MASK, 4);
  ref_column *rows[2] = {&a, &b};
  check_dedupe(rows, 2, 3000, 1, false);
  gcol_detail_set_estimate_override(previous);
  /* every keep x both null equalities + distinct_count x 2 key sets, each overflowed once */
  assert_true(gcol_detail_estimate_misses() - misses >= 2 * 2 * 5);
  ref_column_free(&key);
  ref_column_free(&a);
  ref_column_free(&b);
}

static void test_unique(void **state) {
  (void)state;
  dedupe_suite(true, 409);
}

/* Documented float equality: -0.0 == 0.0 and NaN == NaN (whatever the payload). */
static void test_distinct_float_equality(void **state) {
  (void)state;
  double const v[6] = {0.0, -0.0, NAN, -NAN, 1.0, 1.0};
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_FLOAT64), 6, v, NULL, NULL,
                                            NULL, &col));
  gcol_column_view view = gcol_column_get_view(col);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&view, 1, &t));
  int64_t count = 0;
  GCOL_TEST_OK(gcol_distinct_count(t, GCOL_NULLS_EQUAL, &count, NULL));
  assert_int_equal(count, 3);
  gcol_table *out = NULL;
  int32_t const key = 0;
  GCOL_TEST_OK(gcol_distinct(t, &key, 1, GCOL_KEEP_LAST, GCOL_NULLS_EQUAL, &out, NULL, NULL));
  double got[3];
  GCOL_TEST_OK(gcol_column_copy_to_host(gcol_table_get_view(out).columns[0], got, NULL, NULL));
  assert_true(got[0] == 0.0 && signbit(got[0])); /* row 1: -0.0 */
  assert_true(isnan(got[1]));
  assert_true(got[2] == 1.0);
  gcol_table_free(out);
  gcol_column_free(col);
}

/* ---- bad input ---- */

static void test_bad_input(void **state) {
  (void)state;
  int64_t vals[4] = {1, 2, 3, 4};
  int32_t i32[4] = {1, 0, 1, 0};
  uint8_t b8[3] = {1, 0, 1};
  gcol_column *c64 = NULL, *c32 = NULL, *cb = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 4, vals, NULL, NULL,
                                            NULL, &c64));
  GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), 4, i32, NULL, NULL,
                                            NULL, &c32));
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(GCOL_BOOL8), 3, b8, NULL, NULL, NULL, &cb));
  gcol_column_view v = gcol_column_get_view(c64);
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(&v, 1, &t));
  gcol_table *out = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_apply_boolean_mask(t, gcol_column_get_view(c32), &out, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  assert_null(out);
  assert_non_null(strstr(gcol_last_error(), "boolean_mask"));
  GCOL_TEST_STATUS(gcol_apply_boolean_mask(t, gcol_column_get_view(cb), &out, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_apply_boolean_mask(t, gcol_column_get_view(cb), NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  int32_t const good = 0, bad_hi = 1, bad_lo = -1;
  GCOL_TEST_STATUS(gcol_drop_nulls(t, &good, 1, 2, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "keep_threshold"));
  GCOL_TEST_STATUS(gcol_drop_nulls(t, &good, 1, -1, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_drop_nulls(t, &bad_hi, 1, 1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "keys[0]"));
  GCOL_TEST_STATUS(gcol_drop_nulls(t, &bad_lo, 1, 1, &out, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_drop_nulls(t, NULL, 1, 1, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_drop_nulls(t, &good, 0, 0, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_drop_nans(t, &good, 1, 1, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  GCOL_TEST_STATUS(
      gcol_distinct(t, &bad_hi, 1, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_distinct(t, &good, 1, (gcol_duplicate_keep)9, GCOL_NULLS_EQUAL, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_distinct(t, &good, 1, GCOL_KEEP_ANY, (gcol_null_equality)5, &out, NULL, NULL),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_unique(t, &good, 1, GCOL_KEEP_ANY, GCOL_NULLS_EQUAL, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_distinct_count(t, GCOL_NULLS_EQUAL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(out);
  gcol_column_free(c64);
  gcol_column_free(c32);
  gcol_column_free(cb);
}

/* ---- allocation failures ---- */

typedef struct alloc_ctx {
  gcol_table_view input;
  gcol_column_view mask;
  int op;
  gcol_table *out;
} alloc_ctx;

static gcol_status alloc_op(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  int32_t const keys[2] = {0, 1};
  c->out = NULL;
  switch (c->op) {
    case 0:
      return gcol_apply_boolean_mask(c->input, c->mask, &c->out, NULL, NULL);
    case 1:
      return gcol_drop_nulls(c->input, keys, 2, 2, &c->out, NULL, NULL);
    case 2:
      return gcol_distinct(c->input, keys, 2, GCOL_KEEP_FIRST, GCOL_NULLS_EQUAL, &c->out, NULL,
                           NULL);
    case 3:
      return gcol_unique(c->input, keys, 2, GCOL_KEEP_NONE, GCOL_NULLS_UNEQUAL, &c->out, NULL,
                         NULL);
    case 4:
      return gcol_distinct(c->input, keys, 1, GCOL_KEEP_ANY, GCOL_NULLS_EQUAL, &c->out, NULL, NULL);
    case 5:
      return gcol_distinct(c->input, keys, 1, GCOL_KEEP_LAST, GCOL_NULLS_EQUAL, &c->out, NULL,
                           NULL);
    default: {
      int64_t count = 0;
      return gcol_distinct_count(c->input, GCOL_NULLS_EQUAL, &count, NULL);
    }
  }
}

static void alloc_cleanup(void *p) {
  alloc_ctx *c = (alloc_ctx *)p;
  gcol_table_free(c->out);
  c->out = NULL;
}

static void test_allocation_failures(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(410);
  int64_t const n = 5000;
  ref_column a =
      ref_column_random(&rng, gcol_data_type_make(GCOL_INT64), n, GCOL_TEST_RANDOM_NULLS, 50);
  ref_column b =
      ref_column_random(&rng, gcol_data_type_make(GCOL_STRING), n, GCOL_TEST_RANDOM_NULLS, 5);
  ref_column m = ref_column_random(&rng, gcol_data_type_make(GCOL_BOOL8), n, GCOL_TEST_NO_MASK, 0);
  gcol_column *da = NULL, *db = NULL, *dm = NULL;
  ref_column_to_device(&a, &da);
  ref_column_to_device(&b, &db);
  ref_column_to_device(&m, &dm);
  gcol_column_view cols[2] = {ref_slice(gcol_column_get_view(da), 1, n),
                              ref_slice(gcol_column_get_view(db), 1, n)};
  alloc_ctx ctx;
  ctx.mask = ref_slice(gcol_column_get_view(dm), 1, n);
  ctx.out = NULL;
  for (int op = 0; op < 4; ++op) {
    ctx.op = op;
    GCOL_TEST_OK(gcol_table_view_make(cols, 2, &ctx.input));
    assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  }
  /* the tiled select without masks: one fixed-width column without nulls */
  gcol_column *plain = NULL;
  ref_column p = ref_column_random(&rng, gcol_data_type_make(GCOL_INT32), n, GCOL_TEST_NO_MASK, 0);
  ref_column_to_device(&p, &plain);
  gcol_column_view pv = ref_slice(gcol_column_get_view(plain), 1, n);
  GCOL_TEST_OK(gcol_table_view_make(&pv, 1, &ctx.input));
  ctx.op = 0;
  assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  /* the tiled select with masks: two fixed-width columns, one with nulls, and null flags */
  gcol_column *flags_nulls = NULL;
  ref_column fm =
      ref_column_random(&rng, gcol_data_type_make(GCOL_BOOL8), n, GCOL_TEST_RANDOM_NULLS, 0);
  ref_column_to_device(&fm, &flags_nulls);
  gcol_column_view const tiled[2] = {cols[0], pv};
  GCOL_TEST_OK(gcol_table_view_make(tiled, 2, &ctx.input));
  ctx.mask = ref_slice(gcol_column_get_view(flags_nulls), 1, n);
  assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
  /* distinct on one packed key past 2^15 rows: the estimate's registers, the sized table, and
   * with the test override the retry's second table */
  gcol_column *packed = NULL;
  ref_column pk = packed_keys(&rng, GCOL_INT64, 40001, 3000, 11);
  ref_column_to_device(&pk, &packed);
  gcol_column_view const pkv = ref_slice(gcol_column_get_view(packed), 1, 40001);
  GCOL_TEST_OK(gcol_table_view_make(&pkv, 1, &ctx.input));
  for (int forced = 0; forced < 2; ++forced) {
    int64_t const previous = gcol_detail_set_estimate_override(forced ? 1 : -1);
    for (ctx.op = 4; ctx.op <= 6; ++ctx.op) {
      assert_true(gcol_test_check_allocation_failures(alloc_op, alloc_cleanup, &ctx) > 0);
    }
    gcol_detail_set_estimate_override(previous);
  }
  gcol_column_free(packed);
  ref_column_free(&pk);
  gcol_column_free(flags_nulls);
  ref_column_free(&fm);
  gcol_column_free(plain);
  ref_column_free(&p);
  gcol_column_free(da);
  gcol_column_free(db);
  gcol_column_free(dm);
  ref_column_free(&a);
  ref_column_free(&b);
  ref_column_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU_PART(test_apply_boolean_mask_every_fixed_type, 0, 3),
      GCOL_TEST_GPU_PART(test_apply_boolean_mask_every_fixed_type, 1, 3),
      GCOL_TEST_GPU_PART(test_apply_boolean_mask_every_fixed_type, 2, 3),
      GCOL_TEST_GPU(test_apply_boolean_mask_int64_sizes_offsets),
      GCOL_TEST_GPU(test_apply_boolean_mask_fast_path_densities),
      GCOL_TEST_GPU_PART(test_apply_boolean_mask_tiled_nulls, 0, 3),
      GCOL_TEST_GPU_PART(test_apply_boolean_mask_tiled_nulls, 1, 3),
      GCOL_TEST_GPU_PART(test_apply_boolean_mask_tiled_nulls, 2, 3),
      GCOL_TEST_GPU(test_apply_boolean_mask_tiled_corners),
      GCOL_TEST_GPU(test_apply_boolean_mask_strings),
      GCOL_TEST_GPU(test_apply_boolean_mask_strings_int64_offsets),
      GCOL_TEST_GPU(test_filter_lists_and_structs),
      GCOL_TEST_GPU_PART(test_drop_nulls, 0, 2),
      GCOL_TEST_GPU_PART(test_drop_nulls, 1, 2),
      GCOL_TEST_GPU(test_drop_nans),
      GCOL_TEST_GPU(test_distinct),
      GCOL_TEST_GPU(test_distinct_empty_pattern_keys),
      GCOL_TEST_GPU(test_distinct_sized_tables),
      GCOL_TEST_GPU(test_distinct_estimate_retry),
      GCOL_TEST_GPU(test_unique),
      GCOL_TEST_GPU(test_distinct_float_equality),
      GCOL_TEST_GPU(test_bad_input),
      GCOL_TEST_GPU(test_allocation_failures),
  };
  return GCOL_TEST_RUN_GPU("filtering", tests);
}
