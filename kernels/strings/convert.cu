/*
 * Conversions of strings/convert.h over the per-row functions of convert_ops.h, a thread per
 * row. Text outputs (from_booleans, integers_to_hex, url encode/decode) take the two passes of
 * edit.cu: each valid row's bytes counted (int64, a flag where a row would pass `limit`),
 * gcol_detail_strings_offsets_limited (the shared sizes -> offsets pass: the scan, the total
 * and the flag read back in one synchronization, the offsets INT32 or INT64 by the total),
 * then each row written at its offset. Fixed-width outputs
 * are one pass; hex_to_integers writes its validity a warp word at a time and counts it.
 */
#include "common.cuh"
#include "detail/element_io.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "gcol/bitmask.h"
#include "gcol/string_view.h"
#include "gcol/strings/convert.h"
#include "strings/convert_ops.h"
#include "strings/strings_common.h"

typedef enum conv_op {
  CONV_FROM_BOOLEANS = 0,
  CONV_TO_HEX,
  CONV_URL_ENCODE,
  CONV_URL_DECODE,
  CONV_FROM_DECIMALS
} conv_op;

typedef struct conv_args {
  int op;
  gcol_strings_view s;  /* string inputs */
  const char *data;     /* fixed-width inputs: the first row's bytes */
  int width;            /* their byte width */
  const uint32_t *mask; /* their validity */
  int64_t mask_offset;
  int64_t size;            /* rows */
  gcol_strings_view words; /* from_booleans: row 0 the true string, row 1 the false one */
  int32_t scale;           /* from_decimals */
} conv_args;

/* The bits of fixed-width row i (zero-extended). */
static __device__ __forceinline__ uint64_t conv_bits(const conv_args *a, int64_t i) {
  const char *p = a->data + i * a->width;
  switch (a->width) {
    case 1:
      return *(const uint8_t *)p;
    case 2:
      return *(const uint16_t *)p;
    case 4:
      return *(const uint32_t *)p;
    default:
      return *(const uint64_t *)p;
  }
}

/* Decimal row i, sign-extended. */
static __device__ __forceinline__ gcol_detail_dec_i128 conv_decimal(const conv_args *a, int64_t i) {
  const char *p = a->data + i * a->width;
  if (a->width == 4) return *(const int32_t *)p;
  if (a->width == 8) return *(const int64_t *)p;
  gcol_int128 const v = *(const gcol_int128 *)p;
  return (gcol_detail_dec_i128)(((gcol_detail_dec_u128)(uint64_t)v.hi << 64) | v.lo);
}

static __device__ __forceinline__ bool conv_row_valid(const conv_args *a, int64_t i) {
  if (a->op == CONV_FROM_BOOLEANS || a->op == CONV_TO_HEX || a->op == CONV_FROM_DECIMALS) {
    return gcol_bit_is_set_or_null_mask(a->mask, a->mask_offset + i);
  }
  return gcol_strings_view_is_valid(a->s, i);
}

static __device__ void conv_row(const conv_args *a, int64_t i, gcol_detail_sink *k) {
  switch (a->op) {
    case CONV_FROM_BOOLEANS: {
      gcol_string_ref const w = gcol_strings_view_get(a->words, conv_bits(a, i) != 0 ? 0 : 1);
      gcol_detail_sink_put(k, w.data, w.size);
      break;
    }
    case CONV_TO_HEX:
      gcol_detail_to_hex_row(conv_bits(a, i), a->width, k);
      break;
    case CONV_FROM_DECIMALS:
      gcol_detail_decimal_to_text(conv_decimal(a, i), a->scale, k);
      break;
    case CONV_URL_ENCODE: {
      gcol_string_ref const r = gcol_strings_view_get(a->s, i);
      gcol_detail_url_encode_row(r.data, r.size, k);
      break;
    }
    default: {
      gcol_string_ref const r = gcol_strings_view_get(a->s, i);
      gcol_detail_url_decode_row(r.data, r.size, k);
      break;
    }
  }
}

