/* Host reference for the filtering tests: see filtering_reference.h. */
#include "filtering_reference.h"

#include <float.h>
#include <math.h>

static void *ref_malloc(size_t bytes) {
  void *p = malloc(bytes > 0 ? bytes : 1);
  if (p == NULL) fail_msg("host allocation of %zu bytes failed", bytes);
  return p;
}

/* Strings that matter: empty, a NUL byte, 1- to 4-byte UTF-8 up to U+10FFFF. */
static const char *const special_strings[] = {
    "", "\0", "a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9D\x84\x9E", "\xF4\x8F\xBF\xBF", "ab"};
static const int64_t special_lengths[] = {0, 1, 1, 2, 3, 4, 4, 2};

static void random_string(gcol_test_rng *rng, int distinct_values, char **s, int64_t *len) {
  uint64_t const r = gcol_test_rng_next(rng);
  if (distinct_values > 0 || r % 4 == 0) {
    int const pool = distinct_values > 0 ? distinct_values : 8;
    int const k = (int)(gcol_test_rng_next(rng) % (uint64_t)pool);
    if (k < 8) {
      *len = special_lengths[k];
      *s = (char *)ref_malloc((size_t)*len + 1);
      memcpy(*s, special_strings[k], (size_t)*len + 1);
      return;
    }
    *len = 3;
    *s = (char *)ref_malloc(4);
    snprintf(*s, 4, "%03d", k % 1000);
    return;
  }
  *len = (int64_t)(gcol_test_rng_next(rng) % 40);
  *s = (char *)ref_malloc((size_t)*len + 1);
  for (int64_t i = 0; i < *len; ++i) (*s)[i] = (char)(0x20 + gcol_test_rng_next(rng) % 95);
  (*s)[*len] = '\0';
}

static void special_float(gcol_test_rng *rng, gcol_type_id id, uint8_t *dst) {
  static const double specials[] = {0.0, -0.0, 1.5, -2.25, INFINITY, -INFINITY, NAN};
  int const k = (int)(gcol_test_rng_next(rng) % 10);
  if (id == GCOL_FLOAT32) {
    float v = k < 7 ? (float)specials[k] : k == 7 ? FLT_MAX : k == 8 ? -FLT_MAX : 1e-40f;
    if (k == 6 && (gcol_test_rng_next(rng) & 1)) v = -NAN; /* another NaN bit pattern */
    memcpy(dst, &v, 4);
  } else {
    double v = k < 7 ? specials[k] : k == 7 ? DBL_MAX : k == 8 ? -DBL_MAX : 4e-320;
    if (k == 6 && (gcol_test_rng_next(rng) & 1)) v = -NAN;
    memcpy(dst, &v, 8);
  }
}

static void random_value(gcol_test_rng *rng, gcol_type_id id, size_t width, int distinct_values,
                         uint8_t *dst) {
  if (gcol_type_is_floating(id) && (distinct_values > 0 || gcol_test_rng_next(rng) % 4 == 0)) {
    if (distinct_values > 0 && gcol_test_rng_next(rng) % 2 == 0) {
      special_float(rng, id, dst);
      return;
    }
  }
  if (distinct_values > 0) {
    uint64_t const v = gcol_test_rng_next(rng) % (uint64_t)distinct_values + 1;
    memset(dst, 0, width);
    if (id == GCOL_FLOAT32) {
      float f = (float)v;
      memcpy(dst, &f, 4);
    } else if (id == GCOL_FLOAT64) {
      double d = (double)v;
      memcpy(dst, &d, 8);
    } else {
      memcpy(dst, &v, width < 8 ? width : 8);
    }
  } else {
    gcol_test_rng_fill(rng, dst, width);
  }
  if (id == GCOL_BOOL8) dst[0] &= 1u;
}

ref_column ref_column_random(gcol_test_rng *rng, gcol_data_type type, int64_t n,
                             gcol_test_validity validity, int distinct_values) {
  ref_column c;
  memset(&c, 0, sizeof c);
  c.type = type;
  c.size = n;
  c.width = gcol_type_size(type.id);
  c.valid = (uint8_t *)ref_malloc((size_t)n);
  gcol_test_fill_valid(rng, validity, c.valid, n);
  c.has_mask = validity != GCOL_TEST_NO_MASK;
  if (type.id == GCOL_STRING) {
    c.strs = (char **)ref_malloc((size_t)n * sizeof(char *));
    c.lens = (int64_t *)ref_malloc((size_t)n * sizeof(int64_t));
    for (int64_t i = 0; i < n; ++i) random_string(rng, distinct_values, &c.strs[i], &c.lens[i]);
  } else {
    c.values = (uint8_t *)ref_malloc((size_t)n * c.width);
    for (int64_t i = 0; i < n; ++i) {
      random_value(rng, type.id, c.width, distinct_values, c.values + (size_t)i * c.width);
    }
  }
  return c;
}

