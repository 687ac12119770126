/*
 * Regex operations of one string, host and device (strings/regex.h): what regex.cu's
 * extract and replace run per row, unit-tested on the CPU (test_regex_host.c) against
 * Python's re. Output goes through the sink of edit_ops.h (count only, or write).
 *
 * A replacement template is parsed once on the host (gcol_detail_regex_template_parse, in
 * regex_compile.c) into pieces, each a literal run of the template's bytes or a group
 * reference, as Python's re.sub parses its template.
 */
#ifndef GCOL_KERNELS_STRINGS_REGEX_OPS_H
#define GCOL_KERNELS_STRINGS_REGEX_OPS_H

#include <stdint.h>

#include "gcol/config.h"
#include "gcol/status.h"
#include "strings/edit_ops.h"
#include "strings/regex_match.h"

GCOL_EXTERN_C_BEGIN

/* Capture slots of the whole match and every group: a fixed array is enough. */
#define GCOL_DETAIL_REGEX_MAX_SLOTS (2 * (GCOL_DETAIL_REGEX_MAX_GROUPS + 1))

/* ---- extract ---- */

/* The spans of the first match's groups 1..groups (Python's re.search(...).group(g)):
 * spans[2(g-1)], spans[2(g-1)+1] the byte span of group g, -1 both when there is no match or
 * the group did not take part. scratch: gcol_detail_regex_scratch_ints(prog,
 * 2 * (groups + 1)) words. Returns whether there is a match. */
GCOL_HD_INLINE bool gcol_detail_regex_extract_row(const gcol_detail_regex_prog *prog, const char *s,
                                                  int64_t n, int32_t *scratch, int32_t *spans) {
  int32_t caps[GCOL_DETAIL_REGEX_MAX_SLOTS];
  int32_t const nslots = 2 * (prog->num_groups + 1);
  bool const m = gcol_detail_regex_exec(prog, s, n, 0, false, -1, nslots, scratch, caps);
  for (int32_t j = 2; j < nslots; ++j) spans[j - 2] = m ? caps[j] : -1;
  return m;
}

/* ---- replace ---- */

/* A piece of a template: group >= 0 a reference to that group (0: the whole match),
 * otherwise the literal bytes [offset, offset + size) of the template's bytes. */
typedef struct gcol_detail_regex_piece {
  int32_t group;
  int32_t offset;
  int32_t size;
} gcol_detail_regex_piece;

/* A parsed template; pointers host or device alike. */
typedef struct gcol_detail_regex_template {
  const gcol_detail_regex_piece *pieces;
  const char *bytes;
  int32_t num_pieces;
  int32_t max_group; /* the highest group referenced (-1: none) */
} gcol_detail_regex_template;

/*
 * Python's re.sub(pattern, template, s, count) of one row into the sink: every match
 * (re.finditer's, empty ones included) up to max_count (< 0: all) is replaced by the
 * template, a reference to a group that did not take part inserting nothing.
 * scratch: gcol_detail_regex_scratch_ints(prog, gcol_detail_regex_replace_slots(t)).
 */
GCOL_HD_INLINE int32_t gcol_detail_regex_replace_slots(const gcol_detail_regex_template *t) {
  return 2 * ((t->max_group > 0 ? t->max_group : 0) + 1);
}

GCOL_HD_INLINE void gcol_detail_regex_replace_row(const gcol_detail_regex_prog *prog, const char *s,
                                                  int64_t n, const gcol_detail_regex_template *t,
                                                  int64_t max_count, int32_t *scratch,
                                                  gcol_detail_sink *k) {
  int32_t caps[GCOL_DETAIL_REGEX_MAX_SLOTS];
  int32_t const nslots = gcol_detail_regex_replace_slots(t);
  int64_t pos = 0, copied = 0, done = 0;
  bool last_empty = false;
  while ((max_count < 0 || done < max_count) &&
         gcol_detail_regex_next(prog, s, n, &pos, &last_empty, nslots, scratch, caps)) {
    gcol_detail_sink_put(k, s + copied, caps[0] - copied);
    for (int32_t p = 0; p < t->num_pieces; ++p) {
      gcol_detail_regex_piece const pc = t->pieces[p];
      if (pc.group < 0) {
        gcol_detail_sink_put(k, t->bytes + pc.offset, pc.size);
      } else if (caps[2 * pc.group] >= 0) {
        gcol_detail_sink_put(k, s + caps[2 * pc.group],
                             caps[2 * pc.group + 1] - caps[2 * pc.group]);
      }
    }
    copied = caps[1];
    ++done;
  }
  gcol_detail_sink_put(k, s + copied, n - copied);
}

