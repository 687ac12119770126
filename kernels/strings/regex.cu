/*
 * Regular expressions (strings/regex.h): the program compiled on the host
 * (regex_compile.c) is copied to the device, and a thread per string runs the Pike VM of
 * regex_match.h in its scratch: a local array where the program's scratch fits
 * GCOL_DETAIL_REGEX_LOCAL_WORDS (regex_device.h: local memory coalesces across a warp), else
 * its own slice of one global buffer. The VM's state is bounded by the program, not the row,
 * so then the grid is capped to keep that buffer under a budget and each thread walks the
 * rows grid-stride. Where the program has a DFA (regex_dfa.c), contains, matches and count
 * run gcol_detail_regex_smem_kernel, its table in shared memory, and the VM only for the
 * rows it cannot decide; the other operations meet the DFA in gcol_detail_regex_exec.
 *
 * extract runs the VM once per row into a temporary of group spans, then builds each group's
 * column from them (sizes, the shared int64 scan, offsets by the total, a byte copy; the
 * nulls counted on the way). replace is edit.cu's two passes with the VM in both: each row's
 * output bytes (a flag raised where a row would pass the limit), the scan, then each row
 * writes its bytes at its offset.
 */
#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "gcol/string_view.h"
#include "gcol/strings/regex.h"
#include "strings/regex_device.h"
#include "strings/regex_match.h"
#include "strings/regex_ops.h"
#include "strings/strings_common.h"

typedef enum gcol_detail_regex_mode {
  GCOL_DETAIL_REGEX_CONTAINS = 0,
  GCOL_DETAIL_REGEX_MATCHES,
  GCOL_DETAIL_REGEX_COUNT
} gcol_detail_regex_mode;

template <bool LOCAL>
static __global__ void gcol_detail_regex_kernel(gcol_strings_view s, gcol_detail_regex_prog prog,
                                                int mode, int32_t *scratch, int64_t words,
                                                void *out) {
  int64_t const tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  GCOL_DETAIL_REGEX_MINE(LOCAL, scratch, words, tid);
  for (int64_t i = tid; i < s.size; i += (int64_t)gridDim.x * blockDim.x) {
    int32_t result = 0;
    if (gcol_strings_view_is_valid(s, i)) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      if (mode == GCOL_DETAIL_REGEX_COUNT) {
        result = gcol_detail_regex_count(&prog, r.data, r.size, mine);
      } else {
        bool const anchored = mode == GCOL_DETAIL_REGEX_MATCHES;
        result = gcol_detail_regex_exec(&prog, r.data, r.size, 0, anchored, -1, 0, mine, NULL);
      }
    }
    if (mode == GCOL_DETAIL_REGEX_COUNT) {
      ((int32_t *)out)[i] = result;
    } else {
      ((uint8_t *)out)[i] = (uint8_t)result;
    }
  }
}

/* The DFA kernel's grid stops here (it walks rows grid-stride): each block loads the table. */
#define GCOL_DETAIL_REGEX_SMEM_MAX_BLOCKS 2048

/* Shared-memory bytes of the DFA kernel: the byte classes, then the table. */
static size_t gcol_detail_regex_smem_bytes(const gcol_detail_regex_prog *prog, int mode) {
  int const k = mode == GCOL_DETAIL_REGEX_MATCHES ? 1 : 0;
  return 256 + (size_t)prog->dfa_states[k] * (size_t)prog->dfa_stride * sizeof(uint16_t);
}

/*
 * contains, matches and count where the program has a DFA (regex_match.h): the table
 * (search, or match at 0 for matches) in shared memory, one lookup per byte of a row, the
 * scan stopping where a match ends. A row the DFA cannot decide (a byte >= 0x80) runs the
 * VM, and so does a row of count with a match (count needs each match's end).
 */
