/*
 * Expressions on the host: the tree builder (include/gcol/expression.h) and the compiler
 * that type-checks a tree against a table's column types and flattens it into the
 * register-machine program the kernel interprets (expression_program.h).
 *
 * Compilation, for the nodes reachable from the root (found by one scan down the ids, as
 * operands always have lower ids than their users):
 * 1. in ascending id order, each node's type, depth, evaluation steps (saturating) and
 *    Sethi-Ullman slot need: a leaf needs 1 slot, a unary node its operand's, a binary node
 *    max(l, r) if they differ, else l + 1;
 * 2. code generation, gen(node, base) leaving the node's value in slot `base`: a binary
 *    node evaluates its needier operand first into `base`, the other into `base + 1`, so at
 *    most base + need - 1 slots are in use. The root's value ends in slot 0.
 *
 * Strings: a STRING column loads as a handle (LOAD_STRING), a STRING literal is a program
 * column of its own (a constant, whose handle is a LOAD_LITERAL), and a comparison of
 * strings or a LIKE has an opcode of its own (expression_program.h); a LIKE's pattern is a
 * constant (its compiled items), not a slot, so a LIKE node needs its operand's slots only.
 */
#include <stdlib.h>
#include <string.h>

#include "detail/like_match.h"
#include "expression/expression_program.h"
#include "internal/error.h"
#include "internal/nvtx.h"

#define GCOL_DETAIL_EXPR_OP_NAME_CASE(NAME, ARITY, STRING) \
  case GCOL_EXPR_##NAME:                                   \
    return (STRING);
#define GCOL_DETAIL_EXPR_OP_ARITY_CASE(NAME, ARITY, STRING) \
  case GCOL_EXPR_##NAME:                                    \
    return (ARITY);

const char *gcol_expression_op_name(gcol_expression_op op) {
  switch (op) {
    GCOL_EXPRESSION_OP_LIST(GCOL_DETAIL_EXPR_OP_NAME_CASE)
    default:
      return "invalid";
  }
}

int gcol_expression_op_arity(gcol_expression_op op) {
  switch (op) {
    GCOL_EXPRESSION_OP_LIST(GCOL_DETAIL_EXPR_OP_ARITY_CASE)
    default:
      return 0;
  }
}

/* ---- the builder ---- */

