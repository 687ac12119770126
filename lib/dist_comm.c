/* The communicator of dist.h: creation over MPI or NCCL, error agreement, and the
 * collectives the distributed operations use (lib/internal/dist.h).
 *
 * Control messages (sizes, statuses) are small host arrays: MPI carries them when the
 * communicator has MPI, else NCCL through a small device staging buffer on a private
 * stream. Data exchanges are grouped NCCL send/receive pairs (ncclAlltoAll takes equal counts
 * only), or, with the MPI transport, copies through pinned host staging buffers that the
 * communicator keeps and grows. */
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GCOL_DIST_HAVE_NCCL
#include <nccl.h>
#endif

#include "internal/dist.h"
#include "internal/error.h"
#include "internal/nvtx.h"

/* MPI messages carry at most INT_MAX elements: larger parts go in chunks of this size. */
#define MPI_CHUNK ((int64_t)1 << 30)

struct gcol_dist_comm {
  int32_t rank;
  int32_t size;
  gcol_dist_transport transport;
  int device; /* -1: none was current at creation (MPI transport, control messages only) */
  int has_mpi;
  MPI_Comm mpi;
#if GCOL_DIST_HAVE_NCCL
  ncclComm_t nccl;
#endif
  int has_nccl;
  cudaStream_t control_stream; /* NCCL control messages when there is no MPI */
  void *control_device;        /* their device staging buffer */
  size_t control_capacity;
  void *stage_send; /* MPI transport: pinned staging of device exchanges */
  size_t stage_send_capacity;
  void *stage_recv;
  size_t stage_recv_capacity;
  /* NCCL transport: a rank's own parts are copied on this stream while NCCL moves the
   * others (created on first use; NULL: copied on the caller's stream) */
  cudaStream_t copy_stream;
  cudaEvent_t copy_fork, copy_join;
};

static gcol_status mpi_error(int code, const char *func, const char *what) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
    snprintf(text, sizeof text, "code %d", code);
  return gcol_detail_error(GCOL_ERROR_COMM, func, "%s: %s", what, text);
}

#define MPI_TRY(call)                                   \
  do {                                                  \
    int gcol_mpi_rc = (call);                           \
    if (gcol_mpi_rc != MPI_SUCCESS) {                   \
      status = mpi_error(gcol_mpi_rc, __func__, #call); \
      goto done;                                        \
    }                                                   \
  } while (0)

#if GCOL_DIST_HAVE_NCCL
#define NCCL_TRY(call)                                                       \
  do {                                                                       \
    ncclResult_t gcol_nccl_rc = (call);                                      \
    if (gcol_nccl_rc != ncclSuccess) {                                       \
      status = gcol_detail_error(GCOL_ERROR_COMM, __func__, "%s: %s", #call, \
                                 ncclGetErrorString(gcol_nccl_rc));          \
      goto done;                                                             \
    }                                                                        \
  } while (0)
#endif

bool gcol_dist_nccl_available(void) { return GCOL_DIST_HAVE_NCCL != 0; }

int32_t gcol_dist_comm_rank(const gcol_dist_comm *comm) { return comm != NULL ? comm->rank : 0; }

int32_t gcol_dist_comm_size(const gcol_dist_comm *comm) { return comm != NULL ? comm->size : 0; }

gcol_dist_transport gcol_dist_comm_transport(const gcol_dist_comm *comm) {
  return comm != NULL ? comm->transport : GCOL_DIST_TRANSPORT_NCCL;
}

void gcol_dist_comm_free(gcol_dist_comm *comm) {
  if (comm == NULL) return;
#if GCOL_DIST_HAVE_NCCL
  if (comm->has_nccl) (void)ncclCommDestroy(comm->nccl);
#endif
  if (comm->has_mpi) (void)MPI_Comm_free(&comm->mpi);
  if (comm->control_device != NULL) (void)cudaFree(comm->control_device);
  if (comm->control_stream != NULL) (void)cudaStreamDestroy(comm->control_stream);
  if (comm->stage_send != NULL) (void)cudaFreeHost(comm->stage_send);
  if (comm->stage_recv != NULL) (void)cudaFreeHost(comm->stage_recv);
  if (comm->copy_stream != NULL) (void)cudaStreamDestroy(comm->copy_stream);
  if (comm->copy_fork != NULL) (void)cudaEventDestroy(comm->copy_fork);
  if (comm->copy_join != NULL) (void)cudaEventDestroy(comm->copy_join);
  free(comm);
}

/* ---- creation ---- */

static gcol_status new_comm(gcol_dist_transport transport, gcol_dist_comm **out) {
  gcol_dist_comm *c = (gcol_dist_comm *)calloc(1, sizeof *c);
  if (c == NULL) return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  c->transport = transport;
  c->device = -1;
  *out = c;
  return GCOL_OK;
}

#if GCOL_DIST_HAVE_NCCL
/* The stream and staging buffer of control messages over NCCL (communicators without MPI). */
static gcol_status control_reserve(gcol_dist_comm *c, size_t bytes);

/* The stream and staging buffer of control messages over NCCL (communicators without MPI).
 * The buffer starts at 1 MiB, so that the agreements and size exchanges of up to 256 ranks
 * never allocate (an allocation failing on one rank there would leave the others waiting). */
static gcol_status make_control_stream(gcol_dist_comm *c) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(cudaStreamCreateWithFlags(&c->control_stream, cudaStreamNonBlocking));
  GCOL_DETAIL_TRY(control_reserve(c, (size_t)1 << 20));
done:
  return status;
}
#endif

