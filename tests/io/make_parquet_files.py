#!/usr/bin/env python3
"""Writes Parquet files with pyarrow, and next to each FILE.parquet a FILE.expected holding
what gcol must read from it, in the text form of tests/io/parquet_dump.c:

  rows N
  row_groups G
  column NAME GCOL_TYPE_NAME
  VALUE | null        (one line per row; integers in decimal, decimals unscaled, booleans
                       0/1, floats as the hex of their IEEE bits, strings "s:" + hex bytes)

or, for a file gcol must refuse, a single line "error GCOL_ERROR_...".

Files (all UNCOMPRESSED unless named otherwise; 20000 rows in row groups of 7000 and pages
of about 8 KiB, so several row groups and pages per column):
  plain_v1, plain_v2, dict_v1, dict_v2   every type gcol reads, ~10% nulls, PLAIN or
                                         dictionary values, data page v1 or v2
  required                               the same columns, no nulls (REQUIRED fields)
  delta                                  int32, int64 and timestamp DELTA_BINARY_PACKED, strings
                                         DELTA_LENGTH_BYTE_ARRAY, nulls
  decimal_flba_plain, decimal_flba_dict  decimals as FIXED_LEN_BYTE_ARRAY (precision 5..38)
  byte_stream_split                      floats and integers BYTE_STREAM_SPLIT, nulls
  int96_plain, int96_dict                legacy INT96 timestamps, nulls
  codec_C_dict_v1, codec_C_plain_v2      the columns of plain_v1 compressed with codec C (snappy,
                                         zstd, gzip, lz4_raw): dictionary values in data page v1,
                                         PLAIN values in data page v2 (levels not compressed)
  delta_byte_array                       DELTA_BYTE_ARRAY strings (shared prefixes, empty, long,
                                         multibyte), nulls
  flba_plain_v1, flba_dict_v2            FIXED_LEN_BYTE_ARRAY that is not a decimal, nulls:
                                         binary(16) and binary(3) (read as strings), uuid() when
                                         pyarrow has it (>= 18; strings), float16 when pyarrow
                                         writes it (>= 15; read as float32: zeros, subnormals,
                                         infinities, NaNs), PLAIN in data page v1 or dictionary
                                         values in data page v2
  flba_split, flba_delta                 binary(16) and float16 BYTE_STREAM_SPLIT, binary(16)
                                         DELTA_BYTE_ARRAY, when pyarrow writes them
  nested_plain_v1, nested_dict_v2,       nested columns (list<int64>, list<string>, struct,
  nested_snappy, nested_zstd_v2,         list<struct>, struct<list>, list<list<int16>>, a
  nested_delta_v1, nested_delta_v2,      required list, map<string, int32>) with nulls at every
  nested_noncompliant, nested_wide       level and empty lists: PLAIN in row groups of 1700,
                                         dictionaries in v2, SNAPPY, ZSTD v2, leaves in
                                         DELTA_BYTE_ARRAY, DELTA_LENGTH_BYTE_ARRAY,
                                         DELTA_BINARY_PACKED and BYTE_STREAM_SPLIT (SNAPPY v1,
                                         ZSTD v2), element "item", the columns twice (26
                                         leaves, SNAPPY); printed "column NAME nested", one
                                         row per line
  brotli                                 a BROTLI chunk: refused with GCOL_ERROR_UNSUPPORTED

  make_parquet_files.py OUT_DIR [SEED]
"""
import decimal
import os
import random
import struct
import sys

import pyarrow as pa
import pyarrow.parquet as pq

ROWS = 20000
GROUP = 7000
PAGE = 8192


