/* Nested Parquet columns: the schema as gcol LIST/STRUCT columns, and levels into offsets and
 * validity (lib/internal/parquet_nested.h). */
#include "internal/parquet_nested.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/buffer.h"
#include "gcol/column.h"
#include "gcol/copying.h"
#include "gcol/null_ops.h"
#include "internal/error.h"

typedef struct build_ctx {
  const gcol_parquet_metadata *md;
  gcol_detail_pqn_tree *tree;
  int32_t num_children; /* used entries of tree->children */
  int32_t leaves;
} build_ctx;

/* The index after schema element si's subtree (the schema was checked by the footer parser:
 * counts add up, depth at most GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH). */
static int32_t subtree_end(const gcol_parquet_metadata *md, int32_t si) {
  int32_t next = si + 1;
  for (int32_t k = 0; k < md->schema[si].num_children && next < md->num_schema; ++k) {
    next = subtree_end(md, next);
  }
  return next;
}

static bool is_list(const gcol_detail_pq_schema *s) {
  return s->logical == GCOL_PARQUET_LOGICAL_LIST || s->converted_type == GCOL_DETAIL_PQ_CT_LIST;
}

static bool is_map(const gcol_detail_pq_schema *s) {
  return s->logical == GCOL_PARQUET_LOGICAL_MAP || s->converted_type == GCOL_DETAIL_PQ_CT_MAP;
}

static int32_t new_node(build_ctx *c, int32_t kind, int32_t si, int32_t slot_def,
                        int32_t parent_rep, int32_t valid_def) {
  gcol_detail_pqn_tree *t = c->tree;
  int32_t const n = t->num_nodes++;
  gcol_detail_pqn_node *node = &t->nodes[n];
  memset(node, 0, sizeof *node);
  node->kind = kind;
  node->name = c->md->schema[si].name;
  node->schema = si;
  node->leaf = -1;
  node->first_leaf = c->leaves;
  node->slot_def = slot_def;
  node->parent_rep = parent_rep;
  node->valid_def = valid_def;
  t->parent[n] = -1;
  return n;
}

static gcol_status add_field(build_ctx *c, int32_t si, int32_t d0, int32_t r0, int32_t slot_def,
                             int32_t parent_rep, int depth, int32_t *out);

/* Appends the children (node indices) of `node` to tree->children. */
static void set_children(build_ctx *c, int32_t node, const int32_t *kids, int32_t n) {
  gcol_detail_pqn_tree *t = c->tree;
  t->nodes[node].first_child = c->num_children;
  t->nodes[node].num_children = n;
  for (int32_t k = 0; k < n; ++k) {
    t->children[c->num_children++] = kids[k];
    t->parent[kids[k]] = node;
  }
}

/* The children of group si, each a field at levels (d, r) held at slot_def. */
static gcol_status add_group_children(build_ctx *c, int32_t node, int32_t si, int32_t d,
                                      int32_t r, int32_t slot_def, int32_t parent_rep,
                                      int depth) {
  const gcol_parquet_metadata *md = c->md;
  int32_t const n = md->schema[si].num_children;
  int32_t *kids = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *kids);
  if (kids == NULL) return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  int32_t child = si + 1;
  gcol_status st = GCOL_OK;
  for (int32_t k = 0; k < n && st == GCOL_OK; ++k) {
    st = add_field(c, child, d, r, slot_def, parent_rep, depth + 1, &kids[k]);
    child = subtree_end(md, child);
  }
  if (st == GCOL_OK) set_children(c, node, kids, n);
  free(kids);
  return st;
}

