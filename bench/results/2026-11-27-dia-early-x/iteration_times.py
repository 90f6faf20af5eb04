#!/usr/bin/env python3
"""The Krylov iterations of bench_ksp's aijtuned solves, from a cuptitrace timeline: an iteration runs from one
aijtuned product kernel's start to the next one's, where other kernels ran between them (the solve, not the timed
loop).  Prints the median iteration's wall time, the GPU's busy time in it (its kernels' durations summed), and
its kernel count.

    python3 iteration_times.py TRACE.txt[.gz]
"""
import gzip
import statistics
import sys

for path in sys.argv[1:]:
    ks = []
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            p = line.split()
            if len(p) >= 6 and p[0] == "K":
                ks.append((int(p[1]), int(p[2]), p[5]))
    ks.sort()
    sp = [i for i, k in enumerate(ks) if "fused_spmv" in k[2]]
    its = [((ks[b][0] - ks[a][0]) / 1e3, sum(ks[j][1] - ks[j][0] for j in range(a, b)) / 1e3, b - a) for a, b in zip(sp, sp[1:]) if b - a > 1]
    if its:
        print(f"{path}: {len(its)} iterations, wall median {statistics.median(i[0] for i in its):.1f} us, GPU busy median "
              f"{statistics.median(i[1] for i in its):.1f} us, {statistics.median(i[2] for i in its):.0f} kernels")