/* sizes[i] = output bytes of row i; sizes[n + 1] = 1 where a row passes limit. */
static __global__ void gcol_detail_convert_sizes_kernel(conv_args a, int64_t limit,
                                                        int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(i, a.size) {
    int64_t size = 0;
    if (conv_row_valid(&a, i)) {
      gcol_detail_sink k = gcol_detail_sink_make(NULL);
      conv_row(&a, i, &k);
      size = k.size;
    }
    if (size > limit) {
      sizes[a.size + 1] = 1;
      size = 0;
    }
    sizes[i] = size;
  }
}

static __global__ void gcol_detail_convert_write_kernel(conv_args a, const int64_t *offsets,
                                                        char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, a.size) {
    if (!conv_row_valid(&a, i)) continue;
    gcol_detail_sink k = gcol_detail_sink_make(chars + offsets[i]);
    conv_row(&a, i, &k);
  }
}

/* The text output of `input` (its validity copied) once args are set. */
static gcol_status convert_to_text(gcol_column_view input, const conv_args *args,
                                   gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *offsets64 = NULL, *chars = NULL, *mask = NULL;
  gcol_column *offsets = NULL;
  int64_t const n = input.size;
  int64_t tail[2] = {0, 0}; /* the total, the flag */
  int64_t null_count = 0;
  int64_t *sizes = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  if (n == 0) {
    /* no rows: one zero offset, no chars, no launch */
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT32), 1, GCOL_MASK_UNALLOCATED,
                                       stream, mr, &offsets));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(offsets->data->data, 0, sizeof(int32_t), st));
    GCOL_DETAIL_TRY(gcol_buffer_create(0, stream, mr, &chars));
    GCOL_DETAIL_TRY(gcol_column_make_strings(0, offsets, chars, NULL, 0, out));
    offsets = NULL;
    chars = NULL;
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 2, stream, &offsets64));
  sizes = (int64_t *)offsets64->data;
  gcol_detail_convert_sizes_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                     GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(*args, INT64_MAX / (n + 1),
                                                                      sizes);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_strings_offsets_limited(sizes, n, tail, 2, stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)tail[0], stream, mr, &chars));
  gcol_detail_convert_write_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                     GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(*args, sizes,
                                                                      (char *)chars->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_strings_output_mask(input, NULL, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, mask, null_count, out));
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

static conv_args conv_args_make(conv_op op, int64_t size) {
  conv_args a;
  memset(&a, 0, sizeof a);
  a.op = (int)op;
  a.size = size;
  return a;
}

/* A fixed-width input into args; type_ok says whether its type is `want` (the message names
 * the public function `who`). */
static gcol_status fixed_input(gcol_column_view input, bool type_ok, const char *want,
                               const char *who, conv_args *args) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_column_view_validate(input, "input"));
  if (!type_ok) {
    status = gcol_detail_error(GCOL_ERROR_TYPE_MISMATCH, who, "input is %s, not %s",
                               gcol_type_name(input.type.id), want);
    goto done;
  }
  args->width = (int)gcol_type_size(input.type.id);
  args->data = input.size > 0 ? (const char *)input.data + input.offset * args->width : NULL;
  args->mask = input.null_mask;
  args->mask_offset = input.offset;
done:
  return status;
}

/* ---------------------------------------------------------------- booleans */

static __global__ void gcol_detail_to_booleans_kernel(gcol_strings_view s, const char *t,
                                                      int64_t tn, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    gcol_string_ref const r = gcol_strings_view_get(s, i);
    out[i] =
        gcol_strings_view_is_valid(s, i) && gcol_detail_bytes_equal(r.data, r.size, t, tn) ? 1 : 0;
  }
}

