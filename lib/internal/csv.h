/*
 * CSV internals shared by lib/io/csv_*.c (options, header, the read plan) and kernels/io/csv_*.cu
 * (row boundaries, fields, conversions, the writer's rows). The per-byte and per-field logic is
 * inline host+device, so the host tests and the fuzzer run exactly what the kernels run.
 *
 * Rows are found by one small automaton (gcol_detail_csv_step) whose 8 states say where a byte
 * lies: at a row start, at a field start, inside an unquoted field, after an escape, inside
 * quotes, after an escape inside quotes, just after a closing quote, inside a comment line.
 * Running it from each of the 8 states over a chunk of bytes gives the chunk's transition
 * function (end state and rows begun, per start state); composing those in file order fixes
 * every chunk's true start state, so chunks are scanned independently (in parallel) and
 * still agree with one sequential pass, quotes included.
 */
#ifndef GCOL_INTERNAL_CSV_H
#define GCOL_INTERNAL_CSV_H

#include <stdbool.h>
#include <stdint.h>

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/io/csv.h"
#include "gcol/memory.h"
#include "gcol/string_view.h"
#include "gcol/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dialect and automaton ---- */

/* The special bytes; -1 for none (a byte never equals -1, so no test is needed). */
typedef struct gcol_detail_csv_dialect {
  int delimiter;
  int quote;
  int escape;
  int comment;
} gcol_detail_csv_dialect;

enum {
  GCOL_DETAIL_CSV_START = 0,   /* at a row start (empty lines are skipped here) */
  GCOL_DETAIL_CSV_FSTART = 1,  /* at a field start: a quote opens a quoted field */
  GCOL_DETAIL_CSV_FIELD = 2,   /* inside an unquoted field: a quote is a plain byte */
  GCOL_DETAIL_CSV_ESC = 3,     /* after an escape outside quotes */
  GCOL_DETAIL_CSV_QUOTED = 4,  /* inside quotes */
  GCOL_DETAIL_CSV_QESC = 5,    /* after an escape inside quotes */
  GCOL_DETAIL_CSV_QEND = 6,    /* after a quote that may close the field ("" reopens) */
  GCOL_DETAIL_CSV_COMMENT = 7, /* inside a comment line */
  GCOL_DETAIL_CSV_NUM_STATES = 8
};

/* Default bytes per chunk of the row pass: one GPU thread each; 16 KiB keeps the per-chunk table
 * the host composes at 1/400 of the input. */
#define GCOL_DETAIL_CSV_CHUNK ((int64_t)16384)

GCOL_HD_INLINE bool gcol_detail_csv_is_newline(int c) { return c == '\n' || c == '\r'; }

/* The state after byte `c` in state `s`; *begins is set when `c` is the first byte of a row. */
GCOL_HD_INLINE int gcol_detail_csv_step(gcol_detail_csv_dialect d, int s, int c, bool *begins) {
  bool const nl = gcol_detail_csv_is_newline(c);
  *begins = false;
  if (s == GCOL_DETAIL_CSV_START) {
    if (nl) return GCOL_DETAIL_CSV_START; /* empty line, or the \n of \r\n */
    if (c == d.comment) return GCOL_DETAIL_CSV_COMMENT;
    *begins = true;
    s = GCOL_DETAIL_CSV_FSTART;
  }
  switch (s) {
    case GCOL_DETAIL_CSV_FSTART:
    case GCOL_DETAIL_CSV_FIELD:
    case GCOL_DETAIL_CSV_QEND:
      if (nl) return GCOL_DETAIL_CSV_START;
      if (c == d.delimiter) return GCOL_DETAIL_CSV_FSTART;
      if (c == d.quote && s != GCOL_DETAIL_CSV_FIELD) return GCOL_DETAIL_CSV_QUOTED;
      if (c == d.escape) return GCOL_DETAIL_CSV_ESC;
      return GCOL_DETAIL_CSV_FIELD;
    case GCOL_DETAIL_CSV_ESC:
      return GCOL_DETAIL_CSV_FIELD;
    case GCOL_DETAIL_CSV_QUOTED:
      if (c == d.escape) return GCOL_DETAIL_CSV_QESC;
      return c == d.quote ? GCOL_DETAIL_CSV_QEND : GCOL_DETAIL_CSV_QUOTED;
    case GCOL_DETAIL_CSV_QESC:
      return GCOL_DETAIL_CSV_QUOTED;
    default: /* COMMENT */
      return nl ? GCOL_DETAIL_CSV_START : GCOL_DETAIL_CSV_COMMENT;
  }
}

