/*
 * Expression evaluation (include/gcol/expression.h): one kernel per expression.
 *
 * The host compiles the tree into a register-machine program (expression_compile.c),
 * uploads its instructions and column descriptors in one copy, and one grid-stride kernel
 * interprets it. Each block copies the program into shared memory; each thread's slots
 * live there too, slot s of thread t at [s * blockDim + t] (no bank conflicts, and a slot
 * index chosen at run time costs no local memory). Every thread of a warp runs the same
 * instruction, so the interpreter's dispatch does not diverge.
 *
 * Two instantiations per output: with validity tracking, and without, for the common case
 * where no referenced column has a null and no instruction can make one (then no mask is
 * read or written and compute_column does not synchronize).
 *
 * compute_column writes the value (0 under nulls) and, with nulls, the mask a warp word
 * at a time (a warp's rows are 32 consecutive rows starting at a multiple of 32, so a ballot
 * is one mask word) and counts the nulls. filter_expression writes a keep flag per row and
 * hands it to filtering's compaction (gcol_detail_select_rows).
 */
#include <algorithm>

#include "common.cuh"
#include "detail/compaction.h"
#include "detail/scan.h"
#include "expression/expression_program.h"
#include "gcol/expression.h"
#include "gcol/filtering.h"
#include "gcol/indexalator.h"

namespace {

constexpr int kBlock = 256;
constexpr unsigned int kMaxBlocks = 8192;

enum output_mode { OUTPUT_COLUMN = 0, OUTPUT_FLAGS = 1 };

/* Stores v[r] as T at row[r], for the rows below @p rows. */
template <typename T, int Rows>
__device__ __forceinline__ void store_as(void *out, const int64_t *row, int64_t rows,
                                         const uint64_t *v) {
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    if (row[r] < rows) ((T *)out)[row[r]] = (T)v[r];
  }
}

/* Writes slot values v[r] as elements row[r] (those below @p rows) of an output of type
 * @p type of @p width bytes: the storage is decided once for the Rows rows, not once per row. */
template <int Rows>
__device__ __forceinline__ void store_rows(void *out, int type, int width, const int64_t *row,
                                           int64_t rows, const uint64_t *v) {
  if (type == GCOL_FLOAT32) {
    float f[Rows];
#pragma unroll
    for (int r = 0; r < Rows; ++r) f[r] = (float)gcol_detail_f64_from_bits(v[r]);
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      if (row[r] < rows) ((float *)out)[row[r]] = f[r];
    }
    return;
  }
  switch (width) { /* a FLOAT64 slot value is its storage */
    case 1:
      store_as<uint8_t, Rows>(out, row, rows, v);
      break;
    case 2:
      store_as<uint16_t, Rows>(out, row, rows, v);
      break;
    case 4:
      store_as<uint32_t, Rows>(out, row, rows, v);
      break;
    default:
      store_as<uint64_t, Rows>(out, row, rows, v);
      break;
  }
}

/*
 * A program's instructions followed by its column descriptors, as 64-bit words: passed to
 * the kernel by value (a __grid_constant__ parameter, read in place) when it fits, which
 * costs no allocation and no copy; a larger program is copied to a device buffer.
 */
constexpr int kInlineWords = 160; /* 1280 bytes: e.g. 48 instructions and 16 columns */
struct inline_program {
  uint64_t words[kInlineWords];
};

__host__ __device__ inline int32_t program_words(int32_t num_instructions, int32_t num_columns) {
  return num_instructions * (int32_t)(sizeof(gcol_detail_expr_instr) / 8) +
         num_columns * (int32_t)(sizeof(gcol_detail_expr_column) / 8);
}

/* Copies the program (by-value parameter or device buffer) to the block's shared memory,
 * laid out as expr_eval_smem_kernel's; returns the slots. Synchronizes the block. */
__device__ __forceinline__ uint64_t *stage_program(uint64_t *smem, const inline_program &inl,
                                                   const uint64_t *program,
                                                   int32_t num_instructions, int32_t num_columns) {
  const uint64_t *src = program != NULL ? program : inl.words;
  int32_t const words = program_words(num_instructions, num_columns);
  for (int32_t w = threadIdx.x; w < words; w += blockDim.x) smem[w] = src[w];
  __syncthreads();
  return smem + words;
}

