/* The hand-made Arrow producer of arrow_fake.h. */
#include "arrow_fake.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void fake_schema_release(struct ArrowSchema *s) {
  s->release = NULL; /* first: a cyclic test schema must not come back here */
  for (int64_t i = 0; s->children != NULL && i < s->n_children; ++i) {
    if (s->children[i] == NULL || s->children[i] == s) continue;
    if (s->children[i]->release != NULL) s->children[i]->release(s->children[i]);
    free(s->children[i]);
  }
  if (s->dictionary != NULL) {
    if (s->dictionary->release != NULL) s->dictionary->release(s->dictionary);
    free(s->dictionary);
  }
  free(s->children);
  free((char *)s->format);
  free((char *)s->name);
  if (s->private_data != NULL) ++*(int *)s->private_data;
  s->release = NULL;
}

static char *copy_string(const char *s) {
  if (s == NULL) return NULL;
  char *p = (char *)malloc(strlen(s) + 1);
  strcpy(p, s);
  return p;
}

struct ArrowSchema *fake_schema(const char *format, const char *name, int64_t n, ...) {
  struct ArrowSchema *s = (struct ArrowSchema *)calloc(1, sizeof *s);
  s->format = copy_string(format);
  s->name = copy_string(name);
  s->flags = ARROW_FLAG_NULLABLE;
  s->n_children = n;
  if (n > 0) s->children = (struct ArrowSchema **)calloc((size_t)n, sizeof *s->children);
  va_list ap;
  va_start(ap, n);
  for (int64_t i = 0; i < n; ++i) s->children[i] = va_arg(ap, struct ArrowSchema *);
  va_end(ap);
  s->release = fake_schema_release;
  return s;
}

static void fake_array_release(struct ArrowArray *a) {
  for (int64_t i = 0; a->children != NULL && i < a->n_children; ++i) {
    if (a->children[i] == NULL) continue;
    if (a->children[i]->release != NULL) a->children[i]->release(a->children[i]);
    free(a->children[i]);
  }
  if (a->dictionary != NULL) {
    if (a->dictionary->release != NULL) a->dictionary->release(a->dictionary);
    free(a->dictionary);
  }
  free(a->children);
  free((void *)a->buffers);
  if (a->private_data != NULL) ++*(int *)a->private_data;
  a->release = NULL;
}

struct ArrowArray *fake_array(int64_t length, int64_t null_count, int64_t offset,
                              int64_t n_buffers, const void *b0, const void *b1, const void *b2,
                              int64_t n, ...) {
  struct ArrowArray *a = (struct ArrowArray *)calloc(1, sizeof *a);
  a->length = length;
  a->null_count = null_count;
  a->offset = offset;
  a->n_buffers = n_buffers;
  a->buffers = (const void **)calloc(3, sizeof(void *));
  a->buffers[0] = b0;
  a->buffers[1] = b1;
  a->buffers[2] = b2;
  a->n_children = n;
  if (n > 0) a->children = (struct ArrowArray **)calloc((size_t)n, sizeof *a->children);
  va_list ap;
  va_start(ap, n);
  for (int64_t i = 0; i < n; ++i) a->children[i] = va_arg(ap, struct ArrowArray *);
  va_end(ap);
  a->release = fake_array_release;
  return a;
}

void fake_schema_top(struct ArrowSchema *node, int *counter, struct ArrowSchema *out) {
  *out = *node;
  out->private_data = counter;
  free(node);
}

void fake_array_top(struct ArrowArray *node, int *counter, struct ArrowArray *out) {
  *out = *node;
  out->private_data = counter;
  free(node);
}
