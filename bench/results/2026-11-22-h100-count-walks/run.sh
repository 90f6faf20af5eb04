#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): planning before and after walks.patch (the count walks that
# step over zeros), in the same lease: bench_plan_gpu over the generated suite, then bench_spmv over the
# generated suite (planning inside PETSc), each build in turn, two rounds.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-count-walks/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
D=bench/results/2026-11-22-h100-count-walks
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude='./build*' --exclude=./.git -cf - . | tar -C /tmp/old -xf - && (cd /tmp/old && patch -s -R -p1 < $D/walks.patch) || { echo "old tree failed"; exit 1; }
make BUILD=build-cuda all bench bench-plan-gpu > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
(cd /tmp/old && make BUILD=build-cuda all bench bench-plan-gpu > "$R/make-old.log" 2>&1) || { tail -30 "$R/make-old.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
for round in 1 2; do
  for v in new old; do
    dir=.; [ $v = old ] && dir=/tmp/old
    (cd $dir && timeout 150 build-cuda/bench/bench_plan_gpu -reps 9) > "$R/plan_gpu-$v-$round.txt" 2>&1; echo "plan_gpu $v $round exit $?"
    stamp "plan_gpu $v $round"
  done
done
for v in new old; do
  dir=.; [ $v = old ] && dir=/tmp/old
  (cd $dir && timeout 150 build-cuda/bench/bench_spmv -reps 50 -warmup 3) > "$R/spmv-$v.txt" 2>&1; echo "spmv $v exit $?"
  stamp "spmv $v"
done
for f in "$R"/plan_gpu-*.txt; do echo "== $f"; awk 'NR>2{print $1, $6, $8, $12, $14}' "$f" | column -t; done
for f in "$R"/spmv-*.txt; do echo "== $f"; sed -n '/^==== results/,$p' "$f" | awk '/^matrix/||/\|/' | cut -c1-40,150-; done
rm -rf "$R/setup"
(cd "$O" && tar czf r.tgz r && rm -rf r)
