/* Host side of pack: metadata validation, gcol_unpack(), frees, serialized header checks. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/error.h"
#include "internal/nvtx.h"
#include "pack/pack_format.h"

static_assert(sizeof(gcol_detail_pack_header) == GCOL_PACK_HEADER_SIZE, "header layout");
static_assert(sizeof(gcol_detail_pack_node) == GCOL_PACK_NODE_SIZE, "node layout");
static_assert(sizeof(gcol_detail_pack_serial_header) == GCOL_PACK_SERIAL_HEADER_SIZE,
              "serial header layout");

/* State of one parse: the blob, where the next node record is, where children go. */
typedef struct parse_state {
  const uint8_t *nodes; /* first node record */
  int64_t num_nodes;
  int64_t next_node; /* next record to read (pre-order) */
  int64_t next_slot; /* next free entry of views for a children block */
  int64_t data_size;
  const char *data; /* NULL: validate only */
  gcol_column_view *views;
  const char *func;
} parse_state;

/* As GCOL_DETAIL_CHECK, naming the public entry point rather than the parser. */
#define PARSE_CHECK(cond, status_code, ...)                             \
  do {                                                                  \
    if (!(cond)) {                                                      \
      status = gcol_detail_error((status_code), st->func, __VA_ARGS__); \
      goto done;                                                        \
    }                                                                   \
  } while (0)

#define PARSE_FAIL(...) return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, st->func, __VA_ARGS__)

/* Checks that [offset, offset + bytes) lies in the data and offset is aligned. */
static gcol_status check_extent(parse_state *st, int64_t node, const char *what, int64_t offset,
                                int64_t bytes) {
  if (bytes < 0)
    PARSE_FAIL("node %lld: negative %s size %lld", (long long)node, what, (long long)bytes);
  if (bytes == 0) return GCOL_OK;
  if (offset < 0 || offset % GCOL_PACK_ALIGNMENT != 0) {
    PARSE_FAIL("node %lld: %s offset %lld is negative or not a multiple of %d", (long long)node,
               what, (long long)offset, GCOL_PACK_ALIGNMENT);
  }
  if (offset > st->data_size || bytes > st->data_size - offset) {
    PARSE_FAIL("node %lld: %s [%lld, +%lld) is beyond the %lld data bytes", (long long)node, what,
               (long long)offset, (long long)bytes, (long long)st->data_size);
  }
  return GCOL_OK;
}

static bool is_offsets_node(const gcol_detail_pack_node *n, int64_t rows) {
  return (n->type_id == GCOL_INT32 || n->type_id == GCOL_INT64) && n->num_children == 0 &&
         n->flags == 0 && n->null_count == 0 && n->size == rows + 1;
}

