"""What the Python client tests of tests/io share (each imports it from its own folder, which
Python puts first on its path): the TAP skip of a whole program, how parquet_dump reads on this
machine, and the one reason a file may be skipped rather than failed."""
import re
import subprocess
import sys


def skip(why):
    """Skips the whole program, saying why (TAP: "1..0 # SKIP why")."""
    print(f"1..0 # SKIP {why}")
    sys.exit(0)


def dump_mode(dump, path):
    """parquet_dump's options for this machine, and the words for a test's name: without a GPU
    it says "skip", and --host runs the same plan and page decoders on the CPU."""
    probe = subprocess.run([dump, path], capture_output=True, text=True, timeout=300)
    if probe.stdout.strip() == "skip":
        return ["--host"], " (CPU decoders, no GPU)"
    return [], ""


# gcol's message when a codec's library cannot be opened (lib/io/parquet_codec.c)
MISSING_CODEC = re.compile(r"\b(SNAPPY|ZSTD|GZIP|LZ4_RAW) needs (lib[\w.+-]*), not found")


def missing_codec(stderr):
    """The skip reason when gcol refused a file only because a codec's library is missing on
    this machine (nested and host-decompressed pages need it), else None."""
    m = MISSING_CODEC.search(stderr)
    return f"{m.group(1)} needs {m.group(2)}, not found" if m else None


def report_difference(got, want, stderr):
    """After a "not ok": the first line where gcol's dump and pyarrow's reading differ, with
    the column it lies in, then gcol's first messages."""
    column = "?"
    for k in range(max(len(got), len(want))):
        g = got[k] if k < len(got) else "<missing>"
        w = want[k] if k < len(want) else "<missing>"
        if w.startswith("column "):
            column = w
        if g != w:
            print(f"# line {k + 1} ({column}): gcol '{g}', pyarrow '{w}'")
            break
    for line in stderr.splitlines()[:20]:
        print(f"# {line}")
