/* Distributed equality join: shuffle both sides on their keys (a side already hash-
 * partitioned on them stays), or broadcast the right side when that moves fewer bytes (or
 * when it is small, as the options say); then gcol_join_tables() on every rank. A broadcast
 * gathers the right keys first and the right side's other columns on a side stream, so that
 * their transfer overlaps the local build and probe (a semi or anti join sends keys only). */
#include <cuda_runtime_api.h>
#include <stdlib.h>

#include "dist/dist_common.h"
#include "gcol/copying.h"
#include "gcol/join.h"
#include "internal/error.h"
#include "internal/nvtx.h"

void gcol_dist_join_options_init(gcol_dist_join_options *options) {
  if (options == NULL) return;
  options->broadcast_max_rows = GCOL_DIST_BROADCAST_AUTO;
  options->drop_right_keys = false;
}

/* Local checks of the join's arguments (identical on every rank). */
static gcol_status check_join(const gcol_dist_table *left, const int32_t *left_on,
                              const gcol_dist_table *right, const int32_t *right_on,
                              int32_t num_keys, gcol_join_kind kind) {
  gcol_status status = gcol_detail_dist_check_table(left, "left", left_on, num_keys);
  if (status == GCOL_OK) status = gcol_detail_dist_check_table(right, "right", right_on, num_keys);
  if (status != GCOL_OK) return status;
  GCOL_DETAIL_REQUIRE(kind >= GCOL_JOIN_INNER && kind <= GCOL_JOIN_LEFT_ANTI,
                      GCOL_ERROR_INVALID_ARGUMENT, "join kind %d", (int)kind);
  /* equal keys must hash alike on both sides: the same types (before any exchange) */
  for (int32_t k = 0; k < num_keys; ++k) {
    gcol_data_type const a = left->local->columns[left_on[k]]->type;
    gcol_data_type const b = right->local->columns[right_on[k]]->type;
    GCOL_DETAIL_REQUIRE(a.id == b.id && a.scale == b.scale, GCOL_ERROR_TYPE_MISMATCH,
                        "key %d: left column %d is %s, right column %d is %s", k, left_on[k],
                        gcol_type_name(a.id), right_on[k], gcol_type_name(b.id));
  }
  return GCOL_OK;
}

/* This rank's rows of a side hashed on its keys: its own rows if already so, else a
 * shuffled copy in *owned. */
static gcol_status hashed_side(gcol_dist_comm *comm, gcol_status local, const gcol_dist_table *t,
                               const int32_t *on, int32_t num_keys, gcol_table **owned,
                               gcol_table_view *view, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  if (local == GCOL_OK && gcol_detail_dist_hashed_on(comm, t, on, num_keys)) {
    *view = gcol_table_get_view(t->local);
    return gcol_dist_agree(comm, GCOL_OK);
  }
  gcol_table_view const in =
      local == GCOL_OK ? gcol_table_get_view(t->local) : (gcol_table_view){0, 0, NULL};
  GCOL_DETAIL_TRY(
      gcol_detail_dist_shuffle_view(comm, local, in, on, num_keys, owned, stream, NULL));
  *view = gcol_table_get_view(*owned);
done:
  return status;
}

/* The device bytes of a column's rows (data, offsets, chars, mask; a LIST's values and a
 * DICTIONARY32's keys counted whole): what a shuffle or a broadcast of it moves. Reads a
 * STRING's chars range (synchronizes). */
static gcol_status column_bytes(gcol_column_view c, gcol_stream stream, int64_t *bytes) {
  gcol_status status = GCOL_OK;
  if (c.null_mask != NULL) *bytes += (c.size + 7) / 8;
  size_t const width = gcol_type_size(c.type.id);
  if (width > 0) {
    *bytes += c.size * (int64_t)width;
    return GCOL_OK;
  }
  if (c.type.id == GCOL_STRING || c.type.id == GCOL_LIST) {
    gcol_column_view const offsets = c.children[GCOL_OFFSETS_CHILD];
    *bytes += (c.size + 1) * (int64_t)gcol_type_size(offsets.type.id);
  }
  if (c.type.id == GCOL_STRING && c.size > 0) {
    int64_t begin = 0, end = 0;
    GCOL_DETAIL_TRY(gcol_strings_view_chars_range(c, stream, &begin, &end));
    *bytes += end - begin;
  } else if (c.type.id == GCOL_LIST) {
    GCOL_DETAIL_TRY(column_bytes(c.children[GCOL_LIST_VALUES_CHILD], stream, bytes));
  } else if (c.type.id == GCOL_DICTIONARY32) {
    *bytes += c.size * 4;
    GCOL_DETAIL_TRY(column_bytes(c.children[GCOL_DICTIONARY_KEYS_CHILD], stream, bytes));
  } else if (c.type.id == GCOL_STRUCT) {
    for (int32_t k = 0; k < c.num_children; ++k) {
      gcol_column_view field;
      GCOL_DETAIL_TRY(gcol_column_view_slice(c.children[k], c.offset, c.offset + c.size, &field));
      GCOL_DETAIL_TRY(column_bytes(field, stream, bytes));
    }
  }
done:
  return status;
}

