# libcudf 26.10 (through pylibcudf) on the device: the same operations and sizes as gcol's
# bench/ programs (copied from shared/peers/libcudf_peer.py; gcol's rows added below: the
# strings-key and median groupbys of bench/bench_groupby.cu; the regex rows of
# bench/bench_strings.cu, bench/bench_parquet.cu and bench/bench_csv.cu; the io_files group on
# the pyarrow files of bench/data/make_io_files.py). How to install and run it:
# bench/peers/README.md.
# One JSON line per figure on stdout. Memory: rmm's cudaMallocAsync resource (like gcol's default)
# under rmm's statistics adaptor, which gives the peak bytes of one call (`peak_bytes`, where
# a row records it: gcol's benches record theirs through gcol's statistics resource).
# Timing: CUDA events around the call, median of REPS after WARM warm-ups.
import io, json, sys, time, os
import numpy as np
import cupy as cp
import rmm
import pylibcudf as plc

STATS = rmm.mr.StatisticsResourceAdaptor(rmm.mr.CudaAsyncMemoryResource())
rmm.mr.set_current_device_resource(STATS)
REPS, WARM = int(os.environ.get("REPS", 10)), 2
dev = cp.cuda.Device()
GPU = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
cp.random.seed(12345)


class _Rng:  # the legacy cupy API: randint/random/permutation with explicit dtypes
    def integers(self, lo, hi, n, dtype=cp.int64):
        return cp.random.randint(lo, hi, size=n, dtype=dtype)

    def random(self, n, dtype=cp.float64):
        return cp.random.random(n, dtype=dtype)

    def permutation(self, n):
        return cp.random.permutation(n)


rng = _Rng()
I64, I32, F64, B8 = (plc.DataType(plc.TypeId.INT64), plc.DataType(plc.TypeId.INT32),
                     plc.DataType(plc.TypeId.FLOAT64), plc.DataType(plc.TypeId.BOOL8))
ASC, NB = plc.types.Order.ASCENDING, plc.types.NullOrder.BEFORE


