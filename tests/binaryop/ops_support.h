/*
 * Helpers of the compute-operation GPU tests: random typed host data with the special
 * values of TESTING.md, device columns from it (sliced at an offset), results back to the
 * host, a fail-on-Nth allocation loop, and float comparison in ulps.
 */
#ifndef GCOL_TESTS_OPS_SUPPORT_H
#define GCOL_TESTS_OPS_SUPPORT_H

#include "test_util.h"

/* Host data of one fixed-width column: n values in storage bytes, and validity bytes. */
typedef struct ops_host_col {
  gcol_data_type type;
  int64_t size;
  unsigned char *data; /* size * width bytes */
  uint8_t *valid;      /* size bytes; NULL = no mask */
} ops_host_col;

/* Random values of `type` with MIN/MAX/0/+-1 (and NaN, +-0, +-Inf, subnormals, DBL_MAX for
 * floats) mixed in, and validity by `pattern`. */
ops_host_col ops_host_random(gcol_test_rng *rng, gcol_data_type type, int64_t n,
                             gcol_test_validity pattern);
void ops_host_free(ops_host_col *c);

/* Element i as the widest type of its kind. */
int64_t ops_get_i64(const ops_host_col *c, int64_t i);
uint64_t ops_get_u64(const ops_host_col *c, int64_t i);
double ops_get_f64(const ops_host_col *c, int64_t i);
bool ops_is_valid(const ops_host_col *c, int64_t i);

/* Uploads the column with `offset` garbage rows in front and returns the owning column and
 * a view of rows [offset, offset + n). */
gcol_column *ops_upload(const ops_host_col *c, int64_t offset, gcol_column_view *view);

/* Downloads a fixed-width view: data (width * size bytes) and validity (size bytes). */
void ops_download(gcol_column_view v, unsigned char **data, uint8_t **valid);

/* Distance in units in the last place between two doubles (0 for equal, NaN == NaN). */
int64_t ops_ulp_f64(double a, double b);
int64_t ops_ulp_f32(float a, float b);

/* Runs `call` through gcol_test_check_allocation_failures (fail-on-Nth resource for N = 1,
 * 2, ... until it succeeds; the succeeding output is freed before that resource is
 * destroyed): each failure must be OUT_OF_MEMORY with *out NULL and no live bytes left;
 * returns N, the number of the first run that succeeded. */
typedef gcol_status (*ops_alloc_call)(void *ctx, gcol_column **out);
int64_t ops_fail_nth_loop(ops_alloc_call call, void *ctx);

#endif /* GCOL_TESTS_OPS_SUPPORT_H */
