/* Distributed tables: making and freeing them, the exchange of table parts that every
 * distributed operation uses (pack, sizes, metadata, data, unpack, concatenate), shuffle
 * and gather. */
#include <stdlib.h>
#include <string.h>

#include "dist/dist_common.h"
#include "gcol/copying.h"
#include "gcol/pack.h"
#include "gcol/partitioning.h"
#include "internal/error.h"
#include "internal/nvtx.h"

/* ---- bookkeeping ---- */

gcol_status gcol_detail_dist_table_wrap(gcol_table *local, int64_t global_rows,
                                        gcol_dist_partitioning partitioning, const int32_t *keys,
                                        int32_t num_keys, gcol_dist_table **out) {
  gcol_dist_table *t = (gcol_dist_table *)calloc(1, sizeof *t);
  if (t == NULL) return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  t->local = local;
  t->global_rows = global_rows;
  t->partitioning = partitioning;
  if (partitioning != GCOL_DIST_PARTITION_NONE) {
    t->num_keys = num_keys;
    for (int32_t k = 0; k < num_keys; ++k) t->key_columns[k] = keys[k];
  }
  *out = t;
  return GCOL_OK;
}

void gcol_dist_table_free(gcol_dist_table *table) {
  if (table == NULL) return;
  gcol_table_free(table->local);
  free(table);
}

gcol_status gcol_detail_dist_check_table(const gcol_dist_table *t, const char *name,
                                         const int32_t *keys, int32_t num_keys) {
  GCOL_DETAIL_REQUIRE(t != NULL && t->local != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s (or its local table) is NULL", name);
  GCOL_DETAIL_REQUIRE(t->local->num_columns >= 1, GCOL_ERROR_INVALID_ARGUMENT, "%s has no column",
                      name);
  if (num_keys < 0) return GCOL_OK; /* no keys to check */
  GCOL_DETAIL_REQUIRE(keys != NULL, GCOL_ERROR_INVALID_ARGUMENT, "the key columns of %s are NULL",
                      name);
  GCOL_DETAIL_REQUIRE(num_keys >= 1 && num_keys <= GCOL_DIST_MAX_KEYS, GCOL_ERROR_INVALID_ARGUMENT,
                      "%d key columns for %s (1 to %d)", num_keys, name, GCOL_DIST_MAX_KEYS);
  for (int32_t k = 0; k < num_keys; ++k) {
    GCOL_DETAIL_REQUIRE(keys[k] >= 0 && keys[k] < t->local->num_columns,
                        GCOL_ERROR_INVALID_ARGUMENT, "key %d of %s is column %d of %d", k, name,
                        keys[k], t->local->num_columns);
  }
  return GCOL_OK;
}

int gcol_detail_dist_hashed_on(const gcol_dist_comm *comm, const gcol_dist_table *t,
                               const int32_t *keys, int32_t num_keys) {
  if (gcol_dist_comm_size(comm) == 1) return 1;
  if (t->partitioning != GCOL_DIST_PARTITION_HASH || t->num_keys != num_keys) return 0;
  for (int32_t k = 0; k < num_keys; ++k) {
    if (t->key_columns[k] != keys[k]) return 0;
  }
  return 1;
}

/* A fingerprint of a column's type (children's types too; offsets widths left out, they may
 * differ between ranks), so that ranks can compare schemas with one number each. */
static uint64_t type_fingerprint(gcol_column_view v, uint64_t h) {
  h = (h ^ (uint64_t)(v.type.id + 1)) * 0x100000001b3ull;
  h = (h ^ (uint64_t)(uint32_t)v.type.scale) * 0x100000001b3ull;
  if (v.type.id == GCOL_LIST && v.num_children > 1) h = type_fingerprint(v.children[1], h);
  if (v.type.id == GCOL_STRUCT) {
    h = (h ^ (uint64_t)v.num_children) * 0x100000001b3ull;
    for (int32_t c = 0; c < v.num_children; ++c) h = type_fingerprint(v.children[c], h);
  }
  return h;
}

gcol_status gcol_dist_table_make(gcol_dist_comm *comm, gcol_table *local, gcol_dist_table **out,
                                 gcol_stream stream) {
  gcol_status status = GCOL_OK, mine = GCOL_OK;
  (void)stream;
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_table_make");
  GCOL_DETAIL_CHECK_NOT_NULL(comm);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  int64_t schema = 0, rows = 0;
  if (local == NULL) {
    mine = gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "local is NULL");
  } else {
    rows = local->num_rows;
    uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)local->num_columns;
    gcol_table_view const v = gcol_table_get_view(local);
    for (int32_t c = 0; c < v.num_columns; ++c) h = type_fingerprint(v.columns[c], h);
    schema = (int64_t)(h >> 1);
  }
  /* one maximum tells of failures and of differing schemas (max of s and of -s) */
  int64_t flags[3] = {mine != GCOL_OK, schema, -schema};
  GCOL_DETAIL_TRY(gcol_detail_dist_allreduce_i64(comm, flags, 3, GCOL_DETAIL_DIST_MAX));
  GCOL_DETAIL_TRY(gcol_detail_dist_allreduce_i64(comm, &rows, 1, GCOL_DETAIL_DIST_SUM));
  if (mine != GCOL_OK) {
    status = mine;
    goto done;
  }
  GCOL_DETAIL_CHECK(!flags[0], GCOL_ERROR_PEER, "another rank failed; this rank's part was fine");
  GCOL_DETAIL_CHECK(flags[1] == -flags[2], GCOL_ERROR_TYPE_MISMATCH,
                    "the ranks' tables have different column types");
  /* the last step that can fail locally is agreed on like the others */
  GCOL_DETAIL_TRY(gcol_dist_agree(
      comm, gcol_detail_dist_table_wrap(local, rows, GCOL_DIST_PARTITION_NONE, NULL, 0, out)));
