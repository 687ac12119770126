#include "test_util.h"
static void placeholder(void **state) { (void)state; }
int main(void) {
  const struct CMUnitTest tests[] = {GCOL_TEST_GPU(placeholder)};
  return GCOL_TEST_RUN_GPU("spill", tests);
}
