/*
 * Stable sorted order by LSD radix passes over normalized key words.
 *
 * Each key column contributes fields, least significant first: its value (DECIMAL128: low
 * then high word) and, when nullable, one validity bit. Consecutive fields are packed into
 * 64-bit words (int32 + its null bit = 33 bits: one pass), and each word is one stable
 * cub radix pass (u32 keys when the word has <= 32 bits) that reorders the permutation.
 * A STRING column is a pass of its own: an 8-byte prefix word, then the rows whose prefix
 * ties with a neighbour by their next words (tie_words.cu), and a comparison sort of only
 * what still ties. A segmented sort adds the segment id
 * as the most significant field, so rows never leave their segment. One 64-bit key without
 * nulls of at least 2^20 rows takes the split sort (split_sort.cu: half the radix passes);
 * below that (or where it doesn't fit), one ascending key stored as a signed 32/64-bit
 * integer without nulls skips the plan: CUB sorts it as stored.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.cuh"
#include "sort/sort_internal.h"

/* Most fields in one word pass (bounded so the pass travels as a kernel parameter). */
#define GCOL_DETAIL_MAX_WORD_FIELDS 16

typedef enum word_field_kind {
  FIELD_VALUE_LO = 0, /* the normalized value (low word for DECIMAL128) */
  FIELD_VALUE_HI = 1, /* DECIMAL128 high word */
  FIELD_VALIDITY = 2, /* 1 bit placing nulls */
  FIELD_SEGMENT = 3   /* the row's segment number */
} word_field_kind;

typedef struct word_field {
  gcol_detail_key_column column;
  int32_t kind;
  int32_t shift;
} word_field;

/* One radix pass: a packed word of fields, or a STRING column's prefix pass. */
typedef struct word_pass {
  int32_t num_fields;
  int32_t bits;
  bool is_string;
  word_field fields[GCOL_DETAIL_MAX_WORD_FIELDS];
  gcol_indexalator segments; /* FIELD_SEGMENT: the offsets */
  int64_t num_segments;      /* number of offsets */
} word_pass;

typedef struct sort_plan {
  word_pass *passes;
  int32_t num_passes;
  int32_t capacity;
  int32_t max_key_bytes;
} sort_plan;

/* ---- device side ---- */

/* Number of offsets <= row: the row's segment (0 before the first offset). */
static __device__ uint64_t segment_of(const word_pass *pass, int64_t row) {
  int64_t lo = 0, hi = pass->num_segments;
  while (lo < hi) {
    int64_t const mid = lo + (hi - lo) / 2;
    if (gcol_indexalator_get(pass->segments, mid) <= row) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return (uint64_t)lo;
}

static __device__ uint64_t field_value(const word_pass *pass, const word_field *f, int64_t row) {
  if (f->kind == FIELD_SEGMENT) return segment_of(pass, row);
  bool const valid = gcol_detail_key_is_valid(&f->column, row);
  if (f->kind == FIELD_VALIDITY) return valid == f->column.nulls_before ? 1u : 0u;
  if (!valid) return 0; /* nulls tie with each other; the validity field places them */
  return gcol_detail_key_word(&f->column, row, f->kind == FIELD_VALUE_HI ? 1 : 0);
}

static __device__ __forceinline__ int64_t load_index(const void *p, int32_t bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const uint32_t *)p)[i] : (int64_t)((const uint64_t *)p)[i];
}

static __device__ __forceinline__ void store_index(void *p, int32_t bytes, int64_t i, int64_t v) {
  if (bytes == 4) {
    ((uint32_t *)p)[i] = (uint32_t)v;
  } else {
    ((uint64_t *)p)[i] = (uint64_t)v;
  }
}

/* keys[i] = the pass's word of row perm[i] (row i without perm); writes iota if asked. */
template <typename K>
static __global__ void build_keys_kernel(word_pass pass, const void *perm, void *iota,
                                         int32_t index_bytes, K *keys, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const row = perm != NULL ? load_index(perm, index_bytes, i) : i;
    uint64_t word = 0;
    for (int32_t f = 0; f < pass.num_fields; ++f) {
      word |= field_value(&pass, &pass.fields[f], row) << pass.fields[f].shift;
    }
    keys[i] = (K)word;
    if (iota != NULL) store_index(iota, index_bytes, i, i);
  }
}

/* flags[i] = 1 when sorted key i equals a neighbour's (its string needs a full compare). */
static __global__ void tie_flags_kernel(const uint64_t *keys, int64_t *flags, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    bool const tie = (i > 0 && keys[i] == keys[i - 1]) || (i + 1 < n && keys[i] == keys[i + 1]);
    flags[i] = tie ? 1 : 0;
  }
}

