/*
 * What an expression may be over rows of which only bounds are known (internal/expression.h):
 * the Parquet reader's predicate pushdown asks it of each row group's statistics. An abstract
 * interpretation of the tree: a node's values over the rows are over-approximated by whether
 * it may be true, false or null and, for numbers, an interval holding its valid values. Every
 * rule only widens, so "cannot be true" is never wrong; operands are taken as independent
 * (the same column twice widens, never narrows).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expression/expression_program.h"
#include "internal/error.h"
#include "internal/expression.h"

typedef struct ctx {
  const gcol_expression *expr;
  const gcol_data_type *types;
  const gcol_detail_expr_bounds *columns;
} ctx;

/* What a node may be over the rows of a row group. For a BOOL8 node t and f say whether it
 * may be true and false; for any other node both say whether it may be valid. */
typedef struct absval {
  bool t, f, n;   /* may be true / false (valid) / null */
  bool has_range; /* valid values lie in [lo, hi] (but NaN, when may_nan) */
  bool may_nan;   /* a float that may be NaN, which no interval holds */
  gcol_detail_bound_value lo, hi;
} absval;

static absval unknown(void) {
  absval a;
  memset(&a, 0, sizeof a);
  a.t = a.f = a.n = true;
  return a;
}

static bool may_be_valid(absval a) { return a.t || a.f; }

/* A column's values, from its bounds; a BOOL8 column's min and max say whether it may be
 * true and false. */
static absval column_value(const gcol_data_type *types, const gcol_detail_expr_bounds *columns,
                           int32_t column) {
  const gcol_detail_expr_bounds *b = &columns[column];
  absval a;
  memset(&a, 0, sizeof a);
  a.n = b->may_null;
  a.t = a.f = b->may_valid;
  if (!b->may_valid) return a;
  a.has_range = b->has_range;
  a.may_nan = b->may_nan;
  a.lo = b->lo;
  a.hi = b->hi;
  if (a.has_range && types[column].id == GCOL_BOOL8) {
    a.t = a.hi.i >= 1;
    a.f = a.lo.i <= 0;
  }
  return a;
}

static absval literal_value(const gcol_detail_expr_node *node) {
  absval a;
  memset(&a, 0, sizeof a);
  if (!node->literal_valid) {
    a.n = true;
    return a;
  }
  if (node->type.id == GCOL_STRING) { /* valid; no interval kept for strings */
    a.t = a.f = true;
    return a;
  }
  uint64_t const bits = node->literal_bits;
  gcol_detail_expr_kind const kind = gcol_detail_expr_kind_of((int)node->type.id);
  a.t = node->type.id == GCOL_BOOL8 ? bits != 0 : true;
  a.f = node->type.id == GCOL_BOOL8 ? bits == 0 : true;
  if (kind == GCOL_DETAIL_EXPR_F32 || kind == GCOL_DETAIL_EXPR_F64) {
    double const v = gcol_detail_f64_from_bits(bits);
    if (isnan(v)) return a; /* no interval: comparisons stay unknown */
    a.lo.kind = 2;
    a.lo.f = v;
  } else {
    a.lo.kind = kind == GCOL_DETAIL_EXPR_UNSIGNED ? 1 : 0;
    a.lo.i = (int64_t)bits;
  }
  a.hi = a.lo;
  a.has_range = true;
  return a;
}

/* A cast keeps an interval when it is monotonic and loses no value: to a float type from any
 * number, or to an integer type holding every value of the source's. */
