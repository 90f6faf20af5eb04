#!/usr/bin/env python3
"""STREAM's lanes per row in a bench_model csv: per matrix, the model's time of four lanes over one lane against
the measured one, and the geometric mean of predicted ratio / measured ratio (below 1: the model favours four).
    lanes.py model.csv [margin]   (margin: STREAM_LANES_MARGIN, default 0.05)"""
import csv, math, sys

plans = {}
for row in csv.reader(open(sys.argv[1])):
    if row[0] == "plan" and row[2] in ("stream", "stream4"):
        plans.setdefault(row[1], {})[row[2]] = (float(row[4]), float(row[5]))
margin = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
logs, right = [], 0
print(f"{'matrix':36s} {'pred 4/1':>9s} {'meas 4/1':>9s} {'chosen':>6s} {'faster':>6s}")
for name, v in plans.items():
    if len(v) < 2: continue
    p, m = v["stream4"][0] / v["stream"][0], v["stream4"][1] / v["stream"][1]
    chosen, faster = 4 if p * (1 + margin) < 1 else 1, 4 if m < 1 else 1
    right += chosen == faster
    logs.append(math.log(p / m))
    print(f"{name:36s} {p:9.3f} {m:9.3f} {chosen:6d} {faster:6d}")
print(f"{len(logs)} matrices: predicted/measured ratio geomean {math.exp(sum(logs) / len(logs)):.3f}, "
      f"{sum(l < 0 for l in logs)} below 1; lanes chosen right on {right} (margin {margin})")
