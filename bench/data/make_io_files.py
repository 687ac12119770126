#!/usr/bin/env python3
"""Writes the files of issue 14's I/O rows, as other programs write them (pyarrow):

  DIR/io_snappy.parquet  N rows (default 2^27) of i64 (int64, full range), f64 (float64 in
                         [0, 1)), i32 (int32 in [0, 1000), the only dictionary-encoded column)
                         and str (8..32 random lowercase letters); pyarrow.parquet.write_table
                         with SNAPPY, row groups of 2^20 rows, pyarrow's other defaults
  DIR/io_zstd.parquet    the same table with ZSTD (pyarrow's default level)
  DIR/io.csv             the leading rows of the same table as CSV text (pyarrow.csv, header
                         row, pyarrow's quoting: strings and names in double quotes), in slices
                         of 2^20 rows until about --csv-bytes (default 4e9) are written
  DIR/io_nested.parquet  --nested-rows rows (default 2^25) of l (list<int64>: 0..7 elements,
                         a tenth of the lists null, a twentieth of the elements) and s
                         (struct<a: int32 with a tenth null, b: float64>, a twentieth of the
                         structs null); SNAPPY, row groups of 2^20 rows; written only when
                         --only names it

Read by bench_parquet (GCOL_BENCH_PARQUET_DIR=DIR), bench_csv (GCOL_BENCH_CSV_INPUT=DIR/io.csv)
and bench/peers/libcudf_peer.py io_files (the same two variables). Deterministic (one seeded
numpy generator) and vectorized: the strings are one random byte buffer plus offsets, cut into
StringArrays of 2^20 rows so that each keeps 32-bit offsets (all of 2^27 rows' chars need more
than 2^31 bytes, and a large_string column would tell readers of pyarrow's schema to use 64-bit
offsets). The three files are written by three threads: pyarrow's writers release the GIL.

Usage: make_io_files.py DIR [--rows N] [--csv-bytes B] [--nested-rows N]
                          [--only snappy,zstd,csv,nested]   (python3, pyarrow and numpy only)
"""
import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

SLICE = 1 << 20  # rows per row group, per string chunk and per CSV slice
SEED = 14  # issue 14


def strings(rng, n):
    """n strings of 8..32 lowercase letters, as a ChunkedArray of StringArrays of SLICE rows."""
    lens = rng.integers(8, 33, n, dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    total = int(offsets[-1])
    # random bytes as uint32 words seen as bytes (no copy), then letters in place; 256 % 26
    # leaves a slight bias toward a..v: harmless here
    words = rng.integers(0, np.iinfo(np.uint32).max, (total + 3) // 4, dtype=np.uint32,
                         endpoint=True)
    chars = words.view(np.uint8)[:total]
    np.remainder(chars, 26, out=chars)
    chars += ord("a")
    chunks = []
    for lo in range(0, n, SLICE):
        hi = min(lo + SLICE, n)
        offs = offsets[lo:hi + 1]
        base = int(offs[0])
        chunks.append(pa.StringArray.from_buffers(
            hi - lo, pa.py_buffer((offs - base).astype(np.int32)),
            pa.py_buffer(chars[base:int(offs[-1])]), None, 0))
    return pa.chunked_array(chunks, type=pa.string())


def make_table(n):
    rng = np.random.default_rng(SEED)
    i64 = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, n, dtype=np.int64,
                       endpoint=True)
    f64 = rng.random(n)
    i32 = rng.integers(0, 1000, n, dtype=np.int32)  # low cardinality: the dictionary stays one
    return pa.table({"i64": pa.array(i64), "f64": pa.array(f64), "i32": pa.array(i32),
                     "str": strings(rng, n)})


def make_nested_table(n):
    rng = np.random.default_rng(SEED + 1)
    lens = rng.integers(0, 8, n, dtype=np.int64)
    null_lists = rng.random(n) < 0.1
    lens[null_lists] = 0
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    total = int(offsets[-1])
    values = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, total, dtype=np.int64,
                          endpoint=True)
    elements = pa.array(values, mask=rng.random(total) < 0.05)
    chunks = []  # lists of SLICE rows: each keeps 32-bit offsets
    for lo in range(0, n, SLICE):
        hi = min(lo + SLICE, n)
        base = int(offsets[lo])
        chunks.append(pa.ListArray.from_arrays(
            pa.array((offsets[lo:hi + 1] - base).astype(np.int32)),
            elements.slice(base, int(offsets[hi]) - base), mask=pa.array(null_lists[lo:hi])))
    a = pa.array(rng.integers(-1000, 1000, n, dtype=np.int32), mask=rng.random(n) < 0.1)
    b = pa.array(rng.random(n))
    s = pa.StructArray.from_arrays([a, b], names=["a", "b"], mask=pa.array(rng.random(n) < 0.05))
    return pa.table({"l": pa.chunked_array(chunks), "s": s})


def write_parquet(table, path, codec):
    pq.write_table(table, path, row_group_size=SLICE, compression=codec,
                   use_dictionary=["i32"] if "i32" in table.column_names else False)
    return table.num_rows


def write_csv(table, path, target_bytes):
    """Slices of SLICE rows until target_bytes are written (one header row)."""
    rows = 0
    with pa.OSFile(path, "wb") as sink:
        writer = pacsv.CSVWriter(sink, table.schema)
        while rows < table.num_rows and sink.tell() < target_bytes:
            writer.write_table(table.slice(rows, SLICE))
            rows = min(rows + SLICE, table.num_rows)
        writer.close()
    return rows


def timed_job(fn, table, path, arg):
    """Runs one writer; returns (path, rows written, seconds)."""
    t = time.time()
    rows = fn(table, path, arg)
    return path, rows, time.time() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--rows", type=int, default=1 << 27)
    ap.add_argument("--csv-bytes", type=float, default=4e9)
    ap.add_argument("--nested-rows", type=int, default=1 << 25)
    ap.add_argument("--only", default="snappy,zstd,csv")
    args = ap.parse_args()
    only = set(args.only.split(","))
    os.makedirs(args.dir, exist_ok=True)
    t0 = time.time()
    jobs = []
    if only & {"snappy", "zstd", "csv"}:
        table = make_table(args.rows)
        print(f"table: {table.num_rows} rows, {table.nbytes / 1e9:.3f} GB in memory, "
              f"{time.time() - t0:.1f} s", flush=True)
        jobs += [(write_parquet, table, os.path.join(args.dir, "io_snappy.parquet"), "snappy"),
                 (write_parquet, table, os.path.join(args.dir, "io_zstd.parquet"), "zstd"),
                 (write_csv, table, os.path.join(args.dir, "io.csv"), args.csv_bytes)]
        jobs = [j for j, name in zip(jobs, ("snappy", "zstd", "csv")) if name in only]
    if "nested" in only:
        nested = make_nested_table(args.nested_rows)
        print(f"nested table: {nested.num_rows} rows, {nested.nbytes / 1e9:.3f} GB in memory, "
              f"{time.time() - t0:.1f} s", flush=True)
        jobs.append((write_parquet, nested, os.path.join(args.dir, "io_nested.parquet"),
                     "snappy"))
    with ThreadPoolExecutor(max(len(jobs), 1)) as pool:
        futures = [pool.submit(timed_job, fn, table, path, arg) for fn, table, path, arg in jobs]
        for f in futures:
            path, rows, seconds = f.result()
            size = os.path.getsize(path)
            print(f"{path}: {rows} rows, {size} bytes ({size / 1e9:.3f} GB), written in "
                  f"{seconds:.1f} s", flush=True)
    print(f"total {time.time() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
