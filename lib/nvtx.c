/*
 * The "gcol" NVTX domain and its ranges (lib/internal/nvtx.h). The domain is created on the
 * first range, once for the process: without a profiler attached NVTX returns a NULL domain
 * and every call below is a call through a no-op pointer.
 */
#include "internal/nvtx.h"

#if GCOL_NVTX
#include <pthread.h>

#include <nvtx3/nvToolsExt.h>

static pthread_once_t domain_once = PTHREAD_ONCE_INIT;
static nvtxDomainHandle_t domain;

static void create_domain(void) { domain = nvtxDomainCreateA("gcol"); }

/* pthread_once: a lazily created handle read by many threads needs the synchronization,
 * and after the first call it costs one load. */
static nvtxDomainHandle_t gcol_domain(void) {
  pthread_once(&domain_once, create_domain);
  return domain;
}

void gcol_detail_nvtx_push(const char *name) {
  nvtxEventAttributes_t attributes = {0};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = name;
  nvtxDomainRangePushEx(gcol_domain(), &attributes);
}

void gcol_detail_nvtx_pop(void) { nvtxDomainRangePop(gcol_domain()); }
#else
typedef int gcol_detail_nvtx_off; /* ISO C forbids an empty file */
#endif
