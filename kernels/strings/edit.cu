/*
 * Edits of STRING columns (strings/edit.h): replace, slice, strip, pad, zfill, repeat,
 * reverse. Every operation is the same two passes over the per-string functions of
 * edit_ops.h, a thread per string, the operation a uniform switch:
 *   1. count: each valid row's output bytes (int64; null rows 0), a flag raised where a row
 *      would pass `limit` (sizes saturate in edit_ops.h, and limit * rows cannot wrap);
 *   2. gcol_detail_strings_offsets_limited (the shared sizes -> offsets pass): the scan, the
 *      total and the flag read back (one synchronization), the offsets (INT32 or INT64 by
 *      the total); then each row writes its bytes at its offset. The chars are exactly the total:
 * every byte is written. A scalar replace is a replace of a one-row target list, so both replaces
 * share a path.
 */
#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "gcol/indexalator.h"
#include "gcol/string_view.h"
#include "gcol/strings/edit.h"
#include "strings/edit_ops.h"
#include "strings/strings_common.h"

typedef enum edit_op {
  EDIT_REPLACE = 0,
  EDIT_SLICE,
  EDIT_STRIP,
  EDIT_PAD,
  EDIT_ZFILL,
  EDIT_REPEAT,
  EDIT_REVERSE
} edit_op;

/* An integer per row (slice starts/stops, repeat counts): a column entry, or the scalar
 * where there is no column; a null entry reads as GCOL_SLICE_NONE. */
typedef struct edit_param {
  gcol_indexalator values;
  const uint32_t *mask;
  int64_t mask_offset;
  bool per_row;
  int64_t scalar;
} edit_param;

typedef struct edit_args {
  int op;
  int side;                         /* strip, pad */
  int64_t max_count;                /* replace */
  int64_t step;                     /* slice (not GCOL_SLICE_NONE) */
  int64_t width;                    /* pad, zfill */
  gcol_strings_view targets, repls; /* replace */
  const char *set;                  /* strip: device bytes, or NULL for whitespace */
  int64_t set_size;
  char fill[4]; /* pad: the fill character's UTF-8 bytes */
  int64_t fill_len;
  edit_param a, b;            /* slice: start, stop; repeat: count */
  const uint32_t *extra_mask; /* repeat_column: the counts' validity (a null count: null row) */
  int64_t extra_offset;
} edit_args;

static __device__ __forceinline__ int64_t param_get(const edit_param *p, int64_t i) {
  if (!p->per_row) return p->scalar;
  if (!gcol_bit_is_set_or_null_mask(p->mask, p->mask_offset + i)) return GCOL_SLICE_NONE;
  return gcol_indexalator_get(p->values, i);
}

static __device__ __forceinline__ bool edit_row_valid(gcol_strings_view s, const edit_args *a,
                                                      int64_t i) {
  return gcol_strings_view_is_valid(s, i) &&
         gcol_bit_is_set_or_null_mask(a->extra_mask, a->extra_offset + i);
}

static __device__ void edit_row(const edit_args *a, int64_t i, gcol_string_ref r,
                                gcol_detail_sink *k) {
  switch (a->op) {
    case EDIT_REPLACE:
      gcol_detail_replace_row(r.data, r.size, a->targets, a->repls, a->max_count, k);
      break;
    case EDIT_SLICE:
      gcol_detail_slice_row(r.data, r.size, param_get(&a->a, i), param_get(&a->b, i), a->step, k);
      break;
    case EDIT_STRIP:
      gcol_detail_strip_row(r.data, r.size, a->side, a->set, a->set_size, k);
      break;
    case EDIT_PAD:
      gcol_detail_pad_row(r.data, r.size, a->width, a->side, a->fill, a->fill_len, k);
      break;
    case EDIT_ZFILL:
      gcol_detail_zfill_row(r.data, r.size, a->width, k);
      break;
    case EDIT_REPEAT:
      gcol_detail_repeat_row(r.data, r.size, param_get(&a->a, i), k);
      break;
    default:
      gcol_detail_reverse_row(r.data, r.size, k);
      break;
  }
}

