/*
 * GPU tests of gcol_pack / gcol_unpack / serialize / deserialize: random tables of every
 * layout (every fixed-width type, strings with INT32 and INT64 offsets, list<int32>,
 * list<string>, struct<int64, string, list<int32>>, list<struct<...>>), sliced at every offset
 * of TESTING.md (and slices of slices, zero-length slices at the end), every validity
 * pattern, packed, unpacked zero-copy and compared logically with the plain-C reference of
 * the slice; the same through host bytes; layout properties of the packed buffer; empty
 * tables; allocation failure at every point.
 */
#include <cuda_runtime_api.h>

#include "../copying/copying_reference.h"
#include "gcol/pack.h"

#define CUDA_OK(call)                                                         \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) fail_msg("%s: %s", #call, cudaGetErrorString(e_)); \
  } while (0)

/* list<struct<int64, string, list<int32>>> of `size` rows. */
static hcol *random_list_of_struct(gcol_test_rng *rng, int64_t size, gcol_test_validity pattern) {
  hcol *h = hcol_new(gcol_data_type_make(GCOL_LIST), size);
  for (int64_t i = 0; i < size; ++i)
    h->offsets[i + 1] = h->offsets[i] + gcol_test_rng_range(rng, 0, 3);
  h->values = hcol_random(rng, HK_STRUCT, GCOL_EMPTY, h->offsets[size], GCOL_TEST_RANDOM_NULLS);
  if (pattern != GCOL_TEST_NO_MASK) {
    h->valid = (uint8_t *)calloc((size_t)size + 1, 1);
    gcol_test_fill_valid(rng, pattern, h->valid, size);
  }
  return h;
}

/* Kinds of columns: the reference's, and list<struct>. */
#define KIND_LIST_STRUCT HK_NUM_KINDS
#define NUM_KINDS (HK_NUM_KINDS + 1)

static hcol *random_column(gcol_test_rng *rng, int kind, gcol_type_id fixed, int64_t size,
                           gcol_test_validity pattern) {
  if (kind == KIND_LIST_STRUCT) return random_list_of_struct(rng, size, pattern);
  hcol *h = hcol_random(rng, (hkind)kind, fixed, size, pattern);
  if (kind == HK_FIXED && gcol_type_is_decimal(fixed)) h->type.scale = -3;
  return h;
}

/* Reads offset `i` of a STRING / LIST view's offsets child (view offset honoured). */
static int64_t read_offset(gcol_column_view v, int64_t i) {
  gcol_column_view const o = v.children[GCOL_OFFSETS_CHILD];
  int64_t const at = o.offset + v.offset + i;
  if (o.type.id == GCOL_INT32) {
    int32_t x = 0;
    CUDA_OK(cudaMemcpy(&x, (const int32_t *)o.data + at, 4, cudaMemcpyDeviceToHost));
    return x;
  }
  int64_t x = 0;
  CUDA_OK(cudaMemcpy(&x, (const int64_t *)o.data + at, 8, cudaMemcpyDeviceToHost));
  return x;
}

/* Layout properties of an unpacked column (recursively): offset 0, buffers aligned and
 * inside the packed buffer, offsets rebased to 0, mask padding bits zero, offsets width kept. */
