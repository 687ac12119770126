/**
 * @file join.h
 * @ingroup gcol_join
 * @brief Equality joins: inner, left, full outer, left semi and left anti joins on
 *        multi-column keys, as gather maps or as a joined table; a reusable build side with
 *        exact output sizes and batched probes; a sort-merge join of sorted inputs; cross
 *        join.
 *
 * A join matches rows of a left (probe) table and a right (build) table whose key columns
 * are equal under the row comparator of gcol: ints, bools, timestamps, durations, decimals
 * (128-bit included) by value, floats with -0.0 == 0.0 and every NaN equal to every NaN,
 * strings by bytes. Null keys match each other with ::GCOL_NULLS_EQUAL; with
 * ::GCOL_NULLS_UNEQUAL a row with a null key matches nothing (it still appears, unmatched,
 * in left, full and anti joins).
 *
 * Results are gather maps: `left_map[k]` and `right_map[k]` are the rows of output pair k,
 * INT32 when both tables have fewer than 2^31 rows, INT64 otherwise. The missing side of an
 * outer join's unmatched row is -1 (gather it with an out-of-bounds policy that nullifies).
 * Order: probe (left) rows in ascending order, each row's matches together, the matches of
 * one left row in unspecified order; a full join then lists the unmatched right rows in
 * ascending order (left -1). A radix-partitioned probe (::GCOL_JOIN_ALGORITHM_RADIX, never
 * chosen by default) lists the left rows grouped by partition instead: the rows of partition 0,
 * 1, ... and last the left rows whose key can match nothing (a null key), each group in
 * ascending order, each row's matches together; the unmatched right rows of a full join still
 * come last, ascending. gcol_join_hash_probe_partitions() tells which order a probe gives.
 *
 * Joins by a predicate over both tables are in expression.h: gcol_conditional_join() alone,
 * gcol_mixed_join() with equality keys as here.
 *
 * @code
 * gcol_join_hash *h = NULL;
 * gcol_join_hash_create(customers_keys, GCOL_NULLS_EQUAL, &h, stream);  // build once
 * int64_t n = 0;
 * gcol_join_hash_probe_size(h, orders_keys, GCOL_JOIN_INNER, &n, stream);
 * for (int64_t first = 0; first < n; first += batch) {                  // batches of <= batch rows
 *   gcol_column *l = NULL, *r = NULL;
 *   gcol_join_hash_probe(h, orders_keys, GCOL_JOIN_INNER, first, batch, &l, &r, stream, mr);
 *   ...
 * }
 * gcol_join_hash_free(h);
 * @endcode
 */
#ifndef GCOL_JOIN_H
#define GCOL_JOIN_H

/** @addtogroup gcol_join
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/filtering.h"
#include "gcol/memory.h"
#include "gcol/sorting.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief The kinds of equality join. */
typedef enum gcol_join_kind {
  GCOL_JOIN_INNER = 0,     /**< Pairs of matching rows. */
  GCOL_JOIN_LEFT = 1,      /**< Inner pairs, plus (row, -1) for each unmatched left row. */
  GCOL_JOIN_FULL = 2,      /**< Left join pairs, plus (-1, row) for each unmatched right row. */
  GCOL_JOIN_LEFT_SEMI = 3, /**< Left rows with at least one match (left map only). */
  GCOL_JOIN_LEFT_ANTI = 4  /**< Left rows without a match (left map only). */
} gcol_join_kind;

/**
 * @brief How a hash join lays out its build and probe (gcol_join_options::algorithm).
 *
 * The build's hash map has 16-byte slots at a load of at most 1/2. Once it is much larger
 * than the GPU's L2 cache, every probe row's lookup is a random DRAM access. A radix-
 * partitioned join splits the map's slots into 2^b contiguous regions of at most half the L2
 * (b <= ::GCOL_JOIN_RADIX_MAX_BITS) by the bits of the key's hash that pick its first slot,
 * reorders the build rows and then each probe's rows by region (a counting pass and a stable
 * scatter of the key's bits or hash and the row index), and inserts and probes region by
 * region, so that the random accesses of each region stay in L2. It costs a pass writing and
 * reading 12-16 bytes per row and gives up the probe-ordered output (see the file's Order).
 */
