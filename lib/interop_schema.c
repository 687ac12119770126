/* Arrow schemas: gcol types as format strings (export), format strings parsed into gcol
 * types and fields (import), and the host-only checks of an array against its type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/error.h"
#include "internal/interop.h"
#include "internal/nvtx.h"

/* ---- arena ---- */

void *gcol_detail_arena_alloc(gcol_detail_arena *arena, size_t bytes) {
  if (arena->count == arena->capacity) {
    size_t const cap = arena->capacity == 0 ? 16 : arena->capacity * 2;
    void **blocks = (void **)realloc(arena->blocks, cap * sizeof *blocks);
    if (blocks == NULL) return NULL;
    arena->blocks = blocks;
    arena->capacity = cap;
  }
  void *p = calloc(1, bytes > 0 ? bytes : 1);
  if (p != NULL) arena->blocks[arena->count++] = p;
  return p;
}

char *gcol_detail_arena_strdup(gcol_detail_arena *arena, const char *s) {
  if (s == NULL) return NULL;
  size_t const n = strlen(s);
  char *p = (char *)gcol_detail_arena_alloc(arena, n + 1);
  if (p != NULL) memcpy(p, s, n + 1);
  return p;
}

void gcol_detail_arena_free(gcol_detail_arena *arena) {
  for (size_t i = 0; i < arena->count; ++i) free(arena->blocks[i]);
  free(arena->blocks);
  memset(arena, 0, sizeof *arena);
}

void gcol_detail_arrow_schema_release(struct ArrowSchema *schema) {
  if (schema != NULL && schema->release != NULL) schema->release(schema);
}

void gcol_detail_arrow_array_release(struct ArrowArray *array) {
  if (array != NULL && array->release != NULL) array->release(array);
}

int32_t gcol_detail_decimal_max_precision(gcol_type_id id) {
  return id == GCOL_DECIMAL32 ? 9 : id == GCOL_DECIMAL64 ? 18 : 38;
}

/* ---- export: gcol type -> format ---- */

/* The fixed format of a type without parameters, or NULL. */
static const char *plain_format(gcol_type_id id) {
  switch (id) {
    case GCOL_EMPTY: return "n";
    case GCOL_INT8: return "c";
    case GCOL_INT16: return "s";
    case GCOL_INT32: return "i";
    case GCOL_INT64: return "l";
    case GCOL_UINT8: return "C";
    case GCOL_UINT16: return "S";
    case GCOL_UINT32: return "I";
    case GCOL_UINT64: return "L";
    case GCOL_FLOAT32: return "f";
    case GCOL_FLOAT64: return "g";
    case GCOL_BOOL8: return "b";
    case GCOL_TIMESTAMP_DAYS: return "tdD";
    case GCOL_DURATION_SECONDS: return "tDs";
    case GCOL_DURATION_MILLISECONDS: return "tDm";
    case GCOL_DURATION_MICROSECONDS: return "tDu";
    case GCOL_DURATION_NANOSECONDS: return "tDn";
    case GCOL_STRUCT: return "+s";
    case GCOL_DICTIONARY32: return "i"; /* the indices; the values go in the dictionary */
    default: return NULL;
  }
}

/* True when a STRING or LIST view has INT64 offsets. */
static bool has_large_offsets(gcol_column_view v) {
  return v.num_children > GCOL_OFFSETS_CHILD && v.children != NULL &&
         v.children[GCOL_OFFSETS_CHILD].type.id == GCOL_INT64;
}

