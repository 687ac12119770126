/*
 * Nested Parquet columns on the host (lib/io/parquet_nested.c): the schema tree mapped to
 * LIST/STRUCT columns (3-level lists, the 2-level legacy forms, bare repeated fields, MAP,
 * structs around and inside lists) and the levels turned into offsets and validity, against
 * hand-computed Dremel cases: nulls at every level, empty lists, null lists, list<struct>,
 * struct<list>, list<list<int16>>. Corrupt level streams and levels that contradict the
 * schema give an error, naming the row group, column and page, never a read outside them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/io/parquet.h"
#include "internal/parquet.h"
#include "internal/parquet_nested.h"
#include "test_util.h"

enum { REQ = 0, OPT = 1, REP = 2 };

/* A schema element: name, repetition, children (0: a leaf), a converted type (-1: none). */
typedef struct elem {
  const char *name;
  int32_t repetition;
  int32_t num_children;
  int32_t converted;
} elem;

/* A metadata holding only a schema (enough for the tree), built from elements after the root,
 * with max levels computed as the footer parser does. */
typedef struct fake_md {
  gcol_parquet_metadata md;
  gcol_detail_pq_schema schema[32];
  gcol_parquet_column_info leaves[16];
  char names[16][64];
} fake_md;

static int32_t fill_leaves(fake_md *f, int32_t si, int32_t def, int32_t rep, const char *path,
                           int32_t *leaf) {
  gcol_detail_pq_schema *s = &f->schema[si];
  int32_t const d = def + (s->repetition != REQ);
  int32_t const r = rep + (s->repetition == REP);
  char p[64] = "";
  if (strlen(path) + strlen(s->name) + 2 <= sizeof p) {
    strcpy(p, path);
    if (path[0] != '\0') strcat(p, ".");
    strcat(p, s->name);
  }
  if (s->num_children == 0) {
    gcol_parquet_column_info *info = &f->leaves[*leaf];
    memcpy(f->names[*leaf], p, sizeof p);
    info->name = f->names[*leaf];
    info->max_definition_level = d;
    info->max_repetition_level = r;
    info->type = gcol_data_type_make(GCOL_INT64);
    ++*leaf;
    return si + 1;
  }
  int32_t next = si + 1;
  for (int32_t k = 0; k < s->num_children; ++k) next = fill_leaves(f, next, d, r, p, leaf);
  return next;
}

static void make_md(fake_md *f, const elem *e, int32_t n, int32_t roots) {
  memset(f, 0, sizeof *f);
  f->schema[0].name = (char *)"schema";
  f->schema[0].num_children = roots;
  f->schema[0].repetition = -1;
  f->schema[0].converted_type = -1;
  for (int32_t i = 0; i < n; ++i) {
    gcol_detail_pq_schema *s = &f->schema[i + 1];
    s->name = (char *)e[i].name;
    s->repetition = e[i].repetition;
    s->num_children = e[i].num_children;
    s->converted_type = e[i].converted;
    s->has_type = e[i].num_children == 0;
  }
  f->md.schema = f->schema;
  f->md.num_schema = n + 1;
  snprintf(f->md.name, sizeof f->md.name, "nested.parquet");
  int32_t leaf = 0, si = 1;
  for (int32_t k = 0; k < roots; ++k) si = fill_leaves(f, si, 0, 0, "", &leaf);
  f->md.leaves = f->leaves;
  f->md.num_leaves = leaf;
}

#define LIST_CT GCOL_DETAIL_PQ_CT_LIST

/* The node, its slots' validity and offsets over (rep, def), against what is expected. */
static void expect_node(const gcol_detail_pqn_tree *t, int32_t node, const uint8_t *rep,
                        const uint8_t *def, int64_t n, int64_t size, const uint8_t *valid,
                        const int64_t *offsets) {
  const gcol_detail_pqn_node *nd = &t->nodes[node];
  assert_int_equal(gcol_detail_pqn_count_slots(nd, rep, def, n), size);
  uint8_t got_valid[64];
  int64_t got_offsets[65];
  int64_t const nulls = gcol_detail_pqn_fill(nd, rep, def, n, got_valid, got_offsets);
  int64_t want_nulls = 0;
  for (int64_t i = 0; i < size; ++i) {
    if (got_valid[i] != valid[i]) fail_msg("node '%s' slot %lld validity", nd->name, (long long)i);
    want_nulls += !valid[i];
  }
  assert_int_equal(nulls, want_nulls);
  if (offsets != NULL) {
    for (int64_t i = 0; i <= size; ++i) {
      if (got_offsets[i] != offsets[i]) {
        fail_msg("node '%s' offset %lld: %lld, expected %lld", nd->name, (long long)i,
                 (long long)got_offsets[i], (long long)offsets[i]);
      }
    }
  }
}

