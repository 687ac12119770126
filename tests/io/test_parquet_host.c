/*
 * Host tests of Parquet (include/gcol/io/parquet.h, no GPU): the Thrift compact reader and
 * writer round trip and their limits; the footer parser and the metadata API over files
 * written by tests/io/parquet_builder.c (every type, logical types, statistics, key-value
 * pairs) from a buffer, a file and a callback source; the page scan and the page decoders
 * the kernels run, decoded on the CPU and compared with the values written; the bad-input
 * table; and a seeded fuzzer over footers and page headers (GCOL_TEST_SEED replays). nvCOMP
 * (GPU decompression): the loader (the real library's host-only calls where the wheel is
 * unpacked: GCOL_TEST_NVCOMP_LIB, default /tmp/nvc/nvidia/libnvcomp/lib64/libnvcomp.so.5),
 * options.untrusted, and the plans left to it, run by the host codecs and decoded.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gcol/io/parquet.h"
#include "gcol/io/staging.h"
#include "internal/parquet.h"
#include "internal/pq_walk.h"
#include "internal/staging.h"
#include "internal/thrift.h"
#include "parquet_builder.h"
#include "parquet_cases.h"
#include "test_util.h"

/* ------------------------------------------------------------------ Thrift */

static void test_thrift_round_trip(void **state) {
  (void)state;
  gcol_detail_thrift_writer w;
  gcol_detail_thrift_writer_init(&w);
  gcol_detail_thrift_write_struct_begin(&w);
  gcol_detail_thrift_write_i32_field(&w, 1, INT32_MIN);
  gcol_detail_thrift_write_i32_field(&w, 2, INT32_MAX);
  gcol_detail_thrift_write_i64_field(&w, 3, INT64_MIN);
  gcol_detail_thrift_write_i64_field(&w, 20, INT64_MAX); /* delta > 15: long field header */
  gcol_detail_thrift_write_double_field(&w, 21, -1.5e300);
  gcol_detail_thrift_write_binary_field(&w, 22, "a\0b", 3);
  gcol_detail_thrift_write_bool_field(&w, 23, true);
  gcol_detail_thrift_write_bool_field(&w, 24, false);
  gcol_detail_thrift_write_list_field(&w, 25, GCOL_DETAIL_THRIFT_I32, 40); /* long list form */
  for (int i = 0; i < 40; ++i) gcol_detail_thrift_write_i32(&w, i * 1000 - 7);
  gcol_detail_thrift_write_field(&w, 26, GCOL_DETAIL_THRIFT_STRUCT);
  gcol_detail_thrift_write_struct_begin(&w);
  gcol_detail_thrift_write_i32_field(&w, 300, -5); /* an id beyond a byte */
  gcol_detail_thrift_write_struct_end(&w);
  gcol_detail_thrift_write_i32_field(&w, 27, 9); /* delta counted from the outer struct */
  gcol_detail_thrift_write_struct_end(&w);
  assert_false(w.failed);

  /* exact-size copy: a read past it is a bug valgrind or ASan would see */
  uint8_t *copy = (uint8_t *)malloc(w.size);
  memcpy(copy, w.data, w.size);
  gcol_detail_thrift_reader r;
  gcol_detail_thrift_reader_init(&r, copy, w.size);
  assert_true(gcol_detail_thrift_struct_begin(&r));
  int16_t id = 0;
  uint8_t t = 0;
  int seen = 0;
  while (gcol_detail_thrift_field(&r, &id, &t) && t != GCOL_DETAIL_THRIFT_STOP) {
    int32_t i32 = 0;
    int64_t i64 = 0;
    double d = 0;
    const uint8_t *p = NULL;
    int64_t n = 0;
    bool b = false;
    ++seen;
    switch (id) {
      case 1:
        assert_true(gcol_detail_thrift_i32(&r, t, &i32));
        assert_int_equal(i32, INT32_MIN);
        break;
      case 2:
        assert_true(gcol_detail_thrift_i32(&r, t, &i32));
        assert_int_equal(i32, INT32_MAX);
        break;
      case 3:
        assert_true(gcol_detail_thrift_i64(&r, t, &i64));
        assert_true(i64 == INT64_MIN);
        break;
      case 20:
        assert_true(gcol_detail_thrift_i64(&r, t, &i64));
        assert_true(i64 == INT64_MAX);
        break;
      case 21:
        assert_true(gcol_detail_thrift_double(&r, t, &d));
        assert_true(d == -1.5e300);
        break;
      case 22:
        assert_true(gcol_detail_thrift_binary(&r, t, &p, &n));
        assert_int_equal(n, 3);
        assert_memory_equal(p, "a\0b", 3);
        break;
      case 23:
      case 24:
        assert_true(gcol_detail_thrift_bool(&r, t, false, &b));
        assert_int_equal(b, id == 23);
        break;
      case 25: {
        uint8_t et = 0;
        assert_true(gcol_detail_thrift_list(&r, t, &et, &n));
        assert_int_equal(et, GCOL_DETAIL_THRIFT_I32);
        assert_int_equal(n, 40);
        for (int i = 0; i < 40; ++i) {
          assert_true(gcol_detail_thrift_i32(&r, et, &i32));
          assert_int_equal(i32, i * 1000 - 7);
        }
        break;
      }
      case 26: {
        assert_int_equal(t, GCOL_DETAIL_THRIFT_STRUCT);
        assert_true(gcol_detail_thrift_struct_begin(&r));
        int16_t inner = 0;
        uint8_t it = 0;
        assert_true(gcol_detail_thrift_field(&r, &inner, &it));
        assert_int_equal(inner, 300);
        assert_true(gcol_detail_thrift_i32(&r, it, &i32));
        assert_int_equal(i32, -5);
        assert_true(gcol_detail_thrift_field(&r, &inner, &it));
        assert_int_equal(it, GCOL_DETAIL_THRIFT_STOP);
        assert_true(gcol_detail_thrift_struct_end(&r));
        break;
      }
      case 27:
        assert_true(gcol_detail_thrift_i32(&r, t, &i32));
        assert_int_equal(i32, 9);
        break;
      default:
        fail_msg("unexpected field %d", id);
    }
  }
  assert_false(r.failed);
  assert_int_equal(seen, 11);
  assert_int_equal(gcol_detail_thrift_consumed(&r), w.size);

  /* skipping the whole struct consumes exactly its bytes */
  gcol_detail_thrift_reader_init(&r, copy, w.size);
  assert_true(gcol_detail_thrift_skip(&r, GCOL_DETAIL_THRIFT_STRUCT));
  assert_int_equal(gcol_detail_thrift_consumed(&r), w.size);

  /* every truncation fails cleanly */
  for (size_t cut = 0; cut < w.size; ++cut) {
    uint8_t *part = (uint8_t *)malloc(cut > 0 ? cut : 1);
    memcpy(part, w.data, cut);
    gcol_detail_thrift_reader_init(&r, part, cut);
    assert_false(gcol_detail_thrift_skip(&r, GCOL_DETAIL_THRIFT_STRUCT));
    assert_true(r.failed);
    assert_true(strlen(r.error) > 0);
    free(part);
  }
  free(copy);
  gcol_detail_thrift_writer_free(&w);
}

static void test_thrift_limits(void **state) {
  (void)state;
  gcol_detail_thrift_reader r;
  /* 200 nested structs: refused at the depth limit, not a stack overflow */
  uint8_t deep[401];
  for (int i = 0; i < 200; ++i) deep[i] = 0x1c; /* field 1, STRUCT */
  memset(deep + 200, 0, 201);
  gcol_detail_thrift_reader_init(&r, deep, sizeof deep);
  assert_false(gcol_detail_thrift_skip(&r, GCOL_DETAIL_THRIFT_STRUCT));
  assert_non_null(strstr(r.error, "deeply"));

  /* a list announcing more elements than bytes remain */
  uint8_t const list[] = {0x19, 0xf5, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};
  gcol_detail_thrift_reader_init(&r, list, sizeof list);
  assert_false(gcol_detail_thrift_skip(&r, GCOL_DETAIL_THRIFT_STRUCT));
  assert_non_null(strstr(r.error, "count"));

  /* a binary longer than the data */
  uint8_t const bin[] = {0x18, 0x7f, 'a', 0x00};
  gcol_detail_thrift_reader_init(&r, bin, sizeof bin);
  assert_false(gcol_detail_thrift_skip(&r, GCOL_DETAIL_THRIFT_STRUCT));
  assert_non_null(strstr(r.error, "binary"));

  /* a varint of 11 bytes */
  uint8_t const var[] = {0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  gcol_detail_thrift_reader_init(&r, var, sizeof var);
  assert_false(gcol_detail_thrift_skip(&r, GCOL_DETAIL_THRIFT_STRUCT));

  /* an i32 field whose value needs 64 bits */
  uint8_t const big[] = {0x15, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00};
  gcol_detail_thrift_reader_init(&r, big, sizeof big);
  assert_false(gcol_detail_thrift_skip(&r, GCOL_DETAIL_THRIFT_STRUCT));
  assert_non_null(strstr(r.error, "range"));

  /* an invalid type nibble */
  uint8_t const bad[] = {0x1d, 0x00};
  gcol_detail_thrift_reader_init(&r, bad, sizeof bad);
  assert_false(gcol_detail_thrift_skip(&r, GCOL_DETAIL_THRIFT_STRUCT));
}

/* ------------------------------------------------------------------ RLE decoder */

static void test_rle_decoder(void **state) {
  (void)state;
  /* the spec's example: bit-packed 0..7 at width 3: header 0x03, bytes 88 C6 FA */
  uint8_t const packed[] = {0x03, 0x88, 0xc6, 0xfa};
  gcol_detail_pq_rle r;
  gcol_detail_pq_rle_init(&r, packed, packed + sizeof packed, 3);
  for (uint32_t i = 0; i < 8; ++i) {
    uint32_t v = 99;
    assert_true(gcol_detail_pq_rle_next(&r, &v));
    assert_int_equal(v, i);
  }
  uint32_t v = 0;
  assert_false(gcol_detail_pq_rle_next(&r, &v));
  /* an RLE run: 5 times 0x1234 at width 13 */
  uint8_t const rle[] = {0x0a, 0x34, 0x12};
  gcol_detail_pq_rle_init(&r, rle, rle + sizeof rle, 13);
  for (int i = 0; i < 5; ++i) {
    assert_true(gcol_detail_pq_rle_next(&r, &v));
    assert_int_equal(v, 0x1234);
  }
  assert_false(gcol_detail_pq_rle_next(&r, &v));
  /* random round trips through the test writer, at every width */
  gcol_test_rng rng = gcol_test_rng_make(41);
  for (int bw = 0; bw <= 32; ++bw) {
    int64_t const n = gcol_test_rng_range(&rng, 1, 3000);
    uint32_t *values = (uint32_t *)malloc((size_t)n * sizeof *values);
    for (int64_t i = 0; i < n; ++i) {
      uint64_t const x = gcol_test_rng_next(&rng);
      uint32_t const mask = bw == 32 ? 0xffffffffu : (uint32_t)((1ull << bw) - 1);
      /* runs and noise */
      values[i] = (x & 3) == 0 && i > 0 ? values[i - 1] : (uint32_t)(x >> 13) & mask;
    }
    uint8_t *enc = NULL;
    int64_t const size = pqb_rle_encode(values, n, bw, &enc);
    gcol_detail_pq_rle_init(&r, enc, enc + size, bw);
    for (int64_t i = 0; i < n; ++i) {
      assert_true(gcol_detail_pq_rle_next(&r, &v));
      if (v != values[i]) fail_msg("width %d value %lld: %u != %u", bw, (long long)i, v, values[i]);
    }
    free(enc);
    free(values);
  }
}

/* pqread: the run-by-run reading the GPU decoders use (gcol_detail_pq_rle_run, then values
 * unpacked by index, as kernels/io/parquet_decode.cu expands a batch) yields exactly the
 * values gcol_detail_pq_rle_next yields, and fails at the same value, on written streams, cut
 * streams and random bytes. */
static int64_t expand_by_runs(const uint8_t *p, int64_t size, int bw, int64_t count,
                              uint32_t *out) {
  int64_t at = 0, covered = 0;
  bool done = false;
  while (covered < count && !done) {
    gcol_detail_pq_run r;
    if (!gcol_detail_pq_rle_run(p, &at, size, bw, &r)) break;
    for (int64_t i = 0; i < r.count && covered + i < count; ++i) {
      out[covered + i] = r.packed ? gcol_detail_pq_unpack(p + r.offset, i, bw) : r.value;
    }
    covered += r.count;
    done = r.last;
  }
  return covered < count ? covered : count;
}

static void check_runs_like_next(const uint8_t *p, int64_t size, int bw, int64_t count) {
  uint32_t *a = (uint32_t *)malloc((size_t)(count > 0 ? count : 1) * sizeof *a);
  uint32_t *b = (uint32_t *)malloc((size_t)(count > 0 ? count : 1) * sizeof *b);
  gcol_detail_pq_rle r;
  gcol_detail_pq_rle_init(&r, p, p + size, bw);
  int64_t got = 0;
  while (got < count && gcol_detail_pq_rle_next(&r, &a[got])) ++got;
  int64_t const runs = expand_by_runs(p, size, bw, count, b);
  if (runs != got)
    fail_msg("width %d: %lld values by runs, %lld by next", bw, (long long)runs, (long long)got);
  for (int64_t i = 0; i < got; ++i) {
    if (a[i] != b[i]) fail_msg("width %d value %lld: %u != %u", bw, (long long)i, b[i], a[i]);
  }
  free(a);
  free(b);
}

static void test_rle_runs(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(43);
  for (int round = 0; round < 200; ++round) {
    int const bw = round % 33;
    int64_t const n = gcol_test_rng_range(&rng, 1, 4000);
    uint32_t *values = (uint32_t *)malloc((size_t)n * sizeof *values);
    uint32_t const mask = bw == 32 ? 0xffffffffu : (uint32_t)((1ull << bw) - 1);
    for (int64_t i = 0; i < n; ++i) {
      uint64_t const x = gcol_test_rng_next(&rng);
      values[i] = (x & 3) != 0 && i > 0 ? values[i - 1] : (uint32_t)(x >> 13) & mask;
    }
    uint8_t *enc = NULL;
    int64_t const size = pqb_rle_encode(values, n, bw, &enc);
    check_runs_like_next(enc, size, bw, n);
    check_runs_like_next(enc, size, bw, n + 20); /* asks past the stream */
    int64_t const cut = gcol_test_rng_range(&rng, 0, size);
    check_runs_like_next(enc, cut, bw, n); /* cut short */
    if (size > 0) {                        /* a flipped byte */
      enc[gcol_test_rng_range(&rng, 0, size - 1)] ^= (uint8_t)(1u << (round % 8));
      check_runs_like_next(enc, size, bw, n);
    }
    free(enc);
    free(values);
    uint8_t noise[64];
    for (size_t i = 0; i < sizeof noise; ++i) noise[i] = (uint8_t)gcol_test_rng_next(&rng);
    check_runs_like_next(noise, (int64_t)sizeof noise, bw, 3000);
  }
}

/* pqread: definition levels decoded as the GPU's page pass does, batch by batch
 * (gcol_detail_pq_runs_fill by one thread, each row found in its batch and unpacked by
 * index, the first failing row winning), agree with gcol_detail_pq_decode_levels: the same
 * valid bytes, slots and count, or the same error. */
static int levels_by_batches(const uint8_t *bytes, gcol_detail_pq_page pg, int32_t max_def,
                             uint8_t *valid, int32_t *slot, int64_t *nvalid) {
  static gcol_detail_pq_runs s;
  int const bw = gcol_detail_pq_bit_width((uint32_t)max_def);
  uint64_t first_error = UINT64_MAX;
  int64_t carry = 0, row0 = 0;
  gcol_detail_pq_runs_begin(&s, pg.def_begin);
  while (row0 < pg.num_rows) {
    gcol_detail_pq_runs_fill(&s, bytes, pg.def_end, bw, pg.num_rows);
    int64_t end = s.first[s.n] < pg.num_rows ? s.first[s.n] : pg.num_rows;
    bool const has_values = end > row0;
    if (!has_values) {
      uint64_t const e = ((uint64_t)row0 << 4) | GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED;
      if (e < first_error) first_error = e;
      end = pg.num_rows;
    }
    for (int64_t i = row0; i < end; ++i) {
      uint8_t v = 0;
      if (has_values) {
        uint32_t const level =
            gcol_detail_pq_runs_value(&s, bytes, bw, gcol_detail_pq_runs_find(&s, i), i);
        uint64_t const e = ((uint64_t)i << 4) | GCOL_DETAIL_PQ_E_LEVEL_RANGE;
        if (level > (uint32_t)max_def && e < first_error) first_error = e;
        v = level == (uint32_t)max_def;
      }
      valid[i] = v;
      slot[i] = (int32_t)carry;
      carry += v;
    }
    row0 = end;
  }
  *nvalid = carry;
  return first_error == UINT64_MAX ? 0 : (int)(first_error & 15);
}

static void test_levels_by_batches(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(44);
  for (int round = 0; round < 300; ++round) {
    int32_t const max_def = 1 + round % 3;
    int64_t const n = gcol_test_rng_range(&rng, 1, 20000);
    uint32_t *levels = (uint32_t *)malloc((size_t)n * sizeof *levels);
    int const mode = round % 4; /* short runs, long runs, noise, out-of-range levels */
    for (int64_t i = 0; i < n; ++i) {
      uint64_t const x = gcol_test_rng_next(&rng);
      uint32_t const fresh = (uint32_t)(x >> 20) % (uint32_t)(max_def + 1);
      int64_t const keep = mode == 0 ? 9 : mode == 1 ? 500 : 2;
      levels[i] = i > 0 && (int64_t)(x % (uint64_t)keep) != 0 ? levels[i - 1] : fresh;
      if (mode == 3 && (x & 0xfff) == 0) levels[i] = (uint32_t)max_def + 1;
    }
    uint8_t *enc = NULL;
    int64_t const size =
        pqb_rle_encode(levels, n, gcol_detail_pq_bit_width((uint32_t)max_def), &enc);
    if (round % 5 == 4 && size > 0) enc[gcol_test_rng_range(&rng, 0, size - 1)] ^= 0x5a;
    gcol_detail_pq_page pg;
    memset(&pg, 0, sizeof pg);
    pg.num_rows = n + (round % 7 == 6 ? 30 : 0); /* more rows than levels: truncated */
    pg.def_end = round % 11 == 10 ? gcol_test_rng_range(&rng, 0, size) : size;
    uint8_t *va = (uint8_t *)malloc((size_t)pg.num_rows),
            *vb = (uint8_t *)malloc((size_t)pg.num_rows);
    int32_t *sa = (int32_t *)malloc((size_t)pg.num_rows * 4),
            *sb = (int32_t *)malloc((size_t)pg.num_rows * 4);
    int64_t na = -1, nb = -1;
    int const ca = gcol_detail_pq_decode_levels(enc, pg, max_def, va, sa, &na);
    int const cb = levels_by_batches(enc, pg, max_def, vb, sb, &nb);
    if (ca != cb) fail_msg("round %d: error %d by batches, %d serially", round, cb, ca);
    if (ca == 0) {
      assert_int_equal(na, nb);
      assert_memory_equal(va, vb, (size_t)pg.num_rows);
      assert_memory_equal(sa, sb, (size_t)pg.num_rows * 4);
    }
    free(va);
    free(vb);
    free(sa);
    free(sb);
    free(enc);
    free(levels);
  }
}

/* pqread: byte arrays walked step by step over stages of 5..64 bytes (the GPU's are 4 KiB),
 * plainly, with the stage's next table, and as the GPU does (checkpoints every 2, 4 or 8 values
 * from the squared table, a walk from each), give gcol_detail_pq_walk_byte_arrays's positions
 * and lengths, or its failure. */
static void test_walk_by_stages(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(45);
  for (int round = 0; round < 400; ++round) {
    uint8_t buf[2048];
    int64_t size = 0;
    int64_t count = 0;
    while (size < (int64_t)sizeof buf - 80 && count < 200) {
      /* short values in some rounds: several checkpoints per stage */
      uint32_t const n = (uint32_t)gcol_test_rng_range(&rng, 0, round % 5 < 2 ? 6 : 70);
      memcpy(buf + size, &n, 4); /* little-endian hosts only, as the builder */
      for (uint32_t j = 0; j < n; ++j) buf[size + 4 + j] = (uint8_t)gcol_test_rng_next(&rng);
      size += 4 + n;
      ++count;
    }
    if (round % 3 == 1) size = gcol_test_rng_range(&rng, 0, size);          /* cut */
    if (round % 3 == 2) buf[gcol_test_rng_range(&rng, 0, size - 1)] = 0xff; /* a huge length */
    int64_t const want = count + (round % 4 == 3 ? 1 : 0);
    int64_t *pa = (int64_t *)calloc((size_t)want, 8), *pb = (int64_t *)calloc((size_t)want, 8);
    int32_t *la = (int32_t *)calloc((size_t)want, 4), *lb = (int32_t *)calloc((size_t)want, 4);
    bool const ok = gcol_detail_pq_walk_byte_arrays(buf, 0, size, want, pa, la);
    int const stage = (int)gcol_test_rng_range(&rng, 5, 64);
    uint32_t off[64];
    int32_t len[64];
    int64_t at = 0, k = 0;
    bool fail = false;
    while (k < want && !fail) {
      int64_t const base = at;
      int64_t const stop = size - base < stage ? size : base + stage;
      int64_t const staged = stop - base;
      uint16_t next[65], jump[2][65], check[65];
      for (int64_t p = 0; p <= staged; ++p) {
        next[p] = gcol_detail_pq_walk_next_entry(buf + base, staged, p);
      }
      int const mode = round / 4 % 3; /* plain; the next table; the GPU's checkpoints */
      if (mode < 2) {
        int32_t const m = gcol_detail_pq_walk_step(buf + base, mode == 1 ? next : NULL, base, stop,
                                                   size, 0, want - k, 16, off, len, &at, &fail);
        for (int32_t j = 0; j < m; ++j) {
          pb[k + j] = off[j];
          lb[k + j] = len[j];
        }
        k += m;
        continue;
      }
      /* the checkpoints every `hop` values, then a walk from each, the last one's ending */
      int const levels = 1 + round / 12 % 3;
      int32_t const hop = 1 << levels;
      const uint16_t *from = next;
      for (int level = 0; level < levels; ++level) {
        for (int64_t p = 0; p <= staged; ++p) {
          jump[level % 2][p] = gcol_detail_pq_walk_square(from, p);
        }
        from = jump[level % 2];
      }
      int64_t const limit = want - k < 64 ? want - k : 64;
      int32_t const checks = gcol_detail_pq_walk_checkpoints(from, 0, limit, hop, check);
      for (int32_t t = 0; t < checks; ++t) {
        int64_t const first = (int64_t)t * hop;
        int64_t const n = t == checks - 1 ? limit - first : hop;
        int64_t from_at = base + check[t];
        bool from_fail = false;
        int32_t const m =
            gcol_detail_pq_walk_step(buf + base, next, base, stop, size, 0, n, (int32_t)n,
                                     off + first, len + first, &from_at, &from_fail);
        if (t < checks - 1 && m != hop) fail_msg("round %d: checkpoint %d walked %d", round, t, m);
        for (int32_t j = 0; j < m; ++j) {
          pb[k + first + j] = off[first + j];
          lb[k + first + j] = len[first + j];
        }
        if (t == checks - 1) {
          k += first + m;
          at = from_at;
          fail = from_fail;
        }
      }
    }
    if (ok == fail) fail_msg("round %d: walk %d, steps %s", round, ok, fail ? "failed" : "ok");
    if (ok) {
      assert_memory_equal(pa, pb, (size_t)want * 8);
      assert_memory_equal(la, lb, (size_t)want * 4);
    }
    free(pa);
    free(pb);
    free(la);
    free(lb);
  }
}

/* ------------------------------------------------------------------ test files */

/* ------------------------------------------------------------------ metadata */

static void check_metadata(const gcol_parquet_metadata *md, const pqb_column *cols,
                           int64_t rows_per_group) {
  int32_t const groups = (int32_t)((ROWS + rows_per_group - 1) / rows_per_group);
  assert_int_equal(gcol_parquet_metadata_num_rows(md), ROWS);
  assert_int_equal(gcol_parquet_metadata_num_row_groups(md), groups);
  assert_int_equal(gcol_parquet_metadata_num_columns(md), NUM_COLS);
  assert_string_equal(gcol_parquet_metadata_created_by(md), "gcol test builder");
  assert_int_equal(gcol_parquet_metadata_row_group_num_rows(md, 0), rows_per_group);
  assert_int_equal(gcol_parquet_metadata_row_group_num_rows(md, groups), -1);
  gcol_type_id const expected[NUM_COLS] = {GCOL_INT32,
                                           GCOL_INT32,
                                           GCOL_INT64,
                                           GCOL_FLOAT64,
                                           GCOL_FLOAT32,
                                           GCOL_BOOL8,
                                           GCOL_STRING,
                                           GCOL_TIMESTAMP_DAYS,
                                           GCOL_TIMESTAMP_MICROSECONDS,
                                           GCOL_INT8,
                                           GCOL_TIMESTAMP_MILLISECONDS,
                                           GCOL_DECIMAL64,
                                           GCOL_DECIMAL128,
                                           GCOL_TIMESTAMP_NANOSECONDS};
  for (int32_t k = 0; k < NUM_COLS; ++k) {
    gcol_parquet_column_info info;
    GCOL_TEST_OK(gcol_parquet_metadata_column(md, k, &info));
    assert_string_equal(info.name, cols[k].name);
    assert_int_equal(info.physical_type, cols[k].physical);
    assert_int_equal(info.type.id, expected[k]);
    assert_int_equal(info.nullable, cols[k].optional);
    assert_int_equal(info.max_definition_level, cols[k].optional ? 1 : 0);
    assert_int_equal(info.max_repetition_level, 0);
    assert_int_equal(gcol_parquet_metadata_find_column(md, cols[k].name), k);
  }
  gcol_parquet_column_info info;
  GCOL_TEST_OK(gcol_parquet_metadata_column(md, 8, &info));
  assert_int_equal(info.logical_type, GCOL_PARQUET_LOGICAL_TIMESTAMP);
  assert_int_equal(info.time_unit, GCOL_PARQUET_UNIT_MICROS);
  assert_true(info.adjusted_to_utc);
  GCOL_TEST_OK(gcol_parquet_metadata_column(md, 9, &info));
  assert_int_equal(info.logical_type, GCOL_PARQUET_LOGICAL_INTEGER);
  assert_int_equal(info.bit_width, 8);
  assert_true(info.is_signed);
  GCOL_TEST_OK(gcol_parquet_metadata_column(md, 10, &info)); /* from the ConvertedType */
  assert_int_equal(info.logical_type, GCOL_PARQUET_LOGICAL_TIMESTAMP);
  assert_int_equal(info.time_unit, GCOL_PARQUET_UNIT_MILLIS);
  GCOL_TEST_OK(gcol_parquet_metadata_column(md, 11, &info));
  assert_int_equal(info.decimal_precision, 18);
  assert_int_equal(info.decimal_scale, 2);
  assert_int_equal(info.type.scale, -2);
  assert_int_equal(gcol_parquet_metadata_find_column(md, "nope"), -1);
  GCOL_TEST_STATUS(gcol_parquet_metadata_column(md, NUM_COLS, &info), GCOL_ERROR_INVALID_ARGUMENT);

  /* statistics of every chunk against the data */
  for (int32_t g = 0; g < groups; ++g) {
    int64_t const r0 = g * rows_per_group;
    int64_t const r1 = r0 + rows_per_group < ROWS ? r0 + rows_per_group : ROWS;
    for (int32_t k = 0; k < NUM_COLS; ++k) {
      gcol_parquet_statistics st;
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, g, k, &st));
      int64_t nulls = 0;
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      double flo = 1e308, fhi = -1e308;
      for (int64_t r = r0; r < r1; ++r) {
        if (cols[k].valid != NULL && !cols[k].valid[r]) {
          ++nulls;
          continue;
        }
        if (cols[k].ints != NULL) {
          lo = cols[k].ints[r] < lo ? cols[k].ints[r] : lo;
          hi = cols[k].ints[r] > hi ? cols[k].ints[r] : hi;
        }
        if (cols[k].reals != NULL) {
          double const x =
              cols[k].physical == GCOL_PARQUET_FLOAT ? (float)cols[k].reals[r] : cols[k].reals[r];
          flo = x < flo ? x : flo;
          fhi = x > fhi ? x : fhi;
        }
      }
      assert_int_equal(st.codec, GCOL_PARQUET_UNCOMPRESSED);
      assert_int_equal(st.num_values, r1 - r0);
      assert_true(st.has_null_count);
      assert_int_equal(st.null_count, nulls);
      assert_true(st.has_min_max);
      if (cols[k].ints != NULL && cols[k].physical != GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY &&
          cols[k].physical != GCOL_PARQUET_INT96) {
        assert_true(st.has_integer_min_max);
        assert_true(st.min_i64 == lo);
        assert_true(st.max_i64 == hi);
      }
      if (cols[k].reals != NULL) {
        assert_true(st.has_float_min_max);
        assert_true(st.min_f64 == flo);
        assert_true(st.max_f64 == fhi);
      }
    }
  }
  /* key-value pairs */
  assert_int_equal(gcol_parquet_metadata_num_key_values(md), 3);
  const char *key = NULL, *value = NULL;
  int64_t ks = -1, vs = -1;
  GCOL_TEST_OK(gcol_parquet_metadata_key_value(md, 0, &key, &ks, &value, &vs));
  assert_string_equal(key, "ARROW:schema");
  assert_int_equal(ks, 12);
  assert_string_equal(value, "not really");
  assert_int_equal(vs, 10);
  GCOL_TEST_OK(gcol_parquet_metadata_key_value(md, 1, &key, &ks, &value, &vs));
  assert_string_equal(value, "");
  GCOL_TEST_OK(gcol_parquet_metadata_key_value(md, 2, &key, NULL, &value, NULL));
  assert_string_equal(key, "novalue");
  assert_null(value);
  GCOL_TEST_STATUS(gcol_parquet_metadata_key_value(md, 3, &key, NULL, &value, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
}

static int source_reads;
static int read_buffer_cb(void *user, int64_t offset, int64_t length, void *dst) {
  ++source_reads;
  memcpy(dst, (const uint8_t *)user + offset, (size_t)length);
  return 0;
}

static void test_metadata_from_buffer_file_and_source(void **state) {
  (void)state;
  make_data(1);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build(0, 300, &size, cols);
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  check_metadata(md, cols, 300);
  gcol_parquet_metadata_free(md);

  char path[] = "/tmp/gcol_parquet_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, file, (size_t)size), size);
  close(fd);
  md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_file(path, &md));
  check_metadata(md, cols, 300);
  gcol_parquet_metadata_free(md);
  unlink(path);

  gcol_parquet_source src = {size, read_buffer_cb, file, "callback"};
  source_reads = 0;
  md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_source(&src, &md));
  assert_true(source_reads >= 2);
  check_metadata(md, cols, 300);
  gcol_parquet_metadata_free(md);

  /* arguments */
  GCOL_TEST_STATUS(gcol_parquet_metadata_read_buffer(NULL, size, &md), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(md);
  GCOL_TEST_STATUS(gcol_parquet_metadata_read_buffer(file, size, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_read_file("/nonexistent/x.parquet", &md),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "/nonexistent/x.parquet"));
  src.read = NULL;
  GCOL_TEST_STATUS(gcol_parquet_metadata_read_source(&src, &md), GCOL_ERROR_INVALID_ARGUMENT);
  free(file);
}

