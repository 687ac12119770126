#!/usr/bin/env python3
"""gcol's interop with real clients (suite gpu), through the shim library loaded by ctypes:

  pyarrow  array -> _export_to_c -> gcol host import (a column on the GPU) -> gcol device
           export -> gcol device import (zero-copy) -> gcol host export -> _import_from_c,
           for every type gcol takes, with nulls and slices: equal to the original, type
           (names, time zones, precisions) included; and pyarrow's own device import when
           it has CUDA.
  torch    tensor.__dlpack__ -> gcol DLPack import -> gcol DLPack export -> torch.from_dlpack:
  cupy     equal, and zero-copy (the same address) unless the tensor was strided.

TAP output; `1..0 # SKIP` without pyarrow or a GPU.

  test_interop_python.py PATH/TO/libgcol_interop_shim.so
"""
import ctypes
import sys


def skip(why):
    print(f"1..0 # SKIP {why}")
    sys.exit(0)


try:
    import pyarrow as pa
except ImportError:
    skip("pyarrow is not installed")
try:
    import torch
except ImportError:
    torch = None
try:
    import cupy
except ImportError:
    cupy = None
has_gpu = (torch is not None and torch.cuda.is_available()) or (
    cupy is not None and cupy.cuda.runtime.getDeviceCount() > 0)
if not has_gpu:
    skip("no CUDA device (or neither torch nor cupy to see one)")

shim = ctypes.CDLL(sys.argv[1])
vp = ctypes.c_void_p
shim.gcol_shim_last_error.restype = ctypes.c_char_p
for name, args in {
    "gcol_shim_import_host": [vp, vp, ctypes.POINTER(vp)],
    "gcol_shim_export_device": [vp, vp, vp],
    "gcol_shim_import_device": [vp, vp, ctypes.POINTER(vp)],
    "gcol_shim_imported_export_host": [vp, vp, vp],
    "gcol_shim_imported_to_dlpack": [vp, ctypes.c_int, ctypes.POINTER(vp)],
    "gcol_shim_column_to_dlpack": [vp, ctypes.c_int, ctypes.POINTER(vp)],
    "gcol_shim_dlpack_import": [vp, ctypes.c_int, ctypes.POINTER(vp)],
}.items():
    getattr(shim, name).argtypes = args
    getattr(shim, name).restype = ctypes.c_int
shim.gcol_shim_column_free.argtypes = [vp]
shim.gcol_shim_imported_free.argtypes = [vp]
shim.gcol_shim_imported_address.argtypes = [vp]
shim.gcol_shim_imported_address.restype = ctypes.c_size_t
shim.gcol_shim_dlpack_delete.argtypes = [vp, ctypes.c_int]

api = ctypes.pythonapi
api.PyCapsule_GetPointer.restype = vp
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_New.restype = ctypes.py_object
api.PyCapsule_New.argtypes = [vp, ctypes.c_char_p, vp]


