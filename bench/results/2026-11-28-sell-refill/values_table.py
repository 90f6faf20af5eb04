# Per matrix and way, the medians of bench_spmv's new-values timings and steady product, base / new rounds:
#   mkdir t && tar xzf h200-callN/ab-raw.tgz -C t && (cd t && python3 ../values_table.py)
import re,sys,glob
ways={'a TS step':'ts','assembly and the first':'host','MatScale twice and the first':'scale2'}
rows={}
for f in sorted(glob.glob('*-[0-9].txt')):
    side,r=f[:-4].split('-')
    for l in open(f):
        m=re.match(r'\[(\S+)\] (aijcusparse|aijtuned)\s+new values: (.*?) (?:call|MatMult)?\s*([\d.]+) ms \(median',l)
        if m:
            name,t,w,ms=m.groups()
            for k,v in ways.items():
                if w.startswith(k): rows.setdefault((name,v,t),{})[(side,r)]=float(ms)
        m=re.match(r'\[(\S+)\] (aijcusparse|aijtuned)\s+([\d.]+) us\s+build',l)
        if m: rows.setdefault((m.group(1),'product',m.group(2)),{})[(side,r)]=float(m.group(3))
for k in sorted(rows):
    d=rows[k]
    print('%-24s %-8s %-12s base %s | new %s'%(k[0],k[1],k[2],' '.join('%.3f'%d.get(('base',str(r)),0) for r in (1,2,3)),' '.join('%.3f'%d.get(('new',str(r)),0) for r in (1,2,3))))
