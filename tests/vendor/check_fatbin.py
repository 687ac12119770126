#!/usr/bin/env python3
"""GPUs newer than every gpu_archs entry run gcol through PTX, which the driver compiles when
the program loads. Every CUDA object of libgcol.a must embed machine code (SASS) for each
gpu_archs entry and the PTX of the newest. Reads the archive and the fat binaries itself
(cuobjdump is not in every CUDA installation), so it runs without a GPU. Prints TAP.
    check_fatbin.py LIBRARY ARCH..."""
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX, KIND_SASS = 1, 2


def archive_members(data):
    """(name, bytes) of each member of a GNU ar archive."""
    if not data.startswith(b"!<arch>\n"):
        raise ValueError("not an ar archive")
    offset, long_names = 8, b""
    while offset + 60 <= len(data):
        header = data[offset:offset + 60]
        name = header[:16].decode().rstrip()
        size = int(header[48:58].decode())
        body = data[offset + 60:offset + 60 + size]
        offset += 60 + size + (size & 1)
        if name == "//":
            long_names = body
        elif name.startswith("/") and name[1:].isdigit():
            start = int(name[1:])
            yield long_names[start:long_names.index(b"/\n", start)].decode(), body
        elif name not in ("/", "/SYM64/"):
            yield name.rstrip("/"), body


def elf_section(elf, wanted):
    """The bytes of section `wanted` of a 64-bit little-endian ELF object, or None."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        return None
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    def header(i):
        base = shoff + i * shentsize
        name, = struct.unpack_from("<I", elf, base)
        offset, size = struct.unpack_from("<QQ", elf, base + 0x18)
        return name, offset, size
    _, str_offset, _ = header(shstrndx)
    for i in range(shnum):
        name, offset, size = header(i)
        end = elf.index(b"\0", str_offset + name)
        if elf[str_offset + name:end].decode() == wanted:
            return elf[offset:offset + size]
    return None


def fatbin_entries(section):
    """(kind, arch) of every image of the fat binaries in a .nv_fatbin section: a 16-byte
    header (magic, version, header size, size), then images, each with a header holding its
    kind at 0, header size at 4, payload size at 8 and compute capability at 0x1c."""
    entries, offset = [], 0
    while offset + 16 <= len(section):
        magic, _, header_size, size = struct.unpack_from("<IHHQ", section, offset)
        if magic != FATBIN_MAGIC:
            offset += 8  # fat binaries are 8-byte aligned within the section
            continue
        entry, end = offset + header_size, offset + header_size + size
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", section, entry)
            arch, = struct.unpack_from("<I", section, entry + 0x1C)
            entries.append((kind, arch))
            entry += entry_header + payload
        offset = end
    return entries


def main():
    library, archs = sys.argv[1], [int(a) for a in sys.argv[2:]]
    ptx_arch = max(archs)
    with open(library, "rb") as f:
        members = [(n, b) for n, b in archive_members(f.read()) if n.endswith(".cu.o")]
    print(f"1..{len(members) + 1}")
    if not members:
        print(f"not ok 1 - {library} holds CUDA objects")
        return 1
    print(f"ok 1 - {library} holds {len(members)} CUDA objects")
    failed = 0
    for n, (name, body) in enumerate(sorted(members), 2):
        section = elf_section(body, ".nv_fatbin")
        entries = set(fatbin_entries(section)) if section else set()
        missing = [f"SASS sm_{a}" for a in archs if (KIND_SASS, a) not in entries]
        if (KIND_PTX, ptx_arch) not in entries:
            missing.append(f"PTX compute_{ptx_arch}")
        if missing:
            failed += 1
            found = ", ".join(f"{'PTX' if k == KIND_PTX else 'SASS'} {a}" for k, a in sorted(entries))
            print(f"not ok {n} - {name} lacks {', '.join(missing)}\n#   has: {found or 'nothing'}")
        else:
            print(f"ok {n} - {name}: SASS for {', '.join(f'sm_{a}' for a in archs)}, "
                  f"PTX for compute_{ptx_arch}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
