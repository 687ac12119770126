/*
 * SQL LIKE: the pattern compiled on the host (like_pattern.c) into items, and the matcher
 * run per row, host and device, by strings' gcol_strings_like (kernels/strings/like.cu) and
 * by the expression interpreter's LIKE (kernels/expression/expression_program.h): one
 * matcher for both, in the shared layer (unit-tested on the CPU against a dynamic
 * programming reference in tests/strings/, and through the expression host tests).
 *
 * Items: 0..255 a literal byte, GCOL_DETAIL_LIKE_ONE `_` (one character), GCOL_DETAIL_LIKE_ANY
 * `%` (any characters, runs of them collapsed into one). Characters are decoded as
 * gcol/utf8.h does (an invalid byte is one character).
 */
#ifndef GCOL_KERNELS_DETAIL_LIKE_MATCH_H
#define GCOL_KERNELS_DETAIL_LIKE_MATCH_H

#include <stdint.h>

#include "gcol/config.h"
#include "gcol/status.h"
#include "gcol/utf8.h"

GCOL_EXTERN_C_BEGIN

#define GCOL_DETAIL_LIKE_ONE (-1)
#define GCOL_DETAIL_LIKE_ANY (-2)

/*
 * Compiles a LIKE pattern (size bytes) into items (room for size entries) and *count.
 * escape: NULL or "" for none, else one UTF-8 character (NUL-terminated) that makes the
 * following `%`, `_` or escape character literal. Fails (invalid argument, a message naming
 * the byte) on an escape character at the end of the pattern or before any other
 * character, and on an escape that is not exactly one valid UTF-8 character.
 */
gcol_status gcol_detail_like_compile(const char *pattern, int64_t size, const char *escape,
                                     int32_t *items, int64_t *count);

/* Bytes of the character at s + p (n bytes in all), decoded as gcol/utf8.h does (an invalid
 * byte is one character); as strings' gcol_detail_char_bytes. */
GCOL_HD_INLINE int64_t gcol_detail_like_char_bytes(const char *s, int64_t p, int64_t n) {
  if ((unsigned char)s[p] < 0x80u) return 1;
  return gcol_utf8_decode(s + p, n - p).length;
}

/* Whether s (n bytes) matches the compiled items: greedy, backtracking only to the last
 * `%` (no recursion; O(n * m) at worst). */
GCOL_HD_INLINE bool gcol_detail_like_match(const char *s, int64_t n, const int32_t *items,
                                           int64_t m) {
  int64_t p = 0;
  int64_t i = 0;
  int64_t star_item = -1;
  int64_t star_pos = 0;
  while (p < n) {
    int32_t const item = i < m ? items[i] : 0;
    if (i < m && item == GCOL_DETAIL_LIKE_ANY) {
      star_item = i++;
      star_pos = p;
    } else if (i < m && item == GCOL_DETAIL_LIKE_ONE) {
      p += gcol_detail_like_char_bytes(s, p, n);
      ++i;
    } else if (i < m && item == (int32_t)(unsigned char)s[p]) {
      ++p;
      ++i;
    } else if (star_item >= 0) {
      star_pos += gcol_detail_like_char_bytes(s, star_pos, n);
      p = star_pos;
      i = star_item + 1;
    } else {
      return false;
    }
  }
  while (i < m && items[i] == GCOL_DETAIL_LIKE_ANY) ++i;
  return i == m;
}

GCOL_EXTERN_C_END

#endif /* GCOL_KERNELS_DETAIL_LIKE_MATCH_H */