static absval cast_value(absval in, gcol_data_type from, gcol_data_type to) {
  absval a = unknown();
  /* a float out of an integer's range (or NaN) casts to null */
  a.n = in.n || (gcol_type_is_floating(from.id) && gcol_type_is_integral(to.id));
  a.t = a.f = may_be_valid(in);
  if (to.id == GCOL_BOOL8 || !in.has_range || from.id == GCOL_BOOL8) return a;
  if (gcol_type_is_floating(to.id)) {
    a.may_nan = in.may_nan;
    a.has_range = true;
    a.lo.kind = a.hi.kind = 2;
    gcol_detail_bound_value const *src[2] = {&in.lo, &in.hi};
    gcol_detail_bound_value *dst[2] = {&a.lo, &a.hi};
    for (int k = 0; k < 2; ++k) {
      double const d = src[k]->kind == 2   ? src[k]->f
                       : src[k]->kind == 1 ? (double)(uint64_t)src[k]->i
                                           : (double)src[k]->i;
      dst[k]->f = to.id == GCOL_FLOAT32 ? (double)(float)d : d;
    }
    return a;
  }
  if (!gcol_type_is_integral(from.id) || !gcol_type_is_integral(to.id)) return a;
  bool const fu = gcol_type_is_unsigned_integral(from.id);
  bool const tu = gcol_type_is_unsigned_integral(to.id);
  size_t const fw = gcol_type_size(from.id), tw = gcol_type_size(to.id);
  bool const widens = fu == tu ? tw >= fw : (fu && !tu && tw > fw);
  if (!widens) return a;
  a.has_range = true;
  a.lo = in.lo;
  a.hi = in.hi;
  a.lo.kind = a.hi.kind = tu ? 1 : 0;
  return a;
}

static int cmp(gcol_detail_bound_value a, gcol_detail_bound_value b) {
  return gcol_detail_bound_compare(a, b);
}

/* may_true / may_false of `x op y` for x in [a.lo, a.hi], y in [b.lo, b.hi]. */
static void compare_ranges(gcol_expression_op op, absval a, absval b, bool *t, bool *f) {
  switch (op) {
    case GCOL_EXPR_LESS:
      *t = cmp(a.lo, b.hi) < 0;
      *f = cmp(a.hi, b.lo) >= 0;
      return;
    case GCOL_EXPR_LESS_EQUAL:
      *t = cmp(a.lo, b.hi) <= 0;
      *f = cmp(a.hi, b.lo) > 0;
      return;
    case GCOL_EXPR_GREATER:
      compare_ranges(GCOL_EXPR_LESS, b, a, t, f);
      return;
    case GCOL_EXPR_GREATER_EQUAL:
      compare_ranges(GCOL_EXPR_LESS_EQUAL, b, a, t, f);
      return;
    default: { /* EQUAL, NOT_EQUAL */
      bool const overlap = cmp(a.lo, b.hi) <= 0 && cmp(b.lo, a.hi) <= 0;
      bool const one_point = cmp(a.lo, a.hi) == 0 && cmp(b.lo, b.hi) == 0 && cmp(a.lo, b.lo) == 0;
      *t = op == GCOL_EXPR_NOT_EQUAL ? !one_point : overlap;
      *f = op == GCOL_EXPR_NOT_EQUAL ? overlap : !one_point;
      return;
    }
  }
}

/* The valid outcomes of a comparison of two valid values (no null in or out). */
static void compare_valid(gcol_expression_op op, absval a, absval b, bool *t, bool *f) {
  *t = *f = true;
  if (!may_be_valid(a) || !may_be_valid(b)) {
    *t = *f = false;
    return;
  }
  if (!a.has_range || !b.has_range) return;
  compare_ranges(op == GCOL_EXPR_NULL_EQUALS ? GCOL_EXPR_EQUAL : op, a, b, t, f);
  if (a.may_nan || b.may_nan) { /* NaN: every comparison false but != */
    *f = true;
    if (op == GCOL_EXPR_NOT_EQUAL) *t = true;
  }
}

static absval comparison(gcol_expression_op op, absval a, absval b) {
  absval r;
  memset(&r, 0, sizeof r);
  compare_valid(op, a, b, &r.t, &r.f);
  if (op == GCOL_EXPR_NULL_EQUALS) { /* null == null is true, null == value false */
    r.t = r.t || (a.n && b.n);
    r.f = r.f || (a.n && may_be_valid(b)) || (may_be_valid(a) && b.n);
  } else {
    r.n = a.n || b.n;
  }
  return r;
}

