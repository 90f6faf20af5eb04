import csv,re,sys,gzip,statistics
def load(f):
    lines=[l for l in gzip.open(f,'rt') if l.startswith('"')]
    rows=list(csv.reader(lines)); h=rows[0]; i=h.index('gpu__time_duration.sum'); kn=h.index('Kernel Name'); g=h.index('Grid Size')
    seq=[]
    for r in rows[2:]:
        m=re.search(r'(\w+_kernel|DeviceRadixSort\w+|DeviceScan\w+)',r[kn]); seq.append((m.group(1) if m else r[kn][:40], float(r[i].replace(',',''))/1000, r[g]))
    plans=[];cur=[]
    for x in seq:
        if x[0].startswith('stats_diag') and cur: plans.append(cur); cur=[]
        cur.append(x)
    plans.append(cur); return plans
for f in sys.argv[1:]:
    plans=load(f); print("==",f,len(plans),"plans")
    # group consecutive plans with same kernel signature
    sig={}
    for p in plans:
        k=tuple(n for n,_,_ in p); sig.setdefault(k,[]).append(p)
    for k,ps in sig.items():
        tot=[sum(t for _,t,_ in p) for p in ps]
        print("  %d plans, kernels total median %.1f us:"%(len(ps),statistics.median(tot)), " ".join("%s %.1f"%(n.replace('_kernel','').replace('DeviceRadixSort','rs'),statistics.median(p[j][1] for p in ps)) for j,n in enumerate(k)))