/* sizes[i] = output bytes of row i; sizes[s.size + 1] = 1 where a row passes limit. */
static __global__ void gcol_detail_edit_sizes_kernel(gcol_strings_view s, edit_args a,
                                                     int64_t limit, int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    int64_t size = 0;
    if (edit_row_valid(s, &a, i)) {
      gcol_detail_sink k = gcol_detail_sink_make(NULL);
      edit_row(&a, i, gcol_strings_view_get(s, i), &k);
      size = k.size;
    }
    if (size > limit) {
      sizes[s.size + 1] = 1;
      size = 0;
    }
    sizes[i] = size;
  }
}

static __global__ void gcol_detail_edit_write_kernel(gcol_strings_view s, edit_args a,
                                                     const int64_t *offsets, char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    if (!edit_row_valid(s, &a, i)) continue;
    gcol_detail_sink k = gcol_detail_sink_make(chars + offsets[i]);
    edit_row(&a, i, gcol_strings_view_get(s, i), &k);
  }
}

/* Pass 1, the scan and the offsets: offsets64 (n + 2 int64, from the default resource) holds
 * the output offsets in its first n + 1 entries; *offsets from mr; *total the output bytes
 * (synchronizes). */
static gcol_status edit_offsets(gcol_strings_view s, const edit_args *args, gcol_stream stream,
                                gcol_mr *mr, gcol_buffer **offsets64, gcol_column **offsets,
                                int64_t *total) {
  gcol_status status = GCOL_OK;
  int64_t const n = s.size;
  int64_t tail[2] = {0, 0}; /* the total, the flag */
  int64_t *sizes = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 2, stream, offsets64));
  sizes = (int64_t *)(*offsets64)->data;
  gcol_detail_edit_sizes_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                  GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, *args, INT64_MAX / (n + 1),
                                                                   sizes);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_strings_offsets_limited(sizes, n, tail, 2, stream, mr, offsets));
  *total = tail[0];
done:
  return status;
}

/* The whole operation once its arguments are checked: *out is the edited column. `extra`
 * (or NULL) is ANDed into the output's validity (repeat_column's counts). */
static gcol_status edit_strings(gcol_column_view input, const edit_args *args,
                                const gcol_column_view *extra, gcol_stream stream, gcol_mr *mr,
                                gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *offsets64 = NULL, *chars = NULL, *mask = NULL;
  gcol_column *offsets = NULL;
  int64_t total = 0, null_count = 0;
  gcol_strings_view s;
  if (input.size == 0) {
    GCOL_DETAIL_TRY(gcol_column_empty_like(input, stream, mr, out));
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
  GCOL_DETAIL_TRY(edit_offsets(s, args, stream, mr, &offsets64, &offsets, &total));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  gcol_detail_edit_write_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                                  GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      s, *args, (const int64_t *)offsets64->data, (char *)chars->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_strings_output_mask(input, extra, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_make_strings(input.size, offsets, chars, mask, null_count, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_buffer_free(offsets64);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  return status;
}

static edit_args edit_args_make(edit_op op) {
  edit_args a;
  memset(&a, 0, sizeof a);
  a.op = (int)op;
  return a;
}

/* Fails unless `view` is an integer column of `rows` rows; `what` names it. */
static gcol_status check_per_row(gcol_column_view view, int64_t rows, const char *what) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_column_view_validate(view, what));
  GCOL_DETAIL_CHECK(gcol_type_is_integral(view.type.id), GCOL_ERROR_TYPE_MISMATCH,
                    "%s is %s, not an integer type", what, gcol_type_name(view.type.id));
  GCOL_DETAIL_CHECK(view.size == rows, GCOL_ERROR_SIZE_MISMATCH, "%s has %lld rows, input %lld",
                    what, (long long)view.size, (long long)rows);
done:
  return status;
}

static gcol_status param_make(gcol_column_view view, edit_param *p) {
  gcol_status status = GCOL_OK;
  p->per_row = true;
  p->mask = view.null_mask;
  p->mask_offset = view.offset;
  if (view.size > 0) GCOL_DETAIL_TRY(gcol_indexalator_make(view, &p->values));
done:
  return status;
}

static gcol_status check_side(gcol_strings_side side) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK((int)side >= (int)GCOL_SIDE_LEFT && (int)side <= (int)GCOL_SIDE_BOTH,
                    GCOL_ERROR_INVALID_ARGUMENT, "side %d is not a gcol_strings_side", (int)side);
done:
  return status;
}

