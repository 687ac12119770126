/* Host reference for the copying tests: see copying_reference.h. */
#include "copying_reference.h"

#include <cuda_runtime_api.h>
#include <float.h>
#include <math.h>

const gcol_type_id hcol_fixed_types[] = {GCOL_INT8,
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
                                         GCOL_TIMESTAMP_SECONDS,
                                         GCOL_TIMESTAMP_MILLISECONDS,
                                         GCOL_TIMESTAMP_MICROSECONDS,
                                         GCOL_TIMESTAMP_NANOSECONDS,
                                         GCOL_DURATION_DAYS,
                                         GCOL_DURATION_SECONDS,
                                         GCOL_DURATION_MILLISECONDS,
                                         GCOL_DURATION_MICROSECONDS,
                                         GCOL_DURATION_NANOSECONDS,
                                         GCOL_DECIMAL32,
                                         GCOL_DECIMAL64,
                                         GCOL_DECIMAL128};
const size_t hcol_num_fixed_types = sizeof hcol_fixed_types / sizeof hcol_fixed_types[0];

const gcol_type_id hcol_index_types[] = {GCOL_INT8,  GCOL_INT16,  GCOL_INT32,  GCOL_INT64,
                                         GCOL_UINT8, GCOL_UINT16, GCOL_UINT32, GCOL_UINT64};
const size_t hcol_num_index_types = sizeof hcol_index_types / sizeof hcol_index_types[0];

static const char *const kind_names[] = {"fixed", "string", "list<int32>", "list<string>",
                                         "struct<int64,string,list<int32>>"};

const char *hkind_name(hkind kind) { return kind < HK_NUM_KINDS ? kind_names[kind] : "?"; }

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size);
  if (p == NULL) fail_msg("host allocation of %zu x %zu bytes failed", n, size);
  return p;
}

hcol *hcol_new(gcol_data_type type, int64_t size) {
  hcol *h = (hcol *)xcalloc(1, sizeof *h);
  h->type = type;
  h->size = size;
  if (gcol_type_is_fixed_width(type.id)) {
    h->data = (unsigned char *)xcalloc((size_t)size, gcol_type_size(type.id));
  }
  if (type.id == GCOL_STRING || type.id == GCOL_LIST) {
    h->offsets = (int64_t *)xcalloc((size_t)size + 1, sizeof(int64_t));
  }
  return h;
}

void hcol_free(hcol *h) {
  if (h == NULL) return;
  free(h->valid);
  free(h->data);
  free(h->offsets);
  free(h->chars);
  hcol_free(h->values);
  for (int32_t f = 0; f < h->num_fields; ++f) hcol_free(h->fields[f]);
  free(h->fields);
  free(h);
}

bool hcol_is_valid(const hcol *h, int64_t row) { return h->valid == NULL || h->valid[row] != 0; }

static uint8_t *random_valid(gcol_test_rng *rng, gcol_test_validity pattern, int64_t size) {
  if (pattern == GCOL_TEST_NO_MASK) return NULL;
  uint8_t *valid = (uint8_t *)xcalloc((size_t)size, 1);
  gcol_test_fill_valid(rng, pattern, valid, size);
  return valid;
}

/* Edge values at the start of fixed-width columns: MIN/MAX, and NaN/±0/±Inf/subnormals. */
static void put_edge_values(hcol *h) {
  size_t const w = gcol_type_size(h->type.id);
  if (h->type.id == GCOL_FLOAT32) {
    float const v[] = {NAN, -0.0f, 0.0f, INFINITY, -INFINITY, 1e-45f, FLT_MAX, -FLT_MAX};
    for (int64_t i = 0; i < h->size && i < 8; ++i) memcpy(h->data + i * 4, &v[i], 4);
  } else if (h->type.id == GCOL_FLOAT64) {
    double const v[] = {NAN, -0.0, 0.0, INFINITY, -INFINITY, 4.9e-324, DBL_MAX, -DBL_MAX};
    for (int64_t i = 0; i < h->size && i < 8; ++i) memcpy(h->data + i * 8, &v[i], 8);
  } else if (h->size >= 2 && h->type.id != GCOL_BOOL8) {
    memset(h->data, 0xff, w);     /* -1 / MAX */
    memset(h->data + w, 0x00, w); /* 0 / MIN's complement */
    h->data[w + w - 1] = 0x80;    /* MIN of signed types (little-endian) */
  }
}

