#!/usr/bin/env python3
"""pyarrow against gcol's host-side Arrow C Data code (suite host: no GPU), through the host
shim (host_shim.c) loaded by ctypes. What runs without a GPU, checked on pyarrow's own
structures:

  import   pyarrow array / record batch -> _export_to_c -> gcol's zero-copy import (a
           CUDA_HOST device array over pyarrow's host buffers): gcol's views (types, scales,
           sizes, offsets, null counts, the very buffers, offsets and dictionary children)
           and fields (names, time zones, precisions) equal to what pyarrow exported.
  export   gcol's zero-copy export of those views and its schema -> _import_from_c: valid
           and equal to the original, type included (date64 comes back as timestamp[ms]).
  schemas  pyarrow schemas parsed by gcol and written back; gcol's own formats of every
           type read by pyarrow; bools, string_view and dictionary<int8...> (converted on
           the GPU by an import) parsed and checked.
  release  pyarrow's memory comes back once gcol releases (exactly once: a second release
           would crash); unsupported types and tampered structures (malformed lengths,
           buffers, formats) give their status, a message, and the release.

TAP output; `1..0 # SKIP pyarrow not installed` without pyarrow.

  test_interop_pyarrow.py PATH/TO/libgcol_interop_host_shim.so
"""
import ctypes
import datetime
import decimal
import json
import sys

try:
    import pyarrow as pa
except ImportError:
    print("1..0 # SKIP pyarrow not installed")
    sys.exit(0)

vp = ctypes.c_void_p
i64 = ctypes.c_int64


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", vp), ("flags", i64),
    ("n_children", i64), ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)), ("release", vp), ("private_data", vp)]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", i64), ("null_count", i64), ("offset", i64), ("n_buffers", i64),
    ("n_children", i64), ("buffers", ctypes.POINTER(vp)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)), ("release", vp), ("private_data", vp)]


class ArrowDeviceArray(ctypes.Structure):
    _fields_ = [("array", ArrowArray), ("device_id", i64), ("device_type", ctypes.c_int32),
                ("sync_event", vp), ("reserved", i64 * 3)]


CPU, CUDA_HOST = 1, 3

shim = ctypes.CDLL(sys.argv[1])
shim.gcol_hshim_last_error.restype = ctypes.c_char_p
shim.gcol_hshim_status_string.restype = ctypes.c_char_p
shim.gcol_hshim_status_string.argtypes = [ctypes.c_int]
for name, args in {
    "gcol_hshim_import": [vp, vp, ctypes.c_int, ctypes.POINTER(vp)],
    "gcol_hshim_describe": [vp, ctypes.c_char_p, ctypes.c_size_t],
    "gcol_hshim_parse": [vp, vp, ctypes.c_char_p, ctypes.c_size_t],
    "gcol_hshim_export": [vp, ctypes.c_int, vp, vp],
    "gcol_hshim_schema_round_trip": [vp, vp],
    "gcol_hshim_type_schema": [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, vp],
}.items():
    getattr(shim, name).argtypes = args
    getattr(shim, name).restype = ctypes.c_int
shim.gcol_hshim_imported_free.argtypes = [vp]


def addr(struct):
    return ctypes.addressof(struct)


def status_name(status):
    """"UNSUPPORTED" for GCOL_ERROR_UNSUPPORTED."""
    return shim.gcol_hshim_status_string(status).decode().replace("GCOL_ERROR_", "")


def check(status, what):
    if status != 0:
        raise AssertionError(f"{what}: {status_name(status)}: "
                             f"{shim.gcol_hshim_last_error().decode()}")


def eq(got, want, what):
    assert got == want, f"{what}: gcol {got!r}, pyarrow {want!r}"


# ---------------------------------------------------------------- what pyarrow exported

def snapshot(a):
    """An exported ArrowArray tree as plain values, read before gcol takes it."""
    return {"length": a.length, "null_count": a.null_count, "offset": a.offset,
            "buffers": [a.buffers[i] or 0 for i in range(a.n_buffers)],
            "children": [snapshot(a.children[i].contents) for i in range(a.n_children)],
            "dictionary": snapshot(a.dictionary.contents) if a.dictionary else None}


