/**
 * @file bitmask.h
 * @ingroup gcol_core
 * @brief Null masks in device memory: allocation, counting, copying at an offset, and
 *        combining. Inline per-bit helpers are in bits.h.
 *
 * Masks are allocated in whole 64-byte multiples with the padding zeroed, so kernels may
 * read whole words and vectors past the last row.
 */
#ifndef GCOL_BITMASK_H
#define GCOL_BITMASK_H

/** @addtogroup gcol_core
 *  @{ */

#include "gcol/bits.h"
#include "gcol/buffer.h"
#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"

GCOL_EXTERN_C_BEGIN

/** @brief Padding granularity of null-mask allocations, in bytes. */
#define GCOL_BITMASK_PADDING 64

/** @brief How a new column's null mask starts. */
typedef enum gcol_mask_state {
  GCOL_MASK_UNALLOCATED = 0,   /**< No mask: every row valid. */
  GCOL_MASK_UNINITIALIZED = 1, /**< Allocated, row bits undefined, padding zeroed. */
  GCOL_MASK_ALL_VALID = 2,     /**< Allocated, every row valid. */
  GCOL_MASK_ALL_NULL = 3       /**< Allocated, every row null. */
} gcol_mask_state;

/**
 * @brief The words of a mask buffer (gcol_bitmask_create(), gcol_bools_to_mask(), a
 *        column's `null_mask`) typed as a mask, for the calls that take one
 *        (gcol_mask_to_bools(), gcol_bitmask_count_set_bits(), views): no cast from
 *        `void *`, in C++ either. NULL for a NULL buffer (no mask: every row valid).
 */
GCOL_HD_INLINE uint32_t *gcol_bitmask_data(const gcol_buffer *mask) {
  return mask == NULL ? NULL : (uint32_t *)mask->data;
}

/**
 * @brief Bytes to allocate for a mask of @p num_bits bits: whole words rounded up to
 *        ::GCOL_BITMASK_PADDING. 0 for @p num_bits <= 0.
 */
size_t gcol_bitmask_allocation_size(int64_t num_bits);

/**
 * @brief Allocates a null mask of @p num_bits bits in state @p state.
 * @param[in] num_bits Rows (>= 0).
 * @param[in] state ::GCOL_MASK_UNINITIALIZED, ::GCOL_MASK_ALL_VALID or ::GCOL_MASK_ALL_NULL
 *                  (::GCOL_MASK_UNALLOCATED gives *out == NULL and ::GCOL_OK).
 * @param[in] stream Stream of the allocation and the fill.
 * @param[in] mr Resource, or NULL for the default.
 * @param[out] out The mask.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_bitmask_create(int64_t num_bits, gcol_mask_state state, gcol_stream stream,
                                gcol_mr *mr, gcol_buffer **out);

/**
 * @brief Counts the set bits of a device mask in `[begin, end)` at any offsets.
 * @param[in] mask Device mask; NULL counts every bit as set.
 * @param[in] begin First bit (>= 0).
 * @param[in] end One past the last bit (>= begin).
 * @param[in] stream Stream of the count.
 * @param[out] out The count (host).
 * @note Synchronizes @p stream to return the count.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (begin < 0, end < begin, NULL out), CUDA
 *         status.
 */
gcol_status gcol_bitmask_count_set_bits(const uint32_t *mask, int64_t begin, int64_t end,
                                        gcol_stream stream, int64_t *out);

/**
 * @brief Counts the unset bits (nulls) of a device mask in `[begin, end)`; 0 if @p mask is
 *        NULL. Synchronizes @p stream.
 */
gcol_status gcol_bitmask_count_unset_bits(const uint32_t *mask, int64_t begin, int64_t end,
                                          gcol_stream stream, int64_t *out);

/**
 * @brief Copies bits `[begin, end)` of @p mask into a new word-aligned mask whose bit 0 is
 *        bit @p begin of the source. Padding zeroed. Stream-ordered, no synchronization.
 * @param[in] mask Device mask (not NULL).
 * @param[in] begin First bit to copy (>= 0).
 * @param[in] end One past the last bit to copy (>= begin).
 * @param[in] stream Stream of the allocation and the copy.
 * @param[in] mr Resource of the new mask, or NULL for the default.
 * @param[out] out The new mask.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_bitmask_copy(const uint32_t *mask, int64_t begin, int64_t end,
                              gcol_stream stream, gcol_mr *mr, gcol_buffer **out);

/**
 * @brief Bitwise AND of @p num_masks masks over @p num_bits bits, each read from its own
 *        bit offset; NULL masks count as all-valid and are skipped. If every mask is NULL,
 *        *out is NULL and the null count 0.
 * @param[in] masks Host array of @p num_masks device masks (entries may be NULL).
 * @param[in] offsets Host array of their bit offsets (>= 0).
 * @param[in] num_masks Number of masks (>= 0).
 * @param[in] num_bits Bits (rows) to combine (>= 0).
 * @param[in] stream Stream of the allocation and the kernel.
 * @param[in] mr Resource of the combined mask, or NULL for the default.
 * @param[out] out The combined mask (bit 0 = first row).
 * @param[out] out_null_count If not NULL, receives the number of unset bits (synchronizes).
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT, ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 */
gcol_status gcol_bitmask_and(const uint32_t *const *masks, const int64_t *offsets,
                             int32_t num_masks, int64_t num_bits, gcol_stream stream,
                             gcol_mr *mr, gcol_buffer **out, int64_t *out_null_count);

/**
 * @brief Bitwise OR of masks, as gcol_bitmask_and(); a NULL mask makes every bit set, so
 *        the result is then NULL (no mask).
 */
gcol_status gcol_bitmask_or(const uint32_t *const *masks, const int64_t *offsets,
                            int32_t num_masks, int64_t num_bits, gcol_stream stream,
                            gcol_mr *mr, gcol_buffer **out, int64_t *out_null_count);

/**
 * @brief Sets bits `[begin, end)` of a device mask to @p valid (stream-ordered).
 */
gcol_status gcol_bitmask_set_range(uint32_t *mask, int64_t begin, int64_t end, bool valid,
                                   gcol_stream stream);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_BITMASK_H */
