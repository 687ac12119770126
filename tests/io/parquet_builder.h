/*
 * A small Parquet writer for tests, on gcol's own Thrift writer: flat columns, PLAIN or
 * dictionary values, RLE/bit-packed definition levels, data pages v1 or v2, several row
 * groups and pages, statistics (per chunk, and per page in a page index) and key-value
 * metadata, UNCOMPRESSED or compressed with the
 * reader's own dlopen'd codec functions (lib/io/parquet_codec.c). Options make it lie
 * (a codec it did not use, a wrong row count, an encoding it did not write, a corrupt page
 * index) for the bad-input tests.
 */
#ifndef GCOL_TESTS_PARQUET_BUILDER_H
#define GCOL_TESTS_PARQUET_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pqb_column {
  const char *name;
  int32_t physical;       /* gcol_parquet_physical_type */
  int32_t type_length;    /* FIXED_LEN_BYTE_ARRAY: bytes (1..16) of big-endian decimals from
                             `ints`, sign-extended, or of each value of `fixed` (any length,
                             also 0 or negative: then nothing is written per value) */
  int32_t logical;        /* gcol_parquet_logical_type, 0 none */
  int32_t time_unit;      /* TIME/TIMESTAMP: 1 ms, 2 us, 3 ns */
  int32_t bit_width;      /* INTEGER */
  bool is_signed;         /* INTEGER */
  int32_t precision;      /* DECIMAL */
  int32_t scale;          /* DECIMAL */
  int32_t converted_type; /* legacy annotation, -1 none (written instead of a logical type) */
  bool optional;
  const int64_t *ints;        /* BOOLEAN (0/1), INT32, INT64, FIXED_LEN_BYTE_ARRAY values */
  const double *reals;        /* FLOAT, DOUBLE */
  const char *const *strings; /* BYTE_ARRAY (NUL-terminated) */
  const uint8_t *fixed;       /* FIXED_LEN_BYTE_ARRAY: type_length bytes per row, written as they
                                 are (binary, UUID, FLOAT16), instead of decimals from `ints` */
  const uint8_t *valid;       /* NULL: all valid (rows with valid 0 are null) */
  bool dictionary;
  bool rle_booleans;      /* BOOLEAN values as RLE (data page v2 style) */
  bool delta;             /* INT32/INT64 values as DELTA_BINARY_PACKED (blocks of 128, 4
                             miniblocks), BYTE_ARRAY as DELTA_LENGTH_BYTE_ARRAY */
  bool split;             /* FLOAT/DOUBLE/INT32/INT64/FIXED_LEN_BYTE_ARRAY values as
                             BYTE_STREAM_SPLIT */
  bool delta_byte_array;  /* BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values as DELTA_BYTE_ARRAY
                             (prefix lengths against the previous value of the page) */
  int32_t page_version;   /* 1 or 2 */
  int64_t rows_per_page;  /* 0: one page per chunk */
  int32_t codec;          /* gcol_parquet_codec of every page (pqb_build fails when its library
                             is missing); data pages v2 compress their values only */
  bool v2_uncompressed;   /* with a codec: data pages v2 say is_compressed false, values raw */
  bool no_statistics;     /* the chunks carry no Statistics */
  bool signed_statistics; /* min and max of unsigned INTEGER columns in signed order (as the
                             deprecated fields of legacy writers) */
  bool page_index;        /* write a ColumnIndex and an OffsetIndex per chunk (after the row
                             groups, before the footer), min/max/null count per page */
  bool no_column_index;   /* with page_index: the OffsetIndex only */
  /* lies */
  int32_t lie_page_index;        /* with page_index: PQB_LIE_* below */
  int32_t lie_encoding;          /* > 0: data pages claim this encoding */
  int32_t lie_codec;             /* > 0: the chunk claims this codec */
  int32_t lie_uncompressed_size; /* added to every page header's uncompressed size */
  int32_t lie_delta_byte_array;  /* with delta_byte_array: PQB_DBA_* below, in every page */
  int32_t lie_type_length;       /* > 0: the schema claims this FIXED_LEN_BYTE_ARRAY length (the
                                    values keep type_length) */
} pqb_column;

/* Ways the page index lies (pqb_column::lie_page_index). */
enum {
  PQB_LIE_OFFSET_INDEX_PAST_END = 1, /* the OffsetIndex's offset lies past the file */
  PQB_LIE_COLUMN_INDEX_SHORT = 2,    /* the ColumnIndex's length is 3 bytes short */
  PQB_LIE_PAGE_OUTSIDE_CHUNK = 3,    /* the last page's offset lies past its chunk */
  PQB_LIE_FIRST_ROW = 4,             /* the first page starts at row 1 */
  PQB_LIE_LIST_LENGTH = 5,           /* min_values has one entry fewer than the pages */
  PQB_LIE_NULL_COUNT = 6,            /* the first page's null count exceeds its rows */
  PQB_LIE_ROWS_ORDER = 7,            /* the last page's first row is past the group's end */
};

/* Ways DELTA_BYTE_ARRAY pages lie (pqb_column::lie_delta_byte_array); "the last value" is
 * the page's last non-null value. */
enum {
  PQB_DBA_PREFIX_TOO_LONG = 1, /* the last value's prefix is 1 byte longer than the previous */
  PQB_DBA_NEGATIVE_PREFIX = 2, /* the last value's prefix length is -1 */
  PQB_DBA_NEGATIVE_SUFFIX = 3, /* the last value's suffix length is -1 */
  PQB_DBA_PREFIX_COUNT = 4,    /* the prefix lengths hold one value more than the page */
  PQB_DBA_SUFFIX_COUNT = 5,    /* the suffix lengths hold one value fewer than the page */
  PQB_DBA_SUFFIX_PAST_END = 6, /* the last value's suffix is 1000 bytes longer than written */
  PQB_DBA_HUGE_SUFFIX = 7,     /* the last value's suffix length is 2^40 */
  PQB_DBA_CUT = 8,             /* the values end 3 bytes into the suffix lengths */
};

typedef struct pqb_file {
  int32_t num_columns;
  const pqb_column *columns;
  int64_t num_rows;
  int64_t rows_per_group; /* 0: one row group */
  int32_t num_key_values;
  const char *const *keys;
  const char *const *values;
  int64_t lie_num_rows; /* > 0: the footer claims this many rows */
} pqb_file;

/* A malloc'd file; NULL on failure. */
uint8_t *pqb_build(const pqb_file *file, int64_t *size);

/* The description of a file of one column of `rows` rows (no lies, one row group). */
pqb_file pqb_one_column(const pqb_column *column, int64_t rows);

/* RLE/bit-packed hybrid encoding of `n` values of `bit_width` bits, appended to a growing
 * buffer (exposed for the decoder's tests). Returns the bytes written; *out is malloc'd. */
int64_t pqb_rle_encode(const uint32_t *values, int64_t n, int bit_width, uint8_t **out);

#endif