ref_column ref_column_row_ids(int64_t n) {
  ref_column c;
  memset(&c, 0, sizeof c);
  c.type = gcol_data_type_make(GCOL_INT64);
  c.size = n;
  c.width = 8;
  c.values = (uint8_t *)ref_malloc((size_t)n * 8);
  c.valid = (uint8_t *)ref_malloc((size_t)n);
  for (int64_t i = 0; i < n; ++i) {
    memcpy(c.values + i * 8, &i, 8);
    c.valid[i] = 1;
  }
  return c;
}

void ref_column_free(ref_column *c) {
  if (c->strs != NULL) {
    for (int64_t i = 0; i < c->size; ++i) free(c->strs[i]);
  }
  free(c->strs);
  free(c->lens);
  free(c->values);
  free(c->valid);
  memset(c, 0, sizeof *c);
}

void ref_column_to_device(const ref_column *c, gcol_column **out) {
  if (c->type.id == GCOL_STRING) {
    const char **ptrs = (const char **)ref_malloc((size_t)c->size * sizeof(char *));
    for (int64_t i = 0; i < c->size; ++i) {
      ptrs[i] = (c->has_mask && !c->valid[i]) ? NULL : c->strs[i];
    }
    GCOL_TEST_OK(gcol_column_create_strings_from_host(c->size, ptrs, c->lens, NULL, NULL, out));
    free(ptrs);
    if (c->has_mask && (*out)->null_mask == NULL) {
      /* every row valid but a mask was asked for: add an all-valid one */
      gcol_buffer *mask = NULL;
      GCOL_TEST_OK(gcol_bitmask_create(c->size, GCOL_MASK_ALL_VALID, NULL, NULL, &mask));
      GCOL_TEST_OK(gcol_column_set_null_mask(*out, mask, 0));
    }
    return;
  }
  GCOL_TEST_OK(gcol_column_create_from_host(c->type, c->size, c->values,
                                            c->has_mask ? c->valid : NULL, NULL, NULL, out));
}

static uint64_t normalized_bits(const ref_column *c, int64_t row) {
  uint64_t bits = 0;
  const uint8_t *p = c->values + (size_t)row * c->width;
  if (c->type.id == GCOL_FLOAT32) {
    float f;
    memcpy(&f, p, 4);
    if (isnan(f)) return 0x7FC00000u;
    if (f == 0.0f) return 0;
  } else if (c->type.id == GCOL_FLOAT64) {
    double d;
    memcpy(&d, p, 8);
    if (isnan(d)) return 0x7FF8000000000000ull;
    if (d == 0.0) return 0;
  }
  memcpy(&bits, p, c->width < 8 ? c->width : 8);
  return bits;
}

bool ref_values_equal(const ref_column *c, int64_t a, int64_t b) {
  if (c->type.id == GCOL_STRING) {
    return c->lens[a] == c->lens[b] && memcmp(c->strs[a], c->strs[b], (size_t)c->lens[a]) == 0;
  }
  if (c->width == 16) return memcmp(c->values + a * 16, c->values + b * 16, 16) == 0;
  return normalized_bits(c, a) == normalized_bits(c, b);
}

bool ref_rows_equal(const ref_column *const *keys, int32_t num_keys, bool nulls_equal, int64_t a,
                    int64_t b) {
  for (int32_t k = 0; k < num_keys; ++k) {
    bool const va = keys[k]->valid[a] != 0, vb = keys[k]->valid[b] != 0;
    if (va != vb) return false;
    if (!va) {
      if (!nulls_equal) return false;
      continue;
    }
    if (!ref_values_equal(keys[k], a, b)) return false;
  }
  return true;
}

int64_t ref_mask_indices(const ref_column *mask, int64_t offset, int64_t n, int64_t *idx) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (mask->valid[offset + i] && mask->values[offset + i] != 0) idx[count++] = i;
  }
  return count;
}