/* Reads record st->next_node into views[slot], then its children, recursively. */
static gcol_status parse_node(parse_state *st, int64_t slot, int depth,
                              gcol_detail_pack_node *rec) {
  gcol_detail_pack_node n;
  gcol_status status = GCOL_OK;
  int64_t const index = st->next_node;
  if (depth > GCOL_PACK_MAX_DEPTH) PARSE_FAIL("columns nest deeper than %d", GCOL_PACK_MAX_DEPTH);
  if (index >= st->num_nodes)
    PARSE_FAIL("node %lld is missing (%lld nodes)", (long long)index, (long long)st->num_nodes);
  memcpy(&n, st->nodes + index * GCOL_PACK_NODE_SIZE, sizeof n);
  st->next_node++;
  if (rec != NULL) *rec = n;
  gcol_type_id const id = (gcol_type_id)n.type_id;
  if (n.type_id < 0 || n.type_id >= GCOL_NUM_TYPE_IDS)
    PARSE_FAIL("node %lld: invalid type id %d", (long long)index, (int)n.type_id);
  if (id == GCOL_DICTIONARY32)
    PARSE_FAIL("node %lld: DICTIONARY32 is not packed", (long long)index);
  if (!gcol_type_is_decimal(id) && n.scale != 0)
    PARSE_FAIL("node %lld: scale %d on a %s column", (long long)index, (int)n.scale,
               gcol_type_name(id));
  if (n.size < 0) PARSE_FAIL("node %lld: negative size %lld", (long long)index, (long long)n.size);
  if (n.null_count < 0 || n.null_count > n.size) {
    PARSE_FAIL("node %lld: null count %lld out of range for %lld rows", (long long)index,
               (long long)n.null_count, (long long)n.size);
  }
  if ((n.flags & ~GCOL_DETAIL_PACK_HAS_MASK) != 0)
    PARSE_FAIL("node %lld: unknown flags 0x%x", (long long)index, (unsigned)n.flags);
  bool const has_mask = (n.flags & GCOL_DETAIL_PACK_HAS_MASK) != 0;
  if (!has_mask && (n.null_count != 0 || n.mask_size != 0 || n.mask_offset != 0)) {
    PARSE_FAIL("node %lld: %lld nulls or a mask extent without a mask", (long long)index,
               (long long)n.null_count);
  }
  if (has_mask) {
    if (n.mask_size < gcol_bit_num_words(n.size) * 4 || n.mask_size == 0) {
      PARSE_FAIL("node %lld: mask of %lld bytes is too small for %lld rows", (long long)index,
                 (long long)n.mask_size, (long long)n.size);
    }
    GCOL_DETAIL_TRY(check_extent(st, index, "mask", n.mask_offset, n.mask_size));
  }
  GCOL_DETAIL_TRY(check_extent(st, index, "data", n.data_offset, n.data_size));
  if (n.data_size == 0 && n.data_offset != 0)
    PARSE_FAIL("node %lld: data offset %lld with no data", (long long)index,
               (long long)n.data_offset);
  /* Layout per type. */
  if (gcol_type_is_fixed_width(id)) {
    int64_t const width = (int64_t)gcol_type_size(id);
    if (n.num_children != 0)
      PARSE_FAIL("node %lld: %s with %d children", (long long)index, gcol_type_name(id),
                 (int)n.num_children);
    if (n.size > INT64_MAX / width || n.data_size != n.size * width) {
      PARSE_FAIL("node %lld: %lld data bytes for %lld rows of %s", (long long)index,
                 (long long)n.data_size, (long long)n.size, gcol_type_name(id));
    }
  } else if (id == GCOL_EMPTY) {
    if (n.num_children != 0 || n.data_size != 0)
      PARSE_FAIL("node %lld: EMPTY column with data or children", (long long)index);
  } else if (id == GCOL_STRING) {
    if (n.num_children != 1)
      PARSE_FAIL("node %lld: STRING with %d children (1 expected)", (long long)index,
                 (int)n.num_children);
  } else if (id == GCOL_LIST) {
    if (n.num_children != 2)
      PARSE_FAIL("node %lld: LIST with %d children (2 expected)", (long long)index,
                 (int)n.num_children);
    if (n.data_size != 0) PARSE_FAIL("node %lld: LIST with data", (long long)index);
  } else { /* STRUCT */
    if (n.num_children < 0) PARSE_FAIL("node %lld: negative children count", (long long)index);
    if (n.data_size != 0) PARSE_FAIL("node %lld: STRUCT with data", (long long)index);
  }
  if (n.num_children > st->num_nodes - st->next_slot) {
    PARSE_FAIL("node %lld: %d children but only %lld nodes remain", (long long)index,
               (int)n.num_children, (long long)(st->num_nodes - st->next_slot));
  }
  int64_t const first = st->next_slot;
  st->next_slot += n.num_children;
  for (int32_t c = 0; c < n.num_children; ++c) {
    gcol_detail_pack_node child;
    GCOL_DETAIL_TRY(parse_node(st, first + c, depth + 1, &child));
    if ((id == GCOL_STRING || id == GCOL_LIST) && c == GCOL_OFFSETS_CHILD) {
      if (!is_offsets_node(&child, n.size)) {
        PARSE_FAIL("node %lld: offsets child must be INT32 or INT64 with %lld rows, no nulls",
                   (long long)index, (long long)n.size + 1);
      }
      if (id == GCOL_STRING && child.type_id == GCOL_INT32 && n.data_size > INT32_MAX) {
        PARSE_FAIL("node %lld: %lld chars with INT32 offsets", (long long)index,
                   (long long)n.data_size);
      }
    }
    if (id == GCOL_STRUCT && child.size != n.size) {
      PARSE_FAIL("node %lld: field %d has %lld rows, the struct %lld", (long long)index, (int)c,
                 (long long)child.size, (long long)n.size);
    }
  }
  {
    gcol_column_view *v = &st->views[slot];
    v->type = gcol_data_type_decimal(id, n.scale);
    v->size = n.size;
    v->offset = 0;
    v->data = st->data != NULL && n.data_size > 0 ? (const void *)(st->data + n.data_offset) : NULL;
    v->null_mask = st->data != NULL && has_mask
                       ? (const uint32_t *)(const void *)(st->data + n.mask_offset)
                       : NULL;
    v->null_count = n.null_count;
    v->num_children = n.num_children;
    v->children = n.num_children > 0 ? st->views + first : NULL;
  }
done:
  return status;
}