def column_specs():
    """(name, arrow type, gcol type name, value generator taking rng)."""
    def ints(lo, hi):
        return lambda r: r.choice([lo, hi, 0, -1 if lo < 0 else 1, r.randint(lo, hi)])

    def real(r):
        return r.choice([0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1e-310,
                         r.uniform(-1e6, 1e6), r.uniform(-1, 1)])

    def text(r):
        pool = ["", "a", "héllo", "日本語", "\U0010FFFF", "x" * 40, "tail"]
        return r.choice(pool) if r.random() < 0.5 else "".join(
            r.choice("abcdefgh") for _ in range(r.randint(0, 24)))

    def dec(digits, scale):
        return lambda r: decimal.Decimal(r.randint(-10**digits + 1, 10**digits - 1)).scaleb(-scale)

    return [
        ("i8", pa.int8(), "int8", ints(-128, 127)),
        ("i16", pa.int16(), "int16", ints(-32768, 32767)),
        ("i32", pa.int32(), "int32", ints(-2**31, 2**31 - 1)),
        ("i64", pa.int64(), "int64", ints(-2**63, 2**63 - 1)),
        ("u8", pa.uint8(), "uint8", ints(0, 255)),
        ("u16", pa.uint16(), "uint16", ints(0, 65535)),
        ("u32", pa.uint32(), "uint32", ints(0, 2**32 - 1)),
        ("u64", pa.uint64(), "uint64", ints(0, 2**64 - 1)),
        ("f32", pa.float32(), "float32", real),
        ("f64", pa.float64(), "float64", real),
        ("flag", pa.bool_(), "bool8", lambda r: r.random() < 0.3),
        ("day", pa.date32(), "timestamp[D]", ints(-100000, 100000)),
        ("ts_ms", pa.timestamp("ms"), "timestamp[ms]", ints(-2**50, 2**50)),
        ("ts_us", pa.timestamp("us", tz="UTC"), "timestamp[us]", ints(-2**60, 2**60)),
        ("ts_ns", pa.timestamp("ns"), "timestamp[ns]", ints(-2**62, 2**62)),
        ("t_ms", pa.time32("ms"), "duration[ms]", ints(0, 86399999)),
        ("t_us", pa.time64("us"), "duration[us]", ints(0, 86399999999)),
        ("d9", pa.decimal128(9, 2), "decimal32", dec(9, 2)),
        ("d18", pa.decimal128(18, 4), "decimal64", dec(18, 4)),
        ("name", pa.string(), "string", text),
        ("blob", pa.binary(), "string", lambda r: bytes(r.randint(0, 255) for _ in range(r.randint(0, 9)))),
    ]


def low_cardinality(values, rng):
    """Draw from a small pool so that dictionaries stay small (and some pages are RLE runs)."""
    pool = values[:50]
    return [rng.choice(pool) if rng.random() < 0.9 else v for v in values]


def make_table(rng, nullable):
    arrays, fields, gtypes = [], [], []
    for name, atype, gname, gen in column_specs():
        values = [gen(rng) for _ in range(ROWS)]
        values = low_cardinality(values, rng)
        if nullable:
            values = [None if rng.random() < 0.1 else v for v in values]
            values[0] = None
        if pa.types.is_date(atype) or pa.types.is_timestamp(atype) or pa.types.is_time(atype):
            storage = pa.int32() if atype.bit_width == 32 else pa.int64()
            arr = pa.array(values, type=storage).cast(atype)
        else:
            arr = pa.array(values, type=atype)
        arrays.append(arr)
        fields.append(pa.field(name, atype, nullable=nullable))
        gtypes.append(gname)
    if nullable:
        # a struct: read as one STRUCT column (printed as nested rows "{a,b}")
        a = [None if rng.random() < 0.1 else rng.randint(-1000, 1000) for _ in range(ROWS)]
        b = [None if rng.random() < 0.1 else rng.choice(["p", "q", ""]) for _ in range(ROWS)]
        mask = pa.array([rng.random() < 0.1 for _ in range(ROWS)])
        st = pa.StructArray.from_arrays([pa.array(a, pa.int32()), pa.array(b, pa.string())],
                                        names=["a", "b"], mask=mask)
        arrays.append(st)
        fields.append(pa.field("st", st.type))
        gtypes.append(None)
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields)), gtypes


def nested_makers(rng):
    """Random nested values over rng (nested_table, test_parquet_duckdb.py): maybe(v) (None one
    time in ten), items(gen) (None, or a list of 0, 1, 2 or `most` maybe-values), word() and
    small_struct() ({"a": int, "b": word})."""
    def maybe(v, p=0.1):
        return None if rng.random() < p else v

    def items(gen, most=5):
        return maybe([maybe(gen()) for _ in range(rng.choice([0, 1, 2, most]))])

    def word():
        return rng.choice(["", "a", "héllo", "日本語", "x" * 30, "tail"])

    def small_struct():
        return {"a": maybe(rng.randint(-1000, 1000)), "b": maybe(word())}

    return maybe, items, word, small_struct