static gcol_status dist_nccl_unique_id(uint8_t id[GCOL_DIST_UNIQUE_ID_BYTES]) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(id);
#if GCOL_DIST_HAVE_NCCL
  {
    ncclUniqueId u;
    NCCL_TRY(ncclGetUniqueId(&u));
    memcpy(id, u.internal, GCOL_DIST_UNIQUE_ID_BYTES);
  }
#else
  GCOL_DETAIL_CHECK(0, GCOL_ERROR_UNSUPPORTED, "this build of gcol has no NCCL");
#endif
done:
  return status;
}

gcol_status gcol_dist_nccl_unique_id(uint8_t id[GCOL_DIST_UNIQUE_ID_BYTES]) {
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_nccl_unique_id");
  gcol_status const status = dist_nccl_unique_id(id);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_dist_comm_create_mpi(const void *mpi_comm, gcol_dist_transport transport,
                                      gcol_dist_comm **out) {
  gcol_status status = GCOL_OK;
  gcol_dist_comm *c = NULL;
  int initialized = 0, rank = 0, size = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_comm_create_mpi");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(mpi_comm);
  GCOL_DETAIL_CHECK(transport == GCOL_DIST_TRANSPORT_NCCL || transport == GCOL_DIST_TRANSPORT_MPI,
                    GCOL_ERROR_INVALID_ARGUMENT, "transport %d is neither NCCL nor MPI",
                    (int)transport);
  MPI_TRY(MPI_Initialized(&initialized));
  GCOL_DETAIL_CHECK(initialized, GCOL_ERROR_INVALID_ARGUMENT, "MPI is not initialized");
  GCOL_DETAIL_TRY(new_comm(transport, &c));
  MPI_TRY(MPI_Comm_dup(*(const MPI_Comm *)mpi_comm, &c->mpi));
  c->has_mpi = 1;
  /* errors come back as codes (every rank then agrees on them) instead of aborting */
  MPI_TRY(MPI_Comm_set_errhandler(c->mpi, MPI_ERRORS_RETURN));
  MPI_TRY(MPI_Comm_rank(c->mpi, &rank));
  MPI_TRY(MPI_Comm_size(c->mpi, &size));
  c->rank = rank;
  c->size = size;
  if (cudaGetDevice(&c->device) != cudaSuccess) {
    (void)cudaGetLastError();
    c->device = -1;
  }
  if (transport == GCOL_DIST_TRANSPORT_NCCL) {
#if GCOL_DIST_HAVE_NCCL
    /* rank 0 makes the id; everyone learns whether that worked before joining NCCL */
    struct {
      int32_t ok;
      uint8_t id[GCOL_DIST_UNIQUE_ID_BYTES];
    } msg;
    memset(&msg, 0, sizeof msg);
    gcol_status local = c->device >= 0 ? GCOL_OK
                                       : gcol_detail_error(GCOL_ERROR_NO_DEVICE, __func__,
                                                           "the NCCL transport needs a GPU");
    if (rank == 0 && local == GCOL_OK) local = gcol_dist_nccl_unique_id(msg.id);
    msg.ok = local == GCOL_OK;
    MPI_TRY(MPI_Bcast(&msg, (int)sizeof msg, MPI_BYTE, 0, c->mpi));
    if (rank != 0 && !msg.ok && local == GCOL_OK) {
      local = gcol_detail_error(GCOL_ERROR_PEER, __func__, "rank 0 could not make an NCCL id");
    }
    GCOL_DETAIL_TRY(gcol_dist_agree(c, local));
    ncclUniqueId u;
    memcpy(u.internal, msg.id, GCOL_DIST_UNIQUE_ID_BYTES);
    NCCL_TRY(ncclCommInitRank(&c->nccl, size, u, rank));
    c->has_nccl = 1;
#else
    status = gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__,
                               "this build of gcol has no NCCL: use GCOL_DIST_TRANSPORT_MPI");
    goto done;
#endif
  }
  *out = c;
  c = NULL;
done:
  gcol_dist_comm_free(c);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_dist_comm_create_nccl(const uint8_t id[GCOL_DIST_UNIQUE_ID_BYTES],
                                       int32_t num_ranks, int32_t rank, gcol_dist_comm **out) {
  gcol_status status = GCOL_OK;
  gcol_dist_comm *c = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_comm_create_nccl");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(id);
  GCOL_DETAIL_CHECK(num_ranks >= 1 && rank >= 0 && rank < num_ranks, GCOL_ERROR_INVALID_ARGUMENT,
                    "rank %d of %d ranks", rank, num_ranks);
#if GCOL_DIST_HAVE_NCCL
  GCOL_DETAIL_TRY(new_comm(GCOL_DIST_TRANSPORT_NCCL, &c));
  c->rank = rank;
  c->size = num_ranks;
  GCOL_DETAIL_CUDA_TRY(cudaGetDevice(&c->device));
  GCOL_DETAIL_TRY(make_control_stream(c));
  {
    ncclUniqueId u;
    memcpy(u.internal, id, GCOL_DIST_UNIQUE_ID_BYTES);
    NCCL_TRY(ncclCommInitRank(&c->nccl, num_ranks, u, rank));
    c->has_nccl = 1;
  }
  *out = c;
  c = NULL;
#else
  GCOL_DETAIL_CHECK(0, GCOL_ERROR_UNSUPPORTED, "this build of gcol has no NCCL");
#endif
done:
  gcol_dist_comm_free(c);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_dist_comm_create_all(int32_t num_devices, const int32_t *devices,
                                      gcol_dist_comm **comms) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_comm_create_all");
  GCOL_DETAIL_CHECK_NOT_NULL(comms);
  GCOL_DETAIL_CHECK(num_devices >= 1, GCOL_ERROR_INVALID_ARGUMENT, "num_devices is %d",
                    num_devices);
  for (int32_t i = 0; i < num_devices; ++i) comms[i] = NULL;
#if GCOL_DIST_HAVE_NCCL
  {
    ncclComm_t *raw = (ncclComm_t *)calloc((size_t)num_devices, sizeof *raw);
    int *devs = (int *)malloc((size_t)num_devices * sizeof *devs);
    int previous = 0;
    int nccl_made = 0;
    if (raw == NULL || devs == NULL) {
      free(raw);
      free(devs);
      status = gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
      goto done;
    }
    for (int32_t i = 0; i < num_devices; ++i) devs[i] = devices != NULL ? devices[i] : i;
    ncclResult_t const rc = ncclCommInitAll(raw, num_devices, devs);
    if (rc != ncclSuccess) {
      status = gcol_detail_error(GCOL_ERROR_COMM, __func__, "ncclCommInitAll: %s",
                                 ncclGetErrorString(rc));
    } else {
      nccl_made = 1;
    }
    (void)cudaGetDevice(&previous);
    for (int32_t i = 0; i < num_devices && status == GCOL_OK; ++i) {
      status = new_comm(GCOL_DIST_TRANSPORT_NCCL, &comms[i]);
      if (status != GCOL_OK) break;
      comms[i]->rank = i;
      comms[i]->size = num_devices;
      comms[i]->device = devs[i];
      comms[i]->nccl = raw[i];
      comms[i]->has_nccl = 1;
      if (cudaSetDevice(devs[i]) != cudaSuccess) {
        status = gcol_detail_cuda_error((int)cudaGetLastError(), __func__, "cudaSetDevice");
        break;
      }
      status = make_control_stream(comms[i]);
    }
    (void)cudaSetDevice(previous);
    if (status != GCOL_OK) {
      for (int32_t i = 0; i < num_devices; ++i) {
        if (comms[i] != NULL) {
          comms[i]->has_nccl = 0; /* destroyed below, once */
          gcol_dist_comm_free(comms[i]);
          comms[i] = NULL;
        }
      }
      for (int32_t i = 0; i < num_devices && nccl_made; ++i) (void)ncclCommDestroy(raw[i]);
    }
    free(raw);
    free(devs);
  }
#else
  (void)devices;
  GCOL_DETAIL_CHECK(0, GCOL_ERROR_UNSUPPORTED, "this build of gcol has no NCCL");
#endif
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- control messages ---- */

#if GCOL_DIST_HAVE_NCCL
static gcol_status control_reserve(gcol_dist_comm *c, size_t bytes) {
  gcol_status status = GCOL_OK;
  if (bytes <= c->control_capacity) return GCOL_OK;
  if (c->control_device != NULL) (void)cudaFree(c->control_device);
  c->control_device = NULL;
  c->control_capacity = 0;
  GCOL_DETAIL_CUDA_TRY(cudaMalloc(&c->control_device, bytes));
  c->control_capacity = bytes;
done:
  return status;
}

/* Control messages over NCCL: host -> staging -> collective -> host, on the private stream. */
static gcol_status nccl_allreduce_i64(gcol_dist_comm *c, int64_t *values, int32_t n,
                                      gcol_detail_dist_op op) {
  gcol_status status = GCOL_OK;
  size_t const bytes = (size_t)n * sizeof(int64_t);
  ncclRedOp_t const red = op == GCOL_DETAIL_DIST_SUM   ? ncclSum
                          : op == GCOL_DETAIL_DIST_MAX ? ncclMax
                                                       : ncclMin;
  GCOL_DETAIL_TRY(control_reserve(c, bytes));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(c->control_device, values, bytes, cudaMemcpyHostToDevice, c->control_stream));
  NCCL_TRY(ncclAllReduce(c->control_device, c->control_device, (size_t)n, ncclInt64, red, c->nccl,
                         c->control_stream));
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(values, c->control_device, bytes, cudaMemcpyDeviceToHost, c->control_stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(c->control_stream));
done:
  return status;
}

static gcol_status nccl_allgather_i64(gcol_dist_comm *c, const int64_t *send, int32_t n,
                                      int64_t *recv) {
  gcol_status status = GCOL_OK;
  size_t const bytes = (size_t)n * sizeof(int64_t);
  GCOL_DETAIL_TRY(control_reserve(c, bytes * (size_t)(c->size + 1)));
  int64_t *const dev_send = (int64_t *)c->control_device;
  int64_t *const dev_recv = dev_send + n;
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(dev_send, send, bytes, cudaMemcpyHostToDevice, c->control_stream));
  NCCL_TRY(ncclAllGather(dev_send, dev_recv, (size_t)n, ncclInt64, c->nccl, c->control_stream));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(recv, dev_recv, bytes * (size_t)c->size,
                                       cudaMemcpyDeviceToHost, c->control_stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(c->control_stream));
done:
  return status;
}
#endif

