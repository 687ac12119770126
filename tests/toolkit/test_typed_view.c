/* Host tests of gcol/typed_view.h and gcol/accessors.h on host arrays, for every typed-view
 * suffix: the type-acceptance matrix of the checked constructors, reads and writes at
 * unaligned mask offsets, accessors, argument errors, and tick conversion. */
#include "gcol/accessors.h"
#include "gcol/typed_view.h"
#include "test_util.h"

/* Which type ids each suffix accepts, written out independently of the header. */
static bool expected_accepts(const char *sfx, gcol_type_id id) {
  switch (id) {
    case GCOL_INT8: return strcmp(sfx, "i8") == 0;
    case GCOL_INT16: return strcmp(sfx, "i16") == 0;
    case GCOL_INT32:
    case GCOL_TIMESTAMP_DAYS:
    case GCOL_DURATION_DAYS:
    case GCOL_DECIMAL32: return strcmp(sfx, "i32") == 0;
    case GCOL_INT64:
    case GCOL_TIMESTAMP_SECONDS:
    case GCOL_TIMESTAMP_MILLISECONDS:
    case GCOL_TIMESTAMP_MICROSECONDS:
    case GCOL_TIMESTAMP_NANOSECONDS:
    case GCOL_DURATION_SECONDS:
    case GCOL_DURATION_MILLISECONDS:
    case GCOL_DURATION_MICROSECONDS:
    case GCOL_DURATION_NANOSECONDS:
    case GCOL_DECIMAL64: return strcmp(sfx, "i64") == 0;
    case GCOL_UINT8: return strcmp(sfx, "u8") == 0;
    case GCOL_UINT16: return strcmp(sfx, "u16") == 0;
    case GCOL_UINT32: return strcmp(sfx, "u32") == 0;
    case GCOL_UINT64: return strcmp(sfx, "u64") == 0;
    case GCOL_FLOAT32: return strcmp(sfx, "f32") == 0;
    case GCOL_FLOAT64: return strcmp(sfx, "f64") == 0;
    case GCOL_BOOL8: return strcmp(sfx, "b8") == 0;
    case GCOL_DECIMAL128: return strcmp(sfx, "d128") == 0;
    default: return false;
  }
}

static gcol_column_view host_view(gcol_type_id id, int64_t size, int64_t offset, const void *data,
                                  const uint32_t *mask) {
  gcol_column_view v = gcol_column_view_make(gcol_data_type_make(id), size, data, mask, 0);
  v.offset = offset;
  return v;
}

static gcol_mutable_column_view host_mutable_view(gcol_type_id id, int64_t size, int64_t offset,
                                                  void *data, uint32_t *mask) {
  gcol_mutable_column_view v;
  v.type = gcol_data_type_make(id);
  v.size = size;
  v.offset = offset;
  v.data = data;
  v.null_mask = mask;
  v.null_count = 0;
  return v;
}

static const int64_t sizes[] = {0, 1, 2, 31, 32, 33, 65, 130};
static const int64_t offsets[] = {0, 1, 3, 5, 7, 31, 33, 63, 65};

