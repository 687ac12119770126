/*
 * Reads a Parquet file with gcol (every column, every row group) and prints its metadata and
 * values in the text form tests/io/make_parquet_files.py writes for the values it gave
 * pyarrow, so test_parquet_python.py can compare them line by line:
 *
 *   rows N
 *   row_groups G
 *   column NAME TYPE          (gcol_type_name of the column read)
 *   VALUE | null              (one line per row)
 *
 * VALUE: integers (timestamps, dates, durations, decimals unscaled, booleans 0/1) in decimal;
 * floats as the hex of their IEEE bits (%08x, %016llx); strings as "s:" + hex of the bytes.
 * A top-level group (a struct or a list, at any depth) prints as one column "column NAME
 * nested", as the reader returns it, a row per line: "null", "[V,V,...]" for a list,
 * "{V,V,...}" for a struct (its fields in order), values as above. With --host, nested fields are read
 * through the reader's plan with levels and assembled by the reader's level functions
 * (lib/io/parquet_nested.c) on the CPU, so pyarrow's nested files are checked without a GPU.
 * A failed read prints "error STATUS_NAME" and the message on stderr, and exits 0 (the
 * script decides whether the failure was expected).
 *
 *   parquet_dump [--host] FILE
 *   parquet_dump [--host] --rewrite [--codec=snappy|zstd|gzip|lz4_raw]
 *                [--dictionary=adaptive|always] FILE OUT [SKIP...]
 *   parquet_dump --stats FILE
 *
 * Without --host the file is read by gcol_parquet_read_file on the GPU (no GPU: prints "skip").
 * With --host it is read by the same plan and per-page decoders on the CPU (what the kernels
 * run), so that a machine with pyarrow and no GPU checks them against pyarrow's files.
 * --rewrite writes the columns gcol can write (all but durations and those named SKIP) to OUT
 * with gcol's writer (the public one from the GPU table, or the host writer under --host),
 * printing "wrote NAME" for each, so that the script can read OUT with pyarrow; --codec picks
 * the writer's page compression (default none), --dictionary its dictionary policy (default
 * off; the host writer writes PLAIN whatever it says).
 * --stats prints the footer's statistics as gcol decodes them, one line per column chunk:
 * "ROW_GROUP COLUMN NULL_COUNT|- int MIN MAX" (BOOLEAN, INT32, INT64), "... float MIN MAX"
 * (%.17g), or "... none" (no decoded min/max).
 *
 *   parquet_dump --pages FILE
 *
 * --pages reads the page index and prints, per column chunk, "chunk ROW_GROUP COLUMN
 * HAS_OFFSET_INDEX HAS_COLUMN_INDEX NUM_PAGES" and then per page "page FIRST_ROW NUM_ROWS
 * OFFSET SIZE NULL_PAGE NULL_COUNT|-" followed by " int MIN MAX", " float MIN MAX" or " none"
 * (no statistics or no decoded min/max).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcol/gcol.h"
#include "internal/parquet.h"
#include "internal/parquet_nested.h"

/* One column read, in host memory. */
typedef struct host_column {
  const char *name;
  gcol_data_type type;
  int64_t size;
  uint8_t *values;  /* fixed width: size values */
  uint8_t *valid;   /* size bytes */
  int64_t *offsets; /* STRING: size + 1 */
  char *chars;      /* STRING */
} host_column;

static void host_column_free(host_column *c) {
  free(c->values);
  free(c->valid);
  free(c->offsets);
  free(c->chars);
}

