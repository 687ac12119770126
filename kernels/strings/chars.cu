/*
 * Per-character operations over STRING columns: lengths and character classes
 * (strings/attributes.h), case conversion (strings/case.h). One file because both read the
 * generated Unicode tables (unicode_data.h), which are __device__ arrays of this file.
 *
 * Case conversion: one pass over the rows' bytes finds whether they are all ASCII. If they
 * are, every row keeps its length: the output offsets are the input's rebased to 0, and
 * UPPER/LOWER/SWAPCASE convert 8 bytes per thread (SWAR), CAPITALIZE/TITLE a row per
 * thread. Otherwise: sizes per row (int64), gcol_detail_offsets_from_sizes (the scan, the
 * total read back, the offsets), then a row per thread writes its bytes.
 */
#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "detail/validity.h"
#include "gcol/indexalator.h"
#include "gcol/string_view.h"
#include "gcol/strings/attributes.h"
#include "gcol/strings/case.h"
#include "strings/char_props.h"
#include "strings/strings_common.h"

static __device__ const uint16_t gcol_detail_unicode_stage1[] = GCOL_DETAIL_UNICODE_STAGE1;
static __device__ const uint16_t gcol_detail_unicode_stage2[] = GCOL_DETAIL_UNICODE_STAGE2;
static __device__ const gcol_detail_unicode_record gcol_detail_unicode_records[] =
    GCOL_DETAIL_UNICODE_RECORDS;

static __device__ __forceinline__ gcol_detail_unicode_tables device_tables(void) {
  gcol_detail_unicode_tables t;
  t.stage1 = gcol_detail_unicode_stage1;
  t.stage2 = gcol_detail_unicode_stage2;
  t.records = gcol_detail_unicode_records;
  return t;
}

/* ---------------------------------------------------------------- attributes */

#define GCOL_DETAIL_ATTR_BYTES (-2)
#define GCOL_DETAIL_ATTR_CHARS (-1)

/* attr: GCOL_DETAIL_ATTR_BYTES, _CHARS (INT32 out), or a gcol_char_class (BOOL8 out). Null
 * rows get 0. */
static __global__ void gcol_detail_attributes_kernel(gcol_strings_view s, int attr, void *out) {
  gcol_detail_unicode_tables const t = device_tables();
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    bool const valid = gcol_strings_view_is_valid(s, i);
    gcol_string_ref const r = valid ? gcol_strings_view_get(s, i) : gcol_string_ref_make(NULL, 0);
    if (attr == GCOL_DETAIL_ATTR_BYTES) {
      ((int32_t *)out)[i] = (int32_t)r.size;
    } else if (attr == GCOL_DETAIL_ATTR_CHARS) {
      ((int32_t *)out)[i] = (int32_t)gcol_string_ref_char_count(r);
    } else {
      ((uint8_t *)out)[i] =
          (uint8_t)(valid && gcol_detail_string_is_class(t, r.data, r.size, (gcol_char_class)attr));
    }
  }
}

