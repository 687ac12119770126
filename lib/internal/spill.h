/*
 * The spill manager's side of buffers (lib/spill.c), used by lib/buffer.c, lib/column.c,
 * lib/table.c and lib/status.c. docs/design.md, "Spilling", tells the rules.
 */
#ifndef GCOL_INTERNAL_SPILL_H
#define GCOL_INTERNAL_SPILL_H

#include <stdbool.h>
#include <stddef.h>

#include "gcol/buffer.h"
#include "gcol/memory.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gcol_detail_spill_manager gcol_detail_spill_manager;

/* What an access does to a spillable storage once its bytes are on the device. */
typedef enum gcol_detail_spill_access {
  /* A view or a write access: pinned to the running operation, else to the thread's open
   * scope, else exposed (taken outside any scope: gcol cannot tell when it ends). */
  GCOL_DETAIL_SPILL_VIEW = 0,
  /* A pointer kept for arbitrary use: exposed (never spills again). */
  GCOL_DETAIL_SPILL_EXPOSE = 1,
  /* An internal read (a copy-on-write copy): pinned until
   * gcol_detail_spill_release_temporary. */
  GCOL_DETAIL_SPILL_TEMPORARY = 2
} gcol_detail_spill_access;

/* Before a new storage of `size` bytes is allocated from `mr`: the manager that will own it
 * (NULL when spilling is off or the memory kind is not spillable), after spilling what the
 * device limit asks for. */
gcol_detail_spill_manager *gcol_detail_spill_prepare(gcol_mr *mr, size_t size);

/* After the allocation: makes `s` spillable (pinned to the running operation or open scope,
 * if any). On failure (out of host memory for the record) `s` is untouched. */
gcol_status gcol_detail_spill_register(gcol_detail_spill_manager *m, gcol_buffer_storage *s);

/* Brings a spillable storage's bytes back to the device if they were spilled (the copy on
 * `stream`, or on the manager's stream followed by a wait when `sync`), applies `access`,
 * and sets buffer->data. A storage that is not spillable is left as it is. */
gcol_status gcol_detail_spill_acquire(gcol_buffer *buffer, gcol_detail_spill_access access,
                                      gcol_stream stream, bool sync);

/* Ends a GCOL_DETAIL_SPILL_TEMPORARY access; later spills wait for `stream`. */
void gcol_detail_spill_release_temporary(gcol_buffer_storage *s, gcol_stream stream);

/* The storage's device pointer now (NULL while spilled), read under the manager's lock. */
void *gcol_detail_spill_data(gcol_buffer_storage *s);

/* The last buffer over `s` is gone: true when the caller may free `s` now (its record is
 * gone, a host copy freed); false when a scope still pins it (the scope's end frees it). */
bool gcol_detail_spill_forget(gcol_buffer_storage *s);

/* Makes `s` an ordinary storage again (for gcol_buffer_release): brings it back, waits, and
 * drops its record. ::GCOL_ERROR_INVALID_ARGUMENT while a scope pins it. */
gcol_status gcol_detail_spill_detach(gcol_buffer_storage *s);

/* For an object an operation makes and hands to its caller with raw pointers into its
 * buffers (a join hash, a packed table): exposes the spillable ones among `buffers` (NULL
 * entries skipped) when the operation was called by the user (outermost), so that they
 * never spill under those pointers; inside another operation they stay pinned to it. */
gcol_status gcol_detail_spill_expose_outlasting(gcol_buffer *const *buffers, int count,
                                                gcol_stream stream);

/* The outermost public operation of this thread returned: unpins what it pinned. */
void gcol_detail_spill_operation_end(void);

/* Configuration parsers (exposed for the host tests). A byte count: decimal digits with an
 * optional suffix k, m, g, t (powers of 1024; "KiB", "MB" and the like read the same), no
 * overflow. A switch: on/off, 1/0, true/false, yes/no (any case): 1, 0, or -1 if neither. */
bool gcol_detail_spill_parse_bytes(const char *text, size_t *out);
int gcol_detail_spill_parse_switch(const char *text);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_SPILL_H */
