/* Shared by the distributed operations (kernels/dist/): the exchange of table parts between
 * ranks and the bookkeeping of distributed tables. */
#ifndef GCOL_KERNELS_DIST_COMMON_H
#define GCOL_KERNELS_DIST_COMMON_H

#include <stdbool.h>

#include "gcol/dist.h"
#include "internal/dist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective. Agrees on `local` first (a rank whose local work failed passes its status: then
 * every rank returns without exchanging). Then part p of `parts` (one table view per rank,
 * all of one schema) goes to rank p: packed, sizes exchanged, metadata and data exchanged,
 * unpacked; this rank's own part is not sent. `out` gets the received parts concatenated in
 * rank order (parts[rank] at its place), from mr; with `gather_root` >= 0 only that rank
 * receives anything (the others' `parts` other than the root's are ignored, and their `out`
 * is NULL). */
gcol_status gcol_detail_dist_exchange_tables(gcol_dist_comm *comm, gcol_status local,
                                             const gcol_table_view *parts, int32_t gather_root,
                                             gcol_table **out, gcol_stream stream, gcol_mr *mr);

/* Collective: every rank gets every rank's `part` concatenated in rank order (allgather). */
gcol_status gcol_detail_dist_allgather_table(gcol_dist_comm *comm, gcol_status local,
                                             gcol_table_view part, gcol_table **out,
                                             gcol_stream stream, gcol_mr *mr);

/* Collective: `input` hash-partitioned on the keys and each part sent to its rank (after an
 * agreement on `local`); `out` gets the rows this rank received. */
gcol_status gcol_detail_dist_shuffle_view(gcol_dist_comm *comm, gcol_status local,
                                          gcol_table_view input, const int32_t *keys,
                                          int32_t num_keys, gcol_table **out, gcol_stream stream,
                                          gcol_mr *mr);

/* Whether a table can take the direct shuffle: every column fixed-width (no strings, lists,
 * structs or dictionaries). Depends on the types only, so every rank decides alike. */
bool gcol_detail_dist_direct_fits(gcol_table_view t);

/* Collective (every rank's `parted` of one schema that fits): rows [begin[p], end[p]) of
 * `parted` go to rank p, column by column, received in place into `out`'s columns (sources in
 * rank order); null masks spliced. The ranges may overlap (an allgather sends every row to
 * every rank). Agrees on every local failure. */
gcol_status gcol_detail_dist_shuffle_direct(gcol_dist_comm *comm, gcol_table_view parted,
                                            const int64_t *begin, const int64_t *end,
                                            gcol_table **out, gcol_stream stream, gcol_mr *mr);

/* A distributed table over `local` (taken on success) with the given global row count and
 * partitioning (keys copied when HASH or RANGE). Not collective. */
gcol_status gcol_detail_dist_table_wrap(gcol_table *local, int64_t global_rows,
                                        gcol_dist_partitioning partitioning, const int32_t *keys,
                                        int32_t num_keys, gcol_dist_table **out);

/* Checks a distributed table and key indices (local, identical on every rank). */
gcol_status gcol_detail_dist_check_table(const gcol_dist_table *t, const char *name,
                                         const int32_t *keys, int32_t num_keys);

/* Whether t's rows are already where a shuffle on these keys would put them: t is
 * HASH-partitioned on exactly these keys, in this order, or there is one rank. */
int gcol_detail_dist_hashed_on(const gcol_dist_comm *comm, const gcol_dist_table *t,
                               const int32_t *keys, int32_t num_keys);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_DIST_COMMON_H */
