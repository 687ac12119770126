/* Host reference and random trees for expressions (see expression_reference.h). */
#include "expression_reference.h"

#include <math.h>

/* ---- values ---- */

typedef enum ref_kind { K_SIGNED, K_UNSIGNED, K_F32, K_F64, K_BOOL } ref_kind;

typedef struct ref_value {
  bool valid;
  int64_t i;         /* K_SIGNED */
  uint64_t u;        /* K_UNSIGNED, K_BOOL (0 or 1) */
  float f;           /* K_F32 */
  double d;          /* K_F64 */
  expr_ref_string s; /* STRING */
} ref_value;

static ref_kind kind_of(gcol_type_id id) {
  switch (id) {
    case GCOL_UINT8:
    case GCOL_UINT16:
    case GCOL_UINT32:
    case GCOL_UINT64:
      return K_UNSIGNED;
    case GCOL_FLOAT32:
      return K_F32;
    case GCOL_FLOAT64:
      return K_F64;
    case GCOL_BOOL8:
      return K_BOOL;
    default:
      return K_SIGNED;
  }
}

static int64_t narrow_signed(gcol_type_id id, uint64_t v) {
  switch (gcol_type_size(id)) {
    case 1:
      return (int8_t)(uint8_t)v;
    case 2:
      return (int16_t)(uint16_t)v;
    case 4:
      return (int32_t)(uint32_t)v;
    default:
      return (int64_t)v;
  }
}

static uint64_t narrow_unsigned(gcol_type_id id, uint64_t v) {
  switch (gcol_type_size(id)) {
    case 1:
      return (uint8_t)v;
    case 2:
      return (uint16_t)v;
    case 4:
      return (uint32_t)v;
    default:
      return v;
  }
}

static ref_value read_storage(gcol_type_id id, const void *p) {
  ref_value r;
  memset(&r, 0, sizeof r);
  r.valid = true;
  switch (kind_of(id)) {
    case K_SIGNED: {
      uint64_t bits = 0;
      memcpy(&bits, p, gcol_type_size(id)); /* little-endian */
      r.i = narrow_signed(id, bits);
      break;
    }
    case K_UNSIGNED: {
      uint64_t bits = 0;
      memcpy(&bits, p, gcol_type_size(id));
      r.u = bits;
      break;
    }
    case K_F32:
      memcpy(&r.f, p, 4);
      break;
    case K_F64:
      memcpy(&r.d, p, 8);
      break;
    default:
      r.u = *(const uint8_t *)p != 0;
      break;
  }
  return r;
}

static void write_storage(gcol_type_id id, ref_value v, void *p) {
  size_t const w = gcol_type_size(id);
  memset(p, 0, w);
  if (!v.valid) return;
  switch (kind_of(id)) {
    case K_SIGNED:
      memcpy(p, &v.i, w);
      break;
    case K_UNSIGNED:
      memcpy(p, &v.u, w);
      break;
    case K_F32:
      memcpy(p, &v.f, 4);
      break;
    case K_F64:
      memcpy(p, &v.d, 8);
      break;
    default:
      *(uint8_t *)p = (uint8_t)(v.u != 0);
      break;
  }
}

static ref_value null_value(void) {
  ref_value r;
  memset(&r, 0, sizeof r);
  return r;
}

static ref_value bool_value(bool b) {
  ref_value r = null_value();
  r.valid = true;
  r.u = b ? 1 : 0;
  return r;
}

/* ---- operators ---- */

static ref_value arith(gcol_expression_op op, gcol_type_id t, ref_value x, ref_value y) {
  ref_value r = null_value();
  r.valid = true;
  switch (kind_of(t)) {
    case K_F32:
      r.f = op == GCOL_EXPR_ADD   ? x.f + y.f
            : op == GCOL_EXPR_SUB ? x.f - y.f
            : op == GCOL_EXPR_MUL ? x.f * y.f
            : op == GCOL_EXPR_DIV ? x.f / y.f
                                  : fmodf(x.f, y.f);
      return r;
    case K_F64:
      r.d = op == GCOL_EXPR_ADD   ? x.d + y.d
            : op == GCOL_EXPR_SUB ? x.d - y.d
            : op == GCOL_EXPR_MUL ? x.d * y.d
            : op == GCOL_EXPR_DIV ? x.d / y.d
                                  : fmod(x.d, y.d);
      return r;
    case K_UNSIGNED:
      if ((op == GCOL_EXPR_DIV || op == GCOL_EXPR_MOD) && y.u == 0) return null_value();
      r.u = narrow_unsigned(t, op == GCOL_EXPR_ADD   ? x.u + y.u
                               : op == GCOL_EXPR_SUB ? x.u - y.u
                               : op == GCOL_EXPR_MUL ? x.u * y.u
                               : op == GCOL_EXPR_DIV ? x.u / y.u
                                                     : x.u % y.u);
      return r;
    default: {
      uint64_t const a = (uint64_t)x.i, b = (uint64_t)y.i;
      uint64_t v;
      if ((op == GCOL_EXPR_DIV || op == GCOL_EXPR_MOD) && y.i == 0) return null_value();
      if (op == GCOL_EXPR_ADD) {
        v = a + b;
      } else if (op == GCOL_EXPR_SUB) {
        v = a - b;
      } else if (op == GCOL_EXPR_MUL) {
        v = a * b;
      } else if (y.i == -1) {
        v = op == GCOL_EXPR_DIV ? 0 - a : 0;
      } else {
        v = op == GCOL_EXPR_DIV ? (uint64_t)(x.i / y.i) : (uint64_t)(x.i % y.i);
      }
      r.i = narrow_signed(t, v);
      return r;
    }
  }
}