int64_t ref_drop_nulls_indices(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                               int64_t n, int64_t threshold, int64_t *idx) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t valid = 0;
    for (int32_t k = 0; k < num_keys; ++k) valid += keys[k]->valid[offset + i] != 0;
    if (valid >= threshold) idx[count++] = i;
  }
  return count;
}

static bool ref_is_nan(const ref_column *c, int64_t row) {
  if (!c->valid[row]) return false;
  if (c->type.id == GCOL_FLOAT32) {
    float f;
    memcpy(&f, c->values + row * 4, 4);
    return isnan(f);
  }
  double d;
  memcpy(&d, c->values + row * 8, 8);
  return isnan(d);
}

int64_t ref_drop_nans_indices(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                              int64_t n, int64_t threshold, int64_t *idx) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t not_nan = 0;
    for (int32_t k = 0; k < num_keys; ++k) not_nan += !ref_is_nan(keys[k], offset + i);
    if (not_nan >= threshold) idx[count++] = i;
  }
  return count;
}

/* Keys shifted to the slice: views of the host columns starting at `offset`. */
static void shift_keys(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                       ref_column *shifted, const ref_column **ptrs) {
  for (int32_t k = 0; k < num_keys; ++k) {
    shifted[k] = *keys[k];
    shifted[k].valid += offset;
    if (shifted[k].values != NULL) shifted[k].values += (size_t)offset * shifted[k].width;
    if (shifted[k].strs != NULL) {
      shifted[k].strs += offset;
      shifted[k].lens += offset;
    }
    ptrs[k] = &shifted[k];
  }
}

static uint64_t ref_row_hash(const ref_column *const *keys, int32_t num_keys, int64_t row) {
  uint64_t h = 1469598103934665603ull;
  for (int32_t k = 0; k < num_keys; ++k) {
    const ref_column *c = keys[k];
    uint64_t v = 0x9999;
    if (c->valid[row]) {
      if (c->type.id == GCOL_STRING) {
        v = 0;
        for (int64_t i = 0; i < c->lens[row]; ++i) v = v * 131 + (uint8_t)c->strs[row][i];
        v ^= (uint64_t)c->lens[row] << 40;
      } else if (c->width == 16) {
        uint64_t lo, hi;
        memcpy(&lo, c->values + row * 16, 8);
        memcpy(&hi, c->values + row * 16 + 8, 8);
        v = lo * 31 + hi;
      } else {
        v = normalized_bits(c, row);
      }
    }
    h = (h ^ v) * 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

/* Group id of each row (first row of its group), by a host open-addressing table. */
static void ref_groups(const ref_column *const *keys, int32_t num_keys, int64_t n, bool nulls_equal,
                       int64_t *group) {
  int64_t cap = 2;
  while (cap < 2 * n) cap <<= 1;
  int64_t *table = (int64_t *)ref_malloc((size_t)cap * sizeof(int64_t));
  for (int64_t s = 0; s < cap; ++s) table[s] = -1;
  for (int64_t i = 0; i < n; ++i) {
    bool has_null = false;
    for (int32_t k = 0; k < num_keys; ++k) has_null |= !keys[k]->valid[i];
    if (has_null && !nulls_equal) {
      group[i] = -1;
      continue;
    }
    int64_t s = (int64_t)(ref_row_hash(keys, num_keys, i) & (uint64_t)(cap - 1));
    while (table[s] >= 0 && !ref_rows_equal(keys, num_keys, nulls_equal, table[s], i)) {
      s = (s + 1) & (cap - 1);
    }
    if (table[s] < 0) table[s] = i;
    group[i] = table[s];
  }
  free(table);
}

int64_t ref_distinct_indices(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                             int64_t n, gcol_duplicate_keep keep, bool nulls_equal, int64_t *idx,
                             int64_t *group) {
  ref_column shifted[16];
  const ref_column *ptrs[16];
  if (num_keys > 16) fail_msg("%s", "reference takes at most 16 keys");
  shift_keys(keys, num_keys, offset, shifted, ptrs);
  int64_t *first = (int64_t *)ref_malloc((size_t)n * sizeof(int64_t));
  int64_t *last = (int64_t *)ref_malloc((size_t)n * sizeof(int64_t));
  int64_t *count = (int64_t *)ref_malloc((size_t)n * sizeof(int64_t));
  ref_groups(ptrs, num_keys, n, nulls_equal, group);
  for (int64_t i = 0; i < n; ++i) count[i] = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t const g = group[i];
    if (g < 0) continue;
    if (count[g] == 0) first[g] = i;
    last[g] = i;
    count[g] += 1;
  }
  int64_t out = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t const g = group[i];
    bool kept = g < 0;
    if (g >= 0) {
      switch (keep) {
        case GCOL_KEEP_LAST:
          kept = last[g] == i;
          break;
        case GCOL_KEEP_NONE:
          kept = count[g] == 1;
          break;
        default:
          kept = first[g] == i;
          break; /* ANY: checked by group, not by index */
      }
    }
    if (kept) idx[out++] = i;
  }
  free(first);
  free(last);
  free(count);
  return out;
}

