/* Distributed equality join: shuffle both sides on their keys (a side already hash-
 * partitioned on them stays), or broadcast the right side when that moves fewer bytes (or
 * when it is small, as the options say); then gcol_join_tables() on every rank. */
#include <stdlib.h>

#include "dist/dist_common.h"
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
