/**
 * @file strings/regex.h
 * @ingroup gcol_regex
 * @brief Regular expressions over STRING columns: contains (search), matches (anchored at
 *        the start, Python's `re.match`), count of non-overlapping matches, extract of the
 *        groups into columns, replace with group references, findall (a LIST of the matches)
 *        and split by a pattern (into columns or a LIST, from the left or the right).
 *
 * A pattern is compiled once on the host into a ::gcol_regex (a Thompson NFA program) and
 * run on the device by a Pike VM: a thread per string, no recursion, no backtracking, time
 * O(bytes x program size x L) per row, and state bounded by the program (a temporary
 * scratch of about 4 x (2 x instructions x (1 + capture slots) + 4 x L x instructions)
 * bytes per running thread, at most 256 MiB in all; L is 1 + how deeply repetitions whose
 * body can match the empty string nest, 1 for most patterns).
 *
 * Syntax and semantics are Python's `re` with `re.ASCII`: literals (UTF-8, any code
 * point), `.`, classes `[...]` / `[^...]` with ranges over code points, `\d \w \s` and
 * `\D \W \S` (ASCII), escapes (`\n \t \r \f \v \a \0 \xhh \uhhhh \Uhhhhhhhh`, escaped
 * punctuation), quantifiers `* + ? {n} {n,} {,m} {n,m}` greedy or lazy (`?` suffix; counts
 * up to 1000, expanded into copies), groups `( )`, `(?: )`, `(?P<name> )` (numbered;
 * the name an identifier used once, for `\g<name>` in replace; a non-ASCII byte is taken
 * as an identifier character without checking its Unicode class), alternation `|`,
 * anchors `^ $ \A \Z \z \b \B`. Matches are leftmost-first, as Python reports them (span
 * and groups). Not supported (::GCOL_ERROR_UNSUPPORTED at compile
 * time): backreferences, lookaround, inline flags, possessive quantifiers.
 *
 * Empty iterations follow Python: an iteration of a repetition (`*`, `+`, `{n,}`, `{n,m}`)
 * beyond its minimum that matches the empty string ends the repetition, only what follows
 * it being tried, and it counts: its captures are kept (`(a*)*` on "b": group 1 is "";
 * `(a*?)*b` on "aab": group 1 is the empty span at 2). Difference from Python: an invalid
 * UTF-8 byte in a row is one character, U+FFFD.
 *
 * @code
 * gcol_regex *re = NULL;
 * gcol_regex_compile("(\\d+)-(\\d+)", -1, GCOL_REGEX_DEFAULT, &re);
 * gcol_column *hits = NULL;
 * gcol_strings_regex_contains(text, re, &hits, stream, NULL);   // BOOL8
 * gcol_regex_free(re);
 *
 * gcol_regex *digits = NULL;
 * gcol_regex_compile("\\d+", -1, GCOL_REGEX_DEFAULT, &digits);
 * gcol_column *numbers = NULL;     // "a1b22" -> ["1", "22"]
 * gcol_column *parts = NULL;       // "a1b22" -> ["a", "b22"]
 * gcol_strings_findall(text, digits, &numbers, stream, NULL);
 * gcol_strings_split_record_re(text, digits, 1, &parts, stream, NULL);
 * gcol_regex_free(digits);
 * @endcode
 */
#ifndef GCOL_STRINGS_REGEX_H
#define GCOL_STRINGS_REGEX_H

/** @addtogroup gcol_regex
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief A compiled regular expression (host memory; opaque). */
typedef struct gcol_regex gcol_regex;

/** @brief Compile flags (or-ed together). */
typedef enum gcol_regex_flags {
  GCOL_REGEX_DEFAULT = 0,    /**< Case-sensitive; `^ $` at the ends; `.` not `\n`. */
  GCOL_REGEX_IGNORECASE = 1, /**< ASCII letters match either case (re.I with re.ASCII). */
  GCOL_REGEX_MULTILINE = 2,  /**< `^` and `$` also after and before each `\n` (re.M). */
  GCOL_REGEX_DOTALL = 4      /**< `.` also matches `\n` (re.S). */
} gcol_regex_flags;

