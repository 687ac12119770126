/*
 * Host test: gcol's NVTX ranges are in the "gcol" domain. The test is its own NVTX tool,
 * injected statically (it defines InitializeInjectionNvtx2_fnptr, which the NVTX headers
 * declare weak), and records the calls a profiler would see while host-only gcol functions
 * that carry a range run.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#if GCOL_NVTX
#define NVTX_NO_IMPL /* a tool: NVTX's types, not its implementation (gcol brings that) */
#include <nvtx3/nvToolsExt.h>

enum { MAX_PUSHES = 64 };

static struct {
  pthread_mutex_t lock;
  int domains_created;
  char domain_name[32];
  int pushes;               /* nvtxDomainRangePushEx */
  int pops;                 /* nvtxDomainRangePop */
  int pushes_out_of_domain; /* pushes or pops on another domain */
  int global_ranges;        /* nvtxRangePushA/Ex and nvtxRangePop, outside any domain */
  char messages[MAX_PUSHES][64];
} seen = {PTHREAD_MUTEX_INITIALIZER, 0, "", 0, 0, 0, 0, {{0}}};

/* The handle this tool gives the "gcol" domain: any unique address. */
static int gcol_domain_tag;
#define GCOL_DOMAIN ((nvtxDomainHandle_t)&gcol_domain_tag)

static nvtxDomainHandle_t NVTX_API domain_create(const char *name) {
  pthread_mutex_lock(&seen.lock);
  ++seen.domains_created;
  snprintf(seen.domain_name, sizeof seen.domain_name, "%s", name);
  pthread_mutex_unlock(&seen.lock);
  return GCOL_DOMAIN;
}

static int NVTX_API domain_push(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a) {
  pthread_mutex_lock(&seen.lock);
  if (domain != GCOL_DOMAIN) ++seen.pushes_out_of_domain;
  if (seen.pushes < MAX_PUSHES && a->messageType == NVTX_MESSAGE_TYPE_ASCII)
    snprintf(seen.messages[seen.pushes], sizeof seen.messages[0], "%s", a->message.ascii);
  ++seen.pushes;
  pthread_mutex_unlock(&seen.lock);
  return 0;
}

static int NVTX_API domain_pop(nvtxDomainHandle_t domain) {
  pthread_mutex_lock(&seen.lock);
  if (domain != GCOL_DOMAIN) ++seen.pushes_out_of_domain;
  ++seen.pops;
  pthread_mutex_unlock(&seen.lock);
  return 0;
}

static void count_global_range(void) {
  pthread_mutex_lock(&seen.lock);
  ++seen.global_ranges;
  pthread_mutex_unlock(&seen.lock);
}
static int NVTX_API global_push_a(const char *message) {
  (void)message;
  count_global_range();
  return 0;
}
static int NVTX_API global_push_ex(const nvtxEventAttributes_t *a) {
  (void)a;
  count_global_range();
  return 0;
}
static int NVTX_API global_pop(void) {
  count_global_range();
  return 0;
}

static void attach(NvtxFunctionTable table, unsigned size, unsigned id, NvtxFunctionPointer fn) {
  if (id < size && table[id] != NULL) *table[id] = fn;
}

static int NVTX_API initialize_injection(NvtxGetExportTableFunc_t get_export_table) {
  const NvtxExportTableCallbacks *callbacks =
      (const NvtxExportTableCallbacks *)get_export_table(NVTX_ETID_CALLBACKS);
  NvtxFunctionTable core = NULL, core2 = NULL;
  unsigned core_size = 0, core2_size = 0;
  if (callbacks == NULL ||
      !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &core_size) ||
      !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2_size))
    return 0;
  attach(core2, core2_size, NVTX_CBID_CORE2_DomainCreateA, (NvtxFunctionPointer)domain_create);
  attach(core2, core2_size, NVTX_CBID_CORE2_DomainRangePushEx, (NvtxFunctionPointer)domain_push);
  attach(core2, core2_size, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer)domain_pop);
  attach(core, core_size, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer)global_push_a);
  attach(core, core_size, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer)global_push_ex);
  attach(core, core_size, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer)global_pop);
  return 1;
}

/* The static injection hook of NVTX (nvtxDetail/nvtxInit.h): a strong definition here
 * replaces the weak NULL that every other file including NVTX defines. */
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = initialize_injection;

/* gcol_mr_pool_create over the host resource: a public function with a range, no GPU. */
static void make_and_destroy_pool(void) {
  gcol_mr *host = NULL, *pool = NULL;
  GCOL_TEST_OK(gcol_mr_host_create(&host));
  GCOL_TEST_OK(gcol_mr_pool_create(host, 0, 0, &pool));
  gcol_mr_destroy(pool);
  gcol_mr_destroy(host);
}

static void *make_pools(void *arg) {
  (void)arg;
  for (int i = 0; i < 4; ++i) make_and_destroy_pool();
  return NULL;
}

static bool pushed(const char *name) {
  for (int i = 0; i < seen.pushes && i < MAX_PUSHES; ++i)
    if (strcmp(seen.messages[i], name) == 0) return true;
  return false;
}

static void ranges_are_in_the_gcol_domain(void **state) {
  (void)state;
  make_and_destroy_pool();
  assert_string_equal(seen.domain_name, "gcol");
  assert_true(pushed("gcol_mr_pool_create"));
  assert_true(pushed("gcol_mr_destroy"));
  assert_int_equal(seen.pushes_out_of_domain, 0);
  assert_int_equal(seen.global_ranges, 0);
  assert_int_equal(seen.pushes, seen.pops);
}

/* Threads racing to the first range still create one domain, and use it. */
static void the_domain_is_created_once(void **state) {
  (void)state;
  pthread_t threads[4];
  for (int i = 0; i < 4; ++i)
    assert_int_equal(pthread_create(&threads[i], NULL, make_pools, NULL), 0);
  for (int i = 0; i < 4; ++i) assert_int_equal(pthread_join(threads[i], NULL), 0);
  assert_int_equal(seen.domains_created, 1);
  assert_int_equal(seen.pushes_out_of_domain, 0);
  assert_int_equal(seen.pushes, seen.pops);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_domain_is_created_once),
      cmocka_unit_test(ranges_are_in_the_gcol_domain),
  };
  return GCOL_TEST_RUN("nvtx_domain", tests);
}
#else
int main(void) {
  printf("1..0 # SKIP built with -Dnvtx=false\n");
  return 0;
}
#endif
