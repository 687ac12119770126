#!/usr/bin/env bash
# The pkg-config route as a user without Meson takes it, on a compiler that does not know
# where CUDA is (CPATH, C_INCLUDE_PATH and LIBRARY_PATH unset): `meson install --destdir`
# into a temporary root, then examples/quickstart.c compiled and linked by `cc` with nothing
# but `pkg-config --cflags --libs gcol` (gcol.pc carries the CUDA include directory: the
# program creates streams), needing no libcudart.so, and run (without a GPU it says so and
# exits 0); the README's first program built the way the README says (`cc first.c
# $(pkg-config --cflags --libs gcol)`) and run; and examples/subproject/headers_only.c built
# with only gcol-headers.pc. TAP.
#   pkgconfig_quickstart.sh BUILDDIR MESON LIBDIR INCLUDEDIR SOURCE_ROOT READELF
set -uo pipefail
builddir=$1 meson=$2 source_root=$5 readelf=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root libdir=$work/root$3 includedir=$work/root$4
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH LIBRARY_PATH PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_DISABLE_UNINSTALLED=1
pc_args=(--define-variable=libdir="$libdir" --define-variable=includedir="$includedir")
cflags=(-std=c11 -pedantic -Wall -Wextra -Werror)
n=0 failed=0
echo "1..7"
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; [[ -z ${2:-} ]] || sed 's/^/# /' <<<"$2"; }

if ! out=$("$meson" install -C "$builddir" --destdir "$root" --no-rebuild --quiet 2>&1); then
  not_ok "meson install --destdir" "$out"
  exit 1
fi

# Without the pkg-config flags the CUDA headers must be out of reach, or this proves little.
# Some machines link them into a default directory (/usr/local/include): compile there as on
# a machine without, with -nostdinc and cc's default directories minus those that hold them.
mapfile -t default_dirs < <(cc -E -v -x c /dev/null -o /dev/null 2>&1 |
  sed -n '/#include <...> search starts here:/,/End of search list/{//!s/^ *//p}')
hidden=() keep=()
for dir in "${default_dirs[@]}"; do
  if [[ -f $dir/cuda_runtime_api.h ]]; then hidden+=("$dir"); else keep+=(-isystem "$dir"); fi
done
((${#hidden[@]} == 0)) || cflags+=(-nostdinc "${keep[@]}")
if printf '#include <cuda_runtime_api.h>\n' | cc "${cflags[@]}" -E -x c - -o /dev/null 2>/dev/null; then
  not_ok "cc finds no CUDA header by itself (default directories: ${default_dirs[*]})"
else
  ok "cc finds no CUDA header by itself${hidden[*]:+ (hidden: ${hidden[*]})}"
fi

if flags=$(pkg-config "${pc_args[@]}" --cflags --libs gcol 2>&1); then
  ok "pkg-config --cflags --libs gcol: $flags"
else
  not_ok "pkg-config --cflags --libs gcol" "$flags"
  exit 1
fi

cmd=(cc "${cflags[@]}" "$source_root/examples/quickstart.c" $flags -o "$work/quickstart")
if out=$("${cmd[@]}" 2>&1); then
  ok "cc compiles and links examples/quickstart.c with only the flags of gcol.pc"
else
  not_ok "cc compiles and links examples/quickstart.c with only the flags of gcol.pc" \
    "${cmd[*]}"$'\n'"$out"
  exit 1
fi

needed=$("$readelf" -d "$work/quickstart" | grep NEEDED)
if grep -q libcudart <<<"$needed"; then
  not_ok "the program needs no libcudart.so (cudart_static)" "$needed"
else
  ok "the program needs no libcudart.so (cudart_static)"
fi

if out=$(GCOL_LOG_LEVEL=off "$work/quickstart" 2>&1); then
  ok "the program runs: $(head -n 1 <<<"$out")"
else
  not_ok "the program runs" "$out"
fi

if out=$(python3 "$source_root/tests/vendor/extract_readme_program.py" "$source_root/README.md" \
            "$work/first.c" 2>&1 &&
          cc "${cflags[@]}" "$work/first.c" $flags -o "$work/first" 2>&1 &&
          GCOL_LOG_LEVEL=off "$work/first" 2>&1); then
  ok "the README's first program builds with gcol.pc's flags and runs: $(head -n 1 <<<"$out")"
else
  not_ok "the README's first program builds with gcol.pc's flags and runs" "$out"
fi

flags=$(pkg-config "${pc_args[@]}" --cflags --libs gcol-headers 2>&1) &&
  out=$(cc "${cflags[@]}" "$source_root/examples/subproject/headers_only.c" $flags \
        -o "$work/headers_only" 2>&1 && "$work/headers_only" 2>&1)
if [[ $? -eq 0 ]]; then
  ok "gcol-headers.pc alone builds a program on the headers ($flags)"
else
  not_ok "gcol-headers.pc alone builds a program on the headers ($flags)" "$out"
fi
exit $failed
