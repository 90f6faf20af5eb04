#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): the set-up passes' results fetched through a pinned buffer
# (stage.patch, "new") against the tree without it ("old", the patch reversed), built side by side in one
# lease: bench_plan_gpu and bench_spmv's planning (median of 5 assemblies), rounds interleaved new, old,
# new, old; then test_kernels on the new build.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-stage/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
D=bench/results/2026-11-22-h100-stage
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude='./build*' --exclude=./.git -cf - . | tar -C /tmp/old -xf - && (cd /tmp/old && patch -s -R -p1 < $D/stage.patch) || { echo "old tree failed"; exit 1; }
make BUILD=build-cuda all bench bench-plan-gpu > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
(cd /tmp/old && make BUILD=build-cuda all bench bench-plan-gpu > "$R/make-old.log" 2>&1) || { tail -30 "$R/make-old.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
A=$PWD/.bench-data/actor_movie_incidence.mtx.gz
for round in 1 2; do
  for v in new old; do
    dir=.; [ $v = old ] && dir=/tmp/old
    (cd $dir && timeout 60 build-cuda/bench/bench_plan_gpu -model models/NVIDIA-H100-80GB-HBM3.model -reps 9 lap2d box27 circuit rmat lp) > "$R/plan_gpu-$v-$round.txt" 2>&1; echo "plan_gpu $v $round exit $?"
    (cd $dir && timeout 90 build-cuda/bench/bench_spmv -reps 30 -warmup 5 -plan_reps 5 -suite lap2d,box27,circuit,rmat,lp -f $A) > "$R/spmv-$v-$round.txt" 2>&1; echo "spmv $v $round exit $?"
  done
done
for f in "$R"/plan_gpu-*.txt; do echo "== $f"; awk 'NR>2{print $1, $8, $12, $14}' "$f"; done
for f in "$R"/spmv-*.txt; do echo "== $f"; grep "planning:" "$f" | grep -v "lap3d:10"; done
stamp "rounds"
(cd tests/planner && timeout 200 ../../build-cuda/tests/kernels/test_kernels > "$R/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$R/kernels.txt")" | tee -a "$R/run.txt"
grep -B4 "^FAIL" "$R/kernels.txt" | head -30; tail -3 "$R/kernels.txt" > "$R/kernels-tail.txt"; rm -f "$R/kernels.txt"
gzip -9 "$R"/spmv-*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
