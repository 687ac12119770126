/*
 * gcol_pack, gcol_packed_table_serialize, gcol_packed_table_deserialize.
 *
 * Pack plans on the host, then copies with few launches:
 * - the plan walks the table level by level; STRING / LIST columns of a level have their
 *   first and last offsets read in one batch (one kernel, one synchronization per level),
 *   which sizes their chars and slices their values child for the next level;
 * - the layout puts every buffer at a multiple of GCOL_PACK_ALIGNMENT in one allocation;
 * - copies: cudaMemcpyAsync for buffers of at least 1 MiB, one batched kernel for the smaller
 *   ones, one batched kernel re-aligning every null mask to bit 0 (counting nulls where the
 *   count is unknown), one batched kernel rebasing offsets of slices that do not start at 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "gcol/indexalator.h"
#include "gcol/pack.h"
#include "internal/spill.h"
#include "pack/pack_format.h"

/* Buffers at least this large are copied with cudaMemcpyAsync, smaller ones by the kernel. */
#define PACK_MEMCPY_MIN_BYTES ((int64_t)1 << 20)

/* Most ops of one kind a launch covers in its y dimension (the rest loop). */
#define PACK_MAX_GRID_Y 65535

/* ---------------------------------------------------------------- plan */

typedef enum plan_kind { PLAN_COLUMN = 0, PLAN_OFFSETS } plan_kind;

/* One node of the packed tree. `view` holds exactly the rows to pack (offset applied). */
typedef struct plan_node {
  plan_kind kind;
  gcol_column_view view;     /* PLAN_COLUMN: the (sliced) column */
  gcol_offsetalator src;     /* PLAN_OFFSETS: the parent's offsets at its first row */
  gcol_type_id offsets_type; /* PLAN_OFFSETS: INT32 or INT64 */
  int64_t rows;              /* rows of the packed node */
  int64_t begin, end;        /* STRING / LIST: first and last offset (chars / values range) */
  int64_t null_count;        /* known count, or GCOL_UNKNOWN_NULL_COUNT until counted */
  bool has_mask;
  int64_t first_child; /* index of the first child in the plan */
  int32_t num_children;
  int64_t data_offset, data_size, mask_offset, mask_size;
  int64_t counter; /* mask op index counting the nulls, or -1 */
} plan_node;

typedef struct plan {
  plan_node *nodes;
  int64_t size, capacity;
} plan;

static gcol_status plan_push(plan *p, int64_t count, int64_t *first) {
  if (p->size + count > p->capacity) {
    int64_t cap = p->capacity == 0 ? 16 : p->capacity;
    while (cap < p->size + count) cap *= 2;
    plan_node *n = (plan_node *)realloc(p->nodes, (size_t)cap * sizeof *n);
    if (n == NULL) {
      return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_pack",
                               "no host memory for %lld plan nodes", (long long)cap);
    }
    p->nodes = n;
    p->capacity = cap;
  }
  memset(p->nodes + p->size, 0, (size_t)count * sizeof *p->nodes);
  *first = p->size;
  p->size += count;
  return GCOL_OK;
}

static void plan_init_column(plan_node *n, gcol_column_view view) {
  n->kind = PLAN_COLUMN;
  n->view = view;
  n->rows = view.size;
  n->counter = -1;
  n->has_mask = view.null_mask != NULL && view.size > 0 && view.null_count != 0;
  n->null_count = n->has_mask ? view.null_count : 0;
}

/* Checks a column (recursively) for what pack needs beyond gcol_column_view_validate(). */
static gcol_status check_column(gcol_column_view v, const char *what, int depth) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_CHECK(depth <= GCOL_PACK_MAX_DEPTH, GCOL_ERROR_INVALID_ARGUMENT,
                    "%s nests deeper than %d", what, GCOL_PACK_MAX_DEPTH);
  GCOL_DETAIL_CHECK(v.type.id != GCOL_DICTIONARY32, GCOL_ERROR_UNSUPPORTED,
                    "%s: DICTIONARY32 columns cannot be packed (decode them first)", what);
  GCOL_DETAIL_TRY(gcol_column_view_validate(v, what));
  GCOL_DETAIL_CHECK(gcol_type_is_decimal(v.type.id) || v.type.scale == 0,
                    GCOL_ERROR_INVALID_ARGUMENT, "%s: scale %d on a %s column", what,
                    (int)v.type.scale, gcol_type_name(v.type.id));
  if (v.size == 0) goto done; /* empty columns may lack children */
  if (v.type.id == GCOL_STRING || v.type.id == GCOL_LIST) {
    gcol_offsetalator it;
    GCOL_DETAIL_TRY(gcol_offsetalator_make(v, &it));
    GCOL_DETAIL_CHECK(it.data != NULL, GCOL_ERROR_INVALID_ARGUMENT, "%s: offsets data is NULL",
                      what);
  }
  if (v.type.id == GCOL_LIST) {
    GCOL_DETAIL_CHECK(v.num_children == 2, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s: LIST with %d children (2 expected)", what, (int)v.num_children);
    GCOL_DETAIL_TRY(check_column(v.children[GCOL_LIST_VALUES_CHILD], "list values", depth + 1));
  } else if (v.type.id == GCOL_STRUCT) {
    for (int32_t f = 0; f < v.num_children; ++f) {
      GCOL_DETAIL_CHECK(v.children[f].size >= v.offset + v.size, GCOL_ERROR_INVALID_ARGUMENT,
                        "%s: field %d has %lld rows, fewer than the struct's %lld + %lld", what,
                        (int)f, (long long)v.children[f].size, (long long)v.offset,
                        (long long)v.size);
      GCOL_DETAIL_TRY(check_column(v.children[f], "struct field", depth + 1));
    }
  }
done:
  return status;
}