/* ------------------------------------------------------------------ plan + host decode */

/* check_host_decode plans as the GPU reader does with nvCOMP when this is a codec (-1: it
 * plans for the host decode): pages of the codec left as jobs, with `gpu_alignment`, and the
 * chunks borrowed from the file (odd columns: read through the source). The jobs are then
 * run by the host codec and the levels placed as the device does, before the host decode. */
static int32_t gpu_codec = -1;
static int32_t gpu_in_alignment = 1;
static int32_t gpu_alignment = 8; /* the outputs' */
static int64_t gpu_jobs_seen;

/* Plans column k as the GPU reader would, runs its jobs on the host and replaces plan->bytes
 * with the byte space the device would hold. */
static void plan_as_gpu(const uint8_t *file, const gcol_detail_pq_file *src,
                        const gcol_parquet_metadata *md, int32_t k, const int32_t *groups,
                        int32_t num_groups, gcol_detail_pq_column_plan *plan) {
  gcol_detail_nvcomp lib;
  memset(&lib, 0, sizeof lib);
  lib.codecs = UINT32_C(1) << gpu_codec;
  lib.in_alignment[gpu_codec] = gpu_in_alignment;
  lib.out_alignment[gpu_codec] = gpu_alignment;
  GCOL_TEST_OK(gcol_detail_parquet_plan_column_borrow(src, k % 2 == 0 ? file : NULL, md, k, groups,
                                                      num_groups, lib.codecs, &lib, plan));
  uint8_t *space = (uint8_t *)malloc((size_t)plan->num_bytes + 1);
  memset(space, 0xee, (size_t)plan->num_bytes + 1);
  int64_t covered = 0;
  for (int32_t i = 0; i < plan->num_segments; ++i) {
    gcol_detail_pq_segment const g = plan->segments[i];
    assert_true(g.begin >= covered && g.begin + g.size <= plan->num_bytes);
    covered = g.begin + g.size;
    if (g.src == NULL && g.owned < 0) continue;
    memcpy(space + g.begin, g.src != NULL ? g.src : plan->bytes + g.owned, (size_t)g.size);
    if (g.src != NULL) assert_true(g.src >= file && k % 2 == 0); /* borrowed from the file */
  }
  for (int32_t j = 0; j < plan->num_jobs; ++j) {
    gcol_detail_pq_job const job = plan->jobs[j];
    assert_int_equal(job.codec, gpu_codec);
    assert_int_equal(job.src % gpu_in_alignment, 0);
    assert_int_equal(job.dst % gpu_alignment, 0);
    assert_true(job.src + job.src_size <= job.dst || job.dst + job.dst_size <= job.src);
    /* the job's output is a segment nothing is copied to */
    bool found = false;
    for (int32_t i = 0; i < plan->num_segments; ++i) {
      gcol_detail_pq_segment const g = plan->segments[i];
      found |= g.begin == job.dst && g.size == job.dst_size && g.src == NULL && g.owned < 0;
    }
    assert_true(found);
    int32_t const index = job.where & 0x7fffffff;
    if (job.where < 0) {
      assert_true(index < plan->num_dicts && plan->dicts[index].end == job.dst + job.dst_size);
    } else {
      assert_true(index < plan->num_pages &&
                  plan->pages[index].values_end == job.dst + job.dst_size);
    }
    char err[192];
    int const r = gcol_detail_pq_decompress(job.codec, space + job.src, job.src_size,
                                            space + job.dst, job.dst_size, err, 192);
    if (r != GCOL_DETAIL_PQ_CODEC_OK) fail_msg("job %d: %s", j, err);
  }
  gpu_jobs_seen += plan->num_jobs;
  for (int32_t p = 0; p < plan->num_pages; ++p) {
    assert_int_equal(gcol_detail_pq_place_levels(space, &plan->pages[p]), GCOL_DETAIL_PQ_E_OK);
  }
  free(plan->bytes);
  plan->bytes = space;
}

/* Plans and decodes every column on the CPU and compares with the data written. */
static void check_host_decode(const uint8_t *file, int64_t size, const pqb_column *cols,
                              const int32_t *groups, int32_t num_groups, int64_t rows_per_group) {
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
  int32_t all[64];
  if (groups == NULL) {
    num_groups = md->num_row_groups;
    for (int32_t g = 0; g < num_groups; ++g) all[g] = g;
    groups = all;
  }
  for (int32_t k = 0; k < NUM_COLS; ++k) {
    gcol_detail_pq_column_plan plan;
    if (gpu_codec >= 0) {
      plan_as_gpu(file, &src, md, k, groups, num_groups, &plan);
    } else {
      GCOL_TEST_OK(gcol_detail_parquet_plan_column(&src, md, k, groups, num_groups, &plan));
    }
    int64_t const n = plan.num_rows;
    uint64_t *values = (uint64_t *)malloc((size_t)n * 8 + 8);
    uint64_t *values_hi = (uint64_t *)malloc((size_t)n * 8 + 8);
    int64_t *pos = (int64_t *)malloc((size_t)n * 8 + 8);
    int64_t *len = (int64_t *)malloc((size_t)n * 8 + 8);
    uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
    int32_t bad = 0;
    bool is_dict = false;
    int const code = gcol_detail_parquet_decode_column_host(&plan, values, values_hi, pos, len,
                                                            valid, &bad, &is_dict);
    if (code != 0)
      fail_msg("column %s: %s (page %d)", cols[k].name, gcol_detail_parquet_page_error(code), bad);
    int64_t out = 0;
    for (int32_t gi = 0; gi < num_groups; ++gi) {
      int64_t const r0 = groups[gi] * rows_per_group;
      int64_t const r1 = r0 + rows_per_group < ROWS ? r0 + rows_per_group : ROWS;
      for (int64_t r = r0; r < r1; ++r, ++out) {
        bool const v = cols[k].valid == NULL || cols[k].valid[r];
        if (valid[out] != v)
          fail_msg("column %s row %lld: valid %d", cols[k].name, (long long)r, valid[out]);
        if (!v) continue;
        if (cols[k].strings != NULL) {
          assert_int_equal(len[out], strlen(cols[k].strings[r]));
          assert_memory_equal(plan.bytes + pos[out], cols[k].strings[r], (size_t)len[out]);
        } else if (cols[k].physical == GCOL_PARQUET_FLOAT) {
          float f;
          uint32_t bits = (uint32_t)values[out];
          memcpy(&f, &bits, 4);
          assert_true(f == (float)cols[k].reals[r]);
        } else if (cols[k].physical == GCOL_PARQUET_DOUBLE) {
          double d;
          memcpy(&d, &values[out], 8);
          assert_true(d == cols[k].reals[r]);
        } else if ((int64_t)values[out] != cols[k].ints[r] ||
                   (cols[k].physical == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY &&
                    values_hi[out] != (cols[k].ints[r] < 0 ? ~UINT64_C(0) : 0))) {
          fail_msg("column %s row %lld: %lld != %lld", cols[k].name, (long long)r,
                   (long long)values[out], (long long)cols[k].ints[r]);
        }
      }
    }
    assert_int_equal(out, n);
    free(values);
    free(values_hi);
    free(pos);
    free(len);
    free(valid);
    gcol_detail_parquet_plan_free(&plan);
  }
  gcol_parquet_metadata_free(md);
}

static void test_pages_decoded_on_the_host(void **state) {
  (void)state;
  make_data(2);
  for (int variant = 0; variant < 10; ++variant) {
    pqb_column cols[NUM_COLS];
    int64_t size = 0;
    uint8_t *file = build(variant, 250, &size, cols);
    check_host_decode(file, size, cols, NULL, 0, 250);
    int32_t const some[] = {3, 1};
    check_host_decode(file, size, cols, some, 2, 250);
    free(file);
  }
}

/* ------------------------------------------------------------------ bad input */