template <bool LOCAL>
static __global__ void gcol_detail_regex_smem_kernel(gcol_strings_view s,
                                                     gcol_detail_regex_prog prog, int mode,
                                                     int32_t *scratch, int64_t words, void *out) {
  extern __shared__ uint32_t gcol_detail_regex_smem[];
  int const k = mode == GCOL_DETAIL_REGEX_MATCHES ? 1 : 0;
  uint8_t *const classes = (uint8_t *)gcol_detail_regex_smem;
  uint16_t *const table = (uint16_t *)(classes + 256);
  int64_t const entries = (int64_t)prog.dfa_states[k] * prog.dfa_stride;
  for (int64_t j = threadIdx.x; j < 256; j += blockDim.x) classes[j] = prog.dfa_classes[j];
  for (int64_t j = threadIdx.x; j < entries; j += blockDim.x) table[j] = prog.dfa[k][j];
  __syncthreads();
  int64_t const tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  GCOL_DETAIL_REGEX_MINE(LOCAL, scratch, words, tid);
  for (int64_t i = tid; i < s.size; i += (int64_t)gridDim.x * blockDim.x) {
    int32_t result = 0;
    if (gcol_strings_view_is_valid(s, i)) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      int const d = gcol_detail_regex_dfa_run(table, classes, prog.dfa_stride, prog.dfa_flags,
                                              r.data, r.size, GCOL_DETAIL_RX_DFA_START);
      if (mode == GCOL_DETAIL_REGEX_COUNT) {
        result = d == 0 ? 0 : gcol_detail_regex_count(&prog, r.data, r.size, mine);
      } else {
        result =
            d >= 0 ? d
                   : gcol_detail_regex_exec_vm(&prog, r.data, r.size, 0, k == 1, -1, 0, mine, NULL);
      }
    }
    if (mode == GCOL_DETAIL_REGEX_COUNT) {
      ((int32_t *)out)[i] = result;
    } else {
      ((uint8_t *)out)[i] = (uint8_t)result;
    }
  }
}

/* The program copied to the device: one buffer, instructions then ranges. */
gcol_status gcol_detail_regex_to_device(const gcol_regex *re, gcol_stream stream, gcol_buffer **buf,
                                        gcol_detail_regex_prog *prog) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_detail_strings_to_device(re->host.block, re->host.block_bytes, stream, buf));
  *prog = re->host.prog;
  gcol_detail_regex_prog_rebase(prog, re->host.block, (*buf)->data);
done:
  return status;
}

int64_t gcol_detail_regex_blocks(int64_t n, int64_t words) {
  int64_t const block = GCOL_DETAIL_BLOCK_SIZE;
  int64_t const needed = (n + block - 1) / block;
  int64_t blocks = words > 0 ? GCOL_DETAIL_REGEX_SCRATCH_BUDGET / (words * 4 * block) : needed;
  if (blocks < 1) blocks = 1;
  if (blocks > needed) blocks = needed;
  return blocks;
}

gcol_status gcol_detail_regex_scratch_make(int64_t n, int64_t words, gcol_stream stream,
                                           bool *local, int64_t *blocks, gcol_buffer **out) {
  *out = NULL;
  *local = words <= GCOL_DETAIL_REGEX_LOCAL_WORDS;
  *blocks = gcol_detail_regex_blocks(n, *local ? 0 : words);
  if (*local) return GCOL_OK;
  return gcol_buffer_create((size_t)(*blocks * GCOL_DETAIL_BLOCK_SIZE * words * 4), stream, NULL,
                            out);
}

int32_t *gcol_detail_regex_scratch_data(const gcol_buffer *scratch) {
  return scratch != NULL ? (int32_t *)scratch->data : NULL;
}

/* contains, matches and count: a fixed-width output with the input's validity. */
static gcol_status gcol_detail_regex_run(gcol_column_view input, const gcol_regex *re, int mode,
                                         gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *prog_dev = NULL, *scratch = NULL;
  gcol_detail_regex_prog prog;
  gcol_strings_view s;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(re);
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_strings_check_int32_rows(input, stream));
  GCOL_DETAIL_TRY(gcol_detail_strings_fixed_output(
      input, NULL, mode == GCOL_DETAIL_REGEX_COUNT ? GCOL_INT32 : GCOL_BOOL8, stream, mr, &col));
  if (input.size > 0) {
    int32_t const nslots = mode == GCOL_DETAIL_REGEX_COUNT ? 2 : 0;
    int64_t const words = gcol_detail_regex_scratch_ints(&re->host.prog, nslots);
    bool local = false;
    int64_t blocks = 0;
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    GCOL_DETAIL_TRY(gcol_detail_regex_to_device(re, stream, &prog_dev, &prog));
    GCOL_DETAIL_TRY(
        gcol_detail_regex_scratch_make(input.size, words, stream, &local, &blocks, &scratch));
    if (prog.dfa_stride > 0) {
      GCOL_DETAIL_REGEX_LAUNCH_SMEM(
          local, gcol_detail_regex_smem_kernel,
          blocks < GCOL_DETAIL_REGEX_SMEM_MAX_BLOCKS ? blocks : GCOL_DETAIL_REGEX_SMEM_MAX_BLOCKS,
          gcol_detail_regex_smem_bytes(&prog, mode), (cudaStream_t)stream, s, prog, mode,
          gcol_detail_regex_scratch_data(scratch), words, col->data->data);
    } else {
      GCOL_DETAIL_REGEX_LAUNCH(local, gcol_detail_regex_kernel, blocks, (cudaStream_t)stream, s,
                               prog, mode, gcol_detail_regex_scratch_data(scratch), words,
                               col->data->data);
    }
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(scratch);
  gcol_buffer_free(prog_dev);
  gcol_column_free(col);
  return status;
}