/* Offsets bounds to read: where, and which node they belong to. */
typedef struct bounds_request {
  gcol_offsetalator offsets;
  int64_t size;
} bounds_request;

static __global__ void pack_bounds_kernel(const bounds_request *req, int64_t n, int64_t *out) {
  GCOL_DETAIL_GRID_LOOP(j, n) {
    out[2 * j] = gcol_offsetalator_get(req[j].offsets, 0);
    out[2 * j + 1] = gcol_offsetalator_get(req[j].offsets, req[j].size);
  }
}

/* Reads begin/end of every non-empty STRING / LIST node in [lo, hi). Synchronizes once. */
static gcol_status read_bounds(plan *p, int64_t lo, int64_t hi, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  bounds_request *req = NULL;
  int64_t *bounds = NULL;
  gcol_buffer *dreq = NULL, *dbounds = NULL;
  int64_t n = 0;
  cudaStream_t const s = (cudaStream_t)stream;
  for (int64_t i = lo; i < hi; ++i) {
    plan_node const *nd = &p->nodes[i];
    if (nd->kind == PLAN_COLUMN && nd->rows > 0 &&
        (nd->view.type.id == GCOL_STRING || nd->view.type.id == GCOL_LIST)) {
      ++n;
    }
  }
  if (n == 0) goto done;
  req = (bounds_request *)calloc((size_t)n, sizeof *req);
  bounds = (int64_t *)calloc((size_t)n * 2, sizeof *bounds);
  GCOL_DETAIL_CHECK(req != NULL && bounds != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %lld offsets bounds", (long long)n);
  for (int64_t i = lo, k = 0; i < hi; ++i) {
    plan_node const *nd = &p->nodes[i];
    if (nd->kind == PLAN_COLUMN && nd->rows > 0 &&
        (nd->view.type.id == GCOL_STRING || nd->view.type.id == GCOL_LIST)) {
      GCOL_DETAIL_TRY(gcol_offsetalator_make(nd->view, &req[k].offsets));
      req[k].size = nd->rows;
      ++k;
    }
  }
  GCOL_DETAIL_TRY(gcol_buffer_create_copy(req, (size_t)n * sizeof *req, stream, NULL, &dreq));
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)n * 2 * sizeof(int64_t), stream, NULL, &dbounds));
  pack_bounds_kernel<<<gcol_detail_grid_size(n, GCOL_DETAIL_BLOCK_SIZE), GCOL_DETAIL_BLOCK_SIZE, 0,
                       s>>>((const bounds_request *)dreq->data, n, (int64_t *)dbounds->data);
  GCOL_DETAIL_CUDA_CHECK_LAUNCH();
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(bounds, dbounds->data, (size_t)n * 2 * sizeof(int64_t),
                                       cudaMemcpyDeviceToHost, s));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize(s));
  for (int64_t i = lo, k = 0; i < hi; ++i) {
    plan_node *nd = &p->nodes[i];
    if (nd->kind == PLAN_COLUMN && nd->rows > 0 &&
        (nd->view.type.id == GCOL_STRING || nd->view.type.id == GCOL_LIST)) {
      nd->begin = bounds[2 * k];
      nd->end = bounds[2 * k + 1];
      GCOL_DETAIL_CHECK(nd->begin >= 0 && nd->end >= nd->begin, GCOL_ERROR_INVALID_ARGUMENT,
                        "a %s column has offsets [%lld, %lld] at its first and last row",
                        gcol_type_name(nd->view.type.id), (long long)nd->begin, (long long)nd->end);
      GCOL_DETAIL_CHECK(
          nd->view.type.id != GCOL_STRING || nd->end == nd->begin || nd->view.data != NULL,
          GCOL_ERROR_INVALID_ARGUMENT, "a STRING column of %lld chars has NULL chars",
          (long long)(nd->end - nd->begin));
      ++k;
    }
  }
