/*
 * The expression engine's internals, shared by the host compiler (expression_compile.c),
 * the kernels (expression.cu) and the host tests:
 *
 * - the tree as the builder stores it (gcol_expression's nodes);
 * - the flat program the compiler makes from it: a register machine whose instructions
 *   each write one of at most GCOL_EXPRESSION_MAX_SLOTS 64-bit slots (plus a validity
 *   bit per slot), in an order chosen so that the fewest slots are live at once
 *   (Sethi-Ullman numbering);
 * - the interpreter of one row (gcol_detail_expr_eval_row), a host/device inline function:
 *   the kernel runs it with the slots in shared memory, the host tests run the same code
 *   over host arrays, so the compiler and the operators' semantics are tested in CI.
 *
 * Slot values: signed integers, timestamps, durations and decimals sign-extended to 64
 * bits; unsigned integers zero-extended; BOOL8 as 0 or 1; FLOAT32 and FLOAT64 as the bits
 * of a double (a FLOAT32 value converted exactly; FLOAT32 operators compute in float).
 * A STRING value is a handle, (row << 8) | k: row `row` of program column k, a string
 * column or a string constant (a literal, row 0); the comparison or LIKE that reads it
 * resolves the handle to (pointer, length) through the column's offsets. Strings only flow
 * from their loads into the string opcodes (and IS_NULL / IS_VALID), which are opcodes of
 * their own, so that the numeric operators and their batch loops never see them.
 */
#ifndef GCOL_KERNELS_EXPRESSION_PROGRAM_H
#define GCOL_KERNELS_EXPRESSION_PROGRAM_H

#include <math.h>
#include <string.h>

#include "detail/aggregate.h"
#include "detail/like_match.h"
#include "gcol/expression.h"
#include "gcol/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the tree ---- */

typedef enum gcol_detail_expr_node_kind {
  GCOL_DETAIL_EXPR_NODE_COLUMN = 0,
  GCOL_DETAIL_EXPR_NODE_LITERAL = 1,
  GCOL_DETAIL_EXPR_NODE_UNARY = 2,
  GCOL_DETAIL_EXPR_NODE_BINARY = 3,
  GCOL_DETAIL_EXPR_NODE_CAST = 4
} gcol_detail_expr_node_kind;

typedef struct gcol_detail_expr_node {
  gcol_detail_expr_node_kind kind;
  gcol_expression_op op;     /* UNARY, BINARY */
  int32_t lhs;               /* UNARY, BINARY, CAST: operand node ids (lower than this one) */
  int32_t rhs;               /* BINARY */
  gcol_expression_side side; /* COLUMN */
  int32_t column;            /* COLUMN */
  gcol_data_type type;       /* LITERAL: its type; CAST: the target */
  bool literal_valid;        /* LITERAL */
  uint64_t literal_bits;     /* LITERAL: the slot value (see the file comment) */
  char *literal_bytes;       /* LITERAL of STRING, valid: its bytes (owned; NULL for "") */
  int64_t literal_size;      /* LITERAL of STRING: its length in bytes */
  char escape[8];            /* BINARY LIKE: the escape character ("" for none) */
} gcol_detail_expr_node;

struct gcol_expression {
  gcol_detail_expr_node *nodes;
  int32_t count;
  int32_t capacity;
};

/* ---- the program ---- */

/* Opcodes past the operators' own values. */
#define GCOL_DETAIL_EXPR_LOAD_COLUMN 100  /* slot dst = column imm at the row */
#define GCOL_DETAIL_EXPR_LOAD_LITERAL 101 /* slot dst = imm, valid */
#define GCOL_DETAIL_EXPR_LOAD_NULL 102    /* slot dst = 0, null */
#define GCOL_DETAIL_EXPR_CAST 103         /* slot dst = cast of slot a from type to out_type */
#define GCOL_DETAIL_EXPR_LOAD_STRING 104  /* slot dst = handle of string column imm at the row */
/* String comparisons: opcode STRING_COMPARE + (op - GCOL_EXPR_EQUAL) for EQUAL ..
 * NULL_EQUALS, over the handles in slots a and b. */
#define GCOL_DETAIL_EXPR_STRING_COMPARE 110
#define GCOL_DETAIL_EXPR_STRING_LIKE 117 /* slot dst = string a LIKE the pattern column imm */
/* A string handle: row @p row of program column @p column (see the file comment). */
#define GCOL_DETAIL_EXPR_STRING_HANDLE(column, row) (((uint64_t)(row) << 8) | (uint64_t)(column))
/* The reader kind of a string column or constant (not a gcol_detail_kind). */
#define GCOL_DETAIL_EXPR_KIND_STRING 100

/* One instruction: 16 bytes. Operators read slots a (and b) of type `type` and write slot
 * dst of type `out_type`. */
typedef struct gcol_detail_expr_instr {
  uint8_t opcode;   /* a gcol_expression_op or GCOL_DETAIL_EXPR_* above */
  uint8_t type;     /* operand type id (LOAD_COLUMN: the column's) */
  uint8_t out_type; /* result type id */
  uint8_t dst;
  uint8_t a;
  uint8_t b;
  uint16_t unused;
  uint64_t imm; /* LOAD_LITERAL: the value; LOAD_COLUMN: the program's column index */
} gcol_detail_expr_instr;

/* A column as the interpreter reads it: the shared element reader and the table it is in.
 * A STRING column or constant: reader.data is its offsets positioned at row 0, reader.width
 * their width (4 or 8), reader.kind GCOL_DETAIL_EXPR_KIND_STRING, reader.mask and
 * mask_offset its validity as for any column; chars the bytes the offsets index. A LIKE
 * pattern is a constant whose "chars" are its compiled int32 items (offsets in items). */
typedef struct gcol_detail_expr_column {
  gcol_detail_reader reader;
  int32_t side; /* gcol_expression_side: which row index reads it */
  int32_t unused;
  const char *chars; /* STRING: the chars; else NULL */
} gcol_detail_expr_column;

