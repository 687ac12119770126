#!/usr/bin/env python3
"""Files written by pyarrow, read by gcol (suite clients): make_parquet_files.py writes
Parquet files and what gcol must read from each (FILE.expected); parquet_dump reads each
file with gcol on the GPU and prints the same text form; they must agree line by line (the
FIXED_LEN_BYTE_ARRAY files flba_*: binary(16), binary(3) and uuid() as strings, float16 as the
bits of float32, NaNs included; structs and lists, nested_* and the struct "st" of the others,
one row per line as nested values). Files gcol must refuse (a BROTLI chunk) must give the
expected status. A file that gcol refuses only because a codec's library (libsnappy.so.1, libzstd.so.1,
libz.so.1, liblz4.so.1) is not installed is skipped, saying so: the rule is on gcol's message
(client_tap.missing_codec), whatever the file's name. Without a GPU, parquet_dump --host reads the files through the same plan and page
decoders on the CPU, and writes with the host writer. Then gcol writes the columns it read from some of them (parquet_dump --rewrite) and
pyarrow must read back the same values; files gcol writes with dictionaries (--dictionary) must
also show them in pyarrow's metadata (a dictionary page, RLE_DICTIONARY among the encodings) for
every column but booleans (the host writer, without a GPU, writes PLAIN: that check skips).
TAP output; `1..0 # SKIP` without pyarrow.

  test_parquet_python.py PATH/TO/parquet_dump PATH/TO/make_parquet_files.py
"""
import importlib.util
import os
import struct
import subprocess
import sys
import tempfile

from client_tap import dump_mode, missing_codec, report_difference, skip


try:
    import pyarrow  # noqa: F401
except ImportError:
    skip("pyarrow is not installed")

dump, script = sys.argv[1], sys.argv[2]


def flba_min_max(col, st):
    """What gcol decodes of a FIXED_LEN_BYTE_ARRAY chunk's min and max: FLOAT16 as numbers,
    decimals of precision <= 18 as their unscaled integers, else nothing (None)."""
    lt = st.logical_type.to_json().replace(" ", "") if st.logical_type is not None else ""
    lo, hi = st.min_raw, st.max_raw  # the PLAIN bytes of a FIXED_LEN_BYTE_ARRAY
    if '"Type":"Float16"' in lt and len(lo) == 2 == len(hi):
        return ["float", struct.unpack("<e", lo)[0], struct.unpack("<e", hi)[0]]
    if '"Type":"Decimal"' in lt and col.physical_type == "FIXED_LEN_BYTE_ARRAY":
        precision = int(lt.split('"precision":')[1].split(",")[0].split("}")[0])
        if precision <= 18:
            return ["int", int.from_bytes(lo, "big", signed=True),
                    int.from_bytes(hi, "big", signed=True)]
    return None


