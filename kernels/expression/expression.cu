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
 * read or written and compute_column does not synchronize); each twice again, with the
 * string opcodes and without (programs without strings run kernels holding no string code).
 *
 * compute_column writes the value (0 under nulls) and, with nulls, the mask a warp word
 * at a time (a warp's rows are 32 consecutive rows starting at a multiple of 32, so a ballot
 * is one mask word) and counts the nulls. filter_expression writes a keep flag per row and
 * hands it to filtering's compaction (gcol_detail_select_rows). Conditional joins run the
 * program over (left row, right row) pairs; mixed joins over the hash join's candidate pairs.
 */
#include <algorithm>

#include "common.cuh"
#include "detail/compaction.h"
#include "detail/scan.h"
#include "expression/expression_program.h"
#include "gcol/expression.h"
#include "gcol/filtering.h"
#include "gcol/indexalator.h"
#include "gcol/sorting.h"

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
constexpr int kInlineWords = 160; /* 1280 bytes: e.g. 24 instructions and 16 columns */
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
template <bool TrackNulls, bool Strings, int Mode, int Rows>
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
                                 Strings, valid);
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
template <bool TrackNulls, bool Strings>
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
    counts[item] =
        gcol_detail_join_count_item(ins, num_instructions, cols, shape, kind, item, slots,
                                    blockDim.x, TrackNulls, Strings, unmatched_right);
  }
  if (gcol_detail_thread_index() == 0) counts[items] = 0;
}

__global__ void cond_join_settle_kernel(gcol_detail_join_shape shape, int kind, int64_t *counts) {
  GCOL_DETAIL_GRID_LOOP(i, shape.left_rows) gcol_detail_join_settle_row(shape, kind, i, counts);
}

template <bool TrackNulls, bool Strings>
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
                                left_map, right_map, slots, blockDim.x, TrackNulls, Strings);
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
  gcol_buffer *constants;            /* its string constants (literals, LIKE patterns) */
  const gcol_expression *expr;       /* the tree (the constants' bytes) */
  bool track_nulls;
} bound_expression;

/* Rows per thread and pass: 4 while their slots fit in 32 KiB (a program of at most 4
 * slots: every benchmark shape), else 1 (at most 16 slots, 32 KiB). */
constexpr int kBatchRows = 4;
constexpr int kBatchMaxSlots = 4;

template <bool TrackNulls, bool Strings, int Mode, int Rows>
void launch_eval_rows(const bound_expression *b, int64_t rows, void *out, uint32_t *out_mask,
                      unsigned long long *null_count, cudaStream_t s) {
  const gcol_detail_expr_program *p = b->program;
  size_t const smem = (size_t)program_words(p->num_instructions, p->num_columns) * 8 +
                      (size_t)p->num_slots * Rows * kBlock * sizeof(uint64_t);
  unsigned int const blocks =
      std::min(gcol_detail_grid_size((rows + Rows - 1) / Rows, kBlock), kMaxBlocks);
  expr_eval_smem_kernel<TrackNulls, Strings, Mode, Rows><<<blocks, kBlock, smem, s>>>(
      b->inl, b->device_program != NULL ? (const uint64_t *)b->device_program->data : NULL,
      p->num_instructions, p->num_columns, rows, out, (int)p->out_type.id,
      (int)gcol_type_size(p->out_type.id), out_mask, null_count);
}

/* Programs with string opcodes run the kernels' Strings instantiations; the others, kernels
 * without any string code. */
template <bool TrackNulls, int Mode>
void launch_eval(const bound_expression *b, int64_t rows, void *out, uint32_t *out_mask,
                 unsigned long long *null_count, cudaStream_t s) {
  bool const batch = b->program->num_slots <= kBatchMaxSlots;
  if (b->program->has_strings) {
    if (batch) {
      launch_eval_rows<TrackNulls, true, Mode, kBatchRows>(b, rows, out, out_mask, null_count, s);
    } else {
      launch_eval_rows<TrackNulls, true, Mode, 1>(b, rows, out, out_mask, null_count, s);
    }
  } else if (batch) {
    launch_eval_rows<TrackNulls, false, Mode, kBatchRows>(b, rows, out, out_mask, null_count, s);
  } else {
    launch_eval_rows<TrackNulls, false, Mode, 1>(b, rows, out, out_mask, null_count, s);
  }
}

