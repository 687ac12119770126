/*
 * Internal logging macro: honours the compile-time threshold GCOL_LOG_ACTIVE_LEVEL (set by
 * the Meson option log_level) before the runtime level.
 */
#ifndef GCOL_INTERNAL_LOG_H
#define GCOL_INTERNAL_LOG_H

#include "gcol/log.h"

#ifndef GCOL_LOG_ACTIVE_LEVEL
#define GCOL_LOG_ACTIVE_LEVEL 0
#endif

#define GCOL_DETAIL_LOG(level, ...)                                              \
  do {                                                                           \
    if ((int)(level) >= GCOL_LOG_ACTIVE_LEVEL && (level) >= gcol_log_get_level()) \
      gcol_log_write((level), __VA_ARGS__);                                      \
  } while (0)

#endif /* GCOL_INTERNAL_LOG_H */
