/* Host reference of reductions, quantiles and scans: see reduction_reference.h. */
#include "reduction_reference.h"

#include <float.h>
#include <math.h>

bool ref_is_float(gcol_type_id id) { return id == GCOL_FLOAT32 || id == GCOL_FLOAT64; }

bool ref_is_signed(gcol_type_id id) {
  gcol_type_id const s = gcol_type_storage_id(id);
  return s == GCOL_INT8 || s == GCOL_INT16 || s == GCOL_INT32 || s == GCOL_INT64;
}

uint64_t ref_bits_at(const void *data, int64_t i, size_t width) {
  uint64_t bits = 0; /* DECIMAL128 (width 16): its low 8 bytes */
  memcpy(&bits, (const unsigned char *)data + (size_t)i * width, width < 8 ? width : 8);
  return bits;
}

long double ref_float_of_bits(uint64_t bits, size_t width) {
  if (width == 4) {
    float f;
    uint32_t b = (uint32_t)bits;
    memcpy(&f, &b, sizeof f);
    return f;
  }
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static size_t width_of(const ref_column *c) { return gcol_type_size(c->type.id); }

bool ref_is_valid(const ref_column *c, int64_t i) { return c->valid == NULL || c->valid[i] != 0; }

uint64_t ref_storage_bits(const ref_column *c, int64_t i) {
  return ref_bits_at(c->data, i, width_of(c));
}

uint64_t ref_get_bits(const ref_column *c, int64_t i) {
  const unsigned char *p = c->data + (size_t)i * width_of(c);
  switch (gcol_type_storage_id(c->type.id)) {
    case GCOL_INT8: { int8_t v; memcpy(&v, p, 1); return (uint64_t)(int64_t)v; }
    case GCOL_INT16: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v; }
    case GCOL_INT32: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
    case GCOL_INT64: { int64_t v; memcpy(&v, p, 8); return (uint64_t)v; }
    case GCOL_UINT8:
      return c->type.id == GCOL_BOOL8 ? (p[0] != 0) : p[0];
    case GCOL_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case GCOL_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}

long double ref_get_ld(const ref_column *c, int64_t i) {
  if (ref_is_float(c->type.id)) return ref_float_of_bits(ref_storage_bits(c, i), width_of(c));
  uint64_t const bits = ref_get_bits(c, i);
  return ref_is_signed(c->type.id) ? (long double)(int64_t)bits : (long double)bits;
}

int ref_compare(const ref_column *c, int64_t i, int64_t j) {
  if (ref_is_float(c->type.id)) {
    long double const a = ref_get_ld(c, i), b = ref_get_ld(c, j);
    bool const nan_a = isnan(a), nan_b = isnan(b);
    if (nan_a || nan_b) return nan_a == nan_b ? 0 : (nan_a ? 1 : -1);
    if (a == b) return (signbit(b) ? 1 : 0) - (signbit(a) ? 1 : 0); /* -0 < +0 */
    return a < b ? -1 : 1;
  }
  uint64_t const a = ref_get_bits(c, i), b = ref_get_bits(c, j);
  if (ref_is_signed(c->type.id)) {
    return (int64_t)a < (int64_t)b ? -1 : ((int64_t)a > (int64_t)b ? 1 : 0);
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}

/* ------------------------------------------------------------------ columns */

static void fill_random_value(gcol_test_rng *rng, gcol_data_type type, unsigned char *p) {
  size_t const w = gcol_type_size(type.id);
  if (type.id == GCOL_FLOAT32) {
    float const f = (float)(gcol_test_rng_double(rng) * 2000.0 - 1000.0);
    memcpy(p, &f, 4);
  } else if (type.id == GCOL_FLOAT64) {
    double const d = gcol_test_rng_double(rng) * 2000.0 - 1000.0;
    memcpy(p, &d, 8);
  } else if (type.id == GCOL_BOOL8) {
    p[0] = (unsigned char)gcol_test_rng_range(rng, 0, 2);
  } else {
    gcol_test_rng_fill(rng, p, w);
  }
}

/* The type's smallest and largest storage values (integers), planted at fixed rows. */
static void plant_extremes(ref_column *c) {
  size_t const w = width_of(c);
  if (ref_is_float(c->type.id) || c->type.id == GCOL_BOOL8 || c->size < 4 || w > 8) return;
  uint64_t hi = w == 8 ? ~0ull : ((1ull << (w * 8)) - 1);
  uint64_t lo = 0;
  if (ref_is_signed(c->type.id)) {
    lo = 1ull << (w * 8 - 1); /* MIN */
    hi = lo - 1;              /* MAX */
  }
  memcpy(c->data + (size_t)(c->size / 3) * w, &lo, w);
  memcpy(c->data + (size_t)(c->size / 2) * w, &hi, w);
}

ref_column ref_column_random(gcol_test_rng *rng, gcol_data_type type, int64_t size,
                             gcol_test_validity pattern) {
  ref_column c;
  size_t const w = gcol_type_size(type.id);
  c.type = type;
  c.size = size;
  c.data = (unsigned char *)malloc((size_t)(size > 0 ? size : 1) * w);
  c.valid = NULL;
  for (int64_t i = 0; i < size; ++i) fill_random_value(rng, type, c.data + (size_t)i * w);
  plant_extremes(&c);
  if (pattern != GCOL_TEST_NO_MASK) {
    c.valid = (uint8_t *)malloc((size_t)(size > 0 ? size : 1));
    gcol_test_fill_valid(rng, pattern, c.valid, size);
  }
  return c;
}

void ref_column_free(ref_column *c) {
  free(c->data);
  free(c->valid);
  c->data = NULL;
  c->valid = NULL;
}

ref_column ref_column_window(const ref_column *c, int64_t begin, int64_t n) {
  ref_column w = *c;
  w.size = n;
  w.data = c->data + (size_t)begin * width_of(c);
  w.valid = c->valid == NULL ? NULL : c->valid + begin;
  return w;
}

gcol_column *ref_column_to_device(const ref_column *c) {
  gcol_column *col = NULL;
  GCOL_TEST_OK(gcol_column_create_from_host(c->type, c->size, c->data, c->valid, NULL, NULL, &col));
  return col;
}

/* ------------------------------------------------------------------ reductions */

static ref_result exact_result(uint64_t bits) {
  ref_result r;
  memset(&r, 0, sizeof r);
  r.valid = true;
  r.exact = true;
  r.bits = bits;
  return r;
}

static ref_result value_result(long double value, long double tolerance) {
  ref_result r;
  memset(&r, 0, sizeof r);
  r.valid = true;
  r.value = value;
  r.tolerance = tolerance;
  return r;
}

static ref_result null_result(void) {
  ref_result r;
  memset(&r, 0, sizeof r);
  return r;
}

/* Row of the smallest (want_max false) or largest valid value, first on ties; -1 if none. */
static int64_t extreme_row(const ref_column *c, bool want_max) {
  int64_t best = -1;
  for (int64_t i = 0; i < c->size; ++i) {
    if (!ref_is_valid(c, i)) continue;
    if (best < 0) {
      best = i;
      continue;
    }
    int const cmp = ref_compare(c, i, best);
    if (want_max ? cmp > 0 : cmp < 0) best = i;
  }
  return best;
}

/* A value result holding a float element exactly (tolerance 0: sign of zero checked too). */
static ref_result element_result(const ref_column *c, int64_t row) {
  if (ref_is_float(c->type.id)) return value_result(ref_get_ld(c, row), 0);
  return exact_result(ref_get_bits(c, row));
}

/* Relative slack of a float result rounded to the output type. */
static long double rounding_slack(gcol_type_id id) { return id == GCOL_FLOAT32 ? 1.2e-7L : 0; }

/* A float product is order-independent enough to check only when no partial product can
 * overflow or underflow in any order: the product of the factors above 1 stays far below
 * DBL_MAX and the product of those below 1 (zeros aside) far above DBL_MIN. */
static bool product_is_checkable(const ref_column *c) {
  long double big = 1, small = 1;
  for (int64_t i = 0; i < c->size; ++i) {
    if (!ref_is_valid(c, i)) continue;
    long double const x = fabsl(ref_get_ld(c, i));
    if (isnan(x) || isinf(x)) return true; /* NaN and Inf propagate in every order */
    if (x > 1) big *= x;
    else if (x > 0) small *= x;
  }
  return big < 1e290L && small > 1e-290L;
}

/* The value of a double accumulation as the output type holds it (FLOAT32 rounds once). */
static long double as_output(gcol_type_id id, long double x) {
  return id == GCOL_FLOAT32 ? (long double)(float)(double)x : x;
}

static ref_result float_fold(const ref_column *c, gcol_reduce_op op, int64_t valid) {
  long double acc = op == GCOL_REDUCE_PRODUCT ? 1.0L : 0.0L;
  long double abs_acc = 0;
  for (int64_t i = 0; i < c->size; ++i) {
    if (!ref_is_valid(c, i)) continue;
    long double const x = ref_get_ld(c, i);
    if (op == GCOL_REDUCE_PRODUCT) {
      acc *= x;
    } else {
      /* squares as the kernel forms them, in double (subnormal squares underflow to 0) */
      long double const term =
          op == GCOL_REDUCE_SUM_OF_SQUARES ? (long double)((double)x * (double)x) : x;
      acc += term;
      abs_acc += fabsl(term);
    }
  }
  /* Bounds: a double accumulation in any order errs by at most ~n * eps * sum|x|; 1e-10
   * covers n up to ~4e5 at the worst and far more in practice, and still catches any lost
   * or doubled element of these data (|x| >= ~1e-3 typically, sums ~1e3..1e8). */
  if (op == GCOL_REDUCE_PRODUCT) {
    ref_result r = value_result(as_output(c->type.id, acc),
                                fabsl(acc) * (1e-13L * (long double)valid + rounding_slack(c->type.id)) +
                                    LDBL_MIN);
    r.unchecked_value = !product_is_checkable(c);
    return r;
  }
  return value_result(as_output(c->type.id, acc),
                      1e-10L * abs_acc + rounding_slack(c->type.id) * fabsl(acc));
}

static ref_result integer_fold(const ref_column *c, gcol_reduce_op op) {
  uint64_t acc = op == GCOL_REDUCE_PRODUCT ? 1u : 0u;
  for (int64_t i = 0; i < c->size; ++i) {
    if (!ref_is_valid(c, i)) continue;
    uint64_t const x = ref_get_bits(c, i);
    if (op == GCOL_REDUCE_PRODUCT) acc *= x;
    else if (op == GCOL_REDUCE_SUM_OF_SQUARES) acc += x * x;
    else acc += x;
  }
  return exact_result(acc);
}

static ref_result moments(const ref_column *c, gcol_reduce_op op, int64_t n, int32_t ddof) {
  long double sum = 0, abs_sum = 0;
  for (int64_t i = 0; i < c->size; ++i) {
    if (!ref_is_valid(c, i)) continue;
    sum += ref_get_ld(c, i);
    abs_sum += fabsl(ref_get_ld(c, i));
  }
  long double const mean = sum / (long double)n;
  /* the kernel divides in double: a subnormal mean is within half a DBL_TRUE_MIN */
  if (op == GCOL_REDUCE_MEAN) {
    return value_result(mean, 1e-12L * abs_sum / (long double)n + DBL_TRUE_MIN);
  }
  if (n - ddof <= 0) return null_result();
  long double m2 = 0;
  for (int64_t i = 0; i < c->size; ++i) {
    if (!ref_is_valid(c, i)) continue;
    long double const d = ref_get_ld(c, i) - mean;
    m2 += d * d;
  }
  /* The result is a double: the exact variance of subnormal values (e.g. 2.5e-621 for
   * values ~1e-310) is not representable and the kernel's squared deviations underflow.
   * Each of the n - 1 merges of the kernel errs by at most ~(n / 4 + 1) * DBL_TRUE_MIN in
   * absolute terms once its terms are subnormal, hence the absolute floor n^2 *
   * DBL_TRUE_MIN (and its square root for std: sqrt(v + e) - sqrt(v) <= sqrt(e)). It is
   * below 1e-300 for any n here, so it hides nothing on ordinary data. */
  long double const var_floor = (long double)n * (long double)n * DBL_TRUE_MIN;
  long double const var = m2 / (long double)(n - ddof);
  long double const scale = abs_sum / (long double)n;
  if (op == GCOL_REDUCE_VARIANCE) {
    return value_result((double)var, 1e-9L * var + 1e-12L * scale * scale + var_floor);
  }
  long double const sd = sqrtl(var);
  return value_result((double)sd, 1e-9L * sd + 1e-9L * scale + sqrtl(var_floor));
}

ref_result ref_reduce(const ref_column *c, gcol_reduce_op op, int32_t ddof) {
  int64_t valid = 0;
  for (int64_t i = 0; i < c->size; ++i) valid += ref_is_valid(c, i) ? 1 : 0;
  if (op == GCOL_REDUCE_COUNT_ALL) return exact_result((uint64_t)c->size);
  if (op == GCOL_REDUCE_COUNT_VALID) return exact_result((uint64_t)valid);
  if (valid == 0) return null_result();
  switch (op) {
    case GCOL_REDUCE_SUM:
    case GCOL_REDUCE_PRODUCT:
    case GCOL_REDUCE_SUM_OF_SQUARES:
      return ref_is_float(c->type.id) ? float_fold(c, op, valid) : integer_fold(c, op);
    case GCOL_REDUCE_MIN:
    case GCOL_REDUCE_MAX:
      return element_result(c, extreme_row(c, op == GCOL_REDUCE_MAX));
    case GCOL_REDUCE_ARGMIN:
    case GCOL_REDUCE_ARGMAX:
      return exact_result((uint64_t)extreme_row(c, op == GCOL_REDUCE_ARGMAX));
    case GCOL_REDUCE_ANY:
    case GCOL_REDUCE_ALL: {
      bool any = false, all = true;
      for (int64_t i = 0; i < c->size; ++i) {
        if (!ref_is_valid(c, i)) continue;
        bool const nonzero = ref_get_ld(c, i) != 0 || isnan(ref_get_ld(c, i));
        any = any || nonzero;
        all = all && nonzero;
      }
      return exact_result(op == GCOL_REDUCE_ANY ? any : all);
    }
    default:
      return moments(c, op, valid, ddof);
  }
}

void ref_check_result(ref_result expected, bool got_valid, uint64_t got_bits,
                      gcol_data_type out_type, const char *where, int64_t row) {
  char context[400];
  if (row >= 0) snprintf(context, sizeof context, "%s, row %lld", where, (long long)row);
  else snprintf(context, sizeof context, "%s", where);
  if (expected.valid != got_valid) {
    fail_msg("%s: validity %d, expected %d", context, (int)got_valid, (int)expected.valid);
  }
  if (!expected.valid || expected.unchecked_value) return;
  size_t const w = gcol_type_size(out_type.id);
  uint64_t const mask = w >= 8 ? ~0ull : ((1ull << (w * 8)) - 1);
  if (expected.exact) {
    if ((got_bits & mask) != (expected.bits & mask)) {
      fail_msg("%s: got bits 0x%llx, expected 0x%llx", context,
               (unsigned long long)(got_bits & mask), (unsigned long long)(expected.bits & mask));
    }
    return;
  }
  long double const got = ref_float_of_bits(got_bits, w);
  long double const want = expected.value;
  if (isnan(want) || isnan(got)) {
    if (!(isnan(want) && isnan(got))) fail_msg("%s: got %Lg, expected %Lg", context, got, want);
    return;
  }
  if (isinf(want) || isinf(got)) {
    if (got != want) fail_msg("%s: got %Lg, expected %Lg", context, got, want);
    return;
  }
  if (expected.tolerance == 0) {
    /* exact element: FLOAT32 values are exact in long double too; the sign of 0 counts */
    if (got != want || signbit(got) != signbit(want)) {
      fail_msg("%s: got %.21Lg, expected %.21Lg exactly", context, got, want);
    }
    return;
  }
  if (fabsl(got - want) > expected.tolerance) {
    fail_msg("%s: got %.21Lg, expected %.21Lg (tolerance %Lg)", context, got, want,
             expected.tolerance);
  }
  /* Signed zeros are part of the rules (reduction.h, scan.h): sums start from +0.0 and are
   * never -0.0, variances are never -0.0, and a product's sign does not depend on the order.
   * So when both are zero the signs must agree, whatever the tolerance. */
  if (got == 0 && want == 0 && signbit(got) != signbit(want)) {
    fail_msg("%s: got %s0, expected %s0 (sign of zero)", context, signbit(got) ? "-" : "+",
             signbit(want) ? "-" : "+");
  }
}

/* ------------------------------------------------------------------ quantiles */

/* Stable merge sort of rows by ref_compare. */
static void sort_rows(const ref_column *c, int64_t *rows, int64_t *tmp, int64_t n) {
  if (n < 2) return;
  int64_t const half = n / 2;
  sort_rows(c, rows, tmp, half);
  sort_rows(c, rows + half, tmp, n - half);
  int64_t i = 0, j = half, k = 0;
  while (i < half && j < n) tmp[k++] = ref_compare(c, rows[j], rows[i]) < 0 ? rows[j++] : rows[i++];
  while (i < half) tmp[k++] = rows[i++];
  while (j < n) tmp[k++] = rows[j++];
  memcpy(rows, tmp, (size_t)n * sizeof *rows);
}

ref_result ref_quantile(const ref_column *c, double q, gcol_interpolation interp) {
  int64_t *rows = (int64_t *)malloc((size_t)(c->size + 1) * sizeof *rows);
  int64_t *tmp = (int64_t *)malloc((size_t)(c->size + 1) * sizeof *tmp);
  int64_t n = 0;
  for (int64_t i = 0; i < c->size; ++i) {
    if (ref_is_valid(c, i)) rows[n++] = i;
  }
  ref_result r = null_result();
  if (n > 0) {
    sort_rows(c, rows, tmp, n);
    double const pos = q * (double)(n - 1);
    int64_t const lo = (int64_t)floor(pos);
    int64_t const hi = (double)lo < pos ? lo + 1 : lo;
    int64_t const nearest = (int64_t)nearbyint(pos); /* default rounding: half to even */
    switch (interp) {
      case GCOL_INTERPOLATION_LOWER: r = element_result(c, rows[lo]); break;
      case GCOL_INTERPOLATION_HIGHER: r = element_result(c, rows[hi]); break;
      case GCOL_INTERPOLATION_NEAREST: r = element_result(c, rows[nearest]); break;
      default: {
        /* the kernel interpolates in double: so does the reference, then allows rounding */
        double const a = (double)ref_get_ld(c, rows[lo]);
        double const b = (double)ref_get_ld(c, rows[hi]);
        double const frac = pos - (double)lo;
        double v;
        if (interp == GCOL_INTERPOLATION_MIDPOINT) v = (a + b) / 2;
        else v = (frac == 0 || a == b) ? a : a + (b - a) * frac;
        r = value_result(v, 1e-15L * (fabsl(a) + fabsl(b)));
        if (fabsl(a) + fabsl(b) == 0) r.tolerance = 0; /* zeros: exact, sign included */
        break;
      }
    }
  }
  free(rows);
  free(tmp);
  return r;
}

/* ------------------------------------------------------------------ scans */

/* Storage bits of the identity of MIN (largest value) or MAX (smallest) of an integer type;
 * for floats a value result (NaN for MIN, -Inf for MAX). */
static ref_result extreme_identity(gcol_type_id id, bool largest) {
  if (ref_is_float(id)) return value_result(largest ? (long double)NAN : -(long double)INFINITY, 0);
  size_t const w = gcol_type_size(id);
  if (id == GCOL_BOOL8) return exact_result(largest ? 1u : 0u);
  uint64_t const all = w >= 8 ? ~0ull : ((1ull << (w * 8)) - 1);
  if (!ref_is_signed(id)) return exact_result(largest ? all : 0u);
  uint64_t const sign = 1ull << (w * 8 - 1);
  return exact_result(largest ? sign - 1 : sign);
}

void ref_scan(const ref_column *c, gcol_scan_op op, gcol_scan_type type, gcol_scan_nulls nulls,
              ref_result *out) {
  bool const is_float = ref_is_float(c->type.id);
  bool poisoned = false;
  uint64_t acc_bits = op == GCOL_SCAN_PRODUCT ? 1u : 0u;
  long double acc = op == GCOL_SCAN_PRODUCT ? 1.0L : 0.0L;
  long double abs_acc = 0;
  int64_t best = -1; /* MIN/MAX: row of the best value so far */
  int64_t count = 0;
  long double big = 1, small = 1; /* product bounds, see product_is_checkable */
  for (int64_t i = 0; i < c->size; ++i) {
    bool const valid = ref_is_valid(c, i);
    if (!valid && nulls == GCOL_SCAN_NULLS_INCLUDE) poisoned = true;
    /* exclusive: the result before row i is folded in */
    for (int pass = 0; pass < 2; ++pass) {
      bool const fold = (pass == 0) == (type == GCOL_SCAN_INCLUSIVE);
      if (fold) {
        if (!valid) continue;
        ++count;
        if (op == GCOL_SCAN_MIN || op == GCOL_SCAN_MAX) {
          int const cmp = best < 0 ? 0 : ref_compare(c, i, best);
          if (best < 0 || (op == GCOL_SCAN_MAX ? cmp > 0 : cmp < 0)) best = i;
        } else if (is_float) {
          long double const x = ref_get_ld(c, i);
          acc = op == GCOL_SCAN_SUM ? acc + x : acc * x;
          abs_acc += fabsl(x);
          if (fabsl(x) > 1 && !isinf(x)) big *= fabsl(x);
          else if (fabsl(x) > 0 && fabsl(x) < 1) small *= fabsl(x);
        } else {
          uint64_t const x = ref_get_bits(c, i);
          acc_bits = op == GCOL_SCAN_SUM ? acc_bits + x : acc_bits * x;
        }
      } else {
        ref_result r;
        if (op == GCOL_SCAN_MIN || op == GCOL_SCAN_MAX) {
          r = best < 0 ? extreme_identity(c->type.id, op == GCOL_SCAN_MIN) : element_result(c, best);
        } else if (is_float) {
          long double const tol = op == GCOL_SCAN_SUM
                                      ? 1e-10L * abs_acc + rounding_slack(c->type.id) * fabsl(acc)
                                      : fabsl(acc) * (1e-13L * (long double)count +
                                                      rounding_slack(c->type.id)) + LDBL_MIN;
          r = value_result(as_output(c->type.id, acc), tol);
          r.unchecked_value = op == GCOL_SCAN_PRODUCT && !(big < 1e290L && small > 1e-290L);
        } else {
          r = exact_result(acc_bits);
        }
        r.valid = !poisoned && (valid || nulls == GCOL_SCAN_NULLS_INCLUDE);
        out[i] = r;
      }
    }
  }
}

/* ------------------------------------------------------------------ fault injection */

/* Outputs are freed by op itself, before the fail-on-Nth resource is destroyed. */
static void nothing_to_clean(void *ctx) { (void)ctx; }

int ref_fail_nth_loop(gcol_status (*op)(void *ctx), void *ctx, const char *name) {
  printf("# allocation failures: %s\n", name); /* names the op if the shared loop fails */
  return gcol_test_check_allocation_failures(op, nothing_to_clean, ctx);
}
