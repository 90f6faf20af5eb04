# Medians of the planner's steps (instr_steps.py's lines) for the plannings alone of each matrix in spmv.txt.gz:
# python3 steps.py spmv.txt.gz.  bench_spmv plans each matrix 9 times beside the upload (the first at its
# assembly), then 9 times alone: the lines of the second nine, taken where the "planning before" line closes them.
import gzip, re, statistics, sys
lines, name, out = [], None, []
for l in gzip.open(sys.argv[1], 'rt'):
    if l.startswith('plansteps'):
        lines.append(l.split()[1:])
    m = re.match(r'\[([^]]+)\] aijtuned +planning before .*median of \d+ ([0-9.]+) ms', l)
    if m:
        alone = lines[-9:]
        keys = [k for k in alone[0][1::2]]
        med = {k: statistics.median(float(s[s.index(k) + 1]) for s in alone if k in s) for k in keys}
        out.append((m.group(1), m.group(2), alone[0][0], med))
    if re.match(r'\[([^]]+)\] aijtuned +planning: first', l):
        lines = []
for name, ms, rows, med in out:
    print('%-34s %s alone %s ms: ' % (name, rows, ms) + ' '.join('%s %.1f' % kv for kv in med.items()))