def gcol_type(t):
    """(gcol_type_name, scale) of the type gcol reads a pyarrow type as."""
    if pa.types.is_integer(t):
        return str(t), 0
    plain = {pa.float32(): "float32", pa.float64(): "float64", pa.bool_(): "bool8",
             pa.null(): "empty", pa.date32(): "timestamp[D]", pa.date64(): "timestamp[ms]"}
    if t in plain:
        return plain[t], 0
    if pa.types.is_timestamp(t):
        return f"timestamp[{t.unit}]", 0
    if pa.types.is_duration(t):
        return f"duration[{t.unit}]", 0
    if pa.types.is_decimal(t):
        return f"decimal{t.byte_width * 8}", -t.scale  # gcol's scale is Arrow's negated
    if pa.types.is_string(t) or pa.types.is_large_string(t) or is_string_view(t):
        return "string", 0
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return "list", 0
    if pa.types.is_struct(t):
        return "struct", 0
    if pa.types.is_dictionary(t):
        return "dictionary32", 0
    raise AssertionError(f"no gcol type for {t}")


def is_string_view(t):
    return hasattr(pa.types, "is_string_view") and pa.types.is_string_view(t)


def back_type(t):
    """The type gcol's export gives back for a pyarrow type it imported."""
    if t == pa.date64():
        return pa.timestamp("ms")
    if is_string_view(t):
        return pa.string()
    if pa.types.is_dictionary(t):
        return pa.dictionary(pa.int32(), back_type(t.value_type), t.ordered)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        make = pa.list_ if pa.types.is_list(t) else pa.large_list
        return make(t.value_field.with_type(back_type(t.value_type)))
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(back_type(f.type)) for f in t])
    return t


def check_offsets(v, s, large, where):
    eq(v["type"], "int64" if large else "int32", where + " offsets type")
    eq(v["data"], s["buffers"][1], where + " offsets buffer")
    eq(v["size"], s["offset"] + s["length"] + 1 if s["buffers"][1] else 0, where + " offsets")


def check_view(v, s, t, where):
    """gcol's view of one node against pyarrow's exported node and type."""
    name, scale = gcol_type(t)
    eq((v["type"], v["scale"]), (name, scale), where + " type")
    eq(v["size"], s["length"], where + " size")
    eq(v["offset"], s["offset"], where + " offset")
    # gcol counts no nulls without a mask (a null-type column has none); its export says all
    nulls = 0 if t == pa.null() else max(s["null_count"], -1)
    eq(v["null_count"], nulls, where + " null count")
    eq(v["mask"], s["buffers"][0] if s["buffers"] else 0, where + " validity buffer")
    kids = v["children"]
    if pa.types.is_struct(t):
        eq(len(kids), t.num_fields, where + " fields")
        for i, f in enumerate(t):
            check_view(kids[i], s["children"][i], f.type, f"{where}.{f.name}")
    elif pa.types.is_dictionary(t):
        idx = kids[0]
        eq((idx["type"], idx["data"]), ("int32", s["buffers"][1]), where + " indices")
        eq((idx["size"], idx["offset"]), (s["offset"] + s["length"], 0), where + " index rows")
        check_view(kids[1], s["dictionary"], t.value_type, where + ".dictionary")
    elif pa.types.is_list(t) or pa.types.is_large_list(t):
        check_offsets(kids[0], s, pa.types.is_large_list(t), where)
        check_view(kids[1], s["children"][0], t.value_type, where + ".values")
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        check_offsets(kids[0], s, pa.types.is_large_string(t), where)
        eq(v["data"], s["buffers"][2], where + " chars buffer")
    elif t != pa.null():
        eq(v["data"], s["buffers"][1], where + " values buffer")  # zero-copy: the very buffer


def check_field(f, t, where):
    """gcol's field (names, time zones, precisions) against the pyarrow type."""
    if pa.types.is_timestamp(t):
        eq(f["timezone"], t.tz, where + " time zone")
    if pa.types.is_decimal(t):
        eq(f["precision"], t.precision, where + " precision")
    if pa.types.is_struct(t):
        for i, child in enumerate(t):
            eq(f["children"][i]["name"], child.name, where + " field name")
            check_field(f["children"][i], child.type, f"{where}.{child.name}")
    elif pa.types.is_list(t) or pa.types.is_large_list(t):
        check_field(f["children"][0], t.value_type, where + ".values")
    elif pa.types.is_dictionary(t):
        check_field(f["children"][0], t.value_type, where + ".dictionary")


# ---------------------------------------------------------------- through gcol

def describe(imp):
    buf = ctypes.create_string_buffer(1 << 16)
    check(shim.gcol_hshim_describe(imp, buf, len(buf)), "describe")
    return json.loads(buf.value.decode())