void bound_free(bound_expression *b) {
  free(b->program);
  gcol_buffer_free(b->device_program);
  gcol_buffer_free(b->constants);
  b->program = NULL;
  b->device_program = NULL;
  b->constants = NULL;
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
  b->constants = NULL;
  b->expr = expr;
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
    if (b->program->column_node[k] >= 0) continue; /* a string constant: never null */
    gcol_column_view const v = program_column(b->program, left, right, k);
    if (v.null_mask != NULL && v.null_count != 0) b->track_nulls = true;
  }
done:
  free(types);
  if (status != GCOL_OK) bound_free(b);
  return status;
}

/* Lays out the program's instructions and its columns' descriptors for the kernel: in the
 * by-value parameter when they fit, else in a device buffer. String columns are described by
 * their offsets (positioned at the view's first row) and chars; string constants (literals,
 * LIKE patterns) are copied to the device in one block, once per call. */
gcol_status upload(gcol_table_view left, const gcol_table_view *right, gcol_stream stream,
                   bound_expression *b) {
  gcol_status status = GCOL_OK;
  unsigned char *staging = NULL;
  unsigned char *constants = NULL;
  int64_t constants_size = 0;
  int64_t constant_at[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
  size_t const ins_bytes = (size_t)b->program->num_instructions * sizeof(gcol_detail_expr_instr);
  size_t const bytes =
      (size_t)program_words(b->program->num_instructions, b->program->num_columns) * 8;
  bool const fits = bytes <= sizeof b->inl.words;
  memset(&b->inl, 0, sizeof b->inl);
  staging = fits ? (unsigned char *)b->inl.words : (unsigned char *)malloc(bytes);
  GCOL_DETAIL_CHECK(staging != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory to stage an expression");
  memcpy(staging, b->program->instructions, ins_bytes);
  if (b->program->num_constants > 0) {
    GCOL_DETAIL_TRY(
        gcol_detail_expr_constants(b->expr, b->program, &constants, &constants_size, constant_at));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)constants_size, stream, NULL, &b->constants));
    /* From pageable memory: staged before the call returns, so `constants` may go. */
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(b->constants->data, constants, (size_t)constants_size,
                                         cudaMemcpyHostToDevice, (cudaStream_t)stream));
  }
  for (int32_t k = 0; k < b->program->num_columns; ++k) {
    gcol_detail_expr_column c;
    if (b->program->column_node[k] >= 0) {
      c = gcol_detail_expr_constant_column((const unsigned char *)b->constants->data,
                                           constant_at[k]);
    } else {
      c = gcol_detail_expr_column_make(program_column(b->program, left, right, k),
                                       (int32_t)b->program->column_side[k]);
    }
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
  free(constants);
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
    {
      auto const count_kernel =
          b.track_nulls ? (b.program->has_strings ? cond_join_count_smem_kernel<true, true>
                                                  : cond_join_count_smem_kernel<true, false>)
                        : (b.program->has_strings ? cond_join_count_smem_kernel<false, true>
                                                  : cond_join_count_smem_kernel<false, false>);
      count_kernel<<<blocks, kBlock, join_smem(b.program), s>>>(
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
    auto const write_kernel =
        b.track_nulls ? (b.program->has_strings ? cond_join_write_smem_kernel<true, true>
                                                : cond_join_write_smem_kernel<true, false>)
                      : (b.program->has_strings ? cond_join_write_smem_kernel<false, true>
                                                : cond_join_write_smem_kernel<false, false>);
    write_kernel<<<blocks, kBlock, join_smem(b.program), s>>>(
        b.inl, b.device_program != NULL ? (const uint64_t *)b.device_program->data : NULL,
        b.program->num_instructions, b.program->num_columns, shape, (int)kind,
        (const int64_t *)counts->data, wide, lmap->data->data, rdata);
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

/*
 * Mixed joins: the equality join's inner pairs are the candidates; one kernel evaluates the
 * predicate per candidate (the conditional join's gcol_detail_join_pair_matches), keeps a
 * flag per candidate and marks the left (and, for a full join, right) rows with a match.
 */

/* Element k of an INT64 (@p wide) or INT32 index array. */
__device__ __forceinline__ int64_t load_index(const void *map, bool wide, int64_t k) {
  return wide ? ((const int64_t *)map)[k] : (int64_t)((const int32_t *)map)[k];
}

/* pass[k] = the predicate holds for candidate k; a passing pair writes left_hit_value to
 * left_flags[l] and 0 to right_flags[r] (the stores race with the same value). */
template <bool TrackNulls, bool Strings>
__global__ void __launch_bounds__(kBlock)
    mixed_join_filter_smem_kernel(const __grid_constant__ inline_program inl,
                                  const uint64_t *program, int32_t num_instructions,
                                  int32_t num_columns, const void *cand_left,
                                  const void *cand_right, bool wide, int64_t candidates,
                                  uint8_t *pass, uint8_t *left_flags, uint8_t left_hit_value,
                                  uint8_t *right_flags) {
  extern __shared__ uint64_t smem[];
  uint64_t *slots = stage_program(smem, inl, program, num_instructions, num_columns) + threadIdx.x;
  const gcol_detail_expr_instr *ins = (const gcol_detail_expr_instr *)smem;
  const gcol_detail_expr_column *cols = (const gcol_detail_expr_column *)(ins + num_instructions);
  GCOL_DETAIL_GRID_LOOP(k, candidates) {
    int64_t const i = load_index(cand_left, wide, k), j = load_index(cand_right, wide, k);
    bool const ok = gcol_detail_join_pair_matches(ins, num_instructions, cols, i, j, slots,
                                                  blockDim.x, TrackNulls, Strings);
    pass[k] = ok ? 1 : 0;
    if (ok && left_flags != NULL) left_flags[i] = left_hit_value;
    if (ok && right_flags != NULL) right_flags[j] = 0;
  }
}

/* The unsorted output pairs: kept candidate keep[k] at k, then (unmatched[k], -1). */
__global__ void mixed_join_gather_kernel(const void *cand_left, const void *cand_right,
                                         const int64_t *keep, int64_t kept,
                                         const int64_t *unmatched, int64_t unmatched_count,
                                         bool wide, void *left, void *right) {
  GCOL_DETAIL_GRID_LOOP(k, kept + unmatched_count) {
    bool const pair = k < kept;
    int64_t const l = pair ? load_index(cand_left, wide, keep[k]) : unmatched[k - kept];
    int64_t const r = pair ? load_index(cand_right, wide, keep[k]) : -1;
    gcol_detail_join_store_index(left, wide, k, l);
    gcol_detail_join_store_index(right, wide, k, r);
  }
}

/* out[k] = in[perm[k]] for both maps (perm INT64 when @p perm_wide). */
__global__ void mixed_join_permute_kernel(const void *in_left, const void *in_right,
                                          const void *perm, bool perm_wide, int64_t n, bool wide,
                                          void *left, void *right) {
  GCOL_DETAIL_GRID_LOOP(k, n) {
    int64_t const p = load_index(perm, perm_wide, k);
    gcol_detail_join_store_index(left, wide, k, load_index(in_left, wide, p));
    gcol_detail_join_store_index(right, wide, k, load_index(in_right, wide, p));
  }
}

/* map[k] = rows[k] as INT64 (@p wide) or INT32. */
__global__ void mixed_join_rows_kernel(const int64_t *rows, int64_t n, bool wide, void *map) {
  GCOL_DETAIL_GRID_LOOP(k, n) gcol_detail_join_store_index(map, wide, k, rows[k]);
}

/* The state of one mixed join: temporaries, freed together. */
typedef struct mixed_state {
  bound_expression b;
  gcol_column *cand_left, *cand_right; /* the equality join's inner pairs */
  gcol_buffer *pass, *left_flags, *right_flags;
  gcol_buffer *keep, *left_rows, *right_rows; /* row maps of the flags (int64) */
  int64_t kept, left_count, right_count;
  gcol_column *pair_left, *pair_right, *perm; /* unsorted pairs and their sorting order */
} mixed_state;

void mixed_state_free(mixed_state *m) {
  bound_free(&m->b);
  gcol_column_free(m->cand_left);
  gcol_column_free(m->cand_right);
  gcol_buffer_free(m->pass);
  gcol_buffer_free(m->left_flags);
  gcol_buffer_free(m->right_flags);
  gcol_buffer_free(m->keep);
  gcol_buffer_free(m->left_rows);
  gcol_buffer_free(m->right_rows);
  gcol_column_free(m->pair_left);
  gcol_column_free(m->pair_right);
  gcol_column_free(m->perm);
}

/* A byte per row set to @p value (NULL for no rows). */
gcol_status flags_create(int64_t rows, int value, gcol_stream stream, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  *out = NULL;
  if (rows == 0) goto done;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)rows, stream, NULL, out));
  GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync((*out)->data, value, (size_t)rows, (cudaStream_t)stream));
