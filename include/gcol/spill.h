/**
 * @file spill.h
 * @ingroup gcol_spill
 * @brief Spilling: a manager per device that moves the bytes of unused buffers to pinned
 *        host memory under memory pressure and brings them back when they are used.
 *
 * Off by default. While it is on (gcol_spill_enable(), or `GCOL_SPILL=on` in the
 * environment), every buffer made on the device (gcol_buffer_create(), and so every column
 * an operation returns) is *spillable*. The manager spills the least recently used
 * spillable buffers that are neither pinned nor exposed:
 * - when an allocation through a spill resource (gcol_mr_spill_create()) runs out of memory:
 *   it spills enough and retries;
 * - when a new spillable buffer would take the spillable device bytes past the device limit
 *   (gcol_spill_options::device_limit, `GCOL_SPILL_DEVICE_LIMIT=bytes`);
 * - on demand: gcol_spill_now().
 *
 * A spilled buffer comes back to the device when it is used. Every use goes through a call
 * that decides how long the device pointer must stay valid:
 *
 * - gcol_column_get_view(), gcol_table_get_view(), gcol_frame_get_view(), and with a status
 *   and a stream gcol_column_acquire_view(), gcol_table_acquire_view(): bring back, then pin
 *   inside a scope (or an operation), expose outside any scope;
 * - write accesses, gcol_column_get_mutable_view(), gcol_column_make_mutable(),
 *   gcol_buffer_make_mutable(): the same;
 * - raw pointers, gcol_buffer_expose(), gcol_column_expose(): bring back, expose;
 * - shallow copies, frees, slices of views, gcol_column_make(): nothing (no byte is read).
 *
 * *Pinned*: the buffer cannot spill until the scope ends (gcol_spill_scope_end()); a
 * public operation pins what it uses and makes until it returns. *Exposed*: the pointer
 * may be kept anywhere, so the buffer never spills again (copy on write is not affected: a
 * read view still never copies). Operations take views, which the caller took in a scope
 * or outside one, so nothing spills under a running kernel.
 *
 * @code
 * gcol_mr *spill = NULL;
 * gcol_mr_spill_create(gcol_mr_get_default(), &spill);  // catches out of memory, spills
 * gcol_mr_set_default(spill, NULL);
 * gcol_spill_enable(NULL);
 * // ... make columns: they may spill while unused ...
 * gcol_spill_scope *scope = NULL;
 * gcol_spill_scope_begin(&scope);
 * gcol_table_view v;
 * gcol_table_acquire_view(table, stream, &v);           // back on the device, pinned
 * gcol_sort(v, NULL, NULL, &sorted, stream, NULL);
 * gcol_spill_scope_end(scope, stream);                  // may spill again after `stream`
 * @endcode
 *
 * Streams: a spill waits for the work submitted to the buffer's stream (`buffer->stream`)
 * and, for a buffer pinned by a scope, to the stream passed to gcol_spill_scope_end(); it
 * copies on the manager's own stream and waits for the copy. A buffer comes back on the
 * stream of the call that needs it (acquire views, mutable views), ordered before the work
 * the caller then puts on that stream; calls without a stream (gcol_column_get_view())
 * copy on the manager's stream and wait for the copy.
 *
 * Pointers: a spilled buffer's memory is freed, so device pointers taken earlier without a
 * pin or an exposure (a buffer's `data` field read directly, a view kept past its scope)
 * dangle. A `gcol_buffer`'s `data` field is refreshed by the calls above for that buffer;
 * read it only while the buffer is pinned or exposed.
 *
 * Threads: the manager is thread-safe (one mutex per device); a scope belongs to the thread
 * that began it.
 */
#ifndef GCOL_SPILL_H
#define GCOL_SPILL_H

/** @addtogroup gcol_spill
 *  @{ */

#include "gcol/buffer.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief Settings of a device's spill manager; gcol_spill_options_init() gives defaults. */
typedef struct gcol_spill_options {
  /** Spillable device bytes (spillable buffers on the device, pinned ones included,
   *  exposed ones not) above which a new spillable buffer first spills others; 0: no
   *  limit. Best effort: what is pinned stays. */
  size_t device_limit;
  /** Where spilled bytes go, or NULL for the manager's own pool of pinned host memory.
   *  Must outlive every buffer spilled into it. A ::GCOL_MEMORY_HOST resource also makes
   *  host-memory buffers spillable (memcpy, no CUDA call: the CPU tests use this). */
  gcol_mr *host_mr;
  /** Bytes of pinned host memory the manager's own pool takes at its first spill (0: as
   *  needed); it then grows by doubling. Unused with a host_mr. */
  size_t host_pool_initial;
} gcol_spill_options;

/** @brief Counters of a device's spill manager (gcol_spill_statistics_get()). */
typedef struct gcol_spill_statistics {
  uint64_t spills;          /**< Buffers moved to host memory. */
  uint64_t spilled_bytes;   /**< Their bytes. */
  uint64_t unspills;        /**< Buffers brought back to the device. */
  uint64_t unspilled_bytes; /**< Their bytes. */
  double spill_seconds;     /**< Wall time spent spilling (waits for streams included). */
  double unspill_seconds;   /**< Wall time spent bringing back. */
  uint64_t exposed;         /**< Spillable buffers exposed so far (they never spill again). */
  uint64_t failed_spills;   /**< Spills that failed (no host memory): the buffer stayed. */
  uint64_t failed_unspills; /**< Unspills that failed (no device memory): it stayed spilled. */
  int64_t buffers;          /**< Spillable buffers alive now (exposed ones included). */
  int64_t device_bytes;     /**< Their bytes on the device, exposed ones excluded. */
  int64_t spillable_bytes;  /**< Bytes that could spill now: neither pinned nor exposed. */
  int64_t exposed_bytes;    /**< Bytes of exposed spillable buffers alive. */
  int64_t host_bytes;       /**< Spilled bytes now in host memory. */
} gcol_spill_statistics;

