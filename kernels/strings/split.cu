/*
 * Splitting STRING columns (strings/split.h). Every form first builds the pieces of all rows
 * as one STRING column (split_record's values), a thread per string in three passes over
 * gcol_detail_split_next() of split_ops.h, so that no piece position is stored:
 *   1. count each row's pieces (0 for a null row) and the most of any row; the shared int64
 *      scan gives each row's first place (the list offsets); one synchronization reads the
 *      number of pieces and the most;
 *   2. each row writes its pieces' sizes at their places (rsplit meets its pieces right to
 *      left and fills its places from the back, so the values stay left to right); scan;
 *      one synchronization reads the bytes;
 *   3. each row copies its pieces' bytes.
 * split_record wraps them in a LIST column with the input's validity. split gathers column j
 * from them (the shared gather engine) by a map pointing at each row's piece j, or out of
 * range where the row has no piece j: nullify makes that row null. Those two builders
 * (split_pieces.h) serve regex findall and split too (regex_split.cu).
 */
#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "detail/validity.h"
#include "gcol/strings/split.h"
#include "strings/split_ops.h"
#include "strings/split_pieces.h"
#include "strings/strings_common.h"

/* counts[i] = pieces of row i; counts[s.size + 1] = the most (zeroed by the caller). */
static __global__ void gcol_detail_split_count_kernel(gcol_strings_view s,
                                                      gcol_detail_split_spec sp, int64_t *counts) {
  unsigned long long *const most = (unsigned long long *)(counts + s.size + 1);
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    int64_t count = 0;
    if (gcol_strings_view_is_valid(s, i)) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      count = gcol_detail_split_count(r.data, r.size, sp);
    }
    counts[i] = count;
    /* most rows do not raise the most: a plain read spares them the atomic */
    if ((unsigned long long)count > *(volatile unsigned long long *)most) {
      atomicMax(most, (unsigned long long)count);
    }
  }
}

/* With sizes: sizes[place] = bytes of each piece; else its bytes go to chars + starts[place]
 * (chars may be NULL when every piece is empty: the mode is never taken from it).
 * places[i] is row i's first place, places[i + 1] the next row's. */
static __global__ void gcol_detail_split_pieces_kernel(gcol_strings_view s,
                                                       gcol_detail_split_spec sp,
                                                       const int64_t *places, int64_t *sizes,
                                                       const int64_t *starts, char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    if (!gcol_strings_view_is_valid(s, i)) continue;
    gcol_string_ref const r = gcol_strings_view_get(s, i);
    int64_t const first = places[i], last = places[i + 1] - 1;
    gcol_detail_split_state st = gcol_detail_split_begin(sp, r.size);
    int64_t b = 0, e = 0;
    for (int64_t k = 0; gcol_detail_split_next(r.data, r.size, sp, &st, &b, &e); ++k) {
      int64_t const at = sp.reverse ? last - k : first + k;
      if (sizes != NULL) {
        sizes[at] = e - b;
      } else {
        for (int64_t q = b; q < e; ++q) chars[starts[at] + q - b] = r.data[q];
      }
    }
  }
}

/* map[i] = row i's piece j, or -1 when it has fewer pieces. */
static __global__ void gcol_detail_split_column_map_kernel(const int64_t *places, int64_t n,
                                                           int64_t j, int64_t *map) {
  GCOL_DETAIL_GRID_LOOP(i, n) { map[i] = places[i + 1] - places[i] > j ? places[i] + j : -1; }
}

/* Pass 1 and its scan: *places (n + 2 int64, default resource) holds each row's first place
 * and the number of pieces at n; *pieces and *most are read back (synchronizes). */
static gcol_status count_pieces(gcol_strings_view s, gcol_detail_split_spec sp, gcol_stream stream,
                                gcol_buffer **places, int64_t *pieces, int64_t *most) {
  gcol_status status = GCOL_OK;
  int64_t const n = s.size;
  int64_t tail[2] = {0, 0};
  int64_t *counts = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 2, stream, places));
  counts = (int64_t *)(*places)->data;
  gcol_detail_split_count_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                   GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, sp, counts);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan(counts, counts, n, tail, 2, stream));
  *pieces = tail[0];
  *most = tail[1];