static void expect_leaf(const gcol_detail_pqn_tree *t, int32_t node, const uint8_t *rep,
                        const uint8_t *def, int64_t n, const int64_t *map, int64_t size) {
  const gcol_detail_pqn_node *nd = &t->nodes[node];
  assert_int_equal(nd->kind, GCOL_DETAIL_PQN_LEAF);
  assert_int_equal(gcol_detail_pqn_count_slots(nd, rep, def, n), size);
  int64_t got[64];
  gcol_detail_pqn_leaf_map(nd, rep, def, n, got);
  for (int64_t i = 0; i < size; ++i) assert_int_equal(got[i], map[i]);
}

static int64_t check(const fake_md *f, const gcol_detail_pqn_tree *t, int32_t leaf,
                     const uint8_t *rep, const uint8_t *def, int64_t n, int64_t *rows) {
  int32_t dfr[8];
  gcol_detail_pqn_def_for_rep(t, leaf, dfr);
  return gcol_detail_pqn_check_levels(rep, def, n, dfr, f->leaves[leaf].max_repetition_level,
                                      rows);
}

/* l: optional list<optional int64>, 3 levels. Rows [1, null, 2], null, [], [3]. */
static void test_list_of_int64(void **state) {
  (void)state;
  static const elem e[] = {
      {"l", OPT, 1, LIST_CT}, {"list", REP, 1, -1}, {"element", OPT, 0, -1}};
  fake_md f;
  make_md(&f, e, 3, 1);
  gcol_detail_pqn_tree t;
  assert_int_equal(gcol_detail_pqn_build(&f.md, &t), GCOL_OK);
  assert_int_equal(t.num_roots, 1);
  int32_t const l = t.roots[0];
  assert_int_equal(t.nodes[l].kind, GCOL_DETAIL_PQN_LIST);
  assert_int_equal(t.nodes[l].num_children, 1);
  int32_t const el = t.children[t.nodes[l].first_child];
  assert_string_equal(t.nodes[el].name, "element");
  assert_int_equal(f.leaves[0].max_definition_level, 3);
  static const uint8_t rep[] = {0, 1, 1, 0, 0, 0};
  static const uint8_t def[] = {3, 2, 3, 0, 1, 3};
  int64_t rows = 0;
  assert_int_equal(check(&f, &t, 0, rep, def, 6, &rows), -1);
  assert_int_equal(rows, 4);
  static const uint8_t lv[] = {1, 0, 1, 1};
  static const int64_t lo[] = {0, 3, 3, 3, 4};
  expect_node(&t, l, rep, def, 6, 4, lv, lo);
  static const int64_t map[] = {0, 1, 2, 5};
  expect_leaf(&t, el, rep, def, 6, map, 4);
  static const uint8_t ev[] = {1, 0, 1, 1}; /* def == max_def at the mapped entries */
  expect_node(&t, el, rep, def, 6, 4, ev, NULL);
  /* the tree finds it by its path; nothing by the element's path names a root */
  assert_int_equal(gcol_detail_pqn_find(&f.md, &t, "l"), l);
  assert_int_equal(gcol_detail_pqn_find(&f.md, &t, "l.list.element"), el);
  assert_true(gcol_detail_pqn_in_list(&t, el));
  assert_false(gcol_detail_pqn_in_list(&t, l));
  assert_int_equal(gcol_detail_pqn_find(&f.md, &t, "m"), -1);
  assert_int_equal(gcol_detail_pqn_root_of_leaf(&t, 0), l);
  gcol_detail_pqn_free(&t);
}

/* ll: optional list<optional list<optional int16>>. Rows [[1, 2], [], null, [null]], null,
 * [[3]]. */
