#!/usr/bin/env python3
"""Every global symbol defined in libgcol.a starts with gcol_ (DESIGN.md: a vendored static
library must not clash with its host program). `check_symbols.py NM LIBRARY`; one TAP line
per object file of the archive."""
import re
import subprocess
import sys

# Names other than gcol_* that the toolchain emits, each with why it cannot be avoided.
ALLOWED_ANY_BINDING = [
    # The host function nvcc generates for a non-static __global__ kernel gcol_* (mangled,
    # since .cu files are C++), and nvcc's device stub behind it.
    r"_Z\d+gcol_\w*",
    r"_Z\d+__device_stub__Z\d+gcol_\w*",
    # Functions and kernels in an anonymous namespace (and their device stubs): the name
    # carries _GLOBAL__N_<file hash>, unique to one translation unit, so no program can
    # define or reference the same symbol; nvcc nevertheless emits some of them global.
    r"_Z\d*(?:__device_stub__Z)?\w*?N\d+_GLOBAL__N_\w*",
]
# (Relocatable device code, -rdc, would add __fatbinwrap_* and hostRef*: not used, so not allowed.)
# Allowed only with vague linkage (weak W/V/w/v or unique u): one copy per program, merged with
# the user's own copies of the same toolkit headers. A strong definition of these fails.
ALLOWED_WEAK = [
    # g++ (nvcc's host compiler) emits a reference to the C++ personality in every .cu object.
    r"DW\.ref\.__gxx_personality_v0",
    # NVTX v3 (header-only, CUDA Toolkit; DESIGN.md requires NVTX ranges): its C functions and
    # globals are weak and hidden, versioned _v3 so that NVTX versions never clash.
    r"nvtx\w*_v3",
    r"InitializeInjectionNvtx2_fnptr",
    r"_ZZ33nvtxInitializeInjectionLibrary_v3E\w+",
    # CCCL (CUB, Thrust, libcu++) and NVTX's C++ API used by CUB: inline functions, their
    # function-local statics (_ZZ), guard variables (_ZGV), vtables and type info (_ZT[VSI])
    # in namespaces cub::, thrust::, cuda:: and nvtx3:: (versioned, e.g. CUB_300001_SM_90).
    r"_Z(?:GV|T[VSI])?Z?N(?:3cub|6thrust|4cuda|5nvtx3)\w*",
]
WEAK_TYPES = set("WVwvu")


def allowed(name, kind):
    if name.startswith("gcol_") or any(re.fullmatch(p, name) for p in ALLOWED_ANY_BINDING):
        return True
    return kind in WEAK_TYPES and any(re.fullmatch(p, name) for p in ALLOWED_WEAK)


def main():
    nm, library = sys.argv[1:3]
    out = subprocess.run([nm, "-A", "-g", "--defined-only", "--no-demangle", "--format=posix",
                          library], check=True, capture_output=True, text=True).stdout
    objects = {}  # object -> [(name, type)]
    for line in out.splitlines():
        where, name, kind = line.split()[:3]
        member = re.search(r"\[(.*)\]:$", where)
        obj = member.group(1) if member else where.rstrip(":")
        objects.setdefault(obj, []).append((name, kind))
    if not objects:
        print(f"1..1\nnot ok 1 - {library} defines no global symbol")
        return 1
    print(f"1..{len(objects)}")
    failed = 0
    for n, (obj, symbols) in enumerate(sorted(objects.items()), 1):
        bad = [f"{name} ({kind})" for name, kind in symbols if not allowed(name, kind)]
        if bad:
            failed += 1
            print(f"not ok {n} - {obj}: {len(bad)} global symbols without the gcol_ prefix")
            print("".join(f"#   {b}\n" for b in bad), end="")
        else:
            print(f"ok {n} - {obj}: {len(symbols)} global symbols, all gcol_ or allowed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