/* True when input ending in state `s` leaves a quoted field open. */
GCOL_HD_INLINE bool gcol_detail_csv_state_in_quotes(int s) {
  return s == GCOL_DETAIL_CSV_QUOTED || s == GCOL_DETAIL_CSV_QESC;
}

/* One chunk's transition function: for each start state, the end state and rows begun. */
typedef struct gcol_detail_csv_chunk {
  int32_t rows[GCOL_DETAIL_CSV_NUM_STATES];
  uint8_t end_state[GCOL_DETAIL_CSV_NUM_STATES];
} gcol_detail_csv_chunk;

/* The transition function of bytes[begin, end): all 8 start states in one pass over the bytes. */
GCOL_HD_INLINE void gcol_detail_csv_scan_chunk(gcol_detail_csv_dialect d, const uint8_t *bytes,
                                               int64_t begin, int64_t end,
                                               gcol_detail_csv_chunk *out) {
  int state[GCOL_DETAIL_CSV_NUM_STATES];
  int32_t rows[GCOL_DETAIL_CSV_NUM_STATES];
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    state[s] = s;
    rows[s] = 0;
  }
  for (int64_t i = begin; i < end; ++i) {
    int const c = bytes[i];
    for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
      bool b;
      state[s] = gcol_detail_csv_step(d, state[s], c, &b);
      rows[s] += b;
    }
  }
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    out->rows[s] = rows[s];
    out->end_state[s] = (uint8_t)state[s];
  }
}

/* Byte `c`'s transitions: the next state of each state s in bits [4s, 4s + 4) of the result,
 * and *begins whether it begins a row (only from GCOL_DETAIL_CSV_START). A table of the 256 bytes
 * turns gcol_detail_csv_scan_chunk's per-state branches into shifts (the row pass's kernel). */
GCOL_HD_INLINE uint32_t gcol_detail_csv_byte_transitions(gcol_detail_csv_dialect d, int c,
                                                         bool *begins) {
  uint32_t next = 0;
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    bool b;
    next |= (uint32_t)gcol_detail_csv_step(d, s, c, &b) << (4 * s);
    if (s == GCOL_DETAIL_CSV_START) *begins = b;
  }
  return next;
}

/* gcol_detail_csv_scan_chunk through the tables of gcol_detail_csv_byte_transitions (`next` and
 * `begins`, 256 entries each): the same function. */
GCOL_HD_INLINE void gcol_detail_csv_scan_chunk_table(const uint32_t *next, const bool *begins,
                                                     const uint8_t *bytes, int64_t begin,
                                                     int64_t end, gcol_detail_csv_chunk *out) {
  uint32_t state[GCOL_DETAIL_CSV_NUM_STATES];
  int32_t rows[GCOL_DETAIL_CSV_NUM_STATES];
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    state[s] = (uint32_t)s;
    rows[s] = 0;
  }
  for (int64_t i = begin; i < end; ++i) {
    int const c = bytes[i];
    uint32_t const t = next[c];
    int32_t const b = begins[c] ? 1 : 0;
    for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
      rows[s] += state[s] == GCOL_DETAIL_CSV_START ? b : 0;
      state[s] = (t >> (4 * state[s])) & 0xFu;
    }
  }
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    out->rows[s] = rows[s];
    out->end_state[s] = (uint8_t)state[s];
  }
}

/* The transition function of nothing: every state to itself, no row. */
GCOL_HD_INLINE void gcol_detail_csv_chunk_identity(gcol_detail_csv_chunk *out) {
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    out->rows[s] = 0;
    out->end_state[s] = (uint8_t)s;
  }
}