/* A repeated element si read as a required one (levels d, r already counting it). */
static gcol_status add_required_element(build_ctx *c, int32_t si, int32_t d, int32_t r, int depth,
                                        int32_t *out) {
  const gcol_detail_pq_schema *s = &c->md->schema[si];
  if (s->num_children == 0) {
    int32_t const n = new_node(c, GCOL_DETAIL_PQN_LEAF, si, d, r, d);
    c->tree->nodes[n].leaf = c->leaves++;
    c->tree->nodes[n].num_leaves = 1;
    *out = n;
    return GCOL_OK;
  }
  int32_t const n = new_node(c, GCOL_DETAIL_PQN_STRUCT, si, d, r, d);
  gcol_status const st = add_group_children(c, n, si, d, r, d, r, depth);
  c->tree->nodes[n].num_leaves = c->leaves - c->tree->nodes[n].first_leaf;
  *out = n;
  return st;
}

static gcol_status add_field(build_ctx *c, int32_t si, int32_t d0, int32_t r0, int32_t slot_def,
                             int32_t parent_rep, int depth, int32_t *out) {
  const gcol_parquet_metadata *md = c->md;
  const gcol_detail_pq_schema *s = &md->schema[si];
  if (depth > GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH) {
    return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__,
                             "%s: schema nested deeper than %d levels", md->name,
                             GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH);
  }
  bool const repeated = s->repetition == GCOL_DETAIL_PQ_REPEATED;
  int32_t const d = d0 + (s->repetition != GCOL_DETAIL_PQ_REQUIRED);
  int32_t const r = r0 + repeated;
  gcol_status st = GCOL_OK;
  int32_t n = -1;
  if (s->num_children > 0 && (is_list(s) || is_map(s))) {
    char const *const what = is_map(s) ? "MAP" : "LIST";
    int32_t const rs = si + 1; /* the repeated child */
    if (repeated || s->num_children != 1 || rs >= md->num_schema ||
        md->schema[rs].repetition != GCOL_DETAIL_PQ_REPEATED) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: column '%s': a %s group must be optional or required and hold "
                               "one repeated field",
                               md->name, s->name, what);
    }
    const gcol_detail_pq_schema *rep = &md->schema[rs];
    if (is_map(s) && (rep->num_children < 1 || rep->num_children > 2)) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: column '%s': a MAP's repeated group must hold a key and a "
                               "value",
                               md->name, s->name);
    }
    n = new_node(c, GCOL_DETAIL_PQN_LIST, si, slot_def, parent_rep, d);
    c->tree->nodes[n].rep = r + 1;
    c->tree->nodes[n].elem_def = d + 1;
    /* the element: the repeated field itself (2-level forms, a map's key_value) or its one
     * field (3 levels) */
    size_t const len = strlen(s->name);
    bool const tuple = strlen(rep->name) == len + 6 && strncmp(rep->name, s->name, len) == 0 &&
                       strcmp(rep->name + len, "_tuple") == 0;
    bool const two_level = is_map(s) || rep->num_children != 1 ||
                           strcmp(rep->name, "array") == 0 || tuple;
    int32_t elem = -1;
    if (two_level) {
      st = add_required_element(c, rs, d + 1, r + 1, depth + 1, &elem);
    } else {
      st = add_field(c, rs + 1, d + 1, r + 1, d + 1, r + 1, depth + 2, &elem);
    }
    if (st == GCOL_OK) set_children(c, n, &elem, 1);
  } else if (repeated) {
    /* a bare repeated field: a required list of it */
    n = new_node(c, GCOL_DETAIL_PQN_LIST, si, slot_def, parent_rep, d0);
    c->tree->nodes[n].rep = r;
    c->tree->nodes[n].elem_def = d;
    int32_t elem = -1;
    st = add_required_element(c, si, d, r, depth + 1, &elem);
    if (st == GCOL_OK) set_children(c, n, &elem, 1);
  } else if (s->num_children > 0) {
    n = new_node(c, GCOL_DETAIL_PQN_STRUCT, si, slot_def, parent_rep, d);
    st = add_group_children(c, n, si, d, r, slot_def, parent_rep, depth);
  } else {
    n = new_node(c, GCOL_DETAIL_PQN_LEAF, si, slot_def, parent_rep, d);
    c->tree->nodes[n].leaf = c->leaves++;
  }
  c->tree->nodes[n].num_leaves = c->leaves - c->tree->nodes[n].first_leaf;
  *out = n;
  return st;
}