static gcol_status strings_attribute(gcol_column_view input, int attr, gcol_column **out,
                                     gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_strings_view s;
  bool const counts = attr < 0;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_CHECK(attr >= GCOL_DETAIL_ATTR_BYTES && attr <= (int)GCOL_CHAR_LOWER,
                    GCOL_ERROR_INVALID_ARGUMENT, "char_class %d is not a gcol_char_class", attr);
  if (counts) GCOL_DETAIL_TRY(gcol_detail_strings_check_int32_rows(input, stream));
  GCOL_DETAIL_TRY(gcol_detail_strings_fixed_output(input, NULL, counts ? GCOL_INT32 : GCOL_BOOL8,
                                                   stream, mr, &col));
  if (input.size > 0) {
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    gcol_detail_attributes_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                                    GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
        s, attr, col->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  gcol_column_free(col);
  return status;
}

extern "C" gcol_status gcol_strings_count_bytes(gcol_column_view input, gcol_column **out,
                                                gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_count_bytes");
  gcol_status const status = strings_attribute(input, GCOL_DETAIL_ATTR_BYTES, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_count_characters(gcol_column_view input, gcol_column **out,
                                                     gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_count_characters");
  gcol_status const status = strings_attribute(input, GCOL_DETAIL_ATTR_CHARS, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_is_char_class(gcol_column_view input,
                                                  gcol_char_class char_class, gcol_column **out,
                                                  gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_is_char_class");
  /* A negative value would select a length: refuse it here. */
  gcol_status const status =
      (int)char_class < 0
          ? gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                              "char_class %d is not a gcol_char_class", (int)char_class)
          : strings_attribute(input, (int)char_class, out, stream, mr);
  if (status != GCOL_OK && out != NULL) *out = NULL;
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- case: ASCII fast path */

/* Sets *flag when a byte of [chars + begin, chars + end) is >= 0x80: 8-byte words in the
 * aligned middle, single bytes at the ends. */
static __global__ void gcol_detail_non_ascii_kernel(const char *chars, int64_t begin, int64_t end,
                                                    unsigned int *flag) {
  int64_t const head_end = begin + (int64_t)((8u - ((uintptr_t)(chars + begin) & 7u)) & 7u);
  int64_t const first_word = head_end < end ? head_end : end;
  int64_t const words = (end - first_word) / 8;
  const uint64_t *w = (const uint64_t *)(const void *)(chars + first_word);
  bool found = false;
  GCOL_DETAIL_GRID_LOOP(k, words) {
    if ((w[k] & 0x8080808080808080ull) != 0) found = true;
  }
  int64_t const tail = first_word + 8 * words;
  GCOL_DETAIL_GRID_LOOP(k, (first_word - begin) + (end - tail)) {
    int64_t const p = k < first_word - begin ? begin + k : tail + (k - (first_word - begin));
    if ((unsigned char)chars[p] >= 0x80u) found = true;
  }
  if (found) *flag = 1u;
}

/* SWAR conversion of 8 ASCII bytes. */
static __device__ __forceinline__ uint64_t ascii_case_word(uint64_t x, int op) {
  uint64_t const high = 0x8080808080808080ull;
  uint64_t const ones = 0x0101010101010101ull;
  /* bytes in [lo, hi]: (x + (0x80 - lo)) has the high bit, (x + (0x7F - hi)) has not */
  uint64_t const is_lower = ((x + ones * (0x80u - 'a')) & ~(x + ones * (0x7Fu - 'z'))) & high;
  uint64_t const is_upper = ((x + ones * (0x80u - 'A')) & ~(x + ones * (0x7Fu - 'Z'))) & high;
  if (op == GCOL_CASE_UPPER) return x - (is_lower >> 2);
  if (op == GCOL_CASE_LOWER) return x + (is_upper >> 2);
  return (x - (is_lower >> 2)) + (is_upper >> 2); /* SWAPCASE */
}

static __device__ __forceinline__ unsigned char ascii_case_byte(unsigned char c, int op) {
  if (op == GCOL_CASE_UPPER) return gcol_detail_ascii_map(c, GCOL_DETAIL_MAP_UPPER);
  if (op == GCOL_CASE_LOWER) return gcol_detail_ascii_map(c, GCOL_DETAIL_MAP_LOWER);
  if (c >= 'a' && c <= 'z') return (unsigned char)(c - 32);
  if (c >= 'A' && c <= 'Z') return (unsigned char)(c + 32);
  return c;
}

/* out[0, n) = converted chars[begin, begin + n) for UPPER, LOWER, SWAPCASE. out is 256-byte
 * aligned; 8-byte words when the input is aligned alike, else single bytes. */
static __global__ void gcol_detail_ascii_case_kernel(const char *chars, int64_t begin, int64_t n,
                                                     int op, char *out) {
  const char *src = chars + begin;
  if (((uintptr_t)src & 7u) == 0) {
    int64_t const words = n / 8;
    const uint64_t *sw = (const uint64_t *)(const void *)src;
    uint64_t *dw = (uint64_t *)(void *)out;
    GCOL_DETAIL_GRID_LOOP(k, words) { dw[k] = ascii_case_word(sw[k], op); }
    GCOL_DETAIL_GRID_LOOP(k, n - 8 * words) {
      int64_t const p = 8 * words + k;
      out[p] = (char)ascii_case_byte((unsigned char)src[p], op);
    }
  } else {
    GCOL_DETAIL_GRID_LOOP(k, n) { out[k] = (char)ascii_case_byte((unsigned char)src[k], op); }
  }
}

/* Output offsets = input offsets - begin, in the writer's width. */
static __global__ void gcol_detail_rebase_offsets_kernel(gcol_offsetalator in, int64_t count,
                                                         int64_t begin, gcol_offsets_writer out) {
  GCOL_DETAIL_GRID_LOOP(i, count) { gcol_offsets_writer_set(out, i, gcol_offsetalator_get(in, i) - begin); }
}

/* ---------------------------------------------------------------- case: general path */

/* sizes[i] = output bytes of row i (0 for null rows); rows = s.size. */
static __global__ void gcol_detail_case_sizes_kernel(gcol_strings_view s, int op, int64_t *sizes) {
  gcol_detail_unicode_tables const t = device_tables();
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    int64_t size = 0;
    if (gcol_strings_view_is_valid(s, i)) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      size = gcol_detail_case_convert(t, (gcol_case_op)op, r.data, r.size, NULL);
    }
    sizes[i] = size;
  }
}

/* Writes row i at out + (offset of row i - base); offsets64 NULL: the input's own offsets
 * (ASCII path, every row keeps its length, null rows included). */
static __global__ void gcol_detail_case_write_kernel(gcol_strings_view s, int op,
                                                     const int64_t *offsets64, int64_t base,
                                                     char *out) {
  gcol_detail_unicode_tables const t = device_tables();
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    bool const valid = gcol_strings_view_is_valid(s, i);
    if (offsets64 != NULL && !valid) continue;
    gcol_string_ref const r = gcol_strings_view_get(s, i);
    int64_t const at = offsets64 != NULL ? offsets64[i] : gcol_offsetalator_get(s.offsets, i) - base;
    gcol_detail_case_convert(t, (gcol_case_op)op, r.data, r.size, out + at);
  }
}

/* True when every byte of the rows is ASCII (synchronizes); *begin, *end their range. */
static gcol_status rows_are_ascii(gcol_column_view input, gcol_stream stream, int64_t *begin,
                                  int64_t *end, bool *ascii) {
  gcol_status status = GCOL_OK;
  gcol_buffer *flag = NULL;
  bool non_ascii = false;
  GCOL_DETAIL_TRY(gcol_strings_view_chars_range(input, stream, begin, end));
  *ascii = true;
  if (*end == *begin) goto done;
  GCOL_DETAIL_TRY(gcol_detail_strings_flag_create(stream, &flag));
  gcol_detail_non_ascii_kernel<<<gcol_detail_grid_size((*end - *begin) / 8 + 16,
                                                       GCOL_DETAIL_BLOCK_SIZE),
                                 GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(
      (const char *)input.data, *begin, *end, (unsigned int *)flag->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_strings_flag_read(flag, stream, &non_ascii));
  *ascii = !non_ascii;
done:
  gcol_buffer_free(flag);
  return status;
}

/* ASCII rows: offsets rebased, bytes converted in place of the same length. */
static gcol_status convert_ascii(gcol_column_view input, gcol_strings_view s, gcol_case_op op,
                                 int64_t begin, int64_t end, gcol_stream stream, gcol_mr *mr,
                                 gcol_column **offsets, gcol_buffer **chars) {
  gcol_status status = GCOL_OK;
  int64_t const total = end - begin;
  cudaStream_t const st = (cudaStream_t)stream;
  gcol_offsets_writer writer;
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(gcol_detail_offsets_type(total)),
                                     input.size + 1, GCOL_MASK_UNALLOCATED, stream, mr, offsets));
  writer.data = (*offsets)->data->data;
  writer.width = (int32_t)gcol_type_size((*offsets)->type.id);
  gcol_detail_rebase_offsets_kernel<<<gcol_detail_grid_size(input.size + 1, GCOL_DETAIL_BLOCK_SIZE),
                                      GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s.offsets, input.size + 1,
                                                                       begin, writer);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, chars));
  if (total == 0) goto done;
  if (op == GCOL_CASE_UPPER || op == GCOL_CASE_LOWER || op == GCOL_CASE_SWAPCASE) {
    gcol_detail_ascii_case_kernel<<<gcol_detail_grid_size(total / 8 + 1, GCOL_DETAIL_BLOCK_SIZE),
                                    GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(
        (const char *)input.data, begin, total, (int)op, (char *)(*chars)->data);
  } else {
    gcol_detail_case_write_kernel<<<gcol_detail_grid_size(input.size, GCOL_DETAIL_BLOCK_SIZE),
                                    GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, (int)op, NULL, begin,
                                                                     (char *)(*chars)->data);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}