typedef struct gcol_detail_expr_program {
  int32_t num_instructions;
  int32_t num_slots; /* slots the program uses (>= 1); the result is in slot 0 */
  int32_t num_columns;
  bool can_make_nulls;     /* an instruction may give null from valid operands */
  bool has_strings;        /* an instruction has a string opcode (LOAD_STRING and past it) */
  gcol_data_type out_type; /* the root's type */
  gcol_detail_expr_instr instructions[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
  /* The table column each program column reads, or (column_node[k] >= 0) the constant it
   * is: a STRING literal node's bytes, or a LIKE node's compiled pattern. */
  gcol_expression_side column_side[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
  int32_t column_index[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
  int32_t column_node[GCOL_EXPRESSION_MAX_INSTRUCTIONS];
  int32_t num_constants; /* program columns that are constants */
} gcol_detail_expr_program;

/*
 * Type-checks the tree under @p root against the tables' column types and compiles it.
 * Errors name the node (see gcol_expression_output_type()).
 */
gcol_status gcol_detail_expr_compile(const gcol_expression *expr, int32_t root,
                                     const gcol_data_type *left_types, int32_t num_left,
                                     const gcol_data_type *right_types, int32_t num_right,
                                     gcol_detail_expr_program *out);

/* The slot value of a fixed-width value stored at @p storage with type @p id. */
uint64_t gcol_detail_expr_slot_from_storage(gcol_type_id id, const void *storage);

/*
 * The program's string constants (its columns k with column_node[k] >= 0) as one host
 * block, to copy to wherever the interpreter runs: constant k at at[k] (8-aligned): two
 * int64 offsets {0, size} then its bytes (a literal) or int32 items (a LIKE pattern). *out
 * is malloc'ed (NULL and *size 0 when there is none); at has num_columns entries.
 */
gcol_status gcol_detail_expr_constants(const gcol_expression *expr,
                                       const gcol_detail_expr_program *program, unsigned char **out,
                                       int64_t *size, int64_t *at);

/* The descriptor of a constant whose block (see gcol_detail_expr_constants()) is at @p base
 * (host or device memory) + @p at. */
gcol_detail_expr_column gcol_detail_expr_constant_column(const unsigned char *base, int64_t at);

/* The descriptor of a column view: a STRING one as the column comment says (its offsets
 * positioned at the view's first row; INT32 or INT64), else the fixed-width reader. A mask
 * is dropped when the view has no nulls. */
gcol_detail_expr_column gcol_detail_expr_column_make(gcol_column_view view, int32_t side);

#ifdef __cplusplus
}
#endif

/* ---- the interpreter ---- */

typedef enum gcol_detail_expr_kind {
  GCOL_DETAIL_EXPR_SIGNED = 0,
  GCOL_DETAIL_EXPR_UNSIGNED = 1,
  GCOL_DETAIL_EXPR_F32 = 2,
  GCOL_DETAIL_EXPR_F64 = 3,
  GCOL_DETAIL_EXPR_BOOL = 4
} gcol_detail_expr_kind;

GCOL_HD_INLINE gcol_detail_expr_kind gcol_detail_expr_kind_of(int type) {
  gcol_type_id const id = (gcol_type_id)type;
  if (gcol_type_is_unsigned_integral(id)) return GCOL_DETAIL_EXPR_UNSIGNED;
  if (id == GCOL_FLOAT32) return GCOL_DETAIL_EXPR_F32;
  if (id == GCOL_FLOAT64) return GCOL_DETAIL_EXPR_F64;
  if (id == GCOL_BOOL8) return GCOL_DETAIL_EXPR_BOOL;
  return GCOL_DETAIL_EXPR_SIGNED;
}

/* An integer slot value wrapped to the width of @p type (two's complement). */
GCOL_HD_INLINE uint64_t gcol_detail_expr_wrap(int type, uint64_t v) {
  gcol_type_id const id = (gcol_type_id)type;
  size_t const w = gcol_type_size(id);
  if (id == GCOL_BOOL8) return v != 0 ? 1u : 0u;
  if (gcol_type_is_unsigned_integral(id)) {
    return w == 1   ? (uint64_t)(uint8_t)v
           : w == 2 ? (uint64_t)(uint16_t)v
           : w == 4 ? (uint64_t)(uint32_t)v
                    : v;
  }
  return w == 1   ? (uint64_t)(int64_t)(int8_t)(uint8_t)v
         : w == 2 ? (uint64_t)(int64_t)(int16_t)(uint16_t)v
         : w == 4 ? (uint64_t)(int64_t)(int32_t)(uint32_t)v
                  : v;
}

/* Reads row @p row of @p c as a slot value (floats as the bits of a double). */
GCOL_HD_INLINE uint64_t gcol_detail_expr_load(const gcol_detail_expr_column *c, int64_t row) {
  if (c->reader.kind == GCOL_DETAIL_KIND_FLOAT) {
    return gcol_detail_f64_bits(gcol_detail_reader_f64(c->reader, row));
  }
  return gcol_detail_reader_bits(c->reader, row);
}

/* 2^bits as a double (bits <= 64). */
GCOL_HD_INLINE double gcol_detail_expr_pow2(int bits) {
  double p = 1.0;
  for (int k = 0; k < bits; ++k) p *= 2.0;
  return p;
}

/* Converts slot value @p v of type @p from to type @p to; *valid = false when a float is
 * NaN or out of the integer target's range. */
GCOL_HD_INLINE uint64_t gcol_detail_expr_cast(int from, int to, uint64_t v, bool *valid) {
  gcol_detail_expr_kind const fk = gcol_detail_expr_kind_of(from);
  gcol_detail_expr_kind const tk = gcol_detail_expr_kind_of(to);
  bool const from_float = fk == GCOL_DETAIL_EXPR_F32 || fk == GCOL_DETAIL_EXPR_F64;
  *valid = true;
  if (tk == GCOL_DETAIL_EXPR_BOOL) {
    return from_float ? (gcol_detail_f64_from_bits(v) != 0.0 ? 1u : 0u) : (v != 0 ? 1u : 0u);
  }
  if (tk == GCOL_DETAIL_EXPR_F64) {
    if (from_float) return v;
    return gcol_detail_f64_bits(fk == GCOL_DETAIL_EXPR_SIGNED ? (double)(int64_t)v : (double)v);
  }
  if (tk == GCOL_DETAIL_EXPR_F32) {
    float f;
    if (from_float) {
      f = (float)gcol_detail_f64_from_bits(v);
    } else {
      f = fk == GCOL_DETAIL_EXPR_SIGNED ? (float)(int64_t)v : (float)v;
    }
    return gcol_detail_f64_bits((double)f);
  }
  if (from_float) {
    double const t = trunc(gcol_detail_f64_from_bits(v));
    int const bits = (int)gcol_type_size((gcol_type_id)to) * 8;
    if (tk == GCOL_DETAIL_EXPR_UNSIGNED) {
      if (!(t >= 0.0 && t < gcol_detail_expr_pow2(bits))) {
        *valid = false;
        return 0;
      }
      return (uint64_t)t;
    }
    double const half = gcol_detail_expr_pow2(bits - 1);
    if (!(t >= -half && t < half)) {
      *valid = false;
      return 0;
    }
    return (uint64_t)(int64_t)t;
  }
  return gcol_detail_expr_wrap(to, v);
}

/* A comparison's result (0 or 1) of slot values @p x and @p y of type @p type. */
GCOL_HD_INLINE uint64_t gcol_detail_expr_compare(int op, int type, uint64_t x, uint64_t y) {
  gcol_detail_expr_kind const k = gcol_detail_expr_kind_of(type);
  bool lt, eq;
  if (k == GCOL_DETAIL_EXPR_F32 || k == GCOL_DETAIL_EXPR_F64) {
    double const a = gcol_detail_f64_from_bits(x), b = gcol_detail_f64_from_bits(y);
    switch (op) {
      case GCOL_EXPR_EQUAL:
      case GCOL_EXPR_NULL_EQUALS:
        return a == b;
      case GCOL_EXPR_NOT_EQUAL:
        return a != b;
      case GCOL_EXPR_LESS:
        return a < b;
      case GCOL_EXPR_LESS_EQUAL:
        return a <= b;
      case GCOL_EXPR_GREATER:
        return a > b;
      default:
        return a >= b;
    }
  }
  if (k == GCOL_DETAIL_EXPR_SIGNED) {
    lt = (int64_t)x < (int64_t)y;
  } else {
    lt = x < y;
  }
  eq = x == y;
  switch (op) {
    case GCOL_EXPR_EQUAL:
    case GCOL_EXPR_NULL_EQUALS:
      return eq;
    case GCOL_EXPR_NOT_EQUAL:
      return !eq;
    case GCOL_EXPR_LESS:
      return lt;
    case GCOL_EXPR_LESS_EQUAL:
      return lt || eq;
    case GCOL_EXPR_GREATER:
      return !lt && !eq;
    default:
      return !lt;
  }
}

/* ADD .. MOD on slot values of type @p type; *valid = false for an integer division by 0. */
GCOL_HD_INLINE uint64_t gcol_detail_expr_arith(int op, int type, uint64_t x, uint64_t y,
                                               bool *valid) {
  gcol_detail_expr_kind const k = gcol_detail_expr_kind_of(type);
  *valid = true;
  if (k == GCOL_DETAIL_EXPR_F32) {
    float const a = (float)gcol_detail_f64_from_bits(x), b = (float)gcol_detail_f64_from_bits(y);
    float r;
    switch (op) {
      case GCOL_EXPR_ADD:
        r = a + b;
        break;
      case GCOL_EXPR_SUB:
        r = a - b;
        break;
      case GCOL_EXPR_MUL:
        r = a * b;
        break;
      case GCOL_EXPR_DIV:
        r = a / b;
        break;
      default:
        r = fmodf(a, b);
        break;
    }
    return gcol_detail_f64_bits((double)r);
  }
  if (k == GCOL_DETAIL_EXPR_F64) {
    double const a = gcol_detail_f64_from_bits(x), b = gcol_detail_f64_from_bits(y);
    double r;
    switch (op) {
      case GCOL_EXPR_ADD:
        r = a + b;
        break;
      case GCOL_EXPR_SUB:
        r = a - b;
        break;
      case GCOL_EXPR_MUL:
        r = a * b;
        break;
      case GCOL_EXPR_DIV:
        r = a / b;
        break;
      default:
        r = fmod(a, b);
        break;
    }
    return gcol_detail_f64_bits(r);
  }
  uint64_t r;
  switch (op) {
    case GCOL_EXPR_ADD:
      r = x + y;
      break;
    case GCOL_EXPR_SUB:
      r = x - y;
      break;
    case GCOL_EXPR_MUL:
      r = x * y;
      break;
    default:
      if (y == 0) {
        *valid = false;
        return 0;
      }
      if (k == GCOL_DETAIL_EXPR_SIGNED) {
        if ((int64_t)y == -1) {
          r = op == GCOL_EXPR_DIV ? (uint64_t)0 - x : 0; /* MIN / -1 wraps, MIN % -1 is 0 */
        } else {
          r = op == GCOL_EXPR_DIV ? (uint64_t)((int64_t)x / (int64_t)y)
                                  : (uint64_t)((int64_t)x % (int64_t)y);
        }
      } else {
        r = op == GCOL_EXPR_DIV ? x / y : x % y;
      }
      break;
  }
  return gcol_detail_expr_wrap(type, r);
}

/* A unary operator (not IS_NULL / IS_VALID) on a valid slot value. */
GCOL_HD_INLINE uint64_t gcol_detail_expr_unary(int op, int type, uint64_t x) {
  gcol_detail_expr_kind const k = gcol_detail_expr_kind_of(type);
  if (op == GCOL_EXPR_NOT) return x != 0 ? 0u : 1u;
  if (k == GCOL_DETAIL_EXPR_F32) {
    float const a = (float)gcol_detail_f64_from_bits(x);
    return gcol_detail_f64_bits((double)(op == GCOL_EXPR_NEGATE ? -a : fabsf(a)));
  }
  if (k == GCOL_DETAIL_EXPR_F64) {
    double const a = gcol_detail_f64_from_bits(x);
    return gcol_detail_f64_bits(op == GCOL_EXPR_NEGATE ? -a : fabs(a));
  }
  if (k == GCOL_DETAIL_EXPR_UNSIGNED) return x; /* ABS; NEGATE is refused for unsigned */
  if (op == GCOL_EXPR_NEGATE || (int64_t)x < 0) return gcol_detail_expr_wrap(type, (uint64_t)0 - x);
  return x;
}

/* The bytes of string handle @p h (see the file comment). */
GCOL_HD_INLINE void gcol_detail_expr_string(const gcol_detail_expr_column *cols, uint64_t h,
                                            const char **data, int64_t *size) {
  const gcol_detail_expr_column *c = &cols[h & 255u];
  int64_t const row = (int64_t)(h >> 8);
  int64_t b, e;
  if (c->reader.width == 4) {
    b = ((const int32_t *)c->reader.data)[row];
    e = ((const int32_t *)c->reader.data)[row + 1];
  } else {
    b = ((const int64_t *)c->reader.data)[row];
    e = ((const int64_t *)c->reader.data)[row + 1];
  }
  *data = c->chars + b;
  *size = e - b;
}

/* String opcode @p op (STRING_COMPARE + k or STRING_LIKE) on handles x, y with validity vx,
 * vy (y unused by LIKE, whose pattern is column imm): the value, and *vr its validity. */
GCOL_HD_INLINE uint64_t gcol_detail_expr_string_op(int op, uint64_t imm,
                                                   const gcol_detail_expr_column *cols, uint64_t x,
                                                   bool vx, uint64_t y, bool vy, bool *vr) {
  const char *xs, *ys;
  int64_t xn, yn;
  if (op == GCOL_DETAIL_EXPR_STRING_LIKE) {
    *vr = vx;
    if (!vx) return 0u;
    gcol_detail_expr_string(cols, x, &xs, &xn);
    gcol_detail_expr_string(cols, imm, &ys, &yn); /* the pattern: row 0 of column imm */
    return gcol_detail_like_match(xs, xn, (const int32_t *)ys, yn) ? 1u : 0u;
  }
  int const cmp = op - GCOL_DETAIL_EXPR_STRING_COMPARE + GCOL_EXPR_EQUAL;
  if (cmp == GCOL_EXPR_NULL_EQUALS && !(vx && vy)) {
    *vr = true;
    return vx == vy ? 1u : 0u;
  }
  *vr = vx && vy;
  if (!*vr) return 0u;
  gcol_detail_expr_string(cols, x, &xs, &xn);
  gcol_detail_expr_string(cols, y, &ys, &yn);
  {
    int const c =
        gcol_string_ref_compare(gcol_string_ref_make(xs, xn), gcol_string_ref_make(ys, yn));
    uint32_t const bit = c < 0 ? 1u : c == 0 ? 2u : 4u;
    uint32_t const mask = cmp == GCOL_EXPR_EQUAL || cmp == GCOL_EXPR_NULL_EQUALS ? 2u
                          : cmp == GCOL_EXPR_NOT_EQUAL                           ? 5u
                          : cmp == GCOL_EXPR_LESS                                ? 1u
                          : cmp == GCOL_EXPR_LESS_EQUAL                          ? 3u
                          : cmp == GCOL_EXPR_GREATER                             ? 4u
                                                                                 : 6u;
    return (bit & mask) != 0 ? 1u : 0u;
  }
}

/* The string opcodes (LOAD_STRING and those past it): as gcol_detail_expr_step(). Kept out of
 * the numeric step: the callers run it only when their `strings` argument is true (a
 * template constant in the kernels), so kernels for programs without strings hold none of
 * this code and keep the numeric paths' registers. */
GCOL_HD_INLINE void gcol_detail_expr_string_step(gcol_detail_expr_instr in,
                                                 const gcol_detail_expr_column *cols, int64_t row,
                                                 int64_t right_row, uint64_t *slots, int64_t stride,
                                                 bool track_nulls, uint32_t *valid) {
  uint64_t r;
  bool vr = true;
  if (in.opcode == GCOL_DETAIL_EXPR_LOAD_STRING) {
    const gcol_detail_expr_column *c = &cols[in.imm];
    int64_t const at = c->side == GCOL_EXPRESSION_RIGHT ? right_row : row;
    r = GCOL_DETAIL_EXPR_STRING_HANDLE(in.imm, at);
    if (track_nulls) vr = gcol_detail_reader_valid(c->reader, at);
  } else {
    uint64_t const x = slots[(int64_t)in.a * stride];
    bool const vx = !track_nulls || ((*valid >> in.a) & 1u) != 0;
    uint64_t const y = slots[(int64_t)in.b * stride];
    bool const vy = !track_nulls || ((*valid >> in.b) & 1u) != 0;
    r = gcol_detail_expr_string_op(in.opcode, in.imm, cols, x, vx, y, vy, &vr);
  }
  slots[(int64_t)in.dst * stride] = r;
  *valid = (*valid & ~(1u << in.dst)) | ((vr ? 1u : 0u) << in.dst);
}

/* The numeric instructions (every opcode below GCOL_DETAIL_EXPR_LOAD_STRING): as
 * gcol_detail_expr_step(). */
GCOL_HD_INLINE void gcol_detail_expr_numeric_step(gcol_detail_expr_instr in,
                                                  const gcol_detail_expr_column *cols, int64_t row,
                                                  int64_t right_row, uint64_t *slots,
                                                  int64_t stride, bool track_nulls,
                                                  uint32_t *valid) {
  uint64_t r = 0;
  bool vr = true;
  int const op = in.opcode;
  if (op == GCOL_DETAIL_EXPR_LOAD_COLUMN) {
    const gcol_detail_expr_column *c = &cols[in.imm];
    int64_t const at = c->side == GCOL_EXPRESSION_RIGHT ? right_row : row;
    r = gcol_detail_expr_load(c, at);
    if (track_nulls) {
      vr = gcol_detail_reader_valid(c->reader, at);
      if (!vr) r = 0;
    }
  } else if (op == GCOL_DETAIL_EXPR_LOAD_LITERAL) {
    r = in.imm;
  } else if (op == GCOL_DETAIL_EXPR_LOAD_NULL) {
    vr = false;
  } else {
    uint64_t const x = slots[(int64_t)in.a * stride];
    bool const vx = !track_nulls || ((*valid >> in.a) & 1u) != 0;
    if (op == GCOL_DETAIL_EXPR_CAST) {
      if (vx) {
        r = gcol_detail_expr_cast(in.type, in.out_type, x, &vr);
      } else {
        vr = false;
      }
    } else if (op == GCOL_EXPR_IS_NULL || op == GCOL_EXPR_IS_VALID) {
      r = (op == GCOL_EXPR_IS_VALID) == vx ? 1u : 0u;
    } else if (op <= GCOL_EXPR_IS_VALID) {
      vr = vx;
      r = vx ? gcol_detail_expr_unary(op, in.type, x) : 0u;
    } else {
      uint64_t const y = slots[(int64_t)in.b * stride];
      bool const vy = !track_nulls || ((*valid >> in.b) & 1u) != 0;
      if (op == GCOL_EXPR_NULL_EQUALS) {
        r = vx && vy ? gcol_detail_expr_compare(op, in.type, x, y) : (vx == vy ? 1u : 0u);
      } else if (op == GCOL_EXPR_NULL_LOGICAL_AND) {
        bool const known_false = (vx && x == 0) || (vy && y == 0);
        vr = known_false || (vx && vy);
        r = !known_false && vr ? 1u : 0u;
      } else if (op == GCOL_EXPR_NULL_LOGICAL_OR) {
        bool const known_true = (vx && x != 0) || (vy && y != 0);
        vr = known_true || (vx && vy);
        r = known_true ? 1u : 0u;
      } else if (!(vx && vy)) {
        vr = false;
      } else if (op == GCOL_EXPR_LOGICAL_AND) {
        r = (x != 0 && y != 0) ? 1u : 0u;
      } else if (op == GCOL_EXPR_LOGICAL_OR) {
        r = (x != 0 || y != 0) ? 1u : 0u;
      } else if (op >= GCOL_EXPR_EQUAL) {
        r = gcol_detail_expr_compare(op, in.type, x, y);
      } else {
        r = gcol_detail_expr_arith(op, in.type, x, y, &vr);
      }
    }
  }
  slots[(int64_t)in.dst * stride] = r;
  *valid = (*valid & ~(1u << in.dst)) | ((vr ? 1u : 0u) << in.dst);
}

/*
 * Runs one instruction for row @p row of the left table and @p right_row of the right one
 * (a one-table program passes the same row twice). Slot s lives at slots[s * stride]; bit s
 * of *valid is its validity. With @p track_nulls false the columns are taken to have no
 * nulls and validity is not tracked (the caller checked that no instruction can make one).
 * With @p strings false the program has no string opcode (program.has_strings): the kernels
 * pass it as a template constant, so that their numeric instantiations hold no string code
 * at all (their registers and code are those of the interpreter without strings).
 */
GCOL_HD_INLINE void gcol_detail_expr_step(gcol_detail_expr_instr in,
                                          const gcol_detail_expr_column *cols, int64_t row,
                                          int64_t right_row, uint64_t *slots, int64_t stride,
                                          bool track_nulls, bool strings, uint32_t *valid) {
  if (strings && in.opcode >= GCOL_DETAIL_EXPR_LOAD_STRING) {
    gcol_detail_expr_string_step(in, cols, row, right_row, slots, stride, track_nulls, valid);
  } else {
    gcol_detail_expr_numeric_step(in, cols, row, right_row, slots, stride, track_nulls, valid);
  }
}

/* ---- one instruction over a batch of rows ---- */

/* Full unrolling of the batch loops below in device code (the batch size is a constant
 * there after inlining); nothing for host compilers (nvcc's host pass included). */
#ifdef __CUDA_ARCH__
#define GCOL_DETAIL_EXPR_UNROLL _Pragma("unroll")
#else
#define GCOL_DETAIL_EXPR_UNROLL
#endif

/* The batch loop: the statement (the arguments) once for each row r < n of the batch.
 * Variadic: the statement may hold commas. No per-row guard: the caller passes only rows
 * that exist (a partial batch repeats the last row), so that the device code is straight:
 * all n loads of a column issue back to back, then their n slot stores. */
#define GCOL_DETAIL_EXPR_FOR_ROWS(...) \
  GCOL_DETAIL_EXPR_UNROLL              \
  for (int r = 0; r < n; ++r) {        \
    __VA_ARGS__;                       \
  }

/* Loads column reader @p rd (no mask) into slot @p d for the batch; false for a reader kind
 * it does not take (then the caller runs the generic step). One typed loop per (kind, width):
 * the element type is decided once for the batch, not once per row. */
GCOL_HD_INLINE bool gcol_detail_expr_load_rows(gcol_detail_reader rd, const int64_t *row, int n,
                                               uint64_t *d, int64_t row_stride) {
  const void *const p = rd.data;
  if (rd.kind == GCOL_DETAIL_KIND_FLOAT) {
    if (rd.width == 8) { /* the double's bits are the slot value */
      GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] = ((const uint64_t *)p)[row[r]]);
    } else {
      GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] =
                                    gcol_detail_f64_bits((double)((const float *)p)[row[r]]));
    }
    return true;
  }
  if (rd.kind == GCOL_DETAIL_KIND_SIGNED) {
    switch (rd.width) {
      case 1:
        GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] =
                                      (uint64_t)(int64_t)((const int8_t *)p)[row[r]]);
        return true;
      case 2:
        GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] =
                                      (uint64_t)(int64_t)((const int16_t *)p)[row[r]]);
        return true;
      case 4:
        GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] =
                                      (uint64_t)(int64_t)((const int32_t *)p)[row[r]]);
        return true;
      default:
        GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] = ((const uint64_t *)p)[row[r]]);
        return true;
    }
  }
  if (rd.kind == GCOL_DETAIL_KIND_UNSIGNED) {
    switch (rd.width) {
      case 1:
        GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] = ((const uint8_t *)p)[row[r]]);
        return true;
      case 2:
        GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] = ((const uint16_t *)p)[row[r]]);
        return true;
      case 4:
        GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] = ((const uint32_t *)p)[row[r]]);
        return true;
      default:
        GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] = ((const uint64_t *)p)[row[r]]);
        return true;
    }
  }
  if (rd.kind == GCOL_DETAIL_KIND_BOOL) {
    GCOL_DETAIL_EXPR_FOR_ROWS(d[r * row_stride] = ((const uint8_t *)p)[row[r]] != 0 ? 1u : 0u);
    return true;
  }
  return false;
}

