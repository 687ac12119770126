/*
 * Host reference for expressions: a tree kept by the test beside the gcol_expression it
 * builds (the same nodes, added through the public calls), evaluated recursively row by
 * row with C's typed arithmetic. It shares no code with the compiler or the interpreter
 * (kernels/expression/), so both the compiled program (run on the host by the host suite,
 * on the GPU by the GPU suite) and the kernel are checked against it.
 *
 * The random generator makes typed trees from a seed over a table of one or more columns
 * of each type it uses, with nulls, NaN, +-0.0, +-Inf and integer MIN/MAX among the values.
 * Tables made by expr_ref_table_random_strings() add STRING columns (nulls, "", multi-byte
 * UTF-8, an invalid byte, shared prefixes, strings that differ only by length), and over
 * them the generator adds string comparisons, LIKE (patterns with `%`, `_` and escapes) and
 * IS_NULL / IS_VALID of strings; LIKE is matched here by its own backtracking matcher.
 */
#ifndef GCOL_TESTS_EXPRESSION_REFERENCE_H
#define GCOL_TESTS_EXPRESSION_REFERENCE_H

#include "test_util.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EXPR_REF_MAX_NODES 4096
#define EXPR_REF_MAX_COLUMNS 40
#define EXPR_REF_ARENA (1 << 16)

/* A STRING element of a reference table or a string literal: @p size bytes at @p data. */
typedef struct expr_ref_string {
  const char *data;
  int64_t size;
} expr_ref_string;

typedef enum expr_ref_kind {
  EXPR_REF_COLUMN = 0,
  EXPR_REF_LITERAL = 1,
  EXPR_REF_UNARY = 2,
  EXPR_REF_BINARY = 3,
  EXPR_REF_CAST = 4
} expr_ref_kind;

typedef struct expr_ref_node {
  expr_ref_kind kind;
  gcol_expression_op op;
  int32_t lhs, rhs;
  int32_t column;
  gcol_data_type type; /* the node's result type */
  bool literal_valid;
  gcol_scalar_value literal;
  expr_ref_string str; /* STRING literal (bytes in the tree's arena) */
  char escape[8];      /* LIKE: the escape character ("" for none) */
} expr_ref_node;

/* A host table: column c has rows [0, rows) at data[c] (storage of its type; STRING: an
 * expr_ref_string a row, its bytes in pool[c], or in another table's pool for a pair
 * table), validity bytes valid[c] (NULL: no mask). */
typedef struct expr_ref_table {
  int32_t num_columns;
  int64_t rows;
  gcol_data_type types[EXPR_REF_MAX_COLUMNS];
  void *data[EXPR_REF_MAX_COLUMNS];
  uint8_t *valid[EXPR_REF_MAX_COLUMNS];
  char *pool[EXPR_REF_MAX_COLUMNS];
} expr_ref_table;

/* Bytes a row of a reference column of type @p id takes (STRING: an expr_ref_string). */
size_t expr_ref_width(gcol_type_id id);

/* The test's tree and the gcol_expression built from the same calls. */
typedef struct expr_ref_tree {
  expr_ref_node nodes[EXPR_REF_MAX_NODES];
  int32_t count;
  gcol_expression *expr;
  /* Two-table trees (conditional joins): the reference table is a pair table
   * (expr_ref_table_pairs) whose columns >= right_base are the right table's, added to the
   * gcol_expression as RIGHT references to column (c - right_base). 0: one table. */
  int32_t right_base;
  char arena[EXPR_REF_ARENA]; /* string literals' bytes */
  int64_t arena_used;
} expr_ref_tree;

/* Creates an empty tree (and its gcol_expression); free with expr_ref_tree_free. */
expr_ref_tree *expr_ref_tree_create(void);
void expr_ref_tree_free(expr_ref_tree *tree);

/* Adders: each calls the public adder, asserts GCOL_OK and records the node. Types are
 * those of @p table's columns. */
int32_t expr_ref_column(expr_ref_tree *tree, const expr_ref_table *table, int32_t column);
int32_t expr_ref_literal_int(expr_ref_tree *tree, gcol_data_type type, int64_t value);
int32_t expr_ref_literal_float(expr_ref_tree *tree, gcol_data_type type, double value);
int32_t expr_ref_literal_null(expr_ref_tree *tree, gcol_data_type type);
int32_t expr_ref_literal_string(expr_ref_tree *tree, const char *data, int64_t size);
/* operand LIKE pattern (NULL: a null pattern) with @p escape (NULL or "" for none), through
 * gcol_expression_add_like() (or gcol_expression_add_binary() when @p via_binary and there
 * is no escape). */
int32_t expr_ref_like(expr_ref_tree *tree, int32_t operand, const char *pattern, int64_t size,
                      const char *escape, bool via_binary);
int32_t expr_ref_unary(expr_ref_tree *tree, gcol_expression_op op, int32_t operand);
int32_t expr_ref_binary(expr_ref_tree *tree, gcol_expression_op op, int32_t lhs, int32_t rhs);
int32_t expr_ref_cast(expr_ref_tree *tree, int32_t operand, gcol_data_type type);

/* A random table of @p rows rows: the generator's column types, random nulls in some. */
void expr_ref_table_random(expr_ref_table *table, int64_t rows, gcol_test_rng *rng);
/* As expr_ref_table_random(), plus two STRING columns (16 with nulls, 17 without). */
void expr_ref_table_random_strings(expr_ref_table *table, int64_t rows, gcol_test_rng *rng);
void expr_ref_table_free(expr_ref_table *table);

/* The pair table of @p left and @p right: left's columns then right's, row i * right.rows + j
 * holding left row i and right row j. */
void expr_ref_table_pairs(const expr_ref_table *left, const expr_ref_table *right,
                          expr_ref_table *out);

/* A random tree of result type @p want and depth at most @p depth over @p table. */
int32_t expr_ref_random(expr_ref_tree *tree, const expr_ref_table *table, gcol_test_rng *rng,
                        gcol_data_type want, int depth);

/* A random BOOL8 node over the STRING columns of @p table (it must have some): a comparison
 * of two string leaves (columns, literals, null literals), a LIKE (no escape, "!" or the
 * two-byte "\xc3\xa9"; sometimes a null pattern), or IS_NULL / IS_VALID of a string leaf. */
int32_t expr_ref_random_string_predicate(expr_ref_tree *tree, const expr_ref_table *table,
                                         gcol_test_rng *rng);

/* A random result type the generator can make. */
gcol_data_type expr_ref_random_type(gcol_test_rng *rng);

/* Evaluates node @p root for every row: out holds rows * gcol_type_size(type) bytes
 * (0 under nulls), valid one byte a row. */
void expr_ref_eval(const expr_ref_tree *tree, int32_t root, const expr_ref_table *table, void *out,
                   uint8_t *valid);

/* Asserts that rows [0, rows) of (@p values, @p valid) equal the expected ones logically:
 * same validity; valid values bit-equal, any NaN equal to any NaN. */
void expr_ref_assert_equal(gcol_data_type type, int64_t rows, const void *values,
                           const uint8_t *valid, const void *expected,
                           const uint8_t *expected_valid, const char *what);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_TESTS_EXPRESSION_REFERENCE_H */
