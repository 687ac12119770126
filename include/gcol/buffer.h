/**
 * @file buffer.h
 * @ingroup gcol_core
 * @brief `gcol_buffer`: an owning handle on a reference-counted, copy-on-write allocation
 *        from a memory resource.
 *
 * A buffer is a small host struct (one per holder) over a *storage*: the allocation and a
 * count of the buffers that share it. gcol_buffer_copy_shallow() makes another buffer over
 * the same storage (no device copy); gcol_buffer_free() drops one buffer, and the last one
 * frees the allocation (stream-ordered, on the stream the storage was allocated on).
 *
 * Reads never copy: read the bytes through `data` (or a column's view). A write into the
 * bytes of a buffer that may be shared must first call gcol_buffer_make_mutable(), which
 * copies the storage if another buffer shares it, so that no other holder sees the write.
 * A pointer kept for arbitrary use outside gcol (written behind gcol's back, handed to
 * another library) comes from gcol_buffer_expose(): the storage is then *exposed* and never
 * shared again; a later shallow copy copies it.
 *
 * @code
 * gcol_buffer *a = NULL, *b = NULL;
 * gcol_buffer_create(bytes, stream, NULL, &a);
 * // ... fill a->data (a new buffer is never shared) ...
 * gcol_buffer_copy_shallow(a, stream, &b);  // b shares a's storage: no copy
 * gcol_buffer_make_mutable(b, stream);      // shared: b gets its own copy of the bytes
 * // ... write b->data on stream: a does not see it ...
 * gcol_buffer_free(a);
 * gcol_buffer_free(b);
 * @endcode
 *
 * Spilling (gcol/spill.h): a buffer made while spilling is on may have its bytes moved to
 * host memory while nothing pins or exposes it; then `data` dangles. gcol_buffer_make_mutable()
 * and gcol_buffer_expose() bring the bytes back and refresh `data` (pinned to the open scope,
 * or exposed); read `data` only after one of them, or right after gcol_buffer_create() before
 * anything else allocates.
 *
 * Threads: the storage's count is atomic, so buffers that share a storage may be copied,
 * made mutable, exposed and freed from different threads at once. One buffer struct is not
 * to be changed (made mutable, exposed, freed, released) by one thread while another uses it.
 */
#ifndef GCOL_BUFFER_H
#define GCOL_BUFFER_H

/** @addtogroup gcol_core
 *  @{ */

#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief The shared allocation under one or more buffers (opaque, reference counted). */
typedef struct gcol_buffer_storage gcol_buffer_storage;

/**
 * @brief Bytes owned by a memory resource, possibly shared with other buffers (see the
 *        file's description). Records the resource and stream its storage came from, so
 *        the last gcol_buffer_free() returns it in stream order.
 *
 * The fields other than `storage` mirror the storage's and change only when
 * gcol_buffer_make_mutable() or gcol_buffer_expose() gives the buffer a copy.
 */
typedef struct gcol_buffer {
  void *data;                   /**< The allocation; NULL when size is 0. Read access. */
  size_t size;                  /**< Bytes asked for. */
  gcol_mr *mr;                  /**< The resource that allocated it (never NULL). */
  gcol_stream stream;           /**< The stream it was allocated on and will be freed on. */
  gcol_buffer_storage *storage; /**< The shared storage (gcol's; never change it). */
} gcol_buffer;

/**
 * @brief Counts of copy-on-write events since the process started, across all threads.
 *        Read them with gcol_buffer_statistics_get(); compare two readings. Copies of
 *        empty buffers (no bytes) are not counted.
 */
typedef struct gcol_buffer_statistics {
  uint64_t shared_copies;  /**< Shallow copies that shared the storage (no device copy). */
  uint64_t write_copies;   /**< Copies made because a write access found the storage shared. */
  uint64_t exposed_copies; /**< Copies made because a shallow copy found the storage exposed. */
  uint64_t copied_bytes;   /**< Bytes copied by write_copies and exposed_copies. */
} gcol_buffer_statistics;

/**
 * @brief Allocates an uninitialized buffer of @p size bytes (its own storage, not shared).
 * @param[in] size Bytes (0 gives a buffer with NULL data).
 * @param[in] stream Stream of allocation.
 * @param[in] mr Resource, or NULL for the default.
 * @param[out] out The buffer; NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_buffer_create(size_t size, gcol_stream stream, gcol_mr *mr, gcol_buffer **out);

/**
 * @brief Copies @p size bytes from @p src (host or device) into a new buffer (stream-ordered).
 * @note Pageable host sources make the copy synchronous with respect to the host.
 */
