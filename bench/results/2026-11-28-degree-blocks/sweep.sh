#!/bin/bash
# bash bench/results/2026-11-28-degree-blocks/sweep.sh OUT: ../2026-11-28-stats-ab's abprobe, built from the working
# tree with each count of blocks per run of the column test's sample (DEGREE_SAMPLE_PER, plan_gpu.cu's knob; 8 is
# the library's), then ROUNDS rounds (default 1) of every build in turn on each generated matrix whose plan runs
# the sample.  abprobe prints the sample's GPU time and wall, the whole planner, and the plan's digest.
cd "$(dirname "$0")/../../.."
OUT=${1:-/tmp/out}; mkdir -p $OUT
PERS=${PERS:-8 4 2 1}
for p in $PERS; do
  NVEXTRA="-DDEGREE_SAMPLE_PER=$p" bash bench/results/2026-11-28-stats-ab/build.sh /tmp/deg-$p > $OUT/build-$p.txt 2>&1 &
done
wait
MODEL=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '-').model
[ -f $MODEL ] || MODEL=models/NVIDIA-H200.model
for r in $(seq 1 ${ROUNDS:-1}); do
  for m in ${MATRICES:-circuit rmat random}; do
    for p in $PERS; do
      echo "=== round $r per $p"; /tmp/deg-$p/abprobe $MODEL -gen $m
    done
  done
done > $OUT/sweep.txt 2>&1
grep -E "^===|^#|column test|whole planner  |whole planner \(|plan:" $OUT/sweep.txt
