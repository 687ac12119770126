/*
 * A plain C11 program that links libgcol.a with `cc` through the pkg-config file, the way a
 * user's build would (not through Meson), and calls host-only functions, so that it runs
 * without a GPU. Prints TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gcol/gcol.h"

static int checks;
static int failures;

static void check(int ok, const char *what) {
  ++checks;
  if (!ok) ++failures;
  printf("%s %d - %s\n", ok ? "ok" : "not ok", checks, what);
  if (!ok) printf("# last error: %s\n", gcol_last_error());
}

/* Allocates from a pool over the host resource, writes the memory, frees it. */
static void check_pool(void) {
  gcol_mr *host = NULL, *pool = NULL;
  void *ptr = NULL;
  gcol_mr_pool_info info;
  const size_t bytes = 1000;

  check(gcol_mr_host_create(&host) == GCOL_OK && host != NULL, "gcol_mr_host_create");
  check(gcol_mr_pool_create(host, 1u << 20, 0, &pool) == GCOL_OK && pool != NULL,
        "gcol_mr_pool_create over the host resource");
  if (pool == NULL) goto done;
  check(gcol_mr_allocate(pool, &ptr, bytes, NULL) == GCOL_OK && ptr != NULL,
        "gcol_mr_allocate from the pool");
  if (ptr == NULL) goto done;
  check((uintptr_t)ptr % GCOL_MR_ALIGNMENT == 0, "allocation is 256-byte aligned");
  memset(ptr, 0x5a, bytes);
  check(((unsigned char *)ptr)[bytes - 1] == 0x5a, "allocation is writable host memory");
  check(gcol_mr_pool_get_info(pool, &info) == GCOL_OK && info.used_bytes >= bytes,
        "pool reports the allocation as used");
  gcol_mr_deallocate(pool, ptr, bytes, NULL);
  check(gcol_mr_pool_get_info(pool, &info) == GCOL_OK && info.used_bytes == 0,
        "pool reports nothing used after gcol_mr_deallocate");
done:
  gcol_mr_destroy(pool);
  gcol_mr_destroy(host);
}

int main(void) {
  check(strcmp(gcol_status_string(GCOL_OK), "GCOL_OK") == 0, "gcol_status_string(GCOL_OK)");
  check(strcmp(gcol_status_string(GCOL_ERROR_OUT_OF_MEMORY), "GCOL_ERROR_OUT_OF_MEMORY") == 0,
        "gcol_status_string(GCOL_ERROR_OUT_OF_MEMORY)");
  check(strcmp(gcol_type_name(GCOL_INT32), "int32") == 0, "gcol_type_name(GCOL_INT32)");
  check(strcmp(gcol_type_name(GCOL_TIMESTAMP_MILLISECONDS), "timestamp[ms]") == 0,
        "gcol_type_name(GCOL_TIMESTAMP_MILLISECONDS)");
  check_pool();
  printf("1..%d\n", checks);
  return failures == 0 ? 0 : 1;
}
