/* Arrow C Data Interface over host memory: exports copy a column's rows to host buffers
 * (offset 0, masks shifted and string/list offsets rebased to the slice), imports copy a
 * host array into a new gcol column after checking it completely. */
#include <cuda_runtime_api.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/bitmask.h"
#include "gcol/indexalator.h"
#include "internal/error.h"
#include "internal/interop.h"
#include "internal/nvtx.h"

/* ---- host bits ---- */

/* dst bits [0, n) = src bits [src_bit, src_bit + n); the rest of dst's last byte zeroed.
 * Returns the number of unset bits. */
static int64_t copy_bits(const uint8_t *src, int64_t src_bit, int64_t n, uint8_t *dst) {
  int64_t nulls = 0;
  int64_t const bytes = (n + 7) / 8;
  memset(dst, 0, (size_t)bytes);
  for (int64_t i = 0; i < n; ++i) {
    int64_t const b = src_bit + i;
    if ((src[b >> 3] >> (b & 7)) & 1u) {
      dst[i >> 3] |= (uint8_t)(1u << (i & 7));
    } else {
      ++nulls;
    }
  }
  return nulls;
}

/* ---- export ----
 * In four steps, so that the copies run back to back at the link's speed:
 *  1. plan: a walk builds the ArrowArray tree and reads the first and last offset of every
 *     STRING and LIST node (they size the chars and the list values), one batch and one
 *     synchronization per list nesting level, not one per buffer;
 *  2. one host block holds every buffer, each 64-byte aligned (Arrow's recommendation): one
 *     allocation from the caller's resource (a pinned pool: the pages are locked once) or
 *     one aligned_alloc;
 *  3. every device-to-host copy is enqueued on the stream, then one synchronization;
 *  4. the host fixes what a byte copy cannot: a mask at a bit offset is shifted in place,
 *     BOOL8 bytes are packed into bits in place, a slice's offsets are rebased to 0.
 * Every node holds a reference on the block, so a child moved out of the tree keeps its
 * buffers after its parent's release (C Data Interface, "moving child arrays"). */

/* The buffers of one export, freed when the last node referring to them is released. */
typedef struct host_block {
  gcol_mr *mr; /* NULL: aligned_alloc */
  void *base;
  size_t bytes;
  atomic_int_fast64_t refs;
} host_block;

typedef struct host_node {
  host_block *block;
  const void *buffers[3];
  gcol_detail_arrow_children kids;
  struct ArrowArray dictionary;
  /* The plan, used while the export runs. */
  gcol_column_view v; /* the rows this node exports */
  struct ArrowArray *out;
  int32_t width;            /* STRING, LIST: bytes of an offset */
  bool has_offsets;         /* STRING, LIST: a device offsets buffer to read */
  unsigned char ends[2][8]; /* STRING, LIST: the first and last offset as read */
  int64_t first, last;      /* STRING, LIST: those offsets decoded */
  size_t at[3], size[3];    /* each buffer's place in the block (size 0: no buffer) */
} host_node;

static void block_unref(host_block *b) {
  if (b == NULL || atomic_fetch_sub(&b->refs, 1) != 1) return;
  if (b->base != NULL && b->mr != NULL) {
    gcol_mr_deallocate(b->mr, b->base, b->bytes, NULL);
  } else {
    free(b->base);
  }
  free(b);
}

static void host_node_release(struct ArrowArray *a) {
  host_node *node = (host_node *)a->private_data;
  host_block *const block = node->block;
  /* Children moved out by the consumer have release NULL here and keep their reference. */
  for (int64_t i = 0; i < a->n_children; ++i) gcol_detail_arrow_array_release(a->children[i]);
  gcol_detail_arrow_array_release(a->dictionary);
  gcol_detail_arrow_children_free(&node->kids);
  free(node);
  a->release = NULL;
  block_unref(block);
}

/* What one export carries between its steps. */
typedef struct export_ctx {
  gcol_stream stream;
  host_block *block;
  host_node **nodes; /* every node, parents before children */
  int64_t count, capacity;
  bool enqueued; /* copies were issued: wait for them before freeing anything */
} export_ctx;

static gcol_status ctx_push(export_ctx *c, host_node *node) {
  if (c->count == c->capacity) {
    int64_t const cap = c->capacity > 0 ? 2 * c->capacity : 16;
    host_node **p = (host_node **)realloc(c->nodes, (size_t)cap * sizeof *p);
    GCOL_DETAIL_REQUIRE(p != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
    c->nodes = p;
    c->capacity = cap;
  }
  c->nodes[c->count++] = node;
  return GCOL_OK;
}

/* A node over `out` holding a reference on the block; released with the tree. */
static gcol_status host_node_make(export_ctx *c, gcol_column_view v, int64_t n,
                                  struct ArrowArray *out, host_node **out_node) {
  host_node *node = (host_node *)calloc(1, sizeof *node);
  if (node == NULL || !gcol_detail_arrow_children_alloc(n, &node->kids)) {
    free(node);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot allocate an array");
  }
  node->block = c->block;
  atomic_fetch_add(&c->block->refs, 1);
  node->v = v;
  node->out = out;
  memset(out, 0, sizeof *out);
  out->length = v.size;
  out->n_children = n;
  out->children = node->kids.ptrs;
  out->buffers = node->buffers;
  out->release = host_node_release;
  out->private_data = node;
  *out_node = node;
  return ctx_push(c, node); /* on failure the tree's release frees the node */
}

static gcol_status copy_async(export_ctx *c, void *dst, const void *src, size_t bytes) {
  gcol_status status = GCOL_OK;
  if (bytes == 0) return GCOL_OK;
  c->enqueued = true;
  GCOL_DETAIL_CUDA_TRY(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, (cudaStream_t)c->stream));
done:
  return status;
}