static const char *const special_strings[] = {"",
                                              "\0",
                                              "a",
                                              "\xC3\xA9",
                                              "\xE2\x82\xAC",
                                              "\xF0\x90\x8D\x88",
                                              "\xF4\x8F\xBF\xBF",
                                              "mixed \xC3\xA9\xE2\x82\xAC\xF0\x90\x8D\x88"};
static const int64_t special_lengths[] = {0, 1, 1, 2, 3, 4, 4, 16};

static hcol *random_strings(gcol_test_rng *rng, int64_t size, gcol_test_validity pattern) {
  hcol *h = hcol_new(gcol_data_type_make(GCOL_STRING), size);
  int64_t capacity = size * 24 + 16, used = 0;
  h->chars = (char *)xcalloc((size_t)capacity, 1);
  for (int64_t i = 0; i < size; ++i) {
    h->offsets[i] = used;
    int64_t const pick = gcol_test_rng_range(rng, 0, 11);
    if (pick < 8) {
      memcpy(h->chars + used, special_strings[pick], (size_t)special_lengths[pick]);
      used += special_lengths[pick];
    } else {
      int64_t const len = gcol_test_rng_range(rng, 0, 20);
      for (int64_t k = 0; k < len; ++k) h->chars[used++] = (char)gcol_test_rng_range(rng, 32, 126);
    }
  }
  h->offsets[size] = used;
  h->valid = random_valid(rng, pattern, size);
  return h;
}

static hcol *random_list(gcol_test_rng *rng, hkind values_kind, int64_t size,
                         gcol_test_validity pattern) {
  hcol *h = hcol_new(gcol_data_type_make(GCOL_LIST), size);
  for (int64_t i = 0; i < size; ++i)
    h->offsets[i + 1] = h->offsets[i] + gcol_test_rng_range(rng, 0, 4);
  h->values = hcol_random(rng, values_kind, GCOL_INT32, h->offsets[size], GCOL_TEST_RANDOM_NULLS);
  h->valid = random_valid(rng, pattern, size);
  return h;
}

hcol *hcol_random(gcol_test_rng *rng, hkind kind, gcol_type_id fixed_id, int64_t size,
                  gcol_test_validity pattern) {
  hcol *h = NULL;
  switch (kind) {
    case HK_FIXED:
      h = hcol_new(gcol_type_is_decimal(fixed_id) ? gcol_data_type_decimal(fixed_id, -2)
                                                  : gcol_data_type_make(fixed_id),
                   size);
      gcol_test_rng_fill(rng, h->data, (size_t)size * gcol_type_size(fixed_id));
      if (fixed_id == GCOL_BOOL8) {
        for (int64_t i = 0; i < size; ++i) h->data[i] &= 1;
      }
      put_edge_values(h);
      h->valid = random_valid(rng, pattern, size);
      return h;
    case HK_STRING:
      return random_strings(rng, size, pattern);
    case HK_LIST_INT32:
      return random_list(rng, HK_FIXED, size, pattern);
    case HK_LIST_STRING:
      return random_list(rng, HK_STRING, size, pattern);
    case HK_STRUCT:
      h = hcol_new(gcol_data_type_make(GCOL_STRUCT), size);
      h->num_fields = 3;
      h->fields = (hcol **)xcalloc(3, sizeof(hcol *));
      h->fields[0] = hcol_random(rng, HK_FIXED, GCOL_INT64, size, GCOL_TEST_RANDOM_NULLS);
      h->fields[1] = hcol_random(rng, HK_STRING, GCOL_EMPTY, size, GCOL_TEST_RANDOM_NULLS);
      h->fields[2] = hcol_random(rng, HK_LIST_INT32, GCOL_EMPTY, size, GCOL_TEST_NO_MASK);
      h->valid = random_valid(rng, pattern, size);
      return h;
    default:
      fail_msg("unknown kind %d", (int)kind);
  }
  return NULL;
}

