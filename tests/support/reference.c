/* Logical column comparison for tests: nulls compare equal whatever bytes lie under them. */
#include "test_util.h"

#include <cuda_runtime_api.h>

static void *checked_malloc(size_t bytes) {
  void *p = malloc(bytes > 0 ? bytes : 1);
  if (p == NULL) fail_msg("out of host memory (%zu bytes)", bytes);
  return p;
}

/* Copies a fixed-width view (values and validity) to host arrays the caller frees. */
static void fixed_to_host(gcol_column_view v, void **values, uint8_t **valid) {
  size_t const width = gcol_type_size(v.type.id);
  *values = checked_malloc((size_t)v.size * width);
  *valid = (uint8_t *)checked_malloc((size_t)v.size);
  GCOL_TEST_OK(gcol_column_copy_to_host(v, *values, *valid, NULL));
}

void gcol_test_assert_column_equals_host(gcol_column_view actual, const void *expected,
                                         const uint8_t *expected_valid, int64_t size) {
  assert_int_equal(actual.size, size);
  size_t const width = gcol_type_size(actual.type.id);
  if (width == 0) fail_msg("%s", "assert_column_equals_host takes fixed-width columns only");
  void *values = NULL;
  uint8_t *valid = NULL;
  fixed_to_host(actual, &values, &valid);
  for (int64_t i = 0; i < size; ++i) {
    bool const want_valid = expected_valid == NULL || expected_valid[i] != 0;
    if ((valid[i] != 0) != want_valid) {
      fail_msg("row %lld: validity %d, expected %d", (long long)i, valid[i], want_valid);
    }
    if (want_valid && memcmp((char *)values + (size_t)i * width,
                             (const char *)expected + (size_t)i * width, width) != 0) {
      fail_msg("row %lld: value bytes differ (%s)", (long long)i,
               gcol_type_name(actual.type.id));
    }
  }
  free(values);
  free(valid);
}

static void assert_fixed_equal(gcol_column_view a, gcol_column_view b) {
  void *va = NULL, *vb = NULL;
  uint8_t *ma = NULL, *mb = NULL;
  fixed_to_host(a, &va, &ma);
  fixed_to_host(b, &vb, &mb);
  size_t const width = gcol_type_size(a.type.id);
  for (int64_t i = 0; i < a.size; ++i) {
    if (ma[i] != mb[i]) fail_msg("row %lld: validity %d vs %d", (long long)i, ma[i], mb[i]);
    if (ma[i] && memcmp((char *)va + (size_t)i * width, (char *)vb + (size_t)i * width, width)) {
      fail_msg("row %lld: values differ", (long long)i);
    }
  }
  free(va);
  free(vb);
  free(ma);
  free(mb);
}

static void assert_strings_equal(gcol_column_view a, gcol_column_view b) {
  gcol_host_strings *ha = NULL, *hb = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(a, NULL, &ha));
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(b, NULL, &hb));
  for (int64_t i = 0; i < a.size; ++i) {
    if (ha->valid[i] != hb->valid[i]) fail_msg("row %lld: validity differs", (long long)i);
    if (!ha->valid[i]) continue;
    int64_t const la = ha->offsets[i + 1] - ha->offsets[i];
    int64_t const lb = hb->offsets[i + 1] - hb->offsets[i];
    if (la != lb || memcmp(ha->chars + ha->offsets[i], hb->chars + hb->offsets[i], (size_t)la)) {
      fail_msg("row %lld: strings differ (%lld vs %lld bytes)", (long long)i, (long long)la,
               (long long)lb);
    }
  }
  gcol_host_strings_free(ha);
  gcol_host_strings_free(hb);
}

/* Validity of every row of a view, on the host. */
static uint8_t *validity_to_host(gcol_column_view v) {
  uint8_t *valid = (uint8_t *)checked_malloc((size_t)v.size);
  memset(valid, 1, (size_t)v.size);
  if (v.null_mask != NULL && v.size > 0) {
    int64_t const words = gcol_bit_num_words(v.offset + v.size);
    uint32_t *mask = (uint32_t *)checked_malloc((size_t)words * 4);
    if (cudaMemcpy(mask, v.null_mask, (size_t)words * 4, cudaMemcpyDeviceToHost) != cudaSuccess)
      fail_msg("%s", "cudaMemcpy of a null mask failed");
    for (int64_t i = 0; i < v.size; ++i) valid[i] = gcol_bit_is_set(mask, v.offset + i);
    free(mask);
  }
  return valid;
}