/* Comparison results as a mask over {less, equal, greater, unordered} (bits 0..3): the
 * operator is decoded once per batch and each row selects its bit. NOT_EQUAL holds for
 * unordered (NaN) operands, the ordered comparisons do not (as gcol_detail_expr_compare). */
GCOL_HD_INLINE uint32_t gcol_detail_expr_compare_mask(int op) {
  switch (op) {
    case GCOL_EXPR_EQUAL:
    case GCOL_EXPR_NULL_EQUALS:
      return 2u;
    case GCOL_EXPR_NOT_EQUAL:
      return 1u | 4u | 8u;
    case GCOL_EXPR_LESS:
      return 1u;
    case GCOL_EXPR_LESS_EQUAL:
      return 1u | 2u;
    case GCOL_EXPR_GREATER:
      return 4u;
    default:
      return 4u | 2u;
  }
}

/* A binary operator over the batch: the statement (the arguments) sets res from operands x
 * and y (slots a and b), and res goes to slot d; with nulls tracked, the result is valid
 * where both operands are (0 under nulls, as the step). */
#define GCOL_DETAIL_EXPR_BINARY_ROWS(...)                            \
  GCOL_DETAIL_EXPR_FOR_ROWS({                                        \
    uint64_t const x = sa[r * row_stride], y = sb[r * row_stride];   \
    uint64_t res;                                                    \
    __VA_ARGS__;                                                     \
    if (track_nulls) {                                               \
      uint32_t const v = valid[r];                                   \
      bool const ok = ((v >> in.a) & (v >> in.b) & 1u) != 0;         \
      res = ok ? res : 0u;                                           \
      valid[r] = (v & ~(1u << in.dst)) | ((ok ? 1u : 0u) << in.dst); \
    }                                                                \
    d[r * row_stride] = res;                                         \
  })

