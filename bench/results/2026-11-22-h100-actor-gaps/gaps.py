#!/usr/bin/env python3
"""Per kernel name in a tools/cuptitrace.c timeline: how many, median duration, and the median idle gap
before the next launch of the same kernel when the two are back to back (gap under 50 us: a benchmark's
timed loop).  A device fed faster than it runs shows gaps of a microsecond or two; a host that cannot keep
up shows its own pace.
    python3 gaps.py TRACE.txt[.gz] ..."""
import gzip
import statistics
import sys
from collections import defaultdict

for path in sys.argv[1:]:
    runs = defaultdict(list)
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            p = line.split()
            if len(p) >= 6 and p[0] == "K":
                runs[p[5]].append((int(p[1]), int(p[2])))
    print(path)
    for name, ks in sorted(runs.items(), key=lambda kv: -len(kv[1])):
        if len(ks) < 50:
            continue
        ks.sort()
        dur = [(e - s) / 1e3 for s, e in ks]
        gaps = [(ks[i + 1][0] - ks[i][1]) / 1e3 for i in range(len(ks) - 1) if 0 <= ks[i + 1][0] - ks[i][1] < 50000]
        print(f"  {len(ks):5d} x {name[:70]:70s} duration {statistics.median(dur):7.2f} us  gap {statistics.median(gaps) if gaps else float('nan'):6.2f} us (p10 {sorted(gaps)[len(gaps)//10] if gaps else float('nan'):.2f}, p90 {sorted(gaps)[9*len(gaps)//10] if gaps else float('nan'):.2f})")