done:
  return status;
}

/* Argument checks that need no device work; binds the predicate to the conditional tables. */
gcol_status mixed_check(gcol_table_view left_keys, gcol_table_view right_keys,
                        gcol_table_view left_cond, gcol_table_view right_cond,
                        const gcol_expression *expr, int32_t root, gcol_join_kind kind,
                        bool has_right_map, bound_expression *b) {
  gcol_status status = GCOL_OK;
  char type_name[48];
  bool const pairs = kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL;
  GCOL_DETAIL_CHECK(pairs || kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI,
                    GCOL_ERROR_INVALID_ARGUMENT, "kind is %d, not a gcol_join_kind", (int)kind);
  GCOL_DETAIL_CHECK(!pairs || has_right_map, GCOL_ERROR_INVALID_ARGUMENT,
                    "right_map is NULL for an inner, left or full join");
  GCOL_DETAIL_CHECK(left_keys.num_columns == right_keys.num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                    "left has %d key columns, right %d", (int)left_keys.num_columns,
                    (int)right_keys.num_columns);
  GCOL_DETAIL_TRY(gcol_detail_validate_table(left_cond, "left_conditional"));
  GCOL_DETAIL_TRY(gcol_detail_validate_table(right_cond, "right_conditional"));
  GCOL_DETAIL_CHECK(left_keys.num_rows == left_cond.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                    "left_keys has %lld rows, left_conditional %lld", (long long)left_keys.num_rows,
                    (long long)left_cond.num_rows);
  GCOL_DETAIL_CHECK(right_keys.num_rows == right_cond.num_rows, GCOL_ERROR_SIZE_MISMATCH,
                    "right_keys has %lld rows, right_conditional %lld",
                    (long long)right_keys.num_rows, (long long)right_cond.num_rows);
  GCOL_DETAIL_TRY(bind(left_cond, &right_cond, expr, root, b));
  gcol_data_type_format(b->program->out_type, type_name, sizeof type_name);
  GCOL_DETAIL_CHECK(b->program->out_type.id == GCOL_BOOL8, GCOL_ERROR_TYPE_MISMATCH,
                    "the predicate (node %d) is %s, not bool8", (int)root, type_name);
done:
  return status;
}

