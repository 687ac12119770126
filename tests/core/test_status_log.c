#define _GNU_SOURCE /* fork, mkstemp, setenv */
/* Host tests: status names, last-error messages, logging levels, sinks and threads. */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"
#include "internal/error.h"

static void status_names_are_distinct_and_known(void **state) {
  (void)state;
  assert_string_equal(gcol_status_string(GCOL_OK), "GCOL_OK");
  assert_string_equal(gcol_status_string(GCOL_ERROR_OUT_OF_MEMORY), "GCOL_ERROR_OUT_OF_MEMORY");
  assert_string_equal(gcol_status_string((gcol_status)999), "GCOL_ERROR_UNKNOWN");
  for (int a = GCOL_OK; a <= GCOL_ERROR_COMM; ++a) {
    for (int b = a + 1; b <= GCOL_ERROR_COMM; ++b) {
      assert_string_not_equal(gcol_status_string((gcol_status)a), gcol_status_string((gcol_status)b));
    }
  }
}

static void error_message_names_function_and_argument(void **state) {
  (void)state;
  gcol_clear_last_error();
  assert_string_equal(gcol_last_error(), "");
  gcol_status const st = gcol_detail_error(GCOL_ERROR_SIZE_MISMATCH, "gcol_thing",
                                           "lhs has %d rows, rhs %d", 3, 4);
  assert_int_equal(st, GCOL_ERROR_SIZE_MISMATCH);
  assert_string_equal(gcol_last_error(), "gcol_thing: lhs has 3 rows, rhs 4");
  gcol_clear_last_error();
  assert_string_equal(gcol_last_error(), "");
}

static void long_error_messages_are_truncated_safely(void **state) {
  (void)state;
  char big[4096];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  gcol_detail_error(GCOL_ERROR_INTERNAL, "f", "%s", big);
  assert_true(strlen(gcol_last_error()) < 1024);
  assert_memory_equal(gcol_last_error(), "f: xxx", 6);
}

static void cuda_errors_map_to_statuses(void **state) {
  (void)state;
  /* cudaErrorMemoryAllocation = 2, cudaErrorInvalidValue = 1, cudaErrorIllegalAddress = 700 */
  assert_int_equal(gcol_detail_cuda_error(2, "f", "cudaMalloc"), GCOL_ERROR_OUT_OF_MEMORY);
  assert_non_null(strstr(gcol_last_error(), "cudaErrorMemoryAllocation"));
  assert_int_equal(gcol_detail_cuda_error(1, "f", "x"), GCOL_ERROR_CUDA);
  assert_int_equal(gcol_detail_cuda_error(700, "f", "x"), GCOL_ERROR_CUDA_STICKY);
  assert_int_equal(gcol_detail_cuda_error(100, "f", "x"), GCOL_ERROR_NO_DEVICE);
}

static void *set_error_in_thread(void *arg) {
  (void)arg;
  gcol_detail_error(GCOL_ERROR_INTERNAL, "thread", "other thread");
  return NULL;
}

static void last_error_is_thread_local(void **state) {
  (void)state;
  gcol_detail_error(GCOL_ERROR_OVERFLOW, "main", "mine");
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, set_error_in_thread, NULL), 0);
  pthread_join(t, NULL);
  assert_string_equal(gcol_last_error(), "main: mine");
}

static void log_level_parse_round_trips(void **state) {
  (void)state;
  for (int level = GCOL_LOG_TRACE; level <= GCOL_LOG_OFF; ++level) {
    gcol_log_level parsed;
    GCOL_TEST_OK(gcol_log_level_parse(gcol_log_level_string((gcol_log_level)level), &parsed));
    assert_int_equal(parsed, level);
  }
  gcol_log_level parsed;
  GCOL_TEST_OK(gcol_log_level_parse("WaRn", &parsed));
  assert_int_equal(parsed, GCOL_LOG_WARN);
  GCOL_TEST_STATUS(gcol_log_level_parse("loud", &parsed), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_log_level_parse("warnx", &parsed), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_log_level_parse(NULL, &parsed), GCOL_ERROR_INVALID_ARGUMENT);
  assert_string_equal(gcol_log_level_string((gcol_log_level)42), "unknown");
}

typedef struct captured {
  int count;
  gcol_log_level last_level;
  char last[256];
} captured;

static void capture_sink(gcol_log_level level, const char *message, void *user) {
  captured *c = (captured *)user;
  c->count++;
  c->last_level = level;
  snprintf(c->last, sizeof c->last, "%s", message);
}