gcol_status gcol_detail_pack_parse(const uint8_t *metadata, size_t metadata_size, const void *data,
                                   size_t data_size, const char *func, gcol_unpacked_table **out) {
  gcol_status status = GCOL_OK;
  gcol_detail_pack_header h;
  gcol_unpacked_table *u = NULL;
  parse_state state;
  parse_state *st = &state;
  memset(st, 0, sizeof *st);
  st->func = func;
  if (out != NULL) *out = NULL;
  if (metadata == NULL) PARSE_FAIL("metadata is NULL");
  if (metadata_size < GCOL_PACK_HEADER_SIZE) {
    PARSE_FAIL("metadata of %zu bytes is shorter than its %d-byte header", metadata_size,
               GCOL_PACK_HEADER_SIZE);
  }
  memcpy(&h, metadata, sizeof h);
  if (h.magic != GCOL_PACK_MAGIC) PARSE_FAIL("bad metadata magic 0x%08x", (unsigned)h.magic);
  if (h.version != GCOL_PACK_VERSION)
    PARSE_FAIL("metadata version %u, expected %u", (unsigned)h.version, GCOL_PACK_VERSION);
  if (h.header_size != GCOL_PACK_HEADER_SIZE || h.node_size != GCOL_PACK_NODE_SIZE ||
      h.alignment != GCOL_PACK_ALIGNMENT || h.reserved[0] != 0 || h.reserved[1] != 0) {
    PARSE_FAIL("metadata header/node size %u/%u, alignment %u or reserved field unexpected",
               (unsigned)h.header_size, (unsigned)h.node_size, (unsigned)h.alignment);
  }
  if (h.num_columns < 0 || h.num_rows < 0 || h.num_nodes < h.num_columns || h.data_size < 0) {
    PARSE_FAIL("metadata counts out of range (%d columns, %lld nodes, %lld rows, %lld bytes)",
               (int)h.num_columns, (long long)h.num_nodes, (long long)h.num_rows,
               (long long)h.data_size);
  }
  if ((uint64_t)h.num_nodes != (metadata_size - GCOL_PACK_HEADER_SIZE) / GCOL_PACK_NODE_SIZE ||
      (metadata_size - GCOL_PACK_HEADER_SIZE) % GCOL_PACK_NODE_SIZE != 0) {
    PARSE_FAIL("metadata of %zu bytes does not hold %lld nodes", metadata_size,
               (long long)h.num_nodes);
  }
  if ((uint64_t)h.data_size > (uint64_t)data_size) {
    PARSE_FAIL("metadata needs %lld data bytes, %zu given", (long long)h.data_size, data_size);
  }
  if (data != NULL && ((uintptr_t)data % 16) != 0)
    PARSE_FAIL("data %p is not 16-byte aligned", data);
  st->nodes = metadata + GCOL_PACK_HEADER_SIZE;
  st->num_nodes = h.num_nodes;
  st->next_slot = h.num_columns;
  st->data_size = h.data_size;
  st->data = (const char *)data;
  u = (gcol_unpacked_table *)calloc(1, sizeof *u);
  PARSE_CHECK(u != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the unpacked table");
  if (h.num_nodes > 0) {
    PARSE_CHECK((uint64_t)h.num_nodes <= SIZE_MAX / sizeof(gcol_column_view),
                GCOL_ERROR_OUT_OF_MEMORY, "%lld views do not fit in host memory",
                (long long)h.num_nodes);
    u->views = (gcol_column_view *)calloc((size_t)h.num_nodes, sizeof(gcol_column_view));
    PARSE_CHECK(u->views != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %lld views",
                (long long)h.num_nodes);
  }
  u->num_views = h.num_nodes;
  st->views = u->views;
  for (int32_t c = 0; c < h.num_columns; ++c) {
    GCOL_DETAIL_TRY(parse_node(st, c, 1, NULL));
    PARSE_CHECK(u->views[c].size == h.num_rows, GCOL_ERROR_INVALID_ARGUMENT,
                "column %d has %lld rows, the table %lld", (int)c, (long long)u->views[c].size,
                (long long)h.num_rows);
  }
  PARSE_CHECK(st->next_node == h.num_nodes, GCOL_ERROR_INVALID_ARGUMENT, "%lld nodes used of %lld",
              (long long)st->next_node, (long long)h.num_nodes);
  u->table.num_columns = h.num_columns;
  u->table.num_rows = h.num_columns == 0 ? 0 : h.num_rows;
  u->table.columns = h.num_columns > 0 ? u->views : NULL;
  if (out != NULL) {
    *out = u;
    u = NULL;
  }
done:
  gcol_unpacked_table_free(u);
  return status;
}

gcol_status gcol_detail_pack_check_serialized(const uint8_t *bytes, size_t size,
                                              uint64_t *metadata_size, uint64_t *data_size) {
  gcol_detail_pack_serial_header h;
  GCOL_DETAIL_REQUIRE(bytes != NULL, GCOL_ERROR_INVALID_ARGUMENT, "bytes is NULL");
  GCOL_DETAIL_REQUIRE(size >= GCOL_PACK_SERIAL_HEADER_SIZE, GCOL_ERROR_INVALID_ARGUMENT,
                      "%zu bytes are shorter than the %d-byte header", size,
                      GCOL_PACK_SERIAL_HEADER_SIZE);
  memcpy(&h, bytes, sizeof h);
  GCOL_DETAIL_REQUIRE(h.magic == GCOL_PACK_SERIAL_MAGIC, GCOL_ERROR_INVALID_ARGUMENT,
                      "bad serialized magic 0x%08x", (unsigned)h.magic);
  GCOL_DETAIL_REQUIRE(h.version == GCOL_PACK_VERSION && h.reserved == 0,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "serialized version %u (expected %u) or reserved field not 0",
                      (unsigned)h.version, GCOL_PACK_VERSION);
  uint64_t const room = (uint64_t)size - GCOL_PACK_SERIAL_HEADER_SIZE;
  GCOL_DETAIL_REQUIRE(h.metadata_size <= room && h.data_size == room - h.metadata_size,
                      GCOL_ERROR_INVALID_ARGUMENT,
                      "%zu bytes do not hold the header, %llu metadata and %llu data bytes", size,
                      (unsigned long long)h.metadata_size, (unsigned long long)h.data_size);
  *metadata_size = h.metadata_size;
  *data_size = h.data_size;
  return GCOL_OK;
}

static gcol_status unpack(const uint8_t *metadata, size_t metadata_size, const void *data,
                          size_t data_size, gcol_unpacked_table **out) {
  GCOL_DETAIL_REQUIRE(out != NULL, GCOL_ERROR_INVALID_ARGUMENT, "out is NULL");
  *out = NULL;
  GCOL_DETAIL_REQUIRE(metadata != NULL, GCOL_ERROR_INVALID_ARGUMENT, "metadata is NULL");
  GCOL_DETAIL_REQUIRE(data != NULL || data_size == 0, GCOL_ERROR_INVALID_ARGUMENT,
                      "data is NULL with data_size %zu", data_size);
  gcol_status const status =
      gcol_detail_pack_parse(metadata, metadata_size, data, data_size, __func__, out);
  return status;
}

gcol_status gcol_unpack(const uint8_t *metadata, size_t metadata_size, const void *data,
                        size_t data_size, gcol_unpacked_table **out) {
  GCOL_DETAIL_NVTX_PUSH("gcol_unpack");
  gcol_status const status = unpack(metadata, metadata_size, data, data_size, out);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

void gcol_unpacked_table_free(gcol_unpacked_table *unpacked) {
  if (unpacked == NULL) return;
  free(unpacked->views);
  free(unpacked);
}

void gcol_packed_table_free(gcol_packed_table *packed) {
  if (packed == NULL) return;
  gcol_buffer_free(packed->data);
  free(packed->metadata);
  free(packed);
}