gcol_status gcol_buffer_create_copy(const void *src, size_t size, gcol_stream stream,
                                    gcol_mr *mr, gcol_buffer **out);

/**
 * @brief A new buffer over the same bytes as @p buffer: it shares the storage (a read
 *        access: no device copy), unless the storage is exposed, when the bytes are copied
 *        into a new storage from the buffer's resource.
 * @param[in] buffer The buffer (not changed; its storage's count goes up).
 * @param[in] stream Stream of the copy of an exposed storage (the new storage is
 *                   allocated and freed on it); unused when the storage is shared.
 * @param[out] out The new buffer, to be freed with gcol_buffer_free(); NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note A copy is ordered after earlier work on @p stream only: work on other streams that
 *       writes the bytes must be ordered before it by the caller.
 */
gcol_status gcol_buffer_copy_shallow(const gcol_buffer *buffer, gcol_stream stream,
                                     gcol_buffer **out);

/**
 * @brief Write access: makes @p buffer the only holder of its storage, copying the bytes
 *        into a new storage (from the buffer's resource, on @p stream) if another buffer
 *        shares it. Afterwards `buffer->data` may be written on @p stream without any other
 *        buffer seeing the write, until the buffer is shallow-copied again.
 * @param[in,out] buffer The buffer.
 * @param[in] stream Stream of the copy; the new storage is allocated and will be freed on
 *                   it (`buffer->stream` becomes @p stream).
 * @return ::GCOL_OK (no copy when the buffer was not shared), ::GCOL_ERROR_INVALID_ARGUMENT
 *         (NULL @p buffer), ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status. On failure the buffer
 *         is unchanged (still shared).
 * @note When the shared storage was allocated on another stream, that stream is made to
 *       wait for the copy (a CUDA event), so the other holders' free of it is ordered after
 *       the copy's read.
 */
gcol_status gcol_buffer_make_mutable(gcol_buffer *buffer, gcol_stream stream);

/**
 * @brief Exposes @p buffer: makes it the only holder of its storage (as
 *        gcol_buffer_make_mutable()), marks the storage exposed and returns its pointer,
 *        which the caller may then keep, write on any stream or hand to other code for as
 *        long as the buffer lives. An exposed storage is never shared again: later shallow
 *        copies copy it.
 * @param[in,out] buffer The buffer.
 * @param[in] stream Stream of a copy, as for gcol_buffer_make_mutable().
 * @param[out] out `buffer->data` after the call (NULL for an empty buffer).
 * @return As gcol_buffer_make_mutable(); ::GCOL_ERROR_INVALID_ARGUMENT also for NULL @p out.
 */
gcol_status gcol_buffer_expose(gcol_buffer *buffer, gcol_stream stream, void **out);

/** @brief True when another buffer shares @p buffer's storage (false for NULL). */
bool gcol_buffer_is_shared(const gcol_buffer *buffer);

/** @brief True when @p buffer's storage has been exposed (false for NULL). */
bool gcol_buffer_is_exposed(const gcol_buffer *buffer);

/**
 * @brief Number of buffers over @p buffer's storage, itself included (0 for NULL). A
 *        snapshot: other threads may change it at any time.
 */
int64_t gcol_buffer_use_count(const gcol_buffer *buffer);

/**
 * @brief Reads the process-wide copy-on-write counters (::gcol_buffer_statistics).
 *        Thread-safe. NULL @p out is a no-op.
 */
void gcol_buffer_statistics_get(gcol_buffer_statistics *out);

/**
 * @brief Frees a buffer: drops its reference on the storage, and frees the storage on its
 *        stream when no other buffer shares it. NULL is a no-op.
 */
void gcol_buffer_free(gcol_buffer *buffer);

/**
 * @brief Takes the allocation out of @p buffer without freeing it (the caller then owns
 *        `data`, to be returned to `mr` with gcol_mr_deallocate() on `stream`), and frees
 *        the struct.
 * @return The allocation (NULL for an empty buffer). When the storage is shared (see
 *         gcol_buffer_is_shared()), NULL with ::GCOL_ERROR_INVALID_ARGUMENT as the last
 *         error, and @p buffer is left as it was: call gcol_buffer_make_mutable() first.
 */
void *gcol_buffer_release(gcol_buffer *buffer);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_BUFFER_H */