typedef enum gcol_join_algorithm {
  /** Chosen by the data (the default): integer keys of a dense range take the direct layout,
   *  other keys a hash map, as one table. Radix partitions are not chosen: measured on an
   *  H200 they were slower than one table even for a 4 GiB map (docs/design.md, "Joins"). */
  GCOL_JOIN_ALGORITHM_AUTO = 0,
  /** One table, never partitioned (the direct layout or a hash map, as AUTO chooses them):
   *  the left rows of the output in ascending order. */
  GCOL_JOIN_ALGORITHM_ONE_TABLE = 1,
  /** A hash map (never the direct layout) built and probed in radix partitions, whatever the
   *  sizes: for tests and measurements. Every key type, null option and join kind. */
  GCOL_JOIN_ALGORITHM_RADIX = 2
} gcol_join_algorithm;

/** @brief The most partition bits of a radix-partitioned join (256 partitions). */
#define GCOL_JOIN_RADIX_MAX_BITS 8

/** @brief Options of a hash join; a zero-initialized struct (or NULL) means the defaults. */
typedef struct gcol_join_options {
  /** How the build and its probes are laid out; ::GCOL_JOIN_ALGORITHM_AUTO (0) by default. */
  gcol_join_algorithm algorithm;
  /** Radix partitions: 0 (the default) for as many as make a partition's slots fit in half
   *  the L2 cache (at most 2^::GCOL_JOIN_RADIX_MAX_BITS; 1 partition for a map that fits),
   *  else 2^radix_bits partitions (1 to ::GCOL_JOIN_RADIX_MAX_BITS, at most one per slot):
   *  tests force many partitions on small maps with it. */
  int32_t radix_bits;
} gcol_join_options;

/**
 * @brief A hash table over the key rows of a right (build) table, probed by any number of
 *        left tables with the same key types. It refers to the build keys' device memory,
 *        which must stay valid and unchanged while it lives.
 */
typedef struct gcol_join_hash gcol_join_hash;

/**
 * @brief Builds the hash table of @p build_keys (every column is a key).
 * @param[in] build_keys Key columns of the right table (at least one; fixed-width or STRING).
 * @param[in] nulls Whether null keys match each other.
 * @param[out] out The table (temporary memory from the default resource); free it with
 *             gcol_join_hash_free().
 * @param[in] stream Stream of the build.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, no key, bad @p nulls);
 *         ::GCOL_ERROR_TYPE_MISMATCH (a LIST, STRUCT or DICTIONARY32 key);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; ::GCOL_ERROR_OVERFLOW.
 * @note Synchronizes @p stream (to check the table for overflow).
 */
gcol_status gcol_join_hash_create(gcol_table_view build_keys, gcol_null_equality nulls,
                                  gcol_join_hash **out, gcol_stream stream);

/**
 * @brief gcol_join_hash_create() with options: the algorithm (one table or radix partitions)
 *        of the build and of every probe of it.
 * @param[in] build_keys As gcol_join_hash_create().
 * @param[in] nulls Whether null keys match each other.
 * @param[in] options The options, or NULL for the defaults (as gcol_join_hash_create()).
 * @param[out] out The table; free it with gcol_join_hash_free().
 * @param[in] stream Stream of the build.
 * @return As gcol_join_hash_create(); ::GCOL_ERROR_INVALID_ARGUMENT also for an unknown
 *         algorithm or radix_bits outside [0, ::GCOL_JOIN_RADIX_MAX_BITS].
 * @note Synchronizes @p stream. A radix-partitioned build takes, while it runs, 12 bytes per
 *       build row (16 beyond 2^31 rows) and 8 bytes per partition and 4096 rows.
 */
gcol_status gcol_join_hash_create_with_options(gcol_table_view build_keys, gcol_null_equality nulls,
                                               const gcol_join_options *options,
                                               gcol_join_hash **out, gcol_stream stream);

/** @brief Frees a join hash table (NULL is a no-op). */
void gcol_join_hash_free(gcol_join_hash *hash);

/** @brief Rows of the build table the hash was made from. */
int64_t gcol_join_hash_build_rows(const gcol_join_hash *hash);

/**
 * @brief How a probe of @p probe_rows left rows runs (the order of its output): 0 on one
 *        table (left rows ascending), else the number of radix partitions it is grouped by
 *        (see ::gcol_join_algorithm). 0 for a NULL @p hash.
 */
int32_t gcol_join_hash_probe_partitions(const gcol_join_hash *hash, int64_t probe_rows);

