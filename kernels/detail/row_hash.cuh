/*
 * Published row hashes (include/gcol/hashing.h): MurmurHash3_x86_32 (libcudf's element
 * hash), Spark's Murmur3Hash and XXH64, chained over the columns of a row, nulls skipped.
 * Used by gcol_hash (kernels/hashing) and gcol_hash_partition (kernels/partitioning).
 *
 * Hash columns are flat descriptors in device memory made by gcol_detail_hash_columns_make().
 * The canonical bytes of an element (gcol_detail_hash_element_bytes) are what MURMUR3_32,
 * XXHASH64, MD5 and SHA-256 hash: the storage bytes little-endian, BOOL8 as one byte 0/1,
 * floats with -0.0 as +0.0 and every NaN as the canonical quiet NaN.
 */
#ifndef GCOL_KERNELS_DETAIL_ROW_HASH_CUH
#define GCOL_KERNELS_DETAIL_ROW_HASH_CUH

#include "common.cuh"
#include "gcol/bits.h"
#include "gcol/hash.h"
#include "gcol/string_view.h"
#include "gcol/table.h"

/* One column to hash, flattened for kernels. */
typedef struct gcol_detail_hash_column {
  int32_t id;                /* gcol_type_id */
  int32_t width;             /* bytes per value (fixed-width); 0 for STRING */
  const void *data;          /* fixed-width: row 0 (offset applied) */
  const uint32_t *null_mask; /* or NULL */
  int64_t mask_offset;       /* bit of row 0 */
  gcol_strings_view strings; /* STRING only */
} gcol_detail_hash_column;

/*
 * Checks that @p keys (NULL: every column of @p input, @p num_keys ignored) index columns of
 * @p input of hashable types (fixed-width or STRING; else GCOL_ERROR_UNSUPPORTED) and copies
 * their descriptors to a new temporary device buffer (default resource). *out_count receives
 * the number of descriptors.
 */
extern "C" gcol_status gcol_detail_hash_columns_make(gcol_table_view input, const int32_t *keys,
                                                     int32_t num_keys, gcol_stream stream,
                                                     gcol_buffer **out, int32_t *out_count);

static __device__ __forceinline__ bool gcol_detail_hash_valid(const gcol_detail_hash_column *c,
                                                              int64_t row) {
  return gcol_bit_is_set_or_null_mask(c->null_mask, c->mask_offset + row);
}

/* Canonical bytes of fixed-width element @p row into @p buf (16 bytes); returns the length. */
static __device__ __forceinline__ int gcol_detail_hash_element_bytes(
    const gcol_detail_hash_column *c, int64_t row, unsigned char *buf) {
  int const w = c->width;
  const unsigned char *p = (const unsigned char *)c->data + row * (int64_t)w;
  if (c->id == GCOL_BOOL8) {
    buf[0] = p[0] != 0 ? 1 : 0;
    return 1;
  }
  if (c->id == GCOL_FLOAT32) {
    float const v = *(const float *)p;
    uint32_t bits = gcol_float_bits(v);
    if (v != v) bits = 0x7FC00000u;
    if (v == 0.0f) bits = 0u;
    memcpy(buf, &bits, 4);
    return 4;
  }
  if (c->id == GCOL_FLOAT64) {
    double const v = *(const double *)p;
    uint64_t bits = gcol_double_bits(v);
    if (v != v) bits = 0x7FF8000000000000ull;
    if (v == 0.0) bits = 0u;
    memcpy(buf, &bits, 8);
    return 8;
  }
  switch (w) {
    case 1:
      buf[0] = p[0];
      break;
    case 2: {
      uint16_t const v = *(const uint16_t *)p;
      memcpy(buf, &v, 2);
      break;
    }
    case 4: {
      uint32_t const v = *(const uint32_t *)p;
      memcpy(buf, &v, 4);
      break;
    }
    case 8: {
      uint64_t const v = *(const uint64_t *)p;
      memcpy(buf, &v, 8);
      break;
    }
    default: {
      uint64_t const lo = ((const uint64_t *)p)[0], hi = ((const uint64_t *)p)[1];
      memcpy(buf, &lo, 8);
      memcpy(buf + 8, &hi, 8);
      break;
    }
  }
  return w;
}