/* STRING, LIST: the offsets' width, and the reads of the first and last offset. */
static gcol_status plan_offsets(export_ctx *c, host_node *node) {
  gcol_column_view const v = node->v;
  node->has_offsets =
      v.num_children > GCOL_OFFSETS_CHILD && v.children[0].data != NULL && v.size > 0;
  node->width = node->has_offsets
                    ? (int32_t)gcol_type_size(v.children[0].type.id)
                    : (v.num_children > 0 && v.children[0].type.id == GCOL_INT64 ? 8 : 4);
  if (!node->has_offsets) return GCOL_OK;
  gcol_column_view const o = v.children[0];
  const char *src = (const char *)o.data + (o.offset + v.offset) * node->width;
  GCOL_DETAIL_TRY_RETURN(copy_async(c, node->ends[0], src, (size_t)node->width));
  return copy_async(c, node->ends[1], src + v.size * node->width, (size_t)node->width);
}

static gcol_status plan_node(export_ctx *c, gcol_column_view v, struct ArrowArray *out);

/* A node's buffer count and the children known without reading offsets. */
static gcol_status plan_body(export_ctx *c, host_node *node) {
  gcol_column_view const v = node->v;
  gcol_type_id const id = v.type.id;
  struct ArrowArray *out = node->out;
  if (id == GCOL_EMPTY) {
    out->null_count = v.size;
    return GCOL_OK;
  }
  out->n_buffers = id == GCOL_STRING ? 3 : id == GCOL_STRUCT ? 1 : 2;
  if (id == GCOL_STRING || id == GCOL_LIST) return plan_offsets(c, node);
  if (id == GCOL_STRUCT) {
    for (int64_t i = 0; i < out->n_children; ++i) {
      gcol_column_view field;
      GCOL_DETAIL_TRY_RETURN(
          gcol_column_view_slice(v.children[i], v.offset, v.offset + v.size, &field));
      GCOL_DETAIL_TRY_RETURN(plan_node(c, field, &node->kids.arrays[i]));
    }
  }
  if (id == GCOL_DICTIONARY32) { /* the keys whole; the indices are this node's values */
    out->dictionary = &node->dictionary;
    return plan_node(c, v.children[GCOL_DICTIONARY_KEYS_CHILD], &node->dictionary);
  }
  return GCOL_OK;
}

static gcol_status plan_node(export_ctx *c, gcol_column_view v, struct ArrowArray *out) {
  host_node *node = NULL;
  int64_t const n = v.type.id == GCOL_LIST ? 1 : v.type.id == GCOL_STRUCT ? v.num_children : 0;
  GCOL_DETAIL_REQUIRE(v.type.id != GCOL_DURATION_DAYS, GCOL_ERROR_UNSUPPORTED,
                      "duration[D] has no Arrow type");
  GCOL_DETAIL_TRY_RETURN(host_node_make(c, v, n, out, &node));
  return plan_body(c, node);
}

static int64_t decode_offset(const unsigned char *raw, int32_t width) {
  if (width == 8) {
    int64_t x;
    memcpy(&x, raw, sizeof x);
    return x;
  }
  int32_t x;
  memcpy(&x, raw, sizeof x);
  return x;
}

/* After the reads of nodes [begin, end): their spans checked, the list values planned. */
static gcol_status plan_spans(export_ctx *c, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    host_node *node = c->nodes[i];
    gcol_type_id const id = node->v.type.id;
    if (id != GCOL_STRING && id != GCOL_LIST) continue;
    if (node->has_offsets) {
      node->first = decode_offset(node->ends[0], node->width);
      node->last = decode_offset(node->ends[1], node->width);
    }
    GCOL_DETAIL_REQUIRE(node->first >= 0 && node->last >= node->first, GCOL_ERROR_INVALID_ARGUMENT,
                        "offsets span [%lld, %lld)", (long long)node->first, (long long)node->last);
    if (id != GCOL_LIST) continue;
    gcol_column_view values;
    GCOL_DETAIL_TRY_RETURN(gcol_column_view_slice(node->v.children[GCOL_LIST_VALUES_CHILD],
                                                  node->first, node->last, &values));
    GCOL_DETAIL_TRY_RETURN(plan_node(c, values, &node->kids.arrays[0]));
  }
  return GCOL_OK;
}

/* Step 1: the tree, level by level of list nesting (a list's values need its offsets). */
static gcol_status plan_tree(export_ctx *c, gcol_column_view v, struct ArrowArray *out) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(plan_node(c, v, out));
  for (int64_t begin = 0; begin < c->count;) {
    int64_t const end = c->count;
    if (c->enqueued) GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)c->stream));
    c->enqueued = false;
    GCOL_DETAIL_TRY(plan_spans(c, begin, end));
    begin = end;
  }
done:
  return status;
}

/* The device bytes of a node's mask: whole bytes covering rows [offset, offset + size). */
static size_t mask_span(gcol_column_view v) {
  if (v.null_mask == NULL || v.size == 0 || v.type.id == GCOL_EMPTY) return 0;
  return (size_t)(((v.offset + v.size - 1) >> 3) - (v.offset >> 3) + 1);
}