static void check_packed_layout(gcol_column_view v, gcol_column_view input, const char *base,
                                size_t bytes, const char *context) {
  assert_int_equal(v.offset, 0);
  assert_int_equal(v.size, input.size);
  if (v.data != NULL) {
    assert_true((const char *)v.data >= base && (const char *)v.data < base + bytes);
    assert_int_equal(((const char *)v.data - base) % GCOL_PACK_ALIGNMENT, 0);
  }
  if (v.null_mask != NULL) {
    assert_int_equal(((const char *)v.null_mask - base) % GCOL_PACK_ALIGNMENT, 0);
    size_t const words = gcol_bitmask_allocation_size(v.size) / 4;
    uint32_t *host = (uint32_t *)calloc(words + 1, 4);
    CUDA_OK(cudaMemcpy(host, v.null_mask, words * 4, cudaMemcpyDeviceToHost));
    for (int64_t b = v.size; b < (int64_t)words * 32; ++b) {
      if (gcol_bit_is_set(host, b))
        fail_msg("%s: mask padding bit %lld set", context, (long long)b);
    }
    free(host);
  }
  if ((v.type.id == GCOL_STRING || v.type.id == GCOL_LIST) && v.size > 0) {
    assert_int_equal(read_offset(v, 0), 0);
    assert_int_equal(v.children[GCOL_OFFSETS_CHILD].type.id,
                     input.children[GCOL_OFFSETS_CHILD].type.id);
    if (v.type.id == GCOL_LIST) {
      gcol_column_view values_in;
      int64_t const b = read_offset(input, 0), e = read_offset(input, input.size);
      GCOL_TEST_OK(
          gcol_column_view_slice(input.children[GCOL_LIST_VALUES_CHILD], b, e, &values_in));
      assert_int_equal(read_offset(v, v.size), e - b);
      check_packed_layout(v.children[GCOL_LIST_VALUES_CHILD], values_in, base, bytes, context);
    }
  }
  if (v.type.id == GCOL_STRUCT) {
    assert_int_equal(v.num_children, input.num_children);
    for (int32_t f = 0; f < v.num_children; ++f) {
      gcol_column_view field;
      GCOL_TEST_OK(gcol_column_view_slice(input.children[f], input.offset,
                                          input.offset + input.size, &field));
      check_packed_layout(v.children[f], field, base, bytes, context);
    }
  }
}

/* Packs `views`, unpacks, compares with `expected`; then through serialized bytes. */
static void check_pack(gcol_column_view *views, hcol **expected, int32_t num, int64_t rows,
                       bool serialize, const char *context) {
  gcol_table_view const t = {num, rows, views};
  gcol_packed_table *packed = NULL;
  GCOL_TEST_OK(gcol_pack(t, &packed, NULL, NULL));
  assert_non_null(packed);
  gcol_unpacked_table *u = NULL;
  GCOL_TEST_OK(gcol_unpack(packed->metadata, packed->metadata_size, packed->data->data,
                           packed->data->size, &u));
  assert_int_equal(u->table.num_columns, num);
  assert_int_equal(u->table.num_rows, num == 0 ? 0 : rows);
  for (int32_t c = 0; c < num; ++c) {
    char ctx[256];
    snprintf(ctx, sizeof ctx, "%s: column %d", context, (int)c);
    hcol_assert_device_equal(expected[c], u->table.columns[c], ctx);
    check_packed_layout(u->table.columns[c], views[c], (const char *)packed->data->data,
                        packed->data->size, ctx);
  }
  gcol_unpacked_table_free(u);
  if (serialize) {
    uint8_t *bytes = NULL;
    size_t size = 0;
    GCOL_TEST_OK(gcol_packed_table_serialize(packed, &bytes, &size, NULL));
    assert_int_equal(size,
                     GCOL_PACK_SERIAL_HEADER_SIZE + packed->metadata_size + packed->data->size);
    gcol_packed_table *back = NULL;
    GCOL_TEST_OK(gcol_packed_table_deserialize(bytes, size, &back, NULL, NULL));
    free(bytes);
    assert_int_equal(back->metadata_size, packed->metadata_size);
    assert_memory_equal(back->metadata, packed->metadata, packed->metadata_size);
    GCOL_TEST_OK(
        gcol_unpack(back->metadata, back->metadata_size, back->data->data, back->data->size, &u));
    for (int32_t c = 0; c < num; ++c) {
      char ctx[256];
      snprintf(ctx, sizeof ctx, "%s: column %d after serialize", context, (int)c);
      hcol_assert_device_equal(expected[c], u->table.columns[c], ctx);
    }
    gcol_unpacked_table_free(u);
    gcol_packed_table_free(back);
  }
  gcol_packed_table_free(packed);
}

/* One table of `num` columns of given kinds: each generated with `offset + len + tail` rows,
 * uploaded whole, then sliced to [offset, offset + len) (optionally as a slice of a slice). */
