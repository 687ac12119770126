/* Element-type helpers shared by binary ops, casts and datetime (element_kind.h). */
#include "detail/element_kind.h"

int64_t gcol_detail_time_unit_ns(gcol_type_id id) {
  switch (id) {
    case GCOL_TIMESTAMP_DAYS:
    case GCOL_DURATION_DAYS: return 86400LL * 1000000000LL;
    case GCOL_TIMESTAMP_SECONDS:
    case GCOL_DURATION_SECONDS: return 1000000000LL;
    case GCOL_TIMESTAMP_MILLISECONDS:
    case GCOL_DURATION_MILLISECONDS: return 1000000LL;
    case GCOL_TIMESTAMP_MICROSECONDS:
    case GCOL_DURATION_MICROSECONDS: return 1000LL;
    case GCOL_TIMESTAMP_NANOSECONDS:
    case GCOL_DURATION_NANOSECONDS: return 1LL;
    default: return 0;
  }
}

gcol_detail_multiplier gcol_detail_pow10_multiplier(int32_t k) {
  gcol_detail_multiplier m = {1, 0};
  for (int32_t i = 0; i < k; ++i) {
    /* (hi:lo) *= 10 with 64-bit halves: lo * 10 = lo * 8 + lo * 2. */
    uint64_t const lo8 = m.lo << 3, lo2 = m.lo << 1;
    uint64_t const carry_in = (m.lo >> 61) + (m.lo >> 63);
    uint64_t const lo = lo8 + lo2;
    uint64_t const carry_add = lo < lo8 ? 1u : 0u;
    m.hi = m.hi * 10u + carry_in + carry_add;
    m.lo = lo;
  }
  return m;
}