/** @brief A pinning scope (opaque): see gcol_spill_scope_begin(). */
typedef struct gcol_spill_scope gcol_spill_scope;

/** @brief Default options: no device limit, the manager's own pinned pool. */
void gcol_spill_options_init(gcol_spill_options *options);

/**
 * @brief Turns spilling on for the current device with @p options (NULL: defaults), or
 *        changes the options of a manager that is on. Buffers made from now on are
 *        spillable; earlier ones are not.
 * @return ::GCOL_OK, ::GCOL_ERROR_UNSUPPORTED (a device numbered 64 or more),
 *         ::GCOL_ERROR_OUT_OF_MEMORY.
 * @note Thread-safe. `GCOL_SPILL=on` does the same for every device at its first use, with
 *       `GCOL_SPILL_DEVICE_LIMIT` as the limit (bytes; suffixes k, m, g, t as powers of 1024).
 */
gcol_status gcol_spill_enable(const gcol_spill_options *options);

/**
 * @brief Turns spilling off for the current device: new buffers are not spillable and
 *        nothing spills any more; spilled buffers still come back when used. When nothing
 *        is spilled, the manager's own pinned host pool is freed (made again at the next
 *        spill); otherwise it stays until a later call finds nothing spilled.
 * @return ::GCOL_OK, ::GCOL_ERROR_UNSUPPORTED (a device numbered 64 or more).
 */
gcol_status gcol_spill_disable(void);

/**
 * @brief The current device's options (those of gcol_spill_enable(), or of the environment;
 *        defaults where spilling was never configured).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out), ::GCOL_ERROR_UNSUPPORTED
 *         (a device numbered 64 or more), ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_spill_get_options(gcol_spill_options *out);

/** @brief True when spilling is on for the current device. */
bool gcol_spill_is_enabled(void);

/**
 * @brief Sets the current device's limit (gcol_spill_options::device_limit; 0: none) and
 *        spills down to it at once.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (spilling is off), or the status of a
 *         spill that failed.
 */
gcol_status gcol_spill_set_device_limit(size_t bytes);

/**
 * @brief Spills at least @p bytes (SIZE_MAX: everything that can spill) of the current
 *        device's spillable buffers, least recently used first.
 * @param[in] bytes Bytes wanted.
 * @param[out] out_spilled Bytes spilled (may be NULL); fewer when too little could spill.
 * @return ::GCOL_OK (also when less could spill, or spilling is off), or the status of the
 *         first spill that failed (::GCOL_ERROR_OUT_OF_MEMORY for host memory): that buffer
 *         stays on the device, those spilled before it stay spilled.
 * @note Waits for the buffers' streams and for the copies.
 */
gcol_status gcol_spill_now(size_t bytes, size_t *out_spilled);

/**
 * @brief Reads the current device's counters (zeros where spilling was never on).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out).
 */
gcol_status gcol_spill_statistics_get(gcol_spill_statistics *out);

/**
 * @brief Opens a pinning scope on this thread: until gcol_spill_scope_end(), views and
 *        write accesses taken on this thread pin their buffers (they stay on the device)
 *        instead of exposing them. Scopes nest; the innermost one pins.
 * @param[out] out The scope, ended (and freed) by gcol_spill_scope_end().
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out),
 *         ::GCOL_ERROR_OUT_OF_MEMORY.
 */
gcol_status gcol_spill_scope_begin(gcol_spill_scope **out);

/**
 * @brief Ends this thread's innermost scope: its buffers may spill again, after the work
 *        submitted to @p stream so far (the stream that used the views).
 * @param[in] scope The innermost scope of this thread; freed.
 * @param[in] stream The stream the pinned buffers were used on.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL, or not this thread's innermost
 *         scope: nothing is done), a CUDA status (the scope is still ended).
 */
gcol_status gcol_spill_scope_end(gcol_spill_scope *scope, gcol_stream stream);

/** @brief True when @p buffer's bytes are in host memory now (false for NULL). */
bool gcol_buffer_is_spilled(const gcol_buffer *buffer);

/** @brief True when @p buffer is spillable and neither exposed nor pinned now. */
bool gcol_buffer_is_spillable(const gcol_buffer *buffer);

/**
 * @brief An adaptor that passes allocations to @p upstream and, when one fails with
 *        ::GCOL_ERROR_OUT_OF_MEMORY, spills the current device's buffers (at least the
 *        bytes asked for, least recently used first) and tries again, until it succeeds or
 *        nothing more can spill (then ::GCOL_ERROR_OUT_OF_MEMORY, with a message that says
 *        how many bytes were spilled and how many are pinned or exposed). Thread-safe.
 * @param[in] upstream The resource that allocates; never destroyed by the adaptor.
 * @param[out] out The adaptor, to be freed with gcol_mr_destroy(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_OUT_OF_MEMORY.
 * @note Put it outermost (over pools and limits): the manager allocates through buffers'
 *       resources while it brings them back.
 */
gcol_status gcol_mr_spill_create(gcol_mr *upstream, gcol_mr **out);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_SPILL_H */
