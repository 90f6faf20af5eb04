#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): three builds in one lease:
#   new: the working tree (the row sort queued behind the columns' first count, and one kernel that zeroes
#        the statistics and sets up the diagonal set);
#   mid: new with init.patch reversed (the row sort queued ahead only);
#   old: new with full.patch reversed (the commit before both).
# bench_plan_gpu rounds new, mid, old twice; bench_spmv's planning (median of 5 assemblies) new, old;
# test_kernels on new.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-rows-ahead/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
D=bench/results/2026-11-22-h100-rows-ahead
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
for v in mid old; do
  rm -rf /tmp/$v && mkdir /tmp/$v && tar --exclude='./build*' --exclude=./.git -cf - . | tar -C /tmp/$v -xf - || exit 1
done
(cd /tmp/mid && patch -s -R -p1 < $D/init.patch) && (cd /tmp/old && patch -s -R -p1 < $D/full.patch) || { echo "trees failed"; exit 1; }
make BUILD=build-cuda all bench bench-plan-gpu > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
(cd /tmp/mid && make BUILD=build-cuda bench-plan-gpu > "$R/make-mid.log" 2>&1) || { tail -30 "$R/make-mid.log"; exit 1; }
(cd /tmp/old && make BUILD=build-cuda all bench bench-plan-gpu > "$R/make-old.log" 2>&1) || { tail -30 "$R/make-old.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
for round in 1 2; do
  for v in new mid old; do
    dir=.; [ $v != new ] && dir=/tmp/$v
    (cd $dir && timeout 50 build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model -reps 9 lap2d box27 circuit rmat lp) > "$R/plan_gpu-$v-$round.txt" 2>&1; echo "plan_gpu $v $round exit $?"
  done
done
for f in "$R"/plan_gpu-*.txt; do echo "== $f"; awk 'NR>2{print $1, $6, $8, $12, $14}' "$f"; done
stamp "plan_gpu"
A=$PWD/.bench-data/actor_movie_incidence.mtx.gz
for v in new old; do
  dir=.; [ $v != new ] && dir=/tmp/$v
  (cd $dir && timeout 80 build-cuda/bench/bench_spmv -reps 30 -warmup 5 -plan_reps 5 -suite lap2d,box27,circuit,rmat,lp -f $A) > "$R/spmv-$v.txt" 2>&1; echo "spmv $v exit $?"
  grep "planning:" "$R/spmv-$v.txt" | grep -v "lap3d:10"
done
stamp "spmv"
(cd tests/planner && timeout 170 ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"
grep -B4 "^FAIL" "$R/kernels.txt" | head -30; tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; rm -f "$R/kernels.txt"
gzip -9 "$R"/spmv-*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
