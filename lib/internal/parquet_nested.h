/*
 * Nested Parquet columns (lib/io/parquet_nested.c): the schema tree mapped to gcol LIST and
 * STRUCT columns, and the Dremel repetition/definition levels of a leaf turned into each
 * nested level's offsets and validity. The reader leaves the levels in the pages (nvCOMP may
 * decompress them), the page decode writes them out a byte per entry, and the checks and the
 * offsets, masks and leaf maps are built on the GPU (kernels/io/parquet_nested.cu). The same
 * rules in plain host C, over levels decoded while planning, are the reference: the host tests
 * run them on hand-computed cases, and parquet_dump --host reads files through them.
 *
 * Each node of the tree is one gcol column (a LIST, a STRUCT or a leaf). Read against the
 * levels of a leaf beneath it, one level entry (rep, def) at a time:
 *   - an entry opens a slot of the node (one row of its column) when rep <= parent_rep and
 *     def >= slot_def: parent_rep is the repetition level of the innermost list around it
 *     (0: the table's rows), slot_def the definition level at which its parent holds it;
 *   - that slot is valid when def >= valid_def (valid_def == slot_def: never null);
 *   - a LIST's slot holds the child slots opened up to its next slot; the child's slots are
 *     the entries with rep <= rep (the list's own repetition level) and def >= elem_def.
 */
#ifndef GCOL_INTERNAL_PARQUET_NESTED_H
#define GCOL_INTERNAL_PARQUET_NESTED_H

#include <stdbool.h>
#include <stdint.h>

#include "internal/parquet.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  GCOL_DETAIL_PQN_LEAF = 0,
  GCOL_DETAIL_PQN_STRUCT = 1,
  GCOL_DETAIL_PQN_LIST = 2,
};

typedef struct gcol_detail_pqn_node {
  int32_t kind;      /* GCOL_DETAIL_PQN_* */
  const char *name;  /* the schema element's name (points into the metadata) */
  int32_t schema;    /* its schema element */
  int32_t leaf;      /* LEAF: the leaf column index, else -1 */
  int32_t first_leaf; /* leaves beneath: [first_leaf, first_leaf + num_leaves) */
  int32_t num_leaves;
  int32_t parent_rep;
  int32_t slot_def;
  int32_t valid_def;
  int32_t rep;      /* LIST: its repeated node's repetition level */
  int32_t elem_def; /* LIST: the definition level at which it holds an element */
  int32_t num_children;
  int32_t first_child; /* index of its first child in tree->children */
} gcol_detail_pqn_node;

/* The schema as gcol columns: nodes in depth-first order, the roots the top-level fields. */
typedef struct gcol_detail_pqn_tree {
  int32_t num_nodes;
  gcol_detail_pqn_node *nodes;
  int32_t *children; /* child node indices, each node's consecutive from first_child */
  int32_t num_roots;
  int32_t *roots;
  int32_t *leaf_node; /* num_leaves entries: the node of each leaf column */
  int32_t *parent;    /* num_nodes entries: the parent node, -1 for a root */
} gcol_detail_pqn_tree;

/* Builds the tree of md's schema. Lists: a group annotated LIST (or MAP, read as a list of
 * struct<key, value>) with one repeated child; its element is that child's single field
 * (3 levels), or the repeated child itself when it is a primitive, a group of several fields,
 * or a group of one field named "array" or "<list>_tuple" (the 2-level forms of the format's
 * backward-compatibility rules). A repeated field elsewhere is a required list of itself.
 * Errors (GCOL_ERROR_INVALID_ARGUMENT, the column named): a LIST/MAP group that is repeated or
 * whose child is not one repeated field. */
gcol_status gcol_detail_pqn_build(const gcol_parquet_metadata *md, gcol_detail_pqn_tree *out);
void gcol_detail_pqn_free(gcol_detail_pqn_tree *tree);

/* Whether the node is a leaf with no list or struct above it (read as a flat column). */
bool gcol_detail_pqn_is_flat_root(const gcol_detail_pqn_tree *tree, int32_t node);

/* Whether the node lies inside a list (some ancestor is a LIST). */
bool gcol_detail_pqn_in_list(const gcol_detail_pqn_tree *tree, int32_t node);