hcol *hcol_strings(int64_t size, const char *const *strings, const int64_t *lengths) {
  hcol *h = hcol_new(gcol_data_type_make(GCOL_STRING), size);
  int64_t total = 0;
  for (int64_t i = 0; i < size; ++i) {
    if (strings[i] != NULL) total += lengths != NULL ? lengths[i] : (int64_t)strlen(strings[i]);
  }
  h->chars = (char *)xcalloc((size_t)total, 1);
  h->valid = (uint8_t *)xcalloc((size_t)size, 1);
  for (int64_t i = 0; i < size; ++i) {
    int64_t const len =
        strings[i] == NULL ? 0 : (lengths != NULL ? lengths[i] : (int64_t)strlen(strings[i]));
    if (len > 0) memcpy(h->chars + h->offsets[i], strings[i], (size_t)len);
    h->offsets[i + 1] = h->offsets[i] + len;
    h->valid[i] = strings[i] != NULL;
  }
  return h;
}

hcol *hcol_from_scalar(const gcol_scalar *scalar, int64_t rows) {
  hcol *h = hcol_new(scalar->type, rows);
  if (!scalar->is_valid) h->valid = (uint8_t *)xcalloc((size_t)rows, 1);
  if (gcol_type_is_fixed_width(scalar->type.id)) {
    size_t const w = gcol_type_size(scalar->type.id);
    for (int64_t i = 0; i < rows && scalar->is_valid; ++i) {
      memcpy(h->data + i * w, gcol_scalar_get_storage(scalar), w);
    }
    return h;
  }
  int64_t const len = scalar->is_valid ? scalar->string_size : 0;
  h->chars = (char *)xcalloc((size_t)(rows * len), 1);
  for (int64_t i = 0; i < rows; ++i) {
    if (len > 0) memcpy(h->chars + i * len, scalar->string_data, (size_t)len);
    h->offsets[i + 1] = (i + 1) * len;
  }
  return h;
}

/* ------------------------------------------------------------------ reference operations */

hcol *hcol_gather(const hcol *src, const int64_t *rows, int64_t n) {
  hcol *h = hcol_new(src->type, n);
  bool any_null = src->valid != NULL;
  for (int64_t i = 0; i < n; ++i) any_null = any_null || rows[i] < 0;
  if (any_null) {
    h->valid = (uint8_t *)xcalloc((size_t)n, 1);
    for (int64_t i = 0; i < n; ++i) h->valid[i] = rows[i] >= 0 && hcol_is_valid(src, rows[i]);
  }
  if (gcol_type_is_fixed_width(src->type.id)) {
    size_t const w = gcol_type_size(src->type.id);
    for (int64_t i = 0; i < n; ++i) {
      if (rows[i] >= 0) memcpy(h->data + i * w, src->data + rows[i] * w, w);
    }
  } else if (src->type.id == GCOL_STRING || src->type.id == GCOL_LIST) {
    /* A null output row is empty (no chars, no list values), as gcol_gather() writes it. */
    for (int64_t i = 0; i < n; ++i) {
      bool const valid = rows[i] >= 0 && hcol_is_valid(src, rows[i]);
      int64_t const len = valid ? src->offsets[rows[i] + 1] - src->offsets[rows[i]] : 0;
      h->offsets[i + 1] = h->offsets[i] + len;
    }
    int64_t *child_rows = (int64_t *)xcalloc((size_t)h->offsets[n], sizeof(int64_t));
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = h->offsets[i]; k < h->offsets[i + 1]; ++k) {
        child_rows[k] = src->offsets[rows[i]] + (k - h->offsets[i]);
      }
    }
    if (src->type.id == GCOL_STRING) {
      h->chars = (char *)xcalloc((size_t)h->offsets[n], 1);
      for (int64_t k = 0; k < h->offsets[n]; ++k) h->chars[k] = src->chars[child_rows[k]];
    } else {
      h->values = hcol_gather(src->values, child_rows, h->offsets[n]);
    }
    free(child_rows);
  } else if (src->type.id == GCOL_STRUCT) {
    h->num_fields = src->num_fields;
    h->fields = (hcol **)xcalloc((size_t)src->num_fields, sizeof(hcol *));
    for (int32_t f = 0; f < src->num_fields; ++f)
      h->fields[f] = hcol_gather(src->fields[f], rows, n);
  }
  return h;
}

hcol *hcol_slice(const hcol *src, int64_t begin, int64_t end) {
  int64_t *rows = (int64_t *)xcalloc((size_t)(end - begin), sizeof(int64_t));
  for (int64_t i = begin; i < end; ++i) rows[i - begin] = i;
  hcol *h = hcol_gather(src, rows, end - begin);
  free(rows);
  return h;
}