done:
  return status;
}

/* Passes 2 and 3: the pieces as a STRING column of `pieces` rows from mr (no nulls). */
static gcol_status write_pieces(gcol_strings_view s, gcol_detail_split_spec sp,
                                const int64_t *places, int64_t pieces, gcol_stream stream,
                                gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *sizes = NULL, *chars = NULL;
  gcol_column *offsets = NULL;
  int64_t total = 0;
  int64_t *sz = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  unsigned int const grid = gcol_detail_grid_size(s.size, GCOL_DETAIL_BLOCK_SIZE);
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(pieces, 1, stream, &sizes));
  sz = (int64_t *)sizes->data;
  gcol_detail_split_pieces_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, sp, places, sz, NULL,
                                                                           NULL);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_offsets_from_sizes(sz, pieces, &total, 1, stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  gcol_detail_split_pieces_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, sp, places, NULL, sz,
                                                                           (char *)chars->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_column_make_strings(pieces, offsets, chars, NULL, 0, out));
  offsets = NULL;
  chars = NULL;
done:
  gcol_buffer_free(sizes);
  gcol_buffer_free(chars);
  gcol_column_free(offsets);
  return status;
}

/* Checks the arguments; sp gets max_splits, the direction and (dn) the delimiter's size. */
static gcol_status split_check(gcol_column_view input, const gcol_scalar *delimiter,
                               int64_t max_splits, bool reverse, const char **host_delim,
                               gcol_detail_split_spec *sp) {
  gcol_status status = GCOL_OK;
  memset(sp, 0, sizeof *sp);
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  if (delimiter != NULL) {
    GCOL_DETAIL_TRY(gcol_detail_strings_scalar(delimiter, "delimiter", host_delim, &sp->dn));
  }
  GCOL_DETAIL_CHECK(max_splits >= -1, GCOL_ERROR_INVALID_ARGUMENT,
                    "max_splits is %lld: -1 (all) or a count >= 0", (long long)max_splits);
  sp->max_splits = max_splits;
  sp->reverse = reverse;
done:
  return status;
}

/* The pieces of every row: *places (row i's first place, and the count at n), the values
 * column (from mr) and the most pieces of a row. The delimiter is copied to the device. */
static gcol_status split_pieces(gcol_column_view input, const char *host_delim,
                                gcol_detail_split_spec sp, gcol_stream stream, gcol_mr *mr,
                                gcol_buffer **places, gcol_column **values, int64_t *most) {
  gcol_status status = GCOL_OK;
  gcol_buffer *delim = NULL;
  gcol_strings_view s;
  int64_t pieces = 0;
  GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
  if (sp.dn > 0) {
    GCOL_DETAIL_TRY(gcol_detail_strings_to_device(host_delim, sp.dn, stream, &delim));
    sp.delim = (const char *)delim->data;
  }
  GCOL_DETAIL_TRY(count_pieces(s, sp, stream, places, &pieces, most));
  GCOL_DETAIL_TRY(
      write_pieces(s, sp, (const int64_t *)(*places)->data, pieces, stream, mr, values));
done:
  gcol_buffer_free(delim);
  return status;
}