/* Bytes copied into buffer 1: values (BOOL8 as bytes, packed later in place), dictionary
 * indices, or offsets. */
static size_t values_bytes(const host_node *node) {
  gcol_column_view const v = node->v;
  switch (v.type.id) {
    case GCOL_EMPTY:
    case GCOL_STRUCT:
      return 0;
    case GCOL_STRING:
    case GCOL_LIST:
      return (size_t)(v.size + 1) * (size_t)node->width;
    case GCOL_DICTIONARY32:
      return (size_t)v.size * sizeof(int32_t);
    default:
      return (size_t)v.size * gcol_type_size(v.type.id);
  }
}

/* A buffer's room: at least 64 bytes (never NULL), a multiple of 64 (the next stays aligned). */
static size_t padded(size_t bytes) { return bytes < 64 ? 64 : (bytes + 63) / 64 * 64; }

/* Step 2: every buffer's place, then one block for all. */
static gcol_status allocate_block(export_ctx *c) {
  size_t total = 0;
  for (int64_t i = 0; i < c->count; ++i) {
    host_node *node = c->nodes[i];
    gcol_type_id const id = node->v.type.id;
    node->size[0] = mask_span(node->v);
    node->size[1] = values_bytes(node);
    node->size[2] = id == GCOL_STRING ? (size_t)(node->last - node->first) : 0;
    for (int b = 0; b < 3; ++b) {
      bool const exists =
          b == 0 ? node->size[0] > 0 : b < node->out->n_buffers && id != GCOL_STRUCT;
      node->at[b] = total;
      if (exists)
        total += padded(node->size[b]);
      else
        node->size[b] = 0;
      node->buffers[b] = exists ? (const void *)(uintptr_t)1 : NULL; /* placed below */
    }
  }
  if (total == 0) return GCOL_OK;
  host_block *const b = c->block;
  if (b->mr != NULL) {
    GCOL_DETAIL_TRY_RETURN(gcol_mr_allocate(b->mr, &b->base, total, NULL));
  } else {
    b->base = aligned_alloc(64, total);
    GCOL_DETAIL_REQUIRE(b->base != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                        "host allocation of %zu bytes failed", total);
  }
  b->bytes = total;
  for (int64_t i = 0; i < c->count; ++i) {
    host_node *node = c->nodes[i];
    for (int bi = 0; bi < 3; ++bi) {
      if (node->buffers[bi] != NULL) node->buffers[bi] = (char *)b->base + node->at[bi];
    }
  }
  return GCOL_OK;
}

/* Step 3 for one node. */
static gcol_status enqueue_node(export_ctx *c, host_node *node) {
  gcol_column_view const v = node->v;
  gcol_type_id const id = v.type.id;
  void *const mask = (void *)(uintptr_t)node->buffers[0];
  void *const values = (void *)(uintptr_t)node->buffers[1];
  if (mask != NULL) {
    GCOL_DETAIL_TRY_RETURN(
        copy_async(c, mask, (const uint8_t *)v.null_mask + (v.offset >> 3), node->size[0]));
  }
  if (values == NULL) return GCOL_OK;
  if (id == GCOL_STRING || id == GCOL_LIST) {
    if (!node->has_offsets) {
      memset(values, 0, node->size[1]);
      return GCOL_OK;
    }
    gcol_column_view const o = v.children[0];
    GCOL_DETAIL_TRY_RETURN(copy_async(
        c, values, (const char *)o.data + (o.offset + v.offset) * node->width, node->size[1]));
    if (id == GCOL_LIST) return GCOL_OK;
    return copy_async(c, (void *)(uintptr_t)node->buffers[2], (const char *)v.data + node->first,
                      node->size[2]);
  }
  if (id == GCOL_DICTIONARY32) {
    gcol_column_view const idx = v.children[GCOL_DICTIONARY_INDICES_CHILD];
    return copy_async(c, values, (const int32_t *)idx.data + idx.offset + v.offset, node->size[1]);
  }
  return copy_async(c, values, (const char *)v.data + v.offset * (int64_t)gcol_type_size(id),
                    node->size[1]);
}

/* Bits [shift, shift + n) of buf's first `span` bytes moved to bit 0 in place (each write
 * lands below every byte still to be read); the bits past n zeroed. */
static void shift_bits_down(uint8_t *buf, int shift, int64_t n, size_t span) {
  size_t const bytes = (size_t)(n + 7) / 8;
  size_t i = 0;
  if (shift != 0) {
    for (; i + 9 <= span; i += 8) {
      uint64_t w;
      memcpy(&w, buf + i, sizeof w);
      w = (w >> shift) | ((uint64_t)buf[i + 8] << (64 - shift));
      memcpy(buf + i, &w, sizeof w);
    }
    for (; i < bytes; ++i) {
      unsigned const next = i + 1 < span ? buf[i + 1] : 0u;
      buf[i] = (uint8_t)((buf[i] >> shift) | (next << (8 - shift)));
    }
  }
  if (n % 8 != 0) buf[bytes - 1] &= (uint8_t)((1u << (n % 8)) - 1u);
  if (span > bytes) buf[bytes] = 0; /* the byte a shift emptied */
}