def dictionary_problems(md):
    """Chunks of a file written with dictionary policy ALWAYS that pyarrow's metadata does not
    show dictionary-encoded (booleans and all-null chunks stay PLAIN)."""
    problems = []
    for g in range(md.num_row_groups):
        for k in range(md.num_columns):
            col = md.row_group(g).column(k)
            st = col.statistics
            if col.physical_type == "BOOLEAN" or (st is not None and st.has_null_count and
                                                   st.null_count == col.num_values):
                continue
            if not col.has_dictionary_page or "RLE_DICTIONARY" not in col.encodings or \
                    col.dictionary_page_offset is None or \
                    col.dictionary_page_offset >= col.data_page_offset:
                problems.append(f"group {g} column {col.path_in_schema}: encodings "
                                f"{col.encodings}, dictionary page {col.has_dictionary_page} "
                                f"at {col.dictionary_page_offset}, data at "
                                f"{col.data_page_offset}")
    return problems
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, script, tmp], check=True)
    names = sorted(f[:-len(".parquet")] for f in os.listdir(tmp) if f.endswith(".parquet"))
    # without a GPU: the same plan and page decoders run on the CPU (and the host writer)
    mode, where = dump_mode(dump, os.path.join(tmp, names[0] + ".parquet"))
    # (output name, source, writer codec, dictionary policy): uncompressed, compressed by each
    # codec, with dictionaries
    rewrites = [(n, n, None, None) for n in ("plain_v1", "dict_v2", "required", "delta")
                if n in names]
    rewrites += [("plain_v1." + c, "plain_v1", c, None)
                 for c in ("snappy", "zstd", "gzip", "lz4_raw") if "plain_v1" in names]
    rewrites += [(n + ".dict", n, c, "always")
                 for n, c in (("plain_v1", None), ("dict_v2", "snappy"), ("required", "zstd"))
                 if n in names]
    stats_files = [n for n in ("plain_v1", "dict_v2", "required", "delta", "decimal_flba_plain",
                               "flba_plain_v1") if n in names]
    stats_files += [n + ".gcol" for n, _, _, _ in rewrites]  # the writer's statistics
    print(f"1..{len(names) + len(rewrites) + len(stats_files)}")
    failed = 0
    for i, name in enumerate(names, 1):
        r = subprocess.run([dump] + mode + [os.path.join(tmp, name + ".parquet")],
                           capture_output=True, text=True, timeout=300)
        got = r.stdout.splitlines()
        with open(os.path.join(tmp, name + ".expected")) as f:
            want = f.read().splitlines()
        # a codec whose library this machine lacks (nested pages are decompressed on the host)
        why = missing_codec(r.stderr)
        if got == ["error GCOL_ERROR_UNSUPPORTED"] and why:
            print(f"ok {i} - {name} # SKIP {why}")
            continue
        if r.returncode == 0 and got == want:
            print(f"ok {i} - {name}{where}")
            for line in r.stderr.splitlines():
                print(f"# {line}")
            continue
        failed += 1
        print(f"not ok {i} - {name}{where} (exit {r.returncode})")
        report_difference(got, want, r.stderr)

    # gcol's writer, read by pyarrow
    spec = importlib.util.spec_from_file_location("make_parquet_files", script)
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    import pyarrow.parquet as pq
    for j, (name, source, codec, dictionary) in enumerate(rewrites, len(names) + 1):
        out = os.path.join(tmp, name + ".gcol.parquet")
        r = subprocess.run([dump] + mode + ["--rewrite"] +
                           ([f"--codec={codec}"] if codec else []) +
                           ([f"--dictionary={dictionary}"] if dictionary else []) +
                           [os.path.join(tmp, source + ".parquet"), out, "blob"],
                           capture_output=True, text=True, timeout=300)
        problems = []
        why = missing_codec(r.stderr)
        if codec and r.returncode != 0 and why:
            open(out, "wb").close()  # its statistics test skips too
            print(f"ok {j} - {name} written by gcol # SKIP {why}")
            continue
        if r.returncode != 0:
            problems.append(f"gcol could not write: {r.stdout.strip()} {r.stderr.strip()}")
        else:
            expected, current = {}, None
            with open(os.path.join(tmp, source + ".expected")) as f:
                for line in f.read().splitlines():
                    if line.startswith("column "):
                        current = line.split(" ")[1]
                        expected[current] = []
                    elif current is not None:
                        expected[current].append(line)
            try:
                table = pq.ParquetFile(out).read()
                want_codec = (codec or "uncompressed").replace("_raw", "").upper()
                got_codec = pq.ParquetFile(out).metadata.row_group(0).column(0).compression
                if got_codec != want_codec:
                    problems.append(f"pyarrow reads codec {got_codec}, not {want_codec}")
                if dictionary and not mode:
                    problems += dictionary_problems(pq.ParquetFile(out).metadata)
                written = [l.split(" ", 1)[1] for l in r.stdout.splitlines()]
                if table.column_names != written:
                    problems.append(f"columns {table.column_names}, gcol wrote {written}")
                for cname, _, atype, vals in maker.leaf_columns(table, [None] * table.num_columns):
                    got = [maker.value_line(atype, v) for v in vals]
                    if got != expected.get(cname):
                        want = expected.get(cname) or []
                        k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b),
                                 min(len(got), len(want)))
                        problems.append(f"column {cname} row {k}: pyarrow read "
                                        f"'{got[k] if k < len(got) else '<missing>'}', wrote "
                                        f"'{want[k] if k < len(want) else '<missing>'}'")
            except Exception as e:  # pyarrow refused gcol's file
                problems.append(f"pyarrow: {type(e).__name__}: {e}")
        if problems:
            failed += 1
            print(f"not ok {j} - {name} written by gcol, read by pyarrow{where}")
            for p in problems[:10]:
                print(f"# {p}")
        else:
            print(f"ok {j} - {name} written by gcol, read by pyarrow{where}")

    # the footer's statistics as gcol decodes them, against pyarrow's reading of them
    for j, name in enumerate(stats_files, len(names) + len(rewrites) + 1):
        path = os.path.join(tmp, name + ".parquet")
        if os.path.getsize(path) == 0:
            print(f"ok {j} - {name} statistics # SKIP not written (codec library not found)")
            continue
        r = subprocess.run([dump, "--stats", path], capture_output=True, text=True, timeout=300)
        md = pq.ParquetFile(path).metadata
        problems = []
        lines = r.stdout.splitlines()
        checked = 0
        for line in lines:
            g, k, nulls, kind, *rest = line.split(" ")
            col = md.row_group(int(g)).column(int(k))
            st = col.statistics
            if st is None or not st.has_null_count or str(st.null_count) != nulls:
                problems.append(f"{line}: pyarrow null count "
                                f"{None if st is None else st.null_count}")
                continue
            if col.physical_type in ("BOOLEAN", "INT32", "INT64", "FLOAT", "DOUBLE") \
                    and st.has_min_max:
                lo, hi = st.min_raw, st.max_raw
                lt = col.statistics.logical_type
                if col.physical_type == "INT32" and lt is not None and \
                        '"isSigned":false' in lt.to_json().replace(" ", ""):
                    lo, hi = lo & 0xffffffff, hi & 0xffffffff
                if kind == "int":
                    ok = [int(rest[0]), int(rest[1])] == [int(lo), int(hi)]
                elif kind == "float":
                    ok = [float(rest[0]), float(rest[1])] == [float(lo), float(hi)]
                else:
                    ok = False
                if not ok:
                    problems.append(f"{line}: pyarrow min {lo} max {hi}")
                checked += 1
            elif col.physical_type == "FIXED_LEN_BYTE_ARRAY" and st.has_min_max:
                want = flba_min_max(col, st)
                got = None if kind == "none" else [kind] + [float(v) if kind == "float"
                                                            else int(v) for v in rest[:2]]
                if got != want:
                    problems.append(f"{line}: expected {want} from pyarrow's raw min/max")
                checked += want is not None
        if r.returncode != 0 or not lines or checked == 0:
            problems.append(f"exit {r.returncode}, {len(lines)} lines, {checked} min/max checked")
        if problems:
            failed += 1
            print(f"not ok {j} - {name} statistics")
            for p in problems[:10]:
                print(f"# {p}")
        else:
            print(f"ok {j} - {name} statistics ({checked} min/max pairs)")
    sys.exit(1 if failed else 0)