static absval logical(gcol_expression_op op, absval a, absval b) {
  absval r;
  memset(&r, 0, sizeof r);
  bool const is_and = op == GCOL_EXPR_LOGICAL_AND || op == GCOL_EXPR_NULL_LOGICAL_AND;
  bool const kleene = op == GCOL_EXPR_NULL_LOGICAL_AND || op == GCOL_EXPR_NULL_LOGICAL_OR;
  /* OR is AND with true and false swapped */
  bool const at = is_and ? a.t : a.f, af = is_and ? a.f : a.t;
  bool const bt = is_and ? b.t : b.f, bf = is_and ? b.f : b.t;
  bool rt = at && bt, rf, rn;
  if (kleene) { /* false AND anything is false; null unless an operand is false */
    rf = af || bf;
    rn = (a.n && (bt || b.n)) || (b.n && (at || a.n));
  } else { /* a null operand makes null */
    rf = (af && (bt || bf)) || (bf && (at || af));
    rn = a.n || b.n;
  }
  r.t = is_and ? rt : rf;
  r.f = is_and ? rf : rt;
  r.n = rn;
  return r;
}

static absval eval(const ctx *c, int32_t id);

static absval unary(const ctx *c, const gcol_detail_expr_node *node) {
  absval const a = eval(c, node->lhs);
  absval r;
  memset(&r, 0, sizeof r);
  switch (node->op) {
    case GCOL_EXPR_NOT: /* NOT null is null */
      r.t = a.f;
      r.f = a.t;
      r.n = a.n;
      return r;
    case GCOL_EXPR_IS_NULL:
    case GCOL_EXPR_IS_VALID:
      r.t = node->op == GCOL_EXPR_IS_NULL ? a.n : may_be_valid(a);
      r.f = node->op == GCOL_EXPR_IS_NULL ? may_be_valid(a) : a.n;
      return r;
    default:
      return unknown();
  }
}

static gcol_data_type node_type(const ctx *c, int32_t id) {
  const gcol_detail_expr_node *node = &c->expr->nodes[id];
  if (node->kind == GCOL_DETAIL_EXPR_NODE_COLUMN) return c->types[node->column];
  if (node->kind == GCOL_DETAIL_EXPR_NODE_LITERAL || node->kind == GCOL_DETAIL_EXPR_NODE_CAST) {
    return node->type;
  }
  return gcol_data_type_make(GCOL_EMPTY); /* not needed: only casts ask, of their operand */
}

/* Depth and size are bounded by the type check (GCOL_EXPRESSION_MAX_INSTRUCTIONS uses). */
static absval eval(const ctx *c, int32_t id) {
  const gcol_detail_expr_node *node = &c->expr->nodes[id];
  switch (node->kind) {
    case GCOL_DETAIL_EXPR_NODE_COLUMN:
      return column_value(c->types, c->columns, node->column);
    case GCOL_DETAIL_EXPR_NODE_LITERAL:
      return literal_value(node);
    case GCOL_DETAIL_EXPR_NODE_CAST:
      return cast_value(eval(c, node->lhs), node_type(c, node->lhs), node->type);
    case GCOL_DETAIL_EXPR_NODE_UNARY:
      return unary(c, node);
    default:
      break;
  }
  switch (node->op) {
    case GCOL_EXPR_EQUAL:
    case GCOL_EXPR_NOT_EQUAL:
    case GCOL_EXPR_LESS:
    case GCOL_EXPR_LESS_EQUAL:
    case GCOL_EXPR_GREATER:
    case GCOL_EXPR_GREATER_EQUAL:
    case GCOL_EXPR_NULL_EQUALS:
      return comparison(node->op, eval(c, node->lhs), eval(c, node->rhs));
    case GCOL_EXPR_LOGICAL_AND:
    case GCOL_EXPR_LOGICAL_OR:
    case GCOL_EXPR_NULL_LOGICAL_AND:
    case GCOL_EXPR_NULL_LOGICAL_OR:
      return logical(node->op, eval(c, node->lhs), eval(c, node->rhs));
    default:
      return unknown(); /* arithmetic: no interval kept */
  }
}