done:
  free(req);
  free(bounds);
  gcol_buffer_free(dreq);
  gcol_buffer_free(dbounds);
  return status;
}

/* Adds the children of node i (its bounds known). */
static gcol_status expand_node(plan *p, int64_t i) {
  gcol_status status = GCOL_OK;
  int64_t first = 0;
  gcol_column_view const v = p->nodes[i].view;
  gcol_type_id const id = v.type.id;
  int32_t num = 0;
  if (p->nodes[i].kind != PLAN_COLUMN) goto done;
  if (id == GCOL_STRING) num = 1;
  if (id == GCOL_LIST) num = 2;
  if (id == GCOL_STRUCT) num = v.num_children;
  if (num == 0) goto done;
  GCOL_DETAIL_TRY(plan_push(p, num, &first));
  p->nodes[i].first_child = first;
  p->nodes[i].num_children = num;
  if (id == GCOL_STRING || id == GCOL_LIST) {
    plan_node *o = &p->nodes[first];
    o->kind = PLAN_OFFSETS;
    o->rows = v.size + 1;
    o->counter = -1;
    o->begin = p->nodes[i].begin;
    if (v.size > 0) {
      GCOL_DETAIL_TRY(gcol_offsetalator_make(v, &o->src));
      o->offsets_type = o->src.width == 4 ? GCOL_INT32 : GCOL_INT64;
    } else {
      /* An empty column may lack offsets: pack one INT32 zero. */
      o->offsets_type = GCOL_INT32;
      if (v.num_children > GCOL_OFFSETS_CHILD && v.children != NULL &&
          v.children[GCOL_OFFSETS_CHILD].type.id == GCOL_INT64) {
        o->offsets_type = GCOL_INT64;
      }
    }
  }
  if (id == GCOL_LIST) {
    gcol_column_view values;
    plan_node const *parent = &p->nodes[i];
    if (v.size > 0) {
      GCOL_DETAIL_TRY(gcol_column_view_slice(v.children[GCOL_LIST_VALUES_CHILD], parent->begin,
                                             parent->end, &values));
    } else if (v.num_children > GCOL_LIST_VALUES_CHILD && v.children != NULL) {
      GCOL_DETAIL_TRY(gcol_column_view_slice(v.children[GCOL_LIST_VALUES_CHILD], 0, 0, &values));
    } else {
      values = gcol_column_view_make(gcol_data_type_make(GCOL_EMPTY), 0, NULL, NULL, 0);
    }
    plan_init_column(&p->nodes[first + 1], values);
  }
  if (id == GCOL_STRUCT) {
    for (int32_t f = 0; f < num; ++f) {
      gcol_column_view field;
      if (v.size > 0) {
        /* Field rows line up with the struct's offset. */
        GCOL_DETAIL_TRY(gcol_column_view_slice(v.children[f], v.offset, v.offset + v.size, &field));
      } else {
        GCOL_DETAIL_TRY(gcol_column_view_slice(v.children[f], 0, 0, &field));
      }
      plan_init_column(&p->nodes[first + f], field);
    }
  }
done:
  return status;
}

/* Builds the whole plan: top-level columns at 0..num_columns, children level by level. */
static gcol_status build_plan(gcol_table_view input, plan *p, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  int64_t first = 0, lo = 0, hi = 0;
  if (input.num_columns > 0) GCOL_DETAIL_TRY(plan_push(p, input.num_columns, &first));
  for (int32_t c = 0; c < input.num_columns; ++c) plan_init_column(&p->nodes[c], input.columns[c]);
  hi = p->size;
  while (lo < hi) {
    GCOL_DETAIL_TRY(read_bounds(p, lo, hi, stream));
    for (int64_t i = lo; i < hi; ++i) GCOL_DETAIL_TRY(expand_node(p, i));
    lo = hi;
    hi = p->size;
  }
done:
  return status;
}

/* ---------------------------------------------------------------- layout */

static gcol_status add_extent(int64_t *total, int64_t bytes, int64_t *offset) {
  *offset = 0;
  if (bytes == 0) return GCOL_OK;
  if (*total > INT64_MAX - GCOL_PACK_ALIGNMENT) {
    return gcol_detail_error(GCOL_ERROR_OVERFLOW, "gcol_pack",
                             "the packed size exceeds INT64_MAX bytes");
  }
  int64_t const aligned =
      (*total + (GCOL_PACK_ALIGNMENT - 1)) / GCOL_PACK_ALIGNMENT * GCOL_PACK_ALIGNMENT;
  if (bytes > INT64_MAX - aligned) {
    return gcol_detail_error(GCOL_ERROR_OVERFLOW, "gcol_pack",
                             "the packed size exceeds INT64_MAX bytes");
  }
  *offset = aligned;
  *total = aligned + bytes;
  return GCOL_OK;
}

