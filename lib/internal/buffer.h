/*
 * The storage under gcol_buffer (lib/buffer.c), shared with the spill manager (lib/spill.c),
 * which moves a spillable storage's bytes between device and host memory.
 */
#ifndef GCOL_INTERNAL_BUFFER_H
#define GCOL_INTERNAL_BUFFER_H

#include <stdatomic.h>

#include "gcol/buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gcol_detail_spill_record gcol_detail_spill_record;

struct gcol_buffer_storage {
  atomic_llong refs;   /* buffers over this storage */
  atomic_bool exposed; /* a pointer went out for arbitrary use: never share again */
  void *data;          /* NULL while spilled (the bytes are then in spill->host) */
  size_t size;
  gcol_mr *mr;
  gcol_stream stream;
  /* The spill manager's record when the storage is spillable (made while spilling was on);
   * NULL otherwise. Set at creation, never changed: data is then read and written only
   * under the manager's lock (lib/spill.c). */
  gcol_detail_spill_record *spill;
};

/* Frees the allocation on the storage's stream and the struct (the spill record is the
 * manager's and must already be gone). */
void gcol_detail_storage_destroy(gcol_buffer_storage *s);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_INTERNAL_BUFFER_H */