/* Runs binary instruction @p in over the batch when its (operator, type) has a typed loop:
 * float and double +, -, *, /; integer +, -, * (wrapped to the type's width by shifts);
 * every comparison; AND and OR. Returns false for the rest (integer / and %, fmod, and with
 * nulls tracked the null-aware NULL_EQUALS / NULL_LOGICAL_*), which take the generic step. */
GCOL_HD_INLINE bool gcol_detail_expr_binary_rows(gcol_detail_expr_instr in, int n, uint64_t *slots,
                                                 int64_t row_stride, int64_t slot_stride,
                                                 bool track_nulls, uint32_t *valid) {
  int const op = in.opcode;
  const uint64_t *const sa = slots + (int64_t)in.a * slot_stride;
  const uint64_t *const sb = slots + (int64_t)in.b * slot_stride;
  uint64_t *const d = slots + (int64_t)in.dst * slot_stride;
  gcol_detail_expr_kind const k = gcol_detail_expr_kind_of(in.type);
  if (op >= GCOL_EXPR_ADD && op <= GCOL_EXPR_DIV) {
    if (k == GCOL_DETAIL_EXPR_F64) {
#define GCOL_DETAIL_EXPR_F64_ROWS(OPERATOR)                                          \
  GCOL_DETAIL_EXPR_BINARY_ROWS(res = gcol_detail_f64_bits(gcol_detail_f64_from_bits( \
                                   x) OPERATOR gcol_detail_f64_from_bits(y)))
      switch (op) {
        case GCOL_EXPR_ADD:
          GCOL_DETAIL_EXPR_F64_ROWS(+);
          break;
        case GCOL_EXPR_SUB:
          GCOL_DETAIL_EXPR_F64_ROWS(-);
          break;
        case GCOL_EXPR_MUL:
          GCOL_DETAIL_EXPR_F64_ROWS(*);
          break;
        default:
          GCOL_DETAIL_EXPR_F64_ROWS(/);
          break;
      }
#undef GCOL_DETAIL_EXPR_F64_ROWS
      return true;
    }
    if (k == GCOL_DETAIL_EXPR_F32) {
#define GCOL_DETAIL_EXPR_F32_ROWS(OPERATOR)                                                   \
  GCOL_DETAIL_EXPR_BINARY_ROWS(                                                               \
      res = gcol_detail_f64_bits((double)((float)gcol_detail_f64_from_bits(x) OPERATOR(float) \
                                              gcol_detail_f64_from_bits(y))))
      switch (op) {
        case GCOL_EXPR_ADD:
          GCOL_DETAIL_EXPR_F32_ROWS(+);
          break;
        case GCOL_EXPR_SUB:
          GCOL_DETAIL_EXPR_F32_ROWS(-);
          break;
        case GCOL_EXPR_MUL:
          GCOL_DETAIL_EXPR_F32_ROWS(*);
          break;
        default:
          GCOL_DETAIL_EXPR_F32_ROWS(/);
          break;
      }
#undef GCOL_DETAIL_EXPR_F32_ROWS
      return true;
    }
    if (op == GCOL_EXPR_DIV || k == GCOL_DETAIL_EXPR_BOOL) return false; /* division by 0 */
    {
      /* wrapping to the width: shift the value to the top and back (arithmetic for signed) */
      int const sh = 64 - 8 * (int)gcol_type_size((gcol_type_id)in.type);
      bool const sign = k == GCOL_DETAIL_EXPR_SIGNED;
#define GCOL_DETAIL_EXPR_INT_ROWS(OPERATOR)              \
  GCOL_DETAIL_EXPR_BINARY_ROWS({                         \
    uint64_t const t = (x OPERATOR y) << sh;             \
    res = sign ? (uint64_t)((int64_t)t >> sh) : t >> sh; \
  })
      switch (op) {
        case GCOL_EXPR_ADD:
          GCOL_DETAIL_EXPR_INT_ROWS(+);
          break;
        case GCOL_EXPR_SUB:
          GCOL_DETAIL_EXPR_INT_ROWS(-);
          break;
        default:
          GCOL_DETAIL_EXPR_INT_ROWS(*);
          break;
      }
#undef GCOL_DETAIL_EXPR_INT_ROWS
      return true;
    }
  }
  if (op >= GCOL_EXPR_EQUAL && op <= GCOL_EXPR_NULL_EQUALS) {
    uint32_t const m = gcol_detail_expr_compare_mask(op);
    if (op == GCOL_EXPR_NULL_EQUALS && track_nulls) return false;
    if (k == GCOL_DETAIL_EXPR_F32 || k == GCOL_DETAIL_EXPR_F64) {
      GCOL_DETAIL_EXPR_BINARY_ROWS({
        double const fx = gcol_detail_f64_from_bits(x), fy = gcol_detail_f64_from_bits(y);
        uint32_t const c = fx < fy ? 1u : fx == fy ? 2u : fx > fy ? 4u : 8u;
        res = (c & m) != 0 ? 1u : 0u;
      });
    } else if (k == GCOL_DETAIL_EXPR_SIGNED) {
      GCOL_DETAIL_EXPR_BINARY_ROWS({
        uint32_t const c = (int64_t)x < (int64_t)y ? 1u : x == y ? 2u : 4u;
        res = (c & m) != 0 ? 1u : 0u;
      });
    } else {
      GCOL_DETAIL_EXPR_BINARY_ROWS({
        uint32_t const c = x < y ? 1u : x == y ? 2u : 4u;
        res = (c & m) != 0 ? 1u : 0u;
      });
    }
    return true;
  }
  /* AND and OR; without nulls the Kleene forms are the plain ones */
  if (op == GCOL_EXPR_LOGICAL_AND || (op == GCOL_EXPR_NULL_LOGICAL_AND && !track_nulls)) {
    GCOL_DETAIL_EXPR_BINARY_ROWS(res = (x != 0 && y != 0) ? 1u : 0u);
    return true;
  }
  if (op == GCOL_EXPR_LOGICAL_OR || (op == GCOL_EXPR_NULL_LOGICAL_OR && !track_nulls)) {
    GCOL_DETAIL_EXPR_BINARY_ROWS(res = (x != 0 || y != 0) ? 1u : 0u);
    return true;
  }
  return false;
}