/*
 * Shared memory: the instructions, the column descriptors, then the slots: slot s of a
 * thread's row r (of Rows) at [(s * Rows + r) * blockDim + thread]. Each thread takes Rows
 * rows per pass (tile of Rows * blockDim rows, row r at tile + r * blockDim + thread, so
 * every load is coalesced) and runs each instruction on all of them: Rows independent loads
 * in flight per thread, and one dispatch per instruction for Rows rows.
 * Mode OUTPUT_COLUMN writes `out` (type out_type), and with TrackNulls `out_mask` and the
 * null count; OUTPUT_FLAGS writes one byte a row to `out` (1 where the value is valid and
 * non-zero).
 */
template <bool TrackNulls, int Mode, int Rows>
__global__ void __launch_bounds__(kBlock)
    expr_eval_smem_kernel(const __grid_constant__ inline_program inl, const uint64_t *program,
                          int32_t num_instructions, int32_t num_columns, int64_t rows, void *out,
                          int out_type, int out_width, uint32_t *out_mask,
                          unsigned long long *null_count) {
  extern __shared__ uint64_t smem[];
  const gcol_detail_expr_instr *ins = (const gcol_detail_expr_instr *)smem;
  const gcol_detail_expr_column *cols = (const gcol_detail_expr_column *)(ins + num_instructions);
  __shared__ unsigned long long block_nulls;
  if (threadIdx.x == 0) block_nulls = 0;
  uint64_t *slots = stage_program(smem, inl, program, num_instructions, num_columns) + threadIdx.x;
  int const lane = (int)(threadIdx.x & 31u);
  int64_t const tile = (int64_t)Rows * kBlock; /* launched with kBlock threads */
  int64_t const slot_stride = tile;            /* from slot s to slot s + 1 of one row */
  unsigned long long nulls = 0;
  for (int64_t first = (int64_t)blockIdx.x * tile; first < rows;
       first += (int64_t)gridDim.x * tile) {
    int64_t row[Rows];  /* the rows evaluated: past the end, the last row again */
    int64_t dest[Rows]; /* the rows written (those below rows) */
    uint32_t valid[Rows];
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      dest[r] = first + (int64_t)r * kBlock + threadIdx.x;
      row[r] = dest[r] < rows ? dest[r] : rows - 1;
      valid[r] = 0;
    }
    /* One dispatch per instruction for the Rows rows (gcol_detail_expr_step_rows: a typed
     * loop for the common instructions). The strides are constants (kBlock threads). */
    for (int32_t k = 0; k < num_instructions; ++k) {
      gcol_detail_expr_step_rows(ins[k], cols, row, Rows, slots, kBlock, slot_stride, TrackNulls,
                                 valid);
    }
    uint64_t value[Rows];
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      bool const ok = dest[r] < rows && (!TrackNulls || (valid[r] & 1u) != 0);
      value[r] = ok ? slots[(int64_t)r * kBlock] : 0;
    }
    if (Mode == OUTPUT_COLUMN) store_rows<Rows>(out, out_type, out_width, dest, rows, value);
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      int64_t const i = dest[r];
      bool const active = i < rows;
      bool const ok = active && (!TrackNulls || (valid[r] & 1u) != 0);
      if (Mode == OUTPUT_FLAGS) {
        if (active) ((uint8_t *)out)[i] = (ok && value[r] != 0) ? 1 : 0;
      } else {
        if (TrackNulls) {
          unsigned const ballot = __ballot_sync(0xFFFFFFFFu, ok);
          int64_t const word_first = i - lane; /* a multiple of 32: this warp's first row */
          if (lane == 0 && word_first < rows) {
            out_mask[word_first >> 5] = ballot;
            int64_t const in_word = rows - word_first < 32 ? rows - word_first : 32;
            nulls += (unsigned long long)(in_word - __popc(ballot));
          }
        }
      }
    }
  }
  if (Mode == OUTPUT_COLUMN && TrackNulls) {
    if (lane == 0 && nulls != 0) atomicAdd(&block_nulls, nulls);
    __syncthreads();
    if (threadIdx.x == 0 && block_nulls != 0) atomicAdd(null_count, block_nulls);
  }
}

