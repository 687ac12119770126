/**
 * @file dist.h
 * @ingroup gcol_dist
 * @brief Tables spread over several GPUs (or several ranks of one GPU): a communicator over
 *        NCCL or MPI, distributed tables, shuffle, join, groupby, sort and gather.
 *
 * Built only with `-Ddist=enabled` (or `auto` where MPI is found) into `libgcol_dist.a`,
 * which needs MPI (Open MPI or MPICH) and, for the NCCL transport, NCCL; `libgcol.a` is the
 * same with or without it. Every rank calls every function of this header collectively, in
 * the same order, like an MPI collective; one rank per thread.
 *
 * Transports: ::GCOL_DIST_TRANSPORT_NCCL moves device buffers GPU to GPU (the data path; one
 * rank per GPU); ::GCOL_DIST_TRANSPORT_MPI stages them through pinned host memory and MPI, so
 * that several ranks may share one GPU (tests) and hosts without NCCL still work. Small
 * control messages (sizes, errors) go through MPI when the communicator has one, else
 * through NCCL.
 *
 * Errors are agreed on: before each exchange every rank says whether its local work failed
 * (allocation, bad input), and if any did, every rank returns an error (the failing rank
 * its own status, the others ::GCOL_ERROR_PEER), frees what it made and leaves no rank
 * waiting. A failing NCCL or MPI call returns ::GCOL_ERROR_COMM; after it the communicator
 * should be freed (NCCL's own state may be unusable).
 *
 * @code
 * // mpirun -np 4 ./app: one rank per GPU
 * MPI_Comm world = MPI_COMM_WORLD;
 * cudaSetDevice(local_rank);
 * gcol_dist_comm *comm = NULL;
 * gcol_dist_comm_create_mpi(&world, GCOL_DIST_TRANSPORT_NCCL, &comm);
 * gcol_dist_table *orders = NULL, *customers = NULL, *joined = NULL;
 * gcol_dist_table_make(comm, my_orders, &orders, stream);      // takes my_orders
 * gcol_dist_table_make(comm, my_customers, &customers, stream);
 * int32_t on = 0;
 * gcol_dist_join(comm, orders, &on, customers, &on, 1, GCOL_JOIN_INNER, GCOL_NULLS_UNEQUAL,
 *                NULL, &joined, stream, NULL);                 // shuffles both sides
 * @endcode
 */
#ifndef GCOL_DIST_H
#define GCOL_DIST_H

/** @addtogroup gcol_dist
 *  @{ */

#include <stdbool.h>
#include <stdint.h>

#include "gcol/config.h"
#include "gcol/groupby.h"
#include "gcol/join.h"
#include "gcol/memory.h"
#include "gcol/sorting.h"
#include "gcol/status.h"
#include "gcol/table.h"

GCOL_EXTERN_C_BEGIN

/** @brief How ranks move data. */
typedef enum gcol_dist_transport {
  GCOL_DIST_TRANSPORT_NCCL = 0, /**< NCCL send/receive of device buffers (one rank per GPU). */
  GCOL_DIST_TRANSPORT_MPI = 1   /**< MPI through pinned host buffers (ranks may share a GPU). */
} gcol_dist_transport;

/** @brief A communicator: this rank's place among the ranks and its transport. */
typedef struct gcol_dist_comm gcol_dist_comm;

/** @brief Bytes of an NCCL unique id (NCCL_UNIQUE_ID_BYTES). */
#define GCOL_DIST_UNIQUE_ID_BYTES 128

/** @brief Most key columns a distributed table records as its partitioning keys. */
#define GCOL_DIST_MAX_KEYS 32

/** @brief Whether this build has the NCCL transport (false: only MPI). */
bool gcol_dist_nccl_available(void);

/**
 * @brief A communicator over the ranks of an MPI communicator, each on its current CUDA
 *        device (call cudaSetDevice() first).
 * @param[in] mpi_comm Pointer to an `MPI_Comm` (e.g. `&world`); it is duplicated, so the
 *        caller's communicator may be freed afterwards. MPI must be initialized.
 * @param[in] transport The data path. With NCCL, rank 0 makes the NCCL unique id and MPI
 *        broadcasts it; every rank must be on a distinct GPU.
 * @param[out] out The communicator; free it with gcol_dist_comm_free() before
 *        MPI_Finalize(). NULL on failure.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointer, bad transport, MPI not
 *         initialized), ::GCOL_ERROR_UNSUPPORTED (NCCL asked for in a build without it),
 *         ::GCOL_ERROR_COMM (an MPI or NCCL call failed), ::GCOL_ERROR_OUT_OF_MEMORY,
 *         ::GCOL_ERROR_PEER (another rank failed to create its part).
 * @note Collective over @p mpi_comm. The MPI transport needs no GPU to be created: its
 *       control messages are host-only.
 */
