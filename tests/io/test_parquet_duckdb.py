#!/usr/bin/env python3
"""Files written by DuckDB, read by gcol; files gcol writes, read by DuckDB (suite clients).

DuckDB writes one table (seeded; 9000 rows in row groups of 2048, so 5 row groups; about 10%
nulls in every column, the first row null everywhere) with COPY (SELECT ...) TO (FORMAT
PARQUET) once per codec: UNCOMPRESSED, SNAPPY, ZSTD, GZIP, LZ4 (DuckDB writes LZ4_RAW), and with
PARQUET_VERSION V2 (data page v2 and DuckDB's DELTA_* encodings) uncompressed and ZSTD when
this DuckDB has that option. The table's columns, as DuckDB types and what gcol reads:
  TINYINT..BIGINT, UTINYINT..UBIGINT   int8..int64, uint8..uint64 (extremes, 0, -1, random)
  FLOAT, DOUBLE                        float32, float64 (±0, ±inf, NaN, subnormals)
  BOOLEAN, DATE                        bool8, timestamp[D]
  TIMESTAMP, _MS, _S, _NS, TIMESTAMPTZ timestamp[us], [ms], [us] (DuckDB writes _S as
                                       microseconds), [ns], [us]
  TIME                                 duration[us]
  DECIMAL(4,1), (9,2), (18,4)          decimal32, decimal32, decimal64 (DuckDB: INT32, INT64)
  DECIMAL(30,6), (38,10)               decimal128 (DuckDB: FIXED_LEN_BYTE_ARRAY(16))
  HUGEINT                              float64 (DuckDB writes HUGEINT as DOUBLE)
  UUID                                 string of the 16 bytes (FIXED_LEN_BYTE_ARRAY(16), UUID)
  ENUM, VARCHAR                        string (multi-byte UTF-8, empty strings; small pools for
                                       DuckDB's dictionaries and random values)
  BLOB                                 string of the bytes
  BIGINT[], VARCHAR[], STRUCT(a, b), STRUCT(a, b)[], STRUCT(x, y VARCHAR[]), SMALLINT[][],
  MAP(VARCHAR, INTEGER), INTEGER[3]    nested (a MAP as list<struct<key, value>>, an ARRAY as a
                                       list), nulls at every level, empty lists; the ARRAY has
                                       null elements but no NULL array (below)
For each file, what pyarrow reads of it (make_parquet_files.py's text form) must equal what
gcol reads (parquet_dump; --host without a GPU: the same plan and page decoders on the CPU) line
by line, and DuckDB's own reading must agree with pyarrow's on most columns (so a misreading
by pyarrow cannot hide one by gcol). A compressed file whose codec library is missing here is
skipped, saying so.

Types gcol refuses: an INTERVAL column (FIXED_LEN_BYTE_ARRAY(12)) and a BROTLI chunk must give
"error GCOL_ERROR_UNSUPPORTED", a message naming them, and a clean exit. A NULL INTEGER[3]:
DuckDB (at least to 2.0.1, duckdb/duckdb#24731) writes a level entry for each of the 3 slots
of a NULL array, repetition 1 continuing a list that is null, which pyarrow refuses ("Length
spanned by list offsets ... larger than values array"); gcol must refuse it too, with
GCOL_ERROR_INVALID_ARGUMENT and a clean exit, or, once pyarrow reads the file (a DuckDB that
writes it right), read what pyarrow reads. Not covered: TIMETZ, UHUGEINT, BIT, VARINT, UNION
and JSON (DuckDB writes them as TIME, DOUBLE, strings or a struct, kinds the columns above
cover), GEOMETRY, and the values of INTERVAL.

gcol writes, DuckDB reads: parquet_dump --rewrite writes the flat columns gcol read from the
UNCOMPRESSED file (not TIME: gcol does not write durations; not BLOB and UUID: gcol writes
strings as UTF-8, which their bytes are not; not DECIMAL(30,6) and (38,10): gcol's writer does
not write decimal128 yet) with no codec, SNAPPY, ZSTD, and dictionaries
(--dictionary=always; the host writer writes PLAIN whatever it says); DuckDB's read_parquet
must read the same values as pyarrow read from the source, and the codec written (a codec
whose library is missing skips).

TAP output; `1..0 # SKIP` without pyarrow or duckdb.

  test_parquet_duckdb.py PATH/TO/parquet_dump PATH/TO/make_parquet_files.py
"""
import decimal
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import uuid