static void test_list_of_list(void **state) {
  (void)state;
  static const elem e[] = {{"ll", OPT, 1, LIST_CT}, {"list", REP, 1, -1},
                           {"element", OPT, 1, LIST_CT}, {"list", REP, 1, -1},
                           {"element", OPT, 0, -1}};
  fake_md f;
  make_md(&f, e, 5, 1);
  gcol_detail_pqn_tree t;
  assert_int_equal(gcol_detail_pqn_build(&f.md, &t), GCOL_OK);
  int32_t const outer = t.roots[0];
  int32_t const inner = t.children[t.nodes[outer].first_child];
  int32_t const leaf = t.children[t.nodes[inner].first_child];
  assert_int_equal(t.nodes[inner].kind, GCOL_DETAIL_PQN_LIST);
  assert_int_equal(f.leaves[0].max_definition_level, 5);
  assert_int_equal(f.leaves[0].max_repetition_level, 2);
  static const uint8_t rep[] = {0, 2, 1, 1, 1, 0, 0};
  static const uint8_t def[] = {5, 5, 3, 2, 4, 0, 5};
  int64_t rows = 0;
  assert_int_equal(check(&f, &t, 0, rep, def, 7, &rows), -1);
  assert_int_equal(rows, 3);
  static const uint8_t ov[] = {1, 0, 1};
  static const int64_t oo[] = {0, 4, 4, 5};
  expect_node(&t, outer, rep, def, 7, 3, ov, oo);
  static const uint8_t iv[] = {1, 1, 0, 1, 1};
  static const int64_t io[] = {0, 2, 2, 2, 3, 4};
  expect_node(&t, inner, rep, def, 7, 5, iv, io);
  static const int64_t map[] = {0, 1, 4, 6};
  expect_leaf(&t, leaf, rep, def, 7, map, 4);
  static const uint8_t lv[] = {1, 1, 0, 1};
  expect_node(&t, leaf, rep, def, 7, 4, lv, NULL);
  gcol_detail_pqn_free(&t);
}

/* ls: optional list<optional struct<a: optional, b: optional>>. Rows
 * [{1, "x"}, null, {null, "y"}], [], null. */
static void test_list_of_struct(void **state) {
  (void)state;
  static const elem e[] = {{"ls", OPT, 1, LIST_CT}, {"list", REP, 1, -1},
                           {"element", OPT, 2, -1}, {"a", OPT, 0, -1}, {"b", OPT, 0, -1}};
  fake_md f;
  make_md(&f, e, 5, 1);
  gcol_detail_pqn_tree t;
  assert_int_equal(gcol_detail_pqn_build(&f.md, &t), GCOL_OK);
  int32_t const list = t.roots[0];
  int32_t const st = t.children[t.nodes[list].first_child];
  assert_int_equal(t.nodes[st].kind, GCOL_DETAIL_PQN_STRUCT);
  assert_int_equal(t.nodes[st].num_children, 2);
  assert_int_equal(t.nodes[list].num_leaves, 2);
  int32_t const a = t.children[t.nodes[st].first_child];
  int32_t const b = t.children[t.nodes[st].first_child + 1];
  assert_string_equal(t.nodes[b].name, "b");
  static const uint8_t rep[] = {0, 1, 1, 0, 0};
  static const uint8_t def_a[] = {4, 2, 3, 1, 0};
  static const uint8_t def_b[] = {4, 2, 4, 1, 0};
  int64_t rows = 0;
  assert_int_equal(check(&f, &t, 0, rep, def_a, 5, &rows), -1);
  assert_int_equal(check(&f, &t, 1, rep, def_b, 5, &rows), -1);
  assert_int_equal(rows, 3);
  static const uint8_t lv[] = {1, 1, 0};
  static const int64_t lo[] = {0, 3, 3, 3};
  expect_node(&t, list, rep, def_a, 5, 3, lv, lo);
  static const uint8_t sv[] = {1, 0, 1};
  expect_node(&t, st, rep, def_a, 5, 3, sv, NULL);
  expect_node(&t, st, rep, def_b, 5, 3, sv, NULL); /* either leaf tells the same */
  static const int64_t map[] = {0, 1, 2};
  expect_leaf(&t, a, rep, def_a, 5, map, 3);
  expect_leaf(&t, b, rep, def_b, 5, map, 3);
  static const uint8_t av[] = {1, 0, 0};
  static const uint8_t bv[] = {1, 0, 1};
  expect_node(&t, a, rep, def_a, 5, 3, av, NULL);
  expect_node(&t, b, rep, def_b, 5, 3, bv, NULL);
  gcol_detail_pqn_free(&t);
}

/* s: optional struct<l: optional list<required int32>>, and a flat column after it. Rows
 * {[1, 2]}, null, {null}, {[]}. */
