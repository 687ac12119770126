/*
 * gcol_hash (include/gcol/hashing.h): one published hash per row, chained over the columns
 * (kernels/detail/row_hash.cuh), one thread a row. MD5 and SHA-256 stream the row's
 * canonical element bytes through a per-thread digest (digest.h) and write fixed-width hex
 * strings.
 */
#include "detail/row_hash.cuh"
#include "gcol/hashing.h"
#include "gcol/indexalator.h"
#include "hashing/digest.h"

namespace {

__global__ void murmur3_kernel(const gcol_detail_hash_column *cols, int32_t num_cols, int64_t n,
                               uint32_t seed, bool spark, uint32_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    out[i] = gcol_detail_row_hash_murmur3(cols, num_cols, i, seed, spark);
  }
}

__global__ void xxhash64_kernel(const gcol_detail_hash_column *cols, int32_t num_cols, int64_t n,
                                uint64_t seed, uint64_t *out) {
  GCOL_DETAIL_GRID_LOOP(i, n) { out[i] = gcol_detail_row_hash_xxhash64(cols, num_cols, i, seed); }
}

/* MD5 (sha false) or SHA-256 of each row, as lowercase hex at chars + i * (32 or 64). */
__global__ void digest_kernel(const gcol_detail_hash_column *cols, int32_t num_cols, int64_t n,
                              bool sha, char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    gcol_detail_md5 md5;
    gcol_detail_sha256 sha256;
    if (sha) {
      gcol_detail_sha256_init(&sha256);
    } else {
      gcol_detail_md5_init(&md5);
    }
    for (int32_t k = 0; k < num_cols; ++k) {
      const gcol_detail_hash_column *c = &cols[k];
      if (!gcol_detail_hash_valid(c, i)) continue;
      unsigned char buf[16];
      const unsigned char *bytes = buf;
      int64_t len;
      if (c->id == GCOL_STRING) {
        gcol_string_ref const str = gcol_strings_view_get(c->strings, i);
        bytes = (const unsigned char *)str.data;
        len = str.size;
      } else {
        len = gcol_detail_hash_element_bytes(c, i, buf);
      }
      if (sha) {
        gcol_detail_sha256_update(&sha256, bytes, len);
      } else {
        gcol_detail_md5_update(&md5, bytes, len);
      }
    }
    unsigned char digest[32];
    if (sha) {
      gcol_detail_sha256_final(&sha256, digest);
      gcol_detail_digest_hex(digest, 32, chars + i * 64);
    } else {
      gcol_detail_md5_final(&md5, digest);
      gcol_detail_digest_hex(digest, 16, chars + i * 32);
    }
  }
}

template <typename T>
__global__ void fixed_offsets_kernel(T *offsets, int64_t count, int64_t width) {
  GCOL_DETAIL_GRID_LOOP(i, count) { offsets[i] = (T)(i * width); }
}

/* The STRING output of MD5 / SHA-256: n rows of `width` hex characters. */
gcol_status digest_column(const gcol_detail_hash_column *cols, int32_t num_cols, int64_t n,
                          bool sha, gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_column *offsets = NULL;
  gcol_buffer *chars = NULL;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const width = sha ? 64 : 32;
  int64_t const total = n * width;
  gcol_type_id const offsets_type =
      gcol_offsets_type_for_threshold(total, gcol_large_offsets_threshold());
  GCOL_DETAIL_CHECK(n <= INT64_MAX / 64, GCOL_ERROR_OVERFLOW, "%lld rows of digests overflow",
                    (long long)n);
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(offsets_type), n + 1,
                                     GCOL_MASK_UNALLOCATED, stream, mr, &offsets));
  if (offsets_type == GCOL_INT32) {
    fixed_offsets_kernel<<<gcol_detail_grid_size(n + 1, GCOL_DETAIL_BLOCK_SIZE),
                           GCOL_DETAIL_BLOCK_SIZE, 0, s>>>((int32_t *)offsets->data->data, n + 1,
                                                           width);
  } else {
    fixed_offsets_kernel<<<gcol_detail_grid_size(n + 1, GCOL_DETAIL_BLOCK_SIZE),
                           GCOL_DETAIL_BLOCK_SIZE, 0, s>>>((int64_t *)offsets->data->data, n + 1,
                                                           width);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  if (n > 0) {
    digest_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                    s>>>(cols, num_cols, n, sha, (char *)chars->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, NULL, 0, out));
  offsets = NULL; /* owned by *out now */
  chars = NULL;
done:
  gcol_column_free(offsets);
  gcol_buffer_free(chars);
  return status;
}

gcol_status check_input(gcol_table_view input) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(input.num_columns >= 1 && input.columns != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "input has no columns");
  GCOL_DETAIL_CHECK(input.num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT, "input has %lld rows",
                    (long long)input.num_rows);
  for (int32_t c = 0; c < input.num_columns; ++c) {
    GCOL_DETAIL_TRY(gcol_column_view_validate(input.columns[c], "input"));
    GCOL_DETAIL_CHECK(input.columns[c].size == input.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                      "input column %d has %lld rows, the table %lld", (int)c,
                      (long long)input.columns[c].size, (long long)input.num_rows);
  }
done:
  return status;
}

}  // namespace

extern "C" gcol_status gcol_hash(gcol_table_view input, gcol_hash_function fn, uint64_t seed,
                                 gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *cols = NULL;
  int32_t num_cols = 0;
  int64_t const n = input.num_rows;
  cudaStream_t const s = (cudaStream_t)stream;
  GCOL_DETAIL_NVTX_PUSH("gcol_hash");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(fn >= GCOL_HASH_MURMUR3_32 && fn <= GCOL_HASH_SHA256,
                    GCOL_ERROR_INVALID_ARGUMENT, "fn is %d, not a gcol_hash_function", (int)fn);
  GCOL_DETAIL_TRY(check_input(input));
  GCOL_DETAIL_TRY(gcol_detail_hash_columns_make(input, NULL, 0, stream, &cols, &num_cols));
  if (fn == GCOL_HASH_MD5 || fn == GCOL_HASH_SHA256) {
    GCOL_DETAIL_TRY(digest_column((const gcol_detail_hash_column *)cols->data, num_cols, n,
                                  fn == GCOL_HASH_SHA256, stream, mr, out));
    goto done;
  }
  {
    gcol_type_id const type = fn == GCOL_HASH_MURMUR3_32         ? GCOL_UINT32
                              : fn == GCOL_HASH_MURMUR3_32_SPARK ? GCOL_INT32
                                                                 : GCOL_UINT64;
    GCOL_DETAIL_TRY(
        gcol_column_create(gcol_data_type_make(type), n, GCOL_MASK_UNALLOCATED, stream, mr, out));
  }
  if (n == 0) goto done;
  if (fn == GCOL_HASH_XXHASH64) {
    xxhash64_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                      s>>>((const gcol_detail_hash_column *)cols->data, num_cols, n, seed,
                           (uint64_t *)(*out)->data->data);
  } else {
    murmur3_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                     s>>>((const gcol_detail_hash_column *)cols->data, num_cols, n, (uint32_t)seed,
                          fn == GCOL_HASH_MURMUR3_32_SPARK, (uint32_t *)(*out)->data->data);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
done:
  gcol_buffer_free(cols);
  if (status != GCOL_OK && out != NULL) {
    gcol_column_free(*out);
    *out = NULL;
  }
  GCOL_DETAIL_NVTX_POP();
  return status;
}
