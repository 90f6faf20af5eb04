#!/bin/bash
# bash bench/results/2026-11-28-stats-probe/run.sh OUT: builds the probe and runs it on actor_movie_incidence
# (.bench-data) and the generated circuit, box27 and rmat, and a small lap2d.
cd "$(dirname "$0")/../../.."
OUT=${1:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt
bash bench/results/2026-11-28-stats-probe/build.sh /tmp/probe-b > $OUT/build.txt 2>&1 || { cat $OUT/build.txt; exit 1; }
{ for m in .bench-data/actor_movie_incidence.mtx.gz; do /tmp/probe-b/probe $m; done
  for m in circuit box27; do /tmp/probe-b/probe -gen $m; done; } > $OUT/probe.txt 2>&1
cat $OUT/gpu.txt $OUT/probe.txt