from client_tap import dump_mode, missing_codec, report_difference, skip


try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError:
    skip("pyarrow is not installed")
try:
    import duckdb
except ImportError:
    skip("duckdb is not installed")

dump, script = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("make_parquet_files", script)
maker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(maker)

ROWS = 9000
GROUP = 2048  # DuckDB rounds ROW_GROUP_SIZE to a multiple of its vector size (2048)
SEED = 23


def columns(rng):
    """(name, DuckDB type, gcol type name, arrow type given to DuckDB, value generator)."""
    def ints(lo, hi):
        return lambda: rng.choice([lo, hi, 0, -1 if lo < 0 else 1, rng.randint(lo, hi),
                                   rng.randint(lo, hi)])

    def real():
        return rng.choice([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-310,
                           1e-40, rng.uniform(-1e6, 1e6), rng.uniform(-1, 1)])

    def text():
        pool = ["", "a", "héllo", "日本語", "\U0010FFFF", "x" * 40, "tail", "ünï ☃"]
        return rng.choice(pool) if rng.random() < 0.6 else "".join(
            rng.choice("abcdefghé日") for _ in range(rng.randint(0, 30)))

    def dec(digits, scale):
        def gen():
            d = rng.choice([10**digits - 1, -10**digits + 1, 0,
                            rng.randint(-10**digits + 1, 10**digits - 1)])
            return decimal.Decimal(d).scaleb(-scale)
        return gen

    maybe, items, word, small_struct = maker.nested_makers(rng)

    def a_map():
        keys = rng.sample(["k", "", "ключ", "鍵", "key4", "k5"], rng.randint(0, 3))
        return maybe([(k, maybe(rng.randint(-99, 99))) for k in keys])

    st = pa.struct([("a", pa.int32()), ("b", pa.string())])
    stl = pa.struct([("x", pa.int64()), ("y", pa.list_(pa.string()))])
    day, us = 86400, 86400 * 10**6
    return [
        ("i8", "TINYINT", "int8", pa.int8(), ints(-128, 127)),
        ("i16", "SMALLINT", "int16", pa.int16(), ints(-32768, 32767)),
        ("i32", "INTEGER", "int32", pa.int32(), ints(-2**31, 2**31 - 1)),
        ("i64", "BIGINT", "int64", pa.int64(), ints(-2**63, 2**63 - 1)),
        ("u8", "UTINYINT", "uint8", pa.uint8(), ints(0, 255)),
        ("u16", "USMALLINT", "uint16", pa.uint16(), ints(0, 65535)),
        ("u32", "UINTEGER", "uint32", pa.uint32(), ints(0, 2**32 - 1)),
        ("u64", "UBIGINT", "uint64", pa.uint64(), ints(0, 2**64 - 1)),
        ("f32", "FLOAT", "float32", pa.float32(), real),
        ("f64", "DOUBLE", "float64", pa.float64(), real),
        ("flag", "BOOLEAN", "bool8", pa.bool_(), lambda: rng.random() < 0.3),
        ("day", "DATE", "timestamp[D]", pa.date32(), ints(-700000, 700000)),
        ("ts", "TIMESTAMP", "timestamp[us]", pa.timestamp("us"), ints(-2**55, 2**55)),
        ("ts_ms", "TIMESTAMP_MS", "timestamp[ms]", pa.timestamp("ms"), ints(-2**45, 2**45)),
        ("ts_s", "TIMESTAMP_S", "timestamp[us]", pa.timestamp("s"), ints(-2**35, 2**35)),
        ("ts_ns", "TIMESTAMP_NS", "timestamp[ns]", pa.timestamp("ns"), ints(-2**62, 2**62)),
        ("tstz", "TIMESTAMPTZ", "timestamp[us]", pa.timestamp("us", tz="UTC"),
         ints(-2**55, 2**55)),
        ("t", "TIME", "duration[us]", pa.time64("us"), ints(0, us - 1)),
        ("d4", "DECIMAL(4,1)", "decimal32", pa.decimal128(4, 1), dec(4, 1)),
        ("d9", "DECIMAL(9,2)", "decimal32", pa.decimal128(9, 2), dec(9, 2)),
        ("d18", "DECIMAL(18,4)", "decimal64", pa.decimal128(18, 4), dec(18, 4)),
        ("d30", "DECIMAL(30,6)", "decimal128", pa.decimal128(30, 6), dec(30, 6)),
        ("d38", "DECIMAL(38,10)", "decimal128", pa.decimal128(38, 10), dec(38, 10)),
        ("huge", "HUGEINT", "float64", pa.decimal128(38, 0), dec(30, 0)),
        ("uid", "UUID", "string", pa.string(),
         lambda: str(uuid.UUID(int=rng.getrandbits(128)))),
        ("en", "ENUM('red', 'green', 'blue', '', 'ünï')", "string", pa.string(),
         lambda: rng.choice(["red", "green", "blue", "", "ünï"])),
        ("name", "VARCHAR", "string", pa.string(), text),
        ("blob", "BLOB", "string", pa.binary(),
         lambda: bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))),
        ("li", "BIGINT[]", "nested", pa.list_(pa.int64()),
         lambda: items(lambda: rng.randint(-2**63, 2**63 - 1))),
        ("ls", "VARCHAR[]", "nested", pa.list_(pa.string()), lambda: items(word)),
        ("st", "STRUCT(a INTEGER, b VARCHAR)", "nested", st, small_struct),
        ("lst", "STRUCT(a INTEGER, b VARCHAR)[]", "nested", pa.list_(st),
         lambda: items(small_struct)),
        ("stl", "STRUCT(x BIGINT, y VARCHAR[])", "nested", stl,
         lambda: {"x": maybe(rng.randint(0, 9)), "y": items(word)}),
        ("lli", "SMALLINT[][]", "nested", pa.list_(pa.list_(pa.int16())),
         lambda: items(lambda: items(lambda: rng.randint(-32768, 32767)))),
        ("m", "MAP(VARCHAR, INTEGER)", "nested", pa.map_(pa.string(), pa.int32()), a_map),
        ("arr", "INTEGER[3]", "nested", pa.list_(pa.int32(), 3),
         lambda: [maybe(rng.randint(-5, 5)) for _ in range(3)]),
    ]