extern "C" gcol_status gcol_strings_to_booleans(gcol_column_view input,
                                                const gcol_scalar *true_string, gcol_column **out,
                                                gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *word = NULL;
  gcol_column *col = NULL;
  const char *t = NULL;
  int64_t tn = 0;
  gcol_strings_view s;
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_to_booleans");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(true_string, "true_string", &t, &tn));
  GCOL_DETAIL_TRY(gcol_detail_strings_fixed_output(input, NULL, GCOL_BOOL8, stream, mr, &col));
  if (input.size > 0) {
    GCOL_DETAIL_TRY(gcol_detail_strings_to_device(t, tn, stream, &word));
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    gcol_detail_to_booleans_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                                     GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        s, (const char *)word->data, tn, (uint8_t *)col->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(word);
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_from_booleans(gcol_column_view input,
                                                  const gcol_scalar *true_string,
                                                  const gcol_scalar *false_string,
                                                  gcol_column **out, gcol_stream stream,
                                                  gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *words = NULL;
  const char *w[2] = {NULL, NULL};
  int64_t wn[2] = {0, 0};
  conv_args args = conv_args_make(CONV_FROM_BOOLEANS, input.size);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_from_booleans");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(fixed_input(input, input.type.id == GCOL_BOOL8, "BOOL8", __func__, &args));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(true_string, "true_string", &w[0], &wn[0]));
  GCOL_DETAIL_TRY(gcol_detail_strings_scalar(false_string, "false_string", &w[1], &wn[1]));
  if (input.size > 0) {
    GCOL_DETAIL_TRY(gcol_detail_strings_list_to_device(w, wn, 2, stream, &words, &args.words));
  }
  GCOL_DETAIL_TRY(convert_to_text(input, &args, stream, mr, out));
done:
  gcol_buffer_free(words);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- hex */

static __global__ void gcol_detail_hex_parse_kernel(gcol_strings_view s, gcol_detail_result out,
                                                    uint32_t *mask) {
  GCOL_DETAIL_WARP_LOOP(word, i, s.size) {
    bool valid = false;
    if (i < s.size) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      uint64_t v = 0;
      valid = gcol_strings_view_is_valid(s, i) &&
              gcol_detail_hex_parse(r.data, r.size, out.width * 8, &v);
      gcol_detail_store(out, i, valid ? v : (uint64_t)0);
    }
    gcol_detail_warp_mask_update(mask, GCOL_DETAIL_MASK_WRITE, word, valid);
  }
}

extern "C" gcol_status gcol_strings_hex_to_integers(gcol_column_view input, gcol_data_type type,
                                                    gcol_column **out, gcol_stream stream,
                                                    gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  gcol_strings_view s;
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_hex_to_integers");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_CHECK(gcol_type_is_integral(type.id), GCOL_ERROR_TYPE_MISMATCH,
                    "type is %s, not an integer type", gcol_type_name(type.id));
  GCOL_DETAIL_TRY(gcol_column_create(type, input.size, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (input.size > 0) {
    gcol_detail_result res;
    res.data = col->data->data;
    res.kind = gcol_detail_element_kind_of(type.id);
    res.width = (int32_t)gcol_type_size(type.id);
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    GCOL_DETAIL_TRY(gcol_bitmask_create(input.size, GCOL_MASK_UNINITIALIZED, stream, mr, &mask));
    gcol_detail_hex_parse_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                                   GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        s, res, (uint32_t *)mask->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits((const uint32_t *)mask->data, 0, input.size,
                                                  stream, &null_count));
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
    mask = NULL;
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static __global__ void gcol_detail_is_hex_kernel(gcol_strings_view s, uint8_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    gcol_string_ref const r = gcol_strings_view_get(s, i);
    out[i] = gcol_strings_view_is_valid(s, i) && gcol_detail_is_hex(r.data, r.size) ? 1 : 0;
  }
}

extern "C" gcol_status gcol_strings_is_hex(gcol_column_view input, gcol_column **out,
                                           gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_strings_view s;
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_is_hex");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_strings_fixed_output(input, NULL, GCOL_BOOL8, stream, mr, &col));
  if (input.size > 0) {
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    gcol_detail_is_hex_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                                GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        s, (uint8_t *)col->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_integers_to_hex(gcol_column_view input, gcol_column **out,
                                                    gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  conv_args args = conv_args_make(CONV_TO_HEX, input.size);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_integers_to_hex");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(
      fixed_input(input, gcol_type_is_integral(input.type.id), "an integer type", __func__, &args));
  GCOL_DETAIL_TRY(convert_to_text(input, &args, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- url */

/* The checks are the public functions' own, so that their messages name them. */
static gcol_status url_convert(gcol_column_view input, conv_op op, gcol_column **out,
                               gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  conv_args args = conv_args_make(op, input.size);
  if (input.size > 0) GCOL_DETAIL_TRY(gcol_strings_view_make(input, &args.s));
  GCOL_DETAIL_TRY(convert_to_text(input, &args, stream, mr, out));
done:
  return status;
}

extern "C" gcol_status gcol_strings_url_encode(gcol_column_view input, gcol_column **out,
                                               gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_url_encode");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(url_convert(input, CONV_URL_ENCODE, out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_url_decode(gcol_column_view input, gcol_column **out,
                                               gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_url_decode");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(url_convert(input, CONV_URL_DECODE, out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- decimals */

static bool is_decimal(gcol_type_id id) {
  return id == GCOL_DECIMAL32 || id == GCOL_DECIMAL64 || id == GCOL_DECIMAL128;
}

static __global__ void gcol_detail_decimal_parse_kernel(gcol_strings_view s, int32_t scale,
                                                        int width, void *data, uint32_t *mask) {
  GCOL_DETAIL_WARP_LOOP(word, i, s.size) {
    bool valid = false;
    if (i < s.size) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      gcol_detail_dec_i128 v = 0;
      valid = gcol_strings_view_is_valid(s, i) &&
              gcol_detail_parse_decimal(r.data, r.size, scale, width * 8, &v);
      if (!valid) v = 0;
      if (width == 4) {
        ((int32_t *)data)[i] = (int32_t)v;
      } else if (width == 8) {
        ((int64_t *)data)[i] = (int64_t)v;
      } else {
        gcol_int128 w;
        w.lo = (uint64_t)v;
        w.hi = (int64_t)(v >> 64);
        ((gcol_int128 *)data)[i] = w;
      }
    }
    gcol_detail_warp_mask_update(mask, GCOL_DETAIL_MASK_WRITE, word, valid);
  }
}

extern "C" gcol_status gcol_strings_to_decimals(gcol_column_view input, gcol_data_type type,
                                                gcol_column **out, gcol_stream stream,
                                                gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  gcol_strings_view s;
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_to_decimals");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_CHECK(is_decimal(type.id), GCOL_ERROR_TYPE_MISMATCH, "type is %s, not a decimal type",
                    gcol_type_name(type.id));
  GCOL_DETAIL_TRY(gcol_column_create(type, input.size, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (input.size > 0) {
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    GCOL_DETAIL_TRY(gcol_bitmask_create(input.size, GCOL_MASK_UNINITIALIZED, stream, mr, &mask));
    gcol_detail_decimal_parse_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                                       GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        s, type.scale, (int)gcol_type_size(type.id), col->data->data, (uint32_t *)mask->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits((const uint32_t *)mask->data, 0, input.size,
                                                  stream, &null_count));
    GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
    mask = NULL;
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(col);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_from_decimals(gcol_column_view input, gcol_column **out,
                                                  gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  conv_args args = conv_args_make(CONV_FROM_DECIMALS, input.size);
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_from_decimals");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(fixed_input(input, is_decimal(input.type.id), "a decimal type", __func__, &args));
  args.scale = input.type.scale;
  GCOL_DETAIL_TRY(convert_to_text(input, &args, stream, mr, out));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