def nested_table(rng):
    """list<int64>, list<string>, struct<int32, string>, list<struct<...>>, struct<list<...>>,
    list<list<int16>>, map<string, int32>, with nulls at every level and empty lists, and a flat
    column between them."""
    n = ROWS // 4

    maybe, items, word, small_struct = nested_makers(rng)

    st_type = pa.struct([("a", pa.int32()), ("b", pa.string())])
    lst_type = pa.struct([("x", pa.int64()), ("y", pa.list_(pa.string()))])
    cols = {
        "li": pa.array([items(lambda: rng.randint(-2**63, 2**63 - 1)) for _ in range(n)],
                       pa.list_(pa.int64())),
        "ls": pa.array([items(word) for _ in range(n)], pa.list_(pa.string())),
        "st": pa.array([maybe(small_struct()) for _ in range(n)], st_type),
        "flat": pa.array([maybe(i) for i in range(n)], pa.int32()),
        "lst": pa.array([items(small_struct) for _ in range(n)], pa.list_(st_type)),
        "stl": pa.array([maybe({"x": maybe(rng.randint(0, 9)), "y": items(word)})
                         for _ in range(n)], lst_type),
        "lli": pa.array([items(lambda: items(lambda: rng.randint(-32768, 32767)))
                         for _ in range(n)], pa.list_(pa.list_(pa.int16()))),
        "req": pa.array([[rng.randint(0, 5) for _ in range(rng.randint(0, 3))]
                         for _ in range(n)], pa.list_(pa.field("element", pa.int32(),
                                                               nullable=False))),
        "m": pa.array([maybe([(word(), maybe(rng.randint(0, 99)))
                              for _ in range(rng.randint(0, 3))]) for _ in range(n)],
                      pa.map_(pa.string(), pa.int32())),
    }
    schema = pa.schema([pa.field(k, v.type, nullable=(k != "req")) for k, v in cols.items()])
    return pa.Table.from_arrays(list(cols.values()), schema=schema)


def value_line(atype, v):
    if v is None:
        return "null"
    if pa.types.is_floating(atype):
        if atype.bit_width == 32:
            return "%08x" % struct.unpack("<I", struct.pack("<f", v))[0]
        return "%016x" % struct.unpack("<Q", struct.pack("<d", v))[0]
    if pa.types.is_boolean(atype):
        return "1" if v else "0"
    if pa.types.is_decimal(atype):
        return str(int(v.scaleb(atype.scale)))
    if pa.types.is_string(atype):
        return "s:" + v.encode("utf-8").hex()
    if pa.types.is_binary(atype) or pa.types.is_fixed_size_binary(atype):
        return "s:" + v.hex()
    return str(v)


def is_nested(atype):
    return pa.types.is_struct(atype) or pa.types.is_list(atype) or pa.types.is_large_list(atype) \
        or pa.types.is_map(atype)


def nested_line(atype, v):
    """A row of a nested column as parquet_dump prints it: null, [V,...], {V,...}."""
    if v is None:
        return "null"
    if pa.types.is_map(atype):  # read as list<struct<key, value>>
        return "[" + ",".join("{%s,%s}" % (nested_line(atype.key_type, k),
                                            nested_line(atype.item_type, x))
                              for k, x in v) + "]"
    if pa.types.is_list(atype) or pa.types.is_large_list(atype):
        return "[" + ",".join(nested_line(atype.value_type, x) for x in v) + "]"
    if pa.types.is_struct(atype):
        return "{" + ",".join(nested_line(f.type, v[f.name]) for f in atype) + "}"
    return value_line(atype, v)