/* Strings: unsigned bytes, a proper prefix first. */
static int compare_strings(expr_ref_string a, expr_ref_string b) {
  int64_t const n = a.size < b.size ? a.size : b.size;
  int const c = n > 0 ? memcmp(a.data, b.data, (size_t)n) : 0;
  if (c != 0) return c < 0 ? -1 : 1;
  return a.size < b.size ? -1 : a.size > b.size ? 1 : 0;
}

static int compare3(gcol_type_id t, ref_value x, ref_value y, bool *unordered) {
  *unordered = false;
  if (t == GCOL_STRING) return compare_strings(x.s, y.s);
  switch (kind_of(t)) {
    case K_F32:
      if (isnan(x.f) || isnan(y.f)) *unordered = true;
      return x.f < y.f ? -1 : x.f > y.f ? 1 : 0;
    case K_F64:
      if (isnan(x.d) || isnan(y.d)) *unordered = true;
      return x.d < y.d ? -1 : x.d > y.d ? 1 : 0;
    case K_SIGNED:
      return x.i < y.i ? -1 : x.i > y.i ? 1 : 0;
    default:
      return x.u < y.u ? -1 : x.u > y.u ? 1 : 0;
  }
}

static ref_value compare(gcol_expression_op op, gcol_type_id t, ref_value x, ref_value y) {
  bool unordered;
  int const c = compare3(t, x, y, &unordered);
  if (unordered) return bool_value(op == GCOL_EXPR_NOT_EQUAL);
  switch (op) {
    case GCOL_EXPR_EQUAL:
    case GCOL_EXPR_NULL_EQUALS:
      return bool_value(c == 0);
    case GCOL_EXPR_NOT_EQUAL:
      return bool_value(c != 0);
    case GCOL_EXPR_LESS:
      return bool_value(c < 0);
    case GCOL_EXPR_LESS_EQUAL:
      return bool_value(c <= 0);
    case GCOL_EXPR_GREATER:
      return bool_value(c > 0);
    default:
      return bool_value(c >= 0);
  }
}

static bool in_range(gcol_type_id to, double t) {
  switch (to) {
    case GCOL_INT8:
      return t >= -128.0 && t <= 127.0;
    case GCOL_INT16:
      return t >= -32768.0 && t <= 32767.0;
    case GCOL_INT32:
      return t >= -2147483648.0 && t <= 2147483647.0;
    case GCOL_INT64:
      return t >= -9223372036854775808.0 && t < 9223372036854775808.0;
    case GCOL_UINT8:
      return t >= 0.0 && t <= 255.0;
    case GCOL_UINT16:
      return t >= 0.0 && t <= 65535.0;
    case GCOL_UINT32:
      return t >= 0.0 && t <= 4294967295.0;
    default:
      return t >= 0.0 && t < 18446744073709551616.0;
  }
}

static ref_value cast(gcol_type_id from, gcol_type_id to, ref_value x) {
  ref_value r = null_value();
  ref_kind const fk = kind_of(from), tk = kind_of(to);
  r.valid = true;
  if (tk == K_BOOL) {
    bool b = fk == K_F32      ? x.f != 0.0f
             : fk == K_F64    ? x.d != 0.0
             : fk == K_SIGNED ? x.i != 0
                              : x.u != 0;
    return bool_value(b);
  }
  if (tk == K_F32) {
    r.f = fk == K_F32 ? x.f : fk == K_F64 ? (float)x.d : fk == K_SIGNED ? (float)x.i : (float)x.u;
    return r;
  }
  if (tk == K_F64) {
    r.d = fk == K_F32      ? (double)x.f
          : fk == K_F64    ? x.d
          : fk == K_SIGNED ? (double)x.i
                           : (double)x.u;
    return r;
  }
  if (fk == K_F32 || fk == K_F64) {
    double const d = fk == K_F32 ? (double)x.f : x.d;
    double t;
    if (isnan(d)) return null_value();
    t = trunc(d);
    if (!in_range(to, t)) return null_value();
    if (tk == K_SIGNED) {
      r.i = (int64_t)t;
    } else {
      r.u = (uint64_t)t;
    }
    return r;
  }
  {
    uint64_t const bits = fk == K_SIGNED ? (uint64_t)x.i : x.u;
    if (tk == K_SIGNED) {
      r.i = narrow_signed(to, bits);
    } else {
      r.u = narrow_unsigned(to, bits);
    }
  }
  return r;
}

static ref_value unary(gcol_expression_op op, gcol_type_id t, ref_value x) {
  ref_value r = x;
  if (op == GCOL_EXPR_IS_NULL) return bool_value(!x.valid);
  if (op == GCOL_EXPR_IS_VALID) return bool_value(x.valid);
  if (!x.valid) return null_value();
  if (op == GCOL_EXPR_NOT) return bool_value(x.u == 0);
  switch (kind_of(t)) {
    case K_F32:
      r.f = op == GCOL_EXPR_NEGATE ? -x.f : fabsf(x.f);
      break;
    case K_F64:
      r.d = op == GCOL_EXPR_NEGATE ? -x.d : fabs(x.d);
      break;
    case K_SIGNED:
      if (op == GCOL_EXPR_NEGATE || x.i < 0) r.i = narrow_signed(t, 0 - (uint64_t)x.i);
      break;
    default:
      break; /* ABS of unsigned */
  }
  return r;
}