/* ---------------------------------------------------------------- replace */

/* The target and the replacement as two one-row string lists on the device: int64 offsets
 * {0, target, target + replacement} then the bytes, in one temporary. */
static gcol_status replace_lists(const char *t, int64_t tn, const char *r, int64_t rn,
                                 gcol_stream stream, gcol_buffer **buf, edit_args *args) {
  gcol_status status = GCOL_OK;
  int64_t const head = 3 * (int64_t)sizeof(int64_t);
  int64_t const offsets[3] = {0, tn, tn + rn};
  char *host = (char *)malloc((size_t)(head + tn + rn));
  GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "%lld bytes of host memory",
                    (long long)(head + tn + rn));
  memcpy(host, offsets, sizeof offsets);
  if (tn > 0) memcpy(host + head, t, (size_t)tn);
  if (rn > 0) memcpy(host + head + tn, r, (size_t)rn);
  GCOL_DETAIL_TRY(gcol_detail_strings_to_device(host, head + tn + rn, stream, buf));
  args->targets.offsets.data = (*buf)->data;
  args->targets.offsets.width = 8;
  args->targets.chars = (const char *)(*buf)->data + head;
  args->targets.size = 1;
  args->repls = args->targets;
  args->repls.offsets.data = (const int64_t *)(*buf)->data + 1;
done:
  free(host);
  return status;
}