hcol *hcol_concat(hcol *const *parts, int32_t num_parts) {
  int64_t total = 0;
  for (int32_t p = 0; p < num_parts; ++p) total += parts[p]->size;
  hcol *stacked = hcol_new(parts[0]->type, total);
  stacked->valid = (uint8_t *)xcalloc((size_t)total, 1);
  int64_t row = 0;
  if (gcol_type_is_fixed_width(parts[0]->type.id)) {
    size_t const w = gcol_type_size(parts[0]->type.id);
    for (int32_t p = 0; p < num_parts; ++p) {
      memcpy(stacked->data + row * w, parts[p]->data, (size_t)parts[p]->size * w);
      for (int64_t i = 0; i < parts[p]->size; ++i)
        stacked->valid[row + i] = hcol_is_valid(parts[p], i);
      row += parts[p]->size;
    }
  } else if (parts[0]->type.id == GCOL_STRING || parts[0]->type.id == GCOL_LIST) {
    int64_t chars = 0;
    for (int32_t p = 0; p < num_parts; ++p)
      chars += parts[p]->offsets[parts[p]->size] - parts[p]->offsets[0];
    hcol **children = (hcol **)xcalloc((size_t)num_parts, sizeof(hcol *));
    if (parts[0]->type.id == GCOL_STRING) stacked->chars = (char *)xcalloc((size_t)chars, 1);
    int64_t base = 0;
    for (int32_t p = 0; p < num_parts; ++p) {
      hcol const *q = parts[p];
      int64_t const b = q->offsets[0], e = q->offsets[q->size];
      for (int64_t i = 0; i < q->size; ++i) {
        stacked->offsets[row + i] = q->offsets[i] - b + base;
        stacked->valid[row + i] = hcol_is_valid(q, i);
      }
      if (q->type.id == GCOL_STRING) {
        if (e > b) memcpy(stacked->chars + base, q->chars + b, (size_t)(e - b));
      } else {
        children[p] = hcol_slice(q->values, b, e);
      }
      base += e - b;
      row += q->size;
    }
    stacked->offsets[total] = base;
    if (parts[0]->type.id == GCOL_LIST) stacked->values = hcol_concat(children, num_parts);
    for (int32_t p = 0; p < num_parts; ++p) hcol_free(children[p]);
    free(children);
  } else {
    int32_t const nf = parts[0]->num_fields;
    stacked->num_fields = nf;
    stacked->fields = (hcol **)xcalloc((size_t)nf, sizeof(hcol *));
    hcol **pieces = (hcol **)xcalloc((size_t)num_parts, sizeof(hcol *));
    for (int32_t f = 0; f < nf; ++f) {
      for (int32_t p = 0; p < num_parts; ++p) pieces[p] = parts[p]->fields[f];
      stacked->fields[f] = hcol_concat(pieces, num_parts);
    }
    free(pieces);
    for (int32_t p = 0; p < num_parts; ++p) {
      for (int64_t i = 0; i < parts[p]->size; ++i)
        stacked->valid[row + i] = hcol_is_valid(parts[p], i);
      row += parts[p]->size;
    }
  }
  return stacked;
}

/* ------------------------------------------------------------------ device round trip */

static gcol_stream stream_for_tests(void) { return NULL; }

#define HCOL_CUDA(call)                                                                   \
  do {                                                                                    \
    cudaError_t hcol_err = (call);                                                        \
    if (hcol_err != cudaSuccess) fail_msg("%s: %s", #call, cudaGetErrorString(hcol_err)); \
  } while (0)

static gcol_buffer *upload_mask(const hcol *h, gcol_stream stream, int64_t *null_count) {
  *null_count = 0;
  if (h->valid == NULL) return NULL;
  size_t const bytes = gcol_bitmask_allocation_size(h->size);
  uint32_t *words = (uint32_t *)xcalloc(bytes / 4 + 1, 4);
  memset(words, 0xff, bytes); /* garbage (set bits) in the padding */
  for (int64_t i = 0; i < h->size; ++i) {
    if (!h->valid[i]) {
      gcol_bit_clear(words, i);
      ++*null_count;
    }
  }
  gcol_buffer *mask = NULL;
  GCOL_TEST_OK(gcol_buffer_create_copy(words, bytes, stream, NULL, &mask));
  free(words);
  return mask;
}

static gcol_column *upload_offsets(const hcol *h, bool int64_offsets, gcol_stream stream) {
  gcol_column *col = NULL;
  if (int64_offsets) {
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), h->size + 1,
                                              h->offsets, NULL, stream, NULL, &col));
  } else {
    int32_t *narrow = (int32_t *)xcalloc((size_t)h->size + 1, sizeof(int32_t));
    for (int64_t i = 0; i <= h->size; ++i) narrow[i] = (int32_t)h->offsets[i];
    GCOL_TEST_OK(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), h->size + 1, narrow,
                                              NULL, stream, NULL, &col));
    free(narrow);
  }
  return col;
}

