/*
 * The device hash table of gcol: open addressing over row indices, one module for distinct,
 * joins and groupby.
 *
 * A table is a power-of-two array of int64 slots, each EMPTY or the index of a row of the
 * build keys; the keys themselves stay in their columns (gcol_detail_row_column) and are
 * compared through a row matcher. Probing is linear and bounded by the capacity: a probe that
 * runs out of slots reports overflow (the caller returns GCOL_ERROR_OVERFLOW), never loops.
 * Capacity is at least twice the rows it is created for (gcol_probe_capacity_for): created
 * for every row, overflow means a bug or adversarial hashes, not a full table. distinct
 * creates it for an estimate of the distinct keys (cardinality.h) and bounds the probes
 * (`..._bounded`), so a low estimate overflows quickly and is retried for every row.
 *
 * Three uses of the same slots:
 *   - set / map: gcol_detail_hash_insert_unique() claims one slot per group of equal keys;
 *     the slot's row is the group's representative and the slot index itself is the group's
 *     id (a map from key to an aggregate slot, as groupby needs);
 *   - multimap: gcol_detail_hash_insert() claims a slot for every row, duplicates included
 *     (join builds), and gcol_detail_hash_for_each_match() visits every equal stored row.
 */
#ifndef GCOL_KERNELS_DETAIL_HASH_TABLE_CUH
#define GCOL_KERNELS_DETAIL_HASH_TABLE_CUH

#include "detail/row_operators.cuh"
#include "gcol/probe.h"

/* An unused slot (all bytes 0xFF, so a memset fills a table). */
#define GCOL_DETAIL_HASH_EMPTY (-1LL)

typedef struct gcol_detail_hash_table {
  long long *slots; /* row index or GCOL_DETAIL_HASH_EMPTY */
  int64_t capacity; /* power of two */
} gcol_detail_hash_table;

/* Compares a probe row with stored build rows: `probe_keys` row `probe_row` against
 * `build_keys` row r (the same key types; the same table for distinct and groupby). */
typedef struct gcol_detail_row_matcher {
  const gcol_detail_row_column *build_keys;
  const gcol_detail_row_column *probe_keys;
  int32_t num_keys;
  bool nulls_equal;
  int64_t probe_row;
} gcol_detail_row_matcher;

static __device__ __forceinline__ bool gcol_detail_row_matches(const gcol_detail_row_matcher *m,
                                                               int64_t build_row) {
  return gcol_detail_rows_equal(m->build_keys, build_row, m->probe_keys, m->probe_row, m->num_keys,
                                m->nulls_equal);
}

/*
 * Allocates a table for @p rows rows (temporary, default resource) in @p *storage and fills
 * it with EMPTY on @p stream. GCOL_ERROR_OVERFLOW when the capacity would not fit.
 */
extern "C" gcol_status gcol_detail_hash_table_create(int64_t rows, gcol_stream stream,
                                                     gcol_buffer **storage,
                                                     gcol_detail_hash_table *out);

/* @p seq cut to at most @p max_probes slots: a table sized by an estimate of its keys
 * (cardinality.h) gives up early when the estimate was too low, rather than crawl a full
 * table; its caller retries with a table for every row. */
static __device__ __forceinline__ gcol_probe_sequence
gcol_detail_probe_at_most(gcol_probe_sequence seq, int64_t max_probes) {
  if (seq.remaining > max_probes) seq.remaining = max_probes;
  return seq;
}

/*
 * Set / map insert of build row `m->probe_row` (probe and build keys are the same table):
 * the slot of the group of rows equal to it, claimed for it when the group is new
 * (*inserted true). -1 when @p max_probes slots were probed in vain (overflow).
 */
static __device__ __forceinline__ int64_t gcol_detail_hash_insert_unique_bounded(
    gcol_detail_hash_table t, uint64_t hash, const gcol_detail_row_matcher *m, int64_t max_probes,
    bool *inserted) {
  gcol_probe_sequence seq =
      gcol_detail_probe_at_most(gcol_probe_linear(hash, t.capacity), max_probes);
  int64_t slot = 0;
  *inserted = false;
  while (gcol_probe_next(&seq, &slot)) {
    long long cur = ((volatile long long *)t.slots)[slot];
    if (cur == GCOL_DETAIL_HASH_EMPTY) {
      cur = (long long)atomicCAS((unsigned long long *)&t.slots[slot],
                                 (unsigned long long)GCOL_DETAIL_HASH_EMPTY,
                                 (unsigned long long)m->probe_row);
      if (cur == GCOL_DETAIL_HASH_EMPTY) {
        *inserted = true;
        return slot;
      }
    }
    if (gcol_detail_row_matches(m, cur)) return slot;
  }
  return -1;
}

