# Times the model planner's host steps (clock_gettime around each) in a copy of src/mat/impls/tuned/plan:
#   python3 instr.py DIR   (DIR: the copy, edited in place; host_timing.c reads the sums through aijt_T())
import sys
d=sys.argv[1]
p=d+'/partition.c'; s=open(p).read()
s=s.replace('#include','#include <time.h>\nstatic double T_[32];\nstatic double now_(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec*1e-3;}\ndouble *aijt_T(void){return T_;}\n#include',1)
marks=['if ((err = src->lengths(','dia = aijt_whole_dia_us(','bcsr = aijt_whole_bcsr_us(','if ((err = src->columns(','panel = aijt_whole_panel_us(','stream    = aijt_whole_stream_us(','if ((err = aijt_model_buckets_from(','if (isfinite(dia) || isfinite(panel)','if (!isfinite(predicted)) {\n    if (A->nrows','aijt_counts_free(count);\n  count = NULL;']
for i,m in enumerate(marks):
    assert m in s, m
    s=s.replace('  '+m,'  { double t_=now_(); if(%d) T_[%d]+=t_-T_[31]; T_[31]=t_; }\n  '%(i,i-1)+m,1)
s=s.replace('if ((err = aijt_model_buckets_from(NULL, p, count, p->features.max_len, &b, &nb))','if ((err = aijt_model_buckets_from(NULL, p, count, p->features.max_len, &b, &nb)) || (aijt_T()[21]+=nb, 0)')
open(p,'w').write(s)
p=d+'/wholeplan.c'; s=open(p).read()
s=s.replace('#include','#include <time.h>\ndouble *aijt_T(void);\nstatic double nw_(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec*1e-3;}\n#include',1)
a='  if ((d = natural_locality(A, src, R, p)) < 0) return NAN;'
assert a in s
s=s.replace(a,'  double t0_=nw_();\n'+a+'\n  aijt_T()[20]+=nw_()-t0_;')
open(p,'w').write(s)

a='  return split_buckets(R, m, b, nb, ct, 0, beat, p, cap, predicted);\n}'
s=open(d+'/partition.c').read()
assert s.count(a)==1
s=s.replace(a,'  double t0_=now_(); aijt_err e_=split_buckets(R, m, b, nb, ct, 0, beat, p, cap, predicted); T_[22]+=now_()-t0_; return e_;\n}')
a='      if ((err = split_bound(rules, m, p, b, nb, &ct, &bound))) goto fail;'
assert s.count(a)==1
s=s.replace(a,'      T_[23]+=1;\n'+a)
open(d+'/partition.c','w').write(s)
