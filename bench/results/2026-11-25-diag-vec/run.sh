#!/usr/bin/env bash
# One GPU (carry .petsc-cuda: the makefile reads its configuration).  run.sh OUTDIR ROUNDS: the diagonal test as on main (A: the tree with diag-vec.patch
# taken back), with aligned vector loads of 2 vectors in flight (B: the tree), and of 4 (C: vloads4.patch
# on top); test_kernels on B and C, then ROUNDS of bench_plan_gpu A B C, then ncu on the statistics and
# diagonal launch of box27 and lap3d for each.  Everything lands in OUTDIR/dv.tar.gz.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR ROUNDS}; ROUNDS=${2:?}
D=bench/results/2026-11-25-diag-vec; R=$PWD
mkdir -p "$O/dv"; out=$(cd "$O/dv" && pwd); start=$(date +%s)
stamp() { echo "$(( $(date +%s) - start )) s: $*" | tee -a "$out/run.txt"; }
trap 'tar czf "$O/dv.tar.gz" -C "$O" dv' EXIT
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
export PETSC_DIR=/opt/petsc-cuda
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee -a "$out/run.txt"
for v in a c; do
  rm -rf /tmp/dv-$v; mkdir -p /tmp/dv-$v
  tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C /tmp/dv-$v
done
(cd /tmp/dv-a && patch -s -R -p1 < "$R/$D/diag-vec.patch") || exit 1
(cd /tmp/dv-c && patch -s -p1 < "$R/$D/vloads4.patch") || exit 1
dir_of() { case $1 in a) echo /tmp/dv-a ;; c) echo /tmp/dv-c ;; *) echo $R ;; esac; }
T="build-cuda/bench/bench_plan_gpu build-cuda/tests/kernels/test_kernels"
for v in a b c; do (cd $(dir_of $v) && make BUILD=build-cuda -j5 $T > "$out/make-$v.log" 2>&1) & done
for job in $(jobs -p); do wait $job || { for f in "$out"/make-*.log; do tail -n 20 "$f"; done; exit 1; }; done
stamp built
for v in b c; do (cd $(dir_of $v)/tests/planner && timeout 300 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels-$v.txt" 2>&1) & done
wait; for v in b c; do stamp "test_kernels $v: $(tail -n 1 "$out/kernels-$v.txt")"; grep -E "^FAIL" "$out/kernels-$v.txt" | head; gzip -9 "$out/kernels-$v.txt"; done
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
for round in $(seq 1 "$ROUNDS"); do
  for v in a b c; do
    (cd $(dir_of $v) && timeout 100 build-cuda/bench/bench_plan_gpu -model "$R/$model" -reps 15 lap2d lap3d box27 circuit rmat) > "$out/plan_gpu-$v$round.txt" 2>&1
    stamp "round $round $v"
  done
done
for v in a b c; do
  for m in box27 lap3d; do
    (cd $(dir_of $v) && timeout 60 ncu --clock-control none --kernel-name regex:stats_diag --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section Occupancy \
      build-cuda/bench/bench_plan_gpu -model "$R/$model" -reps 3 $m) > "$out/ncu-$v-$m.txt" 2>&1
    stamp "ncu $v $m"
  done
done
for f in "$out"/plan_gpu-*.txt; do echo "== $(basename $f)"; grep -v "^#" "$f" | awk '{print $1, $5, $6, $12}'; done | tee "$out/summary.txt"
