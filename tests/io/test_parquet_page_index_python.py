#!/usr/bin/env python3
"""The page index of files pyarrow writes (suite clients), as gcol reads it: pyarrow writes
tables with write_page_index=True and small pages; parquet_dump --pages prints what gcol
parsed (per chunk whether it has an OffsetIndex and a ColumnIndex and its pages; per page its
first row, rows, offset, size, null flag, null count and decoded min/max). Checked against
what pyarrow says of each chunk (has_offset_index, has_column_index, data_page_offset,
dictionary_page_offset, total_compressed_size) and against the values written: the pages
tile the row group from row 0, lie in order inside the chunk's bytes (the first at the data
page offset), and each page's null count, min and max are those of its rows. A file without
a page index reads as having none; one whose index bytes are overwritten gives
GCOL_ERROR_INVALID_ARGUMENT naming the row group and column. Host only (no GPU needed). TAP
output; `1..0 # SKIP` without pyarrow.

  test_parquet_page_index_python.py PATH/TO/parquet_dump
"""
import decimal
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

from client_tap import skip


try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError:
    skip("pyarrow is not installed")

dump = sys.argv[1]


def table(n, seed):
    rnd = random.Random(seed)
    cols = {
        "sorted": pa.array(range(n), pa.int64()),
        # nulls: every 7th row and a run long enough to fill pages
        "nullable": pa.array([None if i % 7 == 0 or 1000 <= i < 1400 else i * 3 - 500
                              for i in range(n)], pa.int32()),
        "random": pa.array([rnd.randint(-10**6, 10**6) for _ in range(n)], pa.int64()),
        "real": pa.array([math.nan if i % 97 == 5 else rnd.uniform(-5, 5) for i in range(n)],
                         pa.float64()),
        "flag": pa.array([i % 500 < 250 for i in range(n)], pa.bool_()),
        "text": pa.array([f"v{i:05d}" for i in range(n)], pa.string()),
        # FIXED_LEN_BYTE_ARRAY: FLOAT16 (eighths in [-100, 100]: exact halves) and decimals
        "half": halves([rnd.randint(-800, 800) / 8 for _ in range(n)]),
        "dec": pa.array([None if i % 11 == 3 else
                         decimal.Decimal(rnd.randint(-10**9, 10**9)).scaleb(-3)
                         for i in range(n)], pa.decimal128(12, 3)),
    }
    return pa.table(cols)


def halves(values):
    """A float16 array of `values` (exact halves), built from their bits: no numpy needed."""
    bits = pa.py_buffer(b"".join(struct.pack("<e", v) for v in values))
    return pa.Array.from_buffers(pa.float16(), len(values), [None, bits])


