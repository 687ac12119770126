/*
 * Host tests (no GPU needed) of expression.h: building trees, the type rules and limits,
 * every bad input with its status and a message naming the node or argument; the compiled
 * program run on the CPU by the kernel's own interpreter (expression_program.h) against
 * the tree reference (expression_reference.c) on random trees from a seed, sliced columns
 * included; hand-computed values for the rules that matter most (Kleene logic, division by
 * zero, MIN / -1, NaN, casts out of range). The device pointers of the public-call checks
 * are fake: a check that let them through would crash the test.
 */
#include "test_util.h"

#include <math.h>

#include "expression/expression_program.h"
#include "expression_reference.h"
#include "gcol/expression.h"
#include "internal/expression.h"

#define FAKE_PTR ((const void *)(uintptr_t)0x10)

static void expect_message(const char *needle) {
  if (strstr(gcol_last_error(), needle) == NULL) {
    fail_msg("message \"%s\" does not name \"%s\"", gcol_last_error(), needle);
  }
}

static gcol_data_type dt(gcol_type_id id) { return gcol_data_type_make(id); }

/* ---- running a program on the host ---- */

/* Host copies of a table's columns shifted by @p offset rows, with word masks. */
typedef struct host_columns {
  gcol_detail_expr_column cols[EXPR_REF_MAX_COLUMNS];
  void *data[EXPR_REF_MAX_COLUMNS];
  uint32_t *masks[EXPR_REF_MAX_COLUMNS];
  void *offsets[EXPR_REF_MAX_COLUMNS]; /* STRING: the offsets child's data */
} host_columns;

/* A STRING column as a sliced host view: @p offset leading rows of other strings, offsets of
 * width 4 or 8 (by the column and the offset) whose first one is not 0, then the
 * descriptor from gcol_detail_expr_column_make (the kernels' own). */
static void host_strings_make(const expr_ref_table *t, int32_t c, int64_t offset, host_columns *h) {
  const expr_ref_string *v = (const expr_ref_string *)t->data[c];
  int64_t const total = t->rows + offset;
  bool const wide = ((c + offset) & 1) != 0;
  int64_t bytes = 7; /* chars before the first row's */
  for (int64_t r = 0; r < t->rows; ++r) bytes += v[r].size;
  bytes += offset * 3;
  char *chars = (char *)malloc((size_t)bytes + 1);
  void *offs = malloc((size_t)(total + 1) * (wide ? 8 : 4));
  assert_true(chars != NULL && offs != NULL);
  memset(chars, '#', (size_t)bytes + 1);
  int64_t at = 7;
  for (int64_t r = 0; r <= total; ++r) {
    if (wide) {
      ((int64_t *)offs)[r] = at;
    } else {
      ((int32_t *)offs)[r] = (int32_t)at;
    }
    if (r == total) break;
    if (r < offset) {
      at += 3; /* "###" */
    } else {
      const expr_ref_string sv = v[r - offset];
      if (sv.size > 0) memcpy(chars + at, sv.data, (size_t)sv.size);
      at += sv.size;
    }
  }
  h->data[c] = chars;
  h->offsets[c] = offs;
  gcol_column_view child =
      gcol_column_view_make(dt(wide ? GCOL_INT64 : GCOL_INT32), total + 1, offs, NULL, 0);
  gcol_column_view sv =
      gcol_column_view_make(t->types[c], t->rows, NULL, h->masks[c], GCOL_UNKNOWN_NULL_COUNT);
  sv.data = chars;
  sv.offset = offset;
  sv.num_children = 1;
  sv.children = &child;
  h->cols[c] = gcol_detail_expr_column_make(sv, GCOL_EXPRESSION_LEFT);
}

static void host_columns_make(const expr_ref_table *t, int64_t offset, host_columns *h) {
  memset(h, 0, sizeof *h);
  for (int32_t c = 0; c < t->num_columns; ++c) {
    size_t const w = gcol_type_size(t->types[c].id);
    int64_t const total = t->rows + offset;
    if (t->types[c].id == GCOL_STRING) {
      if (t->valid[c] != NULL) { /* the mask as below */
        h->masks[c] = (uint32_t *)calloc((size_t)(total / 32 + 1), sizeof(uint32_t));
        assert_non_null(h->masks[c]);
        for (int64_t r = 0; r < offset; ++r) h->masks[c][r / 32] |= (r & 1) ? (1u << (r % 32)) : 0u;
        for (int64_t r = 0; r < t->rows; ++r) {
          int64_t const bit = r + offset;
          if (t->valid[c][r]) h->masks[c][bit / 32] |= 1u << (bit % 32);
        }
      }
      host_strings_make(t, c, offset, h);
      continue;
    }
    h->data[c] = calloc((size_t)(total > 0 ? total : 1), w);
    assert_non_null(h->data[c]);
    /* garbage under the offset rows */
    memset(h->data[c], 0xA5, (size_t)offset * w);
    memcpy((char *)h->data[c] + offset * (int64_t)w, t->data[c], (size_t)t->rows * w);
    if (t->valid[c] != NULL) {
      h->masks[c] = (uint32_t *)calloc((size_t)(total / 32 + 1), sizeof(uint32_t));
      assert_non_null(h->masks[c]);
      for (int64_t r = 0; r < offset; ++r) h->masks[c][r / 32] |= (r & 1) ? (1u << (r % 32)) : 0u;
      for (int64_t r = 0; r < t->rows; ++r) {
        int64_t const bit = r + offset;
        if (t->valid[c][r]) h->masks[c][bit / 32] |= 1u << (bit % 32);
      }
    }
    gcol_column_view v =
        gcol_column_view_make(t->types[c], t->rows, NULL, h->masks[c], GCOL_UNKNOWN_NULL_COUNT);
    v.data = h->data[c];
    v.offset = offset;
    h->cols[c].reader = gcol_detail_reader_make(v);
    h->cols[c].side = GCOL_EXPRESSION_LEFT;
  }
}

static void host_columns_free(host_columns *h) {
  for (int c = 0; c < EXPR_REF_MAX_COLUMNS; ++c) {
    free(h->data[c]);
    free(h->masks[c]);
    free(h->offsets[c]);
  }
}

/* The descriptors of program @p p's columns (as the kernels' upload): table columns from
 * @p hl (LEFT) and @p hr (RIGHT), string constants from their host block, which is returned
 * (free it after the run). */
