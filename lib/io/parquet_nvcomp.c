/* nvCOMP's batched C API, opened with dlopen when a read first needs it (once, under
 * pthread_once), for decompressing Parquet pages on the GPU (kernels/io/parquet_decode.cu).
 * Nothing here is a build or link dependency: without the library every page is
 * decompressed on the host (parquet_codec.c).
 *
 * Which library: GCOL_NVCOMP_PATH names a file (opened as it is) or a directory (its
 * libnvcomp.so.6, then libnvcomp.so.5); without it the loader's search path is tried for
 * libnvcomp.so.6, then libnvcomp.so.5. GCOL_NVCOMP=off never opens one.
 *
 * The prototypes and option structs below restate nvCOMP 5's public headers (nvcomp 5.3.0:
 * nvcomp/shared_types.h, snappy.h, zstd.h, gzip.h, lz4.h). From 5.0 on, the batched
 * decompressors take their options by value as a 64-byte struct whose unused bytes must be
 * zero (new fields take reserved bytes), the temp-size function is
 * ...DecompressGetTempSizeAsync(num_chunks, max_chunk, opts, &temp, max_total) and
 * ...DecompressAsync takes the options before the statuses. nvCOMP 4 and older had other
 * signatures under other names (GetTempSize/GetTempSizeEx, no options): the symbols
 * looked up here do not exist there, so such a library is refused as incomplete. nvCOMP 6:
 * its headers were not at hand when this was written; its 6.0.0 release notes list no change
 * to these four codecs' decompression entry points or options, so 6.x is accepted with the
 * same prototypes (not checked against its headers: GCOL_NVCOMP_PATH can name a 5.x
 * instead). The major version comes from nvcompGetProperties; any other is refused. */
#define _POSIX_C_SOURCE 200809L /* stat */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal/log.h"
#include "internal/parquet.h"

/* ---- nvCOMP 5's ABI ---- */

enum { NVCOMP_SUCCESS = 0, NVCOMP_DECOMPRESS_BACKEND_CUDA = 2 };

typedef struct nvc_properties {
  uint32_t version; /* major * 1000 + minor * 100 + patch */
  uint32_t cudart_version;
} nvc_properties;

typedef struct nvc_alignments {
  size_t input;
  size_t output;
  size_t temp;
} nvc_alignments;

/* Every codec's decompression options: 64 bytes, zero meaning the defaults (gzip: the naive
 * algorithm; LZ4: NVCOMP_TYPE_CHAR, no bitshuffle), the backend first; one struct of that
 * size is passed by value to each. The backend is NVCOMP_DECOMPRESS_BACKEND_CUDA, not DEFAULT:
 * the hardware decompression engine DEFAULT may pick (Blackwell) needs buffers from
 * allocators gcol's memory resources do not use. */
typedef struct nvc_opts {
  int32_t backend;
  char rest[60];
} nvc_opts;

_Static_assert(sizeof(nvc_opts) == 64, "nvCOMP's decompression options are 64 bytes");

static nvc_opts default_opts(void) {
  nvc_opts opts;
  memset(&opts, 0, sizeof opts);
  opts.backend = NVCOMP_DECOMPRESS_BACKEND_CUDA;
  return opts;
}

/* (Parameters named so that a typedef's last name is its own: scripts/bundle reads it so.) */
typedef int (*nvc_properties_fn)(nvc_properties *nvc_props);
typedef int (*nvc_alignments_fn)(nvc_opts opts, nvc_alignments *nvc_align);
typedef int (*nvc_temp_fn)(size_t chunks, size_t largest, nvc_opts opts, size_t *bytes,
                           size_t nvc_total);
typedef int (*nvc_decompress_fn)(const void *const *in, const size_t *in_bytes,
                                 const size_t *out_capacity, size_t *out_bytes, size_t chunks,
                                 void *temp, size_t temp_bytes, void *const *out, nvc_opts opts,
                                 int *statuses, void *nvc_stream);

/* ---- loading ---- */

static const char *codec_stem(int32_t codec) {
  switch (codec) {
    case GCOL_PARQUET_SNAPPY:
      return "Snappy";
    case GCOL_PARQUET_ZSTD:
      return "Zstd";
    case GCOL_PARQUET_GZIP:
      return "Gzip";
    case GCOL_PARQUET_LZ4_RAW:
      return "LZ4"; /* nvCOMP's LZ4 chunks are raw LZ4 blocks, Parquet's LZ4_RAW */
    default:
      return NULL;
  }
}

static gcol_detail_nvcomp_fn lookup(void *h, const char *name) {
  void *const sym = dlsym(h, name);
  gcol_detail_nvcomp_fn f = NULL;
  if (sym != NULL) memcpy(&f, &sym, sizeof sym); /* POSIX: a function's address as a void * */
  return f;
}

static void *try_open(const char *file, gcol_detail_nvcomp *lib) {
  void *const h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) { /* appended to an earlier attempt's reason */
    const char *e = dlerror();
    size_t const used = strlen(lib->why);
    snprintf(lib->why + used, sizeof lib->why - used, "%s%s: %s", used > 0 ? "; " : "", file,
             e != NULL ? e : "cannot open");
  } else {
    snprintf(lib->file, sizeof lib->file, "%s", file);
    lib->why[0] = '\0'; /* earlier attempts no longer matter */
  }
  return h;
}