/* Writes the format of a view into buf. */
static gcol_status format_of(gcol_column_view v, const gcol_arrow_field *field, char *buf,
                             size_t size) {
  gcol_type_id const id = v.type.id;
  const char *plain = plain_format(id);
  if (plain != NULL) {
    snprintf(buf, size, "%s", plain);
  } else if (gcol_type_is_timestamp(id)) {
    static const char units[] = {'s', 'm', 'u', 'n'};
    const char *tz = field != NULL && field->timezone != NULL ? field->timezone : "";
    int const n = snprintf(buf, size, "ts%c:%s", units[id - GCOL_TIMESTAMP_SECONDS], tz);
    GCOL_DETAIL_REQUIRE(n >= 0 && (size_t)n < size, GCOL_ERROR_INVALID_ARGUMENT,
                        "time zone of %zu bytes is too long", strlen(tz));
  } else if (gcol_type_is_decimal(id)) {
    int32_t const max = gcol_detail_decimal_max_precision(id);
    int32_t const p = field != NULL && field->precision > 0 ? field->precision : max;
    GCOL_DETAIL_REQUIRE(p <= max, GCOL_ERROR_INVALID_ARGUMENT,
                        "precision %d exceeds %d digits of %s", (int)p, (int)max,
                        gcol_type_name(id));
    snprintf(buf, size, id == GCOL_DECIMAL128 ? "d:%d,%d" : "d:%d,%d,%d", (int)p,
             (int)-v.type.scale, id == GCOL_DECIMAL32 ? 32 : 64);
  } else if (id == GCOL_STRING) {
    snprintf(buf, size, "%s", has_large_offsets(v) ? "U" : "u");
  } else if (id == GCOL_LIST) {
    snprintf(buf, size, "%s", has_large_offsets(v) ? "+L" : "+l");
  } else {
    return gcol_detail_error(GCOL_ERROR_UNSUPPORTED, __func__, "%s has no Arrow type",
                             gcol_type_name(id));
  }
  return GCOL_OK;
}

/* One exported schema node: it owns its strings and its children's structs. */
typedef struct schema_node {
  char format[96];
  char *name;
  struct ArrowSchema **child_ptrs;
  struct ArrowSchema *children;
  struct ArrowSchema dictionary;
} schema_node;

static void schema_node_release(struct ArrowSchema *schema) {
  schema_node *node = (schema_node *)schema->private_data;
  for (int64_t i = 0; i < schema->n_children; ++i) {
    gcol_detail_arrow_schema_release(schema->children[i]);
  }
  gcol_detail_arrow_schema_release(schema->dictionary);
  free(node->name);
  free(node->child_ptrs);
  free(node->children);
  free(node);
  schema->release = NULL;
}

/* The field of child i, or NULL. */
static const gcol_arrow_field *child_field(const gcol_arrow_field *field, int32_t i) {
  return field != NULL && field->children != NULL && i < field->num_children
             ? &field->children[i]
             : NULL;
}

/* A new node with n children and the given name; out is filled but not yet released-able
 * for its children (their release stays NULL until built). */
static gcol_status schema_node_make(const char *name, int64_t n, struct ArrowSchema *out,
                                    schema_node **out_node) {
  schema_node *node = (schema_node *)calloc(1, sizeof *node);
  if (node != NULL && n > 0) {
    node->child_ptrs = (struct ArrowSchema **)calloc((size_t)n, sizeof *node->child_ptrs);
    node->children = (struct ArrowSchema *)calloc((size_t)n, sizeof *node->children);
  }
  if (node != NULL) node->name = (char *)malloc(strlen(name) + 1);
  if (node == NULL || node->name == NULL || (n > 0 && (node->child_ptrs == NULL ||
                                                       node->children == NULL))) {
    if (node != NULL) {
      free(node->name);
      free(node->child_ptrs);
      free(node->children);
      free(node);
    }
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot allocate a schema");
  }
  memcpy(node->name, name, strlen(name) + 1);
  for (int64_t i = 0; i < n; ++i) node->child_ptrs[i] = &node->children[i];
  memset(out, 0, sizeof *out);
  out->format = node->format;
  out->name = node->name;
  out->flags = ARROW_FLAG_NULLABLE;
  out->n_children = n;
  out->children = n > 0 ? node->child_ptrs : NULL;
  out->release = schema_node_release;
  out->private_data = node;
  *out_node = node;
  return GCOL_OK;
}

static gcol_status export_schema(gcol_column_view v, const gcol_arrow_field *field,
                                 const char *default_name, struct ArrowSchema *out);

/* The Arrow children of a view: list values, struct fields (dictionary values go apart). */
static gcol_status export_schema_children(gcol_column_view v, const gcol_arrow_field *field,
                                          struct ArrowSchema *out, schema_node *node) {
  char name[24];
  for (int64_t i = 0; i < out->n_children; ++i) {
    gcol_column_view const child =
        v.type.id == GCOL_LIST ? v.children[GCOL_LIST_VALUES_CHILD] : v.children[i];
    snprintf(name, sizeof name, "%lld", (long long)i);
    gcol_status const st = export_schema(child, child_field(field, (int32_t)i),
                                         v.type.id == GCOL_LIST ? "item" : name,
                                         &node->children[i]);
    if (st != GCOL_OK) return st;
  }
  if (v.type.id == GCOL_DICTIONARY32) {
    gcol_status const st = export_schema(v.children[GCOL_DICTIONARY_KEYS_CHILD],
                                         child_field(field, 0), "", &node->dictionary);
    if (st != GCOL_OK) return st;
    out->dictionary = &node->dictionary;
  }
  return GCOL_OK;
}