static void expect_metadata_error(const uint8_t *file, int64_t size, gcol_status expected,
                                  const char *needle) {
  gcol_parquet_metadata *md = (gcol_parquet_metadata *)(uintptr_t)1;
  uint8_t *copy = (uint8_t *)malloc(size > 0 ? (size_t)size : 1);
  memcpy(copy, file, (size_t)size);
  gcol_status const st = gcol_parquet_metadata_read_buffer(copy, size, &md);
  free(copy);
  if (st != expected) fail_msg("status %d, expected %d: %s", st, expected, gcol_last_error());
  assert_null(md);
  if (strstr(gcol_last_error(), needle) == NULL) {
    fail_msg("'%s' not in: %s", needle, gcol_last_error());
  }
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_bad_files(void **state) {
  (void)state;
  make_data(3);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build(0, 400, &size, cols);
  uint8_t *bad = (uint8_t *)malloc((size_t)size);
  uint32_t const footer = (uint32_t)file[size - 8] | (uint32_t)file[size - 7] << 8 |
                          (uint32_t)file[size - 6] << 16 | (uint32_t)file[size - 5] << 24;

  expect_metadata_error(file, 0, GCOL_ERROR_INVALID_ARGUMENT, "fewer than the 12");
  expect_metadata_error(file, 11, GCOL_ERROR_INVALID_ARGUMENT, "fewer than the 12");
  memcpy(bad, file, (size_t)size);
  bad[0] = 'X';
  expect_metadata_error(bad, size, GCOL_ERROR_INVALID_ARGUMENT, "does not start with PAR1");
  expect_metadata_error(file, size - 1, GCOL_ERROR_INVALID_ARGUMENT, "does not end with PAR1");
  memcpy(bad, file, (size_t)size);
  memcpy(bad + size - 4, "PARE", 4);
  expect_metadata_error(bad, size, GCOL_ERROR_UNSUPPORTED, "encrypted");
  memcpy(bad, file, (size_t)size);
  put32(bad + size - 8, (uint32_t)size);
  expect_metadata_error(bad, size, GCOL_ERROR_INVALID_ARGUMENT, "footer length");
  memcpy(bad, file, (size_t)size);
  put32(bad + size - 8, 0);
  expect_metadata_error(bad, size, GCOL_ERROR_INVALID_ARGUMENT, "footer length");
  /* a footer that claims fewer bytes: the Thrift ends early */
  memcpy(bad, file, (size_t)size);
  put32(bad + size - 8, footer / 2);
  expect_metadata_error(bad, size, GCOL_ERROR_INVALID_ARGUMENT, "corrupt footer");
  /* garbage in the footer */
  memcpy(bad, file, (size_t)size);
  memset(bad + size - 8 - footer, 0xff, footer);
  expect_metadata_error(bad, size, GCOL_ERROR_INVALID_ARGUMENT, "corrupt footer");
  /* the file cut in the middle of its data keeps a valid tail: offsets now point past it */
  {
    int64_t const cut = 200;
    uint8_t *shorter = (uint8_t *)malloc((size_t)(size - cut));
    memcpy(shorter, file, 4);
    memcpy(shorter + 4, file + 4 + cut, (size_t)(size - 4 - cut));
    expect_metadata_error(shorter, size - cut, GCOL_ERROR_INVALID_ARGUMENT, "outside the file");
    free(shorter);
  }
  free(file);

  /* lying row counts */
  make_columns(cols, 0);
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = NUM_COLS;
  f.columns = cols;
  f.num_rows = ROWS;
  f.rows_per_group = 400;
  f.lie_num_rows = ROWS + 1;
  file = pqb_build(&f, &size);
  expect_metadata_error(file, size, GCOL_ERROR_INVALID_ARGUMENT, "row groups hold");
  free(file);
  free(bad);
}

/* Plans column `k` of a file and expects `expected` with `needle` in the message. */
static void expect_plan_error(const uint8_t *file, int64_t size, int32_t k, gcol_status expected,
                              const char *needle) {
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
  int32_t const groups[] = {0};
  gcol_detail_pq_column_plan plan;
  gcol_status const st = gcol_detail_parquet_plan_column(&src, md, k, groups, 1, &plan);
  if (st != expected) fail_msg("status %d, expected %d: %s", st, expected, gcol_last_error());
  if (strstr(gcol_last_error(), needle) == NULL) {
    fail_msg("'%s' not in: %s", needle, gcol_last_error());
  }
  assert_null(plan.bytes);
  gcol_parquet_metadata_free(md);
}

static void test_unsupported_and_corrupt_pages(void **state) {
  (void)state;
  make_data(4);
  pqb_column c = col_base("x", GCOL_PARQUET_INT64);
  c.ints = pq_data.big;
  c.rows_per_page = 100;
  pqb_file f = pqb_one_column(&c, ROWS);
  int64_t size = 0;

  c.lie_codec = GCOL_PARQUET_BROTLI;
  uint8_t *file = pqb_build(&f, &size);
  expect_plan_error(file, size, 0, GCOL_ERROR_UNSUPPORTED, "codec BROTLI is not supported");
  free(file);
  c.lie_codec = 0;

  c.lie_encoding = GCOL_DETAIL_PQ_ENC_DELTA_BYTE_ARRAY;
  file = pqb_build(&f, &size);
  expect_plan_error(file, size, 0, GCOL_ERROR_UNSUPPORTED, "DELTA_BYTE_ARRAY");
  expect_plan_error(file, size, 0, GCOL_ERROR_UNSUPPORTED, "page 0");
  free(file);
  c.lie_encoding = GCOL_DETAIL_PQ_ENC_RLE_DICTIONARY; /* no dictionary page */
  file = pqb_build(&f, &size);
  expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT, "without a dictionary page");
  free(file);
  c.lie_encoding = 0;

  /* a page header's size that runs past the chunk: page 3's compressed size set huge */
  file = pqb_build(&f, &size);
  {
    gcol_parquet_metadata *md = NULL;
    GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
    int64_t pos = 4;
    for (int p = 0; p < 3; ++p) {
      gcol_detail_pq_page_header h;
      int64_t hs = 0;
      char err[128];
      assert_true(gcol_detail_parquet_parse_page_header(file + pos, size - pos, &h, &hs, err, 128));
      pos += hs + h.compressed_size;
    }
    gcol_parquet_metadata_free(md);
    /* header of page 3 at pos: field 2 (uncompressed) and 3 (compressed) follow the type */
    gcol_detail_thrift_writer w;
    gcol_detail_thrift_writer_init(&w);
    gcol_detail_thrift_write_struct_begin(&w);
    gcol_detail_thrift_write_i32_field(&w, 1, 0);
    gcol_detail_thrift_write_i32_field(&w, 2, 1 << 30);
    gcol_detail_thrift_write_i32_field(&w, 3, 1 << 30);
    gcol_detail_thrift_write_struct_end(&w);
    uint8_t *bad = (uint8_t *)malloc((size_t)size);
    memcpy(bad, file, (size_t)size);
    memcpy(bad + pos, w.data, w.size);
    expect_plan_error(bad, size, 0, GCOL_ERROR_INVALID_ARGUMENT, "page 3");
    free(bad);
    gcol_detail_thrift_writer_free(&w);
  }
  free(file);

  /* definition levels that end early: decoded on the host, the page named */
  c.optional = true;
  c.valid = pq_data.valid;
  file = pqb_build(&f, &size);
  {
    gcol_parquet_metadata *md = NULL;
    GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
    gcol_detail_pq_file src;
    gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
    int32_t const groups[] = {0};
    gcol_detail_pq_column_plan plan;
    GCOL_TEST_OK(gcol_detail_parquet_plan_column(&src, md, 0, groups, 1, &plan));
    plan.pages[2].def_end = plan.pages[2].def_begin + 1; /* the levels cut to one byte */
    uint64_t *values = (uint64_t *)malloc(ROWS * 8);
    int64_t *pos = (int64_t *)malloc(ROWS * 8);
    int64_t *len = (int64_t *)malloc(ROWS * 8);
    uint8_t valid[ROWS];
    int32_t page = -1;
    bool is_dict = true;
    int const code = gcol_detail_parquet_decode_column_host(&plan, values, NULL, pos, len, valid,
                                                            &page, &is_dict);
    assert_int_equal(code, GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED);
    assert_int_equal(page, 2);
    assert_false(is_dict);
    free(values);
    free(pos);
    free(len);
    gcol_detail_parquet_plan_free(&plan);
    gcol_parquet_metadata_free(md);
  }
  free(file);
}

/* ------------------------------------------------------------------ DELTA_BYTE_ARRAY */

enum { DBA_ROWS = 3000 };
static char *dba_store[DBA_ROWS];
static const char *dba_strings[DBA_ROWS];
static uint8_t dba_valid[DBA_ROWS];

/* Strings with shared prefixes (sorted-looking runs), none shared, empty and long ones. */
static void make_dba_strings(void) {
  for (int i = 0; i < DBA_ROWS; ++i) {
    free(dba_store[i]);
    int const kind = (i / 50) % 4;
    size_t const len = kind == 3 && i % 7 == 0 ? 3000 + (size_t)i : 40;
    dba_store[i] = (char *)malloc(len + 1);
    if (kind == 0) { /* a shared prefix of varying length */
      snprintf(dba_store[i], len + 1, "prefix/%d/%d", i / 10, i);
    } else if (kind == 1) { /* nothing shared with the previous value */
      snprintf(dba_store[i], len + 1, "%c%d", 'a' + i % 26, i);
    } else if (kind == 2) { /* empty strings, and repeats */
      snprintf(dba_store[i], len + 1, "%s", i % 3 == 0 ? "" : i % 3 == 1 ? "same" : "same");
    } else {
      memset(dba_store[i], 'x', len);
      dba_store[i][len] = '\0';
      if (len > 100) dba_store[i][len - 1] = (char)('a' + i % 26);
    }
    dba_strings[i] = dba_store[i];
    dba_valid[i] = i % 11 != 5;
  }
}

/* Plans and decodes column 0 of a DELTA_BYTE_ARRAY file on the host, compares with the data. */
static void check_dba_file(const uint8_t *file, int64_t size, const pqb_column *c, int64_t rows) {
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
  int32_t groups[64];
  int32_t const ng = gcol_parquet_metadata_num_row_groups(md);
  for (int32_t g = 0; g < ng; ++g) groups[g] = g;
  for (int pass = 0; pass < 2; ++pass) {
    gcol_detail_pq_column_plan plan;
    if (pass == 0) {
      GCOL_TEST_OK(gcol_detail_parquet_plan_column(&src, md, 0, groups, ng, &plan));
    } else { /* borrowed from the file, as the GPU reader plans */
      GCOL_TEST_OK(
          gcol_detail_parquet_plan_column_borrow(&src, file, md, 0, groups, ng, 0, NULL, &plan));
      uint8_t *space = (uint8_t *)malloc((size_t)plan.num_bytes + 1);
      for (int32_t i = 0; i < plan.num_segments; ++i) {
        gcol_detail_pq_segment const s = plan.segments[i];
        memcpy(space + s.begin, s.src != NULL ? s.src : plan.bytes + s.owned, (size_t)s.size);
      }
      free(plan.bytes);
      plan.bytes = space;
    }
    assert_int_equal(plan.num_rows, rows);
    for (int32_t p = 0; p < plan.num_pages; ++p) {
      assert_int_equal(plan.pages[p].encoding, GCOL_DETAIL_PQ_VALUES_PLAIN);
    }
    uint64_t *values = (uint64_t *)malloc((size_t)rows * 8 + 8);
    uint64_t *values_hi = (uint64_t *)malloc((size_t)rows * 8 + 8);
    int64_t *pos = (int64_t *)malloc((size_t)rows * 8 + 8);
    int64_t *len = (int64_t *)malloc((size_t)rows * 8 + 8);
    uint8_t *valid = (uint8_t *)malloc((size_t)rows + 1);
    int32_t bad = 0;
    bool is_dict = false;
    int const code = gcol_detail_parquet_decode_column_host(&plan, values, values_hi, pos, len,
                                                            valid, &bad, &is_dict);
    if (code != 0) fail_msg("%s (page %d)", gcol_detail_parquet_page_error(code), bad);
    for (int64_t r = 0; r < rows; ++r) {
      bool const v = c->valid == NULL || c->valid[r];
      assert_int_equal(valid[r], v);
      if (!v) continue;
      if (c->strings != NULL) {
        assert_int_equal(len[r], strlen(c->strings[r]));
        assert_memory_equal(plan.bytes + pos[r], c->strings[r], (size_t)len[r]);
      } else if ((int64_t)values[r] != c->ints[r] ||
                 values_hi[r] != (c->ints[r] < 0 ? ~UINT64_C(0) : 0)) {
        fail_msg("row %lld: %lld != %lld", (long long)r, (long long)values[r],
                 (long long)c->ints[r]);
      }
    }
    free(values);
    free(values_hi);
    free(pos);
    free(len);
    free(valid);
    gcol_detail_parquet_plan_free(&plan);
  }
  gcol_parquet_metadata_free(md);
}

static void test_delta_byte_array_pages(void **state) {
  (void)state;
  make_dba_strings();
  make_data(31);
  for (int v2 = 0; v2 < 2; ++v2) {
    for (int nulls = 0; nulls < 2; ++nulls) {
      for (int shape = 0; shape < 4; ++shape) {
        /* one page; pages of 1 value; pages of 700 in groups of 1000; one value in all */
        static const int64_t per_page[] = {0, 1, 700, 0};
        static const int64_t per_group[] = {0, 0, 1000, 0};
        int64_t const rows = shape == 3 ? 1 : shape == 1 ? 40 : DBA_ROWS;
        pqb_column c = col_base("s", GCOL_PARQUET_BYTE_ARRAY);
        c.strings = dba_strings;
        c.logical = GCOL_PARQUET_LOGICAL_STRING;
        c.optional = nulls != 0;
        c.valid = nulls != 0 && shape != 3 ? dba_valid : NULL;
        c.delta_byte_array = true;
        c.page_version = v2 ? 2 : 1;
        c.rows_per_page = per_page[shape];
        pqb_file f = pqb_one_column(&c, rows);
        f.rows_per_group = per_group[shape];
        int64_t size = 0;
        uint8_t *file = pqb_build(&f, &size);
        assert_non_null(file);
        check_dba_file(file, size, &c, rows);
        free(file);
        /* compressed pages, decompressed on the host before the transcode */
        if (gcol_detail_pq_codec_available(GCOL_PARQUET_ZSTD)) {
          c.codec = GCOL_PARQUET_ZSTD;
          file = pqb_build(&f, &size);
          assert_non_null(file);
          check_dba_file(file, size, &c, rows);
          free(file);
        }
      }
    }
  }
  /* decimals of FIXED_LEN_BYTE_ARRAY, and an all-null page */
  pqb_column d = col_base("d", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  d.type_length = 16;
  d.ints = pq_data.small; /* small values: long shared prefixes of sign bytes */
  d.logical = GCOL_PARQUET_LOGICAL_DECIMAL;
  d.precision = 38;
  d.scale = 2;
  d.optional = true;
  d.valid = pq_data.valid;
  d.delta_byte_array = true;
  d.rows_per_page = 300;
  pqb_file f = pqb_one_column(&d, ROWS);
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  check_dba_file(file, size, &d, ROWS);
  free(file);
  static uint8_t none[ROWS];
  d.valid = none;
  file = pqb_build(&f, &size);
  check_dba_file(file, size, &d, ROWS);
  free(file);
  for (int i = 0; i < DBA_ROWS; ++i) {
    free(dba_store[i]);
    dba_store[i] = NULL;
  }
}

static void test_delta_byte_array_corrupt(void **state) {
  (void)state;
  make_data(32);
  static const struct {
    int lie;
    const char *needle;
  } cases[] = {
      {PQB_DBA_PREFIX_TOO_LONG, "is longer than the previous value"},
      {PQB_DBA_NEGATIVE_PREFIX, "prefix length is negative"},
      {PQB_DBA_NEGATIVE_SUFFIX, "suffix length is negative"},
      {PQB_DBA_PREFIX_COUNT, "prefix lengths for the page's"},
      {PQB_DBA_SUFFIX_COUNT, "suffix lengths for the page's"},
      {PQB_DBA_SUFFIX_PAST_END, "runs past the page's end"},
      {PQB_DBA_HUGE_SUFFIX, "overflows a 32-bit length"},
      {PQB_DBA_CUT, "suffix lengths' header runs past the page"},
  };
  for (int v2 = 0; v2 < 2; ++v2) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
      pqb_column c = col_base("s", GCOL_PARQUET_BYTE_ARRAY);
      c.strings = pq_data.strings;
      c.optional = true;
      c.valid = pq_data.valid;
      c.delta_byte_array = true;
      c.page_version = v2 ? 2 : 1;
      c.rows_per_page = 100;
      c.lie_delta_byte_array = cases[i].lie;
      pqb_file f = pqb_one_column(&c, ROWS);
      int64_t size = 0;
      uint8_t *file = pqb_build(&f, &size);
      assert_non_null(file);
      expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT, cases[i].needle);
      expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT,
                        "row group 0, column 's', page 0: DELTA_BYTE_ARRAY");
      free(file);
    }
  }
  /* a FIXED_LEN_BYTE_ARRAY value of another length: the column says 8, the pages hold 16 */
  pqb_column d = col_base("d", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  d.type_length = 16;
  d.ints = pq_data.big;
  d.logical = GCOL_PARQUET_LOGICAL_DECIMAL;
  d.precision = 18;
  d.scale = 2;
  d.delta_byte_array = true;
  pqb_file f = pqb_one_column(&d, ROWS);
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  md->leaves[0].type_length = 8; /* as if the schema said 8 */
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
  int32_t const groups[] = {0};
  gcol_detail_pq_column_plan plan;
  GCOL_TEST_STATUS(gcol_detail_parquet_plan_column(&src, md, 0, groups, 1, &plan),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "in a FIXED_LEN_BYTE_ARRAY of 8"));
  gcol_parquet_metadata_free(md);
  free(file);
  /* DELTA_BYTE_ARRAY on an INT64 column: still not read */
  pqb_column x = col_base("x", GCOL_PARQUET_INT64);
  x.ints = pq_data.big;
  x.lie_encoding = GCOL_DETAIL_PQ_ENC_DELTA_BYTE_ARRAY;
  f = pqb_one_column(&x, ROWS);
  file = pqb_build(&f, &size);
  expect_plan_error(file, size, 0, GCOL_ERROR_UNSUPPORTED, "DELTA_BYTE_ARRAY is not supported");
  free(file);
}

/* ------------------------------------------------------------------ codecs */

static const int32_t all_codecs[] = {GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD, GCOL_PARQUET_GZIP,
                                     GCOL_PARQUET_LZ4_RAW};
enum { NUM_CODECS = 4 };

/* Whether `codec`'s library is here; says so when it is not (the codec's cases skip). */
static bool codec_here(int32_t codec) {
  if (gcol_detail_pq_codec_available(codec)) return true;
  print_message("# SKIP codec %s: %s not found\n", gcol_detail_pq_codec_name(codec),
                gcol_detail_pq_codec_library(codec));
  return false;
}

/* The file of make_columns(variant) with every page compressed by `codec`. */
static uint8_t *build_compressed(int variant, int32_t codec, int64_t rows_per_group, int64_t *size,
                                 pqb_column *cols) {
  make_columns(cols, variant);
  for (int32_t k = 0; k < NUM_COLS; ++k) cols[k].codec = codec;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = NUM_COLS;
  f.columns = cols;
  f.num_rows = ROWS;
  f.rows_per_group = rows_per_group;
  uint8_t *file = pqb_build(&f, size);
  if (file == NULL) fail_msg("cannot build a %s file", gcol_detail_pq_codec_name(codec));
  return file;
}

