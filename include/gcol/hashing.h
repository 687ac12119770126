/**
 * @file hashing.h
 * @ingroup gcol_partitioning
 * @brief Row hashing: one hash per row of a table, with published hash functions
 *        (MurmurHash3_x86_32, Spark's Murmur3Hash, XXH64, MD5, SHA-256).
 *
 * @code
 * gcol_column *h = NULL;
 * gcol_status st = gcol_hash(table, GCOL_HASH_MURMUR3_32, 0, &h, stream, NULL);  // UINT32
 * gcol_column_free(h);
 * @endcode
 *
 * Row semantics (MURMUR3_32, MURMUR3_32_SPARK, XXHASH64): the running hash starts at the
 * seed; each column's element, left to right, is hashed with the running hash as its seed
 * and the result becomes the running hash (chaining, as Spark's Murmur3Hash and XxHash64 and
 * libcudf's xxhash_64 do); a null element leaves the running hash unchanged. A row of only
 * nulls therefore hashes to the seed (truncated to 32 bits for the murmur3 variants).
 *
 * Element hashes by type:
 * - ::GCOL_HASH_MURMUR3_32 (libcudf's MurmurHash3_x86_32 element hash): integers,
 *   timestamps, durations and decimals hash the little-endian bytes of their storage (1, 2,
 *   4, 8 or 16 bytes; DECIMAL32/64/128 their unscaled integer); BOOL8 hashes one byte, 0 or
 *   1 (any non-zero byte is true); FLOAT32/FLOAT64 hash their bits after normalization:
 *   -0.0 becomes +0.0 and every NaN becomes the canonical quiet NaN (0x7FC00000,
 *   0x7FF8000000000000); STRING hashes its bytes (gcol_murmur3_32()). Output: UINT32.
 *   Note: libcudf's table murmur3 combines per-element hashes with hash_combine and hashes
 *   nulls as UINT32_MAX; gcol chains as described above instead.
 * - ::GCOL_HASH_MURMUR3_32_SPARK (Spark's Murmur3Hash, default seed in Spark is 42):
 *   INT8/INT16/INT32, UINT8/UINT16 (zero-extended), BOOL8 (1 or 0), TIMESTAMP_DAYS and
 *   DURATION_DAYS hash as a 4-byte int (hashInt); INT64, UINT32 (zero-extended), UINT64,
 *   the 8-byte timestamps and durations hash as an 8-byte long (hashLong); FLOAT32 hashes
 *   floatToIntBits (-0.0 as 0, NaN as 0x7FC00000) with hashInt; FLOAT64 doubleToLongBits
 *   (-0.0 as 0, NaN as 0x7FF8000000000000) with hashLong; DECIMAL32/DECIMAL64 hash the
 *   unscaled value sign-extended to a long with hashLong (Spark's path for precision <= 18);
 *   DECIMAL128 hashes the minimal big-endian two's-complement bytes of the unscaled value
 *   (Java's BigInteger.toByteArray(), Spark's path for precision > 18) with hashUnsafeBytes;
 *   STRING hashes its bytes with Spark's hashUnsafeBytes (4-byte blocks as MurmurHash3, then
 *   each tail byte sign-extended and mixed as its own block). Output: INT32 (the bits).
 *   The 64-bit seed is truncated to its low 32 bits.
 * - ::GCOL_HASH_XXHASH64 (libcudf's XXHash_64 element hash): the same bytes as
 *   ::GCOL_HASH_MURMUR3_32 (native width, BOOL8 one byte 0/1, floats normalized as above)
 *   hashed with gcol_xxhash64(). Output: UINT64.
 * - ::GCOL_HASH_MD5, ::GCOL_HASH_SHA256: the digest of the concatenation of the row's
 *   non-null elements' bytes (the bytes of ::GCOL_HASH_MURMUR3_32 above: native width
 *   little-endian, BOOL8 one byte 0/1, floats normalized; strings their bytes); the seed is
 *   ignored. A row of only nulls gives the digest of the empty message. Output: STRING of
 *   lowercase hex, 32 (MD5) or 64 (SHA-256) characters a row, no nulls (INT32 offsets below
 *   gcol_large_offsets_threshold() bytes, INT64 above).
 *
 * LIST, STRUCT, DICTIONARY32 and EMPTY columns give ::GCOL_ERROR_UNSUPPORTED.
 */
#ifndef GCOL_HASHING_H
#define GCOL_HASHING_H

/** @addtogroup gcol_partitioning
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief A row hash function of gcol_hash() (semantics in the file documentation). */
typedef enum gcol_hash_function {
  GCOL_HASH_MURMUR3_32 = 0,       /**< MurmurHash3_x86_32, UINT32 output. */
  GCOL_HASH_MURMUR3_32_SPARK = 1, /**< Spark's Murmur3Hash, INT32 output. */
  GCOL_HASH_XXHASH64 = 2,         /**< XXH64, UINT64 output. */
  GCOL_HASH_MD5 = 3,              /**< MD5, STRING output (32 hex characters). */
  GCOL_HASH_SHA256 = 4            /**< SHA-256, STRING output (64 hex characters). */
} gcol_hash_function;

/**
 * @brief Hashes every row of @p input over all its columns.
 * @param[in] input The table (at least one column; every column of a supported type).
 * @param[in] fn The hash function.
 * @param[in] seed The seed (low 32 bits for the murmur3 variants; ignored by MD5 and
 *                 SHA-256).
 * @param[out] out A new column of `input.num_rows` rows without nulls: UINT32 (murmur3),
 *                 INT32 (Spark), UINT64 (XXH64), or STRING (MD5, SHA-256); NULL on failure.
 * @param[in] stream The stream of the work.
 * @param[in] mr The resource of the output, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out, no columns, unknown
 *         @p fn, malformed view), ::GCOL_ERROR_SIZE_MISMATCH (columns of different sizes),
 *         ::GCOL_ERROR_UNSUPPORTED (LIST, STRUCT, DICTIONARY32 or EMPTY column),
 *         ::GCOL_ERROR_OVERFLOW (MD5/SHA-256 output too large), ::GCOL_ERROR_OUT_OF_MEMORY,
 *         a CUDA status.
 * @note Asynchronous on @p stream. The caller owns @p out (gcol_column_free()).
 */
gcol_status gcol_hash(gcol_table_view input, gcol_hash_function fn, uint64_t seed,
                      gcol_column **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_HASHING_H */