/* ---- LIKE: the pattern parsed into tokens, then backtracking over characters ---- */

enum { LIKE_ANY = -2, LIKE_ONE = -1, LIKE_MAX_TOKENS = 256 };

/* Bytes of the character at s[i] (of n): a valid UTF-8 sequence, else 1 byte. */
static int64_t char_len(const char *s, int64_t i, int64_t n) {
  gcol_utf8_char const c = gcol_utf8_decode(s + i, n - i);
  return c.valid && c.length > 0 ? c.length : 1;
}

static int like_tokens(const char *p, int64_t m, const char *esc, int *tokens) {
  int64_t const en = esc == NULL ? 0 : (int64_t)strlen(esc);
  int count = 0;
  for (int64_t i = 0; i < m;) {
    assert_true(count + en < LIKE_MAX_TOKENS);
    if (en > 0 && i + en <= m && memcmp(p + i, esc, (size_t)en) == 0) {
      /* the generator makes valid patterns: the escape precedes %, _ or itself */
      i += en;
      assert_true(i < m);
      if (p[i] == '%' || p[i] == '_') {
        tokens[count++] = (unsigned char)p[i++];
      } else {
        assert_true(i + en <= m && memcmp(p + i, esc, (size_t)en) == 0);
        for (int64_t k = 0; k < en; ++k) tokens[count++] = (unsigned char)esc[k];
        i += en;
      }
    } else if (p[i] == '%') {
      tokens[count++] = LIKE_ANY;
      ++i;
    } else if (p[i] == '_') {
      tokens[count++] = LIKE_ONE;
      ++i;
    } else {
      tokens[count++] = (unsigned char)p[i++];
    }
  }
  return count;
}

static bool like_from(const char *s, int64_t n, int64_t i, const int *t, int count, int j) {
  if (j == count) return i == n;
  if (t[j] == LIKE_ANY) {
    for (int64_t k = i;; k += char_len(s, k, n)) {
      if (like_from(s, n, k, t, count, j + 1)) return true;
      if (k >= n) return false;
    }
  }
  if (i >= n) return false;
  if (t[j] == LIKE_ONE) return like_from(s, n, i + char_len(s, i, n), t, count, j + 1);
  return (unsigned char)s[i] == t[j] && like_from(s, n, i + 1, t, count, j + 1);
}

static bool like(expr_ref_string s, expr_ref_string pattern, const char *escape) {
  int tokens[LIKE_MAX_TOKENS];
  int const count = like_tokens(pattern.data, pattern.size, escape, tokens);
  return like_from(s.data, s.size, 0, tokens, count, 0);
}

static ref_value eval(const expr_ref_tree *tree, int32_t id, const expr_ref_table *table,
                      int64_t row) {
  const expr_ref_node *n = &tree->nodes[id];
  switch (n->kind) {
    case EXPR_REF_COLUMN: {
      gcol_type_id const t = table->types[n->column].id;
      if (table->valid[n->column] != NULL && !table->valid[n->column][row]) return null_value();
      if (t == GCOL_STRING) {
        ref_value r = null_value();
        r.valid = true;
        r.s = ((const expr_ref_string *)table->data[n->column])[row];
        return r;
      }
      return read_storage(t,
                          (const char *)table->data[n->column] + row * (int64_t)gcol_type_size(t));
    }
    case EXPR_REF_LITERAL:
      if (n->literal_valid && n->type.id == GCOL_STRING) {
        ref_value r = null_value();
        r.valid = true;
        r.s = n->str;
        return r;
      }
      return n->literal_valid ? read_storage(n->type.id, &n->literal) : null_value();
    case EXPR_REF_CAST: {
      ref_value const x = eval(tree, n->lhs, table, row);
      return x.valid ? cast(tree->nodes[n->lhs].type.id, n->type.id, x) : null_value();
    }
    case EXPR_REF_UNARY:
      return unary(n->op, tree->nodes[n->lhs].type.id, eval(tree, n->lhs, table, row));
    default: {
      ref_value const x = eval(tree, n->lhs, table, row);
      ref_value const y = eval(tree, n->rhs, table, row);
      gcol_type_id const t = tree->nodes[n->lhs].type.id;
      switch (n->op) {
        case GCOL_EXPR_NULL_EQUALS:
          if (!x.valid || !y.valid) return bool_value(x.valid == y.valid);
          return compare(n->op, t, x, y);
        case GCOL_EXPR_NULL_LOGICAL_AND:
          if ((x.valid && !x.u) || (y.valid && !y.u)) return bool_value(false);
          return x.valid && y.valid ? bool_value(true) : null_value();
        case GCOL_EXPR_NULL_LOGICAL_OR:
          if ((x.valid && x.u) || (y.valid && y.u)) return bool_value(true);
          return x.valid && y.valid ? bool_value(false) : null_value();
        default:
          break;
      }
      if (!x.valid || !y.valid) return null_value();
      if (n->op == GCOL_EXPR_LIKE) return bool_value(like(x.s, y.s, n->escape));
      if (n->op == GCOL_EXPR_LOGICAL_AND) return bool_value(x.u && y.u);
      if (n->op == GCOL_EXPR_LOGICAL_OR) return bool_value(x.u || y.u);
      if (n->op >= GCOL_EXPR_EQUAL) return compare(n->op, t, x, y);
      return arith(n->op, t, x, y);
    }
  }
}

