#!/usr/bin/env python3
"""Planning alone in an A/B of bench/ab.sh, per matrix and side: every process's median, in order, and the least of
them, which compares the sides within the faster of the two modes a process falls in (about 30% apart on these
virtual machines, bench/results/2026-11-28-plan-modes), where the mean or median of a few processes compares which
modes they met.

    python3 bench/ab_planning.py OUTDIR/raw.tgz      (or the folder holding base-R.txt and new-R.txt)
"""
import io
import os
import re
import sys
import tarfile

LINE = re.compile(r"\[(\S+)\] aijtuned\s+planning before the values' upload .*median of (\d+) ([\d.]+) ms")


def outputs(path):
    """(side, round, text) of each bench output in the archive or folder."""
    name = re.compile(r"(?:.*/)?(base|new)-(\d+)\.txt$")
    if os.path.isdir(path):
        for f in sorted(os.listdir(path)):
            m = name.match(f)
            if m:
                yield m.group(1), int(m.group(2)), open(os.path.join(path, f)).read()
        return
    with tarfile.open(path) as t:
        for member in t.getmembers():
            m = name.match(member.name)
            if m:
                yield m.group(1), int(m.group(2)), io.TextIOWrapper(t.extractfile(member)).read()


def main(path):
    ms = {}  # matrix -> side -> [(round, median ms)]
    for side, rnd, text in outputs(path):
        for m in LINE.finditer(text):
            if int(m.group(2)) > 1:  # a median of one planning is the warm-up matrix's
                ms.setdefault(m.group(1), {}).setdefault(side, []).append((rnd, float(m.group(3))))
    if not ms:
        sys.exit("no planning-alone lines in %s" % path)
    print("| matrix | side | each process's median, ms (by round) | least | new / base, least |")
    print("|---|---|---|---:|---:|")
    for name in sorted(ms):
        least = {s: min(v for _, v in r) for s, r in ms[name].items()}
        for side in ("base", "new"):
            if side not in ms[name]:
                continue
            each = ", ".join("%.3f" % v for _, v in sorted(ms[name][side]))
            ratio = "%.2f" % (least["new"] / least["base"]) if side == "new" and "base" in least else ""
            print("| %s | %s | %s | %.3f | %s |" % (name, side, each, least[side], ratio))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
