/*
 * Calendar arithmetic for host and device (tested by the host suite with gcc): Howard
 * Hinnant's days <-> civil date algorithms (proleptic Gregorian, 400-year eras, exact for
 * every int64 day count whose year fits int64), and the split of a tick count into days and
 * nanoseconds of the day with floor division, so that times before 1970 land on the right
 * day.
 */
#ifndef GCOL_KERNELS_DETAIL_CIVIL_H
#define GCOL_KERNELS_DETAIL_CIVIL_H

#include "gcol/config.h"

/* floor(a / b) for b > 0. */
GCOL_HD_INLINE int64_t gcol_detail_floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b) < 0) --q;
  return q;
}

/* A civil date. */
typedef struct gcol_detail_civil {
  int64_t year;
  int32_t month; /* 1..12 */
  int32_t day;   /* 1..31 */
} gcol_detail_civil;

/* The date of day `days` since 1970-01-01. */
GCOL_HD_INLINE gcol_detail_civil gcol_detail_civil_from_days(int64_t days) {
  int64_t const z = days + 719468; /* days since 0000-03-01 */
  int64_t const era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t const doe = z - era * 146097;                                      /* [0, 146096] */
  int64_t const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
  int64_t const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);               /* [0, 365] */
  int64_t const mp = (5 * doy + 2) / 153;                                    /* [0, 11], March = 0 */
  gcol_detail_civil c;
  c.day = (int32_t)(doy - (153 * mp + 2) / 5 + 1);
  c.month = (int32_t)(mp < 10 ? mp + 3 : mp - 9);
  c.year = yoe + era * 400 + (c.month <= 2 ? 1 : 0);
  return c;
}

/* Days since 1970-01-01 of a civil date. */
GCOL_HD_INLINE int64_t gcol_detail_days_from_civil(int64_t year, int32_t month, int32_t day) {
  int64_t const y = year - (month <= 2 ? 1 : 0);
  int64_t const era = (y >= 0 ? y : y - 399) / 400;
  int64_t const yoe = y - era * 400;
  int64_t const doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  int64_t const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/* ISO weekday (Monday 1 .. Sunday 7) of day `days`; 1970-01-01 was a Thursday. */
GCOL_HD_INLINE int32_t gcol_detail_iso_weekday(int64_t days) {
  int64_t const r = days - gcol_detail_floor_div(days + 3, 7) * 7 + 3;
  return (int32_t)(r + 1);
}

/* The field `component` (gcol_datetime_component) of `ticks` ticks of `ns_per_tick` ns. */
GCOL_HD_INLINE int64_t gcol_detail_datetime_field(int64_t ticks, int64_t ns_per_tick,
                                                  int component) {
  int64_t const ns_per_day = 86400LL * 1000000000LL;
  int64_t const ticks_per_day = ns_per_day / ns_per_tick;
  int64_t const days = gcol_detail_floor_div(ticks, ticks_per_day);
  /* The remainder taken directly: days * ticks_per_day may overflow near INT64_MIN. */
  int64_t rem = ticks % ticks_per_day;
  if (rem < 0) rem += ticks_per_day;
  int64_t const ns_of_day = rem * ns_per_tick; /* < 8.64e13 */
  switch (component) {
    case 0: return gcol_detail_civil_from_days(days).year;
    case 1: return gcol_detail_civil_from_days(days).month;
    case 2: return gcol_detail_civil_from_days(days).day;
    case 3: return ns_of_day / 3600000000000LL;
    case 4: return ns_of_day / 60000000000LL % 60;
    case 5: return ns_of_day / 1000000000LL % 60;
    case 6: return ns_of_day / 1000000LL % 1000;
    case 7: return gcol_detail_iso_weekday(days);
    default: {
      int64_t const year = gcol_detail_civil_from_days(days).year;
      return days - gcol_detail_days_from_civil(year, 1, 1) + 1;
    }
  }
}

#endif /* GCOL_KERNELS_DETAIL_CIVIL_H */
