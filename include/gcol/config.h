/**
 * @file config.h
 * @ingroup gcol_core
 * @brief Portability macros shared by every gcol header: the host/device function
 *        qualifiers, the stream type, and (through gcol/version.h) the version.
 *
 * Every public header compiles as C11 (`-pedantic`), as C++17 and under nvcc. Inline
 * functions that run on both host and device are declared with ::GCOL_HD_INLINE, so the
 * same code is unit-tested on the CPU with gcc and used inside CUDA kernels.
 */
#ifndef GCOL_CONFIG_H
#define GCOL_CONFIG_H

/** @addtogroup gcol_core
 *  @{ */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gcol/version.h"

#if defined(__CUDACC__)
/** @brief Qualifier of inline functions callable from host and device code. */
#define GCOL_HD_INLINE static __forceinline__ __host__ __device__
/** @brief Qualifier of inline functions callable from device code only. */
#define GCOL_DEVICE_INLINE static __forceinline__ __device__
#else
#define GCOL_HD_INLINE static inline
#define GCOL_DEVICE_INLINE static inline
#endif

#if defined(__cplusplus)
/** @brief Opens an `extern "C"` block under C++ and nvcc. */
#define GCOL_EXTERN_C_BEGIN extern "C" {
/** @brief Closes an `extern "C"` block under C++ and nvcc. */
#define GCOL_EXTERN_C_END }
#else
#define GCOL_EXTERN_C_BEGIN
#define GCOL_EXTERN_C_END
#endif

/**
 * @brief A CUDA stream. Identical to `cudaStream_t`, so no CUDA header is needed to name
 *        it. `NULL` is the legacy default stream.
 */
typedef struct CUstream_st *gcol_stream;

/** @brief Marks an unused parameter without a compiler warning. */
#define GCOL_UNUSED(x) ((void)(x))

/** @} */

#endif /* GCOL_CONFIG_H */
