/*
 * Host tests of include/gcol/interop.h (no GPU needed, suite host): the format strings of
 * every type, the schema round trip, the zero-copy export and import of views over host
 * memory (an ArrowDeviceArray of type CUDA_HOST needs no CUDA call), the owner and producer
 * releases counted to exactly once (children moved out too), and the table of malformed
 * inputs: each gives its status and a message, no output, and both releases exactly once.
 */
#include <string.h>

#include "arrow_fake.h"
#include "gcol/interop.h"
#include "internal/interop.h"
#include "test_util.h"

/* ------------------------------------------------------------------ helpers */

static int owner_releases;
static void count_owner(void *owner) {
  (void)owner;
  ++owner_releases;
}

static gcol_column_view fixed(gcol_data_type type, int64_t size, const void *data) {
  return gcol_column_view_make(type, size, data, NULL, 0);
}

/* Exports `column` (or `table`) as a CUDA_HOST device array over its host memory. */
static void export_host_tree(gcol_column_view column, const gcol_table_view *table,
                             struct ArrowDeviceArray *out) {
  memset(out, 0, sizeof *out);
  GCOL_TEST_OK(gcol_detail_arrow_export_tree(column, table, count_owner, NULL, false, &out->array,
                                             NULL, NULL, NULL));
  out->device_type = ARROW_DEVICE_CUDA_HOST;
}

static void assert_format(gcol_column_view v, const gcol_arrow_field *field, const char *format) {
  struct ArrowSchema s;
  GCOL_TEST_OK(gcol_arrow_schema_export_column(v, field, &s));
  assert_string_equal(s.format, format);
  s.release(&s);
  assert_null(s.release);
}

/* ------------------------------------------------------------------ schemas */