void gcol_detail_pqn_free(gcol_detail_pqn_tree *tree) {
  if (tree == NULL) return;
  free(tree->nodes);
  free(tree->children);
  free(tree->roots);
  free(tree->leaf_node);
  free(tree->parent);
  memset(tree, 0, sizeof *tree);
}

gcol_status gcol_detail_pqn_build(const gcol_parquet_metadata *md, gcol_detail_pqn_tree *out) {
  gcol_status status = GCOL_OK;
  memset(out, 0, sizeof *out);
  size_t const cap = (size_t)md->num_schema * 2 + 1; /* a bare repeated field makes 2 nodes */
  int32_t const roots = md->num_schema > 0 ? md->schema[0].num_children : 0;
  out->nodes = (gcol_detail_pqn_node *)calloc(cap, sizeof *out->nodes);
  out->children = (int32_t *)calloc(cap, sizeof *out->children);
  out->parent = (int32_t *)calloc(cap, sizeof *out->parent);
  out->roots = (int32_t *)calloc((size_t)roots + 1, sizeof *out->roots);
  out->leaf_node = (int32_t *)calloc((size_t)md->num_leaves + 1, sizeof *out->leaf_node);
  GCOL_DETAIL_CHECK(out->nodes != NULL && out->children != NULL && out->parent != NULL &&
                        out->roots != NULL && out->leaf_node != NULL,
                    GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  build_ctx c;
  memset(&c, 0, sizeof c);
  c.md = md;
  c.tree = out;
  int32_t si = 1;
  for (int32_t k = 0; k < roots; ++k) {
    GCOL_DETAIL_CHECK(si < md->num_schema, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: corrupt footer: the schema's root announces more fields", md->name);
    GCOL_DETAIL_TRY(add_field(&c, si, 0, 0, 0, 0, 1, &out->roots[k]));
    out->num_roots = k + 1;
    si = subtree_end(md, si);
  }
  GCOL_DETAIL_CHECK(c.leaves == md->num_leaves, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s: corrupt footer: %d leaves in the schema tree, %d leaf columns", md->name,
                    c.leaves, md->num_leaves);
  for (int32_t n = 0; n < out->num_nodes; ++n) {
    if (out->nodes[n].kind == GCOL_DETAIL_PQN_LEAF) out->leaf_node[out->nodes[n].leaf] = n;
  }
done:
  if (status != GCOL_OK) gcol_detail_pqn_free(out);
  return status;
}

bool gcol_detail_pqn_in_list(const gcol_detail_pqn_tree *tree, int32_t node) {
  for (int32_t p = tree->parent[node]; p >= 0; p = tree->parent[p]) {
    if (tree->nodes[p].kind == GCOL_DETAIL_PQN_LIST) return true;
  }
  return false;
}

bool gcol_detail_pqn_is_flat_root(const gcol_detail_pqn_tree *tree, int32_t node) {
  return tree->nodes[node].kind == GCOL_DETAIL_PQN_LEAF && tree->parent[node] < 0;
}

int32_t gcol_detail_pqn_root_of_leaf(const gcol_detail_pqn_tree *tree, int32_t leaf) {
  int32_t n = tree->leaf_node[leaf];
  while (tree->parent[n] >= 0) n = tree->parent[n];
  return n;
}

int32_t gcol_detail_pqn_find(const gcol_parquet_metadata *md, const gcol_detail_pqn_tree *tree,
                             const char *name) {
  int32_t si = 0; /* the root */
  const char *p = name;
  for (;;) {
    const char *dot = strchr(p, '.');
    size_t const len = dot != NULL ? (size_t)(dot - p) : strlen(p);
    int32_t child = si + 1;
    int32_t found = -1;
    for (int32_t k = 0; k < md->schema[si].num_children && child < md->num_schema; ++k) {
      const char *cn = md->schema[child].name;
      if (strlen(cn) == len && strncmp(cn, p, len) == 0) {
        found = child;
        break;
      }
      child = subtree_end(md, child);
    }
    if (found < 0) return -1;
    si = found;
    if (dot == NULL) break;
    p = dot + 1;
  }
  for (int32_t n = 0; n < tree->num_nodes; ++n) {
    if (tree->nodes[n].schema == si) return n; /* a bare repeated field: its list first */
  }
  return -1;
}

void gcol_detail_pqn_def_for_rep(const gcol_detail_pqn_tree *tree, int32_t leaf,
                                 int32_t *def_for_rep) {
  def_for_rep[0] = 0;
  for (int32_t p = tree->leaf_node[leaf]; p >= 0; p = tree->parent[p]) {
    const gcol_detail_pqn_node *node = &tree->nodes[p];
    if (node->kind == GCOL_DETAIL_PQN_LIST) def_for_rep[node->rep] = node->elem_def;
  }
}

/* ---- levels ---- */

int gcol_detail_pqn_decode_levels(const uint8_t *p, const uint8_t *end, int32_t max_level,
                                  int64_t count, uint8_t *out) {
  if (max_level == 0) {
    if (count > 0) memset(out, 0, (size_t)count);
    return GCOL_DETAIL_PQ_E_OK;
  }
  gcol_detail_pq_rle r;
  gcol_detail_pq_rle_init(&r, p, end, gcol_detail_pq_bit_width((uint32_t)max_level));
  for (int64_t i = 0; i < count; ++i) {
    uint32_t level;
    if (!gcol_detail_pq_rle_next(&r, &level)) return GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED;
    if (level > (uint32_t)max_level) return GCOL_DETAIL_PQ_E_LEVEL_RANGE;
    out[i] = (uint8_t)level;
  }
  return GCOL_DETAIL_PQ_E_OK;
}

int64_t gcol_detail_pqn_check_levels(const uint8_t *rep, const uint8_t *def, int64_t n,
                                     const int32_t *def_for_rep, int32_t max_rep, int64_t *rows) {
  int64_t count = 0;
  for (int64_t e = 0; e < n; ++e) {
    int32_t const r = rep != NULL ? rep[e] : 0;
    if (r == 0) {
      ++count;
      continue;
    }
    if (e == 0 || r > max_rep || def[e] < def_for_rep[r] || def[e - 1] < def_for_rep[r]) {
      *rows = count;
      return e;
    }
  }
  *rows = count;
  return -1;
}

int64_t gcol_detail_pqn_count_slots(const gcol_detail_pqn_node *node, const uint8_t *rep,
                                    const uint8_t *def, int64_t n) {
  int64_t s = 0;
  for (int64_t e = 0; e < n; ++e) {
    int32_t const r = rep != NULL ? rep[e] : 0;
    s += r <= node->parent_rep && def[e] >= node->slot_def;
  }
  return s;
}

int64_t gcol_detail_pqn_fill(const gcol_detail_pqn_node *node, const uint8_t *rep,
                             const uint8_t *def, int64_t n, uint8_t *valid, int64_t *offsets) {
  bool const list = node->kind == GCOL_DETAIL_PQN_LIST;
  int64_t s = 0, children = 0, nulls = 0;
  for (int64_t e = 0; e < n; ++e) {
    int32_t const r = rep != NULL ? rep[e] : 0;
    int32_t const d = def[e];
    if (r <= node->parent_rep && d >= node->slot_def) {
      bool const ok = d >= node->valid_def;
      if (valid != NULL) valid[s] = ok;
      nulls += !ok;
      if (list && offsets != NULL) offsets[s] = children;
      ++s;
    }
    if (list && r <= node->rep && d >= node->elem_def) ++children;
  }
  if (list && offsets != NULL) offsets[s] = children;
  return nulls;
}

void gcol_detail_pqn_leaf_map(const gcol_detail_pqn_node *node, const uint8_t *rep,
                              const uint8_t *def, int64_t n, int64_t *map) {
  int64_t s = 0;
  for (int64_t e = 0; e < n; ++e) {
    int32_t const r = rep != NULL ? rep[e] : 0;
    if (r <= node->parent_rep && def[e] >= node->slot_def) map[s++] = e;
  }
}

/* ---- the read ---- */

/* The page of a plan holding level entry e, for messages. */
static gcol_detail_pq_where where_of(const gcol_detail_pq_column_plan *plan, int64_t e) {
  gcol_detail_pq_where w = {-1, -1};
  for (int32_t p = 0; p < plan->num_pages; ++p) {
    if (e >= plan->pages[p].first_row && e < plan->pages[p].first_row + plan->pages[p].num_rows) {
      return plan->page_where[p];
    }
  }
  return w;
}

/* The errors of the level checks, in the same words from the host and the GPU check: level
 * entry `local` of row group `group`'s chunk (in `page`) breaks a rule, or the chunk's levels
 * hold `rows` rows where the row group has others. */
static gcol_status bad_entry(const char *func, const gcol_parquet_metadata *md, int32_t group,
                             const char *column, int32_t page, int64_t local, int rep, int def) {
  return gcol_detail_error(
      GCOL_ERROR_INVALID_ARGUMENT, func,
      "%s: row group %d, column '%s', page %d: level entry %lld (repetition %d, definition %d) %s",
      md->name, group, column, page, (long long)local, rep, def,
      local == 0 ? "does not start a row" : "continues a list that does not exist");
}

static gcol_status wrong_rows(const char *func, const gcol_parquet_metadata *md, int32_t group,
                              const char *column, int64_t rows) {
  return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, func,
                           "%s: row group %d, column '%s': its levels hold %lld rows, the row "
                           "group %lld",
                           md->name, group, column, (long long)rows,
                           (long long)md->row_groups[group].num_rows);
}

gcol_status gcol_detail_pqn_check_plans(const gcol_parquet_metadata *md,
                                        const gcol_detail_pqn_tree *tree, int32_t node,
                                        const gcol_detail_pq_column_plan *plans,
                                        const int32_t *row_groups, int32_t num_row_groups) {
  const gcol_detail_pqn_node *n = &tree->nodes[node];
  int32_t def_for_rep[GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH + 2];
  for (int32_t k = 0; k < n->num_leaves; ++k) {
    int32_t const leaf = n->first_leaf + k;
    const gcol_detail_pq_column_plan *plan = &plans[k];
    const gcol_parquet_column_info *info = &md->leaves[leaf];
    if (!plan->has_levels || plan->num_chunks != num_row_groups) {
      return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__,
                               "%s: column '%s' was not planned with its levels", md->name,
                               info->name);
    }
    gcol_detail_pqn_def_for_rep(tree, leaf, def_for_rep);
    for (int32_t i = 0; i < num_row_groups; ++i) {
      int64_t const first = plan->chunk_first[i];
      int64_t const count = plan->chunk_first[i + 1] - first;
      int64_t rows = 0;
      int64_t const bad = gcol_detail_pqn_check_levels(
          plan->rep_levels != NULL ? plan->rep_levels + first : NULL, plan->def_levels + first,
          count, def_for_rep, info->max_repetition_level, &rows);
      if (bad >= 0) {
        return bad_entry(__func__, md, row_groups[i], info->name, where_of(plan, first + bad).page,
                         bad, plan->rep_levels != NULL ? plan->rep_levels[first + bad] : 0,
                         plan->def_levels[first + bad]);
      }
      if (rows != md->row_groups[row_groups[i]].num_rows) {
        return wrong_rows(__func__, md, row_groups[i], info->name, rows);
      }
    }
  }
  return GCOL_OK;
}