static void test_codec_functions(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1416);
  enum { N = 50000 };
  uint8_t *src = (uint8_t *)malloc(N);
  uint8_t *back = (uint8_t *)malloc(N + 1);
  for (int64_t i = 0; i < N; ++i) { /* runs and noise: compressible, not trivially */
    src[i] = i % 1000 < 600 ? (uint8_t)(i / 97) : (uint8_t)gcol_test_rng_next(&rng);
  }
  assert_true(gcol_detail_pq_codec_available(GCOL_PARQUET_UNCOMPRESSED));
  assert_false(gcol_detail_pq_codec_available(GCOL_PARQUET_BROTLI));
  for (int c = 0; c < NUM_CODECS; ++c) {
    int32_t const codec = all_codecs[c];
    if (!codec_here(codec)) continue;
    int64_t const bound = gcol_detail_pq_compress_bound(codec, N);
    assert_true(bound >= N / 2);
    uint8_t *packed = (uint8_t *)malloc((size_t)bound);
    int64_t const n = gcol_detail_pq_compress(codec, src, N, packed, bound);
    assert_true(n > 0 && n < N);
    char err[192];
    assert_int_equal(gcol_detail_pq_decompress(codec, packed, n, back, N, err, 192),
                     GCOL_DETAIL_PQ_CODEC_OK);
    assert_memory_equal(back, src, N);
    assert_true(gcol_detail_pq_max_decompressed(codec, packed, n) >= N);
    /* a size that is not the data's: one less, one more */
    /* LZ4_RAW has no size in its stream: too short an output is corrupt data to it */
    for (int d = -1; d <= 1; d += 2) {
      int const size_code = codec == GCOL_PARQUET_LZ4_RAW && d < 0 ? GCOL_DETAIL_PQ_CODEC_CORRUPT
                                                                   : GCOL_DETAIL_PQ_CODEC_SIZE;
      int const r = gcol_detail_pq_decompress(codec, packed, n, back, N + d, err, 192);
      if (r != size_code)
        fail_msg("%s, size %+d: code %d: %s", gcol_detail_pq_codec_name(codec), d, r, err);
      if (r == GCOL_DETAIL_PQ_CODEC_SIZE) assert_non_null(strstr(err, "the page header says"));
    }
    /* truncated and overwritten streams: a status, nothing written past the output */
    for (int it = 0; it < 200; ++it) {
      uint8_t *m = (uint8_t *)malloc((size_t)n);
      memcpy(m, packed, (size_t)n);
      int64_t const len = it % 2 == 0 ? gcol_test_rng_range(&rng, 0, n - 1) : n;
      for (int e = 0; e < 1 + it % 5; ++e) {
        m[gcol_test_rng_range(&rng, 0, n - 1)] = (uint8_t)gcol_test_rng_next(&rng);
      }
      back[N] = 0xa5;
      int const r = gcol_detail_pq_decompress(codec, m, len, back, N, err, 192);
      assert_int_equal(back[N], 0xa5);
      if (r != GCOL_DETAIL_PQ_CODEC_OK) assert_true(strlen(err) > 0);
      if (len < n / 2) assert_int_not_equal(r, GCOL_DETAIL_PQ_CODEC_OK);
      free(m);
    }
    memset(packed, 0xff, (size_t)n); /* garbage from the first byte */
    assert_int_not_equal(gcol_detail_pq_decompress(codec, packed, n, back, N, err, 192),
                         GCOL_DETAIL_PQ_CODEC_OK);
    free(packed);
  }
  char err[192];
  assert_int_equal(gcol_detail_pq_decompress(GCOL_PARQUET_LZO, src, 10, back, 10, err, 192),
                   GCOL_DETAIL_PQ_CODEC_UNSUPPORTED);
  assert_non_null(strstr(err, "LZO"));
  free(src);
  free(back);
}

static void test_compressed_pages_decoded_on_the_host(void **state) {
  (void)state;
  make_data(6);
  for (int c = 0; c < NUM_CODECS; ++c) {
    int32_t const codec = all_codecs[c];
    if (!codec_here(codec)) continue;
    for (int variant = 0; variant < 10; ++variant) {
      pqb_column cols[NUM_COLS];
      int64_t size = 0;
      uint8_t *file = build_compressed(variant, codec, 250, &size, cols);
      /* the chunks say the codec, and their pages are compressed (the file is smaller) */
      gcol_parquet_metadata *md = NULL;
      GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
      gcol_parquet_statistics st;
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 0, 0, &st));
      assert_int_equal(st.codec, codec);
      gcol_parquet_metadata_free(md);
      pqb_column plain_cols[NUM_COLS];
      int64_t plain_size = 0;
      uint8_t *plain = build(variant, 250, &plain_size, plain_cols);
      assert_true(size < plain_size);
      free(plain);
      check_host_decode(file, size, cols, NULL, 0, 250);
      int32_t const some[] = {3, 1};
      check_host_decode(file, size, cols, some, 2, 250);
      free(file);
    }
  }
}

/* Data pages v2 whose values are not compressed in a compressed chunk (is_compressed false),
 * and pages v2 of nulls only (no values to compress): read. */
static void test_compressed_v2_special_pages(void **state) {
  (void)state;
  make_data(8);
  static uint8_t none[ROWS];
  memset(none, 0, sizeof none);
  for (int k = 0; k < NUM_CODECS; ++k) {
    if (!codec_here(all_codecs[k])) continue;
    for (int variant = 0; variant < 2; ++variant) {
      pqb_column cols[NUM_COLS];
      make_columns(cols, 1); /* data pages v2 */
      for (int32_t i = 0; i < NUM_COLS; ++i) {
        cols[i].codec = all_codecs[k];
        cols[i].v2_uncompressed = variant == 0;
        if (variant == 1 && cols[i].optional) cols[i].valid = none;
      }
      pqb_file f;
      memset(&f, 0, sizeof f);
      f.num_columns = NUM_COLS;
      f.columns = cols;
      f.num_rows = ROWS;
      f.rows_per_group = 250;
      int64_t size = 0;
      uint8_t *file = pqb_build(&f, &size);
      assert_non_null(file);
      check_host_decode(file, size, cols, NULL, 0, 250);
      free(file);
    }
  }
}

/* Pages left for nvCOMP: the plan the GPU reader makes (compressed bytes and outputs aligned,
 * a job per compressed page, v1 levels placed after decompression) decodes, once the jobs are
 * run (here by the host codecs), to the data written; v1 and v2 pages, nulls, dictionaries,
 * several row groups, borrowed and copied chunks, chunks copied whole (inputs that need no
 * alignment) or pages copied one by one to aligned places. */
static void test_pages_planned_for_nvcomp(void **state) {
  (void)state;
  make_data(9);
  for (int c = 0; c < NUM_CODECS; ++c) {
    int32_t const codec = all_codecs[c];
    if (!codec_here(codec)) continue;
    for (int variant = 0; variant < 10; ++variant) {
      pqb_column cols[NUM_COLS];
      int64_t size = 0;
      uint8_t *file = build_compressed(variant, codec, 250, &size, cols);
      /* inputs in their chunk (alignment 1, nvCOMP 5.3's) or each page copied aligned */
      static const int32_t aligns[][2] = {{1, 1}, {1, 8}, {4, 8}, {64, 64}};
      for (int a = 0; a < 4; ++a) {
        gpu_codec = codec;
        gpu_in_alignment = aligns[a][0];
        gpu_alignment = aligns[a][1];
        gpu_jobs_seen = 0;
        check_host_decode(file, size, cols, NULL, 0, 250);
        int32_t const some[] = {3, 1};
        check_host_decode(file, size, cols, some, 2, 250);
        gpu_codec = -1;
        assert_true(gpu_jobs_seen > 0);
      }
      free(file);
    }
    /* v2 pages whose values are not compressed, and pages of nulls only: no job for them */
    for (int variant = 0; variant < 2; ++variant) {
      static uint8_t none[ROWS];
      pqb_column cols[NUM_COLS];
      make_columns(cols, 1);
      for (int32_t i = 0; i < NUM_COLS; ++i) {
        cols[i].codec = codec;
        cols[i].v2_uncompressed = variant == 0;
        if (variant == 1 && cols[i].optional) cols[i].valid = none;
      }
      pqb_file f;
      memset(&f, 0, sizeof f);
      f.num_columns = NUM_COLS;
      f.columns = cols;
      f.num_rows = ROWS;
      f.rows_per_group = 250;
      int64_t size = 0;
      uint8_t *file = pqb_build(&f, &size);
      assert_non_null(file);
      gpu_codec = codec;
      gpu_in_alignment = 1;
      gpu_alignment = 8;
      check_host_decode(file, size, cols, NULL, 0, 250);
      gpu_codec = -1;
      free(file);
    }
  }
}

/* A v1 page decompressed on the GPU whose levels' length prefix is missing or too long: the
 * device's placement reports it and leaves the page's ranges empty. */
static void test_levels_placed_after_decompression(void **state) {
  (void)state;
  uint8_t bytes[64];
  memset(bytes, 0, sizeof bytes);
  gcol_detail_pq_page pg;
  memset(&pg, 0, sizeof pg);
  pg.def_begin = 8;
  pg.values_end = 8 + 3; /* no room for 4 bytes */
  pg.def_pending = 1;
  assert_int_equal(gcol_detail_pq_place_levels(bytes, &pg), GCOL_DETAIL_PQ_E_LEVELS_LENGTH);
  assert_int_equal(pg.def_pending, 0);
  assert_true(pg.def_begin == 8 && pg.def_end == 8 && pg.values_begin == 8);
  pg.values_end = 8 + 20;
  pg.def_pending = 1;
  put32(bytes + 8, 17); /* 4 + 17 > 20 */
  assert_int_equal(gcol_detail_pq_place_levels(bytes, &pg), GCOL_DETAIL_PQ_E_LEVELS_LENGTH);
  pg.def_pending = 1;
  put32(bytes + 8, 16);
  assert_int_equal(gcol_detail_pq_place_levels(bytes, &pg), GCOL_DETAIL_PQ_E_OK);
  assert_true(pg.def_begin == 12 && pg.def_end == 28 && pg.values_begin == 28);
  /* a page not pending is left as it is */
  assert_int_equal(gcol_detail_pq_place_levels(bytes, &pg), GCOL_DETAIL_PQ_E_OK);
  assert_true(pg.def_begin == 12 && pg.def_end == 28);
  assert_non_null(strstr(gcol_detail_parquet_page_error(GCOL_DETAIL_PQ_E_DECOMPRESS), "nvCOMP"));
  assert_non_null(
      strstr(gcol_detail_parquet_page_error(GCOL_DETAIL_PQ_E_DECOMPRESS_SIZE), "another size"));
  /* a nested leaf's page: [length][repetition levels][length][definition levels][values] */
  memset(&pg, 0, sizeof pg);
  memset(bytes, 0, sizeof bytes);
  pg.def_begin = 8;
  pg.values_end = 8 + 30;
  pg.def_pending = pg.rep_pending = 1;
  put32(bytes + 8, 27); /* 4 + 27 > 30 */
  assert_int_equal(gcol_detail_pq_place_levels(bytes, &pg), GCOL_DETAIL_PQ_E_REP_LENGTH);
  assert_true(pg.rep_pending == 0 && pg.def_pending == 0);
  assert_true(pg.rep_begin == 8 && pg.rep_end == 8 && pg.def_begin == 8 && pg.def_end == 8 &&
              pg.values_begin == 8);
  pg.def_pending = pg.rep_pending = 1;
  put32(bytes + 8, 3);
  put32(bytes + 15, 20); /* the definition levels' length: 4 + 20 > 30 - 7 */
  assert_int_equal(gcol_detail_pq_place_levels(bytes, &pg), GCOL_DETAIL_PQ_E_LEVELS_LENGTH);
  assert_true(pg.rep_begin == 12 && pg.rep_end == 15 && pg.def_begin == 15 && pg.def_end == 15 &&
              pg.values_begin == 15);
  pg.def_begin = 8;
  pg.def_pending = pg.rep_pending = 1;
  put32(bytes + 15, 5);
  assert_int_equal(gcol_detail_pq_place_levels(bytes, &pg), GCOL_DETAIL_PQ_E_OK);
  assert_true(pg.rep_begin == 12 && pg.rep_end == 15 && pg.def_begin == 19 && pg.def_end == 24 &&
              pg.values_begin == 24);
  assert_non_null(
      strstr(gcol_detail_parquet_page_error(GCOL_DETAIL_PQ_E_REP_LENGTH), "repetition levels'"));
  assert_non_null(
      strstr(gcol_detail_parquet_page_error(GCOL_DETAIL_PQ_E_REP_RANGE), "repetition level"));
  assert_non_null(
      strstr(gcol_detail_parquet_page_error(GCOL_DETAIL_PQ_E_REP_TRUNCATED), "repetition levels"));
}

/* The checks before nvCOMP (gcol_detail_pq_check_for_gpu) of a compressed block of `n`
 * bytes that holds `size` bytes: taken at its size, refused at one more or one less. */
static void expect_checked(int32_t codec, const uint8_t *block, int64_t n, int64_t size) {
  char why[192];
  if (!gcol_detail_pq_check_for_gpu(codec, block, n, size, why, (int)sizeof why)) {
    fail_msg("%s block of %lld bytes for %lld: %s", gcol_detail_pq_codec_name(codec), (long long)n,
             (long long)size, why);
  }
  assert_false(gcol_detail_pq_check_for_gpu(codec, block, n, size + 1, why, (int)sizeof why));
  assert_non_null(strstr(why, "another size"));
  if (size > 0) {
    assert_false(gcol_detail_pq_check_for_gpu(codec, block, n, size - 1, why, (int)sizeof why));
  }
}

/* The GPU's SNAPPY walk by windows (pq_walk.h), replayed serially: tables of every window
 * position, squared `levels` times, checkpoints every 2^levels elements, a walk from each in
 * order, the first finding winning. */
enum { WALK_WINDOW_MOST = 2048 };
static gcol_detail_pq_walk walk_by_windows(const uint8_t *src, int64_t size, int64_t out,
                                           int64_t window, int levels) {
  static uint16_t next[WALK_WINDOW_MOST + 1], wrote[WALK_WINDOW_MOST + 1];
  static uint16_t jump[2][WALK_WINDOW_MOST + 1], jump_wrote[2][WALK_WINDOW_MOST + 1];
  static uint16_t check[WALK_WINDOW_MOST + 1];
  static uint32_t need[WALK_WINDOW_MOST + 1];
  static int64_t check_op[WALK_WINDOW_MOST + 1];
  gcol_detail_pq_snappy_walker s = {0, 0};
  gcol_detail_pq_walk w = gcol_detail_pq_snappy_prefix(src, size, out, &s.ip);
  if (w.code != GCOL_DETAIL_PQ_WALK_OK) return w;
  for (;;) {
    int64_t const lo = s.ip;
    int64_t const hi = size - lo < window ? size : lo + window;
    int64_t const len = hi - lo;
    for (int64_t p = 0; p <= len; ++p) {
      gcol_detail_pq_snappy_entry(src + lo, len, p, next, wrote, need);
    }
    const uint16_t *from = next, *from_wrote = wrote;
    for (int level = 0; level < levels; ++level) {
      for (int64_t p = 0; p <= len; ++p) {
        gcol_detail_pq_snappy_square(from, from_wrote, p, jump[level % 2], jump_wrote[level % 2]);
      }
      from = jump[level % 2];
      from_wrote = jump_wrote[level % 2];
    }
    int32_t const n = gcol_detail_pq_snappy_checkpoints(from, from_wrote, s.op,
                                                        WALK_WINDOW_MOST + 1, check, check_op);
    for (int32_t t = 0; t < n; ++t) {
      gcol_detail_pq_snappy_walker from_here = {lo + check[t], check_op[t]};
      if (gcol_detail_pq_snappy_walk_from(src, size, out, lo, hi, next, wrote, need,
                                          t < n - 1 ? 1 << levels : -1, &from_here, &w)) {
        return w;
      }
      if (t == n - 1) s = from_here;
    }
  }
}

/* The walk by windows of 6, 37 and 2048 bytes, checkpoints every 2, 4 and 16 elements, finds
 * what the plain walk finds, numbers included. */
static void expect_windows_agree(int32_t codec, const uint8_t *block, int64_t n, int64_t size) {
  if (codec != GCOL_PARQUET_SNAPPY) return;
  gcol_detail_pq_walk const want = gcol_detail_pq_walk_snappy(block, n, size);
  int64_t const windows[] = {6, 37, WALK_WINDOW_MOST};
  int const levels[] = {1, 2, 4};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      gcol_detail_pq_walk const got = walk_by_windows(block, n, size, windows[i], levels[j]);
      if (got.code != want.code || got.a != want.a || got.b != want.b) {
        fail_msg("window %lld, hop %d: walk %d (%lld, %lld), by windows %d (%lld, %lld)",
                 (long long)windows[i], 1 << levels[j], want.code, (long long)want.a,
                 (long long)want.b, got.code, (long long)got.a, (long long)got.b);
      }
    }
  }
}

/* LZ4_RAW and SNAPPY blocks walked before nvCOMP: blocks the libraries write, of sizes around
 * LZ4's end-of-block limits, taken at their exact size only; garbage, cut blocks and
 * hand-made blocks that break one rule each refused; every mutation of a valid block that
 * the walk takes decompresses on the host to exactly that size (the walk is never looser
 * than the reference decoders). GZIP and ZSTD are not checked. */