void expr_ref_eval(const expr_ref_tree *tree, int32_t root, const expr_ref_table *table, void *out,
                   uint8_t *valid) {
  gcol_type_id const t = tree->nodes[root].type.id;
  size_t const w = gcol_type_size(t);
  for (int64_t row = 0; row < table->rows; ++row) {
    ref_value const v = eval(tree, root, table, row);
    valid[row] = v.valid;
    write_storage(t, v, (char *)out + row * (int64_t)w);
  }
}

void expr_ref_assert_equal(gcol_data_type type, int64_t rows, const void *values,
                           const uint8_t *valid, const void *expected,
                           const uint8_t *expected_valid, const char *what) {
  size_t const w = gcol_type_size(type.id);
  for (int64_t row = 0; row < rows; ++row) {
    const char *a = (const char *)values + row * (int64_t)w;
    const char *e = (const char *)expected + row * (int64_t)w;
    bool const va = valid == NULL || valid[row];
    bool const ve = expected_valid == NULL || expected_valid[row];
    if (va != ve) fail_msg("%s: row %lld valid %d, expected %d", what, (long long)row, va, ve);
    if (!va) continue;
    if (type.id == GCOL_FLOAT32) {
      float x, y;
      memcpy(&x, a, 4);
      memcpy(&y, e, 4);
      if (isnan(x) && isnan(y)) continue;
    } else if (type.id == GCOL_FLOAT64) {
      double x, y;
      memcpy(&x, a, 8);
      memcpy(&y, e, 8);
      if (isnan(x) && isnan(y)) continue;
    }
    if (memcmp(a, e, w) != 0) {
      uint64_t x = 0, y = 0;
      memcpy(&x, a, w);
      memcpy(&y, e, w);
      fail_msg("%s: row %lld is 0x%llx, expected 0x%llx (type %s)", what, (long long)row,
               (unsigned long long)x, (unsigned long long)y, gcol_type_name(type.id));
    }
  }
}

/* ---- the tree ---- */

expr_ref_tree *expr_ref_tree_create(void) {
  expr_ref_tree *tree = (expr_ref_tree *)calloc(1, sizeof *tree);
  assert_non_null(tree);
  GCOL_TEST_OK(gcol_expression_create(&tree->expr));
  return tree;
}

void expr_ref_tree_free(expr_ref_tree *tree) {
  if (tree == NULL) return;
  gcol_expression_free(tree->expr);
  free(tree);
}

static int32_t record(expr_ref_tree *tree, int32_t id, expr_ref_node node) {
  assert_int_equal(id, tree->count);
  assert_true(tree->count < EXPR_REF_MAX_NODES);
  tree->nodes[tree->count++] = node;
  return id;
}

static expr_ref_node blank(expr_ref_kind kind) {
  expr_ref_node n;
  memset(&n, 0, sizeof n);
  n.kind = kind;
  n.lhs = n.rhs = -1;
  return n;
}

int32_t expr_ref_column(expr_ref_tree *tree, const expr_ref_table *table, int32_t column) {
  int32_t id = -1;
  expr_ref_node n = blank(EXPR_REF_COLUMN);
  if (tree->right_base > 0 && column >= tree->right_base) {
    GCOL_TEST_OK(gcol_expression_add_column(tree->expr, GCOL_EXPRESSION_RIGHT,
                                            column - tree->right_base, &id));
  } else {
    GCOL_TEST_OK(gcol_expression_add_column(tree->expr, GCOL_EXPRESSION_LEFT, column, &id));
  }
  n.column = column;
  n.type = table->types[column];
  return record(tree, id, n);
}

static int32_t add_literal(expr_ref_tree *tree, gcol_scalar *s) {
  int32_t id = -1;
  expr_ref_node n = blank(EXPR_REF_LITERAL);
  GCOL_TEST_OK(gcol_expression_add_literal(tree->expr, s, &id));
  n.type = s->type;
  n.literal_valid = s->is_valid;
  n.literal = s->value;
  gcol_scalar_free(s);
  return record(tree, id, n);
}

int32_t expr_ref_literal_int(expr_ref_tree *tree, gcol_data_type type, int64_t value) {
  gcol_scalar *s = NULL;
  if (gcol_type_is_unsigned_integral(type.id)) {
    GCOL_TEST_OK(gcol_scalar_create_uint(type, (uint64_t)value, &s));
  } else {
    GCOL_TEST_OK(gcol_scalar_create_int(type, value, &s));
  }
  return add_literal(tree, s);
}

int32_t expr_ref_literal_float(expr_ref_tree *tree, gcol_data_type type, double value) {
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_float(type, value, &s));
  return add_literal(tree, s);
}

int32_t expr_ref_literal_null(expr_ref_tree *tree, gcol_data_type type) {
  gcol_scalar *s = NULL;
  GCOL_TEST_OK(gcol_scalar_create_null(type, &s));
  return add_literal(tree, s);
}

/* Copies @p size bytes to the tree's arena. */
static expr_ref_string arena_copy(expr_ref_tree *tree, const char *data, int64_t size) {
  expr_ref_string r;
  assert_true(tree->arena_used + size <= EXPR_REF_ARENA);
  r.data = tree->arena + tree->arena_used;
  r.size = size;
  if (size > 0) memcpy(tree->arena + tree->arena_used, data, (size_t)size);
  tree->arena_used += size;
  return r;
}

