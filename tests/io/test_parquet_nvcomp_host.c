/*
 * Host tests of nvCOMP's loader (lib/io/parquet_nvcomp.c) against a stand-in library
 * (fake_nvcomp.c, GCOL_TEST_FAKE_NVCOMP): the versions it takes (5.x, 6.x) and refuses (4.x,
 * 7.x), a codec without DecompressAsync or with an alignment gcol does not plan for left out,
 * the options it passes (the CUDA backend, the rest zero) and the order of the temporary-size
 * arguments, and the file found through a directory.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/parquet.h"
#include "test_util.h"

static const char *fake_path(void) {
  const char *p = getenv("GCOL_TEST_FAKE_NVCOMP");
  if (p == NULL) fail_msg("GCOL_TEST_FAKE_NVCOMP is not set (meson sets it)");
  return p;
}

static void test_versions(void **state) {
  (void)state;
  gcol_detail_nvcomp lib;
  static const char *const taken[] = {"5000", "5300", "6000", "6999"};
  for (int i = 0; i < 4; ++i) {
    setenv("GCOL_FAKE_NVCOMP_VERSION", taken[i], 1);
    gcol_detail_nvcomp_open(fake_path(), NULL, &lib);
    assert_int_equal(lib.version, atoi(taken[i]));
    assert_int_equal(lib.codecs, UINT32_C(1) << GCOL_PARQUET_SNAPPY);
  }
  static const char *const refused[] = {"4200", "7000", "0"};
  for (int i = 0; i < 3; ++i) {
    setenv("GCOL_FAKE_NVCOMP_VERSION", refused[i], 1);
    gcol_detail_nvcomp_open(fake_path(), NULL, &lib);
    assert_int_equal(lib.codecs, 0);
    if (strstr(lib.why, "only 5.x and 6.x") == NULL) fail_msg("%s: %s", refused[i], lib.why);
  }
  unsetenv("GCOL_FAKE_NVCOMP_VERSION");
  gcol_detail_nvcomp_open(fake_path(), "off", &lib);
  assert_int_equal(lib.codecs, 0);
}

static void test_codecs_and_calls(void **state) {
  (void)state;
  gcol_detail_nvcomp lib;
  gcol_detail_nvcomp_open(fake_path(), NULL, &lib);
  assert_int_equal(lib.version, 5300);
  /* SNAPPY whole; ZSTD asks for 512-byte inputs; GZIP lacks DecompressAsync; no LZ4 */
  assert_int_equal(lib.codecs, UINT32_C(1) << GCOL_PARQUET_SNAPPY);
  assert_int_equal(lib.in_alignment[GCOL_PARQUET_SNAPPY], 1);
  assert_int_equal(lib.out_alignment[GCOL_PARQUET_SNAPPY], 1);
  size_t temp = 0;
  /* the stand-in returns n + most + total, and fails unless the options are the CUDA backend
   * with zeroed rest (checked through its alignment call at load: snappy is there) */
  assert_int_equal(gcol_detail_nvcomp_temp_size(&lib, GCOL_PARQUET_SNAPPY, 3, 40, 500, &temp), 0);
  assert_int_equal(temp, 543);
  assert_int_equal(gcol_detail_nvcomp_temp_size(&lib, GCOL_PARQUET_ZSTD, 3, 40, 500, &temp), -1);
  assert_int_equal(gcol_detail_nvcomp_temp_size(&lib, 99, 3, 40, 500, &temp), -1);
  assert_int_equal(gcol_detail_nvcomp_decompress(&lib, GCOL_PARQUET_GZIP, NULL, NULL, NULL, NULL, 0,
                                                 NULL, 0, NULL, NULL, NULL),
                   -1);
  /* a directory: its libnvcomp.so.6, then .5 (the stand-in's directory has neither) */
  char dir[512];
  snprintf(dir, sizeof dir, "%s", fake_path());
  char *slash = strrchr(dir, '/');
  assert_non_null(slash);
  *slash = '\0';
  gcol_detail_nvcomp_open(dir, NULL, &lib);
  assert_int_equal(lib.codecs, 0);
  char want[600];
  snprintf(want, sizeof want, "%s/libnvcomp.so.5", dir);
  if (strstr(lib.why, want) == NULL) fail_msg("%s", lib.why);
  /* a path that does not exist is opened as a file, and named */
  gcol_detail_nvcomp_open("/nonexistent-dir/libnvcomp.so.6", NULL, &lib);
  assert_int_equal(lib.codecs, 0);
  assert_non_null(strstr(lib.why, "/nonexistent-dir/libnvcomp.so.6"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_versions),
      cmocka_unit_test(test_codecs_and_calls),
  };
  return GCOL_TEST_RUN("parquet_nvcomp_host", tests);
}