gcol_status gcol_dist_comm_create_mpi(const void *mpi_comm, gcol_dist_transport transport,
                                      gcol_dist_comm **out);

/**
 * @brief Makes an NCCL unique id (on one rank, which passes it to the others its own way)
 *        for gcol_dist_comm_create_nccl().
 * @param[out] id ::GCOL_DIST_UNIQUE_ID_BYTES bytes.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_UNSUPPORTED (no NCCL),
 *         ::GCOL_ERROR_COMM.
 */
gcol_status gcol_dist_nccl_unique_id(uint8_t id[GCOL_DIST_UNIQUE_ID_BYTES]);

/**
 * @brief A communicator of @p num_ranks ranks over NCCL only (no MPI), from a unique id
 *        every rank received; this rank on its current CUDA device.
 * @param[in] id The id of gcol_dist_nccl_unique_id().
 * @param[in] num_ranks Ranks (>= 1).
 * @param[in] rank This rank, in [0, num_ranks).
 * @param[out] out The communicator (transport NCCL; control messages through NCCL too).
 * @return As gcol_dist_comm_create_mpi().
 * @note Collective: blocks until every rank has called it.
 */
gcol_status gcol_dist_comm_create_nccl(const uint8_t id[GCOL_DIST_UNIQUE_ID_BYTES],
                                       int32_t num_ranks, int32_t rank, gcol_dist_comm **out);

/**
 * @brief Communicators for several GPUs of this process (ncclCommInitAll): rank i on
 *        device @p devices[i]. Drive each from its own thread (the functions of this header
 *        are collective: every rank's thread calls them).
 * @param[in] num_devices Ranks (>= 1).
 * @param[in] devices Host array of @p num_devices distinct CUDA devices, or NULL for
 *        0 .. num_devices - 1.
 * @param[out] comms Host array of @p num_devices communicators, filled (all NULL on failure).
 * @return As gcol_dist_comm_create_nccl().
 */
gcol_status gcol_dist_comm_create_all(int32_t num_devices, const int32_t *devices,
                                      gcol_dist_comm **comms);

/** @brief Frees a communicator (NULL-safe). Not collective, but free every rank's. */
void gcol_dist_comm_free(gcol_dist_comm *comm);

/** @brief This rank (0 for NULL). */
int32_t gcol_dist_comm_rank(const gcol_dist_comm *comm);

/** @brief Number of ranks (0 for NULL). */
int32_t gcol_dist_comm_size(const gcol_dist_comm *comm);

/** @brief The transport chosen at creation. */
gcol_dist_transport gcol_dist_comm_transport(const gcol_dist_comm *comm);

/**
 * @brief Collective: agrees on a status. Every rank passes its own; if any is not
 *        ::GCOL_OK, each rank gets back its own error, or ::GCOL_ERROR_PEER if its own was
 *        ::GCOL_OK. For callers that interleave their own work with gcol's collectives.
 * @param[in] comm The communicator.
 * @param[in] local This rank's status.
 * @return The agreed status; ::GCOL_ERROR_COMM if the exchange itself failed.
 */
gcol_status gcol_dist_agree(gcol_dist_comm *comm, gcol_status local);

/** @brief How a distributed table's rows are placed on the ranks. */
typedef enum gcol_dist_partitioning {
  GCOL_DIST_PARTITION_NONE = 0, /**< Anywhere (as the caller loaded them). */
  GCOL_DIST_PARTITION_HASH = 1, /**< By gcol_dist_shuffle()'s hash of the key columns. */
  GCOL_DIST_PARTITION_RANGE = 2 /**< Sorted by the key columns: rank r's rows all order
                                     before rank r + 1's (gcol_dist_sort()). */
} gcol_dist_partitioning;

/** @brief A table spread over the ranks: this rank's rows and what all ranks share. */
typedef struct gcol_dist_table {
  gcol_table *local;                       /**< This rank's rows (owned). */
  int64_t global_rows;                     /**< Rows over all ranks. */
  gcol_dist_partitioning partitioning;     /**< How rows are placed. */
  int32_t num_keys;                        /**< HASH, RANGE: number of key columns. */
  int32_t key_columns[GCOL_DIST_MAX_KEYS]; /**< HASH, RANGE: the key columns of @p local. */
} gcol_dist_table;