static void *xmalloc(size_t n) {
  void *p = malloc(n > 0 ? n : 1);
  if (p == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

/* Column k read on the GPU (the table already read) and copied back. */
static void from_device(gcol_column_view v, host_column *c) {
  c->type = v.type;
  c->size = v.size;
  if (v.type.id == GCOL_STRING) {
    gcol_host_strings *hs = NULL;
    if (gcol_column_strings_copy_to_host(v, NULL, &hs) != GCOL_OK) exit(1);
    c->offsets = (int64_t *)xmalloc((size_t)(v.size + 1) * 8);
    memcpy(c->offsets, hs->offsets, (size_t)(v.size + 1) * 8);
    c->chars = (char *)xmalloc((size_t)hs->offsets[v.size]);
    memcpy(c->chars, hs->chars, (size_t)hs->offsets[v.size]);
    c->valid = (uint8_t *)xmalloc((size_t)v.size);
    memcpy(c->valid, hs->valid, (size_t)v.size);
    gcol_host_strings_free(hs);
    return;
  }
  c->values = (uint8_t *)xmalloc((size_t)v.size * gcol_type_size(v.type.id));
  c->valid = (uint8_t *)xmalloc((size_t)v.size);
  if (gcol_column_copy_to_host(v, c->values, c->valid, NULL) != GCOL_OK) exit(1);
}

static gcol_status decode_on_host(int32_t k, const gcol_detail_pq_column_plan *p, host_column *c);
static void print_value(const host_column *c, int64_t i);

/* Column k read on the CPU through the plan and the per-page decoders. */
static gcol_status from_host(const gcol_detail_pq_file *file, const gcol_parquet_metadata *md,
                             int32_t k, host_column *c) {
  int32_t const ng = gcol_parquet_metadata_num_row_groups(md);
  int32_t *groups = (int32_t *)xmalloc((size_t)ng * sizeof *groups + 1);
  for (int32_t g = 0; g < ng; ++g) groups[g] = g;
  gcol_detail_pq_column_plan plan;
  gcol_status st = gcol_detail_parquet_plan_column(file, md, k, groups, ng, &plan);
  free(groups);
  if (st != GCOL_OK) return st;
  st = decode_on_host(k, &plan, c);
  gcol_detail_parquet_plan_free(&plan);
  return st;
}

/* A planned column decoded on the CPU (a nested leaf: one row per level entry). */
static gcol_status decode_on_host(int32_t k, const gcol_detail_pq_column_plan *p, host_column *c) {
  gcol_detail_pq_column_plan const plan = *p;
  gcol_status st = GCOL_OK;
  int64_t const n = plan.num_rows;
  uint64_t *words = (uint64_t *)xmalloc((size_t)n * 8);
  uint64_t *words_hi = (uint64_t *)xmalloc((size_t)n * 8);
  int64_t *pos = (int64_t *)xmalloc((size_t)n * 8);
  int64_t *len = (int64_t *)xmalloc((size_t)n * 8);
  c->valid = (uint8_t *)xmalloc((size_t)n);
  c->type = plan.type;
  c->size = n;
  int32_t bad = 0;
  bool is_dict = false;
  int const code = gcol_detail_parquet_decode_column_host(&plan, words, words_hi, pos, len,
                                                          c->valid, &bad, &is_dict);
  if (code != 0) {
    fprintf(stderr, "column %d, %s %d: %s\n", k, is_dict ? "dictionary" : "page", bad,
            gcol_detail_parquet_page_error(code));
    st = GCOL_ERROR_INVALID_ARGUMENT;
  } else if (plan.type.id == GCOL_STRING) {
    c->offsets = (int64_t *)xmalloc((size_t)(n + 1) * 8);
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) total += len[i];
    c->chars = (char *)xmalloc((size_t)total);
    c->offsets[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      memcpy(c->chars + c->offsets[i], plan.bytes + pos[i], (size_t)len[i]);
      c->offsets[i + 1] = c->offsets[i] + len[i];
    }
  } else {
    size_t const w = gcol_type_size(plan.type.id);
    c->values = (uint8_t *)xmalloc((size_t)n * w);
    for (int64_t i = 0; i < n; ++i) {
      memcpy(c->values + (size_t)i * w, &words[i], w < 8 ? w : 8);
      if (w == 16) memcpy(c->values + (size_t)i * w + 8, &words_hi[i], 8);
    }
  }
  free(words);
  free(words_hi);
  free(pos);
  free(len);
  return st;
}

/* ---- nested columns: printed one row per line, "[a,b]" for a list, "{a,b}" for a struct,
 * "null", values as flat columns print them ---- */

typedef struct hnode {
  int kind; /* GCOL_DETAIL_PQN_* */
  int64_t size;
  uint8_t *valid;   /* NULL: all valid (leaves: leaf.valid) */
  int64_t *offsets; /* LIST */
  host_column leaf;
  int64_t *map; /* leaf read from levels: slot -> level entry */
  int32_t num_kids;
  struct hnode *kids;
} hnode;

static void hnode_free(hnode *h) {
  for (int32_t k = 0; k < h->num_kids; ++k) hnode_free(&h->kids[k]);
  free(h->kids);
  free(h->valid);
  free(h->offsets);
  free(h->map);
  host_column_free(&h->leaf);
}

static void print_nested(const hnode *h, int64_t i) {
  if (h->kind == GCOL_DETAIL_PQN_LEAF) {
    print_value(&h->leaf, h->map != NULL ? h->map[i] : i);
    return;
  }
  if (h->valid != NULL && !h->valid[i]) {
    printf("null");
    return;
  }
  if (h->kind == GCOL_DETAIL_PQN_LIST) {
    putchar('[');
    for (int64_t j = h->offsets[i]; j < h->offsets[i + 1]; ++j) {
      if (j > h->offsets[i]) putchar(',');
      print_nested(&h->kids[0], j);
    }
    putchar(']');
    return;
  }
  putchar('{');
  for (int32_t k = 0; k < h->num_kids; ++k) {
    if (k > 0) putchar(',');
    print_nested(&h->kids[k], i);
  }
  putchar('}');
}

/* A nested column read on the GPU, copied back. */
static void hnode_from_device(gcol_column_view v, hnode *h) {
  memset(h, 0, sizeof *h);
  h->size = v.size;
  if (v.type.id != GCOL_LIST && v.type.id != GCOL_STRUCT) {
    h->kind = GCOL_DETAIL_PQN_LEAF;
    from_device(v, &h->leaf);
    return;
  }
  gcol_column *valid = NULL;
  if (gcol_is_valid(v, &valid, NULL, NULL) != GCOL_OK) exit(1);
  h->valid = (uint8_t *)xmalloc((size_t)v.size);
  if (gcol_column_copy_to_host(gcol_column_get_view(valid), h->valid, NULL, NULL) != GCOL_OK) {
    exit(1);
  }
  gcol_column_free(valid);
  if (v.type.id == GCOL_LIST) {
    h->kind = GCOL_DETAIL_PQN_LIST;
    gcol_column_view const off = v.children[0];
    h->offsets = (int64_t *)xmalloc((size_t)(v.size + 1) * 8);
    if (off.type.id == GCOL_INT32) {
      int32_t *o = (int32_t *)xmalloc((size_t)(v.size + 1) * 4);
      gcol_column_view o1 = off;
      o1.offset += v.offset;
      o1.size = v.size + 1;
      if (gcol_column_copy_to_host(o1, o, NULL, NULL) != GCOL_OK) exit(1);
      for (int64_t i = 0; i <= v.size; ++i) h->offsets[i] = o[i];
      free(o);
    } else {
      gcol_column_view o1 = off;
      o1.offset += v.offset;
      o1.size = v.size + 1;
      if (gcol_column_copy_to_host(o1, h->offsets, NULL, NULL) != GCOL_OK) exit(1);
    }
    h->num_kids = 1;
    h->kids = (hnode *)xmalloc(sizeof *h->kids);
    hnode_from_device(v.children[1], &h->kids[0]);
    return;
  }
  h->kind = GCOL_DETAIL_PQN_STRUCT;
  h->num_kids = v.num_children;
  h->kids = (hnode *)xmalloc((size_t)v.num_children * sizeof *h->kids + 1);
  for (int32_t k = 0; k < v.num_children; ++k) {
    gcol_column_view kid = v.children[k];
    kid.offset += v.offset;
    kid.size = v.size;
    hnode_from_device(kid, &h->kids[k]);
  }
}

/* A nested column assembled on the CPU from its leaves' levels, with the reader's functions
 * (lib/io/parquet_nested.c); entries[k] is leaf first_leaf + k decoded per level entry. */
static void hnode_from_levels(const gcol_detail_pqn_tree *tree, int32_t node,
                              const gcol_detail_pq_column_plan *plans, host_column *entries,
                              int32_t base, hnode *h) {
  const gcol_detail_pqn_node *n = &tree->nodes[node];
  const gcol_detail_pq_column_plan *p = &plans[n->first_leaf - base];
  memset(h, 0, sizeof *h);
  h->kind = n->kind;
  h->size = gcol_detail_pqn_count_slots(n, p->rep_levels, p->def_levels, p->num_rows);
  if (n->kind == GCOL_DETAIL_PQN_LEAF) {
    h->leaf = entries[n->leaf - base];
    memset(&entries[n->leaf - base], 0, sizeof entries[0]);
    h->map = (int64_t *)xmalloc((size_t)h->size * 8 + 8);
    gcol_detail_pqn_leaf_map(n, p->rep_levels, p->def_levels, p->num_rows, h->map);
    return;
  }
  h->valid = (uint8_t *)xmalloc((size_t)h->size + 1);
  if (n->kind == GCOL_DETAIL_PQN_LIST) h->offsets = (int64_t *)xmalloc((size_t)(h->size + 1) * 8);
  gcol_detail_pqn_fill(n, p->rep_levels, p->def_levels, p->num_rows, h->valid, h->offsets);
  h->num_kids = n->num_children;
  h->kids = (hnode *)xmalloc((size_t)n->num_children * sizeof *h->kids + 1);
  for (int32_t k = 0; k < n->num_children; ++k) {
    hnode_from_levels(tree, tree->children[n->first_child + k], plans, entries, base,
                      &h->kids[k]);
  }
}

/* Root `root` (holding a list) read on the CPU: its leaves planned with their levels. */
static gcol_status nested_from_host(const gcol_detail_pq_file *file,
                                    const gcol_parquet_metadata *md,
                                    const gcol_detail_pqn_tree *tree, int32_t root, hnode *h) {
  const gcol_detail_pqn_node *n = &tree->nodes[root];
  int32_t const ng = gcol_parquet_metadata_num_row_groups(md);
  int32_t *groups = (int32_t *)xmalloc((size_t)ng * sizeof *groups + 1);
  for (int32_t g = 0; g < ng; ++g) groups[g] = g;
  gcol_detail_pq_column_plan *plans =
      (gcol_detail_pq_column_plan *)calloc((size_t)n->num_leaves + 1, sizeof *plans);
  host_column *entries = (host_column *)calloc((size_t)n->num_leaves + 1, sizeof *entries);
  gcol_status st = GCOL_OK;
  for (int32_t k = 0; k < n->num_leaves && st == GCOL_OK; ++k) {
    st = gcol_detail_parquet_plan_column_levels(file, NULL, md, n->first_leaf + k, groups, ng,
                                                &plans[k]);
  }
  if (st == GCOL_OK) st = gcol_detail_pqn_check_plans(md, tree, root, plans, groups, ng);
  for (int32_t k = 0; k < n->num_leaves && st == GCOL_OK; ++k) {
    st = decode_on_host(n->first_leaf + k, &plans[k], &entries[k]);
  }
  if (st == GCOL_OK) hnode_from_levels(tree, root, plans, entries, n->first_leaf, h);
  for (int32_t k = 0; k < n->num_leaves; ++k) {
    gcol_detail_parquet_plan_free(&plans[k]);
    host_column_free(&entries[k]);
  }
  free(plans);
  free(entries);
  free(groups);
  return st;
}

/* Row i of a flat column, without the end of the line. */
static void print_value(const host_column *c, int64_t i) {
  gcol_type_id const id = c->type.id;
  size_t const w = id == GCOL_STRING ? 0 : gcol_type_size(id);
  bool const is_unsigned = id == GCOL_UINT8 || id == GCOL_UINT16 || id == GCOL_UINT32 ||
                           id == GCOL_UINT64 || id == GCOL_BOOL8;
  do {
    if (!c->valid[i]) {
      printf("null");
      continue;
    }
    if (id == GCOL_STRING) {
      printf("s:");
      for (int64_t b = c->offsets[i]; b < c->offsets[i + 1]; ++b) {
        printf("%02x", (unsigned char)c->chars[b]);
      }
      continue;
    }
    if (w == 16) { /* DECIMAL128: the unscaled value in decimal (32-bit limbs, no __int128) */
      uint64_t lo, hi;
      memcpy(&lo, c->values + (size_t)i * 16, 8);
      memcpy(&hi, c->values + (size_t)i * 16 + 8, 8);
      bool const negative = hi >> 63;
      if (negative) { /* two's complement negation */
        lo = ~lo + 1;
        hi = ~hi + (lo == 0);
      }
      uint32_t limb[4] = {(uint32_t)(hi >> 32), (uint32_t)hi, (uint32_t)(lo >> 32), (uint32_t)lo};
      char digits[48];
      int d = 0;
      do {
        uint64_t rem = 0;
        for (int l = 0; l < 4; ++l) {
          uint64_t const cur = (rem << 32) | limb[l];
          limb[l] = (uint32_t)(cur / 10);
          rem = cur % 10;
        }
        digits[d++] = (char)('0' + (int)rem);
      } while (limb[0] | limb[1] | limb[2] | limb[3]);
      if (negative) putchar('-');
      while (d > 0) putchar(digits[--d]);
      continue;
    }
    uint64_t bits = 0;
    memcpy(&bits, c->values + (size_t)i * w, w);
    if (id == GCOL_FLOAT32) {
      printf("%08" PRIx32, (uint32_t)bits);
    } else if (id == GCOL_FLOAT64) {
      printf("%016" PRIx64, bits);
    } else if (is_unsigned) {
      printf("%" PRIu64, bits);
    } else {
      int const shift = 64 - 8 * (int)w; /* sign-extend the width's bits */
      printf("%" PRId64, (int64_t)(bits << shift) >> shift);
    }
  } while (0);
}

static void print_column(const host_column *c) {
  printf("column %s %s\n", c->name, gcol_type_name(c->type.id));
  for (int64_t i = 0; i < c->size; ++i) {
    print_value(c, i);
    putchar('\n');
  }
}

static int fail(gcol_status st) {
  printf("error %s\n", gcol_status_string(st));
  fprintf(stderr, "%s\n", gcol_last_error());
  return 0;
}

static bool writable(const host_column *c, int argc, char **argv, int first_skip) {
  gcol_type_id const id = c->type.id;
  if (id >= GCOL_DURATION_DAYS && id <= GCOL_DURATION_NANOSECONDS) return false;
  for (int a = first_skip; a < argc; ++a) {
    if (strcmp(argv[a], c->name) == 0) return false;
  }
  return true;
}

/* " null_count|- int MIN MAX|float MIN MAX|none" and the end of the line (a chunk's or a
 * page's statistics). */
static void print_null_count_min_max(bool has_null_count, int64_t null_count, bool has_int,
                                     int64_t min_i64, int64_t max_i64, bool has_float,
                                     double min_f64, double max_f64) {
  if (has_null_count) {
    printf("%" PRId64, null_count);
  } else {
    printf("-");
  }
  if (has_int) {
    printf(" int %" PRId64 " %" PRId64 "\n", min_i64, max_i64);
  } else if (has_float) {
    printf(" float %.17g %.17g\n", min_f64, max_f64);
  } else {
    printf(" none\n");
  }
}

static int print_stats(const char *path) {
  gcol_parquet_metadata *md = NULL;
  gcol_status const st = gcol_parquet_metadata_read_file(path, &md);
  if (st != GCOL_OK) return fail(st);
  for (int32_t g = 0; g < gcol_parquet_metadata_num_row_groups(md); ++g) {
    for (int32_t k = 0; k < gcol_parquet_metadata_num_columns(md); ++k) {
      gcol_parquet_statistics s;
      gcol_parquet_metadata_statistics(md, g, k, &s);
      printf("%d %d ", g, k);
      print_null_count_min_max(s.has_null_count, s.null_count, s.has_integer_min_max, s.min_i64,
                               s.max_i64, s.has_float_min_max, s.min_f64, s.max_f64);
    }
  }
  gcol_parquet_metadata_free(md);
  return 0;
}

static int print_pages(const char *path) {
  gcol_parquet_metadata *md = NULL;
  gcol_status st = gcol_parquet_metadata_read_file(path, &md);
  if (st != GCOL_OK) return fail(st);
  st = gcol_parquet_metadata_read_page_index_file(md, path);
  if (st != GCOL_OK) {
    gcol_parquet_metadata_free(md);
    return fail(st);
  }
  for (int32_t g = 0; g < gcol_parquet_metadata_num_row_groups(md); ++g) {
    for (int32_t k = 0; k < gcol_parquet_metadata_num_columns(md); ++k) {
      gcol_parquet_page_index_info info;
      gcol_parquet_metadata_page_index(md, g, k, &info);
      printf("chunk %d %d %d %d %d\n", g, k, info.has_offset_index, info.has_column_index,
             info.num_pages);
      for (int32_t p = 0; p < info.num_pages; ++p) {
        gcol_parquet_page_statistics s;
        gcol_parquet_metadata_page_statistics(md, g, k, p, &s);
        printf("page %" PRId64 " %" PRId64 " %" PRId64 " %d %d ", s.first_row, s.num_rows, s.offset,
               s.compressed_size, s.null_page);
        print_null_count_min_max(s.has_null_count, s.null_count, s.has_integer_min_max, s.min_i64,
                                 s.max_i64, s.has_float_min_max, s.min_f64, s.max_f64);
      }
    }
  }
  gcol_parquet_metadata_free(md);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--stats") == 0) return print_stats(argv[2]);
  if (argc == 3 && strcmp(argv[1], "--pages") == 0) return print_pages(argv[2]);
  int a = 1;
  bool const host = a < argc && strcmp(argv[a], "--host") == 0;
  a += host;
  bool const rewrite = a < argc && strcmp(argv[a], "--rewrite") == 0;
  a += rewrite;
  gcol_parquet_codec codec = GCOL_PARQUET_UNCOMPRESSED;
  if (rewrite && a < argc && strncmp(argv[a], "--codec=", 8) == 0) {
    static const char *const codec_names[] = {"snappy", "gzip", "", "", "", "zstd", "lz4_raw"};
    const char *name = argv[a] + 8;
    for (int i = 0; i < 7; ++i) {
      if (codec_names[i][0] != '\0' && strcmp(name, codec_names[i]) == 0) {
        codec = (gcol_parquet_codec)(i + 1);
      }
    }
    if (codec == GCOL_PARQUET_UNCOMPRESSED) {
      fprintf(stderr, "parquet_dump: unknown codec '%s'\n", name);
      return 2;
    }
    ++a;
  }
  gcol_parquet_dictionary dictionary = GCOL_PARQUET_DICTIONARY_OFF;
  if (rewrite && a < argc && strncmp(argv[a], "--dictionary=", 13) == 0) {
    const char *name = argv[a] + 13;
    if (strcmp(name, "adaptive") == 0) dictionary = GCOL_PARQUET_DICTIONARY_ADAPTIVE;
    if (strcmp(name, "always") == 0) dictionary = GCOL_PARQUET_DICTIONARY_ALWAYS;
    if (dictionary == GCOL_PARQUET_DICTIONARY_OFF) {
      fprintf(stderr, "parquet_dump: unknown dictionary policy '%s'\n", name);
      return 2;
    }
    ++a;
  }
  if (a >= argc || (rewrite && a + 1 >= argc) || (!rewrite && a + 1 != argc)) {
    fprintf(stderr,
            "usage: parquet_dump [--host] FILE | [--host] --rewrite [--codec=C] [--dictionary=D] "
            "FILE OUT [SKIP...]\n");
    return 2;
  }
  const char *path = argv[a];
  if (!host && gcol_device_count() == 0) {
    printf("skip\n");
    return 0;
  }
  gcol_parquet_metadata *md = NULL;
  gcol_status st = gcol_parquet_metadata_read_file(path, &md);
  if (st != GCOL_OK) return fail(st);
  int32_t const ncols = gcol_parquet_metadata_num_columns(md);
  host_column *cols = (host_column *)calloc((size_t)ncols + 1, sizeof *cols);
  gcol_table *t = NULL;
  /* a top-level group (a struct or a list) prints as one nested column, as the reader
   * returns it by default */
  gcol_detail_pqn_tree tree;
  st = gcol_detail_pqn_build(md, &tree);
  if (st != GCOL_OK) return fail(st);
  bool *nested_root = (bool *)calloc((size_t)tree.num_roots + 1, sizeof *nested_root);
  bool *nested_leaf = (bool *)calloc((size_t)ncols + 1, sizeof *nested_leaf);
  hnode *hnodes = (hnode *)calloc((size_t)tree.num_roots + 1, sizeof *hnodes);
  for (int32_t r = 0; r < tree.num_roots; ++r) {
    const gcol_detail_pqn_node *rn = &tree.nodes[tree.roots[r]];
    nested_root[r] = rn->kind != GCOL_DETAIL_PQN_LEAF;
    for (int32_t k = 0; k < rn->num_leaves; ++k) nested_leaf[rn->first_leaf + k] = nested_root[r];
  }
  if (host) {
    gcol_detail_pq_file file;
    st = gcol_detail_pq_file_open(path, &file);
    for (int32_t k = 0; k < ncols && st == GCOL_OK; ++k) {
      if (!nested_leaf[k]) st = from_host(&file, md, k, &cols[k]);
    }
    for (int32_t r = 0; r < tree.num_roots && st == GCOL_OK; ++r) {
      if (nested_root[r]) st = nested_from_host(&file, md, &tree, tree.roots[r], &hnodes[r]);
    }
    gcol_detail_pq_file_close(&file);
  } else {
    st = gcol_parquet_read_file(path, NULL, &t, NULL, NULL); /* a column per top-level field */
    if (st == GCOL_OK) {
      gcol_table_view const tv = gcol_table_get_view(t);
      int32_t at = 0;
      for (int32_t r = 0; r < tree.num_roots; ++r) {
        const gcol_detail_pqn_node *rn = &tree.nodes[tree.roots[r]];
        if (nested_root[r]) {
          hnode_from_device(tv.columns[at++], &hnodes[r]);
        } else {
          for (int32_t k = 0; k < rn->num_leaves; ++k) {
            from_device(tv.columns[at++], &cols[rn->first_leaf + k]);
          }
        }
      }
    }
  }
  for (int32_t k = 0; k < ncols; ++k) {
    gcol_parquet_column_info info;
    gcol_parquet_metadata_column(md, k, &info);
    cols[k].name = info.name;
  }
  int rc = 0;
  if (st != GCOL_OK) {
    rc = fail(st);
  } else if (!rewrite) {
    printf("rows %" PRId64 "\n", gcol_parquet_metadata_num_rows(md));
    printf("row_groups %d\n", gcol_parquet_metadata_num_row_groups(md));
    for (int32_t r = 0; r < tree.num_roots; ++r) {
      const gcol_detail_pqn_node *rn = &tree.nodes[tree.roots[r]];
      if (!nested_root[r]) {
        for (int32_t k = 0; k < rn->num_leaves; ++k) print_column(&cols[rn->first_leaf + k]);
        continue;
      }
      printf("column %s nested\n", rn->name);
      for (int64_t i = 0; i < hnodes[r].size; ++i) {
        print_nested(&hnodes[r], i);
        putchar('\n');
      }
    }
  } else {
    gcol_parquet_write_options opt;
    gcol_parquet_write_options_init(&opt);
    opt.row_group_rows = 5000;
    opt.codec = codec;
    opt.dictionary = dictionary;
    const char **names = (const char **)calloc((size_t)ncols + 1, sizeof *names);
    int32_t n = 0;
    if (host) {
      gcol_detail_pq_host_column *hc =
          (gcol_detail_pq_host_column *)calloc((size_t)ncols + 1, sizeof *hc);
      for (int32_t k = 0; k < ncols; ++k) {
        if (nested_leaf[k] || !writable(&cols[k], argc, argv, a + 2)) continue;
        hc[n].name = cols[k].name;
        hc[n].type = cols[k].type;
        hc[n].data = cols[k].values;
        gcol_parquet_column_info info;
        gcol_parquet_metadata_column(md, k, &info);
        hc[n].valid = info.nullable ? cols[k].valid : NULL;
        hc[n].offsets = cols[k].offsets;
        hc[n].chars = cols[k].chars;
        names[n++] = cols[k].name;
      }
      uint8_t *bytes = NULL;
      int64_t size = 0;
      st = gcol_detail_parquet_write_host(hc, n, gcol_parquet_metadata_num_rows(md), &opt, &bytes, &size);
      if (st == GCOL_OK) {
        FILE *f = fopen(argv[a + 1], "wb");
        if (f == NULL || fwrite(bytes, 1, (size_t)size, f) != (size_t)size) {
          st = GCOL_ERROR_INVALID_ARGUMENT;
        }
        if (f != NULL) fclose(f);
      }
      free(bytes);
      free(hc);
    } else {
      gcol_table_view const tv = gcol_table_get_view(t);
      gcol_column_view *keep = (gcol_column_view *)calloc((size_t)ncols + 1, sizeof *keep);
      for (int32_t k = 0, at = 0; k < ncols; ++k) {
        if (nested_leaf[k]) { /* the writer writes flat columns only */
          if (k == 0 || !nested_leaf[k - 1] ||
              gcol_detail_pqn_root_of_leaf(&tree, k) != gcol_detail_pqn_root_of_leaf(&tree, k - 1)) {
            ++at;
          }
          continue;
        }
        int32_t const pos = at++;
        if (!writable(&cols[k], argc, argv, a + 2)) continue;
        keep[n] = tv.columns[pos];
        names[n++] = cols[k].name;
      }
      gcol_table_view out;
      opt.column_names = names;
      st = gcol_table_view_make(keep, n, &out);
      if (st == GCOL_OK) st = gcol_parquet_write_file(out, &opt, argv[a + 1], NULL);
      free(keep);
    }
    if (st != GCOL_OK) {
      fail(st);
      rc = 1;
    } else {
      for (int32_t k = 0; k < n; ++k) printf("wrote %s\n", names[k]);
    }
    free(names);
  }
  for (int32_t k = 0; k < ncols; ++k) host_column_free(&cols[k]);
  free(cols);
  for (int32_t r = 0; r < tree.num_roots; ++r) hnode_free(&hnodes[r]);
  free(hnodes);
  free(nested_root);
  free(nested_leaf);
  gcol_detail_pqn_free(&tree);
  gcol_table_free(t);
  gcol_parquet_metadata_free(md);
  return rc;
}
