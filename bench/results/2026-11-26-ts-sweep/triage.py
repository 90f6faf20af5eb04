#!/usr/bin/env python3
"""Each kept pair of the sweep (keep/N.ref: aijcusparse, keep/N.tuned: aijtuned) against PETSc's recorded output:
the largest relative difference of the numbers printed (differences under 1e-9 absolute ignored) and the count of
other words that differ, or the token counts where they differ.
    tar xzf keep.tar.gz && python3 triage.py keep PETSC_EXAMPLES_SRC > triage.txt"""
import glob, os, re, sys

NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def compare(a, b):
    ta, tb = a.split(), b.split()
    if len(ta) != len(tb):
        return ("len", len(ta), len(tb))
    worst, words = 0.0, 0
    for x, y in zip(ta, tb):
        if x == y:
            continue
        fa, fb = NUM.fullmatch(x.rstrip(",;:)").lstrip("(")), NUM.fullmatch(y.rstrip(",;:)").lstrip("("))
        if fa and fb:
            p, q = float(fa.group()), float(fb.group())
            if abs(p - q) >= 1e-9:
                worst = max(worst, abs(p - q) / max(abs(p), abs(q), 1e-300))
        else:
            words += 1
    return ("num", worst, words)


keep, src = sys.argv[1], sys.argv[2]
for tuned in sorted(glob.glob(os.path.join(keep, "*.tuned"))):
    stem = tuned[: -len(".tuned")]
    ex = open(tuned).readline().split()[0]
    suffix = re.match(re.escape(os.path.join(keep, ex.replace("/", "_") + "_")) + r"(.*)_n(\d+)_\d+$", stem).group(1)
    expected = os.path.join(src, os.path.dirname(ex), "output", "%s_%s.out" % (os.path.basename(ex), suffix or "1"))
    if not os.path.exists(expected):
        print(os.path.basename(stem), "no recording")
        continue
    rec = open(expected).read().replace("aijcusparse", "aij")
    out_t = open(tuned).read().split("\n", 1)[1]
    out_r = open(stem + ".ref").read().split("\n", 1)[1]
    print(os.path.basename(stem), "tuned-vs-rec", compare(rec, out_t), "ref-vs-rec", compare(rec, out_r))
