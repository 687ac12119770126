/* Leveled, thread-safe logging with an environment default and a redirectable sink. */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/log.h"
#include "internal/error.h"
#include "internal/nvtx.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static gcol_log_level log_level = GCOL_LOG_WARN; /* written under log_lock after init */
static gcol_log_sink log_sink = NULL;
static void *log_user = NULL;
static FILE *log_file = NULL; /* GCOL_LOG_FILE, or NULL for stderr */

static const char *const level_names[] = {"trace", "debug", "info", "warn",
                                          "error", "critical", "off"};

const char *gcol_log_level_string(gcol_log_level level) {
  if ((int)level < 0 || level > GCOL_LOG_OFF) return "unknown";
  return level_names[level];
}

/* Case-insensitive match of a level name; touches no error state (used by log_init). */
static bool match_level(const char *name, gcol_log_level *out) {
  for (int level = GCOL_LOG_TRACE; level <= GCOL_LOG_OFF; ++level) {
    const char *expected = level_names[level];
    size_t i = 0;
    while (name[i] != '\0' && expected[i] != '\0' &&
           tolower((unsigned char)name[i]) == expected[i]) {
      ++i;
    }
    if (name[i] == '\0' && expected[i] == '\0') {
      *out = (gcol_log_level)level;
      return true;
    }
  }
  return false;
}

static gcol_status log_level_parse(const char *name, gcol_log_level *out) {
  if (name == NULL || out == NULL) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "%s is NULL",
                             name == NULL ? "name" : "out");
  }
  if (match_level(name, out)) return GCOL_OK;
  return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                           "unknown log level '%s' (expected trace, debug, info, warn, error, "
                           "critical or off)", name);
}

gcol_status gcol_log_level_parse(const char *name, gcol_log_level *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_log_level_parse");
  gcol_status const status = log_level_parse(name, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Reads GCOL_LOG_LEVEL and GCOL_LOG_FILE once. */
static void log_init(void) {
  const char *level = getenv("GCOL_LOG_LEVEL");
  gcol_log_level parsed;
  if (level != NULL && level[0] != '\0') {
    if (match_level(level, &parsed)) {
      log_level = parsed;
    } else {
      fprintf(stderr, "[gcol warn] ignoring GCOL_LOG_LEVEL='%s'\n", level);
    }
  }
  const char *path = getenv("GCOL_LOG_FILE");
  if (path != NULL && path[0] != '\0') {
    log_file = fopen(path, "a");
    if (log_file == NULL) fprintf(stderr, "[gcol warn] cannot open GCOL_LOG_FILE='%s'\n", path);
  }
}

void gcol_log_set_level(gcol_log_level level) {
  pthread_once(&log_once, log_init);
  if ((int)level < 0 || level > GCOL_LOG_OFF) level = GCOL_LOG_OFF;
  pthread_mutex_lock(&log_lock);
  log_level = level;
  pthread_mutex_unlock(&log_lock);
}

gcol_log_level gcol_log_get_level(void) {
  pthread_once(&log_once, log_init);
  pthread_mutex_lock(&log_lock);
  gcol_log_level level = log_level;
  pthread_mutex_unlock(&log_lock);
  return level;
}

void gcol_log_set_sink(gcol_log_sink sink, void *user) {
  pthread_once(&log_once, log_init);
  pthread_mutex_lock(&log_lock);
  log_sink = sink;
  log_user = user;
  pthread_mutex_unlock(&log_lock);
}

void gcol_log_write(gcol_log_level level, const char *format, ...) {
  if ((int)level < 0 || level >= GCOL_LOG_OFF || format == NULL) return;
  pthread_once(&log_once, log_init);
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  pthread_mutex_lock(&log_lock);
  if (level >= log_level) {
    if (log_sink != NULL) {
      log_sink(level, message, log_user);
    } else {
      FILE *stream = log_file != NULL ? log_file : stderr;
      fprintf(stream, "[gcol %s] %s\n", level_names[level], message);
      fflush(stream);
    }
  }
  pthread_mutex_unlock(&log_lock);
}
