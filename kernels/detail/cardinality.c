/* Host side of the cardinality estimates (cardinality.h): the HyperLogLog estimator and the
 * test hooks. */
#include "detail/cardinality.h"

#include <math.h>
#include <stdatomic.h>

static _Atomic int64_t estimate_override = -1;
static _Atomic int64_t estimate_misses = 0;

double gcol_detail_hll_estimate(const uint32_t *registers) {
  double const m = (double)GCOL_DETAIL_HLL_REGISTERS;
  double const alpha = 0.7213 / (1.0 + 1.079 / m);
  double sum = 0.0;
  int64_t empty = 0;
  for (int32_t j = 0; j < GCOL_DETAIL_HLL_REGISTERS; ++j) {
    sum += ldexp(1.0, -(int)registers[j]);
    empty += registers[j] == 0;
  }
  double const raw = alpha * m * m / sum;
  if (raw <= 2.5 * m && empty > 0) return m * log(m / (double)empty);
  return raw;
}

int64_t gcol_detail_set_estimate_override(int64_t estimate) {
  return atomic_exchange(&estimate_override, estimate < 0 ? -1 : estimate);
}

int64_t gcol_detail_estimate_override(void) { return atomic_load(&estimate_override); }

void gcol_detail_note_estimate_miss(void) { atomic_fetch_add(&estimate_misses, 1); }

int64_t gcol_detail_estimate_misses(void) { return atomic_load(&estimate_misses); }