/* The function of bytes read under `first`, then under `then` (adjacent, in that order):
 * associative, so a block composes its threads' pieces in a tree or a scan. `out` may be
 * either input. */
GCOL_HD_INLINE void gcol_detail_csv_chunk_then(const gcol_detail_csv_chunk *first,
                                               const gcol_detail_csv_chunk *then,
                                               gcol_detail_csv_chunk *out) {
  gcol_detail_csv_chunk r;
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    int const mid = first->end_state[s];
    r.rows[s] = first->rows[s] + then->rows[mid];
    r.end_state[s] = then->end_state[mid];
  }
  *out = r;
}

/* A piece's function as the row pass keeps it between its two kernels: end states in 4-bit
 * fields, rows in bytes (a piece holds at most GCOL_DETAIL_CSV_PIECE_MAX bytes). */
#define GCOL_DETAIL_CSV_PIECE_MAX 255
typedef struct gcol_detail_csv_piece {
  uint32_t end_states;
  uint8_t rows[GCOL_DETAIL_CSV_NUM_STATES];
} gcol_detail_csv_piece;

GCOL_HD_INLINE gcol_detail_csv_piece gcol_detail_csv_piece_pack(const gcol_detail_csv_chunk *f) {
  gcol_detail_csv_piece p;
  p.end_states = 0;
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    p.end_states |= (uint32_t)f->end_state[s] << (4 * s);
    p.rows[s] = (uint8_t)f->rows[s];
  }
  return p;
}

GCOL_HD_INLINE void gcol_detail_csv_piece_unpack(gcol_detail_csv_piece p,
                                                 gcol_detail_csv_chunk *out) {
  for (int s = 0; s < GCOL_DETAIL_CSV_NUM_STATES; ++s) {
    out->end_state[s] = (uint8_t)((p.end_states >> (4 * s)) & 0xFu);
    out->rows[s] = p.rows[s];
  }
}

/* Composes chunk transition functions in order from `state` (host): each chunk's true start state
 * and first row index; returns the rows of all chunks, *state becomes the final state. */
GCOL_HD_INLINE int64_t gcol_detail_csv_compose(const gcol_detail_csv_chunk *chunks, int64_t n,
                                               int *state, uint8_t *start_state,
                                               int64_t *first_row) {
  int64_t rows = 0;
  for (int64_t k = 0; k < n; ++k) {
    start_state[k] = (uint8_t)*state;
    first_row[k] = rows;
    rows += chunks[k].rows[*state];
    *state = chunks[k].end_state[*state];
  }
  return rows;
}

/* Writes the positions of the rows begun in bytes[begin, end) from `state` to starts[0, ...);
 * returns how many. */
GCOL_HD_INLINE int64_t gcol_detail_csv_chunk_row_starts(gcol_detail_csv_dialect d,
                                                        const uint8_t *bytes, int64_t begin,
                                                        int64_t end, int state, int64_t *starts) {
  int64_t n = 0;
  for (int64_t i = begin; i < end; ++i) {
    bool b;
    state = gcol_detail_csv_step(d, state, bytes[i], &b);
    if (b) starts[n++] = i;
  }
  return n;
}

/* ---- one row ---- */

/* Walks the row that begins at `pos` (a row start: not a newline, not a comment) up to the first
 * newline outside quotes, or `end`. Stores the first min(fields, max_fields) field begins at
 * field_begin[k * stride]; returns the number of fields. *content_end is where the row's bytes end
 * (its newline, or `end`); *next is where the scan stopped (after the newline); *in_quotes says
 * the row ran to `end` inside quotes. Never reads outside [pos, end). */