/**
 * @brief Compiles a pattern.
 * @param[in] pattern The pattern's bytes (UTF-8).
 * @param[in] size Its size in bytes, or -1 when @p pattern is NUL-terminated.
 * @param[in] flags ::gcol_regex_flags or-ed.
 * @param[out] out The program; NULL on failure.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, unknown flags, a
 *         malformed pattern, a group name that is not an identifier or names two groups:
 *         the message says what and names the byte);
 *         ::GCOL_ERROR_UNSUPPORTED (a construct outside the subset);
 *         ::GCOL_ERROR_OVERFLOW (a repeat count above 1000, more than 64 groups, nesting
 *         deeper than 200, repetitions that can match empty nested more than 16 deep, a
 *         program above 2000 instructions or 4096 class ranges);
 *         ::GCOL_ERROR_OUT_OF_MEMORY.
 * @note Host only; no stream. The caller owns *out (gcol_regex_free()).
 */
gcol_status gcol_regex_compile(const char *pattern, int64_t size, uint32_t flags, gcol_regex **out);

/** @brief Frees a program (NULL is ignored). */
void gcol_regex_free(gcol_regex *re);

/** @brief Capturing groups of a program (0 for NULL). */
int32_t gcol_regex_num_groups(const gcol_regex *re);

/**
 * @brief Whether the pattern matches anywhere in each row (Python's `re.search`).
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] re A compiled program.
 * @param[out] out BOOL8, null where @p input is null; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p re or @p out, malformed view);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OVERFLOW (a row longer than
 *         INT32_MAX bytes); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the program to the device and allocates the VM scratch (temporaries);
 *       with INT64 offsets synchronizes to check the row lengths. The caller owns *out.
 */
gcol_status gcol_strings_regex_contains(gcol_column_view input, const gcol_regex *re,
                                        gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief Whether the pattern matches at the start of each row (Python's `re.match`;
 *         add `\Z` for a whole-row match); otherwise as gcol_strings_regex_contains(). */
gcol_status gcol_strings_regex_matches(gcol_column_view input, const gcol_regex *re,
                                       gcol_column **out, gcol_stream stream, gcol_mr *mr);

/** @brief Non-overlapping matches in each row (INT32, `len(re.findall)`: an empty match is
 *         counted, but not right after another empty one at the same place); otherwise as
 *         gcol_strings_regex_contains(). */
gcol_status gcol_strings_regex_count(gcol_column_view input, const gcol_regex *re,
                                     gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief The capturing groups of each row's first match (Python's
 *        `re.search(p, row).group(g)` for g = 1 .. groups), one STRING column per group.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] re A compiled program with at least one capturing group.
 * @param[out] out A table of gcol_regex_num_groups() STRING columns of input's rows; a
 *             row is null in every column where @p input is null or the pattern does not
 *             match, and in column g - 1 where group g did not take part (an empty group
 *             is "", not null). Offsets are INT32, or INT64 when a column's bytes need them.
 *             NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p re or @p out, a pattern without
 *         groups, malformed view); ::GCOL_ERROR_TYPE_MISMATCH (not STRING);
 *         ::GCOL_ERROR_OVERFLOW (a row longer than INT32_MAX bytes);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Runs the VM once per row into a temporary of 8 bytes per row and group, then builds
 *       the columns from it (one synchronization per column). The caller owns *out.
 */