/* gcol_detail_hash_insert_unique_bounded() that may probe every slot. */
static __device__ __forceinline__ int64_t gcol_detail_hash_insert_unique(
    gcol_detail_hash_table t, uint64_t hash, const gcol_detail_row_matcher *m, bool *inserted) {
  return gcol_detail_hash_insert_unique_bounded(t, hash, m, t.capacity, inserted);
}

/* Multimap insert of build row @p row: claims the first empty slot. False on overflow. */
static __device__ __forceinline__ bool gcol_detail_hash_insert(gcol_detail_hash_table t,
                                                               uint64_t hash, int64_t row) {
  gcol_probe_sequence seq = gcol_probe_linear(hash, t.capacity);
  int64_t slot = 0;
  while (gcol_probe_next(&seq, &slot)) {
    if (((volatile long long *)t.slots)[slot] != GCOL_DETAIL_HASH_EMPTY) continue;
    long long const cur =
        (long long)atomicCAS((unsigned long long *)&t.slots[slot],
                             (unsigned long long)GCOL_DETAIL_HASH_EMPTY, (unsigned long long)row);
    if (cur == GCOL_DETAIL_HASH_EMPTY) return true;
  }
  return false;
}

/* The slot of a stored row equal to the probe row, or -1 (after the build has finished:
 * the first empty slot ends the search). */
static __device__ __forceinline__ int64_t gcol_detail_hash_find(gcol_detail_hash_table t,
                                                                uint64_t hash,
                                                                const gcol_detail_row_matcher *m) {
  gcol_probe_sequence seq = gcol_probe_linear(hash, t.capacity);
  int64_t slot = 0;
  while (gcol_probe_next(&seq, &slot)) {
    long long const cur = t.slots[slot];
    if (cur == GCOL_DETAIL_HASH_EMPTY) return -1;
    if (gcol_detail_row_matches(m, cur)) return slot;
  }
  return -1;
}

/* Number of stored rows equal to the probe row (multimap; after the build has finished). */
static __device__ __forceinline__ int64_t gcol_detail_hash_count_matches(
    gcol_detail_hash_table t, uint64_t hash, const gcol_detail_row_matcher *m) {
  gcol_probe_sequence seq = gcol_probe_linear(hash, t.capacity);
  int64_t slot = 0, count = 0;
  while (gcol_probe_next(&seq, &slot)) {
    long long const cur = t.slots[slot];
    if (cur == GCOL_DETAIL_HASH_EMPTY) break;
    if (gcol_detail_row_matches(m, cur)) ++count;
  }
  return count;
}

/* Writes the stored rows equal to the probe row into out[0..) (at most `max` of them, in
 * probe order) and returns how many there are (multimap; after the build has finished). */
static __device__ __forceinline__ int64_t
gcol_detail_hash_retrieve_matches(gcol_detail_hash_table t, uint64_t hash,
                                  const gcol_detail_row_matcher *m, int64_t *out, int64_t max) {
  gcol_probe_sequence seq = gcol_probe_linear(hash, t.capacity);
  int64_t slot = 0, count = 0;
  while (gcol_probe_next(&seq, &slot)) {
    long long const cur = t.slots[slot];
    if (cur == GCOL_DETAIL_HASH_EMPTY) break;
    if (gcol_detail_row_matches(m, cur)) {
      if (count < max) out[count] = cur;
      ++count;
    }
  }
  return count;
}

/*
 * Packed keys: when the key is one fixed-width column of at most 8 bytes without nulls, a
 * slot holds the key's normalized bits (gcol_detail_row_bits) instead of a row index, so a
 * probe compares in the table (L2-resident for up to a few million groups) and never reads
 * the key column at a random row. EMPTY doubles as a key value: rows whose bits equal it
 * form the group of slot `capacity` (one slot past the table), so no value is reserved.
 */
