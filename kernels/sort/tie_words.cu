/*
 * String-prefix ties narrowed by the strings' next 8-byte words (sort.cu's string pass).
 *
 * The radix pass orders a STRING column by its first 8 bytes; rows whose prefix ties with a
 * neighbour's need more. A comparison sort of all of them reads whole strings at random
 * O(log m) times each: when many rows share a long prefix (URLs, paths, ids with a common
 * head) that sort is the whole cost (183 ms for 2^24 rows sharing 16 bytes on an H200).
 * Instead, each round here is MSD radix on the next word: the ties' 8 bytes at `depth`
 * (big-endian, zero-padded, inverted for a descending column, 0 for a null row), a stable
 * radix sort by that word and then by the tie's group (its run of equal keys so far), new
 * groups where the word changes. A tie alone in its group has its final place: its row goes
 * to perm there. The others go on to the next word, up to TIE_ROUNDS rounds; what is left
 * (equal strings, zero bytes versus padding, nulls) goes to the comparison sort, with each
 * prefix replaced by its group's rank so the sort only breaks ties within groups.
 *
 * Zero-padded words order two strings as their bytes do whenever the words differ (a string
 * that ends first is a prefix of the other, and padding sorts before any byte but 0), so a
 * word split is always right; equal words only defer to the next round or the comparison.
 */
#include "common.cuh"
#include "sort/sort_internal.h"

namespace {

/* Rounds of 8 bytes past the radix pass's prefix (bytes 8 to 56). */
constexpr int TIE_ROUNDS = 6;

/* Fewer ties than this go straight to the comparison sort, which is quick on them, while a
 * round costs about 14 launches and 2 synchronizations (a test of thousands of small sorts
 * went from 15 to 44 s with every tie set refined). Tests lower it to reach the rounds. */
int64_t tie_refine_min = (int64_t)1 << 14;

__device__ __forceinline__ int64_t load_idx(const void *p, int32_t bytes, int64_t i) {
  return bytes == 4 ? (int64_t)((const uint32_t *)p)[i] : (int64_t)((const uint64_t *)p)[i];
}

__device__ __forceinline__ void store_idx(void *p, int32_t bytes, int64_t i, int64_t v) {
  if (bytes == 4) {
    ((uint32_t *)p)[i] = (uint32_t)v;
  } else {
    ((uint64_t *)p)[i] = (uint64_t)v;
  }
}

/* The 8 bytes of a row's string from byte `depth`, as the sort orders them. */
__device__ uint64_t word_at(const gcol_detail_key_column *c, int64_t row, int64_t depth) {
  if (!gcol_detail_key_is_valid(c, row)) return 0;
  gcol_string_ref const s = gcol_detail_key_string(c, row);
  uint64_t w = 0;
  for (int64_t k = 0; k < 8; ++k) {
    int64_t const p = depth + k;
    w = (w << 8) | (p < s.size ? (uint64_t)(unsigned char)s.data[p] : 0u);
  }
  return c->descending ? ~w : w;
}

/* words[j] = tie j's word at depth; idx[j] = j. */
__global__ void tie_words_kernel(const gcol_detail_string_tie *ties, gcol_detail_key_column column,
                                 int64_t depth, int64_t m, uint64_t *words, void *idx,
                                 int32_t idx_bytes) {
  GCOL_DETAIL_GRID_LOOP(j, m) {
    words[j] = word_at(&column, (int64_t)ties[j].row, depth);
    store_idx(idx, idx_bytes, j, j);
  }
}

/* flags[j] = 1 where a group starts after j = 0: the group key (tie prefix, then the word
 * when given) differs from the previous tie's. */
__global__ void group_start_kernel(const uint64_t *keys, const uint64_t *words, int64_t m,
                                   int64_t *flags) {
  GCOL_DETAIL_GRID_LOOP(j, m) {
    flags[j] = j > 0 && (keys[j] != keys[j - 1] || (words != NULL && words[j] != words[j - 1]));
  }
}

/* The ties' prefixes (the group keys) as a plain array. */
__global__ void tie_prefix_kernel(const gcol_detail_string_tie *ties, int64_t m, uint64_t *keys) {
  GCOL_DETAIL_GRID_LOOP(j, m) { keys[j] = ties[j].prefix; }
}

/* keys[j] = group[perm[j]]: the group sort's keys, in the word sort's order. */
__global__ void group_keys_kernel(const int64_t *group, const void *perm, int32_t idx_bytes,
                                  int64_t m, uint64_t *keys) {
  GCOL_DETAIL_GRID_LOOP(j, m) { keys[j] = (uint64_t)group[load_idx(perm, idx_bytes, j)]; }
}

/* The ties, their words and groups in the order of perm. */
__global__ void gather_ties_kernel(const gcol_detail_string_tie *ties, const uint64_t *words,
                                   const int64_t *group, const void *perm, int32_t idx_bytes,
                                   int64_t m, gcol_detail_string_tie *ties_out,
                                   uint64_t *words_out, uint64_t *group_out) {
  GCOL_DETAIL_GRID_LOOP(j, m) {
    int64_t const from = load_idx(perm, idx_bytes, j);
    ties_out[j] = ties[from];
    words_out[j] = words[from];
    group_out[j] = (uint64_t)group[from];
  }
}

/* A tie alone in its new group (ids `group`, inclusive) is placed; keep[j] = 1 for the
 * others. */
__global__ void place_alone_kernel(const gcol_detail_string_tie *ties, const int64_t *group,
                                   const int64_t *positions, int64_t m, void *perm,
                                   int32_t index_bytes, int64_t *keep) {
  GCOL_DETAIL_GRID_LOOP(j, m) {
    bool const alone =
        (j == 0 || group[j] != group[j - 1]) && (j + 1 == m || group[j] != group[j + 1]);
    if (alone) store_idx(perm, index_bytes, positions[j], (int64_t)ties[j].row);
    keep[j] = alone ? 0 : 1;
  }
}

/* The kept ties, their prefix now the group's id, and their positions, compacted. */
__global__ void compact_ties_kernel(const gcol_detail_string_tie *ties, const int64_t *group,
                                    const int64_t *positions_in, const int64_t *keep_scan,
                                    int64_t m, gcol_detail_string_tie *ties_out,
                                    int64_t *positions_out) {
  GCOL_DETAIL_GRID_LOOP(j, m) {
    int64_t const before = j > 0 ? keep_scan[j - 1] : 0;
    if (keep_scan[j] != before) {
      ties_out[before].prefix = (uint64_t)group[j];
      ties_out[before].row = ties[j].row;
      positions_out[before] = positions_in[j];
    }
  }
}

unsigned int grid_for(int64_t n) { return gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE); }

