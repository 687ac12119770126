/*
 * Pack tests that run on the CPU: the metadata format as documented in gcol/pack.h, written
 * here byte by byte, unpacked into views over a fake device address (never dereferenced),
 * and every way a blob or serialized bytes can be truncated or corrupted: each must give
 * GCOL_ERROR_INVALID_ARGUMENT with a message, never a crash or an out-of-bounds read (the
 * blobs live in exactly-sized heap arrays, so the sanitizers would see one).
 */
#include "test_util.h"

#include "gcol/pack.h"

/* ------------------------------------------------------------------ blob writer */

/* One node as documented: type, scale, children, flags, rows, nulls, data and mask extents. */
typedef struct tnode {
  int32_t type_id, scale, num_children, flags;
  int64_t size, null_count, data_offset, data_size, mask_offset, mask_size;
} tnode;

typedef struct tblob {
  tnode nodes[128];
  int n;
  int64_t data_size; /* grows as extents are placed */
} tblob;

static int64_t place(tblob *b, int64_t bytes) {
  if (bytes == 0) return 0;
  int64_t const at =
      (b->data_size + GCOL_PACK_ALIGNMENT - 1) / GCOL_PACK_ALIGNMENT * GCOL_PACK_ALIGNMENT;
  b->data_size = at + bytes;
  return at;
}

/* Appends a node (pre-order) with data and mask placed. */
static int add(tblob *b, gcol_type_id id, int32_t scale, int32_t children, int64_t size,
               int64_t nulls, bool mask, int64_t data_bytes) {
  tnode *t = &b->nodes[b->n];
  memset(t, 0, sizeof *t);
  t->type_id = (int32_t)id;
  t->scale = scale;
  t->num_children = children;
  t->flags = mask ? 1 : 0;
  t->size = size;
  t->null_count = nulls;
  if (mask) {
    t->mask_size = (gcol_bit_num_words(size) * 4 + 63) / 64 * 64;
    t->mask_offset = place(b, t->mask_size);
  }
  t->data_size = data_bytes;
  t->data_offset = place(b, data_bytes);
  return b->n++;
}

static void put32(uint8_t *p, int32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, int64_t v) { memcpy(p, &v, 8); }

/* The blob: a 64-byte header then 64-byte nodes (an exactly-sized malloc). */
static uint8_t *write_blob(const tblob *b, int32_t num_columns, int64_t rows, size_t *size) {
  *size = 64 + (size_t)b->n * 64;
  uint8_t *m = (uint8_t *)calloc(*size, 1);
  assert_non_null(m);
  put32(m + 0, (int32_t)GCOL_PACK_MAGIC);
  put32(m + 4, (int32_t)GCOL_PACK_VERSION);
  put32(m + 8, 64);
  put32(m + 12, 64);
  put32(m + 16, num_columns);
  put32(m + 20, GCOL_PACK_ALIGNMENT);
  put64(m + 24, b->n);
  put64(m + 32, rows);
  put64(m + 40, b->data_size);
  for (int i = 0; i < b->n; ++i) {
    uint8_t *p = m + 64 + (size_t)i * 64;
    tnode const *t = &b->nodes[i];
    put32(p + 0, t->type_id);
    put32(p + 4, t->scale);
    put32(p + 8, t->num_children);
    put32(p + 12, t->flags);
    put64(p + 16, t->size);
    put64(p + 24, t->null_count);
    put64(p + 32, t->data_offset);
    put64(p + 40, t->data_size);
    put64(p + 48, t->mask_offset);
    put64(p + 56, t->mask_size);
  }
  return m;
}

/* A 5-row table of every layout:
 *   0 int32 (2 nulls), 1 string (7 chars, INT32 offsets), 2 list<int64> (INT64 offsets,
 *   9 values), 3 struct<decimal128(-2), string with nulls>, 4 timestamp[ms] no mask. */
