/**
 * @file memory.h
 * @ingroup gcol_memory
 * @brief Stream-ordered memory resources (`gcol_mr`): the default asynchronous resource,
 *        plain cudaMalloc, pinned host, managed, host malloc, a coalescing pool over any
 *        upstream, and adaptors for statistics, limits and fault injection.
 *
 * Every gcol operation takes a `gcol_mr *mr` last: its outputs come from @p mr (NULL means
 * the current device's default resource, see gcol_mr_get_default()); temporaries come from
 * the default resource. Allocations are aligned to ::GCOL_MR_ALIGNMENT bytes.
 *
 * @code
 * gcol_mr *pool = NULL, *stats = NULL;
 * gcol_mr_pool_create(gcol_mr_get_default(), 1u << 30, 0, &pool);  // 1 GiB, no maximum
 * gcol_mr_statistics_create(pool, &stats);
 * gcol_mr_set_default(stats, NULL);
 * // ... gcol operations ...
 * gcol_mr_statistics stat;
 * gcol_mr_statistics_get(stats, &stat);
 * printf("peak %zu bytes\n", (size_t)stat.peak_bytes);
 * gcol_mr_set_default(NULL, NULL);   // back to the built-in resource
 * gcol_mr_destroy(stats);            // adaptors never destroy their upstream
 * gcol_mr_destroy(pool);
 * @endcode
 *
 * A resource is a plain struct of function pointers, so users can write their own:
 * fill in gcol_mr::allocate, gcol_mr::deallocate and optionally gcol_mr::destroy.
 */
#ifndef GCOL_MEMORY_H
#define GCOL_MEMORY_H

/** @addtogroup gcol_memory
 *  @{ */

#include "gcol/config.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief Alignment in bytes of every allocation from a built-in resource. */
#define GCOL_MR_ALIGNMENT 256

/** @brief Where a resource's memory lives. */
typedef enum gcol_memory_kind {
  GCOL_MEMORY_DEVICE = 0,  /**< Device memory (cudaMalloc, cudaMallocAsync). */
  GCOL_MEMORY_HOST = 1,    /**< Pageable host memory (malloc); for tests and staging. */
  GCOL_MEMORY_PINNED = 2,  /**< Page-locked host memory (cudaMallocHost). */
  GCOL_MEMORY_MANAGED = 3  /**< Unified memory (cudaMallocManaged). */
} gcol_memory_kind;

typedef struct gcol_mr gcol_mr;

/**
 * @brief A memory resource: a struct of function pointers plus state.
 *
 * Allocation and deallocation are ordered on a stream: memory freed on stream s may be
 * handed out again to work on s at once, and to other streams after s reaches that point.
 */
struct gcol_mr {
  /**
   * @brief Allocates @p bytes (0 gives NULL and ::GCOL_OK) aligned to ::GCOL_MR_ALIGNMENT.
   * @return ::GCOL_OK, ::GCOL_ERROR_OUT_OF_MEMORY, or a CUDA status. *out stays NULL on
   *         failure.
   */
  gcol_status (*allocate)(gcol_mr *self, void **out, size_t bytes, gcol_stream stream);
  /** @brief Frees memory from allocate(); @p bytes is the size asked for. NULL is a no-op. */
  void (*deallocate)(gcol_mr *self, void *ptr, size_t bytes, gcol_stream stream);
  /** @brief Frees the resource itself (may be NULL for statically allocated resources). */
  void (*destroy)(gcol_mr *self);
  void *state;           /**< The resource's own data. */
  gcol_memory_kind kind; /**< Where its memory lives. */
  const char *name;      /**< A short name for logs (`"pool"`, `"statistics"`). */
};

/**
 * @brief Allocates from @p mr, or from the current default resource if @p mr is NULL.
 * @param[in] mr The resource, or NULL.
 * @param[out] out The allocation; NULL on failure or when @p bytes is 0.
 * @param[in] bytes Size in bytes.
 * @param[in] stream The stream the memory will be used on.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, or a CUDA status.
 */