/**
 * @brief The exact number of output rows of a probe (64-bit, nothing allocated for output).
 * @param[in] hash The build side.
 * @param[in] probe_keys Key columns of the left table, the build's key count and types.
 * @param[in] kind The join.
 * @param[out] out Output rows.
 * @param[in] stream Stream of the work.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL arguments, bad kind, key count
 *         differs); ::GCOL_ERROR_TYPE_MISMATCH (key types differ); ::GCOL_ERROR_OUT_OF_MEMORY.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_join_hash_probe_size(const gcol_join_hash *hash, gcol_table_view probe_keys,
                                      gcol_join_kind kind, int64_t *out, gcol_stream stream);

/**
 * @brief Output rows `[first, first + max_rows)` of a probe (all rows from @p first when
 *        @p max_rows < 0), as gather maps. Batches of one probe cover the whole output in
 *        order: a left row with more matches than a batch holds is split across batches.
 * @param[in] hash The build side.
 * @param[in] probe_keys Key columns of the left table, the build's key count and types.
 * @param[in] kind The join.
 * @param[in] first First output row (0 <= first <= the probe's size).
 * @param[in] max_rows Most output rows, or < 0 for all.
 * @param[out] left_map Left rows (from @p mr).
 * @param[out] right_map Right rows (-1: none); NULL is allowed, and it is set to NULL, for
 *             semi and anti joins.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the outputs, or NULL for the default.
 * @return As gcol_join_hash_probe_size(); ::GCOL_ERROR_INVALID_ARGUMENT for @p first out of
 *         range; ::GCOL_ERROR_OUT_OF_MEMORY when the maps do not fit (never a truncated
 *         result).
 * @note Synchronizes @p stream (the output size sizes the maps). Each call probes every left
 *       row again to place the batch: a batch costs a probe plus its output. A radix-
 *       partitioned probe (gcol_join_hash_probe_partitions() > 0) partitions the left rows
 *       again in each call, the same way (the order is deterministic), and takes 12 bytes per
 *       left row while it runs (16 when the maps are INT64).
 */
gcol_status gcol_join_hash_probe(const gcol_join_hash *hash, gcol_table_view probe_keys,
                                 gcol_join_kind kind, int64_t first, int64_t max_rows,
                                 gcol_column **left_map, gcol_column **right_map,
                                 gcol_stream stream, gcol_mr *mr);

/**
 * @brief One-shot join: builds a hash of @p right_keys, probes it with @p left_keys and
 *        returns the whole output as gather maps (see gcol_join_hash_probe()).
 * @param[in] left_keys Left key columns.
 * @param[in] right_keys Right key columns (same count and types).
 * @param[in] kind The join.
 * @param[in] nulls Whether null keys match each other.
 * @param[out] left_map Left rows.
 * @param[out] right_map Right rows (NULL allowed, and set to NULL, for semi and anti).
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the outputs, or NULL for the default.
 * @return As gcol_join_hash_create() and gcol_join_hash_probe().
 * @note Synchronizes @p stream.
 */
gcol_status gcol_join(gcol_table_view left_keys, gcol_table_view right_keys, gcol_join_kind kind,
                      gcol_null_equality nulls, gcol_column **left_map, gcol_column **right_map,
                      gcol_stream stream, gcol_mr *mr);

/**
 * @brief gcol_join() with options (the algorithm: one table or radix partitions).
 * @param[in] left_keys Left key columns.
 * @param[in] right_keys Right key columns (same count and types).
 * @param[in] kind The join.
 * @param[in] nulls Whether null keys match each other.
 * @param[in] options The options, or NULL for the defaults (as gcol_join()).
 * @param[out] left_map Left rows.
 * @param[out] right_map Right rows (NULL allowed, and set to NULL, for semi and anti).
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the outputs, or NULL for the default.
 * @return As gcol_join_hash_create_with_options() and gcol_join_hash_probe().
 * @note Synchronizes @p stream.
 */
