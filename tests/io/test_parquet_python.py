#!/usr/bin/env python3
"""Files written by pyarrow, read by gcol (suite clients): make_parquet_files.py writes
Parquet files and what gcol must read from each (FILE.expected); parquet_dump reads each
file with gcol on the GPU and prints the same text form; they must agree line by line. Files
gcol must refuse (a SNAPPY chunk, a list column, DELTA_BINARY_PACKED) must give the expected
status. TAP output; `1..0 # SKIP` without pyarrow or a GPU.

  test_parquet_python.py PATH/TO/parquet_dump PATH/TO/make_parquet_files.py
"""
import os
import subprocess
import sys
import tempfile


def skip(why):
    print(f"1..0 # SKIP {why}")
    sys.exit(0)


try:
    import pyarrow  # noqa: F401
except ImportError:
    skip("pyarrow is not installed")

dump, script = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, script, tmp], check=True)
    names = sorted(f[:-len(".parquet")] for f in os.listdir(tmp) if f.endswith(".parquet"))
    probe = subprocess.run([dump, os.path.join(tmp, names[0] + ".parquet")],
                           capture_output=True, text=True)
    if probe.stdout.strip() == "skip":
        skip("no CUDA device")
    print(f"1..{len(names)}")
    failed = 0
    for i, name in enumerate(names, 1):
        r = subprocess.run([dump, os.path.join(tmp, name + ".parquet")], capture_output=True,
                           text=True, timeout=300)
        got = r.stdout.splitlines()
        with open(os.path.join(tmp, name + ".expected")) as f:
            want = f.read().splitlines()
        if r.returncode == 0 and got == want:
            print(f"ok {i} - {name}")
            for line in r.stderr.splitlines():
                print(f"# {line}")
            continue
        failed += 1
        print(f"not ok {i} - {name} (exit {r.returncode})")
        column = "?"
        for k in range(max(len(got), len(want))):
            g = got[k] if k < len(got) else "<missing>"
            w = want[k] if k < len(want) else "<missing>"
            if w.startswith("column "):
                column = w
            if g != w:
                print(f"# line {k + 1} ({column}): gcol '{g}', pyarrow '{w}'")
                break
        for line in r.stderr.splitlines()[:20]:
            print(f"# {line}")
    sys.exit(1 if failed else 0)