static void check_table(gcol_test_rng *rng, const int *kinds, const gcol_type_id *fixed,
                        int32_t num, int64_t offset, int64_t len, gcol_test_validity pattern,
                        bool int64_offsets, bool slice_of_slice, bool serialize,
                        const char *context) {
  hcol *whole[16], *expected[16];
  gcol_column *owners[16];
  gcol_column_view views[16];
  int64_t const tail = gcol_test_rng_range(rng, 0, 5);
  int64_t const total = offset + len + tail;
  for (int32_t c = 0; c < num; ++c) {
    whole[c] = random_column(rng, kinds[c], fixed[c], total, pattern);
    owners[c] = hcol_to_device(whole[c], int64_offsets, NULL);
    if (slice_of_slice) {
      gcol_column_view outer;
      int64_t const first = offset / 2;
      GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(owners[c]), first, total, &outer));
      GCOL_TEST_OK(gcol_column_view_slice(outer, offset - first, offset - first + len, &views[c]));
    } else {
      GCOL_TEST_OK(
          gcol_column_view_slice(gcol_column_get_view(owners[c]), offset, offset + len, &views[c]));
    }
    expected[c] = hcol_slice(whole[c], offset, offset + len);
  }
  check_pack(views, expected, num, len, serialize, context);
  for (int32_t c = 0; c < num; ++c) {
    hcol_free(whole[c]);
    hcol_free(expected[c]);
    gcol_column_free(owners[c]);
  }
}

static const char *kind_name(int kind) {
  return kind == KIND_LIST_STRUCT ? "list<struct>" : hkind_name((hkind)kind);
}

/* ------------------------------------------------------------------ tests */

static void test_pack_every_fixed_type(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(901);
  for (size_t t = 0; t < hcol_num_fixed_types; ++t) {
    for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
      int64_t const len = gcol_test_cap(gcol_test_sizes[s]);
      int64_t const offset = gcol_test_offsets[(s + t) % gcol_test_num_offsets];
      gcol_test_validity const p = (gcol_test_validity)((s + t) % GCOL_TEST_NUM_VALIDITY);
      int const kind = HK_FIXED;
      char ctx[160];
      snprintf(ctx, sizeof ctx, "%s, %lld rows at %lld, %s", gcol_type_name(hcol_fixed_types[t]),
               (long long)len, (long long)offset, gcol_test_validity_name(p));
      check_table(&rng, &kind, &hcol_fixed_types[t], 1, offset, len, p, false, false, s % 5 == 0,
                  ctx);
    }
  }
}

/* Every kind at every slice offset and validity pattern, INT32 and INT64 offsets. */
static void test_pack_every_kind_offset_validity(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(902);
  for (int kind = HK_STRING; kind < NUM_KINDS; ++kind) {
    for (size_t o = 0; o < gcol_test_num_offsets; ++o) {
      for (int p = 0; p < GCOL_TEST_NUM_VALIDITY; ++p) {
        int64_t const len = gcol_test_rng_range(&rng, 0, 150);
        gcol_type_id const fixed = GCOL_EMPTY;
        bool const wide = (o + (size_t)p) % 2 == 1;
        char ctx[160];
        snprintf(ctx, sizeof ctx, "%s, %lld rows at %lld, %s, %s offsets", kind_name(kind),
                 (long long)len, (long long)gcol_test_offsets[o],
                 gcol_test_validity_name((gcol_test_validity)p), wide ? "INT64" : "INT32");
        check_table(&rng, &kind, &fixed, 1, gcol_test_offsets[o], len, (gcol_test_validity)p, wide,
                    false, p == 2, ctx);
      }
    }
  }
}

/* A table of every kind together over the size axis; slices of slices. */
static void test_pack_mixed_tables_over_sizes(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(903);
  int kinds[9] = {HK_FIXED,      HK_FIXED,       HK_FIXED,  HK_FIXED,        HK_STRING,
                  HK_LIST_INT32, HK_LIST_STRING, HK_STRUCT, KIND_LIST_STRUCT};
  gcol_type_id fixed[9] = {GCOL_INT64, GCOL_BOOL8, GCOL_DECIMAL128, GCOL_TIMESTAMP_DAYS, GCOL_EMPTY,
                           GCOL_EMPTY, GCOL_EMPTY, GCOL_EMPTY,      GCOL_EMPTY};
  for (size_t s = 0; s < gcol_test_num_sizes; ++s) {
    int64_t const len =
        gcol_test_cap(gcol_test_sizes[s] > 4097 ? gcol_test_sizes[s] / 4 : gcol_test_sizes[s]);
    for (int v = 0; v < 2; ++v) {
      int64_t const offset = gcol_test_offsets[(2 * s + (size_t)v) % gcol_test_num_offsets];
      gcol_test_validity const p = (gcol_test_validity)((s + (size_t)v) % GCOL_TEST_NUM_VALIDITY);
      char ctx[160];
      snprintf(ctx, sizeof ctx, "mixed table, %lld rows at %lld, %s, %s", (long long)len,
               (long long)offset, gcol_test_validity_name(p),
               v == 1 ? "slice of a slice" : "slice");
      check_table(&rng, kinds, fixed, 9, offset, len, p, s % 2 == 1, v == 1, s % 3 == 0, ctx);
    }
  }
}

