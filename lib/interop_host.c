/* Arrow C Data Interface over host memory: exports copy a column's rows to host buffers
 * (offset 0, masks shifted and string/list offsets rebased to the slice), imports copy a
 * host array into a new gcol column after checking it completely. */
#include <cuda_runtime_api.h>
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

/* ---- export ---- */

typedef struct host_node {
  gcol_mr *mr;
  void *allocs[3];
  size_t sizes[3];
  const void *buffers[3];
  gcol_detail_arrow_children kids;
  struct ArrowArray dictionary;
} host_node;

static void host_free(gcol_mr *mr, void *p, size_t bytes) {
  if (mr != NULL) {
    gcol_mr_deallocate(mr, p, bytes, NULL);
  } else {
    free(p);
  }
}

static void host_node_release(struct ArrowArray *a) {
  host_node *node = (host_node *)a->private_data;
  for (int64_t i = 0; i < a->n_children; ++i) gcol_detail_arrow_array_release(a->children[i]);
  gcol_detail_arrow_array_release(a->dictionary);
  for (int i = 0; i < 3; ++i) host_free(node->mr, node->allocs[i], node->sizes[i]);
  gcol_detail_arrow_children_free(&node->kids);
  free(node);
  a->release = NULL;
}

/* Buffer i of the node: at least 64 bytes (never NULL), 64-byte aligned with malloc. */
static gcol_status host_alloc(host_node *node, int i, size_t bytes, void **out) {
  size_t const size = bytes < 64 ? 64 : (bytes + 63) / 64 * 64;
  void *p = NULL;
  if (node->mr != NULL) {
    GCOL_DETAIL_TRY_RETURN(gcol_mr_allocate(node->mr, &p, size, NULL));
  } else {
    p = aligned_alloc(64, size);
    GCOL_DETAIL_REQUIRE(p != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation of %zu bytes failed",
                        size);
  }
  node->allocs[i] = p;
  node->sizes[i] = size;
  node->buffers[i] = p;
  *out = p;
  return GCOL_OK;
}

static gcol_status host_node_make(gcol_mr *mr, int64_t n, struct ArrowArray *out,
                                  host_node **out_node) {
  host_node *node = (host_node *)calloc(1, sizeof *node);
  if (node == NULL || !gcol_detail_arrow_children_alloc(n, &node->kids)) {
    free(node);
    return gcol_detail_error(GCOL_ERROR_OUT_OF_MEMORY, __func__, "cannot allocate an array");
  }
  node->mr = mr;
  memset(out, 0, sizeof *out);
  out->n_children = n;
  out->children = node->kids.ptrs;
  out->buffers = node->buffers;
  out->release = host_node_release;
  out->private_data = node;
  *out_node = node;
  return GCOL_OK;
}

/* Copies device bytes to host and waits. */
static gcol_status to_host(void *dst, const void *src, size_t bytes, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  if (bytes == 0) return GCOL_OK;
  GCOL_DETAIL_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, (cudaStream_t)stream));
  GCOL_DETAIL_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
done:
  return status;
}

