#!/usr/bin/env bash
# The single-file bundle (scripts/bundle, README "Vendoring"), as a user without Meson takes
# it: written into a temporary folder, its gcol.h compiled as C11, C++17 and CUDA, its gcol.c
# compiled (also under -DGCOL_NAMESPACE), its gcol.cu through nvcc's preprocessor and C++
# front end (cudafe++, which finds a name that two sources define alike); then two copies
# under different namespaces (--namespace liba, libb): both gcol.c compiled, liba's gcol.cu
# compiled (one translation unit: about 100 s on an idle core, most of it in cicc and
# ptxas), examples/quickstart.c built on liba and run, and liba's objects and libb's host
# object sharing no global symbol. Prints TAP.
#
# A second device compile (libb's) would double the time, so GCOL_TEST_BUNDLE_BUILD=1 adds
# it: libb's gcol.cu compiled, the four objects checked, and a program linking both copies
# built and run.
#   check_bundle.sh SOURCE_ROOT NVCC NM CC CXX GPU_ARCH
set -uo pipefail
source_root=$1 nvcc=$2 nm=$3 cc=$4 cxx=$5 arch=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
full=${GCOL_TEST_BUNDLE_BUILD:-0}
cuflags=(-std=c++17 --expt-relaxed-constexpr -O2 -gencode "arch=compute_$arch,code=sm_$arch")
n=0 failed=0
echo "1..$((full == 1 ? 15 : 12))"
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
  n=$((n + 1)) failed=1
  echo "not ok $n - $1"
  [[ -z ${2:-} ]] || sed 's/^/# /' <<<"$2"
}
check() {  # check DESCRIPTION COMMAND...: ok when the command succeeds, else its output
  local what=$1 out
  shift
  if out=$("$@" 2>&1); then ok "$what"; else not_ok "$what" "$(tail -n 40 <<<"$out")"; fi
}

# nvcc's steps up to its C++ front end (cudafe++), from its own --dryrun: the preprocessor
# and the front end's errors in seconds, where the device compile takes minutes.
frontend() {  # frontend FILE.cu DIR
  local steps
  mkdir -p "$2"
  steps=$("$nvcc" "${cuflags[@]}" -c "$1" -o "$2/gcol.o" --dryrun --keep --keep-dir "$2" 2>&1 |
          sed -n 's/^#\$ //p' | awk '{ print } /cudafe\+\+/ { exit }' |
          grep -Ev '^[A-Za-z_]+=') || return 1
  grep -q 'cudafe++' <<<"$steps" || { echo "nvcc --dryrun shows no cudafe++ step"; return 1; }
  (cd "$2" && PATH=$(dirname "$(command -v "$nvcc")"):$PATH bash -e <<<"$steps")
}

if out=$(python3 "$source_root/scripts/bundle" --output-dir "$work/plain" 2>&1) &&
   [[ -s $work/plain/gcol.h && -s $work/plain/gcol.c && -s $work/plain/gcol.cu &&
      -s $work/plain/gcol_device.cuh ]]; then
  ok "scripts/bundle writes gcol.h, gcol_device.cuh, gcol.c and gcol.cu"
else
  not_ok "scripts/bundle writes gcol.h, gcol_device.cuh, gcol.c and gcol.cu" "$out"
  exit 1
fi

printf '#include "gcol.h"\nint main(void) { return gcol_version() == NULL; }\n' >"$work/h.c"
printf '#include "gcol.h"\n#include "gcol_device.cuh"\nint main(void) { return 0; }\n' \
  >"$work/h.cu"
check "gcol.h compiles alone as C11 (-pedantic -Werror)" \
  "$cc" -std=c11 -Wall -Wextra -pedantic -Werror -I"$work/plain" -c "$work/h.c" -o "$work/h_c.o"
check "gcol.h compiles alone as C++17 (-pedantic -Werror)" \
  "$cxx" -std=c++17 -Wall -Wextra -pedantic -Werror -I"$work/plain" -x c++ -c "$work/h.c" \
  -o "$work/h_cxx.o"
check "gcol.h and gcol_device.cuh compile under nvcc (all warnings as errors)" \
  "$nvcc" "${cuflags[@]}" --Werror all-warnings -I"$work/plain" -c "$work/h.cu" -o "$work/h_cu.o"
check "gcol.c compiles (nvcc, with the host C compiler)" \
  "$nvcc" -O2 -c "$work/plain/gcol.c" -o "$work/plain/gcol_c.o"
check "gcol.cu passes nvcc's preprocessor and front end (one translation unit)" \
  frontend "$work/plain/gcol.cu" "$work/plain/fe"

# -DGCOL_NAMESPACE on the compile does what --namespace does.
if out=$("$nvcc" -O2 -DGCOL_NAMESPACE=libc -c "$work/plain/gcol.c" -o "$work/plain/ns.o" 2>&1) &&
   syms=$("$nm" -g --defined-only --format=posix "$work/plain/ns.o" | awk '{print $1}') &&
   grep -qx libc_gcol_version <<<"$syms" && ! grep -q '^gcol_' <<<"$syms"; then
  ok "gcol.c with -DGCOL_NAMESPACE=libc defines libc_gcol_version and no gcol_ symbol"
else
  not_ok "gcol.c with -DGCOL_NAMESPACE=libc defines libc_gcol_version and no gcol_ symbol" \
    "$out$(grep '^gcol_' <<<"${syms:-}" | head -n 10)"
fi

# Two copies, as two libraries vendoring gcol would hold them.
for ns in liba libb; do
  if ! out=$(python3 "$source_root/scripts/bundle" --namespace "$ns" --output-dir "$work/$ns" \
             2>&1); then
    not_ok "scripts/bundle --namespace $ns" "$out"
    exit 1
  fi
