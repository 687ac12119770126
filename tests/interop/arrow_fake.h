/*
 * A hand-made Arrow producer for the interop tests: schema and array nodes built on the heap
 * over buffers the test owns, whose top-level release counts how often it runs (it must run
 * exactly once) and frees the nodes as a real producer's would.
 */
#ifndef GCOL_TESTS_ARROW_FAKE_H
#define GCOL_TESTS_ARROW_FAKE_H

#include "gcol/interop.h"

/* A schema node with n children (then n `struct ArrowSchema *` arguments, taken over). */
struct ArrowSchema *fake_schema(const char *format, const char *name, int64_t n, ...);
/* An array node with up to three buffers (the first n_buffers are used) and n children
 * (then n `struct ArrowArray *` arguments, taken over). */
struct ArrowArray *fake_array(int64_t length, int64_t null_count, int64_t offset,
                              int64_t n_buffers, const void *b0, const void *b1, const void *b2,
                              int64_t n, ...);
/* Moves a heap node into *out and makes its release count into *counter. */
void fake_schema_top(struct ArrowSchema *node, int *counter, struct ArrowSchema *out);
void fake_array_top(struct ArrowArray *node, int *counter, struct ArrowArray *out);

#endif /* GCOL_TESTS_ARROW_FAKE_H */