/* The last element of an int64 device array. */
gcol_status read_last(const int64_t *a, int64_t m, cudaStream_t s, int64_t *out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(out, a + (m - 1), sizeof *out, cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
done:
  return status;
}

/* Scratch of one round, sized for the first round's ties. */
struct round_buffers {
  gcol_buffer *words[2], *idx[2], *gkeys[2], *group, *flags;
  gcol_buffer *ties_tmp, *words_tmp, *group_tmp, *positions_tmp;
};

void round_buffers_free(round_buffers *b) {
  gcol_buffer *all[] = {b->words[0], b->words[1], b->idx[0],   b->idx[1],      b->gkeys[0],
                        b->gkeys[1], b->group,    b->flags,    b->ties_tmp,    b->words_tmp,
                        b->group_tmp, b->positions_tmp};
  for (gcol_buffer *p : all) gcol_buffer_free(p);
  memset(b, 0, sizeof *b);
}

gcol_status round_buffers_make(int64_t m, int32_t idx_bytes, gcol_stream stream,
                               round_buffers *b) {
  gcol_status status = GCOL_OK;
  size_t const n = (size_t)m;
  memset(b, 0, sizeof *b);
  for (int k = 0; k < 2; ++k) {
    GCOL_DETAIL_TRY(gcol_buffer_create(8 * n, stream, NULL, &b->words[k]));
    GCOL_DETAIL_TRY(gcol_buffer_create((size_t)idx_bytes * n, stream, NULL, &b->idx[k]));
    GCOL_DETAIL_TRY(gcol_buffer_create(8 * n, stream, NULL, &b->gkeys[k]));
  }
  GCOL_DETAIL_TRY(gcol_buffer_create(8 * n, stream, NULL, &b->group));
  GCOL_DETAIL_TRY(gcol_buffer_create(8 * n, stream, NULL, &b->flags));
  GCOL_DETAIL_TRY(gcol_buffer_create(sizeof(gcol_detail_string_tie) * n, stream, NULL,
                                     &b->ties_tmp));
  GCOL_DETAIL_TRY(gcol_buffer_create(8 * n, stream, NULL, &b->words_tmp));
  GCOL_DETAIL_TRY(gcol_buffer_create(8 * n, stream, NULL, &b->group_tmp));
  GCOL_DETAIL_TRY(gcol_buffer_create(8 * n, stream, NULL, &b->positions_tmp));
done:
  if (status != GCOL_OK) round_buffers_free(b);
  return status;
}

/* Group ids (0-based, inclusive scan of the starts) of keys[0, m), words optional; returns
 * the number of groups. */
gcol_status group_ids(const uint64_t *keys, const uint64_t *words, int64_t m, int64_t *ids,
                      gcol_stream stream, int64_t *groups) {
  gcol_status status = GCOL_OK;
  group_start_kernel<<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, (cudaStream_t)stream>>>(keys, words,
                                                                                     m, ids);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_TRY(gcol_detail_inclusive_sum_i64(ids, ids, m, stream));
  GCOL_DETAIL_TRY(read_last(ids, m, (cudaStream_t)stream, groups));
  *groups += 1;
done:
  return status;
}

/* Bits of the largest group id. */
int bits_for(int64_t groups) {
  int bits = 1;
  while (bits < 63 && ((int64_t)1 << bits) < groups) ++bits;
  return bits;
}

/* Sorts the m ties stably by (group, word at depth): the permutation ends in *perm_out
 * (one of b->idx), the original words in b->words[0]. */
gcol_status sort_round(const gcol_detail_string_tie *ties, gcol_detail_key_column column,
                       int64_t depth, int64_t m, int64_t groups, int32_t idx_bytes,
                       round_buffers *b, gcol_stream stream, const void **perm_out) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  gcol_detail_radix_buffers r;
  tie_words_kernel<<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
      ties, column, depth, m, (uint64_t *)b->words[0]->data, b->idx[0]->data, idx_bytes);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  /* by word: the words stay in words[0] (read only), the order lands in idx[1] */
  memset(&r, 0, sizeof r);
  r.keys[0] = b->words[0]->data;
  r.keys[1] = b->words[1]->data;
  r.values[0] = b->idx[0]->data;
  r.values[1] = b->idx[1]->data;
  r.key_bytes = 8;
  r.value_bytes = idx_bytes;
  r.overwrite = false;
  GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs(&r, m, 64, stream));
  *perm_out = b->idx[1]->data;
  if (groups > 1) {
    /* then by group, stably: the final order in idx[current] */
    int const bits = bits_for(groups);
    group_keys_kernel<<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const int64_t *)b->group->data, b->idx[1]->data, idx_bytes, m,
        (uint64_t *)b->gkeys[0]->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    memset(&r, 0, sizeof r);
    r.keys[0] = b->gkeys[0]->data;
    r.keys[1] = b->gkeys[1]->data;
    r.values[0] = b->idx[0]->data;
    r.values[1] = b->idx[1]->data;
    r.key_bytes = 8;
    r.value_bytes = idx_bytes;
    r.values_current = 1;
    r.overwrite = true;
    GCOL_DETAIL_TRY(gcol_detail_radix_sort_pairs(&r, m, bits, stream));
    *perm_out = b->idx[r.values_current]->data;
  }