static int64_t count_unset(const uint8_t *bits, int64_t n) {
  int64_t set = 0;
  size_t const bytes = (size_t)(n + 7) / 8;
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t w;
    memcpy(&w, bits + i, sizeof w);
    set += __builtin_popcountll(w);
  }
  for (; i < bytes; ++i) set += __builtin_popcount(bits[i]);
  return n - set;
}

/* BOOL8 bytes (any non-zero is true) packed into bits in place: output byte j reads input
 * bytes [8j, 8j + 8), none below j, so no byte is overwritten before it is read. */
static void pack_bools_in_place(uint8_t *buf, int64_t n) {
  int64_t const bytes = (n + 7) / 8;
  for (int64_t j = 0; j < bytes; ++j) {
    uint64_t w = 0;
    int64_t const k = n - 8 * j < 8 ? n - 8 * j : 8;
    memcpy(&w, buf + 8 * j, (size_t)k);
    w |= w >> 4; /* bit 0 of each byte: the OR of the byte's bits (no bit crosses bytes) */
    w |= w >> 2;
    w |= w >> 1;
    w &= 0x0101010101010101ull;
    buf[j] = (uint8_t)((w * 0x0102040810204080ull) >> 56); /* byte b's bit 0 to bit b */
  }
}

static void rebase_offsets(host_node *node) {
  if (node->first == 0) return;
  gcol_offsets_writer wr;
  wr.data = (void *)(uintptr_t)node->buffers[1];
  wr.width = node->width;
  gcol_offsetalator rd;
  rd.data = node->buffers[1];
  rd.width = node->width;
  for (int64_t i = 0; i <= node->v.size; ++i) {
    gcol_offsets_writer_set(wr, i, gcol_offsetalator_get(rd, i) - node->first);
  }
}

/* Step 4 for one node, after the copies landed. */
static void fix_node(host_node *node) {
  gcol_column_view const v = node->v;
  uint8_t *const mask = (uint8_t *)(uintptr_t)node->buffers[0];
  if (v.type.id != GCOL_EMPTY) node->out->null_count = 0;
  if (mask != NULL) {
    shift_bits_down(mask, (int)(v.offset & 7), v.size, node->size[0]);
    node->out->null_count =
        v.null_count != GCOL_UNKNOWN_NULL_COUNT ? v.null_count : count_unset(mask, v.size);
  }
  if (v.type.id == GCOL_BOOL8) pack_bools_in_place((uint8_t *)(uintptr_t)node->buffers[1], v.size);
  if (v.type.id == GCOL_STRING || v.type.id == GCOL_LIST) rebase_offsets(node);
}

/* Steps 2 to 4 over a planned tree. */
static gcol_status copy_tree(export_ctx *c) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_TRY(allocate_block(c));
  for (int64_t i = 0; i < c->count; ++i) GCOL_DETAIL_TRY(enqueue_node(c, c->nodes[i]));
  if (c->enqueued) GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)c->stream));
  c->enqueued = false;
  for (int64_t i = 0; i < c->count; ++i) fix_node(c->nodes[i]);
done:
  return status;
}

