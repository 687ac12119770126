/* A timeline of one process's GPU work without nsys (the device machines have none): kernels,
 * copies and memsets with their streams, from CUPTI's activity API, written as CSV when the
 * process exits. Loaded by the CUDA driver as an injection library:
 *
 *   bench/trace/build.sh OUTDIR           (needs the toolkit's CUPTI; prints the .so path)
 *   CUDA_INJECTION64_PATH=OUTDIR/libcupti_trace.so GCOL_TRACE_OUT=trace.csv ./program
 *   python3 bench/trace/summarize.py trace.csv
 *
 * Columns: kind, start_ns, end_ns, stream, bytes (copies, memsets), copy kind, name. A dev
 * tool, not part of the library or its build. */
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* build.sh probes which record versions this CUPTI has */
#ifndef TRACE_KERNEL
#define TRACE_KERNEL CUpti_ActivityKernel9
#endif
#ifndef TRACE_MEMCPY
#define TRACE_MEMCPY CUpti_ActivityMemcpy5
#endif
#ifndef TRACE_MEMSET
#define TRACE_MEMSET CUpti_ActivityMemset4
#endif

#define BUFFER_BYTES (8u << 20)

static FILE *trace_out;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = (uint8_t *)aligned_alloc(8, BUFFER_BYTES);
  *size = *buffer != NULL ? BUFFER_BYTES : 0;
  *max_records = 0;
}

static void write_record(const CUpti_Activity *record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
      const TRACE_KERNEL *k = (const TRACE_KERNEL *)record;
      fprintf(trace_out, "kernel,%llu,%llu,%u,0,,\"%s\"\n", (unsigned long long)k->start,
              (unsigned long long)k->end, k->streamId, k->name != NULL ? k->name : "?");
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const TRACE_MEMCPY *m = (const TRACE_MEMCPY *)record;
      fprintf(trace_out, "memcpy,%llu,%llu,%u,%llu,%u,\n", (unsigned long long)m->start,
              (unsigned long long)m->end, m->streamId, (unsigned long long)m->bytes,
              (unsigned)m->copyKind);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const TRACE_MEMSET *m = (const TRACE_MEMSET *)record;
      fprintf(trace_out, "memset,%llu,%llu,%u,%llu,,\n", (unsigned long long)m->start,
              (unsigned long long)m->end, m->streamId, (unsigned long long)m->bytes);
      break;
    }
    default: break;
  }
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid) {
  (void)context;
  (void)stream;
  (void)size;
  CUpti_Activity *record = NULL;
  while (trace_out != NULL &&
         cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    write_record(record);
  }
  free(buffer);
}

static void flush_at_exit(void) {
  cuptiActivityFlushAll(1);
  if (trace_out != NULL) fclose(trace_out);
  trace_out = NULL;
}

/* Called by the driver when CUDA_INJECTION64_PATH names this library */
int InitializeInjection(void) {
  const char *path = getenv("GCOL_TRACE_OUT");
  trace_out = fopen(path != NULL ? path : "trace.csv", "w");
  if (trace_out == NULL) return 0;
  fprintf(trace_out, "kind,start_ns,end_ns,stream,bytes,copy_kind,name\n");
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) {
    return 0;
  }
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
  atexit(flush_at_exit);
  return 1;
}