/* Any rows: sizes, scan, total, offsets, bytes. */
static gcol_status convert_general(gcol_column_view input, gcol_strings_view s, gcol_case_op op,
                                   gcol_stream stream, gcol_mr *mr, gcol_column **offsets,
                                   gcol_buffer **chars) {
  gcol_status status = GCOL_OK;
  gcol_buffer *offsets64 = NULL;
  int64_t total = 0;
  int64_t const n = input.size;
  cudaStream_t const st = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 1, stream, &offsets64));
  gcol_detail_case_sizes_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                  GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(s, (int)op,
                                                                   (int64_t *)offsets64->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_offsets_from_sizes((int64_t *)offsets64->data, n, &total, 1, stream,
                                                 mr, offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, chars));
  gcol_detail_case_write_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE),
                                  GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(
      s, (int)op, (const int64_t *)offsets64->data, 0, (char *)(*chars)->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  gcol_buffer_free(offsets64);
  return status;
}

extern "C" gcol_status gcol_strings_convert_case(gcol_column_view input, gcol_case_op op,
                                                 gcol_column **out, gcol_stream stream,
                                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *offsets = NULL;
  gcol_buffer *chars = NULL, *mask = NULL;
  int64_t null_count = 0, begin = 0, end = 0;
  bool ascii = false;
  gcol_strings_view s;
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_convert_case");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_CHECK((int)op >= (int)GCOL_CASE_UPPER && (int)op <= (int)GCOL_CASE_TITLE,
                    GCOL_ERROR_INVALID_ARGUMENT, "op %d is not a gcol_case_op", (int)op);
  if (input.size == 0) {
    GCOL_DETAIL_TRY(gcol_column_empty_like(input, stream, mr, out));
    goto done;
  }
  GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
  GCOL_DETAIL_TRY(rows_are_ascii(input, stream, &begin, &end, &ascii));
  if (ascii) {
    GCOL_DETAIL_TRY(convert_ascii(input, s, op, begin, end, stream, mr, &offsets, &chars));
  } else {
    GCOL_DETAIL_TRY(convert_general(input, s, op, stream, mr, &offsets, &chars));
  }
  GCOL_DETAIL_TRY(gcol_detail_copy_validity(input, stream, mr, &mask, &null_count));
  GCOL_DETAIL_TRY(gcol_column_make_strings(input.size, offsets, chars, mask, null_count, out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