def timed(fn):
    for _ in range(WARM):
        fn()
    cp.cuda.runtime.deviceSynchronize()
    ts = []
    for _ in range(REPS):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record(); fn(); b.record(); b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
    ts.sort()
    return ts[len(ts) // 2]


def peak(fn):
    """Peak device bytes libcudf allocates during one fn() (its output included)."""
    cp.cuda.runtime.deviceSynchronize()
    STATS.push_counters()
    try:
        fn()
        cp.cuda.runtime.deviceSynchronize()
    finally:
        stats = STATS.pop_counters()
    return stats.peak_bytes


def emit(name, rows, ms, note="", peak_bytes=None):
    row = {"bench": name, "rows": rows, "libcudf_ms": round(ms, 4), "note": note, "gpu": GPU,
           "peer": "libcudf 26.10.2"}
    if peak_bytes is not None:
        row["peak_bytes"] = peak_bytes
    print(json.dumps(row), flush=True)


def emit_timed(name, rows, fn, note=""):
    """emit() with fn's median time and its peak memory."""
    emit(name, rows, timed(fn), note, peak(fn))


def col(arr):
    return plc.Column.from_cuda_array_interface(arr)


def rand_u32(n):
    return cp.random.randint(0, 2**31, size=n, dtype=cp.int64).astype(cp.uint64) * 2 + cp.random.randint(0, 2, size=n, dtype=cp.int64).astype(cp.uint64)


def rand_i64(n):  # full 64-bit range
    return ((rand_u32(n) << cp.uint64(32)) | rand_u32(n)).view(cp.int64)


def rand_i32(n):
    return rand_u32(n).astype(cp.uint32).view(cp.int32)


def strings(n, lo=8, hi=32, seed=5):
    cp.random.seed(seed)
    lens = cp.random.randint(lo, hi + 1, size=n, dtype=cp.int32)
    offs = cp.zeros(n + 1, dtype=cp.int32); cp.cumsum(lens, out=offs[1:])
    total = int(offs[-1])
    chars = cp.random.randint(ord('a'), ord('z') + 1, size=total, dtype=cp.uint8)
    oc = col(offs)
    return plc.Column(plc.DataType(plc.TypeId.STRING), n, plc.gpumemoryview(chars), None, 0, 0, [oc]), chars


def run(name, fn):
    try:
        fn()
    except Exception as e:  # keep going: one failing figure must not hide the others
        print(json.dumps({"bench": name, "error": repr(e)[:300]}), flush=True)


N27, N26, N24 = 1 << 27, 1 << 26, 1 << 24
# GCOL_BENCH_ROWS scales the regex and CSV rows as it scales bench_strings and bench_csv;
# GCOL_BENCH_PARQUET_SHIFT divides the Parquet rows by 2^shift (bench_parquet's argument).
NS = int(os.environ.get("GCOL_BENCH_ROWS", N24))
NCSV = int(os.environ.get("GCOL_BENCH_ROWS", 1 << 22))
NPQ = N24 >> int(os.environ.get("GCOL_BENCH_PARQUET_SHIFT", 0))
STR = plc.DataType(plc.TypeId.STRING)


def sort_i64():
    k = plc.Table([col(rand_i64(N27))])
    emit("sorted_order_i64", N27, timed(lambda: plc.sorting.stable_sorted_order(k, [ASC], [NB])), "stable")
    emit("sorted_order_i64_unstable", N27, timed(lambda: plc.sorting.sorted_order(k, [ASC], [NB])))


def sort_by_key_i32():
    k, v = plc.Table([col(rand_i32(N27))]), plc.Table([col(rand_i32(N27))])
    emit("sort_by_key_i32", N27, timed(lambda: plc.sorting.sort_by_key(v, k, [ASC], [NB])))


def sort_two():
    k = plc.Table([col(rand_i32(N27)), col(rand_i64(N27))])
    emit("sorted_order_i32_i64", N27, timed(lambda: plc.sorting.stable_sorted_order(k, [ASC, ASC], [NB, NB])))


def prefixed_strings(n, prefix=b"0123456789abcdef", lo=8, hi=24, seed=7):
    # bench_sort.cu's sort_strings_common_prefix: a shared 16-byte prefix, then lo..hi random bytes
    cp.random.seed(seed)
    lens = cp.random.randint(lo, hi + 1, size=n, dtype=cp.int32) + len(prefix)
    offs = cp.zeros(n + 1, dtype=cp.int32); cp.cumsum(lens, out=offs[1:])
    chars = cp.random.randint(33, 127, size=int(offs[-1]), dtype=cp.uint8)
    for k, b in enumerate(prefix):
        chars[offs[:-1] + k] = b
    return plc.Column(STR, n, plc.gpumemoryview(chars), None, 0, 0, [col(offs)]), chars


def sort_strings():
    s, _ = strings(N24)
    emit("sort_strings", N24, timed(lambda: plc.sorting.stable_sorted_order(plc.Table([s]), [ASC], [NB])))
    ps, _ = prefixed_strings(N24)
    emit("sort_strings_common_prefix", N24, timed(lambda: plc.sorting.stable_sorted_order(plc.Table([ps]), [ASC], [NB])),
         "16-byte shared prefix + 8..24 random bytes")
    del ps
    idx = col(rng.integers(0, N24, N24, dtype=cp.int32))
    emit("gather_strings_8_32", N24, timed(lambda: plc.copying.gather(plc.Table([s]), idx, plc.copying.OutOfBoundsPolicy.DONT_CHECK)))
    s0, _ = strings(N24, 0, 32)  # bench_copying's gather_strings: lengths 0..32
    emit("gather_strings", N24, timed(lambda: plc.copying.gather(plc.Table([s0]), idx, plc.copying.OutOfBoundsPolicy.DONT_CHECK)), "lengths 0..32")
    del s0
    tgt = plc.Scalar.from_py("qz")
    emit("strings_contains_short", N24, timed(lambda: plc.strings.find.contains(s, tgt)), "8..32 bytes, literal 'qz'")
    ls, _ = strings(1 << 20, 200, 1800, seed=9)
    emit("strings_contains_long", 1 << 20, timed(lambda: plc.strings.find.contains(ls, tgt)), "200..1800 bytes, ~1 GB chars")
    emit("strings_upper", N24, timed(lambda: plc.strings.case.to_upper(s)))


def filter_gather_reduce():
    x = col(rand_i64(N27))
    m = col(rng.integers(0, 2, N27, dtype=cp.int8).astype(cp.bool_))
    emit("filter_i64_50pct", N27, timed(lambda: plc.stream_compaction.apply_boolean_mask(plc.Table([x]), m)))
    x26 = col(rand_i64(N26)); idx = col(rng.integers(0, N26, N26, dtype=cp.int32))
    emit("gather_i64_random", N26, timed(lambda: plc.copying.gather(plc.Table([x26]), idx, plc.copying.OutOfBoundsPolicy.DONT_CHECK)))
    emit("reduce_sum_i64", N27, timed(lambda: plc.reduce.reduce(x, plc.aggregation.sum(), I64)))
    emit("scan_sum_i64", N27, timed(lambda: plc.reduce.scan(x, plc.aggregation.sum(), plc.reduce.ScanType.INCLUSIVE)))
    y = col(rand_i64(N27))
    emit("binary_add_i64", N27, timed(lambda: plc.binaryop.binary_operation(x, y, plc.binaryop.BinaryOperator.ADD, I64)))
    parts = [col(rand_i64(N24)) for _ in range(8)]
    emit("concatenate_i64", 8 * N24, timed(lambda: plc.concatenate.concatenate(parts)))


def search():
    hay = plc.sorting.sort(plc.Table([col(rand_i64(N27))]), [ASC], [NB])
    nd = plc.Table([col(rand_i64(N24))])
    emit("lower_bound_i64", N24, timed(lambda: plc.search.lower_bound(hay, nd, [ASC], [NB])))


def distinct():
    x = plc.Table([col(rng.integers(0, 1 << 20, N27, dtype=cp.int64))])
    emit("distinct_i64_1M", N27, timed(lambda: plc.stream_compaction.distinct(
        x, [0], plc.stream_compaction.DuplicateKeepOption.KEEP_ANY, plc.types.NullEquality.EQUAL,
        plc.types.NanEquality.ALL_EQUAL)), "1M distinct of 2^27")
    emit("distinct_count_i64_1M", N27, timed(lambda: plc.reduce.distinct_count(
        x.columns()[0], plc.types.NullPolicy.INCLUDE, plc.types.NanPolicy.NAN_IS_NULL)))


def _splitmix64(keys):
    """splitmix64's finalizer of int64 keys (a bijection: unique keys stay unique)."""
    z = keys.astype(cp.uint64) + cp.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> cp.uint64(30))) * cp.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> cp.uint64(27))) * cp.uint64(0x94D049BB133111EB)
    return (z ^ (z >> cp.uint64(31))).view(cp.int64)