static void test_checks_before_nvcomp(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1431);
  char why[192];
  int32_t const codecs[] = {GCOL_PARQUET_LZ4_RAW, GCOL_PARQUET_SNAPPY};
  int64_t const sizes[] = {0, 1, 5, 12, 13, 17, 64, 1000, 70000};
  enum { MOST = 70000 };
  uint8_t *data = (uint8_t *)malloc(MOST);
  uint8_t *back = (uint8_t *)malloc(MOST + 1);
  for (int ci = 0; ci < 2; ++ci) {
    int32_t const codec = codecs[ci];
    if (!codec_here(codec)) continue;
    uint8_t *block = (uint8_t *)malloc((size_t)gcol_detail_pq_compress_bound(codec, MOST));
    uint8_t *mutant = (uint8_t *)malloc((size_t)gcol_detail_pq_compress_bound(codec, MOST));
    for (int si = 0; si < 9; ++si) {
      int64_t const size = sizes[si];
      for (int64_t i = 0; i < size; ++i) { /* runs and repeats: matches of every length */
        data[i] = i % 97 < 40 ? (uint8_t)(i % 7) : (uint8_t)gcol_test_rng_next(&rng);
      }
      int64_t const n = gcol_detail_pq_compress(codec, data, size, block,
                                                gcol_detail_pq_compress_bound(codec, size));
      assert_true(n > 0);
      expect_checked(codec, block, n, size);
      expect_windows_agree(codec, block, n, size);
      expect_windows_agree(codec, block, n, size + 1);
      if (n > 1) { /* cut short */
        assert_false(gcol_detail_pq_check_for_gpu(codec, block, n - 1, size, why, 192));
        expect_windows_agree(codec, block, n - 1, size);
      }
      for (int k = 0; k < 300 && n > 0; ++k) { /* mutations */
        memcpy(mutant, block, (size_t)n);
        for (int m = 0; m < 1 + k % 3; ++m) {
          mutant[gcol_test_rng_next(&rng) % (uint64_t)n] = (uint8_t)gcol_test_rng_next(&rng);
        }
        expect_windows_agree(codec, mutant, n, size);
        if (!gcol_detail_pq_check_for_gpu(codec, mutant, n, size, why, 192)) continue;
        int const r = gcol_detail_pq_decompress(codec, mutant, n, back, size, why, 192);
        if (r != GCOL_DETAIL_PQ_CODEC_OK) {
          fail_msg("%s: a mutant the walk takes fails on the host: %s",
                   gcol_detail_pq_codec_name(codec), why);
        }
      }
    }
    memset(block, 0xff, 64); /* garbage: the GPU test's corrupt page */
    assert_false(gcol_detail_pq_check_for_gpu(codec, block, 64, 800, why, 192));
    expect_windows_agree(codec, block, 64, 800);
    /* random stretches of 300 bytes between repeats: literals of two length bytes */
    for (int64_t i = 0; i < 5000; ++i) {
      data[i] = i % 400 < 300 ? (uint8_t)gcol_test_rng_next(&rng) : (uint8_t)(i % 7);
    }
    int64_t const n = gcol_detail_pq_compress(codec, data, 5000, block,
                                              gcol_detail_pq_compress_bound(codec, 5000));
    assert_true(n > 0);
    expect_checked(codec, block, n, 5000);
    expect_windows_agree(codec, block, n, 5000);
    expect_windows_agree(codec, block, n - 1, 5000);
    free(block);
    free(mutant);
  }
  /* LZ4 blocks breaking one rule each: 13 literals "a".."m", a match at byte 13, 8 literals */
  static const uint8_t lits[] = {0xd0, 'a', 'b', 'c',  'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l',
                                 'm',  0,   0,   0x80, 'n', 'o', 'p', 'q', 'r', 's', 't', 'u'};
  uint8_t b[sizeof lits];
  memcpy(b, lits, sizeof lits); /* offset 0 */
  assert_false(gcol_detail_pq_check_for_gpu(GCOL_PARQUET_LZ4_RAW, b, sizeof b, 25, why, 192));
  assert_non_null(strstr(why, "offset"));
  b[14] = 14; /* offset past the start */
  assert_false(gcol_detail_pq_check_for_gpu(GCOL_PARQUET_LZ4_RAW, b, sizeof b, 25, why, 192));
  b[14] = 13; /* a valid block: 13 + 4 + 8 bytes */
  expect_checked(GCOL_PARQUET_LZ4_RAW, b, sizeof b, 25);
  /* a match of 19 (length extension 0) then 4 last literals: into the last 5 bytes */
  static const uint8_t tail[] = {0xdf, 'a', 'b', 'c', 'd', 'e', 'f',  'g', 'h', 'i', 'j',
                                 'k',  'l', 'm', 13,  0,   0,   0x40, 'n', 'o', 'p', 'q'};
  assert_false(gcol_detail_pq_check_for_gpu(GCOL_PARQUET_LZ4_RAW, tail, sizeof tail, 36, why, 192));
  assert_non_null(strstr(why, "last 5"));
  static const uint8_t early[] = {0x10, 'a', 0x01, 0x00, 0x50, 'b', 'c', 'd', 'e', 'f'};
  /* a match starting 11 bytes before the end of 12 */
  assert_false(
      gcol_detail_pq_check_for_gpu(GCOL_PARQUET_LZ4_RAW, early, sizeof early, 10, why, 192));
  assert_non_null(strstr(why, "near the end"));
  /* Snappy: a copy before the start, and a literal longer than the data */
  static const uint8_t sn[] = {0x08, 0x0c, 'a', 'b', 'c', 'd', 0x01, 0x05};
  assert_false(gcol_detail_pq_check_for_gpu(GCOL_PARQUET_SNAPPY, sn, sizeof sn, 8, why, 192));
  assert_non_null(strstr(why, "offset"));
  static const uint8_t sn_ok[] = {0x08, 0x0c, 'a', 'b', 'c', 'd', 0x01, 0x04};
  assert_true(gcol_detail_pq_check_for_gpu(GCOL_PARQUET_SNAPPY, sn_ok, sizeof sn_ok, 8, why, 192));
  assert_false(gcol_detail_pq_check_for_gpu(GCOL_PARQUET_SNAPPY, sn_ok, 5, 8, why, 192));
  expect_windows_agree(GCOL_PARQUET_SNAPPY, sn, sizeof sn, 8);
  expect_windows_agree(GCOL_PARQUET_SNAPPY, sn_ok, sizeof sn_ok, 8);
  expect_windows_agree(GCOL_PARQUET_SNAPPY, sn_ok, 5, 8);
  /* a copy of offset 0, and of offset 2^32 - 1 (the tables' sentinel): parsed for the message */
  static const uint8_t sn_zero[] = {0x08, 0x0c, 'a', 'b', 'c', 'd', 0x0f, 0, 0, 0, 0};
  static const uint8_t sn_far[] = {0x08, 0x0c, 'a', 'b', 'c', 'd', 0x0f, 0xff, 0xff, 0xff, 0xff};
  assert_false(
      gcol_detail_pq_check_for_gpu(GCOL_PARQUET_SNAPPY, sn_zero, sizeof sn_zero, 8, why, 192));
  expect_windows_agree(GCOL_PARQUET_SNAPPY, sn_zero, sizeof sn_zero, 8);
  expect_windows_agree(GCOL_PARQUET_SNAPPY, sn_far, sizeof sn_far, 8);
  /* not checked without decompressing */
  assert_true(gcol_detail_pq_check_for_gpu(GCOL_PARQUET_ZSTD, b, 4, 1000, why, 192));
  assert_true(gcol_detail_pq_check_for_gpu(GCOL_PARQUET_GZIP, b, 4, 1000, why, 192));
  free(data);
  free(back);
}

/* ------------------------------------------------------------------ the device buffer's upload */

/* The device buffer of a read, in host memory: gcol_detail_pq_upload's copies land here. */
typedef struct upload_image {
  uint8_t *bytes;
  int64_t size;
  int64_t copies;
} upload_image;

static int copy_to_image(void *user, int64_t dev, const void *src, int64_t size) {
  upload_image *im = (upload_image *)user;
  assert_true(dev >= 0 && size > 0 && dev + size <= im->size);
  memcpy(im->bytes + dev, src, (size_t)size);
  ++im->copies;
  return 0;
}

/* Uploads `n` plans as the GPU reader does (pinned or not) into a host image and checks that
 * every byte the decoders read is the plan's: each segment not left to nvCOMP, the page and
 * dictionary tables, the job table; and that the staging buffer is large enough. */
static void check_upload(const gcol_detail_pq_column_plan *plans, int32_t n, bool pinned) {
  gcol_detail_pq_at at[NUM_COLS];
  uint8_t jobs[40];
  for (int i = 0; i < 40; ++i) jobs[i] = (uint8_t)(i + 1);
  int64_t jobs_at = 0;
  assert_true(n <= NUM_COLS);
  int64_t const total = gcol_detail_pq_layout(plans, n, (int64_t)sizeof jobs, at, &jobs_at);
  int64_t const staged = gcol_detail_pq_staged_bytes(plans, n, pinned, (int64_t)sizeof jobs);
  uint8_t *staging = (uint8_t *)malloc((size_t)staged + 64);
  memset(staging + staged, 0xcd, 64); /* a guard past what was asked for */
  upload_image im = {(uint8_t *)malloc((size_t)total), total, 0};
  memset(im.bytes, 0xee, (size_t)total);
  assert_int_equal(gcol_detail_pq_upload(plans, n, pinned, at, jobs, (int64_t)sizeof jobs, jobs_at,
                                         staging, copy_to_image, &im),
                   0);
  for (int i = 0; i < 64; ++i) assert_int_equal(staging[staged + i], 0xcd);
  for (int32_t c = 0; c < n; ++c) {
    const gcol_detail_pq_column_plan *p = &plans[c];
    for (int32_t i = 0; i < p->num_segments; ++i) {
      gcol_detail_pq_segment const g = p->segments[i];
      if (g.src == NULL && g.owned < 0) continue;
      const uint8_t *want = g.src != NULL ? g.src : p->bytes + g.owned;
      if (memcmp(im.bytes + at[c].bytes + g.begin, want, (size_t)g.size) != 0) {
        fail_msg("column %d, segment %d of %d: other bytes on the device", c, i, p->num_segments);
      }
    }
    if (memcmp(im.bytes + at[c].pages, p->pages, (size_t)p->num_pages * sizeof *p->pages) != 0) {
      fail_msg("column %d: its %d pages' table differs on the device", c, p->num_pages);
    }
    if (memcmp(im.bytes + at[c].dicts, p->dicts, (size_t)p->num_dicts * sizeof *p->dicts) != 0) {
      fail_msg("column %d: its %d dictionaries' table differs on the device", c, p->num_dicts);
    }
  }
  assert_memory_equal(im.bytes + jobs_at, jobs, sizeof jobs);
  free(im.bytes);
  free(staging);
}

/* Plans every column of a file as the reader does (borrowed from the buffer; with `lib`, its
 * codec's pages left as jobs) and checks its upload, pinned and not. */
static void check_file_upload(const uint8_t *file, int64_t size, const gcol_detail_nvcomp *lib) {
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
  int32_t groups[64];
  assert_true(md->num_row_groups <= 64 && md->num_leaves <= NUM_COLS);
  for (int32_t g = 0; g < md->num_row_groups; ++g) groups[g] = g;
  gcol_detail_pq_column_plan plans[NUM_COLS];
  int32_t const n = md->num_leaves;
  for (int32_t k = 0; k < n; ++k) {
    GCOL_TEST_OK(
        gcol_detail_parquet_plan_column_borrow(&src, file, md, k, groups, md->num_row_groups,
                                               lib != NULL ? lib->codecs : 0, lib, &plans[k]));
  }
  check_upload(plans, n, false);
  check_upload(plans, n, true);
  for (int32_t k = 0; k < n; ++k) gcol_detail_parquet_plan_free(&plans[k]);
  gcol_parquet_metadata_free(md);
}

/* The upload of several columns whose page tables are small: a later column's tables used to
 * be joined to its bytes' run by copying the gap between them as zeros, and that gap holds
 * the earlier columns' tables (the layout puts every column's bytes first), so a column's
 * page table was zeroed on the device: wrong values read (test_gpu_write_pages_and_groups)
 * or sizes from uninitialized memory (test_parallel_long_strings_and_tiny_pages). Files of
 * one and of four row groups, uncompressed, host-decompressed and left to nvCOMP with
 * aligned inputs and outputs; the long strings and one-row pages of the GPU case. */
static void test_upload_of_several_columns(void **state) {
  (void)state;
  make_data(31);
  for (int variant = 0; variant < 4; ++variant) {
    pqb_column cols[NUM_COLS];
    int64_t const per_group[] = {ROWS, 250};
    for (int gi = 0; gi < 2; ++gi) {
      int64_t size = 0;
      uint8_t *file = build(variant, per_group[gi], &size, cols);
      check_file_upload(file, size, NULL);
      free(file);
      for (int c = 0; c < NUM_CODECS; ++c) {
        if (!codec_here(all_codecs[c])) continue;
        file = build_compressed(variant, all_codecs[c], per_group[gi], &size, cols);
        check_file_upload(file, size, NULL); /* decompressed on the host */
        gcol_detail_nvcomp lib;
        memset(&lib, 0, sizeof lib);
        lib.codecs = UINT32_C(1) << all_codecs[c];
        lib.in_alignment[all_codecs[c]] = 64;
        lib.out_alignment[all_codecs[c]] = 64;
        check_file_upload(file, size, &lib); /* pages left to nvCOMP, gaps between them */
        free(file);
      }
    }
  }
  /* test_parallel_long_strings_and_tiny_pages' file, with shorter long strings */
  enum { N = 40, LONG = 3000 };
  static const char *strs[N];
  static int64_t ints[N];
  static uint8_t valid[N], valid2[N];
  static char store[N][LONG + 1];
  for (int i = 0; i < N; ++i) {
    int const len = i % 4 == 0 ? LONG - i : i % 4 == 1 ? 0 : 1 + i;
    for (int j = 0; j < len; ++j) store[i][j] = (char)('a' + (i * 7 + j) % 26);
    store[i][len] = 0;
    strs[i] = store[i];
    valid[i] = i % 4 != 2;
    ints[i] = 1000 - i;
    valid2[i] = i % 3 != 0;
  }
  pqb_column c[2];
  c[0] = col_base("long", GCOL_PARQUET_BYTE_ARRAY);
  c[0].strings = strs;
  c[0].optional = true;
  c[0].valid = valid;
  c[0].rows_per_page = 16;
  c[1] = col_base("one_row_pages", GCOL_PARQUET_INT32);
  c[1].ints = ints;
  c[1].optional = true;
  c[1].valid = valid2;
  c[1].rows_per_page = 1;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 2;
  f.columns = c;
  f.num_rows = N;
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  assert_non_null(file);
  check_file_upload(file, size, NULL);
  free(file);
}

/* The loader: GCOL_NVCOMP=off, a path that does not exist, a directory without the library
 * and, where the wheel's library is at GCOL_TEST_NVCOMP_LIB (or /tmp/nvc/...), the real one:
 * version, codecs, alignments and temporary sizes (host-only calls). */
static void test_nvcomp_loader(void **state) {
  (void)state;
  gcol_detail_nvcomp lib;
  gcol_detail_nvcomp_open("/nonexistent/libnvcomp.so.5", "off", &lib);
  assert_int_equal(lib.codecs, 0);
  assert_non_null(strstr(lib.why, "GCOL_NVCOMP=off"));
  gcol_detail_nvcomp_open("/nonexistent/libnvcomp.so.5", NULL, &lib);
  assert_int_equal(lib.codecs, 0);
  assert_non_null(strstr(lib.why, "/nonexistent/libnvcomp.so.5"));
  gcol_detail_nvcomp_open("/", NULL, &lib); /* a directory: its libnvcomp.so.6, then .5 */
  assert_int_equal(lib.codecs, 0);
  assert_non_null(strstr(lib.why, "/libnvcomp.so.5"));
  gcol_detail_nvcomp_open("/nonexistent/libc.so.6", NULL, &lib);
  assert_int_equal(lib.codecs, 0);
  /* a library without nvCOMP's symbols */
  gcol_detail_nvcomp_open("libc.so.6", NULL, &lib);
  assert_int_equal(lib.codecs, 0);
  assert_non_null(strstr(lib.why, "nvcompGetProperties"));
  size_t temp = 7;
  assert_int_equal(gcol_detail_nvcomp_temp_size(&lib, GCOL_PARQUET_SNAPPY, 1, 1, 1, &temp), -1);
  assert_int_equal(temp, 0);
  const char *real = getenv("GCOL_TEST_NVCOMP_LIB");
  if (real == NULL) real = "/tmp/nvc/nvidia/libnvcomp/lib64/libnvcomp.so.5";
  if (access(real, R_OK) != 0) {
    print_message("# SKIP the real nvCOMP: %s not found (GCOL_TEST_NVCOMP_LIB)\n", real);
    return;
  }
  gcol_detail_nvcomp_open(real, NULL, &lib);
  if (lib.codecs == 0) fail_msg("%s: %s", real, lib.why);
  assert_true(lib.version >= 5000 && lib.version < 7000);
  for (int c = 0; c < NUM_CODECS; ++c) {
    int32_t const codec = all_codecs[c];
    assert_true((lib.codecs >> codec & 1u) != 0);
    assert_true(lib.in_alignment[codec] >= 1 && lib.in_alignment[codec] <= 256);
    assert_true(lib.out_alignment[codec] >= 1 && lib.out_alignment[codec] <= 256);
    temp = 0;
    assert_int_equal(gcol_detail_nvcomp_temp_size(&lib, codec, 100, 1 << 20, 100 << 20, &temp), 0);
  }
  assert_int_equal(lib.codecs >> GCOL_PARQUET_BROTLI & 1u, 0);
  /* the directory form finds the same file */
  char dir[512];
  snprintf(dir, sizeof dir, "%s", real);
  char *slash = strrchr(dir, '/');
  if (slash != NULL && strstr(real, "libnvcomp.so.") != NULL) {
    *slash = '\0';
    gcol_detail_nvcomp_open(dir, NULL, &lib);
    assert_true(lib.codecs != 0);
    assert_non_null(strstr(lib.file, "libnvcomp.so."));
  }
}

/* options.untrusted: the reader leaves no codec to nvCOMP; otherwise every codec nvCOMP has. */
static void test_untrusted_option(void **state) {
  (void)state;
  gcol_parquet_read_options o;
  memset(&o, 0xff, sizeof o);
  gcol_parquet_read_options_init(&o);
  assert_false(o.untrusted);
  gcol_detail_nvcomp lib;
  memset(&lib, 0, sizeof lib);
  lib.codecs = UINT32_C(1) << GCOL_PARQUET_SNAPPY | UINT32_C(1) << GCOL_PARQUET_ZSTD;
  assert_int_equal(gcol_detail_parquet_gpu_codecs(&o, &lib), lib.codecs);
  assert_int_equal(gcol_detail_parquet_gpu_codecs(NULL, &lib), lib.codecs);
  assert_int_equal(gcol_detail_parquet_gpu_codecs(&o, NULL), 0);
  o.untrusted = true;
  assert_int_equal(gcol_detail_parquet_gpu_codecs(&o, &lib), 0);
}

/* The offset of the body of data page `page` (dictionary pages counted) of a file's first
 * column chunk, and its header. */
static int64_t page_body(const uint8_t *file, int64_t size, int page,
                         gcol_detail_pq_page_header *h) {
  int64_t pos = 4;
  for (int p = 0;; ++p) {
    int64_t hs = 0;
    char err[128];
    assert_true(gcol_detail_parquet_parse_page_header(file + pos, size - pos, h, &hs, err, 128));
    if (p == page) return pos + hs;
    pos += hs + h->compressed_size;
  }
}

static void test_compressed_bad_pages(void **state) {
  (void)state;
  make_data(7);
  pqb_column c = col_base("x", GCOL_PARQUET_INT64);
  c.ints = pq_data.big;
  c.rows_per_page = 100;
  pqb_file f = pqb_one_column(&c, ROWS);
  int64_t size = 0;
  uint8_t *file = NULL;
  char needle[96];
  for (int k = 0; k < NUM_CODECS; ++k) {
    int32_t const codec = all_codecs[k];
    if (!codec_here(codec)) continue;
    const char *name = gcol_detail_pq_codec_name(codec);
    for (int v = 1; v <= 2; ++v) {
      c.page_version = v;
      c.optional = v == 2;
      c.valid = v == 2 ? pq_data.valid : NULL;
      c.codec = codec;
      /* the header's uncompressed size one more and one less than the data's */
      for (int lie = -1; lie <= 1; lie += 2) {
        c.lie_uncompressed_size = lie;
        file = pqb_build(&f, &size);
        assert_non_null(file);
        expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT, "page 0");
        expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT, name);
        free(file);
      }
      if (v == 2) { /* values said not to be compressed, and sizes that disagree */
        c.v2_uncompressed = true;
        c.lie_uncompressed_size = 1;
        file = pqb_build(&f, &size);
        expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT, "marked not compressed");
        free(file);
        c.v2_uncompressed = false;
      }
      /* a size no page of this data can reach: refused before any allocation */
      c.lie_uncompressed_size = 1 << 29;
      file = pqb_build(&f, &size);
      expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT, "can hold");
      free(file);
      c.lie_uncompressed_size = 0;
      /* page 2's compressed values overwritten with 0xff */
      file = pqb_build(&f, &size);
      gcol_detail_pq_page_header h;
      int64_t const body = page_body(file, size, 2, &h);
      int64_t const levels = v == 2 ? h.def_length : 0;
      memset(file + body + levels, 0xff, (size_t)(h.compressed_size - levels));
      snprintf(needle, sizeof needle, "page 2: %s data", name);
      expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT, needle);
      /* the library missing: named, with the codec and the page */
      gcol_detail_pq_codec_hide(codec, true);
      snprintf(needle, sizeof needle, "page 0: %s needs %s, not found", name,
               gcol_detail_pq_codec_library(codec));
      expect_plan_error(file, size, 0, GCOL_ERROR_UNSUPPORTED, needle);
      /* the public read on the host path stops there too, before any GPU work (nvCOMP,
       * when this process has it, needs no host library: untrusted keeps it out) */
      gcol_table *t = NULL;
      gcol_parquet_read_options host_only;
      gcol_parquet_read_options_init(&host_only);
      host_only.untrusted = true;
      GCOL_TEST_STATUS(gcol_parquet_read_buffer(file, size, &host_only, &t, NULL, NULL),
                       GCOL_ERROR_UNSUPPORTED);
      assert_null(t);
      assert_non_null(strstr(gcol_last_error(), needle));
      gcol_detail_pq_codec_hide(codec, false);
      free(file);
    }
    c.page_version = 1;
    c.optional = false;
    c.valid = NULL;
    c.codec = 0;
  }
  /* codecs gcol does not read */
  int32_t const others[] = {GCOL_PARQUET_LZO, GCOL_PARQUET_BROTLI, GCOL_PARQUET_LZ4};
  for (int k = 0; k < 3; ++k) {
    c.lie_codec = others[k];
    file = pqb_build(&f, &size);
    snprintf(needle, sizeof needle, "codec %s is not supported",
             gcol_detail_pq_codec_name(others[k]));
    expect_plan_error(file, size, 0, GCOL_ERROR_UNSUPPORTED, needle);
    free(file);
  }
  /* an uncompressed chunk that claims SNAPPY: its pages are not snappy data */
  c.lie_codec = GCOL_PARQUET_SNAPPY;
  file = pqb_build(&f, &size);
  expect_plan_error(file, size, 0,
                    gcol_detail_pq_codec_available(GCOL_PARQUET_SNAPPY)
                        ? GCOL_ERROR_INVALID_ARGUMENT
                        : GCOL_ERROR_UNSUPPORTED,
                    "page 0: SNAPPY");
  free(file);
  c.lie_codec = 0;
}