gcol_status gcol_mr_allocate(gcol_mr *mr, void **out, size_t bytes, gcol_stream stream);

/**
 * @brief Returns memory to the resource that gave it (NULL @p mr: the default resource
 *        current at the time, so pass the resource explicitly if the default may change).
 * @param[in] mr The resource, or NULL.
 * @param[in] ptr The allocation; NULL is a no-op.
 * @param[in] bytes The size asked for when it was allocated.
 * @param[in] stream The stream its last use was ordered on; the memory may be reused by
 *            work on that stream at once.
 * @note Failures (a CUDA error, a pointer the resource does not know) cannot be returned:
 *       they are logged and recorded as the thread's last error.
 */
void gcol_mr_deallocate(gcol_mr *mr, void *ptr, size_t bytes, gcol_stream stream);

/**
 * @brief Destroys a resource made by a `gcol_mr_*_create` function (or a user resource
 *        whose `destroy` is set). NULL is a no-op. Adaptors never destroy their upstream;
 *        a pool returns all its memory to its upstream.
 * @param[in] mr The resource, or NULL.
 * @note The resource should not be the default of any device when destroyed; if it is,
 *       the built-in resource becomes that device's default again and a WARN is logged.
 *       The built-in default resource is never destroyed (a no-op).
 */
void gcol_mr_destroy(gcol_mr *mr);

/**
 * @brief The number of CUDA devices this process can use: 0 where there is no GPU, no
 *        driver or no runtime support, which is an answer, not an error. Ask this instead
 *        of probing with an allocation. Thread-safe.
 */
int gcol_device_count(void);

/**
 * @brief The current default resource of the current device. Initially a built-in
 *        `cudaMallocAsync` resource that lives for the whole program.
 *
 * The device is the one `cudaGetDevice` names; where it fails (no GPU, no driver) the
 * default of device 0 is used, so that defaults can be read and set on a CPU-only machine.
 * Thread-safe.
 * @return Never NULL.
 */
gcol_mr *gcol_mr_get_default(void);

/**
 * @brief Sets the default resource of the current device (device 0 where no device can
 *        be read, see gcol_mr_get_default()). Thread-safe.
 * @param[in] mr The new default; NULL restores the built-in resource.
 * @param[out] previous If not NULL, receives the previous default (never NULL on success,
 *             NULL on failure).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (@p mr lacks allocate or deallocate),
 *         ::GCOL_ERROR_UNSUPPORTED (a device numbered 64 or more).
 * @note The caller keeps ownership of @p mr and must keep it alive while it is in use.
 */
gcol_status gcol_mr_set_default(gcol_mr *mr, gcol_mr **previous);

/**
 * @brief The stream-ordered resource: `cudaMallocFromPoolAsync`/`cudaFreeAsync` over gcol's
 *        own memory pool of the current device. Sizes are rounded up to a multiple of
 *        ::GCOL_MR_ALIGNMENT.
 *
 * The pool (one per device, created at its first allocation, shared by every async resource
 * and kept for the whole program) keeps freed memory mapped for reuse (release threshold
 * UINT64_MAX): with the driver's default pool, memory is handed back at every
 * synchronization and each large allocation pays to map it again. The device's default pool
 * is left untouched for other code in the process.
 * @param[out] out The resource, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out), ::GCOL_ERROR_OUT_OF_MEMORY.
 * @note Creating a resource makes no CUDA call. Every CUDA-backed resource checks that what
 *       CUDA returns is ::GCOL_MR_ALIGNMENT-aligned (::GCOL_ERROR_INTERNAL otherwise), and
 *       reports CUDA failures with a message naming the resource, the call and the size
 *       (`cudaErrorMemoryAllocation` gives ::GCOL_ERROR_OUT_OF_MEMORY).
 */
gcol_status gcol_mr_async_create(gcol_mr **out);

