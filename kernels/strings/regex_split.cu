/*
 * Regex findall and split (strings/regex.h). Both cut each row into pieces (a match, or the
 * text between matches) enumerated by gcol_detail_regex_pieces_next() of regex_ops.h, a
 * thread per string running the Pike VM in its scratch (regex_device.h), as extract and
 * replace do, in two VM passes around the shared int64 scan:
 *   1. count each row's pieces (0 for a null row) and the most of any row; the scan gives
 *      each row's first place (the list offsets); one synchronization reads the pieces and
 *      the most;
 *   2. each row writes its pieces' starts (into the input's chars) and sizes at their
 *      places; the scan of the sizes gives the values' offsets; one synchronization reads
 *      the bytes;
 * then a thread per piece copies its bytes. The pieces, a STRING column, go to the LIST
 * and table builders split.cu shares (split_pieces.h): the record forms wrap them in a
 * LIST column with the input's validity, the table forms gather column j from them.
 */
#include "common.cuh"
#include "detail/gather.h"
#include "detail/scan.h"
#include "gcol/string_view.h"
#include "gcol/strings/regex.h"
#include "strings/regex_device.h"
#include "strings/regex_match.h"
#include "strings/regex_ops.h"
#include "strings/split_pieces.h"
#include "strings/strings_common.h"

/* What the VM passes read: the device program, the enumeration, each thread's scratch. */
typedef struct gcol_detail_regex_pieces_args {
  gcol_detail_regex_prog prog;
  gcol_detail_regex_pieces_spec sp;
  int32_t *scratch;
  int64_t words; /* scratch words of a thread */
  bool local;    /* the scratch in a local array (regex_device.h), scratch NULL */
} gcol_detail_regex_pieces_args;

/* counts[i] = pieces of row i; counts[s.size + 1] = the most (zeroed by the caller). */
template <bool LOCAL>
static __global__ void gcol_detail_regex_pieces_count_kernel(gcol_strings_view s,
                                                             gcol_detail_regex_pieces_args a,
                                                             int64_t *counts) {
  int64_t const tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  GCOL_DETAIL_REGEX_MINE(LOCAL, a.scratch, a.words, tid);
  unsigned long long *const most = (unsigned long long *)(counts + s.size + 1);
  for (int64_t i = tid; i < s.size; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t count = 0;
    if (gcol_strings_view_is_valid(s, i)) {
      gcol_string_ref const r = gcol_strings_view_get(s, i);
      count = gcol_detail_regex_pieces_count(&a.prog, a.sp, r.data, r.size, mine);
    }
    counts[i] = count;
    /* most rows do not raise the most: a plain read spares them the atomic */
    if ((unsigned long long)count > *(volatile unsigned long long *)most) {
      atomicMax(most, (unsigned long long)count);
    }
  }
}

/* starts[place], sizes[place] = each piece's first byte in s.chars and its size; places[i] is
 * row i's first place. */
template <bool LOCAL>
static __global__ void gcol_detail_regex_pieces_write_kernel(gcol_strings_view s,
                                                             gcol_detail_regex_pieces_args a,
                                                             const int64_t *places, int64_t *starts,
                                                             int64_t *sizes) {
  int64_t const tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  GCOL_DETAIL_REGEX_MINE(LOCAL, a.scratch, a.words, tid);
  for (int64_t i = tid; i < s.size; i += (int64_t)gridDim.x * blockDim.x) {
    if (!gcol_strings_view_is_valid(s, i)) continue;
    gcol_string_ref const r = gcol_strings_view_get(s, i);
    int64_t const base = gcol_offsetalator_get(s.offsets, i);
    gcol_detail_regex_pieces_state st =
        gcol_detail_regex_pieces_begin(&a.prog, a.sp, r.data, r.size, mine);
    int64_t b = 0, e = 0;
    for (int64_t at = places[i];
         gcol_detail_regex_pieces_next(&a.prog, a.sp, r.data, r.size, &st, mine, &b, &e); ++at) {
      starts[at] = base + b;
      sizes[at] = e - b;
    }
  }
}

/* Piece j's bytes: chars[offsets[j], offsets[j + 1]) = src[starts[j] ..]. */
static __global__ void gcol_detail_regex_pieces_copy_kernel(const char *src, const int64_t *starts,
                                                            const int64_t *offsets, int64_t pieces,
                                                            char *chars) {
  GCOL_DETAIL_GRID_LOOP(j, pieces) {
    int64_t const size = offsets[j + 1] - offsets[j];
    for (int64_t k = 0; k < size; ++k) chars[offsets[j] + k] = src[starts[j] + k];
  }
}