def source(rng):
    """The table given to DuckDB, the SELECT list casting it to DuckDB's types, and the gcol
    type name of each column."""
    arrays, select, gtypes = {}, [], []
    for name, dtype, gname, atype, gen in columns(rng):
        pool = [gen() for _ in range(40)]  # repeats, so that DuckDB writes dictionaries
        values = [None if rng.random() < 0.1 else rng.choice(pool) if rng.random() < 0.5
                  else gen() for _ in range(ROWS)]
        values[0] = None
        if name == "arr":  # a NULL ARRAY is written as invalid levels (null_array below)
            values = [v if v is not None else [None, rng.randint(-5, 5), None] for v in values]
        if pa.types.is_temporal(atype):
            storage = pa.int32() if atype.bit_width == 32 else pa.int64()
            arrays[name] = pa.array(values, storage).cast(atype)
        else:
            arrays[name] = pa.array(values, atype)
        select.append(f"CAST({name} AS {dtype}) AS {name}")
        gtypes.append(gname)
    return pa.table(arrays), ", ".join(select), gtypes


def plain(table):
    """`table` with extension columns (pyarrow's uuid) as their storage."""
    cols = []
    for col in table.columns:
        if isinstance(col.type, pa.BaseExtensionType):
            col = pa.chunked_array([c.storage for c in col.chunks], col.type.storage_type)
        cols.append(col)
    return pa.table(cols, names=table.column_names)


