/* The sequential reference parser of csv_reference.h. */
#include "csv_reference.h"

#include <stdlib.h>
#include <string.h>

static void push_byte(csv_ref_field *f, int64_t *cap, uint8_t c) {
  if (f->size == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    f->value = (char *)realloc(f->value, (size_t)*cap);
  }
  f->value[f->size++] = (char)c;
}

/* One field from *pos; returns whether it ended inside quotes. */
static bool parse_field(const uint8_t *b, int64_t n, int64_t *pos, int delim, int quote,
                        int escape, csv_ref_field *f) {
  int64_t cap = 0;
  int64_t p = *pos;
  bool quoted = p < n && b[p] == quote;
  if (quoted) ++p;
  f->value = NULL;
  f->size = 0;
  while (p < n) {
    uint8_t const c = b[p];
    if (c == escape) {
      push_byte(f, &cap, p + 1 < n ? b[p + 1] : c);
      p += p + 1 < n ? 2 : 1;
    } else if (quoted && c == quote) {
      if (p + 1 < n && b[p + 1] == quote) {
        push_byte(f, &cap, c);
        p += 2;
      } else {
        quoted = false;
        ++p;
      }
    } else if (!quoted && (c == delim || c == '\n' || c == '\r')) {
      break;
    } else {
      push_byte(f, &cap, c);
      ++p;
    }
  }
  *pos = p;
  return quoted;
}

void csv_ref_parse(const uint8_t *b, int64_t n, int delim, int quote, int escape, int comment,
                   csv_ref *out) {
  int64_t cap_rows = 0, pos = 0;
  memset(out, 0, sizeof *out);
  while (pos < n) {
    if (b[pos] == '\n' || b[pos] == '\r') {
      ++pos;
      continue;
    }
    if (b[pos] == comment) {
      while (pos < n && b[pos] != '\n' && b[pos] != '\r') ++pos;
      continue;
    }
    if (out->num_rows == cap_rows) {
      cap_rows = cap_rows ? cap_rows * 2 : 8;
      out->rows = (csv_ref_row *)realloc(out->rows, (size_t)cap_rows * sizeof *out->rows);
    }
    csv_ref_row *row = &out->rows[out->num_rows++];
    int64_t cap_fields = 0;
    row->begin = pos;
    row->num_fields = 0;
    row->fields = NULL;
    for (;;) {
      if (row->num_fields == cap_fields) {
        cap_fields = cap_fields ? cap_fields * 2 : 4;
        row->fields = (csv_ref_field *)realloc(row->fields, (size_t)cap_fields * sizeof(csv_ref_field));
      }
      if (parse_field(b, n, &pos, delim, quote, escape, &row->fields[row->num_fields++])) {
        out->open_quote = true;
      }
      if (pos < n && b[pos] == delim) {
        ++pos;
        continue;
      }
      break;
    }
  }
}

void csv_ref_free(csv_ref *r) {
  for (int64_t i = 0; i < r->num_rows; ++i) {
    for (int64_t k = 0; k < r->rows[i].num_fields; ++k) free(r->rows[i].fields[k].value);
    free(r->rows[i].fields);
  }
  free(r->rows);
  memset(r, 0, sizeof *r);
}