static unsigned char *bind_host(const gcol_detail_expr_program *p, const gcol_expression *e,
                                const host_columns *hl, const host_columns *hr,
                                gcol_detail_expr_column *used) {
  unsigned char *block = NULL;
  int64_t size = 0;
  int64_t at[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
  GCOL_TEST_OK(gcol_detail_expr_constants(e, p, &block, &size, at));
  assert_true((p->num_constants > 0) == (block != NULL));
  for (int32_t k = 0; k < p->num_columns; ++k) {
    if (p->column_node[k] >= 0) {
      used[k] = gcol_detail_expr_constant_column(block, at[k]);
      continue;
    }
    bool const is_right = p->column_side[k] == GCOL_EXPRESSION_RIGHT;
    assert_true(!is_right || hr != NULL);
    used[k] = (is_right ? hr->cols : hl->cols)[p->column_index[k]];
    used[k].side = (int32_t)p->column_side[k];
  }
  return block;
}

/* The kernel's batch of rows: gcol_detail_expr_step_rows() over the batch starting at
 * @p first (a partial last batch repeats the last row, as the kernel does) gives each row
 * the value and validity of gcol_detail_expr_eval_row(). */
enum { kBatch = 4 };
static void check_batch(const gcol_detail_expr_program *p, const gcol_detail_expr_column *cols,
                        int64_t first, int64_t rows, bool track) {
  uint64_t slots[GCOL_EXPRESSION_MAX_SLOTS * kBatch];
  int64_t row[kBatch];
  uint32_t valid[kBatch];
  for (int r = 0; r < kBatch; ++r) {
    row[r] = first + r < rows ? first + r : rows - 1;
    valid[r] = 0;
  }
  for (int s = 0; s < GCOL_EXPRESSION_MAX_SLOTS * kBatch; ++s) slots[s] = 0xDEADBEEFCAFEF00Dull;
  /* slot s of batch row r at s * kBatch + r, as the kernel's [(s * Rows + r) * blockDim] */
  for (int32_t k = 0; k < p->num_instructions; ++k) {
    gcol_detail_expr_step_rows(p->instructions[k], cols, row, kBatch, slots, 1, kBatch, track,
                               p->has_strings, valid);
  }
  for (int r = 0; r < kBatch && first + r < rows; ++r) {
    uint64_t one[GCOL_EXPRESSION_MAX_SLOTS];
    uint64_t v = 0;
    bool ok = false;
    gcol_detail_expr_eval_row(p->instructions, p->num_instructions, cols, row[r], row[r], one, 1,
                              track, p->has_strings, &v, &ok);
    bool const batch_ok = !track || (valid[r] & 1u) != 0;
    assert_int_equal(batch_ok, ok);
    if (!ok) continue;
    if (gcol_type_is_floating(p->out_type.id) && isnan(gcol_detail_f64_from_bits(v))) {
      /* any NaN: the compiler may order an operation's operands either way, and which NaN
       * operand comes out is not specified */
      assert_true(isnan(gcol_detail_f64_from_bits(slots[r])));
    } else {
      assert_int_equal(slots[r], v);
    }
  }
}

/* Compiles the tree under @p root and runs it on the host over every row: values in the
 * output type's storage (0 under nulls), validity bytes. */
static void run_program(const expr_ref_tree *tree, int32_t root, const expr_ref_table *t,
                        int64_t offset, void *out, uint8_t *valid) {
  gcol_detail_expr_program *p = (gcol_detail_expr_program *)malloc(sizeof *p);
  host_columns h;
  gcol_detail_expr_column used[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
  uint64_t slots[GCOL_EXPRESSION_MAX_SLOTS];
  bool track = false;
  assert_non_null(p);
  GCOL_TEST_OK(gcol_detail_expr_compile(tree->expr, root, t->types, t->num_columns, NULL, 0, p));
  assert_true(p->num_slots >= 1 && p->num_slots <= GCOL_EXPRESSION_MAX_SLOTS);
  host_columns_make(t, offset, &h);
  unsigned char *constants = bind_host(p, tree->expr, &h, NULL, used);
  for (int32_t k = 0; k < p->num_columns; ++k) {
    assert_int_equal(p->column_side[k], GCOL_EXPRESSION_LEFT);
    if (used[k].reader.mask != NULL) track = true;
  }
  if (p->can_make_nulls) track = true;
  size_t const w = gcol_type_size(p->out_type.id);
  for (int64_t row = 0; row < t->rows; ++row) {
    uint64_t v = 0;
    bool ok = false;
    /* poison the slots: the program must not read a slot it did not write */
    for (int s = 0; s < GCOL_EXPRESSION_MAX_SLOTS; ++s) slots[s] = 0xDEADBEEFCAFEF00Dull;
    gcol_detail_expr_eval_row(p->instructions, p->num_instructions, used, row, row, slots, 1, track,
                              p->has_strings, &v, &ok);
    if (row % kBatch == 0) check_batch(p, used, row, t->rows, track);
    valid[row] = ok;
    char *dst = (char *)out + row * (int64_t)w;
    memset(dst, 0, w);
    if (!ok) continue;
    if (p->out_type.id == GCOL_FLOAT32) {
      float const f = (float)gcol_detail_f64_from_bits(v);
      memcpy(dst, &f, 4);
    } else {
      memcpy(dst, &v, w);
    }
  }
  host_columns_free(&h);
  free(constants);
  free(p);
}

/* ---- building ---- */

static void test_op_names(void **state) {
  (void)state;
  assert_string_equal(gcol_expression_op_name(GCOL_EXPR_ADD), "add");
  assert_string_equal(gcol_expression_op_name(GCOL_EXPR_NULL_LOGICAL_OR), "null_logical_or");
  assert_string_equal(gcol_expression_op_name(GCOL_NUM_EXPRESSION_OPS), "invalid");
  assert_int_equal(gcol_expression_op_arity(GCOL_EXPR_NOT), 1);
  assert_int_equal(gcol_expression_op_arity(GCOL_EXPR_IS_VALID), 1);
  assert_int_equal(gcol_expression_op_arity(GCOL_EXPR_MOD), 2);
  assert_int_equal(gcol_expression_op_arity((gcol_expression_op)-1), 0);
}

static void test_builder_bad_input(void **state) {
  (void)state;
  gcol_expression *e = NULL;
  int32_t a = -1, b = -1, n = -1;
  gcol_scalar *str = NULL, *d128 = NULL, *i = NULL;
  GCOL_TEST_STATUS(gcol_expression_create(NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_OK(gcol_expression_create(&e));
  assert_int_equal(gcol_expression_num_nodes(e), 0);
  assert_int_equal(gcol_expression_num_nodes(NULL), 0);
  GCOL_TEST_STATUS(gcol_expression_add_column(NULL, GCOL_EXPRESSION_LEFT, 0, &a),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, -1, &a),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("column is -1");
  GCOL_TEST_STATUS(gcol_expression_add_column(e, (gcol_expression_side)2, 0, &a),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("side");
  assert_int_equal(gcol_expression_num_nodes(e), 0); /* failed adds add nothing */
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &a));
  assert_int_equal(a, 0);
  /* operands must be nodes already added: no forward reference, so no cycle */
  GCOL_TEST_STATUS(gcol_expression_add_unary(e, GCOL_EXPR_NEGATE, 1, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("gcol_expression_add_unary: operand is 1");
  GCOL_TEST_STATUS(gcol_expression_add_binary(e, GCOL_EXPR_ADD, a, -1, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("rhs is -1");
  GCOL_TEST_STATUS(gcol_expression_add_binary(e, GCOL_EXPR_ADD, 5, a, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("lhs is 5");
  GCOL_TEST_STATUS(gcol_expression_add_cast(e, 3, dt(GCOL_INT8), &n), GCOL_ERROR_INVALID_ARGUMENT);
  /* arity */
  GCOL_TEST_STATUS(gcol_expression_add_unary(e, GCOL_EXPR_ADD, a, &n), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("add");
  GCOL_TEST_STATUS(gcol_expression_add_binary(e, GCOL_EXPR_NOT, a, a, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_add_binary(e, GCOL_NUM_EXPRESSION_OPS, a, a, &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_add_cast(e, a, dt((gcol_type_id)99), &n),
                   GCOL_ERROR_INVALID_ARGUMENT);
  /* literals */
  GCOL_TEST_STATUS(gcol_expression_add_literal(e, NULL, &n), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_OK(gcol_scalar_create_string("ab", 2, &str));
  gcol_int128 const one = {1, 0};
  GCOL_TEST_OK(gcol_scalar_create_decimal(gcol_data_type_decimal(GCOL_DECIMAL128, 0), one, &d128));
  GCOL_TEST_STATUS(gcol_expression_add_literal(e, d128, &n), GCOL_ERROR_UNSUPPORTED);
  expect_message("decimal128");
  GCOL_TEST_OK(gcol_scalar_create_int(dt(GCOL_INT32), 7, &i));
  GCOL_TEST_OK(gcol_expression_add_literal(e, i, &b));
  gcol_scalar_free(i); /* the expression holds a copy */
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_ADD, a, b, &n));
  assert_int_equal(n, 2);
  assert_int_equal(gcol_expression_num_nodes(e), 3);
  GCOL_TEST_OK(gcol_expression_add_literal(e, str, &n)); /* strings are literals too */
  /* LIKE: the pattern is a STRING scalar, well formed for its escape character */
  GCOL_TEST_STATUS(gcol_expression_add_like(e, a, NULL, NULL, &n), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_add_like(NULL, a, str, NULL, &n), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_add_like(e, a, str, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_add_like(e, 999, str, NULL, &n), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_add_like(e, a, str, "!!", &n), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("escape_character");
  GCOL_TEST_STATUS(gcol_expression_add_like(e, a, str, "\xc3", &n), GCOL_ERROR_INVALID_ARGUMENT);
  {
    gcol_scalar *bad = NULL, *k = NULL;
    int32_t const before = gcol_expression_num_nodes(e);
    GCOL_TEST_OK(gcol_scalar_create_string("ab!", 3, &bad));
    GCOL_TEST_STATUS(gcol_expression_add_like(e, a, bad, "!", &n), GCOL_ERROR_INVALID_ARGUMENT);
    expect_message("byte 2");
    gcol_scalar_free(bad);
    GCOL_TEST_OK(gcol_scalar_create_string("!a", 2, &bad));
    GCOL_TEST_STATUS(gcol_expression_add_like(e, a, bad, "!", &n), GCOL_ERROR_INVALID_ARGUMENT);
    expect_message("byte 0");
    assert_int_equal(gcol_expression_num_nodes(e), before);      /* nothing added on failure */
    GCOL_TEST_OK(gcol_expression_add_like(e, a, bad, NULL, &n)); /* no escape: "!" is a byte */
    assert_int_equal(n, before + 1);                             /* the pattern, then LIKE */
    GCOL_TEST_OK(gcol_scalar_create_int(dt(GCOL_INT32), 1, &k));
    GCOL_TEST_STATUS(gcol_expression_add_like(e, a, k, NULL, &n), GCOL_ERROR_TYPE_MISMATCH);
    gcol_scalar_free(k);
    gcol_scalar_free(bad);
    GCOL_TEST_OK(gcol_scalar_create_null(dt(GCOL_STRING), &bad));
    GCOL_TEST_OK(gcol_expression_add_like(e, a, bad, "!", &n)); /* a null pattern */
    gcol_scalar_free(bad);
  }
  gcol_scalar_free(str);
  gcol_scalar_free(d128);
  gcol_expression_free(e);
  gcol_expression_free(NULL);
}

/* ---- type rules ---- */

/* The output type of `op` on two columns of type t (or on one, for unary ops). */
static gcol_status output_of(gcol_expression_op op, gcol_data_type t, gcol_data_type *out) {
  gcol_expression *e = NULL;
  int32_t a, b, n;
  gcol_data_type types[2] = {t, t};
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &a));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 1, &b));
  if (gcol_expression_op_arity(op) == 1) {
    GCOL_TEST_OK(gcol_expression_add_unary(e, op, a, &n));
  } else {
    GCOL_TEST_OK(gcol_expression_add_binary(e, op, a, b, &n));
  }
  gcol_status const st = gcol_expression_output_type(e, n, types, 2, NULL, 0, out);
  gcol_expression_free(e);
  return st;
}

static void expect_type(gcol_expression_op op, gcol_type_id in, gcol_type_id expected) {
  gcol_data_type out = dt(GCOL_EMPTY);
  gcol_status const st = output_of(op, dt(in), &out);
  if (expected == GCOL_EMPTY) {
    if (st != GCOL_ERROR_TYPE_MISMATCH) {
      fail_msg("%s on %s: %s, expected type_mismatch", gcol_expression_op_name(op),
               gcol_type_name(in), gcol_status_string(st));
    }
    expect_message("node 2");
    expect_message(gcol_expression_op_name(op));
    return;
  }
  if (st != GCOL_OK) {
    fail_msg("%s on %s: %s (%s)", gcol_expression_op_name(op), gcol_type_name(in),
             gcol_status_string(st), gcol_last_error());
  }
  assert_int_equal(out.id, expected);
}

static void test_type_rules(void **state) {
  (void)state;
  const gcol_type_id E = GCOL_EMPTY, B = GCOL_BOOL8;
  /* arithmetic keeps the type; durations only add and subtract */
  expect_type(GCOL_EXPR_ADD, GCOL_INT8, GCOL_INT8);
  expect_type(GCOL_EXPR_MOD, GCOL_UINT64, GCOL_UINT64);
  expect_type(GCOL_EXPR_DIV, GCOL_FLOAT32, GCOL_FLOAT32);
  expect_type(GCOL_EXPR_SUB, GCOL_DURATION_DAYS, GCOL_DURATION_DAYS);
  expect_type(GCOL_EXPR_MUL, GCOL_DURATION_SECONDS, E);
  expect_type(GCOL_EXPR_ADD, GCOL_TIMESTAMP_DAYS, E);
  expect_type(GCOL_EXPR_ADD, GCOL_BOOL8, E);
  expect_type(GCOL_EXPR_ADD, GCOL_DECIMAL64, E);
  /* comparisons: BOOL8 over every value type */
  expect_type(GCOL_EXPR_LESS, GCOL_TIMESTAMP_NANOSECONDS, B);
  expect_type(GCOL_EXPR_NULL_EQUALS, GCOL_FLOAT64, B);
  expect_type(GCOL_EXPR_GREATER_EQUAL, GCOL_DECIMAL32, B);
  expect_type(GCOL_EXPR_EQUAL, GCOL_BOOL8, B);
  /* logic on BOOL8 only */
  expect_type(GCOL_EXPR_NULL_LOGICAL_AND, GCOL_BOOL8, B);
  expect_type(GCOL_EXPR_LOGICAL_OR, GCOL_INT32, E);
  expect_type(GCOL_EXPR_NOT, GCOL_BOOL8, B);
  expect_type(GCOL_EXPR_NOT, GCOL_INT8, E);
  /* unary */
  expect_type(GCOL_EXPR_NEGATE, GCOL_INT16, GCOL_INT16);
  expect_type(GCOL_EXPR_NEGATE, GCOL_UINT16, E);
  expect_type(GCOL_EXPR_NEGATE, GCOL_DURATION_MILLISECONDS, GCOL_DURATION_MILLISECONDS);
  expect_type(GCOL_EXPR_ABS, GCOL_UINT32, GCOL_UINT32);
  expect_type(GCOL_EXPR_ABS, GCOL_TIMESTAMP_SECONDS, E);
  expect_type(GCOL_EXPR_IS_NULL, GCOL_TIMESTAMP_SECONDS, B);
  expect_type(GCOL_EXPR_IS_VALID, GCOL_DECIMAL64, B);
}

/* Strings: comparisons and LIKE give BOOL8; nothing else takes them; the errors name the
 * node. */
static void test_string_type_rules(void **state) {
  (void)state;
  const gcol_type_id E = GCOL_EMPTY, B = GCOL_BOOL8, S = GCOL_STRING;
  for (int op = GCOL_EXPR_EQUAL; op <= GCOL_EXPR_NULL_EQUALS; ++op)
    expect_type((gcol_expression_op)op, S, B);
  expect_type(GCOL_EXPR_IS_NULL, S, B);
  expect_type(GCOL_EXPR_IS_VALID, S, B);
  for (int op = GCOL_EXPR_ADD; op <= GCOL_EXPR_MOD; ++op) {
    expect_type((gcol_expression_op)op, S, E);
    expect_message("does not apply to strings");
  }
  expect_type(GCOL_EXPR_LOGICAL_AND, S, E);
  expect_type(GCOL_EXPR_NULL_LOGICAL_OR, S, E);
  expect_type(GCOL_EXPR_NOT, S, E);
  expect_type(GCOL_EXPR_NEGATE, S, E);
  expect_type(GCOL_EXPR_ABS, S, E);
  expect_type(GCOL_EXPR_LIKE, S, E); /* the pattern is a column, not a literal */
  expect_message("not a string literal");
  expect_type(GCOL_EXPR_LIKE, GCOL_INT32, E);

  gcol_expression *e = NULL;
  gcol_scalar *lit = NULL, *pat = NULL;
  int32_t s, i, l, n, p, c;
  gcol_data_type out;
  gcol_data_type const types[2] = {dt(GCOL_STRING), dt(GCOL_INT32)};
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &s)); /* 0 */
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 1, &i)); /* 1 */
  GCOL_TEST_OK(gcol_scalar_create_string("ab", 2, &lit));
  GCOL_TEST_OK(gcol_expression_add_literal(e, lit, &l)); /* 2 */
  /* a string compared with a number */
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LESS, s, i, &n)); /* 3 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, n, types, 2, NULL, 0, &out),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("node 3 (less)");
  expect_message("string");
  expect_message("int32");
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_EQUAL, l, i, &n)); /* 4 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, n, types, 2, NULL, 0, &out),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("node 4 (equal)");
  /* a cast of a string */
  GCOL_TEST_OK(gcol_expression_add_cast(e, s, dt(GCOL_INT32), &c)); /* 5 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, c, types, 2, NULL, 0, &out),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("node 5 (cast)");
  /* a string is never the result: a column, a literal */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, s, types, 2, NULL, 0, &out),
                   GCOL_ERROR_UNSUPPORTED);
  expect_message("node 0");
  expect_message("never");
  GCOL_TEST_STATUS(gcol_expression_output_type(e, l, types, 2, NULL, 0, &out),
                   GCOL_ERROR_UNSUPPORTED);
  /* LIKE of a number, LIKE with a column as the pattern */
  GCOL_TEST_OK(gcol_scalar_create_string("a%", 2, &pat));
  GCOL_TEST_OK(gcol_expression_add_like(e, i, pat, NULL, &p)); /* 6, 7 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, p, types, 2, NULL, 0, &out),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("node 7 (like)");
  expect_message("int32");
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LIKE, s, s, &p)); /* 8 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, p, types, 2, NULL, 0, &out),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("node 8 (like)");
  /* the good ones */
  GCOL_TEST_OK(gcol_expression_add_like(e, s, pat, "!", &p)); /* 9, 10 */
  GCOL_TEST_OK(gcol_expression_output_type(e, p, types, 2, NULL, 0, &out));
  assert_int_equal(out.id, GCOL_BOOL8);
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LIKE, s, l, &p)); /* 11 */
  GCOL_TEST_OK(gcol_expression_output_type(e, p, types, 2, NULL, 0, &out));
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_GREATER, l, s, &n)); /* 12 */
  GCOL_TEST_OK(gcol_expression_output_type(e, n, types, 2, NULL, 0, &out));
  assert_int_equal(out.id, GCOL_BOOL8);
  /* a string column of the right table */
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_RIGHT, 0, &c));    /* 13 */
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_NULL_EQUALS, s, c, &n)); /* 14 */
  GCOL_TEST_OK(gcol_expression_output_type(e, n, types, 2, types, 1, &out));
  {
    /* the program: a string load, a constant per literal and per pattern, string opcodes */
    gcol_detail_expr_program *prog = (gcol_detail_expr_program *)malloc(sizeof *prog);
    int32_t both;
    assert_non_null(prog);
    GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LOGICAL_AND, p, 9 + 1, &both));
    GCOL_TEST_OK(gcol_detail_expr_compile(e, both, types, 2, NULL, 0, prog));
    assert_int_equal(prog->num_columns, 3); /* column 0, the pattern of 11, that of 10 */
    assert_int_equal(prog->num_constants, 2);
    int loads = 0, likes = 0;
    for (int32_t k = 0; k < prog->num_instructions; ++k) {
      loads += prog->instructions[k].opcode == GCOL_DETAIL_EXPR_LOAD_STRING;
      likes += prog->instructions[k].opcode == GCOL_DETAIL_EXPR_STRING_LIKE;
    }
    assert_int_equal(loads, 2);
    assert_int_equal(likes, 2);
    free(prog);
  }
  gcol_scalar_free(lit);
  gcol_scalar_free(pat);
  gcol_expression_free(e);
}

