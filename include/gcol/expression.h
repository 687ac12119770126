/**
 * @file expression.h
 * @ingroup gcol_expression
 * @brief Expressions: a tree of column references, literals and operators, type-checked
 *        once against a table's types and evaluated by one kernel over all its columns
 *        (a computed column, a filter that keeps the rows where a predicate is true, or a
 *        conditional join of two tables by a predicate over both, alone or with equality
 *        keys as a mixed join).
 *
 * A filter like `a > 20 AND b != 7 AND c < 0.5` otherwise takes five binary operations,
 * five temporary columns and a boolean mask; as one expression it is one pass over the
 * three columns. The tree is built with plain C calls that each add a node and return its
 * id; an operator's operands are nodes added before it, so a tree can have no cycle. A node
 * may be the operand of several others (it is then evaluated once per use).
 *
 * @code
 * // a > 20 AND b != 7 AND c < 0.5, with a INT64, b INT32, c FLOAT64 (columns 0, 1, 2)
 * gcol_expression *e = NULL;
 * gcol_scalar *k20 = NULL, *k7 = NULL, *khalf = NULL;
 * gcol_scalar_create_int(gcol_data_type_make(GCOL_INT64), 20, &k20);
 * gcol_scalar_create_int(gcol_data_type_make(GCOL_INT32), 7, &k7);
 * gcol_scalar_create_float(gcol_data_type_make(GCOL_FLOAT64), 0.5, &khalf);
 * int32_t a, b, c, l20, l7, lhalf, t1, t2, t3, t12, root;
 * gcol_expression_create(&e);
 * gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 0, &a);
 * gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 1, &b);
 * gcol_expression_add_column(e, GCOL_EXPRESSION_LEFT, 2, &c);
 * gcol_expression_add_literal(e, k20, &l20);
 * gcol_expression_add_literal(e, k7, &l7);
 * gcol_expression_add_literal(e, khalf, &lhalf);
 * gcol_expression_add_binary(e, GCOL_EXPR_GREATER, a, l20, &t1);
 * gcol_expression_add_binary(e, GCOL_EXPR_NOT_EQUAL, b, l7, &t2);
 * gcol_expression_add_binary(e, GCOL_EXPR_LESS, c, lhalf, &t3);
 * gcol_expression_add_binary(e, GCOL_EXPR_NULL_LOGICAL_AND, t1, t2, &t12);
 * gcol_expression_add_binary(e, GCOL_EXPR_NULL_LOGICAL_AND, t12, t3, &root);
 * gcol_table *kept = NULL;
 * gcol_status st = gcol_filter_expression(table, e, root, &kept, stream, NULL);
 * gcol_expression_free(e);   // scalars were copied: free them too
 * @endcode
 *
 * **Types.** Operands of a binary operator must have the same type (and decimal scale); a
 * cast node converts between numeric types. The rules (a node that breaks one gives
 * ::GCOL_ERROR_TYPE_MISMATCH naming the node, its operator and the types):
 * - ADD, SUB, MUL, DIV, MOD: integers and floats (ADD and SUB also durations); the result
 *   has the operands' type. Integers wrap at their width (two's complement); an integer
 *   DIV or MOD by zero gives null; `MIN / -1` wraps to MIN and `MIN % -1` is 0 (as
 *   gcol_binary_operation()). FLOAT32 is computed in float, FLOAT64 in double, IEEE (MOD is
 *   fmod).
 * - EQUAL .. GREATER_EQUAL, NULL_EQUALS: integers, floats, BOOL8, timestamps, durations,
 *   DECIMAL32/64, STRING; result BOOL8. Floats follow IEEE (NaN is unequal to everything,
 *   itself included). Strings compare byte by byte as unsigned bytes (UTF-8 code point
 *   order), a proper prefix first (as gcol_sorted_order() and gcol_string_ref_compare()).
 * - LIKE: a STRING operand (lhs) and a STRING literal pattern (rhs; a column or any other
 *   node is ::GCOL_ERROR_TYPE_MISMATCH): SQL LIKE as gcol_strings_like() (`%` any run of
 *   characters, `_` one character, byte for byte otherwise), result BOOL8; null when the
 *   operand or the pattern is null. gcol_expression_add_binary() adds one without an escape
 *   character, gcol_expression_add_like() with one.
 * - LOGICAL_AND, LOGICAL_OR, NULL_LOGICAL_AND, NULL_LOGICAL_OR, NOT: BOOL8.
 * - NEGATE: signed integers, floats, durations. ABS: integers, floats, durations.
 * - IS_NULL, IS_VALID: any type the expression accepts (STRING included); result BOOL8.
 * - Arithmetic, logic, NEGATE, ABS and casts do not take STRING (::GCOL_ERROR_TYPE_MISMATCH),
 *   and a STRING node is never an expression's result: strings are read and compared, never
 *   made (a root of type STRING is ::GCOL_ERROR_UNSUPPORTED).
 * - Casts: between integers, floats and BOOL8. Integer to narrower integer wraps; to BOOL8
 *   is `!= 0` (NaN is true); a float to an integer truncates toward zero, and a NaN or a
 *   value outside the target's range gives null.
 * - Columns and literals: any fixed-width type but DECIMAL128 (::GCOL_ERROR_UNSUPPORTED),
 *   and STRING (columns with INT32 or INT64 offsets, sliced or not; literals valid or null,
 *   any bytes, their bytes copied to the device once per call).
 *
 * **Nulls.** An operator with a null operand gives null, except: IS_NULL and IS_VALID
 * (never null); NULL_EQUALS (null equals null, never null); NULL_LOGICAL_AND and
 * NULL_LOGICAL_OR (Kleene logic: false AND null = false, true OR null = true, otherwise
 * null when an operand is null). LOGICAL_AND and LOGICAL_OR propagate nulls.
 *
 * **Limits.** Depth at most ::GCOL_EXPRESSION_MAX_DEPTH, at most
 * ::GCOL_EXPRESSION_MAX_INSTRUCTIONS evaluation steps (a node used twice counts twice), at
 * most ::GCOL_EXPRESSION_MAX_SLOTS values live at once per row (a balanced tree of 2^15
 * leaves fits).
 */
