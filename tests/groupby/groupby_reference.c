/* Host reference of the groupby tests (see groupby_reference.h). */
#include "groupby_reference.h"

#include <math.h>

static bool key_valid(const gb_key *k, int64_t i) { return k->valid == NULL || k->valid[i] != 0; }

static int cmp_ld(long double x, long double y) { return (x > y) - (x < y); }

static int float_compare(double x, double y) {
  bool const nx = x != x, ny = y != y;
  if (nx || ny) return (int)nx - (int)ny; /* NaN last, NaNs equal */
  return cmp_ld(x, y);                    /* -0.0 == 0.0 */
}

static int element_compare(const gb_key *a, int64_t i, const gb_key *b, int64_t j) {
  bool const va = key_valid(a, i), vb = key_valid(b, j);
  if (!va || !vb) return (int)!va - (int)!vb; /* nulls last */
  switch (a->type) {
    case GCOL_STRING: {
      const unsigned char *x = (const unsigned char *)a->str[i];
      const unsigned char *y = (const unsigned char *)b->str[j];
      size_t const lx = strlen((const char *)x), ly = strlen((const char *)y);
      int const c = memcmp(x, y, lx < ly ? lx : ly);
      if (c != 0) return c < 0 ? -1 : 1;
      return (lx > ly) - (lx < ly);
    }
    case GCOL_FLOAT64:
      return float_compare(((const double *)a->data)[i], ((const double *)b->data)[j]);
    case GCOL_FLOAT32:
      return float_compare(((const float *)a->data)[i], ((const float *)b->data)[j]);
    case GCOL_INT8:
      return cmp_ld(((const int8_t *)a->data)[i], ((const int8_t *)b->data)[j]);
    case GCOL_INT16:
      return cmp_ld(((const int16_t *)a->data)[i], ((const int16_t *)b->data)[j]);
    case GCOL_INT32:
      return cmp_ld(((const int32_t *)a->data)[i], ((const int32_t *)b->data)[j]);
    case GCOL_INT64: {
      int64_t const x = ((const int64_t *)a->data)[i], y = ((const int64_t *)b->data)[j];
      return (x > y) - (x < y);
    }
    default: {
      fail_msg("reference: key type %s not handled", gcol_type_name(a->type));
      return 0;
    }
  }
}

int gb_row_compare(const gb_key *a, int64_t i, const gb_key *b, int64_t j, int nk) {
  for (int k = 0; k < nk; ++k) {
    int const c = element_compare(&a[k], i, &b[k], j);
    if (c != 0) return c;
  }
  return 0;
}

bool gb_row_has_null(const gb_key *k, int64_t i, int nk) {
  for (int c = 0; c < nk; ++c) {
    if (!key_valid(&k[c], i)) return true;
  }
  return false;
}

/* qsort has no context argument: the keys being sorted (tests are single-threaded). */
static const gb_key *sort_keys;
static int sort_nk;

static int row_order(const void *pa, const void *pb) {
  int64_t const a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  int const c = gb_row_compare(sort_keys, a, sort_keys, b, sort_nk);
  if (c != 0) return c;
  return (a > b) - (a < b);
}

int64_t *gb_sort_rows(const gb_key *keys, int nk, int64_t n) {
  int64_t *rows = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  for (int64_t i = 0; i < n; ++i) rows[i] = i;
  sort_keys = keys;
  sort_nk = nk;
  qsort(rows, (size_t)n, sizeof(int64_t), row_order);
  return rows;
}

gb_groups gb_group_rows(const gb_key *keys, int nk, int64_t n, bool drop_null_keys) {
  gb_groups g;
  int64_t *sorted = gb_sort_rows(keys, nk, n);
  int64_t m = 0;
  g.rows = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  g.offsets = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
  g.num_groups = 0;
  for (int64_t p = 0; p < n; ++p) {
    int64_t const r = sorted[p];
    if (drop_null_keys && gb_row_has_null(keys, r, nk)) continue;
    if (m == 0 || gb_row_compare(keys, g.rows[m - 1], keys, r, nk) != 0) {
      g.offsets[g.num_groups++] = m;
    }
    g.rows[m++] = r;
  }
  g.offsets[g.num_groups] = m;
  free(sorted);
  return g;
}

void gb_groups_free(gb_groups *g) {
  free(g->offsets);
  free(g->rows);
  g->offsets = NULL;
  g->rows = NULL;
}

ref_column gb_group_values(const ref_column *values, const gb_groups *groups, int64_t g) {
  size_t const w = gcol_type_size(values->type.id);
  int64_t const begin = groups->offsets[g], size = groups->offsets[g + 1] - begin;
  ref_column c;
  c.type = values->type;
  c.size = size;
  c.data = (unsigned char *)malloc((size_t)(size > 0 ? size : 1) * w);
  c.valid = values->valid == NULL ? NULL : (uint8_t *)malloc((size_t)(size > 0 ? size : 1));
  for (int64_t k = 0; k < size; ++k) {
    int64_t const r = groups->rows[begin + k];
    memcpy(c.data + (size_t)k * w, values->data + (size_t)r * w, w);
    if (c.valid != NULL) c.valid[k] = values->valid[r];
  }
  return c;
}