/* Pass 1 and its scan: *places (n + 2 int64, default resource) holds each row's first place
 * and the number of pieces at n; *pieces and *most are read back (synchronizes). */
static gcol_status count_pieces(gcol_strings_view s, gcol_detail_regex_pieces_args a,
                                int64_t blocks, gcol_stream stream, gcol_buffer **places,
                                int64_t *pieces, int64_t *most) {
  gcol_status status = GCOL_OK;
  int64_t const n = s.size;
  int64_t tail[2] = {0, 0};
  int64_t *counts = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(n, 2, stream, places));
  counts = (int64_t *)(*places)->data;
  if (blocks > 0) {
    GCOL_DETAIL_REGEX_LAUNCH(a.local, gcol_detail_regex_pieces_count_kernel, blocks, st, s, a,
                             counts);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_sizes_scan(counts, counts, n, tail, 2, stream));
  *pieces = tail[0];
  *most = tail[1];
done:
  return status;
}

/* Pass 2, the sizes' scan and the copy: the pieces as a STRING column from mr (no nulls). */
static gcol_status write_pieces(gcol_strings_view s, gcol_detail_regex_pieces_args a,
                                int64_t blocks, const int64_t *places, int64_t pieces,
                                gcol_stream stream, gcol_mr *mr, gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *starts = NULL, *sizes = NULL, *chars = NULL;
  gcol_column *offsets = NULL;
  int64_t total = 0;
  int64_t *sz = NULL;
  cudaStream_t const st = (cudaStream_t)stream;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)(pieces > 0 ? pieces : 1) * sizeof(int64_t), stream,
                                     NULL, &starts));
  GCOL_DETAIL_TRY(gcol_detail_sizes_create(pieces, 1, stream, &sizes));
  sz = (int64_t *)sizes->data;
  if (pieces > 0) {
    GCOL_DETAIL_REGEX_LAUNCH(a.local, gcol_detail_regex_pieces_write_kernel, blocks, st, s, a,
                             places, (int64_t *)starts->data, sz);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  }
  GCOL_DETAIL_TRY(gcol_detail_offsets_from_sizes(sz, pieces, &total, 1, stream, mr, &offsets));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &chars));
  gcol_detail_regex_pieces_copy_kernel<<<gcol_detail_grid_size(pieces, GCOL_DETAIL_BLOCK_SIZE),
                                         GCOL_DETAIL_BLOCK_SIZE, 0, st>>>(
      s.chars, (const int64_t *)starts->data, sz, pieces, (char *)chars->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_column_make_strings(pieces, offsets, chars, NULL, 0, out));
  offsets = NULL;
  chars = NULL;
done:
  gcol_buffer_free(starts);
  gcol_buffer_free(sizes);
  gcol_buffer_free(chars);
  gcol_column_free(offsets);
  return status;
}

/* Checks the arguments of every form (before any device work); sp gets the enumeration. */
static gcol_status pieces_check(gcol_column_view input, const gcol_regex *re, int32_t kind,
                                int64_t max_splits, gcol_stream stream,
                                gcol_detail_regex_pieces_spec *sp) {
  gcol_status status = GCOL_OK;
  memset(sp, 0, sizeof *sp);
  GCOL_DETAIL_CHECK_NOT_NULL(re);
  GCOL_DETAIL_TRY(gcol_detail_strings_check(input, "input"));
  GCOL_DETAIL_CHECK(max_splits >= -1, GCOL_ERROR_INVALID_ARGUMENT,
                    "max_splits is %lld: -1 (all) or a count >= 0", (long long)max_splits);
  if (kind == GCOL_DETAIL_REGEX_FINDALL) {
    /* Python's findall makes a tuple of a match's groups: a LIST of STRING has no place */
    GCOL_DETAIL_CHECK(re->host.prog.num_groups <= 1, GCOL_ERROR_UNSUPPORTED,
                      "the pattern has %d capturing groups: findall takes a pattern of 0 or 1 "
                      "(make the others non-capturing with (?:...), or use "
                      "gcol_strings_regex_extract)",
                      (int)re->host.prog.num_groups);
    sp->group = re->host.prog.num_groups;
  }
  sp->kind = kind;
  sp->max_splits = max_splits;
  GCOL_DETAIL_TRY(gcol_detail_strings_check_int32_rows(input, stream));
done:
  return status;
}

/* The pieces of every row: *places (row i's first place, and the count at n), the values
 * column (from mr) and the most pieces of a row. */