def joins():
    EQ = plc.types.NullEquality.EQUAL
    # the pyarrow anchor's shape: build keys 0,3,6,.. (10M), probe uniform in [0, 30M) (100M): 1/3 match
    b = plc.Table([col(cp.arange(10_000_000, dtype=cp.int64) * 3)])
    p = plc.Table([col(rng.integers(0, 30_000_000, 100_000_000, dtype=cp.int64))])
    emit_timed("inner_join_i64_10Mx100M", 110_000_000, lambda: plc.join.inner_join(p, b, EQ), "build 10M unique, probe 100M, 1/3 match")
    emit_timed("left_join_i64_10Mx100M", 110_000_000, lambda: plc.join.left_join(p, b, EQ))
    emit_timed("left_semi_join_i64_10Mx100M", 110_000_000, lambda: plc.join.left_semi_join(p, b, EQ))
    # the same keys through splitmix64's bijective mix (bench_join's scramble): a hash table far beyond L2
    bx = plc.Table([col(_splitmix64(cp.arange(10_000_000, dtype=cp.int64) * 3))])
    px = plc.Table([col(_splitmix64(rng.integers(0, 30_000_000, 100_000_000, dtype=cp.int64)))])
    emit_timed("inner_join_i64_sparse_10Mx100M", 110_000_000, lambda: plc.join.inner_join(px, bx, EQ),
               "the keys above mixed over 64 bits (splitmix64), 1/3 match")
    del bx, px
    bs = plc.Table([col(rng.permutation(100_000).astype(cp.int32))])
    ps = plc.Table([col(rng.integers(0, 100_000, 10_000_000, dtype=cp.int32))])
    emit_timed("inner_join_i32_100Kx10M", 10_100_000, lambda: plc.join.inner_join(ps, bs, EQ), "every probe matches once")
    b2 = plc.Table([col(rng.integers(0, 10_000_000, 10_000_000, dtype=cp.int32))])
    p2 = plc.Table([col(rng.integers(0, 10_000_000, 10_000_000, dtype=cp.int32))])
    emit_timed("inner_join_i32_10Mx10M_dup", 20_000_000, lambda: plc.join.inner_join(p2, b2, EQ), "keys with duplicates on both sides")
    sb, _ = strings(1_000_000, 8, 24, seed=21)
    sp = plc.copying.gather(plc.Table([sb]), col(rng.integers(0, 1_000_000, 10_000_000, dtype=cp.int32)), plc.copying.OutOfBoundsPolicy.DONT_CHECK)
    emit_timed("inner_join_str_1Mx10M", 11_000_000, lambda: plc.join.inner_join(sp, plc.Table([sb]), EQ), "string keys 8..24 bytes")