#define SAMPLE_ROWS 5
static void sample(tblob *b) {
  memset(b, 0, sizeof *b);
  add(b, GCOL_INT32, 0, 0, SAMPLE_ROWS, 2, true, SAMPLE_ROWS * 4);
  add(b, GCOL_STRING, 0, 1, SAMPLE_ROWS, 0, false, 7);
  add(b, GCOL_INT32, 0, 0, SAMPLE_ROWS + 1, 0, false, (SAMPLE_ROWS + 1) * 4);
  add(b, GCOL_LIST, 0, 2, SAMPLE_ROWS, 1, true, 0);
  add(b, GCOL_INT64, 0, 0, SAMPLE_ROWS + 1, 0, false, (SAMPLE_ROWS + 1) * 8);
  add(b, GCOL_INT64, 0, 0, 9, 0, false, 9 * 8);
  add(b, GCOL_STRUCT, 0, 2, SAMPLE_ROWS, 0, false, 0);
  add(b, GCOL_DECIMAL128, -2, 0, SAMPLE_ROWS, 0, false, SAMPLE_ROWS * 16);
  add(b, GCOL_STRING, 0, 1, SAMPLE_ROWS, 5, true, 0);
  add(b, GCOL_INT32, 0, 0, SAMPLE_ROWS + 1, 0, false, (SAMPLE_ROWS + 1) * 4);
  add(b, GCOL_TIMESTAMP_MILLISECONDS, 0, 0, SAMPLE_ROWS, 0, false, SAMPLE_ROWS * 8);
}
#define SAMPLE_COLUMNS 5

/* A fake, aligned device address: unpack must never dereference it. */
static const char *const fake_data = (const char *)(uintptr_t)0x7f0000000000ull;

static gcol_status unpack_blob(const uint8_t *m, size_t size, int64_t data_size,
                               gcol_unpacked_table **out) {
  return gcol_unpack(m, size, data_size > 0 ? fake_data : NULL, (size_t)data_size, out);
}

/* Views of a successful unpack stay inside [fake_data, fake_data + data_size). */
static void check_views_in_bounds(const gcol_unpacked_table *u, int64_t data_size) {
  for (int64_t i = 0; i < u->num_views; ++i) {
    gcol_column_view const *v = &u->views[i];
    if (v->data != NULL) {
      assert_true((const char *)v->data >= fake_data);
      assert_true((const char *)v->data < fake_data + data_size);
    }
    if (v->null_mask != NULL) {
      assert_true((const char *)v->null_mask >= fake_data);
      assert_true((const char *)v->null_mask + gcol_bit_num_words(v->size) * 4 <=
                  fake_data + data_size);
    }
    assert_true(v->num_children == 0 || v->children != NULL);
    if (v->num_children > 0) {
      assert_true(v->children >= u->views &&
                  v->children + v->num_children <= u->views + u->num_views);
    }
  }
}

/* ------------------------------------------------------------------ valid blobs */

