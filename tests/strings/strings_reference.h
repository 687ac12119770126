/*
 * Host references of the strings operations (include/gcol/strings/), written apart from the
 * kernels' per-string code where an independent formulation exists: find/rfind over an
 * explicit list of character boundaries, count and contains with memcmp, LIKE by dynamic
 * programming. Case conversion and classes run the kernels' own host+device functions
 * (char_props.h), which check_unicode_table.py checks against Python's str methods.
 */
#ifndef GCOL_TESTS_STRINGS_REFERENCE_H
#define GCOL_TESTS_STRINGS_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "gcol/strings/attributes.h"
#include "gcol/strings/case.h"
#include "gcol/strings/edit.h"
#include "test_util.h"

/* A random string of 0..max_pieces pieces drawn from pieces[0, num_pieces), concatenated into
 * out (room enough for max_pieces of the longest piece); returns its bytes. */
int64_t ref_random_string(gcol_test_rng *rng, const char *const *pieces, int64_t num_pieces,
                          int64_t max_pieces, char *out);

/* Characters of s (each invalid byte one character). */
int64_t ref_char_count(const char *s, int64_t n);

/* Python's str.find / str.rfind over characters, -1 when absent. */
int64_t ref_find(const char *s, int64_t n, const char *t, int64_t tn, int64_t start,
                 int64_t stop, bool reverse);

bool ref_contains(const char *s, int64_t n, const char *t, int64_t tn);
bool ref_starts_with(const char *s, int64_t n, const char *t, int64_t tn);
bool ref_ends_with(const char *s, int64_t n, const char *t, int64_t tn);
int64_t ref_count(const char *s, int64_t n, const char *t, int64_t tn);

/* SQL LIKE by dynamic programming over the raw pattern (escape: NULL/"" none). Returns -1
 * for a malformed pattern. */
int ref_like(const char *s, int64_t n, const char *pattern, int64_t pn, const char *escape);

/* Case conversion into out (room for 3 * n bytes); returns the bytes written. */
int64_t ref_convert_case(const char *s, int64_t n, gcol_case_op op, char *out);
bool ref_is_class(const char *s, int64_t n, gcol_char_class cls);

/*
 * Edits (strings/edit.h), written from Python's definitions over an explicit list of
 * character boundaries. Each returns a malloc'd result (free it; never NULL) and its byte
 * length in *len.
 */

/* Replaces at most max_count (-1: all) matches of targets[0..count) (the first that begins
 * at a boundary wins) by repls[j] (repls[0] for all when num_repls is 1). */
char *ref_replace(const char *s, int64_t n, const char *const *targets,
                  const int64_t *target_sizes, int64_t count, const char *const *repls,
                  const int64_t *repl_sizes, int64_t num_repls, int64_t max_count, int64_t *len);
/* s[start:stop:step] over characters; GCOL_SLICE_NONE for Python's None. */
char *ref_slice(const char *s, int64_t n, int64_t start, int64_t stop, int64_t step, int64_t *len);
/* Strips whitespace (set NULL: the Unicode table's SPACE class) or the characters of set. */
char *ref_strip(const char *s, int64_t n, gcol_strings_side side, const char *set,
                int64_t set_size, int64_t *len);
char *ref_pad(const char *s, int64_t n, int64_t width, gcol_strings_side side, uint32_t fill,
              int64_t *len);
char *ref_zfill(const char *s, int64_t n, int64_t width, int64_t *len);
char *ref_repeat(const char *s, int64_t n, int64_t count, int64_t *len);
char *ref_reverse(const char *s, int64_t n, int64_t *len);

/*
 * Split and join (strings/split.h, strings/combine.h), transcribed from CPython's
 * split / rsplit / split_whitespace / rsplit_whitespace over an explicit list of character
 * boundaries, whitespace from the Unicode table (not the kernels' fixed list).
 */

/* The pieces of s.split(delim, max_splits) (reverse: s.rsplit; dn 0: whitespace) as byte
 * ranges, left to right: (*ranges)[2 k] and [2 k + 1] begin and end piece k. Returns the
 * number of pieces; free *ranges. A delimiter matches where it begins at a boundary. */
int64_t ref_split(const char *s, int64_t n, const char *delim, int64_t dn, int64_t max_splits,
                  bool reverse, int64_t **ranges);

/* sep.join(items[0..count)), items[k] NULL for a null: replaced by narep when narep is not
 * NULL, else skipped when skip_nulls, else the result is null (returns NULL). Otherwise
 * malloc'd, never NULL, *len its bytes. */
char *ref_join(const char *const *items, const int64_t *sizes, int64_t count, const char *sep,
               int64_t sep_size, const char *narep, int64_t narep_size, bool skip_nulls,
               int64_t *len);

#endif /* GCOL_TESTS_STRINGS_REFERENCE_H */