/* Host copy of the offsets of a LIST view's rows (size + 1 values). */
static int64_t *list_offsets_to_host(gcol_column_view v) {
  gcol_column_view off;
  GCOL_TEST_OK(gcol_column_view_slice(v.children[GCOL_OFFSETS_CHILD], v.offset,
                                      v.offset + v.size + 1, &off));
  off.null_mask = NULL;
  off.null_count = 0;
  int64_t *out = (int64_t *)checked_malloc((size_t)(v.size + 1) * 8);
  if (off.type.id == GCOL_INT64) {
    GCOL_TEST_OK(gcol_column_copy_to_host(off, out, NULL, NULL));
  } else {
    int32_t *tmp = (int32_t *)checked_malloc((size_t)(v.size + 1) * 4);
    GCOL_TEST_OK(gcol_column_copy_to_host(off, tmp, NULL, NULL));
    for (int64_t i = 0; i <= v.size; ++i) out[i] = tmp[i];
    free(tmp);
  }
  return out;
}

void gcol_test_assert_columns_equal(gcol_column_view a, gcol_column_view b) {
  if (!gcol_data_type_equal(a.type, b.type)) {
    fail_msg("types differ: %s vs %s", gcol_type_name(a.type.id), gcol_type_name(b.type.id));
  }
  assert_int_equal(a.size, b.size);
  if (a.size == 0) return;
  if (gcol_type_is_fixed_width(a.type.id)) {
    assert_fixed_equal(a, b);
  } else if (a.type.id == GCOL_STRING) {
    assert_strings_equal(a, b);
  } else if (a.type.id == GCOL_STRUCT) {
    uint8_t *va = validity_to_host(a), *vb = validity_to_host(b);
    assert_memory_equal(va, vb, (size_t)a.size);
    free(va);
    free(vb);
    assert_int_equal(a.num_children, b.num_children);
    for (int32_t c = 0; c < a.num_children; ++c) {
      gcol_column_view ca, cb;
      GCOL_TEST_OK(gcol_column_view_slice(a.children[c], a.offset, a.offset + a.size, &ca));
      GCOL_TEST_OK(gcol_column_view_slice(b.children[c], b.offset, b.offset + b.size, &cb));
      gcol_test_assert_columns_equal(ca, cb);
    }
  } else if (a.type.id == GCOL_LIST) {
    uint8_t *va = validity_to_host(a), *vb = validity_to_host(b);
    int64_t *oa = list_offsets_to_host(a), *ob = list_offsets_to_host(b);
    for (int64_t i = 0; i < a.size; ++i) {
      if (va[i] != vb[i]) fail_msg("list row %lld: validity differs", (long long)i);
      if (!va[i]) continue;
      int64_t const n = oa[i + 1] - oa[i];
      if (n != ob[i + 1] - ob[i]) fail_msg("list row %lld: lengths differ", (long long)i);
      gcol_column_view ea, eb;
      GCOL_TEST_OK(gcol_column_view_slice(a.children[GCOL_LIST_VALUES_CHILD], oa[i], oa[i + 1], &ea));
      GCOL_TEST_OK(gcol_column_view_slice(b.children[GCOL_LIST_VALUES_CHILD], ob[i], ob[i + 1], &eb));
      gcol_test_assert_columns_equal(ea, eb);
    }
    free(va);
    free(vb);
    free(oa);
    free(ob);
  } else {
    fail_msg("assert_columns_equal: %s not supported", gcol_type_name(a.type.id));
  }
}

void gcol_test_assert_null_count_consistent(gcol_column_view view) {
  if (view.null_count == GCOL_UNKNOWN_NULL_COUNT) return;
  uint8_t *valid = validity_to_host(view);
  int64_t nulls = 0;
  for (int64_t i = 0; i < view.size; ++i) nulls += valid[i] == 0;
  free(valid);
  if (view.null_mask == NULL) {
    assert_int_equal(view.null_count, 0);
  } else {
    assert_int_equal(view.null_count, nulls);
  }
}