void gcol_detail_nvcomp_open(const char *path, const char *mode, gcol_detail_nvcomp *lib) {
  memset(lib, 0, sizeof *lib);
  if (mode != NULL && (strcmp(mode, "off") == 0 || strcmp(mode, "0") == 0)) {
    snprintf(lib->why, sizeof lib->why, "GCOL_NVCOMP=%s", mode);
    return;
  }
  void *h = NULL;
  if (path != NULL && path[0] != '\0') {
    size_t const n = strlen(path);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
      h = try_open(path, lib);
    } else {
      char file[sizeof lib->file];
      static const char *const names[] = {"libnvcomp.so.6", "libnvcomp.so.5"};
      for (int i = 0; i < 2 && h == NULL; ++i) {
        snprintf(file, sizeof file, "%s%s%s", path, path[n - 1] == '/' ? "" : "/", names[i]);
        h = try_open(file, lib);
      }
    }
  } else {
    h = try_open("libnvcomp.so.6", lib);
    if (h == NULL) h = try_open("libnvcomp.so.5", lib);
  }
  if (h == NULL) return;
  nvc_properties_fn props = (nvc_properties_fn)lookup(h, "nvcompGetProperties");
  nvc_properties p = {0, 0};
  if (props == NULL || props(&p) != NVCOMP_SUCCESS) {
    snprintf(lib->why, sizeof lib->why, "%s: no nvcompGetProperties", lib->file);
    return; /* kept open: dlclose is not worth a race with other threads' lookups */
  }
  lib->version = (int32_t)p.version;
  int32_t const major = lib->version / 1000;
  if (major != 5 && major != 6) {
    snprintf(lib->why, sizeof lib->why, "%s: nvCOMP %d.%d.%d, only 5.x and 6.x are used", lib->file,
             major, lib->version % 1000 / 100, lib->version % 100);
    return;
  }
  for (int32_t codec = 0; codec < GCOL_DETAIL_NVCOMP_CODECS; ++codec) {
    const char *stem = codec_stem(codec);
    if (stem == NULL) continue;
    char name[96];
    snprintf(name, sizeof name, "nvcompBatched%sDecompressGetRequiredAlignments", stem);
    gcol_detail_nvcomp_fn const align = lookup(h, name);
    snprintf(name, sizeof name, "nvcompBatched%sDecompressGetTempSizeAsync", stem);
    gcol_detail_nvcomp_fn const temp = lookup(h, name);
    snprintf(name, sizeof name, "nvcompBatched%sDecompressAsync", stem);
    gcol_detail_nvcomp_fn const run = lookup(h, name);
    if (align == NULL || temp == NULL || run == NULL) continue;
    nvc_opts const opts = default_opts();
    nvc_alignments a = {0, 0, 0};
    if (((nvc_alignments_fn)align)(opts, &a) != NVCOMP_SUCCESS) continue;
    if (a.input < 1) a.input = 1;
    if (a.output < 1) a.output = 1;
    /* not planned for: alignments that are not powers of two up to 256 (the device buffer's
     * and gcol_buffer's) */
    if (a.input > 256 || (a.input & (a.input - 1)) != 0 || a.output > 256 ||
        (a.output & (a.output - 1)) != 0 || a.temp > 256) {
      continue;
    }
    lib->temp_fn[codec] = temp;
    lib->decompress_fn[codec] = run;
    lib->in_alignment[codec] = (int32_t)a.input;
    lib->out_alignment[codec] = (int32_t)a.output;
    lib->codecs |= UINT32_C(1) << codec;
  }
  if (lib->codecs == 0) {
    snprintf(lib->why, sizeof lib->why, "%s: none of the batched decompressors of nvCOMP 5",
             lib->file);
  }
}

static gcol_detail_nvcomp the_lib;
static pthread_once_t the_once = PTHREAD_ONCE_INIT;

static void load_once(void) {
  gcol_detail_nvcomp_open(getenv("GCOL_NVCOMP_PATH"), getenv("GCOL_NVCOMP"), &the_lib);
  if (the_lib.codecs != 0) {
    GCOL_DETAIL_LOG(GCOL_LOG_DEBUG, "parquet: nvCOMP %d from %s decompresses pages on the GPU",
                    the_lib.version, the_lib.file);
  } else {
    GCOL_DETAIL_LOG(GCOL_LOG_DEBUG, "parquet: no nvCOMP (%s): pages decompressed on the host",
                    the_lib.why);
  }
}

const gcol_detail_nvcomp *gcol_detail_nvcomp_get(void) {
  pthread_once(&the_once, load_once);
  return &the_lib;
}

int gcol_detail_nvcomp_temp_size(const gcol_detail_nvcomp *lib, int32_t codec, size_t num_chunks,
                                 size_t max_chunk, size_t total, size_t *temp_size) {
  nvc_opts const opts = default_opts();
  *temp_size = 0;
  if (codec < 0 || codec >= GCOL_DETAIL_NVCOMP_CODECS || lib->temp_fn[codec] == NULL) return -1;
  return ((nvc_temp_fn)lib->temp_fn[codec])(num_chunks, max_chunk, opts, temp_size, total);
}

int gcol_detail_nvcomp_decompress(const gcol_detail_nvcomp *lib, int32_t codec,
                                  const void *const *in, const size_t *in_bytes,
                                  const size_t *out_capacity, size_t *out_bytes, size_t num_chunks,
                                  void *temp_space, size_t temp_bytes, void *const *out,
                                  int *statuses, void *stream) {
  nvc_opts const opts = default_opts();
  if (codec < 0 || codec >= GCOL_DETAIL_NVCOMP_CODECS || lib->decompress_fn[codec] == NULL) {
    return -1;
  }
  return ((nvc_decompress_fn)lib->decompress_fn[codec])(in, in_bytes, out_capacity, out_bytes,
                                                        num_chunks, temp_space, temp_bytes, out,
                                                        opts, statuses, stream);
}
