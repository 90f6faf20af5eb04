#!/usr/bin/env python3
"""Scaling over GPUs from bench_scaling's CSV: the efficiency table (printed) and, where matplotlib is
installed, a PNG with MatMult time per call against GPUs for each problem and format, the parallel
efficiency, and where aijtuned's MatMult time goes: its local and off-diagonal products timed alone, and
what of its own ghost exchange they do not hide (MatMult - local - off-diagonal; the exchange itself is
not timed alone); PETSc's VecScatter of the same pattern, timed alone, is drawn for comparison.

Efficiency against the smallest rank count n0 measured: weak scaling (a problem named *weak*, the same
rows per GPU) t(n0) / t(n); strong scaling (every other problem, the same matrix) n0 t(n0) / (n t(n)).
KSP efficiency uses the time per iteration, since weak-scaled Poisson needs more iterations on more GPUs.

    python3 bench/plot_scaling.py scaling.csv [scaling.png]
"""
import csv
import math
import sys

PARTS = [("local_us", "local product"), ("offdiag_us", "off-diagonal product")]
TUNED = "aijtuned"


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan


def load(path):
    """{problem: {type: {ranks: row}}}, problems and types in the order they first appear; a repeated job's last line wins."""
    data, problems, types = {}, [], []
    with open(path) as f:
        for r in csv.DictReader(f):
            if r.get("problem") in (None, "", "problem"):  # a header repeated by concatenating files
                continue
            p, t, n = r["problem"], r["type"], int(r["ranks"])
            if p not in problems:
                problems.append(p)
            if t not in types:
                types.append(t)
            data.setdefault(p, {}).setdefault(t, {})[n] = r
    return data, problems, types


def efficiency(problem, by_ranks, key):
    """{ranks: efficiency} of the time in column key (a function of the row)."""
    ok = {n: key(r) for n, r in by_ranks.items() if key(r) > 0}
    if not ok:
        return {}
    n0 = min(ok)
    if "weak" in problem:
        return {n: ok[n0] / t for n, t in ok.items()}
    return {n: n0 * ok[n0] / (n * t) for n, t in ok.items()}


def per_iteration(r):
    its, s = num(r["ksp_its"]), num(r["ksp_s"])
    return 1e6 * s / its if its > 0 else math.nan


def fmt(v, spec):
    return "-" if v is None or math.isnan(v) else format(v, spec)


def table(data, problems, types):
    head = "%-16s %-12s %4s %10s %6s %9s %9s %10s %10s %8s %6s %9s %6s %8s %s" % (
        "problem", "format", "GPUs", "MatMult us", "eff", "batch us", "local us", "scatter us", "offdiag us",
        "speedup", "its", "us/it", "eff", "ksp s", "agrees")
    print(head)
    for p in problems:
        ref = data[p].get(types[0], {})
        for t in types:
            rows = data[p].get(t, {})
            eff = efficiency(p, rows, lambda r: num(r["mult_us"]))
            keff = efficiency(p, rows, per_iteration)
            for n in sorted(rows):
                r = rows[n]
                speed = num(ref[n]["mult_us"]) / num(r["mult_us"]) if n in ref and num(r["mult_us"]) > 0 else math.nan
                print("%-16s %-12s %4d %10s %6s %9s %9s %10s %10s %8s %6s %9s %6s %8s %s" % (
                    p, t, n, fmt(num(r["mult_us"]), ".1f"), fmt(eff.get(n), ".0%"), fmt(num(r["batch_us"]), ".1f"),
                    fmt(num(r["local_us"]), ".1f"), fmt(num(r["scatter_us"]), ".1f"), fmt(num(r["offdiag_us"]), ".1f"),
                    fmt(speed, ".2f"), r["ksp_its"] or "-", fmt(per_iteration(r), ".1f"), fmt(keff.get(n), ".0%"),
                    fmt(num(r["ksp_s"]), ".3f"), r.get("ksp_match", "")))
    print("eff: parallel efficiency of MatMult (and of the KSP time per iteration); speedup: %s's MatMult time / this one" % types[0])


