# The A/B of run3.sh as a table: python3 ab_table.py h200-call3/raw.tgz
# Per matrix and method: the paced time (the first process of each round), the device time and the host's time per
# call (the held process), base then new, one figure per round.
import collections, re, sys, tarfile
d = collections.defaultdict(list)
with tarfile.open(sys.argv[1]) as t:
    for side in ('base', 'new'):
        for r in (1, 2, 3):
            text = t.extractfile(f'{side}-{r}.txt').read().decode()
            held = False
            for l in text.splitlines():
                if l.startswith('==== results'): held = True  # the first process's results end its lines
                m = re.match(r'\[(.*?)\] (aijcusparse|sellcuda|aijtuned)\s+held: device ([\d.]+) us, host ([\d.]+) us', l)
                if m:
                    d[(m[1], m[2], 'device', side)].append(float(m[3])); d[(m[1], m[2], 'host', side)].append(float(m[4]))
                    continue
                m = re.match(r'\[(.*?)\] (aijcusparse|sellcuda|aijtuned)\s+([\d.]+) us   build', l)
                if m and not held: d[(m[1], m[2], 'paced', side)].append(float(m[3]))
for k in sorted(set(k[:3] for k in d)):
    if k[0] == 'lap3d:10': continue  # bench's own warm-up matrix
    b, n = d.get(k + ('base',), []), d.get(k + ('new',), [])
    print(f"{k[0]:17s} {k[1]:11s} {k[2]:6s}  {' '.join('%6.1f' % x for x in b)}  ->  {' '.join('%6.1f' % x for x in n)}")
