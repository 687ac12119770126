/*
 * Binary searches of needle rows in a sorted haystack (one thread per needle, the row
 * comparator of detail/sort_keys.h), contains (a sorted permutation of the haystack searched
 * the same way), and the stable merge of pre-sorted tables (each row's output position is
 * its own index plus its bound in every other table; the rows are then gathered).
 */
#include <stdlib.h>

#include "common.cuh"
#include "gcol/search.h"
#include "sort/sort_internal.h"
#include "internal/column.h"

typedef enum bound_kind { BOUND_LOWER = 0, BOUND_UPPER = 1 } bound_kind;

static __device__ __forceinline__ int64_t hay_row(const void *perm, int32_t bytes, int64_t i) {
  if (perm == NULL) return i;
  return bytes == 4 ? (int64_t)((const uint32_t *)perm)[i] : (int64_t)((const uint64_t *)perm)[i];
}

/* First haystack position whose row compares >= (lower) or > (upper) the needle row. */
static __device__ int64_t bound_of(const gcol_detail_key_table *hay, const void *perm,
                                   int32_t perm_bytes, int64_t hay_rows,
                                   const gcol_detail_key_table *needles, int64_t needle,
                                   int32_t kind) {
  int64_t lo = 0, hi = hay_rows;
  while (lo < hi) {
    int64_t const mid = lo + (hi - lo) / 2;
    int const cmp =
        gcol_detail_compare_table_rows(hay, hay_row(perm, perm_bytes, mid), needles, needle);
    if (cmp < 0 || (kind == BOUND_UPPER && cmp == 0)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

static __global__ void bound_kernel(gcol_detail_key_table hay, int64_t hay_rows,
                                    gcol_detail_key_table needles, int32_t kind,
                                    gcol_index_writer out, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    gcol_index_writer_set(out, i, bound_of(&hay, NULL, 4, hay_rows, &needles, i, kind));
  }
}

/* Checks that needles and haystack have matching columns; fills both key tables. */
static gcol_status make_search_tables(gcol_table_view haystack, gcol_table_view needles,
                                      const gcol_order *order, const gcol_null_order *null_order,
                                      gcol_detail_key_table *hay, gcol_detail_key_table *ndl) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(haystack, order, null_order, "haystack", hay));
  GCOL_DETAIL_TRY(gcol_detail_table_view_check(needles, "needles"));
  GCOL_DETAIL_CHECK(needles.num_columns == haystack.num_columns, GCOL_ERROR_SIZE_MISMATCH,
                    "needles has %d columns, haystack %d", (int)needles.num_columns,
                    (int)haystack.num_columns);
  for (int32_t c = 0; c < needles.num_columns; ++c) {
    GCOL_DETAIL_CHECK(
        gcol_data_type_equal(needles.columns[c].type, haystack.columns[c].type),
        GCOL_ERROR_TYPE_MISMATCH,
        "needles column %d has type %s (scale %d), haystack %s (scale %d)", (int)c,
        gcol_type_name(needles.columns[c].type.id), (int)needles.columns[c].type.scale,
        gcol_type_name(haystack.columns[c].type.id), (int)haystack.columns[c].type.scale);
  }
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(needles, order, null_order, "needles", ndl));
done:
  return status;
}

