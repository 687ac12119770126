/**
 * @file partitioning.h
 * @ingroup gcol_partitioning
 * @brief Partitioning of a table's rows: by a hash of key columns, by a partition map, or
 *        round robin (libcudf's hash_partition, partition and round_robin_partition).
 *
 * Every function returns the rows grouped by partition, partition 0 first, and fills the
 * host array `partition_offsets` of `num_partitions + 1` entries: partition p's rows are
 * output rows `[partition_offsets[p], partition_offsets[p + 1])` (`partition_offsets[0]` is
 * 0, the last entry the row count). Within a partition the rows keep their input order
 * (stable). Every column layout is carried along (fixed-width, STRING, LIST, STRUCT), nulls
 * included; DICTIONARY32 gives ::GCOL_ERROR_UNSUPPORTED. Up to 1024 partitions each tile of
 * rows is ordered by partition in shared memory and written in runs (a table of fixed-width
 * columns moves in that one pass); above, the rows go through a row map, which is slower.
 *
 * @code
 * int64_t offsets[9];
 * int32_t keys[1] = {0};
 * gcol_table *parts = NULL;
 * gcol_status st = gcol_hash_partition(table, keys, 1, 8, GCOL_HASH_MURMUR3_32, 0, &parts,
 *                                      offsets, stream, NULL);
 * @endcode
 */
#ifndef GCOL_PARTITIONING_H
#define GCOL_PARTITIONING_H

/** @addtogroup gcol_partitioning
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/hashing.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief Partitions rows by the hash of their key columns: row i goes to partition
 *        `h(i) % num_partitions`, where h(i) is gcol_hash() of the key columns (in the order
 *        of @p key_columns) with @p fn and @p seed, taken as an unsigned 32-bit value for the
 *        murmur3 variants (also the Spark one) and as an unsigned 64-bit value for XXH64.
 * @param[in] input The table (all its columns are output; at least one column).
 * @param[in] key_columns Host array of @p num_keys column indices into @p input.
 * @param[in] num_keys Number of key columns (>= 1).
 * @param[in] num_partitions Number of partitions (>= 1).
 * @param[in] fn ::GCOL_HASH_MURMUR3_32, ::GCOL_HASH_MURMUR3_32_SPARK or ::GCOL_HASH_XXHASH64.
 * @param[in] seed The hash seed.
 * @param[out] out The partitioned table; NULL on failure.
 * @param[out] partition_offsets Host array of `num_partitions + 1` entries, filled.
 * @param[in] stream The stream of the work.
 * @param[in] mr The resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, @p num_keys < 1, a key
 *         index out of range, @p num_partitions < 1, @p fn not allowed, malformed input),
 *         ::GCOL_ERROR_SIZE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED (a key column that cannot be
 *         hashed, a DICTIONARY32 column), ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA status.
 * @note Synchronizes @p stream (the offsets are host values). The caller owns @p out.
 */
gcol_status gcol_hash_partition(gcol_table_view input, const int32_t *key_columns, int32_t num_keys,
                                int32_t num_partitions, gcol_hash_function fn, uint64_t seed,
                                gcol_table **out, int64_t *partition_offsets, gcol_stream stream,
                                gcol_mr *mr);

/**
 * @brief Partitions rows by a partition map: row i goes to partition `partition_map[i]`.
 * @param[in] input The table (at least one column).
 * @param[in] partition_map A column of any integer type with `input.num_rows` rows, every
 *                          value in `[0, num_partitions)` and no nulls.
 * @param[in] num_partitions Number of partitions (>= 1).
 * @param[out] out The partitioned table; NULL on failure.
 * @param[out] partition_offsets Host array of `num_partitions + 1` entries, filled.
 * @param[in] stream The stream of the work.
 * @param[in] mr The resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, @p num_partitions < 1,
 *         a map value out of range or a null map entry: found on the device, then no output),
 *         ::GCOL_ERROR_TYPE_MISMATCH (map not an integer type), ::GCOL_ERROR_SIZE_MISMATCH,
 *         ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32 column), ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA
 *         status.
 * @note Synchronizes @p stream. The caller owns @p out.
 */
gcol_status gcol_partition(gcol_table_view input, gcol_column_view partition_map,
                           int32_t num_partitions, gcol_table **out, int64_t *partition_offsets,
                           gcol_stream stream, gcol_mr *mr);

/**
 * @brief Round-robin partitioning (libcudf's semantics): row i goes to partition
 *        `(i + start_partition) % num_partitions`.
 * @param[in] input The table (at least one column).
 * @param[in] num_partitions Number of partitions (>= 1).
 * @param[in] start_partition The partition of row 0, in `[0, num_partitions)`.
 * @param[out] out The partitioned table; NULL on failure.
 * @param[out] partition_offsets Host array of `num_partitions + 1` entries, filled.
 * @param[in] stream The stream of the work.
 * @param[in] mr The resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, @p num_partitions < 1,
 *         @p start_partition out of range, malformed input), ::GCOL_ERROR_SIZE_MISMATCH,
 *         ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32 column), ::GCOL_ERROR_OUT_OF_MEMORY, a CUDA
 *         status.
 * @note Synchronizes @p stream. The caller owns @p out.
 */
gcol_status gcol_round_robin_partition(gcol_table_view input, int32_t num_partitions,
                                       int32_t start_partition, gcol_table **out,
                                       int64_t *partition_offsets, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_PARTITIONING_H */