/* Sizes of node i and its subtree, in pre-order; *total grows. */
static gcol_status layout_node(plan *p, int64_t i, int64_t *total) {
  gcol_status status = GCOL_OK;
  plan_node *n = &p->nodes[i];
  if (n->has_mask) {
    n->mask_size = (int64_t)gcol_bitmask_allocation_size(n->rows);
    GCOL_DETAIL_TRY(add_extent(total, n->mask_size, &n->mask_offset));
  }
  if (n->kind == PLAN_OFFSETS) {
    int64_t const w = (int64_t)gcol_type_size(n->offsets_type);
    GCOL_DETAIL_CHECK(n->rows <= INT64_MAX / w, GCOL_ERROR_OVERFLOW,
                      "offsets of %lld rows overflow", (long long)n->rows);
    n->data_size = n->rows * w;
  } else if (gcol_type_is_fixed_width(n->view.type.id)) {
    int64_t const w = (int64_t)gcol_type_size(n->view.type.id);
    GCOL_DETAIL_CHECK(n->rows <= INT64_MAX / w, GCOL_ERROR_OVERFLOW, "%lld rows of %s overflow",
                      (long long)n->rows, gcol_type_name(n->view.type.id));
    n->data_size = n->rows * w;
  } else if (n->view.type.id == GCOL_STRING) {
    n->data_size = n->end - n->begin;
  }
  GCOL_DETAIL_TRY(add_extent(total, n->data_size, &n->data_offset));
  for (int32_t c = 0; c < n->num_children; ++c) {
    GCOL_DETAIL_TRY(layout_node(p, p->nodes[i].first_child + c, total));
  }
done:
  return status;
}

/* ---------------------------------------------------------------- copy kernels */

typedef struct copy_op {
  const char *src;
  char *dst;
  int64_t bytes;
} copy_op;

typedef struct mask_op {
  const uint32_t *src;
  int64_t src_bit; /* first bit */
  uint32_t *dst;
  int64_t bits;    /* rows */
  int64_t words;   /* words of dst to write (padding zeroed) */
  int64_t counter; /* index into the null counters, or -1 */
} mask_op;

typedef struct offsets_op {
  gcol_offsetalator src;
  int64_t base;
  void *dst;
  int64_t count;
} offsets_op;

/* Copies each op's bytes; an op without a source zeroes its bytes (alignment gaps). */
static __global__ void pack_copy_kernel(const copy_op *ops, int64_t num_ops) {
  for (int64_t k = blockIdx.y; k < num_ops; k += gridDim.y) {
    copy_op const op = ops[k];
    int64_t const start = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t const stride = (int64_t)gridDim.x * blockDim.x;
    if (op.src == NULL) {
      for (int64_t i = start; i < op.bytes; i += stride) op.dst[i] = 0;
    } else if ((((uintptr_t)op.src | (uintptr_t)op.dst) & 15) == 0) {
      int64_t const n16 = op.bytes / 16;
      for (int64_t i = start; i < n16; i += stride) {
        ((uint4 *)op.dst)[i] = ((const uint4 *)op.src)[i];
      }
      for (int64_t i = n16 * 16 + start; i < op.bytes; i += stride) op.dst[i] = op.src[i];
    } else {
      for (int64_t i = start; i < op.bytes; i += stride) op.dst[i] = op.src[i];
    }
  }
}

static __global__ void pack_mask_kernel(const mask_op *ops, int64_t num_ops,
                                        unsigned long long *counters) {
  for (int64_t k = blockIdx.y; k < num_ops; k += gridDim.y) {
    mask_op const op = ops[k];
    unsigned long long nulls = 0;
    int64_t const shift = op.src_bit & 31;
    int64_t const src_word = op.src_bit >> 5;
    for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < op.words;
         w += (int64_t)gridDim.x * blockDim.x) {
      uint32_t word = 0;
      int64_t const first_bit = w * 32;
      if (first_bit < op.bits) {
        int64_t const rows = op.bits - first_bit < 32 ? op.bits - first_bit : 32;
        uint32_t const lo = op.src[src_word + w];
        word = lo >> shift;
        /* The last source bit needed lies in the next word only when shift + rows > 32. */
        if (shift != 0 && shift + rows > 32) word |= op.src[src_word + w + 1] << (32 - shift);
        if (rows < 32) word &= (1u << rows) - 1u;
        nulls += (unsigned long long)(rows - __popc(word));
      }
      op.dst[w] = word;
    }
    if (op.counter >= 0 && nulls != 0) atomicAdd(&counters[op.counter], nulls);
  }
}