static gcol_status expression_create(gcol_expression **out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = (gcol_expression *)calloc(1, sizeof(gcol_expression));
  GCOL_DETAIL_CHECK(*out != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for an expression");
done:
  return status;
}

gcol_status gcol_expression_create(gcol_expression **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_expression_create");
  gcol_status const status = expression_create(out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_expression_free(gcol_expression *expr) {
  if (expr == NULL) return;
  for (int32_t k = 0; k < expr->count; ++k) free(expr->nodes[k].literal_bytes);
  free(expr->nodes);
  free(expr);
}

int32_t gcol_expression_num_nodes(const gcol_expression *expr) {
  return expr == NULL ? 0 : expr->count;
}

/* Appends @p node; its id goes to *id. */
static gcol_status append_node(gcol_expression *expr, const gcol_detail_expr_node *node,
                               int32_t *id) {
  gcol_status status = GCOL_OK;
  if (expr->count == expr->capacity) {
    int32_t const capacity = expr->capacity == 0 ? 16 : expr->capacity * 2;
    gcol_detail_expr_node *grown = NULL;
    GCOL_DETAIL_CHECK(expr->capacity < (1 << 24), GCOL_ERROR_INVALID_ARGUMENT,
                      "the expression already has %d nodes", (int)expr->count);
    grown = (gcol_detail_expr_node *)realloc(expr->nodes, (size_t)capacity * sizeof *grown);
    GCOL_DETAIL_CHECK(grown != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d nodes",
                      (int)capacity);
    expr->nodes = grown;
    expr->capacity = capacity;
  }
  expr->nodes[expr->count] = *node;
  *id = expr->count++;
done:
  return status;
}

static gcol_status check_operand(const gcol_expression *expr, int32_t operand, const char *what) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(operand >= 0 && operand < expr->count, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s is %d, not a node of the expression (0..%d)", what, (int)operand,
                    (int)expr->count - 1);
done:
  return status;
}

/* A type a column or literal of an expression may have. */
static bool value_type_supported(gcol_type_id id) {
  return (gcol_type_is_fixed_width(id) && id != GCOL_DECIMAL128) || id == GCOL_STRING;
}

uint64_t gcol_detail_expr_slot_from_storage(gcol_type_id id, const void *storage) {
  gcol_detail_expr_column c;
  memset(&c, 0, sizeof c);
  c.reader =
      gcol_detail_reader_make(gcol_column_view_make(gcol_data_type_make(id), 1, storage, NULL, 0));
  return gcol_detail_expr_load(&c, 0);
}

static gcol_status expression_add_column(gcol_expression *expr, gcol_expression_side side,
                                         int32_t column, int32_t *node) {
  gcol_status status = GCOL_OK;
  gcol_detail_expr_node n;
  GCOL_DETAIL_CHECK_NOT_NULL(expr);
  GCOL_DETAIL_CHECK_NOT_NULL(node);
  GCOL_DETAIL_CHECK(side == GCOL_EXPRESSION_LEFT || side == GCOL_EXPRESSION_RIGHT,
                    GCOL_ERROR_INVALID_ARGUMENT, "side is %d, not LEFT (0) or RIGHT (1)",
                    (int)side);
  GCOL_DETAIL_CHECK(column >= 0, GCOL_ERROR_INVALID_ARGUMENT, "column is %d, negative",
                    (int)column);
  memset(&n, 0, sizeof n);
  n.kind = GCOL_DETAIL_EXPR_NODE_COLUMN;
  n.side = side;
  n.column = column;
  n.lhs = n.rhs = -1;
  GCOL_DETAIL_TRY(append_node(expr, &n, node));
done:
  return status;
}

gcol_status gcol_expression_add_column(gcol_expression *expr, gcol_expression_side side,
                                       int32_t column, int32_t *node) {
  GCOL_DETAIL_NVTX_PUSH("gcol_expression_add_column");
  gcol_status const status = expression_add_column(expr, side, column, node);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status expression_add_literal(gcol_expression *expr, const gcol_scalar *value,
                                          int32_t *node) {
  gcol_status status = GCOL_OK;
  gcol_detail_expr_node n;
  GCOL_DETAIL_CHECK_NOT_NULL(expr);
  GCOL_DETAIL_CHECK_NOT_NULL(value);
  GCOL_DETAIL_CHECK_NOT_NULL(node);
  GCOL_DETAIL_CHECK(gcol_type_id_is_valid(value->type.id), GCOL_ERROR_INVALID_ARGUMENT,
                    "value has the invalid type id %d", (int)value->type.id);
  GCOL_DETAIL_CHECK(value_type_supported(value->type.id), GCOL_ERROR_UNSUPPORTED,
                    "a literal of type %s is not supported (fixed-width types but decimal128, "
                    "and string)",
                    gcol_type_name(value->type.id));
  memset(&n, 0, sizeof n);
  n.kind = GCOL_DETAIL_EXPR_NODE_LITERAL;
  n.lhs = n.rhs = -1;
  n.type = value->type;
  n.literal_valid = value->is_valid;
  if (value->type.id == GCOL_STRING) {
    int64_t const size = value->is_valid ? value->string_size : 0;
    GCOL_DETAIL_CHECK(size >= 0 && (size == 0 || value->string_data != NULL),
                      GCOL_ERROR_INVALID_ARGUMENT, "value is a string of %lld bytes at %p",
                      (long long)size, (const void *)value->string_data);
    if (size > 0) {
      n.literal_bytes = (char *)malloc((size_t)size);
      GCOL_DETAIL_CHECK(n.literal_bytes != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                        "no host memory for a string literal of %lld bytes", (long long)size);
      memcpy(n.literal_bytes, value->string_data, (size_t)size);
    }
    n.literal_size = size;
  } else {
    n.literal_bits =
        value->is_valid ? gcol_detail_expr_slot_from_storage(value->type.id, &value->value) : 0;
  }
  status = append_node(expr, &n, node);
  if (status != GCOL_OK) free(n.literal_bytes);
done:
  return status;
}

gcol_status gcol_expression_add_literal(gcol_expression *expr, const gcol_scalar *value,
                                        int32_t *node) {
  GCOL_DETAIL_NVTX_PUSH("gcol_expression_add_literal");
  gcol_status const status = expression_add_literal(expr, value, node);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status add_operator(gcol_expression *expr, gcol_expression_op op, int arity,
                                int32_t lhs, int32_t rhs, int32_t *node) {
  gcol_status status = GCOL_OK;
  gcol_detail_expr_node n;
  GCOL_DETAIL_CHECK_NOT_NULL(expr);
  GCOL_DETAIL_CHECK_NOT_NULL(node);
  GCOL_DETAIL_CHECK(gcol_expression_op_arity(op) == arity, GCOL_ERROR_INVALID_ARGUMENT,
                    "op %d (%s) takes %d operands, not %d", (int)op, gcol_expression_op_name(op),
                    gcol_expression_op_arity(op), arity);
  GCOL_DETAIL_TRY(check_operand(expr, lhs, arity == 1 ? "operand" : "lhs"));
  if (arity == 2) GCOL_DETAIL_TRY(check_operand(expr, rhs, "rhs"));
  memset(&n, 0, sizeof n);
  n.kind = arity == 1 ? GCOL_DETAIL_EXPR_NODE_UNARY : GCOL_DETAIL_EXPR_NODE_BINARY;
  n.op = op;
  n.lhs = lhs;
  n.rhs = arity == 2 ? rhs : -1;
  GCOL_DETAIL_TRY(append_node(expr, &n, node));
done:
  return status;
}

gcol_status gcol_expression_add_unary(gcol_expression *expr, gcol_expression_op op, int32_t operand,
                                      int32_t *node) {
  gcol_status status;
  GCOL_DETAIL_NVTX_PUSH("gcol_expression_add_unary");
  status = add_operator(expr, op, 1, operand, -1, node);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_expression_add_binary(gcol_expression *expr, gcol_expression_op op, int32_t lhs,
                                       int32_t rhs, int32_t *node) {
  gcol_status status;
  GCOL_DETAIL_NVTX_PUSH("gcol_expression_add_binary");
  status = add_operator(expr, op, 2, lhs, rhs, node);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status expression_add_like(gcol_expression *expr, int32_t operand,
                                       const gcol_scalar *pattern, const char *escape_character,
                                       int32_t *node) {
  gcol_status status = GCOL_OK;
  int32_t *items = NULL;
  int64_t count = 0;
  int32_t literal = -1;
  size_t const escape_size = escape_character == NULL ? 0 : strlen(escape_character);
  GCOL_DETAIL_CHECK_NOT_NULL(expr);
  GCOL_DETAIL_CHECK_NOT_NULL(pattern);
  GCOL_DETAIL_CHECK_NOT_NULL(node);
  GCOL_DETAIL_TRY(check_operand(expr, operand, "operand"));
  GCOL_DETAIL_CHECK(pattern->type.id == GCOL_STRING, GCOL_ERROR_TYPE_MISMATCH,
                    "the pattern is %s, not string", gcol_type_name(pattern->type.id));
  GCOL_DETAIL_CHECK(escape_size < sizeof expr->nodes[0].escape, GCOL_ERROR_INVALID_ARGUMENT,
                    "escape_character \"%s\" is not one UTF-8 character", escape_character);
  if (pattern->is_valid) { /* refuse a malformed pattern now, not when bound */
    int64_t const size = pattern->string_size;
    items = (int32_t *)malloc((size_t)(size > 0 ? size : 1) * sizeof *items);
    GCOL_DETAIL_CHECK(items != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "no host memory for a pattern of %lld bytes", (long long)size);
    GCOL_DETAIL_TRY(
        gcol_detail_like_compile(pattern->string_data, size, escape_character, items, &count));
  } else if (escape_size > 0) {
    GCOL_DETAIL_TRY(gcol_detail_like_compile("", 0, escape_character, NULL, &count));
  }
  GCOL_DETAIL_TRY(expression_add_literal(expr, pattern, &literal));
  GCOL_DETAIL_TRY(add_operator(expr, GCOL_EXPR_LIKE, 2, operand, literal, node));
  if (escape_size > 0) memcpy(expr->nodes[*node].escape, escape_character, escape_size + 1);
done:
  free(items);
  return status;
}

gcol_status gcol_expression_add_like(gcol_expression *expr, int32_t operand,
                                     const gcol_scalar *pattern, const char *escape_character,
                                     int32_t *node) {
  GCOL_DETAIL_NVTX_PUSH("gcol_expression_add_like");
  gcol_status const status = expression_add_like(expr, operand, pattern, escape_character, node);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status expression_add_cast(gcol_expression *expr, int32_t operand, gcol_data_type type,
                                       int32_t *node) {
  gcol_status status = GCOL_OK;
  gcol_detail_expr_node n;
  GCOL_DETAIL_CHECK_NOT_NULL(expr);
  GCOL_DETAIL_CHECK_NOT_NULL(node);
  GCOL_DETAIL_TRY(check_operand(expr, operand, "operand"));
  GCOL_DETAIL_CHECK(gcol_type_id_is_valid(type.id), GCOL_ERROR_INVALID_ARGUMENT,
                    "type has the invalid id %d", (int)type.id);
  memset(&n, 0, sizeof n);
  n.kind = GCOL_DETAIL_EXPR_NODE_CAST;
  n.lhs = operand;
  n.rhs = -1;
  n.type = type;
  GCOL_DETAIL_TRY(append_node(expr, &n, node));
done:
  return status;
}

gcol_status gcol_expression_add_cast(gcol_expression *expr, int32_t operand, gcol_data_type type,
                                     int32_t *node) {
  GCOL_DETAIL_NVTX_PUSH("gcol_expression_add_cast");
  gcol_status const status = expression_add_cast(expr, operand, type, node);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- type checking ---- */

typedef struct node_info {
  gcol_data_type type;
  int32_t depth;
  int32_t steps; /* evaluation steps, saturating past the limit */
  int32_t need;  /* slots */
  bool reachable;
} node_info;

static const char *type_label(gcol_data_type t, char *buf, size_t size) {
  gcol_data_type_format(t, buf, size);
  return buf;
}

static bool is_string(gcol_data_type t) { return t.id == GCOL_STRING; }

static bool is_compare(gcol_expression_op op) {
  return op >= GCOL_EXPR_EQUAL && op <= GCOL_EXPR_NULL_EQUALS;
}
static bool is_logical(gcol_expression_op op) {
  return op >= GCOL_EXPR_LOGICAL_AND && op <= GCOL_EXPR_NULL_LOGICAL_OR;
}

/* The result type of unary @p op on @p t, or false. */
static bool unary_type(gcol_expression_op op, gcol_data_type t, gcol_data_type *out) {
  gcol_type_id const id = t.id;
  *out = t;
  switch (op) {
    case GCOL_EXPR_NOT:
      return id == GCOL_BOOL8;
    case GCOL_EXPR_NEGATE:
      return gcol_type_is_signed_integral(id) || gcol_type_is_floating(id) ||
             gcol_type_is_duration(id);
    case GCOL_EXPR_ABS:
      return gcol_type_is_integral(id) || gcol_type_is_floating(id) || gcol_type_is_duration(id);
    default: /* IS_NULL, IS_VALID */
      *out = gcol_data_type_make(GCOL_BOOL8);
      return true;
  }
}

/* The result type of binary @p op on two operands of type @p t, or false. */
static bool binary_type(gcol_expression_op op, gcol_data_type t, gcol_data_type *out) {
  gcol_type_id const id = t.id;
  *out = gcol_data_type_make(GCOL_BOOL8);
  if (is_compare(op)) return true; /* every value type orders */
  if (is_logical(op)) return id == GCOL_BOOL8;
  *out = t;
  if (gcol_type_is_integral(id) || gcol_type_is_floating(id)) return true;
  return gcol_type_is_duration(id) && (op == GCOL_EXPR_ADD || op == GCOL_EXPR_SUB);
}

static gcol_status check_node(const gcol_expression *expr, int32_t id, node_info *info,
                              const gcol_data_type *left_types, int32_t num_left,
                              const gcol_data_type *right_types, int32_t num_right) {
  gcol_status status = GCOL_OK;
  const gcol_detail_expr_node *n = &expr->nodes[id];
  node_info *me = &info[id];
  char b1[48], b2[48];
  switch (n->kind) {
    case GCOL_DETAIL_EXPR_NODE_COLUMN: {
      bool const left = n->side == GCOL_EXPRESSION_LEFT;
      int32_t const count = left ? num_left : num_right;
      GCOL_DETAIL_CHECK(left || num_right > 0, GCOL_ERROR_INVALID_ARGUMENT,
                        "node %d refers to column %d of the right table, and there is none",
                        (int)id, (int)n->column);
      GCOL_DETAIL_CHECK(n->column < count, GCOL_ERROR_INVALID_ARGUMENT,
                        "node %d refers to column %d of the %s table, which has %d columns",
                        (int)id, (int)n->column, left ? "left" : "right", (int)count);
      me->type = left ? left_types[n->column] : right_types[n->column];
      GCOL_DETAIL_CHECK(value_type_supported(me->type.id), GCOL_ERROR_UNSUPPORTED,
                        "node %d refers to column %d of type %s, which expressions do not take",
                        (int)id, (int)n->column, gcol_type_name(me->type.id));
      me->depth = me->steps = me->need = 1;
      break;
    }
    case GCOL_DETAIL_EXPR_NODE_LITERAL:
      me->type = n->type;
      me->depth = me->steps = me->need = 1;
      break;
    case GCOL_DETAIL_EXPR_NODE_CAST: {
      node_info const *a = &info[n->lhs];
      GCOL_DETAIL_CHECK(gcol_type_is_numeric(a->type.id) && gcol_type_is_numeric(n->type.id),
                        GCOL_ERROR_TYPE_MISMATCH,
                        "node %d (cast): cannot cast %s to %s (integers, floats and bool8 only)",
                        (int)id, type_label(a->type, b1, sizeof b1),
                        type_label(n->type, b2, sizeof b2));
      me->type = n->type;
      me->depth = a->depth + 1;
      me->steps = a->steps + 1;
      me->need = a->need;
      break;
    }
    case GCOL_DETAIL_EXPR_NODE_UNARY: {
      node_info const *a = &info[n->lhs];
      GCOL_DETAIL_CHECK(unary_type(n->op, a->type, &me->type), GCOL_ERROR_TYPE_MISMATCH,
                        "node %d (%s): does not apply to %s", (int)id,
                        gcol_expression_op_name(n->op), type_label(a->type, b1, sizeof b1));
      me->depth = a->depth + 1;
      me->steps = a->steps + 1;
      me->need = a->need;
      break;
    }
    default: {
      node_info const *a = &info[n->lhs], *b = &info[n->rhs];
      if (n->op == GCOL_EXPR_LIKE) {
        const gcol_detail_expr_node *pattern = &expr->nodes[n->rhs];
        GCOL_DETAIL_CHECK(is_string(a->type), GCOL_ERROR_TYPE_MISMATCH,
                          "node %d (like): the operand (node %d) is %s, not string", (int)id,
                          (int)n->lhs, type_label(a->type, b1, sizeof b1));
        GCOL_DETAIL_CHECK(pattern->kind == GCOL_DETAIL_EXPR_NODE_LITERAL && is_string(b->type),
                          GCOL_ERROR_TYPE_MISMATCH,
                          "node %d (like): the pattern (node %d) is not a string literal", (int)id,
                          (int)n->rhs);
        me->type = gcol_data_type_make(GCOL_BOOL8);
        me->depth = (a->depth > b->depth ? a->depth : b->depth) + 1;
        me->steps = a->steps + 1; /* the pattern is a constant, not a step */
        me->need = a->need;
        break;
      }
      GCOL_DETAIL_CHECK(gcol_data_type_equal(a->type, b->type), GCOL_ERROR_TYPE_MISMATCH,
                        "node %d (%s): operand types %s (node %d) and %s (node %d) differ; cast "
                        "one to the other",
                        (int)id, gcol_expression_op_name(n->op), type_label(a->type, b1, sizeof b1),
                        (int)n->lhs, type_label(b->type, b2, sizeof b2), (int)n->rhs);
      GCOL_DETAIL_CHECK(!is_string(a->type) || is_compare(n->op), GCOL_ERROR_TYPE_MISMATCH,
                        "node %d (%s): does not apply to strings (they take comparisons, like, "
                        "is_null and is_valid only)",
                        (int)id, gcol_expression_op_name(n->op));
      GCOL_DETAIL_CHECK(binary_type(n->op, a->type, &me->type), GCOL_ERROR_TYPE_MISMATCH,
                        "node %d (%s): does not apply to %s", (int)id,
                        gcol_expression_op_name(n->op), type_label(a->type, b1, sizeof b1));
      me->depth = (a->depth > b->depth ? a->depth : b->depth) + 1;
      me->steps = a->steps + b->steps + 1;
      me->need = a->need == b->need ? a->need + 1 : (a->need > b->need ? a->need : b->need);
      break;
    }
  }
  if (me->steps > GCOL_EXPRESSION_MAX_INSTRUCTIONS)
    me->steps = GCOL_EXPRESSION_MAX_INSTRUCTIONS + 1;
  if (me->need > GCOL_EXPRESSION_MAX_SLOTS) me->need = GCOL_EXPRESSION_MAX_SLOTS + 1;
  GCOL_DETAIL_CHECK(me->depth <= GCOL_EXPRESSION_MAX_DEPTH, GCOL_ERROR_INVALID_ARGUMENT,
                    "node %d: the tree is deeper than the limit of %d", (int)id,
                    GCOL_EXPRESSION_MAX_DEPTH);
done:
  return status;
}

/* ---- code generation ---- */

typedef struct emitter {
  const gcol_expression *expr;
  const node_info *info;
  gcol_detail_expr_program *program;
} emitter;

static int32_t column_slot(gcol_detail_expr_program *p, gcol_expression_side side, int32_t col) {
  for (int32_t k = 0; k < p->num_columns; ++k) {
    if (p->column_node[k] < 0 && p->column_side[k] == side && p->column_index[k] == col) return k;
  }
  p->column_side[p->num_columns] = side;
  p->column_index[p->num_columns] = col;
  p->column_node[p->num_columns] = -1;
  return p->num_columns++;
}

/* The program column of constant node @p id (a STRING literal, or a LIKE's pattern). */
static int32_t constant_slot(gcol_detail_expr_program *p, int32_t id) {
  for (int32_t k = 0; k < p->num_columns; ++k) {
    if (p->column_node[k] == id) return k;
  }
  p->column_side[p->num_columns] = GCOL_EXPRESSION_LEFT;
  p->column_index[p->num_columns] = -1;
  p->column_node[p->num_columns] = id;
  ++p->num_constants;
  return p->num_columns++;
}

static void emit(emitter *e, int32_t id, int base) {
  const gcol_detail_expr_node *n = &e->expr->nodes[id];
  gcol_detail_expr_program *p = e->program;
  gcol_detail_expr_instr in;
  memset(&in, 0, sizeof in);
  in.dst = (uint8_t)base;
  in.a = in.b = (uint8_t)base;
  in.out_type = (uint8_t)e->info[id].type.id;
  switch (n->kind) {
    case GCOL_DETAIL_EXPR_NODE_COLUMN:
      in.opcode =
          in.out_type == GCOL_STRING ? GCOL_DETAIL_EXPR_LOAD_STRING : GCOL_DETAIL_EXPR_LOAD_COLUMN;
      in.type = in.out_type;
      in.imm = (uint64_t)column_slot(p, n->side, n->column);
      break;
    case GCOL_DETAIL_EXPR_NODE_LITERAL:
      in.opcode = n->literal_valid ? GCOL_DETAIL_EXPR_LOAD_LITERAL : GCOL_DETAIL_EXPR_LOAD_NULL;
      in.type = in.out_type;
      in.imm = n->literal_bits;
      if (n->literal_valid && n->type.id == GCOL_STRING) {
        in.imm = GCOL_DETAIL_EXPR_STRING_HANDLE(constant_slot(p, id), 0);
      }
      if (!n->literal_valid) p->can_make_nulls = true;
      break;
    case GCOL_DETAIL_EXPR_NODE_CAST:
      emit(e, n->lhs, base);
      in.opcode = GCOL_DETAIL_EXPR_CAST;
      in.type = (uint8_t)e->info[n->lhs].type.id;
      if (gcol_type_is_floating((gcol_type_id)in.type) &&
          !gcol_type_is_floating((gcol_type_id)in.out_type) && in.out_type != GCOL_BOOL8) {
        p->can_make_nulls = true;
      }
      break;
    case GCOL_DETAIL_EXPR_NODE_UNARY:
      emit(e, n->lhs, base);
      in.opcode = (uint8_t)n->op;
      in.type = (uint8_t)e->info[n->lhs].type.id;
      break;
    default: {
      if (n->op == GCOL_EXPR_LIKE) {
        in.type = GCOL_STRING;
        if (!e->expr->nodes[n->rhs].literal_valid) { /* a null pattern: null */
          in.opcode = GCOL_DETAIL_EXPR_LOAD_NULL;
          p->can_make_nulls = true;
          break;
        }
        emit(e, n->lhs, base);
        in.opcode = GCOL_DETAIL_EXPR_STRING_LIKE;
        in.imm = (uint64_t)constant_slot(p, id);
        break;
      }
      bool const left_first = e->info[n->lhs].need >= e->info[n->rhs].need;
      emit(e, left_first ? n->lhs : n->rhs, base);
      emit(e, left_first ? n->rhs : n->lhs, base + 1);
      in.opcode = (uint8_t)n->op;
      in.type = (uint8_t)e->info[n->lhs].type.id;
      in.a = (uint8_t)(left_first ? base : base + 1);
      in.b = (uint8_t)(left_first ? base + 1 : base);
      if (in.type == GCOL_STRING) {
        in.opcode = (uint8_t)(GCOL_DETAIL_EXPR_STRING_COMPARE + (n->op - GCOL_EXPR_EQUAL));
      }
      if ((n->op == GCOL_EXPR_DIV || n->op == GCOL_EXPR_MOD) &&
          !gcol_type_is_floating((gcol_type_id)in.type)) {
        p->can_make_nulls = true;
      }
      break;
    }
  }
  if (base + 1 > p->num_slots) p->num_slots = base + 1;
  if (in.opcode >= GCOL_DETAIL_EXPR_LOAD_STRING) p->has_strings = true;
  p->instructions[p->num_instructions++] = in;
}

gcol_status gcol_detail_expr_compile(const gcol_expression *expr, int32_t root,
                                     const gcol_data_type *left_types, int32_t num_left,
                                     const gcol_data_type *right_types, int32_t num_right,
                                     gcol_detail_expr_program *out) {
  gcol_status status = GCOL_OK;
  node_info *info = NULL;
  emitter e;
  GCOL_DETAIL_CHECK_NOT_NULL(expr);
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CHECK(num_left >= 0 && (num_left == 0 || left_types != NULL),
                    GCOL_ERROR_INVALID_ARGUMENT, "%d left columns with types %p", (int)num_left,
                    (const void *)left_types);
  GCOL_DETAIL_CHECK(num_right >= 0 && (num_right == 0 || right_types != NULL),
                    GCOL_ERROR_INVALID_ARGUMENT, "%d right columns with types %p", (int)num_right,
                    (const void *)right_types);
  GCOL_DETAIL_CHECK(root >= 0 && root < expr->count, GCOL_ERROR_INVALID_ARGUMENT,
                    "root is %d, not a node of the expression (it has %d)", (int)root,
                    (int)expr->count);
  info = (node_info *)calloc((size_t)root + 1, sizeof *info);
  GCOL_DETAIL_CHECK(info != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d nodes",
                    (int)root + 1);
  info[root].reachable = true;
  for (int32_t id = root; id >= 0; --id) {
    const gcol_detail_expr_node *n = &expr->nodes[id];
    if (!info[id].reachable) continue;
    if (n->lhs >= 0) info[n->lhs].reachable = true;
    if (n->rhs >= 0) info[n->rhs].reachable = true;
  }
  for (int32_t id = 0; id <= root; ++id) {
    if (!info[id].reachable) continue;
    GCOL_DETAIL_TRY(check_node(expr, id, info, left_types, num_left, right_types, num_right));
  }
  GCOL_DETAIL_CHECK(info[root].steps <= GCOL_EXPRESSION_MAX_INSTRUCTIONS, GCOL_ERROR_UNSUPPORTED,
                    "node %d: the tree takes more than %d evaluation steps (a node used n times "
                    "counts n times)",
                    (int)root, GCOL_EXPRESSION_MAX_INSTRUCTIONS);
  GCOL_DETAIL_CHECK(info[root].need <= GCOL_EXPRESSION_MAX_SLOTS, GCOL_ERROR_UNSUPPORTED,
                    "node %d: the tree needs more than %d live values at once", (int)root,
                    GCOL_EXPRESSION_MAX_SLOTS);
  GCOL_DETAIL_CHECK(!is_string(info[root].type), GCOL_ERROR_UNSUPPORTED,
                    "node %d: a string is never an expression's result (compare it, or test it "
                    "with like, is_null or is_valid)",
                    (int)root);
  memset(out, 0, sizeof *out);
  out->out_type = info[root].type;
  e.expr = expr;
  e.info = info;
  e.program = out;
  emit(&e, root, 0);
done:
  free(info);
  return status;
}

/* ---- string constants and column descriptors ---- */

gcol_status gcol_detail_expr_constants(const gcol_expression *expr,
                                       const gcol_detail_expr_program *program, unsigned char **out,
                                       int64_t *size, int64_t *at) {
  gcol_status status = GCOL_OK;
  unsigned char *block = NULL;
  int64_t total = 0;
  *out = NULL;
  *size = 0;
  /* sizes: a literal's bytes, a pattern's items (at most one per byte) */
  for (int32_t k = 0; k < program->num_columns; ++k) {
    int32_t const id = program->column_node[k];
    const gcol_detail_expr_node *n;
    int64_t bytes;
    at[k] = -1;
    if (id < 0) continue;
    n = &expr->nodes[id];
    bytes = n->kind == GCOL_DETAIL_EXPR_NODE_LITERAL
                ? n->literal_size
                : expr->nodes[n->rhs].literal_size * (int64_t)sizeof(int32_t);
    at[k] = total;
    total += 2 * (int64_t)sizeof(int64_t) + ((bytes + 7) & ~(int64_t)7);
  }
  if (total == 0) goto done;
  block = (unsigned char *)calloc((size_t)total, 1);
  GCOL_DETAIL_CHECK(block != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %lld bytes of string constants", (long long)total);
  for (int32_t k = 0; k < program->num_columns; ++k) {
    int32_t const id = program->column_node[k];
    int64_t offsets[2] = {0, 0};
    const gcol_detail_expr_node *n;
    if (id < 0) continue;
    n = &expr->nodes[id];
    if (n->kind == GCOL_DETAIL_EXPR_NODE_LITERAL) {
      offsets[1] = n->literal_size;
      if (n->literal_size > 0) {
        memcpy(block + at[k] + sizeof offsets, n->literal_bytes, (size_t)n->literal_size);
      }
    } else { /* a LIKE: its pattern was checked when the node was added */
      const gcol_detail_expr_node *pattern = &expr->nodes[n->rhs];
      GCOL_DETAIL_TRY(gcol_detail_like_compile(
          pattern->literal_bytes, pattern->literal_size, n->escape,
          (int32_t *)(void *)(block + at[k] + sizeof offsets), &offsets[1]));
    }
    memcpy(block + at[k], offsets, sizeof offsets);
  }
  *out = block;
  *size = total;
  block = NULL;
done:
  free(block);
  return status;
}

gcol_detail_expr_column gcol_detail_expr_constant_column(const unsigned char *base, int64_t at) {
  gcol_detail_expr_column c;
  memset(&c, 0, sizeof c);
  c.reader.data = base + at;
  c.reader.width = 8;
  c.reader.kind = GCOL_DETAIL_EXPR_KIND_STRING;
  c.side = GCOL_EXPRESSION_LEFT;
  c.chars = (const char *)(base + at + 2 * sizeof(int64_t));
  return c;
}

gcol_detail_expr_column gcol_detail_expr_column_make(gcol_column_view view, int32_t side) {
  gcol_detail_expr_column c;
  memset(&c, 0, sizeof c);
  if (view.null_count == 0) view.null_mask = NULL; /* no nulls: no mask to read */
  if (view.type.id == GCOL_STRING) {
    gcol_strings_view s;
    memset(&s, 0, sizeof s);
    if (view.size > 0) (void)gcol_strings_view_make(view, &s); /* validated by the caller */
    c.reader.data = s.offsets.data;
    c.reader.width = s.offsets.width;
    c.reader.kind = GCOL_DETAIL_EXPR_KIND_STRING;
    c.reader.mask = view.null_mask;
    c.reader.mask_offset = view.offset;
    c.chars = s.chars;
  } else {
    c.reader = gcol_detail_reader_make(view);
  }
  c.side = side;
  return c;
}

gcol_status gcol_expression_output_type(const gcol_expression *expr, int32_t root,
                                        const gcol_data_type *left_types, int32_t num_left,
                                        const gcol_data_type *right_types, int32_t num_right,
                                        gcol_data_type *out) {
  gcol_status status = GCOL_OK;
  gcol_detail_expr_program *program = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_expression_output_type");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  program = (gcol_detail_expr_program *)malloc(sizeof *program);
  GCOL_DETAIL_CHECK(program != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for a program");
  GCOL_DETAIL_TRY(
      gcol_detail_expr_compile(expr, root, left_types, num_left, right_types, num_right, program));
  *out = program->out_type;
done:
  free(program);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
