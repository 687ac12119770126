/*
 * Compiles SQL LIKE patterns on the host (like_match.h): escapes resolved, runs of `%`
 * collapsed, every error reported before any device work.
 */
#include <string.h>

#include "detail/like_match.h"
#include "gcol/utf8.h"
#include "internal/error.h"

gcol_status gcol_detail_like_compile(const char *pattern, int64_t size, const char *escape,
                                     int32_t *items, int64_t *count) {
  int64_t const escape_size = escape == NULL ? 0 : (int64_t)strlen(escape);
  int64_t m = 0;
  *count = 0;
  if (escape_size > 0) {
    gcol_utf8_char const c = gcol_utf8_decode(escape, escape_size);
    GCOL_DETAIL_REQUIRE(c.valid && c.length == escape_size, GCOL_ERROR_INVALID_ARGUMENT,
                        "escape_character \"%s\" is not one UTF-8 character", escape);
  }
  for (int64_t p = 0; p < size;) {
    if (escape_size > 0 && p + escape_size <= size &&
        memcmp(pattern + p, escape, (size_t)escape_size) == 0) {
      int64_t const next = p + escape_size;
      bool const escapes_special =
          next < size && (pattern[next] == '%' || pattern[next] == '_');
      bool const escapes_itself = next + escape_size <= size &&
                                  memcmp(pattern + next, escape, (size_t)escape_size) == 0;
      GCOL_DETAIL_REQUIRE(next < size, GCOL_ERROR_INVALID_ARGUMENT,
                          "pattern ends with the escape character (byte %lld)", (long long)p);
      GCOL_DETAIL_REQUIRE(escapes_special || escapes_itself, GCOL_ERROR_INVALID_ARGUMENT,
                          "the escape character at byte %lld of the pattern is followed by "
                          "neither %%, _ nor itself",
                          (long long)p);
      if (escapes_special) {
        items[m++] = (unsigned char)pattern[next];
        p = next + 1;
      } else {
        for (int64_t k = 0; k < escape_size; ++k) items[m++] = (unsigned char)escape[k];
        p = next + escape_size;
      }
      continue;
    }
    char const c = pattern[p++];
    if (c == '%') {
      if (m == 0 || items[m - 1] != GCOL_DETAIL_LIKE_ANY) items[m++] = GCOL_DETAIL_LIKE_ANY;
    } else if (c == '_') {
      items[m++] = GCOL_DETAIL_LIKE_ONE;
    } else {
      items[m++] = (unsigned char)c;
    }
  }
  *count = m;
  return GCOL_OK;
}
