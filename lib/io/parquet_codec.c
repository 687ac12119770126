/* Parquet page codecs on the host through the distribution's shared libraries, opened with
 * dlopen when first needed (once per library, under pthread_once): SNAPPY (libsnappy.so.1),
 * ZSTD (libzstd.so.1), GZIP (libz.so.1, gzip wrapper) and LZ4_RAW (liblz4.so.1). Nothing
 * here is a build or link dependency: a library that is missing makes only its codec
 * unavailable. The prototypes below restate the libraries' stable C ABIs (snappy-c.h, zstd.h,
 * zlib.h, lz4.h), so no -dev package is needed. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "internal/parquet.h"
#include "internal/pq_walk.h"

/* ---- the libraries' functions ---- */

/* zlib's z_stream (zlib.h; its layout is part of zlib's ABI, checked by inflateInit2_ through
 * the size passed to it). */
typedef struct gcol_detail_z_stream {
  const uint8_t *next_in;
  unsigned avail_in;
  unsigned long total_in;
  uint8_t *next_out;
  unsigned avail_out;
  unsigned long total_out;
  const char *msg;
  void *state;
  void *zalloc;
  void *zfree;
  void *opaque;
  int data_type;
  unsigned long adler;
  unsigned long reserved;
} gcol_detail_z_stream;

enum { ZLIB_OK = 0, ZLIB_STREAM_END = 1, ZLIB_FINISH = 4, ZLIB_DEFLATED = 8 };
#define ZLIB_VERSION_STRING "1.2.13" /* zlib checks only the first character */

/* Any function: resolved symbols are stored as this and cast to their prototypes (ISO C
 * allows casts between function pointer types, not from dlsym's void *). */
typedef void (*any_fn)(void);

typedef struct codec_lib {
  const char *file;     /* the shared library's soname */
  const char *names[6]; /* its functions, in the order of `fns` */
  any_fn fns[6];
  bool loaded; /* every function resolved */
  pthread_once_t once;
} codec_lib;

enum { LIB_SNAPPY, LIB_ZSTD, LIB_ZLIB, LIB_LZ4, LIB_COUNT };

static codec_lib libs[LIB_COUNT] = {
    {"libsnappy.so.1",
     {"snappy_uncompress", "snappy_uncompressed_length", "snappy_compress",
      "snappy_max_compressed_length", NULL, NULL},
     {NULL},
     false,
     PTHREAD_ONCE_INIT},
    {"libzstd.so.1",
     {"ZSTD_decompress", "ZSTD_isError", "ZSTD_getErrorName", "ZSTD_getFrameContentSize",
      "ZSTD_compress", "ZSTD_compressBound"},
     {NULL},
     false,
     PTHREAD_ONCE_INIT},
    {"libz.so.1",
     {"inflateInit2_", "inflate", "inflateEnd", "deflateInit2_", "deflate", "deflateEnd"},
     {NULL},
     false,
     PTHREAD_ONCE_INIT},
    {"liblz4.so.1",
     {"LZ4_decompress_safe", "LZ4_compress_default", "LZ4_compressBound", NULL, NULL, NULL},
     {NULL},
     false,
     PTHREAD_ONCE_INIT},
};

static void load_lib(codec_lib *lib) {
  void *h = dlopen(lib->file, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) return;
  for (int i = 0; i < 6 && lib->names[i] != NULL; ++i) {
    void *const sym = dlsym(h, lib->names[i]);
    if (sym == NULL) return;
    memcpy(&lib->fns[i], &sym, sizeof sym);
    /* POSIX: a function's address as a void * */ /* kept open: dlclose is not worth a race */
  }
  lib->loaded = true;
}

static void load_snappy(void) { load_lib(&libs[LIB_SNAPPY]); }
static void load_zstd(void) { load_lib(&libs[LIB_ZSTD]); }
static void load_zlib(void) { load_lib(&libs[LIB_ZLIB]); }
static void load_lz4(void) { load_lib(&libs[LIB_LZ4]); }