/* String comparisons and LIKE on known values: the program on the host and the reference
 * both give the expected answers (slices, INT32 and INT64 offsets by host_columns_make). */
static void test_string_hand_values(void **state) {
  (void)state;
  static const char *const rows[] = {"abc",  "ab",  "",    NULL,  "abd", "\xc3\xa9t\xc3\xa9",
                                     "ab\0", "a%b", "a_b", "aab", "b"};
  enum { N = 11 };
  expr_ref_string v[N];
  uint8_t valid[N];
  for (int r = 0; r < N; ++r) {
    valid[r] = rows[r] != NULL;
    v[r].data = rows[r] != NULL ? rows[r] : "";
    v[r].size = r == 6 ? 3 : (int64_t)strlen(v[r].data);
  }
  expr_ref_table t;
  memset(&t, 0, sizeof t);
  t.num_columns = 1;
  t.rows = N;
  t.types[0] = dt(GCOL_STRING);
  t.data[0] = v;
  t.valid[0] = valid;
  /* expected per row as a string of '0', '1', 'n' (null) */
  struct {
    int kind; /* 0: compare with the literal, 1: LIKE with escape "!" */
    gcol_expression_op op;
    const char *literal;
    const char *expected;
  } const cases[] = {
      {0, GCOL_EXPR_EQUAL, "ab", "010n0000000"},
      {0, GCOL_EXPR_LESS, "ab", "001n0001110"},    /* '%' and '_' sort before 'b' */
      {0, GCOL_EXPR_GREATER, "ab", "100n1110001"}, /* a longer string after its prefix */
      {0, GCOL_EXPR_GREATER_EQUAL, "ab", "110n1110001"},
      {0, GCOL_EXPR_LESS_EQUAL, "", "001n0000000"},
      {0, GCOL_EXPR_NOT_EQUAL, "abc", "011n1111111"},
      {0, GCOL_EXPR_NULL_EQUALS, "ab", "01000000000"},
      {1, GCOL_EXPR_LIKE, "ab%", "110n1010000"},
      {1, GCOL_EXPR_LIKE, "a!%b", "000n0001000"},
      {1, GCOL_EXPR_LIKE, "a_b", "000n0001110"},
      {1, GCOL_EXPR_LIKE, "_t_", "000n0100000"}, /* a 2-byte character is one `_` */
      {1, GCOL_EXPR_LIKE, "%", "111n1111111"},
      {1, GCOL_EXPR_LIKE, "", "001n0000000"},
      {1, GCOL_EXPR_LIKE, "%b", "010n0001111"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    for (int64_t off = 0; off < 3; ++off) {
      expr_ref_tree *tree = expr_ref_tree_create();
      int32_t const col = expr_ref_column(tree, &t, 0);
      int32_t root;
      if (cases[c].kind == 0) {
        int32_t const lit =
            expr_ref_literal_string(tree, cases[c].literal, (int64_t)strlen(cases[c].literal));
        root = expr_ref_binary(tree, cases[c].op, col, lit);
      } else {
        root = expr_ref_like(tree, col, cases[c].literal, (int64_t)strlen(cases[c].literal), "!",
                             false);
      }
      uint8_t out[N], ok[N], ref[N], ref_ok[N];
      run_program(tree, root, &t, off * 17, out, ok);
      expr_ref_eval(tree, root, &t, ref, ref_ok);
      for (int r = 0; r < N; ++r) {
        char const want = cases[c].expected[r];
        char const got = !ok[r] ? 'n' : out[r] ? '1' : '0';
        char const got_ref = !ref_ok[r] ? 'n' : ref[r] ? '1' : '0';
        if (got != want || got_ref != want) {
          fail_msg(
              "case %zu (%s \"%s\") row %d, offset %lld: program %c, reference %c, "
              "expected %c",
              c, gcol_expression_op_name(cases[c].op), cases[c].literal, r, (long long)off, got,
              got_ref, want);
        }
      }
      expr_ref_tree_free(tree);
    }
  }
}

/* Random string predicates (comparisons, LIKE with and without escapes, IS_NULL) combined
 * with numeric ones: the program on the host against the reference. */
static void test_random_string_predicates_host(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0x57);
  for (int round = 0; round < 1500; ++round) {
    expr_ref_table t;
    int64_t const rows = gcol_test_rng_range(&rng, 0, 150);
    expr_ref_table_random_strings(&t, rows, &rng);
    expr_ref_tree *tree = expr_ref_tree_create();
    /* two rounds in three a string predicate alone (no logic above it to hide its value) */
    int32_t const root = round % 3 != 0 ? expr_ref_random_string_predicate(tree, &t, &rng)
                                        : expr_ref_random(tree, &t, &rng, dt(GCOL_BOOL8),
                                                          (int)gcol_test_rng_range(&rng, 2, 6));
    uint8_t *out = (uint8_t *)malloc((size_t)rows + 1), *ref = (uint8_t *)malloc((size_t)rows + 1);
    uint8_t *ok = (uint8_t *)malloc((size_t)rows + 1),
            *ref_ok = (uint8_t *)malloc((size_t)rows + 1);
    assert_true(out && ref && ok && ref_ok);
    expr_ref_eval(tree, root, &t, ref, ref_ok);
    int64_t const off = round % 4 == 0 ? 0 : gcol_test_rng_range(&rng, 1, 70);
    run_program(tree, root, &t, off, out, ok);
    char what[96];
    snprintf(what, sizeof what, "string round %d (%d nodes, offset %lld)", round, (int)tree->count,
             (long long)off);
    expr_ref_assert_equal(dt(GCOL_BOOL8), rows, out, ok, ref, ref_ok, what);
    free(out);
    free(ref);
    free(ok);
    free(ref_ok);
    expr_ref_tree_free(tree);
    expr_ref_table_free(&t);
  }
}