static void test_unpack_sample_views(void **state) {
  (void)state;
  tblob b;
  sample(&b);
  size_t size = 0;
  uint8_t *m = write_blob(&b, SAMPLE_COLUMNS, SAMPLE_ROWS, &size);
  gcol_unpacked_table *u = NULL;
  GCOL_TEST_OK(unpack_blob(m, size, b.data_size, &u));
  assert_int_equal(u->table.num_columns, SAMPLE_COLUMNS);
  assert_int_equal(u->table.num_rows, SAMPLE_ROWS);
  assert_int_equal(u->num_views, b.n);
  gcol_column_view const *c = u->table.columns;
  /* int32 */
  assert_int_equal(c[0].type.id, GCOL_INT32);
  assert_int_equal(c[0].size, SAMPLE_ROWS);
  assert_int_equal(c[0].offset, 0);
  assert_int_equal(c[0].null_count, 2);
  assert_ptr_equal(c[0].data, fake_data + b.nodes[0].data_offset);
  assert_ptr_equal(c[0].null_mask, fake_data + b.nodes[0].mask_offset);
  /* string */
  assert_int_equal(c[1].type.id, GCOL_STRING);
  assert_int_equal(c[1].num_children, 1);
  assert_ptr_equal(c[1].data, fake_data + b.nodes[1].data_offset);
  assert_null(c[1].null_mask);
  assert_int_equal(c[1].children[0].type.id, GCOL_INT32);
  assert_int_equal(c[1].children[0].size, SAMPLE_ROWS + 1);
  assert_ptr_equal(c[1].children[0].data, fake_data + b.nodes[2].data_offset);
  /* list<int64> */
  assert_int_equal(c[2].type.id, GCOL_LIST);
  assert_int_equal(c[2].num_children, 2);
  assert_null(c[2].data);
  assert_int_equal(c[2].null_count, 1);
  assert_int_equal(c[2].children[GCOL_OFFSETS_CHILD].type.id, GCOL_INT64);
  assert_int_equal(c[2].children[GCOL_LIST_VALUES_CHILD].size, 9);
  assert_ptr_equal(c[2].children[GCOL_LIST_VALUES_CHILD].data, fake_data + b.nodes[5].data_offset);
  /* struct<decimal128, string> */
  assert_int_equal(c[3].type.id, GCOL_STRUCT);
  assert_int_equal(c[3].num_children, 2);
  assert_int_equal(c[3].children[0].type.id, GCOL_DECIMAL128);
  assert_int_equal(c[3].children[0].type.scale, -2);
  assert_int_equal(c[3].children[1].type.id, GCOL_STRING);
  assert_null(c[3].children[1].data); /* all null, no chars */
  assert_int_equal(c[3].children[1].null_count, 5);
  assert_int_equal(c[3].children[1].children[0].size, SAMPLE_ROWS + 1);
  /* timestamp */
  assert_int_equal(c[4].type.id, GCOL_TIMESTAMP_MILLISECONDS);
  assert_null(c[4].null_mask);
  check_views_in_bounds(u, b.data_size);
  /* More data than needed is fine. */
  gcol_unpacked_table_free(u);
  GCOL_TEST_OK(gcol_unpack(m, size, fake_data, (size_t)b.data_size + 1000, &u));
  gcol_unpacked_table_free(u);
  free(m);
}

static void test_unpack_empty_tables(void **state) {
  (void)state;
  tblob b;
  memset(&b, 0, sizeof b);
  size_t size = 0;
  uint8_t *m = write_blob(&b, 0, 0, &size);
  gcol_unpacked_table *u = NULL;
  GCOL_TEST_OK(gcol_unpack(m, size, NULL, 0, &u));
  assert_int_equal(u->table.num_columns, 0);
  assert_int_equal(u->table.num_rows, 0);
  gcol_unpacked_table_free(u);
  free(m);
  /* 0 rows of every layout: only the offsets (one zero each) need data. */
  add(&b, GCOL_FLOAT64, 0, 0, 0, 0, false, 0);
  add(&b, GCOL_STRING, 0, 1, 0, 0, false, 0);
  add(&b, GCOL_INT32, 0, 0, 1, 0, false, 4);
  add(&b, GCOL_STRUCT, 0, 1, 0, 0, false, 0);
  add(&b, GCOL_LIST, 0, 2, 0, 0, false, 0);
  add(&b, GCOL_INT32, 0, 0, 1, 0, false, 4);
  add(&b, GCOL_BOOL8, 0, 0, 0, 0, false, 0);
  m = write_blob(&b, 3, 0, &size);
  GCOL_TEST_OK(unpack_blob(m, size, b.data_size, &u));
  assert_int_equal(u->table.num_columns, 3);
  assert_null(u->table.columns[0].data);
  assert_int_equal(u->table.columns[2].children[0].children[1].type.id, GCOL_BOOL8);
  check_views_in_bounds(u, b.data_size);
  gcol_unpacked_table_free(u);
  free(m);
}

/* ------------------------------------------------------------------ faults */

