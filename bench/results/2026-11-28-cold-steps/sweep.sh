#!/bin/bash
# bash bench/results/2026-11-28-cold-steps/sweep.sh OUT: coldsteps (warm state only) built with each pair of block
# counts of the lengths' launch, STAT_BLOCKS:DIAG_BLOCKS (plan_gpu.cu's knobs; 1024:2048 is the library's), then
# ROUNDS rounds (default 2) of every build in turn on each matrix.  The plans' digests must agree.
cd "$(dirname "$0")/../../.."
OUT=${1:-/tmp/out}; mkdir -p $OUT
PAIRS=${PAIRS:-1024:2048 512:2048 256:2048 1024:1024 1024:512}
for p in $PAIRS; do
  NVEXTRA="-DSTAT_BLOCKS=${p%:*} -DDIAG_BLOCKS=${p#*:}" bash bench/results/2026-11-28-cold-steps/build.sh /tmp/sweep-${p/:/-} > $OUT/build-${p/:/-}.txt 2>&1 &
done
wait
MODEL=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '-').model
[ -f $MODEL ] || MODEL=models/NVIDIA-H200.model
eval "set -- ${MATRICES:-.bench-data/actor_movie_incidence.mtx.gz \"-gen circuit\" \"-gen box27\" \"-gen lap3d\" \"-gen lap2d\"}"
for r in $(seq 1 ${ROUNDS:-2}); do
  for m in "$@"; do
    for p in $PAIRS; do
      echo "=== round $r blocks $p"; COLDSTEPS_STATES=1 /tmp/sweep-${p/:/-}/coldsteps $MODEL $m | grep -v "^  code mapped"
    done
  done
done > $OUT/sweep.txt 2>&1
grep -E "^===|whole planner|^#|plan:" $OUT/sweep.txt