/* Parquet's column remapping copies the tree: string literals are copied, not shared. */
static void test_string_literal_copies(void **state) {
  (void)state;
  gcol_expression *e = NULL, *copy = NULL;
  gcol_scalar *lit = NULL;
  int32_t s, l, n;
  int32_t const map[1] = {0};
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &s));
  GCOL_TEST_OK(gcol_scalar_create_string("abc", 3, &lit));
  GCOL_TEST_OK(gcol_expression_add_literal(e, lit, &l));
  gcol_scalar_free(lit); /* the expression keeps its own copy */
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_EQUAL, s, l, &n));
  GCOL_TEST_OK(gcol_detail_expr_remap_columns(e, n, map, &copy));
  gcol_expression_free(e);
  {
    gcol_detail_expr_program *p = (gcol_detail_expr_program *)malloc(sizeof *p);
    gcol_data_type const types[1] = {dt(GCOL_STRING)};
    unsigned char *block = NULL;
    int64_t size = 0, at[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
    assert_non_null(p);
    GCOL_TEST_OK(gcol_detail_expr_compile(copy, n, types, 1, NULL, 0, p));
    GCOL_TEST_OK(gcol_detail_expr_constants(copy, p, &block, &size, at));
    assert_non_null(block);
    gcol_detail_expr_column const c = gcol_detail_expr_constant_column(block, at[1]);
    assert_int_equal(((const int64_t *)c.reader.data)[1], 3);
    assert_memory_equal(c.chars, "abc", 3);
    free(block);
    free(p);
  }
  gcol_expression_free(copy);
}

