#!/usr/bin/env bash
# gcol as a Meson subproject, as a user's project takes it: examples/subproject (its
# meson.build, sources and subprojects/gcol.wrap) is copied into a temporary folder, gcol is
# linked in as subprojects/gcol, and the project is configured with no option at all and
# downloads forbidden. Checks that gcol then defines its library and nothing else (no tests,
# examples, benchmarks or docs), never looks for cmocka, installs nothing, that
# dependency('gcol-headers') alone builds and runs a program that links neither libgcol.a
# nor the CUDA runtime, and that the program on dependency('gcol') is linked with
# libgcol.a and the static CUDA runtime, not libcudart.so. Prints TAP.
#
# Building libgcol.a a second time takes minutes on CI's two cores, so the library program is
# checked by its link command; GCOL_TEST_SUBPROJECT_BUILD=1 also builds, checks and runs it.
#   check_subproject.sh SOURCE_ROOT MESON READELF
set -uo pipefail
source_root=$1 meson=$2 readelf=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
project=$work/project build=$work/build
full=${GCOL_TEST_SUBPROJECT_BUILD:-0}
n=0 failed=0
echo "1..$((full == 1 ? 8 : 7))"
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; [[ -z ${2:-} ]] || sed 's/^/# /' <<<"$2"; }
finish() { exit $failed; }

cp -R "$source_root/examples/subproject" "$project"
ln -s "$source_root" "$project/subprojects/gcol"
unset MESON_TESTTHREADS
if out=$("$meson" setup "$build" "$project" --wrap-mode=nodownload 2>&1); then
  ok "a project with gcol as a subproject configures with no option"
else
  not_ok "a project with gcol as a subproject configures with no option" "$out"
  finish
fi

targets=$("$meson" introspect --targets "$build" | python3 -c '
import json, sys
print(" ".join(sorted(t["name"] for t in json.load(sys.stdin) if t["subproject"] == "gcol")))')
if [[ $targets == gcol ]]; then
  ok "gcol defines only its library (no tests, examples, benchmarks or docs)"
else
  not_ok "gcol defines only its library (no tests, examples, benchmarks or docs); it defines: $targets"
fi

if grep -qi cmocka "$build/meson-logs/meson-log.txt"; then
  not_ok "configuring gcol as a subproject never looks for cmocka" \
    "$(grep -i cmocka "$build/meson-logs/meson-log.txt")"
else
  ok "configuring gcol as a subproject never looks for cmocka"
fi

installed=$("$meson" introspect --installed "$build")
if [[ $installed == "{}" ]]; then
  ok "gcol installs nothing into the parent project"
else
  not_ok "gcol installs nothing into the parent project" "$installed"
fi

if out=$(ninja -C "$build" headers_only 2>&1) && run=$("$build/headers_only" 2>&1); then
  if grep -q libgcol <<<"$out"; then
    not_ok "dependency('gcol-headers') builds a program without building libgcol.a" "$out"
  else
    ok "dependency('gcol-headers') builds and runs a program without libgcol.a (${run//$'\n'/ })"
  fi
else
  not_ok "dependency('gcol-headers') builds and runs a program" "$out${run:+$'\n'$run}"
fi
needed=$("$readelf" -d "$build/headers_only" 2>&1 | grep NEEDED)
if grep -q cudart <<<"$needed"; then
  not_ok "the headers-only program needs no CUDA runtime" "$needed"
else
  ok "the headers-only program needs no CUDA runtime"
fi

# The link command of the program on dependency('gcol'): libgcol.a and libcudart_static.a,
# and no -lcudart (which the linker resolves to libcudart.so).
link=$(ninja -C "$build" -t commands app | tail -n 1)
if grep -q 'libgcol\.a' <<<"$link" && grep -q 'cudart_static' <<<"$link" &&
   ! grep -Eq -- '-lcudart( |$)' <<<"$link"; then
  ok "dependency('gcol') links libgcol.a and the static CUDA runtime, not libcudart.so"
else
  not_ok "dependency('gcol') links libgcol.a and the static CUDA runtime, not libcudart.so" "$link"
fi

if ((full == 1)); then
  if out=$(ninja -C "$build" app 2>&1) && run=$("$build/app" 2>&1); then
    needed=$("$readelf" -d "$build/app" | grep NEEDED)
    if grep -q libcudart <<<"$needed"; then
      not_ok "the program on dependency('gcol') builds, runs and needs no libcudart.so" "$needed"
    else
      ok "the program on dependency('gcol') builds, runs and needs no libcudart.so (${run//$'\n'/ })"
    fi
  else
    not_ok "the program on dependency('gcol') builds and runs" "$out${run:+$'\n'$run}"
  fi
fi
finish