static gcol_status table_bytes(const gcol_dist_table *t, gcol_stream stream, int64_t *bytes) {
  gcol_status status = GCOL_OK;
  gcol_table_view const v = gcol_table_get_view(t->local);
  for (int32_t k = 0; k < v.num_columns; ++k) {
    GCOL_DETAIL_TRY(column_bytes(v.columns[k], stream, bytes));
  }
done:
  return status;
}

/* Collective: whether to broadcast the right side (gcol_dist_join_options). Every rank
 * decides alike: from global row counts, or from byte counts summed over the ranks (a rank
 * whose checks failed adds nothing; the agreement after it fails every rank). */
static gcol_status choose_broadcast(gcol_dist_comm *comm, gcol_status local,
                                    const gcol_dist_table *left, const gcol_dist_table *right,
                                    gcol_join_kind kind, int64_t max_rows, gcol_stream stream,
                                    bool *broadcast) {
  gcol_status status = GCOL_OK;
  int32_t const n = gcol_dist_comm_size(comm);
  *broadcast = false;
  if (kind == GCOL_JOIN_FULL || n < 2 || max_rows == 0) return GCOL_OK;
  if (max_rows > 0) {
    *broadcast = local == GCOL_OK && right->global_rows <= max_rows;
    return GCOL_OK;
  }
  int64_t bytes[2] = {0, 0}; /* left, right */
  if (local == GCOL_OK) local = table_bytes(left, stream, &bytes[0]);
  if (local == GCOL_OK) local = table_bytes(right, stream, &bytes[1]);
  if (local != GCOL_OK) bytes[0] = bytes[1] = 0;
  GCOL_DETAIL_TRY(gcol_detail_dist_allreduce_i64(comm, bytes, 2, GCOL_DETAIL_DIST_SUM));
  *broadcast = local == GCOL_OK && gcol_detail_dist_broadcast_pays(bytes[0], bytes[1], n);
done:
  return status;
}

/* ---- the broadcast join ---- */

/* The right side's columns while its non-key columns are still arriving: the allgathered
 * keys, and the other columns gathered on a side stream (done: recorded after them). */
typedef struct broadcast_right {
  gcol_table *keys, *rest;
  cudaStream_t side;
  cudaEvent_t fork, done;
} broadcast_right;

static bool is_key(const int32_t *on, int32_t num_keys, int32_t c) {
  for (int32_t k = 0; k < num_keys; ++k) {
    if (on[k] == c) return true;
  }
  return false;
}

/* Collective. Every rank's right keys to every rank on `stream`, then (when the output has
 * right columns) every rank's other right columns on a side stream: they arrive while this
 * rank builds and probes on the keys (the gather of the right side waits for them). */
static gcol_status gather_right(gcol_dist_comm *comm, gcol_status local, gcol_table_view right,
                                const int32_t *right_on, int32_t num_keys, bool rest_needed,
                                broadcast_right *r, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_column_view *views = (gcol_column_view *)calloc((size_t)right.num_columns + 1, sizeof *views);
  gcol_table_view keys = {0, 0, NULL}, rest = {0, 0, NULL};
  int32_t num_rest = 0;
  if (local == GCOL_OK && views == NULL) {
    local = gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  }
  if (local == GCOL_OK) {
    for (int32_t k = 0; k < num_keys; ++k) views[k] = right.columns[right_on[k]];
    local = gcol_table_view_make(views, num_keys, &keys);
  }
  GCOL_DETAIL_TRY(gcol_detail_dist_allgather_table(comm, local, keys, &r->keys, stream, NULL));
  /* every rank has the right side's schema: it decides alike whether more columns follow */
  for (int32_t c = 0; rest_needed && c < right.num_columns; ++c) {
    if (!is_key(right_on, num_keys, c)) views[num_rest++] = right.columns[c];
  }
  if (num_rest == 0) goto done;
  local = gcol_table_view_make(views, num_rest, &rest);
  rest.num_rows = right.num_rows;
  if (local == GCOL_OK && (cudaEventCreateWithFlags(&r->fork, cudaEventDisableTiming) != cudaSuccess ||
                           cudaEventCreateWithFlags(&r->done, cudaEventDisableTiming) != cudaSuccess ||
                           cudaStreamCreateWithFlags(&r->side, cudaStreamNonBlocking) != cudaSuccess ||
                           cudaEventRecord(r->fork, (cudaStream_t)stream) != cudaSuccess ||
                           cudaStreamWaitEvent(r->side, r->fork, 0) != cudaSuccess)) {
    local = gcol_detail_error(GCOL_ERROR_CUDA, __func__, "side stream: %s",
                              cudaGetErrorString(cudaGetLastError()));
  }
  GCOL_DETAIL_TRY(gcol_detail_dist_allgather_table(comm, local, rest, &r->rest,
                                                   (gcol_stream)r->side, NULL));
  GCOL_DETAIL_CUDA_TRY(cudaEventRecord(r->done, r->side));
done:
  free(views);
  return status;
}