def export_from(obj):
    """pyarrow's export of obj (array or record batch) as a CUDA_HOST device array."""
    s, a = ArrowSchema(), ArrowDeviceArray()
    obj._export_to_c(addr(a.array), addr(s))
    a.device_type = CUDA_HOST  # host memory that gcol's views may point at without a copy
    return s, a


def through_gcol(obj, as_table):
    """obj -> gcol's import -> its description -> gcol's export -> pyarrow."""
    s, a = export_from(obj)
    snap = snapshot(a.array)
    imp = vp()
    check(shim.gcol_hshim_import(addr(s), addr(a), as_table, ctypes.byref(imp)), "import")
    assert not s.release and not a.array.release, "the import left pyarrow's structures"
    desc = describe(imp)
    out_s, out_a = ArrowSchema(), ArrowArray()
    check(shim.gcol_hshim_export(imp, as_table, addr(out_s), addr(out_a)), "export")
    cls = pa.RecordBatch if as_table else pa.Array
    return snap, desc, cls._import_from_c(addr(out_a), addr(out_s))


def releases():
    return pa.total_allocated_bytes(), shim.gcol_hshim_owner_releases()


def round_trip(make, as_table=False):
    """A case: make() through gcol and back, equal, pyarrow's memory back once released."""
    def case():
        base_bytes, base_owners = releases()
        obj = make()
        owns_memory = pa.total_allocated_bytes() > base_bytes  # a null array has no buffers
        t = obj.schema if as_table else obj.type
        snap, desc, got = through_gcol(obj, as_table)
        struct_type = pa.struct(list(t)) if as_table else t
        check_view(desc["column"], snap, struct_type, "column")
        check_field(desc["field"], struct_type, "field")
        if as_table:
            eq((desc["rows"], desc["columns"]), (obj.num_rows, obj.num_columns), "table shape")
        got.validate(full=True)
        if as_table:
            eq(got.schema, pa.schema([f.with_type(back_type(f.type)) for f in t]), "schema back")
        else:
            eq(got.type, back_type(t), "type back")
            obj = obj if got.type == t else obj.cast(got.type)  # date64: timestamp[ms]
        assert got.equals(obj), f"values back differ:\n{got}\n!=\n{obj}"
        del obj
        if owns_memory:
            assert pa.total_allocated_bytes() > base_bytes, "pyarrow's buffers freed under gcol"
        del got  # releases gcol's export, which releases the import, which releases pyarrow's
        eq(releases(), (base_bytes, base_owners + 1), "bytes and owner releases after release")
    return case


# ---------------------------------------------------------------- the arrays

INTS = [1, None, -3, 4, 5, None, 7, 8, 9, 10, -11, 12, 13, None, 15, 16, 17, 18, 19, 20,
        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]
WORDS = [None if v is None else "é" * (abs(v) % 4) + str(v) for v in INTS]


def arrays():
    """name -> a function making the array (made inside the case: its memory is counted)."""
    out = {}
    for t in (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
              pa.uint32(), pa.uint64()):
        out[str(t)] = lambda t=t: pa.array([None if v is None else abs(v) for v in INTS], t)
    out["float32"] = lambda: pa.array([None if v is None else v / 4 for v in INTS], pa.float32())
    out["float64"] = lambda: pa.array([-0.0, float("inf"), None] + [v / 7 for v in range(37)])
    days = [None if v is None else datetime.date(2000, 1, 1 + abs(v) % 28) for v in INTS]
    out["date32"] = lambda: pa.array(days, pa.date32())
    out["date64"] = lambda: pa.array(days, pa.date64())
    for unit in ("s", "ms", "us", "ns"):
        out[f"timestamp[{unit}]"] = lambda u=unit: pa.array(INTS, pa.timestamp(u))
        out[f"duration[{unit}]"] = lambda u=unit: pa.array(INTS, pa.duration(u))
    out["timestamp[us, tz]"] = lambda: pa.array(INTS, pa.timestamp("us", tz="America/New_York"))
    out["timestamp[ns, UTC]"] = lambda: pa.array(INTS, pa.timestamp("ns", tz="UTC"))
    dec = [None if v is None else decimal.Decimal(v) / 100 for v in INTS]
    out["decimal128(10,2)"] = lambda: pa.array(dec, pa.decimal128(10, 2))
    out["decimal128(38,-3)"] = lambda: pa.array([None if v is None else v * 1000 for v in INTS],
                                                pa.decimal128(38, -3))
    if hasattr(pa, "decimal32"):
        out["decimal32(7,2)"] = lambda: pa.array(dec, pa.decimal32(7, 2))
        out["decimal64(15,2)"] = lambda: pa.array(dec, pa.decimal64(15, 2))
    out["string"] = lambda: pa.array(WORDS, pa.string())
    out["large_string"] = lambda: pa.array(WORDS, pa.large_string())
    out["list<int32>"] = lambda: pa.array(
        [None if v is None else list(range(abs(v) % 4)) for v in INTS], pa.list_(pa.int32()))
    out["large_list<string>"] = lambda: pa.array(
        [None if v is None else [str(v)] * (abs(v) % 3) for v in INTS],
        pa.large_list(pa.string()))
    out["list<list<int64>>"] = lambda: pa.array(
        [None if v is None else [[v] * (abs(v) % 3), None] for v in INTS],
        pa.list_(pa.list_(pa.int64())))
    out["struct"] = lambda: pa.StructArray.from_arrays(
        [pa.array(INTS, pa.int32()), pa.array(WORDS),
         pa.array(INTS, pa.timestamp("ms", tz="Europe/Paris"))], names=["id", "label", "at"],
        mask=pa.array([v is not None and v % 5 == 0 for v in INTS]))
    out["dictionary<int32, string>"] = lambda: pa.array(WORDS).dictionary_encode()
    out["null"] = lambda: pa.nulls(len(INTS))
    return out


