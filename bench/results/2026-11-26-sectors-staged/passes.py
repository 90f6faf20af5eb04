#!/usr/bin/env python3
"""Per-pass medians of AIJT_PLAN_GPU_TRACE output (trace.sh): passes.py DIR [runs...]; each plan after a
matrix's first, the median per pass position, in microseconds.  MATS=a,b,... names the matrices."""
import gzip, os, re, statistics, sys

d = sys.argv[1]
runs = sys.argv[2:] or ["a1", "b1", "a2", "b2"]
for mat in os.environ.get("MATS", "circuit,actor_movie_incidence,memplus,ckt11752_dc_1").split(","):
    print(mat)
    for v in runs:
        cur, seq = None, []
        for line in gzip.open(f"{d}/trace-{v}.txt.gz", "rt"):
            m = re.match(r"\[([^\]]+)\]", line)
            if m:
                cur = m.group(1)
                continue
            m = re.match(r"aijt_dev_plan_model: (\S+)\s+([\d.]+) ms", line)
            if m and cur == mat:
                seq.append((m.group(1), float(m.group(2))))
        plans, p = [], []
        for k, t in seq:
            p.append((k, t))
            if k == "all":
                plans.append(p)
                p = []
        plans = plans[1:]
        if not plans:
            continue
        keys = [k for k, _ in plans[0]]
        med = [statistics.median(pl[i][1] for pl in plans if len(pl) == len(keys)) for i in range(len(keys))]
        print("  ", v, " ".join(f"{k} {m * 1000:.0f}" for k, m in zip(keys, med)))
