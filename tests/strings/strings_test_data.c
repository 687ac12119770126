/* Test data of the strings GPU tests (strings_test_data.h). */
#include "strings_test_data.h"

#include <stdlib.h>
#include <string.h>

static size_t piece_len(const char *p) { return p[0] == '\0' ? 1 : strlen(p); }

void strings_append(host_strings *h, int64_t *cap, const char *bytes, size_t len) {
  int64_t const at = h->offsets[h->n + 1];
  if (at + (int64_t)len > *cap) {
    while (at + (int64_t)len > *cap) *cap *= 2;
    h->chars = (char *)realloc(h->chars, (size_t)*cap);
    assert_non_null(h->chars);
  }
  memcpy(h->chars + at, bytes, len);
  h->offsets[h->n + 1] = at + (int64_t)len;
}

/* The bytes row i aims at (0 for the special rows "" and "\0"). */
static int64_t row_target(gcol_test_rng *rng, int64_t i, const strings_recipe *r) {
  if (r->one_byte) return gcol_test_rng_range(rng, 0, 1);
  if (r->huge_every > 0 && i % r->huge_every == 1) return gcol_test_rng_range(rng, 65537, 70000);
  int64_t const target = gcol_test_rng_range(rng, r->min_len, r->max_len);
  return gcol_test_rng_range(rng, 0, 15) == 0 ? 0 : target;
}

host_strings strings_random(gcol_test_rng *rng, int64_t n, const strings_recipe *recipe,
                            gcol_test_validity validity) {
  host_strings h;
  int64_t cap = 1024;
  h.n = 0;
  h.chars = (char *)malloc((size_t)cap);
  h.offsets = (int64_t *)calloc((size_t)(n + 1), sizeof(int64_t));
  h.valid = (uint8_t *)malloc((size_t)(n > 0 ? n : 1));
  assert_true(h.chars != NULL && h.offsets != NULL && h.valid != NULL);
  gcol_test_fill_valid(rng, validity, h.valid, n);
  for (int64_t i = 0; i < n; ++i) {
    h.n = i;
    h.offsets[i + 1] = h.offsets[i];
    int64_t target = row_target(rng, i, recipe);
    int64_t len = 0;
    if (recipe->nul_rows && !recipe->one_byte && gcol_test_rng_range(rng, 0, 20) == 0) {
      strings_append(&h, &cap, "\0", 1);
      len = 1;
      target = 0;
    }
    while (len < target) {
      const char *p = recipe->pieces[gcol_test_rng_range(rng, 0, recipe->num_pieces - 1)];
      size_t const pl = piece_len(p);
      if (recipe->one_byte && pl != 1) continue;
      strings_append(&h, &cap, p, pl);
      len += (int64_t)pl;
    }
  }
  h.n = n;
  return h;
}

host_strings strings_rows(const char *const *rows, const int64_t *lens, int64_t n) {
  host_strings h;
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += lens[i];
  h.n = n;
  h.chars = (char *)malloc((size_t)total + 1);
  h.offsets = (int64_t *)calloc((size_t)(n + 1), sizeof(int64_t));
  h.valid = (uint8_t *)malloc((size_t)n + 1);
  assert_true(h.chars != NULL && h.offsets != NULL && h.valid != NULL);
  for (int64_t i = 0; i < n; ++i) {
    h.valid[i] = rows[i] != NULL;
    if (rows[i] != NULL) memcpy(h.chars + h.offsets[i], rows[i], (size_t)lens[i]);
    h.offsets[i + 1] = h.offsets[i] + lens[i];
  }
  return h;
}

void strings_free(host_strings *h) {
  free(h->chars);
  free(h->offsets);
  free(h->valid);
}

const char *strings_row(const host_strings *h, int64_t i, int64_t *len) {
  *len = h->offsets[i + 1] - h->offsets[i];
  return h->chars + h->offsets[i];
}