/* Zero-length slices at the end, zero rows, zero columns. */
static void test_pack_empty(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(904);
  /* No columns. */
  check_pack(NULL, NULL, 0, 0, true, "no columns");
  /* A zero-length slice at the end of each kind; and 0-row columns. */
  for (int kind = HK_FIXED; kind < NUM_KINDS; ++kind) {
    gcol_type_id const fixed = GCOL_INT16;
    check_table(&rng, &kind, &fixed, 1, 40, 0, GCOL_TEST_RANDOM_NULLS, kind % 2 == 0, false, true,
                kind_name(kind));
    check_table(&rng, &kind, &fixed, 1, 0, 0, GCOL_TEST_NO_MASK, false, false, true,
                kind_name(kind));
  }
  /* Columns created empty by gcol (no children for strings, maybe). */
  gcol_column *empty[3] = {NULL, NULL, NULL};
  hcol *h[3];
  gcol_column_view views[3];
  for (int k = 0; k < 3; ++k) {
    h[k] = random_column(&rng,
                         k == 0   ? HK_FIXED
                         : k == 1 ? HK_STRING
                                  : HK_LIST_INT32,
                         GCOL_FLOAT32, 3, GCOL_TEST_RANDOM_NULLS);
    gcol_column *full = hcol_to_device(h[k], false, NULL);
    GCOL_TEST_OK(gcol_column_empty_like(gcol_column_get_view(full), NULL, NULL, &empty[k]));
    gcol_column_free(full);
    views[k] = gcol_column_get_view(empty[k]);
    hcol *e = hcol_slice(h[k], 0, 0);
    hcol_free(h[k]);
    h[k] = e;
  }
  check_pack(views, h, 3, 0, true, "empty_like columns");
  for (int k = 0; k < 3; ++k) {
    gcol_column_free(empty[k]);
    hcol_free(h[k]);
  }
}

/* Strings: "" vs null, all empty, all null, long strings; INT64 offsets forced by threshold. */
static void test_pack_string_cases(void **state) {
  (void)state;
  static const char *const strs[] = {"",   NULL,          "a", "", "\xF4\x8F\xBF\xBF",
                                     NULL, "hello world", ""};
  int64_t lens[8];
  for (int i = 0; i < 8; ++i) lens[i] = strs[i] == NULL ? 0 : (int64_t)strlen(strs[i]);
  hcol *h = hcol_strings(8, strs, lens);
  for (int64_t b = 0; b <= 8; ++b) {
    for (int64_t e = b; e <= 8; ++e) {
      for (int wide = 0; wide < 2; ++wide) {
        gcol_column *owner = hcol_to_device(h, wide == 1, NULL);
        gcol_column_view v;
        GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(owner), b, e, &v));
        hcol *expected = hcol_slice(h, b, e);
        char ctx[96];
        snprintf(ctx, sizeof ctx, "strings [%lld, %lld) %s", (long long)b, (long long)e,
                 wide ? "INT64" : "INT32");
        check_pack(&v, &expected, 1, e - b, b == 0, ctx);
        hcol_free(expected);
        gcol_column_free(owner);
      }
    }
  }
  hcol_free(h);
  /* A long string (> 64 KiB) with INT64 offsets from the threshold setting. */
  {
    int64_t const big = 70000;
    char *s = (char *)malloc((size_t)big);
    for (int64_t i = 0; i < big; ++i) s[i] = (char)('a' + i % 26);
    const char *const two[2] = {s, "x"};
    int64_t const two_lens[2] = {big, 1};
    hcol *hl = hcol_strings(2, two, two_lens);
    int64_t const old = gcol_set_large_offsets_threshold(16);
    gcol_column *owner = NULL;
    hcol *rev[2] = {hl, hl};
    hcol *cat = hcol_concat(rev, 2);
    GCOL_TEST_OK(gcol_column_create_strings_from_host_offsets(cat->size, cat->chars, cat->offsets,
                                                              NULL, NULL, NULL, &owner));
    gcol_set_large_offsets_threshold(old);
    gcol_column_view v;
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(owner), 1, 4, &v));
    hcol *expected = hcol_slice(cat, 1, 4);
    free(expected->valid);
    expected->valid = NULL;
    check_pack(&v, &expected, 1, 3, true, "long strings, threshold offsets");
    hcol_free(expected);
    hcol_free(cat);
    hcol_free(hl);
    gcol_column_free(owner);
    free(s);
  }
}