/* ---- findall and split: a row's pieces, one at a time ---- */

/* The row is enumerated again in each pass (count, then write) rather than its matches
 * stored, as split_ops.h does for a literal delimiter. */
typedef enum gcol_detail_regex_pieces_kind {
  GCOL_DETAIL_REGEX_FINDALL = 0, /* a piece per match: group `group` (0: the match) */
  GCOL_DETAIL_REGEX_SPLIT,       /* the text between the first max_splits matches */
  GCOL_DETAIL_REGEX_RSPLIT       /* the text between the last max_splits matches */
} gcol_detail_regex_pieces_kind;

typedef struct gcol_detail_regex_pieces_spec {
  int32_t kind;
  int32_t group;      /* findall: 0 or 1 */
  int64_t max_splits; /* split, rsplit: matches cut at most (< 0: all) */
} gcol_detail_regex_pieces_spec;

typedef struct gcol_detail_regex_pieces_state {
  int64_t pos;   /* where the next match may begin (gcol_detail_regex_next) */
  int64_t begin; /* split: where the current piece begins */
  int64_t skip;  /* rsplit: matches to pass over before the first cut */
  int64_t cuts;  /* split: matches cut so far */
  bool last_empty;
  bool done;
} gcol_detail_regex_pieces_state;

/* Capture slots the enumeration needs (caps of gcol_detail_regex_exec): the match's, and
 * group 1's for findall of a group; scratch: gcol_detail_regex_scratch_ints(prog, this). */
GCOL_HD_INLINE int32_t gcol_detail_regex_pieces_slots(gcol_detail_regex_pieces_spec sp) {
  return sp.kind == GCOL_DETAIL_REGEX_FINDALL ? 2 * (sp.group + 1) : 2;
}

/* The state before the first piece of s. rsplit counts the row's matches first (one more
 * run of the VM) to know how many to pass over: the cuts are the last max_splits of the
 * matches found left to right, as libcudf's rsplit_re (a pattern cannot be matched from
 * the right with the same answers). */
GCOL_HD_INLINE gcol_detail_regex_pieces_state
gcol_detail_regex_pieces_begin(const gcol_detail_regex_prog *prog, gcol_detail_regex_pieces_spec sp,
                               const char *s, int64_t n, int32_t *scratch) {
  gcol_detail_regex_pieces_state st;
  st.pos = 0;
  st.begin = 0;
  st.skip = 0;
  st.cuts = 0;
  st.last_empty = false;
  st.done = false;
  if (sp.kind == GCOL_DETAIL_REGEX_RSPLIT && sp.max_splits > 0) {
    int32_t caps[2];
    int64_t pos = 0, matches = 0;
    bool last_empty = false;
    while (gcol_detail_regex_next(prog, s, n, &pos, &last_empty, 2, scratch, caps)) ++matches;
    st.skip = matches > sp.max_splits ? matches - sp.max_splits : 0;
  }
  return st;
}

/* The next piece of findall: the next match's group (an unset group: "", at 0). */
GCOL_HD_INLINE bool gcol_detail_regex_findall_next(const gcol_detail_regex_prog *prog,
                                                   gcol_detail_regex_pieces_spec sp, const char *s,
                                                   int64_t n, gcol_detail_regex_pieces_state *st,
                                                   int32_t *scratch, int64_t *b, int64_t *e) {
  int32_t caps[4];
  int32_t const g = sp.group;
  if (!gcol_detail_regex_next(prog, s, n, &st->pos, &st->last_empty,
                              gcol_detail_regex_pieces_slots(sp), scratch, caps)) {
    st->done = true;
    return false;
  }
  *b = caps[2 * g] < 0 ? 0 : caps[2 * g];
  *e = caps[2 * g] < 0 ? 0 : caps[2 * g + 1];
  return true;
}

