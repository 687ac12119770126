/*
 * Regular expressions (strings/regex.h): the program compiled on the host
 * (regex_compile.c) is copied to the device, and a thread per string runs the Pike VM of
 * regex_match.h in its own slice of one scratch buffer. The VM's state is bounded by the
 * program, not the row, so the grid is capped to keep the scratch under a budget and each
 * thread walks the rows grid-stride.
 */
#include "common.cuh"
#include "gcol/string_view.h"
#include "gcol/strings/regex.h"
#include "strings/regex_match.h"
#include "strings/strings_common.h"

/* The VM scratch of all running threads stays under this many bytes. */
#define GCOL_DETAIL_REGEX_SCRATCH_BUDGET ((int64_t)256 << 20)

typedef enum gcol_detail_regex_mode {
  GCOL_DETAIL_REGEX_CONTAINS = 0,
  GCOL_DETAIL_REGEX_MATCHES,
  GCOL_DETAIL_REGEX_COUNT
} gcol_detail_regex_mode;

static __global__ void gcol_detail_regex_kernel(gcol_strings_view s, gcol_detail_regex_prog prog,
                                                int mode, int32_t *scratch, int64_t words,
                                                void *out) {
  int64_t const tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int32_t *mine = scratch + tid * words;
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

/* The program copied to the device: one buffer, instructions then ranges. */
static gcol_status gcol_detail_regex_to_device(const gcol_regex *re, gcol_stream stream,
                                               gcol_buffer **buf, gcol_detail_regex_prog *prog) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(gcol_detail_strings_to_device(re->host.block, re->host.block_bytes, stream, buf));
  *prog = re->host.prog;
  prog->insts = (const gcol_detail_regex_inst *)(*buf)->data;
  prog->ranges = (const uint32_t *)((const char *)(*buf)->data +
                                    (int64_t)prog->num_insts * (int64_t)sizeof(gcol_detail_regex_inst));
done:
  return status;
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
    int64_t const words = gcol_detail_regex_scratch_ints(re->host.prog.num_insts, nslots);
    int64_t const block = GCOL_DETAIL_BLOCK_SIZE;
    int64_t blocks = GCOL_DETAIL_REGEX_SCRATCH_BUDGET / (words * 4 * block);
    int64_t const needed = (input.size + block - 1) / block;
    if (blocks < 1) blocks = 1;
    if (blocks > needed) blocks = needed;
    GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
    GCOL_DETAIL_TRY(gcol_detail_regex_to_device(re, stream, &prog_dev, &prog));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(blocks * block * words * 4), stream, NULL, &scratch));
    gcol_detail_regex_kernel<<<(unsigned)blocks, (unsigned)block, 0, (cudaStream_t)stream>>>(
        s, prog, mode, (int32_t *)scratch->data, words, col->data->data);
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