static int codec_lib_index(int32_t codec) {
  switch (codec) {
    case GCOL_PARQUET_SNAPPY:
      return LIB_SNAPPY;
    case GCOL_PARQUET_ZSTD:
      return LIB_ZSTD;
    case GCOL_PARQUET_GZIP:
      return LIB_ZLIB;
    case GCOL_PARQUET_LZ4_RAW:
      return LIB_LZ4;
    default:
      return -1;
  }
}

/* Codecs whose library tests pretend is missing (bit per codec). */
static _Atomic uint32_t hidden_codecs;

void gcol_detail_pq_codec_hide(int32_t codec, bool hide) {
  if (codec < 0 || codec >= 32) return;
  if (hide) {
    atomic_fetch_or(&hidden_codecs, UINT32_C(1) << codec);
  } else {
    atomic_fetch_and(&hidden_codecs, ~(UINT32_C(1) << codec));
  }
}

/* The library of `codec` after loading it once, or NULL when it is missing. */
static const codec_lib *get_lib(int32_t codec) {
  static void (*const loaders[LIB_COUNT])(void) = {load_snappy, load_zstd, load_zlib, load_lz4};
  int const i = codec_lib_index(codec);
  if (i < 0 || (atomic_load(&hidden_codecs) >> codec & 1u) != 0) return NULL;
  pthread_once(&libs[i].once, loaders[i]);
  return libs[i].loaded ? &libs[i] : NULL;
}

/* Function pointer types (the libraries' prototypes). */
typedef int (*snappy_uncompress_fn)(const char *, size_t, char *, size_t *);
typedef int (*snappy_uncompressed_length_fn)(const char *, size_t, size_t *);
typedef int (*snappy_compress_fn)(const char *, size_t, char *, size_t *);
typedef size_t (*snappy_max_fn)(size_t);
typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_is_error_fn)(size_t);
typedef const char *(*zstd_error_name_fn)(size_t);
typedef unsigned long long (*zstd_content_size_fn)(const void *, size_t);
typedef size_t (*zstd_compress_fn)(void *, size_t, const void *, size_t, int);
typedef size_t (*zstd_bound_fn)(size_t);
typedef int (*inflate_init2_fn)(gcol_detail_z_stream *, int, const char *, int);
typedef int (*zlib_step_fn)(gcol_detail_z_stream *, int);
typedef int (*zlib_end_fn)(gcol_detail_z_stream *);
typedef int (*deflate_init2_fn)(gcol_detail_z_stream *, int, int, int, int, int, const char *, int);
typedef int (*lz4_decompress_fn)(const char *, char *, int, int);
typedef int (*lz4_compress_fn)(const char *, char *, int, int);
typedef int (*lz4_bound_fn)(int);

/* ---- public to the reader ---- */

const char *gcol_detail_pq_codec_name(int32_t codec) {
  static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                      "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  return codec >= 0 && codec < (int32_t)(sizeof names / sizeof names[0]) ? names[codec] : "unknown";
}

const char *gcol_detail_pq_codec_library(int32_t codec) {
  int const i = codec_lib_index(codec);
  return i < 0 ? NULL : libs[i].file;
}

bool gcol_detail_pq_codec_available(int32_t codec) {
  return codec == GCOL_PARQUET_UNCOMPRESSED || get_lib(codec) != NULL;
}

int64_t gcol_detail_pq_max_decompressed(int32_t codec, const uint8_t *src, int64_t size) {
  int64_t bound = GCOL_DETAIL_PQ_MAX_PAGE_BYTES;
  int64_t by_ratio = bound;
  switch (codec) {
    case GCOL_PARQUET_SNAPPY:
      by_ratio = size * 32 + 64; /* a 3-byte copy element makes at most 64 bytes */
      break;
    case GCOL_PARQUET_LZ4_RAW:
      by_ratio = size * 256 + 64; /* a length byte of 255 adds 255 bytes */
      break;
    case GCOL_PARQUET_GZIP:
      by_ratio = size * 1040 + 64; /* deflate's limit is 1032:1 */
      break;
    case GCOL_PARQUET_ZSTD: {
      const codec_lib *lib = get_lib(codec);
      if (lib != NULL) {
        unsigned long long const n = ((zstd_content_size_fn)lib->fns[3])(src, (size_t)size);
        /* known (frame header): no more; unknown (-1) or an error (-2): the cap, and
         * ZSTD_decompress reports the error */
        if (n < (unsigned long long)bound) by_ratio = (int64_t)n;
      }
      break;
    }
    default:
      break;
  }
  return by_ratio < bound ? by_ratio : bound;
}

