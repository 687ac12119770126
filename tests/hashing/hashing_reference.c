/* Host reference of the row hashes (hashing_reference.h). */
#include <math.h>

#include "hashing_reference.h"

#include "hashing/digest.h"

static uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

static uint32_t mix_k1(uint32_t k1) {
  k1 *= 0xCC9E2D51u;
  k1 = rotl(k1, 15);
  return k1 * 0x1B873593u;
}

static uint32_t mix_h1(uint32_t h1, uint32_t k1) {
  h1 ^= k1;
  h1 = rotl(h1, 13);
  return h1 * 5u + 0xE6546B64u;
}

static uint32_t fmix(uint32_t h1, uint32_t length) {
  h1 ^= length;
  h1 ^= h1 >> 16;
  h1 *= 0x85EBCA6Bu;
  h1 ^= h1 >> 13;
  h1 *= 0xC2B2AE35u;
  h1 ^= h1 >> 16;
  return h1;
}

uint32_t ref_spark_hash_int(int32_t value, uint32_t seed) {
  return fmix(mix_h1(seed, mix_k1((uint32_t)value)), 4);
}

uint32_t ref_spark_hash_long(int64_t value, uint32_t seed) {
  uint32_t const low = (uint32_t)(uint64_t)value;
  uint32_t const high = (uint32_t)((uint64_t)value >> 32);
  uint32_t h1 = mix_h1(seed, mix_k1(low));
  h1 = mix_h1(h1, mix_k1(high));
  return fmix(h1, 8);
}

uint32_t ref_spark_hash_unsafe_bytes(const unsigned char *bytes, int64_t len, uint32_t seed) {
  int64_t const aligned = len - len % 4;
  uint32_t h1 = seed;
  for (int64_t i = 0; i < aligned; i += 4) {
    uint32_t const word = (uint32_t)bytes[i] | (uint32_t)bytes[i + 1] << 8 |
                          (uint32_t)bytes[i + 2] << 16 | (uint32_t)bytes[i + 3] << 24;
    h1 = mix_h1(h1, mix_k1(word));
  }
  for (int64_t i = aligned; i < len; ++i) {
    int32_t const half_word = (int8_t)bytes[i]; /* Java's byte is signed */
    h1 = mix_h1(h1, mix_k1((uint32_t)half_word));
  }
  return fmix(h1, (uint32_t)len);
}

int ref_java_big_integer_bytes(uint64_t lo, int64_t hi, unsigned char out[16]) {
  /* bitLength() excludes the sign bit: bits of v for v >= 0, of ~v for v < 0. */
  uint64_t mlo = lo, mhi = (uint64_t)hi;
  if (hi < 0) {
    mlo = ~mlo;
    mhi = ~mhi;
  }
  int bit_length = 0;
  for (int b = 127; b >= 0; --b) {
    uint64_t const word = b >= 64 ? mhi : mlo;
    if ((word >> (b & 63)) & 1u) {
      bit_length = b + 1;
      break;
    }
  }
  int len = bit_length / 8 + 1;
  if (len > 16) len = 16; /* bit_length <= 127: never taken */
  for (int i = 0; i < len; ++i) {
    int const byte = len - 1 - i; /* big-endian: out[0] is the most significant */
    uint64_t const word = byte >= 8 ? (uint64_t)hi : lo;
    out[i] = (unsigned char)(word >> (8 * (byte & 7)));
  }
  return len;
}

/* The canonical bytes of MURMUR3_32 / XXHASH64 of a fixed-width element. */
static int canonical_bytes(const ref_column *c, int64_t row, unsigned char *buf) {
  const uint8_t *p = c->values + (size_t)row * c->width;
  gcol_type_id const id = c->type.id;
  if (id == GCOL_BOOL8) {
    buf[0] = p[0] != 0;
    return 1;
  }
  if (id == GCOL_FLOAT32) {
    float v;
    memcpy(&v, p, 4);
    uint32_t bits;
    memcpy(&bits, &v, 4);
    if (isnan(v)) bits = 0x7FC00000u;
    if (v == 0.0f) bits = 0;
    memcpy(buf, &bits, 4);
    return 4;
  }
  if (id == GCOL_FLOAT64) {
    double v;
    memcpy(&v, p, 8);
    uint64_t bits;
    memcpy(&bits, &v, 8);
    if (isnan(v)) bits = 0x7FF8000000000000ull;
    if (v == 0.0) bits = 0;
    memcpy(buf, &bits, 8);
    return 8;
  }
  memcpy(buf, p, c->width); /* little-endian host */
  return (int)c->width;
}

