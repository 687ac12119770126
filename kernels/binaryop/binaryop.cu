/*
 * Binary operations (binaryop.h): argument checks, the type plan, the output null mask, and
 * the choice between the vectorized fast path, the generic kernel and string comparison.
 */
#include <string.h>

#include "binaryop/binaryop_kernels.h"
#include "gcol/binaryop.h"
#include "gcol/bitmask.h"

/* One side of a binary operation: a column view or a host scalar. */
typedef struct binary_side {
  const gcol_scalar *scalar; /* NULL for a column */
  gcol_column_view view;
  const char *name; /* "lhs" or "rhs", for messages */
} binary_side;

static gcol_data_type side_type(const binary_side *s) {
  return s->scalar != NULL ? s->scalar->type : s->view.type;
}

static bool side_scalar_null(const binary_side *s) {
  return s->scalar != NULL && !s->scalar->is_valid;
}

static gcol_status check_side(const binary_side *s) {
  if (s->scalar == NULL) return gcol_column_view_validate(s->view, s->name);
  bool const ok = gcol_type_is_fixed_width(s->scalar->type.id) || s->scalar->type.id == GCOL_STRING;
  GCOL_DETAIL_REQUIRE(ok, GCOL_ERROR_UNSUPPORTED, "%s scalar of type %s is not supported", s->name,
                      gcol_type_name(s->scalar->type.id));
  return GCOL_OK;
}

/* The output null mask before the kernel runs, and how the kernel must update it. */
static gcol_status prepare_mask(const binary_side *l, const binary_side *r, gcol_binary_op op,
                                const gcol_detail_binary_plan *plan, int64_t n,
                                gcol_stream stream, gcol_mr *mr, gcol_buffer **mask,
                                int64_t *null_count, int32_t *mode) {
  gcol_status status = GCOL_OK;
  const uint32_t *masks[2];
  int64_t offsets[2];
  int32_t count = 0;
  *mode = GCOL_DETAIL_MASK_NONE;
  *null_count = 0;
  if (l->scalar == NULL && l->view.null_mask != NULL) {
    masks[count] = l->view.null_mask;
    offsets[count++] = l->view.offset;
  }
  if (r->scalar == NULL && r->view.null_mask != NULL) {
    masks[count] = r->view.null_mask;
    offsets[count++] = r->view.offset;
  }
  if (plan->null_aware) {
    bool const nullable = count > 0 || side_scalar_null(l) || side_scalar_null(r);
    if (op != GCOL_BINARY_NULL_EQUALS && nullable) {
      GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_UNINITIALIZED, stream, mr, mask));
      *mode = GCOL_DETAIL_MASK_WRITE;
    }
    goto done;
  }
  if (count > 0) {
    GCOL_DETAIL_TRY(gcol_bitmask_and(masks, offsets, count, n, stream, mr, mask, null_count));
  }
  if (plan->can_make_nulls) {
    if (*mask == NULL) {
      GCOL_DETAIL_TRY(gcol_bitmask_create(n, GCOL_MASK_ALL_VALID, stream, mr, mask));
    }
    *mode = GCOL_DETAIL_MASK_AND;
  }
done:
  return status;
}

static gcol_detail_operand fixed_operand(const binary_side *s, gcol_detail_multiplier m,
                                         bool zero_extend) {
  gcol_detail_operand o = s->scalar != NULL ? gcol_detail_operand_of_scalar(s->scalar, m)
                                            : gcol_detail_operand_of_column(s->view, m);
  if (zero_extend && o.kind == GCOL_DETAIL_KIND_SIGNED) o.kind = GCOL_DETAIL_KIND_UNSIGNED;
  return o;
}

/* A string operand; a scalar's bytes are copied into *tmp (freed by the caller). */
static gcol_status string_operand(const binary_side *s, gcol_stream stream,
                                  gcol_detail_string_operand *o, gcol_buffer **tmp) {
  gcol_status status = GCOL_OK;
  memset(o, 0, sizeof *o);
  if (s->scalar == NULL) {
    GCOL_DETAIL_TRY(gcol_strings_view_make(s->view, &o->view));
    goto done;
  }
  o->is_scalar = true;
  o->scalar_valid = s->scalar->is_valid;
  if (s->scalar->is_valid && s->scalar->string_size > 0) {
    GCOL_DETAIL_TRY(gcol_buffer_create_copy(s->scalar->string_data,
                                            (size_t)s->scalar->string_size, stream, NULL, tmp));
    o->scalar = gcol_string_ref_make((const char *)(*tmp)->data, s->scalar->string_size);
  }
done:
  return status;
}