int gcol_detail_pq_decompress(int32_t codec, const uint8_t *src, int64_t src_size, uint8_t *dst,
                              int64_t dst_size, char *error, int error_size) {
  const codec_lib *lib = get_lib(codec);
  if (codec_lib_index(codec) < 0) {
    snprintf(error, (size_t)error_size, "codec %s is not supported",
             gcol_detail_pq_codec_name(codec));
    return GCOL_DETAIL_PQ_CODEC_UNSUPPORTED;
  }
  if (lib == NULL) {
    snprintf(error, (size_t)error_size, "%s needs %s, not found", gcol_detail_pq_codec_name(codec),
             gcol_detail_pq_codec_library(codec));
    return GCOL_DETAIL_PQ_CODEC_MISSING;
  }
  if (src_size < 0 || dst_size < 0 || src_size > INT_MAX || dst_size > INT_MAX) {
    snprintf(error, (size_t)error_size, "%s page of %lld bytes (%lld decompressed) is too large",
             gcol_detail_pq_codec_name(codec), (long long)src_size, (long long)dst_size);
    return GCOL_DETAIL_PQ_CODEC_CORRUPT;
  }
  int64_t got = -1;
  bool at_least = false; /* got is a lower bound (zlib stops at the end of the output) */
  const char *why = "corrupt data";
  char zlib_msg[96];
  switch (codec) {
    case GCOL_PARQUET_SNAPPY: {
      size_t n = 0;
      if (((snappy_uncompressed_length_fn)lib->fns[1])((const char *)src, (size_t)src_size, &n) !=
          0) {
        why = "invalid length prefix";
        break;
      }
      if ((int64_t)n != dst_size) {
        got = (int64_t)n;
        break;
      }
      size_t out = (size_t)dst_size;
      if (((snappy_uncompress_fn)lib->fns[0])((const char *)src, (size_t)src_size, (char *)dst,
                                              &out) == 0) {
        got = (int64_t)out;
      }
      break;
    }
    case GCOL_PARQUET_ZSTD: {
      /* the frame's content size, when its header has one (below 2^62: not UNKNOWN or ERROR) */
      unsigned long long const n = ((zstd_content_size_fn)lib->fns[3])(src, (size_t)src_size);
      if (n < (1ull << 62) && n != (unsigned long long)dst_size) {
        got = (int64_t)n;
        break;
      }
      size_t const r =
          ((zstd_decompress_fn)lib->fns[0])(dst, (size_t)dst_size, src, (size_t)src_size);
      if (((zstd_is_error_fn)lib->fns[1])(r)) {
        why = ((zstd_error_name_fn)lib->fns[2])(r);
      } else {
        got = (int64_t)r;
      }
      break;
    }
    case GCOL_PARQUET_GZIP: {
      gcol_detail_z_stream z;
      memset(&z, 0, sizeof z);
      if (((inflate_init2_fn)lib->fns[0])(&z, 16 + 15, ZLIB_VERSION_STRING, (int)sizeof z) !=
          ZLIB_OK) {
        why = "inflateInit2 failed";
        break;
      }
      z.next_in = src;
      z.avail_in = (unsigned)src_size;
      z.next_out = dst;
      z.avail_out = (unsigned)dst_size;
      int const r = ((zlib_step_fn)lib->fns[1])(&z, ZLIB_FINISH);
      if (r == ZLIB_STREAM_END) {
        got = (int64_t)z.total_out;
      } else if (z.avail_out == 0) {
        got = dst_size + 1; /* more output than the page announces */
        at_least = true;
      } else {
        /* z.msg lives in the stream's state, freed by inflateEnd */
        snprintf(zlib_msg, sizeof zlib_msg, "zlib: %s", z.msg != NULL ? z.msg : "truncated stream");
        why = zlib_msg;
      }
      ((zlib_end_fn)lib->fns[2])(&z);
      break;
    }
    case GCOL_PARQUET_LZ4_RAW: {
      int const r = ((lz4_decompress_fn)lib->fns[0])((const char *)src, (char *)dst, (int)src_size,
                                                     (int)dst_size);
      if (r >= 0) got = r;
      break;
    }
    default:
      break;
  }
  if (got < 0) {
    snprintf(error, (size_t)error_size, "%s data is corrupt (%s)", gcol_detail_pq_codec_name(codec),
             why);
    return GCOL_DETAIL_PQ_CODEC_CORRUPT;
  }
  if (got != dst_size) {
    snprintf(error, (size_t)error_size,
             "%s data decompresses to %s%lld bytes, the page header says %lld",
             gcol_detail_pq_codec_name(codec), at_least ? "more than " : "",
             (long long)(at_least ? dst_size : got), (long long)dst_size);
    return GCOL_DETAIL_PQ_CODEC_SIZE;
  }
  return GCOL_DETAIL_PQ_CODEC_OK;
}

