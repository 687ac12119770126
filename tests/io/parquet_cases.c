/* The shared Parquet test files (parquet_cases.h). */
#include "parquet_cases.h"

#include <string.h>

#include "gcol/io/parquet.h"
#include "internal/parquet.h"
#include "test_util.h"

test_data pq_data;

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