def plot(data, problems, types, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_scaling: matplotlib is not installed, no %s (the table above has every figure)" % png)
        return 0
    colors = dict(zip(types, ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]))
    styles = ["-", "--", ":", "-."]
    ncol = max(len(problems), 3)
    fig, axes = plt.subplots(3, ncol, figsize=(5 * ncol, 13), squeeze=False)
    for i, p in enumerate(problems):
        ranks = sorted({n for t in types for n in data[p].get(t, {})})
        ax = axes[0][i]  # time per MatMult, every format
        for t in types:
            rows = data[p].get(t, {})
            ns = sorted(rows)
            ax.plot(ns, [num(rows[n]["mult_us"]) for n in ns], "o-", color=colors[t], label=t)
        ax.set_title("%s (%s scaling)" % (p, "weak" if "weak" in p else "strong"))
        ax.set_xlabel("GPUs (one rank each)")
        ax.set_ylabel("MatMult time per call (us)")
        ax.set_xticks(ranks)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax = axes[1][i]  # aijtuned's parts, stacked, against its MatMult
        rows = data[p].get(TUNED, {})
        ns = sorted(rows)
        bottom = [0.0] * len(ns)
        for (col, name), color in zip(PARTS, ["tab:green", "tab:gray"]):
            v = [num(rows[n][col]) for n in ns]
            v = [0.0 if math.isnan(x) else x for x in v]
            ax.bar(ns, v, bottom=bottom, width=0.6, color=color, label=name)
            bottom = [b + x for b, x in zip(bottom, v)]
        mult = [num(rows[n]["mult_us"]) for n in ns]
        exposed = [max(0.0, m - b) if not math.isnan(m) else 0.0 for m, b in zip(mult, bottom)]
        ax.bar(ns, exposed, bottom=bottom, width=0.6, color="tab:red", label="exchange not hidden")
        ax.plot(ns, mult, "k_", ms=30, mew=2, label="MatMult")
        scatter = [num(rows[n]["scatter_us"]) for n in ns]
        if any(not math.isnan(x) for x in scatter):
            ax.plot(ns, scatter, "x", color="tab:red", ms=8, mew=2, label="PETSc's VecScatter alone")
        ax.set_title("%s, %s: where MatMult goes" % (p, TUNED), fontsize=10)
        ax.set_xlabel("GPUs")
        ax.set_ylabel("time per call (us)")
        ax.set_xticks(ranks)
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=8)
    for i in range(len(problems), ncol):
        axes[0][i].axis("off")
        axes[1][i].axis("off")
    what = [("mult_us", "MatMult parallel efficiency", lambda r: num(r["mult_us"])),
            ("ksp", "KSP time per iteration: parallel efficiency", per_iteration)]
    for k, (_, title, key) in enumerate(what):
        ax = axes[2][k]
        for i, p in enumerate(problems):
            for t in types:
                eff = efficiency(p, data[p].get(t, {}), key)
                ns = sorted(eff)
                if ns:
                    ax.plot(ns, [eff[n] for n in ns], "o" + styles[i % len(styles)], color=colors[t], label="%s, %s" % (p, t))
        ax.axhline(0.85, color="gray", lw=0.8, ls=":")
        ax.set_title(title + " (dotted: 85%)", fontsize=10)
        ax.set_xlabel("GPUs")
        ax.set_ylim(0, 1.2)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    ax = axes[2][2]  # aijtuned against the reference format
    for i, p in enumerate(problems):
        ref, rows = data[p].get(types[0], {}), data[p].get(TUNED, {})
        ns = [n for n in sorted(rows) if n in ref and num(rows[n]["mult_us"]) > 0]
        ax.plot(ns, [num(ref[n]["mult_us"]) / num(rows[n]["mult_us"]) for n in ns], "o" + styles[i % len(styles)], color="k", label=p)
    ax.axhline(1.0, color="gray", lw=0.8)
    ax.set_title("MatMult speedup of %s over %s" % (TUNED, types[0]), fontsize=10)
    ax.set_xlabel("GPUs")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    every = sorted({n for p in problems for t in types for n in data[p].get(t, {})})
    for k in range(3):
        axes[2][k].set_xticks(every)
    for i in range(3, ncol):
        axes[2][i].axis("off")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print("plot_scaling: wrote %s" % png)
    return 0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    try:
        data, problems, types = load(sys.argv[1])
    except OSError as e:
        print("plot_scaling: %s" % e)
        return 1
    if not problems:
        print("plot_scaling: no results in %s" % sys.argv[1])
        return 1
    table(data, problems, types)
    return plot(data, problems, types, sys.argv[2]) if len(sys.argv) > 2 else 0


if __name__ == "__main__":
    sys.exit(main())
