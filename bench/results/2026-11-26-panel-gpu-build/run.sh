#!/usr/bin/env bash
# PANEL laid out on the GPU against the tree before it (800fa03), one GPU: the kernels' test, then lp (the
# generated LP-like matrix, planned PANEL) in bench_spmv with each tree, alternating, two rounds each, then
# bench_spmv over the whole suite with the new tree.  Carry .petsc-cuda and .bench-data.tar.xz.
#   bash bench/results/2026-11-26-panel-gpu-build/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" build kernels
source bench/session.sh "$O"
old=/tmp/aijtuned-800fa03
[ -d $old ] || git worktree add -f $old 800fa03 > /dev/null 2>&1 || { echo "no worktree of 800fa03"; exit 1; }
(cd $old && make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench > "$out/old-make.log" 2>&1) || { tail -20 "$out/old-make.log"; exit 1; }
stamp "800fa03 built"
for r in 1 2; do
  for t in old new; do
    bin=build-cuda/bench/bench_spmv; [ $t = old ] && bin=$old/build-cuda/bench/bench_spmv
    timeout 90 $bin -suite lp -reps 100 -warmup 5 > "$out/lp-$t-$r.txt" 2>&1; echo "lp $t round $r exit $?"
    grep -E "^\[lp\] (aijcusparse|aijtuned) +[0-9]|planning:|^lp " "$out/lp-$t-$r.txt"
  done
done
stamp "lp A/B"
bash bench/results/2026-11-25-h100-verify/run.sh "$O/v" spmv