gcol_status gcol_strings_regex_extract(gcol_column_view input, const gcol_regex *re,
                                       gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Replaces the matches in each row by a template (Python's
 *        `re.sub(p, replacement, row, count)`).
 *
 * Matches are those of `re.finditer` (non-overlapping, left to right; an empty match is
 * replaced too, but not right after another empty one at the same place). The template is
 * Python's: `\1` .. `\99` and `\g<n>` insert group n (`\g<0>`: the whole match; a group
 * that did not take part inserts nothing, as Python 3.5+), `\g<name>` the group of that
 * name (`(?P<name>...)`); `\\ \a \b \f \n \r \t \v`
 * are those characters; `\0`, `\0o`, `\0oo` and three octal digits `\ooo` are the
 * character of that code (up to 0o377, written as UTF-8); a backslash before another
 * character that is not an ASCII letter is kept with it.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] re A compiled program.
 * @param[in] replacement The template's bytes (UTF-8); NULL only with size 0.
 * @param[in] replacement_size Its size in bytes, or -1 when NUL-terminated.
 * @param[in] max_count The most matches replaced in a row (from the left), or -1 for all
 *            (Python's count = 0); 0 copies every row.
 * @param[out] out STRING, null where @p input is null; INT32 offsets, or INT64 when the
 *             output's bytes need them. NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p re or @p out, NULL replacement
 *         with a size, max_count < -1, malformed view, a template Python rejects: a
 *         reference to a group the pattern lacks or a name no group has (Python's
 *         IndexError), an unknown letter escape such as `\q`, a malformed `\g<...>` (a name
 *         that is not an identifier), an octal escape above 0o377, a trailing backslash; the
 *         message names it and its byte); ::GCOL_ERROR_TYPE_MISMATCH (not STRING);
 *         ::GCOL_ERROR_OVERFLOW (a row longer than INT32_MAX bytes, an output row too large
 *         to address, a template of 512 MiB or more); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA
 *         status.
 * @note The template is parsed once on the host; two passes run the VM over each row (the
 *       sizes, then the bytes) with one synchronization between them. The caller owns *out.
 */
gcol_status gcol_strings_regex_replace(gcol_column_view input, const gcol_regex *re,
                                       const char *replacement, int64_t replacement_size,
                                       int64_t max_count, gcol_column **out, gcol_stream stream,
                                       gcol_mr *mr);

/**
 * @brief Every match in each row as a list (Python's `re.findall(p, row)`), a LIST of
 *        STRING column.
 *
 * Matches are those of `re.finditer`: non-overlapping, left to right; an empty match is
 * one too, but not right after another empty one at the same place (`a*` on "baaac" gives
 * `["", "aaa", "", ""]`). A pattern without capturing groups lists the matches; a pattern
 * of one group lists that group of each match ("" where it did not take part, as Python).
 * Python lists a tuple per match for a pattern of several groups; a LIST of STRING has no
 * place for them, so such a pattern is refused (::GCOL_ERROR_UNSUPPORTED: make the other
 * groups non-capturing with `(?:...)`, or use gcol_strings_regex_extract()).
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] re A compiled program of 0 or 1 capturing group.
 * @param[out] out A LIST column of `input.size` rows whose values are a STRING column
 *                 without nulls; a row is null where the input row is null (and then an
 *                 empty list), an empty list where the row has no match. Offsets (list and
 *                 values) are INT32, or INT64 when the values' rows or bytes need them.
 *                 NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p re or @p out, malformed view);
 *         ::GCOL_ERROR_UNSUPPORTED (a pattern of several groups);
 *         ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OVERFLOW (a row longer than
 *         INT32_MAX bytes); ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note Copies the program to the device and allocates the VM scratch (temporaries); two
 *       passes run the VM over each row (the number of matches, then their places) with a
 *       synchronization after each. The caller owns *out.
 */
gcol_status gcol_strings_findall(gcol_column_view input, const gcol_regex *re, gcol_column **out,
                                 gcol_stream stream, gcol_mr *mr);