/* The candidates' predicate: m->pass, and the left and right row flags of the kind. */
gcol_status mixed_filter(gcol_table_view left_cond, gcol_table_view right_cond, gcol_join_kind kind,
                         bool wide, mixed_state *m, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t const c = m->cand_left->size;
  bound_expression *const b = &m->b;
  /* left flags: 1 marks a row of the output (semi: matched; else unmatched) */
  if (kind != GCOL_JOIN_INNER) {
    GCOL_DETAIL_TRY(flags_create(left_cond.num_rows, kind == GCOL_JOIN_LEFT_SEMI ? 0 : 1, stream,
                                 &m->left_flags));
  }
  if (kind == GCOL_JOIN_FULL) {
    GCOL_DETAIL_TRY(flags_create(right_cond.num_rows, 1, stream, &m->right_flags));
  }
  if (c == 0) goto done;
  GCOL_DETAIL_TRY(upload(left_cond, &right_cond, stream, b));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)c, stream, NULL, &m->pass));
  {
    unsigned int const blocks = std::min(gcol_detail_grid_size(c, kBlock), kMaxBlocks);
    const uint64_t *const prog =
        b->device_program != NULL ? (const uint64_t *)b->device_program->data : NULL;
    uint8_t *const lf = m->left_flags != NULL ? (uint8_t *)m->left_flags->data : NULL;
    uint8_t *const rf = m->right_flags != NULL ? (uint8_t *)m->right_flags->data : NULL;
    uint8_t const hit = kind == GCOL_JOIN_LEFT_SEMI ? 1 : 0;
    auto const filter_kernel =
        b->track_nulls ? (b->program->has_strings ? mixed_join_filter_smem_kernel<true, true>
                                                  : mixed_join_filter_smem_kernel<true, false>)
                       : (b->program->has_strings ? mixed_join_filter_smem_kernel<false, true>
                                                  : mixed_join_filter_smem_kernel<false, false>);
    filter_kernel<<<blocks, kBlock, join_smem(b->program), s>>>(
        b->inl, prog, b->program->num_instructions, b->program->num_columns,
        m->cand_left->data->data, m->cand_right->data->data, wide, c, (uint8_t *)m->pass->data, lf,
        hit, rf);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
done:
  return status;
}