/**
 * @brief Collective: a distributed table of each rank's @p local rows (partitioning NONE).
 * @param[in] comm The communicator.
 * @param[in] local This rank's rows; on success the table takes it (also on a rank that
 *        fails, local stays the caller's).
 * @param[out] out The distributed table; free with gcol_dist_table_free().
 * @param[in] stream Unused today (sizes are host values); kept for symmetry.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_OUT_OF_MEMORY,
 *         ::GCOL_ERROR_PEER, ::GCOL_ERROR_COMM. Column counts and types must agree over the
 *         ranks (checked: ::GCOL_ERROR_TYPE_MISMATCH on every rank).
 */
gcol_status gcol_dist_table_make(gcol_dist_comm *comm, gcol_table *local, gcol_dist_table **out,
                                 gcol_stream stream);

/** @brief Frees a distributed table and its local rows (NULL-safe; not collective). */
void gcol_dist_table_free(gcol_dist_table *table);

/**
 * @brief Collective: moves every row to the rank `murmur3(keys) % ranks` (gcol_hash(),
 *        ::GCOL_HASH_MURMUR3_32, seed 0), so that equal keys meet on one rank: hash
 *        partition, pack, exchange of sizes then data, unpack. Within the output, rows come
 *        grouped by source rank (rank 0's first), each group in input order.
 * @param[in] comm The communicator.
 * @param[in] input The table (any layout that gcol_pack() takes).
 * @param[in] key_columns Host array of @p num_keys indices into the table's columns.
 * @param[in] num_keys 1 to ::GCOL_DIST_MAX_KEYS.
 * @param[out] out The shuffled table (partitioning HASH on the keys).
 * @param[in] stream Stream of the work (NCCL transfers are enqueued on it).
 * @param[in] mr Resource of the output.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_UNSUPPORTED (a key that
 *         cannot be hashed, DICTIONARY32), ::GCOL_ERROR_OUT_OF_MEMORY, ::GCOL_ERROR_PEER,
 *         ::GCOL_ERROR_COMM, a CUDA status.
 * @note Synchronizes @p stream. A table already HASH-partitioned on the same keys is copied,
 *       not exchanged.
 */
gcol_status gcol_dist_shuffle(gcol_dist_comm *comm, const gcol_dist_table *input,
                              const int32_t *key_columns, int32_t num_keys, gcol_dist_table **out,
                              gcol_stream stream, gcol_mr *mr);

/** @brief gcol_dist_join_options::broadcast_max_rows: choose by the bytes moved (the default). */
#define GCOL_DIST_BROADCAST_AUTO (-1)
/** @brief The most bytes (the right table over all ranks) that ::GCOL_DIST_BROADCAST_AUTO
 *  copies onto every rank. */
#define GCOL_DIST_BROADCAST_AUTO_MAX_BYTES ((int64_t)1 << 30)

/** @brief Options of gcol_dist_join(); NULL means the defaults. */
typedef struct gcol_dist_join_options {
  /** When to broadcast the right table to every rank instead of shuffling both sides
   *  (inner, left, semi, anti joins; a full join always shuffles):
   *  - ::GCOL_DIST_BROADCAST_AUTO (the default): when each rank receives fewer bytes so.
   *    With L and R the bytes of the left and right tables over all ranks and n ranks, a
   *    shuffle brings each rank about (L + R)(n - 1) / n^2 bytes and a broadcast R(n - 1) / n,
   *    so it broadcasts when R(n - 1) < L, and R is at most
   *    ::GCOL_DIST_BROADCAST_AUTO_MAX_BYTES (the copy every rank keeps). The bytes are the
   *    columns' data, offsets, chars and masks (a LIST's values counted whole); one small
   *    collective sums them.
   *  - a positive count: when the right table has at most this many rows over all ranks;
   *  - 0: never. */
  int64_t broadcast_max_rows;
  bool drop_right_keys; /**< As gcol_join_tables(). Default false. */
} gcol_dist_join_options;

/** @brief The default join options. */
void gcol_dist_join_options_init(gcol_dist_join_options *options);

/**
 * @brief Collective: the equality join of two distributed tables, as gcol_join_tables() on
 *        each rank after both sides are shuffled on their keys (skipped for a side already
 *        HASH-partitioned on them), or after the right side is broadcast (see
 *        gcol_dist_join_options). Every kind of ::gcol_join_kind.
 * @param[in] comm The communicator.
 * @param[in] left,right The tables.
 * @param[in] left_on,right_on Host arrays of @p num_keys key column indices.
 * @param[in] num_keys 1 to ::GCOL_DIST_MAX_KEYS.
 * @param[in] kind The join.
 * @param[in] nulls Whether null keys match each other.
 * @param[in] options NULL for the defaults.
 * @param[out] out The joined rows of this rank: left columns, then right columns (as
 *        gcol_join_tables()); partitioning HASH on the left keys when shuffled, else the
 *        left table's.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output.
 * @return As gcol_join_tables() and gcol_dist_shuffle().
 * @note Synchronizes @p stream.
 */