/* ------------------------------------------------------------------ row groups by statistics */

static void expect_groups(const gcol_parquet_metadata *md, int32_t column, gcol_parquet_compare op,
                          bool is_float, int64_t iv, double fv, const int32_t *want, int32_t n) {
  int32_t got[8];
  int32_t count = -1;
  if (is_float) {
    GCOL_TEST_OK(gcol_parquet_metadata_filter_row_groups_f64(md, column, op, fv, got, &count));
  } else {
    GCOL_TEST_OK(gcol_parquet_metadata_filter_row_groups(md, column, op, iv, got, &count));
  }
  if (count != n)
    fail_msg("column %d op %d: %d row groups kept, expected %d", column, op, count, n);
  for (int32_t i = 0; i < n; ++i) assert_int_equal(got[i], want[i]);
}

static void test_row_groups_by_statistics(void **state) {
  (void)state;
  static int64_t seq[ROWS], big[ROWS];
  static double half[ROWS];
  static uint8_t none[ROWS];
  for (int i = 0; i < ROWS; ++i) {
    seq[i] = i;
    big[i] = (int64_t)((UINT64_C(1) << 63) + (uint64_t)i);
    half[i] = i * 0.5;
    none[i] = 0;
  }
  pqb_column c[4];
  c[0] = col_base("seq", GCOL_PARQUET_INT64);
  c[0].ints = seq;
  c[1] = col_base("half", GCOL_PARQUET_DOUBLE);
  c[1].reals = half;
  c[2] = col_base("u64", GCOL_PARQUET_INT64);
  c[2].ints = big;
  c[2].logical = GCOL_PARQUET_LOGICAL_INTEGER;
  c[2].bit_width = 64;
  c[3] = col_base("nothing", GCOL_PARQUET_INT64);
  c[3].ints = seq;
  c[3].optional = true;
  c[3].valid = none;
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = 4;
  f.columns = c;
  f.num_rows = ROWS;
  f.rows_per_group = 250;
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  int32_t const g0[] = {0}, g1[] = {1}, g3[] = {3}, g01[] = {0, 1}, g23[] = {2, 3};
  expect_groups(md, 0, GCOL_PARQUET_EQUAL, false, 300, 0, g1, 1);
  expect_groups(md, 0, GCOL_PARQUET_EQUAL, false, -5, 0, NULL, 0);
  expect_groups(md, 0, GCOL_PARQUET_LESS, false, 250, 0, g0, 1);
  expect_groups(md, 0, GCOL_PARQUET_LESS_EQUAL, false, 250, 0, g01, 2);
  expect_groups(md, 0, GCOL_PARQUET_GREATER, false, 749, 0, g3, 1);
  expect_groups(md, 0, GCOL_PARQUET_GREATER_EQUAL, false, 749, 0, g23, 2);
  expect_groups(md, 0, GCOL_PARQUET_GREATER, true, 0, 748.5, g23, 2);
  expect_groups(md, 1, GCOL_PARQUET_GREATER, true, 0, 374.5, g3, 1);
  expect_groups(md, 1, GCOL_PARQUET_EQUAL, false, 100, 0, g0, 1);
  /* unsigned: 2^63 + 900 compares above 2^63 + 749, not as a negative number */
  expect_groups(md, 2, GCOL_PARQUET_GREATER, false, (int64_t)((UINT64_C(1) << 63) + 900), 0, g3, 1);
  expect_groups(md, 2, GCOL_PARQUET_LESS, false, 5, 0, NULL, 0);
  expect_groups(md, 3, GCOL_PARQUET_GREATER_EQUAL, false, INT64_MIN, 0, NULL, 0);
  int32_t out[4];
  int32_t n = 0;
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups(md, 4, GCOL_PARQUET_EQUAL, 0, out, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(
      gcol_parquet_metadata_filter_row_groups(md, 0, (gcol_parquet_compare)9, 0, out, &n),
      GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_parquet_metadata_filter_row_groups(md, 0, GCOL_PARQUET_EQUAL, 0, NULL, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_parquet_metadata_free(md);
  free(file);
}

/* ------------------------------------------------------------------ writer */

static void test_writer_on_the_host(void **state) {
  (void)state;
  make_data(6);
  enum { N = ROWS, K = 10 };
  static int8_t i8[N];
  static uint32_t u32[N];
  static float f32[N];
  static uint8_t b8[N];
  static int32_t day[N];
  static int64_t offsets[N + 1];
  static char chars[N * 24];
  int64_t at = 0;
  for (int i = 0; i < N; ++i) {
    i8[i] = (int8_t)pq_data.small[i];
    u32[i] = (uint32_t)pq_data.big[i];
    f32[i] = i % 97 == 5 ? NAN : (float)pq_data.reals[i];
    b8[i] = (uint8_t)pq_data.bools[i];
    day[i] = (int32_t)pq_data.ints[i] / 100;
    offsets[i] = at;
    size_t const n = strlen(pq_data.strings[i]);
    memcpy(chars + at, pq_data.strings[i], n);
    at += (int64_t)n;
  }
  offsets[N] = at;
  gcol_detail_pq_host_column cols[K];
  memset(cols, 0, sizeof cols);
  const char *const names[K] = {"i8",   "u32", "i64",   "f32",   "f64",
                                "flag", "day", "ts_ns", "price", "name"};
  gcol_type_id const ids[K] = {
      GCOL_INT8,      GCOL_UINT32, GCOL_INT64,          GCOL_FLOAT32,
      GCOL_FLOAT64,   GCOL_BOOL8,  GCOL_TIMESTAMP_DAYS, GCOL_TIMESTAMP_NANOSECONDS,
      GCOL_DECIMAL64, GCOL_STRING};
  const void *datas[K] = {i8, u32, pq_data.big, f32,         pq_data.reals,
                          b8, day, pq_data.big, pq_data.big, NULL};
  for (int k = 0; k < K; ++k) {
    cols[k].name = names[k];
    cols[k].type = ids[k] == GCOL_DECIMAL64 ? gcol_data_type_decimal(GCOL_DECIMAL64, -3)
                                            : gcol_data_type_make(ids[k]);
    cols[k].data = datas[k];
    cols[k].valid = k % 2 == 0 ? pq_data.valid : NULL;
  }
  cols[K - 1].offsets = offsets;
  cols[K - 1].chars = chars;
  const char *const keys[] = {"origin"};
  const char *const values[] = {"gcol test"};
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.row_group_rows = 300;
  opt.keys = keys;
  opt.values = values;
  opt.num_key_values = 1;
  uint8_t *file = NULL;
  int64_t size = 0;
  /* uncompressed, then every codec whose library is here: the same values read back */
  int32_t const codecs[] = {GCOL_PARQUET_UNCOMPRESSED, GCOL_PARQUET_SNAPPY, GCOL_PARQUET_ZSTD,
                            GCOL_PARQUET_GZIP, GCOL_PARQUET_LZ4_RAW};
  int64_t uncompressed_file_size = 0;
  for (int ci = 0; ci < 5; ++ci) {
    if (ci > 0 && !codec_here(codecs[ci])) continue;
    opt.codec = (gcol_parquet_codec)codecs[ci];
    GCOL_TEST_OK(gcol_detail_parquet_write_host(cols, K, N, &opt, &file, &size));

    gcol_parquet_metadata *md = NULL;
    GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
    if (ci == 0)
      uncompressed_file_size = size;
    else
      assert_true(size < uncompressed_file_size);
    assert_int_equal(gcol_parquet_metadata_num_rows(md), N);
    assert_int_equal(gcol_parquet_metadata_num_row_groups(md), 4);
    assert_int_equal(gcol_parquet_metadata_num_key_values(md), 1);
    for (int k = 0; k < K; ++k) {
      gcol_parquet_column_info info;
      GCOL_TEST_OK(gcol_parquet_metadata_column(md, k, &info));
      assert_string_equal(info.name, names[k]);
      assert_int_equal(info.type.id, ids[k]);
      assert_int_equal(info.type.scale, cols[k].type.scale);
      assert_int_equal(info.nullable, k % 2 == 0);
    }
    /* statistics of row group 1 */
    for (int k = 0; k < K; ++k) {
      gcol_parquet_statistics st;
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, 1, k, &st));
      assert_int_equal(st.codec, codecs[ci]);
      if (ci == 0) assert_int_equal(st.compressed_size, st.uncompressed_size);
      int64_t nulls = 0;
      for (int r = 300; r < 600; ++r) nulls += cols[k].valid != NULL && !cols[k].valid[r];
      assert_int_equal(st.null_count, nulls);
      assert_true(st.has_min_max);
      if (ids[k] == GCOL_FLOAT32) { /* NaN left out */
        float lo = INFINITY, hi = -INFINITY;
        for (int r = 300; r < 600; ++r) {
          if (!isnan(f32[r])) {
            lo = f32[r] < lo ? f32[r] : lo;
            hi = f32[r] > hi ? f32[r] : hi;
          }
        }
        assert_true(st.min_f64 == lo && st.max_f64 == hi);
      }
      if (ids[k] == GCOL_UINT32) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int r = 300; r < 600; ++r) {
          lo = u32[r] < lo ? u32[r] : lo;
          hi = u32[r] > hi ? u32[r] : hi;
        }
        assert_true(st.min_i64 == lo && st.max_i64 == hi);
      }
    }
    /* every value back through the plan and the page decoders */
    gcol_detail_pq_file src;
    gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
    int32_t const groups[] = {0, 1, 2, 3};
    for (int k = 0; k < K; ++k) {
      gcol_detail_pq_column_plan plan;
      GCOL_TEST_OK(gcol_detail_parquet_plan_column(&src, md, k, groups, 4, &plan));
      uint64_t *vals = (uint64_t *)malloc(N * 8);
      int64_t *pos = (int64_t *)malloc(N * 8);
      int64_t *len = (int64_t *)malloc(N * 8);
      uint8_t *valid = (uint8_t *)malloc(N);
      int32_t bad = 0;
      bool is_dict = false;
      assert_int_equal(gcol_detail_parquet_decode_column_host(&plan, vals, NULL, pos, len, valid,
                                                              &bad, &is_dict),
                       0);
      size_t const w = gcol_type_size(ids[k]);
      for (int r = 0; r < N; ++r) {
        bool const v = cols[k].valid == NULL || cols[k].valid[r];
        assert_int_equal(valid[r], v);
        if (!v) continue;
        if (ids[k] == GCOL_STRING) {
          assert_int_equal(len[r], offsets[r + 1] - offsets[r]);
          assert_memory_equal(plan.bytes + pos[r], chars + offsets[r], (size_t)len[r]);
        } else if (memcmp(&vals[r], (const uint8_t *)datas[k] + (size_t)r * w, w) != 0) {
          fail_msg("column %s row %d differs", names[k], r);
        }
      }
      free(vals);
      free(pos);
      free(len);
      free(valid);
      gcol_detail_parquet_plan_free(&plan);
    }
    gcol_parquet_metadata_free(md);
    free(file);
  }
  opt.codec = GCOL_PARQUET_UNCOMPRESSED;

  /* codecs the writer does not write, and a library that is missing */
  opt.codec = GCOL_PARQUET_BROTLI;
  file = NULL;
  GCOL_TEST_STATUS(gcol_detail_parquet_write_host(cols, K, N, &opt, &file, &size),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(file);
  assert_non_null(strstr(gcol_last_error(), "BROTLI"));
  gcol_detail_pq_codec_hide(GCOL_PARQUET_ZSTD, true);
  opt.codec = GCOL_PARQUET_ZSTD;
  GCOL_TEST_STATUS(gcol_detail_parquet_write_host(cols, K, N, &opt, &file, &size),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(file);
  assert_non_null(strstr(gcol_last_error(), "ZSTD needs libzstd.so.1, not found"));
  gcol_detail_pq_codec_hide(GCOL_PARQUET_ZSTD, false);
  opt.codec = GCOL_PARQUET_UNCOMPRESSED;

  /* a type Parquet cannot hold yet */
  cols[0].type = gcol_data_type_make(GCOL_DURATION_SECONDS);
  cols[0].data = pq_data.big;
  file = NULL;
  GCOL_TEST_STATUS(gcol_detail_parquet_write_host(cols, K, N, &opt, &file, &size),
                   GCOL_ERROR_UNSUPPORTED);
  assert_null(file);
  assert_non_null(strstr(gcol_last_error(), "duration[s]"));
}

/* ------------------------------------------------------------------ FIXED_LEN_BYTE_ARRAY */

/* Every half against the reference computed through double, and a few known bits. */
static void test_half_to_float(void **state) {
  (void)state;
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    uint32_t const got = gcol_detail_pq_half_to_float_bits((uint16_t)h);
    if (got != half_reference((uint16_t)h)) {
      fail_msg("half %04x: %08x, expected %08x", h, got, half_reference((uint16_t)h));
    }
  }
  static const uint32_t known[][2] = {
      {0x0000, 0x00000000}, {0x8000, 0x80000000}, /* +-0 */
      {0x0001, 0x33800000}, {0x03ff, 0x387fc000}, /* 2^-24, the largest subnormal */
      {0x0400, 0x38800000}, {0x7bff, 0x477fe000}, /* 2^-14, 65504 */
      {0x3c00, 0x3f800000}, {0xc000, 0xc0000000}, /* 1, -2 */
      {0x7c00, 0x7f800000}, {0xfc00, 0xff800000}, /* +-inf */
      {0x7e00, 0x7fc00000}, {0x7d01, 0x7fa02000}, /* NaNs keep their payload */
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i) {
    assert_int_equal(gcol_detail_pq_half_to_float_bits((uint16_t)known[i][0]), known[i][1]);
  }
}

/* Replaces plan->bytes with the byte space its segments describe (as the device holds it). */
static void flatten_segments(gcol_detail_pq_column_plan *plan) {
  uint8_t *space = (uint8_t *)malloc((size_t)plan->num_bytes + 1);
  for (int32_t i = 0; i < plan->num_segments; ++i) {
    gcol_detail_pq_segment const g = plan->segments[i];
    memcpy(space + g.begin, g.src != NULL ? g.src : plan->bytes + g.owned, (size_t)g.size);
  }
  free(plan->bytes);
  plan->bytes = space;
}

/* Decodes a plan of FLBA column `c` on the host and compares every row with what was written:
 * a string of its bytes, or the float32 bits of its half. */
static void check_flba_plan(const gcol_detail_pq_column_plan *plan, const pqb_column *c,
                            gcol_type_id id) {
  int64_t const n = plan->num_rows;
  int64_t const width = c->type_length;
  uint64_t *values = (uint64_t *)malloc((size_t)n * 8 + 8);
  int64_t *pos = (int64_t *)malloc((size_t)n * 8 + 8);
  int64_t *len = (int64_t *)malloc((size_t)n * 8 + 8);
  uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
  int32_t bad = 0;
  bool is_dict = false;
  assert_int_equal(n, ROWS);
  assert_int_equal(plan->type.id, id);
  for (int32_t p = 0; p < plan->num_pages; ++p) { /* split and delta pages were rewritten */
    int32_t const e = plan->pages[p].encoding;
    assert_true(e == GCOL_DETAIL_PQ_VALUES_PLAIN || e == GCOL_DETAIL_PQ_VALUES_DICT);
  }
  int const code =
      gcol_detail_parquet_decode_column_host(plan, values, NULL, pos, len, valid, &bad, &is_dict);
  if (code != 0) fail_msg("%s: %s (page %d)", c->name, gcol_detail_parquet_page_error(code), bad);
  for (int64_t r = 0; r < n; ++r) {
    bool const v = c->valid == NULL || c->valid[r];
    if (valid[r] != v) fail_msg("%s row %lld: valid %d", c->name, (long long)r, valid[r]);
    if (!v) continue;
    const uint8_t *want = c->fixed + r * width;
    if (id == GCOL_STRING) {
      assert_int_equal(len[r], width);
      if (memcmp(plan->bytes + pos[r], want, (size_t)width) != 0) {
        fail_msg("%s row %lld: bytes differ", c->name, (long long)r);
      }
    } else if ((uint32_t)values[r] != half_reference((uint16_t)(want[0] | want[1] << 8))) {
      fail_msg("%s row %lld: %08x for half %02x%02x", c->name, (long long)r, (uint32_t)values[r],
               want[1], want[0]);
    }
  }
  free(values);
  free(pos);
  free(len);
  free(valid);
}

/* Plans every column of an FLBA file as the host decode does, as the GPU reader does
 * (chunks borrowed from the file) and, with gpu_codec set, with its pages left to nvCOMP;
 * checks the types the metadata reports and every value. */
static void check_flba_file(const uint8_t *file, int64_t size, const pqb_column *cols) {
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
  int32_t groups[64];
  int32_t const ng = md->num_row_groups;
  for (int32_t g = 0; g < ng; ++g) groups[g] = g;
  for (int32_t k = 0; k < FLBA_COLS; ++k) {
    gcol_parquet_column_info info;
    GCOL_TEST_OK(gcol_parquet_metadata_column(md, k, &info));
    assert_int_equal(info.type.id, flba_type_id(k));
    assert_int_equal(info.type_length, cols[k].type_length);
    assert_int_equal(info.logical_type, cols[k].logical);
    for (int pass = 0; pass < 3; ++pass) {
      gcol_detail_pq_column_plan plan;
      if (pass == 0) {
        GCOL_TEST_OK(gcol_detail_parquet_plan_column(&src, md, k, groups, ng, &plan));
      } else if (pass == 1) {
        GCOL_TEST_OK(
            gcol_detail_parquet_plan_column_borrow(&src, file, md, k, groups, ng, 0, NULL, &plan));
        flatten_segments(&plan);
      } else if (gpu_codec >= 0) {
        plan_as_gpu(file, &src, md, k, groups, ng, &plan);
      } else {
        continue;
      }
      check_flba_plan(&plan, &cols[k], flba_type_id(k));
      gcol_detail_parquet_plan_free(&plan);
    }
  }
  gcol_parquet_metadata_free(md);
}

/* Binary (16 and 3 bytes), UUID and FLOAT16 columns with nulls: PLAIN, dictionary,
 * DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT pages, v1 and v2, one or several row groups,
 * uncompressed and compressed by each codec here (decompressed on the host, and planned for
 * nvCOMP: split and delta pages are still decompressed on the host to be rewritten). */
static void test_flba_pages(void **state) {
  (void)state;
  make_flba_data(41);
  for (int variant = 0; variant < FLBA_VARIANTS; ++variant) {
    pqb_column cols[FLBA_COLS];
    for (int64_t per_group = 250; per_group <= ROWS; per_group *= 4) {
      int64_t size = 0;
      uint8_t *file = build_flba(variant, 0, per_group, &size, cols);
      check_flba_file(file, size, cols);
      free(file);
    }
    for (int c = 0; c < NUM_CODECS; ++c) {
      if (!codec_here(all_codecs[c])) continue;
      int64_t size = 0;
      uint8_t *file = build_flba(variant, all_codecs[c], 250, &size, cols);
      gpu_codec = all_codecs[c];
      gpu_in_alignment = c % 2 == 0 ? 1 : 4;
      gpu_alignment = 8;
      gpu_jobs_seen = 0;
      check_flba_file(file, size, cols);
      gpu_codec = -1;
      /* split and delta pages are rewritten on the host: only their dictionaries or none */
      if (variant % 4 == 0 || variant % 4 == 1) assert_true(gpu_jobs_seen > 0);
      free(file);
    }
  }
}

/* One FLBA column "x" of `length` bytes per value (the bytes of pq_flba.uuid), `logical`,
 * `converted` (-1: none), PLAIN, pages of 100 rows. */
