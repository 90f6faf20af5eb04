#!/bin/bash
# bash bench/results/2026-11-28-cold-steps/run.sh OUT: coldsteps on actor_movie_incidence (.bench-data), circuit and
# box27 with the device's model, in ROUNDS processes each (default 2); MATRICES="'-gen box27' ..." to choose.
cd "$(dirname "$0")/../../.."
OUT=${1:-/tmp/out}; mkdir -p $OUT
bash bench/results/2026-11-28-cold-steps/build.sh /tmp/cold > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
MODEL=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '-').model
[ -f $MODEL ] || MODEL=models/NVIDIA-H200.model
eval "set -- ${MATRICES:-.bench-data/actor_movie_incidence.mtx.gz \"-gen circuit\" \"-gen box27\"}"
for r in $(seq 1 ${ROUNDS:-2}); do
  for m in "$@"; do
    echo "=== process $r"; /tmp/cold/coldsteps $MODEL $m
  done
done > $OUT/cold.txt 2>&1
cat $OUT/cold.txt
