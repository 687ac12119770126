/*
 * Reads a Parquet file with gcol (every column, every row group) and prints its metadata and
 * values in the text form tests/io/make_parquet_files.py writes for the values it gave
 * pyarrow, so test_parquet_python.py can compare them line by line:
 *
 *   rows N
 *   row_groups G
 *   column NAME TYPE          (gcol_type_name of the column read)
 *   VALUE | null              (one line per row)
 *
 * VALUE: integers (timestamps, dates, durations, decimals unscaled, booleans 0/1) in decimal;
 * floats as the hex of their IEEE bits (%08x, %016llx); strings as "s:" + hex of the bytes.
 * A failed read prints "error STATUS_NAME" and the message on stderr, and exits 0 (the
 * script decides whether the failure was expected). Without a GPU: "skip", exit 0.
 *
 *   parquet_dump FILE
 *   parquet_dump --rewrite FILE OUT [SKIP...]
 *
 * --rewrite reads FILE with gcol and writes the columns gcol can write (all but durations and
 * those named SKIP) to OUT with gcol's writer, printing "wrote NAME" for each, so that the
 * script can read OUT with pyarrow.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/gcol.h"

static void print_fixed(gcol_column_view v) {
  size_t const w = gcol_type_size(v.type.id);
  uint8_t *values = (uint8_t *)malloc((size_t)(v.size > 0 ? v.size : 1) * w);
  uint8_t *valid = (uint8_t *)malloc((size_t)(v.size > 0 ? v.size : 1));
  if (values == NULL || valid == NULL ||
      gcol_column_copy_to_host(v, values, valid, NULL) != GCOL_OK) {
    printf("error copy\n");
    exit(1);
  }
  bool const is_unsigned = v.type.id == GCOL_UINT8 || v.type.id == GCOL_UINT16 ||
                           v.type.id == GCOL_UINT32 || v.type.id == GCOL_UINT64 ||
                           v.type.id == GCOL_BOOL8;
  for (int64_t i = 0; i < v.size; ++i) {
    const uint8_t *p = values + (size_t)i * w;
    if (!valid[i]) {
      printf("null\n");
      continue;
    }
    uint64_t bits = 0;
    memcpy(&bits, p, w);
    if (v.type.id == GCOL_FLOAT32) {
      printf("%08" PRIx32 "\n", (uint32_t)bits);
    } else if (v.type.id == GCOL_FLOAT64) {
      printf("%016" PRIx64 "\n", bits);
    } else if (is_unsigned) {
      printf("%" PRIu64 "\n", bits);
    } else {
      int const shift = 64 - 8 * (int)w; /* sign-extend the width's bits */
      int64_t const x = (int64_t)(bits << shift) >> shift;
      printf("%" PRId64 "\n", x);
    }
  }
  free(values);
  free(valid);
}

static void print_strings(gcol_column_view v) {
  gcol_host_strings *hs = NULL;
  if (gcol_column_strings_copy_to_host(v, NULL, &hs) != GCOL_OK) {
    printf("error copy\n");
    exit(1);
  }
  for (int64_t i = 0; i < v.size; ++i) {
    if (!hs->valid[i]) {
      printf("null\n");
      continue;
    }
    printf("s:");
    for (int64_t b = hs->offsets[i]; b < hs->offsets[i + 1]; ++b) {
      printf("%02x", (unsigned char)hs->chars[b]);
    }
    printf("\n");
  }
  gcol_host_strings_free(hs);
}

static int rewrite(int argc, char **argv) {
  gcol_parquet_metadata *md = NULL;
  gcol_table *t = NULL;
  gcol_status st = gcol_parquet_metadata_read_file(argv[2], &md);
  if (st == GCOL_OK) st = gcol_parquet_read_file(argv[2], NULL, &t, NULL, NULL);
  if (st != GCOL_OK) {
    printf("error %s\n", gcol_status_string(st));
    fprintf(stderr, "%s\n", gcol_last_error());
    gcol_parquet_metadata_free(md);
    return 1;
  }
  gcol_table_view const tv = gcol_table_get_view(t);
  gcol_column_view *keep = (gcol_column_view *)calloc((size_t)tv.num_columns + 1, sizeof *keep);
  const char **names = (const char **)calloc((size_t)tv.num_columns + 1, sizeof *names);
  int32_t n = 0;
  for (int32_t k = 0; k < tv.num_columns; ++k) {
    gcol_parquet_column_info info;
    gcol_parquet_metadata_column(md, k, &info);
    gcol_type_id const id = tv.columns[k].type.id;
    bool skip = id >= GCOL_DURATION_DAYS && id <= GCOL_DURATION_NANOSECONDS;
    for (int a = 4; a < argc; ++a) skip = skip || strcmp(argv[a], info.name) == 0;
    if (skip) continue;
    keep[n] = tv.columns[k];
    names[n++] = info.name;
  }
  gcol_table_view out;
  gcol_parquet_write_options opt;
  gcol_parquet_write_options_init(&opt);
  opt.column_names = names;
  opt.row_group_rows = 5000;
  st = gcol_table_view_make(keep, n, &out);
  if (st == GCOL_OK) st = gcol_parquet_write_file(out, &opt, argv[3], NULL);
  if (st != GCOL_OK) {
    printf("error %s\n", gcol_status_string(st));
    fprintf(stderr, "%s\n", gcol_last_error());
  } else {
    for (int32_t k = 0; k < n; ++k) printf("wrote %s\n", names[k]);
  }
  free(keep);
  free(names);
  gcol_table_free(t);
  gcol_parquet_metadata_free(md);
  return st == GCOL_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  bool const is_rewrite = argc >= 4 && strcmp(argv[1], "--rewrite") == 0;
  if (argc != 2 && !is_rewrite) {
    fprintf(stderr, "usage: parquet_dump FILE | parquet_dump --rewrite FILE OUT [SKIP...]\n");
    return 2;
  }
  if (gcol_device_count() == 0) {
    printf("skip\n");
    return 0;
  }
  if (is_rewrite) return rewrite(argc, argv);
  gcol_parquet_metadata *md = NULL;
  gcol_status st = gcol_parquet_metadata_read_file(argv[1], &md);
  if (st != GCOL_OK) {
    printf("error %s\n", gcol_status_string(st));
    fprintf(stderr, "%s\n", gcol_last_error());
    return 0;
  }
  gcol_table *t = NULL;
  st = gcol_parquet_read_file(argv[1], NULL, &t, NULL, NULL);
  if (st != GCOL_OK) {
    printf("error %s\n", gcol_status_string(st));
    fprintf(stderr, "%s\n", gcol_last_error());
    gcol_parquet_metadata_free(md);
    return 0;
  }
  printf("rows %" PRId64 "\n", gcol_parquet_metadata_num_rows(md));
  printf("row_groups %d\n", gcol_parquet_metadata_num_row_groups(md));
  gcol_table_view const tv = gcol_table_get_view(t);
  for (int32_t k = 0; k < tv.num_columns; ++k) {
    gcol_parquet_column_info info;
    gcol_parquet_metadata_column(md, k, &info);
    gcol_column_view const v = tv.columns[k];
    printf("column %s %s\n", info.name, gcol_type_name(v.type.id));
    if (v.type.id == GCOL_STRING) {
      print_strings(v);
    } else {
      print_fixed(v);
    }
  }
  gcol_table_free(t);
  gcol_parquet_metadata_free(md);
  return 0;
}