int32_t expr_ref_literal_string(expr_ref_tree *tree, const char *data, int64_t size) {
  gcol_scalar *s = NULL;
  int32_t id = -1;
  expr_ref_node n = blank(EXPR_REF_LITERAL);
  GCOL_TEST_OK(gcol_scalar_create_string(data, size, &s));
  GCOL_TEST_OK(gcol_expression_add_literal(tree->expr, s, &id));
  gcol_scalar_free(s);
  n.type = gcol_data_type_make(GCOL_STRING);
  n.literal_valid = true;
  n.str = arena_copy(tree, data, size);
  return record(tree, id, n);
}

int32_t expr_ref_like(expr_ref_tree *tree, int32_t operand, const char *pattern, int64_t size,
                      const char *escape, bool via_binary) {
  gcol_scalar *s = NULL;
  int32_t id = -1;
  expr_ref_node lit = blank(EXPR_REF_LITERAL), n = blank(EXPR_REF_BINARY);
  bool const no_escape = escape == NULL || escape[0] == '\0';
  if (pattern != NULL) {
    GCOL_TEST_OK(gcol_scalar_create_string(pattern, size, &s));
  } else {
    GCOL_TEST_OK(gcol_scalar_create_null(gcol_data_type_make(GCOL_STRING), &s));
  }
  lit.type = gcol_data_type_make(GCOL_STRING);
  lit.literal_valid = pattern != NULL;
  if (pattern != NULL) lit.str = arena_copy(tree, pattern, size);
  n.op = GCOL_EXPR_LIKE;
  n.lhs = operand;
  n.type = gcol_data_type_make(GCOL_BOOL8);
  if (!no_escape) {
    assert_true(strlen(escape) < sizeof n.escape);
    strcpy(n.escape, escape);
  }
  if (via_binary && no_escape) {
    GCOL_TEST_OK(gcol_expression_add_literal(tree->expr, s, &id));
    n.rhs = record(tree, id, lit);
    GCOL_TEST_OK(gcol_expression_add_binary(tree->expr, GCOL_EXPR_LIKE, operand, n.rhs, &id));
  } else {
    GCOL_TEST_OK(gcol_expression_add_like(tree->expr, operand, s, escape, &id));
    n.rhs = record(tree, id - 1, lit); /* the pattern's literal node comes first */
  }
  gcol_scalar_free(s);
  return record(tree, id, n);
}

int32_t expr_ref_unary(expr_ref_tree *tree, gcol_expression_op op, int32_t operand) {
  int32_t id = -1;
  expr_ref_node n = blank(EXPR_REF_UNARY);
  GCOL_TEST_OK(gcol_expression_add_unary(tree->expr, op, operand, &id));
  n.op = op;
  n.lhs = operand;
  n.type = (op == GCOL_EXPR_IS_NULL || op == GCOL_EXPR_IS_VALID) ? gcol_data_type_make(GCOL_BOOL8)
                                                                 : tree->nodes[operand].type;
  return record(tree, id, n);
}

int32_t expr_ref_binary(expr_ref_tree *tree, gcol_expression_op op, int32_t lhs, int32_t rhs) {
  int32_t id = -1;
  expr_ref_node n = blank(EXPR_REF_BINARY);
  GCOL_TEST_OK(gcol_expression_add_binary(tree->expr, op, lhs, rhs, &id));
  n.op = op;
  n.lhs = lhs;
  n.rhs = rhs;
  n.type = op >= GCOL_EXPR_EQUAL ? gcol_data_type_make(GCOL_BOOL8) : tree->nodes[lhs].type;
  return record(tree, id, n);
}

int32_t expr_ref_cast(expr_ref_tree *tree, int32_t operand, gcol_data_type type) {
  int32_t id = -1;
  expr_ref_node n = blank(EXPR_REF_CAST);
  GCOL_TEST_OK(gcol_expression_add_cast(tree->expr, operand, type, &id));
  n.lhs = operand;
  n.type = type;
  return record(tree, id, n);
}

/* ---- random tables and trees ---- */

size_t expr_ref_width(gcol_type_id id) {
  return id == GCOL_STRING ? sizeof(expr_ref_string) : gcol_type_size(id);
}

/* Pieces of random strings and patterns: ASCII, 2- and 3-byte UTF-8, an invalid byte, the
 * LIKE specials, the escape characters used ("!" and "é"). */
static const char *const kStringPieces[] = {"a", "b", "ab",   "\xc3\xa9", "\xe6\x97\xa5", "%",
                                            "_", "!", "\xff", "z",        "a\0b"};
static const int64_t kStringPieceSizes[] = {1, 1, 2, 2, 3, 1, 1, 1, 1, 1, 3};

/* A random string of 0..4 pieces into buf (room for 64 bytes); its size. */
static int64_t random_string(gcol_test_rng *rng, char *buf) {
  int64_t size = 0;
  int64_t const pieces = gcol_test_rng_range(rng, 0, 4);
  for (int64_t k = 0; k < pieces; ++k) {
    int64_t const p = gcol_test_rng_range(rng, 0, 10);
    memcpy(buf + size, kStringPieces[p], (size_t)kStringPieceSizes[p]);
    size += kStringPieceSizes[p];
  }
  return size;
}