static pqb_column flba_column(int32_t length, int32_t logical, int32_t converted) {
  pqb_column c = col_base("x", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c.type_length = length;
  c.fixed = pq_flba.uuid;
  c.logical = logical;
  c.converted_type = converted;
  c.rows_per_page = 100;
  return c;
}

/* Expects the metadata to report column 0 as EMPTY and a plan of it to fail with `expected`
 * and `needle` in the message, the column named. */
static void expect_flba_refused(const pqb_column *c, gcol_status expected, const char *needle) {
  pqb_file f = pqb_one_column(c, ROWS / 2);
  int64_t size = 0;
  uint8_t *file = pqb_build(&f, &size);
  assert_non_null(file);
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  gcol_parquet_column_info info;
  GCOL_TEST_OK(gcol_parquet_metadata_column(md, 0, &info));
  assert_int_equal(info.type.id, GCOL_EMPTY);
  gcol_parquet_metadata_free(md);
  expect_plan_error(file, size, 0, expected, needle);
  expect_plan_error(file, size, 0, expected, "column 'x'");
  free(file);
}

/* Schemas the format forbids, INTERVAL, and pages that hold fewer bytes than their values
 * need: a clear status and message, the column (and page) named. */
static void test_flba_bad_input(void **state) {
  (void)state;
  make_flba_data(42);
  pqb_column c = flba_column(0, GCOL_PARQUET_LOGICAL_NONE, -1);
  expect_flba_refused(&c, GCOL_ERROR_INVALID_ARGUMENT, "FIXED_LEN_BYTE_ARRAY of type length 0");
  c = flba_column(-4, GCOL_PARQUET_LOGICAL_NONE, -1);
  expect_flba_refused(&c, GCOL_ERROR_INVALID_ARGUMENT, "FIXED_LEN_BYTE_ARRAY of type length -4");
  c = flba_column(0, GCOL_PARQUET_LOGICAL_UUID, -1);
  expect_flba_refused(&c, GCOL_ERROR_INVALID_ARGUMENT, "FIXED_LEN_BYTE_ARRAY of type length 0");
  c = flba_column(4, GCOL_PARQUET_LOGICAL_FLOAT16, -1);
  expect_flba_refused(&c, GCOL_ERROR_INVALID_ARGUMENT, "FLOAT16 of type length 4");
  c = flba_column(1, GCOL_PARQUET_LOGICAL_FLOAT16, -1);
  expect_flba_refused(&c, GCOL_ERROR_INVALID_ARGUMENT, "FLOAT16 of type length 1");
  c = flba_column(8, GCOL_PARQUET_LOGICAL_UUID, -1);
  expect_flba_refused(&c, GCOL_ERROR_INVALID_ARGUMENT, "UUID of type length 8");
  c = flba_column(12, GCOL_PARQUET_LOGICAL_NONE, GCOL_DETAIL_PQ_CT_INTERVAL);
  expect_flba_refused(&c, GCOL_ERROR_UNSUPPORTED, "INTERVAL");
  c = flba_column(12, GCOL_PARQUET_LOGICAL_NONE, GCOL_DETAIL_PQ_CT_INTERVAL);
  expect_flba_refused(&c, GCOL_ERROR_UNSUPPORTED, "is not read yet");
  c = flba_column(16, GCOL_PARQUET_LOGICAL_JSON, -1); /* not an annotation of these bytes */
  expect_flba_refused(&c, GCOL_ERROR_UNSUPPORTED, "is not read yet");

  /* the schema says 17 bytes, the pages hold values of 16: too few bytes for their rows */
  static const struct {
    bool dictionary, split, delta;
    int code;           /* the host decode's, or 0: planning fails */
    const char *needle; /* planning's message */
  } cases[] = {
      {false, false, false, GCOL_DETAIL_PQ_E_VALUES_TRUNCATED, NULL},
      {true, false, false, GCOL_DETAIL_PQ_E_DICT_TRUNCATED, NULL},
      {false, true, false, 0, "BYTE_STREAM_SPLIT: 100 values of 17 bytes need 1700 bytes"},
      {false, false, true, 0, "in a FIXED_LEN_BYTE_ARRAY of 17"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    for (int v2 = 0; v2 < 2; ++v2) {
      c = flba_column(16, GCOL_PARQUET_LOGICAL_NONE, -1);
      c.lie_type_length = 17;
      c.dictionary = cases[i].dictionary;
      c.split = cases[i].split;
      c.delta_byte_array = cases[i].delta;
      c.page_version = v2 ? 2 : 1;
      pqb_file f = pqb_one_column(&c, ROWS / 2);
      int64_t size = 0;
      uint8_t *file = pqb_build(&f, &size);
      assert_non_null(file);
      if (cases[i].code == 0) {
        expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT, cases[i].needle);
        expect_plan_error(file, size, 0, GCOL_ERROR_INVALID_ARGUMENT,
                          "row group 0, column 'x', page 0:");
        free(file);
        continue;
      }
      gcol_parquet_metadata *md = NULL;
      GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
      gcol_detail_pq_file src;
      gcol_detail_pq_file_from_buffer(file, size, &src, NULL);
      int32_t const groups[] = {0};
      gcol_detail_pq_column_plan plan;
      GCOL_TEST_OK(gcol_detail_parquet_plan_column(&src, md, 0, groups, 1, &plan));
      uint64_t values[ROWS];
      int64_t pos[ROWS], len[ROWS];
      uint8_t valid[ROWS];
      int32_t bad = -1;
      bool is_dict = !cases[i].dictionary;
      assert_int_equal(gcol_detail_parquet_decode_column_host(&plan, values, NULL, pos, len, valid,
                                                              &bad, &is_dict),
                       cases[i].code);
      assert_int_equal(bad, 0);
      assert_int_equal(is_dict, cases[i].dictionary);
      gcol_detail_parquet_plan_free(&plan);
      gcol_parquet_metadata_free(md);
      free(file);
    }
  }
}

/* ------------------------------------------------------------------ fuzzer */

/* Runs everything the host does on a file: footer, plans, page decoders. Only statuses. */
static void run_on(const uint8_t *file, int64_t size, int64_t *ok_plans) {
  uint8_t *copy = (uint8_t *)malloc(size > 0 ? (size_t)size : 1);
  memcpy(copy, file, (size_t)size);
  gcol_parquet_metadata *md = NULL;
  gcol_status st = gcol_parquet_metadata_read_buffer(copy, size, &md);
  if (st != GCOL_OK) {
    assert_null(md);
    assert_true(strlen(gcol_last_error()) > 0);
    free(copy);
    return;
  }
  gcol_detail_pq_file src;
  gcol_detail_pq_file_from_buffer(copy, size, &src, NULL);
  int32_t groups[64];
  int32_t const ng = md->num_row_groups < 64 ? md->num_row_groups : 64;
  for (int32_t g = 0; g < ng; ++g) groups[g] = g;
  for (int32_t k = 0; k < md->num_leaves; ++k) {
    gcol_detail_pq_column_plan plan;
    st = gcol_detail_parquet_plan_column(&src, md, k, groups, ng, &plan);
    if (st != GCOL_OK) {
      assert_true(strlen(gcol_last_error()) > 0);
      continue;
    }
    ++*ok_plans;
    int64_t const n = plan.num_rows;
    uint64_t *values = (uint64_t *)malloc((size_t)n * 8 + 8);
    int64_t *pos = (int64_t *)malloc((size_t)n * 8 + 8);
    int64_t *len = (int64_t *)malloc((size_t)n * 8 + 8);
    uint8_t *valid = (uint8_t *)malloc((size_t)n + 1);
    int32_t bad = 0;
    bool is_dict = false;
    int const code = gcol_detail_parquet_decode_column_host(&plan, values, NULL, pos, len, valid,
                                                            &bad, &is_dict);
    if (code == 0 && plan.type.id == GCOL_STRING) {
      for (int64_t i = 0; i < n; ++i) {
        assert_true(pos[i] >= 0 && len[i] >= 0 && pos[i] + len[i] <= plan.num_bytes);
      }
    }
    free(values);
    free(pos);
    free(len);
    free(valid);
    gcol_detail_parquet_plan_free(&plan);
  }
  gcol_parquet_metadata_free(md);
  free(copy);
}

static void test_fuzz_footers_and_pages(void **state) {
  (void)state;
  int const iterations = 5000;
  make_data(5);
  gcol_test_rng rng = gcol_test_rng_make(1414);
  uint8_t *files[8 + 4 + NUM_CODECS];
  int64_t sizes[8 + 4 + NUM_CODECS];
  pqb_column cols[8 + 4 + NUM_CODECS][NUM_COLS];
  int num_files = 0;
  for (int v = 0; v < 8; ++v) {
    files[num_files] = build(v, 333, &sizes[num_files], cols[num_files]);
    ++num_files;
  }
  /* FIXED_LEN_BYTE_ARRAY binary, UUID and FLOAT16: every encoding, v1 and v2 */
  make_flba_data(6);
  for (int v = 0; v < 4; ++v) {
    files[num_files] =
        build_flba(v * 3 % FLBA_VARIANTS, 0, 333, &sizes[num_files], cols[num_files]);
    ++num_files;
  }
  /* compressed pages (v1 and v2, plain, dictionary and delta) for the codecs here */
  for (int k = 0; k < NUM_CODECS; ++k) {
    if (!codec_here(all_codecs[k])) continue;
    files[num_files] =
        build_compressed(k * 3 % 8, all_codecs[k], 333, &sizes[num_files], cols[num_files]);
    ++num_files;
  }
  int64_t ok_plans = 0;
  for (int it = 0; it < iterations; ++it) {
    int const v = (int)gcol_test_rng_range(&rng, 0, num_files - 1);
    int64_t const size = sizes[v];
    uint8_t *m = (uint8_t *)malloc((size_t)size);
    memcpy(m, files[v], (size_t)size);
    uint32_t const footer = (uint32_t)m[size - 8] | (uint32_t)m[size - 7] << 8 |
                            (uint32_t)m[size - 6] << 16 | (uint32_t)m[size - 5] << 24;
    int const edits = (int)gcol_test_rng_range(&rng, 1, 8);
    for (int e = 0; e < edits; ++e) {
      int64_t at;
      int const where = (int)gcol_test_rng_range(&rng, 0, 3);
      if (where <= 1) { /* the footer */
        at = size - 8 - (int64_t)footer + gcol_test_rng_range(&rng, 0, (int64_t)footer - 1);
      } else if (where == 2) { /* anywhere (page headers and data) */
        at = gcol_test_rng_range(&rng, 0, size - 1);
      } else { /* near the start of the data: the first page headers */
        at = gcol_test_rng_range(&rng, 4, 64);
      }
      uint64_t const x = gcol_test_rng_next(&rng);
      switch (x % 4) {
        case 0:
          m[at] = (uint8_t)(x >> 8);
          break;
        case 1:
          m[at] ^= (uint8_t)(1u << ((x >> 8) % 8));
          break;
        case 2:
          m[at] = (x >> 8) & 1 ? 0xff : 0x00;
          break;
        default:
          m[at] = (uint8_t)(m[at] + ((x >> 8) & 1 ? 1 : -1));
          break;
      }
    }
    /* now and then a truncation that keeps a plausible tail */
    int64_t msize = size;
    if (gcol_test_rng_range(&rng, 0, 9) == 0) {
      msize = gcol_test_rng_range(&rng, 0, size);
    }
    run_on(m, msize, &ok_plans);
    free(m);
  }
  /* the mutations left many files valid enough to plan: the decoders ran too */
  assert_true(ok_plans > iterations / 4);
  for (int v = 0; v < num_files; ++v) free(files[v]);
}

static void test_fuzz_page_headers(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1415);
  gcol_detail_thrift_writer w;
  gcol_detail_thrift_writer_init(&w);
  gcol_detail_thrift_write_struct_begin(&w);
  gcol_detail_thrift_write_i32_field(&w, 1, GCOL_DETAIL_PQ_PAGE_DATA_V2);
  gcol_detail_thrift_write_i32_field(&w, 2, 1000);
  gcol_detail_thrift_write_i32_field(&w, 3, 1000);
  gcol_detail_thrift_write_field(&w, 8, GCOL_DETAIL_THRIFT_STRUCT);
  gcol_detail_thrift_write_struct_begin(&w);
  for (int16_t i = 1; i <= 6; ++i) gcol_detail_thrift_write_i32_field(&w, i, 7 * i);
  gcol_detail_thrift_write_bool_field(&w, 7, true);
  gcol_detail_thrift_write_struct_end(&w);
  gcol_detail_thrift_write_struct_end(&w);
  gcol_detail_pq_page_header h;
  int64_t hs = 0;
  char err[160];
  assert_true(gcol_detail_parquet_parse_page_header(w.data, (int64_t)w.size, &h, &hs, err, 160));
  assert_int_equal(hs, w.size);
  assert_int_equal(h.type, GCOL_DETAIL_PQ_PAGE_DATA_V2);
  assert_int_equal(h.num_values, 7);
  assert_int_equal(h.def_length, 35);
  assert_int_equal(h.rep_length, 42);
  assert_true(h.has_body);
  int parsed = 0;
  for (int it = 0; it < 20000; ++it) {
    size_t const n = w.size;
    uint8_t *m = (uint8_t *)malloc(n);
    memcpy(m, w.data, n);
    int const edits = (int)gcol_test_rng_range(&rng, 1, 4);
    for (int e = 0; e < edits; ++e) {
      m[gcol_test_rng_range(&rng, 0, (int64_t)n - 1)] = (uint8_t)gcol_test_rng_next(&rng);
    }
    int64_t const len = gcol_test_rng_range(&rng, 0, (int64_t)n);
    if (gcol_detail_parquet_parse_page_header(m, len, &h, &hs, err, 160)) {
      assert_true(hs <= len);
      ++parsed;
    } else {
      assert_true(strlen(err) > 0);
    }
    free(m);
  }
  assert_true(parsed > 0);
  gcol_detail_thrift_writer_free(&w);
}

/* ==== GPU writer (issue 14): its per-row encoding (lib/internal/parquet.h) run on the CPU,
 * page by page, against the host encoder's pages and statistics ==== */

/* One column in host memory, as both encoders see it; the mask and data start `skew` rows
 * before row 0 (an offset view). */
typedef struct we_col {
  gcol_detail_pq_host_column host;
  gcol_detail_pq_wcol w;
  void *store;
  uint32_t *mask;
  uint8_t *valid;
  int32_t *offsets;
  char *chars;
} we_col;

enum { WE_NONE, WE_SOME, WE_ALL_NULL, WE_HEAD_NULL, WE_ALL_VALID };

static void we_make(we_col *c, gcol_type_id id, int64_t n, int nulls, int64_t skew,
                    gcol_test_rng *rng) {
  memset(c, 0, sizeof *c);
  c->host.name = gcol_type_name(id);
  c->host.type = gcol_data_type_make(id);
  if (id == GCOL_DECIMAL64) c->host.type = gcol_data_type_decimal(GCOL_DECIMAL64, -3);
  c->valid = (uint8_t *)malloc((size_t)n + 1);
  c->mask = (uint32_t *)calloc((size_t)((n + skew) / 32 + 2), 4);
  assert_non_null(c->valid);
  assert_non_null(c->mask);
  for (int64_t i = 0; i < n; ++i) {
    bool const v = nulls == WE_ALL_NULL    ? false
                   : nulls == WE_SOME      ? (i / 100) % 9 != 4 && gcol_test_rng_range(rng, 0, 2)
                   : nulls == WE_HEAD_NULL ? i >= 70000 && gcol_test_rng_range(rng, 0, 1)
                                           : true;
    c->valid[i] = v;
    if (v) c->mask[(i + skew) / 32] |= 1u << ((i + skew) % 32);
  }
  bool const optional = nulls != WE_NONE;
  c->host.valid = optional ? c->valid : NULL;
  c->w.optional = optional;
  c->w.mask = optional ? c->mask : NULL;
  c->w.mask_offset = skew;
  if (id == GCOL_STRING) {
    c->offsets = (int32_t *)malloc((size_t)(n + skew + 1) * 4);
    c->chars = (char *)malloc((size_t)(n + skew) * 12 + 1);
    int64_t *host_offsets = (int64_t *)malloc((size_t)(n + 1) * 8);
    assert_non_null(c->offsets);
    assert_non_null(c->chars);
    assert_non_null(host_offsets);
    int32_t at = 0;
    for (int64_t i = 0; i < n + skew; ++i) {
      c->offsets[i] = at;
      int64_t const len = gcol_test_rng_range(rng, 0, 11);
      for (int64_t b = 0; b < len; ++b) c->chars[at++] = (char)gcol_test_rng_range(rng, 0, 255);
    }
    c->offsets[n + skew] = at;
    for (int64_t i = 0; i <= n; ++i) host_offsets[i] = c->offsets[i + skew];
    c->store = host_offsets;
    c->host.offsets = host_offsets;
    c->host.chars = c->chars;
    c->w.kind = GCOL_DETAIL_PQ_W_STRING;
    c->w.order = GCOL_DETAIL_PQ_ORDER_BYTES;
    c->w.strings.offsets.data = c->offsets + skew;
    c->w.strings.offsets.width = 4;
    c->w.strings.chars = c->chars;
    c->w.strings.null_mask = c->w.mask;
    c->w.strings.mask_offset = skew;
    c->w.strings.size = n;
    return;
  }
  size_t const width = gcol_type_size(id);
  uint8_t *data = (uint8_t *)malloc((size_t)(n + skew) * width + 8);
  assert_non_null(data);
  gcol_test_rng_fill(rng, data, (size_t)(n + skew) * width);
  for (int64_t i = 0; i < n + skew; ++i) {
    uint64_t const r = gcol_test_rng_next(rng);
    if (id == GCOL_BOOL8) data[i] = (uint8_t)(r % 3); /* 2 is true too */
    if (id == GCOL_FLOAT32 || id == GCOL_FLOAT64) {
      double const d = r % 7 == 0    ? NAN
                       : r % 11 == 0 ? -0.0
                       : r % 13 == 0 ? 0.0
                                     : (double)(int64_t)(r % 999) - 499;
      float const f = (float)d;
      if (id == GCOL_FLOAT32) memcpy(data + i * 4, &f, 4);
      if (id == GCOL_FLOAT64) memcpy(data + i * 8, &d, 8);
    }
  }
  c->store = data;
  c->host.data = data + (size_t)skew * width;
  c->w.data = data + (size_t)skew * width;
  c->w.width = (int32_t)width;
  if (id == GCOL_BOOL8) {
    c->w.kind = GCOL_DETAIL_PQ_W_BOOL;
    c->w.order = GCOL_DETAIL_PQ_ORDER_UNSIGNED;
    return;
  }
  c->w.kind = GCOL_DETAIL_PQ_W_FIXED;
  c->w.out_width = width == 8 ? 8 : 4;
  c->w.sign_extend = id == GCOL_INT8 || id == GCOL_INT16;
  c->w.order = id == GCOL_FLOAT32 || id == GCOL_FLOAT64 ? GCOL_DETAIL_PQ_ORDER_FLOAT
               : id == GCOL_UINT8 || id == GCOL_UINT16 || id == GCOL_UINT32 || id == GCOL_UINT64
                   ? GCOL_DETAIL_PQ_ORDER_UNSIGNED
                   : GCOL_DETAIL_PQ_ORDER_SIGNED;
}

static void we_free(we_col *c) {
  free(c->store);
  free(c->mask);
  free(c->valid);
  free(c->offsets);
  free(c->chars);
}

/* The GPU encoder's page body of rows [begin, end) of `c`, made serially with its per-row
 * functions; returns its size. */
static int64_t we_page(const gcol_detail_pq_wcol *c, int64_t begin, int64_t end, uint8_t fill,
                       uint8_t *out) {
  int64_t const rows = end - begin;
  int64_t nulls = 0, bytes = 0;
  for (int64_t r = begin; r < end; ++r) {
    if (!gcol_detail_pq_w_valid(c, r)) {
      ++nulls;
    } else if (c->kind == GCOL_DETAIL_PQ_W_STRING) {
      bytes += gcol_detail_pq_w_count(c, r);
    }
  }
  int64_t const levels = c->optional ? gcol_detail_pq_levels_size(rows, nulls) : 0;
  int64_t const values = gcol_detail_pq_w_value_bytes(c, rows - nulls, bytes);
  memset(out, fill, (size_t)(levels + values));
  if (c->optional) {
    int const hs = gcol_detail_pq_levels_header(rows, nulls, out);
    if (nulls != 0 && nulls != rows) {
      for (int64_t j = 0; j < (rows + 7) / 8; ++j) {
        out[hs + j] = gcol_detail_pq_w_levels_byte(c, begin, rows, j);
      }
    }
  }
  int64_t slot = 0;
  for (int64_t r = begin; r < end; ++r) {
    if (!gcol_detail_pq_w_valid(c, r)) continue;
    gcol_detail_pq_w_put_value(c, r, end, slot, out + levels);
    slot += gcol_detail_pq_w_count(c, r);
  }
  return levels + values;
}

