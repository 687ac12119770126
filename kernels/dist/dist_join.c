/* Distributed equality join: shuffle both sides on their keys (a side already hash-
 * partitioned on them stays), or broadcast a small right side; then gcol_join_tables() on
 * every rank. */
#include <stdlib.h>

#include "dist/dist_common.h"
#include "gcol/join.h"
#include "internal/error.h"
#include "internal/nvtx.h"

void gcol_dist_join_options_init(gcol_dist_join_options *options) {
  if (options == NULL) return;
  options->broadcast_max_rows = (int64_t)1 << 20;
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

gcol_status gcol_dist_join(gcol_dist_comm *comm, const gcol_dist_table *left,
                           const int32_t *left_on, const gcol_dist_table *right,
                           const int32_t *right_on, int32_t num_keys, gcol_join_kind kind,
                           gcol_null_equality nulls, const gcol_dist_join_options *options,
                           gcol_dist_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *left_rows = NULL, *right_rows = NULL, *joined = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_join");
  GCOL_DETAIL_CHECK_NOT_NULL(comm);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  gcol_dist_join_options opt;
  gcol_dist_join_options_init(&opt);
  if (options != NULL) opt = *options;
  gcol_status local = check_join(left, left_on, right, right_on, num_keys, kind);
  /* global row counts are the same on every rank, so is this choice */
  bool const broadcast = local == GCOL_OK && kind != GCOL_JOIN_FULL &&
                         gcol_dist_comm_size(comm) > 1 && opt.broadcast_max_rows > 0 &&
                         right->global_rows <= opt.broadcast_max_rows;
  gcol_table_view lv = {0, 0, NULL}, rv = {0, 0, NULL};
  gcol_dist_partitioning part = GCOL_DIST_PARTITION_HASH;
  const int32_t *part_keys = left_on;
  int32_t part_num_keys = num_keys;
  if (broadcast) {
    GCOL_DETAIL_TRY(gcol_detail_dist_allgather_table(comm, local, gcol_table_get_view(right->local),
                                                     &right_rows, stream, NULL));
    lv = gcol_table_get_view(left->local);
    rv = gcol_table_get_view(right_rows);
    part = left->partitioning; /* the left rows did not move */
    part_keys = left->key_columns;
    part_num_keys = left->num_keys;
  } else {
    GCOL_DETAIL_TRY(hashed_side(comm, local, left, left_on, num_keys, &left_rows, &lv, stream));
    GCOL_DETAIL_TRY(
        hashed_side(comm, GCOL_OK, right, right_on, num_keys, &right_rows, &rv, stream));
    /* a full join's unmatched right rows carry null left keys from every rank */
    if (kind == GCOL_JOIN_FULL) part = GCOL_DIST_PARTITION_NONE;
  }
  local = gcol_join_tables(lv, left_on, rv, right_on, num_keys, kind, nulls, opt.drop_right_keys,
                           &joined, stream, mr);
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
  GCOL_DETAIL_NVTX_POP();
  return status;
}