def groupby():
    for groups, name in ((1 << 20, "1M"), (1000, "1K")):
        g = plc.Table([col(rng.integers(0, groups, N27, dtype=cp.int64))])
        v = col(rng.random(N27, dtype=cp.float64))
        gb = plc.groupby.GroupBy(g)
        emit_timed(f"groupby_sum_f64_{name}", N27, lambda: gb.aggregate([plc.groupby.GroupByRequest(v, [plc.aggregation.sum()])]))
        emit_timed(f"groupby_5aggs_f64_{name}", N27, lambda: gb.aggregate([plc.groupby.GroupByRequest(v, [
            plc.aggregation.sum(), plc.aggregation.min(), plc.aggregation.max(),
            plc.aggregation.count(plc.types.NullPolicy.EXCLUDE), plc.aggregation.mean()])]), "sum,min,max,count,mean")
    g2 = plc.Table([col(rng.integers(0, 1000, N27, dtype=cp.int32)), col(rng.integers(0, 1000, N27, dtype=cp.int32))])
    v = col(rng.random(N27, dtype=cp.float64))
    emit_timed("groupby_sum_2keys_1M", N27, lambda: plc.groupby.GroupBy(g2).aggregate([plc.groupby.GroupByRequest(v, [plc.aggregation.sum()])]))
    # bench_groupby.cu's extra rows: strings keys (2^24 rows drawn from 2^20 strings of 8..24
    # bytes) and a median over 1000 groups of 2^24 rows
    sk, _ = strings(1 << 20, 8, 24, seed=31)
    keys = plc.copying.gather(plc.Table([sk]), col(rng.integers(0, 1 << 20, N24, dtype=cp.int32)),
                              plc.copying.OutOfBoundsPolicy.DONT_CHECK)
    vs = col(rng.random(N24, dtype=cp.float64))
    emit_timed("groupby_sum_str_1M", N24, lambda: plc.groupby.GroupBy(keys).aggregate([plc.groupby.GroupByRequest(vs, [plc.aggregation.sum()])]))
    gm = plc.Table([col(rng.integers(0, 1000, N24, dtype=cp.int64))])
    emit_timed("groupby_median_f64_1K", N24, lambda: plc.groupby.GroupBy(gm).aggregate([plc.groupby.GroupByRequest(vs, [plc.aggregation.median()])]))




def expression():
    # bench_expression.cu's rows: a int64 in [0, 40), b int32 in [0, 10), c float64 in [0, 1),
    # 2^27 rows; libcudf's AST over them (compute_column, then apply_boolean_mask for the filter)
    E, OP = plc.expressions, plc.expressions.ASTOperator
    ref = E.ColumnReference
    lits = [E.Literal(plc.Scalar.from_py(v, t)) for v, t in ((20, I64), (7, I32), (0.5, F64))]
    pred = E.Operation(OP.LOGICAL_AND,
                       E.Operation(OP.LOGICAL_AND, E.Operation(OP.GREATER, ref(0), lits[0]),
                                   E.Operation(OP.NOT_EQUAL, ref(1), lits[1])),
                       E.Operation(OP.LESS, ref(2), lits[2]))
    t = plc.Table([col(rng.integers(0, 40, N27, dtype=cp.int64)),
                   col(rng.integers(0, 10, N27, dtype=cp.int32)), col(rng.random(N27))])
    kept = plc.stream_compaction.apply_boolean_mask(t, plc.transform.compute_column(t, pred))
    emit_timed("filter_expr_3terms", N27,
               lambda: plc.stream_compaction.apply_boolean_mask(t, plc.transform.compute_column(t, pred)),
               f"compute_column + apply_boolean_mask, 3 columns out; kept {kept.num_rows() / N27:.3f}")
    del kept, t
    # (a * b + c) / d in float64: a, b, c in [0, 1), d in [1, 2)
    arith = E.Operation(OP.DIV, E.Operation(OP.ADD, E.Operation(OP.MUL, ref(0), ref(1)), ref(2)), ref(3))
    t4 = plc.Table([col(rng.random(N27)), col(rng.random(N27)), col(rng.random(N27)),
                    col(1.0 + rng.random(N27))])
    emit_timed("compute_expr_arith", N27, lambda: plc.transform.compute_column(t4, arith), "compute_column")

