/* Status names, the thread-local last-error message, and CUDA error mapping. */
#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gcol/status.h"
#include "internal/error.h"
#include "internal/log.h"
#include "internal/nvtx.h"
#include "internal/spill.h"

#define GCOL_DETAIL_MESSAGE_SIZE 1024

static _Thread_local char last_error[GCOL_DETAIL_MESSAGE_SIZE];

const char *gcol_status_string(gcol_status status) {
  switch (status) {
    case GCOL_OK: return "GCOL_OK";
    case GCOL_ERROR_INVALID_ARGUMENT: return "GCOL_ERROR_INVALID_ARGUMENT";
    case GCOL_ERROR_TYPE_MISMATCH: return "GCOL_ERROR_TYPE_MISMATCH";
    case GCOL_ERROR_SIZE_MISMATCH: return "GCOL_ERROR_SIZE_MISMATCH";
    case GCOL_ERROR_OUT_OF_MEMORY: return "GCOL_ERROR_OUT_OF_MEMORY";
    case GCOL_ERROR_OVERFLOW: return "GCOL_ERROR_OVERFLOW";
    case GCOL_ERROR_UNSUPPORTED: return "GCOL_ERROR_UNSUPPORTED";
    case GCOL_ERROR_CUDA: return "GCOL_ERROR_CUDA";
    case GCOL_ERROR_CUDA_STICKY: return "GCOL_ERROR_CUDA_STICKY";
    case GCOL_ERROR_NO_DEVICE: return "GCOL_ERROR_NO_DEVICE";
    case GCOL_ERROR_INTERNAL: return "GCOL_ERROR_INTERNAL";
    case GCOL_ERROR_PEER: return "GCOL_ERROR_PEER";
    case GCOL_ERROR_COMM: return "GCOL_ERROR_COMM";
  }
  return "GCOL_ERROR_UNKNOWN";
}

const char *gcol_last_error(void) { return last_error; }

void gcol_clear_last_error(void) { last_error[0] = '\0'; }

void gcol_detail_set_last_error(const char *message) {
  snprintf(last_error, sizeof last_error, "%s", message != NULL ? message : "");
}

/* The outermost public function of this thread's current call (internal/nvtx.h). */
static _Thread_local const char *api_name = NULL;
static _Thread_local int api_depth = 0;

void gcol_detail_api_enter(const char *name) {
  if (api_depth++ == 0) api_name = name;
}

void gcol_detail_api_leave(void) {
  if (api_depth > 0 && --api_depth == 0) {
    api_name = NULL;
    gcol_detail_spill_operation_end(); /* what the operation pinned may spill again */
  }
}

int gcol_detail_api_depth(void) { return api_depth; }

const char *gcol_detail_api_name(void) { return api_name; }

gcol_status gcol_detail_error(gcol_status status, const char *func, const char *format, ...) {
  /* the public function the user called, not the helper that found the error */
  const char *const who = api_name != NULL ? api_name : func != NULL ? func : "gcol";
  int prefix = snprintf(last_error, sizeof last_error, "%s: ", who);
  if (prefix < 0 || (size_t)prefix >= sizeof last_error) prefix = 0;
  va_list args;
  va_start(args, format);
  vsnprintf(last_error + prefix, sizeof last_error - (size_t)prefix, format, args);
  va_end(args);
  /* Returned errors are the caller's to report: DEBUG. A sticky CUDA error ends the
   * context for the whole process, so it is always worth a CRITICAL line. */
  GCOL_DETAIL_LOG(status == GCOL_ERROR_CUDA_STICKY ? GCOL_LOG_CRITICAL : GCOL_LOG_DEBUG,
                  "%s (%s)", last_error, gcol_status_string(status));
  return status;
}

/* Errors after which the CUDA context is unusable (the process must restart). */
static int is_sticky(cudaError_t err) {
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return 1;
    default:
      return 0;
  }
}

gcol_status gcol_detail_cuda_error(int cuda_error, const char *func, const char *what) {
  cudaError_t const err = (cudaError_t)cuda_error;
  gcol_status status = GCOL_ERROR_CUDA;
  if (err == cudaErrorMemoryAllocation) {
    status = GCOL_ERROR_OUT_OF_MEMORY;
  } else if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) {
    status = GCOL_ERROR_NO_DEVICE;
  } else if (is_sticky(err)) {
    status = GCOL_ERROR_CUDA_STICKY;
  }
  if (status != GCOL_ERROR_CUDA_STICKY) (void)cudaGetLastError(); /* clear non-sticky state */
  return gcol_detail_error(status, func, "%s: %s: %s", what, cudaGetErrorName(err),
                           cudaGetErrorString(err));
}