extern "C" gcol_status gcol_strings_regex_contains(gcol_column_view input, const gcol_regex *re,
                                                   gcol_column **out, gcol_stream stream,
                                                   gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_regex_contains");
  gcol_status const status =
      gcol_detail_regex_run(input, re, GCOL_DETAIL_REGEX_CONTAINS, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_regex_matches(gcol_column_view input, const gcol_regex *re,
                                                  gcol_column **out, gcol_stream stream,
                                                  gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_regex_matches");
  gcol_status const status =
      gcol_detail_regex_run(input, re, GCOL_DETAIL_REGEX_MATCHES, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_regex_count(gcol_column_view input, const gcol_regex *re,
                                                gcol_column **out, gcol_stream stream,
                                                gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_regex_count");
  gcol_status const status =
      gcol_detail_regex_run(input, re, GCOL_DETAIL_REGEX_COUNT, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- extract */

/* spans[i * 2g ..] = row i's group spans (-1: no match, group unset, or a null row). */
template <bool LOCAL>
static __global__ void gcol_detail_regex_spans_kernel(gcol_strings_view s,
                                                      gcol_detail_regex_prog prog, int32_t *scratch,
                                                      int64_t words, int32_t *spans) {
  int64_t const tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  GCOL_DETAIL_REGEX_MINE(LOCAL, scratch, words, tid);
  int64_t const width = 2 * (int64_t)prog.num_groups;
  for (int64_t i = tid; i < s.size; i += (int64_t)gridDim.x * blockDim.x) {
    int32_t *row = spans + i * width;
    if (gcol_strings_view_is_valid(s, i)) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      gcol_detail_regex_extract_row(&prog, r.data, r.size, mine, row);
    } else {
      for (int64_t j = 0; j < width; ++j) row[j] = -1;
    }
  }
}

/* Group g's sizes (sizes[i]), validity (valid[i]) and null count (sizes[n + 1], zeroed). */
static __global__ void gcol_detail_regex_group_sizes_kernel(const int32_t *spans, int64_t n,
                                                            int64_t width, int64_t g,
                                                            int64_t *sizes, uint8_t *valid) {
  GCOL_DETAIL_GRID_LOOP(i, n) {
    int32_t const a = spans[i * width + 2 * g], b = spans[i * width + 2 * g + 1];
    valid[i] = a >= 0;
    sizes[i] = a >= 0 ? b - a : 0;
    if (a < 0) atomicAdd((unsigned long long *)(sizes + n + 1), 1ull);
  }
}

static __global__ void gcol_detail_regex_group_copy_kernel(gcol_strings_view s,
                                                           const int32_t *spans, int64_t width,
                                                           int64_t g, const int64_t *offsets,
                                                           char *chars) {
  GCOL_DETAIL_GRID_LOOP(i, s.size) {
    int32_t const a = spans[i * width + 2 * g], b = spans[i * width + 2 * g + 1];
    if (a < 0) continue;
    const char *src = gcol_strings_view_get(s, i).data + a;
    for (int32_t k = 0; k < b - a; ++k) chars[offsets[i] + k] = src[k];
  }
}

/* Column g of extract from the spans. */
static gcol_status gcol_detail_regex_group_column(gcol_strings_view s, const int32_t *spans,
                                                  int64_t g, int64_t width, gcol_stream stream,
                                                  gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  int64_t const n = s.size;
  gcol_buffer *sizes = NULL, *valid = NULL, *chars = NULL, *mask = NULL;
  gcol_column *offsets = NULL;
  int64_t tail[2] = {0, 0}; /* the total, the nulls */
  int64_t *sz = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  unsigned int const grid = gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE);
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 2, stream, &sizes));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n, stream, NULL, &valid));
  sz = (int64_t *)sizes->data;
  gcol_detail_regex_group_sizes_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(
      spans, n, width, g, sz, (uint8_t *)valid->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_offsets_from_sizes(sz, n, tail, 2, stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)tail[0], stream, mr, &chars));
  gcol_detail_regex_group_copy_kernel<<<grid, GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(
      s, spans, width, g, sz, (char *)chars->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(
      gcol_detail_strings_flags_mask((const uint8_t *)valid->data, n, tail[1], stream, mr, &mask));
  GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, mask, tail[1], out));
  offsets = NULL;
  chars = NULL;
  mask = NULL;