def regex():
    # bench_strings.cu's regex rows: 2^24 strings of 8..32 random a-z (the strings_contains_short
    # data); for the split, the same shape with each byte ',' or ';' with probability 1/8.
    # Each row runs apart, so that an API mismatch costs only its own line.
    RP, RF = plc.strings.regex_program.RegexProgram, plc.strings.regex_flags.RegexFlags
    s, _ = strings(NS)
    p1 = RP.create("[a-c]q+z", RF.DEFAULT)
    run("strings_regex_contains", lambda: emit("strings_regex_contains", NS, timed(
        lambda: plc.strings.contains.contains_re(s, p1)), "8..32 bytes, pattern '[a-c]q+z'"))
    p2 = RP.create("q[a-z]", RF.DEFAULT)
    run("strings_findall", lambda: emit("strings_findall", NS, timed(
        lambda: plc.strings.findall.findall(s, p2)), "8..32 bytes, pattern 'q[a-z]'"))
    sep, chars = strings(NS, seed=7)
    r = cp.random.randint(0, 16, size=chars.size, dtype=cp.int32)
    chars[r == 0] = ord(",")  # in place: the column `sep` views these bytes
    chars[r == 1] = ord(";")
    del r
    p3 = RP.create("[,;]", RF.DEFAULT)
    run("strings_split_re_record", lambda: emit("strings_split_re_record", NS, timed(
        lambda: plc.strings.split.split.split_record_re(sep, p3, -1)),
        "8..32 bytes, 1/8 of them ',' or ';', pattern '[,;]', every split"))
    p4 = RP.create("q+", RF.DEFAULT)
    rq = plc.Scalar.from_py("Q")
    run("strings_replace_re", lambda: emit("strings_replace_re", NS, timed(
        lambda: plc.strings.replace_re.replace_re(s, p4, rq, -1)), "8..32 bytes, 'q+' -> 'Q'"))


def _pin(data):
    """Page-locks a bytes object's memory (cudaHostRegister), as gcol's benchmarks read from
    pinned memory; returns the pointer to unregister, or None (then the source is pageable)."""
    try:
        ptr = np.frombuffer(data, dtype=np.uint8).ctypes.data
        cp.cuda.runtime.hostRegister(ptr, len(data), 0)
        return ptr
    except Exception as e:
        print(f"# cudaHostRegister failed ({e!r}): the host source stays pageable", file=sys.stderr)
        return None


def _unpin(ptr):
    if ptr is not None:
        cp.cuda.runtime.hostUnregister(ptr)


def _nullable_i32(n):
    """INT32 of random bits with random nulls (about half), as bench_parquet.cu's third column."""
    vals = rand_i32(n)
    valid = cp.random.randint(0, 2, size=n, dtype=cp.int32).astype(cp.uint32)
    words = (n + 31) // 32
    bits = cp.zeros(words * 32, dtype=cp.uint32)
    bits[:n] = valid
    mask = (bits.reshape(words, 32) << cp.arange(32, dtype=cp.uint32)).sum(axis=1, dtype=cp.uint32)
    mask = cp.concatenate([mask, cp.zeros((-words) % 16, dtype=cp.uint32)])  # 64-byte padding
    nulls = n - int(valid.sum())
    return plc.Column(I32, n, plc.gpumemoryview(vals), plc.gpumemoryview(mask), nulls, 0, []), mask