/* A random valid LIKE pattern for escape @p escape ("" none, "!" or the 2-byte "é"). */
static int64_t random_pattern(gcol_test_rng *rng, const char *escape, char *buf) {
  static const char *const plain[] = {"a", "b", "\xc3\xa9", "\xe6\x97\xa5", "%", "_", "\0", "z"};
  static const int64_t plain_sizes[] = {1, 1, 2, 3, 1, 1, 1, 1};
  int64_t const en = (int64_t)strlen(escape);
  int64_t size = 0;
  int64_t const pieces = gcol_test_rng_range(rng, 0, 5);
  for (int64_t k = 0; k < pieces; ++k) {
    int64_t const p = gcol_test_rng_range(rng, 0, en > 0 ? 10 : 7);
    if (p < 8) {
      if (en > 0 && memcmp(plain[p], escape, (size_t)en) == 0) continue; /* a bare escape */
      memcpy(buf + size, plain[p], (size_t)plain_sizes[p]);
      size += plain_sizes[p];
    } else { /* escaped: %, _ or the escape itself */
      memcpy(buf + size, escape, (size_t)en);
      size += en;
      if (p == 8) {
        buf[size++] = gcol_test_rng_range(rng, 0, 1) ? '%' : '_';
      } else {
        memcpy(buf + size, escape, (size_t)en);
        size += en;
      }
    }
  }
  return size;
}

static gcol_data_type column_type(int k) {
  static const gcol_type_id ids[] = {GCOL_INT8,
                                     GCOL_INT16,
                                     GCOL_INT32,
                                     GCOL_INT64,
                                     GCOL_UINT8,
                                     GCOL_UINT32,
                                     GCOL_UINT64,
                                     GCOL_FLOAT32,
                                     GCOL_FLOAT64,
                                     GCOL_BOOL8,
                                     GCOL_TIMESTAMP_MILLISECONDS,
                                     GCOL_DURATION_DAYS,
                                     GCOL_DECIMAL64,
                                     GCOL_INT32,
                                     GCOL_FLOAT64,
                                     GCOL_FLOAT32};
  int const n = (int)(sizeof ids / sizeof ids[0]);
  if (k >= n) return gcol_data_type_make(GCOL_EMPTY);
  return ids[k] == GCOL_DECIMAL64 ? gcol_data_type_decimal(GCOL_DECIMAL64, -2)
                                  : gcol_data_type_make(ids[k]);
}

gcol_data_type expr_ref_random_type(gcol_test_rng *rng) {
  return column_type((int)gcol_test_rng_range(rng, 0, 12));
}

/* A random value of type @p t as storage bits: specials often, small values mostly. */
static void random_storage(gcol_test_rng *rng, gcol_type_id t, void *out) {
  size_t const w = gcol_type_size(t);
  int64_t const pick = gcol_test_rng_range(rng, 0, 19);
  if (t == GCOL_FLOAT32 || t == GCOL_FLOAT64) {
    double d;
    switch (pick) {
      case 0:
        d = NAN;
        break;
      case 1:
        d = INFINITY;
        break;
      case 2:
        d = -INFINITY;
        break;
      case 3:
        d = -0.0;
        break;
      case 4:
        d = 0.0;
        break;
      case 5:
        d = 3e9;
        break;
      case 6:
        d = -1e20;
        break;
      default:
        d = (gcol_test_rng_double(rng) - 0.5) * 200.0;
        break;
    }
    if (t == GCOL_FLOAT32) {
      float const f = (float)d;
      memcpy(out, &f, 4);
    } else {
      memcpy(out, &d, 8);
    }
    return;
  }
  if (t == GCOL_BOOL8) {
    uint8_t const b = (uint8_t)(pick < 10 ? 0 : (pick == 19 ? 7 : 1)); /* 7: non-canonical true */
    memcpy(out, &b, 1);
    return;
  }
  {
    uint64_t bits;
    switch (pick) {
      case 0:
        bits = (uint64_t)1 << (8 * w - 1);
        break; /* signed MIN */
      case 1:
        bits = ((uint64_t)1 << (8 * w - 1)) - 1;
        break; /* signed MAX */
      case 2:
        bits = ~(uint64_t)0;
        break; /* -1 / unsigned MAX */
      case 3:
      case 4:
        bits = 0;
        break;
      default:
        bits = (uint64_t)gcol_test_rng_range(rng, -40, 40);
        break;
    }
    memcpy(out, &bits, w); /* little-endian: the low bytes */
  }
}

void expr_ref_table_random(expr_ref_table *table, int64_t rows, gcol_test_rng *rng) {
  memset(table, 0, sizeof *table);
  table->rows = rows;
  table->num_columns = 16;
  for (int32_t c = 0; c < table->num_columns; ++c) {
    gcol_type_id const t = column_type(c).id;
    size_t const w = gcol_type_size(t);
    table->types[c] = column_type(c);
    table->data[c] = malloc((size_t)(rows > 0 ? rows : 1) * w);
    assert_non_null(table->data[c]);
    for (int64_t r = 0; r < rows; ++r)
      random_storage(rng, t, (char *)table->data[c] + r * (int64_t)w);
    if (c % 3 != 2) { /* two columns in three have nulls */
      table->valid[c] = (uint8_t *)malloc((size_t)(rows > 0 ? rows : 1));
      assert_non_null(table->valid[c]);
      for (int64_t r = 0; r < rows; ++r) table->valid[c][r] = gcol_test_rng_range(rng, 0, 3) != 0;
    }
  }
}