int64_t ref_unique_indices(const ref_column *const *keys, int32_t num_keys, int64_t offset,
                           int64_t n, gcol_duplicate_keep keep, bool nulls_equal, int64_t *idx) {
  ref_column shifted[16];
  const ref_column *ptrs[16];
  if (num_keys > 16) fail_msg("%s", "reference takes at most 16 keys");
  shift_keys(keys, num_keys, offset, shifted, ptrs);
  int64_t out = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool const starts = i == 0 || !ref_rows_equal(ptrs, num_keys, nulls_equal, i - 1, i);
    bool const ends = i == n - 1 || !ref_rows_equal(ptrs, num_keys, nulls_equal, i, i + 1);
    bool kept = keep == GCOL_KEEP_LAST ? ends : keep == GCOL_KEEP_NONE ? starts && ends : starts;
    if (kept) idx[out++] = i;
  }
  return out;
}

static void assert_strings_rows(gcol_column_view actual, const ref_column *src, int64_t offset,
                                const int64_t *idx, int64_t count) {
  gcol_host_strings *h = NULL;
  GCOL_TEST_OK(gcol_column_strings_copy_to_host(actual, NULL, &h));
  for (int64_t j = 0; j < count; ++j) {
    int64_t const r = offset + idx[j];
    bool const valid = src->valid[r] != 0;
    if ((h->valid[j] != 0) != valid) {
      fail_msg("row %lld (source %lld): validity %d, expected %d", (long long)j, (long long)r,
               h->valid[j], (int)valid);
    }
    if (!valid) continue;
    int64_t const len = h->offsets[j + 1] - h->offsets[j];
    if (len != src->lens[r] || memcmp(h->chars + h->offsets[j], src->strs[r], (size_t)len) != 0) {
      fail_msg("row %lld (source %lld): %lld bytes differ from the expected %lld", (long long)j,
               (long long)r, (long long)len, (long long)src->lens[r]);
    }
  }
  gcol_host_strings_free(h);
}

void ref_assert_rows(gcol_column_view actual, const ref_column *src, int64_t offset,
                     const int64_t *idx, int64_t count) {
  if (actual.size != count) {
    fail_msg("result has %lld rows, expected %lld", (long long)actual.size, (long long)count);
  }
  assert_true(gcol_data_type_equal(actual.type, src->type));
  gcol_test_assert_null_count_consistent(actual);
  if (src->type.id == GCOL_STRING) {
    assert_strings_rows(actual, src, offset, idx, count);
    return;
  }
  uint8_t *values = (uint8_t *)ref_malloc((size_t)count * src->width);
  uint8_t *valid = (uint8_t *)ref_malloc((size_t)count);
  for (int64_t j = 0; j < count; ++j) {
    int64_t const r = offset + idx[j];
    memcpy(values + j * src->width, src->values + r * src->width, src->width);
    valid[j] = src->valid[r];
  }
  gcol_test_assert_column_equals_host(actual, values, valid, count);
  free(values);
  free(valid);
}

int64_t *ref_read_i64(gcol_column_view v) {
  int64_t *out = (int64_t *)ref_malloc((size_t)v.size * sizeof(int64_t));
  if (v.size > 0) GCOL_TEST_OK(gcol_column_copy_to_host(v, out, NULL, NULL));
  return out;
}

gcol_column_view ref_slice(gcol_column_view v, int64_t begin, int64_t end) {
  gcol_column_view out;
  GCOL_TEST_OK(gcol_column_view_slice(v, begin, end, &out));
  return out;
}
