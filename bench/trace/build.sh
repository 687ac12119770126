#!/usr/bin/env bash
# Builds libcupti_trace.so into OUTDIR (default /tmp/cupti-trace) against the toolkit's CUPTI,
# with the newest kernel/memcpy/memset record versions its header declares.
set -euo pipefail
out=${1:-/tmp/cupti-trace}; mkdir -p "$out"
cuda=${CUDA_HOME:-/usr/local/cuda}
inc=$cuda/extras/CUPTI/include; lib=$cuda/extras/CUPTI/lib64
[[ -f $inc/cupti.h ]] || { inc=$cuda/include; lib=$cuda/lib64; }
header=$(cat "$inc"/cupti_activity.h "$inc"/cupti_activity_deprecated.h 2>/dev/null || true)
newest() { grep -oE "} $1[0-9]+;" <<<"$header" | grep -oE "[0-9]+" | sort -n | tail -1; }
k=$(newest CUpti_ActivityKernel); c=$(newest CUpti_ActivityMemcpy); s=$(newest CUpti_ActivityMemset)
here=$(dirname "$0")
cc -O2 -shared -fPIC -o "$out/libcupti_trace.so" "$here/cupti_trace.c" -I"$inc" -I"$cuda/include" \
  -DTRACE_KERNEL=CUpti_ActivityKernel$k -DTRACE_MEMCPY=CUpti_ActivityMemcpy$c \
  -DTRACE_MEMSET=CUpti_ActivityMemset$s -L"$lib" -Wl,-rpath,"$lib" -lcupti
echo "$out/libcupti_trace.so"