/*
 * Conditional join kernels: one grid-stride loop over the work items (see
 * gcol_detail_join_shape in expression_program.h, which holds the per-item work the host
 * tests run too). counts has items + 1 entries; the last is 0 so that the exclusive sum ends
 * with the total.
 */
template <bool TrackNulls>
__global__ void __launch_bounds__(kBlock)
    cond_join_count_smem_kernel(const __grid_constant__ inline_program inl, const uint64_t *program,
                                int32_t num_instructions, int32_t num_columns,
                                gcol_detail_join_shape shape, int kind, int64_t *counts,
                                uint8_t *unmatched_right) {
  extern __shared__ uint64_t smem[];
  uint64_t *slots = stage_program(smem, inl, program, num_instructions, num_columns) + threadIdx.x;
  const gcol_detail_expr_instr *ins = (const gcol_detail_expr_instr *)smem;
  const gcol_detail_expr_column *cols = (const gcol_detail_expr_column *)(ins + num_instructions);
  int64_t const items = shape.left_rows * shape.parts;
  GCOL_DETAIL_GRID_LOOP(item, items) {
    counts[item] = gcol_detail_join_count_item(ins, num_instructions, cols, shape, kind, item,
                                               slots, blockDim.x, TrackNulls, unmatched_right);
  }
  if (gcol_detail_thread_index() == 0) counts[items] = 0;
}

__global__ void cond_join_settle_kernel(gcol_detail_join_shape shape, int kind, int64_t *counts) {
  GCOL_DETAIL_GRID_LOOP(i, shape.left_rows) gcol_detail_join_settle_row(shape, kind, i, counts);
}

template <bool TrackNulls>
__global__ void __launch_bounds__(kBlock)
    cond_join_write_smem_kernel(const __grid_constant__ inline_program inl, const uint64_t *program,
                                int32_t num_instructions, int32_t num_columns,
                                gcol_detail_join_shape shape, int kind, const int64_t *offsets,
                                bool wide, void *left_map, void *right_map) {
  extern __shared__ uint64_t smem[];
  uint64_t *slots = stage_program(smem, inl, program, num_instructions, num_columns) + threadIdx.x;
  const gcol_detail_expr_instr *ins = (const gcol_detail_expr_instr *)smem;
  const gcol_detail_expr_column *cols = (const gcol_detail_expr_column *)(ins + num_instructions);
  GCOL_DETAIL_GRID_LOOP(item, shape.left_rows * shape.parts) {
    gcol_detail_join_write_item(ins, num_instructions, cols, shape, kind, item, offsets, wide,
                                left_map, right_map, slots, blockDim.x, TrackNulls);
  }
}

/* A full join's right-only rows: (-1, right_rows[k]) at first + k. */
__global__ void cond_join_append_right_kernel(const int64_t *right_rows, int64_t count,
                                              int64_t first, bool wide, void *left_map,
                                              void *right_map) {
  GCOL_DETAIL_GRID_LOOP(k, count) {
    gcol_detail_join_store_index(left_map, wide, first + k, -1);
    gcol_detail_join_store_index(right_map, wide, first + k, right_rows[k]);
  }
}

/* A compiled expression bound to a table's columns, ready for the kernel. */
typedef struct bound_expression {
  gcol_detail_expr_program *program; /* host */
  inline_program inl;                /* the program, when it fits */
  gcol_buffer *device_program;       /* the program, when it does not */
  bool track_nulls;
} bound_expression;

/* Rows per thread and pass: 4 while their slots fit in 32 KiB (a program of at most 4
 * slots: every benchmark shape), else 1 (at most 16 slots, 32 KiB). */
constexpr int kBatchRows = 4;
constexpr int kBatchMaxSlots = 4;

