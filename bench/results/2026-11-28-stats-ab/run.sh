#!/bin/bash
# bash bench/results/2026-11-28-stats-ab/run.sh OUT: abprobe built from the working tree (new) and from build/ab-base.tgz
# (base: the tree before the change, with this folder's abprobe.cu and build.sh and the stats-probe reader copied in),
# then three rounds, base and new alternating, on actor_movie_incidence (.bench-data), circuit and box27, with the
# device's model.  Then test_kernels of the new tree.
cd "$(dirname "$0")/../../.."
OUT=${1:-/tmp/out}; mkdir -p $OUT
H=bench/results/2026-11-28-stats-ab
rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf build/ab-base.tgz -C /tmp/base
mkdir -p /tmp/base/$H /tmp/base/bench/results/2026-11-28-stats-probe /tmp/base/bench/results/2026-11-28-host-pricing
cp $H/abprobe.cu $H/build.sh /tmp/base/$H/
cp bench/results/2026-11-28-stats-probe/readmtx.c /tmp/base/bench/results/2026-11-28-stats-probe/
cp bench/results/2026-11-28-host-pricing/readmtx.h /tmp/base/bench/results/2026-11-28-host-pricing/
(bash /tmp/base/$H/build.sh /tmp/ab-base && bash $H/build.sh /tmp/ab-new) > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
MODEL=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '-').model
[ -f $MODEL ] || MODEL=models/NVIDIA-H200.model
for r in 1 2; do
  for side in base new; do
    for m in ".bench-data/actor_movie_incidence.mtx.gz" "-gen circuit" "-gen box27"; do
      echo "=== round $r $side"; /tmp/ab-$side/abprobe $MODEL $m
    done
  done
done > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
