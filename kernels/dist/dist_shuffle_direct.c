/* The shuffle (and allgather) of fixed-width tables without packing. Each column's rows for
 * rank p are sent straight from the table (hash-partitioned for a shuffle, whole for an
 * allgather) and received straight into the output column at their place (parts in source
 * rank order), so the data is written once by the partition and once by the transfer: no
 * pack, no unpack, no concatenation (those tripled the bytes a shuffle moved through device
 * memory). Null masks travel as word-aligned copies of each part's bits and are spliced into
 * the output's mask by one kernel. Tables with strings, lists, structs or dictionaries go
 * through the packed exchange (dist_table.c). */
#include <stdlib.h>
#include <string.h>

#include "detail/mask_splice.h"
#include "dist/dist_common.h"
#include "gcol/bitmask.h"
#include "internal/error.h"

bool gcol_detail_dist_direct_fits(gcol_table_view t) {
  for (int32_t c = 0; c < t.num_columns; ++c) {
    if (!gcol_type_is_fixed_width(t.columns[c].type.id) || t.columns[c].num_children != 0)
      return false;
  }
  return true;
}

typedef struct direct_state {
  int32_t n, me, cols;
  int64_t *matrix;          /* n x (n + cols): each rank's rows per destination, mask flags */
  int64_t *from, *first;    /* n each: rows from each source, their first output row */
  gcol_buffer **send_masks; /* cols x n: this rank's mask bits of each part it sends */
  gcol_buffer **recv_masks; /* cols x n: the mask bits received from each source */
  gcol_column **out;        /* cols */
  const void **send;        /* segments x n (segment 2c: column c's data, 2c + 1: its mask) */
  void **recv;              /* segments x n */
  int64_t *send_sizes, *recv_sizes;
} direct_state;

static void state_free(direct_state *s) {
  size_t const parts = (size_t)s->cols * (size_t)s->n;
  for (size_t i = 0; s->send_masks != NULL && i < parts; ++i) gcol_buffer_free(s->send_masks[i]);
  for (size_t i = 0; s->recv_masks != NULL && i < parts; ++i) gcol_buffer_free(s->recv_masks[i]);
  for (int32_t c = 0; s->out != NULL && c < s->cols; ++c) gcol_column_free(s->out[c]);
  free(s->matrix);
  free(s->from);
  free(s->send_masks);
  free(s->recv_masks);
  free(s->out);
  free(s->send);
  free(s->recv);
  free(s->send_sizes);
}

static gcol_status state_alloc(direct_state *s) {
  size_t const n = (size_t)s->n, cols = (size_t)s->cols, segs = 2 * cols * n;
  s->matrix = (int64_t *)calloc(n * (n + cols), sizeof *s->matrix);
  s->from = (int64_t *)calloc(2 * n, sizeof *s->from);
  s->send_masks = (gcol_buffer **)calloc(cols * n, sizeof *s->send_masks);
  s->recv_masks = (gcol_buffer **)calloc(cols * n, sizeof *s->recv_masks);
  s->out = (gcol_column **)calloc(cols, sizeof *s->out);
  s->send = (const void **)calloc(segs, sizeof *s->send);
  s->recv = (void **)calloc(segs, sizeof *s->recv);
  s->send_sizes = (int64_t *)calloc(2 * segs, sizeof *s->send_sizes);
  if (s->matrix == NULL || s->from == NULL || s->send_masks == NULL || s->recv_masks == NULL ||
      s->out == NULL || s->send == NULL || s->recv == NULL || s->send_sizes == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_dist_shuffle", "out of memory");
  }
  s->first = s->from + n;
  s->recv_sizes = s->send_sizes + segs;
  return GCOL_OK;
}

static bool may_have_nulls(gcol_column_view v) { return v.null_mask != NULL && v.null_count != 0; }

/* Whether source rank `src` sends column c's mask bits. */
static bool sends_mask(const direct_state *s, int32_t src, int32_t c) {
  return s->matrix[(size_t)src * (size_t)(s->n + s->cols) + (size_t)s->n + (size_t)c] != 0;
}