def lines(table, gtypes):
    """{column: [value lines]} in make_parquet_files.py's text form."""
    out = {}
    for name, gname, atype, vals in maker.leaf_columns(plain(table), gtypes):
        line = maker.nested_line if gname == "nested" else maker.value_line
        out[name] = [line(atype, v) for v in vals]
    return out


def first_difference(got, want):
    k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return (k, got[k] if k < len(got) else "<missing>", want[k] if k < len(want) else "<missing>")


def arrow(con, query):
    """A query's result as a pyarrow table (DuckDB 2 names it to_arrow_table, 1.x arrow)."""
    result = con.sql(query)
    fetch = getattr(result, "to_arrow_table", None) or result.arrow
    return fetch()


def in_units_of(table, like):
    """`table` with its timestamps in the units of those of `like` (DuckDB reads TIMESTAMP_MS
    and _NS files as its own types; a cast that loses digits raises)."""
    cols = []
    for name in table.column_names:
        col, want = table.column(name), like.schema.field(name).type
        if pa.types.is_timestamp(col.type) and pa.types.is_timestamp(want) and col.type != want:
            col = col.cast(want)
        cols.append(col)
    return pa.table(cols, names=table.column_names)


def copy(con, select, path, options):
    con.execute(f"COPY (SELECT {select} FROM src) TO '{path}' (FORMAT PARQUET, {options})")


