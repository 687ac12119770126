/* Host reference for the sorting tests: see sort_ref.h. */
#include "sort_ref.h"

#include <float.h>
#include <math.h>

size_t ref_value_size(gcol_type_id id) { return gcol_type_size(id); }

int64_t ref_index_at(const void *data, gcol_type_id type, int64_t i) {
  return type == GCOL_INT32 ? (int64_t)((const int32_t *)data)[i] : ((const int64_t *)data)[i];
}

#define REF_CMP(x, y) ((x) < (y) ? -1 : ((x) > (y) ? 1 : 0))

/* Floats: -0 == +0, every NaN equal and above +Inf. */
static int ref_compare_doubles(double x, double y) {
  bool const nx = isnan(x), ny = isnan(y);
  if (nx || ny) return nx == ny ? 0 : (nx ? 1 : -1);
  return REF_CMP(x, y); /* -0.0 == 0.0 compares equal in C */
}

static int ref_compare_strings(const ref_column *c, int64_t a, int64_t b) {
  int64_t const la = c->lengths[a], lb = c->lengths[b];
  int64_t const n = la < lb ? la : lb;
  int const m = n > 0 ? memcmp(c->strings[a], c->strings[b], (size_t)n) : 0;
  if (m != 0) return m < 0 ? -1 : 1;
  return REF_CMP(la, lb);
}

static int ref_compare_values2(const ref_column *ca, int64_t a, const ref_column *cb, int64_t b) {
  gcol_type_id const id = ca->type.id;
  if (id == GCOL_STRING) {
    int64_t const la = ca->lengths[a], lb = cb->lengths[b];
    int64_t const n = la < lb ? la : lb;
    int const m = n > 0 ? memcmp(ca->strings[a], cb->strings[b], (size_t)n) : 0;
    if (m != 0) return m < 0 ? -1 : 1;
    return REF_CMP(la, lb);
  }
  if (id == GCOL_DECIMAL128) {
    const gcol_int128 *x = (const gcol_int128 *)ca->data + a;
    const gcol_int128 *y = (const gcol_int128 *)cb->data + b;
    if (x->hi != y->hi) return REF_CMP(x->hi, y->hi);
    return REF_CMP(x->lo, y->lo);
  }
  switch (gcol_type_storage_id(id)) {
    case GCOL_INT8:
      return REF_CMP(((const int8_t *)ca->data)[a], ((const int8_t *)cb->data)[b]);
    case GCOL_INT16:
      return REF_CMP(((const int16_t *)ca->data)[a], ((const int16_t *)cb->data)[b]);
    case GCOL_INT32:
      return REF_CMP(((const int32_t *)ca->data)[a], ((const int32_t *)cb->data)[b]);
    case GCOL_INT64:
      return REF_CMP(((const int64_t *)ca->data)[a], ((const int64_t *)cb->data)[b]);
    case GCOL_UINT8:
      if (id == GCOL_BOOL8) {
        return REF_CMP(((const uint8_t *)ca->data)[a] != 0, ((const uint8_t *)cb->data)[b] != 0);
      }
      return REF_CMP(((const uint8_t *)ca->data)[a], ((const uint8_t *)cb->data)[b]);
    case GCOL_UINT16:
      return REF_CMP(((const uint16_t *)ca->data)[a], ((const uint16_t *)cb->data)[b]);
    case GCOL_UINT32:
      return REF_CMP(((const uint32_t *)ca->data)[a], ((const uint32_t *)cb->data)[b]);
    case GCOL_UINT64:
      return REF_CMP(((const uint64_t *)ca->data)[a], ((const uint64_t *)cb->data)[b]);
    case GCOL_FLOAT32:
      return ref_compare_doubles(((const float *)ca->data)[a], ((const float *)cb->data)[b]);
    case GCOL_FLOAT64:
      return ref_compare_doubles(((const double *)ca->data)[a], ((const double *)cb->data)[b]);
    default:
      return 0;
  }
}

int ref_compare_values(const ref_column *c, int64_t a, int64_t b) {
  if (c->type.id == GCOL_STRING) return ref_compare_strings(c, a, b);
  return ref_compare_values2(c, a, c, b);
}

