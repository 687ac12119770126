/* Distributed sort (sample sort): a regular sample of every rank's keys, gathered
 * everywhere and sorted, picks ranks - 1 splitters; each row goes to the rank of its
 * lower bound among the splitters (gcol_lower_bound(), gcol_partition()); each rank sorts what
 * it received. One local sort per rank, one exchange of the rows. */
#include <stdlib.h>

#include "dist/dist_common.h"
#include "gcol/copying.h"
#include "gcol/partitioning.h"
#include "gcol/search.h"
#include "internal/error.h"
#include "internal/nvtx.h"

/* Sample rows per rank per destination rank: enough that each rank's share is within a few
 * percent of the mean for keys without heavy duplicates. */
#define OVERSAMPLE 64

/* The rows of `keys` at the host positions pos[0..count) (a gather through a host map). */
static gcol_status take_rows(gcol_table_view keys, const int64_t *pos, int64_t count,
                             gcol_table **out, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_column *map = NULL;
  GCOL_DETAIL_TRY(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), count, pos, NULL,
                                               stream, NULL, &map));
  GCOL_DETAIL_TRY(gcol_gather(keys, gcol_column_get_view(map), GCOL_OUT_OF_BOUNDS_DONT_CHECK,
                              GCOL_NEGATIVE_INDEX_NOT_ALLOWED, out, stream, NULL));
done:
  gcol_column_free(map);
  return status;
}

/* This rank's regular sample of its key rows. */
static gcol_status local_sample(gcol_table_view keys, int32_t ranks, gcol_table **out,
                                gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t const count =
      keys.num_rows < (int64_t)OVERSAMPLE * ranks ? keys.num_rows : (int64_t)OVERSAMPLE * ranks;
  int64_t *pos = (int64_t *)malloc((size_t)(count > 0 ? count : 1) * sizeof *pos);
  GCOL_DETAIL_CHECK(pos != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  gcol_detail_dist_sample_rows(keys.num_rows, count, pos);
  GCOL_DETAIL_TRY(take_rows(keys, pos, count, out, stream));
done:
  free(pos);
  return status;
}

/* The ranks - 1 splitters from every rank's samples (the same on every rank). */
static gcol_status splitters_of(gcol_table_view samples, int32_t ranks, const gcol_order *order,
                                const gcol_null_order *null_order, gcol_table **out,
                                gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_table *sorted = NULL;
  int64_t *pos = (int64_t *)malloc((size_t)ranks * sizeof *pos);
  GCOL_DETAIL_CHECK(pos != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  GCOL_DETAIL_TRY(gcol_sort(samples, order, null_order, &sorted, stream, NULL));
  int64_t const count = samples.num_rows > 0 ? ranks - 1 : 0;
  gcol_detail_dist_splitter_rows(samples.num_rows, ranks, pos);
  GCOL_DETAIL_TRY(take_rows(gcol_table_get_view(sorted), pos, count, out, stream));
done:
  gcol_table_free(sorted);
  free(pos);
  return status;
}

/* Destination rank of every row: the number of splitters that order before it. */
static gcol_status route(gcol_table_view all, gcol_table_view keys, gcol_table_view splitters,
                         int32_t ranks, const gcol_order *order, const gcol_null_order *null_order,
                         gcol_table **parted, gcol_table_view **parts, gcol_column_view **storage,
                         gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_column *dest = NULL;
  int64_t *offsets = (int64_t *)malloc(((size_t)ranks + 1) * sizeof *offsets);
  *parts = (gcol_table_view *)calloc((size_t)ranks, sizeof **parts);
  *storage = (gcol_column_view *)calloc((size_t)ranks * (size_t)all.num_columns, sizeof **storage);
  GCOL_DETAIL_CHECK(offsets != NULL && *parts != NULL && *storage != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "out of memory");
  GCOL_DETAIL_TRY(gcol_lower_bound(splitters, keys, order, null_order, &dest, stream, NULL));
  GCOL_DETAIL_TRY(
      gcol_partition(all, gcol_column_get_view(dest), ranks, parted, offsets, stream, NULL));
  gcol_table_view const v = gcol_table_get_view(*parted);
  for (int32_t p = 0; p < ranks; ++p) {
    GCOL_DETAIL_TRY(gcol_table_view_slice(v, offsets[p], offsets[p + 1],
                                          *storage + (size_t)p * (size_t)all.num_columns,
                                          &(*parts)[p]));
  }
done:
  gcol_column_free(dest);
  free(offsets);
  return status;
}

gcol_status gcol_dist_sort(gcol_dist_comm *comm, const gcol_dist_table *input,
                           const int32_t *key_columns, int32_t num_keys, const gcol_order *order,
                           const gcol_null_order *null_order, gcol_dist_table **out,
                           gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_table *sample = NULL, *samples = NULL, *splitters = NULL, *parted = NULL;
  gcol_table *received = NULL, *sorted = NULL;
  gcol_table_view *parts = NULL;
  gcol_column_view *storage = NULL;
  gcol_column_view key_storage[GCOL_DIST_MAX_KEYS];
  gcol_table_view all = {0, 0, NULL}, keys = {0, 0, NULL}, sample_view = {0, 0, NULL};
  GCOL_DETAIL_NVTX_PUSH("gcol_dist_sort");
  GCOL_DETAIL_CHECK_NOT_NULL(comm);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  int32_t const ranks = gcol_dist_comm_size(comm);
  gcol_status local = gcol_detail_dist_check_table(input, "input", key_columns, num_keys);
  if (local == GCOL_OK) {
    all = gcol_table_get_view(input->local);
    local = gcol_table_view_select(all, key_columns, num_keys, key_storage, &keys);
  }
  if (local == GCOL_OK) local = local_sample(keys, ranks, &sample, stream);
  if (local == GCOL_OK) sample_view = gcol_table_get_view(sample);
  GCOL_DETAIL_TRY(
      gcol_detail_dist_allgather_table(comm, local, sample_view, &samples, stream, NULL));
  local = splitters_of(gcol_table_get_view(samples), ranks, order, null_order, &splitters, stream);
  if (local == GCOL_OK) {
    local = route(all, keys, gcol_table_get_view(splitters), ranks, order, null_order, &parted,
                  &parts, &storage, stream);
  }
  GCOL_DETAIL_TRY(
      gcol_detail_dist_exchange_tables(comm, local, parts, -1, &received, stream, NULL));
  /* the received rows, sorted: the keys are the same column positions as in the input */
  gcol_table_view const rv = gcol_table_get_view(received);
  gcol_column_view rkey_storage[GCOL_DIST_MAX_KEYS];
  gcol_table_view rkeys;
  local = gcol_table_view_select(rv, key_columns, num_keys, rkey_storage, &rkeys);
  if (local == GCOL_OK) local = gcol_sort_by_key(rv, rkeys, order, null_order, &sorted, stream, mr);
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
  local = gcol_detail_dist_table_wrap(sorted, input->global_rows, GCOL_DIST_PARTITION_RANGE,
                                      key_columns, num_keys, out);
  if (local == GCOL_OK) sorted = NULL;
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
done:
  if (status != GCOL_OK && out != NULL) {
    gcol_dist_table_free(*out);
    *out = NULL;
  }
  gcol_table_free(sample);
  gcol_table_free(samples);
  gcol_table_free(splitters);
  gcol_table_free(parted);
  gcol_table_free(received);
  gcol_table_free(sorted);
  free(parts);
  free(storage);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