GCOL_HD_INLINE int64_t gcol_detail_csv_parse_row(gcol_detail_csv_dialect d, const uint8_t *bytes,
                                                 int64_t pos, int64_t end, int64_t *field_begin,
                                                 int64_t stride, int64_t max_fields,
                                                 int64_t *content_end, bool *in_quotes) {
  int s = GCOL_DETAIL_CSV_FSTART;
  int64_t fields = 1;
  if (max_fields > 0) field_begin[0] = pos;
  int64_t i = pos;
  for (; i < end; ++i) {
    int const c = bytes[i];
    bool b;
    int const t = gcol_detail_csv_step(d, s, c, &b);
    if (t == GCOL_DETAIL_CSV_START) break;
    if (t == GCOL_DETAIL_CSV_FSTART) { /* only a delimiter outside quotes leads here */
      if (fields < max_fields) field_begin[fields * stride] = i + 1;
      ++fields;
    }
    s = t;
  }
  *content_end = i;
  *in_quotes = i == end && gcol_detail_csv_state_in_quotes(s);
  return fields;
}

/* From a position in state `state`, the next row start at or after `pos`, or `end`. */
GCOL_HD_INLINE int64_t gcol_detail_csv_next_row(gcol_detail_csv_dialect d, const uint8_t *bytes,
                                                int64_t pos, int64_t end, int state) {
  for (; pos < end; ++pos) {
    bool b;
    state = gcol_detail_csv_step(d, state, bytes[pos], &b);
    if (b) return pos;
  }
  return end;
}

/* ---- one field ---- */

/* Reads a field's value byte by byte: the opening quote dropped, "" inside quotes as one quote,
 * the closing quote dropped (bytes after it are kept, as Arrow does), an escape keeping the byte
 * after it. Never reads outside [pos, end). */
typedef struct gcol_detail_csv_cursor {
  const uint8_t *bytes;
  int64_t pos;
  int64_t end;
  bool quoted;
} gcol_detail_csv_cursor;

GCOL_HD_INLINE gcol_detail_csv_cursor gcol_detail_csv_cursor_make(gcol_detail_csv_dialect d,
                                                                  const uint8_t *bytes,
                                                                  int64_t begin, int64_t end) {
  gcol_detail_csv_cursor c;
  c.bytes = bytes;
  c.quoted = begin < end && bytes[begin] == d.quote;
  c.pos = c.quoted ? begin + 1 : begin;
  c.end = end;
  return c;
}

/* The next byte of the value, or -1 at its end. */
GCOL_HD_INLINE int gcol_detail_csv_cursor_next(gcol_detail_csv_dialect d,
                                               gcol_detail_csv_cursor *c) {
  while (c->pos < c->end) {
    int const b = c->bytes[c->pos++];
    if (b == d.escape) return c->pos < c->end ? c->bytes[c->pos++] : b;
    if (c->quoted && b == d.quote) {
      if (c->pos < c->end && c->bytes[c->pos] == d.quote) return c->bytes[c->pos++];
      c->quoted = false;
      continue;
    }
    return b;
  }
  return -1;
}

/* Bytes of the value of field [begin, end). */
GCOL_HD_INLINE int64_t gcol_detail_csv_field_size(gcol_detail_csv_dialect d, const uint8_t *bytes,
                                                  int64_t begin, int64_t end) {
  gcol_detail_csv_cursor c = gcol_detail_csv_cursor_make(d, bytes, begin, end);
  int64_t n = 0;
  while (gcol_detail_csv_cursor_next(d, &c) >= 0) ++n;
  return n;
}

/* Writes the value of field [begin, end) to out; returns its bytes. */
GCOL_HD_INLINE int64_t gcol_detail_csv_field_copy(gcol_detail_csv_dialect d, const uint8_t *bytes,
                                                  int64_t begin, int64_t end, uint8_t *out) {
  gcol_detail_csv_cursor c = gcol_detail_csv_cursor_make(d, bytes, begin, end);
  int64_t n = 0;
  for (int b = gcol_detail_csv_cursor_next(d, &c); b >= 0; b = gcol_detail_csv_cursor_next(d, &c)) {
    out[n++] = (uint8_t)b;
  }
  return n;
}

/* A list of byte strings (null values, true values, false values): entry k is
 * chars[offsets[k], offsets[k + 1]). */
typedef struct gcol_detail_csv_list {
  const char *chars;
  const int64_t *offsets;
  int32_t count;
} gcol_detail_csv_list;