static gcol_status host_export(gcol_column_view v, struct ArrowArray *out, gcol_stream stream,
                               gcol_mr *mr) {
  export_ctx c;
  memset(&c, 0, sizeof c);
  memset(out, 0, sizeof *out);
  c.stream = stream;
  c.block = (host_block *)calloc(1, sizeof *c.block);
  GCOL_DETAIL_REQUIRE(c.block != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  c.block->mr = mr;
  atomic_init(&c.block->refs, 1); /* the export's own, dropped below */
  gcol_status st = plan_tree(&c, v, out);
  if (st == GCOL_OK) st = copy_tree(&c);
  if (st != GCOL_OK) {
    /* Copies into the tree's memory may still run: let them land before freeing it. */
    if (c.enqueued) (void)cudaStreamSynchronize((cudaStream_t)stream);
    gcol_detail_arrow_array_release(out);
  }
  free(c.nodes);
  block_unref(c.block);
  return st;
}

static gcol_status check_host_mr(gcol_mr *mr) {
  GCOL_DETAIL_REQUIRE(mr == NULL || mr->kind != GCOL_MEMORY_DEVICE, GCOL_ERROR_INVALID_ARGUMENT,
                      "host_mr \"%s\" allocates device memory", mr->name != NULL ? mr->name : "?");
  return GCOL_OK;
}

static gcol_status export_any(gcol_column_view v, const char *what, struct ArrowArray *out,
                              gcol_stream stream, gcol_mr *host_mr) {
  gcol_status status = GCOL_OK;
  struct ArrowArray result;
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_export");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  GCOL_DETAIL_TRY(check_host_mr(host_mr));
  GCOL_DETAIL_TRY(gcol_column_view_validate(v, what));
  GCOL_DETAIL_TRY(host_export(v, &result, stream, host_mr));
  *out = result;
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_export_column(gcol_column_view column, struct ArrowArray *out,
                                       gcol_stream stream, gcol_mr *host_mr) {
  return export_any(column, "column", out, stream, host_mr);
}

gcol_status gcol_arrow_export_column(gcol_column_view column, struct ArrowArray *out,
                                     gcol_stream stream, gcol_mr *host_mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_export_column");
  gcol_status const status = arrow_export_column(column, out, stream, host_mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_export_table(gcol_table_view table, struct ArrowArray *out,
                                      gcol_stream stream, gcol_mr *host_mr) {
  GCOL_DETAIL_REQUIRE(table.num_columns >= 0 && (table.columns != NULL || table.num_columns == 0),
                      GCOL_ERROR_INVALID_ARGUMENT, "table has no column array");
  gcol_column_view v = gcol_column_view_make(gcol_data_type_make(GCOL_STRUCT), table.num_rows,
                                             NULL, NULL, 0);
  v.num_children = table.num_columns;
  v.children = table.columns;
  return export_any(v, "table", out, stream, host_mr);
}

gcol_status gcol_arrow_export_table(gcol_table_view table, struct ArrowArray *out,
                                    gcol_stream stream, gcol_mr *host_mr) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_export_table");
  gcol_status const status = arrow_export_table(table, out, stream, host_mr);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

/* ---- import ---- */

/* A device mask of rows [begin, begin + n) of an Arrow bitmap (NULL: none); its nulls. */
static gcol_status import_mask(const void *bitmap, int64_t begin, int64_t n, gcol_stream stream,
                               gcol_mr *mr, gcol_buffer **out, int64_t *nulls) {
  gcol_status status = GCOL_OK;
  uint8_t *bits = NULL;
  *out = NULL;
  *nulls = 0;
  if (bitmap == NULL || n == 0) return GCOL_OK;
  size_t const bytes = gcol_bitmask_allocation_size(n);
  bits = (uint8_t *)calloc(bytes, 1);
  GCOL_DETAIL_CHECK(bits != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  *nulls = copy_bits((const uint8_t *)bitmap, begin, n, bits);
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(bits, bytes, stream, mr, out));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream)); /* before freeing bits */
done:
  free(bits);
  return status;
}

/* Values of rows [begin, begin + n) (Arrow bits unpacked into BOOL8 bytes). */
static gcol_status import_values(const struct ArrowArray *a, const gcol_detail_arrow_type *t,
                                 int64_t begin, int64_t n, gcol_stream stream, gcol_mr *mr,
                                 gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  uint8_t *bytes = NULL;
  *out = NULL;
  if (t->layout != GCOL_DETAIL_ARROW_BOOL) {
    const char *src = n > 0 ? (const char *)a->buffers[1] + begin * t->width : NULL;
    return gcol_buffer_create_copy(src, (size_t)n * (size_t)t->width, stream, mr, out);
  }
  bytes = (uint8_t *)malloc(n > 0 ? (size_t)n : 1);
  GCOL_DETAIL_CHECK(bytes != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  const uint8_t *src = (const uint8_t *)a->buffers[1];
  for (int64_t i = 0; i < n; ++i) bytes[i] = (src[(begin + i) >> 3] >> ((begin + i) & 7)) & 1u;
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(bytes, (size_t)n, stream, mr, out));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream)); /* before freeing bytes */
done:
  free(bytes);
  return status;
}

/* Offsets [begin, begin + n] checked (non-negative, ascending) and rebased into a new
 * INT32/INT64 column; the original first and last through *first and *last. */