static __global__ void pack_offsets_kernel(const offsets_op *ops, int64_t num_ops) {
  for (int64_t k = blockIdx.y; k < num_ops; k += gridDim.y) {
    offsets_op const op = ops[k];
    gcol_offsets_writer dst;
    dst.data = op.dst;
    dst.width = op.src.width;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < op.count;
         i += (int64_t)gridDim.x * blockDim.x) {
      gcol_offsets_writer_set(dst, i, gcol_offsetalator_get(op.src, i) - op.base);
    }
  }
}

static dim3 batch_grid(int64_t max_items, int64_t num_ops) {
  int64_t x = (max_items + GCOL_DETAIL_BLOCK_SIZE - 1) / GCOL_DETAIL_BLOCK_SIZE;
  if (x < 1) x = 1;
  if (x > 1024) x = 1024;
  return dim3((unsigned)x, (unsigned)(num_ops < PACK_MAX_GRID_Y ? num_ops : PACK_MAX_GRID_Y), 1);
}

/* Source bytes of node n's data. */
static const char *data_source(const plan_node *n) {
  if (n->kind == PLAN_OFFSETS) return (const char *)n->src.data;
  if (n->view.type.id == GCOL_STRING) return (const char *)n->view.data + n->begin;
  return (const char *)n->view.data + n->view.offset * (int64_t)gcol_type_size(n->view.type.id);
}

static int compare_extents(const void *a, const void *b) {
  int64_t const x = ((const int64_t *)a)[0], y = ((const int64_t *)b)[0];
  return x < y ? -1 : x > y;
}

/* Appends a zeroing op (no source) for every gap between the plan's buffers. */
static gcol_status add_gap_ops(const plan *p, char *base, copy_op *ops, int64_t *count,
                               int64_t *max_bytes) {
  int64_t *extents = (int64_t *)malloc(4 * ((size_t)p->size + 1) * sizeof(int64_t));
  int64_t n = 0, end = 0;
  if (extents == NULL) {
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, "gcol_pack",
                             "no host memory for %lld extents", (long long)(2 * p->size));
  }
  for (int64_t i = 0; i < p->size; ++i) {
    const plan_node *node = &p->nodes[i];
    if (node->has_mask && node->mask_size > 0) {
      extents[2 * n] = node->mask_offset;
      extents[2 * n++ + 1] = node->mask_size;
    }
    if (node->data_size > 0) {
      extents[2 * n] = node->data_offset;
      extents[2 * n++ + 1] = node->data_size;
    }
  }
  qsort(extents, (size_t)n, 2 * sizeof(int64_t), compare_extents);
  for (int64_t k = 0; k < n; ++k) {
    if (extents[2 * k] > end) {
      copy_op *gap = &ops[(*count)++];
      gap->src = NULL;
      gap->dst = base + end;
      gap->bytes = extents[2 * k] - end;
      if (gap->bytes > *max_bytes) *max_bytes = gap->bytes;
    }
    end = extents[2 * k] + extents[2 * k + 1];
  }
  free(extents);
  return GCOL_OK;
}

/* Issues every copy of the plan into `base`; counts unknown null counts into `counters`
 * (allocated here when needed). */
