/*
 * Host reference of the row hashes of include/gcol/hashing.h, in plain C and written apart
 * from the device code: libcudf's MurmurHash3_x86_32 and XXH64 element hashes (over the
 * vector-tested gcol_murmur3_32 / gcol_xxhash64 of gcol/hash.h), and Spark's Murmur3Hash
 * re-implemented from Spark's Java rules (Murmur3_x86_32.hashInt / hashLong /
 * hashUnsafeBytes, BigInteger.toByteArray for DECIMAL128). Rows chain the running hash
 * through the non-null elements, left to right.
 */
#ifndef GCOL_TESTS_HASHING_REFERENCE_H
#define GCOL_TESTS_HASHING_REFERENCE_H

#include "../filtering/filtering_reference.h"
#include "gcol/hash.h"
#include "gcol/hashing.h"

/* Spark's Murmur3_x86_32 (Java int arithmetic). */
uint32_t ref_spark_hash_int(int32_t value, uint32_t seed);
uint32_t ref_spark_hash_long(int64_t value, uint32_t seed);
uint32_t ref_spark_hash_unsafe_bytes(const unsigned char *bytes, int64_t len, uint32_t seed);
/* Java's BigInteger.toByteArray() of a 128-bit two's-complement value; returns the length. */
int ref_java_big_integer_bytes(uint64_t lo, int64_t hi, unsigned char out[16]);

/* Hash of row `row` of the host columns (only valid elements are hashed). For MURMUR3_32 and
 * the Spark variant the result is the 32-bit value zero-extended. */
uint64_t ref_row_hash(const ref_column *const *cols, int32_t num_cols, int64_t row,
                      gcol_hash_function fn, uint64_t seed);

/* MD5 / SHA-256 of row `row` (valid elements' canonical bytes concatenated) as lowercase
 * hex into `hex` (32 or 64 chars plus a terminator). */
void ref_row_digest(const ref_column *const *cols, int32_t num_cols, int64_t row,
                    gcol_hash_function fn, char *hex);

#endif /* GCOL_TESTS_HASHING_REFERENCE_H */
