/* Host-only plans of the distributed operations (lib/internal/dist.h). */
#include "internal/dist.h"

#include "internal/error.h"

void gcol_detail_dist_sample_rows(int64_t rows, int64_t count, int64_t *out) {
  /* (2i + 1) * rows / (2 count) without overflow: rows < 2^62 in practice, but split the
   * product so that any int64 row count works */
  for (int64_t i = 0; i < count; ++i) {
    int64_t const twice = 2 * i + 1;
    int64_t const den = 2 * count;
    out[i] = (rows / den) * twice + ((rows % den) * twice) / den;
  }
}

void gcol_detail_dist_splitter_rows(int64_t samples, int32_t ranks, int64_t *out) {
  for (int32_t k = 1; k < ranks; ++k) {
    out[k - 1] = (samples / ranks) * k + ((samples % ranks) * k) / ranks;
  }
}

bool gcol_detail_dist_broadcast_pays(int64_t left_bytes, int64_t right_bytes, int32_t ranks) {
  if (ranks < 2 || left_bytes < 0 || right_bytes < 0) return false;
  if (right_bytes > GCOL_DIST_BROADCAST_AUTO_MAX_BYTES) return false;
  return right_bytes * (ranks - 1) < left_bytes; /* at most 2^30 x 2^31: no overflow */
}

gcol_status gcol_detail_dist_layout(const int64_t *sizes, int32_t n, int64_t *offsets,
                                    int64_t *total) {
  int64_t at = 0;
  for (int32_t p = 0; p < n; ++p) {
    int64_t const aligned =
        (at + GCOL_DETAIL_DIST_ALIGN - 1) / GCOL_DETAIL_DIST_ALIGN * GCOL_DETAIL_DIST_ALIGN;
    if (sizes[p] < 0 || aligned < at || sizes[p] > INT64_MAX - aligned) {
      *total = 0;
      return gcol_detail_error(GCOL_ERROR_OVERFLOW, __func__,
                               "parts of %lld and more bytes exceed INT64_MAX",
                               (long long)sizes[p]);
    }
    offsets[p] = aligned;
    at = aligned + sizes[p];
  }
  *total = at;
  return GCOL_OK;
}

void gcol_detail_dist_bounds(const int64_t *positions, int32_t ranks, int64_t rows,
                             int64_t *bounds) {
  bounds[0] = 0;
  for (int32_t r = 1; r < ranks; ++r) {
    int64_t b = positions[r - 1];
    if (b < bounds[r - 1]) b = bounds[r - 1];
    if (b > rows) b = rows;
    bounds[r] = b;
  }
  bounds[ranks] = rows;
}
