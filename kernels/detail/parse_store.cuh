/*
 * Text to a number, stored: the one parse of an integral or floating field for every reader
 * of text (the STRING -> number cast, the CSV reader's number columns).
 */
#ifndef GCOL_KERNELS_DETAIL_PARSE_STORE_CUH
#define GCOL_KERNELS_DETAIL_PARSE_STORE_CUH

#include "detail/element_io.cuh"
#include "detail/string_convert.h"

/* Parses text[0, len) as out's type (integral of `bits` bits, signed or not, or FLOAT32 /
 * FLOAT64) into element i of out; a field not `present` or not a number stores 0 (so no
 * undefined byte lies under a null). Returns whether it stored a number. */
static __device__ __forceinline__ bool gcol_detail_parse_store(const gcol_detail_result &out,
                                                               int64_t i, const char *text,
                                                               int64_t len, int bits,
                                                               bool is_unsigned, bool present) {
  bool valid = false;
  if (out.kind == GCOL_DETAIL_KIND_FLOAT && out.width == 4) {
    float f = 0.0f; /* rounded once from the text: a double in between could round twice */
    valid = present && gcol_detail_parse_float(text, len, &f);
    gcol_detail_store(out, i, valid ? (double)f : 0.0);
  } else if (out.kind == GCOL_DETAIL_KIND_FLOAT) {
    double d = 0.0;
    valid = present && gcol_detail_parse_double(text, len, &d);
    gcol_detail_store(out, i, valid ? d : 0.0);
  } else {
    uint64_t v = 0;
    valid = present && gcol_detail_parse_int(text, len, bits, is_unsigned, &v);
    gcol_detail_store(out, i, valid ? v : (uint64_t)0);
  }
  return valid;
}

#endif /* GCOL_KERNELS_DETAIL_PARSE_STORE_CUH */