gcol_status gcol_detail_split_list(gcol_column_view input, const int64_t *places,
                                   gcol_column **values, gcol_stream stream, gcol_mr *mr,
                                   gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *mask = NULL;
  gcol_column *offsets = NULL;
  int64_t null_count = 0;
  GCOL_DETAIL_TRY(gcol_detail_offsets_column(
      places, input.size + 1, gcol_detail_offsets_type((*values)->size), stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_detail_copy_validity(input, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_make_list(input.size, offsets, *values, mask, null_count, out));
  offsets = NULL;
  *values = NULL;
  mask = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  return status;
}

static gcol_status split_record(gcol_column_view input, const gcol_scalar *delimiter,
                                int64_t max_splits, bool reverse, gcol_column **out,
                                gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *places = NULL;
  gcol_column *values = NULL;
  const char *host_delim = NULL;
  int64_t most = 0;
  gcol_detail_split_spec sp;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(split_check(input, delimiter, max_splits, reverse, &host_delim, &sp));
  GCOL_DETAIL_TRY(split_pieces(input, host_delim, sp, stream, mr, &places, &values, &most));
  GCOL_DETAIL_TRY(
      gcol_detail_split_list(input, (const int64_t *)places->data, &values, stream, mr, out));
done:
  gcol_buffer_free(places);
  gcol_column_free(values);
  return status;
}

/* Column j of the table: each row's piece j, or null (the gather's nullify). */
static gcol_status split_column(gcol_column_view values, const int64_t *places, int64_t n,
                                int64_t j, int64_t *map, gcol_stream stream, gcol_mr *mr,
                                gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_detail_gather_map m;
  memset(&m, 0, sizeof m);
  gcol_detail_split_column_map_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                        GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      places, n, j, map);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  m.indices.data = map;
  m.indices.width = 8;
  m.indices.is_signed = true;
  m.size = n;
  m.source_rows = values.size;
  m.nullify = true;
  GCOL_DETAIL_TRY(gcol_detail_copying_gather_column(values, m, stream, mr, out));
done:
  return status;
}

gcol_status gcol_detail_split_table(gcol_column_view values, const int64_t *places, int64_t n,
                                    int64_t most, gcol_stream stream, gcol_mr *mr,
                                    gcol_table **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *map = NULL;
  gcol_column **columns = NULL;
  int64_t made = 0;
  GCOL_DETAIL_CHECK(most <= INT32_MAX, GCOL_ERROR_OVERFLOW,
                    "a row has %lld pieces: more columns than a table holds", (long long)most);
  if (most == 0) most = 1; /* no piece anywhere: one column of nulls */
  columns = (gcol_column **)calloc((size_t)most, sizeof *columns);
  GCOL_DETAIL_CHECK(columns != NULL, GCOL_ERROR_OUT_OF_MEMORY, "%lld column pointers",
                    (long long)most);
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(n > 0 ? n : 1) * sizeof(int64_t), stream, NULL, &map));
  for (; made < most; ++made) {
    GCOL_DETAIL_TRY(
        split_column(values, places, n, made, (int64_t *)map->data, stream, mr, &columns[made]));
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, (int32_t)most, out));
  made = 0; /* the table owns them */
done:
  for (int64_t j = 0; j < made; ++j) gcol_column_free(columns[j]);
  free(columns);
  gcol_buffer_free(map);
  return status;
}

static gcol_status split_table(gcol_column_view input, const gcol_scalar *delimiter,
                               int64_t max_splits, bool reverse, gcol_table **out,
                               gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *places = NULL;
  gcol_column *values = NULL;
  const char *host_delim = NULL;
  int64_t most = 0;
  gcol_detail_split_spec sp;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(split_check(input, delimiter, max_splits, reverse, &host_delim, &sp));
  /* the pieces are a temporary here: the table's columns are gathered from them */
  GCOL_DETAIL_TRY(split_pieces(input, host_delim, sp, stream, NULL, &places, &values, &most));
  GCOL_DETAIL_TRY(gcol_detail_split_table(gcol_column_get_view(values),
                                          (const int64_t *)places->data, input.size, most, stream,
                                          mr, out));
done:
  gcol_buffer_free(places);
  gcol_column_free(values);
  return status;
}

extern "C" gcol_status gcol_strings_split(gcol_column_view input, const gcol_scalar *delimiter,
                                          int64_t max_splits, gcol_table **out, gcol_stream stream,
                                          gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_split");
  gcol_status const status = split_table(input, delimiter, max_splits, false, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_rsplit(gcol_column_view input, const gcol_scalar *delimiter,
                                           int64_t max_splits, gcol_table **out, gcol_stream stream,
                                           gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_rsplit");
  gcol_status const status = split_table(input, delimiter, max_splits, true, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_split_record(gcol_column_view input,
                                                 const gcol_scalar *delimiter, int64_t max_splits,
                                                 gcol_column **out, gcol_stream stream,
                                                 gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_split_record");
  gcol_status const status = split_record(input, delimiter, max_splits, false, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_rsplit_record(gcol_column_view input,
                                                  const gcol_scalar *delimiter, int64_t max_splits,
                                                  gcol_column **out, gcol_stream stream,
                                                  gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_rsplit_record");
  gcol_status const status = split_record(input, delimiter, max_splits, true, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