done:
  return status;
}

}  // namespace

extern "C" int64_t gcol_detail_set_tie_refine_min(int64_t ties) {
  int64_t const previous = tie_refine_min;
  tie_refine_min = ties;
  return previous;
}

extern "C" gcol_status gcol_detail_refine_ties_by_words(gcol_detail_string_tie *ties,
                                                        int64_t *positions, int64_t *count,
                                                        gcol_detail_key_column column,
                                                        void *perm, int32_t index_bytes,
                                                        gcol_stream stream) {
  gcol_status status = GCOL_OK;
  round_buffers b;
  cudaStream_t const s = (cudaStream_t)stream;
  int64_t m = *count;
  int32_t const idx_bytes = m <= INT32_MAX ? 4 : 8;
  memset(&b, 0, sizeof b);
  if (m < 2 || m < tie_refine_min) goto done;
  GCOL_DETAIL_TRY(round_buffers_make(m, idx_bytes, stream, &b));
  for (int round = 0; round < TIE_ROUNDS && m > 1; ++round) {
    int64_t groups = 0, kept = 0;
    const void *order = NULL;
    int64_t *const group = (int64_t *)b.group->data;
    /* the groups so far: runs of equal prefix (the radix word, later the group id) */
    tie_prefix_kernel<<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        ties, m, (uint64_t *)b.gkeys[0]->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(
        group_ids((const uint64_t *)b.gkeys[0]->data, NULL, m, group, stream, &groups));
    GCOL_DETAIL_TRY(sort_round(ties, column, 8 * (int64_t)(round + 1), m, groups, idx_bytes, &b,
                               stream, &order));
    gather_ties_kernel<<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        ties, (const uint64_t *)b.words[0]->data, group, order, idx_bytes, m,
        (gcol_detail_string_tie *)b.ties_tmp->data, (uint64_t *)b.words_tmp->data,
        (uint64_t *)b.group_tmp->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    /* new groups: old group and word; the alone ones are placed */
    GCOL_DETAIL_TRY(group_ids((const uint64_t *)b.group_tmp->data,
                              (const uint64_t *)b.words_tmp->data, m, group, stream, &groups));
    place_alone_kernel<<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const gcol_detail_string_tie *)b.ties_tmp->data, group, positions, m, perm, index_bytes,
        (int64_t *)b.flags->data);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    GCOL_DETAIL_TRY(gcol_detail_inclusive_sum_i64((const int64_t *)b.flags->data,
                                                  (int64_t *)b.flags->data, m, stream));
    GCOL_DETAIL_TRY(read_last((const int64_t *)b.flags->data, m, s, &kept));
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(b.positions_tmp->data, positions,
                                         sizeof(int64_t) * (size_t)m, cudaMemcpyDeviceToDevice,
                                         s));
    compact_ties_kernel<<<grid_for(m), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
        (const gcol_detail_string_tie *)b.ties_tmp->data, group,
        (const int64_t *)b.positions_tmp->data, (const int64_t *)b.flags->data, m, ties,
        positions);
    GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    m = kept;
  }
  *count = m;
done:
  round_buffers_free(&b);
  return status;
}