/* Frees the gathered right side: the side stream's buffers after `stream` is done with them. */
static void broadcast_right_free(broadcast_right *r, gcol_stream stream) {
  if (r->side != NULL) {
    if (r->fork == NULL || cudaEventRecord(r->fork, (cudaStream_t)stream) != cudaSuccess ||
        cudaStreamWaitEvent(r->side, r->fork, 0) != cudaSuccess) {
      (void)cudaStreamSynchronize((cudaStream_t)stream);
    }
  }
  gcol_table_free(r->rest); /* freed on the side stream, after the join's reads */
  gcol_table_free(r->keys);
  if (r->side != NULL) (void)cudaStreamDestroy(r->side);
  if (r->fork != NULL) (void)cudaEventDestroy(r->fork);
  if (r->done != NULL) (void)cudaEventDestroy(r->done);
}

/* Gathers `source` by `map` (-1: a null row) and appends its columns to out[*num]. */
static gcol_status gather_into(gcol_table_view source, const gcol_column *map, gcol_column **out,
                               int32_t *num, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *t = NULL;
  GCOL_DETAIL_TRY(gcol_gather(source, gcol_column_get_view(map), GCOL_OUT_OF_BOUNDS_NULLIFY,
                              GCOL_NEGATIVE_INDEX_NOT_ALLOWED, &t, stream, mr));
  for (int32_t k = 0; k < t->num_columns; ++k) {
    out[(*num)++] = t->columns[k];
    t->columns[k] = NULL;
  }
done:
  gcol_table_free(t);
  return status;
}

/* The local join of the broadcast: gcol_join_tables() over the gathered right side, whose
 * non-key columns are waited for only before they are gathered. Same rows and columns. */
static gcol_status broadcast_local_join(gcol_table_view left, const int32_t *left_on,
                                        gcol_table_view right_schema, const int32_t *right_on,
                                        int32_t num_keys, gcol_join_kind kind,
                                        gcol_null_equality nulls, bool drop_right_keys,
                                        const broadcast_right *r, gcol_table **out,
                                        gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  bool const has_right = kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT;
  int32_t const width = left.num_columns + right_schema.num_columns;
  gcol_column_view *views = (gcol_column_view *)calloc((size_t)width + (size_t)num_keys + 1,
                                                       sizeof *views);
  gcol_column **columns = (gcol_column **)calloc((size_t)width + 1, sizeof *columns);
  gcol_column *left_map = NULL, *right_map = NULL;
  gcol_table_view left_keys, part;
  int32_t num_out = 0, num_right = 0;
  GCOL_DETAIL_CHECK(views != NULL && columns != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %d columns", (int)width);
  for (int32_t k = 0; k < num_keys; ++k) views[k] = left.columns[left_on[k]];
  GCOL_DETAIL_TRY(gcol_table_view_make(views, num_keys, &left_keys));
  GCOL_DETAIL_TRY(gcol_join(left_keys, gcol_table_get_view(r->keys), kind, nulls, &left_map,
                            has_right ? &right_map : NULL, stream, mr));
  GCOL_DETAIL_TRY(gather_into(left, left_map, columns, &num_out, stream, mr));
  if (has_right) {
    gcol_column_view *const kept = views + num_keys;
    for (int32_t c = 0, rest = 0; c < right_schema.num_columns; ++c) {
      int32_t key = -1;
      for (int32_t k = 0; k < num_keys && key < 0; ++k) key = right_on[k] == c ? k : -1;
      if (key >= 0 && drop_right_keys) continue;
      kept[num_right++] = key >= 0 ? gcol_column_get_view(r->keys->columns[key])
                                   : gcol_column_get_view(r->rest->columns[rest]);
      if (key < 0) ++rest;
    }
  }
  if (num_right > 0) {
    if (r->done != NULL) GCOL_DETAIL_CUDA_TRY(cudaStreamWaitEvent((cudaStream_t)stream, r->done, 0));
    GCOL_DETAIL_TRY(gcol_table_view_make(views + num_keys, num_right, &part));
    part.num_rows = r->keys->num_rows;
    GCOL_DETAIL_TRY(gather_into(part, right_map, columns, &num_out, stream, mr));
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, num_out, out));
  num_out = 0;
done:
  for (int32_t k = 0; k < num_out; ++k) gcol_column_free(columns[k]);
  free(columns);
  free(views);
  gcol_column_free(left_map);
  gcol_column_free(right_map);
  return status;
}