static void test_bind_errors(void **state) {
  (void)state;
  gcol_expression *e = NULL;
  int32_t a, b, c, n, cast, r;
  gcol_data_type out;
  gcol_data_type types[3] = {dt(GCOL_INT32), dt(GCOL_INT64), dt(GCOL_STRING)};
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &a)); /* 0 */
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 1, &b)); /* 1 */
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_ADD, a, b, &n));     /* 2 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, n, types, 3, NULL, 0, &out),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("gcol_expression_output_type: node 2 (add)");
  expect_message("int32");
  expect_message("int64");
  /* the cast repairs it */
  GCOL_TEST_OK(gcol_expression_add_cast(e, a, dt(GCOL_INT64), &cast));     /* 3 */
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_ADD, cast, b, &n)); /* 4 */
  GCOL_TEST_OK(gcol_expression_output_type(e, n, types, 3, NULL, 0, &out));
  assert_int_equal(out.id, GCOL_INT64);
  /* a node outside the root's tree is not checked */
  GCOL_TEST_OK(gcol_expression_output_type(e, b, types, 2, NULL, 0, &out));
  /* column out of range, and unsupported column types */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, n, types, 1, NULL, 0, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("node 1");
  expect_message("column 1");
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 2, &c)); /* 5 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, c, types, 3, NULL, 0, &out),
                   GCOL_ERROR_UNSUPPORTED);
  expect_message("node 5");
  expect_message("string");
  /* right-table references need a right table */
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_RIGHT, 0, &r)); /* 6 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, r, types, 3, NULL, 0, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("right");
  GCOL_TEST_OK(gcol_expression_output_type(e, r, types, 3, types + 1, 1, &out));
  assert_int_equal(out.id, GCOL_INT64);
  /* casts between numeric types only */
  GCOL_TEST_OK(gcol_expression_add_cast(e, a, dt(GCOL_TIMESTAMP_DAYS), &cast)); /* 7 */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, cast, types, 3, NULL, 0, &out),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("node 7 (cast)");
  /* bad arguments */
  GCOL_TEST_STATUS(gcol_expression_output_type(e, 99, types, 3, NULL, 0, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("root is 99");
  GCOL_TEST_STATUS(gcol_expression_output_type(e, -1, types, 3, NULL, 0, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_output_type(NULL, 0, types, 3, NULL, 0, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_output_type(e, 0, types, 3, NULL, 0, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_output_type(e, 0, NULL, 3, NULL, 0, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_expression_output_type(e, 0, types, -1, NULL, 0, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  gcol_expression_free(e);
}

static void test_limits(void **state) {
  (void)state;
  gcol_expression *e = NULL;
  int32_t n;
  gcol_data_type out;
  gcol_data_type const types[1] = {dt(GCOL_BOOL8)};
  /* depth: a chain of NOTs, accepted at the limit and refused one past it */
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &n));
  for (int d = 2; d <= GCOL_EXPRESSION_MAX_DEPTH; ++d) {
    GCOL_TEST_OK(gcol_expression_add_unary(e, GCOL_EXPR_NOT, n, &n));
  }
  GCOL_TEST_OK(gcol_expression_output_type(e, n, types, 1, NULL, 0, &out));
  GCOL_TEST_OK(gcol_expression_add_unary(e, GCOL_EXPR_NOT, n, &n));
  GCOL_TEST_STATUS(gcol_expression_output_type(e, n, types, 1, NULL, 0, &out),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("deeper");
  gcol_expression_free(e);
  /* steps: x = x AND x doubles the steps per node: 2^8 - 1 + ... past 256 at depth 9 */
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &n));
  for (int k = 0; k < 7; ++k)
    GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LOGICAL_AND, n, n, &n));
  GCOL_TEST_OK(gcol_expression_output_type(e, n, types, 1, NULL, 0, &out)); /* 255 steps */
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LOGICAL_AND, n, n, &n));
  GCOL_TEST_STATUS(gcol_expression_output_type(e, n, types, 1, NULL, 0, &out),
                   GCOL_ERROR_UNSUPPORTED);
  expect_message("steps");
  /* sharing far past the limit saturates instead of overflowing */
  for (int k = 0; k < 40; ++k)
    GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LOGICAL_AND, n, n, &n));
  GCOL_TEST_STATUS(gcol_expression_output_type(e, n, types, 1, NULL, 0, &out),
                   GCOL_ERROR_UNSUPPORTED);
  gcol_expression_free(e);
}

/* The compiled shape of the benchmark's filter: 11 steps, 3 slots, no null source. */
static void test_program_shape(void **state) {
  (void)state;
  expr_ref_table t;
  memset(&t, 0, sizeof t);
  t.num_columns = 3;
  t.types[0] = dt(GCOL_INT64);
  t.types[1] = dt(GCOL_INT32);
  t.types[2] = dt(GCOL_FLOAT64);
  expr_ref_tree *tree = expr_ref_tree_create();
  int32_t const a = expr_ref_column(tree, &t, 0), b = expr_ref_column(tree, &t, 1),
                c = expr_ref_column(tree, &t, 2);
  int32_t const t1 =
      expr_ref_binary(tree, GCOL_EXPR_GREATER, a, expr_ref_literal_int(tree, t.types[0], 20));
  int32_t const t2 =
      expr_ref_binary(tree, GCOL_EXPR_NOT_EQUAL, b, expr_ref_literal_int(tree, t.types[1], 7));
  int32_t const t3 =
      expr_ref_binary(tree, GCOL_EXPR_LESS, c, expr_ref_literal_float(tree, t.types[2], 0.5));
  int32_t const root =
      expr_ref_binary(tree, GCOL_EXPR_NULL_LOGICAL_AND,
                      expr_ref_binary(tree, GCOL_EXPR_NULL_LOGICAL_AND, t1, t2), t3);
  gcol_detail_expr_program *p = (gcol_detail_expr_program *)malloc(sizeof *p);
  assert_non_null(p);
  GCOL_TEST_OK(gcol_detail_expr_compile(tree->expr, root, t.types, 3, NULL, 0, p));
  assert_int_equal(p->num_instructions, 11);
  assert_int_equal(p->num_slots, 3);
  assert_int_equal(p->num_columns, 3);
  assert_false(p->can_make_nulls);
  assert_int_equal(p->out_type.id, GCOL_BOOL8);
  assert_int_equal(p->instructions[10].dst, 0);
  /* an integer division can make nulls */
  int32_t const q = expr_ref_binary(tree, GCOL_EXPR_DIV, a, a);
  GCOL_TEST_OK(gcol_detail_expr_compile(tree->expr, q, t.types, 3, NULL, 0, p));
  assert_true(p->can_make_nulls);
  assert_int_equal(p->num_columns, 1); /* one column read twice is one column */
  free(p);
  expr_ref_tree_free(tree);
}

/* ---- values computed by hand ---- */

