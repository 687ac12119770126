/*
 * Host reference for the reduction, segmented reduction, quantile and scan tests, in plain
 * C and written independently of the kernels' helpers: values are read through their C
 * types, ordered with an explicit comparison (NaN largest, -0.0 < +0.0), summed in uint64
 * (integers, wrapping) or long double (floats).
 */
#ifndef GCOL_TESTS_REDUCTION_REFERENCE_H
#define GCOL_TESTS_REDUCTION_REFERENCE_H

#include "test_util.h"

/* A fixed-width host column: `size` values of the type's storage and optional validity. */
typedef struct ref_column {
  gcol_data_type type;
  int64_t size;
  unsigned char *data; /* size * width bytes */
  uint8_t *valid;      /* size bytes or NULL (no mask) */
} ref_column;

/* A random column: full-range integers (with MIN and MAX planted), floats in [-1000, 1000],
 * BOOL8 bytes 0, 1 and 2 (non-zero is true), decimals and times as their storage. */
ref_column ref_column_random(gcol_test_rng *rng, gcol_data_type type, int64_t size,
                             gcol_test_validity pattern);
void ref_column_free(ref_column *c);
/* Rows [begin, begin + n) as a view into c (no copy). */
ref_column ref_column_window(const ref_column *c, int64_t begin, int64_t n);
bool ref_is_valid(const ref_column *c, int64_t i);
/* Uploads to a new device column (synchronizes). */
gcol_column *ref_column_to_device(const ref_column *c);

/* Element readers: signed kinds sign-extend, unsigned kinds and BOOL8 (as 0/1) zero-extend. */
uint64_t ref_get_bits(const ref_column *c, int64_t i);
long double ref_get_ld(const ref_column *c, int64_t i);
bool ref_is_float(gcol_type_id id);
bool ref_is_signed(gcol_type_id id);
/* Total order of values i and j: <0, 0, >0 (NaN largest, -0.0 < +0.0). */
int ref_compare(const ref_column *c, int64_t i, int64_t j);
/* Storage bits of row i (its low width bytes, BOOL8 as stored). */
uint64_t ref_storage_bits(const ref_column *c, int64_t i);

/* An expected reduction result. Exact results compare `bits` (the output's storage bits);
 * float results compare `value` within `tolerance`. */
typedef struct ref_result {
  bool valid;
  bool exact;
  uint64_t bits;
  long double value;
  long double tolerance;
  bool unchecked_value; /* float product whose rounding depends on the order: validity only */
} ref_result;

ref_result ref_reduce(const ref_column *c, gcol_reduce_op op, int32_t ddof);

/* Checks a device result (scalar storage bits or a float value) against the reference.
 * `got_bits` are the low width bytes of the output type's storage. A failure names
 * `context` and, when row >= 0, the row. */
void ref_check_result(ref_result expected, bool got_valid, uint64_t got_bits,
                      gcol_data_type out_type, const char *context, int64_t row);

/* Expected quantile: lower/higher/nearest exact bits, linear/midpoint value. */
ref_result ref_quantile(const ref_column *c, double q, gcol_interpolation interp);

/* Expected scan of c into `out` (size rows: bits or values) and its validity. */
void ref_scan(const ref_column *c, gcol_scan_op op, gcol_scan_type type, gcol_scan_nulls nulls,
              ref_result *out);

/* Reads the storage bits of row i of a host array of width-byte values. */
uint64_t ref_bits_at(const void *data, int64_t i, size_t width);
/* The double a FLOAT32/FLOAT64 storage word holds. */
long double ref_float_of_bits(uint64_t bits, size_t width);

/* gcol_test_check_allocation_failures() for an op that frees what it made (so no cleanup),
 * announced by name in a TAP comment: allocation n = 1, 2, ... fails until op succeeds; each
 * failure must be GCOL_ERROR_OUT_OF_MEMORY and leave the live bytes unchanged. Returns the
 * number of failed runs. */
int ref_fail_nth_loop(gcol_status (*op)(void *ctx), void *ctx, const char *name);

#endif /* GCOL_TESTS_REDUCTION_REFERENCE_H */