extern "C" gcol_status gcol_strings_replace(gcol_column_view input, const gcol_scalar *target,
                                            const gcol_scalar *replacement, int64_t max_count,
                                            gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *lists = NULL;
  const char *t = NULL, *r = NULL;
  int64_t tn = 0, rn = 0;
  edit_args args = edit_args_make(EDIT_REPLACE);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_replace");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(target, "target", &t, &tn));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(replacement, "replacement", &r, &rn));
  GCOL_DETAIL_CHECK(max_count >= -1, GCOL_ERROR_INVALID_ARGUMENT,
                    "max_count is %lld: -1 (all) or a count >= 0", (long long)max_count);
  args.max_count = max_count;
  if (input.size > 0) GCOL_DETAIL_TRY(replace_lists(t, tn, r, rn, stream, &lists, &args));
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  gcol_buffer_free(lists);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Fails when `view` (a list of targets or replacements) has a null. */
static gcol_status check_no_nulls(gcol_column_view view, const char *what, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t nulls = 0;
  GCOL_DETAIL_TRY(gcol_column_view_null_count(view, stream, &nulls));
  GCOL_DETAIL_CHECK(nulls == 0, GCOL_ERROR_INVALID_ARGUMENT, "%s has %lld nulls (none allowed)",
                    what, (long long)nulls);
done:
  return status;
}

extern "C" gcol_status gcol_strings_replace_multiple(gcol_column_view input,
                                                     gcol_column_view targets,
                                                     gcol_column_view replacements,
                                                     gcol_column **out, gcol_stream stream,
                                                     gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  edit_args args = edit_args_make(EDIT_REPLACE);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_replace_multiple");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_strings_check(targets, "targets"));
  GCOL_DETAIL_TRY(gcol_detail_strings_check(replacements, "replacements"));
  GCOL_DETAIL_CHECK(replacements.size == targets.size || replacements.size == 1,
                    GCOL_ERROR_SIZE_MISMATCH, "replacements has %lld rows, targets %lld (or 1)",
                    (long long)replacements.size, (long long)targets.size);
  GCOL_DETAIL_TRY(check_no_nulls(targets, "targets", stream));
  GCOL_DETAIL_TRY(check_no_nulls(replacements, "replacements", stream));
  args.max_count = -1;
  GCOL_DETAIL_TRY(gcol_strings_view_make(targets, &args.targets));
  GCOL_DETAIL_TRY(gcol_strings_view_make(replacements, &args.repls));
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- slice */

/* Checks input and step; args gets the step (GCOL_SLICE_NONE is 1). */
static gcol_status slice_check(gcol_column_view input, int64_t step, edit_args *args) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_CHECK(step != 0, GCOL_ERROR_INVALID_ARGUMENT, "step is 0");
  args->step = step == GCOL_SLICE_NONE ? 1 : step;
done:
  return status;
}

extern "C" gcol_status gcol_strings_slice(gcol_column_view input, int64_t start, int64_t stop,
                                          int64_t step, gcol_column **out, gcol_stream stream,
                                          gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  edit_args args = edit_args_make(EDIT_SLICE);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_slice");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(slice_check(input, step, &args));
  args.a.scalar = start;
  args.b.scalar = stop;
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_slice_column(gcol_column_view input, gcol_column_view starts,
                                                 gcol_column_view stops, int64_t step,
                                                 gcol_column **out, gcol_stream stream,
                                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  edit_args args = edit_args_make(EDIT_SLICE);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_slice_column");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(slice_check(input, step, &args));
  GCOL_DETAIL_TRY(check_per_row(starts, input.size, "starts"));
  GCOL_DETAIL_TRY(check_per_row(stops, input.size, "stops"));
  GCOL_DETAIL_TRY(param_make(starts, &args.a));
  GCOL_DETAIL_TRY(param_make(stops, &args.b));
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- strip */

extern "C" gcol_status gcol_strings_strip(gcol_column_view input, gcol_strings_side side,
                                          const gcol_scalar *characters, gcol_column **out,
                                          gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *set = NULL;
  const char *host_set = NULL;
  int64_t set_size = 0;
  edit_args args = edit_args_make(EDIT_STRIP);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_strip");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(check_side(side));
  if (characters != NULL) {
    GCOL_DETAIL_TRY(gcol_detail_strings_scalar(characters, "characters", &host_set, &set_size));
  }
  args.side = (int)side;
  if (characters != NULL && input.size > 0) {
    GCOL_DETAIL_TRY(gcol_detail_strings_to_device(host_set, set_size, stream, &set));
    args.set = (const char *)set->data;
    args.set_size = set_size;
  }
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  gcol_buffer_free(set);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- pad, zfill */

extern "C" gcol_status gcol_strings_pad(gcol_column_view input, int64_t width,
                                        gcol_strings_side side, uint32_t fill_char,
                                        gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  edit_args args = edit_args_make(EDIT_PAD);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_pad");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(check_side(side));
  args.fill_len = gcol_utf8_encode(fill_char, args.fill);
  GCOL_DETAIL_CHECK(
      args.fill_len > 0, GCOL_ERROR_INVALID_ARGUMENT,
      "fill_char U+%04X is not a Unicode scalar value (a surrogate, or above U+10FFFF)",
      (unsigned)fill_char);
  args.side = (int)side;
  args.width = width;
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_zfill(gcol_column_view input, int64_t width, gcol_column **out,
                                          gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  edit_args args = edit_args_make(EDIT_ZFILL);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_zfill");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  args.width = width;
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- repeat, reverse */

extern "C" gcol_status gcol_strings_repeat(gcol_column_view input, int64_t count, gcol_column **out,
                                           gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  edit_args args = edit_args_make(EDIT_REPEAT);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_repeat");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  args.a.scalar = count;
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_repeat_column(gcol_column_view input, gcol_column_view counts,
                                                  gcol_column **out, gcol_stream stream,
                                                  gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  edit_args args = edit_args_make(EDIT_REPEAT);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_repeat_column");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(check_per_row(counts, input.size, "counts"));
  GCOL_DETAIL_TRY(param_make(counts, &args.a));
  args.extra_mask = counts.null_mask;
  args.extra_offset = counts.offset;
  GCOL_DETAIL_TRY(edit_strings(input, &args, &counts, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_reverse(gcol_column_view input, gcol_column **out,
                                            gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  edit_args args = edit_args_make(EDIT_REVERSE);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_reverse");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(edit_strings(input, &args, NULL, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