static gcol_status issue_copies(plan *p, char *base, gcol_stream stream, gcol_buffer **counters,
                                int64_t *num_counters) {
  gcol_status status = GCOL_OK;
  cudaStream_t const s = (cudaStream_t)stream;
  copy_op *copies = NULL, *direct = NULL;
  mask_op *masks = NULL;
  offsets_op *offs = NULL;
  gcol_buffer *dops = NULL;
  int64_t nc = 0, nd = 0, nm = 0, no = 0, max_copy = 0, max_mask = 0, max_off = 0, ncount = 0;
  size_t bytes = 0;
  copies = (copy_op *)calloc(3 * (size_t)p->size + 1, sizeof *copies); /* + 2 gaps a node */
  direct = (copy_op *)calloc((size_t)p->size + 1, sizeof *direct);
  masks = (mask_op *)calloc((size_t)p->size + 1, sizeof *masks);
  offs = (offsets_op *)calloc((size_t)p->size + 1, sizeof *offs);
  GCOL_DETAIL_CHECK(copies != NULL && direct != NULL && masks != NULL && offs != NULL,
                    GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %lld copy ops",
                    (long long)p->size);
  for (int64_t i = 0; i < p->size; ++i) {
    plan_node *n = &p->nodes[i];
    if (n->has_mask) {
      mask_op *m = &masks[nm++];
      m->src = n->view.null_mask;
      m->src_bit = n->view.offset;
      m->dst = (uint32_t *)(base + n->mask_offset);
      m->bits = n->rows;
      m->words = n->mask_size / 4;
      m->counter = -1;
      if (n->null_count == GCOL_UNKNOWN_NULL_COUNT) {
        n->counter = ncount;
        m->counter = ncount++;
      }
      if (m->words > max_mask) max_mask = m->words;
    }
    if (n->data_size == 0) continue;
    if (n->kind == PLAN_OFFSETS && n->rows > 1 && n->begin != 0) {
      offsets_op *o = &offs[no++];
      o->src = n->src;
      o->base = n->begin;
      o->dst = base + n->data_offset;
      o->count = n->rows;
      if (o->count > max_off) max_off = o->count;
      continue;
    }
    if (n->kind == PLAN_OFFSETS && n->rows == 1) {
      /* Offsets of an empty column: a zero, written by a memset (NULL source). */
      direct[nd].src = NULL;
      direct[nd].dst = base + n->data_offset;
      direct[nd++].bytes = n->data_size;
      continue;
    }
    if (n->data_size >= PACK_MEMCPY_MIN_BYTES) {
      direct[nd].src = data_source(n);
      direct[nd].dst = base + n->data_offset;
      direct[nd++].bytes = n->data_size;
      continue;
    }
    copy_op *c = &copies[nc++];
    c->src = data_source(n);
    c->dst = base + n->data_offset;
    c->bytes = n->data_size;
    if (c->bytes > max_copy) max_copy = c->bytes;
  }
  /* The alignment gaps between buffers are zeroed: every byte of the packed buffer is
   * defined, so serializing it (a copy of the whole buffer) reads no uninitialized memory. */
  GCOL_DETAIL_TRY(add_gap_ops(p, base, copies, &nc, &max_copy));
  /* One upload for every op list, before the large copies: an upload from pageable memory
   * waits for the stream to be idle, so issued first it does not wait for them. */
  if (nc + nm + no > 0) {
    size_t const copy_bytes = (size_t)nc * sizeof(copy_op);
    size_t const mask_at = (copy_bytes + 15) / 16 * 16;
    size_t const mask_bytes = (size_t)nm * sizeof(mask_op);
    size_t const off_at = (mask_at + mask_bytes + 15) / 16 * 16;
    bytes = off_at + (size_t)no * sizeof(offsets_op);
    char *host = (char *)calloc(bytes, 1);
    GCOL_DETAIL_CHECK(host != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %zu op bytes",
                      bytes);
    memcpy(host, copies, copy_bytes);
    memcpy(host + mask_at, masks, mask_bytes);
    memcpy(host + off_at, offs, (size_t)no * sizeof(offsets_op));
    status = gcol_buffer_create_copy(host, bytes, stream, NULL, &dops);
    free(host);
    if (status != GCOL_OK) goto done;
    if (ncount > 0) {
      GCOL_DETAIL_TRY(
          gcol_buffer_create((size_t)ncount * sizeof(unsigned long long), stream, NULL, counters));
      GCOL_DETAIL_CUDA_TRY(
          cudaMemsetAsync((*counters)->data, 0, (size_t)ncount * sizeof(unsigned long long), s));
      *num_counters = ncount;
    }
    char *const d = (char *)dops->data;
    if (nc > 0) {
      pack_copy_kernel<<<batch_grid((max_copy + 15) / 16, nc), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
          (const copy_op *)d, nc);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
    if (nm > 0) {
      pack_mask_kernel<<<batch_grid(max_mask, nm), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
          (const mask_op *)(d + mask_at), nm,
          ncount > 0 ? (unsigned long long *)(*counters)->data : NULL);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
    if (no > 0) {
      pack_offsets_kernel<<<batch_grid(max_off, no), GCOL_DETAIL_BLOCK_SIZE, 0, s>>>(
          (const offsets_op *)(d + off_at), no);
      GCOL_DETAIL_CUDA_CHECK_LAUNCH();
    }
  }
  for (int64_t k = 0; k < nd; ++k) {
    if (direct[k].src == NULL) {
      GCOL_DETAIL_CUDA_TRY(cudaMemsetAsync(direct[k].dst, 0, (size_t)direct[k].bytes, s));
    } else {
      GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(direct[k].dst, direct[k].src, (size_t)direct[k].bytes,
                                           cudaMemcpyDeviceToDevice, s));
    }
  }
done:
  free(copies);
  free(direct);
  free(masks);
  free(offs);
  gcol_buffer_free(dops); /* stream-ordered: after the kernels */
  return status;
}

/* ---------------------------------------------------------------- metadata */