gcol_column *hcol_to_device(const hcol *h, bool int64_offsets, gcol_stream stream) {
  int64_t null_count = 0;
  gcol_buffer *mask = upload_mask(h, stream, &null_count);
  gcol_column *out = NULL;
  if (gcol_type_is_fixed_width(h->type.id)) {
    gcol_buffer *data = NULL;
    GCOL_TEST_OK(gcol_buffer_create_copy(h->data, (size_t)h->size * gcol_type_size(h->type.id),
                                         stream, NULL, &data));
    GCOL_TEST_OK(gcol_column_make(h->type, h->size, data, mask, null_count, NULL, 0, &out));
  } else if (h->type.id == GCOL_STRING) {
    gcol_buffer *chars = NULL;
    GCOL_TEST_OK(
        gcol_buffer_create_copy(h->chars, (size_t)h->offsets[h->size], stream, NULL, &chars));
    GCOL_TEST_OK(gcol_column_make_strings(h->size, upload_offsets(h, int64_offsets, stream), chars,
                                          mask, null_count, &out));
  } else if (h->type.id == GCOL_LIST) {
    gcol_column *values = hcol_to_device(h->values, int64_offsets, stream);
    GCOL_TEST_OK(gcol_column_make_list(h->size, upload_offsets(h, int64_offsets, stream), values,
                                       mask, null_count, &out));
  } else {
    gcol_column **fields = (gcol_column **)xcalloc((size_t)h->num_fields, sizeof(gcol_column *));
    for (int32_t f = 0; f < h->num_fields; ++f) {
      fields[f] = hcol_to_device(h->fields[f], int64_offsets, stream);
    }
    GCOL_TEST_OK(gcol_column_make_struct(h->size, fields, h->num_fields, mask, null_count, &out));
    free(fields);
  }
  return out;
}

gcol_column_view hcol_to_device_sliced(const hcol *h, int64_t offset, bool int64_offsets,
                                       gcol_test_rng *rng, gcol_column **owner) {
  hkind kind = HK_FIXED;
  if (h->type.id == GCOL_STRING) kind = HK_STRING;
  if (h->type.id == GCOL_STRUCT) kind = HK_STRUCT;
  if (h->type.id == GCOL_LIST) {
    kind = h->values->type.id == GCOL_STRING ? HK_LIST_STRING : HK_LIST_INT32;
  }
  hcol *prefix = hcol_random(rng, kind, h->type.id, offset,
                             h->valid != NULL ? GCOL_TEST_RANDOM_NULLS : GCOL_TEST_NO_MASK);
  if (kind == HK_FIXED) prefix->type = h->type; /* decimal scale */
  if (kind == HK_LIST_INT32 && prefix->values != NULL) prefix->values->type = h->values->type;
  hcol *parts[2] = {prefix, (hcol *)h};
  hcol *whole = hcol_concat(parts, 2);
  if (h->valid == NULL) { /* keep "no mask" when the input has none */
    free(whole->valid);
    whole->valid = NULL;
  }
  *owner = hcol_to_device(whole, int64_offsets, stream_for_tests());
  gcol_column_view view;
  GCOL_TEST_OK(
      gcol_column_view_slice(gcol_column_get_view(*owner), offset, offset + h->size, &view));
  hcol_free(whole);
  hcol_free(prefix);
  return view;
}

static uint8_t *download_valid(gcol_column_view v) {
  if (v.null_mask == NULL) return NULL;
  uint8_t *valid = (uint8_t *)xcalloc((size_t)v.size, 1);
  if (v.size == 0) return valid;
  int64_t const first = gcol_bit_word_index(v.offset);
  int64_t const last = gcol_bit_word_index(v.offset + v.size - 1);
  uint32_t *words = (uint32_t *)xcalloc((size_t)(last - first + 1), 4);
  HCOL_CUDA(cudaMemcpy(words, v.null_mask + first, (size_t)(last - first + 1) * 4,
                       cudaMemcpyDeviceToHost));
  int64_t nulls = 0;
  for (int64_t i = 0; i < v.size; ++i) {
    valid[i] = gcol_bit_is_set(words, v.offset + i - first * 32);
    nulls += !valid[i];
  }
  free(words);
  if (v.null_count != GCOL_UNKNOWN_NULL_COUNT && v.null_count != nulls) {
    fail_msg("null_count %lld, but the mask holds %lld nulls", (long long)v.null_count,
             (long long)nulls);
  }
  return valid;
}