/* True when the value of field [begin, end) equals an entry of `list`. */
GCOL_HD_INLINE bool gcol_detail_csv_field_in(gcol_detail_csv_dialect d, const uint8_t *bytes,
                                             int64_t begin, int64_t end, gcol_detail_csv_list list) {
  for (int32_t k = 0; k < list.count; ++k) {
    gcol_detail_csv_cursor c = gcol_detail_csv_cursor_make(d, bytes, begin, end);
    int64_t j = list.offsets[k];
    int64_t const j_end = list.offsets[k + 1];
    int b = gcol_detail_csv_cursor_next(d, &c);
    while (b >= 0 && j < j_end && b == (uint8_t)list.chars[j]) {
      b = gcol_detail_csv_cursor_next(d, &c);
      ++j;
    }
    if (b < 0 && j == j_end) return true;
  }
  return false;
}

/* True when s[0, len) equals an entry of `list`; *index is the entry. */
GCOL_HD_INLINE bool gcol_detail_csv_bytes_in(const char *s, int64_t len, gcol_detail_csv_list list,
                                             int32_t *index) {
  for (int32_t k = 0; k < list.count; ++k) {
    int64_t const b = list.offsets[k];
    if (list.offsets[k + 1] - b != len) continue;
    int64_t i = 0;
    while (i < len && s[i] == list.chars[b + i]) ++i;
    if (i == len) {
      *index = k;
      return true;
    }
  }
  return false;
}

/* ---- timestamps ---- */

/* Days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
GCOL_HD_INLINE int64_t gcol_detail_csv_days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  int64_t const era = (y >= 0 ? y : y - 399) / 400;
  int64_t const yoe = y - era * 400;
  int64_t const doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/* `n` decimal digits at s[*i] into *out; false if any is not a digit. */
GCOL_HD_INLINE bool gcol_detail_csv_digits(const char *s, int64_t len, int64_t *i, int n,
                                           int64_t *out) {
  int64_t v = 0;
  for (int k = 0; k < n; ++k, ++*i) {
    if (*i >= len || s[*i] < '0' || s[*i] > '9') return false;
    v = v * 10 + (s[*i] - '0');
  }
  *out = v;
  return true;
}

/* Parses `YYYY-MM-DD[(T| )HH:MM[:SS[.f{1,9}]]][Z]` into ticks of `unit` (0 days, 1 seconds,
 * 2 milliseconds, 3 microseconds, 4 nanoseconds), truncating finer digits (toward -inf for
 * days). Returns false for anything else, or a field out of its calendar range. */
GCOL_HD_INLINE bool gcol_detail_csv_parse_timestamp(const char *s, int64_t len, int unit,
                                                    int64_t *out) {
  int64_t i = 0, y, mo, d, h = 0, mi = 0, sec = 0, frac = 0;
  if (!gcol_detail_csv_digits(s, len, &i, 4, &y) || i >= len || s[i++] != '-') return false;
  if (!gcol_detail_csv_digits(s, len, &i, 2, &mo) || i >= len || s[i++] != '-') return false;
  if (!gcol_detail_csv_digits(s, len, &i, 2, &d)) return false;
  int64_t const mdays = mo == 2 ? 29 : (mo == 4 || mo == 6 || mo == 9 || mo == 11) ? 30 : 31;
  if (mo < 1 || mo > 12 || d < 1 || d > mdays) return false;
  if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))) return false;
  if (i < len && (s[i] == 'T' || s[i] == ' ')) {
    ++i;
    if (!gcol_detail_csv_digits(s, len, &i, 2, &h) || i >= len || s[i++] != ':') return false;
    if (!gcol_detail_csv_digits(s, len, &i, 2, &mi)) return false;
    if (i < len && s[i] == ':') {
      ++i;
      if (!gcol_detail_csv_digits(s, len, &i, 2, &sec)) return false;
      if (i < len && s[i] == '.') {
        int n = 0;
        for (++i; i < len && s[i] >= '0' && s[i] <= '9'; ++i, ++n) {
          if (n < 9) frac = frac * 10 + (s[i] - '0');
        }
        if (n == 0 || n > 9) return false;
        for (; n < 9; ++n) frac *= 10;
      }
    }
    if (h > 23 || mi > 59 || sec > 59) return false;
  }
  if (i < len && s[i] == 'Z') ++i;
  if (i != len) return false;
  int64_t const days = gcol_detail_csv_days_from_civil(y, mo, d);
  int64_t const secs = days * 86400 + h * 3600 + mi * 60 + sec;
  switch (unit) {
    case 0: *out = days; break;
    case 1: *out = secs; break;
    case 2: *out = secs * 1000 + frac / 1000000; break;
    case 3: *out = secs * 1000000 + frac / 1000; break;
    default: *out = secs * 1000000000 + frac; break;
  }
  return true;
}