done:
  gcol_buffer_free(sizes);
  gcol_buffer_free(valid);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  return status;
}

static gcol_status gcol_detail_regex_extract(gcol_column_view input, const gcol_regex *re,
                                             gcol_table **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *prog_dev = NULL, *scratch = NULL, *spans = NULL;
  gcol_column **columns = NULL;
  int64_t made = 0, groups = 0;
  gcol_detail_regex_prog prog;
  gcol_strings_view s;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(re);
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  groups = re->host.prog.num_groups;
  GCOL_DETAIL_CHECK(groups > 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "the pattern has no capturing group to extract");
  GCOL_DETAIL_TRY(gcol_detail_strings_check_int32_rows(input, stream));
  columns = (gcol_column **)calloc((size_t)groups, sizeof *columns);
  GCOL_DETAIL_CHECK(columns != NULL, GCOL_ERROR_OUT_OF_MEMORY, "%lld column pointers",
                    (long long)groups);
  if (input.size == 0) {
    for (; made < groups; ++made) {
      GCOL_DETAIL_TRY(gcol_column_empty_like(input, stream, mr, &columns[made]));
    }
  } else {
    int64_t const width = 2 * groups;
    int64_t const words = gcol_detail_regex_scratch_ints(&re->host.prog, 2 * (int32_t)(groups + 1));
    bool local = false;
    int64_t blocks = 0;
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    GCOL_DETAIL_TRY(gcol_detail_regex_to_device(re, stream, &prog_dev, &prog));
    GCOL_DETAIL_TRY(
        gcol_detail_regex_scratch_make(input.size, words, stream, &local, &blocks, &scratch));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(input.size * width * 4), stream, NULL, &spans));
    GCOL_DETAIL_REGEX_LAUNCH(local, gcol_detail_regex_spans_kernel, blocks, (cudaStream_t)stream,
                             s, prog, gcol_detail_regex_scratch_data(scratch), words,
                             (int32_t *)spans->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    gcol_buffer_free(scratch);
    scratch = NULL;
    for (; made < groups; ++made) {
      GCOL_DETAIL_TRY(gcol_detail_regex_group_column(s, (const int32_t *)spans->data, made, width,
                                                     stream, mr, &columns[made]));
    }
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, (int32_t)groups, out));
  made = 0; /* the table owns them */
done:
  for (int64_t j = 0; j < made; ++j) gcol_column_free(columns[j]);
  free(columns);
  gcol_buffer_free(spans);
  gcol_buffer_free(scratch);
  gcol_buffer_free(prog_dev);
  return status;
}

