#!/usr/bin/env python3
"""CSV files read by pyarrow.csv and by gcol (suite clients): each case is a file and the reader
options; pyarrow reads it with the same options (newlines_in_values, strings_can_be_null, the
same null/true/false values) and this script prints pyarrow's values in csv_dump's text form;
csv_dump reads it with gcol on the GPU; they must agree line by line. A case pyarrow refuses
(a ragged row) must make gcol fail too. TAP output; `1..0 # SKIP` without pyarrow or a GPU.

  test_csv_python.py PATH/TO/csv_dump
"""
import os
import subprocess
import sys
import tempfile

from client_tap import skip


try:
    import pyarrow as pa
    import pyarrow.csv as pcsv
except ImportError:
    skip("pyarrow is not installed")

CASES = [
    ("plain", "a,b,c\n1,2.5,x\n-3,,y\n4,1e3,\n", {}),
    ("quoted", 'a,b\n"x,y","line\nbreak"\n"q""q",plain\r\n"",z\n', {}),
    ("crlf_bools", "n,flag\r\n1,true\r\n2,False\r\n3,\r\n", {}),
    ("delimiter", "a;b\n1;x\n2;y\n", {"delimiter": ";"}),
    ("nulls", "a,b\nNA,1\nx,NULL\n,3\n", {"nulls": ["NA", "NULL", ""]}),
    ("truefalse", "a\nyes\nno\nyes\n", {"trues": ["yes"], "falses": ["no"]}),
    ("skip_rows", "junk\nmore junk\na,b\n1,2\n", {"skip_rows": 2}),
    ("no_header", "1,2\n3,4\n", {"no_header": True}),
    ("escape", 'a,b\n"x\\"y",1\nz\\,w,2\n', {"escape": "\\"}),
    ("floats", "f\n0.1\n-0\n1e308\n3.14159265358979\nnan\ninf\n", {}),
    ("ragged", "a,b\n1,2\n3\n", {}),
]


def pyarrow_read(path, o):
    read = pcsv.ReadOptions(skip_rows=o.get("skip_rows", 0),
                            autogenerate_column_names=o.get("no_header", False))
    parse = pcsv.ParseOptions(delimiter=o.get("delimiter", ","), newlines_in_values=True,
                              escape_char=o.get("escape", False))
    convert = pcsv.ConvertOptions(null_values=o.get("nulls", [""]), strings_can_be_null=True,
                                  quoted_strings_can_be_null=True,
                                  true_values=o.get("trues", ["true", "True", "TRUE"]),
                                  false_values=o.get("falses", ["false", "False", "FALSE"]))
    return pcsv.read_csv(path, read_options=read, parse_options=parse, convert_options=convert)


TYPES = {pa.int64(): "int64", pa.float64(): "float64", pa.bool_(): "bool8", pa.string(): "string"}


def expected(table, o):
    out = [f"rows {table.num_rows}"]
    for i, name in enumerate(table.column_names):
        col = table.column(i)
        gname = f"c{i}" if o.get("no_header") else name
        out.append(f"column {gname} {TYPES.get(col.type, str(col.type))}")
        for v in col.to_pylist():
            if v is None:
                out.append("null")
            elif col.type == pa.string():
                out.append("s:" + v.encode().hex())
            elif col.type == pa.float64():
                out.append("%.17g" % v)
            else:
                out.append(str(int(v)))
    return out


def flags(o):
    f = []
    if "delimiter" in o:
        f.append("--delimiter=" + o["delimiter"])
    if "escape" in o:
        f.append("--escape=" + o["escape"])
    if o.get("no_header"):
        f.append("--no-header")
    if "skip_rows" in o:
        f.append(f"--skip-rows={o['skip_rows']}")
    for key in ("nulls", "trues", "falses"):
        if key in o:
            f.append(f"--{key}=" + "|".join(o[key]))
    return f


dump = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    probe = os.path.join(tmp, "probe.csv")
    with open(probe, "w") as fh:
        fh.write("a\n1\n")
    if subprocess.run([dump, probe], capture_output=True, text=True).stdout.strip() == "skip":
        skip("no CUDA device")
    print(f"1..{len(CASES)}")
    failed = 0
    for i, (name, text, o) in enumerate(CASES, 1):
        path = os.path.join(tmp, name + ".csv")
        with open(path, "w", newline="") as fh:
            fh.write(text)
        try:
            want = expected(pyarrow_read(path, o), o)
        except pa.ArrowInvalid:
            want = None
        got = subprocess.run([dump] + flags(o) + [path], capture_output=True, text=True,
                             timeout=300).stdout.splitlines()
        ok = (got[:1] == ["error GCOL_ERROR_INVALID_ARGUMENT"]) if want is None else got == want
        if not ok:
            failed += 1
            print(f"# {name}: pyarrow {want}\n# gcol    {got}")
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    sys.exit(1 if failed else 0)
