/* The built-in staging resource's cache (lib/io/staging_cache.c). */
#ifndef GCOL_INTERNAL_STAGING_H
#define GCOL_INTERNAL_STAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gcol/memory.h"

/* A resource over `upstream` (of its kind) that keeps the blocks it took, at most `limit`
 * bytes, handing each out whole (best fit within twice the request, sizes rounded to 2 MiB)
 * and evicting free ones, largest first, to make room. Frees take no stream order: its
 * users free only after the host saw the copies finish. */
gcol_status gcol_detail_staging_cache_create(gcol_mr *upstream, size_t limit, gcol_mr **out);

/* Bytes the cache holds and hands out now, and its blocks (a cache from the function above). */
void gcol_detail_staging_cache_info(gcol_mr *cache, size_t *held, size_t *used, int64_t *blocks);

#endif /* GCOL_INTERNAL_STAGING_H */
