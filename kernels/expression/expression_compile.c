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
 */
#include <stdlib.h>
#include <string.h>

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
  return gcol_type_is_fixed_width(id) && id != GCOL_DECIMAL128;
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
                    "a literal of type %s is not supported (fixed-width types but decimal128)",
                    gcol_type_name(value->type.id));
  memset(&n, 0, sizeof n);
  n.kind = GCOL_DETAIL_EXPR_NODE_LITERAL;
  n.lhs = n.rhs = -1;
  n.type = value->type;
  n.literal_valid = value->is_valid;
  n.literal_bits =
      value->is_valid ? gcol_detail_expr_slot_from_storage(value->type.id, &value->value) : 0;
  GCOL_DETAIL_TRY(append_node(expr, &n, node));
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
      GCOL_DETAIL_CHECK(gcol_data_type_equal(a->type, b->type), GCOL_ERROR_TYPE_MISMATCH,
                        "node %d (%s): operand types %s (node %d) and %s (node %d) differ; cast "
                        "one to the other",
                        (int)id, gcol_expression_op_name(n->op), type_label(a->type, b1, sizeof b1),
                        (int)n->lhs, type_label(b->type, b2, sizeof b2), (int)n->rhs);
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
    if (p->column_side[k] == side && p->column_index[k] == col) return k;
  }
  p->column_side[p->num_columns] = side;
  p->column_index[p->num_columns] = col;
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
      in.opcode = GCOL_DETAIL_EXPR_LOAD_COLUMN;
      in.type = in.out_type;
      in.imm = (uint64_t)column_slot(p, n->side, n->column);
      break;
    case GCOL_DETAIL_EXPR_NODE_LITERAL:
      in.opcode = n->literal_valid ? GCOL_DETAIL_EXPR_LOAD_LITERAL : GCOL_DETAIL_EXPR_LOAD_NULL;
      in.type = in.out_type;
      in.imm = n->literal_bits;
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
      bool const left_first = e->info[n->lhs].need >= e->info[n->rhs].need;
      emit(e, left_first ? n->lhs : n->rhs, base);
      emit(e, left_first ? n->rhs : n->lhs, base + 1);
      in.opcode = (uint8_t)n->op;
      in.type = (uint8_t)e->info[n->lhs].type.id;
      in.a = (uint8_t)(left_first ? base : base + 1);
      in.b = (uint8_t)(left_first ? base + 1 : base);
      if ((n->op == GCOL_EXPR_DIV || n->op == GCOL_EXPR_MOD) &&
          !gcol_type_is_floating((gcol_type_id)in.type)) {
        p->can_make_nulls = true;
      }
      break;
    }
  }
  if (base + 1 > p->num_slots) p->num_slots = base + 1;
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
  GCOL_DETAIL_TRY(gcol_detail_expr_compile(expr, root, left_types, num_left, right_types,
                                           num_right, program));
  *out = program->out_type;
done:
  free(program);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