static int64_t *download_offsets(gcol_column_view v) {
  int64_t *offsets = (int64_t *)xcalloc((size_t)v.size + 1, sizeof(int64_t));
  if (v.size == 0 && (v.num_children == 0 || v.children[0].data == NULL)) return offsets;
  gcol_column_view const oc = v.children[GCOL_OFFSETS_CHILD];
  size_t const w = gcol_type_size(oc.type.id);
  if (w != 4 && w != 8) fail_msg("offsets of type %s", gcol_type_name(oc.type.id));
  unsigned char *raw = (unsigned char *)xcalloc((size_t)v.size + 1, w);
  HCOL_CUDA(cudaMemcpy(raw, (const unsigned char *)oc.data + (size_t)(oc.offset + v.offset) * w,
                       ((size_t)v.size + 1) * w, cudaMemcpyDeviceToHost));
  for (int64_t i = 0; i <= v.size; ++i) {
    offsets[i] = w == 4 ? ((int32_t *)raw)[i] : ((int64_t *)raw)[i];
  }
  free(raw);
  for (int64_t i = 0; i < v.size; ++i) {
    if (offsets[i + 1] < offsets[i]) fail_msg("descending offsets at row %lld", (long long)i);
  }
  return offsets;
}

hcol *hcol_from_device(gcol_column_view v) {
  hcol *h = (hcol *)xcalloc(1, sizeof *h);
  h->type = v.type;
  h->size = v.size;
  h->valid = download_valid(v);
  if (gcol_type_is_fixed_width(v.type.id)) {
    size_t const w = gcol_type_size(v.type.id);
    h->data = (unsigned char *)xcalloc((size_t)v.size, w);
    if (v.size > 0) {
      HCOL_CUDA(cudaMemcpy(h->data, (const unsigned char *)v.data + (size_t)v.offset * w,
                           (size_t)v.size * w, cudaMemcpyDeviceToHost));
    }
  } else if (v.type.id == GCOL_STRING || v.type.id == GCOL_LIST) {
    h->offsets = download_offsets(v);
    int64_t const b = h->offsets[0], e = h->offsets[v.size];
    for (int64_t i = 0; i <= v.size; ++i) h->offsets[i] -= b;
    if (v.type.id == GCOL_STRING) {
      h->chars = (char *)xcalloc((size_t)(e - b), 1);
      if (e > b) {
        HCOL_CUDA(cudaMemcpy(h->chars, (const char *)v.data + b, (size_t)(e - b),
                             cudaMemcpyDeviceToHost));
      }
    } else {
      gcol_column_view child = v.children[GCOL_LIST_VALUES_CHILD];
      child.offset += b;
      child.size = e - b;
      child.null_count = GCOL_UNKNOWN_NULL_COUNT;
      h->values = hcol_from_device(child);
    }
  } else if (v.type.id == GCOL_STRUCT) {
    h->num_fields = v.num_children;
    h->fields = (hcol **)xcalloc((size_t)v.num_children, sizeof(hcol *));
    for (int32_t f = 0; f < v.num_children; ++f) {
      gcol_column_view field = v.children[f];
      field.offset += v.offset;
      field.size = v.size;
      field.null_count = GCOL_UNKNOWN_NULL_COUNT;
      h->fields[f] = hcol_from_device(field);
    }
  } else {
    fail_msg("cannot read %s columns", gcol_type_name(v.type.id));
  }
  return h;
}

/* ------------------------------------------------------------------ comparison */

