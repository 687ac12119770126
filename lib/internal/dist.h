/*
 * Internal side of dist.h: the communicator's collectives (control messages on the host,
 * data exchanges of device buffers) and the host-only plans the distributed operations
 * share (sample and splitter positions, receive layouts). lib/dist_comm.c implements the
 * collectives over MPI and NCCL; lib/dist_plan.c the plans (no MPI, NCCL or CUDA: unit-tested
 * on machines without a GPU).
 */
#ifndef GCOL_INTERNAL_DIST_H
#define GCOL_INTERNAL_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "gcol/dist.h"
#include "gcol/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Byte alignment of each peer's part in a receive buffer (gcol_pack()'s alignment, so that a
 * received packed table can be unpacked in place). */
#define GCOL_DETAIL_DIST_ALIGN 256

typedef enum gcol_detail_dist_op {
  GCOL_DETAIL_DIST_SUM = 0,
  GCOL_DETAIL_DIST_MAX = 1,
  GCOL_DETAIL_DIST_MIN = 2
} gcol_detail_dist_op;

/* ---- collectives (lib/dist_comm.c); every rank calls them in the same order ---- */

/* values[0..n) of every rank combined by op, in place (host memory). */
gcol_status gcol_detail_dist_allreduce_i64(gcol_dist_comm *comm, int64_t *values, int32_t n,
                                           gcol_detail_dist_op op);

/* recv[r * n + i] = rank r's send[i], for every rank r (host memory). */
gcol_status gcol_detail_dist_allgather_i64(gcol_dist_comm *comm, const int64_t *send, int32_t n,
                                           int64_t *recv);

/* Host all-to-all: this rank sends send_sizes[p] bytes from send[p] to rank p and receives
 * recv_sizes[p] bytes from rank p into recv[p] (sizes agreed beforehand; NULL pointers for
 * zero sizes are fine). */
gcol_status gcol_detail_dist_exchange_host(gcol_dist_comm *comm, const void *const *send,
                                           const int64_t *send_sizes, void *const *recv,
                                           const int64_t *recv_sizes);

/* The same for device buffers, ordered on stream (NCCL: enqueued on it; MPI: staged through
 * pinned host memory, synchronizing stream). */
gcol_status gcol_detail_dist_exchange_device(gcol_dist_comm *comm, const void *const *send,
                                             const int64_t *send_sizes, void *const *recv,
                                             const int64_t *recv_sizes, gcol_stream stream);

/* Several device exchanges at once: segment k sends send_sizes[k * n + p] bytes from
 * send[k * n + p] to rank p and receives recv_sizes[k * n + p] bytes into recv[k * n + p]
 * (n ranks). NCCL: every segment's pairs in one group, this rank's own parts copied on a side
 * stream meanwhile (stream waits for them); MPI: staged segment by segment. */
gcol_status gcol_detail_dist_exchange_device_segments(gcol_dist_comm *comm, int32_t segments,
                                                      const void *const *send,
                                                      const int64_t *send_sizes, void *const *recv,
                                                      const int64_t *recv_sizes,
                                                      gcol_stream stream);

/* ---- plans (lib/dist_plan.c): pure functions ---- */

/* Rows of a regular sample of `count` rows out of `rows` (count <= rows): the middle of each
 * of count equal runs, ascending. */
void gcol_detail_dist_sample_rows(int64_t rows, int64_t count, int64_t *out);

/* Rows of the ranks - 1 splitters in a sorted sample of `samples` rows: k * samples / ranks
 * for k = 1 .. ranks - 1 (samples >= 1). */
void gcol_detail_dist_splitter_rows(int64_t samples, int32_t ranks, int64_t *out);

/* Whether a join's right side is broadcast rather than both sides shuffled under
 * GCOL_DIST_BROADCAST_AUTO: each rank then receives fewer bytes, R(ranks - 1) < L (the bytes of
 * the left and right tables over all ranks), and R is at most
 * GCOL_DIST_BROADCAST_AUTO_MAX_BYTES (the copy every rank keeps). */
bool gcol_detail_dist_broadcast_pays(int64_t left_bytes, int64_t right_bytes, int32_t ranks);

/* Offsets of each of n parts of sizes[] in one buffer, each aligned to
 * GCOL_DETAIL_DIST_ALIGN, and the buffer's size. OVERFLOW if it exceeds INT64_MAX. */
gcol_status gcol_detail_dist_layout(const int64_t *sizes, int32_t n, int64_t *offsets,
                                    int64_t *total);

/* Range-partition bounds from the ranks - 1 splitter positions of a sorted local table of
 * `rows` rows: bounds[0] = 0, bounds[r] = positions[r - 1] clamped into
 * [bounds[r - 1], rows], bounds[ranks] = rows. */
void gcol_detail_dist_bounds(const int64_t *positions, int32_t ranks, int64_t rows,
                             int64_t *bounds);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_DIST_H */