/* ---- the read on the GPU ---- */

void gcol_detail_pqn_levels_of(gcol_buffer *const *levels, int32_t n, gcol_detail_pqn_levels *out) {
  for (int32_t i = 0; i < n; ++i) {
    out[i].rep = levels[2 * i] != NULL ? (const uint8_t *)levels[2 * i]->data : NULL;
    out[i].def = levels[2 * i + 1] != NULL ? (const uint8_t *)levels[2 * i + 1]->data : NULL;
  }
}

gcol_status gcol_detail_pqn_check_plans_gpu(const gcol_parquet_metadata *md,
                                            const gcol_detail_pqn_tree *tree, int32_t node,
                                            const gcol_detail_pq_column_plan *plans,
                                            const gcol_detail_pqn_levels *levels,
                                            const int32_t *row_groups, int32_t num_row_groups,
                                            gcol_stream stream) {
  gcol_status status = GCOL_OK;
  const gcol_detail_pqn_node *n = &tree->nodes[node];
  int32_t def_for_rep[GCOL_DETAIL_PQ_MAX_SCHEMA_DEPTH + 2];
  int64_t *rows = (int64_t *)malloc((size_t)(num_row_groups > 0 ? num_row_groups : 1) * 8);
  GCOL_DETAIL_CHECK(rows != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t k = 0; k < n->num_leaves; ++k) {
    int32_t const leaf = n->first_leaf + k;
    const gcol_detail_pq_column_plan *plan = &plans[k];
    const gcol_parquet_column_info *info = &md->leaves[leaf];
    GCOL_DETAIL_CHECK(plan->levels_on_gpu && plan->num_chunks == num_row_groups,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: column '%s' was not planned with its levels", md->name, info->name);
    /* no repetition: every entry is a row, and planning matched each chunk's values to its
     * row group's rows */
    if (info->max_repetition_level == 0) continue;
    gcol_detail_pqn_def_for_rep(tree, leaf, def_for_rep);
    int64_t bad = -1;
    GCOL_DETAIL_TRY(gcol_detail_pqn_check_levels_device(
        levels[k].rep, levels[k].def, plan->chunk_first, num_row_groups, def_for_rep,
        info->max_repetition_level, &bad, rows, stream));
    for (int32_t i = 0; i < num_row_groups; ++i) {
      int64_t const first = plan->chunk_first[i];
      if (bad >= first && bad < plan->chunk_first[i + 1]) {
        uint8_t r = 0, d = 0; /* the entry's levels, for the message */
        if (levels[k].rep != NULL) {
          GCOL_DETAIL_CUDA_TRY(cudaMemcpy(&r, levels[k].rep + bad, 1, cudaMemcpyDeviceToHost));
        }
        GCOL_DETAIL_CUDA_TRY(cudaMemcpy(&d, levels[k].def + bad, 1, cudaMemcpyDeviceToHost));
        status = bad_entry(__func__, md, row_groups[i], info->name, where_of(plan, bad).page,
                           bad - first, r, d);
        goto done;
      }
      if (rows[i] != md->row_groups[row_groups[i]].num_rows) {
        status = wrong_rows(__func__, md, row_groups[i], info->name, rows[i]);
        goto done;
      }
    }
  }
done:
  free(rows);
  return status;
}

typedef struct assemble_gpu_ctx {
  const gcol_detail_pqn_tree *tree;
  const gcol_detail_pq_column_plan *plans; /* of the root's leaves */
  const gcol_detail_pqn_levels *levels;
  gcol_column **leaves;
  int32_t base_leaf;
  const char *file_name;
  gcol_stream stream;
  gcol_mr *mr;
} assemble_gpu_ctx;

/* The slots of a node over the entries of leaf `leaf`: held at (parent_rep, slot_def), `scan`
 * their exclusive sum (device, entries + 1; NULL where every entry opens one) and `total` its
 * last value. A node hands its own to its first child (a struct's children are held where it
 * is) or its element's (a list), which takes it when the key matches. */
typedef struct slots {
  int32_t leaf, parent_rep, slot_def;
  const int64_t *scan;
  int64_t total;
} slots;

/* The slots of `node` (over its first leaf's levels): `given` when its key matches, none to
 * compute where every entry opens one, else a new scan into *owned (one synchronization). */
static gcol_status node_slots(const assemble_gpu_ctx *a, int32_t node, int32_t parent_rep,
                              int32_t slot_def, const slots *given, slots *out,
                              gcol_buffer **owned) {
  gcol_status status = GCOL_OK;
  const gcol_detail_pqn_node *n = &a->tree->nodes[node];
  int32_t const k = n->first_leaf - a->base_leaf;
  const gcol_detail_pqn_levels *lv = &a->levels[k];
  int64_t const entries = a->plans[k].num_rows;
  out->leaf = n->first_leaf;
  out->parent_rep = parent_rep;
  out->slot_def = slot_def;
  out->scan = NULL;
  out->total = entries;
  if (given != NULL && given->leaf == out->leaf && given->parent_rep == parent_rep &&
      given->slot_def == slot_def) {
    *out = *given;
    return GCOL_OK;
  }
  if ((lv->rep == NULL || parent_rep >= a->plans[k].max_rep) && slot_def <= 0) return GCOL_OK;
  GCOL_DETAIL_TRY(
      gcol_buffer_create((size_t)(entries + 1) * sizeof(int64_t), a->stream, NULL, owned));
  int64_t *scan = (int64_t *)(*owned)->data;
  GCOL_DETAIL_TRY(
      gcol_detail_pqn_scan_slots(lv->rep, lv->def, entries, parent_rep, slot_def, scan, a->stream));
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(&out->total, scan + entries, sizeof out->total,
                                       cudaMemcpyDeviceToHost, (cudaStream_t)a->stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)a->stream));
  out->scan = scan;