int64_t gcol_detail_pq_compress_bound(int32_t codec, int64_t size) {
  const codec_lib *lib = get_lib(codec);
  if (lib == NULL || size < 0 || size > INT_MAX / 2) return -1;
  switch (codec) {
    case GCOL_PARQUET_SNAPPY:
      return (int64_t)((snappy_max_fn)lib->fns[3])((size_t)size);
    case GCOL_PARQUET_ZSTD:
      return (int64_t)((zstd_bound_fn)lib->fns[5])((size_t)size);
    case GCOL_PARQUET_GZIP:
      return size + size / 1000 + 64; /* deflate's stored blocks: 5 bytes per 16 KiB, + gzip */
    case GCOL_PARQUET_LZ4_RAW:
      return (int64_t)((lz4_bound_fn)lib->fns[2])((int)size);
    default:
      return -1;
  }
}

int64_t gcol_detail_pq_compress(int32_t codec, const uint8_t *src, int64_t size, uint8_t *dst,
                                int64_t capacity) {
  const codec_lib *lib = get_lib(codec);
  if (lib == NULL || size < 0 || capacity < 0 || size > INT_MAX || capacity > INT_MAX) return -1;
  switch (codec) {
    case GCOL_PARQUET_SNAPPY: {
      size_t n = (size_t)capacity;
      int const r =
          ((snappy_compress_fn)lib->fns[2])((const char *)src, (size_t)size, (char *)dst, &n);
      return r == 0 ? (int64_t)n : -1;
    }
    case GCOL_PARQUET_ZSTD: {
      size_t const r = ((zstd_compress_fn)lib->fns[4])(dst, (size_t)capacity, src, (size_t)size, 3);
      return ((zstd_is_error_fn)lib->fns[1])(r) ? -1 : (int64_t)r;
    }
    case GCOL_PARQUET_GZIP: {
      gcol_detail_z_stream z;
      memset(&z, 0, sizeof z);
      if (((deflate_init2_fn)lib->fns[3])(&z, 6, ZLIB_DEFLATED, 16 + 15, 8, 0, ZLIB_VERSION_STRING,
                                          (int)sizeof z) != ZLIB_OK) {
        return -1;
      }
      z.next_in = src;
      z.avail_in = (unsigned)size;
      z.next_out = dst;
      z.avail_out = (unsigned)capacity;
      int const r = ((zlib_step_fn)lib->fns[4])(&z, ZLIB_FINISH);
      int64_t const n = (int64_t)z.total_out;
      ((zlib_end_fn)lib->fns[5])(&z);
      return r == ZLIB_STREAM_END ? n : -1;
    }
    case GCOL_PARQUET_LZ4_RAW: {
      int const r =
          ((lz4_compress_fn)lib->fns[1])((const char *)src, (char *)dst, (int)size, (int)capacity);
      return r > 0 ? r : -1;
    }
    default:
      return -1;
  }
}