/* Inner, left and full: the kept pairs and unmatched left rows, sorted by (left, right),
 * into m->pair_left / pair_right with the order m->perm. */
gcol_status mixed_pairs(gcol_join_kind kind, gcol_data_type index_type, mixed_state *m,
                        gcol_stream stream) {
  gcol_status status = GCOL_OK;
  bool const wide = index_type.id == GCOL_INT64;
  gcol_column_view views[2];
  gcol_table_view pairs;
  int64_t n = 0;
  if (m->pass != NULL) {
    GCOL_DETAIL_TRY(gcol_detail_flags_to_map((const uint8_t *)m->pass->data, NULL, 0,
                                             m->cand_left->size, stream, &m->keep, &m->kept));
  }
  if (kind != GCOL_JOIN_INNER && m->left_flags != NULL) {
    GCOL_DETAIL_TRY(gcol_detail_flags_to_map((const uint8_t *)m->left_flags->data, NULL, 0,
                                             (int64_t)m->left_flags->size, stream, &m->left_rows,
                                             &m->left_count));
  }
  n = m->kept + m->left_count;
  if (n == 0) goto done;
  GCOL_DETAIL_TRY(
      gcol_column_create(index_type, n, GCOL_MASK_UNALLOCATED, stream, NULL, &m->pair_left));
  GCOL_DETAIL_TRY(
      gcol_column_create(index_type, n, GCOL_MASK_UNALLOCATED, stream, NULL, &m->pair_right));
  mixed_join_gather_kernel<<<gcol_detail_grid_size(n, kBlock), kBlock, 0, (cudaStream_t)stream>>>(
      m->kept > 0 ? m->cand_left->data->data : NULL, m->kept > 0 ? m->cand_right->data->data : NULL,
      m->keep != NULL ? (const int64_t *)m->keep->data : NULL, m->kept,
      m->left_rows != NULL ? (const int64_t *)m->left_rows->data : NULL, m->left_count, wide,
      m->pair_left->data->data, m->pair_right->data->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  views[0] = gcol_column_get_view(m->pair_left);
  views[1] = gcol_column_get_view(m->pair_right);
  GCOL_DETAIL_TRY(gcol_table_view_make(views, 2, &pairs));
  GCOL_DETAIL_TRY(gcol_sorted_order(pairs, NULL, NULL, &m->perm, stream, NULL));
done:
  return status;
}

/* The output maps (from mr) of m's sorted pairs, then a full join's right-only rows. */
gcol_status mixed_write(gcol_join_kind kind, gcol_data_type index_type, mixed_state *m,
                        gcol_column **left_map, gcol_column **right_map, gcol_stream stream,
                        gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  bool const wide = index_type.id == GCOL_INT64;
  int64_t const n = m->kept + m->left_count;
  gcol_column *lmap = NULL, *rmap = NULL;
  if (kind == GCOL_JOIN_FULL && m->right_flags != NULL) {
    GCOL_DETAIL_TRY(gcol_detail_flags_to_map((const uint8_t *)m->right_flags->data, NULL, 0,
                                             (int64_t)m->right_flags->size, stream, &m->right_rows,
                                             &m->right_count));
  }
  GCOL_DETAIL_TRY(
      gcol_column_create(index_type, n + m->right_count, GCOL_MASK_UNALLOCATED, stream, mr, &lmap));
  GCOL_DETAIL_TRY(
      gcol_column_create(index_type, n + m->right_count, GCOL_MASK_UNALLOCATED, stream, mr, &rmap));
  if (n > 0) {
    mixed_join_permute_kernel<<<gcol_detail_grid_size(n, kBlock), kBlock, 0, s>>>(
        m->pair_left->data->data, m->pair_right->data->data, m->perm->data->data,
        m->perm->type.id == GCOL_INT64, n, wide, lmap->data->data, rmap->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  if (m->right_count > 0) {
    cond_join_append_right_kernel<<<gcol_detail_grid_size(m->right_count, kBlock), kBlock, 0, s>>>(
        (const int64_t *)m->right_rows->data, m->right_count, n, wide, lmap->data->data,
        rmap->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *left_map = lmap;
  *right_map = rmap;
  lmap = rmap = NULL;
done:
  gcol_column_free(lmap);
  gcol_column_free(rmap);
  return status;
}

/* Semi and anti: the flagged left rows, ascending, as a map from mr. */
gcol_status mixed_left_rows(gcol_data_type index_type, mixed_state *m, gcol_column **left_map,
                            gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *lmap = NULL;
  if (m->left_flags != NULL) {
    GCOL_DETAIL_TRY(gcol_detail_flags_to_map((const uint8_t *)m->left_flags->data, NULL, 0,
                                             (int64_t)m->left_flags->size, stream, &m->left_rows,
                                             &m->left_count));
  }
  GCOL_DETAIL_TRY(
      gcol_column_create(index_type, m->left_count, GCOL_MASK_UNALLOCATED, stream, mr, &lmap));
  if (m->left_count > 0) {
    mixed_join_rows_kernel<<<gcol_detail_grid_size(m->left_count, kBlock), kBlock, 0,
                             (cudaStream_t)stream>>>((const int64_t *)m->left_rows->data,
                                                     m->left_count, index_type.id == GCOL_INT64,
                                                     lmap->data->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *left_map = lmap;
  lmap = NULL;
done:
  gcol_column_free(lmap);
  return status;
}

gcol_status mixed_join(gcol_table_view left_keys, gcol_table_view right_keys,
                       gcol_null_equality nulls, gcol_table_view left_cond,
                       gcol_table_view right_cond, const gcol_expression *expr, int32_t root,
                       gcol_join_kind kind, gcol_column **left_map, gcol_column **right_map,
                       gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  mixed_state m;
  int64_t const nl = left_keys.num_rows, nr = right_keys.num_rows;
  gcol_data_type const index_type = gcol_data_type_make(gcol_index_type_for(nl > nr ? nl : nr));
  bool const pairs = kind == GCOL_JOIN_INNER || kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL;
  memset(&m, 0, sizeof m);
  GCOL_DETAIL_CHECK_NOT_NULL(left_map);
  *left_map = NULL;
  if (right_map != NULL) *right_map = NULL;
  GCOL_DETAIL_TRY(mixed_check(left_keys, right_keys, left_cond, right_cond, expr, root, kind,
                              right_map != NULL, &m.b));
  /* the candidates: maps of the index type of max(nl, nr), as the output's */
  GCOL_DETAIL_TRY(gcol_join(left_keys, right_keys, GCOL_JOIN_INNER, nulls, &m.cand_left,
                            &m.cand_right, stream, NULL));
  GCOL_DETAIL_TRY(
      mixed_filter(left_cond, right_cond, kind, index_type.id == GCOL_INT64, &m, stream));
  if (pairs) {
    GCOL_DETAIL_TRY(mixed_pairs(kind, index_type, &m, stream));
    GCOL_DETAIL_TRY(mixed_write(kind, index_type, &m, left_map, right_map, stream, mr));
  } else {
    GCOL_DETAIL_TRY(mixed_left_rows(index_type, &m, left_map, stream, mr));
  }
done:
  mixed_state_free(&m);
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

extern "C" gcol_status gcol_mixed_join(gcol_table_view left_keys, gcol_table_view right_keys,
                                       gcol_null_equality nulls, gcol_table_view left_conditional,
                                       gcol_table_view right_conditional,
                                       const gcol_expression *expr, int32_t root,
                                       gcol_join_kind kind, gcol_column **left_map,
                                       gcol_column **right_map, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_mixed_join");
  status = mixed_join(left_keys, right_keys, nulls, left_conditional, right_conditional, expr, root,
                      kind, left_map, right_map, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