static void write_nodes(const plan *p, int64_t i, uint8_t *nodes, int64_t *cursor) {
  plan_node const *n = &p->nodes[i];
  gcol_detail_pack_node rec;
  memset(&rec, 0, sizeof rec);
  if (n->kind == PLAN_OFFSETS) {
    rec.type_id = (int32_t)n->offsets_type;
  } else {
    rec.type_id = (int32_t)n->view.type.id;
    rec.scale = n->view.type.scale;
  }
  rec.num_children = n->num_children;
  rec.flags = n->has_mask ? GCOL_DETAIL_PACK_HAS_MASK : 0;
  rec.size = n->rows;
  rec.null_count = n->has_mask ? n->null_count : 0;
  rec.data_offset = n->data_offset;
  rec.data_size = n->data_size;
  rec.mask_offset = n->mask_offset;
  rec.mask_size = n->mask_size;
  memcpy(nodes + *cursor * GCOL_PACK_NODE_SIZE, &rec, sizeof rec);
  ++*cursor;
  for (int32_t c = 0; c < n->num_children; ++c) write_nodes(p, n->first_child + c, nodes, cursor);
}

static gcol_status build_metadata(const plan *p, int32_t num_columns, int64_t num_rows,
                                  int64_t data_size, uint8_t **out, size_t *out_size) {
  gcol_detail_pack_header h;
  size_t const size = GCOL_PACK_HEADER_SIZE + (size_t)p->size * GCOL_PACK_NODE_SIZE;
  uint8_t *blob = (uint8_t *)calloc(size, 1);
  int64_t cursor = 0;
  GCOL_DETAIL_REQUIRE(blob != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                      "no host memory for %zu metadata bytes", size);
  memset(&h, 0, sizeof h);
  h.magic = GCOL_PACK_MAGIC;
  h.version = GCOL_PACK_VERSION;
  h.header_size = GCOL_PACK_HEADER_SIZE;
  h.node_size = GCOL_PACK_NODE_SIZE;
  h.num_columns = num_columns;
  h.alignment = GCOL_PACK_ALIGNMENT;
  h.num_nodes = p->size;
  h.num_rows = num_rows;
  h.data_size = data_size;
  memcpy(blob, &h, sizeof h);
  for (int32_t c = 0; c < num_columns; ++c)
    write_nodes(p, c, blob + GCOL_PACK_HEADER_SIZE, &cursor);
  *out = blob;
  *out_size = size;
  return GCOL_OK;
}

/* ---------------------------------------------------------------- public */