/* ---- checks before nvCOMP (the bytes are walked, nothing is decompressed) ---- */

#define CHECK_FAIL(...)                               \
  do {                                                \
    snprintf(error, (size_t)error_size, __VA_ARGS__); \
    return false;                                     \
  } while (0)

/* The message of a walk's finding (lib/internal/pq_walk.h). */
static void walk_message(int32_t codec, gcol_detail_pq_walk w, char *error, int error_size) {
  long long const a = (long long)w.a, b = (long long)w.b;
  size_t const n = (size_t)error_size;
  switch (w.code) {
    case GCOL_DETAIL_PQ_WALK_LZ4_EMPTY:
      snprintf(error, n, "decompresses to another size than the header's 0 bytes");
      break;
    case GCOL_DETAIL_PQ_WALK_LZ4_SHORT:
      snprintf(error, n, "ends before its last literals (at %lld bytes)", a);
      break;
    case GCOL_DETAIL_PQ_WALK_LZ4_LIT_LENGTH:
      snprintf(error, n, "a literal length runs past the block or the header's %lld bytes", a);
      break;
    case GCOL_DETAIL_PQ_WALK_LZ4_LIT_PAST:
      snprintf(error, n, "literals run past the block (at %lld)", a);
      break;
    case GCOL_DETAIL_PQ_WALK_MORE:
      snprintf(error, n, "decompresses to another size (more) than the header's %lld bytes", a);
      break;
    case GCOL_DETAIL_PQ_WALK_LZ4_NEAR_END:
      snprintf(error, n, "a match at byte %lld, too near the end of the block", a);
      break;
    case GCOL_DETAIL_PQ_WALK_OFFSET_BEFORE:
      snprintf(error, n, "a %s offset %lld at byte %lld points before the start",
               codec == GCOL_PARQUET_LZ4_RAW ? "match" : "copy", a, b);
      break;
    case GCOL_DETAIL_PQ_WALK_LZ4_MATCH_LENGTH:
      snprintf(error, n, "a match length runs past the block or the header's %lld bytes", a);
      break;
    case GCOL_DETAIL_PQ_WALK_LZ4_INTO_END:
      snprintf(error, n, "a match at byte %lld runs into the last 5 bytes of %lld", a, b);
      break;
    case GCOL_DETAIL_PQ_WALK_SIZE:
    case GCOL_DETAIL_PQ_WALK_SNAPPY_ANNOUNCED:
      snprintf(error, n, "decompresses to another size (%lld bytes) than the header's %lld", a, b);
      break;
    case GCOL_DETAIL_PQ_WALK_SNAPPY_PREFIX:
      snprintf(error, n, "invalid length prefix");
      break;
    case GCOL_DETAIL_PQ_WALK_SNAPPY_LIT_LENGTH:
      snprintf(error, n, "a literal's length runs past the data");
      break;
    case GCOL_DETAIL_PQ_WALK_SNAPPY_LIT_PAST:
      snprintf(error, n, "literals run past the data (at %lld)", a);
      break;
    default:
      snprintf(error, n, "a copy's offset runs past the data");
      break;
  }
}

bool gcol_detail_pq_check_for_gpu(int32_t codec, const uint8_t *src, int64_t src_size,
                                  int64_t dst_size, char *error, int error_size) {
  if (error_size > 0) error[0] = '\0';
  if (src_size < 0 || dst_size < 0) CHECK_FAIL("negative sizes");
  gcol_detail_pq_walk w = gcol_detail_pq_walk_make(GCOL_DETAIL_PQ_WALK_OK, 0, 0);
  if (codec == GCOL_PARQUET_LZ4_RAW) w = gcol_detail_pq_walk_lz4(src, src_size, dst_size);
  if (codec == GCOL_PARQUET_SNAPPY) w = gcol_detail_pq_walk_snappy(src, src_size, dst_size);
  /* GZIP, ZSTD: not checked before nvCOMP (docs/design.md) */
  if (w.code == GCOL_DETAIL_PQ_WALK_OK) return true;
  if (error_size > 0) walk_message(codec, w, error, error_size);
  return false;
}