def parquet():
    # bench_parquet.cu's rows: 2^24 rows of int64, float64 (random bits), int32 with random nulls
    # and strings of 8..24 bytes; written by libcudf itself (PLAIN, dictionary off, uncompressed,
    # row groups of 2^20 rows, v1 pages), to and from host memory.
    n = NPQ
    cp.random.seed(51)
    i64, f64 = col(rand_i64(n)), col(rand_i64(n).view(cp.float64))
    i32, _mask = _nullable_i32(n)
    s, _ = strings(n, 8, 24, seed=55)
    tbl = plc.Table([i64, f64, i32, s])
    T = plc.io.types
    md = T.TableInputMetadata(tbl)
    enc = "PLAIN per column"
    for k, cm in enumerate(md.column_metadata):
        cm.set_name(f"c{k}")
        try:
            cm.set_encoding(T.ColumnEncoding.PLAIN)
        except Exception as e:
            enc = f"dictionary off only (set_encoding: {e!r})"

    def write():  # a fresh sink and options each call: write_parquet consumes its options
        buf = io.BytesIO()
        opts = (plc.io.parquet.ParquetWriterOptions.builder(plc.io.SinkInfo([buf]), tbl)
                .metadata(md)
                .compression(T.CompressionType.NONE)
                .dictionary_policy(T.DictionaryPolicy.NEVER)
                .row_group_size_rows(1 << 20)
                .build())
        plc.io.parquet.write_parquet(opts)
        return buf

    data = write().getvalue()
    run("parquet_write_plain", lambda: emit("parquet_write_plain", n, timed(write),
        f"file {len(data) / 1e9:.3f} GB to io.BytesIO; {enc}, uncompressed, row groups of 2^20"))

    def read():
        ptr = _pin(data)
        try:
            opts = plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([data])).build()
            ms = timed(lambda: plc.io.parquet.read_parquet(opts))
        finally:
            _unpin(ptr)
        emit("parquet_read_plain", n, ms, f"file {len(data) / 1e9:.3f} GB from host bytes "
             f"({'pinned' if ptr is not None else 'pageable'}); {enc}, uncompressed")

    run("parquet_read_plain", read)

    # gcol's own files (bench_parquet wrote them): the plain one at GCOL_BENCH_PARQUET_FILE,
    # the compressed ones at PATH.snappy and PATH.zstd; libcudf reads the same bytes
    path = os.environ.get("GCOL_BENCH_PARQUET_FILE")
    for row, suffix in (("parquet_read_plain_gcol_file", ""), ("parquet_read_snappy", ".snappy"),
                        ("parquet_read_zstd", ".zstd")):
        if not path or not os.path.isfile(path + suffix):
            continue
        with open(path + suffix, "rb") as f:
            gdata = f.read()

        def read_gcol(row=row, gdata=gdata):
            ptr = _pin(gdata)
            try:
                opts = plc.io.parquet.ParquetReaderOptions.builder(
                    plc.io.SourceInfo([gdata])).build()
                ms = timed(lambda: plc.io.parquet.read_parquet(opts))
            finally:
                _unpin(ptr)
            emit(row, n, ms, f"gcol's file{suffix} {len(gdata) / 1e9:.3f} GB "
                 f"from host bytes ({'pinned' if ptr is not None else 'pageable'})")

        run(row, read_gcol)


