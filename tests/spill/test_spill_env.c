/*
 * The environment turns spilling on: this program runs with GCOL_SPILL=on and
 * GCOL_SPILL_DEVICE_LIMIT=64MiB (tests/spill/meson.build), and the current device's manager
 * (device 0 without a GPU) starts on with that limit; the API then overrides it.
 */
#include "test_util.h"

static void the_environment_turns_spilling_on(void **state) {
  (void)state;
  assert_true(gcol_spill_is_enabled());
  gcol_spill_options options;
  GCOL_TEST_OK(gcol_spill_get_options(&options));
  assert_int_equal(options.device_limit, (size_t)64 << 20);
  assert_null(options.host_mr);
  GCOL_TEST_OK(gcol_spill_set_device_limit(1000));
  GCOL_TEST_OK(gcol_spill_get_options(&options));
  assert_int_equal(options.device_limit, 1000);
  GCOL_TEST_OK(gcol_spill_disable());
  assert_false(gcol_spill_is_enabled());
  GCOL_TEST_STATUS(gcol_spill_get_options(NULL), GCOL_ERROR_INVALID_ARGUMENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_environment_turns_spilling_on),
  };
  return GCOL_TEST_RUN("spill_env", tests);
}