bool gcol_detail_expr_may_be_true(const gcol_expression *expr, int32_t root,
                                  const gcol_data_type *types,
                                  const gcol_detail_expr_bounds *columns) {
  ctx const c = {expr, types, columns};
  return eval(&c, root).t;
}

/* Marks the nodes under `root`: operands have lower ids, so one pass down the ids. */
static void mark_tree(const gcol_expression *expr, int32_t root, bool *reached) {
  reached[root] = true;
  for (int32_t id = root; id >= 0; --id) {
    const gcol_detail_expr_node *node = &expr->nodes[id];
    if (!reached[id]) continue;
    if (node->kind == GCOL_DETAIL_EXPR_NODE_UNARY || node->kind == GCOL_DETAIL_EXPR_NODE_CAST) {
      reached[node->lhs] = true;
    } else if (node->kind == GCOL_DETAIL_EXPR_NODE_BINARY) {
      reached[node->lhs] = reached[node->rhs] = true;
    }
  }
}

static gcol_status reached_nodes(const gcol_expression *expr, int32_t root, bool **out) {
  *out = (bool *)calloc((size_t)expr->count, sizeof **out);
  if (*out == NULL) return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "out of memory");
  mark_tree(expr, root, *out);
  return GCOL_OK;
}

gcol_status gcol_detail_expr_columns_used(const gcol_expression *expr, int32_t root, bool *used) {
  bool *reached = NULL;
  gcol_status const status = reached_nodes(expr, root, &reached);
  if (status != GCOL_OK) return status;
  for (int32_t id = 0; id <= root; ++id) {
    if (reached[id] && expr->nodes[id].kind == GCOL_DETAIL_EXPR_NODE_COLUMN) {
      used[expr->nodes[id].column] = true;
    }
  }
  free(reached);
  return GCOL_OK;
}

gcol_status gcol_detail_expr_remap_columns(const gcol_expression *expr, int32_t root,
                                           const int32_t *map, gcol_expression **out) {
  gcol_status status = GCOL_OK;
  gcol_expression *e = NULL;
  bool *reached = NULL;
  *out = NULL;
  GCOL_DETAIL_TRY(reached_nodes(expr, root, &reached));
  GCOL_DETAIL_TRY(gcol_expression_create(&e));
  e->nodes = (gcol_detail_expr_node *)malloc((size_t)expr->count * sizeof *e->nodes);
  GCOL_DETAIL_CHECK(e->nodes != NULL, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
  memcpy(e->nodes, expr->nodes, (size_t)expr->count * sizeof *e->nodes);
  e->count = e->capacity = expr->count;
  for (int32_t id = 0; id < e->count; ++id) { /* string literals own their bytes */
    gcol_detail_expr_node *node = &e->nodes[id];
    if (node->literal_bytes == NULL) continue;
    node->literal_bytes = (char *)malloc((size_t)node->literal_size);
    if (node->literal_bytes == NULL) {
      for (int32_t k = id + 1; k < e->count; ++k) e->nodes[k].literal_bytes = NULL;
      GCOL_DETAIL_CHECK(false, GCOL_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(node->literal_bytes, expr->nodes[id].literal_bytes, (size_t)node->literal_size);
  }
  for (int32_t id = 0; id <= root; ++id) {
    gcol_detail_expr_node *node = &e->nodes[id];
    if (reached[id] && node->kind == GCOL_DETAIL_EXPR_NODE_COLUMN) node->column = map[node->column];
  }
  *out = e;
  e = NULL;
done:
  gcol_expression_free(e);
  free(reached);
  return status;
}
