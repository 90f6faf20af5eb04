# Times the model planner's steps inside PETSc: instr_steps.py DIR (a copy of src/mat/impls/tuned/plan, edited in
# place).  Each aijt_plan_model_from call prints one line to stderr, "plansteps rows=N" and the microseconds from
# one mark to the next (clock_gettime), then the total.
import sys
d = sys.argv[1]
p = d + '/partition.c'
s = open(p).read()
s = s.replace('#include', '#include <stdio.h>\n#include <time.h>\nstatic double now_(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec*1e-3;}\nstatic double T0_, TL_; static char B_[512]; static int N_;\n#define MARK_(name) do { double t_ = now_(); N_ += snprintf(B_ + N_, sizeof B_ - N_, " %s %.1f", name, t_ - TL_); TL_ = t_; } while (0)\n#include', 1)
marks = [
  ('  aijt_model_prefetch(m);', None),
  ('  dia = aijt_whole_dia_us(A, src, rules, m, &nd);', 'lengths'),
  ('  bcsr = aijt_whole_bcsr_us(', 'dia'),
  ('  if ((err = src->columns(src->ctx, rules, nd, p))) goto fail;', 'bcsr'),
  ('  panel = aijt_whole_panel_us(', 'columns'),
  ('  stream    = aijt_whole_stream_us(', 'panel'),
  ('  if ((err = aijt_model_buckets_from(NULL, p, count, p->features.max_len, &b, &nb))', 'stream'),
  ('  if (isfinite(dia) || isfinite(panel) || isfinite(stream)) {', 'tables'),
  ('  if (!isfinite(predicted)) {\n    if (A->nrows', 'floor'),
  ('    if ((err = split(src, rules, m, p, count, b, nb, &ct,', 'rows'),
  ('    if (p->sorted) sell_slots_from_counts(p, count);', 'split'),
  ('  if (src->fetch && (err = src->fetch(src->ctx, p))) goto fail;', 'whole'),
  ('  *out = p; /* the strips', 'fetch'),
]
for m, name in marks:
    assert s.count(m) == 1, m
    if name is None:
        s = s.replace(m, '  T0_ = TL_ = now_(); N_ = 0;\n' + m, 1)
    else:
        s = s.replace(m, '  MARK_("%s");\n' % name + m, 1)
s = s.replace('  *out = p; /* the strips', '  fprintf(stderr, "plansteps rows=%ld%s total %.1f\\n", (long)A->nrows, B_, now_() - T0_);\n  *out = p; /* the strips', 1)
# inside split: the windows and their sectors' pass, then the dynamic program
m = '  if ((err = bucket_localities(src, p, count, b, nb))) return err;\n  return split_buckets('
assert s.count(m) == 1
s = s.replace(m, '  if ((err = bucket_localities(src, p, count, b, nb))) return err;\n  MARK_("localities");\n  return split_buckets(', 1)
open(p, 'w').write(s)