done:
  return status;
}

/* A leaf's column: as decoded when every entry is one of its slots, else its slots gathered. */
static gcol_status assemble_leaf(const assemble_gpu_ctx *a, const gcol_detail_pqn_node *n,
                                 const slots *own, gcol_column **out) {
  gcol_status status = GCOL_OK;
  int32_t const k = n->first_leaf - a->base_leaf;
  const gcol_detail_pqn_levels *lv = &a->levels[k];
  int64_t const entries = a->plans[k].num_rows;
  gcol_column **leaf = &a->leaves[n->leaf - a->base_leaf];
  gcol_column *map = NULL;
  if (own->total == entries) { /* every entry is a slot of the leaf */
    *out = *leaf;
    *leaf = NULL;
    return GCOL_OK;
  }
  GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_INT64), own->total,
                                     GCOL_MASK_UNALLOCATED, a->stream, NULL, &map));
  GCOL_DETAIL_TRY(gcol_detail_pqn_fill_slots(lv->rep, lv->def, entries, n->parent_rep, n->slot_def,
                                             own->scan, 0, NULL, (int64_t *)map->data->data,
                                             a->stream));
  /* the map is in range by construction */
  GCOL_DETAIL_TRY(gcol_column_gather(gcol_column_get_view(*leaf), gcol_column_get_view(map),
                                     GCOL_OUT_OF_BOUNDS_DONT_CHECK, GCOL_NEGATIVE_INDEX_NOT_ALLOWED,
                                     out, a->stream, a->mr));
  gcol_column_free(*leaf);
  *leaf = NULL;
