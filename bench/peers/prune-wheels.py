#!/usr/bin/env python3
"""Shrinks the libcudf wheels for the device machine (sm_90 only) so that they travel in two
device calls instead of six to twelve.

    bench/peers/prune-wheels.py SRC_DIR DST_DIR

For every shared library in every wheel of SRC_DIR, the payload of each CUDA fatbin entry
that is not an sm_90 ELF (other architectures' cubins, PTX) is overwritten with zeros; the
entries' headers stay, so the file keeps its layout and the driver still finds the sm_90
cubin it loads on an H100 or H200 (it never reads the others). The zeros then compress: the
eleven wheels of libcudf 26.10.2 go from 360 MB to 104 MB (libcudf.so's fatbins are 273 MB,
of which 32 MB are sm_90). RECORD's hashes and sizes are written again for the changed files.
The result runs only on sm_90 GPUs: it is a transport for the peer benchmarks, not a release.

Fatbin layout read here (little-endian): a header {u32 magic 0xBA55ED50, u16 version,
u16 header_size, u64 fat_size} followed by entries {u16 kind (1 PTX, 2 ELF), u16 version,
u32 header_size, u64 payload_size, ..., u32 sm_arch at byte 28}, each followed by its payload.
"""
import base64
import hashlib
import os
import struct
import sys
import zipfile

FATBIN_MAGIC = 0xBA55ED50
KEEP_KIND, KEEP_SM = 2, 90


def section(data, wanted):
    """(offset, size) of the ELF64 section named `wanted`, or None."""
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)

    def header(i):
        return struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)

    names = header(shstrndx)[4]
    for i in range(shnum):
        name, _, _, _, off, size = header(i)
        end = data.index(0, names + name)
        if bytes(data[names + name:end]) == wanted:
            return off, size
    return None


def prune(data):
    """The library with every fatbin payload but sm_90 ELFs zeroed; bytes zeroed."""
    if data[:4] != b'\x7fELF':
        return data, 0
    found = section(data, b'.nv_fatbin')
    if found is None:
        return data, 0
    b = bytearray(data)
    p, end_section = found[0], found[0] + found[1]
    zeroed = 0
    while p + 16 <= end_section:
        magic, _, header_size, fat_size = struct.unpack_from('<IHHQ', b, p)
        if magic != FATBIN_MAGIC:
            p += 8  # fatbins are 8-byte aligned within the section
            continue
        q, end = p + header_size, p + header_size + fat_size
        while q < end:
            kind, _, entry_header, payload = struct.unpack_from('<HHIQ', b, q)
            sm, = struct.unpack_from('<I', b, q + 28)
            if not (kind == KEEP_KIND and sm == KEEP_SM):
                b[q + entry_header:q + entry_header + payload] = bytes(payload)
                zeroed += payload
            q += entry_header + payload
        p = end
    return bytes(b), zeroed


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
    return f'{name},sha256={digest},{len(data)}'


def prune_wheel(src, dst):
    with zipfile.ZipFile(src) as zin:
        files = {i.filename: (i, zin.read(i)) for i in zin.infolist()}
    for name, (info, data) in files.items():
        if '.so' in name:
            pruned, zeroed = prune(data)
            if zeroed:
                files[name] = (info, pruned)
                print(f'{os.path.basename(src)}: {name}: {zeroed / 1e6:.1f} MB zeroed')
    record = next(n for n in files if n.endswith('.dist-info/RECORD'))
    lines = []
    for line in files[record][1].decode().splitlines():
        name = line.split(',')[0]
        lines.append(record_line(name, files[name][1]) if name in files and name != record else line)
    files[record] = (files[record][0], ('\n'.join(lines) + '\n').encode())
    with zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for name, (info, data) in files.items():
            out = zipfile.ZipInfo(name, info.date_time)
            out.external_attr = info.external_attr
            out.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(out, data, compresslevel=9)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src_dir, dst_dir = sys.argv[1], sys.argv[2]
    os.makedirs(dst_dir, exist_ok=True)
    for wheel in sorted(os.listdir(src_dir)):
        if wheel.endswith('.whl'):
            src, dst = os.path.join(src_dir, wheel), os.path.join(dst_dir, wheel)
            prune_wheel(src, dst)
            print(f'{wheel}: {os.path.getsize(src) / 1e6:.1f} -> {os.path.getsize(dst) / 1e6:.1f} MB')


if __name__ == '__main__':
    main()