/**
 * @brief Splits each row at the matches of a pattern, left to right, into a table: column j
 *        holds each row's piece j (Python's `re.split(p, row, maxsplit)`, with strings/split.h's
 *        conventions).
 *
 * The matches are those of gcol_strings_findall() (`re.finditer`'s); the first @p max_splits
 * of them cut the row, which gives (matches cut) + 1 pieces, "" included: a match at either
 * end gives an empty piece there, and so does an empty match, but not one right after
 * another empty match at the same place (Python 3.7's rule: `re.split("x*", "axbc")` is
 * `["", "a", "", "b", "c", ""]`; a row "" split by `x*` gives `["", ""]`, by `,` gives
 * `[""]`). Differences from Python: @p max_splits is -1 for all and 0 for none (a row is one
 * piece), as gcol_strings_split(), where Python's 0 means all; the groups of the pattern are
 * not inserted between the pieces, as Python does for a pattern with groups (the pieces
 * are the same: for a pattern without groups the answer is Python's).
 *
 * The table has as many columns as the most pieces of any row, and at least one: a row with
 * fewer pieces (a null row: none) is null in the columns past its last piece; with no rows,
 * or every row null, the table is one column of nulls.
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] re A compiled program.
 * @param[in] max_splits Matches cut per row at most, or -1 for all.
 * @param[out] out The table of STRING columns of `input.size` rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p re or @p out, max_splits < -1,
 *         malformed view); ::GCOL_ERROR_TYPE_MISMATCH (not STRING); ::GCOL_ERROR_OVERFLOW (a
 *         row longer than INT32_MAX bytes, more columns than a table holds);
 *         ::GCOL_ERROR_OUT_OF_MEMORY; a CUDA status.
 * @note As gcol_strings_findall(), then one synchronization per output column (a gather of
 *       the pieces). The caller owns *out.
 */
gcol_status gcol_strings_split_re(gcol_column_view input, const gcol_regex *re, int64_t max_splits,
                                  gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_strings_split_re(), the cuts being the last @p max_splits matches (as
 *        gcol_strings_rsplit() for a delimiter; libcudf's rsplit_re).
 *
 * The matches are still found left to right (`re.finditer`'s; a pattern matched from the
 * right could give other matches); with `m` of them in a row, the first `m - max_splits`
 * are passed over. Column j holds each row's piece j counted from the left; rows with
 * fewer pieces are null on the right. With -1 or at least as many splits as matches, the
 * answer is gcol_strings_split_re()'s.
 * @param[in] input A STRING column.
 * @param[in] re A compiled program.
 * @param[in] max_splits As gcol_strings_split_re().
 * @param[out] out The table; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_split_re().
 * @note As gcol_strings_split_re(); the second pass runs the VM over a row twice when
 *       max_splits > 0 (to count its matches first).
 */
gcol_status gcol_strings_rsplit_re(gcol_column_view input, const gcol_regex *re, int64_t max_splits,
                                   gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Splits each row at the matches of a pattern, left to right, into a list: row i of
 *        the output is the list of row i's pieces (pieces as gcol_strings_split_re()).
 * @param[in] input A STRING column (sliced or not; INT32 or INT64 offsets).
 * @param[in] re A compiled program.
 * @param[in] max_splits Matches cut per row at most, or -1 for all.
 * @param[out] out A LIST column of `input.size` rows whose values are a STRING column
 *                 without nulls; a row is null where the input row is null (and then an
 *                 empty list); every other row has at least one piece. NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_split_re() (no table: no limit on the pieces of a row).
 * @note As gcol_strings_findall(). The caller owns *out.
 */
gcol_status gcol_strings_split_record_re(gcol_column_view input, const gcol_regex *re,
                                         int64_t max_splits, gcol_column **out, gcol_stream stream,
                                         gcol_mr *mr);

/**
 * @brief As gcol_strings_split_record_re(), the cuts being the last @p max_splits matches
 *        (gcol_strings_rsplit_re()); each list holds its pieces left to right.
 * @param[in] input A STRING column.
 * @param[in] re A compiled program.
 * @param[in] max_splits As gcol_strings_split_record_re().
 * @param[out] out The LIST column; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_strings_split_record_re().
 * @note As gcol_strings_rsplit_re(). The caller owns *out.
 */
gcol_status gcol_strings_rsplit_record_re(gcol_column_view input, const gcol_regex *re,
                                          int64_t max_splits, gcol_column **out, gcol_stream stream,
                                          gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STRINGS_REGEX_H */
