/* String comparisons of binary operations: byte order (gcol_string_ref_compare), BOOL8 out. */
#include "binaryop/binaryop_kernels.h"

static __device__ __forceinline__ gcol_string_ref gcol_detail_string_get(
    const gcol_detail_string_operand &o, int64_t i) {
  return o.is_scalar ? o.scalar : gcol_strings_view_get(o.view, i);
}

static __device__ __forceinline__ bool gcol_detail_string_valid(const gcol_detail_string_operand &o,
                                                                int64_t i) {
  return o.is_scalar ? o.scalar_valid : gcol_strings_view_is_valid(o.view, i);
}

static __device__ bool gcol_detail_compare_result(int op, int c) {
  switch (op) {
    case GCOL_BINARY_NOT_EQUAL: return c != 0;
    case GCOL_BINARY_LESS: return c < 0;
    case GCOL_BINARY_LESS_EQUAL: return c <= 0;
    case GCOL_BINARY_GREATER: return c > 0;
    case GCOL_BINARY_GREATER_EQUAL: return c >= 0;
    default: return c == 0; /* EQUAL, NULL_EQUALS */
  }
}

__global__ void gcol_detail_string_compare_kernel(gcol_detail_string_operand lhs,
                                                  gcol_detail_string_operand rhs, uint8_t *out,
                                                  int32_t op, int64_t n, uint32_t *mask,
                                                  int32_t mask_mode) {
  GCOL_DETAIL_WARP_LOOP(word, i, n) {
    bool valid = false;
    if (i < n) {
      bool r;
      if (op == GCOL_BINARY_NULL_EQUALS) {
        bool const va = gcol_detail_string_valid(lhs, i), vb = gcol_detail_string_valid(rhs, i);
        r = (va && vb) ? gcol_string_ref_equal(gcol_detail_string_get(lhs, i),
                                               gcol_detail_string_get(rhs, i))
                       : va == vb;
      } else {
        int const c = gcol_string_ref_compare(gcol_detail_string_get(lhs, i),
                                              gcol_detail_string_get(rhs, i));
        r = gcol_detail_compare_result(op, c);
      }
      out[i] = r ? 1 : 0;
      valid = true;
    }
    gcol_detail_warp_mask_update(mask, mask_mode, word, valid);
  }
}

gcol_status gcol_detail_binary_launch_strings(gcol_detail_string_operand lhs,
                                              gcol_detail_string_operand rhs, uint8_t *out,
                                              int32_t op, int64_t size, uint32_t *mask,
                                              int32_t mask_mode, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  unsigned int const grid = gcol_detail_grid_size(size, GCOL_DETAIL_BLOCK_SIZE);
  gcol_detail_string_compare_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, stream>>>(
      lhs, rhs, out, op, size, mask, mask_mode);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  return status;
}