def batch():
    return pa.RecordBatch.from_arrays(
        [pa.array(INTS, pa.int64()), pa.array(WORDS, pa.large_string()),
         pa.array([None if v is None else [v, v] for v in INTS], pa.list_(pa.int16())),
         pa.array(WORDS).dictionary_encode(),
         pa.array([None if v is None else decimal.Decimal(v) for v in INTS],
                  pa.decimal128(12, 0))],
        names=["n", "text", "pairs", "category", "amount"])


def run_round_trips(tap):
    for name, make in arrays().items():
        tap.run(f"pyarrow {name} through gcol's zero-copy import and export", round_trip(make))
        tap.run(f"pyarrow {name} sliced [3, 36) through gcol",
                round_trip(lambda make=make: make().slice(3, 33)))
    tap.run("pyarrow record batch as a gcol table", round_trip(batch, as_table=True))
    tap.run("pyarrow record batch sliced [5, 30) as a gcol table",
            round_trip(lambda: batch().slice(5, 25), as_table=True))


# ---------------------------------------------------------------- schemas

def parse(obj):
    """gcol's parse and check (host only) of obj's exported schema and array: (status, JSON)."""
    s, a = ArrowSchema(), ArrowArray()
    obj._export_to_c(addr(a), addr(s))
    buf = ctypes.create_string_buffer(1 << 16)
    status = shim.gcol_hshim_parse(addr(s), addr(a), buf, len(buf))
    assert not s.release and not a.release, "the parse left pyarrow's structures unreleased"
    return status, json.loads(buf.value.decode()) if status == 0 else None


def parse_case(make, gcol_name, index_type=""):
    """Types whose import converts on the GPU: gcol's parse and check of pyarrow's arrays."""
    def case():
        base = pa.total_allocated_bytes()
        arr = make()
        for part in (arr, arr.slice(3, 30)):
            status, desc = parse(part)
            check(status, "parse")
            eq((desc["type"]["type"], desc["type"]["index_type"]), (gcol_name, index_type),
               "type")
        del arr, part
        eq(pa.total_allocated_bytes(), base, "bytes after release")
    return case


def schema_case(schema):
    def case():
        s, out = ArrowSchema(), ArrowSchema()
        schema._export_to_c(addr(s))
        check(shim.gcol_hshim_schema_round_trip(addr(s), addr(out)), "schema round trip")
        assert not s.release, "the parse left pyarrow's schema unreleased"
        got = pa.Schema._import_from_c(addr(out))
        eq(got, pa.schema([f.with_type(back_type(f.type)) for f in schema]), "schema back")
    return case


def gcol_schema_case(name, want, scale=0, tz=None, precision=0):
    """gcol's format of one of its types, read by pyarrow."""
    def case():
        out = ArrowSchema()
        check(shim.gcol_hshim_type_schema(name.encode(), scale, tz and tz.encode(), precision,
                                          addr(out)), "schema export")
        eq(pa.DataType._import_from_c(addr(out)), want, f"{name} as pyarrow reads it")
    return case


