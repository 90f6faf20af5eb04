#!/usr/bin/env bash
# After ab3.sh (A built in /tmp/ab-a, B in the tree): the statistics-and-diagonal-test launch of one plan
# of each matrix, A then B, timed by ncu (gpu__time_duration, the clocks left alone).  ncu.sh OUTFILE MATRIX...
set -uo pipefail
F=${1:?usage: ncu.sh OUTFILE MATRIX...}; shift
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
R=$PWD
for v in a b; do
  dir=$R; [ $v = a ] && dir=/tmp/ab-a
  for mat in "$@"; do
    echo "== $v $mat" >> "$F"
    (cd $dir && timeout 120 ncu --clock-control none --kernel-name regex:stats_diag --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active \
      build-cuda/bench/bench_plan_gpu -model "$R/$model" -reps 1 $mat) 2>&1 | grep -E "stats_diag|gpu__time|dram__|l1tex__|warps_active" >> "$F"
  done
done
cat "$F"