gcol_status gcol_detail_dist_allreduce_i64(gcol_dist_comm *comm, int64_t *values, int32_t n,
                                           gcol_detail_dist_op op) {
  gcol_status status = GCOL_OK;
  if (n <= 0) return GCOL_OK;
  if (comm->has_mpi) {
    MPI_Op const mop = op == GCOL_DETAIL_DIST_SUM   ? MPI_SUM
                       : op == GCOL_DETAIL_DIST_MAX ? MPI_MAX
                                                    : MPI_MIN;
    MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, mop, comm->mpi));
  } else {
#if GCOL_DIST_HAVE_NCCL
    GCOL_DETAIL_TRY(nccl_allreduce_i64(comm, values, n, op));
#endif
  }
done:
  return status;
}

gcol_status gcol_detail_dist_allgather_i64(gcol_dist_comm *comm, const int64_t *send, int32_t n,
                                           int64_t *recv) {
  gcol_status status = GCOL_OK;
  if (n <= 0) return GCOL_OK;
  if (comm->has_mpi) {
    MPI_TRY(MPI_Allgather(send, n, MPI_INT64_T, recv, n, MPI_INT64_T, comm->mpi));
  } else {
#if GCOL_DIST_HAVE_NCCL
    GCOL_DETAIL_TRY(nccl_allgather_i64(comm, send, n, recv));
#endif
  }
done:
  return status;
}