#ifndef GCOL_EXPRESSION_H
#define GCOL_EXPRESSION_H

/** @addtogroup gcol_expression
 *  @{ */

#include "gcol/column.h"
#include "gcol/config.h"
#include "gcol/join.h"
#include "gcol/memory.h"
#include "gcol/scalar.h"
#include "gcol/status.h"
#include "gcol/table.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief Deepest tree accepted (a leaf alone has depth 1). */
#define GCOL_EXPRESSION_MAX_DEPTH 64
/** @brief Most evaluation steps (one per node use: loads, literals, operators). */
#define GCOL_EXPRESSION_MAX_INSTRUCTIONS 256
/** @brief Most intermediate values live at once while a row is evaluated. */
#define GCOL_EXPRESSION_MAX_SLOTS 16

/**
 * @brief Every expression operator: `X(NAME, ARITY, "name")`; `GCOL_EXPR_##NAME` is the
 *        enumerator. See the file documentation for the types and null rules of each.
 */
#define GCOL_EXPRESSION_OP_LIST(X)           \
  X(NOT, 1, "not")                           \
  X(NEGATE, 1, "negate")                     \
  X(ABS, 1, "abs")                           \
  X(IS_NULL, 1, "is_null")                   \
  X(IS_VALID, 1, "is_valid")                 \
  X(ADD, 2, "add")                           \
  X(SUB, 2, "sub")                           \
  X(MUL, 2, "mul")                           \
  X(DIV, 2, "div")                           \
  X(MOD, 2, "mod")                           \
  X(EQUAL, 2, "equal")                       \
  X(NOT_EQUAL, 2, "not_equal")               \
  X(LESS, 2, "less")                         \
  X(LESS_EQUAL, 2, "less_equal")             \
  X(GREATER, 2, "greater")                   \
  X(GREATER_EQUAL, 2, "greater_equal")       \
  X(NULL_EQUALS, 2, "null_equals")           \
  X(LOGICAL_AND, 2, "logical_and")           \
  X(LOGICAL_OR, 2, "logical_or")             \
  X(NULL_LOGICAL_AND, 2, "null_logical_and") \
  X(NULL_LOGICAL_OR, 2, "null_logical_or")   \
  X(LIKE, 2, "like")

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_EXPR_OP_ENUMERATOR(NAME, ARITY, STRING) GCOL_EXPR_##NAME,
/** @endcond */

