/* Named tables: a gcol_table plus one name (a tuple of strings) per column.
 *
 * The frame owns its table and keeps `names[i * num_levels + l]`, level l of column i's name,
 * as its own copies. Lookups scan the names (O(columns) per name); make checks uniqueness by
 * sorting the column indices by name (O(n log n)). Host bookkeeping only: nothing here
 * touches device memory. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/frame.h"
#include "internal/error.h"
#include "internal/nvtx.h"

struct gcol_frame {
  gcol_table *table;  /* owned; its arrays have room for `capacity` columns */
  int32_t capacity;   /* columns the arrays of table and names can hold */
  int32_t num_levels; /* levels of every name */
  char **names;       /* capacity * num_levels owned strings, column-major by name */
};

/* ---- names ---- */

/* Writes "('a', 'b')" (at most size bytes) for messages. */
static const char *name_text(gcol_name name, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int32_t l = 0; l < name.num_levels && used + 1 < size; ++l) {
    int const n = snprintf(buf + used, size - used, "%s'%s'%s", l == 0 ? "(" : ", ",
                           name.levels[l] != NULL ? name.levels[l] : "(null)",
                           l + 1 == name.num_levels ? ")" : "");
    if (n < 0) break;
    used += (size_t)n;
  }
  return buf;
}

#define NAME_TEXT_SIZE 256

