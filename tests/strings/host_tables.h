/*
 * The generated Unicode tables as host arrays, for the host references and host tests of
 * tests/strings/ (the kernels make the same initializers __device__ arrays).
 */
#ifndef GCOL_TESTS_STRINGS_HOST_TABLES_H
#define GCOL_TESTS_STRINGS_HOST_TABLES_H

#include "strings/char_props.h"

/* The tables of kernels/strings/unicode_data.h in host memory. */
gcol_detail_unicode_tables gcol_test_unicode_tables(void);

#endif /* GCOL_TESTS_STRINGS_HOST_TABLES_H */
