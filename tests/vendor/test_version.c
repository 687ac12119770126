/* Host tests: gcol_version() and the GCOL_VERSION_* macros agree with each other and with
 * the Meson project version (GCOL_TEST_PROJECT_VERSION, passed by tests/vendor/meson.build). */
#include <stdio.h>

#include "test_util.h"

static void library_version_is_the_headers_version(void **state) {
  (void)state;
  assert_non_null(gcol_version());
  assert_string_equal(gcol_version(), GCOL_VERSION_STRING);
}

static void version_string_spells_the_macros(void **state) {
  (void)state;
  char expected[64];
  snprintf(expected, sizeof expected, "%d.%d.%d", GCOL_VERSION_MAJOR, GCOL_VERSION_MINOR,
           GCOL_VERSION_PATCH);
  assert_string_equal(GCOL_VERSION_STRING, expected);
}

static void version_is_the_meson_project_version(void **state) {
  (void)state;
  assert_string_equal(gcol_version(), GCOL_TEST_PROJECT_VERSION);
}

/* Usable in #if, as the header's example shows. */
#if GCOL_VERSION_MAJOR < 0 || GCOL_VERSION_MINOR < 0 || GCOL_VERSION_PATCH < 0
#error "GCOL_VERSION_* must be non-negative integers usable in #if"
#endif

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(library_version_is_the_headers_version),
      cmocka_unit_test(version_string_spells_the_macros),
      cmocka_unit_test(version_is_the_meson_project_version),
  };
  return GCOL_TEST_RUN("version", tests);
}