done:
  gcol_column_free(map);
  return status;
}

static gcol_status assemble_gpu(const assemble_gpu_ctx *a, int32_t node, const slots *given,
                                gcol_column **out) {
  gcol_status status = GCOL_OK;
  const gcol_detail_pqn_node *n = &a->tree->nodes[node];
  int32_t const k = n->first_leaf - a->base_leaf;
  const gcol_detail_pqn_levels *lv = &a->levels[k];
  int64_t const entries = a->plans[k].num_rows;
  bool const list = n->kind == GCOL_DETAIL_PQN_LIST;
  gcol_buffer *scan = NULL, *child_scan = NULL, *mask = NULL;
  gcol_column *valid = NULL, *offsets = NULL;
  gcol_column **kids = NULL;
  slots own, child;
  int64_t nulls = 0;
  GCOL_DETAIL_TRY(node_slots(a, node, n->parent_rep, n->slot_def, given, &own, &scan));
  int64_t const size = own.total;
  if (n->kind == GCOL_DETAIL_PQN_LEAF) {
    GCOL_DETAIL_TRY(assemble_leaf(a, n, &own, out));
    goto done;
  }
  if (n->valid_def > n->slot_def) { /* a null slot is possible */
    GCOL_DETAIL_TRY(gcol_column_create(gcol_data_type_make(GCOL_BOOL8), size, GCOL_MASK_UNALLOCATED,
                                       a->stream, NULL, &valid));
    GCOL_DETAIL_TRY(gcol_detail_pqn_fill_slots(lv->rep, lv->def, entries, n->parent_rep,
                                               n->slot_def, own.scan, n->valid_def,
                                               (uint8_t *)valid->data->data, NULL, a->stream));
    GCOL_DETAIL_TRY(
        gcol_bools_to_mask(gcol_column_get_view(valid), &mask, &nulls, a->stream, a->mr));
  }
  child = own; /* a struct's children are held where it is */
  if (list) {
    GCOL_DETAIL_TRY(node_slots(a, node, n->rep, n->elem_def, NULL, &child, &child_scan));
    GCOL_DETAIL_TRY(gcol_detail_pqn_list_offsets(lv->rep, lv->def, entries, n->parent_rep,
                                                 n->slot_def, own.scan, size, child.scan,
                                                 child.total, a->stream, a->mr, &offsets));
  }
  /* the node's own sum is done with (a list's children count the element's) */
  if (list) {
    gcol_buffer_free(scan);
    scan = NULL;
  }
  kids = (gcol_column **)calloc((size_t)n->num_children + 1, sizeof *kids);
  GCOL_DETAIL_CHECK(kids != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  for (int32_t c = 0; c < n->num_children; ++c) {
    int32_t const kid = a->tree->children[n->first_child + c];
    GCOL_DETAIL_TRY(assemble_gpu(a, kid, &child, &kids[c]));
    int64_t const want = child.total;
    GCOL_DETAIL_CHECK(gcol_column_get_view(kids[c]).size == want, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: column '%s': its field '%s' holds %lld values, its %s %lld: the "
                      "leaves' levels disagree",
                      a->file_name, n->name, a->tree->nodes[kid].name,
                      (long long)gcol_column_get_view(kids[c]).size, list ? "offsets" : "rows",
                      (long long)want);
  }
  if (nulls == 0) { /* no null slot: no mask, as the host assembly gives */
    gcol_buffer_free(mask);
    mask = NULL;
  }
  if (list) {
    GCOL_DETAIL_TRY(gcol_column_make_list(size, offsets, kids[0], mask, nulls, out));
    kids[0] = NULL; /* owned by *out now */
    offsets = NULL;
  } else {
    GCOL_DETAIL_TRY(gcol_column_make_struct(size, kids, n->num_children, mask, nulls, out));
    for (int32_t c = 0; c < n->num_children; ++c) kids[c] = NULL;
  }
  mask = NULL;
done:
  if (kids != NULL) {
    for (int32_t c = 0; c < n->num_children; ++c) gcol_column_free(kids[c]);
  }
  free(kids);
  gcol_buffer_free(scan);
  gcol_buffer_free(child_scan);
  gcol_buffer_free(mask);
  gcol_column_free(valid);
  gcol_column_free(offsets);
  return status;
}

gcol_status gcol_detail_pqn_assemble_gpu(const gcol_detail_pqn_tree *tree, int32_t node,
                                         const gcol_detail_pq_column_plan *plans,
                                         const gcol_detail_pqn_levels *levels, gcol_column **leaves,
                                         const char *file_name, gcol_stream stream, gcol_mr *mr,
                                         gcol_column **out) {
  assemble_gpu_ctx a;
  a.tree = tree;
  a.plans = plans;
  a.levels = levels;
  a.leaves = leaves;
  a.base_leaf = tree->nodes[node].first_leaf;
  a.file_name = file_name;
  a.stream = stream;
  a.mr = mr;
  *out = NULL;
  return assemble_gpu(&a, node, NULL, out);
}