/*
 * Runs instruction @p in for a batch of @p n rows of a one-table program: batch row r is
 * table row row[r] (every one a row of the table: a partial batch repeats a row), its slot s at
 * slots[s * slot_stride + r * row_stride], its validity bits in valid[r] (as
 * gcol_detail_expr_step(), which gives the same values and validity).
 *
 * Why: the interpreter's cost is its dispatch, and gcol_detail_expr_step() dispatches on the
 * opcode, the type and (for a load) the column's kind and width once per row. Here the
 * common instructions (loads of columns without a mask, literals, arithmetic, comparisons,
 * logic) are decoded once for the batch into a typed loop whose per-row work is the
 * operation itself; the rest run the generic step row by row.
 */
GCOL_HD_INLINE void gcol_detail_expr_step_rows(gcol_detail_expr_instr in,
                                               const gcol_detail_expr_column *cols,
                                               const int64_t *row, int n, uint64_t *slots,
                                               int64_t row_stride, int64_t slot_stride,
                                               bool track_nulls, bool strings, uint32_t *valid) {
  int const op = in.opcode;
  uint64_t *const d = slots + (int64_t)in.dst * slot_stride;
  bool done = false;
  if (op == GCOL_DETAIL_EXPR_LOAD_COLUMN) {
    gcol_detail_reader const rd = cols[in.imm].reader;
    done = rd.mask == NULL && gcol_detail_expr_load_rows(rd, row, n, d, row_stride);
    if (done && track_nulls) {
      GCOL_DETAIL_EXPR_FOR_ROWS(valid[r] |= 1u << in.dst);
    }
  } else if (op == GCOL_DETAIL_EXPR_LOAD_LITERAL) {
    GCOL_DETAIL_EXPR_FOR_ROWS({
      d[r * row_stride] = in.imm;
      if (track_nulls) valid[r] |= 1u << in.dst;
    });
    done = true;
  } else if (op >= GCOL_EXPR_ADD && op <= GCOL_EXPR_NULL_LOGICAL_OR) {
    done = gcol_detail_expr_binary_rows(in, n, slots, row_stride, slot_stride, track_nulls, valid);
  }
  if (!done && strings && op >= GCOL_DETAIL_EXPR_LOAD_STRING) {
    GCOL_DETAIL_EXPR_FOR_ROWS(gcol_detail_expr_string_step(
        in, cols, row[r], row[r], slots + r * row_stride, slot_stride, track_nulls, &valid[r]));
  } else if (!done) {
    GCOL_DETAIL_EXPR_FOR_ROWS(gcol_detail_expr_numeric_step(
        in, cols, row[r], row[r], slots + r * row_stride, slot_stride, track_nulls, &valid[r]));
  }
}

