/*
 * Host reference for the copying tests, in plain C: a host column (`hcol`) of any type
 * (fixed-width, STRING, LIST, STRUCT, recursively), random generation over TESTING.md's
 * axes, upload to and download from the device, the reference gather / concatenate / slice,
 * and logical comparison (nulls equal whatever lies under them).
 */
#ifndef GCOL_TESTS_COPYING_REFERENCE_H
#define GCOL_TESTS_COPYING_REFERENCE_H

#include "test_util.h"

/* A column in host memory. Offsets are int64 and start wherever the data says. */
typedef struct hcol {
  gcol_data_type type;
  int64_t size;
  uint8_t *valid;       /* size bytes (1 valid, 0 null), or NULL: no mask */
  unsigned char *data;  /* fixed-width: size * width bytes */
  int64_t *offsets;     /* STRING, LIST: size + 1 */
  char *chars;          /* STRING: offsets[size] bytes */
  struct hcol *values;  /* LIST: the values */
  int32_t num_fields;   /* STRUCT */
  struct hcol **fields; /* STRUCT: num_fields columns of size rows */
} hcol;

/* Shapes of random columns. */
typedef enum hkind {
  HK_FIXED = 0,   /* the fixed-width type given */
  HK_STRING,      /* UTF-8 of 1..4-byte characters, "", "\0", U+10FFFF */
  HK_LIST_INT32,  /* list<int32> */
  HK_LIST_STRING, /* list<string> */
  HK_STRUCT,      /* struct<int64, string, list<int32>> */
  HK_NUM_KINDS
} hkind;

const char *hkind_name(hkind kind);

hcol *hcol_new(gcol_data_type type, int64_t size);
void hcol_free(hcol *h);
bool hcol_is_valid(const hcol *h, int64_t row);

/* A random column; `fixed_id` is used by HK_FIXED. */
hcol *hcol_random(gcol_test_rng *rng, hkind kind, gcol_type_id fixed_id, int64_t size,
                  gcol_test_validity pattern);

/* Strings from C strings with lengths (NULL entry: null row). */
hcol *hcol_strings(int64_t size, const char *const *strings, const int64_t *lengths);

/* `rows` copies of a fixed-width or STRING scalar (null scalar: null rows). */
hcol *hcol_from_scalar(const gcol_scalar *scalar, int64_t rows);

/* An upload of `h` behind `offset` random leading rows, and the view of its last h->size
 * rows (so the view's offset is `offset`, strings' first offset not 0). Free *owner. */
gcol_column_view hcol_to_device_sliced(const hcol *h, int64_t offset, bool int64_offsets,
                                       gcol_test_rng *rng, gcol_column **owner);

/* Reference operations (new columns). rows[i] < 0 gives a null row. */
hcol *hcol_gather(const hcol *src, const int64_t *rows, int64_t n);
hcol *hcol_concat(hcol *const *parts, int32_t num_parts);
hcol *hcol_slice(const hcol *src, int64_t begin, int64_t end);

/* Device round trip. int64_offsets makes STRING/LIST offsets INT64 at every level. Null
 * masks get garbage in their padding bits; values under nulls are random. */
gcol_column *hcol_to_device(const hcol *h, bool int64_offsets, gcol_stream stream);
/* Reads a device view (offset honoured) and checks its null count against its mask. */
hcol *hcol_from_device(gcol_column_view view);

/* Fails the test at the first logical difference, naming `context`. */
void hcol_assert_equal(const hcol *expected, const hcol *actual, const char *context);

/* Reads a device view and compares it with `expected`. */
void hcol_assert_device_equal(const hcol *expected, gcol_column_view actual, const char *context);

/* The fixed-width type ids (every one of the type list). */
extern const gcol_type_id hcol_fixed_types[];
extern const size_t hcol_num_fixed_types;
/* The integer type ids, INT8..UINT64. */
extern const gcol_type_id hcol_index_types[];
extern const size_t hcol_num_index_types;

/* An index column of type `id` holding `values` (which must fit it). */
gcol_column *hcol_index_column(gcol_type_id id, const int64_t *values, int64_t n,
                               const uint8_t *valid, gcol_stream stream);

/* A fail-on-Nth loop: runs `op(ctx)` with the default resource failing the n-th allocation
 * for n = 1, 2, ... until it succeeds; each failure must be GCOL_ERROR_OUT_OF_MEMORY with
 * live bytes back to the value before the call. `op` returns the status and frees its own
 * output on success. Returns the number of failing runs seen. */
int hcol_fail_nth_loop(gcol_status (*op)(void *ctx), void *ctx, const char *name);

#endif /* GCOL_TESTS_COPYING_REFERENCE_H */
