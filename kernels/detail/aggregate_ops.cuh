/*
 * Device functors of reductions, segmented reductions and scans: per-row maps (null rows
 * give the operator's identity, so nothing is compacted) and the binary operators handed
 * to CUB. One functor per accumulator type serves every input type through the run-time
 * typed reader of reduce_detail.h, which keeps CUB instantiations few.
 */
#ifndef GCOL_KERNELS_DETAIL_AGGREGATE_OPS_CUH
#define GCOL_KERNELS_DETAIL_AGGREGATE_OPS_CUH

#include "detail/aggregate.h"

/* Row i -> uint64 accumulator value (identity for nulls). */
typedef struct gcol_detail_row_u64 {
  gcol_detail_reader reader;
  int32_t mode;
  uint64_t identity;
  __host__ __device__ uint64_t operator()(int64_t i) const {
    if (!gcol_detail_reader_valid(reader, i)) return identity;
    return gcol_detail_map_u64(reader, mode, i);
  }
} gcol_detail_row_u64;

/* Row i -> double accumulator value. */
typedef struct gcol_detail_row_f64 {
  gcol_detail_reader reader;
  int32_t mode;
  double identity;
  __host__ __device__ double operator()(int64_t i) const {
    if (!gcol_detail_reader_valid(reader, i)) return identity;
    return gcol_detail_map_f64(reader, mode, i);
  }
} gcol_detail_row_f64;

/* Row i -> its moments {1, x, 0} (nulls: {0, 0, 0}). */
typedef struct gcol_detail_row_moments {
  gcol_detail_reader reader;
  __host__ __device__ gcol_detail_moments operator()(int64_t i) const {
    if (!gcol_detail_reader_valid(reader, i)) return gcol_detail_moments_make(0, 0, 0);
    return gcol_detail_moments_make(1, gcol_detail_reader_f64(reader, i), 0);
  }
} gcol_detail_row_moments;

/* Row i -> {key or ~key, i} (nulls: {0, NO_INDEX}, which loses every comparison). */
typedef struct gcol_detail_row_key_index {
  gcol_detail_reader reader;
  int32_t mode;
  __host__ __device__ gcol_detail_key_index operator()(int64_t i) const {
    gcol_detail_key_index r;
    if (!gcol_detail_reader_valid(reader, i)) {
      r.key = 0;
      r.index = GCOL_DETAIL_NO_INDEX;
    } else {
      r.key = gcol_detail_map_u64(reader, mode, i);
      r.index = i;
    }
    return r;
  }
} gcol_detail_row_key_index;

typedef struct gcol_detail_plus_u64 {
  __host__ __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return a + b; }
} gcol_detail_plus_u64;

typedef struct gcol_detail_times_u64 {
  __host__ __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return a * b; }
} gcol_detail_times_u64;

typedef struct gcol_detail_max_u64 {
  __host__ __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return a > b ? a : b; }
} gcol_detail_max_u64;

typedef struct gcol_detail_plus_f64 {
  __host__ __device__ double operator()(double a, double b) const { return a + b; }
} gcol_detail_plus_f64;

typedef struct gcol_detail_times_f64 {
  __host__ __device__ double operator()(double a, double b) const { return a * b; }
} gcol_detail_times_f64;

typedef struct gcol_detail_merge_moments {
  __host__ __device__ gcol_detail_moments operator()(gcol_detail_moments a,
                                                     gcol_detail_moments b) const {
    return gcol_detail_moments_merge(a, b);
  }
} gcol_detail_merge_moments;

typedef struct gcol_detail_max_key_index {
  __host__ __device__ gcol_detail_key_index operator()(gcol_detail_key_index a,
                                                       gcol_detail_key_index b) const {
    return gcol_detail_key_index_max(a, b);
  }
} gcol_detail_max_key_index;

#endif /* GCOL_KERNELS_DETAIL_AGGREGATE_OPS_CUH */
