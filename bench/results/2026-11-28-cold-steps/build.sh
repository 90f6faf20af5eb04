#!/bin/bash
# Builds coldsteps into $1 (default /tmp/cold): the planner (C) from a copy of src/mat/impls/tuned/plan edited by
# ../2026-11-28-plan-steps/instr_steps.py, whose per-planning line goes into the global aijt_steps_line instead of
# stderr; stage.cu; the generators; and coldsteps.cu, which includes kernels/plan_gpu.cu.  No PETSc.
set -e
cd "$(dirname "$0")/../../.."
B=${1:-/tmp/cold}; mkdir -p $B
rm -rf $B/plan && cp -r src/mat/impls/tuned/plan $B/plan
python3 bench/results/2026-11-28-plan-steps/instr_steps.py $B/plan
python3 - $B/plan/partition.c <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
old = 'fprintf(stderr, "plansteps rows=%ld%s total %.1f\\n", (long)A->nrows, B_, now_() - T0_);'
assert s.count(old) == 1
s = s.replace(old, 'snprintf(aijt_steps_line, sizeof aijt_steps_line, "%s total %.1f", B_, now_() - T0_);')
s = s.replace('static double T0_, TL_;', 'char aijt_steps_line[512];\nstatic double T0_, TL_;', 1)
open(p, 'w').write(s)
PY
P=$B/plan
F="-arch=sm_90 -O3 -std=c++17 -lineinfo -Ikernels -I$P -Ibench/gen $NVEXTRA" # NVEXTRA: -D knobs of plan_gpu.cu
for c in $P/*.c bench/gen/matgen.c bench/results/2026-11-28-stats-probe/readmtx.c; do cc -std=gnu99 -O2 -fPIC -I$P -Ibench/gen -DAIJT_MODEL_DIR='"models"' -c $c -o $B/$(basename $c .c).o & done
nvcc $F -c kernels/stage.cu -o $B/k_stage.o &
wait
nvcc $F bench/results/2026-11-28-cold-steps/coldsteps.cu $B/*.o -o $B/coldsteps