/** @brief An expression operator. */
typedef enum gcol_expression_op {
  GCOL_EXPRESSION_OP_LIST(GCOL_DETAIL_EXPR_OP_ENUMERATOR)
      GCOL_NUM_EXPRESSION_OPS /**< Number of operators; not an operator. */
} gcol_expression_op;

/** @brief Which table a column reference reads (the right one only in two-table uses,
 *         such as conditional joins; a one-table operation refuses it). */
typedef enum gcol_expression_side {
  GCOL_EXPRESSION_LEFT = 0, /**< The (only or left) input table. */
  GCOL_EXPRESSION_RIGHT = 1 /**< The right input table. */
} gcol_expression_side;

/** @brief An expression tree under construction (opaque; host memory only). */
typedef struct gcol_expression gcol_expression;

/** @brief The operator's name (`"add"`); `"invalid"` for an out-of-range value. */
const char *gcol_expression_op_name(gcol_expression_op op);

/** @brief The operator's number of operands (1 or 2); 0 for an out-of-range value. */
int gcol_expression_op_arity(gcol_expression_op op);

/**
 * @brief Creates an empty expression.
 * @param[out] out The expression; NULL on failure. Free it with gcol_expression_free().
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL @p out),
 *         ::GCOL_ERROR_OUT_OF_MEMORY (host).
 */
gcol_status gcol_expression_create(gcol_expression **out);

/** @brief Frees an expression and its literals. NULL is a no-op. */
void gcol_expression_free(gcol_expression *expr);

/** @brief Number of nodes added so far (0 for NULL). */
int32_t gcol_expression_num_nodes(const gcol_expression *expr);

/**
 * @brief Adds a reference to column @p column of the @p side table.
 * @param[in,out] expr The expression.
 * @param[in] side The table read.
 * @param[in] column The column's index (>= 0; checked against the table when bound).
 * @param[out] node The new node's id.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, negative @p column, bad
 *         @p side); ::GCOL_ERROR_OUT_OF_MEMORY (host).
 */
gcol_status gcol_expression_add_column(gcol_expression *expr, gcol_expression_side side,
                                       int32_t column, int32_t *node);

/**
 * @brief Adds a literal: a copy of @p value (valid or null; its type is the node's type).
 * @param[in,out] expr The expression.
 * @param[in] value A fixed-width scalar other than DECIMAL128, or a STRING scalar (copied;
 *                  the caller keeps it).
 * @param[out] node The new node's id.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers);
 *         ::GCOL_ERROR_UNSUPPORTED (DECIMAL128 or another type the expression does not
 *         take); ::GCOL_ERROR_OUT_OF_MEMORY (host).
 */
gcol_status gcol_expression_add_literal(gcol_expression *expr, const gcol_scalar *value,
                                        int32_t *node);

/**
 * @brief Adds `operand LIKE pattern` with an escape character: a literal node of
 *        @p pattern, then the LIKE node over @p operand and it (see the file documentation).
 * @param[in,out] expr The expression.
 * @param[in] operand A node already added (a STRING one, checked when bound).
 * @param[in] pattern A STRING scalar, valid (any bytes) or null (then LIKE gives null).
 * @param[in] escape_character NULL or "" for none, else a NUL-terminated string holding
 *                             exactly one UTF-8 character, as gcol_strings_like()'s.
 * @param[out] node The LIKE node's id.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, bad @p operand, a
 *         malformed escape character or pattern: an escape at its end or before a character
 *         other than `%`, `_` or itself; the message names the byte);
 *         ::GCOL_ERROR_TYPE_MISMATCH (@p pattern not STRING); ::GCOL_ERROR_OUT_OF_MEMORY
 *         (host).
 */
