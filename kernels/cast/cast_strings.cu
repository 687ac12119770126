/*
 * Strings <-> numbers for gcol_cast() (cast.h). Parsing writes values and validity in one
 * pass. Formatting is two-phase: the size of every row (computed in 64 bits), scanned in
 * place by gcol_detail_sizes_scan (the shared int64 scan, the total read back), then one
 * kernel writes the offsets (INT32 below gcol_large_offsets_threshold(), INT64 above) and
 * the chars.
 */
#include "cast/cast_internal.h"
#include "detail/element_io.cuh"
#include "detail/parse_store.cuh"
#include "detail/scan.h"
#include "detail/string_convert.h"
#include "detail/validity.h"
#include "gcol/bitmask.h"
#include "gcol/indexalator.h"
#include "gcol/string_view.h"

/* ---- STRING -> number ---- */

__global__ void gcol_detail_parse_kernel(gcol_strings_view s, gcol_detail_result out, int bits,
                                         bool is_unsigned, uint32_t *mask) {
  GCOL_DETAIL_WARP_LOOP(word, i, s.size) {
    bool valid = false;
    if (i < s.size) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      valid = gcol_detail_parse_store(out, i, r.data, r.size, bits, is_unsigned,
                                      gcol_strings_view_is_valid(s, i));
    }
    gcol_detail_warp_mask_update(mask, GCOL_DETAIL_MASK_WRITE, word, valid);
  }
}

extern "C" gcol_status gcol_detail_cast_strings_to_number(gcol_column_view input,
                                                          gcol_data_type to, gcol_column **out,
                                                          gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  gcol_strings_view s;
  GCOL_DETAIL_TRY(gcol_column_create(to, input.size, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  if (input.size > 0) {
    gcol_detail_result res;
    res.data = col->data->data;
    res.kind = gcol_detail_element_kind_of(to.id);
    res.width = (int32_t)gcol_type_size(to.id);
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    GCOL_DETAIL_TRY(gcol_bitmask_create(input.size, GCOL_MASK_UNINITIALIZED, stream, mr, &mask));
    unsigned int const grid = gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE);
    gcol_detail_parse_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(
        s, res, res.width * 8, gcol_type_is_unsigned_integral(to.id), (uint32_t *)mask->data);
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
  return status;
}

/* ---- number -> STRING ---- */

/* Text of row i into buf (GCOL_DETAIL_FLOAT_TEXT_MAX bytes); returns its length. */
static __device__ int gcol_detail_number_text(const gcol_detail_operand &in, int64_t i, char *buf) {
  if (in.kind == GCOL_DETAIL_KIND_FLOAT) {
    return gcol_detail_format_double(gcol_detail_raw_float(in.data, in.width, i),
                                     in.width == 4 ? 9 : 17, buf);
  }
  bool const is_unsigned = in.kind == GCOL_DETAIL_KIND_UNSIGNED;
  uint64_t const bits = is_unsigned ? gcol_detail_raw_unsigned(in.data, in.width, i)
                                    : (uint64_t)gcol_detail_raw_signed(in.data, in.width, i);
  gcol_detail_format_int(bits, is_unsigned, buf);
  return gcol_detail_format_int_size(bits, is_unsigned);
}

__global__ void gcol_detail_text_size_kernel(gcol_detail_operand in, int64_t n, int64_t *sizes) {
  GCOL_DETAIL_GRID_LOOP(i, n + 1) {
    char buf[GCOL_DETAIL_FLOAT_TEXT_MAX];
    sizes[i] = (i < n && gcol_detail_operand_valid(in, i)) ? gcol_detail_number_text(in, i, buf) : 0;
  }
}

__global__ void gcol_detail_text_fill_kernel(gcol_detail_operand in, int64_t n,
                                             const int64_t *offsets, gcol_offsets_writer w,
                                             char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, n + 1) {
    gcol_offsets_writer_set(w, i, offsets[i]);
    if (i < n && gcol_detail_operand_valid(in, i)) {
      char buf[GCOL_DETAIL_FLOAT_TEXT_MAX];
      int const len = gcol_detail_number_text(in, i, buf);
      for (int k = 0; k < len; ++k) chars[offsets[i] + k] = buf[k];
    }
  }
}

extern "C" gcol_status gcol_detail_cast_number_to_strings(gcol_column_view input,
                                                          gcol_column **out, gcol_stream stream,
                                                          gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *sizes = NULL, *chars = NULL, *mask = NULL;
  gcol_column *offsets = NULL;
  int64_t null_count = 0, total = 0;
  int64_t const n = input.size;
  gcol_detail_multiplier const one = {1, 0};
  gcol_detail_operand const in = gcol_detail_operand_of_column(input, one);
  unsigned int const grid = gcol_detail_grid_size(n + 1, GCOL_DETAIL_BLOCK_SIZE);
  if (n == 0) {
    /* No rows: one zero offset, no chars, no launch. */
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT32), 1, GCOL_MASK_UNALLOCATED,
                                       stream, mr, &offsets));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(offsets->data->data, 0, sizeof(int32_t), stream));
    GCOL_DETAIL_TRY(gcol_buffer_create(0, stream, mr, &chars));
    GCOL_DETAIL_TRY(gcol_column_make_strings(0, offsets, chars, NULL, 0, out));
    offsets = NULL;
    chars = NULL;
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(n + 1) * sizeof(int64_t), stream, NULL, &sizes));
  gcol_detail_text_size_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(in, n,
                                                                           (int64_t *)sizes->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  /* in place: the fill kernel writes the offsets column itself, fused with the chars */
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan((const int64_t *)sizes->data, (int64_t *)sizes->data, n,
                                         &total, 1, stream));
  {
    gcol_type_id const offsets_type =
        gcol_offsets_type_for_threshold(total, gcol_large_offsets_threshold());
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(offsets_type), n + 1,
                                       GCOL_MASK_UNALLOCATED, stream, mr, &offsets));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
    gcol_offsets_writer w;
    w.data = offsets->data->data;
    w.width = (int32_t)gcol_type_size(offsets_type);
    gcol_detail_text_fill_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(
        in, n, (const int64_t *)sizes->data, w, (char *)chars->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_copy_validity(input, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, mask, null_count, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_buffer_free(sizes);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  return status;
}
