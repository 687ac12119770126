#!/usr/bin/env bash
# Compiles every public header alone, one TAP line per header, so a header added to
# include/gcol/ is checked without editing any meson.build.
#
#   check_headers.sh c11|cxx17|nvcc|nvcc-device INCLUDE_DIR COMPILER [FLAG...]
#
# c11, cxx17, nvcc: include/gcol/*.h, include/gcol/strings/*.h and include/gcol/io/*.h;
# nvcc-device: include/gcol/device/*.cuh.
# Each header is included twice (include guard) into an otherwise empty translation unit.
set -euo pipefail

mode=$1 include_dir=$2
shift 2
compiler=("$@")

case $mode in
  c11) ext=c pattern='*.h' sub= ;;
  cxx17) ext=cpp pattern='*.h' sub= ;;
  nvcc) ext=cu pattern='*.h' sub= ;;
  nvcc-device) ext=cu pattern='*.cuh' sub=device/ ;;
  *) echo "check_headers.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shopt -s nullglob
headers=("$include_dir/gcol/$sub"$pattern)
if [[ -z $sub ]]; then
  headers+=("$include_dir/gcol/strings/"$pattern "$include_dir/gcol/io/"$pattern)
fi
if ((${#headers[@]} == 0)); then
  echo "1..0 # SKIP no headers in $include_dir/gcol/$sub"
  exit 0
fi

echo "1..${#headers[@]}"
n=0 failed=0
for path in "${headers[@]}"; do
  n=$((n + 1))
  header=${path#"$include_dir/"}
  src=$work/$n.$ext
  printf '#include "%s"\n#include "%s"\n' "$header" "$header" >"$src"
  if out=$("${compiler[@]}" -I"$include_dir" -c "$src" -o "$work/$n.o" 2>&1); then
    echo "ok $n - $header ($mode)"
  else
    echo "not ok $n - $header ($mode)"
    sed 's/^/# /' <<<"$out"
    failed=$((failed + 1))
  fi
done
((failed == 0))