static gcol_status bound_impl(gcol_table_view haystack, gcol_table_view needles,
                              const gcol_order *order, const gcol_null_order *null_order,
                              int32_t kind, gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_key_table hay, ndl;
  gcol_column *result = NULL;
  gcol_index_writer w;
  int64_t const n = needles.num_rows;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(make_search_tables(haystack, needles, order, null_order, &hay, &ndl));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(gcol_index_type_for(haystack.num_rows)), n,
                                     GCOL_MASK_UNALLOCATED, stream, mr, &result));
  if (n > 0) {
    GCOL_DETAIL_TRY(gcol_index_writer_make(gcol_detail_new_column_mutable_view(result), &w));
    bound_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                   (cudaStream_t)stream>>>(hay, haystack.num_rows, ndl, kind, w, n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = result;
  result = NULL;
done:
  gcol_column_free(result);
  return status;
}

extern "C" gcol_status gcol_lower_bound(gcol_table_view haystack, gcol_table_view needles,
                                        const gcol_order *order, const gcol_null_order *null_order,
                                        gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_lower_bound");
  status = bound_impl(haystack, needles, order, null_order, BOUND_LOWER, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_upper_bound(gcol_table_view haystack, gcol_table_view needles,
                                        const gcol_order *order, const gcol_null_order *null_order,
                                        gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_upper_bound");
  status = bound_impl(haystack, needles, order, null_order, BOUND_UPPER, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* out[i] = needle i equals some valid haystack row (found through the sorted permutation). */
static __global__ void contains_kernel(gcol_detail_key_table hay, const void *perm,
                                       int32_t perm_bytes, int64_t hay_rows,
                                       gcol_detail_key_table needles, uint8_t *out, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const pos = bound_of(&hay, perm, perm_bytes, hay_rows, &needles, i, BOUND_LOWER);
    bool found = false;
    if (pos < hay_rows && gcol_detail_key_is_valid(&needles.columns[0], i)) {
      int64_t const row = hay_row(perm, perm_bytes, pos);
      found = gcol_detail_key_is_valid(&hay.columns[0], row) &&
              gcol_detail_compare_table_rows(&hay, row, &needles, i) == 0;
    }
    out[i] = found ? 1 : 0;
  }
}

extern "C" gcol_status gcol_contains(gcol_column_view haystack, gcol_column_view needles,
                                     gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_key_table hay, ndl;
  gcol_table_view ht, nt;
  gcol_column *perm = NULL, *result = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  int64_t const n = needles.size;
  GCOL_DETAIL_NVTX_PUSH("gcol_contains");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  ht.num_columns = nt.num_columns = 1;
  ht.num_rows = haystack.size;
  nt.num_rows = needles.size;
  ht.columns = &haystack;
  nt.columns = &needles;
  GCOL_DETAIL_TRY(make_search_tables(ht, nt, NULL, NULL, &hay, &ndl));
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_BOOL8), n, GCOL_MASK_UNALLOCATED,
                                     stream, mr, &result));
  if (n == 0) goto finish;
  GCOL_DETAIL_TRY(
      gcol_detail_sorted_order(ht, NULL, NULL, NULL, "gcol_contains", &perm, stream, NULL));
  {
    gcol_column_view const pv = gcol_column_get_view(perm);
    contains_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                      (cudaStream_t)stream>>>(hay, pv.data, (int32_t)gcol_type_size(pv.type.id),
                                              haystack.size, ndl, (uint8_t *)result->data->data, n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (ndl.columns[0].null_mask != NULL) {
    GCOL_DETAIL_TRY(gcol_column_view_null_count(needles, stream, &null_count));
    if (null_count > 0) {
      GCOL_DETAIL_TRY(gcol_bitmask_copy(needles.null_mask, needles.offset, needles.offset + n,
                                        stream, mr, &mask));
      GCOL_DETAIL_TRY(gcol_column_set_null_mask(result, mask, null_count));
      mask = NULL;
    }
  }
finish:
  *out = result;
  result = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(result);
  gcol_column_free(perm);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- merge ---- */

/* positions[i] += rows of `other` that sort before row i of `self` (ties: earlier table
 * first, so `other` before `self` counts its equal rows too). */
static __global__ void merge_positions_kernel(gcol_detail_key_table self,
                                              gcol_detail_key_table other, int64_t other_rows,
                                              int32_t kind, int64_t *positions, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    positions[i] += bound_of(&other, NULL, 4, other_rows, &self, i, kind);
  }
}

static __global__ void merge_iota_kernel(int64_t *positions, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) { positions[i] = i; }
}

static __global__ void merge_scatter_kernel(const int64_t *positions, uint8_t table, uint8_t *ids,
                                            uint64_t *rows, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    ids[positions[i]] = table;
    rows[positions[i]] = (uint64_t)i;
  }
}

static gcol_status merge_check(const gcol_table_view *tables, int32_t num_tables,
                               const int32_t *key_columns, int32_t num_keys, int64_t *total) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(tables != NULL, GCOL_ERROR_INVALID_ARGUMENT, "tables is NULL");
  GCOL_DETAIL_CHECK(key_columns != NULL, GCOL_ERROR_INVALID_ARGUMENT, "key_columns is NULL");
  GCOL_DETAIL_CHECK(num_tables >= 1 && num_tables <= GCOL_MAX_MERGE_TABLES,
                    num_tables < 1 ? GCOL_ERROR_INVALID_ARGUMENT : GCOL_ERROR_UNSUPPORTED,
                    "num_tables is %d; 1 to %d are supported", (int)num_tables,
                    GCOL_MAX_MERGE_TABLES);
  GCOL_DETAIL_CHECK(num_keys >= 1 && num_keys <= GCOL_MAX_COMPARE_COLUMNS,
                    num_keys < 1 ? GCOL_ERROR_INVALID_ARGUMENT : GCOL_ERROR_UNSUPPORTED,
                    "num_keys is %d; 1 to %d are supported", (int)num_keys,
                    GCOL_MAX_COMPARE_COLUMNS);
  *total = 0;
  for (int32_t t = 0; t < num_tables; ++t) {
    GCOL_DETAIL_TRY(gcol_detail_table_view_check(tables[t], "tables[t]"));
    GCOL_DETAIL_CHECK(tables[t].num_columns == tables[0].num_columns, GCOL_ERROR_SIZE_MISMATCH,
                      "tables[%d] has %d columns, tables[0] %d", (int)t, (int)tables[t].num_columns,
                      (int)tables[0].num_columns);
    for (int32_t c = 0; c < tables[t].num_columns; ++c) {
      GCOL_DETAIL_CHECK(gcol_data_type_equal(tables[t].columns[c].type, tables[0].columns[c].type),
                        GCOL_ERROR_TYPE_MISMATCH, "tables[%d] column %d has type %s, tables[0] %s",
                        (int)t, (int)c, gcol_type_name(tables[t].columns[c].type.id),
                        gcol_type_name(tables[0].columns[c].type.id));
    }
    GCOL_DETAIL_CHECK(*total <= INT64_MAX - tables[t].num_rows, GCOL_ERROR_OVERFLOW,
                      "merged row count exceeds INT64_MAX");
    *total += tables[t].num_rows;
  }
  for (int32_t k = 0; k < num_keys; ++k) {
    GCOL_DETAIL_CHECK(key_columns[k] >= 0 && key_columns[k] < tables[0].num_columns,
                      GCOL_ERROR_INVALID_ARGUMENT, "key_columns[%d] = %d is out of range [0, %d)",
                      (int)k, (int)key_columns[k], (int)tables[0].num_columns);
  }
done:
  return status;
}