static __device__ __forceinline__ int64_t gcol_detail_packed_insert_bounded(
    gcol_detail_hash_table t, uint64_t key, int64_t max_probes, bool *inserted) {
  *inserted = false;
  if (key == (uint64_t)GCOL_DETAIL_HASH_EMPTY) return t.capacity;
  gcol_probe_sequence seq =
      gcol_detail_probe_at_most(gcol_probe_linear(gcol_hash_mix64(key), t.capacity), max_probes);
  int64_t slot = 0;
  while (gcol_probe_next(&seq, &slot)) {
    unsigned long long cur = ((volatile unsigned long long *)t.slots)[slot];
    if (cur == (unsigned long long)GCOL_DETAIL_HASH_EMPTY) {
      cur = atomicCAS((unsigned long long *)&t.slots[slot],
                      (unsigned long long)GCOL_DETAIL_HASH_EMPTY, (unsigned long long)key);
      if (cur == (unsigned long long)GCOL_DETAIL_HASH_EMPTY) {
        *inserted = true;
        return slot;
      }
    }
    if (cur == key) return slot;
  }
  return -1;
}

/* gcol_detail_packed_insert_bounded() that may probe every slot. */
static __device__ __forceinline__ int64_t gcol_detail_packed_insert(gcol_detail_hash_table t,
                                                                    uint64_t key, bool *inserted) {
  return gcol_detail_packed_insert_bounded(t, key, t.capacity, inserted);
}

/* The slot of a packed key after the build (capacity for the EMPTY pattern), or -1. */
static __device__ __forceinline__ int64_t gcol_detail_packed_find(gcol_detail_hash_table t,
                                                                  uint64_t key) {
  if (key == (uint64_t)GCOL_DETAIL_HASH_EMPTY) return t.capacity;
  gcol_probe_sequence seq = gcol_probe_linear(gcol_hash_mix64(key), t.capacity);
  int64_t slot = 0;
  while (gcol_probe_next(&seq, &slot)) {
    unsigned long long const cur = ((const unsigned long long *)t.slots)[slot];
    if (cur == key) return slot;
    if (cur == (unsigned long long)GCOL_DETAIL_HASH_EMPTY) return -1;
  }
  return -1;
}

/*
 * A map with 16-byte slots {key word, value} (joins): a probe finds the key and its value in
 * one 16-byte load, so a join whose build keys are unique reads one sector per probe row and
 * never the build's key columns (packed keys) nor a second array. `capacity + 1` slots: the
 * last one serves the packed key whose bits equal EMPTY (as gcol_detail_packed_insert).
 *
 * Key words: packed keys hold the key's bits; other keys hold a build row, tagged with the
 * high 32 bits of its hash above the row when the build has fewer than 2^32 - 1 rows, so most
 * probes of a different key are rejected without reading the build's columns.
 */
typedef struct gcol_detail_hash_map {
  unsigned long long *slots; /* 2 words per slot: key word (EMPTY when free), value */
  int64_t capacity;          /* power of two */
  bool tagged;               /* row key words carry a hash tag */
} gcol_detail_hash_map;

/* Allocates and empties a map for @p rows rows (temporary, default resource). */
extern "C" gcol_status gcol_detail_hash_map_create(int64_t rows, bool tagged, gcol_stream stream,
                                                   gcol_buffer **storage,
                                                   gcol_detail_hash_map *out);

#define GCOL_DETAIL_MAP_EMPTY (~0ull)

/* The 16-byte slot `slot` (key word in x, value in y), read in one load. */
static __device__ __forceinline__ ulonglong2 gcol_detail_map_slot(gcol_detail_hash_map m,
                                                                  int64_t slot) {
  return ((const ulonglong2 *)m.slots)[slot];
}

/* Claims the key word of `slot` if it is EMPTY; returns the word there before. */
static __device__ __forceinline__ unsigned long long gcol_detail_map_claim(
    gcol_detail_hash_map m, int64_t slot, unsigned long long word) {
  unsigned long long const cur = ((volatile unsigned long long *)m.slots)[2 * slot];
  if (cur != GCOL_DETAIL_MAP_EMPTY) return cur;
  return atomicCAS(&m.slots[2 * slot], GCOL_DETAIL_MAP_EMPTY, word);
}