done:
  if (status != GCOL_OK && out != NULL && *out != NULL) {
    (*out)->local = NULL; /* local stays the caller's */
    gcol_dist_table_free(*out);
    *out = NULL;
  }
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- the exchange of table parts ---- */

typedef struct exchange_state {
  int32_t n, me;
  gcol_packed_table **packed; /* per destination; NULL: nothing sent */
  int32_t *packed_from;       /* packed[p] reuses packed[packed_from[p]] when the parts are one */
  int64_t *send_sizes;        /* 2n: metadata, data per destination (then reused per source) */
  int64_t *matrix;            /* n x 2n, every rank's send sizes */
  int64_t *meta_sizes, *data_sizes, *data_offsets; /* n each, per source */
  uint8_t **meta;                                  /* n received metadata blobs */
  gcol_buffer *data;                               /* received data, parts at data_offsets */
  gcol_unpacked_table **unpacked;
  gcol_table_view *list;
  int64_t *xfer_sizes; /* 2n: metadata and data bytes sent per destination */
  void **xfer_ptrs;    /* 4n: metadata send/receive, data send/receive pointers */
} exchange_state;

static void exchange_free(exchange_state *s) {
  for (int32_t p = 0; s->packed != NULL && s->packed_from != NULL && p < s->n; ++p) {
    if (s->packed_from[p] == p) gcol_packed_table_free(s->packed[p]);
  }
  for (int32_t p = 0; s->meta != NULL && p < s->n; ++p) free(s->meta[p]);
  for (int32_t p = 0; s->unpacked != NULL && p < s->n; ++p)
    gcol_unpacked_table_free(s->unpacked[p]);
  gcol_buffer_free(s->data);
  free(s->packed);
  free(s->packed_from);
  free(s->send_sizes);
  free(s->matrix);
  free(s->meta_sizes);
  free(s->meta);
  free(s->unpacked);
  free(s->list);
  free(s->xfer_sizes);
  free(s->xfer_ptrs);
}

static gcol_status exchange_alloc(exchange_state *s) {
  size_t const n = (size_t)s->n;
  s->packed = (gcol_packed_table **)calloc(n, sizeof *s->packed);
  s->packed_from = (int32_t *)calloc(n, sizeof *s->packed_from);
  s->send_sizes = (int64_t *)calloc(2 * n, sizeof *s->send_sizes);
  s->matrix = (int64_t *)calloc(2 * n * n, sizeof *s->matrix);
  s->meta_sizes = (int64_t *)calloc(3 * n, sizeof *s->meta_sizes);
  s->meta = (uint8_t **)calloc(n, sizeof *s->meta);
  s->unpacked = (gcol_unpacked_table **)calloc(n, sizeof *s->unpacked);
  s->list = (gcol_table_view *)calloc(n, sizeof *s->list);
  s->xfer_sizes = (int64_t *)calloc(2 * n, sizeof *s->xfer_sizes);
  s->xfer_ptrs = (void **)calloc(4 * n, sizeof *s->xfer_ptrs);
  if (s->xfer_sizes == NULL || s->xfer_ptrs == NULL || s->packed == NULL ||
      s->packed_from == NULL || s->send_sizes == NULL || s->matrix == NULL ||
      s->meta_sizes == NULL || s->meta == NULL || s->unpacked == NULL || s->list == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_detail_dist_exchange_tables",
                             "out of memory");
  }
  s->data_sizes = s->meta_sizes + n;
  s->data_offsets = s->meta_sizes + 2 * n;
  for (int32_t p = 0; p < s->n; ++p) s->packed_from[p] = p;
  return GCOL_OK;
}