def run_schema_tests(tap):
    fields = [pa.field(str(t).replace(" ", ""), t) for t in [
        pa.int8(), pa.uint64(), pa.float32(), pa.bool_(), pa.date32(), pa.date64(),
        pa.timestamp("s"), pa.timestamp("ns", "Asia/Tokyo"), pa.duration("us"),
        pa.decimal128(20, 4), pa.string(), pa.large_string(), pa.list_(pa.float64()),
        pa.large_list(pa.struct([("a", pa.int32()), ("b", pa.string())])),
        pa.dictionary(pa.int8(), pa.string()), pa.dictionary(pa.uint32(), pa.large_string()),
        pa.null()]]
    if hasattr(pa, "string_view"):
        fields.append(pa.field("view", pa.string_view()))
    tap.run("pyarrow schema of every type parsed by gcol and written back",
            schema_case(pa.schema(fields)))
    own = [("int8", pa.int8()), ("int16", pa.int16()), ("int32", pa.int32()),
           ("int64", pa.int64()), ("uint8", pa.uint8()), ("uint16", pa.uint16()),
           ("uint32", pa.uint32()), ("uint64", pa.uint64()), ("float32", pa.float32()),
           ("float64", pa.float64()), ("bool8", pa.bool_()), ("empty", pa.null()),
           ("timestamp[D]", pa.date32())]
    for unit in ("s", "ms", "us", "ns"):
        own += [(f"timestamp[{unit}]", pa.timestamp(unit)),
                (f"duration[{unit}]", pa.duration(unit))]
    for name, want in own:
        tap.run(f"gcol's {name} schema read by pyarrow as {want}", gcol_schema_case(name, want))
    tap.run("gcol's timestamp[us] with a time zone read by pyarrow",
            gcol_schema_case("timestamp[us]", pa.timestamp("us", "Europe/Paris"),
                             tz="Europe/Paris"))
    tap.run("gcol's decimal128 scale -2 precision 10 read by pyarrow",
            gcol_schema_case("decimal128", pa.decimal128(10, 2), scale=-2, precision=10))
    tap.run("gcol's decimal128 scale 3 read by pyarrow",
            gcol_schema_case("decimal128", pa.decimal128(38, -3), scale=3))
    if hasattr(pa, "decimal32"):
        tap.run("gcol's decimal32 scale -2 read by pyarrow",
                gcol_schema_case("decimal32", pa.decimal32(9, 2), scale=-2))
        tap.run("gcol's decimal64 read by pyarrow",
                gcol_schema_case("decimal64", pa.decimal64(18, 0)))

    def no_duration_days():
        out = ArrowSchema()
        eq(status_name(shim.gcol_hshim_type_schema(b"duration[D]", 0, None, 0, addr(out))),
           "UNSUPPORTED", "duration[D]")
        assert not out.release
    tap.run("gcol's duration[D] has no Arrow type", no_duration_days)
    bools = [None if v is None else v % 3 == 0 for v in INTS]
    tap.run("pyarrow bool parsed by gcol (unpacked on the GPU by an import)",
            parse_case(lambda: pa.array(bools), "bool8"))
    if hasattr(pa, "string_view"):
        tap.run("pyarrow string_view parsed by gcol (converted on the GPU by an import)",
                parse_case(lambda: pa.array(WORDS, pa.string_view()), "string"))
    for t in (pa.int8(), pa.int16(), pa.int64(), pa.uint8(), pa.uint32(), pa.uint64()):
        tap.run(f"pyarrow dictionary<{t}> parsed by gcol (indices cast on the GPU)",
                parse_case(lambda t=t: pa.DictionaryArray.from_arrays(
                    pa.array(WORDS).dictionary_encode().indices.cast(t),
                    pa.array(WORDS).dictionary_encode().dictionary),
                    "dictionary32", str(t)))


# ---------------------------------------------------------------- refusals

def refusal(make, expected, tamper=None, as_table=False, device=None):
    """A case: gcol refuses make()'s export (tampered first) with `expected` and a message,
    and pyarrow's release runs: its memory comes back."""
    def case():
        base = pa.total_allocated_bytes()
        obj = make()
        if device is None:
            s, a = export_from(obj)
        else:  # pyarrow's own device export (CPU)
            s, a = ArrowSchema(), ArrowDeviceArray()
            obj._export_to_c_device(addr(a), addr(s))
        keep = tamper(s, a.array) if tamper else None  # python objects the tampering points at
        imp = vp()
        status = shim.gcol_hshim_import(addr(s), addr(a), as_table, ctypes.byref(imp))
        if status == 0:
            shim.gcol_hshim_imported_free(imp)
        eq(status_name(status), expected, "status")
        assert shim.gcol_hshim_last_error(), "no message"
        assert not imp, "an import came back with the failure"
        assert not s.release and not a.array.release, "pyarrow's structures left unreleased"
        del obj, keep
        eq(pa.total_allocated_bytes(), base, "bytes after the refusal")
    return case