/* ---- the writer's fields ---- */

/* True when a value must be quoted: empty (so that it differs from a null written as ""), or
 * holding the delimiter, the quote, the escape or a newline. */
GCOL_HD_INLINE bool gcol_detail_csv_needs_quotes(gcol_detail_csv_dialect d, const char *s,
                                                 int64_t len) {
  if (len == 0) return true;
  for (int64_t i = 0; i < len; ++i) {
    int const c = (uint8_t)s[i];
    if (c == d.delimiter || c == d.quote || c == d.escape || gcol_detail_csv_is_newline(c)) {
      return true;
    }
  }
  return false;
}

/* Writes a value as a field (quoted when needed and the dialect has a quote, quotes doubled) to
 * out, or only counts when out is NULL; returns its bytes. */
GCOL_HD_INLINE int64_t gcol_detail_csv_put_field(gcol_detail_csv_dialect d, const char *s,
                                                 int64_t len, char *out) {
  bool const quoted = d.quote >= 0 && gcol_detail_csv_needs_quotes(d, s, len);
  int64_t n = 0;
  if (quoted) {
    if (out != NULL) out[n] = (char)d.quote;
    ++n;
  }
  for (int64_t i = 0; i < len; ++i) {
    if (quoted && (uint8_t)s[i] == d.quote) {
      if (out != NULL) out[n] = (char)d.quote;
      ++n;
    }
    if (out != NULL) out[n] = s[i];
    ++n;
  }
  if (quoted) {
    if (out != NULL) out[n] = (char)d.quote;
    ++n;
  }
  return n;
}

/* ---- the read plan (lib/io/csv_read.c) and its device part (kernels/io/csv_read.cu) ---- */

/* What the host decided before the GPU runs. */
typedef struct gcol_detail_csv_plan {
  const uint8_t *bytes;         /* the whole input, host */
  int64_t size;                 /* its bytes */
  int64_t data_begin;           /* the first byte after the skipped rows and the header */
  int64_t range_end;            /* rows that begin before this are read */
  int64_t max_rows;             /* -1: all */
  int64_t chunk;                /* bytes per chunk of the row pass */
  gcol_detail_csv_dialect dialect;
  int32_t num_columns;
  const gcol_data_type *types;  /* num_columns entries; GCOL_EMPTY: infer */
  /* packed lists (host): null, true and false values */
  const char *list_chars[3];
  const int64_t *list_offsets[3];
  int32_t list_count[3];
} gcol_detail_csv_plan;

/* Copies the plan's bytes to the device, finds rows and fields, builds and converts the columns.
 * Bad input (a ragged row, an unterminated quote) gives GCOL_ERROR_INVALID_ARGUMENT naming the
 * row (0-based, after the header) and its byte offset. Synchronizes. */
gcol_status gcol_detail_csv_read_device(const gcol_detail_csv_plan *plan, gcol_stream stream,
                                        gcol_mr *mr, gcol_table **out);

/* As gcol_csv_read_buffer(), with `chunk` bytes per chunk of the row pass (tests use small
 * chunks to put chunk boundaries everywhere). */
gcol_status gcol_detail_csv_read(const void *data, int64_t size,
                                 const gcol_csv_read_options *options, int64_t chunk,
                                 gcol_table **out, gcol_csv_names **names, gcol_stream stream,
                                 gcol_mr *mr);

/* Checks read options (no GPU); `num_columns_hint` unused. */
gcol_status gcol_detail_csv_check_read_options(const gcol_csv_read_options *options);

