/*
 * Reads a CSV file with gcol_csv_read_file on the GPU and prints what it read, in the text form
 * test_csv_python.py writes for pyarrow's reading of the same file:
 *
 *   rows N
 *   column NAME TYPE        (gcol_type_name)
 *   VALUE | null            (one line per row: integers and booleans (0/1) in decimal, floats
 *                            as %.17g, strings as "s:" + hex of the bytes)
 *
 *   csv_dump [--delimiter=C] [--quote=C|none] [--escape=C] [--no-header] [--skip-rows=N]
 *            [--max-rows=N] [--nulls=A|B|..] [--trues=A|..] [--falses=A|..] FILE
 *
 * No GPU: prints "skip". A failed read prints "error STATUS" (the message on stderr).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/gcol.h"

/* Splits "a|b|c" into a NULL-terminated array (the string is modified). */
static int split(char *s, const char **out, int max) {
  int n = 0;
  for (char *p = s; n < max;) {
    out[n++] = p;
    char *bar = strchr(p, '|');
    if (bar == NULL) break;
    *bar = '\0';
    p = bar + 1;
  }
  return n;
}

static void print_column(gcol_column_view v) {
  if (v.type.id == GCOL_STRING) {
    gcol_host_strings *hs = NULL;
    if (gcol_column_strings_copy_to_host(v, NULL, &hs) != GCOL_OK) exit(1);
    for (int64_t i = 0; i < v.size; ++i) {
      if (!hs->valid[i]) {
        printf("null\n");
        continue;
      }
      printf("s:");
      for (int64_t k = hs->offsets[i]; k < hs->offsets[i + 1]; ++k)
        printf("%02x", (uint8_t)hs->chars[k]);
      printf("\n");
    }
    gcol_host_strings_free(hs);
    return;
  }
  size_t const w = gcol_type_size(v.type.id);
  uint8_t *values = malloc((size_t)(v.size + 1) * w), *valid = malloc((size_t)v.size + 1);
  if (gcol_column_copy_to_host(v, values, valid, NULL) != GCOL_OK) exit(1);
  for (int64_t i = 0; i < v.size; ++i) {
    const uint8_t *p = values + (size_t)i * w;
    if (!valid[i]) {
      printf("null\n");
    } else if (v.type.id == GCOL_FLOAT64) {
      double d;
      memcpy(&d, p, 8);
      printf("%.17g\n", d);
    } else if (v.type.id == GCOL_BOOL8) {
      printf("%d\n", p[0] != 0);
    } else if (w == 8) {
      int64_t x;
      memcpy(&x, p, 8);
      printf("%" PRId64 "\n", x);
    } else {
      int32_t x;
      memcpy(&x, p, 4);
      printf("%d\n", x);
    }
  }
  free(values);
  free(valid);
}

int main(int argc, char **argv) {
  gcol_csv_read_options o;
  gcol_csv_read_options_init(&o);
  const char *nulls[16], *trues[16], *falses[16];
  const char *path = NULL;
  for (int i = 1; i < argc; ++i) {
    char *a = argv[i];
    if (strncmp(a, "--delimiter=", 12) == 0)
      o.delimiter = a[12];
    else if (strcmp(a, "--quote=none") == 0)
      o.quote = 0;
    else if (strncmp(a, "--quote=", 8) == 0)
      o.quote = a[8];
    else if (strncmp(a, "--escape=", 9) == 0)
      o.escape = a[9];
    else if (strcmp(a, "--no-header") == 0)
      o.has_header = false;
    else if (strncmp(a, "--skip-rows=", 12) == 0)
      o.skip_rows = atoll(a + 12);
    else if (strncmp(a, "--max-rows=", 11) == 0)
      o.max_rows = atoll(a + 11);
    else if (strncmp(a, "--nulls=", 8) == 0) {
      o.null_values = nulls;
      o.num_null_values = split(a + 8, nulls, 16);
    } else if (strncmp(a, "--trues=", 8) == 0) {
      o.true_values = trues;
      o.num_true_values = split(a + 8, trues, 16);
    } else if (strncmp(a, "--falses=", 9) == 0) {
      o.false_values = falses;
      o.num_false_values = split(a + 9, falses, 16);
    } else
      path = a;
  }
  if (gcol_device_count() == 0) {
    printf("skip\n");
    return 0;
  }
  gcol_table *t = NULL;
  gcol_csv_names *names = NULL;
  gcol_status const st = gcol_csv_read_file(path, &o, &t, &names, NULL, NULL);
  if (st != GCOL_OK) {
    printf("error %s\n", gcol_status_string(st));
    fprintf(stderr, "%s\n", gcol_last_error());
    return 0;
  }
  printf("rows %lld\n", (long long)t->num_rows);
  for (int32_t c = 0; c < t->num_columns; ++c) {
    printf("column %s %s\n", names->names[c],
           gcol_type_name(gcol_table_get_view(t).columns[c].type.id));
    print_column(gcol_table_get_view(t).columns[c]);
  }
  gcol_csv_names_free(names);
  gcol_table_free(t);
  return 0;
}