gcol_status gcol_expression_add_like(gcol_expression *expr, int32_t operand,
                                     const gcol_scalar *pattern, const char *escape_character,
                                     int32_t *node);

/**
 * @brief Adds a unary operator over node @p operand.
 * @param[in,out] expr The expression.
 * @param[in] op An operator of arity 1.
 * @param[in] operand A node already added.
 * @param[out] node The new node's id.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, @p op not unary or out
 *         of range, @p operand not an existing node); ::GCOL_ERROR_OUT_OF_MEMORY (host).
 */
gcol_status gcol_expression_add_unary(gcol_expression *expr, gcol_expression_op op, int32_t operand,
                                      int32_t *node);

/**
 * @brief Adds a binary operator over nodes @p lhs and @p rhs.
 * @param[in,out] expr The expression.
 * @param[in] op An operator of arity 2.
 * @param[in] lhs Left operand, a node already added.
 * @param[in] rhs Right operand, a node already added (may equal @p lhs).
 * @param[out] node The new node's id.
 * @return As gcol_expression_add_unary().
 */
gcol_status gcol_expression_add_binary(gcol_expression *expr, gcol_expression_op op, int32_t lhs,
                                       int32_t rhs, int32_t *node);

/**
 * @brief Adds a cast of node @p operand to @p type (integers, floats and BOOL8; see the
 *        file documentation).
 * @param[in,out] expr The expression.
 * @param[in] operand A node already added.
 * @param[in] type The target type (checked when bound).
 * @param[out] node The new node's id.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, bad @p operand, a type
 *         id out of range); ::GCOL_ERROR_OUT_OF_MEMORY (host).
 */
gcol_status gcol_expression_add_cast(gcol_expression *expr, int32_t operand, gcol_data_type type,
                                     int32_t *node);

/**
 * @brief Type-checks the tree under @p root against the column types of a table (and of a
 *        right table, for two-table uses) and gives the result's type, without the GPU.
 * @param[in] expr The expression.
 * @param[in] root The node whose value is the result.
 * @param[in] left_types Host array of the left table's @p num_left column types (may be
 *                       NULL when @p num_left is 0).
 * @param[in] num_left Number of left columns.
 * @param[in] right_types Host array of the right table's column types, or NULL.
 * @param[in] num_right Number of right columns (0: references to the right table are
 *                      refused).
 * @param[out] out The result's type.
 * @return ::GCOL_OK; ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, @p root not a node, a
 *         column index out of range, a right-table reference without a right table, a tree
 *         deeper than ::GCOL_EXPRESSION_MAX_DEPTH); ::GCOL_ERROR_TYPE_MISMATCH (an operator
 *         applied to types it does not take); ::GCOL_ERROR_UNSUPPORTED (a column type the
 *         expression does not take, more than ::GCOL_EXPRESSION_MAX_INSTRUCTIONS steps or
 *         ::GCOL_EXPRESSION_MAX_SLOTS live values). The message names the node
 *         (`node 7 (add): operand types int32 and int64 differ`).
 */
gcol_status gcol_expression_output_type(const gcol_expression *expr, int32_t root,
                                        const gcol_data_type *left_types, int32_t num_left,
                                        const gcol_data_type *right_types, int32_t num_right,
                                        gcol_data_type *out);

