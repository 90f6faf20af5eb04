#!/usr/bin/env python3
"""Where a distributed MatMult's time goes, from tools/cuptitrace.c's timelines (one file per rank).

    python3 tools/trace_products.py [--kernel SUBSTRING] TRACE.0.txt TRACE.1.txt ...

A product is found by its longest kernel (the diagonal block's): the kernel name with the most time in the
file.  Where there are peer-to-peer copies, only products with one beside them count (the distributed ones).  For each, relative to the
start of the diagonal block's kernel D, in us: the host's launch of D, D itself, the pack kernel and the
copies on the other stream, and the first kernel after D on D's stream (the off-diagonal block, O) with the
host call that launched it.  Medians over products, split into those started from an idle device (a gap of
more than 10 us before D: "per call") and those issued back to back ("batch").
"""
import gzip
import statistics
import sys
from collections import defaultdict


def load(path):
    kernels, copies, api = [], [], {}
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            p = line.split()
            if len(p) < 6:
                continue
            start, end, where, corr = int(p[1]), int(p[2]), int(p[3]), int(p[4])
            if p[0] == "K":
                kernels.append((start, end, where, corr, p[5]))
            elif p[0] == "C" and len(p) >= 7:
                copies.append((start, end, where, corr, int(p[5]), int(p[6])))
            elif p[0] == "A":
                api[corr] = (start, end, p[5])
    kernels.sort()
    copies.sort()
    return kernels, copies, api


def short(name, n=40):
    return name if len(name) <= n else name[: n - 3] + "..."


def products(kernels, copies, api, only):
    total = defaultdict(int)
    for k in kernels:
        if only in k[4]:
            total[k[4]] += k[1] - k[0]
    main = max(total, key=total.get)
    peer = any(c[5] == 10 for c in copies)  # one rank: every D is a product
    rows = []
    for i, d in enumerate(kernels):
        if d[4] != main:
            continue
        ds, de, stream = d[0], d[1], d[2]
        before = [k for k in kernels[:i] if k[2] == stream]
        gap = (ds - before[-1][1]) / 1e3 if before else float("inf")
        window = [c for c in copies if ds - 20_000 <= c[0] <= de and c[5] == 10]
        if peer and not window:
            continue
        after = [k for k in kernels[i + 1:] if k[2] == stream and k[0] >= de]
        pack = [k for k in kernels if k[2] != stream and ds - 20_000 <= k[0] <= de]
        r = {"gap before D": gap, "D": (de - ds) / 1e3}
        if d[3] in api:
            r["host launch of D, end"] = (api[d[3]][1] - ds) / 1e3
        if pack:
            r["pack start"] = (pack[0][0] - ds) / 1e3
            r["pack end"] = (pack[0][1] - ds) / 1e3
        if window:
            r["copies start"] = (window[0][0] - ds) / 1e3
            r["copies end"] = (max(c[1] for c in window) - ds) / 1e3
        if after:
            o = after[0]
            r["O start - D end"] = (o[0] - de) / 1e3
            r["O"] = (o[1] - o[0]) / 1e3
            r["O end - D start"] = (o[1] - ds) / 1e3
            if o[3] in api:
                r["host launch of O, end - D end"] = (api[o[3]][1] - de) / 1e3
            r["O name"] = o[4]
        rows.append(r)
    return main, rows


def report(path, only):
    kernels, copies, api = load(path)
    if not any(only in k[4] for k in kernels):
        print(f"{path}: no kernels")
        return
    main, rows = products(kernels, copies, api, only)
    print(f"== {path}: {len(kernels)} kernels, {len(copies)} copies; D = {short(main, 70)}")
    for label, keep in (("per call", lambda r: r["gap before D"] > 10), ("batch", lambda r: r["gap before D"] <= 10)):
        sel = [r for r in rows if keep(r)]
        if not sel:
            continue
        print(f"  {label}: {len(sel)} products, median us relative to D's start")
        keys = [k for k in sel[0] if k != "O name"]
        for k in keys:
            vals = [r[k] for r in sel if k in r and r[k] != float("inf")]
            if vals:
                print(f"    {k:34s} {statistics.median(vals):9.2f}   (min {min(vals):.2f}, max {max(vals):.2f})")
        names = {r.get("O name", "-") for r in sel}
        print(f"    O: {', '.join(short(n, 70) for n in names)}")


args = sys.argv[1:]
only = ""
if len(args) > 1 and args[0] == "--kernel":
    only, args = args[1], args[2:]
for path in args:
    report(path, only)