/* Checks a name argument against the frame's levels (or `levels` when it is a prefix). */
static gcol_status check_name(gcol_name name, int32_t min_levels, int32_t max_levels,
                              const char *what) {
  GCOL_DETAIL_REQUIRE(name.num_levels >= min_levels && name.num_levels <= max_levels,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      min_levels == max_levels ? "%s has %d levels, the frame's names have %d"
                                               : "%s has %d levels, not 1 to %d",
                      what, (int)name.num_levels, (int)max_levels);
  GCOL_DETAIL_REQUIRE(name.levels != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s has NULL levels",
                      what);
  for (int32_t l = 0; l < name.num_levels; ++l) {
    GCOL_DETAIL_REQUIRE(name.levels[l] != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: level %d is NULL", what, (int)l);
  }
  return GCOL_OK;
}

static char **column_name(const gcol_frame *f, int32_t i) {
  return f->names + (size_t)i * (size_t)f->num_levels;
}

/* True when column i's first `depth` levels are those of `name`. */
static bool matches(const gcol_frame *f, int32_t i, gcol_name name) {
  char *const *own = column_name(f, i);
  for (int32_t l = 0; l < name.num_levels; ++l) {
    if (strcmp(own[l], name.levels[l]) != 0) return false;
  }
  return true;
}

static int32_t find_index(const gcol_frame *f, gcol_name name) {
  for (int32_t i = 0; i < f->table->num_columns; ++i) {
    if (matches(f, i, name)) return i;
  }
  return -1;
}

static gcol_name own_name(const gcol_frame *f, int32_t i) {
  return gcol_name_make((const char *const *)column_name(f, i), f->num_levels);
}

static char *copy_string(const char *s) {
  size_t const n = strlen(s) + 1;
  char *c = (char *)malloc(n);
  if (c != NULL) memcpy(c, s, n);
  return c;
}

/* Copies the levels of `name` into `dst` (num_levels entries); all or nothing. */
static gcol_status copy_name(gcol_name name, char **dst) {
  for (int32_t l = 0; l < name.num_levels; ++l) {
    dst[l] = copy_string(name.levels[l]);
    if (dst[l] == NULL) {
      for (int32_t k = 0; k < l; ++k) {
        free(dst[k]);
        dst[k] = NULL;
      }
      return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot copy a name");
    }
  }
  return GCOL_OK;
}

static void free_names(char **names, size_t count) {
  if (names == NULL) return;
  for (size_t k = 0; k < count; ++k) free(names[k]);
}

/* qsort over column indices by name: the names being compared are reached through a
 * file-local pointer set for the duration of one sort (make is not reentrant through
 * qsort, and the frame being made is not shared yet). */
typedef struct name_sort_item {
  int32_t index;
  const char *const *levels;
  int32_t num_levels;
} name_sort_item;

static int compare_items(const void *a, const void *b) {
  const name_sort_item *x = (const name_sort_item *)a;
  const name_sort_item *y = (const name_sort_item *)b;
  for (int32_t l = 0; l < x->num_levels; ++l) {
    int const c = strcmp(x->levels[l], y->levels[l]);
    if (c != 0) return c;
  }
  return x->index < y->index ? -1 : x->index > y->index;
}

/* ---- make, free, release ---- */

static gcol_status frame_make(gcol_table *table, const gcol_name *names, int32_t num_names,
                              int32_t num_levels, gcol_frame **out) {
  gcol_status status = GCOL_OK;
  gcol_frame *f = NULL;
  name_sort_item *items = NULL;
  char text[NAME_TEXT_SIZE];
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(table);
  GCOL_DETAIL_CHECK(num_levels >= 1, GCOL_ERROR_INVALID_ARGUMENT,
                    "num_levels is %d, needs at least 1", (int)num_levels);
  GCOL_DETAIL_CHECK(num_names >= 0 && (names != NULL || num_names == 0),
                    GCOL_ERROR_INVALID_ARGUMENT, "names is NULL or num_names negative (%d)",
                    (int)num_names);
  GCOL_DETAIL_CHECK(num_names == table->num_columns, GCOL_ERROR_SIZE_MISMATCH,
                    "%d names for %d columns", (int)num_names, (int)table->num_columns);
  for (int32_t i = 0; i < num_names; ++i) {
    char what[32];
    snprintf(what, sizeof what, "names[%d]", (int)i);
    GCOL_DETAIL_TRY(check_name(names[i], num_levels, num_levels, what));
  }
  if (num_names > 1) {
    items = (name_sort_item *)malloc(sizeof *items * (size_t)num_names);
    GCOL_DETAIL_CHECK(items != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
    for (int32_t i = 0; i < num_names; ++i) {
      items[i].index = i;
      items[i].levels = names[i].levels;
      items[i].num_levels = num_levels;
    }
    qsort(items, (size_t)num_names, sizeof *items, compare_items);
    for (int32_t i = 1; i < num_names; ++i) {
      bool same = true;
      for (int32_t l = 0; l < num_levels && same; ++l) {
        same = strcmp(items[i - 1].levels[l], items[i].levels[l]) == 0;
      }
      GCOL_DETAIL_CHECK(!same, GCOL_ERROR_INVALID_ARGUMENT,
                        "columns %d and %d have the same name %s", (int)items[i - 1].index,
                        (int)items[i].index, name_text(names[items[i].index], text, sizeof text));
    }
  }
  f = (gcol_frame *)calloc(1, sizeof *f);
  GCOL_DETAIL_CHECK(f != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  f->num_levels = num_levels;
  f->capacity = num_names;
  if (num_names > 0) {
    f->names = (char **)calloc((size_t)num_names * (size_t)num_levels, sizeof *f->names);
    GCOL_DETAIL_CHECK(f->names != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
    for (int32_t i = 0; i < num_names; ++i) {
      GCOL_DETAIL_TRY(copy_name(names[i], column_name(f, i)));
    }
  }
  f->table = table;
  *out = f;
  f = NULL;
done:
  if (f != NULL) {
    free_names(f->names, (size_t)f->capacity * (size_t)f->num_levels);
    free(f->names);
    free(f);
  }
  free(items);
  return status;
}

gcol_status gcol_frame_make(gcol_table *table, const gcol_name *names, int32_t num_names,
                            int32_t num_levels, gcol_frame **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_make");
  gcol_status const status = frame_make(table, names, num_names, num_levels, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static void free_frame_struct(gcol_frame *frame) {
  free_names(frame->names, (size_t)frame->table->num_columns * (size_t)frame->num_levels);
  free(frame->names);
  free(frame);
}

void gcol_frame_free(gcol_frame *frame) {
  if (frame == NULL) return;
  gcol_table *const table = frame->table;
  free_frame_struct(frame);
  gcol_table_free(table);
}

static gcol_status frame_release(gcol_frame *frame, gcol_table **out_table) {
  GCOL_DETAIL_REQUIRE(frame != NULL && out_table != NULL, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s is NULL", frame == NULL ? "frame" : "out_table");
  *out_table = frame->table;
  free_frame_struct(frame);
  return GCOL_OK;
}

gcol_status gcol_frame_release(gcol_frame *frame, gcol_table **out_table) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_release");
  gcol_status const status = frame_release(frame, out_table);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- queries ---- */

int32_t gcol_frame_num_columns(const gcol_frame *frame) {
  return frame != NULL ? frame->table->num_columns : 0;
}

int64_t gcol_frame_num_rows(const gcol_frame *frame) {
  return frame != NULL ? frame->table->num_rows : 0;
}

int32_t gcol_frame_num_levels(const gcol_frame *frame) {
  return frame != NULL ? frame->num_levels : 0;
}

gcol_table_view gcol_frame_get_view(const gcol_frame *frame) {
  if (frame == NULL) {
    gcol_table_view v;
    memset(&v, 0, sizeof v);
    return v;
  }
  return gcol_table_get_view(frame->table);
}

const gcol_column *gcol_frame_get_column(const gcol_frame *frame, int32_t index) {
  if (frame == NULL || index < 0 || index >= frame->table->num_columns) return NULL;
  return frame->table->columns[index];
}

static gcol_status frame_get_name(const gcol_frame *frame, int32_t index, gcol_name *out) {
  GCOL_DETAIL_REQUIRE(frame != NULL && out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL",
                      frame == NULL ? "frame" : "out");
  GCOL_DETAIL_REQUIRE(index >= 0 && index < frame->table->num_columns,
                      GCOL_ERROR_INVALID_ARGUMENT, "index %d out of range [0, %d)", (int)index,
                      (int)frame->table->num_columns);
  *out = own_name(frame, index);
  return GCOL_OK;
}

gcol_status gcol_frame_get_name(const gcol_frame *frame, int32_t index, gcol_name *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_get_name");
  gcol_status const status = frame_get_name(frame, index, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_frame_find(const gcol_frame *frame, gcol_name name, int32_t *out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_find");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = -1;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_TRY(check_name(name, frame->num_levels, frame->num_levels, "name"));
  *out = find_index(frame, name);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* The indices of names, or an error naming the first unknown one. */
static gcol_status lookup_all(const gcol_frame *frame, const gcol_name *names, int32_t num_names,
                              int32_t *out) {
  char text[NAME_TEXT_SIZE];
  GCOL_DETAIL_REQUIRE(frame != NULL, GCOL_ERROR_INVALID_ARGUMENT, "frame is NULL");
  GCOL_DETAIL_REQUIRE(num_names >= 0, GCOL_ERROR_INVALID_ARGUMENT, "num_names is negative (%d)",
                      (int)num_names);
  GCOL_DETAIL_REQUIRE(num_names == 0 || (names != NULL && out != NULL),
                      GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", names == NULL ? "names" : "out");
  for (int32_t i = 0; i < num_names; ++i) {
    char what[32];
    snprintf(what, sizeof what, "names[%d]", (int)i);
    gcol_status const st = check_name(names[i], frame->num_levels, frame->num_levels, what);
    if (st != GCOL_OK) return st;
    out[i] = find_index(frame, names[i]);
    GCOL_DETAIL_REQUIRE(out[i] >= 0, GCOL_ERROR_INVALID_ARGUMENT, "no column is named %s (%s)",
                        name_text(names[i], text, sizeof text), what);
  }
  return GCOL_OK;
}

gcol_status gcol_frame_indices(const gcol_frame *frame, const gcol_name *names,
                               int32_t num_names, int32_t *out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_indices");
  gcol_status const status = lookup_all(frame, names, num_names, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_frame_prefix_indices(const gcol_frame *frame, gcol_name prefix, int32_t *out,
                                      int32_t capacity, int32_t *out_count) {
  gcol_status status = GCOL_OK;
  char text[NAME_TEXT_SIZE];
  int32_t count = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_prefix_indices");
  GCOL_DETAIL_CHECK_NOT_NULL(out_count);
  *out_count = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_CHECK(capacity >= 0 && (out != NULL || capacity == 0), GCOL_ERROR_INVALID_ARGUMENT,
                    "out is NULL or capacity negative (%d)", (int)capacity);
  GCOL_DETAIL_TRY(check_name(prefix, 1, frame->num_levels, "prefix"));
  for (int32_t i = 0; i < frame->table->num_columns; ++i) {
    if (!matches(frame, i, prefix)) continue;
    if (count < capacity) out[count] = i;
    ++count;
  }
  GCOL_DETAIL_CHECK(count > 0, GCOL_ERROR_INVALID_ARGUMENT, "no column's name starts with %s",
                    name_text(prefix, text, sizeof text));
  GCOL_DETAIL_CHECK(count <= capacity, GCOL_ERROR_INVALID_ARGUMENT,
                    "%d columns start with %s, capacity is %d", (int)count,
                    name_text(prefix, text, sizeof text), (int)capacity);
  *out_count = count;
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_frame_select_view(const gcol_frame *frame, const gcol_name *names,
                                   int32_t num_names, gcol_column_view *storage,
                                   gcol_table_view *out) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_select_view");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_CHECK(storage != NULL || num_names == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "storage is NULL");
  indices = (int32_t *)malloc(sizeof *indices * (size_t)(num_names > 0 ? num_names : 1));
  GCOL_DETAIL_CHECK(indices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_TRY(lookup_all(frame, names, num_names, indices));
  GCOL_DETAIL_TRY(
      gcol_table_view_select(gcol_table_get_view(frame->table), indices, num_names, storage, out));
done:
  free(indices);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- new frames over shared columns ---- */

/* A frame over shallow copies of the columns at `indices`, named as they are in `frame`
 * less their first `drop` levels. */
static gcol_status select_indices(const gcol_frame *frame, const int32_t *indices, int32_t count,
                                  int32_t drop, gcol_stream stream, gcol_frame **out) {
  gcol_status status = GCOL_OK;
  gcol_column **columns = NULL;
  gcol_name *names = NULL;
  gcol_table *table = NULL;
  int32_t made = 0;
  size_t const n = count > 0 ? (size_t)count : 1;
  columns = (gcol_column **)calloc(n, sizeof *columns);
  names = (gcol_name *)calloc(n, sizeof *names);
  GCOL_DETAIL_CHECK(columns != NULL && names != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "host allocation failed");
  for (; made < count; ++made) {
    names[made] = gcol_name_make((const char *const *)column_name(frame, indices[made]) + drop,
                                 frame->num_levels - drop);
    GCOL_DETAIL_TRY(
        gcol_column_copy_shallow(frame->table->columns[indices[made]], stream, &columns[made]));
  }
  GCOL_DETAIL_TRY(gcol_table_make(columns, count, &table));
  made = 0; /* owned by the table */
  GCOL_DETAIL_TRY(frame_make(table, names, count, frame->num_levels - drop, out));
  table = NULL; /* owned by the frame */
done:
  for (int32_t i = 0; i < made; ++i) gcol_column_free(columns[i]);
  gcol_table_free(table);
  free(columns);
  free(names);
  return status;
}

gcol_status gcol_frame_copy_shallow(const gcol_frame *frame, gcol_stream stream, gcol_frame **out) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_copy_shallow");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  int32_t const count = frame->table->num_columns;
  indices = (int32_t *)malloc(sizeof *indices * (size_t)(count > 0 ? count : 1));
  GCOL_DETAIL_CHECK(indices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  for (int32_t i = 0; i < count; ++i) indices[i] = i;
  GCOL_DETAIL_TRY(select_indices(frame, indices, count, 0, stream, out));
done:
  free(indices);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_frame_select(const gcol_frame *frame, const gcol_name *names, int32_t num_names,
                              gcol_stream stream, gcol_frame **out) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;
  int32_t *first = NULL; /* per column, the first names[] entry naming it, or -1 */
  char text[NAME_TEXT_SIZE];
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_select");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  indices = (int32_t *)malloc(sizeof *indices * (size_t)(num_names > 0 ? num_names : 1));
  GCOL_DETAIL_CHECK(indices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_TRY(lookup_all(frame, names, num_names, indices));
  first = (int32_t *)malloc(sizeof *first * (size_t)(frame->table->num_columns + 1));
  GCOL_DETAIL_CHECK(first != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  for (int32_t c = 0; c < frame->table->num_columns; ++c) first[c] = -1;
  for (int32_t i = 0; i < num_names; ++i) {
    GCOL_DETAIL_CHECK(first[indices[i]] < 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "names[%d] and names[%d] are both %s", (int)first[indices[i]], (int)i,
                      name_text(names[i], text, sizeof text));
    first[indices[i]] = i;
  }
  GCOL_DETAIL_TRY(select_indices(frame, indices, num_names, 0, stream, out));
done:
  free(indices);
  free(first);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_frame_select_prefix(const gcol_frame *frame, gcol_name prefix, gcol_stream stream,
                                     gcol_frame **out) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;
  int32_t count = 0;
  char text[NAME_TEXT_SIZE];
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_select_prefix");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_TRY(check_name(prefix, 1, frame->num_levels, "prefix"));
  int32_t const columns = frame->table->num_columns;
  indices = (int32_t *)malloc(sizeof *indices * (size_t)(columns > 0 ? columns : 1));
  GCOL_DETAIL_CHECK(indices != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  for (int32_t i = 0; i < columns; ++i) {
    if (matches(frame, i, prefix)) indices[count++] = i;
  }
  GCOL_DETAIL_CHECK(count > 0, GCOL_ERROR_INVALID_ARGUMENT, "no column's name starts with %s",
                    name_text(prefix, text, sizeof text));
  /* a full name is a leaf: it keeps its levels; a shorter prefix is dropped from the names */
  int32_t const drop = prefix.num_levels < frame->num_levels ? prefix.num_levels : 0;
  GCOL_DETAIL_TRY(select_indices(frame, indices, count, drop, stream, out));
done:
  free(indices);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- changes ---- */

gcol_status gcol_frame_rename(gcol_frame *frame, gcol_name old_name, gcol_name new_name) {
  gcol_status status = GCOL_OK;
  char text[NAME_TEXT_SIZE];
  char **fresh = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_rename");
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_TRY(check_name(old_name, frame->num_levels, frame->num_levels, "old_name"));
  GCOL_DETAIL_TRY(check_name(new_name, frame->num_levels, frame->num_levels, "new_name"));
  int32_t const index = find_index(frame, old_name);
  GCOL_DETAIL_CHECK(index >= 0, GCOL_ERROR_INVALID_ARGUMENT, "no column is named %s",
                    name_text(old_name, text, sizeof text));
  int32_t const taken = find_index(frame, new_name);
  if (taken == index) goto done; /* its own name */
  GCOL_DETAIL_CHECK(taken < 0, GCOL_ERROR_INVALID_ARGUMENT, "column %d is already named %s",
                    (int)taken, name_text(new_name, text, sizeof text));
  fresh = (char **)calloc((size_t)frame->num_levels, sizeof *fresh);
  GCOL_DETAIL_CHECK(fresh != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_TRY(copy_name(new_name, fresh));
  char **own = column_name(frame, index);
  for (int32_t l = 0; l < frame->num_levels; ++l) {
    free(own[l]);
    own[l] = fresh[l];
  }
done:
  free(fresh);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Grows the table's and the names' arrays to hold at least `needed` columns. */
static gcol_status reserve(gcol_frame *f, int32_t needed) {
  if (needed <= f->capacity) return GCOL_OK;
  int32_t const capacity = needed < 8 ? 8 : needed > INT32_MAX / 2 ? needed : needed * 2;
  size_t const levels = (size_t)f->num_levels;
  gcol_table *t = f->table;
  gcol_column **columns =
      (gcol_column **)realloc(t->columns, sizeof *columns * (size_t)capacity);
  if (columns == NULL) goto fail;
  t->columns = columns;
  gcol_column_view *views =
      (gcol_column_view *)realloc(t->views, sizeof *views * (size_t)capacity);
  if (views == NULL) goto fail;
  /* new view slots start zeroed, as gcol_table's contract has them until a view fills them */
  memset(views + f->capacity, 0, sizeof *views * (size_t)(capacity - f->capacity));
  t->views = views;
  char **names = (char **)realloc(f->names, sizeof *names * (size_t)capacity * levels);
  if (names == NULL) goto fail;
  f->names = names;
  f->capacity = capacity;
  return GCOL_OK;
fail:
  /* arrays that did grow keep their contents; the capacity stays the old one */
  return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot grow to %d columns",
                           (int)capacity);
}

gcol_status gcol_frame_insert(gcol_frame *frame, int32_t index, gcol_name name,
                              gcol_column *column) {
  gcol_status status = GCOL_OK;
  char text[NAME_TEXT_SIZE];
  char **fresh = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_insert");
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  GCOL_DETAIL_CHECK_NOT_NULL(column);
  gcol_table *const t = frame->table;
  GCOL_DETAIL_CHECK(index >= 0 && index <= t->num_columns, GCOL_ERROR_INVALID_ARGUMENT,
                    "index %d out of range [0, %d]", (int)index, (int)t->num_columns);
  GCOL_DETAIL_TRY(check_name(name, frame->num_levels, frame->num_levels, "name"));
  int32_t const taken = find_index(frame, name);
  GCOL_DETAIL_CHECK(taken < 0, GCOL_ERROR_INVALID_ARGUMENT, "column %d is already named %s",
                    (int)taken, name_text(name, text, sizeof text));
  GCOL_DETAIL_CHECK(t->num_columns == 0 || column->size == t->num_rows, GCOL_ERROR_SIZE_MISMATCH,
                    "column has %lld rows, the frame %lld", (long long)column->size,
                    (long long)t->num_rows);
  GCOL_DETAIL_CHECK(t->num_columns < INT32_MAX, GCOL_ERROR_OVERFLOW, "the frame is full");
  fresh = (char **)calloc((size_t)frame->num_levels, sizeof *fresh);
  GCOL_DETAIL_CHECK(fresh != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_TRY(copy_name(name, fresh));
  status = reserve(frame, t->num_columns + 1);
  if (status != GCOL_OK) {
    free_names(fresh, (size_t)frame->num_levels);
    goto done;
  }
  size_t const levels = (size_t)frame->num_levels;
  memmove(frame->names + ((size_t)index + 1) * levels, frame->names + (size_t)index * levels,
          sizeof *frame->names * levels * (size_t)(t->num_columns - index));
  memcpy(frame->names + (size_t)index * levels, fresh, sizeof *fresh * levels);
  memmove(t->columns + index + 1, t->columns + index,
          sizeof *t->columns * (size_t)(t->num_columns - index));
  t->columns[index] = column;
  if (t->num_columns == 0) t->num_rows = column->size;
  t->num_columns += 1;
done:
  free(fresh);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* Removes column i from the arrays (its names are freed, the column is returned). */
static gcol_column *remove_at(gcol_frame *f, int32_t i) {
  gcol_table *const t = f->table;
  size_t const levels = (size_t)f->num_levels;
  gcol_column *const column = t->columns[i];
  free_names(column_name(f, i), levels);
  memmove(f->names + (size_t)i * levels, f->names + ((size_t)i + 1) * levels,
          sizeof *f->names * levels * (size_t)(t->num_columns - i - 1));
  memmove(t->columns + i, t->columns + i + 1, sizeof *t->columns * (size_t)(t->num_columns - i - 1));
  t->num_columns -= 1;
  if (t->num_columns == 0) t->num_rows = 0;
  return column;
}

gcol_status gcol_frame_pop(gcol_frame *frame, gcol_name name, gcol_column **out) {
  gcol_status status = GCOL_OK;
  int32_t index = -1;
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_pop");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(lookup_all(frame, &name, 1, &index));
  *out = remove_at(frame, index);
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

gcol_status gcol_frame_drop(gcol_frame *frame, const gcol_name *names, int32_t num_names) {
  gcol_status status = GCOL_OK;
  int32_t *indices = NULL;
  bool *gone = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_frame_drop");
  GCOL_DETAIL_CHECK_NOT_NULL(frame);
  indices = (int32_t *)malloc(sizeof *indices * (size_t)(num_names > 0 ? num_names : 1));
  gone = (bool *)calloc((size_t)frame->table->num_columns + 1, sizeof *gone);
  GCOL_DETAIL_CHECK(indices != NULL && gone != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "host allocation failed");
  GCOL_DETAIL_TRY(lookup_all(frame, names, num_names, indices));
  for (int32_t k = 0; k < num_names; ++k) gone[indices[k]] = true;
  for (int32_t i = frame->table->num_columns - 1; i >= 0; --i) {
    if (gone[i]) gcol_column_free(remove_at(frame, i));
  }
done:
  free(indices);
  free(gone);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