static void test_unpack_null_arguments(void **state) {
  (void)state;
  tblob b;
  sample(&b);
  size_t size = 0;
  uint8_t *m = write_blob(&b, SAMPLE_COLUMNS, SAMPLE_ROWS, &size);
  gcol_unpacked_table *u = (gcol_unpacked_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_unpack(m, size, fake_data, (size_t)b.data_size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_unpack(NULL, size, fake_data, (size_t)b.data_size, &u),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(u);
  GCOL_TEST_STATUS(gcol_unpack(m, size, NULL, (size_t)b.data_size, &u),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_unpack(m, size, fake_data, (size_t)b.data_size - 1, &u),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_unpack(m, size, fake_data + 8, (size_t)b.data_size, &u),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(u);
  gcol_unpacked_table_free(NULL);
  gcol_packed_table_free(NULL);
  free(m);
}

static void test_unpack_every_truncation(void **state) {
  (void)state;
  tblob b;
  sample(&b);
  size_t size = 0;
  uint8_t *m = write_blob(&b, SAMPLE_COLUMNS, SAMPLE_ROWS, &size);
  for (size_t len = 0; len < size; ++len) {
    uint8_t *t = (uint8_t *)malloc(len > 0 ? len : 1); /* exactly sized: overreads are caught */
    memcpy(t, m, len);
    gcol_unpacked_table *u = NULL;
    GCOL_TEST_STATUS(unpack_blob(t, len, b.data_size, &u), GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(u);
    free(t);
  }
  free(m);
}

/* Every byte flipped, one at a time, three ways: never a crash; if accepted, in bounds. */
static void test_unpack_every_byte_corrupted(void **state) {
  (void)state;
  tblob b;
  sample(&b);
  size_t size = 0;
  uint8_t *m = write_blob(&b, SAMPLE_COLUMNS, SAMPLE_ROWS, &size);
  static const uint8_t patterns[3] = {0xFF, 0x80, 0x01};
  int rejected = 0;
  for (size_t i = 0; i < size; ++i) {
    for (int k = 0; k < 3; ++k) {
      uint8_t *t = (uint8_t *)malloc(size);
      memcpy(t, m, size);
      t[i] ^= patterns[k];
      gcol_unpacked_table *u = NULL;
      gcol_status const st = unpack_blob(t, size, b.data_size, &u);
      if (st == GCOL_OK) {
        check_views_in_bounds(u, b.data_size);
      } else {
        assert_int_equal(st, GCOL_ERROR_INVALID_ARGUMENT);
        assert_true(gcol_last_error()[0] != '\0');
        assert_null(u);
        ++rejected;
      }
      gcol_unpacked_table_free(u);
      free(t);
    }
  }
  assert_true(rejected > (int)size); /* most flips are caught */
  free(m);
}

/* Corruptions that must each be rejected, applied to the sample's nodes. */
typedef void (*corrupt_fn)(tblob *b, int32_t *num_columns, int64_t *rows);
static void c_type_id(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].type_id = 99;
}
static void c_negative_type(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].type_id = -1;
}
static void c_dictionary(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[10].type_id = GCOL_DICTIONARY32;
}
static void c_scale(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].scale = 3;
}
static void c_string_children(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[1].num_children = 2;
}
static void c_list_children(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[3].num_children = 1;
}
static void c_fixed_children(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].num_children = 1;
}
static void c_huge_children(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[6].num_children = INT32_MAX;
}
static void c_negative_children(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[6].num_children = -1;
}
static void c_offsets_type(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[2].type_id = GCOL_FLOAT32;
}
static void c_offsets_size(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[2].size = SAMPLE_ROWS;
  b->nodes[2].data_size = SAMPLE_ROWS * 4;
}
static void c_offsets_mask(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[4].flags = 1;
  b->nodes[4].mask_size = 64;
}
static void c_field_size(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[7].size = 4;
  b->nodes[7].data_size = 64;
}
static void c_negative_size(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[5].size = -9;
  b->nodes[5].data_size = -72;
}
static void c_null_count(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].null_count = SAMPLE_ROWS + 1;
}
static void c_negative_nulls(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].null_count = -1;
}
static void c_nulls_no_mask(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[10].null_count = 1;
}
static void c_flags(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[10].flags = 4;
}
static void c_mask_small(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].mask_size = 0;
}
static void c_mask_beyond(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].mask_offset = b->data_size;
}
static void c_data_unaligned(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].data_offset += 4;
}
static void c_data_beyond(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[10].data_offset += 256;
}
static void c_data_negative(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[10].data_offset = -256;
}
static void c_data_overflow(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[10].data_offset = INT64_MAX / 256 * 256;
}
static void c_data_size(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[0].data_size = 16;
}
static void c_rows_overflow(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[5].size = INT64_MAX;
}
static void c_list_data(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[3].data_size = 8;
  b->nodes[3].data_offset = 0;
}
static void c_struct_data(tblob *b, int32_t *nc, int64_t *r) {
  (void)nc, (void)r;
  b->nodes[6].data_size = 8;
  b->nodes[6].data_offset = 0;
}
static void c_columns_more(tblob *b, int32_t *nc, int64_t *r) {
  (void)b, (void)r;
  *nc += 1;
}
static void c_columns_fewer(tblob *b, int32_t *nc, int64_t *r) {
  (void)b, (void)r;
  *nc -= 1;
}
static void c_columns_negative(tblob *b, int32_t *nc, int64_t *r) {
  (void)b, (void)r;
  *nc = -1;
}
static void c_table_rows(tblob *b, int32_t *nc, int64_t *r) {
  (void)b, (void)nc;
  *r += 1;
}