static __global__ void tie_compact_kernel(const uint64_t *keys, const void *perm,
                                          int32_t index_bytes, const int64_t *scan,
                                          gcol_detail_string_tie *ties, int64_t *positions,
                                          int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int64_t const before = i > 0 ? scan[i - 1] : 0;
    if (scan[i] != before) {
      ties[before].prefix = keys[i];
      ties[before].row = (uint64_t)load_index(perm, index_bytes, i);
      positions[before] = i;
    }
  }
}

static __global__ void tie_scatter_kernel(const gcol_detail_string_tie *ties,
                                          const int64_t *positions, void *perm, int32_t index_bytes,
                                          int64_t count) {
  GCOL_DETAIL_GRID_LOOP(j, count) {
    store_index(perm, index_bytes, positions[j], (int64_t)ties[j].row);
  }
}

/* ---- plan ---- */

static gcol_status plan_push_pass(sort_plan *plan) {
  if (plan->num_passes == plan->capacity) {
    int32_t const capacity = plan->capacity == 0 ? 8 : plan->capacity * 2;
    word_pass *grown = (word_pass *)realloc(plan->passes, sizeof(word_pass) * capacity);
    if (grown == NULL) {
      return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "host plan of %d passes",
                               (int)capacity);
    }
    plan->passes = grown;
    plan->capacity = capacity;
  }
  memset(&plan->passes[plan->num_passes], 0, sizeof(word_pass));
  plan->num_passes++;
  return GCOL_OK;
}

/* Adds a field of `bits` bits, opening a new word when the current one is full. */
static gcol_status plan_add_field(sort_plan *plan, gcol_detail_key_column column, int32_t kind,
                                  int32_t bits, bool *open) {
  gcol_status status = GCOL_OK;
  word_pass *pass = *open ? &plan->passes[plan->num_passes - 1] : NULL;
  if (pass == NULL || pass->bits + bits > 64 || pass->num_fields == GCOL_DETAIL_MAX_WORD_FIELDS) {
    status = plan_push_pass(plan);
    if (status != GCOL_OK) return status;
    pass = &plan->passes[plan->num_passes - 1];
    *open = true;
  }
  word_field *f = &pass->fields[pass->num_fields++];
  f->column = column;
  f->kind = kind;
  f->shift = pass->bits;
  pass->bits += bits;
  return GCOL_OK;
}

static gcol_status plan_add_column(sort_plan *plan, gcol_detail_key_column column, bool *open) {
  gcol_status status = GCOL_OK;
  if (column.kind == GCOL_DETAIL_KEY_STRING) {
    status = plan_push_pass(plan);
    if (status != GCOL_OK) return status;
    word_pass *pass = &plan->passes[plan->num_passes - 1];
    pass->is_string = true;
    pass->num_fields = 1;
    pass->bits = 64;
    pass->fields[0].column = column;
    pass->fields[0].kind = FIELD_VALUE_LO;
    *open = false; /* nothing packs with a string pass */
  } else {
    int32_t const bits = gcol_detail_key_bits(column.kind, column.width);
    status = plan_add_field(plan, column, FIELD_VALUE_LO, bits, open);
    if (status == GCOL_OK && column.kind == GCOL_DETAIL_KEY_INT128) {
      status = plan_add_field(plan, column, FIELD_VALUE_HI, 64, open);
    }
  }
  if (status == GCOL_OK && column.null_mask != NULL) {
    status = plan_add_field(plan, column, FIELD_VALIDITY, 1, open);
  }
  return status;
}

/* Fields from the least significant key column up; the segment id last (most significant). */
static gcol_status plan_build(gcol_table_view keys, const gcol_order *order,
                              const gcol_null_order *null_order,
                              const gcol_column_view *segment_offsets, sort_plan *plan) {
  gcol_status status = GCOL_OK;
  bool open = false;
  for (int32_t c = keys.num_columns - 1; c >= 0 && status == GCOL_OK; --c) {
    gcol_detail_key_column column;
    char name[64];
    snprintf(name, sizeof name, "keys column %d", (int)c);
    status = gcol_detail_key_column_make(
        keys.columns[c], order != NULL ? order[c] : GCOL_ORDER_ASCENDING,
        null_order != NULL ? null_order[c] : GCOL_NULLS_AFTER, name, &column);
    if (status == GCOL_OK) status = plan_add_column(plan, column, &open);
  }
  if (status == GCOL_OK && segment_offsets != NULL && segment_offsets->size > 0) {
    gcol_detail_key_column none;
    memset(&none, 0, sizeof none);
    int32_t bits = 1;
    while (bits < 63 && ((int64_t)1 << bits) <= segment_offsets->size) ++bits;
    status = plan_add_field(plan, none, FIELD_SEGMENT, bits, &open);
    if (status == GCOL_OK) {
      word_pass *pass = &plan->passes[plan->num_passes - 1];
      pass->num_segments = segment_offsets->size;
      status = gcol_indexalator_make(*segment_offsets, &pass->segments);
    }
  }
  plan->max_key_bytes = 4;
  for (int32_t p = 0; p < plan->num_passes; ++p) {
    if (plan->passes[p].bits > 32) plan->max_key_bytes = 8;
  }
  return status;
}