def csv():
    # bench_csv.cu's rows: CSV text of 2^22 rows (int64, float64, strings of 8..24 bytes, bool),
    # read from host memory with the four types given, and written back to host memory. With
    # GCOL_BENCH_CSV_FILE naming the file bench_csv wrote, the text is gcol's, byte for byte;
    # otherwise libcudf writes a table of the same shape itself.
    names, types = ["c0", "c1", "c2", "c3"], [I64, F64, STR, B8]
    path = os.environ.get("GCOL_BENCH_CSV_FILE")

    def write_text(tbl, sink):
        opts = (plc.io.csv.CsvWriterOptions.builder(plc.io.SinkInfo([sink]), tbl)
                .names(names).include_header(True).build())
        plc.io.csv.write_csv(opts)

    if path and os.path.isfile(path):
        with open(path, "rb") as f:
            data = f.read()
        origin = "gcol's text (GCOL_BENCH_CSV_FILE)"
    else:
        n = NCSV
        cp.random.seed(61)
        s, _ = strings(n, 8, 24, seed=64)
        tbl = plc.Table([col(rand_i64(n)), col(rng.random(n, dtype=cp.float64)), s,
                         col(rng.integers(0, 2, n, dtype=cp.int8).astype(cp.bool_))])
        buf = io.BytesIO()
        write_text(tbl, buf)
        data = buf.getvalue()
        origin = "libcudf's own text of a same-shaped table"

    ptr = _pin(data)
    try:
        opts = plc.io.csv.CsvReaderOptions.builder(plc.io.SourceInfo([data])).build()
        opts.set_dtypes(types)
        got = plc.io.csv.read_csv(opts).tbl
        n = got.num_rows()
        run("csv_read", lambda: emit("csv_read", n, timed(lambda: plc.io.csv.read_csv(opts)),
            f"text {len(data) / 1e9:.3f} GB, {origin}, from host bytes "
            f"({'pinned' if ptr is not None else 'pageable'}); types given"))
    finally:
        _unpin(ptr)
    run("csv_write", lambda: emit("csv_write", n, timed(lambda: write_text(got, io.BytesIO())),
        f"the table read, to io.BytesIO ({origin})"))

def _host_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def _read_parquet_file(row, path):
    """read_parquet of a whole file from pinned host bytes; returns the table read."""
    data = _host_bytes(path)
    ptr = _pin(data)
    try:
        opts = plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([data])).build()
        tbl = plc.io.parquet.read_parquet(opts).tbl
        ms = timed(lambda: plc.io.parquet.read_parquet(opts))
        emit(row, tbl.num_rows(), ms, f"pyarrow's file {len(data) / 1e9:.3f} GB from host bytes "
             f"({'pinned' if ptr is not None else 'pageable'}): "
             f"{len(data) / 1e6 / ms:.2f} GB/s of file")
    finally:
        _unpin(ptr)
    return tbl


def _read_parquet_path(row, path):
    """read_parquet of a whole file from its path, its bytes in the page cache (read just
    before by _read_parquet_file): gcol's rows ROW (gcol_parquet_read_file)."""
    size = os.path.getsize(path)
    opts = plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([path])).build()
    n = plc.io.parquet.read_parquet(opts).tbl.num_rows()
    ms = timed(lambda: plc.io.parquet.read_parquet(opts))
    emit(row, n, ms, f"pyarrow's file {size / 1e9:.3f} GB from its path (page cache): "
         f"{size / 1e6 / ms:.2f} GB/s of file")


def _write_parquet_snappy(tbl):
    """write_parquet of `tbl` with SNAPPY, row groups of 2^20 rows (as gcol's writer), to
    io.BytesIO; libcudf's other defaults (its dictionary policy and statistics)."""
    T = plc.io.types
    md = T.TableInputMetadata(tbl)
    for k, cm in enumerate(md.column_metadata):
        cm.set_name(f"c{k}")

    def write():  # a fresh sink and options each call: write_parquet consumes its options
        buf = io.BytesIO()
        opts = (plc.io.parquet.ParquetWriterOptions.builder(plc.io.SinkInfo([buf]), tbl)
                .metadata(md)
                .compression(T.CompressionType.SNAPPY)
                .row_group_size_rows(1 << 20)
                .build())
        plc.io.parquet.write_parquet(opts)
        return buf

    size = write().getbuffer().nbytes
    ms = timed(write)
    emit("parquet_write_snappy_pyarrow", tbl.num_rows(), ms,
         f"the table read from pyarrow's snappy file; file {size / 1e9:.3f} GB to io.BytesIO "
         f"({size / 1e6 / ms:.2f} GB/s of file): SNAPPY, row groups of 2^20, libcudf's default "
         "dictionary policy")


def _read_csv_file(path):
    """read_csv of the whole text from pinned host bytes: header row, the four types given."""
    data = _host_bytes(path)
    ptr = _pin(data)
    try:
        opts = plc.io.csv.CsvReaderOptions.builder(plc.io.SourceInfo([data])).build()
        opts.set_dtypes([I64, F64, I32, STR])
        n = plc.io.csv.read_csv(opts).tbl.num_rows()
        ms = timed(lambda: plc.io.csv.read_csv(opts))
        emit("csv_read_pyarrow_file", n, ms, f"pyarrow's text {len(data) / 1e9:.3f} GB from host "
             f"bytes ({'pinned' if ptr is not None else 'pageable'}): {len(data) / 1e6 / ms:.2f} "
             "GB/s of text; header row, types given")
    finally:
        _unpin(ptr)