/* Every rank's rows per destination and which of its columns carry nulls, to every rank. */
static gcol_status exchange_counts(direct_state *s, gcol_dist_comm *comm, gcol_table_view parted,
                                   const int64_t *begin, const int64_t *end) {
  gcol_status status = GCOL_OK;
  size_t const row_len = (size_t)(s->n + s->cols);
  int64_t *mine = (int64_t *)calloc(row_len, sizeof *mine);
  GCOL_DETAIL_TRY(gcol_dist_agree(
      comm, mine != NULL ? GCOL_OK
                         : gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory")));
  for (int32_t p = 0; p < s->n; ++p) mine[p] = end[p] - begin[p];
  for (int32_t c = 0; c < s->cols; ++c) mine[s->n + c] = may_have_nulls(parted.columns[c]);
  GCOL_DETAIL_TRY(gcol_detail_dist_allgather_i64(comm, mine, (int32_t)row_len, s->matrix));
  int64_t at = 0;
  for (int32_t src = 0; src < s->n; ++src) {
    s->from[src] = s->matrix[(size_t)src * row_len + (size_t)s->me];
    s->first[src] = at;
    at += s->from[src];
  }
done:
  free(mine);
  return status;
}

/* The output columns, the mask copies this rank sends and the buffers of those it receives. */
static gcol_status allocate(direct_state *s, gcol_table_view parted, const int64_t *begin,
                            const int64_t *end, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  int64_t const total = s->first[s->n - 1] + s->from[s->n - 1];
  for (int32_t c = 0; c < s->cols; ++c) {
    gcol_column_view const v = parted.columns[c];
    GCOL_DETAIL_TRY(
        gcol_column_create(v.type, total, GCOL_MASK_UNALLOCATED, stream, mr, &s->out[c]));
    for (int32_t p = 0; p < s->n; ++p) {
      size_t const at = (size_t)c * (size_t)s->n + (size_t)p;
      if (p == s->me) continue; /* this rank's own bits are spliced from where they are */
      if (may_have_nulls(v) && end[p] > begin[p]) {
        GCOL_DETAIL_TRY(gcol_bitmask_copy(v.null_mask, v.offset + begin[p], v.offset + end[p],
                                          stream, NULL, &s->send_masks[at]));
      }
      if (sends_mask(s, p, c) && s->from[p] > 0) {
        GCOL_DETAIL_TRY(gcol_bitmask_create(s->from[p], GCOL_MASK_UNINITIALIZED, stream, NULL,
                                            &s->recv_masks[at]));
      }
    }
  }
done:
  return status;
}

/* The segments of the transfer: per column its data, then its mask words. */
static void plan_segments(direct_state *s, gcol_table_view parted, const int64_t *begin,
                          const int64_t *end) {
  size_t const n = (size_t)s->n;
  for (int32_t c = 0; c < s->cols; ++c) {
    gcol_column_view const v = parted.columns[c];
    int64_t const width = (int64_t)gcol_type_size(v.type.id);
    const char *const src = (const char *)v.data + v.offset * width;
    char *const dst = (char *)s->out[c]->data->data;
    size_t const data_seg = 2 * (size_t)c * n, mask_seg = data_seg + n;
    for (int32_t p = 0; p < s->n; ++p) {
      int64_t const rows_to = end[p] - begin[p];
      s->send[data_seg + p] = src + begin[p] * width;
      s->send_sizes[data_seg + p] = rows_to * width;
      s->recv[data_seg + p] = dst + s->first[p] * width;
      s->recv_sizes[data_seg + p] = s->from[p] * width;
      gcol_buffer *const out_bits = s->send_masks[(size_t)c * n + p];
      gcol_buffer *const in_bits = s->recv_masks[(size_t)c * n + p];
      if (out_bits != NULL) {
        s->send[mask_seg + p] = out_bits->data;
        s->send_sizes[mask_seg + p] = gcol_bit_num_words(rows_to) * 4;
      }
      if (in_bits != NULL) {
        s->recv[mask_seg + p] = in_bits->data;
        s->recv_sizes[mask_seg + p] = gcol_bit_num_words(s->from[p]) * 4;
      }
    }
  }
}

/* Each column's mask from its parts' bits (this rank's own part read in place). */
static gcol_status splice_masks(direct_state *s, gcol_table_view parted, const int64_t *begin,
                                gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column_view *pieces = (gcol_column_view *)calloc((size_t)s->n, sizeof *pieces);
  int64_t const total = s->first[s->n - 1] + s->from[s->n - 1];
  GCOL_DETAIL_CHECK(pieces != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t c = 0; c < s->cols; ++c) {
    bool any = false;
    for (int32_t src = 0; src < s->n; ++src) {
      gcol_column_view *const piece = &pieces[src];
      memset(piece, 0, sizeof *piece);
      piece->type = parted.columns[c].type;
      piece->size = s->from[src];
      if (src == s->me && may_have_nulls(parted.columns[c])) {
        piece->null_mask = parted.columns[c].null_mask;
        piece->offset = parted.columns[c].offset + begin[s->me];
      } else if (s->recv_masks[(size_t)c * (size_t)s->n + (size_t)src] != NULL) {
        piece->null_mask =
            (const uint32_t *)s->recv_masks[(size_t)c * (size_t)s->n + (size_t)src]->data;
      }
      /* "may hold nulls": the splice counts the nulls of the mask it writes */
      piece->null_count = piece->null_mask != NULL ? 1 : 0;
      any = any || piece->null_mask != NULL;
    }
    if (!any) continue;
    gcol_buffer *mask = NULL;
    int64_t nulls = 0;
    GCOL_DETAIL_TRY(gcol_detail_concat_masks(pieces, s->n, total, stream, mr, &mask, &nulls));
    if (mask != NULL) {
      status = gcol_column_set_null_mask(s->out[c], mask, nulls);
      if (status != GCOL_OK) gcol_buffer_free(mask);
      GCOL_DETAIL_TRY(status);
    }
  }
done:
  free(pieces);
  return status;
}

gcol_status gcol_detail_dist_shuffle_direct(gcol_dist_comm *comm, gcol_table_view parted,
                                            const int64_t *begin, const int64_t *end,
                                            gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  direct_state s;
  memset(&s, 0, sizeof s);
  *out = NULL;
  s.n = gcol_dist_comm_size(comm);
  s.me = gcol_dist_comm_rank(comm);
  s.cols = parted.num_columns;
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, state_alloc(&s)));
  GCOL_DETAIL_TRY(exchange_counts(&s, comm, parted, begin, end));
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, allocate(&s, parted, begin, end, stream, mr)));
  plan_segments(&s, parted, begin, end);
  /* buffers agreed on beforehand: only a failing transport call fails here */
  GCOL_DETAIL_TRY(gcol_detail_dist_exchange_device_segments(
      comm, 2 * s.cols, (const void *const *)s.send, s.send_sizes, s.recv, s.recv_sizes, stream));
  gcol_status local = splice_masks(&s, parted, begin, stream, mr);
  if (local == GCOL_OK) local = gcol_table_make(s.out, s.cols, out);
  if (local == GCOL_OK) memset(s.out, 0, (size_t)s.cols * sizeof *s.out); /* the table's */
  GCOL_DETAIL_TRY(gcol_dist_agree(comm, local));
done:
  if (status != GCOL_OK && *out != NULL) {
    gcol_table_free(*out);
    *out = NULL;
  }
  state_free(&s);
  return status;
}