def run_pages(path):
    r = subprocess.run([dump, "--pages", path], capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout.splitlines(), r.stderr


def parse(lines):
    """{(g, k): (has_offset, has_column, [page dicts])}"""
    chunks, cur = {}, None
    for line in lines:
        f = line.split(" ")
        if f[0] == "chunk":
            cur = (int(f[1]), int(f[2]))
            chunks[cur] = (f[3] == "1", f[4] == "1", int(f[5]), [])
        elif f[0] == "page":
            p = {"first": int(f[1]), "rows": int(f[2]), "offset": int(f[3]), "size": int(f[4]),
                 "null_page": f[5] == "1", "nulls": None if f[6] == "-" else int(f[6]),
                 "kind": f[7]}
            if f[7] != "none":
                p["min"], p["max"] = (int(f[8]), int(f[9])) if f[7] == "int" else \
                    (float(f[8]), float(f[9]))
            chunks[cur][3].append(p)
    return chunks


def check_file(path, t, row_group_size):
    problems = []
    rc, lines, err = run_pages(path)
    if rc != 0 or not lines or lines[0].startswith("error"):
        return [f"parquet_dump --pages: exit {rc}: {' '.join(lines[:1])} {err.strip()}"], 0
    chunks = parse(lines)
    md = pq.ParquetFile(path).metadata
    checked = 0
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        g0 = g * row_group_size
        for k in range(md.num_columns):
            col = rg.column(k)
            has_off, has_col, n, pages = chunks[(g, k)]
            if (has_off, has_col) != (col.has_offset_index, col.has_column_index):
                problems.append(f"rg {g} col {k}: gcol offset/column index {has_off}/{has_col}, "
                                f"pyarrow {col.has_offset_index}/{col.has_column_index}")
                continue
            if len(pages) != n:
                problems.append(f"rg {g} col {k}: {len(pages)} page lines for {n} pages")
                continue
            if not has_off:
                continue
            start = col.data_page_offset
            if col.has_dictionary_page and col.dictionary_page_offset is not None:
                start = min(start, col.dictionary_page_offset)
            end = start + col.total_compressed_size
            values = t.column(k).to_pylist()[g0:g0 + rg.num_rows]
            if pa.types.is_decimal(t.schema.field(k).type):  # gcol decodes unscaled integers
                scale = t.schema.field(k).type.scale
                values = [None if v is None else int(v.scaleb(scale)) for v in values]
            row, at = 0, col.data_page_offset
            for i, p in enumerate(pages):
                where = f"rg {g} col {k} page {i}"
                if p["first"] != row or p["rows"] <= 0:
                    problems.append(f"{where}: first row {p['first']} rows {p['rows']}, "
                                    f"expected first {row}")
                    break
                if p["offset"] != at and i == 0 or p["offset"] < at or \
                        p["offset"] + p["size"] > end:
                    problems.append(f"{where}: bytes [{p['offset']}, +{p['size']}) outside "
                                    f"the chunk's [{at}, {end}) or not in order")
                row += p["rows"]
                at = p["offset"] + p["size"]
                rows = values[p["first"]:p["first"] + p["rows"]]
                nulls = sum(v is None for v in rows)
                if not has_col:
                    continue
                valid = [v for v in rows if v is not None and
                         not (isinstance(v, float) and math.isnan(v))]
                if p["nulls"] != nulls or p["null_page"] != (nulls == len(rows)):
                    problems.append(f"{where}: null count {p['nulls']} (null page "
                                    f"{p['null_page']}), its rows hold {nulls}")
                if p["kind"] == "none":
                    if valid and not isinstance(valid[0], str):
                        problems.append(f"{where}: no min/max decoded")
                    continue
                lo, hi = min(valid), max(valid)
                if isinstance(lo, bool):
                    lo, hi = int(lo), int(hi)
                if (p["min"], p["max"]) != (lo, hi):
                    problems.append(f"{where}: min/max {p['min']}/{p['max']}, rows {lo}/{hi}")
                checked += 1
            if row != rg.num_rows:
                problems.append(f"rg {g} col {k}: pages hold {row} rows of {rg.num_rows}")
    return problems, checked


n, group = 5000, 2000
t = table(n, 15)
cases = 4
print(f"1..{cases}")
failed = 0
with tempfile.TemporaryDirectory() as tmp:
    # 1, 2: small pages, plain and dictionary-encoded
    for i, dictionary in enumerate((False, True), 1):
        path = os.path.join(tmp, f"paged_{i}.parquet")
        pq.write_table(t, path, write_page_index=True, data_page_size=512, write_batch_size=64,
                       row_group_size=group, use_dictionary=dictionary)
        problems, checked = check_file(path, t, group)
        pages = sum(1 for line in run_pages(path)[1] if line.startswith("page"))
        if checked == 0 or pages < 10 * pq.ParquetFile(path).metadata.num_row_groups:
            problems.append(f"only {pages} pages, {checked} min/max checked")
        name = f"page index of pyarrow's file ({'dictionary' if dictionary else 'plain'}, " \
               f"{pages} pages, {checked} min/max pairs)"
        if problems:
            failed += 1
            print(f"not ok {i} - {name}")
            for p in problems[:10]:
                print(f"# {p}")
        else:
            print(f"ok {i} - {name}")

    # 3: no page index
    path = os.path.join(tmp, "plain.parquet")
    pq.write_table(t, path, write_page_index=False, row_group_size=group)
    rc, lines, err = run_pages(path)
    bad = [l for l in lines if l.startswith("page") or
           (l.startswith("chunk") and l.split(" ")[3:] != ["0", "0", "0"])]
    if rc != 0 or not lines or bad:
        failed += 1
        print(f"not ok 3 - a file without a page index: exit {rc}, {bad[:3]} {err.strip()}")
    else:
        print("ok 3 - a file without a page index has none")

    # 4: the index bytes (between the last chunk and the footer) overwritten
    path = os.path.join(tmp, "paged_1.parquet")
    md = pq.ParquetFile(path).metadata
    last = 0
    for g in range(md.num_row_groups):
        for k in range(md.num_columns):
            c = md.row_group(g).column(k)
            first = c.data_page_offset
            if c.has_dictionary_page and c.dictionary_page_offset is not None:
                first = min(first, c.dictionary_page_offset)
            last = max(last, first + c.total_compressed_size)
    data = bytearray(open(path, "rb").read())
    footer = int.from_bytes(data[-8:-4], "little")
    for i in range(last, len(data) - 8 - footer):
        data[i] = 0xff
    corrupt = os.path.join(tmp, "corrupt.parquet")
    open(corrupt, "wb").write(bytes(data))
    rc, lines, err = run_pages(corrupt)
    ok = rc == 0 and lines == ["error GCOL_ERROR_INVALID_ARGUMENT"] and \
        "corrupt page index: row group" in err and "column '" in err
    if ok:
        print("ok 4 - overwritten index bytes: GCOL_ERROR_INVALID_ARGUMENT naming the chunk")
    else:
        failed += 1
        print(f"not ok 4 - overwritten index bytes: exit {rc}, {lines[:2]}, {err.strip()}")
sys.exit(1 if failed else 0)