static gcol_status export_schema(gcol_column_view v, const gcol_arrow_field *field,
                                 const char *default_name, struct ArrowSchema *out) {
  gcol_status status = GCOL_OK;
  schema_node *node = NULL;
  char format[96];
  int64_t const n = v.type.id == GCOL_LIST ? 1 : v.type.id == GCOL_STRUCT ? v.num_children : 0;
  GCOL_DETAIL_TRY(format_of(v, field, format, sizeof format));
  GCOL_DETAIL_CHECK(v.type.id != GCOL_LIST || v.num_children > GCOL_LIST_VALUES_CHILD,
                    GCOL_ERROR_INVALID_ARGUMENT, "a LIST column without its values child");
  GCOL_DETAIL_CHECK(v.type.id != GCOL_DICTIONARY32 || v.num_children > GCOL_DICTIONARY_KEYS_CHILD,
                    GCOL_ERROR_INVALID_ARGUMENT, "a DICTIONARY32 column without its keys");
  GCOL_DETAIL_TRY(schema_node_make(field != NULL && field->name != NULL ? field->name
                                                                         : default_name,
                                   n, out, &node));
  memcpy(node->format, format, sizeof format);
  GCOL_DETAIL_TRY(export_schema_children(v, field, out, node));
done:
  if (status != GCOL_OK && node != NULL) out->release(out);
  return status;
}

static gcol_status arrow_schema_export_column(gcol_column_view column,
                                              const gcol_arrow_field *field,
                                              struct ArrowSchema *out) {
  gcol_status status = GCOL_OK;
  struct ArrowSchema result;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_TRY(gcol_column_view_validate(column, "column"));
  GCOL_DETAIL_TRY(export_schema(column, field, "", &result));
  *out = result;
done:
  return status;
}

