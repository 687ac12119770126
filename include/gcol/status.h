/**
 * @file status.h
 * @ingroup gcol_errors
 * @brief Status codes returned by every fallible gcol function, and the thread-local
 *        message that says what went wrong and where.
 *
 * @code
 * gcol_column *col = NULL;
 * gcol_status st = gcol_column_create(type, n, GCOL_MASK_UNALLOCATED, stream, NULL, &col);
 * if (st != GCOL_OK) {
 *   fprintf(stderr, "%s: %s\n", gcol_status_string(st), gcol_last_error());
 * }
 * @endcode
 */
#ifndef GCOL_STATUS_H
#define GCOL_STATUS_H

/** @addtogroup gcol_errors
 *  @{ */

#include "gcol/config.h"

GCOL_EXTERN_C_BEGIN

/** @brief The result of a gcol call. ::GCOL_OK is zero; every error is non-zero. */
typedef enum gcol_status {
  GCOL_OK = 0,                    /**< Success. */
  GCOL_ERROR_INVALID_ARGUMENT = 1, /**< A NULL pointer, a negative size, a bad option. */
  GCOL_ERROR_TYPE_MISMATCH = 2,   /**< A column or scalar has a type the call cannot take. */
  GCOL_ERROR_SIZE_MISMATCH = 3,   /**< Columns whose sizes must agree do not. */
  GCOL_ERROR_OUT_OF_MEMORY = 4,   /**< A memory resource could not allocate. */
  GCOL_ERROR_OVERFLOW = 5,        /**< A computed size exceeds what its type can hold. */
  GCOL_ERROR_UNSUPPORTED = 6,     /**< The operation does not support this input yet. */
  GCOL_ERROR_CUDA = 7,            /**< A CUDA call failed; the context is still usable. */
  GCOL_ERROR_CUDA_STICKY = 8,     /**< A sticky CUDA error: the context is corrupt. */
  GCOL_ERROR_NO_DEVICE = 9,       /**< No CUDA device is present. */
  GCOL_ERROR_INTERNAL = 10,       /**< A broken invariant inside gcol: please report it. */
  GCOL_ERROR_PEER = 11,           /**< dist.h: another rank failed; this rank's part was fine. */
  GCOL_ERROR_COMM = 12            /**< dist.h: an NCCL or MPI call failed. */
} gcol_status;

/**
 * @brief Names a status, e.g. `"GCOL_ERROR_OUT_OF_MEMORY"`.
 * @param[in] status Any value; unknown values give `"GCOL_ERROR_UNKNOWN"`.
 * @return A static string; never NULL.
 */
const char *gcol_status_string(gcol_status status);

/**
 * @brief The message of the last error raised on the calling thread.
 *
 * The message names the function, the argument, sizes or the CUDA error involved. Every
 * error recorded here is also logged (log.h) at ::GCOL_LOG_DEBUG, a sticky CUDA error at
 * ::GCOL_LOG_CRITICAL: the default level (`warn`) prints none of them but the sticky ones.
 * @return A thread-local string, valid until the next failing gcol call on this thread;
 *         the empty string if no error happened yet.
 */
const char *gcol_last_error(void);

/**
 * @brief Clears the calling thread's last error message.
 */
void gcol_clear_last_error(void);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_STATUS_H */