static uint32_t spark_element(const ref_column *c, int64_t row, uint32_t h) {
  gcol_type_id const id = c->type.id;
  if (id == GCOL_STRING) {
    return ref_spark_hash_unsafe_bytes((const unsigned char *)c->strs[row], c->lens[row], h);
  }
  const uint8_t *p = c->values + (size_t)row * c->width;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  float f;
  double d;
  switch (id) {
    case GCOL_INT8:
      memcpy(&i8, p, 1);
      return ref_spark_hash_int(i8, h);
    case GCOL_INT16:
      memcpy(&i16, p, 2);
      return ref_spark_hash_int(i16, h);
    case GCOL_UINT8:
      memcpy(&u8, p, 1);
      return ref_spark_hash_int((int32_t)u8, h);
    case GCOL_UINT16:
      memcpy(&u16, p, 2);
      return ref_spark_hash_int((int32_t)u16, h);
    case GCOL_BOOL8:
      return ref_spark_hash_int(p[0] != 0 ? 1 : 0, h);
    case GCOL_INT32:
    case GCOL_TIMESTAMP_DAYS:
    case GCOL_DURATION_DAYS:
      memcpy(&i32, p, 4);
      return ref_spark_hash_int(i32, h);
    case GCOL_DECIMAL32:
      memcpy(&i32, p, 4);
      return ref_spark_hash_long((int64_t)i32, h);
    case GCOL_UINT32:
      memcpy(&u32, p, 4);
      return ref_spark_hash_long((int64_t)u32, h);
    case GCOL_UINT64:
      memcpy(&u64, p, 8);
      return ref_spark_hash_long((int64_t)u64, h);
    case GCOL_FLOAT32:
      memcpy(&f, p, 4);
      if (f == 0.0f) return ref_spark_hash_int(0, h);         /* Spark: f == -0.0f */
      if (isnan(f)) return ref_spark_hash_int(0x7FC00000, h); /* floatToIntBits */
      memcpy(&i32, &f, 4);
      return ref_spark_hash_int(i32, h);
    case GCOL_FLOAT64:
      memcpy(&d, p, 8);
      if (d == 0.0) return ref_spark_hash_long(0, h);
      if (isnan(d)) return ref_spark_hash_long(0x7FF8000000000000ll, h);
      memcpy(&i64, &d, 8);
      return ref_spark_hash_long(i64, h);
    case GCOL_DECIMAL128: {
      uint64_t lo;
      int64_t hi;
      unsigned char be[16];
      memcpy(&lo, p, 8);
      memcpy(&hi, p + 8, 8);
      int const len = ref_java_big_integer_bytes(lo, hi, be);
      return ref_spark_hash_unsafe_bytes(be, len, h);
    }
    default: /* INT64, 8-byte timestamps and durations, DECIMAL64 */
      memcpy(&i64, p, 8);
      return ref_spark_hash_long(i64, h);
  }
}

uint64_t ref_row_hash(const ref_column *const *cols, int32_t num_cols, int64_t row,
                      gcol_hash_function fn, uint64_t seed) {
  uint64_t h = fn == GCOL_HASH_XXHASH64 ? seed : (uint32_t)seed;
  for (int32_t k = 0; k < num_cols; ++k) {
    const ref_column *c = cols[k];
    if (!c->valid[row]) continue;
    unsigned char buf[16];
    const void *bytes = buf;
    int64_t len;
    if (fn == GCOL_HASH_MURMUR3_32_SPARK) {
      h = spark_element(c, row, (uint32_t)h);
      continue;
    }
    if (c->type.id == GCOL_STRING) {
      bytes = c->strs[row];
      len = c->lens[row];
    } else {
      len = canonical_bytes(c, row, buf);
    }
    h = fn == GCOL_HASH_XXHASH64 ? gcol_xxhash64(bytes, len, h)
                                 : gcol_murmur3_32(bytes, len, (uint32_t)h);
  }
  return h;
}

void ref_row_digest(const ref_column *const *cols, int32_t num_cols, int64_t row,
                    gcol_hash_function fn, char *hex) {
  gcol_detail_md5 md5;
  gcol_detail_sha256 sha;
  bool const is_sha = fn == GCOL_HASH_SHA256;
  gcol_detail_md5_init(&md5);
  gcol_detail_sha256_init(&sha);
  for (int32_t k = 0; k < num_cols; ++k) {
    const ref_column *c = cols[k];
    if (!c->valid[row]) continue;
    unsigned char buf[16];
    const unsigned char *bytes = buf;
    int64_t len;
    if (c->type.id == GCOL_STRING) {
      bytes = (const unsigned char *)c->strs[row];
      len = c->lens[row];
    } else {
      len = canonical_bytes(c, row, buf);
    }
    if (is_sha) {
      gcol_detail_sha256_update(&sha, bytes, len);
    } else {
      gcol_detail_md5_update(&md5, bytes, len);
    }
  }
  unsigned char digest[32];
  if (is_sha) {
    gcol_detail_sha256_final(&sha, digest);
  } else {
    gcol_detail_md5_final(&md5, digest);
  }
  gcol_detail_digest_hex(digest, is_sha ? 32 : 16, hex);
  hex[is_sha ? 64 : 32] = '\0';
}
