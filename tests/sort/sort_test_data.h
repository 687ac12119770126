/*
 * Test data for the GPU sorting and searching tests: host arrays plus their device column,
 * built from the shared generators (static functions; included by one test file each).
 */
#ifndef GCOL_TESTS_SORT_TEST_DATA_H
#define GCOL_TESTS_SORT_TEST_DATA_H

#include "sort_ref.h"

/* A key column in host and device memory. `ref` describes the sliced rows. */
typedef struct test_column {
  gcol_column *column;   /* device column of offset + size rows */
  gcol_column_view view; /* the slice [offset, offset + size) */
  ref_column ref;
  void *data;
  uint8_t *valid;
  char **strings;
  int64_t *lengths;
} test_column;

/* Random strings: shared prefixes longer than 8 bytes, "", "\0", multibyte, short ones. */
static void fill_strings(gcol_test_rng *rng, int64_t n, char **strings, int64_t *lengths) {
  static const char *const pieces[] = {
      "", "a", "b", "\0", "abcdefgh", "abcdefghij", "\xc3\xa9", "\xf4\x8f\xbf\xbf", "zz", "ab"};
  static const int64_t piece_len[] = {0, 1, 1, 1, 8, 10, 2, 4, 2, 2};
  for (int64_t i = 0; i < n; ++i) {
    int const parts = (int)(gcol_test_rng_next(rng) % 4);
    int64_t len = 0;
    char buf[64];
    for (int p = 0; p < parts; ++p) {
      int const k = (int)(gcol_test_rng_next(rng) % 10);
      memcpy(buf + len, pieces[k], (size_t)piece_len[k]);
      len += piece_len[k];
    }
    strings[i] = (char *)malloc((size_t)len + 1);
    memcpy(strings[i], buf, (size_t)len);
    strings[i][len] = '\0';
    lengths[i] = len;
  }
}

/* Builds a column of `offset + n` random rows and slices it to the last n. */
static void test_column_make(gcol_test_rng *rng, gcol_data_type type, int64_t n, int64_t offset,
                             gcol_test_validity validity, gcol_order order,
                             gcol_null_order null_order, test_column *tc) {
  int64_t const total = n + offset;
  memset(tc, 0, sizeof *tc);
  tc->valid = (uint8_t *)malloc((size_t)total + 1);
  gcol_test_fill_valid(rng, validity, tc->valid, total);
  const uint8_t *valid = validity == GCOL_TEST_NO_MASK ? NULL : tc->valid;
  if (type.id == GCOL_STRING) {
    const char **ptrs = (const char **)malloc(sizeof(char *) * ((size_t)total + 1));
    tc->strings = (char **)malloc(sizeof(char *) * ((size_t)total + 1));
    tc->lengths = (int64_t *)malloc(sizeof(int64_t) * ((size_t)total + 1));
    fill_strings(rng, total, tc->strings, tc->lengths);
    for (int64_t i = 0; i < total; ++i) ptrs[i] = (valid && !valid[i]) ? NULL : tc->strings[i];
    GCOL_TEST_OK(
        gcol_column_create_strings_from_host(total, ptrs, tc->lengths, NULL, NULL, &tc->column));
    free(ptrs);
  } else {
    size_t const width = gcol_type_size(type.id);
    tc->data = malloc(width * ((size_t)total + 1));
    ref_fill_values(rng, type, tc->data, total);
    GCOL_TEST_OK(
        gcol_column_create_from_host(type, total, tc->data, valid, NULL, NULL, &tc->column));
  }
  GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(tc->column), offset, total, &tc->view));
  tc->ref.type = type;
  tc->ref.size = n;
  tc->ref.valid = valid != NULL ? valid + offset : NULL;
  if (type.id == GCOL_STRING) {
    tc->ref.strings = (const char *const *)(tc->strings + offset);
    tc->ref.lengths = tc->lengths + offset;
  } else {
    tc->ref.data = (const char *)tc->data + (size_t)offset * gcol_type_size(type.id);
  }
  tc->ref.order = order;
  tc->ref.null_order = null_order;
}

static void test_column_free(test_column *tc) {
  gcol_column_free(tc->column);
  if (tc->strings != NULL) {
    for (int64_t i = 0; i < tc->ref.size + (tc->view.offset); ++i) free(tc->strings[i]);
  }
  free(tc->strings);
  free(tc->lengths);
  free(tc->data);
  free(tc->valid);
  memset(tc, 0, sizeof *tc);
}

/* Copies an INT32/INT64 index column to host as int64. */
static int64_t *copy_indices(gcol_column_view v) {
  size_t const width = gcol_type_size(v.type.id);
  void *raw = malloc(width * ((size_t)v.size + 1));
  int64_t *out = (int64_t *)malloc(sizeof(int64_t) * ((size_t)v.size + 1));
  assert_true(v.type.id == GCOL_INT32 || v.type.id == GCOL_INT64);
  assert_null(v.null_mask);
  GCOL_TEST_OK(gcol_column_copy_to_host(v, raw, NULL, NULL));
  for (int64_t i = 0; i < v.size; ++i) out[i] = ref_index_at(raw, v.type.id, i);
  free(raw);
  return out;
}

#endif /* GCOL_TESTS_SORT_TEST_DATA_H */