static gcol_status dist_agree(gcol_dist_comm *comm, gcol_status local) {
  if (comm == NULL) {
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "comm is NULL");
  }
  int64_t failed = local != GCOL_OK;
  gcol_status const st = gcol_detail_dist_allreduce_i64(comm, &failed, 1, GCOL_DETAIL_DIST_MAX);
  if (st != GCOL_OK) return st;
  if (local != GCOL_OK) return local; /* its message is already the thread's last error */
  if (failed) {
    return gcol_detail_error(GCOL_ERROR_PEER, __func__,
                             "another rank failed; this rank's part was fine");
  }
  return GCOL_OK;
}

gcol_status gcol_dist_agree(gcol_dist_comm *comm, gcol_status local) {
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_agree");
  gcol_status const status = dist_agree(comm, local);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- exchanges ---- */

/* Point-to-point MPI exchange of host buffers, in chunks of at most MPI_CHUNK bytes. */
static gcol_status mpi_exchange(gcol_dist_comm *c, const void *const *send,
                                const int64_t *send_sizes, void *const *recv,
                                const int64_t *recv_sizes) {
  gcol_status status = GCOL_OK;
  int64_t count = 0;
  for (int32_t p = 0; p < c->size; ++p) {
    if (p == c->rank) continue;
    count +=
        (send_sizes[p] + MPI_CHUNK - 1) / MPI_CHUNK + (recv_sizes[p] + MPI_CHUNK - 1) / MPI_CHUNK;
  }
  MPI_Request *req = (MPI_Request *)malloc((size_t)(count > 0 ? count : 1) * sizeof *req);
  int posted = 0;
  /* a rank that cannot post its messages must not leave the others waiting for them */
  GCOL_DETAIL_TRY(gcol_dist_agree(
      c, req != NULL ? GCOL_OK
                     : gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory")));
  for (int32_t p = 0; p < c->size; ++p) {
    if (p == c->rank) {
      if (send_sizes[p] > 0) memcpy(recv[p], send[p], (size_t)send_sizes[p]);
      continue;
    }
    for (int64_t at = 0, tag = 0; at < recv_sizes[p]; at += MPI_CHUNK, ++tag) {
      int64_t const n = recv_sizes[p] - at < MPI_CHUNK ? recv_sizes[p] - at : MPI_CHUNK;
      MPI_TRY(MPI_Irecv((char *)recv[p] + at, (int)n, MPI_BYTE, p, (int)(tag % 32768), c->mpi,
                        &req[posted++]));
    }
    for (int64_t at = 0, tag = 0; at < send_sizes[p]; at += MPI_CHUNK, ++tag) {
      int64_t const n = send_sizes[p] - at < MPI_CHUNK ? send_sizes[p] - at : MPI_CHUNK;
      MPI_TRY(MPI_Isend((const char *)send[p] + at, (int)n, MPI_BYTE, p, (int)(tag % 32768), c->mpi,
                        &req[posted++]));
    }
  }
  MPI_TRY(MPI_Waitall(posted, req, MPI_STATUSES_IGNORE));
  posted = 0;
done:
  if (posted > 0) (void)MPI_Waitall(posted, req, MPI_STATUSES_IGNORE); /* never leave one open */
  free(req);
  return status;
}

#if GCOL_DIST_HAVE_NCCL
/* The side stream and events of the own-part copies, made once (any failure: none, and the
 * copies go on the caller's stream; nothing fails for it). */
static bool copy_stream_ready(gcol_dist_comm *c) {
  if (c->copy_stream != NULL) return true;
  if (cudaEventCreateWithFlags(&c->copy_fork, cudaEventDisableTiming) == cudaSuccess &&
      cudaEventCreateWithFlags(&c->copy_join, cudaEventDisableTiming) == cudaSuccess &&
      cudaStreamCreateWithFlags(&c->copy_stream, cudaStreamNonBlocking) == cudaSuccess) {
    return true;
  }
  (void)cudaGetLastError();
  if (c->copy_fork != NULL) (void)cudaEventDestroy(c->copy_fork);
  if (c->copy_join != NULL) (void)cudaEventDestroy(c->copy_join);
  c->copy_fork = c->copy_join = NULL;
  c->copy_stream = NULL;
  return false;
}

/* This rank's own parts of every segment: device copies, on the side stream when there is
 * one (ordered after the work already on `stream`; `stream` waits for them at the end). */
static gcol_status copy_own_parts(gcol_dist_comm *c, int32_t segments, const void *const *send,
                                  const int64_t *send_sizes, void *const *recv, cudaStream_t stream,
                                  bool *forked) {
  gcol_status status = GCOL_OK;
  size_t const n = (size_t)c->size, me = (size_t)c->rank;
  bool any = false;
  for (int32_t k = 0; k < segments; ++k) any = any || send_sizes[(size_t)k * n + me] > 0;
  *forked = any && copy_stream_ready(c);
  cudaStream_t const on = *forked ? c->copy_stream : stream;
  if (*forked) {
    GCOL_DETAIL_CUDA_TRY(cudaEventRecord(c->copy_fork, stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamWaitEvent(c->copy_stream, c->copy_fork, 0));
  }
  for (int32_t k = 0; k < segments && any; ++k) {
    size_t const at = (size_t)k * n + me;
    if (send_sizes[at] > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(recv[at], send[at], (size_t)send_sizes[at],
                                           cudaMemcpyDeviceToDevice, on));
    }
  }
done:
  return status;
}

/* Grouped NCCL send/receive pairs of device buffers on stream, every segment in one group;
 * the rank's own parts are copies that overlap the transfers. */
static gcol_status nccl_exchange(gcol_dist_comm *c, int32_t segments, const void *const *send,
                                 const int64_t *send_sizes, void *const *recv,
                                 const int64_t *recv_sizes, cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  int grouped = 0;
  bool forked = false;
  size_t const n = (size_t)c->size;
  GCOL_DETAIL_TRY(copy_own_parts(c, segments, send, send_sizes, recv, stream, &forked));
  NCCL_TRY(ncclGroupStart());
  grouped = 1;
  for (int32_t k = 0; k < segments; ++k) {
    for (int32_t p = 0; p < c->size; ++p) {
      size_t const at = (size_t)k * n + (size_t)p;
      if (p == c->rank) continue;
      if (send_sizes[at] > 0) {
        NCCL_TRY(ncclSend(send[at], (size_t)send_sizes[at], ncclUint8, p, c->nccl, stream));
      }
      if (recv_sizes[at] > 0) {
        NCCL_TRY(ncclRecv(recv[at], (size_t)recv_sizes[at], ncclUint8, p, c->nccl, stream));
      }
    }
  }
  grouped = 0;
  NCCL_TRY(ncclGroupEnd());
done:
  if (grouped) (void)ncclGroupEnd();
  if (forked) { /* joined even after a failure: the caller frees what the copies read */
    if (cudaEventRecord(c->copy_join, c->copy_stream) != cudaSuccess ||
        cudaStreamWaitEvent(stream, c->copy_join, 0) != cudaSuccess) {
      (void)cudaStreamSynchronize(c->copy_stream);
    }
  }
  return status;
}
#endif

/* Grows a pinned staging buffer to at least `bytes`. */
static gcol_status stage_reserve(void **buffer, size_t *capacity, size_t bytes) {
  gcol_status status = GCOL_OK;
  if (bytes <= *capacity) return GCOL_OK;
  if (*buffer != NULL) (void)cudaFreeHost(*buffer);
  *buffer = NULL;
  *capacity = 0;
  GCOL_DETAIL_CUDA_TRY(cudaMallocHost(buffer, bytes));
  *capacity = bytes;
done:
  return status;
}

/* Sizes and offsets of the parts in one staging buffer (plain, unaligned sums). */
static gcol_status stage_offsets(const int64_t *sizes, int32_t n, size_t *offsets, size_t *total) {
  size_t at = 0;
  for (int32_t p = 0; p < n; ++p) {
    offsets[p] = at;
    if ((uint64_t)sizes[p] > SIZE_MAX - at) {
      return gcol_detail_error(GCOL_ERROR_OVERFLOW, __func__,
                               "exchange of more than SIZE_MAX bytes");
    }
    at += (size_t)sizes[p];
  }
  *total = at;
  return GCOL_OK;
}

/* MPI transport for device buffers: device -> pinned -> MPI -> pinned -> device. */
static gcol_status staged_exchange(gcol_dist_comm *c, const void *const *send,
                                   const int64_t *send_sizes, void *const *recv,
                                   const int64_t *recv_sizes, cudaStream_t stream) {
  gcol_status status = GCOL_OK;
  int32_t const n = c->size;
  size_t *off = (size_t *)malloc(2 * (size_t)n * sizeof *off);
  void **hsend = (void **)malloc(2 * (size_t)n * sizeof *hsend);
  void **hrecv = hsend != NULL ? hsend + n : NULL;
  size_t *roff = off != NULL ? off + n : NULL;
  size_t send_total = 0, recv_total = 0;
  gcol_status local = off != NULL && hsend != NULL
                          ? GCOL_OK
                          : gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  if (local == GCOL_OK) local = stage_offsets(send_sizes, n, off, &send_total);
  if (local == GCOL_OK) local = stage_offsets(recv_sizes, n, roff, &recv_total);
  if (local == GCOL_OK) local = stage_reserve(&c->stage_send, &c->stage_send_capacity, send_total);
  if (local == GCOL_OK) local = stage_reserve(&c->stage_recv, &c->stage_recv_capacity, recv_total);
  GCOL_DETAIL_TRY(gcol_dist_agree(c, local));
  for (int32_t p = 0; p < n; ++p) {
    hsend[p] = (char *)c->stage_send + off[p];
    hrecv[p] = (char *)c->stage_recv + roff[p];
    if (send_sizes[p] > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(hsend[p], send[p], (size_t)send_sizes[p],
                                           cudaMemcpyDeviceToHost, stream));
    }
  }
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(stream));
  GCOL_DETAIL_TRY(mpi_exchange(c, (const void *const *)hsend, send_sizes, hrecv, recv_sizes));
  for (int32_t p = 0; p < n; ++p) {
    if (recv_sizes[p] > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(recv[p], hrecv[p], (size_t)recv_sizes[p],
                                           cudaMemcpyHostToDevice, stream));
    }
  }
  /* the staging buffers are reused by the next exchange */
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(stream));
done:
  free(off);
  free(hsend);
  return status;
}