static void sink_receives_messages_at_or_above_level(void **state) {
  (void)state;
  captured c = {0, GCOL_LOG_OFF, ""};
  gcol_log_level const saved = gcol_log_get_level();
  gcol_log_set_sink(capture_sink, &c);
  gcol_log_set_level(GCOL_LOG_INFO);
  gcol_log_write(GCOL_LOG_DEBUG, "hidden %d", 1);
  assert_int_equal(c.count, 0);
  gcol_log_write(GCOL_LOG_WARN, "shown %d", 2);
  assert_int_equal(c.count, 1);
  assert_int_equal(c.last_level, GCOL_LOG_WARN);
  assert_string_equal(c.last, "shown 2");
  gcol_log_set_level(GCOL_LOG_OFF);
  gcol_log_write(GCOL_LOG_CRITICAL, "nothing");
  assert_int_equal(c.count, 1);
  gcol_log_write(GCOL_LOG_OFF, "never a level of its own");
  assert_int_equal(c.count, 1);
  gcol_log_set_sink(NULL, NULL);
  gcol_log_set_level(saved);
}

static void returned_errors_are_logged_at_debug_level(void **state) {
  (void)state;
  captured c = {0, GCOL_LOG_OFF, ""};
  gcol_log_level const saved = gcol_log_get_level();
  gcol_log_set_sink(capture_sink, &c);
  gcol_log_set_level(GCOL_LOG_INFO);
  gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, "gcol_x", "hidden at info");
  assert_int_equal(c.count, 0);
  gcol_log_set_level(GCOL_LOG_DEBUG);
  gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, "gcol_x", "bad type");
  assert_int_equal(c.count, 1);
  assert_int_equal(c.last_level, GCOL_LOG_DEBUG);
  assert_non_null(strstr(c.last, "gcol_x: bad type"));
  assert_non_null(strstr(c.last, "GCOL_ERROR_TYPE_MISMATCH"));
  gcol_log_set_sink(NULL, NULL);
  gcol_log_set_level(saved);
}

static void *log_many(void *arg) {
  for (int i = 0; i < 1000; ++i) gcol_log_write(GCOL_LOG_WARN, "thread %d", *(int *)arg);
  return NULL;
}

static void logging_is_thread_safe(void **state) {
  (void)state;
  captured c = {0, GCOL_LOG_OFF, ""};
  gcol_log_level const saved = gcol_log_get_level();
  gcol_log_set_sink(capture_sink, &c);
  gcol_log_set_level(GCOL_LOG_TRACE);
  pthread_t threads[4];
  int ids[4] = {0, 1, 2, 3};
  for (int i = 0; i < 4; ++i) pthread_create(&threads[i], NULL, log_many, &ids[i]);
  for (int i = 0; i < 4; ++i) pthread_join(threads[i], NULL);
  assert_int_equal(c.count, 4000); /* the sink runs under the lock: no lost updates */
  gcol_log_set_sink(NULL, NULL);
  gcol_log_set_level(saved);
}

static void log_file_from_environment(void **state) {
  (void)state;
  /* GCOL_LOG_FILE and GCOL_LOG_LEVEL are read once; a child process sees them fresh. */
  char path[] = "/tmp/gcol_log_XXXXXX";
  int const fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  /* This process already read the environment, so a fresh exec of itself reads it. */
  pid_t const pid = fork();
  if (pid == 0) {
    setenv("GCOL_LOG_FILE", path, 1);
    setenv("GCOL_LOG_LEVEL", "info", 1);
    execl("/proc/self/exe", "/proc/self/exe", "--log-child", (char *)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[256] = "";
  assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  unlink(path);
  assert_non_null(strstr(line, "[gcol info] from the child"));
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--log-child") == 0) {
    if (gcol_log_get_level() != GCOL_LOG_INFO) return 2;
    gcol_log_write(GCOL_LOG_DEBUG, "below the level");
    gcol_log_write(GCOL_LOG_INFO, "from the child");
    return 0;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(status_names_are_distinct_and_known),
      cmocka_unit_test(error_message_names_function_and_argument),
      cmocka_unit_test(long_error_messages_are_truncated_safely),
      cmocka_unit_test(cuda_errors_map_to_statuses),
      cmocka_unit_test(last_error_is_thread_local),
      cmocka_unit_test(log_level_parse_round_trips),
      cmocka_unit_test(sink_receives_messages_at_or_above_level),
      cmocka_unit_test(returned_errors_are_logged_at_debug_level),
      cmocka_unit_test(logging_is_thread_safe),
      cmocka_unit_test(log_file_from_environment),
  };
  return GCOL_TEST_RUN("status_log", tests);
}