/* The key columns of one table as a key table. */
static gcol_status merge_key_table(gcol_table_view table, const int32_t *key_columns,
                                   int32_t num_keys, const gcol_order *order,
                                   const gcol_null_order *null_order, gcol_detail_key_table *out) {
  gcol_column_view views[GCOL_MAX_COMPARE_COLUMNS];
  gcol_table_view keys;
  for (int32_t k = 0; k < num_keys; ++k) views[k] = table.columns[key_columns[k]];
  keys.num_columns = num_keys;
  keys.num_rows = table.num_rows;
  keys.columns = views;
  return gcol_detail_key_table_make(keys, order, null_order, "merge keys", out);
}

/* The merged row map: ids[p], rows[p] = the table and row that go to output position p. */
static gcol_status merge_map(const gcol_table_view *tables, int32_t num_tables,
                             const gcol_detail_key_table *keys, uint8_t *ids, uint64_t *rows,
                             gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *positions = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  for (int32_t t = 0; t < num_tables; ++t) {
    int64_t const n = tables[t].num_rows;
    if (n == 0) continue;
    unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int64_t) * (size_t)n, stream, NULL, &positions));
    merge_iota_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>((int64_t *)positions->data, n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    for (int32_t o = 0; o < num_tables; ++o) {
      if (o == t || tables[o].num_rows == 0) continue;
      merge_positions_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
          keys[t], keys[o], tables[o].num_rows, o < t ? BOUND_UPPER : BOUND_LOWER,
          (int64_t *)positions->data, n);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
    merge_scatter_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>((const int64_t *)positions->data,
                                                                 (uint8_t)t, ids, rows, n);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    gcol_buffer_free(positions);
    positions = NULL;
  }
done:
  gcol_buffer_free(positions);
  return status;
}

/* Gathers every column of the merged tables through the map. */
static gcol_status merge_gather(const gcol_table_view *tables, int32_t num_tables,
                                const uint8_t *ids, const uint64_t *rows, int64_t total,
                                gcol_stream stream, gcol_mr *mr, gcol_table **out) {
  gcol_status status = GCOL_OK;
  int32_t const count = tables[0].num_columns;
  int32_t made = 0;
  gcol_column **columns = (gcol_column **)calloc(count > 0 ? (size_t)count : 1, sizeof *columns);
  GCOL_DETAIL_CHECK(columns != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host array of %d columns",
                    (int)count);
  for (; made < count; ++made) {
    gcol_column_view sources[GCOL_MAX_MERGE_TABLES];
    int64_t null_count = 0, hint = 0;
    for (int32_t t = 0; t < num_tables; ++t) {
      sources[t] = tables[t].columns[made];
      GCOL_DETAIL_TRY(gcol_column_view_null_count(sources[t], stream, &null_count));
      hint += null_count;
    }
    GCOL_DETAIL_TRY(gcol_detail_sort_gather(sources, num_tables, ids, rows, 8, total, hint, stream, mr,
                                       &columns[made]));
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, count, out));
  made = 0;
done:
  for (int32_t c = 0; c < made; ++c) gcol_column_free(columns[c]);
  free(columns);
  return status;
}

extern "C" gcol_status gcol_merge(const gcol_table_view *tables, int32_t num_tables,
                                  const int32_t *key_columns, int32_t num_keys,
                                  const gcol_order *order, const gcol_null_order *null_order,
                                  gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_detail_key_table *keys = NULL;
  gcol_buffer *ids = NULL, *rows = NULL;
  int64_t total = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_merge");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(merge_check(tables, num_tables, key_columns, num_keys, &total));
  keys = (gcol_detail_key_table *)malloc(sizeof *keys * (size_t)num_tables);
  GCOL_DETAIL_CHECK(keys != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host key tables");
  for (int32_t t = 0; t < num_tables; ++t) {
    GCOL_DETAIL_TRY(merge_key_table(tables[t], key_columns, num_keys, order, null_order, &keys[t]));
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, NULL, &ids));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(uint64_t) * (size_t)total, stream, NULL, &rows));
  GCOL_DETAIL_TRY(
      merge_map(tables, num_tables, keys, (uint8_t *)ids->data, (uint64_t *)rows->data, stream));
  GCOL_DETAIL_TRY(merge_gather(tables, num_tables, (const uint8_t *)ids->data,
                               (const uint64_t *)rows->data, total, stream, mr, out));
done:
  gcol_buffer_free(ids);
  gcol_buffer_free(rows);
  free(keys);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