#if GCOL_DIST_HAVE_NCCL
/* Host exchange without MPI: host -> device staging -> NCCL -> host, on the private stream. */
static gcol_status nccl_host_exchange(gcol_dist_comm *c, const void *const *send,
                                      const int64_t *send_sizes, void *const *recv,
                                      const int64_t *recv_sizes) {
  gcol_status status = GCOL_OK;
  int32_t const n = c->size;
  int64_t *offs = (int64_t *)malloc(2 * (size_t)n * sizeof *offs);
  void **ptrs = (void **)calloc(2 * (size_t)n, sizeof *ptrs);
  int64_t send_total = 0, recv_total = 0;
  gcol_status local = offs != NULL && ptrs != NULL
                          ? GCOL_OK
                          : gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  if (local == GCOL_OK) local = gcol_detail_dist_layout(send_sizes, n, offs, &send_total);
  if (local == GCOL_OK) local = gcol_detail_dist_layout(recv_sizes, n, offs + n, &recv_total);
  int64_t const recv_base =
      (send_total + GCOL_DETAIL_DIST_ALIGN - 1) / GCOL_DETAIL_DIST_ALIGN * GCOL_DETAIL_DIST_ALIGN;
  if (local == GCOL_OK) local = control_reserve(c, (size_t)(recv_base + recv_total));
  GCOL_DETAIL_TRY(gcol_dist_agree(c, local));
  char *const base = (char *)c->control_device;
  for (int32_t p = 0; p < n; ++p) {
    ptrs[p] = base + offs[p];
    ptrs[n + p] = base + recv_base + offs[n + p];
    if (send_sizes[p] > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(ptrs[p], send[p], (size_t)send_sizes[p],
                                           cudaMemcpyHostToDevice, c->control_stream));
    }
  }
  GCOL_DETAIL_TRY(nccl_exchange(c, 1, (const void *const *)ptrs, send_sizes, ptrs + n, recv_sizes,
                                c->control_stream));
  for (int32_t p = 0; p < n; ++p) {
    if (recv_sizes[p] > 0) {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(recv[p], ptrs[n + p], (size_t)recv_sizes[p],
                                           cudaMemcpyDeviceToHost, c->control_stream));
    }
  }
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(c->control_stream));
done:
  free(offs);
  free(ptrs);
  return status;
}
#endif

