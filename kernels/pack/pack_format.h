/*
 * The packed metadata format (see include/gcol/pack.h): header and node records, and the
 * host-side parser shared by gcol_unpack(), serialize and deserialize. Host C, no CUDA.
 */
#ifndef GCOL_KERNELS_PACK_FORMAT_H
#define GCOL_KERNELS_PACK_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "gcol/pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bit 0 of gcol_detail_pack_node.flags: the node has a null mask. */
#define GCOL_DETAIL_PACK_HAS_MASK 1

/* The 64-byte metadata header, as laid out in the blob (natural alignment, no padding). */
typedef struct gcol_detail_pack_header {
  uint32_t magic;
  uint32_t version;
  uint32_t header_size;
  uint32_t node_size;
  int32_t num_columns;
  uint32_t alignment;
  int64_t num_nodes;
  int64_t num_rows;
  int64_t data_size;
  int64_t reserved[2];
} gcol_detail_pack_header;

/* One 64-byte column node. Offsets and sizes in bytes within the device buffer. */
typedef struct gcol_detail_pack_node {
  int32_t type_id;
  int32_t scale;
  int32_t num_children;
  int32_t flags;
  int64_t size;
  int64_t null_count;
  int64_t data_offset;
  int64_t data_size;
  int64_t mask_offset;
  int64_t mask_size;
} gcol_detail_pack_node;

/* The 32-byte header of serialized bytes. */
typedef struct gcol_detail_pack_serial_header {
  uint32_t magic;
  uint32_t version;
  uint64_t reserved;
  uint64_t metadata_size;
  uint64_t data_size;
} gcol_detail_pack_serial_header;

/* Validates a metadata blob against `data_size` bytes of data and builds the views; `data`
 * may be NULL to validate only (the views' pointers are then NULL). `func` names the public
 * entry point in messages. Host only, reads nothing but the blob. */
gcol_status gcol_detail_pack_parse(const uint8_t *metadata, size_t metadata_size, const void *data,
                                   size_t data_size, const char *func, gcol_unpacked_table **out);

/* Validates the serialized header against `size`; on success the metadata and the data lie
 * at bytes + GCOL_PACK_SERIAL_HEADER_SIZE and right after the metadata. */
gcol_status gcol_detail_pack_check_serialized(const uint8_t *bytes, size_t size,
                                              uint64_t *metadata_size, uint64_t *data_size);

#ifdef __cplusplus
}
#endif

#endif /* GCOL_KERNELS_PACK_FORMAT_H */
