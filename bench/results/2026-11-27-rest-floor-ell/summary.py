"""ab.sh's summary: the replayed host part (min of 5 processes each) and planning alone inside PETSc (median of
15 assemblies per process; the processes' median), B (the patch) over A."""
import collections, csv, glob, math, os, re, statistics, sys

out = sys.argv[1]
host = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(os.path.join(out, "replay.txt")):
    m = re.match(r"([ab]) (\S+)\s+nnz.*host ([0-9.]+) us", line)
    if m: host[m.group(2)][m.group(1)].append(float(m.group(3)))
print("host part replayed on this processor (us; each process's median of 31 plans), min over processes")
for name, d in host.items():
    print(f"  {name:40s} A {min(d['a']):7.1f}  B {min(d['b']):7.1f}  B/A {min(d['b']) / min(d['a']):.2f}   (A {' '.join(f'{x:.0f}' for x in d['a'])}; B {' '.join(f'{x:.0f}' for x in d['b'])})")
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(os.path.join(out, "spmv-*.csv"))):
    v = os.path.basename(f)[5]
    for x in csv.DictReader(open(f)):
        rows[x["name"]][v].append((float(x["plan_alone_ms"]), float(x["plan_alone_calls"])))
print("planning alone inside PETSc (ms, median of 15 assemblies per process) | median over processes, in steady products")
ratios = []
for name, d in rows.items():
    a, b = d["a"], d["b"]
    if not a or not b: continue
    ma, mb = statistics.median(x for x, _ in a), statistics.median(x for x, _ in b)
    ratios.append(mb / ma)
    print(f"  {name:36s} A {' '.join(f'{x:.3f}' for x, _ in a)}  B {' '.join(f'{x:.3f}' for x, _ in b)}  | A {statistics.median(c for _, c in a):.1f}  B {statistics.median(c for _, c in b):.1f} products  B/A {mb / ma:.2f}")
if ratios: print(f"  geometric mean B/A {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f} over {len(ratios)}")