/* ---- passes ---- */

static gcol_status launch_build_keys(const word_pass *pass, const void *perm, void *iota,
                                     int32_t index_bytes, void *keys, int64_t n,
                                     gcol_stream stream) {
  gcol_status status = GCOL_OK;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  cudaStream_t const s = (cudaStream_t)stream;
  if (pass->bits <= 32) {
    build_keys_kernel<uint32_t><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        *pass, perm, iota, index_bytes, (uint32_t *)keys, n);
  } else {
    build_keys_kernel<uint64_t><<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        *pass, perm, iota, index_bytes, (uint64_t *)keys, n);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* Re-sorts the runs of rows whose string prefixes tie: by their next words, then what still
 * ties by the whole string. */
static gcol_status refine_string_ties(const word_pass *pass, const uint64_t *sorted_keys,
                                      void *perm, int32_t index_bytes, int64_t n,
                                      gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *scan = NULL, *ties = NULL, *positions = NULL;
  int64_t count = 0;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int64_t) * (size_t)n, stream, NULL, &scan));
  tie_flags_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(sorted_keys, (int64_t *)scan->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_detail_inclusive_sum_i64((const int64_t *)scan->data, (int64_t *)scan->data, n, stream));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&count, (const int64_t *)scan->data + (n - 1), sizeof count,
                                       cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  if (count == 0) goto done;
  GCOL_DETAIL_TRY(
      gcol_buffer_create(sizeof(gcol_detail_string_tie) * (size_t)count, stream, NULL, &ties));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(int64_t) * (size_t)count, stream, NULL, &positions));
  tie_compact_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      sorted_keys, perm, index_bytes, (const int64_t *)scan->data,
      (gcol_detail_string_tie *)ties->data, (int64_t *)positions->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  /* the next words first (MSD radix rounds); what they leave tied, by whole strings */
  GCOL_DETAIL_TRY(gcol_detail_refine_ties_by_words(
      (gcol_detail_string_tie *)ties->data, (int64_t *)positions->data, &count,
      pass->fields[0].column, perm, index_bytes, stream));
  if (count == 0) goto done;
  GCOL_DETAIL_TRY(gcol_detail_sort_string_ties((gcol_detail_string_tie *)ties->data, count,
                                               pass->fields[0].column, stream));
  tie_scatter_kernel<<<gcol_detail_grid_size(count, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE,
                       0, s>>>((const gcol_detail_string_tie *)ties->data,
                               (const int64_t *)positions->data, perm, index_bytes, count);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  gcol_buffer_free(positions);
  gcol_buffer_free(ties);
  gcol_buffer_free(scan);
  return status;
}

/* Runs every pass; the permutation ends in perm[*current]. */
static gcol_status run_passes(const sort_plan *plan, gcol_buffer *perm[2], int32_t index_bytes,
                              int64_t n, int32_t *current, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *keys[2] = {NULL, NULL};
  for (int k = 0; k < 2; ++k) {
    GCOL_DETAIL_TRY(
        gcol_buffer_create((size_t)plan->max_key_bytes * (size_t)n, stream, NULL, &keys[k]));
  }
  *current = 0;
  for (int32_t p = 0; p < plan->num_passes; ++p) {
    const word_pass *pass = &plan->passes[p];
    gcol_detail_radix_buffers b;
    GCOL_DETAIL_TRY(launch_build_keys(pass, p == 0 ? NULL : perm[*current]->data,
                                      p == 0 ? perm[*current]->data : NULL, index_bytes,
                                      keys[0]->data, n, stream));
    b.keys[0] = keys[0]->data;
    b.keys[1] = keys[1]->data;
    b.values[0] = perm[0]->data;
    b.values[1] = perm[1]->data;
    b.key_bytes = pass->bits <= 32 ? 4 : 8;
    b.value_bytes = index_bytes;
    b.values_current = *current;
    b.keys_current = 0;
    b.overwrite = true;
    GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs(&b, n, pass->bits, stream));
    *current = b.values_current;
    if (pass->is_string) {
      GCOL_DETAIL_TRY(refine_string_ties(pass, (const uint64_t *)b.keys[b.keys_current],
                                         perm[*current]->data, index_bytes, n, stream));
    }
  }
done:
  gcol_buffer_free(keys[0]);
  gcol_buffer_free(keys[1]);
  return status;
}