static void test_struct_of_list(void **state) {
  (void)state;
  static const elem e[] = {{"s", OPT, 1, -1},      {"l", OPT, 1, LIST_CT},
                           {"list", REP, 1, -1},   {"element", REQ, 0, -1},
                           {"x", OPT, 0, -1}};
  fake_md f;
  make_md(&f, e, 5, 2);
  gcol_detail_pqn_tree t;
  assert_int_equal(gcol_detail_pqn_build(&f.md, &t), GCOL_OK);
  assert_int_equal(t.num_roots, 2);
  int32_t const s = t.roots[0];
  assert_int_equal(t.nodes[s].kind, GCOL_DETAIL_PQN_STRUCT);
  int32_t const l = t.children[t.nodes[s].first_child];
  int32_t const el = t.children[t.nodes[l].first_child];
  assert_true(gcol_detail_pqn_is_flat_root(&t, t.roots[1]));
  assert_false(gcol_detail_pqn_is_flat_root(&t, s));
  assert_int_equal(gcol_detail_pqn_find(&f.md, &t, "s.l"), l);
  assert_int_equal(gcol_detail_pqn_find(&f.md, &t, "x"), t.roots[1]);
  static const uint8_t rep[] = {0, 1, 0, 0, 0};
  static const uint8_t def[] = {3, 3, 0, 1, 2};
  int64_t rows = 0;
  assert_int_equal(check(&f, &t, 0, rep, def, 5, &rows), -1);
  assert_int_equal(rows, 4);
  static const uint8_t sv[] = {1, 0, 1, 1};
  expect_node(&t, s, rep, def, 5, 4, sv, NULL);
  static const uint8_t lv[] = {1, 0, 0, 1};
  static const int64_t lo[] = {0, 2, 2, 2, 2};
  expect_node(&t, l, rep, def, 5, 4, lv, lo);
  static const int64_t map[] = {0, 1};
  expect_leaf(&t, el, rep, def, 5, map, 2);
  static const uint8_t ev[] = {1, 1};
  expect_node(&t, el, rep, def, 5, 2, ev, NULL);
  /* a struct of flat fields: no repetition levels at all */
  static const uint8_t sdef[] = {0, 1, 3};
  assert_int_equal(gcol_detail_pqn_count_slots(&t.nodes[s], NULL, sdef, 3), 3);
  gcol_detail_pqn_free(&t);
}

/* The 2-level forms and bare repeated fields: a LIST whose repeated field is the element
 * (a primitive; a group named "array"; a group "<name>_tuple"; a group of two fields), a
 * repeated primitive and a repeated group outside any LIST (required lists of them), and a
 * MAP read as list<struct<key, value>>. */
static void test_legacy_lists_and_maps(void **state) {
  (void)state;
  static const elem e[] = {
      {"a", OPT, 1, LIST_CT},  {"array", REP, 0, -1},                             /* 0 */
      {"b", OPT, 1, LIST_CT},  {"array", REP, 1, -1},   {"x", OPT, 0, -1},        /* 1 */
      {"c", REQ, 1, LIST_CT},  {"c_tuple", REP, 1, -1}, {"y", REQ, 0, -1},        /* 2 */
      {"d", OPT, 1, LIST_CT},  {"item", REP, 2, -1},    {"p", REQ, 0, -1},
      {"q", OPT, 0, -1},                                                          /* 3 */
      {"r", REP, 0, -1},                                                          /* 4 */
      {"g", REP, 1, -1},       {"z", OPT, 0, -1},                                 /* 5 */
      {"m", OPT, 1, GCOL_DETAIL_PQ_CT_MAP}, {"key_value", REP, 2, -1},
      {"key", REQ, 0, -1},     {"value", OPT, 0, -1},                             /* 6 */
      {"e", OPT, 1, LIST_CT},  {"list", REP, 1, -1},    {"element", REQ, 0, -1},  /* 7 */
  };
  fake_md f;
  make_md(&f, e, (int32_t)(sizeof e / sizeof e[0]), 8);
  gcol_detail_pqn_tree t;
  assert_int_equal(gcol_detail_pqn_build(&f.md, &t), GCOL_OK);
  assert_int_equal(t.num_roots, 8);
  for (int32_t r = 0; r < 8; ++r) assert_int_equal(t.nodes[t.roots[r]].kind, GCOL_DETAIL_PQN_LIST);
  static const int32_t elem_kind[8] = {GCOL_DETAIL_PQN_LEAF,   GCOL_DETAIL_PQN_STRUCT,
                                       GCOL_DETAIL_PQN_STRUCT, GCOL_DETAIL_PQN_STRUCT,
                                       GCOL_DETAIL_PQN_LEAF,   GCOL_DETAIL_PQN_STRUCT,
                                       GCOL_DETAIL_PQN_STRUCT, GCOL_DETAIL_PQN_LEAF};
  for (int32_t r = 0; r < 8; ++r) {
    const gcol_detail_pqn_node *list = &t.nodes[t.roots[r]];
    const gcol_detail_pqn_node *el = &t.nodes[t.children[list->first_child]];
    if (el->kind != elem_kind[r]) fail_msg("root %d: element kind %d", r, el->kind);
    /* a 2-level element is required: a slot is never null */
    if (r != 7) assert_int_equal(el->valid_def, el->slot_def);
    assert_int_equal(el->slot_def, list->elem_def);
  }
  /* bare repeated: a required list (never null), one level each */
  const gcol_detail_pqn_node *rlist = &t.nodes[t.roots[4]];
  assert_int_equal(rlist->valid_def, rlist->slot_def);
  assert_int_equal(rlist->elem_def, 1);
  assert_int_equal(rlist->rep, 1);
  /* r: rows [1, 2], [], [3] */
  static const uint8_t rep[] = {0, 1, 0, 0};
  static const uint8_t def[] = {1, 1, 0, 1};
  static const uint8_t rv[] = {1, 1, 1};
  static const int64_t ro[] = {0, 2, 2, 3};
  expect_node(&t, t.roots[4], rep, def, 4, 3, rv, ro);
  /* the map's struct holds key and value */
  const gcol_detail_pqn_node *mlist = &t.nodes[t.roots[6]];
  assert_int_equal(t.nodes[t.children[mlist->first_child]].num_children, 2);
  gcol_detail_pqn_free(&t);
}

