/*
 * MD5 (RFC 1321) and SHA-256 (FIPS 180-4) for host and device code: streaming contexts
 * (init, update with any number of bytes, final) over one row's bytes, one thread a row.
 * Host tests (tests/hashing/test_hashing_host.c) check them against the published vectors.
 */
#ifndef GCOL_KERNELS_HASHING_DIGEST_H
#define GCOL_KERNELS_HASHING_DIGEST_H

#include <stdint.h>

#include "gcol/config.h"

GCOL_EXTERN_C_BEGIN

typedef struct gcol_detail_md5 {
  uint32_t state[4];
  uint64_t length; /* bytes so far */
  unsigned char block[64];
} gcol_detail_md5;

typedef struct gcol_detail_sha256 {
  uint32_t state[8];
  uint64_t length;
  unsigned char block[64];
} gcol_detail_sha256;

GCOL_HD_INLINE uint32_t gcol_detail_digest_rotl(uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}

GCOL_HD_INLINE uint32_t gcol_detail_digest_rotr(uint32_t x, int r) {
  return (x >> r) | (x << (32 - r));
}

GCOL_HD_INLINE void gcol_detail_md5_init(gcol_detail_md5 *c) {
  c->state[0] = 0x67452301u;
  c->state[1] = 0xEFCDAB89u;
  c->state[2] = 0x98BADCFEu;
  c->state[3] = 0x10325476u;
  c->length = 0;
}

GCOL_HD_INLINE void gcol_detail_md5_block(gcol_detail_md5 *c) {
  const uint32_t k[64] = {
      0xD76AA478u, 0xE8C7B756u, 0x242070DBu, 0xC1BDCEEEu, 0xF57C0FAFu, 0x4787C62Au, 0xA8304613u,
      0xFD469501u, 0x698098D8u, 0x8B44F7AFu, 0xFFFF5BB1u, 0x895CD7BEu, 0x6B901122u, 0xFD987193u,
      0xA679438Eu, 0x49B40821u, 0xF61E2562u, 0xC040B340u, 0x265E5A51u, 0xE9B6C7AAu, 0xD62F105Du,
      0x02441453u, 0xD8A1E681u, 0xE7D3FBC8u, 0x21E1CDE6u, 0xC33707D6u, 0xF4D50D87u, 0x455A14EDu,
      0xA9E3E905u, 0xFCEFA3F8u, 0x676F02D9u, 0x8D2A4C8Au, 0xFFFA3942u, 0x8771F681u, 0x6D9D6122u,
      0xFDE5380Cu, 0xA4BEEA44u, 0x4BDECFA9u, 0xF6BB4B60u, 0xBEBFBC70u, 0x289B7EC6u, 0xEAA127FAu,
      0xD4EF3085u, 0x04881D05u, 0xD9D4D039u, 0xE6DB99E5u, 0x1FA27CF8u, 0xC4AC5665u, 0xF4292244u,
      0x432AFF97u, 0xAB9423A7u, 0xFC93A039u, 0x655B59C3u, 0x8F0CCC92u, 0xFFEFF47Du, 0x85845DD1u,
      0x6FA87E4Fu, 0xFE2CE6E0u, 0xA3014314u, 0x4E0811A1u, 0xF7537E82u, 0xBD3AF235u, 0x2AD7D2BBu,
      0xEB86D391u};
  const int r[16] = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};
  uint32_t m[16];
  for (int i = 0; i < 16; ++i) {
    m[i] = (uint32_t)c->block[4 * i] | (uint32_t)c->block[4 * i + 1] << 8 |
           (uint32_t)c->block[4 * i + 2] << 16 | (uint32_t)c->block[4 * i + 3] << 24;
  }
  uint32_t a = c->state[0], b = c->state[1], cc = c->state[2], d = c->state[3];
  for (int i = 0; i < 64; ++i) {
    uint32_t f;
    int g;
    if (i < 16) {
      f = (b & cc) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & cc);
      g = (5 * i + 1) & 15;
    } else if (i < 48) {
      f = b ^ cc ^ d;
      g = (3 * i + 5) & 15;
    } else {
      f = cc ^ (b | ~d);
      g = (7 * i) & 15;
    }
    uint32_t const t = d;
    d = cc;
    cc = b;
    b = b + gcol_detail_digest_rotl(a + f + k[i] + m[g], r[(i >> 4) * 4 + (i & 3)]);
    a = t;
  }
  c->state[0] += a;
  c->state[1] += b;
  c->state[2] += cc;
  c->state[3] += d;
}

GCOL_HD_INLINE void gcol_detail_md5_update(gcol_detail_md5 *c, const unsigned char *p, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    c->block[c->length & 63] = p[i];
    ++c->length;
    if ((c->length & 63) == 0) gcol_detail_md5_block(c);
  }
}

GCOL_HD_INLINE void gcol_detail_md5_final(gcol_detail_md5 *c, unsigned char out[16]) {
  uint64_t const bits = c->length * 8u;
  unsigned char const one = 0x80, zero = 0;
  gcol_detail_md5_update(c, &one, 1);
  while ((c->length & 63) != 56) gcol_detail_md5_update(c, &zero, 1);
  unsigned char len[8];
  for (int i = 0; i < 8; ++i) len[i] = (unsigned char)(bits >> (8 * i)); /* little-endian */
  gcol_detail_md5_update(c, len, 8);
  for (int i = 0; i < 16; ++i) out[i] = (unsigned char)(c->state[i / 4] >> (8 * (i % 4)));
}