void expr_ref_table_random_strings(expr_ref_table *table, int64_t rows, gcol_test_rng *rng) {
  expr_ref_table_random(table, rows, rng);
  for (int32_t c = 16; c < 18; ++c) {
    expr_ref_string *v = (expr_ref_string *)malloc((size_t)(rows > 0 ? rows : 1) * sizeof *v);
    char *pool = (char *)malloc((size_t)(rows > 0 ? rows : 1) * 64);
    assert_true(v != NULL && pool != NULL);
    for (int64_t r = 0; r < rows; ++r) {
      v[r].data = pool + r * 64;
      v[r].size = random_string(rng, pool + r * 64);
    }
    table->types[c] = gcol_data_type_make(GCOL_STRING);
    table->data[c] = v;
    table->pool[c] = pool;
    if (c == 16) {
      table->valid[c] = (uint8_t *)malloc((size_t)(rows > 0 ? rows : 1));
      assert_non_null(table->valid[c]);
      for (int64_t r = 0; r < rows; ++r) table->valid[c][r] = gcol_test_rng_range(rng, 0, 3) != 0;
    }
  }
  table->num_columns = 18;
}

void expr_ref_table_free(expr_ref_table *table) {
  for (int32_t c = 0; c < table->num_columns; ++c) {
    free(table->data[c]);
    free(table->valid[c]);
    free(table->pool[c]);
  }
  memset(table, 0, sizeof *table);
}

void expr_ref_table_pairs(const expr_ref_table *left, const expr_ref_table *right,
                          expr_ref_table *out) {
  int64_t const rows = left->rows * right->rows;
  memset(out, 0, sizeof *out);
  assert_true(left->num_columns + right->num_columns <= EXPR_REF_MAX_COLUMNS);
  out->rows = rows;
  out->num_columns = left->num_columns + right->num_columns;
  for (int32_t c = 0; c < out->num_columns; ++c) {
    bool const is_left = c < left->num_columns;
    const expr_ref_table *src = is_left ? left : right;
    int32_t const sc = is_left ? c : c - left->num_columns;
    size_t const w = expr_ref_width(src->types[sc].id);
    out->types[c] = src->types[sc];
    out->data[c] = malloc((size_t)(rows > 0 ? rows : 1) * w);
    assert_non_null(out->data[c]);
    if (src->valid[sc] != NULL) {
      out->valid[c] = (uint8_t *)malloc((size_t)(rows > 0 ? rows : 1));
      assert_non_null(out->valid[c]);
    }
    for (int64_t i = 0; i < left->rows; ++i) {
      for (int64_t j = 0; j < right->rows; ++j) {
        int64_t const r = i * right->rows + j, from = is_left ? i : j;
        memcpy((char *)out->data[c] + r * (int64_t)w,
               (const char *)src->data[sc] + from * (int64_t)w, w);
        if (out->valid[c] != NULL) out->valid[c][r] = src->valid[sc][from];
      }
    }
  }
}

static int32_t random_leaf(expr_ref_tree *tree, const expr_ref_table *table, gcol_test_rng *rng,
                           gcol_data_type want) {
  int32_t matches[EXPR_REF_MAX_COLUMNS];
  int32_t count = 0;
  for (int32_t c = 0; c < table->num_columns; ++c) {
    if (gcol_data_type_equal(table->types[c], want)) matches[count++] = c;
  }
  if (count > 0 && gcol_test_rng_range(rng, 0, 9) < 7) {
    return expr_ref_column(tree, table, matches[gcol_test_rng_range(rng, 0, count - 1)]);
  }
  if (gcol_test_rng_range(rng, 0, 19) == 0) return expr_ref_literal_null(tree, want);
  {
    uint64_t bits = 0;
    random_storage(rng, want.id, &bits);
    if (want.id == GCOL_FLOAT32) {
      float f;
      memcpy(&f, &bits, 4);
      return expr_ref_literal_float(tree, want, (double)f);
    }
    if (want.id == GCOL_FLOAT64) {
      double d;
      memcpy(&d, &bits, 8);
      return expr_ref_literal_float(tree, want, d);
    }
    if (want.id == GCOL_BOOL8) return expr_ref_literal_int(tree, want, bits != 0);
    if (gcol_type_is_unsigned_integral(want.id))
      return expr_ref_literal_int(tree, want, (int64_t)bits);
    return expr_ref_literal_int(tree, want, narrow_signed(want.id, bits));
  }
}

static gcol_data_type random_numeric(gcol_test_rng *rng) {
  static const gcol_type_id ids[] = {GCOL_INT8,    GCOL_INT16,  GCOL_INT32,  GCOL_INT64,
                                     GCOL_UINT8,   GCOL_UINT32, GCOL_UINT64, GCOL_FLOAT32,
                                     GCOL_FLOAT64, GCOL_BOOL8};
  return gcol_data_type_make(ids[gcol_test_rng_range(rng, 0, 9)]);
}

static bool has_strings(const expr_ref_table *table) {
  for (int32_t c = 0; c < table->num_columns; ++c) {
    if (table->types[c].id == GCOL_STRING) return true;
  }
  return false;
}

/* A STRING leaf: a column mostly, else a literal (sometimes null). */
static int32_t random_string_leaf(expr_ref_tree *tree, const expr_ref_table *table,
                                  gcol_test_rng *rng) {
  char buf[64];
  int32_t matches[EXPR_REF_MAX_COLUMNS];
  int32_t count = 0;
  for (int32_t c = 0; c < table->num_columns; ++c) {
    if (table->types[c].id == GCOL_STRING) matches[count++] = c;
  }
  if (gcol_test_rng_range(rng, 0, 9) < 6) {
    return expr_ref_column(tree, table, matches[gcol_test_rng_range(rng, 0, count - 1)]);
  }
  if (gcol_test_rng_range(rng, 0, 14) == 0) {
    return expr_ref_literal_null(tree, gcol_data_type_make(GCOL_STRING));
  }
  return expr_ref_literal_string(tree, buf, random_string(rng, buf));
}