extern "C" gcol_status gcol_strings_regex_extract(gcol_column_view input, const gcol_regex *re,
                                                  gcol_table **out, gcol_stream stream,
                                                  gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_regex_extract");
  gcol_status const status = gcol_detail_regex_extract(input, re, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---------------------------------------------------------------- replace */

typedef struct gcol_detail_regex_replace_args {
  gcol_detail_regex_prog prog;
  gcol_detail_regex_template t;
  int64_t max_count;
} gcol_detail_regex_replace_args;

/* Pass 1 (with sizes): sizes[i] = row i's output bytes, sizes[n + 1] = 1 where a row passes
 * limit. Pass 2 (sizes NULL): each valid row writes its bytes at offsets[i] (chars is NULL
 * when every row is empty, so the pass is never told by it). */
template <bool LOCAL>
static __global__ void gcol_detail_regex_replace_kernel(gcol_strings_view s,
                                                        gcol_detail_regex_replace_args a,
                                                        int32_t *scratch, int64_t words,
                                                        int64_t limit, int64_t *sizes,
                                                        const int64_t *offsets, char *chars) {
  int64_t const tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  GCOL_DETAIL_REGEX_MINE(LOCAL, scratch, words, tid);
  for (int64_t i = tid; i < s.size; i += (int64_t)gridDim.x * blockDim.x) {
    bool const valid = gcol_strings_view_is_valid(s, i);
    if (sizes == NULL) {
      if (!valid) continue;
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      gcol_detail_sink k = gcol_detail_sink_make(chars + offsets[i]);
      gcol_detail_regex_replace_row(&a.prog, r.data, r.size, &a.t, a.max_count, mine, &k);
      continue;
    }
    int64_t size = 0;
    if (valid) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      gcol_detail_sink k = gcol_detail_sink_make(NULL);
      gcol_detail_regex_replace_row(&a.prog, r.data, r.size, &a.t, a.max_count, mine, &k);
      size = k.size;
    }
    if (size > limit) {
      sizes[s.size + 1] = 1;
      size = 0;
    }
    sizes[i] = size;
  }
}

static gcol_status gcol_detail_regex_replace(gcol_column_view input, const gcol_regex *re,
                                             const char *tmpl, int64_t tmpl_size, int64_t max_count,
                                             gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *prog_dev = NULL, *tmpl_dev = NULL, *scratch = NULL, *offsets64 = NULL;
  gcol_buffer *chars = NULL, *mask = NULL;
  gcol_column *offsets = NULL;
  gcol_detail_regex_template_host th;
  gcol_detail_regex_replace_args a;
  gcol_strings_view s;
  int64_t tail[2] = {0, 0}; /* the total, the flag */
  int64_t null_count = 0;
  cudaStream_t const st = (cudaStream_t)stream;
  memset(&th, 0, sizeof th);
  memset(&a, 0, sizeof a);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(re);
  GCOL_DETAIL_CHECK(tmpl != NULL || tmpl_size == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "replacement is NULL");
  GCOL_DETAIL_CHECK(tmpl_size >= -1, GCOL_ERROR_INVALID_ARGUMENT,
                    "replacement_size is %lld (want >= 0, or -1)", (long long)tmpl_size);
  GCOL_DETAIL_CHECK(max_count >= -1, GCOL_ERROR_INVALID_ARGUMENT,
                    "max_count is %lld: -1 (all) or a count >= 0", (long long)max_count);
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_TRY(gcol_detail_regex_template_parse(
      tmpl == NULL ? "" : tmpl, tmpl_size < 0 ? (int64_t)strlen(tmpl) : tmpl_size, &re->host,
      "gcol_strings_regex_replace", &th));
  GCOL_DETAIL_TRY(gcol_detail_strings_check_int32_rows(input, stream));
  if (input.size == 0) {
    GCOL_DETAIL_TRY(gcol_column_empty_like(input, stream, mr, out));
    goto done;
  }
  {
    int64_t const n = input.size;
    int64_t const words =
        gcol_detail_regex_scratch_ints(&re->host.prog, gcol_detail_regex_replace_slots(&th.t));
    bool local = false;
    int64_t blocks = 0;
    int64_t *sizes = NULL;
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    GCOL_DETAIL_TRY(gcol_detail_regex_to_device(re, stream, &prog_dev, &a.prog));
    GCOL_DETAIL_TRY(gcol_detail_strings_to_device(th.block, th.block_bytes, stream, &tmpl_dev));
    a.t = th.t;
    a.t.pieces = (const gcol_detail_regex_piece *)tmpl_dev->data;
    a.t.bytes = (const char *)tmpl_dev->data + (th.t.bytes - (const char *)th.block);
    a.max_count = max_count;
    GCOL_DETAIL_TRY(gcol_detail_regex_scratch_make(n, words, stream, &local, &blocks, &scratch));
    GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 2, stream, &offsets64));
    sizes = (int64_t *)offsets64->data;
    GCOL_DETAIL_REGEX_LAUNCH(local, gcol_detail_regex_replace_kernel, blocks, st, s, a,
                             gcol_detail_regex_scratch_data(scratch), words, INT64_MAX / (n + 1),
                             sizes, NULL, NULL);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_strings_offsets_limited(sizes, n, tail, 2, stream, mr, &offsets));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)tail[0], stream, mr, &chars));
    GCOL_DETAIL_REGEX_LAUNCH(local, gcol_detail_regex_replace_kernel, blocks, st, s, a,
                             gcol_detail_regex_scratch_data(scratch), words, 0, NULL, sizes,
                             (char *)chars->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_strings_output_mask(input, NULL, stream, mr, &mask, &null_count));
    GCOL_DETAIL_TRY(gcol_column_make_strings(n, offsets, chars, mask, null_count, out));
    offsets = NULL;
    chars = NULL;
    mask = NULL;
  }
done:
  gcol_detail_regex_template_free(&th);
  gcol_buffer_free(prog_dev);
  gcol_buffer_free(tmpl_dev);
  gcol_buffer_free(scratch);
  gcol_buffer_free(offsets64);
  gcol_buffer_free(chars);
  gcol_buffer_free(mask);
  gcol_column_free(offsets);
  return status;
}

extern "C" gcol_status gcol_strings_regex_replace(gcol_column_view input, const gcol_regex *re,
                                                  const char *replacement, int64_t replacement_size,
                                                  int64_t max_count, gcol_column **out,
                                                  gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_regex_replace");
  gcol_status const status = gcol_detail_regex_replace(input, re, replacement, replacement_size,
                                                       max_count, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