def _read_csv_path(path):
    """read_csv of the file's path, its bytes in the page cache (read just before by
    _read_csv_file): gcol's row csv_read_pyarrow_file_path (gcol_csv_read_file)."""
    size = os.path.getsize(path)
    opts = plc.io.csv.CsvReaderOptions.builder(plc.io.SourceInfo([path])).build()
    opts.set_dtypes([I64, F64, I32, STR])
    n = plc.io.csv.read_csv(opts).tbl.num_rows()
    ms = timed(lambda: plc.io.csv.read_csv(opts))
    emit("csv_read_pyarrow_file_path", n, ms, f"pyarrow's text {size / 1e9:.3f} GB from its path "
         f"(page cache): {size / 1e6 / ms:.2f} GB/s of text; header row, types given")


def io_files():
    # issue 14's rows on the files of bench/data/make_io_files.py DIR (pyarrow's: 2^27 rows of
    # int64, float64, dictionary-encoded int32, strings of 8..32 letters): with
    # GCOL_BENCH_PARQUET_DIR=DIR, read_parquet of DIR/io_snappy.parquet and DIR/io_zstd.parquet
    # from host bytes, then write_parquet of the snappy file's table; with
    # GCOL_BENCH_CSV_INPUT=DIR/io.csv, read_csv of that text. Row names are bench_parquet's and
    # bench_csv's, which read the same files.
    d = os.environ.get("GCOL_BENCH_PARQUET_DIR")
    path = os.environ.get("GCOL_BENCH_CSV_INPUT")
    if not d and not path:
        print("# io_files: set GCOL_BENCH_PARQUET_DIR and/or GCOL_BENCH_CSV_INPUT "
              "(bench/data/make_io_files.py)", file=sys.stderr)
    if d:
        got = []  # the snappy file's table, written back by the write row
        run("parquet_read_snappy_pyarrow", lambda: got.append(_read_parquet_file(
            "parquet_read_snappy_pyarrow", os.path.join(d, "io_snappy.parquet"))))
        if got:
            run("parquet_write_snappy_pyarrow", lambda: _write_parquet_snappy(got[0]))
        got.clear()  # its device memory back before the next file
        run("parquet_read_zstd_pyarrow", lambda: _read_parquet_file(
            "parquet_read_zstd_pyarrow", os.path.join(d, "io_zstd.parquet")))
        for codec in ("snappy", "zstd"):
            row = f"parquet_read_{codec}_pyarrow_path"
            run(row, lambda: _read_parquet_path(row, os.path.join(d, f"io_{codec}.parquet")))
    if path:
        run("csv_read_pyarrow_file", lambda: _read_csv_file(path))
        run("csv_read_pyarrow_file_path", lambda: _read_csv_path(path))


def io_nested():
    # the nested row on bench/data/make_io_files.py DIR --only nested (pyarrow's: 2^25 rows of
    # list<int64> and struct<int32, float64>, nulls at every level, SNAPPY): read_parquet of
    # DIR/io_nested.parquet from host bytes, bench_parquet files-nested's row
    d = os.environ.get("GCOL_BENCH_PARQUET_DIR")
    if not d:
        print("# io_nested: set GCOL_BENCH_PARQUET_DIR (bench/data/make_io_files.py)",
              file=sys.stderr)
        return
    run("parquet_read_nested_pyarrow", lambda: _read_parquet_file(
        "parquet_read_nested_pyarrow", os.path.join(d, "io_nested.parquet")))
    run("parquet_read_nested_pyarrow_path", lambda: _read_parquet_path(
        "parquet_read_nested_pyarrow_path", os.path.join(d, "io_nested.parquet")))


which = sys.argv[1:] or ["sort_i64", "sort_by_key_i32", "sort_two", "sort_strings", "filter_gather_reduce",
                         "search", "distinct", "joins", "groupby", "expression", "regex", "parquet", "csv",
                         "io_files"]
for w in which:
    t = time.time()
    run(w, globals()[w])
    cp.get_default_memory_pool().free_all_blocks()
    print(f"# {w}: {time.time() - t:.1f} s", file=sys.stderr, flush=True)