static gcol_status import_offsets(const struct ArrowArray *a, int32_t w, int64_t begin,
                                  int64_t n, gcol_stream stream, gcol_mr *mr,
                                  gcol_column **out, int64_t *first, int64_t *last) {
  gcol_status status = GCOL_OK;
  void *rebased = malloc((size_t)(n + 1) * (size_t)w);
  gcol_offsetalator rd;
  gcol_offsets_writer wr;
  *first = *last = 0;
  GCOL_DETAIL_CHECK(rebased != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  rd.data = n > 0 ? (const char *)a->buffers[1] + begin * w : NULL;
  rd.width = w;
  wr.data = rebased;
  wr.width = w;
  if (n > 0) {
    *first = gcol_offsetalator_get(rd, 0);
    GCOL_DETAIL_CHECK(*first >= 0, GCOL_ERROR_INVALID_ARGUMENT, "offset %lld is negative",
                      (long long)*first);
  }
  for (int64_t i = 0; i <= n; ++i) {
    int64_t const o = n > 0 ? gcol_offsetalator_get(rd, i) : 0;
    GCOL_DETAIL_CHECK(i == 0 || o >= *last, GCOL_ERROR_INVALID_ARGUMENT,
                      "offsets decrease at row %lld (%lld then %lld)", (long long)(begin + i - 1),
                      (long long)*last, (long long)o);
    gcol_offsets_writer_set(wr, i, o - *first);
    *last = o;
  }
  GCOL_DETAIL_TRY(gcol_column_create_from_host(gcol_data_type_make(w == 8 ? GCOL_INT64 : GCOL_INT32),
                                               n + 1, rebased, NULL, stream, mr, out));
done:
  free(rebased);
  return status;
}

/* The lengths of utf8 views [begin, begin + n) as offsets (rebased; null rows empty), each
 * view of a valid row checked: its length and offset not negative, its data buffer one of
 * the array's, not NULL, and holding the bytes (the sizes buffer, the last one). */
static gcol_status string_view_offsets(const struct ArrowArray *a, int64_t begin, int64_t n,
                                       int64_t *offsets) {
  int32_t const buffers = (int32_t)(a->n_buffers - 3);
  const int64_t *sizes = buffers > 0 ? (const int64_t *)a->buffers[a->n_buffers - 1] : NULL;
  const uint8_t *valid = (const uint8_t *)a->buffers[0];
  const uint8_t *views = (const uint8_t *)a->buffers[1];
  offsets[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t const row = begin + i;
    int32_t length = 0, buffer = -1, offset = 0;
    if (valid == NULL || ((valid[row >> 3] >> (row & 7)) & 1u)) {
      bool const ok = gcol_detail_arrow_view_decode(views + 16 * row, buffers, &length, &buffer,
                                                    &offset);
      GCOL_DETAIL_REQUIRE(ok, GCOL_ERROR_INVALID_ARGUMENT,
                          "utf8 view of row %lld: length %d, data buffer %d of %d, offset %d",
                          (long long)i, (int)length, (int)buffer, (int)buffers, (int)offset);
      GCOL_DETAIL_REQUIRE(buffer < 0 || (a->buffers[2 + buffer] != NULL &&
                                         offset + (int64_t)length <= sizes[buffer]),
                          GCOL_ERROR_INVALID_ARGUMENT,
                          "utf8 view of row %lld: bytes [%d, %lld) outside data buffer %d",
                          (long long)i, (int)offset, (long long)offset + length, (int)buffer);
    }
    offsets[i + 1] = offsets[i] + length;
  }
  return GCOL_OK;
}

/* utf8 views [begin, begin + n) converted: an offsets column (INT32 or INT64 by the total)
 * and the chars (a copy, checked first). */
static gcol_status import_string_views(const struct ArrowArray *a, int64_t begin, int64_t n,
                                       gcol_stream stream, gcol_mr *mr, gcol_column **offsets,
                                       gcol_buffer **chars) {
  gcol_status status = GCOL_OK;
  int64_t *offs = (int64_t *)malloc((size_t)(n + 1) * sizeof *offs);
  int32_t *narrow = NULL;
  char *bytes = NULL;
  GCOL_DETAIL_CHECK(offs != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_TRY(string_view_offsets(a, begin, n, offs));
  bytes = (char *)malloc(offs[n] > 0 ? (size_t)offs[n] : 1);
  GCOL_DETAIL_CHECK(bytes != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  for (int64_t i = 0; i < n; ++i) {
    int64_t const length = offs[i + 1] - offs[i];
    if (length == 0) continue;
    const uint8_t *view = (const uint8_t *)a->buffers[1] + 16 * (begin + i);
    const char *src = length <= GCOL_DETAIL_ARROW_VIEW_INLINE
                          ? (const char *)view + 4
                          : (const char *)a->buffers[2 + gcol_detail_arrow_view_i32(view + 8)] +
                                gcol_detail_arrow_view_i32(view + 12);
    memcpy(bytes + offs[i], src, (size_t)length);
  }
  if (gcol_offsets_type_for_threshold(offs[n], gcol_large_offsets_threshold()) == GCOL_INT32) {
    narrow = (int32_t *)malloc((size_t)(n + 1) * sizeof *narrow);
    GCOL_DETAIL_CHECK(narrow != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
    for (int64_t i = 0; i <= n; ++i) narrow[i] = (int32_t)offs[i];
    GCOL_DETAIL_TRY(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT32), n + 1, narrow,
                                                 NULL, stream, mr, offsets));
  } else {
    GCOL_DETAIL_TRY(gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), n + 1, offs,
                                                 NULL, stream, mr, offsets));
  }
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(bytes, (size_t)offs[n], stream, mr, chars));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream)); /* before the frees */
done:
  free(narrow);
  free(bytes);
  free(offs);
  return status;
}

static gcol_status host_import(const struct ArrowArray *a, const gcol_detail_arrow_type *t,
                               int64_t begin, int64_t n, gcol_stream stream, gcol_mr *mr,
                               gcol_column **out);

/* The children of a nested column, each with its own row range. */
static gcol_status import_children(const struct ArrowArray *a, const gcol_detail_arrow_type *t,
                                   int64_t begin, int64_t n, gcol_stream stream, gcol_mr *mr,
                                   gcol_column **children) {
  for (int32_t i = 0; i < t->num_children; ++i) {
    const struct ArrowArray *c = t->layout == GCOL_DETAIL_ARROW_DICTIONARY ? a->dictionary
                                                                         : a->children[i];
    int64_t const cb = t->layout == GCOL_DETAIL_ARROW_DICTIONARY ? 0 : begin;
    int64_t const cn = t->layout == GCOL_DETAIL_ARROW_DICTIONARY ? c->length : n;
    GCOL_DETAIL_REQUIRE(cb + cn <= c->length, GCOL_ERROR_INVALID_ARGUMENT,
                        "child %d has %lld rows, rows [%lld, %lld) are needed", (int)i,
                        (long long)c->length, (long long)cb, (long long)(cb + cn));
    GCOL_DETAIL_TRY_RETURN(host_import(c, &t->children[i], c->offset + cb, cn, stream, mr, &children[i]));
  }
  return GCOL_OK;
}

/* Dictionary index i of any integer type (UINT64 above INT64_MAX reads as negative: out of
 * range all the same). */
static int64_t index_at(const void *indices, gcol_type_id id, int64_t i) {
  switch (id) {
    case GCOL_INT8: return ((const int8_t *)indices)[i];
    case GCOL_INT16: return ((const int16_t *)indices)[i];
    case GCOL_INT32: return ((const int32_t *)indices)[i];
    case GCOL_UINT8: return ((const uint8_t *)indices)[i];
    case GCOL_UINT16: return ((const uint16_t *)indices)[i];
    case GCOL_UINT32: return ((const uint32_t *)indices)[i];
    default: return ((const int64_t *)indices)[i]; /* INT64, UINT64 */
  }
}

