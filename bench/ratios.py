#!/usr/bin/env python3
"""Table of MatMult times from a gpu_smoke.sh mult.txt: aijcusparse vs aijtuned per matrix, with the
geometric mean, the worst and the best speedup (aijcusparse time / aijtuned time).

    python3 bench/ratios.py bench/results/<run>/mult.txt
"""
import math
import re
import sys


def main(path):
    times = {}
    for line in open(path):
        m = re.match(r"(\S+)\s+(aijcusparse|aijtuned)\s+([\d.]+) us", line)
        if m:
            times.setdefault(m.group(1).replace(".mtx.gz", ""), {})[m.group(2)] = float(m.group(3))
    print("| matrix | aijcusparse us | aijtuned us | speedup |")
    print("|---|---:|---:|---:|")
    logs = []
    for name, t in sorted(times.items()):
        if len(t) < 2:
            continue
        r = t["aijcusparse"] / t["aijtuned"]
        logs.append(math.log(r))
        print("| %s | %.3f | %.3f | %.2f |" % (name, t["aijcusparse"], t["aijtuned"], r))
    if logs:
        print("\ngeometric mean %.2f, worst %.2f, best %.2f over %d matrices"
              % (math.exp(sum(logs) / len(logs)), math.exp(min(logs)), math.exp(max(logs)), len(logs)))


if __name__ == "__main__":
    main(sys.argv[1])
