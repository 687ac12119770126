/**
 * @file buffer.h
 * @brief `gcol_buffer`: an owning, untyped allocation from a memory resource.
 */
#ifndef GCOL_BUFFER_H
#define GCOL_BUFFER_H

#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief Bytes owned by a memory resource. Records the resource and stream it came from,
 *        so gcol_buffer_free() returns it in stream order.
 */
typedef struct gcol_buffer {
  void *data;         /**< The allocation; NULL when size is 0. */
  size_t size;        /**< Bytes asked for. */
  gcol_mr *mr;        /**< The resource that allocated it (never NULL). */
  gcol_stream stream; /**< The stream it was allocated on and will be freed on. */
} gcol_buffer;

/**
 * @brief Allocates an uninitialized buffer of @p size bytes.
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

/** @brief Frees a buffer on the stream it was allocated on. NULL is a no-op. */
void gcol_buffer_free(gcol_buffer *buffer);

/**
 * @brief Takes the allocation out of @p buffer without freeing it (the caller then owns
 *        `data`, to be returned to `mr` with gcol_mr_deallocate()), and frees the struct.
 */
void *gcol_buffer_release(gcol_buffer *buffer);

GCOL_EXTERN_C_END

#endif /* GCOL_BUFFER_H */