/* A table of two BOOL8 columns holding the 9 Kleene combinations (x, y in {F, T, null}). */
static void test_kleene_logic(void **state) {
  (void)state;
  uint8_t xv[9], yv[9], xok[9], yok[9];
  for (int k = 0; k < 9; ++k) {
    xv[k] = (uint8_t)(k / 3 == 1);
    xok[k] = (uint8_t)(k / 3 != 2);
    yv[k] = (uint8_t)(k % 3 == 1);
    yok[k] = (uint8_t)(k % 3 != 2);
  }
  expr_ref_table t;
  memset(&t, 0, sizeof t);
  t.num_columns = 2;
  t.rows = 9;
  t.types[0] = t.types[1] = dt(GCOL_BOOL8);
  t.data[0] = xv;
  t.data[1] = yv;
  t.valid[0] = xok;
  t.valid[1] = yok;
  /* rows: FF FT FN TF TT TN NF NT NN; 2 = null */
  static const int and_k[9] = {0, 0, 0, 0, 1, 2, 0, 2, 2};
  static const int or_k[9] = {0, 1, 2, 1, 1, 1, 2, 1, 2};
  static const int and_p[9] = {0, 0, 2, 0, 1, 2, 2, 2, 2};
  static const int eq_n[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  struct {
    gcol_expression_op op;
    const int *expected;
  } const cases[] = {{GCOL_EXPR_NULL_LOGICAL_AND, and_k},
                     {GCOL_EXPR_NULL_LOGICAL_OR, or_k},
                     {GCOL_EXPR_LOGICAL_AND, and_p},
                     {GCOL_EXPR_NULL_EQUALS, eq_n}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    expr_ref_tree *tree = expr_ref_tree_create();
    int32_t const root = expr_ref_binary(tree, cases[c].op, expr_ref_column(tree, &t, 0),
                                         expr_ref_column(tree, &t, 1));
    uint8_t out[9], ok[9], ref[9], ref_ok[9];
    for (int64_t off = 0; off <= 33; off += 33) {
      run_program(tree, root, &t, off, out, ok);
      for (int k = 0; k < 9; ++k) {
        int const got = ok[k] ? out[k] : 2;
        if (got != cases[c].expected[k]) {
          fail_msg("%s row %d: %d, expected %d", gcol_expression_op_name(cases[c].op), k, got,
                   cases[c].expected[k]);
        }
      }
    }
    expr_ref_eval(tree, root, &t, ref, ref_ok);
    for (int k = 0; k < 9; ++k) assert_int_equal(ref_ok[k] ? ref[k] : 2, cases[c].expected[k]);
    expr_ref_tree_free(tree);
  }
}

/* Integer division rules, NaN, casts out of range, wrapping, on single-row literals. */
static void test_hand_values(void **state) {
  (void)state;
  int64_t dummy = 0;
  uint8_t dummy_ok = 1;
  expr_ref_table t;
  memset(&t, 0, sizeof t);
  t.num_columns = 1;
  t.rows = 1;
  t.types[0] = dt(GCOL_INT64);
  t.data[0] = &dummy;
  t.valid[0] = &dummy_ok;
  struct {
    int kind; /* 0: int64 binary, 1: int8 binary, 2: f64 -> int32 cast, 3: f64 binary */
    gcol_expression_op op;
    double x, y;
    bool valid;
    double expected;
  } const cases[] = {
      {0, GCOL_EXPR_DIV, 7, 0, false, 0},
      {0, GCOL_EXPR_MOD, 7, 0, false, 0},
      {0, GCOL_EXPR_DIV, -7, 2, true, -3},
      {0, GCOL_EXPR_MOD, -7, 2, true, -1},
      {1, GCOL_EXPR_DIV, -128, -1, true, -128}, /* MIN / -1 wraps */
      {1, GCOL_EXPR_MOD, -128, -1, true, 0},
      {1, GCOL_EXPR_ADD, 127, 1, true, -128},
      {1, GCOL_EXPR_MUL, 16, 16, true, 0},
      {2, GCOL_EXPR_ADD, NAN, 0, false, 0},
      {2, GCOL_EXPR_ADD, 2147483647.9, 0, true, 2147483647},
      {2, GCOL_EXPR_ADD, 2147483648.0, 0, false, 0},
      {2, GCOL_EXPR_ADD, -2147483648.9, 0, true, -2147483648.0},
      {2, GCOL_EXPR_ADD, -2147483649.0, 0, false, 0},
      {2, GCOL_EXPR_ADD, -0.5, 0, true, 0},
      {3, GCOL_EXPR_LESS, NAN, 1, true, 0},
      {3, GCOL_EXPR_NOT_EQUAL, NAN, NAN, true, 1},
      {3, GCOL_EXPR_EQUAL, -0.0, 0.0, true, 1},
      {3, GCOL_EXPR_DIV, 1, 0, true, INFINITY},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    expr_ref_tree *tree = expr_ref_tree_create();
    int32_t root;
    gcol_data_type type;
    if (cases[c].kind == 0 || cases[c].kind == 1) {
      type = dt(cases[c].kind == 0 ? GCOL_INT64 : GCOL_INT8);
      root =
          expr_ref_binary(tree, cases[c].op, expr_ref_literal_int(tree, type, (int64_t)cases[c].x),
                          expr_ref_literal_int(tree, type, (int64_t)cases[c].y));
    } else if (cases[c].kind == 2) {
      type = dt(GCOL_INT32);
      root = expr_ref_cast(tree, expr_ref_literal_float(tree, dt(GCOL_FLOAT64), cases[c].x), type);
    } else {
      type = dt(GCOL_FLOAT64);
      root = expr_ref_binary(tree, cases[c].op, expr_ref_literal_float(tree, type, cases[c].x),
                             expr_ref_literal_float(tree, type, cases[c].y));
      if (cases[c].op >= GCOL_EXPR_EQUAL) type = dt(GCOL_BOOL8);
    }
    uint64_t out = 0;
    uint8_t ok = 0;
    run_program(tree, root, &t, 0, &out, &ok);
    if ((bool)ok != cases[c].valid)
      fail_msg("case %zu: valid %d, expected %d", c, ok, cases[c].valid);
    if (ok) {
      double got;
      if (type.id == GCOL_FLOAT64) {
        memcpy(&got, &out, 8);
      } else if (type.id == GCOL_BOOL8) {
        got = (double)(uint8_t)out;
      } else if (type.id == GCOL_INT8) {
        got = (double)(int8_t)(uint8_t)out;
      } else if (type.id == GCOL_INT32) {
        got = (double)(int32_t)(uint32_t)out;
      } else {
        got = (double)(int64_t)out;
      }
      if (got != cases[c].expected)
        fail_msg("case %zu: %g, expected %g", c, got, cases[c].expected);
    }
    /* the reference agrees */
    uint64_t ref = 0;
    uint8_t ref_ok = 0;
    expr_ref_eval(tree, root, &t, &ref, &ref_ok);
    assert_int_equal(ref_ok, ok);
    if (ok) assert_memory_equal(&ref, &out, gcol_type_size(type.id));
    expr_ref_tree_free(tree);
  }
}

/* ---- random trees: the program on the host against the reference ---- */

static void test_random_trees_host(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xE1);
  static const int64_t offsets[] = {0, 1, 5, 31, 33, 65};
  for (int round = 0; round < 300; ++round) {
    expr_ref_table t;
    int64_t const rows = gcol_test_rng_range(&rng, 0, 200);
    expr_ref_table_random_strings(&t, rows, &rng);
    expr_ref_tree *tree = expr_ref_tree_create();
    gcol_data_type const want = expr_ref_random_type(&rng);
    int32_t const root =
        expr_ref_random(tree, &t, &rng, want, (int)gcol_test_rng_range(&rng, 1, 7));
    size_t const w = gcol_type_size(want.id);
    void *out = malloc((size_t)(rows + 1) * w), *ref = malloc((size_t)(rows + 1) * w);
    uint8_t *ok = (uint8_t *)malloc((size_t)rows + 1),
            *ref_ok = (uint8_t *)malloc((size_t)rows + 1);
    assert_true(out && ref && ok && ref_ok);
    expr_ref_eval(tree, root, &t, ref, ref_ok);
    int64_t const off = offsets[round % 6];
    run_program(tree, root, &t, off, out, ok);
    char what[96];
    snprintf(what, sizeof what, "round %d (%d nodes, %s, offset %lld)", round, (int)tree->count,
             gcol_type_name(want.id), (long long)off);
    expr_ref_assert_equal(want, rows, out, ok, ref, ref_ok, what);
    free(out);
    free(ref);
    free(ok);
    free(ref_ok);
    expr_ref_tree_free(tree);
    expr_ref_table_free(&t);
  }
}

/* ---- two tables (conditional joins): programs over (left row, right row) pairs ---- */

