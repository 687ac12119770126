/*
 * A plain sequential CSV parser written from the rules of include/gcol/io/csv.h, independent of
 * the automaton in lib/internal/csv.h: the host tests and the GPU tests compare gcol's rows and
 * values with it.
 */
#ifndef GCOL_TESTS_IO_CSV_REFERENCE_H
#define GCOL_TESTS_IO_CSV_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct csv_ref_field {
  char *value;
  int64_t size;
} csv_ref_field;

typedef struct csv_ref_row {
  int64_t begin; /* byte offset of the row's first byte */
  int64_t num_fields;
  csv_ref_field *fields;
} csv_ref_row;

typedef struct csv_ref {
  int64_t num_rows;
  csv_ref_row *rows;
  bool open_quote; /* the input ended inside quotes */
} csv_ref;

/* quote, escape, comment: -1 for none. */
void csv_ref_parse(const uint8_t *bytes, int64_t n, int delimiter, int quote, int escape,
                   int comment, csv_ref *out);
void csv_ref_free(csv_ref *r);

#endif