int32_t expr_ref_random_string_predicate(expr_ref_tree *tree, const expr_ref_table *table,
                                         gcol_test_rng *rng) {
  static const char *const escapes[] = {"", "!", "\xc3\xa9"};
  int64_t const pick = gcol_test_rng_range(rng, 0, 9);
  if (pick < 5) {
    gcol_expression_op const op =
        (gcol_expression_op)gcol_test_rng_range(rng, GCOL_EXPR_EQUAL, GCOL_EXPR_NULL_EQUALS);
    int32_t const a = random_string_leaf(tree, table, rng);
    int32_t const b = random_string_leaf(tree, table, rng);
    return expr_ref_binary(tree, op, a, b);
  }
  if (pick < 9) {
    char buf[128];
    const char *const escape = escapes[gcol_test_rng_range(rng, 0, 2)];
    int32_t const a = random_string_leaf(tree, table, rng);
    bool const null_pattern = gcol_test_rng_range(rng, 0, 19) == 0;
    int64_t const size = random_pattern(rng, escape, buf);
    return expr_ref_like(tree, a, null_pattern ? NULL : buf, size, escape,
                         gcol_test_rng_range(rng, 0, 1) == 0);
  }
  return expr_ref_unary(tree,
                        gcol_test_rng_range(rng, 0, 1) ? GCOL_EXPR_IS_NULL : GCOL_EXPR_IS_VALID,
                        random_string_leaf(tree, table, rng));
}

int32_t expr_ref_random(expr_ref_tree *tree, const expr_ref_table *table, gcol_test_rng *rng,
                        gcol_data_type want, int depth) {
  gcol_type_id const t = want.id;
  bool const arithmetic = gcol_type_is_integral(t) || gcol_type_is_floating(t);
  if (depth <= 1 || gcol_test_rng_range(rng, 0, 3) == 0 ||
      (!arithmetic && t != GCOL_BOOL8 && !gcol_type_is_duration(t))) {
    return random_leaf(tree, table, rng, want);
  }
  if (t == GCOL_BOOL8 && has_strings(table) && gcol_test_rng_range(rng, 0, 3) == 0) {
    return expr_ref_random_string_predicate(tree, table, rng);
  }
  if (t == GCOL_BOOL8) {
    int64_t const pick = gcol_test_rng_range(rng, 0, 9);
    if (pick < 4) {
      gcol_data_type const u = expr_ref_random_type(rng);
      gcol_expression_op const op =
          (gcol_expression_op)gcol_test_rng_range(rng, GCOL_EXPR_EQUAL, GCOL_EXPR_NULL_EQUALS);
      int32_t const a = expr_ref_random(tree, table, rng, u, depth - 1);
      int32_t const b = expr_ref_random(tree, table, rng, u, depth - 1);
      return expr_ref_binary(tree, op, a, b);
    }
    if (pick < 7) {
      gcol_expression_op const op = (gcol_expression_op)gcol_test_rng_range(
          rng, GCOL_EXPR_LOGICAL_AND, GCOL_EXPR_NULL_LOGICAL_OR);
      int32_t const a = expr_ref_random(tree, table, rng, want, depth - 1);
      int32_t const b = expr_ref_random(tree, table, rng, want, depth - 1);
      return expr_ref_binary(tree, op, a, b);
    }
    if (pick == 7)
      return expr_ref_unary(tree, GCOL_EXPR_NOT,
                            expr_ref_random(tree, table, rng, want, depth - 1));
    if (pick == 8) {
      gcol_expression_op const op =
          gcol_test_rng_range(rng, 0, 1) ? GCOL_EXPR_IS_NULL : GCOL_EXPR_IS_VALID;
      return expr_ref_unary(
          tree, op, expr_ref_random(tree, table, rng, expr_ref_random_type(rng), depth - 1));
    }
    return expr_ref_cast(tree, expr_ref_random(tree, table, rng, random_numeric(rng), depth - 1),
                         want);
  }
  {
    int64_t const pick = gcol_test_rng_range(rng, 0, 9);
    if (pick < 6) {
      gcol_expression_op op =
          (gcol_expression_op)gcol_test_rng_range(rng, GCOL_EXPR_ADD, GCOL_EXPR_MOD);
      int32_t a, b;
      if (gcol_type_is_duration(t) && op > GCOL_EXPR_SUB) op = GCOL_EXPR_SUB;
      a = expr_ref_random(tree, table, rng, want, depth - 1);
      b = expr_ref_random(tree, table, rng, want, depth - 1);
      return expr_ref_binary(tree, op, a, b);
    }
    if (pick < 8) {
      gcol_expression_op const op =
          (pick == 6 && !gcol_type_is_unsigned_integral(t)) ? GCOL_EXPR_NEGATE : GCOL_EXPR_ABS;
      return expr_ref_unary(tree, op, expr_ref_random(tree, table, rng, want, depth - 1));
    }
    if (!arithmetic) return random_leaf(tree, table, rng, want);
    return expr_ref_cast(tree, expr_ref_random(tree, table, rng, random_numeric(rng), depth - 1),
                         want);
  }
}