gcol_status gcol_join_with_options(gcol_table_view left_keys, gcol_table_view right_keys,
                                   gcol_join_kind kind, gcol_null_equality nulls,
                                   const gcol_join_options *options, gcol_column **left_map,
                                   gcol_column **right_map, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Joins two tables and returns the joined table: the left columns, then the right
 *        columns (without the right key columns when @p drop_right_keys); rows missing on one
 *        side of an outer join are null there. Semi and anti joins return left columns only.
 * @param[in] left Left table.
 * @param[in] left_on Key column indices into @p left.
 * @param[in] right Right table.
 * @param[in] right_on Key column indices into @p right (as many as @p left_on).
 * @param[in] num_keys Number of key columns (>= 1).
 * @param[in] kind The join.
 * @param[in] nulls Whether null keys match each other.
 * @param[in] drop_right_keys Leave the right key columns out of the output.
 * @param[out] out The joined table.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_join(); ::GCOL_ERROR_INVALID_ARGUMENT for a key index out of range.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_join_tables(gcol_table_view left, const int32_t *left_on, gcol_table_view right,
                             const int32_t *right_on, int32_t num_keys, gcol_join_kind kind,
                             gcol_null_equality nulls, bool drop_right_keys, gcol_table **out,
                             gcol_stream stream, gcol_mr *mr);

/**
 * @brief Sort-merge join of two tables already sorted on their keys, as gather maps. No
 *        hash table is built: the right rows equal to a left row are one run of the sorted
 *        right keys, found by gcol_lower_bound() and gcol_upper_bound().
 *
 * Both key tables must be sorted in the order @p order / @p null_order describe (as
 * gcol_sort() leaves them; ties in any order); this is checked (gcol_is_sorted(), one pass
 * over each side) and an unsorted side gives ::GCOL_ERROR_INVALID_ARGUMENT. Key equality is
 * the sort's, which is the hash join's (-0.0 == +0.0, NaNs alike; nulls alike, or matching
 * nothing with ::GCOL_NULLS_UNEQUAL). Output order, unlike the hash join's, is fully
 * determined: left rows ascending, each left row's matches in ascending right order, then a
 * full join's unmatched right rows ascending (left -1).
 *
 * When to use it: when the fully ordered output is what is wanted. One fixed-width key
 * column (not DECIMAL128) without nulls on either side takes a fast path that reads each
 * side about twice and keeps no temporary per row: on 10M x 100M sorted int64 keys (an
 * H200) 2.5 ms and 256 MiB at peak, against gcol_join()'s 1.9 ms and 945 MiB on the same
 * sorted sides, so it wins where memory is short or the order saves a sort. Other keys take a generic path that is not faster nor smaller than the hash
 * join: on 10M x 100M sorted int64 keys (an H200) it took 12.1 ms and 1.87 GB at peak
 * against gcol_join()'s 1.9 ms and 0.99 GB on the same sorted sides (bench/RESULTS.md), so
 * there prefer gcol_join() (and sort its output if needed) when speed or memory matters.
 * @param[in] left_keys Left (probe) keys, sorted; at most ::GCOL_MAX_COMPARE_COLUMNS
 *                      columns of the types gcol_lower_bound() takes (no nested types).
 * @param[in] right_keys Right keys, sorted the same way, same column count and types.
 * @param[in] order One per key column, or NULL for all ascending.
 * @param[in] null_order One per key column, or NULL for all ::GCOL_NULLS_AFTER.
 * @param[in] kind Any ::gcol_join_kind.
 * @param[in] nulls Whether null keys match each other.
 * @param[out] left_map Left rows: INT32 when both tables have fewer than 2^31 rows, INT64
 *                      otherwise; NULL on failure.
 * @param[out] right_map Right rows (-1: none), same type; NULL allowed, and set to NULL, for
 *                       semi and anti joins.
 * @param[in] stream Stream of all work.
 * @param[in] mr Resource of the maps, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL outputs, bad @p kind or @p nulls,
 *         key counts differ or are 0, a side not sorted); ::GCOL_ERROR_SIZE_MISMATCH,
 *         ::GCOL_ERROR_TYPE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED as gcol_lower_bound();
 *         ::GCOL_ERROR_OUT_OF_MEMORY (also when the maps do not fit); ::GCOL_ERROR_OVERFLOW;
 *         CUDA status.
 * @note Synchronizes @p stream (the output size; the fast path reads the sortedness checks
 *       back with it, and counts the nulls of a view whose null count is unknown; the
 *       generic path synchronizes for each side's check, and once more for a full join's
 *       unmatched right rows). Temporary memory: on the fast path 32 bytes per 2048 rows
 *       (of the left side, and of the right side for a full join); else two positions and 8
 *       bytes a left row, and for a full join the same per right row. No batches: use the
 *       hash join's batched probe when the output may not fit.
 */
gcol_status gcol_sort_merge_join(gcol_table_view left_keys, gcol_table_view right_keys,
                                 const gcol_order *order, const gcol_null_order *null_order,
                                 gcol_join_kind kind, gcol_null_equality nulls,
                                 gcol_column **left_map, gcol_column **right_map,
                                 gcol_stream stream, gcol_mr *mr);

/**
 * @brief Cross join as gather maps: every left row with every right row, left-major
 *        (`left_map[k] = k / right_rows`, `right_map[k] = k % right_rows`).
 * @param[in] left_rows Rows of the left table (>= 0).
 * @param[in] right_rows Rows of the right table (>= 0).
 * @param[out] left_map Left rows.
 * @param[out] right_map Right rows.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the outputs, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (negative sizes, NULL outputs);
 *         ::GCOL_ERROR_OVERFLOW (the product does not fit in int64);
 *         ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_cross_join(int64_t left_rows, int64_t right_rows, gcol_column **left_map,
                            gcol_column **right_map, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_JOIN_H */