/**
 * @brief The pass-through resource over `cudaMalloc`/`cudaFree` (synchronous; what
 *        compute-sanitizer sees through best).
 *
 * A free synchronizes the stream it is given before `cudaFree`, as do the pinned and
 * managed resources' frees: those calls are not stream-ordered, and CUDA does not promise
 * that they wait for work still using the memory.
 * @param[out] out The resource, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out), ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_mr_cuda_create(gcol_mr **out);

/**
 * @brief Page-locked host memory over `cudaMallocHost`/`cudaFreeHost`.
 * @param[out] out The resource, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out), ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_mr_pinned_create(gcol_mr **out);

/**
 * @brief Unified memory over `cudaMallocManaged` (`cudaMemAttachGlobal`)/`cudaFree`.
 * @param[out] out The resource, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out), ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_mr_managed_create(gcol_mr **out);

/**
 * @brief Pageable host memory over `aligned_alloc`/`free`; makes no CUDA call, so it needs
 *        no GPU (tests, staging). Sizes are rounded up to a multiple of ::GCOL_MR_ALIGNMENT.
 * @param[out] out The resource, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out), ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_mr_host_create(gcol_mr **out);

/**
 * @brief A coalescing, thread-safe sub-allocating pool over @p upstream.
 *
 * The pool takes blocks from @p upstream: the first of @p initial_bytes (taken at once),
 * later ones when no free piece fits a request, each as large as what the pool already
 * holds (so that it doubles) or the request, whichever is larger, capped so that the total
 * stays within @p maximum_bytes; if the upstream refuses such a block, the pool asks once
 * more for just the request. Requests are rounded up to a multiple of ::GCOL_MR_ALIGNMENT
 * and served best fit; neighbouring free pieces merge on deallocation. A request the pool
 * cannot serve within @p maximum_bytes fails with ::GCOL_ERROR_OUT_OF_MEMORY and leaves the
 * pool usable.
 *
 * Stream order: a piece freed on stream s is reused at once by requests on s (preferred);
 * a request on another stream first waits (on the host, through a CUDA event the pool
 * recorded on s at the free) until s has passed the free. Neighbours freed on different
 * streams merge only when no piece fits a request, after waiting for their streams. Streams
 * may be destroyed before the pool. A pool over a ::GCOL_MEMORY_HOST upstream makes no CUDA
 * call (its bookkeeping is testable without a GPU).
 *
 * @param[in] upstream Where the pool's blocks come from; must outlive the pool and return
 *            ::GCOL_MR_ALIGNMENT-aligned memory (::GCOL_ERROR_UNSUPPORTED otherwise).
 * @param[in] initial_bytes Size of the first block (0: take blocks only when needed).
 * @param[in] maximum_bytes Most bytes the pool may hold (0: no maximum).
 * @param[out] out The pool, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p upstream or @p out, an upstream
 *         without allocate/deallocate, @p initial_bytes above @p maximum_bytes),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, or the upstream's status for the first block.
 * @note Destroying the pool waits for every stream it recorded, then returns every block to
 *       the upstream, also blocks with pieces still in use (logged at WARN).
 */
gcol_status gcol_mr_pool_create(gcol_mr *upstream, size_t initial_bytes, size_t maximum_bytes,
                                gcol_mr **out);

/** @brief A snapshot of a pool's bookkeeping. */
typedef struct gcol_mr_pool_info {
  size_t held_bytes;      /**< Bytes taken from the upstream. */
  size_t used_bytes;      /**< Bytes handed out and not yet freed (requests rounded up to
                               ::GCOL_MR_ALIGNMENT). */
  size_t free_bytes;      /**< held_bytes - used_bytes. */
  size_t largest_free;    /**< The largest free piece (fragmentation gauge). */
  int64_t free_pieces;    /**< Number of free pieces (neighbours freed on different streams
                               count apart until a request merges them). */
  int64_t upstream_blocks; /**< Number of blocks taken from the upstream. */
} gcol_mr_pool_info;

/**
 * @brief Reads a pool's bookkeeping (a consistent snapshot, taken under the pool's lock).
 * @param[in] pool A resource made by gcol_mr_pool_create().
 * @param[out] out The snapshot.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT if @p pool is NULL or not a pool, or
 *         @p out is NULL.
 */
gcol_status gcol_mr_pool_get_info(gcol_mr *pool, gcol_mr_pool_info *out);