/* Runs the program's @p n instructions for one row (as gcol_detail_expr_step()); the result
 * is slot 0. */
GCOL_HD_INLINE void gcol_detail_expr_eval_row(const gcol_detail_expr_instr *ins, int32_t n,
                                              const gcol_detail_expr_column *cols, int64_t row,
                                              int64_t right_row, uint64_t *slots, int64_t stride,
                                              bool track_nulls, bool strings, uint64_t *out_value,
                                              bool *out_valid) {
  uint32_t valid = 0;
  for (int32_t k = 0; k < n; ++k) {
    gcol_detail_expr_step(ins[k], cols, row, right_row, slots, stride, track_nulls, strings,
                          &valid);
  }
  *out_value = slots[0];
  *out_valid = !track_nulls || (valid & 1u) != 0;
}

/* ---- conditional joins: the work of one item, shared by the kernels and the host tests ---- */

/* Left row i's right rows in `parts` chunks of `chunk` rows; item = i * parts + p, so items in
 * order are pairs in (left, right) order. */
typedef struct gcol_detail_join_shape {
  int64_t left_rows;
  int64_t right_rows;
  int64_t parts;
  int64_t chunk;
} gcol_detail_join_shape;

/* One chunk per left row from @p target_items left rows up; below, enough chunks of at least
 * @p min_chunk right rows for about @p target_items items (no empty last chunk). */