def leaf_columns(table, gtypes):
    """(name, gcol type name, arrow type, python values) of every column; a struct or a list
    is one column of type "nested" (its rows printed by nested_line)."""
    out = []
    for field, gname in zip(table.schema, gtypes):
        arr = table.column(field.name).combine_chunks()
        if is_nested(field.type):
            out.append((field.name, "nested", field.type, arr.to_pylist()))
            continue
        atype = field.type
        if pa.types.is_date(atype) or pa.types.is_time(atype) or pa.types.is_timestamp(atype):
            storage = pa.int32() if atype.bit_width == 32 else pa.int64()
            vals = arr.cast(storage).to_pylist()
            atype = storage
        else:
            vals = arr.to_pylist()
        out.append((field.name, gname, atype, vals))
    return out


def write_expected(path, table, gtypes):
    md = pq.ParquetFile(path).metadata
    with open(path[:-len(".parquet")] + ".expected", "w") as f:
        f.write("rows %d\nrow_groups %d\n" % (md.num_rows, md.num_row_groups))
        for name, gname, atype, vals in leaf_columns(table, gtypes):
            f.write("column %s %s\n" % (name, gname))
            for v in vals:
                f.write((nested_line(atype, v) if gname == "nested" else value_line(atype, v))
                        + "\n")


def half_to_float_bits(h):
    """The float32 bits gcol reads for the IEEE half of bits h (exact; NaNs keep their
    payload, which a trip through a Python float would not promise)."""
    sign = 0x80000000 if h & 0x8000 else 0
    if (h >> 10) & 0x1f == 31 and h & 0x3ff:
        return sign | 0x7f800000 | (h & 0x3ff) << 13
    value = struct.unpack("<e", struct.pack("<H", h))[0]
    return struct.unpack("<I", struct.pack("<f", value))[0]


def from_bits(atype, width, values):
    """An array of `atype` whose values are the given bytes of `width` each (None: null),
    built from buffers so that every bit is as given (float16 NaN payloads included)."""
    valid = pa.array([v is not None for v in values], pa.bool_()).buffers()[1]
    data = pa.py_buffer(b"".join(v if v is not None else bytes(width) for v in values))
    return pa.Array.from_buffers(atype, len(values), [valid, data],
                                 null_count=values.count(None))


def pyarrow_writes(table, **kw):
    """Whether this pyarrow writes `table` with these options (older ones refuse float16,
    BYTE_STREAM_SPLIT or DELTA_BYTE_ARRAY of FIXED_LEN_BYTE_ARRAY)."""
    try:
        pq.write_table(table, pa.BufferOutputStream(), compression="none", **kw)
        return True
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid, TypeError, ValueError):
        return False


def flba_table(rng):
    """FIXED_LEN_BYTE_ARRAY columns other than decimals, ~10% nulls, values from small pools
    (dictionaries) and random ones, and what gcol reads of each: (table, [(name, gcol type
    name, expected lines)])."""
    def draw(pool, fresh):
        return [None if rng.random() < 0.1 else rng.choice(pool) if rng.random() < 0.8 else
                fresh() for _ in range(ROWS)]
    def random_bytes(n):
        return lambda: bytes(rng.randrange(256) for _ in range(n))
    bin16 = draw([bytes(16), b"\xff" * 16] + [random_bytes(16)() for _ in range(30)],
                 random_bytes(16))
    bin3 = draw([b"\x00\x00\x00", b"a\x00b"] + [random_bytes(3)() for _ in range(20)],
                random_bytes(3))
    specials = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0200, 0x0400, 0x7bff, 0xfbff,
                0x3c00, 0xc000, 0x3555, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7d01]
    halves = draw(specials, lambda: rng.randrange(65536))
    halves[1:1 + len(specials)] = specials  # each read at least once
    columns = [("bin16", pa.array(bin16, pa.binary(16)), "string"),
               ("bin3", pa.array(bin3, pa.binary(3)), "string")]
    expected = [("bin16", "string", [value_line(pa.binary(), v) for v in bin16]),
                ("bin3", "string", [value_line(pa.binary(), v) for v in bin3])]
    if hasattr(pa, "uuid"):
        uuids = draw([random_bytes(16)() for _ in range(30)], random_bytes(16))
        storage = pa.array(uuids, pa.binary(16))
        columns.append(("uuid", pa.ExtensionArray.from_storage(pa.uuid(), storage), "string"))
        expected.append(("uuid", "string", [value_line(pa.binary(), v) for v in uuids]))
    half = from_bits(pa.float16(), 2,
                     [None if h is None else struct.pack("<H", h) for h in halves])
    if pyarrow_writes(pa.table({"half": half})):
        columns.append(("half", half, "float32"))
        expected.append(("half", "float32", ["null" if h is None else
                                              "%08x" % half_to_float_bits(h) for h in halves]))
    table = pa.table({name: arr for name, arr, _ in columns})
    return table, expected


