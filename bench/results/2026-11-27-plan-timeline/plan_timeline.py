#!/usr/bin/env python3
"""Where the GPU planner's time goes, from a tools/cuptitrace.c timeline (kernels and runtime calls).

A planning starts at the runtime call that launches its lengths pass (a stats kernel over row_len) and
ends with the last runtime call before the first launch of a kernel that is not the planner's (the
build's), or before the next planning.  For each planning: its wall time, the runtime calls' time by
name, the kernels' time, and the host's time outside runtime calls; with -v, every record of the
median planning of each group.
    python3 plan_timeline.py [-v] TRACE.txt[.gz] ..."""
import gzip
import statistics
import sys
from collections import defaultdict

PLANNER = ("stats_", "keys_kernel", "DeviceRadixSort", "degree_kernel", "scatter_kernel", "sectors_", "natural_sectors",
           "diagonals_", "blocks_kernel", "long_hist", "DeviceScan", "class_", "count_sort")


def planner(name):
    return any(p in name for p in PLANNER)


def short(name):
    for p in PLANNER + ("fill", "build", "skeleton", "iota", "gather"):
        if p in name:
            i = name.find(p)
            return name[i:i + 40]
    return name[:40]


def load(path):
    K, A, C = [], [], []
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            p = line.split()
            if len(p) < 6:
                continue
            if p[0] == "K":
                K.append((int(p[1]), int(p[2]), int(p[4]), p[5]))
            elif p[0] == "A":
                A.append((int(p[1]), int(p[2]), int(p[4]), p[5]))
            elif p[0] == "C":
                C.append((int(p[1]), int(p[2]), int(p[4]), p[5]))
    return K, A, C


def episodes(K, A):
    kcorr = {c: (s, e, n) for s, e, c, n in K}
    A = sorted(A)
    out, cur = [], None
    for s, e, c, n in A:
        k = kcorr.get(c)
        if k and "launch" in n.lower():
            if planner(k[2]) and "row_len" in k[2] and k[2].startswith("_Z") and ("stats_kernel" in k[2] or "stats_diag_kernel" in k[2]):
                if cur:
                    out.append(cur)
                cur = [(s, e, c, n, k)]
                continue
            if cur and not planner(k[2]):
                out.append(cur)
                cur = None
                continue
        if cur is not None:
            cur.append((s, e, c, n, k if k and "launch" in n.lower() else None))
    if cur:
        out.append(cur)
    return out


def trim(ep):
    """Up to the first wait after the planner's last launch (the host's work after it is not seen)."""
    j = max(i for i, r in enumerate(ep) if r[4])
    for i in range(j, len(ep)):
        if "Synchronize" in ep[i][3]:
            return ep[:i + 1], ep[-1][1] - ep[i][1]
    return ep, 0


def summarize(ep):
    t0, t1 = ep[0][0], ep[-1][1]
    api = defaultdict(float)
    busy, last = 0, t0
    kern = []
    for s, e, c, n, k in ep:
        api[n] += (e - s) / 1e3
        lo, hi = max(s, last), max(e, last)
        busy += hi - lo
        last = max(last, e)
        if k:
            kern.append(k)
    ktime = sum(k[1] - k[0] for k in kern) / 1e3
    return (t1 - t0) / 1e3, api, busy / 1e3, ktime, kern


verbose = "-v" in sys.argv
for path in [a for a in sys.argv[1:] if a != "-v"]:
    K, A, C = load(path)
    eps = episodes(K, A)
    print(f"{path}: {len(eps)} plannings")
    for i, whole in enumerate(eps):
        ep, after = trim(whole)
        wall, api, busy, ktime, kern = summarize(ep)
        launches = sum(1 for r in ep if r[4])
        syncs = sum(1 for r in ep if "Synchronize" in r[3])
        top = sorted(api.items(), key=lambda kv: -kv[1])[:6]
        print(f"  #{i}: wall {wall:7.1f} us; in runtime calls {busy:6.1f} us ({len(ep)} calls: {launches} launches, {syncs} waits), kernels {ktime:6.1f} us ({len(kern)}); host outside calls {wall - busy:6.1f} us; then {after / 1e3:.1f} us to the next launch")
        print("       " + ", ".join(f"{n} {t:.1f}" for n, t in top))
        if verbose:
            t0 = ep[0][0]
            for s, e, c, n, k in ep:
                line = f"         {(s - t0) / 1e3:8.1f} +{(e - s) / 1e3:6.1f}  {n}"
                if k:
                    line += f"  -> {short(k[2])} gpu {(k[0] - t0) / 1e3:.1f} +{(k[1] - k[0]) / 1e3:.1f}"
                print(line)