static int same_view(gcol_table_view a, gcol_table_view b) {
  return a.columns == b.columns && a.num_rows == b.num_rows && a.num_columns == b.num_columns;
}

/* Packs the parts this rank sends (each distinct view once). */
static gcol_status pack_parts(exchange_state *s, const gcol_table_view *parts, int32_t root,
                              gcol_stream stream) {
  gcol_status status = GCOL_OK;
  for (int32_t p = 0; p < s->n; ++p) {
    if (p == s->me || (root >= 0 && p != root) || parts[p].num_rows == 0) continue;
    for (int32_t q = 0; q < p; ++q) {
      if (s->packed[q] != NULL && s->packed_from[q] == q && same_view(parts[q], parts[p])) {
        s->packed_from[p] = q;
        s->packed[p] = s->packed[q];
        break;
      }
    }
    if (s->packed[p] == NULL) GCOL_DETAIL_TRY(gcol_pack(parts[p], &s->packed[p], stream, NULL));
    s->send_sizes[2 * p] = (int64_t)s->packed[p]->metadata_size;
    s->send_sizes[2 * p + 1] = (int64_t)s->packed[p]->data->size;
  }
done:
  return status;
}

/* Receive buffers: host metadata per source, one device buffer for the data. */
static gcol_status alloc_receive(exchange_state *s, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t total = 0;
  GCOL_DETAIL_TRY(gcol_detail_dist_layout(s->data_sizes, s->n, s->data_offsets, &total));
  for (int32_t p = 0; p < s->n; ++p) {
    if (s->meta_sizes[p] == 0) continue;
    s->meta[p] = (uint8_t *)malloc((size_t)s->meta_sizes[p]);
    GCOL_DETAIL_CHECK(s->meta[p] != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  if (total > 0) GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, NULL, &s->data));
done:
  return status;
}

/* Metadata over the host path, data over the device path (buffers allocated and agreed on
 * beforehand: only a failing transport call fails here). */
static gcol_status transfer(exchange_state *s, gcol_dist_comm *comm, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  size_t const n = (size_t)s->n;
  int64_t *const send_meta = s->xfer_sizes, *const send_data = s->xfer_sizes + n;
  void **const ptrs = s->xfer_ptrs;
  for (int32_t p = 0; p < s->n; ++p) {
    gcol_packed_table const *pk = s->packed[p];
    send_meta[p] = s->send_sizes[2 * p];
    send_data[p] = s->send_sizes[2 * p + 1];
    ptrs[p] = pk != NULL ? pk->metadata : NULL;
    ptrs[n + p] = s->meta[p];
    ptrs[2 * n + p] = pk != NULL ? pk->data->data : NULL;
    ptrs[3 * n + p] = s->data != NULL ? (char *)s->data->data + s->data_offsets[p] : NULL;
  }
  GCOL_DETAIL_TRY(gcol_detail_dist_exchange_host(comm, (const void *const *)ptrs, send_meta,
                                                 ptrs + n, s->meta_sizes));
  GCOL_DETAIL_TRY(gcol_detail_dist_exchange_device(comm, (const void *const *)(ptrs + 2 * n),
                                                   send_data, ptrs + 3 * n, s->data_sizes, stream));
done:
  return status;
}

/* The received parts and this rank's own, in rank order, concatenated. */
static gcol_status assemble(exchange_state *s, const gcol_table_view *parts, gcol_table **out,
                            gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int32_t count = 0;
  for (int32_t p = 0; p < s->n; ++p) {
    if (p == s->me) {
      s->list[count++] = parts[p];
    } else if (s->meta_sizes[p] > 0) {
      GCOL_DETAIL_TRY(
          gcol_unpack(s->meta[p], (size_t)s->meta_sizes[p],
                      s->data != NULL ? (char *)s->data->data + s->data_offsets[p] : NULL,
                      (size_t)s->data_sizes[p], &s->unpacked[p]));
      GCOL_DETAIL_CHECK(s->unpacked[p]->table.num_columns == parts[s->me].num_columns,
                        GCOL_ERROR_TYPE_MISMATCH, "rank %d sent %d columns, this rank has %d", p,
                        s->unpacked[p]->table.num_columns, parts[s->me].num_columns);
      s->list[count++] = s->unpacked[p]->table;
    }
  }
  GCOL_DETAIL_TRY(gcol_concatenate_tables(s->list, count, out, stream, mr));
done:
  return status;
}