gcol_status gcol_arrow_schema_export_column(gcol_column_view column, const gcol_arrow_field *field,
                                            struct ArrowSchema *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_schema_export_column");
  gcol_status const status = arrow_schema_export_column(column, field, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_schema_export_table(gcol_table_view table, const gcol_arrow_field *fields,
                                             struct ArrowSchema *out) {
  gcol_status status = GCOL_OK;
  struct ArrowSchema result;
  gcol_column_view as_struct;
  gcol_arrow_field top;
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CHECK(table.num_columns >= 0 && (table.columns != NULL || table.num_columns == 0),
                    GCOL_ERROR_INVALID_ARGUMENT, "table has no column array");
  as_struct = gcol_column_view_make(gcol_data_type_make(GCOL_STRUCT), table.num_rows, NULL,
                                    NULL, 0);
  as_struct.num_children = table.num_columns;
  as_struct.children = table.columns;
  GCOL_DETAIL_TRY(gcol_column_view_validate(as_struct, "table"));
  memset(&top, 0, sizeof top);
  top.num_children = fields != NULL ? table.num_columns : 0;
  top.children = fields;
  GCOL_DETAIL_TRY(export_schema(as_struct, &top, "", &result));
  result.flags = 0; /* a record batch is not nullable */
  *out = result;
done:
  return status;
}

gcol_status gcol_arrow_schema_export_table(gcol_table_view table, const gcol_arrow_field *fields,
                                           struct ArrowSchema *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_schema_export_table");
  gcol_status const status = arrow_schema_export_table(table, fields, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- import: format -> gcol type ---- */

typedef struct format_entry {
  const char *format;
  gcol_type_id id;
  gcol_detail_arrow_layout layout;
  int32_t width;
} format_entry;

static const format_entry plain_formats[] = {
    {"n", GCOL_EMPTY, GCOL_DETAIL_ARROW_NULL, 0},
    {"b", GCOL_BOOL8, GCOL_DETAIL_ARROW_BOOL, 1},
    {"c", GCOL_INT8, GCOL_DETAIL_ARROW_FIXED, 1},
    {"s", GCOL_INT16, GCOL_DETAIL_ARROW_FIXED, 2},
    {"i", GCOL_INT32, GCOL_DETAIL_ARROW_FIXED, 4},
    {"l", GCOL_INT64, GCOL_DETAIL_ARROW_FIXED, 8},
    {"C", GCOL_UINT8, GCOL_DETAIL_ARROW_FIXED, 1},
    {"S", GCOL_UINT16, GCOL_DETAIL_ARROW_FIXED, 2},
    {"I", GCOL_UINT32, GCOL_DETAIL_ARROW_FIXED, 4},
    {"L", GCOL_UINT64, GCOL_DETAIL_ARROW_FIXED, 8},
    {"f", GCOL_FLOAT32, GCOL_DETAIL_ARROW_FIXED, 4},
    {"g", GCOL_FLOAT64, GCOL_DETAIL_ARROW_FIXED, 8},
    {"tdD", GCOL_TIMESTAMP_DAYS, GCOL_DETAIL_ARROW_FIXED, 4},
    {"tdm", GCOL_TIMESTAMP_MILLISECONDS, GCOL_DETAIL_ARROW_FIXED, 8},
    {"tDs", GCOL_DURATION_SECONDS, GCOL_DETAIL_ARROW_FIXED, 8},
    {"tDm", GCOL_DURATION_MILLISECONDS, GCOL_DETAIL_ARROW_FIXED, 8},
    {"tDu", GCOL_DURATION_MICROSECONDS, GCOL_DETAIL_ARROW_FIXED, 8},
    {"tDn", GCOL_DURATION_NANOSECONDS, GCOL_DETAIL_ARROW_FIXED, 8},
    {"u", GCOL_STRING, GCOL_DETAIL_ARROW_STRING, 4},
    {"U", GCOL_STRING, GCOL_DETAIL_ARROW_STRING, 8},
    {"vu", GCOL_STRING, GCOL_DETAIL_ARROW_STRING_VIEW, 16}, /* converted to STRING */
    {"+l", GCOL_LIST, GCOL_DETAIL_ARROW_LIST, 4},
    {"+L", GCOL_LIST, GCOL_DETAIL_ARROW_LIST, 8},
    {"+s", GCOL_STRUCT, GCOL_DETAIL_ARROW_STRUCT, 0},
};

/* Valid Arrow formats that gcol does not take (UNSUPPORTED rather than malformed). */
static bool is_known_unsupported(const char *f) {
  static const char *const exact[] = {"e", "z", "Z", "vz", "+vl", "+vL", "+m", "+r",
                                      "tts", "ttm", "ttu", "ttn", "tiM", "tiD", "tin"};
  static const char *const prefix[] = {"w:", "+w:", "+ud:", "+us:"};
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; ++i) {
    if (strcmp(f, exact[i]) == 0) return true;
  }
  for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; ++i) {
    if (strncmp(f, prefix[i], strlen(prefix[i])) == 0) return true;
  }
  return false;
}

/* Parses a decimal integer at *s (optional '-'), advancing *s; false if none or too big. */
static bool parse_int(const char **s, int32_t *out) {
  const char *p = *s;
  bool const neg = *p == '-';
  if (neg) ++p;
  if (*p < '0' || *p > '9') return false;
  int64_t v = 0;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (*p++ - '0');
    if (v > 100000) return false;
  }
  *out = (int32_t)(neg ? -v : v);
  *s = p;
  return true;
}

/* "d:P,S[,W]" -> a decimal type and its precision. */
static gcol_status parse_decimal(const char *f, gcol_detail_arrow_type *t, int32_t *precision) {
  const char *p = f + 2;
  int32_t prec = 0, scale = 0, bits = 128;
  bool ok = parse_int(&p, &prec) && *p++ == ',' && parse_int(&p, &scale);
  if (ok && *p == ',') {
    ++p;
    ok = parse_int(&p, &bits);
  }
  GCOL_DETAIL_REQUIRE(ok && *p == '\0', GCOL_ERROR_INVALID_ARGUMENT,
                      "malformed decimal format \"%s\"", f);
  GCOL_DETAIL_REQUIRE(bits == 32 || bits == 64 || bits == 128 || bits == 256,
                      GCOL_ERROR_INVALID_ARGUMENT, "decimal format \"%s\": %d bits", f,
                      (int)bits);
  GCOL_DETAIL_REQUIRE(bits != 256, GCOL_ERROR_UNSUPPORTED, "decimal256 (\"%s\") is not supported",
                      f);
  t->type = gcol_data_type_decimal(bits == 32 ? GCOL_DECIMAL32
                                   : bits == 64 ? GCOL_DECIMAL64
                                                : GCOL_DECIMAL128,
                                   -scale);
  t->layout = GCOL_DETAIL_ARROW_FIXED;
  t->width = bits / 8;
  int32_t const max = gcol_detail_decimal_max_precision(t->type.id);
  GCOL_DETAIL_REQUIRE(prec >= 1 && prec <= max, GCOL_ERROR_INVALID_ARGUMENT,
                      "decimal format \"%s\": precision %d outside [1, %d]", f, (int)prec,
                      (int)max);
  *precision = prec;
  return GCOL_OK;
}

/* Parses one format into t (children aside); timestamps point *timezone into f. */
static gcol_status parse_format(const char *f, gcol_detail_arrow_type *t, const char **timezone,
                                int32_t *precision) {
  for (size_t i = 0; i < sizeof plain_formats / sizeof plain_formats[0]; ++i) {
    if (strcmp(f, plain_formats[i].format) == 0) {
      t->type = gcol_data_type_make(plain_formats[i].id);
      t->layout = plain_formats[i].layout;
      t->width = plain_formats[i].width;
      return GCOL_OK;
    }
  }
  if (strncmp(f, "ts", 2) == 0 && f[2] != '\0' && f[3] == ':') {
    const char *units = "smun";
    const char *u = strchr(units, f[2]);
    GCOL_DETAIL_REQUIRE(u != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                        "malformed timestamp format \"%s\"", f);
    t->type = gcol_data_type_make((gcol_type_id)(GCOL_TIMESTAMP_SECONDS + (u - units)));
    t->layout = GCOL_DETAIL_ARROW_FIXED;
    t->width = 8;
    *timezone = f[4] != '\0' ? f + 4 : NULL;
    return GCOL_OK;
  }
  if (strncmp(f, "d:", 2) == 0) return parse_decimal(f, t, precision);
  GCOL_DETAIL_REQUIRE(!is_known_unsupported(f), GCOL_ERROR_UNSUPPORTED,
                      "Arrow type \"%s\" is not supported", f);
  return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "malformed format \"%s\"", f);
}

