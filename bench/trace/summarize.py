#!/usr/bin/env python3
"""Summarizes a cupti_trace.c CSV: the GPU's time per kernel name and per copy kind, idle gaps,
and a timeline in bins (the share of each bin spent copying host to device, device to host, and
running any kernel; the kernel that took most of it).

  summarize.py trace.csv [--bin-ms 10] [--from-ms T] [--to-ms T] [--top 15] [--burst K]
                         [--launches NAME]

Without a window, lists the bursts of GPU work (separated by 50 ms idle: one benchmark
repetition each, typically) and details the last one; --burst K details burst K instead.
--launches NAME lists every launch of the kernels whose name holds NAME in the window (start,
duration, stream): how long each batch's pass took.
"""
import argparse
import collections
import csv

COPY_KINDS = {1: "HtoD", 2: "DtoH", 8: "DtoD", 10: "PtoP"}


def union_ns(spans, lo, hi):
    total, end = 0, lo
    for s, e in sorted(spans):
        s, e = max(s, end, lo), min(e, hi)
        if e > s:
            total += e - s
            end = e
    return total


def find_bursts(ev, gap_ns=50_000_000):
    bursts = []
    for _, s, e, _, _, _ in sorted(ev, key=lambda x: x[1]):
        if bursts and s - bursts[-1][1] <= gap_ns:
            bursts[-1][1] = max(bursts[-1][1], e)
        else:
            bursts.append([s, e])
    return [tuple(b) for b in bursts]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--bin-ms", type=float, default=10.0)
    ap.add_argument("--from-ms", type=float, default=0.0)
    ap.add_argument("--to-ms", type=float, default=None)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--burst", type=int, default=-1)
    ap.add_argument("--launches", default=None,
                    help="list each launch in the window whose kernel name holds this text")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.trace)))
    if not rows:
        print("no records")
        return
    t0 = min(int(r["start_ns"]) for r in rows)
    ev = []
    for r in rows:
        s, e = int(r["start_ns"]) - t0, int(r["end_ns"]) - t0
        kind = r["kind"]
        if kind == "memcpy":
            kind = COPY_KINDS.get(int(r["copy_kind"] or 0), "copy")
        ev.append((kind, s, e, int(r["stream"]), int(r["bytes"] or 0), r["name"]))
    lo = int(a.from_ms * 1e6)
    hi = int(a.to_ms * 1e6) if a.to_ms is not None else max(e for _, _, e, _, _, _ in ev)
    if a.to_ms is None and a.from_ms == 0.0:
        bursts = find_bursts(ev)
        for i, (b0, b1) in enumerate(bursts):
            inside = [x for x in ev if x[1] >= b0 and x[2] <= b1]
            h2d = union_ns([(s, e) for k, s, e, _, _, _ in inside if k == "HtoD"], b0, b1)
            kern = union_ns([(s, e) for k, s, e, _, _, _ in inside if k == "kernel"], b0, b1)
            print(f"burst {i}: {b0 / 1e6:9.1f} ms + {(b1 - b0) / 1e6:7.1f} ms  HtoD {h2d / 1e6:6.1f} "
                  f"ms  kernels {kern / 1e6:6.1f} ms  records {len(inside)}")
        lo, hi = bursts[a.burst]
    ev = [x for x in ev if x[2] > lo and x[1] < hi]
    per = collections.defaultdict(lambda: [0, 0, 0])
    for kind, s, e, _, b, name in ev:
        key = name[:90] if kind == "kernel" else kind
        per[key][0] += e - s
        per[key][1] += 1
        per[key][2] += b
    print(f"window {lo / 1e6:.1f}-{hi / 1e6:.1f} ms; busy (union of all) "
          f"{union_ns([(s, e) for _, s, e, _, _, _ in ev], lo, hi) / 1e6:.1f} ms")
    print(f"{'ms':>9} {'count':>7} {'GB/s':>7}  what")
    for key, (ns, n, b) in sorted(per.items(), key=lambda x: -x[1][0])[:a.top]:
        bw = f"{b / ns:7.1f}" if b and ns else "       "
        print(f"{ns / 1e6:9.2f} {n:7d} {bw}  {key}")
    if a.launches is not None:  # one kernel's launches, in order: which batch ran how long
        mine = sorted((x for x in ev if x[0] == "kernel" and a.launches in x[5]),
                      key=lambda x: x[1])
        print(f"launches of '{a.launches}': {len(mine)}, "
              f"{sum(e - s for _, s, e, _, _, _ in mine) / 1e6:.2f} ms in all")
        for _, s, e, stream, _, _ in mine:
            print(f"{s / 1e6:10.2f} ms  {(e - s) / 1e6:8.2f} ms  stream {stream}")
    gaps, last = [], lo
    for _, s, e, _, _, _ in sorted(ev, key=lambda x: x[1]):
        if s - last > 1e6:
            gaps.append((last, s))
        last = max(last, e)
    print(f"idle gaps over 1 ms: {len(gaps)}, {sum(g[1] - g[0] for g in gaps) / 1e6:.1f} ms: " +
          ", ".join(f"{g[0] / 1e6:.1f}+{(g[1] - g[0]) / 1e6:.1f}" for g in gaps[:12]))
    step = int(a.bin_ms * 1e6)
    print(f"{'bin ms':>8} {'HtoD%':>6} {'DtoH%':>6} {'kern%':>6} {'streams':>7}  top kernel")
    for b0 in range(lo, hi, step):
        b1 = b0 + step
        inside = [x for x in ev if x[2] > b0 and x[1] < b1]
        share = {k: union_ns([(s, e) for kk, s, e, _, _, _ in inside if kk == k], b0, b1) / step
                 for k in ("HtoD", "DtoH", "kernel")}
        kt = collections.Counter()
        for kind, s, e, _, _, name in inside:
            if kind == "kernel":
                kt[name[:60]] += min(e, b1) - max(s, b0)
        streams = len({x[3] for x in inside})
        top = kt.most_common(1)[0][0] if kt else ""
        print(f"{b0 / 1e6:8.1f} {100 * share['HtoD']:6.0f} {100 * share['DtoH']:6.0f} "
              f"{100 * share['kernel']:6.0f} {streams:7d}  {top}")


if __name__ == "__main__":
    main()