static void test_unpack_rejects_each_corruption(void **state) {
  (void)state;
  static const struct {
    const char *name;
    corrupt_fn fn;
  } cases[] = {
      {"type id 99", c_type_id},
      {"type id -1", c_negative_type},
      {"dictionary", c_dictionary},
      {"scale on int32", c_scale},
      {"string with 2 children", c_string_children},
      {"list with 1 child", c_list_children},
      {"int32 with a child", c_fixed_children},
      {"INT32_MAX children", c_huge_children},
      {"negative children", c_negative_children},
      {"float offsets", c_offsets_type},
      {"offsets of rows values", c_offsets_size},
      {"offsets with a mask", c_offsets_mask},
      {"field rows", c_field_size},
      {"negative size", c_negative_size},
      {"null count > rows", c_null_count},
      {"negative null count", c_negative_nulls},
      {"nulls without a mask", c_nulls_no_mask},
      {"unknown flags", c_flags},
      {"mask too small", c_mask_small},
      {"mask beyond data", c_mask_beyond},
      {"data unaligned", c_data_unaligned},
      {"data beyond", c_data_beyond},
      {"data offset negative", c_data_negative},
      {"data offset overflows", c_data_overflow},
      {"data size != rows * width", c_data_size},
      {"rows * width overflows", c_rows_overflow},
      {"list with data", c_list_data},
      {"struct with data", c_struct_data},
      {"more columns than nodes", c_columns_more},
      {"a node left over", c_columns_fewer},
      {"negative columns", c_columns_negative},
      {"table rows differ", c_table_rows},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    tblob b;
    sample(&b);
    int32_t nc = SAMPLE_COLUMNS;
    int64_t rows = SAMPLE_ROWS;
    int64_t const data_size = b.data_size;
    cases[i].fn(&b, &nc, &rows);
    b.data_size = data_size;
    size_t size = 0;
    uint8_t *m = write_blob(&b, nc, rows, &size);
    gcol_unpacked_table *u = NULL;
    gcol_status const st = unpack_blob(m, size, data_size, &u);
    if (st != GCOL_ERROR_INVALID_ARGUMENT) {
      fail_msg("%s: %s, expected invalid argument", cases[i].name, gcol_status_string(st));
    }
    assert_true(gcol_last_error()[0] != '\0');
    assert_null(u);
    free(m);
  }
}