/* Schemas the format forbids: a LIST group that is repeated, or whose child is not repeated,
 * or that holds two fields. The message names the column. */
static void test_bad_list_schemas(void **state) {
  (void)state;
  static const elem bad[3][3] = {
      {{"l", REP, 1, LIST_CT}, {"list", REP, 1, -1}, {"element", OPT, 0, -1}},
      {{"l", OPT, 1, LIST_CT}, {"list", OPT, 1, -1}, {"element", OPT, 0, -1}},
      {{"l", OPT, 2, LIST_CT}, {"list", REP, 0, -1}, {"other", REP, 0, -1}},
  };
  for (int i = 0; i < 3; ++i) {
    fake_md f;
    make_md(&f, bad[i], 3, 1);
    gcol_detail_pqn_tree t;
    assert_int_equal(gcol_detail_pqn_build(&f.md, &t), GCOL_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(gcol_last_error(), "column 'l'"));
    assert_null(t.nodes);
  }
}

/* Levels: the RLE/bit-packed hybrid decoded, cut streams and levels out of range refused
 * without reading past the stream (the bytes after it are poison the decoder must not use). */
static void test_level_streams(void **state) {
  (void)state;
  uint8_t out[64];
  /* RLE run of 5 twos (width 2), then a bit-packed group of 8: 0 1 2 3 0 1 2 3 */
  uint8_t const s[] = {5 << 1, 2, (1 << 1) | 1, 0xE4, 0xE4};
  assert_int_equal(gcol_detail_pqn_decode_levels(s, s + sizeof s, 3, 13, out), GCOL_DETAIL_PQ_E_OK);
  static const uint8_t want[] = {2, 2, 2, 2, 2, 0, 1, 2, 3, 0, 1, 2, 3};
  assert_memory_equal(out, want, 13);
  /* one value more than the stream holds */
  assert_int_equal(gcol_detail_pqn_decode_levels(s, s + sizeof s, 3, 14, out),
                   GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED);
  /* the bit-packed run cut short: what its bytes hold, then truncated */
  assert_int_equal(gcol_detail_pqn_decode_levels(s, s + 4, 3, 13, out),
                   GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED);
  assert_memory_equal(out, want, 9);
  /* a level above the max */
  assert_int_equal(gcol_detail_pqn_decode_levels(s, s + sizeof s, 2, 13, out),
                   GCOL_DETAIL_PQ_E_LEVEL_RANGE);
  /* an empty stream, a header cut in its varint */
  assert_int_equal(gcol_detail_pqn_decode_levels(s, s, 3, 1, out),
                   GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED);
  uint8_t const cut[] = {0x80};
  assert_int_equal(gcol_detail_pqn_decode_levels(cut, cut + 1, 1, 1, out),
                   GCOL_DETAIL_PQ_E_LEVELS_TRUNCATED);
  /* max level 0: all zeros, no bytes read */
  memset(out, 9, 4);
  assert_int_equal(gcol_detail_pqn_decode_levels(NULL, NULL, 0, 4, out), GCOL_DETAIL_PQ_E_OK);
  assert_int_equal(out[3], 0);
}

