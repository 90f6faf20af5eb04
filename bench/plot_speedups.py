#!/usr/bin/env python3
"""Bar chart of aijtuned's speedup per matrix from a bench_spmv CSV (-csv): over aijcusparse, sellcuda
and the best raw cuSPARSE algorithm, on a log scale with the line at 1 (above it aijtuned is faster),
each comparison's geometric mean in the legend and as a dashed line.

    python3 bench/plot_speedups.py spmv.csv speedups.png
"""
import csv
import math
import sys

COMPARISONS = [
    ("speedup_vs_aijcusparse", "vs aijcusparse", "tab:blue"),
    ("speedup_vs_sellcuda", "vs sellcuda", "tab:orange"),
    ("speedup_vs_best_raw", "vs best raw cuSPARSE", "tab:green"),
]
CLASS_ORDER = {"regular": 0, "small": 1, "irregular": 2, "file": 3}


def read(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r.get("complete", "1") != "1":
                continue  # a matrix an error stopped: left out, as in bench_spmv's summary
            rows.append(r)
    rows.sort(key=lambda r: (CLASS_ORDER.get(r["class"], 4), r["name"]))
    return rows


def value(r, column):
    try:
        v = float(r[column])
    except (KeyError, ValueError):
        return None  # empty field: the method did not run on this matrix
    return v if v > 0 and math.isfinite(v) else None


def geomean(values):
    values = [v for v in values if v is not None]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def main(csv_path, png_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator

    rows = read(csv_path)
    if not rows:
        sys.exit("%s: no complete matrices" % csv_path)
    n, width = len(rows), 0.27
    fig, ax = plt.subplots(figsize=(max(8.0, 0.55 * n + 2.0), 5.0))
    for k, (column, label, color) in enumerate(COMPARISONS):
        values = [value(r, column) for r in rows]
        g = geomean(values)
        xs = [i + (k - 1) * width for i, v in enumerate(values) if v is not None]
        # bars grow from 1x, up where aijtuned is faster, down where it is slower
        ax.bar(xs, [v - 1.0 for v in values if v is not None], width, bottom=1.0, color=color,
               label="%s (geomean %.2fx)" % (label, g) if g else label)
        if g:
            ax.axhline(g, color=color, linestyle="--", linewidth=0.8)
    ax.axhline(1.0, color="black", linewidth=1.0)
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=2.0))
    ax.yaxis.set_minor_locator(LogLocator(base=2.0, subs=(1.5,)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "%gx" % v))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.set_ylabel("speedup of aijtuned (their time / aijtuned's)")
    ax.set_xticks(range(n))
    ax.set_xticklabels(["%s%s" % (r["name"], "" if r["class"] != "file" else "*") for r in rows], rotation=60, ha="right", fontsize=8)
    # class boundaries: regular | small | irregular | files
    for i in range(1, n):
        if rows[i]["class"] != rows[i - 1]["class"]:
            ax.axvline(i - 0.5, color="grey", linewidth=0.6)
    ax.set_xlim(-0.6, n - 0.4)
    ax.set_title("aijtuned MatMult speedup per matrix (* Matrix Market file)", pad=24)
    ax.legend(fontsize=8, ncol=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.grid(axis="y", which="both", linewidth=0.3)
    fig.tight_layout()
    fig.savefig(png_path, dpi=130)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