template <bool TrackNulls, int Mode, int Rows>
void launch_eval_rows(const bound_expression *b, int64_t rows, void *out, uint32_t *out_mask,
                      unsigned long long *null_count, cudaStream_t s) {
  const gcol_detail_expr_program *p = b->program;
  size_t const smem = (size_t)program_words(p->num_instructions, p->num_columns) * 8 +
                      (size_t)p->num_slots * Rows * kBlock * sizeof(uint64_t);
  unsigned int const blocks =
      std::min(gcol_detail_grid_size((rows + Rows - 1) / Rows, kBlock), kMaxBlocks);
  expr_eval_smem_kernel<TrackNulls, Mode, Rows><<<blocks, kBlock, smem, s>>>(
      b->inl, b->device_program != NULL ? (const uint64_t *)b->device_program->data : NULL,
      p->num_instructions, p->num_columns, rows, out, (int)p->out_type.id,
      (int)gcol_type_size(p->out_type.id), out_mask, null_count);
}

template <bool TrackNulls, int Mode>
void launch_eval(const bound_expression *b, int64_t rows, void *out, uint32_t *out_mask,
                 unsigned long long *null_count, cudaStream_t s) {
  if (b->program->num_slots <= kBatchMaxSlots) {
    launch_eval_rows<TrackNulls, Mode, kBatchRows>(b, rows, out, out_mask, null_count, s);
  } else {
    launch_eval_rows<TrackNulls, Mode, 1>(b, rows, out, out_mask, null_count, s);
  }
}

void bound_free(bound_expression *b) {
  free(b->program);
  gcol_buffer_free(b->device_program);
  b->program = NULL;
  b->device_program = NULL;
}

/* The view of the program's column @p k: a column of @p left or of @p right. */
gcol_column_view program_column(const gcol_detail_expr_program *p, gcol_table_view left,
                                const gcol_table_view *right, int32_t k) {
  return p->column_side[k] == GCOL_EXPRESSION_RIGHT ? right->columns[p->column_index[k]]
                                                    : left.columns[p->column_index[k]];
}

/* Compiles @p expr against the types of @p left (and of @p right, when not NULL); host only,
 * nothing is allocated on the device. */