GCOL_HD_INLINE gcol_detail_join_shape gcol_detail_join_shape_make(int64_t nl, int64_t nr,
                                                                  int64_t target_items,
                                                                  int64_t min_chunk) {
  gcol_detail_join_shape shape;
  int64_t parts = 1;
  shape.left_rows = nl;
  shape.right_rows = nr;
  if (nl > 0 && nl < target_items && nr > min_chunk) {
    int64_t const want = (target_items + nl - 1) / nl;
    int64_t const most = (nr + min_chunk - 1) / min_chunk;
    parts = want < most ? want : most;
  }
  shape.chunk = nr > 0 ? (nr + parts - 1) / parts : 1;
  shape.parts = nr > 0 ? (nr + shape.chunk - 1) / shape.chunk : 1;
  return shape;
}

/* True when the predicate program holds for (left row i, right row j). */
GCOL_HD_INLINE bool gcol_detail_join_pair_matches(const gcol_detail_expr_instr *ins, int32_t n,
                                                  const gcol_detail_expr_column *cols, int64_t i,
                                                  int64_t j, uint64_t *slots, int64_t stride,
                                                  bool track_nulls, bool strings) {
  uint64_t v = 0;
  bool valid = false;
  gcol_detail_expr_eval_row(ins, n, cols, i, j, slots, stride, track_nulls, strings, &v, &valid);
  return valid && v != 0;
}

