/**
 * @file staging.h
 * @ingroup gcol_io_staging
 * @brief The page-locked host memory gcol's readers read files into and stage copies through.
 *
 * A read from a path or a ::gcol_parquet_source reads each batch's column chunks (several
 * threads at once for a path) into page-locked host memory, from which they are copied to the
 * GPU at the link's full speed; a read of a pageable buffer stages its bytes there too.
 * Page-locking memory is slow (`cudaMallocHost`: about 0.6 ms per MiB on an H200's host), so
 * that memory comes from one resource kept for the program: by default a cache of
 * page-locked blocks (`cudaMallocHost`, sizes rounded to 2 MiB, each handed out whole) made
 * at its first use, which keeps what it took (at most a quarter of the host's memory, and 8
 * GiB, free blocks given back largest first to make room) until gcol_io_staging_release() or
 * the program's exit. A read that cannot get the memory it wants reads as it would without
 * it (slower, never failing for that).
 *
 * gcol gives staging memory back only after the host has seen the copies out of it finish
 * (it synchronizes first), so a resource set with gcol_io_set_staging_mr() needs no stream
 * order: the stream passed to its deallocate is only the one the memory was used on.
 *
 * @code
 * gcol_parquet_read_file("a.parquet", NULL, &t, stream, NULL); // the cache grows
 * gcol_parquet_read_file("b.parquet", NULL, &t2, stream, NULL); // and is reused
 * gcol_io_staging_release();  // its memory back to the system (done reading)
 * @endcode
 */
#ifndef GCOL_IO_STAGING_H
#define GCOL_IO_STAGING_H

/** @addtogroup gcol_io_staging
 *  @{ */

#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/**
 * @brief The resource readers take their page-locked host memory from: the one set with
 *        gcol_io_set_staging_mr(), else the built-in cache (made here at the first call; no
 *        CUDA call until it allocates). Thread-safe.
 * @return Never NULL, except where the built-in cache cannot be made (out of host memory).
 */
gcol_mr *gcol_io_get_staging_mr(void);

/**
 * @brief Sets the resource readers take their page-locked host memory from (for the whole
 *        program, every device). A resource of another kind than ::GCOL_MEMORY_PINNED
 *        works, the copies from it then being staged by the CUDA driver (slower).
 *        Thread-safe, but must not be called while a read is running.
 * @param[in] mr The resource (it must outlive its use), or NULL for the built-in cache.
 * @param[out] previous If not NULL, receives the previous resource (NULL where it was the
 *             built-in cache).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (@p mr lacks allocate or deallocate).
 */
gcol_status gcol_io_set_staging_mr(gcol_mr *mr, gcol_mr **previous);

/**
 * @brief Frees the built-in cache and every byte it holds (made again at the next use). Call
 *        it when no read or write is running; a no-op where it was never made.
 */
void gcol_io_staging_release(void);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_IO_STAGING_H */