gcol_column *strings_to_device(const host_strings *h, bool wide, bool with_mask) {
  gcol_column *col = NULL;
  int64_t const previous = gcol_set_large_offsets_threshold(wide ? 1 : INT32_MAX);
  GCOL_TEST_OK(gcol_column_create_strings_from_host_offsets(
      h->n, h->chars, h->offsets, with_mask ? h->valid : NULL, NULL, NULL, &col));
  gcol_set_large_offsets_threshold(previous);
  int64_t kept = 0;
  for (int64_t i = 0; i < h->n; ++i) {
    if (!with_mask || h->valid[i]) kept += h->offsets[i + 1] - h->offsets[i];
  }
  if (kept > 1) assert_int_equal(col->children[0]->type.id, wide ? GCOL_INT64 : GCOL_INT32);
  return col;
}

/* Row i of h, or NULL when it is null (masked data only). */
const char *strings_masked_row(const host_strings *h, bool masked, int64_t i, int64_t *len) {
  const char *bytes = strings_row(h, i, len);
  return masked && !h->valid[i] ? NULL : bytes;
}

/* Rows of an INT32 or INT64 offsets view as int64. */
void strings_offsets_to_host(gcol_column_view offsets, int64_t *out) {
  int64_t const n = offsets.size;
  if (offsets.type.id == GCOL_INT64) {
    GCOL_TEST_OK(gcol_column_copy_to_host(offsets, out, NULL, NULL));
    return;
  }
  assert_int_equal(offsets.type.id, GCOL_INT32);
  int32_t *narrow = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  GCOL_TEST_OK(gcol_column_copy_to_host(offsets, narrow, NULL, NULL));
  for (int64_t i = 0; i < n; ++i) out[i] = narrow[i];
  free(narrow);
}

/* The validity of a LIST column's rows (its mask read through a byte view over the offsets
 * child, which has more bytes than the list has rows). */
void strings_list_validity(const gcol_column *list, uint8_t *valid) {
  gcol_column_view const offsets = gcol_column_get_view(list->children[0]);
  gcol_column_view probe = gcol_column_view_make(
      gcol_data_type_make(GCOL_UINT8), list->size, offsets.data,
      list->null_mask != NULL ? (const uint32_t *)list->null_mask->data : NULL, list->null_count);
  uint8_t *bytes = (uint8_t *)malloc((size_t)list->size + 1);
  GCOL_TEST_OK(gcol_column_copy_to_host(probe, bytes, valid, NULL));
  free(bytes);
}

/* Asserts a STRING output's row i: null when want is NULL, else want's bytes. */
void strings_expect_row(const gcol_host_strings *hs, int64_t i, const char *want, int64_t wn,
                        const char *op, const char *what) {
  int64_t const gn = hs->offsets[i + 1] - hs->offsets[i];
  if ((hs->valid[i] != 0) != (want != NULL)) {
    fail_msg("%s (%s): row %lld validity %d, want %d", op, what, (long long)i, hs->valid[i],
             want != NULL);
  }
  if (want == NULL && gn != 0) {
    fail_msg("%s (%s): null row %lld has %lld bytes", op, what, (long long)i, (long long)gn);
  }
  if (want != NULL &&
      (gn != wn || (wn > 0 && memcmp(hs->chars + hs->offsets[i], want, (size_t)wn) != 0))) {
    fail_msg("%s (%s): row %lld has %lld bytes, want %lld", op, what, (long long)i, (long long)gn,
             (long long)wn);
  }
}

void strings_expect_pieces_table(const gcol_table *out, int64_t n, int64_t most,
                                 const int64_t *counts, const char *const *rows,
                                 const int64_t *const *ranges, const char *op, const char *what) {
  assert_int_equal(out->num_columns, most > 0 ? most : 1);
  for (int32_t j = 0; j < out->num_columns; ++j) {
    gcol_column_view const col = gcol_table_get_view(out).columns[j];
    gcol_host_strings *hs = NULL;
    assert_int_equal(col.type.id, GCOL_STRING);
    assert_int_equal(col.size, n);
    gcol_test_assert_null_count_consistent(col);
    GCOL_TEST_OK(gcol_column_strings_copy_to_host(col, NULL, &hs));
    for (int64_t i = 0; i < n; ++i) {
      if (j < counts[i]) {
        strings_expect_row(hs, i, rows[i] + ranges[i][2 * j],
                           ranges[i][2 * j + 1] - ranges[i][2 * j], op, what);
      } else {
        strings_expect_row(hs, i, NULL, 0, op, what);
      }
    }
    gcol_host_strings_free(hs);
  }
}