/* ---- one plain key ---- */

static __global__ void iota_u32_kernel(uint32_t *out, int64_t n) {
  GCOL_DETAIL_GRID_LOOP(i, n) { out[i] = (uint32_t)i; }
}

/* One ascending key stored as a signed 32- or 64-bit integer (INT32/64, timestamps,
 * durations, DECIMAL32/64), no nulls, fewer than 2^31 rows: CUB orders it as stored (it
 * flips the sign bit in registers), so no normalized copy is made. */
static bool native_order_applies(const gcol_detail_key_column *key, int64_t n) {
  return n <= INT32_MAX && key->kind == GCOL_DETAIL_KEY_SINT &&
         (key->width == 4 || key->width == 8) && !key->descending && key->null_mask == NULL;
}

/* The order of such a key: an iota of INT32 indices sorted as the key's values. */
static gcol_status native_sorted_order(gcol_detail_key_column key, int64_t n, gcol_stream stream,
                                       gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *iota = NULL, *sorted_keys = NULL;
  gcol_column *result = NULL;
  gcol_detail_radix_buffers b;
  memset(&b, 0, sizeof b);
  b.key_bytes = key.width;
  b.value_bytes = 4;
  b.overwrite = false; /* the key column is an input: only read */
  /* CUB writes the sorted keys somewhere even though only the order is wanted */
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)key.width * (size_t)n, stream, NULL, &sorted_keys));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(uint32_t) * (size_t)n, stream, NULL, &iota));
  iota_u32_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                    (cudaStream_t)stream>>>((uint32_t *)iota->data, n);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT32), n, GCOL_MASK_UNALLOCATED,
                                     stream, mr, &result));
  b.keys[0] = (void *)key.data;
  b.keys[1] = sorted_keys->data;
  b.values[0] = iota->data;
  b.values[1] = result->data->data;
  if (key.width == 4) {
    GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs_i32(&b, n, stream));
  } else {
    GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs_i64(&b, n, stream));
  }
  *out = result;
  result = NULL;
done:
  gcol_column_free(result);
  gcol_buffer_free(iota);
  gcol_buffer_free(sorted_keys);
  return status;
}

extern "C" gcol_status gcol_detail_sorted_order(gcol_table_view keys, const gcol_order *order,
                                                const gcol_null_order *null_order,
                                                const gcol_column_view *segment_offsets,
                                                const char *func, gcol_column **out,
                                                gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  sort_plan plan = {NULL, 0, 0, 4};
  gcol_buffer *perm[2] = {NULL, NULL};
  int32_t current = 0;
  int64_t const n = keys.num_rows;
  gcol_type_id const index_type = gcol_index_type_for(n);
  int32_t const index_bytes = (int32_t)gcol_type_size(index_type);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_key_table_make(keys, order, null_order, "keys", NULL));
  if (n == 0) {
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(index_type), 0, GCOL_MASK_UNALLOCATED,
                                       stream, mr, out));
    goto done;
  }
  if (keys.num_columns == 1 && (segment_offsets == NULL || segment_offsets->size == 0)) {
    gcol_detail_key_column key;
    GCOL_DETAIL_TRY(gcol_detail_key_column_make(
        keys.columns[0], order != NULL ? order[0] : GCOL_ORDER_ASCENDING,
        null_order != NULL ? null_order[0] : GCOL_NULLS_AFTER, "keys column 0", &key));
    if (gcol_detail_split_sort_applies(&key, n)) {
      bool applied = false;
      GCOL_DETAIL_TRY(gcol_detail_split_sorted_order(key, n, &applied, stream, mr, out));
      if (applied) goto done;
    }
    if (native_order_applies(&key, n)) {
      GCOL_DETAIL_TRY(native_sorted_order(key, n, stream, mr, out));
      goto done;
    }
  }
  GCOL_DETAIL_TRY(plan_build(keys, order, null_order, segment_offsets, &plan));
  /* Both halves of the permutation's double buffer come from mr: the result is in either,
   * and becomes the output without a copy. */
  for (int k = 0; k < 2; ++k) {
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)index_bytes * (size_t)n, stream, mr, &perm[k]));
  }
  if (plan.num_passes == 0) {
    GCOL_DETAIL_FAIL(GCOL_ERROR_INTERNAL, "%s: empty sort plan", func);
  }
  GCOL_DETAIL_TRY(run_passes(&plan, perm, index_bytes, n, &current, stream));
  GCOL_DETAIL_TRY(
      gcol_column_make(gcol_data_type_make(index_type), n, perm[current], NULL, 0, NULL, 0, out));
  perm[current] = NULL; /* owned by *out now */
done:
  gcol_buffer_free(perm[0]);
  gcol_buffer_free(perm[1]);
  free(plan.passes);
  return status;
}