gcol_status gcol_detail_dist_exchange_host(gcol_dist_comm *comm, const void *const *send,
                                           const int64_t *send_sizes, void *const *recv,
                                           const int64_t *recv_sizes) {
  if (comm->has_mpi) return mpi_exchange(comm, send, send_sizes, recv, recv_sizes);
#if GCOL_DIST_HAVE_NCCL
  return nccl_host_exchange(comm, send, send_sizes, recv, recv_sizes);
#else
  return gcol_detail_error(GCOL_ERROR_INTERNAL, __func__, "a communicator without MPI or NCCL");
#endif
}

gcol_status gcol_detail_dist_exchange_device(gcol_dist_comm *comm, const void *const *send,
                                             const int64_t *send_sizes, void *const *recv,
                                             const int64_t *recv_sizes, gcol_stream stream) {
  return gcol_detail_dist_exchange_device_segments(comm, 1, send, send_sizes, recv, recv_sizes,
                                                   stream);
}

gcol_status gcol_detail_dist_exchange_device_segments(gcol_dist_comm *comm, int32_t segments,
                                                      const void *const *send,
                                                      const int64_t *send_sizes, void *const *recv,
                                                      const int64_t *recv_sizes,
                                                      gcol_stream stream) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_detail_dist_exchange_device");
  if (comm->transport == GCOL_DIST_TRANSPORT_MPI || !comm->has_nccl) {
    /* staged segment by segment: the MPI transport is the path of tests and of hosts
     * without NCCL, not of speed */
    size_t const n = (size_t)comm->size;
    for (int32_t k = 0; k < segments && status == GCOL_OK; ++k) {
      size_t const at = (size_t)k * n;
      status = staged_exchange(comm, send + at, send_sizes + at, recv + at, recv_sizes + at,
                               (cudaStream_t)stream);
    }
  } else {
#if GCOL_DIST_HAVE_NCCL
    status =
        nccl_exchange(comm, segments, send, send_sizes, recv, recv_sizes, (cudaStream_t)stream);
#endif
  }
  GCOL_DETAIL_NVTX_POP();
  return status;
}
