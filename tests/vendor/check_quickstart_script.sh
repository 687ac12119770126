#!/usr/bin/env bash
# scripts/quickstart, the main job, run over stub tools that record their arguments (copies
# of scripts/quickstart and scripts/install-deps in a temporary tree, so nothing is built or
# installed): with Meson, Ninja and pkg-config present it calls no apt-get (so it works
# offline), configures without tests and docs, builds only examples/quickstart and runs it;
# with tools missing it installs only Meson, Ninja and pkg-config, never Doxygen or cmocka;
# when meson or the build fails, their messages reach the user and the script fails.
# Prints TAP.   check_quickstart_script.sh SOURCE_ROOT
set -uo pipefail
source_root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
echo "1..8"
check() { # check CONDITION_STATUS DESCRIPTION [DIAGNOSTIC]
  n=$((n + 1))
  if [[ $1 -eq 0 ]]; then echo "ok $n - $2"; else
    failed=1; echo "not ok $n - $2"; [[ -z ${3:-} ]] || sed 's/^/# /' <<<"$3"; fi
}

mkdir -p "$work/repo/scripts" "$work/stubs" "$work/sys"
cp "$source_root/scripts/quickstart" "$source_root/scripts/install-deps" "$work/repo/scripts/"
log=$work/calls.log
# Each stub appends "name args..." to the log. ninja "builds" the quickstart as a script
# that prints a line; STUB_FAIL=meson|ninja makes that tool print an error and fail, on
# stdout as both do (ninja prints the failed command's output there).
for tool in meson ninja pkg-config nvcc apt-get sudo; do
  cat >"$work/stubs/$tool" <<STUB
#!/usr/bin/env bash
echo "$tool \$*" >>"$log"
if [[ \${STUB_FAIL:-} == $tool ]]; then echo "$tool: error: stub failure in $tool"; exit 1; fi
case $tool in
  sudo) exec "\$@" ;;
  ninja) mkdir -p "\$2/examples"
         printf '#!/bin/sh\necho quickstart ran\n' >"\$2/examples/quickstart"
         chmod +x "\$2/examples/quickstart" ;;
esac
exit 0
STUB
  chmod +x "$work/stubs/$tool"
done
# A PATH of the system's programs minus the build tools, so that a stub's absence reads as a
# missing tool: links to everything in /usr/bin and /bin but those.
for dir in /bin /usr/bin; do
  for f in "$dir"/*; do
    case ${f##*/} in meson | ninja | pkg-config | doxygen | nvcc | apt-get | sudo) continue ;; esac
    [[ -e $work/sys/${f##*/} ]] || ln -s "$f" "$work/sys/${f##*/}"
  done
done

run() { # run STUBS... : scripts/quickstart with only those stubs on PATH
  local bin=$work/bin-$RANDOM
  mkdir "$bin"
  for tool in "$@"; do ln -s "$work/stubs/$tool" "$bin/$tool"; done
  : >"$log"
  (cd "$work/repo" && PATH=$bin:$work/sys bash scripts/quickstart 2>&1)
}

# 1-4: every tool present.
out=$(run meson ninja pkg-config nvcc apt-get sudo); status=$?
check $status "with Meson, Ninja and pkg-config present, scripts/quickstart succeeds" "$out"
! grep -q '^apt-get' "$log"
check $? "it calls no apt-get (no network needed)" "$(cat "$log")"
setup=$(grep '^meson setup' "$log")
grep -q -- '-Dtests=false' <<<"$setup" && grep -q -- '-Ddocs=disabled' <<<"$setup"
check $? "it configures without tests and docs" "$setup"
grep -qx 'ninja -C build-quickstart examples/quickstart' "$log" && grep -q 'quickstart ran' <<<"$out"
check $? "it builds only examples/quickstart and runs it" "$(cat "$log")"$'\n'"$out"

# 5-6: tools missing: installs exactly Meson, Ninja and pkg-config.
out=$(run nvcc apt-get sudo)
install=$(grep '^apt-get install' "$log")
grep -q meson <<<"$install" && grep -q ninja-build <<<"$install" && grep -q pkg-config <<<"$install"
check $? "with the tools missing, it installs Meson, Ninja and pkg-config" "$install"$'\n'"$out"
! grep -Eq 'doxygen|cmocka' <<<"$install"
check $? "it never installs Doxygen or cmocka" "$install"

# 7-8: failures are shown, not hidden.
out=$(STUB_FAIL=meson run meson ninja pkg-config nvcc apt-get sudo); status=$?
[[ $status -ne 0 ]] && grep -q 'stub failure in meson' <<<"$out"
check $? "when meson setup fails, its message is shown and the script fails" "$out"
out=$(STUB_FAIL=ninja run meson ninja pkg-config nvcc apt-get sudo); status=$?
[[ $status -ne 0 ]] && grep -q 'stub failure in ninja' <<<"$out" && ! grep -q 'quickstart ran' <<<"$out"
check $? "when the build fails, the compiler's message is shown and the script fails" "$out"
exit $failed