/* Packed insert: the slot of `key` (claimed when new: *inserted), -1 on overflow. */
static __device__ __forceinline__ int64_t gcol_detail_map_insert_packed(gcol_detail_hash_map m,
                                                                        uint64_t key,
                                                                        bool *inserted) {
  *inserted = false;
  if (key == GCOL_DETAIL_MAP_EMPTY) {
    *inserted = gcol_detail_map_claim(m, m.capacity, 0) == GCOL_DETAIL_MAP_EMPTY;
    return m.capacity;
  }
  gcol_probe_sequence seq = gcol_probe_linear(gcol_hash_mix64(key), m.capacity);
  int64_t slot = 0;
  while (gcol_probe_next(&seq, &slot)) {
    unsigned long long const cur = gcol_detail_map_claim(m, slot, key);
    if (cur == GCOL_DETAIL_MAP_EMPTY) {
      *inserted = true;
      return slot;
    }
    if (cur == key) return slot;
  }
  return -1;
}

/* Packed find after the build: the slot of `key` (its value in *value), or -1. */
static __device__ __forceinline__ int64_t gcol_detail_map_find_packed(gcol_detail_hash_map m,
                                                                      uint64_t key,
                                                                      int64_t *value) {
  if (key == GCOL_DETAIL_MAP_EMPTY) {
    ulonglong2 const kv = gcol_detail_map_slot(m, m.capacity);
    *value = (int64_t)kv.y;
    return kv.x == GCOL_DETAIL_MAP_EMPTY ? -1 : m.capacity;
  }
  gcol_probe_sequence seq = gcol_probe_linear(gcol_hash_mix64(key), m.capacity);
  int64_t slot = 0;
  while (gcol_probe_next(&seq, &slot)) {
    ulonglong2 const kv = gcol_detail_map_slot(m, slot);
    if (kv.x == key) {
      *value = (int64_t)kv.y;
      return slot;
    }
    if (kv.x == GCOL_DETAIL_MAP_EMPTY) return -1;
  }
  return -1;
}

/* The key word of build row `row` with hash `hash`. */
static __device__ __forceinline__ unsigned long long gcol_detail_map_row_word(
    gcol_detail_hash_map m, uint64_t hash, int64_t row) {
  return m.tagged ? ((hash >> 32) << 32) | (unsigned long long)row : (unsigned long long)row;
}

/* The build row of a row key word, or -1 when its tag rules out the probe's hash. */
static __device__ __forceinline__ int64_t gcol_detail_map_word_row(gcol_detail_hash_map m,
                                                                   unsigned long long word,
                                                                   uint64_t hash) {
  if (!m.tagged) return (int64_t)word;
  return (word >> 32) == (hash >> 32) ? (int64_t)(word & 0xFFFFFFFFull) : -1;
}

/* Row insert of build row `r->probe_row` (build and probe keys the same table). */
static __device__ __forceinline__ int64_t gcol_detail_map_insert_row(
    gcol_detail_hash_map m, uint64_t hash, const gcol_detail_row_matcher *r, bool *inserted) {
  gcol_probe_sequence seq = gcol_probe_linear(hash, m.capacity);
  unsigned long long const word = gcol_detail_map_row_word(m, hash, r->probe_row);
  int64_t slot = 0;
  *inserted = false;
  while (gcol_probe_next(&seq, &slot)) {
    unsigned long long const cur = gcol_detail_map_claim(m, slot, word);
    if (cur == GCOL_DETAIL_MAP_EMPTY) {
      *inserted = true;
      return slot;
    }
    int64_t const row = gcol_detail_map_word_row(m, cur, hash);
    if (row >= 0 && gcol_detail_row_matches(r, row)) return slot;
  }
  return -1;
}

/* Row find after the build: the slot of a build row equal to the probe row, or -1. */
static __device__ __forceinline__ int64_t gcol_detail_map_find_row(gcol_detail_hash_map m,
                                                                   uint64_t hash,
                                                                   const gcol_detail_row_matcher *r,
                                                                   int64_t *value) {
  gcol_probe_sequence seq = gcol_probe_linear(hash, m.capacity);
  int64_t slot = 0;
  while (gcol_probe_next(&seq, &slot)) {
    ulonglong2 const kv = gcol_detail_map_slot(m, slot);
    if (kv.x == GCOL_DETAIL_MAP_EMPTY) return -1;
    int64_t const row = gcol_detail_map_word_row(m, kv.x, hash);
    if (row >= 0 && gcol_detail_row_matches(r, row)) {
      *value = (int64_t)kv.y;
      return slot;
    }
  }
  return -1;
}

#endif /* GCOL_KERNELS_DETAIL_HASH_TABLE_CUH */