static bool rows_equal(const hcol *a, int64_t ra, const hcol *b, int64_t rb) {
  bool const va = hcol_is_valid(a, ra), vb = hcol_is_valid(b, rb);
  if (va != vb) return false;
  if (!va) return true;
  if (gcol_type_is_fixed_width(a->type.id)) {
    size_t const w = gcol_type_size(a->type.id);
    return memcmp(a->data + ra * w, b->data + rb * w, w) == 0;
  }
  if (a->type.id == GCOL_STRING || a->type.id == GCOL_LIST) {
    int64_t const la = a->offsets[ra + 1] - a->offsets[ra];
    int64_t const lb = b->offsets[rb + 1] - b->offsets[rb];
    if (la != lb) return false;
    if (a->type.id == GCOL_STRING) {
      return la == 0 ||
             memcmp(a->chars + a->offsets[ra], b->chars + b->offsets[rb], (size_t)la) == 0;
    }
    for (int64_t k = 0; k < la; ++k) {
      if (!rows_equal(a->values, a->offsets[ra] + k, b->values, b->offsets[rb] + k)) return false;
    }
    return true;
  }
  for (int32_t f = 0; f < a->num_fields; ++f) {
    if (!rows_equal(a->fields[f], ra, b->fields[f], rb)) return false;
  }
  return true;
}

void hcol_assert_equal(const hcol *expected, const hcol *actual, const char *context) {
  if (!gcol_data_type_equal(expected->type, actual->type)) {
    fail_msg("%s: type %s, expected %s", context, gcol_type_name(actual->type.id),
             gcol_type_name(expected->type.id));
  }
  if (expected->size != actual->size) {
    fail_msg("%s: %lld rows, expected %lld", context, (long long)actual->size,
             (long long)expected->size);
  }
  if (expected->type.id == GCOL_STRUCT && expected->num_fields != actual->num_fields) {
    fail_msg("%s: %d fields, expected %d", context, (int)actual->num_fields,
             (int)expected->num_fields);
  }
  for (int64_t i = 0; i < expected->size; ++i) {
    if (!rows_equal(expected, i, actual, i)) {
      fail_msg("%s: row %lld differs (expected %s, got %s)", context, (long long)i,
               hcol_is_valid(expected, i) ? "valid" : "null",
               hcol_is_valid(actual, i) ? "valid" : "null");
    }
  }
}

void hcol_assert_device_equal(const hcol *expected, gcol_column_view actual, const char *context) {
  hcol *got = hcol_from_device(actual);
  hcol_assert_equal(expected, got, context);
  hcol_free(got);
}

gcol_column *hcol_index_column(gcol_type_id id, const int64_t *values, int64_t n,
                               const uint8_t *valid, gcol_stream stream) {
  size_t const w = gcol_type_size(id);
  unsigned char *raw = (unsigned char *)xcalloc((size_t)n, w);
  for (int64_t i = 0; i < n; ++i) memcpy(raw + i * w, &values[i], w); /* little-endian */
  gcol_column *col = NULL;
  GCOL_TEST_OK(
      gcol_column_create_from_host(gcol_data_type_make(id), n, raw, valid, stream, NULL, &col));
  free(raw);
  return col;
}

int hcol_fail_nth_loop(gcol_status (*op)(void *ctx), void *ctx, const char *name) {
  int failures = 0;
  for (int64_t n = 1; n < 1000; ++n) {
    gcol_mr *failing = NULL, *previous = NULL;
    GCOL_TEST_OK(gcol_mr_fail_nth_create(gcol_test_stats_mr(), n, &failing));
    int64_t const before = gcol_test_live_bytes();
    GCOL_TEST_OK(gcol_mr_set_default(failing, &previous));
    gcol_status const st = op(ctx);
    GCOL_TEST_OK(gcol_mr_set_default(previous, NULL));
    int64_t const seen = gcol_mr_fail_nth_count(failing);
    gcol_mr_destroy(failing);
    if (st == GCOL_OK) {
      if (gcol_test_live_bytes() != before) {
        fail_msg("%s: %lld bytes live after a successful run", name,
                 (long long)(gcol_test_live_bytes() - before));
      }
      if (seen >= n) fail_msg("%s succeeded although allocation %lld failed", name, (long long)n);
      return failures;
    }
    if (st != GCOL_ERROR_OUT_OF_MEMORY) {
      fail_msg("%s with allocation %lld failing: %s (%s)", name, (long long)n,
               gcol_status_string(st), gcol_last_error());
    }
    if (gcol_test_live_bytes() != before) {
      fail_msg("%s with allocation %lld failing leaked %lld bytes", name, (long long)n,
               (long long)(gcol_test_live_bytes() - before));
    }
    ++failures;
  }
  fail_msg("%s still failing after 1000 allocations", name);
  return failures;
}