int ref_compare_rows2(const ref_column *left, int64_t a, const ref_column *right, int64_t b,
                      int32_t num_cols) {
  for (int32_t k = 0; k < num_cols; ++k) {
    const ref_column *ca = &left[k], *cb = &right[k];
    bool const va = ca->valid == NULL || ca->valid[a];
    bool const vb = cb->valid == NULL || cb->valid[b];
    int cmp;
    if (!va || !vb) {
      if (va == vb) continue;
      /* nulls first or last in the output, whatever the order */
      cmp = (!va) == (ca->null_order == GCOL_NULLS_BEFORE) ? -1 : 1;
      return cmp;
    }
    cmp = ref_compare_values2(ca, a, cb, b);
    if (ca->order == GCOL_ORDER_DESCENDING) cmp = -cmp;
    if (cmp != 0) return cmp;
  }
  return 0;
}

int ref_compare_rows(const ref_column *cols, int32_t num_cols, int64_t a, int64_t b) {
  return ref_compare_rows2(cols, a, cols, b, num_cols);
}

static const ref_column *qsort_cols = NULL;
static int32_t qsort_num_cols = 0;

static int ref_qsort_compare(const void *x, const void *y) {
  int64_t const a = *(const int64_t *)x, b = *(const int64_t *)y;
  int const cmp = ref_compare_rows(qsort_cols, qsort_num_cols, a, b);
  return cmp != 0 ? cmp : REF_CMP(a, b);
}

void ref_stable_order(const ref_column *cols, int32_t num_cols, int64_t n, int64_t *perm) {
  for (int64_t i = 0; i < n; ++i) perm[i] = i;
  qsort_cols = cols;
  qsort_num_cols = num_cols;
  if (n > 1) qsort(perm, (size_t)n, sizeof *perm, ref_qsort_compare);
}

static void fill_float(gcol_test_rng *rng, gcol_type_id id, void *data, int64_t i) {
  static const double specials[] = {0.0, -0.0, 1.5, -1.5, 3.0};
  uint64_t const r = gcol_test_rng_next(rng) % 16;
  double v = specials[gcol_test_rng_next(rng) % 5] + (double)(int)(gcol_test_rng_next(rng) % 5);
  if (r == 0) v = NAN;
  if (r == 1) v = -NAN;
  if (r == 2) v = INFINITY;
  if (r == 3) v = -INFINITY;
  if (r == 4) v = id == GCOL_FLOAT32 ? FLT_MAX : DBL_MAX;
  if (r == 5) v = id == GCOL_FLOAT32 ? -FLT_MAX : -DBL_MAX;
  if (r == 6) v = id == GCOL_FLOAT32 ? FLT_TRUE_MIN : DBL_TRUE_MIN;
  if (r == 7) v = -0.0;
  if (r == 8) v = 0.0;
  if (id == GCOL_FLOAT32) {
    ((float *)data)[i] = (float)v;
  } else {
    ((double *)data)[i] = v;
  }
}

void ref_fill_values(gcol_test_rng *rng, gcol_data_type type, void *data, int64_t n) {
  gcol_type_id const id = type.id;
  size_t const width = gcol_type_size(id);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t const r = gcol_test_rng_next(rng);
    int64_t small = (int64_t)(r % 7) - 3; /* ties */
    if (gcol_type_is_floating(id)) {
      fill_float(rng, id, data, i);
      continue;
    }
    if (id == GCOL_DECIMAL128) {
      gcol_int128 v;
      v.hi = (r >> 8) % 5 == 0 ? INT64_MIN : ((r >> 8) % 5 == 1 ? INT64_MAX : small);
      v.lo = (r >> 16) % 3 == 0 ? ~(uint64_t)0 : (uint64_t)(small + 3);
      ((gcol_int128 *)data)[i] = v;
      continue;
    }
    if (id == GCOL_BOOL8) {
      ((uint8_t *)data)[i] =
          (uint8_t)(r % 3 == 0 ? 0 : (r % 3 == 1 ? 1 : 0x80)); /* non-zero = true */
      continue;
    }
    bool const is_unsigned = gcol_type_is_unsigned_integral(id);
    int const pick = (int)((r >> 32) % 10);
    uint64_t bits;
    if (pick == 0) {
      bits = is_unsigned ? 0 : ((uint64_t)1 << (width * 8 - 1)); /* MIN */
    } else if (pick == 1) {
      bits = is_unsigned ? ~(uint64_t)0 : (((uint64_t)1 << (width * 8 - 1)) - 1u); /* MAX */
    } else {
      bits = (uint64_t)(is_unsigned ? small + 3 : small);
    }
    memcpy((char *)data + (size_t)i * width, &bits, width); /* little-endian low bytes */
  }
}