static void test_two_table_programs_host(void **state) {
  (void)state;
  gcol_test_rng rng = gcol_test_rng_make(0xE9);
  for (int round = 0; round < 150; ++round) {
    expr_ref_table left, right, pairs;
    expr_ref_table_random_strings(&left, gcol_test_rng_range(&rng, 0, 12), &rng);
    expr_ref_table_random_strings(&right, gcol_test_rng_range(&rng, 0, 12), &rng);
    expr_ref_table_pairs(&left, &right, &pairs);
    expr_ref_tree *tree = expr_ref_tree_create();
    tree->right_base = left.num_columns;
    gcol_data_type const want =
        round % 2 ? gcol_data_type_make(GCOL_BOOL8) : expr_ref_random_type(&rng);
    int32_t const root =
        expr_ref_random(tree, &pairs, &rng, want, (int)gcol_test_rng_range(&rng, 2, 6));
    size_t const w = gcol_type_size(want.id);
    void *ref = malloc((size_t)(pairs.rows + 1) * w);
    uint8_t *ref_ok = (uint8_t *)malloc((size_t)pairs.rows + 1);
    assert_true(ref != NULL && ref_ok != NULL);
    expr_ref_eval(tree, root, &pairs, ref, ref_ok);
    gcol_detail_expr_program *p = (gcol_detail_expr_program *)malloc(sizeof *p);
    assert_non_null(p);
    GCOL_TEST_OK(gcol_detail_expr_compile(tree->expr, root, left.types, left.num_columns,
                                          right.types, right.num_columns, p));
    host_columns hl, hr;
    host_columns_make(&left, round % 3 == 0 ? 0 : 33, &hl);
    host_columns_make(&right, round % 2 == 0 ? 0 : 5, &hr);
    gcol_detail_expr_column used[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
    unsigned char *constants = bind_host(p, tree->expr, &hl, &hr, used);
    uint64_t slots[GCOL_EXPRESSION_MAX_SLOTS];
    char *got = (char *)calloc((size_t)(pairs.rows + 1), w);
    uint8_t *ok = (uint8_t *)malloc((size_t)pairs.rows + 1);
    assert_true(got != NULL && ok != NULL);
    for (int64_t i = 0; i < left.rows; ++i) {
      for (int64_t j = 0; j < right.rows; ++j) {
        int64_t const r = i * right.rows + j;
        uint64_t v = 0;
        bool valid = false;
        gcol_detail_expr_eval_row(p->instructions, p->num_instructions, used, i, j, slots, 1, true,
                                  p->has_strings, &v, &valid);
        ok[r] = valid;
        if (!valid) continue;
        if (want.id == GCOL_FLOAT32) {
          float const f = (float)gcol_detail_f64_from_bits(v);
          memcpy(got + r * (int64_t)w, &f, 4);
        } else {
          memcpy(got + r * (int64_t)w, &v, w);
        }
      }
    }
    char what[64];
    snprintf(what, sizeof what, "two tables, round %d (%d nodes)", round, (int)tree->count);
    expr_ref_assert_equal(want, pairs.rows, got, ok, ref, ref_ok, what);
    free(got);
    free(ok);
    free(ref);
    free(ref_ok);
    free(p);
    host_columns_free(&hl);
    free(constants);
    host_columns_free(&hr);
    expr_ref_tree_free(tree);
    expr_ref_table_free(&pairs);
    expr_ref_table_free(&left);
    expr_ref_table_free(&right);
  }
}

/* The conditional join's passes (count, settle, exclusive sum, write, right-only rows) run on
 * the host with the kernels' per-item functions, for every kind and several chunkings,
 * against a nested loop over the reference's pair table. */
static void test_join_items_host(void **state) {
  (void)state;
  static const int kinds[] = {GCOL_JOIN_INNER, GCOL_JOIN_LEFT, GCOL_JOIN_FULL, GCOL_JOIN_LEFT_SEMI,
                              GCOL_JOIN_LEFT_ANTI};
  static const int64_t shapes[][2] = {{(int64_t)1 << 18, 32}, {64, 4}, {16, 1}};
  for (int round = 0; round < 60; ++round) {
    gcol_test_rng rng = gcol_test_rng_make(0xED000 + (uint64_t)round);
    expr_ref_table left, right, pairs;
    expr_ref_table_random_strings(&left, gcol_test_rng_range(&rng, 0, 40), &rng);
    expr_ref_table_random_strings(&right, gcol_test_rng_range(&rng, 0, 70), &rng);
    expr_ref_table_pairs(&left, &right, &pairs);
    expr_ref_tree *tree = expr_ref_tree_create();
    tree->right_base = left.num_columns;
    int32_t const root = expr_ref_random(tree, &pairs, &rng, gcol_data_type_make(GCOL_BOOL8),
                                         (int)gcol_test_rng_range(&rng, 2, 4));
    int64_t const nl = left.rows, nr = right.rows;
    uint8_t *flags = (uint8_t *)malloc((size_t)pairs.rows + 1);
    uint8_t *flags_ok = (uint8_t *)malloc((size_t)pairs.rows + 1);
    assert_true(flags != NULL && flags_ok != NULL);
    expr_ref_eval(tree, root, &pairs, flags, flags_ok);
    gcol_detail_expr_program *p = (gcol_detail_expr_program *)malloc(sizeof *p);
    assert_non_null(p);
    GCOL_TEST_OK(gcol_detail_expr_compile(tree->expr, root, left.types, left.num_columns,
                                          right.types, right.num_columns, p));
    host_columns hl, hr;
    host_columns_make(&left, 3, &hl);
    host_columns_make(&right, 0, &hr);
    gcol_detail_expr_column used[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
    unsigned char *constants = bind_host(p, tree->expr, &hl, &hr, used);
    uint64_t slots[GCOL_EXPRESSION_MAX_SLOTS];
    int64_t const cap = nl * nr + nl + nr + 1;
    int64_t *exp_l = (int64_t *)malloc((size_t)cap * sizeof(int64_t));
    int64_t *exp_r = (int64_t *)malloc((size_t)cap * sizeof(int64_t));
    int64_t *got_l = (int64_t *)malloc((size_t)cap * sizeof(int64_t));
    int64_t *got_r = (int64_t *)malloc((size_t)cap * sizeof(int64_t));
    assert_true(exp_l && exp_r && got_l && got_r);
    for (size_t kk = 0; kk < sizeof kinds / sizeof kinds[0]; ++kk) {
      int const kind = kinds[kk];
      bool const pairs_out = kind != GCOL_JOIN_LEFT_SEMI && kind != GCOL_JOIN_LEFT_ANTI;
      int64_t count = 0;
      for (int64_t i = 0; i < nl; ++i) { /* the nested loop */
        int64_t matches = 0;
        for (int64_t j = 0; j < nr; ++j) {
          if (!(flags_ok[i * nr + j] && flags[i * nr + j])) continue;
          ++matches;
          if (pairs_out) {
            exp_l[count] = i;
            exp_r[count++] = j;
          }
        }
        if ((kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL) && matches == 0) {
          exp_l[count] = i;
          exp_r[count++] = -1;
        }
        if ((kind == GCOL_JOIN_LEFT_SEMI && matches > 0) ||
            (kind == GCOL_JOIN_LEFT_ANTI && matches == 0)) {
          exp_l[count++] = i;
        }
      }
      if (kind == GCOL_JOIN_FULL) {
        for (int64_t j = 0; j < nr; ++j) {
          bool matched = false;
          for (int64_t i = 0; i < nl && !matched; ++i)
            matched = flags_ok[i * nr + j] && flags[i * nr + j];
          if (!matched) {
            exp_l[count] = -1;
            exp_r[count++] = j;
          }
        }
      }
      for (size_t sh = 0; sh < 3; ++sh) {
        gcol_detail_join_shape const shape =
            gcol_detail_join_shape_make(nl, nr, shapes[sh][0], shapes[sh][1]);
        int64_t const items = nl * shape.parts;
        assert_true(shape.parts >= 1 && shape.chunk >= 1);
        assert_true((shape.parts - 1) * shape.chunk < (nr > 0 ? nr : 1)); /* no empty chunk */
        int64_t *counts = (int64_t *)calloc((size_t)items + 1, sizeof(int64_t));
        uint8_t *unmatched = (uint8_t *)malloc((size_t)nr + 1);
        assert_true(counts != NULL && unmatched != NULL);
        memset(unmatched, 1, (size_t)nr + 1);
        for (int64_t item = 0; item < items; ++item) {
          counts[item] = gcol_detail_join_count_item(
              p->instructions, p->num_instructions, used, shape, kind, item, slots, 1, true,
              p->has_strings, kind == GCOL_JOIN_FULL ? unmatched : NULL);
        }
        if (kind != GCOL_JOIN_INNER) {
          for (int64_t i = 0; i < nl; ++i) gcol_detail_join_settle_row(shape, kind, i, counts);
        }
        int64_t acc = 0;
        for (int64_t k = 0; k <= items; ++k) {
          int64_t const c = counts[k];
          counts[k] = acc;
          acc += c;
        }
        int64_t total = counts[items];
        for (int64_t item = 0; item < items; ++item) {
          gcol_detail_join_write_item(p->instructions, p->num_instructions, used, shape, kind, item,
                                      counts, true, got_l, got_r, slots, 1, true, p->has_strings);
        }
        if (kind == GCOL_JOIN_FULL) {
          for (int64_t j = 0; j < nr; ++j) {
            if (!unmatched[j]) continue;
            got_l[total] = -1;
            got_r[total++] = j;
          }
        }
        if (total != count) {
          fail_msg("round %d kind %d shape %zu: %lld rows, expected %lld", round, kind, sh,
                   (long long)total, (long long)count);
        }
        for (int64_t k = 0; k < count; ++k) {
          if (got_l[k] != exp_l[k] || (pairs_out && got_r[k] != exp_r[k])) {
            fail_msg("round %d kind %d shape %zu: row %lld is (%lld, %lld), expected (%lld, %lld)",
                     round, kind, sh, (long long)k, (long long)got_l[k],
                     (long long)(pairs_out ? got_r[k] : 0), (long long)exp_l[k],
                     (long long)(pairs_out ? exp_r[k] : 0));
          }
        }
        free(counts);
        free(unmatched);
      }
    }
    free(exp_l);
    free(exp_r);
    free(got_l);
    free(got_r);
    free(flags);
    free(flags_ok);
    free(p);
    host_columns_free(&hl);
    free(constants);
    host_columns_free(&hr);
    expr_ref_tree_free(tree);
    expr_ref_table_free(&pairs);
    expr_ref_table_free(&left);
    expr_ref_table_free(&right);
  }
}

static void test_conditional_join_checks(void **state) {
  (void)state;
  gcol_column_view lc = gcol_column_view_make(dt(GCOL_INT32), 10, FAKE_PTR, NULL, 0);
  gcol_column_view rc = gcol_column_view_make(dt(GCOL_INT64), 4, FAKE_PTR, NULL, 0);
  gcol_table_view l, r;
  GCOL_TEST_OK(gcol_table_view_make(&lc, 1, &l));
  GCOL_TEST_OK(gcol_table_view_make(&rc, 1, &r));
  gcol_expression *e = NULL;
  int32_t a, b, ca, lt, sum;
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &a));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_RIGHT, 0, &b));
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LESS, a, b, &lt)); /* int32 < int64 */
  GCOL_TEST_OK(gcol_expression_add_cast(e, a, dt(GCOL_INT64), &ca));
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_ADD, ca, b, &sum));
  gcol_column *lm = (gcol_column *)(uintptr_t)1, *rm = (gcol_column *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_conditional_join(l, r, e, lt, GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("gcol_conditional_join");
  expect_message("node 2 (less)");
  assert_null(lm);
  assert_null(rm);
  GCOL_TEST_STATUS(gcol_conditional_join(l, r, e, sum, GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("not bool8");
  GCOL_TEST_STATUS(gcol_conditional_join(l, r, e, lt, GCOL_JOIN_FULL, &lm, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("full");
  GCOL_TEST_STATUS(gcol_conditional_join(l, r, e, sum, (gcol_join_kind)9, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_conditional_join(l, r, e, sum, GCOL_JOIN_INNER, &lm, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("right_map");
  GCOL_TEST_STATUS(gcol_conditional_join(l, r, e, sum, GCOL_JOIN_INNER, NULL, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_conditional_join(l, r, NULL, 0, GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  /* a right reference past the right table */
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_RIGHT, 3, &b));
  GCOL_TEST_STATUS(gcol_conditional_join(l, r, e, b, GCOL_JOIN_LEFT_SEMI, &lm, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("column 3 of the right table");
  gcol_expression_free(e);
}

/* Mixed joins refuse bad kinds, outputs, row counts, predicates and null options before
 * the equality join touches the GPU. */
static void test_mixed_join_checks(void **state) {
  (void)state;
  gcol_column_view lk = gcol_column_view_make(dt(GCOL_INT32), 10, FAKE_PTR, NULL, 0);
  gcol_column_view rk = gcol_column_view_make(dt(GCOL_INT32), 4, FAKE_PTR, NULL, 0);
  gcol_column_view lc = gcol_column_view_make(dt(GCOL_INT64), 10, FAKE_PTR, NULL, 0);
  gcol_column_view rc = gcol_column_view_make(dt(GCOL_INT64), 4, FAKE_PTR, NULL, 0);
  gcol_column_view two[2] = {lk, lk};
  gcol_table_view lkt, rkt, lct, rct, two_keys;
  GCOL_TEST_OK(gcol_table_view_make(&lk, 1, &lkt));
  GCOL_TEST_OK(gcol_table_view_make(&rk, 1, &rkt));
  GCOL_TEST_OK(gcol_table_view_make(&lc, 1, &lct));
  GCOL_TEST_OK(gcol_table_view_make(&rc, 1, &rct));
  GCOL_TEST_OK(gcol_table_view_make(two, 2, &two_keys));
  gcol_expression *e = NULL;
  int32_t a, b, lt, sum;
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &a));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_RIGHT, 0, &b));
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_LESS, a, b, &lt));
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_ADD, a, b, &sum));
  gcol_column *lm = (gcol_column *)(uintptr_t)1, *rm = (gcol_column *)(uintptr_t)1;
  /* the right conditional table has the left keys' 10 rows */
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, GCOL_NULLS_EQUAL, lct, lct, e, lt, GCOL_JOIN_INNER,
                                   &lm, &rm, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  expect_message("gcol_mixed_join");
  expect_message("right_conditional");
  assert_null(lm);
  assert_null(rm);
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, GCOL_NULLS_EQUAL, rct, rct, e, lt, GCOL_JOIN_LEFT, &lm,
                                   &rm, NULL, NULL),
                   GCOL_ERROR_SIZE_MISMATCH);
  expect_message("left_conditional");
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, GCOL_NULLS_EQUAL, lct, rct, e, sum, GCOL_JOIN_INNER,
                                   &lm, &rm, NULL, NULL),
                   GCOL_ERROR_TYPE_MISMATCH);
  expect_message("not bool8");
  GCOL_TEST_STATUS(gcol_mixed_join(two_keys, rkt, GCOL_NULLS_EQUAL, lct, rct, e, lt,
                                   GCOL_JOIN_INNER, &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("key columns");
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, GCOL_NULLS_EQUAL, lct, rct, e, lt, (gcol_join_kind)9,
                                   &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, GCOL_NULLS_EQUAL, lct, rct, e, lt, GCOL_JOIN_FULL, &lm,
                                   NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("right_map");
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, GCOL_NULLS_EQUAL, lct, rct, e, lt, GCOL_JOIN_INNER,
                                   NULL, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, GCOL_NULLS_EQUAL, lct, rct, NULL, 0, GCOL_JOIN_INNER,
                                   &lm, &rm, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, GCOL_NULLS_EQUAL, lct, rct, e, 42, GCOL_JOIN_LEFT_SEMI,
                                   &lm, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  /* the null option is checked by the equality join before it builds anything */
  GCOL_TEST_STATUS(gcol_mixed_join(lkt, rkt, (gcol_null_equality)7, lct, rct, e, lt,
                                   GCOL_JOIN_LEFT_ANTI, &lm, NULL, NULL, NULL),
                   GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("nulls");
  assert_null(lm);
  gcol_expression_free(e);
}

/* ---- the public operations refuse bad input before touching the GPU ---- */

static void test_operation_checks(void **state) {
  (void)state;
  gcol_column_view cols[2] = {gcol_column_view_make(dt(GCOL_INT32), 10, FAKE_PTR, NULL, 0),
                              gcol_column_view_make(dt(GCOL_INT64), 10, FAKE_PTR, NULL, 0)};
  gcol_table_view t;
  GCOL_TEST_OK(gcol_table_view_make(cols, 2, &t));
  gcol_expression *e = NULL;
  int32_t a, b, r, sum;
  GCOL_TEST_OK(gcol_expression_create(&e));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &a));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 1, &b));
  GCOL_TEST_OK(gcol_expression_add_binary(e, GCOL_EXPR_ADD, a, b, &sum));
  GCOL_TEST_OK(gcol_expression_add_column(e, GCOL_EXPRESSION_RIGHT, 0, &r));
  gcol_column *out = (gcol_column *)(uintptr_t)1;
  gcol_table *kept = (gcol_table *)(uintptr_t)1;
  GCOL_TEST_STATUS(gcol_compute_column(t, e, sum, &out, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  expect_message("gcol_compute_column");
  expect_message("node 2 (add)");
  assert_null(out);
  GCOL_TEST_STATUS(gcol_compute_column(t, e, r, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  expect_message("right");
  GCOL_TEST_STATUS(gcol_compute_column(t, NULL, a, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_compute_column(t, e, 42, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  GCOL_TEST_STATUS(gcol_compute_column(t, e, a, NULL, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  /* the filter's predicate must be BOOL8 */
  GCOL_TEST_STATUS(gcol_filter_expression(t, e, a, &kept, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  expect_message("gcol_filter_expression");
  expect_message("not bool8");
  assert_null(kept);
  GCOL_TEST_STATUS(gcol_filter_expression(t, e, sum, &kept, NULL, NULL), GCOL_ERROR_TYPE_MISMATCH);
  /* malformed tables */
  cols[1].size = 9;
  t.columns = cols;
  GCOL_TEST_STATUS(gcol_compute_column(t, e, a, &out, NULL, NULL), GCOL_ERROR_SIZE_MISMATCH);
  GCOL_TEST_STATUS(gcol_filter_expression(t, e, a, &kept, NULL, NULL), GCOL_ERROR_SIZE_MISMATCH);
  cols[1].size = 10;
  cols[0].offset = -3;
  GCOL_TEST_STATUS(gcol_compute_column(t, e, a, &out, NULL, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_expression_free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_op_names),
      cmocka_unit_test(test_builder_bad_input),
      cmocka_unit_test(test_type_rules),
      cmocka_unit_test(test_bind_errors),
      cmocka_unit_test(test_limits),
      cmocka_unit_test(test_program_shape),
      cmocka_unit_test(test_kleene_logic),
      cmocka_unit_test(test_hand_values),
      cmocka_unit_test(test_random_trees_host),
      cmocka_unit_test(test_operation_checks),
      cmocka_unit_test(test_two_table_programs_host),
      cmocka_unit_test(test_join_items_host),
      cmocka_unit_test(test_conditional_join_checks),
      cmocka_unit_test(test_mixed_join_checks),
      cmocka_unit_test(test_string_type_rules),
      cmocka_unit_test(test_string_hand_values),
      cmocka_unit_test(test_random_string_predicates_host),
      cmocka_unit_test(test_string_literal_copies),
  };
  return GCOL_TEST_RUN("expression_host", tests);
}