static void test_unpack_rejects_bad_header(void **state) {
  (void)state;
  tblob b;
  sample(&b);
  size_t size = 0;
  uint8_t *m = write_blob(&b, SAMPLE_COLUMNS, SAMPLE_ROWS, &size);
  static const struct {
    size_t at;
    int64_t value;
    int width;
  } edits[] = {
      {0, 0x12345678, 4}, /* magic */
      {4, 2, 4},          /* version */
      {8, 56, 4},         /* header size */
      {12, 72, 4},        /* node size */
      {20, 64, 4},        /* alignment */
      {24, SAMPLE_COLUMNS + 100, 8},
      {24, -1, 8},
      {24, INT64_MAX, 8}, /* node count */
      {32, -1, 8},        /* rows */
      {40, -1, 8},
      {40, INT64_MAX, 8}, /* data size */
      {48, 1, 8},
      {56, 1, 8}, /* reserved */
  };
  for (size_t i = 0; i < sizeof edits / sizeof edits[0]; ++i) {
    uint8_t *t = (uint8_t *)malloc(size);
    memcpy(t, m, size);
    if (edits[i].width == 4) {
      put32(t + edits[i].at, (int32_t)edits[i].value);
    } else {
      put64(t + edits[i].at, edits[i].value);
    }
    gcol_unpacked_table *u = NULL;
    GCOL_TEST_STATUS(unpack_blob(t, size, b.data_size, &u), GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(u);
    free(t);
  }
  free(m);
}

/* A chain of structs deeper than GCOL_PACK_MAX_DEPTH is rejected; at the limit accepted. */
static void test_unpack_depth_limit(void **state) {
  (void)state;
  for (int depth = GCOL_PACK_MAX_DEPTH; depth <= GCOL_PACK_MAX_DEPTH + 1; ++depth) {
    tblob b;
    memset(&b, 0, sizeof b);
    for (int d = 0; d < depth - 1; ++d) add(&b, GCOL_STRUCT, 0, 1, 3, 0, false, 0);
    add(&b, GCOL_INT8, 0, 0, 3, 0, false, 3);
    size_t size = 0;
    uint8_t *m = write_blob(&b, 1, 3, &size);
    gcol_unpacked_table *u = NULL;
    gcol_status const st = unpack_blob(m, size, b.data_size, &u);
    if (depth <= GCOL_PACK_MAX_DEPTH) {
      GCOL_TEST_OK(st);
      gcol_unpacked_table_free(u);
    } else {
      assert_int_equal(st, GCOL_ERROR_INVALID_ARGUMENT);
      assert_null(u);
    }
    free(m);
  }
}

/* ------------------------------------------------------------------ serialized bytes */

/* Serialized bytes of the sample: 32-byte header, metadata, data (zeros). */
static uint8_t *write_serialized(size_t *size) {
  tblob b;
  sample(&b);
  size_t msize = 0;
  uint8_t *m = write_blob(&b, SAMPLE_COLUMNS, SAMPLE_ROWS, &msize);
  *size = 32 + msize + (size_t)b.data_size;
  uint8_t *s = (uint8_t *)calloc(*size, 1);
  assert_non_null(s);
  put32(s + 0, (int32_t)GCOL_PACK_SERIAL_MAGIC);
  put32(s + 4, (int32_t)GCOL_PACK_VERSION);
  put64(s + 16, (int64_t)msize);
  put64(s + 24, b.data_size);
  memcpy(s + 32, m, msize);
  free(m);
  return s;
}

/* Every proper prefix fails validation before any device work (no GPU is touched). */
static void test_deserialize_every_truncation(void **state) {
  (void)state;
  size_t size = 0;
  uint8_t *s = write_serialized(&size);
  for (size_t len = 0; len < size; ++len) {
    uint8_t *t = (uint8_t *)malloc(len > 0 ? len : 1);
    memcpy(t, s, len);
    gcol_packed_table *p = NULL;
    GCOL_TEST_STATUS(gcol_packed_table_deserialize(t, len, &p, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(p);
    free(t);
  }
  free(s);
}

static void test_deserialize_rejects_corruption(void **state) {
  (void)state;
  size_t size = 0;
  uint8_t *s = write_serialized(&size);
  static const struct {
    size_t at;
    int64_t value;
    int width;
  } edits[] = {
      {0, 0, 4}, /* magic */
      {4, 7, 4}, /* version */
      {8, 1, 8}, /* reserved */
      {16, 0, 8},
      {16, 63, 8},
      {16, INT64_MAX, 8},
      {16, -1, 8}, /* metadata size */
      {24, 0, 8},
      {24, -1, 8},                /* data size */
      {32, 0, 4},                 /* metadata magic */
      {32 + 64 + 0, 99, 4},       /* first node's type */
      {32 + 64 + 40, 1 << 20, 8}, /* first node's data size */
  };
  for (size_t i = 0; i < sizeof edits / sizeof edits[0]; ++i) {
    uint8_t *t = (uint8_t *)malloc(size);
    memcpy(t, s, size);
    if (edits[i].width == 4) {
      put32(t + edits[i].at, (int32_t)edits[i].value);
    } else {
      put64(t + edits[i].at, edits[i].value);
    }
    gcol_packed_table *p = NULL;
    GCOL_TEST_STATUS(gcol_packed_table_deserialize(t, size, &p, NULL, NULL),
                     GCOL_ERROR_INVALID_ARGUMENT);
    assert_null(p);
    free(t);
  }
  gcol_packed_table *p = NULL;
  GCOL_TEST_STATUS(gcol_packed_table_deserialize(NULL, size, &p, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_packed_table_deserialize(s, size, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  free(s);
}

/* Serialize checks its arguments and the metadata before touching the device. */
static void test_serialize_rejects_bad_input(void **state) {
  (void)state;
  tblob b;
  sample(&b);
  size_t msize = 0;
  uint8_t *m = write_blob(&b, SAMPLE_COLUMNS, SAMPLE_ROWS, &msize);
  gcol_buffer data = {(void *)(uintptr_t)fake_data, (size_t)b.data_size - 1, NULL, NULL, NULL};
  gcol_packed_table packed = {&data, m, msize};
  uint8_t *bytes = (uint8_t *)(uintptr_t)1;
  size_t size = 1;
  GCOL_TEST_STATUS(gcol_packed_table_serialize(NULL, &bytes, &size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(bytes);
  assert_int_equal(size, 0);
  GCOL_TEST_STATUS(gcol_packed_table_serialize(&packed, NULL, &size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_packed_table_serialize(&packed, &bytes, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  /* A buffer one byte short of what the metadata needs. */
  GCOL_TEST_STATUS(gcol_packed_table_serialize(&packed, &bytes, &size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(bytes);
  /* Corrupted metadata. */
  data.size = (size_t)b.data_size;
  m[0] ^= 1;
  GCOL_TEST_STATUS(gcol_packed_table_serialize(&packed, &bytes, &size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  packed.metadata = NULL;
  GCOL_TEST_STATUS(gcol_packed_table_serialize(&packed, &bytes, &size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  packed.data = NULL;
  GCOL_TEST_STATUS(gcol_packed_table_serialize(&packed, &bytes, &size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  free(m);
}

/* Pack checks its arguments before any device work. */
static void test_pack_rejects_bad_input(void **state) {
  (void)state;
  int32_t host[4] = {1, 2, 3, 4};
  gcol_column_view cols[2];
  cols[0] = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 4, host, NULL, 0);
  cols[1] = cols[0];
  gcol_table_view t = {2, 4, cols};
  gcol_packed_table *p = (gcol_packed_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_pack(t, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  t.columns = NULL;
  GCOL_TEST_STATUS(gcol_pack(t, &p, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(p);
  t.columns = cols;
  t.num_columns = -1;
  GCOL_TEST_STATUS(gcol_pack(t, &p, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  t.num_columns = 2;
  t.num_rows = 3; /* columns have 4 */
  GCOL_TEST_STATUS(gcol_pack(t, &p, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  t.num_rows = 4;
  cols[1].size = -1;
  GCOL_TEST_STATUS(gcol_pack(t, &p, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  cols[1] = cols[0];
  cols[1].type.scale = 2; /* scale on int32 */
  GCOL_TEST_STATUS(gcol_pack(t, &p, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  cols[1] = cols[0];
  cols[1].type = gcol_data_type_make(GCOL_DICTIONARY32);
  cols[1].data = NULL;
  GCOL_TEST_STATUS(gcol_pack(t, &p, NULL, NULL), GCOL_ERROR_UNSUPPORTED);
  assert_null(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unpack_sample_views),
      cmocka_unit_test(test_unpack_empty_tables),
      cmocka_unit_test(test_unpack_null_arguments),
      cmocka_unit_test(test_unpack_every_truncation),
      cmocka_unit_test(test_unpack_every_byte_corrupted),
      cmocka_unit_test(test_unpack_rejects_each_corruption),
      cmocka_unit_test(test_unpack_rejects_bad_header),
      cmocka_unit_test(test_unpack_depth_limit),
      cmocka_unit_test(test_deserialize_every_truncation),
      cmocka_unit_test(test_deserialize_rejects_corruption),
      cmocka_unit_test(test_serialize_rejects_bad_input),
      cmocka_unit_test(test_pack_rejects_bad_input),
  };
  return GCOL_TEST_RUN("pack_host", tests);
}