gcol_status bind(gcol_table_view left, const gcol_table_view *right, const gcol_expression *expr,
                 int32_t root, bound_expression *b) {
  gcol_status status = GCOL_OK;
  gcol_data_type *types = NULL;
  int32_t const num_right = right != NULL ? right->num_columns : 0;
  b->program = NULL;
  b->device_program = NULL;
  b->track_nulls = false;
  GCOL_DETAIL_CHECK_NOT_NULL(expr);
  types =
      (gcol_data_type *)malloc(sizeof(gcol_data_type) * (size_t)(left.num_columns + num_right + 1));
  b->program = (gcol_detail_expr_program *)malloc(sizeof(gcol_detail_expr_program));
  GCOL_DETAIL_CHECK(types != NULL && b->program != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory to compile an expression");
  for (int32_t c = 0; c < left.num_columns; ++c) types[c] = left.columns[c].type;
  for (int32_t c = 0; c < num_right; ++c) types[left.num_columns + c] = right->columns[c].type;
  GCOL_DETAIL_TRY(gcol_detail_expr_compile(expr, root, types, left.num_columns,
                                           types + left.num_columns, num_right, b->program));
  b->track_nulls = b->program->can_make_nulls;
  for (int32_t k = 0; k < b->program->num_columns; ++k) {
    gcol_column_view const v = program_column(b->program, left, right, k);
    if (v.null_mask != NULL && v.null_count != 0) b->track_nulls = true;
  }
done:
  free(types);
  if (status != GCOL_OK) bound_free(b);
  return status;
}

/* Lays out the program's instructions and its columns' descriptors for the kernel: in the
 * by-value parameter when they fit, else in a device buffer. */
gcol_status upload(gcol_table_view left, const gcol_table_view *right, gcol_stream stream,
                   bound_expression *b) {
  gcol_status status = GCOL_OK;
  unsigned char *staging = NULL;
  size_t const ins_bytes = (size_t)b->program->num_instructions * sizeof(gcol_detail_expr_instr);
  size_t const bytes =
      (size_t)program_words(b->program->num_instructions, b->program->num_columns) * 8;
  bool const fits = bytes <= sizeof b->inl.words;
  memset(&b->inl, 0, sizeof b->inl);
  staging = fits ? (unsigned char *)b->inl.words : (unsigned char *)malloc(bytes);
  GCOL_DETAIL_CHECK(staging != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory to stage an expression");
  memcpy(staging, b->program->instructions, ins_bytes);
  for (int32_t k = 0; k < b->program->num_columns; ++k) {
    gcol_column_view v = program_column(b->program, left, right, k);
    gcol_detail_expr_column c;
    memset(&c, 0, sizeof c);
    if (v.null_count == 0) v.null_mask = NULL; /* no nulls: no mask to read */
    c.reader = gcol_detail_reader_make(v);
    c.side = (int32_t)b->program->column_side[k];
    memcpy(staging + ins_bytes + (size_t)k * sizeof c, &c, sizeof c);
  }
  if (!fits) {
    GCOL_DETAIL_TRY(gcol_buffer_create(bytes, stream, NULL, &b->device_program));
    /* From pageable memory: staged before the call returns, so `staging` may go. */
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(b->device_program->data, staging, bytes,
                                         cudaMemcpyHostToDevice, (cudaStream_t)stream));
  }
done:
  if (!fits) free(staging);
  return status;
}

gcol_status compute_column(gcol_table_view input, const gcol_expression *expr, int32_t root,
                           gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  bound_expression b;
  memset(&b, 0, sizeof b);
  gcol_column *result = NULL;
  gcol_buffer *counter = NULL;
  unsigned long long nulls = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = input.num_rows;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_validate_table(input, "input"));
  GCOL_DETAIL_TRY(bind(input, NULL, expr, root, &b));
  if (n == 0) {
    GCOL_DETAIL_TRY(
        gcol_column_create(b.program->out_type, 0, GCOL_MASK_UNALLOCATED, stream, mr, &result));
    goto finish;
  }
  GCOL_DETAIL_TRY(upload(input, NULL, stream, &b));
  GCOL_DETAIL_TRY(gcol_column_create(
      b.program->out_type, n, b.track_nulls ? GCOL_MASK_UNINITIALIZED : GCOL_MASK_UNALLOCATED,
      stream, mr, &result));
  if (b.track_nulls) {
    GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(unsigned long long), stream, NULL, &counter));
    GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(counter->data, 0, sizeof(unsigned long long), s));
    launch_eval<true, OUTPUT_COLUMN>(&b, n, result->data->data, (uint32_t *)result->null_mask->data,
                                     (unsigned long long *)counter->data, s);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(&nulls, counter->data, sizeof nulls, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
    GCOL_DETAIL_TRY(gcol_column_set_null_count(result, (int64_t)nulls));
  } else {
    launch_eval<false, OUTPUT_COLUMN>(&b, n, result->data->data, NULL, NULL, s);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
finish:
  *out = result;
  result = NULL;
done:
  gcol_column_free(result);
  gcol_buffer_free(counter);
  bound_free(&b);
  return status;
}

gcol_status filter_expression(gcol_table_view input, const gcol_expression *expr, int32_t root,
                              gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  bound_expression b;
  memset(&b, 0, sizeof b);
  gcol_buffer *flags = NULL;
  char type_name[48];
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const n = input.num_rows;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_validate_table(input, "input"));
  GCOL_DETAIL_TRY(bind(input, NULL, expr, root, &b));
  gcol_data_type_format(b.program->out_type, type_name, sizeof type_name);
  GCOL_DETAIL_CHECK(b.program->out_type.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "the predicate (node %d) is %s, not bool8", (int)root, type_name);
  if (n == 0) { /* no flags: the compaction gives every column with 0 rows */
    status = gcol_detail_select_rows(input, NULL, NULL, 0, stream, mr, out);
    goto done;
  }
  /* The flags are a BOOL8 column without nulls: filtering's own entry point picks its path
   * (the tiled select for tables of fixed-width columns, nulls or not, else row map and
   * gather). */
  GCOL_DETAIL_TRY(upload(input, NULL, stream, &b));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n, stream, NULL, &flags));
  if (b.track_nulls) {
    launch_eval<true, OUTPUT_FLAGS>(&b, n, flags->data, NULL, NULL, s);
  } else {
    launch_eval<false, OUTPUT_FLAGS>(&b, n, flags->data, NULL, NULL, s);
  }
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_apply_boolean_mask(
      input, gcol_column_view_make(gcol_data_type_make(GCOL_BOOL8), n, flags->data, NULL, 0), out,
      stream, mr));
