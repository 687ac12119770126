/* Argument-check helpers of the strings host tests: views over fake device memory (a call
 * that let bad input reach the GPU would fault on them), and the check that a call failed
 * with the expected status, a message naming the problem and its output set to NULL. */
#ifndef GCOL_TESTS_STRINGS_FAKE_VIEWS_H
#define GCOL_TESTS_STRINGS_FAKE_VIEWS_H

#include <stdint.h>
#include <string.h>

#include "gcol/column.h"
#include "test_util.h"

#define FAKE_PTR ((const void *)(uintptr_t)0x10)

static inline gcol_column_view fake_view(gcol_type_id type, int64_t size) {
  return gcol_column_view_make(gcol_data_type_make(type), size, FAKE_PTR, NULL, 0);
}

/* A STRING view of `size` rows over fake device memory. */
static inline gcol_column_view fake_strings(int64_t size, const gcol_column_view *offsets) {
  gcol_column_view v = gcol_column_view_make(gcol_data_type_make(GCOL_STRING), size,
                                             size > 0 ? FAKE_PTR : NULL, NULL, 0);
  if (size > 0) {
    v.children = offsets;
    v.num_children = 1;
  }
  return v;
}

static inline void expect_message(const char *needle) {
  if (strstr(gcol_last_error(), needle) == NULL) {
    fail_msg("message \"%s\" does not name \"%s\"", gcol_last_error(), needle);
  }
}

/* `call` fails with `st`, names `needle` and leaves the caller's `out` NULL. */
#define EXPECT_FAIL(call, st, needle)  \
  do {                                 \
    out = (gcol_column *)(uintptr_t)1; \
    GCOL_TEST_STATUS((call), (st));    \
    expect_message(needle);            \
    assert_null(out);                  \
  } while (0)

#endif /* GCOL_TESTS_STRINGS_FAKE_VIEWS_H */