done
check "gcol.cu of copy libb passes nvcc's preprocessor and front end" \
  frontend "$work/libb/gcol.cu" "$work/libb/fe"
both_c=true
for ns in liba libb; do
  "$nvcc" -O2 -c "$work/$ns/gcol.c" -o "$work/$ns/gcol_c.o" >"$work/$ns/c.log" 2>&1 ||
    both_c=false
done
if $both_c; then
  ok "gcol.c of both copies compiles"
else
  not_ok "gcol.c of both copies compiles" "$(cat "$work"/lib?/c.log | tail -n 40)"
fi

# No global symbol (strong or weak) defined by two copies, except the toolchain's own
# (NVTX's, CUB's and the C++ runtime's, merged by the linker as in one copy).
toolchain='^(nvtx\w*_v3|InitializeInjectionNvtx2_fnptr|_ZZ33nvtxInitializeInjectionLibrary_v3E\w+'
toolchain+='|DW\.ref\.__gxx_personality_v0|_Z(GV|T[VSI])?Z?NK?(3cub|6thrust|4cuda|5nvtx3)\w*)$'
common_symbols() {  # common_symbols OBJECT...: global symbols of liba's objects also in libb's
  local a=() b=()
  for o in "$@"; do
    case $o in */liba/*) a+=("$o") ;; *) b+=("$o") ;; esac
  done
  comm -12 <("$nm" -g --defined-only --format=posix "${a[@]}" | awk 'NF >= 2 {print $1}' |
             sort -u) \
           <("$nm" -g --defined-only --format=posix "${b[@]}" | awk 'NF >= 2 {print $1}' |
             sort -u) |
    grep -Ev "$toolchain"
}
compile_cu() {  # compile_cu COPY: its gcol.cu, timed
  local start=$SECONDS out
  if out=$("$nvcc" "${cuflags[@]}" -c "$work/$1/gcol.cu" -o "$work/$1/gcol_cu.o" 2>&1); then
    ok "gcol.cu of copy $1 compiles with nvcc -c ($((SECONDS - start)) s, sm_$arch)"
  else
    not_ok "gcol.cu of copy $1 compiles with nvcc -c" "$(tail -n 40 <<<"$out")"
    exit 1
  fi
}
compile_cu liba

# examples/quickstart.c as a user of the bundle writes it: #include "gcol.h".
sed 's|"gcol/gcol.h"|"gcol.h"|' "$source_root/examples/quickstart.c" >"$work/quickstart.c"
if out=$("$nvcc" -O2 -I"$work/liba" -c "$work/quickstart.c" -o "$work/quickstart.o" 2>&1 &&
         "$nvcc" "$work/quickstart.o" "$work/liba/gcol_c.o" "$work/liba/gcol_cu.o" \
           -o "$work/quickstart" 2>&1) && run=$("$work/quickstart" 2>&1); then
  ok "examples/quickstart.c builds on the bundle and runs (${run//$'\n'/ })"
else
  not_ok "examples/quickstart.c builds on the bundle and runs" "$out${run:+$'\n'$run}"
fi

if $both_c; then
  common=$(common_symbols "$work"/liba/gcol_c.o "$work"/liba/gcol_cu.o "$work/libb/gcol_c.o")
  if [[ -z $common ]]; then
    ok "liba's objects and libb's host object define no global symbol in common"
  else
    not_ok "liba's objects and libb's host object define no global symbol in common" \
      "$(head -n 20 <<<"$common")"
  fi
else
  not_ok "liba's objects and libb's host object define no global symbol in common (not compiled)"
fi

if ((full != 1)); then
  exit $failed
fi

# GCOL_TEST_BUNDLE_BUILD=1: libb's device code too, and a program on both copies.
compile_cu libb
common=$(common_symbols "$work"/lib?/gcol_c.o "$work"/lib?/gcol_cu.o)
if [[ -z $common ]]; then
  ok "the four objects of two copies define no global symbol in common"
else
  not_ok "the four objects of two copies define no global symbol in common" \
    "$(head -n 20 <<<"$common")"
fi

# One program, both copies: each half calls its own copy through its own gcol.h.
for ns in liba libb; do
  cat >"$work/use_$ns.c" <<EOF
#include <stdio.h>
#include "gcol.h"
void use_$ns(void) {
  gcol_column *col = NULL;
  gcol_status st = gcol_column_create(gcol_data_type_make(GCOL_INT32), 0, GCOL_MASK_UNALLOCATED,
                                      NULL, NULL, &col);
  printf("$ns: gcol %s, %d devices, empty column: %s\n", gcol_version(), gcol_device_count(),
         gcol_status_string(st));
  gcol_column_free(col);
}
EOF
  "$nvcc" -I"$work/$ns" -c "$work/use_$ns.c" -o "$work/use_$ns.o" >"$work/use_$ns.log" 2>&1
done
cat >"$work/two.c" <<EOF
void use_liba(void);
void use_libb(void);
int main(void) {
  use_liba();
  use_libb();
  return 0;
}
EOF
if out=$("$nvcc" -c "$work/two.c" -o "$work/two.o" 2>&1 &&
         "$nvcc" "$work/two.o" "$work/use_liba.o" "$work/use_libb.o" "$work"/lib?/gcol_c.o \
           "$work"/lib?/gcol_cu.o -o "$work/two" 2>&1) && run=$("$work/two" 2>&1); then
  ok "a program links two copies of the bundle and calls both (${run//$'\n'/; })"
else
  not_ok "a program links two copies of the bundle and calls both" \
    "$(cat "$work"/use_lib?.log)$out${run:+$'\n'$run}"
fi
exit $failed
