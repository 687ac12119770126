#!/usr/bin/env bash
# Builds SOURCE with `cc` against gcol as pkg-config finds it, then runs it (it prints TAP):
#   cc_link.sh uninstalled BUILDDIR SOURCE      # the build tree's gcol-uninstalled.pc
#   cc_link.sh installed BUILDDIR SOURCE MESON LIBDIR INCLUDEDIR
#                                               # `meson install --destdir` into a temporary
#                                               # root, then its gcol.pc (absolute LIBDIR and
#                                               # INCLUDEDIR as configured, moved under the root)
set -euo pipefail
mode=$1 builddir=$2 source=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset PKG_CONFIG_DISABLE_UNINSTALLED PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
pc_args=()

case $mode in
  uninstalled) export PKG_CONFIG_PATH=$builddir ;;
  installed)
    meson=$4 root=$work/root libdir=$work/root$5 includedir=$work/root$6
    if ! out=$("$meson" install -C "$builddir" --destdir "$root" --no-rebuild --quiet 2>&1); then
      printf '1..1\nnot ok 1 - meson install --destdir\n'
      sed 's/^/# /' <<<"$out"
      exit 1
    fi
    for f in "$libdir/libgcol.a" "$libdir/pkgconfig/gcol.pc" "$includedir/gcol/gcol.h"; do
      [[ -f $f ]] || { printf '1..1\nnot ok 1 - meson install put %s in place\n' "$f"; exit 1; }
    done
    export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_DISABLE_UNINSTALLED=1
    pc_args=(--define-variable=libdir="$libdir" --define-variable=includedir="$includedir") ;;
  *) echo "cc_link.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac

if ! flags=$(pkg-config "${pc_args[@]}" --cflags --libs gcol 2>&1); then
  printf '1..1\nnot ok 1 - pkg-config finds gcol (%s)\n# %s\n' "$mode" "$flags"
  exit 1
fi
cmd=(cc -std=c11 -pedantic -Wall -Wextra -Werror "$source" $flags -o "$work/program")
echo "# ${cmd[*]}"
if ! out=$("${cmd[@]}" 2>&1); then
  printf '1..1\nnot ok 1 - cc compiles %s and links libgcol.a (%s)\n' "${source##*/}" "$mode"
  sed 's/^/# /' <<<"$out"
  exit 1
fi
"$work/program"
