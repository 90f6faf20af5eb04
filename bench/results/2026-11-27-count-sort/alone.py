#!/usr/bin/env python3
"""Planning alone inside PETSc (bench_spmv's plan_alone_ms, median of its -plan_reps assemblies) from ab3.sh's
spmv-{a,b}N.csv: each run's figure, the median over runs, B/A of the medians, and B/A in products."""
import csv, glob, os, re, statistics, sys
d = sys.argv[1]
runs = {}
for f in sorted(glob.glob(os.path.join(d, "spmv-*.csv"))):
    v = re.search(r"spmv-([ab])(\d+)\.csv", f).group(1)
    for r in csv.DictReader(open(f)):
        if r.get("plan_alone_ms"):
            runs.setdefault(r["name"], {}).setdefault(v, []).append((float(r["plan_alone_ms"]), float(r["plan_alone_calls"] or "nan"), int(r["nnz"])))
print(f"{'matrix':36s} {'nnz':>9s}  A runs (ms) | B runs (ms) | A median, B median, B/A | products A -> B")
for name, x in runs.items():
    if not (x.get("a") and x.get("b")): continue
    ma, mb = (statistics.median(m for m, _, _ in x[v]) for v in "ab")
    pa, pb = (statistics.median(c for _, c, _ in x[v]) for v in "ab")
    print(f"{name:36s} {x['a'][0][2]:9d}  " + " ".join(f"{m:.3f}" for m, _, _ in x["a"]) + " | " + " ".join(f"{m:.3f}" for m, _, _ in x["b"]) +
          f" | {ma:.3f} {mb:.3f} {mb / ma:.2f} | {pa:.1f} -> {pb:.1f}")