def check(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: status {status}: {shim.gcol_shim_last_error().decode()}")


def struct_buffer(size=128):
    buf = ctypes.create_string_buffer(size)
    return buf, ctypes.addressof(buf)


# ---------------------------------------------------------------- pyarrow round trips

def through_gcol(arr):
    """pyarrow -> gcol (host import, device export, device import, host export) -> pyarrow."""
    s, sp = struct_buffer()
    a, ap = struct_buffer()
    arr._export_to_c(ap, sp)
    col = vp()
    check(shim.gcol_shim_import_host(sp, ap, ctypes.byref(col)), "host import")
    ds, dsp = struct_buffer()
    da, dap = struct_buffer()
    imp = vp()
    try:
        check(shim.gcol_shim_export_device(col, dsp, dap), "device export")
        check(shim.gcol_shim_import_device(dsp, dap, ctypes.byref(imp)), "device import")
        hs, hsp = struct_buffer()
        ha, hap = struct_buffer()
        check(shim.gcol_shim_imported_export_host(imp, hsp, hap), "host export")
        return pa.Array._import_from_c(hap, hsp)
    finally:
        shim.gcol_shim_imported_free(imp)
        shim.gcol_shim_column_free(col)


def arrays():
    import datetime
    import decimal
    ints = [1, None, -3, 4, 5, None, 7, 8, 9, 10, -11, 12, 13, None, 15, 16, 17, 18, 19, 20,
            21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]
    n = len(ints)
    out = {}
    for t in (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
              pa.uint32(), pa.uint64()):
        out[str(t)] = pa.array([None if v is None else abs(v) for v in ints], type=t)
    out["float32"] = pa.array([None if v is None else v / 3 for v in ints], type=pa.float32())
    # (no NaN: pyarrow's equals() takes NaN != NaN; the C tests check NaN bit patterns)
    out["float64"] = pa.array([-0.0, float("inf"), None] + [v / 7 for v in range(n - 3)])
    out["bool"] = pa.array([None if v is None else v % 3 == 0 for v in ints])
    out["date32"] = pa.array([None if v is None else datetime.date(2000, 1, 1 + abs(v) % 28)
                              for v in ints], type=pa.date32())
    for unit in ("s", "ms", "us", "ns"):
        out[f"timestamp[{unit}]"] = pa.array([None if v is None else v * 1000 for v in ints],
                                             type=pa.timestamp(unit))
        out[f"duration[{unit}]"] = pa.array(ints, type=pa.duration(unit))
    out["timestamp[us, tz]"] = pa.array(ints, type=pa.timestamp("us", tz="America/New_York"))
    dec = [None if v is None else decimal.Decimal(v) / 100 for v in ints]
    out["decimal128(10,2)"] = pa.array(dec, type=pa.decimal128(10, 2))
    if hasattr(pa, "decimal32"):
        out["decimal32(7,2)"] = pa.array(dec, type=pa.decimal32(7, 2))
        out["decimal64(15,2)"] = pa.array(dec, type=pa.decimal64(15, 2))
    words = [None if v is None else "é" * (abs(v) % 4) + str(v) for v in ints]
    out["string"] = pa.array(words, type=pa.string())
    out["large_string"] = pa.array(words, type=pa.large_string())
    out["list<int32>"] = pa.array([None if v is None else list(range(abs(v) % 4)) for v in ints],
                                  type=pa.list_(pa.int32()))
    out["large_list<int64>"] = pa.array([None if v is None else [v] * (abs(v) % 3) for v in ints],
                                        type=pa.large_list(pa.int64()))
    out["struct"] = pa.StructArray.from_arrays(
        [pa.array(ints, type=pa.int32()), pa.array(words)], names=["id", "label"],
        mask=pa.array([v is not None and v % 5 == 0 for v in ints]))
    out["dictionary"] = pa.array(words).dictionary_encode()
    out["null"] = pa.nulls(n)
    return out


def run_arrow_tests(tap):
    for name, arr in arrays().items():
        for label, a in ((name, arr), (f"{name} sliced [3, 36)", arr.slice(3, 33))):
            def case(a=a):
                got = through_gcol(a)
                assert got.type == a.type, f"type {got.type} != {a.type}"
                assert got.equals(a), f"values differ:\n{got}\n!=\n{a}"
            tap.run(f"pyarrow {label} round-trips through gcol's device", case)
    # Dictionary indices of other integer types (pandas: int8, polars: uint32) come back as
    # gcol's int32 indices, the same values.
    words = [None if i % 7 == 3 else f"w{i % 5}" for i in range(40)]
    d = pa.array(words).dictionary_encode()
    for t in (pa.int8(), pa.int16(), pa.int64(), pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64()):
        def index_case(t=t):
            a = pa.DictionaryArray.from_arrays(d.indices.cast(t), d.dictionary)
            for part, want in ((a, d), (a.slice(3, 33), d.slice(3, 33))):
                got = through_gcol(part)
                assert got.type == d.type, f"type {got.type} != {d.type}"
                assert got.equals(want), f"values differ:\n{got}\n!=\n{want}"
        tap.run(f"pyarrow dictionary<{t}> indices import as int32", index_case)
    # utf8_view (polars' strings): imported as gcol STRING, exported back as utf8; inline
    # (<= 12 bytes) and out-of-line strings, nulls, a slice.
    if hasattr(pa, "string_view"):
        texts = [None if i % 9 == 4 else ("é" * (i % 3) + f"row {i}" + " and more text" * (i % 2))
                 for i in range(50)]
        def view_case():
            a = pa.array(texts, type=pa.string_view())
            want = pa.array(texts, type=pa.string())
            for part, w in ((a, want), (a.slice(5, 40), want.slice(5, 40))):
                got = through_gcol(part)
                assert got.type == pa.string(), f"type {got.type}"
                assert got.equals(w), f"values differ:\n{got}\n!=\n{w}"
        tap.run("pyarrow string_view imports as gcol STRING", view_case)
    # pyarrow's own consumer of gcol's device arrays, where pyarrow was built with CUDA.
    def device_consumer():
        arr = pa.array(list(range(100)), type=pa.int64())
        s, sp = struct_buffer()
        a, ap = struct_buffer()
        arr._export_to_c(ap, sp)
        col = vp()
        check(shim.gcol_shim_import_host(sp, ap, ctypes.byref(col)), "host import")
        ds, dsp = struct_buffer()
        da, dap = struct_buffer()
        check(shim.gcol_shim_export_device(col, dsp, dap), "device export")
        try:
            got = pa.Array._import_from_c_device(dap, dsp)
        except Exception as e:  # pyarrow without CUDA: nothing to check beyond the refusal
            shim.gcol_shim_column_free(col)
            return f"SKIP pyarrow cannot import CUDA arrays here ({type(e).__name__})"
        assert got.type == pa.int64() and len(got) == 100
        del got
        shim.gcol_shim_column_free(col)
        return None
    tap.run("pyarrow imports gcol's CUDA device array", device_consumer)


# ---------------------------------------------------------------- DLPack

_destructor_type = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
# The destructor sees a capsule that is being freed: touch it only through raw pointers (a
# py_object would take a new reference to it and free it again, recursively).
_is_valid_raw = ctypes.PYFUNCTYPE(ctypes.c_int, vp, ctypes.c_char_p)(("PyCapsule_IsValid", api))
_get_pointer_raw = ctypes.PYFUNCTYPE(vp, vp, ctypes.c_char_p)(("PyCapsule_GetPointer", api))


@_destructor_type
def _capsule_destructor(capsule_address):
    for name, versioned in ((b"dltensor_versioned", 1), (b"dltensor", 0)):
        if _is_valid_raw(capsule_address, name):  # never consumed: delete it ourselves
            shim.gcol_shim_dlpack_delete(_get_pointer_raw(capsule_address, name), versioned)


class GcolTensor:
    """A gcol DLPack tensor for from_dlpack: __dlpack__ hands its capsule out once."""

    def __init__(self, tensor, versioned, device_id):
        self.tensor, self.versioned, self.device_id = tensor, versioned, device_id

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        # gcol's work is on the legacy default stream and done (the shim synchronizes), so
        # the consumer's stream needs no wait.
        name = b"dltensor_versioned" if self.versioned else b"dltensor"
        return api.PyCapsule_New(self.tensor, name, ctypes.cast(_capsule_destructor, vp))

    def __dlpack_device__(self):
        return (2, self.device_id)


def capsule_of(producer):
    """The producer's capsule, versioned where it speaks DLPack 1.x."""
    try:
        cap = producer.__dlpack__(max_version=(1, 0))
    except TypeError:
        cap = producer.__dlpack__()
    if api.PyCapsule_IsValid(cap, b"dltensor_versioned"):
        return cap, b"dltensor_versioned", 1
    return cap, b"dltensor", 0


def dlpack_round_trip(producer, device_id, consume, versioned_out):
    cap, name, versioned = capsule_of(producer)
    ptr = api.PyCapsule_GetPointer(cap, name)
    imp = vp()
    status = shim.gcol_shim_dlpack_import(ptr, versioned, ctypes.byref(imp))
    api.PyCapsule_SetName(cap, b"used_" + name)  # gcol runs the deleter, even on failure
    check(status, "DLPack import")
    address = shim.gcol_shim_imported_address(imp)
    out = vp()
    check(shim.gcol_shim_imported_to_dlpack(imp, versioned_out, ctypes.byref(out)), "DLPack export")
    return consume(GcolTensor(out.value, versioned_out, device_id)), address


def run_dlpack_tests(tap):
    if torch is not None and torch.cuda.is_available():
        dev = torch.cuda.current_device()
        for dtype in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8,
                      torch.float32, torch.float64, torch.bool):
            for versioned_out in (1, 0):
                def case(dtype=dtype, versioned_out=versioned_out):
                    t = (torch.arange(1000, device="cuda") % 7 == 3) if dtype == torch.bool else \
                        torch.arange(1000, device="cuda").to(dtype)
                    got, address = dlpack_round_trip(t, dev, torch.from_dlpack, versioned_out)
                    assert address == t.data_ptr(), "gcol's import copied a contiguous tensor"
                    assert got.data_ptr() == t.data_ptr(), "the export copied"
                    assert torch.equal(got, t)
                tap.run(f"torch {dtype} through gcol DLPack (export versioned={versioned_out})", case)

        def strided():
            t = torch.arange(1000, device="cuda", dtype=torch.float32)[3::5]
            got, address = dlpack_round_trip(t, dev, torch.from_dlpack, 1)
            assert address != t.data_ptr()
            assert torch.equal(got, t)
        tap.run("torch strided tensor through gcol DLPack (gathered)", strided)

        def arrow_to_torch():
            arr = pa.array(list(range(-50, 50)), type=pa.int64())
            s, sp = struct_buffer()
            a, ap = struct_buffer()
            arr._export_to_c(ap, sp)
            col = vp()
            check(shim.gcol_shim_import_host(sp, ap, ctypes.byref(col)), "host import")
            out = vp()
            check(shim.gcol_shim_column_to_dlpack(col, 1, ctypes.byref(out)), "DLPack export")
            got = torch.from_dlpack(GcolTensor(out.value, 1, dev))
            assert got.tolist() == arr.to_pylist()
        tap.run("pyarrow -> gcol -> torch through DLPack", arrow_to_torch)
    else:
        tap.skip("torch through gcol DLPack", "torch without CUDA")
    if cupy is not None:
        dev = cupy.cuda.runtime.getDevice()

        def cupy_case():
            x = cupy.arange(4096, dtype=cupy.float64) * 0.5
            got, address = dlpack_round_trip(x, dev, cupy.from_dlpack, 1)
            assert address == x.data.ptr
            assert got.data.ptr == x.data.ptr
            assert bool((got == x).all())
        tap.run("cupy float64 through gcol DLPack", cupy_case)

        def cupy_strided():
            x = cupy.arange(4096, dtype=cupy.int32)[::3]
            got, _ = dlpack_round_trip(x, dev, cupy.from_dlpack, 0)
            assert bool((got == x).all())
        tap.run("cupy strided int32 through gcol DLPack", cupy_strided)
    else:
        tap.skip("cupy through gcol DLPack", "cupy is not installed")


# ---------------------------------------------------------------- TAP

class Tap:
    def __init__(self):
        self.lines, self.failed = [], 0

    def run(self, name, fn):
        try:
            result = fn()
        except Exception as e:  # report and go on
            self.failed += 1
            detail = "\n".join("# " + line for line in repr(e).splitlines())
            self.lines.append(f"not ok {len(self.lines) + 1} - {name}\n{detail}")
            return
        suffix = f" # {result}" if result else ""
        self.lines.append(f"ok {len(self.lines) + 1} - {name}{suffix}")

    def skip(self, name, why):
        self.lines.append(f"ok {len(self.lines) + 1} - {name} # SKIP {why}")


def main():
    tap = Tap()
    run_arrow_tests(tap)
    run_dlpack_tests(tap)
    print(f"1..{len(tap.lines)}")
    print("\n".join(tap.lines))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
