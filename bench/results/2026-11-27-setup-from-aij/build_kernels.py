#!/usr/bin/env python3
"""The set-up kernels' times in tools/cuptitrace.c timelines: per kernel name (the GPU build's, the skeleton's, DIA's
value codes), how many ran, the longest and the median.
    python3 build_kernels.py TRACE.txt[.gz] ..."""
import gzip
import statistics
import sys
from collections import defaultdict

KEEP = ("build_cu", "skeleton_cu", "dia_codes_cu")
for path in sys.argv[1:]:
    runs = defaultdict(list)
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            p = line.split()
            if len(p) >= 6 and p[0] == "K" and any(k in p[5] for k in KEEP):
                name = p[5]
                for k in ("fill_", "insert_", "code_", "rank_", "reset_", "segment_", "label_", "row_length", "slice_slots", "refill"):
                    if k in name:
                        name = name[name.index(k):].split("E", 1)[0]
                        break
                runs[name].append((int(p[2]) - int(p[1])) / 1e3)
    print(path)
    for name, t in sorted(runs.items(), key=lambda kv: -max(kv[1])):
        print(f"  {len(t):4d} x {name:32s} longest {max(t):8.1f} us, median {statistics.median(t):8.1f} us")