/* Spark's Murmur3_x86_32.hashUnsafeBytes: 4-byte blocks, then each tail byte sign-extended
 * and mixed as a block of its own; the length mixed in at the end. */
static __host__ __device__ __forceinline__ uint32_t
gcol_detail_spark_hash_bytes(const unsigned char *p, int64_t len, uint32_t seed) {
  int64_t const aligned = len - (len & 3);
  uint32_t h = seed;
  for (int64_t i = 0; i < len; ++i) {
    uint32_t k;
    if (i < aligned) {
      k = gcol_detail_load_le32(p + i);
      i += 3;
    } else {
      k = (uint32_t)(int32_t)(signed char)p[i];
    }
    h ^= gcol_detail_murmur3_scramble(k);
    h = gcol_detail_rotl32(h, 13);
    h = h * 5u + 0xE6546B64u;
  }
  h ^= (uint32_t)len;
  return gcol_detail_murmur3_fmix32(h);
}

/* MurmurHash3_x86_32 of a 4- or 8-byte little-endian value held in registers: what
 * gcol_murmur3_32 computes over its bytes, without the byte buffer and loops. */
static __device__ __forceinline__ uint32_t gcol_detail_murmur3_block(uint32_t h, uint32_t k) {
  h ^= gcol_detail_murmur3_scramble(k);
  h = gcol_detail_rotl32(h, 13);
  return h * 5u + 0xE6546B64u;
}
static __device__ __forceinline__ uint32_t gcol_detail_murmur3_u32(uint32_t v, uint32_t seed) {
  return gcol_detail_murmur3_fmix32(gcol_detail_murmur3_block(seed, v) ^ 4u);
}
static __device__ __forceinline__ uint32_t gcol_detail_murmur3_u64(uint64_t v, uint32_t seed) {
  uint32_t const h = gcol_detail_murmur3_block(gcol_detail_murmur3_block(seed, (uint32_t)v),
                                               (uint32_t)(v >> 32));
  return gcol_detail_murmur3_fmix32(h ^ 8u);
}

/* Spark's hashInt and hashLong (equal to MurmurHash3_x86_32 of the little-endian bytes). */
static __device__ __forceinline__ uint32_t gcol_detail_spark_hash_int(uint32_t v, uint32_t seed) {
  return gcol_detail_murmur3_u32(v, seed);
}
static __device__ __forceinline__ uint32_t gcol_detail_spark_hash_long(uint64_t v, uint32_t seed) {
  return gcol_detail_murmur3_u64(v, seed);
}

/* Spark's hash of DECIMAL128 (BigInteger.toByteArray of the unscaled value, big-endian). */
static __device__ __forceinline__ uint32_t
gcol_detail_spark_hash_decimal128(const unsigned char *le, uint32_t seed) {
  bool const negative = (le[15] & 0x80u) != 0;
  unsigned char const fill = negative ? 0xFFu : 0x00u;
  int len = 16;
  while (len > 1 && le[len - 1] == fill) --len;
  if (len < 16 && (((le[len - 1] & 0x80u) != 0) != negative)) ++len; /* keep the sign bit */
  unsigned char be[16];
  for (int i = 0; i < len; ++i) be[i] = le[len - 1 - i];
  return gcol_detail_spark_hash_bytes(be, len, seed);
}

