#!/usr/bin/env python3
"""Where the first product after a conversion from GPU values goes, from tools/cuptitrace.c's timeline of
bench_convert -each -reps 1 (one file).  bench_convert marks, with a cudaDriverGetVersion call, each way's start (just
before MatConvert) and its first product's end; windows alternate aijcusparse, aijtuned per matrix, the warm-up's
first.  For each aijtuned window after the warm-up, in us: its length; the runtime calls by name (count, time); the
kernels by name (count, time on the GPU); the copies; and the host's time outside runtime calls.

    python3 first_product.py TRACE.txt[.gz]... [NAMES...]   NAMES: the matrices in order, for the headings
The tracer writes a timeline per process; of several TRACE files (a shell glob), the largest is bench_convert's.
"""
import gzip
import os
import sys
from collections import defaultdict


def load(path):
    K, C, A = [], [], []
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            p = line.split()
            if len(p) < 6:
                continue
            s, e = int(p[1]), int(p[2])
            if p[0] == "K":
                K.append((s, e, p[5]))
            elif p[0] == "C" and len(p) >= 7:
                C.append((s, e, int(p[5]), int(p[6])))
            elif p[0] == "A":
                A.append((s, e, int(p[3]), p[5]))
    return sorted(K), sorted(C), sorted(A)


def union(intervals):
    total, end = 0, None
    for s, e in sorted(intervals):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def main():
    args = sys.argv[1:]
    traces = [a for a in args if os.path.isfile(a)]
    names = [a for a in args if a not in traces]
    K, C, A = load(max(traces, key=os.path.getsize))
    # bench_convert's marks follow its wall clock's device synchronization; PETSc's own calls to the same function
    # (at a device's set-up) follow other calls
    marks = [a for i, a in enumerate(A) if a[3].startswith("cudaDriverGetVersion") and i and A[i - 1][3].startswith("cudaDeviceSynchronize")]
    windows = [(marks[i][1], marks[i + 1][0]) for i in range(0, len(marks) - 1, 2)]
    for w in range(3, len(windows), 2):  # aijtuned's, after the warm-up's pair
        lo, hi = windows[w]
        title = names[w // 2 - 1] if w // 2 - 1 < len(names) else "matrix %d" % (w // 2)
        api = [a for a in A if lo <= a[0] and a[1] <= hi]
        main_thread = marks[0][2]
        calls = defaultdict(lambda: [0, 0])
        for s, e, t, n in api:
            key = n.split("_v")[0] + ("" if t == main_thread else " (other thread)")
            calls[key][0] += 1
            calls[key][1] += e - s
        kern = defaultdict(lambda: [0, 0])
        for s, e, n in K:
            if lo <= s and e <= hi:
                kern[n[:60]][0] += 1
                kern[n[:60]][1] += e - s
        copies = [c for c in C if lo <= c[0] and c[1] <= hi]
        outside = (hi - lo) - union([(s, e) for s, e, t, n in api if t == main_thread])
        print("== %s: aijtuned from MatConvert to its first product's end %.1f us; host outside runtime calls %.1f us" % (title, (hi - lo) / 1e3, outside / 1e3))
        print("   runtime calls (count, us):")
        for n, (c, t) in sorted(calls.items(), key=lambda x: -x[1][1])[:14]:
            print("     %-44s %4d %9.1f" % (n, c, t / 1e3))
        print("   kernels (count, us on the GPU):")
        for n, (c, t) in sorted(kern.items(), key=lambda x: -x[1][1])[:12]:
            print("     %-60s %4d %9.1f" % (n, c, t / 1e3))
        print("   copies: %d, %.1f us, %d bytes" % (len(copies), sum(c[1] - c[0] for c in copies) / 1e3, sum(c[2] for c in copies)))


main()