gcol_status gcol_detail_dist_exchange_tables(gcol_dist_comm *comm, gcol_status local,
                                             const gcol_table_view *parts, int32_t gather_root,
                                             gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  exchange_state s;
  memset(&s, 0, sizeof s);
  *out = NULL;
  s.n = gcol_dist_comm_size(comm);
  s.me = gcol_dist_comm_rank(comm);
  if (local == GCOL_OK) local = exchange_alloc(&s);
  if (local == GCOL_OK) local = pack_parts(&s, parts, gather_root, stream);
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
  /* every rank's sizes to every rank; this rank's column of the matrix is what it receives */
  GCOL_DETAIL_TRY(gcol_detail_dist_allgather_i64(comm, s.send_sizes, 2 * s.n, s.matrix));
  for (int32_t p = 0; p < s.n; ++p) {
    s.meta_sizes[p] = s.matrix[(size_t)p * 2 * (size_t)s.n + 2 * (size_t)s.me];
    s.data_sizes[p] = s.matrix[(size_t)p * 2 * (size_t)s.n + 2 * (size_t)s.me + 1];
  }
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, alloc_receive(&s, stream)));
  GCOL_DETAIL_TRY(transfer(&s, comm, stream));
  local = GCOL_OK;
  if (gather_root < 0 || gather_root == s.me) local = assemble(&s, parts, out, stream, mr);
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
done:
  if (status != GCOL_OK && out != NULL) {
    gcol_table_free(*out);
    *out = NULL;
  }
  exchange_free(&s);
  return status;
}

/* The allgather of a fixed-width table: every row to every rank, unpacked (the direct
 * shuffle with every range the whole table). */
