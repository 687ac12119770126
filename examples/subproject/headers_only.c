/*
 * A program that uses only gcol's headers (dependency('gcol-headers')): a typed view over
 * host memory, read with the same inline functions a custom kernel calls on the device. It
 * links neither libgcol.a nor the CUDA runtime. Prints the sum of the valid values: 1 + 4 = 5.
 */
#include <stdint.h>
#include <stdio.h>

#include "gcol/typed_view.h"

int main(void) {
  const int64_t values[3] = {1, 2, 4};
  const uint32_t mask[1] = {0x5}; /* rows 0 and 2 valid, row 1 null (LSB first) */
  gcol_i64_view view = gcol_i64_view_wrap(values, mask, 0, 3);
  int64_t sum = 0;
  for (int64_t i = 0; i < view.size; ++i)
    if (gcol_i64_view_is_valid(view, i)) sum += gcol_i64_view_get(view, i);
  printf("gcol %s headers: sum of valid values = %lld\n", GCOL_VERSION_STRING, (long long)sum);
  return sum == 5 ? 0 : 1;
}