/* The node whose dotted path from the root is `name` ("s", "s.a", a list's name), or -1.
 * The path names schema elements, so an element under a 3-level list is "l.list.element". */
int32_t gcol_detail_pqn_find(const gcol_parquet_metadata *md, const gcol_detail_pqn_tree *tree,
                             const char *name);

/* The root holding leaf `leaf`. */
int32_t gcol_detail_pqn_root_of_leaf(const gcol_detail_pqn_tree *tree, int32_t leaf);

/* The definition level at which each repetition level's list holds an element, for a leaf:
 * def_for_rep[k] for k in [1, max_rep] (def_for_rep[0] = 0). `def_for_rep` has at least
 * max_rep + 1 entries. */
void gcol_detail_pqn_def_for_rep(const gcol_detail_pqn_tree *tree, int32_t leaf,
                                 int32_t *def_for_rep);

/* ---- levels ---- */

/* Decodes `count` levels of `bit_width` bits from the RLE/bit-packed hybrid stream [p, end)
 * into out. Returns GCOL_DETAIL_PQ_E_OK, GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED (the stream ends
 * first) or GCOL_DETAIL_PQ_E_LEVEL_RANGE (a level above max_level). Never reads outside
 * [p, end). */
int gcol_detail_pqn_decode_levels(const uint8_t *p, const uint8_t *end, int32_t max_level,
                                  int64_t count, uint8_t *out);

/* Checks a leaf's levels (a chunk's, rep NULL when max_rep is 0): the first entry starts a
 * row (rep 0), and an entry of rep k > 0 continues a list that exists both in it and in the
 * entry before (def >= def_for_rep[k] for both). Returns -1 when they are consistent, else
 * the first bad entry. *rows receives the number of rows (entries of rep 0). */
int64_t gcol_detail_pqn_check_levels(const uint8_t *rep, const uint8_t *def, int64_t n,
                                     const int32_t *def_for_rep, int32_t max_rep, int64_t *rows);

/* The slots of `node` over a leaf's levels (rep NULL: all 0). */
int64_t gcol_detail_pqn_count_slots(const gcol_detail_pqn_node *node, const uint8_t *rep,
                                    const uint8_t *def, int64_t n);

/* Fills the node's slots: valid[s] (NULL: not wanted) = the slot is valid; for a LIST,
 * offsets[s] (count + 1 entries, offsets[0] = 0) = its first child slot. Returns the null
 * count. The levels must have passed gcol_detail_pqn_check_levels. */
int64_t gcol_detail_pqn_fill(const gcol_detail_pqn_node *node, const uint8_t *rep,
                             const uint8_t *def, int64_t n, uint8_t *valid, int64_t *offsets);

/* The leaf's slots as positions among the level entries: map[s] = the entry of slot s
 * (count_slots entries). */
void gcol_detail_pqn_leaf_map(const gcol_detail_pqn_node *node, const uint8_t *rep,
                              const uint8_t *def, int64_t n, int64_t *map);

/* ---- the host reference: levels decoded while planning ---- */

/* Checks the levels of the plans of `node`'s leaves (plans[k] for leaf first_leaf + k,
 * planned with gcol_detail_parquet_plan_column_levels over row_groups): in each chunk the
 * first entry starts a row, an entry continues only a list that exists, and the rows equal its
 * row group's. GCOL_ERROR_INVALID_ARGUMENT naming the row group, column and page otherwise. */
gcol_status gcol_detail_pqn_check_plans(const gcol_parquet_metadata *md,
                                        const gcol_detail_pqn_tree *tree, int32_t node,
                                        const gcol_detail_pq_column_plan *plans,
                                        const int32_t *row_groups, int32_t num_row_groups);

/* ---- the read on the GPU: levels written out by the page decode ---- */

/* A leaf's levels in device memory (gcol_detail_parquet_decode_columns_levels), a byte per
 * entry: rep NULL when its max repetition level is 0. */
typedef struct gcol_detail_pqn_levels {
  const uint8_t *rep;
  const uint8_t *def;
} gcol_detail_pqn_levels;

/* out[i] = the device pointers of levels[2 * i] (rep) and levels[2 * i + 1] (def), as
 * gcol_detail_parquet_decode_columns_levels gives them, for i in [0, n) (NULL stays NULL). */