extern "C" gcol_status gcol_pack(gcol_table_view input, gcol_packed_table **out, gcol_stream stream,
                                 gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  plan p = {NULL, 0, 0};
  gcol_packed_table *packed = NULL;
  gcol_buffer *counters = NULL;
  unsigned long long *counted = NULL;
  int64_t total = 0, num_counters = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_pack");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK(input.num_columns >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "input.num_columns is negative (%d)", (int)input.num_columns);
  GCOL_DETAIL_CHECK(input.columns != NULL || input.num_columns == 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "input.columns is NULL for %d columns", (int)input.num_columns);
  GCOL_DETAIL_CHECK(input.num_rows >= 0, GCOL_ERROR_INVALID_ARGUMENT,
                    "input.num_rows is negative (%lld)", (long long)input.num_rows);
  for (int32_t c = 0; c < input.num_columns; ++c) {
    char what[48];
    snprintf(what, sizeof what, "input.columns[%d]", (int)c);
    GCOL_DETAIL_TRY(check_column(input.columns[c], what, 1));
    GCOL_DETAIL_CHECK(input.columns[c].size == input.num_rows, GCOL_ERROR_INVALID_ARGUMENT,
                      "%s has %lld rows, the table %lld", what, (long long)input.columns[c].size,
                      (long long)input.num_rows);
  }
  GCOL_DETAIL_TRY(build_plan(input, &p, stream));
  for (int32_t c = 0; c < input.num_columns; ++c) GCOL_DETAIL_TRY(layout_node(&p, c, &total));
  packed = (gcol_packed_table *)calloc(1, sizeof *packed);
  GCOL_DETAIL_CHECK(packed != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for the packed table");
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)total, stream, mr, &packed->data));
  GCOL_DETAIL_TRY(issue_copies(&p, (char *)packed->data->data, stream, &counters, &num_counters));
  if (num_counters > 0) {
    counted = (unsigned long long *)calloc((size_t)num_counters, sizeof *counted);
    GCOL_DETAIL_CHECK(counted != NULL, GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %lld counts",
                      (long long)num_counters);
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(counted, counters->data,
                                         (size_t)num_counters * sizeof *counted,
                                         cudaMemcpyDeviceToHost, (cudaStream_t)stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
    for (int64_t i = 0; i < p.size; ++i) {
      if (p.nodes[i].counter >= 0) p.nodes[i].null_count = (int64_t)counted[p.nodes[i].counter];
    }
  }
  GCOL_DETAIL_TRY(build_metadata(&p, input.num_columns, input.num_columns == 0 ? 0 : input.num_rows,
                                 total, &packed->metadata, &packed->metadata_size));
  /* The caller reads packed->data->data: never spilled under that pointer. */
  GCOL_DETAIL_TRY(gcol_detail_spill_expose_outlasting(&packed->data, 1, stream));
  *out = packed;
  packed = NULL;
done:
  free(p.nodes);
  free(counted);
  gcol_buffer_free(counters);
  gcol_packed_table_free(packed);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_packed_table_serialize(const gcol_packed_table *packed, uint8_t **bytes,
                                                   size_t *size, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  uint8_t *buf = NULL;
  size_t total = 0, data_size = 0;
  gcol_detail_pack_serial_header h;
  GCOL_DETAIL_NVTX_PUSH("gcol_packed_table_serialize");
  GCOL_DETAIL_CHECK_NOT_NULL(bytes);
  *bytes = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(size);
  *size = 0;
  GCOL_DETAIL_CHECK_NOT_NULL(packed);
  GCOL_DETAIL_CHECK(packed->data != NULL, GCOL_ERROR_INVALID_ARGUMENT, "packed->data is NULL");
  data_size = packed->data->size;
  GCOL_DETAIL_TRY(gcol_detail_pack_parse(packed->metadata, packed->metadata_size, NULL, data_size,
                                         "gcol_packed_table_serialize", NULL));
  GCOL_DETAIL_CHECK(
      packed->metadata_size <= SIZE_MAX - GCOL_PACK_SERIAL_HEADER_SIZE &&
          data_size <= SIZE_MAX - GCOL_PACK_SERIAL_HEADER_SIZE - packed->metadata_size,
      GCOL_ERROR_OVERFLOW, "serialized size overflows");
  total = GCOL_PACK_SERIAL_HEADER_SIZE + packed->metadata_size + data_size;
  buf = (uint8_t *)malloc(total);
  GCOL_DETAIL_CHECK(buf != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %zu serialized bytes", total);
  memset(&h, 0, sizeof h);
  h.magic = GCOL_PACK_SERIAL_MAGIC;
  h.version = GCOL_PACK_VERSION;
  h.metadata_size = packed->metadata_size;
  h.data_size = data_size;
  memcpy(buf, &h, sizeof h);
  memcpy(buf + GCOL_PACK_SERIAL_HEADER_SIZE, packed->metadata, packed->metadata_size);
  if (data_size > 0) {
    GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(buf + GCOL_PACK_SERIAL_HEADER_SIZE + packed->metadata_size,
                                         packed->data->data, data_size, cudaMemcpyDeviceToHost,
                                         (cudaStream_t)stream));
    GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
  }
  *bytes = buf;
  *size = total;
  buf = NULL;
done:
  free(buf);
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_packed_table_deserialize(const uint8_t *bytes, size_t size,
                                                     gcol_packed_table **out, gcol_stream stream,
                                                     gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_packed_table *packed = NULL;
  uint64_t metadata_size = 0, data_size = 0;
  GCOL_DETAIL_NVTX_PUSH("gcol_packed_table_deserialize");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(gcol_detail_pack_check_serialized(bytes, size, &metadata_size, &data_size));
  GCOL_DETAIL_TRY(gcol_detail_pack_parse(bytes + GCOL_PACK_SERIAL_HEADER_SIZE,
                                         (size_t)metadata_size, NULL, (size_t)data_size,
                                         "gcol_packed_table_deserialize", NULL));
  packed = (gcol_packed_table *)calloc(1, sizeof *packed);
  GCOL_DETAIL_CHECK(packed != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for the packed table");
  packed->metadata = (uint8_t *)malloc((size_t)metadata_size);
  GCOL_DETAIL_CHECK(packed->metadata != NULL, GCOL_ERROR_OUT_OF_MEMORY,
                    "no host memory for %llu metadata bytes", (unsigned long long)metadata_size);
  memcpy(packed->metadata, bytes + GCOL_PACK_SERIAL_HEADER_SIZE, (size_t)metadata_size);
  packed->metadata_size = (size_t)metadata_size;
  GCOL_DETAIL_TRY(gcol_buffer_create((size_t)data_size, stream, mr, &packed->data));
  if (data_size > 0) {
    GCOL_DETAIL_CUDA_TRY(
        cudaMemcpyAsync(packed->data->data, bytes + GCOL_PACK_SERIAL_HEADER_SIZE + metadata_size,
                        (size_t)data_size, cudaMemcpyHostToDevice, (cudaStream_t)stream));
  }
  GCOL_DETAIL_TRY(gcol_detail_spill_expose_outlasting(&packed->data, 1, stream));
  *out = packed;
  packed = NULL;
done:
  gcol_packed_table_free(packed);
  GCOL_DETAIL_NVTX_POP();
  return status;
}