def set_field(name, value):
    def tamper(s, a):
        setattr(a, name, value)
    return tamper


def set_buffer(i, value):
    def tamper(s, a):
        a.buffers[i] = value
    return tamper


def set_format(fmt):
    def tamper(s, a):
        s.format = fmt  # pyarrow's release frees its own copy, not this pointer
        return fmt
    return tamper


def run_refusal_tests(tap):
    ints = lambda: pa.array(INTS, pa.int32())
    unsupported = {
        "float16": lambda: pa.nulls(5, pa.float16()),
        "decimal256": lambda: pa.array([decimal.Decimal("1.5")], pa.decimal256(40, 2)),
        "map": lambda: pa.array([[("a", 1)]], pa.map_(pa.string(), pa.int32())),
        "binary": lambda: pa.array([b"x", None]),
        "fixed_size_binary": lambda: pa.array([b"ab"], pa.binary(2)),
        "fixed_size_list": lambda: pa.array([[1, 2]], pa.list_(pa.int32(), 2)),
        "time32": lambda: pa.array([1], pa.time32("s")),
        "struct with a map field": lambda: pa.StructArray.from_arrays(
            [ints(), pa.array([[("a", 1)]] * len(INTS), pa.map_(pa.string(), pa.int32()))],
            names=["i", "m"]),
    }
    if hasattr(pa, "binary_view"):
        unsupported["binary_view"] = lambda: pa.array([b"x"], pa.binary_view())
    for name, make in unsupported.items():
        tap.run(f"pyarrow {name} refused as UNSUPPORTED, released once",
                refusal(make, "UNSUPPORTED"))
    malformed = [
        ("null count above the length", ints, set_field("null_count", len(INTS) + 1)),
        ("negative length", ints, set_field("length", -1)),
        ("offset + length past the values", lambda: pa.StructArray.from_arrays(
            [ints()], names=["i"]), set_field("length", len(INTS) + 10)),
        ("nulls without a validity buffer", ints, set_buffer(0, None)),
        ("values buffer NULL", ints, set_buffer(1, None)),
        ("string with two buffers", lambda: pa.array(WORDS), set_field("n_buffers", 2)),
        ("unknown format", ints, set_format(b"x9")),
        ("decimal format without a scale", ints, set_format(b"d:12")),
    ]
    for name, make, tamper in malformed:
        tap.run(f"pyarrow array with {name} refused as INVALID_ARGUMENT, released once",
                refusal(make, "INVALID_ARGUMENT", tamper))
    tap.run("pyarrow int32 array imported as a table refused, released once",
            refusal(ints, "INVALID_ARGUMENT", as_table=True))
    tap.run("pyarrow struct with null rows imported as a table refused, released once",
            refusal(lambda: pa.StructArray.from_arrays(
                [ints()], names=["i"], mask=pa.array([v is None for v in INTS])),
                "INVALID_ARGUMENT", as_table=True))
    if hasattr(pa.Array, "_export_to_c_device"):
        tap.run("pyarrow's CPU device array refused (gcol_arrow_import_* copies those)",
                refusal(ints, "UNSUPPORTED", device=CPU))


# ---------------------------------------------------------------- TAP

class Tap:
    def __init__(self):
        self.lines, self.failed = [], 0

    def run(self, name, fn):
        try:
            fn()
        except Exception as e:  # report and go on
            self.failed += 1
            detail = "\n".join("# " + line for line in repr(e).splitlines())
            self.lines.append(f"not ok {len(self.lines) + 1} - {name}\n{detail}")
            return
        self.lines.append(f"ok {len(self.lines) + 1} - {name}")


def main():
    tap = Tap()
    tap.run(f"pyarrow {pa.__version__} loaded", lambda: None)
    run_round_trips(tap)
    run_schema_tests(tap)
    run_refusal_tests(tap)
    print(f"1..{len(tap.lines)}")
    print("\n".join(tap.lines))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
