#!/usr/bin/env python3
"""Pictures of a bench_model CSV (-csv): the model's plan of one matrix (rows sorted by length on the x axis,
each strip a box from its first to its last row, as tall as its longest row, coloured by layout, with its
predicted and measured time), and per matrix the time of the rules' plan, the best one-format plan and
the model plan plus tuning neighbours over the model plan's time.

    python3 bench/plot_model.py model.csv model.png [matrix]     (default matrix: rmat)
"""
import csv
import math
import sys

COLOURS = {"csr": "tab:blue", "long": "tab:red", "ell": "tab:green", "sell": "tab:olive", "coo": "tab:purple", "dia": "tab:cyan", "panel": "tab:brown", "stream": "tab:pink", "bcsr": "tab:gray"}
SINGLE = ["csr", "sell", "ell", "long", "coo", "dia", "stream", "stream4", "bcsr"]  # bench_model's one-format variants (panel has none)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, out = sys.argv[1], sys.argv[2]
    pick = sys.argv[3] if len(sys.argv) > 3 else "rmat"
    strips, plans = [], {}
    with open(path) as f:
        for row in csv.reader(f):
            if row[0] == "strip" and row[1] == pick:
                strips.append(row)
            elif row[0] == "plan":
                plans.setdefault(row[1], {})[row[2]] = float(row[5])
    ratios = []  # (matrix, rules / model, best single / model, model / tuned)
    for name, t in plans.items():
        model = t.get("model")
        if not model or not math.isfinite(model):
            continue
        single = min([t[v] for v in SINGLE if v in t and math.isfinite(t[v])], default=float("nan"))
        ratios.append((name, t.get("rules", float("nan")) / model, single / model))
    for name, a, b in ratios:
        print("%-36s rules/model %.3f  best one format/model %.3f" % (name, a, b))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_model: no matplotlib here; the table above is the result")
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(11, 9))
    for s in strips:
        begin, end, fmt, param, max_len, pred, meas = int(s[3]), int(s[4]), s[5], s[6], int(s[7]), float(s[9]), float(s[10])
        ax1.add_patch(plt.Rectangle((max(begin, 1), 0.8), max(end - begin, 1), max(max_len, 1), color=COLOURS.get(fmt, "grey"), alpha=0.6))
        label = "%s %s\n%.3g / %.3g us" % (fmt, param, pred, meas) if meas > 0 else "%s %s\n%.3g us" % (fmt, param, pred)
        ax1.text(math.sqrt(max(begin, 1) * max(end, 2)), max(max_len, 1) * 1.15, label, ha="center", fontsize=7)
    if strips:
        ax1.set_xscale("log")
        ax1.set_yscale("log")
        ax1.set_xlim(1, max(int(s[4]) for s in strips) * 1.5)
        ax1.set_ylim(0.8, max(int(s[7]) for s in strips) * 4)
    ax1.set_xlabel("row position, sorted by decreasing length")
    ax1.set_ylabel("longest row of the strip (entries)")
    ax1.set_title("%s: the model's plan (label: layout, parameter, predicted / measured alone)" % pick)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c, alpha=0.6) for c in COLOURS.values()]
    ax1.legend(handles, COLOURS.keys(), loc="upper right", fontsize=8)
    x = range(len(ratios))
    ax2.bar([i - 0.2 for i in x], [r[1] for r in ratios], 0.4, label="rules / model")
    ax2.bar([i + 0.2 for i in x], [r[2] for r in ratios], 0.4, label="best one format / model")
    ax2.axhline(1.0, color="black", linewidth=0.8)
    ax2.set_xticks(list(x))
    ax2.set_xticklabels([r[0][:18] for r in ratios], rotation=60, ha="right", fontsize=7)
    ax2.set_ylabel("time / model plan's time")
    ax2.set_title("other plans against the model's (above 1: the model's plan is faster)")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("plot_model: wrote %s" % out)


if __name__ == "__main__":
    main()