/* Checks write options (no GPU). */
gcol_status gcol_detail_csv_check_write_options(const gcol_csv_write_options *options);

/* The dialect of read or write options. */
gcol_detail_csv_dialect gcol_detail_csv_dialect_make(char delimiter, char quote, char escape,
                                                     char comment);

/* One column of the writer, for the row kernel. */
typedef struct gcol_detail_csv_wcol {
  int kind; /* 0 STRING (s), 1 BOOL8 (data), 2 timestamp (data, unit), 3 integer, 4 float
             * (data, width; formatted in the row kernel as gcol_cast to STRING formats them) */
  gcol_strings_view s;
  const void *data;
  const uint32_t *mask;
  int64_t mask_offset;
  int unit;         /* timestamps: 0 days .. 4 nanoseconds */
  int width;        /* numbers: bytes per value */
  bool is_unsigned; /* integers */
} gcol_detail_csv_wcol;

/* Formats a timestamp of `unit` as `YYYY-MM-DD` (days) or `YYYY-MM-DD HH:MM:SS[.fraction]`
 * into out (at least 40 bytes), or counts when out is NULL; returns the bytes. */
GCOL_HD_INLINE int gcol_detail_csv_format_timestamp(int64_t ticks, int unit, char *out) {
  int64_t per_sec = 1;
  for (int u = 1; u < unit; ++u) per_sec *= 1000;
  int64_t days, secs = 0, frac = 0;
  if (unit == 0) {
    days = ticks;
  } else {
    int64_t total = ticks / per_sec;
    frac = ticks % per_sec;
    if (frac < 0) {
      frac += per_sec;
      --total;
    }
    days = total / 86400;
    secs = total % 86400;
    if (secs < 0) {
      secs += 86400;
      --days;
    }
  }
  /* civil_from_days (H. Hinnant) */
  int64_t const z = days + 719468;
  int64_t const era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t const doe = z - era * 146097;
  int64_t const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t const mp = (5 * doy + 2) / 153;
  int64_t const d = doy - (153 * mp + 2) / 5 + 1;
  int64_t const m = mp < 10 ? mp + 3 : mp - 9;
  int64_t y = yoe + era * 400 + (m <= 2);
  char buf[48];
  int n = 0;
  if (y < 0) {
    buf[n++] = '-';
    y = -y;
  }
  char digits[24];
  int nd = 0;
  do {
    digits[nd++] = (char)('0' + y % 10);
    y /= 10;
  } while (y > 0);
  for (; nd < 4; ++nd) digits[nd] = '0';
  while (nd > 0) buf[n++] = digits[--nd];
  int64_t const parts[5] = {m, d, secs / 3600, secs / 60 % 60, secs % 60};
  const char seps[5] = {'-', '-', ' ', ':', ':'};
  int const nparts = unit == 0 ? 2 : 5;
  for (int k = 0; k < nparts; ++k) {
    buf[n++] = seps[k];
    buf[n++] = (char)('0' + parts[k] / 10);
    buf[n++] = (char)('0' + parts[k] % 10);
  }
  if (unit >= 2) {
    buf[n++] = '.';
    int const width = 3 * (unit - 1);
    for (int k = width - 1; k >= 0; --k) {
      buf[n + k] = (char)('0' + frac % 10);
      frac /= 10;
    }
    n += width;
  }
  if (out != NULL) {
    for (int k = 0; k < n; ++k) out[k] = buf[k];
  }
  return n;
}

/* Builds the CSV text of `num_rows` rows of `num_columns` writer columns on the device (the header
 * and the terminator given by the host), and copies it to a new host buffer (freed with free()). */
gcol_status gcol_detail_csv_write_rows(const gcol_detail_csv_wcol *columns, int32_t num_columns,
                                       int64_t num_rows, gcol_detail_csv_dialect dialect,
                                       const char *null_value, const char *true_value,
                                       const char *false_value, const char *terminator,
                                       const char *header, int64_t header_size, gcol_stream stream,
                                       char **out, int64_t *out_size);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_CSV_H */
