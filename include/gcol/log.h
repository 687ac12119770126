/**
 * @file log.h
 * @ingroup gcol_errors
 * @brief Leveled, thread-safe logging that can be redirected or silenced.
 *
 * The runtime level comes from the environment variable `GCOL_LOG_LEVEL`
 * (`trace`, `debug`, `info`, `warn`, `error`, `critical`, `off`; default `warn`), and
 * `GCOL_LOG_FILE` sends messages to a file instead of stderr. Both are read at the first
 * log call. gcol_log_set_sink() redirects every message to a callback. The build option
 * `log_level` compiles out messages below a threshold. gcol never logs on a hot path.
 *
 * @code
 * static void my_sink(gcol_log_level level, const char *msg, void *user) {
 *   fprintf((FILE *)user, "[%s] %s\n", gcol_log_level_string(level), msg);
 * }
 * gcol_log_set_sink(my_sink, stdout);
 * gcol_log_set_level(GCOL_LOG_DEBUG);
 * @endcode
 */
#ifndef GCOL_LOG_H
#define GCOL_LOG_H

/** @addtogroup gcol_errors
 *  @{ */

#include "gcol/config.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief Severity of a log message, lowest first. */
typedef enum gcol_log_level {
  GCOL_LOG_TRACE = 0,    /**< Every step. */
  GCOL_LOG_DEBUG = 1,    /**< Decisions (sizes, algorithms) and every error status returned. */
  GCOL_LOG_INFO = 2,     /**< Rare notable events (pool growth). */
  GCOL_LOG_WARN = 3,     /**< Something a user should look at. */
  GCOL_LOG_ERROR = 4,    /**< Failures gcol cannot return to a caller. */
  GCOL_LOG_CRITICAL = 5, /**< Sticky CUDA errors. */
  GCOL_LOG_OFF = 6       /**< Nothing is logged. */
} gcol_log_level;

/**
 * @brief A log sink: receives every message at or above the current level.
 * @param level The message's level.
 * @param message The formatted message, without a trailing newline; valid during the call.
 * @param user The pointer given to gcol_log_set_sink().
 * @note Called with gcol's log lock held: calls are serialized, and the sink must not log
 *       through gcol itself.
 */
typedef void (*gcol_log_sink)(gcol_log_level level, const char *message, void *user);

/** @brief Sets the runtime level; messages below it are dropped. Thread-safe. */
void gcol_log_set_level(gcol_log_level level);

/** @brief The runtime level (after reading `GCOL_LOG_LEVEL` on first use). */
gcol_log_level gcol_log_get_level(void);

/**
 * @brief Redirects messages to @p sink, or back to the default (stderr or
 *        `GCOL_LOG_FILE`) when @p sink is NULL. Thread-safe.
 */
void gcol_log_set_sink(gcol_log_sink sink, void *user);

/** @brief Names a level in lower case (`"warn"`); `"unknown"` for other values. */
const char *gcol_log_level_string(gcol_log_level level);

/**
 * @brief Parses a level name (case-insensitive, as in `GCOL_LOG_LEVEL`).
 * @param[in] name The name.
 * @param[out] out The level.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT for an unknown name or NULL pointer.
 */
gcol_status gcol_log_level_parse(const char *name, gcol_log_level *out);

/**
 * @brief Logs a printf-style message at @p level (if enabled).
 *
 * Exposed so that programs built on gcol can share its sink; gcol's own messages go
 * through an internal macro that also honours the compile-time threshold.
 */
void gcol_log_write(gcol_log_level level, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_LOG_H */