/* The validity of rows [offset, offset + size) at bit 0 of buffer 0; sets the null count. */
static gcol_status export_mask(gcol_column_view v, host_node *node, struct ArrowArray *out,
                               gcol_stream stream) {
  gcol_status status = GCOL_OK;
  uint32_t *words = NULL;
  void *bits = NULL;
  out->null_count = 0;
  if (v.null_mask == NULL || v.size == 0) return GCOL_OK;
  int64_t const first = gcol_bit_word_index(v.offset);
  int64_t const count = gcol_bit_word_index(v.offset + v.size - 1) - first + 1;
  words = (uint32_t *)malloc((size_t)count * sizeof *words);
  GCOL_DETAIL_CHECK(words != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_TRY(to_host(words, v.null_mask + first, (size_t)count * sizeof *words, stream));
  GCOL_DETAIL_TRY(host_alloc(node, 0, (size_t)(v.size + 7) / 8, &bits));
  out->null_count = copy_bits((const uint8_t *)words, v.offset - first * 32, v.size, (uint8_t *)bits);
done:
  free(words);
  return status;
}

/* Fixed-width values (BOOL8 packed into bits) of rows [offset, offset + size). */
static gcol_status export_values(gcol_column_view v, host_node *node, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  uint8_t *bytes = NULL;
  void *dst = NULL;
  size_t const width = gcol_type_size(v.type.id);
  const char *src = (const char *)v.data + v.offset * (int64_t)width;
  if (v.type.id != GCOL_BOOL8) {
    GCOL_DETAIL_TRY(host_alloc(node, 1, (size_t)v.size * width, &dst));
    GCOL_DETAIL_TRY(to_host(dst, src, (size_t)v.size * width, stream));
    goto done;
  }
  bytes = (uint8_t *)malloc(v.size > 0 ? (size_t)v.size : 1);
  GCOL_DETAIL_CHECK(bytes != NULL, GCOL_ERROR_OUT_OF_MEMORY, "host allocation failed");
  GCOL_DETAIL_TRY(to_host(bytes, src, (size_t)v.size, stream));
  GCOL_DETAIL_TRY(host_alloc(node, 1, (size_t)(v.size + 7) / 8, &dst));
  memset(dst, 0, (size_t)(v.size + 7) / 8);
  for (int64_t i = 0; i < v.size; ++i) {
    if (bytes[i]) ((uint8_t *)dst)[i >> 3] |= (uint8_t)(1u << (i & 7));
  }
done:
  free(bytes);
  return status;
}

/* Offsets of rows [offset, offset + size] rebased to 0 in buffer 1; the original first and
 * last offsets through *first and *last. */
static gcol_status export_offsets(gcol_column_view v, host_node *node, gcol_stream stream,
                                  int64_t *first, int64_t *last) {
  void *dst = NULL;
  bool const has = v.num_children > GCOL_OFFSETS_CHILD && v.children[0].data != NULL && v.size > 0;
  int32_t const w = has ? (int32_t)gcol_type_size(v.children[0].type.id)
                        : (v.num_children > 0 && v.children[0].type.id == GCOL_INT64 ? 8 : 4);
  GCOL_DETAIL_TRY_RETURN(host_alloc(node, 1, (size_t)(v.size + 1) * (size_t)w, &dst));
  *first = *last = 0;
  if (!has) {
    memset(dst, 0, (size_t)w);
    return GCOL_OK;
  }
  gcol_column_view const o = v.children[0];
  GCOL_DETAIL_TRY_RETURN(to_host(dst, (const char *)o.data + (o.offset + v.offset) * w,
                                 (size_t)(v.size + 1) * (size_t)w, stream));
  gcol_offsets_writer wr;
  wr.data = dst;
  wr.width = w;
  gcol_offsetalator rd;
  rd.data = dst;
  rd.width = w;
  *first = gcol_offsetalator_get(rd, 0);
  *last = gcol_offsetalator_get(rd, v.size);
  GCOL_DETAIL_REQUIRE(*first >= 0 && *last >= *first, GCOL_ERROR_INVALID_ARGUMENT,
                      "offsets span [%lld, %lld)", (long long)*first, (long long)*last);
  for (int64_t i = 0; i <= v.size; ++i) gcol_offsets_writer_set(wr, i, gcol_offsetalator_get(rd, i) - *first);
  return GCOL_OK;
}

static gcol_status host_export(gcol_column_view v, struct ArrowArray *out, gcol_stream stream,
                               gcol_mr *mr);

/* The buffers and children of one node by type. */
static gcol_status export_body(gcol_column_view v, host_node *node, struct ArrowArray *out,
                               gcol_stream stream, gcol_mr *mr) {
  gcol_type_id const id = v.type.id;
  int64_t first = 0, last = 0;
  void *chars = NULL;
  if (id == GCOL_EMPTY) {
    out->n_buffers = 0;
    out->null_count = v.size;
    return GCOL_OK;
  }
  out->n_buffers = id == GCOL_STRING ? 3 : id == GCOL_STRUCT ? 1 : 2;
  GCOL_DETAIL_TRY_RETURN(export_mask(v, node, out, stream));
  if (gcol_type_is_fixed_width(id)) return export_values(v, node, stream);
  if (id == GCOL_STRING || id == GCOL_LIST) {
    GCOL_DETAIL_TRY_RETURN(export_offsets(v, node, stream, &first, &last));
  }
  if (id == GCOL_STRING) {
    GCOL_DETAIL_TRY_RETURN(host_alloc(node, 2, (size_t)(last - first), &chars));
    return to_host(chars, (const char *)v.data + first, (size_t)(last - first), stream);
  }
  if (id == GCOL_LIST) {
    gcol_column_view values;
    GCOL_DETAIL_TRY_RETURN(gcol_column_view_slice(v.children[GCOL_LIST_VALUES_CHILD], first, last, &values));
    return host_export(values, &node->kids.arrays[0], stream, mr);
  }
  if (id == GCOL_STRUCT) {
    for (int64_t i = 0; i < out->n_children; ++i) {
      gcol_column_view field;
      GCOL_DETAIL_TRY_RETURN(gcol_column_view_slice(v.children[i], v.offset, v.offset + v.size, &field));
      GCOL_DETAIL_TRY_RETURN(host_export(field, &node->kids.arrays[i], stream, mr));
    }
    return GCOL_OK;
  }
  /* DICTIONARY32: the indices with the dictionary's validity, then the keys whole. */
  gcol_column_view idx = v.children[GCOL_DICTIONARY_INDICES_CHILD];
  idx.data = (const int32_t *)idx.data + idx.offset;
  idx.offset = v.offset;
  idx.size = v.size;
  GCOL_DETAIL_TRY_RETURN(export_values(idx, node, stream));
  GCOL_DETAIL_TRY_RETURN(host_export(v.children[GCOL_DICTIONARY_KEYS_CHILD], &node->dictionary, stream, mr));
  out->dictionary = &node->dictionary;
  return GCOL_OK;
}

static gcol_status host_export(gcol_column_view v, struct ArrowArray *out, gcol_stream stream,
                               gcol_mr *mr) {
  host_node *node = NULL;
  int64_t const n = v.type.id == GCOL_LIST ? 1 : v.type.id == GCOL_STRUCT ? v.num_children : 0;
  GCOL_DETAIL_REQUIRE(v.type.id != GCOL_DURATION_DAYS, GCOL_ERROR_UNSUPPORTED,
                      "duration[D] has no Arrow type");
  GCOL_DETAIL_TRY_RETURN(host_node_make(mr, n, out, &node));
  out->length = v.size;
  gcol_status const st = export_body(v, node, out, stream, mr);
  if (st != GCOL_OK) out->release(out);
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