/* Every valid dictionary index lies in [0, keys); the indices as INT32 (gcol's
 * DICTIONARY32) in idx[0, n), zero under nulls. */
static gcol_status check_indices(const struct ArrowArray *a, gcol_type_id id, int64_t begin,
                                 int64_t n, int64_t keys, int32_t *idx) {
  const uint8_t *valid = (const uint8_t *)a->buffers[0];
  for (int64_t i = begin; i < begin + n; ++i) {
    bool const is_valid = valid == NULL || ((valid[i >> 3] >> (i & 7)) & 1u);
    int64_t const k = is_valid ? index_at(a->buffers[1], id, i) : 0;
    GCOL_DETAIL_REQUIRE(k >= 0 && k < keys, GCOL_ERROR_INVALID_ARGUMENT,
                        "dictionary index %lld at row %lld is outside [0, %lld)", (long long)k,
                        (long long)(i - begin), (long long)keys);
    idx[i - begin] = (int32_t)k;
  }
  return GCOL_OK;
}

/* A dictionary's indices, checked against its keys and converted to INT32. */
static gcol_status import_indices(const struct ArrowArray *a, const gcol_detail_arrow_type *t,
                                  int64_t begin, int64_t n, int64_t keys, gcol_stream stream,
                                  gcol_mr *mr, gcol_buffer **out) {
  gcol_status status = GCOL_OK;
  int32_t *idx = (int32_t *)malloc(n > 0 ? (size_t)n * sizeof *idx : 1);
  GCOL_DETAIL_CHECK(idx != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_TRY(check_indices(a, t->index_type, begin, n, keys, idx));
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(idx, (size_t)n * sizeof *idx, stream, mr, out));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream)); /* before freeing idx */
done:
  free(idx);
  return status;
}

/* Assembles the parts by layout; takes them on success. */
static gcol_status assemble(const gcol_detail_arrow_type *t, int64_t n, gcol_buffer *data,
                            gcol_buffer *mask, int64_t nulls, gcol_column **children,
                            gcol_column **out) {
  switch (t->layout) {
    case GCOL_DETAIL_ARROW_STRING:
    case GCOL_DETAIL_ARROW_STRING_VIEW:
      return gcol_column_make_strings(n, children[0], data, mask, nulls, out);
    case GCOL_DETAIL_ARROW_LIST:
      return gcol_column_make_list(n, children[0], children[1], mask, nulls, out);
    case GCOL_DETAIL_ARROW_STRUCT:
      return gcol_column_make_struct(n, children, t->num_children, mask, nulls, out);
    case GCOL_DETAIL_ARROW_DICTIONARY: {
      gcol_column *indices = NULL;
      GCOL_DETAIL_TRY_RETURN(gcol_column_make(gcol_data_type_make(GCOL_INT32), n, data, mask,
                                              nulls, NULL, 0, &indices));
      gcol_status const st = gcol_column_make_dictionary(indices, children[1], out);
      if (st != GCOL_OK) { /* give the parts back to the caller */
        indices->data = NULL;
        indices->null_mask = NULL;
        gcol_column_free(indices);
      }
      return st;
    }
    default:
      return gcol_column_make(t->type, n, data, mask, nulls, NULL, 0, out);
  }
}