gcol_status gcol_dist_join(gcol_dist_comm *comm, const gcol_dist_table *left,
                           const int32_t *left_on, const gcol_dist_table *right,
                           const int32_t *right_on, int32_t num_keys, gcol_join_kind kind,
                           gcol_null_equality nulls, const gcol_dist_join_options *options,
                           gcol_dist_table **out, gcol_stream stream, gcol_mr *mr);

/** @brief One aggregation of gcol_dist_groupby(): a value column and what to compute. */
typedef struct gcol_dist_agg {
  int32_t column;       /**< Index of the value column in the table. */
  gcol_groupby_agg agg; /**< SUM, MIN, MAX, COUNT_VALID, COUNT_ALL, MEAN, VARIANCE, STD, M2. */
} gcol_dist_agg;

/**
 * @brief Collective: groupby over all ranks. Each rank pre-aggregates its rows (partial sums,
 *        counts, minima, maxima, and count/mean/M2 for MEAN, VARIANCE, STD, M2), the partial
 *        results are shuffled on the keys, and each rank merges the partials of its groups
 *        (Chan's formula for M2: gcol_groupby_merge_m2()). A table already HASH-partitioned
 *        on the keys is aggregated in place, with no exchange.
 * @param[in] comm The communicator.
 * @param[in] input The table.
 * @param[in] key_columns Host array of @p num_keys key column indices.
 * @param[in] num_keys 1 to ::GCOL_DIST_MAX_KEYS.
 * @param[in] aggs Host array of @p num_aggs aggregations.
 * @param[in] num_aggs >= 0.
 * @param[in] options As gcol_groupby_aggregate() (sort_keys sorts each rank's groups).
 * @param[out] out This rank's groups: the key columns, then one column per aggregation, of
 *        the types gcol_groupby_aggregate() gives; partitioning HASH on the keys (columns
 *        0 .. num_keys - 1).
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output.
 * @return As gcol_groupby_aggregate() and gcol_dist_shuffle(); ::GCOL_ERROR_UNSUPPORTED for
 *         an aggregation not listed above.
 * @note Synchronizes @p stream. Float sums add in another order than on one GPU: the last
 *       bits may differ.
 */
gcol_status gcol_dist_groupby(gcol_dist_comm *comm, const gcol_dist_table *input,
                              const int32_t *key_columns, int32_t num_keys,
                              const gcol_dist_agg *aggs, int32_t num_aggs,
                              const gcol_groupby_options *options, gcol_dist_table **out,
                              gcol_stream stream, gcol_mr *mr);

/**
 * @brief Collective: sorts a distributed table by key columns (sample sort): each rank sorts
 *        its rows, a regular sample of every rank's keys picks `ranks - 1` splitters, the
 *        rows are range-partitioned by them and exchanged, and each rank merges what it
 *        received. Rank r's rows then all order before rank r + 1's (partitioning RANGE).
 * @param[in] comm The communicator.
 * @param[in] input The table (fixed-width and STRING columns).
 * @param[in] key_columns Host array of @p num_keys key column indices, most significant
 *        first.
 * @param[in] num_keys 1 to ::GCOL_DIST_MAX_KEYS.
 * @param[in] order One per key, or NULL for ascending.
 * @param[in] null_order One per key, or NULL for ::GCOL_NULLS_AFTER.
 * @param[out] out The sorted table.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output.
 * @return As gcol_sort_by_key() and gcol_dist_shuffle().
 * @note Synchronizes @p stream. Rows with equal keys land on one rank, so many copies of
 *       one key make that rank's share large. Not stable across ranks.
 */
gcol_status gcol_dist_sort(gcol_dist_comm *comm, const gcol_dist_table *input,
                           const int32_t *key_columns, int32_t num_keys, const gcol_order *order,
                           const gcol_null_order *null_order, gcol_dist_table **out,
                           gcol_stream stream, gcol_mr *mr);

/**
 * @brief Collective: the whole table on rank @p root (rank 0's rows first, then rank 1's...).
 * @param[in] comm The communicator.
 * @param[in] input The table.
 * @param[in] root The receiving rank.
 * @param[out] out On @p root the table, from @p mr; NULL on the other ranks.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (bad @p root), ::GCOL_ERROR_OUT_OF_MEMORY,
 *         ::GCOL_ERROR_PEER, ::GCOL_ERROR_COMM, a CUDA status.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_dist_gather(gcol_dist_comm *comm, const gcol_dist_table *input, int32_t root,
                             gcol_table **out, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_DIST_H */