static void test_formats_of_every_type(void **state) {
  (void)state;
  static const struct {
    gcol_type_id id;
    const char *format;
  } cases[] = {
      {GCOL_INT8, "c"},  {GCOL_INT16, "s"},  {GCOL_INT32, "i"},  {GCOL_INT64, "l"},
      {GCOL_UINT8, "C"}, {GCOL_UINT16, "S"}, {GCOL_UINT32, "I"}, {GCOL_UINT64, "L"},
      {GCOL_FLOAT32, "f"}, {GCOL_FLOAT64, "g"}, {GCOL_BOOL8, "b"}, {GCOL_EMPTY, "n"},
      {GCOL_TIMESTAMP_DAYS, "tdD"}, {GCOL_TIMESTAMP_SECONDS, "tss:"},
      {GCOL_TIMESTAMP_MILLISECONDS, "tsm:"}, {GCOL_TIMESTAMP_MICROSECONDS, "tsu:"},
      {GCOL_TIMESTAMP_NANOSECONDS, "tsn:"}, {GCOL_DURATION_SECONDS, "tDs"},
      {GCOL_DURATION_MILLISECONDS, "tDm"}, {GCOL_DURATION_MICROSECONDS, "tDu"},
      {GCOL_DURATION_NANOSECONDS, "tDn"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    assert_format(fixed(gcol_data_type_make(cases[i].id), 0, NULL), NULL, cases[i].format);
  }
  gcol_arrow_field tz = {NULL, "Europe/Paris", 0, 0, NULL};
  assert_format(fixed(gcol_data_type_make(GCOL_TIMESTAMP_MICROSECONDS), 0, NULL), &tz,
                "tsu:Europe/Paris");
  /* gcol's scale -2 is Arrow's scale 2; the precision defaults to the width's largest. */
  assert_format(fixed(gcol_data_type_decimal(GCOL_DECIMAL32, -2), 0, NULL), NULL, "d:9,2,32");
  assert_format(fixed(gcol_data_type_decimal(GCOL_DECIMAL64, 3), 0, NULL), NULL, "d:18,-3,64");
  gcol_arrow_field p = {NULL, NULL, 20, 0, NULL};
  assert_format(fixed(gcol_data_type_decimal(GCOL_DECIMAL128, -4), 0, NULL), &p, "d:20,4");
  struct ArrowSchema s;
  p.precision = 39;
  GCOL_TEST_STATUS(gcol_arrow_schema_export_column(
                       fixed(gcol_data_type_decimal(GCOL_DECIMAL128, 0), 0, NULL), &p, &s),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_arrow_schema_export_column(
                       fixed(gcol_data_type_make(GCOL_DURATION_DAYS), 0, NULL), NULL, &s),
                   GCOL_ERROR_UNSUPPORTED);
  GCOL_TEST_STATUS(gcol_arrow_schema_export_column(fixed(gcol_data_type_make(GCOL_INT8), 0, NULL),
                                                   NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

/* Host memory for nested columns: strings, a list of int64, a struct, a dictionary. */
typedef struct nested_data {
  char chars[16];
  int32_t str_offsets[5];
  int64_t list_offsets[4];
  int64_t values[6];
  int32_t ints[4];
  int32_t indices[4];
  uint32_t mask[2];
  gcol_column_view str_children[1];
  gcol_column_view list_children[2];
  gcol_column_view struct_children[2];
  gcol_column_view dict_children[2];
  gcol_column_view str, list, strct, dict;
} nested_data;

static void make_nested(nested_data *d) {
  memset(d, 0, sizeof *d);
  memcpy(d->chars, "abcdefghij", 10);
  int32_t const so[5] = {0, 1, 3, 6, 10};
  memcpy(d->str_offsets, so, sizeof so);
  int64_t const lo[4] = {0, 2, 2, 6};
  memcpy(d->list_offsets, lo, sizeof lo);
  for (int i = 0; i < 6; ++i) d->values[i] = 10 * i;
  for (int i = 0; i < 4; ++i) d->ints[i] = i - 2;
  int32_t const ix[4] = {3, 0, 1, 3};
  memcpy(d->indices, ix, sizeof ix);
  d->mask[0] = 0xDu; /* row 1 null */
  d->str_children[0] = fixed(gcol_data_type_make(GCOL_INT32), 5, d->str_offsets);
  d->str = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), 4, d->chars, d->mask, 1);
  d->str.num_children = 1;
  d->str.children = d->str_children;
  d->list_children[0] = fixed(gcol_data_type_make(GCOL_INT64), 4, d->list_offsets);
  d->list_children[1] = fixed(gcol_data_type_make(GCOL_INT64), 6, d->values);
  d->list = gcol_column_view_make(gcol_data_type_make(GCOL_LIST), 3, NULL, NULL, 0);
  d->list.num_children = 2;
  d->list.children = d->list_children;
  d->struct_children[0] = fixed(gcol_data_type_make(GCOL_INT32), 4, d->ints);
  d->struct_children[1] = d->str;
  d->strct = gcol_column_view_make(gcol_data_type_make(GCOL_STRUCT), 4, NULL, NULL, 0);
  d->strct.num_children = 2;
  d->strct.children = d->struct_children;
  d->dict_children[0] = gcol_column_view_make(gcol_data_type_make(GCOL_INT32), 4, d->indices,
                                              d->mask, 1);
  d->dict_children[1] = d->str;
  d->dict = gcol_column_view_make(gcol_data_type_make(GCOL_DICTIONARY32), 4, NULL, d->mask, 1);
  d->dict.num_children = 2;
  d->dict.children = d->dict_children;
}

static void test_nested_schemas_and_field_names(void **state) {
  (void)state;
  nested_data d;
  make_nested(&d);
  assert_format(d.str, NULL, "u");
  d.str_children[0].type = gcol_data_type_make(GCOL_INT64);
  assert_format(d.str, NULL, "U");
  d.str_children[0].type = gcol_data_type_make(GCOL_INT32);
  struct ArrowSchema s;
  GCOL_TEST_OK(gcol_arrow_schema_export_column(d.list, NULL, &s));
  assert_string_equal(s.format, "+L");
  assert_int_equal(s.n_children, 1);
  assert_string_equal(s.children[0]->format, "l");
  assert_string_equal(s.children[0]->name, "item");
  s.release(&s);
  gcol_arrow_field names[2] = {{"id", NULL, 0, 0, NULL}, {"label", NULL, 0, 0, NULL}};
  gcol_arrow_field top = {"rec", NULL, 0, 2, names};
  GCOL_TEST_OK(gcol_arrow_schema_export_column(d.strct, &top, &s));
  assert_string_equal(s.format, "+s");
  assert_string_equal(s.name, "rec");
  assert_string_equal(s.children[0]->name, "id");
  assert_string_equal(s.children[1]->format, "u");
  assert_string_equal(s.children[1]->name, "label");
  /* A consumer may move a child out and release it after its parent. */
  struct ArrowSchema moved = *s.children[1];
  s.children[1]->release = NULL;
  s.release(&s);
  assert_string_equal(moved.name, "label");
  moved.release(&moved);
  GCOL_TEST_OK(gcol_arrow_schema_export_column(d.dict, NULL, &s));
  assert_string_equal(s.format, "i");
  assert_non_null(s.dictionary);
  assert_string_equal(s.dictionary->format, "u");
  s.release(&s);
  /* A table: a non-nullable struct whose columns are named by index by default. */
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(d.struct_children, 2, &t));
  GCOL_TEST_OK(gcol_arrow_schema_export_table(t, NULL, &s));
  assert_string_equal(s.format, "+s");
  assert_int_equal(s.flags, 0);
  assert_string_equal(s.children[0]->name, "0");
  assert_string_equal(s.children[1]->name, "1");
  s.release(&s);
}

/* Every exported schema parses back to the same gcol type. */
static void test_schema_round_trip(void **state) {
  (void)state;
  nested_data d;
  make_nested(&d);
  gcol_column_view views[] = {
      fixed(gcol_data_type_make(GCOL_UINT16), 0, NULL),
      fixed(gcol_data_type_make(GCOL_TIMESTAMP_NANOSECONDS), 0, NULL),
      fixed(gcol_data_type_make(GCOL_TIMESTAMP_DAYS), 0, NULL),
      fixed(gcol_data_type_decimal(GCOL_DECIMAL64, -7), 0, NULL),
      fixed(gcol_data_type_decimal(GCOL_DECIMAL128, 2), 0, NULL),
      fixed(gcol_data_type_make(GCOL_BOOL8), 0, NULL),
      d.str, d.list, d.strct, d.dict};
  for (size_t i = 0; i < sizeof views / sizeof views[0]; ++i) {
    struct ArrowSchema s;
    gcol_detail_arena arena;
    memset(&arena, 0, sizeof arena);
    gcol_detail_arrow_type *t = NULL;
    gcol_arrow_field *f = NULL;
    GCOL_TEST_OK(gcol_arrow_schema_export_column(views[i], NULL, &s));
    GCOL_TEST_OK(gcol_detail_arrow_schema_parse(&s, &arena, &t, &f));
    assert_true(gcol_data_type_equal(t->type, views[i].type));
    if (gcol_type_is_decimal(views[i].type.id)) {
      assert_int_equal(f->precision, gcol_detail_decimal_max_precision(views[i].type.id));
    }
    s.release(&s);
    gcol_detail_arena_free(&arena);
  }
}

/* ------------------------------------------------------------------ zero-copy round trips */

static void test_export_import_fixed_width_slice(void **state) {
  (void)state;
  int64_t data[70];
  uint32_t mask[4] = {0xFFFFFFFEu, 0x7FFFFFFFu, 0xFFFFFFFFu, 0};
  for (int i = 0; i < 70; ++i) data[i] = i * 3;
  gcol_column_view full = gcol_column_view_make(gcol_data_type_make(GCOL_INT64), 70, data, mask, 2);
  gcol_column_view slice;
  GCOL_TEST_OK(gcol_column_view_slice(full, 33, 65, &slice));
  struct ArrowDeviceArray a;
  owner_releases = 0;
  export_host_tree(slice, NULL, &a);
  /* Zero-copy: the very buffers, the slice as Arrow's offset, the mask as the bitmap. */
  assert_int_equal(a.array.length, 32);
  assert_int_equal(a.array.offset, 33);
  assert_int_equal(a.array.null_count, -1);
  assert_int_equal(a.array.n_buffers, 2);
  assert_ptr_equal(a.array.buffers[0], mask);
  assert_ptr_equal(a.array.buffers[1], data);
  struct ArrowSchema s;
  GCOL_TEST_OK(gcol_arrow_schema_export_column(slice, NULL, &s));
  gcol_imported *imp = NULL;
  GCOL_TEST_OK(gcol_arrow_device_import_column(&s, &a, NULL, NULL, &imp));
  assert_null(s.release);       /* consumed */
  assert_null(a.array.release); /* moved into the import */
  gcol_column_view const v = gcol_imported_column(imp);
  assert_int_equal(v.type.id, GCOL_INT64);
  assert_int_equal(v.size, 32);
  assert_int_equal(v.offset, 33);
  assert_ptr_equal(v.data, data);
  assert_ptr_equal(v.null_mask, mask);
  assert_int_equal(v.null_count, GCOL_UNKNOWN_NULL_COUNT);
  assert_true(gcol_column_view_is_valid(v, 0));
  assert_false(gcol_column_view_is_valid(v, 30)); /* row 63 */
  gcol_table_view const t = gcol_imported_table(imp);
  assert_int_equal(t.num_columns, 1);
  assert_int_equal(owner_releases, 0);
  gcol_imported_free(imp);
  assert_int_equal(owner_releases, 1);
}

/* Two views are the same zero-copy tree: same types, sizes, offsets, pointers. */
static void assert_same_views(gcol_column_view a, gcol_column_view b) {
  assert_true(gcol_data_type_equal(a.type, b.type));
  assert_int_equal(a.size, b.size);
  assert_int_equal(a.offset, b.offset);
  assert_ptr_equal(a.data, b.data);
  assert_ptr_equal(a.null_mask, b.null_mask);
  assert_int_equal(a.num_children, b.num_children);
  for (int32_t i = 0; i < a.num_children; ++i) {
    bool const offsets = i == 0 && (a.type.id == GCOL_STRING || a.type.id == GCOL_LIST);
    if (offsets) { /* Arrow keeps the parent's offset: the child covers offset + size + 1 */
      assert_ptr_equal(a.children[0].data, b.children[0].data);
      assert_true(a.children[0].type.id == b.children[0].type.id);
    } else if (a.type.id == GCOL_DICTIONARY32 && i == 0) {
      assert_ptr_equal(a.children[0].data, b.children[0].data);
    } else {
      assert_same_views(a.children[i], b.children[i]);
    }
  }
}

static void test_export_import_nested(void **state) {
  (void)state;
  nested_data d;
  make_nested(&d);
  gcol_column_view sliced_struct;
  GCOL_TEST_OK(gcol_column_view_slice(d.strct, 1, 4, &sliced_struct));
  gcol_column_view const views[] = {d.str, d.list, d.strct, sliced_struct, d.dict};
  for (size_t i = 0; i < sizeof views / sizeof views[0]; ++i) {
    struct ArrowDeviceArray a;
    struct ArrowSchema s;
    gcol_imported *imp = NULL;
    owner_releases = 0;
    export_host_tree(views[i], NULL, &a);
    GCOL_TEST_OK(gcol_arrow_schema_export_column(views[i], NULL, &s));
    GCOL_TEST_OK(gcol_arrow_device_import_column(&s, &a, NULL, NULL, &imp));
    gcol_column_view const v = gcol_imported_column(imp);
    GCOL_TEST_OK(gcol_column_view_validate(v, "imported"));
    assert_same_views(views[i], v);
    gcol_imported_free(imp);
    assert_int_equal(owner_releases, 1);
  }
}

static void test_export_import_table_with_names(void **state) {
  (void)state;
  nested_data d;
  make_nested(&d);
  gcol_table_view t, sliced;
  gcol_column_view storage[2];
  GCOL_TEST_OK(gcol_table_view_make(d.struct_children, 2, &t));
  GCOL_TEST_OK(gcol_table_view_slice(t, 1, 3, storage, &sliced));
  gcol_arrow_field fields[2] = {{"id", NULL, 0, 0, NULL}, {"label", NULL, 0, 0, NULL}};
  struct ArrowDeviceArray a;
  struct ArrowSchema s;
  gcol_imported *imp = NULL;
  owner_releases = 0;
  export_host_tree(sliced.columns[0], &sliced, &a);
  assert_int_equal(a.array.n_buffers, 1);
  assert_int_equal(a.array.n_children, 2);
  GCOL_TEST_OK(gcol_arrow_schema_export_table(sliced, fields, &s));
  GCOL_TEST_OK(gcol_arrow_device_import_table(&s, &a, NULL, NULL, &imp));
  gcol_table_view const got = gcol_imported_table(imp);
  assert_int_equal(got.num_columns, 2);
  assert_int_equal(got.num_rows, 2);
  assert_same_views(sliced.columns[0], got.columns[0]);
  assert_int_equal(got.columns[1].offset, 1);
  const gcol_arrow_field *f = gcol_imported_field(imp);
  assert_int_equal(f->num_children, 2);
  assert_string_equal(f->children[0].name, "id");
  assert_string_equal(f->children[1].name, "label");
  gcol_imported_free(imp);
  assert_int_equal(owner_releases, 1);
}

/* A child moved out of the export keeps the owner alive past its parent's release. */
static void test_export_child_moved_out(void **state) {
  (void)state;
  nested_data d;
  make_nested(&d);
  struct ArrowDeviceArray a;
  owner_releases = 0;
  export_host_tree(d.strct, NULL, &a);
  struct ArrowArray child = *a.array.children[1];
  a.array.children[1]->release = NULL;
  a.array.release(&a.array);
  assert_null(a.array.release);
  assert_int_equal(owner_releases, 0);
  assert_ptr_equal(child.buffers[2], d.chars);
  child.release(&child);
  assert_int_equal(owner_releases, 1);
}

/* A failed export leaves the owner with the caller and writes nothing. */
static void test_export_failures_keep_the_owner(void **state) {
  (void)state;
  gcol_column_view bad = fixed(gcol_data_type_make(GCOL_DURATION_DAYS), 0, NULL);
  struct ArrowArray out;
  memset(&out, 0, sizeof out);
  owner_releases = 0;
  GCOL_TEST_STATUS(gcol_detail_arrow_export_tree(bad, NULL, count_owner, NULL, false, &out, NULL,
                                                 NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(out.release);
  gcol_column_view null_data = fixed(gcol_data_type_make(GCOL_INT32), 3, NULL);
  GCOL_TEST_STATUS(gcol_detail_arrow_export_tree(null_data, NULL, count_owner, NULL, false, &out,
                                                 NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  /* A failure inside a struct's fields releases the fields already built. */
  gcol_column_view fields[2] = {fixed(gcol_data_type_make(GCOL_INT8), 0, NULL), bad};
  gcol_column_view s = gcol_column_view_make(gcol_data_type_make(GCOL_STRUCT), 0, NULL, NULL, 0);
  s.num_children = 2;
  s.children = fields;
  GCOL_TEST_STATUS(gcol_detail_arrow_export_tree(s, NULL, count_owner, NULL, false, &out, NULL,
                                                 NULL, NULL),
                   GCOL_ERROR_UNSUPPORTED);
  assert_int_equal(owner_releases, 0);
}

/* ------------------------------------------------------------------ malformed input */

static int32_t ints[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static uint32_t valid_words[2] = {0xFFu, 0};
static int32_t good_offsets[3] = {0, 1, 2};

typedef struct bad_case {
  const char *what;
  gcol_status expected;
  bool as_table;
  ArrowDeviceType device;
  struct ArrowSchema *(*schema)(void);
  struct ArrowArray *(*array)(void);
} bad_case;

static struct ArrowSchema *s_int32(void) { return fake_schema("i", NULL, 0); }
static struct ArrowSchema *s_null_format(void) { return fake_schema(NULL, NULL, 0); }
static struct ArrowSchema *s_garbage(void) { return fake_schema("x9", NULL, 0); }
static struct ArrowSchema *s_bad_decimal(void) { return fake_schema("d:12", NULL, 0); }
static struct ArrowSchema *s_decimal_precision(void) { return fake_schema("d:40,2", NULL, 0); }
static struct ArrowSchema *s_decimal256(void) { return fake_schema("d:40,2,256", NULL, 0); }
static struct ArrowSchema *s_bad_ts(void) { return fake_schema("tsx:", NULL, 0); }
static struct ArrowSchema *s_half(void) { return fake_schema("e", NULL, 0); }
static struct ArrowSchema *s_string_view(void) { return fake_schema("vu", NULL, 0); }
static struct ArrowSchema *s_binary_view(void) { return fake_schema("vz", NULL, 0); }
static struct ArrowSchema *s_map(void) { return fake_schema("+m", NULL, 1, fake_schema("+s", NULL, 0)); }
static struct ArrowSchema *s_int_child(void) { return fake_schema("i", NULL, 1, s_int32()); }
static struct ArrowSchema *s_list_no_child(void) { return fake_schema("+l", NULL, 0); }
static struct ArrowSchema *s_list(void) { return fake_schema("+l", NULL, 1, s_int32()); }
static struct ArrowSchema *s_struct(void) { return fake_schema("+s", NULL, 1, s_int32()); }
static struct ArrowSchema *s_string(void) { return fake_schema("u", NULL, 0); }
static struct ArrowSchema *s_null_children(void) {
  struct ArrowSchema *s = fake_schema("+s", NULL, 0);
  s->n_children = 2; /* children stays NULL */
  return s;
}
static struct ArrowSchema *s_released_child(void) {
  struct ArrowSchema *c = s_int32();
  struct ArrowSchema *s = fake_schema("+s", NULL, 1, c);
  c->release(c); /* a child already released */
  return s;
}
static struct ArrowSchema *s_cyclic(void) {
  struct ArrowSchema *inner = fake_schema("+l", NULL, 1, NULL);
  inner->children[0] = inner; /* cycles must end in the depth limit, not the stack */
  return fake_schema("+l", NULL, 1, inner);
}
static struct ArrowSchema *s_dict(const char *index) {
  struct ArrowSchema *s = fake_schema(index, NULL, 0);
  s->dictionary = s_string();
  return s;
}
static struct ArrowSchema *s_dict_float(void) { return s_dict("g"); }
static struct ArrowSchema *s_dict_int32(void) { return s_dict("i"); }

static struct ArrowArray *a_int32(void) { return fake_array(4, 0, 0, 2, NULL, ints, NULL, 0); }
static struct ArrowArray *a_three_buffers(void) {
  return fake_array(4, 0, 0, 3, NULL, ints, NULL, 0);
}
static struct ArrowArray *a_buffers_null(void) {
  struct ArrowArray *a = a_int32();
  free((void *)a->buffers);
  a->buffers = NULL;
  return a;
}
static struct ArrowArray *a_data_null(void) { return fake_array(4, 0, 0, 2, NULL, NULL, NULL, 0); }
static struct ArrowArray *a_nulls_no_mask(void) {
  return fake_array(4, 2, 0, 2, NULL, ints, NULL, 0);
}
static struct ArrowArray *a_negative_length(void) {
  return fake_array(-1, 0, 0, 2, NULL, ints, NULL, 0);
}
static struct ArrowArray *a_overflow(void) {
  return fake_array(INT64_MAX, 0, 5, 2, NULL, ints, NULL, 0);
}
static struct ArrowArray *a_null_count_high(void) {
  return fake_array(4, 5, 0, 2, valid_words, ints, NULL, 0);
}
static struct ArrowArray *a_misaligned(void) {
  return fake_array(2, 0, 0, 2, NULL, (const char *)ints + 2, NULL, 0);
}
static struct ArrowArray *a_mask_misaligned(void) {
  return fake_array(2, 1, 0, 2, (const char *)valid_words + 1, ints, NULL, 0);
}
static struct ArrowArray *a_released(void) {
  struct ArrowArray *a = a_int32();
  a->release = NULL;
  free((void *)a->buffers);
  a->buffers = NULL;
  return a;
}
static struct ArrowArray *a_extra_child(void) {
  return fake_array(4, 0, 0, 2, NULL, ints, NULL, 1, a_int32());
}
static struct ArrowArray *a_struct_short_child(void) {
  return fake_array(3, 0, 2, 1, NULL, NULL, NULL, 1,
                    fake_array(4, 0, 0, 2, NULL, ints, NULL, 0)); /* needs 2 + 3 rows */
}
static struct ArrowArray *a_struct(void) {
  return fake_array(4, 0, 0, 1, NULL, NULL, NULL, 1, a_int32());
}
static struct ArrowArray *a_struct_with_nulls(void) {
  return fake_array(4, 1, 0, 1, valid_words, NULL, NULL, 1, a_int32());
}
static struct ArrowArray *a_struct_null_child(void) {
  return fake_array(4, 0, 0, 1, NULL, NULL, NULL, 1, NULL);
}
static struct ArrowArray *a_list_no_offsets(void) {
  return fake_array(2, 0, 0, 2, NULL, NULL, NULL, 1, a_int32());
}
static struct ArrowArray *a_string_two_buffers(void) {
  return fake_array(2, 0, 0, 2, NULL, good_offsets, NULL, 0);
}
static struct ArrowArray *a_no_dictionary(void) { return a_int32(); }
static struct ArrowArray *a_with_dictionary(void) {
  struct ArrowArray *a = a_int32();
  a->dictionary = fake_array(2, 0, 0, 3, NULL, good_offsets, "ab", 0);
  return a;
}
static struct ArrowArray *a_released_child(void) {
  struct ArrowArray *c = a_int32();
  struct ArrowArray *a = fake_array(4, 0, 0, 1, NULL, NULL, NULL, 1, c);
  c->release(c);
  return a;
}

static const bad_case bad_cases[] = {
    {"NULL format", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_null_format, a_int32},
    {"unknown format", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_garbage, a_int32},
    {"decimal without scale", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_bad_decimal, a_int32},
    {"decimal128 precision 40", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_decimal_precision, a_int32},
    {"timestamp unit x", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_bad_ts, a_int32},
    {"decimal256", GCOL_ERROR_UNSUPPORTED, false, ARROW_DEVICE_CUDA_HOST, s_decimal256, a_int32},
    {"half float", GCOL_ERROR_UNSUPPORTED, false, ARROW_DEVICE_CUDA_HOST, s_half, a_int32},
    {"string view with two buffers", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_string_view, a_int32},
    {"binary view", GCOL_ERROR_UNSUPPORTED, false, ARROW_DEVICE_CUDA_HOST, s_binary_view, a_int32},
    {"map", GCOL_ERROR_UNSUPPORTED, false, ARROW_DEVICE_CUDA_HOST, s_map, a_int32},
    {"int32 with a child", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int_child, a_int32},
    {"list without its child", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_list_no_child, a_int32},
    {"struct with NULL children", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_null_children, a_struct},
    {"released schema child", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_released_child, a_struct},
    {"cyclic schema", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_cyclic, a_int32},
    {"float dictionary indices", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_dict_float, a_with_dictionary},
    {"dictionary type, no dictionary", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_dict_int32, a_no_dictionary},
    {"dictionary the schema lacks", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_with_dictionary},
    {"three buffers for int32", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_three_buffers},
    {"buffers NULL", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_buffers_null},
    {"data NULL for 4 rows", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_data_null},
    {"nulls without validity", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_nulls_no_mask},
    {"negative length", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_negative_length},
    {"offset + length overflow", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_overflow},
    {"null count above length", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_null_count_high},
    {"misaligned data", GCOL_ERROR_UNSUPPORTED, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_misaligned},
    {"misaligned validity", GCOL_ERROR_UNSUPPORTED, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_mask_misaligned},
    {"released array", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_released},
    {"array child the schema lacks", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_int32, a_extra_child},
    {"struct child too short", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_struct, a_struct_short_child},
    {"struct child NULL", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_struct, a_struct_null_child},
    {"released array child", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_struct, a_released_child},
    {"list without offsets", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_list, a_list_no_offsets},
    {"string with two buffers", GCOL_ERROR_INVALID_ARGUMENT, false, ARROW_DEVICE_CUDA_HOST, s_string, a_string_two_buffers},
    {"table of an int32 array", GCOL_ERROR_INVALID_ARGUMENT, true, ARROW_DEVICE_CUDA_HOST, s_int32, a_int32},
    {"table with null rows", GCOL_ERROR_INVALID_ARGUMENT, true, ARROW_DEVICE_CUDA_HOST, s_struct, a_struct_with_nulls},
    {"CPU device", GCOL_ERROR_UNSUPPORTED, false, ARROW_DEVICE_CPU, s_int32, a_int32},
    {"ROCm device", GCOL_ERROR_UNSUPPORTED, false, ARROW_DEVICE_ROCM, s_int32, a_int32},
};

static void test_malformed_device_imports(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; ++i) {
    bad_case const *c = &bad_cases[i];
    int schema_releases = 0, array_releases = 0;
    struct ArrowSchema s;
    struct ArrowDeviceArray a;
    memset(&a, 0, sizeof a);
    fake_schema_top(c->schema(), &schema_releases, &s);
    struct ArrowArray *node = c->array();
    bool const was_released = node->release == NULL;
    fake_array_top(node, &array_releases, &a.array);
    if (was_released) a.array.release = NULL;
    a.device_type = c->device;
    gcol_imported *imp = (gcol_imported *)&imp;
    gcol_clear_last_error();
    gcol_status const st = c->as_table ? gcol_arrow_device_import_table(&s, &a, NULL, NULL, &imp)
                                       : gcol_arrow_device_import_column(&s, &a, NULL, NULL, &imp);
    if (st != c->expected || imp != NULL || gcol_last_error()[0] == '\0') {
      fail_msg("%s: %s (%s), expected %s", c->what, gcol_status_string(st), gcol_last_error(),
               gcol_status_string(c->expected));
    }
    if (schema_releases != 1 || array_releases != (was_released ? 0 : 1)) {
      fail_msg("%s: schema released %d times, array %d times", c->what, schema_releases,
               array_releases);
    }
    if (s.release != NULL || a.array.release != NULL) fail_msg("%s: left unreleased", c->what);
  }
}

static void test_null_pointers_consume_the_other(void **state) {
  (void)state;
  int schema_releases = 0, array_releases = 0;
  struct ArrowSchema s;
  struct ArrowDeviceArray a;
  memset(&a, 0, sizeof a);
  gcol_imported *imp = NULL;
  fake_schema_top(s_int32(), &schema_releases, &s);
  GCOL_TEST_STATUS(gcol_arrow_device_import_column(&s, NULL, NULL, NULL, &imp),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(schema_releases, 1);
  fake_array_top(a_int32(), &array_releases, &a.array);
  a.device_type = ARROW_DEVICE_CUDA_HOST;
  GCOL_TEST_STATUS(gcol_arrow_device_import_column(NULL, &a, NULL, NULL, &imp),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_int_equal(array_releases, 1);
  gcol_imported_free(NULL);
  assert_null(gcol_imported_field(NULL));
}

/* A valid import of each fake layout releases the producer once, at gcol_imported_free. */
static void test_fake_producer_imports(void **state) {
  (void)state;
  struct {
    struct ArrowSchema *(*schema)(void);
    struct ArrowArray *(*array)(void);
    gcol_type_id id;
  } const cases[] = {
      {s_int32, a_int32, GCOL_INT32},
      {s_struct, a_struct, GCOL_STRUCT},
      {s_dict_int32, a_with_dictionary, GCOL_DICTIONARY32},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int schema_releases = 0, array_releases = 0;
    struct ArrowSchema s;
    struct ArrowDeviceArray a;
    memset(&a, 0, sizeof a);
    fake_schema_top(cases[i].schema(), &schema_releases, &s);
    fake_array_top(cases[i].array(), &array_releases, &a.array);
    a.device_type = ARROW_DEVICE_CUDA_MANAGED;
    gcol_imported *imp = NULL;
    GCOL_TEST_OK(gcol_arrow_device_import_column(&s, &a, NULL, NULL, &imp));
    assert_int_equal(schema_releases, 1);
    assert_int_equal(array_releases, 0);
    gcol_column_view const v = gcol_imported_column(imp);
    assert_int_equal(v.type.id, cases[i].id);
    GCOL_TEST_OK(gcol_column_view_validate(v, "imported"));
    gcol_imported_free(imp);
    assert_int_equal(array_releases, 1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_formats_of_every_type),
      cmocka_unit_test(test_nested_schemas_and_field_names),
      cmocka_unit_test(test_schema_round_trip),
      cmocka_unit_test(test_export_import_fixed_width_slice),
      cmocka_unit_test(test_export_import_nested),
      cmocka_unit_test(test_export_import_table_with_names),
      cmocka_unit_test(test_export_child_moved_out),
      cmocka_unit_test(test_export_failures_keep_the_owner),
      cmocka_unit_test(test_malformed_device_imports),
      cmocka_unit_test(test_null_pointers_consume_the_other),
      cmocka_unit_test(test_fake_producer_imports),
  };
  return GCOL_TEST_RUN("interop_host", tests);
}