/* Levels that contradict the schema: a chunk that starts inside a row, an entry continuing a
 * null or empty list, an entry inside a list below its element level. Then the plan check's
 * message names the row group, column and page. */
static void test_inconsistent_levels(void **state) {
  (void)state;
  static const elem e[] = {
      {"l", OPT, 1, LIST_CT}, {"list", REP, 1, -1}, {"element", OPT, 0, -1}};
  fake_md f;
  make_md(&f, e, 3, 1);
  gcol_detail_pqn_tree t;
  assert_int_equal(gcol_detail_pqn_build(&f.md, &t), GCOL_OK);
  int64_t rows = 0;
  static const uint8_t r1[] = {1, 0};
  static const uint8_t d1[] = {3, 3};
  assert_int_equal(check(&f, &t, 0, r1, d1, 2, &rows), 0);
  static const uint8_t r2[] = {0, 1};
  static const uint8_t d2[] = {0, 3}; /* continues a null list */
  assert_int_equal(check(&f, &t, 0, r2, d2, 2, &rows), 1);
  static const uint8_t d3[] = {1, 3}; /* continues an empty list */
  assert_int_equal(check(&f, &t, 0, r2, d3, 2, &rows), 1);
  static const uint8_t d4[] = {3, 1}; /* an element entry below the element level */
  assert_int_equal(check(&f, &t, 0, r2, d4, 2, &rows), 1);
  static const uint8_t r5[] = {0, 2};
  assert_int_equal(check(&f, &t, 0, r5, d1, 2, &rows), 1); /* above the max repetition */

  /* the plan check: row group 3, page 2 of the column */
  gcol_detail_pq_row_group groups[4];
  memset(groups, 0, sizeof groups);
  groups[3].num_rows = 2;
  f.md.row_groups = groups;
  f.md.num_row_groups = 4;
  gcol_detail_pq_column_plan plan;
  memset(&plan, 0, sizeof plan);
  uint8_t rep[] = {0, 1, 0};
  uint8_t def[] = {3, 3, 0};
  int64_t chunk_first[] = {0, 3};
  gcol_detail_pq_page page;
  memset(&page, 0, sizeof page);
  page.num_rows = 3;
  gcol_detail_pq_where where = {3, 2};
  plan.has_levels = true;
  plan.num_rows = 3;
  plan.rep_levels = rep;
  plan.def_levels = def;
  plan.chunk_first = chunk_first;
  plan.num_chunks = 1;
  plan.pages = &page;
  plan.page_where = &where;
  plan.num_pages = 1;
  int32_t const group = 3;
  assert_int_equal(gcol_detail_pqn_check_plans(&f.md, &t, t.roots[0], &plan, &group, 1), GCOL_OK);
  def[0] = 1; /* the first row's list is empty: entry 1 continues nothing */
  assert_int_equal(gcol_detail_pqn_check_plans(&f.md, &t, t.roots[0], &plan, &group, 1),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "row group 3, column 'l.list.element', page 2"));
  def[0] = 3;
  groups[3].num_rows = 5; /* the levels hold 2 rows */
  assert_int_equal(gcol_detail_pqn_check_plans(&f.md, &t, t.roots[0], &plan, &group, 1),
                   GCOL_ERROR_INVALID_ARGUMENT);
  assert_non_null(strstr(gcol_last_error(), "2 rows"));
  plan.has_levels = false; /* planned flat */
  assert_int_equal(gcol_detail_pqn_check_plans(&f.md, &t, t.roots[0], &plan, &group, 1),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_detail_pqn_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_list_of_int64),
      cmocka_unit_test(test_list_of_list),
      cmocka_unit_test(test_list_of_struct),
      cmocka_unit_test(test_struct_of_list),
      cmocka_unit_test(test_legacy_lists_and_maps),
      cmocka_unit_test(test_bad_list_schemas),
      cmocka_unit_test(test_level_streams),
      cmocka_unit_test(test_inconsistent_levels),
  };
  return GCOL_TEST_RUN("parquet_nested_host", tests);
}