def write_expected_lines(path, expected):
    """FILE.expected from (name, gcol type name, value lines) per column."""
    md = pq.ParquetFile(path).metadata
    with open(path[:-len(".parquet")] + ".expected", "w") as f:
        f.write("rows %d\nrow_groups %d\n" % (md.num_rows, md.num_row_groups))
        for name, gname, lines in expected:
            f.write("column %s %s\n" % (name, gname))
            f.write("".join(line + "\n" for line in lines))


def write(path, table, **kw):
    kw.setdefault("compression", "none")
    kw.setdefault("row_group_size", GROUP)
    kw.setdefault("data_page_size", PAGE)
    kw.setdefault("store_decimal_as_integer", True)
    try:
        pq.write_table(table, path, **kw)
    except TypeError:  # an older pyarrow: decimals as FIXED_LEN_BYTE_ARRAY, not read yet
        raise SystemExit("make_parquet_files.py needs pyarrow with store_decimal_as_integer")


def main():
    out = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 14
    rng = random.Random(seed)
    decimal.getcontext().prec = 60  # 38-digit decimals, unrounded
    os.makedirs(out, exist_ok=True)
    table, gtypes = make_table(rng, nullable=True)
    for dictionary in (False, True):
        for version in ("1.0", "2.0"):
            name = "%s_v%s" % ("dict" if dictionary else "plain", version[0])
            path = os.path.join(out, name + ".parquet")
            write(path, table, use_dictionary=dictionary, data_page_version=version)
            write_expected(path, table, gtypes)
    required, rgtypes = make_table(rng, nullable=False)
    path = os.path.join(out, "required.parquet")
    write(path, required, use_dictionary=True, data_page_version="2.0")
    write_expected(path, required, rgtypes)

    # DELTA_BINARY_PACKED integers: sequences, random values, extremes (wrapping deltas), nulls
    def ints(bits, n):
        lo, hi = -2**(bits - 1), 2**(bits - 1) - 1
        out = []
        for i in range(n):
            k = rng.random()
            out.append(None if k < 0.1 else i * 3 if k < 0.5 else rng.choice([lo, hi])
                       if k < 0.55 else rng.randint(lo, hi))
        return out
    delta = pa.table({"d32": pa.array(ints(32, ROWS), pa.int32()),
                      "d64": pa.array(ints(64, ROWS), pa.int64()),
                      "dts": pa.array(ints(48, ROWS), pa.int64()).cast(pa.timestamp("us"))})
    delta = delta.append_column("dls", pa.array(
        [None if rng.random() < 0.1 else "x" * rng.randint(0, 30) + "é" * rng.randint(0, 3)
         for _ in range(ROWS)]))
    path = os.path.join(out, "delta.parquet")
    write(path, delta, use_dictionary=False,
          column_encoding=dict({c: "DELTA_BINARY_PACKED" for c in delta.column_names[:3]},
                               dls="DELTA_LENGTH_BYTE_ARRAY"))
    write_expected(path, delta, ["int32", "int64", "timestamp[us]", "string"])

    # DELTA_BYTE_ARRAY strings: sorted keys sharing prefixes, unrelated ones, empty and long
    # values, nulls
    def incremental(i):
        k = rng.random()
        return (None if k < 0.1 else "key/%06d/%d" % (i // 3, i) if k < 0.5 else ""
                if k < 0.6 else "z" * rng.randint(200, 2000) if k < 0.62 else
                "é" * rng.randint(0, 4) + str(rng.randint(0, 10**9)))
    dba = pa.table({"dba": pa.array([incremental(i) for i in range(ROWS)])})
    path = os.path.join(out, "delta_byte_array.parquet")
    write(path, dba, use_dictionary=False, column_encoding={"dba": "DELTA_BYTE_ARRAY"})
    write_expected(path, dba, ["string"])

    # decimals as FIXED_LEN_BYTE_ARRAY (pyarrow's default): decimal32/64/128 by precision
    def decimals(digits, scale):
        pool = [decimal.Decimal(rng.randint(-10**digits + 1, 10**digits - 1)).scaleb(-scale)
                for _ in range(40)]
        pool += [decimal.Decimal(10**digits - 1).scaleb(-scale),
                 decimal.Decimal(-10**digits + 1).scaleb(-scale), decimal.Decimal(0)]
        return [None if rng.random() < 0.1 else rng.choice(pool) if rng.random() < 0.7 else
                decimal.Decimal(rng.randint(-10**digits + 1, 10**digits - 1)).scaleb(-scale)
                for _ in range(ROWS)]
    specs = [("d5", 5, 0, "decimal32"), ("d9", 9, 2, "decimal32"), ("d18", 18, 4, "decimal64"),
             ("d30", 30, 7, "decimal128"), ("d38", 38, 10, "decimal128")]
    flba = pa.table({n: pa.array(decimals(p, sc), pa.decimal128(p, sc)) for n, p, sc, _ in specs})
    for dictionary in (False, True):
        name = "decimal_flba_%s" % ("dict" if dictionary else "plain")
        path = os.path.join(out, name + ".parquet")
        write(path, flba, use_dictionary=dictionary, store_decimal_as_integer=False)
        write_expected(path, flba, [g for _, _, _, g in specs])

    # FIXED_LEN_BYTE_ARRAY binary, UUID and FLOAT16: PLAIN (v1), dictionary (v2), and the
    # encodings pyarrow may refuse for them (then their file is left out)
    fixed, fixed_expected = flba_table(rng)
    for name, kw in (("flba_plain_v1", dict(use_dictionary=False, data_page_version="1.0")),
                     ("flba_dict_v2", dict(use_dictionary=True, data_page_version="2.0"))):
        path = os.path.join(out, name + ".parquet")
        write(path, fixed, **kw)
        write_expected_lines(path, fixed_expected)
    split_names = [n for n in ("bin16", "half") if n in fixed.column_names]
    encoded = {"flba_split": (split_names, "BYTE_STREAM_SPLIT"),
               "flba_delta": (["bin16"], "DELTA_BYTE_ARRAY")}
    for name, (cols, encoding) in encoded.items():
        part = fixed.select(cols)
        kw = dict(use_dictionary=False, column_encoding={c: encoding for c in cols})
        if not pyarrow_writes(part, **kw):
            continue
        path = os.path.join(out, name + ".parquet")
        write(path, part, **kw)
        write_expected_lines(path, [e for e in fixed_expected if e[0] in cols])

    small = pa.table({"x": pa.array(range(1000), pa.int64()),
                      "s": pa.array([str(i % 37) for i in range(1000)]),
                      "f": pa.array([i / 7 for i in range(1000)], pa.float64())})
    # legacy INT96 timestamps (Impala, Spark), plain and dictionary
    ns = [None if rng.random() < 0.1 else rng.randint(-2**62, 2**62) for _ in range(ROWS)]
    legacy = pa.table({"ts96": pa.array(ns, pa.int64()).cast(pa.timestamp("ns"))})
    for dictionary in (False, True):
        path = os.path.join(out, "int96_%s.parquet" % ("dict" if dictionary else "plain"))
        write(path, legacy, use_dictionary=dictionary, use_deprecated_int96_timestamps=True)
        write_expected(path, legacy, ["timestamp[ns]"])

    # BYTE_STREAM_SPLIT floats and integers, with nulls
    split = pa.table({"f32": pa.array([None if i % 11 == 0 else i / 3 for i in range(ROWS)],
                                      pa.float32()),
                      "f64": pa.array([None if i % 7 == 0 else -i / 7 for i in range(ROWS)]),
                      "i32": pa.array([i * 7919 - 5 for i in range(ROWS)], pa.int32()),
                      "i64": pa.array([None if i % 5 == 0 else i * -104729 for i in range(ROWS)],
                                      pa.int64())})
    path = os.path.join(out, "byte_stream_split.parquet")
    try:
        write(path, split, use_dictionary=False,
              column_encoding={c: "BYTE_STREAM_SPLIT" for c in split.column_names})
        split_types = ["float32", "float64", "int32", "int64"]
    except Exception:  # a pyarrow that splits only floats
        split = split.select(["f32", "f64"])
        write(path, split, use_dictionary=False,
              column_encoding={c: "BYTE_STREAM_SPLIT" for c in split.column_names})
        split_types = ["float32", "float64"]
    write_expected(path, split, split_types)

    # compressed pages: every codec gcol reads (the host libraries, loaded at run time)
    for codec, arrow_name in (("snappy", "snappy"), ("zstd", "zstd"), ("gzip", "gzip"),
                              ("lz4_raw", "lz4")):
        for dictionary, version in ((True, "1.0"), (False, "2.0")):
            name = "codec_%s_%s_v%s" % (codec, "dict" if dictionary else "plain", version[0])
            path = os.path.join(out, name + ".parquet")
            write(path, table, use_dictionary=dictionary, data_page_version=version,
                  compression=arrow_name)
            # pyarrow names LZ4_RAW chunks "LZ4" (it writes no other LZ4)
            got = pq.ParquetFile(path).metadata.row_group(0).column(0).compression
            if got.lower() != codec.replace("_raw", ""):
                raise SystemExit("pyarrow wrote %s for compression=%s" % (got, arrow_name))
            write_expected(path, table, gtypes)

    # nested columns: lists and structs with nulls at every level and empty lists, in several
    # pages, row groups, with dictionaries, data page v2, a codec
    nested = nested_table(rng)
    nested_types = ["int32" if f.name == "flat" else "nested" for f in nested.schema]
    for name, kw in (("nested_plain_v1", dict(use_dictionary=False, row_group_size=1700)),
                     ("nested_dict_v2", dict(use_dictionary=True, data_page_version="2.0")),
                     ("nested_snappy", dict(use_dictionary=True, compression="snappy")),
                     ("nested_zstd_v2", dict(use_dictionary=False, data_page_version="2.0",
                                             compression="zstd"))):
        path = os.path.join(out, name + ".parquet")
        write(path, nested, **kw)
        write_expected(path, nested, nested_types)
    # nested leaves in the DELTA encodings and BYTE_STREAM_SPLIT: DELTA_BYTE_ARRAY pages are
    # rewritten on the host with their repetition levels, the others decode on the GPU
    delta = {"ls.list.element": "DELTA_BYTE_ARRAY", "stl.y.list.element": "DELTA_BYTE_ARRAY",
             "st.b": "DELTA_LENGTH_BYTE_ARRAY", "li.list.element": "DELTA_BINARY_PACKED",
             "lli.list.element.list.element": "BYTE_STREAM_SPLIT"}
    for name, kw in (("nested_delta_v1", dict(compression="snappy", row_group_size=1700)),
                     ("nested_delta_v2", dict(compression="zstd", data_page_version="2.0"))):
        path = os.path.join(out, name + ".parquet")
        write(path, nested, use_dictionary=False, column_encoding=delta, **kw)
        write_expected(path, nested, nested_types)
    # lists whose element is named "item" (pyarrow's non-compliant naming), 3 levels
    path = os.path.join(out, "nested_noncompliant.parquet")
    write(path, nested, use_compliant_nested_type=False)
    write_expected(path, nested, nested_types)
    # the nested columns twice: 26 leaves, more than one launch of the GPU's page pass takes
    wide = pa.Table.from_arrays(nested.columns + nested.columns,
                                names=nested.column_names + [k + "2" for k in nested.column_names])
    path = os.path.join(out, "nested_wide.parquet")
    write(path, wide, use_dictionary=True, compression="snappy", row_group_size=GROUP)
    write_expected(path, wide, nested_types + nested_types)

    refused = {
        "brotli": (small, dict(compression="brotli")),
    }
    for name, (t, kw) in refused.items():
        path = os.path.join(out, name + ".parquet")
        write(path, t, **kw)
        with open(os.path.join(out, name + ".expected"), "w") as f:
            f.write("error GCOL_ERROR_UNSUPPORTED\n")


if __name__ == "__main__":
    main()
