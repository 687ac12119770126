/* The shared Parquet test files (parquet_cases.h). */
#include "parquet_cases.h"

#include <math.h>
#include <string.h>

#include "gcol/io/parquet.h"
#include "internal/parquet.h"
#include "test_util.h"

test_data pq_data;
flba_data pq_flba;

void make_data(uint64_t salt) {
  gcol_test_rng rng = gcol_test_rng_make(salt);
  for (int i = 0; i < ROWS; ++i) {
    pq_data.ints[i] = (int32_t)gcol_test_rng_next(&rng);
    pq_data.small[i] = gcol_test_rng_range(&rng, -5, 40);
    pq_data.bools[i] = (int64_t)(gcol_test_rng_next(&rng) & 1);
    pq_data.big[i] = (int64_t)gcol_test_rng_next(&rng);
    pq_data.reals[i] = gcol_test_rng_double(&rng) * 1e6 - 5e5;
    int const len = (int)gcol_test_rng_range(&rng, 0, 20);
    for (int k = 0; k < len; ++k)
      pq_data.string_store[i][k] = (char)('a' + gcol_test_rng_range(&rng, 0, 25));
    pq_data.string_store[i][len] = '\0';
    pq_data.strings[i] = pq_data.string_store[i];
    pq_data.valid[i] = gcol_test_rng_range(&rng, 0, 9) != 0;
  }
  pq_data.valid[0] = 0;
  pq_data.valid[ROWS - 1] = 1;
}

pqb_column col_base(const char *name, int32_t physical) {
  pqb_column c;
  memset(&c, 0, sizeof c);
  c.name = name;
  c.physical = physical;
  c.converted_type = -1;
  c.page_version = 1;
  return c;
}