/* One test per suffix: generated so every family is exercised with its real type. */
#define TYPED_VIEW_TEST(SFX, T)                                                                \
  static void typed_view_##SFX(void **state) {                                                 \
    (void)state;                                                                               \
    gcol_test_rng rng = gcol_test_rng_make(500 + sizeof(T));                                   \
    uint32_t dummy_mask[1] = {0};                                                              \
    T dummy[1];                                                                                \
    memset(dummy, 0, sizeof dummy);                                                            \
    for (int id = 0; id < GCOL_NUM_TYPE_IDS; ++id) {                                           \
      gcol_##SFX##_view v;                                                                     \
          memset(&v, 0, sizeof v);                                                                     \
      gcol_##SFX##_mutable_view m;                                                             \
          memset(&m, 0, sizeof m);                                                             \
      bool const want = expected_accepts(#SFX, (gcol_type_id)id);                              \
      gcol_status const want_st = want ? GCOL_OK : GCOL_ERROR_TYPE_MISMATCH;                   \
      assert_int_equal(gcol_##SFX##_view_make(host_view((gcol_type_id)id, 1, 0, dummy, dummy_mask), &v), want_st); \
      assert_int_equal(gcol_##SFX##_mutable_view_make(host_mutable_view((gcol_type_id)id, 1, 0, dummy, dummy_mask), &m), want_st); \
      assert_int_equal(gcol_##SFX##_view_accepts((gcol_type_id)id), want);                     \
    }                                                                                          \
    gcol_type_id const id = GCOL_DETAIL_STORAGE_ID_##SFX;                                      \
    gcol_##SFX##_view v;                                                                       \
          memset(&v, 0, sizeof v);                                                                       \
    assert_int_equal(gcol_##SFX##_view_make(host_view(id, 1, 0, dummy, NULL), NULL), GCOL_ERROR_INVALID_ARGUMENT); \
    assert_int_equal(gcol_##SFX##_view_make(host_view(id, -1, 0, dummy, NULL), &v), GCOL_ERROR_INVALID_ARGUMENT); \
    assert_int_equal(gcol_##SFX##_view_make(host_view(id, 1, -1, dummy, NULL), &v), GCOL_ERROR_INVALID_ARGUMENT); \
    assert_int_equal(gcol_##SFX##_view_make(host_view(id, 3, 0, NULL, NULL), &v), GCOL_ERROR_INVALID_ARGUMENT); \
    assert_int_equal(gcol_##SFX##_view_make(host_view(id, 0, 0, NULL, NULL), &v), GCOL_OK);    \
    assert_null(v.data);                                                                       \
    assert_int_equal(v.size, 0);                                                               \
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {                           \
      for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; ++oi) {                     \
        int64_t const n = sizes[si], off = offsets[oi], total = n + off;                       \
        size_t const words = (size_t)gcol_bit_num_words(total) + 1;                            \
        T *data = malloc(sizeof(T) * (size_t)(total + 1));                                     \
        uint32_t *mask = malloc(words * 4);                                                    \
        uint32_t *mask_copy = malloc(words * 4);                                               \
        assert_true(data && mask && mask_copy);                                                \
        gcol_test_rng_fill(&rng, data, sizeof(T) * (size_t)(total + 1));                       \
        gcol_test_rng_fill(&rng, mask, words * 4);                                             \
        for (int with_mask = 0; with_mask < 2; ++with_mask) {                                  \
          uint32_t *mk = with_mask ? mask : NULL;                                              \
          gcol_##SFX##_view rv;                                                                \
          memset(&rv, 0, sizeof rv);                                                                \
          assert_int_equal(gcol_##SFX##_view_make(host_view(id, n, off, data, mk), &rv), GCOL_OK); \
          assert_ptr_equal(rv.data, data + off);                                               \
          assert_int_equal(rv.size, n);                                                        \
          T const repl = data[total]; /* random replacement */                                 \
          gcol_##SFX##_replace_nulls_accessor ra = gcol_##SFX##_replace_nulls_accessor_make(rv, repl); \
          gcol_##SFX##_pair_accessor pa = gcol_##SFX##_pair_accessor_make(rv);                 \
          gcol_validity_accessor va = gcol_##SFX##_validity_accessor_make(rv);                 \
          gcol_validity_accessor vc = gcol_validity_accessor_from_column(host_view(id, n, off, data, mk)); \
          for (int64_t i = 0; i < n; ++i) {                                                    \
            bool const valid = mk == NULL || ((mk[(off + i) / 32] >> ((off + i) % 32)) & 1u);  \
            T const got = gcol_##SFX##_view_get(rv, i);                                        \
            assert_memory_equal(&got, &data[off + i], sizeof(T));                              \
            assert_int_equal(gcol_##SFX##_view_is_valid(rv, i), valid);                        \
            gcol_##SFX##_pair const p = gcol_##SFX##_view_get_pair(rv, i);                     \
            gcol_##SFX##_pair const pp = gcol_##SFX##_pair_accessor_get(pa, i);                \
            assert_int_equal(p.valid, valid);                                                  \
            assert_int_equal(pp.valid, valid);                                                 \
            assert_memory_equal(&p.value, &data[off + i], sizeof(T));                          \
            assert_memory_equal(&pp.value, &data[off + i], sizeof(T));                         \
            T const r = gcol_##SFX##_replace_nulls_accessor_get(ra, i);                        \
            assert_memory_equal(&r, valid ? &data[off + i] : &repl, sizeof(T));                \
            assert_int_equal(gcol_validity_accessor_get(va, i), valid);                        \
            assert_int_equal(gcol_validity_accessor_get(vc, i), valid);                        \
          }                                                                                    \
          gcol_##SFX##_mutable_view mv;                                                        \
          memset(&mv, 0, sizeof mv);                                                        \
          assert_int_equal(gcol_##SFX##_mutable_view_make(host_mutable_view(id, n, off, data, mk), &mv), GCOL_OK); \
          assert_ptr_equal(mv.data, data + off);                                               \
          gcol_##SFX##_view back = gcol_##SFX##_mutable_view_to_view(mv);                      \
          assert_ptr_equal(back.data, rv.data);                                                \
          assert_int_equal(back.mask_offset, off);                                             \
          for (int64_t i = 0; i < n; ++i) {                                                    \
            memcpy(mask_copy, mask, words * 4);                                                \
            T value;                                                                           \
            gcol_test_rng_fill(&rng, &value, sizeof value);                                    \
            gcol_##SFX##_mutable_view_set(mv, i, value);                                       \
            T const got = gcol_##SFX##_mutable_view_get(mv, i);                                \
            assert_memory_equal(&got, &value, sizeof(T));                                      \
            gcol_##SFX##_mutable_view_set_null(mv, i);                                         \
            assert_int_equal(gcol_##SFX##_mutable_view_is_valid(mv, i), mk == NULL);           \
            gcol_##SFX##_mutable_view_set_valid(mv, i);                                        \
            assert_true(gcol_##SFX##_mutable_view_is_valid(mv, i));                            \
            gcol_##SFX##_pair p;                                                               \
            p.value = value;                                                                   \
            p.valid = false;                                                                   \
            gcol_##SFX##_mutable_view_set_pair(mv, i, p);                                      \
            gcol_##SFX##_pair const q = gcol_##SFX##_mutable_view_get_pair(mv, i);             \
            assert_int_equal(q.valid, mk == NULL);                                             \
            assert_memory_equal(&q.value, &value, sizeof(T));                                  \
            /* Only bit off + i may differ from before. */                                     \
            for (size_t w = 0; w < words; ++w) {                                               \
              uint32_t diff = mask[w] ^ mask_copy[w];                                          \
              if ((int64_t)w == (off + i) / 32) diff &= ~(1u << ((off + i) % 32));             \
              assert_int_equal(diff, 0);                                                       \
            }                                                                                  \
            p.valid = true;                                                                    \
            gcol_##SFX##_mutable_view_set_pair(mv, i, p);                                      \
            assert_true(gcol_##SFX##_mutable_view_is_valid(mv, i));                            \
          }                                                                                    \
        }                                                                                      \
        free(data);                                                                            \
        free(mask);                                                                            \
        free(mask_copy);                                                                       \
      }                                                                                        \
    }                                                                                          \
  }

GCOL_TYPED_VIEW_LIST(TYPED_VIEW_TEST)

static void wrap_builds_views_over_plain_arrays(void **state) {
  (void)state;
  double values[3] = {1.5, -0.0, 2.5};
  uint32_t mask[1] = {0x5u}; /* rows 0 and 2 valid */
  gcol_f64_view v = gcol_f64_view_wrap(values, mask, 0, 3);
  assert_true(gcol_f64_view_is_valid(v, 0));
  assert_false(gcol_f64_view_is_valid(v, 1));
  assert_true(gcol_f64_view_get(v, 2) == 2.5);
  gcol_f64_replace_nulls_accessor r = gcol_f64_replace_nulls_accessor_make(v, 9.0);
  assert_true(gcol_f64_replace_nulls_accessor_get(r, 1) == 9.0);
  assert_true(gcol_f64_replace_nulls_accessor_get(r, 0) == 1.5);
  gcol_int128 big[2] = {{1u, -1}, {0xFFFFFFFFFFFFFFFFull, 0x7FFFFFFFFFFFFFFF}};
  gcol_d128_mutable_view d = gcol_d128_mutable_view_wrap(big, NULL, 0, 2);
  gcol_int128 x = {42u, -7};
  gcol_d128_mutable_view_set(d, 0, x);
  assert_true(big[0].lo == 42u && big[0].hi == -7);
  assert_true(gcol_d128_mutable_view_get(d, 1).hi == 0x7FFFFFFFFFFFFFFF);
  gcol_d128_mutable_view_set_null(d, 0); /* no mask: no-op */
  assert_true(gcol_d128_mutable_view_is_valid(d, 0));
}

static void ticks_convert_between_units(void **state) {
  (void)state;
  int64_t out = 12345;
  assert_true(gcol_ticks_convert(1500, GCOL_TIMESTAMP_MILLISECONDS, GCOL_TIMESTAMP_SECONDS, &out));
  assert_int_equal(out, 1);
  assert_true(gcol_ticks_convert(-1, GCOL_TIMESTAMP_MILLISECONDS, GCOL_TIMESTAMP_SECONDS, &out));
  assert_int_equal(out, -1); /* floor: -1 ms lies in second -1 */
  assert_true(gcol_ticks_convert(-1000, GCOL_TIMESTAMP_MILLISECONDS, GCOL_TIMESTAMP_SECONDS, &out));
  assert_int_equal(out, -1);
  assert_true(gcol_ticks_convert(-1001, GCOL_DURATION_MILLISECONDS, GCOL_DURATION_SECONDS, &out));
  assert_int_equal(out, -2);
  assert_true(gcol_ticks_convert(2, GCOL_TIMESTAMP_DAYS, GCOL_TIMESTAMP_NANOSECONDS, &out));
  assert_int_equal(out, 2 * 86400000000000LL);
  assert_true(gcol_ticks_convert(86399, GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_DAYS, &out));
  assert_int_equal(out, 0);
  assert_true(gcol_ticks_convert(-86401, GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_DAYS, &out));
  assert_int_equal(out, -2);
  assert_true(gcol_ticks_convert(7, GCOL_TIMESTAMP_MICROSECONDS, GCOL_TIMESTAMP_MICROSECONDS, &out));
  assert_int_equal(out, 7);
  assert_true(gcol_ticks_convert(INT64_MIN, GCOL_TIMESTAMP_NANOSECONDS, GCOL_TIMESTAMP_SECONDS, &out));
  assert_int_equal(out, INT64_MIN / 1000000000 - 1);
  out = 99;
  assert_false(gcol_ticks_convert(INT64_MAX / 1000 + 1, GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_MILLISECONDS, &out));
  assert_false(gcol_ticks_convert(INT64_MIN / 1000 - 1, GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_MILLISECONDS, &out));
  assert_false(gcol_ticks_convert(1, GCOL_INT64, GCOL_TIMESTAMP_SECONDS, &out));
  assert_false(gcol_ticks_convert(1, GCOL_TIMESTAMP_SECONDS, GCOL_FLOAT64, &out));
  assert_int_equal(out, 99);
  assert_true(gcol_ticks_convert(INT64_MAX / 1000, GCOL_TIMESTAMP_SECONDS, GCOL_TIMESTAMP_MILLISECONDS, &out));
  assert_int_equal(out, (INT64_MAX / 1000) * 1000);
}

#define TYPED_VIEW_ENTRY(SFX, T) cmocka_unit_test(typed_view_##SFX),

int main(void) {
  const struct CMUnitTest tests[] = {
      GCOL_TYPED_VIEW_LIST(TYPED_VIEW_ENTRY)
      cmocka_unit_test(wrap_builds_views_over_plain_arrays),
      cmocka_unit_test(ticks_convert_between_units),
  };
  return GCOL_TEST_RUN("toolkit_typed_view", tests);
}