typedef struct parse_ctx {
  gcol_detail_arena *arena;
  char path[256];
} parse_ctx;

static gcol_status parse_schema(parse_ctx *ctx, const struct ArrowSchema *s, int depth,
                                gcol_detail_arrow_type *t, gcol_arrow_field *field);

/* Parses children (and the dictionary) of s into t and field. */
static gcol_status parse_children(parse_ctx *ctx, const struct ArrowSchema *s, int depth,
                                  gcol_detail_arrow_type *t, gcol_arrow_field *field) {
  size_t const len = strlen(ctx->path);
  int32_t const n = (int32_t)s->n_children + (s->dictionary != NULL ? 1 : 0);
  gcol_detail_arrow_type *types = NULL;
  gcol_arrow_field *fields = NULL;
  if (n > 0) {
    types = (gcol_detail_arrow_type *)gcol_detail_arena_alloc(ctx->arena, sizeof *types * (size_t)n);
    fields = (gcol_arrow_field *)gcol_detail_arena_alloc(ctx->arena, sizeof *fields * (size_t)n);
    GCOL_DETAIL_REQUIRE(types != NULL && fields != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                        "cannot allocate %d children", (int)n);
  }
  for (int32_t i = 0; i < n; ++i) {
    bool const is_dict = i == (int32_t)s->n_children;
    const struct ArrowSchema *child = is_dict ? s->dictionary : s->children[i];
    if (is_dict) {
      snprintf(ctx->path + len, sizeof ctx->path - len, ".dictionary");
    } else {
      snprintf(ctx->path + len, sizeof ctx->path - len, ".children[%d]", (int)i);
    }
    GCOL_DETAIL_REQUIRE(child != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", ctx->path);
    gcol_status const st = parse_schema(ctx, child, depth + 1, &types[i], &fields[i]);
    if (st != GCOL_OK) return st;
    ctx->path[len] = '\0';
  }
  t->num_children = n;
  t->children = types;
  field->num_children = n;
  field->children = fields;
  return GCOL_OK;
}

/* Checks the child count and the dictionary's index type of a parsed node. */
static gcol_status check_shape(parse_ctx *ctx, const struct ArrowSchema *s,
                               gcol_detail_arrow_type *t) {
  int64_t const expected = t->layout == GCOL_DETAIL_ARROW_LIST ? 1 : 0;
  GCOL_DETAIL_REQUIRE(t->layout == GCOL_DETAIL_ARROW_STRUCT || s->n_children == expected,
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: format \"%s\" needs %lld children, not %lld",
                      ctx->path, s->format, (long long)expected, (long long)s->n_children);
  GCOL_DETAIL_REQUIRE(s->n_children >= 0 && s->n_children <= INT32_MAX &&
                          (s->children != NULL || s->n_children == 0),
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: %lld children but children is %s",
                      ctx->path, (long long)s->n_children, s->children == NULL ? "NULL" : "set");
  if (s->dictionary != NULL) {
    GCOL_DETAIL_REQUIRE(gcol_type_is_integral(t->type.id), GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: dictionary indices of type \"%s\" are not integers", ctx->path,
                        s->format);
    /* any integer indices: gcol's DICTIONARY32 keeps them as INT32 (converted on import;
     * a dictionary has fewer than 2^31 keys, so every valid index fits) */
    t->index_type = t->type.id;
    t->type = gcol_data_type_make(GCOL_DICTIONARY32);
    t->layout = GCOL_DETAIL_ARROW_DICTIONARY;
  }
  return GCOL_OK;
}

static gcol_status parse_schema(parse_ctx *ctx, const struct ArrowSchema *s, int depth,
                                gcol_detail_arrow_type *t, gcol_arrow_field *field) {
  const char *tz = NULL;
  int32_t precision = 0;
  GCOL_DETAIL_REQUIRE(depth <= GCOL_DETAIL_ARROW_MAX_DEPTH, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: nested deeper than %d levels (or cyclic)", ctx->path,
                      GCOL_DETAIL_ARROW_MAX_DEPTH);
  GCOL_DETAIL_REQUIRE(s->release != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is released",
                      ctx->path);
  GCOL_DETAIL_REQUIRE(s->format != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s.format is NULL",
                      ctx->path);
  gcol_status st = parse_format(s->format, t, &tz, &precision);
  if (st != GCOL_OK) return st;
  GCOL_DETAIL_TRY_RETURN(check_shape(ctx, s, t));
  field->name = gcol_detail_arena_strdup(ctx->arena, s->name);
  field->timezone = gcol_detail_arena_strdup(ctx->arena, tz);
  field->precision = precision;
  GCOL_DETAIL_REQUIRE((s->name == NULL || field->name != NULL) && (tz == NULL || field->timezone != NULL),
                      GCOL_ERROR_OUT_OF_MEMORY, "cannot copy the field's name");
  return parse_children(ctx, s, depth, t, field);
}

gcol_status gcol_detail_arrow_schema_parse(const struct ArrowSchema *schema,
                                           gcol_detail_arena *arena,
                                           gcol_detail_arrow_type **out_type,
                                           gcol_arrow_field **out_field) {
  parse_ctx ctx;
  ctx.arena = arena;
  snprintf(ctx.path, sizeof ctx.path, "schema");
  gcol_detail_arrow_type *t = (gcol_detail_arrow_type *)gcol_detail_arena_alloc(arena, sizeof *t);
  gcol_arrow_field *f = (gcol_arrow_field *)gcol_detail_arena_alloc(arena, sizeof *f);
  GCOL_DETAIL_REQUIRE(t != NULL && f != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a type");
  GCOL_DETAIL_TRY_RETURN(parse_schema(&ctx, schema, 0, t, f));
  *out_type = t;
  *out_field = f;
  return GCOL_OK;
}

/* ---- checks of an array against its type (host only: no buffer is read) ---- */

typedef struct check_ctx {
  bool device;
  char path[256];
} check_ctx;

/* Buffers a layout has (a null array may come with 0 or 1). */
static int64_t expected_buffers(gcol_detail_arrow_layout layout) {
  switch (layout) {
    case GCOL_DETAIL_ARROW_NULL: return 0;
    case GCOL_DETAIL_ARROW_STRUCT: return 1;
    case GCOL_DETAIL_ARROW_STRING: return 3;
    case GCOL_DETAIL_ARROW_STRING_VIEW: return 3; /* at least: data buffers between */
    default: return 2;
  }
}

static gcol_status check_alignment(check_ctx *ctx, const void *p, int64_t align, int index) {
  GCOL_DETAIL_REQUIRE(!ctx->device || p == NULL || (uintptr_t)p % (uintptr_t)align == 0,
                      GCOL_ERROR_UNSUPPORTED, "%s.buffers[%d] at %p is not %lld-byte aligned",
                      ctx->path, index, p, (long long)align);
  return GCOL_OK;
}

/* The counts, lengths and buffers of one node. */
static gcol_status check_node(check_ctx *ctx, const struct ArrowArray *a,
                              const gcol_detail_arrow_type *t) {
  int64_t const nb = expected_buffers(t->layout);
  GCOL_DETAIL_REQUIRE(a->release != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is released", ctx->path);
  GCOL_DETAIL_REQUIRE(a->length >= 0 && a->offset >= 0 && a->length <= INT64_MAX - a->offset,
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: length %lld and offset %lld do not fit",
                      ctx->path, (long long)a->length, (long long)a->offset);
  GCOL_DETAIL_REQUIRE(a->null_count >= -1 && a->null_count <= a->length,
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: null count %lld outside [-1, %lld]",
                      ctx->path, (long long)a->null_count, (long long)a->length);
  /* a string view array has its data buffers, then their sizes: 3 buffers or more */
  bool const views = t->layout == GCOL_DETAIL_ARROW_STRING_VIEW;
  GCOL_DETAIL_REQUIRE(a->n_buffers == nb || (views && a->n_buffers > nb && a->n_buffers <= INT32_MAX) ||
                          (t->layout == GCOL_DETAIL_ARROW_NULL && a->n_buffers == 1),
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: %lld buffers, type %s needs %s%lld", ctx->path,
                      (long long)a->n_buffers, gcol_type_name(t->type.id), views ? "at least " : "",
                      (long long)nb);
  GCOL_DETAIL_REQUIRE(a->n_buffers == 0 || a->buffers != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s.buffers is NULL", ctx->path);
  GCOL_DETAIL_REQUIRE(a->n_children == (t->layout == GCOL_DETAIL_ARROW_DICTIONARY ? 0 : t->num_children),
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: %lld children, the schema has %d", ctx->path,
                      (long long)a->n_children, (int)t->num_children);
  GCOL_DETAIL_REQUIRE(a->n_children == 0 || a->children != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s.children is NULL", ctx->path);
  GCOL_DETAIL_REQUIRE((a->dictionary != NULL) == (t->layout == GCOL_DETAIL_ARROW_DICTIONARY),
                      GCOL_ERROR_INVALID_ARGUMENT, "%s: %s", ctx->path,
                      a->dictionary != NULL ? "a dictionary the schema does not have"
                                            : "no dictionary for a dictionary type");
  if (t->layout == GCOL_DETAIL_ARROW_NULL) return GCOL_OK;
  GCOL_DETAIL_REQUIRE(a->buffers[0] != NULL || a->null_count <= 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: %lld nulls but no validity buffer", ctx->path, (long long)a->null_count);
  GCOL_DETAIL_TRY_RETURN(check_alignment(ctx, a->buffers[0], 4, 0));
  if (t->layout == GCOL_DETAIL_ARROW_STRUCT) return GCOL_OK;
  /* Values (fixed, bool, indices) or offsets: needed as soon as there are rows. */
  GCOL_DETAIL_REQUIRE(a->length == 0 || a->buffers[1] != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s.buffers[1] is NULL for %lld rows", ctx->path, (long long)a->length);
  int64_t const align = t->layout == GCOL_DETAIL_ARROW_BOOL ? 1 : t->width > 8 ? 8 : t->width;
  GCOL_DETAIL_TRY_RETURN(check_alignment(ctx, a->buffers[1], align, 1));
  if (views && a->n_buffers > 3) { /* the data buffers' sizes: read by the host import */
    GCOL_DETAIL_REQUIRE(a->buffers[a->n_buffers - 1] != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: the sizes of %lld data buffers are NULL", ctx->path,
                        (long long)(a->n_buffers - 3));
  }
  return GCOL_OK;
}

static gcol_status check_array(check_ctx *ctx, const struct ArrowArray *a,
                               const gcol_detail_arrow_type *t);

static gcol_status check_children(check_ctx *ctx, const struct ArrowArray *a,
                                  const gcol_detail_arrow_type *t) {
  size_t const len = strlen(ctx->path);
  for (int32_t i = 0; i < t->num_children; ++i) {
    bool const is_dict = t->layout == GCOL_DETAIL_ARROW_DICTIONARY;
    const struct ArrowArray *child = is_dict ? a->dictionary : a->children[i];
    snprintf(ctx->path + len, sizeof ctx->path - len, is_dict ? ".dictionary" : ".children[%d]",
             (int)i);
    GCOL_DETAIL_REQUIRE(child != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", ctx->path);
    GCOL_DETAIL_TRY_RETURN(check_array(ctx, child, &t->children[i]));
    /* A struct's fields are read at the parent's offset + row. */
    GCOL_DETAIL_REQUIRE(t->layout != GCOL_DETAIL_ARROW_STRUCT || child->length >= a->offset + a->length,
                        GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: length %lld is below the parent's offset + length %lld", ctx->path,
                        (long long)child->length, (long long)(a->offset + a->length));
    ctx->path[len] = '\0';
  }
  return GCOL_OK;
}

static gcol_status check_array(check_ctx *ctx, const struct ArrowArray *a,
                               const gcol_detail_arrow_type *t) {
  GCOL_DETAIL_TRY_RETURN(check_node(ctx, a, t));
  return check_children(ctx, a, t);
}

gcol_status gcol_detail_arrow_array_check(const struct ArrowArray *array,
                                          const gcol_detail_arrow_type *type, bool device) {
  check_ctx ctx;
  ctx.device = device;
  snprintf(ctx.path, sizeof ctx.path, "array");
  return check_array(&ctx, array, type);
}

/* ---- fields ---- */

static bool field_copy_into(const gcol_arrow_field *src, gcol_arrow_field *dst,
                            gcol_detail_arena *arena) {
  *dst = *src;
  dst->name = gcol_detail_arena_strdup(arena, src->name);
  dst->timezone = gcol_detail_arena_strdup(arena, src->timezone);
  dst->children = gcol_detail_arrow_fields_copy(src->children, src->num_children, arena);
  return (src->name == NULL || dst->name != NULL) &&
         (src->timezone == NULL || dst->timezone != NULL) &&
         (src->children == NULL || src->num_children <= 0 || dst->children != NULL);
}

gcol_arrow_field *gcol_detail_arrow_fields_copy(const gcol_arrow_field *fields, int32_t count,
                                                gcol_detail_arena *arena) {
  if (fields == NULL || count <= 0) return NULL;
  gcol_arrow_field *out =
      (gcol_arrow_field *)gcol_detail_arena_alloc(arena, sizeof *out * (size_t)count);
  if (out == NULL) return NULL;
  for (int32_t i = 0; i < count; ++i) {
    if (!field_copy_into(&fields[i], &out[i], arena)) return NULL;
  }
  return out;
}

/* A field tree handed to the user: one allocation for the arena header, then the tree. */
typedef struct owned_field {
  gcol_arrow_field field; /* first: the user's pointer is this struct's */
  gcol_detail_arena arena;
} owned_field;

void gcol_arrow_field_free(gcol_arrow_field *field) {
  if (field == NULL) return;
  owned_field *owned = (owned_field *)field;
  gcol_detail_arena_free(&owned->arena);
  free(owned);
}

gcol_status gcol_detail_arrow_field_hand_out(const gcol_arrow_field *field,
                                             gcol_arrow_field **out) {
  owned_field *owned = (owned_field *)calloc(1, sizeof *owned);
  GCOL_DETAIL_REQUIRE(owned != NULL, GCOL_ERROR_OUT_OF_MEMORY, "cannot allocate a field");
  if (!field_copy_into(field, &owned->field, &owned->arena)) {
    gcol_arrow_field_free(&owned->field);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot copy a field");
  }
  *out = &owned->field;
  return GCOL_OK;
}

bool gcol_detail_arrow_children_alloc(int64_t n, gcol_detail_arrow_children *out) {
  memset(out, 0, sizeof *out);
  if (n <= 0) return true;
  out->ptrs = (struct ArrowArray **)calloc((size_t)n, sizeof *out->ptrs);
  out->arrays = (struct ArrowArray *)calloc((size_t)n, sizeof *out->arrays);
  if (out->ptrs == NULL || out->arrays == NULL) {
    gcol_detail_arrow_children_free(out);
    return false;
  }
  for (int64_t i = 0; i < n; ++i) out->ptrs[i] = &out->arrays[i];
  return true;
}

void gcol_detail_arrow_children_free(gcol_detail_arrow_children *c) {
  free(c->ptrs);
  free(c->arrays);
  memset(c, 0, sizeof *c);
}