static gcol_status launch(const binary_side *l, const binary_side *r, gcol_binary_op op,
                          const gcol_detail_binary_plan *plan, gcol_column *col,
                          gcol_buffer *mask, int32_t mode, gcol_stream stream) {
  gcol_status status = GCOL_OK;
  gcol_buffer *lhs_chars = NULL, *rhs_chars = NULL;
  uint32_t *mask_words = mask == NULL ? NULL : (uint32_t *)mask->data;
  if (plan->compute == GCOL_DETAIL_COMPUTE_STRING) {
    gcol_detail_string_operand ls, rs;
    GCOL_DETAIL_TRY(string_operand(l, stream, &ls, &lhs_chars));
    GCOL_DETAIL_TRY(string_operand(r, stream, &rs, &rhs_chars));
    GCOL_DETAIL_TRY(gcol_detail_binary_launch_strings(ls, rs, (uint8_t *)col->data->data, op,
                                                      col->size, mask_words, mode, stream));
    goto done;
  }
  gcol_detail_binary_launch k;
  k.lhs = fixed_operand(l, plan->lhs_multiplier, plan->lhs_zero_extend);
  k.rhs = fixed_operand(r, plan->rhs_multiplier, false);
  k.out.data = col->data->data;
  k.out.kind = gcol_detail_element_kind_of(col->type.id);
  k.out.width = (int32_t)gcol_type_size(col->type.id);
  k.op = op;
  k.size = col->size;
  k.mask = mask_words;
  k.mask_mode = mode;
  k.null_aware = plan->null_aware;
  if (gcol_detail_binary_fast_applies(&k, plan)) {
    GCOL_DETAIL_TRY(gcol_detail_binary_launch_fast(&k, stream));
  } else {
    GCOL_DETAIL_TRY(gcol_detail_binary_launch_generic(&k, plan->compute, stream));
  }
done:
  gcol_buffer_free(lhs_chars);
  gcol_buffer_free(rhs_chars);
  return status;
}

static gcol_status binary_run(binary_side l, binary_side r, gcol_binary_op op,
                              gcol_data_type output_type, gcol_column **out,
                              gcol_stream stream, gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  gcol_column *col = NULL;
  gcol_buffer *mask = NULL;
  int64_t null_count = 0;
  int32_t mode = GCOL_DETAIL_MASK_NONE;
  int64_t n = 0;
  gcol_detail_binary_plan plan;
  GCOL_DETAIL_TRY(check_side(&l));
  GCOL_DETAIL_TRY(check_side(&r));
  if (l.scalar == NULL && r.scalar == NULL) {
    GCOL_DETAIL_CHECK(l.view.size == r.view.size, GCOL_ERROR_SIZE_MISMATCH,
                      "lhs has %lld rows, rhs %lld", (long long)l.view.size,
                      (long long)r.view.size);
  }
  GCOL_DETAIL_TRY(gcol_detail_binary_plan_make(side_type(&l), side_type(&r), op, output_type, &plan));
  n = l.scalar == NULL ? l.view.size : r.view.size;
  if (n == 0) {
    GCOL_DETAIL_TRY(gcol_column_create(output_type, 0, GCOL_MASK_UNALLOCATED, stream, mr, &col));
  } else if (!plan.null_aware && (side_scalar_null(&l) || side_scalar_null(&r))) {
    /* A null scalar makes every row null: nothing to compute. */
    GCOL_DETAIL_TRY(gcol_column_create(output_type, n, GCOL_MASK_ALL_NULL, stream, mr, &col));
  } else {
    GCOL_DETAIL_TRY(prepare_mask(&l, &r, op, &plan, n, stream, mr, &mask, &null_count, &mode));
    GCOL_DETAIL_TRY(gcol_column_create(output_type, n, GCOL_MASK_UNALLOCATED, stream, mr, &col));
    GCOL_DETAIL_TRY(launch(&l, &r, op, &plan, col, mask, mode, stream));
    if (mode != GCOL_DETAIL_MASK_NONE) {
      GCOL_DETAIL_TRY(gcol_bitmask_count_unset_bits((const uint32_t *)mask->data, 0, n, stream,
                                                    &null_count));
    }
    if (mask != NULL) {
      GCOL_DETAIL_TRY(gcol_column_set_null_mask(col, mask, null_count));
      mask = NULL;
    }
  }
  *out = col;
  col = NULL;
done:
  gcol_buffer_free(mask);
  gcol_column_free(col);
  return status;
}

static binary_side column_side(gcol_column_view v, const char *name) {
  binary_side s;
  s.scalar = NULL;
  s.view = v;
  s.name = name;
  return s;
}

static binary_side scalar_side(const gcol_scalar *scalar, const char *name) {
  binary_side s;
  memset(&s, 0, sizeof s);
  s.scalar = scalar;
  s.name = name;
  return s;
}

extern "C" gcol_status gcol_binary_operation(gcol_column_view lhs, gcol_column_view rhs,
                                             gcol_binary_op op, gcol_data_type output_type,
                                             gcol_column **out, gcol_stream stream,
                                             gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_binary_operation");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_TRY(binary_run(column_side(lhs, "lhs"), column_side(rhs, "rhs"), op, output_type,
                             out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_binary_operation_column_scalar(gcol_column_view lhs,
                                                           const gcol_scalar *rhs,
                                                           gcol_binary_op op,
                                                           gcol_data_type output_type,
                                                           gcol_column **out, gcol_stream stream,
                                                           gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_binary_operation_column_scalar");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(rhs);
  GCOL_DETAIL_TRY(binary_run(column_side(lhs, "lhs"), scalar_side(rhs, "rhs"), op, output_type,
                             out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}

extern "C" gcol_status gcol_binary_operation_scalar_column(const gcol_scalar *lhs,
                                                           gcol_column_view rhs,
                                                           gcol_binary_op op,
                                                           gcol_data_type output_type,
                                                           gcol_column **out, gcol_stream stream,
                                                           gcol_mr *mr) {
  gcol_status status = GCOL_OK;
  GCOL_DETAIL_NVTX_PUSH("gcol_binary_operation_scalar_column");
  GCOL_DETAIL_CHECK_NOT_NULL(out);
  *out = NULL;
  GCOL_DETAIL_CHECK_NOT_NULL(lhs);
  GCOL_DETAIL_TRY(binary_run(scalar_side(lhs, "lhs"), column_side(rhs, "rhs"), op, output_type,
                             out, stream, mr));
done:
  GCOL_DETAIL_NVTX_POP();
  return status;
}