/* Null counts: known counts are kept, unknown ones (slices) counted; views report them. */
static void test_pack_null_counts(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(905);
  hcol *h = hcol_random(&rng, HK_FIXED, GCOL_INT32, 1000, GCOL_TEST_RANDOM_NULLS);
  gcol_column *owner = hcol_to_device(h, false, NULL);
  gcol_column_view views[2];
  views[0] = gcol_column_get_view(owner);
  GCOL_TEST_OK(gcol_column_view_slice(views[0], 0, 1000, &views[1]));
  views[1].null_count = GCOL_UNKNOWN_NULL_COUNT;
  gcol_table_view const t = {2, 1000, views};
  gcol_packed_table *packed = NULL;
  GCOL_TEST_OK(gcol_pack(t, &packed, NULL, NULL));
  gcol_unpacked_table *u = NULL;
  GCOL_TEST_OK(gcol_unpack(packed->metadata, packed->metadata_size, packed->data->data,
                           packed->data->size, &u));
  int64_t nulls = 0;
  for (int64_t i = 0; i < 1000; ++i) nulls += !hcol_is_valid(h, i);
  assert_int_equal(u->table.columns[0].null_count, nulls);
  assert_int_equal(u->table.columns[1].null_count, nulls);
  gcol_test_assert_null_count_consistent(u->table.columns[1]);
  gcol_unpacked_table_free(u);
  gcol_packed_table_free(packed);
  gcol_column_free(owner);
  hcol_free(h);
}

static void test_pack_large(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(906);
  int kinds[4] = {HK_FIXED, HK_FIXED, HK_FIXED, HK_STRING};
  gcol_type_id fixed[4] = {GCOL_INT64, GCOL_INT32, GCOL_FLOAT64, GCOL_EMPTY};
  /* > 1 MiB buffers take the cudaMemcpyAsync path. */
  check_table(&rng, kinds, fixed, 4, 33, gcol_test_cap(300000), GCOL_TEST_RANDOM_NULLS, false,
              false, true, "large, sliced");
  check_table(&rng, kinds, fixed, 4, 0, gcol_test_cap(300000), GCOL_TEST_NO_MASK, false, false,
              false, "large");
}