static gcol_status allgather_direct(gcol_dist_comm *comm, gcol_table_view part, gcol_table **out,
                                    gcol_stream stream, gcol_mr *mr) {
  int32_t const n = gcol_dist_comm_size(comm);
  int64_t *begin = (int64_t *)calloc(2 * (size_t)n, sizeof *begin);
  gcol_status status = gcol_dist_agree(
      comm, begin != NULL ? GCOL_OK
                          : gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory"));
  if (status == GCOL_OK) {
    int64_t *const end = begin + n;
    for (int32_t p = 0; p < n; ++p) end[p] = part.num_rows;
    status = gcol_detail_dist_shuffle_direct(comm, part, begin, end, out, stream, mr);
  }
  free(begin);
  return status;
}

gcol_status gcol_detail_dist_allgather_table(gcol_dist_comm *comm, gcol_status local,
                                             gcol_table_view part, gcol_table **out,
                                             gcol_stream stream, gcol_mr *mr) {
  int32_t const n = gcol_dist_comm_size(comm);
  *out = NULL;
  /* agreed first: then every rank holds a table of the one schema and decides alike */
  gcol_status const agreed = gcol_dist_agree(comm, local);
  if (agreed != GCOL_OK) return agreed;
  if (gcol_detail_dist_direct_fits(part)) return allgather_direct(comm, part, out, stream, mr);
  gcol_table_view *parts = (gcol_table_view *)malloc((size_t)n * sizeof *parts);
  if (parts == NULL) {
    return gcol_dist_agree(comm,
                           gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory"));
  }
  for (int32_t p = 0; p < n; ++p) parts[p] = part; /* one view: packed once */
  gcol_status const status =
      gcol_detail_dist_exchange_tables(comm, local, parts, -1, out, stream, mr);
  free(parts);
  return status;
}

/* ---- shuffle and gather ---- */

/* Hash-partitions `input` on the keys into one part per rank: the partitioned table and its
 * n + 1 row offsets. */
static gcol_status partition_by_hash(gcol_dist_comm *comm, gcol_table_view input,
                                     const int32_t *keys, int32_t num_keys, gcol_table **parted,
                                     int64_t **offsets, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int32_t const n = gcol_dist_comm_size(comm);
  *offsets = (int64_t *)malloc(((size_t)n + 1) * sizeof **offsets);
  GCOL_DETAIL_CHECK(*offsets != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(gcol_hash_partition(input, keys, num_keys, n, GCOL_HASH_MURMUR3_32, 0, parted,
                                      *offsets, stream, NULL));
done:
  return status;
}

/* The parts of a partitioned table as views (`storage`: n x columns views). */
static gcol_status part_views(gcol_table_view all, const int64_t *offsets, int32_t n,
                              gcol_table_view **parts, gcol_column_view **storage) {
  gcol_status status = GCOL_OK;
  *parts = (gcol_table_view *)calloc((size_t)n, sizeof **parts);
  *storage = (gcol_column_view *)calloc((size_t)n * (size_t)all.num_columns, sizeof **storage);
  GCOL_DETAIL_CHECK(*parts != NULL && *storage != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t p = 0; p < n; ++p) {
    GCOL_DETAIL_TRY(gcol_table_view_slice(all, offsets[p], offsets[p + 1],
                                          *storage + (size_t)p * (size_t)all.num_columns,
                                          &(*parts)[p]));
  }
done:
  return status;
}

/* Fixed-width tables go column by column into place (dist_shuffle_direct.c); others are
 * packed per destination. */
gcol_status gcol_detail_dist_shuffle_view(gcol_dist_comm *comm, gcol_status local,
                                          gcol_table_view input, const int32_t *keys,
                                          int32_t num_keys, gcol_table **out, gcol_stream stream,
                                          gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *parted = NULL;
  int64_t *offsets = NULL;
  gcol_table_view *parts = NULL;
  gcol_column_view *storage = NULL;
  *out = NULL;
  if (local == GCOL_OK) {
    local = partition_by_hash(comm, input, keys, num_keys, &parted, &offsets, stream);
  }
  /* agreed first: then every rank holds a table of the one schema and decides alike */
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
  gcol_table_view const all = gcol_table_get_view(parted);
  if (gcol_detail_dist_direct_fits(all)) {
    status = gcol_detail_dist_shuffle_direct(comm, all, offsets, offsets + 1, out, stream, mr);
  } else {
    local = part_views(all, offsets, gcol_dist_comm_size(comm), &parts, &storage);
    status = gcol_detail_dist_exchange_tables(comm, local, parts, -1, out, stream, mr);
  }
done:
  gcol_table_free(parted);
  free(offsets);
  free(parts);
  free(storage);
  return status;
}

gcol_status gcol_dist_shuffle(gcol_dist_comm *comm, const gcol_dist_table *input,
                              const int32_t *key_columns, int32_t num_keys, gcol_dist_table **out,
                              gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *local_out = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_shuffle");
  GCOL_DETAIL_CHECK_NOT_NULL(comm);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  gcol_status local = gcol_detail_dist_check_table(input, "input", key_columns, num_keys);
  if (local == GCOL_OK && gcol_detail_dist_hashed_on(comm, input, key_columns, num_keys)) {
    /* already in place: a copy, agreed on like any other step */
    local = gcol_table_copy(gcol_table_get_view(input->local), stream, mr, &local_out);
    GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
  } else {
    gcol_table_view const view =
        local == GCOL_OK ? gcol_table_get_view(input->local) : (gcol_table_view){0, 0, NULL};
    GCOL_DETAIL_TRY(gcol_detail_dist_shuffle_view(comm, local, view, key_columns, num_keys,
                                                  &local_out, stream, mr));
  }
  local = gcol_detail_dist_table_wrap(local_out, input->global_rows, GCOL_DIST_PARTITION_HASH,
                                      key_columns, num_keys, out);
  if (local == GCOL_OK) local_out = NULL;
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
done:
  if (status != GCOL_OK && out != NULL) {
    gcol_dist_table_free(*out);
    *out = NULL;
  }
  gcol_table_free(local_out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_dist_gather(gcol_dist_comm *comm, const gcol_dist_table *input, int32_t root,
                             gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table_view *parts = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_gather");
  GCOL_DETAIL_CHECK_NOT_NULL(comm);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  int32_t const n = gcol_dist_comm_size(comm);
  GCOL_DETAIL_CHECK(root >= 0 && root < n, GCOL_ERROR_INVALID_ARGUMENT, "root %d of %d ranks", root,
                    n);
  gcol_status local = gcol_detail_dist_check_table(input, "input", NULL, -1);
  parts = (gcol_table_view *)calloc((size_t)n, sizeof *parts);
  if (local == GCOL_OK && parts == NULL) {
    local = gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  }
  if (local == GCOL_OK) {
    for (int32_t p = 0; p < n; ++p) parts[p] = gcol_table_get_view(input->local);
  }
  GCOL_DETAIL_TRY(gcol_detail_dist_exchange_tables(comm, local, parts, root, out, stream, mr));
done:
  if (status != GCOL_OK && out != NULL) {
    gcol_table_free(*out);
    *out = NULL;
  }
  free(parts);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