void gcol_detail_pqn_levels_of(gcol_buffer *const *levels, int32_t n, gcol_detail_pqn_levels *out);

/* gcol_detail_pqn_check_plans for plans made by gcol_detail_parquet_plan_column_levels_gpu,
 * their levels in levels[k] (plans[k]'s): the same checks and messages, on the GPU. */
gcol_status gcol_detail_pqn_check_plans_gpu(const gcol_parquet_metadata *md,
                                            const gcol_detail_pqn_tree *tree, int32_t node,
                                            const gcol_detail_pq_column_plan *plans,
                                            const gcol_detail_pqn_levels *levels,
                                            const int32_t *row_groups, int32_t num_row_groups,
                                            gcol_stream stream);

/* Builds the column of `node` from its leaves: plans as for gcol_detail_pqn_check_plans_gpu
 * (checked), levels[k] plans[k]'s, leaves[k] the column decoded from plans[k] (one row per
 * level entry; taken: freed or moved into *out, set to NULL). Each node's slots are an
 * exclusive sum over the entries of its first leaf; offsets (INT32, or INT64 past
 * 2^31 - 1 elements) and null masks are built on the GPU, a leaf keeps only its slots (a
 * gather by their entries when some entries hold none). `name` names the column in errors. */
gcol_status gcol_detail_pqn_assemble_gpu(const gcol_detail_pqn_tree *tree, int32_t node,
                                         const gcol_detail_pq_column_plan *plans,
                                         const gcol_detail_pqn_levels *levels, gcol_column **leaves,
                                         const char *file_name, gcol_stream stream, gcol_mr *mr,
                                         gcol_column **out);

/* Kernels (kernels/io/parquet_nested.cu), over a leaf's n device levels (rep NULL: all 0). */

/* scan[e] for e in [0, n]: the entries before e that open a slot of a node held at
 * (parent_rep, slot_def) (rep <= parent_rep and def >= slot_def); scan[n] their total. */
gcol_status gcol_detail_pqn_scan_slots(const uint8_t *rep, const uint8_t *def, int64_t n,
                                       int32_t parent_rep, int32_t slot_def, int64_t *scan,
                                       gcol_stream stream);

/* For each entry e opening a slot (as above, scan from gcol_detail_pqn_scan_slots; NULL where
 * every entry opens one: s = e), at s = scan[e]: valid[s] = def[e] >= valid_def, map[s] = e
 * (each NULL when not wanted). */
gcol_status gcol_detail_pqn_fill_slots(const uint8_t *rep, const uint8_t *def, int64_t n,
                                       int32_t parent_rep, int32_t slot_def, const int64_t *scan,
                                       int32_t valid_def, uint8_t *valid, int64_t *map,
                                       gcol_stream stream);

/* A list's offsets column (size + 1 entries; INT32, or INT64 when children > INT32_MAX) on
 * mr: offsets[scan[e]] = child[e] at each of its slot entries (scan NULL: every entry is one),
 * offsets[size] = child[n], where child is its element's gcol_detail_pqn_scan_slots and
 * children = child[n]. */
gcol_status gcol_detail_pqn_list_offsets(const uint8_t *rep, const uint8_t *def, int64_t n,
                                         int32_t parent_rep, int32_t slot_def, const int64_t *scan,
                                         int64_t size, const int64_t *child, int64_t children,
                                         gcol_stream stream, gcol_mr *mr, gcol_column **out);

/* gcol_detail_pqn_check_levels over each chunk of a leaf's device levels (max_rep >= 1, rep
 * not NULL: without repetition every entry is a row): chunk i holds entries
 * [chunk_first[i], chunk_first[i + 1]) (host array, num_chunks + 1 entries). On return (one
 * synchronization) *first_bad is the first bad entry of the leaf (-1: none) and rows[i] chunk
 * i's rows (its entries of repetition level 0). */
gcol_status gcol_detail_pqn_check_levels_device(const uint8_t *rep, const uint8_t *def,
                                                const int64_t *chunk_first, int32_t num_chunks,
                                                const int32_t *def_for_rep, int32_t max_rep,
                                                int64_t *first_bad, int64_t *rows,
                                                gcol_stream stream);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_PARQUET_NESTED_H */
