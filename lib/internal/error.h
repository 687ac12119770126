/*
 * Internal error handling shared by lib/ and kernels/: raising a status with a message,
 * checks that jump to a single exit label, and CUDA error mapping.
 *
 * Pattern for every public function (single exit, so NVTX ranges and temporaries are
 * always released):
 *
 *   gcol_status gcol_thing(..., gcol_column **out, gcol_stream stream, gcol_mr *mr) {
 *     gcol_status status = GCOL_OK;
 *     GCOL_DETAIL_NVTX_PUSH("gcol_thing");
 *     GCOL_DETAIL_CHECK_NOT_NULL(out);
 *     *out = NULL;
 *     GCOL_DETAIL_CHECK(n >= 0, GCOL_ERROR_INVALID_ARGUMENT, "n is negative (%lld)", n);
 *     GCOL_DETAIL_TRY(gcol_buffer_create(...));
 *     GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(...));
 *   done:
 *     ...free temporaries, and outputs if status != GCOL_OK...
 *     GCOL_DETAIL_NVTX_POP();
 *     return status;
 *   }
 */
#ifndef GCOL_INTERNAL_ERROR_H
#define GCOL_INTERNAL_ERROR_H

#include "gcol/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records "name: message" as the thread's last error (name: the public function the user
 * called, else func), logs it at DEBUG (CRITICAL for GCOL_ERROR_CUDA_STICKY), returns status. */
gcol_status gcol_detail_error(gcol_status status, const char *func, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Sets the thread's last error to `message` as it is (no prefix, no log line): an error found
 * by a worker thread of a call, handed to the calling thread. */
void gcol_detail_set_last_error(const char *message);

/* Maps a cudaError_t (passed as int) to a status, records "func: what: cudaErrorName: text"
 * and clears the non-sticky error state. Sticky errors give GCOL_ERROR_CUDA_STICKY. */
gcol_status gcol_detail_cuda_error(int cuda_error, const char *func, const char *what);

#ifdef __cplusplus
}
#endif

/* Returns from the enclosing function (use before any resource is taken). */
#define GCOL_DETAIL_REQUIRE(cond, status_code, ...)                 \
  do {                                                              \
    if (!(cond)) return gcol_detail_error((status_code), __func__, __VA_ARGS__); \
  } while (0)

/* Sets `status` and jumps to `done` (the enclosing function's single exit). */
#define GCOL_DETAIL_CHECK(cond, status_code, ...)                   \
  do {                                                              \
    if (!(cond)) {                                                  \
      status = gcol_detail_error((status_code), __func__, __VA_ARGS__); \
      goto done;                                                    \
    }                                                               \
  } while (0)

#define GCOL_DETAIL_CHECK_NOT_NULL(ptr) \
  GCOL_DETAIL_CHECK((ptr) != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", #ptr)

#define GCOL_DETAIL_FAIL(status_code, ...)                          \
  do {                                                              \
    status = gcol_detail_error((status_code), __func__, __VA_ARGS__); \
    goto done;                                                      \
  } while (0)

/* Propagates a gcol_status: the callee already recorded the message. */
#define GCOL_DETAIL_TRY(expr)          \
  do {                                 \
    status = (expr);                   \
    if (status != GCOL_OK) goto done;  \
  } while (0)

/* Checks a CUDA runtime call (needs <cuda_runtime_api.h>). */
#define GCOL_DETAIL_CUDA_TRY(call)                                          \
  do {                                                                      \
    cudaError_t gcol_detail_err = (call);                                   \
    if (gcol_detail_err != cudaSuccess) {                                   \
      status = gcol_detail_cuda_error((int)gcol_detail_err, __func__, #call); \
      goto done;                                                            \
    }                                                                       \
  } while (0)

/* Checks the kernel launch just made (needs <cuda_runtime_api.h>). */
#define GCOL_DETAIL_CUDA_CHECK_LAUNCH() GCOL_DETAIL_CUDA_TRY(cudaGetLastError())

#endif /* GCOL_INTERNAL_ERROR_H */