static gcol_status regex_pieces(gcol_column_view input, const gcol_regex *re,
                                gcol_detail_regex_pieces_spec sp, gcol_stream stream, gcol_mr *mr,
                                gcol_buffer **places, gcol_column **values, int64_t *most) {
  gcol_status status = GCOL_OK;
  gcol_buffer *prog_dev = NULL, *scratch = NULL;
  gcol_detail_regex_pieces_args a;
  gcol_strings_view s;
  int64_t pieces = 0, blocks = 0;
  memset(&a, 0, sizeof a);
  a.sp = sp;
  GCOL_DETAIL_TRY(gcol_strings_view_make(input, &s));
  if (input.size > 0) {
    a.words = gcol_detail_regex_scratch_ints(&re->host.prog, gcol_detail_regex_pieces_slots(sp));
    GCOL_DETAIL_TRY(gcol_detail_regex_to_device(re, stream, &prog_dev, &a.prog));
    GCOL_DETAIL_TRY(
        gcol_detail_regex_scratch_make(input.size, a.words, stream, &a.local, &blocks, &scratch));
    a.scratch = gcol_detail_regex_scratch_data(scratch);
  }
  GCOL_DETAIL_TRY(count_pieces(s, a, blocks, stream, places, &pieces, most));
  GCOL_DETAIL_TRY(
      write_pieces(s, a, blocks, (const int64_t *)(*places)->data, pieces, stream, mr, values));
done:
  gcol_buffer_free(scratch);
  gcol_buffer_free(prog_dev);
  return status;
}

/* findall, split_record_re, rsplit_record_re: a LIST of the pieces. */
static gcol_status pieces_record(gcol_column_view input, const gcol_regex *re, int32_t kind,
                                 int64_t max_splits, gcol_column **out, gcol_stream stream,
                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *places = NULL;
  gcol_column *values = NULL;
  int64_t most = 0;
  gcol_detail_regex_pieces_spec sp;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(pieces_check(input, re, kind, max_splits, stream, &sp));
  GCOL_DETAIL_TRY(regex_pieces(input, re, sp, stream, mr, &places, &values, &most));
  GCOL_DETAIL_TRY(
      gcol_detail_split_list(input, (const int64_t *)places->data, &values, stream, mr, out));
done:
  gcol_buffer_free(places);
  gcol_column_free(values);
  return status;
}

/* split_re, rsplit_re: column j of the table is each row's piece j. */
static gcol_status pieces_table(gcol_column_view input, const gcol_regex *re, int32_t kind,
                                int64_t max_splits, gcol_table **out, gcol_stream stream,
                                gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_buffer *places = NULL;
  gcol_column *values = NULL;
  int64_t most = 0;
  gcol_detail_regex_pieces_spec sp;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(pieces_check(input, re, kind, max_splits, stream, &sp));
  /* the pieces are a temporary here: the table's columns are gathered from them */
  GCOL_DETAIL_TRY(regex_pieces(input, re, sp, stream, NULL, &places, &values, &most));
  GCOL_DETAIL_TRY(gcol_detail_split_table(gcol_column_get_view(values),
                                          (const int64_t *)places->data, input.size, most, stream,
                                          mr, out));
done:
  gcol_buffer_free(places);
  gcol_column_free(values);
  return status;
}

extern "C" gcol_status gcol_strings_findall(gcol_column_view input, const gcol_regex *re,
                                            gcol_column **out, gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_findall");
  gcol_status const status =
      pieces_record(input, re, GCOL_DETAIL_REGEX_FINDALL, -1, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_split_re(gcol_column_view input, const gcol_regex *re,
                                             int64_t max_splits, gcol_table **out,
                                             gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_split_re");
  gcol_status const status =
      pieces_table(input, re, GCOL_DETAIL_REGEX_SPLIT, max_splits, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_rsplit_re(gcol_column_view input, const gcol_regex *re,
                                              int64_t max_splits, gcol_table **out,
                                              gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_rsplit_re");
  gcol_status const status =
      pieces_table(input, re, GCOL_DETAIL_REGEX_RSPLIT, max_splits, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_split_record_re(gcol_column_view input, const gcol_regex *re,
                                                    int64_t max_splits, gcol_column **out,
                                                    gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_split_record_re");
  gcol_status const status =
      pieces_record(input, re, GCOL_DETAIL_REGEX_SPLIT, max_splits, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_strings_rsplit_record_re(gcol_column_view input, const gcol_regex *re,
                                                     int64_t max_splits, gcol_column **out,
                                                     gcol_stream stream, gcol_mr *mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_strings_rsplit_record_re");
  gcol_status const status =
      pieces_record(input, re, GCOL_DETAIL_REGEX_RSPLIT, max_splits, out, stream, mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
