/*
 * Helper of check_unicode_table.py (suite host): reads hex-encoded strings, one per line,
 * from stdin and prints, per line, the string's upper, lower, swapcase, capitalize and
 * title conversions (hex) and its eight class bits (gcol_char_class order), computed by the
 * same host+device code the kernels run (kernels/strings/char_props.h). The script
 * compares them with Python's str methods. "-" stands for "".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_tables.h"

static int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void print_hex(const char *s, int64_t n) {
  if (n == 0) fputc('-', stdout);
  for (int64_t i = 0; i < n; ++i) printf("%02x", (unsigned char)s[i]);
}

int main(void) {
  gcol_detail_unicode_tables const t = gcol_test_unicode_tables();
  static char line[1 << 16];
  static char in[1 << 15];
  static char out[4 * (1 << 15)];
  while (fgets(line, sizeof line, stdin) != NULL) {
    int64_t n = 0;
    for (size_t i = 0; line[i] != '\0' && line[i] != '\n' && line[i] != '-'; i += 2) {
      int const hi = hex_value(line[i]);
      int const lo = hex_value(line[i + 1]);
      if (hi < 0 || lo < 0) {
        fprintf(stderr, "unicode_dump: bad hex line\n");
        return 2;
      }
      in[n++] = (char)(hi * 16 + lo);
    }
    for (int op = GCOL_CASE_UPPER; op <= GCOL_CASE_TITLE; ++op) {
      int64_t const size = gcol_detail_case_convert(t, (gcol_case_op)op, in, n, NULL);
      int64_t const written = gcol_detail_case_convert(t, (gcol_case_op)op, in, n, out);
      if (size != written) {
        fprintf(stderr, "unicode_dump: measured %lld bytes, wrote %lld\n", (long long)size,
                (long long)written);
        return 2;
      }
      print_hex(out, written);
      fputc(' ', stdout);
    }
    unsigned bits = 0;
    for (int c = GCOL_CHAR_DECIMAL; c <= GCOL_CHAR_LOWER; ++c) {
      if (gcol_detail_string_is_class(t, in, n, (gcol_char_class)c)) bits |= 1u << c;
    }
    printf("%x\n", bits);
  }
  return 0;
}