static gcol_status host_import(const struct ArrowArray *a, const gcol_detail_arrow_type *t,
                               int64_t begin, int64_t n, gcol_stream stream, gcol_mr *mr,
                               gcol_column **out) {
  gcol_status status = GCOL_OK;
  gcol_buffer *data = NULL, *mask = NULL;
  gcol_column *children[2] = {NULL, NULL};
  gcol_column **kids = children;
  int32_t const nk = t->layout == GCOL_DETAIL_ARROW_STRUCT ? t->num_children : 2;
  int64_t nulls = 0, first = 0, last = 0;
  if (t->layout == GCOL_DETAIL_ARROW_STRUCT && nk > 0) {
    kids = (gcol_column **)calloc((size_t)nk, sizeof *kids);
    GCOL_DETAIL_CHECK(kids != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  }
  if (t->layout != GCOL_DETAIL_ARROW_NULL) {
    GCOL_DETAIL_TRY(import_mask(a->buffers[0], begin, n, stream, mr, &mask, &nulls));
  }
  switch (t->layout) {
    case GCOL_DETAIL_ARROW_FIXED:
    case GCOL_DETAIL_ARROW_BOOL:
      GCOL_DETAIL_TRY(import_values(a, t, begin, n, stream, mr, &data));
      break;
    case GCOL_DETAIL_ARROW_STRING:
    case GCOL_DETAIL_ARROW_LIST:
      GCOL_DETAIL_TRY(import_offsets(a, t->width, begin, n, stream, mr, &kids[0], &first, &last));
      if (t->layout == GCOL_DETAIL_ARROW_STRING) {
        GCOL_DETAIL_CHECK(a->buffers[2] != NULL || last == first, GCOL_ERROR_INVALID_ARGUMENT,
                          "chars buffer is NULL for %lld bytes", (long long)(last - first));
        GCOL_DETAIL_TRY(gcol_buffer_create_copy(last > first ? (const char *)a->buffers[2] + first : NULL,
                                                (size_t)(last - first), stream, mr, &data));
      } else {
        const struct ArrowArray *c = a->children[0];
        GCOL_DETAIL_CHECK(last <= c->length, GCOL_ERROR_INVALID_ARGUMENT,
                          "list offsets reach %lld, the values have %lld rows", (long long)last,
                          (long long)c->length);
        GCOL_DETAIL_TRY(host_import(c, &t->children[0], c->offset + first, last - first, stream, mr, &kids[1]));
      }
      break;
    case GCOL_DETAIL_ARROW_STRING_VIEW:
      GCOL_DETAIL_TRY(import_string_views(a, begin, n, stream, mr, &kids[0], &data));
      break;
    case GCOL_DETAIL_ARROW_STRUCT:
      GCOL_DETAIL_TRY(import_children(a, t, begin, n, stream, mr, kids));
      break;
    case GCOL_DETAIL_ARROW_DICTIONARY:
      GCOL_DETAIL_TRY(import_children(a, t, begin, n, stream, mr, &kids[1]));
      GCOL_DETAIL_TRY(import_indices(a, t, begin, n, kids[1]->size, stream, mr, &data));
      break;
    default:
      break;
  }
  GCOL_DETAIL_TRY(assemble(t, n, data, mask, nulls, kids, out));
  data = mask = NULL;
  for (int32_t i = 0; i < nk; ++i) kids[i] = NULL;
done:
  for (int32_t i = 0; i < nk; ++i) gcol_column_free(kids[i]);
  if (kids != children) free(kids);
  gcol_buffer_free(data);
  gcol_buffer_free(mask);
  return status;
}

static gcol_status import_any(struct ArrowSchema *schema, struct ArrowArray *array, bool as_table,
                              gcol_stream stream, gcol_mr *mr, gcol_column **out_column,
                              gcol_arrow_field **out_field) {
  gcol_status status = GCOL_OK;
  gcol_detail_arena arena;
  gcol_detail_arrow_type *type = NULL;
  gcol_arrow_field *field = NULL;
  gcol_column *col = NULL;
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_import");
  memset(&arena, 0, sizeof arena);
  if (out_field != NULL) *out_field = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(schema);
  GCOL_DETAIL_CHECK_NOT_NULL(array);
  GCOL_DETAIL_TRY(gcol_detail_arrow_schema_parse(schema, &arena, &type, &field));
  GCOL_DETAIL_TRY(gcol_detail_arrow_array_check(array, type, false));
  GCOL_DETAIL_CHECK(!as_table || type->layout == GCOL_DETAIL_ARROW_STRUCT,
                    GCOL_ERROR_INVALID_ARGUMENT, "a table needs a struct array, not %s",
                    gcol_type_name(type->type.id));
  GCOL_DETAIL_CHECK(!as_table || array->buffers[0] == NULL || array->null_count == 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "a table's struct array has %lld nulls",
                    (long long)array->null_count);
  GCOL_DETAIL_TRY(host_import(array, type, array->offset, array->length, stream, mr, &col));
  /* Copies from pinned producer memory may still run: finish them before the release. */
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  if (out_field != NULL) GCOL_DETAIL_TRY(gcol_detail_arrow_field_hand_out(field, out_field));
  *out_column = col;
  col = NULL;
done:
  gcol_column_free(col);
  gcol_detail_arrow_array_release(array);
  gcol_detail_arrow_schema_release(schema);
  gcol_detail_arena_free(&arena);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_import_column(struct ArrowSchema *schema, struct ArrowArray *array,
                                       gcol_stream stream, gcol_mr *mr, gcol_column **out,
                                       gcol_arrow_field **out_field) {
  if (out != NULL) *out = NULL;
  if (out == NULL) {
    gcol_detail_arrow_array_release(array);
    gcol_detail_arrow_schema_release(schema);
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "out is NULL");
  }
  return import_any(schema, array, false, stream, mr, out, out_field);
}

gcol_status gcol_arrow_import_column(struct ArrowSchema *schema, struct ArrowArray *array,
                                     gcol_stream stream, gcol_mr *mr, gcol_column **out,
                                     gcol_arrow_field **out_field) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_import_column");
  gcol_status const status = arrow_import_column(schema, array, stream, mr, out, out_field);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

static gcol_status arrow_import_table(struct ArrowSchema *schema, struct ArrowArray *array,
                                      gcol_stream stream, gcol_mr *mr, gcol_table **out,
                                      gcol_arrow_field **out_field) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  if (out == NULL) {
    gcol_detail_arrow_array_release(array);
    gcol_detail_arrow_schema_release(schema);
    return gcol_detail_error(GCOL_ERROR_INVALID_ARGUMENT, __func__, "out is NULL");
  }
  *out = NULL;
  GCOL_DETAIL_TRY(import_any(schema, array, true, stream, mr, &col, out_field));
  GCOL_DETAIL_TRY(gcol_table_make(col->children, col->num_children, out));
  col->num_children = 0; /* the table owns the fields now; free the struct's shell */
done:
  if (status != GCOL_OK && out_field != NULL) {
    gcol_arrow_field_free(*out_field);
    *out_field = NULL;
  }
  gcol_column_free(col);
  return status;
}

gcol_status gcol_arrow_import_table(struct ArrowSchema *schema, struct ArrowArray *array,
                                    gcol_stream stream, gcol_mr *mr, gcol_table **out,
                                    gcol_arrow_field **out_field) {
  GCOL_DETAIL_NVTX_PUSH("gcol_arrow_import_table");
  gcol_status const status = arrow_import_table(schema, array, stream, mr, out, out_field);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