gcol_status gcol_dist_join(gcol_dist_comm *comm, const gcol_dist_table *left,
                           const int32_t *left_on, const gcol_dist_table *right,
                           const int32_t *right_on, int32_t num_keys, gcol_join_kind kind,
                           gcol_null_equality nulls, const gcol_dist_join_options *options,
                           gcol_dist_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *left_rows = NULL, *right_rows = NULL, *joined = NULL;
  broadcast_right gathered = {NULL, NULL, NULL, NULL, NULL};
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_join");
  GCOL_DETAIL_CHECK_NOT_NULL(comm);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  gcol_dist_join_options opt;
  gcol_dist_join_options_init(&opt);
  if (options != NULL) opt = *options;
  gcol_status local = check_join(left, left_on, right, right_on, num_keys, kind);
  if (local == GCOL_OK && opt.broadcast_max_rows < GCOL_DIST_BROADCAST_AUTO) {
    local = gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                              "broadcast_max_rows %lld (>= 0, or GCOL_DIST_BROADCAST_AUTO)",
                              (long long)opt.broadcast_max_rows);
  }
  bool broadcast = false;
  GCOL_DETAIL_TRY(choose_broadcast(comm, local, left, right, kind, opt.broadcast_max_rows,
                                   stream, &broadcast));
  gcol_table_view lv = {0, 0, NULL}, rv = {0, 0, NULL};
  gcol_dist_partitioning part = GCOL_DIST_PARTITION_HASH;
  const int32_t *part_keys = left_on;
  int32_t part_num_keys = num_keys;
  if (broadcast) {
    bool const rest_needed = kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT;
    rv = local == GCOL_OK ? gcol_table_get_view(right->local) : (gcol_table_view){0, 0, NULL};
    GCOL_DETAIL_TRY(gather_right(comm, local, rv, right_on, num_keys, rest_needed, &gathered,
                                 stream));
    part = left->partitioning; /* the left rows did not move */
    part_keys = left->key_columns;
    part_num_keys = left->num_keys;
    local = broadcast_local_join(gcol_table_get_view(left->local), left_on, rv, right_on,
                                 num_keys, kind, nulls, opt.drop_right_keys, &gathered, &joined,
                                 stream, mr);
  } else {
    GCOL_DETAIL_TRY(hashed_side(comm, local, left, left_on, num_keys, &left_rows, &lv, stream));
    GCOL_DETAIL_TRY(
        hashed_side(comm, GCOL_OK, right, right_on, num_keys, &right_rows, &rv, stream));
    /* a full join's unmatched right rows carry null left keys from every rank */
    if (kind == GCOL_JOIN_FULL) part = GCOL_DIST_PARTITION_NONE;
    local = gcol_join_tables(lv, left_on, rv, right_on, num_keys, kind, nulls,
                             opt.drop_right_keys, &joined, stream, mr);
  }
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
  int64_t rows = joined->num_rows;
  GCOL_DETAIL_TRY(gcol_detail_dist_allreduce_i64(comm, &rows, 1, GCOL_DETAIL_DIST_SUM));
  local = gcol_detail_dist_table_wrap(joined, rows, part, part_keys, part_num_keys, out);
  if (local == GCOL_OK) joined = NULL; /* *out owns it */
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
done:
  if (status != GCOL_OK && out != NULL) {
    gcol_dist_table_free(*out);
    *out = NULL;
  }
  gcol_table_free(joined);
  gcol_table_free(left_rows);
  gcol_table_free(right_rows);
  broadcast_right_free(&gathered, stream);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