/* Spark Murmur3Hash of a valid element with seed @p h. */
static __device__ __forceinline__ uint32_t
gcol_detail_spark_element_hash(const gcol_detail_hash_column *c, int64_t row, uint32_t h) {
  if (c->id == GCOL_STRING) {
    gcol_string_ref const s = gcol_strings_view_get(c->strings, row);
    return gcol_detail_spark_hash_bytes((const unsigned char *)s.data, s.size, h);
  }
  const void *p = (const char *)c->data + row * (int64_t)c->width;
  switch (c->id) {
    case GCOL_INT8:
      return gcol_detail_spark_hash_int((uint32_t)(int32_t) * (const int8_t *)p, h);
    case GCOL_INT16:
      return gcol_detail_spark_hash_int((uint32_t)(int32_t) * (const int16_t *)p, h);
    case GCOL_UINT8:
      return gcol_detail_spark_hash_int(*(const uint8_t *)p, h);
    case GCOL_UINT16:
      return gcol_detail_spark_hash_int(*(const uint16_t *)p, h);
    case GCOL_BOOL8:
      return gcol_detail_spark_hash_int(*(const uint8_t *)p != 0 ? 1u : 0u, h);
    case GCOL_INT32:
    case GCOL_TIMESTAMP_DAYS:
    case GCOL_DURATION_DAYS:
      return gcol_detail_spark_hash_int(*(const uint32_t *)p, h);
    case GCOL_UINT32:
      return gcol_detail_spark_hash_long(*(const uint32_t *)p, h);
    case GCOL_DECIMAL32:
      return gcol_detail_spark_hash_long((uint64_t)(int64_t) * (const int32_t *)p, h);
    case GCOL_FLOAT32: {
      float const v = *(const float *)p;
      uint32_t bits = gcol_float_bits(v);
      if (v != v) bits = 0x7FC00000u;
      if (v == 0.0f) bits = 0u;
      return gcol_detail_spark_hash_int(bits, h);
    }
    case GCOL_FLOAT64: {
      double const v = *(const double *)p;
      uint64_t bits = gcol_double_bits(v);
      if (v != v) bits = 0x7FF8000000000000ull;
      if (v == 0.0) bits = 0u;
      return gcol_detail_spark_hash_long(bits, h);
    }
    case GCOL_DECIMAL128:
      return gcol_detail_spark_hash_decimal128((const unsigned char *)p, h);
    default:
      return gcol_detail_spark_hash_long(*(const uint64_t *)p, h); /* 8-byte types */
  }
}

/* Row hash of MURMUR3_32 (spark false) or MURMUR3_32_SPARK (spark true). */
static __device__ __forceinline__ uint32_t gcol_detail_row_hash_murmur3(
    const gcol_detail_hash_column *cols, int32_t num_cols, int64_t row, uint32_t seed, bool spark) {
  uint32_t h = seed;
  for (int32_t k = 0; k < num_cols; ++k) {
    const gcol_detail_hash_column *c = &cols[k];
    if (!gcol_detail_hash_valid(c, row)) continue;
    if (spark) {
      h = gcol_detail_spark_element_hash(c, row, h);
    } else if (c->id == GCOL_STRING) {
      gcol_string_ref const s = gcol_strings_view_get(c->strings, row);
      h = gcol_murmur3_32(s.data, s.size, h);
    } else if (c->width == 8 && c->id != GCOL_FLOAT64) { /* canonical bytes: the value's */
      h = gcol_detail_murmur3_u64(((const uint64_t *)c->data)[row], h);
    } else if (c->width == 4 && c->id != GCOL_FLOAT32) {
      h = gcol_detail_murmur3_u32(((const uint32_t *)c->data)[row], h);
    } else {
      unsigned char buf[16];
      int const len = gcol_detail_hash_element_bytes(c, row, buf);
      h = gcol_murmur3_32(buf, len, h);
    }
  }
  return h;
}

/* Row hash of XXHASH64. */
static __device__ __forceinline__ uint64_t gcol_detail_row_hash_xxhash64(
    const gcol_detail_hash_column *cols, int32_t num_cols, int64_t row, uint64_t seed) {
  uint64_t h = seed;
  for (int32_t k = 0; k < num_cols; ++k) {
    const gcol_detail_hash_column *c = &cols[k];
    if (!gcol_detail_hash_valid(c, row)) continue;
    if (c->id == GCOL_STRING) {
      gcol_string_ref const s = gcol_strings_view_get(c->strings, row);
      h = gcol_xxhash64(s.data, s.size, h);
    } else {
      unsigned char buf[16];
      int const len = gcol_detail_hash_element_bytes(c, row, buf);
      h = gcol_xxhash64(buf, len, h);
    }
  }
  return h;
}

#endif /* GCOL_KERNELS_DETAIL_ROW_HASH_CUH */