/** @brief Counters kept by a statistics resource. */
typedef struct gcol_mr_statistics {
  int64_t current_bytes;       /**< Bytes allocated and not yet freed. */
  int64_t peak_bytes;          /**< Highest current_bytes seen. */
  int64_t total_bytes;         /**< Sum of all allocations' sizes. */
  int64_t current_allocations; /**< Allocations not yet freed. */
  int64_t peak_allocations;    /**< Highest current_allocations seen. */
  int64_t total_allocations;   /**< Number of successful allocations. */
  int64_t failed_allocations;  /**< Number of failed allocations. */
} gcol_mr_statistics;

/**
 * @brief An adaptor that counts bytes (as asked for) and allocations passing to
 *        @p upstream, and keeps every live allocation for leak reports. Thread-safe.
 * @param[in] upstream The resource that allocates; must outlive the adaptor, which never
 *            destroys it.
 * @param[out] out The adaptor, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p upstream or @p out, or an
 *         upstream without allocate/deallocate), ::GCOL_ERROR_OUT_OF_MEMORY.
 * @note Freeing a pointer it did not allocate is reported (an error message, counters
 *       unchanged) and passed on to the upstream.
 */
gcol_status gcol_mr_statistics_create(gcol_mr *upstream, gcol_mr **out);

/**
 * @brief Reads a statistics resource's counters.
 * @param[in] mr A resource made by gcol_mr_statistics_create().
 * @param[out] out The counters.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT if @p mr is NULL or not a statistics
 *         resource, or @p out is NULL.
 */
gcol_status gcol_mr_statistics_get(gcol_mr *mr, gcol_mr_statistics *out);

/**
 * @brief Logs every allocation still live in a statistics resource (address and size, at
 *        level WARN) and returns their count through @p out_live (may be NULL).
 * @param[in] mr A resource made by gcol_mr_statistics_create().
 * @param[out] out_live The number of live allocations (0 on failure), or NULL.
 * @return ::GCOL_OK, or ::GCOL_ERROR_INVALID_ARGUMENT if @p mr is NULL or not a statistics
 *         resource.
 */
gcol_status gcol_mr_statistics_report_leaks(gcol_mr *mr, int64_t *out_live);

/**
 * @brief An adaptor that fails (::GCOL_ERROR_OUT_OF_MEMORY) any allocation that would take
 *        the bytes currently allocated through it (as asked for) past @p limit_bytes.
 *        Thread-safe.
 * @param[in] upstream The resource that allocates; never destroyed by the adaptor.
 * @param[in] limit_bytes The most bytes live at once.
 * @param[out] out The adaptor, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p upstream or @p out, or an
 *         upstream without allocate/deallocate), ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_mr_limit_create(gcol_mr *upstream, size_t limit_bytes, gcol_mr **out);

/**
 * @brief An adaptor that fails the @p n-th allocation made through it (1-based; counting
 *        only non-empty requests) with ::GCOL_ERROR_OUT_OF_MEMORY and passes all others to
 *        @p upstream. For fault tests: run an operation with n = 1, 2, ... until it succeeds.
 * @param[in] upstream The resource that allocates; never destroyed by the adaptor.
 * @param[in] n The request to fail (1-based); 0 fails none.
 * @param[out] out The adaptor, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p upstream or @p out, an upstream
 *         without allocate/deallocate, negative @p n), ::GCOL_ERROR_OUT_OF_MEMORY.
 * @note Thread-safe: concurrent requests are numbered atomically.
 */
gcol_status gcol_mr_fail_nth_create(gcol_mr *upstream, int64_t n, gcol_mr **out);

/**
 * @brief Number of non-empty allocation requests a fail-on-Nth resource has seen
 *        (including the failed one).
 * @param[in] mr A resource made by gcol_mr_fail_nth_create().
 * @return The count, or -1 (with an ::GCOL_ERROR_INVALID_ARGUMENT message) if @p mr is NULL
 *         or not a fail-on-Nth resource.
 */
int64_t gcol_mr_fail_nth_count(gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_MEMORY_H */