/* The next piece of split / rsplit: up to the next match cut, or the rest of the row. */
GCOL_HD_INLINE bool gcol_detail_regex_split_next(const gcol_detail_regex_prog *prog,
                                                 gcol_detail_regex_pieces_spec sp, const char *s,
                                                 int64_t n, gcol_detail_regex_pieces_state *st,
                                                 int32_t *scratch, int64_t *b, int64_t *e) {
  int32_t caps[2];
  while (sp.max_splits < 0 || st->cuts < sp.max_splits) {
    if (!gcol_detail_regex_next(prog, s, n, &st->pos, &st->last_empty, 2, scratch, caps)) break;
    if (st->skip > 0) {
      --st->skip;
      continue;
    }
    *b = st->begin;
    *e = caps[0];
    st->begin = caps[1];
    ++st->cuts;
    return true;
  }
  *b = st->begin;
  *e = n;
  st->done = true;
  return true;
}

/* The row's next piece s[*b, *e), left to right; false when there is none. */
GCOL_HD_INLINE bool gcol_detail_regex_pieces_next(const gcol_detail_regex_prog *prog,
                                                  gcol_detail_regex_pieces_spec sp, const char *s,
                                                  int64_t n, gcol_detail_regex_pieces_state *st,
                                                  int32_t *scratch, int64_t *b, int64_t *e) {
  if (st->done) return false;
  if (sp.kind == GCOL_DETAIL_REGEX_FINDALL) {
    return gcol_detail_regex_findall_next(prog, sp, s, n, st, scratch, b, e);
  }
  return gcol_detail_regex_split_next(prog, sp, s, n, st, scratch, b, e);
}

/* The number of pieces of s. rsplit has as many as split (min(matches, max_splits) + 1),
 * counted without its extra run of the VM. */
GCOL_HD_INLINE int64_t gcol_detail_regex_pieces_count(const gcol_detail_regex_prog *prog,
                                                      gcol_detail_regex_pieces_spec sp,
                                                      const char *s, int64_t n, int32_t *scratch) {
  if (sp.kind == GCOL_DETAIL_REGEX_RSPLIT) sp.kind = GCOL_DETAIL_REGEX_SPLIT;
  gcol_detail_regex_pieces_state st = gcol_detail_regex_pieces_begin(prog, sp, s, n, scratch);
  int64_t b = 0, e = 0, count = 0;
  while (gcol_detail_regex_pieces_next(prog, sp, s, n, &st, scratch, &b, &e)) ++count;
  return count;
}

/* ---- host: template parsing (regex_compile.c) ---- */

/* A template in host memory: one allocation holding the pieces then the bytes. */
typedef struct gcol_detail_regex_template_host {
  gcol_detail_regex_template t;
  void *block;
  int64_t block_bytes; /* pieces and bytes, as copied to the device */
} gcol_detail_regex_template_host;

/*
 * Parses a replacement template (size bytes) as Python's re.sub does for the pattern re:
 * `\1`..`\99`, `\g<n>` and `\g<name>` group references (`\0`, `\0o`, `\0oo` and `\ooo`
 * octal escapes are characters, written as UTF-8), `\\ \a \b \f \n \r \t \v` the
 * characters, another backslash before a character that is not an ASCII letter kept with it.
 * Invalid argument (the message names the byte): a reference to a group beyond the
 * pattern's, a name that is not an identifier or no group's, an unknown ASCII-letter escape,
 * a malformed `\g<...>`, an octal escape above 0o377, a trailing backslash. Out of memory.
 * `fn` names the caller.
 */
gcol_status gcol_detail_regex_template_parse(const char *tmpl, int64_t size,
                                             const gcol_detail_regex_host *re, const char *fn,
                                             gcol_detail_regex_template_host *out);

/* Frees what gcol_detail_regex_template_parse allocated (safe on an empty one). */
void gcol_detail_regex_template_free(gcol_detail_regex_template_host *h);

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_STRINGS_REGEX_OPS_H */