done:
  gcol_buffer_free(flags);
  bound_free(&b);
  return status;
}

/* Work items of a conditional join: about 2^18, chunks of at least 32 right rows. */
constexpr int64_t kJoinTargetItems = (int64_t)1 << 18;
constexpr int64_t kMinChunk = 32;

/* Smem of the conditional join's kernels: the program and the slots. */
size_t join_smem(const gcol_detail_expr_program *p) {
  return (size_t)program_words(p->num_instructions, p->num_columns) * 8 +
         (size_t)p->num_slots * kBlock * sizeof(uint64_t);
}

gcol_status conditional_join(gcol_table_view left, gcol_table_view right,
                             const gcol_expression *expr, int32_t root, gcol_join_kind kind,
                             gcol_column **left_map, gcol_column **right_map, gcol_stream stream,
                             gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  bound_expression b;
  gcol_buffer *counts = NULL;
  gcol_column *lmap = NULL, *rmap = NULL;
  char type_name[48];
  int64_t total = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const nl = left.num_rows, nr = right.num_rows;
  bool const pairs = kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL;
  bool const full = kind == GCOL_JOIN_FULL;
  gcol_buffer *unmatched = NULL, *right_only = NULL;
  int64_t left_total = 0, right_only_count = 0;
  gcol_data_type const index_type = gcol_data_type_make(gcol_index_type_for(nl > nr ? nl : nr));
  bool const wide = index_type.id == GCOL_INT64;
  gcol_detail_join_shape const shape =
      gcol_detail_join_shape_make(nl, nr, kJoinTargetItems, kMinChunk);
  int64_t const items = nl * shape.parts;
  unsigned int const blocks =
      std::min(gcol_detail_grid_size(items > 0 ? items : 1, kBlock), kMaxBlocks);
  memset(&b, 0, sizeof b);
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  if (right_map != NULL) *right_map = NULL;
  GCOL_DETAIL_CHECK(kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL ||
                        kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI,
                    GCOL_ERROR_INVALID_ARGUMENT, "kind is %d, not a gcol_join_kind", (int)kind);
  GCOL_DETAIL_CHECK(!pairs || right_map != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                    "right_map is NULL for an inner, left or full join");
  GCOL_DETAIL_TRY(gcol_detail_validate_table(left, "left"));
  GCOL_DETAIL_TRY(gcol_detail_validate_table(right, "right"));
  GCOL_DETAIL_TRY(bind(left, &right, expr, root, &b));
  gcol_data_type_format(b.program->out_type, type_name, sizeof type_name);
  GCOL_DETAIL_CHECK(b.program->out_type.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "the predicate (node %d) is %s, not bool8", (int)root, type_name);
  if (nl > 0) {
    GCOL_DETAIL_TRY(upload(left, &right, stream, &b));
    GCOL_DETAIL_TRY(
        gcol_buffer_create((size_t)(items + 1) * sizeof(int64_t), stream, NULL, &counts));
    if (full && nr > 0) { /* 1 per right row until a left row matches it */
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)nr, stream, NULL, &unmatched));
      GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(unmatched->data, 1, (size_t)nr, s));
    }
    if (b.track_nulls) {
      cond_join_count_smem_kernel<true><<<blocks, kBlock, join_smem(b.program), s>>>(
          b.inl, b.device_program != NULL ? (const uint64_t *)b.device_program->data : NULL,
          b.program->num_instructions, b.program->num_columns, shape, (int)kind,
          (int64_t *)counts->data, unmatched != NULL ? (uint8_t *)unmatched->data : NULL);
    } else {
      cond_join_count_smem_kernel<false><<<blocks, kBlock, join_smem(b.program), s>>>(
          b.inl, b.device_program != NULL ? (const uint64_t *)b.device_program->data : NULL,
          b.program->num_instructions, b.program->num_columns, shape, (int)kind,
          (int64_t *)counts->data, unmatched != NULL ? (uint8_t *)unmatched->data : NULL);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    if (kind != GCOL_JOIN_INNER) {
      cond_join_settle_kernel<<<gcol_detail_grid_size(nl, kBlock), kBlock, 0, s>>>(
          shape, (int)kind, (int64_t *)counts->data);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
    GCOL_DETAIL_TRY(gcol_detail_exclusive_sum_i64((const int64_t *)counts->data,
                                                  (int64_t *)counts->data, items + 1, stream));
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&left_total, (const int64_t *)counts->data + items,
                                         sizeof left_total, cudaMemcpyDeviceToHost, s));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  }
  if (full && nr > 0) {      /* the right rows no left row matched, ascending */
    if (unmatched == NULL) { /* no left rows: every right row */
      GCOL_DETAIL_TRY(gcol_buffer_create((size_t)nr, stream, NULL, &unmatched));
      GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(unmatched->data, 1, (size_t)nr, s));
    }
    GCOL_DETAIL_TRY(gcol_detail_flags_to_map((const uint8_t *)unmatched->data, NULL, 0, nr, stream,
                                             &right_only, &right_only_count));
  }
  total = left_total + right_only_count;
  GCOL_DETAIL_TRY(gcol_column_create(index_type, total, GCOL_MASK_UNALLOCATED, stream, mr, &lmap));
  if (pairs) {
    GCOL_DETAIL_TRY(
        gcol_column_create(index_type, total, GCOL_MASK_UNALLOCATED, stream, mr, &rmap));
  }
  if (left_total > 0) {
    void *const rdata = rmap != NULL ? rmap->data->data : NULL;
    if (b.track_nulls) {
      cond_join_write_smem_kernel<true><<<blocks, kBlock, join_smem(b.program), s>>>(
          b.inl, b.device_program != NULL ? (const uint64_t *)b.device_program->data : NULL,
          b.program->num_instructions, b.program->num_columns, shape, (int)kind,
          (const int64_t *)counts->data, wide, lmap->data->data, rdata);
    } else {
      cond_join_write_smem_kernel<false><<<blocks, kBlock, join_smem(b.program), s>>>(
          b.inl, b.device_program != NULL ? (const uint64_t *)b.device_program->data : NULL,
          b.program->num_instructions, b.program->num_columns, shape, (int)kind,
          (const int64_t *)counts->data, wide, lmap->data->data, rdata);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (right_only_count > 0) {
    cond_join_append_right_kernel<<<gcol_detail_grid_size(right_only_count, kBlock), kBlock, 0,
                                    s>>>((const int64_t *)right_only->data, right_only_count,
                                         left_total, wide, lmap->data->data, rmap->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *left_map = lmap;
  if (right_map != NULL) *right_map = rmap;
  lmap = NULL;
  rmap = NULL;
done:
  gcol_column_free(lmap);
  gcol_column_free(rmap);
  gcol_buffer_free(counts);
  gcol_buffer_free(unmatched);
  gcol_buffer_free(right_only);
  bound_free(&b);
  return status;
}

}  // namespace

extern "C" gcol_status gcol_compute_column(gcol_table_view input, const gcol_expression *expr,
                                           int32_t root, gcol_column **out, gcol_stream stream,
                                           gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_compute_column");
  status = compute_column(input, expr, root, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_filter_expression(gcol_table_view input, const gcol_expression *expr,
                                              int32_t root, gcol_table **out, gcol_stream stream,
                                              gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_filter_expression");
  status = filter_expression(input, expr, root, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_conditional_join(gcol_table_view left, gcol_table_view right,
                                             const gcol_expression *expr, int32_t root,
                                             gcol_join_kind kind, gcol_column **left_map,
                                             gcol_column **right_map, gcol_stream stream,
                                             gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_conditional_join");
  status = conditional_join(left, right, expr, root, kind, left_map, right_map, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
