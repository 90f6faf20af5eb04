#!/usr/bin/env python3
"""Each kernel's time inside bench_ksp's solves against its time in the MatMult loop, from a cuptitrace timeline.

    python3 kernel_times.py TRACE.txt[.gz]

A kernel launched right after one of the same name on its stream is "loop" (bench_ksp's timed MatMults, back
to back); any other is "solve" (between the Krylov method's vector kernels).  Prints, per kernel name with
at least 100 launches: launches and median / 10th / 90th percentile time in us, for each kind.
"""
import gzip
import statistics
import sys
from collections import defaultdict


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def main(path):
    ks = []
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            p = line.split()
            if len(p) >= 6 and p[0] == "K":
                ks.append((int(p[1]), int(p[2]), int(p[3]), p[5]))
    ks.sort()
    last = {}
    times = defaultdict(lambda: {"solve": [], "loop": []})
    for start, end, stream, name in ks:
        kind = "loop" if last.get(stream) == name else "solve"
        times[name][kind].append((end - start) / 1e3)
        last[stream] = name
    print(f"{path}")
    for name, t in sorted(times.items(), key=lambda kv: -sum(kv[1]["solve"]) - sum(kv[1]["loop"])):
        n = len(t["solve"]) + len(t["loop"])
        if n < 100:
            continue
        row = []
        for kind in ("solve", "loop"):
            v = t[kind]
            row.append(f"{kind} {len(v):5d} x {statistics.median(v):7.1f} [{pct(v, 0.1):6.1f}, {pct(v, 0.9):6.1f}]" if v else f"{kind}     0")
        print(f"  {name[:60]:60s} {row[0]}   {row[1]}")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        main(p)