/* Unpack of a packed table with a truncated data size, and of a wrong pointer alignment. */
static void test_unpack_checks_device_extent(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(907);
  hcol *h = hcol_random(&rng, HK_STRUCT, GCOL_EMPTY, 50, GCOL_TEST_RANDOM_NULLS);
  gcol_column *owner = hcol_to_device(h, false, NULL);
  gcol_column_view v = gcol_column_get_view(owner);
  gcol_table_view const t = {1, 50, &v};
  gcol_packed_table *packed = NULL;
  GCOL_TEST_OK(gcol_pack(t, &packed, NULL, NULL));
  gcol_unpacked_table *u = NULL;
  GCOL_TEST_STATUS(gcol_unpack(packed->metadata, packed->metadata_size, packed->data->data,
                               packed->data->size - 1, &u),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_unpack(packed->metadata, packed->metadata_size - 1, packed->data->data,
                               packed->data->size, &u),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_unpack(packed->metadata, packed->metadata_size,
                               (const char *)packed->data->data + 4, packed->data->size - 4, &u),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(u);
  /* Serialized bytes truncated at every length are rejected (no device work). */
  uint8_t *bytes = NULL;
  size_t size = 0;
  GCOL_TEST_OK(gcol_packed_table_serialize(packed, &bytes, &size, NULL));
  for (size_t len = 0; len < size; len += (len < 2048 ? 1 : 97)) {
    gcol_packed_table *back = NULL;
    GCOL_TEST_STATUS(gcol_packed_table_deserialize(bytes, len, &back, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(back);
  }
  free(bytes);
  gcol_packed_table_free(packed);
  gcol_column_free(owner);
  hcol_free(h);
}

/* ------------------------------------------------------------------ allocation failures */

typedef struct fault_ctx {
  gcol_table_view table;
  gcol_packed_table *packed;
  gcol_packed_table *back;
  uint8_t *bytes;
  size_t size;
} fault_ctx;

static gcol_status pack_op(void *p) {
  fault_ctx *ctx = (fault_ctx *)p;
  gcol_status const st = gcol_pack(ctx->table, &ctx->packed, NULL, NULL);
  if (st != GCOL_OK) assert_null(ctx->packed);
  return st;
}

static void pack_cleanup(void *p) {
  fault_ctx *ctx = (fault_ctx *)p;
  gcol_packed_table_free(ctx->packed);
  ctx->packed = NULL;
}

static gcol_status deserialize_op(void *p) {
  fault_ctx *ctx = (fault_ctx *)p;
  gcol_status const st =
      gcol_packed_table_deserialize(ctx->bytes, ctx->size, &ctx->back, NULL, NULL);
  if (st != GCOL_OK) assert_null(ctx->back);
  return st;
}

static void deserialize_cleanup(void *p) {
  fault_ctx *ctx = (fault_ctx *)p;
  gcol_packed_table_free(ctx->back);
  ctx->back = NULL;
}

static void test_pack_fail_every_allocation(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(908);
  int const kinds[4] = {HK_FIXED, HK_STRING, KIND_LIST_STRUCT, HK_STRUCT};
  gcol_column *owners[4];
  gcol_column_view views[4];
  hcol *h[4];
  for (int c = 0; c < 4; ++c) {
    h[c] = random_column(&rng, kinds[c], GCOL_INT32, 300, GCOL_TEST_RANDOM_NULLS);
    owners[c] = hcol_to_device(h[c], c == 1, NULL);
    GCOL_TEST_OK(gcol_column_view_slice(gcol_column_get_view(owners[c]), 33, 290, &views[c]));
  }
  fault_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.table.num_columns = 4;
  ctx.table.num_rows = 257;
  ctx.table.columns = views;
  int const points = gcol_test_check_allocation_failures(pack_op, pack_cleanup, &ctx);
  assert_true(points >= 3);
  /* Deserialize: its device buffer. */
  GCOL_TEST_OK(gcol_pack(ctx.table, &ctx.packed, NULL, NULL));
  GCOL_TEST_OK(gcol_packed_table_serialize(ctx.packed, &ctx.bytes, &ctx.size, NULL));
  gcol_packed_table_free(ctx.packed);
  ctx.packed = NULL;
  assert_true(gcol_test_check_allocation_failures(deserialize_op, deserialize_cleanup, &ctx) >= 1);
  free(ctx.bytes);
  for (int c = 0; c < 4; ++c) {
    gcol_column_free(owners[c]);
    hcol_free(h[c]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TEST_GPU(test_pack_every_fixed_type),
      GCOL_TEST_GPU(test_pack_every_kind_offset_validity),
      GCOL_TEST_GPU(test_pack_mixed_tables_over_sizes),
      GCOL_TEST_GPU(test_pack_empty),
      GCOL_TEST_GPU(test_pack_string_cases),
      GCOL_TEST_GPU(test_pack_null_counts),
      GCOL_TEST_GPU(test_pack_large),
      GCOL_TEST_GPU(test_unpack_checks_device_extent),
      GCOL_TEST_GPU(test_pack_fail_every_allocation),
  };
  return GCOL_TEST_RUN_GPU("pack", tests);
}