/* The columns of the main test file; `variant` picks page version and encodings. */
void make_columns(pqb_column *c, int variant) {
  bool const v2 = variant & 1;
  bool const dict = (variant & 2) != 0 && (variant & 4) == 0;
  c[0] = col_base("i32", GCOL_PARQUET_INT32);
  c[0].ints = pq_data.ints;
  c[1] = col_base("i32_small_nullable", GCOL_PARQUET_INT32);
  c[1].ints = pq_data.small;
  c[1].optional = true;
  c[1].valid = pq_data.valid;
  c[2] = col_base("i64", GCOL_PARQUET_INT64);
  c[2].ints = pq_data.big;
  c[2].optional = true;
  c[3] = col_base("f64", GCOL_PARQUET_DOUBLE);
  c[3].reals = pq_data.reals;
  c[3].optional = true;
  c[3].valid = pq_data.valid;
  c[4] = col_base("f32", GCOL_PARQUET_FLOAT);
  c[4].reals = pq_data.reals;
  c[5] = col_base("flag", GCOL_PARQUET_BOOLEAN);
  c[5].ints = pq_data.bools;
  c[5].optional = true;
  c[5].valid = pq_data.valid;
  c[5].rle_booleans = v2;
  c[6] = col_base("name", GCOL_PARQUET_BYTE_ARRAY);
  c[6].strings = pq_data.strings;
  c[6].logical = GCOL_PARQUET_LOGICAL_STRING;
  c[6].optional = true;
  c[6].valid = pq_data.valid;
  c[7] = col_base("day", GCOL_PARQUET_INT32);
  c[7].ints = pq_data.small;
  c[7].logical = GCOL_PARQUET_LOGICAL_DATE;
  c[8] = col_base("ts_us", GCOL_PARQUET_INT64);
  c[8].ints = pq_data.big;
  c[8].logical = GCOL_PARQUET_LOGICAL_TIMESTAMP;
  c[8].time_unit = GCOL_PARQUET_UNIT_MICROS;
  c[8].optional = true;
  c[8].valid = pq_data.valid;
  c[9] = col_base("u16", GCOL_PARQUET_INT32);
  c[9].ints = pq_data.small;
  c[9].logical = GCOL_PARQUET_LOGICAL_INTEGER;
  c[9].bit_width = 8;
  c[9].is_signed = true;
  c[10] = col_base("ts_ms_legacy", GCOL_PARQUET_INT64);
  c[10].ints = pq_data.big;
  c[10].converted_type = GCOL_DETAIL_PQ_CT_TIMESTAMP_MILLIS;
  c[11] = col_base("price", GCOL_PARQUET_INT64);
  c[11].ints = pq_data.big;
  c[11].logical = GCOL_PARQUET_LOGICAL_DECIMAL;
  c[11].precision = 18;
  c[11].scale = 2;
  c[12] = col_base("wide", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[12].type_length = 16;
  c[12].ints = pq_data.big;
  c[12].optional = true;
  c[12].valid = pq_data.valid;
  c[12].logical = GCOL_PARQUET_LOGICAL_DECIMAL;
  c[12].precision = 38;
  c[12].scale = 3;
  c[13] = col_base("legacy_ts", GCOL_PARQUET_INT96);
  c[13].ints = pq_data.big;
  c[13].optional = true;
  for (int i = 0; i < NUM_COLS; ++i) {
    c[i].page_version = v2 ? 2 : 1;
    c[i].rows_per_page = 97 + 10 * i;
    c[i].dictionary = dict && c[i].physical != GCOL_PARQUET_BOOLEAN;
    c[i].delta = (variant & 4) != 0 && !c[i].dictionary &&
                 (c[i].physical == GCOL_PARQUET_INT32 || c[i].physical == GCOL_PARQUET_INT64 ||
                  c[i].physical == GCOL_PARQUET_BYTE_ARRAY);
    c[i].delta_byte_array = (variant & 8) != 0 && !c[i].dictionary && !c[i].delta &&
                            (c[i].physical == GCOL_PARQUET_BYTE_ARRAY ||
                             c[i].physical == GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
    c[i].split = (variant & 4) != 0 &&
                 (c[i].physical == GCOL_PARQUET_FLOAT || c[i].physical == GCOL_PARQUET_DOUBLE);
  }
}

static const char *const kv_keys[] = {"ARROW:schema", "empty", "novalue"};
static const char *const kv_values[] = {"not really", "", NULL};

uint8_t *build(int variant, int64_t rows_per_group, int64_t *size, pqb_column *cols) {
  make_columns(cols, variant);
  pqb_file f;
  memset(&f, 0, sizeof f);
  f.num_columns = NUM_COLS;
  f.columns = cols;
  f.num_rows = ROWS;
  f.rows_per_group = rows_per_group;
  f.num_key_values = 3;
  f.keys = kv_keys;
  f.values = kv_values;
  uint8_t *file = pqb_build(&f, size);
  assert_non_null(file);
  return file;
}

void make_flba_data(uint64_t salt) {
  static const uint16_t specials[] = {
      0x0000, 0x8000,                 /* +0, -0 */
      0x0001, 0x8001, 0x03ff, 0x0200, /* subnormals: the smallest, the largest, one bit */
      0x0400, 0x7bff, 0xfbff,         /* the smallest normal, +-65504 */
      0x3c00, 0xc000, 0x3555,         /* 1, -2, 0.333 */
      0x7c00, 0xfc00,                 /* +-inf */
      0x7e00, 0xfe00, 0x7d01,         /* NaNs: quiet, negative, signalling with a payload */
  };
  gcol_test_rng rng = gcol_test_rng_make(salt);
  uint8_t pool[40][16];
  for (int p = 0; p < 40; ++p) {
    for (int b = 0; b < 16; ++b) pool[p][b] = (uint8_t)gcol_test_rng_next(&rng);
  }
  memset(pool[0], 0, 16);    /* all zero bytes */
  memset(pool[1], 0xff, 16); /* all ones */
  for (int i = 0; i < ROWS; ++i) {
    memcpy(pq_flba.bin16 + i * 16, pool[gcol_test_rng_range(&rng, 0, 39)], 16);
    for (int b = 0; b < 16; ++b) pq_flba.uuid[i * 16 + b] = (uint8_t)gcol_test_rng_next(&rng);
    memcpy(pq_flba.bin3 + i * 3, pool[gcol_test_rng_range(&rng, 0, 39)] + i % 8, 3);
    uint16_t const h = i < (int)(sizeof specials / sizeof specials[0])
                           ? specials[i]
                           : (uint16_t)gcol_test_rng_next(&rng);
    pq_flba.half[i * 2] = (uint8_t)h;
    pq_flba.half[i * 2 + 1] = (uint8_t)(h >> 8);
    pq_flba.valid[i] = gcol_test_rng_range(&rng, 0, 7) != 0;
  }
  pq_flba.valid[0] = 0;
  pq_flba.valid[ROWS - 1] = 1;
  for (int i = 1; i < 20; ++i) pq_flba.valid[i] = 1; /* the special halves are all read */
}

void make_flba_columns(pqb_column *c, int variant) {
  int const encoding = variant % 4;
  c[0] = col_base("bin16", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[0].type_length = 16;
  c[0].fixed = pq_flba.bin16;
  c[0].optional = true;
  c[0].valid = pq_flba.valid;
  c[1] = col_base("uuid", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[1].type_length = 16;
  c[1].fixed = pq_flba.uuid;
  c[1].logical = GCOL_PARQUET_LOGICAL_UUID;
  c[1].optional = true;
  c[1].valid = pq_flba.valid;
  c[2] = col_base("bin3", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[2].type_length = 3;
  c[2].fixed = pq_flba.bin3;
  c[3] = col_base("half", GCOL_PARQUET_FIXED_LEN_BYTE_ARRAY);
  c[3].type_length = 2;
  c[3].fixed = pq_flba.half;
  c[3].logical = GCOL_PARQUET_LOGICAL_FLOAT16;
  c[3].optional = true;
  c[3].valid = pq_flba.valid;
  for (int k = 0; k < FLBA_COLS; ++k) {
    c[k].page_version = variant / 4 != 0 ? 2 : 1;
    c[k].rows_per_page = 97 + 10 * k;
    c[k].dictionary = encoding == 1;
    c[k].delta_byte_array = encoding == 2;
    c[k].split = encoding == 3;
  }
}

gcol_type_id flba_type_id(int32_t k) { return k == 3 ? GCOL_FLOAT32 : GCOL_STRING; }

uint32_t half_reference(uint16_t h) {
  uint32_t const sign = h >> 15 ? 0x80000000u : 0;
  int const exponent = (h >> 10) & 0x1f;
  int const mantissa = h & 0x3ff;
  if (exponent == 31 && mantissa != 0) return sign | 0x7f800000u | (uint32_t)mantissa << 13;
  double const magnitude = exponent == 31  ? INFINITY
                           : exponent == 0 ? ldexp(mantissa, -24)
                                           : ldexp(mantissa + 1024, exponent - 25);
  float const f = (float)(sign ? -magnitude : magnitude);
  uint32_t bits;
  memcpy(&bits, &f, 4);
  return bits;
}

/* The file of make_flba_columns(variant), pages compressed by `codec` (0: none). */
uint8_t *build_flba(int variant, int32_t codec, int64_t rows_per_group, int64_t *size,
                           pqb_column *cols) {
  make_flba_columns(cols, variant);
  for (int32_t k = 0; k < FLBA_COLS; ++k) cols[k].codec = codec;
  pqb_file f = pqb_one_column(cols, ROWS);
  f.num_columns = FLBA_COLS;
  f.rows_per_group = rows_per_group;
  uint8_t *file = pqb_build(&f, size);
  assert_non_null(file);
  return file;
}