/* Levels of `rows` rows decoded from the body at `p` (4-byte prefix, then the runs). */
static void we_levels(const uint8_t *p, int64_t rows, uint8_t *valid) {
  uint32_t const n =
      (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  gcol_detail_pq_rle r;
  gcol_detail_pq_rle_init(&r, p + 4, p + 4 + n, 1);
  for (int64_t i = 0; i < rows; ++i) {
    uint32_t v = 9;
    assert_true(gcol_detail_pq_rle_next(&r, &v));
    valid[i] = (uint8_t)v;
  }
}

static void we_compare(we_col *cols, int32_t k_count, int64_t n, int64_t per_group) {
  gcol_detail_pq_host_column hc[16];
  for (int32_t k = 0; k < k_count; ++k) hc[k] = cols[k].host;
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.row_group_rows = per_group;
  uint8_t *file = NULL;
  int64_t size = 0;
  GCOL_TEST_OK(gcol_detail_parquet_write_host(hc, k_count, n, &opt, &file, &size));
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  uint8_t *mine = (uint8_t *)malloc(2 * 16 * GCOL_DETAIL_PQ_ROWS_PER_PAGE + 64);
  uint8_t *lv = (uint8_t *)malloc(GCOL_DETAIL_PQ_ROWS_PER_PAGE);
  assert_non_null(mine);
  assert_non_null(lv);
  int64_t at = 4;
  int32_t g = 0;
  for (int64_t r0 = 0; r0 < n; r0 += per_group, ++g) {
    int64_t const r1 = r0 + per_group < n ? r0 + per_group : n;
    for (int32_t k = 0; k < k_count; ++k) {
      const gcol_detail_pq_wcol *w = &cols[k].w;
      for (int64_t p0 = r0; p0 < r1; p0 += GCOL_DETAIL_PQ_ROWS_PER_PAGE) {
        int64_t const p1 =
            p0 + GCOL_DETAIL_PQ_ROWS_PER_PAGE < r1 ? p0 + GCOL_DETAIL_PQ_ROWS_PER_PAGE : r1;
        gcol_detail_pq_page_header h;
        int64_t hs = 0;
        char err[128];
        assert_true(gcol_detail_parquet_parse_page_header(file + at, size - at, &h, &hs, err,
                                                          (int)sizeof err));
        const uint8_t *body = file + at + hs;
        at += hs + h.compressed_size;
        assert_int_equal(h.num_values, p1 - p0);
        int64_t const got = we_page(w, p0, p1, 0xee, mine);
        /* every byte written: the same body over another fill */
        assert_int_equal(we_page(w, p0, p1, 0x11, mine + got), got);
        assert_memory_equal(mine, mine + got, (size_t)got);
        int64_t host_levels = 0, my_levels = 0;
        if (w->optional) {
          host_levels = 4 + (int64_t)((uint32_t)body[0] | (uint32_t)body[1] << 8 |
                                      (uint32_t)body[2] << 16 | (uint32_t)body[3] << 24);
          my_levels = 4 + (int64_t)((uint32_t)mine[0] | (uint32_t)mine[1] << 8 |
                                    (uint32_t)mine[2] << 16 | (uint32_t)mine[3] << 24);
          we_levels(mine, p1 - p0, lv);
          for (int64_t r = p0; r < p1; ++r) assert_int_equal(lv[r - p0], cols[k].valid[r]);
        }
        /* the values alike byte for byte; the whole body too when the levels are one run */
        assert_int_equal(got - my_levels, h.uncompressed_size - host_levels);
        assert_memory_equal(mine + my_levels, body + host_levels, (size_t)(got - my_levels));
        int64_t page_nulls = 0;
        for (int64_t r = p0; r < p1 && w->optional; ++r) page_nulls += !cols[k].valid[r];
        if ((page_nulls == 0 || page_nulls == p1 - p0) && p1 - p0 >= 8) {
          assert_int_equal(my_levels, host_levels);
          assert_memory_equal(mine, body, (size_t)my_levels);
        }
      }
      /* statistics: pages reduced in reverse, as a GPU may */
      gcol_parquet_statistics st;
      GCOL_TEST_OK(gcol_parquet_metadata_statistics(md, g, k, &st));
      int64_t mn = -1, mx = -1, nulls = 0;
      for (int64_t r = r1 - 1; r >= r0; --r) {
        if (!gcol_detail_pq_w_valid(w, r)) {
          ++nulls;
          continue;
        }
        if (gcol_detail_pq_w_is_nan(w, r)) continue;
        mn = gcol_detail_pq_w_pick(w, mn, r, -1);
        mx = gcol_detail_pq_w_pick(w, mx, r, 1);
      }
      assert_int_equal(st.null_count, nulls);
      assert_int_equal(st.has_min_max, mn >= 0);
      if (mn >= 0) {
        uint8_t v[64];
        assert_int_equal(st.min_size, gcol_detail_pq_w_stat_size(w, mn));
        gcol_detail_pq_w_put_stat(w, mn, v);
        assert_memory_equal(st.min, v, (size_t)st.min_size);
        assert_int_equal(st.max_size, gcol_detail_pq_w_stat_size(w, mx));
        gcol_detail_pq_w_put_stat(w, mx, v);
        assert_memory_equal(st.max, v, (size_t)st.max_size);
      }
    }
  }
  free(mine);
  free(lv);
  gcol_parquet_metadata_free(md);
  free(file);
}

static void test_gpu_writer_rows_on_the_host(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(1406);
  gcol_type_id const ids[] = {GCOL_INT8,      GCOL_INT16,   GCOL_INT32,  GCOL_INT64,
                              GCOL_UINT8,     GCOL_UINT16,  GCOL_UINT32, GCOL_UINT64,
                              GCOL_FLOAT32,   GCOL_FLOAT64, GCOL_BOOL8,  GCOL_TIMESTAMP_DAYS,
                              GCOL_DECIMAL64, GCOL_STRING};
  enum { K = sizeof ids / sizeof ids[0] };
  int const nulls[] = {WE_NONE, WE_ALL_VALID, WE_ALL_NULL, WE_SOME};
  for (size_t v = 0; v < sizeof nulls / sizeof nulls[0]; ++v) {
    we_col cols[K];
    for (int k = 0; k < K; ++k) we_make(&cols[k], ids[k], 1000, nulls[v], k % 3 * 13, &rng);
    we_compare(cols, K, 1000, 300);
    we_compare(cols, K, 1000, 7);
    for (int k = 0; k < K; ++k) we_free(&cols[k]);
  }
  /* pages of 65536 rows and a short one, an all-null page, row groups across pages */
  we_col big[4];
  we_make(&big[0], GCOL_INT32, 150001, WE_SOME, 3, &rng);
  we_make(&big[1], GCOL_STRING, 150001, WE_HEAD_NULL, 0, &rng);
  we_make(&big[2], GCOL_BOOL8, 150001, WE_SOME, 31, &rng);
  we_make(&big[3], GCOL_FLOAT64, 150001, WE_NONE, 0, &rng);
  we_compare(big, 4, 150001, 100000);
  we_compare(big, 4, 150001, 1 << 20);
  for (int k = 0; k < 4; ++k) we_free(&big[k]);
}

/* ==== end of the GPU writer's host tests ==== */

/* The batching rule (gcol_detail_parquet_batches): batches of consecutive row groups of at
 * least `target` compressed bytes of the columns read (or a sixth of the read, not below the
 * floor, when that is less), the last one what is left; one batch for reads under two
 * batches' worth, a single group or no column; the environment's target when no test value is
 * set. */
static void test_read_batches_rule(void **state) {
  (void)state;
  make_data(45);
  pqb_column cols[NUM_COLS];
  int64_t size = 0;
  uint8_t *file = build(0, 100, &size, cols);
  gcol_parquet_metadata *md = NULL;
  GCOL_TEST_OK(gcol_parquet_metadata_read_buffer(file, size, &md));
  assert_int_equal(md->num_row_groups, 10);
  int32_t groups[10], bounds[11], columns[2] = {3, 12};
  for (int32_t g = 0; g < 10; ++g) groups[g] = g;
  int64_t per_group[10], total = 0;
  for (int32_t g = 0; g < 10; ++g) {
    per_group[g] = md->row_groups[g].chunks[3].stats.compressed_size +
                   md->row_groups[g].chunks[12].stats.compressed_size;
    total += per_group[g];
  }
  assert_int_equal(gcol_detail_parquet_batches(md, columns, 2, groups, 10, 1, bounds), 10);
  for (int32_t b = 0; b <= 10; ++b) assert_int_equal(bounds[b], b);
  assert_int_equal(gcol_detail_parquet_batches(md, columns, 2, groups, 10, total / 2, bounds), 1);
  assert_int_equal(bounds[1], 10);
  assert_int_equal(gcol_detail_parquet_batches(md, columns, 2, groups, 1, 1, bounds), 1);
  assert_int_equal(gcol_detail_parquet_batches(md, columns, 0, groups, 10, 1, bounds), 1);
  int64_t const target = total / 4;
  int32_t const n = gcol_detail_parquet_batches(md, columns, 2, groups, 10, target, bounds);
  assert_true(n >= 2);
  assert_int_equal(bounds[0], 0);
  assert_int_equal(bounds[n], 10);
  for (int32_t b = 0; b < n; ++b) {
    int64_t bytes = 0, before_last = 0;
    for (int32_t g = bounds[b]; g < bounds[b + 1]; ++g) {
      before_last = bytes;
      bytes += per_group[g];
    }
    if (b + 1 < n) {
      assert_true(bytes >= target);      /* full */
      assert_true(before_last < target); /* and no fuller than it needs */
    }
  }
  gcol_detail_parquet_set_batch_bytes(0);
  setenv("GCOL_PARQUET_BATCH_BYTES", "12345", 1);
  assert_int_equal(gcol_detail_parquet_batch_bytes(), 12345);
  setenv("GCOL_PARQUET_BATCH_BYTES", "12x", 1);
  assert_int_equal(gcol_detail_parquet_batch_bytes(), GCOL_DETAIL_PQ_BATCH_BYTES);
  gcol_detail_parquet_set_batch_bytes(77);
  assert_int_equal(gcol_detail_parquet_batch_bytes(), 77);
  gcol_detail_parquet_set_batch_bytes(0);
  unsetenv("GCOL_PARQUET_BATCH_BYTES");
  assert_int_equal(gcol_detail_parquet_batch_bytes(), GCOL_DETAIL_PQ_BATCH_BYTES);
  /* a read of under two default batches is still split, in sixths of it: the footer made to
   * say 100 MiB a group (1000 MiB, batches of >= 1000/6 MiB: two groups each) */
  for (int32_t g = 0; g < 10; ++g) {
    md->row_groups[g].chunks[3].stats.compressed_size = (int64_t)60 << 20;
    md->row_groups[g].chunks[12].stats.compressed_size = (int64_t)40 << 20;
  }
  assert_int_equal(
      gcol_detail_parquet_batches(md, columns, 2, groups, 10, GCOL_DETAIL_PQ_BATCH_BYTES, bounds),
      5);
  for (int32_t b = 0; b <= 5; ++b) assert_int_equal(bounds[b], 2 * b);
  /* and never in batches under the floor: 10 groups of 10 MiB, 100 MiB, one batch */
  for (int32_t g = 0; g < 10; ++g) md->row_groups[g].chunks[3].stats.compressed_size = 0;
  for (int32_t g = 0; g < 10; ++g) {
    md->row_groups[g].chunks[12].stats.compressed_size = (int64_t)10 << 20;
  }
  assert_int_equal(
      gcol_detail_parquet_batches(md, columns, 2, groups, 10, GCOL_DETAIL_PQ_BATCH_BYTES, bounds),
      1);
  gcol_parquet_metadata_free(md);
  free(file);
}

/* The built-in staging cache's bookkeeping over pageable memory (no GPU): blocks rounded to
 * 2 MiB and handed out whole, a free one reused for a request it fits within twice, a new one
 * taken otherwise, free ones evicted largest first to stay within the limit, a request over
 * the limit or over what is in use refused (the cache still usable), a double free reported. */
static void test_staging_cache(void **state) {
  (void)state;
  size_t const mib = (size_t)1 << 20;
  gcol_mr *host = NULL, *cache = NULL;
  assert_int_equal(gcol_mr_host_create(&host), GCOL_OK);
  assert_int_equal(gcol_detail_staging_cache_create(host, 16 * mib, &cache), GCOL_OK);
  size_t held = 0, used = 0;
  int64_t blocks = 0;
  void *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  assert_int_equal(gcol_mr_allocate(cache, &a, 3 * mib, NULL), GCOL_OK); /* a block of 4 */
  memset(a, 1, 3 * mib);
  gcol_detail_staging_cache_info(cache, &held, &used, &blocks);
  assert_int_equal(held, 4 * mib);
  assert_int_equal(used, 4 * mib);
  gcol_mr_deallocate(cache, a, 3 * mib, NULL);
  assert_int_equal(gcol_mr_allocate(cache, &b, 4 * mib, NULL), GCOL_OK);
  assert_ptr_equal(b, a);                                          /* reused */
  assert_int_equal(gcol_mr_allocate(cache, &c, 1, NULL), GCOL_OK); /* a new block of 2 */
  assert_true(c != a);
  gcol_detail_staging_cache_info(cache, &held, &used, &blocks);
  assert_int_equal(held, 6 * mib);
  assert_int_equal(blocks, 2);
  gcol_mr_deallocate(cache, b, 4 * mib, NULL);
  assert_int_equal(gcol_mr_allocate(cache, &d, 1, NULL), GCOL_OK); /* 2 MiB: the 4 (twice) */
  assert_ptr_equal(d, b);
  gcol_mr_deallocate(cache, d, 1, NULL);
  /* 12 MiB: the free 4 evicted to make room (16 at most) */
  assert_int_equal(gcol_mr_allocate(cache, &a, 12 * mib, NULL), GCOL_OK);
  gcol_detail_staging_cache_info(cache, &held, &used, &blocks);
  assert_int_equal(held, 14 * mib);
  assert_int_equal(used, 14 * mib);
  assert_int_equal(blocks, 2);
  assert_int_equal(gcol_mr_allocate(cache, &b, 4 * mib, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_null(b);
  assert_int_equal(gcol_mr_allocate(cache, &b, 17 * mib, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  assert_non_null(strstr(gcol_last_error(), "limit"));
  assert_int_equal(gcol_mr_allocate(cache, &b, 2 * mib, NULL), GCOL_OK); /* 16: fits */
  gcol_mr_deallocate(cache, b, 2 * mib, NULL);
  gcol_clear_last_error();
  gcol_mr_deallocate(cache, b, 2 * mib, NULL); /* twice */
  assert_non_null(strstr(gcol_last_error(), "not a block in use"));
  /* 4 MiB with the 12 free: more than twice, so a new block, the 12 evicted for it */
  gcol_mr_deallocate(cache, a, 12 * mib, NULL);
  assert_int_equal(gcol_mr_allocate(cache, &d, 4 * mib, NULL), GCOL_OK);
  gcol_detail_staging_cache_info(cache, &held, &used, &blocks);
  assert_int_equal(held, 8 * mib); /* c's 2, the free 2, the new 4 */
  assert_int_equal(used, 6 * mib);
  assert_int_equal(blocks, 3);
  gcol_mr_deallocate(cache, d, 4 * mib, NULL);
  gcol_mr_deallocate(cache, c, 1, NULL);
  gcol_detail_staging_cache_info(cache, &held, &used, &blocks);
  assert_int_equal(used, 0);
  gcol_mr_destroy(cache); /* its blocks back to the host resource */
  gcol_mr_destroy(host);
}

/* The staging resource's setters (include/gcol/io/staging.h), without a GPU: a resource
 * without allocate is refused, the one set is returned with the previous one, NULL brings
 * back the built-in pool, which holds nothing before a read and can be released anytime. */
static void test_staging_mr(void **state) {
  (void)state;
  gcol_mr *host = NULL, *previous = (gcol_mr *)&previous;
  gcol_mr broken = {NULL, NULL, NULL, NULL, GCOL_MEMORY_PINNED, "broken"};
  assert_int_equal(gcol_io_set_staging_mr(&broken, &previous), GCOL_ERROR_INVALID_ARGUMENT);
  assert_null(previous);
  assert_non_null(strstr(gcol_last_error(), "allocate"));
  gcol_mr *const builtin = gcol_io_get_staging_mr();
  assert_non_null(builtin);
  size_t held = 1, used = 1;
  int64_t blocks = 1;
  gcol_detail_staging_cache_info(builtin, &held, &used, &blocks);
  assert_int_equal(held, 0);
  assert_int_equal(blocks, 0);
  assert_int_equal(gcol_mr_host_create(&host), GCOL_OK);
  assert_int_equal(gcol_io_set_staging_mr(host, &previous), GCOL_OK);
  assert_null(previous); /* the built-in pool */
  assert_ptr_equal(gcol_io_get_staging_mr(), host);
  gcol_io_staging_release(); /* the built-in's: the one set stays */
  assert_ptr_equal(gcol_io_get_staging_mr(), host);
  assert_int_equal(gcol_io_set_staging_mr(NULL, &previous), GCOL_OK);
  assert_ptr_equal(previous, host);
  assert_non_null(gcol_io_get_staging_mr());
  assert_true(gcol_io_get_staging_mr() != host);
  gcol_io_staging_release();
  gcol_io_staging_release(); /* twice: a no-op */
  gcol_mr_destroy(host);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_thrift_round_trip),
      cmocka_unit_test(test_read_batches_rule),
      cmocka_unit_test(test_thrift_limits),
      cmocka_unit_test(test_rle_decoder),
      cmocka_unit_test(test_rle_runs),
      cmocka_unit_test(test_levels_by_batches),
      cmocka_unit_test(test_walk_by_stages),
      cmocka_unit_test(test_metadata_from_buffer_file_and_source),
      cmocka_unit_test(test_pages_decoded_on_the_host),
      cmocka_unit_test(test_bad_files),
      cmocka_unit_test(test_unsupported_and_corrupt_pages),
      cmocka_unit_test(test_codec_functions),
      cmocka_unit_test(test_compressed_pages_decoded_on_the_host),
      cmocka_unit_test(test_compressed_v2_special_pages),
      cmocka_unit_test(test_pages_planned_for_nvcomp),
      cmocka_unit_test(test_levels_placed_after_decompression),
      cmocka_unit_test(test_upload_of_several_columns),
      cmocka_unit_test(test_checks_before_nvcomp),
      cmocka_unit_test(test_nvcomp_loader),
      cmocka_unit_test(test_untrusted_option),
      cmocka_unit_test(test_compressed_bad_pages),
      cmocka_unit_test(test_row_groups_by_statistics),
      cmocka_unit_test(test_writer_on_the_host),
      cmocka_unit_test(test_fuzz_footers_and_pages),
      cmocka_unit_test(test_fuzz_page_headers),
      cmocka_unit_test(test_gpu_writer_rows_on_the_host), /* GPU writer (issue 14) */
      cmocka_unit_test(test_delta_byte_array_pages),
      cmocka_unit_test(test_delta_byte_array_corrupt),
      cmocka_unit_test(test_half_to_float),
      cmocka_unit_test(test_flba_pages),
      cmocka_unit_test(test_flba_bad_input),
      cmocka_unit_test(test_staging_mr),
      cmocka_unit_test(test_staging_cache),
  };
  return GCOL_TEST_RUN("parquet_host", tests);
}
