#!/usr/bin/env bash
# Static means static: each Meson-built PROGRAM carries the CUDA runtime itself (it defines
# cudaGetDeviceCount, a local symbol of cudart_static) and needs no libcudart.so (no such NEEDED entry in its dynamic
# section). Before Meson 1.3, dependency('cuda', modules: ['cudart_static']) also linked
# libcudart.so; meson.build finds the static runtime by its path instead. Prints TAP.
#   check_static_cudart.sh READELF NM PROGRAM...
set -uo pipefail
readelf=$1 nm=$2
shift 2
echo "1..$#"
n=0 failed=0
for program in "$@"; do
  n=$((n + 1))
  name=${program##*/}
  needed=$("$readelf" -d "$program" 2>&1 | grep -o 'Shared library: \[[^]]*\]' || true)
  if grep -q 'libcudart\.so' <<<"$needed"; then
    echo "not ok $n - $name links the CUDA runtime statically (it needs libcudart.so)"
    failed=1
  elif ! grep -qw cudaGetDeviceCount <<<"$("$nm" --defined-only "$program" 2>&1)"; then
    echo "not ok $n - $name links the CUDA runtime statically (cudaGetDeviceCount not defined in it)"
    failed=1
  else
    echo "ok $n - $name links the CUDA runtime statically (no libcudart.so among its NEEDED)"
    continue
  fi
  sed 's/^/# /' <<<"$needed"
done
exit $failed