GCOL_HD_INLINE void gcol_detail_sha256_init(gcol_detail_sha256 *c) {
  const uint32_t h[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                         0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};
  for (int i = 0; i < 8; ++i) c->state[i] = h[i];
  c->length = 0;
}

GCOL_HD_INLINE void gcol_detail_sha256_block(gcol_detail_sha256 *c) {
  const uint32_t k[64] = {
      0x428A2F98u, 0x71374491u, 0xB5C0FBCFu, 0xE9B5DBA5u, 0x3956C25Bu, 0x59F111F1u, 0x923F82A4u,
      0xAB1C5ED5u, 0xD807AA98u, 0x12835B01u, 0x243185BEu, 0x550C7DC3u, 0x72BE5D74u, 0x80DEB1FEu,
      0x9BDC06A7u, 0xC19BF174u, 0xE49B69C1u, 0xEFBE4786u, 0x0FC19DC6u, 0x240CA1CCu, 0x2DE92C6Fu,
      0x4A7484AAu, 0x5CB0A9DCu, 0x76F988DAu, 0x983E5152u, 0xA831C66Du, 0xB00327C8u, 0xBF597FC7u,
      0xC6E00BF3u, 0xD5A79147u, 0x06CA6351u, 0x14292967u, 0x27B70A85u, 0x2E1B2138u, 0x4D2C6DFCu,
      0x53380D13u, 0x650A7354u, 0x766A0ABBu, 0x81C2C92Eu, 0x92722C85u, 0xA2BFE8A1u, 0xA81A664Bu,
      0xC24B8B70u, 0xC76C51A3u, 0xD192E819u, 0xD6990624u, 0xF40E3585u, 0x106AA070u, 0x19A4C116u,
      0x1E376C08u, 0x2748774Cu, 0x34B0BCB5u, 0x391C0CB3u, 0x4ED8AA4Au, 0x5B9CCA4Fu, 0x682E6FF3u,
      0x748F82EEu, 0x78A5636Fu, 0x84C87814u, 0x8CC70208u, 0x90BEFFFAu, 0xA4506CEBu, 0xBEF9A3F7u,
      0xC67178F2u};
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = (uint32_t)c->block[4 * i] << 24 | (uint32_t)c->block[4 * i + 1] << 16 |
           (uint32_t)c->block[4 * i + 2] << 8 | (uint32_t)c->block[4 * i + 3];
  }
  for (int i = 16; i < 64; ++i) {
    uint32_t const s0 = gcol_detail_digest_rotr(w[i - 15], 7) ^
                        gcol_detail_digest_rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t const s1 = gcol_detail_digest_rotr(w[i - 2], 17) ^
                        gcol_detail_digest_rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = c->state[i];
  for (int i = 0; i < 64; ++i) {
    uint32_t const s1 = gcol_detail_digest_rotr(v[4], 6) ^ gcol_detail_digest_rotr(v[4], 11) ^
                        gcol_detail_digest_rotr(v[4], 25);
    uint32_t const ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
    uint32_t const t1 = v[7] + s1 + ch + k[i] + w[i];
    uint32_t const s0 = gcol_detail_digest_rotr(v[0], 2) ^ gcol_detail_digest_rotr(v[0], 13) ^
                        gcol_detail_digest_rotr(v[0], 22);
    uint32_t const maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
    uint32_t const t2 = s0 + maj;
    v[7] = v[6];
    v[6] = v[5];
    v[5] = v[4];
    v[4] = v[3] + t1;
    v[3] = v[2];
    v[2] = v[1];
    v[1] = v[0];
    v[0] = t1 + t2;
  }
  for (int i = 0; i < 8; ++i) c->state[i] += v[i];
}

GCOL_HD_INLINE void gcol_detail_sha256_update(gcol_detail_sha256 *c, const unsigned char *p,
                                              int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    c->block[c->length & 63] = p[i];
    ++c->length;
    if ((c->length & 63) == 0) gcol_detail_sha256_block(c);
  }
}

GCOL_HD_INLINE void gcol_detail_sha256_final(gcol_detail_sha256 *c, unsigned char out[32]) {
  uint64_t const bits = c->length * 8u;
  unsigned char const one = 0x80, zero = 0;
  gcol_detail_sha256_update(c, &one, 1);
  while ((c->length & 63) != 56) gcol_detail_sha256_update(c, &zero, 1);
  unsigned char len[8];
  for (int i = 0; i < 8; ++i) len[i] = (unsigned char)(bits >> (56 - 8 * i)); /* big-endian */
  gcol_detail_sha256_update(c, len, 8);
  for (int i = 0; i < 32; ++i) out[i] = (unsigned char)(c->state[i / 4] >> (24 - 8 * (i % 4)));
}

/* Lowercase hex of n bytes into 2n chars (no terminator). */
GCOL_HD_INLINE void gcol_detail_digest_hex(const unsigned char *bytes, int n, char *out) {
  const char digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                           '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  for (int i = 0; i < n; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_HASHING_DIGEST_H */
