/*
 * Internal interface of kernels/sort and kernels/search: the few CUB instantiations (radix
 * sort pairs over u32/u64 keys with u32/u64 values, an int64 inclusive scan, the merge
 * sort of string ties), the gather of columns through a row map, and the stable sorted
 * order with an optional segment key. Every function follows the single-exit pattern and
 * takes temporaries from the default resource.
 */
#ifndef GCOL_KERNELS_SORT_SORT_INTERNAL_H
#define GCOL_KERNELS_SORT_SORT_INTERNAL_H

#include "gcol/column.h"
#include "gcol/indexalator.h"
#include "gcol/sorting.h"
#include "gcol/table.h"
#include "detail/sort_keys.h"

GCOL_EXTERN_C_BEGIN

/*
 * Key/value double buffers of one radix sort. keys[0] holds the input keys (keys[1] is
 * scratch); values[values_current] the input values. With overwrite, both buffers of each
 * pair are scratch and values_current says where the sorted values landed; without, the
 * result is in keys[1]/values[1] and keys[0]/values[0] are only read.
 */
typedef struct gcol_detail_radix_buffers {
  void *keys[2];
  void *values[2];
  int32_t key_bytes;      /* 4 or 8 */
  int32_t value_bytes;    /* 4 (needs n <= INT32_MAX) or 8 */
  int32_t values_current; /* 0 or 1 */
  int32_t keys_current;   /* out: where the sorted keys landed */
  bool overwrite;
} gcol_detail_radix_buffers;

/* Stable ascending radix sort of (key, value) pairs on key bits [0, end_bit). */
gcol_status gcol_detail_radix_sort_pairs(gcol_detail_radix_buffers *buffers, int64_t n, int end_bit,
                                         gcol_stream stream);

/* Stable ascending radix sort of (int32, u32) pairs read as stored (no overwrite:
 * keys[0]/values[0] only read, the result in keys[1]/values[1]); n <= INT32_MAX. */
gcol_status gcol_detail_radix_sort_pairs_i32(gcol_detail_radix_buffers *buffers, int64_t n,
                                             gcol_stream stream);

/* The same for (int64, u32) pairs (radix_i64.cu). */
gcol_status gcol_detail_radix_sort_pairs_i64(gcol_detail_radix_buffers *buffers, int64_t n,
                                             gcol_stream stream);

/* Stable ascending radix sort of (u32 key, u64 value) pairs on all 32 key bits, counted
 * with int (n <= INT32_MAX; radix_u32_u64.cu): the hi sort of the split sort. */
gcol_status gcol_detail_radix_sort_pairs_u32_u64(gcol_detail_radix_buffers *buffers, int64_t n,
                                                 gcol_stream stream);

/* True when gcol_detail_split_sorted_order() takes one key of `n` rows: a 64-bit SINT, UINT
 * or FLOAT key without nulls, either direction, at least the split sort's row minimum and
 * at most INT32_MAX rows (split_sort.cu). */
bool gcol_detail_split_sort_applies(const gcol_detail_key_column *key, int64_t n);

/* The stable sorted order (INT32) of such a key by the split sort (split_sort.h explains
 * it); *applied false (and *out untouched) when the key's range and row count don't fit its
 * packing, for the caller's general path. Synchronizes @p stream twice. */
gcol_status gcol_detail_split_sorted_order(gcol_detail_key_column key, int64_t n, bool *applied,
                                           gcol_stream stream, gcol_mr *mr, gcol_column **out);

/* Fewest rows that take the split sort (default 2^20; INT64_MAX turns it off, 0 or 1 lets
 * every size take it); returns the previous value. Not thread-safe: for tests and the
 * benchmark, which compare the split sort with the general path on the same data. */
int64_t gcol_detail_set_split_sort_min_rows(int64_t rows);

/* out[i] = in[0] + ... + in[i] over int64 (in == out allowed). */
gcol_status gcol_detail_inclusive_sum_i64(const int64_t *in, int64_t *out, int64_t n,
                                          gcol_stream stream);

/* A row whose first 8 bytes tie with a neighbour's: its prefix word and row index. */
typedef struct gcol_detail_string_tie {
  uint64_t prefix;
  uint64_t row;
} gcol_detail_string_tie;

/* Narrows ties[0, *count) (string-prefix ties in order, runs of equal prefix; positions[j]:
 * tie j's slot in perm) by the strings' next 8-byte words, a few MSD radix rounds
 * (tie_words.cu). A tie left alone in its group is stored in perm; the rest stay in ties,
 * compacted, with their prefix replaced by an order-keeping group id, and *count shrinks. */
gcol_status gcol_detail_refine_ties_by_words(gcol_detail_string_tie *ties, int64_t *positions,
                                             int64_t *count, gcol_detail_key_column column,
                                             void *perm, int32_t index_bytes, gcol_stream stream);

/* Tie sets smaller than this skip the word rounds (default 2^14); returns the previous value.
 * Not thread-safe: for tests, which lower it to reach the rounds on small data. */
int64_t gcol_detail_set_tie_refine_min(int64_t ties);

/* Stable sort of `n` ties by (prefix, validity, full string) of `column`. */
gcol_status gcol_detail_sort_string_ties(gcol_detail_string_tie *ties, int64_t n,
                                         gcol_detail_key_column column, gcol_stream stream);

/*
 * Gathers rows of `num_sources` columns of one type into a new column of `n` rows:
 * row i comes from source `source_ids[i]` (NULL: source 0), row `rows[i]` (unsigned
 * integers of `row_bytes` 4 or 8). Fixed-width and STRING. `null_count_hint` >= 0 is
 * used as the output's null count (a permutation keeps it); -1 counts it (synchronizes).
 */
gcol_status gcol_detail_sort_gather(const gcol_column_view *sources, int32_t num_sources,
                                    const uint8_t *source_ids, const void *rows, int32_t row_bytes,
                                    int64_t n, int64_t null_count_hint, gcol_stream stream,
                                    gcol_mr *mr, gcol_column **out);

/* Gathers every column of `table` (every layout) through one map of `n` unsigned row
 * indices of `row_bytes` 4 or 8 bytes, with the one gather engine (kernels/detail/gather.h). */
gcol_status gcol_detail_sort_gather_table(gcol_table_view table, const void *rows,
                                          int32_t row_bytes, int64_t n, gcol_stream stream,
                                          gcol_mr *mr, gcol_table **out);

/*
 * The stable sorted order of `keys`, optionally within segments (segment_offsets not NULL:
 * an integer view, already checked). Result: a column of the index type for the row count.
 */
gcol_status gcol_detail_sorted_order(gcol_table_view keys, const gcol_order *order,
                                     const gcol_null_order *null_order,
                                     const gcol_column_view *segment_offsets, const char *func,
                                     gcol_column **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_SORT_SORT_INTERNAL_H */