/* Pass 1: the matches of @p item (semi and anti stop at the first); clears
 * unmatched_right[j] for each matching j when it is not NULL (full joins). */
GCOL_HD_INLINE int64_t gcol_detail_join_count_item(const gcol_detail_expr_instr *ins, int32_t n,
                                                   const gcol_detail_expr_column *cols,
                                                   gcol_detail_join_shape shape, int kind,
                                                   int64_t item, uint64_t *slots, int64_t stride,
                                                   bool track_nulls, bool strings,
                                                   uint8_t *unmatched_right) {
  int64_t const i = item / shape.parts;
  int64_t const first = (item % shape.parts) * shape.chunk;
  int64_t const last =
      first + shape.chunk < shape.right_rows ? first + shape.chunk : shape.right_rows;
  bool const stop_at_first = kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI;
  int64_t matches = 0;
  for (int64_t j = first; j < last; ++j) {
    if (gcol_detail_join_pair_matches(ins, n, cols, i, j, slots, stride, track_nulls, strings)) {
      ++matches;
      if (unmatched_right != NULL) unmatched_right[j] = 0;
      if (stop_at_first) break;
    }
  }
  return matches;
}

/* Pass 1b for left row @p i: the kind's output rows from its chunks' matches. A left or full
 * join's row without a match gets 1 row in its last chunk; a semi or anti join's kept row 1
 * row in its first chunk, the other chunks 0. */
GCOL_HD_INLINE void gcol_detail_join_settle_row(gcol_detail_join_shape shape, int kind, int64_t i,
                                                int64_t *counts) {
  int64_t *row = counts + i * shape.parts;
  int64_t sum = 0;
  for (int64_t p = 0; p < shape.parts; ++p) sum += row[p];
  if (kind == GCOL_JOIN_LEFT || kind == GCOL_JOIN_FULL) {
    if (sum == 0) row[shape.parts - 1] = 1;
  } else if (kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI) {
    row[0] = (kind == GCOL_JOIN_LEFT_SEMI) == (sum > 0) ? 1 : 0;
    for (int64_t p = 1; p < shape.parts; ++p) row[p] = 0;
  }
}

/* Writes an index as INT64 (@p wide) or INT32. */
GCOL_HD_INLINE void gcol_detail_join_store_index(void *map, bool wide, int64_t k, int64_t v) {
  if (wide) {
    ((int64_t *)map)[k] = v;
  } else {
    ((int32_t *)map)[k] = (int32_t)v;
  }
}

/* Pass 2: @p item writes its pairs in [offsets[item], offsets[item + 1]), right rows
 * ascending; the item settle gave a row without matches writes (i, -1); semi and anti write
 * i where counted (right_map unused). */
GCOL_HD_INLINE void gcol_detail_join_write_item(const gcol_detail_expr_instr *ins, int32_t n,
                                                const gcol_detail_expr_column *cols,
                                                gcol_detail_join_shape shape, int kind,
                                                int64_t item, const int64_t *offsets, bool wide,
                                                void *left_map, void *right_map, uint64_t *slots,
                                                int64_t stride, bool track_nulls, bool strings) {
  int64_t const i = item / shape.parts;
  int64_t const first = (item % shape.parts) * shape.chunk;
  int64_t const last =
      first + shape.chunk < shape.right_rows ? first + shape.chunk : shape.right_rows;
  int64_t out = offsets[item];
  int64_t const end = offsets[item + 1];
  if (kind == GCOL_JOIN_LEFT_SEMI || kind == GCOL_JOIN_LEFT_ANTI) {
    if (end > out) gcol_detail_join_store_index(left_map, wide, out, i);
    return;
  }
  for (int64_t j = first; j < last && out < end; ++j) {
    if (gcol_detail_join_pair_matches(ins, n, cols, i, j, slots, stride, track_nulls, strings)) {
      gcol_detail_join_store_index(left_map, wide, out, i);
      gcol_detail_join_store_index(right_map, wide, out, j);
      ++out;
    }
  }
  if (kind != GCOL_JOIN_INNER && out == offsets[item] && out < end) { /* no match in the row */
    gcol_detail_join_store_index(left_map, wide, out, i);
    gcol_detail_join_store_index(right_map, wide, out, -1);
  }
}

#endif /* GCOL_KERNELS_EXPRESSION_PROGRAM_H */