with tempfile.TemporaryDirectory() as tmp:
    rng = random.Random(SEED)
    decimal.getcontext().prec = 60
    table, select, gtypes = source(rng)
    con = duckdb.connect()
    con.execute("SET threads = 1")  # row groups in order, the same layout every run
    con.register("src", table)

    files = [(c.lower(), f"COMPRESSION {c}")
             for c in ("UNCOMPRESSED", "SNAPPY", "ZSTD", "GZIP", "LZ4")]
    files += [("v2", "COMPRESSION UNCOMPRESSED, PARQUET_VERSION V2"),
              ("zstd_v2", "COMPRESSION ZSTD, PARQUET_VERSION V2")]
    written, notes = [], []
    for name, options in files:
        path = os.path.join(tmp, name + ".parquet")
        try:
            copy(con, select, path, options + f", ROW_GROUP_SIZE {GROUP}")
        except duckdb.Error as e:
            if "PARQUET_VERSION" in options:  # an older DuckDB: no data page v2
                notes.append(f"{name}: this DuckDB does not write it ({e})")
                continue
            raise
        written.append(name)
        maker.write_expected(path, plain(pq.ParquetFile(path).read()), gtypes)
    # refused: an INTERVAL column; a BROTLI chunk (the others uncompressed: not DuckDB's
    # default SNAPPY, whose library may be missing)
    copy(con, "i32, INTERVAL 3 DAY + to_microseconds(i32::BIGINT + 2147483648) AS iv",
         os.path.join(tmp, "interval.parquet"), "COMPRESSION UNCOMPRESSED")
    copy(con, "i32, name", os.path.join(tmp, "brotli.parquet"), "COMPRESSION BROTLI")
    refused = [("interval", "INTERVAL"), ("brotli", "BROTLI")]
    # NULL arrays among others, in a few row groups
    con.execute(f"COPY (SELECT i32, CASE WHEN i32 IS NULL THEN NULL ELSE arr END AS arr "
                f"FROM (SELECT {select} FROM src)) TO '{tmp}/null_array.parquet' "
                f"(FORMAT PARQUET, COMPRESSION UNCOMPRESSED, ROW_GROUP_SIZE {GROUP})")
    try:
        path = os.path.join(tmp, "null_array.parquet")
        maker.write_expected(path, pq.ParquetFile(path).read(), ["int32", "nested"])
    except pa.ArrowInvalid as e:  # duckdb/duckdb#24731: gcol must refuse it
        with open(os.path.join(tmp, "null_array.expected"), "w") as f:
            f.write("error GCOL_ERROR_INVALID_ARGUMENT\n")
        notes.append(f"null_array: pyarrow refuses DuckDB's NULL ARRAY ({e})")
    rewrites = [("plain", None, None), ("snappy", "snappy", None), ("zstd", "zstd", None),
                ("dict", None, "always")]

    print(f"1..{2 * len(written) + len(refused) + 1 + len(rewrites)}")
    print(f"# duckdb {duckdb.__version__}, pyarrow {pa.__version__}, seed {SEED}")
    for note in notes:
        print(f"# {note}")
    mode, where = dump_mode(dump, os.path.join(tmp, written[0] + ".parquet"))
    failed = 0
    n = 0

    # DuckDB's files, read by gcol against pyarrow's reading
    for name in written:
        n += 1
        path = os.path.join(tmp, name + ".parquet")
        md = pq.ParquetFile(path).metadata
        layout = (f"{md.num_row_groups} row groups, "
                  f"{md.row_group(0).column(0).compression}, encodings " +
                  "/".join(sorted({e for g in range(md.num_row_groups)
                                   for k in range(md.num_columns)
                                   for e in md.row_group(g).column(k).encodings})))
        r = subprocess.run([dump] + mode + [path], capture_output=True, text=True, timeout=300)
        got = r.stdout.splitlines()
        with open(os.path.join(tmp, name + ".expected")) as f:
            want = f.read().splitlines()
        why = missing_codec(r.stderr)
        if got == ["error GCOL_ERROR_UNSUPPORTED"] and why:
            print(f"ok {n} - DuckDB's {name} read by gcol # SKIP {why}")
            continue
        if md.num_row_groups < 3:
            failed += 1
            print(f"not ok {n} - DuckDB's {name}: {layout}, not several row groups")
            continue
        if r.returncode == 0 and got == want:
            print(f"ok {n} - DuckDB's {name} read by gcol ({layout}){where}")
            continue
        failed += 1
        print(f"not ok {n} - DuckDB's {name} read by gcol ({layout}){where} "
              f"(exit {r.returncode})")
        report_difference(got, want, r.stderr)

    # DuckDB's own reading against pyarrow's (not UUID and ENUM: DuckDB returns them as its
    # own types, not the bytes in the file)
    check = [c for c in table.column_names if c not in ("uid", "en")]
    for name in written:
        n += 1
        path = os.path.join(tmp, name + ".parquet")
        ours = pq.ParquetFile(path).read(columns=check)
        theirs = arrow(con, f"SELECT {', '.join(check)} FROM read_parquet('{path}')")
        kinds = [g for c, g in zip(table.column_names, gtypes) if c in check]
        theirs, ours = lines(in_units_of(theirs, ours), kinds), lines(ours, kinds)
        bad = [(c, *first_difference(theirs[c], ours[c])) for c in check if theirs[c] != ours[c]]
        if bad:
            failed += 1
            print(f"not ok {n} - DuckDB's {name}: DuckDB and pyarrow disagree")
            for c, k, d, p in bad[:10]:
                print(f"# column {c} row {k}: DuckDB '{d}', pyarrow '{p}'")
        else:
            print(f"ok {n} - DuckDB's {name}: DuckDB and pyarrow agree on {len(check)} columns")

    # types gcol refuses: a clear status, no crash
    for name, what in refused:
        n += 1
        r = subprocess.run([dump] + mode + [os.path.join(tmp, name + ".parquet")],
                           capture_output=True, text=True, timeout=300)
        if r.returncode == 0 and r.stdout.splitlines() == ["error GCOL_ERROR_UNSUPPORTED"] \
                and what in r.stderr:
            print(f"ok {n} - DuckDB's {name} refused: {r.stderr.strip()[:160]}")
        else:
            failed += 1
            print(f"not ok {n} - DuckDB's {name}: exit {r.returncode}, "
                  f"'{r.stdout.strip()[:80]}', not GCOL_ERROR_UNSUPPORTED naming {what}")
            for line in r.stderr.splitlines()[:10]:
                print(f"# {line}")

    # NULL fixed-size arrays: refused like pyarrow, or read like pyarrow
    n += 1
    r = subprocess.run([dump] + mode + [os.path.join(tmp, "null_array.parquet")],
                       capture_output=True, text=True, timeout=300)
    with open(os.path.join(tmp, "null_array.expected")) as f:
        want = f.read().splitlines()
    if r.returncode == 0 and r.stdout.splitlines() == want:
        print(f"ok {n} - DuckDB's null_array: gcol '{want[0] if len(want) == 1 else 'reads it'}'"
              f" as pyarrow does: {r.stderr.strip()[:160]}")
    else:
        failed += 1
        k, g, w = first_difference(r.stdout.splitlines(), want)
        print(f"not ok {n} - DuckDB's null_array: exit {r.returncode}, line {k + 1}: gcol "
              f"'{g[:80]}', pyarrow '{w[:80]}'")
        for line in r.stderr.splitlines()[:10]:
            print(f"# {line}")

    # gcol writes, DuckDB reads
    expected, current = {}, None
    with open(os.path.join(tmp, "uncompressed.expected")) as f:
        for line in f.read().splitlines():
            if line.startswith("column "):
                current = line.split(" ")[1]
                expected[current] = []
            elif current is not None:
                expected[current].append(line)
    gtype = dict(zip(table.column_names, gtypes))
    # not UTF-8 (gcol writes strings as UTF-8 strings); decimal128 (not written yet)
    unwritten = ("blob", "uid", "d30", "d38")
    original = pq.ParquetFile(os.path.join(tmp, "uncompressed.parquet")).read()
    for name, codec, dictionary in rewrites:
        n += 1
        out = os.path.join(tmp, f"gcol_{name}.parquet")
        r = subprocess.run([dump] + mode + ["--rewrite"] +
                           ([f"--codec={codec}"] if codec else []) +
                           ([f"--dictionary={dictionary}"] if dictionary else []) +
                           [os.path.join(tmp, "uncompressed.parquet"), out] + list(unwritten),
                           capture_output=True, text=True, timeout=300)
        why = missing_codec(r.stderr)
        if codec and r.returncode != 0 and why:
            print(f"ok {n} - gcol's {name} read by DuckDB # SKIP {why}")
            continue
        problems = []
        if r.returncode != 0:
            problems.append(f"gcol could not write: {r.stdout.strip()} {r.stderr.strip()}")
        else:
            names = [l.split(" ", 1)[1] for l in r.stdout.splitlines()]
            want_names = [c for c in table.column_names
                          if gtype[c] not in ("nested", "duration[us]") and c not in unwritten]
            if names != want_names:
                problems.append(f"gcol wrote {names}, not {want_names}")
            try:
                got = arrow(con, f"SELECT * FROM read_parquet('{out}')")
                codecs = {c for (c,) in con.execute(
                    f"SELECT DISTINCT compression FROM parquet_metadata('{out}')").fetchall()}
                want_codec = (codec or "uncompressed").upper()
                if codecs != {want_codec}:
                    problems.append(f"DuckDB reads codecs {codecs}, not {want_codec}")
                if got.column_names != names:
                    problems.append(f"DuckDB reads columns {got.column_names}, gcol wrote {names}")
                else:
                    values = lines(in_units_of(got, original), [gtype[c] for c in names])
                    for c in names:
                        if values[c] != expected[c]:
                            k, d, w = first_difference(values[c], expected[c])
                            problems.append(f"column {c} row {k}: DuckDB read '{d}', "
                                            f"source '{w}'")
            except (duckdb.Error, pa.ArrowException) as e:  # DuckDB refused gcol's file
                problems.append(f"DuckDB: {type(e).__name__}: {e}")
        if problems:
            failed += 1
            print(f"not ok {n} - gcol's {name} read by DuckDB{where}")
            for p in problems[:10]:
                print(f"# {p}")
        else:
            print(f"ok {n} - gcol's {name} ({len(names)} columns) read by DuckDB{where}")
    sys.exit(1 if failed else 0)