/**
 * @brief Evaluates the expression under @p root for every row of @p input into one new
 *        column, in one kernel.
 * @param[in] input The table the column references read (any offsets, with or without
 *                  masks; only the referenced columns need types expressions take, but no
 *                  column may be DICTIONARY32).
 * @param[in] expr The expression.
 * @param[in] root The node whose value is the result.
 * @param[out] out The result: the root's type, @p input.num_rows rows, starting at offset 0;
 *                 a null mask when a row can be null (0 is written under nulls). NULL on
 *                 failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return ::GCOL_OK; the statuses of gcol_expression_output_type() (a right-table
 *         reference is ::GCOL_ERROR_INVALID_ARGUMENT); ::GCOL_ERROR_INVALID_ARGUMENT (NULL
 *         pointers, malformed views); ::GCOL_ERROR_SIZE_MISMATCH (columns of different
 *         sizes); ::GCOL_ERROR_UNSUPPORTED (a DICTIONARY32 column); ::GCOL_ERROR_OUT_OF_MEMORY;
 *         a CUDA status.
 * @note Synchronizes @p stream to count the output's nulls when it has a mask (a
 *       referenced column has one, or an operator can make nulls); otherwise asynchronous.
 *       The caller owns *out.
 */
gcol_status gcol_compute_column(gcol_table_view input, const gcol_expression *expr, int32_t root,
                                gcol_column **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Keeps the rows of @p input where the BOOL8 predicate under @p root is true; rows
 *        where it is false or null are dropped. Rows keep their input order (as
 *        gcol_apply_boolean_mask() with the predicate as the mask, without materializing
 *        it as a column).
 * @param[in] input Any columns (the kept rows of every column are returned; only the
 *                  referenced ones need supported types).
 * @param[in] expr The expression.
 * @param[in] root A node of type BOOL8.
 * @param[out] out The kept rows; NULL on failure.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the output, or NULL for the default.
 * @return As gcol_compute_column(), plus ::GCOL_ERROR_TYPE_MISMATCH (the root is not
 *         BOOL8).
 * @note Synchronizes @p stream to learn the output size. The predicate is evaluated into a
 *       byte a row (temporary), which gcol_apply_boolean_mask() then applies (see its
 *       memory note: one fixed-width column without nulls takes its single-pass path). The
 *       caller owns *out.
 */
gcol_status gcol_filter_expression(gcol_table_view input, const gcol_expression *expr, int32_t root,
                                   gcol_table **out, gcol_stream stream, gcol_mr *mr);

/**
 * @brief Conditional join: the pairs (left row, right row) for which the BOOL8 predicate
 *        under @p root, over columns of both tables (::GCOL_EXPRESSION_LEFT and
 *        ::GCOL_EXPRESSION_RIGHT references), is true; false and null do not match.
 *
 * Evaluated by a nested loop (every left row against every right row, the right rows in
 * chunks when the left table is small), counting the output rows of each left row, then
 * writing them at their offsets: O(left x right) predicate evaluations, twice, meant for
 * predicates that equality keys cannot express (ranges, inequalities) on moderate sizes.
 * Output order: left rows ascending, each row's matches in ascending right order; a left or
 * full join's unmatched left row appears once with -1 on the right, in its place; a full
 * join then appends (-1, row) for each right row no left row matched, ascending.
 * @param[in] left Left table.
 * @param[in] right Right table.
 * @param[in] expr The expression.
 * @param[in] root A BOOL8 node.
 * @param[in] kind Any ::gcol_join_kind.
 * @param[out] left_map Left rows: INT32 when both tables have fewer than 2^31 rows, INT64
 *                      otherwise; NULL on failure.
 * @param[out] right_map Right rows (-1: none), same type; NULL allowed, and set to NULL, for
 *                       semi and anti joins.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the outputs, or NULL for the default.
 * @return ::GCOL_OK; the statuses of gcol_expression_output_type(); ::GCOL_ERROR_TYPE_MISMATCH
 *         (the root is not BOOL8); ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, malformed
 *         tables, a bad @p kind); ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32 columns);
 * ::GCOL_ERROR_OUT_OF_MEMORY (also when the output does not fit); a CUDA status.
 * @note Synchronizes @p stream (the output size sizes the maps; a full join once more for
 *       its right-only rows). Temporary memory: 8 bytes a work item (a left row, or a chunk
 *       of a left row's right rows: at most about 2^19 items below 2^18 left rows), and for
 *       a full join 1 byte a right row plus 8 bytes a right-only row. The caller owns the
 *       maps.
 */
gcol_status gcol_conditional_join(gcol_table_view left, gcol_table_view right,
                                  const gcol_expression *expr, int32_t root, gcol_join_kind kind,
                                  gcol_column **left_map, gcol_column **right_map,
                                  gcol_stream stream, gcol_mr *mr);

/**
 * @brief Mixed join: the pairs (left row, right row) whose equality keys are equal (as
 *        gcol_join(), per @p nulls) and for which the BOOL8 predicate under @p root, over
 *        columns of the two conditional tables (::GCOL_EXPRESSION_LEFT and
 *        ::GCOL_EXPRESSION_RIGHT references), is true; false and null do not match (as
 *        libcudf's mixed_inner_join .. mixed_left_anti_join).
 *
 * Row l of @p left_keys is row l of @p left_conditional (same for the right tables): the key
 * tables and the conditional tables are two column sets of the same rows. Computed as the
 * equality join's inner pairs (the candidates), the predicate evaluated once per candidate
 * (the conditional join's interpreter), the passing pairs kept; left, full, semi and anti
 * joins follow from which rows had a passing pair. So the cost is the equality join's plus
 * one predicate evaluation per candidate, however selective the predicate is.
 * Output order, as gcol_conditional_join(): left rows ascending, each row's matches in
 * ascending right order; a left or full join's unmatched left row appears once with -1 on
 * the right, in its place; a full join then appends (-1, row) for each right row no left row
 * matched, ascending; semi and anti joins give left rows ascending.
 * @param[in] left_keys Left key columns (at least one; the types gcol_join() takes).
 * @param[in] right_keys Right key columns, the same count and types.
 * @param[in] nulls Whether null keys match each other.
 * @param[in] left_conditional Columns the predicate's LEFT references read, as many rows as
 *                             @p left_keys.
 * @param[in] right_conditional Columns the RIGHT references read, as many rows as
 *                              @p right_keys.
 * @param[in] expr The expression.
 * @param[in] root A BOOL8 node.
 * @param[in] kind Any ::gcol_join_kind.
 * @param[out] left_map Left rows: INT32 when both tables have fewer than 2^31 rows, INT64
 *                      otherwise; NULL on failure.
 * @param[out] right_map Right rows (-1: none), same type; NULL allowed, and set to NULL, for
 *                       semi and anti joins.
 * @param[in] stream Stream of the work.
 * @param[in] mr Resource of the outputs, or NULL for the default.
 * @return ::GCOL_OK; the statuses of gcol_join() (key count, key types, bad @p nulls) and of
 *         gcol_expression_output_type(); ::GCOL_ERROR_TYPE_MISMATCH (the root is not BOOL8);
 *         ::GCOL_ERROR_SIZE_MISMATCH (a key table and its conditional table differ in rows);
 *         ::GCOL_ERROR_INVALID_ARGUMENT (NULL pointers, malformed tables, a bad @p kind);
 *         ::GCOL_ERROR_UNSUPPORTED (DICTIONARY32 columns); ::GCOL_ERROR_OUT_OF_MEMORY; a
 *         CUDA status.
 * @note Synchronizes @p stream (the equality join's, then each compaction's size). Temporary
 *       memory, for C candidates (the equality join's inner output) and P passing pairs:
 *       the equality join's own (its hash of the right keys), 2 maps of C indices (4 or 8
 *       bytes each) plus 1 byte a candidate, 8 bytes a passing pair, 1 byte a left row (all
 *       but inner) and a right row (full), and for inner, left and full joins 2 maps of P + U
 *       indices (U: unmatched left rows) with their sorting order and the sort's temporaries.
 *       A key repeated on both sides makes many candidates: C can be far larger than the
 *       output. The caller owns the maps.
 */
gcol_status gcol_mixed_join(gcol_table_view left_keys, gcol_table_view right_keys,
                            gcol_null_equality nulls, gcol_table_view left_conditional,
                            gcol_table_view right_conditional, const gcol_expression *expr,
                            int32_t root, gcol_join_kind kind, gcol_column **left_map,
                            gcol_column **right_map, gcol_stream stream, gcol_mr *mr);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_EXPRESSION_H */
