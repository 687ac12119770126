/*
 * A program that links gcol (dependency('gcol')): prints the library's version and, when a
 * GPU is present, builds a column on it and counts its nulls. The CUDA runtime is linked
 * statically, so the program runs where only the driver is installed.
 */
#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "gcol/gcol.h"

int main(void) {
  printf("gcol %s\n", gcol_version());
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("no CUDA device found\n");
    return 0;
  }
  cudaStream_t stream = NULL;
  if (cudaStreamCreate(&stream) != cudaSuccess) return 1;
  const int64_t values[4] = {1, 2, 3, 4};
  const uint8_t valid[4] = {1, 0, 1, 1};
  gcol_column *col = NULL;
  gcol_status st = gcol_column_create_from_host(gcol_data_type_make(GCOL_INT64), 4, values, valid,
                                                stream, NULL, &col);
  if (st != GCOL_OK) {
    fprintf(stderr, "%s: %s\n", gcol_status_string(st), gcol_last_error());
    return 1;
  }
  printf("4 rows, %lld null\n", (long long)gcol_column_get_view(col).null_count);
  gcol_column_free(col);
  cudaStreamDestroy(stream);
  return 0;
}
